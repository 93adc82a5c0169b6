/* SPDX-License-Identifier: MIT */
/*
 * test_workloads.c: every in-memory workload of infinity-stream Table 3
 * (samples/workloads/, doc/WORKLOADS.md) at its small size, in fp32 and
 * int32.  Each test makes random inputs, runs the sample on the machine
 * with them (-l), and asks for two comparisons at once:
 *  - --check: every node of every run against the tDFG's reference
 *    (emu/tdfg/tdfg_ref.c), right after its last command;
 *  - -e: the arrays at the end against the plain C kernel of
 *    tests/kernels/ (written from the algorithm, not from the tDFG),
 *    bit for bit.
 * The bodies are written once for an element type (workload_tests.inc)
 * and included for fp32 and for int32.
 */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proc.h"
#include "kernels/workloads.h"

#define RUN_TMP_PREFIX "infsim-workloads"
#include "infsim_run.h"

TestSuite(workloads, .init = make_tmpdir, .fini = remove_tmpdir);

/* splitmix64: the inputs' bits, the same on every host. */
static uint64_t next_random(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

/* fp32 inputs: 24-bit signed integers scaled by 2^-16, so that sums and
 * products round (every mantissa bit is used) yet nothing overflows. */
static void fill_f32(float *v, size_t n, uint64_t seed)
{
	for (size_t i = 0; i < n; i++)
		v[i] = (float)((int32_t)(next_random(&seed) >> 40) - (1 << 23)) * 0x1p-16f;
}

/* int32 inputs: every bit random, so sums and products wrap. */
static void fill_i32(int32_t *v, size_t n, uint64_t seed)
{
	for (size_t i = 0; i < n; i++)
		v[i] = (int32_t)(uint32_t)next_random(&seed);
}

/* n elements of 4 bytes into tmpdir/NAME (raw, little-endian: .bin). */
static void put(const char *name, const void *data, size_t n)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	FILE *f = fopen(path, "wb");
	cr_assert_not_null(f, "%s: cannot write", path);
	const unsigned char *b = data;
	for (size_t i = 0; i < 4 * n; i += 4) {
		uint32_t w;
		memcpy(&w, b + i, 4);
		const unsigned char le[4] = {w & 0xff, w >> 8 & 0xff, w >> 16 & 0xff, w >> 24};
		cr_assert_eq(fwrite(le, 1, 4, f), 4);
	}
	cr_assert_eq(fclose(f), 0);
}

/* Run samples/workloads/FILE with --check and ARGS (the -l and -e
 * options); both references must agree with the machine. */
static void run_workload(const char *file, const char *args, const char *summary)
{
	result r = run("run '%s/samples/workloads/%s' --check %s", SRCDIR, file, args);
	cr_assert_eq(r.status, 0, "%s %s: exit %d: %s%s", file, args, r.status, r.out, r.err);
	cr_assert(strstr(r.out, "every tDFG node"), "%s: %s", file, r.out);
	cr_assert(strstr(r.out, "matches"), "%s: %s", file, r.out);
	if (summary)
		cr_assert(strstr(r.out, summary), "%s: wanted '%s' in: %s", file, summary, r.out);
	result_free(&r);
}

/* The weights of samples/workloads/conv2d_*.tdfg, row by row. */
static const float conv2d_weights_f32[9] = {0.5f, -1.25f, 0.75f, 2, 3.5f, -0.25f, 1.5f, -2, 0.125f};
static const int32_t conv2d_weights_i32[9] = {1, -2, 3, -4, 5, -6, 7, -8, 9};

/* A matrix Gaussian elimination handles without pivoting: random, with
 * a diagonal that dominates its row. */
static void gauss_matrix_f32(float *a, size_t n)
{
	fill_f32(a, n * n, 15);
	for (size_t i = 0; i < n; i++)
		a[i * n + i] = (float)(n * 256) + a[i * n + i];
}

/* L U, L unit lower and U unit upper triangular with random entries:
 * every pivot is 1, so every division is exact even where the products
 * wrap around 2^32. */
static void gauss_matrix_i32(int32_t *a, size_t n)
{
	int32_t *l = calloc(n * n, sizeof *l), *u = calloc(n * n, sizeof *u);
	cr_assert(l && u);
	fill_i32(l, n * n, 16);
	fill_i32(u, n * n, 17);
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			l[i * n + j] = i == j ? 1 : i > j ? l[i * n + j] : 0;
			u[i * n + j] = i == j ? 1 : i < j ? u[i * n + j] : 0;
		}
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			uint32_t s = 0;
			for (size_t k = 0; k < n; k++)
				s += (uint32_t)l[i * n + k] * (uint32_t)u[k * n + j];
			a[i * n + j] = (int32_t)s;
		}
	free(l);
	free(u);
}

#define WL_TEST(name) Test(workloads, name)
#define WL_STR2(x) #x
#define WL_STR(x) WL_STR2(x)

#define T float
#define S f32
#define FILL fill_f32
#include "workload_tests.inc"
#undef T
#undef S
#undef FILL

#define T int32_t
#define S i32
#define FILL fill_i32
#include "workload_tests.inc"

/* A test that can fail: a wrong expected C result is caught by -e. */
Test(workloads, wrong_kernel_is_caught)
{
	float a[2048], b[2048], c[2048];
	fill_f32(a, 2048, 1);
	fill_f32(b, 2048, 2);
	wk_vec_add_f32(a, b, c, 2048);
	c[100] = c[100] * 2 + 1;
	put("A.bin", a, 2048);
	put("B.bin", b, 2048);
	put("C_want.bin", c, 2048);
	result r = run("run '%s/samples/workloads/vec_add_f32.tdfg' --check -l A=A.bin "
		       "-l B=B.bin -e C=C_want.bin", SRCDIR);
	cr_assert_eq(r.status, 3, "exit %d: %s%s", r.status, r.out, r.err);
	cr_assert(strstr(r.err, "C[100]"), "%s", r.err);
	result_free(&r);
}
