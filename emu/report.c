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

static const char *plural(uint64_t n)
{
	return n == 1 ? "" : "s";
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
	fprintf(f, "  way         %u array%s\n", g->arrays_per_way,
		plural(g->arrays_per_way));
	fprintf(f, "  bank        %u way%s, %u array%s\n", g->ways_per_bank,
		plural(g->ways_per_bank), g->ways_per_bank * g->arrays_per_way,
		plural(g->ways_per_bank * g->arrays_per_way));
	fprintf(f, "  machine     %u x %u mesh: %u bank%s, %" PRIu64 " array%s\n",
		g->mesh_x, g->mesh_y, banks, plural(banks), arrays, plural(arrays));
	fprintf(f, "  bitlines    %" PRIu64 " (elements per wordline)\n",
		sram_geom_bitlines(g));
	if (in_units)
		fprintf(f, "  SRAM        %" PRIu64 " bytes (%s)\n", sram_geom_bytes(g),
			all_bytes);
	else
		fprintf(f, "  SRAM        %s\n", all_bytes);
	/* The controller's settings when one is not the default, as the
	 * machine line writes them (transcripts of the defaults stay as
	 * they were). */
	if (g->fp_ieee || g->latency_opt || g->cordic_iters)
		fprintf(f, "  controller  fp=%s latency=%s cordic=%u\n", g->fp_ieee ? "ieee" : "ftz",
			g->latency_opt ? "optimised" : "baseline", emu_geom_cordic(g));
}

static void geom_json(FILE *f, const sram_geom *g)
{
	unsigned banks = g->mesh_x * g->mesh_y;
	fprintf(f, "{\"wordlines\": %u, \"bitlines\": %u, \"arrays_per_way\": %u, "
		"\"ways_per_bank\": %u, \"mesh_x\": %u, \"mesh_y\": %u, "
		"\"banks\": %u, \"arrays\": %" PRIu64 ", \"total_bitlines\": %" PRIu64
		", \"bytes\": %" PRIu64 ", \"fp\": \"%s\", \"latency\": \"%s\", \"cordic\": %u}",
		g->wordlines, g->bitlines, g->arrays_per_way, g->ways_per_bank,
		g->mesh_x, g->mesh_y, banks,
		(uint64_t)banks * g->ways_per_bank * g->arrays_per_way,
		sram_geom_bitlines(g), sram_geom_bytes(g), g->fp_ieee ? "ieee" : "ftz",
		g->latency_opt ? "optimised" : "baseline", emu_geom_cordic(g));
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

/* One table for the totals, the command kinds and the banks: a label,
 * a count of commands (blank for a bank), the cycles the commands ran
 * with, their baseline latency (blank for a bank; equal to cycles
 * unless the machine has latency=optimised) and the micro-op counts. */
#define STATS_HEAD "%-16s %10s %12s %12s %12s %12s %12s %12s\n"

static void count_row(FILE *f, const char *label, const char *cmds,
		      const sram_count *c, const char *base)
{
	fprintf(f, "%-16s %10s %12" PRIu64 " %12s %12" PRIu64 " %12" PRIu64
		" %12" PRIu64 " %12" PRIu64 "\n", label, cmds, c->cycles, base,
		c->reads, c->writes, c->logic, c->activations);
}

static const char *u64_text(uint64_t v, char *buf, size_t size)
{
	snprintf(buf, size, "%" PRIu64, v);
	return buf;
}

/* A command kind's name in the statistics: its mnemonic, with ".f" or
 * ".q" when an integer command shares it ("add" and "add.f"), so that
 * every kind has its own row and JSON key. */
static const char *op_label(unsigned op, char *buf, size_t size)
{
	const char *mn = isa_info_of(op)->name;
	const int cls = isa_class_of(op);
	if (isa_lookup(mn) == (int)op)
		snprintf(buf, size, "%s", mn);
	else
		snprintf(buf, size, "%s.%s", mn, cls == ISA_CLASS_F ? "f" : cls == ISA_CLASS_Q ? "q" : "x");
	return buf;
}

static void stats_by_op_text(FILE *f, const emu_stats *st)
{
	char label[32], cmds[24], name[24], base[24];
	fprintf(f, "by command\n");
	for (unsigned op = 0; op < ISA_OP_COUNT; op++) {
		if (!st->cmds_by_op[op])
			continue;
		snprintf(label, sizeof label, "  %s", op_label(op, name, sizeof name));
		snprintf(cmds, sizeof cmds, "%" PRIu64, st->cmds_by_op[op]);
		count_row(f, label, cmds, &st->by_op[op],
			  u64_text(st->base_by_op[op], base, sizeof base));
	}
}

/* Bank b sits at mesh position (b % mesh_x, b / mesh_x) (doc/MACHINE.md). */
static void stats_by_bank_text(FILE *f, const emu_stats *st, unsigned mesh_x)
{
	unsigned idle = 0;
	char label[48];
	fprintf(f, "by bank (x,y)\n");
	for (unsigned b = 0; b < st->nbanks; b++) {
		if (!st->by_bank[b].cycles) {
			idle++;
			continue;
		}
		snprintf(label, sizeof label, "  bank %u (%u,%u)", b, b % mesh_x, b / mesh_x);
		count_row(f, label, "", &st->by_bank[b], "");
	}
	fprintf(f, "  %u of %u banks ran no command; %" PRIu64
		" (command, bank) pairs skipped\n", idle, st->nbanks, st->bank_skips);
}

void emu_report_stats_text(FILE *f, const emu_machine *em)
{
	const emu_stats *st = &em->st;
	char cmds[24], base[24];
	emu_report_geom(f, &em->m->g, false);
	fprintf(f, "\n" STATS_HEAD, "", "commands", "cycles", "baseline", "reads",
		"writes", "logic", "activations");
	snprintf(cmds, sizeof cmds, "%" PRIu64, st->commands);
	count_row(f, "total", cmds, &st->total,
		  u64_text(st->base_cycles, base, sizeof base));
	stats_by_op_text(f, st);
	stats_by_bank_text(f, st, em->m->g.mesh_x);
	fprintf(f, "cycles are summed over commands; the banks run each command in parallel%s\n",
		em->optimised ? ";\na data-dependent command takes the cycles of its longest"
		" bank (each bank's own are under \"by bank\"); baseline is the latency"
		" without\nthe data-dependent optimisations" : "");
	fprintf(f, "\ntranspose unit  %" PRIu64 " cycles, %" PRIu64 " bits\n",
		st->ttu_cycles, st->ttu_bits);
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
	char name[24];
	fprintf(f, "  \"by_command\": {");
	for (unsigned op = 0; op < ISA_OP_COUNT; op++) {
		if (!st->cmds_by_op[op])
			continue;
		fprintf(f, "%s\n    \"%s\": {\"count\": %" PRIu64 ", \"baseline_cycles\": %"
			PRIu64 ", ", sep, op_label(op, name, sizeof name),
			st->cmds_by_op[op], st->base_by_op[op]);
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
	fprintf(f, ",\n  \"totals\": {\"commands\": %" PRIu64 ", \"baseline_cycles\": %"
		PRIu64 ", ", st->commands, st->base_cycles);
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

int emu_report_mismatch_text(char *buf, size_t size, const emu_mismatch *mm)
{
	const emu_buffer *b = mm->buf;
	char exp[96], act[96], bits[400], tn[16];
	uint64_t diff = (mm->expected ^ mm->actual) & isa_mask(b->width);
	emu_value_text(b->fmt, b->width, b->is_signed, mm->expected, true, exp, sizeof exp);
	emu_value_text(b->fmt, b->width, b->is_signed, mm->actual, true, act, sizeof act);
	bit_ranges(bits, sizeof bits, diff);
	return snprintf(buf, size, "%s[%" PRIu64 "] (%s): expected %s, got %s; bits that differ: %s",
			b->name, mm->index, emu_buffer_type(b, tn, sizeof tn), exp, act, bits);
}

void emu_report_mismatch(FILE *f, const char *what, const emu_mismatch *mm)
{
	char text[640];
	emu_report_mismatch_text(text, sizeof text, mm);
	fprintf(f, "%s: %s\n", what, text);
}

/* ---- --check ---- */

/* Compare buffer bi (none if < 0); on a difference, set d naming command
 * c, the i-th, or the end of the run when c is NULL. */
static bool check_buffer(const emu_ref *r, const emu_machine *em, int bi,
			 const emu_cmd *c, size_t i, diag *d)
{
	const emu_program *p = em->prog;
	emu_mismatch mm;
	if (bi < 0 || emu_ref_compare(r, em, &p->bufs[bi], &mm))
		return true;
	char text[640], cmd[512];
	emu_report_mismatch_text(text, sizeof text, &mm);
	if (!c) {
		diag_file(d, p->path, "--check: at the end of the run, machine and reference model differ: %s",
			  text);
		return false;
	}
	emu_format_cmd(p, c, cmd, sizeof cmd);
	diag_at(d, p->path, c->line, 0, "--check: after command %zu '%s', machine and reference model differ: %s",
		i + 1, cmd, text);
	return false;
}

bool emu_report_check_cmd(const emu_ref *r, const emu_machine *em, size_t i,
			  diag *d)
{
	const emu_cmd *c = &em->prog->cmds[i];
	return check_buffer(r, em, c->buf_d, c, i, d) &&
	       check_buffer(r, em, c->buf_d2, c, i, d);
}

bool emu_report_check_all(const emu_ref *r, const emu_machine *em, diag *d)
{
	for (size_t b = 0; b < em->prog->nbufs; b++)
		if (!check_buffer(r, em, (int)b, NULL, 0, d))
			return false;
	return true;
}
