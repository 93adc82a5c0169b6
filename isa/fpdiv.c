/* SPDX-License-Identifier: MIT */
/*
 * fpdiv.c: floating-point divide, bit-serially: "a combination of
 * subtraction of exponent bits and division of mantissa bits"
 * (duality-cache §3.1.1, last paragraphs); doc/commands/fpmul-div.md
 * gives the schedule cycle by cycle and the measured optimised latencies.
 *
 * With p = m + 1 significand bits and ew = e + 2 exponent bits:
 *   unpack a and b (isa_fpmd_unpack): class rows, significands ma, mb,
 *     exponents; IEEE mode normalises subnormals
 *   sign := sa ^ sb; inf := ia | zb; nan := na | nb | za&zb | ia&ib   6
 *   where b is inf: ma := 0, so that x / inf is a signed zero       1 + p
 *   em1 := ea - eb (SUB: a + ~b + 1, a stashed in T)                2 ew
 *   NB := ~mb, in place                                              p
 *   Q := floor(ma 2^(p+1) / mb), p + 2 bits, and S := (remainder != 0),
 *     by restoring division (below)                    (p + 2)(2p + 2) + 2
 *   tail (isa_fpmd_finish) on the band S, Q[0..p+1]:
 *     em1 += bias - 2 + Q[p+1]; shift the band right by Q[p+1] with sticky
 *     (ma / mb is in (1/2, 2), so the top bit is Q[p+1] or Q[p]); round
 *     to nearest even and pack.
 * 0 / x is 0 as its significand is 0; x / 0 and the NaN cases are forced
 * rows (the quotient of a zero divisor is all ones, and ignored).
 *
 * The significand division is Neural Cache's restoring division (isa/div.c)
 * on normalised significands.  The partial remainder R (p + 1 bits, as
 * R < 2 mb) starts as ma; each iteration computes R - mb as R + NB + 1 with
 * the one-cycle full adder (the complement is made once, not per bit as
 * div.c's SUB does), takes the carry out as the quotient bit (R >= mb: a
 * carry, or R's top bit), and keeps R where the subtraction failed.  The
 * doubling of R is free: the new R is written one row up, into the other
 * of two ping-pong buffers whose row 0 stays 0.  Quotient bit j = p+1-k
 * of iteration k:
 *   D[i+1] := R[i] + NB[i] + C   (C := 1 at i = 0), i < p              p
 *   C := C | R[p]   (not in iteration 0: R = ma < 2^p)                  1
 *   T := C, and Q[j+1] := T (the previous bit, still in T)              1
 *   D[i+1] := R[i] where T is clear (the restore)                       p
 * and a last cycle writes Q[0].  Buffer 0 is scratch; buffer 1 is ma's
 * rows and one more (ma is read only by iteration 0; iteration 1's C |=
 * R[p] cycle clears buffer 1's row 0).  S is the OR of the last
 * remainder, one search.
 *
 * Data-dependent latency (§3.1.2), with a controller:
 *   - bounding the digits: rows that are 0 on every bitline at the bottom
 *     of both ma and mb (lo of them, one OR search each from the bottom)
 *     stay 0 in every partial remainder, so every iteration starts at row
 *     lo; above them, rows where only mb is 0 on every bitline (up to mid,
 *     one LOADT each) subtract nothing: there R - mb is R (R + 1 + C with
 *     C = 1), so one plain copy does the add and the restore.  An
 *     iteration costs (mid - lo) + 2(p - mid) + 2;
 *   - skipping zero residues: when ma and mb share such zeros (lo > 0,
 *     where exact quotients are plausible), each iteration ends with a
 *     search of its remainder for 0 (which also writes the quotient bit);
 *     once it is 0 on every bitline, the remaining quotient bits and S are
 *     0 and the iterations stop.  (A divisor whose significand is odd on
 *     some bitline gives a zero residue there only if ma = mb, so for
 *     general data the search would only cost.)
 *   - the x / inf clearing and IEEE-mode normalisation run only where a
 *     bitline needs them.
 * The quotient always has p + 1 or p + 2 digits, so the leading-zero
 * bound of §3.1.2 gives nothing for normalised significands.
 *
 * a and b are read only before the first write to d: d may be a or b.
 */
#include "fpmuldiv.h"
#include "family.h"

struct fpdiv_rows {
	isa_fpc_fmt f;
	isa_fpmd_operand a, b;   /* a.sig = buffer 1, b.sig = NB */
	unsigned buf[2];         /* p + 1 rows each */
	isa_fpmd_tail t;         /* band: S, then Q[0..p+1] */
	unsigned utmp;           /* the unpacker's scratch: the band's rows */
	unsigned tmp;            /* the packer's scratch */
	unsigned total;
};

static void fpdiv_layout(const isa_cmd *c, struct fpdiv_rows *L)
{
	const isa_fpc_fmt f = isa_fpc_fmt_of(c);
	const unsigned base = c->scratch, unpack = isa_fpmd_unpack_scratch(&f);
	isa_fpc_rows r = {base};
	L->f = f;
	isa_fpmd_take_class(&r, &L->a, &L->b);
	L->buf[1] = L->a.sig = isa_fpc_take(&r, f.p + 1);
	L->b.sig = isa_fpc_take(&r, f.p);
	L->buf[0] = isa_fpc_take(&r, f.p + 1);
	L->t.band = isa_fpc_take(&r, f.p + 3);
	L->utmp = unpack <= f.p + 3 ? L->t.band : isa_fpc_take(&r, unpack);
	isa_fpmd_take_tail(&r, &f, &L->a, &L->b, &L->t);
	/* ma / mb = Q / 2^(p+1): with the top bit at Q[p] the value is
	 * Q / 2^p * 2^(em1 + 1 - bias) for em1 = ea - eb + bias - 2. */
	L->t.k = f.bias - 2;
	L->tmp = isa_fpmd_take_pack(&r, &f, base, L->t.band);
	L->total = r.next - base;
}

/* Where b is inf, ma := 0 (x / inf = 0). */
static void fpdiv_by_inf(const struct fpdiv_rows *L, isa_prog *p,
			 isa_ctl *ctl)
{
	isa_emit(p, isa_l1(SRAM_FN_LOADT, L->b.inf));
	if (!isa_any(ctl, p))
		return;
	for (unsigned i = 0; i < L->f.p; i++)
		isa_emit(p, isa_gate(isa_w0(SRAM_FN_ZERO, L->a.sig + i), SRAM_GATE_ET));
}

/* em1 := ea - eb in place. */
static void fpdiv_exp_diff(const struct fpdiv_rows *L, isa_prog *p)
{
	for (unsigned i = 0; i < isa_fpmd_ew(&L->f); i++) {
		const unsigned ea = L->a.e + i;
		isa_emit(p, isa_l1(SRAM_FN_LOADT, ea));
		sram_uop u = isa_u2(SRAM_FN_SUB, ea, ea, L->b.e + i);
		isa_emit(p, i ? u : isa_cpre(u, SRAM_CPRE_1));
	}
}

/* How the division runs (header): rows below lo are 0 in every partial
 * remainder and in mb; rows below mid are 0 in mb, so that there the
 * difference is R itself and a plain copy does the add and the restore;
 * zres: search each remainder for 0. */
struct fpdiv_plan {
	unsigned lo, mid;
	bool zres;
};

/* The buffer iteration k reads its partial remainder from (k = 0: ma,
 * in buffer 1); it writes the next one to rem_buf(k + 1). */
static unsigned rem_buf(const struct fpdiv_rows *L, unsigned k)
{
	return L->buf[(k + 1) & 1];
}

/* Iteration k: the trial subtraction, the quotient bit into T (and the
 * previous one into Q, unless the zero-residue search wrote it), the
 * restore. */
static void fpdiv_iteration(const struct fpdiv_rows *L,
			    const struct fpdiv_plan *pl, unsigned k,
			    isa_prog *p)
{
	const unsigned n = L->f.p, cur = rem_buf(L, k), oth = rem_buf(L, k + 1);
	const unsigned qprev = L->t.band + 1 + (n + 2 - k);
	for (unsigned i = pl->lo; i < pl->mid; i++)
		isa_emit(p, isa_u1(SRAM_FN_COPY, oth + i + 1, cur + i));
	for (unsigned i = pl->mid; i < n; i++) {
		sram_uop u = isa_u2(SRAM_FN_ADD, oth + i + 1, cur + i, L->b.sig + i);
		isa_emit(p, i > pl->mid ? u : isa_cpre(u, SRAM_CPRE_1));
	}
	/* (mid == n: mb is 0 on every bitline, a zero divisor whose result is
	 * forced; C := 1 keeps the quotient defined.) */
	const unsigned cpre = pl->mid < n ? SRAM_CPRE_KEEP : SRAM_CPRE_1;
	if (k) {
		sram_uop u = isa_l1(SRAM_FN_CORS, cur + n);
		/* ma is dead: buffer 1's row lo must read 0 from now on. */
		if (k == 1)
			u = isa_with_l(isa_u1(SRAM_FN_ZERO, L->buf[1] + pl->lo,
					      cur + n), SRAM_FN_CORS);
		isa_emit(p, isa_cpre(u, cpre));
	}
	sram_uop q = isa_l0(SRAM_FN_TFROMC);
	if (k && !pl->zres)
		q = isa_with_l(isa_w0(SRAM_FN_WRT, qprev), SRAM_FN_TFROMC);
	isa_emit(p, k ? q : isa_cpre(q, cpre));
	for (unsigned i = pl->mid; i < n; i++)
		isa_emit(p, isa_gate(isa_u1(SRAM_FN_COPY, oth + i + 1, cur + i),
				     SRAM_GATE_ENT));
}

/* The zero-residue search after iteration k, writing its quotient bit:
 * true when the remainder is 0 on every bitline, and then the rest of the
 * quotient and S are written 0. */
static bool fpdiv_zero_residue(const struct fpdiv_rows *L,
			       const struct fpdiv_plan *pl, unsigned k,
			       isa_prog *p, isa_ctl *ctl)
{
	const unsigned n = L->f.p, oth = rem_buf(L, k + 1);
	const unsigned q = L->t.band + 1 + (n + 1 - k);
	isa_emit(p, isa_uset(SRAM_FN_WRT, q, SRAM_FN_LOADTOR, oth + pl->lo + 1,
			     isa_mask(n - pl->lo)));
	if (isa_any(ctl, p))
		return false;
	for (unsigned r = L->t.band; r < q; r++)
		isa_emit(p, isa_w0(SRAM_FN_ZERO, r));
	return true;
}

/* Q and S (header). */
static void fpdiv_divide(const struct fpdiv_rows *L, isa_prog *p,
			 isa_ctl *ctl)
{
	const unsigned n = L->f.p;
	struct fpdiv_plan pl = {0, 0, false};
	pl.lo = isa_fpmd_low_zeros(p, ctl, L->a.sig, L->b.sig, n);
	pl.mid = pl.lo + isa_fpmd_low_zeros(p, ctl, L->b.sig + pl.lo, ISA_NONE,
					    n - pl.lo);
	pl.zres = pl.lo > 0 && pl.lo < n;
	for (unsigned i = 0; i < n; i++) /* NB := ~mb */
		isa_emit(p, isa_u1(SRAM_FN_NOT, L->b.sig + i, L->b.sig + i));
	for (unsigned i = 0; i <= pl.lo && i <= n; i++)
		isa_emit(p, isa_w0(SRAM_FN_ZERO, L->buf[0] + i));
	for (unsigned k = 0; k < n + 2; k++) {
		fpdiv_iteration(L, &pl, k, p);
		if (pl.zres && k + 1 < n + 2 &&
		    fpdiv_zero_residue(L, &pl, k, p, ctl))
			return;
	}
	isa_emit(p, isa_w0(SRAM_FN_WRT, L->t.band + 1));
	isa_fpc_reduce(p, SRAM_FN_OR, L->t.band, rem_buf(L, n + 2), n + 1,
		       SRAM_GATE_E);
}

int isa_gen_fpdiv(const isa_cmd *c, unsigned bitlines, isa_prog *p,
		  isa_ctl *ctl)
{
	(void)bitlines;
	const isa_fpfmt *ff = isa_fpfmt_of(c->fmt);
	if (c->op != ISA_FDIV || !ff || c->width != ff->width)
		return -1;
	struct fpdiv_rows L;
	fpdiv_layout(c, &L);
	const isa_fpc_fmt *f = &L.f;
	isa_fpmd_unpack(p, ctl, f, c->a, &L.a, L.utmp);
	isa_fpmd_unpack(p, ctl, f, c->b, &L.b, L.utmp);
	isa_fpmd_specials(p, true, c->a + f->w - 1, c->b + f->w - 1, &L.a, &L.b,
			  &L.t);
	fpdiv_by_inf(&L, p, ctl);
	fpdiv_exp_diff(&L, p);
	fpdiv_divide(&L, p, ctl);
	isa_fpmd_finish(p, ctl, f, &L.t, c->d, L.tmp);
	return 0;
}

void isa_rules_fpdiv(const isa_cmd *c, unsigned bitlines, isa_rules *r)
{
	(void)bitlines;
	const isa_fpfmt *ff = isa_fpfmt_of(c->fmt);
	if (!ff)
		return;
	struct fpdiv_rows L;
	fpdiv_layout(c, &L);
	r->min_width = r->max_width = ff->width;
	r->scratch_rows = L.total;
	r->d_may_alias_a = r->d_may_alias_b = true;
}

uint64_t isa_cycles_fpdiv(const isa_cmd *c, unsigned bitlines)
{
	(void)bitlines;
	if (!isa_fpfmt_of(c->fmt))
		return 0;
	const isa_fpc_fmt f = isa_fpc_fmt_of(c);
	const uint64_t n = f.p, ew = isa_fpmd_ew(&f);
	uint64_t cyc = 2 * isa_fpmd_unpack_cycles(&f) + 6 + (1 + n);
	cyc += 2 * ew + n + (n + 2) * (2 * n + 2) + 2;
	return cyc + isa_fpmd_finish_cycles(&f);
}
