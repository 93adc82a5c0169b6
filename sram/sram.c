/* SPDX-License-Identifier: MIT */
/*
 * sram.c: compute SRAM storage, addressing and geometry.
 * The micro-op executor is in sram_exec.c.
 */
#include "sram.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "mem.h"

/* Rows a way holds besides its wordlines: 5 latch rows (carry, tag,
 * enable, bl, blb) and 5 for the executor (a zero row, 4 temporaries). */
#define WAY_EXTRA_ROWS 10

static bool is_pow2_in(unsigned v, unsigned lo, unsigned hi)
{
	return v >= lo && v <= hi && (v & (v - 1)) == 0;
}

sram_geom sram_geom_default(void)
{
	/* infinity-stream Table 2: 64 banks on an 8x8 mesh, 16 compute ways
	 * per bank, 16 arrays per way, 256x256 arrays. */
	sram_geom g = {
		.wordlines = 256, .bitlines = 256, .arrays_per_way = 16,
		.ways_per_bank = 16, .mesh_x = 8, .mesh_y = 8,
	};
	return g;
}

const char *sram_geom_check(const sram_geom *g)
{
	if (!is_pow2_in(g->wordlines, SRAM_MIN_DIM, SRAM_MAX_DIM))
		return "wordlines must be a power of two from 8 to 1024";
	if (!is_pow2_in(g->bitlines, SRAM_MIN_DIM, SRAM_MAX_DIM))
		return "bitlines must be a power of two from 8 to 1024";
	if (g->arrays_per_way < 1 || g->arrays_per_way > 4096)
		return "arrays per way must be from 1 to 4096";
	if (g->ways_per_bank < 1 || g->ways_per_bank > 64)
		return "ways per bank must be from 1 to 64";
	if (g->mesh_x < 1 || g->mesh_x > 64 || g->mesh_y < 1 || g->mesh_y > 64)
		return "each mesh dimension must be from 1 to 64";
	if (g->fp_ieee > 1)
		return "fp must be ftz (0) or ieee (1)";
	if (g->latency_opt > 1)
		return "latency must be baseline (0) or optimised (1)";
	if (g->cordic_iters > 60)
		return "cordic (the CORDIC iterations k) must be from 1 to 60";
	/* Keep every array index in 32 bits and the store under 64 GiB. */
	uint64_t arrays = (uint64_t)g->arrays_per_way * g->ways_per_bank *
			  g->mesh_x * g->mesh_y;
	if (arrays > (1u << 24))
		return "the machine has more than 16777216 arrays";
	if (sram_geom_bytes(g) > (UINT64_C(64) << 30))
		return "the machine has more than 64 GiB of compute SRAM";
	return NULL;
}

uint64_t sram_geom_bitlines(const sram_geom *g)
{
	return (uint64_t)g->bitlines * g->arrays_per_way * g->ways_per_bank *
	       g->mesh_x * g->mesh_y;
}

uint64_t sram_geom_bytes(const sram_geom *g)
{
	return sram_geom_bitlines(g) * g->wordlines / 8;
}

uint64_t sram_host_bytes(const sram_geom *g)
{
	const uint64_t wpa = (g->bitlines + 63) / 64;
	const uint64_t ways = (uint64_t)g->mesh_x * g->mesh_y * g->ways_per_bank;
	return ways * g->arrays_per_way * wpa * (g->wordlines + WAY_EXTRA_ROWS) * 8;
}

sram_machine *sram_new(const sram_geom *g)
{
	if (sram_geom_check(g)) {
		errno = EINVAL;
		return NULL;
	}
	sram_machine *m = calloc(1, sizeof *m);
	if (!m)
		return NULL;
	m->g = *g;
	m->wpa = (g->bitlines + 63) / 64;
	m->stride = g->arrays_per_way * m->wpa;
	m->nbanks = g->mesh_x * g->mesh_y;
	m->nways = m->nbanks * g->ways_per_bank;
	m->narrays = m->nways * g->arrays_per_way;
	m->tail = g->bitlines >= 64 ? ~UINT64_C(0)
				    : (UINT64_C(1) << g->bitlines) - 1;
	/* Per way: the rows, then carry, tag, enable, bl, blb, then rows
	 * that belong to the executor (sram_exec.c, struct layout): one that
	 * stays zero and four temporaries. */
	size_t per_way = (size_t)m->stride * (g->wordlines + WAY_EXTRA_ROWS);
	m->ways = calloc(m->nways, sizeof *m->ways);
	/* The store comes from the kernel as untouched zero pages: a page costs
	 * memory and time only once the program writes it, so a program that
	 * uses a few arrays of a 128 MiB machine pays for those arrays alone
	 * (doc/PERFORMANCE.md).  Pages are 64-byte aligned, as every way's rows
	 * must be. */
	size_t bytes = per_way * m->nways * sizeof(uint64_t);
	void *store = m->ways ? mmap(NULL, bytes, PROT_READ | PROT_WRITE,
				     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
			      : MAP_FAILED;
	if (store == MAP_FAILED) {
		free(m->ways);
		free(m);
		errno = ENOMEM;
		return NULL;
	}
	m->store = store;
	m->store_bytes = bytes;
	m->pages = malloc(sizeof *m->pages);
	if (!m->pages || mem_pages_init(m->pages, store, bytes) < 0) {
		free(m->pages);
		munmap(store, bytes);
		free(m->ways);
		free(m);
		errno = ENOMEM;
		return NULL;
	}
	for (unsigned w = 0; w < m->nways; w++) {
		uint64_t *p = m->store + per_way * w;
		sram_way *way = &m->ways[w];
		way->rows = p;
		p += (size_t)m->stride * g->wordlines;
		way->carry = p; p += m->stride;
		way->tag = p; p += m->stride;
		way->enable = p; p += m->stride;
		way->bl = p; p += m->stride;
		way->blb = p;
		way->last_dst = SRAM_NO_ROW;
	}
	return m;
}

void sram_free(sram_machine *m)
{
	if (!m)
		return;
	munmap(m->store, m->store_bytes);
	mem_pages_free(m->pages);
	free(m->pages);
	free(m->ways);
	free(m);
}

void sram_prefault(sram_machine *m, const uint64_t *p, size_t nwords)
{
	mem_pages_take(m->pages, p, nwords * sizeof *p);
}

void sram_prefault_rows(sram_machine *m, unsigned array, unsigned wl, unsigned nwl)
{
	if (array >= m->narrays || wl >= m->g.wordlines)
		return;
	if (nwl > m->g.wordlines - wl)
		nwl = m->g.wordlines - wl;
	const sram_way *w = &m->ways[array / m->g.arrays_per_way];
	sram_prefault(m, w->rows + (size_t)wl * m->stride, (size_t)nwl * m->stride);
}

void sram_copy_state(sram_machine *dst, const sram_machine *src)
{
	size_t per_way = (size_t)src->stride * (src->g.wordlines + WAY_EXTRA_ROWS);
	memcpy(dst->store, src->store, per_way * src->nways * sizeof(uint64_t));
	for (unsigned w = 0; w < src->nways; w++) {
		sram_way *d = &dst->ways[w];
		const sram_way *s = &src->ways[w];
		memcpy(d->last_act, s->last_act, sizeof d->last_act);
		d->last_nact = s->last_nact;
		d->last_set = s->last_set;
		d->last_dst = s->last_dst;
	}
}

bool sram_state_equal(const sram_machine *a, const sram_machine *b)
{
	const size_t rows = (size_t)a->stride * a->g.wordlines * sizeof(uint64_t);
	const size_t lat = (size_t)a->stride * sizeof(uint64_t);
	if (memcmp(&a->g, &b->g, sizeof a->g) != 0)
		return false;
	for (unsigned w = 0; w < a->nways; w++) {
		const sram_way *x = &a->ways[w], *y = &b->ways[w];
		if (memcmp(x->rows, y->rows, rows) || memcmp(x->carry, y->carry, lat) ||
		    memcmp(x->tag, y->tag, lat) || memcmp(x->enable, y->enable, lat) ||
		    memcmp(x->bl, y->bl, lat) || memcmp(x->blb, y->blb, lat))
			return false;
	}
	return true;
}

bool sram_uop_activates(const sram_uop *u, unsigned wl)
{
	if (u->set)
		return wl >= u->act[0] && wl - u->act[0] < 64 &&
		       ((u->set >> (wl - u->act[0])) & 1);
	for (unsigned i = 0; i < u->nact && i < SRAM_MAX_ACT; i++)
		if (u->act[i] == wl)
			return true;
	return false;
}

bool sram_way_activated(const sram_way *w, unsigned wl)
{
	sram_uop u = {.nact = w->last_nact, .set = w->last_set};
	memcpy(u.act, w->last_act, sizeof u.act);
	return sram_uop_activates(&u, wl);
}

uint64_t *sram_row(sram_machine *m, unsigned array, unsigned wl)
{
	sram_way *w = sram_way_of(m, array);
	return w->rows + (size_t)wl * m->stride + sram_word_of(m, array);
}

uint64_t *sram_latch_words(sram_machine *m, unsigned array, enum sram_latch l)
{
	sram_way *w = sram_way_of(m, array);
	uint64_t *base = NULL;
	switch (l) {
	case SRAM_CARRY: base = w->carry; break;
	case SRAM_TAG: base = w->tag; break;
	case SRAM_ENABLE: base = w->enable; break;
	case SRAM_BL: base = w->bl; break;
	case SRAM_BLB: base = w->blb; break;
	}
	return base + sram_word_of(m, array);
}

bool sram_get_bit(const sram_machine *m, unsigned array, unsigned wl, unsigned bl)
{
	const uint64_t *r = sram_row((sram_machine *)m, array, wl);
	return (r[bl / 64] >> (bl % 64)) & 1;
}

static void put_bit(uint64_t *w, unsigned bl, bool v)
{
	uint64_t bit = UINT64_C(1) << (bl % 64);
	if (v)
		w[bl / 64] |= bit;
	else
		w[bl / 64] &= ~bit;
}

void sram_set_bit(sram_machine *m, unsigned array, unsigned wl, unsigned bl, bool v)
{
	put_bit(sram_row(m, array, wl), bl, v);
}

bool sram_get_latch(const sram_machine *m, unsigned array, enum sram_latch l,
		    unsigned bl)
{
	const uint64_t *w = sram_latch_words((sram_machine *)m, array, l);
	return (w[bl / 64] >> (bl % 64)) & 1;
}

void sram_set_latch(sram_machine *m, unsigned array, enum sram_latch l,
		    unsigned bl, bool v)
{
	put_bit(sram_latch_words(m, array, l), bl, v);
}

void sram_enable_clear(sram_machine *m)
{
	for (unsigned w = 0; w < m->nways; w++)
		memset(m->ways[w].enable, 0, m->stride * sizeof(uint64_t));
}

void sram_enable_set(sram_machine *m, unsigned array, unsigned bl, bool on)
{
	sram_set_latch(m, array, SRAM_ENABLE, bl, on);
}

void sram_enable_all(sram_machine *m, unsigned array)
{
	uint64_t *e = sram_latch_words(m, array, SRAM_ENABLE);
	for (unsigned k = 0; k + 1 < m->wpa; k++)
		e[k] = ~UINT64_C(0);
	e[m->wpa - 1] = m->tail;
}

bool sram_any_tag(const sram_machine *m, unsigned array)
{
	const uint64_t *t = sram_latch_words((sram_machine *)m, array, SRAM_TAG);
	const uint64_t *e = sram_latch_words((sram_machine *)m, array, SRAM_ENABLE);
	uint64_t any = 0;
	for (unsigned k = 0; k < m->wpa; k++)
		any |= t[k] & e[k];
	return any != 0;
}

bool sram_any_tag_ways(const sram_machine *m, unsigned first, unsigned count,
		       const uint8_t *way_on)
{
	uint64_t any = 0;
	for (unsigned w = first; w < first + count && w < m->nways; w++) {
		if (way_on && !way_on[w])
			continue;
		const sram_way *wy = &m->ways[w];
		for (unsigned k = 0; k < m->stride; k++)
			any |= wy->tag[k] & wy->enable[k];
	}
	return any != 0;
}
