/* fpref.c: IN PROGRESS (placeholder). */
#include "isa.h"
uint64_t isa_fp_add(unsigned fmt, unsigned flags, uint64_t a, uint64_t b) { (void)fmt, (void)flags, (void)a, (void)b; return 0; }
uint64_t isa_fp_sub(unsigned fmt, unsigned flags, uint64_t a, uint64_t b) { (void)fmt, (void)flags, (void)a, (void)b; return 0; }
uint64_t isa_fp_mul(unsigned fmt, unsigned flags, uint64_t a, uint64_t b) { (void)fmt, (void)flags, (void)a, (void)b; return 0; }
uint64_t isa_fp_div(unsigned fmt, unsigned flags, uint64_t a, uint64_t b) { (void)fmt, (void)flags, (void)a, (void)b; return 0; }
uint64_t isa_fp_madd(unsigned fmt, unsigned flags, uint64_t a, uint64_t b, uint64_t c) { (void)fmt, (void)flags, (void)a, (void)b, (void)c; return 0; }
int isa_fp_cmp(unsigned fmt, unsigned flags, uint64_t a, uint64_t b) { (void)fmt, (void)flags, (void)a, (void)b; return 0; }
uint64_t isa_fp_min(unsigned fmt, unsigned flags, uint64_t a, uint64_t b) { (void)fmt, (void)flags, (void)a, (void)b; return 0; }
uint64_t isa_fp_max(unsigned fmt, unsigned flags, uint64_t a, uint64_t b) { (void)fmt, (void)flags, (void)a, (void)b; return 0; }
uint64_t isa_fp_rsqrt(unsigned fmt, unsigned flags, uint64_t a) { (void)fmt, (void)flags, (void)a; return 0; }
uint64_t isa_fp_nan(unsigned fmt) { (void)fmt; return 0; }
uint64_t isa_fp_cvt(const isa_cmd *c, uint64_t a) { (void)c, (void)a; return 0; }
double isa_fp_to_double(unsigned fmt, uint64_t bits) { (void)fmt, (void)bits; return 0; }
uint64_t isa_fp_from_double(unsigned fmt, unsigned flags, double v) { (void)fmt, (void)flags, (void)v; return 0; }
uint64_t isa_ref_fp(const isa_cmd *c, uint64_t a, uint64_t b, uint64_t c3, bool *tag_out) { (void)c, (void)a, (void)b, (void)c3, (void)tag_out; return 0; }
