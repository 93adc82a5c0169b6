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
#include <stdlib.h>
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
 * compute commands (96 of the 190 element operations).  The steps h = 8, 4, 2, 1 stay in array 0: mv.intra
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
	num(d, "paper.compute_commands_on_bitlines", 9);
	/* operations on elements: the copy 64, the in-array steps' adds and
	 * copies 2 x (8 + 4 + 2 + 1) = 30; the final reduce's 2 x (32 + 16) */
	num(d, "paper.on_bitlines", 94);
	num(d, "paper.ops_final_reduce", 96);
	num(d, "paper.ops", 190);
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

/* ---- issue 29: every statistic the same on every run and host ---- */

/* One add of 64 elements in memory and an update stream of 64 elements
 * near memory, on one bank (four arrays of 16 bitlines). */
#define UPDATE "machine wordlines=512 bitlines=16 arrays=4 ways=1 mesh=1x1\n" \
	"region r 64 tile=16\na = input i32 init=iota\nb = input i32 init=iota\n" \
	"s = add.i32 a, b\nu = strm.update.add.i32 a, b\noutput s, u\n"

/* The JIT's bar is a model of its work (doc/USAGE.md, "The JIT's
 * cycles"), never the host's time: the region run has 4 nodes (a, b, s,
 * u) and 2 commands (the add, the sync before the stream), on 1 bank:
 * 4 x 1000 + 2 x 4 x 1 = 4008 cycles; with --lat-jit=10 --lat-jit-cmd=3,
 * 4 x 10 + 2 x 3 x 1 = 46.  The host's measured time is in "measured" only. */
Test(paper, jit_cycles_are_a_model_of_its_work)
{
	write_file("u.tdfg", UPDATE);
	json_object *d = stats_of("u.tdfg");
	num(d, "paper.cycles.jit", 4008);
	num(d, "jit.cycles", 4008);
	num(d, "jit.lowerings.0.nodes", 4);
	num(d, "jit.lowerings.0.commands", 2);
	num(d, "jit.lowerings.0.cycles", 4008);
	cr_expect_null(stats_at(d, "jit.lowerings.0.ms"), "the host's time is not the JIT's");
	json_object *h = stats_at(d, "measured.jit_seconds");
	cr_expect(h && (json_object_is_type(h, json_type_double) ||
			json_object_is_type(h, json_type_int)), "measured.jit_seconds");
	num(d, "measured.jit_lowering_ms.0.lowering", 1);
	json_object_put(d);
	d = stats_of("u.tdfg --lat-jit=10 --lat-jit-cmd=3");
	num(d, "paper.cycles.jit", 46);
	num(d, "paper.eq2.0.lat_jit", 10);
	json_object_put(d);
	result r = run("run u.tdfg --lat-jit-cmd=x");
	cr_expect_neq(r.status, 0);
	cr_expect(strstr(r.err, "--lat-jit-cmd"), "%s", r.err);
	result_free(&r);
}

/* Fig 14's dots count operations on elements, near-memory streams
 * included: the add does 64 on bitlines, the update stream 64 adds at
 * the banks, so 64 of 128 (not "1 of 1 compute commands", 100%). */
Test(paper, operations_on_bitlines_count_the_streams)
{
	write_file("u.tdfg", UPDATE);
	json_object *d = stats_of("u.tdfg");
	num(d, "paper.ops", 128);
	num(d, "paper.on_bitlines", 64);
	num(d, "paper.ops_near_mem", 64);
	num(d, "paper.ops_final_reduce", 0);
	num(d, "paper.compute_commands", 1);
	json_object_put(d);
	result r = run("run u.tdfg --stats=full");
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "on bitlines          64    in final reduce       0    "
			 "near memory          64"), "%s", r.out);
	result_free(&r);
}

/* A reduce whose tile covers the reduced dimension (16 of 16) has no
 * final reduce (Fig 16, T = 128): on a 2x2 mesh the sync before its
 * stream is a barrier, 2 x (1 + 1) x 6 = 24 cycles (doc/MOVEMENT.md),
 * counted as a sync; the 4 halving steps stay in the arrays: 9 compute
 * commands (a copy, then 4 adds and copies) of 32 cycles = 288, and the
 * moves by 8, 4, 2, 1 bitlines 480 cycles. */
Test(paper, one_tile_over_the_reduced_dimension_has_no_final_reduce)
{
	write_file("r1.tdfg", "machine wordlines=512 bitlines=16 arrays=4 ways=1 mesh=2x2\n"
		   "region r 16x16 tile=16x1\na = input i32 init=iota\n"
		   "s = strm.reduce.add.i32 a, 0\noutput s\n");
	json_object *d = stats_of("r1.tdfg");
	num(d, "paper.cycles.final_reduce", 0);
	num(d, "paper.cycles.sync", 24);
	num(d, "paper.cycles.compute", 288);
	num(d, "paper.cycles.intra_tile_move", 480);
	num(d, "paper.cycles.inter_tile_move", 0);
	num(d, "paper.ops_final_reduce", 0);
	num(d, "paper.compute_commands_on_bitlines", 9);
	/* operations on elements, in each of the 16 arrays (one column
	 * each): the copy over 16 bitlines, then each step's add and copy
	 * over bitlines 0..8, 0..12, 0..14, 0..15 (the JIT's masks): 16 + 2 x
	 * (8 + 12 + 14 + 15) = 114, so 1824 */
	num(d, "paper.on_bitlines", 1824);
	json_object_put(d);
}

/* The validation path (a lowered stream run with --tdfg) runs the strm
 * nodes' streams from the tDFG: the same Near-Mem, Mix and near-memory
 * operations as the tDFG's own run (kmeans_out_f32: 1331 and 32768; its
 * store streams have known lengths and send no end messages). */
Test(paper, validation_path_keeps_near_mem_and_mix)
{
	char src[512];
	snprintf(src, sizeof src, "%s/samples/workloads/kmeans_out_f32.tdfg", SRCDIR);
	result r = run("jit '%s' -o k.ins", src);
	cr_assert_eq(r.status, 0, "%s", r.err);
	result_free(&r);
	char args[1024];
	snprintf(args, sizeof args, "'%s'", src);
	json_object *t = stats_of(args);
	snprintf(args, sizeof args, "k.ins --tdfg '%s'", src);
	json_object *v = stats_of(args);
	num(t, "paper.cycles.near_mem", 1331);
	num(t, "paper.cycles.mix", 32768);
	static const char *const same[] = {
		"paper.cycles.near_mem", "paper.cycles.mix", "paper.cycles.transpose",
		"paper.ops_near_mem", "paper.on_bitlines", "paper.traffic.stream_offload.bytes",
		"paper.traffic.stream_control.byte_hops",
	};
	for (size_t i = 0; i < sizeof same / sizeof *same; i++)
		num(v, same[i], stats_num(t, same[i]));
	json_object_put(t);
	json_object_put(v);
}
