/* SPDX-License-Identifier: MIT */
/*
 * engine.h: the state of a region on the stream engines, shared by
 * engine.c (issue: loads, the chase, routes) and commit.c (commit,
 * aliases, reductions, the region's life).
 */
#ifndef INFSIM_NSC_ENGINE_H
#define INFSIM_NSC_ENGINE_H

#include "nsc_int.h"

#define CH NSC_MAX_STREAMS   /* the chased pointer's slot */

typedef struct rec {
	nsc_val v[CH + 1];       /* load values; [CH]: the pointer p */
	uint64_t pa[CH + 1];     /* element addresses; [CH]: the node */
	int64_t idx[CH + 1];     /* element indices (a reduction: its term's iteration) */
	bool done[CH + 1];
	bool end_after;          /* chase: `until` held at this node */
} rec;

typedef struct pending {
	unsigned from, to;
	nsc_class cls;
	uint64_t bytes;
} pending;

typedef struct rstate {
	nsc_eng *e;
	const nsc_region *r;
	int ri;
	bool fl[CH + 1];
	int64_t c0[CH], co[CH][NSC_MAX_DIMS], off[CH], len[NSC_MAX_DIMS];
	unsigned bank[CH + 1];
	bool placed[CH + 1];
	uint64_t n;              /* iterations (chase: UINT64_MAX until it ends) */
	unsigned w;              /* run-ahead window */
	rec *ring;
	uint64_t issued;
	int64_t next_p, from_p, last_p;
	bool chase_end;
	nsc_val acc[CH], part[CH][NSC_BANKS];
	bool has_part[CH][NSC_BANKS];
	int key[CH];             /* reduce: its indirect stream (per-bank partials), -1 */
	int host[CH];            /* reduce: the load stream (or CH, the chase) it is folded into, -1 */
	unsigned nfold[CH + 1];  /* reductions folded into each stream (their partials migrate with it) */
	uint64_t acc_n[CH + 1], miss_n[CH + 1];
	pending pend[CH + 1];    /* values on their way, this block */
	bool used[CH + 1];       /* a load's value is used by another stream */
	uint64_t it, block;      /* the next iteration to commit; iterations since a sync */
	bool over;               /* no more iterations (a chase ended) */
	bool nested;             /* an instance of an open nest (nest.c) */
	bool inst[CH + 1];       /* nested: placed by an earlier instance, its instance message not sent yet */
	bool aborted;            /* an alias ended the offload */
	rec last;                /* the last committed iteration (infsdb, session.c) */
	bool has_last;
} rstate;

rec *eng_slot(rstate *g, uint64_t it);
unsigned eng_core_tile(const rstate *g);
uint64_t eng_pa_of(const rstate *g, int arr, int64_t i);
void eng_place(rstate *g, int s, unsigned b);
/* The folding of floated reductions into the stream they reduce (region_run.c). */
void eng_fold_reductions(rstate *g);
void eng_core_touch(rstate *g, int s, uint64_t pa, bool write);
void eng_ctx_of(const rstate *g, uint64_t it, const rec *rc, nsc_ctx *c);
int eng_eval_at(rstate *g, int x, const nsc_ctx *c, bool bank, nsc_val *out);
void eng_route(rstate *g, int s, const rec *rc, uint64_t pa);
int eng_elem_pa(rstate *g, int s, int arr, const nsc_ctx *c, int64_t *idx, uint64_t *pa);
void eng_operands(rstate *g, int x, rec *rc, bool at_bank, unsigned to);
void eng_flush_values(rstate *g);
int eng_load_elem(rstate *g, int s, uint64_t it, rec *rc);
int eng_chase_elem(rstate *g, uint64_t it, rec *rc);
/* Issue iteration it at the banks: 0, 1 when a chase has ended, -1. */
int eng_issue(rstate *g, uint64_t it);

/* commit.c: commit iteration it (0, 1 when a chase ended, -1); the
 * messages of a block of k iterations. */
int eng_commit(rstate *g, uint64_t it);
void eng_sync_block(rstate *g, uint64_t k);

#endif
