/* SPDX-License-Identifier: MIT */
/*
 * fp_cases.h: operand pairs for floating-point tests, over every class.
 *
 * fp_cases(fmt, seed, a, b, count) fills a[0..count) and b[0..count)
 * with bit patterns of the float format fmt (ISA_FMT_F32, ISA_FMT_F16,
 * ISA_FMT_BF16).  The same (fmt, seed, count) always gives the same
 * pairs.  Each pair is drawn from one of these kinds (about equally
 * often; see fp_cases.c for the exact mix):
 *   - random bits for both (NaNs, infinities and subnormals included);
 *   - an edge value against a random value, and edge against edge:
 *     +-0, the smallest and largest subnormal, a random subnormal, the
 *     smallest and largest normal, +-inf, the canonical quiet NaN, a quiet
 *     NaN with a payload, a signalling NaN, 1, 1.5, 2, 1 + ulp, 1 - ulp/2;
 *   - nearby exponents (|ea - eb| <= mbits + 3): alignment and sticky bits
 *     of add/sub;
 *   - cancellation: b = -a moved by a few ulps (and a == -b, a == b);
 *   - add ties: b is an odd multiple of half an ulp of a;
 *   - sparse significands (1 to 3 bits set): exact products and mul/div
 *     ties;
 *   - overflow: exponents whose sum (mul) or difference (div) lands near
 *     the largest normal, and sums of two large values;
 *   - underflow: products and quotients near the smallest normal, and
 *     values around the smallest normal and in the subnormal range, so
 *     that "tiny after rounding" (x86 FTZ) is exercised on both sides;
 *   - random values around 1 with random signs.
 * A third operand (madd's c) is another call with a different seed.
 */
#ifndef INFSIM_FP_CASES_H
#define INFSIM_FP_CASES_H

#include <stddef.h>
#include <stdint.h>

void fp_cases(unsigned fmt, uint64_t seed, uint64_t *a, uint64_t *b,
	      size_t count);

/* One value of fmt from the edge list above (index taken modulo its
 * length) and the length of that list, for tests that want every edge. */
uint64_t fp_case_edge(unsigned fmt, unsigned index);
unsigned fp_case_edge_count(void);

/* count integers of width bits (1..64) for conversions to float: half
 * from harness_values (edges and random), half with a random length
 * (leading one at a random bit), random bits below it, or a rounding tie
 * at a random precision 8..24 (a one just past the kept bits, sometimes a
 * sticky one below it); random signs.  Use them as .iN, .uN or .qN. */
void fp_cases_int(unsigned width, uint64_t seed, uint64_t *v, size_t count);

#endif
