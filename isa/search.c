/* SPDX-License-Identifier: MIT */
/*
 * search.c: the search command, p := (a == imm) on every bitline, in two
 * cycles (duality-cache §3.1.1).
 *
 * Cycle 1 activates together every wordline of a whose bit in imm is 1:
 * BL senses their AND, which is 1 exactly where all of them hold 1; the
 * tag latch takes it (LOADT).  Cycle 2 activates every wordline whose bit
 * is 0: BLB senses their NOR, 1 exactly where all of them hold 0, and the
 * tag keeps only those (TANDZ).  T is then the hit vector.  When imm has
 * no 1 bits (or no 0 bits) only the NOR (or AND) cycle is needed, and the
 * search takes one cycle.  With p a wordline, a third cycle writes T.
 */
#include "isa.h"
#include "family.h"

int isa_gen_search(const isa_cmd *c, unsigned bitlines, isa_prog *p,
		   isa_ctl *ctl)
{
	(void)bitlines, (void)ctl;
	const uint64_t ones = c->imm & isa_mask(c->width);
	const uint64_t zeros = ~c->imm & isa_mask(c->width);
	if (ones)
		isa_emit(p, isa_uset(SRAM_FN_NONE, SRAM_NO_ROW, SRAM_FN_LOADT,
				     c->a, ones));
	if (zeros)
		isa_emit(p, isa_uset(SRAM_FN_NONE, SRAM_NO_ROW,
				     ones ? SRAM_FN_TANDZ : SRAM_FN_LOADTN,
				     c->a, zeros));
	if (c->d != ISA_TAG)
		isa_emit(p, isa_w0(SRAM_FN_WRT, c->d));
	return 0;
}

void isa_rules_search(const isa_cmd *c, unsigned bitlines, isa_rules *r)
{
	(void)bitlines;
	r->d_rows = 1;
	r->tag_dest_ok = true;
	r->d_may_alias_a = false;
	r->max_imm = isa_mask(c->width);
}

uint64_t isa_cycles_search(const isa_cmd *c, unsigned bitlines)
{
	(void)bitlines;
	const uint64_t m = isa_mask(c->width), v = c->imm & m;
	const uint64_t reads = (v != 0) + (v != m);
	return reads + (c->d != ISA_TAG);
}
