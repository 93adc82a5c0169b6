/* SPDX-License-Identifier: MIT */
/*
 * test_checkpoint.c: infsdb's `checkpoint save` and `checkpoint load`
 * anywhere (issue 5: "they restore the exact machine state,
 * bit-identical"), run as a user runs them (INFSDB_BIN, batch mode).
 *
 * A session saves a checkpoint and runs on to the end; a fresh session
 * loads the file and runs on to the end; both print every buffer and
 * the statistics, and the two texts must be equal (and equal to a run
 * that never stopped, when nothing was changed by hand).  The positions
 * are the hard ones:
 *   - inside a data-dependent command under latency=optimised (mul, div,
 *     f16 add and div), whose per-bank traces were found from the data
 *     the command started with (duality-cache §3.1.2), also after a
 *     `set var` inside it that would give other traces;
 *   - between an inter-bank transfer and its sync (infinity-stream §4.2),
 *     after a `set var` on an element the transfer carries, so the data
 *     in flight differs from what a replay of the commands would send.
 * Damaged files (a flipped byte, a cut) and files of the older format
 * are refused with one message, and the session is left as it was.
 * Underneath, the mover gives and takes back the bits in flight
 * (emu_mover_pending_words, emu_mover_set_pending_words).
 */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "machine.h"
#include "move.h"
#include "proc.h"
#include "program.h"

/* printf into a new string. */
static char *text_of(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *text_of(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	const int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	cr_assert_geq(n, 0);
	char *text = malloc((size_t)n + 1);
	cr_assert_not_null(text);
	va_start(ap, fmt);
	vsnprintf(text, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return text;
}

/* ---- sessions ---- */

struct dir {
	char path[64];
};

static void dir_make(struct dir *d)
{
	cr_assert_not_null(proc_tmpdir(d->path, sizeof d->path, "infsim-ckpt"));
}

static void dir_remove(const struct dir *d)
{
	cr_assert_eq(proc_rmdir(d->path), 0);
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f, "cannot write %s", path);
	fputs(text, f);
	cr_assert_eq(fclose(f), 0);
}

/* Run infsdb on prog (relative to the source folder) with the commands
 * cmds (one a line; "@N" becomes an echo of the marker line "@N") and
 * machine options opts; its merged output in *out, its status returned. */
static int session(const struct dir *d, const char *opts, const char *prog, const char *cmds,
		   char **out)
{
	static int count;
	char path[128], sh[1024];
	snprintf(path, sizeof path, "%s/s%d.cmds", d->path, count++);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	for (const char *c = cmds; *c;) {
		size_t n = strcspn(c, "\n");
		if (c[0] == '@')
			fprintf(f, "echo %.*s\\n\n", (int)n, c);
		else
			fprintf(f, "%.*s\n", (int)n, c);
		c += n + (c[n] == '\n');
	}
	cr_assert_eq(fclose(f), 0);
	snprintf(sh, sizeof sh, "cd '%s' && HOME=/nonexistent '%s' -batch -nx %s -x '%s' '%s'",
		 SRCDIR, INFSDB_BIN, opts, path, prog);
	const int status = proc_shell(sh, out);
	cr_assert(status >= 0, "%s: did not exit normally", sh);
	return status;
}

/* The text between the lines "@N" and "@N+1" of a session. */
static char *between(const char *out, int n)
{
	char *s = proc_between(out, n);
	cr_assert(s, "no @%d..@%d in:\n%s", n, n + 1, out);
	return s;
}

/* Save at the position `go` reaches, run on and show `show`; then load
 * in a fresh session, run on and show the same: the two texts must be
 * equal.  Returns the first session's output (the caller frees it). */
static char *save_and_load(const struct dir *d, const char *opts, const char *prog,
			   const char *go, const char *show, const char *want_at)
{
	char ckpt[128], *cmds, *out1 = NULL, *out2 = NULL;
	snprintf(ckpt, sizeof ckpt, "%s/at.ckpt", d->path);
	cmds = text_of("%s\ninfo machine\ncheckpoint save %s\n@1\n%s@2\n", go, ckpt, show);
	const int st1 = session(d, opts, prog, cmds, &out1);
	free(cmds);
	cr_assert_eq(st1, 0, "%s", out1);
	cr_assert(strstr(out1, want_at), "the save is not at \"%s\":\n%s", want_at, out1);
	cmds = text_of("checkpoint load %s\n@1\n%s@2\n", ckpt, show);
	const int st2 = session(d, opts, prog, cmds, &out2);
	free(cmds);
	cr_assert_eq(st2, 0, "%s", out2);
	char *a = between(out1, 1), *b = between(out2, 1);
	cr_assert_str_eq(b, a, "after the checkpoint load: other bits or statistics");
	free(a), free(b), free(out2);
	return out1;
}

/* ---- inside a data-dependent command ---- */

static const char mdf_text[] =
	"machine wordlines=256 bitlines=8 arrays=1 ways=1 mesh=2x1 latency=optimised\n"
	"buffer A u8 16 wl=0 arrays=0:1:2 init=random:1\n"
	"buffer B u8 16 wl=8 arrays=0:1:2 init=random:2\n"
	"buffer P u8 16 wl=16 arrays=0:1:2\n"
	"buffer Q u8 16 wl=24 arrays=0:1:2\n"
	"buffer X f16 16 wl=32 arrays=0:1:2 init=random:3\n"
	"buffer Y f16 16 wl=48 arrays=0:1:2 init=random:4\n"
	"buffer F f16 16 wl=64 arrays=0:1:2\n"
	"buffer G f16 16 wl=80 arrays=0:1:2\n"
	"mul.u8 P, A, B\n"
	"div.u8 Q, A, B\n"
	"add.f16 F, X, Y\n"
	"div.f16 G, X, Y\n";

static const char mdf_show[] =
	"continue\nprint A\nprint B\nprint P\nprint Q\nprint X\nprint Y\nprint F\nprint G\n"
	"info stats\ncheck\n";

/* Each command of mdf_text, stopped inside it (its trace, the longest
 * bank's, is named in the position): the loaded machine runs on to the
 * bits and statistics of the session that saved, and of a full run. */
Test(checkpoint, inside_data_dependent)
{
	struct dir d;
	dir_make(&d);
	char prog[128], *full = NULL;
	snprintf(prog, sizeof prog, "%s/mdf.ins", d.path);
	write_text(prog, mdf_text);
	char *cmds;
	cmds = text_of("run\n@1\n%s@2\n", mdf_show + strlen("continue\n"));
	cr_assert_eq(session(&d, "", prog, cmds, &full), 0, "%s", full);
	free(cmds);
	char *want = between(full, 1);
	cr_assert(strstr(want, "check: 8 buffers match the reference after 4 commands.\n"), "%s",
		  want);
	static const struct { const char *go, *at; } stops[] = {
		{ "start\nstepi 20", "in command 0, next micro-op 20 (of 0..85, bank " },
		{ "start\nuntil 1\nstepi 33", "in command 1, next micro-op 33 (of 0..110, bank " },
		{ "start\nuntil 2\nstepi 150", "in command 2, next micro-op 150 (of 0..364, bank " },
		{ "start\nuntil 3\nstepi 300", "in command 3, next micro-op 300 (of 0..485, bank " },
	};
	for (size_t i = 0; i < sizeof stops / sizeof stops[0]; i++) {
		char *out = save_and_load(&d, "", prog, stops[i].go, mdf_show, stops[i].at);
		char *got = between(out, 1);
		/* after `continue`: "Program finished", then what a full run shows */
		const char *rest = strchr(got, '\n');
		cr_assert(rest && strncmp(got, "Program finished: 4 commands", 28) == 0, "%s", got);
		cr_assert_str_eq(rest + 1, want, "stopped at %s: not what a full run gives",
				 stops[i].at);
		free(got), free(out);
	}
	free(want), free(full);
	dir_remove(&d);
}

/* A `set var` inside a data-dependent command: the traces stay those
 * found from the data the command started with (bank 1 aligns its
 * exponents, although the new A[12..15] no longer needs it), in the
 * session that wrote and in the one that loads its checkpoint; a write
 * before the command gives other traces, so other statistics. */
Test(checkpoint, set_var_inside_trace)
{
	struct dir d;
	dir_make(&d);
	static const char set[] = "set var A[12] = 40\nset var A[13] = 40\n"
				  "set var A[14] = 40\nset var A[15] = 40\n";
	static const char show[] = "continue\nprint S\ninfo stats\n";
	char *go, *before, *early = NULL;
	go = text_of("start\nstepi 30\n%sstepi 5", set);
	char *out = save_and_load(&d, "", "tests/dbg/dd.ins", go, show,
				  "in command 1, next micro-op 19 (of 0..210, bank 1's trace");
	char *late = between(out, 1);
	before = text_of("start\n%s@1\n%s@2\n", set, show);
	cr_assert_eq(session(&d, "", "tests/dbg/dd.ins", before, &early), 0, "%s", early);
	char *first = between(early, 1);
	/* twelve equal elements print once, as gdb's <repeats> */
	cr_assert(strstr(late, "S = {2.75 <repeats 12 times>, 80, 80, 80, 80}\n"), "%s", late);
	cr_assert(strstr(late, "total                     2          227 "), "%s", late);
	cr_assert(strstr(first, "total                     2          148 "), "%s", first);
	free(go), free(before), free(early), free(first), free(late), free(out);
	dir_remove(&d);
}

/* ---- data in flight between banks ---- */

/* stencil_f32 on a latency=optimised machine: X[7][3], changed before
 * the inter-bank shift of command 11, is in flight to N[8][3] until the
 * sync (command 13).  Saved inside the intra-array shift between them,
 * the checkpoint carries 1000, not the 451 a replay would send; saved
 * inside the data-dependent add that follows, the traces too. */
Test(checkpoint, data_in_flight)
{
	struct dir d;
	dir_make(&d);
	static const char prog[] = "samples/move/stencil_f32.ins";
	static const char opts[] = "-m latency=optimised";
	static const char show[] = "continue\nprint N\nprint S\nprint X\ninfo stats\n";
	static const char go[] = "start\nuntil 11\nset var X[7][3] = 1000\nstepi\nstepi 3";
	char *show1 = text_of("until 14\nprint N[8][3]\n%s", show);
	char *out = save_and_load(&d, opts, prog, go, show1,
				  "(768 wordline transfers between banks in flight, delivered "
				  "by the sync, command 13)\n  => micro-op 3 (of 0..255)");
	char *got = between(out, 1);
	cr_assert(strstr(got, "$1 = 1000\n"), "%s", got);
	const char *end = strstr(got, "Program finished: 21 commands");
	cr_assert_not_null(end, "%s", got);
	free(out);
	char *go2 = text_of("%s\nuntil 14\nstepi 40", go);
	out = save_and_load(&d, opts, prog, go2, show,
			    "in command 14, next micro-op 40 (of 0..494, bank 0's trace");
	char *again = between(out, 1);
	cr_assert_str_eq(again, end, "two checkpoints of one run: other results");
	free(show1), free(go2), free(again), free(got), free(out);
	dir_remove(&d);
}

/* A smaller one, on missing_sync: the transfers of command 1 wait for
 * the sync of command 4, and B[0][2] receives A[0][1]. */
Test(checkpoint, data_in_flight_small)
{
	struct dir d;
	dir_make(&d);
	static const char show[] = "continue\ncontinue\nprint B\nprint C\ninfo stats\n";
	char *out = save_and_load(&d, "", "samples/move/missing_sync.ins",
				  "start\nset var A[0][1] = 77\nuntil 2", show,
				  "(16 wordline transfers between banks in flight");
	char *got = between(out, 1);
	cr_assert(strstr(got, "B = {{0, 0, 77, 2}, {0, 4, 5, 6}"), "%s", got);
	free(got), free(out);
	dir_remove(&d);
}

/* ---- refused files ---- */

/* A checkpoint of dd.ins inside its add, at path. */
static void save_one(const struct dir *d, const char *path)
{
	char *cmds, *out = NULL;
	cmds = text_of("start\nstepi 40\ncheckpoint save %s\n", path);
	cr_assert_eq(session(d, "", "tests/dbg/dd.ins", cmds, &out), 0, "%s", out);
	free(cmds), free(out);
}

/* Load path after `start` and `stepi 3`: refused (status 1) with a
 * message holding want, and the machine still where it was. */
static void refused(const struct dir *d, const char *path, const char *want)
{
	char *cmds, *out = NULL;
	cmds = text_of("start\nstepi 3\ncheckpoint load %s\n@1\ninfo machine\n@2\n", path);
	cr_assert_eq(session(d, "", "tests/dbg/dd.ins", cmds, &out), 1, "%s", out);
	cr_assert(strstr(out, want), "no \"%s\" in:\n%s", want, out);
	char *after = between(out, 1);
	cr_assert(strstr(after, "in command 0, next micro-op 3 (of 0..15), cycle 3\n"), "%s",
		  after);
	free(after), free(cmds), free(out);
}

static char *file_bytes(const char *path, size_t *len)
{
	char *bytes = proc_slurp(path, len);
	cr_assert_not_null(bytes, "cannot read %s", path);
	return bytes;
}

static void write_bytes(const char *path, const char *bytes, size_t len)
{
	FILE *f = fopen(path, "wb");
	cr_assert_not_null(f);
	cr_assert_eq(fwrite(bytes, 1, len, f), len);
	cr_assert_eq(fclose(f), 0);
}

/* The offset of the body: after the header's five lines. */
static size_t body_offset(const char *bytes, size_t len)
{
	size_t at = 0;
	for (int line = 0; line < 5; line++) {
		const char *nl = memchr(bytes + at, '\n', len - at);
		cr_assert_not_null(nl);
		at = (size_t)(nl - bytes) + 1;
	}
	return at;
}

Test(checkpoint, damaged_files)
{
	struct dir d;
	dir_make(&d);
	char good[128], bad[128];
	snprintf(good, sizeof good, "%s/good.ckpt", d.path);
	snprintf(bad, sizeof bad, "%s/bad.ckpt", d.path);
	save_one(&d, good);
	size_t len;
	char *bytes = file_bytes(good, &len);
	const size_t body = body_offset(bytes, len);
	cr_assert_gt(len, body + 64);
	/* a flipped byte: in a cell, in the start rows, in the checksum */
	const size_t at[] = { body + 24, len - 20, len - 1 };
	for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
		bytes[at[i]] ^= 0x10;
		write_bytes(bad, bytes, len);
		bytes[at[i]] ^= 0x10;
		refused(&d, bad, "bad.ckpt: the checkpoint's data is damaged (its checksum does not "
			"match: the file was changed or cut short).");
	}
	write_bytes(bad, bytes, len - 8);
	refused(&d, bad, "its checksum does not match");
	write_bytes(bad, bytes, len - 3);
	refused(&d, bad, "bad.ckpt: the checkpoint's data is damaged (wrong size).");
	write_bytes(bad, bytes, body);
	refused(&d, bad, "bad.ckpt: the checkpoint's data is damaged (wrong size).");
	/* and the good one still loads */
	char *cmds, *out = NULL;
	cmds = text_of("checkpoint load %s\n", good);
	cr_assert_eq(session(&d, "", "tests/dbg/dd.ins", cmds, &out), 0, "%s", out);
	cr_assert(strstr(out, "=> micro-op 24 (of 0..210, bank 1's trace"), "%s", out);
	free(cmds), free(out), free(bytes);
	dir_remove(&d);
}

/* A file of format 3 (FNV-1a checksums, no fifth line): refused with
 * a message naming both formats. */
Test(checkpoint, older_format)
{
	struct dir d;
	dir_make(&d);
	char good[128], old[128];
	snprintf(good, sizeof good, "%s/good.ckpt", d.path);
	snprintf(old, sizeof old, "%s/old.ckpt", d.path);
	save_one(&d, good);
	size_t len;
	char *bytes = file_bytes(good, &len);
	static const char magic[] = "infsdb checkpoint 4\n";
	cr_assert_eq(strncmp(bytes, magic, strlen(magic)), 0, "%.40s", bytes);
	bytes[strlen(magic) - 2] = '3';
	write_bytes(old, bytes, len);
	refused(&d, old, "old.ckpt: this file is in another checkpoint format, which this "
		"infsdb does not read (it says \"infsdb checkpoint 3\"; expected \"infsdb "
		"checkpoint 4\").");
	free(bytes);
	dir_remove(&d);
}

/* ---- compressed checkpoints ---- */

/* A checkpoint of dd.ins inside its add, compressed with zstd. */
static void save_zstd(const struct dir *d, const char *path)
{
	char *cmds, *out = NULL;
	cmds = text_of("start\nstepi 40\nset checkpoint compression zstd\ncheckpoint save %s\n",
		       path);
	cr_assert_eq(session(d, "", "tests/dbg/dd.ins", cmds, &out), 0, "%s", out);
	free(cmds), free(out);
}

/* The same position saved raw and with zstd: the zstd file says so in
 * its fifth line, is smaller, holds a zstd frame, and loads to the same
 * machine; `checkpoint load` needs no setting to read it. */
Test(checkpoint, zstd_round_trip)
{
	struct dir d;
	dir_make(&d);
	char raw[128], z[128];
	snprintf(raw, sizeof raw, "%s/raw.ckpt", d.path);
	snprintf(z, sizeof z, "%s/z.ckpt", d.path);
	save_one(&d, raw);
	save_zstd(&d, z);
	size_t rlen, zlen;
	char *rb = file_bytes(raw, &rlen), *zb = file_bytes(z, &zlen);
	const size_t rbody = body_offset(rb, rlen), zbody = body_offset(zb, zlen);
	cr_assert_eq(rbody + 1, zbody, "the headers differ in more than their fifth line");
	cr_assert_eq(memcmp(rb, zb, rbody - strlen("body raw\n")), 0, "the first four lines differ");
	cr_assert_eq(memcmp(rb + rbody - 9, "body raw\n", 9), 0);
	cr_assert_eq(memcmp(zb + zbody - 10, "body zstd\n", 10), 0);
	static const unsigned char zstd_magic[] = { 0x28, 0xb5, 0x2f, 0xfd };
	cr_assert_eq(memcmp(zb + zbody, zstd_magic, 4), 0, "no zstd frame after the header");
	cr_assert_lt(zlen, rlen, "compressed %zu bytes, raw %zu", zlen, rlen);
	char *cmds, *out_r = NULL, *out_z = NULL;
	const char *show = "@1\ninfo machine\nprint S\ncontinue\nprint S\ninfo stats\n@2\n";
	cmds = text_of("checkpoint load %s\n%s", raw, show);
	cr_assert_eq(session(&d, "", "tests/dbg/dd.ins", cmds, &out_r), 0, "%s", out_r);
	free(cmds);
	cmds = text_of("checkpoint load %s\n%s", z, show);
	cr_assert_eq(session(&d, "", "tests/dbg/dd.ins", cmds, &out_z), 0, "%s", out_z);
	free(cmds);
	char *a = between(out_r, 1), *b = between(out_z, 1);
	cr_assert_str_eq(b, a, "the zstd checkpoint loads to another machine");
	free(a), free(b), free(out_r), free(out_z);
	/* damaged: a flipped byte in the frame, a cut, another fifth line */
	zb[zlen - 5] ^= 0x20;
	write_bytes(raw, zb, zlen);
	refused(&d, raw, "raw.ckpt: the checkpoint's data is damaged (");
	zb[zlen - 5] ^= 0x20;
	write_bytes(raw, zb, zlen - 7);
	refused(&d, raw, "raw.ckpt: the checkpoint's data is damaged (not one zstd frame of "
		"known size).");
	memcpy(zb + zbody - 10, "body lz4\n\n", 10);
	write_bytes(raw, zb, zlen);
	refused(&d, raw, "raw.ckpt: the checkpoint's fifth line says \"body lz4\"; expected "
		"\"body raw\" or \"body zstd\".");
	free(rb), free(zb);
	dir_remove(&d);
}

/* set checkpoint takes only compression zstd or none. */
Test(checkpoint, compression_setting)
{
	struct dir d;
	dir_make(&d);
	char *out = NULL;
	cr_assert_eq(session(&d, "", "tests/dbg/dd.ins", "set checkpoint compression lz4\n", &out),
		     1, "%s", out);
	cr_assert(strstr(out, "set checkpoint: expected \"compression zstd\" or \"compression "
			 "none\"."), "%s", out);
	free(out);
	dir_remove(&d);
}

/* ---- the mover's bits in flight ---- */

/* missing_sync.ins run to before its sync: 16 wordlines of one word are
 * in flight to column 2 of B; the words put back are what the sync
 * writes, and a wrong count is refused with nothing changed. */
Test(checkpoint, mover_pending_words)
{
	emu_program p;
	diag d;
	diag_clear(&d);
	const sram_geom g = sram_geom_default();
	cr_assert_eq(emu_parse_file(SRCDIR "/samples/move/missing_sync.ins", &g, &p, &d), 0,
		     "%s", d.msg);
	emu_machine *em = emu_machine_new(&p, &d);
	cr_assert(em && emu_init_buffers(em, &d) == 0, "%s", d.msg);
	while (em->pc < 4)
		cr_assert_geq(emu_run_cmd(em, &d), 0, "%s", d.msg);
	cr_assert_eq(em->m->wpa, 1);
	cr_assert_eq(emu_mover_pending_words(em->mover, NULL), 16);
	uint64_t w[16], zero[16] = { 0 };
	cr_assert_eq(emu_mover_pending_words(em->mover, w), 16);
	uint64_t any = 0;
	for (int i = 0; i < 16; i++)
		any |= w[i];
	cr_assert_neq(any, 0, "A's column 1 is in flight, not all zero");
	cr_assert_eq(emu_mover_set_pending_words(em->mover, zero, 15, &d), -1);
	cr_assert(strstr(d.msg, "15 words of data in flight between banks given, expected 16"),
		  "%s", d.msg);
	uint64_t again[16];
	emu_mover_pending_words(em->mover, again);
	cr_assert_arr_eq(again, w, sizeof w, "a refused count changed the data in flight");
	cr_assert_eq(emu_mover_set_pending_words(em->mover, zero, 16, &d), 0);
	cr_assert_eq(emu_run_cmd(em, &d), 0, "%s", d.msg); /* the sync */
	const emu_buffer *b = &p.bufs[1];
	cr_assert_str_eq(b->name, "B");
	for (uint64_t i = 0; i < 4; i++)
		cr_assert_eq(emu_elem_get(em, b, i * 4 + 2), 0, "B[%" PRIu64 "][2]: not the bits put back",
			     i);
	cr_assert_eq(emu_elem_get(em, b, 3), 2, "B[0][3], moved within its bank, changed");
	emu_machine_free(em);
	emu_program_free(&p);
}
