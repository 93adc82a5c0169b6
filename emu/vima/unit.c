/* SPDX-License-Identifier: MIT */
/*
 * unit.c: the VIMA unit's state (DRAM, the host caches, the vector cache,
 * the fill buffer), the arrays' initial values, the final flush and the
 * host's view of an array.
 */
#include <stdlib.h>
#include <string.h>

#include "vima_int.h"

/* splitmix64: the documented generator behind init=random:SEED. */
static uint64_t next_random(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Element k of array a under its init (doc/VIMA.md "Arrays"). */
static uint64_t init_value(const vima_array *a, uint64_t k, uint64_t *rs)
{
	switch (a->init) {
	case VIMA_INIT_CONST:
		return a->init_arg;
	case VIMA_INIT_IOTA:
		if (a->type == VIMA_F32) {
			float f = (float)k;
			uint32_t u;
			memcpy(&u, &f, 4);
			return u;
		}
		if (a->type == VIMA_F64) {
			double f = (double)k;
			uint64_t u;
			memcpy(&u, &f, 8);
			return u;
		}
		return k;
	case VIMA_INIT_RANDOM: {
		const uint64_t r = next_random(rs);
		if (a->type == VIMA_F32) {
			float f = (float)(r >> 40) * 0x1p-23f - 1.0f;
			uint32_t u;
			memcpy(&u, &f, 4);
			return u;
		}
		if (a->type == VIMA_F64) {
			double f = (double)(r >> 11) * 0x1p-52 - 1.0;
			uint64_t u;
			memcpy(&u, &f, 8);
			return u;
		}
		return r;
	}
	default:
		return 0;
	}
}

static void init_array(vima_unit *u, const vima_array *a)
{
	if (a->init == VIMA_INIT_ZERO)
		return; /* DRAM starts zeroed */
	const unsigned sz = vima_type_size(a->type);
	uint64_t rs = a->init_arg;
	for (uint64_t k = 0; k < a->count; k++) {
		const uint64_t v = init_value(a, k, &rs);
		memcpy(u->mem + a->base + k * sz, &v, sz); /* little-endian host */
	}
}

/* The unit's buffers, DRAM zeroed.  0, or -1 with d. */
static int unit_alloc(vima_unit *u, const vima_program *p, const vima_run_opts *o,
		      unsigned lines, diag *d)
{
	memset(u, 0, sizeof *u);
	u->p = p;
	if (o)
		u->ro = *o;
	u->vbytes = p->vector_bytes;
	u->nlines = lines ? lines : p->lines;
	u->mem = calloc(p->mem_bytes, 1);
	u->hdata = malloc(p->mem_bytes);
	u->hstate = calloc(p->mem_bytes / VIMA_HOST_LINE, 1);
	u->lines = calloc(u->nlines, sizeof *u->lines);
	u->fill = malloc(u->vbytes);
	u->gather[0] = malloc(u->vbytes);
	u->gather[1] = malloc(u->vbytes);
	bool ok = u->mem && u->hdata && u->hstate && u->lines && u->fill && u->gather[0] &&
		  u->gather[1];
	for (unsigned i = 0; ok && i < u->nlines; i++)
		ok = (u->lines[i].data = malloc(u->vbytes)) != NULL;
	ok = ok && vima_mmu_init(u) == 0;
	if (!ok) {
		vima_unit_free(u);
		diag_file(d, p->path, "out of memory for %llu bytes of arrays",
			  (unsigned long long)p->mem_bytes);
		return -1;
	}
	return 0;
}

int vima_unit_init(vima_unit *u, const vima_program *p, const vima_run_opts *o,
		   unsigned lines, diag *d)
{
	if (unit_alloc(u, p, o, lines, d) < 0)
		return -1;
	for (size_t i = 0; i < p->narrays; i++)
		init_array(u, &p->arrays[i]);
	return 0;
}

void vima_unit_free(vima_unit *u)
{
	for (unsigned i = 0; u->lines && i < u->nlines; i++)
		free(u->lines[i].data);
	free(u->lines);
	free(u->pt);
	free(u->mem);
	free(u->hdata);
	free(u->hstate);
	free(u->fill);
	free(u->gather[0]);
	free(u->gather[1]);
	memset(u, 0, sizeof *u);
}

void vima_flush(vima_unit *u)
{
	vima_host_writeback(u, 0, u->p->mem_bytes);
	vima_cache_flush(u);
	const uint64_t c = vima_dram_batch_cycles(u);
	u->st.cyc_dram += c;
	u->st.cycles += c;
	vima_energy_static(&u->st, c);
}

void vima_read_array(const vima_unit *u, int ai, uint8_t *out)
{
	const vima_array *a = &u->p->arrays[ai];
	for (uint64_t off = 0; off < a->bytes; off += VIMA_HOST_LINE) {
		const uint64_t at = a->base + off, n = a->bytes - off < VIMA_HOST_LINE
							 ? a->bytes - off : VIMA_HOST_LINE;
		const uint64_t tag = at / u->vbytes * u->vbytes;
		const int l = u->hstate[at / VIMA_HOST_LINE] ? -1 : vima_cache_find(u, tag);
		const uint8_t *src = u->hstate[at / VIMA_HOST_LINE] ? u->hdata + at
				     : l >= 0 ? u->lines[l].data + (at - tag) : u->mem + at;
		memcpy(out + off, src, n);
	}
}

void vima_write_array(vima_unit *u, int ai, const uint8_t *in)
{
	const vima_array *a = &u->p->arrays[ai];
	memcpy(u->mem + a->base, in, a->bytes);
}

int vima_unit_clone(vima_unit *dst, const vima_unit *src, diag *d)
{
	if (unit_alloc(dst, src->p, &src->ro, src->nlines, d) < 0)
		return -1;
	vima_unit_assign(dst, src);
	return 0;
}

void vima_unit_assign(vima_unit *dst, const vima_unit *src)
{
	const uint64_t bytes = src->p->mem_bytes;
	memcpy(dst->mem, src->mem, bytes);
	memcpy(dst->hdata, src->hdata, bytes);
	memcpy(dst->hstate, src->hstate, bytes / VIMA_HOST_LINE);
	for (unsigned i = 0; i < src->nlines; i++) {
		uint8_t *data = dst->lines[i].data;
		memcpy(data, src->lines[i].data, src->vbytes);
		dst->lines[i] = src->lines[i];
		dst->lines[i].data = data;
	}
	memcpy(dst->fill, src->fill, src->vbytes);
	dst->ro = src->ro;
	dst->clock = src->clock;
	memcpy(dst->batch, src->batch, sizeof dst->batch);
	dst->batch_n = src->batch_n;
	memcpy(dst->pend, src->pend, sizeof dst->pend);
	dst->pend_n = src->pend_n;
	dst->pc = src->pc;
	dst->fault_insn = src->fault_insn;
	dst->fault_stmt = src->fault_stmt;
	dst->fault_host = src->fault_host;
	memcpy(dst->fault_why, src->fault_why, sizeof dst->fault_why);
	dst->st = src->st;
}
