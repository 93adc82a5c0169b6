/* SPDX-License-Identifier: MIT */
/* fp_cases.c: see fp_cases.h. */
#include "fp_cases.h"

#include "isa.h"
#include "isa_harness.h"

/* A format's fields, and a value built from them. */
typedef struct fpc {
	unsigned w, e, m;       /* width, exponent bits, fraction bits */
	uint64_t emax;          /* the all-ones exponent field (inf, NaN) */
	uint64_t frac;          /* fraction mask */
	uint64_t bias;
} fpc;

static fpc fpc_of(unsigned fmt)
{
	const isa_fpfmt *f = isa_fpfmt_of(fmt);
	fpc c = {32, 8, 23, 255, (UINT64_C(1) << 23) - 1, 127};
	if (f) {
		c.w = f->width;
		c.e = f->ebits;
		c.m = f->mbits;
		c.emax = (UINT64_C(1) << f->ebits) - 1;
		c.frac = (UINT64_C(1) << f->mbits) - 1;
		c.bias = f->bias;
	}
	return c;
}

static uint64_t fpc_make(const fpc *c, uint64_t sign, int64_t exp, uint64_t frac)
{
	if (exp < 0)
		exp = 0;
	if (exp > (int64_t)c->emax - 1)
		exp = (int64_t)c->emax - 1;
	return (sign & 1) << (c->w - 1) | (uint64_t)exp << c->m | (frac & c->frac);
}

#define EDGES 18

static uint64_t edge_magnitude(const fpc *c, unsigned k)
{
	const uint64_t one = c->bias << c->m, minn = UINT64_C(1) << c->m;
	const uint64_t maxn = (c->emax - 1) << c->m | c->frac;
	switch (k) {
	case 0: return 0;
	case 1: return 1;                                      /* min subnormal */
	case 2: return c->frac;                                /* max subnormal */
	case 3: return (c->frac & UINT64_C(0x2aaaaaaaaaaa)) | 1; /* a subnormal */
	case 4: return minn;
	case 5: return maxn;
	case 6: return c->emax << c->m;                        /* inf */
	case 7: return c->emax << c->m | UINT64_C(1) << (c->m - 1); /* canonical qNaN */
	case 8: return c->emax << c->m | UINT64_C(1) << (c->m - 1) | 5; /* payload */
	case 9: return c->emax << c->m | 1;                    /* signalling NaN */
	case 10: return one;
	case 11: return one | UINT64_C(1) << (c->m - 1);       /* 1.5 */
	case 12: return one + minn;                            /* 2 */
	case 13: return one + 1;                               /* 1 + ulp */
	case 14: return one - 1;                               /* 1 - ulp/2 */
	case 15: return minn + 1;
	case 16: return minn << 1;                             /* 2 * min normal */
	default: return maxn - 1;
	}
}

unsigned fp_case_edge_count(void) { return 2 * EDGES; }

uint64_t fp_case_edge(unsigned fmt, unsigned index)
{
	const fpc c = fpc_of(fmt);
	index %= 2 * EDGES;
	return (uint64_t)(index >= EDGES) << (c.w - 1) | edge_magnitude(&c, index % EDGES);
}

static uint64_t rnd(uint64_t *s) { return harness_rand(s); }

/* A random integer in [lo, hi]. */
static int64_t rnd_in(uint64_t *s, int64_t lo, int64_t hi)
{
	return lo + (int64_t)(rnd(s) % (uint64_t)(hi - lo + 1));
}

/* b is an odd multiple of half an ulp of a (a tie for a + b while the sum
 * keeps a's exponent). */
static void pair_add_tie(const fpc *c, uint64_t *s, uint64_t *a, uint64_t *b)
{
	int64_t ea = rnd_in(s, (int64_t)c->m + 6, (int64_t)c->emax - 2);
	*a = fpc_make(c, rnd(s), ea, rnd(s));
	unsigned len = (unsigned)rnd_in(s, 1, 4);   /* bits of the odd factor */
	uint64_t odd = (rnd(s) | 1 | UINT64_C(1) << (len - 1)) & ((UINT64_C(1) << len) - 1);
	int64_t eb = ea - (int64_t)c->m - 1 + (int64_t)(len - 1);
	*b = fpc_make(c, rnd(s), eb, odd << (c->m - (len - 1)));
}

/* Significands with one to three bits set: exact products, and the mul
 * ties 1 + 2^-k times 1 + 2^-(m+1-k). */
static void pair_sparse(const fpc *c, uint64_t *s, uint64_t *a, uint64_t *b)
{
	uint64_t fa = 0, fb = 0;
	if (rnd(s) & 1) {
		unsigned k = (unsigned)rnd_in(s, 1, c->m);
		fa = UINT64_C(1) << (c->m - k);
		fb = UINT64_C(1) << (k - 1);
	} else {
		for (int i = (int)rnd_in(s, 1, 3); i > 0; i--) {
			fa |= UINT64_C(1) << (rnd(s) % c->m);
			fb |= UINT64_C(1) << (rnd(s) % c->m);
		}
	}
	int64_t bias = (int64_t)c->bias;
	*a = fpc_make(c, rnd(s), rnd_in(s, bias - 8, bias + 8), fa);
	*b = fpc_make(c, rnd(s), rnd_in(s, bias - 8, bias + 8), fb);
}

/* Exponents that put a product, a quotient or a sum near the largest
 * normal (big) or near the smallest normal (!big). */
static void pair_range(const fpc *c, uint64_t *s, uint64_t *a, uint64_t *b,
		       bool big)
{
	const int64_t bias = (int64_t)c->bias, top = (int64_t)c->emax - 1;
	const int64_t target = big ? top : 1, spread = big ? 2 : (int64_t)c->m + 2;
	int64_t t = target + rnd_in(s, -spread, spread);
	int64_t ea = rnd_in(s, 1, top), eb;
	uint64_t fa = rnd(s), fb = rnd(s);
	switch (rnd(s) % 3) {
	case 0: /* a * b: ea + eb - bias = t */
		eb = t + bias - ea;
		if (!big && (rnd(s) & 1)) { /* significand product just under 2 */
			fa = c->frac - (rnd(s) & 7);
			fb = rnd(s) & 3;
		}
		break;
	case 1: /* a / b: ea - eb + bias = t */
		eb = ea + bias - t;
		break;
	default: /* a + b: both near t */
		ea = t;
		eb = t + rnd_in(s, -1, 1);
		break;
	}
	*a = fpc_make(c, rnd(s), ea, fa);
	*b = fpc_make(c, rnd(s), eb, fb);
}

static void pair_nearby(const fpc *c, uint64_t *s, uint64_t *a, uint64_t *b)
{
	int64_t ea = rnd_in(s, 0, (int64_t)c->emax - 1);
	int64_t d = (int64_t)c->m + 3;
	*a = fpc_make(c, rnd(s), ea, rnd(s));
	*b = fpc_make(c, rnd(s), ea + rnd_in(s, -d, d), rnd(s));
}

/* b is -a (or a) moved by a few ulps: massive cancellation in a + b. */
static void pair_cancel(const fpc *c, uint64_t *s, uint64_t *a, uint64_t *b)
{
	const uint64_t sign = UINT64_C(1) << (c->w - 1);
	uint64_t mag = rnd(s) % (c->emax << c->m);           /* finite */
	int64_t mb = (int64_t)mag + rnd_in(s, -3, 3);
	if (mb < 0 || mb >= (int64_t)(c->emax << c->m))
		mb = (int64_t)mag;
	*a = mag | (rnd(s) & 1 ? sign : 0);
	*b = (uint64_t)mb | (*a & sign);
	if (rnd(s) % 4)
		*b ^= sign;
}

static uint64_t rnd_edge(const fpc *c, uint64_t *s)
{
	uint64_t v = edge_magnitude(c, (unsigned)(rnd(s) % EDGES));
	return v | (rnd(s) & 1) << (c->w - 1);
}

static void pair_of_kind(const fpc *c, unsigned kind, uint64_t *s,
			 uint64_t *a, uint64_t *b)
{
	const uint64_t m = isa_mask(c->w);
	const int64_t bias = (int64_t)c->bias;
	switch (kind) {
	case 0: *a = rnd(s) & m; *b = rnd(s) & m; break;
	case 1: *a = rnd_edge(c, s); *b = rnd(s) & m; break;
	case 2: *a = rnd(s) & m; *b = rnd_edge(c, s); break;
	case 3: *a = rnd_edge(c, s); *b = rnd_edge(c, s); break;
	case 4: pair_nearby(c, s, a, b); break;
	case 5: pair_cancel(c, s, a, b); break;
	case 6: pair_add_tie(c, s, a, b); break;
	case 7: pair_sparse(c, s, a, b); break;
	case 8: pair_range(c, s, a, b, true); break;
	case 9: pair_range(c, s, a, b, false); break;
	default:
		*a = fpc_make(c, rnd(s), rnd_in(s, bias - 2, bias + 2), rnd(s));
		*b = fpc_make(c, rnd(s), rnd_in(s, bias - 2, bias + 2), rnd(s));
		break;
	}
}

void fp_cases(unsigned fmt, uint64_t seed, uint64_t *a, uint64_t *b,
	      size_t count)
{
	const fpc c = fpc_of(fmt);
	uint64_t s = seed * UINT64_C(0x9e3779b97f4a7c15) + fmt;
	for (size_t i = 0; i < count; i++)
		pair_of_kind(&c, (unsigned)(rnd(&s) % 11), &s, &a[i], &b[i]);
}

void fp_cases_int(unsigned width, uint64_t seed, uint64_t *v, size_t count)
{
	uint64_t s = seed * 1000003 + width;
	harness_values(v, count / 2, width, seed);
	for (size_t i = count / 2; i < count; i++) {
		const uint64_t r = rnd(&s);
		const unsigned len = 1 + (unsigned)(r % width), p = 8 + (unsigned)((r >> 8) % 17);
		uint64_t x = UINT64_C(1) << (len - 1);
		if ((r >> 16) & 1)                     /* random bits below */
			x |= rnd(&s) & isa_mask(len - 1);
		else if (len > p + 1)                  /* a tie at p bits, maybe sticky */
			x |= (rnd(&s) & isa_mask(len - 1) & ~isa_mask(len - p))
			     | UINT64_C(1) << (len - p - 1) | ((r >> 17) & 1);
		v[i] = ((r >> 18) & 1 ? 0 - x : x) & isa_mask(width);
	}
}
