/* SPDX-License-Identifier: MIT */
/* cases.c: the launches of the CUDA and OpenCL samples; see cases.h. */
#include "cases.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cases.h"
#include "refs.h"

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);
	if (!p) {
		fputs("cases.c: out of memory\n", stderr);
		abort();
	}
	return p;
}

/* A new array of n elements, zero; an output's want starts as a copy of
 * init when the case calls done() (kernels that update in place). */
static size_t arr(ck_case *c, const char *name, size_t elem, size_t n, ck_check check)
{
	if (c->narrays == CK_MAX_ARRAYS)
		abort();
	ck_array *a = &c->arrays[c->narrays];
	a->name = name;
	a->elem = elem;
	a->n = n;
	a->init = xcalloc(n, elem);
	a->want = check == CK_INPUT ? NULL : xcalloc(n, elem);
	a->check = check;
	a->tol = 0;
	return c->narrays++;
}

#define INIT(c, i, T) ((T *)(c)->arrays[i].init)
#define WANT(c, i, T) ((T *)(c)->arrays[i].want)

/* After the inputs are filled: every want = init, for the reference to
 * update. */
static void start_wants(ck_case *c)
{
	for (size_t i = 0; i < c->narrays; i++)
		if (c->arrays[i].want)
			memcpy(c->arrays[i].want, c->arrays[i].init, c->arrays[i].n * c->arrays[i].elem);
}

static uint32_t blocks(size_t n, size_t b) { return (uint32_t)((n + b - 1) / b); }

static ck_launch *launch(ck_case *c, const char *kernel, uint32_t gx, uint32_t gy, uint32_t bx,
			 uint32_t by)
{
	if (c->nlaunches == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 4;
		c->launches = realloc(c->launches, c->cap * sizeof *c->launches);
		if (!c->launches)
			abort();
	}
	ck_launch *l = &c->launches[c->nlaunches++];
	memset(l, 0, sizeof *l);
	l->kernel = kernel;
	l->grid[0] = gx, l->grid[1] = gy, l->grid[2] = 1;
	l->block[0] = bx, l->block[1] = by, l->block[2] = 1;
	l->clear = -1;
	return l;
}

static void arg(ck_launch *l, ck_arg_kind kind, size_t array, uint64_t bits)
{
	if (l->nargs == CK_MAX_ARGS)
		abort();
	l->args[l->nargs++] = (ck_arg){kind, array, bits};
}
static void a_arr(ck_launch *l, size_t i) { arg(l, CK_ARG_ARRAY, i, 0); }
static void a_u32(ck_launch *l, uint32_t v) { arg(l, CK_ARG_U32, 0, v); }
static void a_i32(ck_launch *l, int32_t v) { arg(l, CK_ARG_U32, 0, (uint32_t)v); }
static void a_u64(ck_launch *l, uint64_t v) { arg(l, CK_ARG_U64, 0, v); }
static void a_f32(ck_launch *l, float v)
{
	uint32_t b;
	memcpy(&b, &v, 4);
	arg(l, CK_ARG_F32, 0, b);
}

/* fp32 values in [-128, 128) on a 2^-16 grid (wk_fill_f32), scaled. */
static void fill_f32(float *v, size_t n, uint64_t seed, float scale)
{
	wk_fill_f32(v, n, seed);
	for (size_t i = 0; i < n; i++)
		v[i] *= scale;
}
static void fill_u32(uint32_t *v, size_t n, uint64_t seed, uint32_t mask)
{
	wk_fill_i32((int32_t *)v, n, seed);
	for (size_t i = 0; i < n; i++)
		v[i] &= mask;
}

/* ---- one builder per kernel: n, m are the table's sizes ---- */

/* half.cu: halves of magnitude in [2^-4, 4) or 0, both signs (every sum,
 * product and fma of them exact in a double: refs.c) */
static void half(ck_case *c, size_t n, size_t m)
{
	(void)m;
	size_t x = arr(c, "x", 2, n, CK_INPUT), y = arr(c, "y", 2, n, CK_INPUT), z = arr(c, "z", 2, n, CK_INPUT);
	size_t h = arr(c, "h", 2, n, CK_EXACT), p = arr(c, "p", 4, n / 2, CK_INPUT);
	size_t q = arr(c, "q", 4, n / 2, CK_INPUT), r = arr(c, "r", 4, n / 2, CK_EXACT);
	size_t cm = arr(c, "cmp", 4, n, CK_EXACT);
	float *t = malloc(3 * n * sizeof *t);
	if (!t)
		abort();
	fill_f32(t, 3 * n, 41, 0x1p-5f); /* [-4, 4) */
	uint16_t *hv[3] = { INIT(c, x, uint16_t), INIT(c, y, uint16_t), INIT(c, z, uint16_t) };
	for (size_t i = 0; i < 3 * n; i++) {
		float v = fabsf(t[i]) < 0x1p-4f ? (i % 7 ? 0x1p-4f : 0.0f) : t[i];
		hv[i % 3][i / 3] = ck_f2h(v);
	}
	for (size_t i = 0; i < n / 2; i++) {
		INIT(c, p, uint32_t)[i] = hv[0][2 * i] | (uint32_t)hv[1][2 * i + 1] << 16;
		INIT(c, q, uint32_t)[i] = hv[2][2 * i] | (uint32_t)hv[0][2 * i + 1] << 16;
	}
	free(t);
	start_wants(c);
	ck_half(n, hv[0], hv[1], hv[2], WANT(c, h, uint16_t), INIT(c, p, uint32_t), INIT(c, q, uint32_t),
		WANT(c, r, uint32_t), WANT(c, cm, int32_t));
	ck_launch *l = launch(c, "half_ops", blocks(n, 128), 1, 128, 1);
	a_i32(l, (int32_t)n), a_arr(l, x), a_arr(l, y), a_arr(l, z), a_arr(l, h), a_arr(l, p), a_arr(l, q),
		a_arr(l, r), a_arr(l, cm);
}

/* ftz.cu: normals, subnormals (every fifth) and zeros, both signs */
static void ftz(ck_case *c, size_t n, size_t m)
{
	(void)m;
	size_t x = arr(c, "x", 4, n, CK_INPUT), y = arr(c, "y", 4, n, CK_INPUT);
	size_t o = arr(c, "o", 4, 8 * n, CK_EXACT), cc = arr(c, "c", 4, n, CK_EXACT);
	float *xv = INIT(c, x, float), *yv = INIT(c, y, float);
	fill_f32(xv, n, 43, 1.0f);
	fill_f32(yv, n, 47, 0x1p-7f);
	for (size_t i = 0; i < n; i++) {
		if (i % 5 == 1)
			xv[i] *= 0x1p-135f; /* subnormal (or 0) */
		if (i % 5 == 2)
			yv[i] *= 0x1p-128f;
		if (i % 5 == 3) /* products and quotients near 2^-126 */
			xv[i] *= 0x1p-120f;
	}
	start_wants(c);
	ck_ftz(n, xv, yv, WANT(c, o, float), WANT(c, cc, int32_t));
	ck_launch *l = launch(c, "ftz_ops", blocks(n, 128), 1, 128, 1);
	a_i32(l, (int32_t)n), a_arr(l, x), a_arr(l, y), a_arr(l, o), a_arr(l, cc);
}

static void saxpy(ck_case *c, size_t n, size_t m)
{
	(void)m;
	size_t x = arr(c, "x", 4, n, CK_INPUT), y = arr(c, "y", 4, n, CK_EXACT);
	fill_f32(INIT(c, x, float), n, 1, 1.0f);
	fill_f32(INIT(c, y, float), n, 2, 1.0f);
	start_wants(c);
	float a = -1.6180339f;
	ck_saxpy(n, a, INIT(c, x, float), WANT(c, y, float));
	ck_launch *l = launch(c, "saxpy", blocks(n, 256), 1, 256, 1);
	a_i32(l, (int32_t)n), a_f32(l, a), a_arr(l, x), a_arr(l, y);
}

static void branchy(ck_case *c, size_t n, size_t m)
{
	(void)m;
	size_t x = arr(c, "x", 4, n, CK_INPUT), y = arr(c, "y", 4, n, CK_EXACT);
	wk_fill_i32(INIT(c, x, int32_t), n, 3);
	start_wants(c);
	ck_branchy(n, INIT(c, x, int32_t), WANT(c, y, int32_t));
	ck_launch *l = launch(c, "branchy", blocks(n, 128), 1, 128, 1);
	a_i32(l, (int32_t)n), a_arr(l, x), a_arr(l, y);
}

static void collatz(ck_case *c, size_t n, size_t limit)
{
	size_t x = arr(c, "x", 4, n, CK_INPUT), s = arr(c, "steps", 4, n, CK_EXACT);
	uint32_t *xv = INIT(c, x, uint32_t);
	fill_u32(xv, n, 4, 0xfffffu);
	xv[0] = 0;                 /* never reaches 1: the limit */
	xv[1 % n] = 1;             /* no step */
	xv[2 % n] = 0xffffffffu;   /* wraps at once */
	start_wants(c);
	ck_collatz(n, (uint32_t)limit, xv, WANT(c, s, uint32_t));
	ck_launch *l = launch(c, "collatz", blocks(n, 64), 1, 64, 1);
	a_u32(l, (uint32_t)n), a_u32(l, (uint32_t)limit), a_arr(l, x), a_arr(l, s);
}

static void reduce(ck_case *c, size_t n, size_t B)
{
	size_t nb = (n + 2 * B - 1) / (2 * B);
	size_t x = arr(c, "x", 4, n, CK_INPUT), p = arr(c, "part", 4, nb, CK_EXACT);
	wk_fill_i32(INIT(c, x, int32_t), n, 5);
	start_wants(c);
	ck_reduce(n, B, INIT(c, x, int32_t), WANT(c, p, int32_t));
	ck_launch *l = launch(c, "reduce", (uint32_t)nb, 1, (uint32_t)B, 1);
	a_u32(l, (uint32_t)n), a_arr(l, x), a_arr(l, p);
}

static void histogram(ck_case *c, size_t n, size_t grid)
{
	size_t x = arr(c, "x", 4, n, CK_INPUT), b = arr(c, "bins", 4, 256, CK_EXACT);
	/* skewed: the low byte of a product of two values, so bins differ */
	uint32_t *xv = INIT(c, x, uint32_t);
	wk_fill_i32((int32_t *)xv, n, 6);
	for (size_t i = 0; i < n; i++)
		xv[i] = (xv[i] & 0xff) * ((xv[i] >> 8) & 0xff);
	start_wants(c);
	ck_histogram(n, xv, WANT(c, b, uint32_t));
	ck_launch *l = launch(c, "histogram", (uint32_t)grid, 1, 256, 1);
	a_u32(l, (uint32_t)n), a_arr(l, x), a_arr(l, b);
}

/* .approx: PTX gives sin.approx.f32 an absolute error of at most 2^-20.9
 * on [-pi, pi] and ex2.approx.f32 a relative one of about 2 ulp; doc/PTX.md
 * is to define the exact results (isa/'s scalar references), and until
 * this test compares against those, it checks within these bounds. */
static void sinexp(ck_case *c, size_t n, size_t m)
{
	(void)m;
	size_t x = arr(c, "x", 4, n, CK_INPUT);
	size_t s = arr(c, "s", 4, n, CK_APPROX), e = arr(c, "e", 4, n, CK_APPROX);
	c->arrays[s].tol = 0x1p-20;
	c->arrays[e].tol = 0x1p-21;
	fill_f32(INIT(c, x, float), n, 7, 0x1p-6f); /* [-2, 2) */
	start_wants(c);
	ck_sinexp(n, INIT(c, x, float), WANT(c, s, float), WANT(c, e, float));
	ck_launch *l = launch(c, "sinexp", blocks(n, 256), 1, 256, 1);
	a_i32(l, (int32_t)n), a_arr(l, x), a_arr(l, s), a_arr(l, e);
}

/* Every .approx function on x in [2^-8, 16): within the accuracy doc/PTX.md
 * states ("The .approx functions"; rsqrt is isa/'s estimate and one
 * Newton step, within 0.2 %), absolute for sin, cos and lg2, relative for
 * ex2 and rsqrt (the bound is tol * max(1, |want|)). */
static void approx(ck_case *c, size_t n, size_t m)
{
	(void)m;
	size_t x = arr(c, "x", 4, n, CK_INPUT);
	size_t s = arr(c, "s", 4, n, CK_APPROX), co = arr(c, "c", 4, n, CK_APPROX);
	size_t e = arr(c, "e", 4, n, CK_APPROX), l = arr(c, "l", 4, n, CK_APPROX);
	size_t r = arr(c, "r", 4, n, CK_APPROX);
	c->arrays[s].tol = c->arrays[co].tol = 0x1p-21;
	c->arrays[e].tol = 0x1p-21;
	c->arrays[l].tol = 0x1p-21;
	c->arrays[r].tol = 0x1p-8;
	float *xv = INIT(c, x, float);
	fill_f32(xv, n, 29, 0x1p-3f); /* [-16, 16) */
	for (size_t i = 0; i < n; i++)
		xv[i] = fabsf(xv[i]) + 0x1p-8f;
	start_wants(c);
	ck_approx(n, xv, WANT(c, s, float), WANT(c, co, float), WANT(c, e, float), WANT(c, l, float),
		  WANT(c, r, float));
	ck_launch *la = launch(c, "approx", blocks(n, 256), 1, 256, 1);
	a_i32(la, (int32_t)n), a_arr(la, x), a_arr(la, s), a_arr(la, co), a_arr(la, e), a_arr(la, l),
		a_arr(la, r);
}

static void index64(ck_case *c, size_t n, size_t m)
{
	(void)m;
	size_t x = arr(c, "x", 4, n, CK_INPUT), y = arr(c, "y", 4, n, CK_EXACT);
	wk_fill_i32(INIT(c, x, int32_t), n, 8);
	start_wants(c);
	ck_index64(n, INIT(c, x, int32_t), WANT(c, y, int32_t));
	ck_launch *l = launch(c, "index64", blocks(n, 256), 1, 256, 1);
	a_u64(l, n), a_arr(l, x), a_arr(l, y);
}

static void warpsum(ck_case *c, size_t n, size_t B)
{
	size_t nwarps = blocks(n, B) * (B / 32);
	size_t x = arr(c, "x", 4, n, CK_INPUT), s = arr(c, "sums", 4, nwarps, CK_EXACT);
	wk_fill_i32(INIT(c, x, int32_t), n, 9);
	start_wants(c);
	ck_warpsum(n, nwarps, INIT(c, x, int32_t), WANT(c, s, int32_t));
	ck_launch *l = launch(c, "warpsum", blocks(n, B), 1, (uint32_t)B, 1);
	a_u32(l, (uint32_t)n), a_arr(l, x), a_arr(l, s);
}

/* x in [-8, 8), and some warps all odd or all even, so that every vote
 * gives both answers; n not a multiple of 32: the last warp is partial. */
static void votes(ck_case *c, size_t n, size_t m)
{
	(void)m;
	size_t x = arr(c, "x", 4, n, CK_INPUT);
	size_t b = arr(c, "b", 4, n, CK_EXACT), v = arr(c, "v", 4, n, CK_EXACT);
	int32_t *xv = INIT(c, x, int32_t);
	wk_fill_i32(xv, n, 31);
	for (size_t i = 0; i < n; i++) {
		xv[i] = (int32_t)((uint32_t)xv[i] % 16) - 8;
		if (i / 32 % 3 == 1)
			xv[i] |= 1; /* every third warp all odd */
	}
	start_wants(c);
	ck_votes(n, xv, WANT(c, b, uint32_t), WANT(c, v, int32_t));
	ck_launch *l = launch(c, "votes", blocks(n, 256), 1, 256, 1);
	a_i32(l, (int32_t)n), a_arr(l, x), a_arr(l, b), a_arr(l, v);
}

/* digits: x of every size (0 and single digits too), blocks of 256 */
static void digits(ck_case *c, size_t n, size_t m)
{
	(void)m;
	size_t x = arr(c, "x", 4, n, CK_INPUT), s = arr(c, "sum", 4, n, CK_EXACT), h = arr(c, "hist", 4, 10, CK_EXACT);
	uint32_t *xv = INIT(c, x, uint32_t);
	fill_u32(xv, n, 41, 0xffffffffu);
	for (size_t i = 0; i < n; i++)
		xv[i] >>= (xv[i] & 31); /* a spread of magnitudes */
	xv[0] = 0, xv[1] = 9, xv[2] = 0xffffffffu, xv[3] = 1000000000u;
	start_wants(c);
	ck_digits(n, xv, WANT(c, s, uint32_t), WANT(c, h, uint32_t));
	ck_launch *l = launch(c, "digits", blocks(n, 256), 1, 256, 1);
	a_u32(l, (uint32_t)n), a_arr(l, x), a_arr(l, s), a_arr(l, h);
}

/* div64: random and edge dividends and divisors (0, 1, -1, MIN, MAX,
 * small, 32-bit ones that take clang's div.u32 path) */
static void div64(ck_case *c, size_t n, size_t m)
{
	(void)m;
	size_t a = arr(c, "a", 8, n, CK_INPUT), b = arr(c, "b", 8, n, CK_INPUT);
	size_t q = arr(c, "q", 8, n, CK_EXACT), r = arr(c, "r", 8, n, CK_EXACT), sq = arr(c, "sq", 8, n, CK_EXACT);
	size_t sr = arr(c, "sr", 8, n, CK_EXACT), k = arr(c, "k", 8, n, CK_EXACT);
	uint32_t *w = xcalloc(4 * n, 4);
	fill_u32(w, 4 * n, 43, 0xffffffffu);
	uint64_t *av = INIT(c, a, uint64_t), *bv = INIT(c, b, uint64_t);
	static const uint64_t edge[] = { 0, 1, UINT64_MAX, UINT64_C(1) << 63, (UINT64_C(1) << 63) - 1, 7, 10,
					 0xffffffffu, UINT64_C(0x100000000) };
	for (size_t i = 0; i < n; i++) {
		av[i] = (uint64_t)w[4 * i] << 32 | w[4 * i + 1];
		bv[i] = (uint64_t)w[4 * i + 2] << 32 | w[4 * i + 3];
		switch (i % 5) {
		case 1: bv[i] >>= w[4 * i] % 64; break;        /* divisors of every size */
		case 2: av[i] &= 0xffffffffu; bv[i] &= 0xffff; break; /* the 32-bit path */
		case 3: bv[i] = (uint64_t)-(int64_t)(bv[i] >> (w[4 * i] % 64)); break; /* negative */
		default: break;
		}
		if (i < 81) {
			av[i] = edge[i / 9];
			bv[i] = edge[i % 9];
		}
	}
	free(w);
	start_wants(c);
	ck_div64(n, av, bv, WANT(c, q, uint64_t), WANT(c, r, uint64_t), WANT(c, sq, int64_t), WANT(c, sr, int64_t),
		 WANT(c, k, uint64_t));
	ck_launch *l = launch(c, "div64", blocks(n, 128), 1, 128, 1);
	a_u32(l, (uint32_t)n), a_arr(l, a), a_arr(l, b), a_arr(l, q), a_arr(l, r), a_arr(l, sq), a_arr(l, sr),
		a_arr(l, k);
}

/* rotate: n a multiple of 32, blocks of 64 */
static void rotate(ck_case *c, size_t n, size_t m)
{
	(void)m;
	size_t x = arr(c, "x", 4, n, CK_INPUT), s = arr(c, "s", 4, n, CK_INPUT);
	size_t y = arr(c, "y", 4, n, CK_EXACT), mm = arr(c, "m", 4, n, CK_EXACT);
	wk_fill_i32(INIT(c, x, int32_t), n, 45);
	fill_u32(INIT(c, s, uint32_t), n, 47, 0xffffffffu);
	start_wants(c);
	ck_rotate(n, INIT(c, x, int32_t), INIT(c, s, uint32_t), WANT(c, y, int32_t), WANT(c, mm, int32_t));
	ck_launch *l = launch(c, "rotate", blocks(n, 64), 1, 64, 1);
	a_arr(l, x), a_arr(l, s), a_arr(l, y), a_arr(l, mm);
}

static void backprop(ck_case *c, size_t n_in, size_t m)
{
	(void)m;
	size_t in = arr(c, "input", 4, n_in + 1, CK_INPUT);
	size_t w = arr(c, "w", 4, (n_in + 1) * 17, CK_INPUT);
	size_t p = arr(c, "partial", 4, n_in, CK_EXACT);
	fill_f32(INIT(c, in, float), n_in + 1, 10, 1.0f / 128);
	fill_f32(INIT(c, w, float), (n_in + 1) * 17, 11, 1.0f / 64);
	start_wants(c);
	ck_layerforward(n_in, INIT(c, in, float), INIT(c, w, float), WANT(c, p, float));
	ck_launch *l = launch(c, "layerforward", 1, (uint32_t)(n_in / 16), 16, 16);
	a_arr(l, in), a_arr(l, w), a_arr(l, p);
}

/* A random graph of n nodes, out-degrees 0..5 (a chain through every
 * node so most are reachable, plus random edges), from node 0. */
static void bfs(ck_case *c, size_t n, size_t m)
{
	(void)m;
	size_t st = arr(c, "start", 4, n, CK_INPUT), dg = arr(c, "degree", 4, n, CK_INPUT);
	uint32_t *r = xcalloc(6 * n, 4);
	fill_u32(r, 6 * n, 12, 0xffffffffu);
	size_t ne = 0;
	for (size_t v = 0; v < n; v++)
		ne += r[v] % 6;
	size_t ed = arr(c, "edges", 4, ne, CK_INPUT);
	size_t mask = arr(c, "mask", 1, n, CK_EXACT), next = arr(c, "next", 1, n, CK_EXACT);
	size_t vis = arr(c, "visited", 1, n, CK_EXACT), cost = arr(c, "cost", 4, n, CK_EXACT);
	size_t again = arr(c, "again", 4, 1, CK_EXACT);
	int32_t *start = INIT(c, st, int32_t), *degree = INIT(c, dg, int32_t);
	int32_t *edges = INIT(c, ed, int32_t);
	size_t e = 0;
	for (size_t v = 0; v < n; v++) {
		start[v] = (int32_t)e;
		degree[v] = (int32_t)(r[v] % 6);
		for (int32_t k = 0; k < degree[v]; k++, e++)
			/* the first edge goes on along the chain, most of the time */
			edges[e] = (int32_t)(k == 0 && r[n + v] % 8 ? (v + 1) % n
								   : r[2 * n + e % (4 * n)] % n);
	}
	free(r);
	/* The host's start: node 0 in the frontier and visited, cost -1
	 * elsewhere. */
	int32_t *c0 = INIT(c, cost, int32_t);
	for (size_t v = 0; v < n; v++)
		c0[v] = -1;
	c0[0] = 0;
	INIT(c, mask, uint8_t)[0] = 1;
	INIT(c, vis, uint8_t)[0] = 1;
	start_wants(c);
	int32_t far = ck_bfs(n, start, degree, edges, 0, WANT(c, cost, int32_t), WANT(c, vis, uint8_t));
	/* want: mask and next all 0, again 0 from the last commit */
	memset(WANT(c, mask, uint8_t), 0, n);
	/* far + 1 levels: the last finds nothing and leaves again 0 */
	for (int32_t k = 0; k <= far; k++) {
		ck_launch *l = launch(c, "bfs_expand", blocks(n, 256), 1, 256, 1);
		a_i32(l, (int32_t)n), a_arr(l, st), a_arr(l, dg), a_arr(l, ed), a_arr(l, mask),
			a_arr(l, next), a_arr(l, vis), a_arr(l, cost);
		l = launch(c, "bfs_commit", blocks(n, 256), 1, 256, 1);
		a_i32(l, (int32_t)n), a_arr(l, mask), a_arr(l, next), a_arr(l, vis), a_arr(l, again);
		l->clear = (long)again;
	}
}

/* A diagonally dominant matrix, so that nothing grows out of range. */
static void dominant(float *a, size_t n, uint64_t seed)
{
	fill_f32(a, n * n, seed, 1.0f / 128);
	for (size_t i = 0; i < n; i++)
		a[i * n + i] += (float)n;
}

static void gaussian(ck_case *c, size_t n, size_t m)
{
	(void)m;
	size_t mm = arr(c, "m", 4, n * n, CK_EXACT), a = arr(c, "a", 4, n * n, CK_EXACT);
	size_t b = arr(c, "b", 4, n, CK_EXACT);
	dominant(INIT(c, a, float), n, 13);
	fill_f32(INIT(c, b, float), n, 14, 1.0f);
	start_wants(c);
	ck_gaussian(n, WANT(c, a, float), WANT(c, b, float), WANT(c, mm, float));
	for (size_t t = 0; t + 1 < n; t++) {
		ck_launch *l = launch(c, "fan1", blocks(n - 1 - t, 256), 1, 256, 1);
		a_arr(l, mm), a_arr(l, a), a_i32(l, (int32_t)n), a_i32(l, (int32_t)t);
		l = launch(c, "fan2", blocks(n - t, 16), blocks(n - 1 - t, 16), 16, 16);
		a_arr(l, mm), a_arr(l, a), a_arr(l, b), a_i32(l, (int32_t)n), a_i32(l, (int32_t)t);
	}
}

/* Rodinia's constants for a 0.016 m chip at its grid size, rounded to fp32. */
static void hotspot(ck_case *c, size_t cols, size_t rows)
{
	size_t pw = arr(c, "power", 4, cols * rows, CK_INPUT);
	size_t t0 = arr(c, "temp0", 4, cols * rows, CK_EXACT);
	size_t t1 = arr(c, "temp1", 4, cols * rows, CK_EXACT);
	float *p = INIT(c, pw, float), *t = INIT(c, t0, float);
	fill_f32(p, cols * rows, 15, 1.0f / 256);
	fill_f32(t, cols * rows, 16, 1.0f / 16);
	for (size_t i = 0; i < cols * rows; i++)
		t[i] += 323.0f;
	float sdc = 0.00109f, rx = 0.52f, ry = 0.61f, rz = 0.0037f, amb = 80.0f;
	start_wants(c);
	/* three steps, 0 -> 1 -> 0 -> 1 */
	float *w0 = WANT(c, t0, float), *w1 = WANT(c, t1, float);
	for (int s = 0; s < 3; s++) {
		ck_hotspot(cols, rows, p, s % 2 ? w1 : w0, s % 2 ? w0 : w1, sdc, rx, ry, rz, amb);
		ck_launch *l = launch(c, "hotspot", blocks(cols, 16), blocks(rows, 16), 16, 16);
		a_arr(l, pw), a_arr(l, s % 2 ? t1 : t0), a_arr(l, s % 2 ? t0 : t1);
		a_i32(l, (int32_t)cols), a_i32(l, (int32_t)rows);
		a_f32(l, sdc), a_f32(l, rx), a_f32(l, ry), a_f32(l, rz), a_f32(l, amb);
	}
}

static void lud(ck_case *c, size_t n, size_t m)
{
	(void)m;
	size_t a = arr(c, "a", 4, n * n, CK_EXACT);
	dominant(INIT(c, a, float), n, 17);
	start_wants(c);
	ck_lud(n, WANT(c, a, float));
	for (size_t k = 0; k + 1 < n; k++) {
		ck_launch *l = launch(c, "lud_column", blocks(n - 1 - k, 128), 1, 128, 1);
		a_arr(l, a), a_i32(l, (int32_t)n), a_i32(l, (int32_t)k);
		l = launch(c, "lud_update", blocks(n - 1 - k, 16), blocks(n - 1 - k, 16), 16, 16);
		a_arr(l, a), a_i32(l, (int32_t)n), a_i32(l, (int32_t)k);
	}
}

static void nw(ck_case *c, size_t n, size_t m)
{
	(void)m;
	size_t w = n + 1;
	int32_t penalty = 10;
	size_t sc = arr(c, "score", 4, w * w, CK_EXACT), sm = arr(c, "sim", 4, w * w, CK_INPUT);
	int32_t *s = INIT(c, sm, int32_t), *score = INIT(c, sc, int32_t);
	wk_fill_i32(s, w * w, 18);
	for (size_t i = 0; i < w * w; i++)
		s[i] = (int32_t)((uint32_t)s[i] % 21) - 10; /* a BLOSUM-like range */
	for (size_t i = 0; i < w; i++)
		score[i] = score[i * w] = -(int32_t)i * penalty;
	start_wants(c);
	ck_nw(n, WANT(c, sc, int32_t), s, penalty);
	for (size_t d = 2; d <= 2 * n; d++) {
		size_t cells = d - 1 < n ? d - 1 : n;
		if (2 * n + 1 - d < cells)
			cells = 2 * n + 1 - d;
		ck_launch *l = launch(c, "nw_diagonal", blocks(cells, 64), 1, 64, 1);
		a_arr(l, sc), a_arr(l, sm), a_i32(l, (int32_t)n), a_i32(l, (int32_t)d),
			a_i32(l, penalty);
	}
}

static void pathfinder(ck_case *c, size_t cols, size_t rows)
{
	size_t wl = arr(c, "wall", 4, rows * cols, CK_INPUT);
	size_t b0 = arr(c, "buf0", 4, cols, CK_EXACT), b1 = arr(c, "buf1", 4, cols, CK_EXACT);
	uint32_t *wall = INIT(c, wl, uint32_t);
	fill_u32(wall, rows * cols, 19, 0xff); /* Rodinia's weights are 0..9; bigger here */
	memcpy(INIT(c, b0, int32_t), wall, cols * 4);
	start_wants(c);
	int32_t *last = WANT(c, (rows - 1) % 2 ? b1 : b0, int32_t);
	int32_t *prev = WANT(c, (rows - 1) % 2 ? b0 : b1, int32_t);
	ck_pathfinder(rows, cols, (const int32_t *)wall, last, prev);
	for (size_t r = 1; r < rows; r++) {
		ck_launch *l = launch(c, "pathfinder", blocks(cols, 256), 1, 256, 1);
		a_arr(l, wl), a_arr(l, (r - 1) % 2 ? b1 : b0), a_arr(l, r % 2 ? b1 : b0);
		a_i32(l, (int32_t)cols), a_i32(l, (int32_t)r);
	}
}

static void kmeans(ck_case *c, size_t npoints, size_t nclusters)
{
	size_t nf = 7;
	size_t ft = arr(c, "feature", 4, nf * npoints, CK_INPUT);
	size_t cl = arr(c, "clusters", 4, nclusters * nf, CK_INPUT);
	size_t mb = arr(c, "membership", 4, npoints, CK_EXACT);
	fill_f32(INIT(c, ft, float), nf * npoints, 20, 1.0f / 8);
	float *cv = INIT(c, cl, float);
	fill_f32(cv, nclusters * nf, 21, 1.0f / 8);
	/* two equal centres: a tie goes to the first */
	if (nclusters > 3)
		memcpy(cv + 3 * nf, cv + 1 * nf, nf * 4);
	for (size_t i = 0; i < npoints; i++)
		INIT(c, mb, int32_t)[i] = -1;
	start_wants(c);
	ck_kmeans(npoints, nclusters, nf, INIT(c, ft, float), cv, WANT(c, mb, int32_t));
	ck_launch *l = launch(c, "kmeans_assign", blocks(npoints, 256), 1, 256, 1);
	a_arr(l, ft), a_arr(l, cl), a_arr(l, mb);
	a_i32(l, (int32_t)npoints), a_i32(l, (int32_t)nclusters), a_i32(l, (int32_t)nf);
}

static void vadd(ck_case *c, size_t n, size_t m)
{
	(void)m;
	size_t a = arr(c, "a", 4, n, CK_INPUT), b = arr(c, "b", 4, n, CK_INPUT);
	size_t cc = arr(c, "c", 4, n, CK_EXACT);
	fill_f32(INIT(c, a, float), n, 22, 1.0f);
	fill_f32(INIT(c, b, float), n, 23, 1.0f);
	start_wants(c);
	ck_vadd(n, INIT(c, a, float), INIT(c, b, float), WANT(c, cc, float));
	ck_launch *l = launch(c, "vadd", blocks(n, 128), 1, 128, 1);
	a_arr(l, a), a_arr(l, b), a_arr(l, cc), a_i32(l, (int32_t)n);
}

static void transpose(ck_case *c, size_t rows, size_t cols)
{
	size_t in = arr(c, "in", 4, rows * cols, CK_INPUT);
	size_t out = arr(c, "out", 4, rows * cols, CK_EXACT);
	fill_u32(INIT(c, in, uint32_t), rows * cols, 24, 0xffffffffu);
	start_wants(c);
	ck_transpose(rows, cols, INIT(c, in, uint32_t), WANT(c, out, uint32_t));
	ck_launch *l = launch(c, "transpose", blocks(cols, 16), blocks(rows, 16), 16, 16);
	a_arr(l, in), a_arr(l, out), a_i32(l, (int32_t)rows), a_i32(l, (int32_t)cols);
}

typedef struct ck_entry {
	const char *name, *ptx;
	void (*make)(ck_case *, size_t, size_t);
	size_t n, m;
} ck_entry;

#define CU(f) "samples/cuda/" f ".ptx"
static const ck_entry table[] = {
	{"saxpy_1000", CU("saxpy"), saxpy, 1000, 0},
	{"saxpy_100000", CU("saxpy"), saxpy, 100000, 0},
	{"saxpy32_4099", CU("saxpy32"), saxpy, 4099, 0},
	{"branchy_5000", CU("branchy"), branchy, 5000, 0},
	{"collatz_3000", CU("collatz"), collatz, 3000, 300},
	{"reduce_100000_b256", CU("reduce"), reduce, 100000, 256},
	{"reduce_777_b64", CU("reduce"), reduce, 777, 64},
	{"reduce32_5000_b128", CU("reduce32"), reduce, 5000, 128},
	{"histogram_100000_g13", CU("histogram"), histogram, 100000, 13},
	{"histogram_1000_g1", CU("histogram"), histogram, 1000, 1},
	{"sinexp_1000_approx", CU("sinexp"), sinexp, 1000, 0},
	{"approx_2000", CU("approx"), approx, 2000, 0},
	{"index64_100000", CU("index64"), index64, 100000, 0},
	{"warpsum_10001_b128", CU("warpsum"), warpsum, 10001, 128},
	{"votes_1000", CU("votes"), votes, 1000, 0},
	{"backprop_1024", CU("backprop"), backprop, 1024, 0},
	{"backprop_160", CU("backprop"), backprop, 160, 0},
	{"bfs_5000", CU("bfs"), bfs, 5000, 0},
	{"bfs32_1000", CU("bfs32"), bfs, 1000, 0},
	{"gaussian_37", CU("gaussian"), gaussian, 37, 0},
	{"gaussian_64", CU("gaussian"), gaussian, 64, 0},
	{"hotspot_100x77", CU("hotspot"), hotspot, 100, 77},
	{"lud_50", CU("lud"), lud, 50, 0},
	{"nw_100", CU("nw"), nw, 100, 0},
	{"pathfinder_1000x20", CU("pathfinder"), pathfinder, 1000, 20},
	{"kmeans_5000x5", CU("kmeans"), kmeans, 5000, 5},
	{"vadd_cl_1000", "samples/opencl/vadd.ptx", vadd, 1000, 0},
	/* the same kernel as clang writes it without inlining: get_global_id
	 * is a call (nvptx and nvptx64) */
	{"vadd_cl_call32_1000", "tests/data/ptx/vadd32.ptx", vadd, 1000, 0},
	{"vadd_cl_call64_1000", "tests/data/ptx/vadd64.ptx", vadd, 1000, 0},
	{"transpose_cl_45x70", "samples/opencl/transpose.ptx", transpose, 45, 70},
	{"digits_3000", CU("digits"), digits, 3000, 0},
	{"div64_1000", CU("digits"), div64, 1000, 0},
	{"rotate_1024", CU("digits"), rotate, 1024, 0},
	{"half_1000", CU("half"), half, 1000, 0},
	{"ftz_1000", CU("ftz"), ftz, 1000, 0},
};

size_t ck_case_count(void) { return sizeof table / sizeof table[0]; }

int ck_case_make(size_t i, ck_case *c)
{
	memset(c, 0, sizeof *c);
	if (i >= ck_case_count())
		return -1;
	snprintf(c->name, sizeof c->name, "%s", table[i].name);
	c->ptx = table[i].ptx;
	c->max_steps = 2000000000u;
	table[i].make(c, table[i].n, table[i].m);
	return 0;
}

void ck_case_free(ck_case *c)
{
	for (size_t i = 0; i < c->narrays; i++) {
		free(c->arrays[i].init);
		free(c->arrays[i].want);
	}
	free(c->launches);
	memset(c, 0, sizeof *c);
}
