/* SPDX-License-Identifier: MIT */
/*
 * test_tdfg.c: tensor dataflow graphs (emu/tdfg/tdfg.h, infinity-stream §3,
 * §3.4, §4.2) and their JIT.
 *
 *   parse, jit   every message of the .tdfg parser and of the JIT, at its
 *                exact FILE:LINE:COL;
 *   sem          small tDFGs covering every compute form, element type,
 *                shift, broadcast, region rank and tile choice: lowered,
 *                run on the machine command by command, and each node
 *                compared with the reference at node granularity
 *                (emu_tref_compare) right after its last command;
 *   random       seeded random tDFGs run the same way;
 *   corrupt      the check can fail: a lowering with one command dropped
 *                or one shift changed is caught at the right node and
 *                element;
 *   alloc        wordline allocation (§3.4: dead values' rows reused,
 *                inputs and outputs never, a result never on its own
 *                operands) and `shared` tensors through the disassembler
 *                and the binary form;
 *   cli          infsim jit, infsim run/disasm/layout of a .tdfg.
 * The reference (emu/tdfg/tdfg_ref.c) never runs a micro-op, so a node that
 * agrees with it was computed right by the SRAM, bit for bit.
 */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "machine.h"
#include "proc.h"
#include "program.h"
#include "report.h"
#include "move.h"
#include "tdfg.h"

/* 32 arrays of 64 bitlines: small enough that a test runs in
 * milliseconds, large enough for tiles over several banks. */
#define SMALL "machine wordlines=256 bitlines=64 arrays=4 ways=2 mesh=2x2\n"
/* The same with room for 64-bit values and the widest scratch areas
 * (a 64-bit divide needs 256 scratch wordlines). */
#define WIDE "machine wordlines=1024 bitlines=64 arrays=4 ways=2 mesh=2x2"
#define STENCIL SRCDIR "/samples/tdfg/stencil.tdfg"

/* ---- helpers ---- */

static sram_geom small_geom(void)
{
	sram_geom g = sram_geom_default();
	g.wordlines = 256;
	g.bitlines = 64;
	g.arrays_per_way = 4;
	g.ways_per_bank = 2;
	g.mesh_x = g.mesh_y = 2;
	return g;
}

/* A tDFG and what the JIT made of it. */
typedef struct tg {
	emu_tdfg t;
	emu_jit j;
} tg;

/* Parse text[0..len) as "t.tdfg" (the small machine unless its machine
 * line says otherwise) and lower it.  0, or -1 with d set. */
static int tg_try(tg *g, const char *text, size_t len, diag *d)
{
	const sram_geom def = small_geom();
	diag_clear(d);
	memset(&g->j, 0, sizeof g->j);
	emu_program_init(&g->j.prog);
	if (emu_tdfg_parse("t.tdfg", text, len, &def, NULL, &g->t, d))
		return -1;
	return emu_jit_lower(&g->t, &g->j, d);
}

static void tg_free(tg *g)
{
	emu_jit_free(&g->j);
	emu_tdfg_free(&g->t);
}

static void tg_lower(tg *g, const char *text)
{
	diag d;
	cr_assert_eq(tg_try(g, text, strlen(text), &d), 0, "%s\n--- in ---\n%s", d.msg, text);
}

static long node_named(const tg *g, const char *name)
{
	const long n = emu_tdfg_find(&g->t, name, strlen(name));
	cr_assert_geq(n, 0, "no node '%s'", name);
	return n;
}

/* What a run found: the first node whose domain differs from the
 * reference (-1: none), the element, and how many comparisons ran. */
typedef struct verdict {
	long node;
	emu_mismatch mm;
	size_t checked;
} verdict;

static bool compare_node(emu_tref *r, const emu_program *p, const emu_machine *em,
			 size_t n, verdict *v)
{
	v->checked++;
	if (emu_tref_compare(r, p, em, n, &v->mm))
		return true;
	v->node = (long)n;
	return false;
}

/* The last command of each node in p (node_of[i]: the node of command
 * i), SIZE_MAX for a node without commands. */
static size_t *last_commands(const emu_tdfg *t, const emu_program *p, const uint32_t *node_of)
{
	size_t *last = malloc((t->nnodes ? t->nnodes : 1) * sizeof *last);
	cr_assert_not_null(last);
	for (size_t n = 0; n < t->nnodes; n++)
		last[n] = SIZE_MAX;
	for (size_t i = 0; i < p->ncmds; i++) {
		if (node_of[i] == UINT32_MAX)
			continue;
		cr_assert_lt(node_of[i], t->nnodes, "command %zu", i);
		last[node_of[i]] = i;
	}
	return last;
}

/* Run p (the lowered program, or a changed copy of it with the same
 * tensors) on a new machine one command at a time.  Nodes without
 * commands (inputs) are compared before the first command, every other
 * node right after its last one (node_of says whose each command is),
 * and inputs and outputs again at the end, since they keep their rows. */
static verdict run_program(const tg *g, const emu_program *p, const uint32_t *node_of)
{
	verdict v = {.node = -1};
	const emu_tdfg *t = &g->t;
	diag d;
	diag_clear(&d);
	size_t *last = last_commands(t, p, node_of);
	emu_machine *em = emu_machine_new(p, &d);
	cr_assert_not_null(em, "%s", d.msg);
	cr_assert_eq(emu_init_buffers(em, &d), 0, "%s", d.msg);
	emu_tref *r = emu_tref_new(t, &d);
	cr_assert_not_null(r, "%s", d.msg);
	bool ok = true;
	for (size_t n = 0; ok && n < t->nnodes; n++)
		if (last[n] == SIZE_MAX)
			ok = compare_node(r, p, em, n, &v);
	for (size_t i = 0; ok && i < p->ncmds; i++) {
		cr_assert_eq(emu_run_cmd(em, &d), 0, "command %zu: %s", i, d.msg);
		if (node_of[i] != UINT32_MAX && last[node_of[i]] == i)
			ok = compare_node(r, p, em, node_of[i], &v);
	}
	for (size_t n = 0; ok && n < t->nnodes; n++)
		if (t->nodes[n].output || t->nodes[n].kind == EMU_TN_INPUT)
			ok = compare_node(r, p, em, n, &v);
	emu_tref_free(r);
	emu_machine_free(em);
	free(last);
	return v;
}

/* Every node of text's lowering computes what the tDFG means. */
static void expect_nodes_agree(const char *text)
{
	tg g;
	tg_lower(&g, text);
	const verdict v = run_program(&g, &g.j.prog, g.j.node_of);
	char what[1024] = "";
	if (v.node >= 0)
		emu_report_mismatch_text(what, sizeof what, &v.mm);
	cr_expect_eq(v.node, -1, "node '%s' differs: %s\n--- tDFG ---\n%s--- lowered ---\n%s",
		     v.node >= 0 ? g.t.nodes[v.node].name : "", what, text, g.j.text);
	if (v.node < 0)
		cr_expect_geq(v.checked, g.t.nnodes);
	tg_free(&g);
}

/* A growing string for generated tDFGs. */
typedef struct str {
	char *s;
	size_t n;
	FILE *f;
} str;

static void str_open(str *b)
{
	b->s = NULL;
	b->n = 0;
	b->f = open_memstream(&b->s, &b->n);
	cr_assert_not_null(b->f);
}

static char *str_close(str *b)
{
	cr_assert_eq(fclose(b->f), 0);
	return b->s;
}

static uint64_t rnd(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

static unsigned pick(uint64_t *s, unsigned n)
{
	return (unsigned)(rnd(s) % n);
}

/* ---- a. the parser's and the JIT's messages ---- */

/* text must fail with "t.tdfg:WHERE: error: ...WHAT..." on one line
 * (WHERE "" for a message about the whole file). */
typedef struct bad_case {
	const char *text;
	const char *where;
	const char *what;
} bad_case;

static void expect_bad(const char *text, size_t len, const char *where, const char *what)
{
	tg g;
	diag d;
	char want[64];
	cr_assert_neq(tg_try(&g, text, len, &d), 0, "accepted:\n%s", text);
	snprintf(want, sizeof want, "t.tdfg%s%s: error: ", *where ? ":" : "", where);
	cr_expect(strncmp(d.msg, want, strlen(want)) == 0, "expected at %s (%s), got: %s\n%s",
		  want, what, d.msg, text);
	cr_expect(strstr(d.msg, what), "expected \"%s\", got: %s\n%s", what, d.msg, text);
	cr_expect_null(strchr(d.msg, '\n'), "not one line: %s", d.msg);
	tg_free(&g);
}

static void expect_bad_table(const bad_case *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		expect_bad(c[i].text, strlen(c[i].text), c[i].where, c[i].what);
}

#define R "region r 64\n"
#define R2 "region r 64x4\n"
#define A8 "a = input i8\n"

/* Statements, names and lines. */
static const bad_case bad_statements[] = {
	{"", "", "no region; a tDFG needs 'region NAME SIZES' and nodes"},
	{"# only a comment\n\n", "", "no region"},
	{A8, "1:1", "node 'a' comes before any region; expected 'region NAME SIZES' first"},
	{"region r 64\n", "1:8", "region 'r' has no nodes"},
	{"region r 64\nregion q 64\n" A8, "1:8", "region 'r' has no nodes"},
	{R A8 "region q 64\n", "3:8", "region 'q' has no nodes"},
	{R "3a = input i8\n", "2:1", "expected machine, param, array, region, output, store, a control statement (run, repeat, for, end, swap, shrink) or 'NAME = ...', found '3a'"},
	{R "a input i8\n", "2:1", "expected machine, param, array, region, output, store, a control statement (run, repeat, for, end, swap, shrink) or 'NAME = ...', found 'a'"},
	{R "= input i8\n", "2:1", "expected machine, param, array, region, output, store, a control statement (run, repeat, for, end, swap, shrink) or 'NAME = ...', found '='"},
	{R A8 "a = input i16\n", "3:1", "node 'a' is defined twice (first at line 2); a tDFG is in SSA form"},
	{R "tag = input i8\n", "2:1", "'tag' is a reserved word; choose another node name"},
	{R "wl = input i8\n", "2:1", "'wl' is a reserved word"},
	{R "region = input i8\n", "2:1", "'region' is a reserved word; choose another node name"},
	{R "output = input i8\n", "2:1", "'output' is a reserved word"},
	{R "machine = input i8\n", "2:1", "'machine' is a reserved word"},
	{"region output 64\n" A8, "1:8", "'output' is a reserved word; choose another region name"},
	{"region scratch 64\n" A8, "1:8", "'scratch' is a reserved word"},
	{R "a234567890123456789012345678901234567890123456789012345678901234 = input i8\n",
	 "2:1", "node name is 64 characters long; expected at most 63"},
	{R "a = \n", "2:5", "a command such as add.f32, found the end of the line"},
	{R "a = input i8\n" "output\n", "3:7", "expected a node name, found the end of the line"},
	{R A8 "output zz\n", "3:8", "unknown node 'zz'"},
	{R A8 "output a b\n", "3:10", "expected ',' or the end of the line, found 'b'"},
	{"output a\n", "1:8", "unknown node 'a'"},
	{R "a = input i8", "2:13", "the last line does not end with a newline; the file may be truncated"},
	{R "a = input i8\x01\n", "2:13", "control character 0x01 in the input; expected text"},
};

/* machine and region lines. */
static const bad_case bad_regions[] = {
	{R A8 "machine wordlines=512\n", "3:1", "'machine' must come before the first region"},
	{"machine fp=ieee\nmachine fp=ftz\n" R A8, "2:1", "a second 'machine' line"},
	{"machine wordlines\n" R A8, "1:9", "expected KEY=VALUE (keys: wordlines, bitlines"},
	{"machine foo=1\n" R A8, "1:9", "unknown machine setting"},
	{"machine wordlines=100\n" R A8, "1:9", "wordlines must be a power of two"},
	{"machine mesh=64x64 ways=64 arrays=64 bitlines=256\n" R A8, "1:1", "this machine is not valid: the "
	 "machine has more than 64 GiB of compute SRAM"},
	{"region\n", "1:7", "expected a region name after 'region', found the end of the line"},
	{R "region r 64\n", "2:8", "a second region 'r' (the first is at line 1)"},
	{"region r 0\n" A8, "1:10", "the region's sizes: size 0 is out of range; expected 1 to 4294967295"},
	{"region r 64x1x1x1\n" A8, "1:17", "the region's sizes: more than 3 dimensions"},
	{"region r x\n" A8, "1:10", "expected the region's sizes as numbers joined by 'x' (4x4, innermost first), found 'x'"},
	/* One reader of sizes for both languages: decimal, no size 0. */
	{"region r 64x0x4\n" A8, "1:13", "the region's sizes: size 0 is out of range; expected 1 to 4294967295"},
	{"region r 64x4 tile=0x10\n" A8, "1:20", "the tile: size 0 is out of range"},
	{"region r 64x4x4 tile=16x0x4\n" A8, "1:25", "the tile: size 0 is out of range"},
	{"region r 64x4x4 tile=0x10x4\n" A8, "1:22", "the tile: size 0 is out of range"},
	{"region r 0x40\n" A8, "1:10", "the region's sizes: size 0 is out of range"},
	{"region r 64y\n" A8, "1:12", "unexpected 'y' in the region's sizes; expected sizes such as 4x4"},
	{"region r 64 foo=1\n" A8, "1:13", "expected tile=T0xT1, hint=KIND:DIM, array=N or param=NAME, found 'foo=1'"},
	{"region r 64 tile\n" A8, "1:13", "expected tile=T0xT1, hint=KIND:DIM, array=N or param=NAME, found 'tile'"},
	{"region r 64 =1\n" A8, "1:13", "expected tile=, hint=, array= or param=, found '=1'"},
	{"region r 64 tile=64 tile=64\n" A8, "1:21", "tile= is given twice"},
	{"region r 64x4 tile=64\n" A8, "1:20", "region 'r' has 2 dimensions but its tile has 1; "
	 "expected one tile size per dimension"},
	{"region r 64 tile=0\n" A8, "1:18", "the tile: size 0 is out of range"},
	{"region r 64 hint=\n" A8, "1:18", "expected hint=KIND:DIM[,KIND:DIM]..."},
	{"region r 64 hint=foo:1\n" A8, "1:18", "expected a hint reduce:DIM, shift:DIM or "
	 "broadcast:DIM (DIM 0, 1 or 2), found 'foo:1'"},
	{"region r 64 hint=shift:0,shift:3\n" A8, "1:26", "found 'shift:3'"},
	{"region r 64 hint=shift\n" A8, "1:18", "found 'shift'"},
	{"region r 64 array=32\n" A8, "1:19", "array 32 is out of range; expected 0 to 31"},
	{"region r 64 array=-1\n" A8, "1:19", "array -1 is out of range"},
};

/* input and const nodes. */
static const bad_case bad_leaves[] = {
	{R "a = input i99\n", "2:11", "expected an element type (iN or uN (N from 1 to 64), f32, "
	 "f16, bf16 or qN (N from 4 to 64), e.g. i32), found 'i99'"},
	{R "a = input\n", "2:10", "expected an element type"},
	{R "a = input q3\n", "2:11", "found 'q3'"},
	{R "a = input i8 junk\n", "2:14", "expected box=LO:HI,... or init=KIND (each at most once), "
	 "found 'junk'"},
	{R "a = input i8 box=0:1 box=0:2\n", "2:22", "found 'box=0:2'"},
	{R "a = input i8 init=zero init=iota\n", "2:24", "found 'init=iota'"},
	{R "a = input i8 init=random:12345678901234567890123456789012345678901234567890123"
	 "456789012345678901234567890123456789\n", "2:14", "init= is too long"},
	{R "a = input i8 box=0:65\n", "2:20", "box end 65 is out of range; expected 1 to 64"},
	{R "a = input i8 box=3:3\n", "2:20", "box end 3 is out of range; expected 4 to 64"},
	{R "a = input i8 box=64:64\n", "2:18", "box start 64 is out of range; expected 0 to 63"},
	{R "a = input i8 box=0-4\n", "2:18", "box start -4 is out of range; expected 0 to 63"},
	{R "a = input i8 box=0\n", "2:19", "expected ':' between the box's start and end, found the end"},
	{R2 "a = input i8 box=0:1,0:1,0:1\n", "2:26", "too many box dimensions: region 'r' has 2"},
	{R "a = input i8 box=0:1,\n", "2:22", "too many box dimensions: region 'r' has 1"},
	{R "a = const i8 256\n", "2:14", "constant 256 does not fit in 8 bits"},
	{R "a = const i8 -129\n", "2:14", "constant -129 does not fit in 8 bits"},
	{R "a = const u1 2\n", "2:14", "constant 2 does not fit in 1 bits"},
	{R "a = const i8 x\n", "2:14", "expected a constant, found 'x'"},
	{R "a = const i8\n", "2:13", "expected a constant, found the end of the line"},
	{R "a = const i8 1 2\n", "2:16", "unexpected text after the const node"},
	{R "a = const f32 junk\n", "2:15", "const: expected a floating-point literal"},
	{R "a = const f16 1e9\n", "2:15", "const: "},
	{R "a = const q32 4.5\n", "2:15", "const: "},
};

/* shift and bcast nodes. */
static const bad_case bad_moves[] = {
	{R2 A8 "c = shift a, 0, 0\n", "3:12", "a shift moves along exactly one dimension; 0 offsets are nonzero"},
	{R2 A8 "c = shift a, 1, 1\n", "3:12", "a shift moves along exactly one dimension; 2 offsets are nonzero"},
	{R2 A8 "c = shift a\n", "3:12", "expected ', OFFSET' for each dimension after the source"},
	{R2 A8 "c = shift a 1\n", "3:13", "expected ',' and an offset, found '1'"},
	{R2 A8 "c = shift a, 1, 0, 0\n", "3:18", "too many offsets: region 'r' has 2 dimensions"},
	{R2 A8 "c = shift a, x\n", "3:14", "unknown parameter 'x' in an offset; region 'r' has no parameters (param=NAME)"},
	{R2 A8 "c = shift a, +*1\n", "3:15", "expected an offset (a number, or a parameter such as k+1"},
	{R2 A8 "c = shift a, 99999999999999999999\n", "3:14", "an offset 99999999999999999999 is out of range"},
	{R2 A8 "c = shift a, 9223372036854775808\n", "3:14", "an offset 9223372036854775808 is "
	 "out of range"},
	{R2 A8 "c = shift a, 64, 0\n", "3:12", "the shift moves every element of 'a' out of region "
	 "'r' along dimension 0"},
	{R2 A8 "c = shift a, 0, -4\n", "3:12", "out of region 'r' along dimension 1"},
	{R2 "a = input i8 box=0:4\n" "c = shift a, -4\n", "3:12", "along dimension 0"},
	{R2 A8 "c = shift 5, 1\n", "3:11", "expected a node name, found '5'"},
	{R2 A8 "c = shift zz, 1\n", "3:11", "unknown node 'zz'; operands must be defined above"},
	{R2 A8 "c = bcast a\n", "3:12", "expected ',' and a dimension, found the end of the line"},
	{R2 A8 "c = bcast a, 2\n", "3:14", "dimension 2 is out of range; expected 0 to 1"},
	{R2 A8 "c = bcast a, 0\n", "3:14", "bcast copies one element along dimension 0, but 'a' "
	 "spans [0, 64) there"},
	{R2 "a = input i8 box=0:64,1:3\n" "c = bcast a, 1\n", "3:14", "'a' spans [1, 3) there"},
	{R2 "a = input i8 box=0:1\n" "c = bcast a, 0 0\n", "3:16", "unexpected text after the bcast node"},
	{R A8 "c = reduce\n", "3:11", "expected '.' and a command after 'reduce' (reduce.add.f32)"},
	{R A8 "c = reduce.sub.i8 a, 0\n", "3:12", "expected add, mul, min, max, and, or or xor "
	 "after 'reduce.', found 'sub.i8'"},
	{R "a = input q32\n" "c = reduce.add.q32 a, 0\n", "3:16", "'add' does not take .q32 elements"},
	{R A8 "c = reduce.add.i8 a\n", "3:20", "expected ',' and the dimension to reduce"},
	{R A8 "c = reduce.add.i8 a, 1\n", "3:22", "dimension 1 is out of range; expected 0 to 0"},
	{R A8 "c = reduce.add.i16 a, 0\n", "3:20", "'a' holds i8 elements; this operand must be i16"},
	{R A8 "c__1 = input i8\n", "3:2", "'c__1': names with '__' are the JIT's (its temporaries)"},
};

/* compute nodes. */
static const bad_case bad_computes[] = {
	{R A8 "b = add.i8 a, zz\n", "3:15", "unknown node 'zz'; operands must be defined above"},
	{R A8 "region q 64\n" "b = add.i8 a, a\n", "4:12", "'a' belongs to region 'r'; a node "
	 "reads only nodes of its own region ('q')"},
	{R A8 "b = input i16\n" "c = add.i8 a, b\n", "4:15", "'b' holds i16 elements; this operand must be i8"},
	{R A8 "b = cvt.f32.i16 a\n", "3:17", "'a' holds i8 elements; this operand must be i16"},
	{R A8 "c = cvt.i8.i8 a\n", "3:12", "cvt converts a type to itself; the two suffixes must differ"},
	{R A8 "c = cvt.i8 a\n", "3:9", "'cvt' takes two type suffixes, the destination's first"},
	{R A8 "c = sel.i8 a, a\n", "3:5", "'sel' reads the tag latch, which no tDFG value names"},
	{R A8 "c = redsum.i8 a\n", "3:5", "'redsum' is a reduction, not an element-wise command"},
	{R A8 "c = redmax.i8 a\n", "3:5", "'redmax' is a reduction"},
	{R A8 "c = divrem.i8 a, a\n", "3:5", "'divrem' has two results; use a div node and a rem node"},
	{R A8 "c = set.i8 a, #1\n", "3:5", "'set' writes a constant; use a const node"},
	{R A8 "c = foo a\n", "3:5", "expected input, const, shift, bcast or a command with its "
	 "type (add.f32), found 'foo'"},
	{R A8 "c = frob.i8 a\n", "3:5", "unknown command 'frob'; expected input, const, shift, "
	 "bcast or a command such as add.f32"},
	{R "a = input f32\n" "c = sin.f32 a\n", "3:9", "'sin' does not take .f32 elements"},
	{R "a = input q32\n" "c = add.q32 a, a\n", "3:9", "'add' does not take .q32 elements"},
	{R A8 "c = add.i8.i16 a, a\n", "3:11", "'add' takes one type suffix; only a conversion (cvt) takes two"},
	{R A8 "c = add.i8 a\n", "3:13", "expected ',' and the next operand, found the end of the line"},
	{R A8 "c = add.i8 a b\n", "3:14", "expected ',' and the next operand, found 'b'"},
	{R A8 "c = add.i8 a, a, a\n", "3:16", "unexpected text after the compute node"},
	{R "a = input f32\n" "c = madd.f32 a, a\n", "3:18", "expected ',' and the next operand"},
	{R A8 "c = shli.i8 a\n", "3:14", "expected ',' and an immediate #N, found the end of the line"},
	{R A8 "c = shli.i8 a, 5\n", "3:16", "expected an immediate #N, found '5'"},
	{R A8 "c = shli.i8 a, #8\n", "3:17", "shift amount 8 is out of range; expected #0 to #7"},
	{R A8 "c = srai.i8 a, #-1\n", "3:17", "shift amount -1 is out of range; expected #0 to #7"},
	{R A8 "c = search.i8 a, #300\n", "3:19", "immediate 300 does not fit in 8 bits"},
	{R A8 "c = search.i8 a, #-129\n", "3:19", "immediate -129 does not fit in 8 bits"},
	{R A8 "c = search.i8 a, #x\n", "3:19", "expected an immediate, found 'x'"},
	{R "a = input f32\n" "c = search.f32 a, #abc\n", "3:20", "expected a floating-point "
	 "literal (e.g. 1.5, -2e-3, 0x1p-4, inf, nan, bits:0x3fc00000), found 'abc'"},
	{R2 "a = input i8 box=0:8\n" "b = shift a, 60\n" "c = add.i8 a, b\n", "4:5",
	 "the operands' domains do not meet along dimension 0; a compute node works where "
	 "all of them are defined"},
	{R2 "a = input i8 box=0:64,0:1\n" "b = input i8 box=0:64,2:4\n" "c = and.i8 a, b\n",
	 "4:5", "do not meet along dimension 1"},
};

/* The JIT's: tiles, room, scratch, and what the assembler refuses in a
 * generated line (blamed on the node, with the line quoted). */
static const bad_case bad_lowerings[] = {
	{"region r 64x4 tile=64x4\n" A8, "2:1", "tile 64x4x1 breaks constraint 1 (prod T_i = 64 "
	 "bitlines per tile): it has 256 bitlines"},
	{"region r 64 tile=24\n" A8, "2:1", "tile 24x1x1 breaks constraint 1 (prod T_i = 64 "
	 "bitlines per tile): it has 24 bitlines"},
	{"region r 64x4 tile=16x16\n" A8, "2:1", "tile 16x16x1 breaks constraint 1"},
	{"region r 64x2 tile=4x16\n" A8, "2:1", "breaks constraint 2 (T_0 x A_bank mod L = 0"},
	{"region r 64x64\n" A8, "2:1", "no tile of 64 bitlines is valid"},
	{"region r 64x8 array=31\n" A8, "2:1", "the fit rule (the tiles on arrays 31..31"},
	{"region r 16\n" A8, "2:1", "S_0 = 16 is not a multiple of L = 64 elements per 64-byte "
	 "cache line"},
	{"machine wordlines=64\n" R "a = input i32\nb = input i32\nc = add.i32 a, b\n", "4:5",
	 "no room for 'b' (32 wordlines): the values live here hold wordlines a 0..31, and the "
	 "scratch rows start at 63; infsim does not spill"},
	{"machine wordlines=128\n" R "a = input i64\nb = div.i64 a, a\n", "4:5",
	 "'b' needs 256 scratch wordlines; the arrays have 128 in all"},
	{R "a = input i8 init=bogus\n", "2:5", "unknown init 'bogus'; expected none, zero, iota, "
	 "random:SEED or const:VALUE (lowered line 4: tensor a i8 64 wl=0 array=0 tile=64 "
	 "init=bogus)"},
	{R2 "a = input f32 init=const:x\n", "2:5", "(lowered line 4: tensor a f32 64x4"},
};

TestSuite(parse);

Test(parse, statements)
{
	expect_bad_table(bad_statements, sizeof bad_statements / sizeof bad_statements[0]);
}

Test(parse, machine_and_regions)
{
	expect_bad_table(bad_regions, sizeof bad_regions / sizeof bad_regions[0]);
}

Test(parse, inputs_and_constants)
{
	expect_bad_table(bad_leaves, sizeof bad_leaves / sizeof bad_leaves[0]);
}

Test(parse, shifts_and_broadcasts)
{
	expect_bad_table(bad_moves, sizeof bad_moves / sizeof bad_moves[0]);
}

Test(parse, compute_nodes)
{
	expect_bad_table(bad_computes, sizeof bad_computes / sizeof bad_computes[0]);
}

/* A NUL byte is text's end for C strings, not for the parser. */
Test(parse, nul_bytes_and_long_lines)
{
	static const char nul[] = "region r 64\na = in\0put i8\n";
	expect_bad(nul, sizeof nul - 1, "2:7", "NUL byte in the input; expected text");
	str b;
	str_open(&b);
	fprintf(b.f, "region r 64\na = input i8 #");
	for (int i = 0; i < 5000; i++)
		fputc('x', b.f);
	fputc('\n', b.f);
	char *text = str_close(&b);
	expect_bad(text, strlen(text), "2:4097", "line is longer than 4096 characters");
	free(text);
}

/* What the parser accepts besides: comments, blank lines, CRLF, names
 * that are words of the stream language, a node in two outputs, and
 * the types and domains it works out. */
Test(parse, accepted_forms)
{
	static const char text[] =
		"# a comment\r\n"
		"\n"
		"region r 64x4 tile=16x4 hint=shift:0,broadcast:1 array=2   # trailing\r\n"
		"tensor = input i16 box=1:63,0:4 init=random:5\n"
		"move = shift tensor, +1\n"
		"sync = lt.i16 tensor, move\n"
		"k = const f16 -0x1p-3\n"
		"output sync, move\n"
		"output sync\n";
	tg g;
	tg_lower(&g, text);
	cr_assert_eq(g.t.nnodes, 4);
	const emu_tregion *r = &g.t.regions[0];
	cr_expect_eq(r->tile[0], 16);
	cr_expect_eq(r->array0, 2);
	cr_expect(r->hint.shift == 1 && r->hint.broadcast == 2 && r->hint.reduce == 0,
		  "hints %u %u %u", r->hint.shift, r->hint.broadcast, r->hint.reduce);
	const emu_tnode *mv = &g.t.nodes[1], *lt = &g.t.nodes[2], *k = &g.t.nodes[3];
	cr_expect_eq(mv->off[0], 1);
	cr_expect(mv->dom.lo[0] == 2 && mv->dom.hi[0] == 64, "[%" PRIu64 ", %" PRIu64 ")",
		  mv->dom.lo[0], mv->dom.hi[0]);
	cr_expect(lt->dom.lo[0] == 2 && lt->dom.hi[0] == 63);
	cr_expect(lt->fmt == ISA_FMT_INT && lt->width == 1 && !lt->is_signed, "a predicate is u1");
	cr_expect(mv->output && lt->output && !k->output);
	cr_expect_eq(k->value, 0xb000u, "-1/8 in f16");
	cr_expect_str_eq(g.t.nodes[0].init_text, "init=random:5");
	cr_expect(emu_tdfg_in_domain(&g.t, lt, 2) && !emu_tdfg_in_domain(&g.t, lt, 63) &&
		  !emu_tdfg_in_domain(&g.t, lt, 64 + 1));
	tg_free(&g);
	cr_expect(emu_tdfg_path("x.tdfg") && !emu_tdfg_path(".tdfg") && !emu_tdfg_path("x.ins") &&
		  !emu_tdfg_path(NULL));
}

TestSuite(jit);

Test(jit, refusals)
{
	expect_bad_table(bad_lowerings, sizeof bad_lowerings / sizeof bad_lowerings[0]);
}

/* The file reader's messages, and the machine a file gets: its own line,
 * with the override winning key by key. */
Test(jit, files_and_overrides)
{
	emu_tdfg t;
	emu_jit j;
	diag d;
	diag_clear(&d);
	cr_expect_neq(emu_tdfg_load("/nonexistent/x.tdfg", NULL, &t, &j, &d), 0);
	cr_expect(strstr(d.msg, "/nonexistent/x.tdfg: error: "), "%s", d.msg);
	emu_tdfg_free(&t);
	emu_jit_free(&j);
	emu_geom_override ov;
	emu_geom_override_init(&ov);
	const char *e;
	cr_assert_eq(emu_geom_override_set(&ov, "fp", "ieee", &e), 0);
	diag_clear(&d);
	cr_assert_eq(emu_tdfg_load(STENCIL, &ov, &t, &j, &d), 0, "%s", d.msg);
	cr_expect_eq(t.geom.bitlines, 64);
	cr_expect_eq(t.geom.fp_ieee, 1);
	cr_expect(strstr(j.text, "machine wordlines=256 bitlines=64 arrays=4 ways=2 mesh=2x2 fp=ieee"),
		  "%s", j.text);
	cr_expect_eq(j.prog.geom.fp_ieee, 1);
	emu_tdfg_free(&t);
	emu_jit_free(&j);
}

/* ---- b. what lowered tDFGs compute ---- */

static const char *const int_dab[] = {
	"add", "sub", "mul", "div", "rem", "and", "or", "xor", "shl", "shr", "sra", "min", "max",
};
static const char *const int_pab[] = {"eq", "ne", "lt", "le", "gt", "ge"};
static const char *const int_da[] = {"not", "copy", "abs", "neg", "popcnt"};
static const char *const flt_dab[] = {"add", "sub", "mul", "div", "min", "max"};
static const char *const flt_da[] = {"abs", "neg", "copy", "rsqrt"};
static const char *const fix_da[] = {"sin", "cos", "exp", "log", "sqrt", "copy"};
#define COUNT(a) (sizeof (a) / sizeof (a)[0])

/* "NAMEi = OP.TY ARGS" for each OP of ops. */
static void each_op(FILE *f, const char *name, const char *const *ops, size_t n,
		    const char *ty, const char *args)
{
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%zu = %s.%s %s\n", name, i, ops[i], ty, args);
}

/* Every integer form on one type: DAB, DA, DAI (shift amounts 0, the
 * middle and the last), PAB, PAI (a search that matches element 5 of
 * an iota), and a const operand. */
static char *int_program(const char *ty, unsigned width)
{
	str b;
	str_open(&b);
	const uint64_t m = isa_mask(width);
	fprintf(b.f, WIDE "\nregion r 64x2\n"
		"a = input %s init=random:11\nb = input %s init=random:12\n"
		"c = input %s init=iota\nk = const %s %" PRIu64 "\n", ty, ty, ty, ty,
		0x5a5a5a5a5a5a5a5au & m);
	each_op(b.f, "d", int_dab, COUNT(int_dab), ty, "a, b");
	each_op(b.f, "p", int_pab, COUNT(int_pab), ty, "a, b");
	each_op(b.f, "u", int_da, COUNT(int_da), ty, "a");
	fprintf(b.f, "i0 = shli.%s a, #0\ni1 = shri.%s a, #%u\ni2 = srai.%s a, #%u\n", ty, ty,
		width / 2, ty, width - 1);
	fprintf(b.f, "s0 = search.%s c, #%" PRIu64 "\ns1 = search.%s a, #0\n", ty, 5 & m, ty);
	fprintf(b.f, "e0 = sub.%s a, k\ne1 = lt.%s k, b\noutput e0, d0\n", ty, ty);
	return str_close(&b);
}

/* Every float form on one type in one fp mode, DABC (madd) included. */
static char *float_program(const char *ty, const char *fp)
{
	str b;
	str_open(&b);
	fprintf(b.f, WIDE " fp=%s\nregion r 64x2\n"
		"a = input %s init=random:21\nb = input %s init=random:22\n"
		"c = input %s init=iota\nk = const %s -2.5\n", fp, ty, ty, ty, ty);
	each_op(b.f, "d", flt_dab, COUNT(flt_dab), ty, "a, b");
	each_op(b.f, "p", int_pab, COUNT(int_pab), ty, "a, b");
	each_op(b.f, "u", flt_da, COUNT(flt_da), ty, "a");
	fprintf(b.f, "m0 = madd.%s a, b, c\nm1 = madd.%s c, k, a\n", ty, ty);
	fprintf(b.f, "s0 = search.%s c, #3\ns1 = search.%s a, #-0.5\n", ty, ty);
	fprintf(b.f, "e0 = mul.%s a, k\noutput e0, m1\n", ty);
	return str_close(&b);
}

/* The CORDIC commands (§ of duality-cache on transcendental functions,
 * isa/cordic.c) on one .qN type, on random bits and on a ramp. */
static char *fixed_program(const char *ty, unsigned cordic)
{
	str b;
	str_open(&b);
	fprintf(b.f, WIDE " cordic=%u\nregion r 64\na = input %s init=random:31\n"
		"c = input %s init=iota\nk = const %s -0.75\n", cordic, ty, ty, ty);
	each_op(b.f, "x", fix_da, COUNT(fix_da), ty, "a");
	each_op(b.f, "y", fix_da, COUNT(fix_da), ty, "c");
	fprintf(b.f, "z = sin.%s k\ns = search.%s c, #2\noutput z\n", ty, ty);
	return str_close(&b);
}

TestSuite(sem);

static const struct {
	const char *ty;
	unsigned width;
} int_types[] = {
	{"u1", 1}, {"i1", 1}, {"i7", 7}, {"u7", 7}, {"i8", 8}, {"u8", 8}, {"i16", 16},
	{"u16", 16}, {"i32", 32}, {"u32", 32}, {"i64", 64}, {"u64", 64},
};

Test(sem, integer_forms_every_width)
{
	for (size_t i = 0; i < COUNT(int_types); i++) {
		char *text = int_program(int_types[i].ty, int_types[i].width);
		expect_nodes_agree(text);
		free(text);
	}
}

Test(sem, float_forms_ftz_and_ieee)
{
	static const char *const types[] = {"f32", "f16", "bf16"};
	static const char *const modes[] = {"ftz", "ieee"};
	for (size_t i = 0; i < COUNT(types); i++)
		for (size_t m = 0; m < COUNT(modes); m++) {
			char *text = float_program(types[i], modes[m]);
			expect_nodes_agree(text);
			free(text);
		}
}

Test(sem, cordic_fixed_point)
{
	static const char *const types[] = {"q8", "q16", "q32", "q64"};
	for (size_t i = 0; i < COUNT(types); i++) {
		char *text = fixed_program(types[i], i == 2 ? 17 : 12);
		expect_nodes_agree(text);
		free(text);
	}
}

/* Conversions between every kind of type, both fp modes. */
Test(sem, conversions)
{
	static const char *const pairs[][2] = {
		{"f32", "i16"}, {"i16", "f32"}, {"f32", "f16"}, {"f16", "f32"}, {"bf16", "f32"},
		{"f32", "bf16"}, {"bf16", "f16"}, {"f32", "q32"}, {"q32", "f32"}, {"q32", "i32"},
		{"i32", "q32"}, {"q16", "q32"}, {"u8", "i16"}, {"i16", "u8"}, {"u64", "f32"},
		{"f32", "u64"}, {"f32", "i1"}, {"i8", "q8"}, {"f16", "u64"}, {"i64", "i7"},
	};
	for (unsigned fp = 0; fp < 2; fp++) {
		str b;
		str_open(&b);
		fprintf(b.f, WIDE " fp=%s\nregion r 64\n", fp ? "ieee" : "ftz");
		for (size_t i = 0; i < COUNT(pairs); i++)
			fprintf(b.f, "s%zu = input %s init=random:%zu\nc%zu = cvt.%s.%s s%zu\n", i,
				pairs[i][1], 40 + i, i, pairs[i][0], pairs[i][1], i);
		fprintf(b.f, "output c0\n");
		char *text = str_close(&b);
		expect_nodes_agree(text);
		free(text);
	}
}

/* mv (§3.2) along each dimension, both ways, by one element and by more
 * than a tile, on a 3-d region whose tiles (16x2x2) cut every dimension;
 * each shifted value is then added to the unshifted one where both are
 * defined. */
Test(sem, shifts_every_dimension)
{
	static const char *const offs[] = {
		"1, 0, 0", "-1, 0, 0", "0, 1, 0", "0, -1, 0", "0, 0, 1", "0, 0, -1",
		"17, 0, 0", "-33, 0, 0", "0, 3, 0", "0, -3, 0", "0, 0, 3", "0, 0, -3",
		"63, 0, 0", "-63, 0, 0",
	};
	str b;
	str_open(&b);
	fprintf(b.f, SMALL "region r 64x4x4 tile=16x2x2\nX = input i16 init=iota\n");
	for (size_t i = 0; i < COUNT(offs); i++)
		fprintf(b.f, "m%zu = shift X, %s\ns%zu = add.i16 X, m%zu\n", i, offs[i], i, i);
	fprintf(b.f, "output s0\n");
	char *text = str_close(&b);
	expect_nodes_agree(text);
	free(text);
}

/* The same on 1-d and 2-d regions, tiles chosen by the JIT (§4.1), f32,
 * and a chain of shifts (the source of a shift is a shift). */
Test(sem, shifts_chosen_tiles)
{
	expect_nodes_agree(WIDE "\nregion r 256\nX = input f32 init=random:5\n"
			   "a = shift X, +1\nb = shift X, -65\nc = shift a, +100\n"
			   "d = add.f32 X, a\ne = sub.f32 b, X\nf = mul.f32 c, a\noutput d, e, f\n");
	expect_nodes_agree(WIDE "\nregion r 64x32\nX = input f32 init=random:6\n"
			   "a = shift X, +9, +0\nb = shift X, +0, -9\nc = shift b, +0, +30\n"
			   "d = min.f32 a, b\ne = max.f32 c, X\noutput d, e\n");
}

/* bc (§3.2) along dimensions 0, 1 and 2, of inputs declared one element
 * wide there (at a position other than 0, so the lowering moves it
 * first), of a shift left one element wide by the edge, and of a value
 * that is partial in another dimension too. */
Test(sem, broadcasts_every_dimension)
{
	expect_nodes_agree(WIDE "\nregion r 64x4x4 tile=16x2x2\n"
			   "X = input f32 init=iota\n"
			   "r0 = input f32 init=random:3 box=5:6,0:4,0:4\nb0 = bcast r0, 0\n"
			   "r1 = input f32 init=random:4 box=0:64,2:3,0:4\nb1 = bcast r1, 1\n"
			   "r2 = input f32 init=random:5 box=0:64,0:4,3:4\nb2 = bcast r2, 2\n"
			   "p0 = mul.f32 X, b0\np1 = add.f32 X, b1\np2 = sub.f32 X, b2\n"
			   "s = shift X, 0, 3, 0\nbs = bcast s, 1\nq = add.f32 bs, X\n"
			   "r3 = input f32 init=random:6 box=8:40,1:2,0:2\nb3 = bcast r3, 1\n"
			   "q3 = add.f32 b3, X\noutput p0, p1, p2, q, q3\n");
	expect_nodes_agree(SMALL "region r 256x8\n"
			   "a = input i32 init=random:7 box=0:256,0:1\n"
			   "c = input i32 init=random:8 box=0:1,0:8\n"
			   "A = bcast a, 1\nC = bcast c, 0\no = mul.i32 A, C\noutput o\n");
}

/* reduce along each dimension of a 3-d region cut by its tiles, of
 * values on partial domains (the pairwise halving crosses tiles by
 * moves), integer and float, and a reduce of a reduce. */
Test(sem, reductions_every_dimension)
{
	expect_nodes_agree(WIDE "\nregion r 64x4x4 tile=16x2x2\n"
			   "x = input i32 init=random:1\ny = input f32 init=random:2 box=3:61,1:4,0:3\n"
			   "a0 = reduce.add.i32 x, 0\na1 = reduce.max.i32 x, 1\na2 = reduce.xor.i32 x, 2\n"
			   "b0 = reduce.min.f32 y, 0\nb1 = reduce.add.f32 y, 1\nb2 = reduce.mul.f32 y, 2\n"
			   "c = reduce.add.i32 a0, 1\nd = reduce.or.i32 c, 2\noutput d, b0\n");
	expect_nodes_agree(SMALL "region r 192\nx = input u8 init=iota box=5:190\n"
			   "s = reduce.add.u8 x, 0\nm = reduce.min.u8 x, 0\noutput s, m\n");
}

/* Region ranks and tiles: 1-d, 2-d and 3-d, tiles given and chosen,
 * regions smaller than one tile (16 f32 elements on 64-bitline arrays),
 * a region whose tiles start at array 5, and a region cut unevenly. */
Test(sem, regions_and_tiles)
{
	static const char *const heads[] = {
		"region r 16", "region r 16x2", "region r 64 tile=64", "region r 64x3",
		"region r 64x8 tile=8x8", "region r 64x8 tile=32x2 array=5",
		"region r 48x5 tile=16x4", "region r 16x4x4", "region r 32x3x3 tile=16x2x2",
		"region r 1024",
	};
	for (size_t i = 0; i < COUNT(heads); i++) {
		char text[1024];
		snprintf(text, sizeof text, SMALL "%s\nX = input f32 init=random:%zu\n"
			 "Y = input f32 init=iota\nk = const f32 0.5\nm = madd.f32 X, k, Y\n"
			 "n = neg.f32 m\nt = max.f32 n, Y\noutput t\n", heads[i], i);
		expect_nodes_agree(text);
	}
}

/* Tiles on the first P bitlines of their arrays (Fig 9's 2x2 tiles on
 * 4-bitline arrays; here P = 4, 16 and 32 of 64): every node kind. */
Test(sem, tiles_smaller_than_an_array)
{
	expect_nodes_agree(SMALL "region r 4x4 tile=2x2\na = input u8 init=iota\n"
			   "b = shift a, 1, 0\nc = shift a, 0, -3\nd = add.u8 a, b\n"
			   "e = bcast c, 1\nf = mul.u8 d, e\noutput f\n");
	expect_nodes_agree(WIDE "\nregion r 16x8 tile=4x4\nx = input f32 init=random:1\n"
			   "w = shift x, +1, +0\nn = shift x, +0, -5\ns = add.f32 w, n\n"
			   "r0 = input f32 init=iota box=0:16,3:4\nb = bcast r0, 1\n"
			   "t = mul.f32 s, b\nu = reduce.add.f32 t, 0\nk = const f32 2\n"
			   "v = madd.f32 u, k, u\noutput v\n");
	expect_nodes_agree(SMALL "region r 64x2 tile=16x2\na = input i16 init=iota\n"
			   "b = shift a, -63, 0\nc = bcast b, 0\nd = sub.i16 a, c\n"
			   "e = reduce.max.i16 d, 0\noutput e\n");
}

/* Two regions in one file, the second on other arrays; several outputs;
 * an unused value; the controller's optimised latency. */
Test(sem, two_regions_and_settings)
{
	expect_nodes_agree(WIDE "\nregion a 64\nx = input i32 init=iota\ny = add.i32 x, x\n"
			   "unused = mul.i32 y, x\nz = sub.i32 y, x\noutput y, z\n"
			   "region b 128x2 array=8\np = input f32 init=random:9\n"
			   "q = mul.f32 p, p\nr = div.f32 q, p\noutput r\n");
	expect_nodes_agree("machine wordlines=512 bitlines=64 arrays=4 ways=2 mesh=2x2 "
			   "latency=optimised fp=ieee\nregion r 64x4\n"
			   "a = input f32 init=random:1\nb = input f32 init=random:2\n"
			   "c = add.f32 a, b\nd = div.f32 c, b\ne = cvt.i32.f32 d\n"
			   "f = popcnt.i32 e\noutput f\n");
}

/* The sample, and a stream of its nodes read back from every tensor
 * after the run: the outputs keep their rows to the end. */
Test(sem, stencil_sample)
{
	char *text = proc_slurp(STENCIL, NULL);
	cr_assert_not_null(text);
	expect_nodes_agree(text);
	free(text);
}

/* ---- c. random tDFGs ---- */

/* One operation of the generator: its mnemonic, operands, and its
 * immediate ('s' a shift amount, 'v' a value, 0 none). */
typedef struct rop {
	const char *name;
	unsigned nargs;
	char imm;
} rop;

static const rop int_ops[] = {
	{"add", 2, 0}, {"sub", 2, 0}, {"mul", 2, 0}, {"div", 2, 0}, {"rem", 2, 0},
	{"and", 2, 0}, {"or", 2, 0}, {"xor", 2, 0}, {"shl", 2, 0}, {"shr", 2, 0},
	{"sra", 2, 0}, {"min", 2, 0}, {"max", 2, 0}, {"eq", 2, 0}, {"lt", 2, 0},
	{"ge", 2, 0}, {"not", 1, 0}, {"abs", 1, 0}, {"neg", 1, 0}, {"popcnt", 1, 0},
	{"copy", 1, 0}, {"shli", 1, 's'}, {"srai", 1, 's'}, {"search", 1, 'v'},
};
static const rop flt_ops[] = {
	{"add", 2, 0}, {"sub", 2, 0}, {"mul", 2, 0}, {"div", 2, 0}, {"min", 2, 0},
	{"max", 2, 0}, {"madd", 3, 0}, {"le", 2, 0}, {"ne", 2, 0}, {"abs", 1, 0},
	{"neg", 1, 0}, {"rsqrt", 1, 0}, {"search", 1, 'v'},
};
static const rop fix_ops[] = {
	{"sin", 1, 0}, {"cos", 1, 0}, {"exp", 1, 0}, {"log", 1, 0}, {"sqrt", 1, 0},
	{"copy", 1, 0}, {"search", 1, 'v'},
};
static const char *const rg_types[] = {
	"u1", "i1", "i7", "u8", "i8", "i16", "u16", "i32", "u32", "i64", "u64",
	"f32", "f16", "bf16", "q8", "q16", "q32",
};
/* Literals every float and .qN format holds. */
static const char *const rg_literals[] = {"0.5", "-1.25", "3", "0.001", "-0", "2.75"};

#define RG_MAX_NODES 12
#define RG_TEXT 8192

/* The generator: the text so far (header, then node lines) and the tDFG
 * it parses to, which says each node's type and domain. */
typedef struct rgen {
	uint64_t s;
	char text[RG_TEXT];
	size_t len;
	emu_tdfg t;
	unsigned ndims;
	uint64_t shape[EMU_LAYOUT_DIMS];
} rgen;

static const char *rg_type_of(const rgen *r, size_t n, char *buf, size_t size)
{
	const emu_tnode *x = &r->t.nodes[n];
	return isa_type_name(x->fmt, x->width, x->is_signed, buf, size);
}

/* Append line if the text still parses with it (its domain may be
 * empty, a bcast may not apply): true if it was kept. */
static bool rg_try(rgen *r, const char *line)
{
	const size_t n = strlen(line);
	if (r->len + n + 2 >= RG_TEXT)
		return false;
	memcpy(r->text + r->len, line, n);
	r->text[r->len + n] = '\n';
	emu_tdfg t;
	diag d;
	if (emu_tdfg_parse("r.tdfg", r->text, r->len + n + 1, NULL, NULL, &t, &d)) {
		emu_tdfg_free(&t);
		return false;
	}
	emu_tdfg_free(&r->t);
	r->t = t;
	r->len += n + 1;
	return true;
}

/* A machine (arrays of 32, 64 or 128 bitlines; fp mode, latency and
 * CORDIC iterations at random) and a region of 1 to 3 dimensions; half
 * the time a valid tile (at most the 32 arrays): of B bitlines (T_0 >= 8
 * for constraint 2 with 1-byte elements and 8 arrays a bank), or a third
 * of the time of P = B/2 or B/4 (a tile on the first P bitlines of its
 * array, Fig 9). */
static void rg_header(rgen *r)
{
	const uint64_t B = 32u << pick(&r->s, 3);
	const uint64_t P = pick(&r->s, 3) ? B : B >> (1 + pick(&r->s, 2));
	r->ndims = 1 + pick(&r->s, 3);
	r->shape[0] = r->ndims == 1 ? 64 * (1 + pick(&r->s, 4)) : 64 * (1 + pick(&r->s, 2));
	r->shape[1] = r->ndims > 1 ? 1 + pick(&r->s, r->ndims == 2 ? 6 : 4) : 1;
	r->shape[2] = r->ndims > 2 ? 1 + pick(&r->s, 3) : 1;
	/* Half the machine's bitlines at most, so that some tile fits. */
	for (unsigned k = 2; r->shape[0] * r->shape[1] * r->shape[2] > 16 * B; k = k ? k - 1 : 2)
		r->shape[k] -= k ? r->shape[k] > 1 : 64 * (r->shape[0] > 64);
	int n = snprintf(r->text, RG_TEXT, "machine wordlines=1024 bitlines=%" PRIu64 " arrays=4 "
			 "ways=2 mesh=2x2 fp=%s latency=%s cordic=%u\nregion r %" PRIu64, B,
			 pick(&r->s, 2) ? "ieee" : "ftz", pick(&r->s, 2) ? "optimised" : "baseline",
			 6 + pick(&r->s, 12), r->shape[0]);
	for (unsigned k = 1; k < r->ndims; k++)
		n += snprintf(r->text + n, RG_TEXT - (size_t)n, "x%" PRIu64, r->shape[k]);
	uint64_t T[3] = {P, 1, 1};
	if (r->ndims > 1)
		T[0] = (uint64_t)8 << pick(&r->s, (unsigned)__builtin_ctzll(P / 8) + 1);
	if (r->ndims == 2)
		T[1] = P / T[0];
	if (r->ndims == 3) {
		T[1] = (uint64_t)1 << pick(&r->s, (unsigned)__builtin_ctzll(P / T[0]) + 1);
		T[2] = P / T[0] / T[1];
	}
	uint64_t tiles = 1;
	for (unsigned k = 0; k < 3; k++)
		tiles *= (r->shape[k] + T[k] - 1) / T[k];
	if (pick(&r->s, 2) && tiles <= 32) {
		n += snprintf(r->text + n, RG_TEXT - (size_t)n, " tile=%" PRIu64, T[0]);
		for (unsigned k = 1; k < r->ndims; k++)
			n += snprintf(r->text + n, RG_TEXT - (size_t)n, "x%" PRIu64, T[k]);
	}
	r->text[n++] = '\n';
	r->len = (size_t)n;
}

/* An input of a random type, a quarter of them on a sub-box. */
static void rg_input(rgen *r, char *line, size_t size, const char *name)
{
	char box[96] = "";
	if (pick(&r->s, 4) == 0) {
		size_t n = (size_t)snprintf(box, sizeof box, " box=");
		for (unsigned k = 0; k < r->ndims; k++) {
			const uint64_t lo = pick(&r->s, (unsigned)r->shape[k]);
			const uint64_t hi = lo + 1 + pick(&r->s, (unsigned)(r->shape[k] - lo));
			n += (size_t)snprintf(box + n, sizeof box - n, "%s%" PRIu64 ":%" PRIu64,
					      k ? "," : "", lo, hi);
		}
	}
	snprintf(line, size, "%s = input %s init=random:%u%s", name,
		 rg_types[pick(&r->s, COUNT(rg_types))], pick(&r->s, 1000), box);
}

/* A literal of type ty: random bits of an integer, a listed value
 * otherwise. */
static void rg_value(rgen *r, const char *ty, char *buf, size_t size)
{
	unsigned fmt, w, sg;
	cr_assert_eq(isa_type_parse(ty, strlen(ty), &fmt, &w, &sg), 0);
	if (fmt == ISA_FMT_INT)
		snprintf(buf, size, "%" PRIu64, rnd(&r->s) & isa_mask(w));
	else
		snprintf(buf, size, "%s", rg_literals[pick(&r->s, COUNT(rg_literals))]);
}

static void rg_const(rgen *r, char *line, size_t size, const char *name)
{
	const char *ty = rg_types[pick(&r->s, COUNT(rg_types))];
	char v[32];
	rg_value(r, ty, v, sizeof v);
	snprintf(line, size, "%s = const %s %s", name, ty, v);
}

/* A shift of a random node along a random dimension: by one, by a
 * random amount, or by all but one (which leaves a one-element-wide
 * domain for a later bcast). */
static void rg_shift(rgen *r, char *line, size_t size, const char *name)
{
	const unsigned src = pick(&r->s, (unsigned)r->t.nnodes), k = pick(&r->s, r->ndims);
	const uint64_t S = r->shape[k];
	const unsigned how = pick(&r->s, 4);
	int64_t off = S == 1 ? 1 : how < 2 ? 1 : how == 2 ? 1 + pick(&r->s, (unsigned)S - 1)
									  : (int64_t)S - 1;
	off = pick(&r->s, 2) ? -off : off;
	int n = snprintf(line, size, "%s = shift %s", name, r->t.nodes[src].name);
	for (unsigned j = 0; j < r->ndims; j++)
		n += snprintf(line + n, size - (size_t)n, ", %+" PRId64, j == k ? off : 0);
}

/* A bcast of a node whose domain is one element wide along a dimension
 * of more than one element; "" if there is none. */
static void rg_bcast(rgen *r, char *line, size_t size, const char *name)
{
	line[0] = 0;
	const unsigned start = pick(&r->s, (unsigned)r->t.nnodes);
	for (size_t i = 0; i < r->t.nnodes; i++) {
		const emu_tnode *x = &r->t.nodes[(start + i) % r->t.nnodes];
		for (unsigned k = 0; k < r->ndims; k++)
			if (r->shape[k] > 1 && x->dom.hi[k] - x->dom.lo[k] == 1) {
				snprintf(line, size, "%s = bcast %s, %u", name, x->name, k);
				return;
			}
	}
}

/* A command on a random node's type: its other operands are nodes of
 * the same type (the first one again if there is no other). */
static void rg_compute(rgen *r, char *line, size_t size, const char *name)
{
	/* Half the time one of the last three nodes: chains, not only fans. */
	const unsigned nn = (unsigned)r->t.nnodes;
	const unsigned a = pick(&r->s, 2) && nn > 3 ? nn - 1 - pick(&r->s, 3) : pick(&r->s, nn);
	const emu_tnode *x = &r->t.nodes[a];
	char ty[16], v[32];
	rg_type_of(r, a, ty, sizeof ty);
	const rop *ops = x->fmt == ISA_FMT_INT ? int_ops : x->fmt == ISA_FMT_FIX ? fix_ops : flt_ops;
	const size_t nops = x->fmt == ISA_FMT_INT ? COUNT(int_ops)
			    : x->fmt == ISA_FMT_FIX ? COUNT(fix_ops) : COUNT(flt_ops);
	const rop *op = &ops[pick(&r->s, (unsigned)nops)];
	unsigned same[64], nsame = 0;
	for (size_t i = 0; i < r->t.nnodes && nsame < 64; i++) {
		char tb[16];
		if (strcmp(rg_type_of(r, i, tb, sizeof tb), ty) == 0)
			same[nsame++] = (unsigned)i;
	}
	int n = snprintf(line, size, "%s = %s.%s %s", name, op->name, ty, x->name);
	for (unsigned i = 1; i < op->nargs; i++)
		n += snprintf(line + n, size - (size_t)n, ", %s",
			      r->t.nodes[same[pick(&r->s, nsame)]].name);
	if (op->imm == 's')
		snprintf(line + n, size - (size_t)n, ", #%u", pick(&r->s, x->width));
	if (op->imm == 'v') {
		rg_value(r, ty, v, sizeof v);
		snprintf(line + n, size - (size_t)n, ", #%s", v);
	}
}

static void rg_cvt(rgen *r, char *line, size_t size, const char *name)
{
	const unsigned a = pick(&r->s, (unsigned)r->t.nnodes);
	char ty[16];
	rg_type_of(r, a, ty, sizeof ty);
	const char *to = rg_types[pick(&r->s, COUNT(rg_types))];
	if (strcmp(to, ty) == 0)
		to = strcmp(ty, "f32") ? "f32" : "i32";
	snprintf(line, size, "%s = cvt.%s.%s %s", name, to, ty, r->t.nodes[a].name);
}

/* A reduction of a random node along a random dimension (integers and
 * floats; "" for a .qN node, which has no add or min). */
static void rg_reduce(rgen *r, char *line, size_t size, const char *name)
{
	static const char *const ops[] = {"add", "min", "max", "mul", "and", "or", "xor"};
	const unsigned a = pick(&r->s, (unsigned)r->t.nnodes);
	const emu_tnode *x = &r->t.nodes[a];
	char ty[16];
	line[0] = 0;
	if (x->fmt == ISA_FMT_FIX)
		return;
	snprintf(line, size, "%s = reduce.%s.%s %s, %u", name,
		 ops[pick(&r->s, x->fmt == ISA_FMT_INT ? 7 : 4)], rg_type_of(r, a, ty, sizeof ty),
		 x->name, pick(&r->s, r->ndims));
}

/* One more node, of a kind drawn with these weights. */
static void rg_node(rgen *r, char *line, size_t size, const char *name)
{
	const unsigned k = pick(&r->s, 21);
	if (k == 20) {
		rg_reduce(r, line, size, name);
		return;
	}
	if (k < 2)
		rg_input(r, line, size, name);
	else if (k < 4)
		rg_const(r, line, size, name);
	else if (k < 8)
		rg_shift(r, line, size, name);
	else if (k < 10)
		rg_bcast(r, line, size, name);
	else if (k < 12)
		rg_cvt(r, line, size, name);
	else
		rg_compute(r, line, size, name);
}

/* A random tDFG: 1 or 2 inputs, then nodes up to RG_MAX_NODES (each
 * kept only if the text still parses), then outputs: the last node and
 * some others.  The text is r->text[0..r->len), NUL-terminated. */
static void rg_program(rgen *r, uint64_t seed)
{
	char line[256], name[16];
	memset(r, 0, sizeof *r);
	emu_tdfg_init(&r->t);
	r->s = seed;
	rg_header(r);
	const unsigned inputs = 1 + pick(&r->s, 2), nodes = 3 + pick(&r->s, RG_MAX_NODES - 2);
	for (unsigned i = 0; i < inputs; i++) {
		snprintf(name, sizeof name, "n%u", i);
		rg_input(r, line, sizeof line, name);
		cr_assert(rg_try(r, line), "%s\n%s", r->text, line);
	}
	for (unsigned tries = 0; r->t.nnodes < nodes && tries < 100; tries++) {
		snprintf(name, sizeof name, "n%zu", r->t.nnodes);
		rg_node(r, line, sizeof line, name);
		if (line[0])
			rg_try(r, line);
	}
	int n = snprintf(line, sizeof line, "output %s", r->t.nodes[r->t.nnodes - 1].name);
	for (size_t i = 0; i + 1 < r->t.nnodes; i++)
		if (pick(&r->s, 4) == 0)
			n += snprintf(line + n, sizeof line - (size_t)n, ", %s", r->t.nodes[i].name);
	cr_assert(rg_try(r, line));
	r->text[r->len] = 0;
	emu_tdfg_free(&r->t);
}

static bool rows_meet(unsigned a, unsigned b, unsigned n)
{
	return a < b + n && b < a + n;
}

/* A reduce node's two temporaries (x__1, x__2) live during its own
 * commands: apart from each other, from the node, and from every value
 * live there (inputs, and earlier values whose last use is not before
 * it). */
static void expect_temporaries_apart(const emu_tdfg *t, size_t i)
{
	const emu_tnode *x = &t->nodes[i];
	const unsigned n = x->width;
	cr_expect(!rows_meet(x->tmp[0], x->tmp[1], n) && !rows_meet(x->tmp[0], x->wl, n) &&
		  !rows_meet(x->tmp[1], x->wl, n), "'%s': temporaries at %u and %u, value at %u",
		  x->name, x->tmp[0], x->tmp[1], x->wl);
	for (size_t j = 0; j < t->nnodes; j++) {
		const emu_tnode *y = &t->nodes[j];
		const bool live = y->kind == EMU_TN_INPUT ||
				  (j < i && (y->last_use == UINT32_MAX || y->last_use >= i));
		for (unsigned k = 0; live && k < 2; k++)
			cr_expect(x->tmp[k] >= y->wl + y->rows || y->wl >= x->tmp[k] + n,
				  "'%s__%u' (%u..%u) meets live '%s' (%u..%u)", x->name, k + 1,
				  x->tmp[k], x->tmp[k] + n - 1, y->name, y->wl, y->wl + y->rows - 1);
	}
}

/* §3.4's promises about the wordlines each node got (emu_tnode.wl,
 * rows): below the scratch rows; inputs and outputs live to the end; a
 * value keeps its rows from its node to its last use, so no node placed
 * in that span (its own consumers included) shares one of them.
 * Returns how many pairs of nodes share rows (dead values reused). */
static unsigned expect_allocation_sound(const tg *g)
{
	const emu_tdfg *t = &g->t;
	unsigned reused = 0;
	for (size_t i = 0; i < t->nnodes; i++) {
		const emu_tnode *x = &t->nodes[i];
		cr_expect_eq(x->rows, x->width, "'%s'", x->name);
		cr_expect_leq(x->wl + x->rows, g->j.scratch, "'%s' reaches the scratch rows", x->name);
		if (x->output || x->kind == EMU_TN_INPUT)
			cr_expect_eq(x->last_use, UINT32_MAX, "'%s' lives to the end", x->name);
		for (size_t j = i + 1; j < t->nnodes; j++) {
			const emu_tnode *y = &t->nodes[j];
			const bool meet = x->wl < y->wl + y->rows && y->wl < x->wl + x->rows;
			const bool live = x->last_use == UINT32_MAX || x->last_use >= j ||
					  y->kind == EMU_TN_INPUT;
			cr_expect(!(meet && live), "'%s' (%u..%u, last use %u) and '%s' (%u..%u) "
				  "share wordlines while '%s' is live", x->name, x->wl,
				  x->wl + x->rows - 1, x->last_use, y->name, y->wl,
				  y->wl + y->rows - 1, x->name);
			reused += meet;
		}
		for (unsigned a = 0; a < x->nargs; a++) {
			const emu_tnode *y = &t->nodes[x->arg[a]];
			cr_expect(x->wl >= y->wl + y->rows || y->wl >= x->wl + x->rows,
				  "'%s' is written over its operand '%s'", x->name, y->name);
		}
		if (x->kind == EMU_TN_REDUCE)
			expect_temporaries_apart(t, i);
	}
	return reused;
}

/* How many random programs `make check` runs; TDFG_RANDOM=N runs N
 * (TDFG_SEED=S starts from another seed) for a longer search. */
static unsigned random_count(uint64_t *seed)
{
	const char *n = getenv("TDFG_RANDOM"), *s = getenv("TDFG_SEED");
	*seed = s ? strtoull(s, NULL, 0) : 2026;
	return n ? (unsigned)strtoul(n, NULL, 0) : 1000;
}

/* The only suite with a timeout: Criterion 2.4's runner leaks 48 bytes
 * (LeakSanitizer, in its own parent process) when two tests with
 * timeouts run at once under -j2. */
TestSuite(random, .timeout = 300);

/* Each program is lowered, checked node by node and its allocation
 * checked; a program that needs more wordlines than the machine has is
 * refused with the "no room" message and replaced by the next seed
 * (these must stay rare, or the generator tests little). */
Test(random, programs)
{
	uint64_t seed;
	const unsigned count = random_count(&seed);
	unsigned ran = 0, no_room = 0, reused = 0, nodes = 0;
	rgen *r = malloc(sizeof *r);
	cr_assert_not_null(r);
	for (uint64_t k = 0; ran < count; k++) {
		rg_program(r, seed + k);
		tg g;
		diag d;
		if (tg_try(&g, r->text, r->len, &d)) {
			cr_assert(strstr(d.msg, "no room for"), "seed %" PRIu64 ": %s\n%s", seed + k,
				  d.msg, r->text);
			no_room++;
			tg_free(&g);
			continue;
		}
		if (getenv("TDFG_SHOW"))
			cr_log_info("seed %" PRIu64 ":\n%s", seed + k, r->text);
		const verdict v = run_program(&g, &g.j.prog, g.j.node_of);
		char what[1024] = "";
		if (v.node >= 0)
			emu_report_mismatch_text(what, sizeof what, &v.mm);
		cr_assert_eq(v.node, -1, "seed %" PRIu64 ": node '%s' differs: %s\n--- tDFG ---\n"
			     "%s--- lowered ---\n%s", seed + k, v.node >= 0 ?
			     g.t.nodes[v.node].name : "", what, r->text, g.j.text);
		reused += expect_allocation_sound(&g);
		nodes += (unsigned)g.t.nnodes;
		ran++;
		tg_free(&g);
	}
	free(r);
	cr_log_info("%u random tDFGs, %u nodes, %u refused for room, %u reuses of rows", ran,
		    nodes, no_room, reused);
	cr_expect_leq(no_room * 10, count, "%u of %u programs did not fit", no_room, count);
	cr_expect_geq(nodes, count * 5, "programs too small: %u nodes", nodes);
	cr_expect_gt(reused, count / 4, "dead values' wordlines were reused %u times", reused);
}

/* ---- d. the check can fail ---- */

/* text with line `line` (1-based) replaced by repl (NULL: removed). */
static char *replace_line(const char *text, int line, const char *repl)
{
	str b;
	str_open(&b);
	int no = 1;
	for (const char *s = text; *s; no++) {
		const char *nl = strchr(s, '\n');
		const size_t n = nl ? (size_t)(nl - s) + 1 : strlen(s);
		if (no != line)
			fwrite(s, 1, n, b.f);
		else if (repl)
			fprintf(b.f, "%s\n", repl);
		s += n;
	}
	return str_close(&b);
}

/* The lowered text, changed, assembled again for the same machine. */
static void reassemble(const tg *g, const char *text, emu_program *p)
{
	diag d;
	diag_clear(&d);
	emu_program_init(p);
	cr_assert_eq(emu_parse("changed.ins", text, strlen(text), &g->t.geom, p, &d), 0,
		     "%s\n%s", d.msg, text);
	cr_assert_eq(emu_program_lower(p, &d), 0, "%s", d.msg);
	cr_assert_eq(p->nbufs, g->j.prog.nbufs);
}

static const char shifted[] = SMALL "region r 64x4 tile=16x4\n"
	"X = input i16 init=iota\nw = shift X, +1, +0\nS = add.i16 X, w\noutput S\n";

/* A shift by +2 where the tDFG says +1: w[2] must be X[1] = 1 but holds
 * X[0] = 0 (w[1] holds 0 either way: its rows start cleared). */
Test(corrupt, shift_offset_changed)
{
	tg g;
	tg_lower(&g, shifted);
	const long w = node_named(&g, "w");
	const int line = g.j.prog.cmds[g.t.nodes[w].cmd0].line;
	char *bad = replace_line(g.j.text, line, "move w, X, +2, +0 @ box=0:64,0:4");
	cr_assert(strstr(g.j.text, "move w, X, +1, +0 @ box=0:64,0:4"), "%s", g.j.text);
	emu_program p;
	reassemble(&g, bad, &p);
	cr_assert_eq(p.ncmds, g.j.prog.ncmds);
	const verdict v = run_program(&g, &p, g.j.node_of);
	cr_assert_eq(v.node, w, "node %ld", v.node);
	cr_expect_str_eq(v.mm.buf->name, "w");
	cr_expect_eq(v.mm.index, 2);
	cr_expect_eq(v.mm.expected, 1);
	cr_expect_eq(v.mm.actual, 0);
	emu_program_free(&p);
	free(bad);
	tg_free(&g);
}

/* Dropping the second piece of S (Algorithm 1 cut its domain [1, 64) x
 * [0, 4) at the tile edge 16): the first element wrong is the piece's
 * first, (16, 0), which must hold X[16] + X[15] = 31. */
Test(corrupt, compute_piece_dropped)
{
	tg g;
	tg_lower(&g, shifted);
	const long S = node_named(&g, "S");
	const emu_tnode *x = &g.t.nodes[S];
	emu_box pieces[27];
	const size_t n = emu_decompose(&x->dom, g.t.regions[0].tile, pieces);
	cr_assert_eq(n, 2);
	cr_assert_eq(x->cmd1 - x->cmd0, n);
	const size_t drop = x->cmd0 + 1;
	char *bad = replace_line(g.j.text, g.j.prog.cmds[drop].line, NULL);
	emu_program p;
	reassemble(&g, bad, &p);
	cr_assert_eq(p.ncmds + 1, g.j.prog.ncmds);
	uint32_t *node_of = malloc(p.ncmds * sizeof *node_of);
	for (size_t i = 0, k = 0; i < g.j.prog.ncmds; i++)
		if (i != drop)
			node_of[k++] = g.j.node_of[i];
	const verdict v = run_program(&g, &p, node_of);
	cr_assert_eq(v.node, S);
	cr_expect_eq(v.mm.index, pieces[1].lo[0] + 64 * pieces[1].lo[1]);
	cr_expect_eq(v.mm.index, 16);
	cr_expect_eq(v.mm.expected, 31);
	cr_expect_eq(v.mm.actual, 0);
	free(node_of);
	emu_program_free(&p);
	free(bad);
	tg_free(&g);
}

/* Every line of a lowering matters: without any one of them (but a
 * sync, which orders and moves nothing), the check stops at the node
 * the line belongs to.  A `move` line may assemble into several
 * commands; they all go. */
static void expect_each_line_needed(const char *text)
{
	tg g;
	tg_lower(&g, text);
	const emu_program *p0 = &g.j.prog;
	uint32_t *node_of = malloc(p0->ncmds * sizeof *node_of);
	cr_assert_not_null(node_of);
	for (size_t drop = 0; drop < p0->ncmds; drop++) {
		const emu_cmd *c = &p0->cmds[drop];
		if ((drop && p0->cmds[drop - 1].line == c->line) ||
		    (c->kind == EMU_CMD_MOVE && c->mv.kind == EMU_MOVE_SYNC))
			continue;
		char *bad = replace_line(g.j.text, c->line, NULL);
		emu_program p;
		reassemble(&g, bad, &p);
		size_t k = 0;
		for (size_t i = 0; i < p0->ncmds; i++)
			if (p0->cmds[i].line != c->line)
				node_of[k++] = g.j.node_of[i];
		cr_assert_eq(k, p.ncmds);
		const verdict v = run_program(&g, &p, node_of);
		cr_expect_eq(v.node, (long)g.j.node_of[drop], "without line %d of the lowering "
			     "(node '%s'), the check stopped at node %ld", c->line,
			     g.t.nodes[g.j.node_of[drop]].name, v.node);
		emu_program_free(&p);
		free(bad);
	}
	free(node_of);
	tg_free(&g);
}

Test(corrupt, every_line_of_the_stencil)
{
	char *text = proc_slurp(STENCIL, NULL);
	cr_assert_not_null(text);
	expect_each_line_needed(text);
	free(text);
}

Test(corrupt, every_line_of_a_reduction)
{
	expect_each_line_needed(SMALL "region r 64x4 tile=16x4\nx = input i16 init=iota\n"
				"k = const i16 3\nw = shift x, +1, +0\ns = add.i16 w, k\n"
				"r = reduce.add.i16 s, 1\nq = reduce.add.i16 r, 0\noutput q\n");
}

Test(corrupt, every_line_of_broadcasts)
{
	expect_each_line_needed(SMALL "region r 64x4x4 tile=16x2x2\n"
				   "r0 = input i16 init=iota box=5:6,0:4,0:4\nb0 = bcast r0, 0\n"
				   "r1 = input i16 init=iota box=0:64,2:3,1:3\nb1 = bcast r1, 1\n"
				   "s = shift r1, 0, 0, 2\nb2 = bcast s, 2\nk = const i16 7\n"
				   "q = add.i16 b2, k\noutput b0, q\n");
}

/* ---- e. wordline allocation (§3.4) and shared tensors ---- */

TestSuite(alloc);

/* The stencil: X (input) keeps 0..31; the four shifts are each dead
 * once their sum is made, so they take turns on the same rows; the sums
 * alternate between two ranges, never on their own operands. */
Test(alloc, stencil_rows)
{
	char *text = proc_slurp(STENCIL, NULL);
	cr_assert_not_null(text);
	tg g;
	tg_lower(&g, text);
	free(text);
	static const char *const names[] = {"X", "w", "s1", "e", "s2", "n", "s3", "s", "S"};
	static const unsigned wl[] = {0, 32, 64, 32, 96, 32, 64, 32, 96};
	for (size_t i = 0; i < COUNT(names); i++)
		cr_expect_eq(g.t.nodes[node_named(&g, names[i])].wl, wl[i], "'%s'", names[i]);
	cr_expect_eq(g.j.scratch, 132, "add.f32 needs 124 scratch rows");
	cr_expect_geq(expect_allocation_sound(&g), 4u);
	tg_free(&g);
}

/* Values never read are freed at once; an output is not, nor an input
 * declared after the values (its data is there from the start). */
Test(alloc, dead_outputs_and_late_inputs)
{
	tg g;
	tg_lower(&g, SMALL "region r 64\na = input i16 init=iota\n"
		 "b = add.i16 a, a\nc = add.i16 a, a\nd = add.i16 a, a\n"
		 "late = input i16 init=random:3\ne = add.i16 d, late\noutput c, e\n");
	const emu_tnode *a = &g.t.nodes[0], *b = &g.t.nodes[1], *c = &g.t.nodes[2];
	const emu_tnode *d = &g.t.nodes[3], *late = &g.t.nodes[4], *e = &g.t.nodes[5];
	cr_expect_eq(b->last_use, 1u, "b is read by nobody");
	cr_expect_eq(c->wl, b->wl, "c takes dead b's rows");
	cr_expect_eq(c->last_use, UINT32_MAX);
	cr_expect_neq(d->wl, c->wl, "c is an output");
	cr_expect_eq(late->last_use, UINT32_MAX);
	cr_expect(late->wl >= a->wl + 16 || late->wl + 16 <= b->wl, "late shares no row with a");
	cr_expect(late->wl + 16 <= b->wl || late->wl >= b->wl + 16,
		  "late (%u) shares rows with b (%u), computed before late's data is gone",
		  late->wl, b->wl);
	cr_expect(e->wl + 16 <= d->wl || e->wl >= d->wl + 16);
	expect_allocation_sound(&g);
	tg_free(&g);
	expect_nodes_agree(SMALL "region r 64\na = input i16 init=iota\n"
			   "b = add.i16 a, a\nc = add.i16 a, a\nd = add.i16 a, a\n"
			   "late = input i16 init=random:3\ne = add.i16 d, late\noutput c, e\n");
}

/* Nodes are `shared` tensors (they may hold rows other nodes held or
 * will hold); inputs are not.  The flag survives the disassembler, the
 * assembler and the binary form, and the decoded program still computes
 * every node. */
Test(alloc, shared_round_trips)
{
	char *text = proc_slurp(STENCIL, NULL);
	tg g;
	tg_lower(&g, text);
	free(text);
	const emu_program *p = &g.j.prog;
	for (size_t n = 0; n < g.t.nnodes; n++)
		cr_expect_eq(p->bufs[g.t.nodes[n].buf].shared, g.t.nodes[n].kind != EMU_TN_INPUT,
			     "'%s'", g.t.nodes[n].name);
	char *f1 = emu_format(p);
	cr_assert_not_null(f1);
	cr_expect(strstr(f1, "tensor w f32 64x32 wl=32 array=0 tile=64x1 shared"), "%s", f1);
	cr_expect(strstr(f1, "tensor X f32 64x32 wl=0 array=0 tile=64x1 init=iota\n"), "%s", f1);
	emu_program p2;
	reassemble(&g, f1, &p2);
	char *f2 = emu_format(&p2);
	cr_expect_str_eq(f1, f2);
	uint64_t *words = NULL;
	size_t nwords = 0;
	diag d;
	diag_clear(&d);
	cr_assert_eq(emu_encode(p, &words, &nwords, &d), 0, "%s", d.msg);
	emu_program p3;
	emu_program_init(&p3);
	cr_assert_eq(emu_decode("s.inb", words, nwords, &p3, &d), 0, "%s", d.msg);
	cr_assert_eq(p3.nbufs, p->nbufs);
	for (size_t b = 0; b < p->nbufs; b++) {
		cr_expect_eq(p2.bufs[b].shared, p->bufs[b].shared, "%s", p->bufs[b].name);
		cr_expect_eq(p3.bufs[b].shared, p->bufs[b].shared, "%s", p->bufs[b].name);
	}
	const verdict v = run_program(&g, &p3, g.j.node_of);
	cr_expect_eq(v.node, -1);
	free(words);
	free(f1);
	free(f2);
	emu_program_free(&p2);
	emu_program_free(&p3);
	tg_free(&g);
}

/* What `shared` allows in a stream, and what it does not: two shared
 * tensors on the same rows; not a shared one on a plain one's, and not
 * a plain buffer marked shared. */
Test(alloc, shared_in_streams)
{
	static const char ok[] = SMALL "tensor a i16 64 wl=0 array=0 tile=64 shared\n"
		"tensor b i16 64 wl=8 array=0 tile=64 shared\n";
	static const char clash[] = SMALL "tensor a i16 64 wl=0 array=0 tile=64\n"
		"tensor b i16 64 wl=8 array=0 tile=64 shared\n";
	static const char plain[] = SMALL "buffer a i16 64 wl=0 arrays=0 shared\n";
	const sram_geom geom = small_geom();
	emu_program p;
	diag d;
	diag_clear(&d);
	emu_program_init(&p);
	cr_expect_eq(emu_parse("ok.ins", ok, strlen(ok), &geom, &p, &d), 0, "%s", d.msg);
	emu_program_free(&p);
	emu_program_init(&p);
	cr_expect_neq(emu_parse("clash.ins", clash, strlen(clash), &geom, &p, &d), 0);
	cr_expect(strstr(d.msg, "clash.ins:3:") && strstr(d.msg, "overlaps buffer 'a'"), "%s", d.msg);
	emu_program_free(&p);
	diag_clear(&d);
	emu_program_init(&p);
	cr_expect_neq(emu_parse("plain.ins", plain, strlen(plain), &geom, &p, &d), 0);
	cr_expect(strstr(d.msg, "plain.ins:2:"), "%s", d.msg);
	emu_program_free(&p);
}

/* ---- f. the infsim program ---- */

#define RUN_TMP_PREFIX "infsim-tdfg"
#include "infsim_run.h"

static void write_tmp(const char *name, const char *text)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	cr_assert_eq(fputs(text, f) >= 0, true);
	cr_assert_eq(fclose(f), 0);
}

static char *read_tmp(const char *name)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	return proc_slurp(path, NULL);
}

/* Files in tmpdir (the run's own .stdout and .stderr are gone). */
static unsigned tmp_count(void)
{
	char cmd[400], *out = NULL;
	/* outfile's temporaries, ".NAME.XXXXXX" (other tests of this
	 * program write their own files in the folder at the same time) */
	snprintf(cmd, sizeof cmd, "ls -A '%s' | grep -c '^\\.' || true", tmpdir);
	cr_assert_eq(proc_shell(cmd, &out), 0);
	const unsigned n = (unsigned)strtoul(out, NULL, 10);
	free(out);
	return n;
}

/* A failure: the status, and one line on stderr containing want. */
static void expect_fail(result r, int status, const char *want)
{
	cr_expect_eq(r.status, status, "exit %d, expected %d: %s", r.status, status, r.err);
	cr_expect(strstr(r.err, want), "stderr lacks \"%s\": %s", want, r.err);
	const char *nl = strchr(r.err, '\n');
	if (status == 1)
		cr_expect(nl && nl[1] == 0, "not one line: %s", r.err);
	cr_expect_str_empty(r.out);
	result_free(&r);
}

TestSuite(cli, .init = make_tmpdir, .fini = remove_tmpdir);

/* jit prints what emu_jit_lower makes; -o writes the same bytes, and
 * the written stream runs on its own, agreeing with the reference. */
Test(cli, jit_stdout_and_output_file)
{
	tg g;
	diag d;
	diag_clear(&d);
	cr_assert_eq(emu_tdfg_load(STENCIL, NULL, &g.t, &g.j, &d), 0, "%s", d.msg);
	result r = run("jit '%s'", STENCIL);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect_str_empty(r.err);
	cr_expect_str_eq(r.out, g.j.text);
	cr_expect(strstr(r.out, "# region stencil 64x32 tile=64x1\n"), "%s", r.out);
	cr_expect(strstr(r.out, "move w, X, +1, +0 @ box=0:64,0:32\n"), "%s", r.out);
	result_free(&r);
	r = run("jit '%s' -o low.ins", STENCIL);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect_str_empty(r.out);
	result_free(&r);
	char *low = read_tmp("low.ins");
	cr_assert_not_null(low);
	cr_expect_str_eq(low, g.j.text);
	free(low);
	tg_free(&g);
	r = run("run low.ins --check");
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "low.ins: 10 commands") && strstr(r.out, "--check: the reference "
		  "model agrees\n"), "%s", r.out);
	result_free(&r);
	r = run("jit -m fp=ieee '%s'", STENCIL);
	cr_expect(strstr(r.out, "machine wordlines=256 bitlines=64 arrays=4 ways=2 mesh=2x2 "
			 "fp=ieee\n"), "%s", r.out);
	result_free(&r);
}

/* -o is atomic: a bad tDFG or an unwritable place leaves what was there
 * and no temporary file. */
Test(cli, jit_output_is_atomic)
{
	write_tmp("bad.tdfg", "region r 64\na = input i8\nb = add.i8 a, zz\n");
	write_tmp("low.ins", "old");
	const unsigned before = tmp_count();
	expect_fail(run("jit bad.tdfg -o low.ins"), 1,
		    "bad.tdfg:3:15: error: unknown node 'zz'; operands must be defined above");
	char *low = read_tmp("low.ins");
	cr_expect_str_eq(low, "old");
	free(low);
	expect_fail(run("jit '%s' -o nodir/low.ins", STENCIL), 1, "nodir/low.ins: error: cannot write");
	cr_expect_eq(tmp_count(), before, "a temporary file was left behind");
	expect_fail(run("jit '%s'/tests/data/small.ins", SRCDIR), 2,
		    "jit: '" SRCDIR "/tests/data/small.ins' is not a tDFG; expected a .tdfg file");
	expect_fail(run("jit"), 2, "missing");
	expect_fail(run("jit --json '%s'", STENCIL), 2, "option '--json' does not apply to 'jit'");
	expect_fail(run("jit missing.tdfg"), 1, "missing.tdfg: error: ");
}

/* run --check compares every node; its summary says so. */
Test(cli, run_check_and_summary)
{
	result r = run("run '%s' --check", STENCIL);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect_str_empty(r.err);
	cr_expect(strstr(r.out, "stencil.tdfg (lowered): 10 commands, ") &&
		  strstr(r.out, "; --check: the reference model agrees, and every tDFG node (9) "
			 "computes what the tDFG means\n"), "%s", r.out);
	result_free(&r);
	r = run("run '%s' --check -q -m latency=optimised,fp=ieee --stepi", STENCIL);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect_str_empty(r.out);
	result_free(&r);
	write_tmp("bad.tdfg", "region r 64\na = input i8\nb = shift a, 0\n");
	expect_fail(run("run bad.tdfg --check"), 1, "bad.tdfg:3:12: error: a shift moves along "
		    "exactly one dimension; 0 offsets are nonzero");
	write_tmp("room.tdfg", "machine wordlines=64 bitlines=64 arrays=4 ways=2 mesh=2x2\n"
		  "region r 64\na = input i32\nb = input i32\nc = add.i32 a, b\n");
	expect_fail(run("run room.tdfg"), 1, "room.tdfg:4:5: error: no room for 'b'");
}

/* --load gives an input its data, in the machine and in the reference
 * alike; a node that is not an input cannot be loaded under --check
 * (its value is the tDFG's to compute); --save reads an output. */
Test(cli, run_load_and_save)
{
	const size_t n = 64 * 32;
	float *x = malloc(n * sizeof *x);
	cr_assert_not_null(x);
	for (size_t i = 0; i < n; i++)
		x[i] = (float)((i * 7919) % 1000) / 8.0f - 50.0f;
	char path[512];
	snprintf(path, sizeof path, "%s/x.bin", tmpdir);
	FILE *f = fopen(path, "wb");
	cr_assert_not_null(f);
	cr_assert_eq(fwrite(x, sizeof *x, n, f), n);
	cr_assert_eq(fclose(f), 0);
	result r = run("run '%s' --check -l X=x.bin -s S=s.bin", STENCIL);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "every tDFG node (9) computes what the tDFG means"), "%s", r.out);
	result_free(&r);
	size_t len = 0;
	snprintf(path, sizeof path, "%s/s.bin", tmpdir);
	float *s = (float *)proc_slurp(path, &len);
	cr_assert_eq(len, n * sizeof *s);
	/* S[i1][i0] = the five-point sum, summed in the tDFG's order. */
	const size_t at = 5 * 64 + 9;
	const float want = (((x[at] + x[at - 1]) + x[at + 1]) + x[at - 64]) + x[at + 64];
	cr_expect_eq(s[at], want, "S[5][9] = %g, expected %g", (double)s[at], (double)want);
	free(s);
	expect_fail(run("run '%s' --check -l w=x.bin", STENCIL), 1, "'w' is not an input");
	free(x);
}

/* disasm and layout take a tDFG as they take a stream: its lowering. */
Test(cli, disasm_and_layout)
{
	result r = run("disasm '%s'", STENCIL);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strncmp(r.out, "machine wordlines=256 bitlines=64", 33) == 0, "%s", r.out);
	cr_expect(strstr(r.out, "tensor S f32 64x32 wl=96 array=0 tile=64x1 shared"), "%s", r.out);
	cr_expect(strstr(r.out, "add.f32 S, s3, s @ arrays=1:1:30 bitlines=1:1:62\n"), "%s", r.out);
	result_free(&r);
	r = run("layout '%s'", STENCIL);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "X") && strstr(r.out, "S") && strstr(r.out, "64x1"), "%s", r.out);
	result_free(&r);
	r = run("info '%s'", STENCIL);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "64 bitlines"), "%s", r.out);
	result_free(&r);
	r = run("--help");
	cr_expect(strstr(r.out, "infsim jit PROG.tdfg [-o OUT]"), "%s", r.out);
	result_free(&r);
}
