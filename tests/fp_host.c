/* SPDX-License-Identifier: MIT */
/*
 * fp_host.c: see fp_host.h.
 *
 * Why the double path is exact: the operands of f16 (11-bit significand)
 * and bf16 (8 bits) are exact in double (53 bits) and the host computes
 * a + b, a * b, a / b in double, correctly rounded; fp_host_round then
 * rounds that once more to the format.  Rounding twice is innocuous for
 * + - * / when the wide precision q >= 2p + 2 (Figueroa, "When is double
 * rounding innocuous?", SIGNUM 1995): no exact result of these operations
 * on p-bit operands lies so close to a midpoint of the p-bit grid,
 * without being one, that its q-bit rounding lands on the midpoint.
 * Here q = 53 >= 24 (f16) and 18 (bf16).  It holds on the subnormal grid
 * too, which is coarser than the p-bit one.  madd is mul then add, each
 * step one such operation.  Conversions from 64-bit integers (which have
 * more than 53 bits) first round to odd at 53 bits, which makes the
 * second rounding exact as well (53 >= p + 2; Boldo & Melquiond).
 */
#include "fp_host.h"

#include <math.h>
#include <string.h>
#include <xmmintrin.h>

#if !defined(__SSE2__)
#error "tests/fp_host.c checks f32 against the x86 FPU (SSE, MXCSR)"
#endif

#include <immintrin.h>

#if defined(__clang__)
#if __clang_major__ >= 14
#define FP_HOST_FP16 1
#endif
#elif defined(__GNUC__) && __GNUC__ >= 12
#define FP_HOST_FP16 1
#endif

#define MXCSR_DAZ 0x0040u
#define MXCSR_FTZ 0x8000u
#define MXCSR_RC 0x6000u   /* rounding control: 00 = to nearest */

static bool force_double;

void fp_host_force_double(bool on) { force_double = on; }

static bool host_has_fp16(void)
{
#ifdef FP_HOST_FP16
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx512fp16") && __builtin_cpu_supports("avx512vl")
	       && !force_double;
#else
	return false;
#endif
}

static bool host_has_f16c(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("f16c") && !force_double;
}

const char *fp_host_f16_path(void)
{
	return host_has_fp16() ? "AVX512-FP16" : "double";
}

/* MXCSR for a mode: round to nearest, FTZ|DAZ in hardware mode. */
static unsigned csr_enter(unsigned flags)
{
	const unsigned old = _mm_getcsr();
	unsigned csr = old & ~(MXCSR_RC | MXCSR_DAZ | MXCSR_FTZ);
	if (!(flags & ISA_FL_IEEE))
		csr |= MXCSR_DAZ | MXCSR_FTZ;
	_mm_setcsr(csr);
	return old;
}

static void csr_leave(unsigned old) { _mm_setcsr(old); }

/* ---- format fields ---- */

static const isa_fpfmt *fmt_of(unsigned fmt) { return isa_fpfmt_of(fmt); }

static uint64_t sign_bit(const isa_fpfmt *f) { return UINT64_C(1) << (f->width - 1); }

static uint64_t exp_field(const isa_fpfmt *f, uint64_t bits)
{
	return (bits >> f->mbits) & isa_mask(f->ebits);
}

static bool is_nan(const isa_fpfmt *f, uint64_t bits)
{
	return exp_field(f, bits) == isa_mask(f->ebits) && (bits & isa_mask(f->mbits));
}

static bool is_subnormal(const isa_fpfmt *f, uint64_t bits)
{
	return exp_field(f, bits) == 0 && (bits & isa_mask(f->mbits));
}

/* DAZ at the format's boundary. */
static uint64_t daz(const isa_fpfmt *f, unsigned flags, uint64_t bits)
{
	if (!(flags & ISA_FL_IEEE) && is_subnormal(f, bits))
		return bits & sign_bit(f);
	return bits;
}

static float f32_of(uint64_t bits)
{
	const uint32_t u = (uint32_t)bits;
	float x;
	memcpy(&x, &u, sizeof x);
	return x;
}

static uint64_t bits_of_f32(float x)
{
	uint32_t u;
	memcpy(&u, &x, sizeof u);
	return u;
}

#ifdef FP_HOST_FP16
__attribute__((target("avx512fp16,avx512vl"))) static __m128h h_of(uint64_t bits)
{
	return _mm_castsi128_ph(_mm_cvtsi32_si128((int)(bits & 0xffff)));
}

__attribute__((target("avx512fp16,avx512vl"))) static uint64_t bits_of_h(__m128h x)
{
	return (uint64_t)_mm_cvtsi128_si32(_mm_castph_si128(x)) & 0xffff;
}
#endif

__attribute__((target("f16c"))) static float f16c_to_float(uint64_t bits)
{
	return _mm_cvtss_f32(_mm_cvtph_ps(_mm_cvtsi32_si128((int)(bits & 0xffff))));
}

__attribute__((target("f16c"))) static uint64_t f16c_from_float(float x)
{
	return (uint64_t)_mm_extract_epi16(
		       _mm_cvtps_ph(_mm_set_ss(x), _MM_FROUND_TO_NEAREST_INT), 0) & 0xffff;
}

/* ---- exact values and one rounding ---- */

/* A value of the format (exact) as a double, by ldexp of its fields. */
static double value_by_fields(const isa_fpfmt *f, uint64_t bits)
{
	const uint64_t e = exp_field(f, bits), m = bits & isa_mask(f->mbits);
	const double s = (bits & sign_bit(f)) ? -1.0 : 1.0;
	if (e == isa_mask(f->ebits))
		return m ? NAN : s * INFINITY;
	if (e == 0)
		return s * ldexp((double)m, 1 - (int)f->bias - (int)f->mbits);
	return s * ldexp((double)(m | UINT64_C(1) << f->mbits),
			 (int)e - (int)f->bias - (int)f->mbits);
}

double fp_host_value(unsigned fmt, unsigned flags, uint64_t bits)
{
	const isa_fpfmt *f = fmt_of(fmt);
	bits = daz(f, flags, bits);
	switch (fmt) {
	case ISA_FMT_F32: return (double)f32_of(bits);
	case ISA_FMT_BF16: return (double)f32_of(bits << 16);
	default: return host_has_f16c() ? (double)f16c_to_float(bits)
					: value_by_fields(f, bits);
	}
}

/* The bits of v, a value the format holds exactly (or inf, or 0). */
static uint64_t encode_exact(const isa_fpfmt *f, double v)
{
	const uint64_t sign = signbit(v) ? sign_bit(f) : 0;
	const double a = fabs(v);
	if (isinf(a))
		return sign | isa_mask(f->ebits) << f->mbits;
	if (a == 0)
		return sign;
	const int emin = 1 - (int)f->bias;
	const int e = ilogb(a);
	if (e < emin) /* subnormal: the fraction is a / 2^(emin - mbits) */
		return sign | (uint64_t)ldexp(a, (int)f->mbits - emin);
	const uint64_t sig = (uint64_t)ldexp(a, (int)f->mbits - e);
	return sign | (uint64_t)(e + (int)f->bias) << f->mbits | (sig & isa_mask(f->mbits));
}

/* v rounded to nearest even at the binary digit of weight 2^q. */
static double round_at(double v, int q)
{
	return ldexp(nearbyint(ldexp(v, -q)), q);
}

uint64_t fp_host_round(unsigned fmt, unsigned flags, double v)
{
	const isa_fpfmt *f = fmt_of(fmt);
	if (isnan(v))
		return isa_fp_nan(fmt);
	if (isinf(v) || v == 0)
		return encode_exact(f, v);
	const int emin = 1 - (int)f->bias;
	const int emax = (int)isa_mask(f->ebits) - 1 - (int)f->bias;
	const double maxn = ldexp(2.0 - ldexp(1.0, -(int)f->mbits), emax);
	/* Unbounded exponent: the result if not tiny, and x86's tininess. */
	double r = round_at(v, ilogb(v) - (int)f->mbits);
	if (fabs(r) > maxn)
		return encode_exact(f, copysign(INFINITY, v));
	if (fabs(r) < ldexp(1.0, emin)) {
		if (!(flags & ISA_FL_IEEE))
			return encode_exact(f, copysign(0.0, v));
		r = copysign(round_at(v, emin - (int)f->mbits), v);
	}
	return encode_exact(f, r);
}

bool fp_host_same(unsigned fmt, uint64_t ref, uint64_t host)
{
	const isa_fpfmt *f = fmt_of(fmt);
	if (is_nan(f, host))
		return ref == isa_fp_nan(fmt);
	return ref == host;
}

/* ---- arithmetic ---- */

/* Keeps x in an xmm register at this point of the program: no folding,
 * no contraction of a * b + c into an fma, no motion across the MXCSR
 * writes (volatile asm stays in order). */
static float keep_f(float x)
{
	__asm__ volatile("" : "+x"(x));
	return x;
}

static double keep_d(double x)
{
	__asm__ volatile("" : "+x"(x));
	return x;
}

static float f32_op(unsigned op, float x, float y)
{
	switch (op) {
	case ISA_FADD: return keep_f(x + y);
	case ISA_FSUB: return keep_f(x - y);
	case ISA_FMUL: return keep_f(x * y);
	default: return keep_f(x / y);
	}
}

/* f32 on the FPU, MXCSR set for the mode around the whole batch. */
static void f32_arith(unsigned op, unsigned flags, const uint64_t *a,
		      const uint64_t *b, const uint64_t *c, uint64_t *out, size_t n)
{
	const unsigned old = csr_enter(flags);
	for (size_t i = 0; i < n; i++) {
		const float x = keep_f(f32_of(a[i])), y = keep_f(f32_of(b[i]));
		float r;
		if (op == ISA_FMADD)
			r = f32_op(ISA_FADD, f32_op(ISA_FMUL, x, y), keep_f(f32_of(c[i])));
		else
			r = f32_op(op, x, y);
		out[i] = bits_of_f32(r);
	}
	csr_leave(old);
}

static double dbl_op(unsigned op, double x, double y)
{
	switch (op) {
	case ISA_FADD: return keep_d(x + y);
	case ISA_FSUB: return keep_d(x - y);
	case ISA_FMUL: return keep_d(x * y);
	default: return keep_d(x / y);
	}
}

/* The double path: exact operands, one double operation, one rounding. */
static uint64_t dbl_arith1(unsigned op, unsigned fmt, unsigned flags,
			   uint64_t a, uint64_t b)
{
	const double x = fp_host_value(fmt, flags, a), y = fp_host_value(fmt, flags, b);
	return fp_host_round(fmt, flags, dbl_op(op, x, y));
}

#ifdef FP_HOST_FP16
__attribute__((target("avx512fp16,avx512vl"))) static uint64_t h_op(unsigned op, uint64_t a,
							    uint64_t b)
{
	const __m128h x = h_of(a), y = h_of(b);
	switch (op) {
	case ISA_FADD: return bits_of_h(_mm_add_sh(x, y));
	case ISA_FSUB: return bits_of_h(_mm_sub_sh(x, y));
	case ISA_FMUL: return bits_of_h(_mm_mul_sh(x, y));
	default: return bits_of_h(_mm_div_sh(x, y));
	}
}

#define H_MINNORMAL 0x0400u  /* 2^-14 */
#define H_ONE 0x3c00u
#define H_UP 0x5c00u         /* 2^8 */
#define H_DOWN 0x1c00u       /* 2^-8 */
#define H_MINNORMAL_UP 0x2400u /* 2^-6 = 2^-14 * 2^8 */

/* For a product or quotient that AVX512-FP16 rounded (on the subnormal
 * grid) to the smallest normal: is it tiny after rounding with an
 * unbounded exponent?  The same operation with one operand scaled by 2^8
 * (exactly) lands among the normals, where the hardware's rounding is the
 * unbounded one. */
static bool h_tiny_scaled(unsigned op, uint64_t a, uint64_t b)
{
	uint64_t r;
	if (op == ISA_FMUL)
		r = (a & 0x7fff) <= (b & 0x7fff) ? h_op(op, h_op(ISA_FMUL, a, H_UP), b)
						 : h_op(op, a, h_op(ISA_FMUL, b, H_UP));
	else if ((a & 0x7fff) <= H_ONE)
		r = h_op(op, h_op(ISA_FMUL, a, H_UP), b);
	else
		r = h_op(op, a, h_op(ISA_FMUL, b, H_DOWN));
	return (r & 0x7fff) < H_MINNORMAL_UP;
}

/* f16 on AVX512-FP16, which ignores MXCSR.DAZ/FTZ: hardware mode applies
 * them here.  A tiny sum is exact (Hauser 1996), so only a product or a
 * quotient can round up to the smallest normal from below it. */
static uint64_t h_arith1(unsigned op, unsigned flags, uint64_t a, uint64_t b)
{
	const isa_fpfmt *f = fmt_of(ISA_FMT_F16);
	a = daz(f, flags, a);
	b = daz(f, flags, b);
	const uint64_t r = h_op(op, a, b);
	if (flags & ISA_FL_IEEE)
		return r;
	if (is_subnormal(f, r))
		return r & 0x8000;
	if ((r & 0x7fff) == H_MINNORMAL && (op == ISA_FMUL || op == ISA_FDIV)
	    && h_tiny_scaled(op, a, b))
		return r & 0x8000;
	return r;
}
#endif

static uint64_t narrow_arith1(unsigned op, unsigned fmt, unsigned flags,
			      uint64_t a, uint64_t b)
{
#ifdef FP_HOST_FP16
	if (fmt == ISA_FMT_F16 && host_has_fp16())
		return h_arith1(op, flags, a, b);
#endif
	return dbl_arith1(op, fmt, flags, a, b);
}

static void narrow_arith(unsigned op, unsigned fmt, unsigned flags,
			 const uint64_t *a, const uint64_t *b, const uint64_t *c,
			 uint64_t *out, size_t n)
{
	const unsigned old = csr_enter(ISA_FL_IEEE);
	for (size_t i = 0; i < n; i++) {
		if (op == ISA_FMADD)
			out[i] = narrow_arith1(ISA_FADD, fmt, flags,
					       narrow_arith1(ISA_FMUL, fmt, flags, a[i], b[i]),
					       c[i]);
		else
			out[i] = narrow_arith1(op, fmt, flags, a[i], b[i]);
	}
	csr_leave(old);
}

#define MXCSR_RZ 0x6000u   /* rounding control 11: toward zero */
#define MXCSR_PE 0x0020u   /* the precision (inexact) flag */

/* The fused a * b + c: the product exact in double (at most 48 bits),
 * the sum rounded to odd at 53 bits (toward zero, then the last bit set
 * if anything was lost), then once to the format.  Rounding to odd first
 * makes the second rounding exact whenever 53 >= p + 2 (Boldo and
 * Melquiond, "Emulation of FMA and correctly rounded sums: proved
 * algorithms using rounding to odd", IEEE TC 2008). */
static uint64_t fma_host1(unsigned fmt, unsigned flags, uint64_t a, uint64_t b,
			  uint64_t c)
{
	const double x = fp_host_value(fmt, flags, a), y = fp_host_value(fmt, flags, b);
	const double z = fp_host_value(fmt, flags, c);
	const unsigned old = _mm_getcsr();
	_mm_setcsr((old & ~(MXCSR_RC | MXCSR_DAZ | MXCSR_FTZ | MXCSR_PE)) | MXCSR_RZ);
	const double prod = keep_d(keep_d(x) * keep_d(y));
	double s = keep_d(prod + keep_d(z));
	const bool inexact = (_mm_getcsr() & MXCSR_PE) != 0;
	_mm_setcsr(old);
	if (inexact) {
		uint64_t u;
		memcpy(&u, &s, sizeof u);
		u |= 1;
		memcpy(&s, &u, sizeof s);
	}
	return fp_host_round(fmt, flags, s);
}

/* ---- compare, min, max ---- */

int fp_host_cmp(unsigned fmt, unsigned flags, uint64_t a, uint64_t b)
{
	int r;
	if (fmt == ISA_FMT_F32) { /* ucomiss, which honours DAZ */
		const unsigned old = csr_enter(flags);
		const float x = keep_f(f32_of(a)), y = keep_f(f32_of(b));
		r = x < y ? -1 : x > y ? 1 : x == y ? 0 : 2;
		csr_leave(old);
		return r;
	}
	const double x = fp_host_value(fmt, flags, a), y = fp_host_value(fmt, flags, b);
	return x < y ? -1 : x > y ? 1 : x == y ? 0 : 2;
}

/* min or max from host comparisons: -0 < +0, a NaN if either is one,
 * and in hardware mode a subnormal comes back as the zero of its sign. */
static uint64_t host_minmax(unsigned fmt, unsigned flags, uint64_t a, uint64_t b,
			    bool want_max)
{
	const isa_fpfmt *f = fmt_of(fmt);
	const int c = fp_host_cmp(fmt, flags, a, b);
	uint64_t r;
	if (c == 2)
		return is_nan(f, a) ? a : b;
	if (c == 0 && fp_host_value(fmt, flags, a) == 0) /* two zeros */
		r = ((a & sign_bit(f)) != 0) != want_max ? a : b;
	else
		r = (c < 0) != want_max ? a : b;
	return daz(f, flags, r);
}

static uint64_t host_predicate(unsigned op, int c)
{
	switch (op) {
	case ISA_FEQ: return c == 0;
	case ISA_FNE: return c != 0;
	case ISA_FLT: return c == -1;
	case ISA_FLE: return c == -1 || c == 0;
	case ISA_FGT: return c == 1;
	default: return c == 1 || c == 0;
	}
}

void fp_host_ops(unsigned op, unsigned fmt, unsigned flags, const uint64_t *a,
		 const uint64_t *b, const uint64_t *c, uint64_t *out, size_t n)
{
	const isa_fpfmt *f = fmt_of(fmt);
	switch (op) {
	case ISA_FMA:
		for (size_t i = 0; i < n; i++)
			out[i] = fma_host1(fmt, flags, a[i], b[i], c[i]);
		return;
	case ISA_FADD: case ISA_FSUB: case ISA_FMUL: case ISA_FDIV: case ISA_FMADD:
		if (fmt == ISA_FMT_F32)
			f32_arith(op, flags, a, b, c, out, n);
		else
			narrow_arith(op, fmt, flags, a, b, c, out, n);
		return;
	default:
		break;
	}
	for (size_t i = 0; i < n; i++) {
		switch (op) {
		case ISA_FMIN: case ISA_FMAX:
			out[i] = host_minmax(fmt, flags, a[i], b[i], op == ISA_FMAX);
			break;
		case ISA_FABS: out[i] = a[i] & ~sign_bit(f); break;
		case ISA_FNEG: out[i] = a[i] ^ sign_bit(f); break;
		default:
			out[i] = host_predicate(op, fp_host_cmp(fmt, flags, a[i], b[i]));
			break;
		}
	}
}

uint64_t fp_host_op(unsigned op, unsigned fmt, unsigned flags, uint64_t a,
		    uint64_t b, uint64_t c)
{
	uint64_t r;
	fp_host_ops(op, fmt, flags, &a, &b, &c, &r, 1);
	return r;
}

/* ---- conversions ---- */

static unsigned frac_bits(unsigned fmt, unsigned width)
{
	return fmt == ISA_FMT_FIX ? width - ISA_FIX_INT : 0;
}

/* The source integer (a .qN's bits as an integer), extended. */
static __int128 int_source(const isa_cmd *c, uint64_t a)
{
	const uint64_t v = a & isa_mask(c->swidth);
	if (c->ssigned || c->sfmt == ISA_FMT_FIX)
		return (__int128)isa_sext(v, c->swidth);
	return (__int128)v;
}

static uint64_t saturate128(__int128 v, unsigned width, bool sgn)
{
	const __int128 hi = sgn ? ((__int128)1 << (width - 1)) - 1 : ((__int128)1 << width) - 1;
	const __int128 lo = sgn ? -((__int128)1 << (width - 1)) : 0;
	if (v > hi)
		v = hi;
	if (v < lo)
		v = lo;
	return (uint64_t)v & isa_mask(width);
}

/* int <-> int wraps (extension or truncation); with a .qN on either side
 * the value is rescaled, truncated toward zero (C division) and saturated. */
static uint64_t host_int_int(const isa_cmd *c, uint64_t a)
{
	const __int128 v = int_source(c, a);
	if (c->sfmt == ISA_FMT_INT && c->fmt == ISA_FMT_INT)
		return (uint64_t)v & isa_mask(c->width);
	const unsigned fs = frac_bits(c->sfmt, c->swidth), fd = frac_bits(c->fmt, c->width);
	const __int128 r = fd >= fs ? v * ((__int128)1 << (fd - fs))
				    : v / ((__int128)1 << (fs - fd));
	return saturate128(r, c->width, c->is_signed || c->fmt == ISA_FMT_FIX);
}

/* Float to int or .qN: trunc() of the exact value (scaled by 2^fbits),
 * saturated, NaN to the largest. */
static uint64_t host_float_int(const isa_cmd *c, uint64_t a)
{
	const bool sgn = c->is_signed || c->fmt == ISA_FMT_FIX;
	const unsigned w = c->width;
	const double v = fp_host_value(c->sfmt, c->flags, a);
	if (isnan(v))
		return sgn ? isa_mask(w - 1) : isa_mask(w);
	const double t = trunc(ldexp(v, (int)frac_bits(c->fmt, w)));
	const double hi = ldexp(1.0, (int)(sgn ? w - 1 : w)); /* first too big */
	if (t >= hi)
		return sgn ? isa_mask(w - 1) : isa_mask(w);
	if (t <= (sgn ? -hi : 0))
		return sgn ? (UINT64_C(1) << (w - 1)) & isa_mask(w) : 0;
	return sgn ? (uint64_t)(int64_t)t & isa_mask(w) : (uint64_t)t;
}

/* An integer as a double rounded to odd at 53 bits: a second rounding to
 * at most 51 bits is then the correct rounding of the integer. */
static double round_odd53(__int128 v)
{
	uint64_t mag = v < 0 ? (uint64_t)-v : (uint64_t)v;
	int sh = 0;
	if (mag >> 53) {
		sh = 64 - __builtin_clzll(mag) - 53;
		mag = (mag >> sh) | ((mag & isa_mask((unsigned)sh)) != 0);
	}
	const double d = ldexp((double)mag, sh);
	return v < 0 ? -d : d;
}

#ifdef FP_HOST_FP16
__attribute__((target("avx512fp16,avx512vl"))) static uint64_t h_from_int(__int128 v)
{
	if (v < 0)
		return bits_of_h(_mm_cvti64_sh(_mm_setzero_ph(), (long long)v));
	return bits_of_h(_mm_cvtu64_sh(_mm_setzero_ph(), (unsigned long long)v));
}
#endif

/* Int or .qN to float: cvtsi2ss (f32; scaling a .qN by 2^-f is exact in
 * f32's range), vcvtsi2sh (f16 from an int), else the double path. */
static uint64_t host_int_float(const isa_cmd *c, uint64_t a)
{
	const __int128 v = int_source(c, a);
	const int fs = (int)frac_bits(c->sfmt, c->swidth);
	if (c->fmt == ISA_FMT_F32) {
		const float r = v < 0 ? (float)(int64_t)v : (float)(uint64_t)v;
		return bits_of_f32(ldexpf(keep_f(r), -fs));
	}
#ifdef FP_HOST_FP16
	if (c->fmt == ISA_FMT_F16 && fs == 0 && host_has_fp16())
		return h_from_int(v);
#endif
	return fp_host_round(c->fmt, c->flags, ldexp(round_odd53(v), -fs));
}

/* f32 or bf16 value x (exact in float) to f16 by F16C vcvtps2ph, which
 * ignores MXCSR.FTZ: hardware mode flushes here, a result that rounded up
 * to the smallest normal being decided by the same conversion of x * 2^8
 * (exact), which lands among the normals. */
static uint64_t f16c_narrow(unsigned flags, float x)
{
	const uint64_t r = f16c_from_float(x);
	if (flags & ISA_FL_IEEE)
		return r;
	if (is_subnormal(fmt_of(ISA_FMT_F16), r))
		return r & 0x8000;
	if ((r & 0x7fff) == 0x0400 && (f16c_from_float(keep_f(x * 256.0f)) & 0x7fff) < 0x2400)
		return r & 0x8000;
	return r;
}

static uint64_t host_float_float(const isa_cmd *c, uint64_t a)
{
	const isa_fpfmt *s = fmt_of(c->sfmt), *d = fmt_of(c->fmt);
	a = daz(s, c->flags, a & isa_mask(s->width));
	if (is_nan(s, a))
		return isa_mask(d->ebits) << d->mbits | 1; /* some NaN */
	const float x = (float)fp_host_value(c->sfmt, c->flags, a); /* exact */
	switch (c->fmt) {
	case ISA_FMT_F32: return bits_of_f32(x);
	case ISA_FMT_F16:
		if (host_has_f16c())
			return f16c_narrow(c->flags, x);
		return fp_host_round(c->fmt, c->flags, (double)x);
	default: return fp_host_round(c->fmt, c->flags, (double)x);
	}
}

uint64_t fp_host_cvt(const isa_cmd *c, uint64_t a)
{
	const bool from_f = fmt_of(c->sfmt) != NULL, to_f = fmt_of(c->fmt) != NULL;
	const unsigned old = csr_enter(ISA_FL_IEEE); /* the modes' rules are explicit */
	uint64_t r;
	if (from_f && to_f)
		r = host_float_float(c, a);
	else if (from_f)
		r = host_float_int(c, a & isa_mask(c->swidth));
	else if (to_f)
		r = host_int_float(c, a);
	else
		r = host_int_int(c, a);
	csr_leave(old);
	return r;
}

/* ---- rsqrt ---- */

uint64_t fp_host_rsqrt(unsigned fmt, unsigned flags, uint64_t a)
{
	const isa_fpfmt *f = fmt_of(fmt);
	const double x = fp_host_value(fmt, flags, a);
	if (isnan(x) || x < 0)
		return isa_fp_nan(fmt);
	if (x == 0)
		return (a & sign_bit(f)) | isa_mask(f->ebits) << f->mbits;
	if (isinf(x))
		return 0;
	const uint64_t magic = fmt == ISA_FMT_F32 ? 0x5f3759df
			       : fmt == ISA_FMT_F16 ? 0x59bb : 0x5f37;
	const uint64_t half = fp_host_round(fmt, ISA_FL_IEEE, 0.5);
	const uint64_t three_halves = fp_host_round(fmt, ISA_FL_IEEE, 1.5);
	const uint64_t y0 = magic - (a >> 1);
	const uint64_t h = fp_host_op(ISA_FMUL, fmt, flags, a, y0, 0);
	const uint64_t u = fp_host_op(ISA_FMUL, fmt, flags, half, h, 0);
	const uint64_t v = fp_host_op(ISA_FMUL, fmt, flags, y0, u, 0);
	const uint64_t w = fp_host_op(ISA_FSUB, fmt, flags, three_halves, v, 0);
	return fp_host_op(ISA_FMUL, fmt, flags, y0, w, 0);
}
