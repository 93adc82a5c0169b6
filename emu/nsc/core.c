/* SPDX-License-Identifier: MIT */
/*
 * core.c: the core's side of a .nsc program: its statements (loops,
 * conditions, scalars, stores), its loads through the private cache, and
 * the evaluation of expressions (on the core, or on an engine's ALU with
 * a region's context).  session.c walks the program and hands each
 * `streams` region to the engines (region_run.c).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "nsc_int.h"

int nsc_index_check(nsc_eng *e, int arr, int64_t i, int line, int col)
{
	const nsc_array *a = &e->p->arrays[arr];
	if (i >= 0 && (uint64_t)i < a->count)
		return 0;
	diag_at(e->d, e->p->file, line, col, "index %" PRId64 " is out of bounds of array '%s' (%" PRIu64 " elements)",
		i, a->name, a->count);
	return -1;
}

void nsc_note_write(nsc_eng *e, int arr, uint64_t i, uint64_t who)
{
	if (e->writer)
		e->writer[arr][i] = who;
}

void nsc_core_access(nsc_eng *e, uint64_t pa, bool write)
{
	uint64_t ev;
	unsigned core = e->s->core_tile, bank = nsc_bank_of(pa, e->s->interleave);
	if (nsc_cache_access(&e->cache, pa, write, &ev)) {
		e->st->cache_hits++;
		return;
	}
	e->st->cache_misses++;
	nsc_send(e->st, NSC_M_REQ, NSC_C_CONTROL, NSC_HDR, core, bank);
	nsc_send(e->st, NSC_M_LINE, NSC_C_DATA, NSC_HDR + NSC_LINE, bank, core);
	if (ev != UINT64_MAX)
		nsc_send(e->st, NSC_M_WRITEBACK, NSC_C_DATA, NSC_HDR + NSC_LINE, core,
			 nsc_bank_of(ev, e->s->interleave));
}

static int eval_leaf(nsc_eng *e, const nsc_expr *x, const nsc_ctx *c, nsc_val *out)
{
	nsc_val v = nsc_val_int(x->ival);
	switch (x->op) {
	case NSC_E_FLT: v.k = 'f'; v.u.f = (float)x->fval; break;
	case NSC_E_DBL: v.k = 'd'; v.u.d = x->fval; break;
	case NSC_E_VAR: v = e->slots[x->ref]; break;
	case NSC_E_DIM: v = nsc_val_int(c->dim[x->ref]); break;
	case NSC_E_STREAM: v = c->sv[x->ref]; break;
	case NSC_E_SELF: v = c->self; break;
	case NSC_E_FIELD: {
		/* the chased node's field, read at the node's bank */
		int64_t i = c->sv[NSC_MAX_STREAMS].u.i + x->ival;
		if (nsc_index_check(e, c->chase_arr, i, x->line, x->col) < 0)
			return -1;
		v = nsc_mem_get(e->m, c->chase_arr, (uint64_t)i);
		break;
	}
	default: break;
	}
	*out = v;
	return 0;
}

int nsc_eval(nsc_eng *e, int xi, const nsc_ctx *c, nsc_val *out)
{
	const nsc_expr *x = &e->p->ex[xi];
	nsc_val a, b;
	if (x->op < NSC_E_INDEX)
		return eval_leaf(e, x, c, out);
	if (x->op == NSC_E_COND) {
		if (nsc_eval(e, x->c, c, &a) < 0)
			return -1;
		return nsc_eval(e, nsc_val_true(a) ? x->a : x->b, c, out);
	}
	if (nsc_eval(e, x->a, c, &a) < 0)
		return -1;
	if (x->op == NSC_E_INDEX) {
		int64_t i = nsc_val_as_int(a);
		if (nsc_index_check(e, x->ref, i, x->line, x->col) < 0)
			return -1;
		const uint64_t pa = e->p->arrays[x->ref].base + (uint64_t)i * nsc_type_size(e->p->arrays[x->ref].type);
		if (e->outer >= 0) {   /* an open nest's outer stream reads it at its bank */
			nsc_nest_outer_access(e, e->outer, x->ref, pa);
		} else {
			e->st->core_loads++;
			nsc_core_access(e, pa, false);
		}
		*out = nsc_mem_get(e->m, x->ref, (uint64_t)i);
		return 0;
	}
	if (x->op == NSC_E_CAST) {
		*out = nsc_val_cast(a, (nsc_type)x->ival);
		return 0;
	}
	if (x->op <= NSC_E_BNOT || x->op == NSC_E_ABS) {
		*out = nsc_val_un(x->op, a);
		return 0;
	}
	if ((x->op == NSC_E_LAND && !nsc_val_true(a)) || (x->op == NSC_E_LOR && nsc_val_true(a))) {
		*out = nsc_val_int(x->op == NSC_E_LOR);
		return 0;
	}
	const char *why;
	if (nsc_eval(e, x->b, c, &b) < 0)
		return -1;
	if (nsc_val_bin(x->op, a, b, out, &why) < 0) {
		diag_at(e->d, e->p->file, x->line, x->col, "%s", why);
		return -1;
	}
	return 0;
}

int nsc_eval_int(nsc_eng *e, int x, const nsc_ctx *c, int64_t *out)
{
	nsc_val v;
	if (nsc_eval(e, x, c, &v) < 0)
		return -1;
	*out = nsc_val_as_int(v);
	return 0;
}

int nsc_core_store(nsc_eng *e, const nsc_stmt *s)
{
	nsc_ctx c = { .chase_arr = -1 };
	int64_t i;
	nsc_val v;
	if (nsc_eval_int(e, s->e1, &c, &i) < 0 || nsc_eval(e, s->e2, &c, &v) < 0 ||
	    nsc_index_check(e, s->arr, i, s->line, s->col) < 0)
		return -1;
	e->st->core_stores++;
	nsc_core_access(e, e->p->arrays[s->arr].base + (uint64_t)i * nsc_type_size(e->p->arrays[s->arr].type), true);
	nsc_mem_put(e->m, s->arr, (uint64_t)i, v);
	nsc_note_write(e, s->arr, (uint64_t)i, NSC_WHO(NSC_W_STORE, s - e->p->st, e->giter));
	return 0;
}
