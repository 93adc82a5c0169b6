/* SPDX-License-Identifier: MIT */
/* case_i32.c: the workloads' cases in int32 (cases.h). */
#include <stdlib.h>

#include "cases.h"
#include "workloads.h"

/* samples/workloads/conv2d_i32.tdfg's weights, row by row. */
static const int32_t weights[9] = {1, -2, 3, -4, 5, -6, 7, -8, 9};

/* L U, L unit lower and U unit upper triangular with random entries:
 * every pivot is 1, so every division is exact even where the products
 * wrap around 2^32.  0, or -1 when out of memory. */
static int gauss_matrix(int32_t *a, size_t n)
{
	int32_t *l = malloc(n * n * sizeof *l), *u = malloc(n * n * sizeof *u);
	if (!l || !u) {
		free(l);
		free(u);
		return -1;
	}
	wk_fill_i32(l, n * n, 16);
	wk_fill_i32(u, n * n, 17);
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			l[i * n + j] = i == j ? 1 : i > j ? l[i * n + j] : 0;
			u[i * n + j] = i == j ? 1 : i < j ? u[i * n + j] : 0;
		}
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			uint32_t s = 0;
			for (size_t k = 0; k <= (i < j ? i : j); k++)
				s += (uint32_t)l[i * n + k] * (uint32_t)u[k * n + j];
			a[i * n + j] = (int32_t)s;
		}
	free(l);
	free(u);
	return 0;
}

#define T int32_t
#define S i32
#define FILL wk_fill_i32
#define WEIGHTS weights
#define GAUSS_MATRIX gauss_matrix
#include "cases.inc"
