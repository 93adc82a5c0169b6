/* SPDX-License-Identifier: MIT */
/*
 * test_nsc.c: near-stream computing (emu/nsc/, doc/STREAMS.md).
 *
 *   work      the twelve NSC workloads of samples/nsc/ against plain C
 *             kernels written here, bit for bit (graphs: a seeded
 *             Kronecker graph; bin_tree: a random search tree), under the
 *             floating decision and forced to the core and to the banks;
 *   ref       every sample equals the reference (ref.c) in every setting;
 *   alias     core stores injected under the streams: with range
 *             synchronisation the results do not change and the offload
 *             ends; in sync-free mode (a promise broken) they do change;
 *   float     the decision: footprint against the private cache, history,
 *             aliasing loads, indirect reductions longer than 4 x banks;
 *   msgs      message invariants and hand-counted hops and messages;
 *   nest      nested stream configurations: svm and bfs_pull offloaded,
 *             messages by hand, what the program's structure makes a nest;
 *   errors    bad programs, each with its one located message;
 *   cli       infsim nsc / infsim run PROG.nsc, --check, --stats, files.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nsc.h"

#define RUN_TMP_PREFIX "test_nsc"
#include "infsim_run.h"

/* ---- programs on the engines ---- */

typedef struct prog {
	nsc_program p;
	nsc_mem init, m;
	nsc_stats st;
	nsc_settings s;
	diag d;
} prog;

static char *slurp_sample(const char *name)
{
	char path[512];
	snprintf(path, sizeof path, "%s/samples/nsc/%s", SRCDIR, name);
	char *t = proc_slurp(path, NULL);
	cr_assert_not_null(t, "%s", path);
	return t;
}

static void prog_open(prog *g, const char *name, const char *text, const nsc_define *defs, int ndefs)
{
	memset(g, 0, sizeof *g);
	cr_assert_eq(nsc_parse(name, text, strlen(text), defs, ndefs, &g->p, &g->d), 0, "%s", g->d.msg);
	cr_assert_eq(nsc_mem_init(&g->init, &g->p, &g->d), 0, "%s", g->d.msg);
	nsc_settings_default(&g->s);
}

static void prog_sample(prog *g, const char *name, const nsc_define *defs, int ndefs)
{
	char *t = slurp_sample(name);
	prog_open(g, name, t, defs, ndefs);
	free(t);
}

/* Run on the engines from the initial memory (again if already run). */
static void prog_run(prog *g)
{
	if (g->m.data)
		nsc_mem_free(&g->m);
	cr_assert_eq(nsc_mem_copy(&g->m, &g->init, &g->d), 0);
	cr_assert_eq(nsc_run(&g->p, &g->m, &g->s, &g->st, &g->d), 0, "%s", g->d.msg);
}

static void prog_close(prog *g)
{
	if (g->m.data)
		nsc_mem_free(&g->m);
	nsc_mem_free(&g->init);
	nsc_program_free(&g->p);
}

static int arr(prog *g, const char *name)
{
	int a = nsc_array_find(&g->p, name);
	cr_assert_geq(a, 0, "no array %s", name);
	return a;
}

static int64_t geti(const nsc_mem *m, int a, uint64_t i)
{
	return nsc_mem_get(m, a, i).u.i;
}

static float getf(const nsc_mem *m, int a, uint64_t i)
{
	return nsc_mem_get(m, a, i).u.f;
}

static void seti(nsc_mem *m, int a, uint64_t i, int64_t v)
{
	nsc_mem_put(m, a, i, (nsc_val){ .k = 'i', .u.i = v });
}

/* The engines' array a equals want (n int64 values) exactly. */
static void expect_ints(prog *g, const char *name, const int64_t *want, uint64_t n)
{
	int a = arr(g, name);
	for (uint64_t i = 0; i < n; i++)
		cr_assert_eq(geti(&g->m, a, i), want[i], "%s[%llu] is %lld, C says %lld", name,
			     (unsigned long long)i, (long long)geti(&g->m, a, i), (long long)want[i]);
}

static void expect_floats(prog *g, const char *name, const float *want, uint64_t n)
{
	int a = arr(g, name);
	for (uint64_t i = 0; i < n; i++) {
		float x = getf(&g->m, a, i);
		cr_assert(!memcmp(&x, &want[i], 4), "%s[%llu] is %.9g, C says %.9g", name, (unsigned long long)i,
			  (double)x, (double)want[i]);
	}
}

/* The settings a workload runs in: the decision with a private cache
 * scaled with the small sizes, and both forced decisions. */
static const struct { nsc_float_mode f; unsigned cache, window; } modes[] = {
	{ NSC_FLOAT_AUTO, 512, 16 }, { NSC_FLOAT_CORE, 512, 16 }, { NSC_FLOAT_BANK, 512, 16 },
	{ NSC_FLOAT_BANK, 512, 0 }, { NSC_FLOAT_AUTO, 256u << 10, 16 },
};
#define NMODES (sizeof modes / sizeof modes[0])

static void set_mode(prog *g, size_t k)
{
	g->s.floating = modes[k].f;
	g->s.cache_bytes = modes[k].cache;
	g->s.window = modes[k].window;
}

/* ---- the documented placement (doc/STREAMS.md, "Memory") ---- */

/* Bank of element i of array k, placing the arrays of sizes[] (bytes) in
 * order from 0x100000, each on a 4 KB boundary, 64 B interleave. */
static unsigned bank_of_elem(const uint64_t *sizes, int k, uint64_t i, unsigned esize)
{
	uint64_t base = 0x100000;
	for (int j = 0; j < k; j++)
		base = (base + sizes[j] + 4095) / 4096 * 4096;
	return (unsigned)(((base + i * esize) / 64) % 64);
}

/* ---- a seeded Kronecker graph (Graph500's generator, A/B/C = .57/.19/.19) ---- */

static uint64_t rng_state;
static uint64_t rng(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}
static double rnd(void)
{
	return (double)(rng() >> 11) / 9007199254740992.0;
}

typedef struct graph {
	int v, e;
	int *src, *dst, *w;
	int *off, *col, *wt;      /* CSR by source */
	int *ioff, *icol;         /* CSR by target */
} graph;

static void csr(int v, int e, const int *from, const int *to, const int *w, int **off, int **col, int **wt)
{
	*off = calloc((size_t)v + 1, sizeof **off);
	*col = malloc((size_t)e * sizeof **col);
	if (wt)
		*wt = malloc((size_t)e * sizeof **wt);
	for (int k = 0; k < e; k++)
		(*off)[from[k] + 1]++;
	for (int u = 0; u < v; u++)
		(*off)[u + 1] += (*off)[u];
	int *fill = calloc((size_t)v, sizeof *fill);
	for (int k = 0; k < e; k++) {
		int at = (*off)[from[k]] + fill[from[k]]++;
		(*col)[at] = to[k];
		if (wt)
			(*wt)[at] = w[k];
	}
	free(fill);
}

static void kronecker(graph *g, int scale, int edge_factor, uint64_t seed)
{
	rng_state = seed;
	g->v = 1 << scale;
	g->e = g->v * edge_factor;
	g->src = malloc((size_t)g->e * sizeof *g->src);
	g->dst = malloc((size_t)g->e * sizeof *g->dst);
	g->w = malloc((size_t)g->e * sizeof *g->w);
	for (int k = 0; k < g->e; k++) {
		int u = 0, v = 0;
		for (int b = 0; b < scale; b++) {
			double r = rnd();
			int hi = r >= 0.57 + 0.19, lo = (r >= 0.57 && r < 0.76) || r >= 0.95;
			u = 2 * u + hi;
			v = 2 * v + lo;
		}
		g->src[k] = u;
		g->dst[k] = v;
		g->w[k] = 1 + (int)(rng() % 255);
	}
	csr(g->v, g->e, g->src, g->dst, g->w, &g->off, &g->col, &g->wt);
	csr(g->v, g->e, g->dst, g->src, NULL, &g->ioff, &g->icol, NULL);
}

static void graph_free(graph *g)
{
	free(g->src); free(g->dst); free(g->w); free(g->off); free(g->col); free(g->wt);
	free(g->ioff); free(g->icol);
}

static void load_ints(prog *g, const char *name, const int *v, int n)
{
	int a = arr(g, name);
	cr_assert_eq(g->p.arrays[a].count, (uint64_t)n, "%s", name);
	for (int i = 0; i < n; i++)
		seti(&g->init, a, (uint64_t)i, v[i]);
}

/* Open a graph sample on g's Kronecker graph. */
static void graph_prog(prog *p, const char *name, const graph *gr)
{
	nsc_define defs[] = { { "V", gr->v }, { "E", gr->e } };
	prog_sample(p, name, defs, 2);
}

/* ---- work: each workload against plain C ---- */

Test(work, histogram)
{
	prog g;
	prog_sample(&g, "histogram.nsc", NULL, 0);
	int a = arr(&g, "A");
	int64_t h[64] = { 0 };
	for (uint64_t i = 0; i < 4096; i++)
		h[((uint32_t)geti(&g.init, a, i) >> 26) & 63]++;
	for (size_t k = 0; k < NMODES; k++) {
		set_mode(&g, k);
		prog_run(&g);
		expect_ints(&g, "H", h, 64);
	}
	prog_close(&g);
}

Test(work, pathfinder)
{
	prog g;
	prog_sample(&g, "pathfinder.nsc", NULL, 0);
	enum { T = 4, C = 256, R = 2 * T + 1 };
	int wa = arr(&g, "wall");
	int64_t cost[C], nxt[C];
	for (int j = 0; j < C; j++)
		cost[j] = geti(&g.init, wa, (uint64_t)j);
	for (int r = 1; r < R; r++) {
		for (int j = 0; j < C; j++) {
			int64_t m = cost[j];
			if (j > 0 && cost[j - 1] < m)
				m = cost[j - 1];
			if (j < C - 1 && cost[j + 1] < m)
				m = cost[j + 1];
			nxt[j] = geti(&g.init, wa, (uint64_t)(r * C + j)) + m;
		}
		memcpy(cost, nxt, sizeof cost);
	}
	int64_t want[C + 2];
	want[0] = want[C + 1] = 1 << 30;
	memcpy(want + 1, cost, sizeof cost);
	for (size_t k = 0; k < NMODES; k++) {
		set_mode(&g, k);
		prog_run(&g);
		expect_ints(&g, "P", want, C + 2);
	}
	prog_close(&g);
}

static float hot(float t, float n, float s, float w, float e, float p)
{
	return t + 0.5f * (p + (n + s - 2.0f * t) * 0.25f + (e + w - 2.0f * t) * 0.125f + (80.0f - t) * 0.0625f);
}

Test(work, hotspot)
{
	prog g;
	prog_sample(&g, "hotspot.nsc", NULL, 0);
	enum { R = 32, C = 64, ITER = 4 };
	static float t[2][R * C], pw[R * C];
	for (int i = 0; i < R * C; i++) {
		t[0][i] = getf(&g.init, arr(&g, "T0"), (uint64_t)i);
		t[1][i] = 0;
		pw[i] = getf(&g.init, arr(&g, "PW"), (uint64_t)i);
	}
	for (int it = 0; it < ITER; it++) {
		float *a = t[it % 2], *b = t[1 - it % 2];
		for (int i = 1; i < R - 1; i++)
			for (int j = 1; j < C - 1; j++) {
				int c = i * C + j;
				b[c] = hot(a[c], a[c - C], a[c + C], a[c - 1], a[c + 1], pw[c]);
			}
	}
	for (size_t k = 0; k < NMODES; k++) {
		set_mode(&g, k);
		prog_run(&g);
		expect_floats(&g, "T0", t[0], R * C);
		expect_floats(&g, "T1", t[1], R * C);
	}
	prog_close(&g);
}

static float hot3(float c, float w, float e, float n, float s, float b, float t, float p)
{
	return c * 0.4f + (w + e) * 0.1f + (n + s) * 0.1f + (b + t) * 0.1f + p * 0.05f + 0.004f;
}

/* Table VI's hotspot3D: the 7-point update on the interior cells, in C. */
Test(work, hotspot3d)
{
	prog g;
	prog_sample(&g, "hotspot3d.nsc", NULL, 0);
	enum { Z = 4, Y = 16, X = 32, ITER = 4, L = Y * X };
	static float t[2][Z * L], pw[Z * L];
	for (int i = 0; i < Z * L; i++) {
		t[0][i] = getf(&g.init, arr(&g, "T0"), (uint64_t)i);
		t[1][i] = 0;
		pw[i] = getf(&g.init, arr(&g, "PW"), (uint64_t)i);
	}
	for (int it = 0; it < ITER; it++) {
		float *a = t[it % 2], *o = t[1 - it % 2];
		for (int z = 1; z < Z - 1; z++)
			for (int y = 1; y < Y - 1; y++)
				for (int x = 1; x < X - 1; x++) {
					int c = z * L + y * X + x;
					o[c] = hot3(a[c], a[c - 1], a[c + 1], a[c - X], a[c + X], a[c - L], a[c + L], pw[c]);
				}
	}
	for (size_t k = 0; k < NMODES; k++) {
		set_mode(&g, k);
		prog_run(&g);
		expect_floats(&g, "T0", t[0], Z * L);
		expect_floats(&g, "T1", t[1], Z * L);
	}
	prog_close(&g);
}

/* Table VI's scluster: each point's cost to its centre, then pgain's
 * distances to ITER candidates, the points they would take, and the gain. */
Test(work, scluster)
{
	prog g;
	prog_sample(&g, "scluster.nsc", NULL, 0);
	enum { N = 512, D = 4, K = 16, ITER = 5 };
	static float pt[N * D], ctr[K * D], cost[N], gain[ITER];
	static int64_t sw[ITER * N];
	int asg[N];
	for (int i = 0; i < N * D; i++)
		pt[i] = getf(&g.init, arr(&g, "P"), (uint64_t)i);
	for (int i = 0; i < K * D; i++)
		ctr[i] = getf(&g.init, arr(&g, "C"), (uint64_t)i);
	for (int i = 0; i < N; i++) {
		asg[i] = (int)geti(&g.init, arr(&g, "asg"), (uint64_t)i);
		cr_assert(asg[i] >= 0 && asg[i] < K);
		const float *p = &pt[i * D], *c = &ctr[asg[i] * D];
		cost[i] = (p[0] - c[0]) * (p[0] - c[0]) + (p[1] - c[1]) * (p[1] - c[1]) + (p[2] - c[2]) * (p[2] - c[2]) +
			  (p[3] - c[3]) * (p[3] - c[3]);
	}
	for (int x = 0; x < ITER; x++) {
		const float *px = &pt[x * (N / ITER) * D];
		float acc = 0.0f;
		for (int i = 0; i < N; i++) {
			const float *p = &pt[i * D];
			float q0 = (p[0] - px[0]) * (p[0] - px[0]), q1 = (p[1] - px[1]) * (p[1] - px[1]);
			float q2 = (p[2] - px[2]) * (p[2] - px[2]), q3 = (p[3] - px[3]) * (p[3] - px[3]);
			float d = q0 + q1 + q2 + q3;
			sw[x * N + i] = d < cost[i];
			float v = d - cost[i];
			acc = acc + (0.0f < v ? 0.0f : v);
		}
		gain[x] = acc;
	}
	int64_t some = 0;
	for (int i = 0; i < ITER * N; i++)
		some += sw[i];
	cr_assert(some > 0 && some < ITER * N, "sw is all %lld", (long long)sw[0]);
	for (size_t k = 0; k < NMODES; k++) {
		set_mode(&g, k);
		prog_run(&g);
		expect_floats(&g, "cost", cost, N);
		expect_ints(&g, "sw", sw, ITER * N);
		expect_floats(&g, "G", gain, ITER);
	}
	prog_close(&g);
}

Test(work, srad)
{
	prog g;
	prog_sample(&g, "srad.nsc", NULL, 0);
	enum { R = 24, C = 40, N = R * C, ITER = 2 };
	static float J[N], K[N], D[N];
	for (int i = 0; i < N; i++) {
		J[i] = getf(&g.init, arr(&g, "J"), (uint64_t)i);
		K[i] = D[i] = 0;
	}
	for (int it = 0; it < ITER; it++) {
		float sum = 0, sq = 0;
		for (int i = 0; i < N; i++) {
			sum = sum + J[i];
			sq = sq + J[i] * J[i];
		}
		float mean = sum / (float)N;
		float q0 = (sq / (float)N - mean * mean) / (mean * mean);
		for (int i = 1; i < R - 1; i++)
			for (int j = 1; j < C - 1; j++) {
				int x = i * C + j;
				float c = J[x], n = J[x - C], s = J[x + C], w = J[x - 1], e = J[x + 1];
				float g2 = 0.5f * ((n - c) * (n - c) + (s - c) * (s - c) + (w - c) * (w - c) + (e - c) * (e - c)) / (c * c);
				float l = (n + s + w + e - 4.0f * c) / c;
				float num = g2 - 0.0625f * l * l;
				float den = (1.0f + 0.25f * l) * (1.0f + 0.25f * l);
				D[x] = 1.0f / (1.0f + (num / den - q0) / (q0 * (1.0f + q0)));
			}
		for (int i = 1; i < R - 1; i++)
			for (int j = 1; j < C - 1; j++) {
				int x = i * C + j;
				float c = J[x];
				K[x] = c + 0.125f * (D[x] * (J[x - C] - c) + D[x + C] * (J[x + C] - c) + D[x] * (J[x - 1] - c) +
						     D[x + 1] * (J[x + 1] - c));
			}
		for (int i = 1; i < R - 1; i++)
			for (int j = 1; j < C - 1; j++)
				J[i * C + j] = K[i * C + j];
	}
	for (size_t k = 0; k < NMODES; k++) {
		set_mode(&g, k);
		prog_run(&g);
		expect_floats(&g, "J", J, N);
		expect_floats(&g, "D", D, N);
	}
	prog_close(&g);
}

/* svm's weight reduction: per-bank partials (bank of &w[i]) in bank order. */
Test(work, svm)
{
	prog g;
	prog_sample(&g, "svm.nsc", NULL, 0);
	enum { S = 64, K = 32, F = 1024 };
	const uint64_t sizes[] = { S * K * 4, S * K * 4, F * 4, S * 4 };
	float want[S];
	for (int s = 0; s < S; s++) {
		float part[64];
		bool has[64] = { false };
		for (int k = 0; k < K; k++) {
			int64_t i = geti(&g.init, arr(&g, "idx"), (uint64_t)(s * K + k));
			float y = getf(&g.init, arr(&g, "w"), (uint64_t)i) * getf(&g.init, arr(&g, "val"), (uint64_t)(s * K + k));
			unsigned b = bank_of_elem(sizes, 2, (uint64_t)i, 4);
			part[b] = has[b] ? part[b] + y : y;
			has[b] = true;
		}
		float acc = 0.0f;
		for (int b = 0; b < 64; b++)
			if (has[b])
				acc = acc + part[b];
		want[s] = acc;
	}
	for (size_t k = 0; k < NMODES; k++) {
		set_mode(&g, k);
		prog_run(&g);
		expect_floats(&g, "score", want, S);
	}
	prog_close(&g);
}

/* Level-bounded breadth-first search with a queue. */
static void bfs(const graph *gr, int depth, int64_t *dist, int64_t inf)
{
	int *q = malloc((size_t)gr->v * sizeof *q), h = 0, t = 0;
	for (int v = 0; v < gr->v; v++)
		dist[v] = inf;
	dist[0] = 0;
	q[t++] = 0;
	while (h < t) {
		int u = q[h++];
		if (dist[u] >= depth)
			continue;
		for (int k = gr->off[u]; k < gr->off[u + 1]; k++)
			if (dist[gr->col[k]] == inf) {
				dist[gr->col[k]] = dist[u] + 1;
				q[t++] = gr->col[k];
			}
	}
	free(q);
}

static void run_graph_modes(prog *p, const char *out, const int64_t *want, int n)
{
	for (size_t k = 0; k < NMODES; k++) {
		set_mode(p, k);
		prog_run(p);
		expect_ints(p, out, want, (uint64_t)n);
	}
}

Test(work, bfs_push)
{
	graph gr;
	kronecker(&gr, 8, 8, 1);
	prog p;
	graph_prog(&p, "bfs_push.nsc", &gr);
	load_ints(&p, "off", gr.off, gr.v + 1);
	load_ints(&p, "col", gr.col, gr.e);
	int64_t want[256];
	bfs(&gr, 12, want, 1000000);
	run_graph_modes(&p, "dist", want, gr.v);
	cr_assert_gt(p.st.atomic_locks, 0);
	prog_close(&p);
	graph_free(&gr);
}

/* bfs_pull.nsc on a Kronecker graph of 256 vertices, with the C
 * breadth-first search's distances from vertex 12 in want. */
static void bfs_pull_prog(prog *p, graph *gr, int64_t want[256])
{
	kronecker(gr, 8, 8, 2);
	graph_prog(p, "bfs_pull.nsc", gr);
	load_ints(p, "in_off", gr->ioff, gr->v + 1);
	load_ints(p, "in_col", gr->icol, gr->e);
	bfs(gr, 12, want, 1000000);
}

Test(work, bfs_pull)
{
	graph gr;
	prog p;
	int64_t want[256];
	bfs_pull_prog(&p, &gr, want);
	run_graph_modes(&p, "dist", want, gr.v);
	prog_close(&p);
	graph_free(&gr);
}

Test(work, sssp)
{
	graph gr;
	kronecker(&gr, 8, 8, 3);
	prog p;
	graph_prog(&p, "sssp.nsc", &gr);
	load_ints(&p, "off", gr.off, gr.v + 1);
	int ew = arr(&p, "EW");
	for (int k = 0; k < gr.e; k++) {
		seti(&p.init, ew, (uint64_t)(2 * k), gr.col[k]);
		seti(&p.init, ew, (uint64_t)(2 * k + 1), gr.wt[k]);
	}
	/* Dijkstra */
	const int64_t INF = 1000000000;
	int64_t want[256];
	bool done[256] = { false };
	for (int v = 0; v < gr.v; v++)
		want[v] = INF;
	want[0] = 0;
	for (;;) {
		int u = -1;
		for (int v = 0; v < gr.v; v++)
			if (!done[v] && want[v] < INF && (u < 0 || want[v] < want[u]))
				u = v;
		if (u < 0)
			break;
		done[u] = true;
		for (int k = gr.off[u]; k < gr.off[u + 1]; k++)
			if (want[u] + gr.wt[k] < want[gr.col[k]])
				want[gr.col[k]] = want[u] + gr.wt[k];
	}
	run_graph_modes(&p, "dist", want, gr.v);
	prog_close(&p);
	graph_free(&gr);
}

Test(work, pr_push)
{
	graph gr;
	kronecker(&gr, 8, 8, 4);
	prog p;
	graph_prog(&p, "pr_push.nsc", &gr);
	load_ints(&p, "off", gr.off, gr.v + 1);
	load_ints(&p, "col", gr.col, gr.e);
	float rank[256], next[256];
	for (int v = 0; v < gr.v; v++)
		rank[v] = 0.00390625f;
	for (int it = 0; it < 3; it++) {
		for (int v = 0; v < gr.v; v++)
			next[v] = 0.0f;
		for (int u = 0; u < gr.v; u++) {
			int deg = gr.off[u + 1] - gr.off[u];
			if (deg <= 0)
				continue;
			float share = rank[u] / (float)deg;
			for (int k = gr.off[u]; k < gr.off[u + 1]; k++)
				next[gr.col[k]] = next[gr.col[k]] + share;
		}
		for (int v = 0; v < gr.v; v++)
			rank[v] = 0.15f / (float)gr.v + 0.85f * next[v];
	}
	for (size_t k = 0; k < NMODES; k++) {
		set_mode(&p, k);
		prog_run(&p);
		expect_floats(&p, "rank", rank, (uint64_t)gr.v);
	}
	prog_close(&p);
	graph_free(&gr);
}

/* pr_pull's sums: per-bank partials keyed by &contrib[u], in bank order. */
Test(work, pr_pull)
{
	graph gr;
	kronecker(&gr, 8, 8, 5);
	prog p;
	graph_prog(&p, "pr_pull.nsc", &gr);
	load_ints(&p, "in_off", gr.ioff, gr.v + 1);
	load_ints(&p, "in_col", gr.icol, gr.e);
	int od = arr(&p, "outdeg");
	for (int u = 0; u < gr.v; u++)
		seti(&p.init, od, (uint64_t)u, gr.off[u + 1] - gr.off[u]);
	const int V = gr.v;
	const uint64_t sizes[] = { (uint64_t)(V + 1) * 4, (uint64_t)gr.e * 4, (uint64_t)V * 4, (uint64_t)V * 4 };
	float rank[256], contrib[256], next[256];
	for (int v = 0; v < V; v++)
		rank[v] = 0.00390625f;
	for (int it = 0; it < 3; it++) {
		for (int u = 0; u < V; u++) {
			int d = gr.off[u + 1] - gr.off[u];
			contrib[u] = d > 0 ? rank[u] / (float)d : 0.0f;
		}
		for (int v = 0; v < V; v++) {
			float part[64];
			bool has[64] = { false };
			for (int k = gr.ioff[v]; k < gr.ioff[v + 1]; k++) {
				unsigned b = bank_of_elem(sizes, 4, (uint64_t)gr.icol[k], 4);
				part[b] = has[b] ? part[b] + contrib[gr.icol[k]] : contrib[gr.icol[k]];
				has[b] = true;
			}
			float s = 0.0f;
			for (int b = 0; b < 64; b++)
				if (has[b])
					s = s + part[b];
			next[v] = 0.15f / (float)V + 0.85f * s;
		}
		memcpy(rank, next, sizeof rank);
	}
	for (size_t k = 0; k < NMODES; k++) {
		set_mode(&p, k);
		prog_run(&p);
		expect_floats(&p, "rank", rank, (uint64_t)V);
	}
	prog_close(&p);
	graph_free(&gr);
}

/* A random binary search tree in T (4 i64 a node: key, left, right, value). */
Test(work, bin_tree)
{
	enum { N = 64, Q = 32 };
	prog p;
	nsc_define nobuild = { "BUILD", 0 };
	prog_sample(&p, "bin_tree.nsc", &nobuild, 1);
	int64_t key[N], left[N], right[N];
	rng_state = 7;
	int t = arr(&p, "T");
	for (int i = 0; i < N; i++) {
		bool fresh;
		do {
			key[i] = (int64_t)(rng() % (2 * N));
			fresh = true;
			for (int j = 0; j < i; j++)
				fresh &= key[j] != key[i];
		} while (!fresh);
		left[i] = right[i] = -1;
		for (int at = 0; i > 0;) {
			int64_t *child = key[i] < key[at] ? &left[at] : &right[at];
			if (*child < 0) {
				*child = i;
				break;
			}
			at = (int)*child;
		}
	}
	for (int i = 0; i < N; i++) {
		seti(&p.init, t, (uint64_t)(4 * i), key[i]);
		seti(&p.init, t, (uint64_t)(4 * i + 1), left[i] < 0 ? -1 : 4 * left[i]);
		seti(&p.init, t, (uint64_t)(4 * i + 2), right[i] < 0 ? -1 : 4 * right[i]);
		seti(&p.init, t, (uint64_t)(4 * i + 3), 1000 + i);
	}
	int64_t found[Q], steps[Q];
	int ka = arr(&p, "keys");
	for (int q = 0; q < Q; q++) {
		int64_t K = geti(&p.init, ka, (uint64_t)q), n = 0, at = 0;
		found[q] = -1;
		while (at >= 0) {
			n++;
			if (key[at] == K) {
				found[q] = 1000 + at;
				break;
			}
			at = K < key[at] ? left[at] : right[at];
		}
		steps[q] = n;
	}
	for (size_t k = 0; k < NMODES; k++) {
		set_mode(&p, k);
		prog_run(&p);
		expect_ints(&p, "found", found, Q);
		expect_ints(&p, "steps", steps, Q);
	}
	prog_close(&p);
}

Test(work, hash_join)
{
	enum { NR = 128, NS = 256, B = 64 };
	prog p;
	prog_sample(&p, "hash_join.nsc", NULL, 0);
	int64_t sum[NS], cnt[NS];
	int ra = arr(&p, "rkey"), sa = arr(&p, "skey");
	for (int q = 0; q < NS; q++) {
		int64_t K = geti(&p.init, sa, (uint64_t)q);
		sum[q] = cnt[q] = 0;
		for (int i = 0; i < NR; i++)
			if (geti(&p.init, ra, (uint64_t)i) == K) {
				sum[q] += i;
				cnt[q]++;
			}
	}
	for (size_t k = 0; k < NMODES; k++) {
		set_mode(&p, k);
		prog_run(&p);
		expect_ints(&p, "sum", sum, NS);
		expect_ints(&p, "cnt", cnt, NS);
	}
	prog_close(&p);
}

/* ---- ref: every sample equals the reference in every setting ---- */

static const char *const samples[] = {
	"histogram.nsc", "pathfinder.nsc", "hotspot.nsc", "hotspot3d.nsc", "srad.nsc", "scluster.nsc", "svm.nsc",
	"bfs_push.nsc",
	"sssp.nsc", "pr_push.nsc", "bfs_pull.nsc", "pr_pull.nsc", "bin_tree.nsc", "hash_join.nsc",
};
#define NSAMPLES (sizeof samples / sizeof samples[0])

/* The engines and the reference from the same memory agree on every array. */
static void expect_ref(prog *g)
{
	nsc_mem r;
	cr_assert_eq(nsc_mem_copy(&r, &g->init, &g->d), 0);
	cr_assert_eq(nsc_ref_run(&g->p, &r, &g->s, &g->d), 0, "%s", g->d.msg);
	for (int a = 0; a < g->p.narrays; a++)
		cr_assert_eq(nsc_mem_diff(&g->m, &r, a), -1, "%s: array %s differs from the reference", g->p.file,
			     g->p.arrays[a].name);
	nsc_mem_free(&r);
}

/* The message ledger's invariants (doc/STREAMS.md, "Messages"). */
static void expect_invariants(const nsc_stats *st)
{
	cr_assert_eq(st->credits, st->dones, "credits %llu, done %llu", (unsigned long long)st->credits,
		     (unsigned long long)st->dones);
	cr_assert_leq(st->commits, st->credits);
	cr_assert_eq(nsc_stats_bytes(st), st->bytes[0] + st->bytes[1] + st->bytes[2]);
}

Test(ref, samples_every_setting)
{
	for (size_t i = 0; i < NSAMPLES; i++) {
		prog g;
		prog_sample(&g, samples[i], NULL, 0);
		for (size_t k = 0; k < 3; k++)
			for (unsigned il = 64; il <= (k == 2 ? 1024u : 64u); il *= 16) {
				set_mode(&g, k);
				g.s.interleave = il;
				prog_run(&g);
				expect_ref(&g);
				expect_invariants(&g.st);
			}
		prog_close(&g);
	}
}

/* ---- alias: injected core stores under the streams ---- */

static void alias_case(const char *sample, const char *array, uint64_t iter, uint64_t index, int64_t value,
		       bool expect_abort)
{
	prog g;
	prog_sample(&g, sample, NULL, 0);
	nsc_alias al = { .iter = iter, .arr = arr(&g, array), .index = index, .value = { .k = 'i', .u.i = value } };
	g.s.floating = NSC_FLOAT_BANK;
	g.s.aliases = &al;
	g.s.naliases = 1;
	prog_run(&g);
	expect_ref(&g);
	expect_invariants(&g.st);
	cr_assert_eq(g.st.alias_stores, 1);
	cr_assert_eq(g.st.aborts, expect_abort ? 1u : 0u, "%s: %llu aborts", sample, (unsigned long long)g.st.aborts);
	/* the same store without range synchronisation breaks the program */
	if (expect_abort) {
		g.s.sync_free = true;
		prog_run(&g);
		nsc_mem r;
		cr_assert_eq(nsc_mem_copy(&r, &g.init, &g.d), 0);
		cr_assert_eq(nsc_ref_run(&g.p, &r, &g.s, &g.d), 0);
		bool differ = false;
		for (int a = 0; a < g.p.narrays; a++)
			differ |= nsc_mem_diff(&g.m, &r, a) >= 0;
		cr_assert(differ, "%s: a stale element went unnoticed and changed nothing", sample);
		cr_assert_eq(g.st.aborts, 0);
		nsc_mem_free(&r);
	}
	prog_close(&g);
}

Test(alias, affine_load_ahead)
{
	/* element 105 was issued ahead when the core stores it at 100 */
	alias_case("histogram.nsc", "A", 100, 105, 0x7fffffff, true);
}

Test(alias, outside_the_ranges)
{
	/* behind the commit point, and in an array no stream reads */
	alias_case("histogram.nsc", "A", 100, 20, 5, false);
	alias_case("histogram.nsc", "H", 100, 3, 5, false);
}

Test(alias, indirect_and_pointer)
{
	/* svm's weights are read by an indirect stream: store into one that the
	 * first sample reads ahead; hash_join's chains are chased ahead */
	prog g;
	prog_sample(&g, "svm.nsc", NULL, 0);
	int64_t w5 = geti(&g.init, arr(&g, "idx"), 5);
	prog_close(&g);
	prog_sample(&g, "svm.nsc", NULL, 0);
	nsc_alias al = { .iter = 2, .arr = arr(&g, "w"), .index = (uint64_t)w5, .value = { .k = 'd', .u.d = 2.5 } };
	g.s.floating = NSC_FLOAT_BANK;
	g.s.aliases = &al;
	g.s.naliases = 1;
	prog_run(&g);
	expect_ref(&g);
	cr_assert_eq(g.st.aborts, 1);
	prog_close(&g);
}

Test(alias, many_random)
{
	rng_state = 99;
	/* bin_tree and hash_join build their nodes at run time: a store of the
	 * initial bits there is not silent (it can tie a chain into a cycle) */
	for (size_t i = 0; i < NSAMPLES - 2; i++) {
		prog g;
		prog_sample(&g, samples[i], NULL, 0);
		nsc_alias al[8];
		g.s.floating = NSC_FLOAT_BANK;
		prog_run(&g);
		uint64_t iters = g.st.iters;
		for (int k = 0; k < 8; k++) {
			int a = (int)(rng() % (uint64_t)g.p.narrays);
			al[k] = (nsc_alias){ .iter = rng() % iters, .arr = a, .index = rng() % g.p.arrays[a].count };
			al[k].value = nsc_mem_get(&g.init, a, al[k].index);   /* the same bits: a silent store */
		}
		g.s.aliases = al;
		g.s.naliases = 8;
		prog_run(&g);
		expect_ref(&g);
		expect_invariants(&g.st);
		prog_close(&g);
	}
}

/* ---- float: the decision ---- */

static void open_text(prog *g, const char *text)
{
	prog_open(g, "t.nsc", text, NULL, 0);
}

Test(float, forced)
{
	prog g;
	prog_sample(&g, "hotspot.nsc", NULL, 0);
	g.s.floating = NSC_FLOAT_CORE;
	prog_run(&g);
	cr_assert_eq(g.st.streams_floated, 0);
	cr_assert_eq(g.st.uops_bank, 0);
	cr_assert_eq(g.st.msgs[NSC_M_CONFIG], 0);
	g.s.floating = NSC_FLOAT_BANK;
	prog_run(&g);
	cr_assert_eq(g.st.streams_core, 0);
	cr_assert_eq(g.st.uops_core, 0);
	cr_assert_gt(g.st.msgs[NSC_M_CONFIG], 0);
	prog_close(&g);
}

Test(float, footprint_and_history)
{
	/* 1024 i32 = 64 lines: over a 2 KB cache it floats at once; under
	 * 256 KB it runs at the core, misses every 16th access, and stays */
	prog g;
	open_text(&g, "array A i32 1024 init=iota\narray B i32 1024\nfor r < 3\nstreams i < 1024\nload x = A[i]\nstore B[i] = x + r\nend\nend\n");
	g.s.cache_bytes = 2048;
	prog_run(&g);
	cr_assert_eq(g.st.streams_floated, 6);
	g.s.cache_bytes = 256u << 10;
	prog_run(&g);
	cr_assert_eq(g.st.streams_floated, 0);
	prog_close(&g);
	/* a stride of 16 elements misses every access: the first instance runs
	 * at the core, the next ones float (high miss rate, no reuse) */
	open_text(&g, "array A i32 16384 init=iota\narray S i64 4\nfor r < 4\nstreams i < 64\nload x = A[16*i + r]\nreduce s i64 += x\nend\nS[r] = s\nend\n");
	g.s.cache_bytes = 256u << 10;
	prog_run(&g);
	cr_assert_eq(g.st.streams_core, 2);
	cr_assert_eq(g.st.streams_floated, 6);
	expect_ref(&g);
	prog_close(&g);
}

Test(float, aliasing_load_stays)
{
	prog g;
	open_text(&g, "array A i32 4096 init=iota\nstreams i < 4095\nload x = A[i]\nstore A[i + 1] = x * 3\nend\n");
	g.s.cache_bytes = 1024;
	prog_run(&g);
	cr_assert_eq(g.st.streams_floated, 1);   /* the store */
	cr_assert_eq(g.st.streams_core, 1);      /* the load reads what the region writes */
	expect_ref(&g);
	g.s.floating = NSC_FLOAT_BANK;           /* forced: floated, never run ahead */
	prog_run(&g);
	expect_ref(&g);
	prog_close(&g);
}

/* A load whose computation names a stream kept at the core (C, one line)
 * stays at the core too: floated and issued ahead, it computed with a
 * value the core had not loaded yet (scluster's first region did). */
Test(float, load_computing_on_a_core_stream)
{
	prog g;
	open_text(&g, "array C i32 16 init=iota:5\narray P i32 1024 init=iota\narray O i32 1024\n"
		      "streams i < 1024\nload c = C[3]\nload e = P[i] -> $ + c\nstore O[i] = e\nend\n");
	g.s.cache_bytes = 512;
	prog_run(&g);
	for (uint64_t i = 0; i < 1024; i++)
		cr_assert_eq(geti(&g.m, arr(&g, "O"), i), (int64_t)i + 15, "O[%llu]", (unsigned long long)i);
	expect_ref(&g);
	cr_assert_eq(g.st.streams_floated, 1);   /* the store alone */
	prog_close(&g);
}

Test(float, indirect_reduce_length)
{
	/* §IV-C: an indirect reduction floats only when longer than 4 x 64 */
	const char *fmt = "const N = %d\narray I i32 N init=random:1:4096\narray W f32 4096 init=random:2\narray O f32 1\n"
			  "streams i < N\nload k = I[i]\nload w = W[k]\nreduce s f32 += w\nend\nO[0] = s\n";
	char text[512];
	prog g;
	snprintf(text, sizeof text, fmt, 256);
	open_text(&g, text);
	g.s.cache_bytes = 512;
	prog_run(&g);
	cr_assert_eq(g.st.partials, 0);
	cr_assert_eq(g.st.streams_floated, 2);
	expect_ref(&g);
	prog_close(&g);
	snprintf(text, sizeof text, fmt, 257);
	open_text(&g, text);
	g.s.cache_bytes = 512;
	prog_run(&g);
	cr_assert_gt(g.st.partials, 0);
	cr_assert_eq(g.st.streams_floated, 3);
	expect_ref(&g);
	prog_close(&g);
}

/* ---- msgs: hand-counted ---- */

Test(msgs, hops)
{
	cr_assert_eq(nsc_hops(0, 63), 14);
	cr_assert_eq(nsc_hops(9, 18), 2);
	cr_assert_eq(nsc_hops(7, 56), 14);
	cr_assert_eq(nsc_hops(27, 27), 0);
	cr_assert_eq(nsc_bank_of(0x100000, 64), 0);
	cr_assert_eq(nsc_bank_of(0x100040, 64), 1);
	cr_assert_eq(nsc_bank_of(0x100000 + 64 * 64, 64), 0);
	cr_assert_eq(nsc_bank_of(0x100000 + 1024, 1024), 1);
}

/* Fig 2's a[] -> b[] copy: a and b (256 B each) are on banks 0..3 side by
 * side, so each stream migrates 3 times, one hop each, and no element
 * travels; 8 blocks of R = 8 iterations give the credits, done and commits. */
Test(msgs, copy_by_hand)
{
	prog g;
	open_text(&g, "array a i32 64 init=iota\narray b i32 64\nstreams i < 64\nload x = a[i]\nstore b[i] = x\nend\n");
	g.s.floating = NSC_FLOAT_BANK;
	prog_run(&g);
	const nsc_stats *s = &g.st;
	cr_assert_eq(s->msgs[NSC_M_CONFIG], 2);
	cr_assert_eq(s->msgs[NSC_M_MIGRATE], 6);
	cr_assert_eq(s->msgs[NSC_M_CREDIT], 16);
	cr_assert_eq(s->msgs[NSC_M_DONE], 16);
	cr_assert_eq(s->msgs[NSC_M_COMMIT], 8);
	cr_assert_eq(s->msgs[NSC_M_RANGE], 0);
	cr_assert_eq(s->msgs[NSC_M_END], 0);   /* known lengths: released at the banks (§IV-B) */
	cr_assert_eq(s->msgs[NSC_M_DATA], 0);
	cr_assert_eq(s->msgs[NSC_M_FORWARD], 0);
	/* Fig 12's classes: every message of the offload is offloaded traffic.
	 * Element i is at bank i / 16.  At the end of block k (iterations
	 * 8k..8k+7) the store stream is at element 8k+7's bank (0+0+1+1+2+2+
	 * 3+3 = 12 hops for its credits, done and commits) and the load, run
	 * 16 ahead, at element min(8k+23, 63)'s (1+1+2+2+3+3+3+3 = 18 hops);
	 * configs go to bank 0 (0 hops); no end messages. */
	cr_assert_eq(s->byte_hops[NSC_C_CONTROL], 0);
	cr_assert_eq(s->byte_hops[NSC_C_DATA], 0);
	cr_assert_eq(nsc_stats_sync_hops(s), 2 * 8 * 18 + 2 * 8 * 12 + 8 * 12);
	cr_assert_eq(s->byte_hops[NSC_C_OFFLOAD], 6 * 32 + 2 * 8 * 18 + 2 * 8 * 12 + 8 * 12);
	cr_assert_eq(nsc_stats_coord_hops(s), s->byte_hops[NSC_C_OFFLOAD] - 6 * 32);
	cr_assert_eq(s->credits, 128);
	cr_assert_eq(s->commits, 64);
	/* without offload: 4 lines of a and 4 of b fetched to the core, one hop
	 * at most (banks 0..3 from tile 0: 0+1+2+3 hops each) */
	g.s.floating = NSC_FLOAT_CORE;
	prog_run(&g);
	cr_assert_eq(s->msgs[NSC_M_LINE], 8);
	cr_assert_eq(s->byte_hops[NSC_C_DATA], 2 * 72 * (0 + 1 + 2 + 3));
	cr_assert_eq(s->byte_hops[NSC_C_CONTROL], 2 * 8 * (0 + 1 + 2 + 3));
	prog_close(&g);
}

/* The Σ example: a reduction at the banks sends one value to the core. */
Test(msgs, sum_by_hand)
{
	prog g;
	open_text(&g, "array a i32 64 init=iota\narray s i64 1\nstreams i < 64\nload x = a[i]\nreduce t i64 += x\nend\ns[0] = t\n");
	g.s.floating = NSC_FLOAT_BANK;
	g.s.core_tile = 9;   /* (1, 1): the last bank, 3, is 2 + 1 hops away */
	prog_run(&g);
	cr_assert_eq(geti(&g.m, 1, 0), 64 * 63 / 2);
	cr_assert_eq(g.st.msgs[NSC_M_DATA], 1);
	cr_assert_eq(g.st.msgs[NSC_M_MIGRATE], 3);   /* the load's; the sum is folded into it */
	cr_assert_eq(g.st.msg_byte_hops[NSC_M_DATA], 16 * 3);
	prog_close(&g);
}

/* Fig 2(a)'s Σ a[i] folded into the load stream a[i] (doc/STREAMS.md,
 * "Folded reductions"): one config, 3 migrations (banks 0..3) carrying
 * the partial (32 + 8 bytes, one hop each), one credit and one done per
 * block of 8 (18 hops in all: the load runs 16 ahead, as in
 * copy_by_hand), no end (its length is known: it is released at bank 3),
 * and the sum once, from bank 3 to the core at tile 0 (3 hops).  As a
 * stream of its own the reduction had its own config, 3 migrations, 8
 * credits and 8 done. */
Test(msgs, folded_reduction_by_hand)
{
	prog g;
	open_text(&g, "array a i32 64 init=iota\narray s i64 1\nstreams i < 64\nload x = a[i]\nreduce t i64 += x\nend\ns[0] = t\n");
	g.s.floating = NSC_FLOAT_BANK;
	prog_run(&g);
	const nsc_stats *s = &g.st;
	cr_assert_eq(geti(&g.m, 1, 0), 64 * 63 / 2);
	cr_assert_eq(s->msgs[NSC_M_CONFIG], 1);
	cr_assert_eq(s->msgs[NSC_M_MIGRATE], 3);
	cr_assert_eq(s->msgs[NSC_M_CREDIT], 8);
	cr_assert_eq(s->msgs[NSC_M_DONE], 8);
	cr_assert_eq(s->msgs[NSC_M_COMMIT], 0);
	cr_assert_eq(s->msgs[NSC_M_RANGE], 0);
	cr_assert_eq(s->msgs[NSC_M_END], 0);
	cr_assert_eq(s->msgs[NSC_M_DATA], 1);
	cr_assert_eq(s->msgs[NSC_M_FORWARD], 0);
	cr_assert_eq(s->credits, 64);
	cr_assert_eq(s->msg_byte_hops[NSC_M_MIGRATE], 3 * 40);
	cr_assert_eq(s->byte_hops[NSC_C_OFFLOAD], 3 * 40 + 2 * 8 * 18);
	cr_assert_eq(s->byte_hops[NSC_C_DATA], 16 * 3);   /* s[0] is at bank 0: the store costs 0 hops */
	cr_assert_eq(s->byte_hops[NSC_C_CONTROL], 0);
	/* at the core: 4 lines of a (0+1+2+3 hops), and no sum to send */
	g.s.floating = NSC_FLOAT_CORE;
	prog_run(&g);
	cr_assert_eq(geti(&g.m, 1, 0), 64 * 63 / 2);
	cr_assert_eq(nsc_stats_byte_hops(s), (72 + 8) * (0 + 1 + 2 + 3));
	prog_close(&g);
}

/* The fold's rule: two fields of one record (a[2i], a[2i+1]) fold; a
 * term over two arrays (a[i], b[i]) is not one walk, and stays a stream of
 * its own (its own config and end). */
Test(msgs, fold_rule)
{
	prog g;
	open_text(&g, "array a i32 128 init=iota\narray r i64 1\nstreams i < 64\nload x = a[2*i]\n"
		      "load y = a[2*i + 1]\nreduce t i64 += x * y\nend\nr[0] = t\n");
	g.s.floating = NSC_FLOAT_BANK;
	prog_run(&g);
	int64_t want = 0;
	for (int64_t i = 0; i < 64; i++)
		want += (2 * i) * (2 * i + 1);
	cr_assert_eq(geti(&g.m, 1, 0), want);
	cr_assert_eq(g.st.msgs[NSC_M_CONFIG], 2);   /* x and y; t is folded into x */
	cr_assert_eq(g.st.msgs[NSC_M_END], 0);
	cr_assert_eq(g.st.msgs[NSC_M_DATA], 1);
	prog_close(&g);
	open_text(&g, "array a i32 64 init=iota\narray b i32 64 init=iota\nstreams i < 64\nload x = a[i]\n"
		      "load y = b[i]\nreduce t i64 += x * y\nend\n");
	g.s.floating = NSC_FLOAT_BANK;
	prog_run(&g);
	cr_assert_eq(g.st.msgs[NSC_M_CONFIG], 3);
	cr_assert_eq(g.st.msgs[NSC_M_END], 0);
	prog_close(&g);
}

/* Fig 12's classes, message by message: credits, ranges and commits are
 * offloaded traffic, the core's requests control. */
Test(msgs, classes_of_fig12)
{
	prog g;
	open_text(&g, "array i32v i32 64 init=iota\narray b i32 64\nstreams i < 64\nload x = i32v[i]\n"
		      "load y = b[x]\nend\n");
	g.s.floating = NSC_FLOAT_BANK;
	prog_run(&g);
	cr_assert_gt(g.st.msgs[NSC_M_RANGE], 0);
	cr_assert_gt(g.st.msgs[NSC_M_CREDIT], 0);
	/* every byte-hop of coordination is in the offloaded class, none in control */
	cr_assert_eq(g.st.byte_hops[NSC_C_CONTROL], 0);
	cr_assert_geq(g.st.byte_hops[NSC_C_OFFLOAD], nsc_stats_coord_hops(&g.st));
	cr_assert_gt(nsc_stats_coord_hops(&g.st), 0);
	prog_close(&g);
}

/* ---- nest: nested stream configurations (doc/STREAMS.md, "Nested streams") ---- */

/* svm's inner loop is a region per sample whose configuration is the
 * sample's alone (NSC Fig 4d): one nest of 64 x 32 iterations.  As a nest
 * its indirect reduction is longer than 4 x 64 (§IV-C) and floats, so the
 * µops run at the banks; the scores are the C kernel's (work::svm) and the
 * reference's, bit for bit. */
Test(nest, svm_offloads)
{
	prog g;
	prog_sample(&g, "svm.nsc", NULL, 0);
	g.s.cache_bytes = 512;
	prog_run(&g);
	cr_assert_gt(g.st.uops_bank, 0);
	cr_assert_eq(g.st.uops_core, 0);
	cr_assert_gt(g.st.partials, 0);
	expect_ref(&g);
	expect_invariants(&g.st);
	prog_close(&g);
}

/* bfs_pull's region per unvisited vertex, under the guard dist[v] == INF,
 * configured from in_off[v] and in_off[v + 1]: a conditional nest whose
 * outer stream reads in_off and dist at the banks.  Its min= reduction
 * floats; the distances are the C breadth-first search's. */
Test(nest, bfs_pull_offloads)
{
	graph gr;
	prog p;
	int64_t want[256];
	bfs_pull_prog(&p, &gr, want);
	p.s.cache_bytes = 512;
	prog_run(&p);
	expect_ints(&p, "dist", want, (uint64_t)gr.v);
	cr_assert_gt(p.st.uops_bank, 0);
	/* a few nests opened near the end of a level are short enough to keep
	 * their reduction at the core (§IV-C) */
	cr_assert_geq(p.st.uops_bank * 100, 99 * (p.st.uops_bank + p.st.uops_core));
	expect_ref(&p);
	expect_invariants(&p.st);
	prog_close(&p);
	graph_free(&gr);
}

/* One configuration for the nest, an instance message for each later
 * instance, blocks of R iterations across instances, no end messages;
 * with nest=off each instance is configured from the core again. */
Test(nest, messages_by_hand)
{
	prog g;
	open_text(&g, "array A i32 256 init=iota\narray O i64 8\nfor s < 8\nstreams k < 32\nload x = A[s*32 + k]\n"
		      "reduce t i64 += x\nend\nO[s] = t\nend\n");
	g.s.floating = NSC_FLOAT_BANK;
	prog_run(&g);
	for (int s = 0; s < 8; s++)
		cr_assert_eq(geti(&g.m, 1, (uint64_t)s), 32 * 32 * s + 31 * 32 / 2);
	cr_assert_eq(g.st.msgs[NSC_M_CONFIG], 1);
	cr_assert_eq(g.st.msgs[NSC_M_INSTANCE], 7);
	cr_assert_eq(g.st.msgs[NSC_M_END], 0);
	cr_assert_eq(g.st.msgs[NSC_M_CREDIT], 32);
	/* an instance message is 8 + 16 bytes, from the bank of A[32s - 1],
	 * where the stream is (bank 2s - 1), to that of A[32s] (bank 2s): one
	 * hop, but 8 from tile 7 to tile 8 (s = 4) */
	cr_assert_eq(g.st.msg_byte_hops[NSC_M_INSTANCE], (6 + 8) * 24);
	expect_invariants(&g.st);
	expect_ref(&g);
	g.s.no_nest = true;
	prog_run(&g);
	cr_assert_eq(g.st.msgs[NSC_M_CONFIG], 8);
	cr_assert_eq(g.st.msgs[NSC_M_INSTANCE], 0);
	expect_ref(&g);
	prog_close(&g);
	/* 12 iterations an instance: the blocks of 8 run on across instances
	 * (96 iterations, 12 credits), where each instance alone sent 2 */
	open_text(&g, "array A i32 256 init=iota\narray O i64 8\nfor s < 8\nstreams k < 12\nload x = A[s*32 + k]\n"
		      "reduce t i64 += x\nend\nO[s] = t\nend\n");
	g.s.floating = NSC_FLOAT_BANK;
	prog_run(&g);
	cr_assert_eq(g.st.msgs[NSC_M_CREDIT], 12);
	cr_assert_eq(g.st.credits, 96);
	expect_invariants(&g.st);
	g.s.no_nest = true;
	prog_run(&g);
	cr_assert_eq(g.st.msgs[NSC_M_CREDIT], 16);
	prog_close(&g);
}

/* What is a nest: a let the core reads after the region is not the
 * nest's (its region is configured by the core each time); a region
 * configured from another region's reduction in the same loop is not one
 * either, while that other region is; a guard over outer data is. */
Test(nest, recognised_from_the_program)
{
	prog g;
	open_text(&g, "array A i32 256 init=iota\narray O i64 8\nfor s < 8\nlet b = s*32\nstreams k < 32\n"
		      "load x = A[b + k]\nreduce t i64 += x\nend\nO[s] = t + b\nend\n");
	g.s.floating = NSC_FLOAT_BANK;
	prog_run(&g);
	cr_assert_eq(g.st.msgs[NSC_M_CONFIG], 8);
	cr_assert_eq(g.st.msgs[NSC_M_INSTANCE], 0);
	expect_ref(&g);
	prog_close(&g);
	open_text(&g, "array A i32 256 init=iota\narray O i64 8\nfor s < 8\nstreams k < 4\nload y = A[s + k]\n"
		      "reduce u i64 += y\nend\nstreams k < 32\nload x = A[u + k]\nreduce t i64 += x\nend\nO[s] = t\nend\n");
	g.s.floating = NSC_FLOAT_BANK;
	prog_run(&g);
	cr_assert_eq(g.st.msgs[NSC_M_CONFIG], 1 + 8);
	cr_assert_eq(g.st.msgs[NSC_M_INSTANCE], 7);
	expect_ref(&g);
	prog_close(&g);
	/* G[0] = 0: no instance at s = 0; the nest opens at s = 1, and from
	 * s = 2 the outer stream reads G[s] (guard and let) at its bank */
	open_text(&g, "array G i32 8 init=iota\narray A i32 256 init=iota\narray O i64 8\nfor s < 8\nif G[s] > 0\n"
		      "let b = G[s] * 32\nstreams k < 32\nload x = A[b + k]\nreduce t i64 += x\nend\nO[s] = t\nend\nend\n");
	g.s.floating = NSC_FLOAT_BANK;
	prog_run(&g);
	cr_assert_eq(g.st.core_loads, 3);
	cr_assert_eq(g.st.msgs[NSC_M_CONFIG], 2);   /* A's stream and the outer stream of G */
	cr_assert_eq(g.st.msgs[NSC_M_INSTANCE], 6);
	expect_invariants(&g.st);
	expect_ref(&g);
	g.s.no_nest = true;
	prog_run(&g);
	cr_assert_eq(g.st.core_loads, 15);
	expect_ref(&g);
	prog_close(&g);
}

/* An alias inside a nest ends the offload of that instance (Fig 7b), the
 * nest closes, and a later instance configures it afresh; the results
 * are the reference's. */
Test(nest, alias_inside)
{
	prog g;
	open_text(&g, "array A i32 256 init=iota\narray O i64 8\nfor s < 8\nstreams k < 32\nload x = A[s*32 + k]\n"
		      "reduce t i64 += x\nend\nO[s] = t\nend\n");
	g.s.floating = NSC_FLOAT_BANK;
	const nsc_alias al = { 70, 0, 75, { .k = 'i', .u.i = 1000 } };   /* A[75] before iteration 70 */
	g.s.aliases = &al;
	g.s.naliases = 1;
	prog_run(&g);
	cr_assert_eq(g.st.aborts, 1);
	cr_assert_eq(g.st.msgs[NSC_M_CONFIG], 2);
	cr_assert_eq(geti(&g.m, 1, 2), 32 * 32 * 2 + 31 * 32 / 2 + 1000 - 75);
	expect_invariants(&g.st);
	expect_ref(&g);
	prog_close(&g);
}

/* ---- errors: one located message each ---- */

static void expect_parse_error(const char *text, const char *want)
{
	nsc_program p;
	diag d;
	cr_assert_eq(nsc_parse("e.nsc", text, strlen(text), NULL, 0, &p, &d), -1, "accepted:\n%s", text);
	cr_assert(strstr(d.msg, want), "got '%s', expected '%s'", d.msg, want);
}

Test(errors, parse)
{
	/* sizes that would wrap are refused, not taken modulo 2^64 */
	expect_parse_error("array A i32 4294967296*4294967296+4\n",
			   "e.nsc:1:23: error: the constant expression overflows 64-bit integers");
	expect_parse_error("const K = 1 << 63 << 1\narray A i32 8\n",
			   "e.nsc:1:");
	expect_parse_error("const K = -9223372036854775807 - 2\narray A i32 8\n",
			   "overflows 64-bit integers");
	expect_parse_error("array A i32 8\nstreams i < 8\nload x = B[i]\nend\n", "e.nsc:3:10: error: unknown array 'B'");
	expect_parse_error("array A i32 8\nstreams i < 8\nload x = A[i * i]\nend\n", "e.nsc:3:12: error: an index is affine");
	expect_parse_error("array A i32 8\nstreams i < 8\nload x = A[i]\nload y = A[x]\nload z = A[y]\nend\n",
			   "e.nsc:5:12: error: one level of indirection");
	expect_parse_error("array A i32 8\narray C i32 8\nstreams i < 8\nload b = A[i]\nload a = C[i]\natomic C[b] += a\nend\n",
			   "e.nsc:6:1: error: an indirect stream computes only on its base stream 'b'");
	expect_parse_error("array A i32 8\nstreams i < 8\nreduce s i32 += 1\nstore A[i] = s\nend\n",
			   "e.nsc:4:14: error: the result of reduction 's' is read after its region");
	expect_parse_error("array A i32 8\nstreams i < 8\nload a = A[i]\nload b = A[i]\nload c = A[i]\nload d = A[i]\n"
			   "load e = A[i]\nload f = A[i]\nload g = A[i]\nload h = A[i]\nload k = A[i]\n"
			   "store A[i] = a + b + c + d + e + f + g + h + k\nend\n",
			   "e.nsc:12:1: error: a stream's computation takes at most 8 arguments");
	expect_parse_error("array A i32 8\nstreams i < 8\nload x = A[i]\n", "e.nsc:2:1: error: this block has no 'end'");
	expect_parse_error("array A i32 8\nstreams i < 2, j < 2, k < 2, l < 2\n", "e.nsc:2:30: error: a region has at most 3 dimensions");
	expect_parse_error("array A i32 0\n", "e.nsc:1:13: error: an array's length");
	expect_parse_error("array A q32 8\n", "e.nsc:1:9: error: expected a type");
	expect_parse_error("array A i32 8 init=random\n", "e.nsc:1:26: error: expected zero, iota");
	expect_parse_error("array A i32 8\nstreams i < 8\nstore A[i] = A[i]\nend\n",
			   "e.nsc:3:14: error: a stream's computation reads memory only through streams");
	expect_parse_error("array A i32 8\nstreams i < 8\nload x = A[i] -> $ +\nend\n", "e.nsc:3:21: error: expected an expression before the end");
	expect_parse_error("array A i32 8\nend\n", "e.nsc:2:1: error: 'end' with no open");
	expect_parse_error("const N = 1 / 0\n", "e.nsc:1:13: error: division by zero");
	expect_parse_error("array A i32 8\nA[0] = 1 ` 2\n", "e.nsc:2:10: error: unexpected character '`'");
}

/* text fails alike on the engines and the reference, with want, under
 * --max-iters=1000 and --max-work=max_work (0: none). */
static void expect_run_error_work(const char *text, uint64_t max_work, const char *want)
{
	prog g;
	open_text(&g, text);
	g.s.max_iters = 1000;
	g.s.max_work = max_work;
	cr_assert_eq(nsc_mem_copy(&g.m, &g.init, &g.d), 0);
	cr_assert_eq(nsc_run(&g.p, &g.m, &g.s, &g.st, &g.d), -1, "ran:\n%s", text);
	cr_assert(strstr(g.d.msg, want), "engines: got '%s', expected '%s'", g.d.msg, want);
	nsc_mem r;
	cr_assert_eq(nsc_mem_copy(&r, &g.init, &g.d), 0);
	cr_assert_eq(nsc_ref_run(&g.p, &r, &g.s, &g.d), -1);
	cr_assert(strstr(g.d.msg, want), "reference: got '%s', expected '%s'", g.d.msg, want);
	nsc_mem_free(&r);
	prog_close(&g);
}

static void expect_run_error(const char *text, const char *want)
{
	expect_run_error_work(text, 0, want);
}

Test(errors, run)
{
	expect_run_error("array A i32 8\narray B i32 8 init=value:9\nstreams i < 8\nload k = B[i]\nload x = A[k]\nend\n",
			 "t.nsc:5:1: error: index 9 is out of bounds of array 'A' (8 elements)");
	expect_run_error("array A i32 8\nstreams i < 8\nload x = A[i]\nstore A[i] = 5 / x\nend\n",
			 "t.nsc:4:16: error: division by zero");
	expect_run_error("array A i64 8\nstreams chase p = A from 0 next @0\nload x = A[p]\nend\n",
			 "t.nsc:2:1: error: a chase passes 1000 nodes");
	expect_run_error("array A i32 8\nfor i < 5000\nend\n", "t.nsc:2:1: error: a loop of 5000 trips");
	/* a region's iterations: its dimensions' product, even where it
	 * would overflow 64 bits (found by fuzz_nsc: the reference ran it) */
	expect_run_error("array A i32 8\nstreams i < 40, j < 40\nload x = A[0]\nend\n",
			 "t.nsc:2:1: error: a region of more than 1000 iterations");
	expect_run_error("array A i32 8\nstreams i < 4294967296, j < 4294967296, k < 4294967296\n"
			 "load x = A[0]\nend\n",
			 "t.nsc:2:1: error: a region of more than 1000 iterations");
}

/* --max-work: the whole run's loop trips and region iterations, counted
 * as each loop or region starts (found by fuzz_nsc: 97 rounds of a loop
 * over 772 vertices, each under --max-iters, took 10 s of CPU with the
 * sanitizers). */
Test(errors, max_work)
{
	static const char loops[] = "array A i32 8\nfor i < 30\nfor j < 30\nA[0] = A[0] + 1\nend\nend\n";
	/* 30 + 15 x 30 = 480 trips; the 16th inner loop would make 510 */
	expect_run_error_work(loops, 500, "t.nsc:3:1: error: the run passes 500 loop trips and "
			      "region iterations in all (--max-work)");
	/* regions count their iterations: 100 + 37 x 8 = 396, then 404 */
	expect_run_error_work("array A i32 8\nfor i < 100\nstreams j < 8\nload x = A[j]\nend\nend\n",
			      400, "t.nsc:3:1: error: the run passes 400 loop trips");
	/* exactly the bound (30 + 30 x 30 = 930) runs, on both sides */
	prog g;
	open_text(&g, loops);
	g.s.max_work = 930;
	cr_assert_eq(nsc_mem_copy(&g.m, &g.init, &g.d), 0);
	cr_assert_eq(nsc_run(&g.p, &g.m, &g.s, &g.st, &g.d), 0, "%s", g.d.msg);
	cr_assert_eq(nsc_mem_bits(&g.m, 0, 0), 900);
	nsc_mem r;
	cr_assert_eq(nsc_mem_copy(&r, &g.init, &g.d), 0);
	cr_assert_eq(nsc_ref_run(&g.p, &r, &g.s, &g.d), 0, "%s", g.d.msg);
	cr_assert_eq(nsc_mem_bits(&r, 0, 0), 900);
	nsc_mem_free(&r);
	prog_close(&g);
}

/* ---- cli ---- */

TestSuite(cli, .init = make_tmpdir, .fini = remove_tmpdir);

Test(cli, run_check_stats)
{
	result r = run("nsc %s/samples/nsc/histogram.nsc --check --stats --cache=512", SRCDIR);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "every stream at the core"), "%s", r.out);
	cr_assert(strstr(r.out, "byte-hops offload / core-only"), "%s", r.out);
	result_free(&r);
	r = run("nsc %s/samples/nsc/histogram.nsc --check --cache=512", SRCDIR);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "--check: every array equals the reference"), "%s", r.out);
	result_free(&r);
	r = run("run %s/samples/nsc/pathfinder.nsc --check -q --float=bank", SRCDIR);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_str_empty(r.out);
	result_free(&r);
}

Test(cli, files_and_aliases)
{
	result r = run("nsc %s/samples/nsc/histogram.nsc -s H=h.npy -s A=a.npy -q", SRCDIR);
	cr_assert_eq(r.status, 0, "%s", r.err);
	result_free(&r);
	r = run("nsc %s/samples/nsc/histogram.nsc -l A=a.npy -d H -D N=4096", SRCDIR);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(!strncmp(r.out, "H[0] = ", 7), "%s", r.out);
	result_free(&r);
	r = run("nsc %s/samples/nsc/histogram.nsc -l A=h.npy", SRCDIR);
	cr_assert_eq(r.status, 1);
	cr_assert(strstr(r.err, "h.npy: error: dtype '<i4' does not match array 'A' (u32): expected '<u4'"), "%s", r.err);
	result_free(&r);
	r = run("nsc %s/samples/nsc/histogram.nsc --check --float=bank --alias=100:A[105]=5 -q", SRCDIR);
	cr_assert_eq(r.status, 0, "%s", r.err);
	result_free(&r);
	r = run("nsc %s/samples/nsc/histogram.nsc --check --float=bank --sync=free --alias=100:A[105]=4294967295", SRCDIR);
	cr_assert_eq(r.status, 3, "%s", r.err);
	cr_assert(strstr(r.err, "H[54]: got 76, expected 75\n  last written by the atomic stream H[...] at "), "%s", r.err);
	result_free(&r);
}

Test(cli, usage)
{
	const char *bad[] = { "", "--float=maybe", "--window=5000", "--bogus", "--interleave=100",
			      "--max-work=0", "--tdfg=x.tdfg", "--strict", "-j 2" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		result r = i ? run("nsc %s/samples/nsc/histogram.nsc %s", SRCDIR, bad[i]) : run("nsc");
		cr_assert_eq(r.status, 2, "%s: %d %s", bad[i], r.status, r.err);
		result_free(&r);
	}
	result r = run("nsc %s/samples/nsc/histogram.nsc --alias=5:Z[1]=2", SRCDIR);
	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.err, "no array 'Z'"), "%s", r.err);
	result_free(&r);
	r = run("nsc %s/samples/nsc/histogram.nsc --max-work=10", SRCDIR);
	cr_assert_eq(r.status, 1);
	cr_assert(strstr(r.err, "loop trips and region iterations in all (--max-work)"), "%s", r.err);
	result_free(&r);
	r = run("nsc --help");
	cr_assert_eq(r.status, 0);
	cr_assert(strstr(r.out, "Usage: infsim nsc PROG [OPTION]..."), "%s", r.out);
	result_free(&r);
}

/* min= and max= with no `init` give the elements' minimum and maximum
 * (they start from the type's largest or smallest value), on the engines
 * and in the reference alike, in every mode: the values here never reach
 * 0, which a start of 0 would give. */
Test(ref, min_max_without_init)
{
	prog g;
	open_text(&g, "array A i32 100 init=iota\narray F f32 100 init=iota\narray R i32 2\n"
		  "array G f32 1\n"
		  "streams i < 100\n  load a = A[i]\n  load f = F[i]\n"
		  "  reduce lo i32 min= a + 10\n  reduce hi i32 max= -a - 10\n"
		  "  reduce m f32 min= f + 2.5\nend\nR[0] = lo\nR[1] = hi\nG[0] = m\n");
	const int64_t want[] = { 10, -10 };
	const float fwant[] = { 2.5f };
	for (size_t k = 0; k < NMODES; k++) {
		set_mode(&g, k);
		prog_run(&g);
		expect_ints(&g, "R", want, 2);
		expect_floats(&g, "G", fwant, 1);
		expect_ref(&g);
	}
	prog_close(&g);
}
