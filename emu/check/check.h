/* SPDX-License-Identifier: MIT */
/*
 * check.h: comparing the machine with a reference (prefix emu_ref_):
 * what `infsim run --check`, infsdb's check and bisect, and a compiler's
 * own test suite use.  The machine (machine.h) and the scalar reference
 * (refmodel.h) know nothing of each other; this is where they meet.
 */
#ifndef INFSIM_CHECK_H
#define INFSIM_CHECK_H

#include <stdbool.h>
#include <stdint.h>

#include "api.h"
#include "machine.h"
#include "program.h"
#include "refmodel.h"

INFSIM_BEGIN_DECLS

/* The first element of buffer b where machine and reference differ. */
typedef struct emu_mismatch {
	const emu_buffer *buf;
	uint64_t index;
	uint64_t expected, actual;
} emu_mismatch;
/* true if every element agrees; else *mm describes the first difference. */
bool emu_ref_compare(const emu_ref *r, const emu_machine *em,
		     const emu_buffer *b, emu_mismatch *mm);

/* The first cell, in the order of emu_ref_written, where the rows the
 * reference's last command wrote differ from the machine's. */
typedef struct emu_cell_mismatch {
	unsigned array, bitline, wordline;
	unsigned expected, actual;
} emu_cell_mismatch;
/* true if the machine holds, in every row the reference's last command
 * (emu_ref_run_cmd) wrote, on every bitline, the reference's bits; else
 * *cm names the first cell that differs.  The cost is that of the rows
 * written, not of the buffers they belong to. */
bool emu_ref_compare_written(const emu_ref *r, const emu_machine *em,
			     emu_cell_mismatch *cm);

INFSIM_END_DECLS

#endif
