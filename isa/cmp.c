/* SPDX-License-Identifier: MIT */
/*
 * cmp.c: the comparisons eq, ne, lt, le, gt, ge, signed and unsigned.
 *
 * A comparison ends in a predicate, one bit per bitline.  Its natural home
 * is the tag latch, which gates later writes: duality-cache §3.3 handles
 * all control flow by predication on these per-bitline bits.  So p is
 * either the tag latch (d == ISA_TAG) or a 1-bit wordline.
 *
 * Every chain below leaves its answer in the carry latch C, and a last
 * cycle moves it to where p lives:
 *   p = tag:      TFROMC (T' = C) or TFROMNC (T' = ~C)          1 cycle
 *   p = wordline: WRC p (out = C), then NOT p -> p if negated   1 or 2
 *
 * Equality (the "compare" of Compute Caches, duality-cache §2.1).  Two
 * activated cells sense AND on BL and NOR on BLB; they differ exactly when
 * neither is set (x).  Preset C = 1 and clear it wherever a bit pair
 * differs: CANDNX a[i], b[i] (C' = C & ~x).  n cycles; C = (a == b).
 *
 * Order.  x >= y exactly when x - y = x + ~y + 1 does not borrow, i.e. the
 * carry out of x + ~y + 1 is 1.  That carry is the carry of sub (add.c,
 * duality-cache Table 1: sub in 2n cycles) without its sum: per bit,
 * LOADT x[i] (T' = x[i]), then SUBC x[i], y[i]:
 *   C' = (T & x) | (C & (T | ~x))
 * where x is the XOR of the two cells: if the bits differ the carry is
 * x[i] itself, if they agree it passes through.  C is preset to 1 at bit 0.
 * 2n cycles; C = (x >= y), unsigned.
 * Signed: flipping the sign bit of both operands maps two's complement
 * order onto unsigned order.  Flipping both leaves their XOR alone, and
 * where they differ ~x[n-1] = y[n-1]; so at the sign bit the chain loads
 * T from y instead of x ("swap the roles"), at no extra cost.
 *   lt = ~(a >= b)   ge = (a >= b)   le = (b >= a)   gt = ~(b >= a)
 *
 * Cycles (isa_cycles_cmp):
 *   eq, ne:          n + 1 (tag, or eq to a wordline); n + 2 (ne to a wordline)
 *   lt, le, gt, ge:  2n + 1 (tag, or ge/le to a wordline); 2n + 2 (lt/gt)
 *
 * The tag latch: the order chains use T as the stash of x[i], so they
 * destroy it even when p is a wordline.  Equality never touches T, so
 * eq and ne to a wordline preserve it.  C is always clobbered.
 *
 * Aliasing: p is written in the last one or two cycles, after every bit
 * of a and b has been read, so p may be a[0] or b[0].
 */
#include "isa.h"
#include "family.h"

/* Which chain computes the predicate, on which operands, and whether the
 * predicate is the chain's C or its complement. */
struct cmp_plan {
	bool order;       /* x >= y chain; else the equality chain */
	unsigned x, y;    /* operand bases of the chain */
	bool negate;      /* p = ~C */
};

static struct cmp_plan cmp_plan_of(const isa_cmd *c)
{
	struct cmp_plan pl = {true, c->a, c->b, false};
	switch (c->op) {
	case ISA_EQ: pl.order = false; break;
	case ISA_NE: pl.order = false; pl.negate = true; break;
	case ISA_GE: break;
	case ISA_LT: pl.negate = true; break;
	case ISA_LE: pl.x = c->b; pl.y = c->a; break;
	default: /* GT */ pl.x = c->b; pl.y = c->a; pl.negate = true; break;
	}
	return pl;
}

/* C := (a == b) over n bits. */
static void emit_equal(isa_prog *p, unsigned a, unsigned b, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		sram_uop u = isa_l2(SRAM_FN_CANDNX, a + i, b + i);
		isa_emit(p, i ? u : isa_cpre(u, SRAM_CPRE_1));
	}
}

/* C := (x >= y) over n bits, the borrow chain of x - y. */
static void emit_no_borrow(isa_prog *p, unsigned x, unsigned y, unsigned n,
			   bool is_signed)
{
	for (unsigned i = 0; i < n; i++) {
		const bool sign_bit = is_signed && i == n - 1;
		isa_emit(p, isa_l1(SRAM_FN_LOADT, sign_bit ? y + i : x + i));
		sram_uop u = isa_l2(SRAM_FN_SUBC, x + i, y + i);
		isa_emit(p, i ? u : isa_cpre(u, SRAM_CPRE_1));
	}
}

int isa_gen_cmp(const isa_cmd *c, unsigned bitlines, isa_prog *p,
		 isa_ctl *ctl)
{
	(void)ctl;
	(void)bitlines;
	const struct cmp_plan pl = cmp_plan_of(c);
	if (pl.order)
		emit_no_borrow(p, pl.x, pl.y, c->width, c->is_signed);
	else
		emit_equal(p, pl.x, pl.y, c->width);
	if (c->d == ISA_TAG) {
		isa_emit(p, isa_l0(pl.negate ? SRAM_FN_TFROMNC : SRAM_FN_TFROMC));
	} else {
		isa_emit(p, isa_w0(SRAM_FN_WRC, c->d));
		if (pl.negate)
			isa_emit(p, isa_u1(SRAM_FN_NOT, c->d, c->d));
	}
	return 0;
}

void isa_rules_cmp(const isa_cmd *c, unsigned bitlines, isa_rules *r)
{
	(void)c;
	(void)bitlines;
	r->d_rows = 1;
	r->tag_dest_ok = true;
	r->d_may_alias_a = r->d_may_alias_b = true;
}

uint64_t isa_cycles_cmp(const isa_cmd *c, unsigned bitlines)
{
	(void)bitlines;
	const struct cmp_plan pl = cmp_plan_of(c);
	const uint64_t chain = pl.order ? 2u * c->width : c->width;
	const uint64_t out = c->d == ISA_TAG ? 1 : 1u + pl.negate;
	return chain + out;
}
