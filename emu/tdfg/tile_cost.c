/* SPDX-License-Identifier: MIT */
/*
 * tile_cost.c: the JIT's tile pick (infinity-stream §4.1) by the
 * machine's own costs (tile_cost.h).
 *
 * §4.1's heuristics (layout.c's tile_score: fewest tile crossings, then a
 * square tile for shifts) assume that a shift inside an array is cheap
 * and one between arrays dear.  On this machine it is the other way
 * round, and the commands' pieces count more than either:
 *
 *   - a compute command runs once per piece of its domain (Algorithm 1
 *     cuts a box at the tile edges into up to 27 pieces, each its own
 *     command with its own bitline pattern), at its micro-program's
 *     length each time (isa_baseline_cycles): a 5-point stencil's
 *     interior is 9 pieces on a 16x16 tile but 3 on 1x256;
 *   - an intra-array shift by d bitlines is |d| one-bitline steps a
 *     wordline (doc/MOVEMENT.md), and a shift by one along dimension k
 *     is S_k = T_0 ... T_(k-1) bitlines; where the tile does not span the
 *     dimension the part that wraps into the next tile (Algorithm 2)
 *     costs as much again;
 *   - an inter-array shift is one port read and write a wordline,
 *     dearer when the neighbouring tile is in another bank (the NoC);
 *   - a broadcast along k copies inside a tile to its T_k positions, S_k
 *     bitlines apart, and between tiles through the port.
 *
 * So the JIT costs every valid power-of-two tile with the region's own
 * nodes and domains and keeps the cheapest (ties: the smaller T_0).  The model is checked against the machine's cycles by
 * tests/test_tile_pick.c, which runs every tile.
 */
#include "tile_cost.h"

#include <string.h>

#include "move.h"

/* Cycles of a port transfer a wordline inside a bank and across banks
 * (the H-tree and the NoC of net.h, as the stats measure them on the
 * samples: about 2 and 8). */
#define INTER_BANK 2
#define INTER_NOC 8

static uint64_t pieces(const emu_box *b, const uint64_t T[EMU_LAYOUT_DIMS])
{
	emu_box out[27];
	return emu_decompose(b, T, out);
}

/* A shift by off of a value over src: per dimension moved, the
 * intra-array steps and the inter-array transfers of Algorithm 2. */
static uint64_t shift_cost(const emu_tregion *tr, const sram_geom *g, const emu_tnode *x,
			   const emu_box *src, const uint64_t T[EMU_LAYOUT_DIMS])
{
	uint64_t cost = 0, S = 1, tiles_before = 1;
	const uint64_t bank = (uint64_t)g->arrays_per_way * g->ways_per_bank;
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++) {
		const uint64_t d = (uint64_t)(x->off[k] < 0 ? -x->off[k] : x->off[k]);
		const uint64_t n = (tr->shape[k] + T[k] - 1) / T[k];
		if (d) {
			const uint64_t intra = d % T[k], spans = T[k] >= tr->shape[k];
			if (intra)
				cost += intra * S * x->width * (spans ? 1 : 2);
			if (!spans) /* the arrays tiles_before away: same bank or not */
				cost += x->width * (tiles_before < bank ? INTER_BANK : INTER_NOC);
		}
		S *= T[k];
		tiles_before *= n;
	}
	return cost * pieces(src, T);
}

/* A broadcast along k of a value one element thick: inside a tile, a
 * copy to each of the T_k - 1 other positions, S_k bitlines apart (steps
 * as for a shift); across tiles, a port transfer a wordline. */
static uint64_t bcast_cost(const emu_tregion *tr, const sram_geom *g, const emu_tnode *x,
			   const uint64_t T[EMU_LAYOUT_DIMS])
{
	const unsigned k = x->dim;
	uint64_t S = 1, tiles_before = 1;
	for (unsigned q = 0; q < k; q++) {
		S *= T[q];
		tiles_before *= (tr->shape[q] + T[q] - 1) / T[q];
	}
	const uint64_t bank = (uint64_t)g->arrays_per_way * g->ways_per_bank;
	const uint64_t span = T[k] < tr->shape[k] ? T[k] : tr->shape[k];
	uint64_t cost = (span - 1) * S * x->width;
	if (T[k] < tr->shape[k])
		cost += x->width * (tiles_before < bank ? INTER_BANK : INTER_NOC);
	return cost;
}

uint64_t emu_jit_tile_cost(const emu_tdfg *t, const emu_tregion *tr,
			   const uint64_t T[EMU_LAYOUT_DIMS])
{
	const sram_geom *g = &t->geom;
	uint64_t cost = 0;
	for (size_t i = tr->node0; i < tr->node1; i++) {
		const emu_tnode *x = &t->nodes[i];
		switch (x->kind) {
		case EMU_TN_COMPUTE: {
			isa_cmd c = x->c;
			cost += pieces(&x->dom, T) * isa_baseline_cycles(&c, g->bitlines);
			break;
		}
		case EMU_TN_CONST:
		case EMU_TN_STORE: /* a set or a copy a wordline, per piece */
			cost += pieces(&x->dom, T) * x->width;
			break;
		case EMU_TN_SHIFT:
			cost += shift_cost(tr, g, x, &t->nodes[x->arg[0]].dom, T);
			break;
		case EMU_TN_BCAST:
			cost += bcast_cost(tr, g, x, T);
			break;
		default: /* reduce: its commands' pieces are those of its
			  * operand's domain, costed where they are made */
			break;
		}
	}
	return cost;
}

/* Every tile of powers of two of P bitlines over the region's
 * dimensions (a tile longer than its dimension leaves bitlines unused,
 * and can still be the cheapest: a 32-wide image on 64-bitline tiles). */
static size_t candidates(const emu_tregion *tr, uint64_t P, uint64_t (*c)[EMU_LAYOUT_DIMS],
			 size_t max)
{
	size_t n = 0;
	for (uint64_t a = 1; a <= P; a *= 2)
		for (uint64_t b = 1; a * b <= P; b *= 2) {
			const uint64_t T[EMU_LAYOUT_DIMS] = {a, b, P / a / b};
			bool ok = P % (a * b) == 0;
			for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++)
				ok &= k < tr->ndims || T[k] == 1;
			if (ok && n < max)
				memcpy(c[n++], T, sizeof T);
		}
	return n;
}

int emu_jit_pick_tile(const emu_tdfg *t, const emu_tregion *tr, emu_region *const *rs,
		      size_t n, const emu_tile_req *q, uint64_t T[EMU_LAYOUT_DIMS])
{
	uint64_t c[64][EMU_LAYOUT_DIMS], best = UINT64_MAX;
	const uint64_t P = q->tile_bitlines ? q->tile_bitlines : t->geom.bitlines;
	const size_t nc = candidates(tr, P, c, 64);
	int found = 0;
	for (size_t i = 0; i < nc; i++) {
		bool valid = true;
		for (size_t m = 0; m < n && valid; m++) {
			diag quiet;
			diag_clear(&quiet);
			valid = emu_tile_check(rs[m], &t->geom, q, c[i], &quiet) == 0;
		}
		const uint64_t cost = valid ? emu_jit_tile_cost(t, tr, c[i]) : UINT64_MAX;
		if (valid && cost < best) {
			best = cost;
			memcpy(T, c[i], sizeof c[i]);
			found = 1;
		}
	}
	return found;
}
