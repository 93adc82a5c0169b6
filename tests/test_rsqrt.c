/* SPDX-License-Identifier: MIT */
/*
 * test_rsqrt.c: rsqrt on .f32, .f16, .bf16 (isa/rsqrt.c), both modes.
 *
 * 1. The micro-program equals the reference isa_fp_rsqrt bit for bit:
 *    every f16 and bf16 input, and f32 inputs over every class
 *    (fp_cases); whole, and through a controller (data-dependent
 *    latency), which must give the same bits in no more cycles; the
 *    baseline program's length is isa_baseline_cycles.
 * 2. The specials: NaN and negative inputs give the canonical NaN, +-0
 *    gives +-inf, +inf gives +0, a subnormal counts as zero in hardware
 *    mode.
 * 3. Accuracy of the estimate and its Newton step against the host's
 *    1/sqrt over positive normal inputs (doc/commands/cordic.md).
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "fp_cases.h"
#include "isa_harness.h"

static const unsigned fmts[] = {ISA_FMT_F32, ISA_FMT_F16, ISA_FMT_BF16};

static isa_cmd rsqrt_cmd(harness *h, unsigned fmt, unsigned flags)
{
	const isa_fpfmt *f = isa_fpfmt_of(fmt);
	isa_cmd c = harness_cmd_fmt(h, ISA_RSQRT, fmt, f->width, true);
	c.flags = (uint8_t)flags;
	return c;
}

/* Run a[0..count) in batches of the harness's elements; mode as given. */
static void check_values(harness *h, const isa_cmd *c, const uint64_t *a,
			 size_t count, harness_mode mode)
{
	char why[256];
	const uint64_t base = isa_baseline_cycles(c, h->B);
	for (size_t at = 0; at < count; at += h->count) {
		uint64_t *v = calloc(h->count, sizeof *v);
		for (uint64_t i = 0; i < h->count; i++)
			v[i] = a[(at + i) % count];
		cr_assert(harness_check3(h, c, v, NULL, NULL, NULL, mode, why, sizeof why),
			  "rsqrt.%s flags %u: %s", isa_fpfmt_of(c->fmt)->name, c->flags, why);
		if (mode == HARNESS_CTL)
			cr_assert_leq(h->cycles, base);
		else
			cr_assert_eq(h->cycles, base, "%llu cycles, isa_baseline_cycles says %llu",
				     (unsigned long long)h->cycles, (unsigned long long)base);
		free(v);
	}
}

/* Every 16-bit pattern. */
static void check_exhaustive(unsigned fmt)
{
	harness *h = harness_new(1024, 1024);
	uint64_t *a = malloc(65536 * sizeof *a);
	for (unsigned i = 0; i < 65536; i++)
		a[i] = i;
	for (unsigned flags = 0; flags <= ISA_FL_IEEE; flags++) {
		isa_cmd c = rsqrt_cmd(h, fmt, flags);
		check_values(h, &c, a, 65536, HARNESS_RUN);
	}
	free(a);
	harness_free(h);
}

Test(rsqrt, f16_exhaustive) { check_exhaustive(ISA_FMT_F16); }
Test(rsqrt, bf16_exhaustive) { check_exhaustive(ISA_FMT_BF16); }

Test(rsqrt, f32_cases)
{
	harness *h = harness_new(1024, 1024);
	const size_t count = 4 * h->count;
	uint64_t *a = malloc(count * sizeof *a), *b = malloc(count * sizeof *b);
	fp_cases(ISA_FMT_F32, 3, a, b, count);
	for (unsigned i = 0; i < fp_case_edge_count(); i++)
		a[i] = fp_case_edge(ISA_FMT_F32, i);
	for (unsigned flags = 0; flags <= ISA_FL_IEEE; flags++) {
		isa_cmd c = rsqrt_cmd(h, ISA_FMT_F32, flags);
		check_values(h, &c, a, count, HARNESS_RUN);
	}
	free(a);
	free(b);
	harness_free(h);
}

/* A controller skips work no bitline needs; the bits do not change. */
Test(rsqrt, data_dependent_same_bits)
{
	harness *h = harness_new(1024, 64);
	uint64_t a[128], b[128];
	for (unsigned f = 0; f < 3; f++)
		for (unsigned flags = 0; flags <= ISA_FL_IEEE; flags++) {
			isa_cmd c = rsqrt_cmd(h, fmts[f], flags);
			fp_cases(fmts[f], 10 + f, a, b, h->count);
			check_values(h, &c, a, h->count, HARNESS_CTL);
			for (unsigned i = 0; i < h->count; i++) /* positive normals */
				a[i] = (a[i] & isa_mask(c.width - 1)) | UINT64_C(1) << (c.width - 2);
			check_values(h, &c, a, h->count, HARNESS_CTL);
		}
	harness_free(h);
}

Test(rsqrt, specials)
{
	harness *h = harness_new(1024, 64);
	const isa_fpfmt *f = isa_fpfmt_of(ISA_FMT_F32);
	const uint64_t inf = 0x7f800000, sign = 0x80000000, nan = isa_fp_nan(ISA_FMT_F32);
	const uint64_t in[] = {0, sign, inf, sign | inf, nan, 0xff812345, 1, sign | 1,
			       0x3f800000 | sign};
	const uint64_t hw[] = {inf, sign | inf, 0, nan, nan, nan, inf, sign | inf, nan};
	uint64_t a[128] = {0}, d[128];
	for (unsigned flags = 0; flags <= ISA_FL_IEEE; flags++) {
		isa_cmd c = rsqrt_cmd(h, ISA_FMT_F32, flags);
		for (unsigned i = 0; i < 128; i++)
			a[i] = in[i % 9];
		check_values(h, &c, a, 128, HARNESS_RUN);
		harness_get(h, c.d, f->width, d);
		for (unsigned i = 0; i < 9; i++) {
			if (flags && (i == 6 || i == 7)) /* IEEE: a subnormal is a number */
				continue;
			cr_assert_eq(d[i], hw[i], "rsqrt(0x%llx) = 0x%llx, want 0x%llx",
				     (unsigned long long)in[i], (unsigned long long)d[i],
				     (unsigned long long)hw[i]);
		}
		cr_assert(flags == 0 || (d[6] != inf && (d[6] >> 23) > 0x7f),
			  "IEEE rsqrt of the smallest subnormal is a large finite number");
		cr_assert_eq(d[7], flags ? nan : (sign | inf));
	}
	harness_free(h);
}

/* The largest relative error against 1/sqrt over positive normal inputs:
 * a mantissa sweep over a few binades. */
static double max_rel_error(unsigned fmt)
{
	harness *h = harness_new(1024, 1024);
	const isa_fpfmt *f = isa_fpfmt_of(fmt);
	isa_cmd c = rsqrt_cmd(h, fmt, 0);
	uint64_t *a = malloc(h->count * sizeof *a), *d = malloc(h->count * sizeof *d);
	char why[256];
	double worst = 0;
	for (unsigned e = f->bias - 3; e <= f->bias + 2; e++) {
		for (uint64_t i = 0; i < h->count; i++)
			a[i] = (uint64_t)e << f->mbits |
			       ((i * isa_mask(f->mbits)) / (h->count - 1));
		cr_assert(harness_check3(h, &c, a, NULL, NULL, NULL, HARNESS_RUN, why,
					 sizeof why), "%s", why);
		harness_get(h, c.d, f->width, d);
		for (uint64_t i = 0; i < h->count; i++) {
			const double x = isa_fp_to_double(fmt, a[i]);
			const double want = 1 / sqrt(x);
			const double err = fabs(isa_fp_to_double(fmt, d[i]) - want) / want;
			worst = err > worst ? err : worst;
		}
	}
	free(a);
	free(d);
	harness_free(h);
	return worst;
}

Test(rsqrt, accuracy)
{
	static const double bound[] = {1.8e-3, 3e-3, 1e-2};
	for (unsigned f = 0; f < 3; f++) {
		const double e = max_rel_error(fmts[f]);
		cr_log_info("rsqrt.%s: max relative error %.3g", isa_fpfmt_of(fmts[f])->name, e);
		cr_assert(e <= bound[f], "rsqrt.%s: max relative error %.3g, bound %.3g",
			  isa_fpfmt_of(fmts[f])->name, e, bound[f]);
	}
}
