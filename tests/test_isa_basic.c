/* SPDX-License-Identifier: MIT */
/*
 * test_isa_basic.c: add, sub and the bitwise commands, every width 1..64,
 * both signednesses, random and edge values, against the scalar
 * reference; and their cycle counts against duality-cache Table 1.
 */
#include <criterion/criterion.h>

#include "isa_harness.h"

static void check_all_widths(unsigned op)
{
	harness *h = harness_new(512, 64);
	uint64_t a[128], b[128];
	char why[256];
	for (unsigned n = 1; n <= 64; n++)
		for (int sg = 0; sg < 2; sg++) {
			isa_cmd c = harness_cmd(h, op, n, sg);
			harness_values(a, h->count, n, 1 + n);
			harness_values(b, h->count, n, 1000 + n);
			cr_assert(harness_check(h, &c, a, b, NULL, false, why, sizeof why),
				  "%s.%c%u: %s", isa_info_of(op)->name, sg ? 'i' : 'u', n, why);
			cr_assert_eq(h->cycles, isa_baseline_cycles(&c, h->B),
				     "%s.%u: %llu cycles, formula says %llu",
				     isa_info_of(op)->name, n,
				     (unsigned long long)h->cycles,
				     (unsigned long long)isa_baseline_cycles(&c, h->B));
		}
	harness_free(h);
}

Test(isa_basic, add) { check_all_widths(ISA_ADD); }
Test(isa_basic, sub) { check_all_widths(ISA_SUB); }
Test(isa_basic, and) { check_all_widths(ISA_AND); }
Test(isa_basic, or) { check_all_widths(ISA_OR); }
Test(isa_basic, xor) { check_all_widths(ISA_XOR); }
Test(isa_basic, not) { check_all_widths(ISA_NOT); }
Test(isa_basic, copy) { check_all_widths(ISA_COPY); }

/* duality-cache Table 1: add n, sub 2n, and/or/xor n. */
Test(isa_basic, table1_cycles)
{
	harness *h = harness_new(512, 64);
	for (unsigned n = 1; n <= 64; n++) {
		isa_cmd c = harness_cmd(h, ISA_ADD, n, false);
		cr_assert_eq(isa_baseline_cycles(&c, 64), n);
		c.op = ISA_SUB;
		cr_assert_eq(isa_baseline_cycles(&c, 64), 2u * n);
		c.op = ISA_AND;
		cr_assert_eq(isa_baseline_cycles(&c, 64), n);
		c.op = ISA_XOR;
		cr_assert_eq(isa_baseline_cycles(&c, 64), n);
	}
	harness_free(h);
}

/* A carry that ripples through every bit: all ones + 1 = 0. */
Test(isa_basic, full_ripple)
{
	harness *h = harness_new(256, 64);
	uint64_t a[128], b[128], d[128];
	for (unsigned n = 1; n <= 64; n++) {
		for (int i = 0; i < 128; i++) {
			a[i] = isa_mask(n);
			b[i] = 1;
		}
		isa_cmd c = harness_cmd(h, ISA_ADD, n, false);
		char why[256];
		cr_assert(harness_check(h, &c, a, b, NULL, false, why, sizeof why), "%s", why);
		harness_get(h, c.d, n, d);
		for (int i = 0; i < 128; i++)
			cr_assert_eq(d[i], 0);
	}
	harness_free(h);
}

/* d may be one of the sources; the result is the same. */
Test(isa_basic, in_place)
{
	harness *h = harness_new(256, 64);
	uint64_t a[128], b[128], d[128];
	harness_values(a, 128, 32, 5);
	harness_values(b, 128, 32, 6);
	isa_cmd c = harness_cmd(h, ISA_SUB, 32, true);
	c.d = c.a;
	harness_put(h, c.a, 32, a);
	harness_put(h, c.b, 32, b);
	cr_assert_null(isa_check(&c, 256, 64, NULL));
	isa_prog p;
	isa_prog_init(&p);
	cr_assert_eq(isa_build(&c, 64, &p), 0);
	sram_run(h->m, NULL, p.u, p.n);
	isa_prog_free(&p);
	harness_get(h, c.d, 32, d);
	for (int i = 0; i < 128; i++)
		cr_assert_eq(d[i], (a[i] - b[i]) & 0xffffffffu);
	harness_free(h);
}

/* Stepping one micro-op at a time gives the same bits as a full run. */
Test(isa_basic, step_equals_run)
{
	harness *h = harness_new(256, 64);
	uint64_t a[128], b[128];
	harness_values(a, 128, 24, 9);
	harness_values(b, 128, 24, 10);
	char why[256];
	isa_cmd c = harness_cmd(h, ISA_SUB, 24, false);
	cr_assert(harness_check(h, &c, a, b, NULL, true, why, sizeof why), "%s", why);
	harness_free(h);
}

/* Overlap the algorithm forbids: d one row above a. */
Test(isa_basic, overlap_refused)
{
	harness *h = harness_new(256, 64);
	isa_cmd c = harness_cmd(h, ISA_ADD, 8, false);
	c.d = (uint16_t)(c.a + 1);
	const char *e = isa_check(&c, 256, 64, NULL);
	cr_assert_not_null(e);
	cr_assert(strstr(e, "overlaps") != NULL, "%s", e);
	c = harness_cmd(h, ISA_ADD, 64, false);
	c.d = 250;
	cr_assert_not_null(isa_check(&c, 256, 64, NULL));
	harness_free(h);
}
