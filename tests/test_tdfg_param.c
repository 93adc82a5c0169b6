/* SPDX-License-Identifier: MIT */
/*
 * test_tdfg_param.c: size parameters of the tDFG text form (`param N =
 * 64`, expressions in sizes, boxes, shifts and loops, and -D NAME=VALUE;
 * doc/TDFG.md, "Size parameters").
 *
 *   same      a program written with parameters lowers to exactly the
 *             stream of the one written with the numbers they stand for,
 *             at the default and at a -D value (the JIT's text compared
 *             byte for byte, so every size, box and loop took its value);
 *   bad       every error at its FILE:LINE:COL: unknown parameter,
 *             redefinition, overflow, division by zero, a size below 1,
 *             non-linear use of a region parameter; -D for a name the
 *             program does not declare, -D twice;
 *   cli       infsim run/jit -D: a sample at another size runs and
 *             matches, and the usage errors (not an integer, unknown
 *             name, a stream given -D).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "program.h"
#include "tdfg.h"

#define RUN_TMP_PREFIX "infsim-param"
#include "infsim_run.h"

#define MACHINE "machine wordlines=512 bitlines=64 arrays=4 ways=2 mesh=2x2\n"

typedef struct tg {
	emu_tdfg t;
	emu_jit j;
} tg;

static int tg_try(tg *g, const char *text, const emu_tdfg_def *defs, size_t ndefs, diag *d)
{
	const sram_geom def = sram_geom_default();
	diag_clear(d);
	memset(&g->j, 0, sizeof g->j);
	emu_program_init(&g->j.prog);
	if (emu_tdfg_parse_defs("t.tdfg", text, strlen(text), &def, NULL, defs, ndefs, &g->t, d))
		return -1;
	return emu_jit_lower(&g->t, &g->j, d);
}

static void tg_free(tg *g)
{
	emu_tdfg_free(&g->t);
	emu_jit_free(&g->j);
}

/* text without its comment lines (they quote the source, whose line
 * numbers differ by the param lines), in a new string. */
static char *code_of(const char *text)
{
	char *out = malloc(strlen(text) + 1), *o = out;
	cr_assert_not_null(out);
	for (const char *l = text; *l;) {
		const char *nl = strchr(l, '\n');
		const size_t n = nl ? (size_t)(nl - l) + 1 : strlen(l);
		if (*l != '#') {
			memcpy(o, l, n);
			o += n;
		}
		l += n;
	}
	*o = 0;
	return out;
}

/* The lowered streams' commands must be the same for both programs. */
static void expect_same(const char *with, const emu_tdfg_def *defs, size_t ndefs,
			const char *plain)
{
	tg a, b;
	diag d;
	cr_assert_eq(tg_try(&a, with, defs, ndefs, &d), 0, "%s\n%s", d.msg, with);
	cr_assert_eq(tg_try(&b, plain, NULL, 0, &d), 0, "%s\n%s", d.msg, plain);
	char *ca = code_of(a.j.text), *cb = code_of(b.j.text);
	cr_expect(strlen(ca) > 100, "%s", ca);
	cr_expect_str_eq(ca, cb, "parameters:\n%s\nnumbers:\n%s", with, plain);
	free(ca);
	free(cb);
	tg_free(&a);
	tg_free(&b);
}

/* gauss_elim's shape: sizes, boxes with the region's parameter, a loop
 * bound and the shrink, all from N. */
#define GAUSS(DECL, SZ, HI, LOOP)                                              \
	DECL MACHINE "array A f32 " SZ " init=iota\n"                         \
	"region elim " SZ " param=k\n"                                        \
	"piv = tensor A box=k:k+1,k:k+1\n"                                    \
	"col = tensor A box=k:k+1,k+1:" HI "\n"                               \
	"pv = bcast piv, 1\n"                                                 \
	"m = div.f32 col, pv\n"                                               \
	"store A, m box=k:k+1,k+1:" HI "\n"                                   \
	"for k = 0, " LOOP "\n  run elim\n  shrink elim, +1, +1\nend\n"

Test(same, gauss_elim_default_and_defined)
{
	expect_same(GAUSS("param N = 16\n", "NxN", "N", "N-1"), NULL, 0,
		    GAUSS("", "16x16", "16", "15"));
	const emu_tdfg_def d32[] = {{"N", 32}};
	expect_same(GAUSS("param N = 16\n", "NxN", "N", "N-1"), d32, 1,
		    GAUSS("", "32x32", "32", "31"));
	/* Expressions and a parameter from another. */
	expect_same(GAUSS("param M = 4\nparam N = (M * 8) / 2 \n", "(N)x(2*M+8)", "(N+0)",
			  "N - 1"), NULL, 0, GAUSS("", "16x16", "16", "15"));
}

/* Shifts, repeat counts and the NxM rule of sizes. */
#define STENCIL(DECL, SZ, OFF, REP)                                            \
	DECL MACHINE "array A i32 " SZ " init=iota\narray B i32 " SZ " init=zero\n" \
	"region step " SZ "\nx = tensor A\nl = shift x, " OFF ", +0\n"         \
	"s = add.i32 x, l\nstore B, s\nrepeat " REP "\n  run step\n  swap A, B\nend\n"

Test(same, shifts_repeats_and_sizes)
{
	expect_same(STENCIL("param W = 64\nparam H = 8\nparam D = 2\n", "WxH", "D - 3", "D*2+1"),
		    NULL, 0, STENCIL("", "64x8", "-1", "5"));
	expect_same(STENCIL("param W = 64\nparam H = 8\n", "Wx8", "-(W/64)", "H"), NULL, 0,
		    STENCIL("", "64x8", "-1", "8"));
	expect_same(STENCIL("param W = 64\nparam H = 8\n", "64xH", "+1", "1"), NULL, 0,
		    STENCIL("", "64x8", "+1", "1"));
	/* A parameter whose name holds an 'x' is read whole. */
	expect_same(STENCIL("param Nx = 64\nparam H = 8\n", "NxxH", "+1", "1"), NULL, 0,
		    STENCIL("", "64x8", "+1", "1"));
	const emu_tdfg_def defs[] = {{"H", 4}, {"W", 128}};
	expect_same(STENCIL("param W = 64\nparam H = 8\n", "WxH", "+1", "H"), defs, 2,
		    STENCIL("", "128x4", "+1", "4"));
}

static void expect_bad(const char *text, const emu_tdfg_def *defs, size_t ndefs,
		       const char *where, const char *what)
{
	tg g;
	diag d;
	char want[64];
	cr_assert_neq(tg_try(&g, text, defs, ndefs, &d), 0, "accepted:\n%s", text);
	snprintf(want, sizeof want, "t.tdfg%s%s: error: ", *where ? ":" : "", where);
	cr_expect(strncmp(d.msg, want, strlen(want)) == 0, "expected at %s (%s), got: %s\n%s",
		  want, what, d.msg, text);
	cr_expect(strstr(d.msg, what), "expected \"%s\", got: %s\n%s", what, d.msg, text);
	cr_expect_null(strchr(d.msg, '\n'), "not one line: %s", d.msg);
	tg_free(&g);
}

#define P "param N = 16\n"
#define TAIL "a = input i8\n"

Test(bad, declarations)
{
	expect_bad(P "param N = 4\nregion r N\n" TAIL, NULL, 0, "2:7",
		   "parameter 'N' is declared twice (first at line 1)");
	expect_bad("param N 16\nregion r N\n" TAIL, NULL, 0, "1:9",
		   "expected '=' and the parameter's value, found '16'");
	expect_bad("param N =\nregion r 4\n" TAIL, NULL, 0, "1:10",
		   "expected the parameter's value (a number, or a parameter such as k+1");
	expect_bad("param N = 4 5\nregion r 4\n" TAIL, NULL, 0, "1:13",
		   "expected the end of the param line, found '5'");
	expect_bad("param region = 4\nregion r 4\n" TAIL, NULL, 0, "1:7",
		   "'region' is a reserved word");
	expect_bad("param N = M\nregion r 4\n" TAIL, NULL, 0, "1:11",
		   "unknown parameter 'M' in the parameter's value; declare it first");
	expect_bad("region r 4 param=k\n" TAIL "param k = 2\n", NULL, 0, "3:7",
		   "'k' is a parameter of region 'r' (param=)");
	expect_bad(P "region r 4 param=N\n" TAIL, NULL, 0, "2:18",
		   "'N' is a program parameter (line 1)");
	expect_bad(P "region r 4 param=k\n" TAIL "for N = 0, 2\n  run r\nend\n", NULL, 0, "4:5",
		   "'N' is a program parameter (line 1)");
}

Test(bad, arithmetic)
{
	expect_bad(P "region r (N/0)\n" TAIL, NULL, 0, "2:12", "division by zero");
	expect_bad("param N = 9223372036854775807 + 1\nregion r 4\n" TAIL, NULL, 0, "1:31",
		   "the sum overflows 64 bits");
	expect_bad("param N = 4294967296 * 4294967296\nregion r 4\n" TAIL, NULL, 0, "1:22",
		   "the product overflows 64 bits");
	expect_bad("param N = 99999999999999999999\nregion r 4\n" TAIL, NULL, 0, "1:11",
		   "99999999999999999999 is out of range");
	expect_bad("param N = (1\nregion r 4\n" TAIL, NULL, 0, "1:13",
		   "expected ')' closing the '(' at column 11");
	expect_bad(P "region r N-16\n" TAIL, NULL, 0, "2:11",
		   "expected 'x' and a size, or the end of the region's sizes, found '-16'");
	expect_bad(P "region r (N-16)\n" TAIL, NULL, 0, "2:10",
		   "the region's sizes: size (N-16) is 0; expected 1 to 4294967295");
	expect_bad(P "region r 4x(-N)\n" TAIL, NULL, 0, "2:12", "size (-N) is -16");
	expect_bad(P "region r (N*N*N*N*N*N*N*N)\n" TAIL, NULL, 0, "2:10",
		   "is 4294967296; expected 1 to 4294967295");
	expect_bad(P "region r NxM\n" TAIL, NULL, 0, "2:12", "unknown parameter 'M' in the "
		   "region's sizes");
	expect_bad(P "region r 4\n" "a = input i8 box=0:N\n", NULL, 0, "3:20",
		   "box end 16 is out of range; expected 1 to 4");
	expect_bad(P "region r 64 param=k\n" "a = input i8 box=k*k:N\n", NULL, 0, "3:19",
		   "a product of two region parameters is not linear");
	expect_bad(P "region r 64 param=k\n" "a = input i8 box=k/2:N\n", NULL, 0, "3:19",
		   "only constants can be divided");
	expect_bad(P "region r 64 param=k\n" "a = input i8 box=200*k:N\n", NULL, 0, "3:18",
		   "parameter 'k' is multiplied by 200");
	expect_bad(P "region r 64\n" TAIL "repeat N - 16\n  run r\nend\n", NULL, 0, "4:8",
		   "repeat count 0 is out of range; expected 1 to 1000000");
	expect_bad(P "region r 64\n" TAIL "b = shift a, +Q\n", NULL, 0, "4:15",
		   "unknown parameter 'Q' in an offset");
}

Test(bad, defines)
{
	const emu_tdfg_def m[] = {{"M", 4}};
	expect_bad(P "region r N\n" TAIL, m, 1, "",
		   "-D M: the program declares no parameter 'M' (it declares N)");
	expect_bad("region r 4\n" TAIL, m, 1, "", "(it declares none)");
	const emu_tdfg_def twice[] = {{"N", 4}, {"N", 8}};
	expect_bad(P "region r N\n" TAIL, twice, 2, "", "-D N is given twice");
	const emu_tdfg_def neg[] = {{"N", -4}};
	expect_bad(P "region r N\n" TAIL, neg, 1, "2:10", "size N is -4; expected 1 to");
	const emu_tdfg_def zero[] = {{"N", 0}};
	expect_bad(P "region r 4\n" TAIL "repeat 4/N\n run r\nend\n", zero, 1, "4:9",
		   "division by zero");
}

#define SAMPLE SRCDIR "/samples/workloads/mm_outer_i32.tdfg"

TestSuite(cli, .init = make_tmpdir, .fini = remove_tmpdir);

Test(cli, run_and_jit_with_defines)
{
	result r = run("run %s -D N=32 --check -q", SAMPLE);
	cr_expect_eq(r.status, 0, "%s", r.err);
	result_free(&r);
	r = run("jit %s --define=N=32", SAMPLE);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "region mm 32x32"), "%s", r.out);
	result_free(&r);
	r = run("run %s -D N=abc", SAMPLE);
	cr_expect_eq(r.status, 2);
	cr_expect(strstr(r.err, "-D N=abc: expected an integer"), "%s", r.err);
	result_free(&r);
	r = run("run %s -D K=4", SAMPLE);
	cr_expect_eq(r.status, 1);
	cr_expect(strstr(r.err, "mm_outer_i32.tdfg: error: -D K: the program declares no "
			 "parameter 'K' (it declares N)"), "%s", r.err);
	result_free(&r);
	r = run("run %s -D N=4 -D N=8", SAMPLE);
	cr_expect_eq(r.status, 2);
	cr_expect(strstr(r.err, "-D N is given twice"), "%s", r.err);
	result_free(&r);
	r = run("run %s -D N=0", SAMPLE);
	cr_expect_eq(r.status, 1);
	cr_expect(strstr(r.err, "size N is 0; expected 1 to 4294967295"), "%s", r.err);
	result_free(&r);
	r = run("run %s/samples/vadd_i32.ins -D N=4", SRCDIR);
	cr_expect_eq(r.status, 2);
	cr_expect(strstr(r.err, "-D N: parameters are a tDFG's (.tdfg)"), "%s", r.err);
	result_free(&r);
	r = run("info -D N=4");
	cr_expect_eq(r.status, 2);
	cr_expect(strstr(r.err, "-D N: parameters are a tDFG's"), "%s", r.err);
	result_free(&r);
	r = run("info %s -D N=32", SAMPLE);
	cr_expect_eq(r.status, 0, "%s", r.err);
	result_free(&r);
	r = run("commands -D N=4");
	cr_expect_eq(r.status, 2);
	result_free(&r);
}
