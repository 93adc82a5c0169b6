/* SPDX-License-Identifier: MIT */
/*
 * ck_export.c: a launch case of tests/kernels/cuda/cases.c as files for
 * `infsim run` (doc/SIMT.md, "Fig 13 from the CUDA workloads"):
 *
 *   tests/ck_export CASE DIR
 *
 * writes DIR/launch (the case's launches in order, as one launch text,
 * doc/PTX.md "Launches") and DIR/NAME.npy for every array (its initial
 * contents: 1-byte elements as u8, 4-byte as u32, the bits of an f32
 * unchanged), and prints the command that runs it:
 *
 *   infsim run samples/cuda/K.ptx --launch @DIR/launch -l NAME=DIR/NAME.npy ...
 *
 * A launch text cannot zero an array between launches (the host's memset
 * before bfs_commit); the launches run without it, on both the machine
 * and the reference.  `tests/ck_export -l` lists the cases.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cuda/cases.h"

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "-l")) {
		for (size_t i = 0; i < ck_case_count(); i++) {
			ck_case c;
			ck_case_make(i, &c);
			printf("%s %s\n", c.name, c.ptx);
			ck_case_free(&c);
		}
		return 0;
	}
	if (argc != 3) {
		fputs("usage: tests/ck_export CASE DIR | -l\n", stderr);
		return 2;
	}
	for (size_t i = 0; i < ck_case_count(); i++) {
		ck_case c;
		ck_case_make(i, &c);
		if (!strcmp(c.name, argv[1])) {
			int rc = ck_case_export(&c, argv[2], stdout);
			ck_case_free(&c);
			return rc ? 1 : 0;
		}
		ck_case_free(&c);
	}
	fprintf(stderr, "ck_export: no case '%s' (tests/ck_export -l lists them)\n", argv[1]);
	return 1;
}
