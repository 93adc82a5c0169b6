/* SPDX-License-Identifier: MIT */
/*
 * select.c: min, max, sel, abs, neg.
 *
 * A select is a predicated copy.  Every write of a micro-op can be gated
 * by the tag latch (gate ET: where T is set, ENT: where it is clear), which
 * is how duality-cache §3.3 turns control flow into predication, so
 *   d := T ? x : y   is   COPY x[i] -> d[i] gated ET, COPY y[i] -> d[i]
 *                         gated ENT, for each bit:                 2n cycles.
 * When d is x (or y), that half of the copy is the identity and is left
 * out: n cycles.
 *
 * sel: the select above on the tag latch as the command finds it; T is
 *   preserved.  2n cycles, n when d is a or b.
 * min, max: T := a < b by the comparison family (cmp.c: the borrow chain
 *   of a - b, 2n cycles, then T' = ~C, 1 cycle), then min = T ? a : b,
 *   max = T ? b : a.  2n + 1 + (2n, or n when d is a or b) cycles.
 *   T is left holding a < b.
 * neg: -a = ~a + 1, one bit per cycle with NEG (out = ~a[i] ^ C,
 *   C' = ~a[i] & C), C preset to 1 at bit 0.  n cycles; T preserved.
 * abs (signed): T := a[n-1] (LOADT), then CNEG per bit, C preset to 0:
 *   out = a[i] ^ (T & C), C' = C | a[i].  With C the OR of the bits below
 *   i, this is the two's complement rule "keep up to the lowest 1, invert
 *   above it", applied only where T (a < 0).  MIN stays MIN, as the
 *   reference says.  n + 1 cycles; T is left holding the sign of a.
 * abs (unsigned): a copy, n cycles; T preserved.
 *
 * Aliasing: the compare of min/max reads all of a and b before the first
 * write; the selects, neg and abs read bit i of every source before they
 * write bit i of d and never read bit i again.  So d may be a or b (but
 * not overlap them otherwise: isa_check).
 */
#include "isa.h"
#include "family.h"

/* d := T ? x : y, leaving out a copy whose source is d itself. */
static void emit_tag_select(isa_prog *p, unsigned d, unsigned x, unsigned y,
			    unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		if (x != d)
			isa_emit(p, isa_gate(isa_u1(SRAM_FN_COPY, d + i, x + i),
					     SRAM_GATE_ET));
		if (y != d)
			isa_emit(p, isa_gate(isa_u1(SRAM_FN_COPY, d + i, y + i),
					     SRAM_GATE_ENT));
	}
}

static uint64_t tag_select_cycles(unsigned d, unsigned x, unsigned y,
				  unsigned n)
{
	return (uint64_t)n * ((x != d) + (y != d));
}

/* The comparison a < b into the tag latch, as cmp.c builds it. */
static isa_cmd less_into_tag(const isa_cmd *c)
{
	isa_cmd lt = *c;
	lt.op = ISA_LT;
	lt.d = ISA_TAG;
	return lt;
}

static void emit_abs(isa_prog *p, const isa_cmd *c)
{
	const unsigned n = c->width;
	if (!c->is_signed) {
		for (unsigned i = 0; i < n; i++)
			isa_emit(p, isa_u1(SRAM_FN_COPY, c->d + i, c->a + i));
		return;
	}
	isa_emit(p, isa_l1(SRAM_FN_LOADT, c->a + n - 1));
	for (unsigned i = 0; i < n; i++) {
		sram_uop u = isa_u1(SRAM_FN_CNEG, c->d + i, c->a + i);
		isa_emit(p, i ? u : isa_cpre(u, SRAM_CPRE_0));
	}
}

static void emit_neg(isa_prog *p, const isa_cmd *c)
{
	for (unsigned i = 0; i < c->width; i++) {
		sram_uop u = isa_u1(SRAM_FN_NEG, c->d + i, c->a + i);
		isa_emit(p, i ? u : isa_cpre(u, SRAM_CPRE_1));
	}
}

int isa_gen_select(const isa_cmd *c, unsigned bitlines, isa_prog *p,
		 isa_ctl *ctl)
{
	(void)ctl;
	const unsigned n = c->width;
	isa_cmd lt;
	switch (c->op) {
	case ISA_MIN:
	case ISA_MAX:
		lt = less_into_tag(c);
		if (isa_gen_cmp(&lt, bitlines, p, NULL))
			return -1;
		if (c->op == ISA_MIN)
			emit_tag_select(p, c->d, c->a, c->b, n);
		else
			emit_tag_select(p, c->d, c->b, c->a, n);
		return 0;
	case ISA_SEL:
		emit_tag_select(p, c->d, c->a, c->b, n);
		return 0;
	case ISA_ABS:
		emit_abs(p, c);
		return 0;
	case ISA_NEG:
		emit_neg(p, c);
		return 0;
	default:
		return -1;
	}
}

void isa_rules_select(const isa_cmd *c, unsigned bitlines, isa_rules *r)
{
	(void)c;
	(void)bitlines;
	r->d_may_alias_a = r->d_may_alias_b = true;
}

uint64_t isa_cycles_select(const isa_cmd *c, unsigned bitlines)
{
	const unsigned n = c->width;
	isa_cmd lt;
	switch (c->op) {
	case ISA_MIN:
	case ISA_MAX:
		lt = less_into_tag(c);
		return isa_cycles_cmp(&lt, bitlines) +
		       tag_select_cycles(c->d, c->a, c->b, n);
	case ISA_SEL:
		return tag_select_cycles(c->d, c->a, c->b, n);
	case ISA_ABS:
		return c->is_signed ? n + 1u : n;
	default: /* NEG */
		return n;
	}
}
