/* SPDX-License-Identifier: MIT */
/*
 * compare.c: where the machine and the reference meet (doc/SIMT.md,
 * "Reference"): every word of memory, then every register of the CTAs
 * the CBs still hold (each CB the CTAs of its last run, several when
 * packed), bit for bit; the first difference is named.
 */
#include "machine_int.h"

/* Where a differing word is: a global's element, padding, shared or
 * local memory (named by word index in the region; doc/SIMT.md, "Shared
 * memory", "Local memory and spilling"). */
const char *simt_word_owner(const simt_program *p, uint32_t addr, uint32_t *index)
{
	for (size_t i = 0; i < p->ng; i++)
		if (addr >= p->g[i].addr && addr < p->g[i].addr + p->g[i].count * 4) {
			*index = (addr - p->g[i].addr) / 4;
			return p->g[i].name;
		}
	if (p->shared_bytes && addr >= p->shared_addr &&
	    addr - p->shared_addr < (uint64_t)p->cbs * p->shared_windows * p->shared_bytes) {
		*index = (addr - p->shared_addr) / 4;
		return "(shared memory)";
	}
	if (p->local_words && addr >= p->local_addr) {
		*index = (addr - p->local_addr) / 4;
		return "(local memory)";
	}
	*index = addr / 4;
	return "(padding)";
}

static int first_reg_diff(simt_machine *m, const simt_ref *r, simt_diff *x)
{
	const simt_program *p = m->p;
	if (p->nl == 0)
		return 0;
	const simt_launch *l = &p->l[p->nl - 1];
	for (uint32_t cta = 0; cta < l->grid; cta++)
		for (uint32_t t = 0; t < l->block; t++)
			for (unsigned reg = 0; reg < SIMT_REGS; reg++) {
				uint32_t a, b;
				if (simt_machine_reg(m, cta, t, reg, &a) < 0)
					break;
				if (simt_ref_reg(r, cta, t, reg, &b) < 0)
					break;
				if (a == b)
					continue;
				*x = (simt_diff){ .reg = true, .cta = cta, .t = t, .index = reg,
						  .got = a, .want = b };
				return 1;
			}
	return 0;
}

int simt_first_diff(simt_machine *m, const simt_ref *r, bool regs, uint32_t skip_run,
		    simt_diff *x)
{
	const simt_program *p = m->p;
	const uint32_t *a = simt_machine_mem(m), *b = simt_ref_mem(r);
	for (uint32_t w = 0; w < p->mem_bytes / 4; w++) {
		if (a[w] == b[w] || (skip_run && simt_machine_mem_writer(m, w).run >= skip_run))
			continue;
		*x = (simt_diff){ .word = w, .got = a[w], .want = b[w] };
		return 1;
	}
	return regs ? first_reg_diff(m, r, x) : 0;
}

int simt_compare(simt_machine *m, const simt_ref *r, diag *d)
{
	const simt_program *p = m->p;
	simt_diff x;
	if (!simt_first_diff(m, r, true, 0, &x))
		return 0;
	if (x.reg) {
		diag_file(d, p->path,
			  "r%u of thread %u of CTA %u differs: machine 0x%08x, reference 0x%08x",
			  x.index, x.t, x.cta, x.got, x.want);
		return 1;
	}
	uint32_t idx;
	const char *g = simt_word_owner(p, x.word * 4, &idx);
	diag_file(d, p->path, "%s[%u] differs: machine 0x%08x, reference 0x%08x", g, idx, x.got,
		  x.want);
	return 1;
}
