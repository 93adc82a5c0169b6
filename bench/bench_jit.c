/* SPDX-License-Identifier: MIT */
/*
 * bench_jit.c: how long infsim's JIT takes to lower a tDFG (emu/tdfg/tdfg.h),
 * next to the average JIT time the paper reports (220 µs, infinity-stream
 * §8: "The average JIT time is 220us (σ 449us)"), and what --check's
 * comparisons at node granularity cost.  doc/PERFORMANCE.md, "JIT",
 * records the figures.
 *
 * Lowering is emu_tdfg_parse (the text form) then emu_jit_lower: tile
 * selection (§4.1), wordline allocation (§3.4), Algorithm 1 on every
 * node's domain and Algorithm 2 for its moves (§4.2), the stream's text,
 * and every command through the assembler's checks as it is made
 * (emu/tdfg/jit_asm.c; the declarations are assembled from their text).  Each figure is the best of several
 * runs (parse, lower and free, from the same text in memory).  Cases:
 *   stencil    samples/tdfg/stencil.tdfg: 64x32 f32 on its own machine
 *              (32 arrays of 256x64);
 *   stencil2k  the same tDFG on a 2048x2048 f32 lattice on the default
 *              machine (16384 arrays of 256x256: one element a bitline).
 * The paper's JIT runs on the host core of a simulated system and its
 * 220 µs average is over its whole benchmark suite; these are infsim's
 * times on this host for two tDFGs, so the ratio says only whether the
 * JIT is in the same range, not that the two were measured alike.
 *
 * The node checks: the lowered stream run on the machine, once with no
 * check, once comparing every node's domain with the reference
 * (emu_tref_compare, emu/tdfg/tdfg_ref.c) right after the node's last
 * command, as `infsim run --check` does (its stream-level reference
 * model, emu/ref/refmodel.c, is not part of this figure).  A run whose
 * check fails makes the bench print FAIL and exit 1.
 *
 * JIT time per region run: every workload of samples/workloads/ (fp32
 * and int32, the samples' sizes) parsed, then emu_jit_lower timed whole,
 * best of runs, divided by the program's region runs (memoised runs
 * included), and the slowest single lowering (emu_jit.lowerings),
 * against issue 12's target of 50 us per region on average.
 * Usage: bench_jit [repetitions]
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "text.h"
#include "tdfg.h"

#define PAPER_JIT_US 220.0
#define STENCIL_PATH SRCDIR "/samples/tdfg/stencil.tdfg"

struct jcase {
	const char *label;
	char *text;            /* the tDFG */
	size_t len;
	sram_geom geom;        /* the machine when the text has no line */
	bool failed;
};

/* The sample's text with its machine line dropped and its region made
 * 2048x2048: the same nodes on the default machine. */
static char *stencil_2k(const char *sample)
{
	const size_t n = strlen(sample);
	char *out = malloc(n + 64);
	size_t k = 0;
	if (!out)
		return NULL;
	for (const char *s = sample; *s;) {
		const char *nl = strchr(s, '\n');
		const size_t len = nl ? (size_t)(nl - s) + 1 : strlen(s);
		if (strncmp(s, "machine ", 8) == 0) {
			s += len;
			continue;
		}
		if (strncmp(s, "region ", 7) == 0)
			k += (size_t)sprintf(out + k, "region stencil 2048x2048\n");
		else
			k += (size_t)sprintf(out + k, "%.*s", (int)len, s);
		s += len;
	}
	out[k] = 0;
	return out;
}

/* Parse and lower c's text (0, or -1 with the message printed). */
static int lower(const struct jcase *c, emu_tdfg *t, emu_jit *j)
{
	diag d;
	diag_clear(&d);
	memset(j, 0, sizeof *j);
	emu_program_init(&j->prog);
	if (emu_tdfg_parse(c->label, c->text, c->len, &c->geom, NULL, t, &d) ||
	    emu_jit_lower(t, j, &d)) {
		printf("%s: FAIL: %s\n", c->label, d.msg);
		return -1;
	}
	return 0;
}

static void parse_only(void *ctx)
{
	const struct jcase *c = ctx;
	emu_tdfg t;
	diag d;
	if (emu_tdfg_parse(c->label, c->text, c->len, &c->geom, NULL, &t, &d))
		abort(); /* it parsed before the timing */
	emu_tdfg_free(&t);
}

static void parse_and_lower(void *ctx)
{
	const struct jcase *c = ctx;
	emu_tdfg t;
	emu_jit j;
	if (lower(c, &t, &j))
		abort();
	emu_jit_free(&j);
	emu_tdfg_free(&t);
}

/* The JIT's time for one case, and what it produced. */
static void time_jit(struct jcase *c, int reps)
{
	emu_tdfg t;
	emu_jit j;
	if (lower(c, &t, &j)) {
		c->failed = true;
		emu_tdfg_free(&t);
		return;
	}
	const size_t cmds = j.prog.ncmds, nodes = t.nnodes, bytes = j.len;
	const emu_tregion *r = &t.regions[0];
	printf("%-10s %4" PRIu64 "x%-4" PRIu64 " tile %" PRIu64 "x%" PRIu64 ", %zu nodes -> %zu "
	       "commands (%zu bytes of stream)\n", c->label, r->shape[0], r->shape[1],
	       r->tile[0], r->tile[1], nodes, cmds, bytes);
	emu_jit_free(&j);
	emu_tdfg_free(&t);
	const double p = bench_best(reps, parse_only, c) * 1e6;
	const double all = bench_best(reps, parse_and_lower, c) * 1e6;
	printf("           parse %8.1f us   parse + lower %8.1f us   %6.2fx the paper's "
	       "%.0f us\n", p, all, all / PAPER_JIT_US, PAPER_JIT_US);
}

/* Run c's lowering on a new machine; with tref, compare each node after
 * its last command.  Seconds, or a negative number on a failure. */
static double run_once(const struct jcase *c, bool check)
{
	emu_tdfg t;
	emu_jit j;
	diag d;
	diag_clear(&d);
	if (lower(c, &t, &j))
		return -1;
	const double t0 = bench_now();
	emu_machine *em = emu_machine_new(&j.prog, &d);
	emu_tref *r = check && em ? emu_tref_new(&t, &d) : NULL;
	bool ok = em && (!check || r) && emu_init_buffers(em, &d) == 0;
	for (size_t i = 0; ok && i < j.prog.ncmds; i++) {
		ok = emu_run_cmd(em, &d) == 0;
		const long n = emu_jit_node_of(&j, i);
		emu_mismatch mm;
		if (ok && check && n >= 0 && t.nodes[n].cmd1 == i + 1 &&
		    !emu_tref_compare(r, &j.prog, em, (size_t)n, &mm)) {
			snprintf(d.msg, sizeof d.msg, "node '%s' differs at element %" PRIu64,
				 t.nodes[n].name, mm.index);
			ok = false;
		}
	}
	const double s = bench_now() - t0;
	if (!ok)
		printf("%s: FAIL: %s\n", c->label, d.msg);
	emu_tref_free(r);
	if (em)
		emu_machine_free(em);
	emu_jit_free(&j);
	emu_tdfg_free(&t);
	return ok ? s : -1;
}

/* The run with and without the node checks, best of runs (one run each
 * when a run takes more than a second). */
static void time_check(struct jcase *c, int reps)
{
	double best[2] = {1e30, 1e30};
	for (int k = 0; k < 2; k++)
		for (int r = 0;; r++) {
			const double s = run_once(c, k == 1);
			if (s < 0) {
				c->failed = true;
				return;
			}
			best[k] = s < best[k] ? s : best[k];
			if (s > 1.0 || bench_last_rep(reps, r, best[k] * (r + 1)))
				break;
		}
	printf("%-10s run %9.2f ms   run + node checks %9.2f ms   checks %.2fx the run\n",
	       c->label, best[0] * 1e3, best[1] * 1e3, (best[1] - best[0]) / best[0]);
}

/* ---- JIT time per region, over Table 3's workloads ---- */

#define WORKLOADS SRCDIR "/samples/workloads/"
#define TARGET_US 50.0 /* issue 12's target for the average per region */

static const char *const workloads[] = {
	"vec_add", "array_sum", "stencil1d", "stencil2d", "stencil3d", "dwt2d",
	"gauss_elim", "conv2d", "conv3d", "mm_outer", "mm_inner",
};

/* One workload's lowering: parse once, then emu_jit_lower timed whole
 * (best of runs) and over its region runs; the slowest lowering of a
 * run (a memoisation miss) from emu_jit's own record.  false on a
 * failure (printed). */
static bool time_workload(const char *name, const char *type, int reps, double *avg_us,
			  double *max_us, size_t *runs, size_t *misses)
{
	char path[1024];
	snprintf(path, sizeof path, WORKLOADS "%s_%s.tdfg", name, type);
	double best = 1e30;
	*max_us = 0;
	for (int r = 0;; r++) {
		emu_tdfg t;
		emu_jit j;
		diag d;
		diag_clear(&d);
		const sram_geom def = sram_geom_default();
		memset(&j, 0, sizeof j);
		emu_program_init(&j.prog);
		if (emu_tdfg_parse_file(path, &def, NULL, &t, &d)) {
			printf("%s_%s: FAIL: %s\n", name, type, d.msg);
			return false;
		}
		const double t0 = bench_now();
		const int rc = emu_jit_lower(&t, &j, &d);
		const double s = bench_now() - t0;
		if (rc) {
			printf("%s_%s: FAIL: %s\n", name, type, d.msg);
			emu_tdfg_free(&t);
			return false;
		}
		*runs = t.nregions;
		*misses = j.misses;
		if (s < best) {
			best = s;
			*max_us = 0;
			for (size_t i = 0; i < j.misses; i++)
				if (j.lowerings[i].seconds * 1e6 > *max_us)
					*max_us = j.lowerings[i].seconds * 1e6;
		}
		emu_jit_free(&j);
		emu_tdfg_free(&t);
		if (bench_last_rep(reps, r, best * (r + 1)))
			break;
	}
	*avg_us = best * 1e6 / (double)(*runs ? *runs : 1);
	return true;
}

/* Every workload of samples/workloads/, fp32 and int32: the JIT's
 * average and slowest time per region run, against 50 us; false on a
 * failure. */
static bool time_workloads(int reps)
{
	printf("\nJIT time per region run, samples/workloads/ (target %.0f us on average)\n",
	       TARGET_US);
	printf("(avg: the whole lowering, set-up included, over the program's region runs;\n"
	       " slowest: one region's lowering alone, the set-up excluded)\n");
	printf("%-14s %6s %7s %12s %12s\n", "workload", "runs", "lowered", "avg us/run",
	       "slowest us");
	double sum = 0;
	size_t n = 0;
	bool ok = true;
	for (size_t w = 0; w < sizeof workloads / sizeof *workloads; w++)
		for (int ty = 0; ty < 2; ty++) {
			const char *type = ty ? "i32" : "f32";
			double avg, max;
			size_t runs, misses;
			if (!time_workload(workloads[w], type, reps, &avg, &max, &runs, &misses)) {
				ok = false;
				continue;
			}
			char label[64];
			snprintf(label, sizeof label, "%s_%s", workloads[w], type);
			printf("%-14s %6zu %7zu %12.1f %12.1f\n", label, runs, misses, avg, max);
			sum += avg;
			n++;
		}
	if (n)
		printf("average over the %zu workloads: %.1f us per region run (%s the %.0f us "
		       "target)\n", n, sum / (double)n, sum / (double)n <= TARGET_US ? "meets" :
		       "misses", TARGET_US);
	return ok;
}

int main(int argc, char **argv)
{
	const int reps = argc > 1 ? atoi(argv[1]) : 0;
	if ((argc > 1 && reps < 1) || argc > 2) {
		fprintf(stderr, "usage: bench_jit [repetitions >= 1]\n");
		return 2;
	}
	diag d;
	char *sample;
	size_t len;
	if (text_read_file(STENCIL_PATH, TEXT_FILE_MAX, &sample, &len, &d)) {
		fprintf(stderr, "%s\n", d.msg);
		return 1;
	}
	struct jcase cs[2] = {
		{"stencil", NULL, 0, sram_geom_default(), false},
		{"stencil2k", NULL, 0, sram_geom_default(), false},
	};
	cs[0].text = realloc(sample, len + 1);
	if (cs[0].text) {
		cs[0].text[len] = 0;
		cs[1].text = stencil_2k(cs[0].text);
	}
	if (!cs[0].text || !cs[1].text) {
		fprintf(stderr, "bench_jit: out of memory\n");
		return 1;
	}
	cs[0].len = len;
	cs[1].len = strlen(cs[1].text);
	const double start = bench_now();
	printf("infsim bench_jit: tDFG -> command stream (emu_tdfg_parse + emu_jit_lower), "
	       "best of %s runs\n", reps ? argv[1] : "3 to 20");
	bench_print_load();
	printf("\nJIT lowering (the paper: %.0f us on average, infinity-stream section 8)\n",
	       PAPER_JIT_US);
	for (int i = 0; i < 2; i++)
		time_jit(&cs[i], reps);
	printf("\nnode checks (--check at node granularity; the executor on %d thread%s)\n",
	       bench_threads(), bench_threads() == 1 ? "" : "s");
	for (int i = 0; i < 2 && !cs[0].failed && !cs[1].failed; i++)
		time_check(&cs[i], reps);
	const bool failed = cs[0].failed || cs[1].failed || !time_workloads(reps);
	free(cs[0].text);
	free(cs[1].text);
	printf("\nwhole bench: %.1f s\n", bench_now() - start);
	if (failed)
		printf("FAIL\n");
	return failed;
}
