/* SPDX-License-Identifier: MIT */
/*
 * snap.c: whole-machine snapshots in memory; see snap.h.
 *
 * Why pages: the store is one mmap whose untouched pages the kernel
 * backs with the zero page (sram.c), and a program writes a few arrays
 * of it; copying 133 MiB per snapshot would cost as much time and memory
 * as the run between two snapshots.  Comparing each page with the
 * previous snapshot's copy reads the store once and keeps only the pages
 * that changed.
 */
#include "snap.h"

#include <stdlib.h>
#include <string.h>

#include "hazard.h"
#include "move.h"

#define PAGE_WORDS (EMU_SNAP_PAGE / 8)
#define MASK_WORDS (PAGE_WORDS / 64)

/* A page as its non-zero words: bit j of mask says word j is one of w,
 * in order.  A buffer spread over every 4th array (arrays=0:4:N, the
 * samples' layout) leaves three quarters of each way's rows zero, so a
 * page it wrote costs a quarter of its bytes. */
typedef struct snap_page {
	size_t refs;
	emu_snap_pool *pool;
	size_t nw;
	uint64_t mask[MASK_WORDS];
	uint64_t w[];
} snap_page;

/* A region of memory as pages; NULL: an all-zero page. */
typedef struct snap_pages {
	size_t len;       /* bytes, a multiple of 8 */
	size_t n;
	snap_page **p;
} snap_pages;

typedef struct snap_way {
	uint16_t last_act[SRAM_MAX_ACT];
	uint8_t last_nact;
	uint64_t last_set;
	uint16_t last_dst;
} snap_way;

struct emu_snap {
	emu_snap_pool *pool;
	size_t own;               /* bytes charged to the pool besides pages */
	snap_pages store, cells;
	snap_way *ways;
	unsigned nways;
	emu_stats st;             /* by_bank points at by_bank below */
	sram_count *by_bank;
	size_t pc;
	isa_prog up;
	bool hazard_stop, oom;
	emu_hazard_saved *hz;
	emu_mover_saved *mv;
};

static size_t page_bytes(size_t nw)
{
	return sizeof(snap_page) + nw * sizeof(uint64_t);
}

static void page_drop(snap_page *pg)
{
	if (pg && --pg->refs == 0) {
		pg->pool->bytes -= page_bytes(pg->nw);
		free(pg);
	}
}

static void pages_free(snap_pages *ps)
{
	for (size_t i = 0; ps->p && i < ps->n; i++)
		page_drop(ps->p[i]);
	free(ps->p);
	ps->p = NULL;
}

static bool all_zero(const uint64_t *w, size_t words)
{
	uint64_t any = 0;
	for (size_t i = 0; i < words; i++)
		any |= w[i];
	return any == 0;
}

/* Page i of a region of len bytes: how many words it has. */
static size_t page_words(size_t len, size_t i)
{
	const size_t left = len - i * EMU_SNAP_PAGE;
	return (left < EMU_SNAP_PAGE ? left : EMU_SNAP_PAGE) / 8;
}

/* The non-zero words of src[0..k) into mask and w; their number. */
static size_t squeeze(const uint64_t *src, size_t k, uint64_t *mask, uint64_t *w)
{
	size_t nw = 0;
	memset(mask, 0, MASK_WORDS * sizeof *mask);
	for (size_t j = 0; j < k; j++)
		if (src[j]) {
			mask[j / 64] |= UINT64_C(1) << (j % 64);
			w[nw++] = src[j];
		}
	return nw;
}

/* Copy mem (len bytes) as pages, sharing prev's equal ones.  0, or -1
 * when out of memory (out freed). */
static int pages_take(snap_pages *out, const uint64_t *mem, size_t len,
		      const snap_pages *prev, emu_snap_pool *pool)
{
	out->len = len;
	out->n = (len + EMU_SNAP_PAGE - 1) / EMU_SNAP_PAGE;
	out->p = calloc(out->n ? out->n : 1, sizeof *out->p);
	if (!out->p)
		return -1;
	const bool share = prev && prev->len == len;
	uint64_t mask[MASK_WORDS], w[PAGE_WORDS];
	for (size_t i = 0; i < out->n; i++) {
		const uint64_t *src = mem + i * PAGE_WORDS;
		const size_t k = page_words(len, i);
		if (all_zero(src, k))
			continue;
		const size_t nw = squeeze(src, k, mask, w);
		snap_page *old = share ? prev->p[i] : NULL;
		if (old && old->nw == nw && memcmp(old->mask, mask, sizeof mask) == 0 &&
		    memcmp(old->w, w, nw * sizeof *w) == 0) {
			old->refs++;
			out->p[i] = old;
			continue;
		}
		snap_page *pg = malloc(page_bytes(nw));
		if (!pg) {
			pages_free(out);
			return -1;
		}
		pg->refs = 1;
		pg->pool = pool;
		pg->nw = nw;
		memcpy(pg->mask, mask, sizeof mask);
		memcpy(pg->w, w, nw * sizeof *w);
		pool->bytes += page_bytes(nw);
		out->p[i] = pg;
	}
	return 0;
}

/* Write the pages back into mem, only the words that differ (a word
 * only read leaves a zero page of the mapping unmade). */
static void pages_put(uint64_t *mem, const snap_pages *ps)
{
	for (size_t i = 0; i < ps->n; i++) {
		uint64_t *dst = mem + i * PAGE_WORDS;
		const size_t k = page_words(ps->len, i);
		const snap_page *pg = ps->p[i];
		if (!pg) {
			if (!all_zero(dst, k))
				memset(dst, 0, k * 8);
			continue;
		}
		for (size_t j = 0, x = 0; j < k; j++) {
			const uint64_t v = pg->mask[j / 64] >> (j % 64) & 1 ? pg->w[x++] : 0;
			if (dst[j] != v)
				dst[j] = v;
		}
	}
}

void emu_snap_free(emu_snap *s)
{
	if (!s)
		return;
	pages_free(&s->store);
	pages_free(&s->cells);
	s->pool->bytes -= s->own;
	free(s->ways);
	free(s->by_bank);
	isa_prog_free(&s->up);
	emu_hazard_saved_free(s->hz);
	emu_mover_saved_free(s->mv);
	free(s);
}

size_t emu_snap_pc(const emu_snap *s)
{
	return s->pc;
}

static void copy_way_marks(snap_way *y, const sram_way *x)
{
	memcpy(y->last_act, x->last_act, sizeof y->last_act);
	y->last_nact = x->last_nact;
	y->last_set = x->last_set;
	y->last_dst = x->last_dst;
}

/* The parts that are not pages: the ways' last activation, statistics,
 * position, micro-program, hazard tracker and mover.  0, or -1. */
static int take_small(emu_snap *s, const emu_machine *em)
{
	const sram_machine *m = em->m;
	s->nways = m->nways;
	s->ways = malloc(m->nways * sizeof *s->ways);
	s->by_bank = malloc((m->nbanks ? m->nbanks : 1) * sizeof *s->by_bank);
	s->hz = emu_hazard_save(em->hz);
	s->mv = emu_mover_save(em->mover);
	isa_prog_init(&s->up);
	if (!s->ways || !s->by_bank || !s->hz || !s->mv)
		return -1;
	for (unsigned w = 0; w < m->nways; w++)
		copy_way_marks(&s->ways[w], &m->ways[w]);
	s->st = em->st;
	memcpy(s->by_bank, em->st.by_bank, m->nbanks * sizeof *s->by_bank);
	s->st.by_bank = s->by_bank;
	s->pc = em->pc;
	s->hazard_stop = em->hazard_stop;
	s->oom = em->oom;
	for (size_t i = 0; i < em->up.n; i++)
		isa_emit(&s->up, em->up.u[i]);
	if (s->up.oom)
		return -1;
	s->own = sizeof *s + m->nways * sizeof *s->ways + m->nbanks * sizeof *s->by_bank +
		 s->up.n * sizeof *s->up.u + emu_hazard_saved_bytes(s->hz) +
		 emu_mover_saved_bytes(s->mv) + (s->store.n + s->cells.n) * sizeof(void *);
	return 0;
}

emu_snap *emu_snap_take(emu_machine *em, const emu_snap *prev, emu_snap_pool *pool, diag *d)
{
	if (em->upc != 0) {
		diag_file(d, em->prog->path, "a machine snapshot is taken between commands");
		return NULL;
	}
	emu_snap *s = calloc(1, sizeof *s);
	if (!s) {
		diag_file(d, em->prog->path, "out of memory for a machine snapshot");
		return NULL;
	}
	s->pool = pool;
	size_t cells_len;
	uint64_t *cells = emu_hazard_cells(em->hz, &cells_len);
	if (pages_take(&s->store, em->m->store, em->m->store_bytes, prev ? &prev->store : NULL,
		       pool) < 0 ||
	    pages_take(&s->cells, cells, cells_len & ~(size_t)7, prev ? &prev->cells : NULL,
		       pool) < 0 ||
	    take_small(s, em) < 0) {
		s->own = 0;
		emu_snap_free(s);
		diag_file(d, em->prog->path, "out of memory for a machine snapshot");
		return NULL;
	}
	pool->bytes += s->own;
	return s;
}

/* Install the statistics, the position and the micro-program up. */
static void put_small(emu_machine *em, const emu_snap *s, isa_prog up)
{
	for (unsigned w = 0; w < s->nways; w++) {
		sram_way *x = &em->m->ways[w];
		const snap_way *y = &s->ways[w];
		memcpy(x->last_act, y->last_act, sizeof x->last_act);
		x->last_nact = y->last_nact;
		x->last_set = y->last_set;
		x->last_dst = y->last_dst;
	}
	sram_count *by_bank = em->st.by_bank;
	em->st = s->st;
	em->st.by_bank = by_bank;
	memcpy(by_bank, s->by_bank, em->m->nbanks * sizeof *by_bank);
	em->pc = s->pc;
	em->upc = 0;
	em->dd = false;
	isa_prog_free(&em->up);
	em->up = up;
	em->hazard_stop = s->hazard_stop;
	em->oom = s->oom;
}

int emu_snap_restore(emu_machine *em, const emu_snap *s, diag *d)
{
	size_t cells_len;
	uint64_t *cells = emu_hazard_cells(em->hz, &cells_len);
	if (s->store.len != em->m->store_bytes || s->nways != em->m->nways ||
	    s->cells.len != (cells_len & ~(size_t)7)) {
		diag_file(d, em->prog->path, "a machine snapshot restored into a machine of another size");
		return -1;
	}
	isa_prog up;
	isa_prog_init(&up);
	for (size_t i = 0; i < s->up.n; i++)
		isa_emit(&up, s->up.u[i]);
	if (up.oom || emu_mover_restore(em->mover, s->mv) < 0 ||
	    emu_hazard_restore(em->hz, s->hz) < 0) {
		isa_prog_free(&up);
		diag_file(d, em->prog->path, "out of memory restoring a machine snapshot");
		return -1;
	}
	pages_put(em->m->store, &s->store);
	pages_put(cells, &s->cells);
	emu_hazard_cells_changed(em->hz);
	put_small(em, s, up);
	return 0;
}
