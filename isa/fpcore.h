/* SPDX-License-Identifier: MIT */
/*
 * fpcore.h: bit-serial building blocks shared by the floating-point
 * families (fpadd, fpmul, fpdiv, cvt, rsqrt; prefix isa_fpc_).
 *
 * Every function appends micro-ops to an isa_prog, takes explicit
 * wordline numbers, and says which scratch rows it uses and what it costs
 * in cycles (the baseline: ctl == NULL).  Functions that take an isa_ctl
 * may skip work no enabled bitline needs (duality-cache §3.1.2); with
 * ctl == NULL they emit exactly the count their _cycles function gives,
 * and with a controller they leave the same bits on every enabled
 * bitline.  "Clobbers T/C" says which latches a function leaves changed.
 *
 * Conventions.  A float operand sits at base src: fraction bits at
 * src + 0..m-1, exponent at src + m..m+e-1, sign at src + w - 1 (isa.h).
 * A significand of sw bits is LSB first; a value in "unpacked form" is
 *   (-1)^sign * sig / 2^(sw-1) * 2^(em1 + 1 - bias)
 * i.e. em1 is the biased exponent minus one of the significand's top
 * position (softfloat's convention: packing adds the hidden bit into the
 * exponent field, so a subnormal's field comes out 0 by itself).  em1 is
 * two's complement, ew bits, ew >= e + 2 so that overflow and underflow
 * have room.  Hardware mode (no ISA_FL_IEEE) is x86 SSE with MXCSR.FTZ
 * and DAZ: subnormal inputs read as zero, results tiny after rounding
 * become zero of their sign.
 */
#ifndef INFSIM_FPCORE_H
#define INFSIM_FPCORE_H

#include "isa.h"

/* A float format as the micro-programs see it. */
typedef struct isa_fpc_fmt {
	unsigned w, e, m;   /* width, exponent bits, fraction bits */
	unsigned p;         /* significand bits, m + 1 */
	unsigned bias;
	bool ieee;          /* ISA_FL_IEEE: subnormals exact, else flushed */
} isa_fpc_fmt;

/* The format of c (c->fmt must be a float format). */
isa_fpc_fmt isa_fpc_fmt_of(const isa_cmd *c);

/* A bump allocator over a command's scratch rows.  isa_fpc_take returns
 * the first of n fresh rows; count the rows a program needs by running
 * the same takes from 0 (the family's rules function). */
typedef struct isa_fpc_rows {
	unsigned next;
} isa_fpc_rows;
static inline unsigned isa_fpc_take(isa_fpc_rows *r, unsigned n)
{
	unsigned first = r->next;
	r->next += n;
	return first;
}

/* ---- searches: many-wordline activation (duality-cache §3.1.1) ----
 * One cycle each, n = 1..64 contiguous rows base..base+n-1 sensed
 * together.  isa_fpc_reduce writes to dst, with wfn SRAM_FN_COPY (AND of
 * the rows), SRAM_FN_OR or SRAM_FN_NOT (NOR), gated by gate (enum
 * sram_gate).  isa_fpc_search sets a latch with lfn: SRAM_FN_LOADT (T :=
 * AND), SRAM_FN_LOADTN (T := NOR), SRAM_FN_LOADTOR (T := OR),
 * SRAM_FN_TANDS, SRAM_FN_TANDZ, SRAM_FN_TORS, SRAM_FN_TORNZ, ... */
void isa_fpc_reduce(isa_prog *p, unsigned wfn, unsigned dst, unsigned base,
		    unsigned n, unsigned gate);
void isa_fpc_search(isa_prog *p, unsigned lfn, unsigned base, unsigned n);
/* T := (rows base..base+n-1 hold the n-bit value v): the AND of its 1
 * rows, then the NOR of its 0 rows (the search command's two cycles; one
 * when v is 0 or all ones). */
void isa_fpc_match(isa_prog *p, unsigned base, unsigned n, uint64_t v);
unsigned isa_fpc_match_cycles(unsigned n, uint64_t v);

/* ---- unpacking ----
 * Class rows of the operand at src, each ISA_NONE if not wanted:
 *   h     the hidden bit: exponent != 0;
 *   zero  +-0 (hardware mode: a subnormal too, DAZ);
 *   inf   +-inf;  nan  any NaN;
 *   tmp   two scratch rows (needed when inf or nan is wanted).
 * h and zero: one search cycle each; inf and/or nan: 3 cycles (two
 * searches and an AND), + 1 for nan.  Leaves T and C alone. */
typedef struct isa_fpc_class {
	unsigned h, zero, inf, nan, tmp;
} isa_fpc_class;
void isa_fpc_classify(isa_prog *p, const isa_fpc_fmt *f, unsigned src,
		      const isa_fpc_class *cl);
unsigned isa_fpc_classify_cycles(const isa_fpc_fmt *f, const isa_fpc_class *cl);

/* dst[0..p-1] := the significand of src: the fraction, and the hidden
 * bit (row h from isa_fpc_classify) on top; in hardware mode the
 * fraction of an exponent-0 operand reads 0.  Gated by gate (a gated
 * pair of these is a swap, Algorithm 1 line 6).  p cycles; T, C kept. */
void isa_fpc_sig(isa_prog *p, const isa_fpc_fmt *f, unsigned src, unsigned h,
		 unsigned dst, unsigned gate);
/* dst[0..e-1] := the effective exponent of src: its exponent field, and
 * 1 for a subnormal in IEEE mode (bit 0 is XNOR(e0, h)).  e cycles. */
void isa_fpc_exp(isa_prog *p, const isa_fpc_fmt *f, unsigned src, unsigned h,
		 unsigned dst, unsigned gate);

/* ---- normalisation: the leading-zero search ----
 * Shift sig[0..n) left until its top bit is set, and set
 *   eout := ein - (the shift),
 * ein being ein_w bits unsigned (zero-extended; ein == eout allowed when
 * ein_w == ew) and eout ew bits two's complement.  A zero significand
 * shifts by 2^J - 1 (J stages) and stays zero.  Logarithmic leading-zero
 * search: for j = J-1..0, T := (the top 2^j bits are all zero), one NOR
 * search; the tagged bitlines shift by 2^j (n cycles, gated by T) and
 * record the bit (WRT); then eout = ein - L, 2 cycles per bit of L and one
 * per other bit.  With ctl, a stage no bitline needs is skipped after its
 * search.  Scratch: J + 2 rows at tmp (L, a zero row and a ones row).
 * Cycles: J (n + 2) + 2 J + (ew - J) + 2, J = ceil(log2 n).
 * Clobbers T and C. */
void isa_fpc_normalize(isa_prog *p, isa_ctl *ctl, unsigned sig, unsigned n,
		       unsigned ein, unsigned ein_w, unsigned eout,
		       unsigned ew, unsigned tmp);
unsigned isa_fpc_normalize_stages(unsigned n);      /* J */
unsigned isa_fpc_normalize_scratch(unsigned n);     /* J + 2 */
uint64_t isa_fpc_normalize_cycles(unsigned n, unsigned ew);

/* ---- variable right shift with sticky ----
 * Where row cond is set (ISA_NONE: everywhere), shift sig[0..n) right by
 * the unsigned amount in rows amt[0..aw), ORing every bit shifted out
 * into sig[0] (the sticky bit; shifts with sticky compose exactly, so the
 * stages may run in any order).  J = ceil(log2 n) stages, n <= 64.
 * Amounts >= 2^J first collapse everything into sig[0]: T := OR of
 * amt[J..aw) (& cond), sig[0] := OR of sig (one search), the rest 0.
 * Stage j < min(J, aw): T := amt[j] (& cond), sig[0] := OR of
 * sig[0..2^j] (one search), sig[i] := sig[i + 2^j], all gated by T.
 * With ctl a stage no bitline needs is skipped after its T load.  No
 * scratch.  Cycles: min(J, aw) (n + 1) + (aw > J ? n + 1 + (cond set) : 0).
 * Clobbers T. */
void isa_fpc_shr_sticky(isa_prog *p, isa_ctl *ctl, unsigned sig, unsigned n,
			unsigned amt, unsigned aw, unsigned cond);
uint64_t isa_fpc_shr_sticky_cycles(unsigned n, unsigned aw, bool cond);

/* ---- round to nearest even and pack ----
 * From unpacked form (sig normalised: top bit set, or all zero; sw >= p+2
 * and sw <= 64) to the packed format at d[0..w):
 *   IEEE mode: results below the normal range are shifted right by
 *     -em1 with sticky (isa_fpc_shr_sticky) and rounded once, as
 *     subnormals;
 *   round to nearest even at position sw - p (guard below it, sticky =
 *     OR of the rest), adding the increment to the packed field, so that
 *     a carry out of the significand bumps the exponent;
 *   overflow (field >= 2^e - 1) gives inf of the sign;
 *   hardware mode: a field <= 0 after rounding (tiny AFTER rounding, as
 *     x86 decides) gives zero of the sign;
 *   sig all zero gives zero with sign zsign (ISA_NONE: sign);
 *   inf (row, or ISA_NONE) forces inf of the sign, nan (row, or ISA_NONE)
 *     the canonical quiet NaN (sign 0, top fraction bit only); nan wins.
 * sig and em1 are modified (IEEE mode).  d must not overlap the inputs.
 * Scratch: isa_fpc_pack_scratch rows at tmp.  Clobbers T and C. */
typedef struct isa_fpc_pack {
	unsigned sig, sw;   /* significand */
	unsigned em1, ew;   /* biased exponent - 1, two's complement */
	unsigned sign, zsign;
	unsigned inf, nan;
} isa_fpc_pack;
void isa_fpc_round_pack(isa_prog *p, isa_ctl *ctl, const isa_fpc_fmt *f,
			const isa_fpc_pack *in, unsigned d, unsigned tmp);
unsigned isa_fpc_pack_scratch(const isa_fpc_fmt *f, const isa_fpc_pack *in);
uint64_t isa_fpc_pack_cycles(const isa_fpc_fmt *f, const isa_fpc_pack *in);

#endif
