/* SPDX-License-Identifier: MIT */
/*
 * alu.c: the ARE's ALU (§IV-C 4): what one element pair contributes, how
 * a partial result absorbs it, and what a commit writes.  Integers wrap
 * in two's complement; f32 is IEEE single precision, one rounding per
 * operation (a multiply then an add for mac: no fused multiply-add).
 */
#include <math.h>
#include <string.h>

#include "ar_private.h"

unsigned ar_type_size(ar_type t)
{
	return t == AR_I64 ? 8 : 4;
}

const char *ar_type_name(ar_type t)
{
	return t == AR_I32 ? "i32" : t == AR_I64 ? "i64" : "f32";
}

bool ar_op_is_flow(ar_op op)
{
	return op <= AR_OP_ABS;
}

bool ar_op_needs_src2(ar_op op)
{
	return op == AR_OP_MAC || op == AR_OP_MSUB || op == AR_OP_ABS || op == AR_OP_DIV;
}

static float f_of(uint64_t b)
{
	uint32_t u = (uint32_t)b;
	float f;
	memcpy(&f, &u, 4);
	return f;
}

static uint64_t of_f(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

/* Integers as signed values of their width. */
static int64_t s_of(ar_type t, uint64_t b)
{
	return t == AR_I32 ? (int64_t)(int32_t)(uint32_t)b : (int64_t)b;
}

static uint64_t trunc_to(ar_type t, uint64_t v)
{
	return t == AR_I32 ? (uint32_t)v : v;
}

enum { K_ADD, K_XOR, K_AND, K_MIN, K_MAX, K_MUL, K_ABSDIFF };

static uint64_t int_bin(int k, ar_type t, uint64_t a, uint64_t b)
{
	switch (k) {
	case K_ADD: return trunc_to(t, a + b);
	case K_XOR: return a ^ b;
	case K_AND: return a & b;
	case K_MIN: return s_of(t, b) < s_of(t, a) ? b : a;
	case K_MAX: return s_of(t, b) > s_of(t, a) ? b : a;
	case K_MUL: return trunc_to(t, a * b);
	default: {
		uint64_t d = trunc_to(t, a - b);
		return s_of(t, d) < 0 ? trunc_to(t, 0 - d) : d;
	}
	}
}

/* min and max keep the first value unless the second is strictly
 * smaller (larger): a NaN second operand is ignored, a NaN first kept. */
static uint64_t f32_bin(int k, uint64_t a, uint64_t b)
{
	float x = f_of(a), y = f_of(b);
	switch (k) {
	case K_ADD: return of_f(x + y);
	case K_MIN: return y < x ? b : a;
	case K_MAX: return y > x ? b : a;
	case K_MUL: return of_f(x * y);
	default: return of_f(fabsf(x - y));
	}
}

static uint64_t bin(int k, ar_type t, uint64_t a, uint64_t b)
{
	return t == AR_F32 ? f32_bin(k, a, b) : int_bin(k, t, a, b);
}

static int combine_kind(ar_op op)
{
	switch (op) {
	case AR_OP_XOR: return K_XOR;
	case AR_OP_AND: return K_AND;
	case AR_OP_MIN: return K_MIN;
	case AR_OP_MAX: return K_MAX;
	default: return K_ADD;
	}
}

uint64_t ar_alu_elem(ar_op op, ar_type t, uint64_t a, uint64_t b, bool has_b)
{
	switch (op) {
	case AR_OP_MAC: case AR_OP_MSUB: return bin(K_MUL, t, a, b);
	case AR_OP_ABS: return bin(K_ABSDIFF, t, a, b);
	default: return has_b ? bin(combine_kind(op), t, a, b) : a;
	}
}

uint64_t ar_alu_combine(ar_op op, ar_type t, uint64_t acc, uint64_t v)
{
	return bin(combine_kind(op), t, acc, v);
}

uint64_t ar_alu_commit(ar_op op, ar_type t, uint64_t old, uint64_t result)
{
	if (op != AR_OP_MSUB)
		return ar_alu_combine(op, t, old, result);
	if (t == AR_F32)
		return of_f(f_of(old) - f_of(result));
	return trunc_to(t, old - result);
}

int ar_alu_assign(ar_op op, ar_type t, uint64_t a, uint64_t b, uint64_t *out)
{
	if (op != AR_OP_DIV) {
		*out = a;
		return 0;
	}
	if (t == AR_F32) {
		*out = of_f(f_of(a) / f_of(b));
		return 0;
	}
	int64_t x = s_of(t, a), y = s_of(t, b);
	if (y == 0)
		return -1;
	if (y == -1) /* the most negative value divided by -1 wraps */
		*out = trunc_to(t, 0 - (uint64_t)x);
	else
		*out = trunc_to(t, (uint64_t)(x / y));
	return 0;
}
