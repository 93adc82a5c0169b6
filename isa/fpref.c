/* SPDX-License-Identifier: MIT */
/*
 * fpref.c: the floating-point reference.  IEEE binary arithmetic on bit
 * patterns, in plain C integer code, one implementation generic over the
 * format's (ebits, mbits) so that f32, f16 and bf16 share it.
 *
 * Every operation unpacks its operands into (sign, significand, exponent)
 * with value = sig * 2^exp, computes the exact result (or an exact prefix
 * with a sticky bit jammed into the lowest bit), and hands it to one
 * rounding routine, fp_round_pack.  That routine is where the two modes
 * differ (doc/FLOAT.md):
 *   - full IEEE (ISA_FL_IEEE): gradual underflow, the result rounded once
 *     on the subnormal grid;
 *   - hardware mode: x86 SSE with MXCSR.DAZ and FTZ set.  DAZ: a
 *     subnormal input reads as a zero of the same sign (fp_unpack).  FTZ:
 *     x86 detects tininess AFTER rounding (Intel SDM vol. 1, 4.9.1.5):
 *     the result rounded to the format's precision with an unbounded
 *     exponent is below the smallest normal; then the result is a zero of
 *     the same sign.
 * NaN results are the canonical quiet NaN (sign 0, exponent all ones, top
 * fraction bit only); no payload propagates.
 *
 * No host floating-point arithmetic here: isa_fp_to_double builds a
 * double with ldexp and isa_fp_from_double takes one apart with frexp,
 * both exact.
 */
#include "isa.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum fp_class { FPV_ZERO, FPV_FINITE, FPV_INF, FPV_NAN };

/* An unpacked value: sign * sig * 2^exp when FPV_FINITE (sig != 0). */
typedef struct fp_val {
	enum fp_class cls;
	unsigned sign;
	int exp;
	uint64_t sig;
} fp_val;

/* The format's parameters, with what the code needs derived once. */
typedef struct fp_fmt {
	unsigned width, mbits, prec;  /* prec = mbits + 1 */
	int emin, emax;               /* unbiased exponents of the normals */
	uint64_t frac_mask, exp_all;  /* exp_all: the all-ones exponent field */
	bool ieee;                    /* ISA_FL_IEEE */
} fp_fmt;

static fp_fmt fp_fmt_get(unsigned fmt, unsigned flags)
{
	const isa_fpfmt *f = isa_fpfmt_of(fmt);
	if (!f) {
		/* A programming error: isa_check refuses such commands. */
		fprintf(stderr, "isa/fpref.c: format %u is not a float format\n", fmt);
		abort();
	}
	fp_fmt r = {
		.width = f->width, .mbits = f->mbits, .prec = f->mbits + 1,
		.emin = 1 - (int)f->bias,
		.emax = (int)((1u << f->ebits) - 2) - (int)f->bias,
		.frac_mask = isa_mask(f->mbits),
		.exp_all = isa_mask(f->ebits),
		.ieee = (flags & ISA_FL_IEEE) != 0,
	};
	return r;
}

static uint64_t fp_sign_bit(const fp_fmt *f) { return UINT64_C(1) << (f->width - 1); }

/* The canonical quiet NaN: sign 0, exponent all ones, top fraction bit. */
static uint64_t fp_nan_of(const fp_fmt *f)
{
	return f->exp_all << f->mbits | UINT64_C(1) << (f->mbits - 1);
}

uint64_t isa_fp_nan(unsigned fmt)
{
	const fp_fmt f = fp_fmt_get(fmt, ISA_FL_IEEE);
	return fp_nan_of(&f);
}

static uint64_t fp_inf(const fp_fmt *f, unsigned sign)
{
	return (sign ? fp_sign_bit(f) : 0) | f->exp_all << f->mbits;
}

static uint64_t fp_zero(const fp_fmt *f, unsigned sign)
{
	return sign ? fp_sign_bit(f) : 0;
}

static bool fp_is_subnormal(const fp_fmt *f, uint64_t bits)
{
	return ((bits >> f->mbits) & f->exp_all) == 0 && (bits & f->frac_mask) != 0;
}

/* DAZ: in hardware mode a subnormal input reads as zero. */
static fp_val fp_unpack(const fp_fmt *f, uint64_t bits)
{
	fp_val v = {FPV_FINITE, (unsigned)(bits >> (f->width - 1)) & 1, 0, 0};
	const uint64_t e = (bits >> f->mbits) & f->exp_all, m = bits & f->frac_mask;
	if (e == f->exp_all) {
		v.cls = m ? FPV_NAN : FPV_INF;
	} else if (e == 0) {
		if (m == 0 || !f->ieee) {
			v.cls = FPV_ZERO;
		} else {
			v.sig = m;
			v.exp = f->emin - (int)f->mbits;
		}
	} else {
		v.sig = m | UINT64_C(1) << f->mbits;
		v.exp = (int)e - (int)f->mbits + f->emin - 1;
	}
	return v;
}

static unsigned fp_msb(uint64_t x) { return 63u - (unsigned)__builtin_clzll(x); }

/* sig >> drop, rounded to nearest even.  sticky: nonzero bits below bit 0
 * of sig (only meaningful when drop >= 1). */
static uint64_t fp_rne_shift(uint64_t sig, bool sticky, unsigned drop)
{
	if (drop == 0)
		return sig;
	if (drop > 64)
		return 0;
	if (drop == 64) /* bit 63 is the half; anything below breaks the tie */
		return (sig >> 63) && ((sig << 1) != 0 || sticky);
	uint64_t q = sig >> drop, rem = sig & isa_mask(drop);
	uint64_t half = UINT64_C(1) << (drop - 1);
	if (rem > half || (rem == half && (sticky || (q & 1))))
		q++;
	return q;
}

/* Round sign * (sig + sticky) * 2^exp into the format and pack it.
 * sticky: nonzero bits below sig's lowest bit; callers keep at least two
 * spare bits below the result's round bit, so it may also be jammed into
 * bit 0 of sig.  sig == 0 is an exact zero of that sign. */
static uint64_t fp_round_pack(const fp_fmt *f, unsigned sign, int exp,
			      uint64_t sig, bool sticky)
{
	if (sig == 0)
		return fp_zero(f, sign);
	const unsigned lead = 63 - fp_msb(sig);
	sig <<= lead;
	const int top = exp - (int)lead + 63;     /* value in [2^top, 2^(top+1)) */
	/* Rounded to prec bits with an unbounded exponent: the x86 tininess
	 * test, and the result whenever it is not tiny. */
	uint64_t q = fp_rne_shift(sig, sticky, 64 - f->prec);
	int qtop = top;
	if (q >> f->prec) {
		q >>= 1;
		qtop++;
	}
	if (qtop > f->emax)
		return fp_inf(f, sign);
	if (qtop >= f->emin)
		return fp_zero(f, sign) | (uint64_t)(qtop - f->emin + 1) << f->mbits
		       | (q & f->frac_mask);
	if (!f->ieee)
		return fp_zero(f, sign); /* FTZ */
	/* Gradual underflow: round once on the subnormal grid, whose quantum
	 * is 2^(emin - mbits).  A carry out gives 1 << mbits, which is the
	 * smallest normal's encoding. */
	q = fp_rne_shift(sig, sticky, 64 - f->prec + (unsigned)(f->emin - top));
	return fp_zero(f, sign) | q;
}

static uint64_t fp_pack_val(const fp_fmt *f, const fp_val *v)
{
	switch (v->cls) {
	case FPV_ZERO: return fp_zero(f, v->sign);
	case FPV_INF: return fp_inf(f, v->sign);
	case FPV_NAN: return fp_nan_of(f);
	default: return fp_round_pack(f, v->sign, v->exp, v->sig, false);
	}
}

/* Shift right by d, jamming what falls off into bit 0. */
static uint64_t fp_shift_jam(uint64_t x, unsigned d)
{
	if (d == 0)
		return x;
	if (d >= 64)
		return x != 0;
	return (x >> d) | ((x & isa_mask(d)) != 0);
}

/* x + y for two finite nonzero values.  Both significands (at most 24
 * bits) move up by 39 bits so that the aligned sum keeps >= 2 guard bits
 * below the round bit; the smaller-exponent one moves right by the
 * exponent difference with the bits it loses jammed into bit 0 (exact
 * for a difference <= 1, where massive cancellation can happen). */
static uint64_t fp_add_finite(const fp_fmt *f, const fp_val *x, const fp_val *y)
{
	const int big = x->exp > y->exp ? x->exp : y->exp;
	uint64_t X = fp_shift_jam(x->sig << 39, (unsigned)(big - x->exp));
	uint64_t Y = fp_shift_jam(y->sig << 39, (unsigned)(big - y->exp));
	if (x->sign == y->sign)
		return fp_round_pack(f, x->sign, big - 39, X + Y, false);
	if (X == Y) /* an exact zero is +0 when rounding to nearest */
		return fp_zero(f, 0);
	if (X > Y)
		return fp_round_pack(f, x->sign, big - 39, X - Y, false);
	return fp_round_pack(f, y->sign, big - 39, Y - X, false);
}

static uint64_t fp_add_val(const fp_fmt *f, fp_val x, fp_val y)
{
	if (x.cls == FPV_NAN || y.cls == FPV_NAN)
		return fp_nan_of(f);
	if (x.cls == FPV_INF || y.cls == FPV_INF) {
		if (x.cls == FPV_INF && y.cls == FPV_INF && x.sign != y.sign)
			return fp_nan_of(f);
		return fp_inf(f, x.cls == FPV_INF ? x.sign : y.sign);
	}
	if (x.cls == FPV_ZERO && y.cls == FPV_ZERO)
		return fp_zero(f, x.sign & y.sign);
	if (x.cls == FPV_ZERO)
		return fp_pack_val(f, &y);
	if (y.cls == FPV_ZERO)
		return fp_pack_val(f, &x);
	return fp_add_finite(f, &x, &y);
}

uint64_t isa_fp_add(unsigned fmt, unsigned flags, uint64_t a, uint64_t b)
{
	const fp_fmt f = fp_fmt_get(fmt, flags);
	return fp_add_val(&f, fp_unpack(&f, a), fp_unpack(&f, b));
}

uint64_t isa_fp_sub(unsigned fmt, unsigned flags, uint64_t a, uint64_t b)
{
	const fp_fmt f = fp_fmt_get(fmt, flags);
	fp_val y = fp_unpack(&f, b);
	y.sign ^= 1;
	return fp_add_val(&f, fp_unpack(&f, a), y);
}

uint64_t isa_fp_mul(unsigned fmt, unsigned flags, uint64_t a, uint64_t b)
{
	const fp_fmt f = fp_fmt_get(fmt, flags);
	const fp_val x = fp_unpack(&f, a), y = fp_unpack(&f, b);
	const unsigned sign = x.sign ^ y.sign;
	if (x.cls == FPV_NAN || y.cls == FPV_NAN)
		return fp_nan_of(&f);
	if (x.cls == FPV_INF || y.cls == FPV_INF)
		return x.cls == FPV_ZERO || y.cls == FPV_ZERO ? fp_nan_of(&f) : fp_inf(&f, sign);
	if (x.cls == FPV_ZERO || y.cls == FPV_ZERO)
		return fp_zero(&f, sign);
	/* The product of two <= 24-bit significands is exact in 64 bits. */
	return fp_round_pack(&f, sign, x.exp + y.exp, x.sig * y.sig, false);
}

uint64_t isa_fp_div(unsigned fmt, unsigned flags, uint64_t a, uint64_t b)
{
	const fp_fmt f = fp_fmt_get(fmt, flags);
	const fp_val x = fp_unpack(&f, a), y = fp_unpack(&f, b);
	const unsigned sign = x.sign ^ y.sign;
	if (x.cls == FPV_NAN || y.cls == FPV_NAN)
		return fp_nan_of(&f);
	if (x.cls == FPV_INF)
		return y.cls == FPV_INF ? fp_nan_of(&f) : fp_inf(&f, sign);
	if (y.cls == FPV_INF)
		return fp_zero(&f, sign);
	if (y.cls == FPV_ZERO)
		return x.cls == FPV_ZERO ? fp_nan_of(&f) : fp_inf(&f, sign);
	if (x.cls == FPV_ZERO)
		return fp_zero(&f, sign);
	/* Dividend's top bit at 62, divisor's at 31: the quotient has at
	 * least 31 bits, 7 more than the widest precision, and a nonzero
	 * remainder is jammed into its bit 0. */
	const unsigned sa = 62 - fp_msb(x.sig), sb = 31 - fp_msb(y.sig);
	const uint64_t n = x.sig << sa, d = y.sig << sb;
	const uint64_t q = n / d, r = n % d;
	return fp_round_pack(&f, sign, (x.exp - (int)sa) - (y.exp - (int)sb),
			     q | (r != 0), false);
}

uint64_t isa_fp_madd(unsigned fmt, unsigned flags, uint64_t a, uint64_t b,
		     uint64_t c)
{
	return isa_fp_add(fmt, flags, isa_fp_mul(fmt, flags, a, b), c);
}

/* a * b + c rounded once.  The exact product (at most 48 bits) and c
 * both move up to put their top bit at 61; the one of smaller magnitude
 * order moves right by the difference with what it loses jammed into bit
 * 0 (exact for a difference <= 1, where massive cancellation can happen;
 * a larger one cancels at most one bit, and the round bit stays 36 bits
 * above the jam), so that the sum, below 2^63, rounds as the exact one. */
uint64_t isa_fp_fma(unsigned fmt, unsigned flags, uint64_t a, uint64_t b,
		    uint64_t c)
{
	const fp_fmt f = fp_fmt_get(fmt, flags);
	const fp_val x = fp_unpack(&f, a), y = fp_unpack(&f, b), z = fp_unpack(&f, c);
	const unsigned sp = x.sign ^ y.sign;
	if (x.cls == FPV_NAN || y.cls == FPV_NAN || z.cls == FPV_NAN)
		return fp_nan_of(&f);
	const bool pinf = x.cls == FPV_INF || y.cls == FPV_INF;
	if (pinf && (x.cls == FPV_ZERO || y.cls == FPV_ZERO))
		return fp_nan_of(&f);
	if (pinf)
		return z.cls == FPV_INF && z.sign != sp ? fp_nan_of(&f) : fp_inf(&f, sp);
	if (z.cls == FPV_INF)
		return fp_inf(&f, z.sign);
	if (x.cls == FPV_ZERO || y.cls == FPV_ZERO)
		return z.cls == FPV_ZERO ? fp_zero(&f, sp & z.sign) : fp_pack_val(&f, &z);
	uint64_t P = x.sig * y.sig;
	const unsigned lp = 61 - fp_msb(P);
	const int ep = x.exp + y.exp - (int)lp;
	P <<= lp;
	if (z.cls == FPV_ZERO)
		return fp_round_pack(&f, sp, ep, P, false);
	const unsigned lz = 61 - fp_msb(z.sig);
	const int ez = z.exp - (int)lz;
	uint64_t Z = z.sig << lz;
	const int big = ep > ez ? ep : ez;
	P = fp_shift_jam(P, (unsigned)(big - ep));
	Z = fp_shift_jam(Z, (unsigned)(big - ez));
	if (sp == z.sign)
		return fp_round_pack(&f, sp, big, P + Z, false);
	if (P == Z)
		return fp_zero(&f, 0);
	return P > Z ? fp_round_pack(&f, sp, big, P - Z, false)
		     : fp_round_pack(&f, z.sign, big, Z - P, false);
}

/* ---- compare, min, max ---- */

/* A key that orders the non-NaN values of the format: -0 and +0 both
 * map to 0 when zeros_equal, else -0 < +0.  Hardware mode reads a
 * subnormal as the zero of its sign (DAZ). */
static int64_t fp_order_key(const fp_fmt *f, uint64_t bits, bool zeros_equal)
{
	uint64_t mag = bits & (fp_sign_bit(f) - 1);
	if (!f->ieee && fp_is_subnormal(f, bits))
		mag = 0;
	if (!(bits & fp_sign_bit(f)))
		return (int64_t)mag;
	return zeros_equal ? -(int64_t)mag : -(int64_t)mag - 1;
}

static bool fp_is_nan(const fp_fmt *f, uint64_t bits)
{
	return ((bits >> f->mbits) & f->exp_all) == f->exp_all && (bits & f->frac_mask);
}

int isa_fp_cmp(unsigned fmt, unsigned flags, uint64_t a, uint64_t b)
{
	const fp_fmt f = fp_fmt_get(fmt, flags);
	if (fp_is_nan(&f, a) || fp_is_nan(&f, b))
		return 2;
	const int64_t ka = fp_order_key(&f, a, true), kb = fp_order_key(&f, b, true);
	return ka < kb ? -1 : ka > kb;
}

/* min (want_max false) or max, -0 < +0; hardware mode returns a
 * subnormal input as the zero of its sign. */
static uint64_t fp_minmax(unsigned fmt, unsigned flags, uint64_t a, uint64_t b,
			  bool want_max)
{
	const fp_fmt f = fp_fmt_get(fmt, flags);
	if (fp_is_nan(&f, a) || fp_is_nan(&f, b))
		return fp_nan_of(&f);
	const int64_t ka = fp_order_key(&f, a, false), kb = fp_order_key(&f, b, false);
	uint64_t r = ((ka < kb) != want_max ? a : b) & isa_mask(f.width);
	if (!f.ieee && fp_is_subnormal(&f, r))
		r &= fp_sign_bit(&f);
	return r;
}

uint64_t isa_fp_min(unsigned fmt, unsigned flags, uint64_t a, uint64_t b)
{
	return fp_minmax(fmt, flags, a, b, false);
}

uint64_t isa_fp_max(unsigned fmt, unsigned flags, uint64_t a, uint64_t b)
{
	return fp_minmax(fmt, flags, a, b, true);
}

uint64_t isa_fp_rsqrt(unsigned fmt, unsigned flags, uint64_t a)
{
	const fp_fmt f = fp_fmt_get(fmt, flags);
	a &= isa_mask(f.width);
	const fp_val x = fp_unpack(&f, a);
	if (x.cls == FPV_NAN || (x.sign && x.cls != FPV_ZERO))
		return fp_nan_of(&f);
	if (x.cls == FPV_ZERO) /* hardware mode: a subnormal too (DAZ) */
		return fp_inf(&f, x.sign);
	if (x.cls == FPV_INF)
		return 0;
	/* The fast inverse square root: the exponent field halved and
	 * negated by one integer subtraction, then one Newton step
	 * y1 = y0 (1.5 - (0.5 (x y0)) y0), each operation rounded in the
	 * format with the command's flags (isa/rsqrt.c does the same).
	 * x y0 is about sqrt(x), its half about sqrt(x) / 2, and that times
	 * y0 about 1/2: all stay normal for every normal x, where 0.5 x and
	 * y0 * y0 would leave the normal range at its ends and be flushed
	 * in hardware mode. */
	const uint64_t magic = fmt == ISA_FMT_F32 ? 0x5f3759df
			       : fmt == ISA_FMT_F16 ? 0x59bb : 0x5f37;
	const uint64_t y0 = magic - (a >> 1);
	const uint64_t half = (uint64_t)(1 - f.emin - 1) << f.mbits;
	const uint64_t three_halves = (uint64_t)(1 - f.emin) << f.mbits
				      | UINT64_C(1) << (f.mbits - 1);
	const uint64_t h = isa_fp_mul(fmt, flags, a, y0);
	const uint64_t u = isa_fp_mul(fmt, flags, half, h);
	const uint64_t v = isa_fp_mul(fmt, flags, y0, u);
	const uint64_t w = isa_fp_sub(fmt, flags, three_halves, v);
	return isa_fp_mul(fmt, flags, y0, w);
}

/* ---- conversions ---- */

/* The most positive and most negative value of an integer type. */
static uint64_t fp_int_max(unsigned width, bool sgn)
{
	return sgn ? isa_mask(width - 1) : isa_mask(width);
}

static uint64_t fp_int_min(unsigned width, bool sgn)
{
	return sgn ? (UINT64_C(1) << (width - 1)) & isa_mask(width) : 0;
}

/* sign * mag, rounded toward zero already, saturated to the type. */
static uint64_t fp_int_saturate(unsigned sign, uint64_t mag, bool overflow,
				unsigned width, bool sgn)
{
	if (sign) {
		if (!sgn)
			return 0;
		if (overflow || mag > (UINT64_C(1) << (width - 1)))
			return fp_int_min(width, sgn);
		return (0 - mag) & isa_mask(width);
	}
	if (overflow || mag > fp_int_max(width, sgn))
		return fp_int_max(width, sgn);
	return mag;
}

/* A float to an integer of width bits scaled by 2^fbits (fbits > 0 for a
 * .qN destination), rounded toward zero, saturated, NaN to the largest. */
static uint64_t fp_to_int(const fp_fmt *f, uint64_t bits, unsigned width,
			  bool sgn, unsigned fbits)
{
	const fp_val x = fp_unpack(f, bits);
	switch (x.cls) {
	case FPV_NAN: return fp_int_max(width, sgn);
	case FPV_INF: return fp_int_saturate(x.sign, 0, true, width, sgn);
	case FPV_ZERO: return 0;
	default: break;
	}
	const int e = x.exp + (int)fbits;
	uint64_t mag = 0;
	bool overflow = false;
	if (e >= 0) {
		overflow = fp_msb(x.sig) + (unsigned)e >= 64;
		mag = overflow ? 0 : x.sig << e;
	} else if (e > -64) {
		mag = x.sig >> -e;
	}
	return fp_int_saturate(x.sign, mag, overflow, width, sgn);
}

/* The source of a cvt as sign * mag * 2^-fbits (an integer or a .qN). */
static void fp_int_source(const isa_cmd *c, uint64_t a, unsigned *sign,
			  uint64_t *mag)
{
	const uint64_t v = a & isa_mask(c->swidth);
	const bool sgn = c->ssigned || c->sfmt == ISA_FMT_FIX;
	*sign = sgn && ((v >> (c->swidth - 1)) & 1);
	*mag = *sign ? (0 - (uint64_t)isa_sext(v, c->swidth)) : v;
}

static unsigned fp_fix_frac(unsigned fmt, unsigned width)
{
	return fmt == ISA_FMT_FIX ? width - ISA_FIX_INT : 0;
}

/* Integer or fixed to integer or fixed: rescale (truncating toward zero
 * when fraction bits go away) and saturate; int to int of the same kind
 * of value keeps the low bits (sign or zero extension, or truncation). */
static uint64_t fp_cvt_int_int(const isa_cmd *c, uint64_t a)
{
	unsigned sign;
	uint64_t mag;
	if (c->sfmt == ISA_FMT_INT && c->fmt == ISA_FMT_INT) {
		uint64_t v = a & isa_mask(c->swidth);
		if (c->ssigned)
			v = (uint64_t)isa_sext(v, c->swidth);
		return v & isa_mask(c->width);
	}
	fp_int_source(c, a, &sign, &mag);
	const unsigned fs = fp_fix_frac(c->sfmt, c->swidth);
	const unsigned fd = fp_fix_frac(c->fmt, c->width);
	const bool sgn = c->is_signed || c->fmt == ISA_FMT_FIX;
	bool overflow = false;
	if (fd >= fs) {
		const unsigned up = fd - fs;
		overflow = mag && fp_msb(mag) + up >= 64;
		mag = overflow ? 0 : mag << up;
	} else {
		mag = fs - fd >= 64 ? 0 : mag >> (fs - fd);
	}
	return fp_int_saturate(sign, mag, overflow, c->width, sgn);
}

uint64_t isa_fp_cvt(const isa_cmd *c, uint64_t a)
{
	const bool to_float = isa_fpfmt_of(c->fmt) != NULL;
	const bool from_float = isa_fpfmt_of(c->sfmt) != NULL;
	if (!to_float && !from_float)
		return fp_cvt_int_int(c, a);
	if (!to_float) {
		const fp_fmt s = fp_fmt_get(c->sfmt, c->flags);
		return fp_to_int(&s, a & isa_mask(s.width), c->width,
				 c->is_signed || c->fmt == ISA_FMT_FIX,
				 fp_fix_frac(c->fmt, c->width));
	}
	const fp_fmt d = fp_fmt_get(c->fmt, c->flags);
	if (from_float) {
		const fp_fmt s = fp_fmt_get(c->sfmt, c->flags);
		const fp_val x = fp_unpack(&s, a & isa_mask(s.width));
		return fp_pack_val(&d, &x);
	}
	unsigned sign;
	uint64_t mag;
	fp_int_source(c, a, &sign, &mag);
	if (mag == 0)
		return 0;
	return fp_round_pack(&d, sign, -(int)fp_fix_frac(c->sfmt, c->swidth), mag, false);
}

double isa_fp_to_double(unsigned fmt, uint64_t bits)
{
	const fp_fmt f = fp_fmt_get(fmt, ISA_FL_IEEE);
	const fp_val x = fp_unpack(&f, bits);
	switch (x.cls) {
	case FPV_NAN: return NAN;
	case FPV_INF: return x.sign ? -INFINITY : INFINITY;
	case FPV_ZERO: return x.sign ? -0.0 : 0.0;
	default: return ldexp(x.sign ? -(double)x.sig : (double)x.sig, x.exp);
	}
}

uint64_t isa_fp_from_double(unsigned fmt, unsigned flags, double v)
{
	const fp_fmt f = fp_fmt_get(fmt, flags);
	if (isnan(v))
		return fp_nan_of(&f);
	const unsigned sign = signbit(v) != 0;
	if (isinf(v))
		return fp_inf(&f, sign);
	if (v == 0)
		return fp_zero(&f, sign);
	/* v = m * 2^e with 0.5 <= |m| < 1: m * 2^53 is an integer, exactly. */
	int e;
	const double m = frexp(fabs(v), &e);
	return fp_round_pack(&f, sign, e - 53, (uint64_t)ldexp(m, 53), false);
}

/* ---- the F-class commands ---- */

static bool fp_predicate(unsigned op, int cmp)
{
	switch (op) {
	case ISA_FEQ: return cmp == 0;
	case ISA_FNE: return cmp != 0;
	case ISA_FLT: return cmp == -1;
	case ISA_FLE: return cmp == -1 || cmp == 0;
	case ISA_FGT: return cmp == 1;
	default: return cmp == 1 || cmp == 0; /* FGE */
	}
}

uint64_t isa_ref_fp(const isa_cmd *c, uint64_t a, uint64_t b, uint64_t c3,
		    bool *tag_out)
{
	const unsigned fmt = c->fmt, fl = c->flags;
	const fp_fmt f = fp_fmt_get(fmt, fl);
	switch (c->op) {
	case ISA_FADD: return isa_fp_add(fmt, fl, a, b);
	case ISA_FSUB: return isa_fp_sub(fmt, fl, a, b);
	case ISA_FMUL: return isa_fp_mul(fmt, fl, a, b);
	case ISA_FMADD: return isa_fp_madd(fmt, fl, a, b, c3);
	case ISA_FMA: return isa_fp_fma(fmt, fl, a, b, c3);
	case ISA_FDIV: return isa_fp_div(fmt, fl, a, b);
	case ISA_FEQ: case ISA_FNE: case ISA_FLT:
	case ISA_FLE: case ISA_FGT: case ISA_FGE: {
		const bool t = fp_predicate(c->op, isa_fp_cmp(fmt, fl, a, b));
		if (tag_out)
			*tag_out = t;
		return t;
	}
	case ISA_FMIN: return isa_fp_min(fmt, fl, a, b);
	case ISA_FMAX: return isa_fp_max(fmt, fl, a, b);
	case ISA_FABS: return a & ~fp_sign_bit(&f);
	case ISA_FNEG: return a ^ fp_sign_bit(&f);
	case ISA_RSQRT: return isa_fp_rsqrt(fmt, fl, a);
	default:
		fprintf(stderr, "isa/fpref.c: %s is not a floating-point command\n",
			isa_info_of(c->op) ? isa_info_of(c->op)->name : "?");
		abort();
	}
}
