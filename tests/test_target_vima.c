/* SPDX-License-Identifier: MIT */
/*
 * test_target_vima.c: VIMA as a target (emu/vima/target.c), through
 * tgt_ops only (found by tgt_find on a sample's path):
 *   samples    every samples/vima/ program opens, runs and passes --check;
 *              every instruction and type, host stores and special
 *              values pass --check;
 *   stats      the tree's numbers are the old report's (vima_stats_json);
 *   steps      a run by steps is a run (arrays, statistics, count, where,
 *              ended only after the final write-back);
 *   snap       save, run, restore, run: the same arrays and statistics;
 *   check      a changed element is found, named, and so is its writer;
 *   fault      fault-at stops the run with TGT_FAULT, checked;
 *   errors     settings, options, -D, the program, breakpoints;
 *   debug      breakpoints, lookup and read, info and view cache.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proc.h"
#include "target.h"
#include "vima.h"

#define SAMPLES SRCDIR "/samples/vima"

typedef struct prog {
	const tgt_ops *ops;
	tgt *t;
	char *text;
	size_t len;
	char path[512];
	diag d;
	tgt_status st;
} prog;

typedef struct opts {
	const tgt_def *defs;
	size_t ndefs;
	const tgt_setting *set;
	size_t nset;
	const tgt_optval *opt;
	size_t nopt;
	bool check;
} opts;

/* Open path's text (or text, named path) with o; *st and d kept. */
static void prog_open(prog *p, const char *path, const char *text, const opts *o)
{
	memset(p, 0, sizeof *p);
	snprintf(p->path, sizeof p->path, "%s", path);
	p->text = text ? strdup(text) : proc_slurp(path, &p->len);
	cr_assert_not_null(p->text, "cannot read %s", path);
	if (text)
		p->len = strlen(text);
	p->ops = tgt_find(path, p->text, p->len);
	cr_assert_not_null(p->ops, "no target claims %s", path);
	cr_assert_str_eq(p->ops->name, "vima");
	tgt_load a = { .path = p->path, .text = p->text, .len = p->len };
	if (o) {
		a.defs = o->defs, a.ndefs = o->ndefs, a.settings = o->set, a.nsettings = o->nset;
		a.opts = o->opt, a.nopts = o->nopt, a.check = o->check;
	}
	a.stepping = true;
	diag_clear(&p->d);
	p->t = p->ops->open(&a, &p->st, &p->d);
}

static void prog_ok(prog *p, const char *path, const char *text, const opts *o)
{
	prog_open(p, path, text, o);
	cr_assert_not_null(p->t, "%s: %s", path, p->d.msg);
	cr_assert_eq(p->st, TGT_OK);
}

static void prog_close(prog *p)
{
	if (p->t)
		p->ops->close(p->t);
	free(p->text);
	memset(p, 0, sizeof *p);
}

static tgt_status prog_run(prog *p)
{
	diag_clear(&p->d);
	return p->ops->run(p->t, &p->d);
}

/* The whole of array name. */
static uint64_t *get_array(prog *p, const char *name, uint64_t *len)
{
	const long i = tgt_array_find(p->ops, p->t, name);
	cr_assert_geq(i, 0, "no array %s", name);
	tgt_array a;
	p->ops->array(p->t, (size_t)i, &a);
	uint64_t *bits = calloc(a.length, sizeof *bits);
	p->ops->array_get(p->t, (size_t)i, 0, a.length, bits);
	*len = a.length;
	return bits;
}

/* Every array's bits and the statistics as JSON, one string. */
static char *state_text(prog *p)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	for (size_t i = 0; i < p->ops->narrays(p->t); i++) {
		tgt_array a;
		p->ops->array(p->t, i, &a);
		uint64_t n;
		uint64_t *bits = get_array(p, a.name, &n);
		fprintf(f, "%s:", a.name);
		for (uint64_t k = 0; k < n; k++)
			fprintf(f, " %" PRIx64, bits[k]);
		fputc('\n', f);
		free(bits);
	}
	tgt_stat *root = tgt_stat_new();
	p->ops->stats(p->t, root);
	cr_assert_eq(tgt_stat_json(root, f), 0);
	tgt_stat_free(root);
	fclose(f);
	return buf;
}

static double stat_of(prog *p, const char *path)
{
	tgt_stat *root = tgt_stat_new();
	p->ops->stats(p->t, root);
	const double v = tgt_stat_number(tgt_stat_get(root, path));
	tgt_stat_free(root);
	cr_assert(!isnan(v), "no statistic %s", path);
	return v;
}

/* ---- samples: every program passes --check ---- */

typedef struct sample {
	const char *name, *vector;
	tgt_def defs[3];
	size_t ndefs;
} sample;

/* Small sizes of each sample (the paper's are for the benchmarks). */
static const sample samples[] = {
	{ "memset", "256", { { "N", 4096 } }, 1 },
	{ "memset", "8192", { { "N", 8192 } }, 1 },
	{ "memcopy", "256", { { "N", 4096 } }, 1 },
	{ "memcopy", "8192", { { "N", 8192 } }, 1 },
	{ "vecsum", "256", { { "N", 8192 } }, 1 },
	{ "vecsum", "8192", { { "N", 8192 } }, 1 },
	{ "stencil", "256", { { "W", 128 }, { "H", 12 } }, 2 },
	{ "stencil", "8192", { { "W", 2048 }, { "H", 6 } }, 2 },
	{ "matmul", "256", { { "n", 64 } }, 1 },
	{ "knn", "256", { { "N", 1024 }, { "F", 8 }, { "T", 6 } }, 3 },
	{ "mlp", "256", { { "N", 512 }, { "F", 12 }, { "O", 3 } }, 3 },
	{ "mlp", "8192", { { "N", 4096 }, { "F", 4 }, { "O", 2 } }, 3 },
};
#define NSAMPLES (sizeof samples / sizeof samples[0])

static void sample_open(prog *p, const sample *s, bool check, const char *lines)
{
	char path[512];
	snprintf(path, sizeof path, SAMPLES "/%s.vima", s->name);
	const tgt_setting set[] = { { "vector", s->vector, NULL, 0, 0 }, { "lines", lines, NULL, 0, 0 } };
	const opts o = { s->defs, s->ndefs, set, lines ? 2 : 1, NULL, 0, check };
	prog_ok(p, path, NULL, &o);
}

static const sample *sample_named(const char *name)
{
	for (size_t i = 0; i < NSAMPLES; i++)
		if (!strcmp(samples[i].name, name))
			return &samples[i];
	cr_assert_fail("no sample %s in the table", name);
	return NULL;
}

Test(samples, every_one_passes_check, .timeout = 600)
{
	DIR *dir = opendir(SAMPLES);
	cr_assert_not_null(dir);
	struct dirent *e;
	int seen = 0;
	while ((e = readdir(dir))) {
		const size_t n = strlen(e->d_name);
		if (n < 6 || strcmp(e->d_name + n - 5, ".vima"))
			continue;
		char name[64];
		snprintf(name, sizeof name, "%.*s", (int)(n - 5), e->d_name);
		bool sized = false;
		for (size_t i = 0; i < NSAMPLES; i++) {
			if (strcmp(samples[i].name, name))
				continue;
			sized = true;
			prog p;
			sample_open(&p, &samples[i], true, NULL);
			const tgt_status st = prog_run(&p);
			cr_assert_eq(st, TGT_OK, "%s (vector %s): %s\n%s", name, samples[i].vector,
				     p.d.msg, p.ops->report(p.t) ? p.ops->report(p.t) : "");
			cr_assert(p.ops->ended(p.t));
			cr_assert_gt(stat_of(&p, "totals.instructions"), 0);
			prog_close(&p);
		}
		cr_assert(sized, "samples/vima/%s has no small size in this test's table", e->d_name);
		seen++;
	}
	closedir(dir);
	cr_assert_geq(seen, 7);
}

Test(samples, results_are_the_kernels)
{
	prog p;
	sample_open(&p, sample_named("memset"), true, NULL);
	cr_assert_eq(prog_run(&p), TGT_OK, "%s", p.d.msg);
	uint64_t n, *a = get_array(&p, "A", &n);
	cr_assert_eq(n, 4096);
	for (uint64_t k = 0; k < n; k++)
		cr_assert_eq(a[k], 7, "A[%" PRIu64 "] = %" PRIu64, k, a[k]);
	free(a);
	tgt_array info;
	p.ops->array(p.t, 0, &info);
	cr_assert_eq(info.type.kind, TGT_INT);
	cr_assert_eq(info.type.width, 32);
	cr_assert(info.type.is_signed);
	cr_assert_eq(info.ndim, 1);
	cr_assert_eq(info.shape[0], 4096);
	prog_close(&p);
}

/* Every instruction on every type it takes, unaligned sources, mov of a
 * value and of an element, mad, host stores of special values first. */
static char *all_ops_program(void)
{
	static const char *const ty[] = { "i32", "u32", "i64", "u64", "f32", "f64" };
	static const char *const special[6][4] = {
		{ "-2147483648", "-1", "0", "7" }, { "4294967295", "0", "31", "33" },
		{ "-9223372036854775808", "-1", "0", "65" }, { "0xffffffffffffffff", "0", "1", "64" },
		{ "nan", "inf", "-0", "1e-45" }, { "-nan", "-inf", "-0", "4.9e-324" },
	};
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	fprintf(f, "vima vector=256 lines=4\n");
	for (int t = 0; t < 6; t++) {
		fprintf(f, "array A%s %s 128 init=random:%d\narray B%s %s 128 init=random:%d\n", ty[t],
			ty[t], t + 1, ty[t], ty[t], t + 11);
		fprintf(f, "array D%s %s VBYTES*4\narray S%s %s 1 init=iota\n", ty[t], ty[t], ty[t], ty[t]);
	}
	for (int t = 0; t < 6; t++)
		for (int k = 0; k < 4; k++)
			fprintf(f, "host A%s[%d] = %s\nhost B%s[%d] = %s\n", ty[t], k * 3, special[t][k],
				ty[t], k * 3 + 1, special[t][3 - k]);
	for (int t = 0; t < 6; t++) {
		const int per = 256 / (t == 0 || t == 1 || t == 4 ? 4 : 8);
		for (int op = 0, k = 0; op < VIMA_NOPS; op++) {
			const vima_op_info *in = vima_op_info_of((vima_op)op);
			if (!(in->types & (1u << t)))
				continue;
			const char *s = ty[t];
			const int d = (k++ % 8) * per;
			if (in->form == VIMA_FORM_VV)
				fprintf(f, "%s.%s D%s[%d], A%s[1], B%s[%d]\n", in->name, s, s, d, s, s, k % 3);
			else if (in->form == VIMA_FORM_V)
				fprintf(f, "%s.%s D%s[%d], A%s[%d]\n", in->name, s, s, d, s, k % 5);
			else if (in->form == VIMA_FORM_R)
				fprintf(f, "mad.%s S%s, A%s[2], B%s[0]\n", s, s, s, s);
			else
				fprintf(f, "mov.%s D%s[%d], A%s[3]\nmov.%s D%s[0], 3\n", s, s, d, s, s, s);
		}
		fprintf(f, "host A%s[5] = D%s[1]\nadd.%s D%s[%d], D%s[0], A%s[5]\n", ty[t], ty[t], ty[t],
			ty[t], per, ty[t], ty[t]);
	}
	fclose(f);
	return buf;
}

Test(samples, every_instruction_and_type_passes_check)
{
	char *text = all_ops_program();
	const opts o = { .check = true };
	prog p;
	prog_ok(&p, "all.vima", text, &o);
	const tgt_status st = prog_run(&p);
	cr_assert_eq(st, TGT_OK, "%s\n%s", p.d.msg, p.ops->report(p.t) ? p.ops->report(p.t) : "");
	cr_assert_gt(stat_of(&p, "totals.host_stores"), 40);
	cr_assert_gt(stat_of(&p, "vector_cache.invalidations"), 0);
	prog_close(&p);
	free(text);
}

/* ---- stats: the old report's numbers ---- */

/* The number after "KEY": in json (the first one). */
static double json_num(const char *json, const char *key)
{
	char k[80];
	snprintf(k, sizeof k, "\"%s\": ", key);
	const char *at = strstr(json, k);
	cr_assert_not_null(at, "no %s in the old report", key);
	return strtod(at + strlen(k), NULL);
}

/* The old path: parse, run, flush and vima_stats_json.  Not inlined:
 * GCC 12 then takes the report for the local pointer open_memstream
 * fills, and warns of a dangling pointer where there is none. */
__attribute__((noinline)) static char *old_report(const sample *s, unsigned lines)
{
	char path[512];
	snprintf(path, sizeof path, SAMPLES "/%s.vima", s->name);
	vima_define defs[3];
	for (size_t i = 0; i < s->ndefs; i++)
		defs[i] = (vima_define){ s->defs[i].name, s->defs[i].value, false };
	vima_parse_opts po = { defs, s->ndefs, (unsigned)atoi(s->vector), lines };
	vima_program vp;
	vima_unit u;
	diag d;
	cr_assert_eq(vima_load(path, &po, &vp, &d), 0, "%s", d.msg);
	cr_assert_eq(vima_unit_init(&u, &vp, NULL, 0, &d), 0, "%s", d.msg);
	cr_assert_eq(vima_run(&u, &d), VIMA_STEP_END, "%s", d.msg);
	vima_flush(&u);
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	vima_stats_json(f, &u);
	fclose(f);
	vima_unit_free(&u);
	vima_program_free(&vp);
	return buf;
}

static const struct { const char *tree, *json; } same_numbers[] = {
	{ "machine.vector", "vector_bytes" }, { "machine.lines", "lines" },
	{ "totals.cycles", "cycles" }, { "totals.instructions", "instructions" },
	{ "totals.host_stores", "host_stores" }, { "by_op.add", "add" }, { "by_op.mul", "mul" },
	{ "vector_cache.read_hits", "read_hits" }, { "vector_cache.read_misses", "read_misses" },
	{ "vector_cache.write_hits", "write_hits" }, { "vector_cache.write_misses", "write_misses" },
	{ "vector_cache.writebacks", "writebacks" },
	{ "vector_cache.writebacks_eviction", "writebacks_eviction" },
	{ "vector_cache.writebacks_host_write", "writebacks_host_write" },
	{ "vector_cache.writebacks_flush", "writebacks_flush" },
	{ "vector_cache.invalidations", "invalidations" },
	{ "vector_cache.cache_accesses", "cache_accesses" },
	{ "host.host_lines_written_back", "host_lines_written_back" },
	{ "host.host_loads_vcache", "host_loads_vcache" }, { "host.host_dram_bytes", "host_dram_bytes" },
	{ "dram.subrequests_read", "subrequests_read" },
	{ "dram.subrequests_write", "subrequests_write" },
	{ "dram.dram_read_bytes", "dram_read_bytes" }, { "dram.dram_write_bytes", "dram_write_bytes" },
	{ "cycles_by_part.tag", "tag" }, { "cycles_by_part.dram", "dram" },
	{ "cycles_by_part.transfer", "transfer" }, { "cycles_by_part.fu", "fu" },
	{ "cycles_by_part.stop_and_go", "stop_and_go" },
	{ "energy_pj.total", "total" }, { "energy_pj.static", "static" },
};

Test(stats, tree_numbers_are_the_old_reports)
{
	const sample *s = sample_named("stencil");
	char *json = old_report(s, 5);
	prog p;
	sample_open(&p, s, false, "5");
	cr_assert_eq(prog_run(&p), TGT_OK, "%s", p.d.msg);
	for (size_t i = 0; i < sizeof same_numbers / sizeof same_numbers[0]; i++) {
		const double want = json_num(json, same_numbers[i].json);
		const double got = stat_of(&p, same_numbers[i].tree);
		/* the old JSON prints energy with one decimal */
		cr_assert(fabs(got - want) <= (strstr(same_numbers[i].tree, "energy") ? 0.051 : 0),
			  "%s: %f, the old report says %f", same_numbers[i].tree, got, want);
	}
	cr_assert_gt(stat_of(&p, "vector_cache.writebacks_eviction"), 0);
	/* subrequests[vault][bank] as the rows of dram.vaults */
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	tgt_stat *root = tgt_stat_new();
	p.ops->stats(p.t, root);
	tgt_stat_json(root, f);
	tgt_stat_free(root);
	fclose(f);
	const char *old = strstr(json, "\"subrequests\": [");
	cr_assert_not_null(old);
	old += strlen("\"subrequests\": [");
	const char *row = buf;
	for (unsigned v = 0; v < VIMA_VAULTS; v++) {
		char key[32];
		snprintf(key, sizeof key, "\"vault\": %u,", v);
		row = strstr(row, key);
		cr_assert_not_null(row, "no row of vault %u", v);
		old = strchr(old, '[') + 1;
		for (unsigned b = 0; b < VIMA_BANKS; b++) {
			snprintf(key, sizeof key, "\"bank_%u\": ", b);
			const char *at = strstr(row, key);
			char *end;
			const unsigned long want = strtoul(old, &end, 10);
			old = end + (*end == ',');
			cr_assert_eq(strtoul(at + strlen(key), NULL, 10), want, "vault %u bank %u", v, b);
		}
	}
	free(buf);
	free(json);
	prog_close(&p);
}

/* ---- steps: a run by steps is a run ---- */

static void steps_equal_run(const sample *s)
{
	prog a, b;
	sample_open(&a, s, true, NULL);
	sample_open(&b, s, true, NULL);
	cr_assert_eq(prog_run(&a), TGT_OK, "%s", a.d.msg);
	const double cycles = stat_of(&a, "totals.cycles");
	uint64_t n = 0;
	tgt_loc loc;
	while (!b.ops->ended(b.t)) {
		cr_assert(b.ops->where(b.t, 0, &loc));
		cr_assert_eq(loc.index, n);
		cr_assert_eq(b.ops->count(b.t, 0), n);
		cr_assert_str_eq(loc.file, b.path);
		cr_assert_gt(loc.line, 0);
		/* the known bug: the end came before the final write-back */
		cr_assert(stat_of(&b, "totals.cycles") < cycles);
		diag_clear(&b.d);
		cr_assert_eq(b.ops->step(b.t, 0, &b.d), TGT_OK, "%s", b.d.msg);
		n++;
	}
	cr_assert_not(b.ops->where(b.t, 0, &loc));
	cr_assert_eq(b.ops->count(b.t, 0), stat_of(&a, "totals.instructions") +
					       stat_of(&a, "totals.host_stores"));
	cr_assert_eq(stat_of(&b, "totals.cycles"), cycles);
	diag_clear(&b.d);
	cr_assert_eq(b.ops->check(b.t, &b.d), TGT_OK, "%s", b.d.msg);
	char *sa = state_text(&a), *sb = state_text(&b);
	cr_assert_str_eq(sa, sb);
	diag_clear(&b.d);
	cr_assert_eq(b.ops->step(b.t, 0, &b.d), TGT_FAILED);
	cr_assert(strstr(b.d.msg, "the program has ended"), "%s", b.d.msg);
	cr_assert_eq(prog_run(&b), TGT_OK);
	free(sa);
	free(sb);
	prog_close(&a);
	prog_close(&b);
}

Test(steps, equal_run)
{
	steps_equal_run(sample_named("vecsum"));
	steps_equal_run(sample_named("stencil"));
	steps_equal_run(sample_named("matmul"));
}

Test(steps, where_says_what_runs)
{
	prog p;
	sample_open(&p, sample_named("vecsum"), false, NULL);
	tgt_loc loc;
	diag_clear(&p.d);
	cr_assert_eq(p.ops->step(p.t, 0, &p.d), TGT_OK);
	cr_assert(p.ops->where(p.t, 0, &loc));
	cr_assert_eq(loc.line, 8);
	cr_assert_eq(loc.col, 3);
	cr_assert_eq(loc.index, 1);
	cr_assert_str_eq(loc.what, "add.f32 C[64], A[64], B[64]");
	cr_assert_str_eq(p.ops->source(p.t), p.path);
	cr_assert_eq(p.ops->nunits, 1);
	cr_assert_str_eq(p.ops->units[0].name, "instruction");
	cr_assert_eq(p.ops->step(p.t, 1, &p.d), TGT_USAGE);
	prog_close(&p);
}

/* A program with no unit at all ends at once, after its write-back. */
Test(steps, no_unit)
{
	prog p;
	prog_ok(&p, "empty.vima", "array A i32 64 init=iota\nfor i = 0, 10\nend\n",
		&(opts){ .check = true });
	cr_assert(p.ops->ended(p.t));
	tgt_loc loc;
	cr_assert_not(p.ops->where(p.t, 0, &loc));
	cr_assert_eq(prog_run(&p), TGT_OK, "%s", p.d.msg);
	uint64_t n, *a = get_array(&p, "A", &n);
	cr_assert_eq(a[63], 63);
	free(a);
	prog_close(&p);
}

/* ---- snap: save, run, restore, run ---- */

Test(snap, restore_runs_on_the_same)
{
	prog p;
	sample_open(&p, sample_named("stencil"), true, "4");
	for (int k = 0; k < 37; k++)
		cr_assert_eq(p.ops->step(p.t, 0, &p.d), TGT_OK, "%s", p.d.msg);
	char *mid = state_text(&p);
	tgt_snap *s = p.ops->save(p.t, &p.d);
	cr_assert_not_null(s, "%s", p.d.msg);
	cr_assert_gt(p.ops->snap_bytes(s), 2 * 128 * 12 * 4);
	cr_assert_eq(prog_run(&p), TGT_OK, "%s", p.d.msg);
	char *end1 = state_text(&p);
	cr_assert_eq(p.ops->restore(p.t, s, &p.d), TGT_OK, "%s", p.d.msg);
	cr_assert_not(p.ops->ended(p.t));
	cr_assert_eq(p.ops->count(p.t, 0), 37);
	char *mid2 = state_text(&p);
	cr_assert_str_eq(mid, mid2);
	cr_assert_eq(prog_run(&p), TGT_OK, "%s", p.d.msg);
	char *end2 = state_text(&p);
	cr_assert_str_eq(end1, end2);
	/* and by steps from the snapshot */
	cr_assert_eq(p.ops->restore(p.t, s, &p.d), TGT_OK);
	while (!p.ops->ended(p.t))
		cr_assert_eq(p.ops->step(p.t, 0, &p.d), TGT_OK, "%s", p.d.msg);
	char *end3 = state_text(&p);
	cr_assert_str_eq(end1, end3);
	p.ops->snap_free(s);
	free(mid), free(mid2), free(end1), free(end2), free(end3);
	prog_close(&p);
}

/* ---- check: a wrong element is found, and who wrote it ---- */

Test(check, write_after_a_step_is_caught)
{
	prog p;
	sample_open(&p, sample_named("vecsum"), true, NULL);
	for (int k = 0; k < 3; k++)
		cr_assert_eq(p.ops->step(p.t, 0, &p.d), TGT_OK);
	tgt_sym c;
	cr_assert(p.ops->lookup(p.t, "C", &c));
	cr_assert(c.is_array && c.writable);
	const uint64_t before = p.ops->read(p.t, &c, 70);
	diag_clear(&p.d);
	cr_assert_eq(p.ops->check(p.t, &p.d), TGT_OK, "%s", p.d.msg);
	cr_assert_eq(p.ops->write(p.t, &c, 70, 0x40490fdb, &p.d), TGT_OK); /* 3.14159274 */
	cr_assert_eq(p.ops->read(p.t, &c, 70), 0x40490fdb);
	cr_assert_eq(prog_run(&p), TGT_DIFFERS);
	const char *r = p.ops->report(p.t);
	cr_assert_not_null(r);
	char want[2048], val[64];
	tgt_value_text((tgt_type){ TGT_F32, 32, false, 0 }, before, val, sizeof val);
	snprintf(want, sizeof want, "C[70]: got 3.1415927 (0x40490fdb), expected %s (0x%08" PRIx64
		 ")\n  last written by VIMA instruction 2 (add.f32) at %s:8:3\n  1 element differs "
		 "in all\n", val, before, p.path);
	cr_assert_str_eq(r, want);
	cr_assert(strstr(p.d.msg, "--check: C[70]: got 3.1415927"), "%s", p.d.msg);
	prog_close(&p);
}

Test(check, array_set_mid_run_is_caught)
{
	prog p;
	sample_open(&p, sample_named("vecsum"), true, NULL);
	cr_assert_eq(p.ops->step(p.t, 0, &p.d), TGT_OK);
	const long a = tgt_array_find(p.ops, p.t, "A");
	const uint64_t one = 0x3f800000;
	cr_assert_eq(p.ops->array_set(p.t, (size_t)a, 100, 1, &one, &p.d), TGT_OK);
	cr_assert_eq(prog_run(&p), TGT_DIFFERS);
	const char *r = p.ops->report(p.t);
	cr_assert(!strncmp(r, "A[100]: got 1 (0x3f800000), expected ", 37), "%s", r);
	cr_assert(strstr(r, "no instruction wrote it"), "%s", r);
	cr_assert(strstr(r, "2 elements differ in all"), "%s", r); /* A[100] and C[100] */
	prog_close(&p);
}

/* Before the first unit, array_set is the input: the reference takes it. */
Test(check, array_set_before_the_run_is_input)
{
	prog p;
	sample_open(&p, sample_named("vecsum"), true, NULL);
	const long a = tgt_array_find(p.ops, p.t, "A"), b = tgt_array_find(p.ops, p.t, "B");
	uint64_t *ones = malloc(8192 * sizeof *ones);
	for (int k = 0; k < 8192; k++)
		ones[k] = 0x3f800000;
	cr_assert_eq(p.ops->array_set(p.t, (size_t)a, 0, 8192, ones, &p.d), TGT_OK);
	cr_assert_eq(p.ops->array_set(p.t, (size_t)b, 0, 8192, ones, &p.d), TGT_OK);
	cr_assert_eq(p.ops->array_set(p.t, (size_t)b, 8000, 193, ones, &p.d), TGT_USAGE);
	cr_assert_eq(prog_run(&p), TGT_OK, "%s", p.d.msg);
	uint64_t n, *c = get_array(&p, "C", &n);
	for (uint64_t k = 0; k < n; k++)
		cr_assert_eq(c[k], 0x40000000); /* 2.0 */
	free(c);
	free(ones);
	prog_close(&p);
}

Test(check, host_store_writer_is_named)
{
	prog p;
	prog_ok(&p, "h.vima", "vima vector=256\narray A i64 64\nhost A[5] = 9\nhost A[6] = A[5]\n"
		"mov.i64 A[32], 4\n",
		&(opts){ .check = true });
	cr_assert_eq(p.ops->step(p.t, 0, &p.d), TGT_OK);
	cr_assert_eq(p.ops->step(p.t, 0, &p.d), TGT_OK);
	tgt_sym s;
	cr_assert(p.ops->lookup(p.t, "A", &s));
	cr_assert_eq(p.ops->write(p.t, &s, 6, 1, &p.d), TGT_OK);
	cr_assert_eq(p.ops->write(p.t, &s, 64, 1, &p.d), TGT_USAGE);
	cr_assert_eq(prog_run(&p), TGT_DIFFERS);
	cr_assert_str_eq(p.ops->report(p.t), "A[6]: got 1 (0x0000000000000001), expected 9 "
			 "(0x0000000000000009)\n  last written by host store 2 at h.vima:4:1\n"
			 "  1 element differs in all\n");
	prog_close(&p);
}

Test(check, needs_check)
{
	prog p;
	sample_open(&p, sample_named("vecsum"), false, NULL);
	cr_assert_eq(p.ops->check(p.t, &p.d), TGT_USAGE);
	cr_assert(p.ops->can & TGT_CAN_CHECK);
	cr_assert_not(p.ops->can & TGT_CAN_STRICT);
	cr_assert(strstr(p.ops->why_not(TGT_CAN_THREADS), "one instruction at a time"));
	prog_close(&p);
}

/* ---- fault ---- */

/* VIMA's --fault-at option, from its table. */
static const tgt_option *fault_option(const char *path)
{
	for (const tgt_option *o = tgt_find(path, "", 0)->options; o->name; o++)
		if (!strcmp(o->name, "fault-at"))
			return o;
	cr_assert_fail("no --fault-at");
	return NULL;
}

Test(fault, fault_at_stops_the_run)
{
	const sample *s = sample_named("vecsum");
	char path[512];
	snprintf(path, sizeof path, SAMPLES "/vecsum.vima");
	const tgt_setting set[] = { { "vector", "256", NULL, 0, 0 } };
	const tgt_option *fo = fault_option(path);
	cr_assert_eq(fo->flags & TGT_OPT_SETTING, 0);
	const tgt_optval ov[] = { { fo, "3" } };
	prog p;
	prog_ok(&p, path, NULL, &(opts){ s->defs, s->ndefs, set, 1, ov, 1, true });
	cr_assert_eq(prog_run(&p), TGT_FAULT);
	char want[2048];
	snprintf(want, sizeof want, "%s:8:3: error: page fault at VIMA instruction 3 (add.f32): "
		 "instructions 1 to 2 committed, nothing of 3 or after", p.path);
	cr_assert_str_eq(p.d.msg, want);
	cr_assert(p.ops->ended(p.t));
	cr_assert_eq(stat_of(&p, "totals.instructions"), 2);
	cr_assert_eq(stat_of(&p, "vector_cache.writebacks_flush"), 2);
	uint64_t n, *c = get_array(&p, "C", &n);
	cr_assert_neq(c[127], 0);
	cr_assert_eq(c[128], 0);
	free(c);
	prog_close(&p);
}

/* --fault-at past the program's last VIMA instruction: the run ends with
 * an error saying so, not as if the fault had been tested. */
Test(fault, fault_at_past_the_end_is_an_error)
{
	const sample *s = sample_named("vecsum");
	char path[512];
	snprintf(path, sizeof path, SAMPLES "/vecsum.vima");
	const tgt_setting set[] = { { "vector", "256", NULL, 0, 0 } };
	const tgt_optval ov[] = { { fault_option(path), "1000000" } };
	prog p;
	prog_ok(&p, path, NULL, &(opts){ s->defs, s->ndefs, set, 1, ov, 1, false });
	cr_assert_eq(prog_run(&p), TGT_FAILED);
	const uint64_t n = stat_of(&p, "totals.instructions");
	char want[2048];
	snprintf(want, sizeof want, "%s: error: --fault-at=1000000: the program committed %llu VIMA "
		 "instructions, so no page fault was raised (give K from 1 to %llu)", p.path,
		 (unsigned long long)n, (unsigned long long)n);
	cr_assert_str_eq(p.d.msg, want);
	cr_assert(p.ops->ended(p.t));
	prog_close(&p);
}

/* ---- errors ---- */

static void open_fails(const tgt_setting *set, size_t nset, const tgt_def *defs, size_t nd,
		       const tgt_optval *ov, size_t no, tgt_status st, const char *msg)
{
	prog p;
	prog_open(&p, SAMPLES "/vecsum.vima", NULL, &(opts){ defs, nd, set, nset, ov, no, false });
	cr_assert_null(p.t);
	cr_assert_eq(p.st, st, "%s", p.d.msg);
	char want[DIAG_MAX];
	snprintf(want, sizeof want, msg, p.path);
	cr_assert_str_eq(p.d.msg, want);
	prog_close(&p);
}

Test(errors, settings_options_defines)
{
	const tgt_setting v512[] = { { "vector", "512", NULL, 0, 0 } };
	open_fails(v512, 1, NULL, 0, NULL, 0, TGT_USAGE, "%s: error: -m vector=512: expected 8192 or 256");
	const tgt_setting l0[] = { { "lines", "0", NULL, 0, 0 } };
	open_fails(l0, 1, NULL, 0, NULL, 0, TGT_USAGE,
		   "%s: error: -m lines=0: expected a number from 1 to 4096");
	const tgt_setting ms[] = { { "max-steps", "12x", NULL, 0, 0 } };
	open_fails(ms, 1, NULL, 0, NULL, 0, TGT_USAGE,
		   "%s: error: -m max-steps=12x: expected a number of at least 1");
	const tgt_setting foo[] = { { "foo", "1", NULL, 0, 0 } };
	open_fails(foo, 1, NULL, 0, NULL, 0, TGT_USAGE, "%s: error: -m foo=1: unknown setting 'foo'; "
		   "expected vector, lines or max-steps");
	const tgt_setting file[] = { { "vector", "256", NULL, 0, 0 }, { "lines", "5000", "my.cfg", 3, 0 } };
	open_fails(file, 2, NULL, 0, NULL, 0, TGT_USAGE,
		   "my.cfg:3: error: lines=5000: expected a number from 1 to 4096");
	const tgt_def m[] = { { "N", 64 }, { "M", 3 } };
	open_fails(NULL, 0, m, 2, NULL, 0, TGT_USAGE, "%s: error: -D M: the program has no 'const M'");
	const tgt_option *fo = &tgt_find("x.vima", "", 0)->options[3];
	cr_assert_str_eq(fo->name, "fault-at");
	const tgt_optval ov[] = { { fo, "0" } };
	open_fails(NULL, 0, NULL, 0, ov, 1, TGT_USAGE,
		   "%s: error: --fault-at=0: expected a number of at least 1");
}

Test(errors, program_and_run)
{
	prog p;
	prog_open(&p, "bad.vima", "array A f32 64\nadd.f32 A, A, Q\n", NULL);
	cr_assert_null(p.t);
	cr_assert_eq(p.st, TGT_FAILED);
	cr_assert_str_eq(p.d.msg, "bad.vima:2:15: error: unknown array 'Q'; expected a source vector");
	prog_close(&p);
	const tgt_setting ms[] = { { "max-steps", "5", NULL, 0, 0 }, { "vector", "256", NULL, 0, 0 } };
	prog_ok(&p, SAMPLES "/vecsum.vima", NULL, &(opts){ .set = ms, .nset = 2 });
	cr_assert_eq(prog_run(&p), TGT_FAILED);
	cr_assert(strstr(p.d.msg, "more than 5 statements run"), "%s", p.d.msg);
	cr_assert(p.ops->ended(p.t));
	prog_close(&p);
}

/* The next step fails at a loop: where says so, and the run fails there. */
Test(errors, failing_loop_ahead)
{
	prog p;
	prog_ok(&p, "z.vima", "vima vector=256\narray A i32 64\nfor i = 0, 10, 0\nmov.i32 A, 1\nend\n",
		&(opts){ .check = true });
	tgt_loc loc;
	cr_assert(p.ops->where(p.t, 0, &loc));
	cr_assert_eq(loc.line, 3);
	cr_assert_str_eq(loc.what, "for i (the next step fails here)");
	cr_assert_eq(prog_run(&p), TGT_FAILED);
	cr_assert_str_eq(p.d.msg, "z.vima:3:1: error: the loop's step is 0; expected a positive step");
	cr_assert(p.ops->ended(p.t));
	cr_assert_not(p.ops->where(p.t, 0, &loc));
	prog_close(&p);
}

static void break_fails(prog *p, const char *spec, const char *msg)
{
	tgt_bp bp;
	char want[DIAG_MAX];
	diag_clear(&p->d);
	cr_assert_eq(p->ops->break_parse(p->t, spec, &bp, &p->d), TGT_USAGE, "%s", spec);
	snprintf(want, sizeof want, msg, p->path, p->path);
	cr_assert_str_eq(p->d.msg, want);
}

Test(errors, breakpoints)
{
	prog p;
	sample_open(&p, sample_named("vecsum"), false, NULL);
	break_fails(&p, "foo", "%s: error: break foo: expected FILE:LINE, LINE, instruction N or cycle N");
	break_fails(&p, "7", "%s: error: line 7 has no instruction or host store; the nearest line "
		    "with one is 8");
	break_fails(&p, "vecsum.vima:1", "%s: error: line 1 has no instruction or host store; the "
		    "nearest line with one is 8");
	break_fails(&p, "other.vima:8", "%s: error: break other.vima:8: the program's file is %s");
	break_fails(&p, "instruction 0", "%s: error: break instruction 0: expected instruction N, N "
		    "a number from 1");
	break_fails(&p, "cycle x", "%s: error: break cycle x: expected cycle N, N a number");
	prog_close(&p);
}

/* ---- debug: breakpoints, names, info and view ---- */

static unsigned run_to(prog *p, const char *spec)
{
	tgt_bp bp;
	diag_clear(&p->d);
	cr_assert_eq(p->ops->break_parse(p->t, spec, &bp, &p->d), TGT_OK, "%s", p->d.msg);
	unsigned steps = 0;
	while (!p->ops->ended(p->t) && !p->ops->break_hit(p->t, &bp)) {
		cr_assert_eq(p->ops->step(p->t, 0, &p->d), TGT_OK, "%s", p->d.msg);
		steps++;
	}
	return steps;
}

Test(debug, breakpoints_hit)
{
	prog p;
	sample_open(&p, sample_named("stencil"), false, NULL);
	/* mov.f32 FIFTH at line 14, then five instructions a column at 17..21 */
	cr_assert_eq(run_to(&p, "instruction 5"), 4);
	tgt_loc loc;
	cr_assert(p.ops->where(p.t, 0, &loc));
	cr_assert_eq(loc.line, 20);
	cr_assert_eq(run_to(&p, "stencil.vima:21"), 1);
	cr_assert(p.ops->where(p.t, 0, &loc));
	cr_assert_str_eq(loc.what, "mul.f32 OUT[128], T[0], FIFTH[0]");
	tgt_sym cyc;
	cr_assert(p.ops->lookup(p.t, "cycles", &cyc));
	cr_assert_not(cyc.writable);
	const uint64_t now = p.ops->read(p.t, &cyc, 0);
	char spec[64];
	snprintf(spec, sizeof spec, "cycle %" PRIu64, now + 100);
	const unsigned k = run_to(&p, spec);
	cr_assert_gt(k, 0);
	cr_assert_geq(p.ops->read(p.t, &cyc, 0), now + 100);
	cr_assert_eq(p.ops->read(p.t, &cyc, 0), stat_of(&p, "totals.cycles"));
	/* crossed once: the next unit is not at the breakpoint */
	tgt_bp bp;
	cr_assert_eq(p.ops->break_parse(p.t, spec, &bp, &p.d), TGT_OK);
	cr_assert(p.ops->break_hit(p.t, &bp));
	cr_assert_eq(p.ops->step(p.t, 0, &p.d), TGT_OK);
	cr_assert_not(p.ops->break_hit(p.t, &bp));
	prog_close(&p);
}

static void collect(void *ctx, const char *name)
{
	FILE *f = ctx;
	fprintf(f, "%s ", name);
}

Test(debug, names_and_loop_variables)
{
	prog p;
	sample_open(&p, sample_named("vecsum"), false, NULL);
	for (int k = 0; k < 5; k++)
		cr_assert_eq(p.ops->step(p.t, 0, &p.d), TGT_OK);
	tgt_sym s;
	cr_assert(p.ops->lookup(p.t, "i", &s));
	cr_assert_not(s.is_array);
	cr_assert_eq(p.ops->read(p.t, &s, 0), 5 * 64);
	cr_assert(p.ops->lookup(p.t, "instructions", &s));
	cr_assert_eq(p.ops->read(p.t, &s, 0), 5);
	cr_assert_eq(p.ops->write(p.t, &s, 0, 1, &p.d), TGT_USAGE);
	cr_assert_not(p.ops->lookup(p.t, "nosuch", &s));
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	p.ops->names(p.t, collect, f);
	fclose(f);
	cr_assert_str_eq(buf, "A B C cycles instructions host_stores statements i ");
	free(buf);
	prog_close(&p);
}

Test(debug, info_and_view_cache)
{
	prog p;
	sample_open(&p, sample_named("vecsum"), false, NULL);
	cr_assert_eq(p.ops->step(p.t, 0, &p.d), TGT_OK);
	cr_assert_str_eq(p.ops->infos[0].name, "cache");
	cr_assert_str_eq(p.ops->views[0].name, "cache");
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	cr_assert_eq(p.ops->infos[0].show(p.t, "", f, &p.d), 0);
	fclose(f);
	cr_assert(strstr(buf, "line  valid  dirty  LRU  tag         vector\n"
			 "   0  yes    no       2  0x00000000  A[0]\n"
			 "   1  yes    no       1  0x00008000  B[0]\n"
			 "   2  yes    yes      0  0x00010000  C[0]\n"
			 "   3  no     -        -  -           -\n"), "%s", buf);
	free(buf);
	f = open_memstream(&buf, &size);
	p.ops->views[0].draw(p.t, f, 20, 3);
	fclose(f);
	cr_assert_str_eq(buf, "line  valid  dirty  \n   0  yes    no     \n...\n");
	free(buf);
	cr_assert_eq(p.ops->infos[0].show(p.t, "x", stdout, &p.d), -1);
	prog_close(&p);
}
