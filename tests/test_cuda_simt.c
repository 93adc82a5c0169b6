/* SPDX-License-Identifier: MIT */
/*
 * test_cuda_simt.c: every launch case of tests/kernels/cuda/ translated
 * to the SIMT machine (emu/simt/ptxc.h) from the committed PTX of
 * samples/cuda/ and samples/opencl/, run on the emulated SRAM, and each
 * output compared element by element with the plain C of
 * tests/kernels/cuda/refs.c: bit for bit, or for the .approx results
 * within the bound the case states.  Both mappings (VLIW bundles and one
 * operation a bundle) must give the same bits.  The arrays sit 256-byte
 * aligned from 0x1000.  Fig 13 from the CUDA workloads (doc/SIMT.md):
 * the serial mapping keeps every value in array 0, and `infsim run
 * --fig13` of a case (as tests/ck_export writes it) checks both
 * translations and prints the ratio.  Several CTAs a CB (the default)
 * and one (ctas_per_cb=1) give the same bits; the CTAs packed on a CB
 * keep their own shared memory and barriers.
 * `translated_int`: the
 * integer and exchange lowerings (mul.hi, 64-bit division, bfe, shf,
 * popc/clz/brev, shfl.sync d|p and register c, member masks) against
 * the PTX reference bit for bit over edge and random operands.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa.h"
#include "kernels/cuda/cases.h"
#include "proc.h"
#include "ptx.h"
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

/* ctas: the program's ctas_per_cb (0: the default, as many as fit). */
static void run_case_ctas(size_t idx, int mapping, unsigned ctas)
{
	ck_case c;
	cr_assert_eq(ck_case_make(idx, &c), 0);
	loaded ld;
	load(&c, &ld);
	uint8_t *mem = calloc(1, ld.size);
	cr_assert_not_null(mem);
	for (size_t i = 0; i < c.narrays; i++)
		memcpy(mem + ld.addr[i], c.arrays[i].init, c.arrays[i].n * c.arrays[i].elem);
	/* .approx results are defined to the bit (doc/PTX.md): where a case
	 * has them, the PTX reference runs beside the machine */
	bool approx = false;
	for (size_t i = 0; i < c.narrays; i++)
		approx |= c.arrays[i].check == CK_APPROX;
	uint8_t *ref = approx ? malloc(ld.size) : NULL;
	if (ref)
		memcpy(ref, mem, ld.size);
	simt_ptx_call *calls = calloc(c.nlaunches, sizeof *calls);
	uint64_t (*args)[CK_MAX_ARGS] = calloc(c.nlaunches, sizeof *args);
	cr_assert(calls && args);
	for (size_t li = 0; li < c.nlaunches;) {
		const ck_launch *l = &c.launches[li];
		if (l->clear >= 0)
			memset(mem + ld.addr[l->clear], 0, c.arrays[l->clear].n * c.arrays[l->clear].elem);
		size_t n = calls_of(&c, &ld, li, calls, args);
		for (size_t j = 0; ref && j < n; j++) {
			if (j == 0 && l->clear >= 0)
				memset(ref + ld.addr[l->clear], 0, c.arrays[l->clear].n * c.arrays[l->clear].elem);
			ptx_launch pl = { .kernel = calls[j].kernel, .args = calls[j].args, .nargs = calls[j].nargs,
					  .max_steps = c.max_steps };
			pl.grid = (ptx_dim3){ calls[j].gdim[0], calls[j].gdim[1], calls[j].gdim[2] };
			pl.block = (ptx_dim3){ calls[j].bdim[0], calls[j].bdim[1], calls[j].bdim[2] };
			ptx_mem pm = { ref, 0, ld.size };
			ptx_where w;
			diag rd;
			diag_clear(&rd);
			cr_assert_eq(ptx_ref_run(ld.m, &pl, &pm, &w, &rd), 0, "%s: the reference: %s", c.name, rd.msg);
		}
		simt_program p;
		diag d;
		diag_clear(&d);
		int rc = simt_ptx_program(c.ptx, ld.m, calls, n, ld.size, mapping, &p, &d);
		simt_machine *m = NULL;
		if (rc == 0 && ctas)
			p.ctas_per_cb = ctas;
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
		cr_assert_eq(rc, 0, "%s (%s): %s", c.name, mapping == SIMT_MAP_SERIAL ? "serial" : "vliw", d.msg);
		memcpy(mem, simt_machine_mem(m), ld.size);
		simt_machine_free(m);
		simt_program_free(&p);
		li += n;
	}
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
	for (size_t i = 0; ref && i < c.narrays; i++)
		cr_expect(!memcmp(mem + ld.addr[i], ref + ld.addr[i], c.arrays[i].n * c.arrays[i].elem),
			  "%s: %s differs from the PTX reference's bits", c.name, c.arrays[i].name);
	free(ref);
	free(calls);
	free(args);
	free(mem);
	ptx_module_free(ld.m);
	ck_case_free(&c);
}

static void run_case(size_t idx, int mapping)
{
	run_case_ctas(idx, mapping, 0);
}

/* Every case's index, the parameters of both mappings' tests. */
static struct criterion_test_params every_case(void)
{
	size_t n = ck_case_count();
	size_t *idx = cr_malloc(n * sizeof *idx);
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	return cr_make_param_array(size_t, idx, n, NULL);
}

ParameterizedTestParameters(cuda_simt, vliw)
{
	return every_case();
}

ParameterizedTest(size_t *idx, cuda_simt, vliw, .timeout = 600)
{
	run_case(*idx, SIMT_MAP_VLIW);
}

ParameterizedTestParameters(cuda_simt, serial)
{
	return every_case();
}

/* One operation a bundle (-m mapping=serial): the same bits. */
ParameterizedTest(size_t *idx, cuda_simt, serial, .timeout = 600)
{
	run_case(*idx, SIMT_MAP_SERIAL);
}

static size_t case_index(const char *name)
{
	for (size_t i = 0; i < ck_case_count(); i++) {
		ck_case c;
		cr_assert_eq(ck_case_make(i, &c), 0);
		bool hit = !strcmp(c.name, name);
		ck_case_free(&c);
		if (hit)
			return i;
	}
	cr_assert_fail("no case %s", name);
	return 0;
}

/* An instruction's registers: all in array 0 (units 0 .. NU-1). */
static bool on_array0(const simt_instr *in)
{
	const simt_operand *o[3] = { &in->a, &in->b, &in->c };
	switch (in->opc) {
	case SIMT_BRA: case SIMT_EXIT: case SIMT_BAR:
		return true;
	case SIMT_PLOG:
		return in->d == 0; /* the array it runs on */
	default:
		break;
	}
	for (int j = 0; j < 3; j++)
		if (o[j]->kind == SIMT_O_REG && o[j]->reg >= SIMT_UNITS_MAX)
			return false;
	bool writes = in->opc != SIMT_ST && in->opc != SIMT_SETP;
	return !writes || in->d < SIMT_UNITS_MAX;
}

/* mapping=serial is the paper's simple translator (§5.5): one array per
 * TB, one operation a bundle, no copy between arrays. */
Test(fig13, serial_uses_array0)
{
	static const char *const names[] = { "saxpy_1000", "reduce_777_b64", "kmeans_5000x5", "gaussian_37" };
	for (size_t n = 0; n < sizeof names / sizeof *names; n++) {
		ck_case c;
		cr_assert_eq(ck_case_make(case_index(names[n]), &c), 0);
		loaded ld;
		load(&c, &ld);
		simt_ptx_call *calls = calloc(c.nlaunches, sizeof *calls);
		uint64_t (*args)[CK_MAX_ARGS] = calloc(c.nlaunches, sizeof *args);
		cr_assert(calls && args);
		size_t nc = calls_of(&c, &ld, 0, calls, args);
		simt_program p;
		diag d;
		diag_clear(&d);
		cr_assert_eq(simt_ptx_program(c.ptx, ld.m, calls, nc, ld.size, SIMT_MAP_SERIAL, &p, &d), 0,
			     "%s: %s", c.name, d.msg);
		for (size_t k = 0; k < p.nk; k++)
			for (size_t i = 0; i < p.k[k].n; i++) {
				const simt_bundle *b = &p.k[k].b[i];
				cr_assert_leq(b->n, 1, "%s: bundle %zu holds %u", c.name, i, b->n);
				for (unsigned j = 0; j < b->n; j++)
					cr_assert(on_array0(&b->in[j]), "%s: kernel %s, bundle %zu (line %d) is not on array 0",
						  c.name, p.k[k].name, i, b->line);
			}
		simt_program_free(&p);
		free(calls);
		free(args);
		ptx_module_free(ld.m);
		ck_case_free(&c);
	}
}

/* One row of --fig13's table: bundles, compute, critical path, copies,
 * memory cycles, requests, spills, reloads. */
static void fig13_row(const char *out, const char *mapping, uint64_t v[8])
{
	char key[32];
	snprintf(key, sizeof key, "\n  %s ", mapping);
	const char *at = strstr(out, key);
	cr_assert_not_null(at, "no %s row in:\n%s", mapping, out);
	unsigned long long x[8];
	cr_assert_eq(sscanf(at + strlen(key), "%llu %llu %llu %llu %llu %llu %llu %llu", &x[0], &x[1], &x[2],
			    &x[3], &x[4], &x[5], &x[6], &x[7]), 8, "%s", out);
	for (int i = 0; i < 8; i++)
		v[i] = x[i];
}

/* Case name as tests/ck_export writes it, into a folder of dir: the
 * command it prints ("infsim run SAMPLE ..."), without the newline. */
static char *export_case(const char *name, const char *dir, ck_case *c)
{
	cr_assert_eq(ck_case_make(case_index(name), c), 0);
	char sub[512];
	snprintf(sub, sizeof sub, "%s/%s", dir, c->name);
	char *cmd = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&cmd, &len);
	cr_assert_not_null(f);
	cr_assert_eq(ck_case_export(c, sub, f), 0, "%s", c->name);
	fclose(f);
	cr_assert(len > 11 && !strncmp(cmd, "infsim run ", 11), "%s", cmd);
	cmd[len - 1] = '\0'; /* the newline */
	return cmd;
}

/* `infsim run K.ptx --launch @DIR/launch -l ... --check --fig13` on the
 * cases as tests/ck_export writes them: both translations check out
 * against the PTX reference, the ratio line is printed, the serial one
 * issues more bundles, copies nothing between arrays and makes at least
 * as many memory requests (doc/SIMT.md, "Fig 13 from the CUDA
 * workloads"). */
Test(fig13, cuda_cases, .timeout = 600)
{
	static const char *const names[] = { "saxpy_1000", "reduce_777_b64", "backprop_160", "kmeans_5000x5" };
	char dir[256];
	cr_assert_not_null(proc_tmpdir(dir, sizeof dir, "infsim-fig13"));
	for (size_t n = 0; n < sizeof names / sizeof *names; n++) {
		ck_case c;
		char *cmd = export_case(names[n], dir, &c);
		char args[8192];
		/* in dir: the source tree may be read-only (make distcheck) */
		snprintf(args, sizeof args, "run %s/%s --check --fig13", SRCDIR, cmd + 11);
		proc_result r = proc_run_in(dir, INFSIM_BIN, args);
		cr_assert_eq(r.status, 0, "infsim %s:\n%s%s", args, r.out, r.err);
		cr_assert(strstr(r.out, "fig13: both translations match the thread-at-a-time reference\n"), "%s", r.out);
		cr_assert(strstr(r.out, "--check: every array equals the PTX reference's"), "%s", r.out);
		const char *ratio = strstr(r.out, "  serial / vliw: ");
		cr_assert_not_null(ratio, "%s", r.out);
		double cx, px, mx;
		cr_assert_eq(sscanf(ratio, "  serial / vliw: %lfx compute, %lfx critical path, %lfx memory requests",
				    &cx, &px, &mx), 3, "%s", ratio);
		uint64_t v[8], s[8];
		fig13_row(r.out, "vliw", v);
		fig13_row(r.out, "serial", s);
		cr_expect_gt(s[0], v[0], "%s: serial %llu bundles, vliw %llu", c.name, (unsigned long long)s[0],
			     (unsigned long long)v[0]);
		cr_expect_eq(s[3], 0, "%s: the serial translation copies %llu times", c.name, (unsigned long long)s[3]);
		cr_expect_geq(s[5], v[5], "%s: serial %llu requests, vliw %llu", c.name, (unsigned long long)s[5],
			      (unsigned long long)v[5]);
		char want[64];
		snprintf(want, sizeof want, "%.2fx compute", (double)s[1] / (double)v[1]);
		cr_expect(strstr(ratio, want), "%s: want '%s' in %s", c.name, want, ratio);
		proc_result_free(&r);
		free(cmd);
		ck_case_free(&c);
	}
	cr_assert_eq(proc_rmdir(dir), 0);
}

/* ---- what the translator refuses: one located message naming it ---- */

#define TR_HEAD ".version 7.0\n.target sm_52\n.address_size 64\n" \
	".visible .entry k(.param .u64 p)\n{\n\t.reg .pred %p<3>;\n\t.reg .b32 %r<9>;\n" \
	"\t.reg .f32 %f<9>;\n\t.reg .b64 %rd<9>; .reg .b16 %rs<9>;\n"

static void untranslated(const char *body, const char *want)
{
	char text[1024];
	snprintf(text, sizeof text, "%s%s\tret;\n}\n", TR_HEAD, body);
	ptx_module *m = NULL;
	diag d;
	diag_clear(&d);
	cr_assert_eq(ptx_read("t.ptx", text, strlen(text), &m, &d), 0, "%s", d.msg);
	uint64_t arg = 0;
	simt_ptx_call call = { .kernel = 0, .gdim = { 1, 1, 1 }, .bdim = { 32, 1, 1 }, .args = &arg, .nargs = 1 };
	simt_program p;
	diag_clear(&d);
	cr_assert_lt(simt_ptx_program("t.ptx", m, &call, 1, 4096, SIMT_MAP_VLIW, &p, &d), 0,
		     "translated, wanted '%s'", want);
	cr_expect(strstr(d.msg, want), "got '%s', wanted '%s'", d.msg, want);
	ptx_module_free(m);
}

Test(translator, refusals_are_located)
{
	untranslated("\tadd.rz.ftz.f32 %f1, %f2, %f3;\n",
		     "t.ptx:10:2: error: kernel 'k': the machine's f32 arithmetic rounds to nearest even");
	untranslated("\tsqrt.rn.f64 %rd1, %rd2;\n", "t.ptx:10:2: error: kernel 'k': the type .f64 does not run");
	untranslated("\tadd.sat.ftz.f32 %f1, %f2, %f3;\n", "t.ptx:10:2: error: kernel 'k': .sat on f32 arithmetic");
	untranslated("\trcp.rz.f32 %f1, %f2;\n",
		     "t.ptx:10:2: error: kernel 'k': the machine's f32 arithmetic rounds to nearest even");
	untranslated("\tcvt.rn.f16.f64 %rs1, %rd2;\n", "t.ptx:10:2: error: kernel 'k': the type .f64 does not run");
	untranslated("\tfma.rz.f32 %f1, %f2, %f3, %f4;\n",
		     "t.ptx:10:2: error: kernel 'k': fma rounds to nearest even on the machine");
	untranslated("\tmad.hi.sat.s32 %r1, %r2, %r3, %r4;\n",
		     "t.ptx:10:2: error: kernel 'k': mad.hi.sat is not translated");
	untranslated("\tcvt.sat.s32.s64 %r1, %rd2;\n", "t.ptx:10:2: error: kernel 'k': cvt.sat is not translated");
	untranslated("\tbfe.u32 %r1, %r2, %r3, 4;\n",
		     "t.ptx:10:2: error: kernel 'k': bfe is translated with an immediate position and length only");
	untranslated("\tprmt.b32 %r1, %r2, %r3, 4660;\n", "t.ptx:10:2: error: kernel 'k': 'prmt' is not translated");
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
	cr_assert_eq(simt_ptx_program(c.ptx, ld.m, calls, 1, ld.size, mapping, &p, &d), 0, "%s: %s",
		     c.name, d.msg);
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

/* ---- Fig 12 from the CUDA workloads (doc/SIMT.md) ---- */

typedef struct fig12_row {
	char command[32], cls[8];
	unsigned long long count, base, run;
} fig12_row;

/* The rows of --stats=commands' table "per isa/ command (Fig 12)". */
static size_t fig12_rows(const char *out, fig12_row *rows, size_t max)
{
	const char *at = strstr(out, "per isa/ command (Fig 12):\n");
	cr_assert_not_null(at, "no Fig 12 table in:\n%s", out);
	at = strchr(at, '\n') + 1;
	cr_assert(!strncmp(at, "  command  class  count  baseline cycles  run cycles  speedup\n", 62), "%s", at);
	at = strchr(at, '\n') + 1;
	size_t n = 0;
	while (*at == ' ' && n < max) {
		fig12_row *r = &rows[n];
		double speedup;
		cr_assert_eq(sscanf(at, "%31s %7s %llu %llu %llu %lf", r->command, r->cls, &r->count, &r->base,
				    &r->run, &speedup), 6, "%.80s", at);
		n++;
		const char *nl = strchr(at, '\n');
		if (!nl)
			break;
		at = nl + 1;
	}
	return n;
}

/* `infsim run K.ptx --launch @DIR/launch -l ... --check --stats=commands`
 * (the commands doc/SIMT.md's "Fig 12 from the CUDA workloads" gives):
 * the table is printed for a translated run; with the default latency
 * (optimised) no command takes more cycles than at Table 1's static
 * latency, the signed integer multiply (mad.lo.s32 of the thread index)
 * is faster on every kernel; with -m latency=baseline the same commands
 * run exactly their static cycles. */
Test(fig12, cuda_cases, .timeout = 600)
{
	static const char *const names[] = { "saxpy_1000", "hotspot_100x77", "backprop_160", "sinexp_1000_approx" };
	char dir[256];
	cr_assert_not_null(proc_tmpdir(dir, sizeof dir, "infsim-fig12"));
	for (size_t n = 0; n < sizeof names / sizeof *names; n++) {
		ck_case c;
		char *cmd = export_case(names[n], dir, &c);
		fig12_row opt[64], base[64];
		size_t nopt = 0, nbase = 0;
		for (int pass = 0; pass < 2; pass++) {
			char args[8192];
			/* in dir, not SRCDIR (read-only under make distcheck) */
			snprintf(args, sizeof args, "run %s/%s --check --stats=commands%s", SRCDIR, cmd + 11,
				 pass ? " -m latency=baseline" : "");
			proc_result r = proc_run_in(dir, INFSIM_BIN, args);
			cr_assert_eq(r.status, 0, "infsim %s:\n%s%s", args, r.out, r.err);
			if (pass)
				nbase = fig12_rows(r.out, base, 64);
			else
				nopt = fig12_rows(r.out, opt, 64);
			proc_result_free(&r);
		}
		cr_assert_gt(nopt, 0, "%s: an empty table", c.name);
		cr_assert_eq(nbase, nopt, "%s: %zu rows at baseline latency, %zu optimised", c.name, nbase, nopt);
		size_t faster = 0;
		bool mul = false;
		for (size_t i = 0; i < nopt; i++) {
			const fig12_row *o = &opt[i], *b = &base[i];
			cr_expect(o->run <= o->base, "%s: %s %s runs %llu cycles, %llu at Table 1's latency", c.name,
				  o->command, o->cls, o->run, o->base);
			faster += o->run < o->base;
			if (!strcmp(o->command, "mul") && !strcmp(o->cls, "int")) {
				mul = true;
				cr_expect_lt(o->run, o->base, "%s: int mul not faster", c.name);
			}
			cr_expect(!strcmp(b->command, o->command) && !strcmp(b->cls, o->cls) &&
				  b->count == o->count && b->base == o->base,
				  "%s: row %zu: %s %s %llu %llu at baseline, %s %s %llu %llu optimised", c.name, i,
				  b->command, b->cls, b->count, b->base, o->command, o->cls, o->count, o->base);
			cr_expect_eq(b->run, b->base, "%s: %s %s at latency=baseline runs %llu cycles, not %llu",
				     c.name, b->command, b->cls, b->run, b->base);
		}
		cr_expect(mul, "%s: no int mul row", c.name);
		cr_expect_gt(faster, 0, "%s: no command is faster with latency=optimised", c.name);
		free(cmd);
		ck_case_free(&c);
	}
	cr_assert_eq(proc_rmdir(dir), 0);
}

/* ---- several CTAs a control block (doc/SIMT.md, "The machine") ---- */

/* Every case that packs CTAs (a launch of more CTAs than the 4 CBs, whose
 * CTAs fit a CB several at a time) again with one CTA a CB (-m
 * ctas_per_cb=1): the same bits as plain C, as with the CTAs packed (the
 * default, above).  A case that does not pack runs the same either way. */
static bool packs(size_t idx)
{
	ck_case c;
	cr_assert_eq(ck_case_make(idx, &c), 0);
	bool any = false;
	for (size_t i = 0; i < c.nlaunches; i++) {
		const ck_launch *l = &c.launches[i];
		const uint32_t grid = l->grid[0] * l->grid[1] * l->grid[2];
		const uint32_t block = l->block[0] * l->block[1] * l->block[2];
		any |= grid > 4 && block <= SIMT_CB_THREADS / 2;
	}
	ck_case_free(&c);
	return any;
}

ParameterizedTestParameters(cuda_simt, one_cta_per_cb)
{
	return every_case();
}

ParameterizedTest(size_t *idx, cuda_simt, one_cta_per_cb, .timeout = 600)
{
	if (!packs(*idx))
		cr_skip_test("the case's CTAs are not packed");
	run_case_ctas(*idx, SIMT_MAP_VLIW, 1);
}

/* Four CTAs of 256 packed on the one CB (cbs=1): each stores ctaid * 1000 + tid to its
 * shared s[tid], meets the others of its CTA at bar.sync, and reads
 * s[255 - tid]: another CTA's window or a barrier across CTAs would give
 * other numbers.  In CTA 1 alone threads below 10 go to another
 * bar.sync: that CTA's barrier is refused, naming it, while the other
 * three pass theirs. */
#define PK_HEAD ".version 7.0\n.target sm_52\n.address_size 64\n" \
	".visible .entry k(.param .u64 p)\n{\n\t.shared .align 4 .b8 s[1024];\n" \
	"\t.reg .pred %p<4>;\n\t.reg .b32 %r<12>;\n\t.reg .b64 %rd<9>;\n" \
	"\tld.param.u64 %rd1, [p];\n\tcvta.to.global.u64 %rd2, %rd1;\n" \
	"\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %ctaid.x;\n"

static int packed_run(const char *body, unsigned ctas_per_cb, uint32_t *out, simt_stats *st, diag *d)
{
	char text[4096];
	snprintf(text, sizeof text, "%s%s\tret;\n}\n", PK_HEAD, body);
	ptx_module *m = NULL;
	cr_assert_eq(ptx_read("pk.ptx", text, strlen(text), &m, d), 0, "%s", d->msg);
	uint64_t arg = BASE;
	simt_ptx_call call = { .kernel = 0, .gdim = { 4, 1, 1 }, .bdim = { 256, 1, 1 }, .args = &arg, .nargs = 1 };
	simt_program p;
	cr_assert_eq(simt_ptx_program("pk.ptx", m, &call, 1, BASE + 4096, SIMT_MAP_VLIW, &p, d), 0, "%s", d->msg);
	p.ctas_per_cb = ctas_per_cb;
	p.cbs = 1; /* one CB, so that the four CTAs may share it */
	simt_machine *mc = simt_machine_new(&p, d);
	cr_assert_not_null(mc, "%s", d->msg);
	int rc = simt_machine_run(mc, d);
	memcpy(out, (const uint8_t *)simt_machine_mem(mc) + BASE, 4096);
	*st = *simt_machine_stats(mc);
	simt_machine_free(mc);
	simt_program_free(&p);
	ptx_module_free(m);
	return rc;
}

static const char pk_swap[] =
	"\tmad.lo.s32 %r3, %r2, 1000, %r1;\n"
	"\tmul.wide.u32 %rd3, %r1, 4;\n\tmov.u64 %rd4, s;\n\tadd.s64 %rd5, %rd4, %rd3;\n"
	"\tst.shared.u32 [%rd5], %r3;\n"
	"\tbar.sync 0;\n"
	"\tsub.s32 %r4, 255, %r1;\n\tmul.wide.u32 %rd6, %r4, 4;\n\tadd.s64 %rd7, %rd4, %rd6;\n"
	"\tld.shared.u32 %r5, [%rd7];\n"
	"\tshl.b32 %r6, %r2, 8;\n\tadd.s32 %r7, %r6, %r1;\n\tmul.wide.u32 %rd8, %r7, 4;\n"
	"\tadd.s64 %rd8, %rd2, %rd8;\n\tst.global.u32 [%rd8], %r5;\n";

Test(pack, shared_and_barriers_per_cta)
{
	static uint32_t out[1024];
	for (unsigned ctas = 1; ctas <= 4; ctas *= 4) {
		simt_stats st;
		diag d;
		diag_clear(&d);
		memset(out, 0xee, sizeof out);
		cr_assert_eq(packed_run(pk_swap, ctas, out, &st, &d), 0, "%s", d.msg);
		for (unsigned i = 0; i < 1024; i++)
			cr_assert_eq(out[i], (i / 256) * 1000 + 255 - i % 256, "ctas_per_cb=%u: out[%u] = %u", ctas, i, out[i]);
		cr_assert_eq(st.cb_runs, 4);
		cr_assert_eq(st.cb_groups, ctas == 4 ? 1 : 4, "ctas_per_cb=%u: %llu CB runs", ctas,
			     (unsigned long long)st.cb_groups);
		if (ctas == 4) /* every bitline of the CB busy in every bundle */
			cr_assert_eq(st.thread_slots, st.lane_slots);
	}
	/* CTA 1's threads 0-9 at another barrier: CTA 1 is named */
	static const char split[] =
		"\tsetp.eq.u32 %p1, %r2, 1;\n\tsetp.lt.u32 %p2, %r1, 10;\n\tand.pred %p3, %p1, %p2;\n"
		"\t@%p3 bra LA;\n\tbar.sync 0;\n\tbra.uni LE;\nLA:\n\tbar.sync 0;\nLE:\n";
	simt_stats st;
	diag d;
	diag_clear(&d);
	cr_assert_lt(packed_run(split, 4, out, &st, &d), 0, "a split barrier ran");
	cr_expect(strstr(d.msg, "pk.ptx:") && strstr(d.msg, "error: kernel 'k': CTA 1: ") &&
		  strstr(d.msg, "bar.sync"), "%s", d.msg);
}

/* ---- integer and exchange translations vs the reference ----
 * A kernel of one CTA of NT threads: thread t loads a[t], b[t], c[t]
 * (u64), runs BODY on them (%rd10..12 whole, %r2..4 and %rs1..3 their
 * low 32 and 16 bits), and stores %rd13 to d[t].  The reference and the
 * machine (VLIW and serial) run it from the same memory, and every d
 * must be the same bits. */
#define OP_NT 64u
#define OP_HEAD ".version 7.0\n.target sm_52\n.address_size 64\n" \
	".visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd)\n{\n" \
	"\t.reg .pred %p<8>;\n\t.reg .b16 %rs<16>;\n\t.reg .b32 %r<32>;\n\t.reg .b64 %rd<32>;\n" \
	"\tld.param.u64 %rd1, [pa];\n\tld.param.u64 %rd2, [pb];\n\tld.param.u64 %rd3, [pc];\n" \
	"\tld.param.u64 %rd4, [pd];\n\tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd5, %r1, 8;\n" \
	"\tadd.s64 %rd6, %rd1, %rd5;\n\tadd.s64 %rd7, %rd2, %rd5;\n\tadd.s64 %rd8, %rd3, %rd5;\n" \
	"\tadd.s64 %rd9, %rd4, %rd5;\n\tld.global.u64 %rd10, [%rd6];\n\tld.global.u64 %rd11, [%rd7];\n" \
	"\tld.global.u64 %rd12, [%rd8];\n\tcvt.u32.u64 %r2, %rd10;\n\tcvt.u32.u64 %r3, %rd11;\n" \
	"\tcvt.u32.u64 %r4, %rd12;\n\tcvt.u16.u64 %rs1, %rd10;\n\tcvt.u16.u64 %rs2, %rd11;\n" \
	"\tcvt.u16.u64 %rs3, %rd12;\n\tmov.u64 %rd13, 0;\n"
#define OP_TAIL "\tst.global.u64 [%rd9], %rd13;\n\tret;\n}\n"

static uint64_t rng_state = 0x9e3779b97f4a7c15u;
static uint64_t rnd64(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* Operands at width w: the edges 0, 1, -1, MIN, MAX paired every way,
 * then random values (some small, as divisors are). */
static void op_operands(unsigned w, uint64_t *a, uint64_t *b, uint64_t *c)
{
	uint64_t m = w == 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1;
	uint64_t e[5] = { 0, 1, m, (m >> 1) + 1, m >> 1 };
	for (unsigned t = 0; t < OP_NT; t++) {
		if (t < 25) {
			a[t] = e[t / 5];
			b[t] = e[t % 5];
		} else {
			a[t] = rnd64() & m;
			b[t] = t % 3 ? rnd64() & m : (rnd64() & 0xff) * (t % 2 ? 1 : m);
		}
		c[t] = rnd64() & m;
		/* the bits above w are whatever: the body reads its width */
		a[t] |= rnd64() & ~m;
		b[t] |= rnd64() & ~m;
	}
}

static void op_run(const char *what, const char *body, const uint64_t *a, const uint64_t *b, const uint64_t *c,
		   unsigned nt)
{
	char text[8192];
	snprintf(text, sizeof text, "%s%s%s", OP_HEAD, body, OP_TAIL);
	ptx_module *m = NULL;
	diag d;
	diag_clear(&d);
	cr_assert_eq(ptx_read("op.ptx", text, strlen(text), &m, &d), 0, "%s: %s", what, d.msg);
	const uint64_t at[4] = { BASE, BASE + 0x200, BASE + 0x400, BASE + 0x600 }, size = BASE + 0x800;
	uint8_t *ref = calloc(1, size), *init = calloc(1, size);
	cr_assert(ref && init);
	memcpy(init + at[0], a, nt * 8);
	memcpy(init + at[1], b, nt * 8);
	memcpy(init + at[2], c, nt * 8);
	memcpy(ref, init, size);
	uint64_t args[4] = { at[0], at[1], at[2], at[3] };
	ptx_launch pl = { .kernel = 0, .args = args, .nargs = 4, .grid = { 1, 1, 1 }, .block = { nt, 1, 1 } };
	ptx_mem pm = { ref, 0, size };
	ptx_where w;
	diag_clear(&d);
	cr_assert_eq(ptx_ref_run(m, &pl, &pm, &w, &d), 0, "%s: the reference: %s", what, d.msg);
	for (int map = SIMT_MAP_VLIW; map <= SIMT_MAP_SERIAL; map++) {
		simt_ptx_call call = { .kernel = 0, .gdim = { 1, 1, 1 }, .bdim = { nt, 1, 1 }, .args = args, .nargs = 4 };
		simt_program p;
		diag_clear(&d);
		cr_assert_eq(simt_ptx_program("op.ptx", m, &call, 1, size, map, &p, &d), 0, "%s: %s", what, d.msg);
		memcpy(p.init, init, size);
		simt_machine *sm = simt_machine_new(&p, &d);
		cr_assert_not_null(sm, "%s: %s", what, d.msg);
		cr_assert_eq(simt_machine_run(sm, &d), 0, "%s: %s", what, d.msg);
		const uint8_t *got = (const uint8_t *)simt_machine_mem(sm);
		size_t bad = 0;
		for (unsigned t = 0; t < nt; t++) {
			uint64_t g, r;
			memcpy(&g, got + at[3] + 8 * t, 8);
			memcpy(&r, ref + at[3] + 8 * t, 8);
			if (g != r && bad++ < 5)
				cr_log_error("%s (%s): thread %u: a 0x%llx b 0x%llx c 0x%llx: machine 0x%llx, reference 0x%llx",
					     what, map == SIMT_MAP_SERIAL ? "serial" : "vliw", t, (unsigned long long)a[t],
					     (unsigned long long)b[t], (unsigned long long)c[t], (unsigned long long)g,
					     (unsigned long long)r);
		}
		cr_expect_eq(bad, 0, "%s: %zu threads differ from the reference", what, bad);
		simt_machine_free(sm);
		simt_program_free(&p);
	}
	free(ref);
	free(init);
	ptx_module_free(m);
}

/* One instruction at width w over the edge and random operands. */
static void op_case(unsigned w, const char *body)
{
	uint64_t a[OP_NT], b[OP_NT], c[OP_NT];
	op_operands(w, a, b, c);
	op_run(body, body, a, b, c, OP_NT);
}

Test(translated_int, mul_hi_mad_hi)
{
	static const char *const t16[] = {
		"\tmul.hi.u16 %rs4, %rs1, %rs2;\n\tcvt.u64.u16 %rd13, %rs4;\n",
		"\tmul.hi.s16 %rs4, %rs1, %rs2;\n\tcvt.u64.u16 %rd13, %rs4;\n",
		"\tmad.hi.u16 %rs4, %rs1, %rs2, %rs3;\n\tcvt.u64.u16 %rd13, %rs4;\n",
		"\tmad.hi.s16 %rs4, %rs1, %rs2, %rs3;\n\tcvt.u64.u16 %rd13, %rs4;\n",
	};
	static const char *const t32[] = {
		"\tmul.hi.u32 %r5, %r2, %r3;\n\tcvt.u64.u32 %rd13, %r5;\n",
		"\tmul.hi.s32 %r5, %r2, %r3;\n\tcvt.u64.u32 %rd13, %r5;\n",
		"\tmad.hi.u32 %r5, %r2, %r3, %r4;\n\tcvt.u64.u32 %rd13, %r5;\n",
		"\tmad.hi.s32 %r5, %r2, %r3, %r4;\n\tcvt.u64.u32 %rd13, %r5;\n",
		"\tmul.hi.u32 %r5, %r2, -858993459;\n\tcvt.u64.u32 %rd13, %r5;\n", /* x / 10 */
		"\tmul.hi.s32 %r5, %r2, 1717986919;\n\tcvt.u64.u32 %rd13, %r5;\n",
	};
	static const char *const t64[] = {
		"\tmul.hi.u64 %rd13, %rd10, %rd11;\n",
		"\tmul.hi.s64 %rd13, %rd10, %rd11;\n",
		"\tmad.hi.u64 %rd13, %rd10, %rd11, %rd12;\n",
		"\tmad.hi.s64 %rd13, %rd10, %rd11, %rd12;\n",
		"\tmul.hi.u64 %rd13, %rd10, -3689348814741910323;\n",
	};
	for (size_t i = 0; i < sizeof t16 / sizeof *t16; i++)
		op_case(16, t16[i]);
	for (size_t i = 0; i < sizeof t32 / sizeof *t32; i++)
		op_case(32, t32[i]);
	for (size_t i = 0; i < sizeof t64 / sizeof *t64; i++)
		op_case(64, t64[i]);
}

Test(translated_int, div_rem_64_and_16, .timeout = 600)
{
	static const char *const t64[] = {
		"\tdiv.u64 %rd13, %rd10, %rd11;\n",
		"\trem.u64 %rd13, %rd10, %rd11;\n",
		"\tdiv.s64 %rd13, %rd10, %rd11;\n",
		"\trem.s64 %rd13, %rd10, %rd11;\n",
	};
	static const char *const t16[] = {
		"\tdiv.u16 %rs4, %rs1, %rs2;\n\tcvt.u64.u16 %rd13, %rs4;\n",
		"\trem.u16 %rs4, %rs1, %rs2;\n\tcvt.u64.u16 %rd13, %rs4;\n",
		"\tdiv.s16 %rs4, %rs1, %rs2;\n\tcvt.u64.u16 %rd13, %rs4;\n",
		"\trem.s16 %rs4, %rs1, %rs2;\n\tcvt.u64.u16 %rd13, %rs4;\n",
	};
	for (size_t i = 0; i < sizeof t64 / sizeof *t64; i++)
		op_case(64, t64[i]);
	for (size_t i = 0; i < sizeof t16 / sizeof *t16; i++)
		op_case(16, t16[i]);
}

Test(translated_int, wide_16_and_lo_64)
{
	static const char *const t16[] = {
		"\tmul.wide.u16 %r5, %rs1, %rs2;\n\tcvt.u64.u32 %rd13, %r5;\n",
		"\tmul.wide.s16 %r5, %rs1, %rs2;\n\tcvt.u64.u32 %rd13, %r5;\n",
		"\tmad.wide.u16 %r5, %rs1, %rs2, %r4;\n\tcvt.u64.u32 %rd13, %r5;\n",
		"\tmad.wide.s16 %r5, %rs1, %rs2, %r4;\n\tcvt.u64.u32 %rd13, %r5;\n",
		"\tmul.lo.u16 %rs4, %rs1, %rs2;\n\tcvt.u64.u16 %rd13, %rs4;\n",
	};
	static const char *const t64[] = {
		"\tmul.lo.s64 %rd13, %rd10, %rd11;\n",
		"\tmad.lo.s64 %rd13, %rd10, %rd11, %rd12;\n",
	};
	for (size_t i = 0; i < sizeof t16 / sizeof *t16; i++)
		op_case(16, t16[i]);
	for (size_t i = 0; i < sizeof t64 / sizeof *t64; i++)
		op_case(64, t64[i]);
}

/* shfl.sync with d|p and with c in a register (random lanes and c),
 * vote.sync under masks: the result and the predicate as bits. */
Test(translated_int, shfl_vote)
{
	static const char *const body[] = {
		"\tshfl.sync.idx.b32 %r5|%p1, %r2, %r3, 31, -1;\n\tselp.u32 %r6, 1, 0, %p1;\n\tmov.b64 %rd13, {%r5, %r6};\n",
		"\tshfl.sync.up.b32 %r5|%p1, %r2, %r3, 0, -1;\n\tselp.u32 %r6, 1, 0, %p1;\n\tmov.b64 %rd13, {%r5, %r6};\n",
		"\tshfl.sync.down.b32 %r5|%p1, %r2, %r3, 31, -1;\n\tselp.u32 %r6, 1, 0, %p1;\n\tmov.b64 %rd13, {%r5, %r6};\n",
		"\tshfl.sync.bfly.b32 %r5|%p1, %r2, %r3, 7711, -1;\n\tselp.u32 %r6, 1, 0, %p1;\n\tmov.b64 %rd13, {%r5, %r6};\n",
		"\tshfl.sync.idx.b32 %r5|%p1, %r2, %r3, %r4, -1;\n\tselp.u32 %r6, 1, 0, %p1;\n\tmov.b64 %rd13, {%r5, %r6};\n",
		"\tshfl.sync.up.b32 %r5|%p1, %r2, %r3, %r4, -1;\n\tselp.u32 %r6, 1, 0, %p1;\n\tmov.b64 %rd13, {%r5, %r6};\n",
		"\tshfl.sync.down.b32 %r5|%p1, %r2, %r3, %r4, -1;\n\tselp.u32 %r6, 1, 0, %p1;\n\tmov.b64 %rd13, {%r5, %r6};\n",
		"\tshfl.sync.bfly.b32 %r5, %r2, %r3, %r4, -1;\n\tcvt.u64.u32 %rd13, %r5;\n",
		"\tshfl.sync.down.b32 %r5, %r2, %r3, 31, %r7;\n\tcvt.u64.u32 %rd13, %r5;\n",
		/* threads 16..31 of each warp leave: a mask of the first 16 */
		"\tsetp.gt.u32 %p2, %r12, 15;\n\t@%p2 bra $L_end;\n\tand.b32 %r8, %r3, 15;\n"
		"\tshfl.sync.bfly.b32 %r5|%p1, %r2, %r8, 31, 65535;\n\tselp.u32 %r6, 1, 0, %p1;\n"
		"\tmov.b64 %rd13, {%r5, %r6};\n",
		/* the odd lanes leave: a mask of the even ones */
		"\tand.b32 %r13, %r12, 1;\n\tsetp.ne.u32 %p3, %r13, 0;\n\t@%p3 bra $L_end;\n"
		"\tsetp.ne.s32 %p1, %r2, 0;\n\tvote.sync.ballot.b32 %r5, %p1, 1431655765;\n\tcvt.u64.u32 %rd13, %r5;\n",
		"\tsetp.ne.s32 %p1, %r2, 0;\n\tvote.sync.ballot.b32 %r5, %p1, %r7;\n\tcvt.u64.u32 %rd13, %r5;\n",
		"\tsetp.gt.u32 %p2, %r1, 40;\n\t@%p2 bra $L_end;\n\tand.b32 %r9, %r2, 3;\n\tsetp.ne.s32 %p1, %r9, 0;\n"
		"\tvote.sync.all.pred %p4, %p1, %r7;\n\tvote.sync.any.pred %p5, %p1, %r7;\n"
		"\tvote.sync.uni.pred %p6, %p1, %r7;\n\tselp.u32 %r5, 1, 0, %p4;\n\tselp.u32 %r6, 2, 0, %p5;\n"
		"\tselp.u32 %r10, 4, 0, %p6;\n\tor.b32 %r5, %r5, %r6;\n\tor.b32 %r5, %r5, %r10;\n"
		"\tcvt.u64.u32 %rd13, %r5;\n",
	};
	for (size_t i = 0; i < sizeof body / sizeof *body; i++) {
		uint64_t a[OP_NT], b[OP_NT], c[OP_NT];
		for (unsigned t = 0; t < OP_NT; t++) {
			a[t] = rnd64() % 5 == 0 ? 0 : rnd64();
			b[t] = rnd64() & (t % 2 ? 31 : 0xffffffffu);
			c[t] = rnd64() & 0x1f1f;
		}
		/* the mask register %r7: the thread's own bit and random others */
		char full[2048];
		snprintf(full, sizeof full, "\tshr.u64 %%rd14, %%rd12, 32;\n\tcvt.u32.u64 %%r7, %%rd14;\n"
			 "\tand.b32 %%r12, %%r1, 31;\n\tshl.b32 %%r11, 1, %%r12;\n\tor.b32 %%r7, %%r7, %%r11;\n%s"
			 "$L_end:\n", body[i]);
		for (unsigned t = 0; t < OP_NT; t++)
			c[t] |= (rnd64() | (i == 8 ? UINT64_MAX : 0)) << 32;
		op_run(body[i], full, a, b, c, OP_NT);
	}
}

Test(translated_int, bfe)
{
	static const unsigned pl[][2] = { { 0, 0 }, { 0, 1 }, { 3, 5 }, { 8, 8 }, { 27, 5 }, { 28, 8 }, { 31, 1 },
					  { 0, 32 }, { 5, 40 }, { 32, 3 }, { 40, 1 }, { 60, 4 }, { 0, 64 }, { 63, 2 },
					  { 200, 9 }, { 7, 255 } };
	for (size_t i = 0; i < sizeof pl / sizeof *pl; i++) {
		char body[512];
		static const char *const ty[] = { "u32", "s32" };
		for (int k = 0; k < 2; k++) {
			snprintf(body, sizeof body, "\tbfe.%s %%r5, %%r2, %u, %u;\n\tcvt.u64.u32 %%rd13, %%r5;\n", ty[k],
				 pl[i][0], pl[i][1]);
			op_case(32, body);
			snprintf(body, sizeof body, "\tbfe.%c64 %%rd13, %%rd10, %u, %u;\n", ty[k][0], pl[i][0], pl[i][1]);
			op_case(64, body);
		}
	}
}

Test(translated_int, shf)
{
	static const char *const mode[] = { "l.wrap", "r.wrap", "l.clamp", "r.clamp" };
	static const unsigned amt[] = { 0, 1, 5, 27, 31, 32, 33, 63, 100 };
	char body[512];
	for (int k = 0; k < 4; k++) {
		for (size_t i = 0; i < sizeof amt / sizeof *amt; i++) {
			snprintf(body, sizeof body, "\tshf.%s.b32 %%r5, %%r2, %%r3, %u;\n\tcvt.u64.u32 %%rd13, %%r5;\n",
				 mode[k], amt[i]);
			op_case(32, body);
		}
		/* the amount in a register: c's low byte (0 .. 255) */
		snprintf(body, sizeof body, "\tand.b32 %%r6, %%r4, 255;\n\tshf.%s.b32 %%r5, %%r2, %%r3, %%r6;\n"
			 "\tcvt.u64.u32 %%rd13, %%r5;\n", mode[k]);
		op_case(32, body);
	}
}

Test(translated_int, popc_clz_brev)
{
	static const char *const body[] = {
		"\tpopc.b32 %r5, %r2;\n\tcvt.u64.u32 %rd13, %r5;\n",
		"\tclz.b32 %r5, %r2;\n\tcvt.u64.u32 %rd13, %r5;\n",
		"\tbrev.b32 %r5, %r2;\n\tcvt.u64.u32 %rd13, %r5;\n",
		"\tshr.u32 %r6, %r2, %r4;\n\tclz.b32 %r5, %r6;\n\tcvt.u64.u32 %rd13, %r5;\n",
	};
	static const char *const b64[] = {
		"\tpopc.b64 %r5, %rd10;\n\tcvt.u64.u32 %rd13, %r5;\n",
		"\tclz.b64 %r5, %rd10;\n\tcvt.u64.u32 %rd13, %r5;\n",
		"\tshr.u64 %rd14, %rd10, %r4;\n\tclz.b64 %r5, %rd14;\n\tcvt.u64.u32 %rd13, %r5;\n",
		"\tbrev.b64 %rd13, %rd10;\n",
	};
	for (size_t i = 0; i < sizeof body / sizeof *body; i++)
		op_case(32, body[i]);
	for (size_t i = 0; i < sizeof b64 / sizeof *b64; i++)
		op_case(64, b64[i]);
}

/* Where the reference stops over a member mask, the machine stops too
 * (the crossbar checks the translated shfl's mask), both located. */
static void op_both_stop(const char *body, const char *want_ref, const char *want_machine)
{
	char text[8192];
	snprintf(text, sizeof text, "%s\tand.b32 %%r12, %%r1, 31;\n\tshl.b32 %%r11, 1, %%r12;\n%s%s", OP_HEAD, body,
		 OP_TAIL);
	ptx_module *m = NULL;
	diag d;
	diag_clear(&d);
	cr_assert_eq(ptx_read("op.ptx", text, strlen(text), &m, &d), 0, "%s: %s", body, d.msg);
	const uint64_t size = BASE + 0x800;
	uint8_t *ref = calloc(1, size);
	cr_assert_not_null(ref);
	uint64_t args[4] = { BASE, BASE + 0x200, BASE + 0x400, BASE + 0x600 };
	ptx_launch pl = { .kernel = 0, .args = args, .nargs = 4, .grid = { 1, 1, 1 }, .block = { 32, 1, 1 } };
	ptx_mem pm = { ref, 0, size };
	ptx_where w;
	diag_clear(&d);
	cr_assert_lt(ptx_ref_run(m, &pl, &pm, &w, &d), 0, "%s: the reference ran it", body);
	cr_expect(strstr(d.msg, want_ref), "the reference: got '%s', wanted '%s'", d.msg, want_ref);
	simt_ptx_call call = { .kernel = 0, .gdim = { 1, 1, 1 }, .bdim = { 32, 1, 1 }, .args = args, .nargs = 4 };
	simt_program p;
	diag_clear(&d);
	cr_assert_eq(simt_ptx_program("op.ptx", m, &call, 1, size, SIMT_MAP_VLIW, &p, &d), 0, "%s", d.msg);
	simt_machine *sm = simt_machine_new(&p, &d);
	cr_assert_not_null(sm, "%s", d.msg);
	diag_clear(&d);
	cr_assert_lt(simt_machine_run(sm, &d), 0, "%s: the machine ran it", body);
	cr_expect(strstr(d.msg, want_machine), "the machine: got '%s', wanted '%s'", d.msg, want_machine);
	simt_machine_free(sm);
	simt_program_free(&p);
	free(ref);
	ptx_module_free(m);
}

Test(translated_int, member_masks_stop_both)
{
	op_both_stop("\tshfl.sync.bfly.b32 %r5, %r2, 1, 31, 65535;\n\tcvt.u64.u32 %rd13, %r5;\n",
		     "member mask 0x0000ffff leaves out the thread itself",
		     "op.ptx:32:2: error: kernel 'k': CTA 0: thread 16's shfl.sync member mask 0x0000ffff leaves out the thread itself");
	/* each thread's mask: itself and lane ^ 2; it reads lane ^ 1 */
	op_both_stop("\txor.b32 %r13, %r12, 2;\n\tshl.b32 %r14, 1, %r13;\n\tor.b32 %r7, %r11, %r14;\n"
		     "\tshfl.sync.bfly.b32 %r5|%p1, %r2, 1, 31, %r7;\n\tcvt.u64.u32 %rd13, %r5;\n",
		     "which is not an active member of the warp",
		     "shfl.sync reads thread 1, which is not in its member mask 0x00000005");
	op_both_stop("\tnot.b32 %r7, %r11;\n\tsetp.ne.s32 %p1, %r2, 0;\n\tvote.sync.any.pred %p2, %p1, %r7;\n"
		     "\tselp.u64 %rd13, 1, 0, %p2;\n",
		     "vote.sync's member mask leaves out the thread itself",
		     "thread 0's vote.sync member mask 0xfffffffe leaves out the thread itself");
}

/* ---- the float forms, machine against reference ----
 * One kernel per family, every form on the same inputs (special values,
 * subnormals, values near 2^-126 and random bits), each result stored:
 * the machine's bits must be the PTX reference's, in both mappings. */

typedef struct fform { const char *text; char kind; } fform; /* kind: 'f' f32, 'p' predicate, 'h' b32 */

static const fform f32_forms[] = {
	{ "add.ftz.f32 %f10, %f1, %f2;", 'f' }, { "sub.ftz.f32 %f10, %f1, %f2;", 'f' },
	{ "mul.ftz.f32 %f10, %f1, %f2;", 'f' }, { "fma.rn.ftz.f32 %f10, %f1, %f2, %f3;", 'f' },
	{ "mad.ftz.f32 %f10, %f1, %f2, %f3;", 'f' }, { "div.rn.ftz.f32 %f10, %f1, %f2;", 'f' },
	{ "div.approx.f32 %f10, %f1, %f2;", 'f' }, { "div.approx.ftz.f32 %f10, %f1, %f2;", 'f' },
	{ "div.full.f32 %f10, %f1, %f2;", 'f' }, { "div.full.ftz.f32 %f10, %f1, %f2;", 'f' },
	{ "rcp.rn.f32 %f10, %f2;", 'f' }, { "rcp.rn.ftz.f32 %f10, %f2;", 'f' },
	{ "rcp.approx.f32 %f10, %f2;", 'f' }, { "rcp.approx.ftz.f32 %f10, %f2;", 'f' },
	{ "sqrt.rn.f32 %f10, %f1;", 'f' }, { "sqrt.rn.ftz.f32 %f10, %f1;", 'f' },
	{ "sqrt.approx.f32 %f10, %f2;", 'f' }, { "sqrt.approx.ftz.f32 %f10, %f2;", 'f' },
	{ "min.ftz.f32 %f10, %f1, %f2;", 'f' }, { "max.ftz.f32 %f10, %f1, %f2;", 'f' },
	{ "abs.ftz.f32 %f10, %f1;", 'f' }, { "neg.ftz.f32 %f10, %f1;", 'f' },
	{ "sin.approx.ftz.f32 %f10, %f1;", 'f' }, { "ex2.approx.ftz.f32 %f10, %f3;", 'f' },
	{ "lg2.approx.ftz.f32 %f10, %f1;", 'f' }, { "rsqrt.approx.ftz.f32 %f10, %f2;", 'f' },
	{ "cvt.ftz.f32.f32 %f10, %f1;", 'f' }, { "setp.lt.ftz.f32 %p2, %f1, %f2;", 'p' },
	{ "setp.equ.ftz.f32 %p2, %f1, %f2;", 'p' }, { "setp.ge.ftz.f32 %p2, %f3, %f1;", 'p' },
};

static const fform f16_forms[] = {
	{ "add.f16x2 %hh10, %hh1, %hh2;", 'h' }, { "sub.f16x2 %hh10, %hh1, %hh2;", 'h' },
	{ "mul.f16x2 %hh10, %hh1, %hh2;", 'h' }, { "fma.rn.f16x2 %hh10, %hh1, %hh2, %hh3;", 'h' },
	{ "add.ftz.f16x2 %hh10, %hh1, %hh2;", 'h' }, { "mul.rn.ftz.f16x2 %hh10, %hh1, %hh2;", 'h' },
	{ "fma.rn.ftz.f16x2 %hh10, %hh1, %hh2, %hh3;", 'h' }, { "fma.rn.sat.f16x2 %hh10, %hh1, %hh2, %hh3;", 'h' },
	{ "add.sat.ftz.f16x2 %hh10, %hh1, %hh2;", 'h' }, { "neg.f16x2 %hh10, %hh1;", 'h' },
	{ "abs.f16x2 %hh10, %hh2;", 'h' }, { "neg.ftz.f16x2 %hh10, %hh1;", 'h' },
	{ "abs.ftz.f16x2 %hh10, %hh2;", 'h' }, { "min.f16x2 %hh10, %hh1, %hh2;", 'h' },
	{ "max.f16x2 %hh10, %hh1, %hh2;", 'h' }, { "min.ftz.f16x2 %hh10, %hh1, %hh3;", 'h' },
	{ "max.ftz.f16x2 %hh10, %hh2, %hh3;", 'h' },
	{ "add.f16 %h10, %h1, %h4; mov.b32 %hh10, {%h10, %h3};", 'h' },
	{ "sub.rn.f16 %h10, %h2, %h5; mov.b32 %hh10, {%h6, %h10};", 'h' },
	{ "mul.ftz.f16 %h10, %h1, %h3; mov.b32 %hh10, {%h10, %h10};", 'h' },
	{ "fma.rn.f16 %h10, %h1, %h3, %h5; mov.b32 %hh10, {%h10, %h2};", 'h' },
	{ "fma.rn.ftz.sat.f16 %h10, %h2, %h4, %h6; mov.b32 %hh10, {%h10, %h1};", 'h' },
	{ "neg.f16 %h10, %h3; mov.b32 %hh10, {%h10, %h10};", 'h' },
	{ "min.f16 %h10, %h1, %h3; max.ftz.f16 %h11, %h2, %h4; mov.b32 %hh10, {%h10, %h11};", 'h' },
	{ "setp.lt.f16 %p2, %h1, %h3;", 'p' }, { "setp.geu.ftz.f16 %p2, %h2, %h4;", 'p' },
	{ "setp.ne.f16 %p2, %h1, %h5;", 'p' }, { "setp.nan.f16 %p2, %h2, %h6;", 'p' },
	{ "cvt.f32.f16 %f10, %h1; mov.b32 %hh10, %f10;", 'h' },
	{ "mov.b32 %f1, %hh2; cvt.rn.f16.f32 %h10, %f1; mov.b32 %hh10, {%h10, %h10};", 'h' },
};

/* The kernel "k": n threads, each loads a, b, c (b32) at pa, pb, pc and
 * stores one word a form at po + 4 * (nforms * i + form). */
static char *forms_kernel(const fform *f, size_t nf, bool half)
{
	char *text = NULL;
	size_t len = 0;
	FILE *o = open_memstream(&text, &len);
	cr_assert_not_null(o);
	fprintf(o, ".version 7.0\n.target %s\n.address_size 64\n"
		".visible .entry k(.param .u32 n, .param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 po)\n{\n"
		"\t.reg .pred %%p<4>;\n\t.reg .b32 %%r<16>;\n\t.reg .f32 %%f<16>;\n\t.reg .b64 %%rd<16>;\n"
		"\t.reg .b16 %%h<16>;\n\t.reg .b32 %%hh<16>;\n"
		"\tld.param.u32 %%r1, [n];\n\tmov.u32 %%r2, %%ctaid.x;\n\tmov.u32 %%r3, %%ntid.x;\n"
		"\tmov.u32 %%r4, %%tid.x;\n\tmad.lo.s32 %%r5, %%r2, %%r3, %%r4;\n\tsetp.ge.s32 %%p1, %%r5, %%r1;\n"
		"\t@%%p1 bra DONE;\n\tld.param.u64 %%rd1, [pa];\n\tld.param.u64 %%rd2, [pb];\n"
		"\tld.param.u64 %%rd3, [pc];\n\tld.param.u64 %%rd4, [po];\n\tmul.wide.s32 %%rd5, %%r5, 4;\n"
		"\tadd.s64 %%rd6, %%rd1, %%rd5;\n\tadd.s64 %%rd7, %%rd2, %%rd5;\n\tadd.s64 %%rd8, %%rd3, %%rd5;\n",
		half ? "sm_60" : "sm_52");
	if (half)
		fprintf(o, "\tld.global.b32 %%hh1, [%%rd6];\n\tld.global.b32 %%hh2, [%%rd7];\n"
			"\tld.global.b32 %%hh3, [%%rd8];\n\tmov.b32 {%%h1, %%h2}, %%hh1;\n"
			"\tmov.b32 {%%h3, %%h4}, %%hh2;\n\tmov.b32 {%%h5, %%h6}, %%hh3;\n");
	else
		fprintf(o, "\tld.global.f32 %%f1, [%%rd6];\n\tld.global.f32 %%f2, [%%rd7];\n\tld.global.f32 %%f3, [%%rd8];\n");
	fprintf(o, "\tmul.wide.s32 %%rd9, %%r5, %zu;\n\tadd.s64 %%rd10, %%rd4, %%rd9;\n", 4 * nf);
	for (size_t k = 0; k < nf; k++) {
		fprintf(o, "\t%s\n", f[k].text);
		if (f[k].kind == 'p')
			fprintf(o, "\tselp.u32 %%r6, 1, 0, %%p2;\n\tst.global.u32 [%%rd10+%zu], %%r6;\n", 4 * k);
		else if (f[k].kind == 'f')
			fprintf(o, "\tst.global.f32 [%%rd10+%zu], %%f10;\n", 4 * k);
		else
			fprintf(o, "\tst.global.b32 [%%rd10+%zu], %%hh10;\n", 4 * k);
	}
	fprintf(o, "DONE:\n\tret;\n}\n");
	fclose(o);
	return text;
}

static uint32_t xs(uint64_t *x)
{
	*x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
	return (uint32_t)(*x >> 16);
}

/* Inputs: the special values of each format paired with each other, then
 * random bits, random subnormals and values near the smallest normal. */
static uint32_t form_input(bool half, size_t i, unsigned which, uint64_t *x)
{
	static const uint32_t f32s[] = { 0, 0x80000000u, 1, 0x807fffffu, 0x00400000u, 0x00800000u, 0x80800001u,
		0x3f800000u, 0xbf800000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00001u, 0x7f7fffffu,
		0x00ffffffu, 0x3f800001u, 0x40490fdbu, 0x1f800000u, 0x4b800000u, 0xc2f00000u,
		0x3f7fffffu /* (1 - 2^-24) 2^-126 = 0x3f7fffff 0x00800000: flushed by isa/'s hardware mode, not by .ftz */ };
	static const uint16_t f16s[] = { 0, 0x8000, 1, 0x83ff, 0x0200, 0x0400, 0x8401, 0x3c00, 0xbc00, 0x7c00,
		0xfc00, 0x7e00, 0xfd01, 0x7bff, 0x07ff, 0x3c01, 0x4248, 0x3800, 0x3bff, 0x5bff };
	size_t ns = half ? sizeof f16s / sizeof *f16s : sizeof f32s / sizeof *f32s;
	if (i < ns * ns) {
		size_t j = which == 0 ? i / ns : which == 1 ? i % ns : (i * 7) % ns;
		if (half)
			return f16s[j] | (uint32_t)f16s[(j + which + 1) % ns] << 16;
		return f32s[j];
	}
	uint32_t r = xs(x);
	switch (i % 4) {
	case 0: return r;
	case 1: return half ? r & 0x83ff83ffu : r & 0x807fffffu;              /* subnormals */
	case 2: return half ? (r & 0x87ff87ffu) | 0x04000400u : (r & 0x80ffffffu) | 0x00800000u; /* near min normal */
	default: return half ? (r & 0xbfffbfffu) | 0x30003000u : (r & 0xbfffffffu) | 0x30000000u; /* moderate */
	}
}

static void forms_case(const fform *f, size_t nf, bool half, int mapping)
{
	char *text = forms_kernel(f, nf, half);
	ptx_module *m = NULL;
	diag d;
	diag_clear(&d);
	cr_assert_eq(ptx_read("forms.ptx", text, strlen(text), &m, &d), 0, "%s", d.msg);
	const size_t n = 1024;
	const uint64_t pa = BASE, pb = pa + 4 * n, pc = pb + 4 * n, po = pc + 4 * n, size = po + 4 * n * nf;
	uint8_t *mem = calloc(1, size), *ref = calloc(1, size);
	cr_assert(mem && ref);
	uint64_t x = 0x243f6a8885a308d3u;
	for (size_t i = 0; i < n; i++)
		for (unsigned w = 0; w < 3; w++) {
			uint32_t v = form_input(half, i, w, &x);
			memcpy(mem + pa + 4 * n * w + 4 * i, &v, 4);
		}
	memcpy(ref, mem, size);
	uint64_t args[5] = { n, pa, pb, pc, po };
	ptx_launch pl = { .kernel = 0, .args = args, .nargs = 5 };
	pl.grid = (ptx_dim3){ (uint32_t)(n / 256), 1, 1 };
	pl.block = (ptx_dim3){ 256, 1, 1 };
	ptx_mem pm = { ref, 0, size };
	ptx_where w;
	cr_assert_eq(ptx_ref_run(m, &pl, &pm, &w, &d), 0, "the reference: %s", d.msg);
	simt_ptx_call call = { .kernel = 0, .gdim = { (uint32_t)(n / 256), 1, 1 }, .bdim = { 256, 1, 1 },
			       .args = args, .nargs = 5 };
	simt_program p;
	diag_clear(&d);
	cr_assert_eq(simt_ptx_program("forms.ptx", m, &call, 1, size, mapping, &p, &d), 0, "%s", d.msg);
	memcpy(p.init, mem, size);
	simt_machine *sm = simt_machine_new(&p, &d);
	cr_assert_not_null(sm, "%s", d.msg);
	cr_assert_eq(simt_machine_run(sm, &d), 0, "%s", d.msg);
	const uint8_t *got = (const uint8_t *)simt_machine_mem(sm);
	size_t bad = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < nf; k++) {
			uint32_t g, r, in[3];
			memcpy(&g, got + po + 4 * (nf * i + k), 4);
			memcpy(&r, ref + po + 4 * (nf * i + k), 4);
			for (unsigned j = 0; j < 3; j++)
				memcpy(&in[j], mem + pa + 4 * n * j + 4 * i, 4);
			if (g != r && bad++ < 12)
				cr_log_error("%s: a 0x%08x b 0x%08x c 0x%08x: the machine 0x%08x, the reference 0x%08x",
					     f[k].text, in[0], in[1], in[2], g, r);
		}
	cr_expect_eq(bad, 0, "%zu results differ from the reference (%s)", bad,
		     mapping == SIMT_MAP_SERIAL ? "serial" : "vliw");
	simt_machine_free(sm);
	simt_program_free(&p);
	ptx_module_free(m);
	free(text);
	free(mem);
	free(ref);
}

Test(float_forms, f32_ftz_div_rcp_sqrt, .timeout = 600)
{
	forms_case(f32_forms, sizeof f32_forms / sizeof *f32_forms, false, SIMT_MAP_VLIW);
	forms_case(f32_forms, sizeof f32_forms / sizeof *f32_forms, false, SIMT_MAP_SERIAL);
}

Test(float_forms, f16_f16x2, .timeout = 600)
{
	forms_case(f16_forms, sizeof f16_forms / sizeof *f16_forms, true, SIMT_MAP_VLIW);
	forms_case(f16_forms, sizeof f16_forms / sizeof *f16_forms, true, SIMT_MAP_SERIAL);
}

/* ---- sqrt.f32's sequence (ptxc.c, lower_sqrt) is correctly rounded ----
 * The same IEEE f32 steps on the host, isa/'s reference for the rsqrt
 * estimate (the sequence lower_rsqrt builds), against sqrtf: every
 * significand of [1, 4) (the sequence is the same at a times 4^k: the
 * estimate's bits shift with the exponent and every step scales
 * exactly), every subnormal, the binade on either side of the
 * scaling's threshold 2^-64 and the top one.  (Every positive
 * f32 was checked once the same way: none differs.) */
static float sqrt_seq(float a)
{
	bool sub = a < 0x1p-64f;
	volatile float a2 = sub ? a * 0x1p80f : a;
	uint32_t ab;
	memcpy(&ab, (const void *)&a2, 4);
	uint32_t yb = (uint32_t)isa_fp_rsqrt(ISA_FMT_F32, ISA_FL_IEEE, ab);
	volatile float y, s, h, r, s1, r1, s2, su, sd, eu, ed, s3;
	float t;
	memcpy(&t, &yb, 4);
	y = t;
	s = a2 * y, h = 0.5f * y, r = fmaf(-s, s, a2), s1 = fmaf(r, h, s);
	r1 = fmaf(-s1, s1, a2), s2 = fmaf(r1, h, s1);
	uint32_t b2;
	float x2 = s2;
	memcpy(&b2, &x2, 4);
	uint32_t bu = b2 + 1, bd = b2 - 1;
	float fu, fd;
	memcpy(&fu, &bu, 4);
	memcpy(&fd, &bd, 4);
	su = fu, sd = fd;
	eu = fmaf(-s2, su, a2), ed = fmaf(-sd, s2, a2);
	s3 = eu > 0 ? su : ed < 0 ? sd : s2;
	return sub ? s3 * 0x1p-40f : s3;
}

Test(float_forms, sqrt_sequence_correctly_rounded, .timeout = 600)
{
	static const uint32_t from[] = { 0x3f800000u, 0x00000001u, 0x1f000000u, 0x7f000000u };
	static const uint32_t to[] = { 0x40800000u, 0x00800000u, 0x20000000u, 0x7f800000u };
	size_t bad = 0;
	for (size_t k = 0; k < 4; k++)
		for (uint32_t u = from[k]; u < to[k]; u++) {
			float a;
			memcpy(&a, &u, 4);
			float g = sqrt_seq(a), w = sqrtf(a);
			if (memcmp(&g, &w, 4) && bad++ < 10)
				cr_log_error("sqrt 0x%08x: the sequence %a, sqrtf %a", u, (double)g, (double)w);
		}
	cr_expect_eq(bad, 0, "%zu roots differ from the correctly rounded ones", bad);
}
