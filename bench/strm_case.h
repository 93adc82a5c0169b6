/* SPDX-License-Identifier: MIT */
/*
 * strm_case.h: the workloads with strm nodes for bench/workload_case
 * (strm_case.c): kmeans_in, kmeans_out, gather_mlp_out and gather_mlp_in
 * at sizes k x n (kmeans: K x N; gather_mlp: K x M), and t, gather_mlp_in's
 * tile along k.
 */
#ifndef INFSIM_BENCH_STRM_CASE_H
#define INFSIM_BENCH_STRM_CASE_H

#include <stdbool.h>
#include <stddef.h>

bool strm_case_known(const char *name);
/* Prepare (compare false): write the inputs into dir, run the C kernel
 * (*secs its time), and put into args the -l and -s options for infsim.
 * Compare: run the kernel again and compare the arrays infsim saved in
 * dir with it.  0, or -1 with err set (the first difference). */
int strm_case(const char *name, bool f32, const char *dir, size_t k, size_t n, size_t t,
	      bool compare, char *args, size_t size, double *secs, char *err, size_t errsize);

#endif
