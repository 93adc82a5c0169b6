/* SPDX-License-Identifier: MIT */
/*
 * memory.c: the flat memory of an .ar program.  Arrays sit at 4 KiB
 * boundaries in declaration order from address 0; elements are stored
 * little-endian.  init= specs fill them (doc "Arrays").
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ar_private.h"

/* splitmix64 (Steele, Lea, Flood 2014): the documented generator of
 * init=random and init=perm, so that a reference can reproduce them. */
uint64_t ar_splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

int ar_mem_find(const ar_program *p, uint64_t addr)
{
	size_t lo = 0, hi = p->narrays;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const ar_array *a = &p->arrays[mid];
		if (addr < a->base)
			hi = mid;
		else if (addr >= a->base + a->len * a->esize)
			lo = mid + 1;
		else
			return (int)mid;
	}
	return -1;
}

uint64_t ar_mem_read(const ar_program *p, uint64_t addr, unsigned esize)
{
	int i = ar_mem_find(p, addr);
	if (i < 0)
		return 0;
	const unsigned char *b = p->arrays[i].data + (addr - p->arrays[i].base);
	uint64_t v = 0;
	for (unsigned k = 0; k < esize; k++)
		v |= (uint64_t)b[k] << (8 * k);
	return v;
}

void ar_mem_write(ar_program *p, uint64_t addr, unsigned esize, uint64_t bits,
		  const ar_stmt *by, bool commit)
{
	int i = ar_mem_find(p, addr);
	if (i < 0)
		return;
	unsigned char *b = p->arrays[i].data + (addr - p->arrays[i].base);
	for (unsigned k = 0; k < esize; k++)
		b[k] = (unsigned char)(bits >> (8 * k));
	if (p->on_store)
		p->on_store(p->store_ctx, addr, by, commit);
}

static void put(ar_array *a, uint64_t k, uint64_t bits)
{
	for (unsigned j = 0; j < a->esize; j++)
		a->data[k * a->esize + j] = (unsigned char)(bits >> (8 * j));
}

static uint64_t get(const ar_array *a, uint64_t k)
{
	uint64_t v = 0;
	for (unsigned j = 0; j < a->esize; j++)
		v |= (uint64_t)a->data[k * a->esize + j] << (8 * j);
	return v;
}

/* A number field of a spec: an integer, or (f32 const) a float. */
static int spec_num(const char *s, size_t len, bool want_float, double *f, int64_t *i,
		    const char **err)
{
	char buf[64];
	if (len == 0 || len >= sizeof buf) {
		*err = len ? "number too long" : "expected a number";
		return -1;
	}
	memcpy(buf, s, len);
	buf[len] = 0;
	char *end;
	errno = 0;
	if (want_float)
		*f = strtod(buf, &end);
	else
		*i = strtoll(buf, &end, 0);
	if (*end || errno) {
		*err = want_float ? "expected a number" : "expected an integer";
		return -1;
	}
	return 0;
}

static uint64_t const_bits(const ar_array *a, double f, int64_t i)
{
	if (a->type == AR_F32) {
		float x = (float)f;
		uint32_t u;
		memcpy(&u, &x, 4);
		return u;
	}
	return a->type == AR_I32 ? (uint32_t)(int32_t)i : (uint64_t)i;
}

/* random: f32 in [0, 1) from the top 24 bits; integers the full width,
 * or lo + x mod (hi - lo) with a range. */
static void fill_random(ar_array *a, uint64_t seed, bool range, int64_t lo, int64_t hi)
{
	uint64_t st = seed;
	for (uint64_t k = 0; k < a->len; k++) {
		uint64_t x = ar_splitmix64(&st);
		if (a->type == AR_F32)
			put(a, k, const_bits(a, (double)(x >> 40) / 16777216.0, 0));
		else if (range)
			put(a, k, const_bits(a, 0, (int64_t)((uint64_t)lo + x % ((uint64_t)hi - (uint64_t)lo))));
		else
			put(a, k, x);
	}
}

/* perm: a Fisher-Yates shuffle of 0..len-1 (j = x mod (k+1), k from
 * len-1 down to 1). */
static void fill_perm(ar_array *a, uint64_t seed)
{
	uint64_t st = seed;
	for (uint64_t k = 0; k < a->len; k++)
		put(a, k, k);
	for (uint64_t k = a->len - 1; k > 0; k--) {
		uint64_t j = ar_splitmix64(&st) % (k + 1);
		uint64_t x = get(a, j), y = get(a, k);
		put(a, j, y);
		put(a, k, x);
	}
}

static int split_fields(const char *s, size_t len, const char *f[4], size_t fl[4], size_t pos[4])
{
	int n = 0;
	size_t start = 0;
	for (size_t i = 0; i <= len; i++)
		if (i == len || s[i] == ':') {
			if (n == 4)
				return -1;
			f[n] = s + start;
			fl[n] = i - start;
			pos[n++] = start;
			start = i + 1;
		}
	return n;
}

static bool word_is(const char *s, size_t n, const char *w)
{
	return strlen(w) == n && !memcmp(s, w, n);
}

int ar_mem_init(ar_array *a, const char *spec, size_t len, const char **err, size_t *errpos)
{
	const char *f[4];
	size_t fl[4], pos[4];
	int n = split_fields(spec, len, f, fl, pos);
	double x = 0;
	int64_t i = 0, lo = 0, hi = 0;
	*errpos = 0;
	*err = "unknown init (expected zero, const:V, iota, random:SEED, random:SEED:LO:HI or perm:SEED)";
	if (n < 1)
		return -1;
	if (word_is(f[0], fl[0], "zero") && n == 1) {
		memset(a->data, 0, a->len * a->esize);
		return 0;
	}
	if (word_is(f[0], fl[0], "iota") && n == 1) {
		for (uint64_t k = 0; k < a->len; k++)
			put(a, k, const_bits(a, (double)k, (int64_t)k));
		return 0;
	}
	if (word_is(f[0], fl[0], "const") && n == 2) {
		*errpos = pos[1];
		if (spec_num(f[1], fl[1], a->type == AR_F32, &x, &i, err))
			return -1;
		uint64_t b = const_bits(a, x, i);
		for (uint64_t k = 0; k < a->len; k++)
			put(a, k, b);
		return 0;
	}
	bool rnd = word_is(f[0], fl[0], "random"), perm = word_is(f[0], fl[0], "perm");
	if (!(rnd && (n == 2 || n == 4)) && !(perm && n == 2))
		return -1;
	*errpos = pos[1];
	if (spec_num(f[1], fl[1], false, &x, &i, err))
		return -1;
	if (perm) {
		if (a->type == AR_F32) {
			*err = "perm fills an integer array, not f32";
			return -1;
		}
		fill_perm(a, (uint64_t)i);
		return 0;
	}
	if (n == 4) {
		*errpos = pos[2];
		if (spec_num(f[2], fl[2], false, &x, &lo, err) ||
		    (*errpos = pos[3], spec_num(f[3], fl[3], false, &x, &hi, err)))
			return -1;
		if (a->type == AR_F32 || hi <= lo || (a->type == AR_I32 && (lo < INT32_MIN || hi - 1 > INT32_MAX))) {
			*err = a->type == AR_F32 ? "a range is for integer arrays"
						 : "expected LO < HI within the element type";
			return -1;
		}
	}
	fill_random(a, (uint64_t)i, n == 4, lo, hi);
	return 0;
}

/* ---- the arrays, for loading and saving (ar.h) ---- */

size_t ar_array_count(const ar_program *p)
{
	return p->narrays;
}

const char *ar_array_name(const ar_program *p, size_t i)
{
	return p->arrays[i].name;
}

int ar_array_find(const ar_program *p, const char *name)
{
	for (size_t i = 0; i < p->narrays; i++)
		if (!strcmp(p->arrays[i].name, name))
			return (int)i;
	return -1;
}

ar_type ar_array_type(const ar_program *p, size_t i)
{
	return p->arrays[i].type;
}

uint64_t ar_array_len(const ar_program *p, size_t i)
{
	return p->arrays[i].len;
}

uint64_t ar_array_base(const ar_program *p, size_t i)
{
	return p->arrays[i].base;
}

uint64_t ar_array_get(const ar_program *p, size_t i, uint64_t k)
{
	return get(&p->arrays[i], k);
}

void ar_array_set(ar_program *p, size_t i, uint64_t k, uint64_t bits)
{
	put(&p->arrays[i], k, bits);
}
