/* SPDX-License-Identifier: MIT */
/*
 * test_targets.c: one command line for every system.  Every sample
 * program of every system runs with `infsim run SAMPLE --check` and
 * exits 0; `--stats=json` of every sample validates against
 * doc/stats.schema.json (python3's jsonschema, a build dependency:
 * .ci/setup) and is the same on a second run; options a system cannot
 * honour are refused naming it.
 */
#include <criterion/criterion.h>

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "proc.h"
#include "stats_json.h"
#include "target.h"

/* Options a sample needs beyond its own defaults: an artifact's tDFG its
 * element type; the two largest VIMA samples a smaller size, so that the
 * suite stays quick under the sanitizers (their paper size is checked by
 * tests/test_vima.c). */
static const struct { const char *suffix, *args; } extra[] = {
	{ "tutorial-jit/stencil1d.json", "--type f32" },
	{ "vima/matmul.vima", "-m vector=256 -D n=128" },
	{ "vima/knn.vima", "-D N=4096" },
	/* the PTX samples the SIMT machine runs (doc/SIMT.md, "Translated PTX") */
	{ "cuda/branchy.ptx", "--launch 'branchy<<<20,256>>>(5000, x:i32[5000], y:i32[5000])'" },
	{ "cuda/collatz.ptx", "--launch 'collatz<<<12,256>>>(3000, 300, x:u32[3000], s:u32[3000])'" },
	{ "cuda/histogram.ptx", "--launch 'histogram<<<13,256>>>(100000, x:u32[100000], h:u32[256])'" },
	{ "cuda/saxpy.ptx", "--launch 'saxpy<<<4,256>>>(1000, 2.5, x:f32[1000], y:f32[1000])'" },
	{ "cuda/warpsum.ptx", "--launch 'warpsum<<<40,256>>>(10001, x:i32[10001], s:i32[313])'" },
	/* zeros: every .approx function's special case at 0 */
	{ "cuda/approx.ptx", "--launch 'approx<<<2,256>>>(500, x:f32[500], s:f32[500], c:f32[500], "
			     "e:f32[500], l:f32[500], r:f32[500])'" },
	{ "opencl/vadd.ptx", "--launch 'vadd<<<8,128>>>(a:f32[1000], b:f32[1000], c:f32[1000], 1000)'" },
	{ "opencl/transpose.ptx", "--launch 'transpose<<<(5,3),(16,16)>>>(in:u32[45,70], out:u32[70,45], 45, 70)'" },
};

typedef struct samples {
	char **path;
	size_t n;
} samples;

static bool ends_with(const char *s, const char *suffix)
{
	const size_t n = strlen(s), k = strlen(suffix);
	return n >= k && !strcmp(s + n - k, suffix);
}

static const char *extra_args(const char *path);

/* Every file under dir that a target claims by its extension. */
static void find_samples(const char *dir, samples *s)
{
	DIR *d = opendir(dir);
	cr_assert_not_null(d, "%s", dir);
	for (struct dirent *e; (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		char path[1024];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		struct stat st;
		cr_assert_eq(stat(path, &st), 0, "%s", path);
		if (S_ISDIR(st.st_mode)) {
			find_samples(path, s);
			continue;
		}
		if (!tgt_find(path, "", 0) || ends_with(path, ".npy"))
			continue;
		/* a PTX module is a sample where a launch above says how to run
		 * it; the others need instructions the SIMT machine lacks yet */
		if (ends_with(path, ".ptx") && !*extra_args(path))
			continue;
		/* an artifact's .json only where a sample is one */
		if (ends_with(path, ".json") && !strstr(path, "tutorial-jit"))
			continue;
		s->path = realloc(s->path, (s->n + 1) * sizeof *s->path);
		cr_assert_not_null(s->path);
		s->path[s->n++] = strdup(path);
	}
	closedir(d);
}

static const char *extra_args(const char *path)
{
	for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++)
		if (ends_with(path, extra[i].suffix))
			return extra[i].args;
	return "";
}

static void free_samples(samples *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->path[i]);
	free(s->path);
}

Test(samples, every_one_checks)
{
	samples s = {0};
	find_samples(SRCDIR "/samples", &s);
	/* every system has samples */
	for (size_t t = 0; tgt_all[t]; t++) {
		size_t n = 0;
		for (size_t i = 0; i < s.n; i++)
			n += tgt_find(s.path[i], "", 0) == tgt_all[t];
		cr_expect_geq(n, 1, "no sample of %s", tgt_all[t]->name);
	}
	for (size_t i = 0; i < s.n; i++) {
		char cmd[2048], *out = NULL;
		snprintf(cmd, sizeof cmd, "cd '%s' && '%s' run '%s' --check -q %s 2>&1", SRCDIR,
			 INFSIM_BIN, s.path[i], extra_args(s.path[i]));
		const int st = proc_shell(cmd, &out);
		cr_expect_eq(st, 0, "%s: exit %d: %s", s.path[i], st, out ? out : "");
		free(out);
	}
	free_samples(&s);
}

/* A document as one string, without its "measured" group (the host's
 * own times, which differ from run to run). */
static char *without_measured(json_object *d)
{
	json_object_object_del(d, "measured");
	char *s = strdup(json_object_to_json_string_ext(d, JSON_C_TO_STRING_PLAIN));
	cr_assert_not_null(s);
	return s;
}

/* Every sample's document validates against the schema, and a second run
 * gives the same document, byte for byte, once "measured" is out. */
Test(samples, stats_validate_against_the_schema)
{
	samples s = {0};
	find_samples(SRCDIR "/samples", &s);
	char dir[256];
	cr_assert_not_null(proc_tmpdir(dir, sizeof dir, "infsim-targets"));
	char *list = calloc(1, 1);
	size_t len = 0;
	for (size_t i = 0; i < s.n; i++) {
		char cmd[2048], file[512], again[512], *out = NULL;
		snprintf(file, sizeof file, "%s/%zu.json", dir, i);
		snprintf(again, sizeof again, "%s/%zu.again", dir, i);
		const char *to[2] = { file, again };
		for (int k = 0; k < 2; k++) {
			snprintf(cmd, sizeof cmd, "cd '%s' && '%s' run '%s' --stats=json "
				 "--stats-file='%s' -q %s 2>&1", SRCDIR, INFSIM_BIN, s.path[i],
				 to[k], extra_args(s.path[i]));
			const int st = proc_shell(cmd, &out);
			cr_expect_eq(st, 0, "%s: exit %d: %s", s.path[i], st, out ? out : "");
			free(out);
		}
		/* the document names its system and program */
		char *js = proc_slurp(file, NULL), *js2 = proc_slurp(again, NULL);
		cr_assert_not_null(js, "%s", file);
		cr_assert_not_null(js2, "%s", again);
		json_object *d = stats_parse(js), *d2 = stats_parse(js2);
		cr_expect_str_eq(json_object_get_string(stats_at(d, "system")),
				 tgt_find(s.path[i], "", 0)->name, "%s", s.path[i]);
		cr_expect_str_eq(json_object_get_string(stats_at(d, "program")), s.path[i]);
		cr_expect_geq(stats_num(d, "totals.cycles"), 0);
		char *t1 = without_measured(d), *t2 = without_measured(d2);
		cr_expect_str_eq(t1, t2, "%s: two runs give different statistics", s.path[i]);
		free(t1);
		free(t2);
		json_object_put(d);
		json_object_put(d2);
		free(js);
		free(js2);
		list = realloc(list, len + strlen(file) + 4);
		len += (size_t)sprintf(list + len, " '%s'", file);
	}
	/* one python3 for every document */
	char *cmd = malloc(len + 1024), *out = NULL;
	sprintf(cmd, "python3 -c 'import json, sys, jsonschema\n"
		"schema = json.load(open(sys.argv[1]))\n"
		"jsonschema.Draft202012Validator.check_schema(schema)\n"
		"for f in sys.argv[2:]:\n"
		"    jsonschema.validate(json.load(open(f)), schema)\n"
		"print(len(sys.argv) - 2)' '%s/doc/stats.schema.json'%s 2>&1", SRCDIR, list);
	const int st = proc_shell(cmd, &out);
	cr_expect_eq(st, 0, "the schema check failed (python3 with jsonschema is needed: "
		     "bash .ci/setup installs it): %s", out ? out : "");
	cr_expect_eq(out ? atoi(out) : -1, (int)s.n, "%s", out ? out : "");
	free(out);
	free(cmd);
	free(list);
	free_samples(&s);
	proc_rmdir(dir);
}

/* The schema itself refuses a document without its keys: a check that
 * can fail. */
Test(samples, schema_refuses_what_it_should)
{
	char cmd[2048], *out = NULL;
	snprintf(cmd, sizeof cmd, "python3 -c 'import json, sys, jsonschema\n"
		 "schema = json.load(open(sys.argv[1]))\n"
		 "bad = [{}, {\"format\": \"infsim-stats 1\", \"system\": \"ar\", \"program\": \"p\", "
		 "\"machine\": {}, \"totals\": {\"cycles\": 1}},\n"
		 "       {\"format\": \"infsim-stats 3\", \"system\": \"ar\", \"program\": \"p\", "
		 "\"machine\": {}, \"totals\": {}},\n"
		 "       {\"format\": \"infsim-stats 3\", \"system\": \"stream\", \"program\": \"p\", "
		 "\"machine\": {}, \"totals\": {\"cycles\": 1}},\n"
		 /* Fig 14's dots without the operations they count */
		 "       {\"format\": \"infsim-stats 3\", \"system\": \"stream\", \"program\": \"p\", "
		 "\"machine\": {}, \"totals\": {\"cycles\": 1}, \"by_command\": {}, \"by_bank\": [], "
		 "\"paper\": {\"cycles\": {}, \"traffic\": {}, \"compute_commands\": 1, "
		 "\"on_bitlines\": 1}},\n"
		 /* the host's time back in the JIT's rows */
		 "       {\"format\": \"infsim-stats 3\", \"system\": \"nsc\", \"program\": \"p\", "
		 "\"machine\": {}, \"totals\": {\"cycles\": 1}, \"jit\": {\"lowered\": 1, "
		 "\"reused\": 0, \"lat_node\": 1, \"lat_cmd_bank\": 1, \"banks\": 1, \"cycles\": 2, "
		 "\"lowerings\": [{\"lowering\": 1, \"nodes\": 1, \"commands\": 1, \"cycles\": 2, "
		 "\"ms\": 0.1}]}}]\n"
		 "n = 0\n"
		 "for d in bad:\n"
		 "    try:\n"
		 "        jsonschema.validate(d, schema)\n"
		 "    except jsonschema.ValidationError:\n"
		 "        n += 1\n"
		 "print(n)' '%s/doc/stats.schema.json' 2>&1", SRCDIR);
	cr_assert_eq(proc_shell(cmd, &out), 0, "%s", out ? out : "");
	cr_expect_eq(atoi(out), 6, "%s", out);
	free(out);
}

/* An option a system cannot honour is refused, naming the system and
 * why; another system's option names the system it belongs to. */
Test(options, refused_with_the_system_named)
{
	static const struct { const char *args, *want; } cases[] = {
		{ "samples/simt/vecadd.simt -D N=4", "simt programs (Duality Cache SIMT mode) do not "
		  "take -D: DC-PTX programs have no parameters" },
		{ "samples/nsc/histogram.nsc --strict", "nsc programs (near-stream computing) do not "
		  "take --strict" },
		{ "samples/vadd_i32.ins --root=naive", "--root is an option of ar programs (.ar), not "
		  "of samples/vadd_i32.ins" },
		{ "samples/ar/mac.ar --tdfg=x.tdfg", "--tdfg is an option of stream programs (.ins), "
		  "not of samples/ar/mac.ar" },
		{ "samples/vima/vecsum.vima -j 2", "vima programs (VIMA (vector-in-memory)) do not "
		  "take -j" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char cmd[2048], *out = NULL;
		snprintf(cmd, sizeof cmd, "cd '%s' && '%s' run %s 2>&1", SRCDIR, INFSIM_BIN,
			 cases[i].args);
		cr_expect_eq(proc_shell(cmd, &out), 2, "%s: %s", cases[i].args, out);
		cr_expect(out && strstr(out, cases[i].want), "%s: %s", cases[i].args, out);
		free(out);
	}
}

/* Standard output takes one binary or JSON output alone: `-s C=- > c.npy`
 * is a whole .npy, with no summary after it. */
Test(options, save_to_standard_output_alone)
{
	char cmd[2048], *out = NULL;
	snprintf(cmd, sizeof cmd, "(cd '%s' && '%s' run samples/vima/vecsum.vima -D N=8192 -s C=- | "
		 "python3 -c 'import sys; b = sys.stdin.buffer.read(); print(len(b), b[:6] == "
		 "b\"\\x93NUMPY\")')", SRCDIR, INFSIM_BIN);
	cr_assert_eq(proc_shell(cmd, &out), 0, "%s", out);
	cr_expect_str_eq(out, "32896 True\n");
	free(out);
	static const char *const clash[] = { "-s C=- --stats", "-s C=- -d C", "-d C --stats=json" };
	for (size_t i = 0; i < sizeof clash / sizeof clash[0]; i++) {
		snprintf(cmd, sizeof cmd, "cd '%s' && '%s' run samples/vima/vecsum.vima %s 2>&1 "
			 ">/dev/null", SRCDIR, INFSIM_BIN, clash[i]);
		cr_expect_eq(proc_shell(cmd, &out), 2, "%s: %s", clash[i], out);
		cr_expect(out && strstr(out, "both write to standard output"), "%s: %s", clash[i], out);
		free(out);
	}
}

/* -s keeps an array's shape: a (32, 64) tensor comes back as (32, 64). */
Test(options, save_keeps_the_shape)
{
	char dir[256], cmd[2048], *out = NULL;
	cr_assert_not_null(proc_tmpdir(dir, sizeof dir, "infsim-shape"));
	snprintf(cmd, sizeof cmd, "cd '%s' && '%s' run samples/tdfg/stencil2d.tdfg -s A='%s/a.npy' -q && "
		 "python3 -c 'import sys; h = open(sys.argv[1], \"rb\").read(128); "
		 "print(h[10:h.index(b\"}\")+1].decode())' '%s/a.npy'", SRCDIR, INFSIM_BIN, dir, dir);
	cr_assert_eq(proc_shell(cmd, &out), 0, "%s", out);
	cr_expect(strstr(out, "'shape': (32, 64)"), "%s", out);
	free(out);
	proc_rmdir(dir);
}

/* A program read from standard input: its system from its first lines,
 * or --target. */
Test(options, program_from_standard_input)
{
	char cmd[2048], *out = NULL;
	snprintf(cmd, sizeof cmd, "(cd '%s' && '%s' run - --check < samples/tdfg/saxpy.tdfg 2>&1)",
		 SRCDIR, INFSIM_BIN);
	cr_expect_eq(proc_shell(cmd, &out), 0, "%s", out);
	cr_expect(strstr(out, "every tDFG node"), "%s", out);
	free(out);
	snprintf(cmd, sizeof cmd, "(cd '%s' && '%s' run - --target=ar --check < samples/ar/mac.ar 2>&1)",
		 SRCDIR, INFSIM_BIN);
	cr_expect_eq(proc_shell(cmd, &out), 0, "%s", out);
	cr_expect(strstr(out, "--check: the reference agrees"), "%s", out);
	free(out);
	/* every system's sample, told by its first lines */
	static const char *const each[] = { "samples/vadd_i32.ins", "samples/ar/mac.ar",
					     "samples/nsc/histogram.nsc", "samples/vima/vecsum.vima",
					     "samples/simt/vecadd.simt" };
	for (size_t i = 0; i < sizeof each / sizeof each[0]; i++) {
		snprintf(cmd, sizeof cmd, "(cd '%s' && '%s' run - --check --stats=json < %s | "
			 "python3 -c 'import json, sys; print(json.load(sys.stdin)[\"system\"])')",
			 SRCDIR, INFSIM_BIN, each[i]);
		cr_expect_eq(proc_shell(cmd, &out), 0, "%s: %s", each[i], out);
		cr_expect(out && !strncmp(out, tgt_find(each[i], "", 0)->name,
					   strlen(tgt_find(each[i], "", 0)->name)), "%s: %s", each[i], out);
		free(out);
	}
	snprintf(cmd, sizeof cmd, "(printf 'hello\\n' | '%s' run - 2>&1)", INFSIM_BIN);
	cr_expect_eq(proc_shell(cmd, &out), 2, "%s", out);
	cr_expect(strstr(out, "name its system with --target"), "%s", out);
	free(out);
}

/* Every system's subcommand takes --version and --help. */
Test(options, version_and_help_everywhere)
{
	for (size_t t = 0; tgt_all[t]; t++) {
		char cmd[1024], *out = NULL;
		snprintf(cmd, sizeof cmd, "'%s' %s --version", INFSIM_BIN, tgt_all[t]->name);
		cr_expect_eq(proc_shell(cmd, &out), 0, "%s", out);
		cr_expect(out && !strncmp(out, "infsim ", 7), "%s", out);
		free(out);
		snprintf(cmd, sizeof cmd, "'%s' %s --help", INFSIM_BIN, tgt_all[t]->name);
		cr_expect_eq(proc_shell(cmd, &out), 0, "%s", out);
		char usage[64];
		snprintf(usage, sizeof usage, "Usage: infsim %s PROG", tgt_all[t]->name);
		cr_expect(out && strstr(out, usage), "%s", out);
		free(out);
	}
}

/* Run cmd in SRCDIR (a subshell: its own redirections win); its status,
 * its output in *out. */
static int sh(char **out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int sh(char **out, const char *fmt, ...)
{
	char body[4096], cmd[4400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(body, sizeof body, fmt, ap);
	va_end(ap);
	snprintf(cmd, sizeof cmd, "(cd '%s' && %s)", SRCDIR, body);
	*out = NULL;
	return proc_shell(cmd, out);
}

/* A program that runs nothing (empty, or comments and declarations only)
 * is an error in every format, for infsim run and infsdb alike: exit 1
 * with one message naming the file. */
Test(options, empty_programs_are_refused)
{
	static const struct { const char *ext, *body, *want; } cases[] = {
		{ "ins", "", "the stream has no command: it runs nothing" },
		{ "ins", "# nothing\nbuffer A u8 16 wl=0 arrays=0\n", "the stream has no command" },
		{ "tdfg", "", "no region" },
		{ "nsc", "", "a program declares at least one array" },
		{ "ar", "", "the program has no statement: it runs nothing" },
		{ "ar", "# nothing\narray A i32 8\n", "the program has no statement" },
		{ "vima", "", "the program has no statement: it runs nothing" },
		{ "vima", "array A f32 8\n", "the program has no statement" },
		{ "simt", "", "no .launch: the program runs nothing" },
	};
	char dir[256];
	cr_assert_not_null(proc_tmpdir(dir, sizeof dir, "infsim-empty"));
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char path[400];
		snprintf(path, sizeof path, "%s/p.%s", dir, cases[i].ext);
		FILE *f = fopen(path, "w");
		cr_assert_not_null(f);
		fputs(cases[i].body, f);
		fclose(f);
		for (int dbg = 0; dbg < 2; dbg++) {
			char *out = NULL;
			const int st = dbg ? sh(&out, "HOME=/nonexistent '%s' -batch -nx '%s' 2>&1",
						INFSDB_BIN, path)
					   : sh(&out, "'%s' run '%s' 2>&1", INFSIM_BIN, path);
			cr_expect_eq(st, 1, "%s %s: %s", dbg ? "infsdb" : "infsim", path, out);
			cr_expect(out && strstr(out, cases[i].want), "%s: %s", path, out);
			cr_expect(out && strstr(out, path), "%s: %s", path, out);
			free(out);
		}
		unlink(path);
	}
	rmdir(dir);
}

/* -s, -e and -l for every system: an output saved is expected back; an
 * input changed by one changes the output, and -e says so (exit 3). */
Test(options, load_save_expect_every_system)
{
	static const struct { const char *prog, *in, *out; } cases[] = {
		{ "samples/vadd_i32.ins", "a", "c" },
		{ "samples/tdfg/saxpy.tdfg", "x", "Y" },
		{ "samples/ar/mac.ar", "A", "S" },
		{ "samples/nsc/histogram.nsc", "A", "H" },
		{ "samples/vima/vecsum.vima -D N=8192", "A", "C" },
		{ "samples/simt/vecadd.simt", "A", "C" },
	};
	char dir[256];
	cr_assert_not_null(proc_tmpdir(dir, sizeof dir, "infsim-lse"));
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *out = NULL;
		const char *p = cases[i].prog, *in = cases[i].in, *o = cases[i].out;
		cr_expect_eq(sh(&out, "'%s' run %s -q -s %s='%s/out.npy' -s %s='%s/in.npy' 2>&1",
				INFSIM_BIN, p, o, dir, in, dir), 0, "%s: %s", p, out);
		free(out);
		cr_expect_eq(sh(&out, "'%s' run %s -e %s='%s/out.npy' 2>&1", INFSIM_BIN, p, o, dir), 0,
			     "%s: %s", p, out);
		cr_expect(out && strstr(out, " matches "), "%s: %s", p, out);
		free(out);
		/* the input's first element, one more (in its own dtype) */
		cr_assert_eq(sh(&out, "python3 -c 'import sys, struct\n"
				"b = bytearray(open(sys.argv[1], \"rb\").read())\n"
				"o = 10 + b[8] + 256 * b[9]\n"
				"d = bytes(b[10:o]).split(b\"descr\")[1][4:7].decode()\n"
				"f = \"<\" + {\"<f4\": \"f\", \"<i4\": \"i\", \"<u4\": \"I\", \"<i8\": \"q\"}[d]\n"
				"v = struct.unpack_from(f, b, o)[0]\n"
				"b[o:o + struct.calcsize(f)] = struct.pack(f, v + 1 if f[1] == \"f\" else v ^ (1 << 30))\n"
				"open(sys.argv[2], \"wb\").write(b)' '%s/in.npy' '%s/in2.npy' 2>&1", dir, dir), 0,
			     "%s: %s", p, out);
		free(out);
		cr_expect_eq(sh(&out, "'%s' run %s -l %s='%s/in2.npy' -e %s='%s/out.npy' 2>&1",
				INFSIM_BIN, p, in, dir, o, dir), 3, "%s: %s", p, out);
		cr_expect(out && strstr(out, "error: --expect: "), "%s: %s", p, out);
		free(out);
	}
	proc_rmdir(dir);
}

/* --stats-file=x.json writes JSON by its name; --stats=commands on
 * standard output leaves the summary line out, as --stats does. */
Test(options, stats_file_and_summary)
{
	char dir[256], *out = NULL;
	cr_assert_not_null(proc_tmpdir(dir, sizeof dir, "infsim-sf"));
	cr_expect_eq(sh(&out, "'%s' run samples/ar/mac.ar --stats-file='%s/s.json' && head -c 1 "
			"'%s/s.json'", INFSIM_BIN, dir, dir), 0, "%s", out);
	cr_expect(out && strstr(out, "mac.ar: ") && out[strlen(out) - 1] == '{', "%s", out);
	free(out);
	cr_expect_eq(sh(&out, "'%s' run samples/vadd_i32.ins --stats=commands", INFSIM_BIN), 0);
	cr_expect(out && strstr(out, "commands:\n") && !strstr(out, "vadd_i32.ins: 1 command"),
		  "%s", out);
	free(out);
	proc_rmdir(dir);
}

/* A run on a terminal says how far it is (INFSIM_PROGRESS_AFTER=0: at
 * once), then clears the line; off a terminal it says nothing. */
Test(options, progress_on_a_terminal)
{
	char *out = NULL;
	cr_assert_eq(sh(&out, "INFSIM_PROGRESS_AFTER=0 script -qfec \"'%s' run "
			"samples/tdfg/stencil2d.tdfg\" /dev/null", INFSIM_BIN), 0, "%s", out);
	cr_expect(out && strstr(out, "samples/tdfg/stencil2d.tdfg: 64 of 110 commands, ") &&
		  strstr(out, "\r\033[K"), "%s", out);
	free(out);
	cr_assert_eq(sh(&out, "INFSIM_PROGRESS_AFTER=0 '%s' run samples/tdfg/stencil2d.tdfg 2>&1",
			INFSIM_BIN), 0, "%s", out);
	cr_expect(out && !strstr(out, " of 110 commands"), "%s", out);
	free(out);
}

/* Each workload sample's comment gives Table 3's size with the paper's
 * machine; the JIT lowers every one of them, and without that machine
 * the message names -m. */
Test(samples, workloads_at_the_papers_size)
{
	DIR *d = opendir(SRCDIR "/samples/workloads");
	cr_assert_not_null(d);
	size_t n = 0;
	for (struct dirent *e; (e = readdir(d));) {
		if (!ends_with(e->d_name, ".tdfg"))
			continue;
		char *out = NULL;
		/* "# with infsim run -D ... \" then "#   -m ... NAME.tdfg" */
		cr_assert_eq(sh(&out, "sed -n '/^# with infsim run -D/,/^#   -m/p' "
				"samples/workloads/%s | sed 's/^# with infsim run //; s/^#   //; "
				"s/\\\\$//' | tr '\\n' ' '", e->d_name), 0);
		char args[1024];
		snprintf(args, sizeof args, "%s", out ? out : "");
		free(out);
		char *name = strstr(args, e->d_name);
		cr_assert(name && strstr(args, "-m wordlines="), "%s: '%s'", e->d_name, args);
		*name = '\0';
		cr_expect_eq(sh(&out, "'%s' jit %s samples/workloads/%s -o /dev/null 2>&1", INFSIM_BIN,
				args, e->d_name), 0, "%s %s: %s", args, e->d_name, out);
		free(out);
		char *m = strstr(args, "-m ");
		*m = '\0';
		if (sh(&out, "'%s' jit %s samples/workloads/%s -o /dev/null 2>&1", INFSIM_BIN, args,
		       e->d_name) != 0)
			cr_expect(out && strstr(out, "(-m arrays=N,bitlines=N"), "%s", out);
		free(out);
		n++;
	}
	closedir(d);
	cr_expect_eq(n, 30);
}

/* The README's first command runs infsim's main job: at most 40 lines. */
Test(samples, readme_main_job_fits_a_screen)
{
	char *out = NULL;
	cr_assert_eq(sh(&out, "sed -n 2p README.md | sed 's/^bash .ci\\/setup && //'"), 0);
	char job[512];
	snprintf(job, sizeof job, "%s", out);
	free(out);
	cr_assert(!strncmp(job, "./infsim run ", 13), "%s", job);
	job[strcspn(job, "\n")] = '\0';
	cr_assert_eq(sh(&out, "'%s' %s 2>&1", INFSIM_BIN, job + 9), 0, "%s", out);
	size_t lines = 0;
	for (const char *p = out; *p; p++)
		lines += *p == '\n';
	cr_expect_leq(lines, 40, "%zu lines:\n%s", lines, out);
	free(out);
}
