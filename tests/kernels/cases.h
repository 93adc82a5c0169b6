/* SPDX-License-Identifier: MIT */
/*
 * cases.h: a workload of samples/workloads/ made ready to run (prefix
 * wk_case_): its inputs, random but the same on every host, written as
 * raw .bin files in the array layout its tDFG declares, and its expected
 * arrays from the plain C kernel (workloads.h).  tests/test_workloads.c
 * runs them at the small sizes, bench/workloads.sh at the paper's.
 */
#ifndef INFSIM_TESTS_KERNELS_CASES_H
#define INFSIM_TESTS_KERNELS_CASES_H

#include <stddef.h>
#include <stdint.h>

/* A workload's sizes: n[0] innermost (vec_add, array_sum, stencil1d: n;
 * stencil2d, conv2d: width, height; stencil3d: n0, n1, n2; dwt2d: the
 * image's side; gauss_elim, mm: n; conv3d: side, input channels, output
 * channels) and iterations (the stencils). */
typedef struct wk_size {
	size_t n[3];
	unsigned iters;
} wk_size;

/* The small size of make check for each workload (the samples'). */
int wk_case_small(const char *name, wk_size *sz);
/* Table 3's size for each workload. */
int wk_case_paper(const char *name, wk_size *sz);

/* Prepare workload NAME in fp32 (_f32) or int32 (_i32) at size sz in
 * folder dir: write its inputs and expected arrays, and into args
 * (size bytes) the options that load and expect them ("-l A=DIR/A.bin
 * ... -e C=DIR/C_want.bin").  *kernel_seconds: the C kernel's time.
 * 0, or -1 with a message in err (an unknown name, no memory, a file
 * that cannot be written). */
int wk_case_f32(const char *name, const wk_size *sz, const char *dir, char *args, size_t size,
		double *kernel_seconds, char *err, size_t errsize);
int wk_case_i32(const char *name, const wk_size *sz, const char *dir, char *args, size_t size,
		double *kernel_seconds, char *err, size_t errsize);

/* The inputs' values: splitmix64 of seed.  fp32: 24-bit signed integers
 * scaled by 2^-16 (sums and products round, nothing overflows); int32:
 * every bit random (sums and products wrap). */
void wk_fill_f32(float *v, size_t n, uint64_t seed);
void wk_fill_i32(int32_t *v, size_t n, uint64_t seed);

#endif
