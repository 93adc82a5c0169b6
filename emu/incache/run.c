/* SPDX-License-Identifier: MIT */
/*
 * run.c: a stream's run on the in-cache machine (incache.h): every
 * command with its cycles; with --check the stream's reference after
 * every command and, for a tDFG, each node against what the tDFG means;
 * with --tdfg the check points and the generated input sets.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "hazard.h"
#include "incache.h"
#include "report.h"

void inc_warn_lines(const tgt *t, const char *text)
{
	if (!t->a.warn)
		return;
	while (*text) {
		const size_t n = strcspn(text, "\n");
		char line[DIAG_MAX];
		snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line ? n : sizeof line - 1), text);
		t->a.warn(t->a.warn_ctx, line);
		text += n + (text[n] == '\n');
	}
}

/* Keep a difference's text for report(). */
static tgt_status differs(tgt *t, const char *text)
{
	free(t->report);
	t->report = strdup(text);
	return TGT_DIFFERS;
}

/* Command pc whole, or one micro-op at a time. */
static int run_one(tgt *t, diag *d)
{
	if (!t->stepi)
		return emu_run_cmd(t->em, d) < 0 ? -1 : 0;
	const size_t pc = t->em->pc;
	while (t->em->pc == pc && !emu_done(t->em))
		if (emu_stepi(t->em, d) < 0)
			return -1;
	return 0;
}

/* Run command i and keep its cycles in cc[i]: the growth of the
 * machine's statistics, its baseline latency, and over the banks that
 * ran it (em->bank_on still marks them once it has finished) the
 * shortest; under latency=optimised each bank runs its own trace
 * (duality-cache §3.1.2) and the command takes the longest. */
static int run_measured(tgt *t, size_t i, diag *d)
{
	const emu_stats *st = &t->em->st;
	const uint64_t base = st->base_cycles, cycles = st->total.cycles;
	for (unsigned b = 0; b < st->nbanks; b++)
		t->bank_before[b] = st->by_bank[b].cycles;
	if (run_one(t, d) < 0)
		return -1;
	emu_cmd_cycles *c = &t->cc[i];
	c->baseline = st->base_cycles - base;
	c->cycles = st->total.cycles - cycles;
	c->shortest = c->cycles;
	c->banks = 0;
	for (unsigned b = 0; b < st->nbanks; b++) {
		if (!t->em->bank_on[b])
			continue;
		const uint64_t n = st->by_bank[b].cycles - t->bank_before[b];
		if (n < c->shortest)
			c->shortest = n;
		c->banks++;
	}
	return 0;
}

/* After command i of a tDFG's stream, under --check: if it finished a
 * node, compare the node's domain with what the tDFG means (tdfg.h). */
static tgt_status check_tnode(tgt *t, long n, diag *d);

static tgt_status check_node(tgt *t, size_t i, diag *d)
{
	const long n = emu_jit_node_of(&t->j, i);
	if (n < 0 || t->t.nodes[n].cmd1 != i + 1)
		return TGT_OK;
	return check_tnode(t, n, d);
}

/* Node n compared with what the tDFG means. */
static tgt_status check_tnode(tgt *t, long n, diag *d)
{
	emu_mismatch mm;
	if (emu_tref_compare(t->tref, &t->p, t->em, (size_t)n, &mm))
		return TGT_OK;
	const emu_tdfg *g = &t->t;
	if (!mm.buf) {
		diag_file(d, g->path, "out of memory for the tDFG's reference");
		return TGT_FAILED;
	}
	const emu_tnode *x = &g->nodes[n];
	const emu_tregion *r = &g->regions[x->region];
	char what[1024], label[96], run[160] = "";
	emu_report_mismatch_text(what, sizeof what, &mm);
	/* In a program, which run of the region: its number and parameters. */
	if (g->program) {
		size_t k = 0, m;
		for (size_t q = 0; q <= x->region; q++)
			k += g->regions[q].tmpl == r->tmpl;
		m = (size_t)snprintf(run, sizeof run, " in run %zu of region '%s'", k, r->name);
		for (unsigned p = 0; p < r->nparams && m < sizeof run; p++)
			m += (size_t)snprintf(run + m, sizeof run - m, "%s%s = %" PRId64,
					      p ? ", " : " (", r->param[p], r->pv[p]);
		if (r->nparams && m < sizeof run)
			snprintf(run + m, sizeof run - m, ")");
	}
	if (t->near && t->near[x->region])
		diag_at(d, g->path, x->line, x->col, "--check: node '%s'%s (near memory) does not "
			"compute what the tDFG means: %s", emu_tnode_label(g, x, label, sizeof label),
			run, what);
	else
		diag_at(d, g->path, x->line, x->col, "--check: node '%s'%s (commands %zu..%zu) "
			"does not compute what the tDFG means: %s",
			emu_tnode_label(g, x, label, sizeof label), run, x->cmd0 + 1, x->cmd1, what);
	return differs(t, d->msg);
}

/* --tdfg: the strm markers' streams at the machine's position (they
 * run from the tDFG, emu_valid_strm), then the check points it has
 * reached. */
static tgt_status validate(tgt *t, diag *d)
{
	if (!t->valid)
		return TGT_OK;
	if (emu_valid_strm(t->valid, t->em, t->ref, &t->strm, d) < 0)
		return TGT_FAILED;
	const int rc = emu_valid_at(t->valid, t->em, &t->vrep, d);
	return rc < 0 ? TGT_FAILED : rc == 0 ? differs(t, t->vrep.text) : TGT_OK;
}

void inc_eq2(const tgt *t, size_t r, emu_eq2 *e)
{
	emu_eq2_model(&t->t, r, t->tp_core > 0 ? t->tp_core : EMU_EQ2_TP_CORE,
		      t->lat_jit >= 0 ? (uint64_t)t->lat_jit : EMU_EQ2_LAT_JIT, e);
}

int inc_decide(tgt *t, diag *d)
{
	if (t->near || t->offload == INC_OFFLOAD_IN)
		return 0;
	if (!t->is_tdfg) {
		diag_file(d, t->p.path, "--offload=%s: a stream runs as written; where regions "
			  "run is chosen for a tDFG (.tdfg, .json)", inc_offload_names[t->offload]);
		return -1;
	}
	const emu_tdfg *g = &t->t;
	if (!(t->near = calloc(g->nregions ? g->nregions : 1, 1))) {
		diag_file(d, g->path, "out of memory for the offload decision");
		return -1;
	}
	for (size_t r = 0; r < g->nregions; r++) {
		char why[256];
		const long bad = emu_near_unfit(g, r, why, sizeof why);
		const bool all = t->offload == INC_OFFLOAD_NEAR || t->offload == INC_OFFLOAD_CORE;
		if (all && bad >= 0) {
			const emu_tnode *x = &g->nodes[bad];
			diag_at(d, g->path, x->line, x->op_col, "--offload=%s: region '%s': %s",
				inc_offload_names[t->offload], g->regions[r].name, why);
			return -1;
		}
		emu_eq2 e;
		inc_eq2(t, r, &e);
		t->near[r] = bad < 0 && (all || !e.in_memory);
	}
	return 0;
}

tgt_status inc_start(tgt *t, diag *d)
{
	if (t->started)
		return TGT_OK;
	if (inc_decide(t, d) < 0)
		return TGT_FAILED;
	t->started = true;
	return validate(t, d);
}

long inc_near_at(const tgt *t, size_t i)
{
	if (!t->near || t->em->upc != 0)
		return -1;
	const long n = emu_jit_node_of(&t->j, i);
	if (n < 0)
		return -1;
	const size_t r = t->t.nodes[n].region;
	return t->near[r] && t->t.regions[r].cmd0 == i ? (long)r : -1;
}

tgt_status inc_near_run(tgt *t, size_t r, diag *d)
{
	const emu_tdfg *g = &t->t;
	const emu_tregion *rg = &g->regions[r];
	/* the stream's reference keeps pace: the same streams on its values */
	emu_ref *ref = t->ref && t->checked == rg->cmd0 ? t->ref : NULL;
	for (size_t n = rg->node0; n < rg->node1; n++) {
		const double tp = t->offload == INC_OFFLOAD_CORE
					  ? (t->tp_core > 0 ? t->tp_core : EMU_EQ2_TP_CORE) : 0;
		if (emu_near_exec(g, &t->p, t->em, ref, n, tp, &t->strm, d) < 0)
			return TGT_FAILED;
		if (t->tref) {
			const tgt_status st = check_tnode(t, (long)n, d);
			if (st != TGT_OK)
				return st;
		}
	}
	t->em->pc = rg->cmd1;
	if (ref)
		t->checked = rg->cmd1;
	t->near_runs++;
	return TGT_OK;
}

tgt_status inc_after_cmd(tgt *t, size_t i, diag *d)
{
	tgt_status st;
	if (t->ref && i == t->checked) {
		if (emu_ref_run_cmd(t->ref, i, d) < 0)
			return TGT_FAILED;
		t->checked++;
		if (!emu_report_check_cmd(t->ref, t->em, i, d))
			return differs(t, d->msg);
	}
	if ((st = validate(t, d)) != TGT_OK)
		return st;
	/* A strm node's stream runs at the banks after its commands
	 * (emu/tdfg/strm.c). */
	const long sn = t->is_tdfg ? emu_strm_node_at(&t->t, &t->j, i) : -1;
	if (sn >= 0 && emu_strm_exec(&t->t, &t->p, t->em, t->ref, (size_t)sn, &t->strm, d) < 0)
		return TGT_FAILED;
	return t->tref ? check_node(t, i, d) : TGT_OK;
}

/* --inputs: the validation again on each generated input set, each on
 * a machine of its own. */
static tgt_status generated_sets(tgt *t, diag *d)
{
	static const char *const kind[2] = {"random", "edge"};
	for (unsigned k = 0; t->valid && k < 2; k++)
		for (unsigned i = 1; i <= t->sets[k]; i++) {
			emu_valid *v = emu_valid_new(&t->vt, &t->p, d);
			int rc = v && emu_valid_generate(v, (emu_valid_inputs)k, i, d) == 0
					 ? emu_valid_drive(v, &t->vrep, d) : -1;
			emu_valid_free(v);
			if (rc < 0)
				return TGT_FAILED;
			if (rc == 1) {
				const size_t n = strlen(t->vrep.text);
				snprintf(t->vrep.text + n, sizeof t->vrep.text - n, "%s: note: found on "
					 "the generated input set %s:%u (--inputs); the given data pass\n",
					 t->p.path, kind[k], i);
				return differs(t, t->vrep.text);
			}
			t->sets_run++;
		}
	return TGT_OK;
}

/* --tdfg's warnings that the check was weaker than it looks. */
static void valid_warnings(const tgt *t)
{
	for (size_t i = 0; t->valid && i < emu_valid_warnings(t->valid); i++) {
		const char *w = emu_valid_warning(t->valid, i);
		if (t->sets_run && strstr(w, "--inputs"))
			continue; /* the generated sets have run */
		char line[DIAG_MAX];
		snprintf(line, sizeof line, "%s: warning: --tdfg: %s", t->p.path, w);
		inc_warn_lines(t, line);
	}
}

/* The hazards the run met (doc/MOVEMENT.md), as warnings. */
static void hazard_warnings(const tgt *t)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return;
	emu_hazard_print(f, t->em->hz);
	if (fclose(f) == 0)
		inc_warn_lines(t, text);
	free(text);
}

tgt_status inc_run(tgt *t, diag *d)
{
	tgt_status st = inc_start(t, d);
	/* a command the debugger stopped inside: its rest first */
	if (st == TGT_OK && t->em->upc != 0)
		st = inc_step(t, 1, d);
	const size_t n = t->p.ncmds;
	for (size_t i = t->em->pc; st == TGT_OK && i < n; i = t->em->pc) {
		const long near = inc_near_at(t, i);
		if (near >= 0) {
			st = inc_near_run(t, (size_t)near, d);
			continue;
		}
		if (run_measured(t, i, d) < 0) {
			st = t->em->hazard_stop ? TGT_HAZARD : TGT_FAILED;
			break;
		}
		st = inc_after_cmd(t, i, d);
		if (t->a.progress && (i % 64 == 63 || i + 1 == n))
			t->a.progress(t->a.warn_ctx, i + 1, n);
	}
	if (st == TGT_HAZARD)
		return st;
	hazard_warnings(t);
	if (st == TGT_OK)
		st = inc_check(t, d);
	if (st == TGT_OK)
		st = generated_sets(t, d);
	if (st == TGT_OK)
		valid_warnings(t);
	return st;
}

tgt_status inc_check(tgt *t, diag *d)
{
	if (t->ref && t->checked == t->em->pc && !emu_report_check_all(t->ref, t->em, d))
		return differs(t, d->msg);
	return TGT_OK;
}

const char *inc_report(const tgt *t)
{
	return t->report;
}

void inc_summary(tgt *t, char *buf, size_t size)
{
	const emu_stats *st = &t->em->st;
	size_t m = (size_t)snprintf(buf, size, "%s: %" PRIu64 " command%s, %" PRIu64 " cycles; "
				    "transpose unit %" PRIu64 " cycles", t->p.path, st->commands,
				    st->commands == 1 ? "" : "s", st->total.cycles, st->ttu_cycles);
#define MORE(...) (m < size ? m += (size_t)snprintf(buf + m, size - m, __VA_ARGS__) : m)
	if (t->ref)
		MORE("; --check: the reference model agrees");
	if (t->ref && t->tref)
		MORE(", and every tDFG node (%zu) computes what the tDFG means", t->t.nnodes);
	if (t->valid)
		MORE("; --tdfg: %zu check point%s of %s hold%s what the tDFG means",
		     emu_valid_points(t->valid), emu_valid_points(t->valid) == 1 ? "" : "s", t->tdfg,
		     emu_valid_points(t->valid) == 1 ? "s" : "");
	if (t->sets_run)
		MORE(" (the given data and %u generated input set%s)", t->sets_run,
		     t->sets_run == 1 ? "" : "s");
	if (t->near_runs && t->offload == INC_OFFLOAD_CORE)
		MORE("; %" PRIu64 " region run%s at the core (--offload=core): %" PRIu64 " nodes as "
		     "streams of the core, %" PRIu64 " cycles", t->near_runs,
		     t->near_runs == 1 ? "" : "s", t->strm.near_nodes, t->strm.core_cycles);
	else if (t->near_runs)
		MORE("; %" PRIu64 " region run%s near memory (--offload=%s): %" PRIu64 " nodes on "
		     "the stream engines, %" PRIu64 " cycles", t->near_runs,
		     t->near_runs == 1 ? "" : "s", inc_offload_names[t->offload], t->strm.near_nodes,
		     t->strm.near_cycles + t->strm.final_cycles);
	if (t->is_tdfg && t->t.program)
		MORE("; %zu region runs, %zu lowered, %zu reused", t->t.nregions, t->j.misses,
		     t->j.hits);
#undef MORE
}
