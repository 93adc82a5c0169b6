/* SPDX-License-Identifier: MIT */
/* isa_harness.c: see isa_harness.h. */
#include "isa_harness.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

harness *harness_new(unsigned wordlines, unsigned bitlines)
{
	harness *h = calloc(1, sizeof *h);
	sram_geom g = {.wordlines = wordlines, .bitlines = bitlines,
		       .arrays_per_way = 2, .ways_per_bank = 1,
		       .mesh_x = 1, .mesh_y = 1};
	h->m = sram_new(&g);
	h->W = wordlines;
	h->B = bitlines;
	h->count = 2u * bitlines;
	for (unsigned a = 0; a < h->m->narrays; a++)
		sram_enable_all(h->m, a);
	return h;
}

void harness_free(harness *h)
{
	if (!h)
		return;
	sram_free(h->m);
	free(h);
}

void harness_put(harness *h, unsigned base, unsigned width, const uint64_t *v)
{
	for (uint64_t i = 0; i < h->count; i++)
		for (unsigned k = 0; k < width; k++)
			sram_set_bit(h->m, (unsigned)(i / h->B), base + k,
				     (unsigned)(i % h->B), (v[i] >> k) & 1);
}

void harness_get(harness *h, unsigned base, unsigned width, uint64_t *v)
{
	for (uint64_t i = 0; i < h->count; i++) {
		uint64_t x = 0;
		for (unsigned k = 0; k < width; k++)
			x |= (uint64_t)sram_get_bit(h->m, (unsigned)(i / h->B),
						    base + k, (unsigned)(i % h->B)) << k;
		v[i] = x;
	}
}

void harness_put_tag(harness *h, const bool *t)
{
	for (uint64_t i = 0; i < h->count; i++)
		sram_set_latch(h->m, (unsigned)(i / h->B), SRAM_TAG,
			       (unsigned)(i % h->B), t ? t[i] : false);
}

void harness_get_tag(harness *h, bool *t)
{
	for (uint64_t i = 0; i < h->count; i++)
		t[i] = sram_get_latch(h->m, (unsigned)(i / h->B), SRAM_TAG,
				      (unsigned)(i % h->B));
}

sram_geom harness_geom(unsigned wl, unsigned bl, unsigned apw, unsigned wpb,
		       unsigned mx, unsigned my)
{
	sram_geom g;
	memset(&g, 0, sizeof g);
	g.wordlines = wl;
	g.bitlines = bl;
	g.arrays_per_way = apw;
	g.ways_per_bank = wpb;
	g.mesh_x = mx;
	g.mesh_y = my;
	return g;
}

isa_cmd harness_cmd(harness *h, unsigned op, unsigned width, bool is_signed)
{
	return harness_cmd_fmt(h, op, ISA_FMT_INT, width, is_signed);
}

isa_cmd harness_cmd_fmt(harness *h, unsigned op, unsigned fmt, unsigned width,
			bool is_signed)
{
	isa_cmd c;
	memset(&c, 0, sizeof c);
	c.op = (uint16_t)op;
	c.fmt = (uint8_t)fmt;
	c.width = (uint8_t)width;
	c.is_signed = is_signed;
	c.iters = ISA_CORDIC_DEFAULT;
	c.c3 = ISA_NONE;
	c.a = 0;
	c.b = (uint16_t)width;
	c.d = (uint16_t)(2 * width);
	c.d2 = (uint16_t)(3 * width);
	c.scratch = (uint16_t)(4 * width);
	c.scratch_rows = (uint16_t)(h->W - 4 * width);
	const isa_info *in = isa_info_of(op);
	if (in->form == ISA_FORM_DA || in->form == ISA_FORM_DAI ||
	    in->form == ISA_FORM_RA)
		c.b = ISA_NONE;
	if (in->form == ISA_FORM_DI)
		c.a = c.b = ISA_NONE;
	if (in->form != ISA_FORM_QRAB)
		c.d2 = ISA_NONE;
	if (in->form == ISA_FORM_DABC) {
		c.c3 = (uint16_t)(4 * width);
		c.scratch = (uint16_t)(5 * width);
		c.scratch_rows = (uint16_t)(h->W - 5 * width);
	}
	if (in->form == ISA_FORM_PAI)
		c.b = ISA_NONE;
	return c;
}

/* The controller of a data-dependent run: everything emitted so far runs
 * on the whole harness machine, then the wired-OR of T answers. */
static bool harness_any(isa_ctl *ctl, isa_prog *p)
{
	harness *h = ctl->ctx;
	if (p->n > ctl->done)
		sram_run(h->m, NULL, p->u + ctl->done, p->n - ctl->done);
	for (size_t i = ctl->done; i < p->n; i++)
		sram_uop_cost(&p->u[i], &h->cost);
	ctl->done = p->n;
	return sram_any_tag_ways(h->m, 0, h->m->nways, NULL);
}

/* Build and run c's micro-program in the given mode.  false with why set
 * if it cannot be built or a micro-op is invalid. */
static bool harness_exec(harness *h, const isa_cmd *c, harness_mode mode,
			 char *why, size_t size)
{
	isa_prog p;
	isa_prog_init(&p);
	memset(&h->cost, 0, sizeof h->cost);
	isa_ctl ctl = {.any = harness_any, .done = 0, .ctx = h};
	bool ok;
	if (mode == HARNESS_CTL) {
		ok = isa_build_ctl(c, h->B, &p, &ctl) == 0;
		if (ok && p.n > ctl.done)
			harness_any(&ctl, &p);
	} else {
		ok = isa_build(c, h->B, &p) == 0;
	}
	if (!ok)
		snprintf(why, size, "isa_build failed");
	for (size_t i = 0; ok && i < p.n; i++) {
		const char *e = sram_uop_check(h->m, &p.u[i]);
		if (e) {
			snprintf(why, size, "micro-op %zu is invalid: %s", i, e);
			ok = false;
		}
		if (mode != HARNESS_CTL)
			sram_uop_cost(&p.u[i], &h->cost);
	}
	if (ok && mode == HARNESS_STEP)
		for (size_t i = 0; i < p.n; i++)
			sram_step(h->m, NULL, &p.u[i]);
	else if (ok && mode == HARNESS_RUN)
		sram_run(h->m, NULL, p.u, p.n);
	h->cycles = p.n;
	isa_prog_free(&p);
	return ok;
}

static void put_bits(char *buf, size_t size, uint64_t v, unsigned n)
{
	size_t k = 0;
	for (unsigned i = n; i-- > 0 && k + 1 < size;)
		buf[k++] = (char)('0' + ((v >> i) & 1));
	buf[k] = '\0';
}

static bool differ(const char *what, uint64_t i, uint64_t a, uint64_t b,
		   uint64_t exp, uint64_t got, unsigned n, char *why, size_t size)
{
	char e[80], g[80];
	put_bits(e, sizeof e, exp, n);
	put_bits(g, sizeof g, got, n);
	snprintf(why, size,
		 "%s of element %" PRIu64 " (a=0x%" PRIx64 " b=0x%" PRIx64
		 "): expected %s, got %s", what, i, a, b, e, g);
	return false;
}

bool harness_check(harness *h, const isa_cmd *c, const uint64_t *a,
		   const uint64_t *b, const bool *tag_in, bool stepped,
		   char *why, size_t size)
{
	return harness_check3(h, c, a, b, NULL, tag_in,
			      stepped ? HARNESS_STEP : HARNESS_RUN, why, size);
}

bool harness_check3(harness *h, const isa_cmd *c, const uint64_t *a,
		    const uint64_t *b, const uint64_t *c3, const bool *tag_in,
		    harness_mode mode, char *why, size_t size)
{
	const unsigned n = c->width;
	const unsigned na = c->op == ISA_CVT ? c->swidth : n;
	const uint64_t cnt = h->count, m = isa_mask(n);
	const char *bad = isa_check(c, h->W, h->B, NULL);
	if (bad) {
		snprintf(why, size, "isa_check refused the command: %s", bad);
		return false;
	}
	uint64_t *va = calloc(cnt, 8), *vb = calloc(cnt, 8), *vc = calloc(cnt, 8);
	uint64_t *d = calloc(cnt, 8), *d2 = calloc(cnt, 8);
	bool *t = calloc(cnt, 1);
	for (uint64_t i = 0; i < cnt; i++) {
		va[i] = a ? a[i] & isa_mask(na) : 0;
		vb[i] = b ? b[i] & m : 0;
		vc[i] = c3 ? c3[i] & m : 0;
	}
	const isa_info *in = isa_info_of(c->op);
	if (c->a != ISA_NONE)
		harness_put(h, c->a, na, va);
	if (c->b != ISA_NONE)
		harness_put(h, c->b, n, vb);
	if (in->form == ISA_FORM_DABC)
		harness_put(h, c->c3, n, vc);
	harness_put_tag(h, tag_in);
	bool ok = harness_exec(h, c, mode, why, size);
	if (ok && c->d != ISA_TAG)
		harness_get(h, c->d, in->form == ISA_FORM_PAB ||
				     in->form == ISA_FORM_PAI ? 1 : n, d);
	if (ok && in->form == ISA_FORM_QRAB)
		harness_get(h, c->d2, n, d2);
	harness_get_tag(h, t);
	if (ok && in->form == ISA_FORM_RA) {
		/* Each array's reduction lands at its bitline 0. */
		for (uint64_t arr = 0; ok && arr < 2; arr++) {
			uint64_t exp = isa_ref_reduce(c, va + arr * h->B, h->B);
			uint64_t got = d[arr * h->B];
			if (exp != got)
				ok = differ("reduction", arr * h->B, 0, 0, exp, got, n, why, size);
		}
	}
	for (uint64_t i = 0; ok && in->form != ISA_FORM_RA && i < cnt; i++) {
		bool tin = tag_in ? tag_in[i] : false, tout = tin;
		uint64_t r2 = 0;
		uint64_t exp = isa_ref_elem3(c, va[i], vb[i], vc[i], tin, &tout, &r2);
		if (in->form == ISA_FORM_PAB || in->form == ISA_FORM_PAI) {
			if (c->d == ISA_TAG ? t[i] != tout : d[i] != (uint64_t)tout)
				ok = differ("predicate", i, va[i], vb[i], tout,
					    c->d == ISA_TAG ? t[i] : d[i], 1, why, size);
		} else if (d[i] != exp) {
			ok = differ("result", i, va[i], vb[i], exp, d[i], n, why, size);
		} else if (in->form == ISA_FORM_QRAB && d2[i] != r2) {
			ok = differ("remainder", i, va[i], vb[i], r2, d2[i], n, why, size);
		}
	}
	free(va);
	free(vb);
	free(vc);
	free(d);
	free(d2);
	free(t);
	return ok;
}

uint64_t harness_rand(uint64_t *state)
{
	/* splitmix64 */
	uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

void harness_values(uint64_t *v, uint64_t count, unsigned width, uint64_t seed)
{
	const uint64_t m = isa_mask(width);
	const uint64_t min = UINT64_C(1) << (width - 1);
	const uint64_t edge[] = {0, 1, m, min, min - 1, 2, m - 1, min + 1,
				 m & UINT64_C(0x5555555555555555),
				 m & UINT64_C(0xaaaaaaaaaaaaaaaa)};
	uint64_t s = seed * 7919 + width;
	for (uint64_t i = 0; i < count; i++) {
		uint64_t r = harness_rand(&s);
		if (i < 2 * (sizeof edge / sizeof edge[0]) && (r & 1))
			v[i] = edge[(i / 2) % (sizeof edge / sizeof edge[0])];
		else if ((r & 7) == 0)
			v[i] = edge[(r >> 3) % (sizeof edge / sizeof edge[0])];
		else
			v[i] = harness_rand(&s) >> (harness_rand(&s) % width);
		v[i] &= m;
	}
}

emu_pattern harness_pat(int64_t start, int64_t stride, uint64_t count)
{
	emu_pattern p;
	memset(&p, 0, sizeof p);
	p.start = start;
	p.ndims = 1;
	p.stride[0] = stride;
	p.count[0] = count;
	return p;
}
