/* SPDX-License-Identifier: MIT */
/*
 * ref_alu.c: the arithmetic of the PTX reference (doc/PTX.md,
 * "Instructions"): integer ops wrapping at their width, IEEE float ops
 * on the host (SSE arithmetic is IEEE; a directed rounding mode is set
 * around the one operation that needs it, through volatile operands so
 * that the compiler cannot move the operation out of the mode), .ftz
 * flushing, canonical NaNs, and cvt in every rounding mode.
 */
#include <fenv.h>
#include <math.h>
#include <string.h>

#include "isa.h"
#include "ptx_int.h"

__extension__ typedef unsigned __int128 u128;
__extension__ typedef __int128 s128;

#define NAN32 UINT64_C(0x7fffffff)
#define NAN64 UINT64_C(0x7fffffffffffffff)

static float f32(uint64_t b)
{
	uint32_t u = (uint32_t)b;
	float f;
	memcpy(&f, &u, 4);
	return f;
}

static uint64_t b32(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

static double f64(uint64_t b)
{
	double f;
	memcpy(&f, &b, 8);
	return f;
}

static uint64_t b64(double f)
{
	uint64_t u;
	memcpy(&u, &f, 8);
	return u;
}

/* a subnormal f32 to the zero of its sign (.ftz) */
static uint64_t flush32(uint64_t b)
{
	b &= 0xffffffffu;
	return (b & 0x7f800000u) == 0 ? b & 0x80000000u : b;
}

static int host_mode(unsigned rnd)
{
	switch (rnd) {
	case PR_RZ: case PR_RZI: return FE_TOWARDZERO;
	case PR_RM: case PR_RMI: return FE_DOWNWARD;
	case PR_RP: case PR_RPI: return FE_UPWARD;
	default: return FE_TONEAREST;
	}
}

enum { F_ADD, F_SUB, F_MUL, F_DIV, F_FMA, F_SQRT, F_RINT, F_NARROW };

/* One operation on doubles or floats in rounding mode rnd. */
static double host_op(unsigned f, bool dbl, double a, double b, double c, unsigned rnd)
{
	int m = host_mode(rnd);
	double out;
	if (m != FE_TONEAREST)
		fesetround(m);
	if (dbl || f == F_NARROW) {
		volatile double va = a, vb = b, vc = c, r;
		switch (f) {
		case F_ADD: r = va + vb; break;
		case F_SUB: r = va - vb; break;
		case F_MUL: r = va * vb; break;
		case F_DIV: r = va / vb; break;
		case F_FMA: r = fma(va, vb, vc); break;
		case F_SQRT: r = sqrt(va); break;
		case F_RINT: r = rint(va); break;
		default: {
			volatile float n = (float)va;
			r = n;
			break;
		}
		}
		out = r;
	} else {
		volatile float va = (float)a, vb = (float)b, vc = (float)c, r;
		switch (f) {
		case F_ADD: r = va + vb; break;
		case F_SUB: r = va - vb; break;
		case F_MUL: r = va * vb; break;
		case F_DIV: r = va / vb; break;
		case F_FMA: r = fmaf(va, vb, vc); break;
		case F_SQRT: r = sqrtf(va); break;
		default: r = rintf(va); break;
		}
		out = r;
	}
	if (m != FE_TONEAREST)
		fesetround(FE_TONEAREST);
	return out;
}

/* An integer value to a float in rounding mode rnd. */
static double host_from_int(bool dbl, bool sgn, uint64_t v, unsigned rnd)
{
	int m = host_mode(rnd);
	if (m != FE_TONEAREST)
		fesetround(m);
	volatile uint64_t vu = v;
	volatile int64_t vs = (int64_t)v;
	double out;
	if (dbl) {
		volatile double r = sgn ? (double)vs : (double)vu;
		out = r;
	} else {
		volatile float r = sgn ? (float)vs : (float)vu;
		out = r;
	}
	if (m != FE_TONEAREST)
		fesetround(FE_TONEAREST);
	return out;
}

/* ---- integers ---- */

static uint64_t sat_s32(int64_t v)
{
	return (uint64_t)(v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v);
}

/* a / 0 is all ones and a % 0 is a (as emu/simt/ref_alu.c defines them);
 * MIN / -1 is MIN and MIN % -1 is 0. */
static uint64_t int_div(bool sgn, bool rem, unsigned w, uint64_t a, uint64_t b)
{
	uint64_t m = isa_mask(w);
	a &= m;
	b &= m;
	if (b == 0)
		return rem ? a : m;
	if (!sgn)
		return rem ? a % b : a / b;
	int64_t x = isa_sext(a, w), y = isa_sext(b, w);
	if (y == -1)
		return rem ? 0 : (uint64_t)0 - a;
	return (uint64_t)(rem ? x % y : x / y);
}

static uint64_t bfe(bool sgn, unsigned w, uint64_t a, uint64_t b, uint64_t c)
{
	unsigned pos = (unsigned)(b & 0xff), len = (unsigned)(c & 0xff);
	uint64_t sbit = 0;
	if (sgn && len)
		sbit = (a >> (pos + len - 1 < w - 1 ? pos + len - 1 : w - 1)) & 1;
	uint64_t d = 0;
	for (unsigned i = 0; i < w; i++) {
		uint64_t bit = (i < len && pos + i < w) ? (a >> (pos + i)) & 1 : sbit;
		d |= bit << i;
	}
	return d;
}

static uint64_t bfi(unsigned w, uint64_t f, uint64_t b, uint64_t c, uint64_t e)
{
	unsigned pos = (unsigned)(c & 0xff), len = (unsigned)(e & 0xff);
	uint64_t d = b;
	for (unsigned i = 0; i < len && pos + i < w; i++)
		d = (d & ~(UINT64_C(1) << (pos + i))) | (((f >> i) & 1) << (pos + i));
	return d;
}

static uint64_t prmt(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t bytes = (b & 0xffffffffu) << 32 | (a & 0xffffffffu);
	uint32_t d = 0;
	for (unsigned i = 0; i < 4; i++) {
		unsigned sel = (unsigned)(c >> (4 * i)) & 0xf;
		uint32_t byte = (uint32_t)(bytes >> (8 * (sel & 7))) & 0xff;
		if (sel & 8) /* replicate the byte's sign */
			byte = (byte & 0x80) ? 0xff : 0;
		d |= byte << (8 * i);
	}
	return d;
}

uint64_t ptx_alu_int(const ptx_ins *in, uint64_t a, uint64_t b, uint64_t c)
{
	unsigned w = ptx_type_bits(in->type);
	bool sgn = ptx_type_signed(in->type);
	uint64_t m = isa_mask(w);
	int64_t sa = isa_sext(a, w), sb = isa_sext(b, w);
	switch (in->op) {
	case PO_ADD:
		if (in->flags & PF_SAT)
			return sat_s32((int64_t)(int32_t)a + (int32_t)b) & m;
		return (a + b) & m;
	case PO_SUB:
		if (in->flags & PF_SAT)
			return sat_s32((int64_t)(int32_t)a - (int32_t)b) & m;
		return (a - b) & m;
	case PO_MUL: case PO_MAD: {
		uint64_t r;
		if (in->mod == PM_LO) {
			r = (a * b) & m;
		} else if (in->mod == PM_WIDE) {
			r = sgn ? (uint64_t)(sa * sb) : (a & m) * (b & m);
			r &= isa_mask(2 * w);
		} else {
			s128 p = sgn ? (s128)sa * sb : (s128)(u128)((u128)(a & m) * (b & m));
			r = (uint64_t)((u128)p >> w) & m;
		}
		if (in->op == PO_MUL)
			return r;
		if (in->flags & PF_SAT) /* mad.hi.sat.s32 */
			return sat_s32((int64_t)(int32_t)r + (int32_t)c) & m;
		return (r + c) & (in->mod == PM_WIDE ? isa_mask(2 * w) : m);
	}
	case PO_DIV: return int_div(sgn, false, w, a, b);
	case PO_REM: return int_div(sgn, true, w, a, b);
	case PO_SAD:
		if (sgn)
			return (c + (uint64_t)(sa > sb ? sa - sb : sb - sa)) & m;
		return (c + ((a & m) > (b & m) ? (a & m) - (b & m) : (b & m) - (a & m))) & m;
	case PO_ABS: return (uint64_t)(sa < 0 ? -(uint64_t)sa : (uint64_t)sa) & m;
	case PO_NEG: return (0 - a) & m;
	case PO_MIN: return (sgn ? (sa < sb ? a : b) : ((a & m) < (b & m) ? a : b)) & m;
	case PO_MAX: return (sgn ? (sa > sb ? a : b) : ((a & m) > (b & m) ? a : b)) & m;
	case PO_AND: return a & b & m;
	case PO_OR: return (a | b) & m;
	case PO_XOR: return (a ^ b) & m;
	case PO_NOT: return ~a & m;
	case PO_CNOT: return (a & m) == 0;
	case PO_SHL: {
		uint32_t n = (uint32_t)b;
		return n >= w ? 0 : (a << n) & m;
	}
	case PO_SHR: {
		uint32_t n = (uint32_t)b;
		if (sgn)
			return (uint64_t)(n >= w ? (sa < 0 ? -1 : 0) : sa >> n) & m;
		return n >= w ? 0 : (a & m) >> n;
	}
	case PO_SHF: {
		uint32_t n = (uint32_t)c;
		n = (in->flags & PF_WRAP) ? n & 31 : (n > 32 ? 32 : n);
		uint64_t both = (b & 0xffffffffu) << 32 | (a & 0xffffffffu);
		return in->mod == PM_L ? (both << n) >> 32 & 0xffffffffu : (both >> n) & 0xffffffffu;
	}
	case PO_POPC: return (uint64_t)__builtin_popcountll(a & m);
	case PO_CLZ: return (a & m) == 0 ? w : (uint64_t)(__builtin_clzll(a & m) - (64 - (int)w));
	case PO_BREV: {
		uint64_t r = 0;
		for (unsigned i = 0; i < w; i++)
			r |= ((a >> i) & 1) << (w - 1 - i);
		return r;
	}
	case PO_BFE: return bfe(sgn, w, a, b, c);
	case PO_PRMT: return prmt(a, b, c);
	default: return 0;
	}
}

uint64_t ptx_alu_bfi(const ptx_ins *in, uint64_t f, uint64_t b, uint64_t c, uint64_t e)
{
	return bfi(ptx_type_bits(in->type), f, b, c, e) & isa_mask(ptx_type_bits(in->type));
}

/* ---- floats ---- */

static double half_value(uint64_t h);
#define H_NAN UINT64_C(0x7fff)

/* A float result: NaN canonical, then .sat's clamp to [0, 1] (NaN to 0),
 * then .ftz's flush. */
static uint64_t fin32(const ptx_ins *in, float r)
{
	uint64_t b = isnan(r) ? NAN32 : b32(r);
	if ((in->flags & PF_SAT) && !isnan(r)) {
		if (r < 0.0f || (b & 0x80000000u))
			b = 0;
		else if (r > 1.0f)
			b = 0x3f800000u;
	} else if (in->flags & PF_SAT) {
		b = 0;
	}
	return (in->flags & PF_FTZ) ? flush32(b) : b;
}

static uint64_t fin64(const ptx_ins *in, double r)
{
	uint64_t b = isnan(r) ? NAN64 : b64(r);
	if (in->flags & PF_SAT)
		b = isnan(r) || r <= 0.0 ? 0 : r > 1.0 ? b64(1.0) : b;
	return b;
}

/* min and max: a NaN operand gives the other one, -0 is below +0 */
static bool less(double x, double y, bool xneg, bool yneg)
{
	if (x == 0 && y == 0)
		return xneg && !yneg;
	return x < y;
}

static uint64_t fminmax(const ptx_ins *in, uint64_t a, uint64_t b, bool dbl)
{
	double x = dbl ? f64(a) : f32(a), y = dbl ? f64(b) : f32(b);
	bool max = in->op == PO_MAX;
	if (isnan(x) && isnan(y))
		return dbl ? NAN64 : NAN32;
	if (isnan(x))
		return b;
	if (isnan(y))
		return a;
	bool xn = signbit(x), yn = signbit(y);
	bool pick_a = max ? less(y, x, yn, xn) : less(x, y, xn, yn);
	if (!less(x, y, xn, yn) && !less(y, x, yn, xn))
		pick_a = true;
	return pick_a ? a : b;
}

static uint64_t testp(unsigned mode, double v, bool sub)
{
	switch (mode) {
	case PM_FINITE: return isfinite(v);
	case PM_INFINITE: return isinf(v);
	case PM_NUMBER: return !isnan(v);
	case PM_NOTANUMBER: return isnan(v) != 0;
	case PM_NORMAL: return isnormal(v) && !sub;
	default: return sub;
	}
}

/* ---- the .approx transcendentals (doc/PTX.md, "The .approx functions") ----
 * infsim defines each as a fixed sequence of IEEE f32 operations (round
 * to nearest even, subnormals kept) around one of isa/'s CORDIC commands
 * on .q32 with PTX_CORDIC_ITERS iterations, computed here from isa/'s
 * scalar references: the SIMT machine runs the same sequence on its
 * bitlines, so --check holds it to the bit.  Every step is a separate
 * volatile f32 so that the compiler keeps each rounding. */
static float fx_cvt(float x, unsigned op)
{
	isa_cmd c;
	memset(&c, 0, sizeof c);
	c.width = 32;
	c.is_signed = 1;
	c.flags = ISA_FL_IEEE;
	c.iters = PTX_CORDIC_ITERS;
	c.c3 = c.d2 = ISA_NONE;
	/* f32 -> q32 (toward zero, saturating), the CORDIC, q32 -> f32 */
	c.op = ISA_CVT;
	c.fmt = ISA_FMT_FIX;
	c.sfmt = ISA_FMT_F32, c.swidth = 32, c.ssigned = 1;
	uint64_t q = isa_ref_elem(&c, b32(x), 0, false, NULL, NULL);
	c.op = (uint16_t)op;
	c.sfmt = c.swidth = c.ssigned = 0;
	q = isa_ref_elem(&c, q, 0, false, NULL, NULL);
	c.op = ISA_CVT;
	c.fmt = ISA_FMT_F32;
	c.sfmt = ISA_FMT_FIX, c.swidth = 32, c.ssigned = 1;
	return f32(isa_ref_elem(&c, q, 0, false, NULL, NULL));
}

static float frint22(float k)
{
	volatile float m = 0x1.8p23f, t = k + m;
	return t - m;
}

static uint32_t approx_sincos(float a, bool cosine)
{
	volatile float k = a * 0x1.45f306p-3f;            /* 1 / 2 pi */
	volatile float n = frint22(k);
	volatile float r1 = fmaf(n, -0x1.921fb6p+2f, a);  /* -2 pi, rounded */
	volatile float r = fmaf(n, 0x1.777a5cp-23f, r1);  /* -(2 pi - that) */
	if (isnan(r))
		return NAN32;
	return (uint32_t)b32(fx_cvt(r, cosine ? ISA_COS : ISA_SIN));
}

static float pow2i(int32_t n) /* 2^n as f32 bits, n in [-126, 127] */
{
	return f32((uint32_t)(n + 127) << 23);
}

static uint32_t approx_ex2(float a)
{
	if (isnan(a))
		return NAN32;
	volatile float c = a > 250.0f ? 250.0f : a < -250.0f ? -250.0f : a;
	volatile float n = frint22(c), f = c - n, y = f * 0x1.62e430p-1f; /* ln 2 */
	volatile float e = fx_cvt(y, ISA_EXP);
	int32_t ni = (int32_t)n, n1 = ni >> 1, n2 = ni - n1;
	volatile float t = e * pow2i(n1);
	return (uint32_t)b32(t * pow2i(n2));
}

static uint32_t approx_lg2(float a)
{
	if (isnan(a) || a < 0.0f)
		return NAN32;
	if (a == 0.0f)
		return 0xff800000u;
	if (isinf(a))
		return 0x7f800000u;
	bool sub = a < 0x1p-126f;
	volatile float a2 = sub ? a * 0x1p23f : a;
	uint32_t bits = (uint32_t)b32(a2);
	int32_t e = (int32_t)(bits >> 23) - (sub ? 150 : 127);
	float m = f32((bits & 0x007fffffu) | 0x3f800000u);
	volatile float l = fx_cvt(m, ISA_LOG);
	return (uint32_t)b32(fmaf(l, 0x1.715476p+0f, (float)e)); /* log2 e */
}

uint64_t ptx_alu_float(const ptx_ins *in, uint64_t a, uint64_t b, uint64_t c)
{
	if (in->type == PT_F16 || in->type == PT_F16X2)
		return ptx_alu_half(in, a, b, c);
	bool dbl = in->type == PT_F64;
	bool ftz = !dbl && (in->flags & PF_FTZ);
	if (!dbl) {
		a &= 0xffffffffu;
		b &= 0xffffffffu;
		c &= 0xffffffffu;
	}
	if (ftz) {
		a = flush32(a);
		b = flush32(b);
		c = flush32(c);
	}
	double x = dbl ? f64(a) : f32(a), y = dbl ? f64(b) : f32(b), z = dbl ? f64(c) : f32(c);
	unsigned rnd = in->mod == PR_NONE ? PR_RN : in->mod;
	double r;
	switch (in->op) {
	case PO_ADD: r = host_op(F_ADD, dbl, x, y, 0, rnd); break;
	case PO_SUB: r = host_op(F_SUB, dbl, x, y, 0, rnd); break;
	case PO_MUL: r = host_op(F_MUL, dbl, x, y, 0, rnd); break;
	case PO_MAD: case PO_FMA: r = host_op(F_FMA, dbl, x, y, z, rnd); break;
	case PO_DIV:
		if (in->flags & PF_APPROX) {
			/* a times the reciprocal, each rounded */
			float q = (float)host_op(F_DIV, false, 1.0, y, 0, PR_RN);
			if (ftz)
				q = f32(flush32(b32(q)));
			r = host_op(F_MUL, false, x, q, 0, PR_RN);
		} else {
			r = host_op(F_DIV, dbl, x, y, 0, rnd);
		}
		break;
	case PO_RCP: r = host_op(F_DIV, dbl, 1.0, x, 0, rnd); break;
	case PO_SQRT: r = host_op(F_SQRT, dbl, x, 0, 0, rnd); break;
	case PO_RSQRT: return fin32(in, f32(isa_fp_rsqrt(ISA_FMT_F32, ftz ? 0 : ISA_FL_IEEE, a)));
	case PO_SIN: return fin32(in, f32(approx_sincos((float)x, false)));
	case PO_COS: return fin32(in, f32(approx_sincos((float)x, true)));
	case PO_EX2: return fin32(in, f32(approx_ex2((float)x)));
	case PO_LG2: return fin32(in, f32(approx_lg2((float)x)));
	case PO_ABS: return ftz ? a & 0x7fffffffu : dbl ? a & NAN64 : a & 0x7fffffffu;
	case PO_NEG: return dbl ? a ^ (UINT64_C(1) << 63) : a ^ 0x80000000u;
	case PO_MIN: case PO_MAX: return fminmax(in, a, b, dbl);
	case PO_COPYSIGN: {
		uint64_t sb = dbl ? UINT64_C(1) << 63 : 0x80000000u;
		return (b & ~sb) | (a & sb);
	}
	case PO_TESTP: {
		bool sub = dbl ? (a & UINT64_C(0x7ff0000000000000)) == 0 && (a << 1) != 0
			       : (a & 0x7f800000u) == 0 && (a & 0x7fffffu) != 0;
		return testp(in->mod, x, sub);
	}
	default: return 0;
	}
	return dbl ? fin64(in, r) : fin32(in, (float)r);
}

bool ptx_alu_setp(const ptx_ins *in, uint64_t a, uint64_t b)
{
	if (ptx_type_float(in->type)) {
		bool dbl = in->type == PT_F64;
		if (in->type == PT_F32 && (in->flags & PF_FTZ)) {
			a = flush32(a);
			b = flush32(b);
		}
		if (in->type == PT_F16 && (in->flags & PF_FTZ)) {
			a = (a & 0x7c00u) ? a & 0xffffu : a & 0x8000u;
			b = (b & 0x7c00u) ? b & 0xffffu : b & 0x8000u;
		}
		double x = in->type == PT_F16 ? half_value(a) : dbl ? f64(a) : f32(a);
		double y = in->type == PT_F16 ? half_value(b) : dbl ? f64(b) : f32(b);
		bool un = isnan(x) || isnan(y);
		switch (in->mod) {
		case PC_EQ: return !un && x == y;
		case PC_NE: return !un && x != y;
		case PC_LT: return !un && x < y;
		case PC_LE: return !un && x <= y;
		case PC_GT: return !un && x > y;
		case PC_GE: return !un && x >= y;
		case PC_EQU: return un || x == y;
		case PC_NEU: return un || x != y;
		case PC_LTU: return un || x < y;
		case PC_LEU: return un || x <= y;
		case PC_GTU: return un || x > y;
		case PC_GEU: return un || x >= y;
		case PC_NUM: return !un;
		default: return un;
		}
	}
	unsigned w = ptx_type_bits(in->type);
	uint64_t ua = a & isa_mask(w), ub = b & isa_mask(w);
	int64_t sa = isa_sext(a, w), sb = isa_sext(b, w);
	bool sgn = ptx_type_signed(in->type);
	switch (in->mod) {
	case PC_EQ: return ua == ub;
	case PC_NE: return ua != ub;
	case PC_LT: return sgn ? sa < sb : ua < ub;
	case PC_LE: return sgn ? sa <= sb : ua <= ub;
	case PC_GT: return sgn ? sa > sb : ua > ub;
	case PC_GE: return sgn ? sa >= sb : ua >= ub;
	case PC_LO: return ua < ub;
	case PC_LS: return ua <= ub;
	case PC_HI: return ua > ub;
	default: return ua >= ub;
	}
}

/* A float to an integer type: rounded to an integer in the mode, NaN to
 * 0, saturated to the type's range (PTX saturates every such cvt). */
static uint64_t float_to_int(unsigned ty, double v, unsigned rnd)
{
	unsigned w = ptx_type_bits(ty);
	bool sgn = ptx_type_signed(ty);
	if (isnan(v))
		return 0;
	switch (rnd) {
	case PR_RZI: v = trunc(v); break;
	case PR_RMI: v = floor(v); break;
	case PR_RPI: v = ceil(v); break;
	default: v = host_op(F_RINT, true, v, 0, 0, PR_RN); break;
	}
	if (sgn) {
		double lo = -ldexp(1.0, (int)w - 1), hi = ldexp(1.0, (int)w - 1);
		if (v <= lo)
			return UINT64_C(1) << (w - 1); /* the most negative */
		if (v >= hi)
			return isa_mask(w - 1);
		return (uint64_t)(int64_t)v & isa_mask(w);
	}
	if (v <= 0)
		return 0;
	if (v >= ldexp(1.0, (int)w))
		return isa_mask(w);
	return (uint64_t)v;
}

uint64_t ptx_alu_cvt(const ptx_ins *in, uint64_t a)
{
	unsigned dt = in->type, st = in->stype;
	unsigned dw = ptx_type_bits(dt), sw = ptx_type_bits(st);
	bool dfl = ptx_type_float(dt), sfl = ptx_type_float(st);
	bool ftz = (in->flags & PF_FTZ) != 0;
	if (!dfl && !sfl) {
		/* integer to integer: extend by the source's sign, then wrap,
		 * or clamp with .sat */
		int64_t sv = ptx_type_signed(st) ? isa_sext(a, sw) : (int64_t)(a & isa_mask(sw));
		bool s_unsigned_big = !ptx_type_signed(st) && sw == 64 && (a >> 63);
		if (in->flags & PF_SAT) {
			if (ptx_type_signed(dt)) {
				int64_t hi = (int64_t)isa_mask(dw - 1), lo = -hi - 1;
				if (s_unsigned_big || sv > hi)
					return (uint64_t)hi;
				if (sv < lo)
					return (uint64_t)lo & isa_mask(dw);
			} else {
				if (!s_unsigned_big && sv < 0)
					return 0;
				if (dw < 64 && (s_unsigned_big || (uint64_t)sv > isa_mask(dw)))
					return isa_mask(dw);
			}
		}
		return (uint64_t)sv & isa_mask(dw);
	}
	double v;
	if (sfl) {
		if (st == PT_F16)
			v = isa_fp_to_double(ISA_FMT_F16, a & 0xffff);
		else if (st == PT_F32)
			v = f32(ftz ? flush32(a) : a);
		else
			v = f64(a);
	}
	if (!dfl)
		return float_to_int(dt, v, in->mod);
	if (!sfl) {
		bool sgn = ptx_type_signed(st);
		uint64_t iv = sgn ? (uint64_t)isa_sext(a, sw) : a & isa_mask(sw);
		double r = host_from_int(dt == PT_F64, sgn, iv, in->mod);
		return dt == PT_F64 ? fin64(in, r) : fin32(in, (float)r);
	}
	if (dt == PT_F16) /* every NaN made is 0x7fff, as f16 arithmetic's */
		return isnan(v) ? H_NAN : isa_fp_from_double(ISA_FMT_F16, ISA_FL_IEEE, v);
	if (dt == st && in->mod >= PR_RNI) /* to an integral value */
		v = in->mod == PR_RNI ? host_op(F_RINT, true, v, 0, 0, PR_RN)
			: in->mod == PR_RZI ? trunc(v) : in->mod == PR_RMI ? floor(v) : ceil(v);
	else if (dt == PT_F32 && st == PT_F64)
		v = host_op(F_NARROW, true, v, 0, 0, in->mod);
	return dt == PT_F64 ? fin64(in, v) : fin32(in, (float)v);
}

uint64_t ptx_alu_atom(const ptx_ins *in, uint64_t old, uint64_t b, uint64_t c)
{
	unsigned w = ptx_type_bits(in->type);
	uint64_t m = isa_mask(w);
	bool sgn = ptx_type_signed(in->type);
	old &= m;
	b &= m;
	switch (in->mod) {
	case PA_ADD:
		if (in->type == PT_F32) { /* rounds to nearest, flushes subnormals */
			ptx_ins f = *in;
			f.op = PO_ADD;
			f.mod = PR_RN;
			f.flags = PF_FTZ;
			return ptx_alu_float(&f, old, b, 0);
		}
		if (in->type == PT_F64)
			return b64(host_op(F_ADD, true, f64(old), f64(b), 0, PR_RN));
		return (old + b) & m;
	case PA_MIN: return sgn ? (isa_sext(old, w) < isa_sext(b, w) ? old : b) : (old < b ? old : b);
	case PA_MAX: return sgn ? (isa_sext(old, w) > isa_sext(b, w) ? old : b) : (old > b ? old : b);
	case PA_EXCH: return b;
	case PA_CAS: return old == b ? c & m : old;
	case PA_AND: return old & b;
	case PA_OR: return old | b;
	case PA_XOR: return old ^ b;
	case PA_INC: return old >= b ? 0 : old + 1;
	default: return (old == 0 || old > b) ? b : old - 1;
	}
}

/* ---- f16 and f16x2 (IEEE binary16), plain C ----
 * A half is m * 2^(e - 25) (normal, biased exponent e 1..30, m the
 * significand with its leading 1, 11 bits) or f * 2^-24 (subnormal): every
 * sum or product of halves, and a * b + c, is an exact integer multiple
 * of 2^-48, held in 128 bits and rounded once to nearest even here.
 * Every NaN made is 0x7fff (as f32's is 0x7fffffff); .ftz flushes
 * subnormal inputs and results to the zero of their sign, .sat clamps to
 * [0, 1] (NaN to +0). */

static bool h_isnan(uint64_t h) { return (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu); }
static bool h_isinf(uint64_t h) { return (h & 0x7fffu) == 0x7c00u; }
static uint64_t h_flush(uint64_t h) { return (h & 0x7c00u) ? h : h & 0x8000u; }

/* |h| = *m * 2^(*e) (finite h) */
static void h_split(uint64_t h, uint64_t *m, int *e)
{
	unsigned be = (unsigned)(h >> 10) & 0x1f, f = (unsigned)h & 0x3ff;
	*m = be ? (f | 0x400u) : f;
	*e = be ? (int)be - 25 : -24;
}

static double half_value(uint64_t h)
{
	h &= 0xffffu;
	if (h_isnan(h))
		return NAN;
	if (h_isinf(h))
		return (h & 0x8000u) ? -INFINITY : INFINITY;
	uint64_t m;
	int e;
	h_split(h, &m, &e);
	double v = ldexp((double)m, e);
	return (h & 0x8000u) ? -v : v;
}

/* (neg ? -1 : 1) * m * 2^e rounded to the nearest half, ties to even */
static uint64_t h_round(bool neg, u128 m, int e)
{
	uint64_t s = neg ? 0x8000u : 0;
	if (m == 0)
		return s;
	int p = 127;
	while (!((m >> p) & 1))
		p--;
	int q = p + e - 10; /* the quantum of an 11-bit significand */
	if (q < -24)
		q = -24;
	u128 r;
	if (q > e) {
		int sh = q - e;
		if (sh > 127) {
			r = 0;
		} else {
			u128 rem = m & (((u128)1 << sh) - 1), half = (u128)1 << (sh - 1);
			r = m >> sh;
			if (rem > half || (rem == half && (r & 1)))
				r++;
		}
	} else {
		r = m << (e - q);
	}
	if (r == 2048) {
		r = 1024;
		q++;
	}
	if (q + 24 >= 30 && r >= 1024 && (q + 24) * 1024 + (int)r >= 0x7c00)
		return s | 0x7c00u;
	return s | (uint64_t)((q + 24) * 1024 + (int)r);
}

/* a op b, op add (sub: b negated), mul, or fma a * b + c */
static uint64_t h_arith(unsigned op, uint64_t a, uint64_t b, uint64_t c)
{
	if (op == PO_SUB) {
		b ^= 0x8000u;
		op = PO_ADD;
	}
	if (h_isnan(a) || h_isnan(b) || (op == PO_FMA && h_isnan(c)))
		return H_NAN;
	bool sa = a >> 15, sb = b >> 15, sc = c >> 15 & 1;
	if (op == PO_ADD) {
		if (h_isinf(a) || h_isinf(b)) {
			if (h_isinf(a) && h_isinf(b) && sa != sb)
				return H_NAN;
			return h_isinf(a) ? a : b;
		}
	} else {
		bool sp = sa != sb, zero = !(a & 0x7fffu) || !(b & 0x7fffu);
		if (h_isinf(a) || h_isinf(b)) {
			if (zero)
				return H_NAN;
			if (op == PO_FMA && h_isinf(c) && sc != sp)
				return H_NAN;
			return (sp ? 0x8000u : 0) | 0x7c00u;
		}
		if (op == PO_FMA && h_isinf(c))
			return c;
	}
	uint64_t ma, mb, mc;
	int ea, eb, ec;
	h_split(a, &ma, &ea);
	h_split(b, &mb, &eb);
	s128 x, y; /* the two terms, in units of 2^-48 */
	bool zx, zy, nx, ny;
	if (op == PO_ADD) {
		x = (s128)((u128)ma << (ea + 48));
		y = (s128)((u128)mb << (eb + 48));
		nx = sa, ny = sb, zx = ma == 0, zy = mb == 0;
	} else {
		x = (s128)((u128)(ma * mb) << (ea + eb + 48));
		nx = sa != sb, zx = ma == 0 || mb == 0;
		if (op == PO_MUL)
			return zx ? (nx ? 0x8000u : 0) : h_round(nx, (u128)x, -48);
		h_split(c, &mc, &ec);
		y = (s128)((u128)mc << (ec + 48));
		ny = sc, zy = mc == 0;
	}
	s128 sum = (nx ? -x : x) + (ny ? -y : y);
	if (sum == 0) /* an exact zero: -0 only from -0 + -0 */
		return (zx && zy && nx && ny) ? 0x8000u : 0;
	return sum < 0 ? h_round(true, (u128)-sum, -48) : h_round(false, (u128)sum, -48);
}

static bool h_less(uint64_t x, uint64_t y) /* -0 < +0, neither NaN */
{
	double u = half_value(x), v = half_value(y);
	if (u == 0 && v == 0)
		return (x >> 15) && !(y >> 15);
	return u < v;
}

static uint64_t h_one(const ptx_ins *in, uint64_t a, uint64_t b, uint64_t c)
{
	a &= 0xffffu, b &= 0xffffu, c &= 0xffffu;
	bool ftz = in->flags & PF_FTZ;
	if (ftz)
		a = h_flush(a), b = h_flush(b), c = h_flush(c);
	uint64_t r;
	switch (in->op) {
	case PO_NEG: return a ^ 0x8000u;
	case PO_ABS: return a & 0x7fffu;
	case PO_MIN: case PO_MAX:
		if (h_isnan(a) && h_isnan(b))
			return H_NAN;
		if (h_isnan(a) || h_isnan(b))
			return h_isnan(a) ? b : a;
		if (in->op == PO_MIN)
			return h_less(b, a) ? b : a;
		return h_less(a, b) ? b : a;
	default:
		r = h_arith(in->op, a, b, c);
		break;
	}
	if (ftz)
		r = h_flush(r);
	if (in->flags & PF_SAT) {
		if (h_isnan(r) || (r & 0x8000u))
			r = 0;
		else if (half_value(r) > 1.0)
			r = 0x3c00u;
	}
	return r;
}

uint64_t ptx_alu_half(const ptx_ins *in, uint64_t a, uint64_t b, uint64_t c)
{
	if (in->type == PT_F16)
		return h_one(in, a, b, c);
	return h_one(in, a, b, c) | h_one(in, a >> 16, b >> 16, c >> 16) << 16;
}
