/* SPDX-License-Identifier: MIT */
/*
 * test_cuda_kernels.c: every launch case of tests/kernels/cuda/ run on
 * infsim's PTX reference (emu/ptx/ptx.h) from the committed PTX of
 * samples/cuda/ and samples/opencl/, each output compared element by
 * element with the plain C of tests/kernels/cuda/refs.c: bit for bit, or
 * for the .approx results of sinexp within the bound its case states.
 * The arrays are laid out 256-byte aligned from a base above 4 GiB for a
 * 64-bit module (so an address truncated to 32 bits is caught) and at
 * 64 KiB for a 32-bit one.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cuda/cases.h"
#include "ptx.h"
#include "text.h"

#define ALIGN 256u

typedef struct loaded {
	ptx_module *m;
	ptx_mem mem;
	uint64_t addr[CK_MAX_ARRAYS];
} loaded;

static void load(const ck_case *c, loaded *ld)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", SRCDIR, c->ptx);
	char *text;
	size_t len;
	diag d;
	diag_clear(&d);
	cr_assert_eq(text_read_file(path, 16u << 20, &text, &len, &d), 0, "%s", d.msg);
	cr_assert_eq(ptx_read(path, text, len, &ld->m, &d), 0, "%s: %s", c->name, d.msg);
	free(text);
	unsigned bits = ptx_address_bits(ld->m);
	cr_assert(bits == 32 || bits == 64);
	uint64_t size = 0;
	for (size_t i = 0; i < c->narrays; i++) {
		ld->addr[i] = size;
		size += (c->arrays[i].n * c->arrays[i].elem + ALIGN - 1) / ALIGN * ALIGN;
	}
	ld->mem.base = bits == 64 ? UINT64_C(0x100000000) : UINT64_C(0x10000);
	ld->mem.size = size ? size : ALIGN;
	ld->mem.bytes = calloc(1, ld->mem.size);
	cr_assert_not_null(ld->mem.bytes);
	for (size_t i = 0; i < c->narrays; i++) {
		memcpy(ld->mem.bytes + ld->addr[i], c->arrays[i].init,
		       c->arrays[i].n * c->arrays[i].elem);
		ld->addr[i] += ld->mem.base;
	}
}

static void run(const ck_case *c, loaded *ld, size_t li)
{
	const ck_launch *l = &c->launches[li];
	long k = ptx_kernel_find(ld->m, l->kernel);
	cr_assert_geq(k, 0, "%s: no kernel %s in %s", c->name, l->kernel, c->ptx);
	cr_assert_eq(ptx_nparams(ld->m, (size_t)k), l->nargs, "%s: %s takes %zu parameters",
		     c->name, l->kernel, ptx_nparams(ld->m, (size_t)k));
	uint64_t args[CK_MAX_ARGS];
	unsigned ptr_size = ptx_address_bits(ld->m) / 8;
	for (size_t i = 0; i < l->nargs; i++) {
		ptx_param_info p = ptx_param(ld->m, (size_t)k, i);
		const ck_arg *a = &l->args[i];
		unsigned want = a->kind == CK_ARG_ARRAY ? ptr_size : a->kind == CK_ARG_U64 ? 8 : 4;
		cr_assert_eq(p.size, want, "%s: %s parameter %zu (%s) is %u bytes, the case gives %u",
			     c->name, l->kernel, i, p.name, p.size, want);
		args[i] = a->kind == CK_ARG_ARRAY ? ld->addr[a->array] : a->bits;
	}
	if (l->clear >= 0) {
		const ck_array *a = &c->arrays[l->clear];
		memset(ld->mem.bytes + (ld->addr[l->clear] - ld->mem.base), 0, a->n * a->elem);
	}
	ptx_launch pl = {
		.kernel = (size_t)k,
		.grid = {l->grid[0], l->grid[1], l->grid[2]},
		.block = {l->block[0], l->block[1], l->block[2]},
		.args = args,
		.nargs = l->nargs,
		.max_steps = c->max_steps,
	};
	ptx_where w;
	diag d;
	diag_clear(&d);
	cr_assert_eq(ptx_ref_run(ld->m, &pl, &ld->mem, &w, &d), 0,
		     "%s: launch %zu (%s) stopped at cta (%u,%u,%u) thread (%u,%u,%u) line %d: %s",
		     c->name, li, l->kernel, w.cta.x, w.cta.y, w.cta.z, w.tid.x, w.tid.y, w.tid.z,
		     w.line, d.msg);
}

/* Each differing element is reported, up to 10 an array. */
static size_t compare(const ck_case *c, const loaded *ld, size_t i)
{
	const ck_array *a = &c->arrays[i];
	const uint8_t *got = ld->mem.bytes + (ld->addr[i] - ld->mem.base);
	const uint8_t *want = a->want;
	size_t bad = 0;
	for (size_t j = 0; j < a->n; j++) {
		const uint8_t *g = got + j * a->elem, *w = want + j * a->elem;
		int ok;
		if (a->check == CK_APPROX) {
			float gf, wf;
			memcpy(&gf, g, 4);
			memcpy(&wf, w, 4);
			ok = fabs((double)gf - wf) <= a->tol * fmax(1.0, fabs((double)wf));
		} else {
			ok = memcmp(g, w, a->elem) == 0;
		}
		if (!ok && bad++ < 10) {
			uint64_t gv = 0, wv = 0;
			memcpy(&gv, g, a->elem < 8 ? a->elem : 8);
			memcpy(&wv, w, a->elem < 8 ? a->elem : 8);
			cr_log_error("%s: %s[%zu] is 0x%llx, the C gives 0x%llx", c->name, a->name, j,
				     (unsigned long long)gv, (unsigned long long)wv);
		}
	}
	return bad;
}

static void check_case(size_t idx)
{
	ck_case c;
	cr_assert_eq(ck_case_make(idx, &c), 0);
	loaded ld;
	load(&c, &ld);
	for (size_t li = 0; li < c.nlaunches; li++)
		run(&c, &ld, li);
	size_t bad = 0, compared = 0;
	for (size_t i = 0; i < c.narrays; i++)
		if (c.arrays[i].check != CK_INPUT) {
			bad += compare(&c, &ld, i);
			compared++;
		}
	cr_expect_gt(compared, 0, "%s compares nothing", c.name);
	cr_expect_eq(bad, 0, "%s: %zu elements differ from the plain C", c.name, bad);
	free(ld.mem.bytes);
	ptx_module_free(ld.m);
	ck_case_free(&c);
}

ParameterizedTestParameters(cuda_kernels, against_plain_c)
{
	size_t n = ck_case_count();
	size_t *idx = cr_malloc(n * sizeof *idx);
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	return cr_make_param_array(size_t, idx, n, NULL);
}

ParameterizedTest(size_t *idx, cuda_kernels, against_plain_c, .timeout = 300)
{
	check_case(*idx);
}
