/* SPDX-License-Identifier: MIT */
/*
 * jit_asm.c: the JIT's commands straight into the program (jit_asm.h).
 * Each function builds the emu_cmd that parse.c builds from the line
 * jit.c printed, and passes it through the same assembler checks
 * (emu_asm_cmd, emu_asm_move); a tensor move is lowered here as
 * emu_program_lower lowers the parsed one (Algorithm 2, §4.2).
 */
#include "jit_asm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"
#include "move.h"

#define EMU_JASM_RESERVE 4096

void emu_jasm_start(emu_jasm *j, emu_program *p, const char *path)
{
	diag_clear(&j->d);
	emu_asm_init(&j->a, p, &j->d);
	j->a.scratch_set = true; /* the declarations' scratch line set it */
	/* Room for the commands at once: growing an array of 900-byte
	 * commands by doubling copied each one about twice, and a large
	 * block's pages are only mapped where commands are written. */
	if (!p->cmds) {
		p->cmds = malloc(EMU_JASM_RESERVE * sizeof *p->cmds);
		j->a.cmdcap = p->cmds ? EMU_JASM_RESERVE : 0;
	}
	snprintf(j->path, sizeof j->path, "%s (lowered)", path);
	j->on = true;
	j->failed = false;
}

void emu_jasm_end(emu_jasm *j)
{
	emu_asm_free(&j->a);
	j->on = false;
}

static bool live(const emu_jasm *j)
{
	return j->on && !j->failed;
}

/* The operands of o into c's slots, in the form's text order. */
static bool operands(const emu_jasm *j, const emu_jasm_op *o, emu_cmd *c)
{
	const emu_form_info *f = emu_form_of(isa_info_of(c->c.op)->form);
	uint16_t *w[] = {&c->c.d, &c->c.d2, &c->c.a, &c->c.b, &c->c.c3};
	int16_t *b[] = {&c->buf_d, &c->buf_d2, &c->buf_a, &c->buf_b, &c->buf_c};
	unsigned next = 0;
	bool imm = false;
	for (unsigned i = 0; i < f->nops; i++) {
		if (f->ops[i] == EMU_AT_IMM) {
			imm = true;
			continue;
		}
		if (next >= o->nbufs || o->buf[next] < 0 ||
		    (size_t)o->buf[next] >= j->a.p->nbufs)
			return false;
		const unsigned k = (unsigned)(f->ops[i] - EMU_AT_D);
		*w[k] = j->a.p->bufs[o->buf[next]].wl;
		*b[k] = o->buf[next++];
	}
	if (next != o->nbufs || imm != o->has_imm)
		return false;
	if (!imm)
		return true;
	/* The immediate as parse_imm reads the text jit.c printed. */
	const uint64_t m = isa_mask(c->c.width);
	if (c->c.fmt == ISA_FMT_INT && !c->c.is_signed && o->imm > m)
		return false;
	c->c.imm = o->imm & m;
	if (c->c.fmt == ISA_FMT_INT && emu_imm_is_shift(c->c.op) && c->c.imm >= c->c.width)
		return false;
	return true;
}

static void fail(emu_jasm *j)
{
	j->failed = true;
	if (!j->d.msg[0])
		snprintf(j->d.msg, sizeof j->d.msg, "a lowered command is not valid");
}

void emu_jasm_cmd(emu_jasm *j, int line, const emu_jasm_op *o, const emu_pattern *arrays,
		  const emu_pattern *bitlines)
{
	if (!live(j))
		return;
	emu_cmd c;
	emu_src src = {.path = j->path, .line = line, .at = {[EMU_AT_STMT] = 1}};
	memset(&c, 0, sizeof c);
	c.c.d = c.c.d2 = c.c.a = c.c.b = c.c.c3 = ISA_NONE;
	c.buf_d = c.buf_d2 = c.buf_a = c.buf_b = c.buf_c = -1;
	c.line = line;
	const int op = isa_lookup_fmt(o->mnemonic, o->fmt);
	if (op < 0) {
		fail(j);
		return;
	}
	c.c.op = (uint16_t)op;
	c.c.fmt = o->fmt;
	c.c.width = o->width;
	c.c.is_signed = o->is_signed;
	c.c.sfmt = o->sfmt;
	c.c.swidth = o->swidth;
	c.c.ssigned = o->ssigned;
	emu_asm_settings(&j->a, &c.c);
	if (!operands(j, o, &c)) {
		fail(j);
		return;
	}
	c.arrays = *arrays;
	c.bitlines = *bitlines;
	if (emu_asm_cmd(&j->a, &c, &src))
		fail(j);
}

void emu_jasm_move(emu_jasm *j, int line, const emu_move *m)
{
	if (!live(j))
		return;
	emu_cmd c;
	emu_src src = {.path = j->path, .line = line, .at = {[EMU_AT_STMT] = 1}};
	memset(&c, 0, sizeof c);
	c.mv = *m;
	/* parse_mv: a shift by 2 or more written without scratch= goes
	 * through the program's scratch row. */
	const uint64_t ad = m->dist < 0 ? 0 - (uint64_t)m->dist : (uint64_t)m->dist;
	if (m->kind == EMU_MOVE_INTRA && m->scratch == SRAM_NO_ROW && ad >= 2 &&
	    j->a.p->scratch < j->a.p->geom.wordlines)
		c.mv.scratch = j->a.p->scratch;
	if (emu_asm_move(&j->a, &c, &src))
		fail(j);
}

/* What emu_program_lower does with the parsed tensor move. */
void emu_jasm_tmove(emu_jasm *j, int line, int16_t dst, int16_t src, const int64_t *off,
		    const uint64_t *lo, const uint64_t *hi)
{
	if (!live(j))
		return;
	const emu_program *p = j->a.p;
	if (dst < 0 || src < 0 || (size_t)dst >= p->nbufs || (size_t)src >= p->nbufs ||
	    !p->bufs[src].ndims || !p->bufs[dst].ndims) {
		fail(j);
		return;
	}
	emu_region r;
	emu_box box;
	emu_move_list l;
	emu_buffer_region(&p->bufs[src], &r);
	r.path = p->path;
	r.line = line;
	r.col = 1;
	memcpy(box.lo, lo, sizeof box.lo);
	memcpy(box.hi, hi, sizeof box.hi);
	const unsigned scratch = p->scratch < p->geom.wordlines ? p->scratch : SRAM_NO_ROW;
	emu_move_list_init(&l);
	int rc = emu_lower_move(&r, &p->geom, &box, off, p->bufs[dst].wl, scratch, &l, &j->d);
	for (size_t k = 0; rc == 0 && k < l.n; k++) {
		emu_cmd c;
		memset(&c, 0, sizeof c);
		c.kind = EMU_CMD_MOVE;
		c.buf_d = c.buf_d2 = c.buf_a = c.buf_b = c.buf_c = -1;
		c.line = line;
		c.mv = l.v[k];
		c.mv.line = line;
		emu_src s = {.path = j->path, .line = line, .at = {[EMU_AT_STMT] = 1}};
		rc = emu_asm_move(&j->a, &c, &s); /* emu_move_check_at, as the pass does */
	}
	emu_move_list_free(&l);
	if (rc)
		fail(j);
}

void emu_jasm_mark(emu_jasm *j, int line, const char *name, int16_t buf, bool strm)
{
	if (!live(j))
		return;
	if (buf < 0 || (size_t)buf >= j->a.p->nbufs || !j->a.p->bufs[buf].ndims ||
	    emu_program_mark(j->a.p, name, buf, line))
		fail(j);
	else
		j->a.p->marks[j->a.p->nmarks - 1].strm = strm;
}
