/* SPDX-License-Identifier: MIT */
/*
 * region_run.c: one instance of a `streams` region: the configuration
 * (s_cfg: trip counts, the affine streams' base and strides, indirect
 * offsets, Table IV), the floating decision, the run-ahead window, the
 * iterations, and the end (s_end: end messages, reductions' results read
 * by the core, the history the next decision uses).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"

/* Trip counts, and each affine stream's index as c0 + sum co[d] * dim[d]
 * (the core evaluates the index at the origin and unit steps). */
static int configure(rstate *g)
{
	nsc_eng *e = g->e;
	const nsc_region *r = g->r;
	nsc_ctx c;
	memset(&c, 0, sizeof c);
	c.chase_arr = r->chase_arr;
	for (int s = 0; s <= CH; s++)
		c.sv[s] = nsc_val_int(0);
	g->n = r->ndims ? 1 : UINT64_MAX;
	for (int d = 0; d < r->ndims; d++) {
		if (nsc_eval_int(e, r->dim_len[d], &c, &g->len[d]) < 0)
			return -1;
		/* n * len past the bound, without overflowing */
		const bool over = g->len[d] > 0 && g->n && (uint64_t)g->len[d] > e->max_iters / g->n;
		g->n = g->len[d] <= 0 ? 0 : g->n * (uint64_t)g->len[d];
		if (over) {
			diag_at(e->d, e->p->file, r->line, r->col, "a region of more than %" PRIu64 " iterations",
				e->max_iters);
			return -1;
		}
	}
	if (r->ndims && nsc_work_charge(e->s, &e->work, g->n, e->p->file, r->line, r->col, e->d) < 0)
		return -1;
	for (int s = 0; s < r->nstreams; s++) {
		const nsc_stream *st = &r->s[s];
		if (st->addr == NSC_A_AFFINE) {
			if (nsc_eval_int(e, st->idx, &c, &g->c0[s]) < 0)
				return -1;
			for (int d = 0; d < r->ndims; d++) {
				nsc_ctx u = c;
				u.dim[d] = 1;
				if (nsc_eval_int(e, st->idx, &u, &g->co[s][d]) < 0)
					return -1;
				g->co[s][d] -= g->c0[s];
			}
		} else if (st->addr != NSC_A_NONE && nsc_eval_int(e, st->idx, &c, &g->off[s]) < 0)
			return -1;   /* the base's value is 0 in c: what is left is w */
		g->key[s] = -1;
		g->host[s] = -1;
		for (int k = 0; k <= CH; k++)
			if (nsc_expr_uses(e->p, st->val, NSC_E_STREAM, k) || nsc_expr_uses(e->p, st->idx, NSC_E_STREAM, k))
				g->used[k] = true;
		if (st->kind == NSC_S_REDUCE) {
			nsc_val v = nsc_val_start(st->rop, st->rtype);
			if (st->init >= 0 && nsc_eval(e, st->init, &c, &v) < 0)
				return -1;
			g->acc[s] = nsc_val_cast(v, st->rtype);
			for (int k = 0; k < r->nstreams && g->key[s] < 0; k++)
				if (r->s[k].addr == NSC_A_INDIRECT && nsc_expr_uses(e->p, st->val, NSC_E_STREAM, k))
					g->key[s] = k;
		}
	}
	if (r->ndims == 0) {
		if (nsc_eval_int(e, r->chase_from, &c, &g->from_p) < 0)
			return -1;
		g->next_p = g->from_p;
	}
	return 0;
}

/* The walk a term's stream k belongs to, for folding: 1 when k walks
 * the same records as h (h affine: an affine load of h's array with h's
 * strides, its first element less than a line from h's; h the chase: a
 * pointer load of the chased array less than a line from the node). */
static bool same_walk(const rstate *g, int h, int k)
{
	const nsc_region *r = g->r;
	if (k == h)
		return true;
	if (k == CH || r->s[k].kind != NSC_S_LOAD)
		return false;
	const nsc_stream *sk = &r->s[k];
	int64_t esz = (int64_t)nsc_type_size(g->e->p->arrays[sk->arr].type);
	if (h == CH) {
		int64_t off = g->off[k] < 0 ? -g->off[k] : g->off[k];
		return sk->addr == NSC_A_POINTER && sk->arr == r->chase_arr && off < (int64_t)NSC_LINE / esz;
	}
	const nsc_stream *sh = &r->s[h];
	if (sk->addr != NSC_A_AFFINE || sh->addr != NSC_A_AFFINE || sk->arr != sh->arr)
		return false;
	for (int d = 0; d < r->ndims; d++)
		if (g->co[k][d] != g->co[h][d])
			return false;
	int64_t dc = g->c0[k] - g->c0[h];
	return (dc < 0 ? -dc : dc) < (int64_t)NSC_LINE / esz;
}

/* A floated affine or pointer reduction is folded into the stream it
 * reduces (doc/STREAMS.md, "Folded reductions"): when every stream its
 * term reads is floated and walks one load stream's records (same_walk),
 * that stream (the lowest-numbered one read, or the chase when the term
 * reads the chased pointer) is its host; the reduction then has no
 * configuration, migrations, credits, done or end messages of its own:
 * its partial travels with the host and comes back once at the end. */
void eng_fold_reductions(rstate *g)
{
	const nsc_region *r = g->r;
	const nsc_program *p = g->e->p;
	for (int s = 0; s < r->nstreams; s++) {
		const nsc_stream *st = &r->s[s];
		g->host[s] = -1;
		if (st->kind != NSC_S_REDUCE || !g->fl[s] || g->key[s] >= 0)
			continue;
		int h = nsc_expr_uses(p, st->val, NSC_E_STREAM, CH) ? CH : -1;
		for (int k = 0; k < r->nstreams && h < 0; k++)
			if (nsc_expr_uses(p, st->val, NSC_E_STREAM, k))
				h = k;
		if (h < 0 || (h < CH && r->s[h].kind != NSC_S_LOAD) || !g->fl[h])
			continue;
		bool ok = true;
		for (int k = 0; k <= CH && ok; k++)
			if (nsc_expr_uses(p, st->val, NSC_E_STREAM, k))
				ok = (k == CH || k < r->nstreams) && g->fl[k] && same_walk(g, h, k);
		if (!ok)
			continue;
		g->host[s] = h;
		g->nfold[h]++;
	}
}

/* Run-ahead only when no floated load reads what the region writes
 * (§IV-B: aliasing streams are not run ahead of the core). */
static unsigned window(const rstate *g)
{
	const nsc_region *r = g->r;
	if (r->ndims == 0 && (!g->fl[CH] || nsc_region_writes(r, r->chase_arr)))
		return 0;
	bool any = r->ndims == 0;
	for (int s = 0; s < r->nstreams; s++)
		if (r->s[s].kind == NSC_S_LOAD && g->fl[s]) {
			if (nsc_region_writes(r, r->s[s].arr))
				return 0;
			any = true;
		}
	unsigned w = g->e->s->window;
	return any ? (w > 1024 ? 1024 : w) : 0;
}

static void finish_reductions(rstate *g)
{
	nsc_eng *e = g->e;
	const nsc_region *r = g->r;
	for (int s = 0; s < r->nstreams; s++) {
		const nsc_stream *st = &r->s[s];
		if (st->kind != NSC_S_REDUCE)
			continue;
		nsc_val acc = g->acc[s];
		for (unsigned b = 0; b < NSC_BANKS; b++) {
			if (!g->has_part[s][b])
				continue;
			acc = nsc_val_reduce(st->rop, acc, g->part[s][b], st->rtype);
			if (g->fl[s]) {
				e->st->partials++;
				nsc_send(e->st, NSC_M_DATA, NSC_C_DATA, NSC_HDR + 8, b, eng_core_tile(g));
			}
		}
		int h = g->host[s];
		if (g->fl[s] && h >= 0 && g->placed[h])   /* folded: once, from the host's last bank */
			nsc_send(e->st, NSC_M_DATA, NSC_C_DATA, NSC_HDR + 8, g->bank[h], eng_core_tile(g));
		else if (g->fl[s] && g->key[s] < 0 && g->placed[s])
			nsc_send(e->st, NSC_M_DATA, NSC_C_DATA, NSC_HDR + 8, g->bank[s], eng_core_tile(g));
		e->slots[st->slot] = acc;
	}
}

static void finish(rstate *g, bool ends)
{
	nsc_eng *e = g->e;
	for (int s = 0; s <= CH; s++) {
		if (ends && g->fl[s] && g->placed[s])
			nsc_send(e->st, NSC_M_END, NSC_C_OFFLOAD, NSC_HDR, eng_core_tile(g), g->bank[s]);
		if (s < g->r->nstreams || s == CH) {
			nsc_hist *h = &e->hist[g->ri][s];
			if (!g->fl[s] && g->acc_n[s]) {
				h->seen = true;
				h->acc = g->acc_n[s];
				h->miss = g->miss_n[s];
			}
		}
	}
	finish_reductions(g);
}

/* One s_step: iteration g->it issued (run-ahead) and committed, and the
 * block's messages every R iterations.  1 stepped, 0 the region has no
 * more iterations (a chase ended), -1. */
int nsc_region_step(rstate *g)
{
	unsigned R = g->e->s->range_iters ? g->e->s->range_iters : 1;
	if (g->over || g->it >= g->n) {
		g->over = true;
		return 0;
	}
	uint64_t it = g->it;
	while (g->w && g->issued < it + 1 + g->w && g->issued < g->n) {
		int k = eng_issue(g, g->issued);
		if (k < 0)
			return -1;
		if (k)
			break;
	}
	int k = eng_commit(g, it);
	if (k < 0)
		return -1;
	if (k) {
		g->over = true;
		return 0;
	}
	g->it++;
	if (++g->block == R) {
		eng_sync_block(g, g->block);
		g->block = 0;
	}
	return 1;
}

/* s_cfg: the configuration, the floating decision and the window. */
rstate *nsc_region_begin(nsc_eng *e, const nsc_region *r, int ri)
{
	rstate *g = calloc(1, sizeof *g);
	if (!g) {
		diag_file(e->d, e->p->file, "out of memory");
		return NULL;
	}
	g->e = e;
	g->r = r;
	g->ri = ri;
	/* nested (nest.c): e->nest_trips > 0, the loop's trips left */
	nsc_nest *nn = e->nest_trips ? &e->nest[ri] : NULL;
	if (nn && nn->open)
		e->outer = ri;   /* the outer stream reads the configuration's elements */
	const int crc = configure(g);
	e->outer = -1;
	if (crc < 0) {
		e->st->regions++;
		free(g);
		return NULL;
	}
	nsc_float_decide(e, r, ri, g->n, nn ? e->nest_trips : 1, g->fl);
	if (nn && nn->open) {
		/* a stream of the nest stays floated; one the history now
		 * floats joins it (configured from the core) */
		for (int s = 0; s <= CH; s++)
			g->fl[s] |= nn->fl[s];
		memcpy(nn->fl, g->fl, sizeof nn->fl);
	} else {
		bool any = false;
		for (int s = 0; s <= CH; s++)
			any |= g->fl[s];
		if (nn && any) {   /* the nest's first floated instance configures it */
			memset(nn, 0, sizeof *nn);
			nn->open = true;
			memcpy(nn->fl, g->fl, sizeof nn->fl);
		}
	}
	if (nn && nn->open) {
		g->nested = true;
		memcpy(g->placed, nn->placed, sizeof g->placed);
		memcpy(g->bank, nn->bank, sizeof g->bank);
		memcpy(g->inst, nn->placed, sizeof g->inst);
		g->block = nn->block;
	}
	eng_fold_reductions(g);
	for (int s = 0; s <= CH; s++) {
		e->st->streams_floated += g->fl[s];
		e->st->streams_core += !g->fl[s] && (s < r->nstreams || (s == CH && !r->ndims));
	}
	g->w = window(g);
	g->ring = calloc(g->w + 1, sizeof *g->ring);
	if (!g->ring) {
		diag_file(e->d, e->p->file, "out of memory");
		nsc_region_free(g);
		return NULL;
	}
	return g;
}

/* s_end: the last block's messages, end messages, reductions' results. */
void nsc_region_end(rstate *g)
{
	nsc_eng *e = g->e;
	nsc_nest *nn = g->nested ? &e->nest[g->ri] : NULL;
	if (nn && g->aborted) {
		/* the alias sent the instance's end messages; the outer stream's
		 * follow, and the next instance is configured afresh */
		memset(nn->placed, 0, sizeof nn->placed);
		nsc_nest_close(e, g->ri);
		nn = NULL;
	}
	if (nn) {
		/* an instance of an open nest: its streams stay configured, the
		 * block of R iterations goes on into the next instance */
		eng_flush_values(g);
		nn->block = g->block;
		memcpy(nn->placed, g->placed, sizeof nn->placed);
		memcpy(nn->bank, g->bank, sizeof nn->bank);
		memcpy(nn->off, g->off, sizeof nn->off);
		nn->has_src = false;
		finish(g, false);
		return;
	}
	if (g->block)
		eng_sync_block(g, g->block);
	g->block = 0;
	/* "Streams with known length can be silently released in SE_L3
	 * (after committing all work)" (NSC §IV-B): only a chase, whose
	 * length the data decides, is ended by a message */
	finish(g, g->r->ndims == 0);
}

/* A region that ended or failed: counted, freed. */
void nsc_region_free(rstate *g)
{
	if (!g)
		return;
	g->e->st->regions++;
	free(g->ring);
	free(g);
}
