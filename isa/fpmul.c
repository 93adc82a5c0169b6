/* SPDX-License-Identifier: MIT */
/*
 * fpmul.c: floating-point multiply and multiply-add, bit-serially.
 * "Floating point multiplication is a combination of addition of
 * exponent bits and multiplication of mantissa bits" (duality-cache
 * §3.1.1, last paragraphs); doc/commands/fpmul-div.md gives the schedule
 * cycle by cycle and the measured optimised latencies.
 *
 * mul, with p = m + 1 significand bits and ew = e + 2 exponent bits:
 *   unpack a and b: class rows, significand, exponent; IEEE mode
 *     normalises subnormals (isa_fpmd_unpack, below)
 *   sign := sa ^ sb; inf := ia | ib;
 *   nan := na | nb | (ia & zb) | (za & ib)                        6
 *   em1 := ea + eb                                                ew
 *   P := ma * mb, the 2p-bit product (below)              p^2 + 2p - 1
 *   P[p-3] := OR of P[0..p-3], the sticky of the bits below the guard 1
 *   tail (isa_fpmd_finish): em1 += -(bias + 1) + P[2p-1]; shift
 *     P[p-3..2p-1] right by P[2p-1] with sticky, so that the top bit is
 *     P[2p-2]; round to nearest even and pack (isa_fpc_round_pack)
 * A zero operand gives a zero significand, hence a zero product, which
 * the packer turns into a signed zero; inf and nan are forced rows.
 *
 * The product is Neural Cache's shift-and-add (isa/mul.c, unsigned): the
 * multiplier bit mb[j] in the tag latch gates the add of ma into
 * P[j..j+p-1], and the carry goes to P[j+p].  P[j+p] is mb[j]'s own row:
 * mb[j] is read by the LOADT that starts step j, and where it is 0 the row
 * already holds the 0 that P[j+p] needs there, so the high half needs no
 * clearing and b's significand costs no rows of its own.
 *   T := mb[0], P[p] := 0                                          1
 *   P[i] := ma[i] & T                                              p
 *   for j = 1..p-1:  T := mb[j], C := 0                            1
 *                    P[j+i] += ma[i]  (E&T)                        p
 *                    P[j+p] := C      (E&T)                        1
 *
 * Data-dependent latency (§3.1.2), with a controller:
 *   - step j is skipped when mb[j] is 0 on every bitline (its LOADT is
 *     already there: the question is free);
 *   - trailing zero rows of ma (0 on every bitline, found by one LOADT
 *     each from the bottom) are left out of every add: adding 0 with no
 *     carry changes nothing;
 *   - IEEE mode skips the normalisation of an operand with no subnormal,
 *     and fpcore skips the stages no bitline needs.
 * The leading-zero search of §3.1.2 finds nothing to skip here: a
 * significand's top bit is set, as the paper notes for Figure 12.
 *
 * madd (d := a * b + c, rounded twice): the product as above, rounded into
 * d (or into scratch if fpadd.c ever refuses d == a), then fpadd.c's
 * micro-program adds c to it.
 *
 * a and b are read only before the first write to d: d may be a or b.
 */
#include "fpmuldiv.h"
#include "family.h"

/* ---- the steps fp mul and div share (fpmuldiv.h) ---- */

unsigned isa_fpmd_unpack_scratch(const isa_fpc_fmt *f)
{
	return f->ieee ? isa_fpc_normalize_scratch(f->p) : 2;
}

void isa_fpmd_unpack(isa_prog *p, isa_ctl *ctl, const isa_fpc_fmt *f,
		     unsigned src, const isa_fpmd_operand *o, unsigned tmp)
{
	const unsigned ew = isa_fpmd_ew(f);
	const isa_fpc_class cl = {o->h, o->zero, o->inf, o->nan, tmp};
	isa_fpc_classify(p, f, src, &cl);
	isa_fpc_sig(p, f, src, o->h, o->sig, SRAM_GATE_E);
	isa_fpc_exp(p, f, src, o->h, o->e, SRAM_GATE_E);
	for (unsigned i = f->e; i < ew; i++)
		isa_emit(p, isa_w0(SRAM_FN_ZERO, o->e + i));
	if (!f->ieee)
		return;
	if (ctl) {
		/* A subnormal: exponent 0 (h clear) and not a zero. */
		isa_emit(p, isa_l2(SRAM_FN_LOADTN, o->h, o->zero));
		if (!isa_any(ctl, p))
			return;
	}
	isa_fpc_normalize(p, ctl, o->sig, f->p, o->e, ew, o->e, ew, tmp);
}

uint64_t isa_fpmd_unpack_cycles(const isa_fpc_fmt *f)
{
	const isa_fpc_class all = {0, 0, 0, 0, 0};
	const unsigned ew = isa_fpmd_ew(f);
	uint64_t n = isa_fpc_classify_cycles(f, &all) + f->p + ew;
	return n + (f->ieee ? isa_fpc_normalize_cycles(f->p, ew) : 0);
}

void isa_fpmd_specials(isa_prog *p, bool div, unsigned sa, unsigned sb,
		       const isa_fpmd_operand *a, const isa_fpmd_operand *b,
		       const isa_fpmd_tail *t)
{
	isa_emit(p, isa_u2(SRAM_FN_XOR, t->sign, sa, sb));
	isa_emit(p, isa_u2(SRAM_FN_OR, t->inf, a->inf, div ? b->zero : b->inf));
	isa_emit(p, div ? isa_l2(SRAM_FN_LOADT, a->zero, b->zero)
			: isa_l2(SRAM_FN_LOADT, a->inf, b->zero));
	isa_emit(p, div ? isa_l2(SRAM_FN_TORS, a->inf, b->inf)
			: isa_l2(SRAM_FN_TORS, a->zero, b->inf));
	isa_emit(p, isa_l2(SRAM_FN_TORNZ, a->nan, b->nan));
	isa_emit(p, isa_w0(SRAM_FN_WRT, t->nan));
}

void isa_fpmd_take_class(isa_fpc_rows *r, isa_fpmd_operand *a,
			 isa_fpmd_operand *b)
{
	isa_fpmd_operand *o[2] = {a, b};
	for (unsigned k = 0; k < 2; k++) {
		o[k]->h = isa_fpc_take(r, 1);
		o[k]->zero = isa_fpc_take(r, 1);
		o[k]->inf = isa_fpc_take(r, 1);
		o[k]->nan = isa_fpc_take(r, 1);
	}
}

void isa_fpmd_take_tail(isa_fpc_rows *r, const isa_fpc_fmt *f,
			isa_fpmd_operand *a, isa_fpmd_operand *b,
			isa_fpmd_tail *t)
{
	a->e = isa_fpc_take(r, isa_fpmd_ew(f));
	b->e = isa_fpc_take(r, isa_fpmd_ew(f));
	t->em1 = a->e;
	t->sign = isa_fpc_take(r, 1);
	t->inf = isa_fpc_take(r, 1);
	t->nan = isa_fpc_take(r, 1);
	t->one = isa_fpc_take(r, 1);
}

unsigned isa_fpmd_take_pack(isa_fpc_rows *r, const isa_fpc_fmt *f,
			    unsigned base, unsigned dead_end)
{
	const unsigned need = isa_fpmd_finish_scratch(f);
	return need <= dead_end - base ? base : isa_fpc_take(r, need);
}

unsigned isa_fpmd_low_zeros(isa_prog *p, isa_ctl *ctl, unsigned a, unsigned b,
			    unsigned n)
{
	unsigned i = 0;
	for (; ctl && i < n; i++) {
		isa_emit(p, b == ISA_NONE ? isa_l1(SRAM_FN_LOADT, a + i)
					  : isa_l2(SRAM_FN_LOADTOR, a + i, b + i));
		if (isa_any(ctl, p))
			break;
	}
	return i;
}

static isa_fpc_pack tail_pack(const isa_fpc_fmt *f, const isa_fpmd_tail *t)
{
	const isa_fpc_pack in = {t->band, f->p + 2, t->em1, isa_fpmd_ew(f),
				 t->sign, ISA_NONE, t->inf, t->nan};
	return in;
}

void isa_fpmd_finish(isa_prog *p, isa_ctl *ctl, const isa_fpc_fmt *f,
		     const isa_fpmd_tail *t, unsigned d, unsigned tmp)
{
	const unsigned ew = isa_fpmd_ew(f), top = t->band + f->p + 2;
	/* C := the top bit, in the cycle that writes the constant row. */
	isa_emit(p, isa_with_l(isa_u1(SRAM_FN_ONE, t->one, top), SRAM_FN_LOADC));
	for (unsigned i = 0; i < ew; i++) {
		const unsigned r = t->em1 + i;
		isa_emit(p, (t->k >> i) & 1 ? isa_u2(SRAM_FN_ADD, r, r, t->one)
					    : isa_u1(SRAM_FN_INC, r, r));
	}
	isa_fpc_shr_sticky(p, ctl, t->band, f->p + 3, top, 1, ISA_NONE);
	const isa_fpc_pack in = tail_pack(f, t);
	isa_fpc_round_pack(p, ctl, f, &in, d, tmp);
}

unsigned isa_fpmd_finish_scratch(const isa_fpc_fmt *f)
{
	const isa_fpmd_tail t = {0, 0, 0, 0, 0, 0, 0};
	const isa_fpc_pack in = tail_pack(f, &t);
	return isa_fpc_pack_scratch(f, &in);
}

uint64_t isa_fpmd_finish_cycles(const isa_fpc_fmt *f)
{
	const isa_fpmd_tail t = {0, 0, 0, 0, 0, 0, 0};
	const isa_fpc_pack in = tail_pack(f, &t);
	return 1 + isa_fpmd_ew(f) + isa_fpc_shr_sticky_cycles(f->p + 3, 1, false) +
	       isa_fpc_pack_cycles(f, &in);
}

/* ---- mul ---- */

/* Where every row of the product is.  Order matters: the packer's
 * scratch reuses the class rows, ma and the low product rows, which are
 * dead by then, when they are enough. */
struct fpmul_rows {
	isa_fpc_fmt f;
	isa_fpmd_operand a, b;   /* b.sig = P + p */
	unsigned P;              /* 2p rows */
	isa_fpmd_tail t;         /* band = P + p - 3, em1 = a.e */
	unsigned utmp;           /* the unpacker's scratch: P's low rows */
	unsigned tmp;            /* the packer's scratch */
	unsigned total;
};

static void fpmul_layout(const isa_cmd *c, unsigned base, struct fpmul_rows *L)
{
	const isa_fpc_fmt f = isa_fpc_fmt_of(c);
	const unsigned unpack = isa_fpmd_unpack_scratch(&f);
	isa_fpc_rows r = {base};
	L->f = f;
	isa_fpmd_take_class(&r, &L->a, &L->b);
	L->a.sig = isa_fpc_take(&r, f.p);
	L->P = isa_fpc_take(&r, 2 * f.p);
	L->b.sig = L->P + f.p;
	L->utmp = unpack <= f.p ? L->P : isa_fpc_take(&r, unpack);
	isa_fpmd_take_tail(&r, &f, &L->a, &L->b, &L->t);
	/* value = P / 2^(2p-2) * 2^(ea + eb - 2 bias); with the top bit at
	 * 2p - 2 that is em1 = ea + eb - bias - 1, one more if at 2p - 1. */
	L->t.band = L->P + f.p - 3;
	L->t.k = (uint64_t)-(int64_t)(f.bias + 1) & isa_mask(isa_fpmd_ew(&f));
	L->tmp = isa_fpmd_take_pack(&r, &f, base, L->t.band);
	L->total = r.next - base;
}

/* em1 := ea + eb, in place. */
static void fpmul_exp_sum(const struct fpmul_rows *L, isa_prog *p)
{
	const unsigned ew = isa_fpmd_ew(&L->f);
	for (unsigned i = 0; i < ew; i++) {
		sram_uop u = isa_u2(SRAM_FN_ADD, L->a.e + i, L->a.e + i, L->b.e + i);
		isa_emit(p, i ? u : isa_cpre(u, SRAM_CPRE_0));
	}
}

void isa_fpmd_product(isa_prog *p, isa_ctl *ctl, unsigned ma, unsigned P,
		      unsigned n)
{
	const unsigned mb = P + n;
	const unsigned low = isa_fpmd_low_zeros(p, ctl, ma, ISA_NONE, n);
	isa_emit(p, isa_with_l(isa_u1(SRAM_FN_ZERO, mb, mb), SRAM_FN_LOADT));
	for (unsigned i = 0; i < n; i++)
		isa_emit(p, isa_u1(SRAM_FN_ANDT, P + i, ma + i));
	for (unsigned j = 1; j < n; j++) {
		isa_emit(p, isa_cpre(isa_l1(SRAM_FN_LOADT, mb + j), SRAM_CPRE_0));
		if (!isa_any(ctl, p))
			continue;
		for (unsigned i = low; i < n; i++)
			isa_emit(p, isa_gate(isa_u2(SRAM_FN_ADD, P + j + i, P + j + i,
						    ma + i), SRAM_GATE_ET));
		isa_emit(p, isa_gate(isa_w0(SRAM_FN_WRC, P + j + n), SRAM_GATE_ET));
	}
}

uint64_t isa_fpmd_product_cycles(unsigned n)
{
	return (uint64_t)n * n + 2 * n - 1;
}

/* The rounded product of c's a and b into d, scratch from base. */
static void fpmul_build(const isa_cmd *c, unsigned base, unsigned d,
			isa_prog *p, isa_ctl *ctl)
{
	struct fpmul_rows L;
	fpmul_layout(c, base, &L);
	const isa_fpc_fmt *f = &L.f;
	isa_fpmd_unpack(p, ctl, f, c->a, &L.a, L.utmp);
	isa_fpmd_unpack(p, ctl, f, c->b, &L.b, L.utmp);
	isa_fpmd_specials(p, false, c->a + f->w - 1, c->b + f->w - 1, &L.a, &L.b,
			  &L.t);
	fpmul_exp_sum(&L, p);
	isa_fpmd_product(p, ctl, L.a.sig, L.P, f->p);
	isa_fpc_reduce(p, SRAM_FN_OR, L.t.band, L.P, f->p - 2, SRAM_GATE_E);
	isa_fpmd_finish(p, ctl, f, &L.t, d, L.tmp);
}

/* madd: where the product goes, and where the scratch of the product
 * and of the add then starts. */
static void fpmadd_rows(const isa_cmd *c, unsigned bitlines, unsigned *prod,
			unsigned *base)
{
	isa_rules r = {0};
	isa_cmd add = *c;
	add.op = ISA_FADD;
	isa_rules_fpadd(&add, bitlines, &r);
	*prod = r.d_may_alias_a ? c->d : c->scratch;
	*base = r.d_may_alias_a ? c->scratch : c->scratch + c->width;
}

int isa_gen_fpmul(const isa_cmd *c, unsigned bitlines, isa_prog *p,
		  isa_ctl *ctl)
{
	const isa_fpfmt *ff = isa_fpfmt_of(c->fmt);
	if ((c->op != ISA_FMUL && c->op != ISA_FMADD) || !ff ||
	    c->width != ff->width)
		return -1;
	if (c->op == ISA_FMUL) {
		fpmul_build(c, c->scratch, c->d, p, ctl);
		return 0;
	}
	unsigned prod, base;
	fpmadd_rows(c, bitlines, &prod, &base);
	fpmul_build(c, base, prod, p, ctl);
	isa_cmd add = *c;
	add.op = ISA_FADD;
	add.a = (uint16_t)prod;
	add.b = c->c3;
	add.c3 = ISA_NONE;
	add.scratch = (uint16_t)base;
	add.scratch_rows = (uint16_t)(c->scratch_rows - (base - c->scratch));
	return isa_gen_fpadd(&add, bitlines, p, ctl);
}

void isa_rules_fpmul(const isa_cmd *c, unsigned bitlines, isa_rules *r)
{
	const isa_fpfmt *ff = isa_fpfmt_of(c->fmt);
	if (!ff)
		return;
	struct fpmul_rows L;
	fpmul_layout(c, c->scratch, &L);
	r->min_width = r->max_width = ff->width;
	r->scratch_rows = L.total;
	r->d_may_alias_a = r->d_may_alias_b = true;
	if (c->op != ISA_FMADD)
		return;
	isa_rules ra = {0};
	isa_cmd add = *c;
	add.op = ISA_FADD;
	isa_rules_fpadd(&add, bitlines, &ra);
	unsigned prod, base;
	fpmadd_rows(c, bitlines, &prod, &base);
	const unsigned most = L.total > ra.scratch_rows ? L.total : ra.scratch_rows;
	r->scratch_rows = (base - c->scratch) + most;
}

uint64_t isa_cycles_fpmul(const isa_cmd *c, unsigned bitlines)
{
	const isa_fpfmt *ff = isa_fpfmt_of(c->fmt);
	if (!ff)
		return 0;
	const isa_fpc_fmt f = isa_fpc_fmt_of(c);
	uint64_t cyc = 2 * isa_fpmd_unpack_cycles(&f) + 6 + isa_fpmd_ew(&f);
	cyc += isa_fpmd_product_cycles(f.p) + 1 + isa_fpmd_finish_cycles(&f);
	if (c->op != ISA_FMADD)
		return cyc;
	isa_cmd add = *c;
	add.op = ISA_FADD;
	return cyc + isa_cycles_fpadd(&add, bitlines);
}
