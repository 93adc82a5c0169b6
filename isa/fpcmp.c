/* fpcmp.c: IN PROGRESS (placeholder while the family is written; isa_build fails). */
#include "isa.h"

int isa_gen_fpcmp(const isa_cmd *c, unsigned bitlines, isa_prog *p, isa_ctl *ctl)
{
	(void)c, (void)bitlines, (void)p, (void)ctl;
	return -1;
}

void isa_rules_fpcmp(const isa_cmd *c, unsigned bitlines, isa_rules *r)
{
	(void)c, (void)bitlines, (void)r;
}

uint64_t isa_cycles_fpcmp(const isa_cmd *c, unsigned bitlines)
{
	(void)c, (void)bitlines;
	return 0;
}
