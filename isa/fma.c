/* SPDX-License-Identifier: MIT */
/*
 * fma.c: fused multiply-add, d := a * b + c rounded once, bit-serially.
 * The product of fpmul.c (duality-cache §3.1.1: an exponent add and a
 * significand multiply) is kept whole, and c is added to it the way
 * fpadd.c adds (Algorithm 1: align by the exponent difference, add in
 * two's complement, normalise, round), in a window wide enough for the
 * exact product; doc/commands/fma.md gives the schedule and the measured
 * latencies.
 *
 * With p = m + 1 significand bits, the window X has W = 2p + 2 rows:
 *   X[0]         the sticky bit of whatever is shifted out below;
 *   X[1..2p]     the product P = ma * mb, its top bit at 2p or 2p - 1;
 *   X[2p+1]      the carry of an add, the sign of a subtract.
 * c's significand sits (for the alignment) at X positions p+1..2p.  In
 * the packer's unpacked form (fpcore.h) the window weighs
 *   product:  em_p = ea + eb - bias + 1,   c:  em_c = ec
 * with ea, eb, ec the unpacked exponents, all in ew = e + 3 bits (the
 * difference of two of them needs one more than fpmul's e + 2).
 *
 *   unpack a and b (IEEE mode normalises subnormals)          fpmuldiv
 *   sign sp := sa ^ sb; pinf := ia | ib; pz := za | zb;
 *   nan := na | nb | (ia & zb) | (za & ib)                        7
 *   P := ma * mb into X[1..2p]                               p^2 + 2p - 1
 *   em := ea + eb + (1 - bias)                                    2 ew + 1
 *   unpack c; sub := sp ^ sc; zsign := sp & sc; the sign of an
 *     inf result; nan |= nc | (pinf & ic & sub); inf := pinf | ic     8
 *   e := ec - em (two-cycle SUB per bit)                          2 ew
 *   cbig := (e >= 0 and c is not zero) or pz: c's window leads
 *   em := em + e where cbig (the window's weight: the bigger one)  ew
 *   e := |e|; where cbig: X >>= e with sticky, then e := 0
 *   X := X ^ sub (~X: the subtract as ~(~X + Y))                   W
 *   where e >= p + 1: mc >>= e - p - 1 in place with sticky, e := p + 1
 *     (shifts with sticky compose)                  log2(p) (p + 1) + 4 ew
 *   for k = 0 .. p + 1: where e == k, X += c >> k (the shift is free:
 *     position i adds mc[i + k - p - 1]; positions below mc[0] are not
 *     written: adding 0 with no carry changes nothing)       ~ 3 p^2 / 2
 *   X := X ^ sub; where X < 0: X := -X, sign flips                2 W
 *   normalise X (leading-zero search), em -= the shift          fpcore
 *   round to nearest even and pack, with the specials           fpcore
 * Exactness: the window holds the product whole, and only one operand is
 * ever shifted.  A shift that loses bits (c's by more than p + 1, the
 * product's by more than 1) leaves a result that cancels at most two top
 * bits, and the jammed sticky bit is then far below the round bit: the
 * computed X is odd whenever bits were lost and the exact value lies
 * strictly between X - 1 and X + 1, on the same side of every rounding
 * boundary (as in fpadd.c).  A zero product never leads (c is exact),
 * a zero c never does either (the product is exact).
 *
 * Data-dependent latency (§3.1.2), with a controller: the product's
 * skips (fpmul.c), a leading-zero search bounding e, the pass of each k
 * no bitline has, the product's shift when c leads nowhere, the two's
 * complement steps when nothing subtracts, and the normalisation and
 * packing stages no bitline needs (fpcore).
 *
 * a, b and c are read only before the first write to d: d may be any of
 * them.
 */
#include "fpmuldiv.h"
#include "family.h"

/* Where every row is.  The region R is reused: a's and b's classes and
 * a's significand while the product is built; c's classes, unpacking
 * scratch and significand while c is added; the normaliser's and the
 * packer's scratch at the end. */
struct fma_rows {
	isa_fpc_fmt f;
	unsigned W, ew;
	unsigned X;                /* W rows; P = X + 1, mb = P + p */
	unsigned em, ed;           /* ew rows each (see the header) */
	unsigned sg, sub, zsign, inf, nan, cbig, isg;
	isa_fpmd_operand a, b, c;
	unsigned tnan, far, one2;
	unsigned cutmp;            /* c's unpacking scratch */
	unsigned norm, pack;
	unsigned total;
};

static isa_fpc_pack fma_pack(const struct fma_rows *L)
{
	const isa_fpc_pack pk = {L->X, L->W, L->em, L->ew, L->sg, L->zsign,
				 L->inf, L->nan};
	return pk;
}

static void fma_layout(const isa_cmd *c, struct fma_rows *L)
{
	const isa_fpc_fmt f = isa_fpc_fmt_of(c);
	const unsigned us = isa_fpmd_unpack_scratch(&f);
	isa_fpc_rows r = {c->scratch};
	L->f = f;
	L->W = 2 * f.p + 2;
	L->ew = f.e + 3;
	L->X = isa_fpc_take(&r, L->W);
	L->em = isa_fpc_take(&r, L->ew);
	L->ed = isa_fpc_take(&r, L->ew);
	L->sg = isa_fpc_take(&r, 1);
	L->sub = isa_fpc_take(&r, 1);
	L->zsign = isa_fpc_take(&r, 1);
	L->inf = isa_fpc_take(&r, 1);
	L->nan = isa_fpc_take(&r, 1);
	L->cbig = isa_fpc_take(&r, 1);
	L->isg = isa_fpc_take(&r, 1);
	const unsigned R = r.next;
	L->a = (isa_fpmd_operand){R, R + 1, R + 2, R + 3, R + 8, L->em};
	L->b = (isa_fpmd_operand){R + 4, R + 5, R + 6, R + 7, L->X + 1 + f.p, L->ed};
	L->cutmp = R + 4;
	L->tnan = R + 4;
	L->c = (isa_fpmd_operand){R, R + 1, R + 2, R + 3, R + 4 + us, L->ed};
	L->far = R;
	L->one2 = R + 1;
	L->norm = R;
	const isa_fpc_pack pk = fma_pack(L);
	L->pack = R + isa_fpc_normalize_scratch(L->W);
	unsigned size = 8 + f.p;
	if (4 + us + f.p > size)
		size = 4 + us + f.p;
	const unsigned late = isa_fpc_normalize_scratch(L->W) + isa_fpc_pack_scratch(&f, &pk);
	if (late > size)
		size = late;
	(void)isa_fpc_take(&r, size);
	L->total = r.next - c->scratch;
}

/* row[ew_unpack] := row[ew_unpack - 1]: an unpacked exponent widened. */
static void fma_sext(const struct fma_rows *L, isa_prog *p, unsigned e)
{
	const unsigned w = isa_fpmd_ew(&L->f);
	isa_emit(p, isa_u1(SRAM_FN_COPY, e + w, e + w - 1));
}

/* sp, pinf, pz and the NaN of the product (7 cycles). */
static void fma_specials_ab(const isa_cmd *c, const struct fma_rows *L,
			    isa_prog *p)
{
	const unsigned top = L->f.w - 1;
	isa_emit(p, isa_u2(SRAM_FN_XOR, L->sg, c->a + top, c->b + top));
	isa_emit(p, isa_u2(SRAM_FN_OR, L->inf, L->a.inf, L->b.inf));
	isa_emit(p, isa_l2(SRAM_FN_LOADT, L->a.inf, L->b.zero));
	isa_emit(p, isa_l2(SRAM_FN_TORS, L->a.zero, L->b.inf));
	isa_emit(p, isa_l2(SRAM_FN_TORNZ, L->a.nan, L->b.nan));
	isa_emit(p, isa_w0(SRAM_FN_WRT, L->nan));
	isa_emit(p, isa_u2(SRAM_FN_OR, L->cbig, L->a.zero, L->b.zero));
}

/* r += k (ew bits, the constant from the one row; ew + 1 cycles). */
static void fma_add_const(const struct fma_rows *L, isa_prog *p, unsigned r,
			  uint64_t k)
{
	isa_emit(p, isa_cpre(isa_w0(SRAM_FN_ONE, L->one2), SRAM_CPRE_0));
	for (unsigned i = 0; i < L->ew; i++) {
		const unsigned x = r + i;
		isa_emit(p, (k >> i) & 1 ? isa_u2(SRAM_FN_ADD, x, x, L->one2)
					 : isa_u1(SRAM_FN_INC, x, x));
	}
}

/* em := em + ed + k, ew bits (2 ew + 1 cycles). */
static void fma_exp_sum(const struct fma_rows *L, isa_prog *p, uint64_t k)
{
	for (unsigned i = 0; i < L->ew; i++) {
		sram_uop u = isa_u2(SRAM_FN_ADD, L->em + i, L->em + i, L->ed + i);
		isa_emit(p, i ? u : isa_cpre(u, SRAM_CPRE_0));
	}
	fma_add_const(L, p, L->em, k);
}

/* c's part of the specials (8 cycles). */
static void fma_specials_c(const isa_cmd *c, const struct fma_rows *L,
			   isa_prog *p)
{
	const unsigned sc = c->c3 + L->f.w - 1;
	isa_emit(p, isa_u2(SRAM_FN_XOR, L->sub, L->sg, sc));
	isa_emit(p, isa_u2(SRAM_FN_COPY, L->zsign, L->sg, sc));
	/* an inf result: the product's sign if it is inf, else c's */
	isa_emit(p, isa_l1(SRAM_FN_LOADT, L->inf));
	isa_emit(p, isa_gate(isa_u1(SRAM_FN_COPY, L->isg, L->sg), SRAM_GATE_ET));
	isa_emit(p, isa_gate(isa_u1(SRAM_FN_COPY, L->isg, sc), SRAM_GATE_ENT));
	/* inf - inf */
	sram_uop u = isa_u2(SRAM_FN_COPY, L->tnan, L->inf, L->c.inf);
	u.nact = 3;
	u.act[2] = (uint16_t)L->sub;
	isa_emit(p, u);
	u = isa_u2(SRAM_FN_OR, L->nan, L->nan, L->tnan);
	u.nact = 3;
	u.act[2] = (uint16_t)L->c.nan;
	isa_emit(p, u);
	isa_emit(p, isa_u2(SRAM_FN_OR, L->inf, L->inf, L->c.inf));
}

/* ed := ed - em (ec - em: SUB with the minuend in T, 2 ew cycles); then
 * cbig and the window's weight.  Returns whether any bitline's product
 * must shift (the controller's answer; true for the baseline). */
static bool fma_align_exp(const struct fma_rows *L, isa_prog *p, isa_ctl *ctl)
{
	const unsigned ew = L->ew;
	for (unsigned i = 0; i < ew; i++) {
		isa_emit(p, isa_l1(SRAM_FN_LOADT, L->ed + i));
		sram_uop u = isa_u2(SRAM_FN_SUB, L->ed + i, L->ed + i, L->em + i);
		isa_emit(p, i ? u : isa_cpre(u, SRAM_CPRE_1));
	}
	/* cbig := (e >= 0 & !cz) | pz; cbig held pz */
	isa_emit(p, isa_l1(SRAM_FN_LOADTN, L->ed + ew - 1));
	isa_emit(p, isa_l1(SRAM_FN_TANDZ, L->c.zero));
	isa_emit(p, isa_l1(SRAM_FN_TORS, L->cbig));
	isa_emit(p, isa_w0(SRAM_FN_WRT, L->cbig));
	for (unsigned i = 0; i < ew; i++) {
		sram_uop u = isa_gate(isa_u2(SRAM_FN_ADD, L->em + i, L->em + i, L->ed + i),
				      SRAM_GATE_ET);
		isa_emit(p, i ? u : isa_cpre(u, SRAM_CPRE_0));
	}
	isa_emit(p, isa_l1(SRAM_FN_LOADT, L->ed + ew - 1));
	for (unsigned i = 0; i < ew; i++) {
		sram_uop u = isa_u1(SRAM_FN_CNEG, L->ed + i, L->ed + i);
		isa_emit(p, i ? u : isa_cpre(u, SRAM_CPRE_0));
	}
	isa_emit(p, isa_l1(SRAM_FN_LOADT, L->cbig));
	return isa_any(ctl, p);
}

/* Where cbig: X >>= e with sticky, then e := 0 (c is added unshifted). */
static void fma_shift_product(const struct fma_rows *L, isa_prog *p,
			      isa_ctl *ctl)
{
	isa_fpc_shr_sticky(p, ctl, L->X, L->W, L->ed, L->ew, L->cbig);
	isa_emit(p, isa_l1(SRAM_FN_LOADT, L->cbig));
	for (unsigned i = 0; i < L->ew; i++)
		isa_emit(p, isa_gate(isa_w0(SRAM_FN_ZERO, L->ed + i), SRAM_GATE_ET));
}

static void fma_xor_sub(const struct fma_rows *L, isa_prog *p)
{
	for (unsigned i = 0; i < L->W; i++)
		isa_emit(p, isa_u2(SRAM_FN_XOR, L->X + i, L->X + i, L->sub));
}

/* The first window position pass k writes: below it c >> k is 0 and no
 * carry arrives. */
static unsigned fma_lo(const isa_fpc_fmt *f, unsigned k)
{
	return k >= f->p + 1 ? 0 : f->p + 1 - k;
}

/* Row of (c >> k) at window position i, or ISA_NONE where it is 0
 * (k <= p + 1; at p + 1, c's bit 0 is the sticky of the far shift). */
static unsigned fma_crow(const struct fma_rows *L, unsigned i, unsigned k)
{
	const unsigned pp = L->f.p;
	const unsigned j = i + k;
	return j >= pp + 1 && j - (pp + 1) < pp ? L->c.sig + j - (pp + 1) : ISA_NONE;
}

/* X += c >> k where T (the shift is in the addressing). */
static void fma_pass(const struct fma_rows *L, isa_prog *p, unsigned k)
{
	for (unsigned i = fma_lo(&L->f, k); i < L->W; i++) {
		const unsigned r = fma_crow(L, i, k);
		sram_uop u = r == ISA_NONE ? isa_u1(SRAM_FN_INC, L->X + i, L->X + i)
					   : isa_u2(SRAM_FN_ADD, L->X + i, L->X + i, r);
		if (i == fma_lo(&L->f, k))
			u = isa_cpre(u, SRAM_CPRE_0);
		isa_emit(p, isa_gate(u, SRAM_GATE_ET));
	}
}

/* The largest e any bitline has, bounded by a leading-zero search on its
 * bits (controller only): 2^(top bit + 1) - 1. */
static unsigned fma_kbound(const struct fma_rows *L, isa_prog *p, isa_ctl *ctl)
{
	for (unsigned b = L->ew; b-- > 0;) {
		isa_emit(p, isa_l1(SRAM_FN_LOADT, L->ed + b));
		if (isa_any(ctl, p))
			return b >= 31 ? UINT32_MAX : (2u << b) - 1;
	}
	return 0;
}

/* Where e >= p + 1 (c lies wholly below the product's top half): shift c's
 * significand by e - p - 1 in place, with sticky, and make e = p + 1, so
 * that one pass adds every such bitline's c (shifts with sticky
 * compose).  Returns whether any bitline has e >= p + 1. */
static bool fma_far(const struct fma_rows *L, isa_prog *p, isa_ctl *ctl)
{
	const unsigned pp = L->f.p;
	const uint64_t k = (uint64_t)(pp + 1);
	fma_add_const(L, p, L->ed, (uint64_t)-(int64_t)k & isa_mask(L->ew));
	isa_emit(p, isa_l1(SRAM_FN_LOADTN, L->ed + L->ew - 1));
	isa_emit(p, isa_w0(SRAM_FN_WRT, L->far));
	const bool any = isa_any(ctl, p);
	if (any) {
		isa_fpc_shr_sticky(p, ctl, L->c.sig, pp, L->ed, L->ew, L->far);
		isa_emit(p, isa_l1(SRAM_FN_LOADT, L->far));
		for (unsigned i = 0; i < L->ew; i++)
			isa_emit(p, isa_gate(isa_w0(SRAM_FN_ZERO, L->ed + i), SRAM_GATE_ET));
	}
	fma_add_const(L, p, L->ed, k);
	return any;
}

/* One pass per exponent difference present, 0 .. p + 1. */
static void fma_align_add(const struct fma_rows *L, isa_prog *p, isa_ctl *ctl)
{
	const unsigned kfar = L->f.p + 1;
	unsigned kmax = kfar;
	if (!fma_far(L, p, ctl) && ctl) {
		const unsigned bound = fma_kbound(L, p, ctl);
		kmax = bound < kfar ? bound : kfar;
	}
	for (unsigned k = 0; k <= kmax; k++) {
		isa_fpc_match(p, L->ed, L->ew, k);
		if (isa_any(ctl, p))
			fma_pass(L, p, k);
	}
}

/* X := X ^ sub; where X < 0, X := -X and the sign flips. */
static void fma_magnitude(const struct fma_rows *L, isa_prog *p)
{
	fma_xor_sub(L, p);
	isa_emit(p, isa_l2(SRAM_FN_LOADT, L->X + L->W - 1, L->sub));
	for (unsigned i = 0; i < L->W; i++) {
		sram_uop u = isa_u1(SRAM_FN_CNEG, L->X + i, L->X + i);
		isa_emit(p, i ? u : isa_cpre(u, SRAM_CPRE_0));
	}
	isa_emit(p, isa_u1(SRAM_FN_XORT, L->sg, L->sg));
}

int isa_gen_fma(const isa_cmd *c, unsigned bitlines, isa_prog *p, isa_ctl *ctl)
{
	(void)bitlines;
	const isa_fpfmt *ff = isa_fpfmt_of(c->fmt);
	if (c->op != ISA_FMA || !ff || c->width != ff->width)
		return -1;
	struct fma_rows L;
	fma_layout(c, &L);
	const isa_fpc_fmt *f = &L.f;
	isa_fpmd_unpack(p, ctl, f, c->a, &L.a, L.X);
	isa_fpmd_unpack(p, ctl, f, c->b, &L.b, L.X);
	fma_sext(&L, p, L.em);
	fma_sext(&L, p, L.ed);
	fma_specials_ab(c, &L, p);
	isa_emit(p, isa_w0(SRAM_FN_ZERO, L.X));
	isa_emit(p, isa_w0(SRAM_FN_ZERO, L.X + L.W - 1));
	isa_fpmd_product(p, ctl, L.a.sig, L.X + 1, f->p);
	fma_exp_sum(&L, p, (uint64_t)(1 - (int64_t)f->bias) & isa_mask(L.ew));
	isa_fpmd_unpack(p, ctl, f, c->c3, &L.c, L.cutmp);
	fma_sext(&L, p, L.ed);
	fma_specials_c(c, &L, p);
	if (fma_align_exp(&L, p, ctl))
		fma_shift_product(&L, p, ctl);
	isa_emit(p, isa_l1(SRAM_FN_LOADT, L.sub));
	const bool subs = isa_any(ctl, p);
	if (subs)
		fma_xor_sub(&L, p);
	fma_align_add(&L, p, ctl);
	if (subs)
		fma_magnitude(&L, p);
	isa_fpc_normalize(p, ctl, L.X, L.W, L.em, L.ew, L.em, L.ew, L.norm);
	isa_emit(p, isa_l1(SRAM_FN_LOADT, L.inf));
	isa_emit(p, isa_gate(isa_u1(SRAM_FN_COPY, L.sg, L.isg), SRAM_GATE_ET));
	const isa_fpc_pack pk = fma_pack(&L);
	isa_fpc_round_pack(p, ctl, f, &pk, c->d, L.pack);
	return 0;
}

void isa_rules_fma(const isa_cmd *c, unsigned bitlines, isa_rules *r)
{
	(void)bitlines;
	const isa_fpfmt *ff = isa_fpfmt_of(c->fmt);
	if (!ff)
		return;
	struct fma_rows L;
	fma_layout(c, &L);
	r->min_width = r->max_width = ff->width;
	r->scratch_rows = L.total;
	r->d_may_alias_a = r->d_may_alias_b = r->d_may_alias_c = true;
}

uint64_t isa_cycles_fma(const isa_cmd *c, unsigned bitlines)
{
	(void)bitlines;
	if (!isa_fpfmt_of(c->fmt))
		return 0;
	struct fma_rows L;
	fma_layout(c, &L);
	const isa_fpc_fmt *f = &L.f;
	const uint64_t ew = L.ew, W = L.W;
	uint64_t cyc = 3 * isa_fpmd_unpack_cycles(f) + 3;   /* and the sign extensions */
	cyc += 7 + 2 + isa_fpmd_product_cycles(f->p);       /* specials, X's ends */
	cyc += 2 * ew + 1 + 8;                              /* em, c's specials */
	cyc += 2 * ew + 4 + ew + 1 + ew + 1;                /* e, cbig, em, |e| */
	cyc += isa_fpc_shr_sticky_cycles(L.W, L.ew, true) + 1 + ew;
	cyc += 1 + W;                                       /* ~X */
	cyc += 2 * (ew + 1) + 2 + isa_fpc_shr_sticky_cycles(f->p, L.ew, true) + 1 + ew;
	for (unsigned k = 0; k <= f->p + 1; k++)
		cyc += isa_fpc_match_cycles(L.ew, k) + (W - fma_lo(f, k));
	cyc += W + 1 + W + 1;                               /* magnitude */
	cyc += isa_fpc_normalize_cycles(L.W, L.ew) + 2;
	const isa_fpc_pack pk = fma_pack(&L);
	return cyc + isa_fpc_pack_cycles(f, &pk);
}
