/* SPDX-License-Identifier: MIT */
/*
 * test_fpmul.c: floating-point mul, madd (isa/fpmul.c), fused fma
 * (isa/fma.c) and div (isa/fpdiv.c) on every format and both modes, bit for bit against the
 * reference (isa_ref_fp) and the host FPU (fp_host.h), over every class
 * of operand (fp_cases.h); run whole, stepped, and through a controller
 * (the data-dependent latency), which must give the baseline's bits, in
 * fewer cycles where the data allows; the baseline cycle formulas pinned;
 * operands in place; commands refused.
 */
#include <criterion/criterion.h>

#include <inttypes.h>
#include <stdio.h>

#include "fp_cases.h"
#include "family.h"
#include "fp_host.h"
#include "isa_harness.h"

#define ROWS 512 /* wordlines: a, b, d, c and the scratch */
#define BLS 64   /* bitlines per array; the harness has 2 arrays */
#define COUNT (2 * BLS)

static const unsigned fmts[] = {ISA_FMT_F32, ISA_FMT_F16, ISA_FMT_BF16};
static const unsigned ops[] = {ISA_FMUL, ISA_FMADD, ISA_FMA, ISA_FDIV};
#define NFMTS (sizeof fmts / sizeof fmts[0])
#define NOPS (sizeof ops / sizeof ops[0])
#define NCMDS (NOPS * NFMTS * 2) /* every op, format and mode */

/* The controller's extra searches when they save nothing: the first row
 * of each trailing-zero search (two for div), the two subnormal questions,
 * and the packer's denormalisation question. */
#define CTL_SLACK 5

/* fma's: c's subnormal question, and the search bounding the exponent
 * difference (one row per bit of its e + 3). */
static unsigned ctl_slack(const isa_cmd *c)
{
	return c->op == ISA_FMA ? CTL_SLACK + 1 + isa_fpfmt_of(c->fmt)->ebits + 3
				: CTL_SLACK;
}

static isa_cmd fp_cmd(harness *h, unsigned op, unsigned fmt, unsigned flags)
{
	isa_cmd c = harness_cmd_fmt(h, op, fmt, isa_fpfmt_of(fmt)->width, true);
	c.flags = (uint8_t)flags;
	return c;
}

/* Command i of the NCMDS. */
static isa_cmd cmd_of(harness *h, unsigned i)
{
	return fp_cmd(h, ops[i / (2 * NFMTS)], fmts[i / 2 % NFMTS],
		      i % 2 ? ISA_FL_IEEE : 0);
}

static const char *cmd_name(const isa_cmd *c, char *buf, size_t size)
{
	snprintf(buf, size, "%s.%s %s", isa_info_of(c->op)->name,
		 isa_fpfmt_of(c->fmt)->name, c->flags & ISA_FL_IEEE ? "ieee" : "hw");
	return buf;
}

/* One batch in one mode: the reference (harness_check3), then d against
 * the host FPU, then the cycle count. */
static void check_batch(harness *h, const isa_cmd *c, const uint64_t *a,
			const uint64_t *b, const uint64_t *c3, harness_mode mode)
{
	char why[512], name[64];
	uint64_t d[COUNT];
	cmd_name(c, name, sizeof name);
	cr_assert(harness_check3(h, c, a, b, c3, NULL, mode, why, sizeof why),
		  "%s, mode %d: %s", name, (int)mode, why);
	harness_get(h, c->d, c->width, d);
	for (unsigned i = 0; i < COUNT; i++) {
		const uint64_t host = fp_host_op(c->op, c->fmt, c->flags, a[i], b[i],
						 c3 ? c3[i] : 0);
		cr_assert(fp_host_same(c->fmt, d[i], host),
			  "%s: a=0x%" PRIx64 " b=0x%" PRIx64 " c=0x%" PRIx64
			  ": got 0x%" PRIx64 ", the host 0x%" PRIx64, name, a[i],
			  b[i], c3 ? c3[i] : 0, d[i], host);
	}
	const uint64_t base = isa_baseline_cycles(c, BLS);
	if (mode == HARNESS_CTL)
		cr_assert_leq(h->cycles, base + ctl_slack(c), "%s: %" PRIu64 " cycles",
			      name, h->cycles);
	else
		cr_assert_eq(h->cycles, base, "%s: %" PRIu64 " cycles, the formula %"
			     PRIu64, name, h->cycles, base);
}

/* Every command over batches of fp_cases. */
static void sweep(harness_mode mode, unsigned batches)
{
	harness *h = harness_new(ROWS, BLS);
	uint64_t a[COUNT], b[COUNT], c3[COUNT], spare[COUNT];
	for (unsigned n = 0; n < NCMDS * batches; n++) {
		const isa_cmd c = cmd_of(h, n % NCMDS);
		fp_cases(c.fmt, n, a, b, COUNT);
		fp_cases(c.fmt, n + 100000, c3, spare, COUNT);
		check_batch(h, &c, a, b, c3, mode);
	}
	harness_free(h);
}

Test(fpmul, run_cases) { sweep(HARNESS_RUN, 24); }
Test(fpmul, step_cases) { sweep(HARNESS_STEP, 1); }
Test(fpmul, ctl_cases) { sweep(HARNESS_CTL, 8); }

/* Every ordered pair of edge values with all four sign combinations;
 * madd adds the edge list again, rotated. */
Test(fpmul, edge_pairs)
{
	harness *h = harness_new(ROWS, BLS);
	const unsigned ne = fp_case_edge_count();
	uint64_t a[COUNT], b[COUNT], c3[COUNT];
	for (unsigned ci = 0; ci < NCMDS; ci++) {
		const isa_cmd c = cmd_of(h, ci);
		const uint64_t sb = UINT64_C(1) << (c.width - 1);
		unsigned k = 0;
		for (unsigned n = 0; n < 4 * ne * ne; n++) {
			a[k] = fp_case_edge(c.fmt, n / (4 * ne)) ^ (n & 1 ? sb : 0);
			b[k] = fp_case_edge(c.fmt, n / 4 % ne) ^ (n & 2 ? sb : 0);
			c3[k] = fp_case_edge(c.fmt, n % (ne + 1));
			if (++k < COUNT && n + 1 < 4 * ne * ne)
				continue;
			for (; k < COUNT; k++)
				a[k] = b[k] = c3[k] = 0;
			check_batch(h, &c, a, b, c3, HARNESS_RUN);
			k = 0;
		}
	}
	harness_free(h);
}

/* v = k * 2^s as format values, for small integers k (few significand
 * bits: the data of §3.1.2's skipping). */
static void small_values(unsigned fmt, uint64_t *v, unsigned kmax, int s0,
			 uint64_t seed)
{
	uint64_t st = seed;
	for (unsigned i = 0; i < COUNT; i++) {
		const double k = (double)(1 + harness_rand(&st) % kmax);
		const int s = s0 + (int)(harness_rand(&st) % 5);
		v[i] = fp_host_round(fmt, ISA_FL_IEEE, k * (s < 0 ? 1.0 / (1 << -s)
								 : (double)(1 << s)));
	}
}

/* d and the cycles of c over a, b, c3 in a mode. */
static uint64_t run_mode(harness *h, const isa_cmd *c, const uint64_t *a,
			 const uint64_t *b, const uint64_t *c3,
			 harness_mode mode, uint64_t *d)
{
	char why[512];
	cr_assert(harness_check3(h, c, a, b, c3, NULL, mode, why, sizeof why),
		  "%s", why);
	harness_get(h, c->d, c->width, d);
	return h->cycles;
}

/* The controller gives the baseline's bits, in at most `most` per cent
 * of its cycles. */
static void expect_faster(harness *h, const isa_cmd *c, const uint64_t *a,
			  const uint64_t *b, const uint64_t *c3, unsigned most)
{
	uint64_t d0[COUNT], d1[COUNT];
	char name[64];
	const uint64_t base = run_mode(h, c, a, b, c3, HARNESS_RUN, d0);
	const uint64_t opt = run_mode(h, c, a, b, c3, HARNESS_CTL, d1);
	cr_assert_arr_eq(d0, d1, sizeof d0, "%s: bits differ", cmd_name(c, name, sizeof name));
	cr_assert_leq(opt * 100, base * most, "%s: %" PRIu64 " of %" PRIu64 " cycles",
		      cmd_name(c, name, sizeof name), opt, base);
}

/* Small integers: zero multiplier bits and trailing zeros skipped. */
Test(fpmul, ctl_small_integers_fewer_cycles)
{
	harness *h = harness_new(ROWS, BLS);
	uint64_t a[COUNT], b[COUNT], c3[COUNT];
	for (size_t f = 0; f < NFMTS; f++)
		for (unsigned flags = 0; flags <= ISA_FL_IEEE; flags++) {
			small_values(fmts[f], a, 15, -2, 3 + f);
			small_values(fmts[f], b, 7, 0, 5 + f);
			small_values(fmts[f], c3, 100, 0, 7 + f);
			isa_cmd c = fp_cmd(h, ISA_FMUL, fmts[f], flags);
			expect_faster(h, &c, a, b, NULL, fmts[f] == ISA_FMT_F32 ? 50 : 90);
			c = fp_cmd(h, ISA_FMADD, fmts[f], flags);
			expect_faster(h, &c, a, b, c3, 95);
			c = fp_cmd(h, ISA_FDIV, fmts[f], flags);
			expect_faster(h, &c, a, b, NULL, fmts[f] == ISA_FMT_F32 ? 70 : 95);
		}
	harness_free(h);
}

/* Exact quotients (a = b * small integer): the zero residues stop the
 * division early. */
Test(fpmul, ctl_exact_quotients_stop_early)
{
	harness *h = harness_new(ROWS, BLS);
	uint64_t a[COUNT], b[COUNT], k[COUNT];
	for (size_t f = 0; f < NFMTS; f++)
		for (unsigned flags = 0; flags <= ISA_FL_IEEE; flags++) {
			small_values(fmts[f], b, 7, 0, 11 + f);
			small_values(fmts[f], k, 3, -1, 13 + f);
			for (unsigned i = 0; i < COUNT; i++)
				a[i] = fp_host_op(ISA_FMUL, fmts[f], flags, b[i], k[i], 0);
			isa_cmd c = fp_cmd(h, ISA_FDIV, fmts[f], flags);
			expect_faster(h, &c, a, b, NULL, fmts[f] == ISA_FMT_F32 ? 40 : 75);
		}
	harness_free(h);
}

/* The baseline formulas (doc/commands/fpmul-div.md). */
Test(fpmul, baseline_cycles_pinned)
{
	static const struct {
		unsigned op, fmt;
		uint64_t hw, ieee;
	} pins[] = {
		{ISA_FMUL, ISA_FMT_F32, 850, 1324},
		{ISA_FMUL, ISA_FMT_F16, 283, 495},
		{ISA_FMUL, ISA_FMT_BF16, 226, 389},
		{ISA_FMADD, ISA_FMT_F32, 2176, 2844},
		{ISA_FMADD, ISA_FMT_F16, 797, 1103},
		{ISA_FMADD, ISA_FMT_BF16, 641, 889},
		{ISA_FMA, ISA_FMT_F32, 3001, 3819},
		{ISA_FMA, ISA_FMT_F16, 1079, 1438},
		{ISA_FMA, ISA_FMT_BF16, 839, 1108},
		{ISA_FDIV, ISA_FMT_F32, 1587, 2061},
		{ISA_FDIV, ISA_FMT_F16, 484, 696},
		{ISA_FDIV, ISA_FMT_BF16, 355, 518},
	};
	harness *h = harness_new(ROWS, BLS);
	char name[64];
	for (size_t i = 0; i < sizeof pins / sizeof pins[0]; i++)
		for (unsigned flags = 0; flags <= ISA_FL_IEEE; flags++) {
			isa_cmd c = fp_cmd(h, pins[i].op, pins[i].fmt, flags);
			cr_expect_eq(isa_baseline_cycles(&c, BLS),
				     flags ? pins[i].ieee : pins[i].hw, "%s: %" PRIu64,
				     cmd_name(&c, name, sizeof name),
				     isa_baseline_cycles(&c, BLS));
		}
	harness_free(h);
}

/* d may be a or b (and fma's c): the operands are read before d is
 * first written. */
Test(fpmul, in_place)
{
	harness *h = harness_new(ROWS, BLS);
	uint64_t a[COUNT], b[COUNT], c3[COUNT], spare[COUNT], d[COUNT];
	for (size_t o = 0; o < NOPS; o++)
		for (unsigned which = 0; which < (ops[o] == ISA_FMA ? 3u : 2u); which++) {
			isa_cmd c = fp_cmd(h, ops[o], ISA_FMT_F32, ISA_FL_IEEE);
			fp_cases(ISA_FMT_F32, 77 + which, a, b, COUNT);
			fp_cases(ISA_FMT_F32, 78, c3, spare, COUNT);
			cr_assert_null(isa_check(&c, ROWS, BLS, NULL));
			harness_put(h, c.a, c.width, a);
			harness_put(h, c.b, c.width, b);
			if (c.c3 != ISA_NONE)
				harness_put(h, c.c3, c.width, c3);
			c.d = which == 2 ? c.c3 : which ? c.b : c.a;
			cr_assert_null(isa_check(&c, ROWS, BLS, NULL));
			isa_prog p;
			isa_prog_init(&p);
			cr_assert_eq(isa_build(&c, BLS, &p), 0);
			sram_run(h->m, NULL, p.u, p.n);
			isa_prog_free(&p);
			harness_get(h, c.d, c.width, d);
			for (unsigned i = 0; i < COUNT; i++) {
				bool t = false;
				const uint64_t ref = isa_ref_elem3(&c, a[i], b[i], c3[i],
								   false, &t, NULL);
				cr_assert_eq(d[i], ref, "op %u, d = %s, element %u",
					     c.op, which == 2 ? "c" : which ? "b" : "a", i);
			}
		}
	harness_free(h);
}

/* fma at f32 runs in the SIMT machine's translated kernels, where d, a,
 * b and c take four of an array's eight 32-wordline units: its scratch
 * must fit the other four (doc/SIMT.md, "Translated PTX"). */
Test(fpmul, fma_scratch_fits_four_units)
{
	harness *h = harness_new(ROWS, BLS);
	for (unsigned flags = 0; flags <= ISA_FL_IEEE; flags++) {
		const isa_cmd c = fp_cmd(h, ISA_FMA, ISA_FMT_F32, flags);
		isa_rules r;
		cr_assert_null(isa_check(&c, ROWS, BLS, &r));
		cr_assert_leq(r.scratch_rows, 128u, "%u scratch rows", r.scratch_rows);
		cr_log_info("fma.f32 %s: %u scratch rows", flags ? "ieee" : "hw",
			    r.scratch_rows);
	}
	harness_free(h);
}

/* What isa_check and the generators refuse. */
Test(fpmul, refused)
{
	harness *h = harness_new(ROWS, BLS);
	isa_prog p;
	isa_prog_init(&p);
	for (size_t o = 0; o < NOPS; o++) {
		isa_cmd c = fp_cmd(h, ops[o], ISA_FMT_F32, 0);
		isa_rules r;
		cr_assert_null(isa_check(&c, ROWS, BLS, &r));
		isa_cmd bad = c;
		bad.fmt = ISA_FMT_INT;
		cr_assert_str_eq(isa_check(&bad, ROWS, BLS, NULL),
				 "this command does not take that element type");
		bad = c;
		bad.width = 16;
		cr_assert_str_eq(isa_check(&bad, ROWS, BLS, NULL),
				 "width out of range for this command");
		cr_assert_eq(isa_build(&bad, BLS, &p), -1);
		bad = c;
		bad.scratch_rows = (uint16_t)(r.scratch_rows - 1);
		cr_assert_str_eq(isa_check(&bad, ROWS, BLS, NULL),
				 "not enough scratch wordlines for this width");
		bad = c;
		bad.d = (uint16_t)(c.scratch + 1);
		cr_assert_str_eq(isa_check(&bad, ROWS, BLS, NULL),
				 "destination overlaps the scratch wordlines");
	}
	isa_cmd add = fp_cmd(h, ISA_FADD, ISA_FMT_F32, 0);
	cr_assert_eq(isa_gen_fpmul(&add, BLS, &p, NULL), -1);
	cr_assert_eq(isa_gen_fpdiv(&add, BLS, &p, NULL), -1);
	isa_prog_free(&p);
	harness_free(h);
}
