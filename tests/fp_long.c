/* SPDX-License-Identifier: MIT */
/*
 * fp_long.c: the long floating-point run (issue 3, item 5; `make
 * check-long`; doc/FLOAT.md).  For each command, format and mode it
 * draws operand pairs over every class (tests/fp_cases.c), and holds
 *   - the reference (isa/fpref.c) to the host FPU (tests/fp_host.c), and
 *   - the bit-serial micro-program, run on a large machine (1024
 *     wordlines x 1024 bitlines x --arrays arrays), to the reference, with
 *     the baseline program and with the data-dependent one (optimised
 *     latency, built through a controller),
 * and prints, per line, the pairs tested and the mismatches of each.
 * Exit status 1 on any mismatch; a command without a micro-program yet
 * (isa_build fails) is "skipped: no micro-program", and fails the run
 * only with --require-all.
 *
 *   fp_long [--count N] [--formats f32,f16,bf16] [--modes hardware,ieee]
 *           [--latency baseline|optimised|both] [--arrays K] [--seed S]
 *           [--ref-only] [--require-all] [COMMAND...]
 *
 * COMMAND is a mnemonic of an F-class command (add, madd, lt, rsqrt, ...),
 * optionally with one format (add.f16), or a conversion with both types
 * (cvt.i32.f16, cvt.f32.u64, cvt.bf16.q32).  Without commands: every
 * F-class command and a set of conversions (default_commands).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fp_cases.h"
#include "fp_host.h"
#include "isa.h"
#include "isa_harness.h"

#define ROW_A 0
#define ROW_B 64
#define ROW_C 128
#define ROW_D 192
#define ROW_SCRATCH 256
#define WORDLINES 1024
#define BITLINES 1024
#define REPORT_MAX 3   /* mismatches printed in full per line */

typedef struct options {
	uint64_t count, seed;
	unsigned arrays;
	bool fmt_on[ISA_FMT_COUNT];
	bool mode_on[2];        /* [0] hardware, [1] ieee */
	bool run_base, run_opt, ref_only, require_all;
} options;

/* One line of the report: a command in one format and mode. */
typedef struct tally {
	uint64_t pairs, ref_bad, base_bad, opt_bad;
	uint64_t base_cycles, opt_cycles;  /* sums over batches */
	uint64_t batches, reported;
	bool skipped;
} tally;

static const char *const default_commands[] = {
	"add", "sub", "mul", "div", "madd", "eq", "ne", "lt", "le", "gt", "ge",
	"min", "max", "abs", "neg", "rsqrt",
	"cvt.f32.f16", "cvt.f32.bf16", "cvt.f16.f32", "cvt.bf16.f32",
	"cvt.f16.bf16", "cvt.bf16.f16",
	"cvt.i32.f32", "cvt.u32.f32", "cvt.i64.f32", "cvt.u64.f32", "cvt.i16.f16",
	"cvt.u8.bf16", "cvt.q32.f32", "cvt.q16.f16", "cvt.q32.f16", "cvt.q64.bf16",
	"cvt.f32.i32", "cvt.f32.u32", "cvt.f32.i64", "cvt.f32.u64", "cvt.f16.i32",
	"cvt.f16.u16", "cvt.bf16.i32", "cvt.bf16.u64", "cvt.f32.q32", "cvt.f16.q16", "cvt.f16.q64",
	"cvt.i8.q32",
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: fp_long [--count N] [--formats f32,f16,bf16] [--modes hardware,ieee]\n"
		"               [--latency baseline|optimised|both] [--arrays K] [--seed S]\n"
		"               [--ref-only] [--require-all] [COMMAND...]\n"
		"COMMAND: an fp mnemonic (add, madd, lt, rsqrt, ...), maybe with a format\n"
		"(add.f16), or a conversion with both types (cvt.i32.f16).  Default: every\n"
		"fp command in every format, and a set of conversions.  --count is per\n"
		"command, format and mode (default 10000000).\n");
}

/* ---- operands, host results, reference results ---- */

static bool is_float(unsigned fmt) { return isa_fpfmt_of(fmt) != NULL; }

/* a (of the source type for cvt), b and c3 for one batch; tmp: scratch
 * of n values. */
static void make_operands(const isa_cmd *c, uint64_t seed, uint64_t *a,
			  uint64_t *b, uint64_t *c3, uint64_t *tmp, size_t n)
{
	if (c->op != ISA_CVT) {
		fp_cases(c->fmt, seed, a, b, n);
		fp_cases(c->fmt, seed ^ UINT64_C(0x5bd1e995), c3, tmp, n);
		return;
	}
	if (is_float(c->sfmt)) {
		fp_cases(c->sfmt, seed, a, tmp, n);
		for (size_t i = 0; i < n; i += 2) /* both operands of the pairs */
			a[i] = tmp[i];
	} else {
		fp_cases_int(c->swidth, seed, a, n);
	}
}

static void host_results(const isa_cmd *c, const uint64_t *a, const uint64_t *b,
			 const uint64_t *c3, uint64_t *out, size_t n)
{
	if (c->op == ISA_CVT)
		for (size_t i = 0; i < n; i++)
			out[i] = fp_host_cvt(c, a[i]);
	else if (c->op == ISA_RSQRT)
		for (size_t i = 0; i < n; i++)
			out[i] = fp_host_rsqrt(c->fmt, c->flags, a[i]);
	else
		fp_host_ops(c->op, c->fmt, c->flags, a, b, c3, out, n);
}

static void ref_results(const isa_cmd *c, const uint64_t *a, const uint64_t *b,
			const uint64_t *c3, uint64_t *out, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		bool t = false;
		out[i] = isa_ref_elem3(c, a[i], b[i], c3[i], false, &t, NULL);
	}
}

/* Does the reference agree with the host?  NaN: any host NaN against the
 * canonical one; abs and neg keep NaN bits, integers compare exactly. */
static bool ref_host_same(const isa_cmd *c, uint64_t ref, uint64_t host)
{
	if (c->op == ISA_FABS || c->op == ISA_FNEG || !is_float(c->fmt))
		return ref == host;
	return fp_host_same(c->fmt, ref, host);
}

/* ---- the machine ---- */

static sram_machine *machine_new(unsigned arrays)
{
	const unsigned apw = arrays < 8 ? arrays : 8;
	sram_geom g = {.wordlines = WORDLINES, .bitlines = BITLINES,
		       .arrays_per_way = apw, .ways_per_bank = arrays / apw,
		       .mesh_x = 1, .mesh_y = 1};
	sram_machine *m = sram_new(&g);
	if (!m)
		return NULL;
	for (unsigned a = 0; a < m->narrays; a++)
		sram_enable_all(m, a);
	return m;
}

/* Element i is bitline i % B of array i / B; its bit k is at row base+k.
 * (The array's ordinary write port, as harness_put, a word at a time.) */
static void put_rows(sram_machine *m, unsigned base, unsigned width, const uint64_t *v)
{
	for (unsigned arr = 0; arr < m->narrays; arr++)
		for (unsigned k = 0; k < width; k++) {
			uint64_t *row = sram_row(m, arr, base + k);
			for (unsigned w = 0; w < m->wpa; w++) {
				const uint64_t *e = v + (size_t)arr * BITLINES + 64 * w;
				uint64_t word = 0;
				for (unsigned j = 0; j < 64; j++)
					word |= ((e[j] >> k) & 1) << j;
				row[w] = word;
			}
		}
}

static void get_rows(sram_machine *m, unsigned base, unsigned width, uint64_t *v)
{
	const size_t n = (size_t)m->narrays * BITLINES;
	memset(v, 0, n * sizeof *v);
	for (unsigned arr = 0; arr < m->narrays; arr++)
		for (unsigned k = 0; k < width; k++) {
			const uint64_t *row = sram_row(m, arr, base + k);
			for (unsigned w = 0; w < m->wpa; w++) {
				uint64_t *e = v + (size_t)arr * BITLINES + 64 * w;
				for (unsigned j = 0; j < 64; j++)
					e[j] |= ((row[w] >> j) & 1) << k;
			}
		}
}

/* The controller of the optimised latency: run what is emitted, then
 * answer with the wired-OR of T over the machine (isa.h, isa_ctl). */
static bool long_any(isa_ctl *ctl, isa_prog *p)
{
	sram_machine *m = ctl->ctx;
	if (p->n > ctl->done)
		sram_run(m, NULL, p->u + ctl->done, p->n - ctl->done);
	ctl->done = p->n;
	return sram_any_tag_ways(m, 0, m->nways, NULL);
}

/* Place the operands, clear T, run (the baseline program base, or a
 * data-dependent build when base is NULL), read d.  Returns the cycles,
 * or 0 if the data-dependent build failed. */
static uint64_t sram_results(sram_machine *m, const isa_cmd *c, const isa_prog *base,
			     const uint64_t *a, const uint64_t *b, const uint64_t *c3,
			     uint64_t *out)
{
	const isa_info *in = isa_info_of(c->op);
	put_rows(m, c->a, c->op == ISA_CVT ? c->swidth : c->width, a);
	if (c->b != ISA_NONE)
		put_rows(m, c->b, c->width, b);
	if (in->form == ISA_FORM_DABC)
		put_rows(m, c->c3, c->width, c3);
	for (unsigned arr = 0; arr < m->narrays; arr++)
		memset(sram_latch_words(m, arr, SRAM_TAG), 0, m->wpa * sizeof(uint64_t));
	uint64_t cycles;
	if (base) {
		sram_run(m, NULL, base->u, base->n);
		cycles = base->n;
	} else {
		isa_prog p;
		isa_prog_init(&p);
		isa_ctl ctl = {.any = long_any, .done = 0, .ctx = m};
		if (isa_build_ctl(c, BITLINES, &p, &ctl) != 0) {
			isa_prog_free(&p);
			return 0;
		}
		if (p.n > ctl.done)
			long_any(&ctl, &p);
		cycles = p.n;
		isa_prog_free(&p);
	}
	get_rows(m, c->d, in->form == ISA_FORM_PAB ? 1 : c->width, out);
	return cycles;
}

/* ---- one line of the report ---- */

static const char *job_name(const isa_cmd *c, char *buf, size_t size)
{
	char d[16], s[16];
	isa_type_name(c->fmt, c->width, c->is_signed, d, sizeof d);
	if (c->op == ISA_CVT)
		snprintf(buf, size, "cvt.%s.%s %s", d,
			 isa_type_name(c->sfmt, c->swidth, c->ssigned, s, sizeof s),
			 (c->flags & ISA_FL_IEEE) ? "ieee" : "hardware");
	else
		snprintf(buf, size, "%s.%s %s", isa_info_of(c->op)->name, d,
			 (c->flags & ISA_FL_IEEE) ? "ieee" : "hardware");
	return buf;
}

/* Count the elements where x and y differ (same: how to compare) and
 * print the first few. */
static uint64_t count_bad(const char *what, const isa_cmd *c, tally *t,
			  const uint64_t *a, const uint64_t *b, const uint64_t *c3,
			  const uint64_t *want, const uint64_t *got, size_t n, bool host)
{
	uint64_t bad = 0;
	const uint64_t m = isa_mask(isa_info_of(c->op)->form == ISA_FORM_PAB ? 1 : c->width);
	for (size_t i = 0; i < n; i++) {
		const bool same = host ? ref_host_same(c, want[i], got[i])
				       : (want[i] & m) == (got[i] & m);
		if (same)
			continue;
		bad++;
		if (t->reported++ < REPORT_MAX) {
			char name[64];
			printf("  MISMATCH %s %s: a=%#" PRIx64 " b=%#" PRIx64 " c=%#" PRIx64
			       ": %s %#" PRIx64 ", %s %#" PRIx64 "\n", what,
			       job_name(c, name, sizeof name), a[i], b[i], c3[i],
			       host ? "fpref" : "reference", want[i],
			       host ? "host" : "sram", got[i]);
		}
	}
	return bad;
}

typedef struct buffers { uint64_t *a, *b, *c3, *tmp, *host, *ref, *got; } buffers;

static void run_batch(const options *o, const isa_cmd *c, sram_machine *m,
		      const isa_prog *base, buffers *v, size_t n, tally *t)
{
	ref_results(c, v->a, v->b, v->c3, v->ref, n);
	host_results(c, v->a, v->b, v->c3, v->host, n);
	t->ref_bad += count_bad("fpref vs host", c, t, v->a, v->b, v->c3, v->ref,
				v->host, n, true);
	t->pairs += n;
	if (!m || t->skipped)
		return;
	if (o->run_base) {
		t->base_cycles += sram_results(m, c, base, v->a, v->b, v->c3, v->got);
		t->base_bad += count_bad("sram baseline", c, t, v->a, v->b, v->c3,
					 v->ref, v->got, n, false);
	}
	if (o->run_opt) {
		t->opt_cycles += sram_results(m, c, NULL, v->a, v->b, v->c3, v->got);
		t->opt_bad += count_bad("sram optimised", c, t, v->a, v->b, v->c3,
					v->ref, v->got, n, false);
	}
	t->batches++;
}

static void print_tally(const options *o, const isa_cmd *c, const tally *t,
			double secs, const char *refused)
{
	char name[64];
	printf("%-24s %10" PRIu64 " pairs; fpref vs host: %" PRIu64 " mismatches; ",
	       job_name(c, name, sizeof name), t->pairs, t->ref_bad);
	if (o->ref_only)
		printf("sram: not run (--ref-only)");
	else if (refused)
		printf("sram: skipped: %s", refused);
	else if (t->skipped)
		printf("sram: skipped: no micro-program");
	else {
		if (o->run_base)
			printf("sram baseline: %" PRIu64 " mismatches (%" PRIu64 " cycles)",
			       t->base_bad, t->batches ? t->base_cycles / t->batches : 0);
		if (o->run_base && o->run_opt)
			printf("; ");
		if (o->run_opt)
			printf("sram optimised: %" PRIu64 " mismatches (%.1f cycles on average)",
			       t->opt_bad, t->batches ? (double)t->opt_cycles / (double)t->batches : 0.0);
	}
	printf(" [%.1f s]\n", secs);
	fflush(stdout);
}

/* Run one command in one format and mode; false if anything disagreed
 * (or, with --require-all, if it has no micro-program). */
static bool run_job(const options *o, isa_cmd c, sram_machine *m, buffers *v)
{
	const size_t n = m ? (size_t)m->narrays * BITLINES : 16384;
	tally t = {0};
	isa_prog base;
	isa_prog_init(&base);
	const char *refused = m ? isa_check(&c, WORDLINES, BITLINES, NULL) : NULL;
	if (m && !refused && isa_build(&c, BITLINES, &base) != 0)
		t.skipped = true;
	if (refused)
		t.skipped = true;
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (uint64_t k = 0; t.pairs < o->count; k++) {
		make_operands(&c, o->seed * UINT64_C(0x100000001b3) + k * 977 + c.op * 131 +
				  c.fmt * 7 + c.flags, v->a, v->b, v->c3, v->tmp, n);
		run_batch(o, &c, m, &base, v, n, &t);
	}
	isa_prog_free(&base);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	print_tally(o, &c, &t, (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec),
		    refused);
	if (t.ref_bad || t.base_bad || t.opt_bad)
		return false;
	return !(o->require_all && !o->ref_only && t.skipped);
}

/* ---- the command line ---- */

static isa_cmd job_cmd(unsigned op, unsigned fmt, unsigned width, bool sgn,
		       unsigned flags)
{
	const isa_info *in = isa_info_of(op);
	isa_cmd c;
	memset(&c, 0, sizeof c);
	c.op = (uint16_t)op;
	c.fmt = (uint8_t)fmt;
	c.width = (uint8_t)width;
	c.is_signed = sgn;
	c.flags = (uint8_t)flags;
	c.iters = ISA_CORDIC_DEFAULT;
	c.a = ROW_A;
	c.b = in->form == ISA_FORM_DA ? ISA_NONE : ROW_B;
	c.c3 = in->form == ISA_FORM_DABC ? ROW_C : ISA_NONE;
	c.d = ROW_D;
	c.d2 = ISA_NONE;
	c.scratch = ROW_SCRATCH;
	c.scratch_rows = WORDLINES - ROW_SCRATCH;
	return c;
}

typedef struct joblist { isa_cmd *v; size_t n, cap; } joblist;

static void job_add(joblist *j, isa_cmd c)
{
	if (j->n == j->cap) {
		j->cap = j->cap ? 2 * j->cap : 64;
		j->v = realloc(j->v, j->cap * sizeof *j->v);
		if (!j->v) {
			perror("fp_long");
			exit(2);
		}
	}
	j->v[j->n++] = c;
}

static bool parse_type(const char *text, size_t len, unsigned *fmt, unsigned *w,
		       unsigned *sgn)
{
	return len > 0 && isa_type_parse(text, len, fmt, w, sgn) == 0;
}

/* cvt.DST.SRC: one job per mode. */
static bool parse_cvt(const options *o, const char *text, joblist *j)
{
	const char *d = text + 4, *dot = strchr(d, '.');
	unsigned df, dw, ds, sf, sw, ss;
	if (!dot || !parse_type(d, (size_t)(dot - d), &df, &dw, &ds) ||
	    !parse_type(dot + 1, strlen(dot + 1), &sf, &sw, &ss)) {
		fprintf(stderr, "fp_long: command '%s': expected cvt.DST.SRC with two types "
			"(i32, u8, q32, f32, f16, bf16, ...)\n", text);
		return false;
	}
	for (unsigned mi = 0; mi < 2; mi++) {
		if (!o->mode_on[mi])
			continue;
		isa_cmd c = job_cmd(ISA_CVT, df, dw, ds, mi ? ISA_FL_IEEE : 0);
		c.sfmt = (uint8_t)sf;
		c.swidth = (uint8_t)sw;
		c.ssigned = (uint8_t)ss;
		job_add(j, c);
	}
	return true;
}

/* MNEMONIC or MNEMONIC.FORMAT: one job per format and mode. */
static bool parse_command(const options *o, const char *text, joblist *j)
{
	if (strncmp(text, "cvt.", 4) == 0)
		return parse_cvt(o, text, j);
	const char *dot = strchr(text, '.');
	const size_t mlen = dot ? (size_t)(dot - text) : strlen(text);
	char mn[32];
	unsigned only = ISA_FMT_COUNT, w, s;
	if (mlen == 0 || mlen >= sizeof mn ||
	    (dot && (!parse_type(dot + 1, strlen(dot + 1), &only, &w, &s) || !is_float(only)))) {
		fprintf(stderr, "fp_long: command '%s': expected an fp mnemonic, maybe with "
			"a float format (add, add.f16, rsqrt.bf16), or cvt.DST.SRC\n", text);
		return false;
	}
	memcpy(mn, text, mlen);
	mn[mlen] = '\0';
	for (unsigned f = 0; f < ISA_FMT_COUNT; f++) {
		if (!is_float(f) || (only == ISA_FMT_COUNT ? !o->fmt_on[f] : f != only))
			continue;
		const int op = isa_lookup_fmt(mn, f);
		if (op < 0 || isa_class_of((unsigned)op) != ISA_CLASS_F) {
			fprintf(stderr, "fp_long: command '%s': no floating-point command '%s'"
				" (see infsim --list-commands)\n", text, mn);
			return false;
		}
		for (unsigned mi = 0; mi < 2; mi++)
			if (o->mode_on[mi])
				job_add(j, job_cmd((unsigned)op, f, isa_fpfmt_of(f)->width, 1,
						   mi ? ISA_FL_IEEE : 0));
	}
	return true;
}

static bool parse_u64(const char *opt, const char *text, uint64_t *v)
{
	char *end;
	if (!text || !*text || *text == '-' || (*v = strtoull(text, &end, 0), *end) || *v == 0) {
		fprintf(stderr, "fp_long: %s: expected a positive integer, got '%s'\n", opt,
			text ? text : "");
		return false;
	}
	return true;
}

/* A comma list of words into on[], each word one of names[0..n). */
static bool parse_list(const char *opt, const char *text, const char *const *names,
		       const unsigned *index, size_t n, bool *on, size_t on_size)
{
	memset(on, 0, on_size);
	for (const char *p = text ? text : ""; *p;) {
		const size_t len = strcspn(p, ",");
		size_t k = 0;
		while (k < n && !(strlen(names[k]) == len && strncmp(names[k], p, len) == 0))
			k++;
		if (k == n) {
			fprintf(stderr, "fp_long: %s: unknown '%.*s' (expected a comma list of",
				opt, (int)len, p);
			for (k = 0; k < n; k++)
				fprintf(stderr, " %s", names[k]);
			fprintf(stderr, ")\n");
			return false;
		}
		on[index[k]] = true;
		p += len + (p[len] == ',');
	}
	return true;
}

static const char *opt_arg(int argc, char **argv, int *i)
{
	return *i + 1 < argc ? argv[++*i] : NULL;
}

static bool parse_latency(const char *text, options *o)
{
	o->run_base = text && (!strcmp(text, "baseline") || !strcmp(text, "both"));
	o->run_opt = text && (!strcmp(text, "optimised") || !strcmp(text, "both"));
	if (!o->run_base && !o->run_opt)
		fprintf(stderr, "fp_long: --latency: expected baseline, optimised or both, got '%s'\n",
			text ? text : "");
	return o->run_base || o->run_opt;
}

/* Options into o, and the other arguments (the commands) into cmds;
 * returns how many commands, or -1. */
static int parse_options(int argc, char **argv, options *o, const char **cmds)
{
	static const char *const fmt_names[] = {"f32", "f16", "bf16"};
	static const unsigned fmt_index[] = {ISA_FMT_F32, ISA_FMT_F16, ISA_FMT_BF16};
	static const char *const mode_names[] = {"hardware", "ieee"};
	static const unsigned mode_index[] = {0, 1};
	int ncmd = 0;
	for (int i = 1; i < argc; i++) {
		const char *opt = argv[i];
		if (opt[0] != '-') {
			cmds[ncmd++] = opt;
			continue;
		}
		uint64_t v = 0;
		bool ok = true;
		if (!strcmp(opt, "--count"))
			ok = parse_u64(opt, opt_arg(argc, argv, &i), &o->count);
		else if (!strcmp(opt, "--seed"))
			ok = parse_u64(opt, opt_arg(argc, argv, &i), &o->seed);
		else if (!strcmp(opt, "--arrays")) {
			ok = parse_u64(opt, opt_arg(argc, argv, &i), &v) &&
			     (v <= 8 || v % 8 == 0) && v <= 256;
			if (!ok)
				fprintf(stderr, "fp_long: --arrays: expected 1..8 or a multiple of 8 up to 256\n");
			o->arrays = (unsigned)v;
		} else if (!strcmp(opt, "--formats"))
			ok = parse_list(opt, opt_arg(argc, argv, &i), fmt_names, fmt_index, 3,
					o->fmt_on, sizeof o->fmt_on);
		else if (!strcmp(opt, "--modes"))
			ok = parse_list(opt, opt_arg(argc, argv, &i), mode_names, mode_index, 2,
					o->mode_on, sizeof o->mode_on);
		else if (!strcmp(opt, "--latency"))
			ok = parse_latency(opt_arg(argc, argv, &i), o);
		else if (!strcmp(opt, "--ref-only"))
			o->ref_only = true;
		else if (!strcmp(opt, "--require-all"))
			o->require_all = true;
		else if (!strcmp(opt, "--help") || !strcmp(opt, "-h")) {
			usage(stdout);
			exit(0);
		} else {
			fprintf(stderr, "fp_long: unknown option '%s'\n", opt);
			usage(stderr);
			ok = false;
		}
		if (!ok)
			return -1;
	}
	return ncmd;
}

int main(int argc, char **argv)
{
	options o = {.count = 10000000, .seed = 1, .arrays = 16,
		     .fmt_on = {[ISA_FMT_F32] = true, [ISA_FMT_F16] = true, [ISA_FMT_BF16] = true},
		     .mode_on = {true, true}, .run_base = true, .run_opt = true};
	const char **cmds = calloc((size_t)argc + 1, sizeof *cmds);
	const int ncmd = cmds ? parse_options(argc, argv, &o, cmds) : -1;
	if (ncmd < 0)
		return 2;
	joblist jobs = {0};
	const size_t ndef = sizeof default_commands / sizeof default_commands[0];
	for (size_t k = 0; k < (ncmd ? (size_t)ncmd : ndef); k++)
		if (!parse_command(&o, ncmd ? cmds[k] : default_commands[k], &jobs))
			return 2;
	free(cmds);
	sram_machine *m = o.ref_only ? NULL : machine_new(o.arrays);
	if (!o.ref_only && !m) {
		fprintf(stderr, "fp_long: cannot allocate a %u x %u x %u machine\n",
			WORDLINES, BITLINES, o.arrays);
		return 2;
	}
	const size_t n = m ? (size_t)m->narrays * BITLINES : 16384;
	buffers v = {calloc(n, 8), calloc(n, 8), calloc(n, 8), calloc(n, 8),
		     calloc(n, 8), calloc(n, 8), calloc(n, 8)};
	printf("fp_long: %zu lines, >= %" PRIu64 " pairs each, machine %u wordlines x %u "
	       "bitlines x %u arrays (%zu elements a batch); f16 host oracle: %s\n",
	       jobs.n, o.count, WORDLINES, BITLINES, m ? m->narrays : 0, n, fp_host_f16_path());
	unsigned failed = 0;
	for (size_t k = 0; k < jobs.n; k++)
		failed += !run_job(&o, jobs.v[k], m, &v);
	printf("fp_long: %zu lines, %u failed\n", jobs.n, failed);
	free(v.a), free(v.b), free(v.c3), free(v.tmp), free(v.host), free(v.ref), free(v.got);
	free(jobs.v);
	sram_free(m);
	return failed ? 1 : 0;
}
