/* SPDX-License-Identifier: MIT */
/*
 * test_tile_pick.c: the JIT's tile pick (emu/tdfg/tile_cost.c) against
 * the best tile of a sweep.  For each small 2-d and 3-d shift workload,
 * the program is lowered and run with every tile of powers of two that
 * the machine accepts (tile= on its region), and the machine's cycles of
 * the tile the JIT picks must be the fewest of the sweep, shifts,
 * broadcasts and reductions alike (infinity-stream
 * §7 reports its heuristic within 2% of an oracle; on these shapes the
 * model's pick is the oracle's).
 */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine.h"
#include "tdfg.h"
#include "text.h"

/* The machine's cycles for text, lowered and run whole; 0 when the
 * JIT refuses it (a tile the machine does not accept).  *tile: the
 * tile the region got. */
static uint64_t run_cycles(const char *text, uint64_t tile[3])
{
	emu_tdfg t;
	emu_jit j;
	diag d;
	diag_clear(&d);
	cr_assert_eq(emu_tdfg_parse("t.tdfg", text, strlen(text), NULL, NULL, &t, &d), 0, "%s",
		     d.msg);
	if (emu_jit_lower(&t, &j, &d)) {
		emu_tdfg_free(&t);
		return 0;
	}
	memcpy(tile, t.regions[0].tile, 3 * sizeof *tile);
	emu_machine *em = emu_machine_new(&j.prog, &d);
	cr_assert(em, "%s", d.msg);
	cr_assert_eq(emu_init_buffers(em, &d), 0, "%s", d.msg);
	for (size_t c = 0; c < j.prog.ncmds; c++)
		cr_assert_eq(emu_run_cmd(em, &d), 0, "%s", d.msg);
	const uint64_t cycles = em->st.total.cycles;
	emu_machine_free(em);
	emu_jit_free(&j);
	emu_tdfg_free(&t);
	return cycles;
}

/* text with " tile=T" after its first region line's sizes. */
static char *with_tile(const char *text, const uint64_t T[3], unsigned nd)
{
	const char *r = strstr(text, "\nregion ");
	cr_assert(r);
	const char *sp = strchr(strchr(r + 8, ' ') + 1, '\n');
	const char *blank = memchr(strchr(r + 8, ' ') + 1, ' ', (size_t)(sp - r));
	const char *at = blank && blank < sp ? blank : sp;
	char tile[64];
	snprintf(tile, sizeof tile, nd == 3 ? " tile=%" PRIu64 "x%" PRIu64 "x%" PRIu64
		 : " tile=%" PRIu64 "x%" PRIu64, T[0], T[1], T[2]);
	char *out = malloc(strlen(text) + sizeof tile);
	cr_assert(out);
	sprintf(out, "%.*s%s%s", (int)(at - text), text, tile, at);
	return out;
}

/* The sweep over every tile of B bitlines, and the JIT's pick. */
static void sweep(const char *file, unsigned nd, uint64_t B)
{
	char path[1024], *text = NULL;
	size_t len = 0;
	diag d;
	diag_clear(&d);
	snprintf(path, sizeof path, "%s/samples/workloads/%s", SRCDIR, file);
	cr_assert_eq(text_read_file(path, 1 << 20, &text, &len, &d), 0, "%s", d.msg);
	char *z = realloc(text, len + 1); /* text_read_file does not end it with a NUL */
	cr_assert(z);
	z[len] = 0;
	text = z;
	uint64_t pick[3], T[3], got[3], best = UINT64_MAX, best_T[3] = {0};
	const uint64_t picked = run_cycles(text, pick);
	cr_assert(picked, "%s: the JIT refused its own pick", file);
	for (uint64_t a = 1; a <= B; a *= 2)
		for (uint64_t b = 1; a * b <= B; b *= 2) {
			T[0] = a;
			T[1] = nd == 2 ? B / a : b;
			T[2] = nd == 2 ? 1 : B / a / b;
			if (nd == 2 && b > 1)
				continue;
			char *tt = with_tile(text, T, nd);
			const uint64_t c = run_cycles(tt, got);
			free(tt);
			if (c && c < best) {
				best = c;
				memcpy(best_T, T, sizeof T);
			}
		}
	cr_expect_eq(picked, best, "%s: the JIT's tile %" PRIu64 "x%" PRIu64 "x%" PRIu64
		     " takes %" PRIu64 " cycles, tile %" PRIu64 "x%" PRIu64 "x%" PRIu64 " %" PRIu64,
		     file, pick[0], pick[1], pick[2], picked, best_T[0], best_T[1], best_T[2], best);
	free(text);
}

Test(tile_pick, stencil2d_f32) { sweep("stencil2d_f32.tdfg", 2, 64); }
Test(tile_pick, conv2d_i32) { sweep("conv2d_i32.tdfg", 2, 64); }
Test(tile_pick, dwt2d_i32) { sweep("dwt2d_i32.tdfg", 2, 64); }
Test(tile_pick, stencil3d_i32) { sweep("stencil3d_i32.tdfg", 3, 64); }
Test(tile_pick, stencil2d_i32) { sweep("stencil2d_i32.tdfg", 2, 64); }
Test(tile_pick, conv2d_f32) { sweep("conv2d_f32.tdfg", 2, 64); }
Test(tile_pick, dwt2d_f32) { sweep("dwt2d_f32.tdfg", 2, 64); }
Test(tile_pick, stencil3d_f32) { sweep("stencil3d_f32.tdfg", 3, 64); }
Test(tile_pick, mm_outer_f32) { sweep("mm_outer_f32.tdfg", 2, 64); }
Test(tile_pick, mm_inner_i32) { sweep("mm_inner_i32.tdfg", 2, 64); }
Test(tile_pick, conv3d_i32) { sweep("conv3d_i32.tdfg", 3, 64); }
