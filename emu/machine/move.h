/* SPDX-License-Identifier: MIT */
/*
 * move.h: the execution of data-movement commands (prefix emu_move_,
 * emu_mover_, emu_lower_; the commands themselves are in movecmd.h): the
 * intra-array shift, the inter-array shift,
 * the broadcast with reuse, the broadcast of a constant and the sync of
 * infinity-stream §4.2 (Algorithm 2, Fig 9, "Synchronization"), and the
 * JIT lowering of a tensor move (Algorithms 1 and 2) into them.
 * doc/MOVEMENT.md gives each command's semantics with an example.
 *
 * Commands are physical: arrays are global array numbers (sram.h), a
 * bitline pattern names physical bitlines of each selected array (the
 * same in every one), and wordlines are explicit.  The lowering turns
 * tiles, tile bitlines and virtual bitlines (layout.h) into these.
 *
 * Execution (emu_move_run) is bit-exact on the SRAM model:
 *   intra  micro-ops: a shift by d is |d| one-bitline steps (SHUP /
 *          SHDOWN) per wordline, the last one written through the
 *          destination bitlines' enable mask; steps before the last go
 *          through a scratch wordline, fully enabled.  For |d| >= 2 each
 *          bank's controller runs the shift on its own ways
 *          (sram_run_ways), banks spread over threads;
 *   inter, bcast
 *          a modelled transfer: each wordline of the source arrays is
 *          read through the array's port, carried by the H-tree (same
 *          bank) or the NoC (another bank; net.h) and written, masked, to
 *          the destination rows.  A wordline step reads every source
 *          before it writes any destination.  Data bound for another bank
 *          is held as pending and written only at the next sync;
 *   const  micro-ops ONE / ZERO, one per wordline, masked;
 *   sync   delivers every pending transfer, in command order.
 * Wordlines are moved in increasing order, one step each.
 *
 * The micro-ops of intra and const can also be run a few at a time
 * (emu_move_begin, emu_move_step, emu_move_end: infsdb's stepi, issue
 * 5's "one micro-op: one wordline activation or write"); inter, bcast and
 * sync are port reads and writes carried by the H-tree and the NoC, not
 * micro-ops, and run whole in emu_move_end.
 */
#ifndef INFSIM_MOVE_H
#define INFSIM_MOVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "hazard.h"
#include "isa.h"
#include "layout.h"
#include "movecmd.h"
#include "net.h"
#include "program.h"
#include "sram.h"

/* ---- execution ---- */

typedef struct emu_move_stats {
	uint64_t commands[EMU_MOVE_KINDS];
	uint64_t cycles[EMU_MOVE_KINDS];  /* latency, by kind (doc/MOVEMENT.md) */
	sram_count sram;                  /* micro-ops of intra and const */
	uint64_t bits[EMU_MOVE_KINDS];    /* cells moved or written */
	uint64_t bits_remote;             /* of those, sent to another bank */
	uint64_t banks_run, banks_skipped;/* (command, bank) pairs */
} emu_move_stats;

/* What the last command cost. */
typedef struct emu_move_cost {
	uint64_t cycles;
	uint64_t bits;
	unsigned banks_run;
	emu_net_cost net;
} emu_move_cost;

typedef struct emu_mover {
	sram_machine *m;
	emu_hazards *hz;      /* NULL: no hazard tracking */
	const char *path;
	emu_net net;
	emu_move_stats st;
	emu_move_cost last;
	uint64_t noc_in_flight; /* NoC cycles the next sync waits for */
	struct emu_move_batch *pend;
	size_t npend, cap_pend;
	uint8_t *way_on, *bank_on;
	uint8_t *dst_seen;      /* per array, for bcast's collision check */
	struct emu_move_cur *cur; /* the move begun and not yet ended */
} emu_mover;

/* A mover for machine m; hz may be NULL.  NULL when out of memory. */
emu_mover *emu_mover_new(sram_machine *m, emu_hazards *hz, const char *path);
void emu_mover_free(emu_mover *mv);
/* Run command c as command number cmd: check it (emu_move_check), check
 * its hazards, then execute it and count it.  0, or -1 with d set (an
 * invalid command, a hazard in strict mode, no memory): nothing ran. */
int emu_move_run(emu_mover *mv, const emu_move *c, size_t cmd, diag *d);
/* Run l->v[0..n), numbered first, first + 1, ...; stops at an error. */
int emu_move_run_list(emu_mover *mv, const emu_move_list *l, size_t first,
		      diag *d);
/* Transfers waiting for a sync. */
size_t emu_mover_pending(const emu_mover *mv);
/* The data bits of those transfers (what the sync will write), in
 * command order, wpa words a transfer: copied to w when w is not NULL.
 * Returns their number of words.  Which transfers are pending depends on
 * the commands only; their bits on the data (infsdb's checkpoints keep
 * them).  emu_mover_set_pending_words puts n such words back: 0, or -1
 * with d set when n is not the number pending (nothing changed). */
size_t emu_mover_pending_words(const emu_mover *mv, uint64_t *w);
int emu_mover_set_pending_words(emu_mover *mv, const uint64_t *w, size_t n, diag *d);

/* Snapshots (snap.c, the debugger's reverse execution), between
 * commands: a copy of what the mover changes as a run goes on (its and
 * the interconnect's statistics, the last cost, the transfers waiting
 * for a sync with their data); NULL when out of memory.  Restore puts it
 * back into the mover it came from: 0, or -1 when out of memory (mv
 * unchanged). */
typedef struct emu_mover_saved emu_mover_saved;
emu_mover_saved *emu_mover_save(const emu_mover *mv);
int emu_mover_restore(emu_mover *mv, const emu_mover_saved *v);
void emu_mover_saved_free(emu_mover_saved *v);
/* Host bytes a copy holds (an upper bound). */
size_t emu_mover_saved_bytes(const emu_mover_saved *v);

/* ---- a move run a few micro-ops at a time (the debugger's stepi) ----
 *
 * emu_move_run is emu_move_begin, emu_move_step of all the micro-ops,
 * emu_move_end.  Stepping runs the same micro-ops through the same
 * executor, each with the enable masks the whole run gives it (the
 * controller sets them between micro-ops), so the bits are the same; the
 * move is counted (mv->st, mv->last) in emu_move_end from its micro-op
 * list, so the statistics are the same however it was stepped.
 *
 * emu_move_begin: check c (emu_move_check, a broadcast's collisions, the
 *   hazards), mark its ways and banks and build its micro-ops into up
 *   (NULL: a program the mover keeps); as emu_move_uprog.  0, or -1 with
 *   d set: nothing ran, nothing is begun.  c and up must stay until
 *   emu_move_end.  A move begun and not ended is dropped.
 * emu_move_step: run micro-ops [from, from + n) of the move begun.  They
 *   may run in any number of calls, in order; each reads the SRAM only,
 *   so a state restored between calls (a checkpoint) goes on exactly.
 *   0, or -1 with d set when no move is begun or the range is past its
 *   micro-ops.
 * emu_move_end: once every micro-op ran, run what is not micro-ops (a
 *   transfer, a sync), record what the move wrote for the hazard checks
 *   and count it.  0, or -1 with d set (out of memory). */
int emu_move_begin(emu_mover *mv, const emu_move *c, size_t cmd, isa_prog *up,
		   diag *d);
int emu_move_step(emu_mover *mv, size_t from, size_t n, diag *d);
int emu_move_end(emu_mover *mv, diag *d);

/* The micro-ops of c on machine g, nothing run or counted (listings):
 * intra, |dist| a wordline (one for dist 0; none for the identity, dist 0
 * onto its own rows), ONE or ZERO a wordline for const, none for inter,
 * bcast, sync and an invalid command.  0, or -1 when out of memory. */
int emu_move_uprog(const emu_move *c, const sram_geom *g, isa_prog *p);
/* Why c, which is not a sync, runs whole although it moves data (a
 * transfer, the identity shift); NULL when it runs micro-op by micro-op
 * or is a sync (a barrier: nothing to stop inside). */
const char *emu_move_whole_reason(const emu_move *c);

/* ---- lowering (infinity-stream §4.2) ---- */

/* Algorithm 1: cut box along the tile boundaries of tile into at most 27
 * boxes (head, middle, tail per dimension), each covering, per
 * dimension, either part of one tile or whole tiles.  Returns their
 * number; 0 if box is empty. */
size_t emu_decompose(const emu_box *box, const uint64_t tile[EMU_LAYOUT_DIMS],
		     emu_box out[27]);

/* The arrays and the bitlines (in each of them) that hold piece b of
 * region r, a box of Algorithm 1's output (per dimension part of one
 * tile, or whole tiles); r's tile must fit one array (one wordline
 * group).  What a compute command on that piece selects. */
void emu_piece_patterns(const emu_region *r, const sram_geom *g, const emu_box *b,
			emu_pattern *arrays, emu_pattern *bitlines);

/* A tensor move (a tDFG mv node, Algorithm 2): the elements of box in
 * region r, read at r's wordlines, are written `offset` elements away
 * (one nonzero component: a mv moves along one dimension, §3.2) into
 * the same layout at wordline dst_wl; elements that land outside the
 * region are discarded (§3.2, the bounding hyperrectangle).  Other cells
 * are not touched.  scratch: a wordline the intra-array shifts may
 * clobber.  The commands are appended to out, with a sync at the end
 * when any went to another bank.  0, or -1 with d set. */
int emu_lower_move(const emu_region *r, const sram_geom *g, const emu_box *box,
		   const int64_t offset[EMU_LAYOUT_DIMS], unsigned dst_wl,
		   unsigned scratch, emu_move_list *out, diag *d);
/* The lowering pass of a stream as written: each tensor move
 * (EMU_CMD_TMOVE, program.h) of p replaced by its commands, numbered in
 * the lowered program, a message about one located at its `move`.  A
 * program with none is left as it is.  0, or -1 with d set (p
 * unchanged). */
int emu_program_lower(emu_program *p, diag *d);

/* A broadcast (a tDFG bc node): box has extent 1 along dimension dim, at
 * position p; its elements are copied to positions p + dist + j,
 * j < count, along dim (clipped to the region), at wordline dst_wl. */
int emu_lower_broadcast(const emu_region *r, const sram_geom *g,
			const emu_box *box, unsigned dim, int64_t dist,
			uint64_t count, unsigned dst_wl, unsigned scratch,
			emu_move_list *out, diag *d);

#endif
