/* SPDX-License-Identifier: MIT */
/*
 * popcnt.c: d := the number of set bits of a, in n bits.
 *
 * Bit-serial counting (infinity-stream §2.2: each bitline is a 1-bit PE
 * with a carry latch): a counter in the low rows of d is incremented once
 * per set bit of a.  For each bit i of a:
 *   LOADT a[i]                      T' = a[i]: the bitlines that count
 *   INC d[j] -> d[j], j = 0..w-1    out = d[j] ^ C, C' = d[j] & C, gated
 *                                   ET, C preset to 1 at j = 0
 * The count after bit i is at most i + 1, so the increment only needs
 * w = bitlen(i + 1) rows, and the counter grows to L = bitlen(n) rows.
 *
 * In place.  The counter may share rows with a (d == a) because it never
 * gets ahead of the bits still to be read: row j first joins the counter
 * at bit i = 2^j - 1 >= j, after a[j] has been loaded into T.  Each row
 * j < L is zeroed right after LOADT a[j] (its counter bit is still 0:
 * the count before bit j is at most j < 2^j), and rows L..n-1, which the
 * count never reaches, are zeroed at the end.  So no scratch is needed,
 * and d and a may be the same rows.
 *
 * Cycles: n (LOADT) + n (ZERO) + sum over v = 1..n of bitlen(v)
 *       = 2n + (n + 1) L - 2^L + 1,  L = bitlen(n)      (456 at n = 64)
 * T ends holding a[n-1] and C is clobbered.
 */
#include "isa.h"
#include "family.h"

static unsigned bit_length(unsigned v)
{
	unsigned len = 0;
	for (; v; v >>= 1)
		len++;
	return len;
}

int isa_gen_popcnt(const isa_cmd *c, unsigned bitlines, isa_prog *p,
		 isa_ctl *ctl)
{
	(void)ctl;
	(void)bitlines;
	const unsigned n = c->width, counter_rows = bit_length(n);
	for (unsigned i = 0; i < n; i++) {
		isa_emit(p, isa_l1(SRAM_FN_LOADT, c->a + i));
		if (i < counter_rows)
			isa_emit(p, isa_w0(SRAM_FN_ZERO, c->d + i));
		for (unsigned j = 0; j < bit_length(i + 1); j++) {
			sram_uop u = isa_gate(isa_u1(SRAM_FN_INC, c->d + j, c->d + j),
					      SRAM_GATE_ET);
			isa_emit(p, j ? u : isa_cpre(u, SRAM_CPRE_1));
		}
	}
	for (unsigned i = counter_rows; i < n; i++)
		isa_emit(p, isa_w0(SRAM_FN_ZERO, c->d + i));
	return 0;
}

void isa_rules_popcnt(const isa_cmd *c, unsigned bitlines, isa_rules *r)
{
	(void)c;
	(void)bitlines;
	r->d_may_alias_a = true;
}

uint64_t isa_cycles_popcnt(const isa_cmd *c, unsigned bitlines)
{
	(void)bitlines;
	const uint64_t n = c->width, len = bit_length(c->width);
	return 2 * n + (n + 1) * len - (UINT64_C(1) << len) + 1;
}
