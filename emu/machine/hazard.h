/* SPDX-License-Identifier: MIT */
/*
 * hazard.h: what a JIT gets wrong that a timing simulator never sees
 * (prefix emu_hazard_).  doc/MOVEMENT.md shows each report.
 *
 * The tracker follows, for every cell (array, wordline, bitline):
 *   - whether it was written since the machine was loaded (loads and
 *     init count as writes);
 *   - whether an inter-bank move that has not reached a sync is about to
 *     deliver it, or reads it as its source.  infinity-stream §4.2
 *     ("Synchronization"): an inter-tile shift is finished once its
 *     packets are injected into the NoC, and its data is visible only
 *     after the next sync.
 * and reports, naming the command, bank, array, wordlines and bitlines:
 *   EMU_HZ_UNSYNCED   a read of bits that a pending inter-bank move has
 *                     not delivered; a hazard even where the old bits
 *                     happen to equal the new ones;
 *   EMU_HZ_UNWRITTEN  a read of bits never written since load;
 *   EMU_HZ_CLOBBER    a write over a live operand: the source or the
 *                     destination of a pending move (its delivery at the
 *                     sync would undo the write, or the move's completion
 *                     is only guaranteed at the sync);
 *   EMU_HZ_OVERLAP    a shift whose source and destination overlap in a
 *                     way the hardware's schedule cannot do (the mover
 *                     finds these, see move.h).
 * Each is a warning (kept in the list), or in strict mode an error: the
 * check returns -1 with the diag set, before the command runs.
 */
#ifndef INFSIM_HAZARD_H
#define INFSIM_HAZARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "diag.h"
#include "layout.h"
#include "program.h"
#include "sram.h"

typedef enum emu_hazard_kind {
	EMU_HZ_UNSYNCED = 0,
	EMU_HZ_UNWRITTEN,
	EMU_HZ_CLOBBER,
	EMU_HZ_OVERLAP,
	EMU_HZ_KINDS
} emu_hazard_kind;

/* A set of cells: the same bitlines (mask, one bit a bitline) and
 * wordlines wl .. wl + nwl - 1 in each of arrays[0..narrays). */
typedef struct emu_cells {
	const unsigned *arrays;
	size_t narrays;
	const uint64_t *mask;
	unsigned wl, nwl;
} emu_cells;

/* The same, as a command stream writes it: patterns of global arrays
 * and of bitlines (the compute commands' form, program.h). */
typedef struct emu_access {
	emu_pattern arrays;
	emu_pattern bitlines;
	unsigned wl, nwl;
} emu_access;

#define EMU_HAZARD_TEXT 768

/* One report.  It names the first array where the hazard occurs and
 * counts the others. */
typedef struct emu_hazard {
	emu_hazard_kind kind;
	size_t cmd;           /* the command that trips it */
	int line;             /* its source line, 0 if none */
	size_t other;         /* the pending move's command, or SIZE_MAX */
	unsigned bank, array; /* the first array where it occurs */
	unsigned wl_first, wl_last;
	uint64_t narrays;     /* arrays where it occurs */
	char text[EMU_HAZARD_TEXT]; /* the whole message, no "warning: " */
} emu_hazard;

typedef struct emu_hazards emu_hazards;

/* A tracker for machine g: nothing written, nothing pending.  strict:
 * hazards are errors.  path names the stream in messages (may be NULL).
 * NULL when out of memory or g is invalid. */
emu_hazards *emu_hazard_new(const sram_geom *g, bool strict, const char *path);
void emu_hazard_free(emu_hazards *h);
bool emu_hazard_strict(const emu_hazards *h);

/* Cells written by a load, an init or the transpose unit. */
int emu_hazard_load(emu_hazards *h, const emu_cells *c);
/* Every cell of a region: its tiles' arrays, all bitlines, its rows. */
int emu_hazard_load_region(emu_hazards *h, const emu_region *r);

/* A compute command (number cmd, source line or 0): it reads reads[]
 * and writes writes[].  Checks the reads (UNSYNCED, UNWRITTEN) and the
 * writes (CLOBBER), then marks the writes written.  Returns the number
 * of hazards found, or -1 in strict mode (d set; nothing marked) or when
 * out of memory. */
int emu_hazard_compute(emu_hazards *h, size_t cmd, int line,
		       const emu_access *reads, size_t nreads,
		       const emu_access *writes, size_t nwrites, diag *d);

/* The pieces, for the mover.  check_read/check_write report on c as the
 * compute checks do ("reads"/"writes" in the message say what).  Same
 * return values. */
int emu_hazard_check_read(emu_hazards *h, size_t cmd, int line,
			  const emu_cells *c, diag *d);
int emu_hazard_check_write(emu_hazards *h, size_t cmd, int line,
			   const emu_cells *c, diag *d);
/* Report an overlap the mover found: text says what cannot be done. */
int emu_hazard_overlap(emu_hazards *h, size_t cmd, int line, unsigned array,
		       const uint64_t *bits, unsigned wl_first, unsigned wl_last,
		       uint64_t narrays, const char *text, diag *d);
/* Mark c written (0, or -1 when out of memory). */
int emu_hazard_written(emu_hazards *h, const emu_cells *c);
/* A move of command cmd whose data reaches dst only at the next sync. */
int emu_hazard_pend(emu_hazards *h, size_t cmd, int line, const emu_cells *src,
		    const emu_cells *dst);
/* The same for a writer that is not a move command, named in the reports
 * by what (for example "the store stream of strm node 'u'", at most
 * EMU_HAZARD_WHAT - 1 bytes): a read of dst before the next sync is an
 * unsynced read, a write a clobber.  src may be NULL. */
#define EMU_HAZARD_WHAT 96
int emu_hazard_pend_as(emu_hazards *h, size_t cmd, int line, const emu_cells *src,
		       const emu_cells *dst, const char *what);
/* The sync: every pending destination is delivered (and written). */
int emu_hazard_sync(emu_hazards *h);
/* Pending moves not yet synced. */
size_t emu_hazard_pending(const emu_hazards *h);

/* The reports so far, and their number by kind. */
size_t emu_hazard_count(const emu_hazards *h);
const emu_hazard *emu_hazard_get(const emu_hazards *h, size_t i);
uint64_t emu_hazard_count_kind(const emu_hazards *h, emu_hazard_kind k);
/* "unsynced-read", "unwritten-read", "clobber", "overlap". */
const char *emu_hazard_kind_name(emu_hazard_kind k);
/* Print each report as "PATH:LINE: warning: TEXT". */
void emu_hazard_print(FILE *f, const emu_hazards *h);

/* A bitline mask as ranges, "0..3,8,10..11" (the messages' form);
 * snprintf semantics. */
int emu_hazard_bits_text(const uint64_t *mask, unsigned bitlines, char *buf,
			 size_t size);

/* ---- snapshots (snap.c, the debugger's reverse execution) ----
 * emu_hazard_save copies what the tracker changes as a run goes on (the
 * pending moves, the reports, the masks), not the written cells, whose
 * block emu_hazard_cells gives (snap.c copies it by pages); NULL when out
 * of memory.  emu_hazard_restore puts a copy back into the tracker it
 * came from: 0, or -1 when out of memory (h unchanged). */
typedef struct emu_hazard_saved emu_hazard_saved;
emu_hazard_saved *emu_hazard_save(const emu_hazards *h);
int emu_hazard_restore(emu_hazards *h, const emu_hazard_saved *v);
void emu_hazard_saved_free(emu_hazard_saved *v);
/* Host bytes a copy holds. */
size_t emu_hazard_saved_bytes(const emu_hazard_saved *v);
/* The written cells' block (a multiple of 8 bytes) and its size in
 * bytes; after writing it, emu_hazard_cells_changed (the tracker keeps a
 * summary of it). */
void *emu_hazard_cells(emu_hazards *h, size_t *bytes);
void emu_hazard_cells_changed(emu_hazards *h);

#endif
