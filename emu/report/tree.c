/* SPDX-License-Identifier: MIT */
/*
 * tree.c: the in-cache machine's statistics as the tree of stats.h (see
 * paper.h): the keys and numbers of `--stats=json` (report.c, paper.c),
 * with what only the text report showed, labelled in words.
 */
#include "paper.h"
#include "hazard.h"
#include "move.h"

#include <inttypes.h>

static void geom_tree(tgt_stat *g, const sram_geom *m)
{
	const unsigned banks = m->mesh_x * m->mesh_y;
	tgt_stat_uint(g, "wordlines", m->wordlines, "wordlines");
	tgt_stat_uint(g, "bitlines", m->bitlines, "bitlines");
	tgt_stat_uint(g, "array_bytes", (uint64_t)m->wordlines * m->bitlines / 8, "array bytes");
	tgt_stat_uint(g, "arrays_per_way", m->arrays_per_way, "arrays per way");
	tgt_stat_uint(g, "ways_per_bank", m->ways_per_bank, "ways per bank");
	tgt_stat_uint(g, "mesh_x", m->mesh_x, "mesh columns");
	tgt_stat_uint(g, "mesh_y", m->mesh_y, "mesh rows");
	tgt_stat_uint(g, "banks", banks, "banks");
	tgt_stat_uint(g, "arrays", (uint64_t)banks * m->ways_per_bank * m->arrays_per_way, "arrays");
	tgt_stat_uint(g, "total_bitlines", sram_geom_bitlines(m), "bitlines in all");
	tgt_stat_uint(g, "bytes", sram_geom_bytes(m), "SRAM bytes");
	tgt_stat_str(g, "fp", m->fp_ieee ? "ieee" : "ftz", "floating point");
	tgt_stat_str(g, "latency", m->latency_opt ? "optimised" : "baseline", "latency");
	tgt_stat_uint(g, "cordic", emu_geom_cordic(m), "CORDIC iterations");
}

/* Cycles and the micro-ops (sram_count), as the JSON's count_json. */
static void count_tree(tgt_stat *g, const sram_count *c)
{
	tgt_stat_uint(g, "cycles", c->cycles, "cycles");
	tgt_stat_uint(g, "reads", c->reads, "reads");
	tgt_stat_uint(g, "writes", c->writes, "writes");
	tgt_stat_uint(g, "logic", c->logic, "logic ops");
	tgt_stat_uint(g, "activations", c->activations, "activations");
}

static void totals_tree(tgt_stat *root, const emu_stats *st)
{
	tgt_stat *t = tgt_stat_group(root, "totals", "totals");
	unsigned idle = 0;
	for (unsigned b = 0; b < st->nbanks; b++)
		idle += !st->by_bank[b].cycles;
	tgt_stat_uint(t, "commands", st->commands, "commands");
	tgt_stat_uint(t, "baseline_cycles", st->base_cycles, "baseline cycles");
	count_tree(t, &st->total);
	tgt_stat_uint(t, "idle_banks", idle, "banks that ran nothing");
}

/* by_command (each kind that ran), by_bank (each bank that ran: bank b
 * sits at mesh position (b % mesh_x, b / mesh_x), doc/MACHINE.md). */
static void lists_tree(tgt_stat *root, const emu_stats *st, unsigned mesh_x)
{
	tgt_stat *ops = tgt_stat_group(root, "by_command", "by command");
	char name[24];
	for (unsigned op = 0; op < ISA_OP_COUNT; op++) {
		if (!st->cmds_by_op[op])
			continue;
		emu_report_op_label(op, name, sizeof name);
		tgt_stat *g = tgt_stat_group(ops, name, NULL);
		tgt_stat_uint(g, "count", st->cmds_by_op[op], "commands");
		tgt_stat_uint(g, "baseline_cycles", st->base_by_op[op], "baseline");
		count_tree(g, &st->by_op[op]);
	}
	tgt_stat *banks = tgt_stat_list(root, "by_bank", "by bank",
					TGT_STAT_DETAIL | TGT_STAT_INDEX(3));
	for (unsigned b = 0; b < st->nbanks; b++) {
		if (!st->by_bank[b].cycles)
			continue;
		tgt_stat *r = tgt_stat_row(banks);
		tgt_stat_uint(r, "bank", b, "bank");
		tgt_stat_uint(r, "x", b % mesh_x, "x");
		tgt_stat_uint(r, "y", b / mesh_x, "y");
		count_tree(r, &st->by_bank[b]);
	}
}

/* What `--stats=commands` prints: a row per executed command. */
static void commands_tree(tgt_stat *root, const emu_machine *em, const emu_cmd_cycles *cc,
			  size_t n)
{
	tgt_stat *l = tgt_stat_list(root, "commands", "commands", TGT_STAT_DETAIL);
	char text[512];
	for (size_t i = 0; i < n; i++) {
		const emu_cmd *c = &em->prog->cmds[i];
		tgt_stat *r = tgt_stat_row(l);
		tgt_stat_uint(r, "index", i + 1, "#");
		tgt_stat_int(r, "line", c->line, "line");
		tgt_stat_uint(r, "baseline_cycles", cc[i].baseline, "baseline");
		tgt_stat_uint(r, "cycles", cc[i].cycles, "cycles");
		tgt_stat_uint(r, "shortest_bank_cycles", cc[i].shortest, "shortest");
		tgt_stat_uint(r, "banks", cc[i].banks, "banks");
		/* last: the text form's widest column */
		emu_format_cmd(em->prog, c, text, sizeof text);
		tgt_stat_str(r, "text", text, "command");
	}
}

/* Moves (doc/MOVEMENT.md, "Statistics"): per-bank and per-link numbers
 * are indexed by bank (links: bank * 4 + direction, +x -x +y -y). */
static void movement_tree(tgt_stat *root, const emu_machine *em)
{
	const emu_move_stats *ms = &em->mover->st;
	const emu_net_stats *ns = &em->mover->net.st;
	tgt_stat *m = tgt_stat_group(root, "movement", "movement");
	tgt_stat *kinds = tgt_stat_group(m, "by_kind", "by kind");
	for (unsigned k = 0; k < EMU_MOVE_KINDS; k++) {
		tgt_stat *g = tgt_stat_group(kinds, emu_move_kind_name(k), NULL);
		tgt_stat_uint(g, "count", ms->commands[k], "commands");
		tgt_stat_uint(g, "cycles", ms->cycles[k], "cycles");
		tgt_stat_uint(g, "cells", ms->bits[k], "cells moved");
	}
	tgt_stat_uint(m, "cells_remote", ms->bits_remote, "cells sent to other banks");
	tgt_stat_uint(m, "banks_run", ms->banks_run, "(command, bank) pairs run");
	tgt_stat_uint(m, "banks_skipped", ms->banks_skipped, "(command, bank) pairs skipped");
	tgt_stat_uint(m, "noc_packets", ns->noc_packets, "NoC packets");
	tgt_stat_uint(m, "noc_bytes", ns->noc_bytes, "NoC bytes");
	tgt_stat_uint(m, "noc_byte_hops", ns->noc_byte_hops, "NoC bytes x hops");
	tgt_stat_uints(m, "htree_bytes_by_level", ns->htree_bytes, ns->levels,
		       "H-tree bytes by level (1: the arrays' links, last: across ways)");
	tgt_stat_uints(m, "bank_sent", ns->bank_sent, ns->nbanks, "NoC bytes sent by bank");
	tgt_stat_uints(m, "bank_received", ns->bank_recv, ns->nbanks, "NoC bytes received by bank");
	tgt_stat_uints(m, "bank_htree", ns->bank_htree, ns->nbanks, "H-tree bytes by bank");
	tgt_stat_uints(m, "link_bytes", ns->link_bytes, 4 * (size_t)ns->nbanks,
		       "bytes by mesh link (bank x 4 + direction: +x -x +y -y)");
	tgt_stat_uint(m, "hazards_total", emu_hazard_count(em->hz), "hazards");
	tgt_stat *hz = tgt_stat_group(m, "hazards", "hazards by kind");
	for (unsigned k = 0; k < EMU_HZ_KINDS; k++)
		tgt_stat_uint(hz, emu_hazard_kind_name(k), emu_hazard_count_kind(em->hz, k), NULL);
}

/* by_region, by_node: the groups that ran (a label). */
static void groups_tree(tgt_stat *p, const char *key, const char *title,
			const emu_paper_group *g, size_t n)
{
	tgt_stat *l = tgt_stat_list(p, key, title, 0);
	for (size_t i = 0; i < n; i++) {
		if (!g[i].label[0])
			continue;
		tgt_stat *r = tgt_stat_row(l);
		tgt_stat_str(r, "label", g[i].label, "name");
		tgt_stat_uint(r, "runs", g[i].runs, "runs");
		tgt_stat_uint(r, "commands", g[i].commands, "commands");
		tgt_stat_uint(r, "cycles", g[i].cycles, "cycles");
	}
}

/* Eq. 2 (§4.3) for each region: core N_elem*N_op/TP_core against memory
 * sum Lat_op + N_node*Lat_JIT. */
static void eq2_tree(tgt_stat *p, const emu_paper *pp)
{
	tgt_stat *l = tgt_stat_list(p, "eq2", "Eq. 2 by region", 0);
	for (size_t i = 0; i < pp->neq2; i++) {
		const struct emu_paper_eq2 *e = &pp->eq2[i];
		tgt_stat *r = tgt_stat_row(l);
		tgt_stat_str(r, "region", e->region, "region");
		tgt_stat_int(r, "line", e->line, "line");
		tgt_stat_uint(r, "n_elem", e->n_elem, "N_elem");
		tgt_stat_uint(r, "n_op", e->n_op, "N_op");
		tgt_stat_real(r, "tp_core", e->tp_core, "TP_core");
		tgt_stat_real(r, "core_cycles", e->core, "core cycles");
		tgt_stat_uint(r, "lat_ops", e->lat_ops, "sum Lat_op");
		tgt_stat_uint(r, "n_node", e->n_node, "N_node");
		tgt_stat_uint(r, "lat_jit", e->lat_jit, "Lat_JIT");
		tgt_stat_uint(r, "mem_cycles", e->mem, "memory cycles");
		tgt_stat_bool(r, "in_memory", e->in_memory, "in memory (tDFG)");
		tgt_stat_uint(r, "lat_ops_run", e->lat_ops_run, "its commands' cycles in this run");
		tgt_stat_str(r, "offload", e->offload, "--offload");
		tgt_stat_uint(r, "runs", e->runs, "runs");
		tgt_stat_uint(r, "runs_near", e->runs_near, "runs near memory");
	}
}

/* The paper's view (infinity-stream §7, paper.h). */
static void paper_tree(tgt_stat *root, const emu_paper *pp)
{
	tgt_stat *p = tgt_stat_group(root, "paper", "the paper's view (infinity-stream §7)");
	uint64_t all = 0;
	for (unsigned k = 0; k < EMU_PAPER_PARTS; k++)
		all += pp->cycles[k];
	tgt_stat_uint(p, "compute_commands", pp->ops, "compute commands");
	tgt_stat_uint(p, "compute_commands_on_bitlines", pp->ops_bitlines, "not final reduce");
	/* Fig 14's dots: operations on elements */
	tgt_stat_uint(p, "ops", pp->elem_bitlines + pp->elem_final + pp->elem_near, "operations");
	tgt_stat_uint(p, "on_bitlines", pp->elem_bitlines, "on bitlines");
	tgt_stat_uint(p, "ops_final_reduce", pp->elem_final, "in final reduce");
	tgt_stat_uint(p, "ops_near_mem", pp->elem_near, "near memory");
	/* the short text keeps the dot's two numbers and the total */
	static const char *const detail[] = {"compute_commands", "compute_commands_on_bitlines",
					     "ops_final_reduce", "ops_near_mem"};
	for (size_t k = 0; k < sizeof detail / sizeof *detail; k++)
		tgt_stat_detail(p, detail[k]);
	tgt_stat_uint(p, "total_cycles", all, "cycles, all parts");
	tgt_stat *c = tgt_stat_group(p, "cycles", "cycles (Fig 14)");
	for (unsigned k = 0; k < EMU_PAPER_PARTS; k++)
		tgt_stat_uint(c, emu_paper_part_name(k), pp->cycles[k], NULL);
	tgt_stat *t = tgt_stat_group(p, "traffic", "traffic (Figs 12, 13)");
	for (unsigned k = 0; k < EMU_TRAFFIC_KINDS; k++) {
		tgt_stat *g = tgt_stat_group(t, emu_paper_traffic_name(k), NULL);
		tgt_stat_uint(g, "bytes", pp->bytes[k], "bytes");
		tgt_stat_uint(g, "byte_hops", pp->byte_hops[k], "bytes x hops");
	}
	if (pp->neq2)
		eq2_tree(p, pp);
	if (pp->nregions)
		groups_tree(p, "by_region", "by region", pp->regions, pp->nregions);
	if (pp->nnodes)
		groups_tree(p, "by_node", "by node (line: name)", pp->nodes, pp->nnodes);
}

void emu_report_stats_tree(tgt_stat *root, const emu_machine *em, const emu_cmd_cycles *cc,
			   size_t ncmds, const emu_paper *pp, unsigned what)
{
	const emu_stats *st = &em->st;
	geom_tree(tgt_stat_group(root, "machine", "machine"), &em->m->g);
	totals_tree(root, st);
	tgt_stat_uint(root, "bank_skips", st->bank_skips, "(command, bank) pairs skipped");
	tgt_stat *tu = tgt_stat_group(root, "transpose_unit", "transpose unit");
	tgt_stat_uint(tu, "cycles", st->ttu_cycles, "cycles");
	tgt_stat_uint(tu, "bits", st->ttu_bits, "bits");
	lists_tree(root, st, em->m->g.mesh_x);
	if ((what & EMU_TREE_COMMANDS) && cc)
		commands_tree(root, em, cc, ncmds);
	if (st->move_commands)
		movement_tree(root, em);
	if (pp)
		paper_tree(root, pp);
}
