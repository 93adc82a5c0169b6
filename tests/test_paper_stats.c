/* SPDX-License-Identifier: MIT */
/*
 * test_paper_stats.c: the paper's statistics of `infsim run --stats`
 * (emu/report/paper.c, doc/USAGE.md "The paper's statistics") on tiny
 * tDFGs whose every figure is computed by hand below: one bank of four
 * arrays of 16 bitlines (an H-tree of 3 levels: two binary, one across
 * ways), i8 elements, tiles of 16.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "proc.h"

#define RUN_TMP_PREFIX "infsim-paperstats"
#include "infsim_run.h"

TestSuite(paper, .init = make_tmpdir, .fini = remove_tmpdir);

#define MACHINE "machine wordlines=64 bitlines=16 arrays=4 ways=1 mesh=1x1\n"

static void write_file(const char *name, const char *text)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	cr_assert_eq(fputs(text, f) >= 0, 1);
	cr_assert_eq(fclose(f), 0);
}

static void has(const char *out, const char *want)
{
	cr_assert(strstr(out, want), "wanted '%s' in:\n%s", want, out);
}

/* x = shift a, +1 over 64 elements in 4 tiles.  Inside each tile 15
 * elements move one bitline: 4 x 15 x 8 bits = 60 bytes of intra-tile
 * shift, no network hop, in two mv.intra of 8 wordlines (8 cycles
 * each).  The 3 elements at tile edges cross into the next array: 3
 * bytes in one mv.inter of 2 cycles; 0->1 and 2->3 load two leaf links
 * each, 1->2 two leaf and two level-2 links: 8 byte x hops.  The
 * transpose unit writes a's 64 bytes (32 cycles), 3 levels from the
 * bank's root: 192 byte x hops. */
Test(paper, shift_traffic_and_cycles)
{
	write_file("s.tdfg", MACHINE "region r 64 tile=16\na = input i8 init=iota\n"
		   "x = shift a, +1\noutput x\n");
	result r = run("run s.tdfg --check --stats");
	cr_assert_eq(r.status, 0, "%s", r.err);
	has(r.out, "    transpose                          32");
	has(r.out, "    compute                             0");
	has(r.out, "    intra_tile_move                    16");
	has(r.out, "    inter_tile_move                     2");
	has(r.out, "    sync                                0");
	has(r.out, "    final_reduce                        0");
	has(r.out, "    intra_tile_shift                   60                0\n");
	has(r.out, "    inter_tile_shift_bank               3                8\n");
	has(r.out, "    inter_tile_shift_noc                0                0\n");
	has(r.out, "    data                               64              192\n");
	has(r.out, "  operations on bitlines   0 of 0 compute commands (-)\n");
	has(r.out, "    r                                             1          3             18\n");
	has(r.out, "    4: x                                          1          3             18\n");
	result_free(&r);
	r = run("run s.tdfg --stats=json");
	cr_assert_eq(r.status, 0, "%s", r.err);
	has(r.out, "\"paper\": {\n    \"cycles\": {\"transpose\": 32, \"compute\": 0, "
		"\"intra_tile_move\": 16, \"inter_tile_move\": 2, \"sync\": 0, \"final_reduce\": 0, "
		"\"jit\": ");
	has(r.out, "\"inter_tile_shift_bank\": {\"bytes\": 3, \"byte_hops\": 8}");
	has(r.out, "\"compute_commands\": 0, \"on_bitlines\": 0");
	has(r.out, "{\"label\": \"4: x\", \"runs\": 1, \"commands\": 3, \"cycles\": 18}");
	result_free(&r);
}

/* s = reduce.add a over 64 elements, 4 tiles: the halving steps h = 32
 * and 16 move data across tiles (mv.inter, 8 and 4 cycles) and their add
 * and copy back (8 + 8 each) are the final reduce: 44 cycles, 4 of the 13
 * compute commands.  The steps h = 8, 4, 2, 1 stay in array 0: mv.intra
 * of 64, 32, 16 and 8 cycles (120), and with the first copy the compute
 * is 9 commands of 8 cycles (72). */
Test(paper, reduce_final_and_bitlines)
{
	write_file("r.tdfg", MACHINE "region r 64 tile=16\na = input i8 init=iota\n"
		   "s = reduce.add.i8 a, 0\noutput s\n");
	result r = run("run r.tdfg --check --stats");
	cr_assert_eq(r.status, 0, "%s", r.err);
	has(r.out, "    compute                            72");
	has(r.out, "    intra_tile_move                   120");
	has(r.out, "    inter_tile_move                     0");
	has(r.out, "    final_reduce                       44");
	has(r.out, "  operations on bitlines   9 of 13 compute commands (69.2%)\n");
	has(r.out, "    4: s                                          1         19            236\n");
	result_free(&r);
}

/* Each run of a node counts: stencil1d's 10 runs of its region. */
Test(paper, groups_count_runs)
{
	result r = run("run '%s/samples/tdfg/stencil1d.tdfg' --stats", SRCDIR);
	cr_assert_eq(r.status, 0, "%s", r.err);
	has(r.out, "    step                                         10        140          68580\n");
	has(r.out, "    15: l                                        10 ");
	has(r.out, "    19: store B                                  10         30            960\n");
	result_free(&r);
}

/* A stream has no JIT: no time, no groups. */
Test(paper, stream_has_no_jit)
{
	result r = run("run '%s/samples/vadd_i32.ins' --stats", SRCDIR);
	cr_assert_eq(r.status, 0, "%s", r.err);
	has(r.out, "    jit                                 0     0.0%");
	cr_assert_null(strstr(r.out, "by node"), "%s", r.out);
	result_free(&r);
}
