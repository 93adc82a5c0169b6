/* SPDX-License-Identifier: MIT */
/*
 * set.c: d := imm on every enabled bitline.
 *
 * The constant is the same for every element, so nothing is sensed: bit i
 * of the immediate selects the write function of cycle i, ONE or ZERO,
 * and the write driver puts it on every enabled bitline at once (the
 * zeroing primitive of Compute Caches, duality-cache §2.1, generalised to
 * ones; infinity-stream §5.2 broadcasts a command's constant operands to
 * the bitlines before it computes).  Cycles: n.  The latches are
 * untouched.
 *
 * imm is an n-bit pattern (isa.h); a larger value is refused by isa_check
 * through max_imm rather than silently truncated.
 */
#include "isa.h"
#include "family.h"

int isa_gen_set(const isa_cmd *c, unsigned bitlines, isa_prog *p,
		 isa_ctl *ctl)
{
	(void)ctl;
	(void)bitlines;
	for (unsigned i = 0; i < c->width; i++) {
		const bool one = (c->imm >> i) & 1;
		isa_emit(p, isa_w0(one ? SRAM_FN_ONE : SRAM_FN_ZERO, c->d + i));
	}
	return 0;
}

void isa_rules_set(const isa_cmd *c, unsigned bitlines, isa_rules *r)
{
	(void)bitlines;
	r->max_imm = isa_mask(c->width);
}

uint64_t isa_cycles_set(const isa_cmd *c, unsigned bitlines)
{
	(void)bitlines;
	return c->width;
}
