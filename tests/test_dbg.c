/* SPDX-License-Identifier: MIT */
/*
 * test_dbg.c: infsdb, run as a user runs it (INFSDB_BIN).
 *
 * Transcripts: each tests/dbg/NAME.cmds is run as
 *     infsdb -batch -nx -x tests/dbg/NAME.cmds PROG
 * from the source folder (PROG is samples/fig1d_add4.ins, or the one a
 * "# prog: PATH" first line names), and its stdout and stderr together,
 * followed by "[exit status N]", must equal tests/dbg/NAME.out exactly.
 * A "# console" line makes it typed at the console instead (infsdb -q
 * -nx PROG < NAME.cmds), where an empty line is Enter.
 * With INFSDB_REGEN=1 in the environment the .out files are rewritten
 * instead (review the difference before committing it).
 *
 * Then: options and exit codes, the stepi-versus-full-speed bits, and a
 * checkpoint round trip.
 */
#include <criterion/criterion.h>

#include "proc.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "machine.h"
#include "program.h"

#define DBG_DIR SRCDIR "/tests/dbg"
#define DEFAULT_PROG "samples/fig1d_add4.ins"

typedef struct result {
	int status;
	char *out;  /* stdout and stderr, merged */
} result;

/* Run "infsdb ARGS" in the source folder, stdout and stderr merged. */
static result run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static result run(const char *fmt, ...)
{
	char args[4096], cmd[8192];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(args, sizeof args, fmt, ap);
	va_end(ap);
	snprintf(cmd, sizeof cmd, "cd '%s' && HOME=/nonexistent '%s' %s", SRCDIR,
		 INFSDB_BIN, args);
	result r;
	r.status = proc_shell(cmd, &r.out);
	cr_assert(r.status >= 0, "infsdb %s: did not exit normally", args);
	return r;
}

/* ---- transcripts ---- */

static void program_of(const char *cmds_path, char *prog, size_t size)
{
	snprintf(prog, size, "%s", DEFAULT_PROG);
	FILE *f = fopen(cmds_path, "r");
	cr_assert_not_null(f, "%s is missing", cmds_path);
	char line[512];
	if (fgets(line, sizeof line, f) && strncmp(line, "# prog: ", 8) == 0) {
		line[strcspn(line, "\n")] = '\0';
		snprintf(prog, size, "%s", line + 8);
	}
	fclose(f);
}

/* s with every "from" replaced by "to" (malloc'd). */
static char *replace_all(const char *s, const char *from, const char *to)
{
	size_t nf = strlen(from), nt = strlen(to), count = 0;
	for (const char *p = s; (p = strstr(p, from)) != NULL; p += nf)
		count++;
	char *out = malloc(strlen(s) + count * (nt > nf ? nt - nf : 0) + 1), *o = out;
	cr_assert_not_null(out);
	for (const char *p = s, *q; ; p = q + nf) {
		q = strstr(p, from);
		size_t n = q ? (size_t)(q - p) : strlen(p);
		memcpy(o, p, n);
		o += n;
		if (!q)
			break;
		memcpy(o, to, nt);
		o += nt;
	}
	*o = '\0';
	return out;
}

/* A transcript writes its files (checkpoints, recordings) into a folder
 * of its own: "@TMP@" in the .cmds is that folder, made for the run and
 * removed after it, and is written back as "@TMP@" in the output, so
 * that two runs at once never share a file. */
static void transcript(const char *name)
{
	char cmds[512], outp[512], prog[512], tmp[256], mine[512];
	snprintf(cmds, sizeof cmds, "%s/%s.cmds", DBG_DIR, name);
	snprintf(outp, sizeof outp, "%s/%s.out", DBG_DIR, name);
	program_of(cmds, prog, sizeof prog);
	cr_assert_not_null(proc_tmpdir(tmp, sizeof tmp, "infsdb-transcript"));
	char *text = proc_slurp(cmds, NULL);
	cr_assert_not_null(text, "%s is missing", cmds);
	char *sub = replace_all(text, "@TMP@", tmp);
	snprintf(mine, sizeof mine, "%s/%s.cmds", tmp, name);
	FILE *cf = fopen(mine, "w");
	cr_assert_not_null(cf);
	fputs(sub, cf);
	fclose(cf);
	free(sub);
	/* "# console" on a line of its own: the lines are typed at the
	 * console instead (an empty line is Enter, which repeats) */
	const bool console = strncmp(text, "# console\n", 10) == 0 || strstr(text, "\n# console\n");
	result r;
	if (console) {
		/* in a subshell, or proc_shell's </dev/null would win */
		char cmd[8192];
		snprintf(cmd, sizeof cmd, "cd '%s' && (HOME=/nonexistent '%s' -q -nx %s <'%s')",
			 SRCDIR, INFSDB_BIN, prog, mine);
		r.status = proc_shell(cmd, &r.out);
		cr_assert(r.status >= 0, "infsdb < %s: did not exit normally", mine);
	} else {
		r = run("-batch -nx -x '%s' %s", mine, prog);
	}
	free(text);
	char shown[512];
	snprintf(shown, sizeof shown, "tests/dbg/%s.cmds", name);
	char *named = replace_all(r.out, mine, shown);
	char *out = replace_all(named, tmp, "@TMP@");
	free(named);
	/* absolute paths (info source) name the source folder @SRCDIR@ */
	char *src = realpath(SRCDIR, NULL);
	cr_assert_not_null(src);
	named = replace_all(out, src, "@SRCDIR@");
	free(out);
	free(src);
	out = named;
	proc_rmdir(tmp);
	size_t n = strlen(out) + 64;
	char *got = malloc(n);
	cr_assert_not_null(got);
	snprintf(got, n, "%s[exit status %d]\n", out, r.status);
	free(out);
	if (getenv("INFSDB_REGEN")) {
		FILE *f = fopen(outp, "w");
		cr_assert_not_null(f);
		fputs(got, f);
		fclose(f);
	}
	char *want = proc_slurp(outp, NULL);
	cr_assert_not_null(want, "%s is missing", outp);
	cr_expect_str_eq(got, want, "transcript %s differs:\n--- got ---\n%s--- want ---\n%s",
			 name, got, want);
	free(want);
	free(got);
	free(r.out);
}

Test(transcript, help) { transcript("help"); }
Test(transcript, abbrev) { transcript("abbrev"); }
Test(transcript, run) { transcript("run"); }
Test(transcript, break) { transcript("break"); }
Test(transcript, print) { transcript("print"); }
Test(transcript, array) { transcript("array"); }
Test(transcript, display) { transcript("display"); }
Test(transcript, check) { transcript("check"); }
Test(transcript, watch) { transcript("watch"); }
Test(transcript, misc) { transcript("misc"); }
Test(transcript, reverse) { transcript("reverse"); }
Test(transcript, reverse_snap) { transcript("reverse_snap"); }
Test(transcript, float) { transcript("float"); }
Test(transcript, watchf) { transcript("watchf"); }
Test(transcript, dd) { transcript("dd"); }
Test(transcript, move) { transcript("move"); }
Test(transcript, movestep) { transcript("movestep"); }
Test(transcript, ckpt_anywhere) { transcript("ckpt_anywhere"); }
Test(transcript, tensor) { transcript("tensor"); }
Test(transcript, tdfg) { transcript("tdfg"); }
Test(transcript, tdfg_break) { transcript("tdfg_break"); }
Test(transcript, tdfg_check) { transcript("tdfg_check"); }
Test(transcript, tdfg_reverse) { transcript("tdfg_reverse"); }
Test(transcript, tdfg_errors) { transcript("tdfg_errors"); }
Test(transcript, tdfg_plain) { transcript("tdfg_plain"); }
Test(transcript, tdfg_stencil) { transcript("tdfg_stencil"); }
Test(transcript, valid) { transcript("valid"); }
Test(transcript, tdfg_all) { transcript("tdfg_all"); }
Test(transcript, bounds) { transcript("bounds"); }
Test(transcript, gdb_break) { transcript("gdb_break"); }
Test(transcript, gdb_cmds) { transcript("gdb_cmds"); }
Test(transcript, gdb_expr) { transcript("gdb_expr"); }
Test(transcript, gdb_tdfg) { transcript("gdb_tdfg"); }
Test(transcript, gdb_script) { transcript("gdb_script"); }
Test(transcript, expect) { transcript("expect"); }
Test(transcript, grade) { transcript("grade"); }
Test(transcript, nsc_streams) { transcript("nsc_streams"); }
Test(transcript, nsc_chase) { transcript("nsc_chase"); }
Test(transcript, nsc_errors) { transcript("nsc_errors"); }
Test(transcript, nsc_usage) { transcript("nsc_usage"); }
Test(transcript, nsc_alias) { transcript("nsc_alias"); }
Test(transcript, nsc_syncfree) { transcript("nsc_syncfree"); }
Test(transcript, nsc_badopt) { transcript("nsc_badopt"); }
Test(transcript, nsc_reverse) { transcript("nsc_reverse"); }
Test(transcript, ar_mac) { transcript("ar_mac"); }
Test(transcript, ar_root) { transcript("ar_root"); }
Test(transcript, ar_load) { transcript("ar_load"); }
Test(transcript, ar_stats) { transcript("ar_stats"); }
Test(transcript, vima_watch) { transcript("vima_watch"); }
Test(transcript, vima_options) { transcript("vima_options"); }
Test(transcript, vima_fault) { transcript("vima_fault"); }
Test(transcript, simt_div) { transcript("simt_div"); }
Test(transcript, simt_define) { transcript("simt_define"); }
Test(transcript, ptx_step) { transcript("ptx_step"); }
Test(transcript, ptx_cond) { transcript("ptx_cond"); }
Test(transcript, tui_view) { transcript("tui_view"); }
Test(transcript, tdfg_json) { transcript("tdfg_json"); }
Test(transcript, valid_load) { transcript("valid_load"); }
Test(transcript, strm) { transcript("strm"); }
Test(transcript, gdb_habits) { transcript("gdb_habits"); }
Test(transcript, define_noend) { transcript("define_noend"); }
Test(transcript, tdfg_load) { transcript("tdfg_load"); }
Test(transcript, strm_reverse) { transcript("strm_reverse"); }
Test(transcript, load_opt) { transcript("load_opt"); }
Test(transcript, load_stream) { transcript("load_stream"); }
Test(transcript, ckpt_session) { transcript("ckpt_session"); }

/* One session, the same command words, on a program of every system
 * (issue 27): tests/dbg/five.tmpl with each system's location, value and
 * array (its "# five:" line) is exactly each five_SYSTEM.cmds. */
static void five(const char *sys)
{
	char name[64], path[512];
	snprintf(name, sizeof name, "five_%s", sys);
	snprintf(path, sizeof path, "%s/%s.cmds", DBG_DIR, name);
	char *cmds = proc_slurp(path, NULL), *tmpl = proc_slurp(DBG_DIR "/five.tmpl", NULL);
	cr_assert(cmds && tmpl, "%s", path);
	char loc[128], val[128], arr[128];
	const char *five = strstr(cmds, "\n# five: ");
	cr_assert(five && sscanf(five, "\n# five: %127s %127s %127s", loc, val, arr) == 3, "%s", path);
	char *a = replace_all(tmpl, "@LOC@", loc), *b = replace_all(a, "@VAL@", val);
	char *want = replace_all(b, "@ARR@", arr);
	const char *body = strstr(strstr(five + 1, "\n# The same session") + 1, "\n") + 1;
	cr_expect_str_eq(body, want, "%s is not tests/dbg/five.tmpl's session", path);
	free(a);
	free(b);
	free(want);
	free(cmds);
	free(tmpl);
	transcript(name);
}

Test(transcript, five_stream) { five("stream"); }
Test(transcript, five_tdfg) { five("tdfg"); }
Test(transcript, five_ar) { five("ar"); }
Test(transcript, five_nsc) { five("nsc"); }
Test(transcript, five_vima) { five("vima"); }
Test(transcript, five_simt) { five("simt"); }
Test(transcript, examine) { transcript("examine"); }
Test(transcript, examine_elems) { transcript("examine_elems"); }
Test(transcript, examine_enter) { transcript("examine_enter"); }
Test(transcript, print_settings) { transcript("print_settings"); }
Test(transcript, print_tensor) { transcript("print_tensor"); }
Test(transcript, rbreak) { transcript("rbreak"); }
Test(transcript, rbreak_tdfg) { transcript("rbreak_tdfg"); }
Test(transcript, rbreak_ar) { transcript("rbreak_ar"); }
Test(transcript, info_source) { transcript("info_source"); }
Test(transcript, info_source_tdfg) { transcript("info_source_tdfg"); }
Test(transcript, info_source_ar) { transcript("info_source_ar"); }
Test(transcript, info_source_valid) { transcript("info_source_valid"); }
Test(transcript, valid_nodes) { transcript("valid_nodes"); }
Test(transcript, valid_motion) { transcript("valid_motion"); }
Test(transcript, index_range) { transcript("index_range"); }

/* ---- options ---- */

Test(options, help_and_version)
{
	result r = run("--help");
	cr_expect_eq(r.status, 0);
	cr_expect(strstr(r.out, "Usage: infsdb [OPTION]... PROG"), "%s", r.out);
	free(r.out);
	r = run("--version");
	cr_expect_eq(r.status, 0);
	cr_expect(strncmp(r.out, "infsdb (infsim) ", 16) == 0, "%s", r.out);
	cr_expect(strstr(r.out, "\nCopyright (C) 2026 the infsim authors.\nLicense MIT"), "%s", r.out);
	free(r.out);
}

Test(options, usage_errors)
{
	const char *bad[] = { "", "-batch", "--frob " DEFAULT_PROG, "-x",
			      DEFAULT_PROG " extra", "-m wordlines=7 " DEFAULT_PROG };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		result r = run("%s", bad[i]);
		cr_expect(r.status == 2 || (i == 5 && r.status == 1), "'%s': exit %d", bad[i],
			  r.status);
		cr_expect(strstr(r.out, "infsdb"), "'%s': %s", bad[i], r.out);
		free(r.out);
	}
}

Test(options, missing_and_bad_programs)
{
	result r = run("-batch /nonexistent.ins");
	cr_expect_eq(r.status, 1);
	cr_expect(strstr(r.out, "/nonexistent.ins"), "%s", r.out);
	free(r.out);
	r = run("-batch tests/data/bad_syntax.ins");
	cr_expect_eq(r.status, 1);
	cr_expect(strstr(r.out, "tests/data/bad_syntax.ins:"), "%s", r.out);
	free(r.out);
}

/* An artifact's tDFG dump (.json) needs --type, and only it takes one;
 * a bad type or a malformed dump is one message, exit 1. */
Test(options, json_type)
{
	static const struct { const char *args, *want; int status; } cases[] = {
		{ "-batch tests/data/json/stencil1d_f32.json",
		  "has no element type; give one with --type", 2 },
		{ "-batch --type f32 " DEFAULT_PROG, "--type applies to an artifact's tDFG", 2 },
		{ "-batch --type f99 tests/data/json/stencil1d_f32.json", "f99", 1 },
		{ "-batch --type i32 tests/data/json/stencil1d_f32.json",
		  "stencil1d_f32.json: error: $.nodes[\"7\"].compute.float_const: a float constant "
		  "in a graph of integer elements; expected int_const", 1 },
		{ "-batch --type i32 -ex 'info regions' tests/data/json/cube3d_i32.json",
		  "tdfg       ", 0 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		result r = run("%s", cases[i].args);
		cr_expect_eq(r.status, cases[i].status, "'%s': %s", cases[i].args, r.out);
		cr_expect(strstr(r.out, cases[i].want), "'%s': %s", cases[i].args, r.out);
		free(r.out);
	}
}

/* -D NAME=VALUE: a tDFG's size parameter, as infsim run -D. */
Test(options, define)
{
	static const struct { const char *args, *want; int status; } cases[] = {
		{ "-batch -D N=32 -ex run -ex check -ex 'info nodes' "
		  "samples/workloads/mm_outer_i32.tdfg", "0:32,0:32", 0 },
		{ "-batch --define=N=32 -ex 'info regions' samples/workloads/mm_outer_i32.tdfg",
		  "32x32", 0 },
		{ "-batch -D M=32 samples/workloads/mm_outer_i32.tdfg",
		  "mm_outer_i32.tdfg: error: -D M: the program declares no parameter 'M' (it "
		  "declares N)", 1 },
		{ "-batch -D N=x samples/workloads/mm_outer_i32.tdfg", "-D N=x: expected an integer", 2 },
		{ "-batch -D N=4 -D N=8 samples/workloads/mm_outer_i32.tdfg", "-D N is given twice", 2 },
		{ "-batch -D N=4 " DEFAULT_PROG, "-D N: parameters are a tDFG's", 2 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		result r = run("%s", cases[i].args);
		cr_expect_eq(r.status, cases[i].status, "'%s': %s", cases[i].args, r.out);
		cr_expect(strstr(r.out, cases[i].want), "'%s': %s", cases[i].args, r.out);
		free(r.out);
	}
}

/* A folder's ./.infsdbinit (here a hostile one: it runs `shell`) is not
 * read unless the folder is trusted or the file named: -batch never,
 * interactive only under `set auto-load safe-path`; -ix reads it; each
 * skip says so and how to read it; -nx silences it. */
Test(options, local_init_file_is_not_trusted)
{
	char dir[64];
	cr_assert_not_null(proc_tmpdir(dir, sizeof dir, "infsdb-hostile"));
	char path[600], pwned[600];
	snprintf(path, sizeof path, "%s/.infsdbinit", dir);
	snprintf(pwned, sizeof pwned, "%s/PWNED", dir);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	fprintf(f, "shell touch '%s'\necho HOSTILE\\n\n", pwned);
	fclose(f);
	static const struct { const char *args; bool read; const char *want; } cases[] = {
		{ "-batch", false, "was not read: -batch reads no init file of the current folder. "
		  "Read it with \"-ix .infsdbinit\", or give -nx to say nothing." },
		{ "", false, "was not read: the folder is not in the auto-load safe-path. Read it "
		  "with \"-ix .infsdbinit\", or trust the folder with \"add-auto-load-safe-path "
		  "FOLDER\" in ~/.infsdbinit, or give -nx to say nothing." },
		{ "-iex 'set auto-load safe-path /nowhere:/elsewhere'", false, "not in the auto-load" },
		{ "-iex 'set auto-load safe-path .'", true, "HOSTILE" },
		{ "-iex 'add-auto-load-safe-path /'", true, "HOSTILE" },
		{ "-batch -iex 'set auto-load safe-path /'", false, "-batch reads no init file" },
		{ "-batch -ix .infsdbinit", true, "HOSTILE" },
		{ "-batch -nx", false, "" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char cmd[8192];
		snprintf(cmd, sizeof cmd, "cd '%s' && HOME=/nonexistent '%s' -q %s '%s/"
			 DEFAULT_PROG "' < /dev/null", dir, INFSDB_BIN, cases[i].args, SRCDIR);
		result r;
		r.status = proc_shell(cmd, &r.out);
		cr_expect_eq(r.status, 0, "'%s': %s", cases[i].args, r.out);
		cr_expect(strstr(r.out, cases[i].want), "'%s': %s", cases[i].args, r.out);
		cr_expect_eq(access(pwned, F_OK) == 0, cases[i].read, "'%s': the init file %s:\n%s",
			     cases[i].args, cases[i].read ? "was not read" : "ran", r.out);
		if (!*cases[i].want)
			cr_expect(!strstr(r.out, "warning"), "'%s': %s", cases[i].args, r.out);
		unlink(pwned);
		free(r.out);
	}
	result r = run("-batch -ex 'show auto-load safe-path' -ex 'set auto-load safe-path /a:b' "
		       "-ex 'show auto-load' -ex 'set auto-load foo' -ex 'set auto-load safe-path' "
		       "-ex 'add-auto-load-safe-path ~/labs:~' -ex 'show auto-load' " DEFAULT_PROG);
	cr_expect(strstr(r.out, "List of directories from which it is safe to read "
			 "./.infsdbinit is \"\".\n"), "%s", r.out);
	char src[4096], want[4200]; /* the folder as getcwd names it: SRCDIR may hold ".." */
	cr_assert_not_null(realpath(SRCDIR, src));
	snprintf(want, sizeof want, "is \"/a:%s/b\"", src);
	cr_expect(strstr(r.out, want), "%s", r.out);
	cr_expect(strstr(r.out, "set auto-load: expected \"safe-path"), "%s", r.out);
	cr_expect(strstr(r.out, "is \"/nonexistent/labs:/nonexistent\""), "%s", r.out);
	free(r.out);
	unlink(path);
	rmdir(dir);
}

/* Command files are read within a bound: a folder, /dev/zero (a NUL at
 * once), a line of more than 4096 bytes and a NUL byte are each refused
 * at once with the file and line, from -x and from source alike, and
 * the session goes on with the next command. */
Test(options, command_files_are_bounded)
{
	char dir[64];
	cr_assert_not_null(proc_tmpdir(dir, sizeof dir, "infsdb-cmds"));
	char longp[600], nul[600];
	snprintf(longp, sizeof longp, "%s/long.cmds", dir);
	snprintf(nul, sizeof nul, "%s/nul.cmds", dir);
	FILE *f = fopen(longp, "w");
	cr_assert_not_null(f);
	fputs("echo first\\n\n", f);
	for (int i = 0; i < 5000; i++)
		fputc('a', f);
	fputs("\necho never\\n\n", f);
	fclose(f);
	f = fopen(nul, "w");
	cr_assert_not_null(f);
	fputs("echo one\\n\necho t", f);
	fputc(0, f);
	fputs("wo\\n\n", f);
	fclose(f);
	static const char *const wants[] = {
		": is a folder; expected a file of commands.",
		"/dev/zero:1: a NUL byte; expected lines of text.",
		"long.cmds:2: a line longer than 4096 bytes; expected commands of at most that.",
		"nul.cmds:2: a NUL byte; expected lines of text.",
	};
	const char *files[] = { dir, "/dev/zero", longp, nul };
	for (size_t i = 0; i < 4; i++)
		for (int how = 0; how < 2; how++) {
			result r = how ? run("-batch -nx -ex 'source %s' -ex 'echo after\\n' " DEFAULT_PROG,
					     files[i])
				       : run("-batch -nx -x '%s' -ex 'echo after\\n' " DEFAULT_PROG, files[i]);
			cr_expect_eq(r.status, 1, "%s: %s", files[i], r.out);
			cr_expect(strstr(r.out, wants[i]), "%s: %s", files[i], r.out);
			cr_expect(strstr(r.out, "after\n"), "%s: the session stopped:\n%s", files[i],
				  r.out);
			cr_expect(!strstr(r.out, "never") && !strstr(r.out, "two"), "%s: %s", files[i],
				  r.out);
			free(r.out);
		}
	unlink(longp);
	unlink(nul);
	rmdir(dir);
}

/* -l BUF=FILE: a buffer's data at the start of every run. */
Test(options, load)
{
	static const struct { const char *args, *want; int status; } cases[] = {
		{ "-batch -l A=tests/dbg/load_A7.npy -ex run -ex 'print A[2]' "
		  "tests/dbg/valid_load.ins", "$1 = 9", 0 },
		{ "-batch --load=A=tests/dbg/load_A7.npy -ex run -ex 'print B[2]' -ex check "
		  "tests/dbg/valid_load.tdfg", "$1 = 17", 0 },
		{ "-batch -l Q=tests/dbg/load_A7.npy tests/dbg/valid_load.tdfg",
		  "infsdb: error: -l Q=tests/dbg/load_A7.npy: tests/dbg/valid_load.tdfg (lowered) "
		  "declares no array or tensor 'Q' (it has: A, B, l, s)", 1 },
		{ "-batch -l Q=x.npy tests/dbg/valid_load.ins", "tests/dbg/valid_load.ins declares no buffer 'Q' (it has: A, B, l, s)", 1 },
		{ "-batch -l A=x -l A=y tests/dbg/valid_load.ins", "-l A is given twice", 2 },
		{ "-batch -l A tests/dbg/valid_load.ins", "-l A: expected BUF=FILE", 2 },
		{ "-batch -l A= tests/dbg/valid_load.ins", "-l A=: expected BUF=FILE", 2 },
		{ "-batch -l A=- tests/dbg/valid_load.ins", "infsdb reads its commands from standard "
		  "input", 2 },
		{ "-batch -l A=tests/dbg/nonexistent.npy tests/dbg/valid_load.ins",
		  "tests/dbg/nonexistent.npy: error: cannot open", 1 },
		{ "-batch -l A=tests/dbg/expect_C.npy tests/dbg/valid_load.ins", "expect_C.npy: error:", 1 },
		{ "-batch -l A=tests/dbg/valid_load.ins tests/dbg/valid_load.ins", "not a .npy file", 1 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		result r = run("%s", cases[i].args);
		cr_expect_eq(r.status, cases[i].status, "'%s': %s", cases[i].args, r.out);
		cr_expect(strstr(r.out, cases[i].want), "'%s': %s", cases[i].args, r.out);
		free(r.out);
	}
}

Test(options, ex_in_order_and_status)
{
	result r = run("-batch -ex 'print 1' -x tests/dbg/sourced.inc -ex 'print 2' " DEFAULT_PROG);
	cr_expect_eq(r.status, 1, "%s", r.out); /* $pc before run fails */
	cr_expect_str_eq(r.out, "$1 = 1\nin sourced.inc\nThe program is not being run.\n$2 = 2\n");
	free(r.out);
	r = run("-batch -ex run -ex check " DEFAULT_PROG);
	cr_expect_eq(r.status, 0, "%s", r.out);
	free(r.out);
	r = run("-batch -ex run -ex 'set var C[0] = 1' -ex check " DEFAULT_PROG);
	cr_expect_eq(r.status, 3, "%s", r.out);
	free(r.out);
	r = run("-batch -ex run -ex quit -ex nosuch " DEFAULT_PROG);
	cr_expect_eq(r.status, 0, "%s", r.out);
	free(r.out);
}

/* At the console, Enter after `list` of a tDFG shows the lines that
 * follow (tests/dbg/tdfg_enter.in: empty lines are Enter), until the
 * machine moves: then `list` centres on the node again. */
Test(options, enter_continues_a_tdfg_listing)
{
	char cmd[8192];
	snprintf(cmd, sizeof cmd, "cd '%s' && (HOME=/nonexistent '%s' -q -nx tests/dbg/tdfg_sum.tdfg "
		 "<tests/dbg/tdfg_enter.in)", SRCDIR, INFSDB_BIN);
	result r;
	r.status = proc_shell(cmd, &r.out);
	cr_expect_eq(r.status, 0, "%s", r.out);
	const char *first = strstr(r.out, "(infsdb) list 6\n   1    #");
	const char *more = first ? strstr(first, "   10   e = shift X, -1, +0\n(infsdb) \n   11   b =") : NULL;
	const char *end = more ? strstr(more, "   20   k5 = const u8 5\n(infsdb) \n   21   P =") : NULL;
	cr_expect(end && strstr(end, "   22   output P\n(infsdb) list X\n   2    #"), "%s", r.out);
	const char *moved = strstr(r.out, "(infsdb) list\n   3    #");
	cr_expect(moved && strstr(moved, "=> 8    w = shift X, +1, +0\n") &&
		  strstr(moved, "   12   k = const u8 3\n(infsdb) \n   13   S ="), "%s", r.out);
	free(r.out);
}

/* -x - reads the commands from standard input, as a script. */
Test(options, commands_from_standard_input)
{
	char cmd[8192];
	snprintf(cmd, sizeof cmd, "cd '%s' && (printf 'run\\nprint S[0]\\nbogus\\n' | HOME=/nonexistent "
		 "'%s' -batch -nx -x - samples/ar/mac.ar 2>&1)", SRCDIR, INFSDB_BIN);
	result r;
	r.status = proc_shell(cmd, &r.out);
	cr_expect_eq(r.status, 1, "a failed command: exit 1; %s", r.out);
	cr_expect(strstr(r.out, "$1 = -86675\n"), "%s", r.out);
	cr_expect(strstr(r.out, "Undefined command: \"bogus\""), "%s", r.out);
	free(r.out);
}

Test(options, machine_override)
{
	result r = run("-batch -m bitlines=32 -ex run -ex 'print C[15]' -ex 'info machine' "
		       DEFAULT_PROG);
	cr_expect_eq(r.status, 0, "%s", r.out);
	cr_expect(strstr(r.out, "$1 = 2\n"), "%s", r.out);
	cr_expect(strstr(r.out, "16 wordlines x 32 bitlines"), "%s", r.out);
	free(r.out);
}

/* set var rounds a float element with the machine's fp mode: fp=ftz
 * (the default) flushes 1e-6, below f16's normal range, to zero; fp=ieee
 * keeps it as the subnormal 17 x 2^-24. */
Test(options, set_var_rounds_with_the_fp_mode)
{
	result r = run("-batch -nx -ex start -ex 'set var H[2] = 1e-6' -ex 'print/x H[2]' "
		       "-ex 'info machine' tests/dbg/float.ins");
	cr_expect_eq(r.status, 0, "%s", r.out);
	cr_expect(strstr(r.out, "$1 = 0x0\n"), "%s", r.out);
	cr_expect(strstr(r.out, "  controller  fp=ftz latency=baseline cordic=17\n"), "%s", r.out);
	free(r.out);
	r = run("-batch -nx -m fp=ieee -ex start -ex 'set var H[2] = 1e-6' -ex 'print/x H[2]' "
		"-ex 'print H[2]' -ex 'info machine' tests/dbg/float.ins");
	cr_expect_eq(r.status, 0, "%s", r.out);
	cr_expect(strstr(r.out, "$1 = 0x11\n$2 = 1.0133e-06\n"), "%s", r.out);
	cr_expect(strstr(r.out, "  controller  fp=ieee latency=baseline cordic=17\n"), "%s", r.out);
	free(r.out);
}

/* ---- stepping micro-op by micro-op gives the bits of a full-speed run ---- */

/* What `print BUF` and `x/Nt 0 0` show, computed from a machine that ran
 * the stream at full speed (emu_run_all without stepi). */
static char *full_speed_view(const char *path)
{
	emu_program p;
	diag d;
	diag_clear(&d);
	const sram_geom g = sram_geom_default();
	cr_assert_eq(emu_parse_file(path, &g, &p, &d), 0, "%s", d.msg);
	emu_machine *em = emu_machine_new(&p, &d);
	cr_assert_not_null(em);
	cr_assert_eq(emu_init_buffers(em, &d), 0);
	cr_assert_eq(emu_run_all(em, false, &d), 0);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	for (size_t b = 0; b < p.nbufs; b++) {
		const emu_buffer *buf = &p.bufs[b];
		fprintf(f, "%s = {", buf->name);
		for (uint64_t i = 0; i < buf->length; i++) {
			uint64_t v = emu_elem_get(em, buf, i);
			if (buf->is_signed)
				fprintf(f, "%s%lld", i ? ", " : "", (long long)isa_sext(v, buf->width));
			else
				fprintf(f, "%s%llu", i ? ", " : "", (unsigned long long)v);
		}
		fprintf(f, "}\n");
	}
	for (unsigned wl = 0; wl < p.geom.wordlines; wl++) {
		fprintf(f, "array 0 wl %u: ", wl); /* bit 0 rightmost, as x/t */
		for (unsigned bl = p.geom.bitlines; bl-- > 0;)
			fputc(sram_get_bit(em->m, 0, wl, bl) ? '1' : '0', f);
		fputc('\n', f);
	}
	fclose(f);
	emu_machine_free(em);
	emu_program_free(&p);
	return text;
}

Test(stepi, same_bits_as_full_speed)
{
	char cmds[] = "/tmp/infsdb-stepi-XXXXXX";
	int fd = mkstemp(cmds);
	cr_assert(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fprintf(f, "set print repeats unlimited\nstart\n"); /* every element, as the view */
	for (int i = 0; i < 33; i++) /* tests/dbg/steps.ins runs 33 micro-ops */
		fprintf(f, "stepi\n");
	fprintf(f, "print A\nprint B\nprint C\nprint D\nx/16t 0 0\n");
	fclose(f);
	result r = run("-batch -nx -x %s tests/dbg/steps.ins", cmds);
	unlink(cmds);
	cr_assert_eq(r.status, 0, "%s", r.out);
	char *view = full_speed_view(SRCDIR "/tests/dbg/steps.ins");
	const char *tail = strstr(r.out, "Program finished: 5 commands, 33 cycles.\n");
	cr_assert_not_null(tail, "%s", r.out);
	cr_expect_str_eq(tail + strlen("Program finished: 5 commands, 33 cycles.\n"), view);
	free(view);
	free(r.out);
}

/* ---- checkpoints ---- */

Test(checkpoint, round_trip)
{
	char dir[64];
	cr_assert_not_null(proc_tmpdir(dir, sizeof dir, "infsdb-ckpt"));
	/* Save in the middle of command 1, run to the end, load, run again:
	 * the same values and statistics, and check still agrees. */
	result r = run("-batch -nx -ex start -ex 'stepi 10' -ex 'checkpoint save %s/a.ckpt' "
		       "-ex continue -ex 'print C' -ex 'print D' -ex 'info stats' "
		       "-ex 'checkpoint load %s/a.ckpt' -ex 'info machine' -ex continue "
		       "-ex 'print C' -ex 'print D' -ex 'info stats' -ex check tests/dbg/steps.ins",
		       dir, dir);
	cr_expect_eq(r.status, 0, "%s", r.out);
	cr_expect(strstr(r.out, "in command 1, next micro-op 6 (of 0..7), cycle 10\n"), "%s", r.out);
	const char *mid = strstr(r.out, "Checkpoint ");
	mid = mid ? strstr(mid + 1, "loaded.") : NULL;
	cr_assert_not_null(mid, "%s", r.out);
	const char *first = strstr(r.out, "C = {");
	const char *second = strstr(mid, "C = {");
	cr_assert(first && second);
	size_t n = (size_t)(strstr(first, "transpose unit") - first);
	cr_expect(strncmp(first, second, n) == 0, "%s", r.out);
	cr_expect(strstr(r.out, "check: 4 buffers match the reference after 5 commands.\n"),
		  "%s", r.out);
	free(r.out);
	/* Another machine or another program: refused, nothing changed. */
	r = run("-batch -nx -m wordlines=32 -ex 'checkpoint load %s/a.ckpt' -ex 'info machine' "
		"tests/dbg/steps.ins", dir);
	cr_expect_eq(r.status, 1);
	cr_expect(strstr(r.out, "this file is for another machine"), "%s", r.out);
	cr_expect(strstr(r.out, "not running\n"), "%s", r.out);
	free(r.out);
	r = run("-batch -nx -ex 'checkpoint load %s/a.ckpt' " DEFAULT_PROG, dir);
	cr_expect_eq(r.status, 1);
	cr_expect(strstr(r.out, "this file was saved from another program"), "%s", r.out);
	free(r.out);
	/* The loaded state is the base of reverse execution. */
	r = run("-batch -nx -ex 'checkpoint load %s/a.ckpt' -ex 'stepi 3' -ex 'reverse-stepi 5' "
		"-ex 'info machine' tests/dbg/steps.ins", dir);
	cr_expect_eq(r.status, 0, "%s", r.out);
	cr_expect(strstr(r.out, "No more reverse-execution history.\n"), "%s", r.out);
	cr_expect(strstr(r.out, "in command 1, next micro-op 6 (of 0..7), cycle 10\n"), "%s", r.out);
	free(r.out);
	char cmd[512];
	snprintf(cmd, sizeof cmd, "head -c 300 %s/a.ckpt > %s/cut.ckpt", dir, dir);
	cr_assert_eq(system(cmd), 0);
	r = run("-batch -nx -ex 'checkpoint load %s/cut.ckpt' tests/dbg/steps.ins", dir);
	cr_expect_eq(r.status, 1);
	cr_expect(strstr(r.out, "the checkpoint's data is damaged"), "%s", r.out);
	free(r.out);
	cr_assert_eq(proc_rmdir(dir), 0);
}

/* ---- record vcd ---- */

/* The last value of each wordline signal wl0..wl15 in a VCD of one
 * 16 x 16 array, as "array 0 wl N: BITS" lines, bitline 0 leftmost. */
static char *vcd_rows(const char *vcd)
{
	char ids[16][8] = { { 0 } }, vals[16][17] = { { 0 } };
	unsigned wl;
	char id[8], bits[64];
	for (const char *line = vcd; line && *line;) {
		if (sscanf(line, "$var reg 16 %7s wl%u $end", id, &wl) == 2 && wl < 16)
			strcpy(ids[wl], id);
		else if (sscanf(line, "b%63s %7s", bits, id) == 2)
			for (unsigned k = 0; k < 16; k++)
				if (ids[k][0] && strcmp(ids[k], id) == 0 && strlen(bits) == 16)
					strcpy(vals[k], bits);
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	for (unsigned k = 0; k < 16; k++) {
		fprintf(f, "array 0 wl %u: ", k); /* the VCD's order: bit 0 rightmost */
		for (unsigned bl = 0; bl < 16; bl++)
			fputc(vals[k][bl] ? vals[k][bl] : '?', f);
		fputc('\n', f);
	}
	fclose(f);
	return text;
}

Test(record, vcd_ends_with_the_full_speed_bits)
{
	char dir[64];
	cr_assert_not_null(proc_tmpdir(dir, sizeof dir, "infsdb-vcd"));
	result r = run("-batch -nx -ex start -ex 'record vcd %s/a.vcd 0.0.0' -ex continue "
		       "-ex 'record stop' tests/dbg/steps.ins", dir);
	cr_expect_eq(r.status, 0, "%s", r.out);
	cr_expect(strstr(r.out, "(cycles up to 33)"), "%s", r.out);
	free(r.out);
	char path[512];
	snprintf(path, sizeof path, "%s/a.vcd", dir);
	char *vcd = proc_slurp(path, NULL);
	cr_assert_not_null(vcd);
	cr_expect(strstr(vcd, "$enddefinitions $end\n#0\n$dumpvars\n"), "%s", vcd);
	cr_expect(strstr(vcd, "\n#1\n") && strstr(vcd, "\n#33\n"), "%s", vcd);
	char *rows = vcd_rows(vcd);
	char *view = full_speed_view(SRCDIR "/tests/dbg/steps.ins");
	cr_expect(strstr(view, rows), "VCD rows:\n%s\nfull speed:\n%s", rows, view);
	free(rows);
	free(view);
	free(vcd);
	/* Reverse execution and the end of the session end a recording. */
	r = run("-batch -nx -ex start -ex 'record vcd %s/b.vcd' -ex 'stepi 3' -ex reverse-stepi "
		"-ex 'record vcd %s/c.vcd' -ex 'stepi 2' tests/dbg/steps.ins", dir, dir);
	cr_expect_eq(r.status, 0, "%s", r.out);
	cr_expect(strstr(r.out, "Recording stopped: reverse execution.\nRecording of "), "%s", r.out);
	free(r.out);
	snprintf(path, sizeof path, "%s/c.vcd", dir);
	vcd = proc_slurp(path, NULL);
	cr_assert_not_null(vcd, "the recording was not written at the end of the session");
	cr_expect(strstr(vcd, "\n#2\n$dumpvars\n") && strstr(vcd, "\n#4\n"), "%s", vcd);
	free(vcd);
	cr_assert_eq(proc_rmdir(dir), 0);
}

/* A VCD's scopes and variables, parsed: each $var as its full path
 * (bank0.way1.array0.wl3) and identifier; the last value of each
 * identifier. */
typedef struct vcd {
	char path[512][72];
	char id[512][8];
	char last[512][80];
	int nvars;
	char scopes[64][48]; /* the array scopes, in the order they open */
	int nscopes;
	int depth_max;
} vcd;

static void vcd_parse(const char *text, vcd *v)
{
	char stack[8][16], name[16], id[8], bits[80];
	int depth = 0;
	unsigned width;
	memset(v, 0, sizeof *v);
	for (const char *line = text; line && *line;) {
		if (sscanf(line, "$scope module %15s $end", name) == 1) {
			cr_assert_lt(depth, 8);
			snprintf(stack[depth++], sizeof stack[0], "%s", name);
			v->depth_max = depth > v->depth_max ? depth : v->depth_max;
			if (!strncmp(name, "array", 5) && v->nscopes < 64) {
				cr_assert_eq(depth, 3, "array scope %s at depth %d", name, depth);
				snprintf(v->scopes[v->nscopes++], sizeof v->scopes[0], "%s.%s.%s",
					 stack[0], stack[1], stack[2]);
			}
		} else if (!strncmp(line, "$upscope $end", 13)) {
			cr_assert_gt(depth, 0, "an $upscope with no scope open");
			depth--;
		} else if (sscanf(line, "$var reg %u %7s %15s $end", &width, id, name) == 3) {
			cr_assert_eq(depth, 3, "a variable outside an array scope");
			cr_assert_lt(v->nvars, 512);
			snprintf(v->path[v->nvars], sizeof v->path[0], "%s.%s.%s.%s", stack[0],
				 stack[1], stack[2], name);
			snprintf(v->id[v->nvars++], sizeof v->id[0], "%s", id);
		} else if (sscanf(line, "b%79s %7s", bits, id) == 2) {
			for (int k = 0; k < v->nvars; k++)
				if (!strcmp(v->id[k], id))
					snprintf(v->last[k], sizeof v->last[0], "%s", bits);
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	cr_assert_eq(depth, 0, "scopes left open");
	for (int a = 0; a < v->nvars; a++)
		for (int b = 0; b < a; b++) {
			cr_assert_str_neq(v->path[a], v->path[b], "%s recorded twice", v->path[a]);
			cr_assert_str_neq(v->id[a], v->id[b], "identifier %s used twice", v->id[a]);
		}
}

static const char *vcd_last(const vcd *v, const char *path)
{
	for (int k = 0; k < v->nvars; k++)
		if (!strcmp(v->path[k], path))
			return v->last[k];
	cr_assert_fail("no variable %s in the VCD", path);
	return NULL;
}

/* Two banks of two ways of two arrays: arrays named out of order, one
 * twice (as a number and as BANK.WAY.ARRAY), are recorded once each in
 * scopes bank -> way -> array; a wordline's last value is what `x`
 * shows for it. */
Test(record, vcd_scopes_nest)
{
	char dir[64], path[512];
	cr_assert_not_null(proc_tmpdir(dir, sizeof dir, "infsdb-vcd"));
	snprintf(path, sizeof path, "%s/p.ins", dir);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs("machine wordlines=16 bitlines=16 arrays=2 ways=2 mesh=2x1\n"
	      "buffer A u4 128 wl=0 arrays=0:1:8 init=random:1\n"
	      "buffer B u4 128 wl=4 arrays=0:1:8 init=random:2\n"
	      "buffer C u4 128 wl=8 arrays=0:1:8\n"
	      "add.u4 C, A, B\n", f);
	cr_assert_eq(fclose(f), 0);
	/* array 7 is 1.1.1, 4 is 1.0.0, 3 is 0.1.1 */
	result r = run("-batch -nx -ex start -ex 'record vcd %s/s.vcd 7 0 1.0.0 3 0.0.0 7' "
		       "-ex continue -ex 'record stop' -ex 'x/1t 7 9' %s", dir, path);
	cr_assert_eq(r.status, 0, "%s", r.out);
	cr_assert(strstr(r.out, "Recording 4 arrays to "), "%s", r.out);
	snprintf(path, sizeof path, "%s/s.vcd", dir);
	char *text = proc_slurp(path, NULL);
	cr_assert_not_null(text);
	vcd v;
	vcd_parse(text, &v);
	static const char *const want[] = { "bank0.way0.array0", "bank0.way1.array1",
					    "bank1.way0.array0", "bank1.way1.array1" };
	cr_assert_eq(v.nscopes, 4, "%d array scopes", v.nscopes);
	for (int i = 0; i < 4; i++)
		cr_expect_str_eq(v.scopes[i], want[i]);
	cr_assert_eq(v.depth_max, 3);
	cr_assert_eq(v.nvars, 4 * (16 + 7), "%d variables", v.nvars);
	/* each bank's scope opens once: the text holds it once */
	cr_assert_eq(strstr(strstr(text, "module bank1 ") + 1, "module bank1 "), NULL);
	/* x/1t prints bitline 0 rightmost, as the VCD's vectors do */
	const char *row = strstr(r.out, "array 7 wl 9: ");
	cr_assert_not_null(row, "%s", r.out);
	row += strlen("array 7 wl 9: ");
	const char *bits = vcd_last(&v, "bank1.way1.array1.wl9");
	cr_assert_eq(strlen(bits), 16);
	for (int k = 0; k < 16; k++)
		cr_expect_eq(bits[15 - k], row[15 - k], "bitline %d", k);
	free(text);
	free(r.out);
	cr_assert_eq(proc_rmdir(dir), 0);
}

/* ---- the interactive console, on a pseudo-terminal ---- */

#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>

/* Read from fd until want appears in the output since the last call
 * (or 10 s pass).  true if it appeared. */
static bool expect_output(int fd, const char *want)
{
	static char seen[65536];
	static size_t n;
	for (int waited = 0; waited < 10000;) {
		seen[n] = '\0';
		char *hit = strstr(seen, want);
		if (hit) {
			size_t used = (size_t)(hit - seen) + strlen(want);
			memmove(seen, seen + used, n - used + 1);
			n -= used;
			return true;
		}
		struct pollfd p = { fd, POLLIN, 0 };
		if (poll(&p, 1, 100) <= 0) {
			waited += 100;
			continue;
		}
		ssize_t got = read(fd, seen + n, sizeof seen - 1 - n);
		if (got <= 0)
			return false;
		n += (size_t)got;
	}
	return false;
}

static void type(int fd, const char *text)
{
	cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
}

Test(console, completion_repeat_history_and_ctrl_c)
{
	char home[64];
	cr_assert_not_null(proc_tmpdir(home, sizeof home, "infsdb-home"));
	char init[600];
	snprintf(init, sizeof init, "%s/.infsdbinit", home);
	FILE *f = fopen(init, "w");
	cr_assert_not_null(f);
	fputs("echo home init file\\n\n", f);
	fclose(f);
	int fd;
	pid_t pid = forkpty(&fd, NULL, NULL, NULL);
	cr_assert(pid >= 0);
	if (pid == 0) {
		setenv("HOME", home, 1);
		setenv("TERM", "dumb", 1);
		if (chdir(SRCDIR) == 0)
			execl(INFSDB_BIN, "infsdb", "-q", "tests/dbg/steps.ins", (char *)NULL);
		_exit(127);
	}
	cr_expect(expect_output(fd, "home init file"));
	cr_expect(expect_output(fd, "(infsdb) "));
	type(fd, "sta\t\r");            /* completes to start */
	cr_expect(expect_output(fd, "command 0 at tests/dbg/steps.ins:7"));
	type(fd, "stepi\r");
	cr_expect(expect_output(fd, "=> micro-op 1 (of 0..3)"));
	type(fd, "\r");                 /* Enter repeats stepi */
	cr_expect(expect_output(fd, "=> micro-op 2 (of 0..3)"));
	type(fd, "print/t $row(0, 8)\r");
	cr_expect(expect_output(fd, "$1 = 0101010101010101"));
	cr_expect(expect_output(fd, "(infsdb) ")); /* readline reads the tty now */
	type(fd, "half-typed");
	cr_expect(expect_output(fd, "half-typed")); /* readline has it */
	kill(pid, SIGINT);              /* Ctrl-C at the prompt drops the line */
	type(fd, "info machine\r");
	cr_expect(expect_output(fd, "in command 0, next micro-op 2 (of 0..3), cycle 2"));
	type(fd, "quit\r");
	int st;
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	close(fd);
	char hist[600];
	snprintf(hist, sizeof hist, "%s/.infsdb_history", home);
	char *h = proc_slurp(hist, NULL);
	cr_assert_not_null(h, "no history file");
	cr_expect(strstr(h, "start\nstepi\nprint/t $row(0, 8)\ninfo machine\nquit\n"), "%s", h);
	free(h);
	cr_assert_eq(proc_rmdir(home), 0);
}

/* The history keeps INFSDB_HISTSIZE commands (as gdb's GDBHISTSIZE), or
 * what `set history size` says; the file is cut to that many lines. */
static char *session_history(const char *histsize, const char *const *lines)
{
	char home[64];
	cr_assert_not_null(proc_tmpdir(home, sizeof home, "infsdb-hist"));
	int fd;
	pid_t pid = forkpty(&fd, NULL, NULL, NULL);
	cr_assert(pid >= 0);
	if (pid == 0) {
		setenv("HOME", home, 1);
		setenv("TERM", "dumb", 1);
		if (histsize)
			setenv("INFSDB_HISTSIZE", histsize, 1);
		if (chdir(SRCDIR) == 0)
			execl(INFSDB_BIN, "infsdb", "-q", "-nx", "tests/dbg/steps.ins", (char *)NULL);
		_exit(127);
	}
	for (size_t i = 0; lines[i]; i++) {
		cr_expect(expect_output(fd, "(infsdb) "));
		type(fd, lines[i]);
		type(fd, "\r");
	}
	int st;
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	close(fd);
	char hist[600];
	snprintf(hist, sizeof hist, "%s/.infsdb_history", home);
	char *h = proc_slurp(hist, NULL);
	cr_assert_not_null(h, "no history file");
	proc_rmdir(home);
	return h;
}

Test(console, history_size)
{
	static const char *const five[] = { "echo 1", "echo 2", "echo 3", "echo 4", "quit", NULL };
	char *h = session_history("2", five);
	cr_expect_str_eq(h, "echo 4\nquit\n");
	free(h);
	static const char *const set[] = { "echo 1", "set history size 3", "echo 2", "echo 3",
					   "quit", NULL };
	h = session_history(NULL, set);
	cr_expect_str_eq(h, "echo 2\necho 3\nquit\n");
	free(h);
	h = session_history("", five); /* empty: no limit */
	cr_expect_str_eq(h, "echo 1\necho 2\necho 3\necho 4\nquit\n");
	free(h);
}

/* ---- reverse execution from snapshots ---- */

/* The text after the line "@N" of an infsdb session, up to the next line
 * starting with '@' (malloc'd). */
static char *section(const char *out, int n)
{
	char mark[16];
	snprintf(mark, sizeof mark, "@%d\n", n);
	const char *p = strstr(out, mark);
	cr_assert_not_null(p, "no %s in\n%s", mark, out);
	p += strlen(mark);
	const char *q = strstr(p, "\n@");
	size_t len = q ? (size_t)(q - p) + 1 : strlen(p);
	char *text = strndup(p, len);
	cr_assert_not_null(text);
	return text;
}

/* Everything a state shows: buffers, statistics, the position, the raw
 * rows of every array. */
static const char state_cmds[] =
	"info machine\ninfo stats\nprint A\nprint B\nprint C\n"
	"x/32x 0 0\nx/32x 1 0\nx/32x 2 0\nx/32x 3 0\ncheck\n";

/* Going back by snapshots (one at every command boundary, so that some
 * hold a transfer waiting for its sync and the hazard tracker's pending
 * moves) and forward again gives, at every stop, the machine a straight
 * run has there: the same bits, statistics, hazards and position. */
Test(reverse, snapshots_then_forward_bit_identical)
{
	char cmds[600];
	snprintf(cmds, sizeof cmds, "/tmp/infsdb-rsnap-XXXXXX");
	int fd = mkstemp(cmds);
	cr_assert(fd >= 0);
	FILE *f = fdopen(fd, "w");
	/* straight to the end (each hazard stops the run) */
	fprintf(f, "set reverse interval 1\nrun\ncontinue\ncontinue\ncontinue\necho @1\\n\n%s",
		state_cmds);
	/* back to the start of command 2: a snapshot is there */
	fprintf(f, "echo @2\\n\nreverse-step 3\necho @3\\n\n%secho @4\\n\nshow reverse\n",
		state_cmds);
	/* from there (data in flight) to the end, and back there again */
	fprintf(f, "continue\ncontinue\necho @11\\n\n%secho @12\\n\nreverse-step 3\n", state_cmds);
	/* further back, into command 0, and forward to command 2 again */
	fprintf(f, "reverse-step\nreverse-stepi\nstep\nnext\necho @5\\n\n%secho @10\\n\n",
		state_cmds);
	/* and on to the end */
	fprintf(f, "continue\ncontinue\ncontinue\necho @6\\n\n%secho @7\\n\n", state_cmds);
	/* a straight run to command 2, with no snapshot at all */
	fprintf(f, "set reverse interval unlimited\nstart\nnext 2\necho @8\\n\n%secho @9\\n\n",
		state_cmds);
	fclose(f);
	result r = run("-batch -nx -x %s samples/move/missing_sync.ins", cmds);
	unlink(cmds);
	char *end = section(r.out, 1), *end2 = section(r.out, 6), *end3 = section(r.out, 11);
	cr_expect_str_eq(end2, end, "after reverse then forward: another end state");
	cr_expect_str_eq(end3, end, "from a snapshot with data in flight: another end state");
	free(end3);
	char *back = section(r.out, 3), *fwd = section(r.out, 5), *straight = section(r.out, 8);
	cr_expect(strstr(straight, "before command 2, cycle 11"), "%s", straight);
	cr_expect_str_eq(back, straight, "reverse-step 3: another state than a straight run's");
	cr_expect_str_eq(fwd, straight, "back and forward: another state than a straight run's");
	char *shown = section(r.out, 4);
	cr_expect(strstr(shown, "Snapshots: 6, "), "%s", shown);
	cr_expect(strstr(shown, "the last reverse motion replayed 0."), "%s", shown);
	free(end), free(end2), free(back), free(fwd), free(straight), free(shown);
	free(r.out);
}

/* Every reverse step mid-history replays at most one interval when the
 * snapshots are within the budget: tests/dbg/rev_wide.ins lays its
 * buffers over every 4th array, as the 1M-element samples do, so three
 * quarters of each written page are zero.  Its seven snapshots (one
 * before each mul.i32 of 1184 micro-ops, the interval being 1300, and
 * the end) fit in 600K stored as non-zero words, where whole pages held
 * two (the base and the newest: a step back to the middle replayed
 * 3647 micro-ops).  INFSDB_REPLAY_INTERRUPT stops (and, in batch mode,
 * ends) a session whose replay goes past one interval. */
Test(reverse, bounded_mid_history)
{
	char cmd[4096];
	int n = snprintf(cmd, sizeof cmd, "cd '%s' && HOME=/nonexistent INFSDB_REPLAY_INTERRUPT=1301 "
			 "'%s' -batch -nx -ex 'set reverse interval 1300' -ex 'set reverse "
			 "budget 600K' -ex run -ex 'reverse-step 6' -ex 'show reverse'", SRCDIR,
			 INFSDB_BIN);
	for (int k = 0; k < 6; k++)
		n += snprintf(cmd + n, sizeof cmd - (size_t)n, " -ex reverse-stepi -ex 'show "
			      "reverse' -ex reverse-step -ex 'show reverse'");
	snprintf(cmd + n, sizeof cmd - (size_t)n, " tests/dbg/rev_wide.ins");
	char *out;
	const int st = proc_shell(cmd, &out);
	cr_assert_eq(st, 0, "%s", out);
	cr_expect(strstr(out, "Snapshots: 7, "), "%s", out);
	size_t steps = 0;
	for (const char *p = out; (p = strstr(p, "motion replayed ")) != NULL; steps++) {
		p += strlen("motion replayed ");
		const unsigned long v = strtoul(p, NULL, 10);
		cr_expect(v <= 1300, "a reverse step replayed %lu micro-ops:\n%s", v, out);
	}
	cr_expect_eq(steps, 13, "%s", out);
	free(out);
}

/* Ctrl-D at define's ">" prompt ends the definition, as gdb's: the
 * session goes on, and the command has the lines typed before it. */
Test(console, ctrl_d_ends_define)
{
	int fd;
	pid_t pid = forkpty(&fd, NULL, NULL, NULL);
	cr_assert(pid >= 0);
	if (pid == 0) {
		setenv("HOME", "/nonexistent", 1);
		setenv("TERM", "dumb", 1);
		if (chdir(SRCDIR) == 0)
			execl(INFSDB_BIN, "infsdb", "-q", "-nx", "tests/dbg/steps.ins", (char *)NULL);
		_exit(127);
	}
	cr_expect(expect_output(fd, "(infsdb) "));
	type(fd, "define hi\r");
	cr_expect(expect_output(fd, ">"));
	type(fd, "echo hello from hi\\n\r");
	cr_expect(expect_output(fd, ">"));
	type(fd, "\x04");
	cr_expect(expect_output(fd, "(infsdb) "));
	type(fd, "hi\r");
	cr_expect(expect_output(fd, "hello from hi"));
	type(fd, "quit\r");
	int st;
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	close(fd);
}

/* Ctrl-C during a replay stops it where it got to, and the session goes
 * on.  INFSDB_REPLAY_INTERRUPT makes infsdb raise SIGINT itself after so
 * many replayed micro-ops, so that the signal arrives inside the replay
 * whatever the machine's speed; the real handler takes it. */
Test(reverse, ctrl_c_stops_a_replay)
{
	int fd;
	pid_t pid = forkpty(&fd, NULL, NULL, NULL);
	cr_assert(pid >= 0);
	if (pid == 0) {
		setenv("HOME", "/nonexistent", 1);
		setenv("TERM", "dumb", 1);
		setenv("INFSDB_REPLAY_INTERRUPT", "5", 1);
		if (chdir(SRCDIR) == 0)
			execl(INFSDB_BIN, "infsdb", "-q", "-nx", "tests/dbg/steps.ins", (char *)NULL);
		_exit(127);
	}
	cr_expect(expect_output(fd, "(infsdb) "));
	type(fd, "set reverse interval unlimited\r");
	cr_expect(expect_output(fd, "(infsdb) "));
	type(fd, "run\r");
	cr_expect(expect_output(fd, "Program finished: 5 commands, 33 cycles."));
	type(fd, "reverse-stepi\r"); /* a replay of 32 micro-ops from the start */
	cr_expect(expect_output(fd, "Replay stopped by Ctrl-C, 20 micro-ops short of the target"));
	cr_expect(expect_output(fd, "command 2 at tests/dbg/steps.ins:10"));
	type(fd, "show reverse\r");
	cr_expect(expect_output(fd, "Position: micro-op 12 of the history; the last reverse "
				    "motion replayed 12."));
	type(fd, "stepi\r");
	cr_expect(expect_output(fd, "=> micro-op 1 (of 0..3)"));
	type(fd, "quit\r");
	int st;
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	close(fd);
}
