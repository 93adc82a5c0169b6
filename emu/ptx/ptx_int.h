/* SPDX-License-Identifier: MIT */
/*
 * ptx_int.h: the internal form of a PTX module (emu/ptx/): kernels of
 * decoded instructions over numbered registers, the module's variables,
 * and the lexer's cursor.  doc/PTX.md says what each op means.
 */
#ifndef INFSIM_PTX_INT_H
#define INFSIM_PTX_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "ptx.h"
#include "text.h"

/* Limits of a module (doc/PTX.md, "Limits"): each refused with a located
 * message, so any input needs bounded memory. */
#define PTX_MAX_KERNELS 64
#define PTX_MAX_PARAMS 64
#define PTX_MAX_REGS 4096      /* registers of one kernel, all classes */
#define PTX_MAX_INSNS 65536    /* instructions of one kernel */
#define PTX_MAX_LABELS 8192
#define PTX_MAX_VARS 256       /* variables of the module and a kernel */
#define PTX_MAX_DEPTH 32       /* nested { } scopes */
#define PTX_MAX_GLOBAL_BYTES (1u << 20) /* .global and .const variables */
#define PTX_MAX_SHARED_BYTES (48u << 10)
#define PTX_MAX_LOCAL_BYTES (16u << 10) /* .local and call .params, a thread */
#define PTX_MAX_THREADS 1024   /* threads of one CTA */
#define PTX_DEFAULT_STEPS 100000000ull

/* Where the reference places each space in the one address map it gives
 * generic addresses (cvta is the identity; doc/PTX.md, "Memory"). */
#define PTX_WIN_GLOBALS 0xF0000000u /* the module's .global variables */
#define PTX_WIN_CONST 0xF1000000u
#define PTX_WIN_SHARED 0xF2000000u
#define PTX_WIN_LOCAL 0xF3000000u
#define PTX_WIN_END 0xF4000000u

/* Value types of instructions and registers. */
enum ptx_type {
	PT_NONE, PT_B8, PT_B16, PT_B32, PT_B64, PT_U8, PT_U16, PT_U32, PT_U64,
	PT_S8, PT_S16, PT_S32, PT_S64, PT_F16, PT_F32, PT_F64, PT_PRED,
	PT_F16X2   /* two f16 in a 32-bit register, the low half first */
};
unsigned ptx_type_bits(unsigned t);
bool ptx_type_signed(unsigned t);
bool ptx_type_float(unsigned t);

/* Memory spaces. */
enum ptx_space { PS_GENERIC, PS_GLOBAL, PS_SHARED, PS_LOCAL, PS_PARAM, PS_CONST };

enum ptx_op {
#define PTX_OP(name, text) PO_##name,
#include "ops.def"
#undef PTX_OP
	PO_COUNT
};

/* ins.mod: setp/testp's comparison, cvt's and float ops' rounding, an
 * atom's operation, a shfl's or vote's mode, mul/mad's half. */
enum ptx_cmp {
	PC_EQ, PC_NE, PC_LT, PC_LE, PC_GT, PC_GE, PC_LO, PC_LS, PC_HI, PC_HS,
	PC_EQU, PC_NEU, PC_LTU, PC_LEU, PC_GTU, PC_GEU, PC_NUM, PC_NAN
};
enum ptx_rnd { PR_NONE, PR_RN, PR_RZ, PR_RM, PR_RP, PR_RNI, PR_RZI, PR_RMI, PR_RPI };
enum ptx_atom { PA_ADD, PA_MIN, PA_MAX, PA_EXCH, PA_CAS, PA_AND, PA_OR, PA_XOR, PA_INC, PA_DEC };
enum ptx_mode { PM_UP, PM_DOWN, PM_BFLY, PM_IDX, PM_ALL, PM_ANY, PM_UNI, PM_BALLOT,
		PM_LO, PM_HI, PM_WIDE, PM_L, PM_R,
		PM_FINITE, PM_INFINITE, PM_NUMBER, PM_NOTANUMBER, PM_NORMAL, PM_SUBNORMAL };
enum ptx_bool { PB_NONE, PB_AND, PB_OR, PB_XOR };

/* The OpenCL work-item functions a call may name (clang lowers
 * get_global_id and its kin to calls of these). */
enum ptx_wi { PW_NONE, PW_GLOBAL_ID, PW_LOCAL_ID, PW_GROUP_ID, PW_LOCAL_SIZE,
	      PW_NUM_GROUPS, PW_GLOBAL_SIZE, PW_GLOBAL_OFFSET };

/* ins.flags */
#define PF_FTZ 1u
#define PF_SAT 2u
#define PF_APPROX 4u
#define PF_WRAP 8u   /* shf.wrap (else clamp) */
#define PF_FULL 16u  /* div.full */

/* Special registers. */
enum ptx_sreg { SR_TID, SR_NTID, SR_CTAID, SR_NCTAID, SR_LANEID, SR_WARPID,
		SR_NWARPID, SR_LANEMASK_EQ, SR_LANEMASK_LT, SR_LANEMASK_LE,
		SR_LANEMASK_GT, SR_LANEMASK_GE };

enum ptx_okind { OK_NONE, OK_REG, OK_IMM, OK_SREG, OK_ADDR, OK_SYM, OK_VEC, OK_LABEL };

/* An operand.  OK_REG: r[0] (neg: a predicate's '!'); r[1] the second
 * destination of setp p|q or shfl d|p, or PTX_NOREG.  OK_IMM: imm (fimm
 * when written 0f/0d).  OK_SREG: sreg, dim (0..2).  OK_ADDR: [base + off]
 * where base is a register r[0], a variable var, or neither (absolute).
 * OK_SYM: a variable's address.  OK_VEC: n registers r[0..n).
 * OK_LABEL: the instruction index imm. */
#define PTX_NOREG 0xffffffffu
#define PTX_NOVAR 0xffffffffu
typedef struct ptx_opnd {
	uint8_t kind, neg, n, fimm, sreg, dim;
	uint32_t r[4];
	uint32_t var;
	int64_t off;
	uint64_t imm;
} ptx_opnd;

typedef struct ptx_ins {
	uint16_t op;
	uint8_t type, stype;   /* cvt: destination and source types */
	uint8_t mod, flags, space, vec, boolop, nops;
	uint32_t guard;        /* predicate register, or PTX_NOREG */
	bool guard_neg;
	int line, col;
	ptx_opnd o[5];
} ptx_ins;

/* A variable: module scope (.global, .const, .shared) or a kernel's
 * (.shared, .local, .param of a call sequence).  addr is where the
 * reference places it in its space's window; init its initial bytes
 * (.global/.const, else zeros). */
typedef struct ptx_var {
	char *name;
	uint8_t space;
	uint32_t align, size;
	uint64_t addr;
	uint8_t *init;      /* size bytes, or NULL */
	int kernel;         /* -1 at module scope */
	int depth;          /* the scope it was declared in (0: module) */
	bool hidden;        /* its scope has closed */
} ptx_var;

typedef struct ptx_kparam {
	char *name;
	unsigned size, align;
	uint32_t offset;    /* in the kernel's parameter buffer */
	bool is_ptr, is_float;
} ptx_kparam;

/* A .reg declaration, for the names a debugger shows: %r<5> is name
 * "%r", count 5, registers base .. base+4 named %r0 .. %r4; a single
 * register has count 0. */
typedef struct ptx_regrange {
	char name[32];
	uint32_t base, count;
	uint8_t bits;
	char kind;          /* its declared type's letter: 'p'red, 'b', 'u', 's', 'f' */
} ptx_regrange;

typedef struct ptx_kernel {
	char *name;
	ptx_regrange *rr;   /* its .reg declarations, in order */
	size_t nrr;
	ptx_kparam *p;
	size_t np;
	uint32_t param_bytes;
	ptx_ins *ins;
	size_t nins;
	uint32_t nregs;
	uint8_t *regbits;   /* width of each register: 1 (pred), 16, 32, 64 */
	uint32_t shared_bytes, local_bytes;
	int line;
} ptx_kernel;

struct ptx_module {
	unsigned version_major, version_minor, sm, address_bits;
	ptx_kernel *k;
	size_t nk;
	ptx_var *v;
	size_t nv;
	uint32_t global_bytes, const_bytes;
	char *path;
};

/* Register r's name as its kernel declares it ("%rd3"), into buf; the
 * register a name means (the last declaration that names it), or
 * PTX_NOREG. */
void ptx_reg_name(const ptx_kernel *k, uint32_t r, char *buf, size_t size);
uint32_t ptx_reg_lookup(const ptx_kernel *k, const char *name);

/* ---- the lexer (lex.c) ---- */
enum ptx_tok { TK_EOF, TK_ID, TK_NUM, TK_FNUM, TK_PUNCT };
typedef struct ptx_tok_t {
	uint8_t kind;
	char punct;
	const char *s;      /* the token's text */
	size_t len;
	uint64_t num;       /* TK_NUM, TK_FNUM: the bits */
	int line, col;
} ptx_tok_t;

typedef struct ptx_lex {
	const char *path, *s;
	size_t len, pos;
	int line;
	size_t line_start;
	diag *d;
	ptx_tok_t t;        /* the current token */
} ptx_lex;

void ptx_lex_init(ptx_lex *x, const char *path, const char *s, size_t len, diag *d);
/* Advance to the next token into x->t; -1 with d set on a bad one. */
int ptx_lex_next(ptx_lex *x);
int ptx_err(ptx_lex *x, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
bool ptx_tok_is(const ptx_tok_t *t, const char *word);
bool ptx_tok_punct(const ptx_tok_t *t, char c);

/* ---- instructions (insn.c) ---- */
/* Decode an opcode word ("ld.global.v2.f32") into i (op, types and
 * modifiers).  0, or -1 with d set (the unsupported part named). */
int ptx_decode_opcode(ptx_lex *x, const ptx_tok_t *t, ptx_ins *i);
/* An op's mnemonic ("ld"). */
const char *ptx_op_name(unsigned op);

/* ---- the reference's arithmetic (ref_alu.c) ---- */
uint64_t ptx_alu_int(const ptx_ins *i, uint64_t a, uint64_t b, uint64_t c);
uint64_t ptx_alu_float(const ptx_ins *i, uint64_t a, uint64_t b, uint64_t c);
uint64_t ptx_alu_bfi(const ptx_ins *i, uint64_t f, uint64_t b, uint64_t c, uint64_t e);
bool ptx_alu_setp(const ptx_ins *i, uint64_t a, uint64_t b);
uint64_t ptx_alu_cvt(const ptx_ins *i, uint64_t a);
/* An f16 or f16x2 instruction (add sub mul fma neg abs min max):
 * IEEE binary16, correctly rounded, plain C (doc/PTX.md). */
uint64_t ptx_alu_half(const ptx_ins *i, uint64_t a, uint64_t b, uint64_t c);
/* An atomic's new memory value from the old one (*ret: what d gets). */
uint64_t ptx_alu_atom(const ptx_ins *i, uint64_t old, uint64_t b, uint64_t c);

#endif
