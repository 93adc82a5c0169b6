/* SPDX-License-Identifier: MIT */
/*
 * ref.c: the reference of a .nsc program's meaning (doc/STREAMS.md,
 * "Meaning"), written apart from the engines: statements run in order;
 * a region's iterations run in order (the last dimension fastest, or
 * node after node of a chase); in each iteration the streams run in the
 * order they are written, each index evaluated from its expression as
 * written.  There are no banks, windows, messages or decisions here; the
 * only thing taken from the machine is the documented order of an
 * indirect reduction: one partial per bank of its indirect element's
 * address (address / interleave mod 64), combined from bank 0 to 63 after
 * the initial value.  It shares the scalar arithmetic (value.c) and the
 * memory (mem.c) with the engines; the workloads' plain C versions
 * (tests/test_nsc.c) check those.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "nsc_int.h"

typedef struct ref {
	const nsc_program *p;
	nsc_mem *m;
	const nsc_settings *s;
	diag *d;
	nsc_val *var;
	uint64_t giter, bound;
	uint64_t work;       /* loop trips and region iterations so far (nsc_work_charge) */
	/* the region running */
	const nsc_region *r;
	int64_t dim[NSC_MAX_DIMS];
	nsc_val sv[NSC_MAX_STREAMS + 1], self;
	uint64_t spa[NSC_MAX_STREAMS];
} ref;

static int oob(ref *f, int a, int64_t i, int line, int col)
{
	if (i >= 0 && (uint64_t)i < f->p->arrays[a].count)
		return 0;
	diag_at(f->d, f->p->file, line, col, "index %" PRId64 " is out of bounds of array '%s' (%" PRIu64 " elements)",
		i, f->p->arrays[a].name, f->p->arrays[a].count);
	return -1;
}

static int ev(ref *f, int xi, nsc_val *out)
{
	const nsc_expr *x = &f->p->ex[xi];
	nsc_val a, b;
	const char *why;
	switch (x->op) {
	case NSC_E_INT: *out = nsc_val_int(x->ival); return 0;
	case NSC_E_FLT: out->k = 'f'; out->u.f = (float)x->fval; return 0;
	case NSC_E_DBL: out->k = 'd'; out->u.d = x->fval; return 0;
	case NSC_E_VAR: *out = f->var[x->ref]; return 0;
	case NSC_E_DIM: *out = nsc_val_int(f->dim[x->ref]); return 0;
	case NSC_E_STREAM: *out = f->sv[x->ref]; return 0;
	case NSC_E_SELF: *out = f->self; return 0;
	case NSC_E_FIELD: {
		int64_t i = f->sv[NSC_MAX_STREAMS].u.i + x->ival;
		if (oob(f, f->r->chase_arr, i, x->line, x->col) < 0)
			return -1;
		*out = nsc_mem_get(f->m, f->r->chase_arr, (uint64_t)i);
		return 0;
	}
	case NSC_E_COND:
		if (ev(f, x->c, &a) < 0)
			return -1;
		return ev(f, nsc_val_true(a) ? x->a : x->b, out);
	default: break;
	}
	if (ev(f, x->a, &a) < 0)
		return -1;
	if (x->op == NSC_E_INDEX) {
		if (oob(f, x->ref, nsc_val_as_int(a), x->line, x->col) < 0)
			return -1;
		*out = nsc_mem_get(f->m, x->ref, (uint64_t)nsc_val_as_int(a));
		return 0;
	}
	if (x->op == NSC_E_CAST) {
		*out = nsc_val_cast(a, (nsc_type)x->ival);
		return 0;
	}
	if (x->op == NSC_E_NEG || x->op == NSC_E_NOT || x->op == NSC_E_BNOT || x->op == NSC_E_ABS) {
		*out = nsc_val_un(x->op, a);
		return 0;
	}
	if (x->op == NSC_E_LAND && !nsc_val_true(a)) {
		*out = nsc_val_int(0);
		return 0;
	}
	if (x->op == NSC_E_LOR && nsc_val_true(a)) {
		*out = nsc_val_int(1);
		return 0;
	}
	if (ev(f, x->b, &b) < 0)
		return -1;
	if (nsc_val_bin(x->op, a, b, out, &why) < 0) {
		diag_at(f->d, f->p->file, x->line, x->col, "%s", why);
		return -1;
	}
	return 0;
}

static int ev_int(ref *f, int x, int64_t *v)
{
	nsc_val t;
	if (ev(f, x, &t) < 0)
		return -1;
	*v = nsc_val_as_int(t);
	return 0;
}

typedef struct red {
	nsc_val acc, part[NSC_BANKS];
	bool has[NSC_BANKS];
	int key;
} red;

static int stream_step(ref *f, int s, red *rd)
{
	const nsc_stream *st = &f->r->s[s];
	nsc_val v;
	if (st->kind == NSC_S_REDUCE) {
		if (ev(f, st->val, &v) < 0)
			return -1;
		red *x = &rd[s];
		if (x->key < 0) {
			x->acc = nsc_val_reduce(st->rop, x->acc, v, st->rtype);
			return 0;
		}
		unsigned b = (unsigned)((f->spa[x->key] / f->s->interleave) % NSC_BANKS);
		x->part[b] = x->has[b] ? nsc_val_reduce(st->rop, x->part[b], v, st->rtype) : nsc_val_cast(v, st->rtype);
		x->has[b] = true;
		return 0;
	}
	int64_t i;
	if (ev_int(f, st->idx, &i) < 0 || oob(f, st->arr, i, st->line, st->col) < 0)
		return -1;
	const nsc_array *a = &f->p->arrays[st->arr];
	f->self = nsc_mem_get(f->m, st->arr, (uint64_t)i);
	if (st->kind == NSC_S_LOAD) {
		f->spa[s] = a->base + (uint64_t)i * nsc_type_size(a->type);
		f->sv[s] = f->self;
		return st->val >= 0 ? ev(f, st->val, &f->sv[s]) : 0;
	}
	if (ev(f, st->val, &v) < 0)
		return -1;
	if (st->kind == NSC_S_ATOMIC)
		v = nsc_val_reduce(st->rop, f->self, v, a->type);
	nsc_mem_put(f->m, st->arr, (uint64_t)i, v);
	return 0;
}

/* The core's stores injected before this iteration, then its number. */
static int aliases(ref *f)
{
	for (int k = 0; k < f->s->naliases; k++) {
		const nsc_alias *a = &f->s->aliases[k];
		if (a->iter != f->giter)
			continue;
		if (a->arr < 0 || a->arr >= f->p->narrays || a->index >= f->p->arrays[a->arr].count) {
			diag_file(f->d, f->p->file, "an injected store is out of bounds");
			return -1;
		}
		nsc_mem_put(f->m, a->arr, a->index, a->value);
	}
	f->giter++;
	return 0;
}

static int iteration(ref *f, red *rd)
{
	for (int s = 0; s < f->r->nstreams; s++)
		if (stream_step(f, s, rd) < 0)
			return -1;
	return 0;
}

/* Iterations of an affine space, the last dimension fastest. */
static int space(ref *f, int d, red *rd)
{
	const nsc_region *r = f->r;
	if (d == r->ndims)
		return aliases(f) < 0 ? -1 : iteration(f, rd);
	int64_t n;
	if (ev_int(f, r->dim_len[d], &n) < 0)
		return -1;
	for (f->dim[d] = 0; f->dim[d] < n; f->dim[d]++)
		if (space(f, d + 1, rd) < 0)
			return -1;
	return 0;
}

/* The engines' bound on a region's iterations (region_run.c), checked
 * the same way before the first iteration, so that both fail alike. */
static int space_bound(ref *f)
{
	const nsc_region *r = f->r;
	uint64_t n = 1;
	for (int d = 0; d < r->ndims; d++) {
		int64_t len;
		if (ev_int(f, r->dim_len[d], &len) < 0)
			return -1;
		const bool over = len > 0 && n && (uint64_t)len > f->bound / n;
		n = len <= 0 ? 0 : n * (uint64_t)len;
		if (over) {
			diag_at(f->d, f->p->file, r->line, r->col,
				"a region of more than %" PRIu64 " iterations", f->bound);
			return -1;
		}
	}
	return nsc_work_charge(f->s, &f->work, n, f->p->file, r->line, r->col, f->d);
}

static int chase(ref *f, red *rd)
{
	const nsc_region *r = f->r;
	int64_t p;
	if (ev_int(f, r->chase_from, &p) < 0)
		return -1;
	for (uint64_t n = 0; p >= 0; n++) {
		if (n >= f->bound) {
			diag_at(f->d, f->p->file, r->line, r->col, "a chase passes %" PRIu64 " nodes", f->bound);
			return -1;
		}
		if (oob(f, r->chase_arr, p, r->line, r->col) < 0)
			return -1;
		if (aliases(f) < 0)
			return -1;
		f->sv[NSC_MAX_STREAMS] = nsc_val_int(p);
		nsc_val u = nsc_val_int(0), nx;
		/* the next pointer and the end are read from the node before the
		 * iteration's streams run (the chase leads its region) */
		if (r->chase_until >= 0 && ev(f, r->chase_until, &u) < 0)
			return -1;
		bool last = nsc_val_true(u);
		if (!last && ev(f, r->chase_next, &nx) < 0)
			return -1;
		if (iteration(f, rd) < 0)
			return -1;
		p = last ? -1 : nsc_val_as_int(nx);
	}
	return 0;
}

static int region(ref *f, const nsc_region *r)
{
	red rd[NSC_MAX_STREAMS];
	memset(rd, 0, sizeof rd);
	f->r = r;
	if (r->ndims && space_bound(f) < 0)
		return -1;
	for (int s = 0; s < r->nstreams; s++) {
		const nsc_stream *st = &r->s[s];
		rd[s].key = -1;
		if (st->kind != NSC_S_REDUCE)
			continue;
		nsc_val v = nsc_val_start(st->rop, st->rtype);
		if (st->init >= 0 && ev(f, st->init, &v) < 0)
			return -1;
		rd[s].acc = nsc_val_cast(v, st->rtype);
		for (int k = 0; k < r->nstreams && rd[s].key < 0; k++)
			if (r->s[k].addr == NSC_A_INDIRECT && nsc_expr_uses(f->p, st->val, NSC_E_STREAM, k))
				rd[s].key = k;
	}
	if ((r->ndims ? space(f, 0, rd) : chase(f, rd)) < 0)
		return -1;
	for (int s = 0; s < r->nstreams; s++) {
		const nsc_stream *st = &r->s[s];
		if (st->kind != NSC_S_REDUCE)
			continue;
		for (int b = 0; b < NSC_BANKS; b++)
			if (rd[s].has[b])
				rd[s].acc = nsc_val_reduce(st->rop, rd[s].acc, rd[s].part[b], st->rtype);
		f->var[st->slot] = rd[s].acc;
	}
	return 0;
}

static int stmts(ref *f, int from, int to)
{
	for (int at = from; at < to; at++) {
		const nsc_stmt *s = &f->p->st[at];
		nsc_val v;
		int64_t n, i;
		switch (s->kind) {
		case NSC_ST_LET:
			if (ev(f, s->e1, &f->var[s->slot]) < 0)
				return -1;
			break;
		case NSC_ST_STORE:
			if (ev_int(f, s->e1, &i) < 0 || ev(f, s->e2, &v) < 0 || oob(f, s->arr, i, s->line, s->col) < 0)
				return -1;
			nsc_mem_put(f->m, s->arr, (uint64_t)i, v);
			break;
		case NSC_ST_FOR:
			if (ev_int(f, s->e1, &n) < 0)
				return -1;
			if (n > 0 && (uint64_t)n > f->bound) {
				diag_at(f->d, f->p->file, s->line, s->col, "a loop of %" PRId64 " trips passes the bound of %" PRIu64,
					n, f->bound);
				return -1;
			}
			if (n > 0 && nsc_work_charge(f->s, &f->work, (uint64_t)n, f->p->file, s->line, s->col, f->d) < 0)
				return -1;
			for (i = 0; i < n; i++) {
				f->var[s->slot] = nsc_val_int(i);
				if (stmts(f, at + 1, s->end) < 0)
					return -1;
			}
			at = s->end;
			break;
		case NSC_ST_IF:
			if (ev(f, s->e1, &v) < 0)
				return -1;
			if (nsc_val_true(v) && stmts(f, at + 1, s->end) < 0)
				return -1;
			at = s->end;
			break;
		case NSC_ST_STREAMS:
			if (region(f, &f->p->rg[s->ref]) < 0)
				return -1;
			break;
		case NSC_ST_END:
			break;
		}
	}
	return 0;
}

int nsc_ref_run(const nsc_program *p, nsc_mem *m, const nsc_settings *s, diag *d)
{
	ref f = { .p = p, .m = m, .s = s, .d = d };
	diag_clear(d);
	f.bound = s->max_iters ? s->max_iters : (uint64_t)1 << 32;
	f.var = calloc((size_t)p->nslots + 1, sizeof *f.var);
	if (!f.var) {
		diag_file(d, p->file, "out of memory");
		return -1;
	}
	for (int i = 0; i < p->nslots; i++)
		f.var[i] = nsc_val_int(0);
	int rc = stmts(&f, 0, p->nst);
	free(f.var);
	return rc;
}
