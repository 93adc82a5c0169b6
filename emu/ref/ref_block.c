/* SPDX-License-Identifier: MIT */
/*
 * ref_block.c: elements to and from the reference's rows (ref_private.h).
 *
 * The model holds rows as the SRAM does (Fig 1(d): an element's bit k on
 * wordline wl + k of its bitline), so a command's operands are read 64
 * bitlines at a time: the rows' words for those bitlines form a 64 x 64
 * bit matrix whose transpose holds one element per word.  This transpose
 * is the model's own, written apart from the transpose unit's
 * (emu/layout/transpose.c), which fills and reads the machine: a fault in
 * either shows up as a difference instead of cancelling out.
 */
#include "ref_private.h"

#include <string.h>

/* One scale of the transpose on words [0, rows): within every 2j x 2j
 * block, swap the j x j block above the diagonal with the one below it
 * (bits j..2j-1 of rows base..base+j-1 with bits 0..j-1 of rows
 * base+j..base+2j-1).  m has the low j bits of every 2j-bit group set.
 * For j <= 16 the swaps stay inside each 32-bit half of a word. */
static inline void swap_scale(uint64_t *a, unsigned rows, unsigned j, uint64_t m)
{
	for (unsigned base = 0; base < rows; base += 2 * j)
		for (unsigned k = base; k < base + j; k++) {
			const uint64_t t = ((a[k] >> j) ^ a[k + j]) & m;
			a[k] ^= t << j;
			a[k + j] ^= t;
		}
}

/* The scales below 32 x 32 on words [0, rows): two 32 x 32 transposes
 * at once when rows is 32, one in each half of the words. */
static void swap_small(uint64_t *a, unsigned rows)
{
	swap_scale(a, rows, 1, UINT64_C(0x5555555555555555));
	swap_scale(a, rows, 2, UINT64_C(0x3333333333333333));
	swap_scale(a, rows, 4, UINT64_C(0x0F0F0F0F0F0F0F0F));
	swap_scale(a, rows, 8, UINT64_C(0x00FF00FF00FF00FF));
	swap_scale(a, rows, 16, UINT64_C(0x0000FFFF0000FFFF));
}

/* Six scales, from single bits up to 32 x 32 blocks: after the swaps at
 * every scale each bit (r, c) sits at (c, r).  The order of the scales
 * does not matter. */
void emu_ref_transpose64(uint64_t a[64])
{
	swap_small(a, 64);
	swap_scale(a, 64, 32, UINT64_C(0x00000000FFFFFFFF));
}

/* Fields of at most 32 bits take half the work: the 32 rows' words hold
 * a 32 x 32 matrix in each half (bitlines 0..31 and 32..63 of the word),
 * and transposing both halves in place leaves bitline j's field in the
 * low half of word j and bitline 32 + j's in the high half.  The same
 * runs backwards for a store. */
void emu_ref_block_get(const uint64_t *rows, size_t rs, unsigned w, unsigned wl,
		       unsigned n, uint64_t v[64])
{
	if (!rows) {
		memset(v, 0, 64 * sizeof *v);
		return;
	}
	const unsigned m = n <= 32 ? 32 : 64;
	for (unsigned k = 0; k < n; k++)
		v[k] = rows[(wl + k) * rs + w];
	memset(v + n, 0, (m - n) * sizeof *v);
	if (m == 64) {
		emu_ref_transpose64(v);
		return;
	}
	swap_small(v, 32);
	for (unsigned j = 0; j < 32; j++) {
		v[32 + j] = v[j] >> 32;
		v[j] &= UINT64_C(0xFFFFFFFF);
	}
}

void emu_ref_block_put(uint64_t *rows, size_t rs, unsigned w, unsigned wl, unsigned n,
		       uint64_t mask, uint64_t v[64])
{
	if (n <= 32) {
		const uint64_t keep = isa_mask(n);
		for (unsigned j = 0; j < 32; j++)
			v[j] = (v[j] & keep) | (v[32 + j] & keep) << 32;
		swap_small(v, 32);
	} else {
		emu_ref_transpose64(v);
	}
	for (unsigned k = 0; k < n; k++) {
		uint64_t *x = &rows[(wl + k) * rs + w];
		*x = (*x & ~mask) | (v[k] & mask);
	}
}
