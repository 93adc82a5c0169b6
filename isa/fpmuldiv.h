/* SPDX-License-Identifier: MIT */
/*
 * fpmuldiv.h: the steps that fp mul (isa/fpmul.c) and fp div
 * (isa/fpdiv.c) share, around their significand multiply or divide
 * (prefix isa_fpmd_; defined in fpmul.c, built on fpcore.h).
 *
 * Both are "an exponent add or subtract plus a mantissa integer multiply
 * or divide" (duality-cache §3.1.1, last paragraphs): each operand is
 * unpacked into a significand whose top bit is set (or which is zero) and
 * an exponent; the integer core leaves a result whose top bit is at one
 * of two places; the tail moves it to the lower place, adds the bias
 * constant to the exponent, and rounds and packs (isa_fpc_round_pack).
 */
#ifndef INFSIM_FPMULDIV_H
#define INFSIM_FPMULDIV_H

#include "fpcore.h"

/* The rows of one unpacked operand. */
typedef struct isa_fpmd_operand {
	unsigned h, zero, inf, nan; /* class rows (isa_fpc_classify) */
	unsigned sig;               /* p rows: the significand */
	unsigned e;                 /* ew rows: the exponent, two's complement */
} isa_fpmd_operand;

/* The width of the exponents: room for overflow and underflow. */
static inline unsigned isa_fpmd_ew(const isa_fpc_fmt *f)
{
	return f->e + 2;
}

/* Classify the operand at src and unpack it into o->sig and o->e.  IEEE
 * mode normalises a subnormal (leading-zero search, exponent minus the
 * shift); with ctl, an operand with no subnormal on any bitline skips it
 * (a zero significand then keeps its exponent, which changes no result:
 * the packer makes every zero significand a zero).  Scratch: tmp rows
 * (isa_fpmd_unpack_scratch), T and C clobbered. */
void isa_fpmd_unpack(isa_prog *p, isa_ctl *ctl, const isa_fpc_fmt *f,
		     unsigned src, const isa_fpmd_operand *o, unsigned tmp);
unsigned isa_fpmd_unpack_scratch(const isa_fpc_fmt *f);
uint64_t isa_fpmd_unpack_cycles(const isa_fpc_fmt *f);

/* With a controller (else 0): how many bottom rows of a[0..n) (and of
 * b[0..n), unless b is ISA_NONE) are 0 on every bitline, found by one
 * search from the bottom per row, up to the first row that is not.  T
 * clobbered. */
unsigned isa_fpmd_low_zeros(isa_prog *p, isa_ctl *ctl, unsigned a, unsigned b,
			    unsigned n);

/* P[0..2n) := ma[0..n) * mb[0..n), unsigned, with mb = P + n: the
 * multiplier's rows are the product's high half (isa/fpmul.c's header
 * tells how), so P's high half must hold mb before and ma stays.  With a
 * controller, the steps of mb's bits that are 0 on every bitline and the
 * bottom rows of ma that are 0 everywhere are skipped.  n^2 + 2n - 1
 * cycles (isa_fpmd_product_cycles); T and C clobbered. */
void isa_fpmd_product(isa_prog *p, isa_ctl *ctl, unsigned ma, unsigned P,
		      unsigned n);
uint64_t isa_fpmd_product_cycles(unsigned n);

/* The tail: band[0..p+3) is a sticky row, then the result's p + 2 bits
 * and one more row on top; the result's top bit is band[p+2] or
 * band[p+1].  em1 (ew rows) holds the exponent sum or difference.  Then:
 *   em1 += k + band[p+2] (one pass with the top row as the carry in);
 *   shift band right by band[p+2] with sticky (the top bit to band[p+1]);
 *   round and pack band[0..p+2) with em1 into d (isa_fpc_round_pack),
 *   with the sign, inf and nan rows.
 * one is a scratch row (a constant 1), tmp isa_fpc_pack_scratch rows. */
typedef struct isa_fpmd_tail {
	unsigned band, em1;
	uint64_t k;                 /* ew-bit two's complement constant */
	unsigned sign, inf, nan, one;
} isa_fpmd_tail;
void isa_fpmd_finish(isa_prog *p, isa_ctl *ctl, const isa_fpc_fmt *f,
		     const isa_fpmd_tail *t, unsigned d, unsigned tmp);
unsigned isa_fpmd_finish_scratch(const isa_fpc_fmt *f);
uint64_t isa_fpmd_finish_cycles(const isa_fpc_fmt *f);

/* The rows t->sign, t->inf and t->nan: sign := sa ^ sb, and by IEEE 754
 *   mul: inf := ia | ib;  nan := na | nb | (ia & zb) | (za & ib)
 *   div: inf := ia | zb;  nan := na | nb | (za & zb) | (ia & ib)
 * (x / 0 = inf, 0 * inf = 0 / 0 = inf / inf = NaN).  A result that is
 * zero (0 * x, 0 / x, x / inf) needs no row: its significand is zero
 * (for x / inf, fpdiv.c clears ma), which the packer turns into a signed
 * zero.  6 cycles. */
void isa_fpmd_specials(isa_prog *p, bool div, unsigned sa, unsigned sb,
		       const isa_fpmd_operand *a, const isa_fpmd_operand *b,
		       const isa_fpmd_tail *t);

/* The rows both layouts take from the scratch: the class rows of a and
 * b, first; then the exponents a->e, b->e (t->em1 is a->e) and the
 * tail's sign, inf, nan and one; and the packer's scratch: at base when
 * the rows from base to dead_end are enough (they are dead when the
 * packer runs), else fresh rows. */
void isa_fpmd_take_class(isa_fpc_rows *r, isa_fpmd_operand *a,
			 isa_fpmd_operand *b);
void isa_fpmd_take_tail(isa_fpc_rows *r, const isa_fpc_fmt *f,
			isa_fpmd_operand *a, isa_fpmd_operand *b,
			isa_fpmd_tail *t);
unsigned isa_fpmd_take_pack(isa_fpc_rows *r, const isa_fpc_fmt *f,
			    unsigned base, unsigned dead_end);

#endif
