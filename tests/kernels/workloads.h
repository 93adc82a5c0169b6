/* SPDX-License-Identifier: MIT */
/*
 * workloads.h: the in-memory workloads of infinity-stream Table 3 as
 * plain C kernels, written from each algorithm and not from the tDFGs of
 * samples/workloads/, as a second reference beside the tDFG's own.
 *
 * Every kernel exists in fp32 (wk_NAME_f32) and int32 (wk_NAME_i32).
 * The arithmetic order is the one the in-memory program has to follow
 * too, so that fp32 results are bit-identical (doc/WORKLOADS.md):
 *  - each operation is rounded on its own (no fused multiply-add);
 *  - a sum over a dimension the machine reduces (array sum, mm/in, the
 *    input channels of conv3d) is pairwise: with len values left and
 *    h = ceil(len / 2), value j becomes v[j] + v[j + h] for j < len - h,
 *    then len = h, until one is left;
 *  - other sums are left to right in the order each kernel states.
 * int32 arithmetic wraps around 2^32; division rounds toward zero, x / 0
 * is -1 and INT32_MIN / -1 is INT32_MIN (doc/COMMANDS.md, div); >> is
 * arithmetic.
 * Arrays are row-major; "interior" means one element in from each edge.
 */
#ifndef INFSIM_TESTS_KERNELS_WORKLOADS_H
#define INFSIM_TESTS_KERNELS_WORKLOADS_H

#include <stddef.h>
#include <stdint.h>

#define WK_DECLARE(T, S)                                                              \
	/* c[i] = a[i] + b[i] */                                                      \
	void wk_vec_add_##S(const T *a, const T *b, T *c, size_t n);                 \
	/* The pairwise sum of x[0..n) (x is overwritten). */                        \
	T wk_array_sum_##S(T *x, size_t n);                                          \
	/* iters of b[i] = (a[i] + a[i-1]) + a[i+1] on the interior, then swap a     \
	 * and b; returns the array holding the last result. */                       \
	T *wk_stencil1d_##S(T *a, T *b, size_t n, unsigned iters);                   \
	/* The same with (((a + west) + east) + north) + south on a w-wide,         \
	 * h-high image (north is the row above). */                                   \
	T *wk_stencil2d_##S(T *a, T *b, size_t w, size_t h, unsigned iters);         \
	/* The same with (((((a + k-1) + k+1) + j-1) + j+1) + i-1) + i+1 on a      \
	 * [ni][nj][nk] block. */                                                      \
	T *wk_stencil3d_##S(T *a, T *b, size_t nk, size_t nj, size_t ni, unsigned iters); \
	/* One level of 5/3 lifting of the 2m x 2m image x, rows then columns,     \
	 * into the m x m subbands (zero where they are not computed). */             \
	void wk_dwt2d_##S(const T *x, size_t m, T *ll, T *lh, T *hl, T *hh);         \
	/* Gaussian elimination without pivoting of the n x n matrix a. */            \
	void wk_gauss_elim_##S(T *a, size_t n);                                       \
	/* y = the 3x3 convolution of the w x h image x with k[9] on the interior. */ \
	void wk_conv2d_##S(const T *x, T *y, size_t w, size_t h, const T k[9]);        \
	/* y[o] = the 3x3 convolution of x[c] (c < nc) with k[o][c][9], o < no. */    \
	void wk_conv3d_##S(const T *x, T *y, size_t w, size_t h, size_t nc, size_t no, \
			   const T *k);                                                \
	/* c = a b (n x n) by outer products: c += a[.][k] b[k][.], k = 0.. */       \
	void wk_mm_outer_##S(const T *a, const T *b, T *c, size_t n);                 \
	/* c = a b (n x n) by inner products, each summed pairwise over k. */        \
	void wk_mm_inner_##S(const T *a, const T *b, T *c, size_t n);

WK_DECLARE(float, f32)
WK_DECLARE(int32_t, i32)

#endif
