/* SPDX-License-Identifier: MIT */
/*
 * refs.h: what each kernel of samples/cuda/ and samples/opencl/ computes
 * over a whole launch, as sequential plain C (prefix ck_), written from
 * the kernel's comment and not from its PTX, so that a launch on infsim's
 * PTX reference (tests/test_cuda_kernels.c) is checked against an
 * independent reading.  fp32 results are bit-exact where the kernel's
 * operations are correctly rounded: the C rounds the same operations in
 * the same order (fmaf where the kernel fuses).  Integer arithmetic that
 * the kernel wraps is done in uint32_t.
 */
#ifndef INFSIM_TESTS_KERNELS_CUDA_REFS_H
#define INFSIM_TESTS_KERNELS_CUDA_REFS_H

#include <stddef.h>
#include <stdint.h>

void ck_saxpy(size_t n, float a, const float *x, float *y);
void ck_branchy(size_t n, const int32_t *x, int32_t *y);
void ck_collatz(size_t n, uint32_t limit, const uint32_t *x, uint32_t *steps);
/* part[b] = the wrapping sum of x[2bB .. 2bB + 2B) (within n). */
void ck_reduce(size_t n, size_t B, const int32_t *x, int32_t *part);
void ck_histogram(size_t n, const uint32_t *x, uint32_t bins[256]);
/* libm's sinf and expf, which .approx only approaches (see the case). */
void ck_sinexp(size_t n, const float *x, float *s, float *e);
void ck_votes(size_t n, const int32_t *x, uint32_t *b, int32_t *v);
void ck_approx(size_t n, const float *x, float *s, float *c, float *e, float *l, float *r);
void ck_index64(size_t n, const int32_t *x, int32_t *y);
void ck_warpsum(size_t n, size_t nwarps, const int32_t *x, int32_t *sums);
/* partial[by * 16 + tx] for by < n_in / 16 (w is (n_in + 1) x 17). */
void ck_layerforward(size_t n_in, const float *input, const float *w, float *partial);
/* Breadth-first distances from src over the compressed rows (cost -1
 * where unreachable, visited 0/1); returns the largest distance. */
int32_t ck_bfs(size_t n, const int32_t *start, const int32_t *degree, const int32_t *edges,
	       int32_t src, int32_t *cost, uint8_t *visited);
/* The whole elimination: a, b and the multipliers m (n x n). */
void ck_gaussian(size_t n, float *a, float *b, float *m);
void ck_hotspot(size_t cols, size_t rows, const float *power, const float *temp, float *out,
		float sdc, float rx, float ry, float rz, float amb);
void ck_lud(size_t n, float *a);
/* Fills score's cells 1..n x 1..n (row and column 0 already set). */
void ck_nw(size_t n, int32_t *score, const int32_t *sim, int32_t penalty);
/* last: the cheapest cost to each cell of the last row; prev: of the one
 * before (row 0 itself when rows == 1). */
void ck_pathfinder(size_t rows, size_t cols, const int32_t *wall, int32_t *last, int32_t *prev);
void ck_kmeans(size_t npoints, size_t nclusters, size_t nfeatures, const float *feature,
	       const float *clusters, int32_t *membership);
void ck_vadd(size_t n, const float *a, const float *b, float *c);
void ck_transpose(size_t rows, size_t cols, const uint32_t *in, uint32_t *out);
/* samples/cuda/half.cu: halves as bits (round to nearest even) */
uint16_t ck_f2h(float f);
void ck_half(size_t n, const uint16_t *x, const uint16_t *y, const uint16_t *z, uint16_t *h,
	     const uint32_t *p, const uint32_t *q, uint32_t *r, int32_t *cmp);
/* samples/cuda/ftz.cu: f32 with .ftz where clang wrote it */
void ck_ftz(size_t n, const float *x, const float *y, float *o, int32_t *c);

/* samples/cuda/digits.cu: decimal digit sums and their histogram
 * (hist[10] counts, added to); 64-bit quotients and remainders; a warp
 * rotation by computed lanes (n a multiple of 32). */
void ck_digits(size_t n, const uint32_t *x, uint32_t *sum, uint32_t hist[10]);
void ck_div64(size_t n, const uint64_t *a, const uint64_t *b, uint64_t *q, uint64_t *r, int64_t *sq,
	      int64_t *sr, uint64_t *k);
void ck_rotate(size_t n, const int32_t *x, const uint32_t *s, int32_t *y, int32_t *m);

#endif
