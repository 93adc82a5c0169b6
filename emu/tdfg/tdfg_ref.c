/* SPDX-License-Identifier: MIT */
/*
 * tdfg_ref.c: what each tDFG node means, computed in plain C (tdfg.h).
 *
 * A node's value is an array over its domain (a box of the region's
 * lattice); the elements outside it are 0 and never compared.  Compute
 * nodes apply isa_ref_elem3 element by element (the same scalar
 * reference the stream's reference model uses, with the machine's fp mode
 * and CORDIC iterations), or for fp32 add, sub, mul, div and madd the
 * host's FPU a row at a time (emu_ref_fp_run: the same bits); shift and
 * bcast are index arithmetic.  Nothing
 * here reads the machine's cells or runs a micro-op: it knows nothing of
 * tiles, wordlines or the JIT's commands (emu_tref_compare reads the
 * machine only to compare).
 *
 * A program's arrays (doc/TDFG.md, "Programs") are plain row-major C
 * arrays: a tensor node reads its box, a store writes its box, in
 * program order.
 *
 * Memory (issue 12: the reference stays within the machine's own): a
 * value is kept at its element's width (1, 2, 4 or 8 bytes) and only over
 * its domain, and only while it is live: it is dropped once the last node
 * that reads it has been computed, and a node that nothing reads once it
 * has been compared (or when the next run starts).  Only the current
 * run's values are ever kept (a node reads only nodes of its own run);
 * asking for a dropped node starts again from the arrays' first data.
 */
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "ref_fp.h"
#include "tdfg.h"

#define NO_USE UINT32_MAX

/* Elements of some width over a box [lo, lo + n). */
typedef struct tval {
	uint8_t *p;
	size_t cap;            /* bytes at p */
	unsigned bytes;
	uint64_t lo[EMU_LAYOUT_DIMS], n[EMU_LAYOUT_DIMS];
	bool kept;             /* computed and not dropped (p may be NULL: empty) */
} tval;

/* Dropped values' memory, kept for the next node of the same size: a
 * node of a big lattice would otherwise fault in fresh zeroed pages of
 * the size of the whole domain, each time (most of the reference's
 * time).  At most SPARES blocks, so the reference's memory stays within
 * its live values and four more. */
enum { SPARES = 4 };

struct emu_tref {
	const emu_tdfg *t;
	struct spare { uint8_t *p; size_t cap; } spare[SPARES];
	tval *v;               /* per node */
	uint32_t *last;        /* per node: the last node reading it, or NO_USE */
	uint8_t *echo;         /* per node, when asked for (emu_tref_watch_echo): 1
				* when a compute node's value is one of its
				* operands' over its whole domain */
	size_t done;           /* nodes computed: [0, done) */
	tval *arr0, *arr;      /* per array: its first data, and its data now */
};

/* ---- values at their width ---- */

static unsigned width_bytes(unsigned width)
{
	return width <= 8 ? 1 : width <= 16 ? 2 : width <= 32 ? 4 : 8;
}

static uint64_t box_elems(const tval *v)
{
	return v->n[0] * v->n[1] * v->n[2];
}

/* Element i of a value of `bytes` bytes an element. */
static inline uint64_t elem_of(const uint8_t *p, unsigned bytes, uint64_t i)
{
	switch (bytes) {
	case 1: return p[i];
	case 2: { uint16_t x; memcpy(&x, p + 2 * i, 2); return x; }
	case 4: { uint32_t x; memcpy(&x, p + 4 * i, 4); return x; }
	default: { uint64_t x; memcpy(&x, p + 8 * i, 8); return x; }
	}
}

/* Element i := x, at `bytes` bytes an element. */
static inline void elem_put(uint8_t *p, unsigned bytes, uint64_t i, uint64_t x)
{
	switch (bytes) {
	case 1: p[i] = (uint8_t)x; break;
	case 2: { const uint16_t y = (uint16_t)x; memcpy(p + 2 * i, &y, 2); break; }
	case 4: { const uint32_t y = (uint32_t)x; memcpy(p + 4 * i, &y, 4); break; }
	default: memcpy(p + 8 * i, &x, 8); break;
	}
}

static uint64_t load_at(const tval *v, uint64_t i)
{
	return elem_of(v->p, v->bytes, i);
}

static void store_at(tval *v, uint64_t i, uint64_t x)
{
	elem_put(v->p, v->bytes, i, x);
}

/* The runs below at a constant width: `bytes` is a constant where they
 * are called, so each width gets its own simple loop. */
static inline void load_run_w(const uint8_t *p, unsigned bytes, uint64_t n, uint64_t *d)
{
	for (uint64_t i = 0; i < n; i++)
		d[i] = elem_of(p, bytes, i);
}

static inline void store_run_w(uint8_t *p, unsigned bytes, uint64_t n, const uint64_t *s,
			       uint64_t mask)
{
	for (uint64_t i = 0; i < n; i++)
		elem_put(p, bytes, i, s[i] & mask);
}

/* d[0..n) := elements [at, at + n) of v. */
static void tval_load_run(const tval *v, uint64_t at, uint64_t n, uint64_t *d)
{
	const uint8_t *p = v->p + at * v->bytes;
	switch (v->bytes) {
	case 1: load_run_w(p, 1, n, d); break;
	case 2: load_run_w(p, 2, n, d); break;
	case 4: load_run_w(p, 4, n, d); break;
	default: load_run_w(p, 8, n, d); break;
	}
}

/* Elements [at, at + n) of v := s[0..n), each cut by mask. */
static void tval_store_run(tval *v, uint64_t at, uint64_t n, const uint64_t *s, uint64_t mask)
{
	uint8_t *p = v->p + at * v->bytes;
	switch (v->bytes) {
	case 1: store_run_w(p, 1, n, s, mask); break;
	case 2: store_run_w(p, 2, n, s, mask); break;
	case 4: store_run_w(p, 4, n, s, mask); break;
	default: store_run_w(p, 8, n, s, mask); break;
	}
}

/* The element at lattice index idx, or 0 outside the box. */
static uint64_t tval_get(const tval *v, const uint64_t idx[EMU_LAYOUT_DIMS])
{
	uint64_t i = 0;
	for (unsigned k = EMU_LAYOUT_DIMS; k-- > 0;) {
		const uint64_t x = idx[k] - v->lo[k]; /* wraps below lo */
		if (x >= v->n[k])
			return 0;
		i = i * v->n[k] + x;
	}
	return load_at(v, i);
}

static void tval_drop(tval *v)
{
	free(v->p);
	v->p = NULL;
	v->cap = 0;
	v->kept = false;
}

/* Room for a box of elements of width bits, zeroed.  false: no memory. */
static bool tval_alloc(tval *v, unsigned width, const emu_box *b)
{
	tval_drop(v);
	v->bytes = width_bytes(width);
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++) {
		v->lo[k] = b->lo[k];
		v->n[k] = b->hi[k] > b->lo[k] ? b->hi[k] - b->lo[k] : 0;
	}
	const uint64_t n = box_elems(v);
	v->p = n ? calloc(n, v->bytes) : NULL;
	v->cap = v->p ? n * v->bytes : 0;
	v->kept = !n || v->p;
	return v->kept;
}

/* Node value v dropped: its memory to the spares, in place of a smaller
 * one (or freed). */
static void node_drop(emu_tref *r, tval *v)
{
	struct spare *least = &r->spare[0];
	for (unsigned k = 1; k < SPARES; k++)
		if (r->spare[k].cap < least->cap)
			least = &r->spare[k];
	if (v->p && v->cap > least->cap) {
		free(least->p);
		*least = (struct spare){v->p, v->cap};
		v->p = NULL;
	}
	tval_drop(v);
}

/* A node's value over box b: a spare's memory if one is big enough
 * (the smallest such), else fresh.  Not zeroed unless `zero`. */
static bool node_room(emu_tref *r, tval *v, unsigned width, const emu_box *b, bool zero)
{
	node_drop(r, v);
	v->bytes = width_bytes(width);
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++) {
		v->lo[k] = b->lo[k];
		v->n[k] = b->hi[k] > b->lo[k] ? b->hi[k] - b->lo[k] : 0;
	}
	const size_t need = box_elems(v) * v->bytes;
	struct spare *fit = NULL;
	for (unsigned k = 0; k < SPARES; k++)
		if (r->spare[k].cap >= need && (!fit || r->spare[k].cap < fit->cap))
			fit = &r->spare[k];
	if (!need) {
		v->kept = true;
		return true;
	}
	if (fit) {
		v->p = fit->p;
		v->cap = fit->cap;
		*fit = (struct spare){NULL, 0};
		if (zero)
			memset(v->p, 0, need);
	} else {
		/* a little more, so that the next node, whose domain a shift
		 * or a border made a few rows larger, fits in it */
		const size_t cap = need + need / 64;
		v->p = zero ? calloc(1, cap) : mem_alloc_whole(cap); /* written whole */
		v->cap = v->p ? cap : 0;
	}
	v->kept = v->p != NULL;
	return v->kept;
}

/* The whole lattice of a region as a box. */
static emu_box lattice_box(const uint64_t *shape)
{
	emu_box b;
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++) {
		b.lo[k] = 0;
		b.hi[k] = shape[k];
	}
	return b;
}

/* ---- set-up ---- */

/* The bits init= gives element e of a tensor of this type. */
static uint64_t init_elem(unsigned fmt, unsigned width, unsigned sg, unsigned init,
			  uint64_t arg, uint64_t e)
{
	emu_buffer b;
	memset(&b, 0, sizeof b);
	b.fmt = (uint8_t)fmt;
	b.width = (uint8_t)width;
	b.is_signed = (uint8_t)sg;
	b.init = (emu_init_kind)init;
	b.init_arg = arg;
	return b.init == EMU_INIT_NONE ? 0 : emu_init_elem(&b, e);
}

static bool arrays_new(emu_tref *r)
{
	const emu_tdfg *t = r->t;
	r->arr0 = calloc(t->narrays ? t->narrays : 1, sizeof *r->arr0);
	r->arr = calloc(t->narrays ? t->narrays : 1, sizeof *r->arr);
	for (size_t i = 0; r->arr0 && r->arr && i < t->narrays; i++) {
		const emu_tarray *a = &t->arrays[i];
		const emu_box all = lattice_box(a->shape);
		if (!tval_alloc(&r->arr0[i], a->width, &all) ||
		    !tval_alloc(&r->arr[i], a->width, &all))
			return false;
		const uint64_t n = box_elems(&r->arr0[i]);
		for (uint64_t e = 0; a->init != EMU_INIT_NONE && e < n; e++)
			store_at(&r->arr0[i], e, init_elem(a->fmt, a->width, a->is_signed,
							   a->init, a->init_arg, e));
		if (n)
			memcpy(r->arr[i].p, r->arr0[i].p, n * r->arr0[i].bytes);
	}
	return r->arr0 && r->arr;
}

/* Inputs hold their data from the start (init=, the bits emu_init_elem
 * gives the stream's tensor), over their domain. */
static bool inputs_new(emu_tref *r)
{
	const emu_tdfg *t = r->t;
	for (size_t i = 0; i < t->nnodes; i++) {
		const emu_tnode *x = &t->nodes[i];
		if (x->kind != EMU_TN_INPUT)
			continue;
		if (!tval_alloc(&r->v[i], x->width, &x->dom))
			return false;
		const uint64_t *S = t->regions[x->region].shape;
		tval *v = &r->v[i];
		uint64_t j = 0;
		for (uint64_t i2 = v->lo[2]; i2 < v->lo[2] + v->n[2]; i2++)
			for (uint64_t i1 = v->lo[1]; i1 < v->lo[1] + v->n[1]; i1++)
				for (uint64_t i0 = v->lo[0]; i0 < v->lo[0] + v->n[0]; i0++, j++)
					store_at(v, j, init_elem(x->fmt, x->width, x->is_signed,
								 x->init, x->init_arg,
								 i0 + S[0] * (i1 + S[1] * i2)));
	}
	return true;
}

/* The last node reading each node (the reference's own liveness, not
 * the JIT's allocation). */
static void last_readers(emu_tref *r)
{
	const emu_tdfg *t = r->t;
	for (size_t i = 0; i < t->nnodes; i++)
		r->last[i] = NO_USE;
	for (size_t i = 0; i < t->nnodes; i++)
		for (unsigned a = 0; a < t->nodes[i].nargs; a++)
			r->last[t->nodes[i].arg[a]] = (uint32_t)i;
}

emu_tref *emu_tref_new(const emu_tdfg *t, diag *d)
{
	emu_tref *r = calloc(1, sizeof *r);
	if (r) {
		r->t = t; /* before anything: emu_tref_free walks t's nodes */
		r->v = calloc(t->nnodes ? t->nnodes : 1, sizeof *r->v);
		r->last = calloc(t->nnodes ? t->nnodes : 1, sizeof *r->last);
	}
	if (!r || !r->v || !r->last || !arrays_new(r) || !inputs_new(r)) {
		emu_tref_free(r);
		diag_file(d, t->path, "out of memory for the tDFG reference");
		return NULL;
	}
	last_readers(r);
	return r;
}

void emu_tref_free(emu_tref *r)
{
	if (!r)
		return;
	for (size_t i = 0; r->v && r->t && i < r->t->nnodes; i++)
		tval_drop(&r->v[i]);
	for (size_t i = 0; r->t && i < r->t->narrays; i++) {
		if (r->arr0)
			tval_drop(&r->arr0[i]);
		if (r->arr)
			tval_drop(&r->arr[i]);
	}
	for (unsigned k = 0; k < SPARES; k++)
		free(r->spare[k].p);
	free(r->arr0);
	free(r->arr);
	free(r->v);
	free(r->last);
	free(r->echo);
	free(r);
}

/* Back to the start: arrays as they were first, no value computed but
 * the inputs'. */
static void restart(emu_tref *r)
{
	for (size_t i = 0; i < r->t->narrays; i++)
		if (r->arr[i].p)
			memcpy(r->arr[i].p, r->arr0[i].p, box_elems(&r->arr0[i]) * r->arr0[i].bytes);
	for (size_t i = 0; i < r->t->nnodes; i++)
		if (r->t->nodes[i].kind != EMU_TN_INPUT)
			node_drop(r, &r->v[i]);
	r->done = 0;
}

/* Copy values (count lattice elements) into v's box, each cut to its
 * width. */
static void tval_fill(tval *v, const uint64_t *S, const uint64_t *values)
{
	uint64_t j = 0;
	for (uint64_t i2 = v->lo[2]; i2 < v->lo[2] + v->n[2]; i2++)
		for (uint64_t i1 = v->lo[1]; i1 < v->lo[1] + v->n[1]; i1++)
			for (uint64_t i0 = v->lo[0]; i0 < v->lo[0] + v->n[0]; i0++, j++)
				store_at(v, j, values[i0 + S[0] * (i1 + S[1] * i2)]);
}

int emu_tref_input(emu_tref *r, size_t n, const uint64_t *values, uint64_t count, diag *d)
{
	const emu_tnode *x = &r->t->nodes[n];
	const uint64_t elems = emu_tregion_elems(&r->t->regions[x->region]);
	if (x->kind != EMU_TN_INPUT || count != elems) {
		diag_file(d, r->t->path, "'%s' is not an input of %llu elements", x->name,
			  (unsigned long long)elems);
		return -1;
	}
	tval_fill(&r->v[n], r->t->regions[x->region].shape, values);
	restart(r);
	return 0;
}

int emu_tref_array_input(emu_tref *r, size_t a, const uint64_t *values, uint64_t count,
			 diag *d)
{
	const emu_tarray *x = &r->t->arrays[a];
	const uint64_t elems = x->shape[0] * x->shape[1] * x->shape[2];
	if (count != elems) {
		diag_file(d, r->t->path, "array '%s' has %llu elements, not %llu", x->name,
			  (unsigned long long)elems, (unsigned long long)count);
		return -1;
	}
	tval_fill(&r->arr0[a], x->shape, values);
	restart(r);
	return 0;
}

bool emu_tref_row(const emu_tref *r, size_t n, uint64_t i0, uint64_t i1, uint64_t i2,
		  uint64_t count, uint64_t *out)
{
	if (!emu_tref_kept(r, n))
		return false;
	const tval *v = &r->v[n];
	const uint64_t idx[EMU_LAYOUT_DIMS] = {i0, i1, i2};
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++)
		if (idx[k] < v->lo[k] || idx[k] - v->lo[k] + (k ? 1 : count) > v->n[k])
			return false;
	if (!count)
		return true;
	if (!v->p)
		return false; /* an empty box holds no element */
	tval_load_run(v, (i0 - v->lo[0]) + v->n[0] * ((i1 - v->lo[1]) + v->n[1] * (i2 - v->lo[2])),
		      count, out);
	return true;
}

uint64_t emu_tref_array_value(const emu_tref *r, size_t a, uint64_t e)
{
	const uint64_t *S = r->t->arrays[a].shape;
	const uint64_t idx[EMU_LAYOUT_DIMS] = {e % S[0], e / S[0] % S[1], e / S[0] / S[1]};
	return r->arr[a].p ? tval_get(&r->arr[a], idx) : 0;
}

bool emu_tref_kept(const emu_tref *r, size_t n)
{
	return n < r->done && r->v[n].kept;
}

uint64_t emu_tref_value(const emu_tref *r, size_t n, uint64_t e)
{
	const uint64_t *S = r->t->regions[r->t->nodes[n].region].shape;
	const uint64_t idx[EMU_LAYOUT_DIMS] = {e % S[0], e / S[0] % S[1], e / S[0] / S[1]};
	return emu_tref_kept(r, n) ? tval_get(&r->v[n], idx) : 0;
}

/* ---- computing ---- */

static void settings(const emu_tdfg *t, isa_cmd *c)
{
	c->flags = t->geom.fp_ieee ? ISA_FL_IEEE : 0;
	c->iters = (uint8_t)emu_geom_cordic(&t->geom);
}

/* d[0..n) := v's elements at idx, idx + e0, ..., idx + (n - 1) e0 (e0
 * the unit step along dimension 0), 0 outside v's box (tval_get's rule,
 * a row at a time). */
static void tval_row(const tval *v, const uint64_t idx[EMU_LAYOUT_DIMS], uint64_t n,
		     uint64_t *d)
{
	const uint64_t x1 = idx[1] - v->lo[1], x2 = idx[2] - v->lo[2]; /* wrap below lo */
	if (x1 >= v->n[1] || x2 >= v->n[2] || !v->n[0]) {
		memset(d, 0, n * sizeof *d);
		return;
	}
	/* elements i of [i0, i1) fall inside the box along dimension 0 */
	const int64_t s0 = (int64_t)idx[0] - (int64_t)v->lo[0]; /* x0 of element 0 */
	const uint64_t i0 = s0 < 0 ? (uint64_t)-s0 < n ? (uint64_t)-s0 : n : 0;
	const uint64_t end = s0 >= (int64_t)v->n[0] ? 0 : v->n[0] - (uint64_t)(s0 > 0 ? s0 : 0);
	const uint64_t i1 = i0 + end < n ? i0 + end : n;
	memset(d, 0, i0 * sizeof *d);
	memset(d + i1, 0, (n - i1) * sizeof *d);
	if (i0 < i1)
		tval_load_run(v, (x2 * v->n[1] + x1) * v->n[0] + (uint64_t)(s0 + (int64_t)i0),
			      i1 - i0, d + i0);
}

/* The row of node x's value at idx (idx[0] its first element, n of them,
 * inside its domain) into d; rows a, b, c3 are room for the operands. */
static void node_row(emu_tref *r, const emu_tnode *x, const isa_cmd *c,
		     const uint64_t idx[EMU_LAYOUT_DIMS], uint64_t n, uint64_t *d, uint64_t *a,
		     uint64_t *b, uint64_t *c3)
{
	uint64_t at[EMU_LAYOUT_DIMS];
	memcpy(at, idx, sizeof at);
	switch (x->kind) {
	case EMU_TN_CONST:
		for (uint64_t i = 0; i < n; i++)
			d[i] = x->value;
		return;
	case EMU_TN_TENSOR:
		tval_row(&r->arr[x->array], idx, n, d);
		return;
	case EMU_TN_STORE:
		tval_row(&r->v[x->arg[0]], idx, n, d);
		return;
	case EMU_TN_SHIFT:
		for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++)
			at[k] = (uint64_t)((int64_t)at[k] - x->off[k]);
		tval_row(&r->v[x->arg[0]], at, n, d);
		return;
	case EMU_TN_BCAST:
		at[x->dim] = r->t->nodes[x->arg[0]].dom.lo[x->dim];
		if (x->dim != 0) {
			tval_row(&r->v[x->arg[0]], at, n, d);
			return;
		}
		tval_row(&r->v[x->arg[0]], at, 1, d);
		for (uint64_t i = 1; i < n; i++)
			d[i] = d[0];
		return;
	default:
		tval_row(&r->v[x->arg[0]], idx, n, a);
		if (x->nargs > 1)
			tval_row(&r->v[x->arg[1]], idx, n, b);
		else
			memset(b, 0, n * sizeof *b);
		if (x->nargs > 2)
			tval_row(&r->v[x->arg[2]], idx, n, c3);
		else
			memset(c3, 0, n * sizeof *c3);
		/* fp32 add, sub, mul, div and madd on the host's FPU in the
		 * machine's mode (emu/ref/ref_fp.h), the same bits as the soft
		 * float isa_ref_elem3 runs for the rest */
		if (emu_ref_fp_host(c)) {
			emu_ref_fp_run(c, a, b, c3, d, n);
			return;
		}
		if (isa_ref_row(c, a, b, d, n)) /* integer add, mul, ...: a loop */
			return;
		for (uint64_t i = 0; i < n; i++) {
			bool tag = false;
			uint64_t r2 = 0;
			d[i] = isa_ref_elem3(c, a[i], b[i], c3[i], false, &tag, &r2);
		}
		return;
	}
}

/* Node i's value over its domain, a row along dimension 0 at a time,
 * in pieces of at most ROW_PIECE elements, so that the operands' rows
 * stay in the cache whatever the lattice.  false: no memory. */
enum { ROW_PIECE = 2048 };

static bool node_value(emu_tref *r, size_t i)
{
	const emu_tnode *x = &r->t->nodes[i];
	tval *out = &r->v[i];
	isa_cmd c = x->c;
	settings(r->t, &c);
	const uint64_t mask = isa_mask(x->width), n0 = out->n[0];
	if (!box_elems(out))
		return true;
	const uint64_t piece = n0 < ROW_PIECE ? n0 : ROW_PIECE;
	uint64_t *row = malloc(4 * piece * sizeof *row);
	if (!row)
		return false;
	uint64_t j = 0, idx[EMU_LAYOUT_DIMS];
	for (idx[2] = out->lo[2]; idx[2] < out->lo[2] + out->n[2]; idx[2]++)
		for (idx[1] = out->lo[1]; idx[1] < out->lo[1] + out->n[1]; idx[1]++)
			for (uint64_t e0 = 0; e0 < n0; e0 += piece) {
				const uint64_t n = n0 - e0 < piece ? n0 - e0 : piece;
				idx[0] = out->lo[0] + e0;
				node_row(r, x, &c, idx, n, row, row + piece, row + 2 * piece,
					 row + 3 * piece);
				tval_store_run(out, j, n, row, mask);
				if (x->kind == EMU_TN_STORE) {
					tval *a = &r->arr[x->array];
					tval_store_run(a, idx[0] + a->n[0] * (idx[1] + a->n[1] * idx[2]),
						       n, row, mask);
				}
				j += n;
			}
	free(row);
	return true;
}

/* reduce (tdfg.h): pairwise halving along dim, over every line of the
 * operand's domain that runs along dim; the result is the halved values
 * over the node's own domain.  w holds the operand's box while it
 * halves. */
static bool reduce_value(emu_tref *r, size_t i)
{
	const emu_tnode *x = &r->t->nodes[i];
	const tval *s = &r->v[x->arg[0]];
	const unsigned k = x->dim;
	const uint64_t mask = isa_mask(x->width);
	isa_cmd c = x->c;
	settings(r->t, &c);
	tval w = *s;
	w.p = box_elems(s) ? malloc(box_elems(s) * s->bytes) : NULL;
	if (box_elems(s) && !w.p)
		return false;
	if (w.p)
		memcpy(w.p, s->p, box_elems(s) * s->bytes);
	uint64_t step = 1; /* elements between neighbours along k */
	for (unsigned q = 0; q < k; q++)
		step *= s->n[q];
	for (uint64_t len = s->n[k]; len > 1;) {
		const uint64_t h = (len + 1) / 2;
		for (uint64_t e = 0; e < box_elems(s); e++) {
			if (e / step % s->n[k] >= len - h)
				continue;
			bool tag = false;
			uint64_t r2 = 0;
			store_at(&w, e, isa_ref_elem3(&c, load_at(&w, e), load_at(&w, e + h * step),
						      0, false, &tag, &r2) & mask);
		}
		len = h;
	}
	tval *out = &r->v[i];
	uint64_t j = 0, idx[EMU_LAYOUT_DIMS];
	for (idx[2] = out->lo[2]; idx[2] < out->lo[2] + out->n[2]; idx[2]++)
		for (idx[1] = out->lo[1]; idx[1] < out->lo[1] + out->n[1]; idx[1]++)
			for (idx[0] = out->lo[0]; idx[0] < out->lo[0] + out->n[0]; idx[0]++, j++)
				store_at(out, j, tval_get(&w, idx));
	free(w.p);
	return true;
}

/* The banks' ALU for a strm.reduce's final step (strm.c): plain C on
 * the element's bits, f32 in IEEE single precision (a stream engine is
 * not the arrays' bit-serial fp, so no fp= mode applies), integers
 * wrapping at their width. */
static uint64_t bank_op(const emu_tnode *x, uint64_t a, uint64_t b)
{
	const char *op = isa_info_of(x->c.op)->name;
	const uint64_t m = isa_mask(x->width);
	if (x->fmt == ISA_FMT_F32) {
		float fa, fb;
		uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
		memcpy(&fa, &ua, 4);
		memcpy(&fb, &ub, 4);
		fa = fa + fb;
		memcpy(&ua, &fa, 4);
		return ua;
	}
	if (op[0] == 'a')
		return (a + b) & m;
	const unsigned sh = 64 - x->width;
	const bool less = x->is_signed ? (int64_t)(a << sh) < (int64_t)(b << sh) : a < b;
	return (op[1] == 'i') == less ? a : b; /* min keeps the smaller, max the larger */
}

/* One line of strm.reduce at idx (other dimensions fixed): chunks of T
 * positions from the operand's low end along k, each reduced pairwise
 * in w (the in-memory partial), folded in chunk order by the banks' ALU. */
static uint64_t strm_line(const emu_tref *r, const emu_tnode *x, const isa_cmd *c,
			  const uint64_t idx[EMU_LAYOUT_DIMS], uint64_t T, uint64_t *w)
{
	const emu_tnode *s = &r->t->nodes[x->arg[0]];
	const unsigned k = x->dim;
	const uint64_t lo = s->dom.lo[k], hi = s->dom.hi[k];
	uint64_t at[EMU_LAYOUT_DIMS], acc = 0;
	memcpy(at, idx, sizeof at);
	for (uint64_t b = lo; b < hi; b += T) {
		const uint64_t n = hi - b < T ? hi - b : T;
		for (uint64_t j = 0; j < n; j++) {
			at[k] = b + j;
			w[j] = tval_get(&r->v[x->arg[0]], at);
		}
		for (uint64_t len = n; len > 1;) {
			const uint64_t h = (len + 1) / 2;
			for (uint64_t j = 0; j < len - h; j++) {
				bool tag = false;
				uint64_t r2 = 0;
				w[j] = isa_ref_elem3(c, w[j], w[j + h], 0, false, &tag, &r2) &
				       isa_mask(x->width);
			}
			len = h;
		}
		acc = b == lo ? w[0] : bank_op(x, acc, w[0]);
	}
	return acc;
}

/* strm.reduce (doc/TDFG.md, "strm nodes"): per line along dim, T the
 * region's tile along dim (strm_line). */
static bool strm_reduce_value(emu_tref *r, size_t i)
{
	const emu_tnode *x = &r->t->nodes[i];
	const emu_tnode *s = &r->t->nodes[x->arg[0]];
	const emu_tregion *g = &r->t->regions[x->region];
	const unsigned k = x->dim;
	const uint64_t T = g->tile[k] ? g->tile[k] : s->dom.hi[k] - s->dom.lo[k];
	isa_cmd c = x->c;
	settings(r->t, &c);
	uint64_t *w = malloc((T ? T : 1) * sizeof *w);
	if (!w)
		return false;
	tval *out = &r->v[i];
	uint64_t j = 0, idx[EMU_LAYOUT_DIMS];
	for (idx[2] = out->lo[2]; idx[2] < out->lo[2] + out->n[2]; idx[2]++)
		for (idx[1] = out->lo[1]; idx[1] < out->lo[1] + out->n[1]; idx[1]++)
			for (idx[0] = out->lo[0]; idx[0] < out->lo[0] + out->n[0]; idx[0]++, j++)
				store_at(out, j, strm_line(r, x, &c, idx, T, w));
	free(w);
	return true;
}

/* strm.gather: x at i is the source at i with dimension dim replaced by
 * the index's value there (its other dimensions at their first
 * position); an index outside the source's domain gives 0 (the engine
 * refuses the run first, strm.c). */
static void gather_value(emu_tref *r, size_t i)
{
	const emu_tnode *x = &r->t->nodes[i];
	const emu_tnode *s = &r->t->nodes[x->arg[0]], *ix = &r->t->nodes[x->arg[1]];
	const unsigned k = x->dim;
	tval *out = &r->v[i];
	uint64_t e = 0, idx[EMU_LAYOUT_DIMS], at[EMU_LAYOUT_DIMS];
	for (idx[2] = out->lo[2]; idx[2] < out->lo[2] + out->n[2]; idx[2]++)
		for (idx[1] = out->lo[1]; idx[1] < out->lo[1] + out->n[1]; idx[1]++)
			for (idx[0] = out->lo[0]; idx[0] < out->lo[0] + out->n[0]; idx[0]++, e++) {
				for (unsigned d = 0; d < EMU_LAYOUT_DIMS; d++)
					at[d] = d == k ? idx[d] : ix->dom.lo[d];
				const uint64_t bits = tval_get(&r->v[x->arg[1]], at);
				const unsigned sh = 64 - ix->width;
				const int64_t j = ix->is_signed ? (int64_t)(bits << sh) >> sh
								: (int64_t)bits;
				if (j < (int64_t)s->dom.lo[k] || j >= (int64_t)s->dom.hi[k])
					continue;
				memcpy(at, idx, sizeof at);
				at[k] = (uint64_t)j;
				store_at(out, e, tval_get(&r->v[x->arg[0]], at));
			}
}

/* strm.store / strm.update (doc/TDFG.md, "strm nodes"): x starts as the
 * target c; then, position p of the values' domain along dim ascending
 * (the stream's order), each of the values' other positions q: the
 * element at q with dim replaced by the index at p (affine: at q itself)
 * takes v (store) or OP(old, v) in the banks' ALU (bank_op).  An index
 * outside c's domain is skipped (the engine refuses the run first). */
static void update_value(emu_tref *r, size_t i)
{
	const emu_tnode *x = &r->t->nodes[i];
	const emu_tnode *v = &r->t->nodes[x->arg[1]];
	const emu_tnode *ix = x->nargs > 2 ? &r->t->nodes[x->arg[2]] : NULL;
	const unsigned k = ix ? x->dim : 0;
	tval *out = &r->v[i];
	uint64_t e = 0, idx[EMU_LAYOUT_DIMS], at[EMU_LAYOUT_DIMS];
	for (idx[2] = out->lo[2]; idx[2] < out->lo[2] + out->n[2]; idx[2]++)
		for (idx[1] = out->lo[1]; idx[1] < out->lo[1] + out->n[1]; idx[1]++)
			for (idx[0] = out->lo[0]; idx[0] < out->lo[0] + out->n[0]; idx[0]++, e++)
				store_at(out, e, tval_get(&r->v[x->arg[0]], idx));
	for (uint64_t p = v->dom.lo[k]; p < v->dom.hi[k]; p++) {
		int64_t t = (int64_t)p;
		if (ix) {
			for (unsigned d = 0; d < EMU_LAYOUT_DIMS; d++)
				at[d] = d == k ? p : ix->dom.lo[d];
			const uint64_t bits = tval_get(&r->v[x->arg[2]], at);
			const unsigned sh = 64 - ix->width;
			t = ix->is_signed ? (int64_t)(bits << sh) >> sh : (int64_t)bits;
			if (t < (int64_t)x->dom.lo[k] || t >= (int64_t)x->dom.hi[k])
				continue;
		}
		uint64_t lo[EMU_LAYOUT_DIMS], hi[EMU_LAYOUT_DIMS];
		for (unsigned d = 0; d < EMU_LAYOUT_DIMS; d++) {
			lo[d] = d == k ? p : v->dom.lo[d];
			hi[d] = d == k ? p + 1 : v->dom.hi[d];
		}
		for (idx[2] = lo[2]; idx[2] < hi[2]; idx[2]++)
			for (idx[1] = lo[1]; idx[1] < hi[1]; idx[1]++)
				for (idx[0] = lo[0]; idx[0] < hi[0]; idx[0]++) {
					const uint64_t val = tval_get(&r->v[x->arg[1]], idx);
					uint64_t o = 0;
					memcpy(at, idx, sizeof at);
					at[k] = (uint64_t)t;
					for (unsigned d = EMU_LAYOUT_DIMS; d-- > 0;)
						o = o * out->n[d] + (at[d] - out->lo[d]);
					store_at(out, o, x->c.op == ISA_COPY ? val
						 : bank_op(x, load_at(out, o), val));
				}
	}
}

/* Node i's values, made room for over its domain; the values of earlier
 * runs are dropped (no node reads another run's). */
static bool node_alloc(emu_tref *r, size_t i)
{
	const emu_tdfg *t = r->t;
	const emu_tnode *x = &t->nodes[i];
	const uint32_t reg = x->region;
	const emu_tregion *g = &t->regions[reg];
	for (size_t j = reg && i == g->node0 ? t->regions[reg - 1].node0 : i; j < i; j++)
		if (t->nodes[j].kind != EMU_TN_INPUT)
			node_drop(r, &r->v[j]);
	if (x->kind == EMU_TN_INPUT)
		return true;
	/* every kind writes each element of its domain but a gather, which
	 * leaves 0 where its index falls outside the source */
	return node_room(r, &r->v[i], x->width, &x->dom, x->kind == EMU_TN_GATHER);
}

/* After node i: its operands that nothing later reads are dropped. */
static void drop_dead(emu_tref *r, size_t i)
{
	const emu_tnode *x = &r->t->nodes[i];
	for (unsigned a = 0; a < x->nargs; a++) {
		const uint32_t s = x->arg[a];
		if (r->last[s] == i && r->t->nodes[s].kind != EMU_TN_INPUT)
			node_drop(r, &r->v[s]);
	}
}

/* Is node i's value, over its domain, one of its operands' (of its
 * type)?  It stops at the first element that tells them apart, so a node
 * that is not pays one or two elements. */
static bool echoes(const emu_tref *r, size_t i)
{
	const emu_tnode *x = &r->t->nodes[i];
	for (unsigned a = 0; a < x->nargs; a++) {
		const emu_tnode *o = &r->t->nodes[x->arg[a]];
		if (o->fmt != x->fmt || o->width != x->width || !r->v[x->arg[a]].kept)
			continue;
		bool same = true;
		uint64_t idx[EMU_LAYOUT_DIMS];
		for (idx[2] = x->dom.lo[2]; same && idx[2] < x->dom.hi[2]; idx[2]++)
			for (idx[1] = x->dom.lo[1]; same && idx[1] < x->dom.hi[1]; idx[1]++)
				for (idx[0] = x->dom.lo[0]; same && idx[0] < x->dom.hi[0]; idx[0]++)
					same = tval_get(&r->v[i], idx) == tval_get(&r->v[x->arg[a]], idx);
		if (same)
			return true;
	}
	return false;
}

void emu_tref_watch_echo(emu_tref *r)
{
	if (!r->echo)
		r->echo = calloc(r->t->nnodes ? r->t->nnodes : 1, 1);
}

bool emu_tref_echo(const emu_tref *r, size_t n)
{
	return r->echo && n < r->done && r->echo[n];
}

void emu_tref_run(emu_tref *r, size_t n)
{
	if (n < r->done && !r->v[n].kept)
		restart(r);
	for (; r->done <= n && r->done < r->t->nnodes; r->done++) {
		const size_t i = r->done;
		bool ok = node_alloc(r, i);
		const emu_tnode *x = &r->t->nodes[i];
		if (ok && x->kind == EMU_TN_REDUCE && x->strm)
			ok = strm_reduce_value(r, i);
		else if (ok && x->kind == EMU_TN_REDUCE)
			ok = reduce_value(r, i);
		else if (ok && x->kind == EMU_TN_GATHER)
			gather_value(r, i);
		else if (ok && x->kind == EMU_TN_UPDATE)
			update_value(r, i);
		else if (ok && x->kind != EMU_TN_INPUT) /* its values are its data */
			ok = node_value(r, i);
		if (!ok) {
			node_drop(r, &r->v[i]);
			r->done = i + 1; /* emu_tref_kept says false: out of memory */
			return;
		}
		if (r->echo && x->kind == EMU_TN_COMPUTE)
			r->echo[i] = echoes(r, i);
		drop_dead(r, i);
	}
}

/* ---- comparing ---- */

/* Slab s of v's box (the rows of one band of tiles along dimensions 1
 * and 2) as the machine holds it, into got; the slab's box in *sb.  Only
 * the domain's elements are read, a whole tile per step of the checks'
 * port, never the whole tensor at once. */
static void machine_slab(const emu_machine *em, const emu_buffer *b, const emu_region *reg,
			 const tval *v, const uint64_t *S, uint64_t i1, uint64_t i2,
			 emu_box *sb, uint64_t *got)
{
	const uint64_t T1 = b->ndims ? reg->tile[1] : 1, T2 = b->ndims ? reg->tile[2] : 1;
	sb->lo[0] = v->lo[0];
	sb->hi[0] = v->lo[0] + v->n[0];
	sb->lo[1] = i1;
	sb->hi[1] = (i1 / T1 + 1) * T1 < v->lo[1] + v->n[1] ? (i1 / T1 + 1) * T1 : v->lo[1] + v->n[1];
	sb->lo[2] = i2;
	sb->hi[2] = (i2 / T2 + 1) * T2 < v->lo[2] + v->n[2] ? (i2 / T2 + 1) * T2 : v->lo[2] + v->n[2];
	if (b->ndims) {
		emu_layout_load_box(em->m, reg, sb, got);
		return;
	}
	for (uint64_t j = 0; j < v->n[0]; j++)
		got[j] = emu_elem_get(em, b, v->lo[0] + j + S[0] * (i1 + S[1] * i2));
}

/* The first element of slab sb (row-major) where got and v differ, as
 * *mm: 0; else 1. */
static int slab_same(const tval *v, const emu_buffer *b, const uint64_t *S, const emu_box *sb,
		     const uint64_t *got, emu_mismatch *mm)
{
	uint64_t g = 0;
	for (uint64_t i2 = sb->lo[2]; i2 < sb->hi[2]; i2++)
		for (uint64_t i1 = sb->lo[1]; i1 < sb->hi[1]; i1++) {
			const uint64_t at = v->n[0] * ((i1 - v->lo[1]) + v->n[1] * (i2 - v->lo[2]));
			for (uint64_t i0 = 0; i0 < v->n[0]; i0++, g++) {
				const uint64_t want = load_at(v, at + i0);
				if (got[g] != want) {
					*mm = (emu_mismatch){b, v->lo[0] + i0 + S[0] * (i1 + S[1] * i2),
							     want, got[g]};
					return 0;
				}
			}
		}
	return 1;
}

/* true if got holds v's elements over the box n[] from v's element at:
 * row (i1, i2) of the box at got + g1 i1 + g2 i2.  `bytes` is a
 * constant where box_same calls it, so each width gets its own loop. */
static inline bool box_same_w(const tval *v, unsigned bytes, uint64_t at, const uint64_t *got,
			      uint64_t g1, uint64_t g2, const uint64_t n[EMU_LAYOUT_DIMS])
{
	uint64_t diff = 0;
	for (uint64_t i2 = 0; i2 < n[2]; i2++)
		for (uint64_t i1 = 0; i1 < n[1]; i1++) {
			const uint64_t e = at + v->n[0] * (i1 + v->n[1] * i2);
			const uint64_t *g = got + g1 * i1 + g2 * i2;
			for (uint64_t i0 = 0; i0 < n[0]; i0++)
				diff |= g[i0] ^ elem_of(v->p, bytes, e + i0);
		}
	return diff == 0;
}

static bool box_same(const tval *v, uint64_t at, const uint64_t *got, uint64_t g1, uint64_t g2,
		     const uint64_t n[EMU_LAYOUT_DIMS])
{
	switch (v->bytes) {
	case 1: return box_same_w(v, 1, at, got, g1, g2, n);
	case 2: return box_same_w(v, 2, at, got, g1, g2, n);
	case 4: return box_same_w(v, 4, at, got, g1, g2, n);
	default: return box_same_w(v, 8, at, got, g1, g2, n);
	}
}

/* Whether the machine holds v over its whole box, tile by tile: each
 * tile read once (emu_layout_load_tile, or emu_layout_load_box for a
 * tile over several wordline groups) into got, room for one tile, and compared
 * a row of the tile at a time.  Which element differs first is left to
 * compare_domain's ordered pass. */
static bool tiles_same(const emu_machine *em, const emu_region *reg, const tval *v,
		       uint64_t *got)
{
	const uint64_t *T = reg->tile;
	uint64_t o[EMU_LAYOUT_DIMS], lo[EMU_LAYOUT_DIMS], hi[EMU_LAYOUT_DIMS];
	for (o[2] = v->lo[2] / T[2] * T[2]; o[2] < v->lo[2] + v->n[2]; o[2] += T[2])
		for (o[1] = v->lo[1] / T[1] * T[1]; o[1] < v->lo[1] + v->n[1]; o[1] += T[1])
			for (o[0] = v->lo[0] / T[0] * T[0]; o[0] < v->lo[0] + v->n[0]; o[0] += T[0]) {
				emu_box tb;
				for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++) {
					lo[k] = o[k] > v->lo[k] ? o[k] : v->lo[k];
					hi[k] = o[k] + T[k] < v->lo[k] + v->n[k] ? o[k] + T[k]
										 : v->lo[k] + v->n[k];
					tb.lo[k] = lo[k];
					tb.hi[k] = hi[k];
				}
				/* where got holds element lo: the whole tile's row-major
				 * order, or the box's */
				uint64_t s0 = T[0], s1 = T[1], base;
				if (emu_layout_load_tile(em->m, reg, o, got)) {
					base = (lo[0] - o[0]) + T[0] * ((lo[1] - o[1]) + T[1] * (lo[2] - o[2]));
				} else {
					emu_layout_load_box(em->m, reg, &tb, got);
					s0 = hi[0] - lo[0];
					s1 = hi[1] - lo[1];
					base = 0;
				}
				const uint64_t n[EMU_LAYOUT_DIMS] = {hi[0] - lo[0], hi[1] - lo[1],
								     hi[2] - lo[2]};
				const uint64_t at = (lo[0] - v->lo[0]) +
					v->n[0] * ((lo[1] - v->lo[1]) + v->n[1] * (lo[2] - v->lo[2]));
				if (!box_same(v, at, got + base, s0, s0 * s1, n))
					return false;
			}
	return true;
}

/* The domain's elements in row-major order, band by band, so the first
 * one that differs is the lowest.  -1: no memory for a band. */
static int compare_domain(const emu_tref *r, const emu_machine *em, const emu_buffer *b,
			  size_t n, emu_mismatch *mm)
{
	const tval *v = &r->v[n];
	const uint64_t *S = r->t->regions[r->t->nodes[n].region].shape;
	if (!box_elems(v))
		return 1;
	emu_region reg;
	memset(&reg, 0, sizeof reg);
	if (b->ndims)
		emu_buffer_region(b, &reg);
	if (b->ndims) {
		/* the common case first: every element agrees */
		uint64_t *tile = malloc(emu_region_tile_bitlines(&reg) * sizeof *tile);
		if (!tile)
			return -1;
		const bool same = tiles_same(em, &reg, v, tile);
		free(tile);
		if (same)
			return 1;
	}
	const uint64_t band = b->ndims ? reg.tile[1] * reg.tile[2] : 1;
	uint64_t *got = malloc(v->n[0] * band * sizeof *got);
	if (!got)
		return -1;
	int same = 1;
	emu_box sb;
	for (uint64_t i2 = v->lo[2]; same == 1 && i2 < v->lo[2] + v->n[2]; i2 = sb.hi[2])
		for (uint64_t i1 = v->lo[1]; same == 1 && i1 < v->lo[1] + v->n[1]; i1 = sb.hi[1]) {
			machine_slab(em, b, &reg, v, S, i1, i2, &sb, got);
			same = slab_same(v, b, S, &sb, got, mm);
		}
	free(got);
	return same;
}

bool emu_tref_compare(emu_tref *r, const emu_program *p, const emu_machine *em, size_t n,
		      emu_mismatch *mm)
{
	emu_tref_run(r, n);
	if (!emu_tref_kept(r, n)) {
		mm->buf = NULL; /* out of memory for the reference */
		return false;
	}
	const int same = compare_domain(r, em, &p->bufs[r->t->nodes[n].buf], n, mm);
	if (same < 0) {
		mm->buf = NULL;
		return false;
	}
	/* Compared, and read by no later node: dead. */
	if (r->last[n] == NO_USE && r->t->nodes[n].kind != EMU_TN_INPUT)
		node_drop(r, &r->v[n]);
	return same == 1;
}
