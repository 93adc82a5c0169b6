/* SPDX-License-Identifier: MIT */
/*
 * test_target_simt.c: Duality Cache's SIMT mode through tgt_ops only
 * (emu/simt/target.c, doc/SIMT.md "As a target").
 *
 *   samples   every sample opens, runs and passes --check;
 *   stats     the tree's numbers are simt_report's on the same run;
 *   steps     a run by bundles, threads, CTAs and launches equals run;
 *   snap      save, run on, restore, run on: the same arrays and stats;
 *   check     a changed register or element is caught and named with
 *             the instruction that wrote it; -l's input reaches the
 *             reference too;
 *   debug     breakpoints, values, infos, views;
 *   options   --bundles, --fig13, mapping;
 *   errors    settings, options, break specs, programs.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa.h"
#include "simt.h"
#include "target.h"
#include "text.h"

#define SAMPLES SRCDIR "/samples/simt/"

static bool starts(const char *s, const char *prefix)
{
	return s && !strncmp(s, prefix, strlen(prefix));
}

static const tgt_ops *ops_of(const char *path)
{
	const tgt_ops *o = tgt_find(path, "", 0);
	cr_assert_not_null(o, "no target claims %s", path);
	cr_assert_str_eq(o->name, "simt");
	return o;
}

typedef struct opened {
	const tgt_ops *o;
	tgt *t;
	char *text;
	char path[512];
	diag d;
	tgt_status st;
} opened;

/* Open sample name with the given load (path, text filled in here). */
static tgt *open_with(opened *x, const char *name, tgt_load *a)
{
	memset(x, 0, sizeof *x);
	snprintf(x->path, sizeof x->path, "%s%s", SAMPLES, name);
	size_t len;
	cr_assert_eq(text_read_file(x->path, TEXT_FILE_MAX, &x->text, &len, &x->d), 0, "%s", x->d.msg);
	x->o = ops_of(x->path);
	a->path = x->path;
	a->text = x->text;
	a->len = len;
	x->t = x->o->open(a, &x->st, &x->d);
	return x->t;
}

static tgt *open_sample(opened *x, const char *name, bool check)
{
	tgt_load a = { .check = check, .stepping = true };
	tgt *t = open_with(x, name, &a);
	cr_assert_not_null(t, "%s: %s", name, x->d.msg);
	return t;
}

static void closed(opened *x)
{
	if (x->t)
		x->o->close(x->t);
	free(x->text);
}

/* Every array's bits, one after another. */
static uint64_t *all_arrays(const opened *x, size_t *n)
{
	size_t total = 0, na = x->o->narrays(x->t);
	for (size_t i = 0; i < na; i++) {
		tgt_array a;
		x->o->array(x->t, i, &a);
		total += a.length;
	}
	uint64_t *v = calloc(total + 1, sizeof *v);
	cr_assert_not_null(v);
	size_t at = 0;
	for (size_t i = 0; i < na; i++) {
		tgt_array a;
		x->o->array(x->t, i, &a);
		x->o->array_get(x->t, i, 0, a.length, v + at);
		at += a.length;
	}
	*n = total;
	return v;
}

/* The statistics tree as JSON text. */
static char *stats_json(const opened *x)
{
	tgt_stat *root = tgt_stat_new();
	x->o->stats(x->t, root);
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	cr_assert_eq(tgt_stat_json(root, f), 0);
	fclose(f);
	tgt_stat_free(root);
	return buf;
}

static double stat_of(const opened *x, const char *path)
{
	tgt_stat *root = tgt_stat_new();
	x->o->stats(x->t, root);
	double v = tgt_stat_number(tgt_stat_get(root, path));
	tgt_stat_free(root);
	return v;
}

/* Two runs ended with the same arrays and statistics. */
static void assert_same(const opened *a, const opened *b)
{
	size_t na, nb;
	uint64_t *va = all_arrays(a, &na), *vb = all_arrays(b, &nb);
	cr_assert_eq(na, nb);
	for (size_t i = 0; i < na; i++)
		cr_assert_eq(va[i], vb[i], "element %zu: 0x%llx and 0x%llx", i,
			     (unsigned long long)va[i], (unsigned long long)vb[i]);
	char *ja = stats_json(a), *jb = stats_json(b);
	cr_assert_str_eq(ja, jb);
	free(va);
	free(vb);
	free(ja);
	free(jb);
}

/* ---- samples ---- */

Test(samples, all_pass_check, .timeout = 600)
{
	DIR *dir = opendir(SAMPLES);
	cr_assert_not_null(dir);
	struct dirent *e;
	unsigned n = 0;
	while ((e = readdir(dir))) {
		size_t len = strlen(e->d_name);
		if (len < 6 || strcmp(e->d_name + len - 5, ".simt"))
			continue;
		opened x;
		tgt *t = open_sample(&x, e->d_name, true);
		tgt_status st = x.o->run(t, &x.d);
		cr_assert_eq(st, TGT_OK, "%s: %s\n%s", e->d_name, x.d.msg,
			     x.o->report(t) ? x.o->report(t) : "");
		cr_assert(x.o->ended(t));
		cr_assert_gt(stat_of(&x, "totals.cycles"), 0, "%s", e->d_name);
		cr_assert_eq(x.o->check(t, &x.d), TGT_OK, "%s: %s", e->d_name, x.d.msg);
		closed(&x);
		n++;
	}
	closedir(dir);
	cr_assert_geq(n, 12, "only %u samples", n);
}

/* ---- stats ---- */

/* The number after label on the line of text that starts with it. */
static unsigned long long report_number(const char *text, const char *label)
{
	const char *at = strstr(text, label);
	cr_assert_not_null(at, "no '%s' in the report:\n%s", label, text);
	return strtoull(at + strlen(label), NULL, 10);
}

static void stats_case(const char *name)
{
	opened x;
	tgt *t = open_sample(&x, name, false);
	cr_assert_eq(x.o->run(t, &x.d), TGT_OK, "%s", x.d.msg);
	/* the old path: the program run by simt_machine_run, simt_report */
	diag d;
	diag_clear(&d);
	simt_program p;
	cr_assert_eq(simt_load_file(x.path, &p, &d), 0, "%s", d.msg);
	simt_machine *m = simt_machine_new(&p, &d);
	cr_assert_eq(simt_machine_run(m, &d), 0, "%s", d.msg);
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	simt_report(f, &p, simt_machine_stats(m));
	fclose(f);
	static const struct { const char *label, *key; } rows[] = {
		{ "bundles issued", "simt.bundles" }, { "compute cycles", "simt.compute_cycles" },
		{ "(baseline latencies:", "simt.baseline_cycles" },
		{ "one-array schedule", "simt.one_array_cycles" },
		{ "memory cycles", "simt.memory_cycles" }, { "critical path", "simt.critical_path" },
		{ "slots filled", "simt.slot_ops" }, { "memory requests", "simt.mem_requests" },
		{ ", lines", "simt.mem_lines" }, { "MSHR merges", "simt.mshr_merges" },
		{ "\n  copies", "simt.copies" }, { "spills, reloads", "simt.spills" },
		{ "shuffles", "simt.shuffles" }, { "(words moved between threads:", "simt.shuffle_lanes" },
		{ "jumps taken", "simt.jumps_taken" }, { "launch", "simt.launches" },
		{ "es, ", "simt.cta_runs" },
	};
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		const char *label = rows[i].label;
		/* "simt: N launches, M CTA runs": the numbers come first */
		unsigned long long want = !strcmp(label, "launch") ? p.nl
			: !strcmp(label, "es, ") ? simt_machine_stats(m)->cb_runs
			: report_number(text, label);
		cr_assert_eq((unsigned long long)stat_of(&x, rows[i].key), want, "%s: %s", name,
			     rows[i].key);
	}
	const simt_stats *s = simt_machine_stats(m);
	cr_assert_eq(stat_of(&x, "simt.reloads"), (double)s->reloads);
	cr_assert_eq(stat_of(&x, "totals.cycles"), (double)s->critical_path);
	cr_assert_eq(stat_of(&x, "totals.bundles"), (double)s->bundles);
	cr_assert_eq(stat_of(&x, "machine.cbs"), (double)p.cbs);
	/* the Fig 12 rows: every command the report lists */
	tgt_stat *root = tgt_stat_new();
	x.o->stats(t, root);
	char *json = NULL;
	size = 0;
	f = open_memstream(&json, &size);
	tgt_stat_json(root, f);
	fclose(f);
	for (unsigned op = 0; op < 64 && op < ISA_OP_COUNT; op++) {
		if (!s->op_count[op])
			continue;
		char want[256];
		snprintf(want, sizeof want, "\"command\": \"%s\"", isa_info_of(op)->name);
		cr_assert_not_null(strstr(json, want), "%s: no row %s in\n%s", name, want, json);
	}
	tgt_stat_free(root);
	free(json);
	free(text);
	simt_machine_free(m);
	simt_program_free(&p);
	closed(&x);
}

Test(stats, equal_report_spill) { stats_case("spill.simt"); }
Test(stats, equal_report_reduce) { stats_case("reduce.simt"); }
Test(stats, equal_report_bfs) { stats_case("bfs.simt"); }

Test(stats, right_mid_run)
{
	opened x;
	tgt *t = open_sample(&x, "vecadd.simt", false);
	cr_assert_eq(stat_of(&x, "totals.cycles"), 0);
	for (int i = 0; i < 20; i++)
		cr_assert_eq(x.o->step(t, 0, &x.d), TGT_OK, "%s", x.d.msg);
	/* 20 bundles into a launch: no launch has finished, the cycles are
	 * the longest CB's so far */
	cr_assert_eq(stat_of(&x, "simt.critical_path"), 0);
	double c = stat_of(&x, "totals.cycles");
	cr_assert_gt(c, 0);
	cr_assert_leq(c, stat_of(&x, "simt.compute_cycles") + stat_of(&x, "simt.memory_cycles"));
	cr_assert_eq(stat_of(&x, "totals.bundles"), 20);
	tgt_sym s;
	cr_assert(x.o->lookup(t, "cycles", &s));
	cr_assert_eq((double)x.o->read(t, &s, 0), c);
	closed(&x);
}

/* ---- steps ---- */

static void steps_case(const char *name, unsigned unit)
{
	opened a, b;
	tgt *ta = open_sample(&a, name, true), *tb = open_sample(&b, name, true);
	cr_assert_eq(a.o->run(ta, &a.d), TGT_OK, "%s", a.d.msg);
	uint64_t steps = 0, before = b.o->count(tb, unit);
	while (!b.o->ended(tb)) {
		cr_assert_eq(b.o->step(tb, unit, &b.d), TGT_OK, "%s", b.d.msg);
		steps++;
		cr_assert_geq(b.o->count(tb, unit), before);
	}
	cr_assert_eq(b.o->step(tb, unit, &b.d), TGT_FAILED);
	if (unit == 0)
		cr_assert_eq(steps, b.o->count(tb, 0));
	cr_assert_eq(b.o->count(tb, 0), a.o->count(ta, 0));
	cr_assert_eq(b.o->count(tb, 2), a.o->count(ta, 2));
	cr_assert_eq(b.o->count(tb, 3), a.o->count(ta, 3));
	cr_assert_eq(b.o->run(tb, &b.d), TGT_OK, "%s", b.d.msg);
	assert_same(&a, &b);
	closed(&a);
	closed(&b);
}

Test(steps, bundles_equal_run) { steps_case("bfs.simt", 0); }
Test(steps, threads_equal_run) { steps_case("diverge.simt", 1); }
Test(steps, ctas_equal_run) { steps_case("vecadd.simt", 2); }
Test(steps, launches_equal_run) { steps_case("bfs.simt", 3); }

Test(steps, counts_and_where)
{
	opened x;
	tgt *t = open_sample(&x, "diverge.simt", false);
	tgt_loc loc;
	cr_assert(x.o->where(t, 0, &loc));
	cr_assert_str_eq(loc.file, x.path);
	cr_assert_eq(loc.line, 8);
	cr_assert_eq(loc.col, 2);
	cr_assert_eq(loc.index, 0);
	cr_assert_not_null(strstr(loc.what, "diverge pc 0: mov.u32 r0, %tid"), "%s", loc.what);
	cr_assert(x.o->where(t, 3, &loc));
	cr_assert_eq(loc.line, 20);
	/* diverge: threads 0-19 branch to L (pc 6), 20-63 run pc 4 and 5;
	 * thread 3's next step runs the bundles of the others first */
	for (int i = 0; i < 4; i++)
		cr_assert_eq(x.o->step(t, 0, &x.d), TGT_OK);
	tgt_sym s;
	cr_assert(x.o->lookup(t, "thread", &s));
	cr_assert(s.writable);
	cr_assert_eq(x.o->write(t, &s, 0, 3, &x.d), TGT_OK);
	cr_assert_eq(x.o->count(t, 1), 4);
	cr_assert(x.o->where(t, 1, &loc));
	cr_assert_eq(loc.line, 15, "%u: %s", loc.line, loc.what);
	cr_assert_not_null(strstr(loc.what, "thread 3 waits"), "%s", loc.what);
	cr_assert_eq(x.o->step(t, 1, &x.d), TGT_OK);
	cr_assert_eq(x.o->count(t, 1), 5);
	cr_assert_eq(x.o->count(t, 0), 7, "pc 4, 5 for 20-63, then pc 6 for 0-19");
	cr_assert(x.o->where(t, 2, &loc));
	cr_assert_eq(x.o->step(t, 2, &x.d), TGT_OK);
	cr_assert(x.o->ended(t));
	cr_assert_not(x.o->where(t, 0, &loc));
	closed(&x);
}

/* ---- snapshots ---- */

static void snap_case(const char *name, unsigned at)
{
	opened x, y;
	tgt *t = open_sample(&x, name, true);
	for (unsigned i = 0; i < at; i++)
		cr_assert_eq(x.o->step(t, 0, &x.d), TGT_OK, "%s", x.d.msg);
	tgt_snap *s = x.o->save(t, &x.d);
	cr_assert_not_null(s, "%s", x.d.msg);
	cr_assert_gt(x.o->snap_bytes(s), 0);
	cr_assert_eq(x.o->run(t, &x.d), TGT_OK, "%s", x.d.msg);
	/* a reference run, never saved */
	tgt *u = open_sample(&y, name, true);
	cr_assert_eq(y.o->run(u, &y.d), TGT_OK);
	assert_same(&x, &y);
	cr_assert_eq(x.o->restore(t, s, &x.d), TGT_OK, "%s", x.d.msg);
	cr_assert_not(x.o->ended(t));
	cr_assert_eq(x.o->count(t, 0), at);
	cr_assert_eq(x.o->run(t, &x.d), TGT_OK, "%s", x.d.msg);
	assert_same(&x, &y);
	x.o->snap_free(s);
	closed(&x);
	closed(&y);
}

Test(snap, mid_cta) { snap_case("vecadd.simt", 17); }
Test(snap, across_launches) { snap_case("bfs.simt", 150); }
Test(snap, spills) { snap_case("spill.simt", 40); }

/* ---- check ---- */

Test(check, wrong_register_named_with_its_store)
{
	opened x;
	tgt *t = open_sample(&x, "vecadd.simt", true);
	/* vecadd: pc 11 (line 20) adds into r11, pc 12 (line 21) stores it */
	for (int i = 0; i < 12; i++)
		cr_assert_eq(x.o->step(t, 0, &x.d), TGT_OK);
	tgt_sym th, r11;
	cr_assert(x.o->lookup(t, "thread", &th));
	cr_assert_eq(x.o->write(t, &th, 0, 5, &x.d), TGT_OK);
	cr_assert(x.o->lookup(t, "r11", &r11));
	cr_assert(r11.writable);
	cr_assert_eq(x.o->write(t, &r11, 0, 0x40000000, &x.d), TGT_OK); /* 2.0f */
	cr_assert_eq(x.o->check(t, &x.d), TGT_OK, "nothing stored yet: %s", x.d.msg);
	cr_assert_eq(x.o->run(t, &x.d), TGT_DIFFERS);
	const char *rep = x.o->report(t);
	cr_assert_not_null(rep);
	char want[1024];
	snprintf(want, sizeof want, "C[5]: got 2, expected ");
	cr_assert_eq(strncmp(rep, want, strlen(want)), 0, "%s", rep);
	snprintf(want, sizeof want,
		 "last written by %s:21:2: st.global.f32 [r4], r11 (kernel vecadd, bundle 12, CTA run 1)",
		 x.path);
	cr_assert_not_null(strstr(rep, want), "%s", rep);
	cr_assert_not_null(strstr(x.d.msg, "C[5]: got 2, expected"), "%s", x.d.msg);
	closed(&x);
}

Test(check, element_set_mid_run)
{
	opened x;
	tgt *t = open_sample(&x, "vecadd.simt", true);
	for (int i = 0; i < 13; i++)
		cr_assert_eq(x.o->step(t, 0, &x.d), TGT_OK);
	long c = tgt_array_find(x.o, t, "C");
	cr_assert_geq(c, 0);
	uint64_t zero = 0;
	cr_assert_eq(x.o->array_set(t, (size_t)c, 7, 1, &zero, &x.d), TGT_OK);
	/* CTA 0 has ended: the debugger's check sees it at once */
	cr_assert_eq(x.o->check(t, &x.d), TGT_DIFFERS);
	cr_assert(starts(x.o->report(t), "C[7]: got 0, expected "), "%s", x.o->report(t));
	cr_assert_not_null(strstr(x.o->report(t), "set from outside the program"), "%s",
			   x.o->report(t));
	cr_assert_eq(x.o->run(t, &x.d), TGT_DIFFERS);
	closed(&x);
}

Test(check, end_register)
{
	opened x;
	tgt *t = open_sample(&x, "diverge.simt", true);
	cr_assert_eq(x.o->run(t, &x.d), TGT_OK, "%s", x.d.msg);
	tgt_sym s;
	cr_assert(x.o->lookup(t, "t3.r2", &s));
	cr_assert_eq(x.o->read(t, &s, 0), (uint64_t)(3 - 20) & 0xffffffffu);
	cr_assert_eq(x.o->write(t, &s, 0, 9, &x.d), TGT_OK);
	cr_assert_eq(x.o->check(t, &x.d), TGT_DIFFERS);
	cr_assert(starts(x.o->report(t), "r2 of thread 3 of CTA 0: got 9, expected 4294967279 "),
		  "%s", x.o->report(t));
	closed(&x);
}

Test(check, load_reaches_the_reference)
{
	opened x;
	tgt *t = open_sample(&x, "vecadd.simt", true);
	long a = tgt_array_find(x.o, t, "A"), c = tgt_array_find(x.o, t, "C");
	tgt_array arr;
	x.o->array(t, (size_t)a, &arr);
	cr_assert_eq(arr.type.kind, TGT_F32);
	cr_assert_eq(arr.ndim, 1);
	cr_assert_eq(arr.shape[0], 2048);
	uint64_t *v = calloc(2048, sizeof *v);
	for (int i = 0; i < 2048; i++)
		v[i] = 0x3f800000; /* 1.0f */
	cr_assert_eq(x.o->array_set(t, (size_t)a, 0, 2048, v, &x.d), TGT_OK);
	cr_assert_eq(x.o->array_set(t, (size_t)a, 2000, 49, v, &x.d), TGT_FAILED);
	cr_assert_eq(x.o->run(t, &x.d), TGT_OK, "%s", x.d.msg);
	uint64_t b0, c0;
	x.o->array_get(t, (size_t)tgt_array_find(x.o, t, "B"), 0, 1, &b0);
	x.o->array_get(t, (size_t)c, 0, 1, &c0);
	float fb, fc;
	uint32_t ub = (uint32_t)b0, uc = (uint32_t)c0;
	memcpy(&fb, &ub, 4);
	memcpy(&fc, &uc, 4);
	cr_assert_eq(fc, fb + 1.0f);
	free(v);
	closed(&x);
}

/* ---- debug ---- */

Test(debug, breakpoints)
{
	opened x;
	tgt *t = open_sample(&x, "diverge.simt", false);
	tgt_bp bp;
	cr_assert_eq(x.o->break_parse(t, "pc 6", &bp, &x.d), TGT_OK, "%s", x.d.msg);
	cr_assert_str_eq(bp.what, "pc 6");
	unsigned n = 0;
	while (!x.o->break_hit(t, &bp)) {
		cr_assert_eq(x.o->step(t, 0, &x.d), TGT_OK);
		n++;
	}
	cr_assert_eq(n, 6, "pc 0-3, then 4 and 5 for threads 20-63");
	cr_assert_eq(x.o->break_parse(t, "thread 30", &bp, &x.d), TGT_OK);
	cr_assert_not(x.o->break_hit(t, &bp));
	cr_assert_eq(x.o->break_parse(t, "thread 10", &bp, &x.d), TGT_OK);
	cr_assert(x.o->break_hit(t, &bp));
	cr_assert_eq(x.o->break_parse(t, "bundle 6", &bp, &x.d), TGT_OK);
	cr_assert(x.o->break_hit(t, &bp));
	cr_assert_eq(x.o->break_parse(t, "15", &bp, &x.d), TGT_OK, "%s", x.d.msg);
	cr_assert(x.o->break_hit(t, &bp));
	cr_assert_eq(x.o->break_parse(t, "diverge.simt:18", &bp, &x.d), TGT_OK, "%s", x.d.msg);
	cr_assert_str_eq(bp.what, "diverge.simt:18");
	cr_assert_not(x.o->break_hit(t, &bp));
	char spec[600];
	snprintf(spec, sizeof spec, "%s:17", x.path);
	cr_assert_eq(x.o->break_parse(t, spec, &bp, &x.d), TGT_OK, "%s", x.d.msg);
	closed(&x);
}

Test(debug, values)
{
	opened x;
	tgt *t = open_sample(&x, "diverge.simt", false);
	for (int i = 0; i < 3; i++)
		cr_assert_eq(x.o->step(t, 0, &x.d), TGT_OK);
	tgt_sym s;
	cr_assert(x.o->lookup(t, "40.r0", &s));
	cr_assert_eq(x.o->read(t, &s, 0), 40);
	cr_assert(x.o->lookup(t, "t40.p0", &s));
	cr_assert_eq(x.o->read(t, &s, 0), 0);
	cr_assert(x.o->lookup(t, "t7.p0", &s));
	cr_assert_eq(x.o->read(t, &s, 0), 1);
	cr_assert(x.o->lookup(t, "%ntid", &s));
	cr_assert_eq(x.o->read(t, &s, 0), 64);
	cr_assert_not(s.writable);
	cr_assert_eq(x.o->write(t, &s, 0, 1, &x.d), TGT_FAILED);
	cr_assert(x.o->lookup(t, "r3", &s));
	cr_assert_eq(x.o->read(t, &s, 0), 0, "thread 0: r3 = 0 << 2");
	cr_assert(x.o->lookup(t, "O", &s));
	cr_assert(s.is_array);
	cr_assert_eq(s.length, 64);
	cr_assert_not(x.o->lookup(t, "r12", &s));
	cr_assert_not(x.o->lookup(t, "2000.r0", &s));
	cr_assert_not(x.o->lookup(t, "nosuch", &s));
	cr_assert(x.o->lookup(t, "thread", &s));
	diag_clear(&x.d);
	cr_assert_eq(x.o->write(t, &s, 0, 1024, &x.d), TGT_FAILED);
	cr_assert_str_eq(x.d.msg, "thread: expected 0 to 1023, not 1024");
	closed(&x);
}

static void count_name(void *ctx, const char *name)
{
	(void)name;
	++*(unsigned *)ctx;
}

Test(debug, infos_and_views)
{
	opened x;
	tgt *t = open_sample(&x, "diverge.simt", false);
	for (int i = 0; i < 5; i++)
		cr_assert_eq(x.o->step(t, 0, &x.d), TGT_OK);
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	for (const tgt_info *in = x.o->infos; in->name; in++)
		cr_assert_eq(in->show(t, "", f, &x.d), 0, "%s: %s", in->name, x.d.msg);
	cr_assert_eq(x.o->infos[0].show(t, "3", f, &x.d), 0);
	for (const tgt_view *v = x.o->views; v->name; v++)
		v->draw(t, f, 72, 12);
	fclose(f);
	cr_assert_not_null(strstr(buf, "issuing pc 5: 20-63 (44 threads)"), "%s", buf);
	cr_assert_not_null(strstr(buf, "waiting at pc 6: 0-19 (20 threads)"), "%s", buf);
	cr_assert_not_null(strstr(buf, "=>   5  bra L"), "%s", buf);
	cr_assert_not_null(strstr(buf, "thread 3 (TB 0, bitline 3) of CTA 0: waiting, at pc 6"), "%s", buf);
	cr_assert_not_null(strstr(buf, "jump   20-63 (44 threads)"), "an unguarded bra sends all: %s", buf);
	cr_assert_not_null(strstr(buf, "slot0  (0 threads)"), "%s", buf);
	free(buf);
	unsigned n = 0;
	x.o->names(t, count_name, &n);
	cr_assert_eq(n, 1 + 6 + SIMT_REGS + SIMT_PREDS + 1 + 4);
	closed(&x);
}

/* ---- options ---- */

static const tgt_option *option(const tgt_ops *o, const char *name)
{
	for (const tgt_option *p = o->options; p->name; p++)
		if (!strcmp(p->name, name))
			return p;
	cr_assert_fail("no option %s", name);
	return NULL;
}

Test(options, bundles_and_fig13)
{
	const tgt_ops *o = ops_of("x.simt");
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	tgt_optval ov[] = { { option(o, "bundles"), NULL } };
	tgt_load a = { .opts = ov, .nopts = 1, .out = f };
	opened x;
	cr_assert_not_null(open_with(&x, "vecadd_thread.simt", &a), "%s", x.d.msg);
	cr_assert_eq(x.o->run(x.t, &x.d), TGT_OK);
	cr_assert_eq(x.o->count(x.t, 0), 0, "--bundles does not run");
	closed(&x);
	tgt_optval fv[] = { { option(o, "fig13"), NULL } };
	tgt_load b = { .opts = fv, .nopts = 1, .out = f, .check = true };
	cr_assert_not_null(open_with(&x, "vecadd_thread.simt", &b), "%s", x.d.msg);
	cr_assert_eq(x.o->run(x.t, &x.d), TGT_OK, "%s", x.d.msg);
	closed(&x);
	fclose(f);
	cr_assert_not_null(strstr(buf, ".kernel vecadd\n"), "%s", buf);
	cr_assert_not_null(strstr(buf, "fig13: both translations match"), "%s", buf);
	cr_assert_not_null(strstr(buf, "serial / vliw: "), "%s", buf);
	free(buf);
}

/* --fig13 of a program with no .thread kernel would print two equal
 * rows: it is refused, saying why. */
Test(options, fig13_needs_a_thread_kernel)
{
	const tgt_ops *o = ops_of("x.simt");
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	tgt_optval fv[] = { { option(o, "fig13"), NULL } };
	tgt_load a = { .opts = fv, .nopts = 1, .out = f };
	opened x;
	cr_assert_null(open_with(&x, "vecadd.simt", &a));
	cr_assert_eq(x.st, TGT_USAGE);
	cr_assert_not_null(strstr(x.d.msg, "--fig13 compares the two translations of .thread "
				  "kernels, and "), "%s", x.d.msg);
	cr_assert_not_null(strstr(x.d.msg, "vecadd.simt has none"), "%s", x.d.msg);
	closed(&x);
	fclose(f);
	free(buf);
}

Test(options, mapping)
{
	const tgt_ops *o = ops_of("x.simt");
	double bundles[2];
	for (int i = 0; i < 2; i++) {
		tgt_setting s = { "mapping", i ? "serial" : "vliw", NULL, 0, 0 };
		tgt_optval ov[] = { { option(o, "mapping"), i ? "serial" : "vliw" } };
		tgt_load a = { .check = true };
		if (i) {
			a.opts = ov;
			a.nopts = 1;
		} else {
			a.settings = &s;
			a.nsettings = 1;
		}
		opened x;
		cr_assert_not_null(open_with(&x, "vecadd_thread.simt", &a), "%s", x.d.msg);
		cr_assert_eq(x.o->run(x.t, &x.d), TGT_OK, "%s", x.d.msg);
		bundles[i] = stat_of(&x, "totals.bundles");
		tgt_stat *root = tgt_stat_new();
		x.o->stats(x.t, root);
		const tgt_stat *m = tgt_stat_get(root, "machine.mapping");
		cr_assert_not_null(m);
		tgt_stat_free(root);
		closed(&x);
	}
	cr_assert_gt(bundles[1], bundles[0], "serial issues more bundles");
}

/* Fig 9's active CBs: a launch's CTAs over the CTAs a CB's 1024 threads
 * hold, however the machine packs them (vecadd: 8 CTAs of 256, 4 a CB). */
Test(stats, active_cbs)
{
	for (int i = 0; i < 2; i++) {
		tgt_setting s = { "ctas_per_cb", i ? "1" : "4", NULL, 0, 0 };
		tgt_load a = { .settings = &s, .nsettings = 1 };
		opened x;
		cr_assert_not_null(open_with(&x, "vecadd.simt", &a), "%s", x.d.msg);
		cr_assert_eq(x.o->run(x.t, &x.d), TGT_OK, "%s", x.d.msg);
		cr_expect_eq(stat_of(&x, "simt.active_cbs"), 2.0, "ctas_per_cb=%s: %g active CBs", s.value,
			     stat_of(&x, "simt.active_cbs"));
		closed(&x);
	}
}

/* ---- errors ---- */

static void open_fails(const char *name, tgt_load *a, tgt_status want, const char *msg)
{
	opened x;
	cr_assert_null(open_with(&x, name, a));
	cr_assert_eq(x.st, want);
	cr_assert_str_eq(x.d.msg, msg);
	closed(&x);
}

Test(errors, settings_and_options)
{
	const tgt_ops *o = ops_of("x.simt");
	tgt_setting bad = { "mapping", "foo", NULL, 0, 0 };
	tgt_load a = { .settings = &bad, .nsettings = 1 };
	open_fails("vecadd.simt", &a, TGT_USAGE, "-m mapping=foo: expected vliw or serial");
	tgt_setting key = { "cbs", "2", NULL, 0, 0 };
	a.settings = &key;
	open_fails("vecadd.simt", &a, TGT_USAGE,
		   "-m cbs=2: unknown setting (the SIMT mode's are mapping=vliw|serial and ctas_per_cb=N; the rest is the program's .machine line)");
	tgt_setting file = { "mapping", "x", "my.cfg", 3, 0 };
	a.settings = &file;
	open_fails("vecadd.simt", &a, TGT_USAGE, "my.cfg:3: error: mapping=x: expected vliw or serial");
	tgt_setting ctas = { "ctas_per_cb", "0", "my.cfg", 4, 0 };
	a.settings = &ctas;
	open_fails("vecadd.simt", &a, TGT_USAGE,
		   "my.cfg:4: error: ctas_per_cb=0: expected 1 to 1024 (the most CTAs a CB holds at once; default: as many as fit)");
	tgt_setting many = { "ctas_per_cb", "1025", NULL, 0, 0 };
	a.settings = &many;
	open_fails("vecadd.simt", &a, TGT_USAGE,
		   "-m ctas_per_cb=1025: expected 1 to 1024 (the most CTAs a CB holds at once; default: as many as fit)");
	tgt_optval ov[] = { { option(o, "mapping"), "wide" } };
	tgt_load b = { .opts = ov, .nopts = 1 };
	open_fails("vecadd.simt", &b, TGT_USAGE, "--mapping=wide: expected vliw or serial");
	tgt_optval bv[] = { { option(o, "bundles"), NULL } };
	tgt_load c = { .opts = bv, .nopts = 1 };
	open_fails("vecadd.simt", &c, TGT_USAGE,
		   "--bundles: prints text, and there is no output to print it to here");
	cr_assert_eq(o->can & TGT_CAN_DEFINE, 0);
	cr_assert_str_eq(o->why_not(TGT_CAN_DEFINE), "DC-PTX programs have no parameters");
	cr_assert_neq(o->can & TGT_CAN_CHECK, 0);
}

Test(errors, program)
{
	const tgt_ops *o = ops_of("bad.simt");
	static const char text[] = ".global A u32 4\n.kernel k\n\tfrob.u32 r0, r1\n.end\n";
	tgt_load a = { .path = "bad.simt", .text = text, .len = sizeof text - 1 };
	diag d;
	diag_clear(&d);
	tgt_status st;
	cr_assert_null(o->open(&a, &st, &d));
	cr_assert_eq(st, TGT_FAILED);
	cr_assert(starts(d.msg, "bad.simt:3:2: error: "), "%s", d.msg);
	/* a run-time error: a store outside the globals */
	static const char oob[] = ".global A u32 4\n.kernel k\n\tmov.u32 r0, 4096\n\tst.global.u32 [r0], r0\n.end\n.launch k 1 1\n";
	tgt_load b = { .path = "oob.simt", .text = oob, .len = sizeof oob - 1 };
	diag_clear(&d);
	tgt *t = o->open(&b, &st, &d);
	cr_assert_not_null(t, "%s", d.msg);
	cr_assert_eq(o->run(t, &d), TGT_FAILED);
	cr_assert(starts(d.msg, "oob.simt:4:2: error: "), "%s", d.msg);
	cr_assert(o->ended(t));
	o->close(t);
}

Test(errors, break_specs)
{
	opened x;
	tgt *t = open_sample(&x, "diverge.simt", false);
	tgt_bp bp;
	cr_assert_eq(x.o->break_parse(t, "foo", &bp, &x.d), TGT_FAILED);
	cr_assert_str_eq(x.d.msg, "break foo: expected FILE:LINE, LINE, bundle N, pc N or thread T");
	diag_clear(&x.d);
	cr_assert_eq(x.o->break_parse(t, "14", &bp, &x.d), TGT_FAILED);
	char want[700];
	snprintf(want, sizeof want, "%s:14: error: no bundle on line 14; the nearest line with one is 15",
		 x.path);
	cr_assert_str_eq(x.d.msg, want);
	diag_clear(&x.d);
	cr_assert_eq(x.o->break_parse(t, "other.simt:12", &bp, &x.d), TGT_FAILED);
	cr_assert(starts(x.d.msg, "break other.simt:12: no source file 'other.simt' (the program is "),
		  "%s", x.d.msg);
	diag_clear(&x.d);
	cr_assert_eq(x.o->break_parse(t, "pc 9", &bp, &x.d), TGT_FAILED);
	cr_assert_str_eq(x.d.msg, "break pc 9: expected a bundle index from 0 to 8");
	diag_clear(&x.d);
	cr_assert_eq(x.o->break_parse(t, "thread 1024", &bp, &x.d), TGT_FAILED);
	cr_assert_str_eq(x.d.msg, "break thread 1024: expected a thread from 0 to 1023");
	diag_clear(&x.d);
	cr_assert_eq(x.o->break_parse(t, "bundle x", &bp, &x.d), TGT_FAILED);
	cr_assert_str_eq(x.d.msg, "break bundle x: expected a bundle number (bundles issued before it)");
	closed(&x);
}
