/* SPDX-License-Identifier: MIT */
/*
 * test_cordic.c: sin, cos, exp, log and sqrt on .qN (isa/cordic.c).
 *
 * 1. The micro-programs equal the scalar reference (isa/cordic_ref.c) bit
 *    for bit: many widths and iteration counts, random and edge values
 *    over the whole format, run whole and one micro-op at a time, d
 *    apart from a and d = a; and the program's length is the formula of
 *    isa_baseline_cycles.
 * 2. Accuracy against libm: a dense sweep of each function's valid range
 *    (doc/commands/cordic.md) for q32 and q16 at k = 17, run on the SRAM,
 *    stays within the documented bounds; outside the range, the
 *    documented saturation.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "isa_harness.h"

static const unsigned ops[] = {ISA_SIN, ISA_COS, ISA_EXP, ISA_LOG, ISA_SQRT};
#define NOPS (sizeof ops / sizeof ops[0])

/* a at 0, d at n (or at 0 when in_place), scratch after both. */
static isa_cmd cordic_cmd(const harness *h, unsigned op, unsigned n,
			  unsigned k, bool in_place)
{
	isa_cmd c = {.op = (uint16_t)op, .width = (uint8_t)n, .is_signed = 1,
		     .fmt = ISA_FMT_FIX, .iters = (uint8_t)k, .c3 = ISA_NONE,
		     .d2 = ISA_NONE, .b = ISA_NONE, .a = 0,
		     .d = (uint16_t)(in_place ? 0 : n),
		     .scratch = (uint16_t)(2 * n)};
	c.scratch_rows = (uint16_t)(h->W - 2 * n);
	return c;
}

static void check_exact(harness *h, unsigned op, unsigned n, unsigned k,
			harness_mode mode, bool in_place, uint64_t seed)
{
	uint64_t *a = malloc(h->count * sizeof *a);
	char why[256];
	isa_cmd c = cordic_cmd(h, op, n, k, in_place);
	harness_values(a, h->count, n, seed);
	cr_assert(harness_check3(h, &c, a, NULL, NULL, NULL, mode, why, sizeof why),
		  "%s.q%u k=%u%s: %s", isa_info_of(op)->name, n, k,
		  in_place ? " in place" : "", why);
	cr_assert_eq(h->cycles, isa_baseline_cycles(&c, h->B),
		     "%s.q%u k=%u: %llu cycles, isa_baseline_cycles says %llu",
		     isa_info_of(op)->name, n, k, (unsigned long long)h->cycles,
		     (unsigned long long)isa_baseline_cycles(&c, h->B));
	free(a);
}

/* Every width from 4 to 64 at the default k, and every k from 1 to 60
 * at a few widths. */
static void check_op(unsigned op)
{
	harness *h = harness_new(512, 64);
	for (unsigned n = 4; n <= 64; n++)
		check_exact(h, op, n, ISA_CORDIC_DEFAULT, HARNESS_RUN, false, n);
	static const unsigned widths[] = {5, 16, 32, 64};
	for (unsigned w = 0; w < 4; w++)
		for (unsigned k = 1; k <= ISA_CORDIC_MAX; k++)
			check_exact(h, op, widths[w], k, HARNESS_RUN, false, 100 * k + w);
	harness_free(h);
}

Test(cordic, sin_exact) { check_op(ISA_SIN); }
Test(cordic, cos_exact) { check_op(ISA_COS); }
Test(cordic, exp_exact) { check_op(ISA_EXP); }
Test(cordic, log_exact) { check_op(ISA_LOG); }
Test(cordic, sqrt_exact) { check_op(ISA_SQRT); }

/* sram_step runs the same bits as sram_run; and d may be a. */
Test(cordic, stepped_and_in_place)
{
	harness *h = harness_new(256, 16);
	for (unsigned o = 0; o < NOPS; o++)
		for (unsigned k = 1; k <= 4; k++) {
			check_exact(h, ops[o], 12, k, HARNESS_STEP, false, 7 * k + o);
			check_exact(h, ops[o], 12, k, HARNESS_RUN, true, 11 * k + o);
			check_exact(h, ops[o], 24, k + 13, HARNESS_RUN, true, 13 * k + o);
		}
	harness_free(h);
}

/* ---- accuracy against libm ---- */

static double libm_of(unsigned op, double x)
{
	switch (op) {
	case ISA_SIN: return sin(x);
	case ISA_COS: return cos(x);
	case ISA_EXP: return exp(x);
	case ISA_LOG: return log(x);
	default: return sqrt(x);
	}
}

/* The valid range of each function (doc/commands/cordic.md). */
static void valid_range(unsigned op, unsigned n, double *lo, double *hi)
{
	const double top = 4.0 - ldexp(1.0, -(int)(n - ISA_FIX_INT));
	switch (op) {
	case ISA_EXP: *lo = -1.118; *hi = 1.118; break;
	case ISA_LOG: *lo = 0.107; *hi = top; break;
	case ISA_SQRT: *lo = 0.039; *hi = top; break;
	default: *lo = -4.0; *hi = top; break;
	}
}

typedef struct sweep {
	double max_abs, max_rel, at;
} sweep;

/* Run op on count points evenly spaced over [lo, hi] through the SRAM
 * (checked bit for bit against the reference) and measure the error of
 * the results against libm; the relative error only where |f| >= 1/16. */
static sweep sweep_range(unsigned op, unsigned n, unsigned k, double lo,
			 double hi, unsigned count)
{
	harness *h = harness_new(512, 1024);
	uint64_t *a = malloc(h->count * sizeof *a), *d = malloc(h->count * sizeof *d);
	isa_cmd c = cordic_cmd(h, op, n, k, false);
	sweep s = {0, 0, 0};
	char why[256];
	for (unsigned base = 0; base < count; base += (unsigned)h->count) {
		for (uint64_t i = 0; i < h->count; i++) {
			const double t = (double)(base + i) / (count - 1);
			a[i] = isa_fix_from_double(n, lo + (hi - lo) * (t > 1 ? 1 : t));
		}
		cr_assert(harness_check3(h, &c, a, NULL, NULL, NULL, HARNESS_RUN, why,
					 sizeof why), "%s", why);
		harness_get(h, c.d, n, d);
		for (uint64_t i = 0; i < h->count; i++) {
			const double x = isa_fix_to_double(n, a[i]);
			const double want = libm_of(op, x);
			const double err = fabs(isa_fix_to_double(n, d[i]) - want);
			if (err > s.max_abs)
				s.max_abs = err, s.at = x;
			if (fabs(want) >= 1.0 / 16 && err / fabs(want) > s.max_rel)
				s.max_rel = err / fabs(want);
		}
	}
	free(a);
	free(d);
	harness_free(h);
	return s;
}

/* The documented bounds at k = 17 (doc/commands/cordic.md). */
static double abs_bound(unsigned op, unsigned n)
{
	static const double q32[] = {2e-5, 2e-5, 1.2e-4, 8e-5, 1e-7};
	static const double q16[] = {1.5e-3, 1.5e-3, 1.5e-3, 7e-3, 2.5e-3};
	for (unsigned o = 0; o < NOPS; o++)
		if (ops[o] == op)
			return n == 32 ? q32[o] : q16[o];
	return 0;
}

static void check_accuracy(unsigned op)
{
	static const unsigned widths[] = {32, 16};
	for (unsigned w = 0; w < 2; w++) {
		double lo, hi;
		valid_range(op, widths[w], &lo, &hi);
		sweep s = sweep_range(op, widths[w], ISA_CORDIC_DEFAULT, lo, hi, 100000);
		cr_log_info("%s.q%u k=17: max abs error %.3g (at %.6f), max rel %.3g",
			    isa_info_of(op)->name, widths[w], s.max_abs, s.at, s.max_rel);
		cr_assert(s.max_abs <= abs_bound(op, widths[w]),
			  "%s.q%u: max abs error %.3g at %.6f, bound %.3g",
			  isa_info_of(op)->name, widths[w], s.max_abs, s.at,
			  abs_bound(op, widths[w]));
	}
}

Test(cordic, sin_accuracy) { check_accuracy(ISA_SIN); }
Test(cordic, cos_accuracy) { check_accuracy(ISA_COS); }
Test(cordic, exp_accuracy) { check_accuracy(ISA_EXP); }
Test(cordic, log_accuracy) { check_accuracy(ISA_LOG); }
Test(cordic, sqrt_accuracy) { check_accuracy(ISA_SQRT); }

/* ---- outside the valid range (doc/commands/cordic.md) ---- */

/* d for count points evenly spaced over [lo, hi], run on the SRAM. */
static void run_points(harness *h, const isa_cmd *c, double lo, double hi,
		       uint64_t *a, uint64_t *d)
{
	char why[256];
	for (uint64_t i = 0; i < h->count; i++)
		a[i] = isa_fix_from_double(c->width, lo + (hi - lo) * (double)i /
						     (double)(h->count - 1));
	cr_assert(harness_check3(h, c, a, NULL, NULL, NULL, HARNESS_RUN, why,
				 sizeof why), "%s", why);
	harness_get(h, c->d, c->width, d);
}

/* Every point of [lo, hi] gives the same result, within tol of want. */
static void check_saturates(unsigned op, double lo, double hi, double want,
			    double tol)
{
	harness *h = harness_new(512, 256);
	uint64_t a[512], d[512];
	isa_cmd c = cordic_cmd(h, op, 32, ISA_CORDIC_DEFAULT, false);
	run_points(h, &c, lo, hi, a, d);
	for (uint64_t i = 0; i < h->count; i++)
		cr_assert_eq(d[i], d[0], "%s(%f) = %f, %s(%f) = %f",
			     isa_info_of(op)->name, isa_fix_to_double(32, a[i]),
			     isa_fix_to_double(32, d[i]), isa_info_of(op)->name,
			     isa_fix_to_double(32, a[0]), isa_fix_to_double(32, d[0]));
	cr_assert(fabs(isa_fix_to_double(32, d[0]) - want) <= tol,
		  "%s saturates at %f, want %f", isa_info_of(op)->name,
		  isa_fix_to_double(32, d[0]), want);
	harness_free(h);
}

/* theta_max = sum of atanh(2^-i) over the 17 hyperbolic shifts. */
#define THETA_MAX_17 1.1181424979474680

Test(cordic, exp_saturates)
{
	check_saturates(ISA_EXP, 1.12, 3.9999, exp(THETA_MAX_17), 1.2e-4);
	check_saturates(ISA_EXP, -4.0, -1.12, exp(-THETA_MAX_17), 1.2e-4);
}

Test(cordic, log_saturates)
{
	check_saturates(ISA_LOG, -4.0, 0.1, -2 * THETA_MAX_17, 1e-6);
}

Test(cordic, sqrt_of_non_positive_is_zero)
{
	check_saturates(ISA_SQRT, -4.0, 0.0, 0.0, 0.0);
}

/* Below the valid range (0 < a < 0.039), sqrt is too large (never
 * below sqrt(a)) but stays in [0.098, 0.2]. */
Test(cordic, sqrt_below_range)
{
	harness *h = harness_new(512, 256);
	uint64_t a[512], d[512];
	isa_cmd c = cordic_cmd(h, ISA_SQRT, 32, ISA_CORDIC_DEFAULT, false);
	run_points(h, &c, 1e-9, 0.039, a, d);
	for (uint64_t i = 0; i < h->count; i++) {
		const double r = isa_fix_to_double(32, d[i]);
		cr_assert(r >= 0.098 && r <= 0.2 &&
			  r >= sqrt(isa_fix_to_double(32, a[i])) - 1e-6,
			  "sqrt(%g) = %g", isa_fix_to_double(32, a[i]), r);
	}
	harness_free(h);
}

/* k above 60 cannot be built (the parser's cordic=K refuses it). */
Test(cordic, too_many_iterations)
{
	harness *h = harness_new(512, 64);
	isa_cmd c = cordic_cmd(h, ISA_SIN, 16, ISA_CORDIC_MAX + 1, false);
	isa_prog p;
	isa_prog_init(&p);
	cr_assert_eq(isa_build(&c, h->B, &p), -1);
	isa_prog_free(&p);
	harness_free(h);
}
