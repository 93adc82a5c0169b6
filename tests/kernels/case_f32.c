/* SPDX-License-Identifier: MIT */
/* case_f32.c: the workloads' cases in fp32 (cases.h). */
#include "cases.h"
#include "workloads.h"

/* samples/workloads/conv2d_f32.tdfg's weights, row by row. */
static const float weights[9] = {0.5f, -1.25f, 0.75f, 2, 3.5f, -0.25f, 1.5f, -2, 0.125f};

/* A matrix that Gaussian elimination handles without pivoting: random,
 * each diagonal element larger than its row's others together. */
static int gauss_matrix(float *a, size_t n)
{
	wk_fill_f32(a, n * n, 15);
	for (size_t i = 0; i < n; i++)
		a[i * n + i] = (float)(n * 256) + a[i * n + i];
	return 0;
}

#define T float
#define S f32
#define FILL wk_fill_f32
#define WEIGHTS weights
#define GAUSS_MATRIX gauss_matrix
#include "cases.inc"
