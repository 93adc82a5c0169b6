/* SPDX-License-Identifier: MIT */
/* report.c: statistics and mismatch reports of `infsim run`; see report.h. */
#include "report.h"
#include "move.h"
#include "paper.h"

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
const char *emu_report_op_label(unsigned op, char *buf, size_t size)
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
		snprintf(label, sizeof label, "  %s", emu_report_op_label(op, name, sizeof name));
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

/* ---- data movement (doc/MOVEMENT.md, "Statistics") ---- */

static const char *const link_dirs[4] = {"+x", "-x", "+y", "-y"};

/* Commands, cycles and cells by move kind, then the interconnect: bytes
 * per H-tree level, NoC packets, bytes x hops (Figs 12 and 13). */
static void movement_kinds_text(FILE *f, const emu_mover *mv)
{
	const emu_move_stats *ms = &mv->st;
	const emu_net_stats *ns = &mv->net.st;
	fprintf(f, "\nmovement         commands       cycles   cells moved\n");
	for (unsigned k = 0; k < EMU_MOVE_KINDS; k++)
		if (ms->commands[k])
			fprintf(f, "  %-12s %10" PRIu64 " %12" PRIu64 " %13" PRIu64 "\n",
				emu_move_kind_name(k), ms->commands[k], ms->cycles[k], ms->bits[k]);
	fprintf(f, "  cells sent to other banks %" PRIu64 "; (command, bank) pairs run %"
		PRIu64 ", skipped %" PRIu64 "\n", ms->bits_remote, ms->banks_run,
		ms->banks_skipped);
	fprintf(f, "  H-tree bytes by level 1..%u (1: the arrays' links; %u: across ways):",
		ns->levels, ns->levels);
	for (unsigned l = 0; l < ns->levels; l++)
		fprintf(f, " %" PRIu64, ns->htree_bytes[l]);
	fprintf(f, "\n  NoC %" PRIu64 " packets, %" PRIu64 " bytes, %" PRIu64
		" bytes x hops\n", ns->noc_packets, ns->noc_bytes, ns->noc_byte_hops);
}

/* Traffic per bank and per mesh link; banks and links with none are left
 * out. */
static void movement_banks_text(FILE *f, const emu_mover *mv, unsigned mesh_x)
{
	const emu_net_stats *ns = &mv->net.st;
	fprintf(f, "  by bank (x,y)       NoC sent   NoC received   H-tree bytes\n");
	for (unsigned b = 0; b < ns->nbanks; b++)
		if (ns->bank_sent[b] || ns->bank_recv[b] || ns->bank_htree[b])
			fprintf(f, "    %4u (%u,%u) %14" PRIu64 " %14" PRIu64 " %14" PRIu64 "\n",
				b, b % mesh_x, b / mesh_x, ns->bank_sent[b], ns->bank_recv[b],
				ns->bank_htree[b]);
	fprintf(f, "  by mesh link (bank direction: bytes):");
	bool any = false;
	for (unsigned i = 0; i < 4 * ns->nbanks; i++)
		if (ns->link_bytes[i]) {
			fprintf(f, " %u%s: %" PRIu64, i / 4, link_dirs[i % 4], ns->link_bytes[i]);
			any = true;
		}
	fprintf(f, "%s\n", any ? "" : " none");
}

static void hazards_text(FILE *f, const emu_hazards *hz)
{
	fprintf(f, "  hazards %zu", emu_hazard_count(hz));
	for (unsigned k = 0; k < EMU_HZ_KINDS; k++)
		fprintf(f, "%s %s %" PRIu64, k ? "," : ":", emu_hazard_kind_name(k),
			emu_hazard_count_kind(hz, k));
	fputc('\n', f);
}

static void u64_list_json(FILE *f, const char *name, const uint64_t *v, size_t n,
			  const char *end)
{
	fprintf(f, "\"%s\": [", name);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%" PRIu64, i ? ", " : "", v[i]);
	fprintf(f, "]%s", end);
}

/* "movement": the same quantities; per-bank and per-link lists are
 * indexed by bank (links: bank * 4 + direction, +x -x +y -y). */
static void movement_json(FILE *f, const emu_machine *em)
{
	const emu_move_stats *ms = &em->mover->st;
	const emu_net_stats *ns = &em->mover->net.st;
	fprintf(f, "  \"movement\": {\"by_kind\": {");
	for (unsigned k = 0; k < EMU_MOVE_KINDS; k++)
		fprintf(f, "%s\"%s\": {\"count\": %" PRIu64 ", \"cycles\": %" PRIu64
			", \"cells\": %" PRIu64 "}", k ? ", " : "", emu_move_kind_name(k),
			ms->commands[k], ms->cycles[k], ms->bits[k]);
	fprintf(f, "},\n    \"cells_remote\": %" PRIu64 ", \"banks_run\": %" PRIu64
		", \"banks_skipped\": %" PRIu64 ",\n    ", ms->bits_remote, ms->banks_run,
		ms->banks_skipped);
	u64_list_json(f, "htree_bytes_by_level", ns->htree_bytes, ns->levels, ",\n    ");
	fprintf(f, "\"noc_packets\": %" PRIu64 ", \"noc_bytes\": %" PRIu64
		", \"noc_byte_hops\": %" PRIu64 ",\n    ", ns->noc_packets, ns->noc_bytes,
		ns->noc_byte_hops);
	u64_list_json(f, "bank_sent", ns->bank_sent, ns->nbanks, ", ");
	u64_list_json(f, "bank_received", ns->bank_recv, ns->nbanks, ",\n    ");
	u64_list_json(f, "bank_htree", ns->bank_htree, ns->nbanks, ",\n    ");
	u64_list_json(f, "link_bytes", ns->link_bytes, 4 * (size_t)ns->nbanks, ",\n    ");
	fprintf(f, "\"hazards\": {");
	for (unsigned k = 0; k < EMU_HZ_KINDS; k++)
		fprintf(f, "%s\"%s\": %" PRIu64, k ? ", " : "", emu_hazard_kind_name(k),
			emu_hazard_count_kind(em->hz, k));
	fprintf(f, "}},\n");
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
	if (st->move_commands) {
		movement_kinds_text(f, em->mover);
		movement_banks_text(f, em->mover, em->m->g.mesh_x);
		hazards_text(f, em->hz);
	}
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
			PRIu64 ", ", sep, emu_report_op_label(op, name, sizeof name),
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

/* A JSON string: the text between quotes, '"', '\\' and control bytes
 * escaped (canonical command text has none; this keeps the JSON valid
 * whatever the text). */
static void json_string(FILE *f, const char *text)
{
	fputc('"', f);
	for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
		if (*c == '"' || *c == '\\')
			fprintf(f, "\\%c", *c);
		else if (*c < 0x20)
			fprintf(f, "\\u%04x", *c);
		else
			fputc(*c, f);
	}
	fputc('"', f);
}

/* The "commands" list: one object per executed command, in order. */
static void commands_json(FILE *f, const emu_machine *em,
			  const emu_cmd_cycles *cc, size_t n)
{
	char text[512];
	fprintf(f, "  \"commands\": [");
	for (size_t i = 0; i < n; i++) {
		const emu_cmd *c = &em->prog->cmds[i];
		emu_format_cmd(em->prog, c, text, sizeof text);
		fprintf(f, "%s\n    {\"index\": %zu, \"line\": %d, \"text\": ", i ? "," : "",
			i + 1, c->line);
		json_string(f, text);
		fprintf(f, ", \"baseline_cycles\": %" PRIu64 ", \"cycles\": %" PRIu64
			", \"shortest_bank_cycles\": %" PRIu64 ", \"banks\": %u}",
			cc[i].baseline, cc[i].cycles, cc[i].shortest, cc[i].banks);
	}
	fprintf(f, "%s],\n", n ? "\n  " : "");
}

void emu_report_stats_json(FILE *f, const emu_machine *em)
{
	emu_report_stats_json_cmds(f, em, NULL, 0);
}

void emu_report_stats_json_cmds(FILE *f, const emu_machine *em,
				const emu_cmd_cycles *cc, size_t n)
{
	emu_report_stats_json_paper(f, em, cc, n, NULL);
}

void emu_report_stats_json_paper(FILE *f, const emu_machine *em, const emu_cmd_cycles *cc,
				 size_t n, const emu_paper *pp)
{
	const emu_stats *st = &em->st;
	/* "format": the version of this layout; it goes up when a field
	 * changes meaning or goes away (doc/USAGE.md) */
	fprintf(f, "{\n  \"format\": \"infsim-stats 1\",\n  \"machine\": ");
	geom_json(f, &em->m->g);
	fprintf(f, ",\n  \"totals\": {\"commands\": %" PRIu64 ", \"baseline_cycles\": %"
		PRIu64 ", ", st->commands, st->base_cycles);
	count_json(f, &st->total);
	fprintf(f, "},\n");
	stats_lists_json(f, st, em->m->g.mesh_x);
	if (cc)
		commands_json(f, em, cc, n);
	fprintf(f, "  \"bank_skips\": %" PRIu64 ",\n", st->bank_skips);
	if (st->move_commands)
		movement_json(f, em);
	if (pp) {
		emu_paper_json(f, pp);
		fprintf(f, ",\n");
	}
	fprintf(f, "  \"transpose_unit\": {\"cycles\": %" PRIu64 ", \"bits\": %" PRIu64
		"}\n}\n", st->ttu_cycles, st->ttu_bits);
}

/* ---- per command ---- */

#define CMDS_HEAD "%8s %6s %12s %12s %12s %6s  %s\n"

void emu_report_commands_text(FILE *f, const emu_machine *em,
			      const emu_cmd_cycles *cc, size_t n)
{
	uint64_t base = 0, cycles = 0;
	char text[512];
	if (em->optimised)
		fprintf(f, "per command, latency=optimised: cycles are the command's (its longest\n"
			"bank's), shortest its shortest bank's; baseline is the static program's\n\n");
	else
		fprintf(f, "per command, latency=baseline: every bank runs the static program\n\n");
	fprintf(f, CMDS_HEAD, "#", "line", "baseline", "cycles", "shortest", "banks", "command");
	for (size_t i = 0; i < n; i++) {
		const emu_cmd *c = &em->prog->cmds[i];
		emu_format_cmd(em->prog, c, text, sizeof text);
		fprintf(f, "%8zu %6d %12" PRIu64 " %12" PRIu64 " %12" PRIu64 " %6u  %s\n",
			i + 1, c->line, cc[i].baseline, cc[i].cycles, cc[i].shortest,
			cc[i].banks, text);
		base += cc[i].baseline;
		cycles += cc[i].cycles;
	}
	fprintf(f, "%8s %6s %12" PRIu64 " %12" PRIu64 "\n", "total", "", base, cycles);
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

/* "A[5]" for a buffer; "T[1][0] (element 4)" for a tensor, its indexes
 * outermost first as in C (the element number is the plain row-major
 * order of --load and --save). */
void emu_report_element_name(const emu_buffer *b, uint64_t index, char *buf, size_t size)
{
	if (b->ndims < 2) {
		snprintf(buf, size, "%s[%" PRIu64 "]", b->name, index);
		return;
	}
	uint64_t ix[3] = {0, 0, 0}, rest = index;
	for (unsigned k = 0; k < b->ndims; k++) {
		ix[k] = rest % b->shape[k];
		rest /= b->shape[k];
	}
	int len = snprintf(buf, size, "%s", b->name);
	for (unsigned k = b->ndims; k-- > 0 && len >= 0 && (size_t)len < size;)
		len += snprintf(buf + len, size - (size_t)len, "[%" PRIu64 "]", ix[k]);
	if (len >= 0 && (size_t)len < size)
		snprintf(buf + len, size - (size_t)len, " (element %" PRIu64 ")", index);
}

int emu_report_mismatch_text(char *buf, size_t size, const emu_mismatch *mm)
{
	const emu_buffer *b = mm->buf;
	char exp[96], act[96], bits[400], tn[16], name[EMU_NAME_MAX + 96];
	uint64_t diff = (mm->expected ^ mm->actual) & isa_mask(b->width);
	emu_value_text(b->fmt, b->width, b->is_signed, mm->expected, true, exp, sizeof exp);
	emu_value_text(b->fmt, b->width, b->is_signed, mm->actual, true, act, sizeof act);
	bit_ranges(bits, sizeof bits, diff);
	emu_report_element_name(b, mm->index, name, sizeof name);
	return snprintf(buf, size, "%s (%s): expected %s, got %s; bits that differ: %s",
			name, emu_buffer_type(b, tn, sizeof tn), exp, act, bits);
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

/* After command i: compare the rows the reference wrote, cell by cell
 * (cheap: what the command wrote, not whole buffers).  Only on a
 * difference are buffers read, to name the first wrong element: the
 * command's destinations first, then every buffer; a cell that belongs
 * to no buffer is named as a cell. */
bool emu_report_check_cmd(const emu_ref *r, const emu_machine *em, size_t i,
			  diag *d)
{
	const emu_cmd *c = &em->prog->cmds[i];
	emu_cell_mismatch cm;
	if (emu_ref_compare_written(r, em, &cm))
		return true;
	if (!check_buffer(r, em, c->buf_d, c, i, d) || !check_buffer(r, em, c->buf_d2, c, i, d))
		return false;
	for (size_t b = 0; b < em->prog->nbufs; b++)
		if (!check_buffer(r, em, (int)b, c, i, d))
			return false;
	char cmd[512];
	emu_format_cmd(em->prog, c, cmd, sizeof cmd);
	diag_at(d, em->prog->path, c->line, 0,
		"--check: after command %zu '%s', machine and reference model differ at array %u, "
		"bitline %u, wordline %u, outside every buffer: expected %u, got %u",
		i + 1, cmd, cm.array, cm.bitline, cm.wordline, cm.expected, cm.actual);
	return false;
}

/* At the end: every buffer's cells and every row written, compared cell
 * by cell; buffers are read only to name a difference. */
bool emu_report_check_all(const emu_ref *r, const emu_machine *em, diag *d)
{
	emu_cell_mismatch cm;
	if (emu_ref_compare_touched(r, em, &cm))
		return true;
	for (size_t b = 0; b < em->prog->nbufs; b++)
		if (!check_buffer(r, em, (int)b, NULL, 0, d))
			return false;
	diag_file(d, em->prog->path,
		  "--check: at the end of the run, machine and reference model differ at array %u, "
		  "bitline %u, wordline %u, outside every buffer: expected %u, got %u",
		  cm.array, cm.bitline, cm.wordline, cm.expected, cm.actual);
	return false;
}
