/* SPDX-License-Identifier: MIT */
/*
 * test_jit_reduce.c: tDFG reduce nodes and the JIT's wordline allocation.
 *
 * Every program is lowered by the JIT, run on the machine command by
 * command, and every node is compared with the tDFG reference
 * (tdfg_ref.c) right after its last command, over its domain.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "machine.h"
#include "tdfg.h"

/* Parse and lower text, run it, compare every node; 0 if all agree. */
static void run_all_nodes(const char *text)
{
	emu_tdfg t;
	emu_jit j;
	diag d;
	diag_clear(&d);
	cr_assert_eq(emu_tdfg_parse("t.tdfg", text, strlen(text), NULL, NULL, &t, &d), 0, "%s",
		     d.msg);
	cr_assert_eq(emu_jit_lower(&t, &j, &d), 0, "%s", d.msg);
	emu_machine *em = emu_machine_new(&j.prog, &d);
	cr_assert(em, "%s", d.msg);
	cr_assert_eq(emu_init_buffers(em, &d), 0, "%s", d.msg);
	emu_tref *r = emu_tref_new(&t, &d);
	cr_assert(r, "%s", d.msg);
	for (size_t c = 0; c < j.prog.ncmds; c++) {
		cr_assert_eq(emu_run_cmd(em, &d), 0, "%s", d.msg);
		const long n = emu_jit_node_of(&j, c);
		if (n < 0 || t.nodes[n].cmd1 != c + 1)
			continue;
		emu_mismatch mm;
		cr_assert(emu_tref_compare(r, &j.prog, em, (size_t)n, &mm),
			  "node '%s' element %llu: expected 0x%llx, got 0x%llx\n%s", t.nodes[n].name,
			  (unsigned long long)mm.index, (unsigned long long)mm.expected,
			  (unsigned long long)mm.actual, j.text);
	}
	cr_assert_eq(em->hz ? 0 : 0, 0);
	emu_tref_free(r);
	emu_machine_free(em);
	emu_jit_free(&j);
	emu_tdfg_free(&t);
}

#define MACHINE "machine wordlines=512 bitlines=64 arrays=4 ways=2 mesh=2x2\n"

Test(reduce, every_int_op_along_each_dim)
{
	static const char *const ops[] = {"add", "mul", "min", "max", "and", "or", "xor"};
	static const char *const types[] = {"i8", "u16", "i32", "u7"};
	char text[1024];
	for (size_t o = 0; o < 7; o++)
		for (size_t ty = 0; ty < 4; ty++)
			for (unsigned dim = 0; dim < 3; dim++) {
				snprintf(text, sizeof text, MACHINE "region r 64x6x5\n"
					 "x = input %s init=random:%zu\n"
					 "s = reduce.%s.%s x, %u\noutput s\n",
					 types[ty], o * 7 + ty, ops[o], types[ty], dim);
				run_all_nodes(text);
			}
}

Test(reduce, floats_in_both_modes)
{
	static const char *const types[] = {"f32", "f16", "bf16"};
	static const char *const ops[] = {"add", "mul", "min", "max"};
	char text[1024];
	for (unsigned ieee = 0; ieee < 2; ieee++)
		for (size_t ty = 0; ty < 3; ty++)
			for (size_t o = 0; o < 4; o++) {
				snprintf(text, sizeof text,
					 "machine wordlines=512 bitlines=64 arrays=4 ways=2 mesh=2x2 fp=%s\n"
					 "region r 64x13\nx = input %s init=random:%zu\n"
					 "s = reduce.%s.%s x, 1\nt = reduce.%s.%s x, 0\noutput s, t\n",
					 ieee ? "ieee" : "ftz", types[ty], ty * 4 + o, ops[o], types[ty],
					 ops[o], types[ty]);
				run_all_nodes(text);
			}
}

/* A domain that does not start at 0 (after a shift), odd lengths, and a
 * reduce feeding a compute node. */
Test(reduce, shifted_domains_and_users)
{
	run_all_nodes(MACHINE "region r 64x7\n"
		      "x = input i32 init=random:9\n"
		      "y = shift x, +0, +2\n"
		      "s = reduce.add.i32 y, 1\n"
		      "z = shift x, +5, +0\n"
		      "m = reduce.max.i32 z, 0\n"
		      "k = const i32 3\n"
		      "u = mul.i32 s, k\n"
		      "output u, m\n");
	run_all_nodes(MACHINE "region r 64x1x9\n"
		      "x = input u8 init=iota\n"
		      "s = reduce.add.u8 x, 2\noutput s\n");
}

/* The reduce keeps the first position of its dimension; every other
 * position is outside its domain. */
Test(reduce, domain)
{
	emu_tdfg t;
	diag d;
	const char *text = MACHINE "region r 64x8\nx = input i32\ny = shift x, +3, +0\n"
				   "s = reduce.add.i32 y, 0\n";
	cr_assert_eq(emu_tdfg_parse("t.tdfg", text, strlen(text), NULL, NULL, &t, &d), 0, "%s",
		     d.msg);
	const emu_tnode *s = &t.nodes[2];
	cr_expect_eq(s->kind, EMU_TN_REDUCE);
	cr_expect_eq(s->dom.lo[0], 3);
	cr_expect_eq(s->dom.hi[0], 4);
	cr_expect_eq(s->dom.lo[1], 0);
	cr_expect_eq(s->dom.hi[1], 8);
	emu_tdfg_free(&t);
}

static void expect_error(const char *text, const char *msg)
{
	emu_tdfg t;
	emu_jit j;
	diag d;
	diag_clear(&d);
	int rc = emu_tdfg_parse("t.tdfg", text, strlen(text), NULL, NULL, &t, &d);
	if (rc == 0) {
		rc = emu_jit_lower(&t, &j, &d);
		if (rc == 0)
			emu_jit_free(&j);
	}
	emu_tdfg_free(&t);
	cr_assert_eq(rc, -1, "accepted: %s", text);
	cr_expect(strstr(d.msg, msg), "wanted '%s' in: %s", msg, d.msg);
}

Test(reduce, errors)
{
	expect_error("region r 64\nx = input f32\ns = reduce.sub.f32 x, 0\n",
		     "t.tdfg:3:12: error: expected add, mul, min, max, and, or or xor after "
		     "'reduce.', found 'sub.f32'");
	expect_error("region r 64\nx = input f32\ns = reduce.and.f32 x, 0\n",
		     "t.tdfg:3:16: error: 'and' does not take .f32 elements");
	expect_error("region r 64\nx = input f32\ns = reduce.add.i32 x, 0\n",
		     "t.tdfg:3:20: error: 'x' holds f32 elements; this operand must be i32");
	expect_error("region r 64\nx = input f32\ns = reduce.add.f32 x, 1\n",
		     "t.tdfg:3:23: error: dimension 1 is out of range; expected 0 to 0");
	expect_error("region r 64\nx = input f32\ns = reduce add.f32 x, 0\n",
		     "t.tdfg:3:12: error: expected '.' and a command after 'reduce'");
	expect_error("region r 64\nx__1 = input f32\n",
		     "t.tdfg:2:2: error: 'x__1': names with '__' are the JIT's");
}

/* Inputs hold data from the start: an input written after a temporary
 * must not get the temporary's wordlines (it would be overwritten before
 * it is read). */
Test(alloc, inputs_are_placed_first)
{
	emu_tdfg t;
	emu_jit j;
	diag d;
	const char *text = MACHINE "region r 64\na = input i32 init=iota\n"
				   "t = add.i32 a, a\nu = add.i32 t, t\n"
				   "b = input i32 init=random:1\nv = add.i32 u, b\noutput v\n";
	cr_assert_eq(emu_tdfg_parse("t.tdfg", text, strlen(text), NULL, NULL, &t, &d), 0, "%s",
		     d.msg);
	cr_assert_eq(emu_jit_lower(&t, &j, &d), 0, "%s", d.msg);
	const emu_tnode *b = &t.nodes[3], *tt = &t.nodes[1];
	cr_expect_str_eq(b->name, "b");
	cr_expect(b->wl + b->rows <= tt->wl || tt->wl + tt->rows <= b->wl,
		  "b at %u, t at %u", b->wl, tt->wl);
	emu_jit_free(&j);
	emu_tdfg_free(&t);
	run_all_nodes(text);
}

/* A dead value's wordlines are reused; a node never shares wordlines
 * with its own operands; outputs keep theirs. */
Test(alloc, reuse)
{
	emu_tdfg t;
	emu_jit j;
	diag d;
	const char *text = MACHINE "region r 64\na = input i32\nt = add.i32 a, a\n"
				   "u = add.i32 t, t\nv = add.i32 u, u\nw = add.i32 v, a\noutput w\n";
	cr_assert_eq(emu_tdfg_parse("t.tdfg", text, strlen(text), NULL, NULL, &t, &d), 0, "%s",
		     d.msg);
	cr_assert_eq(emu_jit_lower(&t, &j, &d), 0, "%s", d.msg);
	const emu_tnode *n = t.nodes;
	cr_expect_neq(n[2].wl, n[1].wl);     /* u reads t */
	cr_expect_eq(n[3].wl, n[1].wl);      /* v takes t's dead wordlines */
	cr_expect_neq(n[4].wl, n[3].wl);
	cr_expect_neq(n[4].wl, n[0].wl);
	cr_expect(strstr(j.text, "tensor v i32 64 wl=32 array=0 tile=64 shared"), "%s", j.text);
	emu_jit_free(&j);
	emu_tdfg_free(&t);
}
