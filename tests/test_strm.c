/* SPDX-License-Identifier: MIT */
/*
 * test_strm.c: a tDFG's strm nodes (doc/TDFG.md, "strm nodes";
 * infinity-stream §3.3, §5.2, §5.3): the final reduction split between
 * the bitlines and a stream at the banks, the gather near memory, the
 * workloads gather_mlp in and out (fp32 and int32) against the plain C
 * kernels of tests/kernels/strm_kernels.c and the node reference
 * (--check), the ordering hazard, the LOT's trans field, and the
 * messages for bad strm nodes.
 */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proc.h"
#include "stats_json.h"
#include "hazard.h"
#include "machine.h"
#include "tdfg.h"
#include "kernels/strm_kernels.h"

#define RUN_TMP_PREFIX "infsim-strm"
#include "infsim_run.h"

#define WORKLOAD(f) SRCDIR "/samples/workloads/" f
#define JSON(f) SRCDIR "/tests/data/json/" f

/* n 32-bit words into tmpdir/name, little-endian. */
static void put_words(const char *name, const void *v, size_t n)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	FILE *f = fopen(path, "wb");
	cr_assert_not_null(f);
	for (size_t i = 0; i < n; i++) {
		uint32_t w;
		memcpy(&w, (const char *)v + 4 * i, 4);
		const unsigned char le[4] = {w & 0xff, w >> 8 & 0xff, w >> 16 & 0xff, w >> 24};
		cr_assert_eq(fwrite(le, 1, 4, f), 4);
	}
	cr_assert_eq(fclose(f), 0);
}

static void get_words(const char *name, void *v, size_t n)
{
	char path[512];
	unsigned char b[4];
	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	FILE *f = fopen(path, "rb");
	cr_assert_not_null(f, "%s", path);
	for (size_t i = 0; i < n; i++) {
		cr_assert_eq(fread(b, 1, 4, f), 4, "%s: short", path);
		const uint32_t w = b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
				   (uint32_t)b[3] << 24;
		memcpy((char *)v + 4 * i, &w, 4);
	}
	fclose(f);
}

/* Seeded data: floats of mixed magnitudes (so the order of the adds
 * shows in the last bits), or small integers. */
static uint32_t next_rand(uint64_t *s)
{
	*s = *s * 6364136223846793005u + 1442695040888963407u;
	return (uint32_t)(*s >> 33);
}

static void fill_f32(float *v, size_t n, uint64_t seed)
{
	for (size_t i = 0; i < n; i++)
		v[i] = ((float)(next_rand(&seed) % 20001) - 10000.0f) /
		       (float)(1u << (next_rand(&seed) % 12));
}

static void fill_i32(int32_t *v, size_t n, uint64_t seed)
{
	for (size_t i = 0; i < n; i++)
		v[i] = (int32_t)next_rand(&seed);
}

static void run_ok(const char *args, const char *want)
{
	result r = run("%s", args);
	cr_assert_eq(r.status, 0, "infsim %s: exit %d: %s%s", args, r.status, r.out, r.err);
	cr_assert(strstr(r.out, "every tDFG node"), "%s", r.out);
	if (want)
		cr_assert(strstr(r.out, want) || strstr(r.err, want), "wanted '%s' in: %s%s", want,
			  r.out, r.err);
	result_free(&r);
}

TestSuite(strm, .init = make_tmpdir, .fini = remove_tmpdir, .timeout = 120);

/* ---- the split reduction: array sum with 8 tiles ---- */

static const char sum_f32[] =
	"machine wordlines=512 bitlines=64 arrays=16 ways=2 mesh=2x2\n"
	"array X f32 512 init=iota\n"
	"array S f32 512 init=zero\n"
	"region sum 512 tile=64\n"
	"x = tensor X\n"
	"s = strm.reduce.add.f32 x, 0\n"
	"store S, s\n"
	"run sum\n";

static void write_file(const char *name, const char *text)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs(text, f);
	cr_assert_eq(fclose(f), 0);
}

Test(strm, split_sum_f32_matches_c)
{
	float x[512], got[512], c[512];
	fill_f32(x, 512, 11);
	memcpy(c, x, sizeof c);
	const float want = sk_split_sum_f32(c, 512, 64);
	write_file("sum.tdfg", sum_f32);
	put_words("x.bin", x, 512);
	run_ok("run sum.tdfg --check -l X=x.bin -s S=s.bin", NULL);
	get_words("s.bin", got, 512);
	uint32_t a, b;
	memcpy(&a, &want, 4);
	memcpy(&b, &got[0], 4);
	cr_assert_eq(a, b, "C %a, infsim %a", (double)want, (double)got[0]);
	/* The order matters: a plain pairwise sum over all 512 differs here,
	 * so the test can tell the split order from the unsplit one. */
	memcpy(c, x, sizeof c);
	const float whole = sk_split_sum_f32(c, 512, 512);
	memcpy(&a, &whole, 4);
	cr_assert_neq(a, b, "the data do not tell the orders apart");
}

Test(strm, split_sum_i32_and_min)
{
	int32_t x[512], got[512], c[512];
	fill_i32(x, 512, 5);
	memcpy(c, x, sizeof c);
	const int32_t want = sk_split_sum_i32(c, 512, 64);
	char text[1024];
	snprintf(text, sizeof text, "%s", sum_f32);
	for (char *p; (p = strstr(text, "f32"));)
		memcpy(p, "i32", 3);
	write_file("sumi.tdfg", text);
	put_words("x.bin", x, 512);
	run_ok("run sumi.tdfg --check -l X=x.bin -s S=s.bin", NULL);
	get_words("s.bin", got, 512);
	cr_assert_eq(got[0], want);
	/* min: the smallest element, whatever the order */
	char *p = strstr(text, "add.i32");
	memcpy(p, "min", 3);
	write_file("mini.tdfg", text);
	run_ok("run mini.tdfg --check -l X=x.bin -s S=s.bin", NULL);
	get_words("s.bin", got, 512);
	int32_t lo = x[0];
	for (int i = 1; i < 512; i++)
		lo = x[i] < lo ? x[i] : lo;
	cr_assert_eq(got[0], lo);
}

/* One tile over the whole dimension: nothing left to fold near memory
 * (the paper's kmeans/in with T = 128): the result is the plain pairwise
 * sum, and the engines run no stream. */
Test(strm, one_tile_no_final_reduce)
{
	write_file("one.tdfg", "machine wordlines=512 bitlines=64 arrays=4 ways=2 mesh=2x2\n"
		   "region r 64x4 tile=64x1\n"
		   "x = input f32 init=iota\n"
		   "s = strm.reduce.add.f32 x, 0\n"
		   "output s\n");
	run_ok("run one.tdfg --check", NULL);
}

/* ---- gather_mlp: fp32 and int32, inner and outer ---- */

static void gather_mlp(const char *file, bool f32, bool inner)
{
	enum { M = 16, N = 16, K = 16 };
	float ef[M * K], wf[K * N], yf[M * N], gf[M * N];
	int32_t ei[M * K], wi[K * N], yi[M * N], gi[M * N], idx[M];
	uint32_t ix[K * M] = {0}, wfile[K * N];
	fill_f32(ef, M * K, 1);
	fill_f32(wf, K * N, 2);
	fill_i32(ei, M * K, 3);
	fill_i32(wi, K * N, 4);
	uint64_t seed = 9;
	for (int m = 0; m < M; m++) {
		idx[m] = (int32_t)(next_rand(&seed) % M);
		ix[m * K] = (uint32_t)idx[m];
	}
	put_words("e.bin", f32 ? (void *)ef : (void *)ei, M * K);
	put_words("ix.bin", ix, K * M);
	/* inner: WT holds W at (k, j), element j*K + k; outer: W row-major */
	const uint32_t *w = f32 ? (const uint32_t *)(const void *)wf : (const uint32_t *)(const void *)wi;
	for (int k = 0; k < K; k++)
		for (int j = 0; j < N; j++)
			wfile[inner ? j * K + k : k * N + j] = w[k * N + j];
	put_words("w.bin", wfile, K * N);
	char args[1024];
	snprintf(args, sizeof args, "run '%s' --check -l E=e.bin -l IX=ix.bin -l %s=w.bin "
		 "-s %s=y.bin", file, inner ? "WT" : "W", inner ? "YT" : "Y");
	run_ok(args, NULL);
	if (f32) {
		if (inner)
			sk_gather_mlp_in_f32(ef, idx, wf, yf, M, N, K, 8);
		else
			sk_gather_mlp_out_f32(ef, idx, wf, yf, M, N, K);
		get_words("y.bin", gf, M * N);
	} else {
		if (inner)
			sk_gather_mlp_in_i32(ei, idx, wi, yi, M, N, K, 8);
		else
			sk_gather_mlp_out_i32(ei, idx, wi, yi, M, N, K);
		get_words("y.bin", gi, M * N);
	}
	for (int m = 0; m < M; m++)
		for (int j = 0; j < N; j++) {
			const size_t at = (size_t)m * N + j; /* Y, or YT at (j, m): Y row-major too */
			uint32_t a, b;
			memcpy(&a, f32 ? (void *)&yf[m * N + j] : (void *)&yi[m * N + j], 4);
			memcpy(&b, f32 ? (void *)&gf[at] : (void *)&gi[at], 4);
			cr_assert_eq(a, b, "%s: Y[%d][%d]: C 0x%08" PRIx32 ", infsim 0x%08" PRIx32,
				     file, m, j, a, b);
		}
}

Test(strm, gather_mlp_in_f32) { gather_mlp(WORKLOAD("gather_mlp_in_f32.tdfg"), true, true); }
Test(strm, gather_mlp_in_i32) { gather_mlp(WORKLOAD("gather_mlp_in_i32.tdfg"), false, true); }
Test(strm, gather_mlp_out_f32) { gather_mlp(WORKLOAD("gather_mlp_out_f32.tdfg"), true, false); }
Test(strm, gather_mlp_out_i32) { gather_mlp(WORKLOAD("gather_mlp_out_i32.tdfg"), false, false); }

/* The samples as shipped (their own index file, iota data). */
Test(strm, samples_run)
{
	run_ok("run '" WORKLOAD("gather_mlp_in_f32.tdfg") "' --check", NULL);
	run_ok("run '" WORKLOAD("gather_mlp_out_i32.tdfg") "' --check", NULL);
}

/* ---- kmeans: the centroid update as a store stream near memory ---- */

/* One kmeans step of the sample (N = 128 points, D = K = 64) on seeded
 * data, against sk_kmeans: the assignment, the sums and the counts, bit
 * for bit, with --check (the node reference) and --strict (no hazard:
 * the stores that read the update stream's results wait for it). */
static void kmeans(const char *file, bool f32, bool inner)
{
	enum { N = 128, D = 64, K = 64, L = 64 * 128 };
	static uint32_t xw[L], cw[L], got[L];
	static float xf[N * D], cf[K * D], sf[K * D];
	static int32_t xi[N * D], ci[K * D], si[K * D];
	int32_t a[N], cnt[K] = {0};
	fill_f32(xf, N * D, 21);
	fill_f32(cf, K * D, 22);
	fill_i32(xi, N * D, 23);
	fill_i32(ci, K * D, 24);
	for (int i = 0; i < N * D; i++)
		xi[i] = xi[i] % 2001 - 1000;
	for (int i = 0; i < K * D; i++)
		ci[i] = ci[i] % 2001 - 1000;
	memset(sf, 0, sizeof sf);
	memset(si, 0, sizeof si);
	memset(cw, 0, sizeof cw);
	memcpy(xw, f32 ? (void *)xf : (void *)xi, sizeof xf); /* (d, n): X row-major */
	const uint32_t *c = f32 ? (const uint32_t *)(const void *)cf : (const uint32_t *)(const void *)ci;
	for (int q = 0; q < K; q++)
		for (int j = 0; j < D; j++)
			cw[inner ? q * D + j : j * D + q] = c[q * D + j]; /* C (d, k) or CT (k, d) */
	put_words("x.bin", xw, L);
	put_words("c.bin", cw, L);
	char args[1024];
	snprintf(args, sizeof args, "run '%s' --check --strict -l X=x.bin -l %s=c.bin -s A=a.bin "
		 "-s S=s.bin -s CNT=cnt.bin", file, inner ? "C" : "CT");
	run_ok(args, NULL);
	if (f32)
		sk_kmeans_f32(xf, cf, N, D, K, inner, a, sf, cnt);
	else
		sk_kmeans_i32(xi, ci, N, D, K, inner, a, si, cnt);
	get_words("a.bin", got, L);
	for (int i = 0; i < N; i++)
		cr_assert_eq((int32_t)got[64 * i], a[i], "%s: a[%d]: C %d, infsim %d", file, i, a[i],
			     (int32_t)got[64 * i]);
	get_words("cnt.bin", got, L);
	int total = 0;
	for (int q = 0; q < K; q++) {
		cr_assert_eq((int32_t)got[64 * q], cnt[q], "%s: cnt[%d]", file, q);
		total += cnt[q];
	}
	cr_assert_eq(total, N);
	get_words("s.bin", got, L);
	const uint32_t *sw = f32 ? (const uint32_t *)(const void *)sf : (const uint32_t *)(const void *)si;
	for (int q = 0; q < K; q++)
		for (int j = 0; j < D; j++)
			cr_assert_eq(got[q * D + j], sw[q * D + j], "%s: S[%d][%d]: C 0x%08" PRIx32
				     ", infsim 0x%08" PRIx32, file, q, j, sw[q * D + j],
				     got[q * D + j]);
}

Test(strm, kmeans_in_f32) { kmeans(WORKLOAD("kmeans_in_f32.tdfg"), true, true); }
Test(strm, kmeans_in_i32) { kmeans(WORKLOAD("kmeans_in_i32.tdfg"), false, true); }
Test(strm, kmeans_out_f32) { kmeans(WORKLOAD("kmeans_out_f32.tdfg"), true, false); }
Test(strm, kmeans_out_i32) { kmeans(WORKLOAD("kmeans_out_i32.tdfg"), false, false); }

/* ---- store streams: affine and indirect, set, add, min, max ---- */

/* An affine store (y = c with v written over v's box), an affine min,
 * an indirect store (the last writer wins) and an indirect max, i32,
 * against values worked out here. */
static const char stores[] =
	"machine wordlines=512 bitlines=64 arrays=4 ways=2 mesh=2x2\n"
	"region r 64x4 tile=16x4\n"
	"c = input i32 init=iota\n"
	"v = input i32 box=8:24,1:3 init=const:-5\n"
	"y = strm.store.i32 c, v\n"
	"z = strm.update.min.i32 c, v\n"
	"i = input i32 box=0:1,0:4 init=const:2\n"
	"w = input i32 box=0:64,0:4 init=iota\n"
	"u = strm.store.i32 c, w, i, 1\n"
	"m = strm.update.max.i32 c, w, i, 1\n"
	"output y, z, u, m\n";

Test(strm, store_streams)
{
	write_file("st.tdfg", stores);
	run_ok("run st.tdfg --check --strict -s y=y.bin -s z=z.bin -s u=u.bin -s m=m.bin", NULL);
	static int32_t y[256], z[256], u[256], m[256];
	get_words("y.bin", y, 256);
	get_words("z.bin", z, 256);
	get_words("u.bin", u, 256);
	get_words("m.bin", m, 256);
	for (int e = 0; e < 256; e++) {
		const int i0 = e % 64, i1 = e / 64;
		const bool in = i0 >= 8 && i0 < 24 && i1 >= 1 && i1 < 3;
		cr_assert_eq(y[e], in ? -5 : e, "y[%d]", e);
		cr_assert_eq(z[e], in ? -5 : e, "z[%d]", e);
		/* every row p of w goes to row 2: the last (p = 3) wins; max of
		 * rows 0..3 and c's row 2 is row 3 */
		cr_assert_eq(u[e], i1 == 2 ? i0 + 192 : e, "u[%d]", e);
		cr_assert_eq(m[e], i1 == 2 ? i0 + 192 : e, "m[%d]", e);
	}
}

/* ---- errors ---- */

static void fails(const char *text, int status, const char *want)
{
	write_file("bad.tdfg", text);
	result r = run("run bad.tdfg");
	cr_assert_eq(r.status, status, "exit %d: %s", r.status, r.err);
	cr_assert(strstr(r.err, want), "wanted '%s' in: %s", want, r.err);
	cr_assert_eq(strchr(r.err, '\n'), r.err + strlen(r.err) - 1, "one message: %s", r.err);
	result_free(&r);
}

#define HEAD "machine wordlines=512 bitlines=64 arrays=4 ways=2 mesh=2x2\nregion r 64x4 tile=16x4\n"

Test(strm, bad_nodes)
{
	fails(HEAD "x = input f32\ns = strm.reduce.mul.f32 x, 0\n", 1,
	      "bad.tdfg:4:17: error: strm.reduce takes add, min or max");
	fails(HEAD "x = input f32\ns = strm.reduce.min.f32 x, 0\n", 1,
	      "a float reduction near memory is an add");
	fails(HEAD "x = input i16\ns = strm.reduce.add.i16 x, 0\n", 1,
	      "a strm node holds i8, u8, i32, u32, i64 or f32 elements");
	fails(HEAD "x = input f32\ns = strm.scan.f32 x, 0\n", 1,
	      "bad.tdfg:4:10: error: expected reduce, gather, store or update after 'strm.', found "
	      "'scan.f32'");
	fails(HEAD "c = input f32\nv = input f32\nu = strm.update.mul.f32 c, v\n", 1,
	      "bad.tdfg:5:17: error: strm.update takes add, min or max");
	fails(HEAD "c = input f32\nv = input f32\nu = strm.update.max.f32 c, v\n", 1,
	      "a float update near memory is an add");
	fails(HEAD "c = input f32\nv = input i32\nu = strm.store.f32 c, v\n", 1,
	      "'v' holds i32 elements; this operand must be f32");
	fails(HEAD "c = input f32 box=0:8,0:4\nv = input f32\nu = strm.store.f32 c, v\n", 1,
	      "the values 'v' span [0, 64) along dimension 0, outside the target 'c' there [0, 8)");
	fails(HEAD "c = input f32\nv = input f32\ni = input f32 box=0:1,0:4\n"
	      "u = strm.update.add.f32 c, v, i, 1\n", 1,
	      "the index 'i' holds f32 elements; expected i8, u8, i32, u32 or i64");
	fails(HEAD "c = input f32\nv = input f32\ni = input i32 box=0:1,0:2\n"
	      "u = strm.update.add.f32 c, v, i, 1\n", 1,
	      "bad.tdfg:6:34: error: the index 'i' spans [0, 2) along dimension 1; it must cover "
	      "the values 'v' there [0, 4)");
	fails(HEAD "c = input f32\nv = input f32\ni = input i32 box=0:1,0:4\n"
	      "u = strm.update.add.f32 c, v, i\n", 1,
	      "expected ',' and the dimension the index selects along");
	fails(HEAD "x = input f32\ni = input f32 box=0:1,0:4\ng = strm.gather.f32 x, i, 1\n", 1,
	      "the index 'i' holds f32 elements; expected i8, u8, i32, u32 or i64");
	fails(HEAD "x = input f32\ni = input i32 box=0:2,0:4\ng = strm.gather.f32 x, i, 1\n", 1,
	      "the index 'i' must be one element wide along every dimension but 1");
	fails(HEAD "x = input f32 box=8:64,0:4\ns = strm.reduce.add.f32 x, 0\noutput s\n", 1,
	      "strm.reduce along dimension 0 needs whole tiles");
}

/* An index outside the source's domain: one message at the node, with
 * the position, and no half-written output. */
Test(strm, gather_index_out_of_range)
{
	fails(HEAD "x = input f32 init=iota\ni = input i32 box=0:1,0:4 init=const:4\n"
	      "g = strm.gather.f32 x, i, 1\noutput g\n", 1,
	      "bad.tdfg:5:5: error: strm.gather 'g': the index 'i' holds 4 at position 0 of "
	      "dimension 1, outside the domain of 'x' there [0, 4)");
}

/* An index outside the target: one message at the node, nothing saved. */
Test(strm, update_index_out_of_range)
{
	fails(HEAD "c = input f32 init=iota box=0:64,0:2\nv = input f32 init=iota\n"
	      "i = input i32 box=0:1,0:4 init=const:2\n"
	      "u = strm.update.add.f32 c, v, i, 1\noutput u\n", 1,
	      "bad.tdfg:6:5: error: strm.update 'u': the index 'i' holds 2 at position 0 of "
	      "dimension 1, outside the target 'c' there [0, 2)");
}

/* An i8 record holds indexes up to 127: a longer target is refused at
 * the node when the stream is built. */
Test(strm, update_index_record_too_narrow)
{
	fails("machine wordlines=512 bitlines=64 arrays=64 ways=2 mesh=2x2\n"
	      "region r 64x200 tile=64x1\nc = input i8\nv = input i8\n"
	      "i = input i32 box=0:1,0:200 init=const:1\n"
	      "u = strm.update.add.i8 c, v, i, 1\noutput u\n", 1,
	      "bad.tdfg:6:5: error: strm.update 'u': the target 'c' spans [0, 200) along "
	      "dimension 1, more than a stream record of its type indexes exactly (up to 127)");
}

/* ---- §5.3: a stream started before the in-memory part synced ---- */

/* The gather reads x, a shift across banks.  The stream's commands are
 * run without their syncs (pc stepped over them): when the stream starts,
 * the move into x is still pending, which is an unsynced read (a
 * warning; under --strict an error). */
static const char unsynced[] =
	"machine wordlines=512 bitlines=64 arrays=16 ways=2 mesh=2x2\n"
	"region r 64x64 tile=16x4\n"
	"a = input f32 init=iota\n"
	"x = shift a, +0, +1\n"
	"i = input i32 box=0:1,0:64 init=const:5\n"
	"g = strm.gather.f32 x, i, 1\n"
	"output g\n";

Test(strm, missing_ordering_is_a_hazard)
{
	write_file("uns.tdfg", unsynced);
	char path[512];
	snprintf(path, sizeof path, "%s/uns.tdfg", tmpdir);
	for (int strict = 0; strict < 2; strict++) {
		emu_tdfg t;
		emu_jit j;
		diag d;
		diag_clear(&d);
		cr_assert_eq(emu_tdfg_load(path, NULL, &t, &j, &d), 0, "%s", d.msg);
		const long g = emu_tdfg_find(&t, "g", 1);
		cr_assert(g >= 0 && t.nodes[g].strm);
		emu_machine *em = emu_machine_new(&j.prog, &d);
		cr_assert_not_null(em, "%s", d.msg);
		cr_assert_eq(emu_machine_set_strict(em, strict), 0);
		cr_assert_eq(emu_init_buffers(em, &d), 0, "%s", d.msg);
		size_t syncs = 0;
		while (em->pc < t.nodes[g].cmd1) {
			const emu_cmd *c = &j.prog.cmds[em->pc];
			if (c->kind == EMU_CMD_MOVE && c->mv.kind == EMU_MOVE_SYNC) {
				em->pc++;
				syncs++;
				continue;
			}
			cr_assert_eq(emu_run_cmd(em, &d), 0, "%s", d.msg);
		}
		cr_assert_geq(syncs, 2, "the shift's sync and the stream's");
		cr_assert_gt(emu_hazard_pending(em->hz), 0, "the shift crosses banks");
		emu_strm_stats st;
		memset(&st, 0, sizeof st);
		const uint64_t before = emu_hazard_count_kind(em->hz, EMU_HZ_UNSYNCED);
		const int rc = emu_strm_exec(&t, &j.prog, em, NULL, (size_t)g, &st, &d);
		if (strict) {
			cr_assert_eq(rc, -1);
			cr_assert(strstr(d.msg, "sync"), "%s", d.msg);
		} else {
			cr_assert_eq(rc, 0, "%s", d.msg);
			cr_assert_gt(emu_hazard_count_kind(em->hz, EMU_HZ_UNSYNCED), before);
		}
		emu_strm_lot_free(&st.lot);
		emu_machine_free(em);
		emu_jit_free(&j);
		emu_tdfg_free(&t);
	}
}

/* §5.3: an in-memory consumer of a store stream waits for it.  The
 * stream's writes into u are visible only after a sync (the JIT puts one
 * before w's commands); run w without it and its read of u is an
 * unsynced read (a warning; under --strict an error). */
static const char consumer[] =
	"machine wordlines=512 bitlines=64 arrays=16 ways=2 mesh=2x2\n"
	"region r 64x64 tile=16x4\n"
	"c = input f32 init=iota\n"
	"v = input f32 init=iota\n"
	"i = input i32 box=0:1,0:64 init=const:5\n"
	"u = strm.update.add.f32 c, v, i, 1\n"
	"w = add.f32 u, c\n"
	"output w\n";

Test(strm, store_stream_consumer_waits)
{
	write_file("cons.tdfg", consumer);
	char path[512];
	snprintf(path, sizeof path, "%s/cons.tdfg", tmpdir);
	for (int strict = 0; strict < 2; strict++) {
		emu_tdfg t;
		emu_jit j;
		diag d;
		diag_clear(&d);
		cr_assert_eq(emu_tdfg_load(path, NULL, &t, &j, &d), 0, "%s", d.msg);
		const long u = emu_tdfg_find(&t, "u", 1), w = emu_tdfg_find(&t, "w", 1);
		cr_assert(u >= 0 && w >= 0 && t.nodes[u].kind == EMU_TN_UPDATE);
		emu_machine *em = emu_machine_new(&j.prog, &d);
		cr_assert_not_null(em, "%s", d.msg);
		cr_assert_eq(emu_machine_set_strict(em, strict), 0);
		cr_assert_eq(emu_init_buffers(em, &d), 0, "%s", d.msg);
		while (em->pc < t.nodes[u].cmd1)
			cr_assert_eq(emu_run_cmd(em, &d), 0, "%s", d.msg);
		emu_strm_stats st;
		memset(&st, 0, sizeof st);
		cr_assert_eq(emu_strm_exec(&t, &j.prog, em, NULL, (size_t)u, &st, &d), 0, "%s",
			     d.msg);
		cr_assert_gt(emu_hazard_pending(em->hz), 0, "the stream's writes wait for a sync");
		const emu_cmd *c = &j.prog.cmds[t.nodes[w].cmd0];
		cr_assert(c->kind == EMU_CMD_MOVE && c->mv.kind == EMU_MOVE_SYNC,
			  "the consumer starts with a sync");
		em->pc = t.nodes[w].cmd0 + 1; /* the sync left out */
		const uint64_t before = emu_hazard_count_kind(em->hz, EMU_HZ_UNSYNCED);
		int rc = 0;
		while (rc == 0 && em->pc < t.nodes[w].cmd1)
			rc = emu_run_cmd(em, &d);
		/* the report names the stream and the ordering it misses */
		static const char says[] = "before they arrive: the store stream of strm node 'u' "
					   "delivers them only at the next sync; insert a sync before "
					   "this command (an in-memory consumer of a store stream "
					   "waits for it, infinity-stream §5.3)";
		if (strict) {
			cr_assert_eq(rc, -1);
			cr_assert(strstr(d.msg, says), "%s", d.msg);
		} else {
			cr_assert_eq(rc, 0, "%s", d.msg);
			cr_assert_gt(emu_hazard_count_kind(em->hz, EMU_HZ_UNSYNCED), before);
			const emu_hazard *z = emu_hazard_get(em->hz, emu_hazard_count(em->hz) - 1);
			cr_assert(strstr(z->text, says), "%s", z->text);
		}
		emu_strm_lot_free(&st.lot);
		emu_machine_free(em);
		emu_jit_free(&j);
		emu_tdfg_free(&t);
	}
	run_ok("run cons.tdfg --check --strict", NULL);
}

/* With the sync, no hazard: the whole run under --strict. */
Test(strm, ordered_run_is_clean_under_strict)
{
	write_file("sum.tdfg", sum_f32);
	write_file("uns.tdfg", unsynced);
	run_ok("run uns.tdfg --check --strict", NULL);
	result r = run("run sum.tdfg --check --strict");
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_eq(r.err[0], 0, "%s", r.err);
	result_free(&r);
}

/* ---- the LOT's trans field (§5.2, Table 1) ---- */

Test(strm, lot_trans_state_machine)
{
	emu_strm_lot l = {0};
	cr_assert_eq(emu_strm_lot_init(&l, 3), 0);
	cr_assert_eq(l.trans[1], EMU_LOT_NORMAL);
	cr_assert(emu_strm_lot_core_request(&l, 1));
	emu_strm_lot_fill(&l, 1);
	cr_assert_eq(l.trans[1], EMU_LOT_FILLING);
	cr_assert_not(emu_strm_lot_core_request(&l, 1), "blocked while filling");
	cr_assert(emu_strm_lot_core_request(&l, 0), "another region is served");
	emu_strm_lot_filled(&l, 1);
	cr_assert_eq(l.trans[1], EMU_LOT_TRANSPOSED);
	cr_assert(emu_strm_lot_core_request(&l, 1));
	cr_assert_eq(l.blocked, 1);
	cr_assert_eq(l.served, 3);
	cr_assert_eq(l.fills, 1);
	emu_strm_lot_free(&l);
}

/* ---- Eq. 2 (§4.3): in memory only when the core's time is larger ---- */

Test(strm, eq2_boundary)
{
	emu_tdfg t;
	emu_jit j;
	diag d;
	diag_clear(&d);
	cr_assert_eq(emu_tdfg_load(WORKLOAD("gather_mlp_in_f32.tdfg"), NULL, &t, &j, &d), 0,
		     "%s", d.msg);
	size_t r = 0;
	while (strcmp(t.regions[r].name, "mm") != 0)
		r++;
	uint64_t *cyc = calloc(j.ncmds + 1, sizeof *cyc);
	cr_assert_not_null(cyc);
	emu_eq2 e;
	/* N_elem = 256, N_op = 2 (mul, strm.reduce), TP_core = 1: 512 cycles
	 * on the core; in memory one command of 512 cycles, no JIT: equal, so
	 * streams; 511: in memory. */
	cyc[t.nodes[t.regions[r].node0 + 3].cmd0] = 512;
	emu_eq2_region(&t, r, cyc, 1.0, 0, &e);
	cr_assert_eq(e.n_elem, 256);
	cr_assert_eq(e.n_op, 2);
	cr_assert_eq(e.n_node, 7);
	cr_assert_eq(e.lat_ops, 512);
	cr_assert_not(e.in_memory, "a tie is not worth the JIT");
	cyc[t.nodes[t.regions[r].node0 + 3].cmd0] = 511;
	emu_eq2_region(&t, r, cyc, 1.0, 0, &e);
	cr_assert(e.in_memory);
	/* Lat_JIT counts per node: 7 nodes x 1 cycle tips it back. */
	emu_eq2_region(&t, r, cyc, 1.0, 1, &e);
	cr_assert_eq(e.mem, 518);
	cr_assert_not(e.in_memory);
	free(cyc);
	emu_jit_free(&j);
	emu_tdfg_free(&t);
}

Test(strm, eq2_and_streams_in_stats)
{
	result r = run("run '" WORKLOAD("gather_mlp_in_f32.tdfg") "' --stats=json --tp-core=0.001 "
		       "--lat-jit=0");
	cr_assert_eq(r.status, 0, "%s", r.err);
	json_object *d = stats_parse(r.out);
	/* Eq. 2 for region mm: N_elem*N_op/TP_core = 256*2/0.001 cycles at the core */
	cr_expect_eq(stats_num(d, "paper.eq2[region=mm].line"), 33);
	cr_expect_eq(stats_num(d, "paper.eq2[region=mm].core_cycles"), 512000.0);
	cr_expect(json_object_get_boolean(stats_at(d, "paper.eq2[region=mm].in_memory")));
	cr_expect_not_null(stats_at(d, "paper.cycles.near_mem"));
	cr_expect_not_null(stats_at(d, "paper.traffic.stream_offload"));
	json_object_put(d);
	result_free(&r);
	r = run("run '" WORKLOAD("gather_mlp_in_f32.tdfg") "' --stats");
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "near_mem "), "%s", r.out);
	cr_assert(strstr(r.out, "stream_offload "), "%s", r.out);
	result_free(&r);
	r = run("run '" WORKLOAD("gather_mlp_in_f32.tdfg") "' --stats=json");
	cr_assert_eq(r.status, 0, "%s", r.err);
	d = stats_parse(r.out);
	cr_expect_eq(stats_num(d, "paper.eq2.0.line"), 28);
	cr_expect_str_eq(json_object_get_string(stats_at(d, "paper.eq2.0.region")), "gather");
	cr_expect_eq(stats_num(d, "paper.eq2.0.n_elem"), 256);
	cr_expect_eq(stats_num(d, "paper.eq2.0.tp_core"), 16);
	json_object_put(d);
	result_free(&r);
	r = run("run '" WORKLOAD("gather_mlp_in_f32.tdfg") "' --tp-core=0");
	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.err, "--tp-core '0': expected"), "%s", r.err);
	result_free(&r);
}

/* ---- a lowered stream with strm markers (doc/FORMAT.md) ---- */

static char *slurp_tmp(const char *name)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	char *text = proc_slurp(path, NULL);
	cr_assert_not_null(text, "%s", path);
	return text;
}

/* `infsim jit` writes `node NAME strm` where each strm node's stream
 * runs; `infsim run S.ins --tdfg X.tdfg` runs it there from the tDFG and
 * validates every node, the strm nodes' included, against the node
 * reference (--strict: the syncs order every stream). */
static void lowered_validates(const char *file, const char *marker)
{
	result r = run("jit '%s' -o s.ins", file);
	cr_assert_eq(r.status, 0, "%s", r.err);
	result_free(&r);
	char *text = slurp_tmp("s.ins");
	cr_assert(strstr(text, marker), "%s: no '%s' in the lowered stream", file, marker);
	free(text);
	r = run("run s.ins --tdfg '%s' --strict", file);
	cr_assert_eq(r.status, 0, "%s: exit %d: %s%s", file, r.status, r.out, r.err);
	cr_assert(strstr(r.out, "hold what the tDFG means"), "%s: %s", file, r.out);
	result_free(&r);
}

Test(strm, lowered_gather_mlp_validates)
{
	lowered_validates(WORKLOAD("gather_mlp_in_f32.tdfg"), "sync\nnode g strm\n");
	lowered_validates(WORKLOAD("gather_mlp_in_i32.tdfg"), "node s strm\n");
	lowered_validates(WORKLOAD("gather_mlp_out_f32.tdfg"), "node g strm\n");
	lowered_validates(WORKLOAD("gather_mlp_out_i32.tdfg"), "node g strm\n");
}

Test(strm, lowered_kmeans_validates)
{
	lowered_validates(WORKLOAD("kmeans_in_f32.tdfg"), "sync\nnode su strm\n");
	lowered_validates(WORKLOAD("kmeans_in_i32.tdfg"), "node n strm\n");
	lowered_validates(WORKLOAD("kmeans_out_f32.tdfg"), "node su strm\n");
	lowered_validates(WORKLOAD("kmeans_out_i32.tdfg"), "node n strm\n");
}

/* The binary form keeps the strm marker (bit 47 of its word), and so do
 * the canonical text and disasm. */
Test(strm, strm_marker_round_trips)
{
	result r = run("jit '" WORKLOAD("gather_mlp_out_i32.tdfg") "' -o s.ins");
	cr_assert_eq(r.status, 0, "%s", r.err);
	result_free(&r);
	r = run("asm s.ins -o s.inb");
	cr_assert_eq(r.status, 0, "%s", r.err);
	result_free(&r);
	r = run("disasm s.inb");
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "\nsync\nnode g strm\n"), "%s", r.out);
	result_free(&r);
	r = run("run s.inb --tdfg '" WORKLOAD("gather_mlp_out_i32.tdfg") "'");
	cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
	cr_assert(strstr(r.out, "hold what the tDFG means"), "%s", r.out);
	result_free(&r);
}

/* s.ins with its first `from` replaced by `to`. */
static void edit_stream(const char *from, const char *to)
{
	char *text = slurp_tmp("s.ins");
	char *at = strstr(text, from);
	cr_assert_not_null(at, "no '%s' in s.ins", from);
	FILE *f = NULL;
	char path[512];
	snprintf(path, sizeof path, "%s/s.ins", tmpdir);
	cr_assert_not_null(f = fopen(path, "w"));
	fprintf(f, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
	fclose(f);
	free(text);
}

/* A stream that does not run the gather (its marker without strm) is
 * caught at the gather's check point, its first wrong element named;
 * so is one whose store stream writes the wrong centroid sums. */
Test(strm, lowered_wrong_stream_is_caught)
{
	result r = run("jit '" WORKLOAD("gather_mlp_out_f32.tdfg") "' -o s.ins");
	cr_assert_eq(r.status, 0, "%s", r.err);
	result_free(&r);
	edit_stream("node g strm\n", "node g\n");
	r = run("run s.ins --tdfg '" WORKLOAD("gather_mlp_out_f32.tdfg") "'");
	cr_assert_eq(r.status, 3, "exit %d: %s%s", r.status, r.out, r.err);
	cr_assert(strstr(r.err, "error: node 'g' (") && strstr(r.err, "does not hold what the "
		  "tDFG means: g[0][0]"), "%s", r.err);
	result_free(&r);
	/* kmeans: the assignment overwritten (every point but the last to
	 * centre 1) after its check point, before the update stream reads it */
	r = run("jit '" WORKLOAD("kmeans_in_i32.tdfg") "' -o s.ins");
	cr_assert_eq(r.status, 0, "%s", r.err);
	result_free(&r);
	edit_stream("node s0 tensor=S\n", "node s0 tensor=S\nmove A, ONE, +0, +1 @ box=0:1,0:127\n"
		    "sync\n");
	r = run("run s.ins --tdfg '" WORKLOAD("kmeans_in_i32.tdfg") "'");
	cr_assert_eq(r.status, 3, "exit %d: %s%s", r.status, r.out, r.err);
	cr_assert(strstr(r.err, "error: node 'su' (") && strstr(r.err, "does not hold what the "
		  "tDFG means: su[0][0] (element 0) (i32): expected 5824"), "%s", r.err);
	cr_assert(strstr(r.err, "note: the first to write a wrong bit into it is the near-memory "
			 "stream of strm node 'su' (s.ins:3264), run after command 2041 ("), "%s",
		  r.err);
	result_free(&r);
}

/* The stream says where a strm node runs, its tDFG what: alone it is
 * refused at the marker; a strm marker on a node that is not one is a
 * binding error. */
Test(strm, strm_marker_errors)
{
	result r = run("jit '" WORKLOAD("gather_mlp_out_f32.tdfg") "' -o s.ins");
	cr_assert_eq(r.status, 0, "%s", r.err);
	result_free(&r);
	r = run("run s.ins");
	cr_assert_eq(r.status, 1, "%s", r.err);
	cr_assert(strstr(r.err, "error: 'node g strm': the near-memory stream of strm node 'g' "
			 "runs here"), "%s", r.err);
	cr_assert(strstr(r.err, "give it with --tdfg FILE"), "%s", r.err);
	result_free(&r);
	edit_stream("node g strm\n", "node g strm junk\n");
	r = run("run s.ins --tdfg '" WORKLOAD("gather_mlp_out_f32.tdfg") "'");
	cr_assert_eq(r.status, 1, "%s", r.err);
	cr_assert(strstr(r.err, "unexpected 'junk' after the node marker's name; expected "
			 "tensor=NAME, strm, run=N, PARAM=VALUE or the end of the line"), "%s", r.err);
	result_free(&r);
	r = run("jit '" WORKLOAD("gather_mlp_out_f32.tdfg") "' -o s.ins");
	result_free(&r);
	edit_stream("node e tensor=E\n", "node e tensor=E strm\n");
	r = run("run s.ins --tdfg '" WORKLOAD("gather_mlp_out_f32.tdfg") "'");
	cr_assert_eq(r.status, 1, "%s", r.err);
	cr_assert(strstr(r.err, "node marker 'e' strm: node 'e' (") &&
		  strstr(r.err, "is not a strm node, so no stream runs here; drop 'strm'"), "%s",
		  r.err);
	result_free(&r);
}

/* ---- the store stream in the artifact's JSON (doc/TDFG.md) ---- */

/* store_stream_indirect.json (i32, 16x4): n3 = store_stream ADD along
 * dimension 1 of target n0, values n1, index n2 (kmeans' C[idx[p]] +=
 * v[p]), then n4 = n3 * n1, which waits for the stream.  Against plain
 * C, bit for bit, and the node reference (--check). */
Test(strm, json_store_stream_indirect)
{
	enum { S0 = 16, S1 = 4 };
	static const int32_t idx[S1] = {3, 1, 3, 0};
	int32_t c0[S0 * S1], v[S0 * S1], ix[S0 * S1] = {0}, want[S0 * S1], got[S0 * S1];
	fill_i32(c0, S0 * S1, 21);
	fill_i32(v, S0 * S1, 22);
	for (int p = 0; p < S1; p++)
		ix[p * S0] = idx[p];
	put_words("c.bin", c0, S0 * S1);
	put_words("v.bin", v, S0 * S1);
	put_words("ix.bin", ix, S0 * S1);
	run_ok("run '" JSON("store_stream_indirect.json") "' --type i32 --check --strict "
	       "-l n0=c.bin -l n1=v.bin -l n2=ix.bin -s n3=u.bin", NULL);
	memcpy(want, c0, sizeof want);
	for (int p = 0; p < S1; p++) /* ascending p, wrapping */
		for (int k = 0; k < S0; k++)
			want[idx[p] * S0 + k] = (int32_t)((uint32_t)want[idx[p] * S0 + k] +
							  (uint32_t)v[p * S0 + k]);
	get_words("u.bin", got, S0 * S1);
	for (int e = 0; e < S0 * S1; e++)
		cr_assert_eq(got[e], want[e], "n3 element %d: C %" PRId32 ", infsim %" PRId32, e,
			     want[e], got[e]);
	result r = run("jit '" JSON("store_stream_indirect.json") "' --type i32");
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "(update)\nsync\nnode n3 strm\n"), "%s", r.out);
	result_free(&r);
}

/* The affine form (no dim): a STORE of n1's box into n0, f32. */
Test(strm, json_store_stream_affine)
{
	run_ok("run '" JSON("store_stream_affine.json") "' --type f32 --check --strict", NULL);
}

/* A store_stream node's errors, each naming the JSON path at fault. */
Test(strm, json_store_stream_errors)
{
	static const struct { const char *from, *to, *type, *want; } bad[] = {
		{"\"op\":\"ADD\"", "\"op\":\"XOR\"", "i32",
		 "$.nodes[\"3\"].store_stream.op: expected STORE, ADD, MIN or MAX (a store stream "
		 "writes, or read-modify-writes with the op), found the string \"XOR\""},
		{"\"op\":\"ADD\"", "\"op\":\"ADD\",\"tag\":1", "i32",
		 "$.nodes[\"3\"].store_stream: unknown field \"tag\"; expected op or dim"},
		{"\"dim\":1", "\"dim\":3", "i32",
		 "$.nodes[\"3\"].store_stream.dim: 3 is out of range; expected 0 to 2"},
		{"\"op\":\"ADD\"", "\"op\":\"MIN\"", "f32",
		 "$.nodes[\"3\"].store_stream.op: MIN does not take f32 elements; a float update "
		 "near memory is an ADD"},
		{"\"op\":\"ADD\"", "\"op\":\"ADD\"", "f32",
		 "$.nodes[\"3\"].store_stream.dim: an indirect store stream's index holds integers"},
		{",\"dim\":1", "", "i32",
		 "$.nodes[\"3\"]: a store_stream (without a dim: target, values) node takes 2 "
		 "operands, but 3 edges leave it"},
		{"{\"src\":3,\"dst\":2},", "", "i32",
		 "$.nodes[\"3\"]: a store_stream (with a dim: target, values, index) node takes 3 "
		 "operands, but 2 edges leave it"},
		{"\"3\":{\"id\":3,\"pum_tile\":{\"start\":\"0\",\"params\":[{\"stride\":\"1\","
		 "\"tc\":\"16\"},{\"stride\":\"16\",\"tc\":\"4\"},{\"stride\":\"16\",\"tc\":\"1\"},"
		 "{\"stride\":\"64\",\"tc\":\"1\"}]},\"pattern\":{\"start\":\"0\",\"params\":[{"
		 "\"stride\":\"1\",\"tc\":\"16\"},{\"stride\":\"16\",\"tc\":\"4\"}",
		 "\"3\":{\"id\":3,\"pum_tile\":{\"start\":\"0\",\"params\":[{\"stride\":\"1\","
		 "\"tc\":\"16\"},{\"stride\":\"16\",\"tc\":\"4\"},{\"stride\":\"16\",\"tc\":\"1\"},"
		 "{\"stride\":\"64\",\"tc\":\"1\"}]},\"pattern\":{\"start\":\"0\",\"params\":[{"
		 "\"stride\":\"1\",\"tc\":\"16\"},{\"stride\":\"16\",\"tc\":\"2\"}", "i32",
		 "$.nodes[\"3\"].pattern: box [0, 16) x [0, 2) differs from the box [0, 16) x [0, 4) "
		 "of its target node 0; a store stream's value is its target, updated in place"},
	};
	char *text = proc_slurp(JSON("store_stream_indirect.json"), NULL);
	cr_assert_not_null(text);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char *at = strstr(text, bad[i].from), path[512];
		cr_assert_not_null(at, "case %zu: no '%s'", i, bad[i].from);
		snprintf(path, sizeof path, "%s/bad.json", tmpdir);
		FILE *f = fopen(path, "w");
		cr_assert_not_null(f);
		fprintf(f, "%.*s%s%s", (int)(at - text), text, bad[i].to, at + strlen(bad[i].from));
		fclose(f);
		result r = run("run bad.json --type %s", bad[i].type);
		cr_assert_eq(r.status, 1, "case %zu: exit %d: %s", i, r.status, r.err);
		cr_assert(strstr(r.err, "bad.json: error: ") && strstr(r.err, bad[i].want),
			  "case %zu: wanted '%s' in: %s", i, bad[i].want, r.err);
		result_free(&r);
	}
	free(text);
	/* the index's values: checked at the node before the stream runs */
	result r = run("run '" JSON("store_stream_indirect.json") "' --type i32");
	cr_assert_eq(r.status, 1, "%s", r.err);
	cr_assert(strstr(r.err, "store_stream_indirect.json: error: strm.update 'n3': the index "
			 "'n2' holds "), "%s", r.err);
	result_free(&r);
}
