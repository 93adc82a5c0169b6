/* SPDX-License-Identifier: MIT */
/*
 * value.c: the scalar arithmetic of the stream engines' ALUs (SE_core and
 * SE_L3's scalar PE, near-stream-computing §IV-A): 64-bit wrapping
 * integers, fp32 and fp64 with C's usual conversions, so that a plain C
 * program computes the same bits.
 */
#include <math.h>
#include <string.h>

#include "nsc_int.h"

nsc_val nsc_val_int(int64_t i)
{
	nsc_val v = { .k = 'i' };
	v.u.i = i;
	return v;
}

static nsc_val val_f(float f)
{
	nsc_val v = { .k = 'f' };
	v.u.f = f;
	return v;
}

static nsc_val val_d(double x)
{
	nsc_val v = { .k = 'd' };
	v.u.d = x;
	return v;
}

static double as_d(nsc_val a)
{
	return a.k == 'i' ? (double)a.u.i : a.k == 'f' ? (double)a.u.f : a.u.d;
}

static float as_f(nsc_val a)
{
	return a.k == 'i' ? (float)a.u.i : a.k == 'f' ? a.u.f : (float)a.u.d;
}

/* C's conversion of a float to an integer is undefined out of range:
 * the engines saturate, and NaN gives 0 (doc/STREAMS.md, "Values"). */
int64_t nsc_val_as_int(nsc_val a)
{
	if (a.k == 'i')
		return a.u.i;
	double x = as_d(a);
	if (x != x)
		return 0;
	if (x >= 9223372036854775807.0)
		return INT64_MAX;
	if (x <= -9223372036854775808.0)
		return INT64_MIN;
	return (int64_t)x;
}

bool nsc_val_true(nsc_val a)
{
	return a.k == 'i' ? a.u.i != 0 : as_d(a) != 0;
}

nsc_val nsc_val_cast(nsc_val a, nsc_type t)
{
	switch (t) {
	case NSC_F32: return val_f(as_f(a));
	case NSC_F64: return val_d(as_d(a));
	case NSC_I8: return nsc_val_int((int8_t)nsc_val_as_int(a));
	case NSC_U8: return nsc_val_int((uint8_t)nsc_val_as_int(a));
	case NSC_I32: return nsc_val_int((int32_t)(uint32_t)nsc_val_as_int(a));
	case NSC_U32: return nsc_val_int((uint32_t)nsc_val_as_int(a));
	default: return nsc_val_int(nsc_val_as_int(a));
	}
}

nsc_val nsc_val_un(nsc_eop op, nsc_val a)
{
	if (op == NSC_E_NOT)
		return nsc_val_int(!nsc_val_true(a));
	if (op == NSC_E_BNOT)
		return nsc_val_int(~nsc_val_as_int(a));
	if (op == NSC_E_ABS)
		return a.k == 'i' ? nsc_val_int(a.u.i < 0 ? (int64_t)(0 - (uint64_t)a.u.i) : a.u.i)
		       : a.k == 'f' ? val_f(fabsf(a.u.f)) : val_d(fabs(a.u.d));
	/* NSC_E_NEG */
	return a.k == 'i' ? nsc_val_int((int64_t)(0 - (uint64_t)a.u.i)) : a.k == 'f' ? val_f(-a.u.f) : val_d(-a.u.d);
}

static int int_bin(nsc_eop op, int64_t x, int64_t y, int64_t *r, const char **why)
{
	uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
	switch (op) {
	case NSC_E_ADD: *r = (int64_t)(ux + uy); return 0;
	case NSC_E_SUB: *r = (int64_t)(ux - uy); return 0;
	case NSC_E_MUL: *r = (int64_t)(ux * uy); return 0;
	case NSC_E_DIV:
	case NSC_E_MOD:
		if (y == 0) {
			*why = "division by zero";
			return -1;
		}
		if (x == INT64_MIN && y == -1)
			*r = op == NSC_E_DIV ? INT64_MIN : 0;
		else
			*r = op == NSC_E_DIV ? x / y : x % y;
		return 0;
	case NSC_E_SHL: *r = (int64_t)(ux << (uy & 63)); return 0;
	case NSC_E_SHR: *r = x >> (uy & 63); return 0;   /* arithmetic */
	case NSC_E_AND: *r = x & y; return 0;
	case NSC_E_OR: *r = x | y; return 0;
	case NSC_E_XOR: *r = x ^ y; return 0;
	case NSC_E_MIN: *r = x < y ? x : y; return 0;
	case NSC_E_MAX: *r = x > y ? x : y; return 0;
	default: break;
	}
	*why = "not an integer operation";
	return -1;
}

static int cmp_bin(nsc_eop op, nsc_val a, nsc_val b, nsc_val *r)
{
	int c;
	if (a.k == 'i' && b.k == 'i') {
		c = a.u.i < b.u.i ? -1 : a.u.i > b.u.i;
	} else {
		double x = as_d(a), y = as_d(b);
		if (x != x || y != y) {
			*r = nsc_val_int(op == NSC_E_NE);
			return 0;
		}
		c = x < y ? -1 : x > y;
	}
	bool t = op == NSC_E_LT ? c < 0 : op == NSC_E_LE ? c <= 0 : op == NSC_E_GT ? c > 0 :
		 op == NSC_E_GE ? c >= 0 : op == NSC_E_EQ ? c == 0 : c != 0;
	*r = nsc_val_int(t);
	return 0;
}

int nsc_val_bin(nsc_eop op, nsc_val a, nsc_val b, nsc_val *r, const char **why)
{
	if (op >= NSC_E_LT && op <= NSC_E_NE)
		return cmp_bin(op, a, b, r);
	if (op == NSC_E_LAND || op == NSC_E_LOR) {
		bool t = op == NSC_E_LAND ? nsc_val_true(a) && nsc_val_true(b) : nsc_val_true(a) || nsc_val_true(b);
		*r = nsc_val_int(t);
		return 0;
	}
	bool intop = op == NSC_E_MOD || (op >= NSC_E_SHL && op <= NSC_E_XOR);
	if ((a.k == 'i' && b.k == 'i') || intop) {
		int64_t v;
		if (int_bin(op, nsc_val_as_int(a), nsc_val_as_int(b), &v, why) < 0)
			return -1;
		*r = nsc_val_int(v);
		return 0;
	}
	if (a.k == 'd' || b.k == 'd') {
		double x = as_d(a), y = as_d(b);
		double z = op == NSC_E_ADD ? x + y : op == NSC_E_SUB ? x - y : op == NSC_E_MUL ? x * y :
			   op == NSC_E_DIV ? x / y : op == NSC_E_MIN ? (y < x ? y : x) : (y > x ? y : x);
		*r = val_d(z);
		return 0;
	}
	float x = as_f(a), y = as_f(b);
	float z = op == NSC_E_ADD ? x + y : op == NSC_E_SUB ? x - y : op == NSC_E_MUL ? x * y :
		  op == NSC_E_DIV ? x / y : op == NSC_E_MIN ? (y < x ? y : x) : (y > x ? y : x);
	*r = val_f(z);
	return 0;
}

/* acc OP v, kept in the accumulator's type t (atomics and reductions). */
nsc_val nsc_val_start(nsc_rop op, nsc_type t)
{
	static const int64_t lo[] = { INT8_MIN, 0, INT32_MIN, 0, INT64_MIN };
	static const int64_t hi[] = { INT8_MAX, UINT8_MAX, INT32_MAX, UINT32_MAX, INT64_MAX };
	if (op == NSC_R_ADD)
		return nsc_val_cast(nsc_val_int(0), t);
	nsc_val v;
	if (t == NSC_F32 || t == NSC_F64) {
		v.k = t == NSC_F32 ? 'f' : 'd';
		if (t == NSC_F32)
			v.u.f = op == NSC_R_MIN ? INFINITY : -INFINITY;
		else
			v.u.d = op == NSC_R_MIN ? INFINITY : -INFINITY;
		return v;
	}
	return nsc_val_int(op == NSC_R_MIN ? hi[t] : lo[t]);
}

nsc_val nsc_val_reduce(nsc_rop op, nsc_val acc, nsc_val v, nsc_type t)
{
	nsc_val r;
	const char *why;
	nsc_eop e = op == NSC_R_ADD ? NSC_E_ADD : op == NSC_R_MIN ? NSC_E_MIN : NSC_E_MAX;
	if (nsc_val_bin(e, acc, v, &r, &why) < 0)
		r = acc;
	return nsc_val_cast(r, t);
}
