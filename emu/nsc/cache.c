/* SPDX-License-Identifier: MIT */
/*
 * cache.c: the core's private cache as the floating decision sees it
 * (near-stream-computing §IV-B): 16-way set associative like Table V's
 * L2 (fully associative below 16 lines), LRU, 64 B lines, write-back.  It also gives the traffic of accesses the core makes
 * itself: a miss fetches a line from its L3 bank, a dirty eviction
 * writes one back.
 */
#include <stdlib.h>
#include <string.h>

#include "nsc_int.h"

int nsc_cache_init(nsc_cache *c, unsigned bytes, diag *d)
{
	c->lines = bytes / NSC_LINE ? bytes / NSC_LINE : 1;
	c->clock = 0;
	c->tag = calloc(c->lines, sizeof *c->tag);
	c->age = calloc(c->lines, sizeof *c->age);
	c->dirty = calloc(c->lines, sizeof *c->dirty);
	if (!c->tag || !c->age || !c->dirty) {
		nsc_cache_free(c);
		diag_file(d, "nsc", "out of memory for a private cache of %u bytes", bytes);
		return -1;
	}
	return 0;
}

void nsc_cache_free(nsc_cache *c)
{
	free(c->tag);
	free(c->age);
	free(c->dirty);
	c->tag = c->age = NULL;
	c->dirty = NULL;
}

int nsc_cache_copy(nsc_cache *dst, const nsc_cache *src, diag *d)
{
	if (nsc_cache_init(dst, src->lines * NSC_LINE, d) < 0)
		return -1;
	memcpy(dst->tag, src->tag, src->lines * sizeof *dst->tag);
	memcpy(dst->age, src->age, src->lines * sizeof *dst->age);
	memcpy(dst->dirty, src->dirty, src->lines * sizeof *dst->dirty);
	dst->clock = src->clock;
	return 0;
}

int nsc_cache_access(nsc_cache *c, uint64_t pa, bool write, uint64_t *evicted)
{
	uint64_t t = pa / NSC_LINE + 1;
	unsigned ways = c->lines < 16 ? c->lines : 16, sets = c->lines / ways;
	unsigned lo = (unsigned)((t - 1) % sets) * ways, victim = lo;
	*evicted = UINT64_MAX;
	c->clock++;
	for (unsigned i = lo; i < lo + ways; i++) {
		if (c->tag[i] == t) {
			c->age[i] = c->clock;
			c->dirty[i] |= write;
			return 1;
		}
		if (c->age[i] < c->age[victim])
			victim = i;
	}
	if (c->tag[victim] && c->dirty[victim])
		*evicted = (c->tag[victim] - 1) * NSC_LINE;
	c->tag[victim] = t;
	c->age[victim] = c->clock;
	c->dirty[victim] = write;
	return 0;
}

void nsc_cache_invalidate(nsc_cache *c, uint64_t pa)
{
	uint64_t t = pa / NSC_LINE + 1;
	for (unsigned i = 0; i < c->lines; i++)
		if (c->tag[i] == t) {
			c->tag[i] = 0;
			c->age[i] = 0;
			c->dirty[i] = false;
		}
}
