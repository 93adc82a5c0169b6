/* SPDX-License-Identifier: MIT */
/*
 * compare.c: the machine against the scalar reference, buffer by buffer
 * (check.h).  Both sides are read whole, each placing the buffer's
 * elements once, then compared; the first differing element is kept.
 */
#include "check.h"

#include <stdlib.h>
#include <string.h>

#include "transpose.h"

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

/* Rows [r0, r1) of one 64-row block (starting at blk) of array a, word w
 * of each row: transposed, t[j] holds bitline 64w + j's bits of the block,
 * which is the reference column's word blk / 64. */
static bool block_same(const emu_ref *r, const sram_machine *m, unsigned a,
		       unsigned blk, unsigned r0, unsigned r1, unsigned w,
		       emu_cell_mismatch *cm)
{
	uint64_t t[64] = {0};
	for (unsigned wl = r0; wl < r1; wl++)
		t[wl - blk] = sram_row((sram_machine *)m, a, wl)[w];
	emu_ttu_transpose64(t);
	const unsigned n = r1 - r0;
	const uint64_t rows = (n == 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1) << (r0 - blk);
	for (unsigned j = 0; j < 64 && 64 * w + j < m->g.bitlines; j++) {
		const uint64_t *col = emu_ref_column(r, a, 64 * w + j);
		const uint64_t want = col ? col[blk / 64] : 0, diff = (t[j] ^ want) & rows;
		if (diff) {
			const unsigned k = (unsigned)__builtin_ctzll(diff);
			*cm = (emu_cell_mismatch){a, 64 * w + j, blk + k,
						  (unsigned)(want >> k & 1), (unsigned)(t[j] >> k & 1)};
			return false;
		}
	}
	return true;
}

typedef void rows_fn(const emu_ref *r, size_t k, unsigned *array, unsigned *wl,
		     unsigned *end);

/* Entry k of the row set `at`: its rows of its array, block by block. */
static bool entry_same(const emu_ref *r, const sram_machine *m, size_t k, rows_fn *at,
		       emu_cell_mismatch *cm)
{
	const unsigned words = (m->g.bitlines + 63) / 64;
	unsigned a, lo, hi;
	at(r, k, &a, &lo, &hi);
	for (unsigned blk = lo / 64 * 64; blk < hi; blk += 64) {
		const unsigned r0 = lo > blk ? lo : blk, r1 = hi < blk + 64 ? hi : blk + 64;
		for (unsigned w = 0; w < words; w++)
			if (!block_same(r, m, a, blk, r0, r1, w, cm))
				return false;
	}
	return true;
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
	for (size_t k = 0; k < n; k++) {
		emu_cell_mismatch mine;
		if (k < first && !entry_same(r, m, k, at, &mine))
			first = k;
	}
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
