/* SPDX-License-Identifier: MIT */
/*
 * nest.c: nested stream configurations (near-stream-computing §III-A,
 * Fig 4d: "The inner loop streams' configuration and trip count must only
 * depend on outer stream or loop-invariant data. Each outer stream
 * iteration instantiates a new inner loop stream. A conditional inner
 * loop can also be nested, as long as the condition purely depends on
 * outer streams"; Fig 8).  The nesting is read from the program as
 * written: a `streams` region (affine or a chase) inside a `for` loop is nested in it
 * when everything its configuration reads (trip counts, indices, offsets,
 * computations' invariants, reductions' starts) and every `if` between the
 * loop and the region is computed from the loop's variable, scalars the
 * loop does not assign, constants and array elements (the outer stream),
 * through `let`s of the loop's body that nothing but the nest reads.
 * The meaning does not change (the statements still run in order); the
 * engines configure the nest once and start each later instance at the
 * banks (doc/STREAMS.md, "Nested streams").
 */
#include <stdlib.h>
#include <string.h>

#include "engine.h"

typedef struct nest_scan {
	const nsc_program *p;
	int f, r;            /* the FOR and the region's statement */
	bool *assigned;      /* slots the loop's body assigns */
	int *let_of;         /* slot -> the let on the region's path, -1 */
	bool *use;           /* lets the nest reads */
	int depth;
} nest_scan;

/* Is expression x computed from what a nest may read? */
static bool nest_expr(nest_scan *n, int x)
{
	if (x < 0)
		return true;
	const nsc_expr *ex = &n->p->ex[x];
	if (ex->op == NSC_E_VAR) {
		const int sl = ex->ref;
		if (sl == n->p->st[n->f].slot || !n->assigned[sl])
			return true;
		const int l = n->let_of[sl];
		if (l < 0 || n->depth > 64)
			return false;
		if (n->use[l])
			return true;
		n->depth++;
		bool ok = nest_expr(n, n->p->st[l].e1);
		n->depth--;
		n->use[l] = ok;
		return ok;
	}
	return nest_expr(n, ex->a) && nest_expr(n, ex->b) && nest_expr(n, ex->c);
}

/* Does statement i read slot sl (its own expressions, or a region's)? */
static bool stmt_reads(const nsc_program *p, int i, int sl)
{
	const nsc_stmt *s = &p->st[i];
	if (s->kind == NSC_ST_STREAMS) {
		const nsc_region *r = &p->rg[s->ref];
		for (int d = 0; d < r->ndims; d++)
			if (nsc_expr_uses(p, r->dim_len[d], NSC_E_VAR, sl))
				return true;
		if (r->ndims == 0 && (nsc_expr_uses(p, r->chase_from, NSC_E_VAR, sl) ||
				      nsc_expr_uses(p, r->chase_next, NSC_E_VAR, sl) ||
				      nsc_expr_uses(p, r->chase_until, NSC_E_VAR, sl)))
			return true;
		for (int k = 0; k < r->nstreams; k++)
			if (nsc_expr_uses(p, r->s[k].idx, NSC_E_VAR, sl) || nsc_expr_uses(p, r->s[k].val, NSC_E_VAR, sl) ||
			    nsc_expr_uses(p, r->s[k].init, NSC_E_VAR, sl))
				return true;
		return false;
	}
	return nsc_expr_uses(p, s->e1, NSC_E_VAR, sl) || nsc_expr_uses(p, s->e2, NSC_E_VAR, sl);
}

/* Region statement r nested in FOR f?  On success the nest's lets and
 * guards are marked in nest_stmt (a statement already another nest's
 * refuses this one). */
static bool nest_one(const nsc_program *p, int f, int r, int *nest_stmt, bool *assigned, int *let_of, bool *use)
{
	const nsc_region *rg = &p->rg[p->st[r].ref];
	const int fend = p->st[f].end;
	memset(assigned, 0, (size_t)p->nslots * sizeof *assigned);
	for (int sl = 0; sl < p->nslots; sl++)
		let_of[sl] = -1;
	memset(use, 0, (size_t)p->nst * sizeof *use);
	for (int i = f + 1; i < fend; i++) {
		const nsc_stmt *s = &p->st[i];
		if (s->kind == NSC_ST_LET || s->kind == NSC_ST_FOR) {
			if (assigned[s->slot])
				let_of[s->slot] = -2;   /* assigned twice: not a nest's let */
			assigned[s->slot] = true;
		} else if (s->kind == NSC_ST_STREAMS) {
			const nsc_region *q = &p->rg[s->ref];
			for (int k = 0; k < q->nstreams; k++)
				if (q->s[k].kind == NSC_S_REDUCE) {
					assigned[q->s[k].slot] = true;
					let_of[q->s[k].slot] = -2;
				}
		}
	}
	/* the lets on the region's path: every if around them in the loop's
	 * body is around the region too; and the guards */
	for (int i = f + 1; i < r; i++) {
		const nsc_stmt *s = &p->st[i];
		if (s->kind == NSC_ST_FOR && s->end > r)
			return false;   /* an inner loop around the region: nested in that one */
		if (s->kind != NSC_ST_LET || let_of[s->slot] == -2)
			continue;
		bool on_path = true;
		for (int j = f + 1; j < i && on_path; j++)
			if ((p->st[j].kind == NSC_ST_IF || p->st[j].kind == NSC_ST_FOR) && p->st[j].end > i)
				on_path = p->st[j].end > r;
		if (on_path)
			let_of[s->slot] = i;
	}
	for (int sl = 0; sl < p->nslots; sl++)
		if (let_of[sl] == -2)
			let_of[sl] = -1;
	nest_scan n = { p, f, r, assigned, let_of, use, 0 };
	bool ok = true;
	for (int d = 0; d < rg->ndims && ok; d++)
		ok = nest_expr(&n, rg->dim_len[d]);
	if (rg->ndims == 0)
		ok = nest_expr(&n, rg->chase_from) && nest_expr(&n, rg->chase_next) && nest_expr(&n, rg->chase_until);
	for (int k = 0; k < rg->nstreams && ok; k++)
		ok = nest_expr(&n, rg->s[k].idx) && nest_expr(&n, rg->s[k].val) && nest_expr(&n, rg->s[k].init);
	for (int i = f + 1; i < r && ok; i++)
		if (p->st[i].kind == NSC_ST_IF && p->st[i].end > r) {
			ok = nest_expr(&n, p->st[i].e1);
			use[i] = ok;
		}
	if (!ok)
		return false;
	/* a let of the nest is read by nothing but the nest */
	for (int l = f + 1; l < r; l++) {
		if (!use[l] || p->st[l].kind != NSC_ST_LET)
			continue;
		for (int i = 0; i < p->nst; i++)
			if (i != r && !use[i] && stmt_reads(p, i, p->st[l].slot))
				return false;
	}
	for (int i = f + 1; i < r; i++)
		if (use[i] && nest_stmt[i] >= 0)
			return false;
	for (int i = f + 1; i < r; i++)
		if (use[i])
			nest_stmt[i] = p->st[r].ref;
	return true;
}

void nsc_nest_find(const nsc_program *p, int *nest_for, int *nest_stmt)
{
	for (int i = 0; i < p->nrg; i++)
		nest_for[i] = -1;
	for (int i = 0; i < p->nst; i++)
		nest_stmt[i] = -1;
	bool *assigned = calloc((size_t)p->nslots + 1, sizeof *assigned);
	int *let_of = calloc((size_t)p->nslots + 1, sizeof *let_of);
	bool *use = calloc((size_t)p->nst + 1, sizeof *use);
	if (assigned && let_of && use)
		for (int r = 0; r < p->nst; r++) {
			const nsc_stmt *s = &p->st[r];
			if (s->kind != NSC_ST_STREAMS)
				continue;
			int f = -1;
			for (int i = r - 1; i >= 0 && f < 0; i--)
				if (p->st[i].kind == NSC_ST_FOR && p->st[i].end > r)
					f = i;
			if (f >= 0 && nest_one(p, f, r, nest_stmt, assigned, let_of, use))
				nest_for[s->ref] = f;
		}
	free(assigned);
	free(let_of);
	free(use);
}

static void sync_one(nsc_eng *e, unsigned bank, uint64_t k)
{
	const unsigned core = e->s->core_tile;
	nsc_send(e->st, NSC_M_CREDIT, NSC_C_OFFLOAD, NSC_HDR, core, bank);
	nsc_send(e->st, NSC_M_DONE, NSC_C_OFFLOAD, NSC_HDR, bank, core);
	e->st->credits += k;
	e->st->dones += k;
}

/* A core load of an open nest: an element of its outer stream, read at
 * its bank (configured there the first time, migrating as it moves),
 * credits and done every R elements. */
void nsc_nest_outer_access(nsc_eng *e, int ri, int arr, uint64_t pa)
{
	nsc_nest *n = &e->nest[ri];
	const unsigned b = nsc_bank_of(pa, e->s->interleave), R = e->s->range_iters ? e->s->range_iters : 1;
	int k = 0;
	while (k < n->nouter && n->oarr[k] != arr)
		k++;
	if (k == n->nouter && k < NSC_MAX_STREAMS) {
		n->oarr[k] = arr;
		n->oblock[k] = 0;
		n->nouter++;
		nsc_send(e->st, NSC_M_CONFIG, NSC_C_OFFLOAD, 64, e->s->core_tile, b);
	} else if (k == n->nouter) {
		k--;   /* more arrays than a stream table: the last one's stream */
	} else if (n->obank[k] != b) {
		nsc_send(e->st, NSC_M_MIGRATE, NSC_C_OFFLOAD, 32, n->obank[k], b);
	}
	n->obank[k] = b;
	e->st->elems_bank++;
	e->st->bank_elems[b]++;
	n->has_src = true;
	n->src = b;
	if (++n->oblock[k] == R) {
		sync_one(e, b, R);
		n->oblock[k] = 0;
	}
}

static void flush_predicates(nsc_eng *e, nsc_nest *n)
{
	if (n->preds)
		nsc_send(e->st, NSC_M_DATA, NSC_C_DATA, NSC_HDR + (unsigned)n->preds, n->pred_bank, e->s->core_tile);
	n->preds = 0;
}

/* A guard of an open nest, evaluated by the outer stream: its predicate
 * goes to the core (its loop steps by it), a byte each, packed R at a time. */
void nsc_nest_predicate(nsc_eng *e, int ri)
{
	nsc_nest *n = &e->nest[ri];
	const unsigned R = e->s->range_iters ? e->s->range_iters : 1;
	if (n->preds && n->has_src && n->pred_bank != n->src)
		flush_predicates(e, n);
	n->pred_bank = n->has_src ? n->src : e->s->core_tile;
	if (++n->preds == R)
		flush_predicates(e, n);
}

/* The loop around an open nest exits: the last block's credits and done,
 * commits and ranges.  Its streams, inner and outer, have known lengths
 * and are released at their banks with no end message (NSC §IV-B). */
void nsc_nest_close(nsc_eng *e, int ri)
{
	nsc_nest *n = &e->nest[ri];
	if (!n->open)
		return;
	const nsc_region *r = &e->p->rg[ri];
	const unsigned core = e->s->core_tile;
	for (int s = 0; s <= NSC_MAX_STREAMS; s++) {
		if (!n->fl[s] || !n->placed[s] || (s < NSC_MAX_STREAMS && s >= r->nstreams))
			continue;
		const nsc_stream *st = s < NSC_MAX_STREAMS ? &r->s[s] : NULL;
		if (n->block) {
			sync_one(e, n->bank[s], n->block);
			if (!e->s->sync_free && st && st->kind != NSC_S_LOAD && st->kind != NSC_S_REDUCE) {
				nsc_send(e->st, NSC_M_COMMIT, NSC_C_OFFLOAD, NSC_HDR, core, n->bank[s]);
				e->st->commits += n->block;
			}
			if (!e->s->sync_free && (!st || (st->kind == NSC_S_LOAD && st->addr != NSC_A_AFFINE)))
				nsc_send(e->st, NSC_M_RANGE, NSC_C_OFFLOAD, NSC_HDR + 16, n->bank[s], core);
		}
	}
	for (int k = 0; k < n->nouter; k++)
		if (n->oblock[k])
			sync_one(e, n->obank[k], n->oblock[k]);
	flush_predicates(e, n);
	memset(n, 0, sizeof *n);
}
