/* SPDX-License-Identifier: MIT */
/*
 * infsim_run.h: running the infsim program from a suite, in a temporary
 * directory of its own, with stdout and stderr apart.  Included by the
 * suites that test the program (test_cli.c, test_tdfg.c), which define
 * INFSIM_BIN and RUN_TMP_PREFIX first; the suite's .init and .fini are
 * make_tmpdir and remove_tmpdir.
 */
#ifndef INFSIM_TESTS_INFSIM_RUN_H
#define INFSIM_TESTS_INFSIM_RUN_H

#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>

#include "proc.h"

typedef proc_result result;

static char tmpdir[256];

static void make_tmpdir(void)
{
	cr_assert_not_null(proc_tmpdir(tmpdir, sizeof tmpdir, RUN_TMP_PREFIX));
}

static void remove_tmpdir(void)
{
	cr_assert_eq(proc_rmdir(tmpdir), 0);
}

/* Run "infsim ARGS" in tmpdir (ARGS a shell word list). */
static result run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static result run(const char *fmt, ...)
{
	char args[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(args, sizeof args, fmt, ap);
	va_end(ap);
	result r = proc_run_in(tmpdir, INFSIM_BIN, args);
	cr_assert(r.status >= 0, "infsim %s: did not exit normally", args);
	cr_assert(r.out && r.err, "infsim %s: its output could not be read", args);
	return r;
}

static void result_free(result *r)
{
	proc_result_free(r);
}

#endif
