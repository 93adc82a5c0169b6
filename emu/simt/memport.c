/* SPDX-License-Identifier: MIT */
/*
 * memport.c: what crosses the arrays' edge (duality-cache §3.3, "Load
 * and Store Instructions"): addresses are read bit-serially from their
 * array into the transpose memory unit (TMU), each thread's line is
 * registered in the MSHR, which merges requests to a line it already
 * holds, the lines come back through the TMU and the crossbar to the
 * threads.  Copies between member arrays and the special registers of a
 * launch take the same crossbar.  These move bits, they compute nothing:
 * they use the arrays' ordinary port (sram_get_bit, sram_set_bit).
 *
 * Cycles (the paper gives none; doc/SIMT.md, "Statistics"): 32 to read
 * the addresses out (none for local memory), one a line through the
 * TMU, 32 to write the data (a load) or read it out (a store); 32 for a
 * copy or a special register.
 */
#include <stdlib.h>

#include "machine_int.h"

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* Every thread's address, checked before anything moves.  A local
 * access's address is formed in the C-Box from the CB, the thread and
 * the offset, as a GPU's local memory is interleaved by thread, so the
 * same word of neighbouring threads shares a line (doc/SIMT.md, "Local
 * memory"); nothing is read from the arrays. */
static int addresses(simt_machine *m, const simt_kernel *k, const simt_instr *in,
		     const simt_mask *act, uint32_t *addr, diag *d)
{
	simt_cb *cb = &m->cb;
	const simt_program *p = m->p;
	for (unsigned t = 0; t < SIMT_CB_THREADS; t++) {
		if (!simt_mask_bit(act, t))
			continue;
		if (in->local) {
			addr[t] = p->local_addr + ((cb->index * p->local_words + in->a.imm / 4) *
						    SIMT_CB_THREADS + t) * 4;
			continue;
		}
		uint32_t a = simt_port_read(m, cb->index, t, in->a.reg);
		addr[t] = a;
		if (a % 4 == 0 && a < m->p->mem_bytes)
			continue;
		diag_at(d, m->p->path, in->line, in->col,
			"kernel '%s': thread %u of CTA %u %s address 0x%x, %s (the globals hold %u bytes)",
			k->name, t, cb->cta, in->opc == SIMT_LD ? "loads from" : "stores to", a,
			a % 4 ? "not 4-byte aligned" : "outside the DC pages", m->p->mem_bytes);
		return -1;
	}
	return 0;
}

/* The MSHR: how many distinct lines the requests name. */
static unsigned mshr_lines(simt_machine *m, const simt_mask *act, const uint32_t *addr,
			   unsigned *requests)
{
	unsigned n = 0;
	for (unsigned t = 0; t < SIMT_CB_THREADS; t++)
		if (simt_mask_bit(act, t))
			m->lines[n++] = addr[t] / SIMT_LINE_BYTES;
	*requests = n;
	if (n == 0)
		return 0;
	qsort(m->lines, n, sizeof *m->lines, cmp_u32);
	unsigned u = 1;
	for (unsigned i = 1; i < n; i++)
		u += m->lines[i] != m->lines[i - 1];
	return u;
}

int64_t simt_mem_run(simt_machine *m, const simt_kernel *k, const simt_instr *in,
		     const simt_mask *act, diag *d)
{
	uint32_t *addr = m->addr;
	unsigned cbi = m->cb.index, requests;
	if (addresses(m, k, in, act, addr, d) < 0)
		return -1;
	unsigned lines = mshr_lines(m, act, addr, &requests);
	for (unsigned t = 0; t < SIMT_CB_THREADS; t++) {
		if (!simt_mask_bit(act, t))
			continue;
		if (in->opc == SIMT_LD)
			simt_port_write(m, cbi, t, in->d, m->mem[addr[t] / 4]);
		else /* threads in order: the highest thread's store is last */
			m->mem[addr[t] / 4] = simt_port_read(m, cbi, t, in->b.reg);
	}
	m->st.mem_requests += requests;
	m->st.mem_lines += lines;
	m->st.mshr_merges += requests - lines;
	m->st.spills += in->local && in->opc == SIMT_ST;
	m->st.reloads += in->local && in->opc == SIMT_LD;
	return (in->local ? 1 : 2) * SIMT_REG_BITS + lines;
}

static uint32_t special(const simt_cb *cb, unsigned which, unsigned t)
{
	switch (which) {
	case SIMT_TID: return t;
	case SIMT_NTID: return cb->ntid;
	case SIMT_CTAID: return cb->cta;
	default: return cb->nctaid;
	}
}

uint64_t simt_move_run(simt_machine *m, const simt_instr *in, const simt_mask *act)
{
	simt_cb *cb = &m->cb;
	for (unsigned t = 0; t < SIMT_CB_THREADS; t++) {
		if (!simt_mask_bit(act, t))
			continue;
		uint32_t v = in->a.kind == SIMT_O_SPECIAL ? special(cb, in->a.reg, t)
			: simt_port_read(m, cb->index, t, in->a.reg);
		simt_port_write(m, cb->index, t, in->d, v);
	}
	if (in->a.kind == SIMT_O_REG)
		m->st.copies++;
	return SIMT_REG_BITS;
}
