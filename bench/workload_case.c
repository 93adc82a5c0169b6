/* SPDX-License-Identifier: MIT */
/*
 * workload_case.c: prepare one workload of samples/workloads/ for
 * bench/workloads.sh: its inputs and the plain C kernel's result at the
 * paper's size (or the small one), written into a folder.
 *   bench/workload_case NAME f32|i32 DIR [small]
 * prints "SECONDS<tab>OPTIONS": the C kernel's time, and the -l and -e
 * options that give infsim the inputs and compare its arrays with the
 * kernel's bit for bit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases.h"

int main(int argc, char **argv)
{
	static char args[16384];
	char err[512];
	wk_size sz;
	double seconds;
	if (argc < 4 || argc > 5 || (strcmp(argv[2], "f32") && strcmp(argv[2], "i32")) ||
	    (argc == 5 && strcmp(argv[4], "small"))) {
		fprintf(stderr, "usage: workload_case NAME f32|i32 DIR [small]\n");
		return 2;
	}
	const int found = argc == 5 ? wk_case_small(argv[1], &sz) : wk_case_paper(argv[1], &sz);
	if (found < 0) {
		fprintf(stderr, "workload_case: no workload '%s'\n", argv[1]);
		return 1;
	}
	const int rc = strcmp(argv[2], "f32") == 0
		? wk_case_f32(argv[1], &sz, argv[3], args, sizeof args, &seconds, err, sizeof err)
		: wk_case_i32(argv[1], &sz, argv[3], args, sizeof args, &seconds, err, sizeof err);
	if (rc < 0) {
		fprintf(stderr, "workload_case: %s %s: %s\n", argv[1], argv[2], err);
		return 1;
	}
	printf("%.6f\t%s\n", seconds, args + (args[0] == ' '));
	return 0;
}
