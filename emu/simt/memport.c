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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine_int.h"

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

static const char *const space_names[] = { "", "local ", "shared ", "parameter " };

static unsigned access_bytes(const simt_instr *in)
{
	return simt_type_bits(in->type) / 8;
}

/* Every thread's address, checked before anything moves.  A local
 * access's address is formed in the C-Box from the CB, the thread and
 * the offset, as a GPU's local memory is interleaved by thread, so the
 * same word of neighbouring threads shares a line (doc/SIMT.md, "Local
 * memory"); nothing is read from the arrays.  Shared and parameter
 * addresses are offsets into the window of the thread's CTA (one a CTA
 * the CB holds) and the launch's buffer. */
static int addresses(simt_machine *m, const simt_kernel *k, const simt_instr *in,
		     const simt_mask *act, uint32_t *addr, diag *d)
{
	simt_cb *cb = &m->cb;
	const simt_program *p = m->p;
	unsigned n = access_bytes(in), space = in->local ? SIMT_SPACE_LOCAL : in->space;
	const char *verb = in->opc == SIMT_LD ? "loads from" : in->opc == SIMT_ST ? "stores to"
		: "updates";
	for (unsigned t = 0; t < SIMT_CB_THREADS; t++) {
		if (!simt_mask_bit(act, t))
			continue;
		if (space == SIMT_SPACE_LOCAL && in->a.kind == SIMT_O_IMM) {
			addr[t] = p->local_addr + (uint32_t)((cb->index * p->local_words + in->a.imm / 4) *
						    SIMT_CB_THREADS + t) * 4;
			continue;
		}
		uint64_t a = in->a.kind == SIMT_O_IMM ? in->a.imm
			: simt_port_read(m, cb->index, t, in->a.reg, in->addr64 ? 64 : 32);
		a += (uint64_t)(int64_t)in->off;
		if (!in->addr64 && in->a.kind == SIMT_O_REG)
			a &= 0xffffffffu;
		uint64_t base = 0, size = p->mem_bytes;
		if (space == SIMT_SPACE_SHARED) {
			/* the window of the thread's CTA: its slot on the CB */
			unsigned windows = p->shared_windows ? p->shared_windows : 1;
			base = p->shared_addr + ((uint64_t)cb->index * windows + t / cb->ntid) *
				p->shared_bytes;
			size = p->shared_bytes;
		} else if (space == SIMT_SPACE_PARAM) {
			base = p->l[m->launch].param_addr;
			size = p->mem_bytes - base;
		}
		char why[64] = "";
		if (a % n)
			snprintf(why, sizeof why, "not %u-byte aligned", n);
		else if (a >= size || size - a < n)
			snprintf(why, sizeof why, "outside the %s", space == SIMT_SPACE_GLOBAL ? "DC pages"
				 : space == SIMT_SPACE_SHARED ? "CTA's shared memory" : "launch's parameters");
		if (!why[0]) {
			addr[t] = (uint32_t)(base + a);
			continue;
		}
		diag_at(d, p->path, in->line, in->col,
			"kernel '%s': thread %u of CTA %u %s %saddress 0x%llx, %s (%s %llu bytes)",
			k->name, simt_cb_tid(cb, t), simt_cb_cta(cb, t), verb,
			space == SIMT_SPACE_GLOBAL ? "" : space_names[space],
			(unsigned long long)a, why,
			space == SIMT_SPACE_GLOBAL ? "the globals hold" : "it holds", (unsigned long long)size);
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

static uint64_t mem_get(const simt_machine *m, uint32_t at, unsigned n)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)((m->mem[(at + i) / 4] >> (8 * ((at + i) % 4))) & 0xff) << (8 * i);
	return v;
}

static void mem_put(simt_machine *m, uint32_t at, unsigned n, uint64_t v)
{
	for (unsigned i = 0; i < n; i++) {
		uint32_t *w = &m->mem[(at + i) / 4], sh = 8 * ((at + i) % 4);
		*w = (*w & ~(UINT32_C(0xff) << sh)) | (uint32_t)((v >> (8 * i)) & 0xff) << sh;
	}
}

static float f32_of(uint32_t b)
{
	float f;
	memcpy(&f, &b, 4);
	return f;
}

/* The near-memory atomic unit: plain logic beside the cache. */
static uint64_t atom_op(const simt_instr *in, uint64_t old, uint64_t b, uint64_t c)
{
	unsigned w = simt_type_bits(in->type);
	uint64_t mask = w == 64 ? ~UINT64_C(0) : (UINT64_C(1) << w) - 1;
	bool sg = in->type == SIMT_S32 || in->type == SIMT_S64;
	int64_t so = w == 64 ? (int64_t)old : (int64_t)(int32_t)(uint32_t)old;
	int64_t sb = w == 64 ? (int64_t)b : (int64_t)(int32_t)(uint32_t)b;
	switch (in->cmp) {
	case SIMT_ATOM_ADD:
		if (in->type == SIMT_F32) {
			float r = f32_of((uint32_t)old) + f32_of((uint32_t)b);
			uint32_t rb;
			memcpy(&rb, &r, 4);
			return rb;
		}
		return (old + b) & mask;
	case SIMT_ATOM_MIN: return (sg ? so < sb : old < b) ? old : b;
	case SIMT_ATOM_MAX: return (sg ? so > sb : old > b) ? old : b;
	case SIMT_ATOM_EXCH: return b;
	case SIMT_ATOM_CAS: return old == b ? c : old;
	case SIMT_ATOM_AND: return old & b;
	case SIMT_ATOM_OR: return old | b;
	case SIMT_ATOM_XOR: return old ^ b;
	case SIMT_ATOM_INC: return old >= b ? 0 : (old + 1) & mask;
	default: return old == 0 || old > b ? b : old - 1;
	}
}

int64_t simt_mem_run(simt_machine *m, const simt_kernel *k, const simt_instr *in,
		     const simt_mask *act, diag *d)
{
	uint32_t *addr = m->addr;
	unsigned cbi = m->cb.index, requests, n = access_bytes(in);
	unsigned bits = simt_type_bits(in->type);
	if (addresses(m, k, in, act, addr, d) < 0)
		return -1;
	unsigned lines = mshr_lines(m, act, addr, &requests);
	for (unsigned t = 0; t < SIMT_CB_THREADS; t++) {
		if (!simt_mask_bit(act, t))
			continue;
		if (in->opc == SIMT_LD) {
			uint64_t v = mem_get(m, addr[t], n);
			if (bits < 32 && simt_type_signed(in->type) && (v >> (bits - 1) & 1))
				v |= ~UINT64_C(0) << bits;
			simt_port_write(m, cbi, t, in->d, v, bits == 64 ? 64 : 32);
		} else if (in->opc == SIMT_ST) { /* threads in order: the highest thread's store is last */
			mem_put(m, addr[t], n, simt_port_read(m, cbi, t, in->b.reg, bits == 64 ? 64 : 32));
		} else {
			unsigned rb = bits == 64 ? 64 : 32;
			uint64_t old = mem_get(m, addr[t], n);
			uint64_t b = simt_port_read(m, cbi, t, in->b.reg, rb);
			uint64_t c = in->c.kind == SIMT_O_REG ? simt_port_read(m, cbi, t, in->c.reg, rb) : 0;
			mem_put(m, addr[t], n, atom_op(in, old, b, c));
			simt_port_write(m, cbi, t, in->d, old, rb);
		}
	}
	m->st.mem_requests += requests;
	m->st.mem_lines += lines;
	m->st.mshr_merges += requests - lines;
	bool local = in->local || in->space == SIMT_SPACE_LOCAL;
	m->st.spills += local && in->opc == SIMT_ST;
	m->st.reloads += local && in->opc == SIMT_LD;
	unsigned data = bits > SIMT_REG_BITS ? bits : SIMT_REG_BITS;
	if (in->opc == SIMT_ATOM)
		return 2 * SIMT_REG_BITS + 2 * data + 2 * lines;
	return (local && in->a.kind == SIMT_O_IMM ? 0 : SIMT_REG_BITS) + data + lines;
}

/* A special register of the thread on bitline t of the running CB: its
 * thread in its CTA and its CTA's number. */
static uint32_t special(const simt_machine *m, unsigned which, unsigned bitline)
{
	const simt_cb *cb = &m->cb;
	const unsigned t = simt_cb_tid(cb, bitline);
	const simt_launch *l = &m->p->l[m->launch];
	uint32_t b[3] = { cb->ntid, 1, 1 }, g[3] = { cb->nctaid, 1, 1 };
	if (l->bdim[0]) {
		memcpy(b, l->bdim, sizeof b);
		memcpy(g, l->gdim, sizeof g);
	}
	uint32_t tid[3] = { t % b[0], t / b[0] % b[1], t / (b[0] * b[1]) };
	uint32_t c = simt_cb_cta(cb, bitline), cta[3] = { c % g[0], c / g[0] % g[1], c / (g[0] * g[1]) };
	switch (which) {
	case SIMT_TID: return tid[0];
	case SIMT_TID_Y: return tid[1];
	case SIMT_TID_Z: return tid[2];
	case SIMT_NTID: return b[0];
	case SIMT_NTID_Y: return b[1];
	case SIMT_NTID_Z: return b[2];
	case SIMT_CTAID: return cta[0];
	case SIMT_CTAID_Y: return cta[1];
	case SIMT_CTAID_Z: return cta[2];
	case SIMT_NCTAID: return g[0];
	case SIMT_NCTAID_Y: return g[1];
	case SIMT_NCTAID_Z: return g[2];
	default: return t % 32;
	}
}

uint32_t simt_special_value(const simt_machine *m, unsigned which, unsigned t)
{
	return special(m, which, t);
}

uint64_t simt_move_run(simt_machine *m, const simt_instr *in, const simt_mask *act)
{
	simt_cb *cb = &m->cb;
	unsigned bits = simt_type_bits(in->type) == 64 && in->a.kind == SIMT_O_REG ? 64 : 32;
	for (unsigned t = 0; t < SIMT_CB_THREADS; t++) {
		if (!simt_mask_bit(act, t))
			continue;
		uint64_t v = in->a.kind == SIMT_O_SPECIAL ? special(m, in->a.reg, t)
			: simt_port_read(m, cb->index, t, in->a.reg, bits);
		simt_port_write(m, cb->index, t, in->d, v, bits);
	}
	if (in->a.kind == SIMT_O_REG)
		m->st.copies++;
	return bits;
}
