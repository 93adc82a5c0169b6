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

/* One scale of the transpose: within every 2j x 2j block, swap the j x j
 * block above the diagonal with the one below it (bits j..2j-1 of rows
 * base..base+j-1 with bits 0..j-1 of rows base+j..base+2j-1).  m has the
 * low j bits of every 2j-bit group set.  The inner loop runs over j
 * consecutive words, which the compiler can vectorise for j >= 2. */
static inline void swap_scale(uint64_t a[64], unsigned j, uint64_t m)
{
	for (unsigned base = 0; base < 64; base += 2 * j)
		for (unsigned k = base; k < base + j; k++) {
			const uint64_t t = ((a[k] >> j) ^ a[k + j]) & m;
			a[k] ^= t << j;
			a[k + j] ^= t;
		}
}

/* Six scales, from single bits up to 32 x 32 blocks: after the swaps at
 * every scale each bit (r, c) sits at (c, r).  The order of the scales
 * does not matter; small first keeps the last, widest loops the longest. */
void emu_ref_transpose64(uint64_t a[64])
{
	swap_scale(a, 1, UINT64_C(0x5555555555555555));
	swap_scale(a, 2, UINT64_C(0x3333333333333333));
	swap_scale(a, 4, UINT64_C(0x0F0F0F0F0F0F0F0F));
	swap_scale(a, 8, UINT64_C(0x00FF00FF00FF00FF));
	swap_scale(a, 16, UINT64_C(0x0000FFFF0000FFFF));
	swap_scale(a, 32, UINT64_C(0x00000000FFFFFFFF));
}

void emu_ref_block_get(const uint64_t *rows, unsigned rw, unsigned w, unsigned wl,
		       unsigned n, uint64_t v[64])
{
	memset(v, 0, 64 * sizeof *v);
	if (!rows)
		return;
	for (unsigned k = 0; k < n; k++)
		v[k] = rows[(size_t)(wl + k) * rw + w];
	emu_ref_transpose64(v);
}

void emu_ref_block_put(uint64_t *rows, unsigned rw, unsigned w, unsigned wl, unsigned n,
		       uint64_t mask, uint64_t v[64])
{
	emu_ref_transpose64(v);
	for (unsigned k = 0; k < n; k++) {
		uint64_t *x = &rows[(size_t)(wl + k) * rw + w];
		*x = (*x & ~mask) | (v[k] & mask);
	}
}
