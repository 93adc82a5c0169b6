/* SPDX-License-Identifier: MIT */
/*
 * strm_case.c: the workloads with strm nodes (kmeans in and out,
 * gather_mlp out) at any size for bench/workloads.py: seeded inputs in
 * the samples' layouts (as tests/test_strm.c writes them at the small
 * size), the plain C kernel's result (tests/kernels/strm_kernels.c), and
 * afterwards the comparison of what infsim saved with it, bit for bit.
 * The outputs fill part of their lattice (A holds a[n] at (0, n)), so
 * infsim saves them (-s) and this program compares the cells that hold
 * results, rather than infsim comparing whole arrays (-e).
 *
 *   kmeans_in, kmeans_out: sizes K (centres, and the dimension D) and N
 *     (points), every array on the (K, N) lattice: X at (d, n), the
 *     centres C at (d, k) (in) or CT at (k, d) (out), S at (d, k), A at
 *     (0, n), CNT at (0, k).
 *   gather_mlp_out, gather_mlp_in: sizes K (= N, the outputs) and M
 *     (rows), arrays on the (K, M) lattice: E at (k, m), IX at (0, m), Y
 *     (out) or YT (in) at (j, m); W row-major in the first K columns
 *     (out), or WT with W[k][j] at (k, j) (in, whose split sums over k
 *     take tiles of TK, the third size).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cases.h"
#include "strm_case.h"
#include "strm_kernels.h"

typedef struct names {
	const char *in[3], *out[3]; /* buffer names, NULL-ended */
} names;

static int put(const char *dir, const char *file, const void *v, size_t n, char *err,
	       size_t errsize)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, file);
	FILE *f = fopen(path, "wb");
	const bool ok = f && fwrite(v, 4, n, f) == n;
	if (f && fclose(f) != 0)
		return snprintf(err, errsize, "%s: cannot write", path), -1;
	if (!ok)
		return snprintf(err, errsize, "%s: cannot write", path), -1;
	return 0;
}

static uint32_t *get(const char *dir, const char *file, size_t n, char *err, size_t errsize)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, file);
	uint32_t *v = malloc(n * 4);
	FILE *f = fopen(path, "rb");
	const bool ok = v && f && fread(v, 4, n, f) == n && fgetc(f) == EOF;
	if (f)
		fclose(f);
	if (!ok) {
		snprintf(err, errsize, "%s: cannot read %zu elements", path, n);
		free(v);
		return NULL;
	}
	return v;
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The kernel's inputs and results, from the same seeds as every run. */
typedef struct km {
	size_t k, n;
	bool f32, inner;
	void *x, *c;          /* n x k points, k x k centres (row-major) */
	int32_t *a, *cnt;     /* n, k */
	void *s;              /* k x k sums */
} km;

static void km_free(km *m)
{
	free(m->x);
	free(m->c);
	free(m->a);
	free(m->cnt);
	free(m->s);
}

static int km_make(km *m, char *err, size_t errsize)
{
	m->x = malloc(m->n * m->k * 4);
	m->c = malloc(m->k * m->k * 4);
	m->a = malloc(m->n * 4);
	m->cnt = calloc(m->k, 4);
	m->s = calloc(m->k * m->k, 4);
	if (!m->x || !m->c || !m->a || !m->cnt || !m->s)
		return snprintf(err, errsize, "out of memory"), -1;
	if (m->f32) {
		wk_fill_f32(m->x, m->n * m->k, 21);
		wk_fill_f32(m->c, m->k * m->k, 22);
	} else {
		int32_t *x = m->x, *c = m->c;
		wk_fill_i32(x, m->n * m->k, 23);
		wk_fill_i32(c, m->k * m->k, 24);
		/* small enough that a distance's sum of squares cannot wrap */
		for (size_t i = 0; i < m->n * m->k; i++)
			x[i] = x[i] % 2001 - 1000;
		for (size_t i = 0; i < m->k * m->k; i++)
			c[i] = c[i] % 2001 - 1000;
	}
	return 0;
}

static void km_kernel(km *m)
{
	if (m->f32)
		sk_kmeans_f32(m->x, m->c, m->n, m->k, m->k, m->inner, m->a, m->s, m->cnt);
	else
		sk_kmeans_i32(m->x, m->c, m->n, m->k, m->k, m->inner, m->a, m->s, m->cnt);
}

static int kmeans_prepare(km *m, const char *dir, char *args, size_t size, double *secs,
			  char *err, size_t errsize)
{
	const size_t L = m->k * m->n, k = m->k;
	uint32_t *cw = calloc(L, 4);
	if (!cw)
		return snprintf(err, errsize, "out of memory"), -1;
	const uint32_t *c = m->c;
	for (size_t q = 0; q < k; q++)
		for (size_t j = 0; j < k; j++)
			cw[m->inner ? q * k + j : j * k + q] = c[q * k + j]; /* C (d, k), CT (k, d) */
	int rc = put(dir, "x.bin", m->x, L, err, errsize) < 0 ||
		 put(dir, "c.bin", cw, L, err, errsize) < 0 ? -1 : 0;
	free(cw);
	if (rc < 0)
		return -1;
	const double t0 = now();
	km_kernel(m);
	*secs = now() - t0;
	snprintf(args, size, "-l X=%s/x.bin -l %s=%s/c.bin -s A=%s/a.bin -s S=%s/s.bin "
		 "-s CNT=%s/cnt.bin", dir, m->inner ? "C" : "CT", dir, dir, dir, dir);
	return 0;
}

static int kmeans_compare(km *m, const char *dir, char *err, size_t errsize)
{
	const size_t L = m->k * m->n, k = m->k;
	km_kernel(m);
	uint32_t *a = get(dir, "a.bin", L, err, errsize), *cnt = NULL, *s = NULL;
	int rc = -1;
	if (!a || !(cnt = get(dir, "cnt.bin", L, err, errsize)) ||
	    !(s = get(dir, "s.bin", L, err, errsize)))
		goto done;
	for (size_t i = 0; i < m->n; i++)
		if ((int32_t)a[k * i] != m->a[i]) {
			snprintf(err, errsize, "A: a[%zu]: C %" PRId32 ", infsim %" PRId32, i,
				 m->a[i], (int32_t)a[k * i]);
			goto done;
		}
	for (size_t q = 0; q < k; q++)
		if ((int32_t)cnt[k * q] != m->cnt[q]) {
			snprintf(err, errsize, "CNT: cnt[%zu]: C %" PRId32 ", infsim %" PRId32, q,
				 m->cnt[q], (int32_t)cnt[k * q]);
			goto done;
		}
	const uint32_t *want = m->s;
	for (size_t i = 0; i < k * k; i++)
		if (s[i] != want[i]) {
			snprintf(err, errsize, "S: s[%zu][%zu]: C 0x%08" PRIx32 ", infsim 0x%08" PRIx32,
				 i / k, i % k, want[i], s[i]);
			goto done;
		}
	rc = 0;
done:
	free(a);
	free(cnt);
	free(s);
	return rc;
}

/* gather_mlp out: idx[m] = (7 m + 3) mod M, as bench/workloads.py's
 * index file at the paper's size. */
typedef struct gm {
	size_t k, m, tk;      /* tk: gather_mlp_in's tile along k; 0 for out */
	bool f32;
	void *e, *w, *y;     /* m x k, k x k, m x k */
	int32_t *idx;
} gm;

static void gm_free(gm *g)
{
	free(g->e);
	free(g->w);
	free(g->y);
	free(g->idx);
}

static int gm_make(gm *g, char *err, size_t errsize)
{
	g->e = malloc(g->m * g->k * 4);
	g->w = malloc(g->k * g->k * 4);
	g->y = malloc(g->m * g->k * 4);
	g->idx = malloc(g->m * 4);
	if (!g->e || !g->w || !g->y || !g->idx)
		return snprintf(err, errsize, "out of memory"), -1;
	if (g->f32) {
		wk_fill_f32(g->e, g->m * g->k, 1);
		wk_fill_f32(g->w, g->k * g->k, 2);
	} else {
		wk_fill_i32(g->e, g->m * g->k, 3);
		wk_fill_i32(g->w, g->k * g->k, 4);
	}
	for (size_t r = 0; r < g->m; r++)
		g->idx[r] = (int32_t)((7 * r + 3) % g->m);
	return 0;
}

static void gm_kernel(gm *g)
{
	if (g->tk && g->f32)
		sk_gather_mlp_in_f32(g->e, g->idx, g->w, g->y, g->m, g->k, g->k, g->tk);
	else if (g->tk)
		sk_gather_mlp_in_i32(g->e, g->idx, g->w, g->y, g->m, g->k, g->k, g->tk);
	else if (g->f32)
		sk_gather_mlp_out_f32(g->e, g->idx, g->w, g->y, g->m, g->k, g->k);
	else
		sk_gather_mlp_out_i32(g->e, g->idx, g->w, g->y, g->m, g->k, g->k);
}

static int gather_prepare(gm *g, const char *dir, char *args, size_t size, double *secs,
			  char *err, size_t errsize)
{
	const size_t L = g->k * g->m;
	uint32_t *ix = calloc(L, 4), *w = calloc(L, 4);
	int rc = -1;
	if (!ix || !w) {
		snprintf(err, errsize, "out of memory");
		goto done;
	}
	for (size_t r = 0; r < g->m; r++)
		ix[r * g->k] = (uint32_t)g->idx[r];
	const uint32_t *wk = g->w;
	for (size_t k = 0; k < g->k; k++)
		for (size_t j = 0; j < g->k; j++)
			w[g->tk ? j * g->k + k : k * g->k + j] = wk[k * g->k + j]; /* WT (k, j), W */
	if (put(dir, "e.bin", g->e, L, err, errsize) < 0 ||
	    put(dir, "ix.bin", ix, L, err, errsize) < 0 || put(dir, "w.bin", w, L, err, errsize) < 0)
		goto done;
	const double t0 = now();
	gm_kernel(g);
	*secs = now() - t0;
	snprintf(args, size, "-l E=%s/e.bin -l IX=%s/ix.bin -l %s=%s/w.bin -s %s=%s/y.bin", dir,
		 dir, g->tk ? "WT" : "W", dir, g->tk ? "YT" : "Y", dir);
	rc = 0;
done:
	free(ix);
	free(w);
	return rc;
}

static int gather_compare(gm *g, const char *dir, char *err, size_t errsize)
{
	gm_kernel(g);
	uint32_t *y = get(dir, "y.bin", g->k * g->m, err, errsize);
	if (!y)
		return -1;
	const uint32_t *want = g->y;
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < g->k * g->m; i++)
		if (y[i] != want[i]) {
			snprintf(err, errsize, "Y: y[%zu][%zu]: C 0x%08" PRIx32 ", infsim 0x%08" PRIx32,
				 i / g->k, i % g->k, want[i], y[i]);
			rc = -1;
		}
	free(y);
	return rc;
}

bool strm_case_known(const char *name)
{
	return !strcmp(name, "kmeans_in") || !strcmp(name, "kmeans_out") ||
	       !strcmp(name, "gather_mlp_out") || !strcmp(name, "gather_mlp_in");
}

int strm_case(const char *name, bool f32, const char *dir, size_t k, size_t n, size_t t,
	      bool compare, char *args, size_t size, double *secs, char *err, size_t errsize)
{
	int rc;
	if (!strncmp(name, "gather_mlp_", 11)) {
		const bool in = !strcmp(name, "gather_mlp_in");
		if (in && (!t || k % t)) {
			snprintf(err, errsize, "the tile along k (%zu) must divide K (%zu)", t, k);
			return -1;
		}
		gm g = {.k = k, .m = n, .tk = in ? t : 0, .f32 = f32};
		rc = gm_make(&g, err, errsize);
		if (rc == 0)
			rc = compare ? gather_compare(&g, dir, err, errsize)
				     : gather_prepare(&g, dir, args, size, secs, err, errsize);
		gm_free(&g);
		return rc;
	}
	km m = {.k = k, .n = n, .f32 = f32, .inner = !strcmp(name, "kmeans_in")};
	rc = km_make(&m, err, errsize);
	if (rc == 0)
		rc = compare ? kmeans_compare(&m, dir, err, errsize)
			     : kmeans_prepare(&m, dir, args, size, secs, err, errsize);
	km_free(&m);
	return rc;
}
