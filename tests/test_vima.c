/* SPDX-License-Identifier: MIT */
/*
 * test_vima.c: VIMA (emu/vima/, doc/VIMA.md).
 *
 *   ops        every instruction and type on random and special values,
 *              against a reference written here in plain C;
 *   work       the seven workloads (samples/vima/) at small sizes against
 *              plain C kernels, bit for bit;
 *   lru        an LRU model written here agrees with the unit's hits,
 *              misses and write-backs on random programs; every miss and
 *              write-back is 128 sub-requests (8 KB), spread as documented;
 *   precise    a page fault injected at instruction k leaves 1..k-1
 *              committed and nothing of k (a model of the program here);
 *   coherence  host stores against lines in the vector cache, and VIMA
 *              instructions against dirty host lines;
 *   errors     bad programs, and programs that go wrong at run time,
 *              each with its one located message;
 *   cost       doc/VIMA.md's cost model worked by hand;
 *   cli        infsim vima / infsim run PROG.vima, infsdb PROG.vima (the one
 *              console: its cycles are infsim run's).
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vima.h"

#define RUN_TMP_PREFIX "test_vima"
#include "infsim_run.h"

/* ---- a program on the unit ---- */

typedef struct vm {
	vima_program p;
	vima_unit u;
	diag d;
} vm;

static void vm_open_opts(vm *m, const char *text, unsigned lines, const vima_run_opts *ro,
			 vima_parse_opts *po)
{
	memset(m, 0, sizeof *m);
	int rc = vima_parse("t.vima", text, strlen(text), po, &m->p, &m->d);
	cr_assert_eq(rc, 0, "parse: %s\n%s", m->d.msg, text);
	cr_assert_eq(vima_unit_init(&m->u, &m->p, ro, lines, &m->d), 0, "%s", m->d.msg);
}

static void vm_open(vm *m, const char *text, unsigned lines, const vima_run_opts *ro)
{
	vm_open_opts(m, text, lines, ro, NULL);
}

static void vm_close(vm *m)
{
	vima_unit_free(&m->u);
	vima_program_free(&m->p);
}

/* Array name's bytes as the host sees them (malloc'd). */
static uint8_t *vm_get(vm *m, const char *name)
{
	int a = vima_array_find(&m->p, name);
	cr_assert_geq(a, 0, "no array %s", name);
	uint8_t *b = malloc(m->p.arrays[a].bytes);
	cr_assert_not_null(b);
	vima_read_array(&m->u, a, b);
	return b;
}

static void vm_set(vm *m, const char *name, const void *bytes)
{
	int a = vima_array_find(&m->p, name);
	cr_assert_geq(a, 0);
	vima_write_array(&m->u, a, bytes);
}

static void vm_run_ok(vm *m)
{
	int rc = vima_run(&m->u, &m->d);
	cr_assert_eq(rc, VIMA_STEP_END, "run: %s", m->d.msg);
	vima_flush(&m->u);
}

static uint64_t rng_state = 1;
static uint64_t rnd(void)
{
	/* xorshift64*: the tests' own generator, apart from the unit's */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ull;
}

/* ---- ops: the reference ---- */

static float asf(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static double asd(uint64_t u) { double f; memcpy(&f, &u, 8); return f; }
static uint32_t fb(float f) { uint32_t u; memcpy(&u, &f, 4); return isnan(f) ? 0x7fc00000u : u; }
static uint64_t db(double f) { uint64_t u; memcpy(&u, &f, 8); return isnan(f) ? 0x7ff8000000000000ull : u; }

#define REF_FLOAT(NAME, T, AS, BITS, UT)                                          \
	static UT NAME(vima_op op, UT ab, UT bb)                                  \
	{                                                                         \
		T a = AS(ab), b = AS(bb);                                         \
		switch (op) {                                                     \
		case VIMA_OP_add: return BITS(a + b);                             \
		case VIMA_OP_sub: return BITS(a - b);                             \
		case VIMA_OP_mul: return BITS(a * b);                             \
		case VIMA_OP_div: return BITS(a / b);                             \
		case VIMA_OP_abs: /* a NaN keeps its payload: abs moves bits */  \
			return isnan(a) ? ab & ~((UT)1 << (sizeof(UT) * 8 - 1)) : BITS(fabs(a)); \
		case VIMA_OP_copy: return ab;                                     \
		case VIMA_OP_slt: return BITS(a < b ? (T)1 : (T)0);               \
		case VIMA_OP_cmpeq: return BITS(a == b ? (T)1 : (T)0);            \
		case VIMA_OP_max:                                                 \
			if (isnan(a) || isnan(b)) return BITS(NAN);               \
			if (a == 0 && b == 0) return signbit(a) ? bb : ab;        \
			return a > b ? ab : bb;                                   \
		case VIMA_OP_min:                                                 \
			if (isnan(a) || isnan(b)) return BITS(NAN);               \
			if (a == 0 && b == 0) return signbit(a) ? ab : bb;        \
			return a < b ? ab : bb;                                   \
		default: cr_assert_fail("op %d", op); return 0;                   \
		}                                                                 \
	}
REF_FLOAT(ref_f32, float, asf, fb, uint32_t)
REF_FLOAT(ref_f64, double, asd, db, uint64_t)

#define REF_INT(NAME, T, UT, W, TMIN)                                             \
	static UT NAME(vima_op op, UT ua, UT ub)                                  \
	{                                                                         \
		T a = (T)ua, b = (T)ub;                                           \
		unsigned s = (unsigned)(ub % W);                                  \
		switch (op) {                                                     \
		case VIMA_OP_add: return (UT)(ua + ub);                           \
		case VIMA_OP_sub: return (UT)(ua - ub);                           \
		case VIMA_OP_mul: return (UT)(ua * ub);                           \
		case VIMA_OP_abs: return (ua >> (W - 1)) ? (UT)(0 - ua) : ua;    \
		case VIMA_OP_max: return a > b ? ua : ub;                         \
		case VIMA_OP_min: return a < b ? ua : ub;                         \
		case VIMA_OP_copy: return ua;                                     \
		case VIMA_OP_and: return ua & ub;                                 \
		case VIMA_OP_or: return ua | ub;                                  \
		case VIMA_OP_xor: return ua ^ ub;                                 \
		case VIMA_OP_not: return (UT)~ua;                                 \
		case VIMA_OP_slt: return a < b;                                   \
		case VIMA_OP_cmpeq: return a == b;                                \
		case VIMA_OP_sll: return (UT)(ua << s);                           \
		case VIMA_OP_srl: return (UT)(ua >> s);                           \
		case VIMA_OP_sra: return (UT)(a >> s); /* gcc: arithmetic on signed */ \
		case VIMA_OP_div:                                                 \
			if (b == 0) return (UT)~(UT)0;                            \
			if (TMIN < 0 && a == (T)TMIN && b == (T)-1) return ua;    \
			return (UT)(a / b);                                       \
		default: cr_assert_fail("op %d", op); return 0;                   \
		}                                                                 \
	}
REF_INT(ref_i32, int32_t, uint32_t, 32, INT32_MIN)
REF_INT(ref_u32, uint32_t, uint32_t, 32, 0)
REF_INT(ref_i64, int64_t, uint64_t, 64, INT64_MIN)
REF_INT(ref_u64, uint64_t, uint64_t, 64, 0)

static uint64_t ref_elem(vima_op op, vima_type t, uint64_t a, uint64_t b)
{
	switch (t) {
	case VIMA_I32: return ref_i32(op, (uint32_t)a, (uint32_t)b);
	case VIMA_U32: return ref_u32(op, (uint32_t)a, (uint32_t)b);
	case VIMA_I64: return ref_i64(op, a, b);
	case VIMA_U64: return ref_u64(op, a, b);
	case VIMA_F32: return ref_f32(op, (uint32_t)a, (uint32_t)b);
	default: return ref_f64(op, a, b);
	}
}

/* sra on unsigned types: the sign bit comes in all the same. */
static uint64_t ref_sra_unsigned(vima_type t, uint64_t a, uint64_t b)
{
	return t == VIMA_U32 ? ref_i32(VIMA_OP_sra, (uint32_t)a, (uint32_t)b)
			     : ref_i64(VIMA_OP_sra, a, b);
}

/* The reference's answer for element a, b. */
static uint64_t ref_of(vima_op op, vima_type t, uint64_t a, uint64_t b)
{
	if (op == VIMA_OP_sra && (t == VIMA_U32 || t == VIMA_U64))
		return ref_sra_unsigned(t, a, b);
	return ref_elem(op, t, a, b);
}

static const uint64_t special32[] = {
	0, 1, 0xffffffff, 0x80000000, 0x7fffffff, 2, 31, 32, 33,
	0x3f800000, 0xbf800000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000,
	0x7f800001, 0xffc00123, 0x00000001, 0x807fffff, 0x7f7fffff, 0x00800000, 0x40490fdb,
};
static const uint64_t special64[] = {
	0, 1, ~0ull, 0x8000000000000000ull, 0x7fffffffffffffffull, 63, 64, 65,
	0x3ff0000000000000ull, 0xbff0000000000000ull, 0x7ff0000000000000ull,
	0xfff0000000000000ull, 0x7ff8000000000000ull, 0x7ff0000000000001ull,
	0xfff8000000001234ull, 1ull, 0x800fffffffffffffull, 0x7fefffffffffffffull,
	0x0010000000000000ull, 0x400921fb54442d18ull,
};

static uint64_t operand(vima_type t, unsigned j, unsigned round)
{
	const bool w8 = vima_type_size(t) == 8;
	const size_t ns = w8 ? sizeof special64 / 8 : sizeof special32 / 8;
	if (round == 0 && j < ns * 2)
		return w8 ? special64[(j + j / ns) % ns] : special32[(j + j / ns) % ns];
	uint64_t r = rnd();
	if (vima_type_is_float(t) && (r & 3) == 0) /* nearby values compare equal sometimes */
		r = w8 ? 0x3ff0000000000000ull | (r >> 60) : 0x3f800000u | (r >> 62);
	return w8 ? r : (uint32_t)r;
}

static void check_op(vima_op op, vima_type t)
{
	const vima_op_info *in = vima_op_info_of(op);
	const unsigned sz = vima_type_size(t), n = 256 / sz;
	char text[512];
	const char *tn = vima_type_name(t);
	const char *ops = in->form == VIMA_FORM_VV || in->form == VIMA_FORM_R ? "D, A, B"
			  : in->form == VIMA_FORM_V ? "D, A" : "D, S";
	snprintf(text, sizeof text, "vima vector=256\narray A %s %u\narray B %s %u\narray D %s %u\n"
		 "array S %s 1\n%s.%s %s\n", tn, n, tn, n, tn, n, tn, in->name, tn, ops);
	for (unsigned round = 0; round < 6; round++) {
		uint8_t a[256], b[256], dd[256], s[256] = { 0 };
		uint64_t av[64], bv[64], dv[64], sv = operand(t, round * 7, 1);
		for (unsigned j = 0; j < n; j++) {
			av[j] = operand(t, j, round);
			bv[j] = operand(t, j * 5 + 3, round);
			dv[j] = operand(t, j * 3 + 1, round);
			memcpy(a + j * sz, &av[j], sz);
			memcpy(b + j * sz, &bv[j], sz);
			memcpy(dd + j * sz, &dv[j], sz);
		}
		memcpy(s, &sv, sz == 8 ? 8 : 4);
		vm m;
		vm_open(&m, text, 0, NULL);
		vm_set(&m, "A", a);
		vm_set(&m, "B", b);
		vm_set(&m, "S", s);
		vm_set(&m, "D", dd);
		vm_run_ok(&m);
		uint8_t *d = vm_get(&m, "D");
		for (unsigned j = 0; j < n; j++) {
			uint64_t got = 0, want;
			memcpy(&got, d + j * sz, sz);
			want = in->form == VIMA_FORM_I ? sv
			       : in->form == VIMA_FORM_R
			       ? ref_of(VIMA_OP_add, t, dv[j], ref_of(VIMA_OP_mul, t, av[j], bv[j]))
			       : ref_of(op, t, av[j], bv[j]);
			cr_assert_eq(got, want, "%s.%s element %u: a=0x%llx b=0x%llx: got 0x%llx, want 0x%llx",
				     in->name, tn, j, (unsigned long long)av[j], (unsigned long long)bv[j],
				     (unsigned long long)got, (unsigned long long)want);
		}
		free(d);
		vm_close(&m);
	}
}

Test(ops, every_instruction_and_type)
{
	unsigned tested = 0;
	for (int op = 0; op < VIMA_NOPS; op++)
		for (int t = 0; t < VIMA_NTYPES; t++)
			if (vima_op_info_of((vima_op)op)->types & (1u << t)) {
				check_op((vima_op)op, (vima_type)t);
				tested++;
			}
	/* 11 instructions take all six types, 7 the integers, abs four */
	cr_assert_eq(tested, 11 * 6 + 7 * 4 + 4, "%u op/type pairs", tested);
}

/* A few answers written out, so the semantics in doc/VIMA.md are pinned. */
Test(ops, documented_corners)
{
	cr_assert_eq(ref_of(VIMA_OP_div, VIMA_I32, 7, 0), 0xffffffffu);
	cr_assert_eq(ref_of(VIMA_OP_div, VIMA_I32, 0x80000000u, 0xffffffffu), 0x80000000u);
	cr_assert_eq(ref_of(VIMA_OP_div, VIMA_I32, (uint32_t)-7, 2), (uint32_t)-3);
	cr_assert_eq(ref_of(VIMA_OP_sll, VIMA_U32, 1, 33), 2);
	cr_assert_eq(ref_of(VIMA_OP_sra, VIMA_U32, 0x80000000u, 4), 0xf8000000u);
	cr_assert_eq(ref_of(VIMA_OP_abs, VIMA_I32, 0x80000000u, 0), 0x80000000u);
	cr_assert_eq(ref_of(VIMA_OP_max, VIMA_F32, 0x80000000u, 0), 0);
	cr_assert_eq(ref_of(VIMA_OP_min, VIMA_F32, 0x80000000u, 0), 0x80000000u);
	cr_assert_eq(ref_of(VIMA_OP_div, VIMA_F32, 0, 0), 0x7fc00000u);
	cr_assert_eq(ref_of(VIMA_OP_abs, VIMA_F32, 0xffc00123u, 0), 0x7fc00123u);
}

/* ---- work: the workloads against plain C kernels ---- */

/* Run sample NAME with defines (NAME=VALUE, ...), vector bytes, and hand
 * back the unit before (inputs read) and after the run. */
static void sample_open(vm *m, const char *name, unsigned vector, vima_define *defs, size_t nd)
{
	char path[512];
	snprintf(path, sizeof path, SRCDIR "/samples/vima/%s.vima", name);
	vima_parse_opts po = { defs, nd, vector, 0 };
	memset(m, 0, sizeof *m);
	cr_assert_eq(vima_load(path, &po, &m->p, &m->d), 0, "%s", m->d.msg);
	cr_assert_eq(vima_unit_init(&m->u, &m->p, NULL, 0, &m->d), 0, "%s", m->d.msg);
}

static void same_bytes(const void *got, const void *want, size_t n, const char *what)
{
	const uint8_t *g = got, *w = want;
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(g[i], w[i], "%s: byte %zu differs (got 0x%02x, want 0x%02x)", what, i,
			     g[i], w[i]);
}

static void work_memset(unsigned vector)
{
	vima_define d[] = { { "N", 4096, false } };
	vm m;
	sample_open(&m, "memset", vector, d, 1);
	vm_run_ok(&m);
	int32_t *a = (int32_t *)vm_get(&m, "A"), want[4096];
	for (int i = 0; i < 4096; i++)
		want[i] = 7;
	same_bytes(a, want, sizeof want, "memset A");
	free(a);
	vm_close(&m);
}

static void work_memcopy(unsigned vector)
{
	vima_define d[] = { { "N", 4096, false } };
	vm m;
	sample_open(&m, "memcopy", vector, d, 1);
	uint8_t *in = vm_get(&m, "A");
	vm_run_ok(&m);
	uint8_t *b = vm_get(&m, "B");
	same_bytes(b, in, 4096 * 4, "memcopy B");
	free(in);
	free(b);
	vm_close(&m);
}

static void work_vecsum(unsigned vector)
{
	vima_define d[] = { { "N", 8192, false } };
	vm m;
	sample_open(&m, "vecsum", vector, d, 1);
	float *a = (float *)vm_get(&m, "A"), *b = (float *)vm_get(&m, "B"), want[8192];
	vm_run_ok(&m);
	for (int i = 0; i < 8192; i++)
		want[i] = a[i] + b[i];
	float *c = (float *)vm_get(&m, "C");
	same_bytes(c, want, sizeof want, "vecsum C");
	free(a), free(b), free(c);
	vm_close(&m);
}

static void work_stencil(unsigned vector)
{
	const int W = vector == 256 ? 128 : 2048, H = 12;
	vima_define d[] = { { "W", W, false }, { "H", H, false } };
	vm m;
	sample_open(&m, "stencil", vector, d, 2);
	float *in = (float *)vm_get(&m, "IN");
	vm_run_ok(&m);
	float *out = (float *)vm_get(&m, "OUT"), *want = calloc((size_t)W * H, sizeof *want);
	for (int r = 1; r < H - 1; r++)
		for (int j = 0; j < W; j++) {
			int p = r * W + j;
			float t = in[p - W] + in[p + W];
			t = t + in[p - 1];
			t = t + in[p + 1];
			t = t + in[p];
			want[p] = t * 0.2f;
		}
	same_bytes(out, want, (size_t)W * H * 4, "stencil OUT");
	free(in), free(out), free(want);
	vm_close(&m);
}

static void work_matmul(void)
{
	const int n = 64;
	vima_define d[] = { { "n", n, false } };
	vm m;
	sample_open(&m, "matmul", 256, d, 1);
	double *a = (double *)vm_get(&m, "A"), *b = (double *)vm_get(&m, "B");
	vm_run_ok(&m);
	double *c = (double *)vm_get(&m, "C"), *want = calloc((size_t)n * n, sizeof *want);
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			double s = 0;
			for (int k = 0; k < n; k++) {
				double p = a[i * n + k] * b[k * n + j];
				s = s + p;
			}
			want[i * n + j] = s;
		}
	same_bytes(c, want, (size_t)n * n * 8, "matmul C");
	free(a), free(b), free(c), free(want);
	vm_close(&m);
}

/* The K nearest of a row of distances (ties to the lower index) and the
 * majority of their labels (ties to the lower label): insertion into a
 * sorted list of K. */
#define KNN_K 9
static int classify(const float *dist, int n, const int *label)
{
	int best[KNN_K], nb = 0;
	for (int i = 0; i < n; i++) {
		int at = nb;
		while (at > 0 && dist[best[at - 1]] > dist[i])
			at--;
		if (at >= KNN_K)
			continue;
		if (nb < KNN_K)
			nb++;
		memmove(&best[at + 1], &best[at], (size_t)(nb - 1 - at) * sizeof *best);
		best[at] = i;
	}
	int votes[4] = { 0 }, win = 0;
	for (int k = 0; k < nb; k++)
		votes[label[best[k]]]++;
	for (int l = 1; l < 4; l++)
		if (votes[l] > votes[win])
			win = l;
	return win;
}

static void work_knn(void)
{
	const int N = 1024, F = 8, T = 6;
	vima_define d[] = { { "N", N, false }, { "F", F, false }, { "T", T, false } };
	vm m;
	sample_open(&m, "knn", 256, d, 3);
	float *x = (float *)vm_get(&m, "X"), *q = (float *)vm_get(&m, "Q");
	vm_run_ok(&m);
	float *dv = (float *)vm_get(&m, "D"), *want = calloc((size_t)T * N, sizeof *want);
	int *label = malloc(N * sizeof *label);
	for (int i = 0; i < N; i++)
		label[i] = (int)((i * 2654435761u) >> 30);
	for (int t = 0; t < T; t++)
		for (int i = 0; i < N; i++) {
			float s = 0;
			for (int f = 0; f < F; f++) {
				float u = x[f * N + i] - q[t * F + f];
				u = u * u;
				s = s + u;
			}
			want[t * N + i] = s;
		}
	same_bytes(dv, want, (size_t)T * N * 4, "knn D");
	for (int t = 0; t < T; t++)
		cr_assert_eq(classify(dv + t * N, N, label), classify(want + t * N, N, label));
	free(x), free(q), free(dv), free(want), free(label);
	vm_close(&m);
}

static void work_mlp(unsigned vector)
{
	const int N = vector == 256 ? 512 : 4096, F = 12, O = 3;
	vima_define d[] = { { "N", N, false }, { "F", F, false }, { "O", O, false } };
	vm m;
	sample_open(&m, "mlp", vector, d, 3);
	float *x = (float *)vm_get(&m, "X"), *w = (float *)vm_get(&m, "W"), *b = (float *)vm_get(&m, "B");
	vm_run_ok(&m);
	float *y = (float *)vm_get(&m, "Y"), *want = calloc((size_t)O * N, sizeof *want);
	for (int o = 0; o < O; o++)
		for (int i = 0; i < N; i++) {
			float s = b[o];
			for (int f = 0; f < F; f++) {
				float p = w[o * F + f] * x[f * N + i];
				s = s + p;
			}
			want[o * N + i] = s > 0.0f ? s : 0.0f;
		}
	same_bytes(y, want, (size_t)O * N * 4, "mlp Y");
	free(x), free(w), free(b), free(y), free(want);
	vm_close(&m);
}

Test(work, memset) { work_memset(256); work_memset(8192); }
Test(work, memcopy) { work_memcopy(256); work_memcopy(8192); }
Test(work, vecsum) { work_vecsum(256); work_vecsum(8192); }
Test(work, stencil) { work_stencil(256); work_stencil(8192); }
Test(work, matmul) { work_matmul(); }
Test(work, knn) { work_knn(); }
Test(work, mlp) { work_mlp(256); work_mlp(8192); }

/* ---- lru: an independent model of the vector cache ---- */

typedef struct mline { bool valid, dirty; uint64_t tag, used; } mline;
typedef struct model {
	mline l[16];
	unsigned n;
	uint64_t clock, rh, rm, wh, wm, wb;
} model;

static mline *model_find(model *c, uint64_t tag)
{
	for (unsigned i = 0; i < c->n; i++)
		if (c->l[i].valid && c->l[i].tag == tag)
			return &c->l[i];
	return NULL;
}

static mline *model_victim(model *c)
{
	mline *v = NULL;
	for (unsigned i = 0; i < c->n; i++) {
		if (!c->l[i].valid)
			return &c->l[i];
		if (!v || c->l[i].used < v->used)
			v = &c->l[i];
	}
	c->wb += v->dirty;
	return v;
}

static void model_read(model *c, uint64_t tag)
{
	mline *l = model_find(c, tag);
	if (l) {
		c->rh++;
	} else {
		c->rm++;
		l = model_victim(c);
		*l = (mline){ true, false, tag, 0 };
	}
	l->used = ++c->clock;
}

static void model_write(model *c, uint64_t tag)
{
	mline *l = model_find(c, tag);
	if (l) {
		c->wh++;
	} else {
		c->wm++;
		l = model_victim(c);
	}
	*l = (mline){ true, true, tag, ++c->clock };
}

/* A random straight-line program on 6 arrays of 4 vectors of i32, with
 * unaligned sources when `unaligned`; run on the unit and on the model. */
static void lru_case(unsigned vector, unsigned lines, bool unaligned, int ninsn)
{
	const unsigned vl = vector / 4, count = 4 * vl;
	char *text = malloc(64 * 1024), *t = text;
	t += sprintf(t, "vima vector=%u\n", vector);
	for (int a = 0; a < 6; a++)
		t += sprintf(t, "array A%d i32 %u init=random:%d\n", a, count, a);
	model c = { .n = lines };
	for (int k = 0; k < ninsn; k++) {
		int d = (int)(rnd() % 6), s1 = (int)(rnd() % 6), s2 = (int)(rnd() % 6);
		unsigned dv = (unsigned)(rnd() % 4);
		unsigned i1 = (unsigned)(rnd() % (3 * vl + 1)), i2 = (unsigned)(rnd() % (3 * vl + 1));
		if (!unaligned)
			i1 = i1 / vl * vl, i2 = i2 / vl * vl;
		bool two = rnd() & 1;
		if (two)
			t += sprintf(t, "add.i32 A%d[%u], A%d[%u], A%d[%u]\n", d, dv * vl, s1, i1, s2, i2);
		else
			t += sprintf(t, "copy.i32 A%d[%u], A%d[%u]\n", d, dv * vl, s1, i1);
		/* byte addresses: array a is at a * count * 4 */
		const uint64_t b1 = (uint64_t)s1 * count * 4 + i1 * 4, b2 = (uint64_t)s2 * count * 4 + i2 * 4;
		model_read(&c, b1 / vector * vector);
		if (b1 % vector)
			model_read(&c, b1 / vector * vector + vector);
		if (two) {
			model_read(&c, b2 / vector * vector);
			if (b2 % vector)
				model_read(&c, b2 / vector * vector + vector);
		}
		model_write(&c, (uint64_t)d * count * 4 + dv * vector);
	}
	for (unsigned i = 0; i < c.n; i++)
		c.wb += c.l[i].valid && c.l[i].dirty;
	vm m;
	vm_open(&m, text, lines, NULL);
	vm_run_ok(&m);
	const vima_stats *s = &m.u.st;
	cr_assert_eq(s->read_hits, c.rh, "lines %u: read hits %llu, model %llu", lines,
		     (unsigned long long)s->read_hits, (unsigned long long)c.rh);
	cr_assert_eq(s->read_misses, c.rm, "lines %u: read misses", lines);
	cr_assert_eq(s->write_hits, c.wh, "lines %u: write hits", lines);
	cr_assert_eq(s->write_misses, c.wm, "lines %u: write misses", lines);
	cr_assert_eq(s->writebacks, c.wb, "lines %u: write-backs %llu, model %llu", lines,
		     (unsigned long long)s->writebacks, (unsigned long long)c.wb);
	/* every line moved is vector/64 sub-requests: 128 for 8 KB */
	const uint64_t per = vector / 64;
	cr_assert_eq(s->sub_reads, per * c.rm);
	cr_assert_eq(s->sub_writes, per * c.wb);
	uint64_t sum = 0;
	for (unsigned v = 0; v < VIMA_VAULTS; v++)
		for (unsigned b = 0; b < VIMA_BANKS; b++)
			sum += s->sub[v][b];
	cr_assert_eq(sum, per * (c.rm + c.wb));
	if (vector == 8192) /* a line: 4 sub-requests on every vault */
		for (unsigned v = 0; v < VIMA_VAULTS; v++) {
			uint64_t nv = 0;
			for (unsigned b = 0; b < VIMA_BANKS; b++)
				nv += s->sub[v][b];
			cr_assert_eq(nv, 4 * (c.rm + c.wb), "vault %u", v);
		}
	cr_assert_eq(s->dram_read_bytes, (uint64_t)vector * c.rm);
	vm_close(&m);
	free(text);
}

Test(lru, aligned_any_line_count)
{
	rng_state = 11;
	for (unsigned lines = 2; lines <= 12; lines++)
		lru_case(256, lines, false, 300);
}

Test(lru, unaligned_sources)
{
	rng_state = 12;
	for (unsigned lines = 4; lines <= 10; lines++)
		lru_case(256, lines, true, 300);
}

Test(lru, eight_kb_lines_make_128_subrequests)
{
	rng_state = 13;
	lru_case(8192, 8, true, 120);
	lru_case(8192, 4, false, 120);
}

/* Each vault gets its 4 sub-requests of a line in 4 different banks. */
Test(lru, bank_spread)
{
	vm m;
	vm_open(&m, "array A i32 2048\narray B i32 2048\ncopy.i32 B, A\n", 0, NULL);
	vm_run_ok(&m);
	for (unsigned v = 0; v < VIMA_VAULTS; v++)
		for (unsigned b = 0; b < VIMA_BANKS; b++)
			cr_assert_eq(m.u.st.sub[v][b], 1, "vault %u bank %u: %llu", v, b,
				     (unsigned long long)m.u.st.sub[v][b]);
	vm_close(&m);
}

/* ---- precise: an injected page fault at instruction k ---- */

/* A straight-line program of add/xor/copy/mov and host stores on three
 * i32 arrays of 4 vectors (256 B), and a model of it here. */
typedef struct pstmt { char kind; int d, di, a, ai, b, bi; int32_t v; } pstmt;
#define P_VL 64
#define P_COUNT (4 * P_VL)

static void model_apply(int32_t mem[3][P_COUNT], const pstmt *s)
{
	int32_t tmp[P_VL];
	for (int j = 0; j < P_VL; j++) {
		uint32_t x = (uint32_t)mem[s->a][s->ai + j], y = (uint32_t)mem[s->b][s->bi + j];
		tmp[j] = s->kind == '+' ? (int32_t)(x + y) : s->kind == '^' ? (int32_t)(x ^ y)
			 : s->kind == 'c' ? (int32_t)x : s->v;
	}
	if (s->kind == 'h')
		mem[s->d][s->di] = s->v;
	else
		memcpy(&mem[s->d][s->di], tmp, sizeof tmp);
}

static void precise_case(int nstmt, unsigned lines)
{
	pstmt st[64];
	char text[8192], *t = text;
	t += sprintf(t, "vima vector=256\n");
	for (int a = 0; a < 3; a++)
		t += sprintf(t, "array A%d i32 %d init=iota\n", a, P_COUNT);
	int32_t init[3][P_COUNT];
	for (int a = 0; a < 3; a++)
		for (int i = 0; i < P_COUNT; i++)
			init[a][i] = i;
	for (int k = 0; k < nstmt; k++) {
		pstmt *s = &st[k];
		const char kinds[] = "+^cmh";
		s->kind = kinds[rnd() % 5];
		s->d = (int)(rnd() % 3), s->a = (int)(rnd() % 3), s->b = (int)(rnd() % 3);
		s->di = (int)(rnd() % 4) * P_VL;
		s->ai = (int)(rnd() % (3 * P_VL + 1)), s->bi = (int)(rnd() % (3 * P_VL + 1));
		s->v = (int32_t)(rnd() % 1000) - 500;
		switch (s->kind) {
		case '+': t += sprintf(t, "add.i32 A%d[%d], A%d[%d], A%d[%d]\n", s->d, s->di, s->a, s->ai, s->b, s->bi); break;
		case '^': t += sprintf(t, "xor.i32 A%d[%d], A%d[%d], A%d[%d]\n", s->d, s->di, s->a, s->ai, s->b, s->bi); break;
		case 'c': t += sprintf(t, "copy.i32 A%d[%d], A%d[%d]\n", s->d, s->di, s->a, s->ai); break;
		case 'm': t += sprintf(t, "mov.i32 A%d[%d], %d\n", s->d, s->di, s->v); break;
		default:
			s->di += (int)(rnd() % P_VL);
			t += sprintf(t, "host A%d[%d] = %d\n", s->d, s->di, s->v);
		}
	}
	int ninsn = 0;
	for (int k = 0; k < nstmt; k++)
		ninsn += st[k].kind != 'h';
	for (int fault = 1; fault <= ninsn + 1; fault++) {
		int32_t want[3][P_COUNT];
		memcpy(want, init, sizeof want);
		for (int k = 0, n = 0; k < nstmt; k++) {
			if (st[k].kind != 'h' && ++n == fault)
				break;
			model_apply(want, &st[k]);
		}
		vima_run_opts ro = { .fault_at = (uint64_t)fault };
		vm m;
		vm_open(&m, text, lines, &ro);
		int rc = vima_run(&m.u, &m.d);
		cr_assert_eq(rc, fault <= ninsn ? VIMA_STEP_FAULT : VIMA_STEP_END, "fault %d: %s", fault, m.d.msg);
		cr_assert_eq(m.u.st.insns, (uint64_t)(fault <= ninsn ? fault - 1 : ninsn));
		vima_flush(&m.u);
		for (int a = 0; a < 3; a++) {
			char name[16];
			snprintf(name, sizeof name, "A%d", a);
			int32_t *got = (int32_t *)vm_get(&m, name);
			for (int i = 0; i < P_COUNT; i++)
				cr_assert_eq(got[i], want[a][i], "fault at %d, lines %u: A%d[%d] = %d, want %d\n%s",
					     fault, lines, a, i, got[i], want[a][i], text);
			free(got);
		}
		vm_close(&m);
	}
}

Test(precise, fault_at_every_instruction)
{
	rng_state = 21;
	precise_case(40, 8);
	precise_case(40, 4);
	precise_case(30, 5);
}

/* The faulting instruction's result is computed but never seen. */
Test(precise, fill_buffer_dropped)
{
	const char *text = "vima vector=256\narray A i32 64\nmov.i32 A, 5\nmov.i32 A, 6\n";
	vima_run_opts ro = { .fault_at = 2 };
	vm m;
	vm_open(&m, text, 0, &ro);
	cr_assert_eq(vima_run(&m.u, &m.d), VIMA_STEP_FAULT);
	cr_assert_eq(m.u.fault_insn, 2);
	cr_assert_eq(m.u.st.write_misses + m.u.st.write_hits, 1);
	int32_t *a = (int32_t *)vm_get(&m, "A");
	for (int i = 0; i < 64; i++)
		cr_assert_eq(a[i], 5);
	free(a);
	vm_close(&m);
}

/* ---- translation: the page table's permissions raise real page faults ---- */

typedef struct pfault {
	const char *text;
	uint64_t insn, host;  /* the faulting VIMA instruction or host store */
	const char *why;
} pfault;

static const pfault page_faults[] = {
	/* a source past the array's last page */
	{ "vima vector=256\narray A i32 64\nmov.i32 A, 1\nadd.i32 A, A[1], A\n", 2, 0,
	  "A[1]: a read of 256 bytes in an unmapped page (address 0x10000000100)" },
	/* before the array */
	{ "vima vector=256\narray A i32 64\nadd.i32 A, A[-64], A\n", 1, 0,
	  "A[-64]: a read of 256 bytes in an unmapped page (address 0xffffffff00)" },
	/* a destination in a read-only array */
	{ "vima vector=256\narray A i32 64\narray B i32 64 perm=ro\ncopy.i32 A, B\ncopy.i32 B, A\n", 2, 0,
	  "B[0]: a write of 256 bytes in a read-only page (address 0x20000000000)" },
	/* any access to an array with no pages */
	{ "vima vector=256\narray A i32 64\narray N i32 64 perm=none\ncopy.i32 A, N\n", 1, 0,
	  "N[0]: a read of 256 bytes in an unmapped page (address 0x20000000000)" },
	/* the broadcast element, read by the host */
	{ "vima vector=256\narray A i32 64\nmov.i32 A, A[70]\n", 1, 0,
	  "A[70]: a read of 4 bytes in an unmapped page (address 0x10000000118)" },
	/* mad reads and writes its destination */
	{ "vima vector=256\narray A i32 64\narray S i32 1 perm=ro\nmad.i32 S, A, A\n", 1, 0,
	  "S[0]: a read and write of 256 bytes in a read-only page (address 0x20000000000)" },
	/* host stores: the host core's own translation */
	{ "vima vector=256\narray A i32 64\nmov.i32 A, 2\nhost A[64] = 1\n", 0, 1,
	  "A[64]: a write of 4 bytes in an unmapped page (address 0x10000000100)" },
	{ "vima vector=256\narray A i32 64 perm=ro\narray B i32 64\nhost B[0] = A[3]\nhost A[0] = 1\n", 0, 2,
	  "A[0]: a write of 4 bytes in a read-only page (address 0x10000000000)" },
	{ "vima vector=256\narray A i32 64 perm=none\narray B i32 64\nhost B[0] = A[3]\n", 0, 1,
	  "A[3]: a read of 4 bytes in an unmapped page (address 0x1000000000c)" },
	/* an index whose address leaves the 64-bit space */
	{ "vima vector=256\narray A i32 64\nmov.i32 A[0x4000000000000000], 1\n", 1, 0,
	  "A[4611686018427387904]: a write of 256 bytes outside the address space" },
};

Test(translation, faults_are_precise)
{
	for (size_t i = 0; i < sizeof page_faults / sizeof page_faults[0]; i++) {
		const pfault *f = &page_faults[i];
		vm m;
		vm_open(&m, f->text, 0, NULL);
		cr_assert_eq(vima_run(&m.u, &m.d), VIMA_STEP_FAULT, "case %zu: %s", i, m.d.msg);
		cr_assert_str_eq(m.u.fault_why, f->why, "case %zu", i);
		cr_assert_eq(m.u.fault_insn, f->insn, "case %zu", i);
		cr_assert_eq(m.u.fault_host, f->host, "case %zu", i);
		/* everything before it committed, nothing of it */
		cr_assert_eq(m.u.st.insns, f->insn ? f->insn - 1 : m.u.st.insns, "case %zu", i);
		cr_assert_eq(m.u.st.host_stmts, f->host ? f->host - 1 : 0, "case %zu", i);
		vm_close(&m);
	}
}

/* A refused instruction never reaches the unit: no cycle, no line, and the
 * instructions before it are in memory after the flush. */
Test(translation, nothing_of_the_faulting_instruction)
{
	const char *text = "vima vector=256\narray A i32 64\narray B i32 64 perm=ro init=const:9\n"
			   "mov.i32 A, 5\nadd.i32 B, A, A\n";
	vm m;
	vm_open(&m, text, 0, NULL);
	cr_assert_eq(vima_step(&m.u, &m.d), VIMA_STEP_OK);
	const vima_stats before = m.u.st;
	cr_assert_eq(vima_step(&m.u, &m.d), VIMA_STEP_FAULT);
	cr_assert_eq(memcmp(&before, &m.u.st, sizeof before), 0);
	vima_flush(&m.u);
	int32_t *a = (int32_t *)vm_get(&m, "A"), *b = (int32_t *)vm_get(&m, "B");
	for (int i = 0; i < 64; i++) {
		cr_assert_eq(a[i], 5);
		cr_assert_eq(b[i], 9);
	}
	free(a);
	free(b);
	vm_close(&m);
}

/* Pages are whole vector lines: a vector past the array's last element but
 * inside its last page is mapped (the rest of the line is the array's). */
Test(translation, last_page_is_whole)
{
	const char *text = "vima vector=256\narray A i32 100 init=iota\narray B i32 64\n"
			   "copy.i32 B, A[64]\ncopy.i32 A[64], A\n";
	vm m;
	vm_open(&m, text, 0, NULL);
	cr_assert_eq(vima_run(&m.u, &m.d), VIMA_STEP_END, "%s", m.d.msg);
	vima_flush(&m.u);
	int32_t *a = (int32_t *)vm_get(&m, "A"), *b = (int32_t *)vm_get(&m, "B");
	for (int i = 0; i < 64; i++)
		cr_assert_eq(b[i], i < 36 ? 64 + i : 0, "B[%d] = %d", i, b[i]);
	for (int i = 64; i < 100; i++)
		cr_assert_eq(a[i], i - 64);
	free(a);
	free(b);
	vm_close(&m);
}

/* A read-only array is the program's input: sources and host loads read it. */
Test(translation, read_only_reads)
{
	const char *text = "vima vector=256\narray A i32 64 perm=ro init=iota\narray B i32 64\n"
			   "mov.i32 B, A[5]\nadd.i32 B, B, A\nhost B[0] = A[7]\n";
	vm m;
	vm_open(&m, text, 0, NULL);
	cr_assert_eq(vima_run(&m.u, &m.d), VIMA_STEP_END, "%s", m.d.msg);
	vima_flush(&m.u);
	int32_t *b = (int32_t *)vm_get(&m, "B");
	for (int i = 0; i < 64; i++)
		cr_assert_eq(b[i], i ? 5 + i : 7);
	free(b);
	vm_close(&m);
}

/* ---- coherence with the host ---- */

/* Does the vector cache hold the line at byte address tag? */
static int held(const vima_unit *u, uint64_t tag)
{
	for (unsigned i = 0; i < u->nlines; i++)
		if (u->lines[i].valid && u->lines[i].tag == tag)
			return 1;
	return 0;
}

Test(coherence, host_write_writes_back_and_invalidates)
{
	const char *text =
		"vima vector=256\n"
		"array A i32 64\narray B i32 64\n"
		"mov.i32 A, 3\n"            /* A's line: dirty in the vector cache */
		"host A[5] = 99\n"          /* write back A's line, invalidate it */
		"add.i32 B, A, A\n";        /* the host line goes back first; A misses */
	vm m;
	vm_open(&m, text, 0, NULL);
	cr_assert_eq(vima_step(&m.u, &m.d), VIMA_STEP_OK);
	cr_assert_eq(held(&m.u, 0), 1);
	cr_assert_eq(vima_step(&m.u, &m.d), VIMA_STEP_OK);
	cr_assert_eq(m.u.st.wb_host, 1);
	cr_assert_eq(m.u.st.invalidations, 1);
	cr_assert_eq(held(&m.u, 0), 0, "A's line is invalid after the host write");
	int32_t dram[64];
	memcpy(dram, m.u.mem, sizeof dram);
	for (int i = 0; i < 64; i++)
		cr_assert_eq(dram[i], 3, "DRAM holds VIMA's A before the host's store");
	cr_assert_eq(vima_step(&m.u, &m.d), VIMA_STEP_OK);
	cr_assert_eq(m.u.st.host_lines_written_back, 1);
	cr_assert_eq(m.u.st.read_misses, 1);
	cr_assert_eq(m.u.st.read_hits, 1);
	vima_flush(&m.u);
	int32_t *b = (int32_t *)vm_get(&m, "B");
	for (int i = 0; i < 64; i++)
		cr_assert_eq(b[i], i == 5 ? 198 : 6, "B[%d] = %d", i, b[i]);
	free(b);
	vm_close(&m);
}

/* A host load sees VIMA's result still in the vector cache (DRAM is
 * stale), and mad, which reads its destination, sees the host's store. */
Test(coherence, host_loads_and_mad)
{
	const char *text =
		"vima vector=256\n"
		"array A i32 64\narray B i32 64\narray S i32 64\n"
		"mov.i32 A, 7\n"
		"mov.i32 B, A[9]\n"         /* the host reads A[9] from the vector cache */
		"host S[1] = 10\n"
		"mad.i32 S, A, B\n"         /* S[j] + 7 * 7 */
		"host S[2] = S[1]\n";       /* from the vector cache again */
	vm m;
	vm_open(&m, text, 0, NULL);
	vm_run_ok(&m);
	cr_assert_eq(m.u.st.host_loads_vcache, 2);
	/* S[1]'s host line before mad, S[2]'s at the end */
	cr_assert_eq(m.u.st.host_lines_written_back, 2);
	int32_t *b = (int32_t *)vm_get(&m, "B"), *s = (int32_t *)vm_get(&m, "S");
	for (int i = 0; i < 64; i++) {
		cr_assert_eq(b[i], 7);
		cr_assert_eq(s[i], i == 1 || i == 2 ? 10 + 49 : 49, "S[%d] = %d", i, s[i]);
	}
	free(b), free(s);
	vm_close(&m);
}

/* Without the rules, the answer would differ: the host's store is seen by
 * VIMA and VIMA's result by the host, across many random interleavings
 * (the precise-exception programs mix both; this runs them to the end
 * with few lines, so lines are evicted and re-fetched around stores). */
Test(coherence, random_interleavings)
{
	rng_state = 31;
	for (unsigned lines = 4; lines <= 6; lines++)
		precise_case(24, lines);
}

/* ---- errors: one located message each ---- */

typedef struct bad { const char *text, *msg; } bad;

static const bad parse_errors[] = {
	{ "array A f32 8\nfoo.f32 A, A\n", "t.vima:2:1: error: unknown statement 'foo'" },
	{ "array A f32 8\nadd A, A, A\n", "t.vima:2:5: error: expected '.TYPE' after 'add'" },
	{ "array A f32 8\nadd.f16 A, A, A\n", "t.vima:2:5: error: unknown type 'f16'" },
	{ "array A f32 8\nand.f32 A, A, A\n", "t.vima:2:5: error: and does not take f32; it takes i32, u32, i64 or u64" },
	{ "array A u32 8\nabs.u32 A, A\n", "t.vima:2:5: error: abs does not take u32; it takes i32, i64, f32 or f64" },
	{ "array A f32 8\nadd.f32 A, B, A\n", "t.vima:2:12: error: unknown array 'B'" },
	{ "array A f32 8\narray B f64 8\nadd.f32 A, B, A\n", "t.vima:3:12: error: 'B' holds f64 elements of 8 bytes" },
	{ "array A f32 8\nadd.f32 A, A A\n", "t.vima:2:14: error: expected ',' between operands" },
	{ "array A f32 8\nadd.f32 A, A, A, A\n", "t.vima:2:16: error: unexpected ','" },
	{ "array A f32 8\nadd.f32 A[1, A, A\n", "t.vima:2:12: error: expected ']' to close the index" },
	{ "array A f32 8\nadd.f32 A[x], A, A\n", "t.vima:2:11: error: unknown name 'x'" },
	{ "array A f32 8\nadd.f32 A[A], A, A\n", "t.vima:2:11: error: 'A' is an array; expected an integer" },
	{ "array A f32 8\nadd.f32 A[(1], A, A\n", "t.vima:2:13: error: expected ')' to close '('" },
	{ "array A f32 8\nadd.f32 A[12x], A, A\n", "t.vima:2:11: error: malformed number" },
	{ "array A f32 8\nadd.f32 A[99999999999999999999], A, A\n", "t.vima:2:11: error: number does not fit in 63 bits" },
	{ "array A f32 0\n", "t.vima:1:13: error: 0 elements: expected 1 or more" },
	{ "array A f32 1000000000000\n", "t.vima:1:13: error: 1000000000000 elements" },
	{ "array A f32 4/0\n", "t.vima:1:13: error: division by zero" },
	{ "array A f32 9223372036854775807*2\n", "t.vima:1:13: error: the value overflows 64 bits" },
	{ "array A f99 8\n", "t.vima:1:9: error: unknown type 'f99'" },
	{ "array A f32\n", "t.vima:1:12: error: expected a number, a name or '('" },
	{ "array A f32 8 init=ones\n", "t.vima:1:20: error: unknown init 'ones'" },
	{ "array A f32 8 init=const:x\n", "t.vima:1:26: error: expected a number for f32, got 'x'" },
	{ "array A i32 8 init=const:3000000000\n", "t.vima:1:26: error: 3000000000 is out of range for i32" },
	{ "array A u32 8 init=const:-1\n", "t.vima:1:26: error: -1 is out of range for u32" },
	{ "array A f32 8 init=random\n", "t.vima:1:26: error: expected ':' before the seed" },
	{ "array A f32 8 fill=zero\n", "t.vima:1:15: error: unknown array option 'fill'; expected init= or perm=" },
	{ "array A f32 8 perm=wo\n", "t.vima:1:20: error: unknown permission 'wo'; expected rw, ro or none" },
	{ "array A f32 8 perm=ro perm=rw\n", "t.vima:1:23: error: a second perm= for array A; expected one" },
	{ "array A f32 8 init=iota init=zero\n", "t.vima:1:25: error: a second init= for array A" },
	{ "array A f32 8 perm ro\n", "t.vima:1:20: error: expected '=' after perm" },
	{ "array A f32 8 perm=\n", "t.vima:1:20: error: expected rw, ro or none" },
	{ "array A f32 8\narray A f32 8\n", "t.vima:2:7: error: 'A' is already defined" },
	{ "array for f32 8\n", "t.vima:1:7: error: 'for' is a reserved word" },
	{ "const N = 4\nconst N = 5\n", "t.vima:2:7: error: 'N' is already defined" },
	{ "const N 4\n", "t.vima:1:9: error: expected '=' after the const's name" },
	{ "array A f32 8\nfor i = 0, 8\nfor i = 0, 8\nend\nend\n", "t.vima:3:5: error: 'i' is already defined" },
	{ "for i = 0, 8\n", "t.vima:1:1: error: 'for i' has no 'end'" },
	{ "end\n", "t.vima:1:1: error: 'end' without a 'for'" },
	{ "for i = 0 8\nend\n", "t.vima:1:11: error: expected ',' between the loop's start and end" },
	{ "const N = 1\nvima lines=4\n", "t.vima:2:1: error: 'vima' must be the first statement" },
	{ "vima vector=1024\n", "t.vima:1:13: error: vector=1024: expected 8192 or 256" },
	{ "vima lines=0\n", "t.vima:1:12: error: lines=0: expected 1 to 4096" },
	{ "vima colour=4\n", "t.vima:1:6: error: unknown setting 'colour'" },
	{ "array A f32 8\nhost A[0] 5\n", "t.vima:2:11: error: expected '=' after the element" },
	{ "array A f32 8\nhost A[0] = abc\n", "t.vima:2:13: error: expected a number for f32, got 'abc'" },
	{ "array A f32 8\nmov.f32 A, 1.5.2\n", "t.vima:2:12: error: expected a number for f32, got '1.5.2'" },
	{ "array A i32 8\nmov.i32 A, 1.5\n", "t.vima:2:12: error: expected an integer for i32, got '1.5'" },
	{ "array A f32 8\n  # comment\n\t@\n", "t.vima:3:2: error: expected a statement" },
	{ "array A f32 8", "t.vima:1:14: error: the last line does not end with a newline" },
	{ "array A f32 8\n\x01\n", "t.vima:2:1: error: control character 0x01" },
	{ "array A f32 8 # ok\narray B f32 8 junk\n", "t.vima:2:15: error: unknown array option 'junk'" },
	{ "for i = 0, 8\nfor j = 0, 8\nfor k = 0, 8\nfor l = 0, 8\nfor m = 0, 8\nfor n = 0, 8\n"
	  "for o = 0, 8\nfor p = 0, 8\nfor q = 0, 8\nfor r = 0, 8\nfor s = 0, 8\nfor t = 0, 8\n"
	  "for u = 0, 8\nfor v = 0, 8\nfor w = 0, 8\nfor x = 0, 8\nfor y = 0, 8\n",
	  "t.vima:17:1: error: loops nested more than 16 deep" },
	{ "const N = ((((((((((((((((((((((((((1))))))))))))))))))))))))))\n", "error: expression nested too deeply" },
	{ "array A f32 8\nadd.f32 A, A, A extra\n", "t.vima:2:17: error: unexpected 'e' after the statement" },
};

Test(errors, parse_messages)
{
	for (size_t i = 0; i < sizeof parse_errors / sizeof parse_errors[0]; i++) {
		const bad *b = &parse_errors[i];
		vima_program p;
		diag d;
		int rc = vima_parse("t.vima", b->text, strlen(b->text), NULL, &p, &d);
		cr_assert_eq(rc, -1, "case %zu parsed:\n%s", i, b->text);
		cr_assert(strstr(d.msg, b->msg) != NULL, "case %zu:\n%s\ngot:  %s\nwant: %s", i,
			  b->text, d.msg, b->msg);
		cr_assert(strchr(d.msg, '\n') == NULL, "one line: %s", d.msg);
	}
}

static const bad run_errors[] = {
	{ "vima vector=256\narray A i32 128\nadd.i32 A[1], A, A\n",
	  "t.vima:3:9: error: destination A[1] does not start a vector line (an index that is a multiple of 64)" },
	{ "vima vector=256\narray A i32 64\nfor i = 0, 2\nadd.i32 A[i], A, A\nend\n",
	  "t.vima:4:9: error: destination A[1] does not start a vector line (an index that is a multiple of 64); VIMA writes whole lines (i = 1)" },
	{ "vima vector=256\narray A i32 64\nfor i = 0, 4, 0\nend\n",
	  "t.vima:3:1: error: the loop's step is 0; expected a positive step" },
	{ "vima vector=256\narray A i32 64\nfor i = 0, 4\nmov.i32 A[0/(i-2)], 1\nend\n",
	  "t.vima:4:9: error: division by zero" },
	{ "vima vector=256 lines=2\narray A i32 256\nadd.i32 A, A[1], A[65]\n",
	  "t.vima:3:1: error: the sources need 3 cache lines at once; the vector cache has 2" },
	{ "vima vector=256\narray A i32 64\nfor i = 0, 1000000000000\nend\n",
	  "t.vima:4:1: error: more than 268435456 statements run" },
};

Test(errors, run_messages)
{
	for (size_t i = 0; i < sizeof run_errors / sizeof run_errors[0]; i++) {
		const bad *b = &run_errors[i];
		vm m;
		vm_open(&m, b->text, 0, NULL);
		cr_assert_eq(vima_run(&m.u, &m.d), -1, "case %zu ran:\n%s", i, b->text);
		cr_assert(strstr(m.d.msg, b->msg) != NULL, "case %zu:\n%s\ngot:  %s\nwant: %s", i,
			  b->text, m.d.msg, b->msg);
		vm_close(&m);
	}
}

Test(errors, defines)
{
	vima_define d[] = { { "M", 4, false } };
	vima_parse_opts po = { d, 1, 0, 0 };
	vima_program p;
	diag dg;
	const char *text = "const N = 8\narray A f32 N\nadd.f32 A[0], A[0], A[0]\n";
	cr_assert_eq(vima_parse("t.vima", text, strlen(text), &po, &p, &dg), -1);
	cr_assert_str_eq(dg.msg, "t.vima: error: -D M: the program has no 'const M'");
	d[0].name = "N";
	cr_assert_eq(vima_parse("t.vima", text, strlen(text), &po, &p, &dg), 0, "%s", dg.msg);
	cr_assert_eq(p.arrays[0].count, 4);
	vima_program_free(&p);
}

/* ---- cli ---- */

TestSuite(cli, .init = make_tmpdir, .fini = remove_tmpdir);

#define VECSUM SRCDIR "/samples/vima/vecsum.vima"

Test(cli, run_save_expect)
{
	result r = run("vima " VECSUM " -D N=4096 --vector=256 -s C=c.npy -s A=a.npy");
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "vecsum.vima: 64 VIMA instructions"), "%s", r.out);
	result_free(&r);
	r = run("run " VECSUM " -D N=4096 --vector=256 -e C=c.npy -q");
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_str_eq(r.out, "");
	result_free(&r);
	r = run("vima " VECSUM " -D N=4096 --vector=256 -e C=a.npy");
	cr_assert_eq(r.status, 3, "%s", r.err);
	cr_assert(strstr(r.err, "a.npy: error: --expect: C[0] (f32): expected "), "%s", r.err);
	result_free(&r);
	r = run("vima " VECSUM " -D N=4096 -l A=c.npy -l B=c.npy -s C=d.npy --stats=json");
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "\"read_misses\": 4,"), "%s", r.out);
	result_free(&r);
}

Test(cli, fault_exit_status)
{
	result r = run("vima " VECSUM " -D N=8192 --vector=256 --fault-at=3 -s C=c.npy");
	cr_assert_eq(r.status, 5, "%s", r.err);
	cr_assert(strstr(r.err, "vecsum.vima:8:3: error: page fault at VIMA instruction 3 (add.f32): "
			 "instructions 1 to 2 committed, nothing of 3 or after"), "%s", r.err);
	result_free(&r);
	/* -s saved the memory the handler sees: 2 instructions' lines of C */
	r = run("vima " VECSUM " -D N=8192 --vector=256 --fault-at=3 -e C=c.npy -q");
	cr_assert_eq(r.status, 5, "%s", r.err);
	result_free(&r);
	r = run("vima " VECSUM " -D N=8192 --vector=256 --fault-at=4 -e C=c.npy -q");
	cr_assert_eq(r.status, 3, "%s", r.err);
	cr_assert(strstr(r.err, "c.npy: error: --expect: C[128] (f32)"), "%s", r.err);
	result_free(&r);
}

/* A real page fault reports, exits and saves as an injected one does. */
Test(cli, real_fault_like_injected)
{
	char path[512];
	snprintf(path, sizeof path, "%s/pf.vima", tmpdir);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs("vima vector=256\narray A f32 64 init=iota\narray B f32 64 perm=ro\narray C f32 64\n"
	      "add.f32 C, A, A\nadd.f32 B, C, A\n", f);
	fclose(f);
	result r = run("vima pf.vima -s C=c.npy -s B=b.npy --check");
	cr_assert_eq(r.status, 5, "%s", r.err);
	cr_assert(strstr(r.err, "pf.vima:6:1: error: page fault at VIMA instruction 2 (add.f32): B[0]: a "
			 "write of 256 bytes in a read-only page (address 0x20000000000); instructions 1 "
			 "to 1 committed, nothing of 2 or after"), "%s", r.err);
	result_free(&r);
	r = run("vima pf.vima -e C=c.npy -e B=b.npy --fault-at=2 -q");
	cr_assert_eq(r.status, 5, "%s", r.err);
	result_free(&r);
}

Test(cli, usage_errors)
{
	result r = run("vima");
	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.err, "missing program operand"), "%s", r.err);
	result_free(&r);
	r = run("vima " VECSUM " --lines=0");
	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.err, "-m lines=0: expected a number from 1 to 4096"), "%s", r.err);
	result_free(&r);
	r = run("vima " VECSUM " -s Z=z.npy");
	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.err, "vecsum.vima has no array 'Z' (it has: A, B, C)"), "%s", r.err);
	result_free(&r);
	r = run("vima " VECSUM " --vector=512");
	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.err, "-m vector=512: expected 8192 or 256"), "%s", r.err);
	result_free(&r);
	r = run("vima nothere.vima");
	cr_assert_eq(r.status, 1);
	cr_assert(strstr(r.err, "nothere.vima: error: cannot open"), "%s", r.err);
	result_free(&r);
	r = run("commands vima");
	cr_assert_eq(r.status, 0);
	cr_assert(strstr(r.out, "mad    d,a,b"), "%s", r.out);
	result_free(&r);
	r = run("vima --help");
	cr_assert_eq(r.status, 0);
	cr_assert(strstr(r.out, "--fault-at=K"), "%s", r.out);
	result_free(&r);
}

/* doc/VIMA.md's instruction table says what ops.def says. */
Test(ops, documented_in_vima_md)
{
	char *doc = proc_slurp(SRCDIR "/doc/VIMA.md", NULL);
	cr_assert_not_null(doc);
	/* the table escapes '|' as "\|" */
	for (char *r = doc, *w = doc;; r++) {
		if (r[0] == '\\' && r[1] == '|')
			r++;
		*w++ = *r;
		if (!*r)
			break;
	}
	for (int op = 0; op < VIMA_NOPS; op++) {
		const vima_op_info *in = vima_op_info_of((vima_op)op);
		char head[32];
		snprintf(head, sizeof head, "| `%s` |", in->name);
		const char *row = strstr(doc, head);
		cr_assert_not_null(row, "doc/VIMA.md has no row for %s", in->name);
		const char *end = strchr(row, '\n');
		const char *sem = strstr(row, in->semantics);
		cr_assert(sem && sem < end, "doc/VIMA.md's %s row does not say \"%s\"", in->name,
			  in->semantics);
	}
	free(doc);
}

/* infsdb on a .vima program, in the one console: the batch transcript
 * tests/dbg/vima_watch.cmds (a watchpoint that a host store and an
 * instruction trip, stepi, info cache, print B[0]@2, the end and a name
 * that does not exist; its whole output is test_dbg's), seen as a
 * user's shell sees it: results on standard output, errors on standard
 * error, exit status 1. */
/* vima_t.vima's cycles to its end (infsim run --stats) */
#define VIMA_T_CYCLES 87
#define VIMA_T_CYCLES_S "87"

Test(cli, infsdb_transcript)
{
	proc_result r = proc_run_in(tmpdir, INFSDB_BIN, "-batch -nx -x " SRCDIR
				    "/tests/dbg/vima_watch.cmds " SRCDIR "/tests/dbg/vima_t.vima");
	cr_assert_eq(r.status, 1, "%s", r.err);
	const char *want[] = {
		"Watchpoint 1: A[3]\n",
		"line  valid  dirty  LRU  tag         vector\n"
		"   0  yes    yes      0  0x00000200  B[0]\n"
		"   1  no     -        -  -           -\n"
		"   2  no     -        -  -           -\n",
		"B[0]@2 = {5, 5}\n",
		"Watchpoint 1: A[3]\n\nOld value = 3\nNew value = 9\n",
		"Watchpoint 1: A[3]\n\nOld value = 9\nNew value = 5\n",
		"The program ended after 4 instructions, cycle " VIMA_T_CYCLES_S ".\n",
		"$1 = 5\n",
		"   0  yes    no       2  0x00000300  B[64]\n"
		"   1  yes    no       1  0x00000200  B[0]\n"
		"   2  yes    no       0  0x00000000  A[0]\n",
	};
	const char *at = r.out;
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		const char *hit = strstr(at, want[i]);
		cr_assert_not_null(hit, "missing, in order: %s\n--- output:\n%s", want[i], r.out);
		at = hit + strlen(want[i]);
	}
	cr_assert_str_eq(r.err, "No symbol \"Z\" in current context.\n"
			 "print: B[127]@2 runs past the end of the array (128 elements).\n");
	proc_result_free(&r);
}

/* The cycles of a VIMA run: infsdb's `info stats` at the end against
 * `infsim run --stats=json`'s totals.cycles (both with the final
 * write-back: vima_t.vima's last 18 cycles). */
static unsigned long long json_cycles(const char *json)
{
	const char *tot = strstr(json, "\"totals\"");
	cr_assert_not_null(tot, "%s", json);
	const char *c = strstr(tot, "\"cycles\": ");
	cr_assert_not_null(c, "%s", json);
	return strtoull(c + strlen("\"cycles\": "), NULL, 10);
}

static unsigned long long stats_cycles(const char *text)
{
	const char *c = strstr(text, "cycles (1 GHz)");
	cr_assert_not_null(c, "%s", text);
	return strtoull(c + strlen("cycles (1 GHz)"), NULL, 10);
}

Test(cli, infsdb_cycles_are_infsim_run_s)
{
	const char *progs[] = {
		SRCDIR "/tests/dbg/vima_t.vima",
		SRCDIR "/samples/vima/memcopy.vima -D N=4096 --lines=4",
		SRCDIR "/samples/vima/stencil.vima --vector=256",
	};
	for (size_t i = 0; i < sizeof progs / sizeof *progs; i++) {
		char args[1024];
		snprintf(args, sizeof args, "-batch -nx -ex run -ex 'info stats' %s", progs[i]);
		proc_result d = proc_run_in(tmpdir, INFSDB_BIN, args);
		cr_assert_eq(d.status, 0, "infsdb %s: %s", args, d.err);
		result r = run("run %s --stats=json -q", progs[i]);
		cr_assert_eq(r.status, 0, "%s", r.err);
		const unsigned long long want = json_cycles(r.out);
		cr_expect_eq(stats_cycles(d.out), want, "%s: infsdb's info stats says %llu cycles, "
			     "infsim run %llu", progs[i], stats_cycles(d.out), want);
		char end[128];
		snprintf(end, sizeof end, ", cycle %llu.\n", want);
		cr_expect(strstr(d.out, end), "%s: the end line is not at cycle %llu:\n%s", progs[i],
			  want, d.out);
		if (i == 0)
			cr_expect_eq(want, VIMA_T_CYCLES);
		proc_result_free(&d);
		result_free(&r);
	}
}

/* ---- cost: doc/VIMA.md's cost model, by hand ---- */

Test(cost, one_and_two_misses)
{
	/* copy of one 8 KB vector: tag 1 + one miss + transfers 8 + int alu 8
	 * + status 2; the miss puts 4 sub-requests on each vault's 10 GB/s
	 * bus: 18 DRAM cycles (10.8 ns) + 4 x 6.4 ns = 36.4 ns, 37 cycles; the
	 * final flush writes the line back: 37 more */
	vm m;
	vm_open(&m, "array A i32 2048\narray B i32 2048\ncopy.i32 B, A\n", 0, NULL);
	vm_run_ok(&m);
	cr_assert_eq(m.u.st.cyc_dram, 37 + 37);
	cr_assert_eq(m.u.st.cycles, 1 + 37 + 8 + 8 + 2 + 37);
	vm_close(&m);
	/* add.f32: two misses together, 8 sub-requests per vault: 10.8 +
	 * 8 x 6.4 = 62.0043 ns, 63 cycles; fp alu 13.  A at 0 (banks 0-3) and
	 * B at 8 KB (banks 4-7) */
	vm_open(&m, "array A f32 2048\narray B f32 2048\narray C f32 2048\nadd.f32 C, A, B\n", 0, NULL);
	vm_run_ok(&m);
	cr_assert_eq(m.u.st.cycles, 1 + 63 + 8 + 13 + 2 + 37);
	vm_close(&m);
	/* A at 0 and C at 16 KB share banks 0-3: two per bank, tRC + 18 DRAM
	 * cycles + a burst = 36.8 ns, within the bus's 62 ns: the same time */
	vm_open(&m, "array A f32 2048\narray B f32 2048\narray C f32 2048\nadd.f32 B, A, C\n", 0, NULL);
	vm_run_ok(&m);
	cr_assert_eq(m.u.st.cycles, 1 + 63 + 8 + 13 + 2 + 37);
	cr_assert_eq(m.u.st.cache_accesses, 2 + 1 + 1);
	/* 24 KB moved at 4.8 pJ/bit, 4 line accesses at 194 pJ, 124 cycles of
	 * 7334 mW static */
	cr_assert_float_eq(vima_energy_pj(&m.u.st), 24576 * 8 * 4.8 + 4 * 194.0 + 124 * 7334.0, 1e-3);
	vm_close(&m);
}

/* The memory's peak is 320 GB/s (§II-B: 32 vaults of 10 GB/s): no batch,
 * and no run, moves more than 320 bytes per VIMA cycle. */
Test(cost, peak_bandwidth)
{
	/* the flush of 8 dirty lines, one batch of 64 KB: 32 sub-requests per
	 * vault, 10.8 + 32 x 6.4 = 215.6 ns: 216 cycles, 303 B per cycle */
	vm m;
	vm_open(&m, "array A i32 16384\nfor i = 0, 16384, 2048\nmov.i32 A[i], 7\nend\n", 0, NULL);
	cr_assert_eq(vima_run(&m.u, &m.d), VIMA_STEP_END, "%s", m.d.msg);
	const uint64_t before = m.u.st.cyc_dram;
	vima_flush(&m.u);
	cr_assert_eq(m.u.st.cyc_dram - before, 216);
	cr_assert_leq(65536.0 / (double)(m.u.st.cyc_dram - before), 320.0);
	vm_close(&m);
	/* vecsum, 3 x 4 MB, 512 instructions of tag 1 + transfers 8 + fp alu
	 * 13 + status 2 and their misses: the first 3 fetch 2 lines (63
	 * cycles); from the 4th on, each fill batch also writes back the dirty
	 * C line a fill evicts, 12 sub-requests a vault: 10.8 + 12 x 6.4 ns, 88
	 * cycles; the flush writes the last 3 C lines, 88.  219 B per cycle */
	result r = run("vima " VECSUM " --stats=json -q");
	cr_assert_eq(r.status, 0, "%s", r.err);
	const double bytes = 3.0 * 4 * 1048576, cycles = (double)json_cycles(r.out);
	cr_assert_leq(bytes / cycles, 320.0, "%.1f B per cycle", bytes / cycles);
	cr_assert_eq(json_cycles(r.out), 3 * (63 + 24) + 509 * (88 + 24) + 88, "%llu",
		     json_cycles(r.out));
	result_free(&r);
}

/* VecSum streams: every line count from 3 to 12 has the same misses, and
 * the same cycles (the commit's victim leaves through the write buffer
 * with the next misses, whichever line it is). */
Test(cost, vecsum_cycles_do_not_swing_with_lines)
{
	unsigned long long lo = ~0ull, hi = 0;
	for (int lines = 3; lines <= 12; lines++) {
		result r = run("vima " VECSUM " -D N=262144 --lines=%d --stats=json -q", lines);
		cr_assert_eq(r.status, 0, "%s", r.err);
		const unsigned long long c = json_cycles(r.out);
		lo = c < lo ? c : lo;
		hi = c > hi ? c : hi;
		result_free(&r);
	}
	cr_assert_leq(hi - lo, 2, "cycles from %llu to %llu", lo, hi);
}

/* Stop-and-go's bubbles: 2 cycles an instruction, 2% to 4% of the
 * streaming kernels' cycles (§III-C: "varying between 2% and 4%"). */
Test(cost, stop_and_go_share)
{
	const char *progs[] = { "memset", "memcopy" };
	for (size_t i = 0; i < 2; i++) {
		vm m;
		char path[512];
		snprintf(path, sizeof path, "%s/samples/vima/%s.vima", SRCDIR, progs[i]);
		memset(&m, 0, sizeof m);
		cr_assert_eq(vima_load(path, NULL, &m.p, &m.d), 0, "%s", m.d.msg);
		cr_assert_eq(vima_unit_init(&m.u, &m.p, NULL, 0, &m.d), 0, "%s", m.d.msg);
		cr_assert_eq(vima_run(&m.u, &m.d), VIMA_STEP_END, "%s", m.d.msg);
		vima_flush(&m.u);
		cr_assert_eq(m.u.st.cyc_gap, 2 * m.u.st.insns);
		const double share = (double)m.u.st.cyc_gap / (double)m.u.st.cycles;
		cr_assert(share >= 0.02 && share <= 0.04, "%s: %.2f%%", progs[i], 100 * share);
		vm_close(&m);
	}
}

Test(cli, load_errors_and_dump)
{
	result r = run("vima " VECSUM " -D N=64 --vector=256 -s C=c.npy -d C");
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "C[63] = "), "%s", r.out);
	result_free(&r);
	/* an i32 array from an f32 file; a file of the wrong length */
	r = run("vima %s/samples/vima/memset.vima -D N=64 --vector=256 -l A=c.npy", SRCDIR);
	cr_assert_eq(r.status, 1);
	cr_assert(strstr(r.err, "c.npy: error: dtype '<f4' does not match array 'A' (i32): "
			 "expected '<i4'"), "%s", r.err);
	result_free(&r);
	r = run("vima " VECSUM " -D N=128 --vector=256 -l A=c.npy");
	cr_assert_eq(r.status, 1);
	cr_assert(strstr(r.err, "c.npy: error: shape (64,) has 64 elements; array 'A' has 128"),
		  "%s", r.err);
	result_free(&r);
}
