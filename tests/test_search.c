/* SPDX-License-Identifier: MIT */
/*
 * test_search.c: the search command (isa/search.c, duality-cache §3.1.1),
 * p := (a == imm) in two many-wordline reads, against the scalar
 * reference: every width 1..64, immediates that hit and miss (one bit
 * off, random), all zeros and all ones (the one-read cases), the tag
 * latch and a wordline as destination, and bitlines left out by the
 * enable mask, which must keep their tag and their destination bit.
 */
#include <criterion/criterion.h>

#include <stdlib.h>

#include "isa_harness.h"

enum { W = 256, B = 64, COUNT = 2 * B };

/* The immediates tried at width n: 0, all ones, one-hot and one-cold
 * values, alternating bits, and random ones. */
static unsigned immediates(unsigned n, uint64_t seed, uint64_t *imm)
{
	const uint64_t m = isa_mask(n);
	unsigned k = 0;
	imm[k++] = 0;
	imm[k++] = m;
	imm[k++] = UINT64_C(1) << (n - 1);
	imm[k++] = m & ~UINT64_C(1);
	imm[k++] = m & UINT64_C(0x5555555555555555);
	imm[k++] = m & UINT64_C(0xaaaaaaaaaaaaaaaa);
	for (unsigned i = 0; i < 4; i++)
		imm[k++] = harness_rand(&seed) & m;
	return k;
}

/* Elements for a search of imm: a quarter equal to imm (hits), a
 * quarter imm with one bit flipped (the nearest misses, each bit in
 * turn), the rest random n-bit values and the edge values. */
static void elements(unsigned n, uint64_t imm, uint64_t seed, uint64_t *a)
{
	harness_values(a, COUNT, n, seed);
	for (unsigned i = 0; i < COUNT; i++) {
		if (i % 4 == 0)
			a[i] = imm;
		else if (i % 4 == 1)
			a[i] = (imm ^ (UINT64_C(1) << (i / 4 % n))) & isa_mask(n);
	}
}

/* One search at width n, destination d (ISA_TAG or a wordline), checked
 * by the harness against the reference, with the cycle count of the
 * formula and one read per cycle that senses. */
static void check_one(harness *h, unsigned n, uint64_t imm, unsigned d,
		      uint64_t seed)
{
	uint64_t a[COUNT];
	bool tag[COUNT];
	char why[256];
	isa_cmd c = harness_cmd(h, ISA_SEARCH, n, false);
	c.imm = imm;
	if (d == ISA_TAG)
		c.d = ISA_TAG;
	elements(n, imm, seed, a);
	for (unsigned i = 0; i < COUNT; i++)
		tag[i] = (seed >> (i % 64)) & 1;
	cr_assert(harness_check(h, &c, a, NULL, tag, seed & 1, why, sizeof why),
		  "search.u%u #%#llx -> %s: %s", n, (unsigned long long)imm,
		  d == ISA_TAG ? "tag" : "wordline", why);
	cr_assert_eq(h->cycles, isa_baseline_cycles(&c, h->B),
		     "search.u%u #%#llx: %llu cycles, formula %llu", n,
		     (unsigned long long)imm, (unsigned long long)h->cycles,
		     (unsigned long long)isa_baseline_cycles(&c, h->B));
	const uint64_t m = isa_mask(n), v = imm & m;
	cr_assert_eq(h->cost.reads, (uint64_t)(v != 0) + (v != m),
		     "search.u%u #%#llx: %llu reads", n, (unsigned long long)imm,
		     (unsigned long long)h->cost.reads);
	cr_assert_eq(h->cost.activations, n, "every bit of a is sensed once");
}

Test(search, every_width_tag_and_wordline)
{
	harness *h = harness_new(W, B);
	uint64_t imm[16];
	for (unsigned n = 1; n <= 64; n++) {
		const unsigned k = immediates(n, 77 + n, imm);
		for (unsigned i = 0; i < k; i++) {
			check_one(h, n, imm[i], ISA_TAG, n * 131 + i);
			check_one(h, n, imm[i], 2 * n, n * 137 + i + 1);
		}
	}
	harness_free(h);
}

/* All-zero and all-one elements against every immediate of small widths:
 * only imm 0 finds the zeros and only all ones finds the ones. */
Test(search, all_zero_and_all_one_elements)
{
	harness *h = harness_new(W, B);
	uint64_t a[COUNT];
	char why[256];
	for (unsigned n = 1; n <= 6; n++)
		for (uint64_t imm = 0; imm <= isa_mask(n); imm++) {
			for (unsigned i = 0; i < COUNT; i++)
				a[i] = i % 2 ? isa_mask(n) : 0;
			isa_cmd c = harness_cmd(h, ISA_SEARCH, n, true);
			c.imm = imm;
			c.d = ISA_TAG;
			cr_assert(harness_check(h, &c, a, NULL, NULL, false, why,
						sizeof why), "search.i%u #%llu: %s", n,
				  (unsigned long long)imm, why);
		}
	harness_free(h);
}

/* Run c on the harness machine with every other bitline disabled (and
 * the whole second array): those keep their tag and destination bit. */
static void check_gated(harness *h, const isa_cmd *c, const uint64_t *a,
			uint64_t seed)
{
	bool tag0[COUNT], tag[COUNT];
	uint64_t d0[COUNT], d[COUNT];
	for (unsigned i = 0; i < COUNT; i++) {
		tag0[i] = (harness_rand(&seed) & 1) != 0;
		d0[i] = harness_rand(&seed) & 1;
	}
	harness_put(h, c->a, c->width, a);
	harness_put_tag(h, tag0);
	if (c->d != ISA_TAG)
		harness_put(h, c->d, 1, d0);
	for (unsigned i = 0; i < COUNT; i++)
		sram_enable_set(h->m, i / B, i % B, i < B && i % 2 == 0);
	isa_prog p;
	isa_prog_init(&p);
	cr_assert_eq(isa_build(c, B, &p), 0);
	sram_run(h->m, NULL, p.u, p.n);
	isa_prog_free(&p);
	harness_get_tag(h, tag);
	if (c->d != ISA_TAG)
		harness_get(h, c->d, 1, d);
	for (unsigned i = 0; i < COUNT; i++) {
		const bool on = i < B && i % 2 == 0;
		const bool hit = (a[i] & isa_mask(c->width)) == c->imm;
		cr_assert_eq(tag[i], on ? hit : tag0[i],
			     "search.u%u #%#llx, element %u (%s): tag %d",
			     c->width, (unsigned long long)c->imm, i,
			     on ? "enabled" : "disabled", tag[i]);
		if (c->d != ISA_TAG)
			cr_assert_eq(d[i], on ? (uint64_t)hit : d0[i],
				     "search.u%u #%#llx, element %u (%s): p %llu",
				     c->width, (unsigned long long)c->imm, i,
				     on ? "enabled" : "disabled",
				     (unsigned long long)d[i]);
	}
	for (unsigned arr = 0; arr < 2; arr++)
		sram_enable_all(h->m, arr);
}

Test(search, gated_by_enable)
{
	harness *h = harness_new(W, B);
	uint64_t a[COUNT], imm[16];
	for (unsigned n = 1; n <= 64; n += (n < 8 ? 1 : 7)) {
		const unsigned k = immediates(n, 5 + n, imm);
		for (unsigned i = 0; i < k; i++) {
			isa_cmd c = harness_cmd(h, ISA_SEARCH, n, false);
			c.imm = imm[i];
			elements(n, imm[i], 900 + n * 16 + i, a);
			c.d = ISA_TAG;
			check_gated(h, &c, a, n * 16 + i);
			c.d = (uint16_t)(2 * n);
			check_gated(h, &c, a, n * 16 + i + 7);
		}
	}
	harness_free(h);
}

/* The schedule of doc/commands/search.md: one read of the 1 rows
 * (LOADT), one of the 0 rows (TANDZ, or LOADTN alone), each a single
 * many-wordline micro-op; then WRT for a wordline destination. */
Test(search, schedule)
{
	harness *h = harness_new(W, B);
	isa_cmd c = harness_cmd(h, ISA_SEARCH, 8, false);
	c.imm = 0xa5;
	isa_prog p;
	isa_prog_init(&p);
	cr_assert_eq(isa_build(&c, B, &p), 0);
	cr_assert_eq(p.n, 3);
	cr_assert(p.u[0].lfn == SRAM_FN_LOADT && p.u[0].act[0] == c.a &&
		  p.u[0].set == 0xa5 && p.u[0].nact == 4);
	cr_assert(p.u[1].lfn == SRAM_FN_TANDZ && p.u[1].set == 0x5a &&
		  p.u[1].nact == 4);
	cr_assert(p.u[2].wfn == SRAM_FN_WRT && p.u[2].dst == c.d && !p.u[2].nact);
	isa_prog_clear(&p);
	c.imm = 0;
	c.d = ISA_TAG;
	cr_assert_eq(isa_build(&c, B, &p), 0);
	cr_assert(p.n == 1 && p.u[0].lfn == SRAM_FN_LOADTN && p.u[0].set == 0xff);
	isa_prog_free(&p);
	harness_free(h);
}

/* An immediate wider than n is refused, with a message. */
Test(search, refuses_wide_immediate)
{
	harness *h = harness_new(W, B);
	isa_cmd c = harness_cmd(h, ISA_SEARCH, 8, false);
	c.imm = 0x100;
	cr_assert_not_null(isa_check(&c, W, B, NULL));
	c.imm = 0xff;
	cr_assert_null(isa_check(&c, W, B, NULL));
	harness_free(h);
}
