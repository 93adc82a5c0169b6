/* SPDX-License-Identifier: MIT */
/*
 * logic.c: bitwise commands (Compute Caches; duality-cache Table 1: and,
 * or, xor take n cycles).  Cycle i activates bit i of the operands and
 * writes what the sense amplifiers give: AND on BL, NOR on BLB, and XOR as
 * neither.  One cycle per bit, read before write, so d may be a or b.
 */
#include "isa.h"
#include "family.h"

int isa_gen_logic(const isa_cmd *c, unsigned bitlines, isa_prog *p,
		 isa_ctl *ctl)
{
	(void)ctl;
	(void)bitlines;
	for (unsigned i = 0; i < c->width; i++) {
		const unsigned d = c->d + i, a = c->a + i, b = c->b + i;
		switch (c->op) {
		case ISA_AND: isa_emit(p, isa_u2(SRAM_FN_COPY, d, a, b)); break;
		case ISA_OR: isa_emit(p, isa_u2(SRAM_FN_OR, d, a, b)); break;
		case ISA_XOR: isa_emit(p, isa_u2(SRAM_FN_XOR, d, a, b)); break;
		case ISA_NOT: isa_emit(p, isa_u1(SRAM_FN_NOT, d, a)); break;
		case ISA_COPY: isa_emit(p, isa_u1(SRAM_FN_COPY, d, a)); break;
		default: return -1;
		}
	}
	return 0;
}

void isa_rules_logic(const isa_cmd *c, unsigned bitlines, isa_rules *r)
{
	(void)c;
	(void)bitlines;
	r->d_may_alias_a = r->d_may_alias_b = true;
}

uint64_t isa_cycles_logic(const isa_cmd *c, unsigned bitlines)
{
	(void)bitlines;
	return c->width;
}
