/* SPDX-License-Identifier: MIT */
/*
 * format.c: a kernel's bundles as DC-PTX text (`infsim simt --bundles`),
 * which the parser reads back to the same bundles: how a .thread
 * kernel was translated.  Branch targets are written as labels Ln.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "simt_int.h"

static const char *type_name(unsigned t)
{
	static const char *const n[] = { "u32", "s32", "f32", "u64", "s64", "u16", "s16", "u8", "s8", "q32", "f16" };
	return t < SIMT_TYPE_COUNT ? n[t] : "?";
}

static void operand(FILE *f, const simt_program *p, const simt_operand *o, bool addr)
{
	static const char *const sp[] = { "%tid", "%ntid", "%ctaid", "%nctaid", "%tid.y", "%tid.z",
		"%ntid.y", "%ntid.z", "%ctaid.y", "%ctaid.z", "%nctaid.y", "%nctaid.z", "%laneid" };
	switch (o->kind) {
	case SIMT_O_REG: fprintf(f, addr ? "[r%u]" : "r%u", o->reg); break;
	case SIMT_O_SPECIAL: fputs(o->reg < SIMT_SPECIAL_COUNT ? sp[o->reg] : "%?", f); break;
	case SIMT_O_IMM: fprintf(f, addr ? "[%u]" : "0x%x", (unsigned)o->imm); break;
	default: break;
	}
	(void)p;
}

void simt_format_instr(FILE *f, const simt_program *p, const simt_instr *in)
{
	static const char *const cmp[] = { "eq", "ne", "lt", "le", "gt", "ge" };
	static const char *const shfl[] = { "idx", "up", "down", "bfly" };
	static const char *const spaces[] = { ".global", ".local", ".shared", ".param" };
	static const char *const atoms[] = { "add", "min", "max", "exch", "cas", "and", "or", "xor", "inc", "dec" };
	static const char *const plogs[] = { "and", "or", "xor", "mov" };
	const simt_opinfo *oi = simt_opinfo_of(in->opc);
	if (in->guard >= 0)
		fprintf(f, "@%sp%d ", in->guard_neg ? "!" : "", in->guard);
	fputs(oi->name, f);
	if (in->opc == SIMT_BAR)
		return;
	if (in->opc == SIMT_PLOG) {
		fprintf(f, ".%s p%u, %sp%u", plogs[in->cmp & 3], in->pd, in->a.imm ? "!" : "", in->a.reg);
		if (in->b.kind == SIMT_O_REG)
			fprintf(f, ", %sp%u", in->b.imm ? "!" : "", in->b.reg);
		return;
	}
	if (in->opc == SIMT_ATOM)
		fprintf(f, "%s.%s", spaces[in->space & 3], atoms[in->cmp % 10]);
	if (in->opc == SIMT_SETP)
		fprintf(f, ".%s", cmp[in->cmp]);
	if (in->opc == SIMT_LD || in->opc == SIMT_ST)
		fputs(in->local ? ".local" : spaces[in->space & 3], f);
	if (in->opc == SIMT_SHFL)
		fprintf(f, ".%s%s%s", shfl[in->cmp], in->off & SIMT_SHFL_WARP ? ".warp" : "",
			in->off & SIMT_SHFL_ZERO ? ".zero" : "");
	if (in->ftz)
		fputs(".ftz", f);
	if (oi->ntypes || in->type != SIMT_U32)
		fprintf(f, ".%s", type_name(in->type));
	if (in->opc == SIMT_CVT)
		fprintf(f, ".%s", type_name(in->stype));
	switch (in->opc) {
	case SIMT_BRA: fprintf(f, " L%" PRIu32, in->target); return;
	case SIMT_EXIT: return;
	case SIMT_SETP: fprintf(f, " p%u, ", in->pd); break;
	case SIMT_ST: break;
	default: fprintf(f, " r%u, ", in->d); break;
	}
	if (in->opc == SIMT_ST)
		fputc(' ', f);
	bool mem = in->opc == SIMT_LD || in->opc == SIMT_ST || in->opc == SIMT_ATOM;
	if (mem && in->off) {
		if (in->a.kind == SIMT_O_REG)
			fprintf(f, "[r%u%s%+" PRId32 "]", in->a.reg, in->addr64 ? ":64" : "", in->off);
		else
			fprintf(f, "[%" PRIu64 "]", in->a.imm + (uint64_t)(int64_t)in->off);
	} else if (mem && in->a.kind == SIMT_O_REG && in->addr64) {
		fprintf(f, "[r%u:64]", in->a.reg);
	} else {
		operand(f, p, &in->a, mem);
	}
	for (int k = 1; k < 3; k++) {
		const simt_operand *o = k == 1 ? &in->b : &in->c;
		if (o->kind == SIMT_O_NONE)
			continue;
		fputs(", ", f);
		operand(f, p, o, false);
	}
	if (in->opc == SIMT_SELP)
		fprintf(f, ", p%u", in->pd);
	if (in->opc == SIMT_SHFL && (in->off & SIMT_SHFL_WARP))
		fprintf(f, ", 0x%" PRIx32, (uint32_t)in->off & 0xffff);
}

void simt_format_bundle(FILE *f, const simt_program *p, const simt_bundle *b)
{
	for (unsigned j = 0; j < b->n; j++) {
		if (j)
			fputs(" ; ", f);
		simt_format_instr(f, p, &b->in[j]);
	}
}

void simt_format_kernel(FILE *f, const simt_program *p, const simt_kernel *k)
{
	bool *target = calloc(k->n + 1, sizeof *target);
	for (size_t i = 0; target && i < k->n; i++)
		for (unsigned j = 0; j < k->b[i].n; j++)
			if (k->b[i].in[j].opc == SIMT_BRA)
				target[k->b[i].in[j].target] = true;
	fprintf(f, ".kernel %s\n", k->name);
	for (size_t i = 0; i < k->n; i++) {
		if (!target || target[i])
			fprintf(f, "L%zu:\n", i);
		fputc('\t', f);
		simt_format_bundle(f, p, &k->b[i]);
		fputc('\n', f);
	}
	fputs(".end\n", f);
	free(target);
}
