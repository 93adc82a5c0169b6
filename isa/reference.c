/* SPDX-License-Identifier: MIT */
/*
 * reference.c: the scalar reference.  What each command does to element
 * values, written in plain C on uint64_t, with no knowledge of wordlines,
 * bitlines or micro-ops.  `infsim run --check` and the tests hold the
 * SRAM path to these results bit for bit.
 *
 * Values are n-bit patterns in the low bits; results are masked to n bits.
 * Division follows RISC-V (a / 0 = all ones, unsigned, or -1, signed;
 * a % 0 = a; MIN / -1 = MIN, MIN % -1 = 0), which is also what the
 * restoring divider in div.c produces without any special case.
 */
#include "isa.h"

static uint64_t ref_div(bool sgn, unsigned n, uint64_t a, uint64_t b,
			uint64_t *rem)
{
	const uint64_t m = isa_mask(n);
	if (!sgn) {
		if (b == 0) {
			*rem = a;
			return m;
		}
		*rem = a % b;
		return a / b;
	}
	int64_t sa = isa_sext(a, n), sb = isa_sext(b, n);
	if (sb == 0) {
		*rem = a;
		return m;
	}
	if (sb == -1) { /* also covers MIN / -1 without overflowing */
		*rem = 0;
		return (0 - a) & m;
	}
	*rem = (uint64_t)(sa % sb) & m;
	return (uint64_t)(sa / sb) & m;
}

static bool ref_lt(bool sgn, unsigned n, uint64_t a, uint64_t b)
{
	return sgn ? isa_sext(a, n) < isa_sext(b, n) : a < b;
}

static uint64_t ref_shift(unsigned op, bool sgn, unsigned n, uint64_t a,
			  uint64_t amt)
{
	(void)sgn;
	const uint64_t m = isa_mask(n);
	const bool neg = (a >> (n - 1)) & 1;
	if (amt >= n) {
		if (op == ISA_SRA || op == ISA_SRAI)
			return neg ? m : 0;
		return 0;
	}
	switch (op) {
	case ISA_SHL: case ISA_SHLI:
		return (a << amt) & m;
	case ISA_SHR: case ISA_SHRI:
		return a >> amt;
	default: /* SRA, SRAI */
		return neg ? ((a >> amt) | (m & ~(m >> amt))) : a >> amt;
	}
}

uint64_t isa_ref_elem(const isa_cmd *c, uint64_t a, uint64_t b, bool tag_in,
		      bool *tag_out, uint64_t *r2)
{
	return isa_ref_elem3(c, a, b, 0, tag_in, tag_out, r2);
}

bool isa_ref_row(const isa_cmd *c, const uint64_t *a, const uint64_t *b, uint64_t *d,
		 size_t n)
{
	const uint64_t m = isa_mask(c->width);
	if (isa_class_of(c->op) != ISA_CLASS_I)
		return false;
	/* the cases of isa_ref_elem3, a loop each */
	switch (c->op) {
	case ISA_ADD: for (size_t i = 0; i < n; i++) d[i] = (a[i] + b[i]) & m; return true;
	case ISA_SUB: for (size_t i = 0; i < n; i++) d[i] = (a[i] - b[i]) & m; return true;
	case ISA_MUL: for (size_t i = 0; i < n; i++) d[i] = (a[i] * b[i]) & m; return true;
	case ISA_AND: for (size_t i = 0; i < n; i++) d[i] = a[i] & b[i] & m; return true;
	case ISA_OR: for (size_t i = 0; i < n; i++) d[i] = (a[i] | b[i]) & m; return true;
	case ISA_XOR: for (size_t i = 0; i < n; i++) d[i] = (a[i] ^ b[i]) & m; return true;
	default: return false;
	}
}

uint64_t isa_ref_elem3(const isa_cmd *c, uint64_t a, uint64_t b, uint64_t c3,
		       bool tag_in, bool *tag_out, uint64_t *r2)
{
	const unsigned n = c->width;
	const uint64_t m = isa_mask(n);
	const bool sgn = c->is_signed;
	uint64_t dummy = 0;
	bool t = tag_in;
	uint64_t d = 0;
	if (!r2)
		r2 = &dummy;
	*r2 = 0;
	const int cls = isa_class_of(c->op);
	if (c->op == ISA_CVT) {
		if (tag_out)
			*tag_out = t;
		return isa_fp_cvt(c, a) & m;
	}
	if (cls == ISA_CLASS_F) {
		t = tag_in;
		d = isa_ref_fp(c, a & m, b & m, c3 & m, &t);
		if (tag_out)
			*tag_out = t;
		return d & m;
	}
	if (cls == ISA_CLASS_Q) {
		if (tag_out)
			*tag_out = t;
		return isa_ref_cordic(c, a & m) & m;
	}
	a &= m;
	b &= m;
	switch (c->op) {
	case ISA_ADD: d = a + b; break;
	case ISA_SUB: d = a - b; break;
	case ISA_MUL: d = a * b; break;
	case ISA_DIV: d = ref_div(sgn, n, a, b, &dummy); break;
	case ISA_REM: ref_div(sgn, n, a, b, &d); break;
	case ISA_DIVREM: d = ref_div(sgn, n, a, b, r2); break;
	case ISA_AND: d = a & b; break;
	case ISA_OR: d = a | b; break;
	case ISA_XOR: d = a ^ b; break;
	case ISA_NOT: d = ~a; break;
	case ISA_COPY: d = a; break;
	case ISA_SHL: case ISA_SHR: case ISA_SRA:
		d = ref_shift(c->op, sgn, n, a, b);
		break;
	case ISA_SHLI: case ISA_SHRI: case ISA_SRAI:
		d = ref_shift(c->op, sgn, n, a, c->imm);
		break;
	case ISA_EQ: t = a == b; d = t; break;
	case ISA_NE: t = a != b; d = t; break;
	case ISA_LT: t = ref_lt(sgn, n, a, b); d = t; break;
	case ISA_LE: t = !ref_lt(sgn, n, b, a); d = t; break;
	case ISA_GT: t = ref_lt(sgn, n, b, a); d = t; break;
	case ISA_GE: t = !ref_lt(sgn, n, a, b); d = t; break;
	case ISA_MIN: d = ref_lt(sgn, n, a, b) ? a : b; break;
	case ISA_MAX: d = ref_lt(sgn, n, a, b) ? b : a; break;
	case ISA_SEL: d = tag_in ? a : b; break;
	case ISA_ABS: d = (sgn && ((a >> (n - 1)) & 1)) ? 0 - a : a; break;
	case ISA_NEG: d = 0 - a; break;
	case ISA_POPCNT: d = (uint64_t)__builtin_popcountll(a); break;
	case ISA_SET: d = c->imm; break;
	case ISA_SEARCH: t = a == (c->imm & m); d = t; break;
	default: d = 0; break;
	}
	if (tag_out)
		*tag_out = t;
	*r2 &= m;
	return d & m;
}

uint64_t isa_ref_reduce(const isa_cmd *c, const uint64_t *a, size_t count)
{
	const unsigned n = c->width;
	const uint64_t m = isa_mask(n);
	const bool sgn = c->is_signed;
	uint64_t acc;
	switch (c->op) {
	case ISA_REDSUM:
		acc = 0;
		for (size_t i = 0; i < count; i++)
			acc += a[i];
		return acc & m;
	case ISA_REDMIN:
	case ISA_REDMAX: {
		/* The identity: the largest (min) or smallest (max) value. */
		const bool mn = c->op == ISA_REDMIN;
		if (sgn)
			acc = mn ? m >> 1 : (m >> 1) + 1; /* MAX or MIN */
		else
			acc = mn ? m : 0;
		acc &= m;
		for (size_t i = 0; i < count; i++) {
			uint64_t v = a[i] & m;
			bool lt = ref_lt(sgn, n, v, acc);
			if (mn ? lt : ref_lt(sgn, n, acc, v))
				acc = v;
		}
		return acc;
	}
	default:
		return 0;
	}
}
