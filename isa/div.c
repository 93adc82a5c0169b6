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
 */
#include "isa.h"

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

/* dst <- |src|: T <- sign, then CNEG from bit 0 with C cleared. */
static void emit_magnitude(isa_prog *p, unsigned src, unsigned dst, unsigned n)
{
	isa_emit(p, isa_l1(SRAM_FN_LOADT, src + n - 1));
	for (unsigned i = 0; i < n; i++) {
		sram_uop u = isa_u1(SRAM_FN_CNEG, dst + i, src + i);
		isa_emit(p, i ? u : isa_cpre(u, SRAM_CPRE_0));
	}
}

/* rows <- T ? -rows : rows in place, with C = rows[0] already loaded:
 * bit 0 of the negation is bit 0 itself. */
static void emit_negate_tail(isa_prog *p, unsigned rows, unsigned n)
{
	for (unsigned i = 1; i < n; i++)
		isa_emit(p, isa_u1(SRAM_FN_CNEG, rows + i, rows + i));
}

int isa_gen_div(const isa_cmd *c, unsigned bitlines, isa_prog *p,
		 isa_ctl *ctl)
{
	(void)ctl;
	(void)bitlines;
	const unsigned n = c->width;
	if (n < 1 || n > ISA_MAX_WIDTH ||
	    (c->op != ISA_DIV && c->op != ISA_REM && c->op != ISA_DIVREM))
		return -1;
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
