/* SPDX-License-Identifier: MIT */
/*
 * engine.c: a `streams` region on the stream engines (near-stream-
 * computing §IV): SE_core configures the floated streams at the SE_L3 of
 * their first element's bank; an SE_L3 issues load elements ahead of the
 * core (up to `window` iterations, the credits), migrates a stream when
 * its next element lives on another bank (static NUCA), and forwards an
 * indirect request to the bank of its target.  Stores, updates and
 * atomics happen at commit, in iteration order (the commit messages of
 * §IV-B), so program order is the meaning; an atomic locks its L3 line.
 * Range synchronisation: every R iterations a floated indirect or
 * pointer stream sends the [min, max) of its addresses (affine ranges
 * are built at the core, Fig 15); a core store inside the range of an
 * issued, uncommitted element ends the offload: issued elements are
 * dropped, committed ones stay, and the core runs the rest (Fig 7b,c).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "nsc_int.h"

#include "engine.h"

rec *eng_slot(rstate *g, uint64_t it)
{
	return &g->ring[it % (g->w + 1)];
}

unsigned eng_core_tile(const rstate *g)
{
	return g->e->s->core_tile;
}

uint64_t eng_pa_of(const rstate *g, int arr, int64_t i)
{
	const nsc_array *a = &g->e->p->arrays[arr];
	return a->base + (uint64_t)i * nsc_type_size(a->type);
}

/* A floated stream's element at bank b: a migrate when it moves (§IV-B),
 * 32 bytes and 8 more for each reduction folded into the stream (its
 * partial travels with it, Fig 2a). */
void eng_place(rstate *g, int s, unsigned b)
{
	if (g->inst[s]) {
		/* a nest's next instance: started at its first element's bank
		 * by the outer stream (or, with no outer element, where the
		 * stream is), its start and trip count in the message */
		const nsc_nest *n = &g->e->nest[g->ri];
		nsc_send(g->e->st, NSC_M_INSTANCE, NSC_C_OFFLOAD, NSC_HDR + 16, n->has_src ? n->src : g->bank[s], b);
		g->inst[s] = false;
	} else if (g->placed[s] && g->bank[s] != b)
		nsc_send(g->e->st, NSC_M_MIGRATE, NSC_C_OFFLOAD, 32 + 8 * g->nfold[s], g->bank[s], b);
	if (!g->placed[s])
		nsc_send(g->e->st, NSC_M_CONFIG, NSC_C_OFFLOAD, 64, eng_core_tile(g), b);
	g->placed[s] = true;
	g->bank[s] = b;
}

/* A core access by stream s (the history of the floating decision). */
void eng_core_touch(rstate *g, int s, uint64_t pa, bool write)
{
	uint64_t miss = g->e->st->cache_misses;
	nsc_core_access(g->e, pa, write);
	g->acc_n[s]++;
	g->miss_n[s] += g->e->st->cache_misses - miss;
}

static void dims_of(const rstate *g, uint64_t it, nsc_ctx *c)
{
	for (int d = g->r->ndims - 1; d >= 0; d--) {
		c->dim[d] = (int64_t)(it % (uint64_t)g->len[d]);
		it /= (uint64_t)g->len[d];
	}
}

void eng_ctx_of(const rstate *g, uint64_t it, const rec *rc, nsc_ctx *c)
{
	memset(c, 0, sizeof *c);
	c->chase_arr = g->r->chase_arr;
	dims_of(g, it, c);
	for (int s = 0; s <= CH; s++)
		c->sv[s] = rc->v[s];
}

int eng_eval_at(rstate *g, int x, const nsc_ctx *c, bool bank, nsc_val *out)
{
	unsigned ops = nsc_expr_ops(g->e->p, x);
	if (bank)
		g->e->st->uops_bank += ops;
	else
		g->e->st->uops_core += ops;
	return nsc_eval(g->e, x, c, out);
}

/* The element index of stream s at iteration it: from the configuration
 * (Table IV: base, strides; indirect: the base's value + w). */
static int64_t eng_index_of(const rstate *g, int s, const nsc_ctx *c)
{
	const nsc_stream *st = &g->r->s[s];
	if (st->addr == NSC_A_AFFINE) {
		int64_t i = g->c0[s];
		for (int d = 0; d < g->r->ndims; d++)
			i = (int64_t)((uint64_t)i + (uint64_t)g->co[s][d] * (uint64_t)c->dim[d]);
		return i;
	}
	nsc_val b = c->sv[st->addr == NSC_A_POINTER ? CH : st->base];
	return (int64_t)((uint64_t)nsc_val_as_int(b) + (uint64_t)g->off[s]);
}

/* Where stream s's element at pa is handled, and the messages to get
 * there: an affine or pointer stream migrates, an indirect one is
 * forwarded from its base's bank (§IV-B). */
void eng_route(rstate *g, int s, const rec *rc, uint64_t pa)
{
	const nsc_stream *st = &g->r->s[s];
	unsigned b = nsc_bank_of(pa, g->e->s->interleave);
	if (st->addr == NSC_A_AFFINE) {
		eng_place(g, s, b);
		return;
	}
	int from = st->addr == NSC_A_POINTER ? CH : st->base;
	unsigned fb = nsc_bank_of(rc->pa[from], g->e->s->interleave);
	if (g->inst[s]) {
		/* a nest's next instance: its requests come from its base; a new
		 * offset comes from the outer stream */
		const nsc_nest *n = &g->e->nest[g->ri];
		if (n->off[s] != g->off[s])
			nsc_send(g->e->st, NSC_M_INSTANCE, NSC_C_OFFLOAD, NSC_HDR + 16, n->has_src ? n->src : fb, fb);
		g->inst[s] = false;
	} else if (!g->placed[s])
		nsc_send(g->e->st, NSC_M_CONFIG, NSC_C_OFFLOAD, 64, eng_core_tile(g), fb);
	g->placed[s] = true;
	g->bank[s] = b;
	if (fb != b)
		nsc_send(g->e->st, NSC_M_FORWARD, NSC_C_OFFLOAD, NSC_HDR + 8, fb, b);
}

int eng_elem_pa(rstate *g, int s, int arr, const nsc_ctx *c, int64_t *idx, uint64_t *pa)
{
	*idx = eng_index_of(g, s, c);
	if (nsc_index_check(g->e, arr, *idx, g->r->s[s].line, g->r->s[s].col) < 0)
		return -1;
	*pa = eng_pa_of(g, arr, *idx);
	return 0;
}

/* Operands of a computation: one message from each stream whose value
 * is elsewhere.  Between banks it is offloaded traffic; to or from the
 * core it is data (the value of an s_load, NSC Fig 12). */
/* Values a stream sends one tile travel together: one data message per
 * source stream, destination and block of R iterations, its elements
 * packed (doc/STREAMS.md, "Messages"). */
static void flush_one(rstate *g, int s)
{
	pending *q = &g->pend[s];
	if (q->bytes)
		nsc_send(g->e->st, NSC_M_DATA, q->cls, NSC_HDR + (unsigned)q->bytes, q->from, q->to);
	q->bytes = 0;
}

void eng_flush_values(rstate *g)
{
	for (int s = 0; s <= CH; s++)
		flush_one(g, s);
}

static void send_value(rstate *g, int s, nsc_class cls, unsigned from, unsigned to, unsigned bytes)
{
	pending *q = &g->pend[s];
	if (q->bytes && (q->from != from || q->to != to || q->cls != cls))
		flush_one(g, s);
	q->from = from;
	q->to = to;
	q->cls = cls;
	q->bytes += bytes;
}

static unsigned value_bytes(const rstate *g, int s)
{
	int a = s < CH ? g->r->s[s].arr : g->r->chase_arr;
	return a >= 0 ? nsc_type_size(g->e->p->arrays[a].type) : 8;
}

void eng_operands(rstate *g, int x, rec *rc, bool at_bank, unsigned to)
{
	if (x < 0)
		return;
	unsigned core = eng_core_tile(g);
	for (int s = 0; s <= CH; s++) {
		if (!nsc_expr_uses(g->e->p, x, NSC_E_STREAM, s))
			continue;
		bool src_bank = g->fl[s];
		if (!src_bank && !at_bank)
			continue;   /* core to core */
		unsigned from = src_bank ? nsc_bank_of(rc->pa[s], g->e->s->interleave) : core;
		unsigned dst = at_bank ? to : core;
		if (src_bank && at_bank && from == dst)
			continue;
		send_value(g, s, src_bank && at_bank ? NSC_C_OFFLOAD : NSC_C_DATA, from, dst, value_bytes(g, s));
	}
}

/* Load stream s's element of iteration it into rc (§IV-B issue). */
int eng_load_elem(rstate *g, int s, uint64_t it, rec *rc)
{
	const nsc_stream *st = &g->r->s[s];
	nsc_ctx c;
	int64_t i;
	uint64_t pa;
	eng_ctx_of(g, it, rc, &c);
	if (eng_elem_pa(g, s, st->arr, &c, &i, &pa) < 0)
		return -1;
	if (g->fl[s])
		eng_route(g, s, rc, pa);
	else {
		eng_core_touch(g, s, pa, false);
		eng_operands(g, st->idx, rc, false, 0);
	}
	g->e->st->elems_bank += g->fl[s];
	g->e->st->elems_core += !g->fl[s];
	g->e->st->bank_elems[nsc_bank_of(pa, g->e->s->interleave)] += g->fl[s];
	c.self = nsc_mem_get(g->e->m, st->arr, (uint64_t)i);
	rc->v[s] = c.self;
	if (st->val >= 0 && eng_eval_at(g, st->val, &c, g->fl[s], &rc->v[s]) < 0)
		return -1;
	if (g->fl[s] && !g->used[s])   /* nobody near memory uses it: the core's s_load */
		send_value(g, s, NSC_C_DATA, nsc_bank_of(pa, g->e->s->interleave), eng_core_tile(g), value_bytes(g, s));
	rc->pa[s] = pa;
	rc->idx[s] = i;
	rc->done[s] = true;
	return 0;
}

/* The chased pointer of iteration it: 0 with rc set, 1 at the end. */
int eng_chase_elem(rstate *g, uint64_t it, rec *rc)
{
	const nsc_region *r = g->r;
	if (g->chase_end || g->next_p < 0) {
		g->n = it;
		return 1;
	}
	if (it >= g->e->max_iters) {
		diag_at(g->e->d, g->e->p->file, r->line, r->col, "a chase passes %" PRIu64 " nodes", g->e->max_iters);
		return -1;
	}
	if (nsc_index_check(g->e, r->chase_arr, g->next_p, r->line, r->col) < 0)
		return -1;
	rc->v[CH] = nsc_val_int(g->next_p);
	rc->pa[CH] = eng_pa_of(g, r->chase_arr, g->next_p);
	rc->idx[CH] = g->next_p;
	rc->done[CH] = true;
	if (g->fl[CH])
		eng_place(g, CH, nsc_bank_of(rc->pa[CH], g->e->s->interleave));
	else
		eng_core_touch(g, CH, rc->pa[CH], false);
	nsc_ctx c;
	nsc_val v = nsc_val_int(0);
	eng_ctx_of(g, it, rc, &c);
	if (r->chase_until >= 0 && eng_eval_at(g, r->chase_until, &c, g->fl[CH], &v) < 0)
		return -1;
	rc->end_after = nsc_val_true(v);
	if (rc->end_after)
		g->chase_end = true;
	else if (eng_eval_at(g, r->chase_next, &c, g->fl[CH], &v) < 0)
		return -1;
	g->next_p = rc->end_after ? -1 : nsc_val_as_int(v);
	return 0;
}

/* Issue iteration it at the banks: the chase and the floated loads. */
int eng_issue(rstate *g, uint64_t it)
{
	rec *rc = eng_slot(g, it);
	memset(rc, 0, sizeof *rc);
	if (g->r->ndims == 0) {
		int rc2 = eng_chase_elem(g, it, rc);
		if (rc2)
			return rc2;
	}
	for (int s = 0; s < g->r->nstreams; s++)
		if (g->r->s[s].kind == NSC_S_LOAD && g->fl[s] && eng_load_elem(g, s, it, rc) < 0)
			return -1;
	g->issued = it + 1;
	return 0;
}

