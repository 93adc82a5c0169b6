/* SPDX-License-Identifier: MIT */
/*
 * ref_fp.h: f32 add, sub, mul, div and madd for the reference model on
 * the host's FPU (prefix emu_ref_fp_).  Not installed.
 *
 * doc/COMMANDS.md and doc/FLOAT.md define these commands as IEEE binary32
 * rounded to nearest even; hardware mode (machine fp=ftz) as x86 SSE with
 * MXCSR.DAZ and FTZ set, full IEEE mode (fp=ieee) with both clear; every
 * NaN result the canonical quiet NaN.  On an x86-64 host whose float
 * arithmetic is SSE, that is what one SSE operation gives, once its NaN
 * is made canonical: these run there, with MXCSR set for the command's
 * mode and restored after.  On any other host, and for every other
 * command or format, they run isa_ref_fp (isa/fpref.c), the soft-float
 * reference, element by element.  tests/test_refcheck.c holds the two
 * to each other over every class of operand (tests/fp_cases.h).
 */
#ifndef INFSIM_REF_FP_H
#define INFSIM_REF_FP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "isa.h"

/* Does emu_ref_fp_run compute command c on the host's FPU? */
bool emu_ref_fp_host(const isa_cmd *c);
/* d[i] := c's result for operands a[i], b[i], c3[i] (i < n), the low 32
 * bits of each; b and c3 may be NULL when c does not read them.  The
 * same bits as isa_ref_fp, on the host's FPU when emu_ref_fp_host(c). */
void emu_ref_fp_run(const isa_cmd *c, const uint64_t *a, const uint64_t *b,
		    const uint64_t *c3, uint64_t *d, size_t n);

#endif
