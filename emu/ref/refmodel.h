/* SPDX-License-Identifier: MIT */
/*
 * refmodel.h: the scalar reference model of a command stream (prefix
 * emu_ref_).
 *
 * It holds the same cells as the machine, in the machine's own layout:
 * for each array, its rows of B bits, so an element at wordlines
 * [wl, wl+n) of a bitline is that bitline's bit in n consecutive rows
 * (Fig 1(d)), and a check compares whole rows (check.h).
 * Each command is applied element by element with isa_ref_elem3 (madd
 * with its addend c, cvt reading a of the source type's width; floats
 * through the IEEE reference in the command's fp= mode, or for f32 add,
 * sub, mul, div and madd the same bits from the host's FPU where that
 * is exact: ref_fp.h) or isa_ref_reduce, in plain C, with no micro-op
 * and no SRAM code.  Operands are read out of the rows 64 bitlines at a
 * time by a bit-matrix transpose of the model's own; copy and the bitwise
 * commands, whose result bits depend only on the operands' bits at the
 * same wordline, run on whole rows.  A compute command runs array by
 * array (arrays share nothing, so they are spread over threads).  A move
 * runs wordline step by wordline step, as move.h schedules it, a whole
 * row of an array at a time.
 * It never reads the machine's cells and never runs a micro-op: it is
 * the independent answer.  `infsim run --check` runs it beside the
 * machine and compares, after every command, the rows it wrote (check.h).
 *
 * The tag latch is followed too, as doc/COMMANDS.md and
 * doc/commands/ops.md say each command leaves it: a predicate to the tag
 * sets it; sub and popcnt leave a[n-1], min and max a < b, a signed abs
 * the sign of a, search its hit vector, shl/shr/sra the OR of b's bits
 * k with 2^k >= n; set, the shifts by an immediate, sel, neg, the
 * bitwise commands and add keep it.  Any other command whose
 * micro-program uses the tag as a temporary leaves it undefined; a later
 * `sel` that reads an undefined tag is reported, since its result would
 * depend on how the earlier command was lowered.  Commands are numbered
 * from 1 in messages, as --stats counts them.
 */
#ifndef INFSIM_REFMODEL_H
#define INFSIM_REFMODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "api.h"
#include "diag.h"
#include "program.h"

INFSIM_BEGIN_DECLS

typedef struct emu_ref emu_ref;

emu_ref *emu_ref_new(const emu_program *p, diag *d);
void emu_ref_free(emu_ref *r);

/* Element access (values are n-bit patterns in the low bits). */
uint64_t emu_ref_get(const emu_ref *r, const emu_buffer *b, uint64_t i);
void emu_ref_set(emu_ref *r, const emu_buffer *b, uint64_t i, uint64_t v);
/* The rows the last emu_ref_run_cmd wrote: k-th of emu_ref_nwritten
 * arrays, its wordlines [wl, end).  A check compares only these after
 * each command (check.h). */
size_t emu_ref_nwritten(const emu_ref *r);
void emu_ref_written(const emu_ref *r, size_t k, unsigned *array, unsigned *wl,
		     unsigned *end);
/* The same for the whole run so far: every buffer's rows, and every row
 * any command wrote (the end-of-run comparison's cells). */
size_t emu_ref_ntouched(const emu_ref *r);
void emu_ref_touched(const emu_ref *r, size_t k, unsigned *array, unsigned *wl,
		     unsigned *end);
/* Row `wl` of `array`: emu_ref_row_words(r) words, bit j of word w
 * being bitline 64 w + j (bits past the last bitline are zero), as
 * sram_row lays out the machine's; NULL while the array is all zero. */
const uint64_t *emu_ref_row(const emu_ref *r, unsigned array, unsigned wl);
unsigned emu_ref_row_words(const emu_ref *r);
/* Every element of b, in order, into values[0 .. b->length). */
void emu_ref_read(const emu_ref *r, const emu_buffer *b, uint64_t *values);
/* Store count values into b.  0, or -1 when the model ran out of memory
 * (then, or at any time before: its contents are no answer). */
int emu_ref_store(emu_ref *r, const emu_buffer *b, const uint64_t *values,
		  uint64_t count);
/* Apply init= directives (same values as emu_init_buffers).  0, or -1
 * when the model ran out of memory. */
int emu_ref_init_buffers(emu_ref *r);

/* Apply command i.  Returns 0, or -1 with d set when the command reads
 * the tag latch while it is undefined, or when the model ran out of
 * memory (for this command or an earlier store). */
int emu_ref_run_cmd(emu_ref *r, size_t i, diag *d);

INFSIM_END_DECLS

#endif
