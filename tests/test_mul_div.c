/* SPDX-License-Identifier: MIT */
/*
 * test_mul_div.c: mul, div, rem and divrem on the SRAM micro-ops against
 * the scalar reference, every width 1..64, both signednesses, with edge
 * values (0, 1, -1, MIN, MAX, division by zero, MIN / -1, carries through
 * every bit) crossed pairwise and random values; their cycle counts
 * against duality-cache Table 1; stepping against running; what the
 * programs may touch (outputs and declared scratch only, never disabled
 * bitlines); and the refusal of commands whose scratch does not fit.
 */
#include <criterion/criterion.h>

#include <string.h>

#include "isa_harness.h"

/* 512 wordlines hold every command at every width (doc/commands/mul-div.md). */
#define WL 512
#define BL 64
#define NELEM (2 * BL)

static const unsigned all_ops[] = {ISA_MUL, ISA_DIV, ISA_REM, ISA_DIVREM};

/* duality-cache Table 1, written out independently of isa/. */
static uint64_t table1(unsigned op, unsigned n, bool sg)
{
	const uint64_t m = n;
	if (op == ISA_MUL)
		return sg ? m * m + 5 * m : m * m + 3 * m - 2;
	/* 1.5n^2 + 5.5n and 1.5n^2 + 9.5n */
	return sg ? (3 * m * m + 19 * m) / 2 : (3 * m * m + 11 * m) / 2;
}

static const char *name_of(unsigned op)
{
	return isa_info_of(op)->name;
}

/* Every pair of edge values (121 pairs), then random values. */
static void edge_pairs(uint64_t *a, uint64_t *b, unsigned n, uint64_t seed)
{
	const uint64_t m = isa_mask(n), min = UINT64_C(1) << (n - 1);
	const uint64_t e[] = {0, 1, 2, m, m - 1, min, min + 1, min - 1,
			      min - 2, m & UINT64_C(0x5555555555555555),
			      m & UINT64_C(0xaaaaaaaaaaaaaaaa)};
	const unsigned ne = sizeof e / sizeof e[0];
	uint64_t s = seed;
	for (unsigned i = 0; i < NELEM; i++) {
		if (i < ne * ne) {
			a[i] = e[i / ne] & m;
			b[i] = e[i % ne] & m;
		} else {
			a[i] = harness_rand(&s) & m;
			b[i] = harness_rand(&s) >> (harness_rand(&s) % 64) & m;
		}
	}
}

static void check_values(harness *h, const isa_cmd *c, const uint64_t *a,
			 const uint64_t *b, const char *what)
{
	char why[256];
	cr_assert(harness_check(h, c, a, b, NULL, false, why, sizeof why),
		  "%s.%c%u (%s): %s", name_of(c->op), c->is_signed ? 'i' : 'u',
		  c->width, what, why);
	cr_assert_eq(h->cycles, table1(c->op, c->width, c->is_signed),
		     "%s.%c%u: %llu cycles, Table 1 says %llu", name_of(c->op),
		     c->is_signed ? 'i' : 'u', c->width,
		     (unsigned long long)h->cycles,
		     (unsigned long long)table1(c->op, c->width, c->is_signed));
}

static void check_all_widths(unsigned op)
{
	harness *h = harness_new(WL, BL);
	uint64_t a[NELEM], b[NELEM];
	for (unsigned n = 1; n <= 64; n++)
		for (int sg = 0; sg < 2; sg++) {
			isa_cmd c = harness_cmd(h, op, n, sg);
			edge_pairs(a, b, n, 77 + n);
			check_values(h, &c, a, b, "edge pairs");
			harness_values(a, NELEM, n, 3 * n + (unsigned)sg);
			harness_values(b, NELEM, n, 5000 + n);
			check_values(h, &c, a, b, "random");
		}
	harness_free(h);
}

Test(mul_div, mul) { check_all_widths(ISA_MUL); }
Test(mul_div, div) { check_all_widths(ISA_DIV); }
Test(mul_div, rem) { check_all_widths(ISA_REM); }
Test(mul_div, divrem) { check_all_widths(ISA_DIVREM); }

/* Carries and borrows through every bit, and the RISC-V corner cases,
 * checked against literal values rather than the reference. */
Test(mul_div, literal_corners)
{
	harness *h = harness_new(WL, BL);
	uint64_t a[NELEM], b[NELEM], d[NELEM], r[NELEM];
	char why[256];
	for (unsigned n = 1; n <= 64; n++) {
		const uint64_t m = isa_mask(n), min = UINT64_C(1) << (n - 1);
		for (unsigned i = 0; i < NELEM; i++) {
			a[i] = (i & 3) == 0 ? m : (i & 3) == 1 ? min : i & m;
			b[i] = (i & 3) == 0 ? m : (i & 3) == 1 ? m : 0;
		}
		/* (2^n - 1)^2 = 1 mod 2^n, signed or not. */
		isa_cmd c = harness_cmd(h, ISA_MUL, n, false);
		cr_assert(harness_check(h, &c, a, b, NULL, false, why, sizeof why), "%s", why);
		harness_get(h, c.d, n, d);
		cr_assert_eq(d[0], 1 & m, "mul.u%u: all ones squared", n);
		/* Signed: MIN / -1 = MIN, MIN % -1 = 0; x / 0 = -1, x % 0 = x. */
		c = harness_cmd(h, ISA_DIVREM, n, true);
		cr_assert(harness_check(h, &c, a, b, NULL, false, why, sizeof why), "%s", why);
		harness_get(h, c.d, n, d);
		harness_get(h, c.d2, n, r);
		for (unsigned i = 0; i < NELEM; i++) {
			if ((i & 3) == 1)
				cr_assert(d[i] == min && r[i] == 0,
					  "divrem.i%u: MIN / -1", n);
			if ((i & 3) >= 2)
				cr_assert(d[i] == m && r[i] == a[i],
					  "divrem.i%u: %llx / 0", n, (unsigned long long)a[i]);
		}
		/* Unsigned: x / 0 = all ones, x % 0 = x. */
		c = harness_cmd(h, ISA_DIVREM, n, false);
		cr_assert(harness_check(h, &c, a, b, NULL, false, why, sizeof why), "%s", why);
		harness_get(h, c.d, n, d);
		harness_get(h, c.d2, n, r);
		for (unsigned i = 2; i < NELEM; i += 4)
			cr_assert(d[i] == m && r[i] == a[i], "divrem.u%u: x / 0", n);
	}
	harness_free(h);
}

/* Every cycle count, built but not run, against Table 1. */
Test(mul_div, table1_cycles)
{
	harness *h = harness_new(1024, BL);
	isa_prog p;
	isa_prog_init(&p);
	for (unsigned k = 0; k < 4; k++)
		for (unsigned n = 1; n <= 64; n++)
			for (int sg = 0; sg < 2; sg++) {
				isa_cmd c = harness_cmd(h, all_ops[k], n, sg);
				cr_assert_null(isa_check(&c, h->W, h->B, NULL));
				isa_prog_clear(&p);
				cr_assert_eq(isa_build(&c, h->B, &p), 0);
				const uint64_t want = table1(c.op, n, sg);
				cr_assert_eq(p.n, want, "%s.%c%u: %zu micro-ops, Table 1 says %llu",
					     name_of(c.op), sg ? 'i' : 'u', n, p.n,
					     (unsigned long long)want);
				cr_assert_eq(isa_baseline_cycles(&c, h->B), want);
			}
	isa_prog_free(&p);
	harness_free(h);
}

/* White box: mul builds the whole 2n-bit product, as the baseline of
 * Table 1 does, with the high half in its scratch rows H (the first n
 * scratch rows unsigned, the second n signed).  Signed, the product is
 * X * Y with X = (b < 0 ? -a : a) wrapped to n bits and Y = |b| unsigned,
 * which is a * b except for MIN * negative. */
static unsigned __int128 full_product(uint64_t a, uint64_t b, unsigned n, bool sg)
{
	const uint64_t m = isa_mask(n);
	unsigned __int128 p;
	if (!sg) {
		p = (unsigned __int128)a * b;
	} else {
		const bool neg = (b >> (n - 1)) & 1;
		const uint64_t x = neg ? (0 - a) & m : a, y = neg ? (0 - b) & m : b;
		p = (unsigned __int128)((__int128)isa_sext(x, n) * (__int128)y);
	}
	return n == 64 ? p : p & (((unsigned __int128)1 << (2 * n)) - 1);
}

Test(mul_div, mul_full_product)
{
	harness *h = harness_new(WL, BL);
	uint64_t a[NELEM], b[NELEM], lo[NELEM], hi[NELEM];
	char why[256];
	for (unsigned n = 1; n <= 64; n++)
		for (int sg = 0; sg < 2; sg++) {
			isa_cmd c = harness_cmd(h, ISA_MUL, n, sg);
			edge_pairs(a, b, n, 900 + n);
			cr_assert(harness_check(h, &c, a, b, NULL, false, why, sizeof why), "%s", why);
			harness_get(h, c.d, n, lo);
			harness_get(h, c.scratch + (sg ? n : 0), n, hi);
			for (unsigned i = 0; i < NELEM; i++) {
				unsigned __int128 got = ((unsigned __int128)hi[i] << n) | lo[i];
				cr_assert(got == full_product(a[i], b[i], n, sg),
					  "mul.%c%u: high half of 0x%llx * 0x%llx",
					  sg ? 'i' : 'u', n, (unsigned long long)a[i],
					  (unsigned long long)b[i]);
			}
		}
	harness_free(h);
}

/* Fill every wordline of both arrays with random bits. */
static void fill_junk(harness *h, uint64_t seed)
{
	uint64_t s = seed;
	for (unsigned arr = 0; arr < 2; arr++)
		for (unsigned w = 0; w < h->W; w++)
			*sram_row(h->m, arr, w) = harness_rand(&s) & h->m->tail;
}

/* Stepping one micro-op at a time leaves exactly the state a full run
 * leaves: every wordline, the carry and the tag. */
Test(mul_div, step_equals_run)
{
	const unsigned widths[] = {1, 2, 3, 17, 64};
	uint64_t a[NELEM], b[NELEM];
	isa_prog p;
	isa_prog_init(&p);
	for (unsigned k = 0; k < 4; k++)
		for (unsigned wi = 0; wi < 5; wi++)
			for (int sg = 0; sg < 2; sg++) {
				const unsigned n = widths[wi];
				harness *run = harness_new(WL, BL), *step = harness_new(WL, BL);
				isa_cmd c = harness_cmd(run, all_ops[k], n, sg);
				harness_values(a, NELEM, n, 11 * n);
				harness_values(b, NELEM, n, 13 * n);
				fill_junk(run, n);
				fill_junk(step, n);
				harness_put(run, c.a, n, a);
				harness_put(run, c.b, n, b);
				harness_put(step, c.a, n, a);
				harness_put(step, c.b, n, b);
				isa_prog_clear(&p);
				cr_assert_eq(isa_build(&c, BL, &p), 0);
				sram_run(run->m, NULL, p.u, p.n);
				for (size_t i = 0; i < p.n; i++)
					sram_step(step->m, NULL, &p.u[i]);
				for (unsigned arr = 0; arr < 2; arr++) {
					for (unsigned w = 0; w < WL; w++)
						cr_assert_eq(*sram_row(run->m, arr, w), *sram_row(step->m, arr, w),
							     "%s.%c%u: wordline %u differs", name_of(c.op),
							     sg ? 'i' : 'u', n, w);
					cr_assert_eq(*sram_latch_words(run->m, arr, SRAM_CARRY),
						     *sram_latch_words(step->m, arr, SRAM_CARRY));
					cr_assert_eq(*sram_latch_words(run->m, arr, SRAM_TAG),
						     *sram_latch_words(step->m, arr, SRAM_TAG));
				}
				harness_free(run);
				harness_free(step);
			}
	isa_prog_free(&p);
}

static bool in_rows(unsigned w, unsigned base, unsigned count)
{
	return base != ISA_NONE && w >= base && w < base + count;
}

/* With random bits everywhere beforehand, the results are right, and the
 * only wordlines that change are the outputs and the declared scratch:
 * the sources survive, and isa_rules' scratch_rows is what is used. */
Test(mul_div, footprint)
{
	harness *h = harness_new(WL, BL);
	uint64_t a[NELEM], b[NELEM];
	static uint64_t before[2][WL];
	char why[256];
	for (unsigned k = 0; k < 4; k++)
		for (unsigned n = 1; n <= 64; n += (n < 8 ? 1 : 7))
			for (int sg = 0; sg < 2; sg++) {
				isa_cmd c = harness_cmd(h, all_ops[k], n, sg);
				isa_rules r;
				cr_assert_null(isa_check(&c, WL, BL, &r));
				edge_pairs(a, b, n, 31 * n);
				fill_junk(h, 1000 * k + 2 * n + (unsigned)sg);
				harness_put(h, c.a, n, a);
				harness_put(h, c.b, n, b);
				for (unsigned arr = 0; arr < 2; arr++)
					for (unsigned w = 0; w < WL; w++)
						before[arr][w] = *sram_row(h->m, arr, w);
				cr_assert(harness_check(h, &c, a, b, NULL, false, why, sizeof why),
					  "%s.%c%u over junk: %s", name_of(c.op), sg ? 'i' : 'u', n, why);
				for (unsigned arr = 0; arr < 2; arr++)
					for (unsigned w = 0; w < WL; w++) {
						if (in_rows(w, c.d, n) || in_rows(w, c.d2, n) ||
						    in_rows(w, c.scratch, r.scratch_rows))
							continue;
						cr_assert_eq(*sram_row(h->m, arr, w), before[arr][w],
							     "%s.%c%u wrote wordline %u outside its footprint",
							     name_of(c.op), sg ? 'i' : 'u', n, w);
					}
			}
	harness_free(h);
}

/* Bitlines outside the enable mask keep every bit; enabled ones get the
 * reference result. */
Test(mul_div, disabled_bitlines_untouched)
{
	harness *h = harness_new(WL, BL);
	uint64_t a[NELEM], b[NELEM], d[NELEM], d2[NELEM];
	static uint64_t before[2][WL];
	isa_prog p;
	isa_prog_init(&p);
	for (unsigned k = 0; k < 4; k++)
		for (int sg = 0; sg < 2; sg++) {
			const unsigned n = 13 + 8 * k;
			isa_cmd c = harness_cmd(h, all_ops[k], n, sg);
			harness_values(a, NELEM, n, 71 + k);
			harness_values(b, NELEM, n, 73 + k);
			fill_junk(h, 5 + k);
			harness_put(h, c.a, n, a);
			harness_put(h, c.b, n, b);
			for (unsigned i = 0; i < NELEM; i++)
				sram_enable_set(h->m, i / BL, i % BL, i % 3 != 0);
			for (unsigned arr = 0; arr < 2; arr++)
				for (unsigned w = 0; w < WL; w++)
					before[arr][w] = *sram_row(h->m, arr, w);
			isa_prog_clear(&p);
			cr_assert_eq(isa_build(&c, BL, &p), 0);
			sram_run(h->m, NULL, p.u, p.n);
			harness_get(h, c.d, n, d);
			if (c.d2 != ISA_NONE)
				harness_get(h, c.d2, n, d2);
			for (unsigned i = 0; i < NELEM; i++) {
				const uint64_t bit = UINT64_C(1) << (i % BL);
				if (i % 3 == 0) {
					for (unsigned w = 0; w < WL; w++)
						cr_assert_eq(*sram_row(h->m, i / BL, w) & bit,
							     before[i / BL][w] & bit,
							     "disabled bitline %u changed at wordline %u", i, w);
					continue;
				}
				uint64_t r2 = 0;
				cr_assert_eq(d[i], isa_ref_elem(&c, a[i], b[i], false, NULL, &r2));
				if (c.d2 != ISA_NONE)
					cr_assert_eq(d2[i], r2);
			}
			for (unsigned arr = 0; arr < 2; arr++)
				sram_enable_all(h->m, arr);
		}
	isa_prog_free(&p);
	harness_free(h);
}

/* A packed layout on h's array: a, b, d, [d2], then all the remaining
 * wordlines as scratch.  Does isa_check accept it? */
static const char *check_packed(harness *h, unsigned op, unsigned n, bool sg,
				isa_rules *r)
{
	isa_cmd c = harness_cmd(h, op, n, sg);
	c.scratch = (uint16_t)((op == ISA_DIVREM ? 4 : 3) * n);
	c.scratch_rows = (uint16_t)(h->W > c.scratch ? h->W - c.scratch : 0);
	return isa_check(&c, h->W, h->B, r);
}

/* The widest command of each kind on 256 and 512 wordlines, as
 * doc/commands/mul-div.md tabulates them: total wordlines are 4n (mul.u),
 * 5n (mul.i), 7n - 2 (div, rem, divrem .u) and 7n (.i). */
Test(mul_div, widest_that_fits)
{
	const struct { unsigned op; bool sg; unsigned max256; } t[] = {
		{ISA_MUL, false, 64}, {ISA_MUL, true, 51},
		{ISA_DIV, false, 36}, {ISA_DIV, true, 36},
		{ISA_REM, false, 36}, {ISA_REM, true, 36},
		{ISA_DIVREM, false, 36}, {ISA_DIVREM, true, 36},
	};
	harness *h256 = harness_new(256, BL), *h512 = harness_new(512, BL);
	for (unsigned i = 0; i < sizeof t / sizeof t[0]; i++)
		for (unsigned n = 1; n <= 64; n++) {
			isa_rules r;
			const char *e = check_packed(h256, t[i].op, n, t[i].sg, &r);
			if (n <= t[i].max256) {
				cr_assert_null(e, "%s.%c%u should fit 256 wordlines: %s",
					       name_of(t[i].op), t[i].sg ? 'i' : 'u', n, e);
			} else {
				cr_assert_not_null(e, "%s.%c%u cannot fit 256 wordlines",
						   name_of(t[i].op), t[i].sg ? 'i' : 'u', n);
				cr_assert(strstr(e, "scratch") != NULL, "%s", e);
			}
			cr_assert_null(check_packed(h512, t[i].op, n, t[i].sg, &r),
				       "%s.%c%u should fit 512 wordlines",
				       name_of(t[i].op), t[i].sg ? 'i' : 'u', n);
		}
	harness_free(h256);
	harness_free(h512);
}

/* Signed 64-bit divide on a 256-wordline array: a, b and d take 192
 * wordlines and the 64 left are far from the 256 scratch rows needed. */
Test(mul_div, refuse_wide_divide_on_256)
{
	harness *h = harness_new(256, BL);
	isa_rules r;
	const char *e = check_packed(h, ISA_DIV, 64, true, &r);
	cr_assert_not_null(e);
	cr_assert_str_eq(e, "not enough scratch wordlines for this width");
	cr_assert_eq(r.scratch_rows, 256u);
	e = check_packed(h, ISA_DIVREM, 64, false, &r);
	cr_assert_not_null(e);
	cr_assert_eq(r.scratch_rows, 3u * 64 - 2);
	harness_free(h);
}

/* The outputs are written while the sources are still read. */
Test(mul_div, overlap_refused)
{
	harness *h = harness_new(256, BL);
	for (unsigned k = 0; k < 4; k++) {
		isa_rules r;
		cr_assert_null(check_packed(h, all_ops[k], 8, false, &r));
		isa_cmd c = harness_cmd(h, all_ops[k], 8, false);
		c.d = c.a;
		const char *e = isa_check(&c, h->W, h->B, NULL);
		cr_assert_not_null(e, "%s with d = a", name_of(c.op));
		cr_assert(strstr(e, "overlaps") != NULL, "%s", e);
		c.d = (uint16_t)(c.b + 4); /* d half over b */
		cr_assert_not_null(isa_check(&c, h->W, h->B, NULL));
		if (all_ops[k] == ISA_DIVREM) {
			c = harness_cmd(h, all_ops[k], 8, false);
			c.d2 = (uint16_t)(c.a + 4); /* r over a */
			cr_assert_not_null(isa_check(&c, h->W, h->B, NULL));
		}
	}
	harness_free(h);
}
