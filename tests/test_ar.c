/* SPDX-License-Identifier: MIT */
/*
 * test_ar.c: Active-Routing (emu/ar/, HPCA'19; doc/ACTIVE-ROUTING.md).
 *
 *   work     every workload of Table II (samples/ar/) at a small size,
 *            under every root policy, against a plain C reference
 *            written here: integers exactly; fp32 bit for bit, the
 *            reference folding the partials in the documented order
 *            (per tree and cube in issue order, a node before its
 *            children in ascending cube order, roots ascending) over
 *            its own copy of the Dragonfly routes;
 *   invariant at the end every Update was computed and gathered once,
 *            every table, buffer and queue is empty;
 *   route    Fig 3b's compute point, by hand;
 *   tiny     one flow-table entry and one operand buffer still finish;
 *   wait     the waiting queues (wait.c) try packets in the order of one
 *            list walked in arrival order, each tree behind its own;
 *   error    bad programs get one message at FILE:LINE:COL;
 *   cli      infsim ar / infsim run X.ar; infsdb on a .ar program.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ar.h"
#include "engine_types.h"
#include "proc.h"

#define SAMPLES SRCDIR "/samples/ar/"

/* ---- running a program through the library ---- */

typedef struct run_result {
	ar_program *p;
	ar_stats st;
	diag d;
	int rc;
} run_result;

static run_result run_text(const char *name, const char *text, const ar_config *c,
			   char **defs, size_t ndefs)
{
	run_result r = { .rc = -1 };
	diag_clear(&r.d);
	r.p = ar_parse(name, text, strlen(text), defs, ndefs, c, &r.d);
	if (r.p)
		r.rc = ar_run(r.p, c, &r.st, &r.d);
	return r;
}

static run_result run_sample_cfg(const char *file, const ar_config *c)
{
	char path[512];
	snprintf(path, sizeof path, SAMPLES "%s", file);
	char *text = proc_slurp(path, NULL);
	cr_assert_not_null(text, "cannot read %s", path);
	run_result r = run_text(path, text, c, NULL, 0);
	free(text);
	cr_assert_eq(r.rc, 0, "%s: %s", file, r.d.msg);
	return r;
}

static run_result run_sample(const char *file, ar_root_policy root, unsigned entries,
			     unsigned buffers)
{
	ar_config c;
	ar_config_default(&c);
	c.root = root;
	c.flow_entries = entries;
	c.buffers = buffers;
	return run_sample_cfg(file, &c);
}

static uint64_t get(const run_result *r, const char *name, uint64_t k)
{
	int i = ar_array_find(r->p, name);
	cr_assert_geq(i, 0, "no array %s", name);
	return ar_array_get(r->p, (size_t)i, k);
}

static float getf(const run_result *r, const char *name, uint64_t k)
{
	uint32_t u = (uint32_t)get(r, name, k);
	float f;
	memcpy(&f, &u, 4);
	return f;
}

static void check_clean(const run_result *r)
{
	cr_expect(r->st.end_clean, "tables, buffers or queues not empty at the end");
	cr_expect_eq(r->st.updates_issued, r->st.updates_computed);
}

/* ---- the reference's own copy of the documented generators ---- */

static uint64_t sm64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static int32_t *rand_ints(uint64_t seed, size_t n, int64_t lo, int64_t hi)
{
	int32_t *v = malloc(n * sizeof *v);
	for (size_t i = 0; i < n; i++)
		v[i] = (int32_t)(lo + (int64_t)(sm64(&seed) % (uint64_t)(hi - lo)));
	return v;
}

static float *rand_floats(uint64_t seed, size_t n)
{
	float *v = malloc(n * sizeof *v);
	for (size_t i = 0; i < n; i++)
		v[i] = (float)((double)(sm64(&seed) >> 40) / 16777216.0);
	return v;
}

static int32_t *perm(uint64_t seed, size_t n)
{
	int32_t *v = malloc(n * sizeof *v);
	for (size_t i = 0; i < n; i++)
		v[i] = (int32_t)i;
	for (size_t k = n - 1; k > 0; k--) {
		size_t j = (size_t)(sm64(&seed) % (k + 1));
		int32_t t = v[j];
		v[j] = v[k];
		v[k] = t;
	}
	return v;
}

/* Arrays in declaration order at 4 KiB boundaries; cube = address / 4096
 * mod 16 (the default interleave). */
static uint64_t place(uint64_t *next, uint64_t bytes)
{
	uint64_t b = *next;
	*next = (b + bytes + 4095) & ~(uint64_t)4095;
	return b;
}

static int cube_at(uint64_t addr)
{
	return (int)((addr >> 12) & 15);
}

/* ---- the reference's own Dragonfly and combine order ---- */

/* Groups of four; cube 4g+k (k > 0) links to group g+k, landing on local
 * index 4-k; cube 4g is host g's port. */
static int df_next(int from, int to)
{
	int gf = from / 4, gt = to / 4;
	if (from == to || gf == gt)
		return to;
	int gw = gf * 4 + (((gt - gf) % 4 + 4) % 4);
	return from != gw ? gw : gt * 4 + (((gf - gt) % 4 + 4) % 4);
}

static int df_parent(int root_cube, int c)
{
	int prev = -1, x = root_cube;
	while (x != c) {
		prev = x;
		x = df_next(x, c);
	}
	return prev;
}

static int df_meet(int root_cube, int a, int b)
{
	int x = root_cube, y = root_cube, last = x;
	while (x == y) {
		last = x;
		if (x == a || y == b)
			break;
		x = df_next(x, a);
		y = df_next(y, b);
	}
	return last;
}

typedef struct tree_ref {
	float own[4][16];
	bool has[4][16];
} tree_ref;

static void tr_add(tree_ref *t, int root, int cube, float v)
{
	t->own[root][cube] = t->has[root][cube] ? t->own[root][cube] + v : v;
	t->has[root][cube] = true;
}

static bool tr_node(const tree_ref *t, int r, int n, float *out)
{
	bool has = t->has[r][n];
	float v = t->own[r][n];
	for (int c = 0; c < 16; c++) {
		float cv;
		if (c == n || c == 4 * r || df_parent(4 * r, c) != n || !tr_node(t, r, c, &cv))
			continue;
		v = has ? v + cv : cv;
		has = true;
	}
	*out = v;
	return has;
}

/* The flow's result: the trees' results in ascending root order. */
static bool tr_result(const tree_ref *t, float *out)
{
	bool has = false;
	float v = 0;
	for (int r = 0; r < 4; r++) {
		float x;
		if (!tr_node(t, r, 4 * r, &x))
			continue;
		v = has ? v + x : x;
		has = true;
	}
	*out = v;
	return has;
}

static int root_for(ar_root_policy p, int thread, int src_cube)
{
	return p == AR_ROOT_NAIVE ? 0 : p == AR_ROOT_TID ? thread % 4 : src_cube / 4;
}

static const ar_root_policy roots[3] = { AR_ROOT_NAIVE, AR_ROOT_TID, AR_ROOT_ADDR };

/* ---- work: the integer microbenchmarks, exactly ---- */

/* An integer workload under every root policy: the sum exactly. */
static void check_int(const char *file, const char *var, uint32_t want)
{
	for (int k = 0; k < 3; k++) {
		run_result r = run_sample(file, roots[k], 16, 128);
		cr_expect_eq((uint32_t)get(&r, var, 0), want, "%s, root policy %d", file, k);
		check_clean(&r);
		ar_program_free(r.p);
	}
}

Test(work, reduce)
{
	int32_t *a = rand_ints(11, 4096, -1000, 1000);
	uint32_t sum = 0;
	for (int i = 0; i < 4096; i++)
		sum += (uint32_t)a[i];
	check_int("reduce.ar", "SUM", sum);
	free(a);
}

Test(work, rand_reduce)
{
	int32_t *a = rand_ints(21, 4096, -1000, 1000), *idx = rand_ints(22, 4096, 0, 4096);
	uint32_t sum = 0;
	for (int i = 0; i < 4096; i++)
		sum += (uint32_t)a[idx[i]];
	check_int("rand_reduce.ar", "SUM", sum);
	free(a);
	free(idx);
}

Test(work, mac)
{
	int32_t *a = rand_ints(31, 4096, -100, 100), *b = rand_ints(32, 4096, -100, 100);
	uint32_t sum = 0;
	for (int i = 0; i < 4096; i++)
		sum += (uint32_t)(a[i] * b[i]);
	check_int("mac.ar", "S", sum);
	free(a);
	free(b);
}

Test(work, rand_mac)
{
	int32_t *a = rand_ints(41, 4096, -100, 100), *b = rand_ints(42, 4096, -100, 100);
	int32_t *ia = rand_ints(43, 4096, 0, 4096), *ib = rand_ints(44, 4096, 0, 4096);
	uint32_t sum = 0;
	for (int i = 0; i < 4096; i++)
		sum += (uint32_t)(a[ia[i]] * b[ib[i]]);
	check_int("rand_mac.ar", "S", sum);
	free(a);
	free(b);
	free(ia);
	free(ib);
}

/* The other settings: the 4x4 mesh and a 64-byte interleave (every
 * block in the next cube) give the same integers. */
Test(work, mesh_and_interleave)
{
	int32_t *a = rand_ints(41, 4096, -100, 100), *b = rand_ints(42, 4096, -100, 100);
	int32_t *ia = rand_ints(43, 4096, 0, 4096), *ib = rand_ints(44, 4096, 0, 4096);
	uint32_t sum = 0;
	for (int i = 0; i < 4096; i++)
		sum += (uint32_t)(a[ia[i]] * b[ib[i]]);
	for (int net = 0; net < 2; net++)
		for (int k = 0; k < 3; k++) {
			ar_config c;
			ar_config_default(&c);
			c.net = net ? AR_NET_MESH : AR_NET_DRAGONFLY;
			c.interleave = net ? 4096 : 64;
			c.root = roots[k];
			c.flow_entries = 1 + (unsigned)k;
			c.buffers = 2;
			run_result r = run_sample_cfg("rand_mac.ar", &c);
			cr_expect_eq((uint32_t)get(&r, "S", 0), sum, "net %d root %d", net, k);
			check_clean(&r);
			ar_program_free(r.p);
		}
	ar_config c;
	ar_config_default(&c);
	c.net = AR_NET_MESH;
	cr_expect_eq(ar_next_hop(&c, 0, 15), 1, "XY: x first");
	cr_expect_eq(ar_next_hop(&c, 3, 15), 7);
	cr_expect_eq(ar_hops(&c, 0, 15), 6);
	cr_expect_eq(ar_host_cube(&c, 2), 12);
	cr_expect_eq(ar_nearest_host(&c, 14), 3);
	cr_expect_eq(ar_meet_cube(&c, 12, 13, 15), 13, "12 -> 13 -> 14 -> 15 shares 13");
	c.interleave = 64;
	cr_expect_eq(ar_cube_of(&c, 64 * 17), 1);
	cr_expect_eq(ar_vault_of(&c, 64 * 16 * 33), 1);
	free(a);
	free(b);
	free(ia);
	free(ib);
}

/* ---- work: fp32 in the documented combine order ---- */

/* mac_f32.ar: the host issues the blocks in ascending order (thread t
 * has blocks t, t+4, ...; round robin); each block computes at its
 * cube, its 16 products folded in element order. */
Test(work, mac_f32)
{
	float *a = rand_floats(51, 4096), *b = rand_floats(52, 4096);
	uint64_t next = 0, ba = place(&next, 4096 * 4);
	for (int k = 0; k < 3; k++) {
		tree_ref t;
		memset(&t, 0, sizeof t);
		for (int i = 0; i < 4096; i++) {
			int cube = cube_at(ba + 4 * (uint64_t)(i / 16 * 16));
			tr_add(&t, root_for(roots[k], (i / 16) % 4, cube), cube, a[i] * b[i]);
		}
		float want;
		cr_assert(tr_result(&t, &want));
		want = 0.0f + want;
		run_result r = run_sample("mac_f32.ar", roots[k], 16, 128);
		float got = getf(&r, "S", 0);
		cr_expect(memcmp(&got, &want, 4) == 0, "root %d: %a, expected %a", k, got, want);
		check_clean(&r);
		ar_program_free(r.p);
	}
	free(a);
	free(b);
}

/* spmv.ar: row r's flow (thread r mod 4), blocks of VAL in order. */
Test(work, spmv)
{
	enum { N = 64, K = 16 };
	float *val = rand_floats(61, N * K), *x = rand_floats(63, N);
	int32_t *col = rand_ints(62, N * K, 0, N);
	uint64_t next = 0, bval = place(&next, N * K * 4);
	for (int k = 0; k < 3; k++) {
		run_result r = run_sample("spmv.ar", roots[k], 16, 128);
		for (int row = 0; row < N; row++) {
			tree_ref t;
			memset(&t, 0, sizeof t);
			for (int p = 0; p < K; p++) {
				int cube = cube_at(bval + 4 * (uint64_t)(row * K + p / 16 * 16));
				tr_add(&t, root_for(roots[k], row % 4, cube), cube,
				       val[row * K + p] * x[col[row * K + p]]);
			}
			float want, got = getf(&r, "Y", (uint64_t)row);
			tr_result(&t, &want);
			want = 0.0f + want;
			cr_expect(memcmp(&got, &want, 4) == 0, "root %d row %d: %a, expected %a", k,
				  row, got, want);
		}
		check_clean(&r);
		ar_program_free(r.p);
	}
	free(val);
	free(x);
	free(col);
}

Test(work, sgemm)
{
	enum { N = 32 };
	float *a = rand_floats(71, N * N), *bt = rand_floats(72, N * N);
	uint64_t next = 0, ba = place(&next, N * N * 4);
	run_result r = run_sample("sgemm.ar", AR_ROOT_ADDR, 16, 128);
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			tree_ref t;
			memset(&t, 0, sizeof t);
			for (int k = 0; k < N; k++) {
				int cube = cube_at(ba + 4 * (uint64_t)(i * N + k / 16 * 16));
				tr_add(&t, cube / 4, cube, a[i * N + k] * bt[j * N + k]);
			}
			float want, got = getf(&r, "C", (uint64_t)(i * N + j));
			tr_result(&t, &want);
			want = 0.0f + want;
			cr_expect(memcmp(&got, &want, 4) == 0, "C[%d][%d]: %a, expected %a", i, j, got,
				  want);
		}
	check_clean(&r);
	ar_program_free(r.p);
	free(a);
	free(bt);
}

Test(work, backprop)
{
	enum { IN = 256, H = 16 };
	float *x = rand_floats(81, IN), *w = rand_floats(82, IN * H);
	uint64_t next = 0, bx = place(&next, IN * 4);
	for (int k = 0; k < 3; k++) {
		run_result r = run_sample("backprop.ar", roots[k], 16, 128);
		for (int j = 0; j < H; j++) {
			tree_ref t;
			memset(&t, 0, sizeof t);
			for (int i = 0; i < IN; i++) {
				int cube = cube_at(bx + 4 * (uint64_t)(i / 16 * 16));
				tr_add(&t, root_for(roots[k], j % 4, cube), cube, x[i] * w[i * H + j]);
			}
			float want, got = getf(&r, "HID", (uint64_t)j);
			tr_result(&t, &want);
			want = 0.0f + want;
			cr_expect(memcmp(&got, &want, 4) == 0, "HID[%d]: %a, expected %a", j, got, want);
		}
		check_clean(&r);
		ar_program_free(r.p);
	}
	free(x);
	free(w);
}

/* The msub flow of a[row][col] over k < i, then its commit old - sum. */
static float lud_flow(const float *a, int n, int row, int col, int i, uint64_t base)
{
	tree_ref t;
	memset(&t, 0, sizeof t);
	for (int k = 0; k < i; k++) {
		int cube = cube_at(base + 4 * (uint64_t)(row * n + k / 16 * 16));
		tr_add(&t, cube / 4, cube, a[row * n + k] * a[k * n + col]);
	}
	float s;
	return tr_result(&t, &s) ? a[row * n + col] - s : a[row * n + col];
}

Test(work, lud)
{
	enum { N = 16 };
	float *a = rand_floats(91, N * N);
	for (int i = 0; i < N; i++) {
		for (int j = i; j < N; j++)
			a[i * N + j] = lud_flow(a, N, i, j, i, 0);
		for (int j = i + 1; j < N; j++)
			a[j * N + i] = lud_flow(a, N, j, i, i, 0) / a[i * N + i];
	}
	run_result r = run_sample("lud.ar", AR_ROOT_ADDR, 16, 128);
	for (int k = 0; k < N * N; k++) {
		float got = getf(&r, "A", (uint64_t)k);
		cr_expect(memcmp(&got, &a[k], 4) == 0, "A[%d]: %a, expected %a", k, got, a[k]);
	}
	check_clean(&r);
	ar_program_free(r.p);
	free(a);
}

Test(work, pagerank)
{
	enum { V = 256, K = 8 };
	uint64_t next = 0, bpr = place(&next, V * 4), bnp = place(&next, V * 4);
	place(&next, V * K * 4);
	uint64_t binvk = place(&next, 4);
	int32_t *p = perm(101, V * K);
	float pr[V], np[V], invk = 0.10625f, base = 0.0005859375f, diff = 0;
	for (int v = 0; v < V; v++) {
		pr[v] = 0.00390625f;
		np[v] = base;
	}
	for (int it = 0; it < 2; it++) {
		for (int v = 0; v < V; v++) {
			tree_ref t;
			memset(&t, 0, sizeof t);
			for (int k = 0; k < K; k++) {
				int src = p[v * K + k] % V, ca = cube_at(bpr + 4 * (uint64_t)src);
				int cube = df_meet(4 * (ca / 4), ca, cube_at(binvk));
				tr_add(&t, ca / 4, cube, pr[src] * invk);
			}
			float s;
			tr_result(&t, &s);
			np[v] = np[v] + s;
		}
		tree_ref t;
		memset(&t, 0, sizeof t);
		for (int v = 0; v < V; v++) {
			int ca = cube_at(bnp + 4 * (uint64_t)v);
			tr_add(&t, ca / 4, df_meet(4 * (ca / 4), ca, cube_at(bpr + 4 * (uint64_t)v)),
			       fabsf(np[v] - pr[v]));
			pr[v] = np[v];
			np[v] = base;
		}
		float s;
		tr_result(&t, &s);
		diff = diff + s;
	}
	run_result r = run_sample("pagerank.ar", AR_ROOT_ADDR, 16, 128);
	for (int v = 0; v < V; v++) {
		float got = getf(&r, "PR", (uint64_t)v);
		cr_expect(memcmp(&got, &pr[v], 4) == 0, "PR[%d]: %a, expected %a", v, got, pr[v]);
	}
	float got = getf(&r, "DIFF", 0);
	cr_expect(memcmp(&got, &diff, 4) == 0, "DIFF: %a, expected %a", got, diff);
	check_clean(&r);
	cr_expect_eq(r.st.assigns, 2 * 2 * V);
	ar_program_free(r.p);
	free(p);
}

/* ---- invariants and statistics ---- */

Test(invariant, every_update_once)
{
	run_result r = run_sample("rand_mac.ar", AR_ROOT_TID, 16, 128);
	check_clean(&r);
	cr_expect_eq(r.st.updates_issued, 4096);
	cr_expect_eq(r.st.elem_ops, 4096);
	uint64_t per_cube = 0;
	for (int c = 0; c < AR_CUBES; c++)
		per_cube += r.st.cube_updates[c];
	cr_expect_eq(per_cube, 4096);
	cr_expect_eq(r.st.pk[AR_PK_OPREQ].packets, r.st.pk[AR_PK_OPRESP].packets);
	cr_expect_eq(r.st.pk[AR_PK_GREQ].packets, r.st.pk[AR_PK_GRESP].packets);
	cr_expect_eq(r.st.commits, 1);
	cr_expect_eq(r.st.trees, 4, "ART-tid with 4 threads builds 4 trees");
	ar_program_free(r.p);
}

/* RR offloads whole blocks: mac ships 64 B of addresses per 16 pairs,
 * PEI ships the data, so Active-Routing moves less over the host links
 * (Fig 10's microbenchmarks). */
Test(invariant, fig10_mac_below_pei)
{
	run_result r = run_sample("mac.ar", AR_ROOT_ADDR, 16, 128);
	uint64_t art = r.st.host_active + r.st.host_normal;
	uint64_t pei = r.st.pei_host_active + r.st.pei_host_normal;
	cr_expect_lt(art, pei);
	cr_expect_eq(r.st.pk[AR_PK_UPDATE].packets, 256);
	ar_program_free(r.p);
}

/* ---- the links (doc "The network": bandwidth and queueing) ---- */

/* One Update whose second operand straddles two blocks of cube 1: the
 * two operand requests leave cube 0 on the link 0 -> 1 in one cycle, so
 * the second waits for the first.  By hand, R = 20 bytes a cycle, times
 * in 1/20 cycle (doc "The network"):
 *   cycle 1: the host sends the 48 B Update down host link 0: head at
 *     20 + 8*20 = 180, tail 228 -> cube 0 at cycle 12 (ceil 11.4);
 *   cycle 2: the Gather's request (16 B) finds host link 0 busy until
 *     68: starts at 68 (waits 28), cube 0 at (68 + 160 + 16) / 20 -> 13;
 *   cycle 12: cube 0 computes; the request for B[8..16) takes link 0->1
 *     from 240 to 256, arrives (240 + 80 + 16) / 20 -> 17; the one for
 *     B[16..24) waits until 256 (16), arrives (256 + 96) / 20 -> 18; A's
 *     block is read in cube 0 and back at 12 + 25 = 37;
 *   cycles 42 and 43: the 48 B responses leave cube 1 for cube 0; the
 *     first holds link 1->0 from 840 to 888 and lands at 968 -> 49; the
 *     second (head at 860) waits until 888 (28), lands at 1016 -> 51;
 *   cycle 51: S's partial (32 B) goes up host link 0: 1020 + 160 + 32
 *     -> 61; the commit (32 B) goes down host link 0 and over 0 -> 2:
 *     1220 + 160 + 80 + 32 = 1492 -> cycle 75; the host's last cycle,
 *     which the commit wakes, is 76, the run's end.
 * Waits: 3 packets, 28 + 16 + 28 = 72 twentieths of a cycle.  With no
 * limit (link-bytes 0) the same run ends at 63 (the commit at 62), nothing waits. */
static const char two_requests[] =
	"threads 1\n"
	"array A i32 16 init=iota\n"
	"array B i32 32 init=iota\n"
	"array S i32 1\n"
	"UpdateRR A[0], B[8], S[0], mac\n"
	"Gather S[0], 1\n";

Test(link, two_packets_share_a_link)
{
	ar_config c;
	ar_config_default(&c);
	cr_expect_eq(c.link_bytes, 20);
	run_result r = run_text("two.ar", two_requests, &c, NULL, 0);
	cr_assert_eq(r.rc, 0, "%s", r.d.msg);
	int64_t want = 0;
	for (int k = 0; k < 16; k++)
		want += k * (k + 8);
	cr_expect_eq((int32_t)get(&r, "S", 0), want);
	cr_expect_eq(r.st.cycles, 76);
	cr_expect_eq(r.st.link_waits, 3);
	cr_expect_eq(r.st.link_wait_units, 72);
	cr_expect_eq(r.st.cube_link_wait[0], 16 + 28);   /* the request, and host 0's link */
	cr_expect_eq(r.st.cube_link_wait[1], 28);
	/* Fig 9: issued at 1, requests out at 12, operands all in at 51 */
	cr_expect_eq(r.st.lat_count, 1);
	cr_expect_eq(r.st.lat_request, 11);
	cr_expect_eq(r.st.lat_stall, 0);
	cr_expect_eq(r.st.lat_response, 39);
	check_clean(&r);
	ar_program_free(r.p);
	c.link_bytes = 0;
	r = run_text("two.ar", two_requests, &c, NULL, 0);
	cr_assert_eq(r.rc, 0, "%s", r.d.msg);
	cr_expect_eq((int32_t)get(&r, "S", 0), want);
	cr_expect_eq(r.st.cycles, 63);
	cr_expect_eq(r.st.link_waits, 0);
	ar_program_free(r.p);
}

/* Fig 8/9: with the data over all 16 cubes (reduce at N = 65536 is 64
 * pages), every Update of naive ART enters through controller 0's one
 * link and cube 0, so it queues there; ART-tid and ART-addr spread the
 * Updates over the four ports. */
Test(link, naive_root_is_slower)
{
	char *defs[] = { "N=65536" };
	run_result by[3];
	for (int root = 0; root < 3; root++) {
		ar_config c;
		ar_config_default(&c);
		c.root = (ar_root_policy)root;
		char path[512];
		snprintf(path, sizeof path, SAMPLES "reduce.ar");
		char *text = proc_slurp(path, NULL);
		cr_assert_not_null(text);
		by[root] = run_text(path, text, &c, defs, 1);
		free(text);
		cr_assert_eq(by[root].rc, 0, "%s", by[root].d.msg);
		check_clean(&by[root]);
	}
	const ar_stats *n = &by[AR_ROOT_NAIVE].st, *t = &by[AR_ROOT_TID].st,
		       *a = &by[AR_ROOT_ADDR].st;
	cr_expect_eq(get(&by[0], "SUM", 0), get(&by[2], "SUM", 0));
	cr_expect_eq(get(&by[1], "SUM", 0), get(&by[2], "SUM", 0));
	/* untimed links made them 4170 and 4154 cycles: now over 1.5 times */
	cr_expect_gt(2 * n->cycles, 3 * a->cycles, "naive %llu, addr %llu",
		     (unsigned long long)n->cycles, (unsigned long long)a->cycles);
	cr_expect_gt(n->cycles, t->cycles);
	cr_expect_gt(n->link_wait_units, a->link_wait_units);
	uint64_t rn = n->lat_request + n->lat_stall + n->lat_response;
	uint64_t ra = a->lat_request + a->lat_stall + a->lat_response;
	cr_expect_gt(rn, ra, "round trips: naive %llu, addr %llu", (unsigned long long)rn,
		     (unsigned long long)ra);
	for (int root = 0; root < 3; root++)
		ar_program_free(by[root].p);
	/* link-bytes 0 is the untimed model of before: its cycles exactly */
	static const uint64_t untimed[3] = { 4170, 4168, 4154 };
	for (int root = 0; root < 3; root++) {
		ar_config c;
		ar_config_default(&c);
		c.root = (ar_root_policy)root;
		c.link_bytes = 0;
		char *text = proc_slurp(SAMPLES "reduce.ar", NULL);
		cr_assert_not_null(text);
		run_result r = run_text("reduce.ar", text, &c, defs, 1);
		free(text);
		cr_assert_eq(r.rc, 0, "%s", r.d.msg);
		cr_expect_eq(r.st.cycles, untimed[root], "root %d: %llu cycles", root,
			     (unsigned long long)r.st.cycles);
		cr_expect_eq(r.st.link_waits, 0);
		ar_program_free(r.p);
	}
}

/* §VI-A 3: for reduce "PEI ... needs to bring part of the data on chip
 * and offload it with the instruction".  One UpdateRR of 16 i32 with no
 * second operand: a load (request 16 B, response 16 + 64 B: normal),
 * the PEI carrying the block to S's vault (16 + 80 B) and the Gather's
 * store (32 B): active. */
Test(pei, one_operand_update_ships_its_data)
{
	static const char text[] = "array A i32 16 init=iota\narray S i32 1\n"
				   "UpdateRR A[0], nil, S[0], sum\nGather S[0], 1\n";
	ar_config c;
	ar_config_default(&c);
	run_result r = run_text("one.ar", text, &c, NULL, 0);
	cr_assert_eq(r.rc, 0, "%s", r.d.msg);
	cr_expect_eq(get(&r, "S", 0), 120);
	cr_expect_eq(r.st.pei_host_normal, 16 + 80);
	cr_expect_eq(r.st.pei_host_active, 96 + 32);
	cr_expect_eq(r.st.pei_pk.packets, 4);
	cr_expect_eq(r.st.pei_cube_compute[1], 16);   /* S (at 4096) is in cube 1 */
	ar_program_free(r.p);
}

/* ---- Fig 3b: the compute point of an irregular pair ---- */

Test(route, fig3)
{
	ar_config c;
	ar_config_default(&c);
	cr_expect_eq(ar_meet_cube(&c, 12, 13, 15), 12);
	cr_expect_eq(ar_meet_cube(&c, 0, 13, 15), 13); /* 0 -> 3 -> 13, then 13 -> 15 */
	cr_expect_eq(ar_next_hop(&c, 0, 13), 3);
	cr_expect_eq(ar_next_hop(&c, 3, 13), 13);
	cr_expect_eq(ar_hops(&c, 0, 15), 3);
	cr_expect_eq(ar_nearest_host(&c, 13), 3);
	const char *prog = "array X i32 16 * 1024\narray S i32 1\n"
			   "UpdateII X[13 * 1024], X[15 * 1024], S[0], mac\nGather S[0], 1\n";
	run_result r = run_text("fig3.ar", prog, &c, NULL, 0);
	cr_assert_eq(r.rc, 0, "%s", r.d.msg);
	cr_expect_eq(r.st.cube_updates[12], 1, "computed at cube 12");
	cr_expect_eq(r.st.cube_operands[13], 1);
	cr_expect_eq(r.st.cube_operands[15], 1);
	cr_expect_eq(r.st.pk[AR_PK_OPREQ].packets, 2);
	cr_expect_eq(r.st.pk[AR_PK_OPREQ].byte_hops, 2 * 16, "one hop each");
	cr_expect_eq(r.st.pk[AR_PK_UPDATE].byte_hops, 0, "the root is the compute point");
	ar_program_free(r.p);
	c.root = AR_ROOT_NAIVE;
	r = run_text("fig3.ar", prog, &c, NULL, 0);
	cr_assert_eq(r.rc, 0, "%s", r.d.msg);
	cr_expect_eq(r.st.cube_updates[13], 1, "from cube 0 the routes part at cube 13");
	cr_expect_eq(r.st.max_depth, 2);
	ar_program_free(r.p);
}

/* ---- one entry, one buffer ---- */

Test(tiny, one_entry_one_buffer)
{
	static const char *const files[] = { "reduce.ar", "mac.ar", "rand_mac.ar", "spmv.ar",
					     "pagerank.ar", "lud.ar" };
	for (size_t f = 0; f < sizeof files / sizeof files[0]; f++)
		for (int k = 0; k < 3; k++) {
			if (f == 3 && roots[k] == AR_ROOT_TID)
				continue; /* crossing trees: tiny/spmv_tid_one_entry */
			run_result big = run_sample(files[f], roots[k], 16, 128);
			run_result r = run_sample(files[f], roots[k], 1, 1);
			check_clean(&r);
			cr_expect_leq(r.st.max_table, 1);
			cr_expect_leq(r.st.max_buffers, 1);
			for (size_t a = 0; a < ar_array_count(r.p); a++)
				for (uint64_t e = 0; e < ar_array_len(r.p, a); e++)
					cr_assert_eq(ar_array_get(r.p, a, e), ar_array_get(big.p, a, e),
						     "%s root %d: %s[%llu] differs", files[f], k,
						     ar_array_name(r.p, a), (unsigned long long)e);
			if (f < 3)
				cr_expect_gt(r.st.stall_buffer, 0, "%s: with one buffer some Update "
					     "waits", files[f]);
			ar_program_free(r.p);
			ar_program_free(big.p);
		}
}

/* Two flows on two trees (ART-tid), each holding the only entry the
 * other needs on its way (cube 1 and cube 7): reported as a deadlock,
 * naming a waiting Update.  The paper's deadlock freedom is the operand
 * buffers' (reserved before the operand requests go out). */
/* With the links' queueing, spmv's ART-tid trees (rooted at the four
 * controllers, computing in group 0) cross: one flow holds cube 0's one
 * entry and waits at cube 2 for the entry a flow rooted at cube 8 holds,
 * which waits at cube 0.  Before the links were timed the schedule
 * happened to miss it; it is reported, at its line. */
Test(tiny, spmv_tid_one_entry)
{
	ar_config c;
	ar_config_default(&c);
	c.root = AR_ROOT_TID;
	c.flow_entries = 1;
	c.buffers = 1;
	char path[512];
	snprintf(path, sizeof path, SAMPLES "spmv.ar");
	char *text = proc_slurp(path, NULL);
	cr_assert_not_null(text);
	run_result r = run_text(path, text, &c, NULL, 0);
	free(text);
	cr_expect_eq(r.rc, -1);
	cr_expect(strstr(r.d.msg, "error: deadlock: at cube 0 an Update of Y[6] (line 14, thread 2) "
			 "waits for a flow-table entry (1 in use)"), "%s", r.d.msg);
	ar_program_free(r.p);
	c.flow_entries = 2;
	r = run_sample_cfg("spmv.ar", &c);
	check_clean(&r);
	ar_program_free(r.p);
}

Test(tiny, deadlock_is_reported)
{
	ar_config c;
	ar_config_default(&c);
	c.flow_entries = 1;
	c.root = AR_ROOT_TID;
	const char *p = "threads 2\narray X i32 16 * 1024\narray S i32 2\n"
			"UpdateII X[(5 - 4 * tid) * 1024], nil, S[tid], sum\nGather S[tid], 1\n";
	run_result r = run_text("dl.ar", p, &c, NULL, 0);
	cr_expect_neq(r.rc, 0);
	cr_expect(strstr(r.d.msg, "dl.ar: error: deadlock: at cube 1 an Update of S[1] (line 4, "
			 "thread 1) waits for a flow-table entry (1 in use)"), "%s", r.d.msg);
	ar_program_free(r.p);
	c.flow_entries = 2;
	r = run_text("dl.ar", p, &c, NULL, 0);
	cr_expect_eq(r.rc, 0, "%s", r.d.msg);
	ar_program_free(r.p);
}

/* Thread 1's Gather (a barrier of one) collects thread 0's Update; thread
 * 0's own Gather closes while that round still gathers and goes on with
 * its commit. */
Test(invariant, overlapping_rounds)
{
	ar_config c;
	ar_config_default(&c);
	const char *p = "threads 2\narray X i32 16 * 1024 init=iota\narray S i32 1 init=const:5\n"
			"for i = 0, 1 - tid\nUpdateII X[9 * 1024], nil, S[0], sum\nend\n"
			"Gather S[0], 1\nGather S[0], 1\n";
	run_result r = run_text("o.ar", p, &c, NULL, 0);
	cr_assert_eq(r.rc, 0, "%s", r.d.msg);
	cr_expect_eq(get(&r, "S", 0), 5 + 9 * 1024);
	cr_expect_eq(r.st.commits, 1);
	check_clean(&r);
	ar_program_free(r.p);
}

/* ---- the waiting queues against one list walked in arrival order ---- */

static bool try_ok(uint32_t id, int pass)
{
	return (id * 2654435761u + (uint32_t)pass * 40503u) % 5 < 2;
}

static bool any_stalled(const ar_event *ev)
{
	return ev->stall != STALL_NONE;
}

Test(wait, same_order_as_one_list)
{
	enum { N = 600, PASSES = 5000 };
	ar_waiting w = { 0 };
	int64_t key[N];
	uint32_t list[N], tried_ref[N], tried[N];
	size_t nlist = 0;
	srand(7);
	for (uint32_t id = 0; id < N; id++) {
		key[id] = rand() % 9 - 1; /* -1: no tree */
		ar_event ev = { .a = id, .stall = (uint8_t)(id % 3 == 0 ? STALL_BUFFER : STALL_NONE) };
		cr_assert_eq(ar_wait_push(&w, key[id], &ev), 0);
		list[nlist++] = id;
	}
	cr_expect(ar_wait_has(&w, key[0] < 0 ? 3 : key[0]) || key[0] < 0);
	cr_expect(!ar_wait_has(&w, -1), "packets of no tree hold nothing back");
	cr_expect(!ar_wait_has(&w, 1000));
	const ar_event *old = ar_wait_oldest(&w, any_stalled);
	cr_assert(old);
	cr_expect_eq(old->a, 0, "the oldest stalled packet is the first pushed");
	for (int pass = 0; pass < PASSES && nlist; pass++) {
		/* the simple scheme */
		size_t nref = 0, out = 0;
		bool blocked[8] = { false };
		for (size_t i = 0; i < nlist; i++) {
			uint32_t id = list[i];
			if (key[id] >= 0 && blocked[key[id]]) {
				list[out++] = id;
				continue;
			}
			tried_ref[nref++] = id;
			if (!try_ok(id, pass)) {
				if (key[id] >= 0)
					blocked[key[id]] = true;
				list[out++] = id;
			}
		}
		nlist = out;
		/* the queues */
		size_t n = 0;
		cr_assert_eq(ar_wait_begin(&w), 0);
		for (ar_event *ev; (ev = ar_wait_next(&w));) {
			cr_assert_lt(n, N);
			tried[n++] = ev->a;
			ar_wait_done(&w, try_ok(ev->a, pass));
		}
		ar_wait_end(&w);
		cr_assert_eq(n, nref, "pass %d: %zu tries, the list made %zu", pass, n, nref);
		for (size_t i = 0; i < n; i++)
			cr_assert_eq(tried[i], tried_ref[i], "pass %d, try %zu", pass, i);
		cr_assert_eq(w.n, nlist);
	}
	cr_expect_eq(nlist, 0, "every packet was processed");
	ar_wait_free(&w);
}

/* A pass cut short (the run failed) keeps every packet it did not reach. */
Test(wait, pass_cut_short_keeps_the_rest)
{
	ar_waiting w = { 0 };
	for (uint32_t id = 0; id < 10; id++) {
		ar_event ev = { .a = id };
		cr_assert_eq(ar_wait_push(&w, id % 2 ? -1 : (int64_t)id, &ev), 0);
	}
	cr_assert_eq(ar_wait_begin(&w), 0);
	for (int i = 0; i < 3; i++) {
		ar_event *ev = ar_wait_next(&w);
		cr_assert(ev);
		cr_expect_eq(ev->a, (uint32_t)i);
		ar_wait_done(&w, i == 1);
	}
	ar_wait_end(&w);
	cr_expect_eq(w.n, 9);
	cr_assert_eq(ar_wait_begin(&w), 0);
	uint32_t want[] = { 0, 2, 3, 4, 5, 6, 7, 8, 9 };
	for (size_t i = 0; i < 9; i++) {
		ar_event *ev = ar_wait_next(&w);
		cr_assert(ev);
		cr_expect_eq(ev->a, want[i]);
		ar_wait_done(&w, true);
	}
	cr_expect_null(ar_wait_next(&w));
	ar_wait_end(&w);
	cr_expect_eq(w.n, 0);
	ar_wait_free(&w);
}

/* ---- errors: one message at FILE:LINE:COL ---- */

typedef struct bad_case {
	const char *text, *msg;
} bad_case;

static const bad_case bad[] = {
	{ "array A q32 4\n", "t.ar:1:9: error: unknown type 'q32'" },
	{ "array A i32 0\n", "t.ar:1:13: error: an array needs at least 1 element" },
	{ "array A i32 4 init=randm:1\n", "t.ar:1:20: error: unknown init" },
	{ "array A i32 4 init=random:x\n", "t.ar:1:27: error: expected an integer" },
	{ "array A f32 4 init=perm:3\n", "t.ar:1:25: error: perm fills an integer array" },
	{ "array A i32 4\narray A i32 4\n", "t.ar:2:7: error: 'A' is already defined" },
	{ "param N = 1 / 0\n", "t.ar:1:13: error: division by zero" },
	{ "param N = 4294967296 * 4294967296 + 64\n",
	  "t.ar:1:22: error: the constant overflows 64-bit integers" },
	{ "array A i32 9223372036854775807 + 2\n",
	  "t.ar:1:33: error: the constant overflows 64-bit integers" },
	{ "threads 0\n", "t.ar:1:1: error: threads must be 1 to 64" },
	{ "array A i32 4\nfor i = 0, 4\n", "t.ar:2:1: error: this 'for' has no 'end'" },
	{ "end\n", "t.ar:1:1: error: 'end' without a 'for'" },
	{ "array S i32 1\nGather S[0], 1\narray B i32 1\n",
	  "t.ar:3:1: error: 'array' must come before the first statement" },
	{ "array S i32 1\nUpdateII S[0], S[0], S[0], mul\n", "t.ar:2:28: error: unknown operation 'mul'" },
	{ "array S i32 1\nUpdateII S[0], nil, S[0], mac\n", "t.ar:2:16: error: mac needs a second operand" },
	{ "array S f32 1\nUpdateII S[0], S[0], S[0], xor\n", "t.ar:2:28: error: xor needs integer operands" },
	{ "array S f32 1\narray T i32 1\nUpdateII T[0], nil, S[0], sum\n",
	  "t.ar:3:10: error: the first operand 'T' is i32 but the target is f32" },
	{ "array S i32 1\nUpdateRR S[0], nil, S[0], mov\n", "t.ar:2:27: error: mov assigns one element: use UpdateII" },
	{ "array S i32 1\nUpdateII 5, nil, S[0], sum\n", "t.ar:2:10: error: only const takes a number" },
	{ "array S i32 1\nUpdateII 5000000000, nil, S[0], const\n", "t.ar:2:10: error: 5000000000 does not fit in i32" },
	{ "array S i32 1\nUpdateII S[lane], nil, S[0], sum\n", "t.ar:2:12: error: 'lane' is only meaningful" },
	{ "array S i32 1\nUpdateII S[0], nil, S[0], sum, 3\n", "t.ar:2:30: error: UpdateII has no element count" },
	{ "array S i32 1\nUpdateII S[0] nil\n", "t.ar:2:15: error: expected ',' after the first operand, found 'nil'" },
	{ "array S i32 1\nUpdateII S[q], nil, S[0], sum\n", "t.ar:2:12: error: unknown name 'q'" },
	{ "array S i32 1\nGather S[0], 1 2\n", "t.ar:2:16: error: unexpected '2' after Gather's number of threads" },
	{ "array S i32 1\nfrobnicate\n", "t.ar:2:1: error: unknown statement 'frobnicate'" },
	{ "array S i32 1 @\n", "t.ar:1:15: error: unexpected character '@'" },
	{ "array S i32 1\nUpdateII S[0x], nil, S[0], sum\n", "t.ar:2:12: error: malformed hexadecimal number" },
	{ "array F f32 4\narray S i32 1\nUpdateII S[F[0]], nil, S[0], sum\n",
	  "t.ar:3:12: error: array 'F' is f32: an index must be an integer array" },
	/* errors found while running, at the same line and column */
	{ "array S i32 4\nfor i = 0, 5\nUpdateII S[i], nil, S[0], sum\nend\nGather S[0], 1\n",
	  "t.ar:3:10: error: index 4 is outside S (4 elements)" },
	{ "array S i32 4\nfor i = 0, 4, 0\nend\n", "t.ar:2:15: error: the loop's step is 0" },
	{ "array S i32 4\nfor i = 0, 4\nUpdateII S[0 * (1 / (i - 2))], nil, S[0], sum\nend\n",
	  "t.ar:3:19: error: division by zero" },
	{ "array S i32 32\nUpdateRR S[4], nil, S[0], sum, 13\nGather S[0], 1\n",
	  "t.ar:2:32: error: count 13 is outside 1..12" },
	{ "array S i32 2\nUpdateII S[0], S[1], S[0], div\n", "t.ar:2:1: error: integer division by zero" },
	{ "array S i32 2\nUpdateII S[0], nil, S[1], sum\nUpdateII S[0], nil, S[1], max\nGather S[1], 1\n",
	  "t.ar:3:1: error: this max Update joins the sum flow of S[1] (line 2)" },
	{ "array S i32 2\nUpdateII S[0], nil, S[1], sum\n",
	  "t.ar:2:1: error: the flow of S[1] has 1 Updates that no Gather collected" },
	{ "threads 2\narray S i32 2\nGather S[0], 3\n", "t.ar:3:14: error: Gather's number of threads is 3" },
	{ "threads 2\narray S i32 2\nfor i = 0, tid\nGather S[0], 2\nend\n",
	  "t.ar:4:1: error: deadlock: this Gather waits for 2 threads but only 1 reach it" },
	{ "threads 2\narray S i32 2\nGather S[0], 2 - tid\n",
	  "t.ar:3:1: error: this Gather counts 1 threads but the Gather at line 3, which this one joins, counts 2" },
};

Test(error, located)
{
	ar_config c;
	ar_config_default(&c);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		run_result r = run_text("t.ar", bad[i].text, &c, NULL, 0);
		cr_expect_neq(r.rc, 0, "case %zu accepted: %s", i, bad[i].text);
		cr_expect(strncmp(r.d.msg, bad[i].msg, strlen(bad[i].msg)) == 0,
			  "case %zu:\n got  %s\n want %s", i, r.d.msg, bad[i].msg);
		ar_program_free(r.p);
	}
}

Test(error, params_and_limits)
{
	ar_config c;
	ar_config_default(&c);
	char *defs[] = { (char *)"M=3" };
	run_result r = run_text("t.ar", "param N = 4\narray S i32 N\n", &c, defs, 1);
	cr_expect_str_eq(r.d.msg, "t.ar: error: -D M=3: the program has no such param");
	ar_program_free(r.p);
	c.max_memory = 1024;
	r = run_text("t.ar", "array S i32 1000\n", &c, NULL, 0);
	cr_expect(strstr(r.d.msg, "t.ar:1:13: error: the arrays would need more than 1024 bytes"),
		  "%s", r.d.msg);
	ar_program_free(r.p);
	ar_config_default(&c);
	c.max_events = 100;
	r = run_text("t.ar", "array S i32 1\nfor i = 0, 1000000\nend\n", &c, NULL, 0);
	cr_expect(strstr(r.d.msg, "more than 100"), "%s", r.d.msg);
	ar_program_free(r.p);
	char nul[] = "array S i32 1\n\0\n";
	diag d;
	diag_clear(&d);
	ar_program *p = ar_parse("t.ar", nul, sizeof nul - 1, NULL, 0, &c, &d);
	cr_expect_null(p);
	cr_expect_str_eq(d.msg, "t.ar:2:1: error: NUL byte in the program text");
}

/* ---- the program ---- */

#define RUN_TMP_PREFIX "infsim-ar"
#include "infsim_run.h"

TestSuite(cli, .init = make_tmpdir, .fini = remove_tmpdir);

Test(cli, run_dispatches_on_ar)
{
	result r = run("run " SAMPLES "mac.ar --stats=json -s S=s.npy --heatmap=h.svg");
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "\"end_state\": {\n    \"ended\": true,\n    \"clean\": true\n"),
		  "%s", r.out);
	cr_expect(strstr(r.out, "\"fig10\""), "%s", r.out);
	result_free(&r);
	char path[512];
	snprintf(path, sizeof path, "%s/h.svg", tmpdir);
	char *svg = proc_slurp(path, NULL);
	cr_assert_not_null(svg);
	cr_expect(strstr(svg, "<svg") && strstr(svg, "cube 15"));
	free(svg);
	r = run("run -q -D N=64 " SAMPLES "reduce.ar");
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect_str_eq(r.out, "");
	result_free(&r);
	r = run("ar s.ar -l S=s.npy");
	cr_expect_eq(r.status, 1);
	cr_expect(strstr(r.err, "s.ar: error: cannot open"), "%s", r.err);
	result_free(&r);
	r = run("ar " SAMPLES "mac.ar --root=middle");
	cr_expect_eq(r.status, 2);
	cr_expect(strstr(r.err, "infsim: -m root=middle: expected naive, tid or addr\n"
				"Try 'infsim run --help' for more information.\n"), "%s", r.err);
	result_free(&r);
	r = run("ar " SAMPLES "mac.ar --buffers=70000");
	cr_expect_eq(r.status, 2);
	cr_expect(strstr(r.err, "infsim: -m buffers=70000: expected a number from 1 to 65536\n"), "%s", r.err);
	result_free(&r);
	r = run("ar " SAMPLES "mac.ar --link-bytes=fast");
	cr_expect_eq(r.status, 2);
	cr_expect(strstr(r.err, "infsim: -m link-bytes=fast: expected a number from 0 to 4096\n"),
		  "%s", r.err);
	result_free(&r);
	r = run("ar --help");
	cr_expect_eq(r.status, 0);
	cr_expect(strstr(r.out, "Usage: infsim ar PROG [OPTION]..."), "%s", r.out);
	cr_expect(strstr(r.out, "--root="), "%s", r.out);
	cr_expect(!strstr(r.out, "--tdfg="), "%s", r.out);
	result_free(&r);
}

/* infsdb on a .ar program, in the one console: the batch transcript
 * tests/dbg/ar_mac.cmds (a breakpoint on a flow, stepi over events, step
 * over Updates, info flows, info partials, print, and the messages of
 * bad commands; its whole output is test_dbg's), seen here as a user's
 * shell sees it: the results on standard output, every error on standard
 * error, and exit status 1 because commands failed. */
Test(cli, infsdb_transcript)
{
	result r = proc_run_in(tmpdir, INFSDB_BIN, "-batch -nx -x " SRCDIR "/tests/dbg/ar_mac.cmds "
			       SAMPLES "mac.ar");
	cr_expect_eq(r.status, 1, "a command failed");
	cr_expect(strstr(r.out, "Breakpoint 1, event 11: cycle 12: cube 0 receives an Update of "
			 "S[0] (mac, thread 0, line 9) from the host at "),
		  "%s", r.out);
	cr_expect(strstr(r.out, "cube 0: 1 of 16 flows, 1 of 128 buffers, 0 waiting\n"
			 "  S[0] (mac), tree of host 0: parent the host"), "%s", r.out);
	cr_expect(strstr(r.out, "S[0]: mac flow, 69 Updates issued, updating\n"
			 "  cube 0, tree of host 0: partial -6025 from 2 Updates\n"), "%s", r.out);
	cr_expect(strstr(r.out, "The program ended after 1899 events (256 Updates), cycle 1113.\n"
			 "$1 = -86675\nevery flow table is empty\n"), "%s", r.out);
	cr_expect(strstr(r.out, "Units, finest first: event, Update.\n"), "%s", r.out);
	cr_expect(strstr(r.err, "The program is not being run: it has ended.\n"
			 "Undefined command: \"frobnicate\".  Try \"help\".\n"
			 "break: Q[0]: error: no such array\n"
			 "break: S[7]: error: expected ARRAY[INDEX] with an index inside the array\n"
			 "info partials: S[0]: error: no flow into it is under way\n"), "%s", r.err);
	/* ": error:" (the build folder's name may hold "error") */
	cr_expect(!strstr(r.out, ": error:") && !strstr(r.out, "Undefined command"), "errors go to "
		  "standard error: %s", r.out);
	result_free(&r);
}
