/* SPDX-License-Identifier: MIT */
/*
 * test_target_ar.c: Active-Routing through the target interface only
 * (tgt_ar, emu/ar/target.c; doc/ACTIVE-ROUTING.md "As a target").
 *
 *   samples   every sample opens, runs and passes --check, under every
 *             root policy and both networks;
 *   stats     the tree holds the numbers ar_run's statistics hold, and
 *             right numbers mid-run (the old "cycles 0" bug);
 *   steps     a run by events or by Updates ends as run does;
 *   snap      save, run on, restore, run on: the same end;
 *   check     a wrong element is caught and named with its last writer;
 *   load      array_set before the run replaces the init= values;
 *   errors    bad settings, -D, options and breakpoints, exact messages;
 *   debug     breakpoints, where, lookup, infos.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ar.h"
#include "proc.h"
#include "target.h"

#define SAMPLES SRCDIR "/samples/ar/"

static const char *const samples[] = {
	"backprop.ar", "lud.ar", "mac.ar", "mac_f32.ar", "pagerank.ar", "rand_mac.ar",
	"rand_reduce.ar", "reduce.ar", "sgemm.ar", "spmv.ar",
};

typedef struct opened {
	const tgt_ops *ops;
	tgt *t;
	char *text;
	tgt_status st;
	diag d;
} opened;

static opened open_with(const char *file, bool check, const tgt_setting *set, size_t nset,
			const tgt_def *defs, size_t ndefs)
{
	opened o = { .st = TGT_OK };
	char path[512];
	size_t len;
	snprintf(path, sizeof path, SAMPLES "%s", file);
	o.text = proc_slurp(path, &len);
	cr_assert_not_null(o.text, "cannot read %s", path);
	o.ops = tgt_find(path, o.text, len);
	cr_assert_not_null(o.ops);
	cr_assert_str_eq(o.ops->name, "ar");
	diag_clear(&o.d);
	tgt_load a = { .path = path, .text = o.text, .len = len, .settings = set,
		       .nsettings = nset, .defs = defs, .ndefs = ndefs, .check = check };
	o.t = o.ops->open(&a, &o.st, &o.d);
	return o;
}

static opened open_sample(const char *file, bool check)
{
	opened o = open_with(file, check, NULL, 0, NULL, 0);
	cr_assert_not_null(o.t, "%s: %s", file, o.d.msg);
	return o;
}

static void close_opened(opened *o)
{
	o->ops->close(o->t);
	free(o->text);
}

/* The statistics as JSON text, to compare two runs whole. */
static char *stats_json(opened *o)
{
	tgt_stat *root = tgt_stat_new();
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	o->ops->stats(o->t, root);
	cr_assert_eq(tgt_stat_json(root, f), 0);
	fclose(f);
	tgt_stat_free(root);
	return buf;
}

/* Every element of every array, one after the other. */
static uint64_t *all_arrays(opened *o, size_t *n)
{
	size_t total = 0;
	for (size_t i = 0; i < o->ops->narrays(o->t); i++) {
		tgt_array a;
		o->ops->array(o->t, i, &a);
		total += a.length;
	}
	uint64_t *v = malloc(total * sizeof *v);
	size_t at = 0;
	for (size_t i = 0; i < o->ops->narrays(o->t); i++) {
		tgt_array a;
		o->ops->array(o->t, i, &a);
		o->ops->array_get(o->t, i, 0, a.length, v + at);
		at += a.length;
	}
	*n = total;
	return v;
}

static double stat_num(const tgt_stat *root, const char *path)
{
	const tgt_stat *s = tgt_stat_get(root, path);
	cr_assert_not_null(s, "no %s in the statistics", path);
	return tgt_stat_number(s);
}

/* The target, found as a front finds it. */
static const tgt_ops *ar_ops(void)
{
	const tgt_ops *ops = tgt_find("x.ar", "", 0);
	cr_assert_not_null(ops);
	return ops;
}

/* ---- samples ---- */

Test(samples, run_and_check)
{
	static const char *const roots[] = { "naive", "tid", "addr" };
	static const char *const nets[] = { "dragonfly", "mesh" };
	for (size_t s = 0; s < sizeof samples / sizeof samples[0]; s++)
		for (int r = 0; r < 3; r++)
			for (int n = 0; n < 2; n++) {
				tgt_setting set[2] = { { "root", roots[r], NULL, 0, 0 },
						       { "net", nets[n], NULL, 0, 0 } };
				opened o = open_with(samples[s], true, set, 2, NULL, 0);
				cr_assert_not_null(o.t, "%s: %s", samples[s], o.d.msg);
				tgt_status st = o.ops->run(o.t, &o.d);
				cr_expect_eq(st, TGT_OK, "%s root=%s net=%s: %d %s %s", samples[s],
					     roots[r], nets[n], st, o.d.msg,
					     o.ops->report(o.t) ? o.ops->report(o.t) : "");
				cr_expect(o.ops->ended(o.t));
				close_opened(&o);
			}
}

/* ---- stats ---- */

Test(stats, equal_the_report)
{
	const char *files[] = { "mac.ar", "pagerank.ar" };
	for (int k = 0; k < 2; k++) {
		opened o = open_sample(files[k], false);
		cr_assert_eq(o.ops->run(o.t, &o.d), TGT_OK, "%s", o.d.msg);
		tgt_stat *root = tgt_stat_new();
		o.ops->stats(o.t, root);
		/* the same program through the library's own run */
		ar_config c;
		ar_config_default(&c);
		diag d;
		diag_clear(&d);
		ar_program *p = ar_parse("x.ar", o.text, strlen(o.text), NULL, 0, &c, &d);
		cr_assert_not_null(p, "%s", d.msg);
		ar_stats st;
		cr_assert_eq(ar_run(p, &c, &st, &d), 0, "%s", d.msg);
		cr_expect_eq(stat_num(root, "totals.cycles"), (double)st.cycles);
		cr_expect_eq(stat_num(root, "totals.events"), (double)st.events);
		cr_expect_eq(stat_num(root, "totals.updates"), (double)st.updates_issued);
		cr_expect_eq(stat_num(root, "totals.updates_computed"), (double)st.updates_computed);
		cr_expect_eq(stat_num(root, "totals.element_ops"), (double)st.elem_ops);
		cr_expect_eq(stat_num(root, "totals.assignments"), (double)st.assigns);
		cr_expect_eq(stat_num(root, "totals.gathers"), (double)st.gathers);
		cr_expect_eq(stat_num(root, "totals.commits"), (double)st.commits);
		cr_expect_eq(stat_num(root, "trees.trees"), (double)st.trees);
		cr_expect_eq(stat_num(root, "trees.max_depth"), (double)st.max_depth);
		cr_expect_eq(stat_num(root, "trees.depth_sum"), (double)st.depth_sum);
		cr_expect_eq(stat_num(root, "host.active"), (double)st.host_active);
		cr_expect_eq(stat_num(root, "host.normal"), (double)st.host_normal);
		cr_expect_eq(stat_num(root, "stalls.table"), (double)st.stall_table);
		cr_expect_eq(stat_num(root, "stalls.buffer_cycles"), (double)st.stall_buffer_cycles);
		cr_expect_eq(stat_num(root, "stalls.max_buffers"), (double)st.max_buffers);
		cr_expect_eq(stat_num(root, "pei.byte_hops"), (double)st.pei_pk.byte_hops);
		cr_expect_eq(stat_num(root, "pei.host_active"), (double)st.pei_host_active);
		for (int t = 0; t < AR_PK_TYPES; t++) {
			char path[64];
			snprintf(path, sizeof path, "packets.%d.byte_hops", t);
			cr_expect_eq(stat_num(root, path), (double)st.pk[t].byte_hops, "%s", path);
			snprintf(path, sizeof path, "packets.%d.packets", t);
			cr_expect_eq(stat_num(root, path), (double)st.pk[t].packets, "%s", path);
		}
		for (int cube = 0; cube < AR_CUBES; cube++) {
			char path[64];
			snprintf(path, sizeof path, "cubes.%d.compute", cube);
			cr_expect_eq(stat_num(root, path), (double)st.cube_compute[cube], "%s", path);
			snprintf(path, sizeof path, "cubes.%d.operands", cube);
			cr_expect_eq(stat_num(root, path), (double)st.cube_operands[cube], "%s", path);
			snprintf(path, sizeof path, "cubes.%d.pei", cube);
			cr_expect_eq(stat_num(root, path), (double)st.pei_cube_compute[cube], "%s", path);
		}
		const tgt_stat *clean = tgt_stat_get(root, "end_state.clean");
		cr_expect_not_null(clean);
		cr_expect_str_eq(tgt_stat_get(root, "machine.root") ? "ok" : "", "ok");
		ar_program_free(p);
		tgt_stat_free(root);
		close_opened(&o);
	}
}

/* info stats at cycle 71 once said "cycles 0". */
Test(stats, right_mid_run)
{
	opened o = open_sample("mac.ar", false);
	for (int i = 0; i < 100; i++)
		cr_assert_eq(o.ops->step(o.t, 0, &o.d), TGT_OK, "%s", o.d.msg);
	tgt_sym cyc;
	cr_assert(o.ops->lookup(o.t, "cycles", &cyc));
	uint64_t now = o.ops->read(o.t, &cyc, 0);
	cr_assert_gt(now, 0);
	tgt_stat *root = tgt_stat_new();
	o.ops->stats(o.t, root);
	cr_expect_eq(stat_num(root, "totals.cycles"), (double)now);
	cr_expect_eq(stat_num(root, "totals.events"), 100);
	tgt_stat_free(root);
	close_opened(&o);
}

/* ---- steps ---- */

static void steps_equal_run(const char *file, unsigned unit)
{
	opened a = open_sample(file, true), b = open_sample(file, true);
	cr_assert_eq(a.ops->run(a.t, &a.d), TGT_OK, "%s", a.d.msg);
	uint64_t n = 0;
	while (!b.ops->ended(b.t)) {
		cr_assert_eq(b.ops->step(b.t, unit, &b.d), TGT_OK, "%s", b.d.msg);
		n++;
	}
	/* by Updates, one last step runs the commits after the last Update */
	uint64_t c = b.ops->count(b.t, unit);
	cr_expect(n == c || (unit == 1 && n == c + 1), "%s: %llu steps, count %llu", file,
		     (unsigned long long)n, (unsigned long long)b.ops->count(b.t, unit));
	cr_expect_eq(b.ops->check(b.t, &b.d), TGT_OK, "%s", b.d.msg);
	size_t na, nb;
	uint64_t *va = all_arrays(&a, &na), *vb = all_arrays(&b, &nb);
	cr_assert_eq(na, nb);
	cr_expect(!memcmp(va, vb, na * sizeof *va), "%s: the arrays differ", file);
	char *ja = stats_json(&a), *jb = stats_json(&b);
	cr_expect_str_eq(ja, jb);
	free(va);
	free(vb);
	free(ja);
	free(jb);
	close_opened(&a);
	close_opened(&b);
}

Test(steps, by_events_equal_run)
{
	steps_equal_run("mac_f32.ar", 0);
	steps_equal_run("lud.ar", 0);
}

Test(steps, by_updates_equal_run)
{
	steps_equal_run("pagerank.ar", 1);
	steps_equal_run("spmv.ar", 1);
}

Test(steps, an_update_is_one_more_computed)
{
	opened o = open_sample("mac.ar", false);
	cr_assert_eq(o.ops->step(o.t, 1, &o.d), TGT_OK);
	cr_expect_eq(o.ops->count(o.t, 1), 1);
	cr_assert_eq(o.ops->step(o.t, 1, &o.d), TGT_OK);
	cr_expect_eq(o.ops->count(o.t, 1), 2);
	close_opened(&o);
}

/* ---- snapshots ---- */

static void snap_round_trip(const char *file, unsigned at)
{
	opened o = open_sample(file, true);
	for (unsigned i = 0; i < at; i++)
		cr_assert_eq(o.ops->step(o.t, 0, &o.d), TGT_OK, "%s", o.d.msg);
	tgt_snap *s = o.ops->save(o.t, &o.d);
	cr_assert_not_null(s, "%s", o.d.msg);
	cr_expect_gt(o.ops->snap_bytes(s), 0);
	cr_assert_eq(o.ops->run(o.t, &o.d), TGT_OK, "%s", o.d.msg);
	size_t n1, n2;
	uint64_t *v1 = all_arrays(&o, &n1);
	char *j1 = stats_json(&o);
	cr_assert_eq(o.ops->restore(o.t, s, &o.d), TGT_OK, "%s", o.d.msg);
	cr_expect(!o.ops->ended(o.t));
	cr_expect_eq(o.ops->count(o.t, 0), at);
	cr_assert_eq(o.ops->run(o.t, &o.d), TGT_OK, "%s", o.d.msg);
	uint64_t *v2 = all_arrays(&o, &n2);
	char *j2 = stats_json(&o);
	cr_assert_eq(n1, n2);
	cr_expect(!memcmp(v1, v2, n1 * sizeof *v1), "%s: the arrays differ", file);
	cr_expect_str_eq(j1, j2);
	/* twice from the same snapshot */
	cr_assert_eq(o.ops->restore(o.t, s, &o.d), TGT_OK);
	cr_assert_eq(o.ops->run(o.t, &o.d), TGT_OK, "%s", o.d.msg);
	free(v2);
	v2 = all_arrays(&o, &n2);
	cr_expect(!memcmp(v1, v2, n1 * sizeof *v1));
	o.ops->snap_free(s);
	free(v1);
	free(v2);
	free(j1);
	free(j2);
	close_opened(&o);
}

Test(snap, restore_and_run_on)
{
	snap_round_trip("mac_f32.ar", 700);
	snap_round_trip("pagerank.ar", 5000);
	snap_round_trip("lud.ar", 0);
	/* with one entry and one buffer: packets wait in the queues */
	tgt_setting set[2] = { { "flow-entries", "1", NULL, 0, 0 }, { "buffers", "1", NULL, 0, 0 } };
	opened o = open_with("rand_mac.ar", true, set, 2, NULL, 0);
	cr_assert_not_null(o.t);
	for (int i = 0; i < 3000; i++)
		cr_assert_eq(o.ops->step(o.t, 0, &o.d), TGT_OK);
	tgt_snap *s = o.ops->save(o.t, &o.d);
	cr_assert_eq(o.ops->run(o.t, &o.d), TGT_OK, "%s", o.d.msg);
	char *j1 = stats_json(&o);
	cr_assert_eq(o.ops->restore(o.t, s, &o.d), TGT_OK);
	cr_assert_eq(o.ops->run(o.t, &o.d), TGT_OK, "%s", o.d.msg);
	char *j2 = stats_json(&o);
	cr_expect_str_eq(j1, j2);
	free(j1);
	free(j2);
	o.ops->snap_free(s);
	close_opened(&o);
}

/* ---- check ---- */

Test(check, catches_a_wrong_commit)
{
	opened o = open_sample("mac.ar", true);
	for (int i = 0; i < 200; i++)
		cr_assert_eq(o.ops->step(o.t, 0, &o.d), TGT_OK);
	/* the flow's commit adds to what S[0] holds: 5 more makes it wrong */
	tgt_sym s;
	cr_assert(o.ops->lookup(o.t, "S", &s));
	cr_assert(s.is_array && s.writable);
	cr_assert_eq(o.ops->write(o.t, &s, 0, 5, &o.d), TGT_OK);
	cr_assert_eq(o.ops->run(o.t, &o.d), TGT_DIFFERS);
	const char *rep = o.ops->report(o.t);
	cr_assert_not_null(rep);
	cr_expect(strstr(rep, "--check: S[0]: got ") != NULL, "%s", rep);
	uint64_t got = o.ops->read(o.t, &s, 0);
	char want[160];
	tgt_value_text(s.type, got - 5, want, sizeof want);
	char needle[200];
	snprintf(needle, sizeof needle, ", expected %s (1 element differs)", want);
	cr_expect(strstr(rep, needle) != NULL, "%s (%s)", rep, needle);
	cr_expect(strstr(rep, "last written by event ") != NULL, "%s", rep);
	cr_expect(strstr(rep, "the commit of its flow, whose first Update is the UpdateRR (mac) "
			      "at " SAMPLES "mac.ar:9") != NULL, "%s", rep);
	cr_expect(strstr(o.d.msg, "--check: S[0]: got ") != NULL, "%s", o.d.msg);
	close_opened(&o);
}

Test(check, names_an_assignment_and_a_front_write)
{
	opened o = open_sample("pagerank.ar", true);
	cr_assert_eq(o.ops->run(o.t, &o.d), TGT_OK, "%s", o.d.msg);
	cr_assert_eq(o.ops->check(o.t, &o.d), TGT_OK);
	/* PR[3] was last written by `UpdateII NP[v], nil, PR[v], mov` */
	long pr = tgt_array_find(o.ops, o.t, "PR");
	cr_assert_geq(pr, 0);
	uint64_t v;
	o.ops->array_get(o.t, (size_t)pr, 3, 1, &v);
	v ^= 1;
	cr_assert_eq(o.ops->array_set(o.t, (size_t)pr, 3, 1, &v, &o.d), TGT_OK);
	cr_assert_eq(o.ops->check(o.t, &o.d), TGT_DIFFERS);
	const char *rep = o.ops->report(o.t);
	cr_expect(strstr(rep, "PR[3]: got ") != NULL, "%s", rep);
	cr_expect(strstr(rep, "written from outside the machine") != NULL, "%s", rep);
	close_opened(&o);
	/* mid-run: an element is compared with the reference after as many
	 * stores as the machine made to it */
	o = open_sample("pagerank.ar", true);
	for (int i = 0; i < 20000; i++)
		cr_assert_eq(o.ops->step(o.t, 0, &o.d), TGT_OK);
	cr_expect_eq(o.ops->check(o.t, &o.d), TGT_OK, "%s", o.d.msg);
	close_opened(&o);
}

Test(check, catches_a_changed_input)
{
	opened o = open_sample("lud.ar", true);
	for (int i = 0; i < 50; i++)
		cr_assert_eq(o.ops->step(o.t, 0, &o.d), TGT_OK);
	tgt_sym a;
	cr_assert(o.ops->lookup(o.t, "A", &a));
	uint64_t v = o.ops->read(o.t, &a, 255) ^ 0x400000;
	cr_assert_eq(o.ops->write(o.t, &a, 255, v, &o.d), TGT_OK);
	cr_expect_eq(o.ops->check(o.t, &o.d), TGT_DIFFERS, "mid-run, at once");
	cr_assert_eq(o.ops->run(o.t, &o.d), TGT_DIFFERS);
	cr_expect(strstr(o.ops->report(o.t), "A[") != NULL);
	close_opened(&o);
}

/* ---- load: array_set before the run (what -l does) ---- */

Test(load, replaces_the_init_values)
{
	opened o = open_sample("mac.ar", true);
	long a = tgt_array_find(o.ops, o.t, "A"), b = tgt_array_find(o.ops, o.t, "B");
	cr_assert(a >= 0 && b >= 0);
	uint64_t *ones = malloc(4096 * sizeof *ones);
	for (int i = 0; i < 4096; i++)
		ones[i] = i % 2 ? 2 : (uint32_t)-1;
	cr_assert_eq(o.ops->array_set(o.t, (size_t)a, 0, 4096, ones, &o.d), TGT_OK);
	for (int i = 0; i < 4096; i++)
		ones[i] = 3;
	cr_assert_eq(o.ops->array_set(o.t, (size_t)b, 0, 4096, ones, &o.d), TGT_OK);
	cr_assert_eq(o.ops->run(o.t, &o.d), TGT_OK, "%s", o.d.msg);
	tgt_sym s;
	cr_assert(o.ops->lookup(o.t, "S", &s));
	/* 2048 pairs of (-1 * 3 + 2 * 3) */
	cr_expect_eq(o.ops->read(o.t, &s, 0), 2048u * 3u);
	free(ones);
	diag d;
	diag_clear(&d);
	uint64_t one = 1;
	cr_expect_eq(o.ops->array_set(o.t, (size_t)a, 4096, 1, &one, &d), TGT_USAGE);
	close_opened(&o);
}

/* ---- errors ---- */

static void open_fails(tgt_setting set, tgt_status want, const char *msg)
{
	opened o = open_with("mac.ar", false, &set, 1, NULL, 0);
	cr_expect_null(o.t);
	cr_expect_eq(o.st, want);
	cr_expect_str_eq(o.d.msg, msg);
	free(o.text);
}

Test(errors, settings)
{
	open_fails((tgt_setting){ "root", "foo", NULL, 0, 0 }, TGT_USAGE,
		   "-m root=foo: error: expected naive, tid or addr");
	open_fails((tgt_setting){ "net", "ring", NULL, 0, 0 }, TGT_USAGE,
		   "-m net=ring: error: expected dragonfly or mesh");
	open_fails((tgt_setting){ "interleave", "100", NULL, 0, 0 }, TGT_USAGE,
		   "-m interleave=100: error: expected a power of two");
	open_fails((tgt_setting){ "interleave", "32", NULL, 0, 0 }, TGT_USAGE,
		   "-m interleave=32: error: expected a number of at least 64");
	open_fails((tgt_setting){ "buffers", "0", NULL, 0, 0 }, TGT_USAGE,
		   "-m buffers=0: error: expected a number from 1 to 65536");
	open_fails((tgt_setting){ "flow-entries", "x", "my.cfg", 3, 0 }, TGT_USAGE,
		   "my.cfg:3: error: flow-entries=x: expected a number from 1 to 65536");
	open_fails((tgt_setting){ "colour", "red", NULL, 0, 0 }, TGT_USAGE,
		   "-m colour=red: error: unknown setting (expected root, net, interleave, "
		   "flow-entries, buffers, link-bytes, max-events or max-memory)");
	open_fails((tgt_setting){ "link-bytes", "4097", NULL, 0, 0 }, TGT_USAGE,
		   "-m link-bytes=4097: error: expected a number from 0 to 4096");
	open_fails((tgt_setting){ "link-bytes", "-1", "my.cfg", 2, 0 }, TGT_USAGE,
		   "my.cfg:2: error: link-bytes=-1: expected a number from 0 to 4096");
}

Test(errors, defines_and_options)
{
	tgt_def bad = { "FOO", 3 };
	opened o = open_with("mac.ar", false, NULL, 0, &bad, 1);
	cr_expect_null(o.t);
	cr_expect_eq(o.st, TGT_USAGE);
	cr_expect_str_eq(o.d.msg, SAMPLES "mac.ar: error: -D FOO=3: the program has no such param");
	free(o.text);
	tgt_def n = { "N", 64 };
	o = open_with("mac.ar", true, NULL, 0, &n, 1);
	cr_assert_not_null(o.t, "%s", o.d.msg);
	cr_expect_eq(o.ops->run(o.t, &o.d), TGT_OK, "%s", o.d.msg);
	cr_expect_eq(o.ops->count(o.t, 1), 4, "-D N=64: 4 blocks");
	close_opened(&o);
	/* --heatmap with no file, and one in a folder that is not there */
	const tgt_option *hm = NULL;
	for (const tgt_option *p = ar_ops()->options; p->name; p++)
		hm = strcmp(p->name, "heatmap") ? hm : p;
	cr_assert_not_null(hm);
	char path[512];
	size_t len;
	snprintf(path, sizeof path, SAMPLES "mac.ar");
	char *text = proc_slurp(path, &len);
	tgt_optval ov = { hm, "" };
	tgt_load a = { .path = path, .text = text, .len = len, .opts = &ov, .nopts = 1 };
	tgt_status st;
	diag d;
	diag_clear(&d);
	cr_expect_null(ar_ops()->open(&a, &st, &d));
	cr_expect_eq(st, TGT_USAGE);
	cr_expect_str_eq(d.msg, "--heatmap: error: expected a file name (FILE.svg)");
	ov.value = "/nonexistent-dir/x.svg";
	diag_clear(&d);
	cr_expect_null(ar_ops()->open(&a, &st, &d));
	cr_expect_eq(st, TGT_FAILED);
	/* and one that is written after the run */
	char svg[] = "/tmp/test_target_ar_XXXXXX.svg";
	int fd = mkstemps(svg, 4);
	cr_assert_geq(fd, 0);
	fclose(fdopen(fd, "w"));
	ov.value = svg;
	diag_clear(&d);
	tgt *t = ar_ops()->open(&a, &st, &d);
	cr_assert_not_null(t, "%s", d.msg);
	cr_expect_eq(ar_ops()->run(t, &d), TGT_OK, "%s", d.msg);
	char *pic = proc_slurp(svg, NULL);
	cr_expect(pic && strstr(pic, "<svg") && strstr(pic, "compute points"));
	free(pic);
	remove(svg);
	ar_ops()->close(t);
	free(text);
}

Test(errors, a_bad_program)
{
	const char *text = "array A i32 4\nUpdateRR A[0], nil, B[0], sum\n";
	tgt_load a = { .path = "bad.ar", .text = text, .len = strlen(text) };
	tgt_status st;
	diag d;
	diag_clear(&d);
	cr_expect_null(ar_ops()->open(&a, &st, &d));
	cr_expect_eq(st, TGT_FAILED);
	cr_expect(strncmp(d.msg, "bad.ar:2:", 9) == 0, "%s", d.msg);
}

Test(errors, breakpoints)
{
	opened o = open_sample("mac.ar", false);
	tgt_bp bp;
	diag d;
	diag_clear(&d);
	cr_expect_eq(o.ops->break_parse(o.t, "7", &bp, &d), TGT_USAGE);
	cr_expect_str_eq(d.msg, SAMPLES "mac.ar:7: error: no Update, assignment or Gather on this "
			 "line; the nearest is on line 9");
	diag_clear(&d);
	cr_expect_eq(o.ops->break_parse(o.t, "other.ar:9", &bp, &d), TGT_USAGE);
	cr_expect_str_eq(d.msg, "other.ar:9: error: not this program's file (" SAMPLES "mac.ar)");
	diag_clear(&d);
	cr_expect_eq(o.ops->break_parse(o.t, "cube 16", &bp, &d), TGT_USAGE);
	cr_expect_str_eq(d.msg, "cube 16: error: expected a cube from 0 to 15");
	diag_clear(&d);
	cr_expect_eq(o.ops->break_parse(o.t, "wherever", &bp, &d), TGT_USAGE);
	cr_expect_str_eq(d.msg, "wherever: error: expected LINE, FILE:LINE, event N, cycle N, "
			 "cube N or flow ARRAY[INDEX]");
	diag_clear(&d);
	cr_expect_eq(o.ops->break_parse(o.t, "flow Q[0]", &bp, &d), TGT_USAGE);
	cr_expect_str_eq(d.msg, "Q[0]: error: no such array");
	close_opened(&o);
}

/* ---- debug ---- */

/* Steps until bp hits (before an event); the events run. */
static uint64_t run_to(opened *o, const char *spec)
{
	tgt_bp bp;
	cr_assert_eq(o->ops->break_parse(o->t, spec, &bp, &o->d), TGT_OK, "%s", o->d.msg);
	while (!o->ops->ended(o->t) && !o->ops->break_hit(o->t, &bp))
		cr_assert_eq(o->ops->step(o->t, 0, &o->d), TGT_OK);
	cr_assert(!o->ops->ended(o->t), "%s never hit", spec);
	return o->ops->count(o->t, 0);
}

Test(debug, breakpoints_hit)
{
	opened o = open_sample("mac.ar", false);
	cr_expect_eq(run_to(&o, "event 40"), 40);
	tgt_loc loc;
	cr_assert(o.ops->where(o.t, 0, &loc));
	cr_expect_eq(loc.index, 40);
	run_to(&o, "cycle 71");
	tgt_sym cyc;
	cr_assert(o.ops->lookup(o.t, "cycles", &cyc));
	cr_expect_lt(o.ops->read(o.t, &cyc, 0), 71);
	o.ops->step(o.t, 0, &o.d);
	cr_expect_geq(o.ops->read(o.t, &cyc, 0), 71);
	run_to(&o, "cube 5");
	cr_assert(o.ops->where(o.t, 0, &loc));
	cr_expect(strstr(loc.what, "cube 5") != NULL, "%s", loc.what);
	run_to(&o, "mac.ar:9");
	cr_assert(o.ops->where(o.t, 1, &loc));
	cr_expect_eq(loc.line, 9);
	cr_expect(strncmp(loc.what, "UpdateRR A[i], B[i], S[0], mac (thread ", 39) == 0, "%s",
		  loc.what);
	run_to(&o, "11");  /* the Gather's request enters a tree */
	cr_assert(o.ops->where(o.t, 0, &loc));
	cr_expect(strstr(loc.what, "receives the Gather of S[0]") != NULL, "%s", loc.what);
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	const tgt_info *pi = NULL, *fi = NULL;
	for (const tgt_info *i = o.ops->infos; i->name; i++) {
		pi = strcmp(i->name, "partials") ? pi : i;
		fi = strcmp(i->name, "flows") ? fi : i;
	}
	cr_assert(pi && fi);
	cr_expect_eq(pi->show(o.t, "S[0]", f, &o.d), 0, "%s", o.d.msg);
	cr_expect_eq(fi->show(o.t, "", f, &o.d), 0);
	fclose(f);
	cr_expect(strstr(buf, "S[0]: mac flow, 256 Updates issued, gathering") != NULL, "%s", buf);
	cr_expect(strstr(buf, "cube 0: ") != NULL, "%s", buf);
	free(buf);
	diag_clear(&o.d);
	f = open_memstream(&buf, &n);
	cr_expect_eq(pi->show(o.t, "A[0]", f, &o.d), -1);
	fclose(f);
	free(buf);
	close_opened(&o);
}

static void count_name(void *ctx, const char *name)
{
	(void)name;
	++*(int *)ctx;
}

Test(debug, names_and_scalars)
{
	opened o = open_sample("mac.ar", false);
	int n = 0;
	o.ops->names(o.t, count_name, &n);
	cr_expect_eq(n, 3 + 7);
	tgt_sym s;
	cr_assert(o.ops->lookup(o.t, "events", &s));
	cr_expect(!s.is_array && !s.writable);
	cr_expect_eq(o.ops->write(o.t, &s, 0, 3, &o.d), TGT_USAGE);
	cr_assert_eq(o.ops->run(o.t, &o.d), TGT_OK);
	cr_expect_eq(o.ops->read(o.t, &s, 0), o.ops->count(o.t, 0));
	cr_assert(o.ops->lookup(o.t, "updates", &s));
	cr_expect_eq(o.ops->read(o.t, &s, 0), 256);
	cr_expect(!o.ops->lookup(o.t, "nothing", &s));
	cr_expect_str_eq(o.ops->source(o.t), SAMPLES "mac.ar");
	tgt_array a;
	o.ops->array(o.t, 0, &a);
	cr_expect_str_eq(a.name, "A");
	cr_expect_eq(a.type.kind, TGT_INT);
	cr_expect_eq(a.type.width, 32);
	cr_expect_eq(a.length, 4096);
	close_opened(&o);
}
