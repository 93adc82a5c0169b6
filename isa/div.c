/* SPDX-License-Identifier: MIT */
/*
 * div.c: bit-serial restoring division: div, rem and divrem (duality-cache
 * Table 1: unsigned 1.5n^2 + 5.5n cycles, after Neural Cache [10]; signed
 * 1.5n^2 + 9.5n).  div, rem and divrem run the same micro-program and
 * compute both results; the one a command does not return goes to scratch.
 * doc/commands/mul-div.md gives the schedules cycle by cycle.
 *
 * Unsigned core, restoring division with a growing window.  Iteration k
 * (k = 1..n) brings in dividend bit n-k: the partial remainder R has k-1
 * bits, the window R' = [a[n-k], R[0..k-2]] has k (rows renamed, nothing
 * moves), and the trial subtraction R' - b only needs b's low k bits,
 * provided b < 2^k.
 * The divisor profile Z[k] = (b >> k == 0), made first, supplies that
 * condition: q[n-k] = (R' >= b mod 2^k) & Z[k].
 *   profile: C <- 1; for j = n-1..0: C <- C & ~b[j],
 *            writing the previous C, Z[j+1]                 n
 *   iteration k: T <- R'[i]; D[i] <- R'[i] - b[i]  (SUB)    2k
 *                T <- C & Z[k]   (q; k = n: T <- C)         1
 *                D[i] <- R'[i] where T is clear             k
 *                q[n-k] <- T                                1
 *   copy the remainder from its buffer to r                 n
 * D goes to the other of two ping-pong buffers and becomes the next R.
 * Total n + sum(3k + 2) + n = 1.5n^2 + 5.5n.  Division by zero needs no
 * special case: Z[k] = 1 and every trial subtraction succeeds, giving
 * q = all ones and r = a, as RISC-V (and reference.c) say.
 *
 * Signed: the same core on X = |a| and Y = |b| (unsigned; |MIN| = 2^(n-1)
 * fits), then q <- -q where sign(a) != sign(b) and b != 0, and
 * r <- -r where a < 0.  That adds 4n cycles, as Table 1 says, because
 * every latch load of the fix-ups rides on a cycle the core spends anyway:
 *  - the core's last cycle (WRT q[0]) loads the quotient's predicate
 *    M = ~(NS | Z0) from two rows the core wrote in idle write slots:
 *    Z0 = (b == 0), left in C by the profile, and NS = sign(a) XNOR
 *    sign(b), sensed by iteration 1's WRT cycle;
 *  - the core leaves C = q[0], the carry a negation needs after bit 0,
 *    and bit 0 of -q is q[0]: negating q costs n-1 cycles;
 *  - the copy's top bit senses r[n-1] together with a's sign row: it
 *    writes their AND and loads T <- their OR.  r[n-1] is set only for
 *    MIN / 0 (otherwise r < |b| <= 2^(n-1)), where a < 0, so the AND is
 *    r[n-1] and the OR is sign(a).  Its bit 0 loads C <- r[0]: negating
 *    r costs n-1 cycles.
 *   T <- sign a; X <- T ? -a : a;  T <- sign b; Y <- ...   2n+2
 *   core (as above, on X and Y)                 1.5n^2 + 5.5n
 *   q[1..n-1] negated where M; r[1..n-1] where a < 0       2n-2
 * MIN / -1 gives X = 2^(n-1), Y = 1, q = 2^(n-1) = MIN not negated, r = 0.
 * X lives in q's rows (X[n-k] is last read in iteration k, just before
 * q[n-k] is written) and Y in r's rows (r is written after the core).
 *
 * The outputs are written while a and b are still read: d and d2 may
 * not overlap them.
 *
 * That is the baseline (ctl == NULL).  Built through a controller, the
 * program skips work that no enabled bitline needs (duality-cache
 * §3.1.2; "the data-dependent program" below).
 */
#include "isa.h"
#include "family.h"

#include <stdlib.h>

/* Where a command's rows are.  Buffer 0 has n rows, buffer 1 n-1. */
struct div_rows {
	unsigned n;
	bool sgn;
	unsigned dvd, dvs;   /* dividend and divisor: a and b, or X and Y */
	unsigned q, r;       /* quotient and remainder */
	unsigned sa, sb;     /* sign rows of a and b */
	unsigned z;          /* Z[k] at z + k - 1, k = 1..n-1 */
	unsigned z0, ns;     /* signed: b == 0, and sign(a) XNOR sign(b) */
	unsigned buf[2];
};

static unsigned div_scratch_rows(const isa_cmd *c)
{
	const unsigned n = c->width;
	unsigned rows = (n - 1) + n + (n - 1);  /* Z, buffer 0, buffer 1 */
	if (c->is_signed)
		rows += 2;                      /* Z0 and NS */
	if (c->op != ISA_DIVREM)
		rows += n;                      /* the result not returned */
	return rows;
}

static void div_layout(const isa_cmd *c, struct div_rows *L)
{
	const unsigned n = c->width;
	unsigned s = c->scratch;
	L->n = n;
	L->sgn = c->is_signed;
	L->sa = c->a + n - 1;
	L->sb = c->b + n - 1;
	L->z = s;
	s += n - 1;
	if (L->sgn) {
		L->z0 = s++;
		L->ns = s++;
	} else {
		L->z0 = L->ns = ISA_NONE;
	}
	L->buf[0] = s;
	L->buf[1] = s + n;
	s += 2 * n - 1;
	L->q = c->op == ISA_REM ? s : c->d;
	L->r = c->op == ISA_DIV ? s : c->op == ISA_REM ? c->d : c->d2;
	L->dvd = L->sgn ? L->q : c->a;
	L->dvs = L->sgn ? L->r : c->b;
}

/* Bit i of the partial remainder after iteration k: the last iteration
 * (k = n) always writes buffer 0. */
static unsigned rem_row(const struct div_rows *L, unsigned k, unsigned i)
{
	return L->buf[(L->n - k) & 1] + i;
}

/* Bit i of iteration k's window R'. */
static unsigned window_row(const struct div_rows *L, unsigned k, unsigned i)
{
	return i == 0 ? L->dvd + L->n - k : rem_row(L, k - 1, i - 1);
}

static sram_uop with_w(sram_uop u, unsigned wfn, unsigned dst)
{
	u.wfn = (uint8_t)wfn;
	u.dst = (uint16_t)dst;
	return u;
}

static sram_uop with_l2(sram_uop u, unsigned lfn, unsigned r0, unsigned r1)
{
	u.lfn = (uint8_t)lfn;
	u.nact = 2;
	u.act[0] = (uint16_t)r0;
	u.act[1] = (uint16_t)r1;
	return u;
}

/* Z[k] for k = n-1..1, each written one cycle late (WRC writes the carry
 * from before the cycle); the last cycle leaves Z0 = (b == 0) in C. */
static void div_profile(const struct div_rows *L, isa_prog *p)
{
	for (unsigned j = L->n; j-- > 0;) {
		sram_uop u = isa_l1(SRAM_FN_CANDZ, L->dvs + j);
		if (j == L->n - 1)
			u = isa_cpre(u, SRAM_CPRE_1);
		else
			u = with_w(u, SRAM_FN_WRC, L->z + j);
		isa_emit(p, u);
	}
}

/* The signed fix-ups' side work in the idle slots of the core's first
 * cycles and its last one (see the header). */
static sram_uop side_write(const struct div_rows *L, unsigned k, sram_uop u)
{
	if (!L->sgn || L->n < 2)
		return u;
	if (k == 1)
		return with_w(u, SRAM_FN_WRC, L->z0);  /* C = Z0 after the profile */
	if (k == 2)
		return with_w(u, SRAM_FN_WRT, L->ns);  /* T = NS from iteration 1 */
	return u;
}

static sram_uop side_latch(const struct div_rows *L, unsigned k, sram_uop u)
{
	if (!L->sgn || L->n < 2)
		return u;
	if (k == 1)
		return with_l2(u, SRAM_FN_LOADTXN, L->sa, L->sb);
	if (k == L->n)
		return with_l2(u, SRAM_FN_LOADTN, L->ns, L->z0);
	return u;
}

static void div_iteration(const struct div_rows *L, unsigned k, isa_prog *p)
{
	const unsigned n = L->n;
	for (unsigned i = 0; i < k; i++) {
		const unsigned w = window_row(L, k, i);
		sram_uop ld = isa_l1(SRAM_FN_LOADT, w);
		isa_emit(p, i ? ld : side_write(L, k, ld));
		sram_uop sub = isa_u2(SRAM_FN_SUB, rem_row(L, k, i), w, L->dvs + i);
		isa_emit(p, i ? sub : isa_cpre(sub, SRAM_CPRE_1));
	}
	if (k < n)
		isa_emit(p, isa_l1(SRAM_FN_TSANDC, L->z + k - 1));
	else
		isa_emit(p, isa_l0(SRAM_FN_TFROMC));
	for (unsigned i = 0; i < k; i++)
		isa_emit(p, isa_gate(isa_u1(SRAM_FN_COPY, rem_row(L, k, i),
					    window_row(L, k, i)), SRAM_GATE_ENT));
	isa_emit(p, side_latch(L, k, isa_w0(SRAM_FN_WRT, L->q + n - k)));
}

/* r <- the final partial remainder.  Signed: top bit first, also loading
 * T <- sign(a); bit 0 last, also loading C <- r[0]. */
static void div_copy_out(const struct div_rows *L, isa_prog *p)
{
	const unsigned n = L->n;
	if (!L->sgn || n == 1) {
		for (unsigned i = 0; i < n; i++)
			isa_emit(p, isa_u1(SRAM_FN_COPY, L->r + i, rem_row(L, n, i)));
		return;
	}
	isa_emit(p, isa_with_l(isa_u2(SRAM_FN_COPY, L->r + n - 1,
				      rem_row(L, n, n - 1), L->sa),
			       SRAM_FN_LOADTOR));
	for (unsigned i = n - 2; i >= 1; i--)
		isa_emit(p, isa_u1(SRAM_FN_COPY, L->r + i, rem_row(L, n, i)));
	isa_emit(p, isa_with_l(isa_u1(SRAM_FN_COPY, L->r, rem_row(L, n, 0)),
			       SRAM_FN_LOADC));
}

/* dst <- T ? -src : src, from bit 0 with C cleared. */
static void emit_cneg_pass(isa_prog *p, unsigned src, unsigned dst, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		sram_uop u = isa_u1(SRAM_FN_CNEG, dst + i, src + i);
		isa_emit(p, i ? u : isa_cpre(u, SRAM_CPRE_0));
	}
}

/* dst <- |src|: T <- sign, then the negation pass. */
static void emit_magnitude(isa_prog *p, unsigned src, unsigned dst, unsigned n)
{
	isa_emit(p, isa_l1(SRAM_FN_LOADT, src + n - 1));
	emit_cneg_pass(p, src, dst, n);
}

/* rows <- T ? -rows : rows in place, with C = rows[0] already loaded:
 * bit 0 of the negation is bit 0 itself. */
static void emit_negate_tail(isa_prog *p, unsigned rows, unsigned n)
{
	for (unsigned i = 1; i < n; i++)
		isa_emit(p, isa_u1(SRAM_FN_CNEG, rows + i, rows + i));
}

/* ---- the data-dependent program (duality-cache §3.1.2) ----
 * With a controller (ctl != NULL) the program asks, at each step, whether
 * any enabled bitline needs the work that follows; doc/commands/mul-div.md
 * gives the details and measured cycles.  The partial remainder is then a
 * list of rows (R, LSB first), because a skipped iteration leaves it in
 * place: its window [dvd[n-k], R] simply becomes the new R.  A bit known
 * to be 0 on every enabled bitline is ZROW: it is sensed as no row.
 *  - Leading iterations: while every iteration so far was skipped, R is
 *    the dividend's top rows.  Iteration k then changes nothing but
 *    q[n-k] = Z0 (= b == 0) on a bitline whose window is 0 (the
 *    dividend's leading zeros) or whose b >= 2^k (Z[k] = 0: the bound on
 *    the quotient's digits).  A probe asks for a bitline with neither:
 *    T <- OR of the window's rows (one many-wordline read, §3.1.1; if no
 *    bitline has a 1 there, those rows become ZROW), then T <- T & Z[k].
 *  - Zero residues: the WRT cycle that ends an iteration has a free latch
 *    slot: it loads T <- OR of the new residue's rows.  If no bitline has
 *    a residue, R becomes ZROW and the leading probes start again.
 *  - Width: only the low j window bits that are not ZROW above are
 *    subtracted and restored (the quotient bit then comes from Z[j]).
 *  - Signed: if no a (b) is negative, X = a (Y = b) is read in place.
 * Iteration 1 has a closed form that starts with its probe (T <- a & Z1),
 * so that asking costs nothing where the iteration must run. */

#define ZROW 0xffffu /* a remainder bit that is 0 on every enabled bitline */

struct dctl {
	struct div_rows L;         /* dvd and dvs may be a and b (signed) */
	isa_prog *p;
	isa_ctl *ctl;
	unsigned R[ISA_MAX_WIDTH]; /* the partial remainder: rows or ZROW */
	unsigned nr;
	bool lead;      /* R holds no buffer row: probe the next iteration */
	bool c_z0;      /* C still holds Z0 (nothing changed C since the profile) */
	bool m_ready;   /* signed: T = M loaded on the last iteration's WRT */
	bool c_q0;      /* signed: C = q[0] */
	unsigned zrow;  /* a row holding Z0: z0 (signed) or q[0] (unsigned) */
	sram_uop pw;    /* a write the next micro-op must carry (WRT -> NS) */
	unsigned pend[ISA_MAX_WIDTH], npend; /* q rows still to be set to Z0 */
};

static bool r_holds(const struct dctl *S, unsigned row)
{
	for (unsigned i = 0; i < S->nr; i++)
		if (S->R[i] == row)
			return true;
	return false;
}

/* A pending q row that no longer holds a remainder bit, or ISA_NONE. */
static unsigned pend_take(struct dctl *S)
{
	for (unsigned i = 0; i < S->npend; i++)
		if (!r_holds(S, S->pend[i])) {
			const unsigned row = S->pend[i];
			S->pend[i] = S->pend[--S->npend];
			return row;
		}
	return ISA_NONE;
}

/* Emit u.  The pending write rides on it (or, if u writes, goes just
 * before it); a free write slot takes a pending q row while C = Z0 (WRC
 * writes C as it is before the cycle, so not with a preset). */
static void dc_emit(struct dctl *S, sram_uop u)
{
	if (S->pw.wfn != SRAM_FN_NONE) {
		if (u.wfn != SRAM_FN_NONE)
			isa_emit(S->p, S->pw);
		else
			u = with_w(u, S->pw.wfn, S->pw.dst);
		S->pw.wfn = SRAM_FN_NONE;
	}
	if (u.wfn == SRAM_FN_NONE && S->c_z0 && u.cpre == SRAM_CPRE_KEEP) {
		const unsigned row = pend_take(S);
		if (row != ISA_NONE)
			u = with_w(u, SRAM_FN_WRC, row);
	}
	if (u.cpre != SRAM_CPRE_KEEP || sram_fn_latch(u.wfn) == 'C' ||
	    sram_fn_latch(u.lfn) == 'C')
		S->c_z0 = false;
	isa_emit(S->p, u);
}

/* Set every pending q row that is free to Z0. */
static void dc_flush(struct dctl *S)
{
	for (unsigned row; (row = pend_take(S)) != ISA_NONE;)
		dc_emit(S, S->c_z0 ? isa_w0(SRAM_FN_WRC, row)
				   : isa_u1(SRAM_FN_COPY, row, S->zrow));
}

/* q row `row` must become Z0 (the zrow itself already is). */
static void pend_add(struct dctl *S, unsigned row)
{
	if (row != S->zrow)
		S->pend[S->npend++] = row;
}

static void r_push_low(struct dctl *S, unsigned row)
{
	for (unsigned i = S->nr; i > 0; i--)
		S->R[i] = S->R[i - 1];
	S->R[0] = row;
	S->nr++;
}

static void r_all_zero(struct dctl *S)
{
	for (unsigned i = 0; i < S->nr; i++)
		S->R[i] = ZROW;
	S->lead = true;
}

/* Signed: T <- NS = sign a XNOR sign b, written to its row by the next
 * micro-op (the baseline does this on iteration 1's WRT cycle). */
static void dc_latch_ns(struct dctl *S)
{
	dc_emit(S, with_l2(isa_l0(SRAM_FN_NONE), SRAM_FN_LOADTXN, S->L.sa, S->L.sb));
	S->pw = isa_w0(SRAM_FN_WRT, S->L.ns);
}

/* Iteration 1, window [dvd[n-1]].  Its quotient bit is q = (a & Z1) | Z0
 * and its remainder a ^ (q & b[0]): cycle A loads T <- a & Z1, the probe
 * (a bitline needing the iteration), and stores Z0; if one does, four
 * more cycles finish it (five in all, as the baseline's). */
static void dc_first(struct dctl *S)
{
	const struct div_rows *L = &S->L;
	const unsigned n = L->n, top = L->dvd + n - 1, d0 = rem_row(L, 1, 0);
	S->zrow = L->sgn ? L->z0 : L->q;
	dc_emit(S, with_w(isa_l2(SRAM_FN_LOADT, top, L->z), SRAM_FN_WRC, S->zrow));
	S->R[0] = top;
	S->nr = 1;
	if (!isa_any(S->ctl, S->p)) {
		pend_add(S, L->q + n - 1);
		if (L->sgn)
			dc_latch_ns(S);
		return;
	}
	S->lead = false;
	dc_emit(S, isa_l1(SRAM_FN_TORS, S->zrow));
	dc_emit(S, isa_u1(SRAM_FN_COPY, d0, top));
	dc_emit(S, isa_gate(isa_u2(SRAM_FN_XOR, d0, top, L->dvs), SRAM_GATE_ET));
	S->R[0] = d0;
	if (L->sgn) {
		dc_emit(S, with_l2(isa_w0(SRAM_FN_WRT, L->q + n - 1),
				   SRAM_FN_LOADTXN, L->sa, L->sb));
		S->pw = isa_w0(SRAM_FN_WRT, L->ns);
		return;
	}
	dc_emit(S, isa_with_l(isa_u1(SRAM_FN_WRT, L->q + n - 1, d0),
			      SRAM_FN_LOADTOR));
	if (!isa_any(S->ctl, S->p))
		r_all_zero(S);
}

/* Iteration k >= 2 while R holds no buffer row: its window is dvd's rows
 * n-k.. up to the first ZROW.  Returns true if no bitline needs it (R
 * then becomes the window, q[n-k] = Z0). */
static bool dc_probe(struct dctl *S, unsigned k)
{
	const struct div_rows *L = &S->L;
	const unsigned n = L->n, base = L->dvd + n - k, q = L->q + n - k;
	unsigned t = 1;
	while (t < k && S->R[t - 1] != ZROW)
		t++;
	dc_emit(S, isa_uset(SRAM_FN_NONE, SRAM_NO_ROW, SRAM_FN_LOADTOR, base,
			    isa_mask(t)));
	if (isa_any(S->ctl, S->p) == false) {
		r_push_low(S, ZROW); /* the whole window is 0 everywhere */
		r_all_zero(S);
		pend_add(S, q);
		return true;
	}
	if (k == n)
		return false;
	const bool spec = L->q != L->dvd && S->c_z0;
	sram_uop u = isa_l1(SRAM_FN_TANDS, L->z + k - 1);
	dc_emit(S, spec ? with_w(u, SRAM_FN_WRC, q) : u);
	if (isa_any(S->ctl, S->p))
		return false;
	r_push_low(S, base);
	if (!spec)
		pend_add(S, q);
	return true;
}

/* Bit i of the trial subtraction into d: SUB with the window bit in T,
 * or, for a ZROW window bit, NEG (0 + ~b + C: the same sum and carry). */
static void dc_sub_bit(struct dctl *S, unsigned w, unsigned i, unsigned d)
{
	sram_uop u;
	if (w != ZROW) {
		dc_emit(S, isa_l1(SRAM_FN_LOADT, w));
		u = isa_u2(SRAM_FN_SUB, d, w, S->L.dvs + i);
	} else {
		u = isa_u1(SRAM_FN_NEG, d, S->L.dvs + i);
	}
	dc_emit(S, i ? u : isa_cpre(u, SRAM_CPRE_1));
}

/* The WRT that ends iteration k (j bits kept) and its latch slot: the
 * signed quotient's predicate M on the last iteration, else the question
 * "does any bitline have a nonzero residue?". */
static void dc_wrt(struct dctl *S, unsigned k, unsigned j)
{
	const struct div_rows *L = &S->L;
	const unsigned n = L->n, q = L->q + n - k, d = rem_row(L, k, 0);
	for (unsigned i = 0; i < k; i++)
		S->R[i] = i < j ? d + i : ZROW;
	S->nr = k;
	if (k == n) {
		sram_uop u = isa_w0(SRAM_FN_WRT, q);
		if (L->sgn)
			u = with_l2(u, SRAM_FN_LOADTN, L->ns, L->z0);
		dc_emit(S, u);
		S->m_ready = L->sgn;
		S->c_q0 = j == n;
		return;
	}
	dc_emit(S, isa_uset(SRAM_FN_WRT, q, SRAM_FN_LOADTOR, d, isa_mask(j)));
	if (!isa_any(S->ctl, S->p))
		r_all_zero(S);
}

/* Iteration k on its window [dvd[n-k], R], of which bits j.. are ZROW:
 * j-bit subtraction, q from Z[j] (R' < 2^j, so R' >= b needs b < 2^j),
 * j-bit restore.  Pending q rows are set before (if not in the window)
 * or after. */
static void dc_execute(struct dctl *S, unsigned k)
{
	const struct div_rows *L = &S->L;
	const unsigned n = L->n, d = rem_row(L, k, 0);
	unsigned w[ISA_MAX_WIDTH];
	w[0] = L->dvd + n - k;
	for (unsigned i = 1; i < k; i++)
		w[i] = S->R[i - 1];
	unsigned j = k;
	while (j > 1 && w[j - 1] == ZROW)
		j--;
	S->lead = false;
	S->nr = 0;       /* the window's rows are busy: pend_take keeps off */
	for (unsigned i = 0; i < k; i++)
		if (w[i] != ZROW)
			S->R[S->nr++] = w[i];
	dc_flush(S);
	for (unsigned i = 0; i < j; i++)
		dc_sub_bit(S, w[i], i, d + i);
	dc_emit(S, j < n ? isa_l1(SRAM_FN_TSANDC, L->z + j - 1)
			 : isa_l0(SRAM_FN_TFROMC));
	for (unsigned i = 0; i < j; i++) {
		const sram_uop u = w[i] == ZROW ? isa_w0(SRAM_FN_ZERO, d + i)
						: isa_u1(SRAM_FN_COPY, d + i, w[i]);
		dc_emit(S, isa_gate(u, SRAM_GATE_ENT));
	}
	dc_wrt(S, k, j);
	dc_flush(S);
}

/* r <- R.  Signed, as the baseline's copy-out: the top bit also loads
 * T <- sign a, bit 0 C <- r[0]; a ZROW bit is written with ZERO. */
static void dc_copy_out(struct dctl *S)
{
	const struct div_rows *L = &S->L;
	const unsigned n = L->n;
	for (unsigned i = n; i-- > 0;) {
		const unsigned src = S->R[i], dst = L->r + i;
		sram_uop u = src == ZROW ? isa_w0(SRAM_FN_ZERO, dst)
					 : isa_u1(SRAM_FN_COPY, dst, src);
		if (L->sgn && i == n - 1 && src == ZROW)
			u = isa_with_l(isa_u1(SRAM_FN_ZERO, dst, L->sa), SRAM_FN_LOADT);
		else if (L->sgn && i == n - 1)
			u = with_l2(u, SRAM_FN_LOADTOR, src, L->sa);
		else if (L->sgn && i == 0 && src == ZROW)
			u = isa_cpre(u, SRAM_CPRE_0);
		else if (L->sgn && i == 0)
			u = isa_with_l(u, SRAM_FN_LOADC);
		dc_emit(S, u);
	}
}

/* Signed: q <- -q where M, r <- -r where a < 0, each only if some
 * bitline needs it (T holds M, then sign a: asking costs nothing). */
static void dc_signed_tail(struct dctl *S)
{
	const struct div_rows *L = &S->L;
	if (!S->m_ready)
		dc_emit(S, with_l2(isa_l0(SRAM_FN_NONE), SRAM_FN_LOADTN, L->ns, L->z0));
	if (!S->c_q0)
		dc_emit(S, isa_l1(SRAM_FN_LOADC, L->q));
	if (isa_any(S->ctl, S->p))
		emit_negate_tail(S->p, L->q, L->n);
	dc_copy_out(S);
	if (isa_any(S->ctl, S->p))
		emit_negate_tail(S->p, L->r, L->n);
}

/* The whole data-dependent program, n >= 2. */
static int div_ctl(const isa_cmd *c, isa_prog *p, isa_ctl *ctl)
{
	static const struct dctl zero;
	struct dctl *S = malloc(sizeof *S);
	if (!S)
		return -1;
	*S = zero;
	S->p = p;
	S->ctl = ctl;
	S->lead = true;
	S->pw = isa_w0(SRAM_FN_NONE, SRAM_NO_ROW);
	div_layout(c, &S->L);
	const unsigned n = S->L.n;
	if (S->L.sgn) {
		isa_emit(p, isa_l1(SRAM_FN_LOADT, S->L.sa));
		if (isa_any(ctl, p))
			emit_cneg_pass(p, c->a, S->L.dvd, n);
		else
			S->L.dvd = c->a;
		isa_emit(p, isa_l1(SRAM_FN_LOADT, S->L.sb));
		if (isa_any(ctl, p))
			emit_cneg_pass(p, c->b, S->L.dvs, n);
		else
			S->L.dvs = c->b;
	}
	div_profile(&S->L, p);
	S->c_z0 = true;
	dc_first(S);
	for (unsigned k = 2; k <= n; k++)
		if (!S->lead || !dc_probe(S, k))
			dc_execute(S, k);
	dc_flush(S);
	if (S->L.sgn)
		dc_signed_tail(S);
	else
		dc_copy_out(S);
	free(S);
	return 0;
}

int isa_gen_div(const isa_cmd *c, unsigned bitlines, isa_prog *p,
		 isa_ctl *ctl)
{
	(void)bitlines;
	const unsigned n = c->width;
	if (n < 1 || n > ISA_MAX_WIDTH ||
	    (c->op != ISA_DIV && c->op != ISA_REM && c->op != ISA_DIVREM))
		return -1;
	if (ctl && n >= 2)
		return div_ctl(c, p, ctl);
	struct div_rows L;
	div_layout(c, &L);
	if (L.sgn) {
		emit_magnitude(p, c->a, L.dvd, n);
		emit_magnitude(p, c->b, L.dvs, n);
	}
	div_profile(&L, p);
	for (unsigned k = 1; k <= n; k++)
		div_iteration(&L, k, p);
	if (L.sgn)
		emit_negate_tail(p, L.q, n);
	div_copy_out(&L, p);
	if (L.sgn)
		emit_negate_tail(p, L.r, n);
	return 0;
}

void isa_rules_div(const isa_cmd *c, unsigned bitlines, isa_rules *r)
{
	(void)bitlines;
	r->scratch_rows = c->width ? div_scratch_rows(c) : 0;
	r->d_may_alias_a = r->d_may_alias_b = false;
}

uint64_t isa_cycles_div(const isa_cmd *c, unsigned bitlines)
{
	(void)bitlines;
	const uint64_t n = c->width;
	/* 1.5n^2 + 5.5n and 1.5n^2 + 9.5n, kept in integers */
	return c->is_signed ? n * (3 * n + 19) / 2 : n * (3 * n + 11) / 2;
}
