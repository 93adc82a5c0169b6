/* SPDX-License-Identifier: MIT */
/*
 * test_tdfg_json.c: the published artifact's tDFG dumps (emu/tdfg_json.c,
 * doc/TDFG.md "The published artifact's JSON").  The files in
 * tests/data/json/ are written from the schema (LLVM.TDG.TDFG as protobuf
 * JSON), not by infsim: the valid ones run and pass --check, two of them
 * against values computed here in plain C; every malformed one in bad/
 * gets its one message with the JSON path (or FILE:LINE:COL) below.
 */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RUN_TMP_PREFIX "infsim-json"
#include "infsim_run.h"
#include "tdfg_json.h"

#define DATA SRCDIR "/tests/data/json"

/* Each test in a temporary folder of its own holding a copy of the data
 * (json/), so messages name json/bad/X.json and parallel runs do not
 * share the files proc_run_in keeps its outputs in. */
static char datadir[300];

static void setup(void)
{
	char cmd[4096];
	char *out = NULL;
	make_tmpdir();
	snprintf(datadir, sizeof datadir, "%s/json", tmpdir);
	const int n = snprintf(cmd, sizeof cmd, "cp -R '%s' '%s' && cp '%s/../small.ins' '%s/..'",
			       DATA, datadir, DATA, datadir);
	cr_assert(n > 0 && (size_t)n < sizeof cmd, "the data folder's path is too long");
	cr_assert_eq(proc_shell(cmd, &out), 0, "%s", out ? out : "");
	free(out);
}

TestSuite(tdfg_json, .init = setup, .fini = remove_tmpdir);

/* Run "infsim ARGS" in the copy of the data folder. */
static result run_data(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static result run_data(const char *fmt, ...)
{
	char args[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(args, sizeof args, fmt, ap);
	va_end(ap);
	result r = proc_run_in(datadir, INFSIM_BIN, args);
	cr_assert(r.status >= 0 && r.out && r.err, "infsim %s did not run", args);
	return r;
}

/* ---- valid files ---- */

static const struct valid {
	const char *file, *type, *opts;
	unsigned nodes; /* infsim nodes checked */
} valid[] = {
	{ "stencil1d_f32.json", "f32", "", 7 },
	{ "mix2d_i32.json", "i32", "-m wordlines=512", 11 },
	{ "mix2d_f32.json", "f32", "-m wordlines=512", 12 },
	{ "cube3d_i32.json", "i32", "", 3 },
};

Test(tdfg_json, valid_files_pass_check)
{
	for (size_t i = 0; i < sizeof valid / sizeof valid[0]; i++) {
		const struct valid *v = &valid[i];
		result r = run_data("run %s --type %s %s --check", v->file, v->type, v->opts);
		char want[160];
		snprintf(want, sizeof want, "--check: the reference model agrees, and every tDFG "
			 "node (%u) computes what the tDFG means", v->nodes);
		cr_expect_eq(r.status, 0, "%s: %s", v->file, r.err);
		cr_expect(strstr(r.out, want) != NULL, "%s: %s", v->file, r.out);
		cr_expect_str_empty(r.err, "%s: %s", v->file, r.err);
		result_free(&r);
	}
}

/* Also one micro-op at a time and in fp=ieee: the same nodes agree. */
Test(tdfg_json, valid_files_pass_check_stepi_ieee)
{
	result r = run_data("run mix2d_f32.json --type f32 -m wordlines=512,fp=ieee --check --stepi");
	cr_expect_eq(r.status, 0, "%s", r.err);
	result_free(&r);
}

Test(tdfg_json, jit_prints_the_lowered_stream)
{
	result r = run_data("jit mix2d_i32.json --type i32 -m wordlines=512");
	cr_assert_eq(r.status, 0, "%s", r.err);
	/* Every kind's mapping (doc/TDFG.md's table). */
	static const char *const want[] = {
		"# lowered by infsim's JIT from mix2d_i32.json\n",
		"tensor n0 i32 64x32 wl=0 array=0 tile=16x16 init=random:1\n", /* load */
		"tensor n1 i32 64x32 wl=", /* value */
		"# mix2d_i32.json: n2 (bcast)\n", /* move with a reuse */
		"# mix2d_i32.json: n4 (const)\nset.i32 n4, #3 @ ", /* int_const */
		"div.i32 n5, n3, n4 @ ", "min.i32 n6, n5, n0 @ ", /* DIV, CMP */
		"mul.i32 n7_mul, n6, n4 @ ", "add.i32 n7, n7_mul, n0 @ ", /* integer MADD */
		"add.i32 n9, n7, n7 @ ", /* n8, a move by zero, is n7 */
		"mul.i32 n10, n9, n4 @ arrays=4:1:4 bitlines=0:1:240\n",
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		cr_expect(strstr(r.out, want[i]) != NULL, "missing '%s' in:\n%s", want[i], r.out);
	cr_expect(strstr(r.out, "n8") == NULL && strstr(r.out, "n11") == NULL, "%s", r.out);
	result_free(&r);
	r = run_data("jit mix2d_f32.json --type f32 -m wordlines=512");
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "copy.f32 n1_src, n0 @ arrays=0:1:4 bitlines=80:1:16\n") &&
		  strstr(r.out, "move n3, n2, +0, +1 @ box=0:64,0:32\n") &&
		  strstr(r.out, "madd.f32 n6, n4, n5, n1 @ ") &&
		  strstr(r.out, "set.f32 n8, #inf @ ") && strstr(r.out, "min.f32 n9, n7, n8 @ "),
		  "%s", r.out);
	result_free(&r);
}

/* ---- values against plain C ---- */

static void write_file(const char *name, const void *data, size_t size)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	FILE *f = fopen(path, "wb");
	cr_assert_not_null(f);
	cr_assert_eq(fwrite(data, 1, size, f), size);
	cr_assert_eq(fclose(f), 0);
}

static void *read_back(const char *name, size_t size)
{
	char path[512];
	size_t len;
	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	void *v = proc_slurp(path, &len);
	cr_assert(v && len == size, "%s: %zu bytes, expected %zu", name, len, size);
	return v;
}

/* stencil1d_f32.json: n8 = ((A[i-1] + A[i+1]) + A[i]) * 0.333333343 on
 * [1, 1023), its nodes 3, 4 (moves), 5, 6 (ADD), 7 (a constant), 8 (MUL). */
Test(tdfg_json, stencil_values_match_plain_c)
{
	enum { N = 1024 };
	float a[N];
	for (int i = 0; i < N; i++)
		a[i] = (float)((i * 37) % 101) * 0.25f - 7.5f;
	write_file("a.bin", a, sizeof a);
	result r = run("run " DATA "/stencil1d_f32.json --type f32 --load n0=a.bin "
		       "--save n8=out.bin --check");
	cr_assert_eq(r.status, 0, "%s", r.err);
	result_free(&r);
	float *out = read_back("out.bin", sizeof a);
	for (int i = 1; i < N - 1; i++) {
		volatile float s = a[i - 1] + a[i + 1];
		volatile float t = s + a[i];
		volatile float want = t * 0.333333343f;
		cr_assert(memcmp(&out[i], (const void *)&want, 4) == 0, "element %d: %a, expected %a",
			  i, (double)out[i], (double)want);
	}
	free(out);
}

/* cube3d_i32.json: n3[x][y][z] = A[x][y][z] + A[x][y][z+1], z < 7, where
 * nodes 0 and 1 are two views of the one array A (one region_vaddr). */
Test(tdfg_json, cube_values_match_plain_c)
{
	enum { X = 16, Y = 4, Z = 8, N = X * Y * Z };
	int32_t a[N];
	for (int i = 0; i < N; i++)
		a[i] = (int32_t)(i * 2654435761u) >> 3;
	write_file("a.bin", a, sizeof a);
	result r = run("run " DATA "/cube3d_i32.json --type i32 --load n0=a.bin "
		       "--save n3=out.bin --check");
	cr_assert_eq(r.status, 0, "%s", r.err);
	result_free(&r);
	int32_t *out = read_back("out.bin", sizeof a);
	for (int z = 0; z < Z - 1; z++)
		for (int y = 0; y < Y; y++)
			for (int x = 0; x < X; x++) {
				const int i = x + X * (y + Y * z);
				const int32_t want = (int32_t)((uint32_t)a[i] + (uint32_t)a[i + X * Y]);
				cr_assert_eq(out[i], want, "(%d, %d, %d): %" PRId32 ", expected %" PRId32,
					     x, y, z, out[i], want);
			}
	free(out);
}

/* ---- malformed files: one message each, with the JSON path ---- */

static const struct bad {
	const char *file, *type, *msg;
} bad[] = {
	{ "arity_add.json", "i32",
	  ": error: $.nodes[\"3\"]: a SUB node takes 2 operands, but 1 edge leaves it ($.edges go from a user to an operand)" },
	{ "arity_move.json", "i32",
	  ": error: $.nodes[\"2\"]: a move node takes 1 operand, but 0 edges leave it ($.edges go from a user to an operand)" },
	{ "arity_value.json", "i32",
	  ": error: $.nodes[\"1\"]: a value node takes 0 operands, but 1 edge leaves it ($.edges go from a user to an operand)" },
	{ "box_empty.json", "i32",
	  ": error: $.nodes[\"3\"].pattern: an empty pattern; expected the box the node's value occupies" },
	{ "box_params.json", "i32",
	  ": error: $.nodes[\"3\"].pattern: 3 (stride, tc) pairs, but the lattice (pum_tile) has 2 dimensions" },
	{ "box_past.json", "i32",
	  ": error: $.nodes[\"3\"].pattern.params[0]: the box [1, 65) along dimension 0 extends past the array's 64" },
	{ "box_start.json", "i32",
	  ": error: $.nodes[\"3\"].pattern: start 2048 is outside the lattice of 2048 elements" },
	{ "compute_none.json", "i32",
	  ": error: $.nodes[\"3\"].compute: expected one of op, int_const or float_const" },
	{ "compute_outside.json", "i32",
	  ": error: $.nodes[\"5\"].pattern: box [0, 64) x [0, 32) is not inside the box [0, 64) x [1, 32) of operand node 3; a compute node works where all its operands are defined" },
	{ "compute_two.json", "i32",
	  ": error: $.nodes[\"3\"].compute.int_const: a second value of the oneof; a compute node has one of op, int_const or float_const" },
	{ "cycle.json", "i32",
	  ": error: $.nodes[\"3\"]: node 3 depends on itself (3 -> 9 -> 8 -> 7 -> 6 -> 5 -> 3, each an operand of the one before); a tDFG is acyclic" },
	{ "cycle_self.json", "i32",
	  ": error: $.nodes[\"2\"]: node 2 depends on itself (2 -> 2, each an operand of the one before); a tDFG is acyclic" },
	{ "edge_dangling_dst.json", "i32",
	  ": error: $.edges[4].dst: no node 42 in $.nodes" },
	{ "edge_dangling_src.json", "i32",
	  ": error: $.edges[4].src: no node 42 in $.nodes" },
	{ "edge_missing_dst.json", "i32",
	  ": error: $.edges[2]: missing field \"dst\"" },
	{ "edge_negative.json", "i32",
	  ": error: $.edges[0].src: -1 is out of range; expected 0 to 4294967295" },
	{ "edge_sync.json", "i32",
	  ": error: $.edges[15].dst: node 11 is a sync, which has no value and no operands" },
	{ "edges_object.json", "i32",
	  ": error: $.edges: expected an array of {\"src\", \"dst\"}, found an object" },
	{ "field_unknown.json", "i32",
	  ": error: $.nodes[\"3\"]: unknown field \"regionName\"; expected id, region_name, pum_tile, pattern, split_out_dim, scalar_elem_size, start_word_line, value, move, load, compute, sync or store_stream" },
	{ "float_const_huge.json", "i32",
	  ": error: $.nodes[\"4\"].compute.float_const: the number 1e+39 is not a float (beyond +-3.4028235e38; protobuf JSON writes \"Infinity\" and \"NaN\" as strings)" },
	{ "float_const_i32.json", "i32",
	  ": error: $.nodes[\"4\"].compute.float_const: a float constant in a graph of integer elements; expected int_const" },
	{ "float_const_word.json", "i32",
	  ": error: $.nodes[\"4\"].compute.float_const: expected a number, or \"NaN\", \"Infinity\" or \"-Infinity\", found the string \"abc\"" },
	{ "id_differs.json", "i32",
	  ": error: $.nodes[\"4\"]: id 40 differs from the node's key \"4\"" },
	{ "id_huge.json", "i32",
	  ": error: $.nodes[\"4\"].id: a number beyond 64 bits; expected 0 to 4294967295" },
	{ "id_string.json", "i32",
	  ": error: $.nodes[\"4\"].id: expected an integer number (uint32), found the string \"4\"" },
	{ "int_const_f32.json", "f32",
	  ": error: $.nodes[\"4\"].compute.int_const: an integer constant in a graph of f32 elements; expected float_const" },
	{ "int_const_huge.json", "i32",
	  ": error: $.nodes[\"4\"].compute.int_const: 99999999999 is out of range; expected -2147483648 to 2147483647" },
	{ "int_const_string.json", "i32",
	  ": error: $.nodes[\"4\"].compute.int_const: expected an integer number (int32), found the string \"3\"" },
	{ "key_huge.json", "i32",
	  ": error: $.nodes: key \"99999999999\" is not a node id; expected a uint32 in decimal, as a string (\"3\")" },
	{ "key_word.json", "i32",
	  ": error: $.nodes: key \"x\" is not a node id; expected a uint32 in decimal, as a string (\"3\")" },
	{ "kind_field_unknown.json", "i32",
	  ": error: $.nodes[\"1\"].value: unknown field \"vaddr\"; expected region_vaddr" },
	{ "kind_missing.json", "i32",
	  ": error: $.nodes[\"3\"]: expected one of value, move, load, compute, sync or store_stream (the node's kind)" },
	{ "kind_two.json", "i32",
	  ": error: $.nodes[\"3\"].compute: a second kind (the node is a value); a node has one of value, move, load, compute, sync or store_stream" },
	{ "move_extent.json", "i32",
	  ": error: $.nodes[\"8\"].pattern: 16 elements along dimension 1, but the send_pattern sends 32; a move keeps the extents" },
	{ "move_outside.json", "i32",
	  ": error: $.nodes[\"8\"].move.send_pattern: box [0, 64) x [1, 32) is not inside the box [0, 64) x [0, 31) of operand node 7" },
	{ "move_reuse_align.json", "i32",
	  ": error: $.nodes[\"2\"].pattern: moves along dimension 0 besides its reuse dimension 1; a move shifts along one dimension (\u00a73.2), a broadcast along its reuse dimension" },
	{ "move_two_dims.json", "i32",
	  ": error: $.nodes[\"8\"].pattern: moves along dimension 1 and 0; a move shifts along one dimension (\u00a73.2), a broadcast along its reuse dimension" },
	{ "nodes_array.json", "i32",
	  ": error: $.nodes: expected an object mapping node ids to nodes, found an array" },
	{ "nodes_empty.json", "i32",
	  ": error: $.nodes: no nodes; a tDFG needs at least one" },
	{ "nodes_missing.json", "i32",
	  ": error: $: missing field \"nodes\"" },
	{ "null_field.json", "i32",
	  ": error: $.nodes[\"3\"].pattern: null, but infsim needs this field" },
	{ "only_sync.json", "i32",
	  ": error: $.nodes: only sync nodes; a tDFG needs a node with a value" },
	{ "op_number.json", "i32",
	  ": error: $.nodes[\"3\"].compute.op: unknown OpCode 7, expected ADD, SUB, MUL, DIV, CMP or MADD (0 to 5)" },
	{ "op_object.json", "i32",
	  ": error: $.nodes[\"3\"].compute.op: expected an OpCode (ADD, SUB, MUL, DIV, CMP or MADD), found an object" },
	{ "op_unknown.json", "i32",
	  ": error: $.nodes[\"3\"].compute.op: unknown OpCode \"FOO\", expected ADD, SUB, MUL, DIV, CMP or MADD" },
	{ "params_many.json", "i32",
	  ": error: $.nodes[\"3\"].pattern.params: 9 (stride, tc) pairs; an AffinePattern has at most 8" },
	{ "pattern_missing.json", "i32",
	  ": error: $.nodes[\"3\"]: missing field \"pattern\"" },
	{ "ptr_number.json", "i32",
	  ": error: $.nodes[\"3\"].compute.compute_node_ptr: expected a uint64 as a string (protobuf JSON writes 64-bit integers in quotes, e.g. \"16\"), found the number 0" },
	{ "region_name_number.json", "i32",
	  ": error: $.nodes[\"3\"].region_name: expected a string, found the number 5" },
	{ "reuse_in_pattern.json", "i32",
	  ": error: $.nodes[\"3\"].pattern.params[1]: stride 0 along dimension 1; expected 64 (the inner array sizes' product: infsim's tensors are boxes)" },
	{ "root_array.json", "i32",
	  ": error: $: expected an object, found an array" },
	{ "root_unknown.json", "i32",
	  ": error: $: unknown field \"graph\"; expected nodes or edges" },
	{ "send_split_nonempty.json", "i32",
	  ": error: $.nodes[\"2\"].move.send_split_out_dim: a split outer dimension (the node repeated over an outer loop); infsim runs the tDFG once, so expected the empty pattern 0:1:0" },
	{ "size_missing.json", "i32",
	  ": error: $.nodes[\"3\"]: missing field \"scalar_elem_size\"" },
	{ "size_string.json", "i32",
	  ": error: $.nodes[\"3\"].scalar_elem_size: expected an integer number (int32), found the string \"4\"" },
	{ "size_wrong.json", "i32",
	  ": error: $.nodes[\"3\"].scalar_elem_size: 8 bytes, but the element type read (i32) has 4" },
	{ "send_field_unknown.json", "i32",
	  ": error: $.nodes[\"2\"].move.send_pattern: unknown field \"starJt\"; expected start or params" },
	{ "send_tc_negative.json", "i32",
	  ": error: $.nodes[\"2\"].move.send_pattern.params[0]: trip count -16 is negative" },
	{ "split_nonempty.json", "i32",
	  ": error: $.nodes[\"3\"].split_out_dim: a split outer dimension (the node repeated over an outer loop); infsim runs the tDFG once, so expected the empty pattern 0:1:0" },
	{ "start_huge.json", "i32",
	  ": error: $.nodes[\"3\"].pattern.start: expected an int64 as a string of decimal digits with an optional '-', found the string \"99999999999999999999\"" },
	{ "start_number.json", "i32",
	  ": error: $.nodes[\"3\"].pattern.start: expected an int64 as a string (protobuf JSON writes 64-bit integers in quotes, e.g. \"16\"), found the number 0" },
	{ "start_word.json", "i32",
	  ": error: $.nodes[\"3\"].pattern.start: expected an int64 as a string of decimal digits with an optional '-', found the string \"zero\"" },
	{ "stride_bad.json", "i32",
	  ": error: $.nodes[\"3\"].pattern.params[1]: stride 128 along dimension 1; expected 64 (the inner array sizes' product: infsim's tensors are boxes)" },
	{ "syntax_after.json", "i32",
	  ":2:1: error: invalid JSON: unexpected character" },
	{ "syntax_comma.json", "i32",
	  ":3:19: error: invalid JSON: unexpected character" },
	{ "syntax_deep.json", "i32",
	  ":1:17: error: JSON nested deeper than 16 levels; the schema needs 6" },
	{ "syntax_nul.json", "i32",
	  ":1:10: error: NUL byte in the input; expected JSON text" },
	{ "syntax_token.json", "i32",
	  ":2:13: error: invalid JSON: null expected" },
	{ "syntax_truncated.json", "i32",
	  ":18:9: error: the JSON text ends inside a value (the file may be truncated)" },
	{ "tc_negative.json", "i32",
	  ": error: $.nodes[\"3\"].pattern.params[1]: trip count -1 is negative" },
	{ "tc_number.json", "i32",
	  ": error: $.nodes[\"3\"].pattern.params[0].tc: expected an int64 as a string (protobuf JSON writes 64-bit integers in quotes, e.g. \"16\"), found the number 64" },
	{ "tile_differs.json", "i32",
	  ": error: $.nodes[\"5\"].pum_tile: differs from node 0's (array 64x32 in tiles 16x16); infsim puts a whole tDFG on one lattice and tiling" },
	{ "tile_machine.json", "i32",
	  ": error: $.nodes[\"0\"].pum_tile: tiles of 32x16 = 512 elements, but the machine's arrays have 256 bitlines; a tile fills an array or a divisor of it (the artifact's machine has 256)" },
	{ "tile_missing.json", "i32",
	  ": error: $.nodes[\"3\"]: missing field \"pum_tile\"" },
	{ "tile_odd.json", "i32",
	  ": error: $.nodes[\"0\"].pum_tile: expected a canonical tile: start 0 and 2, 4 or 6 (stride, tc) pairs, the tile sizes then the tile counts of each dimension" },
	{ "tile_stride.json", "i32",
	  ": error: $.nodes[\"0\"].pum_tile.params[2].stride: 32, but a canonical tile has 16 here (the tile size times the inner array sizes)" },
	{ "vaddr_negative.json", "i32",
	  ": error: $.nodes[\"1\"].value.region_vaddr: expected a uint64 as a string of decimal digits, found the string \"-4096\"" },
	{ "vaddr_number.json", "i32",
	  ": error: $.nodes[\"1\"].value.region_vaddr: expected a uint64 as a string (protobuf JSON writes 64-bit integers in quotes, e.g. \"16\"), found the number 4096" },
};

Test(tdfg_json, malformed_files_name_the_json_path)
{
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		const struct bad *b = &bad[i];
		result r = run_data("run bad/%s --type %s", b->file, b->type);
		char want[1200];
		snprintf(want, sizeof want, "bad/%s%s\n", b->file, b->msg);
		cr_expect_eq(r.status, 1, "%s: status %d", b->file, r.status);
		cr_expect_str_eq(r.err, want, "%s", b->file);
		cr_expect_str_empty(r.out, "%s", b->file);
		result_free(&r);
	}
}

/* ---- the options ---- */

Test(tdfg_json, type_is_required_and_checked)
{
	static const struct {
		const char *args, *msg;
	} cases[] = {
		{ "run mix2d_i32.json",
		  "infsim: mix2d_i32.json: an artifact's tDFG (.json) has no element type; give one "
		  "with --type (f32, i32, ...)\n" },
		{ "jit mix2d_i32.json --type f64",
		  "infsim: --type 'f64': expected an element type: f32, or iN or uN with N 8, 16, "
		  "32 or 64\n" },
		{ "run mix2d_i32.json --type i12",
		  "infsim: --type 'i12': the artifact's scalars are f32 or integers of 8, 16, 32 or "
		  "64 bits\n" },
		{ "run ../small.ins --type i32",
		  "infsim: --type applies to an artifact's tDFG (.json), not to '../small.ins'\n" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		result r = run_data("%s", cases[i].args);
		char want[512];
		snprintf(want, sizeof want, "%sTry 'infsim --help' for more information.\n",
			 cases[i].msg);
		cr_expect_eq(r.status, 2, "%s", cases[i].args);
		cr_expect_str_eq(r.err, want, "%s", cases[i].args);
		result_free(&r);
	}
	/* The type's size must be the nodes' scalar_elem_size. */
	result r = run_data("run mix2d_i32.json --type u64");
	cr_expect_eq(r.status, 1);
	cr_expect_str_eq(r.err, "mix2d_i32.json: error: $.nodes[\"0\"].scalar_elem_size: 4 bytes, "
			 "but the element type read (u64) has 8\n");
	result_free(&r);
}

/* A file past the bound is refused before it is parsed. */
Test(tdfg_json, input_size_is_bounded)
{
	char path[512];
	snprintf(path, sizeof path, "%s/big.json", tmpdir);
	FILE *f = fopen(path, "wb");
	cr_assert_not_null(f);
	cr_assert_eq(fseek(f, EMU_TDFG_JSON_MAX_BYTES, SEEK_SET), 0);
	cr_assert_eq(fputc(' ', f), ' ');
	cr_assert_eq(fclose(f), 0);
	result r = run("run big.json --type f32");
	cr_expect_eq(r.status, 1);
	cr_expect_str_eq(r.err, "big.json: error: the file is larger than 16777216 bytes, the "
			 "limit of this input\n");
	result_free(&r);
	r = run("run missing.json --type f32");
	cr_expect_eq(r.status, 1);
	cr_expect_str_eq(r.err, "missing.json: error: cannot open: No such file or directory\n");
	result_free(&r);
}

/* ---- the library ---- */

static int parse_text(const char *text, emu_tdfg *t, diag *d)
{
	diag_clear(d);
	return emu_tdfg_json_parse("t.json", text, strlen(text), "i32", NULL, NULL, t, d);
}

Test(tdfg_json, library_maps_nodes_and_reports_syntax_at_line_and_column)
{
	emu_tdfg t;
	diag d;
	cr_expect_neq(parse_text("{\n  \"nodes\": {\n    \"0\": [1, 2,]\n  }\n}\n", &t, &d), 0);
	cr_expect_str_eq(d.msg, "t.json:3:16: error: invalid JSON: unexpected character");
	emu_tdfg_free(&t);
	cr_expect_neq(parse_text("{\"nodes\": {}}", &t, &d), 0);
	cr_expect_str_eq(d.msg, "t.json: error: $.nodes: no nodes; a tDFG needs at least one");
	emu_tdfg_free(&t);
	/* A value and a constant added: three nodes in one region, the
	 * pattern as domain, the sink an output. */
	const char *ok =
		"{\"nodes\": {"
		"\"7\": {\"id\": 7, \"scalar_elem_size\": 4, \"compute\": {\"op\": \"ADD\"},"
		" \"pum_tile\": {\"start\": \"0\", \"params\": [{\"stride\": \"1\", \"tc\": \"256\"},"
		" {\"stride\": \"256\", \"tc\": \"1\"}]},"
		" \"pattern\": {\"start\": \"16\", \"params\": [{\"stride\": \"1\", \"tc\": \"32\"}]}},"
		"\"2\": {\"id\": 2, \"scalar_elem_size\": 4, \"value\": {\"region_vaddr\": \"64\"},"
		" \"pum_tile\": {\"start\": \"0\", \"params\": [{\"stride\": \"1\", \"tc\": \"256\"},"
		" {\"stride\": \"256\", \"tc\": \"1\"}]},"
		" \"pattern\": {\"start\": \"0\", \"params\": [{\"stride\": \"1\", \"tc\": \"256\"}]}},"
		"\"3\": {\"id\": 3, \"scalar_elem_size\": 4, \"compute\": {\"int_const\": -2},"
		" \"pum_tile\": {\"start\": \"0\", \"params\": [{\"stride\": \"1\", \"tc\": \"256\"},"
		" {\"stride\": \"256\", \"tc\": \"1\"}]},"
		" \"pattern\": {\"start\": \"0\", \"params\": [{\"stride\": \"1\", \"tc\": \"256\"}]}}},"
		"\"edges\": [{\"src\": 7, \"dst\": 3}, {\"src\": 7, \"dst\": 2}]}";
	cr_assert_eq(parse_text(ok, &t, &d), 0, "%s", d.msg);
	cr_assert_eq(t.nregions, 1);
	cr_expect_eq(t.regions[0].shape[0], 256);
	cr_expect_eq(t.regions[0].tile[0], 256);
	cr_assert_eq(t.nnodes, 3);
	cr_expect_str_eq(t.nodes[0].name, "n2");
	cr_expect_eq(t.nodes[0].kind, EMU_TN_INPUT);
	cr_expect_str_eq(t.nodes[1].name, "n3");
	cr_expect_eq(t.nodes[1].kind, EMU_TN_CONST);
	cr_expect_eq(t.nodes[1].value, 0xfffffffeu);
	cr_expect_str_eq(t.nodes[2].name, "n7");
	cr_expect_eq(t.nodes[2].kind, EMU_TN_COMPUTE);
	cr_expect_eq(t.nodes[2].arg[0], 1); /* operands in the order of the edges */
	cr_expect_eq(t.nodes[2].arg[1], 0);
	cr_expect_eq(t.nodes[2].dom.lo[0], 16);
	cr_expect_eq(t.nodes[2].dom.hi[0], 48);
	cr_expect(t.nodes[2].output && !t.nodes[1].output);
	emu_tdfg_free(&t);
}

Test(tdfg_json, path_and_type_helpers)
{
	unsigned fmt, w, sg;
	const char *why;
	cr_expect(emu_tdfg_json_path("x.json") && !emu_tdfg_json_path(".json") &&
		  !emu_tdfg_json_path("x.tdfg") && !emu_tdfg_json_path(NULL));
	cr_expect_eq(emu_tdfg_json_type("f32", &fmt, &w, &sg, &why), 0);
	cr_expect_eq(emu_tdfg_json_type("u8", &fmt, &w, &sg, &why), 0);
	cr_expect_eq(w, 8);
	cr_expect_neq(emu_tdfg_json_type("f16", &fmt, &w, &sg, &why), 0);
	cr_expect_neq(emu_tdfg_json_type(NULL, &fmt, &w, &sg, &why), 0);
}
