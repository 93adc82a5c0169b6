/* SPDX-License-Identifier: MIT */
/*
 * strm_kernels.h: plain C kernels of the workloads with strm nodes
 * (gather_mlp of infinity-stream Table 3; doc/WORKLOADS.md), written from
 * the algorithm, in the floating-point order doc/TDFG.md documents for
 * strm nodes: a split reduction is pairwise inside each tile of T
 * positions, then the tiles' partials are added in tile order.  Suffix
 * _f32 or _i32 (int32 wraps, as the machine's adds do).
 */
#ifndef INFSIM_TESTS_STRM_KERNELS_H
#define INFSIM_TESTS_STRM_KERNELS_H

#include <stddef.h>
#include <stdint.h>

/* The split sum of x[0..n) (changed in place), tiles of t (t divides n). */
float sk_split_sum_f32(float *x, size_t n, size_t t);
int32_t sk_split_sum_i32(int32_t *x, size_t n, size_t t);
/* g = e[idx[m]] row by row (rows of k), then y = g w: inner products
 * (each y[m][j] a split sum over k, tiles of t) or outer products (k
 * rounds of y += g[:, k] w[k, :], each product rounded before the add). */
void sk_gather_mlp_in_f32(const float *e, const int32_t *idx, const float *w, float *y,
			  size_t m, size_t n, size_t k, size_t t);
void sk_gather_mlp_in_i32(const int32_t *e, const int32_t *idx, const int32_t *w, int32_t *y,
			  size_t m, size_t n, size_t k, size_t t);
void sk_gather_mlp_out_f32(const float *e, const int32_t *idx, const float *w, float *y,
			   size_t m, size_t n, size_t k);
void sk_gather_mlp_out_i32(const int32_t *e, const int32_t *idx, const int32_t *w, int32_t *y,
			   size_t m, size_t n, size_t k);

#endif
