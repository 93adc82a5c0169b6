/* SPDX-License-Identifier: MIT */
/*
 * bench_fp.c: throughput of bit-exact fp32 add, mul and div over the
 * whole default machine (sram_geom_default(): 4M bitlines, one element
 * each), with the baseline and the optimised (data-dependent) latency,
 * next to the scalar reference (isa_ref_fp, one thread).
 *
 * This is a benchmark, not a test: it prints figures and never judges
 * them by time.  It fails (prints FAIL, exits 1) only when a result is
 * wrong: when an element differs from the reference.
 *
 * The command runs through the machine (emu_run_cmd), as `infsim run`
 * runs it: the baseline as one static micro-program over every way, the
 * optimised latency under one controller per bank (emu/machine/machine.c).  Only
 * emu_run_cmd is timed; operands are placed with the array's ordinary
 * port, and every run starts from the same snapshot.
 *
 * Operands: normal fp32 values of random sign and significand with
 * exponents in [-8, 8] (|x| in [2^-8, 2^9)), the narrow dynamic range of
 * real workloads that duality-cache §5.5 reports; one element in 97 is a
 * special value (+-0, +-inf, NaN, the largest and smallest normals).
 * Usage: bench_fp [repetitions]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "hazard.h"
#include "isa.h"
#include "machine.h"
#include "program.h"

enum { WIDTH = 32, ROW_A = 0, ROW_B = 32, ROW_D = 64, ROW_SCRATCH = 96,
       SAMPLES = 4096 };

struct fp_case {
	const char *label;
	unsigned op;
	double target; /* elements/s this project aims at (0: none) */
};

static const struct fp_case cases[] = {
	{"add.f32", ISA_FADD, 1e8},
	{"mul.f32", ISA_FMUL, 6e7},
	{"div.f32", ISA_FDIV, 0},
};

struct bench {
	emu_program prog;
	emu_machine *em;
	sram_machine *m0;   /* operands placed: where every run starts */
	uint64_t count;
	uint64_t *a, *b, *ref, *got;
	int reps;
	int threads;
};

static uint64_t make_value(uint64_t *st, uint64_t i)
{
	static const uint64_t special[] = {0, 0x80000000u, 0x7f800000u, 0xff800000u,
					   0x7fc00000u, 0x7f7fffffu, 0x00800000u,
					   0x80800000u};
	const uint64_t r = bench_splitmix(st);
	if (i % 97 == 0)
		return special[(r >> 8) % (sizeof special / sizeof special[0])];
	const uint64_t sign = (r >> 63) & 1;
	const uint64_t exp = 127 - 8 + (r >> 40) % 17;
	return sign << 31 | exp << 23 | (r & 0x7fffffu);
}

/* Tell the machine's hazard tracker that a and b hold data, as
 * `infsim run` does for a stream's buffers: the operands are placed
 * through the array port here, not by the transpose unit. */
static void declare_loaded(struct bench *B)
{
	const sram_machine *m = B->em->m;
	unsigned *arrays = malloc(m->narrays * sizeof *arrays);
	uint64_t mask[SRAM_MAX_DIM / 64];
	if (!arrays) {
		fprintf(stderr, "bench_fp: out of memory\n");
		exit(1);
	}
	for (unsigned i = 0; i < m->narrays; i++)
		arrays[i] = i;
	memset(mask, 0xff, sizeof mask);
	const emu_cells c = {arrays, m->narrays, mask, ROW_A, 2 * WIDTH};
	if (emu_hazard_load(B->em->hz, &c) != 0) {
		fprintf(stderr, "bench_fp: out of memory\n");
		exit(1);
	}
	free(arrays);
}

static void bench_init(struct bench *B, int reps)
{
	const sram_geom g = sram_geom_default();
	static emu_cmd cmd;
	emu_program_init(&B->prog);
	B->prog.path = (char *)"bench_fp";
	B->prog.geom = g;
	B->prog.cmds = &cmd;
	B->prog.ncmds = 1;
	diag d;
	diag_clear(&d);
	B->em = emu_machine_new(&B->prog, &d);
	B->m0 = bench_machine(&g, "bench_fp");
	if (!B->em) {
		fprintf(stderr, "bench_fp: cannot allocate the machine\n");
		exit(1);
	}
	B->reps = reps;
	B->count = sram_geom_bitlines(&g);
	B->a = malloc(B->count * sizeof *B->a);
	B->b = malloc(B->count * sizeof *B->b);
	B->ref = malloc(B->count * sizeof *B->ref);
	B->got = malloc(B->count * sizeof *B->got);
	if (!B->a || !B->b || !B->ref || !B->got) {
		fprintf(stderr, "bench_fp: out of memory\n");
		exit(1);
	}
	uint64_t st = 20261122;
	for (uint64_t i = 0; i < B->count; i++) {
		B->a[i] = make_value(&st, i);
		B->b[i] = make_value(&st, i + 48);
	}
	bench_put(B->m0, ROW_A, WIDTH, B->a);
	bench_put(B->m0, ROW_B, WIDTH, B->b);
	declare_loaded(B);
	B->threads = bench_threads();
}

static void bench_free(struct bench *B)
{
	emu_machine_free(B->em);
	sram_free(B->m0);
	free(B->a);
	free(B->b);
	free(B->ref);
	free(B->got);
}

static void set_cmd(struct bench *B, unsigned op)
{
	emu_cmd *c = &B->prog.cmds[0];
	const sram_machine *m = B->em->m;
	memset(c, 0, sizeof *c);
	c->c.op = (uint16_t)op;
	c->c.fmt = ISA_FMT_F32;
	c->c.width = WIDTH;
	c->c.is_signed = 1;
	c->c.iters = ISA_CORDIC_DEFAULT;
	c->c.a = ROW_A;
	c->c.b = ROW_B;
	c->c.d = ROW_D;
	c->c.d2 = c->c.c3 = ISA_NONE;
	c->c.scratch = ROW_SCRATCH;
	c->c.scratch_rows = (uint16_t)(m->g.wordlines - ROW_SCRATCH);
	c->arrays = emu_pattern_range(m->narrays);
	c->bitlines = emu_pattern_range(m->g.bitlines);
	c->buf_d = c->buf_d2 = c->buf_a = c->buf_b = c->buf_c = -1;
}

/* The reference over every element (one thread); returns elements/s. */
static double time_reference(struct bench *B, const isa_cmd *c)
{
	double best = 1e30, spent = 0;
	for (int r = 0;; r++) {
		const double t0 = bench_now();
		for (uint64_t i = 0; i < B->count; i++) {
			bool tag = false;
			B->ref[i] = isa_ref_fp(c, B->a[i], B->b[i], 0, &tag);
		}
		const double dt = bench_now() - t0;
		spent += dt;
		best = dt < best ? dt : best;
		if (bench_last_rep(B->reps, r, spent))
			break;
	}
	return (double)B->count / best;
}

static bool check_sample(struct bench *B, uint64_t *bad)
{
	for (uint64_t s = 0; s <= SAMPLES; s++) {
		const uint64_t e = s == SAMPLES ? B->count - 1
			: (s * UINT64_C(2654435761)) % B->count;
		if (bench_get_one(B->em->m, ROW_D, WIDTH, e) != B->ref[e]) {
			*bad = e;
			return false;
		}
	}
	return true;
}

static bool check_all(struct bench *B, uint64_t *bad)
{
	bench_get(B->em->m, ROW_D, WIDTH, B->got);
	for (uint64_t e = 0; e < B->count; e++)
		if (B->got[e] != B->ref[e]) {
			*bad = e;
			return false;
		}
	return true;
}

struct timing {
	double eps;        /* elements/s, best run */
	uint64_t cycles;   /* the command's latency (longest bank) */
	bool ok;
};

/* Best of several runs of the command from the snapshot. */
static struct timing time_machine(struct bench *B, const char *label,
				  bool optimised)
{
	struct timing t = {0, 0, true};
	emu_machine *em = B->em;
	em->optimised = optimised;
	double best = 1e30, spent = 0;
	diag d;
	diag_clear(&d);
	for (int r = 0; t.ok; r++) {
		sram_copy_state(em->m, B->m0);
		em->pc = em->upc = 0;
		const uint64_t c0 = em->st.total.cycles;
		const double t0 = bench_now();
		if (emu_run_cmd(em, &d) != 0) {
			printf("%-8s FAIL: %s\n", label, d.msg);
			t.ok = false;
			break;
		}
		const double dt = bench_now() - t0;
		t.cycles = em->st.total.cycles - c0;
		spent += dt;
		best = dt < best ? dt : best;
		uint64_t bad = 0;
		const bool last = bench_last_rep(B->reps, r, spent);
		if (!check_sample(B, &bad) || (last && !check_all(B, &bad))) {
			printf("%-8s FAIL (%s latency): element %" PRIu64 " a=0x%08"
			       PRIx64 " b=0x%08" PRIx64 ": reference 0x%08" PRIx64
			       ", SRAM 0x%08" PRIx64 "\n", label,
			       optimised ? "optimised" : "baseline", bad, B->a[bad],
			       B->b[bad], B->ref[bad],
			       bench_get_one(em->m, ROW_D, WIDTH, bad));
			t.ok = false;
		}
		if (last)
			break;
	}
	t.eps = (double)B->count / best;
	return t;
}

static void print_line(const char *who, const struct timing *t, double ref_eps)
{
	printf("  %-20s %6" PRIu64 " cycles %9.3g elements/s %9.3g bitline-cycles/s"
	       "  x%-6.3g the reference\n", who, t->cycles, t->eps,
	       t->eps * (double)t->cycles, t->eps / ref_eps);
}

/* One case: 1 = measured and right, 0 = no micro-program yet, -1 = FAIL. */
static int run_case(struct bench *B, const struct fp_case *fc)
{
	set_cmd(B, fc->op);
	const isa_cmd *c = &B->prog.cmds[0].c;
	const sram_machine *m = B->em->m;
	const char *e = isa_check(c, m->g.wordlines, m->g.bitlines, NULL);
	if (e) {
		printf("%-8s FAIL: isa_check refuses the command: %s\n", fc->label, e);
		return -1;
	}
	isa_prog p;
	isa_prog_init(&p);
	const int built = isa_build(c, m->g.bitlines, &p);
	isa_prog_free(&p);
	if (built != 0) {
		printf("%-8s not measured: no micro-program yet\n", fc->label);
		return 0;
	}
	const double ref = time_reference(B, c);
	/* Each latency with the micro-op-at-a-time executor (INFSIM_BLOCK=0)
	 * and the column-blocked one (=1), in the same run. */
	struct timing t[2][2]; /* [optimised][blocked] */
	for (int o = 0; o < 2; o++)
		for (int k = 0; k < 2; k++) {
			setenv("INFSIM_BLOCK", k ? "1" : "0", 1);
			t[o][k] = time_machine(B, fc->label, o);
			unsetenv("INFSIM_BLOCK");
			if (!t[o][k].ok)
				return -1;
			if (emu_hazard_count(B->em->hz) != 0) {
				printf("%-8s FAIL: the machine reported hazards on the"
				       " bench's data\n", fc->label);
				return -1;
			}
		}
	const struct timing tb = t[0][1], to = t[1][1];
	printf("%-8s baseline %" PRIu64 " cycles (isa_baseline_cycles), optimised %"
	       PRIu64 " on this data\n", fc->label,
	       isa_baseline_cycles(c, m->g.bitlines), to.cycles);
	print_line("baseline, unblocked", &t[0][0], ref);
	print_line("baseline, blocked", &tb, ref);
	print_line("optimised, unblocked", &t[1][0], ref);
	print_line("optimised, blocked", &to, ref);
	printf("  %-20s x%.3g baseline, x%.3g optimised\n", "blocked/unblocked",
	       tb.eps / t[0][0].eps, to.eps / t[1][0].eps);
	printf("  %-20s %9.3g elements/s\n", "reference, 1 thread", ref);
	const double best = tb.eps > to.eps ? tb.eps : to.eps;
	if (fc->target > 0)
		printf("  target %.3g elements/s: %s; %" PRIu64 " elements match the"
		       " reference in both modes\n", fc->target,
		       best >= fc->target ? "met" : "NOT met", B->count);
	else
		printf("  %" PRIu64 " elements match the reference in both modes\n",
		       B->count);
	return 1;
}

int main(int argc, char **argv)
{
	int reps = argc > 1 ? atoi(argv[1]) : 0;
	if ((argc > 1 && reps < 1) || argc > 2) {
		fprintf(stderr, "usage: bench_fp [repetitions >= 1]\n");
		return 2;
	}
	struct bench B;
	memset(&B, 0, sizeof B);
	bench_init(&B, reps);
	const sram_machine *m = B.em->m;
	printf("infsim bench_fp: %u banks x %u ways x %u arrays x %ux%u ="
	       " %" PRIu64 " bitlines, one fp32 element each (hardware mode)\n",
	       m->nbanks, m->g.ways_per_bank, m->g.arrays_per_way,
	       m->g.wordlines, m->g.bitlines, B.count);
	printf("default threads: %d; best of %s runs; only emu_run_cmd is timed\n",
	       B.threads, reps ? argv[1] : "3 to 20");
	bench_print_load();
	printf("\n");
	int failed = 0;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		if (run_case(&B, &cases[i]) < 0)
			failed = 1;
	bench_free(&B);
	if (failed)
		printf("\nFAIL\n");
	return failed;
}
