/* SPDX-License-Identifier: MIT */
/*
 * bench_int.c: throughput of bit-exact int32 add, mul and div over the
 * whole default machine (sram_geom_default(): 4M bitlines, one element
 * each), through the micro-op executor, next to the scalar reference.
 *
 * This is a benchmark, not a test: it prints figures and never judges
 * them by time.  It fails (prints FAIL, exits 1) only when a result is
 * wrong: when an element differs from isa_ref_elem, or when one thread
 * and the default thread count leave different machine state.
 *
 * Only sram_run is timed.  Operands are placed with sram_row (the
 * array's ordinary port, not micro-ops), through a 64x64 bit transpose;
 * every timed run starts from the same snapshot of the machine.
 * Usage: bench_int [repetitions]
 * Each figure is the best of several runs: the given number, or by
 * default as many as fit in about a quarter of a second (3 to 20), since
 * other work on the machine can only slow a run down.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "isa.h"
#include "sram.h"

/* Operand layout of the brief: a, b, d, d2, then 128 scratch rows. */
enum {
	WIDTH = 32, ROW_A = 0, ROW_B = 32, ROW_D = 64, ROW_D2 = 96,
	ROW_SCRATCH = 128, SCRATCH_ROWS = 128, SAMPLES = 4096,
};

/* The strongest published bit-serial simulator, measured on this
 * machine: its bit-exact micro-programs, and its word-level path that
 * does not compute through bit-serial micro-ops. */
#define PUBLISHED_WORD_LEVEL 5.8e7

struct bench_case {
	const char *label;
	unsigned op;
	bool is_signed;
	double target;     /* elements/s this project aims at */
	double published;  /* the published simulator, bit-exact, elements/s */
};

static const struct bench_case cases[] = {
	{"add.i32", ISA_ADD, true, 1.5e9, 9.5e5},
	{"mul.u32", ISA_MUL, false, 2e8, 4.1e4},
	{"mul.i32", ISA_MUL, true, 2e8, 4.1e4},
	{"div.u32", ISA_DIV, false, 1e8, 2.4e4},
	{"div.i32", ISA_DIV, true, 1e8, 2.4e4},
};

struct bench {
	sram_machine *m0;  /* operands placed: where every run starts */
	sram_machine *mt;  /* the run with the default thread count */
	sram_machine *m1;  /* the run with one thread */
	uint64_t count;    /* elements = bitlines of the machine */
	uint64_t *a, *b;   /* operand values, element order */
	uint64_t *ref;     /* reference results of the current case */
	int reps;          /* runs per figure; 0: by time */
	int threads;
};

struct timing {
	double sec;        /* best of the repetitions */
	double eps;        /* elements per second */
};

/* Compare every element of the result at ROW_D with the reference. */
static bool check_all(sram_machine *m, const struct bench *B, uint64_t *bad)
{
	uint64_t *v = malloc(B->count * sizeof *v);
	if (!v) {
		fprintf(stderr, "bench_int: out of memory\n");
		exit(1);
	}
	bench_get(m, ROW_D, WIDTH, v);
	bool ok = true;
	for (uint64_t e = 0; ok && e < B->count; e++)
		if (v[e] != B->ref[e]) {
			*bad = e;
			ok = false;
		}
	free(v);
	return ok;
}

/* A second, independent read-back of a sample: bit by bit. */
static bool check_sample(const sram_machine *m, const struct bench *B,
			 uint64_t *bad)
{
	for (uint64_t s = 0; s <= SAMPLES; s++) {
		const uint64_t e = s == SAMPLES ? B->count - 1
			: (s * UINT64_C(2654435761)) % B->count;
		if (bench_get_one(m, ROW_D, WIDTH, e) != B->ref[e]) {
			*bad = e;
			return false;
		}
	}
	return true;
}

/* Every cell, latch, enable and sense word, way by way (a way's row
 * holds all its arrays side by side, sram.h), and the last-cycle data. */
static bool same_state(sram_machine *x, sram_machine *y)
{
	const size_t row = (size_t)x->stride * sizeof(uint64_t);
	for (unsigned w = 0; w < x->nways; w++) {
		const unsigned arr = w * x->g.arrays_per_way;
		for (unsigned wl = 0; wl < x->g.wordlines; wl++)
			if (memcmp(sram_row(x, arr, wl), sram_row(y, arr, wl), row))
				return false;
		for (int l = SRAM_CARRY; l <= SRAM_BLB; l++)
			if (memcmp(sram_latch_words(x, arr, (enum sram_latch)l),
				   sram_latch_words(y, arr, (enum sram_latch)l), row))
				return false;
		const sram_way *p = &x->ways[w], *q = &y->ways[w];
		if (p->last_nact != q->last_nact || p->last_dst != q->last_dst ||
		    p->last_set != q->last_set ||
		    memcmp(p->last_act, q->last_act, sizeof p->last_act) != 0)
			return false;
	}
	return true;
}

/* Operands: random 32-bit a; b of random magnitude (so quotients vary);
 * one element in 61 takes an edge value (0, 1, -1, MIN, MAX, ...), which
 * covers division by zero and MIN / -1. */
static void make_operands(struct bench *B)
{
	static const uint64_t edge[] = {0, 1, 2, 0xffffffffu, 0xfffffffeu,
					0x80000000u, 0x7fffffffu, 0x80000001u};
	const unsigned ne = sizeof edge / sizeof edge[0];
	uint64_t st = 20240607;
	for (uint64_t i = 0; i < B->count; i++) {
		const uint64_t r = bench_splitmix(&st), q = bench_splitmix(&st);
		B->a[i] = r & 0xffffffffu;
		B->b[i] = (q & 0xffffffffu) >> ((r >> 32) % 33);
		if (i % 61 == 0)
			B->a[i] = edge[(q >> 40) % ne];
		if (i % 61 == 30 || i % 67 == 0)
			B->b[i] = edge[(q >> 48) % ne];
	}
}

static void bench_init(struct bench *B, int reps)
{
	const sram_geom g = sram_geom_default();
	B->reps = reps;
	B->m0 = bench_machine(&g, "bench_int");
	B->mt = bench_machine(&g, "bench_int");
	B->m1 = bench_machine(&g, "bench_int");
	B->count = sram_geom_bitlines(&g);
	B->a = malloc(B->count * sizeof *B->a);
	B->b = malloc(B->count * sizeof *B->b);
	B->ref = malloc(B->count * sizeof *B->ref);
	if (!B->a || !B->b || !B->ref) {
		fprintf(stderr, "bench_int: out of memory\n");
		exit(1);
	}
	for (unsigned arr = 0; arr < B->m0->narrays; arr++)
		sram_enable_all(B->m0, arr);
	make_operands(B);
	bench_put(B->m0, ROW_A, WIDTH, B->a);
	bench_put(B->m0, ROW_B, WIDTH, B->b);
	B->threads = bench_threads();
}

static void bench_free(struct bench *B)
{
	sram_free(B->m0);
	sram_free(B->mt);
	sram_free(B->m1);
	free(B->a);
	free(B->b);
	free(B->ref);
}

/* Best of B->reps passes of the scalar reference over every element;
 * the last pass leaves its results in B->ref. */
static struct timing time_reference(struct bench *B, const isa_cmd *c)
{
	struct timing t = {1e30, 0};
	double spent = 0;
	for (int r = 0;; r++) {
		const double t0 = bench_now();
		for (uint64_t i = 0; i < B->count; i++) {
			bool tag = false;
			B->ref[i] = isa_ref_elem(c, B->a[i], B->b[i], false, &tag, NULL);
		}
		const double dt = bench_now() - t0;
		spent += dt;
		if (dt < t.sec)
			t.sec = dt;
		if (bench_last_rep(B->reps, r, spent))
			break;
	}
	t.eps = (double)B->count / t.sec;
	return t;
}

static isa_cmd bench_cmd(const struct bench_case *bc)
{
	isa_cmd c;
	memset(&c, 0, sizeof c);
	c.op = (uint16_t)bc->op;
	c.width = WIDTH;
	c.is_signed = bc->is_signed;
	c.a = ROW_A;
	c.b = ROW_B;
	c.d = ROW_D;
	c.d2 = ROW_D2;
	c.scratch = ROW_SCRATCH;
	c.scratch_rows = SCRATCH_ROWS;
	return c;
}

/* Build and validate the micro-program.  1: ready; 0: the family has no
 * micro-program yet; -1: the command or a micro-op is refused. */
static int build_prog(const sram_machine *m, const struct bench_case *bc,
		      const isa_cmd *c, isa_prog *p)
{
	const char *e = isa_check(c, m->g.wordlines, m->g.bitlines, NULL);
	if (e) {
		printf("%-8s FAIL: isa_check refuses the command: %s\n", bc->label, e);
		return -1;
	}
	if (isa_build(c, m->g.bitlines, p) != 0 || p->n == 0) {
		printf("%-8s not measured: no micro-program yet (isa_build returned"
		       " -1; isa/%s.c is being written)\n", bc->label,
		       isa_info_of(c->op)->family);
		return 0;
	}
	for (size_t i = 0; i < p->n; i++)
		if ((e = sram_uop_check(m, &p->u[i]))) {
			printf("%-8s FAIL: micro-op %zu is invalid: %s\n", bc->label, i, e);
			return -1;
		}
	return 1;
}

static bool report_bad(const struct bench *B, const char *label,
		       const char *run, sram_machine *m, uint64_t e)
{
	const uint64_t got = bench_get_one(m, ROW_D, WIDTH, e);
	printf("%-8s FAIL (%s): element %" PRIu64 " a=0x%08" PRIx64
	       " b=0x%08" PRIx64 ": reference 0x%08" PRIx64 ", SRAM 0x%08"
	       PRIx64 "\n", label, run, e, B->a[e], B->b[e], B->ref[e], got);
	return false;
}

static bool verify(const struct bench *B, const char *label, const char *run,
		   sram_machine *m)
{
	uint64_t bad = 0;
	if (!check_sample(m, B, &bad) || !check_all(m, B, &bad))
		return report_bad(B, label, run, m, bad);
	return true;
}

/* Best of B->reps runs of prog on m, each from the snapshot m0 and each
 * checked on a sample; the full check is the caller's, on the last. */
static struct timing time_sram(const struct bench *B, const char *label,
			       sram_machine *m, const isa_prog *p, int threads,
			       bool *ok)
{
	struct timing t = {1e30, 0};
	char run[32];
	snprintf(run, sizeof run, "%d thread%s", threads, threads == 1 ? "" : "s");
	sram_set_threads(threads);
	double spent = 0;
	for (int r = 0; *ok; r++) {
		sram_copy_state(m, B->m0);
		const double t0 = bench_now();
		sram_run(m, NULL, p->u, p->n);
		const double dt = bench_now() - t0;
		spent += dt;
		if (dt < t.sec)
			t.sec = dt;
		uint64_t bad = 0;
		if (!check_sample(m, B, &bad))
			*ok = report_bad(B, label, run, m, bad);
		if (bench_last_rep(B->reps, r, spent))
			break;
	}
	sram_set_threads(0);
	t.eps = (double)B->count / t.sec;
	return t;
}

static void print_line(const char *who, struct timing t, size_t cycles,
		       double ref_eps)
{
	printf("  %-22s %9.3g elements/s  %9.3g bitline-cycles/s  %8.2f ms"
	       "  x%-8.3g the reference\n", who, t.eps,
	       t.eps * (double)cycles, t.sec * 1e3, t.eps / ref_eps);
}

/* One case: 1 = measured and right, 0 = not available, -1 = FAIL. */
static int run_case(struct bench *B, const struct bench_case *bc)
{
	isa_cmd c = bench_cmd(bc);
	isa_prog p;
	isa_prog_init(&p);
	int rc = build_prog(B->m0, bc, &c, &p);
	if (rc <= 0) {
		isa_prog_free(&p);
		return rc;
	}
	const struct timing ref = time_reference(B, &c);
	bool ok = true;
	const struct timing tt = time_sram(B, bc->label, B->mt, &p, B->threads, &ok);
	ok = ok && verify(B, bc->label, "default threads", B->mt);
	const struct timing t1 = time_sram(B, bc->label, B->m1, &p, 1, &ok);
	ok = ok && verify(B, bc->label, "1 thread", B->m1);
	if (ok && !same_state(B->mt, B->m1)) {
		printf("%-8s FAIL: 1 and %d threads leave different machine state\n",
		       bc->label, B->threads);
		ok = false;
	}
	if (ok) {
		char who[40];
		printf("%-8s %zu cycles per element (micro-ops)\n", bc->label, p.n);
		snprintf(who, sizeof who, "SRAM, %d thread%s", B->threads,
			 B->threads == 1 ? "" : "s");
		print_line(who, tt, p.n, ref.eps);
		print_line("SRAM, 1 thread", t1, p.n, ref.eps);
		printf("  %-22s %9.3g elements/s\n", "reference, 1 thread", ref.eps);
		printf("  %-22s %9.3g elements/s  (ours is x%.3g)\n",
		       "published bit-serial", bc->published, tt.eps / bc->published);
		printf("  target %.3g elements/s: %s; %" PRIu64 " elements match the"
		       " reference; 1 and %d threads: identical state\n",
		       bc->target, tt.eps >= bc->target ? "met" : "NOT met",
		       B->count, B->threads);
	}
	isa_prog_free(&p);
	return ok ? 1 : -1;
}

int main(int argc, char **argv)
{
	int reps = argc > 1 ? atoi(argv[1]) : 0;
	if ((argc > 1 && reps < 1) || argc > 2) {
		fprintf(stderr, "usage: bench_int [repetitions >= 1]\n");
		return 2;
	}
	struct bench B;
	memset(&B, 0, sizeof B);
	bench_init(&B, reps);
	const sram_machine *m = B.m0;
	printf("infsim bench_int: %u banks x %u ways x %u arrays x %ux%u ="
	       " %" PRIu64 " bitlines, one int32 element each\n",
	       m->nbanks, m->g.ways_per_bank, m->g.arrays_per_way,
	       m->g.wordlines, m->g.bitlines, B.count);
	if (reps)
		printf("default threads: %d; best of %d runs", B.threads, reps);
	else
		printf("default threads: %d; best of %d to %d runs (%.2g s)",
		       B.threads, BENCH_MIN_REPS, BENCH_MAX_REPS, BENCH_REPS_SECONDS);
	printf("; only sram_run is timed\n");
	bench_print_load();
	printf("published bit-serial simulator, word-level (not bit-exact)"
	       " path: %.3g elements/s\n\n", PUBLISHED_WORD_LEVEL);
	int failed = 0;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		if (run_case(&B, &cases[i]) < 0)
			failed = 1;
	bench_free(&B);
	if (failed)
		printf("\nFAIL\n");
	return failed;
}
