/* SPDX-License-Identifier: MIT */
/*
 * test_ops.c: shifts, comparisons, selects, popcnt, set and reductions
 * (isa/shift.c, cmp.c, select.c, popcnt.c, set.c, reduce.c).
 *
 * Every command, every width 1..64, both signednesses, random and edge
 * values, is run on the SRAM model and held to the scalar reference bit
 * for bit; its cycle count is held to isa_cycles_* (the formulas of
 * doc/commands/ops.md).  Then: the aliasing each family allows, the
 * aliasing it refuses, what it does to the tag latch, that it writes no
 * wordline or bitline it should not, and that stepping equals running.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "isa_harness.h"
#include "family.h"

#define MAX_ELEMS 2048 /* 2 arrays x 1024 bitlines */

static uint64_t va[MAX_ELEMS], vb[MAX_ELEMS];
static bool vt[MAX_ELEMS];

/* Operand layout variants. */
enum layout { OUT_OF_PLACE, D_IS_A, D_IS_B, D_IS_TAG };

static const char *describe(const isa_cmd *c)
{
	static char buf[160];
	char d[16];
	if (c->d == ISA_TAG)
		snprintf(d, sizeof d, "tag");
	else
		snprintf(d, sizeof d, "%u", c->d);
	snprintf(buf, sizeof buf, "%s.%c%u d=%s a=%d b=%d imm=%llu",
		 isa_info_of(c->op)->name, c->is_signed ? 'i' : 'u', c->width,
		 d, c->a == ISA_NONE ? -1 : c->a, c->b == ISA_NONE ? -1 : c->b,
		 (unsigned long long)c->imm);
	return buf;
}

static isa_cmd make_cmd(harness *h, unsigned op, unsigned n, bool sg,
			enum layout lay)
{
	isa_cmd c = harness_cmd(h, op, n, sg);
	switch (lay) {
	case D_IS_A: c.d = c.a; break;
	case D_IS_B: c.d = c.b; break;
	case D_IS_TAG: c.d = ISA_TAG; break;
	default: break;
	}
	return c;
}

/* Shift amounts: 0, 1, n - 1, n, n + 1, 2^n - 1, small random ones (the
 * interesting range) and full random ones. */
static void fill_amounts(uint64_t *b, uint64_t count, unsigned n, uint64_t seed)
{
	const uint64_t m = isa_mask(n);
	uint64_t s = seed;
	for (uint64_t i = 0; i < count; i++) {
		const uint64_t r = harness_rand(&s);
		switch (i % 8) {
		case 0: b[i] = 0; break;
		case 1: b[i] = n - 1u; break;
		case 2: b[i] = n; break;
		case 3: b[i] = m; break;
		case 4: b[i] = r; break;
		case 5: b[i] = n + 1u; break;
		default: b[i] = r % (n + 2u); break;
		}
		b[i] &= m;
	}
}

/* b for a comparison: equal to a, one bit away from a, or unrelated. */
static void fill_compared(uint64_t *b, const uint64_t *a, uint64_t count,
			  unsigned n, uint64_t seed)
{
	uint64_t s = seed;
	harness_values(b, count, n, seed);
	for (uint64_t i = 0; i < count; i++) {
		const uint64_t r = harness_rand(&s);
		if (r % 4 == 0)
			b[i] = a[i];
		else if (r % 4 == 1)
			b[i] = (a[i] ^ (UINT64_C(1) << (r >> 8) % n)) & isa_mask(n);
	}
}

static void fill_tags(bool *t, uint64_t count, uint64_t seed)
{
	uint64_t s = seed;
	for (uint64_t i = 0; i < count; i++)
		t[i] = harness_rand(&s) & 1;
}

static void fill_operands(harness *h, unsigned op, unsigned n, uint64_t seed)
{
	harness_values(va, h->count, n, seed);
	if (op == ISA_SHL || op == ISA_SHR || op == ISA_SRA)
		fill_amounts(vb, h->count, n, seed + 77);
	else if (isa_info_of(op)->form == ISA_FORM_PAB ||
		 op == ISA_MIN || op == ISA_MAX)
		fill_compared(vb, va, h->count, n, seed + 77);
	else
		harness_values(vb, h->count, n, seed + 77);
	fill_tags(vt, h->count, seed + 991);
}

/* Run c on the operands, hold it to the reference and to its formula. */
static void check_cmd(harness *h, const isa_cmd *c, bool stepped)
{
	char why[320];
	cr_assert(harness_check(h, c, va, vb, vt, stepped, why, sizeof why),
		  "%s: %s", describe(c), why);
	const uint64_t want = isa_baseline_cycles(c, h->B);
	cr_assert_eq(h->cycles, want, "%s: %llu cycles, isa_cycles says %llu",
		     describe(c), (unsigned long long)h->cycles,
		     (unsigned long long)want);
}

/* Immediates worth trying at width n. */
static unsigned imm_set(unsigned op, unsigned n, uint64_t seed, uint64_t *imm)
{
	const uint64_t m = isa_mask(n);
	uint64_t s = seed;
	unsigned k = 0;
	if (op == ISA_SET) {
		const uint64_t v[] = {0, 1, m, m >> 1, (m >> 1) + 1, harness_rand(&s) & m};
		for (unsigned i = 0; i < 6; i++)
			imm[k++] = v[i];
		return k;
	}
	const uint64_t v[] = {0, 1, n / 2u, n - 1u, harness_rand(&s) % n};
	for (unsigned i = 0; i < 5; i++)
		if (v[i] < n)
			imm[k++] = v[i];
	return k;
}

/* Every width and signedness of op with the given layout. */
static void check_all_widths(unsigned op, enum layout lay)
{
	harness *h = harness_new(512, 64);
	const isa_form f = isa_info_of(op)->form;
	for (unsigned n = 1; n <= 64; n++)
		for (int sg = 0; sg < 2; sg++) {
			isa_cmd c = make_cmd(h, op, n, sg, lay);
			fill_operands(h, op, n, 31u * n + (unsigned)sg + op * 1000u);
			const bool stepped = n % 21 == 1;
			if (f != ISA_FORM_DAI && f != ISA_FORM_DI) {
				check_cmd(h, &c, stepped);
				continue;
			}
			uint64_t imm[8];
			const unsigned k = imm_set(op, n, n + 5u * op, imm);
			for (unsigned i = 0; i < k; i++) {
				c.imm = imm[i];
				check_cmd(h, &c, stepped);
			}
		}
	harness_free(h);
}

Test(ops, set) { check_all_widths(ISA_SET, OUT_OF_PLACE); }

Test(ops, shift_immediate)
{
	const unsigned ops[] = {ISA_SHLI, ISA_SHRI, ISA_SRAI};
	for (unsigned i = 0; i < 3; i++) {
		check_all_widths(ops[i], OUT_OF_PLACE);
		check_all_widths(ops[i], D_IS_A);
	}
}

Test(ops, shl) { check_all_widths(ISA_SHL, OUT_OF_PLACE); check_all_widths(ISA_SHL, D_IS_A); }
Test(ops, shr) { check_all_widths(ISA_SHR, OUT_OF_PLACE); check_all_widths(ISA_SHR, D_IS_A); }
Test(ops, sra) { check_all_widths(ISA_SRA, OUT_OF_PLACE); check_all_widths(ISA_SRA, D_IS_A); }

static void check_compare(unsigned op)
{
	check_all_widths(op, D_IS_TAG);     /* p is the tag latch */
	check_all_widths(op, OUT_OF_PLACE); /* p is a 1-bit wordline */
	check_all_widths(op, D_IS_A);       /* ... that is a[0] */
	check_all_widths(op, D_IS_B);       /* ... that is b[0] */
}

Test(ops, eq) { check_compare(ISA_EQ); }
Test(ops, ne) { check_compare(ISA_NE); }
Test(ops, lt) { check_compare(ISA_LT); }
Test(ops, le) { check_compare(ISA_LE); }
Test(ops, gt) { check_compare(ISA_GT); }
Test(ops, ge) { check_compare(ISA_GE); }

static void check_select(unsigned op)
{
	check_all_widths(op, OUT_OF_PLACE);
	check_all_widths(op, D_IS_A);
	if (isa_info_of(op)->form == ISA_FORM_DAB)
		check_all_widths(op, D_IS_B);
}

Test(ops, min) { check_select(ISA_MIN); }
Test(ops, max) { check_select(ISA_MAX); }
Test(ops, sel) { check_select(ISA_SEL); }
Test(ops, abs) { check_select(ISA_ABS); }
Test(ops, neg) { check_select(ISA_NEG); }
Test(ops, popcnt) { check_select(ISA_POPCNT); }

Test(ops, reduce_64_bitlines)
{
	const unsigned ops[] = {ISA_REDSUM, ISA_REDMIN, ISA_REDMAX};
	for (unsigned i = 0; i < 3; i++) {
		check_all_widths(ops[i], OUT_OF_PLACE);
		check_all_widths(ops[i], D_IS_A);
	}
}

/* Other array sizes: 8 bitlines (the smallest), 128 and 1024 (more than
 * one word per row, so SHDOWN crosses words). */
Test(ops, reduce_other_bitlines)
{
	const unsigned bls[] = {8, 16, 128, 1024};
	const unsigned widths[] = {1, 2, 7, 16, 33, 64};
	const unsigned ops[] = {ISA_REDSUM, ISA_REDMIN, ISA_REDMAX};
	for (unsigned b = 0; b < 4; b++) {
		harness *h = harness_new(512, bls[b]);
		for (unsigned w = 0; w < 6; w++)
			for (unsigned o = 0; o < 3; o++)
				for (int sg = 0; sg < 2; sg++) {
					const unsigned n = widths[w];
					isa_cmd c = make_cmd(h, ops[o], n, sg, OUT_OF_PLACE);
					fill_operands(h, ops[o], n, bls[b] + n + 7u * o);
					check_cmd(h, &c, w == 2);
				}
		harness_free(h);
	}
}

/* The 0 that SHDOWN brings in at the top edge must never win a min or a
 * max: all-ones (unsigned min) and MIN (signed max) everywhere. */
Test(ops, reduce_edge_zero_not_picked)
{
	harness *h = harness_new(512, 64);
	for (unsigned n = 1; n <= 64; n++)
		for (int sg = 0; sg < 2; sg++) {
			const uint64_t fill = sg ? (isa_mask(n) >> 1) + 1 : isa_mask(n);
			for (uint64_t i = 0; i < h->count; i++)
				va[i] = fill;
			isa_cmd c = make_cmd(h, sg ? ISA_REDMAX : ISA_REDMIN, n, sg,
					     OUT_OF_PLACE);
			check_cmd(h, &c, false);
		}
	harness_free(h);
}

/* ---- operand rules ---- */

static void expect_refused(const isa_cmd *c, const char *needle)
{
	const char *e = isa_check(c, 512, 64, NULL);
	cr_assert_not_null(e, "%s was accepted", describe(c));
	cr_assert(strstr(e, needle) != NULL, "%s: \"%s\" does not say \"%s\"",
		  describe(c), e, needle);
}

static void expect_accepted(const isa_cmd *c)
{
	const char *e = isa_check(c, 512, 64, NULL);
	cr_assert_null(e, "%s was refused: %s", describe(c), e);
}

Test(ops, immediates_checked)
{
	harness *h = harness_new(512, 64);
	const unsigned ops[] = {ISA_SHLI, ISA_SHRI, ISA_SRAI};
	isa_prog p;
	isa_prog_init(&p);
	for (unsigned n = 1; n <= 64; n++) {
		for (unsigned o = 0; o < 3; o++) {
			isa_cmd c = make_cmd(h, ops[o], n, false, OUT_OF_PLACE);
			c.imm = n - 1u;
			expect_accepted(&c);
			c.imm = n;
			expect_refused(&c, "immediate");
			c.imm = UINT64_MAX;
			expect_refused(&c, "immediate");
			cr_assert_eq(isa_build(&c, 64, &p), -1, "%s built", describe(&c));
		}
		isa_cmd c = make_cmd(h, ISA_SET, n, true, OUT_OF_PLACE);
		c.imm = isa_mask(n);
		expect_accepted(&c);
		if (n < 64) {
			c.imm = isa_mask(n) + 1;
			expect_refused(&c, "immediate");
		}
	}
	isa_prog_free(&p);
	harness_free(h);
}

Test(ops, aliasing_refused)
{
	harness *h = harness_new(512, 64);
	/* The barrel shifter reads b[k] after it has written d. */
	isa_cmd c = make_cmd(h, ISA_SHL, 16, false, D_IS_B);
	expect_refused(&c, "overlaps source b");
	c = make_cmd(h, ISA_SRA, 16, true, OUT_OF_PLACE);
	c.d = (uint16_t)(c.a + 1);
	expect_refused(&c, "overlaps source a");
	/* A 1-bit predicate may be a[0] or b[0], not another row of them. */
	c = make_cmd(h, ISA_LT, 16, true, OUT_OF_PLACE);
	c.d = (uint16_t)(c.a + 3);
	expect_refused(&c, "overlaps source a");
	c.d = (uint16_t)(c.b + 15);
	expect_refused(&c, "overlaps source b");
	c.d = (uint16_t)(c.a + 16); /* b[0] */
	expect_accepted(&c);
	/* Only the comparisons write the tag latch. */
	const unsigned not_pab[] = {ISA_MIN, ISA_SEL, ISA_SHL, ISA_POPCNT, ISA_SET,
				    ISA_REDSUM};
	for (unsigned i = 0; i < 6; i++) {
		c = make_cmd(h, not_pab[i], 8, false, D_IS_TAG);
		expect_refused(&c, "tag latch");
	}
	c = make_cmd(h, ISA_MAX, 16, true, OUT_OF_PLACE);
	c.d = (uint16_t)(c.b - 4);
	expect_refused(&c, "overlaps source");
	c = make_cmd(h, ISA_POPCNT, 16, false, OUT_OF_PLACE);
	c.d = (uint16_t)(c.a + 8);
	expect_refused(&c, "overlaps source a");
	harness_free(h);
}

Test(ops, reduce_scratch_checked)
{
	harness *h = harness_new(512, 64);
	isa_cmd c = make_cmd(h, ISA_REDMIN, 32, true, OUT_OF_PLACE);
	isa_rules r;
	cr_assert_null(isa_check(&c, 512, 64, &r));
	cr_assert_eq(r.scratch_rows, 64u);
	c.scratch_rows = 63;
	expect_refused(&c, "scratch");
	c.scratch_rows = 64;
	c.d = (uint16_t)(c.scratch + 60);
	expect_refused(&c, "scratch");
	c = make_cmd(h, ISA_REDSUM, 32, false, OUT_OF_PLACE);
	c.a = (uint16_t)(c.scratch - 8);
	expect_refused(&c, "scratch");
	harness_free(h);
}

/* ---- the tag latch ---- */

static void run_and_get_tag(harness *h, unsigned op, unsigned n, bool sg,
			    enum layout lay, bool *t)
{
	isa_cmd c = make_cmd(h, op, n, sg, lay);
	c.imm = op == ISA_SET ? isa_mask(n) / 3 : n / 2u;
	fill_operands(h, op, n, 4242u + n + op);
	check_cmd(h, &c, false);
	harness_get_tag(h, t);
}

/* Commands that leave T as they found it (doc/commands/ops.md). */
Test(ops, tag_preserved)
{
	const struct { unsigned op; bool sg; enum layout lay; } keep[] = {
		{ISA_SEL, 0, OUT_OF_PLACE}, {ISA_SEL, 1, D_IS_A},
		{ISA_NEG, 1, OUT_OF_PLACE}, {ISA_ABS, 0, OUT_OF_PLACE},
		{ISA_SET, 0, OUT_OF_PLACE}, {ISA_SHLI, 0, OUT_OF_PLACE},
		{ISA_SHRI, 0, D_IS_A}, {ISA_SRAI, 1, OUT_OF_PLACE},
		{ISA_EQ, 1, OUT_OF_PLACE}, {ISA_NE, 0, D_IS_A},
		{ISA_SRA, 1, OUT_OF_PLACE}, /* n = 1 only, below */
	};
	harness *h = harness_new(512, 64);
	bool t[128];
	const unsigned widths[] = {1, 9, 64};
	for (unsigned i = 0; i < sizeof keep / sizeof keep[0]; i++)
		for (unsigned w = 0; w < 3; w++) {
			if (keep[i].op == ISA_SRA && widths[w] != 1)
				continue;
			run_and_get_tag(h, keep[i].op, widths[w], keep[i].sg,
					keep[i].lay, t);
			for (uint64_t e = 0; e < h->count; e++)
				cr_assert_eq(t[e], vt[e], "%s.%u: tag of element %llu changed",
					     isa_info_of(keep[i].op)->name, widths[w],
					     (unsigned long long)e);
		}
	harness_free(h);
}

/* What the others leave in T, as documented. */
static bool documented_tag(unsigned op, unsigned n, bool sg, uint64_t e,
			   unsigned bitlines)
{
	const uint64_t a = va[e], b = vb[e];
	switch (op) {
	case ISA_MIN: case ISA_MAX:
		return sg ? isa_sext(a, n) < isa_sext(b, n) : a < b;
	case ISA_ABS: case ISA_POPCNT:
		return (a >> (n - 1)) & 1;
	case ISA_REDSUM: case ISA_REDMIN: case ISA_REDMAX:
		return e % bitlines == 0;
	default: /* SHL, SHR, SRA: the OR of b's bits k with 2^k >= n */
		for (unsigned k = 0; k < n; k++)
			if ((UINT64_C(1) << k) >= n && ((b >> k) & 1))
				return true;
		return false;
	}
}

Test(ops, tag_left_as_documented)
{
	const struct { unsigned op; bool sg; } ops[] = {
		{ISA_MIN, 1}, {ISA_MAX, 0}, {ISA_ABS, 1}, {ISA_POPCNT, 0},
		{ISA_REDSUM, 0}, {ISA_REDMAX, 1}, {ISA_SHL, 0}, {ISA_SHR, 0},
		{ISA_SRA, 1},
	};
	harness *h = harness_new(512, 64);
	bool t[128];
	const unsigned widths[] = {2, 5, 8, 64};
	for (unsigned i = 0; i < sizeof ops / sizeof ops[0]; i++)
		for (unsigned w = 0; w < 4; w++) {
			const unsigned n = widths[w];
			run_and_get_tag(h, ops[i].op, n, ops[i].sg, OUT_OF_PLACE, t);
			for (uint64_t e = 0; e < h->count; e++)
				cr_assert_eq(t[e], documented_tag(ops[i].op, n, ops[i].sg, e, h->B),
					     "%s.%u: tag of element %llu",
					     isa_info_of(ops[i].op)->name, n,
					     (unsigned long long)e);
		}
	harness_free(h);
}

/* ---- writes nowhere else; stepping equals running ---- */

static bool is_my_family(unsigned op)
{
	static const char *const fams[] = {"shift", "cmp", "select", "popcnt",
					   "set", "reduce"};
	for (unsigned i = 0; i < 6; i++)
		if (strcmp(isa_info_of(op)->family, fams[i]) == 0)
			return true;
	return false;
}

/* Random bits in every cell, tag and carry; a random half of the
 * bitlines disabled unless all_enabled. */
static void randomise(harness *h, uint64_t seed, bool all_enabled)
{
	sram_machine *m = h->m;
	uint64_t s = seed;
	for (unsigned a = 0; a < m->narrays; a++) {
		for (unsigned wl = 0; wl < h->W; wl++)
			for (unsigned k = 0; k < m->wpa; k++)
				sram_row(m, a, wl)[k] = harness_rand(&s) &
					(k + 1 == m->wpa ? m->tail : ~UINT64_C(0));
		for (unsigned bl = 0; bl < h->B; bl++) {
			sram_set_latch(m, a, SRAM_TAG, bl, harness_rand(&s) & 1);
			sram_set_latch(m, a, SRAM_CARRY, bl, harness_rand(&s) & 1);
			sram_enable_set(m, a, bl, all_enabled || (harness_rand(&s) & 1));
		}
	}
}

/* The command of op at width n used by the whole-machine tests. */
static isa_cmd whole_machine_cmd(harness *h, unsigned op, unsigned n, uint64_t r)
{
	const isa_form f = isa_info_of(op)->form;
	enum layout lay = r % 3 == 0 ? D_IS_A : OUT_OF_PLACE;
	if (f == ISA_FORM_PAB && r % 3 == 1)
		lay = D_IS_TAG;
	if (f == ISA_FORM_DI)
		lay = OUT_OF_PLACE;
	isa_cmd c = make_cmd(h, op, n, r & 1, lay);
	c.imm = f == ISA_FORM_DI ? r & isa_mask(n) : (r >> 8) % n;
	return c;
}

static void build(const isa_cmd *c, unsigned bitlines, isa_prog *p)
{
	isa_prog_clear(p);
	cr_assert_null(isa_check(c, 512, bitlines, NULL), "%s", describe(c));
	cr_assert_eq(isa_build(c, bitlines, p), 0, "%s", describe(c));
	cr_assert_eq(p->n, isa_baseline_cycles(c, bitlines), "%s", describe(c));
}

static bool in_rows(unsigned wl, unsigned base, unsigned rows)
{
	return base != ISA_TAG && base != ISA_NONE && wl >= base && wl < base + rows;
}

/* After c ran: every disabled bitline is untouched in every row and latch,
 * and enabled bitlines changed only in d and scratch (a reduction: only
 * bitline 0 of d). */
static void check_untouched(harness *h, const isa_cmd *c, const sram_machine *before)
{
	isa_rules r;
	isa_check(c, h->W, h->B, &r);
	const bool reduction = isa_info_of(c->op)->form == ISA_FORM_RA;
	sram_machine *m = h->m, *b = (sram_machine *)before;
	for (unsigned a = 0; a < m->narrays; a++) {
		const uint64_t *en = sram_latch_words(m, a, SRAM_ENABLE);
		for (unsigned wl = 0; wl < h->W; wl++)
			for (unsigned k = 0; k < m->wpa; k++) {
				uint64_t diff = sram_row(m, a, wl)[k] ^ sram_row(b, a, wl)[k];
				cr_assert_eq(diff & ~en[k], 0, "%s: disabled bitline written, row %u",
					     describe(c), wl);
				if (in_rows(wl, c->scratch, r.scratch_rows))
					continue;
				if (in_rows(wl, c->d, r.d_rows)) /* keep what may not change */
					diff &= reduction ? (k == 0 ? ~UINT64_C(1) : ~UINT64_C(0)) : 0;
				cr_assert_eq(diff, 0, "%s: row %u word %u of array %u written (%#llx)",
					     describe(c), wl, k, a, (unsigned long long)diff);
			}
		const enum sram_latch latches[] = {SRAM_TAG, SRAM_CARRY};
		for (unsigned l = 0; l < 2; l++)
			for (unsigned k = 0; k < m->wpa; k++)
				cr_assert_eq((sram_latch_words(m, a, latches[l])[k] ^
					      sram_latch_words(b, a, latches[l])[k]) & ~en[k], 0,
					     "%s: a latch of a disabled bitline changed", describe(c));
	}
}

Test(ops, writes_only_its_destination)
{
	harness *h = harness_new(512, 64), *before = harness_new(512, 64);
	isa_prog p;
	isa_prog_init(&p);
	uint64_t s = 17;
	for (unsigned op = 0; op < ISA_OP_COUNT; op++) {
		if (!is_my_family(op))
			continue;
		for (unsigned n = 1; n <= 64; n += 9) {
			const uint64_t r = harness_rand(&s);
			const isa_cmd c = whole_machine_cmd(h, op, n, r);
			build(&c, h->B, &p);
			randomise(h, r, isa_info_of(op)->form == ISA_FORM_RA);
			sram_copy_state(before->m, h->m);
			sram_run(h->m, NULL, p.u, p.n);
			check_untouched(h, &c, before->m);
		}
	}
	isa_prog_free(&p);
	harness_free(h);
	harness_free(before);
}

static void expect_same_machine(harness *x, harness *y, const isa_cmd *c)
{
	const sram_machine *m = x->m;
	const enum sram_latch latches[] = {SRAM_TAG, SRAM_CARRY, SRAM_BL, SRAM_BLB};
	for (unsigned a = 0; a < m->narrays; a++) {
		for (unsigned wl = 0; wl < x->W; wl++)
			cr_assert_arr_eq(sram_row(x->m, a, wl), sram_row(y->m, a, wl),
					 m->wpa * sizeof(uint64_t), "%s: row %u differs",
					 describe(c), wl);
		for (unsigned l = 0; l < 4; l++)
			cr_assert_arr_eq(sram_latch_words(x->m, a, latches[l]),
					 sram_latch_words(y->m, a, latches[l]),
					 m->wpa * sizeof(uint64_t), "%s: latch %u differs",
					 describe(c), l);
	}
}

/* Single-stepping a micro-program leaves the very same machine state as
 * running it: every cell, latch and sense amplifier output. */
Test(ops, step_equals_run)
{
	harness *run = harness_new(512, 64), *step = harness_new(512, 64);
	isa_prog p;
	isa_prog_init(&p);
	uint64_t s = 23;
	const unsigned widths[] = {1, 5, 32, 64};
	for (unsigned op = 0; op < ISA_OP_COUNT; op++) {
		if (!is_my_family(op))
			continue;
		for (unsigned w = 0; w < 4; w++) {
			const uint64_t r = harness_rand(&s);
			const isa_cmd c = whole_machine_cmd(run, op, widths[w], r);
			build(&c, run->B, &p);
			randomise(run, r, isa_info_of(op)->form == ISA_FORM_RA);
			sram_copy_state(step->m, run->m);
			sram_run(run->m, NULL, p.u, p.n);
			for (size_t i = 0; i < p.n; i++)
				sram_step(step->m, NULL, &p.u[i]);
			expect_same_machine(run, step, &c);
		}
	}
	isa_prog_free(&p);
	harness_free(run);
	harness_free(step);
}

/* The worked figures of doc/commands/ops.md. */
Test(ops, documented_cycle_counts)
{
	harness *h = harness_new(512, 64);
	isa_cmd c = make_cmd(h, ISA_SHL, 32, false, OUT_OF_PLACE);
	cr_assert_eq(isa_baseline_cycles(&c, 64), 238);  /* vs n^2 = 1024 */
	c = make_cmd(h, ISA_SRA, 32, true, D_IS_A);
	cr_assert_eq(isa_baseline_cycles(&c, 64), 200);
	c = make_cmd(h, ISA_POPCNT, 64, false, OUT_OF_PLACE);
	cr_assert_eq(isa_baseline_cycles(&c, 64), 456);
	c = make_cmd(h, ISA_LT, 32, true, D_IS_TAG);
	cr_assert_eq(isa_baseline_cycles(&c, 64), 65);
	c = make_cmd(h, ISA_MIN, 32, true, OUT_OF_PLACE);
	cr_assert_eq(isa_baseline_cycles(&c, 64), 129);
	c = make_cmd(h, ISA_REDSUM, 32, false, OUT_OF_PLACE);
	cr_assert_eq(isa_baseline_cycles(&c, 64), 2275);
	c = make_cmd(h, ISA_REDMAX, 32, true, OUT_OF_PLACE);
	cr_assert_eq(isa_baseline_cycles(&c, 64), 2665);
	harness_free(h);
}
