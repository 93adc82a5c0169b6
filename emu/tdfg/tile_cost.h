/* SPDX-License-Identifier: MIT */
/*
 * tile_cost.h: the JIT's tile pick by the machine's costs (prefix
 * emu_jit_; tile_cost.c).  Internal to the JIT: not installed.
 */
#ifndef INFSIM_TILE_COST_H
#define INFSIM_TILE_COST_H

#include <stddef.h>
#include <stdint.h>

#include "layout.h"
#include "tdfg.h"

/* The modelled cycles of one run of region tr with tile T: its compute
 * commands (one per piece of each domain, Algorithm 1), its constants
 * and stores, and its shifts (intra-array steps and inter-array
 * transfers, Algorithm 2).  Broadcasts and reductions themselves are not
 * costed (the commands that use them are). */
uint64_t emu_jit_tile_cost(const emu_tdfg *t, const emu_tregion *tr,
			   const uint64_t T[EMU_LAYOUT_DIMS]);
/* The cheapest tile valid for every rs[i] (emu_tile_check) under q, into
 * T: 1; 0 when there is none (the caller then asks emu_tile_select_group,
 * whose message says which rule each candidate breaks). */
int emu_jit_pick_tile(const emu_tdfg *t, const emu_tregion *tr, emu_region *const *rs,
		      size_t n, const emu_tile_req *q, uint64_t T[EMU_LAYOUT_DIMS]);

#endif
