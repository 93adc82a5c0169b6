/* SPDX-License-Identifier: MIT */
/*
 * test_tdfg_json.c: the published artifact's tDFG dumps (emu/tdfg_json.c,
 * doc/TDFG.md "The published artifact's JSON").  The files in
 * tests/data/json/ are written from the schema (LLVM.TDG.TDFG as protobuf
 * JSON), not by infsim: the valid ones run and pass --check, two of them
 * against values computed here in plain C; every malformed one in bad/
 * gets its one message with the JSON path (or FILE:LINE:COL) below.
 * The other forms proto3 JSON readers take (lowerCamelCase names,
 * integers as numbers or strings, defaults left out) are fixtures
 * transformed here: each lowers to its fixture's own stream.
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
	{ "edge_negative.json", "i32",
	  ": error: $.edges[0].src: -1 is out of range; expected a uint32, 0 to 4294967295" },
	{ "edge_sync.json", "i32",
	  ": error: $.edges[15].dst: node 11 is a sync, which has no value and no operands" },
	{ "edges_object.json", "i32",
	  ": error: $.edges: expected an array of {\"src\", \"dst\"}, found an object" },
	{ "field_two_names.json", "i32",
	  ": error: $.nodes[\"3\"]: both \"region_name\" and \"regionName\" given; they name one field (its proto name and its lowerCamelCase JSON name), so expected one of them" },
	{ "field_unknown.json", "i32",
	  ": error: $.nodes[\"3\"]: unknown field \"regionLabel\"; expected id, region_name, pum_tile, pattern, split_out_dim, scalar_elem_size, start_word_line, value, move, load, compute, sync or store_stream" },
	{ "float_const_huge.json", "i32",
	  ": error: $.nodes[\"4\"].compute.float_const: the number 1e+39 is not a float (beyond +-3.4028235e38; protobuf JSON writes \"Infinity\" and \"NaN\" as strings)" },
	{ "float_const_i32.json", "i32",
	  ": error: $.nodes[\"4\"].compute.float_const: a float constant in a graph of integer elements; expected int_const" },
	{ "float_const_word.json", "i32",
	  ": error: $.nodes[\"4\"].compute.float_const: expected a number (or a string holding one), \"NaN\", \"Infinity\" or \"-Infinity\", found the string \"abc\"" },
	{ "id_differs.json", "i32",
	  ": error: $.nodes[\"4\"]: id 40 differs from the node's key \"4\"" },
	{ "id_huge.json", "i32",
	  ":1:1768: error: the integer 99999999999999999999999 is beyond 64 bits; expected at most 64 (an int64 or a uint64), or a float with an exponent (1e+20)" },
	{ "int_const_f32.json", "f32",
	  ": error: $.nodes[\"4\"].compute.int_const: an integer constant in a graph of f32 elements; expected float_const" },
	{ "int_const_huge.json", "i32",
	  ": error: $.nodes[\"4\"].compute.int_const: 99999999999 is out of range; expected an int32, -2147483648 to 2147483647" },
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
	{ "size_wrong.json", "i32",
	  ": error: $.nodes[\"3\"].scalar_elem_size: 8 bytes, but the element type read (i32) has 4" },
	{ "send_field_unknown.json", "i32",
	  ": error: $.nodes[\"2\"].move.send_pattern: unknown field \"starJt\"; expected start or params" },
	{ "send_tc_negative.json", "i32",
	  ": error: $.nodes[\"2\"].move.send_pattern.params[0]: trip count -16 is negative" },
	{ "split_nonempty.json", "i32",
	  ": error: $.nodes[\"3\"].split_out_dim: a split outer dimension (the node repeated over an outer loop); infsim runs the tDFG once, so expected the empty pattern 0:1:0" },
	{ "start_huge.json", "i32",
	  ": error: $.nodes[\"3\"].pattern.start: the string \"99999999999999999999\" is out of range; expected an int64, -9223372036854775808 to 9223372036854775807" },
	{ "start_word.json", "i32",
	  ": error: $.nodes[\"3\"].pattern.start: expected an int64 (a number, or a string holding one), found the string \"zero\"" },
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
	  ": error: $.nodes[\"1\"].value.region_vaddr: -4096 is out of range; expected a uint64, 0 to 18446744073709551615" },
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
		snprintf(want, sizeof want, "%sTry 'infsim%s --help' for more information.\n",
			 cases[i].msg, strncmp(cases[i].args, "run ", 4) ? "" : " run");
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
/* ---- proto3 JSON: every form its readers take ---- */

/* Each test below transforms a fixture and lowers it: what a proto3
 * JSON reader takes must give the fixture's own stream, what it refuses
 * one message.  The fixtures, and how to lower each. */
#define MIX "mix2d_i32.json", "--type i32 -m wordlines=512"
#define MIXF "mix2d_f32.json", "--type f32 -m wordlines=512"
#define STRM "store_stream_indirect.json", "--type i32"
#define AFF "store_stream_affine.json", "--type f32"

static char *fixture(const char *file)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", DATA, file);
	char *text = proc_slurp(path, NULL);
	cr_assert_not_null(text, "%s", path);
	return text;
}

/* text with from replaced by to: every one, or only the first. */
static char *replaced(const char *text, const char *from, const char *to, bool first)
{
	const size_t nf = strlen(from), nt = strlen(to);
	size_t count = 0;
	for (const char *p = text; (p = strstr(p, from)); p += nf)
		count++;
	cr_assert(count > 0, "no '%s' to replace", from);
	count = first ? 1 : count;
	char *out = malloc(strlen(text) + count * nt + 1), *o = out;
	cr_assert_not_null(out);
	const char *p = text;
	for (size_t k = 0; k < count; k++) {
		const char *q = strstr(p, from);
		memcpy(o, p, (size_t)(q - p));
		o += q - p;
		memcpy(o, to, nt);
		o += nt;
		p = q + nf;
	}
	strcpy(o, p);
	return out;
}

static bool blank(char ch)
{
	return ch == ' ' || ch == '\n' || ch == '\t' || ch == '\r';
}

/* text without every object member m ("dst": 0) and the comma that
 * parts it from the next member or the one before: the field left out,
 * as a proto3 printer leaves out a field at its default. */
static char *dropped(const char *text, const char *m)
{
	char *out = strdup(text), *p;
	const size_t n = strlen(m);
	cr_assert(out && strstr(out, m), "no '%s' to drop", m);
	while ((p = strstr(out, m))) {
		char *e = p + n, *b = p;
		while (blank(*e))
			e++;
		if (*e == ',') {
			for (e++; blank(*e); e++)
				;
		} else {
			while (b > out && blank(b[-1]))
				b--;
			cr_assert(b > out && b[-1] == ',', "'%s' is not a member", m);
			b--;
		}
		memmove(b, e, strlen(e) + 1);
	}
	return out;
}

/* infsim jit of text (as t.json in tmpdir). */
static result jit_text(const char *text, const char *args)
{
	write_file("t.json", text, strlen(text));
	return run("jit t.json %s", args);
}

/* text lowers to the very stream its fixture does. */
static void same_stream(const char *file, const char *args, const char *text, const char *what)
{
	char *orig = fixture(file);
	result want = jit_text(orig, args), got = jit_text(text, args);
	cr_assert_eq(want.status, 0, "%s: %s", file, want.err);
	cr_expect_eq(got.status, 0, "%s, %s: %s", file, what, got.err);
	cr_expect_str_eq(got.out, want.out, "%s, %s", file, what);
	result_free(&want);
	result_free(&got);
	free(orig);
}

/* Every `from` of the fixture written as `to`: the same stream. */
static const struct form {
	const char *file, *args, *from, *to;
} forms[] = {
	/* int32: scalar_elem_size, start_word_line, int_const */
	{ MIX, "\"scalar_elem_size\": 4", "\"scalar_elem_size\": \"4\"" },
	{ MIX, "\"scalar_elem_size\": 4", "\"scalar_elem_size\": 4e0" },
	{ MIX, "\"scalar_elem_size\": 4", "\"scalar_elem_size\": 4.0" },
	{ MIX, "\"scalar_elem_size\": 4", "\"scalar_elem_size\": 400E-2" },
	{ MIX, "\"scalar_elem_size\": 4", "\"scalar_elem_size\": \"0.4e1\"" },
	{ MIX, "\"start_word_line\": 0", "\"start_word_line\": \"-0\"" },
	{ MIX, "\"start_word_line\": 0", "\"start_word_line\": 0e7" },
	{ MIX, "\"start_word_line\": 0", "\"start_word_line\": -2147483648" },
	{ MIX, "\"start_word_line\": 0", "\"start_word_line\": \"2147483647\"" },
	{ MIX, "\"int_const\": 3", "\"int_const\": \"3\"" },
	{ MIX, "\"int_const\": 3", "\"int_const\": 3.0" },
	{ MIX, "\"int_const\": 3", "\"int_const\": \"300e-2\"" },
	/* uint32: id, src, dst */
	{ MIX, "\"id\": 4,", "\"id\": \"4\"," },
	{ MIX, "\"id\": 4,", "\"id\": 0.4e1," },
	{ MIX, "\"src\": 10,", "\"src\": \"10\"," },
	{ MIX, "\"src\": 10,", "\"src\": 1e1," },
	{ MIX, "\"src\": 10,", "\"src\": \"1E+1\"," },
	{ MIX, "\"dst\": 4\n", "\"dst\": 4.00\n" },
	{ MIX, "\"dst\": 4\n", "\"dst\": \"4\"\n" },
	/* int64: start, stride, tc */
	{ MIX, "\"tc\": \"64\"", "\"tc\": 64" },
	{ MIX, "\"tc\": \"64\"", "\"tc\": 6.4e1" },
	{ MIX, "\"tc\": \"64\"", "\"tc\": \"640e-1\"" },
	{ MIX, "\"stride\": \"1024\"", "\"stride\": 1024" },
	{ MIX, "\"stride\": \"1024\"", "\"stride\": \"1.024E3\"" },
	{ MIX, "\"stride\": \"0\"", "\"stride\": 0" },
	{ MIX, "\"start\": \"0\"", "\"start\": 0" },
	{ MIX, "\"start\": \"0\"", "\"start\": \"-0.0\"" },
	/* split_out_dim's start and stride do not matter: the extremes */
	{ MIX, "\"split_out_dim\": {\n        \"start\": \"0\"",
	  "\"split_out_dim\": {\n        \"start\": -9223372036854775808" },
	{ MIX, "\"split_out_dim\": {\n        \"start\": \"0\"",
	  "\"split_out_dim\": {\n        \"start\": \"9223372036854775807\"" },
	{ MIX, "\"split_out_dim\": {\n        \"start\": \"0\"",
	  "\"split_out_dim\": {\n        \"start\": 9.223372036854775807e18" },
	/* uint64: region_vaddr, the *_ptr fields */
	{ MIX, "\"region_vaddr\": \"4096\"", "\"region_vaddr\": 4096" },
	{ MIX, "\"region_vaddr\": \"4096\"", "\"region_vaddr\": 4.096e3" },
	{ MIX, "\"region_vaddr\": \"4096\"", "\"region_vaddr\": 18446744073709551615" },
	{ MIX, "\"region_vaddr\": \"4096\"", "\"region_vaddr\": \"18446744073709551615\"" },
	{ MIX, "\"region_vaddr\": \"4096\"", "\"region_vaddr\": \"1.8446744073709551615e19\"" },
	{ MIX, "\"send_config_ptr\": \"1\"", "\"send_config_ptr\": 1" },
	{ MIX, "\"compute_node_ptr\": \"0\"", "\"compute_node_ptr\": \"0e0\"" },
	/* enums: by name or by number */
	{ MIX, "\"op\": \"SUB\"", "\"op\": 1" },
	{ MIX, "\"op\": \"SUB\"", "\"op\": \"1\"" },
	{ MIX, "\"op\": \"MADD\"", "\"op\": 5e0" },
	{ STRM, "\"op\":\"ADD\"", "\"op\":1" },
	{ STRM, "\"op\":\"ADD\"", "\"op\":\"1\"" },
	{ STRM, "\"dim\":1", "\"dim\":\"1\"" },
	{ AFF, "\"op\":\"STORE\"", "\"op\":0" },
	/* float: a number or a string holding one; FLT_MAX as printed */
	{ MIXF, "\"float_const\": 0.5", "\"float_const\": \"0.5\"" },
	{ MIXF, "\"float_const\": 0.5", "\"float_const\": 5E-1" },
};

Test(tdfg_json, integers_as_numbers_or_strings_lower_the_same_stream)
{
	for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
		const struct form *f = &forms[i];
		char *orig = fixture(f->file), *text = replaced(orig, f->from, f->to, false);
		same_stream(f->file, f->args, text, f->to);
		free(text);
		free(orig);
	}
}

/* A float_const of FLT_MAX as protobuf prints it, 3.4028235e+38 (past
 * FLT_MAX as a double, by less than half a float ulp): FLT_MAX, as its
 * exact decimal is, as a number or as a string. */
Test(tdfg_json, float_const_flt_max_as_protobuf_prints_it)
{
	static const char *const to[] = {
		"\"float_const\": 3.40282346638528859811704183484516925440e38",
		"\"float_const\": 3.4028235e+38",
		"\"float_const\": \"3.4028235e+38\"",
	};
	char *orig = fixture("mix2d_f32.json");
	result r[3];
	for (size_t i = 0; i < 3; i++) {
		char *text = replaced(orig, "\"float_const\": 0.5", to[i], false);
		r[i] = jit_text(text, "--type f32 -m wordlines=512");
		cr_expect_eq(r[i].status, 0, "%s: %s", to[i], r[i].err);
		free(text);
	}
	cr_expect(strstr(r[0].out, "set.f32 n5, #3.4028235e+38 @ ") != NULL, "%s", r[0].out);
	cr_expect_str_eq(r[1].out, r[0].out);
	cr_expect_str_eq(r[2].out, r[0].out);
	for (size_t i = 0; i < 3; i++)
		result_free(&r[i]);
	free(orig);
}

/* Fields left out or null: their defaults (0, STORE), as a proto3
 * printer leaves them out; null in a oneof: not that member. */
Test(tdfg_json, defaults_left_out_or_null_lower_the_same_stream)
{
	static const char *const zeros[] = {
		"\"id\": 0", "\"start\": \"0\"", "\"start_word_line\": 0", "\"compute_node_ptr\": \"0\"",
		"\"stride\": \"0\"", "\"tc\": \"0\"", "\"dst\": 0",
	};
	char *text = fixture("mix2d_i32.json");
	for (size_t i = 0; i < sizeof zeros / sizeof zeros[0]; i++) {
		char *t = dropped(text, zeros[i]);
		free(text);
		text = t;
	}
	cr_assert(strstr(text, "{\n      \"src\": 3}"), "%s", text); /* "dst": 0 left out */
	same_stream(MIX, text, "zeros left out");
	free(text);

	static const struct { const char *from, *to; } nulls[] = {
		{ "\"id\": 0,", "\"id\": null," },
		{ "\"start\": \"0\"", "\"start\": null" },
		{ "\"start_word_line\": 0", "\"start_word_line\": null" },
		{ "\"compute_node_ptr\": \"0\"", "\"compute_node_ptr\": null" },
		{ "\"tc\": \"0\"", "\"tc\": null" },
		{ "\"dst\": 0\n", "\"dst\": null\n" },
		{ "\"op\": \"SUB\"", "\"op\": \"SUB\", \"int_const\": null, \"float_const\": null" },
		{ "\"load\": {", "\"value\": null, \"compute\": null, \"load\": {" },
	};
	char *orig = fixture("mix2d_i32.json");
	for (size_t i = 0; i < sizeof nulls / sizeof nulls[0]; i++) {
		char *t = replaced(orig, nulls[i].from, nulls[i].to, false);
		same_stream(MIX, t, nulls[i].to);
		free(t);
	}
	free(orig);
	/* store_stream's op left out or null: STORE */
	orig = fixture("store_stream_affine.json");
	char *t = replaced(orig, "{\"op\":\"STORE\"}", "{}", false);
	same_stream(AFF, t, "op left out");
	free(t);
	t = replaced(orig, "{\"op\":\"STORE\"}", "{\"op\":null}", false);
	same_stream(AFF, t, "op null");
	free(t);
	free(orig);
}

/* Each field by its lowerCamelCase JSON name (protoc's json_name, what
 * proto3 printers write by default), written out here by hand. */
static const char *const camel[][2] = {
	{ "\"region_name\"", "\"regionName\"" },
	{ "\"pum_tile\"", "\"pumTile\"" },
	{ "\"split_out_dim\"", "\"splitOutDim\"" },
	{ "\"scalar_elem_size\"", "\"scalarElemSize\"" },
	{ "\"start_word_line\"", "\"startWordLine\"" },
	{ "\"region_vaddr\"", "\"regionVaddr\"" },
	{ "\"send_pattern\"", "\"sendPattern\"" },
	{ "\"send_split_out_dim\"", "\"sendSplitOutDim\"" },
	{ "\"send_config_ptr\"", "\"sendConfigPtr\"" },
	{ "\"recv_config_ptr\"", "\"recvConfigPtr\"" },
	{ "\"compute_node_ptr\"", "\"computeNodePtr\"" },
	{ "\"int_const\"", "\"intConst\"" },
	{ "\"float_const\"", "\"floatConst\"" },
	{ "\"store_stream\"", "\"storeStream\"" },
};

/* text with every field name that it has in lowerCamelCase. */
static char *camel_case(const char *text)
{
	char *t = strdup(text);
	cr_assert_not_null(t);
	for (size_t i = 0; i < sizeof camel / sizeof camel[0]; i++) {
		if (!strstr(t, camel[i][0]))
			continue;
		char *u = replaced(t, camel[i][0], camel[i][1], false);
		free(t);
		t = u;
	}
	return t;
}

Test(tdfg_json, lower_camel_case_names_lower_the_same_stream)
{
	static const struct { const char *file, *args; } files[] = { { MIX }, { MIXF }, { STRM } };
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		char *orig = fixture(files[i].file), *text = camel_case(orig);
		for (size_t k = 0; k < sizeof camel / sizeof camel[0]; k++)
			cr_assert(!strstr(text, camel[k][0]), "%s", camel[k][0]);
		same_stream(files[i].file, files[i].args, text, "all names in lowerCamelCase");
		free(text);
		free(orig);
	}
	/* one name at a time, the others as they are */
	char *orig = fixture("mix2d_i32.json");
	for (size_t i = 0; i < sizeof camel / sizeof camel[0]; i++) {
		if (!strstr(orig, camel[i][0]))
			continue;
		char *text = replaced(orig, camel[i][0], camel[i][1], false);
		same_stream(MIX, text, camel[i][1]);
		free(text);
	}
	free(orig);
	/* and with the integer forms a camelCase printer writes alike */
	orig = fixture("mix2d_i32.json");
	char *t = camel_case(orig), *u = replaced(t, "\"tc\": \"64\"", "\"tc\": 64", false);
	same_stream(MIX, u, "lowerCamelCase names and tc as a number");
	free(u);
	free(t);
	free(orig);
}

/* Each case: the fixture with from (its first) as to, and the one
 * message. */
static const struct refusal {
	const char *file, *args, *from, *to, *msg;
} refusals[] = {
	/* both names of one field */
	{ MIX, "\"scalar_elem_size\": 4,", "\"scalar_elem_size\": 4, \"scalarElemSize\": 4,",
	  "$.nodes[\"0\"]: both \"scalar_elem_size\" and \"scalarElemSize\" given; they name one "
	  "field (its proto name and its lowerCamelCase JSON name), so expected one of them" },
	{ MIX, "\"region_vaddr\": \"4096\"", "\"regionVaddr\": \"4096\", \"region_vaddr\": \"4096\"",
	  "$.nodes[\"1\"].value: both \"region_vaddr\" and \"regionVaddr\" given; they name one "
	  "field (its proto name and its lowerCamelCase JSON name), so expected one of them" },
	{ MIX, "\"send_pattern\": {", "\"sendPattern\": null, \"send_pattern\": {",
	  "$.nodes[\"2\"].move: both \"send_pattern\" and \"sendPattern\" given; they name one "
	  "field (its proto name and its lowerCamelCase JSON name), so expected one of them" },
	/* a name neither the proto's nor its json_name */
	{ MIX, "\"scalar_elem_size\": 4,", "\"ScalarElemSize\": 4,",
	  "$.nodes[\"0\"]: unknown field \"ScalarElemSize\"; expected id, region_name, pum_tile, "
	  "pattern, split_out_dim, scalar_elem_size, start_word_line, value, move, load, "
	  "compute, sync or store_stream" },
	/* int32 */
	{ MIX, "\"scalar_elem_size\": 4", "\"scalar_elem_size\": 2147483648",
	  "$.nodes[\"0\"].scalar_elem_size: 2147483648 is out of range; expected an int32, "
	  "-2147483648 to 2147483647" },
	{ MIX, "\"int_const\": 3", "\"int_const\": \"-2147483649\"",
	  "$.nodes[\"4\"].compute.int_const: -2147483649 is out of range; expected an int32, "
	  "-2147483648 to 2147483647" },
	{ MIX, "\"int_const\": 3", "\"int_const\": 3e10",
	  "$.nodes[\"4\"].compute.int_const: 30000000000 is out of range; expected an int32, "
	  "-2147483648 to 2147483647" },
	{ MIX, "\"int_const\": 3", "\"int_const\": 1.5",
	  "$.nodes[\"4\"].compute.int_const: the number 1.5 is not an integer; expected an int32" },
	{ MIX, "\"int_const\": 3", "\"int_const\": \"3.5\"",
	  "$.nodes[\"4\"].compute.int_const: the string \"3.5\" is not an integer; expected an int32" },
	{ MIX, "\"start_word_line\": 0", "\"start_word_line\": 1e-1",
	  "$.nodes[\"0\"].start_word_line: the number 1e-1 is not an integer; expected an int32" },
	{ MIX, "\"int_const\": 3", "\"int_const\": \" 3\"",
	  "$.nodes[\"4\"].compute.int_const: expected an int32 (a number, or a string holding one), "
	  "found the string \" 3\"" },
	{ MIX, "\"int_const\": 3", "\"int_const\": \"\"",
	  "$.nodes[\"4\"].compute.int_const: expected an int32 (a number, or a string holding one), "
	  "found the string \"\"" },
	{ MIX, "\"int_const\": 3", "\"int_const\": true",
	  "$.nodes[\"4\"].compute.int_const: expected an int32 (a number, or a string holding one), "
	  "found a boolean" },
	/* uint32 */
	{ MIX, "\"id\": 4,", "\"id\": -4,",
	  "$.nodes[\"4\"].id: -4 is out of range; expected a uint32, 0 to 4294967295" },
	{ MIX, "\"id\": 4,", "\"id\": 4.5,",
	  "$.nodes[\"4\"].id: the number 4.5 is not an integer; expected a uint32" },
	{ MIX, "\"src\": 2,", "\"src\": 4294967296,",
	  "$.edges[0].src: 4294967296 is out of range; expected a uint32, 0 to 4294967295" },
	{ MIX, "\"dst\": 1\n", "\"dst\": \"4294967296\"\n",
	  "$.edges[0].dst: 4294967296 is out of range; expected a uint32, 0 to 4294967295" },
	/* int64 */
	{ MIX, "\"tc\": \"64\"", "\"tc\": \"9223372036854775808\"",
	  "$.nodes[\"0\"].pattern.params[0].tc: 9223372036854775808 is out of range; expected an "
	  "int64, -9223372036854775808 to 9223372036854775807" },
	{ MIX, "\"tc\": \"64\"", "\"tc\": 9223372036854775808",
	  "$.nodes[\"0\"].pattern.params[0].tc: 9223372036854775808 is out of range; expected an "
	  "int64, -9223372036854775808 to 9223372036854775807" },
	{ MIX, "\"tc\": \"64\"", "\"tc\": \"-9.223372036854775809e18\"",
	  "$.nodes[\"0\"].pattern.params[0].tc: -9223372036854775809 is out of range; expected an "
	  "int64, -9223372036854775808 to 9223372036854775807" },
	{ MIX, "\"tc\": \"64\"", "\"tc\": \"1e400\"",
	  "$.nodes[\"0\"].pattern.params[0].tc: the string \"1e400\" is out of range; expected an "
	  "int64, -9223372036854775808 to 9223372036854775807" },
	{ MIX, "\"tc\": \"64\"", "\"tc\": 6.45e1",
	  "$.nodes[\"0\"].pattern.params[0].tc: the number 6.45e1 is not an integer; expected an "
	  "int64" },
	{ MIX, "\"tc\": \"64\"", "\"tc\": \"64 \"",
	  "$.nodes[\"0\"].pattern.params[0].tc: expected an int64 (a number, or a string holding "
	  "one), found the string \"64 \"" },
	/* uint64 */
	{ MIX, "\"region_vaddr\": \"4096\"", "\"region_vaddr\": -1",
	  "$.nodes[\"1\"].value.region_vaddr: -1 is out of range; expected a uint64, 0 to "
	  "18446744073709551615" },
	{ MIX, "\"region_vaddr\": \"4096\"", "\"region_vaddr\": \"18446744073709551616\"",
	  "$.nodes[\"1\"].value.region_vaddr: the string \"18446744073709551616\" is out of range; "
	  "expected a uint64, 0 to 18446744073709551615" },
	{ MIX, "\"region_vaddr\": \"4096\"", "\"region_vaddr\": 1.8446744073709551616e19",
	  "$.nodes[\"1\"].value.region_vaddr: the number 1.8446744073709551616e19 is out of range; "
	  "expected a uint64, 0 to 18446744073709551615" },
	{ MIX, "\"region_vaddr\": \"4096\"", "\"region_vaddr\": \"4096.5\"",
	  "$.nodes[\"1\"].value.region_vaddr: the string \"4096.5\" is not an integer; expected a "
	  "uint64" },
	{ MIX, "\"send_config_ptr\": \"1\"", "\"send_config_ptr\": \"0x1\"",
	  "$.nodes[\"0\"].load.send_config_ptr: expected a uint64 (a number, or a string holding "
	  "one), found the string \"0x1\"" },
	/* enums */
	{ MIX, "\"op\": \"SUB\"", "\"op\": 6",
	  "$.nodes[\"3\"].compute.op: unknown OpCode 6, expected ADD, SUB, MUL, DIV, CMP or MADD "
	  "(0 to 5)" },
	{ MIX, "\"op\": \"SUB\"", "\"op\": \"-1\"",
	  "$.nodes[\"3\"].compute.op: unknown OpCode -1, expected ADD, SUB, MUL, DIV, CMP or MADD "
	  "(0 to 5)" },
	{ MIX, "\"op\": \"SUB\"", "\"op\": 1.5",
	  "$.nodes[\"3\"].compute.op: expected an OpCode (ADD, SUB, MUL, DIV, CMP or MADD), found "
	  "the number 1.5" },
	{ STRM, "\"op\":\"ADD\"", "\"op\":4",
	  "$.nodes[\"3\"].store_stream.op: expected STORE, ADD, MIN or MAX (a store stream "
	  "writes, or read-modify-writes with the op), found the number 4" },
	/* float */
	{ MIXF, "\"float_const\": 0.5", "\"float_const\": 3.4028236e38",
	  "$.nodes[\"5\"].compute.float_const: the number 3.4028236e38 is not a float (beyond "
	  "+-3.4028235e38; protobuf JSON writes \"Infinity\" and \"NaN\" as strings)" },
	{ MIXF, "\"float_const\": 0.5", "\"float_const\": \"0.5f\"",
	  "$.nodes[\"5\"].compute.float_const: expected a number (or a string holding one), "
	  "\"NaN\", \"Infinity\" or \"-Infinity\", found the string \"0.5f\"" },
};

Test(tdfg_json, out_of_range_fractions_and_two_names_are_refused)
{
	for (size_t i = 0; i < sizeof refusals / sizeof refusals[0]; i++) {
		const struct refusal *f = &refusals[i];
		char *orig = fixture(f->file), *text = replaced(orig, f->from, f->to, true), want[600];
		result r = jit_text(text, f->args);
		snprintf(want, sizeof want, "t.json: error: %s\n", f->msg);
		cr_expect_eq(r.status, 1, "%s: status %d", f->to, r.status);
		cr_expect_str_eq(r.err, want, "%s", f->to);
		result_free(&r);
		free(text);
		free(orig);
	}
}

/* json-c would read an integer beyond 64 bits as the nearest 64-bit
 * one, so such a number is refused where it is, in any field. */
Test(tdfg_json, integers_beyond_64_bits_are_refused_at_line_and_column)
{
	static const struct { const char *from, *to, *num; } wide[] = {
		{ "\"region_vaddr\": \"4096\"", "\"region_vaddr\": 18446744073709551616",
		  "18446744073709551616" },
		{ "\"start\": \"0\"", "\"start\": -9223372036854775809", "-9223372036854775809" },
		{ "\"float_const\": 0.5", "\"float_const\": 100000000000000000000000",
		  "100000000000000000000000" },
	};
	for (size_t i = 0; i < sizeof wide / sizeof wide[0]; i++) {
		char *orig = fixture(i == 2 ? "mix2d_f32.json" : "mix2d_i32.json");
		char *text = replaced(orig, wide[i].from, wide[i].to, true), want[400];
		const char *at = strstr(text, wide[i].num), *bol = at;
		int line = 1;
		for (const char *p = text; p < at; p++)
			line += *p == '\n';
		while (bol > text && bol[-1] != '\n')
			bol--;
		snprintf(want, sizeof want, "t.json:%d:%d: error: the integer %s is beyond 64 bits; "
			 "expected at most 64 (an int64 or a uint64), or a float with an exponent "
			 "(1e+20)\n", line, (int)(at - bol) + 1, wide[i].num);
		result r = jit_text(text, i == 2 ? "--type f32 -m wordlines=512" : "--type i32 -m wordlines=512");
		cr_expect_eq(r.status, 1, "%s", wide[i].to);
		cr_expect_str_eq(r.err, want);
		result_free(&r);
		free(text);
		free(orig);
	}
}

