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

#include <stdbool.h>
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
/* One kmeans step (infinity-stream Table 3): x holds n points of d
 * coordinates, c k centres (row-major).  dist[i][q] = sum over j of
 * (x[i][j] - c[q][j])^2, pairwise over j (inner products, the in-memory
 * reduce's order) or added in order of j from 0 (outer products); a[i]
 * the first q of the smallest distance; then, i = 0, 1, ..., n - 1 in
 * order, s[a[i]][j] += x[i][j] (the store stream's order) and
 * cnt[a[i]] += 1.  s and cnt start as the caller left them. */
void sk_kmeans_f32(const float *x, const float *c, size_t n, size_t d, size_t k, bool inner,
		   int32_t *a, float *s, int32_t *cnt);
void sk_kmeans_i32(const int32_t *x, const int32_t *c, size_t n, size_t d, size_t k,
		   bool inner, int32_t *a, int32_t *s, int32_t *cnt);

#endif
