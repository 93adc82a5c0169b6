/*
 * mul.c: bit-serial multiply (duality-cache §2.1 and Table 1: unsigned
 * n^2 + 3n - 2 cycles, after Neural Cache [10]; signed n^2 + 5n).
 *
 * Both build the full 2n-bit product P by shift-and-add, as the baseline
 * of Table 1 does, and return its low n bits.  P[0..n-1] are d's rows and
 * P[n..2n-1] are scratch rows H.  A partial product is added only where
 * its multiplier bit, held in the tag latch, is set: every add is gated
 * by E&T.  doc/commands/mul-div.md gives the schedules cycle by cycle.
 *
 * Unsigned (n^2 + 3n - 2):
 *   T <- b[0], fused with the first ZERO of H          1
 *   ZERO H[1..n-1]                                      n-1
 *   d[i] <- a[i] & T                                    n
 *   for j = 1..n-1:  T <- b[j], C <- 0                  1
 *                    P[j+i] += a[i]  (E&T)              n
 *                    P[j+n] <- C     (E&T; it was 0)    1
 *
 * Signed (n^2 + 5n): multiply X = (b<0 ? -a : a), a signed number, by
 * Y = |b|, an unsigned one; X*Y = a*b mod 2^n (also for MIN, whose
 * negation wraps, since only the low n bits are returned).
 *   T <- sign of b                                      1
 *   X <- T ? -a : a,  Y <- T ? -b : b  (CNEG)           2n
 *   T <- Y[0];  d[i] <- X[i] & T;  P[n] <- X[n-1] & T   n+2
 *   for j = 1..n-1:  T <- Y[j], C <- 0                  1
 *                    P[j+n] <- P[j+n-1]  (sign extend)  1
 *                    P[j+i] += X[i]  (E&T)              n
 *                    P[j+n] += X[n-1] + C  (E&T)        1
 * After step j the accumulator holds X * (Y mod 2^(j+1)) in n+j+1 bits,
 * which is enough: |X| <= 2^(n-1) and Y mod 2^(j+1) < 2^(j+1).  Y[j] is
 * last read by the LOADT that starts step j, and P[j+n] is first written
 * in that step, so Y[j] and H[j] share a row: the scratch is 2n rows.
 *
 * d is written from the first cycles on while a and b are still read, so
 * d may not overlap them.
 */
#include "isa.h"

/* Row of bit i of the 2n-bit product: d below n, the scratch H above. */
static unsigned prod_row(const isa_cmd *c, unsigned h, unsigned i)
{
	return i < c->width ? c->d + i : h + (i - c->width);
}

/* dst <- T ? -src : src, LSB first: C remembers "a lower bit was set";
 * bit i flips where T and C are both set. */
static void emit_cneg(isa_prog *p, unsigned src, unsigned dst, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		sram_uop u = isa_u1(SRAM_FN_CNEG, dst + i, src + i);
		isa_emit(p, i ? u : isa_cpre(u, SRAM_CPRE_0));
	}
}

/* P[j..j+n-1] += src[0..n-1] where T is set; C was cleared by the
 * LOADT that loaded T. */
static void emit_gated_add(const isa_cmd *c, isa_prog *p, unsigned h,
			   unsigned src, unsigned j)
{
	for (unsigned i = 0; i < c->width; i++) {
		const unsigned r = prod_row(c, h, j + i);
		isa_emit(p, isa_gate(isa_u2(SRAM_FN_ADD, r, r, src + i),
				     SRAM_GATE_ET));
	}
}

static void mul_unsigned(const isa_cmd *c, isa_prog *p)
{
	const unsigned n = c->width, h = c->scratch;
	/* ZERO senses nothing, so it rides on the cycle that loads b[0]. */
	isa_emit(p, isa_with_l(isa_u1(SRAM_FN_ZERO, h, c->b), SRAM_FN_LOADT));
	for (unsigned i = 1; i < n; i++)
		isa_emit(p, isa_w0(SRAM_FN_ZERO, h + i));
	for (unsigned i = 0; i < n; i++)
		isa_emit(p, isa_u1(SRAM_FN_ANDT, c->d + i, c->a + i));
	for (unsigned j = 1; j < n; j++) {
		isa_emit(p, isa_cpre(isa_l1(SRAM_FN_LOADT, c->b + j), SRAM_CPRE_0));
		emit_gated_add(c, p, h, c->a, j);
		isa_emit(p, isa_gate(isa_w0(SRAM_FN_WRC, prod_row(c, h, j + n)),
				     SRAM_GATE_ET));
	}
}

static void mul_signed(const isa_cmd *c, isa_prog *p)
{
	const unsigned n = c->width;
	const unsigned x = c->scratch, h = c->scratch + n; /* Y[j] = H[j] */
	isa_emit(p, isa_l1(SRAM_FN_LOADT, c->b + n - 1));
	emit_cneg(p, c->a, x, n);
	emit_cneg(p, c->b, h, n);
	isa_emit(p, isa_l1(SRAM_FN_LOADT, h));
	for (unsigned i = 0; i < n; i++)
		isa_emit(p, isa_u1(SRAM_FN_ANDT, c->d + i, x + i));
	isa_emit(p, isa_u1(SRAM_FN_ANDT, prod_row(c, h, n), x + n - 1));
	for (unsigned j = 1; j < n; j++) {
		const unsigned top = prod_row(c, h, j + n);
		isa_emit(p, isa_cpre(isa_l1(SRAM_FN_LOADT, h + j), SRAM_CPRE_0));
		isa_emit(p, isa_u1(SRAM_FN_COPY, top, prod_row(c, h, j + n - 1)));
		emit_gated_add(c, p, h, x, j);
		isa_emit(p, isa_gate(isa_u2(SRAM_FN_ADD, top, top, x + n - 1),
				     SRAM_GATE_ET));
	}
}

int isa_gen_mul(const isa_cmd *c, unsigned bitlines, isa_prog *p,
		 isa_ctl *ctl)
{
	(void)ctl;
	(void)bitlines;
	if (c->op != ISA_MUL || c->width < 1 || c->width > ISA_MAX_WIDTH)
		return -1;
	if (c->is_signed)
		mul_signed(c, p);
	else
		mul_unsigned(c, p);
	return 0;
}

void isa_rules_mul(const isa_cmd *c, unsigned bitlines, isa_rules *r)
{
	(void)bitlines;
	r->scratch_rows = (c->is_signed ? 2u : 1u) * c->width;
	r->d_may_alias_a = r->d_may_alias_b = false;
}

uint64_t isa_cycles_mul(const isa_cmd *c, unsigned bitlines)
{
	(void)bitlines;
	const uint64_t n = c->width;
	if (n == 0)
		return 0;
	return c->is_signed ? n * n + 5 * n : n * n + 3 * n - 2;
}
