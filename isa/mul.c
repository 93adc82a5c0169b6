/* SPDX-License-Identifier: MIT */
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
 *
 * That is the baseline (ctl == NULL).  Built through a controller, the
 * program skips work that no enabled bitline needs (duality-cache
 * §3.1.2; "the data-dependent program" below).
 */
#include "isa.h"
#include "family.h"

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

/* ---- the data-dependent program (duality-cache §3.1.2) ----
 * With a controller (ctl != NULL), three questions shorten the program;
 * doc/commands/mul-div.md gives the details and measured cycles.
 *  1. The effective width m of the multiplicand: a leading-zero search
 *     whose every probe is one many-wordline read (NOR over a's top
 *     rows, §3.1.1).  Each step then adds m bits instead of n.  Unsigned,
 *     the probes ride on the cycles that clear H, which sense nothing.
 *  2. Multiplier bits that are 0 on every enabled bitline: the LOADT of
 *     b[j] is there anyway, so asking costs nothing, and the gated add
 *     block of that step, which would change nothing, is left out.
 *  3. Signed: if no b is negative, X = a and Y = b (their rows are read in
 *     place): the two negation passes go, and pay for the search of 1. */

/* Where the write slot of a probe goes: the next row to clear, while
 * rows are left (next < end), else nowhere. */
struct zero_slot {
	unsigned next, end;
};

/* One probe: T <- OR of the rows base + lo .. base + hi - 1 (hi > lo),
 * then the wired-OR over the enabled bitlines: does any bitline have a
 * 1 there? */
static bool probe_any_one(isa_prog *p, isa_ctl *ctl, unsigned base,
			  unsigned lo, unsigned hi, struct zero_slot *zs)
{
	const bool w = zs && zs->next < zs->end;
	isa_emit(p, isa_uset(w ? SRAM_FN_ZERO : SRAM_FN_NONE,
			     w ? zs->next : SRAM_NO_ROW, SRAM_FN_LOADTOR,
			     base + lo, isa_mask(hi - lo)));
	zs->next += w;
	return isa_any(ctl, p);
}

/* The smallest m with rows[m..n-1] 0 on every enabled bitline: the top
 * row alone first (the common case, full width, costs one probe), then
 * a binary search below it.  rows[hi..n-1] are known 0 throughout. */
static unsigned unsigned_width(isa_prog *p, isa_ctl *ctl, unsigned rows,
			       unsigned n, struct zero_slot *zs)
{
	if (probe_any_one(p, ctl, rows, n - 1, n, zs))
		return n;
	unsigned lo = 0, hi = n - 1;
	while (lo < hi) {
		const unsigned mid = (lo + hi) / 2;
		if (probe_any_one(p, ctl, rows, mid, hi, zs))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* ZERO -> row, and T <- b[0] when load (ZERO senses nothing, so the
 * load rides on the cycle, as in the baseline's first one). */
static sram_uop zero_loading(unsigned row, unsigned b0, bool load)
{
	if (!load)
		return isa_w0(SRAM_FN_ZERO, row);
	return isa_with_l(isa_u1(SRAM_FN_ZERO, row, b0), SRAM_FN_LOADT);
}

/* Unsigned with a controller: the search (clearing H[0], H[1], ... on
 * its cycles), then the baseline's steps on m bits of a.  The product
 * of step j fits in j + m + 1 bits, so its carry goes to P[j+m], still 0
 * from the clearing; rows above are never touched, and d[m..n-1] are
 * cleared instead of ANDed with zeros. */
static void mul_unsigned_ctl(const isa_cmd *c, isa_prog *p, isa_ctl *ctl)
{
	const unsigned n = c->width, h = c->scratch;
	struct zero_slot zs = {h, h + n};
	const unsigned m = unsigned_width(p, ctl, c->a, n, &zs);
	bool b0 = m == 0; /* b[0] loaded into T (or not needed: a = 0) */
	for (unsigned r = zs.next; r < h + m; r++, b0 = true)
		isa_emit(p, zero_loading(r, c->b, !b0));
	for (unsigned i = m; i < n; i++, b0 = true)
		isa_emit(p, zero_loading(c->d + i, c->b, !b0));
	if (!b0)
		isa_emit(p, isa_l1(SRAM_FN_LOADT, c->b));
	for (unsigned i = 0; i < m; i++)
		isa_emit(p, isa_u1(SRAM_FN_ANDT, c->d + i, c->a + i));
	for (unsigned j = 1; m && j < n; j++) {
		isa_emit(p, isa_cpre(isa_l1(SRAM_FN_LOADT, c->b + j), SRAM_CPRE_0));
		if (!isa_any(ctl, p))
			continue;
		for (unsigned i = 0; i < m; i++) {
			const unsigned r = prod_row(c, h, j + i);
			isa_emit(p, isa_gate(isa_u2(SRAM_FN_ADD, r, r, c->a + i),
					     SRAM_GATE_ET));
		}
		isa_emit(p, isa_gate(isa_w0(SRAM_FN_WRC, prod_row(c, h, j + m)),
				     SRAM_GATE_ET));
	}
}

/* Does any enabled bitline need more than the rows X[m-1..n-1] being
 * equal allows, with X[hi-1..n-1] known equal: are the rows
 * X[mid-1..hi-1] not all equal somewhere?  Two rows: T <- XOR (one
 * cycle); more: T <- OR, then T <- T ^ AND, which is 1 exactly where
 * the rows are neither all 0 nor all 1. */
static bool probe_unequal(isa_prog *p, isa_ctl *ctl, unsigned x,
			  unsigned mid, unsigned hi)
{
	const unsigned lo = mid - 1, cnt = hi - lo;
	if (cnt == 2) {
		isa_emit(p, isa_l2(SRAM_FN_LOADTX, x + lo, x + lo + 1));
	} else {
		const uint64_t set = isa_mask(cnt);
		isa_emit(p, isa_uset(SRAM_FN_NONE, SRAM_NO_ROW, SRAM_FN_LOADTOR,
				     x + lo, set));
		isa_emit(p, isa_uset(SRAM_FN_NONE, SRAM_NO_ROW, SRAM_FN_TXORS,
				     x + lo, set));
	}
	return isa_any(ctl, p);
}

/* The signed width of X: the smallest m >= 1 with X[m-1..n-1] equal (the
 * sign) on every enabled bitline; n >= 2. */
static unsigned signed_width(isa_prog *p, isa_ctl *ctl, unsigned x,
			     unsigned n)
{
	if (probe_unequal(p, ctl, x, n - 1, n))
		return n;
	unsigned lo = 1, hi = n - 1;
	while (lo < hi) {
		const unsigned mid = (lo + hi) / 2;
		if (probe_unequal(p, ctl, x, mid, hi))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Step j of the signed core on m bits of X (m = n is the baseline's):
 * the accumulator P[0..j+m] then holds X * (Y mod 2^(j+1)), as X fits
 * in m signed bits.  The sign extension is not gated: it stays even
 * when no bitline has Y[j] set. */
static void signed_step(const isa_cmd *c, isa_prog *p, isa_ctl *ctl,
			const unsigned xy[3], unsigned m, unsigned j)
{
	const unsigned x = xy[0], y = xy[1], h = xy[2];
	const unsigned top = prod_row(c, h, j + m);
	isa_emit(p, isa_cpre(isa_l1(SRAM_FN_LOADT, y + j), SRAM_CPRE_0));
	const bool need = isa_any(ctl, p);
	isa_emit(p, isa_u1(SRAM_FN_COPY, top, prod_row(c, h, j + m - 1)));
	if (!need)
		return;
	for (unsigned i = 0; i < m; i++) {
		const unsigned r = prod_row(c, h, j + i);
		isa_emit(p, isa_gate(isa_u2(SRAM_FN_ADD, r, r, x + i), SRAM_GATE_ET));
	}
	isa_emit(p, isa_gate(isa_u2(SRAM_FN_ADD, top, top, x + m - 1),
			     SRAM_GATE_ET));
}

/* Signed with a controller.  T <- sign of b answers "is any b
 * negative?" for free.  If none is, X = a and Y = b are read in place
 * (H, no longer sharing Y's rows, is the scratch's second half) and the
 * search for X's signed width m pays with the 2n cycles saved.  Step 0
 * writes P[n] only when m = n: otherwise d[m] already holds that bit. */
static void mul_signed_ctl(const isa_cmd *c, isa_prog *p, isa_ctl *ctl)
{
	const unsigned n = c->width, h = c->scratch + n;
	unsigned xy[3] = {c->scratch, h, h}; /* X, Y, H */
	isa_emit(p, isa_l1(SRAM_FN_LOADT, c->b + n - 1));
	const bool b_neg = isa_any(ctl, p);
	unsigned m = n;
	if (b_neg) {
		emit_cneg(p, c->a, xy[0], n);
		emit_cneg(p, c->b, xy[1], n);
	} else {
		xy[0] = c->a;
		xy[1] = c->b;
		m = signed_width(p, ctl, c->a, n);
	}
	isa_emit(p, isa_l1(SRAM_FN_LOADT, xy[1]));
	for (unsigned i = 0; i < n; i++)
		isa_emit(p, isa_u1(SRAM_FN_ANDT, c->d + i, xy[0] + i));
	if (m == n)
		isa_emit(p, isa_u1(SRAM_FN_ANDT, prod_row(c, h, n), xy[0] + n - 1));
	for (unsigned j = 1; j < n; j++)
		signed_step(c, p, ctl, xy, m, j);
}
int isa_gen_mul(const isa_cmd *c, unsigned bitlines, isa_prog *p,
		 isa_ctl *ctl)
{
	(void)bitlines;
	if (c->op != ISA_MUL || c->width < 1 || c->width > ISA_MAX_WIDTH)
		return -1;
	if (c->is_signed && ctl && c->width >= 2)
		mul_signed_ctl(c, p, ctl);
	else if (c->is_signed)
		mul_signed(c, p);
	else if (ctl && c->width >= 2)
		mul_unsigned_ctl(c, p, ctl);
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
