/* SPDX-License-Identifier: MIT */
/*
 * test_target_nsc.c: near-stream computing through its target (tgt_nsc,
 * emu/nsc/target.c), only through tgt_ops as the fronts drive it:
 *
 *   samples   every sample opens, runs and passes --check, in every
 *             floating mode;
 *   stats     the tree's numbers are nsc_report's, baseline included,
 *             at the end and mid-run;
 *   step      a run by steps of each unit equals run; where, count,
 *             lookup and read;
 *   snap      save, run on, restore, run on: the same arrays and stats;
 *   errors    settings, -D, options and breakpoints, each one message;
 *   check     a changed element is caught, named with its writer;
 *   brk       each breakpoint kind stops where it says.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nsc.h"
#include "proc.h"
#include "target.h"

static const char *const samples[] = { "bfs_pull", "bfs_push", "bin_tree", "hash_join", "histogram", "hotspot",
				       "pathfinder", "pr_pull", "pr_push", "srad", "sssp", "svm", NULL };

/* The target, found as the fronts find it: by a program's name. */
static const tgt_ops *nsc_ops(void)
{
	const tgt_ops *o = tgt_find("samples/nsc/histogram.nsc", "", 0);
	cr_assert_not_null(o);
	return o;
}

typedef struct opened {
	const tgt_ops *ops;
	tgt *t;
	char path[512];
	char *text;
	size_t len;
	tgt_status st;
	diag d;
} opened;

typedef struct extra {
	const tgt_setting *settings;
	size_t nsettings;
	const tgt_def *defs;
	size_t ndefs;
	const tgt_optval *opts;
	size_t nopts;
	bool no_check;
} extra;

/* Open samples/nsc/NAME.nsc (check on unless x says); t NULL on failure. */
static void open_sample(opened *o, const char *name, const extra *x)
{
	static const extra none = { 0 };
	x = x ? x : &none;
	memset(o, 0, sizeof *o);
	snprintf(o->path, sizeof o->path, "%s/samples/nsc/%s.nsc", SRCDIR, name);
	o->text = proc_slurp(o->path, &o->len);
	cr_assert_not_null(o->text, "%s", o->path);
	o->ops = tgt_find(o->path, o->text, o->len);
	cr_assert_not_null(o->ops);
	cr_assert_str_eq(o->ops->name, "nsc");
	tgt_load a = { .path = o->path, .text = o->text, .len = o->len, .defs = x->defs, .ndefs = x->ndefs,
		       .settings = x->settings, .nsettings = x->nsettings, .opts = x->opts, .nopts = x->nopts,
		       .check = !x->no_check, .stepping = true };
	o->t = o->ops->open(&a, &o->st, &o->d);
}

static void close_sample(opened *o)
{
	if (o->t)
		o->ops->close(o->t);
	free(o->text);
}

/* Every array's bits, one after the other (malloc'd), and their count. */
static uint64_t *all_arrays(const opened *o, size_t *n)
{
	size_t total = 0;
	for (size_t i = 0; i < o->ops->narrays(o->t); i++) {
		tgt_array a;
		o->ops->array(o->t, i, &a);
		total += a.length;
	}
	uint64_t *b = calloc(total + 1, sizeof *b), *p = b;
	for (size_t i = 0; i < o->ops->narrays(o->t); i++) {
		tgt_array a;
		o->ops->array(o->t, i, &a);
		o->ops->array_get(o->t, i, 0, a.length, p);
		p += a.length;
	}
	*n = total;
	return b;
}

/* The statistics tree as JSON (malloc'd). */
static char *stats_json(const opened *o)
{
	tgt_stat *root = tgt_stat_new();
	o->ops->stats(o->t, root);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	cr_assert_eq(tgt_stat_json(root, f), 0);
	fclose(f);
	tgt_stat_free(root);
	return buf;
}

static double stat_at(const opened *o, const char *path)
{
	tgt_stat *root = tgt_stat_new();
	o->ops->stats(o->t, root);
	double v = tgt_stat_number(tgt_stat_get(root, path));
	tgt_stat_free(root);
	return v;
}

/* Run to the end by steps of unit u. */
static void run_by(opened *o, unsigned u)
{
	for (unsigned long k = 0; !o->ops->ended(o->t); k++) {
		cr_assert_lt(k, 10000000ul);
		cr_assert_eq(o->ops->step(o->t, u, &o->d), TGT_OK, "%s", o->d.msg);
	}
}

/* ---- samples ---- */

Test(samples, every_sample_checks)
{
	static const char *const modes[] = { "auto", "core", "bank" };
	for (int i = 0; samples[i]; i++)
		for (int m = 0; m < 3; m++) {
			opened o;
			tgt_setting s = { "float", modes[m], NULL, 0, 0 };
			extra x = { .settings = &s, .nsettings = 1 };
			open_sample(&o, samples[i], &x);
			cr_assert_not_null(o.t, "%s: %s", samples[i], o.d.msg);
			cr_assert_eq(o.ops->run(o.t, &o.d), TGT_OK, "%s float=%s: %s", samples[i], modes[m], o.d.msg);
			cr_assert(o.ops->ended(o.t));
			cr_assert_eq(o.ops->check(o.t, &o.d), TGT_OK);
			close_sample(&o);
		}
}

Test(samples, arrays_are_the_programs)
{
	opened o;
	open_sample(&o, "bin_tree", NULL);
	cr_assert_not_null(o.t, "%s", o.d.msg);
	cr_assert_eq(o.ops->narrays(o.t), 4);
	tgt_array a;
	o.ops->array(o.t, 0, &a);
	cr_assert_str_eq(a.name, "T");
	cr_assert_eq(a.type.kind, TGT_INT);
	cr_assert_eq(a.type.width, 64);
	cr_assert(a.type.is_signed);
	cr_assert_eq(a.ndim, 1);
	cr_assert_eq(a.length, 256);
	cr_assert_eq(tgt_array_find(o.ops, o.t, "found"), 2);
	cr_assert_str_eq(o.ops->source(o.t), o.path);
	close_sample(&o);
}

/* -l: array_set before the run is the initial value, for the machine and
 * the reference alike (bin_tree with BUILD=0 walks the tree it is given). */
Test(samples, array_set_before_the_run)
{
	opened o;
	tgt_def def = { "BUILD", 0 };
	extra x = { .defs = &def, .ndefs = 1 };
	open_sample(&o, "bin_tree", &x);
	cr_assert_not_null(o.t, "%s", o.d.msg);
	uint64_t node[8] = { 10, (uint64_t)-1, 4, 500, 20, (uint64_t)-1, (uint64_t)-1, 600 };
	long T = tgt_array_find(o.ops, o.t, "T"), found = tgt_array_find(o.ops, o.t, "found");
	cr_assert_eq(o.ops->array_set(o.t, (size_t)T, 0, 8, node, &o.d), TGT_OK);
	uint64_t far = 1;
	cr_assert_eq(o.ops->array_set(o.t, (size_t)T, 256, 1, &far, &o.d), TGT_USAGE);
	cr_assert_str_eq(o.d.msg, "T: elements 256 to 256 are past its 256");
	cr_assert_eq(o.ops->run(o.t, &o.d), TGT_OK, "%s", o.d.msg);
	uint64_t keys[32], got[32];
	o.ops->array_get(o.t, (size_t)tgt_array_find(o.ops, o.t, "keys"), 0, 32, keys);
	o.ops->array_get(o.t, (size_t)found, 0, 32, got);
	for (int q = 0; q < 32; q++)
		cr_assert_eq(got[q], keys[q] == 10 ? 500 : keys[q] == 20 ? 600 : (uint64_t)-1, "q %d key %llu", q,
			     (unsigned long long)keys[q]);
	close_sample(&o);
}

/* ---- stats ---- */

static uint64_t u(const tgt_stat *root, const char *path)
{
	const tgt_stat *v = tgt_stat_get(root, path);
	cr_assert_not_null(v, "%s", path);
	return (uint64_t)tgt_stat_number(v);
}

/* nsc_report's text, written again from the tree's numbers. */
static char *report_from_tree(const tgt_stat *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	fprintf(f, "regions %llu, iterations %llu\n", (unsigned long long)u(r, "totals.regions"),
		(unsigned long long)u(r, "totals.iterations"));
	fprintf(f, "streams floated %llu, at the core %llu\n", (unsigned long long)u(r, "streams.floated"),
		(unsigned long long)u(r, "streams.at_core"));
	fprintf(f, "elements at the banks %llu, at the core %llu\n", (unsigned long long)u(r, "streams.elements_bank"),
		(unsigned long long)u(r, "streams.elements_core"));
	fprintf(f, "uops at the banks %llu of %llu (%.1f%%)\n", (unsigned long long)u(r, "streams.uops_bank"),
		(unsigned long long)u(r, "streams.uops"), tgt_stat_number(tgt_stat_get(r, "streams.uops_bank_percent")));
	fprintf(f, "messages");
	static const char *const m[] = { "config", "migrate", "forward", "credit", "range", "commit", "done", "end",
					 "data", "request", "line", "writeback", "instance" };
	for (int k = 0; k < 13; k++) {
		char p[64];
		snprintf(p, sizeof p, "messages.%s", m[k]);
		fprintf(f, " %s %llu", m[k], (unsigned long long)u(r, p));
	}
	fprintf(f, "\ncredits %llu, done %llu, commits %llu (iterations)\n", (unsigned long long)u(r, "sync.credits"),
		(unsigned long long)u(r, "sync.done"), (unsigned long long)u(r, "sync.commits"));
	fprintf(f, "aborts %llu, injected stores %llu, atomic locks %llu, partials %llu\n",
		(unsigned long long)u(r, "events.aborts"), (unsigned long long)u(r, "events.injected_stores"),
		(unsigned long long)u(r, "events.atomic_locks"), (unsigned long long)u(r, "events.partials"));
	fprintf(f, "private cache hits %llu, misses %llu\n", (unsigned long long)u(r, "core.cache_hits"),
		(unsigned long long)u(r, "core.cache_misses"));
	static const char *const what[] = { "offload", "core_only" }, *const text[] = { "offload", "core-only" };
	for (int w = 0; w < 2; w++) {
		char p[6][96];
		static const char *const k[] = { "bytes", "fig12_bytes_offloaded", "fig12_bytes_control",
						 "fig12_bytes_data", "byte_hops", "fig12_byte_hops_offloaded" };
		for (int i = 0; i < 6; i++)
			snprintf(p[i], sizeof p[i], "traffic.%s.%s", what[w], k[i]);
		char c[2][96], d[2][96];
		snprintf(c[0], 96, "traffic.%s.fig12_byte_hops_control", what[w]);
		snprintf(d[0], 96, "traffic.%s.fig12_byte_hops_data", what[w]);
		fprintf(f, "traffic %-9s bytes %llu (offloaded %llu, control %llu, data %llu)\n", text[w],
			(unsigned long long)u(r, p[0]), (unsigned long long)u(r, p[1]), (unsigned long long)u(r, p[2]),
			(unsigned long long)u(r, p[3]));
		fprintf(f, "traffic %-9s byte-hops %llu (offloaded %llu, control %llu, data %llu)\n", text[w],
			(unsigned long long)u(r, p[4]), (unsigned long long)u(r, p[5]), (unsigned long long)u(r, c[0]),
			(unsigned long long)u(r, d[0]));
		snprintf(c[1], 96, "traffic.%s.byte_hops_sync", what[w]);
		snprintf(d[1], 96, "traffic.%s.byte_hops_coordination", what[w]);
		fprintf(f, "traffic %-9s byte-hops of range-sync %llu, of coordination %llu\n", text[w],
			(unsigned long long)u(r, c[1]), (unsigned long long)u(r, d[1]));
	}
	fprintf(f, "byte-hops offload / core-only %.3f\n", tgt_stat_number(tgt_stat_get(r, "traffic.byte_hops_ratio")));
	fclose(f);
	return buf;
}

/* The report `infsim nsc --stats` printed, from the library itself. */
static char *old_report(const char *name, const nsc_settings *s)
{
	char path[512];
	snprintf(path, sizeof path, "%s/samples/nsc/%s.nsc", SRCDIR, name);
	nsc_program p;
	nsc_mem init, m, b;
	nsc_stats st, base;
	diag d;
	cr_assert_eq(nsc_load_file(path, NULL, 0, &p, &d), 0);
	cr_assert_eq(nsc_mem_init(&init, &p, &d), 0);
	cr_assert_eq(nsc_mem_copy(&m, &init, &d), 0);
	cr_assert_eq(nsc_mem_copy(&b, &init, &d), 0);
	cr_assert_eq(nsc_run(&p, &m, s, &st, &d), 0);
	nsc_settings cs = *s;
	cs.floating = NSC_FLOAT_CORE;
	cr_assert_eq(nsc_run(&p, &b, &cs, &base, &d), 0);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	nsc_report(f, &st, &base);
	fclose(f);
	nsc_mem_free(&m);
	nsc_mem_free(&b);
	nsc_mem_free(&init);
	nsc_program_free(&p);
	return buf;
}

static void stats_equal_report(const char *name, const char *floating, nsc_float_mode mode)
{
	opened o;
	tgt_setting set[] = { { "float", floating, NULL, 0, 0 }, { "window", "4", NULL, 0, 0 } };
	extra x = { .settings = set, .nsettings = 2 };
	open_sample(&o, name, &x);
	cr_assert_not_null(o.t, "%s", o.d.msg);
	cr_assert_eq(o.ops->run(o.t, &o.d), TGT_OK, "%s", o.d.msg);
	tgt_stat *root = tgt_stat_new();
	o.ops->stats(o.t, root);
	char *mine = report_from_tree(root);
	nsc_settings s;
	nsc_settings_default(&s);
	s.floating = mode;
	s.window = 4;
	char *old = old_report(name, &s);
	cr_assert_str_eq(mine, old);
	cr_assert_eq(u(root, "machine.window"), 4);
	cr_assert_eq(u(root, "machine.interleave"), 64);
	cr_assert_eq(u(root, "totals.cycles"), o.ops->count(o.t, 0));
	/* format 2's split keeps its meaning: coordination counted as control */
	cr_assert_eq(u(root, "traffic.offload.byte_hops_control"),
		     u(root, "traffic.offload.fig12_byte_hops_control") + u(root, "traffic.offload.byte_hops_coordination"));
	cr_assert_eq(u(root, "traffic.offload.byte_hops_offloaded") + u(root, "traffic.offload.byte_hops_coordination"),
		     u(root, "traffic.offload.fig12_byte_hops_offloaded"));
	cr_assert_eq(u(root, "traffic.offload.bytes_control") + u(root, "traffic.offload.bytes_offloaded"),
		     u(root, "traffic.offload.fig12_bytes_control") + u(root, "traffic.offload.fig12_bytes_offloaded"));
	/* the tiles' rows (JSON) add up to the totals */
	char *json = stats_json(&o), want[64];
	snprintf(want, sizeof want, "\"float\": \"%s\"", floating);
	cr_assert_not_null(strstr(json, want), "%s", json);
	uint64_t msgs = 0, bytes = 0;
	int rows = 0;
	for (const char *q = json; (q = strstr(q, "\"messages_out\": ")); rows++)
		msgs += strtoull(q += 16, NULL, 10);
	for (const char *q = json; (q = strstr(q, "\"bytes_in\": "));)
		bytes += strtoull(q += 12, NULL, 10);
	cr_assert_eq(rows, NSC_BANKS);
	cr_assert_eq(msgs, u(root, "totals.messages"));
	cr_assert_eq(bytes, u(root, "totals.bytes"));
	free(json);
	tgt_stat_free(root);
	free(mine);
	free(old);
	close_sample(&o);
}

Test(stats, equal_the_report)
{
	stats_equal_report("histogram", "auto", NSC_FLOAT_AUTO);
	stats_equal_report("svm", "bank", NSC_FLOAT_BANK);
	stats_equal_report("bin_tree", "auto", NSC_FLOAT_AUTO);
	stats_equal_report("pr_push", "auto", NSC_FLOAT_AUTO);
}

Test(stats, mid_run)
{
	opened o;
	open_sample(&o, "histogram", NULL);
	cr_assert_not_null(o.t, "%s", o.d.msg);
	cr_assert_eq(stat_at(&o, "totals.cycles"), 0);
	for (int k = 0; k < 71; k++)
		cr_assert_eq(o.ops->step(o.t, 0, &o.d), TGT_OK, "%s", o.d.msg);
	cr_assert_eq(stat_at(&o, "totals.cycles"), 71);
	cr_assert_eq(stat_at(&o, "totals.iterations"), 70);   /* s_cfg, then 70 s_steps */
	cr_assert_eq(stat_at(&o, "streams.elements_bank") + stat_at(&o, "streams.elements_core"), 140);
	cr_assert_gt(stat_at(&o, "traffic.core_only.bytes"), 0);
	close_sample(&o);
}

/* ---- step ---- */

static void steps_equal_run(const char *name, unsigned unit)
{
	opened a, b;
	open_sample(&a, name, NULL);
	open_sample(&b, name, NULL);
	cr_assert_not_null(a.t, "%s", a.d.msg);
	cr_assert_eq(a.ops->run(a.t, &a.d), TGT_OK, "%s", a.d.msg);
	run_by(&b, unit);
	cr_assert_eq(b.ops->check(b.t, &b.d), TGT_OK, "%s", b.d.msg);
	size_t na, nb;
	uint64_t *xa = all_arrays(&a, &na), *xb = all_arrays(&b, &nb);
	cr_assert_eq(na, nb);
	cr_assert_eq(memcmp(xa, xb, na * sizeof *xa), 0, "%s by %u", name, unit);
	char *sa = stats_json(&a), *sb = stats_json(&b);
	cr_assert_str_eq(sa, sb);
	for (unsigned k = 0; k < 3; k++)
		cr_assert_eq(a.ops->count(a.t, k), b.ops->count(b.t, k));
	free(sa);
	free(sb);
	free(xa);
	free(xb);
	close_sample(&a);
	close_sample(&b);
}

Test(step, by_each_unit_equals_run)
{
	cr_assert_eq(nsc_ops()->nunits, 3);
	cr_assert_str_eq(nsc_ops()->units[0].name, "step");
	for (unsigned k = 0; k < 3; k++) {
		steps_equal_run("bin_tree", k);
		steps_equal_run("pathfinder", k);
		steps_equal_run("hash_join", k);
	}
}

Test(step, units_where_and_count)
{
	opened o;
	open_sample(&o, "histogram", NULL);
	cr_assert_not_null(o.t, "%s", o.d.msg);
	tgt_loc l;
	cr_assert(o.ops->where(o.t, 2, &l));
	cr_assert_eq(l.line, 8);
	cr_assert_str_eq(l.what, "s_cfg: streams i < N");
	cr_assert_not(o.ops->where(o.t, 1, &l));   /* no region yet */
	cr_assert_eq(o.ops->step(o.t, 1, &o.d), TGT_OK);   /* s_cfg and s_step 0 */
	cr_assert_eq(o.ops->count(o.t, 0), 2);
	cr_assert_eq(o.ops->count(o.t, 1), 1);
	cr_assert(o.ops->where(o.t, 0, &l));
	cr_assert_str_eq(l.what, "s_step 1 of region 0 (iteration 1 of the run)");
	cr_assert_eq(l.index, 2);
	tgt_sym s;
	cr_assert(o.ops->lookup(o.t, "k", &s));   /* the load stream, live */
	uint64_t a0;
	o.ops->array_get(o.t, 0, 0, 1, &a0);
	cr_assert_eq(o.ops->read(o.t, &s, 0), (a0 >> 26) & 63);
	cr_assert_not(s.writable);
	cr_assert(o.ops->lookup(o.t, "N", &s));
	cr_assert_eq(o.ops->read(o.t, &s, 0), 4096);
	cr_assert(o.ops->lookup(o.t, "cycles", &s));
	cr_assert_eq(o.ops->read(o.t, &s, 0), 2);
	cr_assert(o.ops->lookup(o.t, "H", &s));
	cr_assert(s.is_array);
	cr_assert_eq(s.length, 64);
	cr_assert_not(o.ops->lookup(o.t, "nothing", &s));
	cr_assert_eq(o.ops->step(o.t, 2, &o.d), TGT_OK);   /* the rest of the region */
	cr_assert(o.ops->ended(o.t));
	cr_assert_eq(o.ops->count(o.t, 1), 4096);
	cr_assert_eq(o.ops->count(o.t, 2), 1);
	cr_assert_eq(o.ops->count(o.t, 0), 4096 + 2);
	cr_assert_not(o.ops->where(o.t, 0, &l));
	cr_assert_eq(o.ops->step(o.t, 0, &o.d), TGT_FAILED);
	close_sample(&o);
}

Test(step, core_scalars)
{
	opened o;
	open_sample(&o, "bin_tree", NULL);
	cr_assert_not_null(o.t, "%s", o.d.msg);
	tgt_sym s;
	while (!(o.ops->lookup(o.t, "K", &s) && o.ops->count(o.t, 1) > 0))
		cr_assert_eq(o.ops->step(o.t, 0, &o.d), TGT_OK);
	uint64_t keys0;
	o.ops->array_get(o.t, (size_t)tgt_array_find(o.ops, o.t, "keys"), 0, 1, &keys0);
	cr_assert_eq(o.ops->read(o.t, &s, 0), keys0);
	cr_assert(s.writable);
	cr_assert(o.ops->lookup(o.t, "n", &s));   /* a reduction so far: the stream's */
	cr_assert_eq(o.ops->read(o.t, &s, 0), o.ops->count(o.t, 1));
	close_sample(&o);
}

/* ---- snap ---- */

static void snap_at(const char *name, unsigned long at, const char *floating)
{
	opened o;
	tgt_setting set = { "float", floating, NULL, 0, 0 };
	extra x = { .settings = &set, .nsettings = 1 };
	open_sample(&o, name, &x);
	cr_assert_not_null(o.t, "%s", o.d.msg);
	for (unsigned long k = 0; k < at; k++)
		cr_assert_eq(o.ops->step(o.t, 0, &o.d), TGT_OK);
	tgt_snap *s = o.ops->save(o.t, &o.d);
	cr_assert_not_null(s, "%s", o.d.msg);
	cr_assert_gt(o.ops->snap_bytes(s), 0);
	cr_assert_eq(o.ops->run(o.t, &o.d), TGT_OK, "%s", o.d.msg);
	size_t n1, n2;
	uint64_t *x1 = all_arrays(&o, &n1);
	char *s1 = stats_json(&o);
	for (int again = 0; again < 2; again++) {
		cr_assert_eq(o.ops->restore(o.t, s, &o.d), TGT_OK, "%s", o.d.msg);
		cr_assert_eq(o.ops->count(o.t, 0), at);
		cr_assert_eq(o.ops->run(o.t, &o.d), TGT_OK, "%s", o.d.msg);
		uint64_t *x2 = all_arrays(&o, &n2);
		char *s2 = stats_json(&o);
		cr_assert_eq(n1, n2);
		cr_assert_eq(memcmp(x1, x2, n1 * sizeof *x1), 0, "%s at %lu", name, at);
		cr_assert_str_eq(s1, s2);
		free(x2);
		free(s2);
	}
	o.ops->snap_free(s);
	free(x1);
	free(s1);
	close_sample(&o);
}

Test(snap, restore_runs_on_alike)
{
	static const char *const modes[] = { "auto", "bank" };   /* bank: run-ahead in flight */
	for (int m = 0; m < 2; m++) {
		snap_at("histogram", 0, modes[m]);
		snap_at("histogram", 300, modes[m]);   /* mid-region */
		snap_at("bin_tree", 300, modes[m]);    /* in a chase */
		snap_at("sssp", 777, modes[m]);
		snap_at("pr_pull", 401, modes[m]);
		snap_at("hash_join", 50, modes[m]);
	}
}

/* ---- errors ---- */

static void open_fails(const char *name, const extra *x, tgt_status want, const char *msg)
{
	opened o;
	open_sample(&o, name, x);
	cr_assert_null(o.t);
	cr_assert_eq(o.st, want);
	cr_assert_str_eq(o.d.msg, msg);
	close_sample(&o);
}

Test(errors, settings)
{
	tgt_setting s = { "float", "foo", NULL, 0, 0 };
	extra x = { .settings = &s, .nsettings = 1 };
	open_fails("histogram", &x, TGT_USAGE, "-m float=foo: expected auto, core or bank");
	s = (tgt_setting){ "interleave", "96", NULL, 0, 0 };
	open_fails("histogram", &x, TGT_USAGE, "-m interleave=96: expected a power of two");
	s = (tgt_setting){ "core", "64", NULL, 0, 0 };
	open_fails("histogram", &x, TGT_USAGE, "-m core=64: expected a number from 0 to 63");
	s = (tgt_setting){ "nest", "no", NULL, 0, 0 };
	open_fails("histogram", &x, TGT_USAGE, "-m nest=no: expected on or off");
	s = (tgt_setting){ "window", "x", "cfg.txt", 3, 0 };
	open_fails("histogram", &x, TGT_USAGE, "cfg.txt:3: error: window=x: expected a number from 0 to 1024");
	s = (tgt_setting){ "root", "tid", NULL, 0, 0 };
	open_fails("histogram", &x, TGT_USAGE,
		   "-m root=tid: unknown setting (nsc has float, interleave, sync, nest, range, window, cache, core, "
		   "max-iters and max-work)");
	s = (tgt_setting){ "max-work", "0", NULL, 0, 0 };
	open_fails("histogram", &x, TGT_USAGE, "-m max-work=0: expected a number from 1 to 9223372036854775807");
	/* --float=bank given as the target's option */
	tgt_optval ov = { &nsc_ops()->options[0], "none" };
	x = (extra){ .opts = &ov, .nopts = 1 };
	open_fails("histogram", &x, TGT_USAGE, "--float=none: expected auto, core or bank");
}

Test(errors, defines_and_aliases)
{
	char path[512];
	snprintf(path, sizeof path, "%s/samples/nsc/histogram.nsc", SRCDIR);
	char msg[700];
	tgt_def def = { "M", 3 };
	extra x = { .defs = &def, .ndefs = 1 };
	snprintf(msg, sizeof msg, "-D M=3: no 'const M' in %s", path);
	open_fails("histogram", &x, TGT_USAGE, msg);
	def = (tgt_def){ "N", 0 };
	snprintf(msg, sizeof msg, "%s:6:15: error: ", path);
	opened o;
	open_sample(&o, "histogram", &x);
	cr_assert_null(o.t);
	cr_assert_eq(o.st, TGT_FAILED);
	cr_assert(strstr(o.d.msg, path) == o.d.msg, "%s", o.d.msg);
	close_sample(&o);
	const tgt_option *alias = &nsc_ops()->options[10];
	cr_assert_str_eq(alias->name, "alias");
	tgt_optval ov = { alias, "3:Q[1]=2" };
	x = (extra){ .opts = &ov, .nopts = 1 };
	snprintf(msg, sizeof msg, "--alias=3:Q[1]=2: no array 'Q' in %s", path);
	open_fails("histogram", &x, TGT_USAGE, msg);
	ov.value = "3:H[64]=2";
	open_fails("histogram", &x, TGT_USAGE, "--alias=3:H[64]=2: index 64 is out of bounds of 'H' (64 elements)");
	ov.value = "3:H=2";
	open_fails("histogram", &x, TGT_USAGE, "--alias=3:H=2: expected N:ARRAY[I]=VALUE");
	ov.value = "3:H[1]=2x";
	open_fails("histogram", &x, TGT_USAGE, "--alias=3:H[1]=2x: expected a number, not '2x'");
}

Test(errors, breakpoints)
{
	opened o;
	open_sample(&o, "histogram", NULL);
	cr_assert_not_null(o.t, "%s", o.d.msg);
	tgt_bp bp;
	char msg[700];
	cr_assert_eq(o.ops->break_parse(o.t, "2", &bp, &o.d), TGT_USAGE);
	snprintf(msg, sizeof msg, "%s:2: error: no statement or stream at line 2; the nearest is line 8", o.path);
	cr_assert_str_eq(o.d.msg, msg);
	cr_assert_eq(o.ops->break_parse(o.t, "histogram.nsc:11", &bp, &o.d), TGT_USAGE);
	snprintf(msg, sizeof msg, "%s:11: error: no statement or stream at line 11; the nearest is line 10", o.path);
	cr_assert_str_eq(o.d.msg, msg);
	cr_assert_eq(o.ops->break_parse(o.t, "other.nsc:9", &bp, &o.d), TGT_USAGE);
	snprintf(msg, sizeof msg, "break other.nsc:9: the program's file is %s", o.path);
	cr_assert_str_eq(o.d.msg, msg);
	cr_assert_eq(o.ops->break_parse(o.t, "region 1", &bp, &o.d), TGT_USAGE);
	cr_assert_str_eq(o.d.msg, "break region 1: expected a region from 0 to 0");
	cr_assert_eq(o.ops->break_parse(o.t, "region zz", &bp, &o.d), TGT_USAGE);
	cr_assert_str_eq(o.d.msg, "break region zz: no region has a stream 'zz'");
	cr_assert_eq(o.ops->break_parse(o.t, "iteration -1", &bp, &o.d), TGT_USAGE);
	cr_assert_str_eq(o.d.msg, "break iteration -1: expected a number from 0 to 9223372036854775807");
	cr_assert_eq(o.ops->break_parse(o.t, "stream q element 1", &bp, &o.d), TGT_USAGE);
	snprintf(msg, sizeof msg, "break stream q element 1: no stream 'q' in %s", o.path);
	cr_assert_str_eq(o.d.msg, msg);
	cr_assert_eq(o.ops->break_parse(o.t, "nowhere", &bp, &o.d), TGT_USAGE);
	cr_assert_str_eq(o.d.msg, "break nowhere: expected FILE:LINE, LINE, region N, region STREAM, iteration N "
				  "or stream NAME element K");
	close_sample(&o);
}

/* ---- check ---- */

static void first_lines(const char *report, const char *want)
{
	cr_assert_not_null(report);
	cr_assert(strncmp(report, want, strlen(want)) == 0, "report:\n%s\nwanted:\n%s", report, want);
}

/* H[k] changed under the region: the atomics that come later add to the
 * wrong value, and the report names the last of them. */
Test(check, catches_a_change_mid_region)
{
	opened ref;
	open_sample(&ref, "histogram", NULL);
	cr_assert_eq(ref.ops->run(ref.t, &ref.d), TGT_OK);
	uint64_t h[64], a[4096];
	ref.ops->array_get(ref.t, 1, 0, 64, h);
	ref.ops->array_get(ref.t, 0, 0, 4096, a);
	opened o;
	open_sample(&o, "histogram", NULL);
	for (int k = 0; k < 101; k++)
		cr_assert_eq(o.ops->step(o.t, 0, &o.d), TGT_OK);
	tgt_sym s;
	cr_assert(o.ops->lookup(o.t, "H", &s));
	const uint64_t key = (a[4095] >> 26) & 63;   /* the key of the last iteration */
	cr_assert_eq(o.ops->write(o.t, &s, key, o.ops->read(o.t, &s, key) + 5, &o.d), TGT_OK);
	cr_assert_eq(o.ops->run(o.t, &o.d), TGT_DIFFERS);
	char want[1200];
	snprintf(want, sizeof want,
		 "H[%d]: got %llu, expected %llu\n  last written by the atomic stream H[...] at %s:10:3 "
		 "(region 0, iteration 4095 of the run)\n  1 of 64 elements of H differ from the reference\n",
		 (int)key, (unsigned long long)h[key] + 5, (unsigned long long)h[key], o.path);
	cr_assert_str_eq(o.ops->report(o.t), want);
	cr_assert(strstr(o.d.msg, "got") != NULL);
	close_sample(&o);
	close_sample(&ref);
}

/* An element changed after its last write: named as set from outside;
 * one the core stored last: named with its statement. */
Test(check, names_the_writer)
{
	opened o;
	open_sample(&o, "bin_tree", NULL);
	cr_assert_eq(o.ops->run(o.t, &o.d), TGT_OK);
	tgt_sym s;
	cr_assert(o.ops->lookup(o.t, "steps", &s));
	cr_assert_eq(o.ops->write(o.t, &s, 4, o.ops->read(o.t, &s, 4) + 1, &o.d), TGT_OK);
	cr_assert_eq(o.ops->check(o.t, &o.d), TGT_DIFFERS);
	uint64_t v;
	o.ops->array_get(o.t, 3, 4, 1, &v);
	char want[1200];
	snprintf(want, sizeof want, "steps[4]: got %llu, expected %llu\n  last set from outside the machine "
				    "(write or array_set), after %llu region iterations\n",
		 (unsigned long long)v, (unsigned long long)v - 1, (unsigned long long)o.ops->count(o.t, 1));
	first_lines(o.ops->report(o.t), want);
	close_sample(&o);

	/* T[4*5+3] = 1000 + 5, a core store at line 17, changed before the chases */
	open_sample(&o, "bin_tree", NULL);
	tgt_bp bp;
	cr_assert_eq(o.ops->break_parse(o.t, "region 0", &bp, &o.d), TGT_OK, "%s", o.d.msg);
	while (!o.ops->break_hit(o.t, &bp))
		cr_assert_eq(o.ops->step(o.t, 0, &o.d), TGT_OK);
	cr_assert(o.ops->lookup(o.t, "T", &s));
	cr_assert_eq(o.ops->write(o.t, &s, 23, 7, &o.d), TGT_OK);
	cr_assert(o.ops->lookup(o.t, "T", &s));
	/* T is not written by the region: the wrong T itself is found first */
	cr_assert_eq(o.ops->run(o.t, &o.d), TGT_DIFFERS);
	first_lines(o.ops->report(o.t), "T[23]: got 7, expected 1005\n  last set from outside the machine");
	close_sample(&o);
}

/* A reduction's result changed before the core stores it: the wrong
 * element is the core store's. */
Test(check, core_store_is_named)
{
	opened o;
	open_sample(&o, "bin_tree", NULL);
	tgt_bp bp;
	cr_assert_eq(o.ops->break_parse(o.t, "30", &bp, &o.d), TGT_OK, "%s", o.d.msg);
	for (int hits = 0; !(o.ops->break_hit(o.t, &bp) && ++hits == 32);)
		cr_assert_eq(o.ops->step(o.t, 0, &o.d), TGT_OK);
	tgt_sym s;
	cr_assert(o.ops->lookup(o.t, "val", &s));
	cr_assert(s.writable);
	const uint64_t right = o.ops->read(o.t, &s, 0);
	cr_assert_eq(o.ops->write(o.t, &s, 0, 12345, &o.d), TGT_OK);
	const uint64_t iters = o.ops->count(o.t, 1);
	cr_assert_eq(o.ops->run(o.t, &o.d), TGT_DIFFERS);
	char want[1200];
	snprintf(want, sizeof want, "found[31]: got 12345, expected %lld\n  last written by the core store at %s:30:3 "
				    "(after %llu region iterations)\n  1 of 32 elements of found differ from the reference\n",
		 (long long)right, o.path, (unsigned long long)iters);
	cr_assert_str_eq(o.ops->report(o.t), want);
	close_sample(&o);
}

Test(check, mid_run_and_without_check)
{
	opened o;
	open_sample(&o, "histogram", NULL);
	cr_assert_eq(o.ops->step(o.t, 0, &o.d), TGT_OK);
	cr_assert_eq(o.ops->check(o.t, &o.d), TGT_FAILED);
	char want[700];
	snprintf(want, sizeof want, "%s: error: check: the program has not ended (0 iterations so far); the "
				    "reference is of the whole run", o.path);
	cr_assert_str_eq(o.d.msg, want);
	close_sample(&o);
	extra x = { .no_check = true };
	open_sample(&o, "histogram", &x);
	cr_assert_eq(o.ops->run(o.t, &o.d), TGT_OK);
	cr_assert_eq(o.ops->check(o.t, &o.d), TGT_USAGE);
	cr_assert_null(o.ops->report(o.t));
	close_sample(&o);
}

/* ---- brk ---- */

static unsigned long run_to(opened *o, const char *spec)
{
	tgt_bp bp;
	cr_assert_eq(o->ops->break_parse(o->t, spec, &bp, &o->d), TGT_OK, "%s: %s", spec, o->d.msg);
	unsigned long k = 0;
	while (!o->ops->ended(o->t) && !o->ops->break_hit(o->t, &bp)) {
		cr_assert_eq(o->ops->step(o->t, 0, &o->d), TGT_OK);
		k++;
	}
	return k;
}

Test(brk, each_kind)
{
	opened o;
	open_sample(&o, "bin_tree", NULL);
	/* if, for, 64 trips of 4 stores, for, let */
	cr_assert_eq(run_to(&o, "region 0"), 1 + 1 + 4 * 64 + 1 + 1);
	tgt_loc l;
	cr_assert(o.ops->where(o.t, 0, &l));
	cr_assert_eq(l.line, 24);
	cr_assert(strncmp(l.what, "s_cfg: streams chase p = T", 26) == 0, "%s", l.what);
	cr_assert_eq(run_to(&o, "26"), 1);   /* a stream's line: before the s_steps */
	cr_assert_eq(o.ops->count(o.t, 1), 0);
	run_to(&o, "iteration 40");
	cr_assert_eq(o.ops->count(o.t, 1), 40);
	cr_assert(o.ops->where(o.t, 1, &l));
	cr_assert_eq(l.index, 40);
	close_sample(&o);

	open_sample(&o, "histogram", NULL);
	cr_assert_eq(run_to(&o, "region k"), 0);
	cr_assert_eq(run_to(&o, "histogram.nsc:8"), 0);
	cr_assert_eq(run_to(&o, "9"), 1);
	cr_assert_eq(run_to(&o, "stream k element 7"), 8);   /* after the s_step of A[7] */
	cr_assert_eq(o.ops->count(o.t, 1), 8);
	tgt_bp bp;
	cr_assert_eq(o.ops->break_parse(o.t, "stream k element 7", &bp, &o.d), TGT_OK);
	cr_assert_str_eq(bp.what, "stream k element 7");
	cr_assert_eq(o.ops->step(o.t, 0, &o.d), TGT_OK);
	cr_assert_not(o.ops->break_hit(o.t, &bp));
	close_sample(&o);
}

Test(brk, infos_and_views)
{
	opened o;
	open_sample(&o, "histogram", NULL);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	cr_assert_str_eq(nsc_ops()->infos[0].name, "streams");
	nsc_ops()->infos[0].show(o.t, "", f, &o.d);
	for (int k = 0; k < 3; k++)
		cr_assert_eq(o.ops->step(o.t, 0, &o.d), TGT_OK);
	nsc_ops()->infos[0].show(o.t, "", f, &o.d);
	nsc_ops()->infos[1].show(o.t, "", f, &o.d);
	nsc_ops()->views[0].draw(o.t, f, 20, 2);
	fclose(f);
	cr_assert_not_null(strstr(buf, "No stream region in progress (0 iterations so far).\nregion 0 (line 8), "
				       "next iteration 2 of 4096:\n  k        load   affine"), "%s", buf);
	char line[700];
	snprintf(line, sizeof line, "* region 0 at %s:8: streams i < N: load k, atomic H\n", o.path);
	cr_assert_not_null(strstr(buf, line), "%s", buf);
	cr_assert_not_null(strstr(buf, "\nregion 0 (line 8), n\n  k        load   af\n"), "%s", buf);
	free(buf);
	close_sample(&o);
}

/* A program that fails as it runs: TGT_FAILED with the engines' located
 * message, from run and from step alike; the reference is never asked. */
Test(errors, runtime)
{
	static const char text[] = "const N = 8\narray A i32 4\nstreams i < N\n  store A[i] = i\nend\n";
	const tgt_ops *ops = nsc_ops();
	for (int by_steps = 0; by_steps < 2; by_steps++) {
		tgt_load a = { .path = "oob.nsc", .text = text, .len = sizeof text - 1, .check = true };
		tgt_status st;
		diag d;
		tgt *t = ops->open(&a, &st, &d);
		cr_assert_not_null(t, "%s", d.msg);
		tgt_status rc = TGT_OK;
		while (by_steps && rc == TGT_OK && !ops->ended(t))
			rc = ops->step(t, 0, &d);
		if (!by_steps)
			rc = ops->run(t, &d);
		cr_assert_eq(rc, TGT_FAILED);
		cr_assert_str_eq(d.msg, "oob.nsc:4:3: error: index 4 is out of bounds of array 'A' (4 elements)");
		cr_assert(ops->ended(t));
		cr_assert_eq(ops->count(t, 1), 4);
		cr_assert_eq(ops->check(t, &d), TGT_FAILED);
		ops->close(t);
	}
}
