/* SPDX-License-Identifier: MIT */
/*
 * reduce.c: redsum, redmin, redmax of the B elements of each array.
 *
 * A reduction crosses bitlines, which the bit-serial PEs cannot do by
 * themselves; infinity-stream §4.2 lowers a reduction node into
 * "interleaving compute and intra-tile shift commands" that fully reduce
 * each tile, and §5.2 gives the arrays the bitline shift this needs
 * (SHDOWN: bitline j takes bitline j + 1; the top bitline reads 0).  The
 * result of each array lands at its bitline 0; the final reduction across
 * arrays is left to near-memory streams, as in infinity-stream §3.3.
 *
 * Scratch: acc = n rows (the accumulator), sh = n rows (acc shifted).
 *   1. acc := a                                              n cycles
 *   2. for dist = B/2, B/4, ..., 1  (log2 B rounds):
 *        sh := acc shifted down by dist bitlines: per row, one SHDOWN
 *          acc[i] -> sh[i], then dist - 1 SHDOWN sh[i] -> sh[i]  n dist
 *        acc := combine(acc, sh) on every bitline:
 *          sum: ADD acc, sh -> acc (add.c)                          n
 *          min: T := sh < acc (cmp.c, 2n + 1), COPY sh -> acc gated ET
 *          max: T := acc < sh, COPY sh -> acc gated ET          3n + 1
 *   3. T := "bitline 0": ONE -> sh[0]; SHUP sh[0] -> sh[0] (bitline 0
 *      reads 0 from outside the array, the others 1); LOADTN sh[0]    3
 *   4. COPY acc -> d gated ET: only bitline 0 of d changes.          n
 * After round dist, acc[j] for j < dist combines every element whose
 * bitline is j modulo dist: it read acc[j + dist], and j + dist < 2 dist
 * was a valid bitline after the previous round.  Bitlines j >= dist become garbage (for min/max they may have
 * met the 0 shifted in at the top edge) but are never read into a valid
 * bitline again, so acc[0] ends holding the whole array's result.
 *
 * Cycles, R = log2 B, shifts n (B/2 + B/4 + ... + 1) = n (B - 1):
 *   redsum:          n + n (B - 1) + R n          + 3 + n
 *   redmin, redmax:  n + n (B - 1) + R (3n + 1)   + 3 + n
 * T ends as the bitline-0 mask; C is clobbered.
 *
 * The command's bitline selection must be every bitline of the array
 * (the assembler refuses anything else, since isa_cmd does not carry the
 * selection): a disabled bitline would keep stale scratch in acc and feed
 * it into the tree, and the bitline-0 mask needs bitline 0 enabled.
 * Aliasing: a is read only in step 1 and d written only in step 4, so d
 * may be a; only bitline 0 of a then changes.
 */
#include "isa.h"
#include "family.h"

static bool is_power_of_two(unsigned v)
{
	return v && !(v & (v - 1));
}

/* The command c with other operands, for a sub-step built by another
 * family (add.c, cmp.c). */
static isa_cmd sub_cmd(const isa_cmd *c, unsigned op, unsigned d, unsigned a,
		       unsigned b)
{
	isa_cmd s = *c;
	s.op = (uint16_t)op;
	s.d = (uint16_t)d;
	s.a = (uint16_t)a;
	s.b = (uint16_t)b;
	return s;
}

/* sh := acc moved down by dist bitlines, n dist cycles. */
static void emit_shift_down(isa_prog *p, unsigned sh, unsigned acc,
			    unsigned n, unsigned dist)
{
	for (unsigned i = 0; i < n; i++)
		for (unsigned step = 0; step < dist; step++)
			isa_emit(p, isa_u1(SRAM_FN_SHDOWN, sh + i,
					   step ? sh + i : acc + i));
}

/* acc := combine(acc, sh) on every bitline. */
static int emit_combine(isa_prog *p, const isa_cmd *c, unsigned acc,
			unsigned sh, unsigned bitlines)
{
	if (c->op == ISA_REDSUM) {
		isa_cmd add = sub_cmd(c, ISA_ADD, acc, acc, sh);
		return isa_gen_add(&add, bitlines, p, NULL);
	}
	/* min: take sh where sh < acc; max: where acc < sh. */
	isa_cmd lt = c->op == ISA_REDMIN ? sub_cmd(c, ISA_LT, ISA_TAG, sh, acc)
					 : sub_cmd(c, ISA_LT, ISA_TAG, acc, sh);
	if (isa_gen_cmp(&lt, bitlines, p, NULL))
		return -1;
	for (unsigned i = 0; i < c->width; i++)
		isa_emit(p, isa_gate(isa_u1(SRAM_FN_COPY, acc + i, sh + i),
				     SRAM_GATE_ET));
	return 0;
}

int isa_gen_reduce(const isa_cmd *c, unsigned bitlines, isa_prog *p,
		 isa_ctl *ctl)
{
	(void)ctl;
	const unsigned n = c->width, acc = c->scratch, sh = c->scratch + n;
	if (!is_power_of_two(bitlines) || bitlines < 2)
		return -1;
	for (unsigned i = 0; i < n; i++)
		isa_emit(p, isa_u1(SRAM_FN_COPY, acc + i, c->a + i));
	for (unsigned dist = bitlines / 2; dist >= 1; dist /= 2) {
		emit_shift_down(p, sh, acc, n, dist);
		if (emit_combine(p, c, acc, sh, bitlines))
			return -1;
	}
	isa_emit(p, isa_w0(SRAM_FN_ONE, sh));
	isa_emit(p, isa_u1(SRAM_FN_SHUP, sh, sh));
	isa_emit(p, isa_l1(SRAM_FN_LOADTN, sh));
	for (unsigned i = 0; i < n; i++)
		isa_emit(p, isa_gate(isa_u1(SRAM_FN_COPY, c->d + i, acc + i),
				     SRAM_GATE_ET));
	return 0;
}

void isa_rules_reduce(const isa_cmd *c, unsigned bitlines, isa_rules *r)
{
	(void)bitlines;
	r->scratch_rows = 2u * c->width;
	r->d_may_alias_a = true;
}

uint64_t isa_cycles_reduce(const isa_cmd *c, unsigned bitlines)
{
	const uint64_t n = c->width;
	uint64_t rounds = 0;
	if (!is_power_of_two(bitlines) || bitlines < 2)
		return 0; /* isa_gen_reduce refuses it */
	for (unsigned dist = bitlines / 2; dist >= 1; dist /= 2)
		rounds++;
	isa_cmd lt = sub_cmd(c, ISA_LT, ISA_TAG, c->a, c->a);
	const uint64_t combine = c->op == ISA_REDSUM
				 ? n : isa_cycles_cmp(&lt, bitlines) + n;
	return n + n * (bitlines - 1u) + rounds * combine + 3 + n;
}
