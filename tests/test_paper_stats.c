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
#include "stats_json.h"

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

/* The statistics of a run, as JSON. */
static json_object *stats_of(const char *args)
{
	result r = run("run %s --check --stats=json", args);
	cr_assert_eq(r.status, 0, "%s", r.err);
	json_object *doc = stats_parse(r.out);
	result_free(&r);
	return doc;
}

/* The number at path is want. */
static void num(json_object *doc, const char *path, double want)
{
	const double got = stats_num(doc, path);
	cr_expect_eq(got, want, "%s: %.17g, expected %.17g", path, got, want);
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
	json_object *d = stats_of("s.tdfg");
	num(d, "paper.cycles.transpose", 32);
	num(d, "paper.cycles.compute", 0);
	num(d, "paper.cycles.intra_tile_move", 16);
	num(d, "paper.cycles.inter_tile_move", 2);
	num(d, "paper.cycles.sync", 0);
	num(d, "paper.cycles.final_reduce", 0);
	num(d, "paper.traffic.intra_tile_shift.bytes", 60);
	num(d, "paper.traffic.intra_tile_shift.byte_hops", 0);
	num(d, "paper.traffic.inter_tile_shift_bank.bytes", 3);
	num(d, "paper.traffic.inter_tile_shift_bank.byte_hops", 8);
	num(d, "paper.traffic.inter_tile_shift_noc.bytes", 0);
	num(d, "paper.traffic.data.bytes", 64);
	num(d, "paper.traffic.data.byte_hops", 192);
	num(d, "paper.compute_commands", 0);
	num(d, "paper.on_bitlines", 0);
	num(d, "paper.by_region[label=r].runs", 1);
	num(d, "paper.by_region[label=r].commands", 3);
	num(d, "paper.by_region[label=r].cycles", 18);
	num(d, "paper.by_node[label=4: x].runs", 1);
	num(d, "paper.by_node[label=4: x].commands", 3);
	num(d, "paper.by_node[label=4: x].cycles", 18);
	json_object_put(d);
	/* the text form: the same numbers, the traffic as a table */
	result r = run("run s.tdfg --stats");
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "    inter_tile_shift_bank      3             8\n"), "%s", r.out);
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
	json_object *d = stats_of("r.tdfg");
	num(d, "paper.cycles.compute", 72);
	num(d, "paper.cycles.intra_tile_move", 120);
	num(d, "paper.cycles.inter_tile_move", 0);
	num(d, "paper.cycles.final_reduce", 44);
	num(d, "paper.on_bitlines", 9);
	num(d, "paper.compute_commands", 13);
	num(d, "paper.by_node[label=4: s].runs", 1);
	num(d, "paper.by_node[label=4: s].commands", 19);
	num(d, "paper.by_node[label=4: s].cycles", 236);
	json_object_put(d);
}

/* Each run of a node counts: stencil1d's 10 runs of its region. */
Test(paper, groups_count_runs)
{
	char args[512];
	snprintf(args, sizeof args, "'%s/samples/tdfg/stencil1d.tdfg'", SRCDIR);
	json_object *d = stats_of(args);
	num(d, "paper.by_region[label=step].runs", 10);
	num(d, "paper.by_region[label=step].commands", 140);
	num(d, "paper.by_region[label=step].cycles", 68580);
	num(d, "paper.by_node[label=15: l].runs", 10);
	num(d, "paper.by_node[label=19: store B].runs", 10);
	num(d, "paper.by_node[label=19: store B].commands", 30);
	num(d, "paper.by_node[label=19: store B].cycles", 960);
	json_object_put(d);
}

/* A stream has no JIT: no time, no groups. */
Test(paper, stream_has_no_jit)
{
	char args[512];
	snprintf(args, sizeof args, "'%s/samples/vadd_i32.ins'", SRCDIR);
	json_object *d = stats_of(args);
	num(d, "paper.cycles.jit", 0);
	cr_expect_null(stats_at(d, "paper.by_node.0"));
	cr_expect_null(stats_at(d, "jit"));
	json_object_put(d);
}
