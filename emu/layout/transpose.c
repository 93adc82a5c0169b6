/* SPDX-License-Identifier: MIT */
/*
 * transpose.c: the transpose unit's data path (transpose.h).
 */
#include "transpose.h"
#include <string.h>

/* One scale j of the transpose on words [0, words): in every 2j x 2j
 * block, bits j..2j-1 of the upper j rows trade places with bits 0..j-1
 * of the lower j rows (m: the low j bits of every 2j-bit group).  The
 * inner loop runs over j consecutive words, which the compiler turns
 * into vector operations for the larger scales. */
static inline void swap_blocks(uint64_t *a, unsigned words, unsigned j, uint64_t m)
{
	for (unsigned base = 0; base < words; base += 2 * j) {
		uint64_t *lo = a + base, *hi = a + base + j;
		for (unsigned k = 0; k < j; k++) {
			const uint64_t t = ((lo[k] >> j) ^ hi[k]) & m;
			lo[k] ^= t << j;
			hi[k] ^= t;
		}
	}
}

/* Scales 16 down to 1 on 32 words: each word's two halves hold two
 * 32 x 32 matrices (bitlines 0..31 and 32..63 of a row word), both
 * transposed at once. */
static void transpose_halves(uint64_t a[32])
{
	swap_blocks(a, 32, 16, UINT64_C(0x0000FFFF0000FFFF));
	swap_blocks(a, 32, 8, UINT64_C(0x00FF00FF00FF00FF));
	swap_blocks(a, 32, 4, UINT64_C(0x0F0F0F0F0F0F0F0F));
	swap_blocks(a, 32, 2, UINT64_C(0x3333333333333333));
	swap_blocks(a, 32, 1, UINT64_C(0x5555555555555555));
}

/* Swap the off-diagonal blocks at every scale, 32 x 32 down to 1 x 1:
 * [[A, B], [C, D]] becomes [[A, C], [B, D]], then each block's own
 * blocks, so after six rounds every bit sits across the diagonal.  Bit c
 * of a[r] is row r, column c. */
void emu_ttu_transpose64(uint64_t a[64])
{
	swap_blocks(a, 64, 32, UINT64_C(0x00000000FFFFFFFF));
	swap_blocks(a, 64, 16, UINT64_C(0x0000FFFF0000FFFF));
	swap_blocks(a, 64, 8, UINT64_C(0x00FF00FF00FF00FF));
	swap_blocks(a, 64, 4, UINT64_C(0x0F0F0F0F0F0F0F0F));
	swap_blocks(a, 64, 2, UINT64_C(0x3333333333333333));
	swap_blocks(a, 64, 1, UINT64_C(0x5555555555555555));
}

/* The word w of a row that bitlines [first, first + len) touch, and which
 * of its bits: elements e0 .. e0 + n - 1 of the run land on bits
 * sh .. sh + n - 1. */
typedef struct {
	unsigned w, sh, e0, n;
	uint64_t mask;
} ttu_word;

static void word_at(unsigned first, unsigned len, unsigned j, ttu_word *x)
{
	const unsigned bl = first + j;
	x->w = bl / 64;
	x->sh = bl % 64;
	x->e0 = j;
	x->n = 64 - x->sh < len - j ? 64 - x->sh : len - j;
	x->mask = (x->n == 64 ? ~UINT64_C(0) : (UINT64_C(1) << x->n) - 1) << x->sh;
}

/* Fields of at most 32 bits take half the work: 32 rows, bitline c of
 * the word in bits 0..31 of a[c] (c < 32) or bits 32..63 of a[c - 32]
 * before the transpose of both halves (transpose_halves). */
void emu_ttu_put(sram_machine *m, unsigned array, unsigned wl0, unsigned width,
		 unsigned first, const uint64_t *v, unsigned len)
{
	uint64_t a[64];
	const unsigned rows = width <= 32 ? 32 : 64;
	uint64_t *const row0 = sram_row(m, array, wl0); /* row wl0 + k: k strides on */
	for (unsigned j = 0; j < len;) {
		ttu_word x;
		word_at(first, len, j, &x);
		memset(a, 0, sizeof a);
		memcpy(a + x.sh, v + x.e0, x.n * sizeof *v);
		if (rows == 32) {
			for (unsigned c = 0; c < 32; c++)
				a[c] = (a[c] & UINT64_C(0xFFFFFFFF)) | a[c + 32] << 32;
			transpose_halves(a);
		} else {
			emu_ttu_transpose64(a);
		}
		for (unsigned k = 0; k < width; k++) {
			uint64_t *w = row0 + (size_t)k * m->stride + x.w;
			*w = (*w & ~x.mask) | (a[k] & x.mask);
		}
		j += x.n;
	}
}

void emu_ttu_get(const sram_machine *m, unsigned array, unsigned wl0,
		 unsigned width, unsigned first, uint64_t *v, unsigned len)
{
	uint64_t a[64];
	const unsigned rows = width <= 32 ? 32 : 64;
	const uint64_t *const row0 = sram_row((sram_machine *)m, array, wl0);
	for (unsigned j = 0; j < len;) {
		ttu_word x;
		word_at(first, len, j, &x);
		for (unsigned k = 0; k < width; k++)
			a[k] = row0[(size_t)k * m->stride + x.w];
		memset(a + width, 0, (rows - width) * sizeof *a);
		if (rows == 32) {
			transpose_halves(a);
			for (unsigned c = 0; c < 32; c++) {
				a[c + 32] = a[c] >> 32;
				a[c] &= UINT64_C(0xFFFFFFFF);
			}
		} else {
			emu_ttu_transpose64(a);
		}
		memcpy(v + x.e0, a + x.sh, x.n * sizeof *v);
		j += x.n;
	}
}
