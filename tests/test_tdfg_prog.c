/* SPDX-License-Identifier: MIT */
/*
 * test_tdfg_prog.c: whole tDFG programs (doc/TDFG.md, "Programs"):
 * arrays, tensor and store nodes, run/repeat/for/swap/shrink, the
 * memoised lowering, and the fixes to the language's edges.
 *
 * Each sample of samples/tdfg/ that is a program runs with --check
 * (every node of every run against the tDFG's reference) and saves its
 * result; a kernel in plain C below, written from the algorithm and not
 * from the tDFG, computes the same result in the same floating-point
 * order, and the two must agree bit for bit.
 */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proc.h"
#include "stats_json.h"
#include "machine.h"
#include "tdfg.h"

#define RUN_TMP_PREFIX "infsim-tdfgprog"
#include "infsim_run.h"

#define SAMPLE(f) SRCDIR "/samples/tdfg/" f

/* ---- reading .npy files of f32 (the kernels' input, infsim's output) ---- */

/* n little-endian f32 from a version-1 .npy file at path. */
static void read_f32_npy(const char *path, float *v, size_t n)
{
	FILE *f = fopen(path, "rb");
	unsigned char head[10];
	cr_assert_not_null(f, "%s: cannot open", path);
	cr_assert_eq(fread(head, 1, 10, f), 10);
	cr_assert_eq(memcmp(head, "\x93NUMPY\x01", 7), 0, "%s: not a .npy", path);
	const unsigned hlen = head[8] | (unsigned)head[9] << 8;
	char *h = malloc(hlen + 1);
	cr_assert_eq(fread(h, 1, hlen, f), hlen);
	h[hlen] = 0;
	cr_assert(strstr(h, "'<f4'"), "%s: %s", path, h);
	free(h);
	for (size_t i = 0; i < n; i++) {
		unsigned char b[4];
		cr_assert_eq(fread(b, 1, 4, f), 4, "%s: short", path);
		const uint32_t bits = b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
				      (uint32_t)b[3] << 24;
		memcpy(&v[i], &bits, 4);
	}
	fclose(f);
}

/* Run a sample with --check, saving ARRAY; its elements into got. */
static void run_sample(const char *file, const char *array, float *got, size_t n,
		       const char *summary)
{
	result r = run("run '%s' --check -s %s=out.npy", file, array);
	cr_assert_eq(r.status, 0, "%s: exit %d: %s", file, r.status, r.err);
	cr_assert(strstr(r.out, "every tDFG node"), "%s", r.out);
	cr_assert(strstr(r.out, summary), "wanted '%s' in: %s", summary, r.out);
	result_free(&r);
	char path[512];
	snprintf(path, sizeof path, "%s/out.npy", tmpdir);
	read_f32_npy(path, got, n);
}

static void same_bits(const float *want, const float *got, size_t n, const char *what)
{
	for (size_t i = 0; i < n; i++) {
		uint32_t a, b;
		memcpy(&a, &want[i], 4);
		memcpy(&b, &got[i], 4);
		cr_assert_eq(a, b, "%s: element %zu: C gives %a (0x%08" PRIx32 "), infsim %a "
			     "(0x%08" PRIx32 ")", what, i, (double)want[i], a, (double)got[i], b);
	}
}

/* Each operation rounded on its own, as the commands do (no fused
 * multiply-add): every intermediate goes through a float variable. */
static float add(float a, float b)
{
	volatile float r = a + b;
	return r;
}

static float sub(float a, float b)
{
	volatile float r = a - b;
	return r;
}

static float mul(float a, float b)
{
	volatile float r = a * b;
	return r;
}

static float divf_(float a, float b)
{
	volatile float r = a / b;
	return r;
}

TestSuite(samples, .init = make_tmpdir, .fini = remove_tmpdir);

Test(samples, stencil1d)
{
	enum { N = 256 };
	float a[N], b[N], got[N];
	float *x = a, *y = b;
	for (int i = 0; i < N; i++) {
		a[i] = (float)i;
		b[i] = 0;
	}
	for (int it = 0; it < 10; it++) {
		for (int i = 1; i < N - 1; i++)
			y[i] = add(add(x[i], x[i - 1]), x[i + 1]);
		float *t = x;
		x = y;
		y = t;
	}
	run_sample(SAMPLE("stencil1d.tdfg"), "A", got, N, "10 region runs, 2 lowered, 8 reused");
	same_bits(x, got, N, "stencil1d");
}

Test(samples, stencil2d)
{
	enum { W = 64, H = 32 };
	static float a[H][W], b[H][W], got[H][W];
	float (*x)[W] = a, (*y)[W] = b;
	for (int i = 0; i < H; i++)
		for (int j = 0; j < W; j++) {
			a[i][j] = (float)(i * W + j);
			b[i][j] = 0;
		}
	for (int it = 0; it < 10; it++) {
		for (int i = 1; i < H - 1; i++)
			for (int j = 1; j < W - 1; j++)
				y[i][j] = add(add(add(add(x[i][j], x[i][j - 1]), x[i][j + 1]),
						  x[i - 1][j]), x[i + 1][j]);
		float (*t)[W] = x;
		x = y;
		y = t;
	}
	run_sample(SAMPLE("stencil2d.tdfg"), "A", &got[0][0], W * H,
		   "10 region runs, 2 lowered, 8 reused");
	same_bits(&x[0][0], &got[0][0], W * H, "stencil2d");
}

Test(samples, gauss_elim)
{
	enum { N = 16 };
	float a[N][N], got[N][N];
	read_f32_npy(SAMPLE("gauss_elim_A.npy"), &a[0][0], N * N);
	for (int k = 0; k < N - 1; k++)
		for (int i = k + 1; i < N; i++) {
			const float m = divf_(a[i][k], a[k][k]);
			for (int j = k + 1; j < N; j++)
				a[i][j] = sub(a[i][j], mul(m, a[k][j]));
		}
	run_sample(SAMPLE("gauss_elim.tdfg"), "A", &got[0][0], N * N,
		   "15 region runs, 15 lowered, 0 reused");
	same_bits(&a[0][0], &got[0][0], N * N, "gauss_elim");
}

Test(samples, mm_outer)
{
	enum { N = 16 };
	float a[N][N], b[N][N], c[N][N], got[N][N];
	read_f32_npy(SAMPLE("mm_outer_A.npy"), &a[0][0], N * N);
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			b[i][j] = (float)(i * N + j);
			c[i][j] = 0;
		}
	for (int k = 0; k < N; k++)
		for (int i = 0; i < N; i++)
			for (int j = 0; j < N; j++)
				c[i][j] = add(c[i][j], mul(a[i][k], b[k][j]));
	run_sample(SAMPLE("mm_outer.tdfg"), "C", &got[0][0], N * N,
		   "16 region runs, 16 lowered, 0 reused");
	same_bits(&c[0][0], &got[0][0], N * N, "mm_outer");
}

/* The loops show in the lowered stream as comments; the memo's reuse too. */
Test(samples, jit_shows_the_loops)
{
	result r = run("jit '%s'", SAMPLE("stencil1d.tdfg"));
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "# repeat 10 (line 20): iteration 1\n# region step 256 tile=64\n"
			 "# lowering 1\n"), "%s", r.out);
	cr_assert(strstr(r.out, "# swap A, B (line 22)\n# repeat 10 (line 20): iteration 2\n"),
		  "%s", r.out);
	cr_assert(strstr(r.out, "# repeat 10 (line 20): iteration 3\n# region step 256 tile=64\n"
			 "# the commands of the run at lowering 1, reused\n"), "%s", r.out);
	cr_assert(strstr(r.out, "copy.f32 A, s @"), "%s", r.out);
	result_free(&r);
	r = run("jit '%s'", SAMPLE("gauss_elim.tdfg"));
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "# for k = 0, 15 (line 30): k = 2\n# region elim 16x16 "
			 "tile=64x1 k=2 window=2:16,2:16\n"), "%s", r.out);
	cr_assert(strstr(r.out, "# shrink elim (line 32): its window is now 3:16,3:16\n"),
		  "%s", r.out);
	result_free(&r);
}

Test(samples, stats_report_the_memo)
{
	result r = run("run '%s' --stats=json", SAMPLE("stencil1d.tdfg"));
	cr_assert_eq(r.status, 0, "%s", r.err);
	json_object *d = stats_parse(r.out);
	cr_expect_eq(stats_num(d, "jit.region_runs"), 10);
	cr_expect_eq(stats_num(d, "jit.lowered"), 2);
	cr_expect_eq(stats_num(d, "jit.reused"), 8);
	cr_expect_str_eq(json_object_get_string(stats_at(d, "jit.lowerings.0.region")), "step");
	cr_expect_eq(stats_num(d, "jit.lowerings.0.line"), 13);
	cr_expect_eq(stats_num(d, "jit.lowerings.1.lowering"), 2);
	json_object_put(d);
	result_free(&r);
	r = run("run '%s' --stats", SAMPLE("mm_outer.tdfg"));
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "JIT:\n  region runs               16    lowered                   16"
			 "    reused                     0\n"), "%s", r.out);
	cr_assert(strstr(r.out, "k = 15"), "%s", r.out);
	result_free(&r);
}

/* The stream infsim jit writes runs on its own to the same result. */
Test(samples, lowered_stream_runs_alone)
{
	result r = run("jit '%s' -o low.ins", SAMPLE("stencil2d.tdfg"));
	cr_assert_eq(r.status, 0, "%s", r.err);
	result_free(&r);
	r = run("run low.ins --check -s A=ins.npy");
	cr_assert_eq(r.status, 0, "%s", r.err);
	result_free(&r);
	r = run("run '%s' -s A=tdfg.npy", SAMPLE("stencil2d.tdfg"));
	cr_assert_eq(r.status, 0, "%s", r.err);
	result_free(&r);
	static float x[32 * 64], y[32 * 64];
	char p1[512], p2[512];
	snprintf(p1, sizeof p1, "%s/ins.npy", tmpdir);
	snprintf(p2, sizeof p2, "%s/tdfg.npy", tmpdir);
	read_f32_npy(p1, x, 32 * 64);
	read_f32_npy(p2, y, 32 * 64);
	same_bits(x, y, 32 * 64, "stream and tDFG");
}

/* ---- the parser: every new construct's mistakes, located ---- */

typedef struct bad_case {
	const char *text, *where, *what;
} bad_case;

static void expect_bad(const char *text, const char *where, const char *what)
{
	emu_tdfg t;
	diag d;
	diag_clear(&d);
	const sram_geom g = sram_geom_default();
	int rc = emu_tdfg_parse("p.tdfg", text, strlen(text), &g, NULL, &t, &d);
	if (rc == 0) {
		emu_jit j;
		rc = emu_jit_lower(&t, &j, &d);
		if (rc == 0)
			emu_jit_free(&j);
	}
	cr_expect_eq(rc, -1, "accepted:\n%s", text);
	char at[64];
	snprintf(at, sizeof at, "p.tdfg:%s%s", where, *where ? ": error: " : "");
	cr_expect(strncmp(d.msg, at, strlen(at)) == 0, "wanted at %s, got %s\n%s", at, d.msg, text);
	cr_expect(strstr(d.msg, what), "wanted '%s', got %s\n%s", what, d.msg, text);
	emu_tdfg_free(&t);
}

#define M "machine wordlines=512 bitlines=64 arrays=4 ways=2 mesh=2x2\n"
#define AR M "array A f32 64 init=iota\narray B f32 64\n"
#define RG AR "region r 64\n"
#define RK AR "region r 64 param=k\n"

static const bad_case bad_cases[] = {
	/* array */
	{M "array\n", "2:6", "expected an array name after 'array', found the end of the line"},
	{M "array A\n", "2:8", "expected an element type"},
	{M "array A f32\n", "2:12", "expected the array's sizes as numbers joined by 'x'"},
	{M "array A f32 64x0\n", "2:16", "the array's sizes: size 0 is out of range"},
	{M "array A f32 64 zero\n", "2:16", "expected init=KIND, load=FILE or the end of the "
	 "array line, found 'zero'"},
	{M "array A f32 64 init=iota x\n", "2:26", "expected the end of the array line"},
	{M "array A f32 64 load=\n", "2:21", "expected a file name after load="},
	{AR "array A f32 64\n", "4:7", "'A' is defined twice (first at line 2)"},
	{M "array tag f32 64\n", "2:7", "'tag' is a reserved word; choose another array name"},
	{M "array a__b f32 64\n", "2:8", "names with '__' are the JIT's"},
	{RG "A = const f32 1.0\n", "5:1", "'A' is an array; arrays and nodes share one name space"},
	{RG "x = const f32 1.0\narray x f32 64\nrun r\n", "6:7", "'x' is defined twice (first at "
	 "line 5)"},
	{M "array A f32 64 init=bogus\nregion r 64\nx = tensor A\nstore A, x\n", "2:16",
	 "unknown init"},
	/* tensor and store */
	{RG "x = tensor\n", "5:11", "expected an array name, found the end of the line"},
	{RG "x = tensor C\n", "5:12", "unknown array 'C'; declare it above"},
	{AR "region r 32\nx = tensor A\n", "5:12", "array 'A' is 64x1x1 but region 'r' is 32x1x1"},
	{RG "x = tensor A box=0:65\n", "5:20", "box end 65 is out of range; expected 1 to 64"},
	{RG "x = tensor A size=3\n", "5:14", "expected box=LO:HI,... or the end of the tensor node"},
	{RG "x = tensor A\nstore\n", "6:6", "expected an array name, found the end of the line"},
	{RG "x = tensor A\nstore B\n", "6:8", "expected ',' and the node to store"},
	{RG "x = tensor A\nstore B, y\n", "6:10", "unknown node 'y'"},
	{RG "x = const i8 1\nstore B, x\n", "6:10", "'x' holds i8 elements; array 'B' holds f32"},
	{RG "x = tensor A\nstore B, x box=0:65\n", "6:18", "box end 65 is out of range"},
	{RG "x = tensor A\nstore B, x, x\n", "6:11", "expected box=LO:HI,... or the end of the store"},
	{"store A, x\n", "1:1", "'store' belongs to a region"},
	{RG "x = tensor A\nstore A, x\ny = add.f32 x, x\n", "7:13", "'x' is a tensor of array 'A', "
	 "which the store at line 6 has written since"},
	{RG "x = tensor A box=4:8\ny = shift x, +1\nstore B, y box=0:8\n", "7:1",
	 "the store's box is not inside the domain of 'y' along dimension 0"},
	/* param= and expressions */
	{AR "region r 64 param=\n", "4:19", "expected a parameter name after param="},
	{AR "region r 64 param=k,k\n", "4:21", "parameter 'k' is given twice"},
	{AR "region r 64 param=a,b,c,d,e\n", "4:27", "too many parameters; a region has at most 4"},
	{RK "x = tensor A box=j:j+1\n", "5:18", "unknown parameter 'j' in box start; region 'r' has "
	 "param=k"},
	{RG "x = tensor A box=k:64\n", "5:18", "region 'r' has no parameters (param=NAME)"},
	{RK "x = tensor A box=k+:64\n", "5:20", "expected box start (a number, or a parameter such "
	 "as k+1 or N/2), found ':64'"},
	{RK "x = tensor A\ny = shift x, k^2\n", "6:15", "unexpected text after the shift node"},
	{RK "x = tensor A\ny = shift x, k, 1\n", "6:15", "too many offsets: region 'r' has 1 dimension"},
	/* control */
	{RG "x = tensor A\nrun\n", "6:4", "expected a region name, found the end of the line"},
	{RG "x = tensor A\nrun q\n", "6:5", "unknown region 'q'; a region is defined above its runs"},
	{RG "x = tensor A\nrun r now\n", "6:7", "unexpected 'now' after 'run'"},
	{RK "x = tensor A box=k:k+1\nrun r\n", "6:1", "region 'r' takes parameter 'k'; run it "
	 "inside 'for k = LO, HI'"},
	{RG "x = tensor A\nrun r\ny = tensor A\n", "7:1", "node 'y' follows a control statement; a "
	 "region's nodes come right after its 'region' line"},
	{RG "x = tensor A\nrepeat\n", "6:7", "expected repeat count (a number, or a parameter such as k+1 or N/2), found the end of the line"},
	{RG "x = tensor A\nrepeat 0\n", "6:8", "repeat count 0 is out of range; expected 1 to "
	 "1000000"},
	{RG "x = tensor A\nrepeat 2\nrun r\n", "6:1", "this 'repeat' has no 'end'"},
	{RG "x = tensor A\nend\n", "6:1", "'end' without an open 'repeat' or 'for'"},
	{RG "x = tensor A\nfor\n", "6:4", "expected a variable name after 'for'"},
	{RG "x = tensor A\nfor k 0, 4\n", "6:7", "expected '=' after the loop variable"},
	{RG "x = tensor A\nfor k = 0 4\n", "6:11", "expected ',' and the loop's end (exclusive)"},
	{RG "x = tensor A\nfor k = 4, 4\n", "6:12", "loop end 4 is out of range; expected 5 to"},
	{RG "x = tensor A\nfor k = 0, 2\nfor k = 0, 2\n", "7:5", "'k' is already the variable of "
	 "an enclosing loop"},
	{RG "x = tensor A\nfor k = 0, 2\nrun r\n", "6:1", "this 'for' has no 'end'"},
	{RG "x = tensor A\nswap A\n", "6:7", "expected ',' and the second array"},
	{RG "x = tensor A\nswap A, A\n", "6:9", "swap of 'A' with itself"},
	{RG "x = tensor A\nswap A, Z\n", "6:9", "unknown array 'Z'"},
	{RG "x = tensor A\narray I i32 64\nswap A, I\n", "7:9", "swap needs arrays of one type and "
	 "sizes; 'A' and 'I' differ"},
	{RG "x = tensor A\nshrink r\n", "6:9", "expected ', STEP' for each dimension after the region"},
	{RG "x = tensor A\nshrink r, 1, 1\n", "6:12", "too many steps: region 'r' has 1 dimension"},
	{RG "x = tensor A\nshrink r, x\n", "6:11", "unknown parameter 'x' in shrink step; declare it first with 'param x = VALUE'"},
	{RG "x = tensor A\nstore B, x\nrepeat 64\nshrink r, 1\nend\n", "8:1",
	 "shrink leaves region 'r' nothing along dimension 0 (its window was [63, 64))"},
	/* a run whose parameter makes a box empty or leaves the lattice */
	{RK "x = tensor A box=k:k+1\ny = shift x, +1\nstore B, y\nfor k = 60, 64\nrun r\nend\n",
	 "6:5", "the shift moves every element of 'x' out of region 'r' along dimension 0 (with "
	 "k = 63)"},
	{RK "x = tensor A box=k:k+2\nstore B, x\nfor k = 0, 64\nrun r\nend\n", "5:5",
	 "the box [63, 65) along dimension 0 is empty or outside region 'r' ([0, 64)) (with k = 63)"},
	{RG "x = tensor A\nstore B, x\n" "region q 64 tile=16\ny = tensor A\nstore B, y\nrun r\nrun q\n",
	 "7:8", "region 'q' uses array 'A', which an earlier region laid out with tile 64x1x1"},
};

TestSuite(parse);

Test(parse, new_constructs_have_located_messages)
{
	for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++)
		if (*bad_cases[i].where)
			expect_bad(bad_cases[i].text, bad_cases[i].where, bad_cases[i].what);
}

/* A file without control statements runs each region once, as before;
 * one with only regions that take parameters runs nothing and says so. */
Test(parse, without_control)
{
	expect_bad(RK "x = tensor A box=k:k+1\nstore B, x\n", "", "the program runs no region; "
		   "expected 'run NAME'");
	/* The expansion is bounded. */
	expect_bad(RG "x = tensor A\nstore B, x\nrepeat 1000\nrepeat 1000\nrun r\nend\nend\n", "",
		   "the program runs its regions more than 100000 times");
	emu_tdfg t;
	diag d;
	diag_clear(&d);
	const sram_geom g = sram_geom_default();
	const char text[] = RG "x = tensor A\ny = add.f32 x, x\nstore B, y\n";
	cr_assert_eq(emu_tdfg_parse("p.tdfg", text, strlen(text), &g, NULL, &t, &d), 0, "%s", d.msg);
	cr_assert_eq(t.nregions, 1);
	cr_assert_eq(t.nnodes, 3);
	cr_assert(t.program);
	emu_tdfg_free(&t);
}

/* An array's load= file that cannot be read: infsim run says so. */
TestSuite(load, .init = make_tmpdir, .fini = remove_tmpdir);

Test(load, missing_file)
{
	char path[512];
	snprintf(path, sizeof path, "%s/l.tdfg", tmpdir);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs(M "array A f32 64 load=nothere.npy\narray B f32 64\nregion r 64\nx = tensor A\n"
	      "store B, x\n", f);
	fclose(f);
	result r = run("run l.tdfg --check");
	cr_assert_eq(r.status, 1, "%s", r.err);
	cr_assert(strstr(r.err, "nothere.npy"), "%s", r.err);
	result_free(&r);
}

/* ---- fixes to the language's edges ---- */

TestSuite(fixes, .init = make_tmpdir, .fini = remove_tmpdir);

static void write_file(const char *name, const char *text)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs(text, f);
	fclose(f);
}

/* Names of 61 to 63 characters lower and run: the JIT's temporaries
 * (__N_K) neither collide with them nor grow from them. */
Test(fixes, long_names_lower)
{
	char text[1024], a[64], b[64];
	memset(a, 'a', 63);
	a[63] = 0;
	memset(b, 'b', 61);
	b[61] = 0;
	snprintf(text, sizeof text, M "region r 64\n%s = input i32 init=iota\n%s = reduce.add.i32 %s, 0\n"
		 "%.62s = add.i32 %s, %s\noutput %.62s\n", a, b, a, a, b, b, a);
	write_file("long.tdfg", text);
	result r = run("run long.tdfg --check");
	cr_assert_eq(r.status, 0, "%s", r.err);
	result_free(&r);
	r = run("jit long.tdfg");
	cr_assert(strstr(r.out, "tensor __1_1 i32 64 "), "%s", r.out);
	cr_assert(strstr(r.out, "tensor __1_2 i32 64 "), "%s", r.out);
	result_free(&r);
}

/* A reduce in a region with parameters, lowered again for another k:
 * its commands name the temporaries declared for the node as written
 * (they were named after the later run's node, never declared). */
Test(fixes, reduce_lowered_again)
{
	write_file("pr.tdfg", "machine wordlines=64 bitlines=16 arrays=4 ways=1 mesh=1x1\n"
		   "array X i8 64 init=iota\narray S i8 64 init=zero\nregion r 64 param=k\n"
		   "x = tensor X box=k:64\ns = reduce.add.i8 x, 0\nstore S, s\n"
		   "for k = 0, 2\n  run r\nend\n");
	result r = run("run pr.tdfg --check");
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "2 region runs, 2 lowered, 0 reused"), "%s", r.out);
	result_free(&r);
}

/* When a reduce's own rows fit but its two temporaries do not, the
 * message says so, instead of blaming the node's own 32 rows. */
Test(fixes, reduce_temporaries_named)
{
	expect_bad("machine wordlines=128 bitlines=64 arrays=4 ways=2 mesh=2x2\nregion r 64\n"
		   "a = input i32 init=iota\nr = reduce.add.i32 a, 0\noutput r\n", "4:5",
		   "no room for the temporaries of reduce 'r' (2 x 32 wordlines, beside its own 32): "
		   "temporary 2 of 2 does not fit; the values live here hold wordlines a 0..31, r "
		   "32..63");
}

/* No valid tile: each failing rule once (not once per node), and the
 * message is never cut in the middle of a word. */
Test(fixes, no_tile_message_once_and_whole)
{
	char text[8192];
	size_t n = (size_t)snprintf(text, sizeof text, M "region r 64x64\nx0 = input i8\n"
				    "y0 = input i16\nz0 = input i32\n");
	for (int i = 1; i < 40; i++)
		n += (size_t)snprintf(text + n, sizeof text - n, "x%d = add.i8 x%d, x%d\ny%d = add.i16 "
				      "y%d, y%d\nz%d = add.i32 z%d, z%d\n", i, i - 1, i - 1, i, i - 1,
				      i - 1, i, i - 1, i - 1);
	emu_tdfg t;
	emu_jit j;
	diag d;
	diag_clear(&d);
	const sram_geom g = sram_geom_default();
	cr_assert_eq(emu_tdfg_parse("p.tdfg", text, strlen(text), &g, NULL, &t, &d), 0, "%s", d.msg);
	cr_assert_eq(emu_jit_lower(&t, &j, &d), -1);
	cr_assert(strstr(d.msg, "no tile of 64 bitlines is valid"), "%s", d.msg);
	const char *fit = strstr(d.msg, "the fit rule");
	cr_assert(fit && !strstr(fit + 1, "the fit rule"), "the fit rule not exactly once: %s", d.msg);
	const size_t len = strlen(d.msg);
	cr_assert_lt(len, DIAG_MAX - 1, "cut: %s", d.msg);
	cr_assert(d.msg[len - 1] != ' ' && d.msg[len - 1] != ',', "%s", d.msg);
	emu_tdfg_free(&t);
}

/* Sizes: decimal, no size 0, the same reader in both languages. */
Test(fixes, sizes_read_alike)
{
	expect_bad("region r 64x0x4\na = input i8\n", "1:13", "the region's sizes: size 0 is out of "
		   "range; expected 1 to 4294967295");
	expect_bad("region r 64x4x4 tile=0x10x4\na = input i8\n", "1:22", "the tile: size 0 is out "
		   "of range");
	expect_bad("region r 64x4x4 tile=16x0x4\na = input i8\n", "1:25", "the tile: size 0 is out "
		   "of range");
	write_file("t.ins", "machine wordlines=64 bitlines=16 arrays=4 ways=2 mesh=2x2\n"
		   "tensor A u8 64x0x4 wl=0 array=0\n");
	result r = run("run t.ins");
	cr_assert_eq(r.status, 1);
	cr_assert(strstr(r.err, "t.ins:2:16: error: the tensor's sizes: size 0 is out of range; "
			 "expected 1 to 4294967295"), "%s", r.err);
	result_free(&r);
}

/* An array that no region uses is laid out to fit it (doc/TDFG.md,
 * "array"): with the tile of the region of its sizes, else the default
 * pick, else a tile on part of an array.  Before, the assembler's pick
 * refused U (S_0 = 5 is no multiple of a line's 16 f32) as "region 'U'",
 * though the program without U ran. */
#define UNUSED_M "machine wordlines=256 bitlines=64 arrays=4 ways=2 mesh=2x2\n"
#define UNUSED_BODY "x = tensor A\ny = add.f32 x, x\nstore A, y\nrun r\n"

static void expect_runs(const char *name, const char *text, const char *tensor_line)
{
	write_file(name, text);
	result r = run("run %s --check", name);
	cr_expect_eq(r.status, 0, "%s: exit %d: %s%s", name, r.status, r.out, r.err);
	cr_expect(strstr(r.out, "every tDFG node (3) computes what the tDFG means"), "%s", r.out);
	cr_expect(!strstr(r.err, "region 'U'"), "%s", r.err);
	result_free(&r);
	r = run("jit %s -o %s.ins", name, name);
	cr_assert_eq(r.status, 0, "%s", r.err);
	result_free(&r);
	char ins[600];
	snprintf(ins, sizeof ins, "%s/%s.ins", tmpdir, name);
	char *lowered = proc_slurp(ins, NULL);
	cr_assert_not_null(lowered);
	cr_expect(strstr(lowered, tensor_line), "wanted '%s' in:\n%s", tensor_line, lowered);
	free(lowered);
	/* The lowered stream validates against the tDFG, and U reads back. */
	r = run("run %s.ins --tdfg %s --check --dump U", name, name);
	cr_expect_eq(r.status, 0, "%s: --tdfg: exit %d: %s%s", name, r.status, r.out, r.err);
	/* its markers, both arrays whole at the end, and the stray writes' check */
	cr_expect(strstr(r.out, "--tdfg: 5 check points"), "%s", r.out);
	cr_expect(strstr(r.out, "U[14] = 14 (0x41600000)"), "%s", r.out);
	result_free(&r);
}

Test(fixes, unused_array_takes_the_tile_of_its_region)
{
	expect_runs("u1.tdfg", UNUSED_M "array A f32 5x3 init=iota\narray U f32 5x3 init=iota\n"
		    "region r 5x3 tile=4x2\n" UNUSED_BODY,
		    "tensor U f32 5x3 wl=32 array=0 tile=4x2 init=iota\n");
}

Test(fixes, unused_array_without_a_region_of_its_sizes)
{
	/* Only a 16x4 region: the default pick refuses 5x3 (S_0 = 5), a
	 * tile on part of an array holds it. */
	expect_runs("u2.tdfg", UNUSED_M "array A f32 16x4 init=iota\narray U f32 5x3 init=iota\n"
		    "region r 16x4\n" UNUSED_BODY,
		    "tensor U f32 5x3 wl=32 array=0 tile=8x4 init=iota\n");
	/* One of sizes the default rules take keeps the default pick. */
	write_file("u3.tdfg", UNUSED_M "array A f32 16x4 init=iota\narray U f32 64x32\n"
		   "region r 16x4\n" UNUSED_BODY);
	result r = run("jit u3.tdfg");
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "tensor U f32 64x32 wl=32 array=0 tile=64x1\n"), "%s", r.out);
	result_free(&r);
}

Test(fixes, an_array_that_cannot_be_laid_out_is_named_as_one)
{
	/* 4096x64 f32 on 32 arrays of 64 bitlines fits no tile. */
	const char *text = UNUSED_M "array A f32 16x4 init=iota\narray U f32 4096x64\n"
			   "region r 16x4\n" UNUSED_BODY;
	expect_bad(text, "3:7", "array 'U' (f32 4096x64), which no region uses, cannot be laid "
		   "out on this machine: no tile of 64 bitlines is valid: ");
	expect_bad(text, "3:7", "; nor on part of an array (tile 32x1): needs 8192 arrays");
	write_file("u4.tdfg", text);
	result r = run("run u4.tdfg --check");
	cr_expect_eq(r.status, 1, "%s", r.err);
	cr_expect(strncmp(r.err, "u4.tdfg:3:7: error: array 'U' ", 30) == 0, "%s", r.err);
	cr_expect(!strstr(r.err, "region 'U'"), "%s", r.err);
	result_free(&r);
}

/* ---- a broken lowering of a program is caught at the right run ---- */

TestSuite(caught);

/* Run p one command at a time; after the last command of each node's
 * run, compare it with the reference.  The first node that differs, or
 * -1. */
static long first_wrong(const emu_tdfg *t, const emu_program *p, const uint32_t *node_of,
			emu_mismatch *mm)
{
	diag d;
	diag_clear(&d);
	emu_machine *em = emu_machine_new(p, &d);
	cr_assert_not_null(em, "%s", d.msg);
	cr_assert_eq(emu_init_buffers(em, &d), 0, "%s", d.msg);
	emu_tref *r = emu_tref_new(t, &d);
	cr_assert_not_null(r, "%s", d.msg);
	long bad = -1;
	for (size_t i = 0; i < p->ncmds && bad < 0; i++) {
		cr_assert_eq(emu_run_cmd(em, &d), 0, "command %zu: %s", i, d.msg);
		const uint32_t n = node_of[i];
		const bool last = i + 1 == p->ncmds || node_of[i + 1] != n;
		if (n != UINT32_MAX && last && !emu_tref_compare(r, p, em, n, mm))
			bad = (long)n;
	}
	emu_tref_free(r);
	emu_machine_free(em);
	return bad;
}

/* stencil1d's run 5 reuses run 1's lowering; without the last piece of
 * its store, the check names that store, in run 5, at the piece's first
 * element. */
Test(caught, dropped_store_piece_in_a_reused_run)
{
	emu_tdfg t;
	emu_jit j;
	diag d;
	diag_clear(&d);
	cr_assert_eq(emu_tdfg_load(SAMPLE("stencil1d.tdfg"), NULL, &t, &j, &d), 0, "%s", d.msg);
	cr_assert_eq(t.nregions, 10);
	const emu_tregion *run5 = &t.regions[4];
	const size_t store = run5->node1 - 1;
	cr_assert_eq(t.nodes[store].kind, EMU_TN_STORE);
	emu_mismatch mm;
	cr_assert_eq(first_wrong(&t, &j.prog, j.node_of, &mm), -1, "the lowering is wrong");
	/* Drop the store's last command (its last piece: arrays 3). */
	const size_t c = t.nodes[store].cmd1 - 1;
	memmove(&j.prog.cmds[c], &j.prog.cmds[c + 1], (j.prog.ncmds - c - 1) * sizeof *j.prog.cmds);
	memmove(&j.node_of[c], &j.node_of[c + 1], (j.prog.ncmds - c - 1) * sizeof *j.node_of);
	j.prog.ncmds--;
	const long bad = first_wrong(&t, &j.prog, j.node_of, &mm);
	cr_assert_eq(bad, (long)store, "node %ld", bad);
	cr_expect_str_eq(mm.buf->name, "B"); /* runs 1, 3, 5 store into B */
	cr_expect_eq(mm.index, 192);
	emu_jit_free(&j);
	emu_tdfg_free(&t);
}
