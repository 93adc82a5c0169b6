/* SPDX-License-Identifier: MIT */
/*
 * fp_host.h: host oracles for floating-point tests (doc/FLOAT.md, "How
 * the tests prove it").
 *
 * f32 runs on the host FPU: SSE with MXCSR.FTZ|DAZ set for hardware mode
 * (flags without ISA_FL_IEEE) and clear for full IEEE mode; MXCSR is
 * restored afterwards.
 *
 * f16 and bf16 have no x86 arithmetic that honours FTZ/DAZ (AVX512-FP16
 * and F16C ignore MXCSR.FTZ/DAZ, measured; there is no bf16 arithmetic),
 * so their hardware mode applies the x86 rule at the narrow format's own
 * boundaries: DAZ, a subnormal input of the format reads as the zero of
 * its sign; FTZ, a result whose rounding to the format's precision with an
 * unbounded exponent is below the smallest normal becomes the zero of its
 * sign (x86 detects tininess after rounding).
 * f16 uses AVX512-FP16 (vaddsh, vmulsh, ...) when the CPU has it and the
 * double path otherwise; bf16 always uses the double path: the exact
 * operands in double, one host operation, then one correct rounding to
 * the format (fp_host_round).  fp_host_f16_path() says which f16 path
 * runs; fp_host_force_double() picks the double path for f16 so that the
 * tests can hold the two f16 oracles to each other.
 */
#ifndef INFSIM_FP_HOST_H
#define INFSIM_FP_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "isa.h"

const char *fp_host_f16_path(void);   /* "AVX512-FP16" or "double" */
void fp_host_force_double(bool on);

/* out[i] := op(a[i], b[i], c[i]) for an F-class op: FADD FSUB FMUL FDIV
 * FMADD (mul then add, two roundings), FMA (fused, one rounding), FEQ..FGE (0/1), FMIN FMAX (the
 * rules of opcodes.def), FABS FNEG.  b and c may be NULL when op does not
 * read them.  A NaN result is whatever NaN the host made: compare with
 * fp_host_same. */
void fp_host_ops(unsigned op, unsigned fmt, unsigned flags, const uint64_t *a,
		 const uint64_t *b, const uint64_t *c, uint64_t *out, size_t n);
uint64_t fp_host_op(unsigned op, unsigned fmt, unsigned flags, uint64_t a,
		    uint64_t b, uint64_t c);
/* -1, 0, 1, or 2 when unordered, by host comparisons. */
int fp_host_cmp(unsigned fmt, unsigned flags, uint64_t a, uint64_t b);

/* A conversion (c->op == ISA_CVT) on the host: x86 conversions where the
 * x86 result is the one specified (int to f32, f16 <-> f32 by F16C), the
 * double path elsewhere. */
uint64_t fp_host_cvt(const isa_cmd *c, uint64_t a);

/* isa_fp_rsqrt's sequence (specials, the magic constant's estimate, one
 * Newton step) with every operation on the host. */
uint64_t fp_host_rsqrt(unsigned fmt, unsigned flags, uint64_t a);

/* The exact value of a format's bit pattern (flags: DAZ in hardware
 * mode), and v rounded once to the nearest format value (ties to even,
 * overflow to inf, FTZ in hardware mode), with the host's nearbyint. */
double fp_host_value(unsigned fmt, unsigned flags, uint64_t bits);
uint64_t fp_host_round(unsigned fmt, unsigned flags, double v);

/* Does the reference's result ref agree with the host's?  Equal bits, or
 * the host made some NaN and ref is the canonical quiet NaN. */
bool fp_host_same(unsigned fmt, uint64_t ref, uint64_t host);

#endif
