/* SPDX-License-Identifier: MIT */
/*
 * stats.c: the in-cache machine's statistics tree (incache.h): the
 * machine's counts and the paper's view (emu/report), with what only the
 * JIT knows: each command's node and region, a reduce's final steps,
 * Eq. 2 for each region, the JIT's memo.
 */
#include <stdlib.h>
#include <string.h>

#include "incache.h"
#include "paper.h"
#include "report.h"
#include "tdfg_stats.h"

static uint64_t lat_node(const tgt *t);

/* Eq. 2 (§4.3) for each region as written, at its first run, its
 * Σ Lat_op from this run's cycles.  0, or -1 when out of memory. */
static int eq2_stats(const tgt *t, emu_paper *pp)
{
	const emu_tdfg *g = &t->t;
	const size_t n = t->p.ncmds;
	uint64_t *cyc = calloc(n + 1, sizeof *cyc);
	if (!cyc)
		return -1;
	for (size_t i = 0; i < n; i++)
		cyc[i] = t->cc[i].cycles;
	int rc = 0;
	for (size_t w = 0; rc == 0 && w < (g->tregions ? g->ntregions : g->nregions); w++) {
		size_t r = 0;
		while (r < g->nregions && g->tregions && g->regions[r].tmpl != w)
			r++;
		if (!g->tregions)
			r = w;
		if (r >= g->nregions)
			continue; /* a region never run */
		emu_eq2 e, ran;
		inc_eq2(t, r, &e);
		emu_eq2_region(g, r, cyc, e.tp_core, e.lat_jit, &ran);
		struct emu_paper_eq2 q = {.line = g->regions[r].line, .n_elem = e.n_elem,
			.n_op = e.n_op, .n_node = e.n_node, .lat_ops = e.lat_ops, .lat_jit = e.lat_jit,
			.mem = e.mem, .tp_core = e.tp_core, .core = e.core, .in_memory = e.in_memory,
			.lat_ops_run = ran.lat_ops};
		snprintf(q.region, sizeof q.region, "%s", g->regions[r].name);
		snprintf(q.offload, sizeof q.offload, "%s", inc_offload_names[t->offload]);
		for (size_t k = 0; k < g->nregions; k++)
			if (g->tregions ? g->regions[k].tmpl == w : k == w) {
				q.runs++;
				q.runs_near += t->near && t->near[k];
			}
		rc = emu_paper_eq2_add(pp, &q);
	}
	free(cyc);
	return rc;
}

static uint64_t lat_node(const tgt *t)
{
	return t->lat_jit >= 0 ? (uint64_t)t->lat_jit : EMU_EQ2_LAT_JIT;
}

static uint64_t lat_cmd(const tgt *t)
{
	return t->lat_jit_cmd >= 0 ? (uint64_t)t->lat_jit_cmd : EMU_PAPER_LAT_JIT_CMD;
}

/* The paper's statistics (paper.h): for a tDFG, with the JIT's final
 * reduce, modelled cycles and groups.  0, or -1 when out of memory. */
static int paper_stats(const tgt *t, emu_paper *pp)
{
	const size_t n = t->p.ncmds;
	const emu_strm_stats *ss = &t->strm;
	if (!t->is_tdfg) {
		emu_paper_collect(pp, t->em, t->cc, n, NULL, 0);
		/* --tdfg: the strm markers' streams ran from the tDFG, as in
		 * the tDFG's own run (emu_valid_strm): the same Near-Mem, Mix
		 * and stream traffic */
		if (t->valid)
			emu_paper_streams(pp, ss->near_cycles, ss->final_cycles,
					  ss->ttu_out_cycles + ss->ttu_in_cycles, ss->bytes,
					  ss->byte_hops);
		if (t->valid)
			emu_paper_stream_ops(pp, ss->uops);
		return 0;
	}
	uint8_t *final = calloc(n + 1, 1);
	if (!final)
		return -1;
	emu_paper_tdfg_final(&t->t, &t->j, &t->p, final, n);
	emu_paper_collect(pp, t->em, t->cc, n, final,
			  emu_paper_tdfg_jit_cycles(&t->t, &t->j, lat_node(t), lat_cmd(t),
						    t->em->st.nbanks));
	free(final);
	emu_paper_streams(pp, ss->near_cycles, ss->final_cycles,
			  ss->ttu_out_cycles + ss->ttu_in_cycles, ss->bytes, ss->byte_hops);
	emu_paper_stream_ops(pp, ss->uops);
	return eq2_stats(t, pp) < 0 ? -1 : emu_paper_tdfg_groups(pp, &t->t, &t->j, t->cc, n);
}

/* The JIT's memo (§4): how many region runs were lowered and reused,
 * and each lowering's nodes, commands and modelled cycles; the host's
 * measured time apart, in "measured". */
static void jit_stats(const tgt *t, tgt_stat *root)
{
	const emu_jit *j = &t->j;
	const emu_tdfg *g = &t->t;
	const unsigned banks = t->em->st.nbanks;
	tgt_stat *jg = tgt_stat_group(root, "jit", "JIT");
	tgt_stat_uint(jg, "region_runs", g->nregions, "region runs");
	tgt_stat_uint(jg, "lowered", j->misses, NULL);
	tgt_stat_uint(jg, "reused", j->hits, NULL);
	tgt_stat_uint(jg, "lat_node", lat_node(t), "cycles per node");
	tgt_stat_uint(jg, "lat_cmd_bank", lat_cmd(t), "per command and bank");
	tgt_stat_uint(jg, "banks", banks, NULL);
	tgt_stat_uint(jg, "cycles", emu_paper_tdfg_jit_cycles(g, j, lat_node(t), lat_cmd(t), banks),
		      "cycles (the model)");
	tgt_stat *l = tgt_stat_list(jg, "lowerings", NULL, 0);
	for (size_t m = 0; m < j->misses; m++) {
		const emu_tregion *r = &g->regions[j->lowerings[m].region];
		tgt_stat *row = tgt_stat_row(l);
		tgt_stat_uint(row, "lowering", m + 1, NULL);
		tgt_stat_str(row, "region", r->name, NULL);
		tgt_stat_uint(row, "line", (uint64_t)r->line, NULL);
		char params[256] = "";
		size_t k = 0;
		for (unsigned p = 0; p < r->nparams && k < sizeof params; p++)
			k += (size_t)snprintf(params + k, sizeof params - k, "%s%s = %lld", p ? ", " : "",
					      r->param[p], (long long)r->pv[p]);
		tgt_stat_str(row, "params", params, NULL);
		uint64_t nn, nc;
		const uint64_t cyc = emu_paper_tdfg_jit_lowering(g, j, m, lat_node(t), lat_cmd(t),
								 banks, &nn, &nc);
		tgt_stat_uint(row, "nodes", nn, NULL);
		tgt_stat_uint(row, "commands", nc, NULL);
		tgt_stat_uint(row, "cycles", cyc, NULL);
	}
	/* Measured on the host: different on every run, so apart, and no
	 * figure uses it. */
	tgt_stat *h = tgt_stat_group(root, "measured", "measured on the host (varies from run to "
				     "run; no figure uses it)");
	tgt_stat_real(h, "jit_seconds", emu_paper_tdfg_jit_seconds(j), "the JIT's time, s");
	tgt_stat *hl = tgt_stat_list(h, "jit_lowering_ms", "each lowering's time, ms",
				     TGT_STAT_DETAIL);
	for (size_t m = 0; m < j->misses; m++) {
		tgt_stat *row = tgt_stat_row(hl);
		tgt_stat_uint(row, "lowering", m + 1, NULL);
		tgt_stat_real(row, "ms", j->lowerings[m].seconds * 1e3, NULL);
	}
}

/* Where the region runs went (--offload, §4.3; the paper's Base,
 * Near-L3 and In-L3): the runs moved off the bitlines, their nodes, and
 * the cycles and bytes of their streams (at the banks, or at the core). */
static void offload_stats(const tgt *t, tgt_stat *root)
{
	const emu_strm_stats *ss = &t->strm;
	static const char *const config[4] = {"In-L3", "In-L3 and Near-L3 by Eq. 2", "Near-L3",
					      "Base"};
	tgt_stat *g = tgt_stat_group(root, "offload", "where the regions ran (--offload)");
	tgt_stat_str(g, "offload", inc_offload_names[t->offload], "--offload");
	tgt_stat_str(g, "config", config[t->offload], "the paper's configuration");
	tgt_stat_uint(g, "region_runs", t->t.nregions, "region runs");
	tgt_stat_uint(g, "runs_moved", t->near_runs, t->offload == INC_OFFLOAD_CORE
						      ? "at the core" : "near memory");
	tgt_stat_uint(g, "nodes", ss->near_nodes, "their nodes as streams");
	tgt_stat_uint(g, "elements", ss->near_elems, "elements they produced");
	tgt_stat_uint(g, "core_cycles", ss->core_cycles, "at the core (Base)");
	uint64_t by = 0;
	for (unsigned c = 0; c < EMU_STRM_CLASSES; c++)
		by += ss->bytes[c];
	tgt_stat_uint(g, "stream_bytes", by, "the streams' bytes (strm nodes too)");
}

void inc_stats(tgt *t, tgt_stat *root)
{
	emu_paper pp = {0};
	const bool paper = paper_stats(t, &pp) == 0;
	emu_report_stats_tree(root, t->em, t->cc, t->em->pc, paper ? &pp : NULL,
			      EMU_TREE_COMMANDS);
	if (t->is_tdfg)
		jit_stats(t, root);
	if (t->is_tdfg && t->offload != INC_OFFLOAD_IN)
		offload_stats(t, root);
	emu_paper_free(&pp);
}
