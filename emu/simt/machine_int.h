/* SPDX-License-Identifier: MIT */
/*
 * machine_int.h: the state of the SIMT machine, shared by its files:
 * machine.c (launches, CBs, the PC and masks), slot.c (an ALU slot on
 * the arrays) and memport.c (loads, stores, copies through the TMU and
 * the MSHR).
 */
#ifndef INFSIM_SIMT_MACHINE_INT_H
#define INFSIM_SIMT_MACHINE_INT_H

#include "simt_int.h"
#include "sram.h"

#define SIMT_TB_WORDS (SIMT_TB_THREADS / 64)


/* One CB while it runs its CTAs: the per-thread PCs (min-PC scheduling
 * gives the wired-OR jump of §3.3), the live threads, the predicates
 * (peripheral latches, one bit a thread), the CTAs' numbers.  It holds
 * CTAs cta .. cta + ctas - 1 of ntid threads (simt_cta_place): the
 * thread on bitline t is thread t % ntid of CTA cta + t / ntid. */
typedef struct simt_cb {
	unsigned index;
	uint32_t pc[SIMT_CB_THREADS];
	simt_mask live;
	simt_mask pred[SIMT_PREDS];
	uint32_t cta, ctas, ntid, nctaid;
	uint64_t cycles;      /* compute + memory, this CB, all its CTAs */
} simt_cb;

/* The bitlines the CB's CTAs take; the CTA and the thread of bitline t. */
static inline unsigned simt_cb_lanes(const simt_cb *c)
{
	return c->ctas * c->ntid;
}
static inline uint32_t simt_cb_cta(const simt_cb *c, unsigned t)
{
	return c->ntid ? c->cta + t / c->ntid : c->cta;
}
static inline unsigned simt_cb_tid(const simt_cb *c, unsigned t)
{
	return c->ntid ? t % c->ntid : t;
}

struct simt_machine {
	const simt_program *p;
	sram_machine *s;
	uint32_t *mem;
	simt_stats st;
	isa_prog prog;
	simt_cb cb;
	int64_t *held;        /* the first CTA of the last launch each CB holds, -1 none */
	uint32_t held_block, held_slots, held_grid; /* that launch's block, CTAs a CB, grid */
	uint64_t *cb_cycles;  /* per CB */
	/* where the run is: launch, next CTA, the CTA running on cb */
	size_t launch;
	uint32_t next_cta;
	bool running;
	uint64_t issued, cta_cycles; /* of the CB's run of its CTAs */
	/* The writers (simt_machine_track), NULL unless tracked: a word of
	 * memory each, a register of each thread of each CB each; kbase[k]
	 * numbers kernel k's first bundle among all kernels'. */
	simt_writer *mem_w, *reg_w;
	uint32_t *kbase;
	uint32_t lines[SIMT_CB_THREADS]; /* the MSHR: line numbers of one memory operation */
	uint32_t addr[SIMT_CB_THREADS];  /* the TMU: the addresses read out */
};

/* The SRAM array of member array k of TB j of CB cb. */
static inline unsigned simt_array_of(unsigned cb, unsigned tb, unsigned k)
{
	return (cb * SIMT_TBS + tb) * SIMT_ARRAYS + k;
}
static inline bool simt_mask_bit(const simt_mask *m, unsigned t)
{
	return (m->w[t / 64] >> (t % 64)) & 1;
}
static inline void simt_mask_put(simt_mask *m, unsigned t, bool v)
{
	uint64_t b = UINT64_C(1) << (t % 64);
	m->w[t / 64] = v ? m->w[t / 64] | b : m->w[t / 64] & ~b;
}
bool simt_mask_any(const simt_mask *m);
unsigned simt_mask_count(const simt_mask *m);

/* The threads of mask act whose guard holds. */
simt_mask simt_guarded(const simt_cb *cb, const simt_instr *in, const simt_mask *act);

/* An ALU slot on its array in every TB of the CB: its cycles, baseline
 * and as run (slot.c). */
typedef struct simt_cost { uint64_t base, run; } simt_cost;
int simt_slot_run(simt_machine *m, const simt_instr *in, const simt_mask *act,
		  simt_cost *cost, diag *d);
/* Registers through the port: a thread's bits (32 or 64) of reg. */
uint64_t simt_port_read(simt_machine *m, unsigned cb, unsigned t, unsigned reg, unsigned bits);
void simt_port_write(simt_machine *m, unsigned cb, unsigned t, unsigned reg, uint64_t v,
		     unsigned bits);

/* A load or store through the TMU and the MSHR; a copy between arrays
 * or a special register through the crossbar (memport.c).  Returns its
 * cycles, or -1 with d set (an address outside the DC pages). */
int64_t simt_mem_run(simt_machine *m, const simt_kernel *k, const simt_instr *in,
		     const simt_mask *act, diag *d);
/* shfl through the crossbar (crossbar.c): act the bundle's threads, g
 * those whose guard holds.  Its cycles, or -1 with d set (a divergent
 * shuffle). */
int64_t simt_shfl_run(simt_machine *m, const simt_kernel *k, const simt_instr *in,
		      const simt_mask *act, const simt_mask *g, diag *d);
uint64_t simt_move_run(simt_machine *m, const simt_instr *in, const simt_mask *act);
/* Special register which of the thread on bitline t of the running CB. */
uint32_t simt_special_value(const simt_machine *m, unsigned which, unsigned t);

#endif
