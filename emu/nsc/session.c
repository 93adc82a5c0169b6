/* SPDX-License-Identifier: MIT */
/*
 * session.c: a .nsc program run one step at a time: the core's
 * statements walked with a program counter and a stack of loops, and
 * each `streams` region handed to the engines as s_cfg, one s_step per
 * iteration and s_end (near-stream-computing §III-A: the stream ISA's
 * configure, step and end).  nsc_run is this walk stepped to its end, so
 * infsdb and `infsim nsc` run the same engines.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"

typedef struct loop {
	int at;          /* the FOR statement */
	int64_t i, n;
} loop;

struct nsc_session {
	nsc_eng e;
	int pc;          /* the next statement; p->nst at the end */
	loop *loops;
	int nloops;
	rstate *g;       /* the region in progress */
	bool failed;
};

nsc_session *nsc_session_new(const nsc_program *p, nsc_mem *m, const nsc_settings *s, nsc_stats *st, diag *d)
{
	memset(st, 0, sizeof *st);
	diag_clear(d);
	nsc_session *ss = calloc(1, sizeof *ss);
	if (ss) {
		ss->e = (nsc_eng){ .p = p, .m = m, .s = s, .st = st, .d = d };
		ss->e.max_iters = s->max_iters ? s->max_iters : (uint64_t)1 << 32;
		ss->e.slots = calloc((size_t)p->nslots + 1, sizeof *ss->e.slots);
		ss->e.hist = calloc((size_t)p->nrg + 1, sizeof *ss->e.hist);
		ss->loops = calloc((size_t)p->nst + 1, sizeof *ss->loops);
		ss->e.nest_for = calloc((size_t)p->nrg + 1, sizeof *ss->e.nest_for);
		ss->e.nest_stmt = calloc((size_t)p->nst + 1, sizeof *ss->e.nest_stmt);
		ss->e.nest = calloc((size_t)p->nrg + 1, sizeof *ss->e.nest);
		ss->e.outer = -1;
	}
	if (!ss || !ss->e.slots || !ss->e.hist || !ss->loops || !ss->e.nest_for || !ss->e.nest_stmt || !ss->e.nest) {
		diag_file(d, p->file, "out of memory");
		nsc_session_free(ss);
		return NULL;
	}
	if (nsc_cache_init(&ss->e.cache, s->cache_bytes, d) < 0) {
		nsc_session_free(ss);
		return NULL;
	}
	for (int i = 0; i < p->nslots; i++)
		ss->e.slots[i] = nsc_val_int(0);
	nsc_nest_find(p, ss->e.nest_for, ss->e.nest_stmt);
	if (s->no_nest)
		for (int i = 0; i < p->nrg; i++)
			ss->e.nest_for[i] = -1;
	return ss;
}

void nsc_session_free(nsc_session *ss)
{
	if (!ss)
		return;
	if (ss->g)
		nsc_region_free(ss->g);
	nsc_cache_free(&ss->e.cache);
	free(ss->e.slots);
	free(ss->e.hist);
	free(ss->e.nest_for);
	free(ss->e.nest_stmt);
	free(ss->e.nest);
	free(ss->loops);
	free(ss);
}

void nsc_session_track(nsc_session *ss, uint64_t *const *writer)
{
	ss->e.writer = writer;
}

/* The region in progress copied for the engines e (its ring too). */
static rstate *region_copy(const rstate *g, nsc_eng *e)
{
	rstate *c = malloc(sizeof *c);
	rec *ring = malloc((g->w + 1) * sizeof *ring);
	if (!c || !ring) {
		free(c);
		free(ring);
		return NULL;
	}
	*c = *g;
	memcpy(ring, g->ring, (g->w + 1) * sizeof *ring);
	c->ring = ring;
	c->e = e;
	return c;
}

nsc_session *nsc_session_copy(const nsc_session *ss, nsc_mem *m, nsc_stats *st, diag *d)
{
	const nsc_program *p = ss->e.p;
	nsc_session *c = calloc(1, sizeof *c);
	if (!c) {
		diag_file(d, p->file, "out of memory");
		return NULL;
	}
	*c = *ss;
	c->e.m = m;
	c->e.st = st;
	c->e.d = d;
	c->e.writer = NULL;
	c->e.cache = (nsc_cache){ 0 };
	c->e.slots = malloc(((size_t)p->nslots + 1) * sizeof *c->e.slots);
	c->e.hist = malloc(((size_t)p->nrg + 1) * sizeof *c->e.hist);
	c->loops = malloc(((size_t)p->nst + 1) * sizeof *c->loops);
	c->e.nest_for = malloc(((size_t)p->nrg + 1) * sizeof *c->e.nest_for);
	c->e.nest_stmt = malloc(((size_t)p->nst + 1) * sizeof *c->e.nest_stmt);
	c->e.nest = malloc(((size_t)p->nrg + 1) * sizeof *c->e.nest);
	c->g = ss->g ? region_copy(ss->g, &c->e) : NULL;
	if (!c->e.slots || !c->e.hist || !c->loops || !c->e.nest_for || !c->e.nest_stmt || !c->e.nest ||
	    (ss->g && !c->g)) {
		diag_file(d, p->file, "out of memory");
		goto fail;
	}
	memcpy(c->e.slots, ss->e.slots, ((size_t)p->nslots + 1) * sizeof *c->e.slots);
	memcpy(c->e.hist, ss->e.hist, ((size_t)p->nrg + 1) * sizeof *c->e.hist);
	memcpy(c->loops, ss->loops, ((size_t)p->nst + 1) * sizeof *c->loops);
	memcpy(c->e.nest_for, ss->e.nest_for, ((size_t)p->nrg + 1) * sizeof *c->e.nest_for);
	memcpy(c->e.nest_stmt, ss->e.nest_stmt, ((size_t)p->nst + 1) * sizeof *c->e.nest_stmt);
	memcpy(c->e.nest, ss->e.nest, ((size_t)p->nrg + 1) * sizeof *c->e.nest);
	if (nsc_cache_copy(&c->e.cache, &ss->e.cache, d) < 0)
		goto fail;
	return c;
fail:
	if (c->g) {   /* freed uncounted: the copy never ran it */
		free(c->g->ring);
		free(c->g);
		c->g = NULL;
	}
	nsc_session_free(c);
	return NULL;
}

/* A for's start: its trip count, then its body or past its end. */
static int stmt_for(nsc_session *ss, const nsc_stmt *s)
{
	nsc_eng *e = &ss->e;
	nsc_ctx c = { .chase_arr = -1 };
	int64_t n;
	if (nsc_eval_int(e, s->e1, &c, &n) < 0)
		return -1;
	if (n > 0 && (uint64_t)n > e->max_iters) {
		diag_at(e->d, e->p->file, s->line, s->col, "a loop of %" PRId64 " trips passes the bound of %" PRIu64,
			n, e->max_iters);
		return -1;
	}
	if (n <= 0) {
		ss->pc = s->end + 1;
		return 0;
	}
	if (nsc_work_charge(e->s, &e->work, (uint64_t)n, e->p->file, s->line, s->col, e->d) < 0)
		return -1;
	ss->loops[ss->nloops++] = (loop){ ss->pc, 0, n };
	e->slots[s->slot] = nsc_val_int(0);
	ss->pc++;
	return 0;
}

/* Past `end`s: a loop's next trip or its exit, an if's end. */
static void pass_ends(nsc_session *ss)
{
	const nsc_program *p = ss->e.p;
	while (ss->pc < p->nst && p->st[ss->pc].kind == NSC_ST_END) {
		const nsc_stmt *open = &p->st[p->st[ss->pc].end];
		loop *l = ss->nloops ? &ss->loops[ss->nloops - 1] : NULL;
		if (open->kind == NSC_ST_FOR && l && l->at == p->st[ss->pc].end && ++l->i < l->n) {
			ss->e.slots[open->slot] = nsc_val_int(l->i);
			ss->pc = l->at + 1;
			return;
		}
		if (open->kind == NSC_ST_FOR && l) {
			for (int r = 0; r < p->nrg; r++)   /* the nests in this loop end with it */
				if (ss->e.nest_for[r] == l->at)
					nsc_nest_close(&ss->e, r);
			ss->nloops--;
		}
		ss->pc++;
	}
}

/* A core statement, or a region's s_cfg. */
static int stmt_step(nsc_session *ss, nsc_step *out)
{
	nsc_eng *e = &ss->e;
	const nsc_stmt *s = &e->p->st[ss->pc];
	nsc_ctx c = { .chase_arr = -1 };
	nsc_val v;
	*out = (nsc_step){ NSC_EV_STMT, ss->pc, -1, 0, s->line };
	/* a let or guard of an open nest: the outer stream reads its elements */
	const int nest = e->nest_stmt[ss->pc];
	const int outer = nest >= 0 && e->nest_for[nest] >= 0 && e->nest[nest].open ? nest : -1;
	int rc;
	switch (s->kind) {
	case NSC_ST_LET:
		e->outer = outer;
		rc = nsc_eval(e, s->e1, &c, &v);
		e->outer = -1;
		if (rc < 0)
			return -1;
		e->slots[s->slot] = v;
		ss->pc++;
		return 0;
	case NSC_ST_STORE:
		if (nsc_core_store(e, s) < 0)
			return -1;
		ss->pc++;
		return 0;
	case NSC_ST_FOR:
		return stmt_for(ss, s);
	case NSC_ST_IF:
		e->outer = outer;
		rc = nsc_eval(e, s->e1, &c, &v);
		e->outer = -1;
		if (rc < 0)
			return -1;
		if (outer >= 0)
			nsc_nest_predicate(e, outer);
		ss->pc = nsc_val_true(v) ? ss->pc + 1 : s->end + 1;
		return 0;
	case NSC_ST_STREAMS:
		out->ev = NSC_EV_CONFIG;
		out->region = s->ref;
		e->nest_trips = 0;
		for (int k = ss->nloops - 1; k >= 0 && e->nest_for[s->ref] >= 0; k--)
			if (ss->loops[k].at == e->nest_for[s->ref]) {
				e->nest_trips = (uint64_t)(ss->loops[k].n - ss->loops[k].i);
				break;
			}
		ss->g = nsc_region_begin(e, &e->p->rg[s->ref], s->ref);
		e->nest_trips = 0;
		return ss->g ? 0 : -1;
	case NSC_ST_END:
		break;
	}
	ss->pc++;
	return 0;
}

/* The region in progress: one s_step, or its s_end. */
static int region_step(nsc_session *ss, nsc_step *out)
{
	rstate *g = ss->g;
	*out = (nsc_step){ NSC_EV_ITER, ss->pc, g->ri, g->it, ss->e.p->st[ss->pc].line };
	int rc = nsc_region_step(g);
	if (rc != 0)
		return rc < 0 ? -1 : 0;
	out->ev = NSC_EV_END;
	out->iter = g->it;
	nsc_region_end(g);
	nsc_region_free(g);
	ss->g = NULL;
	ss->pc++;
	return 0;
}

int nsc_session_step(nsc_session *ss, nsc_step *out)
{
	if (ss->failed)
		return -1;
	if (!ss->g)
		pass_ends(ss);
	if (!ss->g && ss->pc >= ss->e.p->nst)
		return 0;
	nsc_step dummy;
	out = out ? out : &dummy;
	int rc = ss->g ? region_step(ss, out) : stmt_step(ss, out);
	if (rc < 0) {
		ss->failed = true;
		return -1;
	}
	if (!ss->g)
		pass_ends(ss);
	return 1;
}

bool nsc_session_ended(const nsc_session *ss)
{
	return !ss->g && ss->pc >= ss->e.p->nst;
}

uint64_t nsc_session_iters(const nsc_session *ss)
{
	return ss->e.giter;
}

int nsc_session_pc(const nsc_session *ss)
{
	return nsc_session_ended(ss) ? -1 : ss->pc;
}

nsc_val nsc_session_slot(const nsc_session *ss, int slot)
{
	return slot >= 0 && slot < ss->e.p->nslots ? ss->e.slots[slot] : nsc_val_int(0);
}

void nsc_session_set_slot(nsc_session *ss, int slot, nsc_val v)
{
	if (slot >= 0 && slot < ss->e.p->nslots)
		ss->e.slots[slot] = v;
}

bool nsc_session_region(const nsc_session *ss, int *region, uint64_t *next, uint64_t *n)
{
	if (!ss->g)
		return false;
	*region = ss->g->ri;
	*next = ss->g->it;
	*n = ss->g->n;
	return true;
}

/* A reduction's result if it ended now: the folds of §IV-C in bank order. */
static nsc_val reduce_so_far(const rstate *g, int k, unsigned *parts)
{
	const nsc_stream *st = &g->r->s[k];
	nsc_val acc = g->acc[k];
	*parts = 0;
	for (unsigned b = 0; b < NSC_BANKS; b++)
		if (g->has_part[k][b]) {
			acc = nsc_val_reduce(st->rop, acc, g->part[k][b], st->rtype);
			(*parts)++;
		}
	return acc;
}

bool nsc_session_stream(const nsc_session *ss, int k, nsc_stream_state *out)
{
	const rstate *g = ss->g;
	if (!g || k < 0 || k > g->r->nstreams || (k == g->r->nstreams && g->r->ndims))
		return false;
	int slot = k == g->r->nstreams ? CH : k;
	memset(out, 0, sizeof *out);
	out->s = slot == CH ? NULL : &g->r->s[k];
	out->arr = slot == CH ? g->r->chase_arr : g->r->s[k].arr;
	out->floated = g->fl[slot];
	out->placed = g->placed[slot];
	out->bank = g->bank[slot];
	out->has_elem = g->has_last;
	out->elem = g->last.idx[slot];
	out->elem_bank = nsc_bank_of(g->last.pa[slot], g->e->s->interleave);
	out->value = g->last.v[slot];
	if (out->s && out->s->kind == NSC_S_REDUCE) {
		out->value = reduce_so_far(g, k, &out->partials);
		int h = g->host[k] >= 0 ? g->host[k] : slot;   /* folded: where its host is */
		out->placed = g->key[k] < 0 && g->placed[h];
		out->bank = g->bank[h];
		out->elem_bank = g->bank[h];
	}
	bool issues = slot == CH || g->r->s[k].kind == NSC_S_LOAD;
	out->ahead = issues && g->fl[slot] && g->issued > g->it ? g->issued - g->it : 0;
	out->pending_bytes = g->pend[slot].bytes;
	out->pending_from = g->pend[slot].from;
	out->pending_to = g->pend[slot].to;
	out->pending_class = g->pend[slot].cls;
	return true;
}

int nsc_run(const nsc_program *p, nsc_mem *m, const nsc_settings *s, nsc_stats *st, diag *d)
{
	nsc_session *ss = nsc_session_new(p, m, s, st, d);
	if (!ss)
		return -1;
	int rc;
	while ((rc = nsc_session_step(ss, NULL)) > 0)
		;
	nsc_session_free(ss);
	return rc;
}
