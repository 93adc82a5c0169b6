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

#include "sram.h"

typedef enum isa_op {
#define ISA_OP(name, mn, form, fam, sem) ISA_##name,
#include "opcodes.def"
#undef ISA_OP
	ISA_OP_COUNT
} isa_op;

typedef enum isa_form {
	ISA_FORM_DAB, ISA_FORM_DA, ISA_FORM_DAI, ISA_FORM_DI,
	ISA_FORM_PAB, ISA_FORM_QRAB, ISA_FORM_RA,
} isa_form;

#define ISA_TAG 0xfffeu /* destination "tag": the tag latch */
#define ISA_NONE 0xffffu
#define ISA_MAX_WIDTH 64

/* One compute command, after the assembler has resolved names. */
typedef struct isa_cmd {
	uint16_t op;        /* enum isa_op */
	uint8_t width;      /* n, 1..64 */
	uint8_t is_signed;  /* 1 for .iN, 0 for .uN */
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
int isa_lookup(const char *mnemonic); /* -1 if unknown */

/* Operand rules of a command (used by the assembler to refuse it). */
typedef struct isa_rules {
	unsigned d_rows;        /* rows written at d (n, or 1 for a 1-bit p) */
	unsigned scratch_rows;  /* scratch wordlines the micro-program needs */
	bool d_may_alias_a;     /* may d overlap a? */
	bool d_may_alias_b;
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
 * isa_check.  Returns 0, or -1 if p ran out of memory. */
int isa_build(const isa_cmd *c, unsigned bitlines, isa_prog *p);

/* The baseline cycle count of the command's micro-program, as a formula
 * of n (duality-cache Table 1 where the table gives one). */
uint64_t isa_baseline_cycles(const isa_cmd *c, unsigned bitlines);

/* ---- family builders (isa/<family>.c) ---- */
int isa_gen_add(const isa_cmd *c, unsigned bitlines, isa_prog *p);
int isa_gen_mul(const isa_cmd *c, unsigned bitlines, isa_prog *p);
int isa_gen_div(const isa_cmd *c, unsigned bitlines, isa_prog *p);
int isa_gen_logic(const isa_cmd *c, unsigned bitlines, isa_prog *p);
int isa_gen_shift(const isa_cmd *c, unsigned bitlines, isa_prog *p);
int isa_gen_cmp(const isa_cmd *c, unsigned bitlines, isa_prog *p);
int isa_gen_select(const isa_cmd *c, unsigned bitlines, isa_prog *p);
int isa_gen_popcnt(const isa_cmd *c, unsigned bitlines, isa_prog *p);
int isa_gen_set(const isa_cmd *c, unsigned bitlines, isa_prog *p);
int isa_gen_reduce(const isa_cmd *c, unsigned bitlines, isa_prog *p);

/* Per-family rules and baseline formulas, used by isa_check and
 * isa_baseline_cycles. */
void isa_rules_add(const isa_cmd *c, unsigned bitlines, isa_rules *r);
void isa_rules_mul(const isa_cmd *c, unsigned bitlines, isa_rules *r);
void isa_rules_div(const isa_cmd *c, unsigned bitlines, isa_rules *r);
void isa_rules_logic(const isa_cmd *c, unsigned bitlines, isa_rules *r);
void isa_rules_shift(const isa_cmd *c, unsigned bitlines, isa_rules *r);
void isa_rules_cmp(const isa_cmd *c, unsigned bitlines, isa_rules *r);
void isa_rules_select(const isa_cmd *c, unsigned bitlines, isa_rules *r);
void isa_rules_popcnt(const isa_cmd *c, unsigned bitlines, isa_rules *r);
void isa_rules_set(const isa_cmd *c, unsigned bitlines, isa_rules *r);
void isa_rules_reduce(const isa_cmd *c, unsigned bitlines, isa_rules *r);
uint64_t isa_cycles_add(const isa_cmd *c, unsigned bitlines);
uint64_t isa_cycles_mul(const isa_cmd *c, unsigned bitlines);
uint64_t isa_cycles_div(const isa_cmd *c, unsigned bitlines);
uint64_t isa_cycles_logic(const isa_cmd *c, unsigned bitlines);
uint64_t isa_cycles_shift(const isa_cmd *c, unsigned bitlines);
uint64_t isa_cycles_cmp(const isa_cmd *c, unsigned bitlines);
uint64_t isa_cycles_select(const isa_cmd *c, unsigned bitlines);
uint64_t isa_cycles_popcnt(const isa_cmd *c, unsigned bitlines);
uint64_t isa_cycles_set(const isa_cmd *c, unsigned bitlines);
uint64_t isa_cycles_reduce(const isa_cmd *c, unsigned bitlines);

/* ---- the scalar reference (isa/reference.c) ----
 * Element values are n-bit patterns in the low bits of a uint64_t.
 * isa_ref_elem: one element of an element-wise command.  tag_in is the
 * element's tag latch before the command (used by sel); *tag_out gets
 * the predicate of a PAB command (or tag_in if the command keeps the tag);
 * *r2 gets divrem's remainder.  Returns the value written at d.
 * isa_ref_reduce: a reduction over count elements. */
uint64_t isa_ref_elem(const isa_cmd *c, uint64_t a, uint64_t b, bool tag_in,
		      bool *tag_out, uint64_t *r2);
uint64_t isa_ref_reduce(const isa_cmd *c, const uint64_t *a, size_t count);

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

#endif
