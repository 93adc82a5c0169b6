/* cmp.c: placeholder during bring-up; replaced by the real family. */
#include "isa.h"
int isa_gen_cmp(const isa_cmd *c, unsigned bitlines, isa_prog *p) { (void)c; (void)bitlines; (void)p; return -1; }
void isa_rules_cmp(const isa_cmd *c, unsigned bitlines, isa_rules *r) { (void)c; (void)bitlines; (void)r; }
uint64_t isa_cycles_cmp(const isa_cmd *c, unsigned bitlines) { (void)c; (void)bitlines; return 0; }
