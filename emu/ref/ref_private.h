/* SPDX-License-Identifier: MIT */
/*
 * ref_private.h: the reference model's storage, shared by its files
 * (refmodel.c: storage and element access; ref_block.c: elements to and
 * from rows; ref_compute.c: compute commands; ref_move.c: moves).  Not
 * installed.
 *
 * Storage: for each array, its W rows of B bits, ceil(B / 64) words a
 * row, bit j of word w being bitline 64w + j: the layout of the SRAM's
 * rows (sram_row), so that checking what a command wrote is a comparison
 * of whole rows.  As in the SRAM's store, the rows of a way lie together,
 * row by row, each row holding its arrays one after the other, so row wl
 * of an array is at a fixed stride (rs words) from its row 0; the store
 * is one mapping of untouched zero pages, so the model costs memory only
 * for the rows a program writes, as the machine does (sram.c).  An array
 * never written reads as zero (its rows pointer stays NULL).  The values
 * are the reference's own: computed from the command's meaning, never
 * read from the machine.
 */
#ifndef INFSIM_REF_PRIVATE_H
#define INFSIM_REF_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>

#include "mem.h"
#include "refmodel.h"

enum { EMU_REF_TAG_ZERO = 0, EMU_REF_TAG_ONE = 1, EMU_REF_TAG_UNDEF = 2 };

/* What an inter-bank move delivers at the next sync into one word of a
 * row (array, wordline, word): the bitlines of mask take bits. */
struct emu_ref_pend {
	unsigned array, wordline, word;
	uint64_t mask, bits;
};

struct emu_ref {
	const emu_program *p;
	unsigned W, B, rw;     /* wordlines, bitlines, words per row */
	size_t rs;             /* words from one row of an array to the next */
	unsigned narrays;
	uint64_t *store;       /* every array's rows (store_bytes, mapped) */
	size_t store_bytes;
	mem_pages pages;       /* which of the store's pages were taken (mem.h) */
	uint64_t **rows;       /* per array: its row 0 in store, NULL until written */
	uint8_t **tags;        /* per array: B tag states, or NULL */
	size_t undef_by;       /* command that last left a tag undefined */
	uint8_t *sel_arr;      /* scratch: selected arrays of a command */
	unsigned *lst[3];      /* scratch: a command's patterns, expanded */
	size_t cap_lst[3];
	uint64_t *snap;        /* scratch: a move step's source rows */
	size_t cap_snap;
	struct emu_ref_pend *pend; /* inter-bank bits waiting for the sync */
	size_t npend, cap_pend;
	/* The rows the last command wrote, per array (emu_ref_written):
	 * the arrays in order of first write, each with [lo, hi). */
	unsigned *dirty;
	size_t ndirty;
	uint16_t *lo, *hi;     /* per array; hi == 0: not written */
	/* The same since the start: every buffer's rows, and every row any
	 * command wrote (emu_ref_touched). */
	unsigned *touched;
	size_t ntouched;
	uint16_t *tlo, *thi;
	/* An array whose tags could not be allocated points here (all such
	 * arrays share it) and oom is set: the contents are no longer an
	 * answer, and emu_ref_run_cmd and emu_ref_init_buffers say so. */
	uint8_t *spare_tag;
	bool oom;
};

/* Array a's row 0 (row wl at + wl * rs), its tags allocated on first
 * use when `make`; NULL for an array never written, unless `make`. */
uint64_t *emu_ref_rows(const emu_ref *r, unsigned a, bool make);
/* Note that the current command writes rows [wl, wl + n) of array a. */
void emu_ref_mark(emu_ref *r, unsigned a, unsigned wl, unsigned n);
/* Pattern p expanded into scratch list `slot`, its *n values in order;
 * NULL (and oom set) when out of memory. */
const unsigned *emu_ref_expand(emu_ref *r, unsigned slot, const emu_pattern *p,
			       uint64_t *n);

/* ---- elements to and from rows (ref_block.c) ---- */

/* Transpose a 64 x 64 bit matrix in place: bit j of a[k] becomes bit k
 * of a[j].  The model's own, apart from the transpose unit's. */
void emu_ref_transpose64(uint64_t a[64]);
/* v[j] := bits [wl, wl + n) of bitline 64 w + j (n from 1 to 64), for
 * all 64 j of word w of an array's rows (row k at rows + k * rs); rows
 * NULL is zero. */
void emu_ref_block_get(const uint64_t *rows, size_t rs, unsigned w, unsigned wl,
		       unsigned n, uint64_t v[64]);
/* Bits [wl, wl + n) of bitline 64 w + j := v[j], for the bitlines j of
 * mask; v is used up (it is transposed in place). */
void emu_ref_block_put(uint64_t *rows, size_t rs, unsigned w, unsigned wl, unsigned n,
		       uint64_t mask, uint64_t v[64]);

/* ---- commands ---- */

int emu_ref_compute(emu_ref *r, size_t i, diag *d); /* ref_compute.c */
int emu_ref_move(emu_ref *r, const emu_move *m, diag *d); /* ref_move.c */

#endif
