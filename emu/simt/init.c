/* SPDX-License-Identifier: MIT */
/*
 * init.c: the initial values of a global (doc/SIMT.md, "Globals"):
 *   zero                 every element 0 (the default)
 *   iota                 element i is i (f32: the float i)
 *   fill V               every element V
 *   rand SEED [MAX]      a fixed pseudo-random sequence: u32/s32 in
 *                        [0, MAX) (MAX default 2^32); f32 k/2^24 * MAX
 *                        for k in [0, 2^24) (MAX default 1)
 *   = V V V ...          the first elements, the rest 0
 * A float value is written as a decimal (strtod, rounded to nearest) or
 * as PTX's 0fXXXXXXXX bits.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "simt_int.h"

static uint32_t f32_bits(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

/* splitmix64: a small generator whose sequence is fixed by its seed. */
static uint64_t next_rand(uint64_t *s)
{
	uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* One value of the element type at the cursor. */
static int value(simt_cur *c, unsigned type, uint32_t *out)
{
	simt_skip(c);
	size_t at = c->pos, n = 0;
	while (at + n < c->len && !text_is_space(c->s[at + n]) && c->s[at + n] != '#')
		n++;
	if (n == 0 || n >= 64)
		return simt_err(c, at, "expected a value");
	char buf[64];
	memcpy(buf, c->s + at, n);
	buf[n] = 0;
	if (type == SIMT_F32 && !(n == 10 && buf[0] == '0' && buf[1] == 'f')) {
		char *end;
		double v = strtod(buf, &end);
		if (*end || !isfinite(v) || fabs(v) > 3.4028234663852886e38)
			return simt_err(c, at, "expected a finite float value or 0fXXXXXXXX bits");
		*out = f32_bits((float)v);
		c->pos += n;
		return 0;
	}
	return simt_imm32(c, out);
}

static int fill_rand(simt_cur *c, const simt_global *g, uint32_t *w)
{
	uint64_t seed, max = 0;
	if (simt_count(c, "seed", 0, UINT64_MAX, &seed) < 0)
		return -1;
	if (!simt_at_end(c) && simt_count(c, "MAX", 1, UINT64_C(0xffffffff), &max) < 0)
		return -1;
	uint64_t s = seed;
	for (uint32_t i = 0; i < g->count; i++) {
		uint64_t r = next_rand(&s);
		if (g->type == SIMT_F32)
			w[i] = f32_bits((float)((double)(r >> 40) / 16777216.0 * (double)(max ? max : 1)));
		else
			w[i] = (uint32_t)(max ? (r >> 32) % max : r >> 32);
	}
	return 0;
}

int simt_global_init(simt_cur *c, const simt_global *g, uint32_t *w)
{
	char kind[16];
	if (simt_at_end(c))
		return 0;
	if (simt_eat(c, '=')) {
		for (uint32_t i = 0; !simt_at_end(c); i++) {
			if (i == g->count)
				return simt_err(c, c->pos, "more values than the %u elements of '%s'", g->count, g->name);
			if (value(c, g->type, &w[i]) < 0)
				return -1;
		}
		return 0;
	}
	size_t at = c->pos;
	if (!simt_word(c, kind, sizeof kind))
		return simt_err(c, at, "expected an initialiser: zero, iota, fill V, rand SEED [MAX] or = V...");
	if (!strcmp(kind, "zero"))
		return 0;
	if (!strcmp(kind, "iota")) {
		for (uint32_t i = 0; i < g->count; i++)
			w[i] = g->type == SIMT_F32 ? f32_bits((float)i) : i;
		return 0;
	}
	if (!strcmp(kind, "fill")) {
		uint32_t v;
		if (value(c, g->type, &v) < 0)
			return -1;
		for (uint32_t i = 0; i < g->count; i++)
			w[i] = v;
		return 0;
	}
	if (!strcmp(kind, "rand"))
		return fill_rand(c, g, w);
	return simt_err(c, at, "unknown initialiser '%s': expected zero, iota, fill, rand or =", kind);
}
