/* SPDX-License-Identifier: MIT */
/*
 * test_simt.c: Duality Cache's SIMT mode (emu/simt/, doc/SIMT.md).
 *
 *   ops        every DC-PTX operation and type on random and special
 *              values, the machine against the thread-at-a-time
 *              reference bit for bit, in both fp modes and latencies;
 *   work       the samples (vecadd, matvec, bfs) against the reference
 *              and against plain C written here;
 *   control    divergence (a forward branch), a data-dependent loop (the
 *              wired-OR back-jump), exit, counted by hand;
 *   mshr       requests to one line merge, requests to distinct lines
 *              do not, against a direct count;
 *   xbar       shfl in every mode against the reference and C, the
 *              reduction sample, a divergent shuffle refused;
 *   translate  the translator: round trip, list scheduling filling the
 *              slots (fails with in-order placement), the serial mapping
 *              and --fig13, spilling to local memory at several register
 *              limits (spill.simt against C), ld.local/st.local by hand;
 *   errors     bad programs with their located messages, run-time errors;
 *   cli        infsim simt;
 *   pack       several CTAs a CB: four CTAs of 256 on one CB with their
 *              own %ctaid, shared window, barrier and shuffle lanes, in
 *              both packings; fewer bundles and cycles with many small
 *              CTAs; a barrier split in one packed CTA; ctas_per_cb=.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simt.h"

#define RUN_TMP_PREFIX "test_simt"
#include "infsim_run.h"

/* ---- running a program both ways ---- */

typedef struct both {
	simt_program p;
	simt_machine *m;
	simt_ref *r;
	diag d;
} both;

static void both_run(both *b, const char *text)
{
	memset(b, 0, sizeof *b);
	cr_assert_eq(simt_parse("t.simt", text, strlen(text), &b->p, &b->d), 0, "parse: %s\n%s",
		     b->d.msg, text);
	b->m = simt_machine_new(&b->p, &b->d);
	cr_assert_not_null(b->m, "%s", b->d.msg);
	cr_assert_eq(simt_machine_run(b->m, &b->d), 0, "machine: %s", b->d.msg);
	b->r = simt_ref_new(&b->p, &b->d);
	cr_assert_not_null(b->r, "%s", b->d.msg);
	cr_assert_eq(simt_ref_run(b->r, &b->d), 0, "reference: %s", b->d.msg);
	cr_assert_eq(simt_compare(b->m, b->r, &b->d), 0, "%s\n%s", b->d.msg, text);
}

static void both_file(both *b, const char *name)
{
	char path[512];
	snprintf(path, sizeof path, "%s/samples/simt/%s", SRCDIR, name);
	memset(b, 0, sizeof *b);
	cr_assert_eq(simt_load_file(path, &b->p, &b->d), 0, "%s", b->d.msg);
	b->m = simt_machine_new(&b->p, &b->d);
	cr_assert_not_null(b->m);
	cr_assert_eq(simt_machine_run(b->m, &b->d), 0, "machine: %s", b->d.msg);
	b->r = simt_ref_new(&b->p, &b->d);
	cr_assert_eq(simt_ref_run(b->r, &b->d), 0, "reference: %s", b->d.msg);
	cr_assert_eq(simt_compare(b->m, b->r, &b->d), 0, "%s", b->d.msg);
}

static void both_free(both *b)
{
	simt_machine_free(b->m);
	simt_ref_free(b->r);
	simt_program_free(&b->p);
}

static const uint32_t *gmem(const both *b, const char *name, const uint32_t *mem)
{
	const simt_global *g = simt_global_find(&b->p, name);
	cr_assert_not_null(g, "no global %s", name);
	return mem + g->addr / 4;
}

static float f32(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}

static uint32_t bits(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

/* ---- ops: one kernel an operation ---- */

static uint64_t rng_state = 18;
static uint32_t rnd(void)
{
	uint64_t z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return (uint32_t)((z ^ (z >> 31)) >> 32);
}

static const uint32_t f_special[] = {
	0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x00000001, 0x807fffff,
	0x00800000, 0x3f800000, 0xbf800000, 0x7f7fffff, 0x4f000000, 0xcf000000, 0x3effffff,
	0x00400000, 0x4b800001,
};
static const uint32_t i_special[] = {
	0, 1, 0xffffffff, 0x80000000, 0x7fffffff, 2, 31, 32, 33, 0xfffffffe, 7, 3,
};

/* A global's "= v v v" initialiser of 256 values mixing special,
 * random-bits and moderate values. */
static void values(char *buf, size_t size, bool fp)
{
	size_t n = 0;
	n += (size_t)snprintf(buf + n, size - n, "=");
	for (unsigned i = 0; i < 256; i++) {
		uint32_t v;
		unsigned kind = rnd() % 4;
		if (kind == 0)
			v = fp ? f_special[rnd() % 16] : i_special[rnd() % 12];
		else if (kind == 1)
			v = rnd();
		else
			v = fp ? bits((float)((int)(rnd() % 2001) - 1000) / (float)(1 + rnd() % 64))
			       : rnd() % 200 - 100;
		n += (size_t)snprintf(buf + n, size - n, " 0f%08x", v);
	}
}

/* Load A, B, C of the thread into r0, r1, r2 (array 0), run OP, store
 * r0 to OUT. */
static void op_program(char *buf, size_t size, const char *machine, const char *op,
		       bool fp)
{
	char a[4096], b[4096], c[4096];
	values(a, sizeof a, fp);
	values(b, sizeof b, fp);
	values(c, sizeof c, fp);
	snprintf(buf, size,
		 ".machine %s\n.global A u32 256 %s\n.global B u32 256 %s\n.global C u32 256 %s\n"
		 ".global OUT u32 256\n.kernel k\n"
		 "\tmov.u32 r3, %%tid ; mov.u32 r6, A ; mov.u32 r9, B\n"
		 "\tshl.b32 r3, r3, 2\n"
		 "\tmov.u32 r7, r3 ; mov.u32 r10, r3 ; mov.u32 r4, C\n"
		 "\tadd.u32 r6, r6, r7 ; add.u32 r9, r9, r10 ; add.u32 r4, r4, r3\n"
		 "\tld.global.u32 r0, [r6]\n\tld.global.u32 r1, [r9]\n"
		 "\tld.global.u32 r2, [r4] ; mov.u32 r5, OUT\n"
		 "\t%s\n"
		 "\tadd.u32 r5, r5, r3\n\tst.global.u32 [r5], r0\n.end\n.launch k 1 256\n",
		 machine, a, b, c, op);
}

static const char *const int_ops[] = {
	"add.%s r0, r0, r1", "sub.%s r0, r0, r1", "mul.lo.%s r0, r0, r1", "div.%s r0, r0, r1",
	"rem.%s r0, r0, r1", "and.%s r0, r0, r1", "or.%s r0, r1, r0", "xor.%s r0, r0, r1",
	"not.%s r0, r1", "shl.%s r0, r0, r1", "shr.%s r0, r0, r1", "shl.%s r0, r1, 5",
	"shr.%s r0, r1, 31", "min.%s r0, r0, r1", "max.%s r0, r0, r1", "div.%s r0, r1, r0",
	"mul.lo.%s r2, r0, r1 ; setp.eq.u32 p0, r3, r4", "setp.lt.%s p0, r0, r1\n\tselp.u32 r0, r1, r2, p0",
	"setp.ge.%s p0, r0, r1\n\tselp.u32 r0, r1, r2, p0", "setp.ne.%s p1, r0, r1\n\t@!p1 mov.u32 r0, 7",
	"cvt.f32.%s r0, r1", "mov.%s r0, r2",
};

static const char *const f_ops[] = {
	"add.f32 r0, r0, r1", "sub.f32 r0, r0, r1", "mul.f32 r0, r0, r1", "div.f32 r0, r0, r1",
	"mad.f32 r0, r0, r1, r2", "mad.f32 r2, r0, r1, r2\n\tmov.u32 r0, r2", "min.f32 r0, r0, r1",
	"max.f32 r0, r0, r1", "abs.f32 r0, r1", "neg.f32 r0, r1",
	"setp.lt.f32 p0, r0, r1\n\tselp.f32 r0, r1, r2, p0",
	"setp.eq.f32 p0, r0, r1\n\tselp.f32 r0, r1, r2, p0",
	"setp.ne.f32 p0, r0, r1\n\tselp.f32 r0, r1, r2, p0",
	"setp.ge.f32 p3, r0, r1\n\tselp.f32 r0, r1, r2, p3",
	"cvt.s32.f32 r0, r1", "cvt.u32.f32 r0, r1", "cvt.f32.f32 r0, r1",
};

static void ops_run(const char *machine)
{
	static char prog[16384];
	char op[256];
	const char *types[] = { "u32", "s32" };
	for (size_t i = 0; i < sizeof int_ops / sizeof *int_ops; i++)
		for (int t = 0; t < 2; t++) {
			if (t == 0 && strstr(int_ops[i], "abs"))
				continue;
			snprintf(op, sizeof op, int_ops[i], types[t]);
			op_program(prog, sizeof prog, machine, op, false);
			both b;
			both_run(&b, prog);
			both_free(&b);
		}
	for (size_t i = 0; i < sizeof f_ops / sizeof *f_ops; i++) {
		op_program(prog, sizeof prog, machine, f_ops[i], true);
		both b;
		both_run(&b, prog);
		both_free(&b);
	}
}

Test(ops, ftz_optimised, .timeout = 600) { ops_run("fp=ftz latency=optimised cbs=1"); }
Test(ops, ieee_baseline, .timeout = 600) { ops_run("fp=ieee latency=baseline cbs=1"); }

/* abs and neg of s32 (u32 has neither). */
Test(ops, abs_neg)
{
	static char prog[16384];
	op_program(prog, sizeof prog, "cbs=1", "abs.s32 r0, r1", false);
	both b;
	both_run(&b, prog);
	both_free(&b);
	op_program(prog, sizeof prog, "cbs=1", "neg.s32 r0, r1", false);
	both_run(&b, prog);
	both_free(&b);
}

/* ---- work: the samples against plain C ---- */

/* C = A + B over 2048 fp32 elements, against the host's add. */
static void check_vecadd(const both *b)
{
	const uint32_t *in = b->p.init, *out = simt_machine_mem(b->m);
	const uint32_t *A = gmem(b, "A", in), *B = gmem(b, "B", in), *C = gmem(b, "C", out);
	for (unsigned i = 0; i < 2048; i++)
		cr_assert_eq(C[i], bits(f32(A[i]) + f32(B[i])), "C[%u]", i);
}

Test(work, vecadd)
{
	both b;
	both_file(&b, "vecadd.simt");
	check_vecadd(&b);
	both_free(&b);
}

Test(work, matvec)
{
	both b;
	both_file(&b, "matvec.simt");
	const uint32_t *in = b.p.init, *out = simt_machine_mem(b.m);
	const uint32_t *M = gmem(&b, "M", in), *X = gmem(&b, "X", in), *Y = gmem(&b, "Y", out);
	for (unsigned i = 0; i < 256; i++) {
		volatile float acc = 0;
		for (unsigned j = 0; j < 64; j++) {
			volatile float p = f32(M[i * 64 + j]) * f32(X[j]);
			acc = p + acc;
		}
		cr_assert_eq(Y[i], bits(acc), "Y[%u]: %g, C %g", i, (double)f32(Y[i]), (double)acc);
	}
	/* 2 CTAs, no more than the 4 CBs: one a CB, side by side */
	cr_assert_eq(simt_machine_stats(b.m)->cb_groups, 2);
	cr_assert_eq(simt_machine_stats(b.m)->jumps_taken, 2 * 63, "the loop jumps back 63 times a CTA");
	both_free(&b);
}

Test(work, bfs)
{
	both b;
	both_file(&b, "bfs.simt");
	const simt_global *row = simt_global_find(&b.p, "ROW");
	const uint32_t *in = b.p.init, *out = simt_machine_mem(b.m);
	const uint32_t *R = gmem(&b, "ROW", in), *E = gmem(&b, "COL", in), *COST = gmem(&b, "COST", out);
	unsigned n = row->count - 1;
	int dist[1024], queue[1024], head = 0, tail = 0;
	for (unsigned v = 0; v < n; v++)
		dist[v] = -1;
	dist[0] = 0;
	queue[tail++] = 0;
	while (head < tail) {
		int v = queue[head++];
		for (uint32_t e = R[v]; e < R[v + 1]; e++)
			if (dist[E[e]] < 0) {
				dist[E[e]] = dist[v] + 1;
				queue[tail++] = (int)E[e];
			}
	}
	for (unsigned v = 0; v < n; v++)
		cr_assert_eq((int32_t)COST[v], dist[v], "COST[%u]", v);
	cr_assert_gt(tail, 50, "the graph reaches many nodes");
	both_free(&b);
}

/* ---- control: divergence, loops, exit ---- */

/* Even threads take the forward branch; odd threads run the "else"
 * bundles; both meet at the label. */
Test(control, divergence)
{
	const char *text =
		".global OUT u32 1024\n.kernel k\n"
		"\tmov.u32 r0, %tid ; mov.u32 r3, 1\n"
		"\tmov.u32 r1, r3\n"
		"\tand.u32 r2, r0, r1\n"
		"\tmov.u32 r1, 0\n"
		"\tsetp.eq.u32 p0, r2, r1\n"
		"\tmov.u32 r1, 100 ; @p0 bra even\n"
		"\tmov.u32 r1, 200\n"
		"\tadd.u32 r1, r1, r1\n"
		"even:\n"
		"\tshl.b32 r2, r0, 2\n"
		"\tmov.u32 r0, OUT\n"
		"\tadd.u32 r0, r0, r2\n"
		"\tst.global.u32 [r0], r1\n.end\n.launch k 1 1024\n";
	both b;
	both_run(&b, text);
	const uint32_t *o = gmem(&b, "OUT", simt_machine_mem(b.m));
	for (unsigned t = 0; t < 1024; t++)
		cr_assert_eq(o[t], t % 2 ? 400u : 100u, "OUT[%u]", t);
	const simt_stats *s = simt_machine_stats(b.m);
	/* 13 bundles, the two of the odd side issued once, without the evens. */
	cr_assert_eq(s->bundles, 12, "bundles %llu", (unsigned long long)s->bundles);
	cr_assert_eq(s->thread_slots, 10 * 1024 + 2 * 512);
	cr_assert_eq(s->jumps_taken, 1);
	both_free(&b);
}

/* Thread t loops t % 7 + 1 times: the back-jump repeats while any
 * thread's predicate is set; the loop runs 7 times, finished threads
 * masked off. */
Test(control, data_dependent_loop)
{
	const char *text =
		".global OUT u32 256\n.kernel k\n"
		"\tmov.u32 r0, %tid ; mov.u32 r3, 7\n"
		"\tmov.u32 r1, r3\n"
		"\trem.u32 r0, r0, r1\n"
		"\tmov.u32 r1, 0 ; mov.u32 r4, 0\n"
		"\tmov.u32 r2, 1 ; mov.u32 r5, 3\n"
		"loop:\n"
		"\tadd.u32 r4, r4, r5 ; setp.ne.u32 p0, r0, r1\n"
		"\tsub.u32 r0, r0, r2 ; @p0 bra loop\n"
		"\tmov.u32 r0, %tid\n"
		"\tshl.b32 r0, r0, 2 ; mov.u32 r3, OUT\n"
		"\tmov.u32 r5, r0\n"
		"\tadd.u32 r3, r3, r5\n"
		"\tst.global.u32 [r3], r4\n.end\n.launch k 1 256\n";
	both b;
	both_run(&b, text);
	const uint32_t *o = gmem(&b, "OUT", simt_machine_mem(b.m));
	for (unsigned t = 0; t < 256; t++)
		cr_assert_eq(o[t], 3 * (t % 7 + 1), "OUT[%u] = %u", t, o[t]);
	const simt_stats *s = simt_machine_stats(b.m);
	cr_assert_eq(s->jumps_taken, 6, "jump_en set for 6 of the 7 trips");
	cr_assert_eq(s->bundles, 5 + 7 * 2 + 5);
	both_free(&b);
}

Test(control, exit_and_guard)
{
	const char *text =
		".global OUT u32 64 fill 9\n.kernel k\n"
		"\tmov.u32 r0, %tid ; mov.u32 r3, 10\n"
		"\tmov.u32 r1, r3\n"
		"\tsetp.lt.u32 p0, r0, r1\n"
		"\t@!p0 exit\n"
		"\tshl.b32 r2, r0, 2 ; mov.u32 r3, OUT\n"
		"\tmov.u32 r4, r2\n"
		"\tadd.u32 r3, r3, r4\n"
		"\t@p0 st.global.u32 [r3], r0\n.end\n.launch k 2 64\n";
	both b;
	both_run(&b, text);
	const uint32_t *o = gmem(&b, "OUT", simt_machine_mem(b.m));
	for (unsigned t = 0; t < 64; t++)
		cr_assert_eq(o[t], t < 10 ? t : 9u);
	both_free(&b);
}

/* ---- mshr ---- */

static void mshr_case(unsigned stride, unsigned threads, uint64_t lines)
{
	char text[1024];
	snprintf(text, sizeof text,
		 ".global A u32 65536 iota\n.global OUT u32 1024\n.kernel k\n"
		 "\tmov.u32 r0, %%tid ; mov.u32 r3, %u\n"
		 "\tmov.u32 r1, r3\n"
		 "\tmul.lo.u32 r0, r0, r1 ; mov.u32 r3, A\n"
		 "\tmov.u32 r4, r0\n"
		 "\tadd.u32 r3, r3, r4\n"
		 "\tld.global.u32 r6, [r3]\n"
		 ".end\n.launch k 1 %u\n", stride, threads);
	both b;
	both_run(&b, text);
	const simt_stats *s = simt_machine_stats(b.m);
	cr_assert_eq(s->mem_requests, threads);
	cr_assert_eq(s->mem_lines, lines, "stride %u: %llu lines", stride,
		     (unsigned long long)s->mem_lines);
	cr_assert_eq(s->mshr_merges, threads - lines);
	both_free(&b);
}

Test(mshr, merges)
{
	mshr_case(0, 1024, 1);          /* one address: one line */
	mshr_case(4, 1024, 64);         /* consecutive words: 16 a line */
	mshr_case(64, 1024, 1024);      /* a line each: no merge */
	mshr_case(8, 100, 13);          /* 800 bytes: lines 0..12 */
	mshr_case(256, 256, 256);
}

/* ---- errors ---- */

static void bad(const char *text, const char *want)
{
	simt_program p;
	diag d;
	diag_clear(&d);
	cr_assert_lt(simt_parse("bad.simt", text, strlen(text), &p, &d), 0, "accepted:\n%s", text);
	cr_assert(strstr(d.msg, want), "got '%s', want '%s'", d.msg, want);
}

#define K(body) ".kernel k\n" body ".end\n.launch k 1 32\n"

Test(errors, parse)
{
	bad(K("\tadd.u32 r0, r1, r3\n"), "bad.simt:2:2: error: r3 is in array 1 but add runs on array 0");
	bad(K("\tadd.u32 r0, r1, r2 ; sub.u32 r1, r1, r2\n"), "bad.simt:2:23: error: a second instruction on array 0");
	bad(K("\tld.global.u32 r0, [r3] ; ld.global.u32 r6, [r3]\n"), "bad.simt:2:27: error: a second memory or crossbar operation");
	bad(K("\tbra x ; add.u32 r0, r1, r2\n"), "bad.simt:2:2: error: bra must be the last");
	bad(K("\tbra nowhere\n"), "bad.simt:2:6: error: no label 'nowhere'");
	bad(K("\tfoo.u32 r0, r1, r2\n"), "bad.simt:2:2: error: unknown instruction 'foo'");
	bad(K("\tadd r0, r1, r2\n"), "bad.simt:2:2: error: add needs a type");
	bad(K("\trem.f32 r0, r1, r2\n"), "bad.simt:2:2: error: rem does not take this type");
	bad(K("\tadd.u32 r0, r1, r12\n"), "bad.simt:2:18: error: no register r12");
	bad(K("\tadd.u32 r0, r1\n"), "bad.simt:2:16: error: expected ','");
	bad(K("\tsetp.lt.u32 p8, r0, r1\n"), "bad.simt:2:14: error: no register p8");
	bad(K("\tsetp.u32 p0, r0, r1\n"), "setp needs a comparison");
	bad(K("\tcvt.f32 r0, r1\n"), "cvt needs two types");
	bad(K("\tadd.u32 r0, r1, r2 ; mov.u32 r3, r0\n"), "bad.simt:2:2: error: add writes a register");
	bad(K("\tsetp.eq.u32 p0, r0, r1 ; @p0 mov.u32 r3, 1\n"), "writes a register or predicate");
	bad(K("\tshl.b32 r0, r1, 32\n"), "bad.simt:2:18: error: shift of 32");
	bad(K("\tmov.u32 r0, nosuch\n"), "bad.simt:2:14: error: unknown name 'nosuch'");
	bad(K("\tmov.u32 r0, 0x100000000\n"), "does not fit 32 bits");
	bad(K("\tmov.f32 r0, 0f3f80\n"), "expected 8 hex digits");
	bad(K("\tadd.u32 r0, r0, r1\nx:\n"), "label 'x' labels no bundle");
	bad(K("x:\n\tadd.u32 r0, r0, r1\nx:\n\tadd.u32 r0, r0, r1\n"), "bad.simt:4:1: error: label 'x' defined twice");
	bad(".kernel k\n\tadd.u32 r0, r0, r1\n", "has no .end");
	bad(".kernel k\n.end\n.launch k 1 1\n", "bad.simt:2:1: error: kernel 'k' has no bundle");
	bad(".kernel k\n\texit\n.end\n", "no .launch");
	bad(".kernel k\n\texit\n.end\n.launch j 1 1\n", "bad.simt:4:9: error: no kernel 'j'");
	bad(".kernel k\n\texit\n.end\n.launch k 1 1025\n", "bad.simt:4:13: error: block (threads of a CTA) 1025 out of range");
	bad(".kernel k\n\texit\n.end\n.launch k 0 1\n", "grid (CTAs) 0 out of range");
	bad("\tadd.u32 r0, r0, r1\n", "bad.simt:1:2: error: an instruction outside a kernel");
	bad(".global A u32 4\n.machine cbs=2\n", ".machine must come before");
	bad(".machine cbs=65\n", "bad.simt:1:14: error: cbs 65 out of range");
	bad(".machine fp=half\n", "bad.simt:1:13: error: unknown fp mode 'half'");
	bad(".machine colour=1\n", "unknown setting 'colour'");
	bad(".machine mapping=diagonal\n", "bad.simt:1:18: error: expected vliw or serial after mapping=");
	bad(".machine ctas_per_cb=0\n", "bad.simt:1:22: error: ctas_per_cb 0 out of range: expected 1 to 1024");
	bad(".machine ctas_per_cb=1025\n", "bad.simt:1:22: error: ctas_per_cb 1025 out of range: expected 1 to 1024");
	bad(".machine ctas_per_cb=all\n", "bad.simt:1:22: error: expected ctas_per_cb (a decimal number)");
	bad(".global A u32 4\n.global A u32 4\n", "global 'A' declared twice");
	bad(".global A u64 4\n", "bad.simt:1:11: error: expected the element type");
	bad(".global A u32 2 = 1 2 3\n", "more values than the 2 elements");
	bad(".global A f32 2 = 1 nan\n", "bad.simt:1:21: error: expected a finite float");
	bad(".global A u32 2 rand\n", "expected seed");
	bad(".global A u32 20000000\n", "element count 20000000 out of range");
	bad(".kernel k\n.global A u32 4\n", ".global inside kernel 'k'");
	bad(".frob\n", "unknown directive '.frob'");
	bad(".kernel k\n\texit ; exit\n.end\n.launch k 1 1\n", "exit must be the last");
	bad(".kernel k\n\texit\n.end\n.launch k 1 1 extra\n", "unexpected text at the end");
	bad(".kernel k\n\tadd.u32 r0, r0, r1 junk\n.end\n", "bad.simt:2:21: error: expected ';'");
	bad("abc\001\n", "bad.simt:1");
	bad(".kernel k\n\texit\n.end\n.launch k 1 1", "newline");
	bad(K("\tshfl.b32 r0, r1, 3\n"), "bad.simt:2:2: error: shfl needs a mode (.idx, .up, .down or .bfly)");
	bad(K("\tshfl.side.b32 r0, r1, 3\n"), "bad.simt:2:2: error: unknown suffix '.side' of shfl");
	bad(K("\tshfl.idx.b32 r0, r1, 1024\n"), "bad.simt:2:23: error: lane 1024: expected 0 to 1023");
	bad(K("\tshfl.idx.b32 r0, 5, r1\n"), "bad.simt:2:19: error: a constant is not an operand here");
	bad(K("\tshfl.up.b32 r0, r1, 1 ; ld.global.u32 r3, [r4]\n"), "bad.simt:2:26: error: a second memory or crossbar operation");
	bad(K("\tshfl.up.b32 r0, r1, 1 ; add.u32 r1, r1, r2\n"), "bad.simt:2:26: error: add uses a register or predicate another instruction of the bundle writes");
}

static void runtime_bad(const char *text, const char *want)
{
	simt_program p;
	diag d;
	diag_clear(&d);
	cr_assert_eq(simt_parse("rt.simt", text, strlen(text), &p, &d), 0, "%s", d.msg);
	simt_machine *m = simt_machine_new(&p, &d);
	cr_assert_not_null(m);
	cr_assert_lt(simt_machine_run(m, &d), 0, "the machine ran:\n%s", text);
	cr_assert(strstr(d.msg, want), "machine: got '%s', want '%s'", d.msg, want);
	simt_machine_free(m);
	diag_clear(&d);
	simt_ref *r = simt_ref_new(&p, &d);
	cr_assert_lt(simt_ref_run(r, &d), 0, "the reference ran:\n%s", text);
	cr_assert(strstr(d.msg, want), "reference: got '%s', want '%s'", d.msg, want);
	simt_ref_free(r);
	simt_program_free(&p);
}

Test(errors, runtime)
{
	runtime_bad(".global A u32 16\n.kernel k\n\tmov.u32 r0, 64\n\tld.global.u32 r1, [r0]\n.end\n.launch k 1 4\n",
		    "rt.simt:4:2: error: kernel 'k': thread 0 of CTA 0 loads from address 0x40, outside the DC pages");
	runtime_bad(".global A u32 16\n.kernel k\n\tmov.u32 r0, 2\n\tst.global.u32 [r0], r1\n.end\n.launch k 1 4\n",
		    "stores to address 0x2, not 4-byte aligned");
	runtime_bad(".machine max_bundles=1000\n.kernel k\nl:\n\tmov.u32 r0, 1 ; bra l\n.end\n.launch k 1 4\n",
		    "did not end within 1000 bundles");

}

/* ---- exchange between threads: shfl through the crossbar ---- */

/* Each mode, a lane from a register and from a constant, lanes outside
 * the CTA (200 threads, not a power of two), a guard; against the
 * reference and against the rule of doc/SIMT.md written out here. */
Test(xbar, modes)
{
	static const char prog[] =
		".machine cbs=1\n"
		".global O u32 1400\n"
		".kernel k\n"
		"\tmov.u32 r0, %tid ; mov.u32 r3, %tid ; mov.u32 r6, O ; mov.u32 r9, %tid\n"
		"\tmov.u32 r1, 3 ; shl.b32 r4, r3, 2 ; mov.u32 r8, 800 ; mov.u32 r10, 1\n"
		"\tmul.lo.u32 r0, r0, r1 ; mov.u32 r7, r4 ; and.u32 r11, r9, r10\n"
		"\tadd.u32 r0, r0, r1 ; mov.u32 r5, 13 ; add.u32 r6, r6, r7 ; setp.eq.u32 p0, r11, r10\n"
		"\tmul.lo.u32 r5, r3, r5\n"
		"\tshr.u32 r5, r5, 2\n"
		"\tshfl.idx.b32 r9, r0, r5\n"
		"\tst.global.u32 [r6], r9\n"
		"\tshfl.idx.b32 r9, r0, 17 ; add.u32 r6, r6, r8\n"
		"\tst.global.u32 [r6], r9\n"
		"\tshfl.up.b32 r9, r0, 5 ; add.u32 r6, r6, r8\n"
		"\tst.global.u32 [r6], r9\n"
		"\tshfl.down.b32 r9, r0, 17 ; add.u32 r6, r6, r8\n"
		"\tst.global.u32 [r6], r9\n"
		"\tshfl.bfly.b32 r9, r0, 0x55 ; add.u32 r6, r6, r8\n"
		"\tst.global.u32 [r6], r9\n"
		"\tmov.u32 r9, 0 ; add.u32 r6, r6, r8\n"
		"\t@p0 shfl.down.b32 r9, r0, 1\n"
		"\tst.global.u32 [r6], r9\n"
		"\tshfl.bfly.b32 r9, r0, r5 ; add.u32 r6, r6, r8\n"
		"\tst.global.u32 [r6], r9\n"
		".end\n"
		".launch k 1 200\n";
	both b;
	both_run(&b, prog);
	const uint32_t *O = gmem(&b, "O", simt_machine_mem(b.m));
	const uint32_t n = 200;
#define V(t) (3 * (t) + 3)
#define IN(j, t) ((j) < n ? V(j) : V(t))
	for (uint32_t t = 0; t < n; t++) {
		uint32_t r5 = (13 * t) >> 2;
		uint32_t want[7] = {
			IN(r5, t), V(17), t >= 5 ? V(t - 5) : V(t), IN(t + 17, t), IN(t ^ 0x55, t),
			t % 2 ? IN(t + 1, t) : 0, IN(t ^ r5, t),
		};
		for (int k = 0; k < 7; k++)
			cr_assert_eq(O[k * n + t], want[k], "output %d of thread %u: 0x%x, want 0x%x", k, t,
				     O[k * n + t], want[k]);
	}
#undef IN
#undef V
	const simt_stats *st = simt_machine_stats(b.m);
	cr_assert_eq(st->shuffles, 7);
	both_free(&b);
}

/* The reduction sample: a tree of shfl.down, a shfl.idx broadcast,
 * against C doing the same tree (a lane past the CTA adds its own
 * value, as the rule says). */
Test(xbar, reduce)
{
	both b;
	both_file(&b, "reduce.simt");
	const uint32_t *in = b.p.init, *out = simt_machine_mem(b.m);
	const uint32_t *X = gmem(&b, "X", in), *S = gmem(&b, "S", out), *Y = gmem(&b, "Y", out);
	for (unsigned cta = 0; cta < 8; cta++) {
		float v[256], w[256];
		for (unsigned t = 0; t < 256; t++)
			v[t] = f32(X[cta * 256 + t]);
		for (unsigned s = 128; s >= 1; s /= 2) {
			for (unsigned t = 0; t < 256; t++)
				w[t] = v[t] + (t + s < 256 ? v[t + s] : v[t]);
			memcpy(v, w, sizeof v);
		}
		cr_assert_eq(S[cta], bits(v[0]), "S[%u]", cta);
		float mean = v[0] * 0x1p-8f;
		for (unsigned t = 0; t < 256; t++)
			cr_assert_eq(Y[cta * 256 + t], bits(f32(X[cta * 256 + t]) - mean), "Y[%u]",
				     cta * 256 + t);
	}
	/* 8 CTAs of 256 on 4 CBs, two a CB: 4 CB runs of 9 shuffles */
	cr_assert_eq(simt_machine_stats(b.m)->cb_groups, 4);
	cr_assert_eq(simt_machine_stats(b.m)->shuffles, 4 * 9);
	both_free(&b);
}

/* A shuffle needs every live thread of the CTA at it: threads that
 * reach two different shuffles are refused by both. */
Test(xbar, divergent)
{
	runtime_bad(".kernel k\n"
		    "\tmov.u32 r0, %tid ; mov.u32 r3, 1\n"
		    "\tmov.u32 r1, 4\n"
		    "\tsetp.lt.u32 p0, r0, r1\n"
		    "\t@p0 bra L\n"
		    "\tshfl.idx.b32 r2, r0, 0\n"
		    "\texit\n"
		    "L:\n"
		    "\tshfl.idx.b32 r2, r0, 1\n"
		    ".end\n"
		    ".launch k 1 32\n",
		    "a shuffle needs every live thread of the CTA at it");
}

/* ---- cli ---- */

TestSuite(cli, .init = make_tmpdir, .fini = remove_tmpdir);

Test(cli, check_and_print)
{
	result r = run("simt " SRCDIR "/samples/simt/vecadd.simt --check");
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "--check: memory and registers equal the thread-at-a-time "
			 "reference"), "%s", r.out);
	result_free(&r);
	r = run("simt " SRCDIR "/samples/simt/vecadd.simt --check --stats");
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "MSHR merges"), "%s", r.out);
	result_free(&r);
	r = run("simt " SRCDIR "/samples/simt/bfs.simt -d COST -q");
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "COST[0] = 0 (0x00000000)\n"), "%s", r.out);
	result_free(&r);
	r = run("simt --help");
	cr_assert_eq(r.status, 0);
	cr_assert(strstr(r.out, "Usage: infsim simt"));
	result_free(&r);
	r = run("simt");
	cr_assert_eq(r.status, 2);
	result_free(&r);
	r = run("simt " SRCDIR "/samples/simt/vecadd.simt -d NOPE");
	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.err, "vecadd.simt has no array 'NOPE' (it has: A, B, C)"), "%s", r.err);
	result_free(&r);
	r = run("simt nonexistent.simt");
	cr_assert_eq(r.status, 1);
	cr_assert(strstr(r.err, "nonexistent.simt"), "%s", r.err);
	result_free(&r);
}

/* ---- translate: .thread kernels ---- */

/* The translated vecadd: the reference, C, and its bundles read back. */
Test(translate, vecadd_roundtrip)
{
	both b;
	both_file(&b, "vecadd_thread.simt");
	check_vecadd(&b);
	cr_assert_gt(simt_machine_stats(b.m)->copies, 0, "operands moved between arrays");
	/* --bundles text parses back to the same bundles */
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	fputs(".global A f32 2048\n.global B f32 2048\n.global C f32 2048\n", f);
	simt_format_kernel(f, &b.p, &b.p.k[0]);
	fputs(".launch vecadd 1 1\n", f);
	fclose(f);
	simt_program q;
	diag d;
	diag_clear(&d);
	cr_assert_eq(simt_parse("rt.simt", text, len, &q, &d), 0, "%s\n%s", d.msg, text);
	cr_assert_eq(q.k[0].n, b.p.k[0].n);
	for (size_t i = 0; i < q.k[0].n; i++) {
		cr_assert_eq(q.k[0].b[i].n, b.p.k[0].b[i].n, "bundle %zu", i);
		for (unsigned j = 0; j < q.k[0].b[i].n; j++) {
			simt_instr x = q.k[0].b[i].in[j], y = b.p.k[0].b[i].in[j];
			x.line = y.line = x.col = y.col = 0;
			cr_assert_eq(memcmp(&x, &y, sizeof x), 0, "bundle %zu slot %u", i, j);
		}
	}
	simt_program_free(&q);
	free(text);
	both_free(&b);
}

/* Independent chains land in different arrays of the same bundles. */
Test(translate, parallel_chains)
{
	const char *text =
		".global OUT u32 1024\n.thread k\n"
		"\tmov.u32 %t, %tid\n"
		"\tmov.u32 %a, 3\n\tmov.u32 %b, 5\n\tmov.u32 %c, 7\n\tmov.u32 %d, 11\n"
		"\tmul.lo.u32 %a, %a, %a\n\tmul.lo.u32 %b, %b, %b\n\tmul.lo.u32 %c, %c, %c\n\tmul.lo.u32 %d, %d, %d\n"
		"\tadd.u32 %a, %a, %b\n\tadd.u32 %c, %c, %d\n\tadd.u32 %a, %a, %c\n"
		"\tadd.u32 %a, %a, %t\n"
		"\tshl.b32 %t, %t, 2\n\tmov.u32 %o, OUT\n\tadd.u32 %o, %o, %t\n"
		"\tst.global.u32 [%o], %a\n.end\n.launch k 1 1024\n";
	both b;
	both_run(&b, text);
	const uint32_t *o = gmem(&b, "OUT", simt_machine_mem(b.m));
	for (unsigned t = 0; t < 1024; t++)
		cr_assert_eq(o[t], 9u + 25 + 49 + 121 + t);
	const simt_stats *s = simt_machine_stats(b.m);
	cr_assert_lt(s->compute_cycles, s->one_array_cycles, "VLIW %llu, one array %llu",
		     (unsigned long long)s->compute_cycles, (unsigned long long)s->one_array_cycles);
	both_free(&b);
}

/* List scheduling: two chains written one after the other; the second
 * is independent of the first, so its operations fill the bundles of
 * the first (no earlier than their operands allow), and the memory
 * operations keep their program order (a store, then a load of the same
 * word, then a store over it). */
Test(translate, hoists_independent_work)
{
	const char *text =
		".global OUT f32 2048\n.thread k\n"
		"\tmov.u32 %t, %tid\n"
		"\tcvt.f32.u32 %x, %t\n"
		"\tmul.f32 %x, %x, %x\n\tmul.f32 %x, %x, %x\n\tadd.f32 %x, %x, %x\n"
		"\tmov.u32 %y, 3\n\tcvt.f32.u32 %y, %y\n"
		"\tmul.f32 %y, %y, %y\n\tmul.f32 %y, %y, %y\n\tadd.f32 %y, %y, %y\n"
		"\tshl.b32 %t, %t, 2\n\tmov.u32 %o, OUT\n\tadd.u32 %o, %o, %t\n"
		"\tst.global.f32 [%o], %x\n"
		"\tld.global.f32 %z, [%o]\n"
		"\tadd.f32 %z, %z, %y\n"
		"\tst.global.f32 [%o], %z\n.end\n.launch k 1 1024\n";
	both b;
	both_run(&b, text);
	const uint32_t *o = gmem(&b, "OUT", simt_machine_mem(b.m));
	for (unsigned t = 0; t < 1024; t++) {
		float x = (float)t;
		x = x * x;
		x = x * x;
		x = x + x;
		cr_assert_eq(o[t], bits(x + 162.0f), "OUT[%u]", t);
	}
	/* 17 instructions: the y chain and the address run beside the x
	 * chain, so far fewer bundles than instructions */
	const simt_kernel *k = &b.p.k[0];
	size_t alu = 0;
	for (size_t i = 0; i < k->n; i++)
		alu += k->b[i].n > 1;
	cr_assert_lt(k->n, 14, "%zu bundles", k->n);
	cr_assert_gt(alu, 2, "%zu bundles hold more than one instruction", alu);
	both_free(&b);
}

/* Fig 13's baseline as its own translation: the same .thread program
 * translated one operation a bundle, run and checked against the
 * reference; it issues more bundles and more compute cycles than the
 * VLIW translation, and `infsim simt --fig13` prints both and the ratio. */
Test(translate, serial_mapping)
{
	char path[512];
	snprintf(path, sizeof path, "%s/samples/simt/hotspot.simt", SRCDIR);
	uint64_t cycles[2], bundles[2];
	for (int serial = 0; serial < 2; serial++) {
		both b;
		memset(&b, 0, sizeof b);
		cr_assert_eq(simt_load_file_mapped(path, serial, &b.p, &b.d), 0, "%s", b.d.msg);
		for (size_t k = 0; serial && k < b.p.nk; k++)
			for (size_t i = 0; i < b.p.k[k].n; i++)
				cr_assert_leq(b.p.k[k].b[i].n, 1, "bundle %zu holds %u", i, b.p.k[k].b[i].n);
		b.m = simt_machine_new(&b.p, &b.d);
		cr_assert_eq(simt_machine_run(b.m, &b.d), 0, "%s", b.d.msg);
		b.r = simt_ref_new(&b.p, &b.d);
		cr_assert_eq(simt_ref_run(b.r, &b.d), 0, "%s", b.d.msg);
		cr_assert_eq(simt_compare(b.m, b.r, &b.d), 0, "%s", b.d.msg);
		cycles[serial] = simt_machine_stats(b.m)->compute_cycles;
		bundles[serial] = simt_machine_stats(b.m)->bundles;
		both_free(&b);
	}
	cr_assert_gt(cycles[1], cycles[0]);
	cr_assert_gt(bundles[1], bundles[0]);
	result r = run("simt --fig13 " SRCDIR "/samples/simt/hotspot.simt");
	cr_assert_eq(r.status, 0, "%s", r.err);
	char want[128];
	snprintf(want, sizeof want, "  serial / vliw: %.2fx compute", (double)cycles[1] / (double)cycles[0]);
	cr_assert(strstr(r.out, want), "want '%s' in:\n%s", want, r.out);
	cr_assert(strstr(r.out, "both translations match the thread-at-a-time reference"), "%s", r.out);
	result_free(&r);
	r = run("simt --mapping=diagonal " SRCDIR "/samples/simt/hotspot.simt");
	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.err, "infsim: -m mapping=diagonal: expected vliw or serial"), "%s", r.err);
	result_free(&r);
}

Test(translate, errors)
{
	bad(".thread k\n\tbra x\n.end\n", "bad.simt:2:2: error: a .thread kernel is straight-line: no bra");
	bad(".thread k\n\tadd.u32 %a, %b, %c\n.end\n", "bad.simt:2:14: error: %b is read before anything writes it");
	bad(".thread k\n\tmov.u32 %a, %laneid\n.end\n", "bad.simt:2:14: error: %laneid is a special "
	    "register of PTX that DC-PTX does not have (it has %tid, %ntid, %ctaid and %nctaid)");
	bad(".thread k\n\tmov.u32 %a, %tid\n\tadd.u32 %b, %a, 5\n.end\n", "bad.simt:3:18: error: a "
	    "constant is not an operand here: DC-PTX takes constants only in mov");
	bad(".thread k\n\tmov.u32 %a, 1\n\tadd.u32 %a, %a, r1\n.end\n", "bad.simt:3:2: error: name every register");
	bad(".thread k\n\tmov.u32 %a, 1 ; mov.u32 %b, 2\n.end\n", "one instruction a line");
	bad(".thread k\nl:\n.end\n", "bad.simt:2:1: error: a .thread kernel is straight-line: no labels");
	bad(".thread k\n.end\n", "kernel 'k' has no instruction");
	bad(".thread k\n\tmov.u32 %a, 1\n\tsetp.eq.u32 p0, %a, %a\n\t@p0 mov.u32 %a, 2\n.end\n",
	    "bad.simt:4:14: error: a guarded instruction cannot redefine %a in a .thread kernel");
	/* one register an array cannot hold an add's two operands */
	bad(".machine regs=1\n.thread k\n\tmov.u32 %a, 1\n\tmov.u32 %b, 2\n\tadd.u32 %c, %a, %b\n.end\n.launch k 1 1\n",
	    "bad.simt:5:2: error: add cannot be placed: its operands and result need more registers in one array than the 1 it has (.machine regs=1)");
	bad(".machine regs=4\n", "bad.simt:1:15: error: regs (registers of an array the translator allocates) 4 out of range");
	bad(".thread k\n\tld.local.u32 %a, [0]\n.end\n.launch k 1 1\n",
	    "bad.simt:2:2: error: a .thread kernel has no local memory of its own");
	bad(K("\tld.local.u32 r0, [2]\n"), "bad.simt:2:20: error: local offset 2: expected a multiple of 4 from 0 to 1020");
	bad(K("\tst.local.u32 [1024], r0\n"), "bad.simt:2:16: error: local offset 1024");
	bad(K("\tld.local.u32 r0, [r1]\n"), "bad.simt:2:20: error: expected a byte offset in local memory");
	/* 270 values live at once: more than the 12 registers and the 256
	 * words of local memory hold */
	static char many[16384];
	size_t n = (size_t)snprintf(many, sizeof many, ".thread k\n");
	for (int i = 0; i < 270; i++)
		n += (size_t)snprintf(many + n, sizeof many - n, "\tmov.u32 %%v%d, %d\n", i, i);
	for (int i = 1; i < 270; i++)
		n += (size_t)snprintf(many + n, sizeof many - n, "\tadd.u32 %%v0, %%v0, %%v%d\n", i);
	snprintf(many + n, sizeof many - n, ".end\n.launch k 1 1\n");
	bad(many, "error: more than 256 values spilled at once: the local memory holds 1024 bytes a thread");
	bad(".machine cbs=64\n.global A u32 16000000\n" K("\tst.local.u32 [1020], r0\n"),
	    "error: the globals and the local memory of 64 CBs (256 words a thread) exceed");
}

/* ---- spilling (issue 18): more values live than registers ---- */

/* 13 values live at once, more than the 12 registers: the sum comes out
 * right, through spills and reloads, at every register limit. */
Test(translate, spills_thirteen)
{
	for (unsigned regs = 2; regs <= 3; regs++)
		for (unsigned serial = 0; serial < 2; serial++) {
			char text[4096];
			size_t n = (size_t)snprintf(text, sizeof text,
						    ".machine regs=%u mapping=%s\n.global OUT u32 64\n.thread k\n",
						    regs, serial ? "serial" : "vliw");
			n += (size_t)snprintf(text + n, sizeof text - n, "\tmov.u32 %%t, %%tid\n");
			for (int i = 0; i < 13; i++)
				n += (size_t)snprintf(text + n, sizeof text - n,
						      "\tmov.u32 %%c%d, %d\n\tmul.lo.u32 %%v%d, %%t, %%c%d\n", i, i + 1, i, i);
			for (int i = 1; i < 13; i++)
				n += (size_t)snprintf(text + n, sizeof text - n, "\tadd.u32 %%v0, %%v0, %%v%d\n", i);
			snprintf(text + n, sizeof text - n,
				 "\tshl.b32 %%t, %%t, 2\n\tmov.u32 %%o, OUT\n\tadd.u32 %%o, %%o, %%t\n"
				 "\tst.global.u32 [%%o], %%v0\n.end\n.launch k 1 64\n");
			both b;
			both_run(&b, text);
			const uint32_t *o = gmem(&b, "OUT", simt_machine_mem(b.m));
			for (unsigned t = 0; t < 64; t++)
				cr_assert_eq(o[t], t * 91u, "regs=%u serial=%u OUT[%u] = %u", regs, serial, t, o[t]);
			const simt_stats *st = simt_machine_stats(b.m);
			cr_assert_gt(st->spills, 0, "regs=%u serial=%u", regs, serial);
			cr_assert_gt(st->reloads, 0, "regs=%u serial=%u", regs, serial);
			both_free(&b);
		}
}

/* ld.local and st.local written by hand: each thread's word is its own
 * (the layout interleaves the threads), so 256 threads' stores of one
 * offset fill 16 lines; the machine, the reference and C agree. */
Test(translate, local_memory)
{
	const char *text =
		".machine cbs=2\n.global OUT u32 512\n.kernel k\n"
		"\tmov.u32 r0, %tid ; mov.u32 r3, 7\n"
		"\tmov.u32 r1, %ctaid\n"
		"\tmul.lo.u32 r2, r0, r0 ; st.local.u32 [8], r0\n"
		"\tst.local.u32 [1020], r2\n"
		"\tmov.u32 r2, 0 ; ld.local.u32 r4, [8]\n"
		"\tld.local.u32 r5, [1020]\n"
		"\tmul.lo.u32 r5, r5, r3\n"
		"\tadd.u32 r5, r5, r4\n"
		"\tmov.u32 r0, r5\n"
		"\tmov.u32 r2, %ntid\n"
		"\tmul.lo.u32 r1, r1, r2 ; mov.u32 r6, %tid\n"
		"\tmov.u32 r7, r1\n"
		"\tadd.u32 r6, r6, r7\n"
		"\tshl.b32 r6, r6, 2\n\tmov.u32 r8, OUT\n"
		"\tadd.u32 r6, r6, r8\n"
		"\tst.global.u32 [r6], r0\n"
		".end\n.launch k 2 256\n";
	both b;
	both_run(&b, text);
	const uint32_t *o = gmem(&b, "OUT", simt_machine_mem(b.m));
	for (unsigned g = 0; g < 512; g++) {
		unsigned t = g % 256;
		cr_assert_eq(o[g], t * t * 7 + t, "OUT[%u] = %u", g, o[g]);
	}
	const simt_stats *st = simt_machine_stats(b.m);
	/* 2 CTAs on 2 CBs: one a CB */
	cr_assert_eq(st->spills, 2 * 2);
	cr_assert_eq(st->reloads, 2 * 2);
	/* 4 local operations of 256 threads a CTA, 16 lines each; the
	 * store of 512 words, 32 lines */
	cr_assert_eq(st->mem_lines, 2 * 4 * 16 + 2 * 16, "%llu lines", (unsigned long long)st->mem_lines);
	both_free(&b);
}

/* samples/simt/spill.simt with `.machine` extended by extra, parsed
 * with the given mapping, run on both and checked against plain C. */
static void spill_case(const char *extra, int mapping, simt_stats *out)
{
	char path[512];
	snprintf(path, sizeof path, "%s/samples/simt/spill.simt", SRCDIR);
	FILE *f = fopen(path, "r");
	cr_assert_not_null(f);
	static char text[1 << 16], edited[1 << 16];
	size_t len = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[len] = 0;
	char *at = strstr(text, ".machine cbs=2 fp=ieee");
	cr_assert_not_null(at);
	at += strlen(".machine cbs=2 fp=ieee");
	snprintf(edited, sizeof edited, "%.*s %s%s", (int)(at - text), text, extra, at);
	const char *map = mapping == SIMT_MAP_SERIAL ? " mapping=serial" : "";
	char *e = strstr(edited, "fp=ieee");
	memmove(e + 7 + strlen(map), e + 7, strlen(e + 7) + 1);
	memcpy(e + 7, map, strlen(map));
	both b;
	both_run(&b, edited);
	enum { K = 20, T = 512 };
	const uint32_t *A = gmem(&b, "A", b.p.init), *B = gmem(&b, "B", b.p.init);
	const uint32_t *mem = simt_machine_mem(b.m);
	const uint32_t *F = gmem(&b, "F", mem), *G = gmem(&b, "G", mem);
	const uint32_t *I = gmem(&b, "I", mem), *J = gmem(&b, "J", mem);
	for (unsigned g = 0; g < T; g++) {
		float x[K];
		uint32_t n[K];
		for (unsigned k = 0; k < K; k++)
			x[k] = f32(A[k * T + g]), n[k] = B[k * T + g];
		float fs = x[0] * x[K - 1];
		for (unsigned k = 1; k < K / 2; k++)
			fs = fs + x[k] * x[K - 1 - k];
		float h = x[19] - x[18];
		for (int k = K - 3; k > 0; k -= 2) {
			h = h * 0.5f;
			h = h + x[k];
			h = h - x[k - 1];
		}
		uint32_t iv = 0, jv = 0;
		for (unsigned k = 0; k < K; k++)
			iv ^= n[k] * (2 * k + 1);
		for (unsigned k = 0; k < K; k++)
			jv = jv + (n[K - 1 - k] >> (k % 7)) - n[k];
		cr_assert_eq(F[g], bits(fs), "%s F[%u]", extra, g);
		cr_assert_eq(G[g], bits(h), "%s G[%u]", extra, g);
		cr_assert_eq(I[g], iv, "%s I[%u]", extra, g);
		cr_assert_eq(J[g], jv, "%s J[%u]", extra, g);
	}
	*out = *simt_machine_stats(b.m);
	both_free(&b);
}

/* ---- random straight-line programs with many live values ---- */

enum { RP_NI = 14, RP_NF = 14, RP_OPS = 70, RP_OUT = 10, RP_T = 32 };

typedef struct rprog {
	char text[16384];
	/* each value: its type (1: f32) and, per thread, its bits */
	bool fp[RP_NI + RP_NF + RP_OPS];
	uint32_t v[RP_NI + RP_NF + RP_OPS][RP_T];
	unsigned n;
	unsigned out[RP_OUT];
} rprog;

static uint32_t canon(float f)
{
	return isnan(f) ? 0x7fc00000u : bits(f);
}

/* One operation on two values of one type, written and computed in C. */
static void rp_op(rprog *r, size_t *len, unsigned a, unsigned b)
{
	static const char *const iop[] = { "add", "sub", "xor", "and", "or", "mul.lo" };
	static const char *const fop[] = { "add", "sub", "mul" };
	bool fp = r->fp[a];
	unsigned k = fp ? rnd() % 3 : rnd() % 6, d = r->n++;
	r->fp[d] = fp;
	*len += (size_t)snprintf(r->text + *len, sizeof r->text - *len, "\t%s.%s %%v%u, %%v%u, %%v%u\n",
				 fp ? fop[k] : iop[k], fp ? "f32" : "u32", d, a, b);
	for (unsigned t = 0; t < RP_T; t++) {
		uint32_t x = r->v[a][t], y = r->v[b][t];
		float fx = f32(x), fy = f32(y);
		r->v[d][t] = fp ? canon(k == 0 ? fx + fy : k == 1 ? fx - fy : fx * fy)
			: k == 0 ? x + y : k == 1 ? x - y : k == 2 ? x ^ y : k == 3 ? x & y
			: k == 4 ? x | y : x * y;
	}
}

/* A program loading RP_NI integers and RP_NF floats a thread, then
 * RP_OPS operations on values picked anywhere among those defined (so
 * many stay live), then RP_OUT of them stored; its C results beside. */
static void rp_make(rprog *r, const uint32_t *iu, const uint32_t *ff, const char *machine)
{
	size_t n = (size_t)snprintf(r->text, sizeof r->text,
		".machine cbs=1 fp=ieee %s\n.global IU u32 %d rand 21\n.global IF f32 %d rand 22 4\n"
		".global OUT u32 %d\n.thread k\n\tmov.u32 %%t, %%tid\n\tshl.b32 %%t4, %%t, 2\n"
		"\tmov.u32 %%a, IU\n\tadd.u32 %%a, %%a, %%t4\n\tmov.u32 %%f, IF\n\tadd.u32 %%f, %%f, %%t4\n"
		"\tmov.u32 %%s, %d\n", machine, RP_NI * RP_T, RP_NF * RP_T, RP_OUT * RP_T, RP_T * 4);
	r->n = 0;
	for (unsigned i = 0; i < RP_NI + RP_NF; i++) {
		bool fp = i >= RP_NI;
		unsigned d = r->n++;
		r->fp[d] = fp;
		n += (size_t)snprintf(r->text + n, sizeof r->text - n,
				      "\tld.global.%s %%v%u, [%%%c]\n\tadd.u32 %%%c, %%%c, %%s\n",
				      fp ? "f32" : "u32", d, fp ? 'f' : 'a', fp ? 'f' : 'a', fp ? 'f' : 'a');
		for (unsigned t = 0; t < RP_T; t++)
			r->v[d][t] = fp ? ff[(i - RP_NI) * RP_T + t] : iu[i * RP_T + t];
	}
	for (unsigned i = 0; i < RP_OPS; i++) {
		unsigned a = rnd() % r->n, b;
		do
			b = rnd() % r->n;
		while (r->fp[b] != r->fp[a]);
		rp_op(r, &n, a, b);
	}
	n += (size_t)snprintf(r->text + n, sizeof r->text - n, "\tmov.u32 %%o, OUT\n\tadd.u32 %%o, %%o, %%t4\n");
	for (unsigned i = 0; i < RP_OUT; i++) {
		r->out[i] = rnd() % r->n;
		n += (size_t)snprintf(r->text + n, sizeof r->text - n,
				      "\tst.global.u32 [%%o], %%v%u\n\tadd.u32 %%o, %%o, %%s\n", r->out[i]);
	}
	snprintf(r->text + n, sizeof r->text - n, ".end\n.launch k 1 %d\n", RP_T);
}

/* Random programs of up to 98 values, at 12, 8 (VLIW), 3 and 2
 * registers (one array), each against the reference and against the
 * same operations computed in C: a wrong spill or reload gives a wrong
 * word. */
Test(translate, spill_random, .timeout = 600)
{
	static const char *const machine[] = { "regs=3", "regs=2", "mapping=serial regs=3",
					       "mapping=serial regs=2" };
	static rprog r;
	uint64_t spills = 0;
	for (unsigned prog = 0; prog < 3; prog++)
		for (unsigned m = 0; m < 4; m++) {
			static const uint32_t zero[RP_NI * RP_T + RP_NF * RP_T];
			uint64_t keep = rng_state;
			/* the text first, to read its inputs (its initialisers) back */
			both b;
			rng_state = 1000 + prog;
			rp_make(&r, zero, zero, machine[m]);
			simt_program q;
			diag d;
			diag_clear(&d);
			cr_assert_eq(simt_parse("r.simt", r.text, strlen(r.text), &q, &d), 0, "%s", d.msg);
			const uint32_t *iu = q.init + simt_global_find(&q, "IU")->addr / 4;
			const uint32_t *ff = q.init + simt_global_find(&q, "IF")->addr / 4;
			rng_state = 1000 + prog;
			rp_make(&r, iu, ff, machine[m]);
			simt_program_free(&q);
			both_run(&b, r.text);
			const uint32_t *o = gmem(&b, "OUT", simt_machine_mem(b.m));
			for (unsigned i = 0; i < RP_OUT; i++)
				for (unsigned t = 0; t < RP_T; t++)
					cr_assert_eq(o[i * RP_T + t], r.v[r.out[i]][t],
						     "program %u, %s: OUT[%u] thread %u: 0x%08x, C 0x%08x\n%s", prog,
						     machine[m], i, t, o[i * RP_T + t], r.v[r.out[i]][t], r.text);
			spills += simt_machine_stats(b.m)->spills;
			both_free(&b);
			rng_state = keep;
		}
	cr_assert_gt(spills, 0);
}

/* 40 values live at once, int and f32: bit-exact at 12, 8 registers
 * (VLIW) and at 3 and 2 (one array), the fewer registers the more
 * spills; the machine counts what the bundles hold. */
Test(translate, spill_sample, .timeout = 600)
{
	simt_stats v3, v2, s3, s2;
	spill_case("regs=3", SIMT_MAP_FILE, &v3);
	spill_case("regs=2", SIMT_MAP_FILE, &v2);
	spill_case("regs=3", SIMT_MAP_SERIAL, &s3);
	spill_case("regs=2", SIMT_MAP_SERIAL, &s2);
	cr_assert_gt(v3.spills, 0);
	cr_assert_gt(v2.spills, v3.spills, "%llu, %llu", (unsigned long long)v2.spills, (unsigned long long)v3.spills);
	cr_assert_gt(s3.spills, v3.spills);
	cr_assert_gt(s2.spills, s3.spills);
	cr_assert_geq(v3.reloads, 1);
	cr_assert_eq(s2.copies, 0, "one array: no copies");
}

/* ---- work: the .thread workloads against plain C ---- */

Test(work, hotspot)
{
	both b;
	both_file(&b, "hotspot.simt");
	enum { N = 16, P2 = 18 };
	float T[P2 * P2], U[P2 * P2];
	const uint32_t *T0 = gmem(&b, "T", b.p.init), *P = gmem(&b, "P", b.p.init);
	for (int i = 0; i < P2 * P2; i++)
		T[i] = U[i] = f32(T0[i]);
	for (int step = 0; step < 2; step++) {
		float *src = step ? U : T, *dst = step ? T : U;
		for (int i = 0; i < N; i++)
			for (int j = 0; j < N; j++) {
				int a = (i + 1) * P2 + j + 1;
				volatile float c = src[a], d = c + c;
				volatile float t1 = src[a - P2] + src[a + P2];
				t1 = t1 - d;
				t1 = t1 * 0.125f;
				volatile float t2 = src[a + 1] + src[a - 1];
				t2 = t2 - d;
				t2 = t2 * 0.25f;
				volatile float t3 = 80.0f - c;
				t3 = t3 * 0.0625f;
				volatile float acc = f32(P[i * N + j]) + t1;
				acc = acc + t2;
				acc = acc + t3;
				acc = acc * 0.5f;
				dst[a] = c + acc;
			}
	}
	const uint32_t *TM = gmem(&b, "T", simt_machine_mem(b.m));
	for (int i = 0; i < P2 * P2; i++)
		cr_assert_eq(TM[i], bits(T[i]), "T[%d]", i);
	both_free(&b);
}

static void elimination_c(float *A, float *M, float *B, const float *D, bool lud)
{
	enum { N = 16 };
	for (int i = 0; i < N; i++)
		A[i * N + i] = A[i * N + i] + D[i];
	for (int k = 0; k < N - 1; k++) {
		float *X = lud ? A : M;
		for (int i = k + 1; i < N; i++)
			X[i * N + k] = A[i * N + k] / A[k * N + k];
		for (int i = k + 1; i < N; i++)
			for (int j = lud ? k + 1 : 0; j < N; j++) {
				volatile float p = X[i * N + k] * A[k * N + j];
				A[i * N + j] = A[i * N + j] - p;
			}
		for (int i = k + 1; !lud && i < N; i++) {
			volatile float p = M[i * N + k] * B[k];
			B[i] = B[i] - p;
		}
	}
}

static void elimination_case(const char *file, bool lud)
{
	both b;
	both_file(&b, file);
	enum { N = 16 };
	float A[N * N], M[N * N] = { 0 }, B[N] = { 0 }, D[N];
	for (int i = 0; i < N * N; i++)
		A[i] = f32(gmem(&b, "A", b.p.init)[i]);
	for (int i = 0; i < N; i++) {
		D[i] = f32(gmem(&b, "D", b.p.init)[i]);
		if (!lud)
			B[i] = f32(gmem(&b, "B", b.p.init)[i]);
	}
	elimination_c(A, M, B, D, lud);
	const uint32_t *out = simt_machine_mem(b.m);
	for (int i = 0; i < N * N; i++)
		cr_assert_eq(gmem(&b, "A", out)[i], bits(A[i]), "%s A[%d]", file, i);
	for (int i = 0; !lud && i < N; i++)
		cr_assert_eq(gmem(&b, "B", out)[i], bits(B[i]), "B[%d]", i);
	for (int i = 0; !lud && i < N * N; i++)
		cr_assert_eq(gmem(&b, "M", out)[i], bits(M[i]), "M[%d]", i);
	both_free(&b);
}

Test(work, gaussian) { elimination_case("gaussian.simt", false); }
Test(work, lud) { elimination_case("lud.simt", true); }

Test(work, nw)
{
	both b;
	both_file(&b, "nw.simt");
	enum { N = 32, R = N + 1 };
	int F[R * R];
	const uint32_t *S = gmem(&b, "S", b.p.init), *F0 = gmem(&b, "F", b.p.init);
	for (int i = 0; i < R * R; i++)
		F[i] = (int32_t)F0[i];
	for (int i = 1; i <= N; i++)
		for (int j = 1; j <= N; j++) {
			int d = F[(i - 1) * R + j - 1] + (int32_t)S[i * R + j] - 4;
			int u = F[(i - 1) * R + j] - 10, l = F[i * R + j - 1] - 10;
			int m = d > u ? d : u;
			F[i * R + j] = m > l ? m : l;
		}
	const uint32_t *FM = gmem(&b, "F", simt_machine_mem(b.m));
	for (int i = 0; i < R * R; i++)
		cr_assert_eq((int32_t)FM[i], F[i], "F[%d]", i);
	both_free(&b);
}

Test(work, backprop)
{
	both b;
	both_file(&b, "backprop.simt");
	const uint32_t *X = gmem(&b, "X", b.p.init), *W = gmem(&b, "W", b.p.init);
	const uint32_t *H = gmem(&b, "H", simt_machine_mem(b.m));
	for (int j = 0; j < 256; j++) {
		volatile float acc = 0;
		for (int i = 0; i < 16; i++) {
			volatile float p = f32(W[i * 256 + j]) * f32(X[i]);
			acc = p + acc;
		}
		cr_assert_eq(H[j], bits(acc), "H[%d]", j);
	}
	both_free(&b);
}

/* ---- infsdb: a bundle at a time, a thread's registers, the divergence ---- */

/* The one console on a DC-PTX program: the batch transcript
 * tests/dbg/simt_div.cmds (its whole output is test_dbg's), seen as a
 * user's shell sees it: a breakpoint at a line, the divergence, the
 * current thread and its registers, stepi; then a register that does
 * not exist, on standard error. */
Test(cli, infsdb)
{
	result r = proc_run_in(tmpdir, INFSDB_BIN, "-batch -nx -x " SRCDIR
			       "/tests/dbg/simt_div.cmds " SRCDIR "/tests/dbg/simt_div.simt");
	cr_assert_eq(r.status, 1, "%s%s", r.out, r.err);
	const char *want[] = {
		"Breakpoint 1 at simt_div.simt:7\n",
		"Breakpoint 1, bundle 5: k pc 5: mov.u32 r1, 0xc8 (CTA 0 on CB 0, 4 threads) at ",
		"slot0  0 2 4 6 (4 threads)\n",
		"here   0 2 4 6 (4 threads)\nwaiting at pc 6: 1 3 5 7 (4 threads)\n",
		"thread 3 (TB 0, bitline 3) of CTA 0: waiting, at pc 6\n"
		"  r0  0x00000003  r1  0x00000064",
		"$1 = 100\n$2 = 1\n$3 = 100\n$4 = 100\n",
		"bundle 6: k pc 6: add.u32 r1, r1, r1 (CTA 0 on CB 0, 8 threads) at ",
		"$5 = 200\n",
		"The program ended after 7 bundles (1 launch), cycle 225.\n",
	};
	const char *at = r.out;
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		const char *hit = strstr(at, want[i]);
		cr_assert_not_null(hit, "missing, in order: %s\n--- output:\n%s", want[i], r.out);
		at = hit + strlen(want[i]);
	}
	cr_assert_str_eq(r.err, "No symbol \"r99\" in current context.\n");
	result_free(&r);
	/* -D names a parameter, which a DC-PTX program has none of: refused,
	 * saying why (the old console read "N=64" as a file name) */
	r = proc_run_in(tmpdir, INFSDB_BIN, "-batch -ex run -D N=64 " SRCDIR "/tests/dbg/simt_div.simt");
	cr_assert_eq(r.status, 2, "%s", r.err);
	cr_assert(strstr(r.err, "do not take -D: DC-PTX programs have no parameters\n"), "%s", r.err);
	result_free(&r);
}

/* The cycles' bound (the machine's: the reference has no cycles): a
 * loop of f32 divisions, few bundles but many cycles, stops at the line
 * of the bundle it was issuing, naming the bound to raise; 0 is not a
 * bound. */
Test(simt, runaway_cycles)
{
	const char text[] = ".machine max_cycles=100000\n.kernel k\n\tmov.u32 r0, 3\nl:\n"
			    "\tdiv.f32 r1, r0, r0\n\tbra l\n.end\n.launch k 1 4\n";
	simt_program p;
	diag d;
	diag_clear(&d);
	cr_assert_eq(simt_parse("rt.simt", text, strlen(text), &p, &d), 0, "%s", d.msg);
	simt_machine *m = simt_machine_new(&p, &d);
	cr_assert_not_null(m);
	cr_assert_lt(simt_machine_run(m, &d), 0);
	cr_assert_str_eq(d.msg, "rt.simt:6: error: kernel 'k': CTA 0 did not end within 100000 "
			 "cycles (a runaway loop? it was issuing bundle 2; raise the bound with "
			 ".machine max_cycles=N)");
	simt_machine_free(m);
	simt_program_free(&p);
	diag_clear(&d);
	cr_assert_lt(simt_parse("rt.simt", ".machine max_cycles=0\n", 22, &p, &d), 0);
	cr_assert(strstr(d.msg, "rt.simt:1:"), "%s", d.msg);
}

/* ---- pack: several CTAs a control block (doc/SIMT.md, "The machine") ---- */

/* Four CTAs of 256 on the one CB (cbs=1): every thread stores its
 * %ctaid, %tid, the value of its down-neighbour (shfl.down by 1), of lane
 * 300 (outside a CTA of 256) and of its CTA's lane 0.  A CTA's last
 * thread reads its own value, not the next CTA's thread 0 on the next
 * bitline; lane 300 is its own too, and lane 0 its own CTA's.  One CB run
 * holds them all, every bitline busy; the registers of all four CTAs are
 * the reference's at the end. */
static const char pack_prog[] =
	".machine cbs=1%s\n"
	".global OUT u32 5120\n"
	".thread k\n"
	"\tmov.u32 %%t, %%tid\n"
	"\tmov.u32 %%c, %%ctaid\n"
	"\tmov.u32 %%n, %%ntid\n"
	"\tmov.u32 %%k, 1000\n"
	"\tmul.lo.u32 %%v0, %%c, %%k\n"
	"\tadd.u32 %%v, %%v0, %%t\n"                 /* ctaid * 1000 + tid */
	"\tshfl.down.b32 %%dn, %%v, 1\n"
	"\tshfl.idx.b32 %%far, %%v, 300\n"
	"\tshfl.idx.b32 %%l0, %%v, 0\n"
	"\tmul.lo.u32 %%g0, %%c, %%n\n"
	"\tadd.u32 %%g, %%g0, %%t\n"                 /* global id */
	"\tmov.u32 %%five, 20\n"
	"\tmul.lo.u32 %%o, %%g, %%five\n"
	"\tmov.u32 %%base, OUT\n"
	"\tadd.u32 %%a0, %%base, %%o\n"
	"\tst.global.u32 [%%a0], %%c\n"
	"\tmov.u32 %%four, 4\n"
	"\tadd.u32 %%a1, %%a0, %%four\n"
	"\tst.global.u32 [%%a1], %%t\n"
	"\tadd.u32 %%a2, %%a1, %%four\n"
	"\tst.global.u32 [%%a2], %%dn\n"
	"\tadd.u32 %%a3, %%a2, %%four\n"
	"\tst.global.u32 [%%a3], %%far\n"
	"\tadd.u32 %%a4, %%a3, %%four\n"
	"\tst.global.u32 [%%a4], %%l0\n"
	".end\n"
	".launch k 4 256\n";

static void pack_run(both *b, const char *machine)
{
	char text[4096];
	snprintf(text, sizeof text, pack_prog, machine);
	both_run(b, text);
}

Test(pack, four_ctas_one_cb)
{
	for (int one = 0; one < 2; one++) {
		both b;
		pack_run(&b, one ? " ctas_per_cb=1" : "");
		const uint32_t *o = gmem(&b, "OUT", simt_machine_mem(b.m));
		for (unsigned g = 0; g < 1024; g++) {
			unsigned c = g / 256, t = g % 256, v = c * 1000 + t;
			cr_assert_eq(o[5 * g], c, "%%ctaid of thread %u: %u", g, o[5 * g]);
			cr_assert_eq(o[5 * g + 1], t, "%%tid of thread %u: %u", g, o[5 * g + 1]);
			cr_assert_eq(o[5 * g + 2], t == 255 ? v : v + 1, "shfl.down of CTA %u thread %u: %u", c, t, o[5 * g + 2]);
			cr_assert_eq(o[5 * g + 3], v, "lane 300 of CTA %u thread %u: %u", c, t, o[5 * g + 3]);
			cr_assert_eq(o[5 * g + 4], c * 1000, "lane 0 of CTA %u thread %u: %u", c, t, o[5 * g + 4]);
		}
		const simt_stats *st = simt_machine_stats(b.m);
		cr_assert_eq(st->cb_runs, 4);
		cr_assert_eq(st->cb_groups, one ? 4u : 1u, "%llu CB runs", (unsigned long long)st->cb_groups);
		if (!one)
			cr_assert_eq(st->thread_slots, st->lane_slots, "every bitline busy");
		/* the CB holds CTA 3 (one a CB) or all four (packed) at the end */
		uint32_t v;
		cr_assert_eq(simt_machine_reg(b.m, 3, 255, 5, &v), 0);
			cr_assert_eq(simt_machine_reg(b.m, 0, 7, 5, &v), one ? -1 : 0);
		both_free(&b);
	}
}

/* 64 CTAs of 32 threads on 4 CBs: packed, 16 CTAs a CB (32 fit, but 16
 * give each CB some), one CB run each; with ctas_per_cb=1 every CB runs
 * 16 CTAs one after another.  The same memory; the packed run issues 16
 * times fewer bundles and its critical path is several times shorter. */
Test(pack, fewer_cycles)
{
	static const char prog[] =
		".machine%s\n.global A f32 2048 rand 3\n.global B f32 2048 rand 4\n.global C f32 2048\n"
		".thread k\n"
		"\tmov.u32 %%c, %%ctaid\n\tmov.u32 %%n, %%ntid\n\tmov.u32 %%t, %%tid\n"
		"\tmul.lo.u32 %%g0, %%c, %%n\n\tadd.u32 %%g, %%g0, %%t\n\tshl.b32 %%o, %%g, 2\n"
		"\tmov.u32 %%pa, A\n\tadd.u32 %%aa, %%pa, %%o\n\tld.global.f32 %%x, [%%aa]\n"
		"\tmov.u32 %%pb, B\n\tadd.u32 %%ab, %%pb, %%o\n\tld.global.f32 %%y, [%%ab]\n"
		"\tmul.f32 %%z, %%x, %%y\n"
		"\tmov.u32 %%pc, C\n\tadd.u32 %%ac, %%pc, %%o\n\tst.global.f32 [%%ac], %%z\n"
		".end\n.launch k 64 32\n";
	char text[2048];
	both packed, one;
	snprintf(text, sizeof text, prog, "");
	both_run(&packed, text);
	snprintf(text, sizeof text, prog, " ctas_per_cb=1");
	both_run(&one, text);
	const simt_global *c = simt_global_find(&packed.p, "C");
	cr_assert(!memcmp(simt_machine_mem(packed.m) + c->addr / 4, simt_machine_mem(one.m) + c->addr / 4,
			  c->count * 4), "the packings store different C");
	const simt_stats *p = simt_machine_stats(packed.m), *s = simt_machine_stats(one.m);
	cr_assert_eq(p->cb_groups, 4);
	cr_assert_eq(s->cb_groups, 64);
	cr_assert_eq(s->bundles, 16 * p->bundles, "%llu and %llu bundles", (unsigned long long)s->bundles,
		     (unsigned long long)p->bundles);
	cr_assert_lt(4 * p->critical_path, s->critical_path, "critical path %llu packed, %llu one a CB",
		     (unsigned long long)p->critical_path, (unsigned long long)s->critical_path);
	cr_assert_lt(8 * p->compute_cycles, s->compute_cycles);
	/* utilisation: 32 of 1024 lanes one a CB, 512 packed */
	cr_assert_eq(32 * s->thread_slots, s->lane_slots);
	cr_assert_eq(2 * p->thread_slots, p->lane_slots);
	both_free(&packed);
	both_free(&one);
}

TestSuite(pack_cli, .init = make_tmpdir, .fini = remove_tmpdir);

/* -m ctas_per_cb=N overrides the .machine line; a bad value is one message. */
Test(pack_cli, option)
{
	result r = run("run " SRCDIR "/samples/simt/vecadd.simt --check -m ctas_per_cb=1");
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "104 bundles, 160 instructions, 8 CTA runs"), "%s", r.out);
	result_free(&r);
	r = run("run " SRCDIR "/samples/simt/vecadd.simt --check");
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "52 bundles, 80 instructions, 8 CTA runs"), "%s", r.out);
	result_free(&r);
	static const char *const badv[] = { "0", "1025", "two", "4x" };
	for (size_t i = 0; i < sizeof badv / sizeof *badv; i++) {
		r = run("run " SRCDIR "/samples/simt/vecadd.simt -m ctas_per_cb=%s", badv[i]);
		char want[128];
		snprintf(want, sizeof want, "infsim: -m ctas_per_cb=%s: expected 1 to 1024", badv[i]);
		cr_assert_eq(r.status, 2, "%s", r.err);
		cr_assert(!strncmp(r.err, want, strlen(want)), "got '%s', want '%s'", r.err, want);
		cr_assert_eq(strstr(r.err, "error") ? 1 : 0, 0, "%s", r.err);
		result_free(&r);
	}
}

/* Four CTAs of 256 on the one CB, written as bundles: each thread stores
 * v = ctaid * 1000 + tid to its CTA's shared s[tid], waits at bar.sync,
 * reads s[255 - tid] and shuffles v down by one and from lane 300.  The
 * four windows and barriers are each CTA's own: another CTA's window or
 * a barrier that let a CTA on before its own threads had stored would
 * give other numbers; both packings, against the reference and C. */
static const char pack_bar[] =
	".machine cbs=1 shared=1024%s\n"
	".global OUT u32 4096\n"
	".kernel k\n"
	"\tmov.u32 r0, %%tid ; mov.u32 r3, %%ctaid ; mov.u32 r6, 1000\n"
	"\tmov.u32 r7, r3\n"
	"\tmul.lo.u32 r7, r7, r6 ; mov.u32 r4, r0\n"       /* r7 = ctaid * 1000 */
	"\tmov.u32 r8, r0\n"
	"\tadd.u32 r8, r8, r7 ; mov.u32 r10, r0\n"        /* r8 = v */
	"\tshl.b32 r10, r10, 2\n"                          /* r10 = 4 tid */
	"\tst.shared.u32 [r10], r8\n"
	"\tbar.sync\n"
	"\tmov.u32 r11, 1020\n"
	"\tsub.u32 r11, r11, r10\n"                        /* 4 (255 - tid) */
	"\tld.shared.u32 r5, [r11]\n"
	"\tshfl.down.b32 r1, r8, 1\n"
	"\tshfl.idx.b32 r2, r8, 300\n"
	"\tshl.b32 r3, r3, 8\n"
	"\tadd.u32 r3, r3, r4\n"
	"\tshl.b32 r3, r3, 4 ; mov.u32 r6, OUT\n"
	"\tmov.u32 r4, r6\n"
	"\tadd.u32 r3, r3, r4\n"                           /* &OUT[4 global id] */
	"\tst.global.u32 [r3], r5 ; mov.u32 r4, 4\n"
	"\tadd.u32 r3, r3, r4\n"
	"\tst.global.u32 [r3], r1\n"
	"\tadd.u32 r3, r3, r4\n"
	"\tst.global.u32 [r3], r2\n"
	"\tadd.u32 r3, r3, r4\n"
	"\tst.global.u32 [r3], r7\n"
	".end\n"
	".launch k 4 256\n";

Test(pack, shared_barrier_shuffle)
{
	for (int one = 0; one < 2; one++) {
		both b;
		char text[4096];
		snprintf(text, sizeof text, pack_bar, one ? " ctas_per_cb=1" : "");
		both_run(&b, text);
		const uint32_t *o = gmem(&b, "OUT", simt_machine_mem(b.m));
		for (unsigned g = 0; g < 1024; g++) {
			unsigned c = g / 256, t = g % 256, v = c * 1000 + t;
			cr_assert_eq(o[4 * g], c * 1000 + 255 - t, "s[255 - tid] of CTA %u thread %u: %u", c, t, o[4 * g]);
			cr_assert_eq(o[4 * g + 1], t == 255 ? v : v + 1, "shfl.down of CTA %u thread %u: %u", c, t, o[4 * g + 1]);
			cr_assert_eq(o[4 * g + 2], v, "lane 300 of CTA %u thread %u: %u", c, t, o[4 * g + 2]);
			cr_assert_eq(o[4 * g + 3], c * 1000, "%%ctaid of CTA %u thread %u: %u", c, t, o[4 * g + 3]);
		}
		cr_assert_eq(simt_machine_stats(b.m)->cb_groups, one ? 4u : 1u);
		both_free(&b);
	}
}

/* A barrier split in CTA 1 alone (its threads below 10 at another
 * bar.sync) is refused naming CTA 1 by the machine, where the other three
 * CTAs on the CB pass theirs, and by the reference; bad shared windows
 * and addresses are located. */
Test(pack, barrier_errors)
{
	static const char split[] =
		".machine cbs=1\n.kernel k\n"
		"\tmov.u32 r0, %tid ; mov.u32 r3, %ctaid ; mov.u32 r6, 1 ; mov.u32 r9, 10\n"
		"\tmov.u32 r1, r3 ; mov.u32 r4, r0\n"
		"\tmov.u32 r2, 1 ; mov.u32 r5, 10\n"
		"\tsetp.eq.u32 p0, r1, r2 ; setp.lt.u32 p1, r4, r5\n"
		"\t@!p0 bra A\n"
		"\t@p1 bra B\n"
		"A:\n\tbar.sync\n\texit\n"
		"B:\n\tbar.sync\n\texit\n"
		".end\n.launch k 4 256\n";
	runtime_bad(split, "rt.simt:13:2: error: kernel 'k': CTA 1: every running thread waits at a bar.sync, "
		    "but not at the same one (thread 0 waits here)");
	runtime_bad(".machine shared=64\n.kernel k\n\tmov.u32 r0, 64\n\tld.shared.u32 r1, [r0]\n.end\n.launch k 2 4\n",
		    "rt.simt:4:2: error: kernel 'k': thread 0 of CTA 0 loads from shared address 0x40, outside the CTA's shared memory (it holds 64 bytes)");
	bad(".kernel k\n\tld.shared.u32 r1, [r0]\n.end\n.launch k 1 1\n",
	    "bad.simt:2:2: error: ld.shared needs a shared window: .machine shared=BYTES");
	bad(".machine shared=6\n", "bad.simt:1:17: error: shared=6: a multiple of 4 bytes");
	bad(".machine shared=70000\n", "bad.simt:1:17: error: shared (bytes of a CTA's shared window) 70000 out of range");
	bad(".kernel k\n\t@p0 bar.sync\n.end\n.launch k 1 1\n", "bad.simt:2:2: error: bar.sync takes no guard");
	bad(".kernel k\n\tbar.wait\n.end\n.launch k 1 1\n", "bad.simt:2:2: error: expected bar.sync");
	bad(".machine shared=16\n.thread k\n\tbar.sync\n.end\n.launch k 1 1\n",
	    "bad.simt:3:2: error: bar.sync and shared memory are written as bundles");
}
