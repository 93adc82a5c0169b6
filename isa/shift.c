/* SPDX-License-Identifier: MIT */
/*
 * shift.c: shl, shr, sra by a per-element amount b; shli, shri, srai by a
 * constant.
 *
 * In the transposed layout (infinity-stream §2.2, Fig 1(d)) bit i of an
 * element is wordline base + i, so shifting an element by s bits is
 * renaming its rows: d[i] := a[i - s] (left) or a[i + s] (right), and the
 * rows that come from outside the element become 0 (or, arithmetic right,
 * copies of the sign row a[n-1]).  Each row move is one COPY cycle, each
 * fill row one ZERO (or COPY of the sign row).  A write whose source row
 * is its destination row is the identity and is left out.
 *
 * In place.  Left shifts move rows from the top down and right shifts
 * from the bottom up, so a row is always read before it is overwritten
 * when d == a.  The arithmetic fill reads a[n-1], which a right shift
 * never overwrites (its own move is the identity).
 *
 * Constant shifts (shli, shri, srai, 0 <= imm < n; isa_check refuses a
 * larger immediate through max_imm): one renaming, n cycles; when d == a,
 * imm = 0 costs 0 cycles and srai 1 cycle less (its top row stays).
 * T is preserved.
 *
 * Per-element shifts (shl, shr, sra): every bitline has its own amount, so
 * the renaming is done as a barrel shifter, one stage per amount bit,
 * gated by the tag latch (predication, duality-cache §3.3):
 *   1. d := a                                        n cycles (0 if d == a)
 *   2. for each k with 2^k < n (K = ceil(log2 n) stages):
 *        LOADT b[k]; shift d in place by 2^k, gated ET    1 + m cycles
 *   3. T := OR of b[k] for every k with 2^k >= n (the amount is then
 *      >= n): LOADTOR then TORNZ, 3 rows a cycle    ceil((n - K) / 3)
 *      and fill all of d, gated ET (a shift by n)        m cycles
 * where m = n rows move per stage (shl, shr) or n - 1 (sra: its sign row
 * stays).  Stages compose exactly because each moves by less than n and
 * fills as the whole shift would; amounts in [n, 2^K) are shifted out by
 * the stages themselves.  For sra with n = 1 the result is a whatever b
 * is, and steps 2-3 are empty.
 *   shl, shr: n[d != a] + K (n + 1) + ceil((n - K) / 3) + n
 *   sra:      n[d != a] + K n + ceil((n - K) / 3) + n - 1      (n >= 2)
 * duality-cache Table 1 (§3.1) lists shl/shr at n^2 cycles for its
 * search-based algorithm (one search per amount value); the barrel shifter
 * is O(n log n): 238 cycles instead of 1024 at n = 32.
 * T ends holding the OR of b[k] over 2^k >= n; C is untouched.
 *
 * Aliasing: d may be a.  It may not be b: b[k] is read at stage k, after
 * d has been written.
 */
#include "isa.h"
#include "family.h"

enum shift_kind { SHIFT_LEFT, SHIFT_RIGHT, SHIFT_ARITH };

static enum shift_kind shift_kind_of(unsigned op)
{
	switch (op) {
	case ISA_SHL: case ISA_SHLI: return SHIFT_LEFT;
	case ISA_SHR: case ISA_SHRI: return SHIFT_RIGHT;
	default: return SHIFT_ARITH;
	}
}

/* Source row of d[i] for a shift by s, or SRAM_NO_ROW for a zero row. */
static unsigned source_row(enum shift_kind k, unsigned src, unsigned n,
			   unsigned s, unsigned i)
{
	if (k == SHIFT_LEFT)
		return i >= s ? src + i - s : SRAM_NO_ROW;
	if (i + s < n)
		return src + i + s;
	return k == SHIFT_ARITH ? src + n - 1 : SRAM_NO_ROW;
}

/* dst := src shifted by s (0 <= s <= n), every write gated by gate, in the
 * order that is correct when dst == src. */
static void emit_move_rows(isa_prog *p, enum shift_kind k, unsigned dst,
			   unsigned src, unsigned n, unsigned s, unsigned gate)
{
	for (unsigned j = 0; j < n; j++) {
		const unsigned i = k == SHIFT_LEFT ? n - 1 - j : j;
		const unsigned from = source_row(k, src, n, s, i);
		if (from == dst + i)
			continue; /* the identity */
		sram_uop u = from == SRAM_NO_ROW ? isa_w0(SRAM_FN_ZERO, dst + i)
						 : isa_u1(SRAM_FN_COPY, dst + i, from);
		isa_emit(p, isa_gate(u, gate));
	}
}

/* Cycles of emit_move_rows: n writes less the identities. */
static uint64_t move_rows_cycles(enum shift_kind k, bool same, unsigned n,
				 unsigned s)
{
	if (!same)
		return n;
	if (s == 0)
		return 0;
	return k == SHIFT_ARITH ? n - 1u : n;
}

/* T := OR of rows [from, to), three activated rows per cycle. */
static void emit_or_into_tag(isa_prog *p, unsigned from, unsigned to)
{
	for (unsigned r = from; r < to; r += SRAM_MAX_ACT) {
		sram_uop u = isa_l1(r == from ? SRAM_FN_LOADTOR : SRAM_FN_TORNZ, r);
		for (u.nact = 1; u.nact < SRAM_MAX_ACT && r + u.nact < to; u.nact++)
			u.act[u.nact] = (uint16_t)(r + u.nact);
		isa_emit(p, u);
	}
}

/* K: the amount bits that are barrel stages (2^k < n). */
static unsigned barrel_stages(unsigned n)
{
	unsigned k = 0;
	while ((1u << k) < n)
		k++;
	return k;
}

static void emit_barrel(isa_prog *p, const isa_cmd *c)
{
	const enum shift_kind k = shift_kind_of(c->op);
	const unsigned n = c->width, stages = barrel_stages(n);
	emit_move_rows(p, k, c->d, c->a, n, 0, SRAM_GATE_E);
	for (unsigned bit = 0; bit < stages; bit++) {
		isa_emit(p, isa_l1(SRAM_FN_LOADT, c->b + bit));
		emit_move_rows(p, k, c->d, c->d, n, 1u << bit, SRAM_GATE_ET);
	}
	if (move_rows_cycles(k, true, n, n) == 0)
		return; /* sra.1: the fill is the identity */
	emit_or_into_tag(p, c->b + stages, c->b + n);
	emit_move_rows(p, k, c->d, c->d, n, n, SRAM_GATE_ET);
}

int isa_gen_shift(const isa_cmd *c, unsigned bitlines, isa_prog *p,
		 isa_ctl *ctl)
{
	(void)ctl;
	(void)bitlines;
	switch (c->op) {
	case ISA_SHL: case ISA_SHR: case ISA_SRA:
		emit_barrel(p, c);
		return 0;
	case ISA_SHLI: case ISA_SHRI: case ISA_SRAI:
		if (c->imm >= c->width)
			return -1;
		emit_move_rows(p, shift_kind_of(c->op), c->d, c->a, c->width,
			       (unsigned)c->imm, SRAM_GATE_E);
		return 0;
	default:
		return -1;
	}
}

void isa_rules_shift(const isa_cmd *c, unsigned bitlines, isa_rules *r)
{
	(void)bitlines;
	r->d_may_alias_a = true;
	r->d_may_alias_b = false;
	if (c->width >= 1)
		r->max_imm = c->width - 1u;
}

uint64_t isa_cycles_shift(const isa_cmd *c, unsigned bitlines)
{
	(void)bitlines;
	const enum shift_kind k = shift_kind_of(c->op);
	const unsigned n = c->width;
	const bool same = c->d == c->a;
	if (c->op == ISA_SHLI || c->op == ISA_SHRI || c->op == ISA_SRAI)
		return move_rows_cycles(k, same, n, (unsigned)c->imm);
	const unsigned stages = barrel_stages(n);
	const uint64_t m = move_rows_cycles(k, true, n, n);
	uint64_t cyc = move_rows_cycles(k, same, n, 0) + stages * (1u + m);
	if (m)
		cyc += (n - stages + SRAM_MAX_ACT - 1u) / SRAM_MAX_ACT + m;
	return cyc;
}
