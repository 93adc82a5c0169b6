/* SPDX-License-Identifier: MIT */
/*
 * add.c: bit-serial add and subtract (duality-cache Table 1: add n,
 * sub 2n).
 *
 * add: Neural Cache's full adder (infinity-stream Fig 1(d)).  Cycle i
 * activates a[i] and b[i]; BL is their AND, BLB their NOR, so the XOR is
 * ~BL & ~BLB.  The sum x ^ C is written to d[i] in the same cycle and the
 * carry latch becomes the majority s | (x & C).  The carry is reset at
 * bit 0.  Cycles: n.
 *
 * sub: a - b = a + ~b + 1.  Two activated cells sense symmetric functions
 * (AND, NOR), but the carry of a + ~b needs a on its own when a != b, so
 * each bit takes two cycles: first a[i] alone into the tag latch, then a[i]
 * and b[i] together with SUB: out = ~x ^ C, C' = (T & x) | (C & (T | ~x)).
 * The carry is set at bit 0.  Cycles: 2n.
 *
 * Both read bit i of every operand before writing bit i, and never read
 * bit i again, so d may be a or b.
 */
#include "isa.h"
#include "family.h"

int isa_gen_add(const isa_cmd *c, unsigned bitlines, isa_prog *p,
		 isa_ctl *ctl)
{
	(void)ctl;
	(void)bitlines;
	const unsigned n = c->width;
	for (unsigned i = 0; i < n; i++) {
		if (c->op == ISA_ADD) {
			sram_uop u = isa_u2(SRAM_FN_ADD, c->d + i, c->a + i, c->b + i);
			isa_emit(p, i ? u : isa_cpre(u, SRAM_CPRE_0));
		} else {
			isa_emit(p, isa_l1(SRAM_FN_LOADT, c->a + i));
			sram_uop u = isa_u2(SRAM_FN_SUB, c->d + i, c->a + i, c->b + i);
			isa_emit(p, i ? u : isa_cpre(u, SRAM_CPRE_1));
		}
	}
	return 0;
}

void isa_rules_add(const isa_cmd *c, unsigned bitlines, isa_rules *r)
{
	(void)c;
	(void)bitlines;
	r->d_may_alias_a = r->d_may_alias_b = true;
}

uint64_t isa_cycles_add(const isa_cmd *c, unsigned bitlines)
{
	(void)bitlines;
	return c->op == ISA_ADD ? c->width : 2u * c->width;
}
