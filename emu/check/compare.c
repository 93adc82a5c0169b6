/* SPDX-License-Identifier: MIT */
/*
 * compare.c: the machine against the scalar reference (check.h): buffer
 * by buffer, both sides read whole, each placing the buffer's elements
 * once, the first differing element kept; and row by row, since the
 * reference holds its cells in the machine's layout (refmodel.h), as
 * whole rows, a cell named only once rows differ.
 */
#include "check.h"

#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

bool emu_ref_compare(const emu_ref *r, const emu_machine *em,
		     const emu_buffer *b, emu_mismatch *mm)
{
	uint64_t *got = malloc(b->length * sizeof *got);
	uint64_t *want = got ? malloc(b->length * sizeof *want) : NULL;
	if (!want) {
		/* Fall back to one element at a time. */
		free(got);
		for (uint64_t i = 0; i < b->length; i++) {
			uint64_t e = emu_ref_get(r, b, i), g = emu_elem_get(em, b, i);
			if (e != g) {
				*mm = (emu_mismatch){b, i, e, g};
				return false;
			}
		}
		return true;
	}
	emu_buffer_read(em, b, got);
	emu_ref_read(r, b, want);
	bool same = memcmp(got, want, b->length * sizeof *got) == 0;
	for (uint64_t i = 0; !same && i < b->length; i++)
		if (want[i] != got[i]) {
			*mm = (emu_mismatch){b, i, want[i], got[i]};
			break;
		}
	free(got);
	free(want);
	return same;
}

/* The first differing cell of rows [lo, hi) of array a, in the order
 * the comparison names cells: 64-row blocks upwards, in each block the
 * lowest bitline that differs on any of its rows, then its lowest such
 * row.  A reference array never written reads as zero. */
static void first_cell(const emu_ref *r, const sram_machine *m, unsigned a, unsigned lo,
		       unsigned hi, emu_cell_mismatch *cm)
{
	const unsigned rw = emu_ref_row_words(r);
	const uint64_t last = m->g.bitlines % 64 ? (UINT64_C(1) << m->g.bitlines % 64) - 1
						 : ~UINT64_C(0);
	for (unsigned blk = lo / 64 * 64; blk < hi; blk += 64) {
		const unsigned r0 = lo > blk ? lo : blk, r1 = hi < blk + 64 ? hi : blk + 64;
		for (unsigned w = 0; w < rw; w++) {
			uint64_t any = 0;
			for (unsigned wl = r0; wl < r1; wl++) {
				const uint64_t *want = emu_ref_row(r, a, wl);
				any |= sram_row((sram_machine *)m, a, wl)[w] ^ (want ? want[w] : 0);
			}
			if (w == rw - 1)
				any &= last;
			if (!any)
				continue;
			const unsigned j = (unsigned)__builtin_ctzll(any);
			for (unsigned wl = r0; wl < r1; wl++) {
				const uint64_t *want = emu_ref_row(r, a, wl);
				const unsigned e = want ? (unsigned)(want[w] >> j & 1) : 0;
				const unsigned g = (unsigned)(sram_row((sram_machine *)m, a, wl)[w] >> j & 1);
				if (e != g) {
					*cm = (emu_cell_mismatch){a, 64 * w + j, wl, e, g};
					return;
				}
			}
		}
	}
}

typedef void rows_fn(const emu_ref *r, size_t k, unsigned *array, unsigned *wl,
		     unsigned *end);

enum { ROWS_AHEAD = 4 };

/* Entry k of the row set `at`: its rows of its array, whole rows at a
 * time; only when they differ is the first differing cell looked for. */
static bool entry_same(const emu_ref *r, const sram_machine *m, size_t k, rows_fn *at,
		       emu_cell_mismatch *cm)
{
	const unsigned rw = emu_ref_row_words(r);
	const uint64_t last = m->g.bitlines % 64 ? (UINT64_C(1) << m->g.bitlines % 64) - 1
						 : ~UINT64_C(0);
	unsigned a, lo, hi;
	at(r, k, &a, &lo, &hi);
	uint64_t diff = 0;
	for (unsigned wl = lo; wl < hi; wl++) {
		const uint64_t *got = sram_row((sram_machine *)m, a, wl);
		const uint64_t *want = emu_ref_row(r, a, wl);
#if defined(__GNUC__)
		/* An array's rows lie a way's row apart in both stores, which
		 * the hardware's prefetcher does not follow: ask for the rows
		 * a few on while these are compared. */
		if (wl + ROWS_AHEAD < hi) {
			const uint64_t *w2 = emu_ref_row(r, a, wl + ROWS_AHEAD);
			__builtin_prefetch(sram_row((sram_machine *)m, a, wl + ROWS_AHEAD));
			if (w2)
				__builtin_prefetch(w2);
		}
#endif
		for (unsigned w = 0; w + 1 < rw; w++)
			diff |= got[w] ^ (want ? want[w] : 0);
		diff |= (got[rw - 1] ^ (want ? want[rw - 1] : 0)) & last;
	}
	if (!diff)
		return true;
	if (cm)
		first_cell(r, m, a, lo, hi, cm);
	return false;
}

/* Threads for n entries: the count --threads set, or OpenMP's; one for
 * a few entries, where a team costs more than it saves. */
static int compare_threads(size_t n)
{
#ifdef _OPENMP
	const int set = sram_get_threads();
	const int nt = set ? set : omp_get_max_threads();
	return n < 64 || nt < 1 ? 1 : nt;
#else
	(void)n;
	return 1;
#endif
}

/* Entries are compared on several threads; the first differing one in
 * the set's order is then compared again alone, so the cell named is
 * the same whatever the threads. */
static bool rows_same(const emu_ref *r, const emu_machine *em, size_t n, rows_fn *at,
		      emu_cell_mismatch *cm)
{
	const sram_machine *m = em->m;
	const int nt = compare_threads(n);
	size_t first = n;
	(void)nt;
#pragma omp parallel for schedule(dynamic, 16) num_threads(nt) if (nt > 1) reduction(min : first)
	for (size_t k = 0; k < n; k++)
		if (k < first && !entry_same(r, m, k, at, NULL))
			first = k;
	return first == n || entry_same(r, m, first, at, cm);
}

bool emu_ref_compare_written(const emu_ref *r, const emu_machine *em,
			     emu_cell_mismatch *cm)
{
	return rows_same(r, em, emu_ref_nwritten(r), emu_ref_written, cm);
}

bool emu_ref_compare_touched(const emu_ref *r, const emu_machine *em,
			     emu_cell_mismatch *cm)
{
	return rows_same(r, em, emu_ref_ntouched(r), emu_ref_touched, cm);
}
