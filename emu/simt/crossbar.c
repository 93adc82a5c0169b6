/* SPDX-License-Identifier: MIT */
/*
 * crossbar.c: shfl, a value exchanged between the threads of a CB
 * (duality-cache §3.3: "threads within a CB communicate through the
 * crossbar").  The source register is read out of every TB's array
 * bit-serially into the C-Box, as a load's addresses are; the crossbar
 * routes each thread's source lane to it; the words are written back
 * into the destination register the way a load's data is.  Nothing is
 * computed: the bits move through the arrays' ordinary port, and the
 * lane is the crossbar's routing, set from the instruction (doc/SIMT.md,
 * "Exchange between threads").
 *
 * The lanes are those of the thread's own CTA (a CB may hold several,
 * simt_cta_place): lane j of the CTA on the CB's bitlines from base is
 * bitline base + j, and a lane outside the CTA is one outside it still
 * when a neighbouring CTA's threads are on those bitlines.  Warps are a
 * CTA's threads 32 by 32 from its thread 0, so a warp never straddles
 * two CTAs; a CTA whose size is not a multiple of 32 ends in a partial
 * warp, whose missing lanes do not issue the shfl.sync.
 *
 * A shuffle reads the registers of threads other than the one it
 * writes, so it has one meaning only when every live thread of the CTA
 * is at it: one issued with threads of its CTA waiting at another
 * bundle (a divergent shuffle) stops the run with a message.  Translated PTX's
 * shfl.sync (SIMT_SHFL_WARP) is a warp's: a thread may read only a lane
 * that issues it with it, else the run stops; the translator's vote
 * (SIMT_SHFL_ZERO) reads 0 from a lane that does not, which counts a
 * thread of the warp that is elsewhere (on its way out, as after `if (i
 * >= n) return;`) as having left, as the reference counts it.
 *
 * Cycles: 32 to read the source register out, 32 to write the words
 * in, 32 more to read a member mask held in a register; the crossbar
 * is the memory port's, so a bundle has one memory or crossbar
 * operation.
 */
#include "machine_int.h"

/* Every live thread of each CTA the shfl issues to is at it. */
static int converged(simt_machine *m, const simt_kernel *k, const simt_instr *in,
		     const simt_mask *act, diag *d)
{
	const simt_cb *cb = &m->cb;
	for (unsigned s = 0; s < cb->ctas; s++) {
		unsigned from = s * cb->ntid, to = from + cb->ntid;
		bool here = false;
		for (unsigned t = from; t < to && !here; t++)
			here = simt_mask_bit(act, t);
		for (unsigned t = from; here && t < to; t++) {
			if (!simt_mask_bit(&cb->live, t) || simt_mask_bit(act, t))
				continue;
			diag_at(d, m->p->path, in->line, in->col,
				"kernel '%s': CTA %u: shfl issued while thread %u waits at bundle %u (a shuffle needs every live thread of the CTA at it)",
				k->name, cb->cta + s, t - from, (unsigned)cb->pc[t]);
			return -1;
		}
	}
	return 0;
}

/* Translated PTX's member mask (the c operand of a warp shuffle, when
 * the translator gives one: PTX's membermask other than all ones), as
 * the PTX reference checks it (emu/ptx/ref.c): thread t must be in its
 * mask, and so must the lane j it reads (not checked for a .zero
 * shuffle, the translator's vote.sync, which reads 0 from a lane that
 * is not there).  t is the thread's bitline, tid its thread in its
 * CTA; the mask's word comes out through the port as the lane's does. */
static int member_check(simt_machine *m, const simt_kernel *k, const simt_instr *in, uint32_t t,
			uint32_t tid, uint32_t j, diag *d)
{
	simt_cb *cb = &m->cb;
	uint32_t mask = in->c.kind == SIMT_O_IMM ? (uint32_t)in->c.imm
		: (uint32_t)simt_port_read(m, cb->index, t, in->c.reg, 32);
	if (!(mask >> (tid & 31) & 1)) {
		diag_at(d, m->p->path, in->line, in->col,
			"kernel '%s': CTA %u: thread %u's %s member mask 0x%08x leaves out the thread itself",
			k->name, simt_cb_cta(cb, t), tid, in->off & SIMT_SHFL_ZERO ? "vote.sync" : "shfl.sync",
			mask);
		return -1;
	}
	if (!(in->off & SIMT_SHFL_ZERO) && !(mask >> (j & 31) & 1)) {
		diag_at(d, m->p->path, in->line, in->col,
			"kernel '%s': CTA %u: thread %u's shfl.sync reads thread %u, which is not in its member mask 0x%08x",
			k->name, simt_cb_cta(cb, t), tid, j, mask);
		return -1;
	}
	return 0;
}

int64_t simt_shfl_run(simt_machine *m, const simt_kernel *k, const simt_instr *in,
		      const simt_mask *act, const simt_mask *g, diag *d)
{
	simt_cb *cb = &m->cb;
	bool warp = (in->off & SIMT_SHFL_WARP) != 0;
	if (!warp && converged(m, k, in, act, d) < 0)
		return -1;
	/* Out through the port: every thread's source word (the lanes
	 * that are not live hold what they last had). */
	uint32_t *out = m->addr;
	const unsigned lanes = simt_cb_lanes(cb);
	for (unsigned t = 0; t < lanes; t++)
		out[t] = (uint32_t)simt_port_read(m, cb->index, t, in->a.reg, 32);
	uint64_t moved = 0;
	for (unsigned t = 0; t < lanes; t++) {
		if (!simt_mask_bit(g, t))
			continue;
		/* the lanes of t's CTA, on the bitlines from base */
		const uint32_t tid = simt_cb_tid(cb, t), base = t - tid;
		uint32_t b = in->b.kind == SIMT_O_IMM ? (uint32_t)in->b.imm
			: (uint32_t)simt_port_read(m, cb->index, t, in->b.reg, 32);
		uint32_t j = in->off & SIMT_SHFL_WARP
			? simt_shfl_lane_warp(in->cmp, tid, b, (uint32_t)in->off & 0xffff)
			: simt_shfl_lane(in->cmp, tid, b, cb->ntid);
		if (warp && in->c.kind != SIMT_O_NONE && member_check(m, k, in, t, tid, j, d) < 0)
			return -1;
		bool absent = j >= cb->ntid || !simt_mask_bit(act, base + j);
		if (warp && absent && (in->off & SIMT_SHFL_ZERO)) {
			simt_port_write(m, cb->index, t, in->d, 0, 32);
			moved++;
			continue;
		}
		if (warp && absent) {
			diag_at(d, m->p->path, in->line, in->col,
				"kernel '%s': CTA %u: thread %u's shfl.sync reads thread %u, which is not at this shfl.sync",
				k->name, simt_cb_cta(cb, t), tid, j);
			return -1;
		}
		simt_port_write(m, cb->index, t, in->d, out[base + j], 32);
		moved += j != tid;
	}
	m->st.shuffles++;
	m->st.shuffle_lanes += moved;
	return (in->c.kind == SIMT_O_REG ? 3 : 2) * SIMT_REG_BITS;
}
