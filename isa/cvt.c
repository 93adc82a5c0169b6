/* SPDX-License-Identifier: MIT */
/*
 * cvt.c: conversions between every pair of element types: integers of
 * any width 1..64 (signed or not), .qN fixed point (N - 3 fraction bits,
 * signed) and the float formats f32, f16, bf16.  The rules are the
 * reference's (isa/fpref.c, isa_fp_cvt): int to float and float to float
 * round to nearest even; float to int or fixed rounds toward zero and
 * saturates, NaN to the largest value (RISC-V fcvt); int to int keeps the
 * low bits of the sign- or zero-extended value; a rescale that involves a
 * .qN truncates the magnitude toward zero and saturates.
 *
 * Everything is micro-ops (doc/commands/fpcmp-cvt.md has each schedule).
 * Six kinds of conversion, one schedule each:
 *
 * int -> int: row renaming.  d[i] := a[i], and above the source's width
 * copies of its sign row (signed) or zeros.  n cycles.
 *
 * rescale (a .qN on either side): R = |a| * 2^(fd - fs) truncated, fs and
 * fd the fraction bits.  |a| by a conditional negate (select.c's CNEG,
 * T = the sign); the constant scaling is a renaming of rows; the negate
 * back (CNEG again) writes d; R >= 2^L (L = n - 1 signed, n unsigned)
 * is one search over the rows of |a| that would land at L or above, and
 * saturates d, gated by T.
 *
 * float -> int/fixed: V = floor(S * 2^(exp - bias - m + fd)), S the
 * significand (the hidden bit over the fraction).  With S's top bit put
 * at row L-1 of an L-row register (d itself), V is that register shifted
 * right by r = R0 - exp, R0 = L - 1 + bias - fd.  Only L values of r
 * give a non-zero in-range result, so the flags come from constant
 * comparisons of the exponent field (a T chain, one cycle per run of
 * equal bits of the constant: exp >= k is AND over k's 1 runs and OR over
 * its 0 runs, from k's lowest 1 up, using TANDS / TORNZ over a
 * many-wordline set, duality-cache §3.1.1):
 *   OV: exp >= min(R0 + 1, 2^e - 1): r < 0 (|V| >= 2^L), inf and NaN;
 *   ZF: exp <= R0 - L: r >= L, V = 0 (with DAZ's exp == 0 in hardware
 *       mode).
 * The shift is a logarithmic barrel (shift.c) over the J = ceil(log2 L)
 * low bits of r, which come from the exponent's low bits as
 * r = ~(exp + ~R0) mod 2^J (a constant add, one cycle a bit); each stage
 * loads its amount bit into T and moves the rows gated by T, only the
 * rows that can be non-zero by then.  Then the sign: CNEG (signed), and
 * the saturation values where OV.
 *
 * int/fixed -> float: |a| (CNEG) at the top of a significand register of
 * SW = max(n_a, p + 2) rows; the leading-zero search normalises it
 * (fpcore.h, isa_fpc_normalize, duality-cache §3.1.2) from the constant
 * exponent bias + n_a - fs - 2; isa_fpc_round_pack rounds to nearest
 * even and packs (inf on overflow, subnormals or FTZ for a .qN to f16).
 *
 * float -> float: classify (hidden bit, inf, NaN rows), the significand
 * at the top of an SW = max(p_a, p + 2) row register, the exponent
 * rebiased by a constant add; the leading-zero search only where a
 * source subnormal can become a normal (IEEE mode, f16 to f32 or bf16);
 * then round and pack (canonical NaN, inf, FTZ in hardware mode).
 *
 * float -> float, exact (bf16 -> f32, a format to itself): a masked copy,
 * see gen_widen.
 *
 * Data-dependent latency (duality-cache §3.1.2): with a controller, a
 * barrel stage or normalisation stage no bitline needs is skipped, and so
 * are the saturation writes when nothing saturates.
 *
 * d may not overlap a (isa_check).  T and C are clobbered.
 */
#include "fpcore.h"
#include "family.h"

/* One side of a conversion. */
struct cvt_type {
	unsigned w, frac;        /* width; fraction bits of a .qN, else 0 */
	bool sgn;                /* two's complement (.iN and .qN) */
	const isa_fpfmt *ff;     /* the float format, or NULL */
};

static struct cvt_type cvt_type_of(unsigned fmt, unsigned w, bool sgn)
{
	struct cvt_type t = {w, 0, sgn, isa_fpfmt_of(fmt)};
	if (fmt == ISA_FMT_FIX) {
		t.frac = w - ISA_FIX_INT;
		t.sgn = true;
	}
	if (t.ff)
		t.sgn = true;
	return t;
}

static struct cvt_type cvt_src(const isa_cmd *c)
{
	return cvt_type_of(c->sfmt, c->swidth, c->ssigned);
}

static struct cvt_type cvt_dst(const isa_cmd *c)
{
	return cvt_type_of(c->fmt, c->width, c->is_signed);
}

enum cvt_kind { CVT_WRAP, CVT_RESCALE, CVT_INT_FLOAT, CVT_FLOAT_INT,
		CVT_FLOAT_FLOAT, CVT_WIDEN };

static enum cvt_kind cvt_kind_of(const isa_cmd *c)
{
	const struct cvt_type s = cvt_src(c), d = cvt_dst(c);
	if (s.ff && d.ff && s.ff->ebits == d.ff->ebits &&
	    s.ff->bias == d.ff->bias && s.ff->mbits <= d.ff->mbits)
		return CVT_WIDEN;
	if (s.ff)
		return d.ff ? CVT_FLOAT_FLOAT : CVT_FLOAT_INT;
	if (d.ff)
		return CVT_INT_FLOAT;
	return c->sfmt == ISA_FMT_INT && c->fmt == ISA_FMT_INT ? CVT_WRAP
							       : CVT_RESCALE;
}

/* The float format of one side, as fpcore sees it. */
static isa_fpc_fmt fpc_of(const isa_fpfmt *ff, const isa_cmd *c)
{
	isa_fpc_fmt f = {ff->width, ff->ebits, ff->mbits, ff->mbits + 1,
			 ff->bias, (c->flags & ISA_FL_IEEE) != 0};
	return f;
}

static unsigned ceil_log2(unsigned n)
{
	unsigned j = 0;
	while ((1u << j) < n)
		j++;
	return j;
}

/* ---- small shared pieces ---- */

/* Rows dst[0..n) := |a| for the n-bit two's complement a (CNEG with T =
 * the sign; MIN stays MIN, which is its magnitude unsigned).  n + 1. */
static void emit_magnitude(isa_prog *p, unsigned a, unsigned n, unsigned dst)
{
	isa_emit(p, isa_l1(SRAM_FN_LOADT, a + n - 1));
	for (unsigned i = 0; i < n; i++) {
		sram_uop u = isa_u1(SRAM_FN_CNEG, dst + i, a + i);
		isa_emit(p, i ? u : isa_cpre(u, SRAM_CPRE_0));
	}
}

/* T := (the e-bit field at exp) >= k, for 1 <= k < 2^e.  Bit by bit
 * from the bottom, G' = k_i ? e_i & G : e_i | G; a run of equal k bits
 * is one many-wordline read (TANDS: AND of the run, TORNZ: OR of it).
 * The bits below k's lowest 1 leave G = 1. */
static void emit_exp_ge(isa_prog *p, unsigned exp, unsigned e, uint64_t k)
{
	unsigned i = (unsigned)__builtin_ctzll(k);
	bool first = true;
	while (i < e) {
		const bool one = (k >> i) & 1;
		unsigned j = i;
		while (j < e && (((k >> j) & 1) == one))
			j++;
		const unsigned lfn = first ? SRAM_FN_LOADT
				     : one ? SRAM_FN_TANDS : SRAM_FN_TORNZ;
		isa_fpc_search(p, lfn, exp + i, j - i);
		first = false;
		i = j;
	}
}

static unsigned exp_ge_cycles(unsigned e, uint64_t k)
{
	unsigned runs = 0;
	for (unsigned i = (unsigned)__builtin_ctzll(k); i < e; i++)
		runs += i == (unsigned)__builtin_ctzll(k) ||
			((k >> i) & 1) != ((k >> (i - 1)) & 1);
	return runs;
}

/* ---- int -> int ---- */

static void gen_wrap(isa_prog *p, const isa_cmd *c)
{
	const struct cvt_type s = cvt_src(c);
	for (unsigned i = 0; i < c->width; i++) {
		const unsigned from = i < s.w ? c->a + i : c->a + s.w - 1;
		isa_emit(p, i < s.w || c->ssigned ? isa_u1(SRAM_FN_COPY, c->d + i, from)
						  : isa_w0(SRAM_FN_ZERO, c->d + i));
	}
}

/* ---- rescale: a .qN on one side or both ---- */

struct rescale_plan {
	struct cvt_type s, d;
	int sh;             /* fd - fs: R = |a| * 2^sh, truncated */
	unsigned L;         /* magnitude bits of d: n - 1 signed, n unsigned */
	unsigned k0;        /* |a| >= 2^k0 saturates */
	bool sat;           /* can it? (k0 < the source width) */
	unsigned mag;       /* |a|: scratch rows, or a itself (unsigned a) */
	unsigned zero, nsign, rows; /* scratch rows; rows used */
};

static struct rescale_plan rescale_plan_of(const isa_cmd *c)
{
	struct rescale_plan P;
	P.s = cvt_src(c);
	P.d = cvt_dst(c);
	P.sh = (int)P.d.frac - (int)P.s.frac;
	P.L = P.d.sgn ? c->width - 1u : c->width;
	const int k0 = (int)P.L - P.sh;
	P.k0 = k0 > 0 ? (unsigned)k0 : 0;
	P.sat = P.k0 < P.s.w;
	isa_fpc_rows r = {c->scratch};
	P.mag = P.s.sgn ? isa_fpc_take(&r, P.s.w) : c->a;
	P.zero = P.s.sgn && P.d.sgn ? isa_fpc_take(&r, 1) : ISA_NONE;
	P.nsign = P.s.sgn && !P.d.sgn ? isa_fpc_take(&r, 1) : ISA_NONE;
	P.rows = r.next - c->scratch;
	return P;
}

/* The row of |a| that lands at bit i of R, or ISA_NONE (a zero). */
static unsigned rescale_row(const struct rescale_plan *P, unsigned i)
{
	const int k = (int)i - P->sh;
	return k >= 0 && k < (int)P->s.w ? P->mag + (unsigned)k : ISA_NONE;
}

/* Signed a to signed d: d := sign ? -R : R by CNEG (the top bit is
 * T & C, C the OR of R's bits: CNEG of a zero row), then MIN or MAX
 * where R >= 2^L. */
static void rescale_signed(isa_prog *p, isa_ctl *ctl, const isa_cmd *c,
			   const struct rescale_plan *P)
{
	const unsigned sign = c->a + P->s.w - 1, n = c->width;
	isa_emit(p, isa_w0(SRAM_FN_ZERO, P->zero));
	isa_emit(p, isa_l1(SRAM_FN_LOADT, sign));
	for (unsigned i = 0; i < n; i++) {
		const unsigned row = i < P->L ? rescale_row(P, i) : ISA_NONE;
		sram_uop u = isa_u1(SRAM_FN_CNEG, c->d + i,
				    row == ISA_NONE ? P->zero : row);
		isa_emit(p, i ? u : isa_cpre(u, SRAM_CPRE_0));
	}
	if (!P->sat)
		return;
	isa_fpc_search(p, SRAM_FN_LOADTOR, P->mag + P->k0, P->s.w - P->k0);
	if (!isa_any(ctl, p))
		return;
	for (unsigned i = 0; i < n; i++)
		isa_emit(p, isa_gate(isa_u1(i + 1 < n ? SRAM_FN_NOT : SRAM_FN_COPY,
					    c->d + i, sign), SRAM_GATE_ET));
}

/* Unsigned a to a .qN: R, and MAX where R >= 2^L. */
static void rescale_from_unsigned(isa_prog *p, isa_ctl *ctl, const isa_cmd *c,
				  const struct rescale_plan *P)
{
	const unsigned n = c->width;
	for (unsigned i = 0; i < n; i++) {
		const unsigned row = i < P->L ? rescale_row(P, i) : ISA_NONE;
		isa_emit(p, row == ISA_NONE ? isa_w0(SRAM_FN_ZERO, c->d + i)
					    : isa_u1(SRAM_FN_COPY, c->d + i, row));
	}
	if (!P->sat)
		return;
	isa_fpc_search(p, SRAM_FN_LOADTOR, P->mag + P->k0, P->s.w - P->k0);
	if (!isa_any(ctl, p))
		return;
	for (unsigned i = 0; i + 1 < n; i++)
		isa_emit(p, isa_gate(isa_w0(SRAM_FN_ONE, c->d + i), SRAM_GATE_ET));
}

/* A .qN to an unsigned d: R where a >= 0, else 0; MAX where a >= 0 and
 * R >= 2^n. */
static void rescale_to_unsigned(isa_prog *p, isa_ctl *ctl, const isa_cmd *c,
				const struct rescale_plan *P)
{
	const unsigned sign = c->a + P->s.w - 1, n = c->width;
	isa_emit(p, isa_u1(SRAM_FN_NOT, P->nsign, sign));
	for (unsigned i = 0; i < n; i++) {
		const unsigned row = rescale_row(P, i);
		isa_emit(p, row == ISA_NONE ? isa_w0(SRAM_FN_ZERO, c->d + i)
					    : isa_u2(SRAM_FN_COPY, c->d + i, row, P->nsign));
	}
	if (!P->sat)
		return;
	isa_fpc_search(p, SRAM_FN_LOADTOR, P->mag + P->k0, P->s.w - P->k0);
	isa_emit(p, isa_l1(SRAM_FN_TANDZ, sign));
	if (!isa_any(ctl, p))
		return;
	for (unsigned i = 0; i < n; i++)
		isa_emit(p, isa_gate(isa_w0(SRAM_FN_ONE, c->d + i), SRAM_GATE_ET));
}

static void gen_rescale(isa_prog *p, isa_ctl *ctl, const isa_cmd *c)
{
	const struct rescale_plan P = rescale_plan_of(c);
	if (P.s.sgn)
		emit_magnitude(p, c->a, P.s.w, P.mag);
	if (P.s.sgn && P.d.sgn)
		rescale_signed(p, ctl, c, &P);
	else if (P.d.sgn)
		rescale_from_unsigned(p, ctl, c, &P);
	else
		rescale_to_unsigned(p, ctl, c, &P);
}

static uint64_t rescale_cycles(const isa_cmd *c)
{
	const struct rescale_plan P = rescale_plan_of(c);
	const uint64_t n = c->width;
	if (P.s.sgn && P.d.sgn)
		return P.s.w + 1 + 2 + n + (P.sat ? 1 + n : 0);
	if (P.d.sgn)
		return n + (P.sat ? n : 0);
	return P.s.w + 1 + 1 + n + (P.sat ? 2 + n : 0);
}

/* ---- float -> int or fixed ---- */

struct f2i_plan {
	const isa_fpfmt *ff;   /* the source format */
	unsigned n, L, J;      /* d's width, magnitude bits, barrel stages */
	bool sgn;              /* d is two's complement */
	int R0;                /* the shift right is r = R0 - exp */
	unsigned lo0;          /* lowest register row the significand reaches */
	uint64_t k_ov, k_nz;   /* OV: exp >= k_ov; not ZF: exp >= k_nz */
	bool zf;               /* is there a ZF range at all? */
	bool sub;              /* IEEE subnormals reach the register */
	unsigned nz, sat, sgnp, h, e0, one, zero, dead, t; /* scratch rows */
	unsigned rows;
};

static struct f2i_plan f2i_plan_of(const isa_cmd *c)
{
	struct f2i_plan P;
	const struct cvt_type d = cvt_dst(c);
	const bool ieee = c->flags & ISA_FL_IEEE;
	P.ff = isa_fpfmt_of(c->sfmt);
	const unsigned e = P.ff->ebits, m = P.ff->mbits;
	P.n = c->width;
	P.sgn = d.sgn;
	P.L = d.sgn ? P.n - 1 : P.n;
	P.J = ceil_log2(P.L);
	P.R0 = (int)P.L - 1 + (int)P.ff->bias - (int)d.frac;
	P.lo0 = P.L > m + 1 ? P.L - 1 - m : 0;
	const uint64_t emax = isa_mask(e);
	P.k_ov = (uint64_t)P.R0 + 1 < emax ? (uint64_t)P.R0 + 1 : emax;
	/* ZF: exp <= R0 - L; in hardware mode exp == 0 always (DAZ); in IEEE
	 * mode a subnormal counts as exp 1. */
	const int cz = (int)P.ff->bias - (int)d.frac - 1;
	P.zf = !ieee || cz >= 1;
	P.k_nz = (uint64_t)(cz > 0 ? cz : 0) + 1;
	P.sub = !P.zf;
	isa_fpc_rows r = {c->scratch};
	P.nz = P.zf || !P.sgn ? isa_fpc_take(&r, 1) : ISA_NONE;
	P.sat = isa_fpc_take(&r, 1);
	P.sgnp = P.sgn ? isa_fpc_take(&r, 1) : ISA_NONE;
	P.h = P.sub ? isa_fpc_take(&r, 1) : ISA_NONE;
	P.e0 = P.sub && P.J ? isa_fpc_take(&r, 1) : ISA_NONE;
	P.one = P.J ? isa_fpc_take(&r, 1) : ISA_NONE;
	P.zero = P.sgn || P.J > e ? isa_fpc_take(&r, 1) : ISA_NONE;
	P.dead = isa_fpc_take(&r, 1);
	P.t = isa_fpc_take(&r, P.J);
	P.rows = r.next - c->scratch;
	return P;
}

/* T := NaN(a): a fraction bit set and the exponent all ones.  2 cycles. */
static void emit_nan_into_tag(isa_prog *p, const isa_fpfmt *ff, unsigned a)
{
	isa_fpc_search(p, SRAM_FN_LOADTOR, a, ff->mbits);
	isa_fpc_search(p, SRAM_FN_TANDS, a + ff->mbits, ff->ebits);
}

/* The flag rows: sat (where d saturates), sgnp (signed d: the sign of
 * the saturation value, sign & ~NaN), nz (the mask of the significand:
 * not ZF, and a >= 0 for an unsigned d), and for IEEE subnormals the
 * hidden bit h and the effective exponent's bit 0. */
static void f2i_flags(isa_prog *p, const isa_cmd *c, const struct f2i_plan *P)
{
	const unsigned e = P->ff->ebits, exp = c->a + P->ff->mbits;
	const unsigned sign = c->a + P->ff->width - 1;
	if (P->sgn) {
		emit_exp_ge(p, exp, e, P->k_ov);
		isa_emit(p, isa_w0(SRAM_FN_WRT, P->sat));
		emit_nan_into_tag(p, P->ff, c->a);
		isa_emit(p, isa_l0(SRAM_FN_TNOT));
		isa_emit(p, isa_l1(SRAM_FN_TANDS, sign));
		isa_emit(p, isa_w0(SRAM_FN_WRT, P->sgnp));
	} else {
		emit_nan_into_tag(p, P->ff, c->a);
		isa_emit(p, isa_w0(SRAM_FN_WRT, P->sat));
		emit_exp_ge(p, exp, e, P->k_ov);
		isa_emit(p, isa_l1(SRAM_FN_TANDZ, sign));
		isa_emit(p, isa_l1(SRAM_FN_TORS, P->sat));
		isa_emit(p, isa_w0(SRAM_FN_WRT, P->sat));
	}
	if (P->nz != ISA_NONE) {
		if (P->zf)
			emit_exp_ge(p, exp, e, P->k_nz);
		if (!P->sgn)
			isa_emit(p, isa_l1(P->zf ? SRAM_FN_TANDZ : SRAM_FN_LOADTN, sign));
		isa_emit(p, isa_w0(SRAM_FN_WRT, P->nz));
	}
	if (P->sub) {
		isa_fpc_reduce(p, SRAM_FN_OR, P->h, exp, e, SRAM_GATE_E);
		if (P->J) /* a subnormal's exponent is 1: e0 | ~h = XNOR(e0, h) */
			isa_emit(p, isa_u2(SRAM_FN_XNOR, P->e0, exp, P->h));
	}
}

static uint64_t f2i_flags_cycles(const struct f2i_plan *P)
{
	const unsigned e = P->ff->ebits;
	uint64_t n = exp_ge_cycles(e, P->k_ov) + 6;
	if (P->nz != ISA_NONE)
		n += (P->zf ? exp_ge_cycles(e, P->k_nz) : 0) + !P->sgn + 1;
	if (P->sub)
		n += 1 + (P->J != 0);
	return n;
}

/* The register R = d[0..L): the significand with its top (hidden) bit at
 * row L - 1, masked by nz, zeros below.  L cycles. */
static void f2i_place(isa_prog *p, const isa_cmd *c, const struct f2i_plan *P)
{
	const unsigned m = P->ff->mbits;
	for (unsigned i = 0; i < P->lo0; i++)
		isa_emit(p, isa_w0(SRAM_FN_ZERO, c->d + i));
	for (unsigned i = P->lo0; i + 1 < P->L; i++) {
		const unsigned f = c->a + m - (P->L - 1 - i);
		isa_emit(p, P->nz == ISA_NONE ? isa_u1(SRAM_FN_COPY, c->d + i, f)
					      : isa_u2(SRAM_FN_COPY, c->d + i, f, P->nz));
	}
	if (P->L == 0)
		return;
	/* The hidden bit: where ZF is possible it covers exp == 0, so the
	 * bit is nz itself. */
	sram_uop top = isa_u1(SRAM_FN_COPY, c->d + P->L - 1, P->sub ? P->h : P->nz);
	if (P->sub && P->nz != ISA_NONE)
		top = isa_u2(SRAM_FN_COPY, c->d + P->L - 1, P->h, P->nz);
	isa_emit(p, top);
}

/* t := exp + ~R0 over J bits, so that r = R0 - exp = ~t (mod 2^J).  An
 * add of a constant: ADD with the ones row for a 1 bit (x + 1 + C), INC
 * for a 0 bit; exponent bits above e read the zero row.  J + 1 cycles. */
static void f2i_amount(isa_prog *p, const isa_cmd *c, const struct f2i_plan *P)
{
	if (!P->J)
		return;
	const unsigned e = P->ff->ebits, exp = c->a + P->ff->mbits;
	const uint64_t k = ~(uint64_t)P->R0;
	isa_emit(p, isa_w0(SRAM_FN_ONE, P->one));
	for (unsigned i = 0; i < P->J; i++) {
		const unsigned x = i >= e ? P->zero : i == 0 && P->sub ? P->e0 : exp + i;
		sram_uop u = (k >> i) & 1 ? isa_u2(SRAM_FN_ADD, P->t + i, x, P->one)
					  : isa_u1(SRAM_FN_INC, P->t + i, x);
		isa_emit(p, i ? u : isa_cpre(u, SRAM_CPRE_0));
	}
}

/* Rows stage j of the barrel writes: from what its shift can reach. */
static unsigned f2i_stage_low(const struct f2i_plan *P, unsigned j)
{
	const unsigned reach = (2u << j) - 1; /* shifts 1 + 2 + ... + 2^j */
	return P->lo0 > reach ? P->lo0 - reach : 0;
}

/* R >>= r, the barrel: stage j loads r_j = ~t_j into T and moves R down
 * by 2^j where T (ascending, so each row is read before it is written).
 * With a controller, the bitlines whose result the flags fix (sat, or
 * not nz) leave T clear: the NOR of t_j and a row dead = sat | ~nz, made
 * once, in the same cycle; a stage no bitline needs is skipped. */
static void f2i_barrel(isa_prog *p, isa_ctl *ctl, const isa_cmd *c,
		       const struct f2i_plan *P)
{
	unsigned dead = P->sat;
	if (ctl && P->J && P->nz != ISA_NONE) {
		dead = P->dead;
		isa_emit(p, isa_l1(SRAM_FN_LOADTN, P->nz));
		isa_emit(p, isa_l1(SRAM_FN_TORS, P->sat));
		isa_emit(p, isa_w0(SRAM_FN_WRT, dead));
	}
	for (unsigned j = 0; j < P->J; j++) {
		const unsigned s = 1u << j;
		isa_emit(p, ctl ? isa_l2(SRAM_FN_LOADTN, P->t + j, dead)
				: isa_l1(SRAM_FN_LOADTN, P->t + j));
		if (!isa_any(ctl, p))
			continue;
		for (unsigned i = f2i_stage_low(P, j); i < P->L; i++) {
			sram_uop u = i + s < P->L ? isa_u1(SRAM_FN_COPY, c->d + i, c->d + i + s)
						  : isa_w0(SRAM_FN_ZERO, c->d + i);
			isa_emit(p, isa_gate(u, SRAM_GATE_ET));
		}
	}
}

/* The sign and the saturation: signed d := sign ? -R : R (CNEG; the top
 * bit is T & C, a CNEG of the zero row), then where sat, MIN if sgnp
 * else MAX.  Unsigned d: all ones where sat. */
static void f2i_finish(isa_prog *p, isa_ctl *ctl, const isa_cmd *c,
		       const struct f2i_plan *P)
{
	const unsigned n = P->n;
	if (P->sgn) {
		isa_emit(p, isa_l1(SRAM_FN_LOADT, c->a + P->ff->width - 1));
		for (unsigned i = 0; i < n; i++) {
			sram_uop u = isa_u1(SRAM_FN_CNEG, c->d + i,
					    i < P->L ? c->d + i : P->zero);
			isa_emit(p, i ? u : isa_cpre(u, SRAM_CPRE_0));
		}
	}
	isa_emit(p, isa_l1(SRAM_FN_LOADT, P->sat));
	if (!isa_any(ctl, p))
		return; /* nothing saturates */
	for (unsigned i = 0; i < n; i++) {
		sram_uop u = !P->sgn ? isa_w0(SRAM_FN_ONE, c->d + i)
			     : isa_u1(i + 1 < n ? SRAM_FN_NOT : SRAM_FN_COPY,
				      c->d + i, P->sgnp);
		isa_emit(p, isa_gate(u, SRAM_GATE_ET));
	}
}

static void gen_float_int(isa_prog *p, isa_ctl *ctl, const isa_cmd *c)
{
	const struct f2i_plan P = f2i_plan_of(c);
	f2i_flags(p, c, &P);
	f2i_place(p, c, &P);
	if (P.zero != ISA_NONE)
		isa_emit(p, isa_w0(SRAM_FN_ZERO, P.zero));
	f2i_amount(p, c, &P);
	f2i_barrel(p, ctl, c, &P);
	f2i_finish(p, ctl, c, &P);
}

static uint64_t float_int_cycles(const isa_cmd *c)
{
	const struct f2i_plan P = f2i_plan_of(c);
	uint64_t n = f2i_flags_cycles(&P) + P.L + (P.zero != ISA_NONE);
	if (P.J)
		n += P.J + 1;
	for (unsigned j = 0; j < P.J; j++)
		n += 1 + P.L - f2i_stage_low(&P, j);
	if (P.sgn)
		n += 1 + P.n;
	return n + 1 + P.n;
}

/* ---- to float: the unpacked form of fpcore.h, rounded and packed ---- */

/* The width of em1 (two's complement) that holds every value in
 * [lo, hi] and leaves the packer its e + 2 bits. */
static unsigned em1_width(unsigned e, long lo, long hi)
{
	unsigned ew = e + 2;
	while (lo < -(1L << (ew - 1)) || hi >= (1L << (ew - 1)))
		ew++;
	return ew;
}

/* rows[0..n) := the n low bits of the constant k.  n cycles. */
static void emit_constant(isa_prog *p, unsigned rows, unsigned n, uint64_t k)
{
	for (unsigned i = 0; i < n; i++)
		isa_emit(p, isa_w0((k >> i) & 1 ? SRAM_FN_ONE : SRAM_FN_ZERO, rows + i));
}

struct i2f_plan {
	struct cvt_type s;
	isa_fpc_fmt f;          /* the destination */
	unsigned sw;            /* significand rows: max(n_a, p + 2) */
	long em1;               /* before normalisation: bias + n_a - fs - 2 */
	unsigned ew;
	unsigned sig, e, zero, tmp, rows; /* scratch rows */
};

static struct i2f_plan i2f_plan_of(const isa_cmd *c)
{
	struct i2f_plan P;
	P.s = cvt_src(c);
	P.f = fpc_of(isa_fpfmt_of(c->fmt), c);
	/* A non-zero |a| has its leading one in the top n_a rows, so the
	 * field is at least bias - fs: only a .qN with fs >= bias reaches
	 * below the normal range. */
	P.f.ieee = P.f.ieee && P.s.frac >= P.f.bias;
	P.sw = P.s.w > P.f.p + 2 ? P.s.w : P.f.p + 2;
	P.em1 = (long)P.f.bias + (long)P.s.w - (long)P.s.frac - 2;
	const long shift = (1L << isa_fpc_normalize_stages(P.sw)) - 1;
	P.ew = em1_width(P.f.e, P.em1 - shift, P.em1 + 2);
	isa_fpc_rows r = {c->scratch};
	P.sig = isa_fpc_take(&r, P.sw);
	P.e = isa_fpc_take(&r, P.ew);
	P.zero = P.s.sgn ? ISA_NONE : isa_fpc_take(&r, 1);
	P.tmp = r.next;
	const isa_fpc_pack in = {P.sig, P.sw, P.e, P.ew, 0, ISA_NONE, ISA_NONE, ISA_NONE};
	const unsigned nt = isa_fpc_normalize_scratch(P.sw);
	const unsigned pt = isa_fpc_pack_scratch(&P.f, &in);
	P.rows = r.next + (nt > pt ? nt : pt) - c->scratch;
	return P;
}

static isa_fpc_pack i2f_pack_of(const isa_cmd *c, const struct i2f_plan *P)
{
	const isa_fpc_pack in = {P->sig, P->sw, P->e, P->ew,
				 P->s.sgn ? c->a + P->s.w - 1u : P->zero,
				 ISA_NONE, ISA_NONE, ISA_NONE};
	return in;
}

/* |a| at the top of the significand; value = |a| * 2^-fs = sig / 2^(sw-1)
 * * 2^(em1 + 1 - bias) with em1 the constant bias + n_a - fs - 2. */
static void gen_int_float(isa_prog *p, isa_ctl *ctl, const isa_cmd *c)
{
	const struct i2f_plan P = i2f_plan_of(c);
	const unsigned low = P.sw - P.s.w;
	if (P.s.sgn) {
		emit_magnitude(p, c->a, P.s.w, P.sig + low);
	} else {
		for (unsigned i = 0; i < P.s.w; i++)
			isa_emit(p, isa_u1(SRAM_FN_COPY, P.sig + low + i, c->a + i));
		isa_emit(p, isa_w0(SRAM_FN_ZERO, P.zero));
	}
	emit_constant(p, P.sig, low, 0);
	emit_constant(p, P.e, P.ew, (uint64_t)P.em1);
	isa_fpc_normalize(p, ctl, P.sig, P.sw, P.e, P.ew, P.e, P.ew, P.tmp);
	const isa_fpc_pack in = i2f_pack_of(c, &P);
	isa_fpc_round_pack(p, ctl, &P.f, &in, c->d, P.tmp);
}

static uint64_t int_float_cycles(const isa_cmd *c)
{
	const struct i2f_plan P = i2f_plan_of(c);
	const isa_fpc_pack in = i2f_pack_of(c, &P);
	return P.s.w + 1 + (P.sw - P.s.w) + P.ew +
	       isa_fpc_normalize_cycles(P.sw, P.ew) +
	       isa_fpc_pack_cycles(&P.f, &in);
}

struct f2f_plan {
	isa_fpc_fmt fs, f;      /* source and destination */
	unsigned sw;            /* significand rows: max(p_a, p + 2) */
	long k;                 /* em1 = effective exponent + k */
	bool norm;              /* source subnormals may become normals */
	isa_fpc_fmt fp;         /* the destination, as the packer sees it */
	unsigned ew;
	unsigned h, inf, nan, ctmp, sig, e, zero, one, e0, tmp, rows;
};

static struct f2f_plan f2f_plan_of(const isa_cmd *c)
{
	struct f2f_plan P;
	P.fs = fpc_of(isa_fpfmt_of(c->sfmt), c);
	P.f = fpc_of(isa_fpfmt_of(c->fmt), c);
	P.sw = P.fs.p > P.f.p + 2 ? P.fs.p : P.f.p + 2;
	P.k = (long)P.f.bias - (long)P.fs.bias - 1;
	P.norm = P.f.ieee && P.f.bias > P.fs.bias;
	/* After normalisation the field of a non-zero value is at least
	 * 1 + k - (p_a - 1) + 1 > 0: no result is tiny, and the packer needs
	 * no subnormal path.  (ieee stays set in fs: the unpacking needs it.) */
	P.fp = P.f;
	P.fp.ieee = P.f.ieee && !P.norm;
	const long shift = P.norm ? (1L << isa_fpc_normalize_stages(P.fs.p)) - 1 : 0;
	P.ew = em1_width(P.f.e, P.k - shift, (long)isa_mask(P.fs.e) + P.k + 2);
	isa_fpc_rows r = {c->scratch};
	P.h = isa_fpc_take(&r, 1);
	P.inf = isa_fpc_take(&r, 1);
	P.nan = isa_fpc_take(&r, 1);
	P.ctmp = isa_fpc_take(&r, 2);
	P.sig = isa_fpc_take(&r, P.sw);
	P.e = isa_fpc_take(&r, P.ew);
	P.zero = isa_fpc_take(&r, 1);
	P.one = isa_fpc_take(&r, 1);
	P.e0 = P.f.ieee ? isa_fpc_take(&r, 1) : ISA_NONE;
	P.tmp = r.next;
	const isa_fpc_pack in = {P.sig, P.sw, P.e, P.ew, 0, ISA_NONE, P.inf, P.nan};
	const unsigned nt = P.norm ? isa_fpc_normalize_scratch(P.fs.p) : 0;
	const unsigned pt = isa_fpc_pack_scratch(&P.fp, &in);
	P.rows = r.next + (nt > pt ? nt : pt) - c->scratch;
	return P;
}

/* em1 := the effective exponent (bit 0 from row e0 in IEEE mode: 1 for a
 * subnormal) + k, over ew bits: ADD with the ones row where k has a 1
 * bit, INC where it has a 0; above the field, INC of the ones or the
 * zero row.  ew cycles. */
static void f2f_rebias(isa_prog *p, const isa_cmd *c, const struct f2f_plan *P)
{
	const unsigned exp = c->a + P->fs.m;
	const uint64_t k = (uint64_t)P->k;
	for (unsigned i = 0; i < P->ew; i++) {
		const bool kb = (k >> i) & 1;
		const unsigned x = i >= P->fs.e ? (kb ? P->one : P->zero)
				   : i == 0 && P->f.ieee ? P->e0 : exp + i;
		sram_uop u = kb && i < P->fs.e ? isa_u2(SRAM_FN_ADD, P->e + i, x, P->one)
					       : isa_u1(SRAM_FN_INC, P->e + i, x);
		isa_emit(p, i ? u : isa_cpre(u, SRAM_CPRE_0));
	}
}

static isa_fpc_class f2f_class_of(const struct f2f_plan *P)
{
	const isa_fpc_class cl = {P->h, ISA_NONE, P->inf, P->nan, P->ctmp};
	return cl;
}

static isa_fpc_pack f2f_pack_of(const isa_cmd *c, const struct f2f_plan *P)
{
	const isa_fpc_pack in = {P->sig, P->sw, P->e, P->ew,
				 c->a + P->fs.w - 1u, ISA_NONE, P->inf, P->nan};
	return in;
}

static void gen_float_float(isa_prog *p, isa_ctl *ctl, const isa_cmd *c)
{
	const struct f2f_plan P = f2f_plan_of(c);
	const unsigned low = P.sw - P.fs.p;
	const isa_fpc_class cl = f2f_class_of(&P);
	isa_fpc_classify(p, &P.fs, c->a, &cl);
	isa_fpc_sig(p, &P.fs, c->a, P.h, P.sig + low, SRAM_GATE_E);
	emit_constant(p, P.sig, low, 0);
	isa_emit(p, isa_w0(SRAM_FN_ZERO, P.zero));
	isa_emit(p, isa_w0(SRAM_FN_ONE, P.one));
	if (P.f.ieee)
		isa_emit(p, isa_u2(SRAM_FN_XNOR, P.e0, c->a + P.fs.m, P.h));
	f2f_rebias(p, c, &P);
	if (P.norm)
		isa_fpc_normalize(p, ctl, P.sig + low, P.fs.p, P.e, P.ew, P.e,
				  P.ew, P.tmp);
	const isa_fpc_pack in = f2f_pack_of(c, &P);
	isa_fpc_round_pack(p, ctl, &P.fp, &in, c->d, P.tmp);
}

static uint64_t float_float_cycles(const isa_cmd *c)
{
	const struct f2f_plan P = f2f_plan_of(c);
	const isa_fpc_class cl = f2f_class_of(&P);
	const isa_fpc_pack in = f2f_pack_of(c, &P);
	return isa_fpc_classify_cycles(&P.fs, &cl) + P.sw + 2 + P.f.ieee + P.ew +
	       (P.norm ? isa_fpc_normalize_cycles(P.fs.p, P.ew) : 0) +
	       isa_fpc_pack_cycles(&P.fp, &in);
}

/* ---- float -> float, exact: the same exponent, more fraction bits ----
 * bf16 -> f32 and a format to itself.  No rounding and no range change:
 * d is a copy with the fraction bits appended as zeros, the canonical NaN
 * folded into the copies (select.c's masked copies, as fpcmp.c's min):
 * the AND with ok = ~NaN (& h in hardware mode, where an exponent-0
 * value reads as zero of its sign), the OR with NaN on the top fraction
 * bit.  Rows nan, ok, and notnan (the sign's mask).
 *   NaN 2, WRT nan 1, NOT -> notnan 1, [hardware: ok 2], copies w
 *   (+1 in hardware mode: the top fraction bit's AND, then its OR). */
struct widen_plan {
	const isa_fpfmt *fs, *fd;
	bool hw;
	unsigned nan, notnan, ok, rows;
};

static struct widen_plan widen_plan_of(const isa_cmd *c)
{
	struct widen_plan P = {isa_fpfmt_of(c->sfmt), isa_fpfmt_of(c->fmt),
			       !(c->flags & ISA_FL_IEEE), 0, 0, 0, 0};
	isa_fpc_rows r = {c->scratch};
	P.nan = isa_fpc_take(&r, 1);
	P.notnan = isa_fpc_take(&r, 1);
	P.ok = P.hw ? isa_fpc_take(&r, 1) : P.notnan;
	P.rows = r.next - c->scratch;
	return P;
}

static void gen_widen(isa_prog *p, const isa_cmd *c)
{
	const struct widen_plan P = widen_plan_of(c);
	const unsigned ms = P.fs->mbits, md = P.fd->mbits, pad = md - ms;
	emit_nan_into_tag(p, P.fs, c->a);
	isa_emit(p, isa_w0(SRAM_FN_WRT, P.nan));
	isa_emit(p, isa_u1(SRAM_FN_NOT, P.notnan, P.nan));
	if (P.hw) {
		isa_fpc_reduce(p, SRAM_FN_OR, P.ok, c->a + ms, P.fs->ebits, SRAM_GATE_E);
		isa_emit(p, isa_u2(SRAM_FN_COPY, P.ok, P.ok, P.notnan));
	}
	for (unsigned i = 0; i < pad; i++)
		isa_emit(p, isa_w0(SRAM_FN_ZERO, c->d + i));
	for (unsigned i = 0; i + 1 < ms; i++)
		isa_emit(p, isa_u2(SRAM_FN_COPY, c->d + pad + i, c->a + i, P.ok));
	const unsigned top = c->d + md - 1, atop = c->a + ms - 1;
	if (P.hw) {
		isa_emit(p, isa_u2(SRAM_FN_COPY, top, atop, P.ok));
		isa_emit(p, isa_u2(SRAM_FN_OR, top, top, P.nan));
	} else {
		isa_emit(p, isa_u2(SRAM_FN_OR, top, atop, P.nan));
	}
	for (unsigned i = 0; i < P.fs->ebits; i++)
		isa_emit(p, isa_u1(SRAM_FN_COPY, c->d + md + i, c->a + ms + i));
	isa_emit(p, isa_u2(SRAM_FN_COPY, c->d + P.fd->width - 1,
			   c->a + P.fs->width - 1, P.notnan));
}

static uint64_t widen_cycles(const isa_cmd *c)
{
	const struct widen_plan P = widen_plan_of(c);
	return 4 + P.fd->width + (P.hw ? 3 : 0);
}

/* ---- the family ---- */

/* Is (fmt, width) a type a command can name? */
static bool cvt_type_ok(unsigned fmt, unsigned width)
{
	const isa_fpfmt *ff = isa_fpfmt_of(fmt);
	if (fmt >= ISA_FMT_COUNT || width < 1 || width > ISA_MAX_WIDTH)
		return false;
	if (ff)
		return width == ff->width;
	return fmt != ISA_FMT_FIX || width > ISA_FIX_INT;
}

static bool cvt_types_ok(const isa_cmd *c)
{
	return cvt_type_ok(c->sfmt, c->swidth) && cvt_type_ok(c->fmt, c->width);
}

int isa_gen_cvt(const isa_cmd *c, unsigned bitlines, isa_prog *p, isa_ctl *ctl)
{
	(void)bitlines;
	if (c->op != ISA_CVT || !cvt_types_ok(c))
		return -1;
	switch (cvt_kind_of(c)) {
	case CVT_WRAP: gen_wrap(p, c); break;
	case CVT_RESCALE: gen_rescale(p, ctl, c); break;
	case CVT_INT_FLOAT: gen_int_float(p, ctl, c); break;
	case CVT_FLOAT_INT: gen_float_int(p, ctl, c); break;
	case CVT_WIDEN: gen_widen(p, c); break;
	default: gen_float_float(p, ctl, c); break;
	}
	return 0;
}

static unsigned cvt_scratch_rows(const isa_cmd *c)
{
	switch (cvt_kind_of(c)) {
	case CVT_WRAP: return 0;
	case CVT_RESCALE: return rescale_plan_of(c).rows;
	case CVT_INT_FLOAT: return i2f_plan_of(c).rows;
	case CVT_FLOAT_INT: return f2i_plan_of(c).rows;
	case CVT_WIDEN: return widen_plan_of(c).rows;
	default: return f2f_plan_of(c).rows;
	}
}

void isa_rules_cvt(const isa_cmd *c, unsigned bitlines, isa_rules *r)
{
	(void)bitlines;
	r->d_may_alias_a = false;
	if (!cvt_types_ok(c)) {
		/* An impossible range: isa_check says the width is wrong. */
		r->min_width = 1;
		r->max_width = 0;
		return;
	}
	r->scratch_rows = cvt_scratch_rows(c);
}

uint64_t isa_cycles_cvt(const isa_cmd *c, unsigned bitlines)
{
	(void)bitlines;
	if (!cvt_types_ok(c))
		return 0;
	switch (cvt_kind_of(c)) {
	case CVT_WRAP: return c->width;
	case CVT_RESCALE: return rescale_cycles(c);
	case CVT_INT_FLOAT: return int_float_cycles(c);
	case CVT_FLOAT_INT: return float_int_cycles(c);
	case CVT_WIDEN: return widen_cycles(c);
	default: return float_float_cycles(c);
	}
}
