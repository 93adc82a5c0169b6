/* SPDX-License-Identifier: MIT */
/*
 * test_cuda_simt.c: every launch case of tests/kernels/cuda/ translated
 * to the SIMT machine (emu/simt/ptxc.h) from the committed PTX of
 * samples/cuda/ and samples/opencl/, run on the emulated SRAM, and each
 * output compared element by element with the plain C of
 * tests/kernels/cuda/refs.c: bit for bit, or for the .approx results
 * within the bound the case states.  Both mappings (VLIW bundles and one
 * operation a bundle) must give the same bits.  The arrays sit 256-byte
 * aligned from 0x1000.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cuda/cases.h"
#include "ptx_int.h"
#include "ptxc.h"
#include "simt.h"
#include "text.h"

#define ALIGN 256u
#define BASE 0x1000u

typedef struct loaded {
	ptx_module *m;
	uint64_t addr[CK_MAX_ARRAYS];
	uint64_t size;
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
	uint64_t at = BASE;
	for (size_t i = 0; i < c->narrays; i++) {
		ld->addr[i] = at;
		at += (c->arrays[i].n * c->arrays[i].elem + ALIGN - 1) / ALIGN * ALIGN;
	}
	ld->size = at;
}

/* A case's launches as calls; launches that zero an array first (the
 * host's memset) split the case into runs. */
static size_t calls_of(const ck_case *c, const loaded *ld, size_t from, simt_ptx_call *out,
		       uint64_t (*args)[CK_MAX_ARGS])
{
	size_t n = 0;
	for (size_t li = from; li < c->nlaunches; li++) {
		const ck_launch *l = &c->launches[li];
		if (l->clear >= 0 && li > from)
			break;
		long k = ptx_kernel_find(ld->m, l->kernel);
		cr_assert_geq(k, 0, "%s: no kernel %s", c->name, l->kernel);
		for (size_t i = 0; i < l->nargs; i++)
			args[n][i] = l->args[i].kind == CK_ARG_ARRAY ? ld->addr[l->args[i].array] : l->args[i].bits;
		out[n] = (simt_ptx_call){ .kernel = (size_t)k, .args = args[n], .nargs = l->nargs };
		memcpy(out[n].gdim, l->grid, sizeof out[n].gdim);
		memcpy(out[n].bdim, l->block, sizeof out[n].bdim);
		n++;
	}
	return n;
}

/* The cases the machine does not run yet, and the located refusal each
 * gets instead (doc/SIMT.md, "Translated PTX": what is not translated). */
static const struct { const char *name, *why; } refused[] = {
	{ "sinexp_1000_approx", "sinexp.ptx:39:2: error: kernel 'sinexp': 'sin' is not translated" },
	{ "warpsum_10001_b128", "warpsum.ptx:35:2: error: kernel 'warpsum': 'shfl' is not translated" },
};

static const char *refusal(const char *name)
{
	for (size_t i = 0; i < sizeof refused / sizeof *refused; i++)
		if (!strcmp(refused[i].name, name))
			return refused[i].why;
	return NULL;
}

static void run_case(size_t idx, int mapping)
{
	ck_case c;
	cr_assert_eq(ck_case_make(idx, &c), 0);
	const char *why = refusal(c.name);
	loaded ld;
	load(&c, &ld);
	uint8_t *mem = calloc(1, ld.size);
	cr_assert_not_null(mem);
	for (size_t i = 0; i < c.narrays; i++)
		memcpy(mem + ld.addr[i], c.arrays[i].init, c.arrays[i].n * c.arrays[i].elem);
	simt_ptx_call *calls = calloc(c.nlaunches, sizeof *calls);
	uint64_t (*args)[CK_MAX_ARGS] = calloc(c.nlaunches, sizeof *args);
	cr_assert(calls && args);
	for (size_t li = 0; li < c.nlaunches;) {
		const ck_launch *l = &c.launches[li];
		if (l->clear >= 0)
			memset(mem + ld.addr[l->clear], 0, c.arrays[l->clear].n * c.arrays[l->clear].elem);
		size_t n = calls_of(&c, &ld, li, calls, args);
		simt_program p;
		diag d;
		diag_clear(&d);
		int rc = simt_ptx_program(c.ptx, ld.m, calls, n, ld.size, mapping, &p, &d);
		simt_machine *m = NULL;
		if (rc == 0) {
			/* every bundle prints (--bundles, infsdb's listing) */
			char *txt = NULL;
			size_t tlen = 0;
			FILE *f = open_memstream(&txt, &tlen);
			cr_assert_not_null(f);
			for (size_t k = 0; k < p.nk; k++)
				simt_format_kernel(f, &p, &p.k[k]);
			fclose(f);
			cr_expect(strstr(txt, ".kernel ") && !strstr(txt, "?"), "%s: --bundles prints %.200s", c.name, txt);
			free(txt);
			memcpy(p.init, mem, ld.size);
			m = simt_machine_new(&p, &d);
			cr_assert_not_null(m, "%s: %s", c.name, d.msg);
			rc = simt_machine_run(m, &d);
		}
		if (why && rc < 0) {
			cr_assert(strstr(d.msg, why), "%s: got '%s', want '%s'", c.name, d.msg, why);
			simt_machine_free(m);
			if (!rc || m)
				simt_program_free(&p);
			goto done;
		}
		cr_assert_eq(rc, 0, "%s (%s): %s", c.name, mapping == SIMT_MAP_SERIAL ? "serial" : "vliw", d.msg);
		memcpy(mem, simt_machine_mem(m), ld.size);
		simt_machine_free(m);
		simt_program_free(&p);
		li += n;
	}
	cr_assert_null(why, "%s ran, but it is listed as refused (%s)", c.name, why);
	size_t bad = 0;
	for (size_t i = 0; i < c.narrays; i++) {
		const ck_array *a = &c.arrays[i];
		if (a->check == CK_INPUT)
			continue;
		for (size_t j = 0; j < a->n; j++) {
			const uint8_t *g = mem + ld.addr[i] + j * a->elem, *w = (const uint8_t *)a->want + j * a->elem;
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
				cr_log_error("%s: %s[%zu] is 0x%llx, the C gives 0x%llx", c.name, a->name, j,
					     (unsigned long long)gv, (unsigned long long)wv);
			}
		}
	}
	cr_expect_eq(bad, 0, "%s: %zu elements differ from the plain C", c.name, bad);
done:
	free(calls);
	free(args);
	free(mem);
	ptx_module_free(ld.m);
	ck_case_free(&c);
}

ParameterizedTestParameters(cuda_simt, vliw)
{
	size_t n = ck_case_count();
	size_t *idx = cr_malloc(n * sizeof *idx);
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	return cr_make_param_array(size_t, idx, n, NULL);
}

ParameterizedTest(size_t *idx, cuda_simt, vliw, .timeout = 600)
{
	run_case(*idx, SIMT_MAP_VLIW);
}

ParameterizedTestParameters(cuda_simt, serial)
{
	size_t n = ck_case_count();
	size_t *idx = cr_malloc(n * sizeof *idx);
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	return cr_make_param_array(size_t, idx, n, NULL);
}

/* One operation a bundle (-m mapping=serial): the same bits. */
ParameterizedTest(size_t *idx, cuda_simt, serial, .timeout = 600)
{
	run_case(*idx, SIMT_MAP_SERIAL);
}

/* ---- the register map infsdb reads PTX registers by ---- */

/* The bits of a PTX register (bits wide) of thread th at place code. */
static uint64_t place_bits(simt_machine *m, const simt_program *p, const simt_where *w, unsigned th,
			   unsigned code, unsigned bits)
{
	code &= ~SIMT_LOC_NEW;
	uint64_t v = 0;
	if (code >= SIMT_LOC_HOME) {
		const uint32_t *mem = simt_machine_mem(m);
		unsigned off = code - SIMT_LOC_HOME;
		for (unsigned h = 0; h < (bits == 64 ? 2u : 1u); h++) {
			uint64_t a = p->local_addr + ((uint64_t)(w->cb * p->local_words + off / 4 + h) *
						      SIMT_CB_THREADS + th) * 4;
			v |= (uint64_t)mem[a / 4] << (32 * h);
		}
		return bits == 1 ? v != 0 : bits == 16 ? v & 0xffff : v;
	}
	if (code >= SIMT_LOC_PRED)
		return (w->pred[code - SIMT_LOC_PRED].w[th / 64] >> (th % 64)) & 1;
	v = simt_machine_thread_reg(m, th, code - SIMT_LOC_REG);
	if (bits == 64)
		v |= (uint64_t)simt_machine_thread_reg(m, th, code - SIMT_LOC_REG + 1) << 32;
	return bits == 16 ? v & 0xffff : v;
}

/* Each case's first launch, bundle by bundle (up to a bound): every
 * place the map names is a register, latch or home word that exists,
 * and a thread that runs bundle pc and goes on to pc + 1 holds the same
 * bits for a register at both unless the map says pc gave it a new
 * value: the places follow the values through copies, spills and
 * reloads, and no other write takes a place while the map names it. */
static void regmap_case(size_t idx, int mapping)
{
	ck_case c;
	cr_assert_eq(ck_case_make(idx, &c), 0);
	loaded ld;
	load(&c, &ld);
	uint8_t *mem = calloc(1, ld.size);
	simt_ptx_call *calls = calloc(c.nlaunches, sizeof *calls);
	uint64_t (*args)[CK_MAX_ARGS] = calloc(c.nlaunches, sizeof *args);
	cr_assert(mem && calls && args);
	for (size_t i = 0; i < c.narrays; i++)
		memcpy(mem + ld.addr[i], c.arrays[i].init, c.arrays[i].n * c.arrays[i].elem);
	calls_of(&c, &ld, 0, calls, args);
	simt_program p;
	diag d;
	diag_clear(&d);
	if (simt_ptx_program(c.ptx, ld.m, calls, 1, ld.size, mapping, &p, &d) < 0) {
		cr_assert_not_null(refusal(c.name), "%s: %s", c.name, d.msg);
		goto done;
	}
	memcpy(p.init, mem, ld.size);
	simt_machine *m = simt_machine_new(&p, &d);
	cr_assert_not_null(m, "%s: %s", c.name, d.msg);
	for (size_t k = 0; k < p.nk; k++) {
		const simt_kernel *sk = &p.k[k];
		cr_assert(sk->regloc && sk->nregloc, "%s: kernel %s has no register map", c.name, sk->name);
		for (size_t i = 0; i < sk->n * sk->nregloc; i++) {
			unsigned code = sk->regloc[i] & ~SIMT_LOC_NEW;
			bool ok = code == SIMT_LOC_NONE ||
				  (code >= SIMT_LOC_HOME ? code - SIMT_LOC_HOME < p.local_words * 4
				   : code >= SIMT_LOC_PRED ? code - SIMT_LOC_PRED < SIMT_PREDS
				   : code - SIMT_LOC_REG < SIMT_REGS_MAX);
			cr_assert(ok, "%s: kernel %s pc %zu: place 0x%x", c.name, sk->name, i / sk->nregloc, code);
		}
	}
	static uint64_t before[SIMT_CB_THREADS][256];
	size_t checked = 0;
	for (unsigned step = 0; step < 4000; step++) {
		simt_where w0, w1;
		if (!simt_machine_where(m, &w0))
			break;
		const simt_kernel *sk = &p.k[w0.kernel];
		const ptx_kernel *pk = &ld.m->k[ptx_kernel_find(ld.m, sk->name)];
		const unsigned nr = sk->nregloc < 256 ? sk->nregloc : 256;
		const uint16_t *row0 = sk->regloc + (size_t)w0.pc * sk->nregloc;
		for (unsigned th = 0; th < SIMT_CB_THREADS; th++)
			if ((w0.active.w[th / 64] >> (th % 64)) & 1)
				for (unsigned r = 0; r < nr; r++)
					if ((row0[r] & ~SIMT_LOC_NEW) != SIMT_LOC_NONE)
						before[th][r] = place_bits(m, &p, &w0, th, row0[r], pk->regbits[r]);
		cr_assert_geq(simt_machine_step(m, &d), 0, "%s: %s", c.name, d.msg);
		if (!simt_machine_where(m, &w1) || w1.launch != w0.launch || w1.cta != w0.cta)
			continue;
		for (unsigned th = 0; th < SIMT_CB_THREADS; th++) {
			if (!((w0.active.w[th / 64] >> (th % 64)) & 1) ||
			    simt_machine_thread_pc(m, th) != w0.pc + 1 || w0.pc + 1 >= sk->n)
				continue;
			const uint16_t *row1 = row0 + sk->nregloc;
			for (unsigned r = 0; r < nr; r++) {
				if ((row0[r] & ~SIMT_LOC_NEW) == SIMT_LOC_NONE || (row1[r] & SIMT_LOC_NEW) ||
				    row1[r] == SIMT_LOC_NONE)
					continue;
				uint64_t now = place_bits(m, &p, &w1, th, row1[r], pk->regbits[r]);
				char name[40];
				ptx_reg_name(pk, r, name, sizeof name);
				cr_assert_eq(now, before[th][r],
					     "%s (%s): %s of thread %u: 0x%llx before pc %u (place 0x%x), 0x%llx before pc %u (place 0x%x)",
					     c.name, mapping == SIMT_MAP_SERIAL ? "serial" : "vliw", name, th,
					     (unsigned long long)before[th][r], w0.pc, row0[r], (unsigned long long)now,
					     w0.pc + 1, row1[r]);
				checked++;
			}
		}
	}
	cr_expect_gt(checked, 0, "%s: no register was followed", c.name);
	simt_machine_free(m);
	simt_program_free(&p);
done:
	free(calls);
	free(args);
	free(mem);
	ptx_module_free(ld.m);
	ck_case_free(&c);
}

ParameterizedTestParameters(cuda_simt, regmap)
{
	size_t n = ck_case_count();
	size_t *idx = cr_malloc(n * sizeof *idx);
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	return cr_make_param_array(size_t, idx, n, NULL);
}

ParameterizedTest(size_t *idx, cuda_simt, regmap, .timeout = 600)
{
	regmap_case(*idx, SIMT_MAP_VLIW);
	regmap_case(*idx, SIMT_MAP_SERIAL);
}
