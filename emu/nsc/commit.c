/* SPDX-License-Identifier: MIT */
/*
 * commit.c: a region's life on the stream engines: configuration and
 * the floating decision, iterations committed in program order (stores,
 * updates, atomics and reductions; near-stream-computing §IV-B), the
 * credit, done, commit and range messages every R iterations, injected
 * core stores checked against the ranges (an alias ends the offload),
 * and the end: per-bank partials of indirect reductions finished at the
 * core in bank order 0..63 (§IV-C; doc/STREAMS.md, "Reductions").
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"

static bool store_like(const nsc_stream *s)
{
	return s->kind == NSC_S_STORE || s->kind == NSC_S_UPDATE || s->kind == NSC_S_ATOMIC;
}

/* A store, update or atomic element, at commit. */
static int write_elem(rstate *g, int s, uint64_t it, rec *rc)
{
	const nsc_stream *st = &g->r->s[s];
	nsc_eng *e = g->e;
	nsc_ctx c;
	int64_t i;
	uint64_t pa;
	eng_ctx_of(g, it, rc, &c);
	if (eng_elem_pa(g, s, st->arr, &c, &i, &pa) < 0)
		return -1;
	bool fl = g->fl[s];
	unsigned b = nsc_bank_of(pa, e->s->interleave);
	rc->idx[s] = i;
	rc->pa[s] = pa;
	if (fl) {
		eng_route(g, s, rc, pa);
		nsc_cache_invalidate(&e->cache, pa);
	} else {
		eng_core_touch(g, s, pa, true);
		eng_operands(g, st->idx, rc, false, b);
	}
	eng_operands(g, st->val, rc, fl, b);
	e->st->elems_bank += fl;
	e->st->elems_core += !fl;
	e->st->bank_elems[b] += fl;
	nsc_val v, old = nsc_mem_get(e->m, st->arr, (uint64_t)i);
	c.self = old;
	if (eng_eval_at(g, st->val, &c, fl, &v) < 0)
		return -1;
	if (st->kind == NSC_S_ATOMIC) {
		*(fl ? &e->st->uops_bank : &e->st->uops_core) += 1;
		e->st->atomic_locks++;   /* the L3 line is locked for the RMW (§IV-B) */
		v = nsc_val_reduce(st->rop, old, v, e->p->arrays[st->arr].type);
	}
	nsc_mem_put(e->m, st->arr, (uint64_t)i, v);
	nsc_note_write(e, st->arr, (uint64_t)i, NSC_WHO(NSC_W_STREAM, g->ri * NSC_MAX_STREAMS + s, e->giter));
	return 0;
}

/* A reduction's term: per-bank partial when it reads an indirect stream. */
static int reduce_elem(rstate *g, int s, uint64_t it, rec *rc)
{
	const nsc_stream *st = &g->r->s[s];
	nsc_ctx c;
	nsc_val v;
	eng_ctx_of(g, it, rc, &c);
	rc->idx[s] = (int64_t)it;
	int key = g->key[s];
	unsigned b = key >= 0 ? nsc_bank_of(rc->pa[key], g->e->s->interleave) : eng_core_tile(g);
	unsigned at = b;
	if (g->fl[s] && g->host[s] >= 0) {
		/* folded: the term is reduced at the host's element (Fig 2a) */
		at = nsc_bank_of(rc->pa[g->host[s]], g->e->s->interleave);
	} else if (g->fl[s] && key < 0) {
		/* an affine reduction travels with its first operand (§IV-C) */
		for (int k = CH; k >= 0; k--)
			if (nsc_expr_uses(g->e->p, st->val, NSC_E_STREAM, k) && (k == CH || g->fl[k]))
				at = nsc_bank_of(rc->pa[k], g->e->s->interleave);
		eng_place(g, s, at);
	}
	eng_operands(g, st->val, rc, g->fl[s], at);
	*(g->fl[s] ? &g->e->st->uops_bank : &g->e->st->uops_core) += 1;
	if (eng_eval_at(g, st->val, &c, g->fl[s], &v) < 0)
		return -1;
	if (key < 0) {
		g->acc[s] = nsc_val_reduce(st->rop, g->acc[s], v, st->rtype);
		return 0;
	}
	g->part[s][b] = g->has_part[s][b] ? nsc_val_reduce(st->rop, g->part[s][b], v, st->rtype)
					  : nsc_val_cast(v, st->rtype);
	g->has_part[s][b] = true;
	return 0;
}

/* Every R iterations: credits granted and done for floated streams,
 * commits for floated writers, ranges for floated indirect and pointer
 * loads (affine ranges are built at the core, Fig 15). */
void eng_sync_block(rstate *g, uint64_t k)
{
	nsc_eng *e = g->e;
	eng_flush_values(g);
	for (int s = 0; s <= CH; s++) {
		if (!g->fl[s] || !g->placed[s] || (s < CH && s >= g->r->nstreams))
			continue;
		unsigned b = g->bank[s], core = eng_core_tile(g);
		nsc_send(e->st, NSC_M_CREDIT, NSC_C_OFFLOAD, NSC_HDR, core, b);
		nsc_send(e->st, NSC_M_DONE, NSC_C_OFFLOAD, NSC_HDR, b, core);
		e->st->credits += k;
		e->st->dones += k;
		if (e->s->sync_free)
			continue;
		const nsc_stream *st = s < CH ? &g->r->s[s] : NULL;
		if (st && store_like(st)) {
			nsc_send(e->st, NSC_M_COMMIT, NSC_C_OFFLOAD, NSC_HDR, core, b);
			e->st->commits += k;
		}
		if (!st || (st->kind == NSC_S_LOAD && st->addr != NSC_A_AFFINE))
			nsc_send(e->st, NSC_M_RANGE, NSC_C_OFFLOAD, NSC_HDR + 16, b, core);
	}
}

/* Does a core store at pa fall in the range of an issued, uncommitted
 * element?  Ranges are per block of R iterations, [min, max + size). */
static bool in_ranges(const rstate *g, uint64_t it, uint64_t pa)
{
	unsigned R = g->e->s->range_iters ? g->e->s->range_iters : 1;
	for (int s = 0; s <= CH; s++) {
		if (!g->fl[s] || (s < CH && (s >= g->r->nstreams || g->r->s[s].kind != NSC_S_LOAD)) ||
		    (s == CH && g->r->ndims))
			continue;
		for (uint64_t b0 = it - it % R; b0 < g->issued; b0 += R) {
			uint64_t lo = UINT64_MAX, hi = 0;
			for (uint64_t j = b0 < it ? it : b0; j < b0 + R && j < g->issued; j++) {
				const rec *rc = &g->ring[j % (g->w + 1)];
				lo = rc->pa[s] < lo ? rc->pa[s] : lo;
				hi = rc->pa[s] > hi ? rc->pa[s] : hi;
			}
			if (pa >= lo && pa < hi + 8)
				return true;
		}
	}
	return false;
}

/* An alias ends the offload: issued elements are dropped, the core runs
 * the rest of the region (Fig 7c). */
static void abort_offload(rstate *g, uint64_t it)
{
	nsc_eng *e = g->e;
	eng_flush_values(g);
	e->st->aborts++;
	g->aborted = true;
	for (int s = 0; s <= CH; s++)
		if (g->fl[s] && g->placed[s])
			nsc_send(e->st, NSC_M_END, NSC_C_OFFLOAD, NSC_HDR, eng_core_tile(g), g->bank[s]);
	memset(g->fl, 0, sizeof g->fl);
	memset(g->placed, 0, sizeof g->placed);
	if (g->r->ndims == 0 && it < g->issued) {
		g->next_p = nsc_val_as_int(eng_slot(g, it)->v[CH]);
		g->chase_end = false;
	}
	g->issued = it;
	g->w = 0;
}

/* The core's stores injected before global iteration giter. */
static int core_aliases(rstate *g, uint64_t it)
{
	nsc_eng *e = g->e;
	for (int k = 0; k < e->s->naliases; k++) {
		const nsc_alias *a = &e->s->aliases[k];
		if (a->iter != e->giter)
			continue;
		if (a->arr < 0 || a->arr >= e->p->narrays || a->index >= e->p->arrays[a->arr].count) {
			diag_file(e->d, e->p->file, "an injected store is out of bounds");
			return -1;
		}
		uint64_t pa = eng_pa_of(g, a->arr, (int64_t)a->index);
		if (!e->s->sync_free && it < g->issued && in_ranges(g, it, pa))
			abort_offload(g, it);
		e->st->alias_stores++;
		nsc_core_access(e, pa, true);
		nsc_mem_put(e->m, a->arr, a->index, a->value);
		nsc_note_write(e, a->arr, a->index, NSC_WHO(NSC_W_ALIAS, k, e->giter));
	}
	return 0;
}

/* Commit iteration it in program order: 0, 1 when a chase ended, -1. */
int eng_commit(rstate *g, uint64_t it)
{
	bool fresh = it >= g->issued;
	if (fresh && g->r->ndims == 0 && (g->chase_end || g->next_p < 0)) {
		g->n = it;
		return 1;
	}
	if (core_aliases(g, it) < 0)
		return -1;
	fresh = it >= g->issued;   /* an alias drops what was issued */
	rec *rc = eng_slot(g, it);
	if (fresh) {
		memset(rc, 0, sizeof *rc);
		if (g->r->ndims == 0) {
			int k = eng_chase_elem(g, it, rc);
			if (k)
				return k;
		}
	}
	for (int s = 0; s < g->r->nstreams; s++) {
		const nsc_stream *st = &g->r->s[s];
		int rc2 = 0;
		if (st->kind == NSC_S_LOAD)
			rc2 = rc->done[s] ? 0 : eng_load_elem(g, s, it, rc);
		else if (st->kind == NSC_S_REDUCE)
			rc2 = reduce_elem(g, s, it, rc);
		else
			rc2 = write_elem(g, s, it, rc);
		if (rc2 < 0)
			return -1;
	}
	if (fresh)
		g->issued = it + 1;
	g->last = *rc;
	g->has_last = true;
	g->e->giter++;
	g->e->st->iters++;
	return 0;
}

