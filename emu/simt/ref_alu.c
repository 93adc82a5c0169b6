/* SPDX-License-Identifier: MIT */
/*
 * ref_alu.c: what one DC-PTX instruction does to one thread's 32-bit
 * values, in plain C: host integer arithmetic and the host's IEEE single
 * precision (round to nearest even), never a micro-op and never the isa/
 * code.  The machine must match it bit for bit (doc/SIMT.md,
 * "Reference").  With fp=ftz (the hardware has no subnormals, §3.1.1), a
 * subnormal input counts as a zero of its sign and a subnormal result
 * becomes one; every NaN result is the canonical quiet NaN 0x7fc00000.
 */
#include <math.h>
#include <string.h>

#include "simt_int.h"

#define QNAN UINT32_C(0x7fc00000)

static float as_f(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}

static uint32_t as_u(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

static bool is_nan(uint32_t u)
{
	return (u & 0x7f800000u) == 0x7f800000u && (u & 0x7fffffu);
}

static uint32_t ftz(uint32_t u, unsigned ieee)
{
	if (!ieee && (u & 0x7f800000u) == 0)
		return u & 0x80000000u;
	return u;
}

/* A float result: canonical NaN, flushed when the mode says so. */
static uint32_t fres(float f, unsigned ieee)
{
	uint32_t u = as_u(f);
	return is_nan(u) ? QNAN : ftz(u, ieee);
}

/* -1, 0, 1, or 2 when unordered. */
static int fcmp(uint32_t a, uint32_t b)
{
	if (is_nan(a) || is_nan(b))
		return 2;
	float x = as_f(a), y = as_f(b);
	return x < y ? -1 : x > y ? 1 : 0;
}

/* min/max order -0 below +0 and give the canonical NaN for a NaN. */
static uint32_t fminmax(uint32_t a, uint32_t b, bool want_max)
{
	if (is_nan(a) || is_nan(b))
		return QNAN;
	int c = fcmp(a, b);
	if (c == 0 && a != b) /* +0 and -0 */
		c = (a >> 31) ? -1 : 1;
	bool a_less = c < 0;
	return (a_less != want_max) ? a : b;
}

static uint32_t float_op(const simt_instr *in, uint32_t a, uint32_t b, uint32_t c,
			 unsigned ieee)
{
	/* abs and neg change the sign bit only, subnormal or not. */
	if (in->opc == SIMT_ABS)
		return a & 0x7fffffffu;
	if (in->opc == SIMT_NEG)
		return a ^ 0x80000000u;
	a = ftz(a, ieee);
	b = ftz(b, ieee);
	c = ftz(c, ieee);
	float x = as_f(a), y = as_f(b);
	switch (in->opc) {
	case SIMT_ADD: return fres(x + y, ieee);
	case SIMT_SUB: return fres(x - y, ieee);
	case SIMT_MUL: return fres(x * y, ieee);
	case SIMT_DIV: return fres(x / y, ieee);
	case SIMT_MAD: {
		volatile float prod = as_f(fres(x * y, ieee)); /* rounded, then added */
		return fres(prod + as_f(c), ieee);
	}
	case SIMT_FMA: return fres(fmaf(x, y, as_f(c)), ieee); /* rounded once */
	case SIMT_MIN: return fminmax(a, b, false);
	case SIMT_MAX: return fminmax(a, b, true);
	default: return 0;
	}
}

/* Division as the hardware defines the corner cases (isa/opcodes.def):
 * a / 0 is all ones (u) or -1 (s), a % 0 is a; MIN / -1 = MIN. */
static uint32_t int_div(bool sgn, bool rem, uint32_t a, uint32_t b)
{
	if (b == 0)
		return rem ? a : UINT32_C(0xffffffff);
	if (!sgn)
		return rem ? a % b : a / b;
	int64_t x = (int32_t)a, y = (int32_t)b;
	return (uint32_t)(rem ? x % y : x / y);
}

static uint32_t shift(const simt_instr *in, uint32_t a, uint32_t b)
{
	if (in->opc == SIMT_SHL)
		return b >= 32 ? 0 : a << b;
	if (in->type != SIMT_S32)
		return b >= 32 ? 0 : a >> b;
	int32_t s = (int32_t)a;
	return (uint32_t)(b >= 32 ? (s < 0 ? -1 : 0) : s >> b);
}

static uint32_t int_op(const simt_instr *in, uint32_t a, uint32_t b)
{
	bool sgn = in->type == SIMT_S32;
	int32_t sa = (int32_t)a, sb = (int32_t)b;
	switch (in->opc) {
	case SIMT_ADD: return a + b;
	case SIMT_SUB: return a - b;
	case SIMT_MUL: return a * b;
	case SIMT_DIV: return int_div(sgn, false, a, b);
	case SIMT_REM: return int_div(sgn, true, a, b);
	case SIMT_AND: return a & b;
	case SIMT_OR: return a | b;
	case SIMT_XOR: return a ^ b;
	case SIMT_NOT: return ~a;
	case SIMT_SHL:
	case SIMT_SHR: return shift(in, a, b);
	case SIMT_MIN: return sgn ? (sa < sb ? a : b) : (a < b ? a : b);
	case SIMT_MAX: return sgn ? (sa < sb ? b : a) : (a < b ? b : a);
	case SIMT_ABS: return sa < 0 ? 0u - a : a;
	case SIMT_NEG: return 0u - a;
	default: return 0;
	}
}

static bool compare(const simt_instr *in, uint32_t a, uint32_t b, unsigned ieee)
{
	int c;
	if (in->type == SIMT_F32)
		c = fcmp(ftz(a, ieee), ftz(b, ieee));
	else if (in->type == SIMT_S32)
		c = (int32_t)a < (int32_t)b ? -1 : (int32_t)a > (int32_t)b;
	else
		c = a < b ? -1 : a > b;
	switch (in->cmp) {
	case SIMT_EQ: return c == 0;
	case SIMT_NE: return c != 0;
	case SIMT_LT: return c == -1;
	case SIMT_LE: return c == -1 || c == 0;
	case SIMT_GT: return c == 1;
	default: return c == 1 || c == 0;
	}
}

/* cvt: int to float rounds to nearest even; float to int rounds toward
 * zero and saturates, NaN to the largest (isa/opcodes.def). */
static uint32_t convert(const simt_instr *in, uint32_t a, unsigned ieee)
{
	if (in->stype == in->type)
		return in->type == SIMT_F32 ? fres(as_f(ftz(a, ieee)), ieee) : a;
	if (in->type == SIMT_F32)
		return fres(in->stype == SIMT_S32 ? (float)(int32_t)a : (float)a, ieee);
	if (in->stype != SIMT_F32)
		return a; /* u32 <-> s32: the same bits */
	double v = as_f(ftz(a, ieee));
	bool sgn = in->type == SIMT_S32;
	if (isnan(v))
		return sgn ? UINT32_C(0x7fffffff) : UINT32_C(0xffffffff);
	v = trunc(v);
	if (sgn)
		return v >= 2147483647.0 ? 0x7fffffffu : v <= -2147483648.0 ? 0x80000000u
			: (uint32_t)(int32_t)v;
	return v >= 4294967295.0 ? 0xffffffffu : v <= 0 ? 0 : (uint32_t)v;
}

uint32_t simt_ref_alu(const simt_instr *in, uint32_t a, uint32_t b, uint32_t c,
		      bool p, unsigned ieee, bool *pout)
{
	switch (in->opc) {
	case SIMT_SETP:
		*pout = compare(in, a, b, ieee);
		return 0;
	case SIMT_SELP:
		return p ? a : b;
	case SIMT_MOV:
		return a;
	case SIMT_CVT:
		return convert(in, a, ieee);
	default:
		break;
	}
	if (in->type == SIMT_F32)
		return float_op(in, a, b, c, ieee);
	return int_op(in, a, b);
}
