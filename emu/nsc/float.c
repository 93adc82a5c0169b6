/* SPDX-License-Identifier: MIT */
/*
 * float.c: the floating decision of near-stream-computing §IV-B
 * ("Stream Configure") and §IV-C: a stream goes to the banks at once when
 * its footprint is larger than the private cache; otherwise it first runs
 * at the core, and a later instance floats if its miss rate there was at
 * least one half (high miss rate, no reuse).  A load that reads what its
 * own region writes (an alias) stays at the core; an indirect stream
 * floats only with its base; an indirect reduction only when it is longer
 * than 4 x banks (§IV-C).  A setting forces every stream to the core or
 * to the banks.
 */
#include "nsc_int.h"

bool nsc_region_writes(const nsc_region *r, int a)
{
	for (int s = 0; s < r->nstreams; s++)
		if (r->s[s].kind != NSC_S_LOAD && r->s[s].kind != NSC_S_REDUCE && r->s[s].arr == a)
			return true;
	return false;
}

/* Lines an affine stream touches in n iterations: its pattern's span,
 * one line per element when its elements are a line or more apart. */
static uint64_t footprint_lines(const nsc_program *p, const nsc_stream *s, uint64_t n)
{
	if (s->arr < 0)
		return 0;
	const nsc_array *a = &p->arrays[s->arr];
	uint64_t bytes = n * nsc_type_size(a->type), arr_lines = (a->count * nsc_type_size(a->type) + NSC_LINE - 1) / NSC_LINE;
	uint64_t lines = (bytes + NSC_LINE - 1) / NSC_LINE;
	return lines < arr_lines ? lines : arr_lines;
}

static bool by_history(const nsc_hist *h)
{
	return h->seen && h->acc && 2 * h->miss >= h->acc;
}

static uint64_t array_lines(const nsc_program *p, int a)
{
	return a < 0 ? 0 : (p->arrays[a].count * nsc_type_size(p->arrays[a].type) + NSC_LINE - 1) / NSC_LINE;
}

static bool decide_one(nsc_eng *e, const nsc_region *r, int ri, int s, uint64_t n, uint64_t trips, const bool *fl)
{
	const nsc_stream *st = &r->s[s];
	nsc_hist *h = &e->hist[ri][s];
	/* An indirect or pointer stream may touch all of its array; an affine
	 * one its pattern, summed over the instances of a region nested in a
	 * core loop (the nest is one stream to the engines, Fig 8): a nested
	 * region's instances to come, n x trips iterations, or those so far. */
	const uint64_t all_its = trips > 1 && n > UINT64_MAX / trips ? UINT64_MAX : n * trips;
	uint64_t lines = st->addr == NSC_A_AFFINE ? footprint_lines(e->p, st, n) : array_lines(e->p, st->arr);
	if (st->addr == NSC_A_AFFINE) {
		h->lines += lines;
		const uint64_t cnt = e->p->arrays[st->arr].count;
		const uint64_t nest = footprint_lines(e->p, st, all_its < cnt ? all_its : cnt);
		lines = h->lines > nest ? h->lines : nest;
		lines = lines < array_lines(e->p, st->arr) ? lines : array_lines(e->p, st->arr);
	}
	bool big = lines * NSC_LINE > e->s->cache_bytes;
	bool fits = big || by_history(h);
	switch (st->kind) {
	case NSC_S_REDUCE: {
		bool all = true, indirect = false;
		for (int k = 0; k < r->nstreams; k++)
			if (nsc_expr_uses(e->p, st->val, NSC_E_STREAM, k)) {
				all &= fl[k];
				indirect |= r->s[k].addr == NSC_A_INDIRECT;
			}
		if (nsc_expr_uses(e->p, st->val, NSC_E_STREAM, NSC_MAX_STREAMS))
			all &= fl[NSC_MAX_STREAMS];
		return all && (!indirect || all_its > 4 * NSC_BANKS);
	}
	case NSC_S_LOAD:
		if (nsc_region_writes(r, st->arr))
			return false;
		/* a load computing on a stream at the core stays there: issued
		 * ahead at a bank it would compute before the core has the value */
		for (int k = 0; k < r->nstreams; k++)
			if (nsc_expr_uses(e->p, st->val, NSC_E_STREAM, k) && !fl[k])
				return false;
		if (nsc_expr_uses(e->p, st->val, NSC_E_STREAM, NSC_MAX_STREAMS) && !fl[NSC_MAX_STREAMS])
			return false;
		break;
	default:
		break;
	}
	if (st->addr == NSC_A_INDIRECT)
		return fl[st->base] && fits;
	if (st->addr == NSC_A_POINTER)
		return fl[NSC_MAX_STREAMS];
	return fits;
}

void nsc_float_decide(nsc_eng *e, const nsc_region *r, int ri, uint64_t n, uint64_t trips, bool *fl)
{
	const nsc_float_mode m = e->s->floating;
	for (int s = 0; s <= NSC_MAX_STREAMS; s++)
		fl[s] = false;
	if (m == NSC_FLOAT_CORE)
		return;
	if (r->ndims == 0)
		fl[NSC_MAX_STREAMS] = m == NSC_FLOAT_BANK || by_history(&e->hist[ri][NSC_MAX_STREAMS]);
	for (int s = 0; s < r->nstreams; s++) {
		const nsc_stream *st = &r->s[s];
		if (m == NSC_FLOAT_BANK)
			fl[s] = st->addr != NSC_A_POINTER || fl[NSC_MAX_STREAMS];
		else
			fl[s] = decide_one(e, r, ri, s, n, trips ? trips : 1, fl);
	}
}
