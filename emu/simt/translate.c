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
 * the paper's register-pressure-aware scheduler does.  When every
 * array is full, the value whose next read is furthest away is spilled
 * to the thread's local memory (st.local, through the memory port) and
 * loaded back (ld.local) before its next read, as the linear scan's
 * spill policy does (§3.4; §3.5: local memory lives in global memory).
 * mapping=serial keeps every value on array 0, one instruction a
 * bundle: the paper's one-array translator (§5.5, Fig 13).
 */
#include <stdlib.h>
#include <string.h>

#include "simt_int.h"

#define NEVER UINT32_MAX

#define LOCAL_SLOTS (SIMT_LOCAL_MAX / 4)

typedef struct value {
	int8_t reg[SIMT_ARRAYS];     /* its register in each array, -1 none */
	uint32_t ready[SIMT_ARRAYS]; /* first bundle it can be read there */
	uint32_t last_use;           /* index of its last reading instruction */
	uint32_t next_use;           /* index of its next reading instruction */
	uint32_t last_read;          /* latest bundle that read it */
	int slot;                    /* its word of local memory, -1 none */
	uint32_t stored;             /* the bundle of its st.local */
} value;

typedef struct tstate {
	simt_kernel *k;
	value *v;
	size_t nv;
	uint32_t free_from[SIMT_ARRAYS][SIMT_REGS_PER_ARRAY]; /* NEVER: busy */
	uint32_t pred_ready[SIMT_PREDS], pred_read[SIMT_PREDS];
	uint32_t cur;               /* the latest bundle placed so far */
	bool serial;                /* one instruction a bundle, in order */
	unsigned arrays, regs;      /* arrays and registers an array in use */
	uint32_t mem_next;          /* a memory or crossbar operation goes
				     * no earlier: they keep program order */
	uint32_t *next_after;       /* per instruction and use: the next
				     * instruction reading that value */
	int slot_owner[LOCAL_SLOTS]; /* the value a local word holds, -1 */
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

static bool slot_free(const tstate *s, uint32_t b, unsigned slot)
{
	if (b >= s->k->n)
		return true;
	const simt_bundle *bu = &s->k->b[b];
	if (s->serial)
		return bu->n == 0;
	for (unsigned i = 0; i < bu->n; i++)
		if (simt_instr_slot_units(SIMT_REGS_PER_ARRAY, &bu->in[i]) == slot)
			return false;
	return true;
}

static int free_reg(const tstate *s, unsigned a, uint32_t b)
{
	for (unsigned r = 0; r < s->regs; r++)
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

/* The first bundle from b on whose memory port is free and after every
 * memory operation placed so far (they keep program order). */
static uint32_t mem_bundle(tstate *s, uint32_t b)
{
	b = b > s->mem_next ? b : s->mem_next;
	if (s->serial && s->k->n && b <= s->cur)
		b = s->cur + 1;
	while (!slot_free(s, b, SIMT_SLOT_MEM))
		b++;
	return b;
}

/* Where spilled value x can first be read in array a: after its
 * ld.local, placed with commit.  NEVER if no register is free. */
static uint32_t reload(tstate *s, int x, unsigned a, uint32_t from, bool commit)
{
	value *v = &s->v[x];
	if (v->slot < 0)
		return NEVER;
	uint32_t b = mem_bundle(s, v->stored + 1 > from ? v->stored + 1 : from);
	for (int guard = 0; guard < 1 << 20; guard++, b = mem_bundle(s, b + 1)) {
		int r = free_reg(s, a, b);
		if (r < 0 && free_reg(s, a, NEVER - 1) < 0)
			return NEVER;
		if (r < 0)
			continue;
		if (commit) {
			simt_instr ld = { .opc = SIMT_LD, .type = SIMT_U32, .guard = -1, .local = 1,
					  .d = (uint8_t)(a * SIMT_REGS_PER_ARRAY + (unsigned)r),
					  .a = { .kind = SIMT_O_IMM, .imm = (uint32_t)v->slot * 4 },
					  .line = s->c->line, .col = 1 };
			if (place(s, b, &ld) < 0)
				return NEVER;
			s->free_from[a][r] = NEVER;
			v->reg[a] = (int8_t)r;
			v->ready[a] = b + 1;
			s->mem_next = b + 1;
		}
		return b + 1;
	}
	return NEVER;
}

/* Where value x can first be read in array a: now, or after a copy or
 * a reload.  With commit, the copy is placed.  NEVER if no register is
 * free. */
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
		return reload(s, x, a, from, commit);
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

/* Is operand x's register in array a free to take t's result at
 * bundle b: every read of it is done, and it is read here for the last
 * time or held elsewhere too (another array, or local memory)? */
static bool lends(const tstate *s, int x, unsigned a, uint32_t i, uint32_t b, bool held)
{
	const value *v = &s->v[x];
	if (x < 0 || v->reg[a] < 0 || v->last_read >= b)
		return false;
	if (!held)
		return v->last_use == i;
	if (v->slot >= 0)
		return true;
	for (unsigned q = 0; q < SIMT_ARRAYS; q++)
		if (q != a && v->reg[q] >= 0)
			return true;
	return false;
}

/* The result's register at bundle b: an operand's read here for the
 * last time, else a free one, else (no register of array a will be
 * free) that of an operand held elsewhere too, which then is no longer
 * in array a.  -1 if none. */
static int result_reg(const tstate *s, uint32_t i, const tinstr *t, unsigned a, uint32_t b,
		      bool alu)
{
	for (int k = 0; alu && k < 3; k++)
		if (lends(s, t->use[k], a, i, b, false))
			return s->v[t->use[k]].reg[a];
	int r = free_reg(s, a, b);
	if (r >= 0 || free_reg(s, a, NEVER - 1) >= 0)
		return r; /* wait for a free one rather than reload later */
	for (int k = 0; alu && r < 0 && k < 3; k++)
		if (lends(s, t->use[k], a, i, b, true))
			r = s->v[t->use[k]].reg[a];
	return r;
}

/* The first bundle from b where t's operands can be read by a slot of
 * array a (anywhere: a memory or crossbar operation reads them where
 * they are, or reloads them into a), copying or reloading them there
 * with commit; where[k]: the array operand k is read in.  NEVER if one
 * cannot get there. */
static uint32_t operands_at(tstate *s, uint32_t i, const tinstr *t, unsigned a, bool anywhere,
			    bool commit, unsigned where[3], uint32_t b)
{
	for (int k = 0; k < 3; k++) {
		int x = t->use[k];
		if (x < 0)
			continue;
		uint32_t r = NEVER;
		where[k] = a;
		if (anywhere) {
			for (unsigned q = 0; q < SIMT_ARRAYS; q++)
				if (s->v[x].reg[q] >= 0 && s->v[x].ready[q] < r)
					r = s->v[x].ready[q], where[k] = q;
			if (r == NEVER) /* spilled: back into array a first */
				r = reload(s, x, a, 0, commit);
		} else {
			r = reach(s, x, a, 0, commit, i);
		}
		if (r == NEVER)
			return NEVER;
		b = r > b ? r : b;
	}
	return b;
}

/* The bundle, from s->cur on, where instruction i can run on array a
 * (a memory operation: on the memory port, a reading its values where
 * they are); with commit, it is placed.  NEVER if it cannot. */
static uint32_t try_array(tstate *s, uint32_t i, tinstr *t, unsigned a, bool commit)
{
	simt_instr in = t->in;
	unsigned slot = simt_instr_slot_units(SIMT_REGS_PER_ARRAY, &in) == SIMT_SLOT_MEM ? SIMT_SLOT_MEM : a;
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
	b = operands_at(s, i, t, a, slot == SIMT_SLOT_MEM || crossbar, commit, where, b);
	if (b == NEVER)
		return NEVER;
	bool has_d = simt_opinfo_of(in.opc)->has_d;
	for (;; b++) {
		if (b > s->cur + (1u << 20) + 64)
			return NEVER;
		int r = has_d ? result_reg(s, i, t, a, b, !crossbar && slot != SIMT_SLOT_MEM) : 0;
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
		v->next_use = s->next_after[i * 3 + (uint32_t)k];
		if (v->last_use != i)
			continue;
		if (v->slot >= 0)
			s->slot_owner[v->slot] = -1;
		v->slot = -1;
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
	if (simt_instr_slot_units(SIMT_REGS_PER_ARRAY, in) == SIMT_SLOT_MEM)
		s->mem_next = b + 1;
	if (in->opc == SIMT_SETP)
		s->pred_ready[in->pd] = b + 1;
	if (t->def >= 0) {
		unsigned a = in->d / SIMT_REGS_PER_ARRAY, r = in->d % SIMT_REGS_PER_ARRAY;
		for (int k = 0; k < 3; k++)
			if (t->use[k] >= 0 && s->v[t->use[k]].reg[a] == (int)r)
				s->v[t->use[k]].reg[a] = -1;
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

/* The value of array a, not read by t, whose next read is furthest
 * away (Belady's choice, the linear scan's spill policy); of equals,
 * one that costs nothing to drop (held elsewhere too).  -1 if none. */
static int victim_of(const tstate *s, unsigned a, const tinstr *t)
{
	int victim = -1;
	bool cheap = false;
	for (size_t x = 0; x < s->nv; x++) {
		const value *v = &s->v[x];
		if (v->reg[a] < 0 || (int)x == t->use[0] || (int)x == t->use[1] ||
		    (int)x == t->use[2])
			continue;
		bool c = v->slot >= 0;
		for (unsigned q = 0; q < SIMT_ARRAYS; q++)
			c |= q != a && v->reg[q] >= 0;
		if (victim < 0 || v->next_use > s->v[victim].next_use ||
		    (v->next_use == s->v[victim].next_use && c && !cheap))
			victim = (int)x, cheap = c;
	}
	return victim;
}

/* Store value x's register of array a to a word of local memory of its
 * own (st.local): the register is free once the store has read it. */
static int spill(tstate *s, int x, unsigned a)
{
	value *v = &s->v[x];
	int w = 0;
	while (w < LOCAL_SLOTS && s->slot_owner[w] >= 0)
		w++;
	if (w == LOCAL_SLOTS)
		return simt_err(s->c, 0, "more than %d values spilled at once: the local memory holds %d bytes a thread",
				LOCAL_SLOTS, SIMT_LOCAL_MAX);
	uint32_t b = mem_bundle(s, v->ready[a]);
	simt_instr st = { .opc = SIMT_ST, .type = SIMT_U32, .guard = -1, .local = 1,
			  .a = { .kind = SIMT_O_IMM, .imm = (uint32_t)w * 4 },
			  .b = { .kind = SIMT_O_REG,
				 .reg = (uint8_t)(a * SIMT_REGS_PER_ARRAY + (unsigned)v->reg[a]) },
			  .line = s->c->line, .col = 1 };
	if (place(s, b, &st) < 0)
		return -1;
	s->slot_owner[w] = x;
	v->slot = w;
	v->stored = b;
	v->last_read = b > v->last_read ? b : v->last_read;
	s->mem_next = b + 1;
	return 0;
}

/* Make room in array a (§3.4): drop the victim's register there if it
 * is held in another array or in local memory; else move it to an array
 * with a free register (unless spill_only); else spill it.  0, 1 if no
 * value can go, -1 with the error reported. */
static int evict(tstate *s, unsigned a, const tinstr *t, bool spill_only)
{
	int victim = victim_of(s, a, t);
	if (victim < 0)
		return 1;
	value *v = &s->v[victim];
	unsigned r = (unsigned)v->reg[a];
	bool elsewhere = v->slot >= 0;
	for (unsigned q = 0; q < SIMT_ARRAYS; q++)
		elsewhere |= q != a && v->reg[q] >= 0;
	for (unsigned q = 0; !elsewhere && !spill_only && q < s->arrays; q++) {
		if (q == a || free_reg(s, q, NEVER - 1) < 0)
			continue;
		uint32_t got = reach(s, victim, q, s->cur, true, NEVER);
		if (got == NEVER)
			continue;
		s->free_from[a][r] = got; /* the copy read it the bundle before */
		v->reg[a] = -1;
		return 0;
	}
	if (!elsewhere && spill(s, victim, a) < 0)
		return -1;
	uint32_t b = v->last_read + 1 > s->cur ? v->last_read + 1 : s->cur;
	s->free_from[a][r] = b;
	v->reg[a] = -1;
	return 0;
}

/* Every register of the arrays t could use holds one of its operands:
 * store one that lives on after t (keeping its register), so that t's
 * result may take that register (result_reg).  0, 1 if none is left to
 * store, -1 with the error reported. */
static int spill_operand(tstate *s, uint32_t i, const tinstr *t)
{
	for (int k = 0; k < 3; k++) {
		int x = t->use[k];
		if (x < 0 || s->v[x].last_use == i || s->v[x].slot >= 0)
			continue;
		for (unsigned a = 0; a < s->arrays; a++)
			if (s->v[x].reg[a] >= 0)
				return spill(s, x, a) < 0 ? -1 : 0;
	}
	return 1;
}

static uint32_t best_array(tstate *s, uint32_t i, tinstr *t, unsigned *best)
{
	uint32_t best_b = NEVER;
	*best = SIMT_ARRAYS;
	for (unsigned a = 0; a < s->arrays; a++) {
		uint32_t b = try_array(s, i, t, a, false);
		if (b < best_b)
			best_b = b, *best = a;
	}
	return best_b;
}

/* The array holding most of t's operands: where room is worth making. */
static unsigned home_of(const tstate *s, const tinstr *t, unsigned skip)
{
	unsigned best = (skip + 1) % s->arrays, most = 0;
	for (unsigned a = 0; a < s->arrays; a++) {
		unsigned n = 0;
		for (int k = 0; k < 3; k++)
			n += t->use[k] >= 0 && s->v[t->use[k]].reg[a] >= 0;
		if (a != skip && n > most)
			most = n, best = a;
	}
	return best;
}

/* Place t on its best array; when no array can take it, or a commit
 * finds fewer free registers than the estimate (copies and reloads it
 * placed stay: they are valid), make room and try again: first by
 * moving values between arrays, then (past a few tries, so values do
 * not go round the arrays) by spilling only. */
static int schedule_one(tstate *s, uint32_t i, tinstr *t)
{
	for (unsigned tries = 0; tries <= 8 * SIMT_REGS; tries++) {
		unsigned best;
		if (best_array(s, i, t, &best) != NEVER) {
			uint32_t b = try_array(s, i, t, best, true);
			if (b != NEVER) {
				retire(s, i, t, b);
				return 0;
			}
		}
		if (s->c->d && s->c->d->set)
			return -1; /* a copy or reload found no memory */
		bool spill_only = tries >= 2 * SIMT_REGS;
		unsigned a = home_of(s, t, SIMT_ARRAYS);
		int rc = evict(s, a, t, spill_only);
		if (rc > 0 && s->arrays > 1)
			rc = evict(s, home_of(s, t, a), t, spill_only);
		if (rc > 0)
			rc = spill_operand(s, i, t);
		if (rc < 0)
			return -1;
		if (rc > 0)
			break;
	}
	return simt_err(s->c, (size_t)t->in.col - 1,
			"%s cannot be placed: its operands and result need more registers in one array than the %u it has (.machine regs=%u)",
			simt_opc_name(t->in.opc), s->regs, s->regs);
}

/* For each instruction's use of a value, the next instruction that
 * reads the value (NEVER: none); each value's first reader. */
static int next_uses(tstate *s, const simt_tprog *tp)
{
	s->next_after = malloc(((size_t)tp->n * 3 + 1) * sizeof *s->next_after);
	uint32_t *first = malloc((s->nv + 1) * sizeof *first);
	if (!s->next_after || !first) {
		free(first);
		return simt_err(s->c, 0, "out of memory");
	}
	for (size_t x = 0; x < s->nv; x++)
		first[x] = NEVER;
	for (uint32_t i = tp->n; i-- > 0;) {
		for (int u = 0; u < 3; u++)
			s->next_after[i * 3 + (uint32_t)u] = tp->t[i].use[u] >= 0 ? first[tp->t[i].use[u]] : NEVER;
		for (int u = 0; u < 3; u++)
			if (tp->t[i].use[u] >= 0)
				first[tp->t[i].use[u]] = i;
	}
	for (size_t x = 0; x < s->nv; x++)
		s->v[x].next_use = first[x];
	free(first);
	return 0;
}

int simt_translate(simt_cur *c, simt_kernel *k, simt_tprog *tp, const simt_program *p)
{
	tstate s = { .k = k, .c = c, .serial = p->serial != 0,
		     .arrays = p->serial ? 1 : SIMT_ARRAYS, .regs = p->regs,
		     .v = calloc(tp->nvalues ? tp->nvalues : 1, sizeof *s.v) };
	if (!s.v)
		return simt_err(c, 0, "out of memory");
	s.nv = tp->nvalues;
	for (size_t x = 0; x < s.nv; x++) {
		memset(s.v[x].reg, -1, sizeof s.v[x].reg);
		s.v[x].last_use = NEVER;
		s.v[x].last_read = 0;
		s.v[x].slot = -1;
	}
	for (int w = 0; w < LOCAL_SLOTS; w++)
		s.slot_owner[w] = -1;
	for (uint32_t i = 0; i < tp->n; i++)
		for (int u = 0; u < 3; u++)
			if (tp->t[i].use[u] >= 0)
				s.v[tp->t[i].use[u]].last_use = i;
	for (unsigned q = 0; q < SIMT_PREDS; q++)
		s.pred_read[q] = NEVER;
	int rc = next_uses(&s, tp);
	for (uint32_t i = 0; i < tp->n && rc == 0; i++) {
		c->line = tp->t[i].in.line;
		rc = schedule_one(&s, i, &tp->t[i]);
	}
	free(s.next_after);
	free(s.v);
	return rc;
}
