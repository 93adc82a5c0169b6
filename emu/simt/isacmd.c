/* SPDX-License-Identifier: MIT */
/*
 * isacmd.c: the isa/ command that computes a DC-PTX ALU instruction on
 * its slot's array (doc/SIMT.md, "Execution"): the operations are
 * Table 1's, already in infsim (§3.1), at 32 bits on the registers'
 * wordlines, with the wordlines above the registers as scratch.
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
	case SIMT_MOV: return in->a.kind == SIMT_O_REG ? "copy" : "set";
	case SIMT_SHL: return in->b.kind == SIMT_O_IMM ? "shli" : "shl";
	case SIMT_SHR:
		if (in->type == SIMT_S32)
			return in->b.kind == SIMT_O_IMM ? "srai" : "sra";
		return in->b.kind == SIMT_O_IMM ? "shri" : "shr";
	default: return simt_opc_name(in->opc);
	}
}

static unsigned fmt_of(unsigned type)
{
	return type == SIMT_F32 ? ISA_FMT_F32 : ISA_FMT_INT;
}

/* The command with destination row d (the register's, or the scratch
 * result rows when the command may not write over a source). */
static void fill(const simt_instr *in, unsigned ieee, int op, unsigned d, isa_cmd *c)
{
	memset(c, 0, sizeof *c);
	c->op = (uint16_t)op;
	c->width = SIMT_REG_BITS;
	c->fmt = (uint8_t)fmt_of(in->type);
	c->is_signed = in->type != SIMT_U32;
	c->flags = ieee ? ISA_FL_IEEE : 0;
	c->iters = ISA_CORDIC_DEFAULT;
	c->d = in->opc == SIMT_SETP ? ISA_TAG : (uint16_t)d;
	c->d2 = c->c3 = ISA_NONE;
	c->a = in->a.kind == SIMT_O_REG ? (uint16_t)simt_reg_row(in->a.reg) : ISA_NONE;
	c->b = in->b.kind == SIMT_O_REG ? (uint16_t)simt_reg_row(in->b.reg) : ISA_NONE;
	if (in->opc == SIMT_MAD)
		c->c3 = (uint16_t)simt_reg_row(in->c.reg);
	if (in->b.kind == SIMT_O_IMM)
		c->imm = in->b.imm;
	if (in->opc == SIMT_MOV && in->a.kind == SIMT_O_IMM)
		c->imm = in->a.imm;
	if (in->opc == SIMT_CVT) {
		c->sfmt = (uint8_t)fmt_of(in->stype);
		c->swidth = SIMT_REG_BITS;
		c->ssigned = in->stype != SIMT_U32;
	}
	c->scratch = SIMT_SCRATCH_ROW;
	c->scratch_rows = SIMT_WORDLINES - SIMT_SCRATCH_ROW;
}

int simt_isa_cmd(const simt_instr *in, unsigned ieee, isa_cmd *c, bool *via_temp,
		 const char **why)
{
	*via_temp = false;
	*why = NULL;
	/* int <-> int conversions are the same bits: a copy. */
	bool same_bits = in->opc == SIMT_CVT && in->type != SIMT_F32 && in->stype != SIMT_F32;
	const char *name = same_bits ? "copy" : in->opc == SIMT_CVT ? "cvt" : isa_name(in);
	unsigned fmt = (same_bits || (in->opc == SIMT_MOV)) ? ISA_FMT_INT : fmt_of(in->type);
	int op = in->opc == SIMT_CVT && !same_bits ? ISA_CVT : isa_lookup_fmt(name, fmt);
	if (op < 0) {
		*why = "no isa command for this operation and type";
		return -1;
	}
	fill(in, ieee, op, simt_reg_row(in->d), c);
	if (same_bits || in->opc == SIMT_MOV)
		c->fmt = ISA_FMT_INT, c->is_signed = 0;
	if (!isa_check(c, SIMT_WORDLINES, SIMT_TB_THREADS, NULL))
		return 0;
	/* The command may not write over its sources: it writes the last
	 * 32 scratch rows and a copy moves them to the register. */
	fill(in, ieee, op, SIMT_TEMP_ROW, c);
	if (same_bits || in->opc == SIMT_MOV)
		c->fmt = ISA_FMT_INT, c->is_signed = 0;
	c->scratch_rows = (uint16_t)(SIMT_TEMP_ROW - SIMT_SCRATCH_ROW);
	*why = isa_check(c, SIMT_WORDLINES, SIMT_TB_THREADS, NULL);
	*via_temp = true;
	return *why ? -1 : 0;
}
