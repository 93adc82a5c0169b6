/* SPDX-License-Identifier: MIT */
/*
 * tdfg_ref.c: what each tDFG node means, computed in plain C (tdfg.h).
 *
 * A node's value is an array over the region's lattice, row-major; the
 * elements outside its domain are 0 and never compared.  Compute nodes
 * apply isa_ref_elem3 element by element (the same scalar reference the
 * stream's reference model uses, with the machine's fp mode and CORDIC
 * iterations); shift and bcast are index arithmetic.  Nothing here reads
 * the machine's cells or runs a micro-op: it knows nothing of tiles,
 * wordlines or the JIT's commands.
 *
 * A program's arrays (doc/TDFG.md, "Programs") are plain row-major C
 * arrays: a tensor node reads its box, a store writes its box, in
 * program order.  Only the current run's node values are kept (a node
 * reads only nodes of its own run); asking for an earlier node starts
 * again from the arrays' first data.
 */
#include <stdlib.h>
#include <string.h>

#include "tdfg.h"

struct emu_tref {
	const emu_tdfg *t;
	uint64_t **v;          /* per node, its region's elements (NULL: not kept) */
	size_t done;           /* nodes computed: [0, done) */
	uint64_t **arr0, **arr;/* per array: its first data, and its data now */
};

static uint64_t array_elems(const emu_tarray *a)
{
	return a->shape[0] * a->shape[1] * a->shape[2];
}

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
		const uint64_t n = array_elems(a);
		if (!(r->arr0[i] = malloc(n * sizeof **r->arr0)) ||
		    !(r->arr[i] = malloc(n * sizeof **r->arr)))
			return false;
		for (uint64_t e = 0; e < n; e++)
			r->arr0[i][e] = init_elem(a->fmt, a->width, a->is_signed, a->init,
						  a->init_arg, e);
		memcpy(r->arr[i], r->arr0[i], n * sizeof **r->arr);
	}
	return r->arr0 && r->arr;
}

/* Back to the start: arrays as they were first, no value computed. */
static void restart(emu_tref *r)
{
	for (size_t i = 0; i < r->t->narrays; i++)
		memcpy(r->arr[i], r->arr0[i], array_elems(&r->t->arrays[i]) * sizeof **r->arr);
	r->done = 0;
}

emu_tref *emu_tref_new(const emu_tdfg *t, diag *d)
{
	emu_tref *r = calloc(1, sizeof *r);
	if (r) {
		r->t = t; /* before the loop: emu_tref_free frees v[i] through it */
		r->v = calloc(t->nnodes ? t->nnodes : 1, sizeof *r->v);
	}
	if (r && r->v && !arrays_new(r)) {
		emu_tref_free(r);
		r = NULL;
	}
	/* Inputs hold their data from the start; other values are made
	 * (and dropped) as the runs go (node_alloc). */
	for (size_t i = 0; r && r->v && i < t->nnodes; i++) {
		const uint64_t n = emu_tregion_elems(&t->regions[t->nodes[i].region]);
		if (t->nodes[i].kind == EMU_TN_INPUT && !(r->v[i] = calloc(n, sizeof **r->v))) {
			emu_tref_free(r);
			r = NULL;
		}
	}
	if (!r || !r->v) {
		emu_tref_free(r);
		diag_file(d, t->path, "out of memory for the tDFG reference");
		return NULL;
	}
	/* Inputs start from init=, as the stream's tensor does. */
	for (size_t i = 0; i < t->nnodes; i++) {
		const emu_tnode *x = &t->nodes[i];
		if (x->kind != EMU_TN_INPUT)
			continue;
		emu_buffer b;
		memset(&b, 0, sizeof b);
		b.fmt = x->fmt;
		b.width = x->width;
		b.is_signed = x->is_signed;
		b.init = (emu_init_kind)x->init;
		b.init_arg = x->init_arg;
		const uint64_t n = emu_tregion_elems(&t->regions[x->region]);
		for (uint64_t e = 0; e < n; e++)
			r->v[i][e] = b.init == EMU_INIT_NONE ? 0 : emu_init_elem(&b, e);
	}
	return r;
}

void emu_tref_free(emu_tref *r)
{
	if (!r)
		return;
	for (size_t i = 0; r->v && r->t && i < r->t->nnodes; i++)
		free(r->v[i]);
	for (size_t i = 0; r->t && i < r->t->narrays; i++) {
		free(r->arr0 ? r->arr0[i] : NULL);
		free(r->arr ? r->arr[i] : NULL);
	}
	free(r->arr0);
	free(r->arr);
	free(r->v);
	free(r);
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
	memcpy(r->v[n], values, count * sizeof *values);
	restart(r);
	return 0;
}

int emu_tref_array_input(emu_tref *r, size_t a, const uint64_t *values, uint64_t count,
			 diag *d)
{
	const emu_tarray *x = &r->t->arrays[a];
	if (count != array_elems(x)) {
		diag_file(d, r->t->path, "array '%s' has %llu elements, not %llu", x->name,
			  (unsigned long long)array_elems(x), (unsigned long long)count);
		return -1;
	}
	memcpy(r->arr0[a], values, count * sizeof *values);
	restart(r);
	return 0;
}

const uint64_t *emu_tref_values(const emu_tref *r, size_t n)
{
	return n < r->done ? r->v[n] : NULL;
}

/* The lattice index of element e, and back. */
static void unflatten(const emu_tregion *g, uint64_t e, uint64_t idx[EMU_LAYOUT_DIMS])
{
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++) {
		idx[k] = e % g->shape[k];
		e /= g->shape[k];
	}
}

static uint64_t flatten(const emu_tregion *g, const uint64_t idx[EMU_LAYOUT_DIMS])
{
	return idx[0] + g->shape[0] * (idx[1] + g->shape[1] * idx[2]);
}

static void settings(const emu_tdfg *t, isa_cmd *c)
{
	c->flags = t->geom.fp_ieee ? ISA_FL_IEEE : 0;
	c->iters = (uint8_t)emu_geom_cordic(&t->geom);
}

static void node_value(emu_tref *r, size_t i)
{
	const emu_tdfg *t = r->t;
	const emu_tnode *x = &t->nodes[i];
	const emu_tregion *g = &t->regions[x->region];
	const uint64_t n = emu_tregion_elems(g);
	uint64_t *out = r->v[i];
	isa_cmd c = x->c;
	settings(t, &c);
	if (x->kind == EMU_TN_INPUT) /* its values are its data (emu_tref_new) */
		return;
	for (uint64_t e = 0; e < n; e++) {
		uint64_t idx[EMU_LAYOUT_DIMS];
		if (!emu_tdfg_in_domain(t, x, e)) {
			out[e] = 0;
			continue;
		}
		unflatten(g, e, idx);
		if (x->kind == EMU_TN_CONST) {
			out[e] = x->value;
		} else if (x->kind == EMU_TN_TENSOR) {
			out[e] = r->arr[x->array][e];
		} else if (x->kind == EMU_TN_STORE) {
			out[e] = r->v[x->arg[0]][e];
			r->arr[x->array][e] = out[e];
		} else if (x->kind == EMU_TN_SHIFT) {
			for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++)
				idx[k] = (uint64_t)((int64_t)idx[k] - x->off[k]);
			out[e] = r->v[x->arg[0]][flatten(g, idx)];
		} else if (x->kind == EMU_TN_BCAST) {
			idx[x->dim] = t->nodes[x->arg[0]].dom.lo[x->dim];
			out[e] = r->v[x->arg[0]][flatten(g, idx)];
		} else {
			const uint64_t a = r->v[x->arg[0]][e];
			const uint64_t b = x->nargs > 1 ? r->v[x->arg[1]][e] : 0;
			const uint64_t c3 = x->nargs > 2 ? r->v[x->arg[2]][e] : 0;
			bool tag = false;
			uint64_t r2 = 0;
			out[e] = isa_ref_elem3(&c, a, b, c3, false, &tag, &r2) & isa_mask(x->width);
		}
	}
}

/* reduce (tdfg.h): pairwise halving along dim, over every line of the
 * operand's domain that runs along dim. */
static void reduce_value(emu_tref *r, size_t i)
{
	const emu_tdfg *t = r->t;
	const emu_tnode *x = &t->nodes[i];
	const emu_tnode *s = &t->nodes[x->arg[0]];
	const emu_tregion *g = &t->regions[x->region];
	const unsigned k = x->dim;
	const uint64_t n = emu_tregion_elems(g), lo = s->dom.lo[k];
	uint64_t *out = r->v[i];
	isa_cmd c = x->c;
	settings(t, &c);
	for (uint64_t e = 0; e < n; e++)
		out[e] = emu_tdfg_in_domain(t, s, e) ? r->v[x->arg[0]][e] : 0;
	for (uint64_t len = s->dom.hi[k] - lo; len > 1;) {
		const uint64_t h = (len + 1) / 2;
		for (uint64_t e = 0; e < n; e++) {
			uint64_t idx[EMU_LAYOUT_DIMS];
			unflatten(g, e, idx);
			if (!emu_tdfg_in_domain(t, s, e) || idx[k] >= lo + len - h)
				continue;
			idx[k] += h;
			bool tag = false;
			uint64_t r2 = 0;
			out[e] = isa_ref_elem3(&c, out[e], out[flatten(g, idx)], 0, false, &tag, &r2) &
				 isa_mask(x->width);
		}
		len = h;
	}
	for (uint64_t e = 0; e < n; e++)
		if (!emu_tdfg_in_domain(t, x, e))
			out[e] = 0;
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

/* strm.reduce (doc/TDFG.md, "strm nodes"): along dim, the operand's
 * domain is cut into chunks of T positions from its low end (T the
 * region's tile along dim); each chunk is reduced pairwise as a reduce
 * node does (the in-memory partial, one per tile), then the partials are
 * folded in chunk order, chunk 0 first, by the banks' ALU. */
static void strm_reduce_value(emu_tref *r, size_t i)
{
	const emu_tdfg *t = r->t;
	const emu_tnode *x = &t->nodes[i];
	const emu_tnode *s = &t->nodes[x->arg[0]];
	const emu_tregion *g = &t->regions[x->region];
	const unsigned k = x->dim;
	const uint64_t n = emu_tregion_elems(g), lo = s->dom.lo[k], hi = s->dom.hi[k];
	const uint64_t T = g->tile[k] ? g->tile[k] : hi - lo;
	uint64_t *out = r->v[i];
	isa_cmd c = x->c;
	settings(t, &c);
	for (uint64_t e = 0; e < n; e++)
		out[e] = emu_tdfg_in_domain(t, s, e) ? r->v[x->arg[0]][e] : 0;
	for (uint64_t e = 0; e < n; e++) {
		uint64_t idx[EMU_LAYOUT_DIMS];
		unflatten(g, e, idx);
		if (!emu_tdfg_in_domain(t, x, e))
			continue;
		uint64_t acc = 0;
		for (uint64_t b = lo; b < hi; b += T) {
			for (uint64_t len = (hi - b < T ? hi - b : T); len > 1;) {
				const uint64_t h = (len + 1) / 2;
				for (uint64_t j = 0; j < len - h; j++) {
					uint64_t p[EMU_LAYOUT_DIMS], q[EMU_LAYOUT_DIMS];
					memcpy(p, idx, sizeof p);
					memcpy(q, idx, sizeof q);
					p[k] = b + j;
					q[k] = b + j + h;
					bool tag = false;
					uint64_t r2 = 0;
					const uint64_t fp = flatten(g, p);
					out[fp] = isa_ref_elem3(&c, out[fp], out[flatten(g, q)], 0, false,
								&tag, &r2) & isa_mask(x->width);
				}
				len = h;
			}
			idx[k] = b;
			const uint64_t part = out[flatten(g, idx)];
			acc = b == lo ? part : bank_op(x, acc, part);
		}
		idx[k] = lo;
		out[e] = acc;
	}
	for (uint64_t e = 0; e < n; e++)
		if (!emu_tdfg_in_domain(t, x, e))
			out[e] = 0;
}

/* strm.gather: x at i is the source at i with dimension dim replaced by
 * the index's value there (its other dimensions at their first
 * position); an index outside the source's domain gives 0 (the engine
 * refuses the run first, strm.c). */
static void gather_value(emu_tref *r, size_t i)
{
	const emu_tdfg *t = r->t;
	const emu_tnode *x = &t->nodes[i];
	const emu_tnode *s = &t->nodes[x->arg[0]], *ix = &t->nodes[x->arg[1]];
	const emu_tregion *g = &t->regions[x->region];
	const unsigned k = x->dim;
	const uint64_t n = emu_tregion_elems(g);
	for (uint64_t e = 0; e < n; e++) {
		uint64_t idx[EMU_LAYOUT_DIMS], at[EMU_LAYOUT_DIMS];
		r->v[i][e] = 0;
		if (!emu_tdfg_in_domain(t, x, e))
			continue;
		unflatten(g, e, idx);
		for (unsigned d = 0; d < EMU_LAYOUT_DIMS; d++)
			at[d] = d == k ? idx[d] : ix->dom.lo[d];
		const uint64_t bits = r->v[x->arg[1]][flatten(g, at)];
		const unsigned sh = 64 - ix->width;
		const int64_t j = ix->is_signed ? (int64_t)(bits << sh) >> sh : (int64_t)bits;
		if (j < (int64_t)s->dom.lo[k] || j >= (int64_t)s->dom.hi[k])
			continue;
		idx[k] = (uint64_t)j;
		r->v[i][e] = r->v[x->arg[0]][flatten(g, idx)];
	}
}

/* Node i's values, made room for; the values of earlier runs are
 * dropped (no node reads another run's). */
static bool node_alloc(emu_tref *r, size_t i)
{
	const emu_tdfg *t = r->t;
	const uint32_t reg = t->nodes[i].region;
	const emu_tregion *g = &t->regions[reg];
	for (size_t j = reg && i == g->node0 ? t->regions[reg - 1].node0 : i; j < i; j++)
		if (t->nodes[j].kind != EMU_TN_INPUT && r->v[j]) {
			free(r->v[j]);
			r->v[j] = NULL;
		}
	if (!r->v[i])
		r->v[i] = calloc(emu_tregion_elems(g), sizeof **r->v);
	return r->v[i] != NULL;
}

void emu_tref_run(emu_tref *r, size_t n)
{
	if (n < r->done && !r->v[n])
		restart(r);
	for (; r->done <= n && r->done < r->t->nnodes; r->done++) {
		if (!node_alloc(r, r->done))
			return; /* emu_tref_values says NULL: out of memory */
		const emu_tnode *x = &r->t->nodes[r->done];
		if (x->kind == EMU_TN_REDUCE && x->strm)
			strm_reduce_value(r, r->done);
		else if (x->kind == EMU_TN_REDUCE)
			reduce_value(r, r->done);
		else if (x->kind == EMU_TN_GATHER)
			gather_value(r, r->done);
		else
			node_value(r, r->done);
	}
}

bool emu_tref_compare(emu_tref *r, const emu_program *p, const emu_machine *em, size_t n,
		      emu_mismatch *mm)
{
	const emu_tdfg *t = r->t;
	const emu_tnode *x = &t->nodes[n];
	const emu_buffer *b = &p->bufs[x->buf];
	const uint64_t elems = emu_tregion_elems(&t->regions[x->region]);
	emu_tref_run(r, n);
	if (!emu_tref_values(r, n)) {
		mm->buf = NULL; /* out of memory for the reference */
		return false;
	}
	/* The whole tensor through the checks' port in one pass (whole
	 * rows, not a bit at a time), or element by element without
	 * memory for it. */
	uint64_t *cells = malloc(elems * sizeof *cells);
	if (cells)
		emu_buffer_read(em, b, cells);
	/* The domain's elements in row-major order, so the first one that
	 * differs is the lowest. */
	const uint64_t *S = t->regions[x->region].shape;
	const emu_box *d = &x->dom;
	bool same = true;
	for (uint64_t i2 = d->lo[2]; i2 < d->hi[2] && same; i2++)
		for (uint64_t i1 = d->lo[1]; i1 < d->hi[1] && same; i1++)
			for (uint64_t i0 = d->lo[0]; i0 < d->hi[0] && same; i0++) {
				const uint64_t e = i0 + S[0] * (i1 + S[1] * i2);
				const uint64_t got = cells ? cells[e] : emu_elem_get(em, b, e);
				if (got != r->v[n][e]) {
					mm->buf = b;
					mm->index = e;
					mm->expected = r->v[n][e];
					mm->actual = got;
					same = false;
				}
			}
	free(cells);
	return same;
}
