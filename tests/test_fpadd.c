/* SPDX-License-Identifier: MIT */
/*
 * test_fpadd.c: floating-point add and subtract (isa/fpadd.c) on every
 * format and both modes, bit for bit against the reference (isa_ref_fp)
 * and the host FPU (fp_host.h), over every class of operand
 * (fp_cases.h); run whole, stepped, and through a controller (the
 * data-dependent latency), which must give the same bits; and the
 * baseline cycle formula pinned.
 */
#include <criterion/criterion.h>

#include <inttypes.h>
#include <stdlib.h>

#include "fp_cases.h"
#include "fp_host.h"
#include "isa_harness.h"

#define ROWS 512 /* wordlines: a, b, d, a gap and the scratch */
#define BLS 64  /* bitlines per array; the harness has 2 arrays */

static const unsigned fmts[] = {ISA_FMT_F32, ISA_FMT_F16, ISA_FMT_BF16};
static const unsigned ops[] = {ISA_FADD, ISA_FSUB};

static isa_cmd fpadd_cmd(harness *h, unsigned op, unsigned fmt, unsigned flags)
{
	isa_cmd c = harness_cmd_fmt(h, op, fmt, isa_fpfmt_of(fmt)->width, true);
	c.flags = (uint8_t)flags;
	return c;
}

static const char *mode_name(unsigned flags)
{
	return flags & ISA_FL_IEEE ? "ieee" : "hw";
}

/* d (read back from the harness) against the host FPU. */
static void check_host(harness *h, const isa_cmd *c, const uint64_t *a,
		       const uint64_t *b)
{
	uint64_t d[2 * BLS];
	harness_get(h, c->d, c->width, d);
	for (uint64_t i = 0; i < h->count; i++) {
		uint64_t host = fp_host_op(c->op, c->fmt, c->flags, a[i], b[i], 0);
		cr_assert(fp_host_same(c->fmt, d[i], host),
			  "%s.%s %s: a=0x%" PRIx64 " b=0x%" PRIx64 ": got 0x%" PRIx64
			  ", host 0x%" PRIx64, isa_info_of(c->op)->name,
			  isa_fpfmt_of(c->fmt)->name, mode_name(c->flags), a[i], b[i],
			  d[i], host);
	}
}

/* Run one batch in a mode; compare with the reference, and the host. */
static void check_batch(harness *h, const isa_cmd *c, const uint64_t *a,
			const uint64_t *b, harness_mode mode)
{
	char why[512];
	cr_assert(harness_check3(h, c, a, b, NULL, NULL, mode, why, sizeof why),
		  "%s.%s %s mode %d: %s", isa_info_of(c->op)->name,
		  isa_fpfmt_of(c->fmt)->name, mode_name(c->flags), (int)mode, why);
	check_host(h, c, a, b);
	if (mode != HARNESS_CTL)
		cr_assert_eq(h->cycles, isa_baseline_cycles(c, BLS),
			     "%" PRIu64 " cycles, the formula says %" PRIu64,
			     h->cycles, isa_baseline_cycles(c, BLS));
	else /* at worst the controller's extra searches: sub, ediff's bits
	      * and the denormalisation question */
		cr_assert_leq(h->cycles, isa_baseline_cycles(c, BLS) +
					 isa_fpfmt_of(c->fmt)->ebits + 2);
}

/* Every format, mode and op over batches of fp_cases, in one mode. */
static void sweep(harness_mode mode, unsigned batches)
{
	harness *h = harness_new(ROWS, BLS);
	uint64_t a[2 * BLS], b[2 * BLS];
	for (size_t f = 0; f < sizeof fmts / sizeof fmts[0]; f++)
		for (unsigned flags = 0; flags <= ISA_FL_IEEE; flags++)
			for (size_t o = 0; o < 2; o++) {
				isa_cmd c = fpadd_cmd(h, ops[o], fmts[f], flags);
				for (unsigned s = 0; s < batches; s++) {
					fp_cases(fmts[f], 100 * s + 7 * f + flags, a, b, h->count);
					check_batch(h, &c, a, b, mode);
				}
			}
	harness_free(h);
}

Test(fpadd, run_cases) { sweep(HARNESS_RUN, 100); }
Test(fpadd, step_cases) { sweep(HARNESS_STEP, 1); }
Test(fpadd, ctl_cases) { sweep(HARNESS_CTL, 50); }

/* Every pair of edge values (zeros, subnormals, extremes, inf, NaN, ...). */
Test(fpadd, edge_pairs)
{
	harness *h = harness_new(ROWS, BLS);
	const unsigned ne = fp_case_edge_count();
	uint64_t a[2 * BLS], b[2 * BLS];
	for (size_t f = 0; f < sizeof fmts / sizeof fmts[0]; f++)
		for (unsigned flags = 0; flags <= ISA_FL_IEEE; flags++)
			for (size_t o = 0; o < 2; o++) {
				isa_cmd c = fpadd_cmd(h, ops[o], fmts[f], flags);
				uint64_t k = 0;
				for (unsigned i = 0; i < ne; i++)
					for (unsigned j = 0; j < ne; j++) {
						uint64_t x = fp_case_edge(fmts[f], i);
						uint64_t y = fp_case_edge(fmts[f], j);
						for (unsigned sg = 0; sg < 4; sg++) {
							const uint64_t sb = UINT64_C(1) << (c.width - 1);
							a[k] = x ^ (sg & 1 ? sb : 0);
							b[k] = y ^ (sg & 2 ? sb : 0);
							if (++k == h->count) {
								check_batch(h, &c, a, b, HARNESS_RUN);
								k = 0;
							}
						}
					}
				for (; k && k < h->count; k++)
					a[k] = b[k] = 0;
				if (k)
					check_batch(h, &c, a, b, HARNESS_RUN);
			}
	harness_free(h);
}

/* Random values of one sign and exponents in [e0, e0 + span). */
static void narrow_values(const isa_fpfmt *ff, uint64_t *v, uint64_t count,
			  unsigned e0, unsigned span, uint64_t seed)
{
	uint64_t s = seed;
	for (uint64_t i = 0; i < count; i++) {
		uint64_t r = harness_rand(&s);
		uint64_t e = e0 + r % span;
		uint64_t frac = harness_rand(&s) & isa_mask(ff->mbits);
		v[i] = (e << ff->mbits) | frac;
	}
}

/* Narrow exponent ranges: the controller gives the same bits as the
 * baseline in fewer cycles (duality-cache §3.1.2). */
Test(fpadd, ctl_narrow_fewer_cycles)
{
	harness *h = harness_new(ROWS, BLS);
	uint64_t a[2 * BLS], b[2 * BLS], d0[2 * BLS], d1[2 * BLS];
	char why[512];
	for (size_t f = 0; f < sizeof fmts / sizeof fmts[0]; f++)
		for (unsigned flags = 0; flags <= ISA_FL_IEEE; flags++) {
			const isa_fpfmt *ff = isa_fpfmt_of(fmts[f]);
			isa_cmd c = fpadd_cmd(h, ISA_FADD, fmts[f], flags);
			narrow_values(ff, a, h->count, ff->bias, 2, 11 + f);
			narrow_values(ff, b, h->count, ff->bias, 2, 23 + f);
			cr_assert(harness_check3(h, &c, a, b, NULL, NULL, HARNESS_RUN,
						 why, sizeof why), "%s", why);
			harness_get(h, c.d, c.width, d0);
			const uint64_t base = h->cycles;
			cr_assert(harness_check3(h, &c, a, b, NULL, NULL, HARNESS_CTL,
						 why, sizeof why), "%s", why);
			harness_get(h, c.d, c.width, d1);
			cr_assert_arr_eq(d0, d1, sizeof d0);
			cr_assert_lt(h->cycles * 4, base * 3, "%s %s: %" PRIu64 " of %" PRIu64,
				     ff->name, mode_name(flags), h->cycles, base);
		}
	harness_free(h);
}

/* The baseline formula per format, mode and op (doc/commands/fpadd.md). */
Test(fpadd, baseline_cycles_pinned)
{
	static const struct {
		unsigned op, fmt, flags;
		uint64_t cycles;
	} pins[] = {
		{ISA_FADD, ISA_FMT_F32, 0, 1326},
		{ISA_FSUB, ISA_FMT_F32, 0, 1327},
		{ISA_FADD, ISA_FMT_F32, ISA_FL_IEEE, 1520},
		{ISA_FSUB, ISA_FMT_F32, ISA_FL_IEEE, 1521},
		{ISA_FADD, ISA_FMT_F16, 0, 514},
		{ISA_FSUB, ISA_FMT_F16, 0, 515},
		{ISA_FADD, ISA_FMT_F16, ISA_FL_IEEE, 608},
		{ISA_FSUB, ISA_FMT_F16, ISA_FL_IEEE, 609},
		{ISA_FADD, ISA_FMT_BF16, 0, 415},
		{ISA_FSUB, ISA_FMT_BF16, 0, 416},
		{ISA_FADD, ISA_FMT_BF16, ISA_FL_IEEE, 500},
		{ISA_FSUB, ISA_FMT_BF16, ISA_FL_IEEE, 501},
	};
	harness *h = harness_new(ROWS, BLS);
	for (size_t i = 0; i < sizeof pins / sizeof pins[0]; i++) {
		isa_cmd c = fpadd_cmd(h, pins[i].op, pins[i].fmt, pins[i].flags);
		cr_expect_eq(isa_baseline_cycles(&c, BLS), pins[i].cycles,
			     "%s.%s %s: %" PRIu64, isa_info_of(c.op)->name,
			     isa_fpfmt_of(c.fmt)->name, mode_name(c.flags),
			     isa_baseline_cycles(&c, BLS));
	}
	harness_free(h);
}

/* d may be a or b. */
Test(fpadd, in_place)
{
	harness *h = harness_new(ROWS, BLS);
	uint64_t a[2 * BLS], b[2 * BLS], d[2 * BLS];
	fp_cases(ISA_FMT_F32, 5, a, b, h->count);
	for (int which = 0; which < 2; which++) {
		isa_cmd c = fpadd_cmd(h, ISA_FADD, ISA_FMT_F32, 0);
		c.d = which ? c.b : c.a;
		cr_assert_null(isa_check(&c, h->W, h->B, NULL));
		harness_put(h, c.a, 32, a);
		harness_put(h, c.b, 32, b);
		isa_prog p;
		isa_prog_init(&p);
		cr_assert_eq(isa_build(&c, BLS, &p), 0);
		sram_run(h->m, NULL, p.u, p.n);
		isa_prog_free(&p);
		harness_get(h, c.d, 32, d);
		for (uint64_t i = 0; i < h->count; i++)
			cr_assert_eq(d[i], isa_fp_add(ISA_FMT_F32, 0, a[i], b[i]));
	}
	harness_free(h);
}

/* Too few scratch rows: the command is refused, not miscomputed. */
Test(fpadd, scratch_checked)
{
	harness *h = harness_new(ROWS, BLS);
	isa_cmd c = fpadd_cmd(h, ISA_FADD, ISA_FMT_F32, 0);
	isa_rules r;
	cr_assert_null(isa_check(&c, h->W, h->B, &r));
	c.scratch_rows = (uint16_t)(r.scratch_rows - 1);
	cr_assert_not_null(isa_check(&c, h->W, h->B, NULL));
	c = fpadd_cmd(h, ISA_FADD, ISA_FMT_F32, 0);
	c.width = 16;
	cr_assert_not_null(isa_check(&c, h->W, h->B, NULL));
	harness_free(h);
}
