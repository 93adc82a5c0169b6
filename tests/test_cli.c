/* SPDX-License-Identifier: MIT */
/*
 * test_cli.c: the infsim program, run as a user runs it (INFSIM_BIN), on
 * the streams in tests/data and on .npy files each test writes: exit
 * codes, one-line messages naming the file or the option, atomic
 * outputs, the .npy reader's strictness, statistics, float and
 * fixed-point buffers (their files, values in reports, literals' errors,
 * the controller's settings), and the samples.
 */
#include <criterion/criterion.h>

#include "proc.h"
#include "stats_json.h"

#include <dirent.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "isa.h"
#include "npy.h"
#include "outfile.h"
#include "report.h"

#define DATA SRCDIR "/tests/data"

/* ---- running the program ---- */

#define RUN_TMP_PREFIX "infsim-cli"
#include "infsim_run.h"

static unsigned count_lines(const char *s)
{
	unsigned n = 0;
	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* A runtime failure: exit 1, one line on stderr containing want. */
static void expect_failure(result r, int status, const char *want)
{
	cr_expect_eq(r.status, status, "exit %d, expected %d; stderr: %s", r.status,
		     status, r.err);
	cr_expect(strstr(r.err, want), "stderr lacks \"%s\": %s", want, r.err);
	unsigned lines = status == 2 ? 2 : 1;
	cr_expect_eq(count_lines(r.err), lines, "expected %u line(s) on stderr: %s",
		     lines, r.err);
	if (status == 2)
		cr_expect(strstr(r.err, "Try 'infsim --help' for more information.\n") ||
			  strstr(r.err, "Try 'infsim run --help' for more information.\n"), "%s", r.err);
	result_free(&r);
}

static void expect_ok(result r)
{
	cr_expect_eq(r.status, 0, "exit %d; stderr: %s", r.status, r.err);
	cr_expect_str_empty(r.err);
	result_free(&r);
}

/* ---- files in tmpdir ---- */

static void write_file(const char *name, const void *data, size_t len)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	FILE *f = fopen(path, "wb");
	cr_assert_not_null(f);
	cr_assert_eq(fwrite(data, 1, len, f), len);
	cr_assert_eq(fclose(f), 0);
}

static char *read_tmp(const char *name, size_t *len)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	return proc_slurp(path, len);
}

/* A .npy file with the given version, header dict and data; hlen is the
 * header length written (-1: the real one). */
static void write_npy_raw(const char *name, int major, const char *dict,
			  const void *data, size_t len, long hlen)
{
	unsigned char buf[4096];
	size_t dl = strlen(dict), pre = major == 1 ? 10 : 12;
	size_t h = hlen < 0 ? dl : (size_t)hlen;
	memcpy(buf, "\x93NUMPY", 6);
	buf[6] = (unsigned char)major;
	buf[7] = 0;
	for (size_t k = 0; k < pre - 8; k++)
		buf[8 + k] = (unsigned char)(h >> (8 * k));
	memcpy(buf + pre, dict, dl);
	cr_assert(pre + dl + len < sizeof buf);
	memcpy(buf + pre + dl, data, len);
	write_file(name, buf, pre + dl + len);
}

/* A good .npy of int16 values. */
static void write_npy_i16(const char *name, const int16_t *v, size_t count)
{
	unsigned char data[2048];
	char dict[128];
	for (size_t i = 0; i < count; i++) {
		data[2 * i] = (unsigned char)v[i];
		data[2 * i + 1] = (unsigned char)((uint16_t)v[i] >> 8);
	}
	snprintf(dict, sizeof dict,
		 "{'descr': '<i2', 'fortran_order': False, 'shape': (%zu,), }\n", count);
	write_npy_raw(name, 1, dict, data, 2 * count, -1);
}

static bool tmp_exists(const char *name)
{
	char path[512];
	struct stat st;
	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	return stat(path, &st) == 0;
}

/* Files in tmpdir, hidden ones (temporaries) included. */
static unsigned tmp_count(void)
{
	DIR *dir = opendir(tmpdir);
	cr_assert_not_null(dir);
	unsigned n = 0;
	for (struct dirent *e; (e = readdir(dir));)
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(dir);
	return n;
}

/* a[i] = 3 * i - 150: the inputs of the small stream. */
static void small_inputs(int16_t *a)
{
	for (int i = 0; i < 100; i++)
		a[i] = (int16_t)(3 * i - 150);
}

TestSuite(cli, .init = make_tmpdir, .fini = remove_tmpdir);

/* ---- the program's conventions ---- */

Test(cli, help_and_version)
{
	result r = run("--help");
	cr_expect_eq(r.status, 0);
	cr_expect(strstr(r.out, "Usage: infsim run PROG"));
	cr_expect(strstr(r.out, "Exit status"));
	cr_expect_str_empty(r.err);
	result_free(&r);
	r = run("--version");
	cr_expect_eq(r.status, 0);
	cr_expect(strncmp(r.out, "infsim ", 7) == 0, "%s", r.out);
	cr_expect(strstr(r.out, "\nCopyright (C) 2026 the infsim authors.\nLicense MIT"), "%s", r.out);
	result_free(&r);
	r = run("run --help");
	cr_expect_eq(r.status, 0);
	cr_expect(strstr(r.out, "--expect=ARRAY=FILE"), "%s", r.out);
	result_free(&r);
}

Test(cli, usage_errors)
{
	expect_failure(run(" "), 2, "infsim: missing command");
	expect_failure(run("frobnicate"), 2, "infsim: unknown command 'frobnicate'");
	expect_failure(run("run"), 2, "infsim: missing program operand");
	expect_failure(run("run a.ins b.ins"), 2, "infsim: extra operand 'b.ins'");
	expect_failure(run("run --frob " DATA "/small.ins"), 2, "infsim: unrecognized option '--frob'");
	expect_failure(run("run -l"), 2, "infsim: option requires an argument -- 'l'");
	expect_failure(run("run --stats=xml " DATA "/small.ins"), 2, "--stats 'xml'");
	expect_failure(run("asm " DATA "/small.ins"), 2, "missing -o");
	expect_failure(run("disasm -o x " DATA "/small.ins"), 2,
		       "option '--output' does not apply to 'disasm'");
	expect_failure(run("commands extra"), 2, "commands: 'extra' is not a system (expected stream, ar, nsc, vima or simt)");
	expect_failure(run("commands vima extra"), 2, "extra operand 'extra'");
}

Test(cli, missing_and_unreadable_stream)
{
	expect_failure(run("run nothere.ins"), 1, "nothere.ins: error: cannot open");
	expect_failure(run("run ."), 1, ".: error:");
	expect_failure(run("run " DATA "/bad_syntax.ins"), 1, "bad_syntax.ins:4:");
}

/* ---- a whole run: load, save, expect, check, stepi ---- */

Test(cli, load_run_save_expect_check)
{
	int16_t a[100], want[100];
	small_inputs(a);
	for (int i = 0; i < 100; i++)
		want[i] = (int16_t)(a[i] + i);
	write_npy_i16("a.npy", a, 100);
	write_npy_i16("want.npy", want, 100);
	result r = run("run %s/small.ins -l a=a.npy -s c=c.npy -e c=want.npy --check",
		       DATA);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "the reference model agrees"), "%s", r.out);
	cr_expect(strstr(r.out, "c matches want.npy"), "%s", r.out);
	result_free(&r);
	/* The saved file is what NumPy would write for the same array. */
	size_t nc, nw;
	char *c = read_tmp("c.npy", &nc);
	npy_dtype dt = { 'i', 2 };
	uint64_t v[100];
	for (int i = 0; i < 100; i++)
		v[i] = (uint64_t)(int64_t)want[i];
	unsigned char *w = npy_build(dt, v, 100, &nw);
	cr_assert_eq(nc, nw);
	cr_expect_eq(memcmp(c, w, nc), 0);
	cr_expect_eq(nc % 64, 200 % 64, "data starts on a 64-byte boundary");
	free(c);
	free(w);
	/* --stepi and one thread give the same bytes. */
	expect_ok(run("run %s/small.ins -q -l a=a.npy -s c=c2.npy --stepi -j 1", DATA));
	char *c2 = read_tmp("c2.npy", &nw);
	c = read_tmp("c.npy", &nc);
	cr_expect(nc == nw && memcmp(c, c2, nc) == 0);
	free(c);
	free(c2);
}

Test(cli, expect_mismatch_reports_first_wrong_element)
{
	int16_t a[100], want[100];
	small_inputs(a);
	for (int i = 0; i < 100; i++)
		want[i] = (int16_t)(a[i] + i);
	want[37] ^= 0x0104;
	want[60] ^= 1;
	write_npy_i16("a.npy", a, 100);
	write_npy_i16("want.npy", want, 100);
	result r = run("run %s/small.ins -l a=a.npy -e c=want.npy", DATA);
	cr_expect_eq(r.status, 3, "%s", r.err);
	char line[256];
	int16_t good = (int16_t)(a[37] + 37);
	snprintf(line, sizeof line,
		 "want.npy: error: --expect: c[37] (i16): expected %d (0x%04x), got %d (0x%04x); bits that differ: 2, 8\n",
		 want[37], (uint16_t)want[37], good, (uint16_t)good);
	cr_expect_str_eq(r.err, line);
	cr_expect_str_empty(r.out);
	result_free(&r);
}

/* The text of a mismatch: decimal by signedness, hex, bit ranges. */
Test(cli, mismatch_text)
{
	emu_buffer b;
	memset(&b, 0, sizeof b);
	strcpy(b.name, "q");
	b.width = 12;
	b.is_signed = 1;
	emu_mismatch mm = { &b, 5, 0xfff, 0x0f0 };
	char text[256];
	emu_report_mismatch_text(text, sizeof text, &mm);
	cr_expect_str_eq(text, "q[5] (i12): expected -1 (0xfff), got 240 (0x0f0); bits that differ: 0-3, 8-11");
	b.is_signed = 0;
	b.width = 64;
	mm = (emu_mismatch){ &b, 0, UINT64_MAX, 0x8000000000000001u };
	emu_report_mismatch_text(text, sizeof text, &mm);
	cr_expect_str_eq(text, "q[0] (u64): expected 18446744073709551615 (0xffffffffffffffff), "
			 "got 9223372036854775809 (0x8000000000000001); bits that differ: 1-62");
}

/* --check's report: a cell flipped behind the reference model's back is
 * found after the command, at the right element, with the command's line
 * and canonical text; one flipped outside any destination is found at
 * the end. */
Test(cli, check_reports_the_command_and_element)
{
	static const char text[] =
		"machine wordlines=64 bitlines=16 arrays=2 ways=1 mesh=1x1\n"
		"buffer x u8 32 wl=0 arrays=0:1:2 init=iota\n"
		"buffer y u8 32 wl=8 arrays=0:1:2 init=const:5\n"
		"buffer z u8 32 wl=16 arrays=0:1:2\n"
		"\n"
		"add.u8 z, x, y\n"
		"xor.u8 z, z, x\n";
	emu_program p;
	diag d;
	diag_clear(&d);
	sram_geom g = sram_geom_default();
	cr_assert_eq(emu_parse("t.ins", text, sizeof text - 1, &g, &p, &d), 0, "%s", d.msg);
	emu_machine *em = emu_machine_new(&p, &d);
	emu_ref *r = emu_ref_new(&p, &d);
	cr_assert(em && r);
	cr_assert_eq(emu_init_buffers(em, &d), 0);
	emu_ref_init_buffers(r);
	cr_assert_eq(emu_run_cmd(em, &d), 0);
	cr_assert_eq(emu_ref_run_cmd(r, 0, &d), 0);
	cr_expect(emu_report_check_cmd(r, em, 0, &d), "%s", d.msg);
	/* z[20] = 20 + 5 = 25; flip bit 6. */
	emu_elem_set(em, &p.bufs[2], 20, 25 ^ 0x40);
	cr_expect_not(emu_report_check_cmd(r, em, 0, &d));
	cr_expect_str_eq(d.msg, "t.ins:6: error: --check: after command 1 'add.u8 z, x, y @ arrays=0:1:2 bitlines=0:1:16', "
			 "machine and reference model differ: z[20] (u8): expected 25 (0x19), "
			 "got 89 (0x59); bits that differ: 6");
	emu_elem_set(em, &p.bufs[2], 20, 25);
	/* y is no command's destination: only the final check sees it. */
	emu_elem_set(em, &p.bufs[1], 3, 4);
	cr_assert_eq(emu_run_cmd(em, &d), 0);
	cr_assert_eq(emu_ref_run_cmd(r, 1, &d), 0);
	diag_clear(&d);
	cr_expect(emu_report_check_cmd(r, em, 1, &d), "%s", d.msg);
	cr_expect_not(emu_report_check_all(r, em, &d));
	cr_expect_str_eq(d.msg, "t.ins: error: --check: at the end of the run, machine and "
			 "reference model differ: y[3] (u8): expected 5 (0x05), got 4 (0x04); "
			 "bits that differ: 0");
	emu_ref_free(r);
	emu_machine_free(em);
	emu_program_free(&p);
}

/* ---- element files: every way a .npy or .bin can be wrong ---- */

static const char good_dict[] = "{'descr': '<i2', 'fortran_order': False, 'shape': (100,), }\n";

/* Load bad.npy into a; expect exit 1 and a message containing want. */
static void bad_load(const char *want)
{
	expect_failure(run("run %s/small.ins -l a=bad.npy -s c=out.npy", DATA), 1, want);
	cr_expect_not(tmp_exists("out.npy"), "an output was written after a failure");
}

static void bad_npy(int major, const char *dict, size_t datalen, long hlen,
		    const char *want)
{
	static const unsigned char zeros[400];
	write_npy_raw("bad.npy", major, dict, zeros, datalen, hlen);
	bad_load(want);
}

Test(cli, npy_versions_and_shapes)
{
	static const unsigned char zeros[200];
	const char *dicts[] = {
		good_dict,
		"{'shape': (4, 25), 'descr': '<i2', 'fortran_order': False}",
		"{\"descr\": \"<i2\", \"fortran_order\": False, \"shape\": (2, 2, 25)}   \n",
		"{'descr':'<i2','fortran_order':False,'shape':(100,)}",
	};
	for (int major = 1; major <= 3; major++)
		for (size_t k = 0; k < sizeof dicts / sizeof dicts[0]; k++) {
			write_npy_raw("a.npy", major, dicts[k], zeros, 200, -1);
			expect_ok(run("run %s/small.ins -q -l a=a.npy", DATA));
		}
}

Test(cli, npy_bad_magic_version_header)
{
	static const unsigned char junk[] = "\x93NUMPZ\x01\x00\x10\x00{}";
	write_file("bad.npy", junk, sizeof junk - 1);
	bad_load("bad.npy: error: not a .npy file (bad magic");
	write_file("bad.npy", "\x93NUMPY", 6);
	bad_load("bad.npy: error: file ends inside the .npy header");
	bad_npy(4, good_dict, 200, -1, "format version 4.0 is not supported");
	bad_npy(1, good_dict, 200, 5000, "header length (5000 bytes) runs past the end");
	bad_npy(2, good_dict, 200, 0x7fffffff, "runs past the end of the file");
	bad_npy(1, "{'descr': 'i2', 'fortran_order': False, 'shape': (100,), }", 200, -1,
		"descr must be a byte order, a type letter and a size");
	bad_npy(1, "{'descr': [('x', '<i2')], 'fortran_order': False, 'shape': (100,), }",
		200, -1, "structured types");
	bad_npy(1, "{'descr': '<i2', 'fortran_order': True, 'shape': (100,), }", 200, -1,
		"fortran_order True");
	bad_npy(1, "{'descr': '<i2', 'fortran_order': 0, 'shape': (100,), }", 200, -1,
		"fortran_order must be True or False");
	bad_npy(1, "{'descr': '<i2', 'fortran_order': False, 'shape': (100), }", 200, -1,
		"needs a trailing comma");
	bad_npy(1, "{'descr': '<i2', 'fortran_order': False, 'shape': (-100,), }", 200, -1,
		"expected a non-negative integer in the shape");
	bad_npy(1, "{'descr': '<i2', 'fortran_order': False, 'shape': [100], }", 200, -1,
		"expected '(' to start the shape");
	bad_npy(1, "{'descr': '<i2', 'fortran_order': False}", 200, -1,
		"the key 'shape' is missing");
	bad_npy(1, "{'descr': '<i2', 'descr': '<i2', 'fortran_order': False, 'shape': (100,)}",
		200, -1, "key given twice");
	bad_npy(1, "{'descr': '<i2', 'fortran_order': False, 'shape': (100,), 'x': 1}",
		200, -1, "unknown key");
	bad_npy(1, "{'descr': '<i2', 'fortran_order': False, 'shape': (100,)} junk", 200, -1,
		"unexpected text after the header dict");
	bad_npy(1, "{'descr': '<i2, 'fortran_order': False, 'shape': (100,)}", 200, -1,
		"bad .npy header at byte");
	bad_npy(1, "{'descr': '<i2', 'fortran_order': False, 'shape': (99999999999999999999,)}",
		200, -1, "shape dimension too large");
}

/* A shape that lies cannot make the reader allocate: the size is checked
 * against the file first. */
Test(cli, npy_lying_shape_short_long)
{
	bad_npy(1, "{'descr': '<i2', 'fortran_order': False, 'shape': (1000000000000000,), }",
		200, -1, "file is too short: shape (1000000000000000,) of '<i2' needs 2000000000000000 bytes");
	bad_npy(1, "{'descr': '<i2', 'fortran_order': False, 'shape': (4294967296, 4294967296, 4294967296), }",
		200, -1, "more elements than fit in 64 bits");
	/* a 0 anywhere is no element at all, however large the others */
	bad_npy(1, "{'descr': '<i2', 'fortran_order': False, 'shape': (4294967296, 4294967296, 0), }",
		0, -1, "has 0 elements; array 'a' has 100");
	bad_npy(1, good_dict, 199, -1, "file is too short: shape (100,) of '<i2' needs 200 bytes");
	bad_npy(1, good_dict, 202, -1, "file is too long: shape (100,) of '<i2' needs 200 bytes");
}

Test(cli, npy_wrong_type_or_count_for_the_buffer)
{
	bad_npy(1, "{'descr': '<i4', 'fortran_order': False, 'shape': (100,), }", 400, -1,
		"bad.npy: error: dtype '<i4' does not match array 'a' (i16): expected '<i2'");
	bad_npy(1, "{'descr': '<u2', 'fortran_order': False, 'shape': (100,), }", 200, -1,
		"dtype '<u2' does not match array 'a' (i16)");
	bad_npy(1, "{'descr': '>i2', 'fortran_order': False, 'shape': (100,), }", 200, -1,
		"dtype '>i2' does not match");
	bad_npy(1, "{'descr': '<f2', 'fortran_order': False, 'shape': (100,), }", 200, -1,
		"dtype '<f2' does not match");
	bad_npy(1, "{'descr': '<i2', 'fortran_order': False, 'shape': (99,), }", 198, -1,
		"shape (99,) has 99 elements; array 'a' has 100");
	/* Types of the other buffers: u12 is <u2 and must fit 12 bits; u1 is
	 * bool, 0 or 1; i64 is <i8. */
	unsigned char d[800] = { 0 };
	d[2 * 7 + 1] = 0x10; /* m[7] = 4096 */
	write_npy_raw("m.npy", 1, "{'descr': '<u2', 'fortran_order': False, 'shape': (100,), }",
		      d, 200, -1);
	expect_failure(run("run %s/small.ins -l m=m.npy", DATA), 1,
		       "m.npy: error: element 7 is 4096, which does not fit array 'm' (u12: 0 to 4095)");
	d[2 * 7 + 1] = 0x0f;
	write_npy_raw("m.npy", 1, "{'descr': '<u2', 'fortran_order': False, 'shape': (100,), }",
		      d, 200, -1);
	expect_ok(run("run %s/small.ins -q -l m=m.npy -e m=m.npy", DATA));
	memset(d, 0, sizeof d);
	d[3] = 2;
	write_npy_raw("f.npy", 1, "{'descr': '|b1', 'fortran_order': False, 'shape': (100,), }",
		      d, 100, -1);
	expect_failure(run("run %s/small.ins -l f=f.npy", DATA), 1,
		       "f.npy: error: element 3 is 2, not a bool (0 or 1)");
	d[3] = 1;
	write_npy_raw("f.npy", 1, "{'descr': '|b1', 'fortran_order': False, 'shape': (100,), }",
		      d, 100, -1);
	expect_ok(run("run %s/small.ins -q -l f=f.npy -e f=f.npy -s f=f2.npy", DATA));
	char *f2 = read_tmp("f2.npy", NULL);
	cr_expect(strstr(f2 + 10, "'descr': '|b1'"), "%s", f2 + 10);
	free(f2);
	memset(d, 0xff, sizeof d);
	write_npy_raw("w.npy", 1, "{'descr': '<i8', 'fortran_order': False, 'shape': (100,), }",
		      d, 800, -1);
	expect_ok(run("run %s/small.ins -q -l w=w.npy -e w=w.npy", DATA));
}

Test(cli, raw_bin_files)
{
	unsigned char d[202] = { 0 };
	for (int i = 0; i < 100; i++)
		d[2 * i] = (unsigned char)i;
	write_file("a.bin", d, 200);
	expect_ok(run("run %s/small.ins -q -l a=a.bin -s c=c.bin -s a=a2.bin", DATA));
	size_t n;
	char *c = read_tmp("c.bin", &n);
	cr_assert_eq(n, 200);
	for (int i = 0; i < 100; i++)
		cr_expect_eq((unsigned char)c[2 * i], 2 * i, "c[%d]", i);
	free(c);
	char *a2 = read_tmp("a2.bin", &n);
	cr_expect(n == 200 && memcmp(a2, d, 200) == 0);
	free(a2);
	write_file("a.bin", d, 202);
	expect_failure(run("run %s/small.ins -l a=a.bin", DATA), 1,
		       "a.bin: error: raw data of 202 bytes; expected 200 (100 elements of 2 bytes)");
	write_file("a.bin", d, 198);
	expect_failure(run("run %s/small.ins -l a=a.bin", DATA), 1, "raw data of 198 bytes");
	expect_failure(run("run %s/small.ins -l a=none.bin", DATA), 1,
		       "none.bin: error: cannot open: No such file or directory");
	expect_failure(run("run %s/small.ins -l a=none.npy", DATA), 1,
		       "none.npy: error: cannot open");
	expect_failure(run("run %s/small.ins -e a=.", DATA), 1, ".: error: is a directory");
}

Test(cli, unknown_buffers_and_malformed_bufargs)
{
	expect_failure(run("run %s/small.ins -l zz=a.npy", DATA), 2,
		       "infsim: --load 'zz=a.npy': ");
	expect_failure(run("run %s/small.ins -s zz=a.npy", DATA), 2,
		       "has no array 'zz' (it has: a, b, c, m, f, w)");
	expect_failure(run("run %s/small.ins -e zz=a.npy", DATA), 2, "--expect 'zz=a.npy'");
	expect_failure(run("run %s/small.ins -l a", DATA), 2, "--load 'a': expected ARRAY=FILE");
	expect_failure(run("run %s/small.ins -s =x.npy", DATA), 2, "--save '=x.npy': expected ARRAY=FILE");
	expect_failure(run("run %s/small.ins -e a=", DATA), 2, "--expect 'a=': expected ARRAY=FILE");
}

/* ---- the machine and the executor's options ---- */

Test(cli, machine_option_errors)
{
	expect_failure(run("info -m wordlines"), 2,
		       "infsim: --machine 'wordlines': expected KEY=VALUE");
	expect_failure(run("info -m size=4"), 2, "--machine 'size=4': unknown machine setting");
	expect_failure(run("info -m wordlines=3"), 2,
		       "--machine 'wordlines=3': wordlines must be a power of two from 8 to 1024");
	expect_failure(run("info -m mesh=0x8"), 2, "--machine 'mesh=0x8': ");
	expect_failure(run("info -m mesh=8"), 2, "--machine 'mesh=8': expected XxY");
	expect_failure(run("info -m wordlines=64,,bitlines=64"), 2,
		       "--machine '': expected KEY=VALUE (stream: wordlines, ");
	expect_failure(run("info -m bitlines=1024,arrays=4096,ways=64,mesh=64x64"), 2,
		       "infsim: --machine makes a machine that is not valid: the machine has more than");
	expect_failure(run("run %s/small.ins -j -1", DATA), 2,
		       "infsim: --threads '-1': expected a number of threads from 1 to 1024");
	expect_failure(run("run %s/small.ins -j 99999999999", DATA), 2, "--threads '99999999999'");
	expect_failure(run("run %s/small.ins --threads=2x", DATA), 2, "--threads '2x'");
	expect_failure(run("run %s/small.ins -j 0", DATA), 2, "--threads '0'");
}

Test(cli, info_and_config)
{
	result r = run("info");
	cr_expect_eq(r.status, 0);
	cr_expect(strstr(r.out, "256 wordlines x 256 bitlines"), "%s", r.out);
	cr_expect(strstr(r.out, "134217728 bytes (128 MiB)"), "%s", r.out);
	cr_expect(strstr(r.out, "64 banks, 16384 arrays"), "%s", r.out);
	result_free(&r);
	r = run("info -m wordlines=512 -m mesh=2x4,ways=4 --json");
	cr_expect_eq(r.status, 0);
	cr_expect(strstr(r.out, "\"wordlines\": 512"), "%s", r.out);
	cr_expect(strstr(r.out, "\"banks\": 8"), "%s", r.out);
	result_free(&r);
	const char *conf = "# a config\nwordlines = 128\nbitlines=64  # narrow\n";
	write_file("m.conf", conf, strlen(conf));
	r = run("info -c m.conf -m wordlines=32");
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "32 wordlines x 64 bitlines"), "%s", r.out);
	result_free(&r);
	write_file("bad.conf", "wordlines = 128\nsize = 3\n", 25);
	expect_failure(run("info -c bad.conf"), 2, "infsim: bad.conf:2:8: size = 3: unknown machine setting");
	expect_failure(run("info -c none.conf"), 1, "none.conf: error:");
}

/* The stream's machine line < --config < --machine, key by key. */
Test(cli, machine_precedence)
{
	result r = run("info %s/resize.ins", DATA);
	cr_expect(strstr(r.out, "64 wordlines x 16 bitlines"), "%s", r.out);
	result_free(&r);
	write_file("m.conf", "wordlines = 128\n", 16);
	r = run("info %s/resize.ins -c m.conf", DATA);
	cr_expect(strstr(r.out, "128 wordlines x 16 bitlines"), "%s %s", r.out, r.err);
	result_free(&r);
	r = run("info %s/resize.ins -c m.conf -m wordlines=256,arrays=4", DATA);
	cr_expect(strstr(r.out, "256 wordlines x 16 bitlines"), "%s %s", r.out, r.err);
	cr_expect(strstr(r.out, "way         4 arrays"), "%s %s", r.out, r.err);
	result_free(&r);
	/* The resized stream runs, and gives the same result. */
	expect_ok(run("run %s/resize.ins -q -s y=y1.npy", DATA));
	expect_ok(run("run %s/resize.ins -q -m wordlines=128,ways=2 -s y=y2.npy --check", DATA));
	size_t n1, n2;
	char *y1 = read_tmp("y1.npy", &n1), *y2 = read_tmp("y2.npy", &n2);
	cr_expect(n1 == n2 && memcmp(y1, y2, n1) == 0);
	free(y1);
	free(y2);
	/* A stream that no longer fits is reported at its line. */
	expect_failure(run("run %s/resize.ins -m bitlines=8", DATA), 1, "resize.ins:4:");
}

/* ---- outputs: atomic, checked before the run ---- */

Test(cli, outputs_are_atomic)
{
	int16_t a[100];
	small_inputs(a);
	write_npy_i16("a.npy", a, 100);
	expect_failure(run("run %s/small.ins -l a=a.npy -s c=nodir/c.npy", DATA), 1,
		       "nodir/c.npy: error: cannot write: folder 'nodir'");
	cr_expect_not(tmp_exists("nodir"));
	expect_failure(run("run %s/small.ins --stats-file=nodir/s.txt", DATA), 1,
		       "nodir/s.txt: error: cannot write");
	expect_failure(run("run %s/small.ins -s c=.", DATA), 1, ".: error: is a directory");
	/* devices are written in place, and their write errors reported */
	expect_ok(run("run %s/small.ins -q -l a=a.npy -s c=/dev/null", DATA));
	expect_failure(run("run %s/small.ins -q -l a=a.npy -s c=/dev/full", DATA), 1,
		       "/dev/full: error: write failed: No space left on device");
	expect_failure(run("run %s/small.ins -q -l a=a.npy --stats-file=/dev/full", DATA), 1,
		       "/dev/full: error: write failed: No space left on device");
	/* An existing output is left alone by a failed run ... */
	write_file("c.npy", "old", 3);
	unsigned before = tmp_count();
	write_file("bad.npy", "junk", 4);
	expect_failure(run("run %s/small.ins -l a=bad.npy -s c=c.npy", DATA), 1, "bad.npy");
	size_t n;
	char *c = read_tmp("c.npy", &n);
	cr_expect(n == 3 && memcmp(c, "old", 3) == 0);
	free(c);
	cr_expect_eq(tmp_count(), before + 1, "a temporary file was left behind");
	/* ... and replaced whole by a good one, with no temporary left. */
	expect_ok(run("run %s/small.ins -q -l a=a.npy -s c=c.npy", DATA));
	c = read_tmp("c.npy", &n);
	cr_expect(n == 328 && memcmp(c, "\x93NUMPY", 6) == 0, "%zu bytes", n);
	free(c);
	cr_expect_eq(tmp_count(), before + 1);
}

/* A write killed by a signal takes its temporary with it. */
Test(cli, signal_removes_the_temporary)
{
	char path[512];
	snprintf(path, sizeof path, "%s/out.npy", tmpdir);
	write_file("out.npy", "old", 3);
	pid_t pid = fork();
	cr_assert_neq(pid, -1);
	if (pid == 0) {
		outfile o;
		diag d;
		diag_clear(&d);
		outfile_cleanup_on_signals();
		if (outfile_open(&o, path, &d) == 0 && fputs("partial", o.f) >= 0 &&
		    fflush(o.f) == 0)
			raise(SIGTERM);
		_exit(1);
	}
	int st;
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	cr_expect(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM, "status %d", st);
	cr_expect_eq(tmp_count(), 1, "the temporary is still there");
	char *old = read_tmp("out.npy", NULL);
	cr_expect_str_eq(old, "old");
	free(old);
}

Test(cli, stdout_write_error_fails)
{
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "'%s' info >/dev/full 2>'%s/err'", INFSIM_BIN, tmpdir);
	int st = system(cmd);
	cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 1, "status %d", st);
	char *err = read_tmp("err", NULL);
	cr_expect_str_eq(err, "infsim: error: writing to standard output: No space left on device\n");
	free(err);
}

/* ---- statistics ---- */

/* Does the text statistics out show label followed by value, whatever
 * the columns' widths? */
static bool shows(const char *out, const char *label, const char *value)
{
	for (const char *p = strstr(out, label); p; p = strstr(p + 1, label)) {
		const char *v = p + strlen(label);
		while (*v == ' ')
			v++;
		if (!strncmp(v, value, strlen(value)) && (v[strlen(value)] == ' ' ||
							   v[strlen(value)] == '\n'))
			return true;
	}
	return false;
}

Test(cli, stats_text_and_json)
{
	result r = run("run %s/small.ins --stats", DATA);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(shows(r.out, "wordlines", "128") && shows(r.out, "bitlines", "32"), "%s", r.out);
	cr_expect(strstr(r.out, "by command:\n"), "%s", r.out);
	cr_expect(strstr(r.out, "\n  add         2        32      32"), "%s", r.out);
	cr_expect(strstr(r.out, "\n  sub         1        32      32"), "%s", r.out);
	cr_expect(strstr(r.out, "by bank:\n  bank  x  y  cycles"), "%s", r.out);
	cr_expect(strstr(r.out, "transpose unit:\n  cycles    432    bits    10800\n"), "%s", r.out);
	cr_expect(shows(r.out, "banks that ran nothing", "1"), "%s", r.out);
	cr_expect(shows(r.out, "(command, bank) pairs skipped", "3"), "%s", r.out);
	/* statistics on stdout: no summary line (doc/USAGE.md) */
	cr_expect_null(strstr(r.out, "small.ins: 3 commands"), "%s", r.out);
	result_free(&r);
	expect_ok(run("run %s/small.ins --stats-file=s.json", DATA));
	char *js = read_tmp("s.json", NULL);
	cr_assert_not_null(js);
	json_object *d = stats_parse(js);
	cr_expect_str_eq(json_object_get_string(stats_at(d, "format")), "infsim-stats 3");
	cr_expect_str_eq(json_object_get_string(stats_at(d, "system")), "stream");
	cr_expect_eq(stats_num(d, "totals.commands"), 3);
	cr_expect_eq(stats_num(d, "totals.baseline_cycles"), 64);
	cr_expect_eq(stats_num(d, "totals.cycles"), 64);
	cr_expect_eq(stats_num(d, "by_command.add.count"), 2);
	cr_expect_eq(stats_num(d, "by_command.add.cycles"), 32);
	cr_expect_eq(stats_num(d, "by_command.sub.count"), 1);
	cr_expect_eq(stats_num(d, "by_command.sub.baseline_cycles"), 32);
	cr_expect_eq(stats_num(d, "bank_skips"), 3);
	cr_expect_eq(stats_num(d, "transpose_unit.cycles"), 432);
	json_object_put(d);
	free(js);
	/* It parses as JSON (python3 is part of the build environment). */
	if (system("python3 -c 1 >/dev/null 2>&1") == 0) {
		result p = run("run %s/small.ins --stats=json | python3 -m json.tool >/dev/null", DATA);
		cr_expect_eq(p.status, 0, "%s", p.err);
		result_free(&p);
	}
	/* Statistics on stdout keep stdout pure: no summary line. */
	r = run("run %s/small.ins --stats=json", DATA);
	cr_expect_eq(r.out[0], '{');
	cr_expect_eq(r.out[strlen(r.out) - 2], '}');
	result_free(&r);
}

/* ---- asm, disasm, commands ---- */

/* disasm prints the lowered program; --written the stream as written,
 * which parses back to itself and lowers to the same commands. */
Test(cli, disasm_written)
{
	result l = run("disasm %s/samples/fig9/fig9_move.ins", SRCDIR);
	result w = run("disasm --written %s/samples/fig9/fig9_move.ins", SRCDIR);
	cr_assert_eq(l.status, 0, "%s", l.err);
	cr_assert_eq(w.status, 0, "%s", w.err);
	cr_expect(strstr(w.out, "\nmove B, A, +1, +0 @ box=0:3,0:4\n"), "%s", w.out);
	cr_expect_null(strstr(w.out, "mv.intra"), "%s", w.out);
	cr_expect(strstr(l.out, "\nmv.intra dist=1 wl=0 n=8 to=8 @ arrays=0:2:2 bitlines=0:2:2\n"),
		  "%s", l.out);
	cr_expect_null(strstr(l.out, "\nmove "), "%s", l.out);
	write_file("w.ins", w.out, strlen(w.out));
	result w2 = run("disasm --written w.ins"), l2 = run("disasm w.ins");
	cr_expect_str_eq(w2.out, w.out);
	cr_expect_str_eq(l2.out, l.out);
	result_free(&l);
	result_free(&w);
	result_free(&w2);
	result_free(&l2);
	expect_failure(run("asm --written %s/small.ins -o s.inb", DATA), 2,
		       "option '--written' does not apply to 'asm'");
}

Test(cli, asm_disasm_round_trip)
{
	expect_ok(run("asm %s/small.ins -o s.inb", DATA));
	result t = run("disasm %s/small.ins", DATA), b = run("disasm s.inb");
	cr_expect_eq(t.status, 0, "%s", t.err);
	cr_expect_eq(b.status, 0, "%s", b.err);
	cr_expect_str_eq(t.out, b.out);
	cr_expect(strstr(t.out, "add.i16 c, a, b"), "%s", t.out);
	result_free(&t);
	result_free(&b);
	int16_t a[100];
	small_inputs(a);
	write_npy_i16("a.npy", a, 100);
	expect_ok(run("run s.inb -q -l a=a.npy -s c=c1.npy --check"));
	expect_ok(run("run %s/small.ins -q -l a=a.npy -s c=c2.npy", DATA));
	size_t n1, n2;
	char *c1 = read_tmp("c1.npy", &n1), *c2 = read_tmp("c2.npy", &n2);
	cr_expect(n1 == n2 && memcmp(c1, c2, n1) == 0);
	free(c1);
	free(c2);
	expect_failure(run("run s.inb -m wordlines=256"), 2, "a binary stream's machine is fixed");
	/* The binary form is known by its magic, whatever its name. */
	expect_ok(run("asm %s/small.ins -o s.stream && '%s' run s.stream -q", DATA, INFSIM_BIN));
	write_file("odd.inb", "1234567", 7);
	expect_failure(run("disasm odd.inb"), 1, "odd.inb: error: a binary stream is a whole number of 64-bit words");
	expect_failure(run("asm %s/small.ins -o nodir/x.inb", DATA), 1, "nodir/x.inb: error:");
}

Test(cli, commands_lists_the_table)
{
	result r = run("commands");
	cr_expect_eq(r.status, 0);
	for (unsigned op = 0; op < ISA_OP_COUNT; op++) {
		const isa_info *in = isa_info_of(op);
		cr_expect(strstr(r.out, in->semantics), "%s missing", in->name);
	}
	cr_expect(strstr(r.out, "\nmadd     f      d, a, b, c   fpmul    d := a * b + c"), "%s", r.out);
	cr_expect(strstr(r.out, "\nadd      i u    d, a, b      add "), "%s", r.out);
	cr_expect(strstr(r.out, "\nadd      f      d, a, b      fpadd "), "%s", r.out);
	cr_expect(strstr(r.out, "\ncvt      x.y    d, a         cvt "), "%s", r.out);
	cr_expect(strstr(r.out, "\nsearch   any    p, a, #imm   search "), "%s", r.out);
	result_free(&r);
}

/* ---- float and fixed-point buffers ---- */

static const char float_ins[] =
	"machine wordlines=512 bitlines=32 arrays=4 ways=2 mesh=2x1\n"
	"buffer a f32 100 wl=0 arrays=0:1:4 init=zero\n"
	"buffer b f32 100 wl=32 arrays=0:1:4 init=iota\n"
	"buffer c f32 100 wl=64 arrays=0:1:4\n"
	"buffer h f16 100 wl=96 arrays=0:1:4\n"
	"buffer z bf16 100 wl=112 arrays=0:1:4\n"
	"buffer q q16 100 wl=128 arrays=0:1:4 init=const:-1.25\n"
	"add.f32 c, a, b\n";

static uint32_t f32_bits(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	return u;
}

/* A .npy file of 100 items of dt from bit patterns. */
static void write_npy_bits(const char *name, npy_dtype dt, const uint64_t *v)
{
	size_t len;
	unsigned char *bytes = npy_build(dt, v, 100, &len);
	cr_assert_not_null(bytes);
	write_file(name, bytes, len);
	free(bytes);
}

/* Element i of a .npy file that npy_build wrote (data after 128 bytes). */
static uint64_t npy_item(const char *file, unsigned size, size_t i)
{
	const unsigned char *p = (const unsigned char *)file + 128 + i * size;
	uint64_t v = 0;
	for (unsigned k = 0; k < size; k++)
		v |= (uint64_t)p[k] << (8 * k);
	return v;
}

Test(cli, float_buffers_load_run_save)
{
	write_file("f.ins", float_ins, sizeof float_ins - 1);
	uint64_t a[100], h[100], z[100];
	for (int i = 0; i < 100; i++) {
		a[i] = f32_bits((float)i * 0.5f + 0.25f);
		h[i] = (uint64_t)(0x3c00 + 37 * i); /* f16 patterns, bf16 patterns */
		z[i] = (uint64_t)(0xc000 - 91 * i);
	}
	write_npy_bits("a.npy", (npy_dtype){'f', 4}, a);
	write_npy_bits("h.npy", (npy_dtype){'f', 2}, h);
	write_npy_bits("z.npy", (npy_dtype){'u', 2}, z);
	expect_ok(run("run f.ins -q --check -l a=a.npy -l h=h.npy -l z=z.npy -s c=c.npy "
		      "-s h=h2.npy -s z=z2.npy -s q=q.npy"));
	char *c = read_tmp("c.npy", NULL), *h2 = read_tmp("h2.npy", NULL);
	char *z2 = read_tmp("z2.npy", NULL), *q = read_tmp("q.npy", NULL);
	cr_assert(c && h2 && z2 && q);
	cr_expect(strstr(c + 10, "'descr': '<f4'"), "%s", c + 10);
	cr_expect(strstr(h2 + 10, "'descr': '<f2'"), "%s", h2 + 10);
	cr_expect(strstr(z2 + 10, "'descr': '<u2'"), "%s", z2 + 10);
	cr_expect(strstr(q + 10, "'descr': '<i2'"), "%s", q + 10);
	for (size_t i = 0; i < 100; i++) {
		cr_expect_eq(npy_item(c, 4, i), f32_bits((float)i * 0.5f + 0.25f + (float)i),
			     "c[%zu]", i);
		cr_expect_eq(npy_item(h2, 2, i), h[i], "h[%zu]", i);
		cr_expect_eq(npy_item(z2, 2, i), z[i], "z[%zu]", i);
		cr_expect_eq(npy_item(q, 2, i), 0xd800, "q[%zu]: -1.25 in q16", i);
	}
	free(c);
	free(h2);
	free(z2);
	free(q);
	/* --dump prints values and bits, and costs the transpose unit nothing. */
	result r = run("run f.ins -l a=a.npy -d q -d c");
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strncmp(r.out, "q[0] = -1.25 (0xd800)\nq[1] = -1.25 (0xd800)\n", 44) == 0, "%s", r.out);
	cr_expect(strstr(r.out, "\nc[0] = 0.25 (0x3e800000)\nc[1] = 1.75 (0x3fe00000)\n"), "%s", r.out);
	cr_expect(strstr(r.out, "\nc[99] = 148.75 (0x4314c000)\nf.ins: 1 command"), "%s", r.out);
	cr_expect_eq(count_lines(r.out), 201);
	result_free(&r);
	expect_failure(run("run f.ins -d nosuch"), 2, "--dump 'nosuch': f.ins has no array 'nosuch'");
	expect_failure(run("run f.ins -d c --stats=json"), 2, "--stats=json and --dump 'c' both write to "
		       "standard output");
	expect_failure(run("run f.ins -l h=a.npy"), 1,
		       "a.npy: error: dtype '<f4' does not match array 'h' (f16): expected '<f2'");
	expect_failure(run("run f.ins -l z=h.npy"), 1, "does not match array 'z' (bf16): expected '<u2'");
	expect_failure(run("run f.ins -l q=h.npy"), 1, "does not match array 'q' (q16): expected '<i2'");
}

/* A wrong float shows its value and its bits. */
Test(cli, float_mismatch_shows_values_and_bits)
{
	write_file("f.ins", float_ins, sizeof float_ins - 1);
	uint64_t a[100], want[100];
	for (int i = 0; i < 100; i++) {
		a[i] = f32_bits((float)i * 0.5f + 0.25f);
		want[i] = f32_bits((float)i * 0.5f + 0.25f + (float)i);
	}
	want[7] ^= 1;
	write_npy_bits("a.npy", (npy_dtype){'f', 4}, a);
	write_npy_bits("want.npy", (npy_dtype){'f', 4}, want);
	result r = run("run f.ins -l a=a.npy -e c=want.npy");
	cr_expect_eq(r.status, 3, "%s", r.err);
	cr_expect_str_eq(r.err, "want.npy: error: --expect: c[7] (f32): expected 10.750001 "
			 "(0x412c0001), got 10.75 (0x412c0000); bits that differ: 0\n");
	result_free(&r);
	/* The mismatch text of each format. */
	emu_buffer b;
	memset(&b, 0, sizeof b);
	strcpy(b.name, "x");
	b.fmt = ISA_FMT_F32;
	b.width = 32;
	b.is_signed = 1;
	emu_mismatch mm = { &b, 2, 0x3fc00000, 0x3fc00001 };
	char text[256];
	emu_report_mismatch_text(text, sizeof text, &mm);
	cr_expect_str_eq(text, "x[2] (f32): expected 1.5 (0x3fc00000), got 1.50000012 (0x3fc00001); "
			 "bits that differ: 0");
	b.fmt = ISA_FMT_BF16;
	b.width = 16;
	mm = (emu_mismatch){ &b, 0, 0x7fc0, 0xff80 };
	emu_report_mismatch_text(text, sizeof text, &mm);
	cr_expect_str_eq(text, "x[0] (bf16): expected nan (0x7fc0), got -inf (0xff80); bits that differ: 6, 15");
	b.fmt = ISA_FMT_FIX;
	mm = (emu_mismatch){ &b, 1, 0x2000, 0xe000 };
	emu_report_mismatch_text(text, sizeof text, &mm);
	cr_expect_str_eq(text, "x[1] (q16): expected 1 (0x2000), got -1 (0xe000); bits that differ: 14-15");
	/* A tensor's element by its indexes, outermost first, and its
	 * row-major number. */
	b.fmt = ISA_FMT_INT;
	b.width = 8;
	b.is_signed = 0;
	b.ndims = 3;
	b.shape[0] = 4;
	b.shape[1] = 3;
	b.shape[2] = 2;
	mm = (emu_mismatch){ &b, 4 * 3 + 4 + 1, 7, 5 };
	emu_report_mismatch_text(text, sizeof text, &mm);
	cr_expect_str_eq(text, "x[1][1][1] (element 17) (u8): expected 7 (0x07), got 5 (0x05); "
			 "bits that differ: 1");
}

Test(cli, float_stream_errors_and_settings)
{
	static const char bad[] = "buffer a f32 4 wl=0 arrays=0\nset.f32 a, #1.5.5\n";
	write_file("bad.ins", bad, sizeof bad - 1);
	expect_failure(run("run bad.ins"), 1, "bad.ins:2:13: error: set.f32: expected a floating-point "
		       "literal (e.g. 1.5, -2e-3, 0x1p-4, inf, nan, bits:0x3fc00000), found '1.5.5'");
	static const char cls[] = "buffer a f32 4 wl=0 arrays=0\npopcnt.f32 a, a\n";
	write_file("cls.ins", cls, sizeof cls - 1);
	expect_failure(run("disasm cls.ins"), 1, "cls.ins:2:8: error: 'popcnt' does not take .f32 "
		       "elements; it takes .iN/.uN");
	static const struct { const char *cmd, *want; } bad_cmds[] = {
		{"cvt.f32 a, a", "e.ins:2:8: error: 'cvt' takes two type suffixes"},
		{"madd.f32 a, a, a", "e.ins:2:17: error: missing operand c: madd.f32 takes d, a, b, c"},
		{"search.f32 tag, a, 1.5", "e.ins:2:20: error: expected an immediate #VALUE for operand #imm"},
		{"set.f16 wl:100, #1e5 @ arrays=0", "e.ins:2:18: error: set.f16: 1e5 is out of range for .f16"},
	};
	for (size_t i = 0; i < sizeof bad_cmds / sizeof bad_cmds[0]; i++) {
		char text[128];
		int n = snprintf(text, sizeof text, "buffer a f32 4 wl=0 arrays=0\n%s\n", bad_cmds[i].cmd);
		write_file("e.ins", text, (size_t)n);
		expect_failure(run("asm e.ins -o e.inb"), 1, bad_cmds[i].want);
	}
	expect_failure(run("info -m fp=fast"), 2, "--machine 'fp=fast': expected ftz (subnormals "
		       "flushed to zero, the default) or ieee (subnormals exact)");
	expect_failure(run("info -m cordic=0"), 2, "--machine 'cordic=0': expected the number of "
		       "CORDIC iterations k, from 1 to 60");
	expect_failure(run("info -m cordic=61"), 2, "--machine 'cordic=61'");
	expect_failure(run("info -m latency=fast"), 2, "--machine 'latency=fast': expected baseline");
	result r = run("info -m fp=ieee,latency=optimised,cordic=20");
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "  controller  fp=ieee latency=optimised cordic=20\n"), "%s", r.out);
	result_free(&r);
	r = run("info");
	cr_expect(strstr(r.out, "controller") == NULL, "defaults are not shown: %s", r.out);
	result_free(&r);
	r = run("info --json");
	cr_expect(strstr(r.out, "\"fp\": \"ftz\", \"latency\": \"baseline\", \"cordic\": 17}"),
		  "%s", r.out);
	result_free(&r);
	/* The settings go into the text, the binary and every command. */
	write_file("f.ins", float_ins, sizeof float_ins - 1);
	expect_ok(run("asm f.ins -m fp=ieee,cordic=9 -o f.inb"));
	result t = run("disasm f.ins -m fp=ieee,cordic=9"), b = run("disasm f.inb");
	cr_expect_eq(t.status, 0, "%s", t.err);
	cr_expect_str_eq(t.out, b.out);
	cr_expect(strstr(t.out, "machine wordlines=512 bitlines=32 arrays=4 ways=2 mesh=2x1 fp=ieee "
			 "cordic=9\n"), "%s", t.out);
	cr_expect(strstr(t.out, "buffer q q16 100 wl=128 arrays=0:1:4 init=const:-1.25\n"), "%s", t.out);
	result_free(&t);
	result_free(&b);
	expect_failure(run("run f.inb -m fp=ftz"), 2, "a binary stream's machine is fixed");
	expect_ok(run("run f.inb -q --check"));
}

/* ---- the samples ---- */

static void sample_checks(const char *name)
{
	result r = run("run %s/samples/%s --check", SRCDIR, name);
	cr_expect_eq(r.status, 0, "%s: %s", name, r.err);
	cr_expect(strstr(r.out, "the reference model agrees"), "%s", r.out);
	result_free(&r);
}

TestSuite(samples, .init = make_tmpdir, .fini = remove_tmpdir);

Test(samples, fig1d_add4)
{
	sample_checks("fig1d_add4.ins");
	/* Fig 1(d): C = A + B on 4 bits, wrapping. */
	result r = run("run %s/samples/fig1d_add4.ins -s C=c.npy", SRCDIR);
	cr_expect_eq(r.status, 0, "%s", r.err);
	result_free(&r);
	unsigned char *c = (unsigned char *)read_tmp("c.npy", NULL);
	cr_assert_not_null(c);
	for (int i = 0; i < 16; i++)
		cr_expect_eq(c[128 + i], (i + 3) & 15, "C[%d] = %d", i, c[128 + i]);
	free(c);
}

Test(samples, vadd_i32, .timeout = 120)
{
	sample_checks("vadd_i32.ins");
}

Test(samples, vmul_i32, .timeout = 300)
{
	sample_checks("vmul_i32.ins");
}

/* Moves: hazards are warnings, --strict makes them errors with exit
 * status 4; `infsim layout` prints the LOT and the tile map. */
Test(cli, moves_strict_and_layout)
{
	result r = run("run '%s/samples/move/missing_sync.ins' -q", SRCDIR);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.err, "missing_sync.ins:16: warning: command 4: reads bank 1, array 1"),
		  "%s", r.err);
	cr_expect(strstr(r.err, "[unsynced-read]\n"), "%s", r.err);
	result_free(&r);
	expect_failure(run("run '%s/samples/move/missing_sync.ins' --strict", SRCDIR), 4,
		       "missing_sync.ins:16: error: command 4: reads bank 1");
	r = run("layout '%s/samples/fig9/fig9.ins'", SRCDIR);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "Layout Override Table: 2 of 64 regions"), "%s", r.out);
	cr_expect(strstr(r.out, "  tile 3 (1,1,0): array 3 (bank 3, way 0, array 0), "
			 "elements [2,4) x [2,4) x [0,1)\n"), "%s", r.out);
	result_free(&r);
	r = run("run '%s/samples/fig9/fig9_move.ins' --check --stats", SRCDIR);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(shows(r.out, "NoC packets", "2"), "%s", r.out);
	cr_expect(shows(r.out, "NoC bytes", "128"), "%s", r.out);
	cr_expect(shows(r.out, "NoC bytes x hops", "128"), "%s", r.out);
	result_free(&r);
}

/* Two --save options naming one file are refused before the run (the
 * second would silently replace the first), and so is a --save that is
 * the --stats-file; /dev/null may take both. */
Test(cli, two_outputs_one_file)
{
	expect_failure(run("run %s/samples/fig1d_add4.ins -s A=f.npy -s B=f.npy", SRCDIR), 2,
		       "--save 'A=f.npy' and --save 'B=f.npy' name the same file");
	expect_failure(run("run %s/samples/fig1d_add4.ins -s A=f.npy -s B=./f.npy --stats-file=x "
			   "-s C=x", SRCDIR), 2, "--save 'C=x' and --stats-file 'x' name the same file");
	char path[512];
	snprintf(path, sizeof path, "%s/f.npy", tmpdir);
	cr_expect_eq(access(path, F_OK), -1, "f.npy was written");
	/* an existing file reached by two names */
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	fclose(f);
	expect_failure(run("run %s/samples/fig1d_add4.ins -s A=f.npy -s B=%s", SRCDIR, path), 2,
		       "name the same file");
	expect_ok(run("run %s/samples/fig1d_add4.ins -s A=/dev/null -s B=/dev/null", SRCDIR));
}

/* A machine larger than the host's physical memory is refused at once,
 * with a message, not when an allocation (or the kernel) fails. */
Test(cli, machine_larger_than_the_host)
{
	const long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
	/* 64 GiB of compute SRAM, the most a machine may have: its model
	 * needs 66176 MiB of host memory */
	if (pages > 0 && size > 0 && (uint64_t)pages * (uint64_t)size >= (UINT64_C(66176) << 20))
		cr_skip_test("this host holds the largest machine");
	expect_failure(run("run -m mesh=8x16,ways=64,arrays=64,wordlines=1024,bitlines=1024 "
			   "%s/samples/fig1d_add4.ins", SRCDIR), 1,
		       "this machine's SRAM model needs 66176 MiB of host memory, more than the");
}

/* "-" as an output is standard output, written directly. */
Test(cli, save_to_standard_output)
{
	int16_t a[100];
	small_inputs(a);
	write_npy_i16("a.npy", a, 100);
	result r = run("run %s/small.ins -q -l a=a.npy -s c=-", DATA);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(memcmp(r.out, "\x93NUMPY", 6) == 0, "standard output holds no .npy");
	cr_expect_not(tmp_exists("-"), "a file named - was written");
	result_free(&r);
}

/* -l BUF=- reads the .npy from standard input (a pipe too), within the
 * bytes the buffer's file can hold; it gives the run a file would give,
 * and standard input is read by one option only. */
Test(cli, load_from_standard_input)
{
	int16_t a[100];
	small_inputs(a);
	write_npy_i16("a.npy", a, 100);
	expect_ok(run("run %s/small.ins -q -l a=a.npy -s c=c.npy", DATA));
	expect_ok(run("run %s/small.ins -q -l a=- -s c=c2.npy < a.npy", DATA));
	size_t n1, n2;
	char *c1 = read_tmp("c.npy", &n1), *c2 = read_tmp("c2.npy", &n2);
	cr_assert(n1 == n2 && memcmp(c1, c2, n1) == 0, "-l a=- gave another result");
	free(c1), free(c2);
	expect_ok(run("run %s/small.ins -q -l a=/dev/stdin -e c=c.npy < a.npy", DATA));
	expect_ok(run("run %s/small.ins -q -l a=a.npy -e c=- < c.npy", DATA));
	expect_failure(run("run %s/small.ins -l a=- -e c=- < a.npy", DATA), 2,
		       "infsim: --load 'a=-' and --expect 'c=-' both read standard input, which "
		       "can be read once");
	/* bounded: an endless stream stops at the limit, bytes too many are refused */
	expect_failure(run("run %s/small.ins -l a=- < /dev/zero", DATA), 1,
		       "-: error: the data is larger than 1048792 bytes, the limit of this input");
	expect_failure(run("run %s/small.ins -l a=- < %s/small.ins", DATA, DATA), 1,
		       "-: error: not a .npy file (bad magic; expected \\x93NUMPY)");
	expect_failure(run("run %s/small.ins -l a=- < /dev/null", DATA), 1,
		       "-: error: not a .npy file");
}
