/* SPDX-License-Identifier: MIT */
/*
 * fpcore.c: the bit-serial floating-point building blocks (fpcore.h).
 *
 * Everything here is a sequence of SRAM micro-ops.  The searches use the
 * many-wordline activation of duality-cache §3.1.1: one cycle senses the
 * AND (BL) and the NOR (BLB) of up to 64 rows at once; a set of one to
 * three rows is issued as an ordinary activation, which every executor
 * path runs at full speed.
 */
#include "fpcore.h"

isa_fpc_fmt isa_fpc_fmt_of(const isa_cmd *c)
{
	const isa_fpfmt *ff = isa_fpfmt_of(c->fmt);
	isa_fpc_fmt f = {0};
	if (!ff)
		return f;
	f.w = ff->width;
	f.e = ff->ebits;
	f.m = ff->mbits;
	f.p = ff->mbits + 1;
	f.bias = ff->bias;
	f.ieee = (c->flags & ISA_FL_IEEE) != 0;
	return f;
}

/* ---- searches ---- */

/* A uop activating the rows base + i for each bit i of set; up to three
 * of them go to act[] as an ordinary read. */
static sram_uop set_uop(unsigned wfn, unsigned dst, unsigned lfn,
			unsigned base, uint64_t set, unsigned gate)
{
	sram_uop u = isa_uset(wfn, dst, lfn, base, set);
	if (u.nact <= SRAM_MAX_ACT) {
		unsigned k = 0;
		for (uint64_t s = set; s; s &= s - 1)
			u.act[k++] = (uint16_t)(base + (unsigned)__builtin_ctzll(s));
		u.set = 0;
	}
	return isa_gate(u, gate);
}

void isa_fpc_reduce(isa_prog *p, unsigned wfn, unsigned dst, unsigned base,
		    unsigned n, unsigned gate)
{
	isa_emit(p, set_uop(wfn, dst, SRAM_FN_NONE, base, isa_mask(n), gate));
}

void isa_fpc_search(isa_prog *p, unsigned lfn, unsigned base, unsigned n)
{
	isa_emit(p, set_uop(SRAM_FN_NONE, SRAM_NO_ROW, lfn, base, isa_mask(n),
			    SRAM_GATE_E));
}

void isa_fpc_match(isa_prog *p, unsigned base, unsigned n, uint64_t v)
{
	const uint64_t ones = v & isa_mask(n), zeros = ~v & isa_mask(n);
	if (ones)
		isa_emit(p, set_uop(SRAM_FN_NONE, SRAM_NO_ROW, SRAM_FN_LOADT,
				    base, ones, SRAM_GATE_E));
	if (zeros)
		isa_emit(p, set_uop(SRAM_FN_NONE, SRAM_NO_ROW,
				    ones ? SRAM_FN_TANDZ : SRAM_FN_LOADTN,
				    base, zeros, SRAM_GATE_E));
}

unsigned isa_fpc_match_cycles(unsigned n, uint64_t v)
{
	const uint64_t m = isa_mask(n);
	return ((v & m) != 0) + ((v & m) != m);
}

/* ---- unpacking ---- */

void isa_fpc_classify(isa_prog *p, const isa_fpc_fmt *f, unsigned src,
		      const isa_fpc_class *cl)
{
	const unsigned exp = src + f->m;
	if (cl->h != ISA_NONE)
		isa_fpc_reduce(p, SRAM_FN_OR, cl->h, exp, f->e, SRAM_GATE_E);
	/* DAZ: in hardware mode a zero exponent is a zero. */
	if (cl->zero != ISA_NONE)
		isa_fpc_reduce(p, SRAM_FN_NOT, cl->zero, f->ieee ? src : exp,
			       f->ieee ? f->m + f->e : f->e, SRAM_GATE_E);
	if (cl->inf == ISA_NONE && cl->nan == ISA_NONE)
		return;
	/* emax: exponent all ones; fz: fraction zero.  inf = emax & fz, and
	 * nan = emax & ~fz = emax ^ inf, as inf implies emax. */
	const unsigned emax = cl->tmp, fz = cl->tmp + 1;
	const unsigned inf = cl->inf != ISA_NONE ? cl->inf : fz;
	isa_fpc_reduce(p, SRAM_FN_COPY, emax, exp, f->e, SRAM_GATE_E);
	isa_fpc_reduce(p, SRAM_FN_NOT, fz, src, f->m, SRAM_GATE_E);
	isa_emit(p, isa_u2(SRAM_FN_COPY, inf, emax, fz));
	if (cl->nan != ISA_NONE)
		isa_emit(p, isa_u2(SRAM_FN_XOR, cl->nan, emax, inf));
}

unsigned isa_fpc_classify_cycles(const isa_fpc_fmt *f, const isa_fpc_class *cl)
{
	(void)f;
	unsigned n = (cl->h != ISA_NONE) + (cl->zero != ISA_NONE);
	if (cl->inf != ISA_NONE || cl->nan != ISA_NONE)
		n += 3 + (cl->nan != ISA_NONE);
	return n;
}

void isa_fpc_sig(isa_prog *p, const isa_fpc_fmt *f, unsigned src, unsigned h,
		 unsigned dst, unsigned gate)
{
	for (unsigned i = 0; i < f->m; i++) {
		/* DAZ: the AND with h reads a subnormal's fraction as 0. */
		sram_uop u = f->ieee ? isa_u1(SRAM_FN_COPY, dst + i, src + i)
				     : isa_u2(SRAM_FN_COPY, dst + i, src + i, h);
		isa_emit(p, isa_gate(u, gate));
	}
	isa_emit(p, isa_gate(isa_u1(SRAM_FN_COPY, dst + f->m, h), gate));
}

void isa_fpc_exp(isa_prog *p, const isa_fpc_fmt *f, unsigned src, unsigned h,
		 unsigned dst, unsigned gate)
{
	const unsigned exp = src + f->m;
	/* IEEE: a subnormal's exponent is 1 (h = 0 means every bit is 0, so
	 * XNOR(e0, h) is e0 | ~h). */
	isa_emit(p, isa_gate(f->ieee ? isa_u2(SRAM_FN_XNOR, dst, exp, h)
				     : isa_u1(SRAM_FN_COPY, dst, exp), gate));
	for (unsigned i = 1; i < f->e; i++)
		isa_emit(p, isa_gate(isa_u1(SRAM_FN_COPY, dst + i, exp + i), gate));
}

/* ---- normalisation ---- */

unsigned isa_fpc_normalize_stages(unsigned n)
{
	unsigned j = 0;
	while ((1u << j) < n)
		j++;
	return j;
}

unsigned isa_fpc_normalize_scratch(unsigned n)
{
	return isa_fpc_normalize_stages(n) + 2;
}

uint64_t isa_fpc_normalize_cycles(unsigned n, unsigned ew)
{
	const uint64_t J = isa_fpc_normalize_stages(n);
	return J * (n + 2) + 2 * J + (ew - J) + 2;
}

/* sig[0..n) := sig << s where T is set (s < n), top down so that every
 * row is read before it is written. */
static void shl_gated(isa_prog *p, unsigned sig, unsigned n, unsigned s)
{
	for (unsigned i = n; i-- > 0;) {
		sram_uop u = i >= s ? isa_u1(SRAM_FN_COPY, sig + i, sig + i - s)
				    : isa_w0(SRAM_FN_ZERO, sig + i);
		isa_emit(p, isa_gate(u, SRAM_GATE_ET));
	}
}

/* eout := ein - L, L at rows l[0..nl); SUB is a + ~b + C with a in T. */
static void sub_shift(isa_prog *p, unsigned ein, unsigned ein_w, unsigned eout,
		      unsigned ew, unsigned l, unsigned nl, unsigned zero,
		      unsigned one)
{
	for (unsigned k = 0; k < ew; k++) {
		const unsigned a = k < ein_w ? ein + k : zero;
		sram_uop u;
		if (k < nl) {
			isa_emit(p, isa_l1(SRAM_FN_LOADT, a));
			u = isa_u2(SRAM_FN_SUB, eout + k, a, l + k);
		} else {
			u = isa_u2(SRAM_FN_ADD, eout + k, a, one); /* a + ~0 + C */
		}
		isa_emit(p, k ? u : isa_cpre(u, SRAM_CPRE_1));
	}
}

void isa_fpc_normalize(isa_prog *p, isa_ctl *ctl, unsigned sig, unsigned n,
		       unsigned ein, unsigned ein_w, unsigned eout,
		       unsigned ew, unsigned tmp)
{
	const unsigned J = isa_fpc_normalize_stages(n);
	const unsigned l = tmp, zero = tmp + J, one = tmp + J + 1;
	/* Leading-zero search, largest step first: after the stages for
	 * 2^(J-1)..2^(j+1), the leading one of a non-zero sig is within the
	 * top 2^(j+1) bits, so "top 2^j bits zero" decides bit j of the
	 * shift. */
	for (unsigned j = J; j-- > 0;) {
		const unsigned s = 1u << j;
		isa_fpc_search(p, SRAM_FN_LOADTN, sig + n - s, s);
		if (isa_any(ctl, p))
			shl_gated(p, sig, n, s);
		isa_emit(p, isa_w0(SRAM_FN_WRT, l + j));
	}
	isa_emit(p, isa_w0(SRAM_FN_ZERO, zero));
	isa_emit(p, isa_w0(SRAM_FN_ONE, one));
	sub_shift(p, ein, ein_w, eout, ew, l, J, zero, one);
}

/* ---- right shift with sticky ---- */

uint64_t isa_fpc_shr_sticky_cycles(unsigned n, unsigned aw, bool cond)
{
	const unsigned J = isa_fpc_normalize_stages(n);
	const uint64_t stages = aw < J ? aw : J;
	return stages * (n + 1) + (aw > J ? n + 1 + cond : 0);
}

/* T := cond & row (cond ISA_NONE: T := row). */
static void load_t_and(isa_prog *p, unsigned row, unsigned cond)
{
	isa_emit(p, cond == ISA_NONE ? isa_l1(SRAM_FN_LOADT, row)
				     : isa_l2(SRAM_FN_LOADT, row, cond));
}

/* Where T: sig >>= s with sticky (s >= n: all of sig into sig[0]). */
static void shr_gated(isa_prog *p, unsigned sig, unsigned n, unsigned s)
{
	const unsigned fall = s < n ? s + 1 : n; /* rows that land on bit 0 */
	isa_fpc_reduce(p, SRAM_FN_OR, sig, sig, fall, SRAM_GATE_ET);
	for (unsigned i = 1; i < n; i++) {
		sram_uop u = i + s < n ? isa_u1(SRAM_FN_COPY, sig + i, sig + i + s)
				       : isa_w0(SRAM_FN_ZERO, sig + i);
		isa_emit(p, isa_gate(u, SRAM_GATE_ET));
	}
}

void isa_fpc_shr_sticky(isa_prog *p, isa_ctl *ctl, unsigned sig, unsigned n,
			unsigned amt, unsigned aw, unsigned cond)
{
	const unsigned J = isa_fpc_normalize_stages(n);
	if (aw > J) {
		isa_fpc_search(p, SRAM_FN_LOADTOR, amt + J, aw - J);
		if (cond != ISA_NONE)
			isa_emit(p, isa_l1(SRAM_FN_TANDS, cond));
		if (isa_any(ctl, p))
			shr_gated(p, sig, n, n);
	}
	for (unsigned j = 0; j < J && j < aw; j++) {
		load_t_and(p, amt + j, cond);
		if (isa_any(ctl, p))
			shr_gated(p, sig, n, 1u << j);
	}
}

/* ---- round and pack ---- */

/* Scratch rows of the packer, from tmp. */
struct pack_rows {
	unsigned zero;     /* sig == 0 */
	unsigned sticky;   /* sticky, then sticky | lsb */
	unsigned ovf;      /* field >= 2^e - 1 */
	unsigned tiny;     /* hardware mode: field <= 0 */
	unsigned hi;       /* field bits e..ew-1 (ew - e rows) */
	unsigned sh;       /* IEEE mode: -em1 (ew rows) */
};

static struct pack_rows pack_rows_of(const isa_fpc_fmt *f,
				     const isa_fpc_pack *in, unsigned tmp)
{
	struct pack_rows r;
	r.zero = tmp;
	r.sticky = tmp + 1;
	r.ovf = tmp + 2;
	r.tiny = tmp + 3;
	r.hi = tmp + 4;
	r.sh = r.hi + (in->ew - f->e);
	return r;
}

unsigned isa_fpc_pack_scratch(const isa_fpc_fmt *f, const isa_fpc_pack *in)
{
	return 4 + (in->ew - f->e) + (f->ieee ? in->ew : 0);
}

/* IEEE mode: where em1 < 0, sig >>= -em1 with sticky and em1 := 0, so
 * that the packing below makes a subnormal (field 0 + hidden bit 0). */
static void pack_denormalize(isa_prog *p, isa_ctl *ctl, const isa_fpc_pack *in,
			     const struct pack_rows *r)
{
	const unsigned neg = in->em1 + in->ew - 1;
	if (ctl) {
		isa_emit(p, isa_l1(SRAM_FN_LOADT, neg));
		if (!isa_any(ctl, p))
			return;
	}
	for (unsigned k = 0; k < in->ew; k++) { /* -x = ~x + 1 */
		sram_uop u = isa_u1(SRAM_FN_NEG, r->sh + k, in->em1 + k);
		isa_emit(p, k ? u : isa_cpre(u, SRAM_CPRE_1));
	}
	isa_fpc_shr_sticky(p, ctl, in->sig, in->sw, r->sh, in->ew, neg);
	isa_emit(p, isa_l1(SRAM_FN_LOADT, neg));
	for (unsigned k = 0; k < in->ew; k++)
		isa_emit(p, isa_gate(isa_w0(SRAM_FN_ZERO, in->em1 + k), SRAM_GATE_ET));
}

/* Round to nearest even and add into the packed field:
 * C := guard & (lsb | sticky), then d[0..m) := fraction + C and the
 * field := em1 + hidden bit + carry (d[m..m+e) and hi). */
static void pack_round(isa_prog *p, const isa_fpc_fmt *f,
		       const isa_fpc_pack *in, const struct pack_rows *r,
		       unsigned d)
{
	const unsigned lsb = in->sig + in->sw - f->p;
	isa_fpc_reduce(p, SRAM_FN_OR, r->sticky, in->sig, in->sw - f->p - 1,
		       SRAM_GATE_E);
	isa_emit(p, isa_u2(SRAM_FN_OR, r->sticky, lsb, r->sticky));
	isa_emit(p, isa_l2(SRAM_FN_LOADC, lsb - 1, r->sticky));
	for (unsigned i = 0; i < f->m; i++)
		isa_emit(p, isa_u1(SRAM_FN_INC, d + i, lsb + i));
	isa_emit(p, isa_u2(SRAM_FN_ADD, d + f->m, in->sig + in->sw - 1, in->em1));
	for (unsigned j = 1; j < in->ew; j++) {
		const unsigned dst = j < f->e ? d + f->m + j : r->hi + (j - f->e);
		isa_emit(p, isa_u1(SRAM_FN_INC, dst, in->em1 + j));
	}
}

/* ovf := field >= 2^e - 1 (not negative, and a high bit set or the low
 * e bits all ones); hardware mode: tiny := field <= 0. */
static void pack_range(isa_prog *p, const isa_fpc_fmt *f,
		       const isa_fpc_pack *in, const struct pack_rows *r,
		       unsigned d)
{
	const unsigned nhi = in->ew - f->e, hsign = r->hi + nhi - 1;
	isa_fpc_search(p, SRAM_FN_LOADT, d + f->m, f->e);
	isa_fpc_search(p, SRAM_FN_TORNZ, r->hi, nhi - 1);
	isa_emit(p, isa_l1(SRAM_FN_TANDZ, hsign));
	isa_emit(p, isa_w0(SRAM_FN_WRT, r->ovf));
	if (f->ieee)
		return;
	isa_fpc_search(p, SRAM_FN_LOADTN, d + f->m, f->e);
	isa_fpc_search(p, SRAM_FN_TANDZ, r->hi, nhi);
	isa_emit(p, isa_l1(SRAM_FN_TORS, hsign));
	isa_emit(p, isa_w0(SRAM_FN_WRT, r->tiny));
}

/* Write wfn to rows d[0..n) where T is set, if any bitline needs it. */
static void write_tagged(isa_prog *p, isa_ctl *ctl, unsigned wfn, unsigned d,
			 unsigned n)
{
	if (!isa_any(ctl, p))
		return;
	for (unsigned i = 0; i < n; i++)
		isa_emit(p, isa_gate(isa_w0(wfn, d + i), SRAM_GATE_ET));
}

/* The sign, and the special results over the packed value, by priority:
 * zero (exact zero, or flushed), then inf (overflow or forced), then the
 * canonical NaN.  With ctl, a special no bitline has is skipped. */
static void pack_specials(isa_prog *p, isa_ctl *ctl, const isa_fpc_fmt *f,
			  const isa_fpc_pack *in, const struct pack_rows *r,
			  unsigned d)
{
	const unsigned sign = d + f->w - 1, exp = d + f->m;
	isa_emit(p, isa_u1(SRAM_FN_COPY, sign, in->sign));
	if (in->zsign != ISA_NONE) {
		isa_emit(p, isa_l1(SRAM_FN_LOADT, r->zero));
		if (isa_any(ctl, p))
			isa_emit(p, isa_gate(isa_u1(SRAM_FN_COPY, sign, in->zsign),
					     SRAM_GATE_ET));
	}
	sram_uop any = f->ieee ? isa_l2(SRAM_FN_LOADTOR, r->zero, r->ovf)
			       : isa_l1(SRAM_FN_LOADTOR, r->zero);
	if (!f->ieee) {
		any.nact = 3;
		any.act[1] = (uint16_t)r->ovf;
		any.act[2] = (uint16_t)r->tiny;
	}
	isa_emit(p, any);
	sram_uop forced = isa_l0(SRAM_FN_TORNZ);
	if (in->inf != ISA_NONE)
		forced.act[forced.nact++] = (uint16_t)in->inf;
	if (in->nan != ISA_NONE)
		forced.act[forced.nact++] = (uint16_t)in->nan;
	if (forced.nact)
		isa_emit(p, forced);
	write_tagged(p, ctl, SRAM_FN_ZERO, d, f->w - 1);
	forced.lfn = SRAM_FN_LOADTOR;
	forced.act[forced.nact++] = (uint16_t)r->ovf;
	isa_emit(p, forced);
	write_tagged(p, ctl, SRAM_FN_ONE, exp, f->e);
	if (in->nan == ISA_NONE)
		return;
	isa_emit(p, isa_l1(SRAM_FN_LOADT, in->nan));
	write_tagged(p, ctl, SRAM_FN_ONE, exp - 1, 1);
	write_tagged(p, ctl, SRAM_FN_ZERO, sign, 1);
}

void isa_fpc_round_pack(isa_prog *p, isa_ctl *ctl, const isa_fpc_fmt *f,
			const isa_fpc_pack *in, unsigned d, unsigned tmp)
{
	const struct pack_rows r = pack_rows_of(f, in, tmp);
	isa_fpc_reduce(p, SRAM_FN_NOT, r.zero, in->sig, in->sw, SRAM_GATE_E);
	if (f->ieee)
		pack_denormalize(p, ctl, in, &r);
	pack_round(p, f, in, &r, d);
	pack_range(p, f, in, &r, d);
	pack_specials(p, ctl, f, in, &r, d);
}

uint64_t isa_fpc_pack_cycles(const isa_fpc_fmt *f, const isa_fpc_pack *in)
{
	uint64_t n = 1;                                   /* zero */
	if (f->ieee)
		n += 2 * (uint64_t)in->ew + 1 +
		     isa_fpc_shr_sticky_cycles(in->sw, in->ew, true);
	n += 3 + f->m + in->ew;                           /* round, pack */
	n += f->ieee ? 4 : 8;                             /* ovf, tiny */
	n += 1 + (in->zsign != ISA_NONE ? 2 : 0);         /* sign */
	n += 1 + (in->inf != ISA_NONE || in->nan != ISA_NONE);
	n += (f->w - 1) + 1 + f->e;                       /* zero, inf */
	n += in->nan != ISA_NONE ? 3 : 0;                 /* NaN */
	return n;
}
