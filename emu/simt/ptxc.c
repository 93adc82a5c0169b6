/* SPDX-License-Identifier: MIT */
/*
 * ptxc.c: clang's PTX into SIMT bundles (ptxc.h; doc/SIMT.md,
 * "Translated PTX").  Four passes over a kernel:
 *
 *  1. blocks: leaders are the first instruction, every branch target
 *     and every instruction after a branch, ret or exit;
 *  2. liveness of the PTX registers over the blocks (a guarded
 *     definition keeps the old value for the threads it skips, so it
 *     reads it too);
 *  3. lowering: each PTX instruction becomes machine operations on
 *     values (PTX registers and temporaries): immediates of arithmetic
 *     are set into a register first, mul.wide and 64-bit products are
 *     built from 16- and 32-bit products (a 64-bit product needs more
 *     scratch wordlines than an array has), mul.hi likewise, 64-bit
 *     division is long division by 64-bit operations, popc/clz/brev are
 *     shift-and-mask sequences, unordered compares are the
 *     negation of ordered ones, ld.param reads the launch's parameter
 *     buffer, and so on;
 *  4. allocation and emission, a block at a time: every block starts
 *     with nothing in the arrays, a value is loaded from its home in the
 *     thread's local memory when first read, computed values stay in
 *     their unit, and at the end of the block the ones live after it go
 *     home.  An ALU operation runs on the array holding most of its
 *     sources (the others are copied there through the crossbar); the
 *     units from the one its micro-program's scratch starts at are
 *     emptied first (doc/SIMT.md, "Registers").  When an array is full
 *     the value touched longest ago goes home.  mapping=serial keeps
 *     every value in array 0 (the paper's one array per TB, §5.5).
 *
 * A block's operations then go into bundles (pack.c's list scheduler
 * when mapping is VLIW).  Threads of a CTA that branch apart run each
 * block on their own and meet again where the lowest PC takes them
 * all: the machine's min-PC issue (§3.3).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa.h"
#include "ptx_int.h"
#include "ptxc.h"
#include "simt_int.h"

#define NU SIMT_UNITS_MAX
#define NONE (-1)

typedef struct opr {
	uint8_t kind;     /* SIMT_O_NONE, REG (a value), IMM, SPECIAL */
	uint8_t half;     /* REG: 1 for the high unit of a 64-bit value */
	uint8_t sp;       /* SPECIAL: enum simt_special */
	int v;            /* REG: the value */
	uint64_t imm;
} opr;

/* One machine operation on values, before registers are chosen. */
typedef struct mop {
	simt_instr in;    /* opc, type, stype, cmp, space, addr64, off, line, col */
	int d;            /* the value written, NONE */
	uint8_t dhalf;    /* writes only d's high (1) or low (0) unit as 32 bits */
	bool dpart;
	opr a, b, c;
	int guard;        /* a predicate value, NONE */
	bool gneg;
	int pd;           /* setp/plog: the predicate written; selp: the one read */
	int pa, pb;       /* plog: predicates read */
	bool na, nb;      /* plog: read negated */
} mop;

typedef struct val {
	uint8_t bits;     /* 1 (a predicate), 16, 32, 64 */
	int home;         /* byte offset of its home in local memory, NONE */
	int8_t arr, unit; /* where it is now (unit or latch), -1 none */
	bool dirty;       /* newer there than at home */
	uint32_t touch;   /* the last operation that used it */
	uint32_t last;    /* its last use in the block */
} val;

typedef struct blk {
	uint32_t first, end;   /* PTX instructions [first, end) */
	uint64_t *in, *out;    /* live PTX registers */
	uint32_t bundle;       /* its first bundle */
} blk;

typedef struct fix { uint32_t bundle; uint32_t ins; } fix;

/* The instructions of the block being emitted, in order.  Beside each,
 * for the debugger's register map: the PTX register it puts somewhere
 * (ev, or NONE) and where (loc, a SIMT_LOC_* code), and the bundle the
 * scheduler gave it (at). */
typedef struct ilist { simt_instr *in; int *ev; uint16_t *loc; uint32_t *at; bool *def; size_t n, cap; } ilist;

typedef struct ts {
	const ptx_module *m;
	const ptx_kernel *k;
	const simt_ptx_layout *lay;
	simt_kernel *out;
	diag *d;
	val *v;
	size_t nv, capv;
	mop *mo;
	size_t nmo, capmo;
	blk *b;
	size_t nb;
	uint32_t *blk_of;      /* block of each instruction */
	size_t words;          /* bitset words of a register set */
	int owner[SIMT_ARRAYS][NU];
	int powner[SIMT_PREDS];
	uint32_t now;          /* the operation being emitted */
	uint32_t local_bytes;
	fix *fx;
	size_t nfx, capfx;
	const blk *cur;
	bool serial;
	unsigned narr;         /* arrays values may live in: all, or 1 (serial) */
	int line, col;         /* the PTX instruction being lowered */
	int32_t *cs;           /* per module variable: a call sequence's (below) */
	ilist L;               /* the block's instructions */
	unsigned plog_rr;      /* the array the next predicate logic goes to */
	size_t v_block;        /* the first value the block being emitted made */
} ts;

static int fail(ts *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(ts *s, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	diag_at(s->d, s->m->path, s->line, s->col, "kernel '%s': %s", s->k->name, buf);
	return -1;
}

static int oom(ts *s)
{
	return fail(s, "out of memory translating it");
}

/* ---- values and operations ---- */

static int new_val(ts *s, unsigned bits)
{
	if (s->nv == s->capv) {
		size_t cap = s->capv ? s->capv * 2 : 256;
		val *n = realloc(s->v, cap * sizeof *n);
		if (!n)
			return oom(s), NONE;
		s->v = n;
		s->capv = cap;
	}
	val *x = &s->v[s->nv];
	memset(x, 0, sizeof *x);
	x->bits = (uint8_t)bits;
	x->home = NONE;
	x->arr = x->unit = -1;
	return (int)s->nv++;
}

static mop *add_mop(ts *s, unsigned opc, unsigned type)
{
	if (s->nmo == s->capmo) {
		size_t cap = s->capmo ? s->capmo * 2 : 64;
		mop *n = realloc(s->mo, cap * sizeof *n);
		if (!n)
			return oom(s), NULL;
		s->mo = n;
		s->capmo = cap;
	}
	mop *o = &s->mo[s->nmo++];
	memset(o, 0, sizeof *o);
	o->in.opc = (uint8_t)opc;
	o->in.type = (uint8_t)type;
	o->in.guard = -1;
	o->in.line = s->line;
	o->in.col = s->col;
	o->d = o->guard = o->pd = o->pa = o->pb = NONE;
	return o;
}

static opr R(int v) { return (opr){ .kind = SIMT_O_REG, .v = v }; }
static opr RH(int v, unsigned h) { return (opr){ .kind = SIMT_O_REG, .v = v, .half = (uint8_t)h }; }
static opr IMM(uint64_t x) { return (opr){ .kind = SIMT_O_IMM, .imm = x, .v = NONE }; }

static unsigned bits_of_type(unsigned t)
{
	return simt_type_bits(t) < 16 ? 32 : simt_type_bits(t);
}

/* d := a op b (or a alone), the type's width. */
static int op3(ts *s, unsigned opc, unsigned type, int d, opr a, opr b, opr c)
{
	mop *o = add_mop(s, opc, type);
	if (!o)
		return -1;
	o->d = d;
	o->a = a;
	o->b = b;
	o->c = c;
	return 0;
}

static int op2(ts *s, unsigned opc, unsigned type, int d, opr a, opr b)
{
	return op3(s, opc, type, d, a, b, (opr){ 0 });
}

/* A register holding operand x (an immediate or special is set into a
 * new temporary of bits). */
static int in_reg(ts *s, opr *x, unsigned type)
{
	if (x->kind == SIMT_O_REG || x->kind == SIMT_O_NONE)
		return 0;
	int t = new_val(s, bits_of_type(type));
	if (t < 0)
		return -1;
	unsigned mt = x->kind == SIMT_O_SPECIAL ? SIMT_U32 : type;
	if (op2(s, SIMT_MOV, mt, t, *x, (opr){ 0 }) < 0)
		return -1;
	*x = R(t);
	return 0;
}

static int tmp(ts *s, unsigned bits)
{
	return new_val(s, bits);
}

/* ---- PTX operands ---- */

static int simt_type_of(ts *s, unsigned pt, unsigned *out)
{
	switch (pt) {
	case PT_B32: case PT_U32: *out = SIMT_U32; return 0;
	case PT_S32: *out = SIMT_S32; return 0;
	case PT_F32: *out = SIMT_F32; return 0;
	case PT_B64: case PT_U64: *out = SIMT_U64; return 0;
	case PT_S64: *out = SIMT_S64; return 0;
	case PT_B16: case PT_U16: *out = SIMT_U16; return 0;
	case PT_S16: *out = SIMT_S16; return 0;
	case PT_B8: case PT_U8: *out = SIMT_U8; return 0;
	case PT_S8: *out = SIMT_S8; return 0;
	case PT_F16: *out = SIMT_F16; return 0;
	case PT_F16X2: *out = SIMT_U32; return 0; /* two halves: lower_half */
	default:
		return fail(s, "the type .%s does not run on the SIMT machine's bitlines yet (they hold 8- to 64-bit integers, f16 and f32)",
			    pt == PT_F64 ? "f64" : "pred");
	}
}

static int special_of(ts *s, const ptx_opnd *o, opr *x)
{
	static const uint8_t map[4][3] = {
		{ SIMT_TID, SIMT_TID_Y, SIMT_TID_Z }, { SIMT_NTID, SIMT_NTID_Y, SIMT_NTID_Z },
		{ SIMT_CTAID, SIMT_CTAID_Y, SIMT_CTAID_Z }, { SIMT_NCTAID, SIMT_NCTAID_Y, SIMT_NCTAID_Z },
	};
	*x = (opr){ .kind = SIMT_O_SPECIAL, .v = NONE };
	if (o->sreg <= SR_NCTAID && o->dim < 3) {
		x->sp = map[o->sreg][o->dim];
		return 0;
	}
	if (o->sreg == SR_LANEID) {
		x->sp = SIMT_LANEID;
		return 0;
	}
	return fail(s, "this special register is not one the SIMT machine keeps (it has %%tid, %%ntid, %%ctaid, %%nctaid and %%laneid)");
}

/* A variable's address as the machine sees it: .global/.const at the
 * layout's bases, .shared as an offset in the CTA's window. */
static int var_addr(ts *s, uint32_t var, uint64_t *a)
{
	const ptx_var *v = &s->m->v[var];
	switch (v->space) {
	case PS_GLOBAL: *a = s->lay->global_base + (v->addr - PTX_WIN_GLOBALS); return 0;
	case PS_CONST: *a = s->lay->const_base + (v->addr - PTX_WIN_CONST); return 0;
	case PS_SHARED: *a = v->addr - PTX_WIN_SHARED; return 0;
	default:
		return fail(s, "'%s' is in .local or .param space, which a translated kernel does not address (the machine keeps a thread's registers there)",
			    v->name);
	}
}

static int src(ts *s, const ptx_opnd *o, opr *x)
{
	switch (o->kind) {
	case OK_REG:
		*x = R((int)o->r[0]);
		return 0;
	case OK_IMM:
		*x = IMM(o->imm);
		return 0;
	case OK_SREG:
		return special_of(s, o, x);
	case OK_SYM: {
		uint64_t a;
		if (var_addr(s, o->var, &a) < 0)
			return -1;
		*x = IMM(a);
		return 0;
	}
	default:
		return fail(s, "an operand of this form is not translated");
	}
}

/* ---- lowering ---- */


/* d (64 bits) := zext/sext of a 32-bit value a. */
static int widen32(ts *s, int d, opr a, bool sgn)
{
	return op2(s, SIMT_CVT, sgn ? SIMT_S64 : SIMT_U64, d, a, (opr){ 0 }) < 0 ? -1 : 0;
}

/* The mop just added: set its source type (cvt). */
static void last_stype(ts *s, unsigned st)
{
	s->mo[s->nmo - 1].in.stype = (uint8_t)st;
}

static int is_pow2(uint64_t x) { return x && !(x & (x - 1)); }
static unsigned log2u(uint64_t x) { unsigned n = 0; while (x > 1) x >>= 1, n++; return n; }

/* d (64) := a * b, both 32-bit unsigned, from four 16x16 products (each
 * exact in 32 bits): a 64-bit product on one array needs 128 scratch
 * wordlines beside three 64-bit registers, more than an array has. */
static int mul_wide_u32(ts *s, int d, opr a, opr b)
{
	if (in_reg(s, &a, SIMT_U32) < 0 || in_reg(s, &b, SIMT_U32) < 0)
		return -1;
	int al = tmp(s, 32), ah = tmp(s, 32), bl = tmp(s, 32), bh = tmp(s, 32), m16 = tmp(s, 32);
	int ll = tmp(s, 32), lh = tmp(s, 32), hl = tmp(s, 32), hh = tmp(s, 32);
	int w0 = tmp(s, 64), w1 = tmp(s, 64), w2 = tmp(s, 64), w3 = tmp(s, 64), acc = tmp(s, 64), acc2 = tmp(s, 64);
	if (acc2 < 0)
		return -1;
	int rc = op2(s, SIMT_MOV, SIMT_U32, m16, IMM(0xffff), (opr){ 0 }) |
		op2(s, SIMT_AND, SIMT_U32, al, a, R(m16)) | op2(s, SIMT_SHR, SIMT_U32, ah, a, IMM(16)) |
		op2(s, SIMT_AND, SIMT_U32, bl, b, R(m16)) | op2(s, SIMT_SHR, SIMT_U32, bh, b, IMM(16)) |
		op2(s, SIMT_MUL, SIMT_U32, ll, R(al), R(bl)) | op2(s, SIMT_MUL, SIMT_U32, lh, R(al), R(bh)) |
		op2(s, SIMT_MUL, SIMT_U32, hl, R(ah), R(bl)) | op2(s, SIMT_MUL, SIMT_U32, hh, R(ah), R(bh));
	if (rc)
		return -1;
	/* ll + (lh << 16) + (hl << 16) + (hh << 32) */
	if (widen32(s, w0, R(ll), false) < 0) return -1;
	last_stype(s, SIMT_U32);
	if (widen32(s, w1, R(lh), false) < 0) return -1;
	last_stype(s, SIMT_U32);
	if (widen32(s, w2, R(hl), false) < 0) return -1;
	last_stype(s, SIMT_U32);
	if (widen32(s, w3, R(hh), false) < 0) return -1;
	last_stype(s, SIMT_U32);
	int s1 = tmp(s, 64), s2 = tmp(s, 64), s3 = tmp(s, 64);
	if (s3 < 0)
		return -1;
	rc = op2(s, SIMT_SHL, SIMT_U64, s1, R(w1), IMM(16)) | op2(s, SIMT_SHL, SIMT_U64, s2, R(w2), IMM(16)) |
		op2(s, SIMT_SHL, SIMT_U64, s3, R(w3), IMM(32)) | op2(s, SIMT_ADD, SIMT_U64, acc, R(w0), R(s1)) |
		op2(s, SIMT_ADD, SIMT_U64, acc2, R(acc), R(s2)) | op2(s, SIMT_ADD, SIMT_U64, d, R(acc2), R(s3));
	return rc ? -1 : 0;
}

/* d (64) := a * b signed 32-bit: the unsigned product less b << 32 when
 * a < 0 and a << 32 when b < 0 (mod 2^64). */
static int mul_wide_s32(ts *s, int d, opr a, opr b)
{
	if (in_reg(s, &a, SIMT_S32) < 0 || in_reg(s, &b, SIMT_S32) < 0)
		return -1;
	int u = tmp(s, 64), sa = tmp(s, 32), sb = tmp(s, 32), ta = tmp(s, 32), tb = tmp(s, 32);
	int fa = tmp(s, 64), fb = tmp(s, 64), x = tmp(s, 64), ga = tmp(s, 64), gb = tmp(s, 64);
	if (gb < 0 || mul_wide_u32(s, u, a, b) < 0)
		return -1;
	/* sa = a >> 31 (all ones when negative); ta = b & sa */
	int rc = op2(s, SIMT_SHR, SIMT_S32, sa, a, IMM(31)) | op2(s, SIMT_SHR, SIMT_S32, sb, b, IMM(31)) |
		op2(s, SIMT_AND, SIMT_U32, ta, b, R(sa)) | op2(s, SIMT_AND, SIMT_U32, tb, a, R(sb));
	if (rc || widen32(s, fa, R(ta), false) < 0)
		return -1;
	last_stype(s, SIMT_U32);
	if (widen32(s, fb, R(tb), false) < 0)
		return -1;
	last_stype(s, SIMT_U32);
	rc = op2(s, SIMT_SHL, SIMT_U64, ga, R(fa), IMM(32)) | op2(s, SIMT_SHL, SIMT_U64, gb, R(fb), IMM(32)) |
		op2(s, SIMT_SUB, SIMT_U64, x, R(u), R(ga)) | op2(s, SIMT_SUB, SIMT_U64, d, R(x), R(gb));
	return rc ? -1 : 0;
}

/* d (64) := low 64 bits of a * b (64-bit): lo*lo wide, plus the cross
 * products' low 32 bits shifted up. */
static int mul_lo_64(ts *s, int d, opr a, opr b)
{
	if (in_reg(s, &a, SIMT_U64) < 0 || in_reg(s, &b, SIMT_U64) < 0)
		return -1;
	int w = tmp(s, 64), c1 = tmp(s, 32), c2 = tmp(s, 32), c = tmp(s, 32), cw = tmp(s, 64), cs = tmp(s, 64);
	int alo = tmp(s, 32), blo = tmp(s, 32), ahi = tmp(s, 32), bhi = tmp(s, 32);
	if (bhi < 0)
		return -1;
	int rc = op2(s, SIMT_MOV, SIMT_U32, alo, RH(a.v, 0), (opr){ 0 }) |
		op2(s, SIMT_MOV, SIMT_U32, ahi, RH(a.v, 1), (opr){ 0 }) |
		op2(s, SIMT_MOV, SIMT_U32, blo, RH(b.v, 0), (opr){ 0 }) |
		op2(s, SIMT_MOV, SIMT_U32, bhi, RH(b.v, 1), (opr){ 0 });
	if (rc || mul_wide_u32(s, w, R(alo), R(blo)) < 0)
		return -1;
	rc = op2(s, SIMT_MUL, SIMT_U32, c1, R(alo), R(bhi)) | op2(s, SIMT_MUL, SIMT_U32, c2, R(ahi), R(blo)) |
		op2(s, SIMT_ADD, SIMT_U32, c, R(c1), R(c2));
	if (rc || widen32(s, cw, R(c), false) < 0)
		return -1;
	last_stype(s, SIMT_U32);
	rc = op2(s, SIMT_SHL, SIMT_U64, cs, R(cw), IMM(32)) | op2(s, SIMT_ADD, SIMT_U64, d, R(w), R(cs));
	return rc ? -1 : 0;
}

static int plog(ts *s, unsigned op, int p, int a, bool na, int b, bool nb)
{
	mop *o = add_mop(s, SIMT_PLOG, SIMT_U32);
	if (!o)
		return -1;
	o->in.cmp = (uint8_t)op;
	o->pd = p;
	o->pa = a;
	o->na = na;
	o->pb = b;
	o->nb = nb;
	return 0;
}

/* A compare into predicate p: the machine's six ordered ones, the
 * unordered ones as the negation of the opposite, num/nan from a == a. */
static int setp(ts *s, int p, unsigned cmp, unsigned type, opr a, opr b)
{
	if (in_reg(s, &a, type) < 0 || in_reg(s, &b, type) < 0)
		return -1;
	bool fl = type == SIMT_F32 || type == SIMT_F16;
	unsigned c = 0, ut = type;
	bool neg = false;
	switch (cmp) {
	case PC_EQ: c = SIMT_EQ; break;
	case PC_NE:
		if (fl) { /* ordered: a < b or a > b */
			int q = new_val(s, 1), r = new_val(s, 1);
			if (r < 0 || setp(s, q, PC_LT, type, a, b) < 0 || setp(s, r, PC_GT, type, a, b) < 0)
				return -1;
			return plog(s, SIMT_PLOG_OR, p, q, false, r, false);
		}
		c = SIMT_NE;
		break;
	case PC_LT: c = SIMT_LT; break;
	case PC_LE: c = SIMT_LE; break;
	case PC_GT: c = SIMT_GT; break;
	case PC_GE: c = SIMT_GE; break;
	case PC_LO: case PC_LS: case PC_HI: case PC_HS: /* unsigned, at the width */
		c = cmp == PC_LO ? SIMT_LT : cmp == PC_LS ? SIMT_LE : cmp == PC_HI ? SIMT_GT : SIMT_GE;
		ut = bits_of_type(type) == 64 ? SIMT_U64 : bits_of_type(type) == 16 ? SIMT_U16 : SIMT_U32;
		break;
	case PC_EQU: { /* !(a < b or a > b) */
		int q = new_val(s, 1);
		if (q < 0 || setp(s, q, PC_NE, type, a, b) < 0)
			return -1;
		return plog(s, SIMT_PLOG_MOV, p, q, true, NONE, false);
	}
	case PC_NEU: c = SIMT_NE; break; /* the machine's f32 ne is true on NaN */
	case PC_LTU: c = SIMT_GE; neg = true; break;
	case PC_LEU: c = SIMT_GT; neg = true; break;
	case PC_GTU: c = SIMT_LE; neg = true; break;
	case PC_GEU: c = SIMT_LT; neg = true; break;
	case PC_NUM: case PC_NAN: { /* a == a and b == b */
		int q = new_val(s, 1), r = new_val(s, 1);
		if (r < 0 || setp(s, q, PC_EQ, type, a, a) < 0 || setp(s, r, PC_EQ, type, b, b) < 0)
			return -1;
		if (cmp == PC_NAN) /* !(q and r) = !q or !r */
			return plog(s, SIMT_PLOG_OR, p, q, true, r, true);
		return plog(s, SIMT_PLOG_AND, p, q, false, r, false);
	}
	default:
		return fail(s, "this comparison is not translated");
	}
	int q = neg ? new_val(s, 1) : p;
	mop *o = add_mop(s, SIMT_SETP, ut);
	if (q < 0 || !o)
		return -1;
	o->in.cmp = (uint8_t)c;
	o->pd = q;
	o->a = a;
	o->b = b;
	if (!neg)
		return 0;
	return plog(s, SIMT_PLOG_MOV, p, q, true, NONE, false);
}


/* A predicate operand of selp/setp's combination (a register, or a
 * constant 1/0 made by comparing a zero with itself). */
static int pred_src(ts *s, const ptx_opnd *o, int *p, bool *neg)
{
	if (o->kind == OK_REG) {
		*p = (int)o->r[0];
		*neg = o->neg;
		return 0;
	}
	if (o->kind != OK_IMM)
		return fail(s, "a predicate operand is a register or 0/1");
	int z = tmp(s, 32), q = new_val(s, 1);
	if (q < 0 || op2(s, SIMT_MOV, SIMT_U32, z, IMM(0), (opr){ 0 }) < 0 ||
	    setp(s, q, PC_EQ, SIMT_U32, R(z), R(z)) < 0)
		return -1;
	*p = q;
	*neg = o->imm == 0;
	return 0;
}

/* An address operand [base + off]: the machine's a and off. */
static int address(ts *s, mop *o, const ptx_ins *in, const ptx_opnd *x)
{
	o->in.off = (int32_t)x->off;
	if (x->off < INT32_MIN || x->off > INT32_MAX)
		return fail(s, "an address offset of %lld does not fit the machine's 32-bit offset", (long long)x->off);
	if (x->r[0] != PTX_NOREG) {
		o->a = R((int)x->r[0]);
		o->in.addr64 = s->k->regbits[x->r[0]] == 64;
		return 0;
	}
	if (x->var != PTX_NOVAR) {
		uint64_t a;
		if (var_addr(s, x->var, &a) < 0)
			return -1;
		o->a = IMM(a);
		return 0;
	}
	(void)in;
	o->a = IMM(0);
	return 0;
}

static int space_of(ts *s, unsigned sp, uint8_t *out)
{
	switch (sp) {
	case PS_GENERIC: case PS_GLOBAL: case PS_CONST: *out = SIMT_SPACE_GLOBAL; return 0;
	case PS_SHARED: *out = SIMT_SPACE_SHARED; return 0;
	case PS_PARAM: *out = SIMT_SPACE_PARAM; return 0;
	default:
		return fail(s, "a .local access is not translated (the machine keeps each thread's registers in its local memory)");
	}
}

/* ---- OpenCL's work-item functions ----
 * clang calls get_global_id and its kin through a call sequence: st.param
 * of the dimension into an argument .param, the call, ld.param of the
 * return .param.  s->cs[var] holds, for an argument, the dimension + 1;
 * for a return value, the function (ptx_wi) << 8 | the dimension.  The
 * dimension is a constant in every sequence clang writes: an immediate,
 * or a register a mov of an immediate set earlier in the block.  The
 * ld.param computes the value from the special registers. */
static int cs_const(ts *s, uint32_t idx, const ptx_opnd *x, int64_t *out)
{
	if (x->kind == OK_IMM) {
		*out = (int64_t)x->imm;
		return 0;
	}
	if (x->kind == OK_REG)
		for (uint32_t j = idx; j-- > 0 && s->blk_of[j] == s->blk_of[idx];) {
			const ptx_ins *p = &s->k->ins[j];
			if (p->nops == 0 || p->o[0].kind != OK_REG || p->o[0].r[0] != x->r[0] ||
			    p->op == PO_ST || p->op == PO_RED || p->op == PO_BRA)
				continue;
			if (p->op == PO_MOV && p->nops == 2 && p->o[1].kind == OK_IMM && p->guard == PTX_NOREG) {
				*out = (int64_t)p->o[1].imm;
				return 0;
			}
			break;
		}
	return fail(s, "a work-item function's dimension must be a constant (a mov of an immediate in its block)");
}

static opr special(unsigned sp)
{
	opr x = { .kind = SIMT_O_SPECIAL, .v = NONE };
	x.sp = (uint8_t)sp;
	return x;
}

/* d := the work-item function wi of dimension dim, 32 or 64 bits. */
static int work_item(ts *s, int d, unsigned wi, int64_t dim)
{
	static const uint8_t sp[4][3] = {
		{ SIMT_TID, SIMT_TID_Y, SIMT_TID_Z }, { SIMT_NTID, SIMT_NTID_Y, SIMT_NTID_Z },
		{ SIMT_CTAID, SIMT_CTAID_Y, SIMT_CTAID_Z }, { SIMT_NCTAID, SIMT_NCTAID_Y, SIMT_NCTAID_Z },
	};
	bool wide = s->v[d].bits == 64;
	int g = wide ? tmp(s, 32) : d;
	if (g < 0)
		return -1;
	int rc;
	if (dim < 0 || dim > 2) {
		/* OpenCL: size 1 and id 0 beyond the work's dimensions */
		bool one = wi == PW_LOCAL_SIZE || wi == PW_NUM_GROUPS || wi == PW_GLOBAL_SIZE;
		rc = op2(s, SIMT_MOV, SIMT_U32, g, IMM(one), (opr){ 0 });
	} else if (wi == PW_GLOBAL_ID || wi == PW_GLOBAL_SIZE) {
		opr x = special(sp[wi == PW_GLOBAL_ID ? 2 : 3][dim]), n = special(sp[1][dim]);
		int m = tmp(s, 32);
		if (m < 0 || in_reg(s, &x, SIMT_U32) < 0 || in_reg(s, &n, SIMT_U32) < 0)
			return -1;
		if (wi == PW_GLOBAL_SIZE) {
			rc = op2(s, SIMT_MUL, SIMT_U32, g, x, n);
		} else {
			opr t = special(sp[0][dim]);
			rc = op2(s, SIMT_MUL, SIMT_U32, m, x, n) < 0 || in_reg(s, &t, SIMT_U32) < 0 ||
			     op2(s, SIMT_ADD, SIMT_U32, g, R(m), t) < 0 ? -1 : 0;
		}
	} else if (wi == PW_GLOBAL_OFFSET) {
		rc = op2(s, SIMT_MOV, SIMT_U32, g, IMM(0), (opr){ 0 });
	} else {
		unsigned row = wi == PW_LOCAL_ID ? 0 : wi == PW_LOCAL_SIZE ? 1 : wi == PW_GROUP_ID ? 2 : 3;
		rc = op2(s, SIMT_MOV, SIMT_U32, g, special(sp[row][dim]), (opr){ 0 });
	}
	if (rc < 0 || !wide)
		return rc;
	if (op2(s, SIMT_CVT, SIMT_U64, d, R(g), (opr){ 0 }) < 0)
		return -1;
	last_stype(s, SIMT_U32);
	return 0;
}

/* st.param / ld.param of a call sequence's .param, and the call. */
static int call_param(ts *s, const ptx_ins *in, uint32_t idx)
{
	if (in->op == PO_ST) {
		int64_t dim = 0;
		if (in->o[0].off != 0 || cs_const(s, idx, &in->o[1], &dim) < 0)
			return in->o[0].off != 0 ? fail(s, "a work-item function's argument at an offset") : -1;
		s->cs[in->o[0].var] = (int32_t)(dim < 0 || dim > 2 ? 3 : dim) + 1;
		return 0;
	}
	int32_t f = s->cs[in->o[1].var];
	if (f <= 0 || in->o[1].off != 0 || in->o[0].kind != OK_REG)
		return fail(s, "ld.param of a call sequence's .param before its call is not translated");
	return work_item(s, (int)in->o[0].r[0], (unsigned)f >> 8, (int64_t)(f & 0xff));
}

static int lower_call(ts *s, const ptx_ins *in)
{
	int32_t dim = s->cs[in->o[1].var];
	if (dim <= 0)
		return fail(s, "the work-item function's dimension is not stored before the call");
	s->cs[in->o[0].var] = (int32_t)in->mod << 8 | (dim - 1);
	return 0;
}

static int lower_ldst(ts *s, const ptx_ins *in, uint32_t idx)
{
	bool st = in->op == PO_ST;
	const ptx_opnd *a = &in->o[st ? 0 : 1], *v = &in->o[st ? 1 : 0];
	unsigned ty;
	if (simt_type_of(s, in->type, &ty) < 0)
		return -1;
	if (ty == SIMT_F16) /* bits in memory */
		ty = SIMT_U16;
	uint8_t space = 0;
	if (space_of(s, in->space, &space) < 0)
		return -1;
	if (space == SIMT_SPACE_PARAM && a->var != PTX_NOVAR && in->vec <= 1)
		return call_param(s, in, idx);
	unsigned n = ptx_type_bits(in->type) / 8;
	for (unsigned e = 0; e < in->vec; e++) {
		opr x = { 0 };
		if (st) {
			if (v->kind == OK_VEC)
				x = R((int)v->r[e]);
			else if (src(s, v, &x) < 0)
				return -1;
			if (in_reg(s, &x, ty) < 0)
				return -1;
		}
		mop *o = add_mop(s, st ? SIMT_ST : SIMT_LD, ty);
		if (!o)
			return -1;
		o->in.space = space;
		if (space == SIMT_SPACE_PARAM) {
			if (a->var != PTX_NOVAR)
				return fail(s, "ld.param of a call's parameter is not translated");
			o->a = IMM(s->k->p[a->imm - 1].offset);
			o->in.off = (int32_t)(a->off + (int64_t)e * n);
		} else {
			if (address(s, o, in, a) < 0)
				return -1;
			o->in.off += (int32_t)(e * n);
		}
		if (st) {
			o->b = x;
			continue;
		}
		int dv = (int)(v->kind == OK_VEC ? v->r[e] : v->r[0]);
		o->d = dv;
		if (s->v[dv].bits != 64 || n == 8)
			continue;
		/* ld.s32 (or narrower) into a 64-bit register: PTX extends the
		 * value to the register's width; the load fills one unit */
		int t = tmp(s, 32);
		if (t < 0)
			return -1;
		o->d = t;
		bool sg = simt_type_signed(ty);
		if (op2(s, SIMT_CVT, sg ? SIMT_S64 : SIMT_U64, dv, R(t), (opr){ 0 }) < 0)
			return -1;
		last_stype(s, sg ? SIMT_S32 : SIMT_U32);
	}
	return 0;
}

static int flush_to(ts *s, bool h, opr x, int d, opr *out);
static int lower_cvt_half(ts *s, unsigned dt, unsigned st, int d, opr a);
static int nan_or(ts *s, int d, opr a, opr x);

static int lower_cvt(ts *s, const ptx_ins *in, int d, opr a)
{
	unsigned dt, st;
	if (in->flags & PF_SAT)
		return fail(s, "cvt.sat is not translated");
	if (simt_type_of(s, in->type, &dt) < 0 || simt_type_of(s, in->stype, &st) < 0)
		return -1;
	if (dt == SIMT_F16 || st == SIMT_F16)
		return lower_cvt_half(s, dt, st, d, a);
	bool dfl = dt == SIMT_F32, sfl = st == SIMT_F32;
	if (dfl && sfl && (in->flags & PF_FTZ) && in->mod < PR_RNI) {
		int t = tmp(s, 32);
		if (t < 0 || in_reg(s, &a, SIMT_F32) < 0 || flush_to(s, false, a, t, NULL) < 0)
			return -1;
		return nan_or(s, d, R(t), R(t)); /* the reference's NaN */
	}
	if (dfl && sfl && in->mod >= PR_RNI)
		return fail(s, "cvt.rni/.rzi/.rmi/.rpi.f32.f32 (to an integral value) is not translated");
	if (dfl && sfl)
		return op2(s, SIMT_MOV, SIMT_U32, d, a, (opr){ 0 });
	if (dfl && in->mod != PR_RN && in->mod != PR_NONE)
		return fail(s, "cvt to f32 rounds to nearest even on the machine: .rz, .rm and .rp are not translated");
	if (sfl && !dfl) {
		if (in->mod != PR_RZI)
			return fail(s, "cvt from f32 to an integer truncates on the machine (.rzi): .rni, .rmi and .rpi are not translated");
		/* The machine gives the largest integer for NaN; PTX gives 0. */
		if (in_reg(s, &a, SIMT_F32) < 0)
			return -1;
		int c = tmp(s, bits_of_type(dt)), z = tmp(s, bits_of_type(dt)), nan = new_val(s, 1);
		if (nan < 0 || op2(s, SIMT_CVT, dt, c, a, (opr){ 0 }) < 0)
			return -1;
		last_stype(s, st);
		if (setp(s, nan, PC_NAN, SIMT_F32, a, a) < 0 ||
		    op2(s, SIMT_MOV, dt, z, IMM(0), (opr){ 0 }) < 0)
			return -1;
		mop *o = add_mop(s, SIMT_SELP, dt);
		if (!o)
			return -1;
		o->d = d;
		o->a = R(z);
		o->b = R(c);
		o->pd = nan;
		return 0;
	}
	if (in_reg(s, &a, st) < 0 || op2(s, SIMT_CVT, dt, d, a, (opr){ 0 }) < 0)
		return -1;
	last_stype(s, st);
	return 0;
}

/* ---- the .approx transcendentals (doc/PTX.md, "The .approx functions") ----
 * Each is a fixed sequence of the machine's f32 operations around one of
 * isa/'s CORDIC commands on .q32 (3 integer bits, 29 fraction bits) with
 * PTX_CORDIC_ITERS iterations; the PTX reference computes the same
 * sequence with isa/'s scalar references, so the results are defined to
 * the bit. */
static int fimm(ts *s, opr *x, uint32_t bits, unsigned type)
{
	*x = IMM(bits);
	return in_reg(s, x, type);
}

/* *out := a new temporary holding op(a, b) (c for fma) of type. */
static int t3(ts *s, unsigned opc, unsigned type, opr a, opr b, opr c, opr *out)
{
	int t = tmp(s, 32);
	if (t < 0 || op3(s, opc, type, t, a, b, c) < 0)
		return -1;
	*out = R(t);
	return 0;
}

static int t2(ts *s, unsigned opc, unsigned type, opr a, opr b, opr *out)
{
	return t3(s, opc, type, a, b, (opr){ 0 }, out);
}

/* rint(a) for |a| < 2^22: (a + 1.5 2^23) - 1.5 2^23. */
static int frint(ts *s, opr a, opr *out)
{
	opr m, t;
	if (fimm(s, &m, 0x4b400000u, SIMT_F32) < 0 || t2(s, SIMT_ADD, SIMT_F32, a, m, &t) < 0)
		return -1;
	return t2(s, SIMT_SUB, SIMT_F32, t, m, out);
}

/* *out := f32(CORDIC opc of q32(x)). */
static int cordic(ts *s, unsigned opc, opr x, opr *out)
{
	opr q, r;
	if (t2(s, SIMT_CVT, SIMT_Q32, x, (opr){ 0 }, &q) < 0)
		return -1;
	last_stype(s, SIMT_F32);
	if (t2(s, opc, SIMT_Q32, q, (opr){ 0 }, &r) < 0 || t2(s, SIMT_CVT, SIMT_F32, r, (opr){ 0 }, out) < 0)
		return -1;
	last_stype(s, SIMT_Q32);
	return 0;
}

/* d := p ? bits : x (f32); d NONE: into a new temporary *out. */
static int fsel(ts *s, int d, int p, uint32_t bits, opr x, opr *out)
{
	opr k;
	if (fimm(s, &k, bits, SIMT_F32) < 0)
		return -1;
	if (d == NONE && (d = tmp(s, 32)) < 0)
		return -1;
	mop *o = add_mop(s, SIMT_SELP, SIMT_F32);
	if (!o)
		return -1;
	o->d = d, o->a = k, o->b = x, o->pd = p;
	if (out)
		*out = R(d);
	return 0;
}

/* d := the canonical NaN where a is a NaN, else x. */
static int nan_or(ts *s, int d, opr a, opr x)
{
	int p = new_val(s, 1);
	if (p < 0 || setp(s, p, PC_NAN, SIMT_F32, a, a) < 0)
		return -1;
	return fsel(s, d, p, 0x7fffffffu, x, NULL);
}

/* sin, cos: r = a - 2 pi rint(a / 2 pi) (Cody-Waite, two fused steps),
 * then the q32 CORDIC (its own reflection covers [-pi, pi]). */
static int lower_sincos(ts *s, int d, opr a, bool cosine)
{
	opr inv, hi, lo, k, n, r1, r, v;
	if (fimm(s, &inv, 0x3e22f983u, SIMT_F32) < 0 ||  /* 1 / 2 pi */
	    t2(s, SIMT_MUL, SIMT_F32, a, inv, &k) < 0 || frint(s, k, &n) < 0 ||
	    fimm(s, &hi, 0xc0c90fdbu, SIMT_F32) < 0 ||   /* -2 pi, rounded */
	    t3(s, SIMT_FMA, SIMT_F32, n, hi, a, &r1) < 0 ||
	    fimm(s, &lo, 0x343bbd2eu, SIMT_F32) < 0 ||   /* -(2 pi - its rounding) */
	    t3(s, SIMT_FMA, SIMT_F32, n, lo, r1, &r) < 0 ||
	    cordic(s, cosine ? SIMT_COS : SIMT_SIN, r, &v) < 0)
		return -1;
	return nan_or(s, d, r, v);
}

/* 2^a: c = a clamped to [-250, 250], n = rint(c), 2^(c - n) = e^((c - n)
 * ln 2) by the CORDIC (|argument| <= 0.35), then scaled by 2^n in two
 * exact steps 2^(n >> 1) and 2^(n - (n >> 1)), built as f32 bits, so that
 * only the last can round (a subnormal result). */
static int lower_ex2(ts *s, int d, opr a)
{
	opr hi, lo, c1, c, n, f, ln2, y, e, ni, n1, n2, k, b1, b2, t, u, sh;
	if (fimm(s, &hi, 0x437a0000u, SIMT_F32) < 0 || fimm(s, &lo, 0xc37a0000u, SIMT_F32) < 0 ||
	    t2(s, SIMT_MIN, SIMT_F32, a, hi, &c1) < 0 || t2(s, SIMT_MAX, SIMT_F32, c1, lo, &c) < 0 ||
	    frint(s, c, &n) < 0 || t2(s, SIMT_SUB, SIMT_F32, c, n, &f) < 0 ||
	    fimm(s, &ln2, 0x3f317218u, SIMT_F32) < 0 || t2(s, SIMT_MUL, SIMT_F32, f, ln2, &y) < 0 ||
	    cordic(s, SIMT_EXP, y, &e) < 0 || t2(s, SIMT_CVT, SIMT_S32, n, (opr){ 0 }, &ni) < 0)
		return -1;
	last_stype(s, SIMT_F32);
	if (t2(s, SIMT_SHR, SIMT_S32, ni, IMM(1), &n1) < 0 || t2(s, SIMT_SUB, SIMT_S32, ni, n1, &n2) < 0 ||
	    fimm(s, &k, 127, SIMT_S32) < 0 || t2(s, SIMT_ADD, SIMT_S32, n1, k, &b1) < 0 ||
	    t2(s, SIMT_ADD, SIMT_S32, n2, k, &b2) < 0 ||
	    t2(s, SIMT_SHL, SIMT_U32, b1, IMM(23), &sh) < 0 || t2(s, SIMT_MUL, SIMT_F32, e, sh, &t) < 0 ||
	    t2(s, SIMT_SHL, SIMT_U32, b2, IMM(23), &sh) < 0 || t2(s, SIMT_MUL, SIMT_F32, t, sh, &u) < 0)
		return -1;
	return nan_or(s, d, a, u);
}

/* *out := p ? x : y, of type. */
static int sel(ts *s, unsigned type, int p, opr x, opr y, opr *out)
{
	int d = tmp(s, 32);
	if (d < 0 || in_reg(s, &x, type) < 0 || in_reg(s, &y, type) < 0)
		return -1;
	mop *o = add_mop(s, SIMT_SELP, type);
	if (!o)
		return -1;
	o->d = d, o->a = x, o->b = y, o->pd = p;
	*out = R(d);
	return 0;
}

/* log2 a = e + ln(m) log2(e) with a = m 2^e, m in [1, 2) (a subnormal
 * scaled by 2^23 first), ln m by the CORDIC; then the specials: +0 and
 * -0 give -inf, a negative NaN, +inf +inf. */
static int lower_lg2(ts *s, int d, opr a)
{
	opr tiny, big, sc, a2, eb, eraw, e, ef, mm, one, m, l, log2e, r, x1, x2, x3, zero, inf;
	int psub = new_val(s, 1), pz = new_val(s, 1), pn = new_val(s, 1), pi = new_val(s, 1);
	if (pi < 0 || in_reg(s, &a, SIMT_F32) < 0 ||
	    fimm(s, &tiny, 0x00800000u, SIMT_F32) < 0 || setp(s, psub, PC_LT, SIMT_F32, a, tiny) < 0 ||
	    fimm(s, &big, 0x4b000000u, SIMT_F32) < 0 ||  /* 2^23 */
	    t2(s, SIMT_MUL, SIMT_F32, a, big, &sc) < 0 || sel(s, SIMT_F32, psub, sc, a, &a2) < 0 ||
	    sel(s, SIMT_S32, psub, IMM(150), IMM(127), &eb) < 0 ||
	    t2(s, SIMT_SHR, SIMT_U32, a2, IMM(23), &eraw) < 0 ||
	    t2(s, SIMT_SUB, SIMT_S32, eraw, eb, &e) < 0 ||
	    t2(s, SIMT_CVT, SIMT_F32, e, (opr){ 0 }, &ef) < 0)
		return -1;
	last_stype(s, SIMT_S32);
	if (fimm(s, &mm, 0x007fffffu, SIMT_U32) < 0 || t2(s, SIMT_AND, SIMT_U32, a2, mm, &m) < 0 ||
	    fimm(s, &one, 0x3f800000u, SIMT_U32) < 0 || t2(s, SIMT_OR, SIMT_U32, m, one, &m) < 0 ||
	    cordic(s, SIMT_LOG, m, &l) < 0 || fimm(s, &log2e, 0x3fb8aa3bu, SIMT_F32) < 0 ||
	    t3(s, SIMT_FMA, SIMT_F32, l, log2e, ef, &r) < 0 ||
	    fimm(s, &zero, 0, SIMT_F32) < 0 || fimm(s, &inf, 0x7f800000u, SIMT_F32) < 0 ||
	    setp(s, pi, PC_EQ, SIMT_F32, a, inf) < 0 || setp(s, pz, PC_EQ, SIMT_F32, a, zero) < 0 ||
	    setp(s, pn, PC_LT, SIMT_F32, a, zero) < 0 ||
	    fsel(s, NONE, pi, 0x7f800000u, r, &x1) < 0 || fsel(s, NONE, pz, 0xff800000u, x1, &x2) < 0 ||
	    fsel(s, NONE, pn, 0x7fffffffu, x2, &x3) < 0)
		return -1;
	return nan_or(s, d, a, x3);
}

/* rsqrt.approx.f32 as isa_fp_rsqrt defines it (isa/'s rsqrt command
 * would need 261 scratch wordlines, more than an array has): y0 =
 * 0x5f3759df - (a >> 1), then y0 (1.5 - y0 (0.5 (a y0))), each operation
 * rounded; +-0 gives +-inf, +inf +0, a negative or NaN the NaN. */
static int lower_rsqrt(ts *s, int d, opr a)
{
	opr magic, sh, y0, h, half, u, v, th, w, r, sg, infb, si, zero, inf, x1, x2, x3;
	int pz = new_val(s, 1), pi = new_val(s, 1), pn = new_val(s, 1);
	if (pn < 0 || fimm(s, &magic, 0x5f3759dfu, SIMT_U32) < 0 ||
	    t2(s, SIMT_SHR, SIMT_U32, a, IMM(1), &sh) < 0 || t2(s, SIMT_SUB, SIMT_U32, magic, sh, &y0) < 0 ||
	    t2(s, SIMT_MUL, SIMT_F32, a, y0, &h) < 0 || fimm(s, &half, 0x3f000000u, SIMT_F32) < 0 ||
	    t2(s, SIMT_MUL, SIMT_F32, half, h, &u) < 0 || t2(s, SIMT_MUL, SIMT_F32, y0, u, &v) < 0 ||
	    fimm(s, &th, 0x3fc00000u, SIMT_F32) < 0 || t2(s, SIMT_SUB, SIMT_F32, th, v, &w) < 0 ||
	    t2(s, SIMT_MUL, SIMT_F32, y0, w, &r) < 0 ||
	    fimm(s, &sg, 0x80000000u, SIMT_U32) < 0 || t2(s, SIMT_AND, SIMT_U32, a, sg, &si) < 0 ||
	    fimm(s, &infb, 0x7f800000u, SIMT_U32) < 0 || t2(s, SIMT_OR, SIMT_U32, si, infb, &si) < 0 ||
	    fimm(s, &zero, 0, SIMT_F32) < 0 || fimm(s, &inf, 0x7f800000u, SIMT_F32) < 0 ||
	    setp(s, pz, PC_EQ, SIMT_F32, a, zero) < 0 || setp(s, pi, PC_EQ, SIMT_F32, a, inf) < 0 ||
	    setp(s, pn, PC_LT, SIMT_F32, a, zero) < 0 ||
	    sel(s, SIMT_F32, pz, si, r, &x1) < 0 || fsel(s, NONE, pi, 0, x1, &x2) < 0 ||
	    fsel(s, NONE, pn, 0x7fffffffu, x2, &x3) < 0)
		return -1;
	return nan_or(s, d, a, x3);
}

/* vote.sync: the OR over each warp's running threads of x, into every
 * lane, by 32 shuffles .idx, lane i read by all, in which a lane that is
 * not running reads 0.  (Five butterfly shuffles would relay values
 * through lanes that may not be running: lane 4's bit reaches lane 8
 * only through lane 12 or lane 0.) */
static int warp_or_checked(ts *s, opr x, opr mk, opr *out);
static int warp_or(ts *s, opr x, opr *out)
{
	return warp_or_checked(s, x, (opr){ 0 }, out);
}

/* The same, the first shuffle checking that each thread is in its
 * member mask mk (the crossbar's c; none: no check). */
static int warp_or_checked(ts *s, opr x, opr mk, opr *out)
{
	opr acc = { 0 };
	for (unsigned k = 0; k < 32; k++) {
		int t = tmp(s, 32);
		mop *m = t < 0 ? NULL : add_mop(s, SIMT_SHFL, SIMT_U32);
		if (!m)
			return -1;
		m->in.cmp = SIMT_SHFL_IDX;
		m->in.off = (int32_t)(SIMT_SHFL_WARP | SIMT_SHFL_ZERO | 0x1f);
		m->a = x;
		m->b = IMM(k);
		m->d = t;
		if (k == 0)
			m->c = mk;
		if (k == 0)
			acc = R(t);
		else if (t2(s, SIMT_OR, SIMT_U32, acc, R(t), &acc) < 0)
			return -1;
	}
	*out = acc;
	return 0;
}

/* ballot: the OR of each running lane's bit where its predicate holds;
 * any: ballot != 0; all: ballot == the running lanes' bits; uni: the
 * ballot is none or all of them (the reference's rule, emu/ptx/ref.c). */
static int lower_vote(ts *s, const ptx_ins *in)
{
	const ptx_opnd *o = in->o;
	int p = (int)o[1].r[0], d = (int)o[0].r[0];
	opr lane = special(SIMT_LANEID), one = IMM(1), zero = IMM(0), bit, b, ballot, members;
	if (in_reg(s, &lane, SIMT_U32) < 0 || in_reg(s, &one, SIMT_U32) < 0 ||
	    t2(s, SIMT_SHL, SIMT_U32, one, lane, &bit) < 0 ||
	    sel(s, SIMT_U32, p, o[1].neg ? zero : bit, o[1].neg ? bit : zero, &b) < 0 ||
	    warp_or(s, b, &ballot) < 0)
		return -1;
	if (in->mod == PM_BALLOT)
		return op2(s, SIMT_MOV, SIMT_U32, d, ballot, (opr){ 0 });
	if (in->mod == PM_ANY)
		return setp(s, d, PC_NE, SIMT_U32, ballot, IMM(0));
	if (warp_or(s, bit, &members) < 0)
		return -1;
	if (in->mod == PM_ALL)
		return setp(s, d, PC_EQ, SIMT_U32, ballot, members);
	int q = new_val(s, 1), r = new_val(s, 1);
	if (r < 0 || setp(s, q, PC_EQ, SIMT_U32, ballot, IMM(0)) < 0 ||
	    setp(s, r, PC_EQ, SIMT_U32, ballot, members) < 0)
		return -1;
	return plog(s, SIMT_PLOG_OR, d, q, false, r, false);
}

/* ---- shfl.sync's lane rule by ALU operations ----
 * With a predicate destination (d|p) or a c in a register, the lane
 * and PTX's in-range predicate are computed per thread as the
 * reference does (emu/ptx/ref.c): lane = %laneid, b &= 31, clamp = c &
 * 31, seg = c >> 8 & 31, maxl = (lane & seg) | (clamp & ~seg); up: j =
 * lane - b, in = j >= maxl (signed); down: j = lane + b, in = j <=
 * maxl; bfly: j = lane ^ b, in = j <= maxl; idx: j = (lane & seg) | (b &
 * ~seg), in = j <= maxl; a thread not in range reads its own lane.  The
 * crossbar then moves the values as shfl.sync.idx with c = 31 (the lane
 * as computed). */
/* The member mask operand of shfl/vote as the crossbar's c: none for
 * the immediate all ones (nothing to check), else the immediate or the
 * register. */
static int shfl_mask(ts *s, const ptx_opnd *o, opr *mk)
{
	*mk = (opr){ 0 };
	if (o->kind == OK_IMM && (uint32_t)o->imm == 0xffffffffu)
		return 0;
	if (src(s, o, mk) < 0)
		return -1;
	if (mk->kind == SIMT_O_IMM)
		mk->imm &= 0xffffffffu;
	return mk->kind == SIMT_O_SPECIAL ? in_reg(s, mk, SIMT_U32) : 0;
}

static int lower_shfl_lanes(ts *s, unsigned mode, int d, int p, opr a, opr b, opr c, opr mk)
{
	opr lane = special(SIMT_LANEID), m31 = IMM(31), bv, cl, sh, seg, nseg, lo, hi, maxl, j, jsel;
	int in = new_val(s, 1);
	if (in < 0 || in_reg(s, &lane, SIMT_U32) < 0 || in_reg(s, &m31, SIMT_U32) < 0 ||
	    in_reg(s, &a, SIMT_U32) < 0 || in_reg(s, &b, SIMT_U32) < 0 || in_reg(s, &c, SIMT_U32) < 0 ||
	    t2(s, SIMT_AND, SIMT_U32, b, m31, &bv) < 0 || t2(s, SIMT_AND, SIMT_U32, c, m31, &cl) < 0 ||
	    t2(s, SIMT_SHR, SIMT_U32, c, IMM(8), &sh) < 0 || t2(s, SIMT_AND, SIMT_U32, sh, m31, &seg) < 0 ||
	    t2(s, SIMT_NOT, SIMT_U32, seg, (opr){ 0 }, &nseg) < 0 ||
	    t2(s, SIMT_AND, SIMT_U32, lane, seg, &lo) < 0 || t2(s, SIMT_AND, SIMT_U32, cl, nseg, &hi) < 0 ||
	    t2(s, SIMT_OR, SIMT_U32, lo, hi, &maxl) < 0)
		return -1;
	unsigned cmp = PC_LE;
	int rc;
	switch (mode) {
	case PM_UP: rc = t2(s, SIMT_SUB, SIMT_S32, lane, bv, &j); cmp = PC_GE; break;
	case PM_DOWN: rc = t2(s, SIMT_ADD, SIMT_U32, lane, bv, &j); break;
	case PM_BFLY: rc = t2(s, SIMT_XOR, SIMT_U32, lane, bv, &j); break;
	default: {
		opr bs;
		rc = t2(s, SIMT_AND, SIMT_U32, bv, nseg, &bs) < 0 ? -1 : t2(s, SIMT_OR, SIMT_U32, lo, bs, &j);
		break;
	}
	}
	if (rc < 0 || setp(s, in, cmp, SIMT_S32, j, maxl) < 0 || sel(s, SIMT_U32, in, j, lane, &jsel) < 0)
		return -1;
	mop *x = add_mop(s, SIMT_SHFL, SIMT_U32);
	if (!x)
		return -1;
	x->in.cmp = SIMT_SHFL_IDX;
	x->in.off = (int32_t)(SIMT_SHFL_WARP | 0x1f);
	x->a = a;
	x->b = jsel;
	x->c = mk;
	x->d = d;
	if (p == NONE)
		return 0;
	return plog(s, SIMT_PLOG_MOV, p, in, false, NONE, false);
}

/* vote.sync with a member mask other than all ones (an immediate or a
 * register): as the reference, mask = the mask & the warp's threads at
 * the vote, b = ballot & mask; ballot b, any b != 0, all b == mask, uni
 * b == 0 or b == mask. */
static int lower_vote_masked(ts *s, const ptx_ins *in)
{
	const ptx_opnd *o = in->o;
	int p = (int)o[1].r[0], d = (int)o[0].r[0];
	opr lane = special(SIMT_LANEID), one = IMM(1), zero = IMM(0), bit, b, ballot, members, mk, mask, bm;
	if (src(s, &o[2], &mk) < 0 || in_reg(s, &mk, SIMT_U32) < 0 ||
	    in_reg(s, &lane, SIMT_U32) < 0 || in_reg(s, &one, SIMT_U32) < 0 ||
	    t2(s, SIMT_SHL, SIMT_U32, one, lane, &bit) < 0 ||
	    sel(s, SIMT_U32, p, o[1].neg ? zero : bit, o[1].neg ? bit : zero, &b) < 0 ||
	    warp_or_checked(s, b, mk, &ballot) < 0 || warp_or(s, bit, &members) < 0 ||
	    t2(s, SIMT_AND, SIMT_U32, mk, members, &mask) < 0 || t2(s, SIMT_AND, SIMT_U32, ballot, mask, &bm) < 0)
		return -1;
	if (in->mod == PM_BALLOT)
		return op2(s, SIMT_MOV, SIMT_U32, d, bm, (opr){ 0 });
	if (in->mod == PM_ANY)
		return setp(s, d, PC_NE, SIMT_U32, bm, IMM(0));
	if (in->mod == PM_ALL)
		return setp(s, d, PC_EQ, SIMT_U32, bm, mask);
	int q = new_val(s, 1), r = new_val(s, 1);
	if (r < 0 || setp(s, q, PC_EQ, SIMT_U32, bm, IMM(0)) < 0 || setp(s, r, PC_EQ, SIMT_U32, bm, mask) < 0)
		return -1;
	return plog(s, SIMT_PLOG_OR, d, q, false, r, false);
}

/* min/max.f32: the other operand when one is NaN (the machine's give
 * the canonical NaN), the canonical NaN when both are. */
static int fminmax(ts *s, unsigned opc, int d, opr a, opr b)
{
	int t = tmp(s, 32), u = tmp(s, 32), na = new_val(s, 1), nb = new_val(s, 1);
	if (nb < 0 || op2(s, opc, SIMT_F32, t, a, b) < 0 || setp(s, na, PC_NAN, SIMT_F32, a, a) < 0 ||
	    setp(s, nb, PC_NAN, SIMT_F32, b, b) < 0)
		return -1;
	int only_a = new_val(s, 1), only_b = new_val(s, 1);
	if (only_b < 0 || plog(s, SIMT_PLOG_AND, only_a, na, false, nb, true) < 0 ||
	    plog(s, SIMT_PLOG_AND, only_b, nb, false, na, true) < 0)
		return -1;
	mop *o = add_mop(s, SIMT_SELP, SIMT_F32);
	if (!o)
		return -1;
	o->d = u, o->a = b, o->b = R(t), o->pd = only_a;
	o = add_mop(s, SIMT_SELP, SIMT_F32);
	if (!o)
		return -1;
	o->d = d, o->a = a, o->b = R(u), o->pd = only_b;
	return 0;
}

/* ---- mul.hi, 64-bit division, 16-bit products ----
 * isa/'s mul keeps the low n bits of its 2n-bit product (the high half
 * is scratch it does not return), so the high halves are built from
 * products that are exact: 16 x 16 bits in a 32-bit mul (mul_wide_u32),
 * 32 x 32 from four of them, 64 x 64 from four 32 x 32 ones.  64-bit
 * division is restoring long division by 64-bit shifts, compares,
 * subtracts and selects: isa/'s div at 64 bits needs 256 scratch
 * wordlines, more than an array has beside its operands. */

/* d := p ? x : y at type (x, y registers). */
static int selv(ts *s, unsigned type, int d, int p, opr x, opr y)
{
	mop *o = add_mop(s, SIMT_SELP, type);
	if (!o)
		return -1;
	o->d = d, o->a = x, o->b = y, o->pd = p;
	return 0;
}

/* *out := a new temporary of bits holding op(a, b) at type. */
static int tw(ts *s, unsigned bits, unsigned opc, unsigned type, opr a, opr b, opr *out)
{
	int t = tmp(s, bits);
	if (t < 0 || op2(s, opc, type, t, a, b) < 0)
		return -1;
	*out = R(t);
	return 0;
}

/* *out := a new 64-bit temporary, the 32-bit x zero-extended. */
static int zext64(ts *s, opr x, opr *out)
{
	int t = tmp(s, 64);
	if (t < 0 || widen32(s, t, x, false) < 0)
		return -1;
	last_stype(s, SIMT_U32);
	*out = R(t);
	return 0;
}

/* *out := half h (0 low, 1 high) of the 64-bit register x, as a 32-bit
 * temporary. */
static int half32(ts *s, opr x, unsigned h, opr *out)
{
	return tw(s, 32, SIMT_MOV, SIMT_U32, RH(x.v, h), (opr){ 0 }, out);
}

/* d := the high 64 bits of the 128-bit product of a and b (64-bit):
 * p_ij = a_i b_j of the 32-bit halves, exact in 64 bits; the middle
 * column mid = hi(p00) + lo(p01) + lo(p10) carries into the high half.
 * Signed: the unsigned high half less (a < 0 ? b : 0) and (b < 0 ? a :
 * 0), mod 2^64. */
static int mul_hi_64(ts *s, bool sg, int d, opr a, opr b)
{
	if (in_reg(s, &a, SIMT_U64) < 0 || in_reg(s, &b, SIMT_U64) < 0)
		return -1;
	opr a0, a1, b0, b1, h00, l01, l10, h01, h10, m1, mid, mc, t1, t2, t3;
	int p00 = tmp(s, 64), p01 = tmp(s, 64), p10 = tmp(s, 64), p11 = tmp(s, 64);
	if (p11 < 0 || half32(s, a, 0, &a0) < 0 || half32(s, a, 1, &a1) < 0 || half32(s, b, 0, &b0) < 0 ||
	    half32(s, b, 1, &b1) < 0 || mul_wide_u32(s, p00, a0, b0) < 0 || mul_wide_u32(s, p01, a0, b1) < 0 ||
	    mul_wide_u32(s, p10, a1, b0) < 0 || mul_wide_u32(s, p11, a1, b1) < 0)
		return -1;
	opr lo01, lo10;
	if (half32(s, R(p01), 0, &lo01) < 0 || half32(s, R(p10), 0, &lo10) < 0 ||
	    zext64(s, lo01, &l01) < 0 || zext64(s, lo10, &l10) < 0 ||
	    tw(s, 64, SIMT_SHR, SIMT_U64, R(p00), IMM(32), &h00) < 0 ||
	    tw(s, 64, SIMT_ADD, SIMT_U64, h00, l01, &m1) < 0 || tw(s, 64, SIMT_ADD, SIMT_U64, m1, l10, &mid) < 0 ||
	    tw(s, 64, SIMT_SHR, SIMT_U64, mid, IMM(32), &mc) < 0 ||
	    tw(s, 64, SIMT_SHR, SIMT_U64, R(p01), IMM(32), &h01) < 0 ||
	    tw(s, 64, SIMT_SHR, SIMT_U64, R(p10), IMM(32), &h10) < 0 ||
	    tw(s, 64, SIMT_ADD, SIMT_U64, R(p11), h01, &t1) < 0 || tw(s, 64, SIMT_ADD, SIMT_U64, t1, h10, &t2) < 0)
		return -1;
	if (!sg)
		return op2(s, SIMT_ADD, SIMT_U64, d, t2, mc);
	opr sa, sb, fa, fb, t4;
	if (tw(s, 64, SIMT_ADD, SIMT_U64, t2, mc, &t3) < 0 ||
	    tw(s, 64, SIMT_SHR, SIMT_S64, a, IMM(63), &sa) < 0 || tw(s, 64, SIMT_SHR, SIMT_S64, b, IMM(63), &sb) < 0 ||
	    tw(s, 64, SIMT_AND, SIMT_U64, b, sa, &fa) < 0 || tw(s, 64, SIMT_AND, SIMT_U64, a, sb, &fb) < 0 ||
	    tw(s, 64, SIMT_SUB, SIMT_U64, t3, fa, &t4) < 0)
		return -1;
	return op2(s, SIMT_SUB, SIMT_U64, d, t4, fb);
}

/* 16-bit a and b (type ty) extended to 32 bits: their product is exact
 * in a 32-bit mul.  *out := that product (32 bits). */
static int mul_16x16(ts *s, unsigned ty, opr a, opr b, opr *out)
{
	bool sg = ty == SIMT_S16;
	opr x, y;
	if (in_reg(s, &a, ty) < 0 || in_reg(s, &b, ty) < 0 ||
	    tw(s, 32, SIMT_CVT, sg ? SIMT_S32 : SIMT_U32, a, (opr){ 0 }, &x) < 0)
		return -1;
	last_stype(s, ty);
	if (tw(s, 32, SIMT_CVT, sg ? SIMT_S32 : SIMT_U32, b, (opr){ 0 }, &y) < 0)
		return -1;
	last_stype(s, ty);
	return tw(s, 32, SIMT_MUL, SIMT_U32, x, y, out);
}

/* d := mul.hi of a and b at ty (16, 32 or 64 bits). */
static int mul_hi(ts *s, unsigned ty, int d, opr a, opr b)
{
	bool sg = simt_type_signed(ty);
	switch (bits_of_type(ty)) {
	case 16: {
		opr p, h;
		if (mul_16x16(s, ty, a, b, &p) < 0 || tw(s, 32, SIMT_SHR, SIMT_U32, p, IMM(16), &h) < 0 ||
		    op2(s, SIMT_CVT, SIMT_U16, d, h, (opr){ 0 }) < 0)
			return -1;
		last_stype(s, SIMT_U32);
		return 0;
	}
	case 32: {
		int w = tmp(s, 64);
		if (w < 0 || (sg ? mul_wide_s32(s, w, a, b) : mul_wide_u32(s, w, a, b)) < 0)
			return -1;
		return op2(s, SIMT_MOV, SIMT_U32, d, RH(w, 1), (opr){ 0 });
	}
	default:
		return mul_hi_64(s, sg, d, a, b);
	}
}

/* q, r := n / v and n % v, 64-bit unsigned, by restoring long division:
 * 64 steps of r = r << 1 | top bit of x, x <<= 1, and where r >= v, r -=
 * v and x |= 1 (the quotient shifts into x as n shifts out).  r < v <
 * 2^63 keeps r << 1 in 64 bits; a v of 2^63 or more has the quotient n
 * >= v and the remainder n or n - v, chosen at the end.  v = 0 gives
 * all ones and n, PTX's a / 0 and a % 0 (doc/PTX.md). */
static int udivrem64(ts *s, opr n, opr v, opr *q, opr *r)
{
	opr one = IMM(1), zero = IMM(0), x = n, rr;
	if (in_reg(s, &one, SIMT_U64) < 0 || in_reg(s, &zero, SIMT_U64) < 0)
		return -1;
	rr = zero;
	for (unsigned i = 0; i < 64; i++) {
		opr top, r2, r3, x2, x3, t;
		int p = new_val(s, 1), rn = tmp(s, 64), xn = tmp(s, 64);
		if (xn < 0 || tw(s, 64, SIMT_SHR, SIMT_U64, x, IMM(63), &top) < 0)
			return -1;
		if (i == 0) {
			r3 = top;
		} else if (tw(s, 64, SIMT_SHL, SIMT_U64, rr, IMM(1), &r2) < 0 ||
			   tw(s, 64, SIMT_OR, SIMT_U64, r2, top, &r3) < 0) {
			return -1;
		}
		if (tw(s, 64, SIMT_SHL, SIMT_U64, x, IMM(1), &x2) < 0 || setp(s, p, PC_HS, SIMT_U64, r3, v) < 0 ||
		    tw(s, 64, SIMT_SUB, SIMT_U64, r3, v, &t) < 0 || selv(s, SIMT_U64, rn, p, t, r3) < 0 ||
		    tw(s, 64, SIMT_OR, SIMT_U64, x2, one, &x3) < 0 || selv(s, SIMT_U64, xn, p, x3, x2) < 0)
			return -1;
		rr = R(rn);
		x = R(xn);
	}
	int big = new_val(s, 1), ge = new_val(s, 1), qb = tmp(s, 64), rb = tmp(s, 64), qo = tmp(s, 64), ro = tmp(s, 64);
	opr nd;
	if (ro < 0 || setp(s, big, PC_LT, SIMT_S64, v, zero) < 0 || setp(s, ge, PC_HS, SIMT_U64, n, v) < 0 ||
	    tw(s, 64, SIMT_SUB, SIMT_U64, n, v, &nd) < 0 || selv(s, SIMT_U64, qb, ge, one, zero) < 0 ||
	    selv(s, SIMT_U64, rb, ge, nd, n) < 0 || selv(s, SIMT_U64, qo, big, R(qb), x) < 0 ||
	    selv(s, SIMT_U64, ro, big, R(rb), rr) < 0)
		return -1;
	*q = R(qo);
	*r = R(ro);
	return 0;
}

/* d := a / b or a % b at 64 bits.  Signed: |a| and |b| divided
 * unsigned (|MIN| = 2^63 is right unsigned), the quotient negated where
 * the signs differ, the remainder where a < 0; b = 0 gives all ones and
 * a (so MIN / -1 = MIN, MIN % -1 = 0, as the reference's). */
static int div64(ts *s, unsigned ty, bool rem, int d, opr a, opr b)
{
	if (in_reg(s, &a, ty) < 0 || in_reg(s, &b, ty) < 0)
		return -1;
	opr q, r;
	if (ty != SIMT_S64) {
		if (udivrem64(s, a, b, &q, &r) < 0)
			return -1;
		return op2(s, SIMT_MOV, SIMT_U64, d, rem ? r : q, (opr){ 0 });
	}
	opr ua, ub, nq, zero = IMM(0);
	if (in_reg(s, &zero, SIMT_U64) < 0 || tw(s, 64, SIMT_ABS, SIMT_S64, a, (opr){ 0 }, &ua) < 0 ||
	    tw(s, 64, SIMT_ABS, SIMT_S64, b, (opr){ 0 }, &ub) < 0 || udivrem64(s, ua, ub, &q, &r) < 0)
		return -1;
	if (rem) {
		int an = new_val(s, 1);
		if (an < 0 || setp(s, an, PC_LT, SIMT_S64, a, zero) < 0 ||
		    tw(s, 64, SIMT_NEG, SIMT_S64, r, (opr){ 0 }, &nq) < 0)
			return -1;
		return selv(s, SIMT_U64, d, an, nq, r);
	}
	opr x, ones = IMM(UINT64_MAX), qs;
	int ng = new_val(s, 1), bz = new_val(s, 1), t = tmp(s, 64);
	if (t < 0 || in_reg(s, &ones, SIMT_U64) < 0 || tw(s, 64, SIMT_XOR, SIMT_U64, a, b, &x) < 0 ||
	    setp(s, ng, PC_LT, SIMT_S64, x, zero) < 0 || setp(s, bz, PC_EQ, SIMT_U64, b, zero) < 0 ||
	    tw(s, 64, SIMT_NEG, SIMT_S64, q, (opr){ 0 }, &nq) < 0 || selv(s, SIMT_U64, t, ng, nq, q) < 0)
		return -1;
	qs = R(t);
	return selv(s, SIMT_U64, d, bz, ones, qs);
}

/* d (32 bits) := mul.wide of 16-bit a and b. */
static int mul_wide_16(ts *s, unsigned ty, int d, opr a, opr b)
{
	opr p;
	if (mul_16x16(s, ty, a, b, &p) < 0)
		return -1;
	return op2(s, SIMT_MOV, SIMT_U32, d, p, (opr){ 0 });
}

/* ---- bfe: clang writes (x >> k) & (2^n - 1) as bfe ----
 * With an immediate position pos and length len (as clang writes them):
 * 0 when len = 0; at pos >= w, 0 (.u) or the sign everywhere (.s);
 * else the field's e = min(len, w - pos) bits shifted to the top and
 * back, logically (.u) or arithmetically (.s, so the field's top bit,
 * or a's at pos + len > w, fills the rest), as the reference's bit loop
 * (emu/ptx/ref_alu.c). */
static int lower_bfe(ts *s, unsigned ty, int d, opr a, opr b, opr c)
{
	if (b.kind != SIMT_O_IMM || c.kind != SIMT_O_IMM)
		return fail(s, "bfe is translated with an immediate position and length only");
	unsigned w = bits_of_type(ty), pos = (unsigned)(b.imm & 0xff), len = (unsigned)(c.imm & 0xff);
	bool sg = simt_type_signed(ty);
	unsigned ut = w == 64 ? SIMT_U64 : SIMT_U32;
	if (len == 0 || (pos >= w && !sg))
		return op2(s, SIMT_MOV, ut, d, IMM(0), (opr){ 0 });
	if (in_reg(s, &a, ty) < 0)
		return -1;
	if (pos >= w)
		return op2(s, SIMT_SHR, ty, d, a, IMM(w - 1));
	unsigned e = len < w - pos ? len : w - pos, up = w - pos - e, down = w - e;
	opr t = a;
	if (up && tw(s, w, SIMT_SHL, ut, a, IMM(up), &t) < 0)
		return -1;
	if (!down)
		return op2(s, SIMT_MOV, ut, d, t, (opr){ 0 });
	return op2(s, SIMT_SHR, ty, d, t, IMM(down));
}

/* ---- shf: clang writes a 32-bit rotate as shf.l.wrap ----
 * {b:a} is packed into a 64-bit temporary (b high), shifted by n (c &
 * 31 with .wrap, min(c, 32) with .clamp) at 64 bits, and the high half
 * (.l) or the low half (.r) taken, as the reference's (emu/ptx/ref_alu.c). */
static int lower_shf(ts *s, const ptx_ins *in, int d, opr a, opr b, opr c)
{
	if (in_reg(s, &a, SIMT_U32) < 0 || in_reg(s, &b, SIMT_U32) < 0)
		return -1;
	int both = tmp(s, 64);
	if (both < 0 || op2(s, SIMT_MOV, SIMT_U32, both, a, (opr){ 0 }) < 0)
		return -1;
	s->mo[s->nmo - 1].dpart = true;
	s->mo[s->nmo - 1].dhalf = 0;
	if (op2(s, SIMT_MOV, SIMT_U32, both, b, (opr){ 0 }) < 0)
		return -1;
	s->mo[s->nmo - 1].dpart = true;
	s->mo[s->nmo - 1].dhalf = 1;
	bool left = in->mod == PM_L;
	opr n, t;
	if (c.kind == SIMT_O_IMM) {
		uint32_t k = (uint32_t)c.imm;
		n = IMM((in->flags & PF_WRAP) ? k & 31 : k > 32 ? 32 : k);
	} else {
		opr k = IMM((in->flags & PF_WRAP) ? 31 : 32), n32;
		if (in_reg(s, &c, SIMT_U32) < 0 || in_reg(s, &k, SIMT_U32) < 0 ||
		    t2(s, (in->flags & PF_WRAP) ? SIMT_AND : SIMT_MIN, SIMT_U32, c, k, &n32) < 0 ||
		    tw(s, 64, SIMT_CVT, SIMT_U64, n32, (opr){ 0 }, &n) < 0)
			return -1;
		last_stype(s, SIMT_U32);
	}
	if (tw(s, 64, left ? SIMT_SHL : SIMT_SHR, SIMT_U64, R(both), n, &t) < 0)
		return -1;
	return op2(s, SIMT_MOV, SIMT_U32, d, RH(t.v, left ? 1 : 0), (opr){ 0 });
}

/* ---- popc, clz, brev: clang writes __builtin_popcount and
 * __builtin_clz as popc.b32 and clz.b32 ----
 * The machine has no such operation: they are the classic shift-and-mask
 * sequences on 32-bit units (each step a logic op or an add of the
 * machine's), a 64-bit value one half at a time. */

/* *out := popc of the 32-bit x. */
static int popc32(ts *s, opr x, opr *out)
{
	opr m1 = IMM(0x55555555u), m2 = IMM(0x33333333u), m4 = IMM(0x0f0f0f0fu), m6 = IMM(0x3fu);
	opr t, u, v, w;
	if (in_reg(s, &x, SIMT_U32) < 0 || in_reg(s, &m1, SIMT_U32) < 0 || in_reg(s, &m2, SIMT_U32) < 0 ||
	    in_reg(s, &m4, SIMT_U32) < 0 || in_reg(s, &m6, SIMT_U32) < 0 ||
	    /* pairs: x - ((x >> 1) & 0x55555555) */
	    t2(s, SIMT_SHR, SIMT_U32, x, IMM(1), &t) < 0 || t2(s, SIMT_AND, SIMT_U32, t, m1, &t) < 0 ||
	    t2(s, SIMT_SUB, SIMT_U32, x, t, &v) < 0 ||
	    /* nibbles */
	    t2(s, SIMT_SHR, SIMT_U32, v, IMM(2), &t) < 0 || t2(s, SIMT_AND, SIMT_U32, t, m2, &t) < 0 ||
	    t2(s, SIMT_AND, SIMT_U32, v, m2, &u) < 0 || t2(s, SIMT_ADD, SIMT_U32, t, u, &v) < 0 ||
	    /* bytes */
	    t2(s, SIMT_SHR, SIMT_U32, v, IMM(4), &t) < 0 || t2(s, SIMT_ADD, SIMT_U32, v, t, &v) < 0 ||
	    t2(s, SIMT_AND, SIMT_U32, v, m4, &v) < 0 ||
	    /* the bytes' sum in the low byte */
	    t2(s, SIMT_SHR, SIMT_U32, v, IMM(8), &t) < 0 || t2(s, SIMT_ADD, SIMT_U32, v, t, &v) < 0 ||
	    t2(s, SIMT_SHR, SIMT_U32, v, IMM(16), &t) < 0 || t2(s, SIMT_ADD, SIMT_U32, v, t, &w) < 0)
		return -1;
	return t2(s, SIMT_AND, SIMT_U32, w, m6, out);
}

/* *out := clz of the 32-bit x: 32 - popc of x with every bit below its
 * top one set. */
static int clz32(ts *s, opr x, opr *out)
{
	opr t, p, k = IMM(32);
	if (in_reg(s, &x, SIMT_U32) < 0 || in_reg(s, &k, SIMT_U32) < 0)
		return -1;
	for (unsigned sh = 1; sh <= 16; sh <<= 1)
		if (t2(s, SIMT_SHR, SIMT_U32, x, IMM(sh), &t) < 0 || t2(s, SIMT_OR, SIMT_U32, x, t, &x) < 0)
			return -1;
	if (popc32(s, x, &p) < 0)
		return -1;
	return t2(s, SIMT_SUB, SIMT_U32, k, p, out);
}

/* *out := the 32-bit x's bits reversed: swaps of 1, 2, 4, 8, 16 bits. */
static int brev32(ts *s, opr x, opr *out)
{
	static const uint32_t mk[] = { 0x55555555u, 0x33333333u, 0x0f0f0f0fu, 0x00ff00ffu, 0x0000ffffu };
	if (in_reg(s, &x, SIMT_U32) < 0)
		return -1;
	for (unsigned i = 0, sh = 1; i < 5; i++, sh <<= 1) {
		opr m = IMM(mk[i]), hi, lo, t;
		if (in_reg(s, &m, SIMT_U32) < 0 || t2(s, SIMT_SHR, SIMT_U32, x, IMM(sh), &t) < 0 ||
		    t2(s, SIMT_AND, SIMT_U32, t, m, &lo) < 0 || t2(s, SIMT_AND, SIMT_U32, x, m, &t) < 0 ||
		    t2(s, SIMT_SHL, SIMT_U32, t, IMM(sh), &hi) < 0 || t2(s, SIMT_OR, SIMT_U32, hi, lo, &x) < 0)
			return -1;
	}
	*out = x;
	return 0;
}

static int lower_bits(ts *s, const ptx_ins *in, unsigned ty, int d, opr a)
{
	bool w64 = bits_of_type(ty) == 64;
	opr r, lo = a, hi;
	if (bits_of_type(ty) == 16)
		return fail(s, "'%s' is translated at 32 and 64 bits only", ptx_op_name(in->op));
	if (in_reg(s, &a, ty) < 0)
		return -1;
	if (w64 && (half32(s, a, 0, &lo) < 0 || half32(s, a, 1, &hi) < 0))
		return -1;
	switch (in->op) {
	case PO_POPC: {
		if (!w64)
			return popc32(s, a, &r) < 0 ? -1 : op2(s, SIMT_MOV, SIMT_U32, d, r, (opr){ 0 });
		opr pl, ph;
		if (popc32(s, lo, &pl) < 0 || popc32(s, hi, &ph) < 0)
			return -1;
		return op2(s, SIMT_ADD, SIMT_U32, d, pl, ph);
	}
	case PO_CLZ: {
		if (!w64)
			return clz32(s, a, &r) < 0 ? -1 : op2(s, SIMT_MOV, SIMT_U32, d, r, (opr){ 0 });
		/* hi != 0 ? clz(hi) : 32 + clz(lo) */
		opr cl, ch, k = IMM(32), z = IMM(0), c2;
		int nz = new_val(s, 1);
		if (nz < 0 || clz32(s, lo, &cl) < 0 || clz32(s, hi, &ch) < 0 || in_reg(s, &k, SIMT_U32) < 0 ||
		    in_reg(s, &z, SIMT_U32) < 0 || t2(s, SIMT_ADD, SIMT_U32, cl, k, &c2) < 0 ||
		    setp(s, nz, PC_NE, SIMT_U32, hi, z) < 0)
			return -1;
		return selv(s, SIMT_U32, d, nz, ch, c2);
	}
	default: { /* brev */
		if (!w64)
			return brev32(s, a, &r) < 0 ? -1 : op2(s, SIMT_MOV, SIMT_U32, d, r, (opr){ 0 });
		opr rl, rh;
		if (brev32(s, lo, &rl) < 0 || brev32(s, hi, &rh) < 0 || op2(s, SIMT_MOV, SIMT_U32, d, rh, (opr){ 0 }) < 0)
			return -1;
		s->mo[s->nmo - 1].dpart = true;
		s->mo[s->nmo - 1].dhalf = 0;
		if (op2(s, SIMT_MOV, SIMT_U32, d, rl, (opr){ 0 }) < 0)
			return -1;
		s->mo[s->nmo - 1].dpart = true;
		s->mo[s->nmo - 1].dhalf = 1;
		return 0;
	}
	}
}


/* ---- .ftz, div/rcp/sqrt and f16 (doc/SIMT.md, "Translated PTX") ----
 * PTX's .ftz reads a subnormal input as the zero of its sign and flushes
 * a subnormal result.  isa/'s hardware mode (doc/FLOAT.md) reads inputs
 * the same way but flushes a result that is tiny after rounding with an
 * unbounded exponent, where the reference flushes the IEEE result when it
 * is subnormal: the two differ where the exact result lies in
 * [2^-126 - 2^-150, 2^-126) (f32; IEEE rounds it up to the smallest
 * normal, hardware mode to 0).  A sum of two numbers that are 0 or at
 * least 2^-126 in magnitude is exact below 2^-126, so add/sub and the
 * compares run as one command in hardware mode (mop .ftz); every other
 * operation flushes its inputs, runs in IEEE mode and flushes its
 * result, each flush (x & exponent) == 0 ? x & sign : x. */

/* The mop just added runs its isa/ command in hardware mode. */
static void last_ftz(ts *s)
{
	s->mo[s->nmo - 1].in.ftz = 1;
}

/* *out := a new temporary of bits holding op(a, b, c) of type (tw: op(a, b)). */
static int tw3(ts *s, unsigned bits, unsigned opc, unsigned type, opr a, opr b, opr c, opr *out)
{
	int t = tmp(s, bits);
	if (t < 0 || op3(s, opc, type, t, a, b, c) < 0)
		return -1;
	*out = R(t);
	return 0;
}

/* d (or a new temporary, *out) := p ? x : y, of type and bits. */
static int selw(ts *s, unsigned bits, unsigned type, int d, int p, opr x, opr y, opr *out)
{
	if (d == NONE && (d = tmp(s, bits)) < 0)
		return -1;
	if (in_reg(s, &x, type) < 0 || in_reg(s, &y, type) < 0)
		return -1;
	mop *o = add_mop(s, SIMT_SELP, type);
	if (!o)
		return -1;
	o->d = d, o->a = x, o->b = y, o->pd = p;
	if (out)
		*out = R(d);
	return 0;
}

/* d (NONE: a new temporary) := x flushed (.ftz), f16 when h, else f32. */
static int flush_to(ts *s, bool h, opr x, int d, opr *out)
{
	unsigned it = h ? SIMT_U16 : SIMT_U32, bits = h ? 16 : 32;
	opr em, sm, e, sg;
	int p = new_val(s, 1);
	if (p < 0 || in_reg(s, &x, it) < 0 || fimm(s, &em, h ? 0x7c00u : 0x7f800000u, it) < 0 ||
	    tw3(s, bits, SIMT_AND, it, x, em, (opr){ 0 }, &e) < 0 || setp(s, p, PC_EQ, it, e, IMM(0)) < 0 ||
	    fimm(s, &sm, h ? 0x8000u : 0x80000000u, it) < 0 ||
	    tw3(s, bits, SIMT_AND, it, x, sm, (opr){ 0 }, &sg) < 0)
		return -1;
	return selw(s, bits, h ? SIMT_F16 : SIMT_F32, d, p, sg, x, out);
}

static int flush(ts *s, bool h, opr *x)
{
	return flush_to(s, h, *x, NONE, x);
}

/* min/max of type (f32, f16): the other operand when one is NaN, the
 * reference's NaN (0x7fffffff, 0x7fff) when both are. */
static int fminmax_t(ts *s, unsigned type, unsigned opc, int d, opr a, opr b)
{
	unsigned bits = type == SIMT_F16 ? 16 : 32;
	int na = new_val(s, 1), nb = new_val(s, 1), only_a = new_val(s, 1), only_b = new_val(s, 1);
	int both = new_val(s, 1);
	opr t, u, v;
	if (both < 0 || tw3(s, bits, opc, type, a, b, (opr){ 0 }, &t) < 0 ||
	    setp(s, na, PC_NAN, type, a, a) < 0 || setp(s, nb, PC_NAN, type, b, b) < 0 ||
	    plog(s, SIMT_PLOG_AND, only_a, na, false, nb, true) < 0 ||
	    plog(s, SIMT_PLOG_AND, only_b, nb, false, na, true) < 0 ||
	    plog(s, SIMT_PLOG_AND, both, na, false, nb, false) < 0 ||
	    selw(s, bits, type, NONE, only_a, b, t, &u) < 0 ||
	    selw(s, bits, type, NONE, only_b, a, u, &v) < 0)
		return -1;
	return selw(s, bits, type, d, both, IMM(bits == 16 ? 0x7fffu : 0x7fffffffu), v, NULL);
}

/* sqrt.f32 (.rn and .approx; doc/PTX.md): an a below 2^-64 scaled by
 * 2^80 first (the result by 2^-40 after, so that the residuals below are
 * normal), y = rsqrt's sequence (lower_rsqrt), s = a y, h = y / 2, then
 * twice s := fma(fma(-s, s, a), h, s), then the rounding step; the
 * specials: NaN and a < 0 give the NaN, +-0 itself, +inf +inf.  Every
 * step is IEEE f32 (round to nearest even), so the bits are the
 * reference's: over every f32 input it is the correctly rounded root
 * (measured, doc/PTX.md). */
static int lower_sqrt(ts *s, int d, opr a)
{
	opr tiny, big, sc, a2, y, sv, half, h, ns, r, s1, ns1, r1, s2, post, res, zero, inf, x1, x2, x3;
	int psub = new_val(s, 1), pz = new_val(s, 1), pi = new_val(s, 1), pn = new_val(s, 1);
	if (pn < 0 || in_reg(s, &a, SIMT_F32) < 0 ||
	    fimm(s, &tiny, 0x1f800000u, SIMT_F32) < 0 || setp(s, psub, PC_LT, SIMT_F32, a, tiny) < 0 ||
	    fimm(s, &big, 0x67800000u, SIMT_F32) < 0 ||  /* 2^80 */
	    t2(s, SIMT_MUL, SIMT_F32, a, big, &sc) < 0 || sel(s, SIMT_F32, psub, sc, a, &a2) < 0)
		return -1;
	int yv = tmp(s, 32);
	if (yv < 0 || lower_rsqrt(s, yv, a2) < 0)
		return -1;
	y = R(yv);
	if (t2(s, SIMT_MUL, SIMT_F32, a2, y, &sv) < 0 || fimm(s, &half, 0x3f000000u, SIMT_F32) < 0 ||
	    t2(s, SIMT_MUL, SIMT_F32, half, y, &h) < 0 ||
	    t2(s, SIMT_NEG, SIMT_F32, sv, (opr){ 0 }, &ns) < 0 || t3(s, SIMT_FMA, SIMT_F32, ns, sv, a2, &r) < 0 ||
	    t3(s, SIMT_FMA, SIMT_F32, r, h, sv, &s1) < 0 ||
	    t2(s, SIMT_NEG, SIMT_F32, s1, (opr){ 0 }, &ns1) < 0 || t3(s, SIMT_FMA, SIMT_F32, ns1, s1, a2, &r1) < 0 ||
	    t3(s, SIMT_FMA, SIMT_F32, r1, h, s1, &s2) < 0)
		return -1;
	/* rounded to nearest: the neighbour su (sd) when a - s2 su > 0
	 * (a - sd s2 < 0), each residual one fma, its sign exact */
	opr su, sd, ns2, nsd, eu, ed, s3, s4, z, one;
	int pu = new_val(s, 1), pd = new_val(s, 1);
	if (pd < 0 || fimm(s, &one, 1, SIMT_U32) < 0 ||
	    t2(s, SIMT_ADD, SIMT_U32, s2, one, &su) < 0 || t2(s, SIMT_SUB, SIMT_U32, s2, one, &sd) < 0 ||
	    t2(s, SIMT_NEG, SIMT_F32, s2, (opr){ 0 }, &ns2) < 0 || t3(s, SIMT_FMA, SIMT_F32, ns2, su, a2, &eu) < 0 ||
	    t2(s, SIMT_NEG, SIMT_F32, sd, (opr){ 0 }, &nsd) < 0 || t3(s, SIMT_FMA, SIMT_F32, nsd, s2, a2, &ed) < 0 ||
	    fimm(s, &z, 0, SIMT_F32) < 0 || setp(s, pu, PC_GT, SIMT_F32, eu, z) < 0 ||
	    setp(s, pd, PC_LT, SIMT_F32, ed, z) < 0 || sel(s, SIMT_F32, pd, sd, s2, &s3) < 0 ||
	    sel(s, SIMT_F32, pu, su, s3, &s4) < 0 ||
	    sel(s, SIMT_F32, psub, IMM(0x2b800000u), IMM(0x3f800000u), &post) < 0 || /* 2^-40 or 1 */
	    t2(s, SIMT_MUL, SIMT_F32, s4, post, &res) < 0 ||
	    fimm(s, &zero, 0, SIMT_F32) < 0 || fimm(s, &inf, 0x7f800000u, SIMT_F32) < 0 ||
	    setp(s, pz, PC_EQ, SIMT_F32, a, zero) < 0 || setp(s, pi, PC_EQ, SIMT_F32, a, inf) < 0 ||
	    setp(s, pn, PC_LT, SIMT_F32, a, zero) < 0 ||
	    sel(s, SIMT_F32, pz, a, res, &x1) < 0 || fsel(s, NONE, pi, 0x7f800000u, x1, &x2) < 0 ||
	    fsel(s, NONE, pn, 0x7fffffffu, x2, &x3) < 0)
		return -1;
	return nan_or(s, d, a, x3);
}

/* The f32 forms lower_arith and lower refuse no more: .ftz on add sub
 * mul fma mad div rcp sqrt min max abs neg, div.approx (a times the
 * rounded reciprocal, the quotient flushed under .ftz), div.full (the
 * IEEE division), rcp.rn and rcp.approx (1 / a), sqrt.rn and .approx. */
static bool f32_extra(const ptx_ins *in)
{
	if (in->type != PT_F32)
		return false;
	switch (in->op) {
	case PO_ADD: case PO_SUB: case PO_MUL: case PO_FMA: case PO_MAD: case PO_MIN: case PO_MAX:
	case PO_NEG: case PO_ABS:
		return (in->flags & PF_FTZ) != 0;
	case PO_DIV:
		return (in->flags & (PF_FTZ | PF_APPROX | PF_FULL)) != 0;
	case PO_RCP: case PO_SQRT:
		return true;
	default:
		return false;
	}
}

static int lower_f32_extra(ts *s, const ptx_ins *in, int d, opr a, opr b, opr c)
{
	bool ftz = (in->flags & PF_FTZ) != 0;
	if (in->flags & PF_SAT)
		return fail(s, ".sat on f32 arithmetic is not translated");
	if (in->mod != PR_NONE && in->mod != PR_RN)
		return fail(s, "the machine's f32 arithmetic rounds to nearest even: .rz, .rm and .rp are not translated");
	if (in_reg(s, &a, SIMT_F32) < 0 || in_reg(s, &b, SIMT_F32) < 0 || in_reg(s, &c, SIMT_F32) < 0)
		return -1;
	if (in->op == PO_ADD || in->op == PO_SUB) { /* hardware mode is .ftz here */
		int t = tmp(s, 32);
		if (t < 0 || op2(s, in->op == PO_ADD ? SIMT_ADD : SIMT_SUB, SIMT_F32, t, a, b) < 0)
			return -1;
		last_ftz(s);
		return nan_or(s, d, R(t), R(t)); /* the reference's NaN */
	}
	if (ftz && (flush(s, false, &a) < 0 || (b.kind == SIMT_O_REG && flush(s, false, &b) < 0) ||
		    (c.kind == SIMT_O_REG && flush(s, false, &c) < 0)))
		return -1;
	bool flush_out = ftz, arith = true;
	int t = tmp(s, 32);
	opr one, q;
	int rc;
	if (t < 0)
		return -1;
	switch (in->op) {
	case PO_MUL: rc = op2(s, SIMT_MUL, SIMT_F32, t, a, b); break;
	case PO_FMA: case PO_MAD: rc = op3(s, SIMT_FMA, SIMT_F32, t, a, b, c); break;
	case PO_MIN: case PO_MAX:
		arith = false; /* a flushed operand, or the NaN */
		rc = fminmax_t(s, SIMT_F32, in->op == PO_MIN ? SIMT_MIN : SIMT_MAX, d, a, b);
		break;
	case PO_NEG: case PO_ABS:
		arith = false;
		rc = op2(s, in->op == PO_NEG ? SIMT_NEG : SIMT_ABS, SIMT_F32, d, a, (opr){ 0 });
		break;
	case PO_DIV:
		if (!(in->flags & PF_APPROX)) {
			rc = op2(s, SIMT_DIV, SIMT_F32, t, a, b);
			break;
		}
		if (fimm(s, &one, 0x3f800000u, SIMT_F32) < 0 || t2(s, SIMT_DIV, SIMT_F32, one, b, &q) < 0 ||
		    (ftz && flush(s, false, &q) < 0))
			return -1;
		rc = op2(s, SIMT_MUL, SIMT_F32, t, a, q);
		break;
	case PO_RCP:
		if (fimm(s, &one, 0x3f800000u, SIMT_F32) < 0)
			return -1;
		rc = op2(s, SIMT_DIV, SIMT_F32, t, one, a);
		break;
	case PO_SQRT:
		rc = lower_sqrt(s, t, a);
		break;
	default:
		return fail(s, "not translated");
	}
	if (rc < 0 || !arith)
		return rc;
	/* the reference's NaN (0x7fffffff; the machine's is 0x7fc00000) */
	int u = flush_out ? tmp(s, 32) : d;
	if (u < 0 || nan_or(s, u, R(t), R(t)) < 0)
		return -1;
	return flush_out ? flush_to(s, false, R(u), d, NULL) : 0;
}

/* ---- f16 ----
 * A .f16 value is 16 bits (the low rows of a unit), computed by isa/'s
 * .f16 commands in IEEE mode; .f16x2 is two of them in a 32-bit register,
 * lowered a half at a time.  The machine's NaN (0x7e00) becomes PTX's
 * 0x7fff, .ftz flushes inputs and result (flush_to), .sat is max(+0),
 * min(1) and NaN to +0. */
static int lower_half1(ts *s, const ptx_ins *in, int d, opr a, opr b, opr c)
{
	bool ftz = (in->flags & PF_FTZ) != 0, sat = (in->flags & PF_SAT) != 0;
	if (in_reg(s, &a, SIMT_F16) < 0 || in_reg(s, &b, SIMT_F16) < 0 || in_reg(s, &c, SIMT_F16) < 0)
		return -1;
	if (ftz && (flush(s, true, &a) < 0 || (b.kind == SIMT_O_REG && flush(s, true, &b) < 0) ||
		    (c.kind == SIMT_O_REG && flush(s, true, &c) < 0)))
		return -1;
	opr t, u, v, k;
	switch (in->op) {
	case PO_NEG: case PO_ABS:
		return op2(s, in->op == PO_NEG ? SIMT_NEG : SIMT_ABS, SIMT_F16, d, a, (opr){ 0 });
	case PO_MIN: case PO_MAX:
		return fminmax_t(s, SIMT_F16, in->op == PO_MIN ? SIMT_MIN : SIMT_MAX, d, a, b);
	case PO_ADD: case PO_SUB: case PO_MUL:
		if (tw3(s, 16, in->op == PO_ADD ? SIMT_ADD : in->op == PO_SUB ? SIMT_SUB : SIMT_MUL, SIMT_F16, a, b,
		       (opr){ 0 }, &t) < 0)
			return -1;
		break;
	case PO_FMA:
		if (tw3(s, 16, SIMT_FMA, SIMT_F16, a, b, c, &t) < 0)
			return -1;
		break;
	default:
		return fail(s, "'%s.f16' is not translated", ptx_op_name(in->op));
	}
	int pn = new_val(s, 1);
	if (pn < 0 || setp(s, pn, PC_NAN, SIMT_F16, t, t) < 0)
		return -1;
	if (!sat)
		return ftz ? selw(s, 16, SIMT_F16, NONE, pn, IMM(0x7fff), t, &u) < 0 ? -1 : flush_to(s, true, u, d, NULL)
			   : selw(s, 16, SIMT_F16, d, pn, IMM(0x7fff), t, NULL);
	if (ftz && flush(s, true, &t) < 0)
		return -1;
	if (fimm(s, &k, 0, SIMT_F16) < 0 || tw3(s, 16, SIMT_MAX, SIMT_F16, t, k, (opr){ 0 }, &u) < 0 ||
	    fimm(s, &k, 0x3c00u, SIMT_F16) < 0 || tw3(s, 16, SIMT_MIN, SIMT_F16, u, k, (opr){ 0 }, &v) < 0)
		return -1;
	return selw(s, 16, SIMT_F16, d, pn, IMM(0), v, NULL);
}

/* the low (hi false) or high half of a 32-bit value, as a 16-bit one */
static int half_of(ts *s, opr x, bool hi, opr *out)
{
	if (in_reg(s, &x, SIMT_U32) < 0)
		return -1;
	if (hi && tw3(s, 32, SIMT_SHR, SIMT_U32, x, IMM(16), (opr){ 0 }, &x) < 0)
		return -1;
	if (tw3(s, 16, SIMT_CVT, SIMT_U16, x, (opr){ 0 }, (opr){ 0 }, out) < 0)
		return -1;
	last_stype(s, SIMT_U32);
	return 0;
}

/* d (32 bits) := hi << 16 | lo, of two 16-bit values */
static int pack_halves(ts *s, int d, opr lo, opr hi)
{
	opr l, h, hs;
	if (tw3(s, 32, SIMT_CVT, SIMT_U32, lo, (opr){ 0 }, (opr){ 0 }, &l) < 0)
		return -1;
	last_stype(s, SIMT_U16);
	if (tw3(s, 32, SIMT_CVT, SIMT_U32, hi, (opr){ 0 }, (opr){ 0 }, &h) < 0)
		return -1;
	last_stype(s, SIMT_U16);
	if (tw3(s, 32, SIMT_SHL, SIMT_U32, h, IMM(16), (opr){ 0 }, &hs) < 0)
		return -1;
	return op2(s, SIMT_OR, SIMT_U32, d, hs, l);
}

static bool half_arith(const ptx_ins *in)
{
	if (in->type != PT_F16 && in->type != PT_F16X2)
		return false;
	switch (in->op) {
	case PO_ADD: case PO_SUB: case PO_MUL: case PO_FMA: case PO_NEG: case PO_ABS: case PO_MIN: case PO_MAX:
		return true;
	default:
		return false;
	}
}

static int lower_half(ts *s, const ptx_ins *in, int d, opr a, opr b, opr c)
{
	if (in->type == PT_F16)
		return lower_half1(s, in, d, a, b, c);
	opr x[3] = { a, b, c }, lo[3] = { { 0 } }, hi[3] = { { 0 } }, rl, rh;
	for (int i = 0; i < 3; i++)
		if (x[i].kind != SIMT_O_NONE && (half_of(s, x[i], false, &lo[i]) < 0 || half_of(s, x[i], true, &hi[i]) < 0))
			return -1;
	int tl = tmp(s, 16), th = tmp(s, 16);
	if (th < 0 || lower_half1(s, in, tl, lo[0], lo[1], lo[2]) < 0 || lower_half1(s, in, th, hi[0], hi[1], hi[2]) < 0)
		return -1;
	rl = R(tl), rh = R(th);
	return pack_halves(s, d, rl, rh);
}

/* cvt between f16 and f32 (isa/'s cvt: to nearest even, IEEE), a NaN
 * made the reference's (0x7fff, 0x7fffffff) */
static int lower_cvt_half(ts *s, unsigned dt, unsigned st, int d, opr a)
{
	if ((dt == SIMT_F16 && st != SIMT_F32) || (st == SIMT_F16 && dt != SIMT_F32))
		return fail(s, "cvt between f16 and an integer is not translated (f16 <-> f32 is)");
	int t = tmp(s, dt == SIMT_F16 ? 16 : 32), p = new_val(s, 1);
	if (p < 0 || in_reg(s, &a, st) < 0 || op2(s, SIMT_CVT, dt, t, a, (opr){ 0 }) < 0)
		return -1;
	last_stype(s, st);
	if (setp(s, p, PC_NAN, dt, R(t), R(t)) < 0)
		return -1;
	return selw(s, dt == SIMT_F16 ? 16 : 32, dt, d, p, IMM(dt == SIMT_F16 ? 0x7fffu : 0x7fffffffu), R(t), NULL);
}

static int lower_arith(ts *s, const ptx_ins *in, unsigned ty, int d, opr a, opr b, opr c)
{
	bool fl = ty == SIMT_F32;
	unsigned opc;
	switch (in->op) {
	case PO_ADD: opc = SIMT_ADD; break;
	case PO_SUB: opc = SIMT_SUB; break;
	case PO_MUL: opc = SIMT_MUL; break;
	case PO_DIV: opc = SIMT_DIV; break;
	case PO_REM: opc = SIMT_REM; break;
	case PO_AND: opc = SIMT_AND; break;
	case PO_OR: opc = SIMT_OR; break;
	case PO_XOR: opc = SIMT_XOR; break;
	case PO_MIN: opc = SIMT_MIN; break;
	case PO_MAX: opc = SIMT_MAX; break;
	case PO_SHL: opc = SIMT_SHL; break;
	case PO_SHR: opc = SIMT_SHR; break;
	default: return fail(s, "not translated");
	}
	if (fl && (in->flags & PF_FTZ))
		return fail(s, ".ftz is not translated: a translated kernel keeps subnormals (IEEE)");
	if (fl && in->mod != PR_NONE && in->mod != PR_RN)
		return fail(s, "the machine's f32 arithmetic rounds to nearest even: .rz, .rm and .rp are not translated");
	if (fl && (in->flags & (PF_APPROX | PF_FULL)))
		return fail(s, "div.approx and div.full are not translated (div.rn is)");
	if (fl && (opc == SIMT_MIN || opc == SIMT_MAX)) {
		if (in_reg(s, &a, ty) < 0 || in_reg(s, &b, ty) < 0)
			return -1;
		return fminmax(s, opc, d, a, b);
	}
	if ((opc == SIMT_DIV || opc == SIMT_REM) && !fl && bits_of_type(ty) == 64)
		return div64(s, ty, opc == SIMT_REM, d, a, b);
	if (opc == SIMT_MUL && !fl) {
		if (in->mod == PM_WIDE) {
			if (bits_of_type(ty) == 16)
				return mul_wide_16(s, ty, d, a, b);
			bool sg = ty == SIMT_S32;
			if (b.kind == SIMT_O_IMM && is_pow2(b.imm & 0xffffffffu) && (b.imm & 0xffffffffu) < (1u << 31)) {
				int w = tmp(s, 64);
				if (w < 0 || in_reg(s, &a, ty) < 0 || widen32(s, w, a, sg) < 0)
					return -1;
				last_stype(s, ty);
				return op2(s, SIMT_SHL, SIMT_U64, d, R(w), IMM(log2u(b.imm & 0xffffffffu)));
			}
			return sg ? mul_wide_s32(s, d, a, b) : mul_wide_u32(s, d, a, b);
		}
		if (in->mod == PM_HI)
			return mul_hi(s, ty, d, a, b);
		if (bits_of_type(ty) == 64) {
			if (b.kind == SIMT_O_IMM && is_pow2(b.imm)) {
				if (in_reg(s, &a, ty) < 0)
					return -1;
				return op2(s, SIMT_SHL, SIMT_U64, d, a, IMM(log2u(b.imm)));
			}
			return mul_lo_64(s, d, a, b);
		}
	}
	if (opc == SIMT_SHL || opc == SIMT_SHR) {
		if (in_reg(s, &a, ty) < 0)
			return -1;
		unsigned w = bits_of_type(ty);
		if (b.kind == SIMT_O_IMM) {
			if (b.imm >= w) { /* PTX clamps the amount: 0, or the sign */
				if (opc == SIMT_SHL || (ty != SIMT_S32 && ty != SIMT_S64 && ty != SIMT_S16))
					return op2(s, SIMT_MOV, ty, d, IMM(0), (opr){ 0 });
				b.imm = w - 1;
			}
			return op2(s, opc, ty, d, a, b);
		}
		/* the amount is a .u32 register: widened or narrowed to the width */
		if (w != 32) {
			int t = tmp(s, w);
			if (t < 0 || op2(s, SIMT_CVT, w == 64 ? SIMT_U64 : SIMT_U16, t, b, (opr){ 0 }) < 0)
				return -1;
			last_stype(s, SIMT_U32);
			if (w == 16) { /* a 16-bit amount past 16 must still clamp */
				int big = new_val(s, 1), lim = tmp(s, 32), z = tmp(s, 16);
				if (z < 0 || op2(s, SIMT_MOV, SIMT_U32, lim, IMM(15), (opr){ 0 }) < 0 ||
				    setp(s, big, PC_GT, SIMT_U32, b, R(lim)) < 0 ||
				    op2(s, SIMT_MOV, SIMT_U16, z, IMM(16), (opr){ 0 }) < 0)
					return -1;
				mop *o = add_mop(s, SIMT_SELP, SIMT_U16);
				if (!o)
					return -1;
				int t2 = tmp(s, 16);
				o->d = t2, o->a = R(z), o->b = R(t), o->pd = big;
				t = t2;
			}
			b = R(t);
		}
		return op2(s, opc, ty, d, a, b);
	}
	if (in_reg(s, &a, ty) < 0 || in_reg(s, &b, ty) < 0)
		return -1;
	(void)c;
	return op2(s, opc, ty, d, a, b);
}

static bool is_alu(unsigned opc)
{
	return opc != SIMT_LD && opc != SIMT_ST && opc != SIMT_ATOM && opc != SIMT_BAR &&
	       opc != SIMT_BRA && opc != SIMT_EXIT && opc != SIMT_PLOG && opc != SIMT_SHFL;
}

/* An ALU operation writing a PTX register it also reads: under a guard
 * it would compute over its own source for the threads it skips. */
static bool alu_reads_own_dest(const ts *s, const mop *x)
{
	if (!is_alu(x->in.opc) || x->d == NONE || (size_t)x->d >= s->k->nregs || x->in.opc == SIMT_MOV)
		return false;
	return (x->a.kind == SIMT_O_REG && x->a.v == x->d) || (x->b.kind == SIMT_O_REG && x->b.v == x->d) ||
	       (x->c.kind == SIMT_O_REG && x->c.v == x->d);
}

/* Operation i computes into a new temporary for every thread, and a
 * copy (the one guarded) follows it. */
static int split_guarded(ts *s, size_t i)
{
	int t = new_val(s, s->v[s->mo[i].d].bits);
	if (t < 0 || !add_mop(s, SIMT_MOV, SIMT_U32))
		return -1;
	memmove(&s->mo[i + 2], &s->mo[i + 1], (s->nmo - i - 2) * sizeof *s->mo);
	mop *x = &s->mo[i], *c = &s->mo[i + 1];
	*c = *x;
	c->in.opc = SIMT_MOV;
	c->in.type = (uint8_t)(s->v[x->d].bits == 64 ? SIMT_U64 : s->v[x->d].bits == 16 ? SIMT_U16 : SIMT_U32);
	c->a = R(t);
	c->b = c->c = (opr){ 0 };
	x->d = t;
	return 0;
}

/* One PTX instruction into operations (the guard is put on them after). */
static int lower(ts *s, const ptx_ins *in, uint32_t idx)
{
	size_t first = s->nmo;
	const ptx_opnd *o = in->o;
	unsigned ty = SIMT_U32;
	bool pred = in->type == PT_PRED;
	if (!pred && in->type != PT_NONE && in->op != PO_CVT && in->op != PO_BAR &&
	    in->op != PO_BARRIER && simt_type_of(s, in->type, &ty) < 0)
		return -1;
	opr a = { 0 }, b = { 0 }, c = { 0 };
	if (in->op != PO_LD && in->op != PO_LDU && in->op != PO_ST && in->op != PO_ATOM &&
	    in->op != PO_RED && in->op != PO_BRA && in->op != PO_CALL) {
		if (in->nops > 1 && o[1].kind != OK_VEC && !pred && src(s, &o[1], &a) < 0)
			return -1;
		if (in->nops > 2 && !pred && in->op != PO_SELP && src(s, &o[2], &b) < 0)
			return -1;
		if (in->nops > 3 && !pred && in->op != PO_SELP && in->op != PO_SETP && src(s, &o[3], &c) < 0)
			return -1;
	}
	int d = o[0].kind == OK_REG ? (int)o[0].r[0] : NONE;
	int rc = 0;
	if (f32_extra(in))
		rc = lower_f32_extra(s, in, d, a, b, c);
	else if (half_arith(in))
		rc = lower_half(s, in, d, a, b, c);
	else switch (in->op) {
	case PO_ADD: case PO_SUB: case PO_MUL: case PO_DIV: case PO_REM:
	case PO_MIN: case PO_MAX: case PO_SHL: case PO_SHR:
		rc = lower_arith(s, in, ty, d, a, b, c);
		break;
	case PO_AND: case PO_OR: case PO_XOR: case PO_NOT:
		if (pred) {
			int pa = (int)o[1].r[0], pb = in->nops > 2 ? (int)o[2].r[0] : NONE;
			bool na = o[1].neg, nb = in->nops > 2 && o[2].neg;
			unsigned op = in->op == PO_AND ? SIMT_PLOG_AND : in->op == PO_OR ? SIMT_PLOG_OR
				: in->op == PO_XOR ? SIMT_PLOG_XOR : SIMT_PLOG_MOV;
			if (in->op == PO_NOT)
				na = !na;
			rc = plog(s, op, d, pa, na, pb, nb);
			break;
		}
		if (in->op == PO_NOT) {
			rc = in_reg(s, &a, ty) < 0 ? -1 : op2(s, SIMT_NOT, ty, d, a, (opr){ 0 });
			break;
		}
		rc = lower_arith(s, in, ty, d, a, b, c);
		break;
	case PO_NEG: case PO_ABS:
		if (ty == SIMT_F32 && (in->flags & PF_FTZ))
			return fail(s, ".ftz is not translated: a translated kernel keeps subnormals (IEEE)");
		rc = in_reg(s, &a, ty) < 0 ? -1 : op2(s, in->op == PO_NEG ? SIMT_NEG : SIMT_ABS, ty, d, a, (opr){ 0 });
		break;
	case PO_MAD:
		if (ty == SIMT_F32) {
			if (in->flags & PF_FTZ)
				return fail(s, ".ftz is not translated: a translated kernel keeps subnormals (IEEE)");
			goto fma;
		}
		if (in->mod == PM_HI && (in->flags & PF_SAT))
			return fail(s, "mad.hi.sat is not translated");
		{
			unsigned w = bits_of_type(ty);
			int p = tmp(s, in->mod == PM_WIDE ? 2 * w : w);
			ptx_ins mul = *in;
			mul.op = PO_MUL;
			if (p < 0 || lower_arith(s, &mul, ty, p, a, b, c) < 0)
				return -1;
			unsigned at = in->mod != PM_WIDE ? ty : w == 16 ? (ty == SIMT_S16 ? SIMT_S32 : SIMT_U32)
				: (ty == SIMT_S32 ? SIMT_S64 : SIMT_U64);
			if (in_reg(s, &c, at) < 0)
				return -1;
			rc = op2(s, SIMT_ADD, at, d, R(p), c);
		}
		break;
	case PO_FMA:
	fma:
		if (in->flags & PF_FTZ)
			return fail(s, ".ftz is not translated: a translated kernel keeps subnormals (IEEE)");
		if (in->mod != PR_RN && in->mod != PR_NONE)
			return fail(s, "fma rounds to nearest even on the machine: .rz, .rm and .rp are not translated");
		if (in_reg(s, &a, ty) < 0 || in_reg(s, &b, ty) < 0 || in_reg(s, &c, ty) < 0)
			return -1;
		rc = op3(s, SIMT_FMA, SIMT_F32, d, a, b, c);
		break;
	case PO_SIN: case PO_COS: case PO_EX2: case PO_LG2:
		if (ty != SIMT_F32 || !(in->flags & PF_APPROX))
			return fail(s, "'%s' is translated as %s.approx.f32 only", ptx_op_name(in->op), ptx_op_name(in->op));
		if (in_reg(s, &a, SIMT_F32) < 0)
			return -1;
		if (in->flags & PF_FTZ) { /* the sequence on the flushed input, the result flushed */
			int t = tmp(s, 32);
			if (t < 0 || flush(s, false, &a) < 0)
				return -1;
			rc = in->op == PO_EX2 ? lower_ex2(s, t, a) : in->op == PO_LG2 ? lower_lg2(s, t, a)
				: lower_sincos(s, t, a, in->op == PO_COS);
			rc = rc < 0 ? -1 : flush_to(s, false, R(t), d, NULL);
			break;
		}
		rc = in->op == PO_EX2 ? lower_ex2(s, d, a) : in->op == PO_LG2 ? lower_lg2(s, d, a)
			: lower_sincos(s, d, a, in->op == PO_COS);
		break;
	case PO_RSQRT:
		if (ty != SIMT_F32 || !(in->flags & PF_APPROX))
			return fail(s, "rsqrt is translated as rsqrt.approx.f32 only");
		if (in_reg(s, &a, SIMT_F32) < 0)
			return -1;
		rc = lower_rsqrt(s, d, a);
		/* .ftz: isa_fp_rsqrt's hardware mode, every step (its result
		 * is never subnormal) */
		for (size_t i = first; rc == 0 && (in->flags & PF_FTZ) && i < s->nmo; i++)
			s->mo[i].in.ftz = 1;
		break;
	case PO_RCP:
		if (ty != SIMT_F32 || (in->flags & (PF_APPROX | PF_FTZ)) || (in->mod != PR_RN && in->mod != PR_NONE))
			return fail(s, "rcp is translated as rcp.rn.f32 only (an IEEE division of 1 by a)");
		{
			opr one = IMM(0x3f800000u);
			if (in_reg(s, &one, SIMT_F32) < 0 || in_reg(s, &a, SIMT_F32) < 0)
				return -1;
			rc = op2(s, SIMT_DIV, SIMT_F32, d, one, a);
		}
		break;
	case PO_SELP: {
		int p;
		bool neg;
		if (src(s, &o[1], &a) < 0 || src(s, &o[2], &b) < 0 || pred_src(s, &o[3], &p, &neg) < 0 ||
		    in_reg(s, &a, ty) < 0 || in_reg(s, &b, ty) < 0)
			return -1;
		mop *x = add_mop(s, SIMT_SELP, ty);
		if (!x)
			return -1;
		x->d = d;
		x->a = neg ? b : a;
		x->b = neg ? a : b;
		x->pd = p;
		break;
	}
	case PO_SETP: {
		int q = o[0].r[1] != PTX_NOREG || in->boolop ? new_val(s, 1) : d;
		if (q < 0 || setp(s, q, in->mod, ty, a, b) < 0)
			return -1;
		/* .ftz: the compares in hardware mode (DAZ, as PTX reads them) */
		for (size_t i = first; (in->flags & PF_FTZ) && i < s->nmo; i++)
			if (s->mo[i].in.opc == SIMT_SETP)
				s->mo[i].in.ftz = 1;
		if (!in->boolop && o[0].r[1] == PTX_NOREG)
			break;
		int e = NONE;
		bool en = false;
		if (in->boolop && pred_src(s, &o[3], &e, &en) < 0)
			return -1;
		unsigned bop = in->boolop == PB_AND ? SIMT_PLOG_AND : in->boolop == PB_OR ? SIMT_PLOG_OR : SIMT_PLOG_XOR;
		/* p = r op e, q = !r op e */
		if (in->boolop)
			rc = plog(s, bop, d, q, false, e, en);
		else
			rc = plog(s, SIMT_PLOG_MOV, d, q, false, NONE, false);
		if (!rc && o[0].r[1] != PTX_NOREG)
			rc = in->boolop ? plog(s, bop, (int)o[0].r[1], q, true, e, en)
				: plog(s, SIMT_PLOG_MOV, (int)o[0].r[1], q, true, NONE, false);
		break;
	}
	case PO_MOV:
		if (pred) {
			int p;
			bool neg;
			if (pred_src(s, &o[1], &p, &neg) < 0)
				return -1;
			rc = plog(s, SIMT_PLOG_MOV, d, p, neg, NONE, false);
			break;
		}
		if (o[0].kind == OK_VEC || o[1].kind == OK_VEC) {
			const ptx_opnd *v = o[0].kind == OK_VEC ? &o[0] : &o[1];
			unsigned eb = s->k->regbits[v->r[0]];
			if (eb == 16 && v->n == 2 && bits_of_type(ty) == 32) { /* f16x2 and b16 pairs */
				if (o[0].kind == OK_VEC) {
					opr l, h;
					rc = half_of(s, R((int)o[1].r[0]), false, &l) < 0 ||
					     half_of(s, R((int)o[1].r[0]), true, &h) < 0 ||
					     op2(s, SIMT_MOV, SIMT_U16, (int)v->r[0], l, (opr){ 0 }) < 0 ||
					     op2(s, SIMT_MOV, SIMT_U16, (int)v->r[1], h, (opr){ 0 }) < 0 ? -1 : 0;
				} else {
					rc = pack_halves(s, d, R((int)v->r[0]), R((int)v->r[1]));
				}
				break;
			}
			if (eb != 32 || v->n != 2 || bits_of_type(ty) != 64)
				return fail(s, "mov packs and unpacks two 32-bit halves of a 64-bit register only");
			for (unsigned i = 0; i < 2 && !rc; i++) {
				if (o[0].kind == OK_VEC) { /* unpack */
					rc = op2(s, SIMT_MOV, SIMT_U32, (int)v->r[i], RH((int)o[1].r[0], i), (opr){ 0 });
				} else {
					rc = op2(s, SIMT_MOV, SIMT_U32, d, R((int)v->r[i]), (opr){ 0 });
					if (!rc) {
						s->mo[s->nmo - 1].dpart = true;
						s->mo[s->nmo - 1].dhalf = (uint8_t)i;
					}
				}
			}
			break;
		}
		rc = op2(s, SIMT_MOV, a.kind == SIMT_O_SPECIAL ? SIMT_U32 : ty, d, a, (opr){ 0 });
		break;
	case PO_CVTA:
		rc = op2(s, SIMT_MOV, ty, d, a, (opr){ 0 });
		break;
	case PO_CVT:
		rc = lower_cvt(s, in, d, a);
		break;
	case PO_LD: case PO_LDU: case PO_ST:
		rc = lower_ldst(s, in, idx);
		break;
	case PO_ATOM: case PO_RED: {
		bool red = in->op == PO_RED;
		static const uint8_t amap[] = { SIMT_ATOM_ADD, SIMT_ATOM_MIN, SIMT_ATOM_MAX, SIMT_ATOM_EXCH,
			SIMT_ATOM_CAS, SIMT_ATOM_AND, SIMT_ATOM_OR, SIMT_ATOM_XOR, SIMT_ATOM_INC, SIMT_ATOM_DEC };
		uint8_t space = 0;
		if (space_of(s, in->space, &space) < 0)
			return -1;
		if (space == SIMT_SPACE_PARAM)
			return fail(s, "an atomic on .param space");
		if (src(s, &o[red ? 1 : 2], &b) < 0 || (in->nops > 3 && src(s, &o[3], &c) < 0) ||
		    in_reg(s, &b, ty) < 0 || in_reg(s, &c, ty) < 0)
			return -1;
		mop *x = add_mop(s, SIMT_ATOM, ty);
		if (!x || address(s, x, in, &o[red ? 0 : 1]) < 0)
			return -1;
		x->in.space = space;
		x->in.cmp = amap[in->mod];
		x->b = b;
		x->c = c;
		x->d = red ? tmp(s, bits_of_type(ty)) : d;
		break;
	}
	case PO_CALL:
		rc = lower_call(s, in);
		break;
	case PO_VOTE:
		if (o[2].kind != OK_IMM || (uint32_t)o[2].imm != 0xffffffffu)
			rc = lower_vote_masked(s, in);
		else
			rc = lower_vote(s, in);
		break;
	case PO_SHFL: {
		/* the machine's crossbar with PTX's warp lanes (simt.h) */
		static const uint8_t mode[] = { [PM_UP] = SIMT_SHFL_UP, [PM_DOWN] = SIMT_SHFL_DOWN,
						[PM_BFLY] = SIMT_SHFL_BFLY, [PM_IDX] = SIMT_SHFL_IDX };
		/* a member mask other than all ones is the crossbar's c,
		 * which it checks as the reference does (crossbar.c) */
		opr mk = { 0 };
		if (shfl_mask(s, &o[4], &mk) < 0)
			return -1;
		if (o[0].r[1] != PTX_NOREG || o[3].kind != OK_IMM) {
			rc = lower_shfl_lanes(s, in->mod, d, o[0].r[1] != PTX_NOREG ? (int)o[0].r[1] : NONE, a, b, c, mk);
			break;
		}
		if (in_reg(s, &a, SIMT_U32) < 0)
			return -1;
		mop *x = add_mop(s, SIMT_SHFL, SIMT_U32);
		if (!x)
			return -1;
		x->in.cmp = mode[in->mod];
		x->in.off = (int32_t)(SIMT_SHFL_WARP | ((uint32_t)o[3].imm & 0x1f1f));
		x->a = a;
		x->b = b;
		x->c = mk;
		x->d = d;
		break;
	}
	case PO_BAR: case PO_BARRIER:
		if (in->nops >= 1 && (o[0].kind != OK_IMM || o[0].imm != 0))
			return fail(s, "only barrier 0 (bar.sync 0, __syncthreads) is translated");
		if (in->nops > 1)
			return fail(s, "a barrier with a thread count is not translated");
		rc = add_mop(s, SIMT_BAR, SIMT_U32) ? 0 : -1;
		break;
	case PO_BFE:
		rc = lower_bfe(s, ty, d, a, b, c);
		break;
	case PO_SHF:
		rc = lower_shf(s, in, d, a, b, c);
		break;
	case PO_POPC: case PO_CLZ: case PO_BREV:
		rc = lower_bits(s, in, ty, d, a);
		break;
	case PO_MEMBAR: case PO_FENCE:
		/* a CB's threads run in lockstep on one memory: already ordered */
		break;
	case PO_BRA: {
		mop *x = add_mop(s, SIMT_BRA, SIMT_U32);
		if (!x)
			return -1;
		x->in.target = (uint32_t)o[0].imm; /* fixed up to a bundle */
		break;
	}
	case PO_RET: case PO_EXIT:
		rc = add_mop(s, SIMT_EXIT, SIMT_U32) ? 0 : -1;
		break;
	default:
		return fail(s, "'%s' is not translated to the SIMT machine yet", ptx_op_name(in->op));
	}
	if (rc < 0)
		return -1;
	(void)idx;
	/* The guard goes on what changes state: every operation that writes
	 * a PTX register or memory, or branches.  Temporaries computed for
	 * every thread are harmless, but a load or an atomic is guarded too
	 * (its address may be wild for the threads it skips). */
	if (in->guard != PTX_NOREG)
		for (size_t i = first; i < s->nmo; i++) {
			mop *x = &s->mo[i];
			if (alu_reads_own_dest(s, x) && split_guarded(s, i) < 0)
				return -1;
			x = &s->mo[i];
			bool ptx_def = (x->d != NONE && (size_t)x->d < s->k->nregs) ||
				(x->pd != NONE && (size_t)x->pd < s->k->nregs && x->in.opc != SIMT_SELP);
			if (ptx_def || x->in.opc == SIMT_LD || x->in.opc == SIMT_ST || x->in.opc == SIMT_ATOM ||
			    x->in.opc == SIMT_BRA || x->in.opc == SIMT_EXIT || x->in.opc == SIMT_BAR) {
				x->guard = (int)in->guard;
				x->gneg = in->guard_neg;
			}
		}
	return 0;
}

/* ---- blocks and liveness ---- */

static void set_bit(uint64_t *s, uint32_t r) { s[r / 64] |= UINT64_C(1) << (r % 64); }
static bool get_bit(const uint64_t *s, uint32_t r) { return (s[r / 64] >> (r % 64)) & 1; }

/* The PTX registers an instruction reads (uses) and writes (defs). */
static void ins_regs(const ptx_ins *in, uint64_t *use, uint64_t *def)
{
	bool st = in->op == PO_ST || in->op == PO_RED || in->op == PO_BRA || in->op == PO_BAR ||
		  in->op == PO_BARRIER;
	for (unsigned k = 0; k < in->nops && k < 5; k++) {
		const ptx_opnd *o = &in->o[k];
		bool dst = k == 0 && !st;
		unsigned n = o->kind == OK_VEC ? o->n : o->kind == OK_REG || o->kind == OK_ADDR ? 1 : 0;
		for (unsigned i = 0; i < n; i++) {
			uint32_t r = o->r[i];
			if (r == PTX_NOREG)
				continue;
			set_bit(dst ? def : use, r);
			if (dst && in->guard != PTX_NOREG)
				set_bit(use, r);
		}
		if (dst && o->kind == OK_REG && o->r[1] != PTX_NOREG)
			set_bit(def, o->r[1]);
		if (dst && o->kind == OK_VEC && in->guard != PTX_NOREG)
			for (unsigned i = 0; i < o->n; i++)
				set_bit(use, o->r[i]);
	}
	if (in->guard != PTX_NOREG)
		set_bit(use, in->guard);
}

static bool ends_block(const ptx_ins *in)
{
	return in->op == PO_BRA || in->op == PO_RET || in->op == PO_EXIT;
}

static int blocks(ts *s)
{
	const ptx_kernel *k = s->k;
	bool *lead = calloc(k->nins + 1, 1);
	s->blk_of = calloc(k->nins + 1, sizeof *s->blk_of);
	if (!lead || !s->blk_of)
		return free(lead), oom(s);
	lead[0] = true;
	for (size_t i = 0; i < k->nins; i++) {
		const ptx_ins *in = &k->ins[i];
		if (in->op == PO_BRA && in->o[0].imm <= k->nins)
			lead[in->o[0].imm] = true;
		if (ends_block(in))
			lead[i + 1] = true;
	}
	size_t n = 0;
	for (size_t i = 0; i < k->nins; i++)
		n += lead[i];
	s->b = calloc(n + 1, sizeof *s->b);
	s->words = (k->nregs + 63) / 64 + 1;
	uint64_t *bits = s->b ? calloc((n + 1) * 2 * s->words, sizeof *bits) : NULL;
	if (!bits) {
		free(lead);
		return oom(s);
	}
	size_t j = 0;
	for (size_t i = 0; i < k->nins; i++) {
		if (lead[i]) {
			if (j)
				s->b[j - 1].end = (uint32_t)i;
			s->b[j].first = (uint32_t)i;
			s->b[j].in = bits + 2 * j * s->words;
			s->b[j].out = s->b[j].in + s->words;
			j++;
		}
		s->blk_of[i] = (uint32_t)(j - 1);
	}
	if (j)
		s->b[j - 1].end = (uint32_t)k->nins;
	s->blk_of[k->nins] = (uint32_t)j;
	s->nb = j;
	free(lead);
	return 0;
}

static int liveness(ts *s)
{
	size_t W = s->words;
	uint64_t *use = calloc(s->nb * 2 * W + 3 * W, sizeof *use);
	if (!use)
		return oom(s);
	uint64_t *def = use + s->nb * W, *iu = def + s->nb * W, *id = iu + W, *out = id + W;
	for (size_t j = 0; j < s->nb; j++) {
		blk *b = &s->b[j];
		for (uint32_t i = b->first; i < b->end; i++) {
			memset(iu, 0, 2 * W * sizeof *iu);
			ins_regs(&s->k->ins[i], iu, id);
			for (size_t w = 0; w < W; w++) {
				use[j * W + w] |= iu[w] & ~def[j * W + w];
				def[j * W + w] |= id[w];
			}
		}
	}
	for (bool changed = true; changed;) {
		changed = false;
		for (size_t j = s->nb; j-- > 0;) {
			blk *b = &s->b[j];
			const ptx_ins *last = &s->k->ins[b->end - 1];
			memset(out, 0, W * sizeof *out);
			bool falls = !(ends_block(last) && last->guard == PTX_NOREG);
			if (falls && j + 1 < s->nb)
				for (size_t w = 0; w < W; w++)
					out[w] |= s->b[j + 1].in[w];
			if (last->op == PO_BRA) {
				uint32_t t = s->blk_of[last->o[0].imm];
				if (t < s->nb)
					for (size_t w = 0; w < W; w++)
						out[w] |= s->b[t].in[w];
			}
			for (size_t w = 0; w < W; w++) {
				uint64_t in = use[j * W + w] | (out[w] & ~def[j * W + w]);
				if (in != b->in[w] || out[w] != b->out[w])
					changed = true;
				b->in[w] = in;
				b->out[w] = out[w];
			}
		}
	}
	free(use);
	return 0;
}

/* ---- allocation and emission ---- */

static unsigned nunits(const ts *s, int v) { return s->v[v].bits == 64 ? 2 : 1; }

/* Is value v read after operation i of the block? */
static bool needed(const ts *s, int v, uint32_t i)
{
	if ((size_t)v < s->k->nregs && get_bit(s->cur->out, (uint32_t)v))
		return true;
	return s->v[v].last > i;
}

/* Is v needed by the operation being emitted or a later one?  Evictions
 * come before the operation's own instruction, so a source it reads for
 * the last time is still needed: a predicate's reload may take its unit
 * (scratch_val pins nothing), and it must go home first. */
static bool needed_now(const ts *s, int v)
{
	if ((size_t)v < s->k->nregs && get_bit(s->cur->out, (uint32_t)v))
		return true;
	return s->v[v].last >= s->now;
}

static int put(ts *s, const simt_instr *in)
{
	if (s->L.n == s->L.cap) {
		size_t cap = s->L.cap ? s->L.cap * 2 : 64;
		simt_instr *n = realloc(s->L.in, cap * sizeof *n);
		if (n)
			s->L.in = n;
		int *e = n ? realloc(s->L.ev, cap * sizeof *e) : NULL;
		if (e)
			s->L.ev = e;
		uint16_t *l = e ? realloc(s->L.loc, cap * sizeof *l) : NULL;
		if (l)
			s->L.loc = l;
		uint32_t *a = l ? realloc(s->L.at, cap * sizeof *a) : NULL;
		if (a)
			s->L.at = a;
		bool *df = a ? realloc(s->L.def, cap * sizeof *df) : NULL;
		if (!df)
			return oom(s);
		s->L.def = df;
		s->L.cap = cap;
	}
	s->L.ev[s->L.n] = NONE;
	s->L.loc[s->L.n] = SIMT_LOC_NONE;
	s->L.at[s->L.n] = 0;
	s->L.def[s->L.n] = false;
	s->L.in[s->L.n++] = *in;
	return 0;
}

/* The instruction just put leaves value v (a PTX register, or else
 * nothing to note) at loc. */
static void note(const ts *s, int v, unsigned loc)
{
	if (v >= 0 && (size_t)v < s->k->nregs && s->L.n) {
		s->L.ev[s->L.n - 1] = v;
		s->L.loc[s->L.n - 1] = (uint16_t)loc;
	}
}

static uint8_t reg_of(const ts *s, int v, unsigned half)
{
	return (uint8_t)(s->v[v].arr * NU + s->v[v].unit + (int)half);
}

static simt_instr blank(const ts *s, unsigned opc, unsigned type)
{
	simt_instr in;
	memset(&in, 0, sizeof in);
	in.opc = (uint8_t)opc;
	in.type = (uint8_t)type;
	in.guard = -1;
	in.line = s->line;
	in.col = s->col;
	in.scratch = NU;
	return in;
}

/* A temporary's home may be one a dead temporary had: temporaries live
 * in one block, and the block's memory operations keep their order in
 * the bundles (the scheduler's RES_MEM), so the old value's last load
 * comes before the new one's store.  Long lowerings (64-bit division)
 * spill many short-lived temporaries.  Only the block's own temporaries
 * are looked at (the scan stays as short as the block). */
static bool reuse_home(ts *s, int v, unsigned n)
{
	if ((size_t)v < s->k->nregs)
		return false;
	size_t from = s->v_block > s->k->nregs ? s->v_block : s->k->nregs;
	for (size_t u = from; u < s->nv; u++) {
		val *x = &s->v[u];
		if ((int)u == v || x->home == NONE || x->last >= s->now || (x->bits == 64 ? 8u : 4u) != n)
			continue;
		s->v[v].home = x->home;
		x->home = NONE;
		return true;
	}
	return false;
}

static int home_of(ts *s, int v)
{
	if (s->v[v].home != NONE)
		return 0;
	unsigned n = s->v[v].bits == 64 ? 8 : 4;
	if (reuse_home(s, v, n))
		return 0;
	if (s->local_bytes + n > SIMT_LOCAL_MAX)
		return fail(s, "its values live across blocks need more than the %d bytes of local memory a thread has",
			    SIMT_LOCAL_MAX);
	s->v[v].home = (int)s->local_bytes;
	s->local_bytes += n;
	return 0;
}

static void drop(ts *s, int v)
{
	val *x = &s->v[v];
	if (x->bits == 1) {
		if (x->unit >= 0)
			s->powner[x->unit] = NONE;
	} else if (x->arr >= 0) {
		for (unsigned u = 0; u < nunits(s, v); u++)
			s->owner[x->arr][x->unit + (int)u] = NONE;
	}
	x->arr = x->unit = -1;
	x->dirty = false;
}

static int unit_take(ts *s, unsigned a, unsigned u, int v)
{
	val *x = &s->v[v];
	x->arr = (int8_t)a;
	x->unit = (int8_t)u;
	for (unsigned i = 0; i < nunits(s, v); i++)
		s->owner[a][u + i] = v;
	return 0;
}

static int pspill(ts *s, int p);

/* Store v home if it is newer there and still needed; free its units. */
static int evict(ts *s, int v)
{
	val *x = &s->v[v];
	if (x->bits == 1)
		return pspill(s, v);
	if (x->dirty && needed_now(s, v)) {
		if (home_of(s, v) < 0)
			return -1;
		for (unsigned h = 0; h < nunits(s, v); h++) {
			simt_instr in = blank(s, SIMT_ST, SIMT_U32);
			in.space = SIMT_SPACE_LOCAL;
			in.local = 1;
			in.a.kind = SIMT_O_IMM;
			in.a.imm = (uint64_t)x->home + 4 * h;
			in.b.kind = SIMT_O_REG;
			in.b.reg = reg_of(s, v, h);
			if (put(s, &in) < 0)
				return -1;
			if (h + 1 == nunits(s, v))
				note(s, v, SIMT_LOC_HOME + (unsigned)x->home);
		}
	}
	drop(s, v);
	return 0;
}

/* A free place for n units (n = 2: an even pair) below top in array a. */
static int free_at(const ts *s, unsigned a, unsigned n, unsigned top)
{
	for (unsigned u = 0; u + n <= top; u += n)
		if (s->owner[a][u] == NONE && (n == 1 || s->owner[a][u + 1] == NONE))
			return (int)u;
	return -1;
}

static bool pinned(const int *pin, int v)
{
	for (int i = 0; i < 8; i++)
		if (pin[i] == v)
			return true;
	return false;
}

/* Room for n units below top in array a, evicting the values touched
 * longest ago (never those pinned). */
static int room(ts *s, unsigned a, unsigned n, unsigned top, const int *pin)
{
	for (;;) {
		int u = free_at(s, a, n, top);
		if (u >= 0)
			return u;
		int best = -1;
		uint32_t bt = UINT32_MAX;
		for (unsigned g = 0; g + n <= top; g += n) {
			uint32_t t = 0;
			bool ok = true;
			for (unsigned i = 0; i < n; i++) {
				int o = s->owner[a][g + i];
				if (o != NONE && pinned(pin, o))
					ok = false;
				else if (o != NONE && s->v[o].touch + 1 > t)
					t = s->v[o].touch + 1;
			}
			if (ok && t < bt)
				bt = t, best = (int)g;
		}
		if (best < 0)
			return fail(s, "the operation's values and its micro-program's scratch do not fit one array");
		for (unsigned i = 0; i < n; i++) {
			int o = s->owner[a][best + (int)i];
			if (o != NONE && evict(s, o) < 0)
				return -1;
		}
	}
}

static unsigned free_units(const ts *s, unsigned a)
{
	unsigned n = 0;
	for (unsigned u = 0; u < NU; u++)
		n += s->owner[a][u] == NONE;
	return n;
}

static unsigned roomiest(const ts *s)
{
	unsigned best = 0;
	for (unsigned a = 1; a < s->narr; a++)
		if (free_units(s, a) > free_units(s, best))
			best = a;
	return best;
}

/* Value v into array a below top (a < 0: wherever it is, or the roomiest
 * array): copied there, loaded from home, or zero if never written. */
static int bring(ts *s, int v, int a, unsigned top, const int *pin)
{
	val *x = &s->v[v];
	x->touch = s->now;
	if (x->arr >= 0 && (a < 0 || (x->arr == a && (unsigned)x->unit + nunits(s, v) <= top)))
		return 0;
	unsigned to = a < 0 ? roomiest(s) : (unsigned)a;
	unsigned ty = x->bits == 64 ? SIMT_U64 : SIMT_U32;
	if (x->arr >= 0) {
		/* out of the scratch, or from another array: a copy */
		int8_t oa = x->arr, ou = x->unit;
		bool dirty = x->dirty;
		for (unsigned i = 0; i < nunits(s, v); i++)
			s->owner[oa][ou + (int)i] = NONE;
		int u = room(s, to, nunits(s, v), top, pin);
		if (u < 0)
			return -1;
		simt_instr in = blank(s, SIMT_MOV, ty);
		in.a.kind = SIMT_O_REG;
		in.a.reg = (uint8_t)(oa * NU + ou);
		in.d = (uint8_t)(to * NU + (unsigned)u);
		unit_take(s, to, (unsigned)u, v);
		x->dirty = dirty;
		if (put(s, &in) < 0)
			return -1;
		note(s, v, SIMT_LOC_REG + in.d);
		return 0;
	}
	int u = room(s, to, nunits(s, v), top, pin);
	if (u < 0)
		return -1;
	unit_take(s, to, (unsigned)u, v);
	x->dirty = false;
	if (x->home == NONE) {
		simt_instr in = blank(s, SIMT_MOV, ty);
		in.a.kind = SIMT_O_IMM;
		in.d = reg_of(s, v, 0);
		if (put(s, &in) < 0)
			return -1;
		note(s, v, SIMT_LOC_REG + in.d);
		return 0;
	}
	for (unsigned h = 0; h < nunits(s, v); h++) {
		simt_instr in = blank(s, SIMT_LD, SIMT_U32);
		in.space = SIMT_SPACE_LOCAL;
		in.local = 1;
		in.a.kind = SIMT_O_IMM;
		in.a.imm = (uint64_t)x->home + 4 * h;
		in.d = reg_of(s, v, h);
		if (put(s, &in) < 0)
			return -1;
		if (h + 1 == nunits(s, v))
			note(s, v, SIMT_LOC_REG + reg_of(s, v, 0));
	}
	return 0;
}

/* A unit for a temporary of this block's own (pred spills and reloads). */
static int scratch_val(ts *s, const int *pin)
{
	int t = new_val(s, 32);
	if (t < 0)
		return -1;
	unsigned a = roomiest(s);
	int u = room(s, a, 1, NU, pin);
	if (u < 0)
		return -1;
	unit_take(s, a, (unsigned)u, t);
	return t;
}

static int set_imm(ts *s, int t, uint64_t imm, int guard)
{
	simt_instr in = blank(s, SIMT_MOV, SIMT_U32);
	in.a.kind = SIMT_O_IMM;
	in.a.imm = imm;
	in.d = reg_of(s, t, 0);
	in.guard = (int8_t)guard;
	return put(s, &in);
}

/* A predicate to its home: 0, then 1 where it holds, stored. */
static int pspill(ts *s, int p)
{
	val *x = &s->v[p];
	if (x->dirty && needed_now(s, p)) {
		int pin[8] = { NONE, NONE, NONE, NONE, NONE, NONE, NONE, NONE };
		int t = scratch_val(s, pin);
		if (t < 0 || home_of(s, p) < 0 || set_imm(s, t, 0, -1) < 0 || set_imm(s, t, 1, x->unit) < 0)
			return -1;
		simt_instr in = blank(s, SIMT_ST, SIMT_U32);
		in.space = SIMT_SPACE_LOCAL;
		in.local = 1;
		in.a.kind = SIMT_O_IMM;
		in.a.imm = (uint64_t)x->home;
		in.b.kind = SIMT_O_REG;
		in.b.reg = reg_of(s, t, 0);
		if (put(s, &in) < 0)
			return -1;
		note(s, p, SIMT_LOC_HOME + (unsigned)x->home);
		drop(s, t);
	}
	drop(s, p);
	return 0;
}

/* Predicate p into a latch (load: its home word compared with 0). */
static int pbring(ts *s, int p, const int *ppin, bool load)
{
	val *x = &s->v[p];
	x->touch = s->now;
	if (x->unit >= 0)
		return 0;
	int l = -1;
	for (;;) {
		for (unsigned i = 0; i < SIMT_PREDS && l < 0; i++)
			if (s->powner[i] == NONE)
				l = (int)i;
		if (l >= 0)
			break;
		int victim = NONE;
		uint32_t bt = UINT32_MAX;
		for (unsigned i = 0; i < SIMT_PREDS; i++) {
			int o = s->powner[i];
			if (!pinned(ppin, o) && s->v[o].touch < bt)
				bt = s->v[o].touch, victim = o;
		}
		if (victim == NONE)
			return fail(s, "more predicates at once than the machine's %d latches", SIMT_PREDS);
		if (pspill(s, victim) < 0)
			return -1;
	}
	s->powner[l] = p;
	x->unit = (int8_t)l;
	x->dirty = false;
	if (!load)
		return 0;
	int pin[8] = { NONE, NONE, NONE, NONE, NONE, NONE, NONE, NONE };
	int t = scratch_val(s, pin);
	if (t < 0)
		return -1;
	pin[0] = t;
	int z = new_val(s, 32);
	if (z < 0)
		return -1;
	int u = room(s, (unsigned)s->v[t].arr, 1, NU, pin);
	if (u < 0)
		return -1;
	unit_take(s, (unsigned)s->v[t].arr, (unsigned)u, z);
	if (x->home == NONE) { /* never written: false */
		if (set_imm(s, t, 0, -1) < 0)
			return -1;
	} else {
		simt_instr in = blank(s, SIMT_LD, SIMT_U32);
		in.space = SIMT_SPACE_LOCAL;
		in.local = 1;
		in.a.kind = SIMT_O_IMM;
		in.a.imm = (uint64_t)x->home;
		in.d = reg_of(s, t, 0);
		if (put(s, &in) < 0)
			return -1;
	}
	if (set_imm(s, z, 0, -1) < 0)
		return -1;
	simt_instr in = blank(s, SIMT_SETP, SIMT_U32);
	in.cmp = SIMT_NE;
	in.pd = (uint8_t)l;
	in.a.kind = in.b.kind = SIMT_O_REG;
	in.a.reg = reg_of(s, t, 0);
	in.b.reg = reg_of(s, z, 0);
	drop(s, t);
	drop(s, z);
	if (put(s, &in) < 0)
		return -1;
	note(s, p, SIMT_LOC_PRED + (unsigned)l);
	return 0;
}

/* Units of scratch the operation's micro-program needs above its
 * registers (isa_check's rules for the command). */
static unsigned scratch_need(const simt_instr *in)
{
	static const char *const cmp[] = { "eq", "ne", "lt", "le", "gt", "ge" };
	bool fl = in->type == SIMT_F32 || in->type == SIMT_F16;
	bool sg = simt_type_signed(in->type);
	bool imm = in->b.kind == SIMT_O_IMM;
	const char *name;
	switch (in->opc) {
	case SIMT_ADD: name = "add"; break;
	case SIMT_SUB: name = "sub"; break;
	case SIMT_MUL: name = "mul"; break;
	case SIMT_DIV: name = "div"; break;
	case SIMT_REM: name = "rem"; break;
	case SIMT_MIN: name = "min"; break;
	case SIMT_MAX: name = "max"; break;
	case SIMT_ABS: name = "abs"; break;
	case SIMT_NEG: name = "neg"; break;
	case SIMT_SHL: name = imm ? "shli" : "shl"; break;
	case SIMT_SHR: name = sg ? (imm ? "srai" : "sra") : (imm ? "shri" : "shr"); break;
	case SIMT_SETP: name = cmp[in->cmp]; break;
	case SIMT_FMA: name = "fma"; break;
	case SIMT_SIN: name = "sin"; break;
	case SIMT_COS: name = "cos"; break;
	case SIMT_EXP: name = "exp"; break;
	case SIMT_LOG: name = "log"; break;
	case SIMT_CVT:
		if (in->type != SIMT_F32 && in->stype != SIMT_F32 && in->type != SIMT_F16 && in->stype != SIMT_F16)
			return 0;
		name = "cvt";
		break;
	default: return 0; /* copies, logic, set, sel: in place */
	}
	isa_cmd c;
	memset(&c, 0, sizeof c);
	const unsigned fmt = in->type == SIMT_F16 ? ISA_FMT_F16 : fl ? ISA_FMT_F32
		: in->type == SIMT_Q32 ? ISA_FMT_FIX : ISA_FMT_INT;
	int op = !strcmp(name, "cvt") ? ISA_CVT : isa_lookup_fmt(name, fmt);
	if (op < 0)
		return 0; /* the machine names the missing command at run time */
	c.op = (uint16_t)op;
	c.width = (uint8_t)simt_type_bits(in->type);
	c.fmt = (uint8_t)fmt;
	c.is_signed = fl || sg;
	if (in->opc == SIMT_CVT) {
		c.sfmt = (uint8_t)(in->stype == SIMT_F32 ? ISA_FMT_F32 : in->stype == SIMT_F16 ? ISA_FMT_F16
				   : in->stype == SIMT_Q32 ? ISA_FMT_FIX : ISA_FMT_INT);
		c.swidth = (uint8_t)simt_type_bits(in->stype);
		c.ssigned = in->stype == SIMT_F32 || simt_type_signed(in->stype);
	}
	c.flags = in->ftz ? 0 : ISA_FL_IEEE;
	c.iters = ISA_CORDIC_DEFAULT;
	c.d = in->opc == SIMT_SETP ? ISA_TAG : 0;
	c.a = 64;
	c.b = in->opc == SIMT_CVT || in->opc == SIMT_ABS || in->opc == SIMT_NEG || in->opc >= SIMT_SIN ||
	      imm ? ISA_NONE : 128;
	c.c3 = in->opc == SIMT_FMA ? 192 : ISA_NONE;
	c.d2 = ISA_NONE;
	c.imm = imm ? in->b.imm : 0;
	isa_rules r;
	memset(&r, 0, sizeof r);
	(void)isa_check(&c, SIMT_WORDLINES, SIMT_TB_THREADS, &r);
	return (r.scratch_rows + SIMT_REG_BITS - 1) / SIMT_REG_BITS;
}

static void pin_add(int *pin, int v)
{
	for (int i = 0; i < 8; i++)
		if (pin[i] == NONE || pin[i] == v) {
			pin[i] = v;
			return;
		}
}

static void operand(const ts *s, simt_operand *o, const opr *x)
{
	o->kind = x->kind;
	if (x->kind == SIMT_O_REG)
		o->reg = reg_of(s, x->v, x->half);
	else if (x->kind == SIMT_O_SPECIAL)
		o->reg = x->sp;
	else
		o->imm = x->imm;
}


/* Emit operation m (index i of the block's list). */
static int emit_mop(ts *s, const mop *m, uint32_t i)
{
	s->now = i;
	s->line = m->in.line;
	s->col = m->in.col;
	simt_instr in = m->in;
	in.scratch = NU;
	unsigned opc = in.opc;
	int pin[8], ppin[8];
	for (int j = 0; j < 8; j++)
		pin[j] = ppin[j] = NONE;
	const opr *src[3] = { &m->a, &m->b, &m->c };
	for (int j = 0; j < 3; j++)
		if (src[j]->kind == SIMT_O_REG)
			pin_add(pin, src[j]->v);
	if (m->d != NONE)
		pin_add(pin, m->d);
	/* predicates first: their reloads use units of their own */
	int pr[3] = { m->guard, opc == SIMT_SELP ? m->pd : m->pa, m->pb };
	for (int j = 0; j < 3; j++)
		if (pr[j] != NONE)
			pin_add(ppin, pr[j]);
	if ((opc == SIMT_SETP || opc == SIMT_PLOG) && m->pd != NONE)
		pin_add(ppin, m->pd);
	for (int j = 0; j < 3; j++)
		if (pr[j] != NONE && pbring(s, pr[j], ppin, true) < 0)
			return -1;
	bool in_place = m->guard != NONE || m->dpart;
	if ((opc == SIMT_SETP || opc == SIMT_PLOG) && pbring(s, m->pd, ppin, in_place) < 0)
		return -1;
	bool alu = is_alu(opc) && opc != SIMT_MOV;
	int A = -1;
	unsigned top = NU;
	if (alu) {
		unsigned cnt[SIMT_ARRAYS] = { 0 };
		for (int j = 0; j < 3; j++)
			if (src[j]->kind == SIMT_O_REG && s->v[src[j]->v].arr >= 0)
				cnt[s->v[src[j]->v].arr] += nunits(s, src[j]->v);
		A = (int)roomiest(s);
		for (unsigned a = 0; a < s->narr; a++)
			if (cnt[a] > cnt[A])
				A = (int)a;
		top = NU - scratch_need(&in);
		for (unsigned u = top; u < NU; u++)
			if (s->owner[A][u] != NONE && evict(s, s->owner[A][u]) < 0)
				return -1;
	} else if (opc == SIMT_MOV && m->a.kind == SIMT_O_REG) {
		if (bring(s, m->a.v, -1, NU, pin) < 0)
			return -1;
		A = s->v[m->a.v].arr;
		if (free_at(s, (unsigned)A, m->d != NONE ? nunits(s, m->d) : 1, NU) < 0)
			A = (int)roomiest(s);
	}
	for (int j = 0; j < 3; j++)
		if (src[j]->kind == SIMT_O_REG && bring(s, src[j]->v, A, top, pin) < 0)
			return -1;
	operand(s, &in.a, &m->a);
	operand(s, &in.b, &m->b);
	operand(s, &in.c, &m->c);
	/* the destination: its own units when the threads it skips keep it */
	int old_arr = -1, old_unit = -1;
	if (m->d != NONE) {
		val *x = &s->v[m->d];
		if (in_place) {
			if (bring(s, m->d, A, top, pin) < 0)
				return -1;
		} else {
			old_arr = x->arr;
			old_unit = x->unit;
			if (old_arr >= 0)
				for (unsigned h = 0; h < nunits(s, m->d); h++)
					s->owner[old_arr][old_unit + (int)h] = NONE;
			unsigned to = A >= 0 ? (unsigned)A : roomiest(s);
			/* the old units stay out of reach until it has run */
			if (old_arr >= 0)
				for (unsigned h = 0; h < nunits(s, m->d); h++)
					s->owner[old_arr][old_unit + (int)h] = m->d;
			int u = room(s, to, nunits(s, m->d), top, pin);
			if (u < 0)
				return -1;
			if (old_arr >= 0)
				for (unsigned h = 0; h < nunits(s, m->d); h++)
					s->owner[old_arr][old_unit + (int)h] = NONE;
			unit_take(s, to, (unsigned)u, m->d);
		}
		x->touch = i;
	}
	/* the instruction */
	if (opc == SIMT_MOV && in.a.kind == SIMT_O_IMM && simt_type_bits(in.type) < 64)
		in.a.imm &= (UINT64_C(1) << simt_type_bits(in.type)) - 1;
	if (m->d != NONE)
		in.d = reg_of(s, m->d, m->dpart ? m->dhalf : 0);
	if (alu)
		in.scratch = (uint8_t)top;
	if (m->guard != NONE) {
		in.guard = s->v[m->guard].unit;
		in.guard_neg = m->gneg;
	}
	if (opc == SIMT_SELP)
		in.pd = (uint8_t)s->v[m->pd].unit;
	if (opc == SIMT_SETP || opc == SIMT_PLOG) {
		in.pd = (uint8_t)s->v[m->pd].unit;
		s->v[m->pd].dirty = true;
	}
	if (opc == SIMT_PLOG) {
		in.d = (uint8_t)(s->plog_rr++ % s->narr);
		in.a.kind = SIMT_O_REG;
		in.a.reg = (uint8_t)s->v[m->pa].unit;
		in.a.imm = m->na;
		if (m->pb != NONE) {
			in.b.kind = SIMT_O_REG;
			in.b.reg = (uint8_t)s->v[m->pb].unit;
			in.b.imm = m->nb;
		}
	}
	if (m->dpart && m->d != NONE)
		in.type = SIMT_U32;
	if (put(s, &in) < 0)
		return -1;
	if (opc == SIMT_SETP || opc == SIMT_PLOG)
		note(s, m->pd, SIMT_LOC_PRED + in.pd);
	else if (m->d != NONE)
		note(s, m->d, SIMT_LOC_REG + reg_of(s, m->d, 0));
	if (s->L.ev[s->L.n - 1] != NONE)
		s->L.def[s->L.n - 1] = true; /* a new value, not a move */
	if (m->d != NONE)
		s->v[m->d].dirty = true;
	/* values no longer needed leave their units */
	for (int j = 0; j < 3; j++)
		if (src[j]->kind == SIMT_O_REG && s->v[src[j]->v].arr >= 0 && !needed(s, src[j]->v, i))
			drop(s, src[j]->v);
	if (m->d != NONE && s->v[m->d].arr >= 0 && !needed(s, m->d, i))
		drop(s, m->d);
	for (int j = 0; j < 3; j++)
		if (pr[j] != NONE && s->v[pr[j]].unit >= 0 && !needed(s, pr[j], i))
			drop(s, pr[j]);
	if ((opc == SIMT_SETP || opc == SIMT_PLOG) && !needed(s, m->pd, i))
		drop(s, m->pd);
	return 0;
}

/* ---- bundles ---- */

static int new_bundle(ts *s)
{
	simt_kernel *k = s->out;
	if (k->n == k->cap) {
		size_t cap = k->cap ? k->cap * 2 : 64;
		simt_bundle *nb = realloc(k->b, cap * sizeof *nb);
		if (!nb)
			return oom(s);
		k->b = nb;
		k->cap = cap;
	}
	memset(&k->b[k->n], 0, sizeof *k->b);
	k->n++;
	return 0;
}

static int add_fix(ts *s, uint32_t bundle, uint32_t target)
{
	if (s->nfx == s->capfx) {
		size_t cap = s->capfx ? s->capfx * 2 : 32;
		fix *n = realloc(s->fx, cap * sizeof *n);
		if (!n)
			return oom(s);
		s->fx = n;
		s->capfx = cap;
	}
	s->fx[s->nfx++] = (fix){ bundle, target };
	return 0;
}

/* What an instruction reads and writes, for the scheduler: units 0..31
 * (array * 8 + unit), the predicate latches 32..39, memory 40. */
#define RES_PRED 32
#define RES_MEM 40
#define NRES 41

typedef struct rw { uint64_t r, w; } rw;

static void units_mask(uint64_t *m, unsigned reg, unsigned bits)
{
	*m |= UINT64_C(1) << reg;
	if (bits == 64)
		*m |= UINT64_C(1) << (reg + 1);
}

static rw rw_of(const simt_instr *in)
{
	rw x = { 0, 0 };
	unsigned opc = in->opc, w = simt_type_bits(in->type);
	unsigned sw = opc == SIMT_CVT ? simt_type_bits(in->stype) : w;
	bool mem = opc == SIMT_LD || opc == SIMT_ST || opc == SIMT_ATOM;
	if (opc == SIMT_PLOG) {
		x.r |= UINT64_C(1) << (RES_PRED + in->a.reg);
		if (in->b.kind == SIMT_O_REG)
			x.r |= UINT64_C(1) << (RES_PRED + in->b.reg);
		x.w |= UINT64_C(1) << (RES_PRED + in->pd);
	} else if (mem) {
		if (in->a.kind == SIMT_O_REG)
			units_mask(&x.r, in->a.reg, in->addr64 ? 64 : 32);
		if (in->b.kind == SIMT_O_REG)
			units_mask(&x.r, in->b.reg, w);
		if (in->c.kind == SIMT_O_REG)
			units_mask(&x.r, in->c.reg, w);
		if (opc != SIMT_ST)
			units_mask(&x.w, in->d, w);
		x.w |= UINT64_C(1) << RES_MEM;
	} else if (opc != SIMT_BRA && opc != SIMT_EXIT && opc != SIMT_BAR) {
		const simt_operand *o[3] = { &in->a, &in->b, &in->c };
		for (int j = 0; j < 3; j++)
			if (o[j]->kind == SIMT_O_REG)
				units_mask(&x.r, o[j]->reg, j == 0 ? sw : w);
		if (opc == SIMT_SETP)
			x.w |= UINT64_C(1) << (RES_PRED + in->pd);
		else
			units_mask(&x.w, in->d, w);
		if (opc == SIMT_SELP)
			x.r |= UINT64_C(1) << (RES_PRED + in->pd);
		/* the micro-program's scratch is written too */
		unsigned arr = (opc == SIMT_SETP ? in->a.reg : in->d) / NU;
		for (unsigned u = in->scratch; u < NU; u++)
			x.w |= UINT64_C(1) << (arr * NU + u);
	}
	if (in->guard >= 0)
		x.r |= UINT64_C(1) << (RES_PRED + (unsigned)in->guard);
	return x;
}

static unsigned slot_of(const simt_instr *in)
{
	switch (in->opc) {
	case SIMT_LD: case SIMT_ST: case SIMT_ATOM: case SIMT_SHFL: return SIMT_SLOT_MEM;
	case SIMT_BRA: case SIMT_EXIT: case SIMT_BAR: return SIMT_SLOT_CTL;
	case SIMT_PLOG: return in->d;
	case SIMT_SETP: return in->a.reg / NU;
	default: return in->d / NU;
	}
}

static bool slot_taken(const simt_bundle *b, unsigned slot)
{
	for (unsigned i = 0; i < b->n; i++)
		if (slot_of(&b->in[i]) == slot)
			return true;
	return false;
}

/* The block's instructions into bundles: each as early as what it reads
 * and writes allows (after every earlier writer of what it reads, and
 * every earlier reader and writer of what it writes), in a free slot;
 * memory operations keep their order, a barrier is a wall, the branch
 * or exit goes last.  mapping=serial: one a bundle. */
static int bundle_block(ts *s)
{
	simt_kernel *k = s->out;
	uint32_t first = (uint32_t)k->n, floor = first;
	uint32_t lastw[NRES], lastr[NRES];
	for (unsigned r = 0; r < NRES; r++)
		lastw[r] = lastr[r] = first;
	bool wrote[NRES] = { false }, read[NRES] = { false };
	for (size_t i = 0; i < s->L.n; i++) {
		simt_instr in = s->L.in[i];
		unsigned slot = slot_of(&in);
		uint32_t at = floor;
		if (s->serial) {
			at = (uint32_t)k->n;
		} else {
			rw x = rw_of(&in);
			for (unsigned r = 0; r < NRES; r++) {
				uint64_t bit = UINT64_C(1) << r;
				if ((x.r & bit) && wrote[r] && lastw[r] + 1 > at)
					at = lastw[r] + 1;
				if ((x.w & bit) && wrote[r] && lastw[r] + 1 > at)
					at = lastw[r] + 1;
				if ((x.w & bit) && read[r] && lastr[r] + 1 > at)
					at = lastr[r] + 1;
			}
			if (slot == SIMT_SLOT_CTL && k->n > first && k->n - 1 > at)
				at = (uint32_t)k->n - 1; /* last: after everything */
			for (;; at++) {
				if (at >= k->n)
					break;
				const simt_bundle *b = &k->b[at];
				if (in.opc == SIMT_PLOG) {
					unsigned a = 0;
					while (a < SIMT_ARRAYS && slot_taken(b, a))
						a++;
					if (a < SIMT_ARRAYS) {
						in.d = (uint8_t)a;
						break;
					}
					continue;
				}
				if (!slot_taken(b, slot) && !slot_taken(b, SIMT_SLOT_CTL))
					break;
			}
			for (unsigned r = 0; r < NRES; r++) {
				uint64_t bit = UINT64_C(1) << r;
				if (x.w & bit)
					lastw[r] = at, wrote[r] = true;
				if ((x.r & bit) && (!read[r] || at > lastr[r]))
					lastr[r] = at, read[r] = true;
			}
		}
		while (at >= k->n)
			if (new_bundle(s) < 0)
				return -1;
		simt_bundle *b = &k->b[at];
		s->L.at[i] = at;
		if (b->n == 0)
			b->line = in.line;
		b->in[b->n++] = in;
		if (in.opc == SIMT_BAR)
			floor = at + 1;
		if (in.opc == SIMT_BRA && add_fix(s, at, in.target) < 0)
			return -1;
	}
	return 0;
}

/* ---- the debugger's register map ---- */

/* Does location loc of a value of bits overlap what w writes (rw_of's
 * units and predicate latches)? */
static bool loc_hit(unsigned loc, unsigned bits, uint64_t w)
{
	if (loc >= SIMT_LOC_HOME || loc == SIMT_LOC_NONE)
		return false;
	if (loc >= SIMT_LOC_PRED)
		return (w >> (RES_PRED + loc - SIMT_LOC_PRED)) & 1;
	uint64_t m = 0;
	units_mask(&m, loc - SIMT_LOC_REG, bits);
	return (w & m) != 0;
}

/* Where each PTX register is before each bundle of the block just
 * bundled (from bundle first): at the block's start its home if it is
 * live in, else nowhere; then, bundle after bundle, each instruction
 * that writes a register's place takes it away (its value is gone), and
 * each that puts a register somewhere puts it there, unless a later one
 * of the block's list already did (the scheduler may run a later
 * definition first; the machine then holds the newer value).  Writes to
 * one place keep the list's order, so this is what the machine holds. */
static int regmap(ts *s, const blk *b, uint32_t first)
{
	simt_kernel *k = s->out;
	const size_t nr = s->k->nregs;
	if (!nr || k->n == first)
		return 0;
	uint16_t *map = realloc(k->regloc, k->n * nr * sizeof *map);
	uint16_t *cur = calloc(nr, sizeof *cur);
	size_t *curi = calloc(nr, sizeof *curi);
	bool *renew = calloc(nr, sizeof *renew);
	if (!map || !cur || !curi || !renew) {
		if (map)
			k->regloc = map;
		free(cur);
		free(curi);
		free(renew);
		return oom(s);
	}
	k->regloc = map;
	k->nregloc = (uint32_t)nr;
	for (size_t r = 0; r < nr; r++)
		if (get_bit(b->in, (uint32_t)r) && s->v[r].home != NONE) {
			cur[r] = (uint16_t)(SIMT_LOC_HOME + (unsigned)s->v[r].home);
			renew[r] = true; /* its predecessors vary */
		}
	for (uint32_t pc = first; pc < k->n; pc++) {
		for (size_t r = 0; r < nr; r++) {
			map[(size_t)pc * nr + r] = (uint16_t)(cur[r] | (renew[r] ? SIMT_LOC_NEW : 0));
			renew[r] = false;
		}
		for (size_t i = 0; i < s->L.n; i++) {
			if (s->L.at[i] != pc)
				continue;
			uint64_t w = rw_of(&s->L.in[i]).w;
			for (size_t r = 0; r < nr; r++)
				if (loc_hit(cur[r], s->k->regbits[r], w))
					cur[r] = SIMT_LOC_NONE;
		}
		for (size_t i = 0; i < s->L.n; i++) {
			int v = s->L.ev[i];
			if (s->L.at[i] != pc || v == NONE || i + 1 <= curi[v])
				continue;
			cur[v] = s->L.loc[i];
			curi[v] = i + 1;
			renew[v] = renew[v] || s->L.def[i];
		}
	}
	free(cur);
	free(curi);
	free(renew);
	return 0;
}

/* ---- the driver ---- */

static int emit_block(ts *s, size_t j)
{
	blk *b = &s->b[j];
	s->cur = b;
	b->bundle = (uint32_t)s->out->n;
	s->nmo = 0;
	s->L.n = 0;
	s->v_block = s->nv;
	for (uint32_t i = b->first; i < b->end; i++) {
		s->line = s->k->ins[i].line;
		s->col = s->k->ins[i].col;
		if (lower(s, &s->k->ins[i], i) < 0)
			return -1;
	}
	/* the last use of each value in the block */
	for (size_t v = 0; v < s->nv; v++) {
		s->v[v].last = 0;
		s->v[v].arr = s->v[v].unit = -1;
		s->v[v].dirty = false;
	}
	for (unsigned a = 0; a < SIMT_ARRAYS; a++)
		for (unsigned u = 0; u < NU; u++)
			s->owner[a][u] = NONE;
	for (unsigned p = 0; p < SIMT_PREDS; p++)
		s->powner[p] = NONE;
	for (uint32_t i = 0; i < s->nmo; i++) {
		const mop *m = &s->mo[i];
		const opr *src[3] = { &m->a, &m->b, &m->c };
		for (int q = 0; q < 3; q++)
			if (src[q]->kind == SIMT_O_REG)
				s->v[src[q]->v].last = i;
		int pr2[3] = { m->guard, m->in.opc == SIMT_SELP ? m->pd : m->pa, m->pb };
		for (int q = 0; q < 3; q++)
			if (pr2[q] != NONE)
				s->v[pr2[q]].last = i;
		if ((m->guard != NONE || m->dpart) && m->d != NONE)
			s->v[m->d].last = i;
		if ((m->guard != NONE) && m->pd != NONE && m->in.opc != SIMT_SELP)
			s->v[m->pd].last = i;
	}
	/* the terminator waits for the values going home */
	uint32_t n = (uint32_t)s->nmo;
	bool term = n && (s->mo[n - 1].in.opc == SIMT_BRA || s->mo[n - 1].in.opc == SIMT_EXIT);
	for (uint32_t i = 0; i < n - (term ? 1 : 0); i++)
		if (emit_mop(s, &s->mo[i], i) < 0)
			return -1;
	int ppin[8] = { NONE, NONE, NONE, NONE, NONE, NONE, NONE, NONE };
	if (term && s->mo[n - 1].guard != NONE) {
		s->now = n - 1;
		ppin[0] = s->mo[n - 1].guard;
		if (pbring(s, s->mo[n - 1].guard, ppin, true) < 0)
			return -1;
	}
	s->now = n;
	for (size_t v = 0; v < s->k->nregs; v++) {
		val *x = &s->v[v];
		if (!x->dirty || !get_bit(b->out, (uint32_t)v) || (x->arr < 0 && x->unit < 0))
			continue;
		if (x->bits == 1) {
			if ((int)v == ppin[0]) { /* its latch must stay for the branch */
				x->dirty = true;
				int keep = x->unit;
				if (pspill(s, (int)v) < 0)
					return -1;
				s->powner[keep] = (int)v;
				x->unit = (int8_t)keep;
				continue;
			}
			if (pspill(s, (int)v) < 0)
				return -1;
		} else if (evict(s, (int)v) < 0) {
			return -1;
		}
	}
	if (term) {
		const mop *m = &s->mo[n - 1];
		simt_instr in = m->in;
		in.scratch = NU;
		if (m->guard != NONE) {
			in.guard = s->v[m->guard].unit;
			in.guard_neg = m->gneg;
		}
		if (put(s, &in) < 0)
			return -1;
	}
	uint32_t first = (uint32_t)s->out->n;
	if (bundle_block(s) < 0)
		return -1;
	return regmap(s, b, first);
}

int simt_ptx_translate(const ptx_module *m, size_t k, const simt_ptx_layout *lay, int mapping,
		       simt_kernel *out, simt_ptx_needs *needs, diag *d)
{
	ts s;
	memset(&s, 0, sizeof s);
	s.m = m;
	s.k = &m->k[k];
	s.lay = lay;
	s.out = out;
	s.d = d;
	s.serial = mapping == SIMT_MAP_SERIAL;
	/* the paper's simple translator: one array per TB (§5.5), the
	 * values that do not fit its units spilled to local memory */
	s.narr = s.serial ? 1 : SIMT_ARRAYS;
	s.line = s.k->line;
	memset(out, 0, sizeof *out);
	snprintf(out->name, sizeof out->name, "%s", s.k->name);
	out->line = s.k->line;
	out->translated = true;
	int rc = -1;
	s.cs = calloc(m->nv ? m->nv : 1, sizeof *s.cs);
	if (!s.cs) {
		oom(&s);
		goto done;
	}
	for (size_t r = 0; r < s.k->nregs; r++)
		if (new_val(&s, s.k->regbits[r]) < 0)
			goto done;
	if (s.k->nins == 0) {
		rc = 0;
		goto done;
	}
	if (blocks(&s) < 0 || liveness(&s) < 0)
		goto done;
	/* every register live into a block has a home */
	for (size_t j = 0; j < s.nb; j++)
		for (size_t r = 0; r < s.k->nregs; r++)
			if (get_bit(s.b[j].in, (uint32_t)r) && home_of(&s, (int)r) < 0)
				goto done;
	size_t nregs_vals = s.nv;
	for (size_t j = 0; j < s.nb; j++) {
		s.nv = nregs_vals; /* temporaries are the block's own */
		if (emit_block(&s, j) < 0)
			goto done;
	}
	for (size_t i = 0; i < s.nfx; i++) {
		uint32_t t = s.fx[i].ins;
		uint32_t at = t >= s.k->nins ? (uint32_t)out->n : s.b[s.blk_of[t]].bundle;
		simt_bundle *b = &out->b[s.fx[i].bundle];
		b->in[b->n - 1].target = at;
	}
	needs->local_words = (s.local_bytes + 3) / 4;
	needs->shared_bytes = s.k->shared_bytes;
	rc = 0;
done:
	if (rc < 0) {
		free(out->b);
		free(out->regloc);
		out->regloc = NULL;
		out->b = NULL;
		out->n = out->cap = 0;
	}
	free(s.v);
	free(s.cs);
	free(s.mo);
	free(s.fx);
	free(s.blk_of);
	if (s.b)
		free(s.b[0].in);
	free(s.b);
	free(s.L.in);
	free(s.L.ev);
	free(s.L.loc);
	free(s.L.at);
	free(s.L.def);
	return rc;
}
