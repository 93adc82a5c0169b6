/* SPDX-License-Identifier: MIT */
/*
 * mem.c: the flat memory of a .nsc program: each array's bytes (little-
 * endian elements), placed at the physical addresses nsc_parse gave them,
 * and filled as the array's init= says (doc/STREAMS.md, "Arrays").
 */
#include <stdlib.h>
#include <string.h>

#include "nsc_int.h"

/* splitmix64: the documented generator of init=random:SEED. */
static uint64_t mix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

static void fill(nsc_mem *m, int ai)
{
	const nsc_array *a = &m->p->arrays[ai];
	uint64_t seed = (uint64_t)a->init_a;
	bool flt = a->type == NSC_F32 || a->type == NSC_F64;
	for (uint64_t i = 0; i < a->count && a->init != NSC_INIT_ZERO; i++) {
		nsc_val v = nsc_val_int(0);
		if (a->init == NSC_INIT_IOTA)
			v = nsc_val_int((int64_t)i * a->init_a);
		else if (a->init == NSC_INIT_VALUE) {
			v.k = flt ? 'd' : 'i';
			if (flt)
				v.u.d = a->init_f;
			else
				v.u.i = a->init_a;
		} else {
			uint64_t r = mix(&seed);
			if (a->init_b)
				v = nsc_val_int((int64_t)(r % (uint64_t)a->init_b));
			else if (flt) {
				v.k = 'd';
				v.u.d = (double)(r >> 11) / 9007199254740992.0; /* [0, 1) */
			} else
				v = nsc_val_int((int64_t)r);
		}
		nsc_mem_put(m, ai, i, v);
	}
}

int nsc_mem_init(nsc_mem *m, const nsc_program *p, diag *d)
{
	m->p = p;
	m->data = calloc((size_t)p->narrays + 1, sizeof *m->data);
	if (!m->data) {
		diag_file(d, p->file, "out of memory");
		return -1;
	}
	for (int i = 0; i < p->narrays; i++) {
		m->data[i] = calloc(p->arrays[i].count, nsc_type_size(p->arrays[i].type));
		if (!m->data[i]) {
			nsc_mem_free(m);
			diag_file(d, p->file, "out of memory for array '%s'", p->arrays[i].name);
			return -1;
		}
		fill(m, i);
	}
	return 0;
}

void nsc_mem_free(nsc_mem *m)
{
	if (m->data)
		for (int i = 0; i < m->p->narrays; i++)
			free(m->data[i]);
	free(m->data);
	m->data = NULL;
}

int nsc_mem_copy(nsc_mem *dst, const nsc_mem *src, diag *d)
{
	if (nsc_mem_init(dst, src->p, d) < 0)
		return -1;
	for (int i = 0; i < src->p->narrays; i++)
		memcpy(dst->data[i], src->data[i], src->p->arrays[i].count * nsc_type_size(src->p->arrays[i].type));
	return 0;
}

uint64_t nsc_mem_bits(const nsc_mem *m, int a, uint64_t i)
{
	unsigned sz = nsc_type_size(m->p->arrays[a].type);
	uint64_t b = 0;
	const uint8_t *s = m->data[a] + i * sz;
	for (unsigned k = 0; k < sz; k++)
		b |= (uint64_t)s[k] << (8 * k);
	return b;
}

void nsc_mem_set_bits(nsc_mem *m, int a, uint64_t i, uint64_t bits)
{
	unsigned sz = nsc_type_size(m->p->arrays[a].type);
	uint8_t *s = m->data[a] + i * sz;
	for (unsigned k = 0; k < sz; k++)
		s[k] = (uint8_t)(bits >> (8 * k));
}

nsc_val nsc_mem_get(const nsc_mem *m, int a, uint64_t i)
{
	uint64_t b = nsc_mem_bits(m, a, i);
	nsc_val v = nsc_val_int(0);
	switch (m->p->arrays[a].type) {
	case NSC_I8: v.u.i = (int8_t)b; break;
	case NSC_U8: v.u.i = (uint8_t)b; break;
	case NSC_I32: v.u.i = (int32_t)(uint32_t)b; break;
	case NSC_U32: v.u.i = (uint32_t)b; break;
	case NSC_I64: v.u.i = (int64_t)b; break;
	case NSC_F32: {
		uint32_t w = (uint32_t)b;
		v.k = 'f';
		memcpy(&v.u.f, &w, 4);
		break;
	}
	default:
		v.k = 'd';
		memcpy(&v.u.d, &b, 8);
	}
	return v;
}

void nsc_mem_put(nsc_mem *m, int a, uint64_t i, nsc_val v)
{
	nsc_type t = m->p->arrays[a].type;
	nsc_val c = nsc_val_cast(v, t);
	uint64_t b;
	if (t == NSC_F32) {
		uint32_t w;
		memcpy(&w, &c.u.f, 4);
		b = w;
	} else if (t == NSC_F64)
		memcpy(&b, &c.u.d, 8);
	else
		b = (uint64_t)c.u.i;
	nsc_mem_set_bits(m, a, i, b);
}

int64_t nsc_mem_diff(const nsc_mem *x, const nsc_mem *y, int a)
{
	const nsc_array *ar = &x->p->arrays[a];
	size_t sz = nsc_type_size(ar->type);
	if (!memcmp(x->data[a], y->data[a], ar->count * sz))
		return -1;
	for (uint64_t i = 0; i < ar->count; i++)
		if (memcmp(x->data[a] + i * sz, y->data[a] + i * sz, sz))
			return (int64_t)i;
	return -1;
}
