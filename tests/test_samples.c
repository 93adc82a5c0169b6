/* SPDX-License-Identifier: MIT */
/*
 * test_samples.c: the sample streams, run as a user runs them.
 *
 * Every .ins stream and .tdfg program (samples/tdfg: lowered by the JIT,
 * and --check then compares each node too) under samples/ (in every folder) goes through the
 * built infsim (INFSIM_BIN) with --check in the four controller settings, fp=ftz|ieee x
 * latency=baseline|optimised (-m overrides a sample's own machine line);
 * a sample with a buffer of more than 65536 elements (the 1M-element
 * ones) runs in one setting only, to keep `make check` short.  The
 * samples under samples/fp/ must together run every floating-point,
 * conversion, search and CORDIC command of isa/opcodes.def.  Then the
 * per-command statistics: `--stats=commands` and the "commands" list of
 * `--stats=json` (baseline cycles, the cycles each command ran with, its
 * shortest bank's) must add up to the run's totals.
 */
#include <criterion/criterion.h>

#include "proc.h"
#include "stats_json.h"

#include <dirent.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "isa.h"

#define SAMPLES SRCDIR "/samples"
#define BIG_ELEMENTS 65536
#define MAX_SAMPLES 256

/* ---- finding the samples ---- */

typedef struct sample_list {
	char *path[MAX_SAMPLES];
	size_t n;
} sample_list;

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && !strcmp(s + n - k, suffix);
}

/* Every *.ins and *.tdfg under dir, recursively (hidden entries skipped). */
static void find_streams(const char *dir, sample_list *l)
{
	DIR *d = opendir(dir);
	cr_assert_not_null(d, "cannot open %s", dir);
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char path[1024];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		DIR *sub = opendir(path);
		if (sub) {
			closedir(sub);
			find_streams(path, l);
		} else if (ends_with(path, ".ins") || ends_with(path, ".tdfg")) {
			cr_assert_lt(l->n, MAX_SAMPLES);
			l->path[l->n++] = strdup(path);
		}
	}
	closedir(d);
}

static int by_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static sample_list *samples_under(const char *dir)
{
	sample_list *l = calloc(1, sizeof *l);
	cr_assert_not_null(l);
	find_streams(dir, l);
	qsort(l->path, l->n, sizeof l->path[0], by_path);
	return l;
}

static void samples_free(sample_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->path[i]);
	free(l);
}

/* The first blank-separated token of line (NUL-terminated copy). */
static void first_token(const char *line, char *tok, size_t size)
{
	size_t n = strcspn(line, " \t\r\n#");
	if (n >= size)
		n = size - 1;
	memcpy(tok, line, n);
	tok[n] = '\0';
}

/* Does a `buffer NAME TYPE LENGTH ...` line of the stream hold more than
 * BIG_ELEMENTS elements? */
static bool is_big(const char *path)
{
	char *text = proc_slurp(path, NULL);
	cr_assert_not_null(text, "cannot read %s", path);
	bool big = false;
	for (char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		char name[64], type[16];
		unsigned long long len;
		if (sscanf(line, "buffer %63s %15s %llu", name, type, &len) == 3 &&
		    len > BIG_ELEMENTS)
			big = true;
	}
	free(text);
	return big;
}

/* ---- running them ---- */

/* `infsim run PATH --check -q -m SETTING`: it must exit 0 with no error
 * (a sample may show a warning on purpose: samples/move/missing_sync.ins). */
static void check_sample(const char *path, const char *setting)
{
	char cmd[2048], *out = NULL;
	snprintf(cmd, sizeof cmd, "'%s' run '%s' --check -q -m %s", INFSIM_BIN, path, setting);
	int st = proc_shell(cmd, &out);
	cr_expect_eq(st, 0, "%s -m %s: exit %d: %s", path, setting, st, out ? out : "");
	cr_expect(out && !strstr(out, ": error:"), "%s -m %s: %s", path, setting, out ? out : "");
	free(out);
}

/* Every sample in one setting; the big ones only when with_big. */
static void check_all(const char *setting, bool with_big)
{
	sample_list *l = samples_under(SAMPLES);
	cr_assert_geq(l->n, 10, "only %zu samples found under %s", l->n, SAMPLES);
	for (size_t i = 0; i < l->n; i++)
		if (with_big || !is_big(l->path[i]))
			check_sample(l->path[i], setting);
	samples_free(l);
}

TestSuite(samples, .timeout = 600);

Test(samples, check_ftz_baseline)
{
	check_all("fp=ftz,latency=baseline", false);
}

Test(samples, check_ftz_optimised)
{
	check_all("fp=ftz,latency=optimised", false);
}

Test(samples, check_ieee_baseline)
{
	check_all("fp=ieee,latency=baseline", false);
}

/* The big samples run here only: the corner farthest from the default
 * (tests/test_cli.c runs vadd_i32 and vmul_i32 in the default one). */
Test(samples, check_ieee_optimised)
{
	check_all("fp=ieee,latency=optimised", true);
}

/* ---- samples/fp/ runs every fp, cvt, search and CORDIC command ---- */

/* Mark the command of each command line of the stream at path. */
static void mark_commands(const char *path, bool *seen)
{
	char *text = proc_slurp(path, NULL);
	cr_assert_not_null(text, "cannot read %s", path);
	for (char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		char tok[64];
		line += strspn(line, " \t");
		first_token(line, tok, sizeof tok);
		char *dot = strchr(tok, '.');
		if (!dot)
			continue; /* a comment, a blank line, machine, scratch, buffer */
		*dot = '\0';
		const char *type = dot + 1;
		size_t tlen = strcspn(type, ".");
		unsigned fmt, width, is_signed;
		if (isa_type_parse(type, tlen, &fmt, &width, &is_signed) != 0)
			continue;
		int op = isa_lookup_fmt(tok, fmt);
		if (op >= 0)
			seen[op] = true;
	}
	free(text);
}

Test(samples, fp_samples_run_every_fp_command)
{
	bool seen[ISA_OP_COUNT] = { false };
	sample_list *l = samples_under(SAMPLES "/fp");
	for (size_t i = 0; i < l->n; i++)
		mark_commands(l->path[i], seen);
	samples_free(l);
	unsigned wanted = 0;
	for (unsigned op = 0; op < ISA_OP_COUNT; op++) {
		const int cls = isa_class_of(op);
		if (cls != ISA_CLASS_F && cls != ISA_CLASS_X && cls != ISA_CLASS_Q &&
		    op != ISA_SEARCH)
			continue;
		wanted++;
		cr_expect(seen[op], "no sample under samples/fp runs '%s' (class %c)",
			  isa_info_of(op)->name, "IFQAX"[cls]);
	}
	cr_expect_geq(wanted, 23u); /* 16 F, cvt, 5 Q, search */
}

/* ---- per-command statistics ---- */

#define NORMALISE SAMPLES "/fp/normalise_f32.ins"

typedef struct cmd_row {
	unsigned index;
	int line;
	uint64_t baseline, cycles, shortest;
	unsigned banks;
	char mnemonic[32];
} cmd_row;

typedef struct cmd_table {
	cmd_row row[256];
	size_t n;
	uint64_t total_base, total_cycles;  /* the table's total line */
	uint64_t run_cmds, run_cycles;      /* the summary line's */
} cmd_table;

/* infsim run --stats=json ARGS: its commands' rows and totals; and the
 * text of --stats=commands has one row per command. */
static void run_commands_table(const char *args, cmd_table *t)
{
	char cmd[2048], *out = NULL;
	memset(t, 0, sizeof *t);
	snprintf(cmd, sizeof cmd, "'%s' run %s --stats=json", INFSIM_BIN, args);
	int st = proc_shell(cmd, &out);
	cr_assert_eq(st, 0, "%s: %s", cmd, out ? out : "");
	json_object *d = stats_parse(out);
	json_object *rows = stats_at(d, "commands");
	cr_assert_not_null(rows, "no commands list:\n%s", out);
	for (size_t i = 0; i < json_object_array_length(rows); i++) {
		cr_assert_lt(t->n, 256);
		cmd_row *r = &t->row[t->n++];
		char path[64];
#define FIELD(name) (snprintf(path, sizeof path, "commands.%zu." name, i), stats_num(d, path))
		r->index = (unsigned)FIELD("index");
		r->line = (int)FIELD("line");
		r->baseline = (uint64_t)FIELD("baseline_cycles");
		r->cycles = (uint64_t)FIELD("cycles");
		r->shortest = (uint64_t)FIELD("shortest_bank_cycles");
		r->banks = (unsigned)FIELD("banks");
#undef FIELD
		snprintf(path, sizeof path, "commands.%zu.text", i);
		first_token(json_object_get_string(stats_at(d, path)), r->mnemonic, sizeof r->mnemonic);
	}
	t->total_base = t->run_cmds = 0;
	t->total_base = (uint64_t)stats_num(d, "totals.baseline_cycles");
	t->total_cycles = t->run_cycles = (uint64_t)stats_num(d, "totals.cycles");
	t->run_cmds = (uint64_t)stats_num(d, "totals.commands");
	json_object_put(d);
	free(out);
	/* the text form: a header and the same rows, every one */
	snprintf(cmd, sizeof cmd, "'%s' run %s --stats=commands", INFSIM_BIN, args);
	cr_assert_eq(proc_shell(cmd, &out), 0, "%s: %s", cmd, out ? out : "");
	cr_expect(strstr(out, "#  line  baseline  cycles  shortest  banks  command\n") ||
		  strstr(out, "#   line  baseline  cycles  shortest  banks  command\n"), "%s", out);
	size_t lines = 0;
	for (const char *p = out; *p; p++)
		lines += *p == '\n';
	cr_expect_eq(lines, t->n + 2, "%s", out);
	free(out);
}

/* Each row names its command's source line: that line of the stream
 * starts with the same mnemonic and type. */
static void expect_rows_match_source(const cmd_table *t, const char *path)
{
	char *text = proc_slurp(path, NULL);
	cr_assert_not_null(text);
	int lineno = 1;
	const char *line = text;
	for (size_t i = 0; i < t->n; i++) {
		cr_expect_eq(t->row[i].index, i + 1);
		while (lineno < t->row[i].line && strchr(line, '\n')) {
			line = strchr(line, '\n') + 1;
			lineno++;
		}
		char tok[64];
		first_token(line, tok, sizeof tok);
		cr_expect_str_eq(tok, t->row[i].mnemonic, "command %u, line %d", t->row[i].index,
				 t->row[i].line);
	}
	free(text);
}

static void expect_totals(const cmd_table *t)
{
	uint64_t base = 0, cycles = 0;
	for (size_t i = 0; i < t->n; i++) {
		base += t->row[i].baseline;
		cycles += t->row[i].cycles;
		cr_expect_eq(t->row[i].banks, 4u, "command %zu", i + 1);
	}
	cr_expect_eq(t->n, t->run_cmds);
	cr_expect_eq(base, t->total_base);
	cr_expect_eq(cycles, t->total_cycles);
	cr_expect_eq(cycles, t->run_cycles);
}

Test(stats, commands_baseline)
{
	cmd_table t;
	run_commands_table("'" NORMALISE "' -m latency=baseline", &t);
	cr_assert_geq(t.n, 20);
	expect_totals(&t);
	expect_rows_match_source(&t, NORMALISE);
	for (size_t i = 0; i < t.n; i++) {
		cr_expect_eq(t.row[i].cycles, t.row[i].baseline, "command %zu", i + 1);
		cr_expect_eq(t.row[i].shortest, t.row[i].baseline, "command %zu", i + 1);
	}
}

/* Under latency=optimised each bank runs its own trace: the data make
 * some commands take less than their baseline, the banks' traces differ
 * for some, and on these data no command's questions cost more than they
 * save (a conversion whose every stage is needed can take 3 cycles more:
 * doc/commands/optimised.md). */
Test(stats, commands_optimised)
{
	cmd_table t, b;
	run_commands_table("'" NORMALISE "' -m latency=optimised", &t);
	run_commands_table("'" NORMALISE "' -m latency=baseline", &b);
	cr_assert_eq(t.n, b.n);
	expect_totals(&t);
	expect_rows_match_source(&t, NORMALISE);
	unsigned faster = 0, uneven = 0;
	for (size_t i = 0; i < t.n; i++) {
		const cmd_row *r = &t.row[i];
		cr_expect_eq(r->baseline, b.row[i].baseline, "command %zu", i + 1);
		cr_expect_leq(r->cycles, r->baseline, "command %zu", i + 1);
		cr_expect_leq(r->shortest, r->cycles, "command %zu", i + 1);
		faster += r->cycles < r->baseline;
		uneven += r->shortest < r->cycles;
	}
	cr_expect_geq(faster, 5u);
	cr_expect_geq(uneven, 1u);
	cr_expect_lt(t.total_cycles, t.total_base);
}

/* --stepi runs the same traces micro-op by micro-op: the same table. */
Test(stats, commands_stepi_same)
{
	cmd_table t, s;
	run_commands_table("'" SAMPLES "/fp/saxpy_half.ins' -m latency=optimised -q", &t);
	run_commands_table("'" SAMPLES "/fp/saxpy_half.ins' -m latency=optimised -q --stepi", &s);
	cr_assert_eq(t.n, s.n);
	cr_assert_geq(t.n, 10);
	for (size_t i = 0; i < t.n; i++) {
		cr_expect_eq(t.row[i].cycles, s.row[i].cycles, "command %zu", i + 1);
		cr_expect_eq(t.row[i].shortest, s.row[i].shortest, "command %zu", i + 1);
	}
}

Test(stats, json_commands_list)
{
	char dir[] = "/tmp/infsim-samples-XXXXXX", cmd[2048], path[128], *out = NULL;
	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/s.json", dir);
	snprintf(cmd, sizeof cmd, "'%s' run '%s' -m latency=optimised --stats=json --stats-file=%s",
		 INFSIM_BIN, NORMALISE, path);
	cr_assert_eq(proc_shell(cmd, &out), 0, "%s", out);
	free(out);
	char *js = proc_slurp(path, NULL);
	cr_assert_not_null(js);
	json_object *d = stats_parse(js);
	const uint64_t ncmds = (uint64_t)stats_num(d, "totals.commands");
	const uint64_t total = (uint64_t)stats_num(d, "totals.cycles");
	json_object *list = stats_at(d, "commands");
	cr_assert_not_null(list, "%s", js);
	uint64_t n = json_object_array_length(list), cycles = 0;
	for (uint64_t i = 0; i < n; i++) {
		char p[64];
		snprintf(p, sizeof p, "commands.%" PRIu64, i);
		cr_expect_eq(stats_num(stats_at(d, p), "index"), (double)(i + 1));
		cycles += (uint64_t)stats_num(stats_at(d, p), "cycles");
		cr_expect_leq(stats_num(stats_at(d, p), "shortest_bank_cycles"),
			      stats_num(stats_at(d, p), "cycles"));
	}
	cr_expect_eq(n, ncmds);
	cr_expect_eq(cycles, total);
	cr_expect(strstr(js, "\"text\": \"div.f32 y, c, w @ arrays=0:1:16 bitlines=0:1:256\""),
		  "%s", js);
	json_object_put(d);
	free(js);
	if (system("python3 -c 1 >/dev/null 2>&1") == 0) {
		snprintf(cmd, sizeof cmd, "python3 -m json.tool '%s' >/dev/null", path);
		cr_expect_eq(proc_shell(cmd, &out), 0, "%s", out);
		free(out);
	}
	unlink(path);
	rmdir(dir);
}

Test(stats, bad_format)
{
	char cmd[1024], *out = NULL;
	snprintf(cmd, sizeof cmd, "'%s' run '%s' --stats=command", INFSIM_BIN, NORMALISE);
	cr_expect_eq(proc_shell(cmd, &out), 2);
	cr_expect(strstr(out, "--stats 'command': expected text, full, commands or json"), "%s", out);
	free(out);
}
