/* SPDX-License-Identifier: MIT */
/*
 * ptxprog.c: a SIMT program from a PTX module and its launches
 * (ptxc.h): the kernels translated, the memory laid out as doc/SIMT.md
 * ("Translated PTX") says.
 */
#include <stdlib.h>
#include <string.h>

#include "ptx_int.h"
#include "ptxc.h"
#include "simt_int.h"

static uint64_t align_up(uint64_t x, uint64_t a)
{
	return (x + a - 1) / a * a;
}

static void put_le(uint8_t *p, unsigned n, uint64_t v)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

int simt_ptx_program(const char *path, const ptx_module *m, const simt_ptx_call *c, size_t nc,
		     uint64_t dev_bytes, int mapping, simt_program *p, diag *d)
{
	simt_program_init(p, path, mapping);
	p->ieee = 1;
	p->units = SIMT_UNITS_MAX;
	p->cordic_iters = PTX_CORDIC_ITERS;
	if (nc == 0) {
		diag_file(d, path, "no launch: the program runs nothing");
		return -1;
	}
	/* the kernels the launches name, once each */
	int *slot = malloc(m->nk * sizeof *slot);
	p->k = calloc(m->nk, sizeof *p->k);
	p->l = calloc(nc, sizeof *p->l);
	if (!slot || !p->k || !p->l)
		goto oom;
	for (size_t i = 0; i < m->nk; i++)
		slot[i] = -1;
	simt_ptx_layout lay;
	uint64_t at = align_up(dev_bytes, 256);
	lay.global_base = (uint32_t)at;
	at = align_up(at + m->global_bytes, 256);
	lay.const_base = (uint32_t)at;
	at = align_up(at + m->const_bytes, 256);
	uint32_t local_words = 0, shared = 0;
	for (size_t i = 0; i < nc; i++) {
		size_t k = c[i].kernel;
		if (slot[k] >= 0)
			continue;
		simt_ptx_needs nd;
		if (simt_ptx_translate(m, k, &lay, mapping, &p->k[p->nk], &nd, d) < 0)
			goto fail;
		slot[k] = (int)p->nk++;
		if (nd.local_words > local_words)
			local_words = nd.local_words;
		if (nd.shared_bytes > shared)
			shared = nd.shared_bytes;
	}
	/* parameter buffers */
	uint64_t param_at = at;
	for (size_t i = 0; i < nc; i++)
		at = align_up(at + m->k[c[i].kernel].param_bytes, 16);
	/* a window for every CTA a CB may hold at once: as many as the
	 * smallest block fits, whatever ctas_per_cb is set to later */
	uint32_t windows = 1;
	for (size_t i = 0; i < nc; i++) {
		uint64_t b = (uint64_t)c[i].bdim[0] * c[i].bdim[1] * c[i].bdim[2];
		if (b && b <= SIMT_CB_THREADS && SIMT_CB_THREADS / b > windows)
			windows = (uint32_t)(SIMT_CB_THREADS / b);
	}
	p->shared_addr = (uint32_t)align_up(at, 256);
	p->shared_bytes = (uint32_t)align_up(shared, 8);
	p->shared_windows = shared ? windows : 1;
	at = p->shared_addr + (uint64_t)p->cbs * p->shared_windows * p->shared_bytes;
	p->local_addr = (uint32_t)align_up(at, 256);
	p->local_words = local_words;
	at = p->local_addr + (uint64_t)p->cbs * local_words * SIMT_CB_THREADS * 4;
	if (at > SIMT_MEM_MAX) {
		diag_file(d, path, "the launches' arrays, the module's variables, the shared and the local memory need %llu bytes; the SIMT machine has %llu",
			  (unsigned long long)at, (unsigned long long)SIMT_MEM_MAX);
		goto fail;
	}
	p->mem_bytes = (uint32_t)align_up(at, 4);
	p->init = calloc(p->mem_bytes / 4 + 1, 4);
	if (!p->init)
		goto oom;
	uint8_t *mem = (uint8_t *)p->init;
	for (size_t i = 0; i < m->nv; i++) {
		const ptx_var *v = &m->v[i];
		if (!v->init)
			continue;
		if (v->space == PS_GLOBAL)
			memcpy(mem + lay.global_base + (v->addr - PTX_WIN_GLOBALS), v->init, v->size);
		else if (v->space == PS_CONST)
			memcpy(mem + lay.const_base + (v->addr - PTX_WIN_CONST), v->init, v->size);
	}
	for (size_t i = 0; i < nc; i++) {
		const ptx_kernel *k = &m->k[c[i].kernel];
		simt_launch *l = &p->l[i];
		l->kernel = (uint32_t)slot[c[i].kernel];
		memcpy(l->gdim, c[i].gdim, sizeof l->gdim);
		memcpy(l->bdim, c[i].bdim, sizeof l->bdim);
		uint64_t g = (uint64_t)l->gdim[0] * l->gdim[1] * l->gdim[2];
		uint64_t b = (uint64_t)l->bdim[0] * l->bdim[1] * l->bdim[2];
		if (b == 0 || b > SIMT_CB_THREADS || g == 0 || g > UINT32_MAX) {
			diag_at(d, path, c[i].line, 0, "a launch of %llu CTAs of %llu threads: the SIMT machine runs 1 to %d threads a CTA",
				(unsigned long long)g, (unsigned long long)b, SIMT_CB_THREADS);
			goto fail;
		}
		l->grid = (uint32_t)g;
		l->block = (uint32_t)b;
		l->line = c[i].line;
		l->param_addr = (uint32_t)param_at;
		for (size_t j = 0; j < k->np && j < c[i].nargs; j++)
			put_le(mem + param_at + k->p[j].offset, k->p[j].size, c[i].args[j]);
		param_at = align_up(param_at + k->param_bytes, 16);
	}
	p->nl = nc;
	free(slot);
	return 0;
oom:
	diag_file(d, path, "out of memory");
fail:
	free(slot);
	simt_program_free(p);
	return -1;
}
