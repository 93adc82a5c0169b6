/* SPDX-License-Identifier: MIT */
/*
 * wait.c: the packets waiting at one cube's Active-Routing Engine, one
 * first-in first-out queue per flow tree (are.c says why a tree's
 * requests keep their order).
 *
 * A wake pass retries the waiting packets in arrival order, each tree
 * behind its own earlier ones: once a tree's oldest packet fails, the
 * rest of that tree waits for the next pass.  Kept as one list, a pass
 * visited every waiting packet, so a cube with thousands of Updates of
 * one tree behind a full flow table spent time quadratic in the Updates
 * (the fuzzing regression tests/fuzz/regress/ar/).  Here a pass visits
 * the head of each tree's queue, merged in arrival order through a
 * binary heap: its cost is the trees waiting plus the packets processed,
 * each times log(trees).  Packets of no tree (assignments) never hold
 * each other back; they share queue 0, which a pass walks in full.
 *
 * The order of the tries is exactly that of one list walked in arrival
 * order, so runs and their statistics are those of the simple scheme.
 */
#include <stdlib.h>
#include <string.h>

#include "engine_types.h"

enum { FREE_QUEUE = 0 };

static size_t hash_slot(int64_t key, size_t cap)
{
	return (size_t)(((uint64_t)key * 0x9e3779b97f4a7c15ull) >> 32) & (cap - 1);
}

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return 0;
	size_t c = *cap ? *cap : 16;
	while (c < need)
		c *= 2;
	void *n = realloc(*p, c * size);
	if (!n)
		return -1;
	*p = n;
	*cap = c;
	return 0;
}

static int rehash(ar_waiting *w, size_t cap)
{
	uint32_t *map = calloc(cap, sizeof *map);
	if (!map)
		return -1;
	for (size_t i = 1; i < w->nq; i++) {
		size_t h = hash_slot(w->q[i].key, cap);
		while (map[h])
			h = (h + 1) & (cap - 1);
		map[h] = (uint32_t)i + 1;
	}
	free(w->map);
	w->map = map;
	w->cap_map = cap;
	return 0;
}

/* The queue of a tree (key >= 0) or the free queue; -1 when absent. */
static long find_queue(const ar_waiting *w, int64_t key)
{
	if (key < 0)
		return w->nq ? FREE_QUEUE : -1;
	if (!w->cap_map)
		return -1;
	for (size_t h = hash_slot(key, w->cap_map); w->map[h]; h = (h + 1) & (w->cap_map - 1))
		if (w->q[w->map[h] - 1].key == key)
			return (long)w->map[h] - 1;
	return -1;
}

static long add_queue(ar_waiting *w, int64_t key)
{
	if (!w->nq && key >= 0 && add_queue(w, -1) < 0)
		return -1;
	if (grow((void **)&w->q, &w->cap_q, w->nq + 1, sizeof *w->q))
		return -1;
	if (4 * (w->nq + 1) > 3 * w->cap_map && rehash(w, w->cap_map ? 2 * w->cap_map : 64))
		return -1;
	w->q[w->nq] = (ar_waitq){ .key = key };
	if (key >= 0) {
		size_t h = hash_slot(key, w->cap_map);
		while (w->map[h])
			h = (h + 1) & (w->cap_map - 1);
		w->map[h] = (uint32_t)w->nq + 1;
	}
	return (long)w->nq++;
}

static int activate(ar_waiting *w, size_t qi)
{
	ar_waitq *q = &w->q[qi];
	if (q->active)
		return 0;
	if (grow((void **)&w->act, &w->cap_act, w->nact + 1, sizeof *w->act))
		return -1;
	q->active = true;
	w->act[w->nact++] = (uint32_t)qi;
	return 0;
}

int ar_wait_push(ar_waiting *w, int64_t key, const ar_event *ev)
{
	long qi = find_queue(w, key);
	if (qi < 0 && (qi = add_queue(w, key < 0 ? -1 : key)) < 0)
		return -1;
	ar_waitq *q = &w->q[qi];
	if (grow((void **)&q->w, &q->cap, q->n + 1, sizeof *q->w) || activate(w, (size_t)qi))
		return -1;
	q->w[q->n++] = (ar_wait){ .ev = *ev, .order = w->arrivals++ };
	w->n++;
	return 0;
}

bool ar_wait_has(const ar_waiting *w, int64_t key)
{
	if (key < 0)
		return false;
	long qi = find_queue(w, key);
	return qi >= 0 && w->q[qi].first < w->q[qi].n;
}

/* ---- a pass: a binary heap of queue heads, oldest first ---- */

static uint64_t head_order(const ar_waiting *w, uint32_t qi)
{
	const ar_waitq *q = &w->q[qi];
	return q->w[qi == FREE_QUEUE ? q->rd : q->first].order;
}

static void heap_push(ar_waiting *w, uint32_t qi)
{
	size_t i = w->nheap++;
	uint64_t o = head_order(w, qi);
	while (i && head_order(w, w->heap[(i - 1) / 2]) > o) {
		w->heap[i] = w->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	w->heap[i] = qi;
}

static uint32_t heap_pop(ar_waiting *w)
{
	uint32_t top = w->heap[0], last = w->heap[--w->nheap];
	size_t i = 0, n = w->nheap;
	uint64_t o = n ? head_order(w, last) : 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && head_order(w, w->heap[c + 1]) < head_order(w, w->heap[c]))
			c++;
		if (head_order(w, w->heap[c]) >= o)
			break;
		w->heap[i] = w->heap[c];
		i = c;
	}
	if (n)
		w->heap[i] = last;
	return top;
}

int ar_wait_begin(ar_waiting *w)
{
	w->nheap = 0;
	if (grow((void **)&w->heap, &w->cap_heap, w->nact, sizeof *w->heap))
		return -1;
	for (size_t i = 0; i < w->nact; i++) {
		ar_waitq *q = &w->q[w->act[i]];
		if (w->act[i] == FREE_QUEUE)
			q->rd = q->keep = q->first;
		heap_push(w, w->act[i]);
	}
	return 0;
}

ar_event *ar_wait_next(ar_waiting *w)
{
	if (!w->nheap)
		return NULL;
	w->cur = heap_pop(w);
	ar_waitq *q = &w->q[w->cur];
	return &q->w[w->cur == FREE_QUEUE ? q->rd : q->first].ev;
}

void ar_wait_done(ar_waiting *w, bool processed)
{
	ar_waitq *q = &w->q[w->cur];
	if (processed)
		w->n--;
	if (w->cur != FREE_QUEUE) {
		if (processed && ++q->first < q->n)
			heap_push(w, w->cur);
		return;   /* a failure holds the rest of its tree back */
	}
	if (!processed)
		q->w[q->keep++] = q->w[q->rd];
	if (++q->rd < q->n)
		heap_push(w, w->cur);
}

/* Close a pass (also one cut short): the free queue keeps what it kept
 * and what it did not reach; emptied queues leave the active list. */
void ar_wait_end(ar_waiting *w)
{
	if (w->nq && w->q[FREE_QUEUE].active) {
		ar_waitq *q = &w->q[FREE_QUEUE];
		memmove(q->w + q->keep, q->w + q->rd, (q->n - q->rd) * sizeof *q->w);
		q->n = q->keep + (q->n - q->rd);
		q->rd = q->keep = q->first;
	}
	w->nheap = 0;
	for (size_t i = 0; i < w->nact;) {
		ar_waitq *q = &w->q[w->act[i]];
		if (q->first < q->n) {
			if (q->first > 64 && 2 * q->first > q->n) {
				memmove(q->w, q->w + q->first, (q->n - q->first) * sizeof *q->w);
				q->n -= q->first;
				q->first = 0;
			}
			i++;
			continue;
		}
		q->first = q->n = 0;
		q->active = false;
		w->act[i] = w->act[--w->nact];
	}
}

const ar_event *ar_wait_oldest(const ar_waiting *w, bool (*want)(const ar_event *))
{
	const ar_wait *best = NULL;
	for (size_t i = 0; i < w->nact; i++) {
		const ar_waitq *q = &w->q[w->act[i]];
		for (size_t k = q->first; k < q->n; k++)
			if (want(&q->w[k].ev) && (!best || q->w[k].order < best->order))
				best = &q->w[k];
	}
	return best ? &best->ev : NULL;
}

void ar_wait_free(ar_waiting *w)
{
	for (size_t i = 0; i < w->nq; i++)
		free(w->q[i].w);
	free(w->q);
	free(w->map);
	free(w->act);
	free(w->heap);
	memset(w, 0, sizeof *w);
}

/* A copy of n elements of size bytes (NULL for none); false out of memory. */
static bool dup_elems(void **out, const void *in, size_t n, size_t size)
{
	*out = NULL;
	if (!n)
		return true;
	*out = malloc(n * size);
	if (*out)
		memcpy(*out, in, n * size);
	return *out != NULL;
}

/* Between events (never inside a pass): the pass's heap is empty. */
int ar_wait_copy(ar_waiting *out, const ar_waiting *w)
{
	*out = *w;
	out->q = NULL;
	out->map = out->act = out->heap = NULL;
	out->nq = out->cap_q = out->cap_map = out->nact = out->cap_act = 0;
	out->nheap = out->cap_heap = 0;
	if (w->nq && !(out->q = calloc(w->nq, sizeof *out->q)))
		return -1;
	for (size_t i = 0; i < w->nq; i++) {
		out->q[i] = w->q[i];
		out->q[i].w = NULL;
		out->q[i].cap = 0;
		out->nq = out->cap_q = i + 1;
		if (!dup_elems((void **)&out->q[i].w, w->q[i].w, w->q[i].n, sizeof *w->q[i].w))
			goto fail;
		out->q[i].cap = w->q[i].n;
	}
	if (!dup_elems((void **)&out->map, w->map, w->cap_map, sizeof *w->map))
		goto fail;
	out->cap_map = w->cap_map;
	if (!dup_elems((void **)&out->act, w->act, w->nact, sizeof *w->act))
		goto fail;
	out->nact = out->cap_act = w->nact;
	return 0;
fail:
	ar_wait_free(out);
	return -1;
}
