/* SPDX-License-Identifier: MIT */
/*
 * ref.c: what a .vima program means, for --check: every instruction and
 * host store in program order, each directly on one flat copy of memory.
 * No vector cache, no fill buffer, no host caches, no DRAM model: the
 * host sees memory as it is, so a coherent machine must end with the
 * same bytes.
 *
 * The arithmetic is written here again, in plain C on typed values,
 * apart from ops.c (which the unit uses), from doc/VIMA.md "Semantics":
 * integers wrap, shift counts are taken modulo the width, x / 0 is all
 * ones and INT_MIN / -1 is INT_MIN; floats are IEEE with every NaN an
 * arithmetic instruction makes canonical; max and min order -0 below +0;
 * mad adds each element's rounded product to the destination's element.
 * The loops are walked here too.  Only the parsed program (its
 * statements and the postfix code of its index expressions, vima_eval)
 * is shared.
 *
 * It also remembers which unit last wrote each vector line (an
 * instruction writes a whole line) and each element a host store
 * wrote (a small table by address), so a difference can name the
 * instruction behind it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vima_int.h"

#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#else
#pragma GCC optimize("fp-contract=off")
#endif

static int ref_fail(const vima_reference *r, const vima_stmt *s, diag *d, const char *what)
{
	diag_at(d, r->p->path, s->line, s->col, "the reference: %s", what);
	return -1;
}

int vima_ref_init(vima_reference *r, const vima_program *p, const uint8_t *mem, uint64_t max_steps,
		  diag *d)
{
	memset(r, 0, sizeof *r);
	r->p = p;
	r->vbytes = p->vector_bytes;
	r->max_steps = max_steps ? max_steps : VIMA_STEPS_MAX;
	r->nlines = p->mem_bytes / r->vbytes;
	r->mem = malloc(p->mem_bytes);
	r->tmp = malloc(r->vbytes);
	r->lines = calloc(r->nlines, sizeof *r->lines);
	if (!r->mem || !r->tmp || !r->lines) {
		vima_ref_free(r);
		diag_file(d, p->path, "out of memory for the reference (--check)");
		return -1;
	}
	memcpy(r->mem, mem, p->mem_bytes);
	return 0;
}

void vima_ref_free(vima_reference *r)
{
	free(r->mem);
	free(r->tmp);
	free(r->lines);
	free(r->keys);
	free(r->vals);
	memset(r, 0, sizeof *r);
}

int vima_ref_clone(vima_reference *dst, const vima_reference *src)
{
	*dst = *src;
	dst->mem = malloc(src->p->mem_bytes);
	dst->tmp = malloc(src->vbytes);
	dst->lines = malloc(src->nlines * sizeof *src->lines);
	dst->keys = src->cap ? malloc(src->cap * sizeof *src->keys) : NULL;
	dst->vals = src->cap ? malloc(src->cap * sizeof *src->vals) : NULL;
	if (!dst->mem || !dst->tmp || !dst->lines || (src->cap && (!dst->keys || !dst->vals))) {
		vima_ref_free(dst);
		return -1;
	}
	memcpy(dst->mem, src->mem, src->p->mem_bytes);
	memcpy(dst->lines, src->lines, src->nlines * sizeof *src->lines);
	if (src->cap) {
		memcpy(dst->keys, src->keys, src->cap * sizeof *src->keys);
		memcpy(dst->vals, src->vals, src->cap * sizeof *src->vals);
	}
	return 0;
}

/* ---- who wrote what ---- */

/* The slot of key (an address + 1; 0 marks a free slot) in a table of
 * cap (a power of two) slots. */
static size_t slot(const uint64_t *keys, size_t cap, uint64_t key)
{
	size_t i = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 20) & (cap - 1);
	while (keys[i] && keys[i] != key)
		i = (i + 1) & (cap - 1);
	return i;
}

static int grow_table(vima_reference *r)
{
	const size_t cap = r->cap ? r->cap * 2 : 64;
	uint64_t *keys = calloc(cap, sizeof *keys);
	vima_writer *vals = malloc(cap * sizeof *vals);
	if (!keys || !vals) {
		free(keys);
		free(vals);
		return -1;
	}
	for (size_t i = 0; i < r->cap; i++)
		if (r->keys[i]) {
			const size_t k = slot(keys, cap, r->keys[i]);
			keys[k] = r->keys[i];
			vals[k] = r->vals[i];
		}
	free(r->keys);
	free(r->vals);
	r->keys = keys;
	r->vals = vals;
	r->cap = cap;
	return 0;
}

/* Element at addr written by w (host stores: at most one entry
 * per element, so the table stays within the memory's size). */
static int wrote_element(vima_reference *r, uint64_t addr, vima_writer w)
{
	if ((r->used + 1) * 2 > r->cap && grow_table(r) < 0)
		return -1;
	const size_t k = slot(r->keys, r->cap, addr + 1);
	r->used += !r->keys[k];
	r->keys[k] = addr + 1;
	r->vals[k] = w;
	return 0;
}

vima_writer vima_ref_writer(const vima_reference *r, uint64_t addr)
{
	vima_writer w = r->lines[addr / r->vbytes];
	if (r->cap) {
		const size_t k = slot(r->keys, r->cap, addr + 1);
		if (r->keys[k] && r->vals[k].seq > w.seq)
			w = r->vals[k];
	}
	return w;
}

/* ---- one element ---- */

static uint64_t get(const uint8_t *m, unsigned size)
{
	uint64_t v = 0;
	memcpy(&v, m, size); /* little-endian host */
	return v;
}

static void put(uint8_t *m, unsigned size, uint64_t v)
{
	memcpy(m, &v, size);
}

static float as_f32(uint64_t b) { float f; uint32_t w = (uint32_t)b; memcpy(&f, &w, 4); return f; }
static double as_f64(uint64_t b) { double f; memcpy(&f, &b, 8); return f; }

static uint64_t of_f32(float f)
{
	uint32_t w;
	memcpy(&w, &f, 4);
	return w;
}

static uint64_t of_f64(double f)
{
	uint64_t w;
	memcpy(&w, &f, 8);
	return w;
}

/* An arithmetic result: a NaN becomes the canonical quiet NaN. */
static uint64_t canon32(float f) { return f != f ? 0x7fc00000u : of_f32(f); }
static uint64_t canon64(double f) { return f != f ? 0x7ff8000000000000ull : of_f64(f); }

/* An integer instruction on w-bit elements x and y (their bits). */
static uint64_t int_op(vima_op op, bool sgn, unsigned w, uint64_t x, uint64_t y)
{
	const uint64_t mask = w == 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1;
	const unsigned sh = (unsigned)(y % w);
	/* the signed values, sign-extended to 64 bits */
	const int64_t sx = w == 64 ? (int64_t)x : (int64_t)(int32_t)(uint32_t)x;
	const int64_t sy = w == 64 ? (int64_t)y : (int64_t)(int32_t)(uint32_t)y;
	const bool less = sgn ? sx < sy : x < y;
	switch (op) {
	case VIMA_OP_add: return (x + y) & mask;
	case VIMA_OP_sub: return (x - y) & mask;
	case VIMA_OP_mul: return (x * y) & mask;
	case VIMA_OP_abs: return sx < 0 ? (0 - x) & mask : x;
	case VIMA_OP_max: return less ? y : x;
	case VIMA_OP_min: return less ? x : y;
	case VIMA_OP_copy: return x;
	case VIMA_OP_and: return x & y;
	case VIMA_OP_or: return x | y;
	case VIMA_OP_xor: return x ^ y;
	case VIMA_OP_not: return ~x & mask;
	case VIMA_OP_slt: return less ? 1 : 0;
	case VIMA_OP_cmpeq: return x == y ? 1 : 0;
	case VIMA_OP_sll: return (x << sh) & mask;
	case VIMA_OP_srl: return x >> sh;
	case VIMA_OP_sra: /* copies of the top bit come in, for iN and uN */
		return (uint64_t)(sx < 0 ? ~(~sx >> sh) : sx >> sh) & mask;
	case VIMA_OP_div:
		if (y == 0)
			return mask;
		if (!sgn)
			return x / y;
		if (sy == -1)
			return (0 - x) & mask; /* INT_MIN / -1 wraps to INT_MIN */
		return (uint64_t)(sx / sy) & mask;
	default:
		return 0;
	}
}

/* max and min of floats: NaN if either is; -0 below +0. */
#define FLOAT_OP(NAME, T, AS, CANON, SIGN)                                              \
	static uint64_t NAME(vima_op op, uint64_t xb, uint64_t yb)                     \
	{                                                                               \
		const T x = AS(xb), y = AS(yb);                                         \
		const bool nan = x != x || y != y;                                      \
		/* x below y: smaller, or the same zero with x negative */             \
		const bool below = x < y || (x == y && (xb & SIGN) > (yb & SIGN));      \
		switch (op) {                                                           \
		case VIMA_OP_add: return CANON(x + y);                                  \
		case VIMA_OP_sub: return CANON(x - y);                                  \
		case VIMA_OP_mul: return CANON(x * y);                                  \
		case VIMA_OP_div: return CANON(x / y);                                  \
		case VIMA_OP_abs: return xb & ~SIGN;                                    \
		case VIMA_OP_copy: return xb;                                           \
		case VIMA_OP_max: return nan ? CANON(x + y) : below ? yb : xb;          \
		case VIMA_OP_min: return nan ? CANON(x + y) : below ? xb : yb;          \
		case VIMA_OP_slt: return CANON(x < y ? (T)1 : (T)0);                    \
		case VIMA_OP_cmpeq: return CANON(x == y ? (T)1 : (T)0);                 \
		default: return 0;                                                      \
		}                                                                       \
	}
FLOAT_OP(f32_op, float, as_f32, canon32, UINT64_C(0x80000000))
FLOAT_OP(f64_op, double, as_f64, canon64, UINT64_C(0x8000000000000000))

static uint64_t elem_op(vima_op op, vima_type t, uint64_t x, uint64_t y)
{
	switch (t) {
	case VIMA_I32: return int_op(op, true, 32, x, y);
	case VIMA_U32: return int_op(op, false, 32, x, y);
	case VIMA_I64: return int_op(op, true, 64, x, y);
	case VIMA_U64: return int_op(op, false, 64, x, y);
	case VIMA_F32: return f32_op(op, x, y);
	default: return f64_op(op, x, y);
	}
}

/* mad, one element: x + a*b, the product rounded, then the sum. */
static uint64_t mad(vima_type t, uint64_t x, uint64_t a, uint64_t b)
{
	if (t == VIMA_F32) {
		const float p = as_f32(a) * as_f32(b);
		return canon32(as_f32(x) + p);
	}
	if (t == VIMA_F64) {
		const double p = as_f64(a) * as_f64(b);
		return canon64(as_f64(x) + p);
	}
	const uint64_t mask = t == VIMA_I64 || t == VIMA_U64 ? UINT64_MAX : UINT32_MAX;
	return (x + a * b) & mask;
}

/* ---- statements ---- */

/* The byte address of operand k of s: n elements, at an index that is a
 * multiple of n (line), through the reference's own reading of the page
 * table (doc/VIMA.md, "Address translation"): the address
 * ((array + 1) << 40) + index * size lies in the mapping of the array its
 * bits 40 and up name, which covers the array's bytes rounded up to whole
 * vectors, and that array's perm= allows the access (write: rw; read: rw
 * or ro).  0, 2 for a page fault, or -1 with d. */
static int ref_addr(vima_reference *r, const vima_stmt *s, int k, uint64_t n, bool line,
		    bool write, uint64_t *addr, diag *d)
{
	const int ai = s->ref[k].array;
	const int64_t sz = vima_type_size(r->p->arrays[ai].type);
	int64_t i, off, va;
	const char *why;
	if (vima_eval(r->p, s->ref[k].index, r->vars, &i, &why) < 0)
		return ref_fail(r, s, d, why);
	if (line && i % (int64_t)n != 0)
		return ref_fail(r, s, d, "a destination that does not start a line");
	if (__builtin_mul_overflow(i, sz, &off) ||
	    __builtin_add_overflow((int64_t)(ai + 1) * ((int64_t)1 << 40), off, &va) || va < 0)
		return 2;
	const uint64_t region = (uint64_t)va >> 40;
	if (region < 1 || region > r->p->narrays)
		return 2;
	const vima_array *m = &r->p->arrays[region - 1];
	const uint64_t o = (uint64_t)va - (region << 40);
	const uint64_t mapped = (m->bytes + r->vbytes - 1) / r->vbytes * r->vbytes;
	if (o + n * (uint64_t)sz > mapped || m->perm == 0 || (write && m->perm != 3))
		return 2;
	*addr = m->base + o;
	return 0;
}

static int ref_insn(vima_reference *r, const vima_stmt *s, vima_writer w, diag *d)
{
	const vima_form form = vima_op_info_of(s->op)->form;
	const unsigned sz = vima_type_size(s->type);
	const uint64_t n = r->vbytes / sz;
	uint64_t dst, a = 0, b = 0, at = 0;
	int rc = ref_addr(r, s, 0, n, true, true, &dst, d);
	if (rc == 0 && form != VIMA_FORM_I)
		rc = ref_addr(r, s, 1, n, false, false, &a, d);
	if (rc == 0 && (form == VIMA_FORM_VV || form == VIMA_FORM_R))
		rc = ref_addr(r, s, 2, n, false, false, &b, d);
	if (rc == 0 && form == VIMA_FORM_I && s->imm_ref)
		rc = ref_addr(r, s, 1, 1, false, false, &at, d);
	if (rc != 0)
		return rc;
	uint64_t value = s->imm;
	if (form == VIMA_FORM_I && s->imm_ref)
		value = get(r->mem + at, sz);
	/* every source is read before the destination is written */
	for (uint64_t j = 0; j < n; j++) {
		const uint64_t x = form == VIMA_FORM_I ? value : get(r->mem + a + j * sz, sz);
		const uint64_t y = form == VIMA_FORM_VV || form == VIMA_FORM_R
				   ? get(r->mem + b + j * sz, sz) : 0;
		put(r->tmp + j * sz, sz, form == VIMA_FORM_I ? x
			: form == VIMA_FORM_R ? mad(s->type, get(r->mem + dst + j * sz, sz), x, y)
			: elem_op(s->op, s->type, x, y));
	}
	memcpy(r->mem + dst, r->tmp, r->vbytes);
	r->lines[dst / r->vbytes] = w;
	return 0;
}

static int ref_host(vima_reference *r, const vima_stmt *s, vima_writer w, diag *d)
{
	const unsigned sz = vima_type_size(s->type);
	uint64_t dst, src = 0, v = s->imm;
	int rc = ref_addr(r, s, 0, 1, false, true, &dst, d);
	if (rc == 0 && s->imm_ref)
		rc = ref_addr(r, s, 1, 1, false, false, &src, d);
	if (rc != 0)
		return rc;
	if (s->imm_ref)
		v = get(r->mem + src, sz);
	put(r->mem + dst, sz, v);
	return wrote_element(r, dst, w) < 0 ? ref_fail(r, s, d, "out of memory") : 0;
}

static int ref_for(vima_reference *r, const vima_stmt *s, diag *d)
{
	int64_t lo, hi, step;
	const char *why;
	if (vima_eval(r->p, s->lo, r->vars, &lo, &why) < 0 ||
	    vima_eval(r->p, s->hi, r->vars, &hi, &why) < 0 ||
	    vima_eval(r->p, s->step, r->vars, &step, &why) < 0)
		return ref_fail(r, s, d, why);
	if (step <= 0)
		return ref_fail(r, s, d, "a loop step that is not positive");
	if (lo >= hi) {
		r->next = (size_t)s->other + 1;
		return 0;
	}
	r->vars[s->var] = lo;
	r->hi[s->var] = hi;
	r->step[s->var] = step;
	r->next++;
	return 0;
}

static void ref_end(vima_reference *r, const vima_stmt *s)
{
	int64_t v;
	if (!__builtin_add_overflow(r->vars[s->var], r->step[s->var], &v) && v < r->hi[s->var]) {
		r->vars[s->var] = v;
		r->next = (size_t)s->other + 1; /* the loop's first statement */
	} else {
		r->next++;
	}
}

int vima_ref_step(vima_reference *r, size_t *stmt, diag *d)
{
	while (r->next < r->p->nstmts) {
		const vima_stmt *s = &r->p->stmts[r->next];
		if (++r->steps > r->max_steps)
			return ref_fail(r, s, d, "the step limit");
		if (s->kind == VIMA_S_FOR) {
			if (ref_for(r, s, d) < 0)
				return -1;
			continue;
		}
		if (s->kind == VIMA_S_END) {
			ref_end(r, s);
			continue;
		}
		const bool insn = s->kind == VIMA_S_INSN;
		vima_writer w = { ++r->units, insn ? ++r->insns : ++r->hosts, (uint32_t)r->next };
		const int rc = insn ? ref_insn(r, s, w, d) : ref_host(r, s, w, d);
		if (rc < 0)
			return -1;
		*stmt = r->next;
		if (rc == 2) { /* a page fault: nothing of it done, and the program stops */
			r->units--;
			*(insn ? &r->insns : &r->hosts) -= 1;
			return 2;
		}
		r->next++;
		return 1;
	}
	return 0;
}
