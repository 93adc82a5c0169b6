/* SPDX-License-Identifier: MIT */
/*
 * tdfg_stats.h: the paper's statistics (paper.h) of a tDFG's run, which
 * need what the JIT knows: which node and region each command belongs to
 * (prefix emu_paper_tdfg_).
 */
#ifndef INFSIM_TDFG_STATS_H
#define INFSIM_TDFG_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "paper.h"
#include "tdfg.h"

/* Mark in final[0..n) the commands of a final reduce: the halving steps
 * of a reduce node (doc/TDFG.md, "Lowering") whose data crosses tiles,
 * which the paper's design leaves to near-memory streams (§4.2, Fig 14's
 * "Final Reduce"). */
void emu_paper_tdfg_final(const emu_tdfg *t, const emu_jit *j, const emu_program *p,
			  uint8_t *final, size_t n);
/* Fill p's per-region and per-node groups from cc[0..n).  0, or -1 when
 * out of memory. */
int emu_paper_tdfg_groups(emu_paper *p, const emu_tdfg *t, const emu_jit *j,
			  const emu_cmd_cycles *cc, size_t n);
/* The JIT's host time: the sum over its lowerings. */
double emu_paper_tdfg_jit_seconds(const emu_jit *j);

#endif
