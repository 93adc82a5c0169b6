/* cordic_ref.c: IN PROGRESS (placeholder). */
#include "isa.h"
uint64_t isa_ref_cordic(const isa_cmd *c, uint64_t a) { (void)c, (void)a; return 0; }
double isa_fix_to_double(unsigned width, uint64_t bits) { (void)width, (void)bits; return 0; }
uint64_t isa_fix_from_double(unsigned width, double v) { (void)width, (void)v; return 0; }
