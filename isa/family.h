/* SPDX-License-Identifier: MIT */
/*
 * family.h: the three functions of every operation family (prefix isa_),
 * declared from families.def: what isa.c's dispatch calls and each
 * isa/<family>.c defines.  Private to isa/ (and the tests that build one
 * family's micro-program directly); the API is isa_build (isa.h).
 */
#ifndef INFSIM_ISA_FAMILY_H
#define INFSIM_ISA_FAMILY_H

#include "isa.h"

/* ---- family builders (isa/<family>.c) ----
 * isa_gen_<family>(c, bitlines, p, ctl), isa_rules_<family>(c, bitlines,
 * r) and isa_cycles_<family>(c, bitlines), declared from opcodes.def. */
#define ISA_FAMILY_(fam)                                                 \
	int isa_gen_##fam(const isa_cmd *c, unsigned bitlines, isa_prog *p, \
			  isa_ctl *ctl);                                    \
	void isa_rules_##fam(const isa_cmd *c, unsigned bitlines,          \
			     isa_rules *r);                                  \
	uint64_t isa_cycles_##fam(const isa_cmd *c, unsigned bitlines);
#include "families.def"
#undef ISA_FAMILY_

#endif
