/* SPDX-License-Identifier: MIT */
/*
 * flows.c: flows as the host controllers see them (§IV-E).  A flow is
 * identified by its target's address (the flow ID of §IV-A is a hash of
 * it; keeping the address itself makes distinct targets distinct flows).
 * One round of a flow runs from its first Update to its commit; the
 * controllers note which roots got Updates, send a Gather request into
 * each of those trees when the barrier closes, merge the trees' partials
 * in ascending root order and write the target.
 */
#include <stdlib.h>
#include <string.h>

#include "engine_types.h"

static size_t slot_of(uint64_t target, size_t cap)
{
	uint64_t h = target * 0x9e3779b97f4a7c15ull;
	return (size_t)(h >> 20) & (cap - 1);
}

int ar_flow_find(ar_sim *s, uint64_t target)
{
	if (!s->fmap_cap)
		return -1;
	for (size_t i = slot_of(target, s->fmap_cap);; i = (i + 1) & (s->fmap_cap - 1)) {
		uint32_t v = s->fmap[i];
		if (!v)
			return -1;
		if (s->flow[v - 1].target == target && s->flow[v - 1].used)
			return (int)v - 1;
	}
}

static void map_put(uint32_t *map, size_t cap, uint64_t target, uint32_t v)
{
	size_t i = slot_of(target, cap);
	while (map[i])
		i = (i + 1) & (cap - 1);
	map[i] = v;
}

static int map_rebuild(ar_sim *s, size_t cap)
{
	uint32_t *m = calloc(cap, sizeof *m);
	if (!m)
		return -1;
	size_t used = 0;
	for (size_t f = 0; f < s->nflow; f++)
		if (s->flow[f].used) {
			map_put(m, cap, s->flow[f].target, (uint32_t)f + 1);
			used++;
		}
	free(s->fmap);
	s->fmap = m;
	s->fmap_cap = cap;
	s->fmap_used = used;
	return 0;
}

int ar_flow_new(ar_sim *s, uint64_t target)
{
	uint32_t f;
	if (s->flow_free) {
		f = s->flow_free - 1;
		s->flow_free = s->flow[f].next_free;
	} else {
		if (s->nflow == s->cap_flow) {
			size_t cap = s->cap_flow ? 2 * s->cap_flow : 64;
			ar_flow *n = realloc(s->flow, cap * sizeof *n);
			if (!n)
				return -1;
			s->flow = n;
			s->cap_flow = cap;
		}
		f = (uint32_t)s->nflow++;
	}
	memset(&s->flow[f], 0, sizeof s->flow[f]);
	s->flow[f].used = true;
	s->flow[f].target = target;
	/* deleted flows leave their slots taken until the next rebuild */
	if (2 * (s->fmap_used + 1) > s->fmap_cap &&
	    map_rebuild(s, s->fmap_cap ? (4 * (s->nflow + 1) > s->fmap_cap ? 2 * s->fmap_cap
								       : s->fmap_cap) : 256))
		return -1;
	map_put(s->fmap, s->fmap_cap, target, f + 1);
	s->fmap_used++;
	return (int)f;
}

void ar_flow_delete(ar_sim *s, int f)
{
	s->flow[f].used = false;
	s->flow[f].next_free = s->flow_free;
	s->flow_free = (uint32_t)f + 1;
}

/* The barrier closed: one Gather request into the root of every tree
 * this round built (§III-B Gather phase). */
void ar_flow_start_gather(ar_sim *s, int f)
{
	ar_flow *fl = &s->flow[f];
	fl->gathering = true;
	for (int h = 0; h < AR_HOSTS; h++) {
		if (!(fl->roots & (1u << h)))
			continue;
		fl->pending++;
		ar_event g = { .kind = EV_GREQ, .cube = (int8_t)ar_host_cube(s->c, (unsigned)h),
			       .from = -1, .a = (uint32_t)f, .b = (uint32_t)h };
		ar_sim_count(s, AR_PK_GREQ, ar_pk_bytes(AR_PK_GREQ, 0), 0, true);
		int at = ar_host_cube(s->c, (unsigned)h);
		ar_sim_send(s, g, s->now, h, at, at, -1, ar_pk_bytes(AR_PK_GREQ, 0));
	}
}

/* A tree's root answered.  When all have, merge them in ascending root
 * order and send the commit to the target's cube. */
void ar_flow_tree_done(ar_sim *s, const ar_event *ev)
{
	ar_flow *fl = &s->flow[ev->a];
	fl->tree_has[ev->b] = ev->has;
	fl->tree_val[ev->b] = ev->value;
	fl->tree_cnt[ev->b] = ev->count;
	if (--fl->pending)
		return;
	bool has = false;
	uint64_t v = 0, cnt = 0;
	for (int h = 0; h < AR_HOSTS; h++) {
		if (!(fl->roots & (1u << h)))
			continue;
		cnt += fl->tree_cnt[h];
		if (!fl->tree_has[h])
			continue;
		v = has ? ar_alu_combine(fl->op, fl->type, v, fl->tree_val[h]) : fl->tree_val[h];
		has = true;
	}
	if (cnt != fl->issued || !has) {
		char name[96];
		ar_addr_name(s->p, fl->target, name, sizeof name);
		diag_file(s->d, s->p->path, "internal error: flow %s gathered %llu Updates of %llu",
			  name, (unsigned long long)cnt, (unsigned long long)fl->issued);
		s->failed = true;
		return;
	}
	int cube = ar_cube_of(s->c, fl->target);
	int hi = ar_nearest_host(s->c, cube);
	int host = ar_host_cube(s->c, (unsigned)hi);
	unsigned hops = ar_hops(s->c, host, cube);
	ar_sim_count(s, AR_PK_COMMIT, ar_pk_bytes(AR_PK_COMMIT, 16), hops, true);
	ar_event c = { .kind = EV_COMMIT, .cube = (int8_t)cube, .a = ev->a, .value = v };
	ar_sim_send(s, c, s->now, hi, host, cube, -1, ar_pk_bytes(AR_PK_COMMIT, 16));
}

/* The commit reaches the target's vault: target = old (+) result. */
void ar_flow_commit(ar_sim *s, const ar_event *ev)
{
	ar_flow *fl = &s->flow[ev->a];
	unsigned es = ar_type_size(fl->type);
	uint64_t old = ar_mem_read(s->p, fl->target, es);
	ar_mem_write(s->p, fl->target, es, ar_alu_commit(fl->op, fl->type, old, ev->value), fl->first,
		     true);
	s->st->commits++;
	ar_host_committed(s->host, fl->target);
	ar_flow_delete(s, (int)ev->a);
	ar_sim_kick_host(s);
}
