/* SPDX-License-Identifier: MIT */
/*
 * cordic.c: sin, cos, exp, log and sqrt on .qN fixed point by CORDIC
 * (duality-cache §3.1.3 and Table 1; Volder 1959, Walther 1971).
 *
 * CORDIC needs only what bit-serial arrays do well: additions, shifts by
 * a fixed amount, which cost nothing (bit j of x >> i is the wordline of
 * bit min(j + i, n - 1), read in place of bit j), and constants, written
 * as known bits.  The iterations, their constants and the range
 * reduction are those of cordic_ref.c, which says what each function
 * computes; doc/commands/cordic.md has the cycle counts and accuracy.
 *
 * One iteration: the direction d (+1 or -1, per bitline) is the sign of
 * z (rotation) or of y (vectoring); one cycle puts it in the tag latch T
 * and in a wordline D.  Then, for each coordinate to update, the shifted
 * operand is negated where d says so, with CNEG (out = s ^ (T & C),
 * C' = C | s: "keep up to the lowest 1, invert above it", only where T),
 * into a wordline per bit: n cycles; and added with ADD: n cycles.  Both
 * operands are taken before either coordinate changes, so x and y are
 * updated in place.  z -= d step adds the constant step, or its
 * complement plus one, per bitline: ~D goes to a wordline ND while the
 * carry latch takes ~D (NOT with CANDZ and the carry preset to 1), and
 * bit j adds the wordline D where step_j is 1 and ND where it is 0.
 *   iteration: 1 (direction) + 2n per coordinate + n + 1 (z step)
 * Work whose result is never read is left out: the last iteration
 * updates only the result, the first of sin and cos starts from y = 0,
 * and the first of exp and log, whose inputs are constants, writes the
 * two possible results as known bits, picked per bitline by D.
 *
 * Scratch (n rows each, besides a and d): the coordinates that are not d
 * (exp keeps w = x + y in x, and z), P and Q (the negated shifted
 * operands; exp has no Q), and single rows D, ND (which hold the
 * constants 0 and 1 before the iterations), HI, LO, REFL (sin and cos),
 * SIGN (log and sqrt).  T and C are clobbered.  Every read of a comes
 * before the first write of d, so d may be a.
 */
#include "isa.h"
#include "family.h"

/* The wordlines of one command. */
typedef struct cordic_rows {
	unsigned n, a;
	unsigned x, y, z;  /* coordinates (one of them is d) */
	unsigned p, q;     /* d (x >> i) and d (y >> i), sign as needed */
	unsigned dir, ndir, hi, lo, refl;
	unsigned sign;     /* log: a < 0; sqrt: a <= 0; kept to the end */
} cordic_rows;

/* Lay out c's wordlines; returns the scratch rows they take. */
static unsigned cordic_layout(const isa_cmd *c, cordic_rows *r)
{
	const unsigned n = c->width;
	unsigned s = c->scratch;
	const unsigned none = ISA_NONE;
	*r = (cordic_rows){n, c->a, none, none, none, none, none,
			   none, none, none, none, none, none};
	switch (c->op) {
	case ISA_SIN: r->y = c->d; r->x = s; s += n; r->z = s; s += n; break;
	case ISA_COS: r->x = c->d; r->y = s; s += n; r->z = s; s += n; break;
	case ISA_EXP: r->x = c->d; r->z = s; s += n; break;
	case ISA_LOG: r->z = c->d; r->x = s; s += n; r->y = s; s += n; break;
	default: r->x = c->d; r->y = s; s += n; break; /* sqrt */
	}
	r->p = s;
	s += n;
	if (c->op != ISA_EXP) {
		r->q = s;
		s += n;
	}
	r->dir = s++;
	r->ndir = s++;
	if (c->op == ISA_SIN || c->op == ISA_COS) {
		r->hi = s++;
		r->lo = s++;
		r->refl = s++;
	}
	if (c->op == ISA_LOG || c->op == ISA_SQRT)
		r->sign = s++;
	return s - c->scratch;
}

/* The wordline of bit j of (v >> s), v at base: the sign past the top. */
static unsigned shifted_bit(const cordic_rows *r, unsigned base, unsigned j,
			    unsigned s)
{
	return base + (j + s < r->n ? j + s : r->n - 1);
}

/* dst := T ? -(src >> s) : src >> s; the last micro-op also runs lfn. */
static void emit_cneg(isa_prog *p, const cordic_rows *r, unsigned dst,
		      unsigned src, unsigned s, unsigned lfn)
{
	for (unsigned j = 0; j < r->n; j++) {
		sram_uop u = isa_u1(SRAM_FN_CNEG, dst + j, shifted_bit(r, src, j, s));
		if (j == 0)
			u = isa_cpre(u, SRAM_CPRE_0);
		if (j == r->n - 1)
			u = isa_with_l(u, lfn);
		isa_emit(p, u);
	}
}

/* dst := a + b, n cycles (add.c). */
static void emit_add(isa_prog *p, const cordic_rows *r, unsigned dst,
		     unsigned a, unsigned b)
{
	isa_cmd add = {.op = ISA_ADD, .width = (uint8_t)r->n, .fmt = ISA_FMT_INT,
		       .d = (uint16_t)dst, .a = (uint16_t)a, .b = (uint16_t)b,
		       .c3 = ISA_NONE, .d2 = ISA_NONE};
	isa_gen_add(&add, 0, p, NULL);
}

/* dst := (src >> s) + value + C, value a constant: bit j adds the
 * wordline one where value_j is 1, zero where it is 0.  C starts at 0
 * unless carry_in (the caller set it). */
static void emit_add_const(isa_prog *p, const cordic_rows *r, unsigned dst,
			   unsigned src, unsigned s, uint64_t value,
			   unsigned zero, unsigned one, bool carry_in)
{
	for (unsigned j = 0; j < r->n; j++) {
		sram_uop u = isa_u2(SRAM_FN_ADD, dst + j, shifted_bit(r, src, j, s),
				    (value >> j) & 1 ? one : zero);
		isa_emit(p, j || carry_in ? u : isa_cpre(u, SRAM_CPRE_0));
	}
}

/* Gate the micro-ops emitted since p->u[from]. */
static void gate_since(isa_prog *p, size_t from, unsigned gate)
{
	for (size_t u = from; u < p->n; u++)
		p->u[u] = isa_gate(p->u[u], gate);
}

/* dst := D ? if_d : if_nd, both constants, per bit one cycle: ONE, ZERO,
 * or D itself or its complement, sensed from wordline dir. */
static void emit_pick_const(isa_prog *p, const cordic_rows *r, unsigned dst,
			    uint64_t if_d, uint64_t if_nd, unsigned dir)
{
	for (unsigned j = 0; j < r->n; j++) {
		const unsigned bd = (if_d >> j) & 1, bn = (if_nd >> j) & 1;
		if (bd == bn)
			isa_emit(p, isa_w0(bd ? SRAM_FN_ONE : SRAM_FN_ZERO, dst + j));
		else
			isa_emit(p, isa_u1(bd ? SRAM_FN_COPY : SRAM_FN_NOT, dst + j, dir));
	}
}

/* T := the sign bit at row (or its complement), and D := T. */
static void emit_direction(isa_prog *p, const cordic_rows *r, unsigned row,
			   bool complement)
{
	if (complement)
		isa_emit(p, isa_with_l(isa_u1(SRAM_FN_NOT, r->dir, row), SRAM_FN_LOADTN));
	else
		isa_emit(p, isa_with_l(isa_u1(SRAM_FN_COPY, r->dir, row), SRAM_FN_LOADT));
}

/* zdst := zsrc - step where ~D, zsrc + step where D: the step's
 * complement plus one, or the step itself, per bitline.  n + 1 cycles. */
static void emit_z_step(isa_prog *p, const cordic_rows *r, unsigned zdst,
			unsigned zsrc, uint64_t step)
{
	sram_uop u = isa_with_l(isa_u1(SRAM_FN_NOT, r->ndir, r->dir), SRAM_FN_CANDZ);
	isa_emit(p, isa_cpre(u, SRAM_CPRE_1));
	emit_add_const(p, r, zdst, zsrc, 0, step, r->ndir, r->dir, true);
}

/* sin, cos: z := a reflected into [-pi/2, pi/2]; T := REFL := whether it
 * was.  hi = a > pi/2 is a >= 0 and a - pi/2 - ulp >= 0; lo = a < -pi/2
 * is a < 0 and a + pi/2 < 0 (the sign of a rules out the sums that
 * overflow).  Then z := a - pi (hi), a + pi (lo) or a, and z := -z where
 * REFL.  4n + 5 cycles. */
static void emit_reduce(isa_prog *p, const cordic_rows *r,
			const isa_cordic_consts *k)
{
	const unsigned n = r->n, top = n - 1;
	const uint64_t m = isa_mask(n), pi = k->pi, npi = (0 - pi) & m;
	isa_emit(p, isa_w0(SRAM_FN_ZERO, r->dir));
	isa_emit(p, isa_w0(SRAM_FN_ONE, r->ndir));
	emit_add_const(p, r, r->p, r->a, 0, (0 - k->half_pi - 1) & m, r->dir,
		       r->ndir, false);
	isa_emit(p, isa_u2(SRAM_FN_NOT, r->hi, r->p + top, r->a + top));
	emit_add_const(p, r, r->p, r->a, 0, k->half_pi, r->dir, r->ndir, false);
	isa_emit(p, isa_u2(SRAM_FN_COPY, r->lo, r->p + top, r->a + top));
	isa_emit(p, isa_with_l(isa_u2(SRAM_FN_OR, r->refl, r->hi, r->lo),
			       SRAM_FN_LOADTOR));
	for (unsigned j = 0; j < n; j++) {
		/* The addend's bit: -pi's where HI, pi's where LO, else 0. */
		const unsigned bh = (npi >> j) & 1, bl = (pi >> j) & 1;
		const unsigned row = bh && bl ? r->refl : bh ? r->hi : bl ? r->lo : r->dir;
		sram_uop u = isa_u2(SRAM_FN_ADD, r->z + j, r->a + j, row);
		isa_emit(p, j ? u : isa_cpre(u, SRAM_CPRE_0));
	}
	emit_cneg(p, r, r->z, r->z, 0, SRAM_FN_NONE);
}

/* One circular rotation step: x -= d (y >> i), y += d (x >> i),
 * z -= d atan(2^-i), d = sign(z), each only if its result is read. */
static void emit_rotation_step(isa_prog *p, const isa_cmd *c,
			       const cordic_rows *r, const isa_cordic_consts *k,
			       unsigned j)
{
	const bool last = j + 1 == k->iters;
	const bool need_y = !last || c->op == ISA_SIN;
	const bool need_x = (!last || c->op == ISA_COS) && j > 0; /* y0 = 0 */
	const unsigned i = k->shift[j];
	if (!need_y && !need_x)
		return;
	/* T := z < 0 (d = -1) for y's operand; z >= 0 for x's. */
	emit_direction(p, r, r->z + r->n - 1, !need_y);
	if (need_y)
		emit_cneg(p, r, j ? r->p : r->y, r->x, i,
			  need_x ? SRAM_FN_TNOT : SRAM_FN_NONE);
	if (need_x) {
		emit_cneg(p, r, r->q, r->y, i, SRAM_FN_NONE);
		emit_add(p, r, r->x, r->x, r->q);
	}
	if (need_y && j)
		emit_add(p, r, r->y, r->y, r->p);
	if (!last)
		emit_z_step(p, r, r->z, r->z, k->step[j]);
}

static void emit_sincos(isa_prog *p, const isa_cmd *c, const cordic_rows *r,
			const isa_cordic_consts *k)
{
	emit_reduce(p, r, k);
	/* x := 1/An, or -1/An for cos where REFL: cos(pi - a) = -cos a. */
	const uint64_t neg_x0 = (0 - k->x0) & isa_mask(r->n);
	emit_pick_const(p, r, r->x, c->op == ISA_COS ? neg_x0 : k->x0, k->x0,
			r->refl);
	for (unsigned j = 0; j < k->iters; j++)
		emit_rotation_step(p, c, r, k, j);
}

/* exp: w += d (w >> i), z -= d atanh(2^-i), d = sign(z), z = a at first;
 * iteration 0 works on the constant w0 and writes w0 -/+ (w0 >> i). */
static void emit_exp(isa_prog *p, const cordic_rows *r,
		     const isa_cordic_consts *k)
{
	const unsigned n = r->n, top = n - 1;
	const uint64_t m = isa_mask(n), w0 = k->x0;
	const uint64_t half = w0 >> k->shift[0];
	for (unsigned j = 0; j < k->iters; j++) {
		const bool last = j + 1 == k->iters;
		const unsigned zsrc = j ? r->z : r->a;
		emit_direction(p, r, zsrc + top, false); /* T = D = z < 0 */
		if (j == 0) {
			if (!last)
				emit_z_step(p, r, r->z, zsrc, k->step[j]);
			emit_pick_const(p, r, r->x, (w0 - half) & m, (w0 + half) & m,
					r->dir);
			continue;
		}
		emit_cneg(p, r, r->p, r->x, k->shift[j], SRAM_FN_NONE);
		emit_add(p, r, r->x, r->x, r->p);
		if (!last)
			emit_z_step(p, r, r->z, r->z, k->step[j]);
	}
}

/* log, sqrt: x := A + B, y := A - B, with A = a/2 (log, and sqrt where
 * a >= 2, which T holds) or a (sqrt where a < 2), B the offset; and
 * SIGN := a < 0 (log) or a <= 0 (sqrt).  Bit j of a/2 is bit j + 1 of a,
 * read in place. */
static void emit_vectoring_init(isa_prog *p, const isa_cmd *c,
				const cordic_rows *r, const isa_cordic_consts *k)
{
	const bool is_log = c->op == ISA_LOG;
	const uint64_t m = isa_mask(r->n);
	isa_emit(p, isa_w0(SRAM_FN_ZERO, r->dir));
	isa_emit(p, isa_w0(SRAM_FN_ONE, r->ndir));
	if (is_log) {
		isa_emit(p, isa_u1(SRAM_FN_COPY, r->sign, r->a + r->n - 1));
	} else { /* SIGN := a <= 0: a NOR over all of a's wordlines, then OR */
		isa_emit(p, isa_uset(SRAM_FN_NOT, r->sign, SRAM_FN_NONE, r->a,
				     isa_mask(r->n)));
		isa_emit(p, isa_u2(SRAM_FN_OR, r->sign, r->sign, r->a + r->n - 1));
		isa_emit(p, isa_l1(SRAM_FN_LOADT, r->a + r->n - 2));
	}
	/* y before x: x may be d, which may be a. */
	const unsigned dst[2] = {r->y, r->x};
	for (unsigned v = 0; v < 2; v++) {
		if (is_log && v == 1 && k->iters == 1)
			break; /* x is never read */
		for (unsigned big = is_log; big < 2; big++) {
			const uint64_t off = k->offset[big];
			const size_t from = p->n;
			emit_add_const(p, r, dst[v], r->a, big, v ? off : (0 - off) & m,
				       r->dir, r->ndir, false);
			if (!is_log)
				gate_since(p, from, big ? SRAM_GATE_ET : SRAM_GATE_ENT);
		}
	}
}

/* log, sqrt: hyperbolic vectoring: x += d (y >> i), y += d (x >> i),
 * z -= d 2 atanh(2^-i) (log), d = -sign(y), each only if its result is
 * read.  Then the result where SIGN is replaced by the constant the
 * reference gives it. */
static void emit_vectoring(isa_prog *p, const isa_cmd *c, const cordic_rows *r,
			   const isa_cordic_consts *k)
{
	const bool is_log = c->op == ISA_LOG;
	const unsigned top = r->n - 1;
	const uint64_t m = isa_mask(r->n);
	emit_vectoring_init(p, c, r, k);
	uint64_t negative = 0; /* log: 0 - the sum of the steps */
	for (unsigned j = 0; j < k->iters; j++) {
		const bool need_y = j + 1 < k->iters;
		const bool need_x = !is_log || j + 2 < k->iters;
		const unsigned i = k->shift[j];
		emit_direction(p, r, r->y + top, true); /* T = D = y >= 0 */
		if (need_y)
			emit_cneg(p, r, r->p, r->x, i, SRAM_FN_NONE);
		if (need_x) {
			emit_cneg(p, r, r->q, r->y, i, SRAM_FN_NONE);
			emit_add(p, r, r->x, r->x, r->q);
		}
		if (need_y)
			emit_add(p, r, r->y, r->y, r->p);
		if (is_log && j == 0) /* z = 0 - d step */
			emit_pick_const(p, r, r->z, k->step[0], (0 - k->step[0]) & m,
					r->dir);
		else if (is_log)
			emit_z_step(p, r, r->z, r->z, k->step[j]);
		negative = (negative - k->step[j]) & m;
	}
	const unsigned res = is_log ? r->z : r->x;
	isa_emit(p, isa_l1(SRAM_FN_LOADT, r->sign));
	for (unsigned j = 0; j < r->n; j++) {
		const unsigned fn = is_log && (negative >> j) & 1 ? SRAM_FN_ONE : SRAM_FN_ZERO;
		isa_emit(p, isa_gate(isa_w0(fn, res + j), SRAM_GATE_ET));
	}
}

int isa_gen_cordic(const isa_cmd *c, unsigned bitlines, isa_prog *p,
		   isa_ctl *ctl)
{
	(void)bitlines, (void)ctl;
	isa_cordic_consts k;
	cordic_rows r;
	if (c->width <= ISA_FIX_INT || isa_cordic_consts_of(c, &k))
		return -1;
	cordic_layout(c, &r);
	switch (c->op) {
	case ISA_SIN:
	case ISA_COS: emit_sincos(p, c, &r, &k); return 0;
	case ISA_EXP: emit_exp(p, &r, &k); return 0;
	case ISA_LOG:
	case ISA_SQRT: emit_vectoring(p, c, &r, &k); return 0;
	default: return -1;
	}
}

void isa_rules_cordic(const isa_cmd *c, unsigned bitlines, isa_rules *r)
{
	(void)bitlines;
	cordic_rows rows;
	r->scratch_rows = cordic_layout(c, &rows);
	r->min_width = ISA_FIX_INT + 1;
	r->d_may_alias_a = true;
}

/* The length of the program above, by the counts in its comments. */
uint64_t isa_cycles_cordic(const isa_cmd *c, unsigned bitlines)
{
	(void)bitlines;
	const uint64_t n = c->width;
	const uint64_t k = c->iters ? c->iters : ISA_CORDIC_DEFAULT;
	switch (c->op) {
	case ISA_SIN:
		return k == 1 ? 6 * n + 6 : k * (5 * n + 2) - n + 4;
	case ISA_COS:
		return k == 1 ? 5 * n + 5 : k * (5 * n + 2) - n + 4;
	case ISA_EXP:
		return k == 1 ? n + 1 : k * (3 * n + 2) - 2 * n - 1;
	case ISA_LOG:
		return k == 1 ? 3 * n + 5 : k * (5 * n + 2) - 3 * n + 3;
	case ISA_SQRT:
		return k * (4 * n + 1) + 3 * n + 6;
	default:
		return 0;
	}
}
