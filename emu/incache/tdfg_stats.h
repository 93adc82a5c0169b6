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
/* The JIT's cycles, a model of its work (doc/USAGE.md, "The JIT's
 * cycles"): each region run it lowers costs lat_node cycles per node
 * (Eq. 2's N_node x Lat_JIT, §4.3) plus lat_cmd_bank cycles per command
 * and bank (§4.2's step 3, mapping each command to the L3 banks, "O(N_bank
 * x N_cmd)"); a run it reuses (§4, memoisation) costs nothing.  Lowering
 * m's nodes and commands in *nodes and *cmds (either may be NULL). */
uint64_t emu_paper_tdfg_jit_lowering(const emu_tdfg *t, const emu_jit *j, size_t m,
				     uint64_t lat_node, uint64_t lat_cmd_bank, unsigned banks,
				     uint64_t *nodes, uint64_t *cmds);
/* The sum of emu_paper_tdfg_jit_lowering over j's lowerings. */
uint64_t emu_paper_tdfg_jit_cycles(const emu_tdfg *t, const emu_jit *j, uint64_t lat_node,
				   uint64_t lat_cmd_bank, unsigned banks);
/* The JIT's time measured on the host (the sum over its lowerings): it
 * varies from run to run, so only the statistics' `host` group shows it. */
double emu_paper_tdfg_jit_seconds(const emu_jit *j);

#endif
