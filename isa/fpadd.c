/* SPDX-License-Identifier: MIT */
/*
 * fpadd.c: floating-point add and subtract, bit-serially, after
 * duality-cache §3.1.1 and its Algorithm 1.  doc/commands/fpadd.md gives
 * the schedule cycle by cycle and the measured optimised latencies.
 *
 * With p = m + 1 significand bits, the significands are aligned in a
 * window of p + 4 bits: three below the big operand's (guard, round,
 * sticky) and one above it (the carry of an add, the sign of a subtract).
 *
 *   classify a and b; sb' = sign of b, flipped by sub      (fpcore)
 *   ediff <- ea - eb; T <- (ediff < 0)                      Alg. 1 l. 5
 *   ediff <- |ediff|  (CNEG)
 *   swap where T: big exponent EB, sign SG, significands    l. 6-7
 *     A' = big ^ sub (sub: effective subtraction) and B = small
 *   PO[j] <- B[0] | ... | B[j]  (the sticky bits)
 *   S' <- A' + sticky(B)  (ediff >= p + 2: B is all sticky)
 *   for k = 0 .. p + 1:                                     l. 9-13
 *     T <- (ediff == k)  (the two-cycle search)
 *     S' <- A' + (B >> k) where T  (ar-shadd; the shift is free: position
 *           i adds A'[i] and B[i + k - 3], position 0 the sticky PO[k-3])
 *   S <- S' ^ sub; T <- S < 0; S <- T ? -S : S; SG ^= T
 *   normalise S by the leading-zero search, em1 <- EB - shift
 *   round to nearest even and pack, with the specials   (fpcore)
 *
 * Effective subtraction is done in two's complement as the paper says,
 * as ~(~A + B): A' = A ^ sub, and S' ^ sub at the end, so that the ar-shadd
 * is the same carry-in-0 add for every bitline.  The sticky bit makes the
 * window exact enough: the computed S is odd whenever bits were lost, and
 * then the exact value lies strictly between S - 1 and S + 1, on the same
 * side of every rounding boundary.
 *
 * Data-dependent latency (§3.1.2): with a controller, a leading-zero
 * search on ediff bounds the largest k, and the ar-shadd of a k that no
 * bitline has is skipped after its search (as are the default pass when
 * no ediff reaches p + 2, the swapping copies when no bitline swaps, the
 * two's complement steps when none subtracts, and the normalisation,
 * denormalisation and special-value steps that no bitline needs).
 *
 * a and b are read only before the first write to d: d may be a or b.
 */
#include "fpcore.h"
#include "family.h"

/* Where every row of the micro-program is. */
struct fpadd_rows {
	isa_fpc_fmt f;
	unsigned n;            /* window: p + 4 */
	unsigned sa, sb;       /* sign rows of a and b */
	unsigned sbe;          /* b's effective sign: sb, or ~sb for sub */
	isa_fpc_class ca, cb;  /* h, inf, nan of a and b */
	unsigned sub;          /* effective subtraction */
	unsigned zsign;        /* sign of an exact zero: sa & sbe */
	unsigned nan, inf;     /* result NaN, result inf */
	unsigned ea0, eb0;     /* IEEE: effective exponent bit 0 of a, b */
	unsigned ed;           /* |ediff|, e rows */
	unsigned eb;           /* the big exponent (e rows), then em1 (ew) */
	unsigned sg;           /* the result sign */
	unsigned ax;           /* A' = big ^ sub, window positions 3..p+2 */
	unsigned bs;           /* the small significand, p rows */
	unsigned po;           /* PO[j] at po + j - 1, j = 1..p-1 */
	unsigned s;            /* S, n rows */
	unsigned ew;           /* em1's width, e + 2 */
	unsigned norm, pack;   /* scratch of the normaliser and the packer */
	unsigned total;        /* scratch rows used */
};

/* Rows that die early share one region: the classes and the IEEE
 * exponent bits (dead after ediff), then A', B and PO (dead after the
 * ar-shadd loop), then the normaliser's and the packer's scratch. */
static void fpadd_region(struct fpadd_rows *L, isa_fpc_rows *r)
{
	const isa_fpc_fmt *f = &L->f;
	const isa_fpc_pack pk = {L->s, L->n, L->eb, L->ew, L->sg, L->zsign,
				 L->inf, L->nan};
	const unsigned late = isa_fpc_normalize_scratch(L->n) +
			      isa_fpc_pack_scratch(f, &pk);
	const unsigned sig = 3 * f->p - 1, early = 8;
	unsigned size = sig > late ? sig : late;
	const unsigned base = isa_fpc_take(r, size > early ? size : early);
	L->ca.inf = base;
	L->ca.nan = base + 1;
	L->cb.inf = base + 2;
	L->cb.nan = base + 3;
	L->ca.tmp = L->cb.tmp = base + 4;
	L->ea0 = f->ieee ? base + 6 : ISA_NONE;
	L->eb0 = f->ieee ? base + 7 : ISA_NONE;
	L->ax = base;
	L->bs = base + f->p;
	L->po = base + 2 * f->p;
	L->norm = base;
	L->pack = base + isa_fpc_normalize_scratch(L->n);
}

static void fpadd_layout(const isa_cmd *c, struct fpadd_rows *L)
{
	const isa_fpc_fmt f = isa_fpc_fmt_of(c);
	isa_fpc_rows r = {c->scratch};
	L->f = f;
	L->n = f.p + 4;
	L->ew = f.e + 2;
	L->sa = c->a + f.w - 1;
	L->sb = c->b + f.w - 1;
	L->sbe = c->op == ISA_FSUB ? isa_fpc_take(&r, 1) : L->sb;
	L->ca = (isa_fpc_class){isa_fpc_take(&r, 1), ISA_NONE, 0, 0, 0};
	L->cb = (isa_fpc_class){isa_fpc_take(&r, 1), ISA_NONE, 0, 0, 0};
	L->sub = isa_fpc_take(&r, 1);
	L->zsign = isa_fpc_take(&r, 1);
	L->nan = isa_fpc_take(&r, 1);
	L->inf = isa_fpc_take(&r, 1);
	L->ed = isa_fpc_take(&r, f.e);
	L->eb = isa_fpc_take(&r, L->ew); /* EB, then em1 in place */
	L->sg = isa_fpc_take(&r, 1);
	L->s = isa_fpc_take(&r, L->n);
	fpadd_region(L, &r);
	L->total = r.next - c->scratch;
}

/* Classes, the effective operation and the special results:
 * NaN if either is NaN or inf - inf; inf if either is inf. */
static void fpadd_classes(const isa_cmd *c, const struct fpadd_rows *L,
			  isa_prog *p)
{
	isa_fpc_classify(p, &L->f, c->a, &L->ca);
	isa_fpc_classify(p, &L->f, c->b, &L->cb);
	if (c->op == ISA_FSUB) {
		isa_emit(p, isa_u1(SRAM_FN_NOT, L->sbe, L->sb));
		isa_emit(p, isa_u2(SRAM_FN_XNOR, L->sub, L->sa, L->sb));
	} else {
		isa_emit(p, isa_u2(SRAM_FN_XOR, L->sub, L->sa, L->sb));
	}
	isa_emit(p, isa_u2(SRAM_FN_COPY, L->zsign, L->sa, L->sbe));
	sram_uop u = isa_u2(SRAM_FN_COPY, L->nan, L->ca.inf, L->cb.inf);
	u.nact = 3;
	u.act[2] = (uint16_t)L->sub;
	isa_emit(p, u);
	u = isa_u2(SRAM_FN_OR, L->nan, L->ca.nan, L->cb.nan);
	u.nact = 3;
	u.act[2] = (uint16_t)L->nan;
	isa_emit(p, u);
	isa_emit(p, isa_u2(SRAM_FN_OR, L->inf, L->ca.inf, L->cb.inf));
}

/* ediff <- ea - eb (effective exponents), T <- (ediff < 0), ediff <-
 * |ediff|.  SUB is a + ~b + C with a in T; C ends as "no borrow".
 * Returns whether any bitline swaps (the controller's answer; true for
 * the baseline). */
static bool fpadd_ediff(const isa_cmd *c, const struct fpadd_rows *L,
			isa_prog *p, isa_ctl *ctl)
{
	const isa_fpc_fmt *f = &L->f;
	if (f->ieee) {
		isa_emit(p, isa_u2(SRAM_FN_XNOR, L->ea0, c->a + f->m, L->ca.h));
		isa_emit(p, isa_u2(SRAM_FN_XNOR, L->eb0, c->b + f->m, L->cb.h));
	}
	for (unsigned i = 0; i < f->e; i++) {
		const unsigned ra = i == 0 && f->ieee ? L->ea0 : c->a + f->m + i;
		const unsigned rb = i == 0 && f->ieee ? L->eb0 : c->b + f->m + i;
		isa_emit(p, isa_l1(SRAM_FN_LOADT, ra));
		sram_uop u = isa_u2(SRAM_FN_SUB, L->ed + i, ra, rb);
		isa_emit(p, i ? u : isa_cpre(u, SRAM_CPRE_1));
	}
	isa_emit(p, isa_l0(SRAM_FN_TFROMNC));
	if (!isa_any(ctl, p))
		return false;
	for (unsigned i = 0; i < f->e; i++) {
		sram_uop u = isa_u1(SRAM_FN_CNEG, L->ed + i, L->ed + i);
		isa_emit(p, i ? u : isa_cpre(u, SRAM_CPRE_0));
	}
	return true;
}

/* The swap of Algorithm 1, as gated copies: where T (ediff < 0) b is the
 * big operand.  A' = big ^ sub.  The swapping copies are skipped when no
 * bitline swaps, the XOR when none subtracts. */
static void fpadd_swap(const isa_cmd *c, const struct fpadd_rows *L,
		       isa_prog *p, bool swaps, bool subs)
{
	const isa_fpc_fmt *f = &L->f;
	const unsigned keep = SRAM_GATE_ENT, swap = SRAM_GATE_ET;
	isa_fpc_exp(p, f, c->a, L->ca.h, L->eb, keep);
	if (swaps)
		isa_fpc_exp(p, f, c->b, L->cb.h, L->eb, swap);
	isa_emit(p, isa_gate(isa_u1(SRAM_FN_COPY, L->sg, L->sa), keep));
	if (swaps)
		isa_emit(p, isa_gate(isa_u1(SRAM_FN_COPY, L->sg, L->sbe), swap));
	isa_fpc_sig(p, f, c->a, L->ca.h, L->ax, keep);
	if (swaps)
		isa_fpc_sig(p, f, c->b, L->cb.h, L->ax, swap);
	for (unsigned i = 0; subs && i < f->p; i++)
		isa_emit(p, isa_u2(SRAM_FN_XOR, L->ax + i, L->ax + i, L->sub));
	isa_fpc_sig(p, f, c->b, L->cb.h, L->bs, keep);
	if (swaps)
		isa_fpc_sig(p, f, c->a, L->ca.h, L->bs, swap);
}

/* Row of PO[j] (PO[0] is B[0] itself). */
static unsigned po_row(const struct fpadd_rows *L, unsigned j)
{
	return j == 0 ? L->bs : L->po + j - 1;
}

/* PO[j] = B[0] | ... | B[j] for j = 1..jmax: the sticky of a shift by
 * j + 3. */
static void fpadd_sticky_prefix(const struct fpadd_rows *L, isa_prog *p,
				unsigned jmax)
{
	for (unsigned j = 1; j <= jmax; j++)
		isa_emit(p, isa_u2(SRAM_FN_OR, po_row(L, j), po_row(L, j - 1),
				   L->bs + j));
}

/* Row of A' at window position i: sub below and above the big operand. */
static unsigned ax_row(const struct fpadd_rows *L, unsigned i)
{
	return i >= 3 && i < L->f.p + 3 ? L->ax + i - 3 : L->sub;
}

/* Row of (B >> k) at window position i, or ISA_NONE where it is 0:
 * B[i + k - 3], and at position 0 the sticky PO[k - 3] of all that falls
 * off.  k = p + 2 stands for every k >= p + 2: B is then all sticky. */
static unsigned bsh_row(const struct fpadd_rows *L, unsigned i, unsigned k)
{
	if (i + k < 3)
		return ISA_NONE;
	if (i == 0)
		return po_row(L, k - 3 < L->f.p ? k - 3 : L->f.p - 1);
	return i + k - 3 < L->f.p ? L->bs + i + k - 3 : ISA_NONE;
}

/* ar-shadd: S' <- A' + (B >> k), gated by gate (duality-cache §3.1.1:
 * the shift costs nothing, position i senses A'[i] with B[i + k - 3]). */
static void fpadd_arshadd(const struct fpadd_rows *L, isa_prog *p, unsigned k,
			  unsigned gate)
{
	for (unsigned i = 0; i < L->n; i++) {
		const unsigned b = bsh_row(L, i, k);
		sram_uop u = b == ISA_NONE ? isa_u1(SRAM_FN_INC, L->s + i, ax_row(L, i))
					   : isa_u2(SRAM_FN_ADD, L->s + i, ax_row(L, i), b);
		if (i == 0)
			u = isa_cpre(u, SRAM_CPRE_0);
		isa_emit(p, isa_gate(u, gate));
	}
}

/* The largest ediff any bitline has, bounded by a leading-zero search on
 * ediff's bits (controller only): 2^(top bit + 1) - 1. */
static unsigned fpadd_kbound(const struct fpadd_rows *L, isa_prog *p,
			     isa_ctl *ctl)
{
	for (unsigned b = L->f.e; b-- > 0;) {
		isa_emit(p, isa_l1(SRAM_FN_LOADT, L->ed + b));
		if (isa_any(ctl, p))
			return (2u << b) - 1;
	}
	return 0;
}

/* Algorithm 1 lines 9-13: one ar-shadd per ediff value present. */
static void fpadd_align_add(const struct fpadd_rows *L, isa_prog *p,
			    isa_ctl *ctl)
{
	const unsigned kinf = L->f.p + 2;
	unsigned kmax = kinf;
	if (ctl) {
		unsigned bound = fpadd_kbound(L, p, ctl);
		kmax = bound < kinf ? bound : kinf;
	}
	/* Shifts k >= 4 read PO[k - 3]; the default pass PO[p - 1]. */
	fpadd_sticky_prefix(L, p, kmax == kinf ? L->f.p - 1 : kmax > 3 ? kmax - 3 : 0);
	if (kmax == kinf)
		fpadd_arshadd(L, p, kinf, SRAM_GATE_E);
	for (unsigned k = 0; k <= kmax && k < kinf; k++) {
		isa_fpc_match(p, L->ed, L->f.e, k);
		if (isa_any(ctl, p))
			fpadd_arshadd(L, p, k, SRAM_GATE_ET);
	}
}

/* S <- S' ^ sub; where S < 0 (a subtraction with ediff == 0 and b the
 * bigger), S <- -S and the sign flips.  Nothing to do when no bitline
 * subtracts. */
static void fpadd_magnitude(const struct fpadd_rows *L, isa_prog *p,
			    bool subs)
{
	if (!subs)
		return;
	for (unsigned i = 0; i < L->n; i++)
		isa_emit(p, isa_u2(SRAM_FN_XOR, L->s + i, L->s + i, L->sub));
	isa_emit(p, isa_l2(SRAM_FN_LOADT, L->s + L->n - 1, L->sub));
	for (unsigned i = 0; i < L->n; i++) {
		sram_uop u = isa_u1(SRAM_FN_CNEG, L->s + i, L->s + i);
		isa_emit(p, i ? u : isa_cpre(u, SRAM_CPRE_0));
	}
	isa_emit(p, isa_u1(SRAM_FN_XORT, L->sg, L->sg));
}

int isa_gen_fpadd(const isa_cmd *c, unsigned bitlines, isa_prog *p,
		  isa_ctl *ctl)
{
	(void)bitlines;
	if ((c->op != ISA_FADD && c->op != ISA_FSUB) || !isa_fpfmt_of(c->fmt))
		return -1;
	struct fpadd_rows L;
	fpadd_layout(c, &L);
	fpadd_classes(c, &L, p);
	bool subs = true;
	if (ctl) {
		isa_emit(p, isa_l1(SRAM_FN_LOADT, L.sub));
		subs = isa_any(ctl, p);
	}
	const bool swaps = fpadd_ediff(c, &L, p, ctl);
	fpadd_swap(c, &L, p, swaps, subs);
	fpadd_align_add(&L, p, ctl);
	fpadd_magnitude(&L, p, subs);
	/* The window's top position weighs 2^(EB + 1 - bias): em1 = EB - shift. */
	isa_fpc_normalize(p, ctl, L.s, L.n, L.eb, L.f.e, L.eb, L.ew, L.norm);
	const isa_fpc_pack pk = {L.s, L.n, L.eb, L.ew, L.sg, L.zsign,
				 L.inf, L.nan};
	isa_fpc_round_pack(p, ctl, &L.f, &pk, c->d, L.pack);
	return 0;
}

void isa_rules_fpadd(const isa_cmd *c, unsigned bitlines, isa_rules *r)
{
	(void)bitlines;
	const isa_fpfmt *ff = isa_fpfmt_of(c->fmt);
	if (!ff)
		return;
	struct fpadd_rows L;
	fpadd_layout(c, &L);
	r->min_width = r->max_width = ff->width;
	r->scratch_rows = L.total;
	r->d_may_alias_a = r->d_may_alias_b = true;
}

uint64_t isa_cycles_fpadd(const isa_cmd *c, unsigned bitlines)
{
	(void)bitlines;
	if (!isa_fpfmt_of(c->fmt))
		return 0;
	struct fpadd_rows L;
	fpadd_layout(c, &L);
	const isa_fpc_fmt *f = &L.f;
	const uint64_t e = f->e, pp = f->p, n = L.n;
	uint64_t cyc = 2 * isa_fpc_classify_cycles(f, &L.ca);
	cyc += (c->op == ISA_FSUB) + 5;            /* sub, zsign, nan, inf */
	cyc += (f->ieee ? 2 : 0) + 3 * e + 1;      /* ediff, |ediff| */
	cyc += 2 * e + 2 + 5 * pp + (pp - 1);      /* swap, sticky prefix */
	cyc += (pp + 3) * n;                       /* ar-shadd, p + 3 of them */
	for (unsigned k = 0; k < f->p + 2; k++)
		cyc += isa_fpc_match_cycles(f->e, k);
	cyc += 2 * n + 2;                          /* magnitude */
	cyc += isa_fpc_normalize_cycles(L.n, L.ew);
	const isa_fpc_pack pk = {L.s, L.n, L.eb, L.ew, L.sg, L.zsign,
				 L.inf, L.nan};
	return cyc + isa_fpc_pack_cycles(f, &pk);
}
