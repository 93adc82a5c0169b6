/* SPDX-License-Identifier: MIT */
/*
 * translate.c: the simple translator (duality-cache §3.4; doc/SIMT.md,
 * "Translator"): a `.thread` kernel is a straight-line per-thread program,
 * one PTX-like instruction a line, on virtual registers (%name).  It is
 * turned into bundles by list scheduling, one instruction at a time in
 * program order: each goes to the array and the earliest bundle where
 * its operands are ready (or can be copied to), its predicates allow,
 * a slot is free and its result has a free register, which may be
 * before bundles already filled (independent work fills the 4 ALU
 * slots); memory and crossbar operations keep their program order.
 * Values are renamed per definition, and a register is free again the
 * bundle after its value's latest read (linear scan).  The
 * choice weighs the operands' places (copies) against parallelism, as
 * the paper's register-pressure-aware scheduler does; it does not
 * spill: a program needing more than 12 live values is refused.
 */
#include <stdlib.h>
#include <string.h>

#include "simt_int.h"

#define NEVER UINT32_MAX

typedef struct value {
	int8_t reg[SIMT_ARRAYS];     /* its register in each array, -1 none */
	uint32_t ready[SIMT_ARRAYS]; /* first bundle it can be read there */
	uint32_t last_use;           /* index of its last reading instruction */
	uint32_t last_read;          /* latest bundle that read it */
} value;

typedef struct tstate {
	simt_kernel *k;
	value *v;
	size_t nv;
	uint32_t free_from[SIMT_ARRAYS][SIMT_REGS_PER_ARRAY]; /* NEVER: busy */
	uint32_t pred_ready[SIMT_PREDS], pred_read[SIMT_PREDS];
	uint32_t cur;               /* the latest bundle placed so far */
	bool serial;                /* one instruction a bundle, in order */
	uint32_t mem_next;          /* a memory or crossbar operation goes
				     * no earlier: they keep program order */
	simt_cur *c;
} tstate;


static int bundle_at(tstate *s, uint32_t b)
{
	simt_kernel *k = s->k;
	while (k->n <= b) {
		if (k->n == k->cap) {
			size_t cap = k->cap ? k->cap * 2 : 16;
			simt_bundle *nb = realloc(k->b, cap * sizeof *nb);
			if (!nb)
				return simt_err(s->c, 0, "out of memory");
			k->b = nb;
			k->cap = cap;
		}
		memset(&k->b[k->n], 0, sizeof *k->b);
		k->b[k->n++].line = s->c->line;
	}
	return 0;
}

static bool slot_free(tstate *s, uint32_t b, unsigned slot)
{
	if (b >= s->k->n)
		return true;
	const simt_bundle *bu = &s->k->b[b];
	if (s->serial)
		return bu->n == 0;
	for (unsigned i = 0; i < bu->n; i++)
		if (simt_instr_slot(&bu->in[i]) == slot)
			return false;
	return true;
}

static int free_reg(tstate *s, unsigned a, uint32_t b)
{
	for (unsigned r = 0; r < SIMT_REGS_PER_ARRAY; r++)
		if (s->free_from[a][r] != NEVER && s->free_from[a][r] <= b)
			return (int)r;
	return -1;
}

static int place(tstate *s, uint32_t b, const simt_instr *in)
{
	if (bundle_at(s, b) < 0)
		return -1;
	simt_bundle *bu = &s->k->b[b];
	bu->in[bu->n++] = *in;
	return 0;
}

/* Where value x can first be read in array a: now, or after a copy.
 * With commit, the copy is placed.  NEVER if no register is free. */
static uint32_t reach(tstate *s, int x, unsigned a, uint32_t from, bool commit, uint32_t i)
{
	value *v = &s->v[x];
	if (v->reg[a] >= 0)
		return v->ready[a] > from ? v->ready[a] : from;
	unsigned src = SIMT_ARRAYS;
	for (unsigned k = 0; k < SIMT_ARRAYS; k++)
		if (v->reg[k] >= 0 && (src == SIMT_ARRAYS || v->ready[k] < v->ready[src]))
			src = k;
	if (src == SIMT_ARRAYS)
		return NEVER;
	uint32_t b = v->ready[src] > from ? v->ready[src] : from;
	for (int guard = 0; guard < 1 << 20; guard++, b++) {
		int r = free_reg(s, a, b);
		if (r < 0 && free_reg(s, a, NEVER - 1) < 0)
			return NEVER;
		if (r < 0 || !slot_free(s, b, a))
			continue;
		if (commit) {
			simt_instr cp = { .opc = SIMT_MOV, .type = SIMT_U32, .guard = -1,
					  .d = (uint8_t)(a * SIMT_REGS_PER_ARRAY + (unsigned)r),
					  .a = { .kind = SIMT_O_REG,
						 .reg = (uint8_t)(src * SIMT_REGS_PER_ARRAY + (unsigned)v->reg[src]) },
					  .line = s->c->line, .col = 1 };
			if (place(s, b, &cp) < 0)
				return NEVER;
			s->free_from[a][r] = NEVER;
			v->reg[a] = (int8_t)r;
			v->ready[a] = b + 1;
			v->last_read = b > v->last_read ? b : v->last_read;
			/* Read here for the last time: the copy is all that is
			 * left of it, so its old register is free after the copy. */
			if (v->last_use == i) {
				s->free_from[src][v->reg[src]] = v->last_read + 1;
				v->reg[src] = -1;
			}
		}
		return b + 1;
	}
	return NEVER;
}

/* The bundle, from s->cur on, where instruction i can run on array a
 * (a memory operation: on the memory port, a reading its values where
 * they are); with commit, it is placed.  NEVER if it cannot. */
static uint32_t try_array(tstate *s, uint32_t i, tinstr *t, unsigned a, bool commit)
{
	simt_instr in = t->in;
	unsigned slot = simt_instr_slot(&in) == SIMT_SLOT_MEM ? SIMT_SLOT_MEM : a;
	bool crossbar = in.opc == SIMT_MOV && t->use[0] >= 0;
	/* List scheduling: no earlier than its operands, predicates and
	 * (memory) the previous memory operation allow; not after the
	 * previous instruction's bundle. */
	uint32_t b = slot == SIMT_SLOT_MEM ? s->mem_next : 0;
	if (s->serial && s->k->n)
		b = s->cur + 1;
	if (in.guard >= 0 && s->pred_ready[in.guard] > b)
		b = s->pred_ready[in.guard];
	if (in.opc == SIMT_SELP && s->pred_ready[in.pd] > b)
		b = s->pred_ready[in.pd];
	if (in.opc == SIMT_SETP) {
		uint32_t w = s->pred_read[in.pd] == NEVER ? 0 : s->pred_read[in.pd] + 1;
		b = w > b ? w : b;
		b = s->pred_ready[in.pd] > b ? s->pred_ready[in.pd] : b;
	}
	unsigned where[3];
	for (int k = 0; k < 3; k++) {
		int x = t->use[k];
		if (x < 0)
			continue;
		uint32_t r = NEVER;
		where[k] = a;
		if (slot == SIMT_SLOT_MEM || crossbar) {
			for (unsigned q = 0; q < SIMT_ARRAYS; q++)
				if (s->v[x].reg[q] >= 0 && s->v[x].ready[q] < r)
					r = s->v[x].ready[q], where[k] = q;
		} else {
			r = reach(s, x, a, 0, commit, i);
		}
		if (r == NEVER)
			return NEVER;
		b = r > b ? r : b;
	}
	/* The result's register: a value read for the last time here, or
	 * a free one. */
	int reuse = -1;
	bool has_d = simt_opinfo_of(in.opc)->has_d;
	for (;; b++) {
		/* an operand read here for the last time lends its register,
		 * once every other read of it is done */
		reuse = -1;
		for (int k = 0; has_d && k < 3 && !crossbar && slot != SIMT_SLOT_MEM; k++)
			if (t->use[k] >= 0 && s->v[t->use[k]].last_use == i &&
			    s->v[t->use[k]].last_read < b && s->v[t->use[k]].reg[a] >= 0)
				reuse = s->v[t->use[k]].reg[a];
		if (b > s->cur + (1u << 20) + 64)
			return NEVER;
		int r = has_d ? (reuse >= 0 ? reuse : free_reg(s, a, b)) : 0;
		if (r < 0 && free_reg(s, a, NEVER - 1) < 0)
			return NEVER;
		if (r < 0 || !slot_free(s, b, slot))
			continue;
		if (!commit)
			return b;
		for (int k = 0; k < 3; k++) {
			simt_operand *o = k == 0 ? &in.a : k == 1 ? &in.b : &in.c;
			if (t->use[k] >= 0)
				o->reg = (uint8_t)(where[k] * SIMT_REGS_PER_ARRAY + (unsigned)s->v[t->use[k]].reg[where[k]]);
		}
		if (has_d)
			in.d = (uint8_t)(a * SIMT_REGS_PER_ARRAY + (unsigned)r);
		if (place(s, b, &in) < 0)
			return NEVER;
		return b;
	}
}

/* After instruction i ran at bundle b: values read for the last time
 * free their registers from b + 1; the result takes its register. */
static void retire(tstate *s, uint32_t i, const tinstr *t, uint32_t b)
{
	const simt_instr *in = &s->k->b[b].in[s->k->b[b].n - 1];
	for (int k = 0; k < 3; k++) {
		int x = t->use[k];
		if (x < 0)
			continue;
		value *v = &s->v[x];
		v->last_read = b > v->last_read ? b : v->last_read;
		if (v->last_use != i)
			continue;
		for (unsigned a = 0; a < SIMT_ARRAYS; a++)
			if (v->reg[a] >= 0) {
				s->free_from[a][v->reg[a]] = v->last_read + 1;
				v->reg[a] = -1;
			}
	}
	if (in->guard >= 0 && (s->pred_read[in->guard] == NEVER || b > s->pred_read[in->guard]))
		s->pred_read[in->guard] = b;
	if (in->opc == SIMT_SELP && (s->pred_read[in->pd] == NEVER || b > s->pred_read[in->pd]))
		s->pred_read[in->pd] = b;
	if (simt_instr_slot(in) == SIMT_SLOT_MEM)
		s->mem_next = b + 1;
	if (in->opc == SIMT_SETP)
		s->pred_ready[in->pd] = b + 1;
	if (t->def >= 0) {
		unsigned a = simt_reg_array(in->d), r = in->d % SIMT_REGS_PER_ARRAY;
		s->free_from[a][r] = NEVER;
		s->v[t->def].reg[a] = (int8_t)r;
		s->v[t->def].ready[a] = b + 1;
		s->v[t->def].last_read = b;
		/* a value never read frees its register at once */
		if (s->v[t->def].last_use == NEVER) {
			s->free_from[a][r] = b + 1;
			s->v[t->def].reg[a] = -1;
		}
	}
	s->cur = b > s->cur ? b : s->cur;
}

/* Make room in array a: move the value there that is read last (and
 * not by t) to an array with a free register, or drop this copy of it if
 * it has another.  -1 if no value can go. */
static int evict(tstate *s, unsigned a, const tinstr *t)
{
	int victim = -1;
	for (size_t x = 0; x < s->nv; x++) {
		if (s->v[x].reg[a] < 0 || (int)x == t->use[0] || (int)x == t->use[1] ||
		    (int)x == t->use[2])
			continue;
		if (victim < 0 || s->v[x].last_use > s->v[victim].last_use)
			victim = (int)x;
	}
	if (victim < 0)
		return -1;
	value *v = &s->v[victim];
	unsigned r = (unsigned)v->reg[a];
	for (unsigned q = 0; q < SIMT_ARRAYS; q++)
		if (q != a && v->reg[q] >= 0) {
			uint32_t b = v->last_read + 1 > s->cur ? v->last_read + 1 : s->cur;
			s->free_from[a][r] = b;
			v->reg[a] = -1;
			return 0;
		}
	for (unsigned q = 0; q < SIMT_ARRAYS; q++) {
		if (q == a || free_reg(s, q, NEVER - 1) < 0)
			continue;
		uint32_t got = reach(s, victim, q, s->cur, true, NEVER);
		if (got == NEVER)
			continue;
		s->free_from[a][r] = got; /* the copy read it the bundle before */
		v->reg[a] = -1;
		return 0;
	}
	return -1;
}

static uint32_t best_array(tstate *s, uint32_t i, tinstr *t, unsigned *best)
{
	uint32_t best_b = NEVER;
	*best = SIMT_ARRAYS;
	for (unsigned a = 0; a < SIMT_ARRAYS; a++) {
		uint32_t b = try_array(s, i, t, a, false);
		if (b < best_b)
			best_b = b, *best = a;
	}
	return best_b;
}

/* The array holding most of t's operands: where room is worth making. */
static unsigned home_of(const tstate *s, const tinstr *t, unsigned skip)
{
	unsigned best = (skip + 1) % SIMT_ARRAYS, most = 0;
	for (unsigned a = 0; a < SIMT_ARRAYS; a++) {
		unsigned n = 0;
		for (int k = 0; k < 3; k++)
			n += t->use[k] >= 0 && s->v[t->use[k]].reg[a] >= 0;
		if (a != skip && n > most)
			most = n, best = a;
	}
	return best;
}

/* Place t on its best array; when no array can take it, or a commit
 * finds fewer free registers than the estimate (copies it placed stay:
 * they are valid), make room and try again. */
static int schedule_one(tstate *s, uint32_t i, tinstr *t)
{
	for (unsigned tries = 0; tries <= 4 * SIMT_REGS; tries++) {
		unsigned best;
		if (best_array(s, i, t, &best) != NEVER) {
			uint32_t b = try_array(s, i, t, best, true);
			if (b != NEVER) {
				retire(s, i, t, b);
				return 0;
			}
		}
		unsigned a = home_of(s, t, SIMT_ARRAYS);
		if (evict(s, a, t) < 0 && evict(s, home_of(s, t, a), t) < 0)
			break;
	}
	return simt_err(s->c, (size_t)t->in.col - 1,
			"more values live than the %d registers hold (the translator does not spill)",
			SIMT_REGS);
}

int simt_translate(simt_cur *c, simt_kernel *k, simt_tprog *tp, unsigned serial)
{
	tstate s = { .k = k, .c = c, .serial = serial != 0, .v = calloc(tp->nvalues ? tp->nvalues : 1, sizeof *s.v) };
	if (!s.v)
		return simt_err(c, 0, "out of memory");
	s.nv = tp->nvalues;
	for (size_t x = 0; x < s.nv; x++) {
		memset(s.v[x].reg, -1, sizeof s.v[x].reg);
		s.v[x].last_use = NEVER;
		s.v[x].last_read = 0;
	}
	for (uint32_t i = 0; i < tp->n; i++)
		for (int u = 0; u < 3; u++)
			if (tp->t[i].use[u] >= 0)
				s.v[tp->t[i].use[u]].last_use = i;
	for (unsigned p = 0; p < SIMT_PREDS; p++)
		s.pred_read[p] = NEVER;
	int rc = 0;
	for (uint32_t i = 0; i < tp->n && rc == 0; i++) {
		c->line = tp->t[i].in.line;
		rc = schedule_one(&s, i, &tp->t[i]);
	}
	free(s.v);
	return rc;
}
