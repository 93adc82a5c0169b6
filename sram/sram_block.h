/* SPDX-License-Identifier: MIT */
/*
 * sram_block.h: the column-blocked executor (prefix sram_block_), used by
 * sram_exec.c; not installed.
 *
 * A run over a way normally sweeps every word of the way once per
 * micro-op (sram_exec.c).  For long micro-programs (fp add, mul, div:
 * 850 to 1840 micro-ops) the blocked executor instead runs a stretch of
 * the program over one block of columns at a time, every row the program
 * touches for that block staying in L1, with the block's carry, tag and
 * enable held in registers from one micro-op to the next.  Every word of
 * every output depends only on the same word of the inputs (pe.def), so
 * splitting the columns cannot change a bit; the shifts, which couple
 * neighbouring words, never enter a blocked stretch (sram_exec.c runs
 * them between stretches).  doc/PERFORMANCE.md, "Blocked execution".
 */
#ifndef INFSIM_SRAM_BLOCK_H
#define INFSIM_SRAM_BLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sram.h"

/* Word offsets, from a way's rows, of its latches. */
typedef struct sram_block_layout {
	size_t carry, tag, en, bl, blb;
	size_t zero;  /* a row that stays 0 */
	size_t n;     /* words of a row of a way */
} sram_block_layout;

struct sram_block_op;

/* A program decoded for blocked runs. */
typedef struct sram_block_plan {
	struct sram_block_op *ops;
	size_t n;
	uint32_t *rows;   /* distinct rows the program touches (word offsets) */
	size_t nrows;
	uint32_t *setrows; /* the rows of many-wordline activations */
	uint64_t *keep;   /* per word: its bits inside an array (BLB's mask) */
	int width;        /* words per vector of the kernel picked */
	const sram_uop *record; /* the uop BL/BLB record, or NULL */
	size_t record_at; /* its index */
} sram_block_plan;

/* Decode prog[0..n) (checked micro-ops) for blocked runs; record is the
 * index of the uop whose sense is recorded in BL/BLB (SIZE_MAX: none);
 * vec_words is the vector width sram_exec.c picked (1, 2, 4 or 8).
 * False when out of memory. */
bool sram_block_plan_init(sram_block_plan *bp, const sram_machine *m,
			  const sram_block_layout *L, const sram_uop *prog,
			  size_t n, size_t record, size_t vec_words);
void sram_block_plan_free(sram_block_plan *bp);

/* Run uops i0..i1-1 (none of them a shift) on the ways ways[0..nw), one
 * block of columns after another. */
void sram_block_exec(const sram_block_plan *bp, const sram_block_layout *L,
		     sram_way *const *ways, unsigned nw, size_t i0, size_t i1);

/* Is blocked execution wanted for a program of n uops, on vectors of
 * vec_words words?  INFSIM_BLOCK=1 (or 0) forces it on (or off); by
 * default, long programs with AVX-512 only. */
bool sram_block_wanted(size_t n, size_t vec_words);

#endif
