/* SPDX-License-Identifier: MIT */
/*
 * test_fpcmp.c: floating-point eq, ne, lt, le, gt, ge, min, max, abs and
 * neg (isa/fpcmp.c) against the reference (isa_ref_fp), on f32, f16 and
 * bf16, in hardware and full IEEE mode: operand pairs over every class
 * (fp_cases), every pair of edge values, and for f16 and bf16 every
 * input against every edge value; predicates to the tag and to a
 * wordline; d aliasing a and b; run whole, stepped and through a
 * controller; cycle counts pinned to the formulas of fpcmp.c.
 */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "fp_cases.h"
#include "isa_harness.h"

static const unsigned fmts[] = {ISA_FMT_F32, ISA_FMT_F16, ISA_FMT_BF16};
static const unsigned ops[] = {ISA_FEQ, ISA_FNE, ISA_FLT, ISA_FLE, ISA_FGT,
			       ISA_FGE, ISA_FMIN, ISA_FMAX, ISA_FABS, ISA_FNEG};
#define NFMTS (sizeof fmts / sizeof fmts[0])
#define NOPS (sizeof ops / sizeof ops[0])

/* The harness machine: 256 wordlines fit a, b, d, d2 and the scratch of
 * a 32-bit format. */
#define WL 256

static bool is_predicate(unsigned op)
{
	return isa_info_of(op)->form == ISA_FORM_PAB;
}

static isa_cmd fp_cmd(harness *h, unsigned op, unsigned fmt, unsigned flags)
{
	isa_cmd c = harness_cmd_fmt(h, op, fmt, isa_fpfmt_of(fmt)->width, true);
	c.flags = (uint8_t)flags;
	return c;
}

static const char *mode_name(unsigned flags)
{
	return flags & ISA_FL_IEEE ? "ieee" : "hw";
}

/* Check c on a, b (h->count each) and its cycle count. */
static void check_one(harness *h, const isa_cmd *c, const uint64_t *a,
		      const uint64_t *b, harness_mode mode, const char *what)
{
	char why[256];
	bool *tag = malloc(h->count);
	for (uint64_t i = 0; i < h->count; i++)
		tag[i] = (a[i] ^ b[i] ^ i) & 1; /* the result must not keep it */
	const bool ok = harness_check3(h, c, a, b, NULL, tag, mode, why,
				       sizeof why);
	free(tag);
	cr_assert(ok, "%s.%s (%s, %s): %s", isa_info_of(c->op)->name,
		  isa_fpfmt_of(c->fmt)->name, mode_name(c->flags), what, why);
	cr_assert_eq(h->cycles, isa_baseline_cycles(c, h->B),
		     "%s.%s (%s): %llu cycles, the formula says %llu",
		     isa_info_of(c->op)->name, isa_fpfmt_of(c->fmt)->name, what,
		     (unsigned long long)h->cycles,
		     (unsigned long long)isa_baseline_cycles(c, h->B));
}

/* Every op, format and mode on operand pairs over every class. */
static void check_cases(unsigned op)
{
	harness *h = harness_new(WL, 256);
	uint64_t *a = malloc(h->count * 8), *b = malloc(h->count * 8);
	for (size_t f = 0; f < NFMTS; f++)
		for (unsigned flags = 0; flags <= ISA_FL_IEEE; flags++)
			for (unsigned round = 0; round < 8; round++) {
				isa_cmd c = fp_cmd(h, op, fmts[f], flags);
				fp_cases(fmts[f], 100 * round + op, a, b, h->count);
				if (is_predicate(op) && (round & 1))
					c.d = ISA_TAG;
				check_one(h, &c, a, b, round == 7 ? HARNESS_STEP :
					  round == 6 ? HARNESS_CTL : HARNESS_RUN,
					  "cases");
			}
	free(a);
	free(b);
	harness_free(h);
}

Test(fpcmp, eq) { check_cases(ISA_FEQ); }
Test(fpcmp, ne) { check_cases(ISA_FNE); }
Test(fpcmp, lt) { check_cases(ISA_FLT); }
Test(fpcmp, le) { check_cases(ISA_FLE); }
Test(fpcmp, gt) { check_cases(ISA_FGT); }
Test(fpcmp, ge) { check_cases(ISA_FGE); }
Test(fpcmp, min) { check_cases(ISA_FMIN); }
Test(fpcmp, max) { check_cases(ISA_FMAX); }
Test(fpcmp, abs) { check_cases(ISA_FABS); }
Test(fpcmp, neg) { check_cases(ISA_FNEG); }

/* Every pair of edge values (+-0, subnormals, normals, inf, NaNs), for
 * every op, format and mode, predicates to the tag and to a wordline. */
Test(fpcmp, edge_pairs)
{
	const unsigned ne = fp_case_edge_count();
	harness *h = harness_new(WL, 1024);
	cr_assert_geq(h->count, ne * ne);
	uint64_t *a = malloc(h->count * 8), *b = malloc(h->count * 8);
	for (size_t f = 0; f < NFMTS; f++) {
		for (uint64_t i = 0; i < h->count; i++) {
			a[i] = fp_case_edge(fmts[f], (unsigned)(i / ne % ne));
			b[i] = fp_case_edge(fmts[f], (unsigned)(i % ne));
		}
		for (size_t k = 0; k < NOPS; k++)
			for (unsigned flags = 0; flags <= ISA_FL_IEEE; flags++) {
				isa_cmd c = fp_cmd(h, ops[k], fmts[f], flags);
				check_one(h, &c, a, b, HARNESS_RUN, "edge pairs");
				if (!is_predicate(ops[k]))
					continue;
				c.d = ISA_TAG;
				check_one(h, &c, a, b, HARNESS_RUN, "edge pairs, tag");
			}
	}
	free(a);
	free(b);
	harness_free(h);
}

/* f16 and bf16: every one of the 65536 inputs as a, against every edge
 * value as b (and as b against the edges as a, for the swapped chains). */
static void check_exhaustive(unsigned fmt)
{
	harness *h = harness_new(WL, 1024);
	uint64_t *a = malloc(h->count * 8), *b = malloc(h->count * 8);
	const unsigned ne = fp_case_edge_count();
	for (size_t k = 0; k < NOPS; k++)
		for (unsigned flags = 0; flags <= ISA_FL_IEEE; flags++)
			for (uint64_t base = 0; base < 65536; base += h->count) {
				isa_cmd c = fp_cmd(h, ops[k], fmt, flags);
				for (uint64_t i = 0; i < h->count; i++) {
					const uint64_t e = fp_case_edge(fmt, (unsigned)((i + base / h->count) % ne));
					a[i] = (i & 1) ? base + i : e;
					b[i] = (i & 1) ? e : base + i;
				}
				check_one(h, &c, a, b, HARNESS_RUN, "all inputs");
			}
	free(a);
	free(b);
	harness_free(h);
}

Test(fpcmp, exhaustive_f16) { check_exhaustive(ISA_FMT_F16); }
Test(fpcmp, exhaustive_bf16) { check_exhaustive(ISA_FMT_BF16); }

/* d may be a or b: the result overwrites an operand in place. */
Test(fpcmp, aliasing)
{
	harness *h = harness_new(WL, 128);
	uint64_t *a = malloc(h->count * 8), *b = malloc(h->count * 8);
	for (size_t f = 0; f < NFMTS; f++)
		for (size_t k = 0; k < NOPS; k++)
			for (unsigned flags = 0; flags <= ISA_FL_IEEE; flags++)
				for (int which = 0; which < 2; which++) {
					isa_cmd c = fp_cmd(h, ops[k], fmts[f], flags);
					if (isa_info_of(ops[k])->form == ISA_FORM_DA && which)
						continue;
					c.d = which ? c.b : c.a;
					fp_cases(fmts[f], 7 + k, a, b, h->count);
					check_one(h, &c, a, b, HARNESS_RUN,
						  which ? "d = b" : "d = a");
				}
	free(a);
	free(b);
	harness_free(h);
}

/* The cycle formulas of fpcmp.c, written out for f32 (w = 32). */
Test(fpcmp, cycles_f32)
{
	harness *h = harness_new(WL, 64);
	const struct { unsigned op, flags; bool tag; uint64_t cycles; } want[] = {
		{ISA_FEQ, 0, true, 7 + 3 + 32 + 3},
		{ISA_FNE, 0, false, 7 + 3 + 32 + 3 + 1},
		{ISA_FLT, 0, true, 7 + 3 + 64 + 2},
		{ISA_FGT, ISA_FL_IEEE, false, 7 + 3 + 64 + 2 + 1},
		{ISA_FGE, 0, true, 7 + 3 + 64 + 3},
		{ISA_FLE, 0, false, 7 + 3 + 64 + 3 + 1},
		{ISA_FMIN, ISA_FL_IEEE, false, 4 * 32 + 9},
		{ISA_FMAX, 0, false, 4 * 32 + 17},
		{ISA_FABS, 0, false, 32},
		{ISA_FNEG, 0, false, 32},
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		isa_cmd c = fp_cmd(h, want[i].op, ISA_FMT_F32, want[i].flags);
		if (want[i].tag)
			c.d = ISA_TAG;
		cr_assert_eq(isa_baseline_cycles(&c, h->B), want[i].cycles,
			     "%s", isa_info_of(want[i].op)->name);
	}
	isa_cmd c = fp_cmd(h, ISA_FNEG, ISA_FMT_BF16, 0);
	c.d = c.a;
	cr_assert_eq(isa_baseline_cycles(&c, h->B), 1);
	harness_free(h);
}

/* The width must be the format's; the scratch must be there. */
Test(fpcmp, check_refuses)
{
	isa_cmd c;
	harness *h = harness_new(WL, 64);
	c = fp_cmd(h, ISA_FLT, ISA_FMT_F16, 0);
	c.width = 32;
	cr_assert_not_null(isa_check(&c, WL, 64, NULL));
	c = fp_cmd(h, ISA_FMIN, ISA_FMT_F32, 0);
	c.scratch_rows = 5;
	cr_assert_not_null(isa_check(&c, WL, 64, NULL));
	c.flags = ISA_FL_IEEE;
	cr_assert_null(isa_check(&c, WL, 64, NULL));
	c = harness_cmd_fmt(h, ISA_FLT, ISA_FMT_INT, 32, true);
	cr_assert_not_null(isa_check(&c, WL, 64, NULL));
	harness_free(h);
}

/* Disabled bitlines keep their old d. */
Test(fpcmp, disabled_bitlines_untouched)
{
	harness *h = harness_new(WL, 64);
	uint64_t a[128], b[128], d[128], d0[128];
	fp_cases(ISA_FMT_F32, 3, a, b, h->count);
	for (unsigned i = 0; i < h->count; i++)
		d0[i] = 0x5a5a5a5au ^ i;
	isa_cmd c = fp_cmd(h, ISA_FMIN, ISA_FMT_F32, 0);
	harness_put(h, c.a, 32, a);
	harness_put(h, c.b, 32, b);
	harness_put(h, c.d, 32, d0);
	for (unsigned bl = 0; bl < 64; bl += 2)
		sram_enable_set(h->m, 1, bl, false);
	isa_prog p;
	isa_prog_init(&p);
	cr_assert_eq(isa_build(&c, h->B, &p), 0);
	sram_run(h->m, NULL, p.u, p.n);
	isa_prog_free(&p);
	harness_get(h, c.d, 32, d);
	for (unsigned i = 0; i < h->count; i++) {
		bool tag = false;
		const uint64_t want = isa_ref_elem3(&c, a[i], b[i], 0, false, &tag, NULL);
		const bool off = i >= 64 && (i % 2) == 0;
		cr_assert_eq(d[i], off ? d0[i] : want, "element %u", i);
	}
	harness_free(h);
}
