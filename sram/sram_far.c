/* SPDX-License-Identifier: MIT */
/*
 * sram_far.c: a shift by two bitlines or more in one pass; see
 * sram_far.h.
 *
 * Why it is exact.  A SHUP or SHDOWN step moves each bit of an array by
 * one bitline, zeros entering at the array's edge, the bit leaving it
 * dropped, and keeps only the array's B bitlines (the `keep` masks of
 * sram_exec.c; pe.def).  Steps never mix arrays, so a way's shift is its
 * arrays' shifts, each on its own words.  With the enable covering all
 * of an array's bitlines, |dist| - 1 steps into the scratch row are one
 * shift by |dist| - 1: up, bit i comes from bit i - s; down, from bit i
 * + s while i + s <= B (the first step reads bit B of a narrow array's
 * word, which a bitline's neighbour past the edge holds: 0 on a machine
 * that writes only its arrays' bits, but read as the step reads it).
 * Anything else (a partial enable, bits above B in the scratch row that
 * later downward steps would bring in) is done step by step, on that
 * array's words only.
 */
#include "sram_far.h"
#include "sram_vec.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define FAR_WORDS (SRAM_MAX_DIM / 64)

/* A shift by s bitlines: q words and r bits. */
struct far_by {
	unsigned q, r;
	bool up;
};

/* out = in shifted by b inside one array of wpa words (up: towards
 * higher bitlines), zeros entering, bits above B cleared (tail: the
 * mask of the array's last word).  out must not be in.  ((x >> 1) >>
 * (63 - r) is x >> (64 - r), and 0 for r = 0.) */
static ALWAYS_INLINE void far_shift(const uint64_t *in, uint64_t *out, unsigned wpa,
			     struct far_by b, uint64_t tail)
{
	const unsigned q = b.q, r = b.r;
	if (b.up) {
		for (unsigned k = 0; k < wpa && k < q; k++)
			out[k] = 0;
		for (unsigned k = q; k < wpa; k++)
			out[k] = in[k - q] << r |
				 (k > q ? (in[k - q - 1] >> 1) >> (63 - r) : 0);
		out[wpa - 1] &= tail;
		return;
	}
	/* Down, the bits a narrow array's steps can bring in: 0..B. */
	const uint64_t top = tail == ~UINT64_C(0) ? tail : tail | (tail + 1);
	for (unsigned k = 0; k < wpa; k++) {
		const unsigned j = k + q;
		uint64_t lo = j < wpa ? in[j] : 0, hi = j + 1 < wpa ? in[j + 1] : 0;
		if (j + 1 == wpa)
			lo &= top;
		if (j + 2 == wpa)
			hi &= top;
		out[k] = lo >> r | (hi << 1) << (63 - r);
	}
	out[wpa - 1] &= tail;
}

/* row = v where e is set, row elsewhere (a gated write). */
static ALWAYS_INLINE void far_write(uint64_t *row, const uint64_t *v, const uint64_t *e,
			     unsigned wpa)
{
	for (unsigned k = 0; k < wpa; k++)
		row[k] = (row[k] & ~e[k]) | (v[k] & e[k]);
}

/* One array of the ways run: its enable for the steps into the scratch
 * row and for the last step, and what they enable. */
enum far_kind { FAR_OFF, FAR_WHOLE, FAR_PART };
struct far_arr {
	const uint64_t *e1, *e2;
	uint8_t k1;  /* enum far_kind of e1 */
	bool on2;    /* e2 enables a bitline */
};

static enum far_kind far_kind_of(const uint64_t *e, unsigned wpa, uint64_t tail)
{
	uint64_t any = 0, all = ~UINT64_C(0);
	for (unsigned k = 0; k + 1 < wpa; k++) {
		any |= e[k];
		all &= e[k];
	}
	any |= e[wpa - 1];
	if (!any)
		return FAR_OFF;
	return all == ~UINT64_C(0) && (e[wpa - 1] & tail) == tail ? FAR_WHOLE : FAR_PART;
}

/* The steps into the scratch row of one array (words at off of the
 * way's rows).  A whole enable is one shift, unless a downward shift
 * would bring in bits above B that the enable leaves in the scratch
 * row; else step by step. */
static void far_steps(const sram_machine *m, sram_way *w, size_t off,
		      const sram_far *f, unsigned src, const struct far_arr *A)
{
	const unsigned wpa = m->wpa, steps = (unsigned)(f->dist < 0 ? -f->dist : f->dist);
	const bool up = f->dist > 0;
	const uint64_t *in = w->rows + (size_t)src * m->stride + off, *e = A->e1;
	uint64_t *scr = w->rows + (size_t)f->scratch * m->stride + off;
	uint64_t t[FAR_WORDS] = {0}; /* every word is written; zeroed for -Wmaybe-uninitialized */
	if (A->k1 == FAR_WHOLE && (up || !(scr[wpa - 1] & ~m->tail & ~e[wpa - 1]))) {
		far_shift(in, t, wpa, (struct far_by){(steps - 1) / 64, (steps - 1) % 64, up},
			  m->tail);
		far_write(scr, t, e, wpa);
		return;
	}
	for (unsigned s = 0; s + 1 < steps; s++) {
		far_shift(s ? scr : in, t, wpa, (struct far_by){0, 1, up}, m->tail);
		far_write(scr, t, e, wpa);
	}
}

/* The last step of one array: dst <- scratch shifted once, through e2. */
static void far_last(const sram_machine *m, sram_way *w, size_t off,
		     const sram_far *f, unsigned dst, const struct far_arr *A)
{
	const unsigned wpa = m->wpa;
	uint64_t t[FAR_WORDS] = {0};
	far_shift(w->rows + (size_t)f->scratch * m->stride + off, t, wpa,
		  (struct far_by){0, 1, f->dist > 0}, m->tail);
	far_write(w->rows + (size_t)dst * m->stride + off, t, A->e2, wpa);
}

/* What the last step senses: the scratch row, on every bitline of the
 * way (sram_exec.c's record_sense). */
static void far_record(const sram_machine *m, sram_way *w, unsigned scratch)
{
	const uint64_t *r = w->rows + (size_t)scratch * m->stride;
	for (unsigned k = 0; k < m->stride; k++) {
		w->bl[k] = r[k];
		w->blb[k] = ~r[k];
	}
	if (m->tail != ~UINT64_C(0))
		for (unsigned k = m->wpa - 1; k < m->stride; k += m->wpa)
			w->blb[k] &= m->tail;
	memset(w->last_act, 0, sizeof w->last_act);
	w->last_act[0] = (uint16_t)scratch;
	w->last_nact = 1;
	w->last_set = 0;
}

/* A whole array's wordline at once, when its steps into the scratch row
 * are one shift (far_steps): the scratch row gets src shifted by |dist|
 * - 1, and the last step, which shifts that once more, gives src
 * shifted by |dist| (the bits it drops, above B, are those the steps
 * drop too), so both come from src before either row is written (src,
 * scratch and dst may be the same row).  False, doing nothing, when
 * the array needs the steps one at a time.  wpa is a constant in the
 * common cases (far_way), so the loops unroll. */
static ALWAYS_INLINE bool far_fused(const sram_machine *m, sram_way *w, size_t off,
				    const sram_far *f, unsigned k,
				    const struct far_arr *A, unsigned wpa)
{
	const unsigned steps = (unsigned)(f->dist < 0 ? -f->dist : f->dist);
	const bool up = f->dist > 0;
	const uint64_t *in = w->rows + (size_t)(f->src + k) * m->stride + off;
	uint64_t *scr = w->rows + (size_t)f->scratch * m->stride + off;
	uint64_t t[FAR_WORDS] = {0}, u[FAR_WORDS] = {0};
	if (A->k1 != FAR_WHOLE || (!up && (scr[wpa - 1] & ~m->tail & ~A->e1[wpa - 1])))
		return false;
	far_shift(in, t, wpa, (struct far_by){(steps - 1) / 64, (steps - 1) % 64, up}, m->tail);
	if (A->on2)
		far_shift(in, u, wpa, (struct far_by){steps / 64, steps % 64, up}, m->tail);
	far_write(scr, t, A->e1, wpa);
	if (A->on2)
		far_write(w->rows + (size_t)(f->dst + k) * m->stride + off, u, A->e2, wpa);
	return true;
}

/* Every wordline of f on way w (arrays A[0..apw)), wpa words an array.
 * The last wordline runs in two phases, the steps then the last step,
 * so the sense record sees the scratch row between them. */
static ALWAYS_INLINE void far_way_n(const sram_machine *m, sram_way *w,
				    const sram_far *f, const struct far_arr *A,
				    unsigned wpa)
{
	const unsigned apw = m->g.arrays_per_way;
	for (unsigned k = 0; k + 1 < f->nwl; k++) {
		for (unsigned j = 0; j < apw; j++) {
			if (A[j].k1 == FAR_OFF ||
			    far_fused(m, w, (size_t)j * wpa, f, k, &A[j], wpa))
				continue;
			far_steps(m, w, (size_t)j * wpa, f, f->src + k, &A[j]);
			if (A[j].on2)
				far_last(m, w, (size_t)j * wpa, f, f->dst + k, &A[j]);
		}
		for (unsigned j = 0; j < apw; j++)
			if (A[j].k1 == FAR_OFF && A[j].on2)
				far_last(m, w, (size_t)j * wpa, f, f->dst + k, &A[j]);
	}
	const unsigned k = f->nwl - 1;
	for (unsigned j = 0; j < apw; j++)
		if (A[j].k1 != FAR_OFF)
			far_steps(m, w, (size_t)j * wpa, f, f->src + k, &A[j]);
	far_record(m, w, f->scratch);
	for (unsigned j = 0; j < apw; j++)
		if (A[j].on2)
			far_last(m, w, (size_t)j * wpa, f, f->dst + k, &A[j]);
	w->last_dst = (uint16_t)(f->dst + k);
}

static void far_way(const sram_machine *m, sram_way *w, const sram_far *f,
		    const struct far_arr *A)
{
	if (m->wpa == 4) /* 256 bitlines, the default machine */
		far_way_n(m, w, f, A, 4);
	else
		far_way_n(m, w, f, A, m->wpa);
}

/* The enables of ways first..end-1's arrays: their latches, or f's two
 * masks for f's arrays. */
static void far_plan(const sram_machine *m, unsigned first, unsigned end,
		     const sram_far *f, struct far_arr *A)
{
	const unsigned apw = m->g.arrays_per_way, wpa = m->wpa;
	const size_t a0 = (size_t)first * apw, a1 = (size_t)end * apw;
	for (size_t a = a0; a < a1; a++) {
		const uint64_t *e = m->ways[a / apw].enable + (a % apw) * wpa;
		A[a - a0] = (struct far_arr){e, e, 0, false};
	}
	for (size_t i = 0; i < f->narrays; i++)
		if (f->arrays[i] >= a0 && f->arrays[i] < a1) {
			A[f->arrays[i] - a0].e1 = f->first;
			A[f->arrays[i] - a0].e2 = f->last;
		}
	for (size_t a = 0; a < a1 - a0; a++) {
		A[a].k1 = (uint8_t)far_kind_of(A[a].e1, wpa, m->tail);
		A[a].on2 = far_kind_of(A[a].e2, wpa, m->tail) != FAR_OFF;
	}
}

int sram_far_run(sram_machine *m, unsigned first, unsigned count,
		 const uint8_t *way_on, const sram_far *f)
{
	const unsigned end = first + count < m->nways ? first + count : m->nways;
	const unsigned apw = m->g.arrays_per_way;
	if (f->nwl == 0)
		return 0;
	struct far_arr *A = NULL;
	if (first < end) {
		A = malloc((size_t)(end - first) * apw * sizeof *A);
		if (!A)
			return -1;
		far_plan(m, first, end, f, A);
	}
	for (unsigned w = first; w < end; w++)
		if (!way_on || way_on[w])
			far_way(m, &m->ways[w], f, A + (size_t)(w - first) * apw);
	/* The controller leaves the last step's enable set. */
	for (size_t i = 0; i < f->narrays; i++)
		memcpy(sram_latch_words(m, f->arrays[i], SRAM_ENABLE), f->last,
		       m->wpa * sizeof *f->last);
	free(A);
	return 0;
}
