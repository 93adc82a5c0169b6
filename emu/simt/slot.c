/* SPDX-License-Identifier: MIT */
/*
 * slot.c: one ALU slot of a bundle (duality-cache §3.3): the
 * instruction is broadcast to its member array in every TB of the CB;
 * the bitlines of the threads that run it (the CB's active threads whose
 * guard predicate holds) are enabled, every other bitline of the CB is
 * not, and the isa/ micro-program runs on the SRAM.  With
 * latency=optimised a data-dependent command is built by the CB's one
 * controller, which asks the wired-OR of the tag latch over the CB's
 * enabled bitlines (§3.1.2): the slot's latency is what it ran.
 */
#include <string.h>

#include "machine_int.h"

/* Enable exactly the threads of act on array k of each TB of the CB. */
static void enable_slot(simt_machine *m, unsigned cb, unsigned k, const simt_mask *act)
{
	for (unsigned tb = 0; tb < SIMT_TBS; tb++)
		for (unsigned a = 0; a < SIMT_ARRAYS; a++) {
			uint64_t *en = sram_latch_words(m->s, simt_array_of(cb, tb, a), SRAM_ENABLE);
			for (unsigned w = 0; w < SIMT_TB_WORDS; w++)
				en[w] = a == k ? act->w[tb * SIMT_TB_WORDS + w] : 0;
		}
}

/* selp's predicate goes to the tag latch the sel command reads: the
 * predicate latches drive T, as a compare's result came from it. */
static void tag_from_pred(simt_machine *m, unsigned cb, unsigned k, const simt_mask *p)
{
	for (unsigned tb = 0; tb < SIMT_TBS; tb++) {
		uint64_t *t = sram_latch_words(m->s, simt_array_of(cb, tb, k), SRAM_TAG);
		memcpy(t, &p->w[tb * SIMT_TB_WORDS], SIMT_TB_WORDS * sizeof *t);
	}
}

/* setp: the compare left p in T; the threads that ran it latch it. */
static void pred_from_tag(simt_machine *m, unsigned cb, unsigned k, unsigned pd,
			  const simt_mask *act)
{
	simt_mask *p = &m->cb.pred[pd];
	for (unsigned tb = 0; tb < SIMT_TBS; tb++) {
		const uint64_t *t = sram_latch_words(m->s, simt_array_of(cb, tb, k), SRAM_TAG);
		for (unsigned w = 0; w < SIMT_TB_WORDS; w++) {
			unsigned i = tb * SIMT_TB_WORDS + w;
			p->w[i] = (p->w[i] & ~act->w[i]) | (t[w] & act->w[i]);
		}
	}
}

/* The controller of one CB: runs what was emitted on the CB's TBs and
 * senses the wired-OR of T over the enabled bitlines. */
typedef struct cb_ctl {
	isa_ctl ctl;
	sram_machine *s;
	unsigned first;
	bool failed;    /* a run of micro-ops could not start (out of memory) */
} cb_ctl;

static bool cb_any(isa_ctl *ctl, isa_prog *p)
{
	cb_ctl *c = (cb_ctl *)ctl;
	if (p->n > ctl->done &&
	    sram_run_ways(c->s, c->first, SIMT_TBS, NULL, p->u + ctl->done, p->n - ctl->done) < 0)
		c->failed = true;
	ctl->done = p->n;
	return sram_any_tag_ways(c->s, c->first, SIMT_TBS, NULL);
}

/* Build and run one command on the CB; its cycles as run. */
static int run_cmd(simt_machine *m, unsigned cb, const isa_cmd *c, uint64_t *cycles)
{
	isa_prog_clear(&m->prog);
	cb_ctl cc = { .ctl = { .any = cb_any }, .s = m->s, .first = cb * SIMT_TBS };
	bool dd = m->p->latency_opt && isa_data_dependent(c);
	if (isa_build_ctl(c, SIMT_TB_THREADS, &m->prog, dd ? &cc.ctl : NULL) != 0 || m->prog.oom ||
	    cc.failed)
		return -1;
	if (m->prog.n > cc.ctl.done &&
	    sram_run_ways(m->s, cc.first, SIMT_TBS, NULL, m->prog.u + cc.ctl.done,
			  m->prog.n - cc.ctl.done) < 0)
		return -1;
	*cycles = m->prog.n;
	return 0;
}

static void count_op(simt_machine *m, unsigned op, uint64_t base, uint64_t run)
{
	if (op >= 64)
		return;
	m->st.op_count[op]++;
	m->st.op_base[op] += base;
	m->st.op_opt[op] += run;
}

/* A copy of width bits from row a to row d, on the enabled bitlines. */
static int copy_rows(simt_machine *m, unsigned cb, unsigned d, unsigned a, unsigned width,
		     simt_cost *cost)
{
	isa_cmd cp;
	memset(&cp, 0, sizeof cp);
	cp.op = ISA_COPY;
	cp.width = (uint8_t)width;
	cp.d = (uint16_t)d;
	cp.a = (uint16_t)a;
	cp.b = cp.c3 = cp.d2 = ISA_NONE;
	uint64_t more;
	if (run_cmd(m, cb, &cp, &more) < 0)
		return -1;
	cost->base += more;
	cost->run += more;
	return 0;
}

/* cvt between integer widths (16, 32, 64): the low rows copied, the
 * upper rows of a wider destination set to 0 or filled with the sign
 * (an arithmetic shift of the top unit's copy). */
static int cvt_int(simt_machine *m, unsigned cb, const simt_instr *in, simt_cost *cost)
{
	unsigned dw = simt_type_bits(in->type), sw = simt_type_bits(in->stype);
	unsigned d = simt_reg_row(m->p, in->d), a = simt_reg_row(m->p, in->a.reg);
	unsigned low = dw < sw ? dw : sw;
	cost->base = cost->run = 0;
	if (d != a && copy_rows(m, cb, d, a, low, cost) < 0)
		return -1;
	if (dw <= sw)
		return 0;
	isa_cmd c;
	memset(&c, 0, sizeof c);
	c.d2 = c.c3 = c.b = ISA_NONE;
	c.width = (uint8_t)(dw - sw);
	c.d = (uint16_t)(d + sw);
	if (!simt_type_signed(in->stype)) {
		c.op = ISA_SET;
		c.a = ISA_NONE;
	} else if (sw == 16) {
		/* the 32-bit unit: its low half shifted up, then down
		 * arithmetically, gives the sign in the upper 16 rows */
		c.op = ISA_SHLI;
		c.width = 32;
		c.is_signed = 1;
		c.d = (uint16_t)d;
		c.a = (uint16_t)d;
		c.imm = 16;
		uint64_t more;
		if (run_cmd(m, cb, &c, &more) < 0)
			return -1;
		cost->base += more;
		cost->run += more;
		c.op = ISA_SRAI;
		if (dw == 64) { /* and the unit above: the sign of the 32 */
			if (run_cmd(m, cb, &c, &more) < 0)
				return -1;
			cost->base += more;
			cost->run += more;
			c.d = (uint16_t)(d + 32);
			c.a = (uint16_t)d;
			c.imm = 31;
		}
	} else { /* 32 -> 64: the copy shifted right by 31, arithmetic */
		c.op = ISA_SRAI;
		c.width = 32;
		c.is_signed = 1;
		c.a = (uint16_t)d;
		c.imm = 31;
	}
	uint64_t more;
	if (run_cmd(m, cb, &c, &more) < 0)
		return -1;
	cost->base += more;
	cost->run += more;
	return 0;
}

/* Predicate logic on the latches of the CB (no array). */
static void plog_run(simt_machine *m, const simt_instr *in, const simt_mask *act)
{
	simt_mask *pd = &m->cb.pred[in->pd];
	const simt_mask *pa = &m->cb.pred[in->a.reg];
	const simt_mask *pb = in->b.kind == SIMT_O_REG ? &m->cb.pred[in->b.reg] : pa;
	uint64_t na = in->a.imm ? ~UINT64_C(0) : 0, nb = in->b.imm ? ~UINT64_C(0) : 0;
	for (unsigned w = 0; w < SIMT_MASK_WORDS; w++) {
		uint64_t a = pa->w[w] ^ na, b = pb->w[w] ^ nb, r;
		switch (in->cmp) {
		case SIMT_PLOG_AND: r = a & b; break;
		case SIMT_PLOG_OR: r = a | b; break;
		case SIMT_PLOG_XOR: r = a ^ b; break;
		default: r = a; break;
		}
		pd->w[w] = (pd->w[w] & ~act->w[w]) | (r & act->w[w]);
	}
}

int simt_slot_run(simt_machine *m, const simt_instr *in, const simt_mask *act,
		  simt_cost *cost, diag *d)
{
	unsigned cb = m->cb.index, k = simt_instr_slot(m->p, in);
	if (in->opc == SIMT_PLOG) {
		plog_run(m, in, act);
		cost->base = cost->run = 1;
		return 0;
	}
	isa_cmd c;
	bool via_temp;
	const char *why;
	bool int_cvt = in->opc == SIMT_CVT && in->type != SIMT_F32 && in->stype != SIMT_F32 &&
		       in->type != SIMT_F16 && in->stype != SIMT_F16 &&
		       simt_type_bits(in->type) != simt_type_bits(in->stype);
	if (!int_cvt && simt_isa_cmd(m->p, in, m->p->ieee, &c, &via_temp, &why) < 0) {
		diag_at(d, m->p->path, in->line, in->col, "%s", why);
		return -1;
	}
	enable_slot(m, cb, k, act);
	if (int_cvt) {
		if (cvt_int(m, cb, in, cost) < 0) {
			diag_file(d, m->p->path, "out of memory running a micro-program");
			return -1;
		}
		return 0;
	}
	if (in->opc == SIMT_SELP)
		tag_from_pred(m, cb, k, &m->cb.pred[in->pd]);
	uint64_t run;
	if (run_cmd(m, cb, &c, &run) < 0) {
		diag_file(d, m->p->path, "out of memory running a micro-program");
		return -1;
	}
	cost->base = isa_baseline_cycles(&c, SIMT_TB_THREADS);
	cost->run = run;
	count_op(m, c.op, cost->base, run);
	if (in->opc == SIMT_SETP)
		pred_from_tag(m, cb, k, in->pd, act);
	if (via_temp && copy_rows(m, cb, simt_reg_row(m->p, in->d), c.d, c.width < SIMT_REG_BITS ? SIMT_REG_BITS : c.width, cost) < 0) {
		diag_file(d, m->p->path, "out of memory running a micro-program");
		return -1;
	}
	return 0;
}

uint64_t simt_port_read(simt_machine *m, unsigned cb, unsigned t, unsigned reg, unsigned bits)
{
	unsigned arr = simt_array_of(cb, t / SIMT_TB_THREADS, simt_reg_array(m->p, reg));
	unsigned row = simt_reg_row(m->p, reg), bl = t % SIMT_TB_THREADS;
	uint64_t v = 0;
	for (unsigned i = 0; i < bits; i++)
		v |= (uint64_t)sram_get_bit(m->s, arr, row + i, bl) << i;
	return v;
}

void simt_port_write(simt_machine *m, unsigned cb, unsigned t, unsigned reg, uint64_t v,
		     unsigned bits)
{
	unsigned arr = simt_array_of(cb, t / SIMT_TB_THREADS, simt_reg_array(m->p, reg));
	unsigned row = simt_reg_row(m->p, reg), bl = t % SIMT_TB_THREADS;
	for (unsigned i = 0; i < bits; i++)
		sram_set_bit(m->s, arr, row + i, bl, (v >> i) & 1);
}
