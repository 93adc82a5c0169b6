/* SPDX-License-Identifier: MIT */
/*
 * ref_move.c: the reference's moves (infinity-stream §4.2), on its rows.
 *
 * Written apart from move.c, after the scalar model of tests/test_move.c:
 * the schedule of move.h moves wordlines upwards, and each wordline step
 * reads every source before it writes any destination; bits bound for
 * another bank are held until the next sync and land then, in the order
 * they were sent.  On rows that schedule is direct: step k reads row
 * wl + k of each source array (a copy of it, when a write of the same
 * step could change it) and writes row dst_wl + k of each destination,
 * the bitlines of the move's pairs taking their sources' bits.
 */
#include "ref_private.h"

#include <stdlib.h>
#include <string.h>

/* The bitline pairs of a move, source to destination, in order; when the
 * sources are consecutive and every destination is its source moved by
 * the same amount, the whole range moves as one shifted bit field. */
typedef struct ref_map {
	const unsigned *src, *dst;
	uint64_t n;
	bool field;             /* bits [from, from + n) -> [to, to + n) */
	unsigned from, to;
	uint64_t dmask[SRAM_MAX_DIM / 64]; /* the destination bitlines */
} ref_map;

static void map_init(ref_map *mp, const unsigned *src, const unsigned *dst, uint64_t n,
		     unsigned rw)
{
	mp->src = src;
	mp->dst = dst;
	mp->n = n;
	mp->field = n > 0;
	mp->from = n ? src[0] : 0;
	mp->to = n ? dst[0] : 0;
	memset(mp->dmask, 0, rw * sizeof *mp->dmask);
	for (uint64_t j = 0; j < n; j++) {
		mp->field = mp->field && src[j] == mp->from + j && dst[j] == mp->to + j;
		mp->dmask[dst[j] / 64] |= UINT64_C(1) << (dst[j] % 64);
	}
}

/* Bits [pos, pos + 64) of a row of rw words (zero outside it). */
static uint64_t bits64(const uint64_t *row, unsigned rw, int64_t pos)
{
	if (pos <= -64 || pos >= (int64_t)rw * 64)
		return 0;
	if (pos < 0)
		return row[0] << -pos;
	const unsigned w = (unsigned)(pos / 64), sh = (unsigned)(pos % 64);
	uint64_t v = row[w] >> sh;
	if (sh && w + 1 < rw)
		v |= row[w + 1] << (64 - sh);
	return v;
}

/* dst := the move's bits of src (a row each): the destination bitlines
 * take their sources' bits, the others keep theirs; a later pair wins
 * over an earlier one with the same destination. */
static void map_row(const ref_map *mp, uint64_t *dst, const uint64_t *src, unsigned rw)
{
	if (mp->field) {
		for (unsigned w = mp->to / 64; w < rw && w * 64 < mp->to + mp->n; w++) {
			const uint64_t v = bits64(src, rw, (int64_t)w * 64 - mp->to + mp->from);
			dst[w] = (dst[w] & ~mp->dmask[w]) | (v & mp->dmask[w]);
		}
		return;
	}
	for (uint64_t j = 0; j < mp->n; j++) {
		const unsigned s = mp->src[j], d = mp->dst[j];
		const uint64_t bit = UINT64_C(1) << (d % 64);
		dst[d / 64] = (src[s / 64] >> (s % 64) & 1) ? dst[d / 64] | bit : dst[d / 64] & ~bit;
	}
}

static int ref_oom(const emu_ref *r, const emu_move *m, diag *d)
{
	diag_at(d, r->p->path, m->line, 0, "out of memory in the reference model");
	return -1;
}

/* Room for n rows in the step's copy of its sources. */
static uint64_t *snap_rows(emu_ref *r, uint64_t n)
{
	const size_t want = (size_t)(n ? n : 1) * r->rw;
	if (want > r->cap_snap) {
		uint64_t *ns = realloc(r->snap, want * sizeof *ns);
		if (!ns)
			return NULL;
		r->snap = ns;
		r->cap_snap = want;
	}
	return r->snap;
}

/* Intra-array shift: bitline b -> b + dist in each array, once per array
 * however often the pattern names it.  The source and destination rows
 * of a step may be the same row, so the source row is copied first. */
static int ref_intra(emu_ref *r, const emu_move *m, diag *d)
{
	uint64_t na, nb;
	const unsigned *arr = emu_ref_expand(r, 0, &m->arrays, &na);
	const unsigned *bl = emu_ref_expand(r, 1, &m->bitlines, &nb);
	unsigned *dbl = (unsigned *)emu_ref_expand(r, 2, &m->bitlines, &nb);
	uint64_t *src = snap_rows(r, 1);
	if (!arr || !bl || !dbl || !src)
		return ref_oom(r, m, d);
	for (uint64_t j = 0; j < nb; j++)
		dbl[j] = (unsigned)(bl[j] + m->dist);
	ref_map mp;
	map_init(&mp, bl, dbl, nb, r->rw);
	memset(r->sel_arr, 0, r->narrays);
	for (uint64_t i = 0; i < na; i++) {
		const unsigned a = arr[i];
		if (r->sel_arr[a]++)
			continue;
		uint64_t *rows = emu_ref_rows(r, a, true);
		emu_ref_mark(r, a, m->dst_wl, m->nwl);
		for (unsigned k = 0; k < m->nwl; k++) {
			memcpy(src, rows + (m->wl + k) * r->rs, r->rw * sizeof *src);
			map_row(&mp, rows + (m->dst_wl + k) * r->rs, src, r->rw);
		}
	}
	return 0;
}

static unsigned ref_bank(const emu_ref *r, unsigned a)
{
	return a / (r->p->geom.arrays_per_way * r->p->geom.ways_per_bank);
}

static int pend_push(emu_ref *r, unsigned a, unsigned wl, unsigned w, uint64_t mask,
		     uint64_t bits)
{
	if (r->npend == r->cap_pend) {
		size_t cap = r->cap_pend ? 2 * r->cap_pend : 1024;
		struct emu_ref_pend *np = realloc(r->pend, cap * sizeof *np);
		if (!np)
			return -1;
		r->pend = np;
		r->cap_pend = cap;
	}
	r->pend[r->npend++] = (struct emu_ref_pend){a, wl, w, mask, bits};
	return 0;
}

/* Must a step's source rows be copied before any destination is written?
 * Only when the source and destination rows are the same and a
 * destination array is also a source array. */
static bool transfer_chains(emu_ref *r, const emu_move *m, const unsigned *arr, uint64_t na)
{
	const uint64_t copies = m->kind == EMU_MOVE_BCAST ? m->reuse_count : 1;
	bool hit = false;
	if (m->dst_wl != m->wl)
		return false;
	memset(r->sel_arr, 0, r->narrays);
	for (uint64_t i = 0; i < na; i++)
		r->sel_arr[arr[i]] = 1;
	for (uint64_t i = 0; i < na && !hit; i++)
		for (uint64_t c = 0; c < copies && !hit; c++) {
			const int64_t to = arr[i] + m->dist + (int64_t)c * m->reuse_stride;
			hit = to >= 0 && (uint64_t)to < r->narrays && r->sel_arr[to];
		}
	return hit;
}

/* One source row's bits into array `to`, row dwl: written now in the same
 * bank, held for the sync in another (one entry per word it touches). */
static int transfer_row(emu_ref *r, const ref_map *mp, unsigned from, unsigned to,
			unsigned dwl, const uint64_t *src)
{
	if (ref_bank(r, to) == ref_bank(r, from)) {
		map_row(mp, emu_ref_rows(r, to, true) + dwl * r->rs, src, r->rw);
		return 0;
	}
	uint64_t bits[SRAM_MAX_DIM / 64] = {0};
	map_row(mp, bits, src, r->rw);
	for (unsigned w = 0; w < r->rw; w++)
		if (mp->dmask[w] && pend_push(r, to, dwl, w, mp->dmask[w], bits[w]))
			return -1;
	return 0;
}

/* Step k of an inter-array shift or broadcast: every source array's row
 * wl + k (copied first when the step chains) to each of its copies. */
static int transfer_step(emu_ref *r, const emu_move *m, const ref_map *mp,
			 const unsigned *arr, uint64_t na, bool chains, unsigned k)
{
	static const uint64_t zero[SRAM_MAX_DIM / 64];
	const uint64_t copies = m->kind == EMU_MOVE_BCAST ? m->reuse_count : 1;
	const unsigned swl = m->wl + k;
	for (uint64_t i = 0; chains && i < na; i++) {
		const uint64_t *rows = emu_ref_rows(r, arr[i], false);
		memcpy(r->snap + i * r->rw, rows ? rows + swl * r->rs : zero,
		       r->rw * sizeof *r->snap);
	}
	for (uint64_t i = 0; i < na; i++) {
		const uint64_t *rows = emu_ref_rows(r, arr[i], false);
		const uint64_t *src = chains ? r->snap + i * r->rw
				      : rows ? rows + swl * r->rs : zero;
		for (uint64_t c = 0; c < copies; c++) {
			const unsigned to = (unsigned)(arr[i] + m->dist + (int64_t)c * m->reuse_stride);
			if (transfer_row(r, mp, arr[i], to, m->dst_wl + k, src))
				return -1;
		}
	}
	return 0;
}

/* Inter-array shift (copies 1) and broadcast (reuse_count copies). */
static int ref_transfer(emu_ref *r, const emu_move *m, diag *d)
{
	uint64_t na, nb, nd;
	const unsigned *arr = emu_ref_expand(r, 0, &m->arrays, &na);
	const unsigned *bl = emu_ref_expand(r, 1, &m->bitlines, &nb);
	const unsigned *dbl = emu_ref_expand(r, 2, &m->dst_bitlines, &nd);
	if (!arr || !bl || !dbl)
		return ref_oom(r, m, d);
	ref_map mp;
	map_init(&mp, bl, dbl, nb < nd ? nb : nd, r->rw);
	const bool chains = transfer_chains(r, m, arr, na);
	if (chains && !snap_rows(r, na))
		return ref_oom(r, m, d);
	const uint64_t copies = m->kind == EMU_MOVE_BCAST ? m->reuse_count : 1;
	for (uint64_t i = 0; i < na; i++)
		for (uint64_t c = 0; c < copies; c++) {
			const unsigned to = (unsigned)(arr[i] + m->dist + (int64_t)c * m->reuse_stride);
			if (ref_bank(r, to) == ref_bank(r, arr[i]))
				emu_ref_mark(r, to, m->dst_wl, m->nwl);
		}
	for (unsigned k = 0; k < m->nwl; k++)
		if (transfer_step(r, m, &mp, arr, na, chains, k))
			return ref_oom(r, m, d);
	return 0;
}

/* A constant: wordline wl + k of every selected bitline := bit k. */
static int ref_const(emu_ref *r, const emu_move *m, diag *d)
{
	uint64_t na, nb;
	const unsigned *arr = emu_ref_expand(r, 0, &m->arrays, &na);
	const unsigned *bl = emu_ref_expand(r, 1, &m->bitlines, &nb);
	if (!arr || !bl)
		return ref_oom(r, m, d);
	uint64_t mask[SRAM_MAX_DIM / 64] = {0};
	for (uint64_t j = 0; j < nb; j++)
		mask[bl[j] / 64] |= UINT64_C(1) << (bl[j] % 64);
	for (uint64_t i = 0; i < na; i++) {
		uint64_t *rows = emu_ref_rows(r, arr[i], true);
		emu_ref_mark(r, arr[i], m->wl, m->nwl);
		for (unsigned k = 0; k < m->nwl; k++) {
			uint64_t *row = rows + (m->wl + k) * r->rs;
			for (unsigned w = 0; w < r->rw; w++)
				row[w] = m->value >> k & 1 ? row[w] | mask[w] : row[w] & ~mask[w];
		}
	}
	return 0;
}

/* The sync: every held word lands, in the order it was sent. */
static void ref_sync(emu_ref *r)
{
	for (size_t i = 0; i < r->npend; i++) {
		const struct emu_ref_pend *q = &r->pend[i];
		uint64_t *x = emu_ref_rows(r, q->array, true) + q->wordline * r->rs + q->word;
		*x = (*x & ~q->mask) | (q->bits & q->mask);
		emu_ref_mark(r, q->array, q->wordline, 1);
	}
	r->npend = 0;
}

int emu_ref_move(emu_ref *r, const emu_move *m, diag *d)
{
	switch (m->kind) {
	case EMU_MOVE_INTRA:
		return ref_intra(r, m, d);
	case EMU_MOVE_INTER:
	case EMU_MOVE_BCAST:
		return ref_transfer(r, m, d);
	case EMU_MOVE_CONST:
		return ref_const(r, m, d);
	default:
		ref_sync(r);
		return 0;
	}
}
