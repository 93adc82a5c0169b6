/* SPDX-License-Identifier: MIT */
/*
 * test_offload.c: infsim run --offload (doc/TDFG.md, "In or near
 * memory"): a tDFG's region runs on the stream engines near memory
 * instead of on the bitlines, as infinity-stream §4.3's Eq. 2 decides
 * (auto) or as the user forces (near), with the same bits: the saved
 * arrays of an in-memory and a near-memory run are compared byte for
 * byte, and --check compares every node run near memory with the node
 * reference.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proc.h"
#include "stats_json.h"

#define RUN_TMP_PREFIX "infsim-offload"
#include "infsim_run.h"

#define WORKLOAD(f) SRCDIR "/samples/workloads/" f

TestSuite(offload, .init = make_tmpdir, .fini = remove_tmpdir, .timeout = 120);

static char *slurp(const char *name, size_t *n)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	FILE *f = fopen(path, "rb");
	cr_assert_not_null(f, "%s", path);
	char *buf = malloc(1 << 22);
	cr_assert_not_null(buf);
	*n = fread(buf, 1, 1 << 22, f);
	fclose(f);
	return buf;
}

/* The workload w's array a, saved after an in-memory run (In-L3) and
 * after a run of every region near memory (Near-L3) and at the core
 * (Base), each with --check (extra: more options): the same bytes, and
 * every region run moved, its streams' cycles counted. */
static void same_bits(const char *w, const char *a, const char *extra, unsigned runs)
{
	result r = run("run '%s' %s --check -s %s=in.npy", w, extra, a);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_not(strstr(r.out, "near memory"), "%s", r.out);
	result_free(&r);
	static const char *const mode[2] = {"near", "core"};
	for (unsigned m = 0; m < 2; m++) {
		r = run("run '%s' %s --check --offload=%s -s %s=moved.npy --stats=json "
			"--stats-file=s.json", w, extra, mode[m], a);
		cr_assert_eq(r.status, 0, "%s", r.err);
		result_free(&r);
		size_t n1, n2;
		char *b1 = slurp("in.npy", &n1), *b2 = slurp("moved.npy", &n2);
		cr_assert_eq(n1, n2);
		cr_assert(n1 > 128 && memcmp(b1, b2, n1) == 0, "%s: %s differs with --offload=%s",
			  w, a, mode[m]);
		free(b1);
		free(b2);
		size_t n;
		char *js = slurp("s.json", &n);
		js[n < (1 << 22) ? n : n - 1] = '\0';
		json_object *d = stats_parse(js);
		uint64_t moved = 0;
		char path[64];
		for (size_t i = 0;; i++) {
			snprintf(path, sizeof path, "paper.eq2.%zu.runs_near", i);
			if (!stats_at(d, path))
				break;
			moved += (uint64_t)stats_num(d, path);
			snprintf(path, sizeof path, "paper.eq2.%zu.offload", i);
			cr_expect_str_eq(json_object_get_string(stats_at(d, path)), mode[m]);
		}
		cr_expect_eq(moved, runs, "%s", w);
		cr_expect_eq(stats_num(d, "offload.runs_moved"), runs, "%s", w);
		cr_expect_eq(stats_num(d, "paper.cycles.compute"), 0, "no bitline compute");
		if (m == 0)
			cr_expect_gt(stats_num(d, "paper.cycles.near_mem"), 0);
		else
			cr_expect_gt(stats_num(d, "offload.core_cycles"), 0);
		cr_expect_str_eq(json_object_get_string(stats_at(d, "offload.config")),
				 m ? "Base" : "Near-L3");
		json_object_put(d);
		free(js);
	}
}

Test(offload, near_gives_the_same_bits_i32)
{
	same_bits(WORKLOAD("vec_add_i32.tdfg"), "C", "", 1);
	same_bits(WORKLOAD("array_sum_i32.tdfg"), "S", "", 1);
	same_bits(WORKLOAD("mm_outer_i32.tdfg"), "C", "", 16);
	same_bits(WORKLOAD("stencil2d_i32.tdfg"), "B", "", 10);
	same_bits(WORKLOAD("conv2d_i32.tdfg"), "Y", "", 1);
}

/* strm nodes: a gather's stream and a strm.reduce's in-memory part as
 * streams too */
Test(offload, strm_nodes_move_too)
{
	same_bits(WORKLOAD("gather_mlp_in_i32.tdfg"), "YT", "", 17);
	same_bits(WORKLOAD("gather_mlp_out_i32.tdfg"), "Y", "", 17);
}

Test(offload, near_gives_the_same_bits_f32)
{
	/* the banks' IEEE single precision keeps subnormals: fp=ieee */
	same_bits(WORKLOAD("stencil3d_f32.tdfg"), "B", "-m fp=ieee", 10);
	same_bits(WORKLOAD("mm_inner_f32.tdfg"), "CT", "-m fp=ieee", 16);
}

/* Eq. 2 decides under auto: vec_add's 2048 elements, one operation, are
 * 128 cycles at a 16-wide core against 64 + 4 x 1000 in memory, so the
 * run goes near memory; at 0.001 operations a cycle the core would take
 * 2048000 cycles and the run stays on the bitlines. */
Test(offload, auto_follows_eq2)
{
	result r = run("run '" WORKLOAD("vec_add_i32.tdfg") "' --offload=auto --stats=json");
	cr_assert_eq(r.status, 0, "%s", r.err);
	json_object *d = stats_parse(r.out);
	cr_expect_eq(stats_num(d, "paper.eq2.0.core_cycles"), 128.0);
	cr_expect_eq(stats_num(d, "paper.eq2.0.mem_cycles"),
		     stats_num(d, "paper.eq2.0.lat_ops") + 4 * 1000);
	cr_expect_not(json_object_get_boolean(stats_at(d, "paper.eq2.0.in_memory")));
	cr_expect_eq(stats_num(d, "paper.eq2.0.runs_near"), 1);
	cr_expect_eq(stats_num(d, "paper.eq2.0.lat_ops_run"), 0, "no command ran");
	cr_expect_str_eq(json_object_get_string(stats_at(d, "paper.eq2.0.offload")), "auto");
	json_object_put(d);
	result_free(&r);
	r = run("run '" WORKLOAD("vec_add_i32.tdfg") "' --offload=auto --tp-core=0.001 "
		"--stats=json");
	cr_assert_eq(r.status, 0, "%s", r.err);
	d = stats_parse(r.out);
	cr_expect(json_object_get_boolean(stats_at(d, "paper.eq2.0.in_memory")));
	cr_expect_eq(stats_num(d, "paper.eq2.0.runs_near"), 0);
	cr_expect_gt(stats_num(d, "paper.eq2.0.lat_ops_run"), 0);
	json_object_put(d);
	result_free(&r);
	/* the default runs in memory, whatever Eq. 2 says */
	r = run("run '" WORKLOAD("vec_add_i32.tdfg") "' --stats=json");
	cr_assert_eq(r.status, 0, "%s", r.err);
	d = stats_parse(r.out);
	cr_expect_not(json_object_get_boolean(stats_at(d, "paper.eq2.0.in_memory")));
	cr_expect_eq(stats_num(d, "paper.eq2.0.runs_near"), 0);
	cr_expect_str_eq(json_object_get_string(stats_at(d, "paper.eq2.0.offload")), "in");
	json_object_put(d);
	result_free(&r);
}

/* A run near memory, twice: the same statistics bit for bit. */
Test(offload, near_statistics_are_deterministic)
{
	result a = run("run '" WORKLOAD("stencil2d_i32.tdfg") "' --offload=near --stats=json");
	result b = run("run '" WORKLOAD("stencil2d_i32.tdfg") "' --offload=near --stats=json");
	cr_assert_eq(a.status, 0, "%s", a.err);
	cr_assert_eq(b.status, 0, "%s", b.err);
	/* the host's measured times apart */
	json_object *da = stats_parse(a.out), *db = stats_parse(b.out);
	json_object_object_del(da, "measured");
	json_object_object_del(db, "measured");
	cr_expect_str_eq(json_object_to_json_string(da), json_object_to_json_string(db));
	json_object_put(da);
	json_object_put(db);
	result_free(&a);
	result_free(&b);
}

static void refused(const char *args, int status, const char *want)
{
	result r = run("%s", args);
	cr_expect_eq(r.status, status, "%s: %s", args, r.err);
	cr_expect(strstr(r.err, want), "%s: %s", args, r.err);
	result_free(&r);
}

Test(offload, what_cannot_run_near_memory)
{
	/* a 16-bit value: no engine type; auto keeps the run in memory */
	refused("run '" SRCDIR "/samples/tdfg/relu.tdfg' --offload=near", 1,
		"relu.tdfg:18:8: error: --offload=near: region 'r': node 'zero' (line 18) cannot "
		"run near memory: its type has no stream engine type");
	result r = run("run '" SRCDIR "/samples/tdfg/relu.tdfg' --offload=auto --check");
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect_not(strstr(r.out, "near memory"), "%s", r.out);
	result_free(&r);
	/* f32 on the arrays' default fp mode (subnormals flushed) */
	refused("run '" WORKLOAD("vec_add_f32.tdfg") "' --offload=near", 1,
		"the banks' IEEE single precision keeps subnormals, the arrays flush them");
	/* a predicate (kmeans' compare): the banks' ALU has none */
	refused("run '" WORKLOAD("kmeans_in_i32.tdfg") "' --offload=core", 1,
		"--offload=core: region 'assign': node 'hit' (line 49) cannot run near memory");
	refused("run '" SRCDIR "/samples/vadd_i32.ins' --offload=near", 1,
		"vadd_i32.ins: error: --offload=near: a stream runs as written; where regions run "
		"is chosen for a tDFG (.tdfg, .json)");
	refused("run '" WORKLOAD("vec_add_i32.tdfg") "' --offload=far", 2,
		"--offload 'far': expected in, auto, near or core");
}

/* The statistics of each configuration hold doc/stats.schema.json, its
 * offload group included. */
Test(offload, statistics_hold_the_schema)
{
	static const char *const mode[3] = {"auto", "near", "core"};
	for (unsigned m = 0; m < 3; m++) {
		result r = run("run '" WORKLOAD("gather_mlp_in_i32.tdfg") "' --offload=%s "
			       "--stats=json --stats-file=s%u.json", mode[m], m);
		cr_assert_eq(r.status, 0, "%s", r.err);
		result_free(&r);
	}
	char cmd[2048], *out = NULL;
	snprintf(cmd, sizeof cmd, "cd '%s' && python3 -c 'import json, sys, jsonschema\n"
		 "schema = json.load(open(sys.argv[1]))\n"
		 "for f in sys.argv[2:]:\n"
		 "    d = json.load(open(f))\n"
		 "    assert \"offload\" in d, f\n"
		 "    jsonschema.validate(d, schema)\n"
		 "print(\"valid\")' '%s/doc/stats.schema.json' s0.json s1.json s2.json 2>&1",
		 tmpdir, SRCDIR);
	const int st = proc_shell(cmd, &out);
	cr_expect_eq(st, 0, "%s", out ? out : "");
	cr_expect(out && strstr(out, "valid"), "%s", out ? out : "");
	free(out);
}
