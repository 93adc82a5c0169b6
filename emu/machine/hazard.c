/* SPDX-License-Identifier: MIT */
/*
 * hazard.c: sync visibility and JIT hazard tracking; see hazard.h.
 *
 * Written cells.  One uint32_t per (array, wordline), state: 0 = never
 * written, else the id of an interned bitline mask (the bitlines written
 * so far; id 1, every bitline, is never stored there, see below).
 * Commands apply one bitline mask to all their arrays, so few distinct
 * masks exist and the default machine needs 16 MiB here instead of a bit
 * per cell (128 MiB).
 *
 * "Every bitline written" is kept apart, as a bit per (array, wordline),
 * fullbits, and where that bit is set the uint32_t is not read: a write
 * of whole rows (most of them) sets bits only.  So the cells a move
 * checks and marks, mostly written already, are a word of bits per array
 * instead of a uint32_t per wordline, and a run whose commands write
 * whole rows never touches the state table's pages (on the default
 * machine with 512 wordlines the table is 32 MiB, its bits 1 MiB).  Both
 * lie in one block, the bits first, which snap.c copies by pages.
 *
 * Pending moves.  One record per (move, source or destination): its
 * arrays (sorted), bitline mask and wordlines; pend_count[a] says whether
 * any record names array a, so most arrays are passed over at once.
 */
#include "hazard.h"

#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"

#define MASK_WORDS (SRAM_MAX_DIM / 64)

struct pending {
	size_t cmd;
	int line;
	bool is_src;
	char what[EMU_HAZARD_WHAT]; /* who delivers it; "" for a move command */
	unsigned *arrays; /* sorted, unique */
	size_t narrays;
	uint64_t mask[MASK_WORDS];
	unsigned wl, nwl;
};

struct emu_hazards {
	sram_geom g;
	unsigned W, B, wpa;
	size_t narrays;
	bool strict;
	const char *path;
	uint64_t *cells;        /* fullbits, then state: one block (snap.c) */
	size_t cells_bytes;
	uint32_t *state;        /* meaningful only where fullbits is clear */
	mem_pages cell_pages;   /* which of the block's pages were taken (mem.h) */
	uint64_t *masks;        /* interned masks, wpa words each */
	size_t nmasks, cap_masks;
	uint32_t *slots;        /* open-addressing table of mask ids */
	size_t cap_slots;
	struct pending *pend;
	size_t npend, cap_pend;
	uint32_t *pend_count;
	emu_hazard *list;
	size_t n, cap;
	uint64_t count[EMU_HZ_KINDS];
	uint64_t full[MASK_WORDS];
	uint32_t *nfull;        /* per wordline: arrays whose fullbit there is set */
	uint64_t *fullbits;     /* per array, fullw words: bit w set iff every
				 * bitline of wordline w is written */
	unsigned fullw;
};

/* Where a hazard occurs: the first array, the bits and wordlines there,
 * and how many arrays in all. */
struct finding {
	bool any;
	unsigned array;
	uint64_t bits[MASK_WORDS];
	unsigned wl_first, wl_last;
	uint64_t narrays;
};

static const char *const kind_names[EMU_HZ_KINDS] = {
	"unsynced-read", "unwritten-read", "clobber", "overlap",
};

const char *emu_hazard_kind_name(emu_hazard_kind k)
{
	return k < EMU_HZ_KINDS ? kind_names[k] : "?";
}

/* ---- interned masks ---- */

static uint64_t mask_hash(const uint64_t *m, unsigned wpa)
{
	uint64_t h = 0x9e3779b97f4a7c15u;
	for (unsigned k = 0; k < wpa; k++)
		h = (h ^ m[k]) * 0xff51afd7ed558ccdu;
	return h ^ (h >> 29);
}

static const uint64_t *mask_of(const emu_hazards *h, uint32_t id)
{
	return h->masks + (size_t)id * h->wpa;
}

static int grow_slots(emu_hazards *h)
{
	const size_t cap = h->cap_slots ? 2 * h->cap_slots : 256;
	uint32_t *s = calloc(cap, sizeof *s);
	if (!s)
		return -1;
	for (uint32_t id = 2; id < h->nmasks; id++) {
		size_t i = mask_hash(mask_of(h, id), h->wpa) & (cap - 1);
		while (s[i])
			i = (i + 1) & (cap - 1);
		s[i] = id;
	}
	free(h->slots);
	h->slots = s;
	h->cap_slots = cap;
	return 0;
}

/* The id of mask m (0: empty, 1: every bitline), added if new; -1 when
 * out of memory. */
static int64_t intern(emu_hazards *h, const uint64_t *m)
{
	bool zero = true, full = true;
	for (unsigned k = 0; k < h->wpa; k++) {
		zero = zero && m[k] == 0;
		full = full && m[k] == h->full[k];
	}
	if (zero || full)
		return full;
	if (2 * (h->nmasks + 1) > h->cap_slots && grow_slots(h) != 0)
		return -1;
	size_t i = mask_hash(m, h->wpa) & (h->cap_slots - 1);
	for (; h->slots[i]; i = (i + 1) & (h->cap_slots - 1))
		if (!memcmp(mask_of(h, h->slots[i]), m, h->wpa * sizeof *m))
			return h->slots[i];
	if (h->nmasks == h->cap_masks) {
		const size_t cap = 2 * h->cap_masks;
		uint64_t *v = realloc(h->masks, cap * h->wpa * sizeof *v);
		if (!v)
			return -1;
		h->masks = v;
		h->cap_masks = cap;
	}
	memcpy(h->masks + h->nmasks * h->wpa, m, h->wpa * sizeof *m);
	h->slots[i] = (uint32_t)h->nmasks;
	return (int64_t)h->nmasks++;
}

/* ---- the tracker ---- */

emu_hazards *emu_hazard_new(const sram_geom *g, bool strict, const char *path)
{
	if (sram_geom_check(g))
		return NULL;
	emu_hazards *h = calloc(1, sizeof *h);
	if (!h)
		return NULL;
	h->g = *g;
	h->W = g->wordlines;
	h->B = g->bitlines;
	h->wpa = (g->bitlines + 63) / 64;
	h->narrays = (size_t)g->arrays_per_way * g->ways_per_bank * g->mesh_x * g->mesh_y;
	h->strict = strict;
	h->path = path;
	for (unsigned b = 0; b < h->B; b++)
		h->full[b / 64] |= UINT64_C(1) << (b % 64);
	h->fullw = (h->W + 63) / 64;
	const size_t nbits = h->narrays * h->fullw;
	h->cells_bytes = nbits * sizeof *h->fullbits +
			 (h->narrays * h->W * sizeof *h->state + 7) / 8 * 8;
	h->cells = calloc(1, h->cells_bytes);
	if (h->cells) {
		h->fullbits = h->cells;
		h->state = (uint32_t *)(h->cells + nbits);
	}
	h->pend_count = calloc(h->narrays, sizeof *h->pend_count);
	h->nfull = calloc(h->W, sizeof *h->nfull);
	h->cap_masks = 16;
	h->nmasks = 2; /* ids 0 and 1 are implicit */
	h->masks = calloc(h->cap_masks * h->wpa, sizeof *h->masks);
	if (!h->cells || !h->pend_count || !h->masks || !h->nfull ||
	    mem_pages_init(&h->cell_pages, h->cells, h->cells_bytes) < 0) {
		emu_hazard_free(h);
		return NULL;
	}
	return h;
}

static void drop_pending(emu_hazards *h)
{
	for (size_t i = 0; i < h->npend; i++) {
		for (size_t j = 0; j < h->pend[i].narrays; j++)
			h->pend_count[h->pend[i].arrays[j]]--;
		free(h->pend[i].arrays);
	}
	h->npend = 0;
}

void emu_hazard_free(emu_hazards *h)
{
	if (!h)
		return;
	if (h->pend_count)
		drop_pending(h);
	free(h->pend);
	free(h->pend_count);
	free(h->cells);
	mem_pages_free(&h->cell_pages);
	free(h->nfull);
	free(h->masks);
	free(h->slots);
	free(h->list);
	free(h);
}

bool emu_hazard_strict(const emu_hazards *h)
{
	return h->strict;
}

size_t emu_hazard_pending(const emu_hazards *h)
{
	return h->npend;
}

size_t emu_hazard_count(const emu_hazards *h)
{
	return h->n;
}

const emu_hazard *emu_hazard_get(const emu_hazards *h, size_t i)
{
	return i < h->n ? &h->list[i] : NULL;
}

uint64_t emu_hazard_count_kind(const emu_hazards *h, emu_hazard_kind k)
{
	return k < EMU_HZ_KINDS ? h->count[k] : 0;
}

int emu_hazard_bits_text(const uint64_t *mask, unsigned bitlines, char *buf,
			 size_t size)
{
	size_t len = 0;
	unsigned runs = 0;
	if (size)
		buf[0] = '\0';
	for (unsigned b = 0; b < bitlines;) {
		if (!(mask[b / 64] >> (b % 64) & 1)) {
			b++;
			continue;
		}
		unsigned e = b;
		while (e + 1 < bitlines && (mask[(e + 1) / 64] >> ((e + 1) % 64) & 1))
			e++;
		char piece[32];
		int k = e == b ? snprintf(piece, sizeof piece, "%s%u", runs ? "," : "", b)
			       : snprintf(piece, sizeof piece, "%s%u..%u", runs ? "," : "", b, e);
		if (runs == 8) {
			k = snprintf(piece, sizeof piece, ",...");
			e = bitlines;
		}
		if (len + (size_t)k < size)
			memcpy(buf + len, piece, (size_t)k + 1);
		len += (size_t)k;
		runs++;
		b = e + 1;
	}
	return (int)len;
}

/* ---- reports ---- */

static int push(emu_hazards *h, const emu_hazard *z)
{
	if (h->n == h->cap) {
		const size_t cap = h->cap ? 2 * h->cap : 16;
		emu_hazard *v = realloc(h->list, cap * sizeof *v);
		if (!v)
			return -1;
		h->list = v;
		h->cap = cap;
	}
	h->list[h->n++] = *z;
	h->count[z->kind]++;
	return 0;
}

/* Report f as hazard kind of command cmd: "command N: VERB bank B,
 * array A, wordlines W, bitlines L (and K more arrays) TAIL".  1 (a
 * warning kept), or -1 (strict: d set; or out of memory). */
struct where {
	size_t cmd;
	int line;
	diag *d;
};

static int report(emu_hazards *h, emu_hazard_kind kind, const struct where *at,
		  size_t other, const struct finding *f, const char *verb,
		  const char *fmt, ...) __attribute__((format(printf, 7, 8)));
static int report(emu_hazards *h, emu_hazard_kind kind, const struct where *at,
		  size_t other, const struct finding *f, const char *verb,
		  const char *fmt, ...)
{
	emu_hazard z;
	char bits[160], wls[48], more[48], tail[320];
	va_list ap;
	memset(&z, 0, sizeof z);
	z.kind = kind;
	z.cmd = at->cmd;
	z.line = at->line;
	z.other = other;
	z.array = f->array;
	z.bank = f->array / (h->g.arrays_per_way * h->g.ways_per_bank);
	z.wl_first = f->wl_first;
	z.wl_last = f->wl_last;
	z.narrays = f->narrays;
	emu_hazard_bits_text(f->bits, h->B, bits, sizeof bits);
	if (f->wl_first == f->wl_last)
		snprintf(wls, sizeof wls, "wordline %u", f->wl_first);
	else
		snprintf(wls, sizeof wls, "wordlines %u..%u", f->wl_first, f->wl_last);
	more[0] = '\0';
	if (f->narrays > 1)
		snprintf(more, sizeof more, " (and %" PRIu64 " more array%s)",
			 f->narrays - 1, f->narrays > 2 ? "s" : "");
	va_start(ap, fmt);
	vsnprintf(tail, sizeof tail, fmt, ap);
	va_end(ap);
	snprintf(z.text, sizeof z.text, "command %zu: %s bank %u, array %u, %s, "
		 "bitline%s %s%s %s", at->cmd, verb, z.bank, z.array, wls,
		 strpbrk(bits, ",.") ? "s" : "", bits, more, tail);
	if (push(h, &z) != 0)
		return -1;
	if (!h->strict)
		return 1;
	diag_at(at->d, h->path ? h->path : "infsim", at->line, 0,
		"%s (a hazard; strict mode makes it an error)", z.text);
	return -1;
}

/* ---- finding hazards ---- */

static void found(struct finding *f, unsigned a, const uint64_t *bits,
		  unsigned wpa, unsigned wl0, unsigned wl1)
{
	if (!f->any) {
		f->any = true;
		f->array = a;
		f->wl_first = wl0;
		f->wl_last = wl1;
	}
	if (a != f->array)
		return;
	for (unsigned k = 0; k < wpa; k++)
		f->bits[k] |= bits[k];
	if (wl0 < f->wl_first)
		f->wl_first = wl0;
	if (wl1 > f->wl_last)
		f->wl_last = wl1;
}

/* Bits of c never written, in its first such array. */
/* Is every bitline of every array written at wordlines wl..wl+nwl-1?
 * (Then no access there can find an unwritten cell, and a write there
 * changes nothing: the common case, answered without touching the
 * per-array state.) */
/* Is every bitline of array a written at wordlines wl..wl+nwl-1? */
static bool array_rows_full(const emu_hazards *h, unsigned a, unsigned wl,
			    unsigned nwl)
{
	const uint64_t *b = h->fullbits + (size_t)a * h->fullw;
	for (unsigned w = wl; w < wl + nwl;) {
		const unsigned i = w / 64, lo = w % 64;
		const unsigned n = wl + nwl - w < 64 - lo ? wl + nwl - w : 64 - lo;
		const uint64_t want = (n == 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1) << lo;
		if ((b[i] & want) != want)
			return false;
		w += n;
	}
	return true;
}

static bool is_full(const emu_hazards *h, unsigned a, unsigned w)
{
	return h->fullbits[(size_t)a * h->fullw + w / 64] >> (w % 64) & 1;
}

static void set_full(emu_hazards *h, unsigned a, unsigned w)
{
	h->fullbits[(size_t)a * h->fullw + w / 64] |= UINT64_C(1) << (w % 64);
	h->nfull[w]++;
}

/* Every bitline of array a written at wordlines wl..wl+nwl-1. */
static void set_full_rows(emu_hazards *h, unsigned a, unsigned wl, unsigned nwl)
{
	uint64_t *b = h->fullbits + (size_t)a * h->fullw;
	for (unsigned w = wl; w < wl + nwl;) {
		const unsigned i = w / 64, lo = w % 64;
		const unsigned n = wl + nwl - w < 64 - lo ? wl + nwl - w : 64 - lo;
		const uint64_t want = (n == 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1) << lo;
		for (uint64_t fresh = want & ~b[i]; fresh; fresh &= fresh - 1)
			h->nfull[64 * i + (unsigned)__builtin_ctzll(fresh)]++;
		b[i] |= want;
		w += n;
	}
}

static bool rows_all_written(const emu_hazards *h, unsigned wl, unsigned nwl)
{
	for (unsigned w = wl; w < wl + nwl; w++)
		if (h->nfull[w] != h->narrays)
			return false;
	return true;
}

static void find_unwritten(const emu_hazards *h, const emu_cells *c,
			   struct finding *f)
{
	uint64_t miss[MASK_WORDS];
	if (rows_all_written(h, c->wl, c->nwl))
		return;
	for (size_t i = 0; i < c->narrays; i++) {
		const unsigned a = c->arrays[i];
		const uint32_t *st = h->state + (size_t)a * h->W;
		bool hit = false;
		if (array_rows_full(h, a, c->wl, c->nwl))
			continue;
		for (unsigned w = c->wl; w < c->wl + c->nwl; w++) {
			if (is_full(h, a, w))
				continue;
			uint64_t any = 0;
			for (unsigned k = 0; k < h->wpa; k++) {
				miss[k] = c->mask[k] & (st[w] ? ~mask_of(h, st[w])[k] : ~UINT64_C(0));
				any |= miss[k];
			}
			if (any) {
				found(f, a, miss, h->wpa, w, w);
				hit = true;
			}
		}
		f->narrays += hit;
	}
}

static int cmp_unsigned(const void *x, const void *y)
{
	const unsigned a = *(const unsigned *)x, b = *(const unsigned *)y;
	return (a > b) - (a < b);
}

/* Cells of c that pending record p names. */
/* Who delivers p's cells, as the reports name it. */
enum { WHO_TEXT = EMU_HAZARD_WHAT + 32 };
static const char *who_of(const struct pending *p, char who[WHO_TEXT])
{
	if (p->what[0])
		snprintf(who, WHO_TEXT, "%s", p->what);
	else
		snprintf(who, WHO_TEXT, "inter-bank move command %zu", p->cmd);
	return who;
}

static void find_pending(const emu_hazards *h, const struct pending *p,
			 const emu_cells *c, struct finding *f)
{
	const unsigned w0 = c->wl > p->wl ? c->wl : p->wl;
	const unsigned e0 = c->wl + c->nwl, e1 = p->wl + p->nwl;
	const unsigned w1 = e0 < e1 ? e0 : e1;
	uint64_t bits[MASK_WORDS], any = 0;
	if (w0 >= w1)
		return;
	for (unsigned k = 0; k < h->wpa; k++)
		any |= bits[k] = c->mask[k] & p->mask[k];
	if (!any)
		return;
	for (size_t i = 0; i < c->narrays; i++) {
		const unsigned a = c->arrays[i];
		if (h->pend_count[a] &&
		    bsearch(&a, p->arrays, p->narrays, sizeof a, cmp_unsigned)) {
			if (!f->any || a != f->array)
				f->narrays++;
			found(f, a, bits, h->wpa, w0, w1 - 1);
		}
	}
}

int emu_hazard_check_read(emu_hazards *h, size_t cmd, int line,
			  const emu_cells *c, diag *d)
{
	const struct where at = {cmd, line, d};
	int n = 0;
	for (size_t i = 0; i < h->npend; i++) {
		const struct pending *p = &h->pend[i];
		struct finding f = {0};
		if (p->is_src)
			continue;
		find_pending(h, p, c, &f);
		char who[WHO_TEXT];
		if (f.any && report(h, EMU_HZ_UNSYNCED, &at, p->cmd, &f, "reads",
				    "before they arrive: %s delivers them only at the next "
				    "sync; insert a sync before this command (%s)",
				    who_of(p, who), p->what[0]
				    ? "an in-memory consumer of a store stream waits for it, "
				      "infinity-stream §5.3"
				    : "infinity-stream §4.2, Synchronization") < 0)
			return -1;
		n += f.any;
	}
	struct finding f = {0};
	find_unwritten(h, c, &f);
	if (f.any && (report(h, EMU_HZ_UNWRITTEN, &at, SIZE_MAX, &f, "reads",
				  "that were never written since the machine was "
				  "loaded")) < 0)
		return -1;
	return n + f.any;
}

int emu_hazard_check_write(emu_hazards *h, size_t cmd, int line,
			   const emu_cells *c, diag *d)
{
	const struct where at = {cmd, line, d};
	int n = 0;
	for (size_t i = 0; i < h->npend; i++) {
		const struct pending *p = &h->pend[i];
		struct finding f = {0};
		find_pending(h, p, c, &f);
		if (!f.any)
			continue;
		n++;
		char who[WHO_TEXT];
		who_of(p, who);
		if (p->is_src ? report(h, EMU_HZ_CLOBBER, &at, p->cmd, &f, "writes",
				       "while they are the source of %s, which is complete "
				       "only at the next sync; sync first", who) < 0
			      : report(h, EMU_HZ_CLOBBER, &at, p->cmd, &f, "writes",
				       "that %s delivers at the next sync, which will "
				       "overwrite this write; sync first", who) < 0)
			return -1;
	}
	return n;
}

int emu_hazard_overlap(emu_hazards *h, size_t cmd, int line, unsigned array,
		       const uint64_t *bits, unsigned wl_first, unsigned wl_last,
		       uint64_t narrays, const char *text, diag *d)
{
	const struct where at = {cmd, line, d};
	struct finding f = {0};
	found(&f, array, bits, h->wpa, wl_first, wl_last);
	f.narrays = narrays;
	return report(h, EMU_HZ_OVERLAP, &at, SIZE_MAX, &f, "moves", "%s", text);
}

/* ---- state changes ---- */

/* The cells of the arrays c names, their pages taken in one run where
 * the arrays lie close together (a region's tiles), rather than a page
 * fault an array (mem.h): their bits, and their state too when the write
 * is not of whole rows (state). */
static void take_cells(emu_hazards *h, const emu_cells *c, bool state)
{
	if (c->narrays < 2)
		return;
	unsigned lo = UINT_MAX, hi = 0;
	for (size_t i = 0; i < c->narrays; i++) {
		lo = c->arrays[i] < lo ? c->arrays[i] : lo;
		hi = c->arrays[i] > hi ? c->arrays[i] : hi;
	}
	const size_t n = (size_t)(hi - lo) + 1;
	if (n > 2 * c->narrays)
		return;
	mem_pages_take(&h->cell_pages, h->fullbits + (size_t)lo * h->fullw,
		       n * h->fullw * sizeof *h->fullbits);
	if (state)
		mem_pages_take(&h->cell_pages, h->state + (size_t)lo * h->W,
			       n * h->W * sizeof *h->state);
}

int emu_hazard_written(emu_hazards *h, const emu_cells *c)
{
	const int64_t mid = intern(h, c->mask);
	/* A small memo of old id -> new id: the same mask meets few ids. */
	uint32_t from[64], to[64];
	memset(from, 0xff, sizeof from);
	if (mid < 0)
		return -1;
	if (mid == 0 || rows_all_written(h, c->wl, c->nwl))
		return 0;
	take_cells(h, c, mid != 1);
	for (size_t i = 0; i < c->narrays; i++) {
		const unsigned a = c->arrays[i];
		if (array_rows_full(h, a, c->wl, c->nwl))
			continue;
		if (mid == 1) {
			set_full_rows(h, a, c->wl, c->nwl);
			continue;
		}
		uint32_t *st = h->state + (size_t)a * h->W;
		for (unsigned w = c->wl; w < c->wl + c->nwl; w++) {
			if (is_full(h, a, w))
				continue;
			const uint32_t old = st[w], slot = old % 64;
			if (old == 0) {
				st[w] = (uint32_t)mid;
				continue;
			}
			if (from[slot] != old) {
				uint64_t u[MASK_WORDS];
				for (unsigned k = 0; k < h->wpa; k++)
					u[k] = mask_of(h, old)[k] | c->mask[k];
				const int64_t id = intern(h, u);
				if (id < 0)
					return -1;
				from[slot] = old;
				to[slot] = (uint32_t)id;
			}
			if (to[slot] == 1)
				set_full(h, a, w);
			else
				st[w] = to[slot];
		}
	}
	return 0;
}

int emu_hazard_load(emu_hazards *h, const emu_cells *c)
{
	return emu_hazard_written(h, c);
}

int emu_hazard_load_region(emu_hazards *h, const emu_region *r)
{
	const uint64_t tiles = emu_region_tiles(r);
	const uint64_t rows = emu_region_rows(r, &h->g);
	unsigned *arrays = malloc(tiles * sizeof *arrays);
	if (!arrays)
		return -1;
	for (uint64_t t = 0; t < tiles; t++)
		arrays[t] = r->array0 + (unsigned)t;
	const emu_cells c = {arrays, tiles, h->full, r->wl, (unsigned)rows};
	const int rc = emu_hazard_written(h, &c);
	free(arrays);
	return rc;
}

static int add_pending(emu_hazards *h, size_t cmd, int line, bool is_src,
		       const emu_cells *c, const char *what)
{
	if (h->npend == h->cap_pend) {
		const size_t cap = h->cap_pend ? 2 * h->cap_pend : 8;
		struct pending *v = realloc(h->pend, cap * sizeof *v);
		if (!v)
			return -1;
		h->pend = v;
		h->cap_pend = cap;
	}
	struct pending *p = &h->pend[h->npend];
	memset(p, 0, sizeof *p);
	p->arrays = malloc((c->narrays ? c->narrays : 1) * sizeof *p->arrays);
	if (!p->arrays)
		return -1;
	memcpy(p->arrays, c->arrays, c->narrays * sizeof *p->arrays);
	qsort(p->arrays, c->narrays, sizeof *p->arrays, cmp_unsigned);
	size_t n = 0;
	for (size_t i = 0; i < c->narrays; i++)
		if (!n || p->arrays[n - 1] != p->arrays[i])
			p->arrays[n++] = p->arrays[i];
	for (size_t i = 0; i < n; i++)
		h->pend_count[p->arrays[i]]++;
	p->narrays = n;
	p->cmd = cmd;
	p->line = line;
	p->is_src = is_src;
	snprintf(p->what, sizeof p->what, "%s", what ? what : "");
	memcpy(p->mask, c->mask, h->wpa * sizeof *c->mask);
	p->wl = c->wl;
	p->nwl = c->nwl;
	h->npend++;
	return 0;
}

int emu_hazard_pend(emu_hazards *h, size_t cmd, int line, const emu_cells *src,
		    const emu_cells *dst)
{
	return emu_hazard_pend_as(h, cmd, line, src, dst, NULL);
}

int emu_hazard_pend_as(emu_hazards *h, size_t cmd, int line, const emu_cells *src,
		       const emu_cells *dst, const char *what)
{
	return (src && add_pending(h, cmd, line, true, src, what)) ||
	       add_pending(h, cmd, line, false, dst, what) ? -1 : 0;
}

int emu_hazard_sync(emu_hazards *h)
{
	for (size_t i = 0; i < h->npend; i++) {
		const struct pending *p = &h->pend[i];
		const emu_cells c = {p->arrays, p->narrays, p->mask, p->wl, p->nwl};
		if (!p->is_src && emu_hazard_written(h, &c) != 0)
			return -1;
	}
	drop_pending(h);
	return 0;
}

/* ---- compute commands ---- */

/* The cells of an access: its arrays and its bitline mask.  0, or -1
 * with d set when a pattern leaves the machine, or out of memory. */
static int access_cells(const emu_hazards *h, const emu_access *x, int line,
			unsigned **arrays, uint64_t *mask, emu_cells *c, diag *d)
{
	const uint64_t na = emu_pattern_size(&x->arrays);
	const uint64_t nb = emu_pattern_size(&x->bitlines);
	const char *path = h->path ? h->path : "infsim";
	memset(mask, 0, MASK_WORDS * sizeof *mask);
	for (uint64_t i = 0; i < nb; i++) {
		const int64_t b = emu_pattern_at(&x->bitlines, i);
		if (b < 0 || b >= (int64_t)h->B) {
			diag_at(d, path, line, 0, "bitline %" PRId64 " of an access is "
				"outside the array's bitlines 0..%u", b, h->B - 1);
			return -1;
		}
		mask[b / 64] |= UINT64_C(1) << (b % 64);
	}
	if (x->nwl == 0 || x->wl + x->nwl > h->W || na > h->narrays) {
		diag_at(d, path, line, 0, "an access of %" PRIu64 " arrays at wordlines "
			"%u..%u does not fit the machine (%zu arrays of %u wordlines)",
			na, x->wl, x->wl + x->nwl - 1, h->narrays, h->W);
		return -1;
	}
	*arrays = malloc((na ? na : 1) * sizeof **arrays);
	if (!*arrays) {
		diag_at(d, path, line, 0, "out of memory for the hazard tracker");
		return -1;
	}
	for (uint64_t i = 0; i < na; i++) {
		const int64_t a = emu_pattern_at(&x->arrays, i);
		if (a < 0 || (uint64_t)a >= h->narrays) {
			diag_at(d, path, line, 0, "array %" PRId64 " of an access is outside "
				"the machine's arrays 0..%zu", a, h->narrays - 1);
			free(*arrays);
			return -1;
		}
		(*arrays)[i] = (unsigned)a;
	}
	*c = (emu_cells){*arrays, na, mask, x->wl, x->nwl};
	return 0;
}

/* Check (write = false: reads, true: writes) or mark the accesses. */
static int each_access(emu_hazards *h, size_t cmd, int line, const emu_access *x,
		       size_t n, int what, diag *d)
{
	int total = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned *arrays;
		uint64_t mask[MASK_WORDS];
		emu_cells c;
		if (access_cells(h, &x[i], line, &arrays, mask, &c, d) != 0)
			return -1;
		const int rc = what == 0 ? emu_hazard_check_read(h, cmd, line, &c, d)
			     : what == 1 ? emu_hazard_check_write(h, cmd, line, &c, d)
					 : emu_hazard_written(h, &c);
		free(arrays);
		if (rc < 0 && !d->set)
			diag_at(d, h->path ? h->path : "infsim", line, 0,
				"out of memory for the hazard tracker");
		if (rc < 0)
			return -1;
		total += rc;
	}
	return total;
}

int emu_hazard_compute(emu_hazards *h, size_t cmd, int line,
		       const emu_access *reads, size_t nreads,
		       const emu_access *writes, size_t nwrites, diag *d)
{
	const int r = each_access(h, cmd, line, reads, nreads, 0, d);
	if (r < 0)
		return -1;
	const int w = each_access(h, cmd, line, writes, nwrites, 1, d);
	if (w < 0 || each_access(h, cmd, line, writes, nwrites, 2, d) < 0)
		return -1;
	return r + w;
}

void emu_hazard_print(FILE *f, const emu_hazards *h)
{
	for (size_t i = 0; i < h->n; i++) {
		const emu_hazard *z = &h->list[i];
		const char *path = h->path ? h->path : "infsim";
		if (z->line > 0)
			fprintf(f, "%s:%d: warning: %s [%s]\n", path, z->line, z->text,
				kind_names[z->kind]);
		else
			fprintf(f, "%s: warning: %s [%s]\n", path, z->text,
				kind_names[z->kind]);
	}
}

/* ---- snapshots (snap.c) ----
 * Everything the tracker changes as a run goes on, except the written
 * cells (fullbits and state, and nfull, their summary), which snap.c
 * copies by pages because they are large and mostly unchanged between
 * snapshots.  The interned masks are copied
 * whole: they are few, and the state's ids name them. */
struct emu_hazard_saved {
	uint64_t *masks;
	size_t nmasks;
	uint32_t *slots;
	size_t cap_slots;
	struct pending *pend;
	size_t npend;
	emu_hazard *list;
	size_t n;
	uint64_t count[EMU_HZ_KINDS];
};

void emu_hazard_saved_free(emu_hazard_saved *v)
{
	if (!v)
		return;
	for (size_t i = 0; v->pend && i < v->npend; i++)
		free(v->pend[i].arrays);
	free(v->pend);
	free(v->masks);
	free(v->slots);
	free(v->list);
	free(v);
}

static void *dup_bytes(const void *p, size_t n)
{
	void *q = malloc(n ? n : 1);
	if (q && n)
		memcpy(q, p, n);
	return q;
}

/* Copies of n pending records (their arrays with them), or NULL. */
static struct pending *dup_pending(const struct pending *p, size_t n)
{
	struct pending *v = calloc(n ? n : 1, sizeof *v);
	for (size_t i = 0; v && i < n; i++) {
		v[i] = p[i];
		v[i].arrays = dup_bytes(p[i].arrays, p[i].narrays * sizeof *p[i].arrays);
		if (!v[i].arrays) {
			for (size_t j = 0; j < i; j++)
				free(v[j].arrays);
			free(v);
			return NULL;
		}
	}
	return v;
}

emu_hazard_saved *emu_hazard_save(const emu_hazards *h)
{
	emu_hazard_saved *v = calloc(1, sizeof *v);
	if (!v)
		return NULL;
	v->nmasks = h->nmasks;
	v->cap_slots = h->cap_slots;
	v->npend = h->npend;
	v->n = h->n;
	memcpy(v->count, h->count, sizeof v->count);
	v->masks = dup_bytes(h->masks, h->nmasks * h->wpa * sizeof *h->masks);
	v->slots = dup_bytes(h->slots, h->cap_slots * sizeof *h->slots);
	v->pend = dup_pending(h->pend, h->npend);
	v->list = dup_bytes(h->list, h->n * sizeof *h->list);
	if (!v->masks || !v->slots || !v->pend || !v->list) {
		emu_hazard_saved_free(v);
		return NULL;
	}
	return v;
}

void *emu_hazard_cells(emu_hazards *h, size_t *bytes)
{
	*bytes = h->cells_bytes;
	return h->cells;
}

void emu_hazard_cells_changed(emu_hazards *h)
{
	memset(h->nfull, 0, h->W * sizeof *h->nfull);
	for (size_t a = 0; a < h->narrays; a++)
		for (unsigned i = 0; i < h->fullw; i++)
			for (uint64_t b = h->fullbits[a * h->fullw + i]; b; b &= b - 1)
				h->nfull[64 * i + (unsigned)__builtin_ctzll(b)]++;
}

size_t emu_hazard_saved_bytes(const emu_hazard_saved *v)
{
	size_t b = sizeof *v + v->nmasks * MASK_WORDS * 8 + v->cap_slots * 4 +
		   v->n * sizeof *v->list + v->npend * sizeof *v->pend;
	for (size_t i = 0; i < v->npend; i++)
		b += v->pend[i].narrays * sizeof *v->pend[i].arrays;
	return b;
}

/* Take the saved tables in place of h's (the cells are snap.c's). */
int emu_hazard_restore(emu_hazards *h, const emu_hazard_saved *v)
{
	const size_t cap_masks = v->nmasks > 16 ? v->nmasks : 16;
	uint64_t *masks = calloc(cap_masks * h->wpa, sizeof *masks);
	uint32_t *slots = dup_bytes(v->slots, v->cap_slots * sizeof *v->slots);
	struct pending *pend = dup_pending(v->pend, v->npend);
	emu_hazard *list = dup_bytes(v->list, v->n * sizeof *v->list);
	if (!masks || !slots || !pend || !list) {
		free(masks);
		free(slots);
		for (size_t i = 0; pend && i < v->npend; i++)
			free(pend[i].arrays);
		free(pend);
		free(list);
		return -1;
	}
	memcpy(masks, v->masks, v->nmasks * h->wpa * sizeof *masks);
	drop_pending(h);
	free(h->pend);
	free(h->masks);
	free(h->slots);
	free(h->list);
	h->masks = masks;
	h->nmasks = v->nmasks;
	h->cap_masks = cap_masks;
	h->slots = v->cap_slots ? slots : (free(slots), NULL);
	h->cap_slots = v->cap_slots;
	h->pend = pend;
	h->npend = h->cap_pend = v->npend;
	for (size_t i = 0; i < h->npend; i++)
		for (size_t j = 0; j < h->pend[i].narrays; j++)
			h->pend_count[h->pend[i].arrays[j]]++;
	h->list = list;
	h->n = h->cap = v->n;
	memcpy(h->count, v->count, sizeof h->count);
	return 0;
}
