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
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "isa.h"
#include "sram.h"

/* Operand layout of the brief: a, b, d, d2, then 128 scratch rows. */
enum {
	WIDTH = 32, ROW_A = 0, ROW_B = 32, ROW_D = 64, ROW_D2 = 96,
	ROW_SCRATCH = 128, SCRATCH_ROWS = 128, SAMPLES = 4096,
	MIN_REPS = 3, MAX_REPS = 20,
};
#define REPS_SECONDS 0.25 /* default: runs until this much time is spent */

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
	uint32_t *a, *b;   /* operand values, element order */
	uint64_t *ref;     /* reference results of the current case */
	int reps;          /* runs per figure; 0: by time */
	int threads;
};

struct timing {
	double sec;        /* best of the repetitions */
	double eps;        /* elements per second */
};

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t splitmix(uint64_t *state)
{
	uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* Transpose a 64x64 bit matrix in place: bit j of x[i] goes to bit i of
 * x[j] (Hacker's Delight 7-3, with bit 0 the least significant).  It
 * turns 64 element values into 64 row words of one array word, and back. */
static void transpose64(uint64_t x[64])
{
	uint64_t mask = UINT64_C(0x00000000ffffffff);
	for (unsigned j = 32; j; j >>= 1, mask ^= mask << j)
		for (unsigned k = 0; k < 64; k = ((k | j) + 1) & ~j) {
			const uint64_t t = ((x[k] >> j) ^ x[k | j]) & mask;
			x[k] ^= t << j;
			x[k | j] ^= t;
		}
}

/* Place WIDTH-bit values v (element order) at wordlines base.. */
static void put_operand(sram_machine *m, unsigned base, const uint32_t *v)
{
	const unsigned B = m->g.bitlines;
	uint64_t x[64];
	for (unsigned arr = 0; arr < m->narrays; arr++)
		for (unsigned j = 0; j < m->wpa; j++) {
			const uint64_t e0 = (uint64_t)arr * B + 64u * j;
			for (unsigned i = 0; i < 64; i++)
				x[i] = v[e0 + i];
			transpose64(x);
			for (unsigned k = 0; k < WIDTH; k++)
				sram_row(m, arr, base + k)[j] = x[k];
		}
}

/* Compare every element of the result at ROW_D with the reference. */
static bool check_all(sram_machine *m, const struct bench *B, uint64_t *bad)
{
	const unsigned BL = m->g.bitlines;
	uint64_t x[64];
	for (unsigned arr = 0; arr < m->narrays; arr++)
		for (unsigned j = 0; j < m->wpa; j++) {
			for (unsigned k = 0; k < 64; k++)
				x[k] = k < WIDTH ? sram_row(m, arr, ROW_D + k)[j] : 0;
			transpose64(x);
			const uint64_t e0 = (uint64_t)arr * BL + 64u * j;
			for (unsigned i = 0; i < 64; i++)
				if (x[i] != B->ref[e0 + i]) {
					*bad = e0 + i;
					return false;
				}
		}
	return true;
}

/* A second, independent read-back of a sample: bit by bit. */
static bool check_sample(const sram_machine *m, const struct bench *B,
			 uint64_t *bad)
{
	const unsigned BL = m->g.bitlines;
	for (uint64_t s = 0; s <= SAMPLES; s++) {
		const uint64_t e = s == SAMPLES ? B->count - 1
			: (s * UINT64_C(2654435761)) % B->count;
		uint64_t v = 0;
		for (unsigned k = 0; k < WIDTH; k++)
			v |= (uint64_t)sram_get_bit(m, (unsigned)(e / BL), ROW_D + k,
						    (unsigned)(e % BL)) << k;
		if (v != B->ref[e]) {
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
	static const uint32_t edge[] = {0, 1, 2, 0xffffffffu, 0xfffffffeu,
					0x80000000u, 0x7fffffffu, 0x80000001u};
	const unsigned ne = sizeof edge / sizeof edge[0];
	uint64_t st = 20240607;
	for (uint64_t i = 0; i < B->count; i++) {
		const uint64_t r = splitmix(&st), q = splitmix(&st);
		B->a[i] = (uint32_t)r;
		B->b[i] = (uint32_t)((q & 0xffffffffu) >> ((r >> 32) % 33));
		if (i % 61 == 0)
			B->a[i] = edge[(q >> 40) % ne];
		if (i % 61 == 30 || i % 67 == 0)
			B->b[i] = edge[(q >> 48) % ne];
	}
}

static sram_machine *new_machine(const sram_geom *g)
{
	sram_machine *m = sram_new(g);
	if (!m) {
		fprintf(stderr, "bench_int: cannot allocate a %" PRIu64
			"-byte machine\n", sram_geom_bytes(g));
		exit(1);
	}
	return m;
}

static void bench_init(struct bench *B, int reps)
{
	const sram_geom g = sram_geom_default();
	B->reps = reps;
	B->m0 = new_machine(&g);
	B->mt = new_machine(&g);
	B->m1 = new_machine(&g);
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
	put_operand(B->m0, ROW_A, B->a);
	put_operand(B->m0, ROW_B, B->b);
#ifdef _OPENMP
	B->threads = omp_get_max_threads();
#else
	B->threads = 1;
#endif
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

/* Whether run r (from 0), after `spent` seconds of runs, is the last. */
static bool last_rep(const struct bench *B, int r, double spent)
{
	if (B->reps)
		return r + 1 >= B->reps;
	return r + 1 >= MAX_REPS || (r + 1 >= MIN_REPS && spent >= REPS_SECONDS);
}

/* Best of B->reps passes of the scalar reference over every element;
 * the last pass leaves its results in B->ref. */
static struct timing time_reference(struct bench *B, const isa_cmd *c)
{
	struct timing t = {1e30, 0};
	double spent = 0;
	for (int r = 0;; r++) {
		const double t0 = now();
		for (uint64_t i = 0; i < B->count; i++) {
			bool tag = false;
			B->ref[i] = isa_ref_elem(c, B->a[i], B->b[i], false, &tag, NULL);
		}
		const double dt = now() - t0;
		spent += dt;
		if (dt < t.sec)
			t.sec = dt;
		if (last_rep(B, r, spent))
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
	uint64_t got = 0;
	const unsigned BL = m->g.bitlines;
	for (unsigned k = 0; k < WIDTH; k++)
		got |= (uint64_t)sram_get_bit(m, (unsigned)(e / BL), ROW_D + k,
					      (unsigned)(e % BL)) << k;
	printf("%-8s FAIL (%s): element %" PRIu64 " a=0x%08" PRIx32
	       " b=0x%08" PRIx32 ": reference 0x%08" PRIx64 ", SRAM 0x%08"
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
		const double t0 = now();
		sram_run(m, NULL, p->u, p->n);
		const double dt = now() - t0;
		spent += dt;
		if (dt < t.sec)
			t.sec = dt;
		uint64_t bad = 0;
		if (!check_sample(m, B, &bad))
			*ok = report_bad(B, label, run, m, bad);
		if (last_rep(B, r, spent))
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

/* Other work on the machine slows the runs down: say how much there was
 * (Linux's 1-minute load average), so that the figures can be judged. */
static void print_load(void)
{
	FILE *f = fopen("/proc/loadavg", "r");
	double load;
	if (f && fscanf(f, "%lf", &load) == 1)
		printf("load average when the bench started: %.2f\n", load);
	if (f)
		fclose(f);
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
		       B.threads, MIN_REPS, MAX_REPS, REPS_SECONDS);
	printf("; only sram_run is timed\n");
	print_load();
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
