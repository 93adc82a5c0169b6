/* SPDX-License-Identifier: MIT */
/*
 * test_allocfail.c: injected allocation failures, as SQLite tests them
 * (doc/TESTING.md, "Injected failures").
 *
 * tests/infsim_af and tests/infsdb_af are infsim and infsdb whose own
 * allocations go through tests/alloc_fail.c.  Each scenario below is run
 * once to count its allocations and keep its output, then once for each
 * N (every N up to AF_EVERY, then evenly spaced ones up to AF_RUNS runs in
 * all, always the last) with the Nth allocation failing.  Each run must
 * either succeed with the same output as the first, or fail with status 1
 * and a message saying it ran out of memory; never a crash, a sanitizer
 * report (ASan, UBSan, LeakSanitizer: their exit codes are set apart
 * below), nor a partial output file: an output is either absent or equal
 * to the first run's, and nothing else (a temporary) is left in the
 * folder.
 *
 * Write errors on outputs: each output of a scenario written to
 * /dev/full must fail with status 1 and a message naming the write
 * error.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proc.h"

enum { AF_EVERY = 40, AF_RUNS = 160, AF_ASAN = 97, AF_UBSAN = 98 };

/* A scenario: files written into a fresh folder, a command run there
 * (%s: the program), and the output files it makes. */
typedef struct scenario {
	const char *name;
	const char *files[4][2];  /* name, text */
	const char *cmd;          /* with %s for the program */
	bool dbg;                 /* infsdb_af, else infsim_af */
	const char *outputs[3];
} scenario;

static const char prog_ins[] =
	"machine wordlines=64 bitlines=16 arrays=2 ways=2 mesh=2x1\n"
	"buffer A u8 64 wl=0 arrays=0:1:4 init=random:1\n"
	"buffer B u8 64 wl=8 arrays=0:1:4 init=random:2\n"
	"buffer C u8 64 wl=16 arrays=0:1:4\n"
	"buffer D u8 64 wl=24 arrays=0:1:4\n"
	"add.u8 C, A, B\n"
	"mul.u8 D, C, B\n";

static const char dbg_cmds[] =
	"break 1\nrun\nstepi 5\nprint C[3]\ncheckpoint save at.ckpt\nset checkpoint compression "
	"zstd\ncheckpoint save atz.ckpt\ncontinue\ncheckpoint load atz.ckpt\nx/4t 1 16\n"
	"checkpoint load at.ckpt\nstepi 3\nreverse-stepi 2\ninfo stats\ncheck\nrecord vcd w.vcd 0 1\n"
	"stepi 3\nrecord stop\n";

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f, "%s", path);
	fputs(text, f);
	cr_assert_eq(fclose(f), 0);
}

/* A fresh folder with the scenario's files. */
static void setup_dir(const scenario *sc, char *dir, size_t size)
{
	cr_assert_not_null(proc_tmpdir(dir, size, "infsim-af"));
	for (int i = 0; i < 4 && sc->files[i][0]; i++)
		write_file(dir, sc->files[i][0], sc->files[i][1]);
}

typedef struct outcome {
	proc_result r;
	unsigned long count;  /* allocations made */
	char *outs[3];        /* the output files' bytes, NULL if absent */
	size_t lens[3];
	bool stray;           /* a file in the folder that should not be there */
} outcome;

static bool expected_name(const scenario *sc, const char *name)
{
	if (!strcmp(name, ".") || !strcmp(name, "..") || !strcmp(name, "count"))
		return true;
	for (int i = 0; i < 4 && sc->files[i][0]; i++)
		if (!strcmp(name, sc->files[i][0]))
			return true;
	for (int i = 0; i < 3 && sc->outputs[i]; i++)
		if (!strcmp(name, sc->outputs[i]))
			return true;
	return false;
}

/* Run the scenario with the Nth allocation failing (0: none). */
static outcome run_once(const scenario *sc, unsigned long n)
{
	char dir[64], cmd[2048], prog[512], path[512];
	setup_dir(sc, dir, sizeof dir);
	snprintf(prog, sizeof prog,
		 "INFSIM_ALLOC_FAIL=%lu INFSIM_ALLOC_COUNT=count HOME=/nonexistent "
		 "ASAN_OPTIONS=detect_leaks=1:exitcode=%d UBSAN_OPTIONS=halt_on_error=1:exitcode=%d "
		 "'%s'", n, AF_ASAN, AF_UBSAN, sc->dbg ? INFSDB_AF : INFSIM_AF);
	snprintf(cmd, sizeof cmd, sc->cmd, prog);
	outcome o = { .r = proc_run_in(dir, "env", cmd) };
	snprintf(path, sizeof path, "%s/count", dir);
	/* no count: the program did not exit normally, which judge reports */
	char *count = proc_slurp(path, NULL);
	cr_assert(count || n, "%s: no allocation count:\n%s", sc->name, o.r.err);
	o.count = count ? strtoul(count, NULL, 10) : 0;
	free(count);
	for (int i = 0; i < 3 && sc->outputs[i]; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, sc->outputs[i]);
		o.outs[i] = proc_slurp(path, &o.lens[i]);
	}
	DIR *dp = opendir(dir);
	cr_assert_not_null(dp);
	for (struct dirent *e; (e = readdir(dp));)
		o.stray |= !expected_name(sc, e->d_name) && strncmp(e->d_name, "in", 2) != 0;
	closedir(dp);
	cr_assert_eq(proc_rmdir(dir), 0);
	return o;
}

static void outcome_free(outcome *o)
{
	proc_result_free(&o->r);
	for (int i = 0; i < 3; i++)
		free(o->outs[i]);
}

/* Is the run with the Nth allocation failing a clean success or a clean
 * failure, measured against the first run? */
static void judge(const scenario *sc, unsigned long n, const outcome *good, const outcome *o)
{
	const char *err = o->r.err ? o->r.err : "";
	cr_assert(o->r.status != AF_ASAN && o->r.status != AF_UBSAN && o->r.status >= 0 &&
			  !strstr(err, "Sanitizer") && !strstr(err, "runtime error"),
		  "%s, allocation %lu failing: status %d, crash or sanitizer report:\n%s", sc->name,
		  n, o->r.status, err);
	cr_assert(!o->stray, "%s, allocation %lu failing: a stray file was left", sc->name, n);
	/* A batch session goes on after a failed command, so a later output
	 * may differ (a checkpoint of another position); it is still whole:
	 * no temporary was left beside it (stray, above). */
	for (int i = 0; i < 3 && sc->outputs[i] && !(sc->dbg && o->r.status); i++)
		cr_assert(!o->outs[i] || (o->lens[i] == good->lens[i] &&
					  !memcmp(o->outs[i], good->outs[i], o->lens[i])),
			  "%s, allocation %lu failing: %s is a partial or other file", sc->name, n,
			  sc->outputs[i]);
	if (o->r.status == 0) {
		cr_assert_str_eq(o->r.out, good->r.out, "%s, allocation %lu failing: succeeded with "
				 "another output", sc->name, n);
		return;
	}
	cr_assert(o->r.status == 1 && strstr(err, "out of memory"),
		  "%s, allocation %lu failing: status %d without \"out of memory\":\n%s", sc->name, n,
		  o->r.status, err);
}

/* The Ns tried for a scenario of count allocations: 1..AF_EVERY, then
 * evenly spaced, and the last. */
static unsigned long nth(unsigned long count, unsigned k)
{
	if (count <= AF_RUNS || k < AF_EVERY)
		return k + 1;
	const unsigned long rest = count - AF_EVERY;
	return AF_EVERY + 1 + (unsigned long)((double)(k - AF_EVERY) * (double)(rest - 1) /
					      (double)(AF_RUNS - AF_EVERY - 1));
}

static void run_scenario(const scenario *sc)
{
	outcome good = run_once(sc, 0);
	cr_assert_eq(good.r.status, 0, "%s: %s", sc->name, good.r.err);
	cr_assert_gt(good.count, 0);
	for (int i = 0; i < 3 && sc->outputs[i]; i++)
		cr_assert_not_null(good.outs[i], "%s: no %s", sc->name, sc->outputs[i]);
	const unsigned runs = good.count < AF_RUNS ? (unsigned)good.count : AF_RUNS;
	for (unsigned k = 0; k < runs; k++) {
		const unsigned long n = nth(good.count, k);
		outcome o = run_once(sc, n);
		judge(sc, n, &good, &o);
		outcome_free(&o);
	}
	outcome_free(&good);
}

static const scenario parse_sc = {
	"parse", { { "p.ins", prog_ins } }, "%s disasm p.ins", false, { NULL }
};

static const scenario run_sc = {
	"run", { { "p.ins", prog_ins } }, "%s run p.ins -s D=d.npy -s C=c.bin --stats=json "
	"--stats-file=s.json", false, { "d.npy", "c.bin", "s.json" }
};

static const scenario check_sc = {
	"check", { { "p.ins", prog_ins } }, "%s run p.ins --check --stats -d C", false, { NULL }
};

static const scenario tdfg_sc = {
	"tdfg", { { NULL, NULL } }, "%s jit " SRCDIR "/samples/tdfg/stencil1d.tdfg -o l.ins", false,
	{ "l.ins" }
};

static const scenario tdfg_run_sc = {
	"tdfg run", { { NULL, NULL } }, "%s run " SRCDIR "/samples/tdfg/saxpy.tdfg --check", false,
	{ NULL }
};

static const scenario stepi_sc = {
	"run --stepi", { { "p.ins", prog_ins } }, "%s run p.ins --stepi --check -s D=d.npy", false,
	{ "d.npy" }
};

static const scenario vima_sc = {
	"vima", { { NULL, NULL } }, "%s vima " SRCDIR "/samples/vima/vecsum.vima -D N=2048 -s C=c.npy "
	"--stats=json --stats-file=s.json", false, { "c.npy", "s.json" }
};

static const scenario ar_sc = {
	"ar", { { NULL, NULL } }, "%s ar " SRCDIR "/samples/ar/mac.ar -D N=512 --flow-entries=2 "
	"--buffers=2 -s S=s.npy --stats=json --heatmap=h.svg", false, { "s.npy", "h.svg" }
};

static const scenario nsc_sc = {
	"nsc", { { NULL, NULL } }, "%s nsc " SRCDIR "/samples/nsc/histogram.nsc -D N=512 --check "
	"--stats -s H=h.npy", false, { "h.npy" }
};

static const scenario simt_sc = {
	"simt", { { NULL, NULL } }, "%s simt " SRCDIR "/samples/simt/vecadd.simt --check --stats",
	false, { NULL }
};

static const scenario dbg_sc = {
	"infsdb", { { "p.ins", prog_ins }, { "s.cmds", dbg_cmds } },
	"%s -batch -nx -x s.cmds p.ins", true, { "at.ckpt", "atz.ckpt", "w.vcd" }
};

Test(allocfail, parse, .timeout = 300)
{
	run_scenario(&parse_sc);
}

Test(allocfail, run, .timeout = 300)
{
	run_scenario(&run_sc);
}

Test(allocfail, check, .timeout = 300)
{
	run_scenario(&check_sc);
}

Test(allocfail, tdfg, .timeout = 300)
{
	run_scenario(&tdfg_sc);
	run_scenario(&tdfg_run_sc);
}

Test(allocfail, stepi, .timeout = 300)
{
	run_scenario(&stepi_sc);
}

/* The other systems' runs, each with its outputs. */
Test(allocfail, vima, .timeout = 300)
{
	run_scenario(&vima_sc);
}

Test(allocfail, ar, .timeout = 300)
{
	run_scenario(&ar_sc);
}

Test(allocfail, nsc, .timeout = 300)
{
	run_scenario(&nsc_sc);
}

Test(allocfail, simt, .timeout = 300)
{
	run_scenario(&simt_sc);
}

Test(allocfail, debugger_session, .timeout = 300)
{
	run_scenario(&dbg_sc);
}

/* ---- write errors: every output on a full disk ---- */

/* cmd (%s: the program) run in a folder with p.ins, its standard
 * output on /dev/full when out_full: status 1 and want in its messages,
 * and nothing left beside p.ins. */
static void full_disk(bool dbg, bool out_full, const char *cmd, const char *want)
{
	char dir[64], line[1024], prog[512], args[1200];
	cr_assert_not_null(proc_tmpdir(dir, sizeof dir, "infsim-full"));
	write_file(dir, "p.ins", prog_ins);
	snprintf(prog, sizeof prog, "HOME=/nonexistent '%s'", dbg ? INFSDB_AF : INFSIM_AF);
	snprintf(line, sizeof line, cmd, prog);
	/* proc_run_in sends standard output to a file of its own: a shell
	 * in between puts it on /dev/full */
	snprintf(args, sizeof args, "-c 'exec env \"$@\" >/dev/full' sh %s", line);
	proc_result r = proc_run_in(dir, out_full ? "sh" : "env", out_full ? args : line);
	cr_expect_eq(r.status, 1, "%s: status %d:\n%s", line, r.status, r.err);
	cr_expect(r.err && strstr(r.err, want), "%s: no \"%s\" in:\n%s", line, want, r.err);
	DIR *dp = opendir(dir);
	cr_assert_not_null(dp);
	for (struct dirent *e; (e = readdir(dp));)
		cr_expect(!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
				  !strcmp(e->d_name, "p.ins"),
			  "%s: left %s", line, e->d_name);
	closedir(dp);
	proc_result_free(&r);
	cr_assert_eq(proc_rmdir(dir), 0);
}

Test(write_errors, full_disk)
{
	static const char *const no_space = "write failed: No space left on device";
	full_disk(false, false, "%s run p.ins -s D=/dev/full", "/dev/full: error: " );
	full_disk(false, false, "%s run p.ins -s D=/dev/full", no_space);
	full_disk(false, false, "%s run p.ins --stats=json --stats-file=/dev/full", no_space);
	full_disk(false, false, "%s jit " SRCDIR "/samples/tdfg/saxpy.tdfg -o /dev/full",
		  no_space);
	full_disk(false, true, "%s disasm p.ins", "infsim: error: writing to standard output");
	full_disk(false, true, "%s run p.ins --stats -d C",
		  "infsim: error: writing to standard output");
	full_disk(false, false, "%s vima " SRCDIR "/samples/vima/vecsum.vima -D N=2048 -s C=/dev/full",
		  no_space);
	full_disk(false, false, "%s ar " SRCDIR "/samples/ar/mac.ar -D N=512 --heatmap=/dev/full",
		  no_space);
	full_disk(false, false, "%s nsc " SRCDIR "/samples/nsc/histogram.nsc -D N=512 -s H=/dev/full",
		  no_space);
	full_disk(false, true, "%s simt " SRCDIR "/samples/simt/vecadd.simt --stats",
		  "infsim: error: writing to standard output");
	full_disk(false, true, "%s nsc " SRCDIR "/samples/nsc/histogram.nsc -D N=512 --stats",
		  "infsim: error: writing to standard output");
	full_disk(false, true, "%s vima " SRCDIR "/samples/vima/vecsum.vima -D N=2048 --stats",
		  "infsim: error: writing to standard output");
	full_disk(false, true, "%s ar " SRCDIR "/samples/ar/mac.ar -D N=512 --stats",
		  "infsim: error: writing to standard output");
	full_disk(true, false, "%s -batch -nx -ex start -ex 'checkpoint save /dev/full' p.ins",
		  "checkpoint save: /dev/full: error: write failed");
	full_disk(true, false, "%s -batch -nx -ex start -ex 'set checkpoint compression zstd' "
		  "-ex 'checkpoint save /dev/full' p.ins",
		  "checkpoint save: /dev/full: error: write failed");
	full_disk(true, false, "%s -batch -nx -ex start -ex 'record vcd /dev/full' -ex stepi "
		  "-ex 'record stop' p.ins", "record: /dev/full: error: write failed");
	full_disk(true, true, "%s -batch -nx -ex start -ex 'info stats' p.ins",
		  "infsdb: error: writing to standard output");
}
