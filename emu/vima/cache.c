/* SPDX-License-Identifier: MIT */
/*
 * cache.c: VIMA's vector cache (§III-D, Table I): 64 KB as 8 lines of
 * one vector each, fully associative, LRU, write-back.  A result is
 * written as a whole line from the fill buffer, so a write never reads
 * the line from DRAM first (no read-modify-write).  Every move of a line
 * to or from DRAM is 128 sub-requests (dram.c).
 */
#include <string.h>

#include "vima_int.h"

int vima_cache_find(const vima_unit *u, uint64_t tag)
{
	for (unsigned i = 0; i < u->nlines; i++)
		if (u->lines[i].valid && u->lines[i].tag == tag)
			return (int)i;
	return -1;
}

static void touch(vima_unit *u, vima_line *l)
{
	l->used = ++u->clock;
}

/* Write a dirty line to DRAM; count why. */
static void write_back(vima_unit *u, vima_line *l, uint64_t *why)
{
	if (!l->valid || !l->dirty)
		return;
	memcpy(u->mem + l->tag, l->data, u->vbytes);
	vima_cache_energy(u);
	vima_dram_line(u, l->tag, true);
	u->st.writebacks++;
	(*why)++;
	l->dirty = false;
}

/* An invalid line, else the least recently used one, written back. */
static vima_line *victim(vima_unit *u)
{
	vima_line *v = &u->lines[0];
	for (unsigned i = 0; i < u->nlines; i++) {
		vima_line *l = &u->lines[i];
		if (!l->valid)
			return l;
		if (l->used < v->used)
			v = l;
	}
	write_back(u, v, &u->st.wb_evict);
	v->valid = false;
	return v;
}

vima_line *vima_cache_read(vima_unit *u, uint64_t tag)
{
	int i = vima_cache_find(u, tag);
	if (i >= 0) {
		u->st.read_hits++;
		vima_cache_energy(u);
		touch(u, &u->lines[i]);
		return &u->lines[i];
	}
	u->st.read_misses++;
	vima_line *l = victim(u);
	memcpy(l->data, u->mem + tag, u->vbytes);
	vima_dram_line(u, tag, false);
	vima_cache_energy(u);
	*l = (vima_line){ .valid = true, .dirty = false, .tag = tag, .data = l->data };
	touch(u, l);
	return l;
}

void vima_cache_commit(vima_unit *u, uint64_t tag)
{
	int i = vima_cache_find(u, tag);
	vima_line *l;
	if (i >= 0) {
		u->st.write_hits++;
		l = &u->lines[i];
	} else {
		u->st.write_misses++;
		l = victim(u);
	}
	uint8_t *old = l->data;
	*l = (vima_line){ .valid = true, .dirty = true, .tag = tag, .data = u->fill };
	u->fill = old;
	vima_cache_energy(u);
	touch(u, l);
}

void vima_cache_writeback(vima_unit *u, vima_line *l, uint64_t *why)
{
	write_back(u, l, why);
}

void vima_cache_flush(vima_unit *u)
{
	for (unsigned i = 0; i < u->nlines; i++)
		write_back(u, &u->lines[i], &u->st.wb_flush);
}
