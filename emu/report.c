/* report.c: statistics and mismatch reports of `infsim run`; see report.h. */
#include "report.h"

#include <inttypes.h>
#include <string.h>

/* ---- the machine ---- */

/* "8 KiB", "128 MiB"; just "N bytes" when no larger unit divides it. */
static unsigned bytes_text(char *buf, size_t size, uint64_t bytes)
{
	static const char *unit[] = { "bytes", "KiB", "MiB", "GiB", "TiB" };
	unsigned u = 0;
	uint64_t v = bytes;
	while (u + 1 < sizeof unit / sizeof unit[0] && v >= 1024 && v % 1024 == 0) {
		v /= 1024;
		u++;
	}
	snprintf(buf, size, "%" PRIu64 " %s", v, unit[u]);
	return u;
}

static void geom_text(FILE *f, const sram_geom *g)
{
	unsigned banks = g->mesh_x * g->mesh_y;
	uint64_t arrays = (uint64_t)banks * g->ways_per_bank * g->arrays_per_way;
	char array_bytes[32], all_bytes[32];
	bytes_text(array_bytes, sizeof array_bytes,
		   (uint64_t)g->wordlines * g->bitlines / 8);
	bool in_units = bytes_text(all_bytes, sizeof all_bytes, sram_geom_bytes(g)) > 0;
	fprintf(f, "  array       %u wordlines x %u bitlines (%s)\n",
		g->wordlines, g->bitlines, array_bytes);
	fprintf(f, "  way         %u arrays\n", g->arrays_per_way);
	fprintf(f, "  bank        %u ways, %u arrays\n", g->ways_per_bank,
		g->ways_per_bank * g->arrays_per_way);
	fprintf(f, "  machine     %u x %u mesh of banks: %u banks, %" PRIu64 " arrays\n",
		g->mesh_x, g->mesh_y, banks, arrays);
	fprintf(f, "  bitlines    %" PRIu64 " (elements per wordline)\n",
		sram_geom_bitlines(g));
	if (in_units)
		fprintf(f, "  SRAM        %" PRIu64 " bytes (%s)\n", sram_geom_bytes(g),
			all_bytes);
	else
		fprintf(f, "  SRAM        %s\n", all_bytes);
}

static void geom_json(FILE *f, const sram_geom *g)
{
	unsigned banks = g->mesh_x * g->mesh_y;
	fprintf(f, "{\"wordlines\": %u, \"bitlines\": %u, \"arrays_per_way\": %u, "
		"\"ways_per_bank\": %u, \"mesh_x\": %u, \"mesh_y\": %u, "
		"\"banks\": %u, \"arrays\": %" PRIu64 ", \"total_bitlines\": %" PRIu64
		", \"bytes\": %" PRIu64 "}",
		g->wordlines, g->bitlines, g->arrays_per_way, g->ways_per_bank,
		g->mesh_x, g->mesh_y, banks,
		(uint64_t)banks * g->ways_per_bank * g->arrays_per_way,
		sram_geom_bitlines(g), sram_geom_bytes(g));
}

void emu_report_geom(FILE *f, const sram_geom *g, bool json)
{
	if (json) {
		geom_json(f, g);
		fputc('\n', f);
	} else {
		fprintf(f, "machine\n");
		geom_text(f, g);
	}
}

/* ---- statistics ---- */

#define COUNT_HEAD "%12s %12s %12s %12s %12s"
#define COUNT_ROW "%12" PRIu64 " %12" PRIu64 " %12" PRIu64 " %12" PRIu64 " %12" PRIu64

static void count_row(FILE *f, const sram_count *c)
{
	fprintf(f, COUNT_ROW "\n", c->cycles, c->reads, c->writes, c->logic,
		c->activations);
}

static void stats_by_op_text(FILE *f, const emu_stats *st)
{
	fprintf(f, "\nby command    %8s " COUNT_HEAD "\n", "count", "cycles", "reads",
		"writes", "logic", "activations");
	for (unsigned op = 0; op < ISA_OP_COUNT; op++) {
		if (!st->cmds_by_op[op])
			continue;
		fprintf(f, "  %-11s %8" PRIu64 " ", isa_info_of(op)->name,
			st->cmds_by_op[op]);
		count_row(f, &st->by_op[op]);
	}
}

/* Bank b sits at mesh position (b % mesh_x, b / mesh_x) (doc/MACHINE.md). */
static void stats_by_bank_text(FILE *f, const emu_stats *st, unsigned mesh_x)
{
	unsigned idle = 0;
	fprintf(f, "\nby bank                " COUNT_HEAD "\n", "cycles", "reads",
		"writes", "logic", "activations");
	for (unsigned b = 0; b < st->nbanks; b++) {
		if (!st->by_bank[b].cycles) {
			idle++;
			continue;
		}
		char at[48];
		snprintf(at, sizeof at, "%u (%u,%u)", b, b % mesh_x, b / mesh_x);
		fprintf(f, "  bank %-16s ", at);
		count_row(f, &st->by_bank[b]);
	}
	fprintf(f, "  (%u of %u banks ran no command; %" PRIu64
		" (command, bank) pairs skipped)\n", idle, st->nbanks, st->bank_skips);
}

void emu_report_stats_text(FILE *f, const emu_machine *em)
{
	const emu_stats *st = &em->st;
	emu_report_geom(f, &em->m->g, false);
	fprintf(f, "\ntotal                  " COUNT_HEAD "\n", "cycles", "reads",
		"writes", "logic", "activations");
	fprintf(f, "  %-20" PRIu64 " ", st->commands);
	count_row(f, &st->total);
	fprintf(f, "  (commands; cycles are summed over commands: the banks run a"
		" command in parallel)\n");
	stats_by_op_text(f, st);
	stats_by_bank_text(f, st, em->m->g.mesh_x);
	fprintf(f, "\ntranspose unit\n  cycles      %" PRIu64 "\n  bits        %"
		PRIu64 "\n", st->ttu_cycles, st->ttu_bits);
}

static void count_json(FILE *f, const sram_count *c)
{
	fprintf(f, "\"cycles\": %" PRIu64 ", \"reads\": %" PRIu64 ", \"writes\": %"
		PRIu64 ", \"logic\": %" PRIu64 ", \"activations\": %" PRIu64,
		c->cycles, c->reads, c->writes, c->logic, c->activations);
}

static void stats_lists_json(FILE *f, const emu_stats *st, unsigned mesh_x)
{
	const char *sep = "";
	fprintf(f, "  \"by_command\": {");
	for (unsigned op = 0; op < ISA_OP_COUNT; op++) {
		if (!st->cmds_by_op[op])
			continue;
		fprintf(f, "%s\n    \"%s\": {\"count\": %" PRIu64 ", ", sep,
			isa_info_of(op)->name, st->cmds_by_op[op]);
		count_json(f, &st->by_op[op]);
		fputc('}', f);
		sep = ",";
	}
	fprintf(f, "%s},\n  \"by_bank\": [", *sep ? "\n  " : "");
	sep = "";
	for (unsigned b = 0; b < st->nbanks; b++) {
		if (!st->by_bank[b].cycles)
			continue;
		fprintf(f, "%s\n    {\"bank\": %u, \"x\": %u, \"y\": %u, ", sep, b,
			b % mesh_x, b / mesh_x);
		count_json(f, &st->by_bank[b]);
		fputc('}', f);
		sep = ",";
	}
	fprintf(f, "%s],\n", *sep ? "\n  " : "");
}

void emu_report_stats_json(FILE *f, const emu_machine *em)
{
	const emu_stats *st = &em->st;
	fprintf(f, "{\n  \"machine\": ");
	geom_json(f, &em->m->g);
	fprintf(f, ",\n  \"totals\": {\"commands\": %" PRIu64 ", ", st->commands);
	count_json(f, &st->total);
	fprintf(f, "},\n");
	stats_lists_json(f, st, em->m->g.mesh_x);
	fprintf(f, "  \"bank_skips\": %" PRIu64 ",\n", st->bank_skips);
	fprintf(f, "  \"transpose_unit\": {\"cycles\": %" PRIu64 ", \"bits\": %" PRIu64
		"}\n}\n", st->ttu_cycles, st->ttu_bits);
}

/* ---- the first wrong element ---- */

/* "0-3, 7, 31": the set bits of x as ranges. */
static int bit_ranges(char *buf, size_t size, uint64_t x)
{
	int len = 0;
	for (unsigned i = 0; i < 64;) {
		if (!(x >> i & 1)) {
			i++;
			continue;
		}
		unsigned j = i;
		while (j + 1 < 64 && (x >> (j + 1) & 1))
			j++;
		size_t at = (size_t)len < size ? (size_t)len : size;
		len += snprintf(buf + at, size - at, j > i ? "%s%u-%u" : "%s%u",
				len ? ", " : "", i, j);
		i = j + 1;
	}
	return len;
}

static int value_text(char *buf, size_t size, const emu_buffer *b, uint64_t v)
{
	unsigned digits = (b->width + 3) / 4;
	v &= isa_mask(b->width);
	if (b->is_signed)
		return snprintf(buf, size, "%" PRId64 " (0x%0*" PRIx64 ")",
				isa_sext(v, b->width), (int)digits, v);
	return snprintf(buf, size, "%" PRIu64 " (0x%0*" PRIx64 ")", v, (int)digits, v);
}

int emu_report_mismatch_text(char *buf, size_t size, const emu_mismatch *mm)
{
	const emu_buffer *b = mm->buf;
	char exp[64], act[64], bits[400];
	uint64_t diff = (mm->expected ^ mm->actual) & isa_mask(b->width);
	value_text(exp, sizeof exp, b, mm->expected);
	value_text(act, sizeof act, b, mm->actual);
	bit_ranges(bits, sizeof bits, diff);
	return snprintf(buf, size, "%s[%" PRIu64 "] (%c%u): expected %s, got %s; bits that differ: %s",
			b->name, mm->index, b->is_signed ? 'i' : 'u', b->width,
			exp, act, bits);
}

void emu_report_mismatch(FILE *f, const char *what, const emu_mismatch *mm)
{
	char text[640];
	emu_report_mismatch_text(text, sizeof text, mm);
	fprintf(f, "%s: %s\n", what, text);
}
