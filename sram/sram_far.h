/* SPDX-License-Identifier: MIT */
/*
 * sram_far.h: a shift by two bitlines or more, a wordline's whole
 * micro-program at once (prefix sram_far_); not installed.
 *
 * A bank controller shifts a wordline by |dist| >= 2 bitlines through a
 * scratch row (emu/machine/move.c, doc/MOVEMENT.md): |dist| SHUP (dist >
 * 0) or SHDOWN micro-ops,
 *     scratch <- src, (|dist| - 2) x scratch <- scratch, dst <- scratch,
 * the first |dist| - 1 with the enable latch of the shifted arrays set to
 * one mask (`first`), the last with another (`last`).  Run one micro-op
 * at a time (sram_run_ways), that is |dist| passes over every word of
 * every way; this computes the same bits from the same rules (pe.def:
 * bits stay inside their array, zeros enter, bits above B stay 0) in one
 * pass over the arrays that are enabled: the |dist| - 1 steps into the
 * scratch row are one shift by |dist| - 1 words and bits when the
 * enable mask covers the whole array (the case of every long shift a
 * move makes), and are done step by step on that array's words alone
 * otherwise.  The rows, the latches (enable, BL, BLB) and the ways'
 * record of their last read and write end as the micro-ops leave them;
 * tests/test_far_shift.c compares the two bit for bit.
 */
#ifndef INFSIM_SRAM_FAR_H
#define INFSIM_SRAM_FAR_H

#include <stddef.h>
#include <stdint.h>

#include "sram.h"

/* One long shift of wordlines src .. src + nwl - 1 into dst .. dst +
 * nwl - 1, wordline after wordline. */
typedef struct sram_far {
	unsigned src, dst, nwl; /* first source and destination wordlines */
	unsigned scratch;       /* the scratch row */
	int dist;               /* bitlines, |dist| >= 2; > 0: towards higher */
	const unsigned *arrays; /* the arrays whose enable the controller sets */
	size_t narrays;
	const uint64_t *first;  /* their enable for the steps into scratch */
	const uint64_t *last;   /* their enable for the last step */
} sram_far;

/* Run f on ways first .. first + count - 1 that way_on selects (all if
 * NULL), on the calling thread, as sram_run_ways would run its
 * micro-ops with the enables set between them (above).  Arrays of those
 * ways not in f->arrays shift with the enable their latch holds.  The
 * enable of f->arrays ends as `last` (when nwl > 0), those outside the
 * ways too, as the controller leaves it.  f->arrays must be inside the
 * machine and |dist| at most its bitlines; the caller checks both.
 * 0, or -1 when out of memory (nothing was run). */
int sram_far_run(sram_machine *m, unsigned first, unsigned count,
		 const uint8_t *way_on, const sram_far *f);

#endif
