/* SPDX-License-Identifier: MIT */
/*
 * instr.c: one DC-PTX bundle line (doc/SIMT.md, "Bundles"): its
 * instructions, their operands, and the rules of §3.3 that make it a
 * bundle: one ALU slot per member array whose operands all sit in that
 * array, at most one memory operation, a branch or exit last, and no
 * instruction reading what another of the bundle writes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simt_int.h"

#define T_U (1u << SIMT_U32)
#define T_S (1u << SIMT_S32)
#define T_F (1u << SIMT_F32)
#define T_I (T_U | T_S)
#define T_A (T_I | T_F)
#define T_Q (1u << SIMT_Q32)

/* Each operation once: the types it takes, its register sources, and
 * whether it writes a register. */
static const simt_opinfo opinfo[SIMT_OPC_COUNT] = {
	[SIMT_ADD] = { "add", T_A, 2, true },   /* d := a + b */
	[SIMT_SUB] = { "sub", T_A, 2, true },   /* d := a - b */
	[SIMT_MUL] = { "mul", T_A, 2, true },   /* d := a * b (ints: low 32 bits) */
	[SIMT_DIV] = { "div", T_A, 2, true },   /* d := a / b (ints: toward zero) */
	[SIMT_REM] = { "rem", T_I, 2, true },   /* d := a % b, sign of a */
	[SIMT_AND] = { "and", T_I, 2, true },   /* d := a & b */
	[SIMT_OR] = { "or", T_I, 2, true },     /* d := a | b */
	[SIMT_XOR] = { "xor", T_I, 2, true },   /* d := a ^ b */
	[SIMT_NOT] = { "not", T_I, 1, true },   /* d := ~a */
	[SIMT_SHL] = { "shl", T_I, 2, true },   /* d := a << b (b may be a constant) */
	[SIMT_SHR] = { "shr", T_I, 2, true },   /* d := a >> b (.s32 arithmetic) */
	[SIMT_MIN] = { "min", T_A, 2, true },   /* d := min(a, b) */
	[SIMT_MAX] = { "max", T_A, 2, true },   /* d := max(a, b) */
	[SIMT_ABS] = { "abs", T_S | T_F, 1, true }, /* d := |a| */
	[SIMT_NEG] = { "neg", T_S | T_F, 1, true }, /* d := -a */
	[SIMT_MAD] = { "mad", T_F, 3, true },   /* d := a * b + c, rounded twice */
	[SIMT_SETP] = { "setp", T_A, 2, false }, /* p := a CMP b */
	[SIMT_SELP] = { "selp", T_A, 2, true }, /* d := p ? a : b */
	[SIMT_MOV] = { "mov", T_A, 1, true },   /* d := a */
	[SIMT_CVT] = { "cvt", T_A, 1, true },   /* d := a converted */
	[SIMT_LD] = { "ld", T_A, 1, true },     /* d := mem[a] */
	[SIMT_ST] = { "st", T_A, 2, false },    /* mem[a] := b */
	[SIMT_SHFL] = { "shfl", T_A, 2, true }, /* d := a of lane (mode, b) */
	[SIMT_BRA] = { "bra", 0, 0, false },    /* pc := target */
	[SIMT_EXIT] = { "exit", 0, 0, false },  /* the thread ends */
	/* translated PTX only: not in DC-PTX's text */
	[SIMT_FMA] = { "fma", T_F, 3, true },   /* d := a * b + c, rounded once */
	[SIMT_ATOM] = { "atom", T_A, 3, true }, /* d := mem[a]; mem[a] := op(...) */
	[SIMT_BAR] = { "bar.sync", 0, 0, false },
	[SIMT_PLOG] = { "plog", 0, 2, false },  /* pd := a op b, predicates */
	[SIMT_SIN] = { "sin", T_Q, 1, true },   /* d := sin a (CORDIC) */
	[SIMT_COS] = { "cos", T_Q, 1, true },   /* d := cos a */
	[SIMT_EXP] = { "exp", T_Q, 1, true },   /* d := e^a */
	[SIMT_LOG] = { "log", T_Q, 1, true },   /* d := ln a */
};

const simt_opinfo *simt_opinfo_of(unsigned opc)
{
	return opc < SIMT_OPC_COUNT ? &opinfo[opc] : NULL;
}

const char *simt_opc_name(unsigned opc)
{
	return opc < SIMT_OPC_COUNT ? opinfo[opc].name : "?";
}

static const char *const cmp_names[] = { "eq", "ne", "lt", "le", "gt", "ge" };
static const char *const shfl_names[] = { "idx", "up", "down", "bfly" };
static const char *const special_names[] = { "%tid", "%ntid", "%ctaid", "%nctaid" };

static int type_of(const char *s)
{
	if (!strcmp(s, "u32") || !strcmp(s, "b32"))
		return SIMT_U32;
	if (!strcmp(s, "s32"))
		return SIMT_S32;
	if (!strcmp(s, "f32"))
		return SIMT_F32;
	return -1;
}

static int lookup(const char *s, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(s, names[i]))
			return (int)i;
	return -1;
}

/* The suffixes after the operation's name: .cmp (setp), .global (ld,
 * st), .lo (mul), the type, and cvt's source type. */
static int suffixes(simt_cur *c, size_t at, char *rest, simt_instr *in)
{
	int ntypes = 0;
	for (char *tok = strtok(rest, "."); tok; tok = strtok(NULL, ".")) {
		int t = type_of(tok), k;
		if (t >= 0 && ntypes < 2) {
			if (ntypes++ == 0)
				in->type = (uint8_t)t;
			else
				in->stype = (uint8_t)t;
		} else if (in->opc == SIMT_SETP && (k = lookup(tok, cmp_names, 6)) >= 0) {
			in->cmp = (uint8_t)k;
		} else if (in->opc == SIMT_SHFL && (k = lookup(tok, shfl_names, 4)) >= 0) {
			in->cmp = (uint8_t)k;
		} else if ((in->opc == SIMT_LD || in->opc == SIMT_ST) && !strcmp(tok, "local")) {
			in->local = 1;
			in->space = SIMT_SPACE_LOCAL;
		} else if ((in->opc == SIMT_LD || in->opc == SIMT_ST) && !strcmp(tok, "shared")) {
			in->space = SIMT_SPACE_SHARED;
		} else if (!((in->opc == SIMT_LD || in->opc == SIMT_ST) && !strcmp(tok, "global")) &&
			   !(in->opc == SIMT_MUL && !strcmp(tok, "lo"))) {
			return simt_err(c, at, "unknown suffix '.%s' of %s", tok,
					simt_opc_name(in->opc));
		}
	}
	const simt_opinfo *oi = &opinfo[in->opc];
	if (oi->ntypes && ntypes == 0)
		return simt_err(c, at, "%s needs a type (.u32, .s32 or .f32)", oi->name);
	if (ntypes && !(oi->ntypes & (1u << in->type)))
		return simt_err(c, at, "%s does not take this type", oi->name);
	if ((in->opc == SIMT_CVT) != (ntypes == 2))
		return simt_err(c, at, in->opc == SIMT_CVT ? "cvt needs two types: cvt.TO.FROM"
				: "%s takes one type", oi->name);
	return 0;
}

static int mnemonic(simt_cur *c, simt_instr *in)
{
	char w[64];
	size_t at = (simt_skip(c), c->pos);
	if (!simt_word(c, w, sizeof w))
		return simt_err(c, at, "expected an instruction");
	char *dot = strchr(w, '.');
	if (dot)
		*dot++ = 0;
	int opc = -1;
	for (unsigned k = 0; k < SIMT_FMA; k++) /* DC-PTX's own */
		if (!strcmp(w, opinfo[k].name))
			opc = (int)k;
	if (!strcmp(w, "bar")) { /* bar.sync: the CTA's barrier */
		if (!dot || strcmp(dot, "sync"))
			return simt_err(c, at, "expected bar.sync");
		in->opc = SIMT_BAR;
		return 0;
	}
	if (opc < 0)
		return simt_err(c, at, "unknown instruction '%s'", w);
	in->opc = (uint8_t)opc;
	in->cmp = 0xff;
	if (suffixes(c, at, dot ? dot : w + strlen(w), in) < 0)
		return -1;
	if (in->opc == SIMT_SETP && in->cmp == 0xff)
		return simt_err(c, at, "setp needs a comparison (.eq, .ne, .lt, .le, .gt, .ge)");
	if (in->opc == SIMT_SHFL && in->cmp == 0xff)
		return simt_err(c, at, "shfl needs a mode (.idx, .up, .down or .bfly)");
	if (in->cmp == 0xff)
		in->cmp = 0;
	return 0;
}

/* rN or pN: its number, or -1 with the error reported. */
static int regnum(simt_cur *c, char kind, unsigned limit)
{
	char w[64];
	size_t at = (simt_skip(c), c->pos);
	const char ch = at < c->len ? c->s[at] : 0;
	if (kind == 'r' && (ch == '-' || (ch >= '0' && ch <= '9')))
		return simt_err(c, at, "a constant is not an operand here: DC-PTX takes constants "
				"only in mov (mov.u32 into a register first)");
	if (!simt_word(c, w, sizeof w) || w[0] != kind || !w[1])
		return simt_err(c, at, "expected a %s register (%c0 to %c%u)",
				kind == 'r' ? "data" : "predicate", kind, kind, limit - 1);
	unsigned v = 0;
	for (const char *s = w + 1; *s; s++) {
		if (*s < '0' || *s > '9' || v > limit)
			return simt_err(c, at, "expected a %s register (%c0 to %c%u)",
					kind == 'r' ? "data" : "predicate", kind, kind, limit - 1);
		v = v * 10 + (unsigned)(*s - '0');
	}
	if (v >= limit)
		return simt_err(c, at, "no register %s: expected %c0 to %c%u", w, kind, kind,
				limit - 1);
	return (int)v;
}

static int comma(simt_cur *c)
{
	return simt_eat(c, ',') ? 0 : simt_err(c, c->pos, "expected ','");
}

/* A 32-bit immediate operand (simt_imm32). */
static int immediate(simt_cur *c, simt_operand *o)
{
	uint32_t v;
	if (simt_imm32(c, &v) < 0)
		return -1;
	*o = (simt_operand){ .kind = SIMT_O_IMM, .imm = v };
	return 0;
}

/* mov's source: a register, a constant, a special register or the
 * address of a global. */
static int mov_source(simt_cur *c, const simt_program *p, simt_operand *o)
{
	simt_skip(c);
	size_t at = c->pos;
	if (at < c->len && (c->s[at] == '-' || (c->s[at] >= '0' && c->s[at] <= '9')))
		return immediate(c, o);
	char w[64];
	if (!simt_word(c, w, sizeof w))
		return simt_err(c, at, "expected a register, a constant, %%tid, %%ntid, %%ctaid, %%nctaid or a global's name");
	size_t n = strlen(w);
	if (n > 2 && !strcmp(w + n - 2, ".x"))
		w[n - 2] = 0;
	int k = lookup(w, special_names, 4);
	if (k >= 0) {
		*o = (simt_operand){ .kind = SIMT_O_SPECIAL, .reg = (uint8_t)k };
		return 0;
	}
	const simt_global *g = simt_global_find(p, w);
	if (g) {
		*o = (simt_operand){ .kind = SIMT_O_IMM, .imm = g->addr };
		return 0;
	}
	c->pos = at;
	if (w[0] == 'r') {
		int r = regnum(c, 'r', SIMT_REGS);
		if (r < 0)
			return -1;
		*o = (simt_operand){ .kind = SIMT_O_REG, .reg = (uint8_t)r };
		return 0;
	}
	return simt_err(c, at, "unknown name '%s': expected a register, a constant, a special register or a global", w);
}

static int reg_operand(simt_cur *c, simt_operand *o)
{
	int r = regnum(c, 'r', SIMT_REGS);
	if (r < 0)
		return -1;
	*o = (simt_operand){ .kind = SIMT_O_REG, .reg = (uint8_t)r };
	return 0;
}

/* [rN], or with .local [N]: a byte offset in the thread's local memory,
 * whose address the C-Box forms from the thread's number (doc/SIMT.md,
 * "Local memory"). */
static int address(simt_cur *c, const simt_instr *in, simt_operand *o)
{
	if (!simt_eat(c, '['))
		return simt_err(c, c->pos, in->local ? "expected '[' and a byte offset"
				: "expected '[' and an address register");
	simt_skip(c);
	size_t at = c->pos;
	if (in->local) {
		if (at >= c->len || c->s[at] < '0' || c->s[at] > '9')
			return simt_err(c, at, "expected a byte offset in local memory (0 to %d, a multiple of 4)",
					SIMT_LOCAL_MAX - 4);
		if (immediate(c, o) < 0)
			return -1;
		if (o->imm % 4 || o->imm >= SIMT_LOCAL_MAX)
			return simt_err(c, at, "local offset %u: expected a multiple of 4 from 0 to %d",
					(unsigned)o->imm, SIMT_LOCAL_MAX - 4);
	} else if (reg_operand(c, o) < 0) {
		return -1;
	}
	return simt_eat(c, ']') ? 0 : simt_err(c, c->pos, "expected ']'");
}

/* Operands by operation (doc/SIMT.md, "Instructions"). */
static int src_list(simt_cur *c, simt_instr *in, unsigned n)
{
	simt_operand *o[3] = { &in->a, &in->b, &in->c };
	for (unsigned k = 0; k < n; k++) {
		if (k && comma(c) < 0)
			return -1;
		simt_skip(c);
		/* shl and shr take a constant shift as their b (isa shli/shri/srai). */
		if (k == 1 && (in->opc == SIMT_SHL || in->opc == SIMT_SHR) && c->pos < c->len &&
		    c->s[c->pos] >= '0' && c->s[c->pos] <= '9') {
			size_t at = c->pos;
			if (immediate(c, o[k]) < 0)
				return -1;
			if (o[k]->imm >= SIMT_REG_BITS)
				return simt_err(c, at, "shift of %u: expected 0 to %d", (unsigned)o[k]->imm,
						SIMT_REG_BITS - 1);
			continue;
		}
		/* shfl's lane (idx), distance (up, down) or mask (bfly) may
		 * be a constant: the crossbar's routing, set by the controller. */
		if (k == 1 && in->opc == SIMT_SHFL && c->pos < c->len &&
		    c->s[c->pos] >= '0' && c->s[c->pos] <= '9') {
			size_t at = c->pos;
			if (immediate(c, o[k]) < 0)
				return -1;
			if (o[k]->imm >= SIMT_CB_THREADS)
				return simt_err(c, at, "lane %u: expected 0 to %d", (unsigned)o[k]->imm,
						SIMT_CB_THREADS - 1);
			continue;
		}
		if (reg_operand(c, o[k]) < 0)
			return -1;
	}
	return 0;
}

static int branch_target(simt_cur *c, simt_labels *lab, uint32_t index, uint8_t slot)
{
	char w[64];
	size_t at = (simt_skip(c), c->pos);
	if (!simt_word(c, w, sizeof w))
		return simt_err(c, at, "expected a label after bra");
	if (lab->nfix == lab->capfix) {
		size_t cap = lab->capfix ? lab->capfix * 2 : 16;
		void *f = realloc(lab->fix, cap * sizeof *lab->fix);
		if (!f)
			return simt_err(c, at, "out of memory");
		lab->fix = f;
		lab->capfix = cap;
	}
	struct simt_fix *f = &lab->fix[lab->nfix++];
	f->bundle = index;
	f->slot = slot;
	snprintf(f->name, sizeof f->name, "%s", w);
	f->line = c->line;
	f->col = (int)at + 1;
	return 0;
}

static int operands(simt_cur *c, const simt_program *p, simt_labels *lab, uint32_t index,
		    uint8_t slot, simt_instr *in)
{
	int r;
	switch (in->opc) {
	case SIMT_BRA:
		return branch_target(c, lab, index, slot);
	case SIMT_EXIT:
		return 0;
	case SIMT_BAR:
		return in->guard < 0 ? 0 : simt_err(c, (size_t)in->col - 1,
			"bar.sync takes no guard: every running thread of the CTA waits there");
	case SIMT_SETP:
		if ((r = regnum(c, 'p', SIMT_PREDS)) < 0 || comma(c) < 0)
			return -1;
		in->pd = (uint8_t)r;
		return src_list(c, in, 2);
	case SIMT_ST:
		if (in->space == SIMT_SPACE_SHARED && !p->shared_bytes)
			return simt_err(c, (size_t)in->col - 1,
					"st.shared needs a shared window: .machine shared=BYTES");
		if (address(c, in, &in->a) < 0 || comma(c) < 0)
			return -1;
		return reg_operand(c, &in->b);
	default:
		break;
	}
	if (in->opc == SIMT_LD && in->space == SIMT_SPACE_SHARED && !p->shared_bytes)
		return simt_err(c, (size_t)in->col - 1,
				"ld.shared needs a shared window: .machine shared=BYTES");
	if ((r = regnum(c, 'r', SIMT_REGS)) < 0 || comma(c) < 0)
		return -1;
	in->d = (uint8_t)r;
	if (in->opc == SIMT_LD)
		return address(c, in, &in->a);
	if (in->opc == SIMT_MOV)
		return mov_source(c, p, &in->a);
	if (src_list(c, in, opinfo[in->opc].nsrc) < 0)
		return -1;
	if (in->opc != SIMT_SELP)
		return 0;
	if (comma(c) < 0 || (r = regnum(c, 'p', SIMT_PREDS)) < 0)
		return -1;
	in->pd = (uint8_t)r;
	return 0;
}

unsigned simt_instr_slot_units(unsigned units, const simt_instr *in)
{
	switch (in->opc) {
	case SIMT_LD:
	case SIMT_ST:
	case SIMT_ATOM:
	case SIMT_SHFL: /* the crossbar of the C-Box, shared with the memory port */
		return SIMT_SLOT_MEM;
	case SIMT_BRA:
	case SIMT_EXIT:
	case SIMT_BAR:
		return SIMT_SLOT_CTL;
	case SIMT_PLOG:
		return in->d % SIMT_ARRAYS;
	case SIMT_SETP:
		return in->a.reg / units;
	default:
		return in->d / units;
	}
}

unsigned simt_instr_slot(const simt_program *p, const simt_instr *in)
{
	return simt_instr_slot_units(simt_units(p), in);
}

unsigned simt_type_bits(unsigned type)
{
	switch (type) {
	case SIMT_U64: case SIMT_S64: return 64;
	case SIMT_U16: case SIMT_S16: case SIMT_F16: return 16;
	case SIMT_U8: case SIMT_S8: return 8;
	default: return 32;
	}
}

bool simt_type_signed(unsigned type)
{
	return type == SIMT_S32 || type == SIMT_S64 || type == SIMT_S16 || type == SIMT_S8 ||
	       type == SIMT_F32 || type == SIMT_Q32 || type == SIMT_F16;
}

/* Registers (bits 0..23) and predicates (bits 24..31) an instruction
 * reads and writes. */
static uint32_t reads_of(const simt_instr *in)
{
	uint32_t m = 0;
	const simt_operand *o[3] = { &in->a, &in->b, &in->c };
	for (int k = 0; k < 3; k++)
		if (o[k]->kind == SIMT_O_REG)
			m |= 1u << o[k]->reg;
	if (in->guard >= 0)
		m |= 1u << (SIMT_REGS + in->guard);
	if (in->opc == SIMT_SELP)
		m |= 1u << (SIMT_REGS + in->pd);
	return m;
}

static uint32_t writes_of(const simt_instr *in)
{
	if (in->opc == SIMT_SETP)
		return 1u << (SIMT_REGS + in->pd);
	return opinfo[in->opc].has_d ? 1u << in->d : 0;
}

/* An ALU instruction's register operands must sit in its slot's array
 * (§3.4: otherwise the compiler inserts a copy); mov between arrays is
 * that copy. */
static int operands_local(simt_cur *c, const simt_program *p, const simt_instr *in, unsigned slot)
{
	const simt_operand *o[3] = { &in->a, &in->b, &in->c };
	if (in->opc == SIMT_MOV)
		return 0;
	for (int k = 0; k < 3; k++)
		if (o[k]->kind == SIMT_O_REG && simt_reg_array(p, o[k]->reg) != slot)
			return simt_err(c, (size_t)in->col - 1,
					"r%u is in array %u but %s runs on array %u: copy it with mov first",
					o[k]->reg, simt_reg_array(p, o[k]->reg), opinfo[in->opc].name, slot);
	if (in->opc == SIMT_SETP || !opinfo[in->opc].has_d || simt_reg_array(p, in->d) == slot)
		return 0;
	return simt_err(c, (size_t)in->col - 1, "internal: destination outside the slot");
}

static int bundle_rules(simt_cur *c, const simt_program *p, const simt_bundle *b)
{
	unsigned used = 0;
	uint32_t wr = 0, rd = 0;
	for (unsigned i = 0; i < b->n; i++) {
		const simt_instr *in = &b->in[i];
		unsigned slot = simt_instr_slot(p, in);
		size_t at = (size_t)in->col - 1;
		if (slot == SIMT_SLOT_CTL && i + 1 != b->n)
			return simt_err(c, at, "%s must be the last instruction of its bundle",
					opinfo[in->opc].name);
		if (used & (1u << slot))
			return simt_err(c, at, slot == SIMT_SLOT_MEM ? "a second memory or crossbar operation in one bundle (at most one, §3.3)"
					: slot == SIMT_SLOT_CTL ? "a second branch in one bundle"
					: "a second instruction on array %u in one bundle (one slot per array)", slot);
		used |= 1u << slot;
		if (slot < SIMT_ARRAYS && operands_local(c, p, in, slot) < 0)
			return -1;
		if (slot < SIMT_ARRAYS && !(in->opc == SIMT_MOV && in->a.kind != SIMT_O_IMM &&
		     (in->a.kind == SIMT_O_SPECIAL || simt_reg_array(p, in->a.reg) != slot))) {
			isa_cmd ic;
			bool via;
			const char *why;
			if (simt_isa_cmd(p, in, 1, &ic, &via, &why) < 0)
				return simt_err(c, at, "%s: %s", opinfo[in->opc].name, why);
		}
		uint32_t r = reads_of(in), w = writes_of(in);
		if ((r & wr) || (w & (wr | rd)))
			return simt_err(c, at, "%s uses a register or predicate another instruction of the bundle writes (they run at once)",
					opinfo[in->opc].name);
		for (unsigned j = i + 1; j < b->n; j++)
			if (reads_of(&b->in[j]) & w)
				return simt_err(c, at, "%s writes a register or predicate another instruction of the bundle reads (they run at once)",
						opinfo[in->opc].name);
		wr |= w;
		rd |= r;
	}
	return 0;
}

static int guard(simt_cur *c, simt_instr *in)
{
	in->guard = -1;
	if (!simt_eat(c, '@'))
		return 0;
	in->guard_neg = simt_eat(c, '!');
	int p = regnum(c, 'p', SIMT_PREDS);
	if (p < 0)
		return -1;
	in->guard = (int8_t)p;
	return 0;
}

int simt_parse_bundle(simt_cur *c, const simt_program *p, simt_labels *lab,
		      uint32_t index, simt_bundle *b)
{
	memset(b, 0, sizeof *b);
	b->line = c->line;
	for (;;) {
		if (b->n == SIMT_BUNDLE_MAX)
			return simt_err(c, c->pos, "too many instructions in one bundle (at most %d ALU slots, a memory operation and a branch)", SIMT_ARRAYS);
		simt_instr *in = &b->in[b->n];
		simt_skip(c);
		in->line = c->line;
		in->col = (int)c->pos + 1;
		if (guard(c, in) < 0 || mnemonic(c, in) < 0 ||
		    operands(c, p, lab, index, (uint8_t)b->n, in) < 0)
			return -1;
		b->n++;
		if (simt_at_end(c))
			break;
		if (!simt_eat(c, ';'))
			return simt_err(c, c->pos, "expected ';' between the instructions of a bundle, or the end of the line");
	}
	return bundle_rules(c, p, b);
}
