/* SPDX-License-Identifier: MIT */
/*
 * isacmd.c: the isa/ command that computes an ALU instruction on its
 * slot's array (doc/SIMT.md, "Execution"): the operations are Table 1's,
 * already in infsim (§3.1), at the type's width (16, 32 or 64 bits) on
 * the registers' wordlines, with the wordlines from the instruction's
 * scratch unit up (all those above the registers for DC-PTX) as scratch.
 */
#include <string.h>

#include "simt_int.h"

static const char *isa_name(const simt_instr *in)
{
	static const char *const cmp[] = { "eq", "ne", "lt", "le", "gt", "ge" };
	switch (in->opc) {
	case SIMT_SETP: return cmp[in->cmp];
	case SIMT_SELP: return "sel";
	case SIMT_MAD: return "madd";
	case SIMT_FMA: return "fma";
	case SIMT_MOV: return in->a.kind == SIMT_O_REG ? "copy" : "set";
	case SIMT_SHL: return in->b.kind == SIMT_O_IMM ? "shli" : "shl";
	case SIMT_SHR:
		if (simt_type_signed(in->type))
			return in->b.kind == SIMT_O_IMM ? "srai" : "sra";
		return in->b.kind == SIMT_O_IMM ? "shri" : "shr";
	default: return simt_opc_name(in->opc);
	}
}

static unsigned fmt_of(unsigned type)
{
	return type == SIMT_F32 ? ISA_FMT_F32 : type == SIMT_Q32 ? ISA_FMT_FIX
		: type == SIMT_F16 ? ISA_FMT_F16 : ISA_FMT_INT;
}

/* The first scratch wordline of an instruction. */
unsigned simt_scratch_row(const simt_program *p, const simt_instr *in)
{
	return (in->scratch ? in->scratch : simt_units(p)) * SIMT_REG_BITS;
}

/* The command with destination row d (the register's, or the scratch
 * result rows when the command may not write over a source). */
static void fill(const simt_program *p, const simt_instr *in, unsigned ieee, int op, unsigned d,
		 unsigned scratch_end, isa_cmd *c)
{
	memset(c, 0, sizeof *c);
	c->op = (uint16_t)op;
	c->width = (uint8_t)simt_type_bits(in->type);
	c->fmt = (uint8_t)fmt_of(in->type);
	c->is_signed = simt_type_signed(in->type);
	c->flags = ieee ? ISA_FL_IEEE : 0;
	c->iters = (uint8_t)(p->cordic_iters ? p->cordic_iters : ISA_CORDIC_DEFAULT);
	c->d = in->opc == SIMT_SETP ? ISA_TAG : (uint16_t)d;
	c->d2 = c->c3 = ISA_NONE;
	c->a = in->a.kind == SIMT_O_REG ? (uint16_t)simt_reg_row(p, in->a.reg) : ISA_NONE;
	c->b = in->b.kind == SIMT_O_REG ? (uint16_t)simt_reg_row(p, in->b.reg) : ISA_NONE;
	if (in->opc == SIMT_MAD || in->opc == SIMT_FMA)
		c->c3 = (uint16_t)simt_reg_row(p, in->c.reg);
	if (in->b.kind == SIMT_O_IMM)
		c->imm = in->b.imm;
	if (in->opc == SIMT_MOV && in->a.kind == SIMT_O_IMM)
		c->imm = c->width < 64 ? in->a.imm & ((UINT64_C(1) << c->width) - 1) : in->a.imm;
	if (in->opc == SIMT_CVT) {
		c->sfmt = (uint8_t)fmt_of(in->stype);
		c->swidth = (uint8_t)simt_type_bits(in->stype);
		c->ssigned = simt_type_signed(in->stype);
	}
	c->scratch = (uint16_t)simt_scratch_row(p, in);
	c->scratch_rows = (uint16_t)(scratch_end > c->scratch ? scratch_end - c->scratch : 0);
}

int simt_isa_cmd(const simt_program *p, const simt_instr *in, unsigned ieee, isa_cmd *c,
		 bool *via_temp, const char **why)
{
	*via_temp = false;
	*why = NULL;
	if (in->ftz) /* PTX's .ftz: hardware mode for this command */
		ieee = 0;
	/* int <-> int conversions of one width are the same bits: a copy
	 * (other widths: slot.c's simt_cvt_int). */
	bool same_bits = in->opc == SIMT_CVT && in->type != SIMT_F32 && in->stype != SIMT_F32 &&
			 in->type != SIMT_F16 && in->stype != SIMT_F16;
	const char *name = same_bits ? "copy" : in->opc == SIMT_CVT ? "cvt" : isa_name(in);
	unsigned fmt = (same_bits || (in->opc == SIMT_MOV)) ? ISA_FMT_INT : fmt_of(in->type);
	int op = in->opc == SIMT_CVT && !same_bits ? ISA_CVT : isa_lookup_fmt(name, fmt);
	if (op < 0) {
		*why = "no isa command for this operation and type";
		return -1;
	}
	fill(p, in, ieee, op, simt_reg_row(p, in->d), SIMT_WORDLINES, c);
	if (same_bits || in->opc == SIMT_MOV)
		c->fmt = ISA_FMT_INT, c->is_signed = 0;
	if (!isa_check(c, SIMT_WORDLINES, SIMT_TB_THREADS, NULL))
		return 0;
	/* The command may not write over its sources: it writes the last
	 * rows of the scratch and a copy moves them to the register. */
	unsigned w = simt_type_bits(in->type) > SIMT_REG_BITS ? simt_type_bits(in->type) : SIMT_REG_BITS;
	unsigned temp = SIMT_WORDLINES - w;
	fill(p, in, ieee, op, temp, temp, c);
	if (same_bits || in->opc == SIMT_MOV)
		c->fmt = ISA_FMT_INT, c->is_signed = 0;
	if (c->scratch > temp) {
		*why = "no scratch wordlines for the result";
		return -1;
	}
	*why = isa_check(c, SIMT_WORDLINES, SIMT_TB_THREADS, NULL);
	*via_temp = true;
	return *why ? -1 : 0;
}
