/* SPDX-License-Identifier: MIT */
/*
 * transpose.h: the transpose unit's data path (prefix emu_ttu_): element
 * values in, bit rows out, and back.  Element j of a run sits on bitline
 * first + j of one array; its bit k on wordline wl0 + k.  The unit fills
 * and drains a row a word (64 bitlines) at a time: 64 elements become a
 * 64 x 64 bit matrix, transposed in registers, so the cost per element is
 * a handful of word operations whatever the width (doc/PERFORMANCE.md).
 * These are host accesses that set up and read back the SRAM, as the
 * transpose unit does (infinity-stream §5.2), not micro-ops.
 */
#ifndef INFSIM_TRANSPOSE_H
#define INFSIM_TRANSPOSE_H

#include "api.h"
#include "sram.h"
#include <stdint.h>

INFSIM_BEGIN_DECLS

/* Transpose a 64 x 64 bit matrix in place: afterwards bit j of a[k] is
 * what bit k of a[j] was. */
void emu_ttu_transpose64(uint64_t a[64]);

/* Write v[0..len), each cut to `width` bits (1..64), into bitlines
 * [first, first + len) of `array`, wordlines wl0 .. wl0 + width - 1;
 * first + len must not pass the array's bitlines.  Other bitlines of
 * those rows keep their bits. */
void emu_ttu_put(sram_machine *m, unsigned array, unsigned wl0, unsigned width,
		 unsigned first, const uint64_t *v, unsigned len);

/* Read them back: v[j] gets bits 0 .. width - 1 of bitline first + j. */
void emu_ttu_get(const sram_machine *m, unsigned array, unsigned wl0,
		 unsigned width, unsigned first, uint64_t *v, unsigned len);

INFSIM_END_DECLS

#endif
