/* SPDX-License-Identifier: MIT */
/*
 * rsqrt.c: d := 1/sqrt(a) on .f32, .f16, .bf16 by the fast inverse square
 * root and one Newton step (duality-cache Table 1: "Fast inverse square
 * root", O(n^2), variable), the sequence of isa_fp_rsqrt (fpref.c):
 *
 *   y0 := magic - (a >> 1)      an integer subtract on the bit pattern:
 *                               ~(a >> 1) (NOT of a[j+1], 1 at the top),
 *                               then ADD of the magic's known bits with
 *                               the carry preset to 1             2n
 *   h  := a * y0                fpmul.c (about sqrt(a))
 *   u  := 0.5 * h               fpmul.c, with 0.5 written as known bits
 *   u  := y0 * u                fpmul.c (about 1/2)
 * (((a y0) / 2) y0 rather than (a / 2) y0^2: no intermediate leaves the
 * normal range for any normal a, so hardware mode's flushing never
 * bites at the ends of the range.)
 *   u  := 1.5 - u               fpadd.c (sub), 1.5 as known bits
 *   d  := y0 * u                fpmul.c
 *
 * Each step is the floating-point family's own micro-program on rows of
 * this command's scratch, so each rounds exactly as the reference's
 * isa_fp_mul and isa_fp_sub do, in either mode (c->flags), and each keeps
 * its data-dependent latency under a controller.
 *
 * The special inputs follow the reference, not the arithmetic: NaN and
 * negative non-zero inputs give the canonical NaN, +-0 gives +-inf (so
 * does a subnormal in hardware mode, which counts as zero), +inf gives +0.
 * Their classes are found first, from a alone, by many-wordline reads
 * (duality-cache §3.1.1: the AND or NOR of all exponent or fraction rows
 * in one cycle), and at the end each class present overwrites d where it
 * holds: one question to the controller, then n gated writes.
 *
 * a is read only before d is first written (the last multiply), so d may
 * be a.  T and C are clobbered.
 */
#include "isa.h"
#include "family.h"

/* The rows of one command: its own, then the sub-commands' scratch. */
typedef struct rsqrt_rows {
	unsigned n, a, d;
	unsigned y0, k, h, u;  /* n rows each; k holds 0.5, then 1.5 */
	unsigned zero, one;    /* constant rows for the integer add */
	unsigned fz, e1;       /* fraction == 0, exponent all ones */
	unsigned zr, nanr, infr, sign; /* the special classes; a's sign */
	unsigned sub;          /* first scratch row of the sub-commands */
} rsqrt_rows;

static unsigned rsqrt_layout(const isa_cmd *c, rsqrt_rows *r)
{
	const unsigned n = c->width, s = c->scratch;
	*r = (rsqrt_rows){n, c->a, c->d, s, s + n, s + 2 * n, s + 3 * n,
			  s + 4 * n, s + 4 * n + 1, s + 4 * n + 2, s + 4 * n + 3,
			  s + 4 * n + 4, s + 4 * n + 5, s + 4 * n + 6,
			  s + 4 * n + 7, s + 4 * n + 8};
	return r->sub - s;
}

/* The constants of isa_fp_rsqrt: the magic number of each format (the
 * f32 one is Quake III's), 0.5 and 1.5. */
static uint64_t rsqrt_magic(unsigned fmt)
{
	return fmt == ISA_FMT_F32 ? 0x5f3759df : fmt == ISA_FMT_F16 ? 0x59bb : 0x5f37;
}

static uint64_t fp_half(const isa_fpfmt *f)
{
	return (uint64_t)(f->bias - 1) << f->mbits;
}

static uint64_t fp_three_halves(const isa_fpfmt *f)
{
	return (uint64_t)f->bias << f->mbits | UINT64_C(1) << (f->mbits - 1);
}

/* dst := v, known bits; gated by gate. */
static void emit_const(isa_prog *p, unsigned dst, uint64_t v, unsigned n,
		       unsigned gate)
{
	for (unsigned j = 0; j < n; j++)
		isa_emit(p, isa_gate(isa_w0((v >> j) & 1 ? SRAM_FN_ONE : SRAM_FN_ZERO,
					    dst + j), gate));
}

/* The classes, from a: ZR (zero; in hardware mode a subnormal too),
 * NANR (NaN, or negative and not zero), INFR (+inf), SIGN; and the
 * constant rows.  15 cycles, 16 in IEEE mode. */
static void emit_classes(isa_prog *p, const isa_cmd *c, const rsqrt_rows *r,
			 const isa_fpfmt *f)
{
	const unsigned ex = r->a + f->mbits, top = r->a + r->n - 1;
	const uint64_t frac = isa_mask(f->mbits), exps = isa_mask(f->ebits);
	isa_emit(p, isa_uset(SRAM_FN_NOT, r->fz, SRAM_FN_NONE, r->a, frac));
	isa_emit(p, isa_uset(SRAM_FN_COPY, r->e1, SRAM_FN_NONE, ex, exps));
	isa_emit(p, isa_uset(SRAM_FN_NOT, r->zr, SRAM_FN_NONE, ex, exps));
	if (c->flags & ISA_FL_IEEE)
		isa_emit(p, isa_u2(SRAM_FN_COPY, r->zr, r->zr, r->fz));
	isa_emit(p, isa_u1(SRAM_FN_COPY, r->sign, top));
	/* NANR := (sign & ~ZR) | (E1 & ~FZ) */
	isa_emit(p, isa_l1(SRAM_FN_LOADTN, r->zr));
	isa_emit(p, isa_u1(SRAM_FN_ANDT, r->nanr, top));
	isa_emit(p, isa_l1(SRAM_FN_LOADT, r->e1));
	isa_emit(p, isa_l1(SRAM_FN_TANDZ, r->fz));
	isa_emit(p, isa_l1(SRAM_FN_TORS, r->nanr));
	isa_emit(p, isa_w0(SRAM_FN_WRT, r->nanr));
	/* INFR := E1 & FZ & ~sign */
	isa_emit(p, isa_l2(SRAM_FN_LOADT, r->e1, r->fz));
	isa_emit(p, isa_l1(SRAM_FN_TANDZ, top));
	isa_emit(p, isa_w0(SRAM_FN_WRT, r->infr));
	/* the constant rows of the integer add */
	isa_emit(p, isa_w0(SRAM_FN_ZERO, r->zero));
	isa_emit(p, isa_w0(SRAM_FN_ONE, r->one));
}

/* y0 := magic - (a >> 1) = ~(a >> 1) + magic + 1.  2n cycles. */
static void emit_estimate(isa_prog *p, const rsqrt_rows *r, uint64_t magic)
{
	for (unsigned j = 0; j + 1 < r->n; j++)
		isa_emit(p, isa_u1(SRAM_FN_NOT, r->y0 + j, r->a + j + 1));
	isa_emit(p, isa_w0(SRAM_FN_ONE, r->y0 + r->n - 1));
	for (unsigned j = 0; j < r->n; j++) {
		sram_uop u = isa_u2(SRAM_FN_ADD, r->y0 + j, r->y0 + j,
				    (magic >> j) & 1 ? r->one : r->zero);
		isa_emit(p, j ? u : isa_cpre(u, SRAM_CPRE_1));
	}
}

/* The command c as the sub-command op d := a (op) b on the scratch. */
static isa_cmd rsqrt_sub(const isa_cmd *c, const rsqrt_rows *r, unsigned op,
			 unsigned d, unsigned a, unsigned b)
{
	isa_cmd s = *c;
	s.op = (uint16_t)op;
	s.d = (uint16_t)d;
	s.a = (uint16_t)a;
	s.b = (uint16_t)b;
	s.c3 = ISA_NONE;
	s.scratch = (uint16_t)r->sub;
	s.scratch_rows = (uint16_t)(c->scratch_rows - (r->sub - c->scratch));
	return s;
}

/* Where class row holds on some bitline (or always, without a
 * controller), d := v there; sign: take d's top bit from SIGN. */
static void emit_special(isa_prog *p, isa_ctl *ctl, const rsqrt_rows *r,
			 unsigned row, uint64_t v, bool sign)
{
	isa_emit(p, isa_l1(SRAM_FN_LOADT, row));
	if (!isa_any(ctl, p))
		return;
	emit_const(p, r->d, v, sign ? r->n - 1 : r->n, SRAM_GATE_ET);
	if (sign)
		isa_emit(p, isa_gate(isa_u1(SRAM_FN_COPY, r->d + r->n - 1, r->sign),
				     SRAM_GATE_ET));
}

int isa_gen_rsqrt(const isa_cmd *c, unsigned bitlines, isa_prog *p,
		  isa_ctl *ctl)
{
	const isa_fpfmt *f = isa_fpfmt_of(c->fmt);
	if (c->op != ISA_RSQRT || !f || c->width != f->width)
		return -1;
	rsqrt_rows r;
	rsqrt_layout(c, &r);
	emit_classes(p, c, &r, f);
	emit_estimate(p, &r, rsqrt_magic(c->fmt));
	emit_const(p, r.k, fp_half(f), r.n, SRAM_GATE_E);
	const isa_cmd steps[] = {
		rsqrt_sub(c, &r, ISA_FMUL, r.h, r.a, r.y0),
		rsqrt_sub(c, &r, ISA_FMUL, r.u, r.k, r.h),
		rsqrt_sub(c, &r, ISA_FMUL, r.u, r.y0, r.u),
		rsqrt_sub(c, &r, ISA_FSUB, r.u, r.k, r.u),
		rsqrt_sub(c, &r, ISA_FMUL, r.d, r.y0, r.u),
	};
	for (unsigned i = 0; i < sizeof steps / sizeof steps[0]; i++) {
		if (steps[i].op == ISA_FSUB)
			emit_const(p, r.k, fp_three_halves(f), r.n, SRAM_GATE_E);
		const int rc = steps[i].op == ISA_FSUB
			       ? isa_gen_fpadd(&steps[i], bitlines, p, ctl)
			       : isa_gen_fpmul(&steps[i], bitlines, p, ctl);
		if (rc)
			return -1;
	}
	const uint64_t inf = isa_mask(f->ebits) << f->mbits;
	emit_special(p, ctl, &r, r.zr, inf, true);
	emit_special(p, ctl, &r, r.infr, 0, false);
	emit_special(p, ctl, &r, r.nanr, isa_fp_nan(c->fmt), false);
	return 0;
}

void isa_rules_rsqrt(const isa_cmd *c, unsigned bitlines, isa_rules *r)
{
	const isa_fpfmt *f = isa_fpfmt_of(c->fmt);
	if (!f)
		return;
	rsqrt_rows rows;
	const unsigned own = rsqrt_layout(c, &rows);
	isa_cmd s = rsqrt_sub(c, &rows, ISA_FMUL, rows.u, rows.y0, rows.u);
	isa_rules rm = {0}, ra = {0};
	isa_rules_fpmul(&s, bitlines, &rm);
	s.op = ISA_FSUB;
	isa_rules_fpadd(&s, bitlines, &ra);
	r->scratch_rows = own + (rm.scratch_rows > ra.scratch_rows
				 ? rm.scratch_rows : ra.scratch_rows);
	r->min_width = r->max_width = f->width;
	r->d_may_alias_a = true;
}

/* classes, estimate, two constants, four multiplies, one subtract, and
 * the three special overwrites. */
uint64_t isa_cycles_rsqrt(const isa_cmd *c, unsigned bitlines)
{
	const isa_fpfmt *f = isa_fpfmt_of(c->fmt);
	if (!f)
		return 0;
	const uint64_t n = f->width;
	isa_cmd s = *c;
	s.op = ISA_FMUL;
	const uint64_t mul = isa_cycles_fpmul(&s, bitlines);
	s.op = ISA_FSUB;
	const uint64_t sub = isa_cycles_fpadd(&s, bitlines);
	const uint64_t own = 15 + ((c->flags & ISA_FL_IEEE) ? 1 : 0) + 2 * n +
			     2 * n + 3 * (n + 1);
	return own + 4 * mul + sub;
}
