/* SPDX-License-Identifier: MIT */
/*
 * isa.h: infsim's compute commands and their micro-programs (prefix isa_).
 *
 * A command (struct isa_cmd) names wordlines, a width n and a signedness.
 * isa_build() turns it into a micro-program: a flat list of sram_uop, one
 * per cycle, that every selected array runs in lockstep.  Each operation
 * family builds its micro-programs in its own file (isa/<family>.c),
 * written as the sequence of SRAM micro-ops, close to the papers'
 * pseudo-code.  opcodes.def is the one list of commands.
 *
 * The scalar reference (isa_ref_*) says what each command does to element
 * values, in plain C, without the SRAM model.  Tests compare the two.
 */
#ifndef INFSIM_ISA_H
#define INFSIM_ISA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "sram.h"

INFSIM_BEGIN_DECLS

typedef enum isa_op {
#define ISA_OP(name, mn, form, fam, cls, sem) ISA_##name,
#include "opcodes.def"
#undef ISA_OP
	ISA_OP_COUNT
} isa_op;

typedef enum isa_form {
	ISA_FORM_DAB, ISA_FORM_DA, ISA_FORM_DAI, ISA_FORM_DI,
	ISA_FORM_PAB, ISA_FORM_QRAB, ISA_FORM_RA,
	ISA_FORM_DABC,  /* d, a, b, c (madd) */
	ISA_FORM_PAI,   /* p, a, #imm (search) */
} isa_form;

/* Element formats.  A command's type suffix names one: .iN/.uN (INT,
 * N = 1..64), .f32, .f16, .bf16 (IEEE binary formats, round to nearest
 * even), .qN (FIX: two's complement fixed point with N - ISA_FIX_INT
 * fraction bits, the CORDIC functions' operands). */
typedef enum isa_fmt {
	ISA_FMT_INT = 0, ISA_FMT_F32, ISA_FMT_F16, ISA_FMT_BF16, ISA_FMT_FIX,
	ISA_FMT_COUNT
} isa_fmt;
#define ISA_FIX_INT 3 /* integer bits of a .qN value, its sign included */

/* Which formats a command takes (the CLASS column of opcodes.def). */
enum isa_class { ISA_CLASS_I, ISA_CLASS_F, ISA_CLASS_Q, ISA_CLASS_A, ISA_CLASS_X };

/* An IEEE binary format: 1 sign, ebits exponent, mbits fraction bits.
 * Bits are LSB first: fraction at 0..mbits-1, exponent above, sign on
 * top (wordline base + width - 1). */
typedef struct isa_fpfmt {
	const char *name;  /* "f32", "f16", "bf16" */
	unsigned width, ebits, mbits, bias;
} isa_fpfmt;
const isa_fpfmt *isa_fpfmt_of(unsigned fmt); /* NULL unless a float format */

/* Type names and suffixes: "i32", "u8", "f32", "bf16", "q32".  parse:
 * text[0..len) into (fmt, width, is_signed); 0, or -1 if it names no
 * type.  name: the canonical text into buf; returns buf. */
int isa_type_parse(const char *text, size_t len, unsigned *fmt,
		   unsigned *width, unsigned *is_signed);
const char *isa_type_name(unsigned fmt, unsigned width, unsigned is_signed,
			  char *buf, size_t size);

#define ISA_TAG 0xfffeu /* destination "tag": the tag latch */
#define ISA_NONE 0xffffu
#define ISA_MAX_WIDTH 64

/* isa_cmd.flags: settings of the machine that change a micro-program. */
#define ISA_FL_IEEE 1u  /* full IEEE: subnormals exact (else flushed to zero) */
#define ISA_CORDIC_DEFAULT 17

/* One compute command, after the assembler has resolved names. */
typedef struct isa_cmd {
	uint16_t op;        /* enum isa_op */
	uint8_t width;      /* n, 1..64 (a float format's width) */
	uint8_t is_signed;  /* 1 for .iN, .qN and floats, 0 for .uN */
	uint8_t fmt;        /* enum isa_fmt of d, a, b and c */
	uint8_t sfmt, swidth, ssigned; /* cvt: the source a's type */
	uint8_t flags;      /* ISA_FL_* */
	uint8_t iters;      /* CORDIC iterations k */
	uint16_t c3;        /* madd's addend c, or ISA_NONE */
	uint16_t d;         /* destination wordline base, or ISA_TAG */
	uint16_t d2;        /* second destination (divrem's r), or ISA_NONE */
	uint16_t a, b;      /* source wordline bases, or ISA_NONE */
	uint16_t scratch;   /* first scratch wordline the command may use */
	uint16_t scratch_rows; /* how many scratch wordlines it may use */
	uint64_t imm;       /* immediate (DAI, DI), n bits */
} isa_cmd;

/* A growing micro-program. */
typedef struct isa_prog {
	sram_uop *u;
	size_t n, cap;
	bool oom;           /* an allocation failed; the program is invalid */
} isa_prog;

void isa_prog_init(isa_prog *p);
void isa_prog_free(isa_prog *p);
void isa_prog_clear(isa_prog *p);
void isa_emit(isa_prog *p, sram_uop u);

/* Micro-op constructors, so a micro-program reads like the algorithm:
 *   isa_emit(p, isa_u2(SRAM_FN_ADD, dst, a, b));   ADD of rows a, b to dst
 * uN: N activated wordlines; w0: a write with nothing sensed; l1/l2: a
 * latch function only.  Fields not set are SRAM_FN_NONE / gate E. */
sram_uop isa_w0(unsigned wfn, unsigned dst);
sram_uop isa_u1(unsigned wfn, unsigned dst, unsigned r0);
sram_uop isa_u2(unsigned wfn, unsigned dst, unsigned r0, unsigned r1);
sram_uop isa_l0(unsigned lfn);
sram_uop isa_l1(unsigned lfn, unsigned r0);
sram_uop isa_l2(unsigned lfn, unsigned r0, unsigned r1);
/* Activate the wordlines base + i for each bit i of set (1 to 64 of
 * them, a search's many-wordline read), with write function wfn to dst
 * (SRAM_FN_NONE and SRAM_NO_ROW for none) and latch function lfn. */
sram_uop isa_uset(unsigned wfn, unsigned dst, unsigned lfn, unsigned base,
		  uint64_t set);
static inline sram_uop isa_gate(sram_uop u, unsigned gate) { u.gate = (uint8_t)gate; return u; }
static inline sram_uop isa_cpre(sram_uop u, unsigned c) { u.cpre = (uint8_t)c; return u; }
static inline sram_uop isa_with_l(sram_uop u, unsigned lfn) { u.lfn = (uint8_t)lfn; return u; }

/* What the table knows about each command. */
typedef struct isa_info {
	const char *name;       /* mnemonic */
	const char *family;
	const char *semantics;  /* one line, from opcodes.def */
	isa_form form;
} isa_info;

const isa_info *isa_info_of(unsigned op);
int isa_lookup(const char *mnemonic); /* first command of that name, -1 if none */
/* The command for a mnemonic and a format: "add" with ISA_FMT_F32 is
 * FADD.  -1 if the mnemonic is unknown, -2 if it exists but not for fmt. */
int isa_lookup_fmt(const char *mnemonic, unsigned fmt);
int isa_class_of(unsigned op);    /* enum isa_class */
bool isa_class_takes(int cls, unsigned fmt);

/* ---- data-dependent micro-programs (duality-cache §3.1.2) ----
 * A micro-program may depend on the data through one signal: the
 * wired-OR of the tag latch over the enabled bitlines that run it (the
 * "any hit" line a search drives).  A family asks for it with isa_any()
 * at a decision point; the controller first runs every micro-op emitted
 * so far, then answers.  Every question is phrased as "does any bitline
 * need the work that follows?", so the baseline (ctl == NULL: no
 * controller, the static program whose length isa_baseline_cycles gives)
 * answers yes and does all of it.  The optimised latency is the length
 * of the program that a controller's answers leave.  Both give the same
 * bits: the skipped work changes nothing on any enabled bitline.  A
 * family may emit extra micro-ops (the searches that feed decisions) only
 * when ctl is not NULL. */
typedef struct isa_ctl isa_ctl;
struct isa_ctl {
	/* Run p->u[*done..p->n) (and set done to p->n), then return the
	 * wired-OR of T over the enabled bitlines of the run. */
	bool (*any)(isa_ctl *ctl, isa_prog *p);
	size_t done;
	void *ctx;
};
static inline bool isa_any(isa_ctl *ctl, isa_prog *p)
{
	return ctl ? ctl->any(ctl, p) : true;
}

/* Operand rules of a command (used by the assembler to refuse it). */
typedef struct isa_rules {
	unsigned d_rows;        /* rows written at d (n, or 1 for a 1-bit p) */
	unsigned scratch_rows;  /* scratch wordlines the micro-program needs */
	bool d_may_alias_a;     /* may d overlap a? */
	bool d_may_alias_b;
	bool d_may_alias_c;     /* may d be c (DABC)? */
	unsigned min_width, max_width;
	bool tag_dest_ok;       /* may d be the tag latch? */
	uint64_t max_imm;       /* largest immediate (DAI, DI); default all ones */
} isa_rules;

/* NULL if the command is well-formed for a machine with W wordlines and
 * B bitlines, else a static message; *rules is filled either way when
 * rules is not NULL. */
const char *isa_check(const isa_cmd *c, unsigned wordlines, unsigned bitlines,
		      isa_rules *rules);

/* Build the micro-program of c into p (appending).  The command must pass
 * isa_check.  Returns 0, or -1 if p ran out of memory.  isa_build is the
 * baseline (static) program; isa_build_ctl the data-dependent one, run
 * as it is built through ctl (NULL: the baseline). */
int isa_build(const isa_cmd *c, unsigned bitlines, isa_prog *p);
int isa_build_ctl(const isa_cmd *c, unsigned bitlines, isa_prog *p,
		  isa_ctl *ctl);
/* Can the command's program depend on the data (does it ever call
 * isa_any)?  Controllers run the others as one static program. */
bool isa_data_dependent(const isa_cmd *c);

/* The baseline cycle count of the command's micro-program, as a formula
 * of n (duality-cache Table 1 where the table gives one). */
uint64_t isa_baseline_cycles(const isa_cmd *c, unsigned bitlines);

/* ---- the scalar reference (isa/reference.c) ----
 * Element values are n-bit patterns in the low bits of a uint64_t.
 * isa_ref_elem: one element of an element-wise command.  tag_in is the
 * element's tag latch before the command (used by sel); *tag_out gets
 * the predicate of a PAB command (or tag_in if the command keeps the tag);
 * *r2 gets divrem's remainder.  Returns the value written at d.
 * isa_ref_reduce: a reduction over count elements. */
uint64_t isa_ref_elem(const isa_cmd *c, uint64_t a, uint64_t b, bool tag_in,
		      bool *tag_out, uint64_t *r2);
/* The same with a third operand c3 (madd's addend). */
uint64_t isa_ref_elem3(const isa_cmd *c, uint64_t a, uint64_t b, uint64_t c3,
		       bool tag_in, bool *tag_out, uint64_t *r2);
uint64_t isa_ref_reduce(const isa_cmd *c, const uint64_t *a, size_t count);
/* isa_ref_elem3 over n elements at once, for the integer commands whose
 * result neither reads nor sets the tag (add, sub, mul, and, or, xor):
 * d[i] := its value for a[i], b[i], and true.  false, with d untouched,
 * for every other command (run isa_ref_elem3 on each element). */
bool isa_ref_row(const isa_cmd *c, const uint64_t *a, const uint64_t *b, uint64_t *d,
		 size_t n);

/* ---- the floating-point reference (isa/fpref.c) ----
 * IEEE binary arithmetic on bit patterns (f32, f16, bf16), in plain C
 * integer code, round to nearest even.  flags is isa_cmd.flags: without
 * ISA_FL_IEEE, subnormal inputs count as zero and results that are tiny
 * after rounding become zero of the same sign, which is what x86 does with
 * MXCSR.DAZ and FTZ set.  Every NaN result is the canonical quiet NaN
 * (sign 0, exponent all ones, top fraction bit only). */
uint64_t isa_fp_add(unsigned fmt, unsigned flags, uint64_t a, uint64_t b);
uint64_t isa_fp_sub(unsigned fmt, unsigned flags, uint64_t a, uint64_t b);
uint64_t isa_fp_mul(unsigned fmt, unsigned flags, uint64_t a, uint64_t b);
uint64_t isa_fp_div(unsigned fmt, unsigned flags, uint64_t a, uint64_t b);
/* a * b + c with two roundings. */
uint64_t isa_fp_madd(unsigned fmt, unsigned flags, uint64_t a, uint64_t b,
		     uint64_t c);
/* a * b + c with one rounding (fused). */
uint64_t isa_fp_fma(unsigned fmt, unsigned flags, uint64_t a, uint64_t b,
		    uint64_t c);
/* -1, 0 or 1 for a < b, a == b, a > b, and 2 when unordered (a NaN). */
int isa_fp_cmp(unsigned fmt, unsigned flags, uint64_t a, uint64_t b);
uint64_t isa_fp_min(unsigned fmt, unsigned flags, uint64_t a, uint64_t b);
uint64_t isa_fp_max(unsigned fmt, unsigned flags, uint64_t a, uint64_t b);
uint64_t isa_fp_rsqrt(unsigned fmt, unsigned flags, uint64_t a);
uint64_t isa_fp_nan(unsigned fmt);
/* A conversion (c->op == ISA_CVT): a of type (sfmt, swidth, ssigned) to
 * (fmt, width, is_signed). */
uint64_t isa_fp_cvt(const isa_cmd *c, uint64_t a);
/* A float's value as a double (exact), and a double rounded to the
 * nearest format value (ties to even; flags as above). */
double isa_fp_to_double(unsigned fmt, uint64_t bits);
uint64_t isa_fp_from_double(unsigned fmt, unsigned flags, double v);
/* The result of every F-class command except cvt (fpref.c). */
uint64_t isa_ref_fp(const isa_cmd *c, uint64_t a, uint64_t b, uint64_t c3,
		    bool *tag_out);

/* ---- the CORDIC reference (isa/cordic_ref.c) ----
 * sin, cos, exp, log, sqrt on .qN values: the same fixed-point iterations,
 * truncations and range reduction as the micro-program, in plain C. */
uint64_t isa_ref_cordic(const isa_cmd *c, uint64_t a);
/* The constants of a CORDIC command, as .qN bit patterns rounded from
 * 62-bit tables: the micro-program (cordic.c) writes these very bits and
 * the reference uses them, so both iterate on the same numbers. */
#define ISA_CORDIC_MAX 60
typedef struct isa_cordic_consts {
	unsigned iters;                 /* k: c->iters, or the default for 0 */
	uint8_t shift[ISA_CORDIC_MAX];  /* iteration j shifts by shift[j] */
	uint64_t step[ISA_CORDIC_MAX];  /* z's step: atan, atanh or 2 atanh */
	uint64_t x0;      /* sin, cos: the gain 1/An; exp: 1/Kh */
	uint64_t offset[2]; /* log: 1/2, 1/2; sqrt: 1/(4 Kh^2), 1/(2 Kh^2) */
	uint64_t half_pi, pi;
} isa_cordic_consts;
/* 0, or -1 if c->iters is above ISA_CORDIC_MAX. */
int isa_cordic_consts_of(const isa_cmd *c, isa_cordic_consts *k);
/* A .qN value as a double, and a double to the nearest .qN value
 * (saturated to the format's range). */
double isa_fix_to_double(unsigned width, uint64_t bits);
uint64_t isa_fix_from_double(unsigned width, double v);

/* n-bit helpers shared by the reference and the tests. */
static inline uint64_t isa_mask(unsigned n)
{
	return n >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1;
}
static inline int64_t isa_sext(uint64_t v, unsigned n)
{
	if (n >= 64)
		return (int64_t)v;
	uint64_t m = UINT64_C(1) << (n - 1);
	v &= isa_mask(n);
	return (int64_t)((v ^ m) - m);
}

INFSIM_END_DECLS

#endif
