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
 * The inputs and the kernels' results are made by tests/kernels/cases.h,
 * which bench/workloads.sh uses at the paper's sizes.
 */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proc.h"
#include "kernels/cases.h"
#include "kernels/workloads.h"

#define RUN_TMP_PREFIX "infsim-workloads"
#include "infsim_run.h"

TestSuite(workloads, .init = make_tmpdir, .fini = remove_tmpdir);

/* Run samples/workloads/FILE with --check and ARGS (the -l and -e
 * options); both references must agree with the machine. */
static void run_workload(const char *file, const char *args, const char *summary)
{
	result r = run("run '%s/samples/workloads/%s' --check%s", SRCDIR, file, args);
	cr_assert_eq(r.status, 0, "%s%s: exit %d: %s%s", file, args, r.status, r.out, r.err);
	cr_assert(strstr(r.out, "every tDFG node"), "%s: %s", file, r.out);
	cr_assert(strstr(r.out, "matches"), "%s: %s", file, r.out);
	if (summary)
		cr_assert(strstr(r.out, summary), "%s: wanted '%s' in: %s", file, summary, r.out);
	result_free(&r);
}

/* Prepare workload NAME in TYPE at its small size (tests/kernels/cases.c),
 * then run it: --check and -e must both agree. */
static void check(const char *name, const char *type, const char *summary)
{
	wk_size sz;
	char args[4096], err[512], file[128];
	double seconds;
	cr_assert_eq(wk_case_small(name, &sz), 0, "%s", name);
	const int rc = strcmp(type, "f32") == 0
		? wk_case_f32(name, &sz, tmpdir, args, sizeof args, &seconds, err, sizeof err)
		: wk_case_i32(name, &sz, tmpdir, args, sizeof args, &seconds, err, sizeof err);
	cr_assert_eq(rc, 0, "%s %s: %s", name, type, err);
	snprintf(file, sizeof file, "%s_%s.tdfg", name, type);
	run_workload(file, args, summary);
}

#define STENCIL "10 region runs, 2 lowered, 8 reused"
#define BOTH(name, summary)                                                       \
	Test(workloads, name##_f32) { check(#name, "f32", summary); }               \
	Test(workloads, name##_i32) { check(#name, "i32", summary); }

BOTH(vec_add, NULL)
BOTH(array_sum, NULL)
BOTH(stencil1d, STENCIL)
BOTH(stencil2d, STENCIL)
BOTH(stencil3d, STENCIL)
BOTH(dwt2d, NULL)
BOTH(gauss_elim, "15 region runs, 15 lowered, 0 reused")
BOTH(conv2d, NULL)
BOTH(conv3d, "4 region runs, 4 lowered, 0 reused")
BOTH(mm_outer, "16 region runs, 16 lowered, 0 reused")
BOTH(mm_inner, "16 region runs, 16 lowered, 0 reused")

/* A test that can fail: one wrong bit of the C kernel's result is
 * caught by -e, which names the element. */
Test(workloads, wrong_kernel_is_caught)
{
	wk_size sz;
	char args[4096], err[512], path[512];
	double seconds;
	unsigned char b;
	cr_assert_eq(wk_case_small("vec_add", &sz), 0);
	cr_assert_eq(wk_case_f32("vec_add", &sz, tmpdir, args, sizeof args, &seconds, err,
				 sizeof err), 0, "%s", err);
	snprintf(path, sizeof path, "%s/C_want.bin", tmpdir);
	FILE *f = fopen(path, "r+b");
	cr_assert_not_null(f);
	cr_assert_eq(fseek(f, 4 * 100, SEEK_SET), 0);
	cr_assert_eq(fread(&b, 1, 1, f), 1);
	b ^= 1;
	cr_assert_eq(fseek(f, 4 * 100, SEEK_SET), 0);
	cr_assert_eq(fwrite(&b, 1, 1, f), 1);
	cr_assert_eq(fclose(f), 0);
	result r = run("run '%s/samples/workloads/vec_add_f32.tdfg' --check%s", SRCDIR, args);
	cr_assert_eq(r.status, 3, "exit %d: %s%s", r.status, r.out, r.err);
	cr_assert(strstr(r.err, "C[100]"), "%s", r.err);
	cr_assert(strstr(r.err, "bits that differ: 0\n"), "%s", r.err);
	result_free(&r);
}
