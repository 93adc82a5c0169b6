/* SPDX-License-Identifier: MIT */
/*
 * workload_case.c: prepare one workload of samples/workloads/ for
 * bench/workloads.sh: its inputs and the plain C kernel's result at the
 * paper's size (or the small one, or sizes of its own), written into a
 * folder.
 *   bench/workload_case NAME f32|i32 DIR [small | size=N0[xN1[xN2]]]
 * size= replaces the paper's sizes (cases.h, wk_size.n), keeping its
 * iterations: the fractions of Table 3's sizes bench/workloads.py
 * measures with --scale.
 * prints "SECONDS<tab>OPTIONS": the C kernel's time, and the -l and -e
 * options that give infsim the inputs and compare its arrays with the
 * kernel's bit for bit.
 * The workloads with strm nodes (kmeans_in, kmeans_out, gather_mlp_out,
 * gather_mlp_in; strm_case.c) take size=KxN (kmeans), size=KxM
 * (gather_mlp_out) or size=KxMxTK (gather_mlp_in, TK its tile along k), and
 * their options save the outputs (-s), which
 *   bench/workload_case --compare NAME f32|i32 DIR size=KxN
 * then compares with the kernel's: exit 0, or 1 naming the first
 * difference.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases.h"
#include "strm_case.h"

/* size=N0[xN1[xN2]]: each from 1 to 2^31; 0, or -1. */
static int parse_size(const char *s, wk_size *sz)
{
	if (strncmp(s, "size=", 5))
		return -1;
	s += 5;
	for (unsigned k = 0; k < 3; k++) {
		char *end;
		const unsigned long long v = strtoull(s, &end, 10);
		if (end == s || *s == '-' || v < 1 || v > (1ull << 31))
			return -1;
		sz->n[k] = (size_t)v;
		if (!*end)
			return 0;
		if (*end != 'x')
			return -1;
		s = end + 1;
	}
	return -1;
}

/* A workload with strm nodes: prepare, or compare (strm_case.c). */
static int strm_main(const char *name, const char *typ, const char *dir, const char *size,
		     bool compare)
{
	static char args[16384];
	char err[512];
	wk_size sz;
	memset(&sz, 0, sizeof sz);
	double seconds = 0;
	const bool gather = !strncmp(name, "gather_mlp_", 11), in = !strcmp(name, "gather_mlp_in");
	if (!strcmp(size, "small")) {
		sz.n[0] = gather ? 16 : 64;
		sz.n[1] = gather ? 16 : 128;
		sz.n[2] = in ? 8 : 0;
	} else if (parse_size(size, &sz) || !sz.n[1] || (!in && sz.n[2]) || (in && !sz.n[2])) {
		fprintf(stderr, "workload_case: %s: '%s': expected size=%s\n", name, size,
			in ? "KxMxTK" : gather ? "KxM" : "KxN");
		return 2;
	}
	if (strm_case(name, !strcmp(typ, "f32"), dir, sz.n[0], sz.n[1], sz.n[2], compare, args,
		      sizeof args, &seconds, err, sizeof err) < 0) {
		fprintf(stderr, "workload_case: %s %s: %s\n", name, typ, err);
		return 1;
	}
	if (!compare)
		printf("%.6f\t%s\n", seconds, args);
	return 0;
}

int main(int argc, char **argv)
{
	static char args[16384];
	char err[512];
	wk_size sz;
	double seconds;
	const bool compare = argc > 1 && !strcmp(argv[1], "--compare");
	if (compare) {
		argc--;
		argv++;
	}
	if ((argc == 4 || argc == 5) && strm_case_known(argv[1]) &&
	    (!strcmp(argv[2], "f32") || !strcmp(argv[2], "i32")))
		return strm_main(argv[1], argv[2], argv[3], argc == 5 ? argv[4] : "small", compare);
	if (compare) {
		fprintf(stderr, "workload_case: --compare is for kmeans_in, kmeans_out, "
			"gather_mlp_out and gather_mlp_in\n");
		return 2;
	}
	const bool small = argc == 5 && !strcmp(argv[4], "small");
	if (argc < 4 || argc > 5 || (strcmp(argv[2], "f32") && strcmp(argv[2], "i32")) ||
	    (argc == 5 && !small && strncmp(argv[4], "size=", 5))) {
		fprintf(stderr, "usage: workload_case NAME f32|i32 DIR [small | size=N0[xN1[xN2]]]\n"
			"       workload_case [--compare] kmeans_in|kmeans_out|gather_mlp_out|"
			"gather_mlp_in f32|i32 DIR [small | size=KxN[xTK]]\n");
		return 2;
	}
	const int found = small ? wk_case_small(argv[1], &sz) : wk_case_paper(argv[1], &sz);
	if (found < 0) {
		fprintf(stderr, "workload_case: no workload '%s'\n", argv[1]);
		return 1;
	}
	if (argc == 5 && !small && parse_size(argv[4], &sz)) {
		fprintf(stderr, "workload_case: '%s': expected size=N0[xN1[xN2]], each from 1 to "
			"2147483648\n", argv[4]);
		return 2;
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
