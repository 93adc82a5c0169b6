/*
 * move.h: data-movement commands and their execution (prefix emu_move_,
 * emu_mover_, emu_lower_): the intra-array shift, the inter-array shift,
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
 *          through a scratch wordline, fully enabled.  Each bank's
 *          controller runs the whole shift on its own ways
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
 */
#ifndef INFSIM_MOVE_H
#define INFSIM_MOVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "hazard.h"
#include "layout.h"
#include "net.h"
#include "program.h"
#include "sram.h"

/* emu_move_kind and emu_move are declared in program.h (a stream holds
 * them); their semantics: */
/* One command.  Fields a kind does not use are ignored (keep them 0).
 *   intra  each array of `arrays`: bitline b of `bitlines`, wordline
 *          wl + k  ->  bitline b + dist, wordline dst_wl + k (k < nwl);
 *          scratch: a wordline the shift may clobber, needed when
 *          |dist| >= 2 (SRAM_NO_ROW otherwise).
 *   inter  array a of `arrays`: element i of `bitlines`, wordline wl + k
 *          -> array a + dist, element i of `dst_bitlines`, dst_wl + k.
 *   bcast  as inter, to each array a + dist + j * reuse_stride,
 *          j < reuse_count (the reuse dimension's tile stride and count).
 *   const  each array of `arrays`, each bitline of `bitlines`: wordline
 *          wl + k := bit k of value (k < nwl <= 64).
 *   sync   nothing else. */

/* Constructors (patterns copied; wordline ranges as in emu_move). */
emu_move emu_move_intra(const emu_pattern *arrays, const emu_pattern *bitlines,
			int64_t dist, unsigned wl, unsigned nwl, unsigned dst_wl,
			unsigned scratch);
emu_move emu_move_inter(const emu_pattern *arrays, const emu_pattern *bitlines,
			int64_t dist, const emu_pattern *dst_bitlines,
			unsigned wl, unsigned nwl, unsigned dst_wl);
emu_move emu_move_bcast(const emu_pattern *arrays, const emu_pattern *bitlines,
			int64_t dist, int64_t reuse_stride, uint64_t reuse_count,
			const emu_pattern *dst_bitlines, unsigned wl, unsigned nwl,
			unsigned dst_wl);
emu_move emu_move_const(const emu_pattern *arrays, const emu_pattern *bitlines,
			uint64_t value, unsigned wl, unsigned nwl);
emu_move emu_move_sync(void);

/* The command as one line of text, e.g.
 *   mv.intra dist=1 wl=0 n=8 to=8 @ arrays=0:2:2 bitlines=0:2:2
 *   mv.inter dist=1 wl=0 n=8 to=8 dst=0:2:2 @ arrays=0:2:2 bitlines=1:2:2
 * (doc/MOVEMENT.md, "Text form").  snprintf semantics. */
int emu_move_format(const emu_move *c, char *buf, size_t size);
const char *emu_move_kind_name(unsigned kind);

/* Is c valid on machine g?  0, or -1 with d set to one message,
 * "PATH:LINE: error: command N: KIND: WHAT, expected WHAT".  Shifts past
 * an array's edge and destinations outside the machine are refused here,
 * before anything runs.  path may be NULL. */
int emu_move_check(const emu_move *c, const sram_geom *g, const char *path,
		   size_t cmd, diag *d);
/* The same, with the command's column in its stream (the assembler's
 * FILE:LINE:COL); col 0 = unknown. */
int emu_move_check_at(const emu_move *c, const sram_geom *g, const char *path,
		      size_t cmd, int col, diag *d);

/* A growable list of commands. */
typedef struct emu_move_list {
	emu_move *v;
	size_t n, cap;
} emu_move_list;
void emu_move_list_init(emu_move_list *l);
void emu_move_list_free(emu_move_list *l);
int emu_move_list_push(emu_move_list *l, const emu_move *c); /* -1: no memory */

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

/* ---- lowering (infinity-stream §4.2) ---- */

/* A box [lo_k, hi_k) per dimension, innermost first (layout.h). */
typedef struct emu_box {
	uint64_t lo[EMU_LAYOUT_DIMS], hi[EMU_LAYOUT_DIMS];
} emu_box;

/* Algorithm 1: cut box along the tile boundaries of tile into at most 27
 * boxes (head, middle, tail per dimension), each covering, per
 * dimension, either part of one tile or whole tiles.  Returns their
 * number; 0 if box is empty. */
size_t emu_decompose(const emu_box *box, const uint64_t tile[EMU_LAYOUT_DIMS],
		     emu_box out[27]);

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
/* A broadcast (a tDFG bc node): box has extent 1 along dimension dim, at
 * position p; its elements are copied to positions p + dist + j,
 * j < count, along dim (clipped to the region), at wordline dst_wl. */
int emu_lower_broadcast(const emu_region *r, const sram_geom *g,
			const emu_box *box, unsigned dim, int64_t dist,
			uint64_t count, unsigned dst_wl, unsigned scratch,
			emu_move_list *out, diag *d);

#endif
