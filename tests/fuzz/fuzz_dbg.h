/* SPDX-License-Identifier: MIT */
/*
 * fuzz_dbg.h: an infsdb session for the fuzz targets of the debugger
 * (fuzz_dbg.c: command lines and expressions; fuzz_checkpoint.c:
 * checkpoint files), linked with dbg/'s convenience library.
 *
 * Once per process: a temporary folder holds three tiny programs (a
 * stream with an inter-bank move in flight, a tDFG program, and that
 * program's lowered stream validated against it with --tdfg), so that
 * every command stays bounded, and its folder w/ becomes the working
 * directory; the session's output (stdout and stderr, which the debugger
 * prints to) goes to /dev/null.  The sanitizers and libFuzzer write to
 * file descriptor 2 itself, which stays open.  Each input gets a new
 * session in batch mode; w/ is emptied of what the commands wrote after
 * it, and the folder is removed at exit.  Since the working directory
 * changes, give these targets absolute paths (replay.sh and fuzz.sh do).
 */
#ifndef INFSIM_FUZZ_DBG_H
#define INFSIM_FUZZ_DBG_H

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dbg.h"
#include "fuzz.h"

/* A stream: f16 on two banks (latency=optimised: per-bank traces), an
 * inter-bank move that a sync delivers, integer commands after it. */
static const char fuzz_dbg_stream[] =
	"machine wordlines=256 bitlines=8 arrays=1 ways=1 mesh=2x1 latency=optimised\n"
	"buffer A f16 16 wl=0 arrays=0:1:2 init=const:1.5\n"
	"buffer B f16 16 wl=16 arrays=0:1:2 init=iota\n"
	"buffer S f16 16 wl=32 arrays=0:1:2\n"
	"buffer T f16 8 wl=48 arrays=1\n"
	"buffer I u8 16 wl=64 arrays=0:1:2 init=random:3\n"
	"buffer J u8 16 wl=72 arrays=0:1:2\n"
	"set.f16 B, #40 @ arrays=1 bitlines=4:1:4\n"
	"mv.inter dist=1 wl=0 n=16 to=48 dst=0:1:8 @ arrays=0 bitlines=0:1:8\n"
	"add.f16 S, A, B\n"
	"sync\n"
	"mul.u8 J, I, I\n"
	"sub.u8 J, J, I\n"
	"sel.u8 J, J, I\n";

/* A tDFG program: an array read, shifted, added and stored, twice. */
static const char fuzz_dbg_tdfg[] =
	"machine wordlines=128 bitlines=16 arrays=2 ways=1 mesh=2x1\n"
	"array A i16 32 init=iota\n"
	"array B i16 32 init=zero\n"
	"region r 32\n"
	"x = tensor A\n"
	"l = shift x, +1\n"
	"s = add.i16 x, l\n"
	"store B, s\n"
	"repeat 2\n"
	"  run r\n"
	"  swap A, B\n"
	"end\n";

/* fuzz_require, to file descriptor 2 itself (stderr is /dev/null). */
#define fuzz_dbg_require(cond, what)                                                    \
	do {                                                                            \
		if (!(cond)) {                                                          \
			dprintf(2, "%s:%d: invariant failed: %s\n", __FILE__, __LINE__,  \
				what);                                                  \
			abort();                                                        \
		}                                                                       \
	} while (0)

enum fuzz_dbg_prog { FUZZ_DBG_STREAM, FUZZ_DBG_TDFG, FUZZ_DBG_VALID, FUZZ_DBG_PROGS };

static char fuzz_dbg_dir[64];

static void fuzz_dbg_write(const char *name, const char *text)
{
	FILE *f = fopen(name, "w");
	fuzz_dbg_require(f && fputs(text, f) >= 0 && fclose(f) == 0, "write a program file");
}

static void fuzz_dbg_clean(void);

/* At exit: the folder goes, with the programs. */
static void fuzz_dbg_remove(void)
{
	fuzz_dbg_clean();
	if (chdir(fuzz_dbg_dir) != 0)
		return;
	unlink("p.ins");
	unlink("p.tdfg");
	unlink("v.ins");
	rmdir("w");
	if (chdir("/") == 0)
		rmdir(fuzz_dbg_dir);
}

/* The folder, the programs, and the output silenced: once. */
static void fuzz_dbg_init(void)
{
	if (fuzz_dbg_dir[0])
		return;
	snprintf(fuzz_dbg_dir, sizeof fuzz_dbg_dir, "/tmp/infsim-fuzz-dbg-XXXXXX");
	fuzz_dbg_require(mkdtemp(fuzz_dbg_dir) != NULL, "a temporary folder");
	fuzz_dbg_require(chdir(fuzz_dbg_dir) == 0, "into the temporary folder");
	/* glibc's standard streams are variables that may be set (the GNU
	 * C Library manual, "Standard Streams"); fd 2 stays as it was. */
	FILE *null = fopen("/dev/null", "w");
	fuzz_dbg_require(null != NULL, "/dev/null");
	stdout = null;
	stderr = null;
	fuzz_dbg_write("p.ins", fuzz_dbg_stream);
	fuzz_dbg_write("p.tdfg", fuzz_dbg_tdfg);
	emu_tdfg t;
	emu_jit j;
	diag d;
	diag_clear(&d);
	fuzz_dbg_require(emu_tdfg_load("p.tdfg", NULL, &t, &j, &d) == 0, d.msg);
	fuzz_dbg_write("v.ins", j.text);
	emu_jit_free(&j);
	emu_tdfg_free(&t);
	/* The session works in w/: no name it may write (no '/') reaches
	 * the programs in its parent. */
	fuzz_dbg_require(mkdir("w", 0700) == 0 && chdir("w") == 0, "the working folder");
	atexit(fuzz_dbg_remove);
}

/* Remove what the commands wrote (checkpoints, recordings) from the
 * working folder. */
static void fuzz_dbg_clean(void)
{
	DIR *dir = opendir(".");
	fuzz_dbg_require(dir != NULL, "the working folder");
	for (struct dirent *e; (e = readdir(dir)) != NULL;)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			unlink(e->d_name);
	closedir(dir);
}

/* A new batch session on program `which`, as infsdb's main() loads it.
 * false if it does not load (a finding: the programs are fixed). */
static bool fuzz_dbg_open(dbg_session *s, enum fuzz_dbg_prog which)
{
	memset(s, 0, sizeof *s);
	s->batch = true;
	s->no_shell = true; /* a fuzzed `shell` would run any program there is */
	emu_geom_override ov;
	emu_geom_override_init(&ov);
	diag d;
	diag_clear(&d);
	int rc;
	if (which == FUZZ_DBG_TDFG)
		rc = dbg_tdfg_load(s, "../p.tdfg", NULL, &ov, NULL, 0, &d);
	else
		rc = emu_load_file(which == FUZZ_DBG_STREAM ? "../p.ins" : "../v.ins", &ov,
				   &s->prog, &d) < 0 || emu_program_lower(&s->prog, &d) < 0 ? -1 : 0;
	if (rc == 0 && which == FUZZ_DBG_VALID)
		rc = dbg_valid_load(s, "../p.tdfg", NULL, NULL, 0, &d);
	fuzz_dbg_require(rc == 0, d.msg);
	s->loaded = true;
	return true;
}

/* What infsdb's main() frees at the end of a session. */
static void fuzz_dbg_close(dbg_session *s)
{
	dbg_session_free(s);
	fuzz_dbg_clean();
}

/* Does the first word of line name a command that takes a file name
 * (checkpoint, record, source: their unique prefixes included)? */
static bool fuzz_dbg_file_command(const char *line)
{
	static const char *const names[] = { "checkpoint", "record", "source" };
	while (*line == ' ' || *line == '\t')
		line++;
	const size_t n = strcspn(line, " \t");
	for (size_t i = 0; n && i < sizeof names / sizeof *names; i++)
		if (n <= strlen(names[i]) && strncmp(line, names[i], n) == 0)
			return true;
	return false;
}

/* A line the session may run: a file name stays a plain name in the
 * temporary folder (no '/', no '-' for standard input or output). */
static bool fuzz_dbg_line_allowed(const char *line)
{
	if (!fuzz_dbg_file_command(line))
		return true;
	for (const char *c = line; *c; c++)
		if (!(*c == ' ' || *c == '\t' || *c == '.' || *c == '_' ||
		      (*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'z') ||
		      (*c >= 'A' && *c <= 'Z')))
			return false;
	return true;
}

/* Run the lines of text (at most max_lines, each cut at 256 bytes)
 * until quit. */
static void fuzz_dbg_run_lines(dbg_session *s, const uint8_t *data, size_t size,
			       unsigned max_lines)
{
	char line[257];
	size_t at = 0;
	for (unsigned k = 0; k < max_lines && at < size && !s->quit; k++) {
		size_t n = 0;
		while (at < size && data[at] != '\n') {
			if (n < sizeof line - 1)
				line[n++] = data[at] ? (char)data[at] : ' ';
			at++;
		}
		at++;
		line[n] = '\0';
		bool repeat;
		if (fuzz_dbg_line_allowed(line))
			dbg_execute(s, line, &repeat);
	}
}

#endif
