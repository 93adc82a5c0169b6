/* SPDX-License-Identifier: MIT */
/*
 * test_stats_tree.c: the statistics tree (emu/target/stats.c) and the
 * in-cache machine's statistics as that tree (emu/report/tree.c): every
 * number of `--stats=json` (emu_report_stats_json_paper) is at the same
 * path of the tree's JSON, and the text form folds alike bank rows.
 */
#include <criterion/criterion.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine.h"
#include "move.h"
#include "paper.h"
#include "stats.h"
#include "tdfg.h"

/* What f wrote, NUL-terminated; f is a memstream of *buf. */
static char *closed(FILE *f, char **buf)
{
	cr_assert_eq(fclose(f), 0);
	return *buf;
}

static char *tree_json(const tgt_stat *root)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	cr_assert_not_null(f);
	cr_assert_eq(tgt_stat_json(root, f), 0);
	return closed(f, &buf);
}

static char *tree_text(const tgt_stat *root, bool full)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	cr_assert_not_null(f);
	cr_assert_eq(tgt_stat_text(root, f, full), 0);
	return closed(f, &buf);
}

static json_object *parse(const char *text)
{
	json_object *o = json_tokener_parse(text);
	cr_assert_not_null(o, "not JSON:\n%s", text);
	return o;
}

static bool is_num(json_object *o)
{
	return json_object_is_type(o, json_type_int) || json_object_is_type(o, json_type_double);
}

/* Everything in old is in new at the same path, numbers equal as numbers
 * (the old JSON writes 16 where the tree writes the real 16.0); new may
 * have keys old lacks, not fewer rows nor other values. */
static void same(json_object *old, json_object *new, const char *path)
{
	cr_assert_not_null(new, "%s: missing", path);
	if (is_num(old)) {
		cr_assert(is_num(new), "%s: not a number", path);
		cr_assert_eq(json_object_get_double(old), json_object_get_double(new),
			     "%s: %.17g, the tree %.17g", path, json_object_get_double(old),
			     json_object_get_double(new));
		return;
	}
	cr_assert_eq(json_object_get_type(old), json_object_get_type(new), "%s: types differ", path);
	char sub[512];
	switch (json_object_get_type(old)) {
	case json_type_object: {
		json_object_object_foreach(old, k, v) {
			json_object *w = NULL;
			snprintf(sub, sizeof sub, "%s.%s", path, k);
			cr_assert(json_object_object_get_ex(new, k, &w), "%s: missing", sub);
			same(v, w, sub);
		}
		return;
	}
	case json_type_array: {
		const size_t n = json_object_array_length(old);
		cr_assert_eq(n, json_object_array_length(new), "%s: %zu rows, the tree %zu", path, n,
			     json_object_array_length(new));
		for (size_t i = 0; i < n; i++) {
			snprintf(sub, sizeof sub, "%s[%zu]", path, i);
			same(json_object_array_get_idx(old, i), json_object_array_get_idx(new, i), sub);
		}
		return;
	}
	case json_type_string:
		cr_assert_str_eq(json_object_get_string(old), json_object_get_string(new), "%s", path);
		return;
	case json_type_boolean:
		cr_assert_eq(json_object_get_boolean(old), json_object_get_boolean(new), "%s", path);
		return;
	default:
		return;
	}
}

/* A run of program p, each command's cycles measured as `infsim run`
 * measures them, and its paper statistics. */
typedef struct run {
	emu_machine *em;
	emu_cmd_cycles *cc;
	emu_paper pp;
} run;

static void run_program(run *r, const emu_program *p)
{
	diag d;
	diag_clear(&d);
	r->em = emu_machine_new(p, &d);
	cr_assert_not_null(r->em, "%s", d.msg);
	cr_assert_eq(emu_init_buffers(r->em, &d), 0, "%s", d.msg);
	const emu_stats *st = &r->em->st;
	r->cc = calloc(p->ncmds + 1, sizeof *r->cc);
	uint64_t *before = calloc(st->nbanks, sizeof *before);
	cr_assert(r->cc && before);
	for (size_t i = 0; i < p->ncmds; i++) {
		const uint64_t base = st->base_cycles, cycles = st->total.cycles;
		for (unsigned b = 0; b < st->nbanks; b++)
			before[b] = st->by_bank[b].cycles;
		cr_assert_eq(emu_run_cmd(r->em, &d), 0, "%s", d.msg);
		emu_cmd_cycles *c = &r->cc[i];
		c->baseline = st->base_cycles - base;
		c->cycles = c->shortest = st->total.cycles - cycles;
		for (unsigned b = 0; b < st->nbanks; b++) {
			if (!r->em->bank_on[b])
				continue;
			const uint64_t t = st->by_bank[b].cycles - before[b];
			c->shortest = t < c->shortest ? t : c->shortest;
			c->banks++;
		}
	}
	free(before);
	emu_paper_collect(&r->pp, r->em, r->cc, p->ncmds, NULL, 0);
}

static void run_free(run *r)
{
	emu_paper_free(&r->pp);
	free(r->cc);
	emu_machine_free(r->em);
}

/* The old JSON against the tree's, and the tree's text. */
static tgt_stat *compare(const run *r, const emu_program *p)
{
	char *old = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&old, &len);
	cr_assert_not_null(f);
	emu_report_stats_json_paper(f, r->em, r->cc, p->ncmds, &r->pp);
	closed(f, &old);
	tgt_stat *root = tgt_stat_new();
	cr_assert_not_null(root);
	tgt_stat_str(root, "format", "infsim-stats 1", "format");
	emu_report_stats_tree(root, r->em, r->cc, p->ncmds, &r->pp, EMU_TREE_COMMANDS);
	char *new = tree_json(root);
	json_object *a = parse(old), *b = parse(new);
	same(a, b, "");
	json_object_put(a);
	json_object_put(b);
	free(old);
	free(new);
	return root;
}

static void has(const char *text, const char *want)
{
	cr_assert(strstr(text, want), "wanted '%s' in:\n%s", want, text);
}

/* samples/vadd_i32.ins run: one add over the 64 banks, every bank alike. */
static void run_vadd(run *r, emu_program *p)
{
	const sram_geom g = sram_geom_default();
	diag d;
	diag_clear(&d);
	cr_assert_eq(emu_parse_file(SRCDIR "/samples/vadd_i32.ins", &g, p, &d), 0, "%s", d.msg);
	cr_assert_eq(emu_program_lower(p, &d), 0, "%s", d.msg);
	run_program(r, p);
}

/* The stream's JSON, and its banks folded in the short text only. */
Test(stats_tree, stream_matches_json_and_folds_banks)
{
	emu_program p;
	run r = {0};
	run_vadd(&r, &p);
	tgt_stat *root = compare(&r, &p);
	cr_assert_eq(tgt_stat_number(tgt_stat_get(root, "totals.cycles")), 32);
	cr_assert_eq(tgt_stat_number(tgt_stat_get(root, "by_bank.63.bank")), 63);
	cr_assert_eq(tgt_stat_number(tgt_stat_get(root, "paper.cycles.transpose")), 4096);

	char *text = tree_text(root, false);
	has(text, "\n  0-63  0-7  0-7      32     32      32         32           64\n");
	cr_assert_null(strstr(text, "\n  1     1    0  "), "%s", text);
	has(text, "by command:\n");
	has(text, "add.i32 c, a, b @ arrays=0:4:4096 bitlines=0:1:256\n");
	free(text);
	text = tree_text(root, true);
	for (unsigned b = 0; b < 64; b++) {
		char row[32];
		snprintf(row, sizeof row, "\n  %-4u  %u  %u  ", b, b % 8, b / 8);
		has(text, row);
	}
	cr_assert_null(strstr(text, "0-63"), "%s", text);
	free(text);
	tgt_stat_free(root);
	run_free(&r);
	emu_program_free(&p);
}

/* The README's run: the short text fits a screen. */
Test(stats_tree, stream_text_is_short)
{
	emu_program p;
	run r = {0};
	run_vadd(&r, &p);
	tgt_stat *root = tgt_stat_new();
	emu_report_stats_tree(root, r.em, r.cc, p.ncmds, &r.pp, 0);
	cr_assert_null(tgt_stat_get(root, "commands"));
	char *text = tree_text(root, false);
	size_t lines = 0;
	for (const char *c = text; *c; c++)
		lines += *c == '\n';
	cr_assert_leq(lines, 36, "%zu lines:\n%s", lines, text);
	free(text);
	tgt_stat_free(root);
	run_free(&r);
	emu_program_free(&p);
}

/* A tDFG's lowered stream, with moves, and the paper's groups, Eq. 2
 * and streams filled as `infsim run` fills them. */
Test(stats_tree, tdfg_matches_json)
{
	emu_tdfg t;
	emu_jit j;
	diag d;
	diag_clear(&d);
	emu_tdfg_init(&t);
	cr_assert_eq(emu_tdfg_load(SRCDIR "/samples/tdfg/stencil2d.tdfg", NULL, &t, &j, &d), 0,
		     "%s", d.msg);
	run r = {0};
	run_program(&r, &j.prog);
	cr_assert_gt(r.em->st.move_commands, 0);
	const uint64_t bytes[3] = {1, 2, 3}, hops[3] = {4, 5, 6};
	emu_paper_streams(&r.pp, 7, 8, 9, bytes, hops);
	/* (the old JSON writes a region's name unescaped: a plain one) */
	const struct emu_paper_eq2 e = {.region = "step", .line = 12, .n_elem = 2048,
		.n_op = 4, .tp_core = 16, .core = 512.5, .lat_ops = 5728, .n_node = 10,
		.lat_jit = 1000, .mem = 15728, .in_memory = true};
	cr_assert_eq(emu_paper_eq2_add(&r.pp, &e), 0);
	for (size_t i = 0; i < j.prog.ncmds; i++) {
		cr_assert_eq(emu_paper_group_add(&r.pp.regions, &r.pp.nregions, 0, "step",
						 r.cc[i].cycles), 0);
		cr_assert_eq(emu_paper_group_add(&r.pp.nodes, &r.pp.nnodes, 2 + i % 3,
						 i % 3 ? "15: s1" : "14: w", r.cc[i].cycles), 0);
	}
	r.pp.regions[0].runs = 10;
	tgt_stat *root = compare(&r, &j.prog);
	cr_assert_eq(tgt_stat_number(tgt_stat_get(root, "paper.eq2.0.core_cycles")), 512.5);
	cr_assert_eq(tgt_stat_number(tgt_stat_get(root, "paper.cycles.mix")),
		     r.pp.cycles[EMU_PAPER_MIX]);
	cr_assert_gt(tgt_stat_number(tgt_stat_get(root, "movement.noc_bytes")), 0);
	char *text = tree_text(root, false);
	has(text, "movement:\n");
	has(text, "traffic (Figs 12, 13):\n");
	has(text, "by node (line: name):\n");
	free(text);
	tgt_stat_free(root);
	run_free(&r);
	emu_jit_free(&j);
	emu_tdfg_free(&t);
}

/* ---- stats.c itself ---- */

/* Banks 0-3 alike, 4 not, 5-6 alike again: three rows; a gap in the
 * first column or a name column (strings) does not fold. */
Test(stats_tree, folding)
{
	tgt_stat *root = tgt_stat_new();
	tgt_stat *l = tgt_stat_list(root, "by_bank", "by bank", TGT_STAT_INDEX(2));
	const unsigned bank[] = {0, 1, 2, 3, 4, 5, 6, 8}, cyc[] = {5, 5, 5, 5, 6, 7, 7, 7};
	for (unsigned i = 0; i < 8; i++) {
		tgt_stat *r = tgt_stat_row(l);
		tgt_stat_uint(r, "bank", bank[i], NULL);
		tgt_stat_uint(r, "x", bank[i] % 2, NULL);
		tgt_stat_uint(r, "cycles", cyc[i], NULL);
	}
	tgt_stat *ops = tgt_stat_list(root, "ops", NULL, 0);
	for (unsigned i = 0; i < 2; i++) {
		tgt_stat *r = tgt_stat_row(ops);
		tgt_stat_str(r, "name", i ? "sub" : "add", NULL);
		tgt_stat_uint(r, "n", 1, NULL);
	}
	char *text = tree_text(root, false);
	cr_assert_str_eq(text, "by bank:\n"
			 "  bank  x    cycles\n"
			 "  0-3   0-1       5\n"
			 "  4     0         6\n"
			 "  5-6   0-1       7\n"
			 "  8     0         7\n"
			 "ops:\n"
			 "  name  n\n"
			 "  add   1\n"
			 "  sub   1\n");
	free(text);
	text = tree_text(root, true);
	cr_assert_null(strstr(text, "-"), "%s", text);
	free(text);
	tgt_stat_free(root);
}

/* A detail list shows its first rows in the short form, every row in
 * the full one. */
Test(stats_tree, detail_rows)
{
	tgt_stat *root = tgt_stat_new();
	tgt_stat *l = tgt_stat_list(root, "cubes", NULL, TGT_STAT_DETAIL);
	for (unsigned i = 0; i < 20; i++) {
		tgt_stat *r = tgt_stat_row(l);
		tgt_stat_uint(r, "cube", i, NULL);
		tgt_stat_uint(r, "ops", i, NULL);
	}
	char *text = tree_text(root, false);
	has(text, "\n  7       7\n  ... 12 more rows");
	cr_assert_null(strstr(text, "\n  8 "), "%s", text);
	free(text);
	text = tree_text(root, true);
	has(text, "\n  19     19\n");
	free(text);
	tgt_stat_free(root);
}

/* A key given twice replaces, whatever it held, and the JSON has it once. */
Test(stats_tree, key_twice_replaces)
{
	tgt_stat *root = tgt_stat_new();
	tgt_stat_uint(root, "a", 1, "first");
	tgt_stat_str(root, "a", "two", "second");
	tgt_stat_list(root, "l", NULL, 0);
	tgt_stat_uint(tgt_stat_row((tgt_stat *)tgt_stat_get(root, "l")), "x", 1, NULL);
	tgt_stat_list(root, "l", NULL, 0);
	tgt_stat_uint(tgt_stat_group(root, "g", NULL), "v", 1, NULL);
	tgt_stat_uint(tgt_stat_group(root, "g", NULL), "w", 2, NULL);
	tgt_stat_real(root, "g2", 1.5, NULL);
	tgt_stat_uint(tgt_stat_group(root, "g2", NULL), "v", 3, NULL);
	char *json = tree_json(root);
	cr_assert_str_eq(json, "{\n  \"a\": \"two\",\n  \"l\": [],\n  \"g\": {\n    \"v\": 1,\n"
			 "    \"w\": 2\n  },\n  \"g2\": {\n    \"v\": 3\n  }\n}\n");
	free(json);
	char *text = tree_text(root, false);
	has(text, "second  two\n");
	cr_assert_null(strstr(text, "first"), "%s", text);
	free(text);
	tgt_stat_free(root);
}

/* Quotes, a backslash and a newline in a string and in a key; json-c
 * reads back the very bytes. */
Test(stats_tree, json_escapes)
{
	tgt_stat *root = tgt_stat_new();
	const char *s = "say \"hi\"\\\nbye\t";
	tgt_stat_str(root, "text", s, NULL);
	tgt_stat_uint(root, "k\"ey\n", 1, NULL);
	char *json = tree_json(root);
	has(json, "\"say \\\"hi\\\"\\\\\\u000abye\\u0009\"");
	json_object *o = parse(json), *v;
	cr_assert(json_object_object_get_ex(o, "text", &v));
	cr_assert_str_eq(json_object_get_string(v), s);
	cr_assert(json_object_object_get_ex(o, "k\"ey\n", &v));
	cr_assert_eq(json_object_get_int(v), 1);
	json_object_put(o);
	free(json);
	tgt_stat_free(root);
}

/* Reals read back to the same double, stay reals, and NaN is null. */
Test(stats_tree, reals_read_back)
{
	const double r[] = {0.1, 1.0 / 3, 1e300, -2.5e-300, 5e-324, 16, -0.0, 123456789.125};
	tgt_stat *root = tgt_stat_new();
	tgt_stat *l = tgt_stat_list(root, "r", NULL, 0);
	for (unsigned i = 0; i < sizeof r / sizeof r[0]; i++)
		tgt_stat_real(tgt_stat_row(l), "v", r[i], NULL);
	tgt_stat_real(root, "nan", NAN, NULL);
	char *json = tree_json(root);
	has(json, "\"v\": 16.0\n");
	has(json, "\"nan\": null");
	json_object *o = parse(json), *a;
	cr_assert(json_object_object_get_ex(o, "r", &a));
	for (unsigned i = 0; i < sizeof r / sizeof r[0]; i++) {
		json_object *v;
		cr_assert(json_object_object_get_ex(json_object_array_get_idx(a, i), "v", &v));
		cr_assert(json_object_is_type(v, json_type_double), "%u", i);
		cr_assert_eq(json_object_get_double(v), r[i], "%.17g", r[i]);
		char path[16];
		snprintf(path, sizeof path, "r.%u.v", i);
		cr_assert_eq(tgt_stat_number(tgt_stat_get(root, path)), r[i]);
	}
	cr_assert(isnan(tgt_stat_number(tgt_stat_get(root, "r.8.v"))));
	json_object_put(o);
	free(json);
	tgt_stat_free(root);
}

/* An empty list and an empty group are [] and {}; their text says so. */
Test(stats_tree, empty_list)
{
	tgt_stat *root = tgt_stat_new();
	tgt_stat_list(root, "rows", "rows", TGT_STAT_DETAIL);
	tgt_stat_group(root, "g", NULL);
	const uint64_t none[1] = {0};
	tgt_stat_uints(root, "levels", none, 0, NULL);
	char *json = tree_json(root);
	cr_assert_str_eq(json, "{\n  \"rows\": [],\n  \"g\": {},\n  \"levels\": []\n}\n");
	free(json);
	char *text = tree_text(root, false);
	has(text, "rows: none\n");
	free(text);
	tgt_stat_free(root);
}
