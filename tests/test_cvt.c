/* SPDX-License-Identifier: MIT */
/*
 * test_cvt.c: the conversions (isa/cvt.c) against the reference
 * (isa_fp_cvt), in hardware and full IEEE mode:
 *   - every one of the 65536 f16 and bf16 inputs to every float format,
 *     to i32, u32, i16, u8, i64 and to .q16 and .q32;
 *   - f32 sampled densely: every exponent with edge and random
 *     fractions, both signs, and operand pairs over every class;
 *   - every integer width 1..64, signed and unsigned, to each float
 *     format, on edge and random values;
 *   - .q32 and .q16 to and from f32, and every other pair of integer and
 *     fixed-point types on a grid of widths;
 *   - run whole, stepped, and through a controller (bit-identical);
 *   - cycle counts equal to isa_cycles_cvt, some written out.
 */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "fp_cases.h"
#include "family.h"
#include "isa_harness.h"

#define WL 256

/* A type: enum isa_fmt, width, signedness. */
struct ty {
	unsigned fmt, w;
	bool sgn;
};

static const struct ty T_F32 = {ISA_FMT_F32, 32, true};
static const struct ty T_F16 = {ISA_FMT_F16, 16, true};
static const struct ty T_BF16 = {ISA_FMT_BF16, 16, true};

static const char *ty_name(struct ty t, char *buf, size_t size)
{
	return isa_type_name(t.fmt, t.w, t.sgn, buf, size);
}

/* cvt d, a with a at row 0, d right above it, the scratch above d. */
static isa_cmd cvt_cmd(harness *h, struct ty d, struct ty s, unsigned flags)
{
	isa_cmd c = harness_cmd_fmt(h, ISA_CVT, d.fmt, d.w, d.sgn);
	c.sfmt = (uint8_t)s.fmt;
	c.swidth = (uint8_t)s.w;
	c.ssigned = s.sgn;
	c.flags = (uint8_t)flags;
	c.a = 0;
	c.d = (uint16_t)s.w;
	c.scratch = (uint16_t)(s.w + d.w);
	c.scratch_rows = (uint16_t)(h->W - c.scratch);
	return c;
}

static void check_cvt(harness *h, const isa_cmd *c, const uint64_t *a,
		      harness_mode mode, const char *what)
{
	char why[256], dn[16], sn[16];
	const bool ok = harness_check3(h, c, a, NULL, NULL, NULL, mode, why,
				       sizeof why);
	ty_name((struct ty){c->fmt, c->width, c->is_signed}, dn, sizeof dn);
	ty_name((struct ty){c->sfmt, c->swidth, c->ssigned}, sn, sizeof sn);
	cr_assert(ok, "cvt.%s.%s (%s, %s): %s", dn, sn,
		  c->flags & ISA_FL_IEEE ? "ieee" : "hw", what, why);
	if (mode != HARNESS_CTL)
		cr_assert_eq(h->cycles, isa_baseline_cycles(c, h->B),
			     "cvt.%s.%s: %llu cycles, the formula says %llu",
			     dn, sn, (unsigned long long)h->cycles,
			     (unsigned long long)isa_baseline_cycles(c, h->B));
}

/* Every 16-bit input of src, to each destination, in both modes. */
static void check_all_16bit(struct ty src)
{
	const struct ty dsts[] = {
		T_F32, T_F16, T_BF16, {ISA_FMT_INT, 32, true},
		{ISA_FMT_INT, 32, false}, {ISA_FMT_INT, 16, true},
		{ISA_FMT_INT, 8, false}, {ISA_FMT_INT, 64, true},
		{ISA_FMT_FIX, 16, true}, {ISA_FMT_FIX, 32, true},
	};
	harness *h = harness_new(WL, 1024);
	uint64_t *a = malloc(h->count * 8);
	for (size_t k = 0; k < sizeof dsts / sizeof dsts[0]; k++)
		for (unsigned flags = 0; flags <= ISA_FL_IEEE; flags++)
			for (uint64_t base = 0; base < 65536; base += h->count) {
				const isa_cmd c = cvt_cmd(h, dsts[k], src, flags);
				for (uint64_t i = 0; i < h->count; i++)
					a[i] = base + i;
				check_cvt(h, &c, a, HARNESS_RUN, "all inputs");
			}
	free(a);
	harness_free(h);
}

Test(cvt, exhaustive_f16) { check_all_16bit(T_F16); }
Test(cvt, exhaustive_bf16) { check_all_16bit(T_BF16); }

/* f32 inputs: for each of the 256 exponents, both signs, fractions that
 * matter to a conversion: 0, 1, all ones, the half, and random ones that
 * are exact ties, or one ulp either side of a tie, for f16 (13 bits
 * dropped) and bf16 (16 bits dropped); then random bits. */
static void f32_sample(uint64_t *a, uint64_t count, uint64_t seed)
{
	uint64_t s = seed;
	for (uint64_t i = 0; i < count; i++) {
		const uint64_t e = (i / 16) % 256, sign = (i / 8) & 1;
		const uint64_t r = harness_rand(&s), k = (i + seed) % 16;
		const uint64_t tie16 = 0x1000, tiebf = 0x8000;
		const uint64_t fr[16] = {
			0, 1, 0x7fffff, 0x400000,
			(r & 0x7fe000) | tie16, (r & 0x7fe000) | (tie16 - 1),
			(r & 0x7fe000) | (tie16 + 1), (r & 0x7fe000) | 0x1fff,
			(r & 0x7f0000) | tiebf, (r & 0x7f0000) | (tiebf - 1),
			(r & 0x7f0000) | (tiebf + 1), (r & 0x7f0000) | 0xffff,
			r & 0x7fffff, r & 0x7fffff, (r >> 23) & 0x7fffff, r & 0xff,
		};
		a[i] = sign << 31 | e << 23 | fr[k];
	}
}

static void check_f32_to(struct ty d)
{
	harness *h = harness_new(WL, 1024);
	uint64_t *a = malloc(h->count * 8), *b = malloc(h->count * 8);
	for (unsigned flags = 0; flags <= ISA_FL_IEEE; flags++)
		for (unsigned round = 0; round < 10; round++) {
			const isa_cmd c = cvt_cmd(h, d, T_F32, flags);
			if (round < 7)
				f32_sample(a, h->count, round);
			else
				fp_cases(ISA_FMT_F32, round, a, b, h->count);
			check_cvt(h, &c, a, round == 9 ? HARNESS_CTL : HARNESS_RUN,
				  "f32 sample");
		}
	free(a);
	free(b);
	harness_free(h);
}

Test(cvt, f32_to_floats)
{
	check_f32_to(T_F32);
	check_f32_to(T_F16);
	check_f32_to(T_BF16);
}

Test(cvt, f32_to_ints)
{
	const struct ty d[] = {{ISA_FMT_INT, 32, true}, {ISA_FMT_INT, 32, false},
			       {ISA_FMT_INT, 64, true}, {ISA_FMT_INT, 64, false},
			       {ISA_FMT_INT, 16, true}, {ISA_FMT_INT, 8, false},
			       {ISA_FMT_INT, 1, true}, {ISA_FMT_INT, 1, false},
			       {ISA_FMT_INT, 24, true}, {ISA_FMT_INT, 25, false}};
	for (size_t k = 0; k < sizeof d / sizeof d[0]; k++)
		check_f32_to(d[k]);
}

Test(cvt, f32_to_fixed)
{
	for (unsigned w = 4; w <= 64; w += w < 16 ? 1 : 12)
		check_f32_to((struct ty){ISA_FMT_FIX, w, true});
	check_f32_to((struct ty){ISA_FMT_FIX, 32, true});
	check_f32_to((struct ty){ISA_FMT_FIX, 16, true});
}

/* Integers and .qN values of every width into the float formats, edge
 * and random values. */
static void check_widths_to_floats(unsigned fmt, unsigned wmin, bool both_signs)
{
	harness *h = harness_new(WL, 256);
	uint64_t *a = malloc(h->count * 8);
	const struct ty fl[] = {T_F32, T_F16, T_BF16};
	for (unsigned w = wmin; w <= 64; w++)
		for (int sg = !both_signs; sg < 2; sg++)
			for (size_t k = 0; k < 3; k++)
				for (unsigned flags = 0; flags <= ISA_FL_IEEE; flags++) {
					const struct ty s = {fmt, w, sg};
					const isa_cmd c = cvt_cmd(h, fl[k], s, flags);
					harness_values(a, h->count, w, 11 * w + flags);
					check_cvt(h, &c, a, HARNESS_RUN, "edge and random values");
				}
	free(a);
	harness_free(h);
}

Test(cvt, ints_to_floats) { check_widths_to_floats(ISA_FMT_INT, 1, true); }
Test(cvt, fixed_to_floats) { check_widths_to_floats(ISA_FMT_FIX, ISA_FIX_INT + 1, false); }

/* .q32 and .q16 to f32 over many values, and back. */
Test(cvt, q32_q16_f32_round_trip)
{
	harness *h = harness_new(WL, 1024);
	uint64_t *a = malloc(h->count * 8);
	const struct ty q[] = {{ISA_FMT_FIX, 32, true}, {ISA_FMT_FIX, 16, true}};
	for (size_t k = 0; k < 2; k++)
		for (unsigned flags = 0; flags <= ISA_FL_IEEE; flags++)
			for (unsigned round = 0; round < 4; round++) {
				isa_cmd c = cvt_cmd(h, T_F32, q[k], flags);
				harness_values(a, h->count, q[k].w, 77 + round);
				check_cvt(h, &c, a, HARNESS_RUN, "q to f32");
				c = cvt_cmd(h, q[k], T_F32, flags);
				f32_sample(a, h->count, round);
				check_cvt(h, &c, a, HARNESS_RUN, "f32 to q");
			}
	free(a);
	harness_free(h);
}

/* Integer and fixed-point pairs: wrap, extension, rescaling, saturation. */
Test(cvt, ints_and_fixed)
{
	const unsigned ws[] = {1, 2, 3, 4, 5, 7, 8, 13, 16, 31, 32, 33, 63, 64};
	harness *h = harness_new(WL, 64);
	uint64_t *a = malloc(h->count * 8);
	for (size_t i = 0; i < sizeof ws / sizeof ws[0]; i++)
		for (size_t j = 0; j < sizeof ws / sizeof ws[0]; j++)
			for (unsigned kinds = 0; kinds < 16; kinds++) {
				const unsigned sf = kinds & 1 ? ISA_FMT_FIX : ISA_FMT_INT;
				const unsigned df = kinds & 2 ? ISA_FMT_FIX : ISA_FMT_INT;
				const struct ty s = {sf, ws[i], sf == ISA_FMT_FIX || (kinds & 4)};
				const struct ty d = {df, ws[j], df == ISA_FMT_FIX || (kinds & 8)};
				if ((sf == ISA_FMT_FIX && s.w <= ISA_FIX_INT) ||
				    (df == ISA_FMT_FIX && d.w <= ISA_FIX_INT))
					continue;
				const isa_cmd c = cvt_cmd(h, d, s, 0);
				harness_values(a, h->count, s.w, 5 * i + j + kinds);
				check_cvt(h, &c, a, HARNESS_RUN, "int and fixed");
			}
	free(a);
	harness_free(h);
}

/* Stepping one micro-op at a time and running through a controller give
 * the whole run's bits. */
Test(cvt, step_and_controller)
{
	harness *h = harness_new(WL, 64);
	uint64_t *a = malloc(h->count * 8), *b = malloc(h->count * 8);
	const struct ty ty[] = {T_F32, T_F16, T_BF16, {ISA_FMT_INT, 32, true},
				{ISA_FMT_INT, 16, false}, {ISA_FMT_FIX, 32, true}};
	for (size_t i = 0; i < 6; i++)
		for (size_t j = 0; j < 6; j++)
			for (unsigned flags = 0; flags <= ISA_FL_IEEE; flags++) {
				const isa_cmd c = cvt_cmd(h, ty[j], ty[i], flags);
				if (isa_fpfmt_of(ty[i].fmt))
					fp_cases(ty[i].fmt, i + j, a, b, h->count);
				else
					harness_values(a, h->count, ty[i].w, i + j);
				check_cvt(h, &c, a, HARNESS_STEP, "stepped");
				check_cvt(h, &c, a, HARNESS_CTL, "controller");
			}
	free(a);
	free(b);
	harness_free(h);
}

/* With a controller, narrow data skips work: f32 values of one binade
 * to i32 need one barrel amount, so most stages go. */
Test(cvt, controller_skips)
{
	harness *h = harness_new(WL, 64);
	uint64_t a[128];
	for (unsigned i = 0; i < h->count; i++)
		a[i] = (uint64_t)(127 + 10) << 23 | (i * 0x1357u & 0x7fffff);
	const isa_cmd c = cvt_cmd(h, (struct ty){ISA_FMT_INT, 32, true}, T_F32, 0);
	check_cvt(h, &c, a, HARNESS_CTL, "one binade");
	cr_assert_lt(h->cycles, isa_baseline_cycles(&c, h->B));
	harness_free(h);
}

/* Some cycle counts written out (doc/commands/fpcmp-cvt.md). */
Test(cvt, cycles)
{
	harness *h = harness_new(WL, 64);
	const struct { struct ty d, s; unsigned flags; uint64_t cycles; } want[] = {
		{{ISA_FMT_INT, 64, true}, {ISA_FMT_INT, 32, true}, 0, 64},
		{{ISA_FMT_INT, 32, true}, T_F32, 0, 266},
		{T_F32, {ISA_FMT_INT, 32, true}, 0, 317},
		{T_F16, T_F32, 0, 98},
		{T_F32, T_F16, ISA_FL_IEEE, 203},
		{T_F32, T_BF16, 0, 4 + 32 + 3},
		{T_F32, T_BF16, ISA_FL_IEEE, 4 + 32},
		{T_F16, T_F16, 0, 4 + 16 + 3},
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		const isa_cmd c = cvt_cmd(h, want[i].d, want[i].s, want[i].flags);
		cr_assert_eq(isa_baseline_cycles(&c, h->B), want[i].cycles,
			     "case %zu: %llu", i,
			     (unsigned long long)isa_baseline_cycles(&c, h->B));
	}
	harness_free(h);
}

/* Bad operands: a source width that is not its float format's, d on top
 * of a, too little scratch. */
Test(cvt, check_refuses)
{
	harness *h = harness_new(WL, 64);
	isa_cmd c = cvt_cmd(h, T_F32, T_F16, 0);
	cr_assert_null(isa_check(&c, WL, 64, NULL));
	c.swidth = 32;
	cr_assert_not_null(isa_check(&c, WL, 64, NULL));
	c = cvt_cmd(h, T_F32, (struct ty){ISA_FMT_INT, 32, true}, 0);
	c.d = 16;
	cr_assert_not_null(isa_check(&c, WL, 64, NULL));
	c = cvt_cmd(h, T_F32, (struct ty){ISA_FMT_INT, 32, true}, 0);
	c.scratch_rows = 8;
	cr_assert_not_null(isa_check(&c, WL, 64, NULL));
	c = cvt_cmd(h, (struct ty){ISA_FMT_FIX, 32, true}, T_BF16, 0);
	c.width = 3;
	cr_assert_not_null(isa_check(&c, WL, 64, NULL));
	harness_free(h);
}
