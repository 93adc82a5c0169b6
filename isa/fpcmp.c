/* SPDX-License-Identifier: MIT */
/*
 * fpcmp.c: floating-point eq, ne, lt, le, gt, ge, min, max, abs, neg.
 *
 * An IEEE value is sign-magnitude: below the sign bit, the exponent and
 * the fraction together order the magnitudes as an unsigned integer of
 * w - 1 bits (w the width, e exponent bits, m fraction bits; bits LSB
 * first, isa.h).  So every comparison is one integer comparison chain
 * (cmp.c) plus three per-bitline class flags, each found by a search-like
 * many-wordline read (duality-cache §3.1.1: up to 64 wordlines activated
 * together sense their AND on BL and their NOR on BLB):
 *
 *   NaN(x)  = exponent all ones AND fraction not all zero:
 *             LOADTOR over x's fraction (T = OR), TANDS over its exponent
 *   U       = NaN(a) | NaN(b) (unordered), into scratch row U:
 *             NaN(a); WRT U; NaN(b); TORS U; WRT U             7 cycles
 *   Z       = both are zeros: LOADTN over a's rows, TANDZ over b's;
 *             WRT Z                                            3 cycles
 *             The rows are the magnitude's w - 1 rows in IEEE mode, and
 *             only the exponent's e rows in hardware mode, where a
 *             subnormal input reads as zero (x86 DAZ).  Z makes -0 == +0.
 *
 * The order chain.  Map each value to the unsigned key that orders the
 * reals with -0 < +0: key(x) = x ^ sign bit if x >= 0, else ~x.  The
 * borrow chain of key(x) - key(y) (cmp.c: LOADT, then SUBC per bit) needs
 * T = key_x[i] and the XOR key_x[i] ^ key_y[i].  Below the sign bit:
 * where the signs agree, that XOR is x[i] ^ y[i], what two activated
 * cells sense, and T = x[i] ^ sx is one LOADTX of x[i] and sx; where the
 * signs differ, the sign bit alone decides and the low bits do not
 * matter.  At the sign bit, key_x = ~sx: LOADTN sx.  So
 *   C := x >= y (total order, -0 < +0)                          2w cycles
 * the same cost as the signed integer chain, with C preset to 1.
 * Equality needs no order: CANDNX over all w bit pairs, C preset to 1,
 * w cycles (cmp.c).
 *
 * Predicates (R the chain's C; x, y = a, b or b, a):
 *   ge, le = !U & (Z | R)       TFROMC; TORNZ Z; TANDZ U       3 cycles
 *   eq     = !U & (Z | R)       the same, R the equality chain
 *   ne     = U | (!Z & !R)      TFROMNC; TANDZ Z; TORS U       3 cycles
 *   lt, gt = !U & !Z & !R       TFROMNC; TANDZ Z, U            2 cycles
 * In hardware mode the raw order already ranks a subnormal correctly
 * against every non-zero normal; only a pair of zero-exponent values is
 * wrong, and Z covers it.  p is the tag latch, or a 1-bit wordline (one
 * more cycle: WRT p).  Cycles:
 *   eq, ne:            7 + 3 + w + 3 (+1 for a wordline p)
 *   ge, le:            7 + 3 + 2w + 3 (+1)
 *   lt, gt:            7 + 3 + 2w + 2 (+1)
 *
 * min, max.  T := a >= b by the order chain (TFROMC after it), then
 * min = T ? b : a and max = T ? a : b, two copies per bit gated ET / ENT
 * (select.c).  Ties pick bit-identical values, and -0 < +0 comes from
 * the key order.  Hardware mode returns a subnormal input as zero of its
 * sign; since that flush is monotone, flushing the selected value is the
 * same as selecting among flushed values.  Both the flush and the
 * canonical NaN (sign 0, exponent all ones, fraction 100..0) where U are
 * folded into the copies: each copy activates the source bit with a mask
 * row and writes their AND (COPY: sign and fraction bits, mask ~U, or
 * F_x = (exponent of x != 0) & ~U in hardware mode) or their OR (OR: the
 * exponent bits and the top fraction bit, with U).  In hardware mode the
 * top fraction bit ORs U with t_x = x[m-1] & F_x, made beforehand.
 *   U 7; NOT U -> ~U 1; [hardware: F_a, F_b 3 each, t_a, t_b 1 each];
 *   chain 2w; TFROMC 1; copies 2w:
 *   IEEE 4w + 9, hardware 4w + 17 cycles.
 *
 * abs, neg: the sign bit only, no flushing, NaNs kept (IEEE abs and
 * negate): copy the w - 1 low bits (none when d == a), then ZERO the
 * sign (abs) or write NOT of it (neg).  w, or 1 when d == a.
 *
 * Scratch: 2 rows (compare), 2 (min/max IEEE) or 6 (hardware).  T and C
 * are clobbered, except by abs and neg.  Aliasing: every command reads
 * all of bit i of a and b before it writes bit i of d, and the class
 * flags and the chain come before any write, so d may be a or b (p may
 * be any row of a or b: it is written last).
 */
#include "isa.h"
#include "family.h"

/* Where an operand's fields are, and the rows of its zero test. */
struct fp_rows {
	unsigned frac, exp, sign;  /* first row of each field */
	unsigned w, e, m;
};

static struct fp_rows fp_rows_of(const isa_fpfmt *ff, unsigned base)
{
	return (struct fp_rows){base, base + ff->mbits, base + ff->width - 1,
				ff->width, ff->ebits, ff->mbits};
}

/* T := NaN(x): some fraction bit set, every exponent bit set. */
static void emit_nan_into_tag(isa_prog *p, struct fp_rows x)
{
	isa_emit(p, isa_uset(SRAM_FN_NONE, SRAM_NO_ROW, SRAM_FN_LOADTOR,
			     x.frac, isa_mask(x.m)));
	isa_emit(p, isa_uset(SRAM_FN_NONE, SRAM_NO_ROW, SRAM_FN_TANDS,
			     x.exp, isa_mask(x.e)));
}

/* Row u := NaN(a) | NaN(b).  7 cycles; T is left holding U. */
static void emit_unordered(isa_prog *p, struct fp_rows a, struct fp_rows b,
			   unsigned u)
{
	emit_nan_into_tag(p, a);
	isa_emit(p, isa_w0(SRAM_FN_WRT, u));
	emit_nan_into_tag(p, b);
	isa_emit(p, isa_l1(SRAM_FN_TORS, u));
	isa_emit(p, isa_w0(SRAM_FN_WRT, u));
}

/* Row z := a and b are both zeros (hardware mode: both exponents zero).
 * 3 cycles. */
static void emit_both_zero(isa_prog *p, struct fp_rows a, struct fp_rows b,
			   bool ieee, unsigned z)
{
	const unsigned rows = ieee ? a.w - 1 : a.e;
	isa_emit(p, isa_uset(SRAM_FN_NONE, SRAM_NO_ROW, SRAM_FN_LOADTN,
			     ieee ? a.frac : a.exp, isa_mask(rows)));
	isa_emit(p, isa_uset(SRAM_FN_NONE, SRAM_NO_ROW, SRAM_FN_TANDZ,
			     ieee ? b.frac : b.exp, isa_mask(rows)));
	isa_emit(p, isa_w0(SRAM_FN_WRT, z));
}

/* C := x >= y in the total order with -0 < +0 (NaNs aside).  2w cycles. */
static void emit_order_chain(isa_prog *p, struct fp_rows x, struct fp_rows y)
{
	for (unsigned i = 0; i + 1 < x.w; i++) {
		isa_emit(p, isa_l2(SRAM_FN_LOADTX, x.frac + i, x.sign));
		sram_uop u = isa_l2(SRAM_FN_SUBC, x.frac + i, y.frac + i);
		isa_emit(p, i ? u : isa_cpre(u, SRAM_CPRE_1));
	}
	isa_emit(p, isa_l1(SRAM_FN_LOADTN, x.sign));
	isa_emit(p, isa_l2(SRAM_FN_SUBC, x.sign, y.sign));
}

/* C := every bit of x equals y's.  w cycles. */
static void emit_equal_chain(isa_prog *p, struct fp_rows x, struct fp_rows y)
{
	for (unsigned i = 0; i < x.w; i++) {
		sram_uop u = isa_l2(SRAM_FN_CANDNX, x.frac + i, y.frac + i);
		isa_emit(p, i ? u : isa_cpre(u, SRAM_CPRE_1));
	}
}

/* Scratch rows: a compare's U and Z; min and max's U, ~U, F_a, F_b, t_a
 * and t_b (the last four in hardware mode only). */
enum { ROW_U, ROW_Z, ROW_NOTU = 1, ROW_FA, ROW_FB, ROW_TA, ROW_TB };

static bool swaps_operands(unsigned op)
{
	return op == ISA_FLE || op == ISA_FGT;
}

static void emit_compare(isa_prog *p, const isa_cmd *c, const isa_fpfmt *ff)
{
	struct fp_rows a = fp_rows_of(ff, c->a), b = fp_rows_of(ff, c->b);
	const unsigned u = c->scratch + ROW_U, z = c->scratch + ROW_Z;
	emit_unordered(p, a, b, u);
	emit_both_zero(p, a, b, c->flags & ISA_FL_IEEE, z);
	if (c->op == ISA_FEQ || c->op == ISA_FNE)
		emit_equal_chain(p, a, b);
	else if (swaps_operands(c->op))
		emit_order_chain(p, b, a);
	else
		emit_order_chain(p, a, b);
	switch (c->op) {
	case ISA_FNE:
		isa_emit(p, isa_l0(SRAM_FN_TFROMNC));
		isa_emit(p, isa_l1(SRAM_FN_TANDZ, z));
		isa_emit(p, isa_l1(SRAM_FN_TORS, u));
		break;
	case ISA_FLT: case ISA_FGT:
		isa_emit(p, isa_l0(SRAM_FN_TFROMNC));
		isa_emit(p, isa_l2(SRAM_FN_TANDZ, z, u));
		break;
	default: /* FEQ, FGE, FLE */
		isa_emit(p, isa_l0(SRAM_FN_TFROMC));
		isa_emit(p, isa_l1(SRAM_FN_TORNZ, z));
		isa_emit(p, isa_l1(SRAM_FN_TANDZ, u));
		break;
	}
	if (c->d != ISA_TAG)
		isa_emit(p, isa_w0(SRAM_FN_WRT, c->d));
}

/* Hardware mode: row f := (exponent of x != 0) & ~U, and row t := the top
 * fraction bit of x flushed by f.  4 cycles. */
static void emit_flush_masks(isa_prog *p, struct fp_rows x, unsigned u,
			     unsigned f, unsigned t)
{
	isa_emit(p, isa_uset(SRAM_FN_NONE, SRAM_NO_ROW, SRAM_FN_LOADTOR,
			     x.exp, isa_mask(x.e)));
	isa_emit(p, isa_l1(SRAM_FN_TANDZ, u));
	isa_emit(p, isa_w0(SRAM_FN_WRT, f));
	isa_emit(p, isa_u2(SRAM_FN_COPY, t, x.frac + x.m - 1, f));
}

/* d[i] := bit i of x, flushed and replaced by the canonical NaN where U,
 * on the bitlines the gate selects.  s: the scratch rows. */
static void emit_masked_copy(isa_prog *p, unsigned d, struct fp_rows x,
			     unsigned i, bool hw, bool is_a, unsigned s,
			     unsigned gate)
{
	const unsigned u = s + ROW_U, notu = s + ROW_NOTU;
	const unsigned f = s + (is_a ? ROW_FA : ROW_FB);
	const unsigned t = s + (is_a ? ROW_TA : ROW_TB);
	sram_uop op;
	if (i == x.w - 1)
		op = isa_u2(SRAM_FN_COPY, d + i, x.frac + i, notu);
	else if (i >= x.m)
		op = isa_u2(SRAM_FN_OR, d + i, x.frac + i, u);
	else if (i == x.m - 1)
		op = isa_u2(SRAM_FN_OR, d + i, hw ? t : x.frac + i, u);
	else
		op = isa_u2(SRAM_FN_COPY, d + i, x.frac + i, hw ? f : notu);
	isa_emit(p, isa_gate(op, gate));
}

static void emit_minmax(isa_prog *p, const isa_cmd *c, const isa_fpfmt *ff)
{
	struct fp_rows a = fp_rows_of(ff, c->a), b = fp_rows_of(ff, c->b);
	const unsigned s = c->scratch, u = s + ROW_U;
	const bool hw = !(c->flags & ISA_FL_IEEE);
	emit_unordered(p, a, b, u);
	isa_emit(p, isa_u1(SRAM_FN_NOT, s + ROW_NOTU, u));
	if (hw) {
		emit_flush_masks(p, a, u, s + ROW_FA, s + ROW_TA);
		emit_flush_masks(p, b, u, s + ROW_FB, s + ROW_TB);
	}
	emit_order_chain(p, a, b);
	isa_emit(p, isa_l0(SRAM_FN_TFROMC));
	/* T = a >= b: min takes b where T, max takes a. */
	const bool b_on_t = c->op == ISA_FMIN;
	for (unsigned i = 0; i < a.w; i++) {
		emit_masked_copy(p, c->d, b_on_t ? b : a, i, hw, !b_on_t, s,
				 SRAM_GATE_ET);
		emit_masked_copy(p, c->d, b_on_t ? a : b, i, hw, b_on_t, s,
				 SRAM_GATE_ENT);
	}
}

static void emit_sign_op(isa_prog *p, const isa_cmd *c, const isa_fpfmt *ff)
{
	const unsigned top = ff->width - 1;
	if (c->d != c->a)
		for (unsigned i = 0; i < top; i++)
			isa_emit(p, isa_u1(SRAM_FN_COPY, c->d + i, c->a + i));
	if (c->op == ISA_FABS)
		isa_emit(p, isa_w0(SRAM_FN_ZERO, c->d + top));
	else
		isa_emit(p, isa_u1(SRAM_FN_NOT, c->d + top, c->a + top));
}

static bool is_predicate(unsigned op)
{
	switch (op) {
	case ISA_FEQ: case ISA_FNE: case ISA_FLT:
	case ISA_FLE: case ISA_FGT: case ISA_FGE:
		return true;
	default:
		return false;
	}
}

int isa_gen_fpcmp(const isa_cmd *c, unsigned bitlines, isa_prog *p,
		  isa_ctl *ctl)
{
	(void)bitlines, (void)ctl;
	const isa_fpfmt *ff = isa_fpfmt_of(c->fmt);
	if (!ff || c->width != ff->width)
		return -1;
	if (is_predicate(c->op)) {
		emit_compare(p, c, ff);
		return 0;
	}
	switch (c->op) {
	case ISA_FMIN: case ISA_FMAX:
		emit_minmax(p, c, ff);
		return 0;
	case ISA_FABS: case ISA_FNEG:
		emit_sign_op(p, c, ff);
		return 0;
	default:
		return -1;
	}
}

void isa_rules_fpcmp(const isa_cmd *c, unsigned bitlines, isa_rules *r)
{
	(void)bitlines;
	const isa_fpfmt *ff = isa_fpfmt_of(c->fmt);
	if (ff)
		r->min_width = r->max_width = ff->width;
	r->d_may_alias_a = r->d_may_alias_b = true;
	if (is_predicate(c->op)) {
		r->d_rows = 1;
		r->tag_dest_ok = true;
		r->scratch_rows = 2;
	} else if (c->op == ISA_FMIN || c->op == ISA_FMAX) {
		r->scratch_rows = c->flags & ISA_FL_IEEE ? 2 : 6;
	}
}

uint64_t isa_cycles_fpcmp(const isa_cmd *c, unsigned bitlines)
{
	(void)bitlines;
	const uint64_t w = c->width;
	switch (c->op) {
	case ISA_FEQ: case ISA_FNE:
		return 7 + 3 + w + 3 + (c->d != ISA_TAG);
	case ISA_FGE: case ISA_FLE:
		return 7 + 3 + 2 * w + 3 + (c->d != ISA_TAG);
	case ISA_FLT: case ISA_FGT:
		return 7 + 3 + 2 * w + 2 + (c->d != ISA_TAG);
	case ISA_FMIN: case ISA_FMAX:
		return 4 * w + (c->flags & ISA_FL_IEEE ? 9 : 17);
	default: /* FABS, FNEG */
		return c->d == c->a ? 1 : w;
	}
}
