/* SPDX-License-Identifier: MIT */
/*
 * strm_kernels.c: strm_kernels.h, once per element type through a macro
 * (ADD and MUL of the type: f32 rounded per operation, i32 wrapping).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "strm_kernels.h"

static float add_f32(float a, float b)
{
	volatile float r = a + b; /* one rounding, never fused */
	return r;
}

static float mul_f32(float a, float b)
{
	volatile float r = a * b;
	return r;
}

static int32_t add_i32(int32_t a, int32_t b)
{
	return (int32_t)((uint32_t)a + (uint32_t)b);
}

static int32_t mul_i32(int32_t a, int32_t b)
{
	return (int32_t)((uint32_t)a * (uint32_t)b);
}

static float sub_f32(float a, float b)
{
	volatile float r = a - b;
	return r;
}

static int32_t sub_i32(int32_t a, int32_t b)
{
	return (int32_t)((uint32_t)a - (uint32_t)b);
}

#define SK_KERNELS(T, S)                                                                      \
T sk_split_sum_##S(T *x, size_t n, size_t t)                                                  \
{                                                                                             \
	T acc = 0;                                                                            \
	for (size_t b = 0; b < n; b += t) {                                                   \
		for (size_t len = t; len > 1;) {                                              \
			const size_t h = (len + 1) / 2;                                       \
			for (size_t j = 0; j < len - h; j++)                                  \
				x[b + j] = add_##S(x[b + j], x[b + j + h]);                   \
			len = h;                                                      \
		}                                                                             \
		acc = b == 0 ? x[0] : add_##S(acc, x[b]);                                     \
	}                                                                                     \
	return acc;                                                                           \
}                                                                                             \
void sk_gather_mlp_in_##S(const T *e, const int32_t *idx, const T *w, T *y, size_t m,         \
			  size_t n, size_t k, size_t t)                                       \
{                                                                                             \
	T *p = malloc(k * sizeof *p);                                                         \
	for (size_t i = 0; p && i < m; i++)                                                   \
		for (size_t j = 0; j < n; j++) {                                              \
			for (size_t q = 0; q < k; q++)                                        \
				p[q] = mul_##S(e[(size_t)idx[i] * k + q], w[q * n + j]);      \
			y[i * n + j] = sk_split_sum_##S(p, k, t);                             \
		}                                                                             \
	free(p);                                                                              \
}                                                                                             \
void sk_gather_mlp_out_##S(const T *e, const int32_t *idx, const T *w, T *y, size_t m,        \
			   size_t n, size_t k)                                                \
{                                                                                             \
	memset(y, 0, m * n * sizeof *y);                                                      \
	for (size_t q = 0; q < k; q++)                                                        \
		for (size_t i = 0; i < m; i++)                                                \
			for (size_t j = 0; j < n; j++)                                        \
				y[i * n + j] = add_##S(y[i * n + j],                          \
						       mul_##S(e[(size_t)idx[i] * k + q],     \
							       w[q * n + j]));                \
}                                                                                             \
/* kmeans: the distance of point i to centre q (inner: pairwise over d,  \
 * in w; outer: added in order of d), then the first closest centre. */  \
static T km_dist_##S(const T *x, const T *c, size_t d, bool inner, T *w)                      \
{                                                                                             \
	T acc = 0;                                                                            \
	for (size_t j = 0; j < d; j++) {                                                      \
		const T df = sub_##S(x[j], c[j]);                                             \
		w[j] = mul_##S(df, df);                                                       \
		acc = add_##S(acc, w[j]);                                                     \
	}                                                                                     \
	for (size_t len = d; inner && len > 1;) {                                             \
		const size_t h = (len + 1) / 2;                                               \
		for (size_t j = 0; j < len - h; j++)                                          \
			w[j] = add_##S(w[j], w[j + h]);                                       \
		len = h;                                                                      \
	}                                                                                     \
	return inner ? w[0] : acc;                                                            \
}                                                                                             \
void sk_kmeans_##S(const T *x, const T *c, size_t n, size_t d, size_t k, bool inner,          \
		   int32_t *a, T *s, int32_t *cnt)                                            \
{                                                                                             \
	T *w = malloc(d * sizeof *w), *dist = malloc(k * sizeof *dist);                      \
	for (size_t i = 0; w && dist && i < n; i++) {                                         \
		for (size_t q = 0; q < k; q++)                                                \
			dist[q] = km_dist_##S(x + i * d, c + q * d, d, inner, w);             \
		size_t best = 0;                                                              \
		for (size_t q = 1; q < k; q++)                                                \
			if (dist[q] < dist[best])                                             \
				best = q;                                                     \
		a[i] = (int32_t)best;                                                         \
	}                                                                                     \
	for (size_t i = 0; w && dist && i < n; i++) {                                         \
		for (size_t j = 0; j < d; j++)                                                \
			s[(size_t)a[i] * d + j] = add_##S(s[(size_t)a[i] * d + j], x[i * d + j]); \
		cnt[a[i]]++;                                                                  \
	}                                                                                     \
	free(w);                                                                              \
	free(dist);                                                                           \
}

SK_KERNELS(float, f32)
SK_KERNELS(int32_t, i32)
