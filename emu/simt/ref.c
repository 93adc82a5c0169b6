/* SPDX-License-Identifier: MIT */
/*
 * ref.c: the reference of a DC-PTX program: each launch, each CTA, each
 * thread run alone from its first bundle to its end, in plain C on
 * ordinary variables (ref_alu.c).  It knows nothing of arrays, bitlines,
 * masks or the machine's scheduling; for a kernel whose threads do not
 * race on memory, the machine must leave the same memory and registers
 * (doc/SIMT.md, "Reference").
 */
#include <stdlib.h>
#include <string.h>

#include "simt_int.h"

struct simt_ref {
	const simt_program *p;
	uint32_t *mem;
	/* The registers of the last launch's last CTAs, those the machine's
	 * CBs still hold at the end: CTA keep_first + i at keep[i]. */
	uint32_t *keep;
	uint32_t keep_first, keep_n, keep_block;
	struct thread *th;            /* the threads of the CTA running */
	const simt_launch *l;         /* its launch */
	uint32_t xbar[SIMT_CB_THREADS]; /* a shuffle's source words */
};

struct thread {
	uint32_t r[SIMT_REGS];
	bool p[SIMT_PREDS];
	uint32_t tid, ntid, ctaid, nctaid;
	uint32_t pc;
	bool done;
	uint64_t steps;
};
typedef struct thread thread;

simt_ref *simt_ref_new(const simt_program *p, diag *d)
{
	simt_ref *r = calloc(1, sizeof *r);
	if (r)
		r->mem = malloc(p->mem_bytes ? p->mem_bytes : 4);
	if (r)
		r->th = malloc(SIMT_CB_THREADS * sizeof *r->th);
	if (!r || !r->mem || !r->th) {
		if (r) {
			free(r->mem);
			free(r->th);
		}
		free(r);
		diag_file(d, p->path, "out of memory for the reference's %u bytes", p->mem_bytes);
		return NULL;
	}
	if (p->mem_bytes) /* no global memory: p->init is NULL */
		memcpy(r->mem, p->init, p->mem_bytes);
	r->p = p;
	return r;
}

void simt_ref_free(simt_ref *r)
{
	if (!r)
		return;
	free(r->mem);
	free(r->keep);
	free(r->th);
	free(r);
}

const uint32_t *simt_ref_mem(const simt_ref *r)
{
	return r->mem;
}

int simt_ref_reg(const simt_ref *r, unsigned cta, unsigned t, unsigned reg, uint32_t *out)
{
	if (!r->keep || cta < r->keep_first || cta - r->keep_first >= r->keep_n ||
	    t >= r->keep_block || reg >= SIMT_REGS)
		return -1;
	*out = r->keep[((size_t)(cta - r->keep_first) * r->keep_block + t) * SIMT_REGS + reg];
	return 0;
}

static uint32_t operand(const thread *th, const simt_operand *o)
{
	switch (o->kind) {
	case SIMT_O_REG: return th->r[o->reg];
	case SIMT_O_IMM: return o->imm;
	case SIMT_O_SPECIAL:
		return o->reg == SIMT_TID ? th->tid : o->reg == SIMT_NTID ? th->ntid
			: o->reg == SIMT_CTAID ? th->ctaid : th->nctaid;
	default: return 0;
	}
}

/* A memory operation's address: in the DC pages and 4-byte aligned. */
static int check_addr(const simt_ref *r, const simt_instr *in, const thread *th, uint32_t a,
		      const char *kname, diag *d)
{
	if (a % 4 == 0 && a < r->p->mem_bytes)
		return 0;
	diag_at(d, r->p->path, in->line, in->col,
		"kernel '%s': thread %u of CTA %u %s address 0x%x, %s (the globals hold %u bytes)",
		kname, th->tid, th->ctaid, in->opc == SIMT_LD ? "loads from" : "stores to", a,
		a % 4 ? "not 4-byte aligned" : "outside the DC pages", r->p->mem_bytes);
	return -1;
}

/* Word w of thread th's local memory: the documented layout (doc/SIMT.md,
 * "Local memory"), a function of the program's settings: the CB and the
 * bitline simt_cta_place gives the CTA's thread. */
static uint32_t *local_word(simt_ref *r, const thread *th, uint32_t off)
{
	const simt_program *p = r->p;
	unsigned cb, slot;
	simt_cta_place(p, r->l, th->ctaid, &cb, &slot);
	size_t word = (size_t)p->local_addr / 4 +
		((size_t)cb * p->local_words + off / 4) * SIMT_CB_THREADS + slot * th->ntid + th->tid;
	return &r->mem[word];
}

/* The word at byte a of th's CTA's shared window, or NULL with d set:
 * the window's place is the documented layout (doc/SIMT.md, "Shared
 * memory"), a function of the program's settings like local memory's. */
static uint32_t *shared_word(simt_ref *r, const thread *th, const simt_instr *in, uint32_t a,
			     const char *kname, diag *d)
{
	const simt_program *p = r->p;
	if (a % 4 == 0 && a < p->shared_bytes) {
		unsigned cb, slot;
		simt_cta_place(p, r->l, th->ctaid, &cb, &slot);
		size_t at = p->shared_addr + ((size_t)cb * p->shared_windows + slot) * p->shared_bytes + a;
		return &r->mem[at / 4];
	}
	diag_at(d, p->path, in->line, in->col,
		"kernel '%s': thread %u of CTA %u %s shared address 0x%x, %s (it holds %u bytes)",
		kname, th->tid, th->ctaid, in->opc == SIMT_LD ? "loads from" : "stores to", a,
		a % 4 ? "not 4-byte aligned" : "outside the CTA's shared memory", p->shared_bytes);
	return NULL;
}

/* One instruction; returns 1 if the thread branches, 2 if it exits, 0
 * to go on, -1 on an error. */
static int step(simt_ref *r, thread *th, const simt_instr *in, const char *kname, diag *d)
{
	if (in->guard >= 0 && th->p[in->guard] == (bool)in->guard_neg)
		return 0;
	uint32_t a = operand(th, &in->a), b = operand(th, &in->b), c = operand(th, &in->c);
	uint32_t *w;
	switch (in->opc) {
	case SIMT_BRA: return 1;
	case SIMT_EXIT: return 2;
	case SIMT_BAR: return 0; /* the CTA has met there (run_cta) */
	case SIMT_LD:
		if (in->space == SIMT_SPACE_SHARED) {
			if (!(w = shared_word(r, th, in, a, kname, d)))
				return -1;
			th->r[in->d] = *w;
			return 0;
		}
		if (in->local) {
			th->r[in->d] = *local_word(r, th, in->a.imm);
			return 0;
		}
		if (check_addr(r, in, th, a, kname, d) < 0)
			return -1;
		th->r[in->d] = r->mem[a / 4];
		return 0;
	case SIMT_ST:
		if (in->space == SIMT_SPACE_SHARED) {
			if (!(w = shared_word(r, th, in, a, kname, d)))
				return -1;
			*w = b;
			return 0;
		}
		if (in->local) {
			*local_word(r, th, in->a.imm) = b;
			return 0;
		}
		if (check_addr(r, in, th, a, kname, d) < 0)
			return -1;
		r->mem[a / 4] = b;
		return 0;
	case SIMT_SETP: {
		bool pv = false;
		simt_ref_alu(in, a, b, c, false, r->p->ieee && !in->ftz, &pv);
		th->p[in->pd] = pv;
		return 0;
	}
	default: {
		bool unused;
		th->r[in->d] = simt_ref_alu(in, a, b, c, th->p[in->pd], r->p->ieee && !in->ftz, &unused);
		return 0;
	}
	}
}

/* Does bundle bu exchange values between threads (shfl)? */
static const simt_instr *shuffle_of(const simt_bundle *bu)
{
	for (unsigned i = 0; i < bu->n; i++)
		if (bu->in[i].opc == SIMT_SHFL)
			return &bu->in[i];
	return NULL;
}

/* Bundle pc of one thread; xbar (for a shuffle): every thread's source
 * word before the bundle.  th->pc goes on, or th->done is set. */
static int run_bundle(simt_ref *r, const simt_kernel *k, thread *th, const uint32_t *xbar,
		      diag *d)
{
	const simt_bundle *bu = &k->b[th->pc];
	uint32_t next = th->pc + 1;
	for (unsigned i = 0; i < bu->n; i++) {
		const simt_instr *in = &bu->in[i];
		if (in->opc == SIMT_SHFL) {
			if (in->guard < 0 || th->p[in->guard] != (bool)in->guard_neg)
				th->r[in->d] = xbar[simt_shfl_lane(in->cmp, th->tid, operand(th, &in->b),
								   th->ntid)];
			continue;
		}
		int rc = step(r, th, in, k->name, d);
		if (rc < 0)
			return -1;
		if (rc == 1)
			next = in->target;
		if (rc == 2) {
			th->done = true;
			return 0;
		}
	}
	th->pc = next;
	th->done = next >= k->n;
	return 0;
}

/* One more bundle for th: -1 with d set past max_bundles. */
static int count_step(simt_ref *r, const simt_kernel *k, thread *th, diag *d)
{
	if (++th->steps <= r->p->max_bundles)
		return 0;
	diag_at(d, r->p->path, k->line, 0,
		"kernel '%s': thread %u of CTA %u did not end within %llu bundles (max_bundles)",
		k->name, th->tid, th->ctaid, (unsigned long long)r->p->max_bundles);
	return -1;
}

/* Does bundle bu end in bar.sync? */
static const simt_instr *barrier_of(const simt_bundle *bu)
{
	return bu->n && bu->in[bu->n - 1].opc == SIMT_BAR ? &bu->in[bu->n - 1] : NULL;
}

/* Run one thread alone until it ends or reaches a shuffle or a barrier
 * (not run). */
static int run_thread(simt_ref *r, const simt_kernel *k, thread *th, diag *d)
{
	while (!th->done && !shuffle_of(&k->b[th->pc]) && !barrier_of(&k->b[th->pc]))
		if (count_step(r, k, th, d) < 0 || run_bundle(r, k, th, NULL, d) < 0)
			return -1;
	return 0;
}

/* Every live thread of the CTA is at the same shuffle: run its bundle
 * on each, with the source words of all threads read before it.  A
 * thread elsewhere makes the shuffle mean nothing: an error. */
static int run_shuffle(simt_ref *r, const simt_kernel *k, thread *th, uint32_t n,
		       uint32_t at, diag *d)
{
	const simt_instr *sh = shuffle_of(&k->b[th[at].pc]);
	for (uint32_t t = 0; t < n; t++)
		if (!th[t].done && th[t].pc != th[at].pc) {
			diag_at(d, r->p->path, sh->line, sh->col,
				"kernel '%s': CTA %u: shfl reached by thread %u while thread %u is at bundle %u (a shuffle needs every live thread of the CTA at it)",
				k->name, th[at].ctaid, at, t, (unsigned)th[t].pc);
			return -1;
		}
	for (uint32_t t = 0; t < n; t++)
		r->xbar[t] = th[t].r[sh->a.reg];
	for (uint32_t t = 0; t < n; t++) {
		if (th[t].done)
			continue;
		if (count_step(r, k, &th[t], d) < 0 || run_bundle(r, k, &th[t], r->xbar, d) < 0)
			return -1;
	}
	return 0;
}

/* Every live thread of the CTA waits at a barrier: all at the same one,
 * they pass it (its bundle runs for each); else an error. */
static int run_barrier(simt_ref *r, const simt_kernel *k, thread *th, uint32_t n, uint32_t at,
		       diag *d)
{
	const simt_instr *bar = barrier_of(&k->b[th[at].pc]);
	for (uint32_t t = 0; t < n; t++)
		if (!th[t].done && th[t].pc != th[at].pc) {
			diag_at(d, r->p->path, bar->line, bar->col,
				"kernel '%s': CTA %u: every running thread waits at a bar.sync, but not at the same one (thread %u waits here): a barrier in divergent code",
				k->name, th[at].ctaid, at);
			return -1;
		}
	for (uint32_t t = 0; t < n; t++)
		if (!th[t].done && (count_step(r, k, &th[t], d) < 0 || run_bundle(r, k, &th[t], NULL, d) < 0))
			return -1;
	return 0;
}

/* A CTA: each thread alone up to the next shuffle or barrier (all of
 * it, without one), then the shuffle or the barrier for all of them at
 * once, until every thread has ended. */
static int run_cta(simt_ref *r, const simt_kernel *k, const simt_launch *l, uint32_t cta,
		   diag *d)
{
	thread *th = r->th;
	for (uint32_t t = 0; t < l->block; t++)
		th[t] = (thread){ .tid = t, .ntid = l->block, .ctaid = cta, .nctaid = l->grid,
				  .done = k->n == 0 };
	for (;;) {
		int64_t at = -1;
		for (uint32_t t = 0; t < l->block; t++) {
			if (run_thread(r, k, &th[t], d) < 0)
				return -1;
			if (!th[t].done && at < 0)
				at = t;
		}
		if (at < 0)
			return 0;
		/* the first live thread's stop decides: a thread at the other
		 * kind is at another bundle, an error either way */
		if (barrier_of(&k->b[th[at].pc]) && !shuffle_of(&k->b[th[at].pc])
		    ? run_barrier(r, k, th, l->block, (uint32_t)at, d) < 0
		    : run_shuffle(r, k, th, l->block, (uint32_t)at, d) < 0)
			return -1;
	}
}

/* Keep room for the registers of the CTAs the machine may still hold at
 * the end of this launch: its last min(grid, cbs x floor(1024 / block)),
 * as many as its CBs' bitlines can hold, however they are packed. */
static int keep_room(simt_ref *r, const simt_launch *l, diag *d)
{
	uint64_t most = (uint64_t)r->p->cbs * (SIMT_CB_THREADS / l->block);
	uint32_t n = l->grid < most ? l->grid : (uint32_t)most;
	size_t words = (size_t)n * l->block * SIMT_REGS;
	uint32_t *k = realloc(r->keep, words * sizeof *k);
	if (!k) {
		diag_file(d, r->p->path, "out of memory");
		return -1;
	}
	r->keep = k;
	r->keep_first = l->grid - n;
	r->keep_n = n;
	r->keep_block = l->block;
	return 0;
}

int simt_ref_run(simt_ref *r, diag *d)
{
	return simt_ref_run_ctas(r, UINT64_MAX, d);
}

int simt_ref_run_ctas(simt_ref *r, uint64_t n, diag *d)
{
	const simt_program *p = r->p;
	for (size_t li = 0; li < p->nl && n; li++) {
		const simt_launch *l = &p->l[li];
		const simt_kernel *k = &p->k[l->kernel];
		r->l = l;
		if (keep_room(r, l, d) < 0)
			return -1;
		for (uint32_t cta = 0; cta < l->grid && n; cta++, n--) {
			if (run_cta(r, k, l, cta, d) < 0)
				return -1;
			for (uint32_t t = 0; cta >= r->keep_first && t < l->block; t++)
				memcpy(&r->keep[((size_t)(cta - r->keep_first) * l->block + t) * SIMT_REGS],
				       r->th[t].r, sizeof r->th[t].r);
		}
	}
	return 0;
}
