/* SPDX-License-Identifier: MIT */
/*
 * ops.c: what each VIMA instruction computes on a vector (ops.def;
 * doc/VIMA.md "Instruction reference").
 *
 * Integers wrap (two's complement, arithmetic done unsigned); a shift
 * count is taken modulo the width; division truncates toward zero,
 * x / 0 is all ones and INT_MIN / -1 is INT_MIN (the paper is silent;
 * these are RISC-V's answers, which never trap, so an element cannot
 * raise an exception of its own).  Floats are IEEE 754 binary32/64 with
 * round-to-nearest-even and subnormals kept; every NaN an arithmetic
 * instruction produces is the canonical quiet NaN (0x7fc00000,
 * 0x7ff8000000000000) so results do not depend on the host's NaN payload
 * rules; abs, copy and mov move bits.  mad multiplies and adds each
 * element in separate, rounded steps.
 */
#include <math.h>
#include <string.h>

#include "vima.h"

#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#else
#pragma GCC optimize("fp-contract=off")
#endif

#define ALL ((1u << VIMA_NTYPES) - 1)
#define INT ((1u << VIMA_I32) | (1u << VIMA_U32) | (1u << VIMA_I64) | (1u << VIMA_U64))
#define SF ((1u << VIMA_I32) | (1u << VIMA_I64) | (1u << VIMA_F32) | (1u << VIMA_F64))

static const vima_op_info infos[VIMA_NOPS] = {
#define X(n, form, types, fu, sem) \
	[VIMA_OP_##n] = { #n, VIMA_FORM_##form, types, VIMA_FU_##fu, sem },
#include "ops.def"
#undef X
};

static const char *const type_names[VIMA_NTYPES] = { "i32", "u32", "i64", "u64", "f32", "f64" };

const vima_op_info *vima_op_info_of(vima_op op) { return &infos[op]; }
const char *vima_type_name(vima_type t) { return type_names[t]; }
unsigned vima_type_size(vima_type t) { return t == VIMA_I32 || t == VIMA_U32 || t == VIMA_F32 ? 4 : 8; }
bool vima_type_is_float(vima_type t) { return t == VIMA_F32 || t == VIMA_F64; }

int vima_op_lookup(const char *s, size_t len)
{
	for (int i = 0; i < VIMA_NOPS; i++)
		if (strlen(infos[i].name) == len && !memcmp(infos[i].name, s, len))
			return i;
	return -1;
}

int vima_type_lookup(const char *s, size_t len)
{
	for (int i = 0; i < VIMA_NTYPES; i++)
		if (len == 3 && !memcmp(type_names[i], s, 3))
			return i;
	return -1;
}

/* ---- one element, by kind ---- */

/* Integers as unsigned w-bit patterns u (sign bit sb); signed views by
 * the sign bit, so no signed overflow is ever evaluated in C. */
static uint64_t int_elem(vima_op op, bool sgn, unsigned w, uint64_t a, uint64_t b)
{
	const uint64_t m = w == 64 ? ~0ull : (1ull << w) - 1, sb = 1ull << (w - 1);
	const unsigned s = (unsigned)(b & (w - 1));
	/* a < b as signed: flip the sign bits and compare unsigned. */
	const bool lt = sgn ? ((a ^ sb) < (b ^ sb)) : a < b;
	switch (op) {
	case VIMA_OP_add: return (a + b) & m;
	case VIMA_OP_sub: return (a - b) & m;
	case VIMA_OP_abs: return (a & sb) ? (0 - a) & m : a;
	case VIMA_OP_max: return lt ? b : a;
	case VIMA_OP_min: return lt ? a : b;
	case VIMA_OP_copy: return a;
	case VIMA_OP_and: return a & b;
	case VIMA_OP_or: return a | b;
	case VIMA_OP_xor: return a ^ b;
	case VIMA_OP_not: return ~a & m;
	case VIMA_OP_slt: return lt;
	case VIMA_OP_cmpeq: return a == b;
	case VIMA_OP_sll: return (a << s) & m;
	case VIMA_OP_srl: return a >> s;
	case VIMA_OP_sra: return (a & sb) ? ((a >> s) | (m & ~(m >> s))) : a >> s;
	case VIMA_OP_mul: return (a * b) & m;
	default: break;
	}
	/* div */
	if (b == 0)
		return m;
	if (!sgn)
		return a / b;
	const bool na = a & sb, nb = b & sb;
	const uint64_t ma = na ? (0 - a) & m : a, mb = nb ? (0 - b) & m : b;
	const uint64_t q = ma / mb; /* INT_MIN / -1: q = 2^(w-1), wraps to INT_MIN */
	return (na != nb ? 0 - q : q) & m;
}

static float f32_of(uint64_t v) { uint32_t u = (uint32_t)v; float f; memcpy(&f, &u, 4); return f; }
static uint64_t bits_f32(float f) { uint32_t u; memcpy(&u, &f, 4); return isnan(f) ? 0x7fc00000u : u; }
static double f64_of(uint64_t v) { double f; memcpy(&f, &v, 8); return f; }
static uint64_t bits_f64(double f) { uint64_t u; memcpy(&u, &f, 8); return isnan(f) ? 0x7ff8000000000000ull : u; }

/* max/min of IEEE values: a NaN operand gives NaN; -0 < +0. */
#define FLOAT_ELEM(NAME, T, OF, BITS, SIGNMASK)                                  \
	static uint64_t NAME(vima_op op, uint64_t ab, uint64_t bb)               \
	{                                                                        \
		const T a = OF(ab), b = OF(bb);                                  \
		const bool lt = a < b || (a == b && (ab & SIGNMASK) && !(bb & SIGNMASK)); \
		switch (op) {                                                    \
		case VIMA_OP_add: return BITS(a + b);                            \
		case VIMA_OP_sub: return BITS(a - b);                            \
		case VIMA_OP_abs: return ab & ~SIGNMASK;                         \
		case VIMA_OP_max: return isnan(a) || isnan(b) ? BITS(a + b) : lt ? bb : ab; \
		case VIMA_OP_min: return isnan(a) || isnan(b) ? BITS(a + b) : lt ? ab : bb; \
		case VIMA_OP_copy: return ab;                                    \
		case VIMA_OP_slt: return BITS((T)(a < b));                       \
		case VIMA_OP_cmpeq: return BITS((T)(a == b));                    \
		case VIMA_OP_mul: return BITS(a * b);                            \
		default: return BITS(a / b);                                     \
		}                                                                \
	}
FLOAT_ELEM(f32_elem, float, f32_of, bits_f32, 0x80000000ull)
FLOAT_ELEM(f64_elem, double, f64_of, bits_f64, 0x8000000000000000ull)

static uint64_t load(const uint8_t *p, unsigned size)
{
	if (size == 4) {
		uint32_t v;
		memcpy(&v, p, 4);
		return v;
	}
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

static void store(uint8_t *p, unsigned size, uint64_t v)
{
	if (size == 4) {
		uint32_t u = (uint32_t)v;
		memcpy(p, &u, 4);
	} else {
		memcpy(p, &v, 8);
	}
}

static uint64_t elem(vima_op op, vima_type t, uint64_t a, uint64_t b)
{
	switch (t) {
	case VIMA_F32: return f32_elem(op, a, b);
	case VIMA_F64: return f64_elem(op, a, b);
	default: return int_elem(op, t == VIMA_I32 || t == VIMA_I64, vima_type_size(t) * 8, a, b);
	}
}

/* mad: d[j] = d[j] + a[j]*b[j], the product and the sum each rounded (or
 * wrapped) on its own (NEON's VMLA, not a fused multiply-add). */
static void mad(vima_type t, size_t n, uint8_t *d, const uint8_t *a, const uint8_t *b)
{
	const unsigned sz = vima_type_size(t);
	for (size_t j = 0; j < n; j++) {
		const uint64_t p = elem(VIMA_OP_mul, t, load(a + j * sz, sz), load(b + j * sz, sz));
		store(d + j * sz, sz, elem(VIMA_OP_add, t, load(d + j * sz, sz), p));
	}
}

/* One loop per type and instruction, so that the compiler folds the
 * element's switch away (the per-element work of a run). */
#define LOOP(SZ, EXPR)                                                           \
	for (size_t j = 0; j < n; j++) {                                         \
		const uint64_t x = load(a + j * SZ, SZ), y = b ? load(b + j * SZ, SZ) : 0; \
		store(d + j * SZ, SZ, EXPR);                                     \
	}
#define I32(op, x, y) int_elem(op, true, 32, x, y)
#define U32(op, x, y) int_elem(op, false, 32, x, y)
#define I64(op, x, y) int_elem(op, true, 64, x, y)
#define U64(op, x, y) int_elem(op, false, 64, x, y)
#define FNAME exec_i32
#define SZ 4
#define ELEM I32
#include "ops_loop.h"
#define FNAME exec_u32
#define SZ 4
#define ELEM U32
#include "ops_loop.h"
#define FNAME exec_i64
#define SZ 8
#define ELEM I64
#include "ops_loop.h"
#define FNAME exec_u64
#define SZ 8
#define ELEM U64
#include "ops_loop.h"
#define FNAME exec_f32
#define SZ 4
#define ELEM f32_elem
#include "ops_loop.h"
#define FNAME exec_f64
#define SZ 8
#define ELEM f64_elem
#include "ops_loop.h"

void vima_op_exec(vima_op op, vima_type t, size_t n, uint8_t *d,
		  const uint8_t *a, const uint8_t *b, uint64_t *imm)
{
	static void (*const typed[VIMA_NTYPES])(vima_op, size_t, uint8_t *, const uint8_t *,
						const uint8_t *) = {
		exec_i32, exec_u32, exec_i64, exec_u64, exec_f32, exec_f64,
	};
	const unsigned sz = vima_type_size(t);
	if (op == VIMA_OP_mad) {
		mad(t, n, d, a, b);
		return;
	}
	if (op == VIMA_OP_mov) {
		for (size_t j = 0; j < n; j++)
			store(d + j * sz, sz, *imm);
		return;
	}
	typed[t](op, n, d, a, infos[op].form == VIMA_FORM_VV ? b : NULL);
}
