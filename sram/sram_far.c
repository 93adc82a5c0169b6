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

#include <stdbool.h>
#include <string.h>

#define FAR_WORDS (SRAM_MAX_DIM / 64)

/* out = in shifted by s >= 1 bitlines inside one array of wpa words
 * (up: towards higher bitlines), zeros entering, bits above B cleared
 * (tail: the mask of the array's last word).  out must not be in. */
static void far_shift(const uint64_t *in, uint64_t *out, unsigned wpa,
		      unsigned s, bool up, uint64_t tail)
{
	const unsigned q = s / 64, r = s % 64;
	/* Down, the bits a narrow array's steps can bring in: 0..B. */
	const uint64_t top = tail == ~UINT64_C(0) ? tail : tail | (tail + 1);
	for (unsigned k = 0; k < wpa; k++) {
		uint64_t v = 0;
		if (up && k >= q) {
			v = in[k - q] << r;
			if (r && k > q)
				v |= in[k - q - 1] >> (64 - r);
		} else if (!up && k + q < wpa) {
			const unsigned j = k + q;
			v = (in[j] & (j + 1 == wpa ? top : ~UINT64_C(0))) >> r;
			if (r && j + 1 < wpa)
				v |= (in[j + 1] & (j + 2 == wpa ? top : ~UINT64_C(0)))
				     << (64 - r);
		}
		out[k] = v;
	}
	out[wpa - 1] &= tail;
}

/* row = v where e is set, row elsewhere (a gated write). */
static void far_write(uint64_t *row, const uint64_t *v, const uint64_t *e,
		      unsigned wpa)
{
	for (unsigned k = 0; k < wpa; k++)
		row[k] = (row[k] & ~e[k]) | (v[k] & e[k]);
}

/* Does e enable every bitline of the array, and no bits above B of
 * scratch lie outside it that a downward step would bring in? */
static bool far_whole(const uint64_t *e, const uint64_t *scratch,
		      unsigned wpa, bool up, uint64_t tail)
{
	for (unsigned k = 0; k + 1 < wpa; k++)
		if (e[k] != ~UINT64_C(0))
			return false;
	const uint64_t last = e[wpa - 1];
	return (last & tail) == tail && (up || !(scratch[wpa - 1] & ~tail & ~last));
}

/* The steps into the scratch row of one array (words at off of the
 * way's rows), through its enable e. */
static void far_steps(const sram_machine *m, sram_way *w, size_t off,
		      const sram_far *f, const uint64_t *e)
{
	const unsigned wpa = m->wpa, steps = (unsigned)(f->dist < 0 ? -f->dist : f->dist);
	const bool up = f->dist > 0;
	const uint64_t *src = w->rows + (size_t)f->src * m->stride + off;
	uint64_t *scr = w->rows + (size_t)f->scratch * m->stride + off;
	uint64_t t[FAR_WORDS];
	bool any = false;
	for (unsigned k = 0; k < wpa; k++)
		any = any || e[k];
	if (!any)
		return;
	if (far_whole(e, scr, wpa, up, m->tail)) {
		far_shift(src, t, wpa, steps - 1, up, m->tail);
		far_write(scr, t, e, wpa);
		return;
	}
	for (unsigned s = 0; s + 1 < steps; s++) {
		far_shift(s ? scr : src, t, wpa, 1, up, m->tail);
		far_write(scr, t, e, wpa);
	}
}

/* The last step of one array: dst <- scratch shifted once, through e. */
static void far_last(const sram_machine *m, sram_way *w, size_t off,
		     const sram_far *f, unsigned dst, const uint64_t *e)
{
	const unsigned wpa = m->wpa;
	uint64_t t[FAR_WORDS];
	bool any = false;
	for (unsigned k = 0; k < wpa; k++)
		any = any || e[k];
	if (!any)
		return;
	far_shift(w->rows + (size_t)f->scratch * m->stride + off, t, wpa, 1,
		  f->dist > 0, m->tail);
	far_write(w->rows + (size_t)dst * m->stride + off, t, e, wpa);
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

static void far_enable(sram_machine *m, const sram_far *f, const uint64_t *mask)
{
	for (size_t i = 0; i < f->narrays; i++)
		memcpy(sram_latch_words(m, f->arrays[i], SRAM_ENABLE), mask,
		       m->wpa * sizeof *mask);
}

void sram_far_run(sram_machine *m, unsigned first, unsigned count,
		  const uint8_t *way_on, const sram_far *f)
{
	const unsigned end = first + count < m->nways ? first + count : m->nways;
	const unsigned apw = m->g.arrays_per_way, wpa = m->wpa;
	sram_far g = *f;
	for (unsigned k = 0; k < f->nwl; k++) {
		g.src = f->src + k;
		far_enable(m, f, f->first);
		for (unsigned w = first; w < end; w++)
			for (unsigned j = 0; (!way_on || way_on[w]) && j < apw; j++)
				far_steps(m, &m->ways[w], (size_t)j * wpa, &g,
					  m->ways[w].enable + (size_t)j * wpa);
		far_enable(m, f, f->last);
		for (unsigned w = first; w < end; w++) {
			sram_way *y = &m->ways[w];
			if (way_on && !way_on[w])
				continue;
			if (k + 1 == f->nwl)
				far_record(m, y, f->scratch);
			for (unsigned j = 0; j < apw; j++)
				far_last(m, y, (size_t)j * wpa, f, f->dst + k,
					 y->enable + (size_t)j * wpa);
			y->last_dst = (uint16_t)(f->dst + k);
		}
	}
}
