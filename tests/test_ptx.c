/* SPDX-License-Identifier: MIT */
/*
 * test_ptx.c: PTX in (emu/ptx/, doc/PTX.md).
 *
 *   clang      clang 14's PTX of the kernels in tests/data/ptx/ (saxpy, a
 *              branchy kernel, a data-dependent loop, a shared-memory
 *              reduction with bar.sync, an atomic histogram, 64-bit
 *              indexing with .global and .local variables, shfl.sync and
 *              vote.sync, OpenCL at .address_size 64 and 32, integer,
 *              float and transcendental families) run on the reference
 *              and compared bit for bit with plain C written here;
 *   ops        one instruction at a time on chosen values (cvt in every
 *              rounding mode, setp's unordered comparisons, .ftz, .sat,
 *              testp, bit fields, funnel shifts, division by zero, f16)
 *              against C;
 *   errors     every kind of refusal and of run-time error, located.
 */
#include <criterion/criterion.h>
#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa.h"
#include "ptx.h"
#include "text.h"

/* ---- harness ---- */

static ptx_module *load(const char *name)
{
	char path[512];
	snprintf(path, sizeof path, "%s/tests/data/ptx/%s", SRCDIR, name);
	char *text;
	size_t len;
	diag d;
	diag_clear(&d);
	cr_assert_eq(text_read_file(path, 1 << 24, &text, &len, &d), 0, "%s", d.msg);
	ptx_module *m;
	int rc = ptx_read(name, text, len, &m, &d);
	free(text);
	cr_assert_eq(rc, 0, "%s", d.msg);
	return m;
}

static ptx_module *read_text(const char *text, diag *d)
{
	ptx_module *m = NULL;
	diag_clear(d);
	/* an exact-size copy, so a read past len is caught by the sanitizers */
	size_t n = strlen(text);
	char *copy = malloc(n ? n : 1);
	memcpy(copy, text, n);
	if (ptx_read("t.ptx", copy, n, &m, d) < 0)
		m = NULL;
	free(copy);
	return m;
}

#define DEV_BASE 0x10000u
#define DEV_SIZE (1u << 20)

typedef struct dev {
	uint8_t *bytes;
	uint64_t top;
	ptx_mem mem;
} dev;

static void dev_init(dev *v)
{
	v->bytes = calloc(DEV_SIZE, 1);
	v->top = 0;
	v->mem = (ptx_mem){v->bytes, DEV_BASE, DEV_SIZE};
}

/* n bytes of device memory (aligned to 16): its address; *host the bytes */
static uint64_t dev_alloc(dev *v, size_t n, void **host)
{
	uint64_t at = v->top;
	v->top = (v->top + n + 15) / 16 * 16;
	cr_assert(v->top <= DEV_SIZE);
	*host = v->bytes + at;
	return DEV_BASE + at;
}

static int launch(const ptx_module *m, const char *kernel, uint32_t grid, uint32_t block, dev *v,
		  const uint64_t *args, size_t nargs, uint64_t max_steps, ptx_where *w, diag *d)
{
	long k = ptx_kernel_find(m, kernel);
	cr_assert(k >= 0, "no kernel %s", kernel);
	ptx_launch l = {(size_t)k, {grid, 1, 1}, {block, 1, 1}, args, nargs, max_steps};
	diag_clear(d);
	return ptx_ref_run(m, &l, &v->mem, w, d);
}

static uint32_t rng_state = 12345;
static uint32_t rnd(void)
{
	rng_state = rng_state * 1664525u + 1013904223u;
	return rng_state >> 8 ^ rng_state << 13;
}

static float frand(float lo, float hi)
{
	return lo + (hi - lo) * (float)(rnd() % 100000) / 100000.0f;
}

static uint32_t fbits(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

static float bitsf(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}

static uint64_t dbits(double f)
{
	uint64_t u;
	memcpy(&u, &f, 8);
	return u;
}

static double bitsd(uint64_t u)
{
	double f;
	memcpy(&f, &u, 8);
	return f;
}

#define assert_f32(got, want, ...) cr_assert_eq(fbits(got), fbits(want), __VA_ARGS__)

/* ---- clang's kernels ---- */

Test(clang, saxpy_fma)
{
	ptx_module *m = load("saxpy.ptx");
	cr_assert_eq(ptx_address_bits(m), 64);
	cr_assert_eq(ptx_nparams(m, 0), 4);
	cr_assert(!ptx_param(m, 0, 0).is_ptr && ptx_param(m, 0, 1).is_float);
	cr_assert(ptx_param(m, 0, 2).is_ptr && ptx_param(m, 0, 3).is_ptr);
	cr_assert_eq(ptx_param(m, 0, 2).size, 8);
	dev v;
	dev_init(&v);
	float *x, *y, y0[128];
	uint64_t ax = dev_alloc(&v, 128 * 4, (void **)&x), ay = dev_alloc(&v, 128 * 4, (void **)&y);
	for (int i = 0; i < 128; i++) {
		x[i] = frand(-100, 100);
		y[i] = y0[i] = frand(-100, 100);
	}
	float a = 1.7f;
	uint64_t args[] = {100, fbits(a), ax, ay};
	diag d;
	cr_assert_eq(launch(m, "saxpy", 4, 32, &v, args, 4, 0, NULL, &d), 0, "%s", d.msg);
	for (int i = 0; i < 128; i++)
		assert_f32(y[i], i < 100 ? fmaf(a, x[i], y0[i]) : y0[i], "y[%d]", i);
	free(v.bytes);
	ptx_module_free(m);
}

Test(clang, branchy)
{
	ptx_module *m = load("mem.ptx");
	dev v;
	dev_init(&v);
	int32_t *in, *out;
	uint64_t ai = dev_alloc(&v, 64 * 4, (void **)&in), ao = dev_alloc(&v, 64 * 4, (void **)&out);
	for (int i = 0; i < 64; i++)
		in[i] = (int32_t)(rnd() % 61) - 20;
	uint64_t args[] = {ai, ao};
	diag d;
	cr_assert_eq(launch(m, "branchy", 2, 32, &v, args, 2, 0, NULL, &d), 0, "%s", d.msg);
	for (int t = 0; t < 32; t++) { /* only tid.x indexes: both CTAs write the first 32 */
		int x = in[t], r;
		if (x < 0)
			r = -x * 3;
		else if (x < 10)
			r = x + 100;
		else if ((x & 3) == 2)
			r = x >> 1;
		else {
			r = 0;
			for (int i = 0; i < (x & 7); i++)
				r += i * x;
		}
		cr_assert_eq(out[t], r, "out[%d] for %d", t, x);
	}
	free(v.bytes);
	ptx_module_free(m);
}

Test(clang, loop_data_dependent)
{
	ptx_module *m = load("misc.ptx");
	dev v;
	dev_init(&v);
	int32_t *in, *out;
	uint64_t ai = dev_alloc(&v, 64 * 4, (void **)&in), ao = dev_alloc(&v, 64 * 4, (void **)&out);
	for (int i = 0; i < 64; i++)
		in[i] = i < 3 ? i - 1 : (int32_t)(rnd() % 2000) + 1;
	uint64_t args[] = {ai, ao};
	diag d;
	cr_assert_eq(launch(m, "loop", 1, 64, &v, args, 2, 0, NULL, &d), 0, "%s", d.msg);
	for (int t = 0; t < 64; t++) {
		int x = in[t], c = 0;
		while (x > 1) {
			x = (x & 1) ? 3 * x + 1 : x / 2;
			c++;
		}
		cr_assert_eq(out[t], c, "out[%d]", t);
	}
	free(v.bytes);
	ptx_module_free(m);
}

Test(clang, shared_reduction)
{
	ptx_module *m = load("misc.ptx");
	dev v;
	dev_init(&v);
	float *in, *out;
	uint64_t ai = dev_alloc(&v, 256 * 4, (void **)&in), ao = dev_alloc(&v, 2 * 4, (void **)&out);
	for (int i = 0; i < 256; i++)
		in[i] = frand(-1, 1);
	uint64_t args[] = {ai, ao};
	diag d;
	cr_assert_eq(launch(m, "reduce", 2, 128, &v, args, 2, 0, NULL, &d), 0, "%s", d.msg);
	for (int c = 0; c < 2; c++) {
		float s[128];
		memcpy(s, in + 128 * c, sizeof s);
		for (int k = 64; k > 0; k >>= 1)
			for (int t = 0; t < k; t++)
				s[t] += s[t + k];
		assert_f32(out[c], s[0], "out[%d]", c);
	}
	free(v.bytes);
	ptx_module_free(m);
}

Test(clang, atomic_histogram)
{
	ptx_module *m = load("misc.ptx");
	dev v;
	dev_init(&v);
	uint32_t *in, *h, want[16] = {0};
	uint64_t ai = dev_alloc(&v, 200 * 4, (void **)&in), ah = dev_alloc(&v, 16 * 4, (void **)&h);
	for (int i = 0; i < 200; i++) {
		in[i] = rnd();
		want[in[i] & 15]++;
	}
	uint64_t args[] = {ai, ah, 200};
	diag d;
	cr_assert_eq(launch(m, "hist", 7, 32, &v, args, 3, 0, NULL, &d), 0, "%s", d.msg);
	for (int i = 0; i < 16; i++)
		cr_assert_eq(h[i], want[i], "h[%d]", i);
	free(v.bytes);
	ptx_module_free(m);
}

/* rsqrt.approx as doc/PTX.md defines it: isa/'s reference. */
static float rsqrt_approx(float x) { return bitsf((uint32_t)isa_fp_rsqrt(ISA_FMT_F32, ISA_FL_IEEE, fbits(x))); }

/* got within bound of the true want: absolute, or relative where |want| > 1
 * (doc/PTX.md, "The .approx functions", gives the measured accuracy). */
static void assert_near(float got, double want, double bound, const char *what, int t)
{
	cr_assert(fabs((double)got - want) <= bound * fmax(1.0, fabs(want)),
		  "%s %d: %.9g, the true value %.9g", what, t, (double)got, want);
}

Test(clang, transcendentals)
{
	ptx_module *m = load("misc.ptx");
	dev v;
	dev_init(&v);
	float *in, *out;
	uint64_t ai = dev_alloc(&v, 32 * 4, (void **)&in), ao = dev_alloc(&v, 128 * 4, (void **)&out);
	for (int i = 0; i < 32; i++)
		in[i] = frand(0.01f, 20.0f);
	uint64_t args[] = {ai, ao};
	diag d;
	cr_assert_eq(launch(m, "trans", 1, 32, &v, args, 2, 0, NULL, &d), 0, "%s", d.msg);
	for (int t = 0; t < 32; t++) {
		float x = in[t];
		assert_near(out[4 * t], sin(x), 0x1p-22, "sin", t);
		assert_near(out[4 * t + 1], exp2(x), 0x1p-23, "ex2", t);
		assert_near(out[4 * t + 2], log2(x), 0x1p-21, "lg2", t);
		double s = cos(x) + rsqrt_approx(x);
		s = sqrt(x) + s;
		s = 1.0 / x + s;
		assert_near(out[4 * t + 3], s, 0x1p-21, "cos+rsqrt+sqrt+rcp", t);
		/* the rsqrt estimate is within a fraction of a percent */
		cr_assert(fabsf(rsqrt_approx(x) * sqrtf(x) - 1.0f) < 0.005f);
	}
	free(v.bytes);
	ptx_module_free(m);
}

static uint32_t rev32(uint32_t x)
{
	uint32_t r = 0;
	for (int i = 0; i < 32; i++)
		r |= ((x >> i) & 1) << (31 - i);
	return r;
}

Test(clang, integer_families)
{
	ptx_module *m = load("ops.ptx");
	dev v;
	dev_init(&v);
	int32_t *a, *o;
	int64_t *w, w0[32];
	uint64_t aa = dev_alloc(&v, 64 * 4, (void **)&a), ao = dev_alloc(&v, 512 * 4, (void **)&o),
		 aw = dev_alloc(&v, 32 * 8, (void **)&w);
	for (int i = 0; i < 64; i++) {
		a[i] = (int32_t)rnd();
		if (i % 5 == 0)
			a[i] >>= 20;
		if (a[i] == 0 || a[i] == INT32_MIN)
			a[i] = 7;
	}
	for (int i = 0; i < 32; i++)
		w[i] = w0[i] = (int64_t)((uint64_t)rnd() << 20 ^ rnd()) - (1ll << 40);
	uint64_t args[] = {aa, ao, aw};
	diag d;
	cr_assert_eq(launch(m, "iops", 1, 32, &v, args, 3, 0, NULL, &d), 0, "%s", d.msg);
	for (int t = 0; t < 32; t++) {
		int32_t x = a[t], y = a[t + 32];
		uint32_t ux = (uint32_t)x, uy = (uint32_t)y;
		int32_t want[16] = {
			x / y, x % y, (int32_t)(ux / uy), (int32_t)(ux % uy),
			__builtin_popcount(ux), __builtin_clz(ux | 1), (int32_t)rev32(ux), x < 0 ? -x : x,
			x > y ? x : y, (int32_t)(ux < uy ? ux : uy), (int32_t)((ux >> 3) & 0x1f), x >> (y & 31),
			(int32_t)(((int64_t)x * y) >> 32), ~x ^ (x | y), (signed char)x + (short)y,
			(int32_t)((ux << 7) | (ux >> 25)),
		};
		for (int k = 0; k < 16; k++)
			cr_assert_eq(o[16 * t + k], want[k], "o[%d][%d] for %d, %d", t, k, x, y);
		int64_t ww = (int64_t)x * y + (w0[t] / (y | 1)) + (int64_t)((uint64_t)w0[t] >> 5);
		cr_assert_eq(w[t], ww, "w[%d]", t);
	}
	free(v.bytes);
	ptx_module_free(m);
}

static float with_mode(int mode, float (*f)(float, float), float a, float b)
{
	fesetround(mode);
	volatile float r = f(a, b);
	fesetround(FE_TONEAREST);
	return r;
}

static float fdiv(float a, float b)
{
	volatile float va = a, vb = b;
	return va / vb;
}

static float fadd(float a, float b)
{
	volatile float va = a, vb = b;
	return va + vb;
}

Test(clang, float_families)
{
	ptx_module *m = load("ops.ptx");
	dev v;
	dev_init(&v);
	float *a, *o;
	int32_t *io;
	double *dd, d0[64];
	uint64_t aa = dev_alloc(&v, 64 * 4, (void **)&a), ao = dev_alloc(&v, 256 * 4, (void **)&o),
		 aio = dev_alloc(&v, 256 * 4, (void **)&io), ad = dev_alloc(&v, 64 * 8, (void **)&dd);
	for (int i = 0; i < 64; i++) {
		a[i] = i < 32 ? frand(-8, 8) : frand(0.25f, 9);
		dd[i] = d0[i] = frand(-1000, 1000) * 1.000001;
	}
	a[3] = a[35]; /* equal operands */
	a[5] = 2.5f;  /* ties of rni */
	uint64_t args[] = {aa, ao, aio, ad};
	diag d;
	cr_assert_eq(launch(m, "fops", 1, 32, &v, args, 4, 0, NULL, &d), 0, "%s", d.msg);
	for (int t = 0; t < 32; t++) {
		float x = a[t], y = a[t + 32];
		float s = (x < 0 ? 0 : x > 1 ? 1 : x) + fminf(x, y);
		s = with_mode(FE_DOWNWARD, fadd, x, y) + s;
		s = (float)t + s;
		s = nearbyintf(x) + s;
		s = floorf(y) + s;
		s = truncf(x) + s;
		s = ceilf(y) + s;
		float want[8] = {
			x / y + s, fminf(x, y), fabsf(x) - y, copysignf(x, y), (float)(int)x, (float)(unsigned)y,
			x * (1.0f / y), with_mode(FE_TOWARDZERO, fdiv, x, y),
		};
		for (int k = 0; k < 8; k++)
			assert_f32(o[8 * t + k], want[k], "o[%d][%d] for %a, %a", t, k, x, y);
		int32_t iw[8] = {x < y, !(x >= y), x != y, isnan(x) != 0, (int)floorf(x), (int)(unsigned)ceilf(y),
				 isinf(y) != 0, (int32_t)(long long)x};
		for (int k = 0; k < 8; k++)
			cr_assert_eq(io[8 * t + k], iw[k], "io[%d][%d]", t, k);
		double dw = fma(d0[t], (double)x, (double)(long long)y) + (double)(float)d0[t + 32];
		cr_assert_eq(dbits(dd[t]), dbits(dw), "d[%d]", t);
	}
	free(v.bytes);
	ptx_module_free(m);
}

Test(clang, globals_locals_64bit_index)
{
	ptx_module *m = load("mem.ptx");
	dev v;
	dev_init(&v);
	int32_t *in, *out;
	float *f;
	uint64_t ai = dev_alloc(&v, 32 * 4, (void **)&in), ao = dev_alloc(&v, 32 * 5 * 4, (void **)&out),
		 af = dev_alloc(&v, 32 * 4, (void **)&f);
	for (int i = 0; i < 32; i++)
		in[i] = (int32_t)(rnd() % 1000);
	uint64_t args[] = {ai, ao, af, 5};
	diag d;
	for (int run = 0; run < 2; run++) { /* each run starts from the initialisers */
		cr_assert_eq(launch(m, "lookup", 1, 32, &v, args, 4, 0, NULL, &d), 0, "%s", d.msg);
		int table[8] = {3, 1, 4, 1, 5, 9, 2, 6};
		for (int t = 0; t < 32; t++) { /* threads run in order, each to its end */
			int loc[16];
			for (int i = 0; i < 16; i++)
				loc[i] = in[(i * 7 + t) & 31] * i;
			int k = in[t] & 15;
			cr_assert_eq(out[t * 5], table[in[t] & 7] + loc[k], "out[%d]", t * 5);
			assert_f32(f[t], 2.5f * (float)k, "f[%d]", t);
			table[t & 7] += 1;
		}
	}
	free(v.bytes);
	ptx_module_free(m);
}

static uint32_t prmt_c(uint32_t a, uint32_t b, uint32_t c)
{
	uint8_t by[8];
	for (int i = 0; i < 4; i++) {
		by[i] = (uint8_t)(a >> (8 * i));
		by[i + 4] = (uint8_t)(b >> (8 * i));
	}
	uint32_t d = 0;
	for (int i = 0; i < 4; i++) {
		unsigned s = (c >> (4 * i)) & 15;
		uint8_t x = by[s & 7];
		if (s & 8)
			x = (x & 0x80) ? 0xff : 0;
		d |= (uint32_t)x << (8 * i);
	}
	return d;
}

Test(clang, bits_f64_f16)
{
	ptx_module *m = load("mem.ptx");
	dev v;
	dev_init(&v);
	uint32_t *in, *out;
	double *dd;
	uint16_t *h;
	uint64_t ai = dev_alloc(&v, 64 * 4, (void **)&in), ao = dev_alloc(&v, 128 * 4, (void **)&out),
		 ad = dev_alloc(&v, 32 * 8, (void **)&dd), ah = dev_alloc(&v, 32 * 2, (void **)&h);
	for (int i = 0; i < 64; i++)
		in[i] = rnd() >> (i % 7);
	uint64_t args[] = {ai, ao, ad, ah};
	diag d;
	cr_assert_eq(launch(m, "bits", 1, 32, &v, args, 4, 0, NULL, &d), 0, "%s", d.msg);
	for (uint32_t t = 0; t < 32; t++) {
		uint32_t x = in[t], y = in[t + 32];
		cr_assert_eq(out[4 * t], prmt_c(x, y, 0x3210 ^ (t & 0x7777)), "prmt %u", t);
		cr_assert_eq(out[4 * t + 1], (x & ~(0xffu << 8)) | ((y & 0xff) << 8));
		cr_assert_eq(out[4 * t + 2], (uint32_t)(((uint64_t)x * y) >> 32) + (uint32_t)(((uint64_t)x * y) >> 7));
		cr_assert_eq(out[4 * t + 3], __builtin_bswap32(x) ^ (x > y ? x - y : y - x), "sad %u", t);
		double a = (double)x / (double)(y | 1);
		double dw = (sqrt(a) + fmin(a, 3.0)) - 1.0 / (a + 1);
		cr_assert_eq(dbits(dd[t]), dbits(dw), "d[%u]", t);
		_Float16 hw = (_Float16)((float)x * 1e-3f);
		uint16_t hb;
		memcpy(&hb, &hw, 2);
		cr_assert_eq(h[t], hb, "h[%u]: %04x, not %04x", t, h[t], hb);
	}
	free(v.bytes);
	ptx_module_free(m);
}

Test(clang, shfl_vote)
{
	ptx_module *m = load("warp.ptx");
	dev v;
	dev_init(&v);
	int32_t *a, *o;
	uint64_t aa = dev_alloc(&v, 64 * 4, (void **)&a), ao = dev_alloc(&v, 64 * 4, (void **)&o);
	for (int i = 0; i < 64; i++)
		a[i] = (int32_t)(rnd() % 9) - 4;
	uint64_t args[] = {aa, ao};
	diag d;
	cr_assert_eq(launch(m, "sh", 1, 64, &v, args, 2, 0, NULL, &d), 0, "%s", d.msg);
	for (int w = 0; w < 2; w++) {
		int v1[32], v2[32];
		uint32_t ballot = 0;
		for (int l = 0; l < 32; l++)
			v1[l] = a[32 * w + l] + (l + 1 <= 31 ? a[32 * w + l + 1] : a[32 * w + l]);
		for (int l = 0; l < 32; l++)
			v2[l] = v1[l] + v1[l ^ 2];
		for (int l = 0; l < 32; l++)
			ballot |= (uint32_t)(v2[l] > 3) << l;
		for (int l = 0; l < 32; l++)
			cr_assert_eq(o[32 * w + l], v2[l] + (int32_t)ballot, "o[%d]", 32 * w + l);
	}
	free(v.bytes);
	ptx_module_free(m);
}

static void opencl_vadd(const char *file, unsigned bits)
{
	ptx_module *m = load(file);
	cr_assert_eq(ptx_address_bits(m), bits);
	cr_assert(ptx_param(m, 0, 0).is_ptr && ptx_param(m, 0, 2).is_ptr && !ptx_param(m, 0, 3).is_ptr);
	dev v;
	dev_init(&v);
	float *a, *b, *c;
	uint64_t pa = dev_alloc(&v, 96 * 4, (void **)&a), pb = dev_alloc(&v, 96 * 4, (void **)&b),
		 pc = dev_alloc(&v, 96 * 4, (void **)&c);
	for (int i = 0; i < 96; i++) {
		a[i] = frand(-5, 5);
		b[i] = frand(-5, 5);
		c[i] = -1;
	}
	uint64_t args[] = {pa, pb, pc, 90};
	diag d;
	cr_assert_eq(launch(m, "vadd", 3, 32, &v, args, 4, 0, NULL, &d), 0, "%s", d.msg);
	for (int i = 0; i < 96; i++)
		assert_f32(c[i], i < 90 ? a[i] + b[i] : -1.0f, "c[%d]", i);
	free(v.bytes);
	ptx_module_free(m);
}

Test(clang, opencl_64) { opencl_vadd("vadd64.ptx", 64); }
Test(clang, opencl_32) { opencl_vadd("vadd32.ptx", 32); }

/* ---- one instruction at a time ---- */

/* A kernel of one thread per value: a = in[i], b = in2[i] as .b64 in
 * %rd6 and %rd8, body leaves its result in %rd7. */
static void run_body(const char *body, const uint64_t *in, const uint64_t *in2, uint64_t *out, size_t n)
{
	char text[4096];
	snprintf(text, sizeof text,
		 ".version 7.0\n.target sm_52\n.address_size 64\n"
		 ".visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 po)\n{\n"
		 "\t.reg .pred %%p<4>;\n\t.reg .b16 %%h<4>;\n\t.reg .b32 %%r<8>;\n\t.reg .f32 %%f<8>;\n"
		 "\t.reg .b64 %%rd<12>;\n\t.reg .f64 %%fd<8>;\n"
		 "\tld.param.u64 %%rd1, [pa];\n\tld.param.u64 %%rd2, [pb];\n\tld.param.u64 %%rd3, [po];\n"
		 "\tmov.u32 %%r7, %%tid.x;\n\tmul.wide.u32 %%rd4, %%r7, 8;\n"
		 "\tadd.s64 %%rd5, %%rd1, %%rd4;\n\tld.global.b64 %%rd6, [%%rd5];\n"
		 "\tadd.s64 %%rd5, %%rd2, %%rd4;\n\tld.global.b64 %%rd8, [%%rd5];\n"
		 "\tmov.b64 {%%r1, %%r2}, %%rd6;\n\tmov.b64 {%%r3, %%r4}, %%rd8;\n"
		 "\tmov.b32 %%f1, %%r1;\n\tmov.b32 %%f2, %%r3;\n\tmov.b64 %%fd1, %%rd6;\n\tmov.b64 %%fd2, %%rd8;\n"
		 "\tmov.u64 %%rd7, 0;\n%s\n"
		 "\tadd.s64 %%rd5, %%rd3, %%rd4;\n\tst.global.b64 [%%rd5], %%rd7;\n\tret;\n}\n",
		 body);
	diag d;
	ptx_module *m = read_text(text, &d);
	cr_assert(m, "%s\n%s", d.msg, body);
	dev v;
	dev_init(&v);
	uint64_t *a, *b, *o;
	uint64_t pa = dev_alloc(&v, n * 8, (void **)&a), pb = dev_alloc(&v, n * 8, (void **)&b),
		 po = dev_alloc(&v, n * 8, (void **)&o);
	memcpy(a, in, n * 8);
	memcpy(b, in2 ? in2 : in, n * 8);
	uint64_t args[] = {pa, pb, po};
	cr_assert_eq(launch(m, "k", 1, (uint32_t)n, &v, args, 3, 0, NULL, &d), 0, "%s\n%s", d.msg, body);
	memcpy(out, o, n * 8);
	free(v.bytes);
	ptx_module_free(m);
}

static const float fvals[] = {
	0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 1.5f, 2.5f, -2.5f, 3.49f, -3.51f, 1e10f, -1e10f, 3e9f, 16777217.0f,
	1e-40f, -1e-40f, 1.17549435e-38f, INFINITY, -INFINITY, NAN, 4294967296.0f, 2147483520.0f, 0.75f, -0.25f,
};
#define NF (sizeof fvals / sizeof fvals[0])

static void fin(uint64_t *in, uint64_t *in2)
{
	for (size_t i = 0; i < NF; i++) {
		in[i] = fbits(fvals[i]);
		in2[i] = fbits(fvals[(i * 7 + 3) % NF]);
	}
}

/* the C value of cvt.rXi.s32.f32 (NaN 0, saturated) */
static int64_t f2i(double v, int mode, double lo, double hi)
{
	if (isnan(v))
		return 0;
	v = mode == 0 ? nearbyint(v) : mode == 1 ? trunc(v) : mode == 2 ? floor(v) : ceil(v);
	return v < lo ? (int64_t)lo : v > hi ? (int64_t)hi : (int64_t)v;
}

Test(ops, cvt_float_to_int_modes)
{
	static const char *const m[] = {"rni", "rzi", "rmi", "rpi"};
	uint64_t in[NF], in2[NF], out[NF];
	fin(in, in2);
	for (int k = 0; k < 4; k++) {
		char body[256];
		snprintf(body, sizeof body, "\tcvt.%s.s32.f32 %%r5, %%f1;\n\tcvt.u64.u32 %%rd7, %%r5;", m[k]);
		run_body(body, in, NULL, out, NF);
		for (size_t i = 0; i < NF; i++)
			cr_assert_eq((int32_t)out[i], (int32_t)f2i(fvals[i], k, -2147483648.0, 2147483647.0),
				     "cvt.%s.s32.f32 %a", m[k], (double)fvals[i]);
		snprintf(body, sizeof body, "\tcvt.%s.u16.f32 %%h1, %%f1;\n\tcvt.u64.u16 %%rd7, %%h1;", m[k]);
		run_body(body, in, NULL, out, NF);
		for (size_t i = 0; i < NF; i++)
			cr_assert_eq(out[i], (uint64_t)f2i(fvals[i], k, 0, 65535), "cvt.%s.u16.f32 %a", m[k], (double)fvals[i]);
		snprintf(body, sizeof body, "\tcvt.%s.s64.f64 %%rd7, %%fd1;", m[k]);
		uint64_t din[NF];
		for (size_t i = 0; i < NF; i++)
			din[i] = dbits((double)fvals[i] * 1e9);
		run_body(body, din, NULL, out, NF);
		for (size_t i = 0; i < NF; i++)
			cr_assert_eq((int64_t)out[i], f2i(bitsd(din[i]), k, -9223372036854775808.0, 9223372036854774784.0) +
				     (bitsd(din[i]) >= 9223372036854775808.0 ? 1023 : 0),
				     "cvt.%s.s64.f64 %a", m[k], bitsd(din[i]));
	}
}

static const int modes[] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
static const char *const rmodes[] = {"rn", "rz", "rm", "rp"};

Test(ops, cvt_int_and_f64_to_float_modes)
{
	uint64_t in[NF], out[NF], din[NF];
	for (size_t i = 0; i < NF; i++) {
		in[i] = (uint64_t)(int64_t)((int32_t)(16777217 + (int32_t)i * 3) * (i % 2 ? -1 : 1));
		din[i] = dbits((double)fvals[i] * (1.0 + 1e-12));
	}
	din[0] = dbits(1e-39); /* a subnormal f32 result */
	for (int k = 0; k < 4; k++) {
		char body[256];
		snprintf(body, sizeof body, "\tcvt.%s.f32.s32 %%f3, %%r1;\n\tmov.b32 %%r5, %%f3;\n\tcvt.u64.u32 %%rd7, %%r5;", rmodes[k]);
		run_body(body, in, NULL, out, NF);
		for (size_t i = 0; i < NF; i++) {
			fesetround(modes[k]);
			volatile int32_t vi = (int32_t)in[i];
			volatile float want = (float)vi;
			fesetround(FE_TONEAREST);
			assert_f32(bitsf((uint32_t)out[i]), want, "cvt.%s.f32.s32 %d", rmodes[k], (int32_t)in[i]);
		}
		snprintf(body, sizeof body, "\tcvt.%s.f32.f64 %%f3, %%fd1;\n\tmov.b32 %%r5, %%f3;\n\tcvt.u64.u32 %%rd7, %%r5;", rmodes[k]);
		run_body(body, din, NULL, out, NF);
		for (size_t i = 0; i < NF; i++) {
			fesetround(modes[k]);
			volatile double vd = bitsd(din[i]);
			volatile float want = (float)vd;
			fesetround(FE_TONEAREST);
			if (isnan(want))
				cr_assert_eq((uint32_t)out[i], 0x7fffffffu);
			else
				assert_f32(bitsf((uint32_t)out[i]), want, "cvt.%s.f32.f64 %a", rmodes[k], bitsd(din[i]));
		}
		snprintf(body, sizeof body, "\tcvt.%s.f64.u64 %%fd3, %%rd6;\n\tmov.b64 %%rd7, %%fd3;", rmodes[k]);
		uint64_t big[4] = {UINT64_MAX, (UINT64_C(1) << 63) + 1025, 12345678901234567ull, 3};
		run_body(body, big, NULL, out, 4);
		for (size_t i = 0; i < 4; i++) {
			fesetround(modes[k]);
			volatile uint64_t vu = big[i];
			volatile double want = (double)vu;
			fesetround(FE_TONEAREST);
			cr_assert_eq(out[i], dbits(want), "cvt.%s.f64.u64 %llu", rmodes[k], (unsigned long long)big[i]);
		}
	}
}

Test(ops, cvt_integer_widths_and_sat)
{
	uint64_t in[6] = {0x1ff, 0x80, (uint64_t)-3, 0x12345678, 0xffffffff, 0x7fff8000ull << 8};
	uint64_t out[6];
	run_body("\tcvt.s8.s32 %r5, %r1;\n\tcvt.s64.s32 %rd7, %r5;", in, NULL, out, 6);
	for (int i = 0; i < 6; i++)
		cr_assert_eq((int64_t)out[i], (int8_t)in[i], "cvt.s8.s32 %d", i);
	run_body("\tcvt.sat.u8.s32 %r5, %r1;\n\tcvt.u64.u32 %rd7, %r5;", in, NULL, out, 6);
	for (int i = 0; i < 6; i++) {
		int32_t x = (int32_t)in[i];
		cr_assert_eq(out[i], (uint64_t)(x < 0 ? 0 : x > 255 ? 255 : x), "cvt.sat.u8.s32 %d", i);
	}
	run_body("\tcvt.sat.s16.u64 %h1, %rd6;\n\tcvt.s64.s16 %rd7, %h1;", in, NULL, out, 6);
	for (int i = 0; i < 6; i++)
		cr_assert_eq((int64_t)out[i], in[i] > 32767 ? 32767 : (int64_t)in[i], "cvt.sat.s16.u64 %d", i);
	run_body("\tcvt.u16.u32 %h1, %r1;\n\tcvt.u64.u16 %rd7, %h1;", in, NULL, out, 6);
	for (int i = 0; i < 6; i++)
		cr_assert_eq(out[i], in[i] & 0xffff);
}

Test(ops, setp_unordered_and_ordered)
{
	static const char *const c[] = {"eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
	uint64_t in[NF], in2[NF], out[NF];
	fin(in, in2);
	for (int k = 0; k < 14; k++) {
		char body[256];
		snprintf(body, sizeof body, "\tsetp.%s.f32 %%p1, %%f1, %%f2;\n\tselp.u64 %%rd7, 1, 0, %%p1;", c[k]);
		run_body(body, in, in2, out, NF);
		for (size_t i = 0; i < NF; i++) {
			float x = fvals[i], y = bitsf((uint32_t)in2[i]);
			bool u = isunordered(x, y), w;
			switch (k) {
			case 0: w = x == y; break;
			case 1: w = !u && x != y; break;
			case 2: w = x < y; break;
			case 3: w = x <= y; break;
			case 4: w = x > y; break;
			case 5: w = x >= y; break;
			case 6: w = u || x == y; break;
			case 7: w = u || x != y; break;
			case 8: w = u || x < y; break;
			case 9: w = u || x <= y; break;
			case 10: w = u || x > y; break;
			case 11: w = u || x >= y; break;
			case 12: w = !u; break;
			default: w = u; break;
			}
			cr_assert_eq(out[i], (uint64_t)w, "setp.%s.f32 %a, %a", c[k], (double)x, (double)y);
		}
	}
	/* unsigned and combined comparisons */
	uint64_t a[4] = {1, (uint64_t)-1, 5, 0}, b[4] = {(uint64_t)-1, 1, 5, 0};
	run_body("\tsetp.lo.u32 %p1, %r1, %r3;\n\tsetp.lt.s32 %p2, %r1, %r3;\n"
		 "\tsetp.eq.and.u64 %p3|%p1, %rd6, %rd8, %p2;\n\tselp.u64 %rd7, 2, 0, %p3;\n"
		 "\tselp.u64 %rd9, 1, 0, %p1;\n\tor.b64 %rd7, %rd7, %rd9;", a, b, out, 4);
	for (int i = 0; i < 4; i++) {
		bool lt = (int32_t)a[i] < (int32_t)b[i], eq = a[i] == b[i];
		cr_assert_eq(out[i], (uint64_t)((eq && lt) << 1 | (!eq && lt)), "setp.and %d", i);
	}
}

static float flush(float f)
{
	return fpclassify(f) == FP_SUBNORMAL ? copysignf(0.0f, f) : f;
}

Test(ops, ftz_sat_testp_minmax)
{
	uint64_t in[NF], in2[NF], out[NF];
	fin(in, in2);
	run_body("\tadd.ftz.f32 %f3, %f1, %f2;\n\tmov.b32 %r5, %f3;\n\tcvt.u64.u32 %rd7, %r5;", in, in2, out, NF);
	for (size_t i = 0; i < NF; i++) {
		float w = flush(flush(fvals[i]) + flush(bitsf((uint32_t)in2[i])));
		if (isnan(w))
			cr_assert_eq((uint32_t)out[i], 0x7fffffffu);
		else
			assert_f32(bitsf((uint32_t)out[i]), w, "add.ftz %zu", i);
	}
	run_body("\tmul.sat.f32 %f3, %f1, %f2;\n\tmov.b32 %r5, %f3;\n\tcvt.u64.u32 %rd7, %r5;", in, in2, out, NF);
	for (size_t i = 0; i < NF; i++) {
		float w = fvals[i] * bitsf((uint32_t)in2[i]);
		w = isnan(w) || w <= 0 ? 0.0f : w > 1 ? 1.0f : w;
		assert_f32(bitsf((uint32_t)out[i]), w, "mul.sat %zu", i);
	}
	run_body("\ttestp.subnormal.f32 %p1, %f1;\n\ttestp.normal.f32 %p2, %f1;\n\ttestp.infinite.f32 %p3, %f1;\n"
		 "\tselp.u64 %rd7, 1, 0, %p1;\n\tselp.u64 %rd9, 2, 0, %p2;\n\tor.b64 %rd7, %rd7, %rd9;\n"
		 "\tselp.u64 %rd9, 4, 0, %p3;\n\tor.b64 %rd7, %rd7, %rd9;", in, NULL, out, NF);
	for (size_t i = 0; i < NF; i++) {
		int c = fpclassify(fvals[i]);
		cr_assert_eq(out[i], (uint64_t)((c == FP_SUBNORMAL) | (c == FP_NORMAL) << 1 | (c == FP_INFINITE) << 2), "testp %zu", i);
	}
	run_body("\tmin.f32 %f3, %f1, %f2;\n\tmax.f32 %f4, %f1, %f2;\n\tmov.b64 %rd7, {%f3, %f4};", in, in2, out, NF);
	for (size_t i = 0; i < NF; i++) {
		float x = fvals[i], y = bitsf((uint32_t)in2[i]);
		float lo = isnan(x) ? y : isnan(y) ? x : (x == y && x == 0) ? (signbit(x) ? x : y) : fminf(x, y);
		float hi = isnan(x) ? y : isnan(y) ? x : (x == y && x == 0) ? (signbit(x) ? y : x) : fmaxf(x, y);
		uint32_t wl = isnan(lo) ? 0x7fffffffu : fbits(lo), wh = isnan(hi) ? 0x7fffffffu : fbits(hi);
		cr_assert_eq((uint32_t)out[i], wl, "min %a %a", (double)x, (double)y);
		cr_assert_eq((uint32_t)(out[i] >> 32), wh, "max %a %a", (double)x, (double)y);
	}
}

Test(ops, fma_is_fused_and_directed_ops)
{
	uint64_t in[NF], in2[NF], out[NF];
	fin(in, in2);
	run_body("\tfma.rn.f32 %f3, %f1, %f2, %f1;\n\tmov.b32 %r5, %f3;\n\tcvt.u64.u32 %rd7, %r5;", in, in2, out, NF);
	for (size_t i = 0; i < NF; i++) {
		float w = fmaf(fvals[i], bitsf((uint32_t)in2[i]), fvals[i]);
		cr_assert_eq((uint32_t)out[i], isnan(w) ? 0x7fffffffu : fbits(w), "fma %zu", i);
	}
	for (int k = 1; k < 4; k++) {
		char body[256];
		snprintf(body, sizeof body, "\tsqrt.%s.f32 %%f3, %%f1;\n\tmul.%s.f32 %%f4, %%f1, %%f2;\n\tmov.b64 %%rd7, {%%f3, %%f4};",
			 rmodes[k], rmodes[k]);
		run_body(body, in, in2, out, NF);
		for (size_t i = 0; i < NF; i++) {
			fesetround(modes[k]);
			volatile float x = fvals[i], y = bitsf((uint32_t)in2[i]);
			volatile float s = sqrtf(x), p = x * y;
			fesetround(FE_TONEAREST);
			cr_assert_eq((uint32_t)out[i], isnan(s) ? 0x7fffffffu : fbits(s), "sqrt.%s %a", rmodes[k], (double)x);
			cr_assert_eq((uint32_t)(out[i] >> 32), isnan(p) ? 0x7fffffffu : fbits(p), "mul.%s", rmodes[k]);
		}
	}
}

Test(ops, bit_fields_shifts_division_by_zero)
{
	uint64_t a[6] = {0xdeadbeef, 0x80000000, 0x12345678, 7, (uint64_t)-7, 0};
	uint64_t b[6] = {0, 3, 0xffffffff, 0, 2, 0};
	uint64_t out[6];
	run_body("\tbfe.s32 %r5, %r1, 4, 12;\n\tbfe.u32 %r6, %r1, 28, 8;\n\tmov.b64 %rd7, {%r5, %r6};", a, b, out, 6);
	for (int i = 0; i < 6; i++) {
		uint32_t x = (uint32_t)a[i];
		int32_t s = (int32_t)(x << 16) >> 20;
		cr_assert_eq((uint32_t)out[i], (uint32_t)s, "bfe.s32 %d", i);
		cr_assert_eq((uint32_t)(out[i] >> 32), x >> 28, "bfe.u32 %d", i);
	}
	run_body("\tbfi.b32 %r5, %r3, %r1, 8, 4;\n\tshf.r.wrap.b32 %r6, %r1, %r3, 36;\n\tmov.b64 %rd7, {%r5, %r6};", a, b, out, 6);
	for (int i = 0; i < 6; i++) {
		uint32_t x = (uint32_t)a[i], y = (uint32_t)b[i];
		cr_assert_eq((uint32_t)out[i], (x & ~0xf00u) | ((y & 15) << 8), "bfi %d", i);
		cr_assert_eq((uint32_t)(out[i] >> 32), (uint32_t)((((uint64_t)y << 32) | x) >> 4), "shf.r %d", i);
	}
	run_body("\tshf.l.clamp.b32 %r5, %r1, %r3, 40;\n\tshr.s32 %r6, %r1, 40;\n\tmov.b64 %rd7, {%r5, %r6};", a, b, out, 6);
	for (int i = 0; i < 6; i++) {
		cr_assert_eq((uint32_t)out[i], (uint32_t)a[i], "shf.l.clamp %d", i);
		cr_assert_eq((uint32_t)(out[i] >> 32), (int32_t)a[i] < 0 ? 0xffffffffu : 0, "shr.s32 by 40 %d", i);
	}
	run_body("\tdiv.s32 %r5, %r1, %r3;\n\trem.u32 %r6, %r1, %r3;\n\tmov.b64 %rd7, {%r5, %r6};", a, b, out, 6);
	for (int i = 0; i < 6; i++) {
		int32_t x = (int32_t)a[i], y = (int32_t)b[i];
		uint32_t q = y == 0 ? 0xffffffffu : (y == -1 ? (uint32_t)0 - (uint32_t)x : (uint32_t)(x / y));
		uint32_t r = y == 0 ? (uint32_t)x : (uint32_t)x % (uint32_t)y;
		cr_assert_eq((uint32_t)out[i], q, "div.s32 %d", i);
		cr_assert_eq((uint32_t)(out[i] >> 32), r, "rem.u32 %d", i);
	}
	run_body("\tpopc.b64 %r5, %rd6;\n\tclz.b64 %r6, %rd8;\n\tmov.b64 %rd7, {%r5, %r6};\n"
		 "\tbrev.b64 %rd9, %rd6;\n\tmul.hi.u64 %rd10, %rd9, %rd6;\n\txor.b64 %rd7, %rd7, %rd10;", a, b, out, 6);
	for (int i = 0; i < 6; i++) {
		uint64_t rv = 0;
		for (int j = 0; j < 64; j++)
			rv |= ((a[i] >> j) & 1) << (63 - j);
		uint64_t hi = (uint64_t)(((unsigned __int128)rv * a[i]) >> 64);
		uint64_t w = ((uint64_t)__builtin_popcountll(a[i]) | (uint64_t)(b[i] ? __builtin_clzll(b[i]) : 64) << 32) ^ hi;
		cr_assert_eq(out[i], w, "popc/clz/brev/mul.hi %d", i);
	}
	run_body("\tmad.wide.s32 %rd7, %r1, %r3, %rd8;\n\tsub.sat.s32 %r5, %r1, %r3;\n\tcvt.s64.s32 %rd9, %r5;\n"
		 "\txor.b64 %rd7, %rd7, %rd9;", a, b, out, 6);
	for (int i = 0; i < 6; i++) {
		int64_t s = (int64_t)(int32_t)a[i] - (int32_t)b[i];
		s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
		uint64_t w = ((uint64_t)((int64_t)(int32_t)a[i] * (int32_t)b[i]) + b[i]) ^ (uint64_t)s;
		cr_assert_eq(out[i], w, "mad.wide/sub.sat %d", i);
	}
}

Test(ops, f16_round_trip)
{
	uint64_t in[NF], in2[NF], out[NF];
	fin(in, in2);
	run_body("\tcvt.rn.f16.f32 %h1, %f1;\n\tcvt.f32.f16 %f3, %h1;\n\tmov.b32 %r5, %f3;\n\tcvt.u64.u32 %rd7, %r5;",
		 in, NULL, out, NF);
	for (size_t i = 0; i < NF; i++) {
		float w = (float)(_Float16)fvals[i];
		if (isnan(w))
			cr_assert(isnan(bitsf((uint32_t)out[i])));
		else
			assert_f32(bitsf((uint32_t)out[i]), w, "f16 of %a", (double)fvals[i]);
	}
}

/* ---- errors ---- */

#define HEAD ".version 7.0\n.target sm_52\n.address_size 64\n"
#define KHEAD HEAD ".visible .entry k(.param .u64 p)\n{\n\t.reg .pred %p<3>;\n\t.reg .b32 %r<9>;\n\t.reg .b64 %rd<9>;\n"

static void refused(const char *text, const char *want)
{
	diag d;
	ptx_module *m = read_text(text, &d);
	cr_assert_null(m, "accepted, wanted %s", want);
	cr_expect(strstr(d.msg, want), "got '%s', wanted '%s'", d.msg, want);
}

Test(errors, refusals_are_located)
{
	refused(KHEAD "\ttex.1d.v4.f32.s32 {%r1, %r2, %r3, %r4}, [tex, {%r5}];\n}\n",
		"t.ptx:9:2: error: 'tex.1d.v4.f32.s32' is not in infsim's PTX subset (doc/PTX.md)");
	refused(KHEAD "\tadd.cc.u32 %r1, %r2, %r3;\n}\n",
		"t.ptx:9:2: error: 'add.cc.u32' is not in infsim's PTX subset (doc/PTX.md)");
	refused(KHEAD "\tmul24.lo.s32 %r1, %r2, %r3;\n}\n", "t.ptx:9:2: error: 'mul24.lo.s32' is not in infsim's PTX subset");
	refused(KHEAD "\tsin.approx.f64 %rd1, %rd2;\n}\n", "t.ptx:9:2: error: 'sin.approx.f64' is not in infsim's PTX subset");
	refused(KHEAD "\t.pragma \"nounroll\";\n}\n", "t.ptx:9:2: error: '.pragma' is not in infsim's PTX subset");
	refused(HEAD ".visible .func f()\n{\n\tret;\n}\n.visible .entry k()\n{\n\tcall.uni f, ();\n\tret;\n}\n",
		"t.ptx:10:11: error: expected '(', found 'f'");
	refused(HEAD ".func (.param .b32 r) f(.param .b32 a)\n{\n\tret;\n}\n.visible .entry k()\n{\n"
		"\t{\n\t.param .b32 a0;\n\t.param .b32 r0;\n\tcall.uni (r0), f, (a0);\n\t}\n\tret;\n}\n",
		"t.ptx:13:17: error: a call of 'f' is not in infsim's PTX subset (doc/PTX.md)");
	refused(HEAD ".visible .entry k()\n{\n\tbar.sync 1;\n\tret;\n}\n", "t.ptx:6:2: error: 'bar.sync N' is not in infsim's PTX subset");
	refused(".version 9.9\n", "t.ptx:1:10: error: '.version 9.9' is not in infsim's PTX subset");
	refused(".version 7.0\n.target sm_10\n", "t.ptx:2:9: error: 'sm_10' is not in infsim's PTX subset");
	refused(HEAD ".global .texref t;\n", "t.ptx:4:9: error: '.texref' is not in infsim's PTX subset");
}

Test(errors, syntax_is_located)
{
	refused(KHEAD "\tadd.s32 %r1, %r2 %r3;\n}\n", "t.ptx:9:19: error: expected ';', found '%r3'");
	refused(KHEAD "\tadd.s32 %r1, %r2, %q3;\n}\n", "t.ptx:9:20: error: '%q3' is not a declared register");
	refused(KHEAD "\tadd.s32 %r9, %r2, %r3;\n}\n", "t.ptx:9:10: error: '%r9' is not a declared register");
	refused(KHEAD "\tadd.f32 %r1, %r2, 1;\n}\n", "t.ptx:9:2: error: operand 3 of this instruction must be a register or a 0fXXXXXXXX immediate");
	refused(KHEAD "\tbra L9;\n}\n", "t.ptx:9:6: error: 'L9' is not a label of this kernel");
	refused(KHEAD "\tld.global.u32 %r1, [%r2];\n}\n", "t.ptx:9:2: error: operand 2 of this instruction must be an address in a 64-bit register");
	refused(KHEAD "\tadd.s32 %r1, %r2, 0fzz;\n}\n", "t.ptx:9:20: error: a float immediate is 0f and 8 hex digits");
	refused(KHEAD "\t/* never closed\n", "t.ptx:9:2: error: unterminated /* comment");
	refused(KHEAD "\tmov.u32 %r1, 1;\n", "error: expected '}' closing the kernel, found the end of the text");
	refused(KHEAD "\t.reg .b32 %big<5000>;\n}\n", "t.ptx:9:12: error: more than 4096 registers in a kernel");
	refused(HEAD ".global .align 4 .b8 g[4] = {1, 2, 3, 4, 5};\n", "t.ptx:4:42: error: more initialisers than 'g' has elements");
	refused(KHEAD "\tst.param.u64 [p], %rd1;\n}\n", "t.ptx:9:2: error: a kernel parameter is only read (ld.param)");
}

Test(errors, text_cut_anywhere_is_refused_or_read)
{
	/* every prefix of a real file: never a read past len (the sanitizers
	 * watch the exact-size copy), always a message when refused */
	char path[512];
	snprintf(path, sizeof path, "%s/tests/data/ptx/misc.ptx", SRCDIR);
	char *text;
	size_t len;
	diag d;
	cr_assert_eq(text_read_file(path, 1 << 24, &text, &len, &d), 0);
	for (size_t n = 0; n < len; n += 7) {
		char *copy = malloc(n ? n : 1);
		memcpy(copy, text, n);
		ptx_module *m = NULL;
		diag_clear(&d);
		if (ptx_read("cut.ptx", copy, n, &m, &d) < 0)
			cr_assert(d.set && strstr(d.msg, "cut.ptx:"), "%zu: %s", n, d.msg);
		ptx_module_free(m);
		free(copy);
	}
	free(text);
}

static void run_error(const char *text, uint32_t block, uint64_t max_steps, const char *want, int line)
{
	diag d;
	ptx_module *m = read_text(text, &d);
	cr_assert(m, "%s", d.msg);
	dev v;
	dev_init(&v);
	void *h;
	uint64_t arr = dev_alloc(&v, 64, &h);
	uint64_t args[] = {arr};
	v.mem.size = 64;
	ptx_where w = {0};
	cr_assert_eq(launch(m, "k", 1, block, &v, args, 1, max_steps, &w, &d), -1, "ran, wanted %s", want);
	cr_assert(strstr(d.msg, want), "got '%s', wanted '%s'", d.msg, want);
	cr_assert_eq(w.line, line, "line %d, not %d: %s", w.line, line, d.msg);
	free(v.bytes);
	ptx_module_free(m);
}

#define RHEAD KHEAD "\tld.param.u64 %rd1, [p];\n\tmov.u32 %r1, %tid.x;\n"

Test(errors, run_time_errors_are_located)
{
	/* lines: 9 ld.param, 10 mov, 11 on */
	run_error(RHEAD "\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n\tld.global.u32 %r2, [%rd3+60];\n\tret;\n}\n",
		  4, 0, "t.ptx:13:2: error: thread (1,0,0) of CTA (0,0,0): global access of 4 bytes at 0x10040 is outside global memory", 13);
	run_error(RHEAD "\tst.global.u32 [%rd1+2], %r1;\n\tret;\n}\n",
		  2, 0, "t.ptx:11:2: error: thread (0,0,0) of CTA (0,0,0): global access of 4 bytes at 0x10002 is misaligned", 11);
	run_error(RHEAD "\tsetp.eq.u32 %p1, %r1, 3;\n\t@%p1 bra DONE;\n\tbar.sync 0;\nDONE:\n\tret;\n}\n",
		  8, 0, "t.ptx:13:2: error: thread (0,0,0) of CTA (0,0,0): bar.sync is not reached by every thread of the CTA: thread (3,0,0) has exited", 13);
	run_error(RHEAD "\tsetp.eq.u32 %p1, %r1, 3;\n\t@%p1 bra B;\n\tbar.sync 0;\n\tret;\nB:\n\tbar.sync 0;\n\tret;\n}\n",
		  8, 0, "t.ptx:16:2: error: thread (3,0,0) of CTA (0,0,0): this thread waits here (line 16) while thread (0,0,0) waits at the bar.sync of line 13", 16);
	run_error(RHEAD "L:\n\tadd.s32 %r2, %r2, 1;\n\tbra L;\n}\n",
		  2, 1000, "error: thread (0,0,0) of CTA (0,0,0): the launch ran 1000 instructions, the step bound", 12);
	run_error(RHEAD "\tshl.b32 %r2, %r1, 2;\n\tcvt.u64.u32 %rd2, %r2;\n\tadd.s64 %rd2, %rd2, 0xF2000000;\n"
		  "\tld.shared.u32 %r3, [%rd2];\n\tret;\n}\n",
		  2, 0, "t.ptx:14:2: error: thread (0,0,0) of CTA (0,0,0): shared access of 4 bytes at 0xf2000000 is outside shared space", 14);
	run_error(RHEAD "\tshfl.sync.down.b32 %r2, %r1, 20, 31, -1;\n\tret;\n}\n",
		  8, 0, "shfl.sync reads lane 20, which is not an active member of the warp", 11);
}

Test(errors, launch_checks)
{
	ptx_module *m = load("saxpy.ptx");
	dev v;
	dev_init(&v);
	uint64_t args[] = {1, 2, 3, 4};
	diag d;
	cr_assert_eq(launch(m, "saxpy", 1, 32, &v, args, 3, 0, NULL, &d), -1);
	cr_assert(strstr(d.msg, "takes 4 arguments, the launch gives 3"), "%s", d.msg);
	cr_assert_eq(launch(m, "saxpy", 1, 2048, &v, args, 4, 0, NULL, &d), -1);
	cr_assert(strstr(d.msg, "1 to 1024 threads"), "%s", d.msg);
	v.mem.base = 0xEFFFFFF0u;
	cr_assert_eq(launch(m, "saxpy", 1, 32, &v, args, 4, 0, NULL, &d), -1);
	cr_assert(strstr(d.msg, "where the reference places its other spaces"), "%s", d.msg);
	free(v.bytes);
	ptx_module_free(m);
}

/* ---- f16 arithmetic on the reference (ptx_alu_half) against the host's
 * binary16 (tests/fp_host.c: AVX512-FP16 or the exact double path) ---- */
#include "fp_host.h"
#include "ptx_int.h"

static uint64_t half_ref(unsigned op, unsigned flags, uint64_t a, uint64_t b, uint64_t c)
{
	ptx_ins in;
	memset(&in, 0, sizeof in);
	in.op = (uint16_t)op;
	in.type = PT_F16;
	in.mod = op == PO_FMA ? PR_RN : PR_NONE;
	in.flags = (uint8_t)flags;
	return ptx_alu_float(&in, a, b, c);
}

static bool half_nan(uint64_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff); }

Test(ptx_half, unary_exhaustive)
{
	for (uint64_t a = 0; a < 65536; a++) {
		cr_assert_eq(half_ref(PO_NEG, 0, a, 0, 0), a ^ 0x8000, "neg 0x%llx", (unsigned long long)a);
		cr_assert_eq(half_ref(PO_ABS, 0, a, 0, 0), a & 0x7fff, "abs 0x%llx", (unsigned long long)a);
		uint64_t fl = (a & 0x7c00) ? a : a & 0x8000;
		cr_assert_eq(half_ref(PO_NEG, PF_FTZ, a, 0, 0), fl ^ 0x8000, "neg.ftz 0x%llx", (unsigned long long)a);
	}
}

Test(ptx_half, binary_random)
{
	static const unsigned ops[] = { PO_ADD, PO_SUB, PO_MUL, PO_FMA };
	static const unsigned hops[] = { ISA_FADD, ISA_FSUB, ISA_FMUL, ISA_FMA };
	uint64_t x = 0x9e3779b97f4a7c15u;
	for (unsigned i = 0; i < 400000; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		uint64_t a = x & 0xffff, b = (x >> 16) & 0xffff, c = (x >> 32) & 0xffff;
		unsigned k = i % 4;
		uint64_t r = half_ref(ops[k], 0, a, b, c);
		uint64_t h = fp_host_op(hops[k], ISA_FMT_F16, ISA_FL_IEEE, a, b, c);
		if (half_nan(h))
			cr_assert_eq(r, 0x7fff, "op %u 0x%llx 0x%llx 0x%llx: 0x%llx, not PTX's NaN", k,
				     (unsigned long long)a, (unsigned long long)b, (unsigned long long)c,
				     (unsigned long long)r);
		else
			cr_assert_eq(r, h, "op %u 0x%llx 0x%llx 0x%llx: 0x%llx, the host 0x%llx", k,
				     (unsigned long long)a, (unsigned long long)b, (unsigned long long)c,
				     (unsigned long long)r, (unsigned long long)h);
	}
}

static uint64_t hflush(uint64_t h) { return (h & 0x7c00) ? h : h & 0x8000; }

/* The host's answer for an f16 op with PTX's modifiers: flushed inputs
 * (.ftz), the host's IEEE binary16 op, PTX's NaN, the result flushed,
 * then .sat's clamp. */
static uint64_t half_host(unsigned hop, unsigned flags, uint64_t a, uint64_t b, uint64_t c)
{
	if (flags & PF_FTZ)
		a = hflush(a), b = hflush(b), c = hflush(c);
	uint64_t h = fp_host_op(hop, ISA_FMT_F16, ISA_FL_IEEE, a, b, c);
	if (half_nan(h))
		h = 0x7fff;
	if (flags & PF_FTZ)
		h = hflush(h);
	if (flags & PF_SAT) {
		double v = fp_host_value(ISA_FMT_F16, ISA_FL_IEEE, h);
		h = isnan(v) || v <= 0 ? 0 : v > 1 ? 0x3c00 : h;
	}
	return h;
}

Test(ptx_half, unary_exhaustive_ftz)
{
	for (uint64_t a = 0; a < 65536; a++) {
		uint64_t f = hflush(a);
		cr_assert_eq(half_ref(PO_ABS, PF_FTZ, a, 0, 0), f & 0x7fff, "abs.ftz 0x%llx", (unsigned long long)a);
		/* min/max of a value with itself is itself (a NaN: PTX's NaN) */
		uint64_t w = half_nan(a) ? 0x7fff : a;
		cr_assert_eq(half_ref(PO_MIN, 0, a, a, 0), w, "min 0x%llx", (unsigned long long)a);
		cr_assert_eq(half_ref(PO_MAX, PF_FTZ, a, a, 0), half_nan(a) ? 0x7fff : f, "max.ftz 0x%llx",
			     (unsigned long long)a);
		/* a + -0 is a exactly, a * 1 too: every value through the rounding */
		cr_assert_eq(half_ref(PO_ADD, 0, a, 0x8000, 0), w, "add 0x%llx, -0", (unsigned long long)a);
		cr_assert_eq(half_ref(PO_MUL, PF_FTZ, a, 0x3c00, 0), half_nan(a) ? 0x7fff : f, "mul.ftz 0x%llx, 1",
			     (unsigned long long)a);
	}
}

Test(ptx_half, modifiers_minmax_setp_random)
{
	static const unsigned ops[] = { PO_ADD, PO_SUB, PO_MUL, PO_FMA };
	static const unsigned hops[] = { ISA_FADD, ISA_FSUB, ISA_FMUL, ISA_FMA };
	static const unsigned fl[] = { PF_FTZ, PF_SAT, PF_FTZ | PF_SAT };
	uint64_t x = 0x2545f4914f6cdd1du;
	for (unsigned i = 0; i < 300000; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		uint64_t a = x & 0xffff, b = (x >> 16) & 0xffff, c = (x >> 32) & 0xffff;
		if (i & 1) /* subnormals and values near the smallest normal */
			a &= 0x87ff, b &= 0x87ff;
		unsigned k = i % 4, f = fl[i % 3];
		uint64_t r = half_ref(ops[k], f, a, b, c), h = half_host(hops[k], f, a, b, c);
		cr_assert_eq(r, h, "op %u flags %u 0x%llx 0x%llx 0x%llx: 0x%llx, the host 0x%llx", k, f,
			     (unsigned long long)a, (unsigned long long)b, (unsigned long long)c,
			     (unsigned long long)r, (unsigned long long)h);
		/* min/max: the other for one NaN, PTX's NaN for two, -0 < +0 */
		bool ftz = i & 2;
		uint64_t fa = ftz ? hflush(a) : a, fb = ftz ? hflush(b) : b;
		double u = fp_host_value(ISA_FMT_F16, ISA_FL_IEEE, fa), v = fp_host_value(ISA_FMT_F16, ISA_FL_IEEE, fb);
		uint64_t lo, hi;
		if (isnan(u) && isnan(v))
			lo = hi = 0x7fff;
		else if (isnan(u) || isnan(v))
			lo = hi = isnan(u) ? fb : fa;
		else if (u == v && u == 0)
			lo = (fa & 0x8000) ? fa : fb, hi = (fa & 0x8000) ? fb : fa;
		else
			lo = u < v ? fa : fb, hi = u < v ? fb : fa;
		cr_assert_eq(half_ref(PO_MIN, ftz ? PF_FTZ : 0, a, b, 0), lo, "min 0x%llx 0x%llx", (unsigned long long)a,
			     (unsigned long long)b);
		cr_assert_eq(half_ref(PO_MAX, ftz ? PF_FTZ : 0, a, b, 0), hi, "max 0x%llx 0x%llx", (unsigned long long)a,
			     (unsigned long long)b);
		/* setp.f16: the host's compare of the (flushed) values */
		ptx_ins in;
		memset(&in, 0, sizeof in);
		in.op = PO_SETP;
		in.type = PT_F16;
		in.flags = ftz ? PF_FTZ : 0;
		in.mod = (uint8_t)(i % 2 ? PC_LTU : PC_GE);
		bool un = isnan(u) || isnan(v), want = i % 2 ? un || u < v : !un && u >= v;
		cr_assert_eq(ptx_alu_setp(&in, a, b), want, "setp 0x%llx 0x%llx", (unsigned long long)a,
			     (unsigned long long)b);
	}
}

/* The reader takes f16x2 in text: each half against the host. */
Test(ptx_half, f16x2_in_text)
{
	enum { N = 1024 };
	uint64_t in[N], in2[N], out[N];
	uint64_t x = 0x9e3779b97f4a7c15u;
	for (size_t i = 0; i < N; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		in[i] = x & 0xffffffffu, in2[i] = x >> 32;
	}
	run_body("\tfma.rn.ftz.f16x2 %r5, %r1, %r3, %r1;\n\tmov.b32 {%h1, %h2}, %r5;\n"
		 "\tsub.sat.f16 %h3, %h1, %h2;\n\tmov.b32 %r6, {%h3, %h2};\n\tcvt.u64.u32 %rd7, %r6;", in, in2, out, N);
	for (size_t i = 0; i < N; i++) {
		uint64_t lo = half_host(ISA_FMA, PF_FTZ, in[i] & 0xffff, in2[i] & 0xffff, in[i] & 0xffff);
		uint64_t hi = half_host(ISA_FMA, PF_FTZ, in[i] >> 16, in2[i] >> 16, in[i] >> 16);
		uint64_t d = half_host(ISA_FSUB, PF_SAT, lo, hi, 0);
		cr_assert_eq(out[i], d | hi << 16, "0x%llx 0x%llx: 0x%llx", (unsigned long long)in[i],
			     (unsigned long long)in2[i], (unsigned long long)out[i]);
	}
}

Test(ptx_half, refused_forms)
{
	refused(KHEAD "\t.reg .b16 %h<3>;\n\tdiv.rn.f16 %h1, %h2, %h2;\n}\n", "t.ptx:10:2: error: 'div.rn.f16' is not in");
	refused(KHEAD "\t.reg .b16 %h<3>;\n\tfma.f16 %h1, %h2, %h2, %h2;\n}\n", "t.ptx:10:2: error: 'fma.f16' is not in");
	refused(KHEAD "\t.reg .b16 %h<3>;\n\tadd.rz.f16 %h1, %h2, %h2;\n}\n", "t.ptx:10:2: error: 'add.rz.f16' is not in");
	refused(KHEAD "\tsetp.lt.f16x2 %p1|%p2, %r1, %r2;\n}\n", "t.ptx:9:2: error: 'setp.lt.f16x2' is not in");
	refused(KHEAD "\tsqrt.approx.f16x2 %r1, %r2;\n}\n", "t.ptx:9:2: error: 'sqrt.approx.f16x2' is not in");
}

/* div.approx, div.full, rcp.approx and sqrt (.rn, .approx) with .ftz:
 * the host's IEEE operations on the flushed inputs, the result flushed. */
Test(ops, div_rcp_sqrt_approx_full_ftz)
{
	uint64_t in[NF], in2[NF], out[NF];
	fin(in, in2);
	static const char *const body[] = {
		"\tdiv.approx.ftz.f32 %f3, %f1, %f2;", "\tdiv.full.ftz.f32 %f3, %f1, %f2;",
		"\trcp.approx.ftz.f32 %f3, %f2;", "\tsqrt.approx.ftz.f32 %f3, %f1;", "\tsqrt.rn.f32 %f3, %f1;",
		"\tdiv.approx.f32 %f3, %f1, %f2;",
	};
	for (int k = 0; k < 6; k++) {
		char b[256];
		snprintf(b, sizeof b, "%s\n\tmov.b32 %%r5, %%f3;\n\tcvt.u64.u32 %%rd7, %%r5;", body[k]);
		run_body(b, in, in2, out, NF);
		for (size_t i = 0; i < NF; i++) {
			volatile float x = fvals[i], y = bitsf((uint32_t)in2[i]), w;
			if (k != 4 && k != 5)
				x = flush(x), y = flush(y);
			switch (k) {
			case 0: { volatile float q = flush(1.0f / y); w = x * q; break; }
			case 1: w = x / y; break;
			case 2: w = 1.0f / y; break;
			case 5: { volatile float q = 1.0f / y; w = x * q; break; }
			default: w = sqrtf(x); break;
			}
			if (k != 4 && k != 5)
				w = flush(w);
			cr_assert_eq((uint32_t)out[i], isnan(w) ? 0x7fffffffu : fbits(w), "%s %a %a", body[k],
				     (double)fvals[i], (double)bitsf((uint32_t)in2[i]));
		}
	}
}
