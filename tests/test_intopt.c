/* SPDX-License-Identifier: MIT */
/*
 * test_intopt.c: the data-dependent latency of mul, div, rem and divrem
 * (duality-cache §3.1.2, isa/mul.c and isa/div.c).  For many data sets
 * (random, small values, zeros, one kind per array, ...) the program
 * built through a controller (HARNESS_CTL) must give the reference's
 * results, which are the baseline's bit for bit; it may never take more
 * cycles than the baseline, and must take fewer on data with leading
 * zeros.  A third check runs with half the bitlines disabled: their
 * data, which would force work, must not count, and nothing of theirs
 * may change.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa_harness.h"

enum { W = 512, B = 64, COUNT = 2 * B };

/* The data sets.  Each fills a and b (COUNT elements, n bits). */
enum set {
	SET_RANDOM,     /* harness_values: random with edge values */
	SET_SMALL,      /* both below 2^(n/4) (signed: magnitudes) */
	SET_SMALL_B,    /* full-width a, small b: few quotient digits */
	SET_SMALL_A,    /* small a, full-width b */
	SET_ZERO_A,     /* a = 0 */
	SET_ZERO_B,     /* b = 0 (division by zero everywhere) */
	SET_MIXED,      /* array 0 small values, array 1 random */
	SET_SPARSE_B,   /* b with only a few bit positions ever set */
	SET_EXACT,      /* a = b * q exactly: zero remainders */
	SET_POS_B,      /* small a, b >= 0 (signed: no negative multiplier) */
	SET_SHIFTED,    /* a = b * 2^(n/2): every residue 0 at once, then 0 bits */
	SET_BIG_B,      /* b >= 2^(n-5): a quotient of at most 5 digits */
	SET_COUNT
};
static const char *set_names[SET_COUNT] = {
	"random", "small", "small b", "small a", "a = 0", "b = 0", "mixed",
	"sparse b", "exact", "small a, b >= 0", "a = b * 2^(n/2)", "b >= 2^(n-5)"};

/* Must the optimised program take strictly fewer cycles on set s?
 * Where the data has leading zeros in an operand the optimisations look
 * at (doc/commands/mul-div.md): mul, the multiplier's zero bits always,
 * and the multiplicand's width unless a b is negative (signed: the
 * search is paid for by reading a and b in place); div, the dividend's
 * leading zeros.  Elsewhere only "no more than the baseline" holds. */
static bool expect_faster(unsigned op, bool sgn, enum set s)
{
	if (op == ISA_MUL) {
		if (s == SET_SMALL || s == SET_SMALL_B || s == SET_ZERO_B ||
		    s == SET_POS_B)
			return true;
		return !sgn && (s == SET_SMALL_A || s == SET_ZERO_A);
	}
	return s == SET_SMALL || s == SET_SMALL_A || s == SET_ZERO_A ||
	       s == SET_POS_B || s == SET_SHIFTED || s == SET_BIG_B;
}

/* Must it take less than half the baseline's cycles at n >= 16?  Where
 * each optimisation has most to gain (doc/commands/mul-div.md measures
 * them): this pins every one of them, not just "some gain". */
static bool expect_half(unsigned op, bool sgn, enum set s)
{
	if (op == ISA_MUL)
		return s == SET_SMALL_B || s == SET_ZERO_B || s == SET_SMALL ||
		       s == SET_POS_B || (!sgn && (s == SET_SMALL_A || s == SET_ZERO_A));
	return s == SET_SMALL || s == SET_SMALL_A || s == SET_ZERO_A ||
	       s == SET_SHIFTED || s == SET_BIG_B;
}

static uint64_t small(uint64_t *rng, unsigned n, bool sgn)
{
	const unsigned bits = n / 4 ? n / 4 : 1;
	uint64_t v = harness_rand(rng) & isa_mask(bits);
	if (sgn && (harness_rand(rng) & 1))
		v = 0 - v;
	return v & isa_mask(n);
}

static void fill(enum set s, unsigned n, bool sgn, uint64_t seed,
		 uint64_t *a, uint64_t *b)
{
	uint64_t rng = seed;
	harness_values(a, COUNT, n, seed);
	harness_values(b, COUNT, n, seed + 99);
	const uint64_t sparse = harness_rand(&rng) & harness_rand(&rng);
	for (unsigned i = 0; i < COUNT; i++) {
		switch (s) {
		case SET_SMALL: a[i] = small(&rng, n, sgn); b[i] = small(&rng, n, sgn); break;
		case SET_SMALL_B: b[i] = small(&rng, n, sgn); break;
		case SET_SMALL_A: a[i] = small(&rng, n, sgn); break;
		case SET_ZERO_A: a[i] = 0; break;
		case SET_ZERO_B: b[i] = 0; break;
		case SET_MIXED:
			if (i < B) {
				a[i] = small(&rng, n, sgn);
				b[i] = small(&rng, n, sgn);
			}
			break;
		case SET_SPARSE_B: b[i] &= sparse & isa_mask(n); break;
		case SET_SHIFTED:
			b[i] = (harness_rand(&rng) & isa_mask(n / 2 - sgn)) | 1;
			if (sgn && (harness_rand(&rng) & 1))
				b[i] = 0 - b[i];
			a[i] = (b[i] << (n / 2)) & isa_mask(n);
			b[i] &= isa_mask(n);
			break;
		case SET_BIG_B:
			if (n >= 6)
				b[i] = (b[i] | UINT64_C(1) << (n - 5)) & isa_mask(n - 1);
			break;
		case SET_POS_B:
			a[i] = small(&rng, n, sgn);
			b[i] &= isa_mask(n) >> 1;
			break;
		case SET_EXACT: {
			const uint64_t q = small(&rng, n, sgn);
			b[i] = small(&rng, n, sgn) | 1;
			a[i] = (q * b[i]) & isa_mask(n);
			break;
		}
		default: break;
		}
	}
}

static void read_results(harness *h, const isa_cmd *c, uint64_t *d, uint64_t *d2)
{
	harness_get(h, c->d, c->width, d);
	if (c->d2 != ISA_NONE)
		harness_get(h, c->d2, c->width, d2);
}

/* One command on one data set: baseline and optimised against the
 * reference and each other, and the cycle rules. */
static void check_set(harness *h, unsigned op, unsigned n, bool sgn, enum set s,
		      uint64_t seed)
{
	uint64_t a[COUNT], b[COUNT], d0[COUNT], e0[COUNT] = {0}, d1[COUNT],
		 e1[COUNT] = {0};
	char why[256];
	const isa_cmd c = harness_cmd(h, op, n, sgn);
	const char *name = isa_info_of(op)->name;
	fill(s, n, sgn, seed, a, b);
	cr_assert(harness_check3(h, &c, a, b, NULL, NULL, HARNESS_RUN, why, sizeof why),
		  "%s.%c%u baseline, %s data: %s", name, sgn ? 'i' : 'u', n,
		  set_names[s], why);
	const uint64_t base = h->cycles;
	read_results(h, &c, d0, e0);
	cr_assert(harness_check3(h, &c, a, b, NULL, NULL, HARNESS_CTL, why, sizeof why),
		  "%s.%c%u optimised, %s data: %s", name, sgn ? 'i' : 'u', n,
		  set_names[s], why);
	read_results(h, &c, d1, e1);
	cr_assert(memcmp(d0, d1, sizeof d0) == 0 && memcmp(e0, e1, sizeof e0) == 0,
		  "%s.%c%u, %s data: optimised results differ from the baseline's",
		  name, sgn ? 'i' : 'u', n, set_names[s]);
	cr_assert_eq(base, isa_baseline_cycles(&c, B));
	cr_assert(h->cycles <= base, "%s.%c%u, %s data: optimised %llu cycles > "
		  "baseline %llu", name, sgn ? 'i' : 'u', n, set_names[s],
		  (unsigned long long)h->cycles, (unsigned long long)base);
	if (expect_half(op, sgn, s) && n >= (s == SET_BIG_B ? 32u : 16u))
		cr_assert(2 * h->cycles < base, "%s.%c%u, %s data: optimised %llu "
			  "cycles, not below half the baseline's %llu", name,
			  sgn ? 'i' : 'u', n, set_names[s],
			  (unsigned long long)h->cycles, (unsigned long long)base);
	if (expect_faster(op, sgn, s) &&
	    n >= (s == SET_BIG_B || s == SET_SHIFTED ? 8u : 4u))
		cr_assert(h->cycles < base, "%s.%c%u, %s data: optimised takes "
			  "the baseline's %llu cycles", name, sgn ? 'i' : 'u', n,
			  set_names[s], (unsigned long long)base);
}

/* A controller over the harness machine: run what was emitted, then the
 * wired-OR of T over the enabled bitlines (as the harness's own). */
static bool gated_any(isa_ctl *ctl, isa_prog *p)
{
	harness *h = ctl->ctx;
	if (p->n > ctl->done)
		sram_run(h->m, NULL, p->u + ctl->done, p->n - ctl->done);
	ctl->done = p->n;
	return sram_any_tag_ways(h->m, 0, h->m->nways, NULL);
}

static const unsigned widths[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 16, 17,
				  24, 31, 32, 33, 48, 63, 64};

static void check_op(unsigned op)
{
	harness *h = harness_new(W, B);
	for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++)
		for (int sg = 0; sg < 2; sg++)
			for (int s = 0; s < SET_COUNT; s++)
				check_set(h, op, widths[w], sg, (enum set)s,
					  widths[w] * 1009u + (unsigned)s * 31u + (unsigned)sg);
	harness_free(h);
}

Test(intopt, mul) { check_op(ISA_MUL); }
Test(intopt, div) { check_op(ISA_DIV); }
Test(intopt, rem) { check_op(ISA_REM); }
Test(intopt, divrem) { check_op(ISA_DIVREM); }

/* The questions see only enabled bitlines.  Array 1 and every odd
 * bitline of array 0 are disabled and hold full-width data (with b = 0
 * and b = 1) that would force every step; the enabled ones hold small
 * values.  The optimised program must be faster than the baseline, give
 * the reference's results on the enabled bitlines, and leave every cell
 * and latch of the disabled ones as it was. */
static bool gated_on(unsigned i)
{
	return i < B && i % 2 == 0;
}

/* Random cells and latches everywhere, the enables of gated_on, and the
 * operands: small on the enabled bitlines, any on the others. */
static void fill_gated(harness *h, const isa_cmd *c, uint64_t *a, uint64_t *b)
{
	const unsigned n = c->width;
	const bool sgn = c->is_signed;
	uint64_t rng = n * 7u + sgn;
	sram_machine *m = h->m;
	harness_values(a, COUNT, n, n);
	harness_values(b, COUNT, n, n + 5);
	for (unsigned i = 0; i < COUNT; i++) {
		const bool on = gated_on(i);
		if (on) {
			a[i] = small(&rng, n, sgn);
			b[i] = small(&rng, n, sgn) | 1;
		} else if (i % 8 < 2) {
			b[i] = i % 8;
		}
		for (unsigned wl = 0; wl < W; wl++)
			sram_set_bit(m, i / B, wl, i % B, harness_rand(&rng) & 1);
		sram_set_latch(m, i / B, SRAM_CARRY, i % B, harness_rand(&rng) & 1);
		sram_set_latch(m, i / B, SRAM_TAG, i % B, harness_rand(&rng) & 1);
		sram_enable_set(m, i / B, i % B, on);
	}
	harness_put(h, c->a, n, a);
	harness_put(h, c->b, n, b);
}

/* Every cell, C and T of the disabled bitlines as in before. */
static void check_untouched(const sram_machine *m, const sram_machine *before,
			    const char *what)
{
	for (unsigned i = 0; i < COUNT; i++) {
		const unsigned arr = i / B, bl = i % B;
		for (unsigned wl = 0; !gated_on(i) && wl < W; wl++)
			cr_assert_eq(sram_get_bit(m, arr, wl, bl),
				     sram_get_bit(before, arr, wl, bl),
				     "%s: disabled element %u, wordline %u changed",
				     what, i, wl);
		for (int l = SRAM_CARRY; !gated_on(i) && l <= SRAM_TAG; l++)
			cr_assert_eq(sram_get_latch(m, arr, (enum sram_latch)l, bl),
				     sram_get_latch(before, arr, (enum sram_latch)l, bl),
				     "%s: disabled element %u, a latch changed", what, i);
	}
}

static void check_gated(harness *h, unsigned op, unsigned n, bool sgn)
{
	uint64_t a[COUNT], b[COUNT], d[COUNT], r[COUNT];
	const isa_cmd c = harness_cmd(h, op, n, sgn);
	char what[32];
	snprintf(what, sizeof what, "%s.%c%u", isa_info_of(op)->name, sgn ? 'i' : 'u', n);
	sram_machine *m = h->m;
	fill_gated(h, &c, a, b);
	sram_machine *before = sram_new(&m->g);
	cr_assert_not_null(before);
	sram_copy_state(before, m);
	isa_prog p;
	isa_prog_init(&p);
	isa_ctl ctl = {.any = gated_any, .done = 0, .ctx = h};
	cr_assert_eq(isa_build_ctl(&c, B, &p, &ctl), 0);
	gated_any(&ctl, &p);
	cr_assert(p.n < isa_baseline_cycles(&c, B), "%s: %zu cycles, baseline %llu",
		  what, p.n, (unsigned long long)isa_baseline_cycles(&c, B));
	isa_prog_free(&p);
	harness_get(h, c.d, n, d);
	if (c.d2 != ISA_NONE)
		harness_get(h, c.d2, n, r);
	for (unsigned i = 0; i < COUNT; i++) {
		uint64_t r2 = 0;
		const uint64_t want = isa_ref_elem(&c, a[i], b[i], false, NULL, &r2);
		cr_assert(!gated_on(i) || (d[i] == want && (c.d2 == ISA_NONE || r[i] == r2)),
			  "%s element %u (a=%#llx b=%#llx): wrong result", what, i,
			  (unsigned long long)a[i], (unsigned long long)b[i]);
	}
	check_untouched(m, before, what);
	sram_free(before);
	for (unsigned arr = 0; arr < 2; arr++)
		sram_enable_all(m, arr);
}

Test(intopt, disabled_bitlines_do_not_count)
{
	harness *h = harness_new(W, B);
	static const unsigned ops[] = {ISA_MUL, ISA_DIV, ISA_REM, ISA_DIVREM};
	for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++)
		for (unsigned n = 8; n <= 64; n *= 2)
			for (int sg = 0; sg < 2; sg++)
				check_gated(h, ops[o], n, sg);
	harness_free(h);
}
