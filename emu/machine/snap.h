/* SPDX-License-Identifier: MIT */
/*
 * snap.h: whole-machine snapshots in memory (prefix emu_snap_), for the
 * debugger's reverse execution (doc/DEBUGGER.md, "Reverse execution").
 *
 * A snapshot is taken between commands (em->upc == 0) and holds every
 * part of the machine a run changes: the SRAM store (cells, latches,
 * enables, sensed bitlines, the executor's rows) and each way's last
 * activation, the statistics and the position, the last micro-program,
 * the hazard tracker (hazard.h) and the mover with the transfers waiting
 * for a sync (move.h).  Restoring it into a machine of the same program
 * gives bit for bit the machine that was there.
 *
 * The store (sram.c: one mmap of mostly untouched zero pages, 133 MiB on
 * the default machine) and the hazard tracker's written-cell table are
 * kept by pages of EMU_SNAP_PAGE bytes, each stored as its non-zero
 * words: an all-zero page costs nothing, and a page equal to the same
 * page of the snapshot given as prev is shared with it (reference
 * counted), so a snapshot costs the non-zero words of the pages the run
 * changed since prev.  A pool counts the bytes its snapshots hold
 * together, shared pages once.
 */
#ifndef INFSIM_SNAP_H
#define INFSIM_SNAP_H

#include <stddef.h>

#include "diag.h"
#include "machine.h"

#define EMU_SNAP_PAGE 4096

typedef struct emu_snap_pool {
	size_t bytes;   /* host bytes held by the pool's snapshots */
} emu_snap_pool;

typedef struct emu_snap emu_snap;

/* A snapshot of em, which must stand between commands.  prev: NULL, or a
 * snapshot of the same program in the same pool whose unchanged pages
 * are shared.  NULL with d set (not between commands, out of memory). */
emu_snap *emu_snap_take(emu_machine *em, const emu_snap *prev, emu_snap_pool *pool, diag *d);
/* Make em (a machine of the snapshot's program) what it was.  Pages
 * already equal are only read, so a restore makes no zero page resident.
 * 0, or -1 with d set (another geometry, out of memory): em is then only
 * fit to be freed. */
int emu_snap_restore(emu_machine *em, const emu_snap *s, diag *d);
void emu_snap_free(emu_snap *s);
/* The command the snapshot stands before. */
size_t emu_snap_pc(const emu_snap *s);

#endif
