/* SPDX-License-Identifier: MIT */
/*
 * transpose.c: the transpose unit's data path (transpose.h).
 */
#include "transpose.h"
#include <string.h>

/* Swap the off-diagonal blocks at every scale, 32 x 32 down to 1 x 1:
 * [[A, B], [C, D]] becomes [[A, C], [B, D]], then each block's own
 * blocks, so after six rounds every bit sits across the diagonal.  Bit c
 * of a[r] is row r, column c. */
void emu_ttu_transpose64(uint64_t a[64])
{
	uint64_t m = UINT64_C(0x00000000FFFFFFFF);
	for (unsigned j = 32; j != 0; j >>= 1, m ^= m << j) {
		for (unsigned k = 0; k < 64; k = ((k | j) + 1) & ~j) {
			const uint64_t t = ((a[k] >> j) ^ a[k | j]) & m;
			a[k] ^= t << j;
			a[k | j] ^= t;
		}
	}
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

void emu_ttu_put(sram_machine *m, unsigned array, unsigned wl0, unsigned width,
		 unsigned first, const uint64_t *v, unsigned len)
{
	uint64_t a[64];
	for (unsigned j = 0; j < len;) {
		ttu_word x;
		word_at(first, len, j, &x);
		memset(a, 0, sizeof a);
		memcpy(a + x.sh, v + x.e0, x.n * sizeof *v);
		emu_ttu_transpose64(a);
		for (unsigned k = 0; k < width; k++) {
			uint64_t *row = sram_row(m, array, wl0 + k);
			row[x.w] = (row[x.w] & ~x.mask) | (a[k] & x.mask);
		}
		j += x.n;
	}
}

void emu_ttu_get(const sram_machine *m, unsigned array, unsigned wl0,
		 unsigned width, unsigned first, uint64_t *v, unsigned len)
{
	uint64_t a[64];
	for (unsigned j = 0; j < len;) {
		ttu_word x;
		word_at(first, len, j, &x);
		memset(a, 0, sizeof a);
		for (unsigned k = 0; k < width; k++)
			a[k] = sram_row((sram_machine *)m, array, wl0 + k)[x.w];
		emu_ttu_transpose64(a);
		memcpy(v + x.e0, a + x.sh, x.n * sizeof *v);
		j += x.n;
	}
}
