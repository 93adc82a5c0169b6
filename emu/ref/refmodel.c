/* SPDX-License-Identifier: MIT */
/*
 * refmodel.c: the scalar reference model's storage, the rows each command
 * writes, and element access; see refmodel.h and ref_private.h.  The
 * commands are in ref_compute.c and ref_move.c.
 */
#include "ref_private.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Widen array a's entry of one row set (list, lo, hi) by [wl, wl + n). */
static void rows_add(unsigned *list, size_t *n_list, uint16_t *lo, uint16_t *hi,
		     unsigned a, unsigned wl, unsigned n)
{
	if (!hi[a]) {
		list[(*n_list)++] = a;
		lo[a] = (uint16_t)wl;
		hi[a] = (uint16_t)(wl + n);
		return;
	}
	if (wl < lo[a])
		lo[a] = (uint16_t)wl;
	if (wl + n > hi[a])
		hi[a] = (uint16_t)(wl + n);
}

/* Every buffer's cells count as touched from the start, so that the
 * end-of-run comparison covers a buffer nothing wrote. */
static void touch_buffers(emu_ref *r)
{
	const sram_geom *g = &r->p->geom;
	for (size_t k = 0; k < r->p->nbufs; k++) {
		const emu_buffer *b = &r->p->bufs[k];
		const unsigned rows = emu_buffer_rows(b, g);
		uint64_t tiles = emu_pattern_size(&b->arrays);
		if (b->ndims) {
			emu_region reg;
			emu_buffer_region(b, &reg);
			tiles = emu_region_tiles(&reg);
		}
		for (uint64_t t = 0; t < tiles; t++) {
			const int64_t a = b->ndims ? b->arrays.start + (int64_t)t
						   : emu_pattern_at(&b->arrays, t);
			if (a >= 0 && (uint64_t)a < r->narrays && b->wl + rows <= r->W)
				rows_add(r->touched, &r->ntouched, r->tlo, r->thi, (unsigned)a,
					 b->wl, rows);
		}
	}
}

emu_ref *emu_ref_new(const emu_program *p, diag *d)
{
	if (emu_program_need_lowered(p, d))
		return NULL;
	emu_ref *r = calloc(1, sizeof *r);
	if (!r)
		goto oom;
	r->p = p;
	r->W = p->geom.wordlines;
	r->B = p->geom.bitlines;
	r->rw = (r->B + 63) / 64;
	r->rs = (size_t)p->geom.arrays_per_way * r->rw;
	r->narrays = (unsigned)(sram_geom_bitlines(&p->geom) / r->B);
	r->store_bytes = (size_t)r->narrays * r->W * r->rw * sizeof(uint64_t);
	r->store = mmap(NULL, r->store_bytes, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (r->store == MAP_FAILED) {
		r->store = NULL;
		goto oom;
	}
	if (mem_pages_init(&r->pages, r->store, r->store_bytes) < 0)
		goto oom;
	r->rows = calloc(r->narrays, sizeof *r->rows);
	r->tags = calloc(r->narrays, sizeof *r->tags);
	r->sel_arr = calloc(r->narrays, 1);
	r->dirty = calloc(r->narrays, sizeof *r->dirty);
	r->lo = calloc(r->narrays, sizeof *r->lo);
	r->hi = calloc(r->narrays, sizeof *r->hi);
	r->touched = calloc(r->narrays, sizeof *r->touched);
	r->tlo = calloc(r->narrays, sizeof *r->tlo);
	r->thi = calloc(r->narrays, sizeof *r->thi);
	r->spare_tag = calloc(r->B, 1);
	if (!r->rows || !r->tags || !r->sel_arr || !r->dirty || !r->lo || !r->hi ||
	    !r->touched || !r->tlo || !r->thi || !r->spare_tag)
		goto oom;
	touch_buffers(r);
	return r;
oom:
	diag_file(d, p->path, "out of memory for the reference model");
	emu_ref_free(r);
	return NULL;
}

void emu_ref_free(emu_ref *r)
{
	if (!r)
		return;
	for (unsigned a = 0; r->tags && a < r->narrays; a++)
		if (r->tags[a] != r->spare_tag)
			free(r->tags[a]);
	if (r->store)
		munmap(r->store, r->store_bytes);
	mem_pages_free(&r->pages);
	free(r->spare_tag);
	free(r->rows);
	free(r->tags);
	free(r->sel_arr);
	free(r->dirty);
	free(r->lo);
	free(r->hi);
	free(r->touched);
	free(r->tlo);
	free(r->thi);
	free(r->pend);
	for (unsigned k = 0; k < 3; k++)
		free(r->lst[k]);
	free(r->snap);
	free(r);
}

uint64_t *emu_ref_rows(const emu_ref *r, unsigned a, bool make)
{
	if (!r->rows[a]) {
		if (!make)
			return NULL;
		const unsigned apw = r->p->geom.arrays_per_way;
		uint8_t **rt = (uint8_t **)&r->tags[a];
		*rt = calloc(r->B, 1);
		if (!*rt) {
			*rt = r->spare_tag;
			((emu_ref *)r)->oom = true;
		}
		((emu_ref *)r)->rows[a] =
			r->store + ((size_t)(a / apw) * r->W * apw + a % apw) * r->rw;
	}
	return r->rows[a];
}

/* Rows wl..wl+n-1 of array a's way, about to be written: their pages
 * taken in one run rather than a fault at a time (lib/mem.h). */
static void take_rows(emu_ref *r, unsigned a, unsigned wl, unsigned n)
{
	const unsigned apw = r->p->geom.arrays_per_way;
	if (wl < r->W && n)
		mem_pages_take(&r->pages, r->store + ((size_t)(a / apw) * r->W + wl) * r->rs,
			       (size_t)(n < r->W - wl ? n : r->W - wl) * r->rs * sizeof *r->store);
}

void emu_ref_mark(emu_ref *r, unsigned a, unsigned wl, unsigned n)
{
	take_rows(r, a, wl, n);
	rows_add(r->dirty, &r->ndirty, r->lo, r->hi, a, wl, n);
	rows_add(r->touched, &r->ntouched, r->tlo, r->thi, a, wl, n);
}

static void clear_marks(emu_ref *r)
{
	for (size_t i = 0; i < r->ndirty; i++)
		r->hi[r->dirty[i]] = 0;
	r->ndirty = 0;
}

size_t emu_ref_nwritten(const emu_ref *r)
{
	return r->ndirty;
}

void emu_ref_written(const emu_ref *r, size_t k, unsigned *array, unsigned *wl,
		     unsigned *end)
{
	*array = r->dirty[k];
	*wl = r->lo[*array];
	*end = r->hi[*array];
}

size_t emu_ref_ntouched(const emu_ref *r)
{
	return r->ntouched;
}

void emu_ref_touched(const emu_ref *r, size_t k, unsigned *array, unsigned *wl,
		     unsigned *end)
{
	*array = r->touched[k];
	*wl = r->tlo[*array];
	*end = r->thi[*array];
}

const uint64_t *emu_ref_row(const emu_ref *r, unsigned array, unsigned wl)
{
	return r->rows[array] ? r->rows[array] + wl * r->rs : NULL;
}

unsigned emu_ref_row_words(const emu_ref *r)
{
	return r->rw;
}

const unsigned *emu_ref_expand(emu_ref *r, unsigned slot, const emu_pattern *p,
			       uint64_t *n)
{
	*n = emu_pattern_size(p);
	const size_t want = *n ? (size_t)*n : 1;
	if (want > r->cap_lst[slot]) {
		unsigned *nl = realloc(r->lst[slot], want * sizeof *nl);
		if (!nl) {
			r->oom = true;
			return NULL;
		}
		r->lst[slot] = nl;
		r->cap_lst[slot] = want;
	}
	for (uint64_t i = 0; i < *n; i++)
		r->lst[slot][i] = (unsigned)emu_pattern_at(p, i);
	return r->lst[slot];
}

/* ---- elements ----
 * One element is n bits down one bitline; many elements of a buffer are
 * read or written 64 bitlines (one word of a row) at a time, through the
 * block of the word they share (ref_block.c). */

uint64_t emu_ref_get(const emu_ref *r, const emu_buffer *b, uint64_t i)
{
	unsigned a, bl, wl;
	emu_buffer_place(b, &r->p->geom, i, &a, &bl, &wl);
	const uint64_t *rows = emu_ref_rows(r, a, false);
	uint64_t v = 0;
	for (unsigned k = 0; rows && k < b->width; k++)
		v |= (rows[(wl + k) * r->rs + bl / 64] >> (bl % 64) & 1) << k;
	return v;
}

void emu_ref_set(emu_ref *r, const emu_buffer *b, uint64_t i, uint64_t v)
{
	unsigned a, bl, wl;
	emu_buffer_place(b, &r->p->geom, i, &a, &bl, &wl);
	uint64_t *rows = emu_ref_rows(r, a, true);
	const uint64_t bit = UINT64_C(1) << (bl % 64);
	for (unsigned k = 0; k < b->width; k++) {
		uint64_t *x = &rows[(wl + k) * r->rs + bl / 64];
		*x = v >> k & 1 ? *x | bit : *x & ~bit;
	}
}

/* The word of rows a block covers: array, first wordline, word. */
typedef struct ref_blk {
	unsigned a, wl, w;
	bool valid;
	uint64_t mask; /* a store's bitlines so far */
	uint64_t v[64];
} ref_blk;

static bool blk_is(const ref_blk *k, unsigned a, unsigned wl, unsigned w)
{
	return k->valid && k->a == a && k->wl == wl && k->w == w;
}

void emu_ref_read(const emu_ref *r, const emu_buffer *b, uint64_t *values)
{
	emu_placer pl;
	emu_placer_init(&pl, b, &r->p->geom);
	ref_blk k = {.valid = false};
	for (uint64_t i = 0; i < b->length; i++) {
		unsigned a, bl, wl;
		emu_placer_at(&pl, i, &a, &bl, &wl);
		if (!blk_is(&k, a, wl, bl / 64)) {
			k.a = a;
			k.wl = wl;
			k.w = bl / 64;
			k.valid = true;
			emu_ref_block_get(emu_ref_rows(r, a, false), r->rs, k.w, wl, b->width, k.v);
		}
		values[i] = k.v[bl % 64];
	}
}

/* Write a store's block into the rows (its bitlines only). */
static void blk_flush(emu_ref *r, ref_blk *k, unsigned width)
{
	if (k->valid && k->mask)
		take_rows(r, k->a, k->wl, width);
	if (k->valid && k->mask)
		emu_ref_block_put(emu_ref_rows(r, k->a, true), r->rs, k->w, k->wl, width,
				  k->mask, k->v);
	k->valid = false;
}

/* Element i of b := v, through the block k (flushed when i lies in
 * another word of rows). */
static void blk_store(emu_ref *r, ref_blk *k, const emu_placer *pl, uint64_t i, uint64_t v)
{
	const emu_buffer *b = pl->b;
	unsigned a, bl, wl;
	emu_placer_at(pl, i, &a, &bl, &wl);
	if (!blk_is(k, a, wl, bl / 64)) {
		blk_flush(r, k, b->width);
		k->a = a;
		k->wl = wl;
		k->w = bl / 64;
		k->valid = true;
		k->mask = 0;
	}
	k->v[bl % 64] = v & isa_mask(b->width);
	k->mask |= UINT64_C(1) << (bl % 64);
}

int emu_ref_store(emu_ref *r, const emu_buffer *b, const uint64_t *values,
		  uint64_t count)
{
	emu_placer pl;
	emu_placer_init(&pl, b, &r->p->geom);
	if (count > b->length)
		count = b->length;
	ref_blk k = {.valid = false};
	for (uint64_t i = 0; i < count; i++)
		blk_store(r, &k, &pl, i, values[i]);
	blk_flush(r, &k, b->width);
	return r->oom ? -1 : 0;
}

int emu_ref_init_buffers(emu_ref *r)
{
	for (size_t n = 0; n < r->p->nbufs; n++) {
		const emu_buffer *b = &r->p->bufs[n];
		if (b->init == EMU_INIT_NONE)
			continue;
		emu_placer pl;
		emu_placer_init(&pl, b, &r->p->geom);
		ref_blk k = {.valid = false};
		uint64_t v[1024];
		for (uint64_t i = 0; i < b->length; i += 1024) {
			const uint64_t nv = b->length - i < 1024 ? b->length - i : 1024;
			emu_init_fill(b, i, nv, v);
			for (uint64_t j = 0; j < nv; j++)
				blk_store(r, &k, &pl, i + j, v[j]);
		}
		blk_flush(r, &k, b->width);
	}
	return r->oom ? -1 : 0;
}

int emu_ref_run_cmd(emu_ref *r, size_t i, diag *d)
{
	const emu_cmd *ec = &r->p->cmds[i];
	clear_marks(r);
	const int rc = ec->kind == EMU_CMD_MOVE ? emu_ref_move(r, &ec->mv, d)
						: emu_ref_compute(r, i, d);
	if (r->oom) {
		diag_file(d, r->p->path, "out of memory for the reference model");
		return -1;
	}
	return rc;
}
