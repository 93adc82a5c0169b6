/* SPDX-License-Identifier: MIT */
/*
 * movecmd.h: data-movement commands as a stream holds them (prefix
 * emu_move_): the intra-array shift, the inter-array shift, the broadcast
 * with reuse, the broadcast of a constant and the sync of infinity-stream
 * §4.2.  emu_move_kind and emu_move are declared in program.h (a stream
 * holds them); here are their constructors, their text, and the checks
 * that every path into a program (the parser, the binary decoder, the
 * lowering, the mover) shares.  Their execution is in machine/move.h;
 * doc/MOVEMENT.md gives each command's semantics with an example.
 */
#ifndef INFSIM_MOVECMD_H
#define INFSIM_MOVECMD_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
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

/* Set d to "PATH:LINE[:COL]: error: command N: KIND: WHAT", the one shape
 * of a move's messages.  Returns -1. */
int emu_move_verror(diag *d, const char *path, const emu_move *c, size_t cmd, int col,
		    const char *fmt, va_list ap);

/* Do the wordline windows [a, a+n) and [b, b+n) meet? */
static inline bool emu_windows_meet(unsigned a, unsigned b, unsigned n)
{
	return a < b + n && b < a + n;
}

#endif
