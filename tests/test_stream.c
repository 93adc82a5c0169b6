/* SPDX-License-Identifier: MIT */
/*
 * test_stream.c: the command stream: affine patterns, the parser and its
 * error messages (file:line:col and text), the disassembler's round trip,
 * the binary form's round trip and its decoder's errors, machine settings
 * and config files, the seeded random fill, and the element formats:
 * float and fixed-point literals, types, conversions and their messages.
 */
#include <criterion/criterion.h>
#include <inttypes.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assemble.h"
#include "incache.h"
#include "machine.h"
#include "move.h"
#include "program.h"

/* ---- helpers ---- */

/* 256 x 64 arrays, 4 per way, 2 ways per bank, 2x2 banks: 32 arrays. */
static sram_geom small_geom(void)
{
	sram_geom g = {.wordlines = 256, .bitlines = 64, .arrays_per_way = 4,
		       .ways_per_bank = 2, .mesh_x = 2, .mesh_y = 2};
	return g;
}

/* Parse text[0..len) from a copy with no NUL after it, so that ASan sees
 * any read past the end; then lower it, as infsim run does. */
static int parse_len(const char *text, size_t len, emu_program *p, diag *d)
{
	sram_geom g = small_geom();
	char *copy = malloc(len ? len : 1);
	cr_assert(copy);
	memcpy(copy, text, len);
	diag_clear(d);
	int rc = emu_parse("t.s", copy, len, &g, p, d);
	free(copy);
	if (rc == 0 && emu_program_lower(p, d) != 0) {
		emu_program_free(p);
		emu_program_init(p);
		rc = -1;
	}
	return rc;
}

static int parse(const char *text, emu_program *p, diag *d)
{
	return parse_len(text, strlen(text), p, d);
}

/* text must fail with exactly this "t.s:L:C: error: " prefix, and the
 * message must contain what. */
static void expect_error(const char *text, const char *where, const char *what)
{
	emu_program p;
	diag d;
	int rc = parse(text, &p, &d);
	cr_expect_eq(rc, -1, "accepted: %s", text);
	if (rc == 0) {
		emu_program_free(&p);
		return;
	}
	char prefix[64];
	snprintf(prefix, sizeof prefix, "t.s:%s: error: ", where);
	cr_expect(strncmp(d.msg, prefix, strlen(prefix)) == 0,
		  "for:\n%s\nwanted %s..., got: %s", text, prefix, d.msg);
	cr_expect(strstr(d.msg, what), "for:\n%s\nwanted '%s' in: %s", text, what, d.msg);
	cr_expect_eq(p.nbufs, 0);
	cr_expect_eq(p.ncmds, 0);
}

static bool pattern_eq(const emu_pattern *x, const emu_pattern *y)
{
	if (x->start != y->start || x->ndims != y->ndims)
		return false;
	for (unsigned k = 0; k < x->ndims; k++)
		if (x->stride[k] != y->stride[k] || x->count[k] != y->count[k])
			return false;
	return true;
}

/* Field by field, source positions aside. */
static void expect_same_program(const emu_program *x, const emu_program *y)
{
	cr_assert_eq(memcmp(&x->geom, &y->geom, sizeof x->geom), 0);
	cr_assert_eq(x->scratch, y->scratch);
	cr_assert_eq(x->nbufs, y->nbufs);
	cr_assert_eq(x->ncmds, y->ncmds);
	for (size_t i = 0; i < x->nbufs; i++) {
		const emu_buffer *a = &x->bufs[i], *b = &y->bufs[i];
		cr_assert_str_eq(a->name, b->name);
		cr_assert_eq(a->width, b->width, "%s", a->name);
		cr_assert_eq(a->is_signed, b->is_signed, "%s", a->name);
		cr_assert_eq(a->fmt, b->fmt, "%s", a->name);
		cr_assert_eq(a->length, b->length, "%s", a->name);
		cr_assert_eq(a->wl, b->wl, "%s", a->name);
		cr_assert(pattern_eq(&a->arrays, &b->arrays), "%s", a->name);
		cr_assert_eq(a->init, b->init, "%s", a->name);
		cr_assert_eq(a->init_arg, b->init_arg, "%s", a->name);
	}
	for (size_t i = 0; i < x->ncmds; i++) {
		const emu_cmd *a = &x->cmds[i], *b = &y->cmds[i];
		cr_assert_eq(a->c.op, b->c.op, "command %zu", i);
		cr_assert_eq(a->c.width, b->c.width, "command %zu", i);
		cr_assert_eq(a->c.is_signed, b->c.is_signed, "command %zu", i);
		cr_assert_eq(a->c.fmt, b->c.fmt, "command %zu", i);
		cr_assert_eq(a->c.sfmt, b->c.sfmt, "command %zu", i);
		cr_assert_eq(a->c.swidth, b->c.swidth, "command %zu", i);
		cr_assert_eq(a->c.ssigned, b->c.ssigned, "command %zu", i);
		cr_assert_eq(a->c.flags, b->c.flags, "command %zu", i);
		cr_assert_eq(a->c.iters, b->c.iters, "command %zu", i);
		cr_assert_eq(a->c.c3, b->c.c3, "command %zu", i);
		cr_assert_eq(a->buf_c, b->buf_c, "command %zu", i);
		cr_assert_eq(a->c.d, b->c.d, "command %zu", i);
		cr_assert_eq(a->c.d2, b->c.d2, "command %zu", i);
		cr_assert_eq(a->c.a, b->c.a, "command %zu", i);
		cr_assert_eq(a->c.b, b->c.b, "command %zu", i);
		cr_assert_eq(a->c.scratch, b->c.scratch, "command %zu", i);
		cr_assert_eq(a->c.scratch_rows, b->c.scratch_rows, "command %zu", i);
		cr_assert_eq(a->c.imm, b->c.imm, "command %zu", i);
		cr_assert(pattern_eq(&a->arrays, &b->arrays), "command %zu", i);
		cr_assert(pattern_eq(&a->bitlines, &b->bitlines), "command %zu", i);
		cr_assert_eq(a->buf_d, b->buf_d, "command %zu", i);
		cr_assert_eq(a->buf_d2, b->buf_d2, "command %zu", i);
		cr_assert_eq(a->buf_a, b->buf_a, "command %zu", i);
		cr_assert_eq(a->buf_b, b->buf_b, "command %zu", i);
	}
}

/* ---- patterns ---- */

static emu_pattern pat(const char *text)
{
	emu_pattern p;
	const char *err = NULL;
	size_t col = 0;
	cr_assert_eq(emu_pattern_parse(text, strlen(text), &p, &err, &col), 0,
		     "'%s': %s at %zu", text, err, col);
	return p;
}

/* Every element by the definition, with nested loops: innermost first. */
static void expect_elements(const char *text, const int64_t *want, uint64_t n)
{
	emu_pattern p = pat(text);
	cr_assert_eq(emu_pattern_size(&p), n, "%s", text);
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	for (uint64_t i = 0; i < n; i++) {
		cr_assert_eq(emu_pattern_at(&p, i), want[i], "%s[%llu]", text,
			     (unsigned long long)i);
		lo = want[i] < lo ? want[i] : lo;
		hi = want[i] > hi ? want[i] : hi;
	}
	if (n) {
		int64_t l, h;
		emu_pattern_bounds(&p, &l, &h);
		cr_assert_eq(l, lo, "%s", text);
		cr_assert_eq(h, hi, "%s", text);
	}
	char buf[EMU_PAT_MAX_DIMS * 48];
	emu_pattern_format(&p, buf, sizeof buf);
	emu_pattern q = pat(buf);
	cr_assert(pattern_eq(&p, &q), "%s -> %s", text, buf);
}

Test(pattern, one_dimension)
{
	expect_elements("5", (int64_t[]){5}, 1);
	expect_elements("1:2:2", (int64_t[]){1, 3}, 2); /* §4.2's CMD 1 bitlines */
	expect_elements("0:2:2", (int64_t[]){0, 2}, 2);
	expect_elements("-5:-1:3", (int64_t[]){-5, -6, -7}, 3);
	expect_elements("7:0:3", (int64_t[]){7, 7, 7}, 3);
	expect_elements("0x10:0x2:3", (int64_t[]){16, 18, 20}, 3);
	expect_elements("0:1:0", NULL, 0);
	emu_pattern r = emu_pattern_range(4), q = pat("0:1:4");
	cr_assert(pattern_eq(&r, &q));
}

Test(pattern, multi_dimension)
{
	/* The artifact's box: in a 2-d array of rows of S1 = 16, the box at
	 * (x, y) = (2, 3) of extents (4, 2) is 2 + 3*16 : 1:4 : 16:2. */
	expect_elements("50:1:4:16:2", (int64_t[]){50, 51, 52, 53, 66, 67, 68, 69}, 8);
	/* A 3-d box in 4 x 3 x 2: sizes S1 = 4, S2 = 3, at (1, 1, 0), extents
	 * (2, 2, 2): 1 + 1*4 : 1:2 : 4:2 : 12:2. */
	expect_elements("5:1:2:4:2:12:2",
			(int64_t[]){5, 6, 9, 10, 17, 18, 21, 22}, 8);
	/* Negative and zero strides; an empty inner dimension empties all. */
	expect_elements("100:-10:3:1:2", (int64_t[]){100, 90, 80, 101, 91, 81}, 6);
	expect_elements("0:1:2:0:2", (int64_t[]){0, 1, 0, 1}, 4);
	expect_elements("0:1:4:4:0", NULL, 0);
	expect_elements("0:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1",
			(int64_t[]){0}, 1); /* 8 dimensions: the most */
}

Test(pattern, format_is_canonical)
{
	char buf[64];
	emu_pattern p = pat("0x10:-0x1:0x3");
	cr_assert_eq(emu_pattern_format(&p, buf, sizeof buf), 7);
	cr_assert_str_eq(buf, "16:-1:3");
	/* snprintf semantics: the full length, a truncated NUL-ended text. */
	p = pat("123456:1:100");
	cr_assert_eq(emu_pattern_format(&p, buf, 5), 12);
	cr_assert_str_eq(buf, "1234");
	cr_assert_eq(emu_pattern_format(&p, NULL, 0), 12);
	/* the extremes of each field, as printf writes them */
	emu_pattern q = {.start = INT64_MIN, .ndims = 2, .stride = {INT64_MAX, -1},
			 .count = {UINT64_MAX, 0}};
	char want[128], got[128];
	const int n = snprintf(want, sizeof want, "%lld:%lld:%llu:-1:0", (long long)INT64_MIN,
			       (long long)INT64_MAX, (unsigned long long)UINT64_MAX);
	cr_assert_eq(emu_pattern_format(&q, got, sizeof got), n);
	cr_assert_str_eq(got, want);
	/* the line builder: the length asked for, the text cut to cap - 1 */
	char small[4];
	text_buf b = text_buf_of(small, sizeof small);
	text_put_str(&b, "ab");
	text_put_int(&b, -12);
	text_put_uint(&b, 0);
	cr_assert_eq(b.n, 6u);
	cr_assert_str_eq(small, "ab-");
	text_buf none = text_buf_of(NULL, 0);
	text_put_str(&none, "xyz");
	cr_assert_eq(none.n, 3u);
}

static void expect_pattern_error(const char *text, size_t len, size_t col, const char *what)
{
	emu_pattern p;
	const char *err = NULL;
	size_t at = 999;
	cr_assert_eq(emu_pattern_parse(text, len, &p, &err, &at), -1, "accepted '%.40s'", text);
	cr_expect_eq(at, col, "'%.40s': column %zu, wanted %zu (%s)", text, at, col, err);
	cr_expect(strstr(err, what), "'%.40s': %s", text, err);
}

Test(pattern, errors)
{
	expect_pattern_error("", 0, 0, "expected a number");
	expect_pattern_error(":1:2", 4, 0, "expected a number");
	expect_pattern_error("x", 1, 0, "expected a number");
	expect_pattern_error("1:", 2, 2, "expected a number");
	expect_pattern_error("1:2", 3, 3, "expected ':COUNT'");
	expect_pattern_error("1:2:", 4, 4, "expected a count");
	expect_pattern_error("1:2:-3", 6, 4, "cannot be negative");
	expect_pattern_error("1:2:3x", 6, 4, "malformed number");
	expect_pattern_error("1;2:3", 5, 1, "expected ':'");
	expect_pattern_error("0x", 2, 0, "hex digits");
	expect_pattern_error("99999999999999999999", 20, 0, "64 bits");
	expect_pattern_error("9223372036854775808", 19, 0, "signed 64-bit");
	expect_pattern_error("-9223372036854775809", 20, 0, "signed 64-bit");
	expect_pattern_error("0:4611686018427387904:4", 23, 2, "do not fit");
	expect_pattern_error("9223372036854775807:1:2", 23, 20, "do not fit");
	expect_pattern_error("0:0:4294967296:0:4294967296", 27, 15, "2^64-1");
	expect_pattern_error("0:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1", 37, 33, "at most 8");
	/* The length bounds the parse: no NUL, no reading past it. */
	expect_pattern_error("1:2:3", 3, 3, "expected ':COUNT'");
	/* Millions of dimensions stop at the ninth. */
	size_t n = 4000000;
	char *big = malloc(2 * n + 1);
	cr_assert(big);
	big[0] = '0';
	for (size_t i = 1; i < 2 * n; i += 2) {
		big[i] = ':';
		big[i + 1] = '1';
	}
	expect_pattern_error(big, 2 * n + 1, 33, "at most 8");
	free(big);
}

Test(pattern, extreme_values)
{
	emu_pattern p = pat("-9223372036854775808");
	int64_t lo, hi;
	emu_pattern_bounds(&p, &lo, &hi);
	cr_assert_eq(lo, INT64_MIN);
	p = pat("9223372036854775806:1:2");
	cr_assert_eq(emu_pattern_at(&p, 1), INT64_MAX);
	p = pat("0:0:18446744073709551615");
	cr_assert_eq(emu_pattern_size(&p), UINT64_MAX);
	cr_assert_eq(emu_pattern_at(&p, UINT64_MAX - 1), 0);
}

/* ---- the parser: a program that parses ---- */

static const char sketch[] =
	"# a comment runs to the end of the line; blank lines are fine\n"
	"\n"
	"machine wordlines=512 bitlines=64 arrays=4 ways=2 mesh=2x2   # optional\n"
	"scratch 192\n"
	"buffer A i32 256 wl=0 arrays=0:1:4 init=random:42\n"
	"buffer B i32 256 wl=32 arrays=0:1:4 init=iota\n"
	"buffer C i32 256 wl=64 arrays=0:1:4\n"
	"buffer Q i32 256 wl=96 arrays=0:1:4 init=const:-7\n"
	"buffer R i32 256 wl=128 arrays=0:1:4 init=zero\n"
	"buffer P u1 100 wl=160 arrays=0:1:2\n"
	"buffer S u8 8 wl=170 arrays=5 init=const:0xff\n"
	"add.i32 C, A, B\n"
	"add.u8 wl:16, wl:0, wl:8 @ arrays=0:1:4 bitlines=0:2:32\n"
	"lt.i32 tag, A, B\n"
	"lt.i32 P, A, B @ arrays=0:1:2\n"
	"shli.u32 C, A, #3\n"
	"set.i32 C, #-5\n"
	"set.u32 C, #0xffffffff\n"
	"divrem.i32 Q, R, A, B\n"
	"redsum.i32 C, A @ arrays=0:1:4 bitlines=0:1:64\n"
	"sel.i32 C, A, B @ bitlines=0:1:8:16:4\n"
	"\tadd.i32\tC ,A,B@arrays=3:-1:2 # tabs, tight commas, a comment\n";

Test(parse, sketch)
{
	emu_program p;
	diag d;
	cr_assert_eq(parse(sketch, &p, &d), 0, "%s", d.msg);
	cr_assert_str_eq(p.path, "t.s");
	cr_assert_eq(p.geom.bitlines, 64);
	cr_assert_eq(p.scratch, 192);
	cr_assert_eq(p.nbufs, 7);
	cr_assert_eq(p.ncmds, 11);
	const emu_buffer *a = &p.bufs[0], *s = &p.bufs[6];
	cr_assert_str_eq(a->name, "A");
	cr_assert_eq(a->width, 32);
	cr_assert(a->is_signed);
	cr_assert_eq(a->init, EMU_INIT_RANDOM);
	cr_assert_eq(a->init_arg, 42);
	cr_assert_eq(a->line, 5);
	cr_assert_eq(a->col, 8);
	cr_assert_eq(p.bufs[3].init_arg, 0xfffffff9u); /* -7, stored masked */
	cr_assert_eq(s->init_arg, 0xff);
	cr_assert_eq(s->arrays.ndims, 0);
	cr_assert_eq(s->arrays.start, 5);
	const emu_cmd *c = &p.cmds[0];
	cr_assert_eq(c->c.op, (unsigned)isa_lookup("add"));
	cr_assert_eq(c->c.d, 64);
	cr_assert_eq(c->c.a, 0);
	cr_assert_eq(c->c.b, 32);
	cr_assert_eq(c->c.d2, ISA_NONE);
	cr_assert_eq(c->buf_d, 2);
	cr_assert_eq(c->buf_d2, -1);
	cr_assert_eq(c->c.scratch, 192);
	cr_assert_eq(c->c.scratch_rows, 512 - 192);
	cr_assert_eq(c->line, 12);
	cr_assert(pattern_eq(&c->arrays, &a->arrays)); /* the default */
	emu_pattern all = emu_pattern_range(64);
	cr_assert(pattern_eq(&c->bitlines, &all));
	c = &p.cmds[1];
	cr_assert_eq(c->buf_d, -1);
	cr_assert_eq(c->c.d, 16);
	cr_assert_eq(c->c.width, 8);
	cr_assert(!c->c.is_signed);
	cr_assert_eq(p.cmds[2].c.d, ISA_TAG);
	cr_assert_eq(p.cmds[3].c.d, 160);
	cr_assert_eq(p.cmds[3].buf_d, 5);
	cr_assert_eq(p.cmds[4].c.imm, 3);
	cr_assert_eq(p.cmds[5].c.imm, 0xfffffffbu);
	cr_assert_eq(p.cmds[5].c.b, ISA_NONE);
	cr_assert_eq(p.cmds[5].c.a, ISA_NONE);
	cr_assert_eq(p.cmds[6].c.imm, 0xffffffffu);
	cr_assert_eq(p.cmds[7].c.d2, 128);
	cr_assert_eq(p.cmds[7].buf_d2, 4);
	cr_assert_eq(p.cmds[9].bitlines.ndims, 2);
	cr_assert_eq(p.cmds[10].arrays.stride[0], -1);
	emu_program_free(&p);
	cr_assert_eq(p.nbufs, 0);
	cr_assert_null(p.path);
}

Test(parse, defaults)
{
	emu_program p;
	diag d;
	/* No machine line: the default given; no scratch line: the first
	 * wordline above every buffer. */
	cr_assert_eq(parse("buffer X u8 64 wl=10 arrays=7\nbuffer Y u4 64 wl=40 arrays=7\n"
			   "not.u8 X, X\n", &p, &d), 0, "%s", d.msg);
	sram_geom g = small_geom();
	cr_assert_eq(memcmp(&p.geom, &g, sizeof g), 0);
	cr_assert_eq(p.scratch, 44);
	cr_assert_eq(p.cmds[0].c.scratch_rows, 256 - 44);
	cr_assert_eq(p.bufs[0].init, EMU_INIT_NONE);
	emu_program_free(&p);
	/* The first buffer operand gives the arrays when d is raw. */
	cr_assert_eq(parse("buffer X u8 64 wl=0 arrays=9\nnot.u8 wl:100, X\n", &p, &d), 0,
		     "%s", d.msg);
	cr_assert_eq(p.cmds[0].arrays.start, 9);
	emu_program_free(&p);
	/* Nothing at all is a valid, empty program; so is a machine line
	 * that sets some keys (the others come from the default). */
	cr_assert_eq(parse("", &p, &d), 0, "%s", d.msg);
	cr_assert_eq(p.ncmds, 0);
	cr_assert_eq(p.scratch, 0);
	emu_program_free(&p);
	cr_assert_eq(parse("machine bitlines=16\n", &p, &d), 0, "%s", d.msg);
	cr_assert_eq(p.geom.bitlines, 16);
	cr_assert_eq(p.geom.wordlines, 256);
	emu_program_free(&p);
	/* A NULL default is Table 2's machine. */
	diag_clear(&d);
	cr_assert_eq(emu_parse("x", "", 0, NULL, &p, &d), 0);
	g = sram_geom_default();
	cr_assert_eq(memcmp(&p.geom, &g, sizeof g), 0);
	emu_program_free(&p);
}

Test(parse, widths_and_immediates)
{
	emu_program p;
	diag d;
	cr_assert_eq(parse("buffer X i64 64 wl=0 arrays=0\nbuffer Y i64 64 wl=64 arrays=0\n"
			   "buffer Z i17 64 wl=128 arrays=0\n"
			   "set.i64 X, #-9223372036854775808\nset.u64 X, #18446744073709551615\n"
			   "set.i17 Z, #-65536\nset.u17 Z, #131071\nsrai.i64 Y, X, #63\n"
			   "set.i1 wl:200, #-1 @ arrays=0\nset.u1 wl:200, #1 @ arrays=0\n", &p, &d),
		     0, "%s", d.msg);
	cr_assert_eq(p.cmds[0].c.imm, UINT64_C(0x8000000000000000));
	cr_assert_eq(p.cmds[1].c.imm, UINT64_MAX);
	cr_assert_eq(p.cmds[2].c.imm, 0x10000);
	cr_assert_eq(p.cmds[3].c.imm, 0x1ffff);
	cr_assert_eq(p.cmds[4].c.imm, 63);
	cr_assert_eq(p.cmds[5].c.imm, 1);
	cr_assert_eq(p.cmds[6].c.imm, 1);
	emu_program_free(&p);
}

/* ---- error messages: every class, with its line and column ---- */

#define HDR "machine wordlines=256 bitlines=64 arrays=4 ways=2 mesh=2x2\n" \
	    "buffer A i32 256 wl=0 arrays=0:1:4\n"                         \
	    "buffer B i32 256 wl=32 arrays=0:1:4\n"                        \
	    "buffer C i32 256 wl=64 arrays=0:1:4\n"                        \
	    "buffer P u1 256 wl=96 arrays=0:1:4\n"

Test(errors, commands)
{
	expect_error(HDR "ad.i32 C, A, B\n", "6:1", "unknown command 'ad'; did you mean 'add'?");
	expect_error(HDR "frobnicate.i32 C, A, B\n", "6:1", "unknown command 'frobnicate'");
	expect_error(HDR "bufer X\n", "6:1", "did you mean 'buffer'?");
	expect_error(HDR "add C, A, B\n", "6:1", "'add' needs an element type");
	expect_error(HDR "add. C, A, B\n", "6:5", "expected an element type");
	expect_error(HDR "add.f64 C, A, B\n", "6:5", "unknown element type 'f64'; expected iN or uN "
		     "(N from 1 to 64), f32, f16, bf16 or qN (N from 4 to 64)");
	expect_error(HDR "add.f32 C, A, B\n", "6:9", "add.f32: buffer 'C' is i32, but the command "
		     "works on f32 elements");
	expect_error(HDR "add.q3 C, A, B\n", "6:5", "element width 3 is out of range; expected 4 to 64");
	expect_error(HDR "add.i C, A, B\n", "6:5", "unknown element type 'i'");
	expect_error(HDR "add.i0 C, A, B\n", "6:5", "element width 0 is out of range; expected 1 to 64");
	expect_error(HDR "add.i65 C, A, B\n", "6:5", "element width 65 is out of range");
	expect_error(HDR "add.i99999999999999999999 C, A, B\n", "6:5",
		     "element width 99999999999999999999 is out of range");
	expect_error(HDR "add.i32\n", "6:8", "missing operand d: add.i32 takes d, a, b");
	expect_error(HDR "add.i32 C, A\n", "6:13", "missing operand b: add.i32 takes d, a, b");
	expect_error(HDR "add.i32 C, A, # no b\n", "6:15", "missing operand b");
	expect_error(HDR "add.i32 C, A,\n", "6:14", "missing operand b");
	expect_error(HDR "add.i32 C A B\n", "6:11", "expected ',' before operand a, found 'A'");
	expect_error(HDR "add.i32 C, A, B, C\n", "6:16", "too many operands: add.i32 takes 3 (d, a, b)");
	expect_error(HDR "add.i32 C, A, B foo\n", "6:17", "unexpected 'foo' after the operands");
	expect_error(HDR "add.i32 C, A, #3\n", "6:15", "expected a buffer name, wl:N or tag for operand b, found '#3'");
	expect_error(HDR "add.i32 C, A, 3\n", "6:15", "expected a buffer name, wl:N or tag for operand b");
	expect_error(HDR "divrem.i32 C, B, A\n", "6:19", "missing operand b: divrem.i32 takes q, r, a, b");
}

Test(errors, operands)
{
	expect_error(HDR "add.i32 C, A, X\n", "6:15", "unknown buffer 'X'; declare it first");
	expect_error(HDR "add.i32 C, A, Bb\n", "6:15", "unknown buffer 'Bb'; did you mean 'B'?");
	expect_error(HDR "add.i32 C, A, wl:256\n", "6:18", "wordline 256 is out of range; expected 0 to 255");
	expect_error(HDR "add.i32 C, A, wl:-1\n", "6:18", "wordline -1 is out of range");
	expect_error(HDR "add.i32 C, A, wl:99999999999999999999\n", "6:18", "does not fit in 64 bits");
	expect_error(HDR "add.i32 C, A, wl 3\n", "6:17", "expected ':' and a wordline number after 'wl'");
	expect_error(HDR "add.i32 C, A, wl:250\n", "6:15", "operand b needs wordlines 250..281, past the last wordline 255");
	expect_error(HDR "add.i32 C, A, tag\n", "6:15", "the tag latch can only be a destination, not operand b");
	expect_error(HDR "add.i16 C, A, B\n", "6:9", "buffer 'C' is i32, but the command works on 16-bit elements");
	expect_error(HDR "lt.i32 C, A, B\n", "6:8", "the destination of a compare must be 1 bit wide");
	expect_error(HDR "add.i32 C, C, C\nmul.i32 C, A, C\n", "7:1", "mul.i32: destination overlaps source b");
}

Test(errors, immediates)
{
	expect_error(HDR "set.i8 wl:200, #300 @ arrays=0\n", "6:16",
		     "set.i8: immediate 300 does not fit in 8 bits; expected #-128 to #255");
	expect_error(HDR "set.i32 C, #-2147483649\n", "6:12", "does not fit in 32 bits");
	expect_error(HDR "set.u64 wl:0, #18446744073709551616 @ arrays=0\n", "6:16",
		     "does not fit in 64 bits");
	expect_error(HDR "set.i32 C, #5x\n", "6:13", "malformed number");
	expect_error(HDR "set.i32 C, #0x\n", "6:13", "hex digits");
	expect_error(HDR "set.i32 C, 5\n", "6:12", "expected an immediate #N for operand #imm, found '5'");
	expect_error(HDR "set.i32 C #5\n", "6:11", "expected ',' before operand #imm, found '#5'");
	expect_error(HDR "set.i32 C, #\n", "6:12", "missing operand #imm");
	expect_error(HDR "shli.i32 C, A, #32\n", "6:16", "shift amount 32 is out of range; expected #0 to #31");
	expect_error(HDR "srai.i32 C, A, #-1\n", "6:16", "shift amount -1 is out of range");
}

/* Float, fixed-point and conversion commands: every new message. */
#define FHDR HDR "buffer F f32 256 wl=100 arrays=0:1:4\n"           \
	     "buffer G f32 256 wl=132 arrays=0:1:4\n"                     \
	     "buffer H f16 256 wl=164 arrays=0:1:4\n"                     \
	     "buffer Q q16 256 wl=180 arrays=0:1:4\n"                     \
	     "buffer S i16 256 wl=196 arrays=0:1:4\n"

Test(errors, formats)
{
	/* A command that exists, but not for the format: the types it takes. */
	expect_error(FHDR "popcnt.f32 F, G\n", "11:8", "'popcnt' does not take .f32 elements; it takes .iN/.uN");
	expect_error(FHDR "add.q16 Q, Q, Q\n", "11:5", "'add' does not take .q16 elements; it takes "
		     ".iN/.uN or .f32/.f16/.bf16");
	expect_error(FHDR "sin.f32 F, G\n", "11:5", "'sin' does not take .f32 elements; it takes .qN");
	expect_error(FHDR "madd.i32 C, A, B, C\n", "11:6", "'madd' does not take .i32 elements");
	expect_error(FHDR "sin G, F\n", "11:1", "'sin' needs an element type: it takes .qN (sin.i32)");
	expect_error(FHDR "cvt F, A\n", "11:1", "'cvt' needs an element type: it takes two types, the "
		     "destination's first (cvt.f32.i32)");
	/* cvt's two suffixes. */
	expect_error(FHDR "cvt.f32 F, A\n", "11:8", "'cvt' takes two type suffixes, the destination's "
		     "first (cvt.f32.i32, cvt.i16.bf16)");
	expect_error(FHDR "cvt.f32.f32 F, G\n", "11:9", "cvt.f32.f32 converts a type to itself");
	expect_error(FHDR "cvt.f32.x7 F, A\n", "11:9", "unknown element type 'x7'");
	expect_error(FHDR "cvt.f32. F, A\n", "11:9", "expected an element type");
	expect_error(FHDR "add.f32.i32 F, F, G\n", "11:8", "'add' takes one type suffix; only a conversion (cvt) takes two");
	expect_error(FHDR "cvt.f32.i16 F, A\n", "11:16", "cvt.f32.i16: buffer 'A' is i32, but the command "
		     "converts from i16 elements");
	expect_error(FHDR "cvt.f16.i32 F, A\n", "11:13", "cvt.f16.i32: buffer 'F' is f32, but the command "
		     "works on f16 elements");
	expect_error(FHDR "add.f16 H, H, F\n", "11:15", "buffer 'F' is f32, but the command works on f16 elements");
	expect_error(FHDR "add.i16 S, S, H\n", "11:15", "buffer 'H' is f16, but the command works on i16 elements");
	expect_error(FHDR "eq.f32 G, F, G\n", "11:8", "buffer 'G' is f32, but the destination of a compare must be 1 bit wide");
	/* madd's four operands; search's immediate. */
	expect_error(FHDR "madd.f32 F, G, G\n", "11:17", "missing operand c: madd.f32 takes d, a, b, c");
	expect_error("machine wordlines=512\nbuffer F f32 4 wl=0 arrays=0\nbuffer G f32 4 wl=32 arrays=0\n"
		     "madd.f32 F, G, G, F\n", "4:1", "madd.f32: destination overlaps source c");
	expect_error(FHDR "search.u8 P, wl:0, 5\n", "11:20", "expected an immediate #N for operand #imm, found '5'");
	expect_error(FHDR "search.f32 P, G, 1.5\n", "11:18", "expected an immediate #VALUE for operand #imm, found '1.5'");
	expect_error(FHDR "search.f32 P, G\n", "11:16", "missing operand #imm: search.f32 takes p, a, #imm");
	expect_error(FHDR "search.i32 tag, A, #-1, C\n", "11:23", "too many operands: search.i32 takes 3 (p, a, #imm)");
	/* Literals. */
	expect_error(FHDR "set.f32 F, #1.2.3\n", "11:13", "set.f32: expected a floating-point literal (e.g. "
		     "1.5, -2e-3, 0x1p-4, inf, nan, bits:0x3fc00000), found '1.2.3'");
	expect_error(FHDR "set.f32 F, #1e\n", "11:13", "expected a floating-point literal");
	expect_error(FHDR "set.f32 F, #0x1e-3\n", "11:13", "expected a floating-point literal");
	expect_error(FHDR "set.f32 F, #-nan\n", "11:13", "expected a floating-point literal");
	expect_error(FHDR "set.f32 F, #infinity\n", "11:13", "expected a floating-point literal");
	expect_error(FHDR "set.f32 F, #1e39\n", "11:13", "set.f32: 1e39 is out of range for .f32");
	expect_error(FHDR "set.f32 F, #-1e999\n", "11:13", "-1e999 is out of range for .f32");
	expect_error(FHDR "set.f16 H, #65520\n", "11:13", "65520 is out of range for .f16");
	expect_error(FHDR "set.f16 H, #bits:0x10000\n", "11:13", "bits:0x10000 does not fit in 16 bits");
	expect_error(FHDR "set.f16 H, #bits:12\n", "11:13", "expected the raw bits of an element after 'bits:'");
	expect_error(FHDR "set.q16 Q, #4\n", "11:13", "4 is out of range for .q16 (-4 <= value < 4)");
	expect_error(FHDR "set.q16 Q, #inf\n", "11:13", "inf is out of range for .q16");
	expect_error(FHDR "set.q16 Q, #nan\n", "11:13", "expected a fixed-point literal (e.g. 1.5, -0.25");
	expect_error(FHDR "set.f32 F, #1.5x\n", "11:13", "expected a floating-point literal");
	expect_error(FHDR "set.i32 A, #1.5\n", "11:12", "set.i32: immediate 1... is not an integer; a "
		     "fraction needs a float or .qN command");
	expect_error(FHDR "set.i32 A, #inf\n", "11:13", "expected an immediate, found 'inf'");
	expect_error(FHDR "add.i32 A, B #note\n", "11:14", "expected ',' before operand b, found '#note'");
}

Test(errors, selections)
{
	expect_error(HDR "add.i32 C, A, B @ arrays=30:1:3\n", "6:26",
		     "array 32 of the pattern 30:1:3 is out of range; expected 0 to 31 (the machine has 32 arrays)");
	expect_error(HDR "add.i32 C, A, B @ arrays=32\n", "6:26", "array 32 of the pattern 32 is out of range");
	expect_error(HDR "add.i32 C, A, B @ arrays=5\n", "6:26",
		     "buffer 'C' does not hold array 5, which the command selects ('C' is on arrays 0:1:4)");
	expect_error(HDR "add.i32 wl:100, A, B @ arrays=5\n", "6:31", "buffer 'A' does not hold array 5");
	expect_error(HDR "add.i32 C, A, B @ bitlines=0:1:65\n", "6:28",
		     "bitline 64 of the pattern 0:1:65 is out of range; expected 0 to 63 (an array has 64 bitlines)");
	expect_error(HDR "add.i32 C, A, B @ bitlines=-1\n", "6:28", "bitline -1 of the pattern -1 is out of range");
	expect_error(HDR "add.i32 C, A, B @ arrays=0:1:0\n", "6:26", "the array pattern 0:1:0 is empty");
	expect_error(HDR "add.i32 C, A, B @ arrays=0:0:2\n", "6:26", "array 0 appears twice in the pattern 0:0:2");
	expect_error(HDR "add.i32 C, A, B @ bitlines=0:1:8:4:2\n", "6:28", "bitline 4 appears twice");
	expect_error(HDR "add.i32 C, A, B @ arrays=0:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1\n", "6:59",
		     "at most 8 (stride, count) dimensions");
	expect_error(HDR "add.i32 C, A, B @ arrays=0:1\n", "6:29", "expected ':COUNT'");
	expect_error(HDR "add.i32 C, A, B @ arrays=0:1:4x\n", "6:30", "malformed arrays pattern '0:1:4x': malformed number");
	expect_error(HDR "add.i32 C, A, B @ arrays=\n", "6:26", "expected a pattern start[:stride:count]... after 'arrays='");
	expect_error(HDR "add.i32 C, A, B @\n", "6:18", "expected arrays=PATTERN or bitlines=PATTERN after '@'");
	expect_error(HDR "add.i32 C, A, B @ lanes=1\n", "6:19", "expected arrays=PATTERN or bitlines=PATTERN, found 'lanes=1'");
	expect_error(HDR "add.i32 C, A, B @ arrays=1 arrays=2\n", "6:28", "arrays= is given twice");
	expect_error(HDR "add.i32 C, A, B @ arrays 1\n", "6:25", "expected '=' right after 'arrays'");
	expect_error(HDR "set.i32 wl:200, #1\n", "6:1", "set.i32 names no buffer, so it needs '@ arrays=PATTERN'");
	expect_error(HDR "redsum.i32 C, A @ bitlines=0:1:32\n", "6:28",
		     "redsum.i32 reduces whole arrays: it needs every bitline selected (bitlines=0:1:64), not 0:1:32");
}

Test(errors, buffers)
{
	expect_error(HDR "buffer A i32 4 wl=200 arrays=9\n", "6:8", "buffer 'A' is already declared (line 2)");
	expect_error(HDR "buffer D i32 4 wl=16 arrays=3\n", "6:19",
		     "buffer 'D' (wordlines 16..47) overlaps buffer 'A' (wordlines 0..31, line 2) in array 3");
	expect_error(HDR "buffer D u1 130 wl=96 arrays=2:4:3\n", "6:20", "overlaps buffer 'P' (wordlines 96..96, line 5) in array 2");
	expect_error(HDR "buffer D i32 4 wl=250 arrays=9\n", "6:19", "buffer 'D' needs wordlines 250..281, past the last wordline 255");
	expect_error(HDR "buffer D i32 4 wl=256 arrays=9\n", "6:19", "wordline 256 is out of range; expected 0 to 255");
	expect_error(HDR "buffer D i32 4 wl=120 arrays=99999\n", "6:30",
		     "array 99999 of the pattern 99999 is out of range; expected 0 to 31 (the machine has 32 arrays)");
	expect_error(HDR "buffer D i32 65 wl=120 arrays=9\n", "6:31",
		     "buffer 'D' has 65 elements, which fill 2 arrays of 64 bitlines, but its array pattern 9 has 1");
	expect_error(HDR "buffer D i32 64 wl=120 arrays=9:1:2\n", "6:31", "which fill 1 array of 64 bitlines, but its array pattern 9:1:2 has 2");
	expect_error(HDR "buffer D i32 128 wl=120 arrays=9:0:2\n", "6:32", "array 9 appears twice");
	expect_error(HDR "buffer D i32 0 wl=120 arrays=9\n", "6:14", "buffer length 0 is out of range; expected 1 to 2048");
	expect_error(HDR "buffer D i32 -4 wl=120 arrays=9\n", "6:14", "a buffer length cannot be negative");
	expect_error(HDR "buffer D i32 4x wl=120 arrays=9\n", "6:14", "malformed number");
	expect_error(HDR "buffer D i0 4 wl=120 arrays=9\n", "6:10", "element width 0 is out of range");
	expect_error(HDR "buffer D f64 4 wl=120 arrays=9\n", "6:10", "unknown element type 'f64'");
	expect_error(HDR "buffer D q65 4 wl=120 arrays=9\n", "6:10", "element width 65 is out of range; expected 4 to 64");
	expect_error(HDR "buffer D bf16 4 wl=120 arrays=9 init=const:1.5.\n", "6:44",
		     "init=const: expected a floating-point literal (e.g. 1.5, -2e-3, 0x1p-4, inf, nan");
	expect_error(HDR "buffer D f16 4 wl=120 arrays=9 init=const:70000\n", "6:43",
		     "init=const: 70000 is out of range for .f16");
	expect_error(HDR "buffer D q8 4 wl=120 arrays=9 init=const:-4.5\n", "6:42",
		     "-4.5 is out of range for .q8 (-4 <= value < 4)");
	expect_error(HDR "buffer tag i32 4 wl=120 arrays=9\n", "6:8", "'tag' is a reserved word");
	expect_error(HDR "buffer wl i32 4 wl=120 arrays=9\n", "6:8", "'wl' is a reserved word");
	expect_error(HDR "buffer D-x i8 4 wl=120 arrays=9\n", "6:9", "unexpected '-' in buffer name 'D'");
	expect_error(HDR "buffer 9D i8 4 wl=120 arrays=9\n", "6:8", "expected a buffer name after 'buffer', found '9D'");
	expect_error(HDR "buffer\n", "6:7", "expected a buffer name");
	expect_error(HDR "buffer D\n", "6:9", "expected an element type");
	expect_error(HDR "buffer D i8\n", "6:12", "expected the buffer's length");
	expect_error(HDR "buffer "
		     "a123456789b123456789c123456789d123456789e123456789f123456789abcd"
		     " i8 4 wl=120 arrays=9\n", "6:8", "buffer name is 64 characters long; at most 63");
	expect_error(HDR "buffer D i32 4 wl=120\n", "6:22", "buffer 'D' needs arrays=PATTERN");
	expect_error(HDR "buffer D i32 4 arrays=9 # no wl\n", "6:25", "buffer 'D' needs wl=N");
	expect_error(HDR "buffer D i32 4 wl=120 wl=121 arrays=9\n", "6:23", "wl= is given twice");
	expect_error(HDR "buffer D i32 4 wl=120 arrays=9 size=3\n", "6:32", "unknown buffer field 'size=3'");
	expect_error(HDR "buffer D i32 4 wl 120 arrays=9\n", "6:18", "expected '=' right after 'wl'");
	expect_error(HDR "buffer D i32 4 wl=120 arrays=9 init=const:5000000000\n", "6:43",
		     "init value 5000000000 does not fit in 32 bits; expected -2147483648 to 4294967295");
	expect_error(HDR "buffer D i8 4 wl=120 arrays=9 init=const:-129\n", "6:42", "does not fit in 8 bits");
	expect_error(HDR "buffer D i8 4 wl=120 arrays=9 init=bogus\n", "6:36", "unknown init 'bogus'");
	expect_error(HDR "buffer D i8 4 wl=120 arrays=9 init=random\n", "6:42", "expected ':' and a value after 'random'");
	expect_error(HDR "buffer D i8 4 wl=120 arrays=9 init=iota:3\n", "6:40", "init=iota takes no value");
	expect_error(HDR "buffer D i8 4 wl=120 arrays=9 init=random:-1\n", "6:43", "a seed cannot be negative");
	expect_error(HDR "add.i32 C, A, B\nbuffer E i32 4 wl=200 arrays=0\n", "7:1",
		     "buffers must be declared before the first command (line 6)");
}

Test(errors, machine_and_scratch)
{
	expect_error("buffer A i32 4 wl=0 arrays=0\nmachine wordlines=512\n", "2:1",
		     "'machine' must come before every scratch, buffer and command line (line 1 has one)");
	expect_error("scratch 10\nmachine\n", "2:1", "(line 1 has one)");
	expect_error("machine\nmachine\n", "2:1", "a second 'machine' line; the machine is already set at line 1");
	expect_error("machine wordlines=100\n", "1:19",
		     "machine wordlines=100: wordlines must be a power of two from 8 to 1024");
	expect_error("machine wordlines=128 wordlines=64\n", "1:23", "'wordlines' is given twice");
	expect_error("machine mesh=8\n", "1:14", "machine mesh=8: expected XxY");
	expect_error("machine mesh=0x8\n", "1:14", "each mesh dimension must be from 1 to 64");
	expect_error("machine banks=8\n", "1:9", "expected a machine setting (wordlines, bitlines, "
		     "arrays, ways, mesh, fp, latency or cordic), found 'banks=8'");
	expect_error("machine fp=fast\n", "1:12", "machine fp=fast: expected ftz (subnormals flushed "
		     "to zero, the default) or ieee (subnormals exact)");
	expect_error("machine latency=quick\n", "1:17", "expected baseline (the default) or optimised");
	expect_error("machine cordic=0\n", "1:16", "machine cordic=0: expected the number of CORDIC "
		     "iterations k, from 1 to 60");
	expect_error("machine cordic=61\n", "1:16", "from 1 to 60");
	expect_error("machine cordic=x\n", "1:16", "from 1 to 60");
	expect_error("machine fp=ieee fp=ftz\n", "1:17", "'fp' is given twice");
	expect_error("machine wordlines 8\n", "1:18", "expected '=' right after 'wordlines'");
	expect_error("machine wordlines=\n", "1:19", "expected a value after 'wordlines='");
	expect_error("machine arrays=99999999999999999999\n", "1:16", "expected a decimal number");
	expect_error("machine bitlines=1024 arrays=4096 ways=64 mesh=64x64\n", "1:1",
		     "this machine is not valid: the machine has more than");
	expect_error(HDR "scratch 20\n", "6:9",
		     "scratch wordlines from 20 would overlap buffer 'A' (wordlines 0..31, line 2)");
	expect_error("scratch 257\n", "1:9", "scratch wordline 257 is out of range; expected 0 to 256");
	expect_error("scratch\n", "1:8", "expected the first scratch wordline after 'scratch'");
	expect_error("scratch 10 20\n", "1:12", "unexpected '20' after the scratch wordline");
	expect_error("scratch 10\nscratch 20\n", "2:1", "a second 'scratch' line; scratch is already set at line 1");
	expect_error("scratch 100\nbuffer A i32 4 wl=80 arrays=0\n", "2:19",
		     "buffer 'A' (wordlines 80..111) reaches into the scratch wordlines, which start at 100");
	expect_error(HDR "add.i32 C, A, B\nscratch 200\n", "7:1",
		     "'scratch' must come before the first command (line 6)");
	/* A command that needs scratch wordlines the program does not have. */
	emu_program p;
	diag d;
	int rc = parse("scratch 256\nbuffer A u8 4 wl=0 arrays=0\nbuffer B u8 4 wl=8 arrays=0\n"
		       "mul.u8 wl:16, A, B\n", &p, &d);
	isa_cmd c = {.op = (uint16_t)isa_lookup("mul"), .width = 8, .d = 16, .a = 0, .b = 8,
		     .d2 = ISA_NONE, .scratch = 256, .scratch_rows = 0};
	isa_rules r;
	if (isa_check(&c, 256, 64, &r)) {
		cr_assert_eq(rc, -1);
		cr_assert(strstr(d.msg, "t.s:4:1: error: mul.u8: not enough scratch wordlines"), "%s", d.msg);
	} else {
		cr_assert_eq(rc, 0, "%s", d.msg); /* a mul that needs no scratch */
		emu_program_free(&p);
	}
}

Test(errors, lines)
{
	expect_error("buffer A i32 4 wl=0 arrays=0\nadd.i32 A, A, A", "2:16",
		     "the last line does not end with a newline; the file may be truncated");
	expect_error("buffer A i32 4 wl=0 arrays=0\nadd.i32 A, A,", "2:14", "does not end with a newline");
	expect_error("buffer A i32 4 wl=0 arr", "1:24", "does not end with a newline");
	expect_error("# only a comment", "1:17", "does not end with a newline");
	expect_error("buffer A i32 4 wl=0 arrays=0\nadd.i32 A, A, A\r\n\r", "3:2", "does not end with a newline");
	static const char nul[] = "buffer A i32 4 wl=0 arrays=0\nadd.i32 A,\0 A\n";
	emu_program p;
	diag d;
	cr_assert_eq(parse_len(nul, sizeof nul - 1, &p, &d), -1);
	cr_assert_str_eq(d.msg, "t.s:2:11: error: NUL byte in the input; expected text");
	expect_error("add.i32 A,\x01 A\n", "1:11", "control character 0x01 in the input");
	expect_error("# \x7f\n", "1:3", "control character 0x7f");
	char *longline = malloc(5002);
	cr_assert(longline);
	memset(longline, 'x', 5000);
	longline[0] = '#';
	longline[5000] = '\n';
	longline[5001] = '\0';
	expect_error(longline, "1:4097", "line is longer than 4096 characters");
	free(longline);
	/* Carriage returns are blanks; UTF-8 is fine in comments. */
	cr_assert_eq(parse("buffer A i32 4 wl=0 arrays=0\r\n# caf\xc3\xa9\r\nadd.i32 A, A, A\r\n",
			   &p, &d), 0, "%s", d.msg);
	emu_program_free(&p);
	expect_error("buffer A i32 4 wl=0 arrays=0 \xc3\xa9\n", "1:30", "unknown buffer field");
	expect_error("@\n", "1:1", "expected a command or a directive (machine, scratch, buffer, tensor), found '@'");
}

Test(parse, file)
{
	emu_program p;
	diag d;
	diag_clear(&d);
	cr_assert_eq(emu_parse_file("/nonexistent/x.ins", NULL, &p, &d), -1);
	cr_assert_str_eq(d.msg, "/nonexistent/x.ins: error: cannot open: No such file or directory");
	char path[] = "/tmp/test_stream_XXXXXX";
	int fd = mkstemp(path);
	cr_assert(fd >= 0);
	cr_assert_eq(write(fd, sketch, sizeof sketch - 1), (ssize_t)(sizeof sketch - 1));
	close(fd);
	sram_geom g = small_geom();
	diag_clear(&d);
	cr_assert_eq(emu_parse_file(path, &g, &p, &d), 0, "%s", d.msg);
	cr_assert_eq(p.ncmds, 11);
	cr_assert_str_eq(p.path, path);
	emu_program_free(&p);
	unlink(path);
}

/* ---- the disassembler: parse -> format -> parse ---- */

/* The types every_command uses, and the buffers of each: A, B, C, D, R
 * followed by the type's key (u16 shares i16's). */
static const char *const all_types[] = {"u16", "i16", "f32", "f16", "bf16", "q16", "q32"};
#define NTYPES (sizeof all_types / sizeof all_types[0])

static const char *type_key(const char *t)
{
	return strcmp(t, "u16") == 0 ? "i16" : t;
}

/* An immediate of type t: the DI (set) one or the other (DAI, PAI). */
static const char *imm_of(const char *t, bool di)
{
	static const char *const ints[] = {"#-300", "#5"};
	static const char *const lits[][2] = {
		{"#1.5", "#-0"}, {"#inf", "#-2e-3"}, {"#nan", "#0x1.8p-4"},
		{"#-1.25", "#bits:0x7fff"}, {"#3.5", "#0.1"},
	};
	for (unsigned k = 2; k < NTYPES; k++)
		if (strcmp(t, all_types[k]) == 0)
			return lits[k - 2][!di];
	return ints[!di];
}

/* The operands of a command of form f on type t's buffers. */
static void operands(char *out, size_t size, isa_form f, const char *t, const char *src)
{
	const char *k = type_key(t), *sk = type_key(src ? src : t);
	switch (f) {
	case ISA_FORM_DAB: snprintf(out, size, "D%s, A%s, B%s", k, k, k); break;
	case ISA_FORM_DA: case ISA_FORM_RA: snprintf(out, size, "D%s, A%s", k, sk); break;
	case ISA_FORM_DAI: snprintf(out, size, "D%s, A%s, %s", k, k, imm_of(t, false)); break;
	case ISA_FORM_DI: snprintf(out, size, "D%s, %s", k, imm_of(t, true)); break;
	case ISA_FORM_PAB: snprintf(out, size, "P, A%s, B%s", k, k); break;
	case ISA_FORM_QRAB: snprintf(out, size, "D%s, R%s, A%s, B%s", k, k, k, k); break;
	case ISA_FORM_DABC: snprintf(out, size, "D%s, A%s, B%s, C%s", k, k, k, k); break;
	case ISA_FORM_PAI: snprintf(out, size, "P, A%s, %s", k, imm_of(t, false)); break;
	}
}

/* Every command of the table in its form, for every type it takes (a
 * conversion for every pair of types), and the compares into tag. */
static char *every_command(void)
{
	size_t cap = 65536, n = 0, wl = 0;
	char *t = malloc(cap), ops[128];
	cr_assert(t);
	n += (size_t)snprintf(t + n, cap - n,
			      "machine wordlines=1024 bitlines=64 arrays=4 ways=2 mesh=2x2\n");
	for (unsigned k = 1; k < NTYPES; k++) {
		unsigned fmt, width, sg;
		cr_assert_eq(isa_type_parse(all_types[k], strlen(all_types[k]), &fmt, &width, &sg), 0);
		for (const char *b = "ABCDR"; *b; b++, wl += width)
			n += (size_t)snprintf(t + n, cap - n, "buffer %c%s %s 256 wl=%zu arrays=4:1:4\n",
					      *b, all_types[k], all_types[k], wl);
	}
	n += (size_t)snprintf(t + n, cap - n, "buffer P u1 256 wl=%zu arrays=4:1:4\n", wl);
	for (unsigned op = 0; op < ISA_OP_COUNT; op++) {
		const isa_info *in = isa_info_of(op);
		const bool conv = isa_class_of(op) == ISA_CLASS_X;
		for (unsigned k = 0; k < NTYPES; k++)
			for (unsigned j = 0; j < (conv ? NTYPES : 1); j++) {
				unsigned fmt, width, sg;
				isa_type_parse(all_types[k], strlen(all_types[k]), &fmt, &width, &sg);
				if ((conv && j == k) || (!conv && !isa_class_takes(isa_class_of(op), fmt)))
					continue;
				operands(ops, sizeof ops, in->form, all_types[k], conv ? all_types[j] : NULL);
				n += (size_t)snprintf(t + n, cap - n, "%s.%s%s%s %s\n", in->name,
						      all_types[k], conv ? "." : "",
						      conv ? all_types[j] : "", ops);
				if (in->form == ISA_FORM_PAB && (k == 1 || k == 2))
					n += (size_t)snprintf(t + n, cap - n, "%s.%s tag, A%s, B%s "
							      "@ arrays=5:1:2\n", in->name, all_types[k],
							      all_types[k], all_types[k]);
			}
	}
	cr_assert(n < cap);
	return t;
}

static const char multi_dim[] =
	"machine wordlines=128 bitlines=16 arrays=8 ways=2 mesh=2x1\n"
	"scratch 100\n"
	"# a 2-d tile grid: 4 x 8 arrays, the buffers on boxes of it\n"
	"buffer X u8 128 wl=0 arrays=1:1:2:8:4 init=iota\n"
	"buffer Y u8 128 wl=8 arrays=1:1:2:8:4 init=const:200\n"
	"buffer Z i8 128 wl=16 arrays=30:-1:2:-8:4 init=random:18446744073709551615\n"
	"buffer W i8 32 wl=0 arrays=3:1:2\n"
	"xor.u8 Y, X, Y @ arrays=2:8:4 bitlines=1:4:4:1:2\n"
	"add.i8 Z, Z, Z\n"
	"sub.i8 wl:40, wl:24, wl:32 @ arrays=0:1:4:16:2:8:2 bitlines=15:-1:16\n"
	"not.u8 wl:60, X @ bitlines=0:2:2:4:2:8:2\n";

static void expect_round_trip(const char *text)
{
	emu_program p, q;
	diag d;
	cr_assert_eq(parse(text, &p, &d), 0, "%s", d.msg);
	char *t1 = emu_format(&p);
	cr_assert(t1);
	cr_assert_eq(parse(t1, &q, &d), 0, "%s\n%s", d.msg, t1);
	expect_same_program(&p, &q);
	char *t2 = emu_format(&q);
	cr_assert_str_eq(t1, t2);
	/* One command's text is its line of the whole text. */
	char line[2048];
	for (size_t i = 0; i < p.ncmds; i++) {
		int n = emu_format_cmd(&p, &p.cmds[i], line, sizeof line);
		cr_assert_eq((size_t)n, strlen(line));
		cr_assert(strstr(t1, line), "%s", line);
	}
	free(t1);
	free(t2);
	emu_program_free(&p);
	emu_program_free(&q);
}

Test(format, round_trip)
{
	expect_round_trip(sketch);
	expect_round_trip(multi_dim);
	expect_round_trip("");
	expect_round_trip("set.u8 wl:3, #7 @ arrays=1:3:5\n");
	char *all = every_command();
	expect_round_trip(all);
	free(all);
}

Test(format, canonical_text)
{
	emu_program p;
	diag d;
	cr_assert_eq(parse("buffer x i8 3 wl=5 arrays=2 init=const:-1\n"
			   "buffer y i8 3 wl=13 arrays=2 init=random:9\n"
			   "set.i8 x, #-128\nsrai.i8 y, x, #0x7\nlt.u8 tag, x, y @ bitlines=0:1:3\n",
			   &p, &d), 0, "%s", d.msg);
	char *t = emu_format(&p);
	cr_assert_str_eq(t,
			 "machine wordlines=256 bitlines=64 arrays=4 ways=2 mesh=2x2\n"
			 "scratch 21\n"
			 "buffer x i8 3 wl=5 arrays=2 init=const:-1\n"
			 "buffer y i8 3 wl=13 arrays=2 init=random:9\n"
			 "set.i8 x, #-128 @ arrays=2 bitlines=0:1:64\n"
			 "srai.i8 y, x, #7 @ arrays=2 bitlines=0:1:64\n"
			 "lt.u8 tag, x, y @ arrays=2 bitlines=0:1:3\n");
	free(t);
	/* snprintf semantics for one command. */
	char small[8];
	int n = emu_format_cmd(&p, &p.cmds[0], small, sizeof small);
	cr_assert_eq(n, (int)strlen("set.i8 x, #-128 @ arrays=2 bitlines=0:1:64"));
	cr_assert_str_eq(small, "set.i8 ");
	emu_program_free(&p);
}

/* ---- the binary form ---- */

static void encode_text(const char *text, emu_program *p, uint64_t **w, size_t *n)
{
	diag d;
	cr_assert_eq(parse(text, p, &d), 0, "%s", d.msg);
	diag_clear(&d);
	cr_assert_eq(emu_encode(p, w, n, &d), 0, "%s", d.msg);
}

static int decode(const uint64_t *w, size_t n, emu_program *q, diag *d)
{
	uint64_t *copy = malloc(n ? n * sizeof *w : 1);
	cr_assert(copy);
	memcpy(copy, w, n * sizeof *w);
	diag_clear(d);
	int rc = emu_decode("t.inb", copy, n, q, d);
	free(copy);
	return rc;
}

Test(binary, round_trip)
{
	const char *texts[] = {sketch, multi_dim, "", "set.u8 wl:3, #7 @ arrays=1:3:5\n"};
	char *all = every_command();
	for (size_t i = 0; i < 5; i++) {
		emu_program p, q;
		uint64_t *w;
		size_t n;
		diag d;
		encode_text(i < 4 ? texts[i] : all, &p, &w, &n);
		cr_assert_eq(memcmp(w, "INFSIMB1", 8), 0); /* the magic, as bytes on disk (little-endian) */
		cr_assert_eq(w[1], 5);
		cr_assert_eq(w[2], n);
		cr_assert_eq(decode(w, n, &q, &d), 0, "%s", d.msg);
		cr_assert_str_eq(q.path, "t.inb");
		expect_same_program(&p, &q);
		for (size_t k = 0; k < q.ncmds; k++)
			cr_assert_eq(q.cmds[k].line, 0);
		char *t1 = emu_format(&p), *t2 = emu_format(&q);
		cr_assert_str_eq(t1, t2);
		free(t1);
		free(t2);
		free(w);
		emu_program_free(&p);
		emu_program_free(&q);
	}
	free(all);
}

/* Every cut of a stream is refused, with the offset where it ends. */
Test(binary, truncated)
{
	emu_program p, q;
	uint64_t *w;
	size_t n;
	diag d;
	encode_text(multi_dim, &p, &w, &n);
	for (size_t k = 0; k < n; k++) {
		cr_assert_eq(decode(w, k, &q, &d), -1, "accepted %zu of %zu words", k, n);
		cr_assert(strncmp(d.msg, "t.inb: error: word ", 19) == 0, "%s", d.msg);
		cr_assert_eq(q.nbufs, 0);
	}
	cr_assert_str_eq((decode(w, 0, &q, &d), d.msg),
			 "t.inb: error: word 0: the stream ends inside the header; it is truncated");
	cr_assert_str_eq((decode(w, 40, &q, &d), d.msg),
			 "t.inb: error: word 40: the stream ends after 40 words, but its header says 144; it is truncated");
	cr_assert_eq(n, 144);
	free(w);
	emu_program_free(&p);
}

static void expect_decode_error(const uint64_t *w, size_t n, const char *msg)
{
	emu_program q;
	diag d;
	cr_assert_eq(decode(w, n, &q, &d), -1, "accepted: %s", msg);
	cr_expect(strstr(d.msg, msg), "wanted '%s' in: %s", msg, d.msg);
}

Test(binary, corrupted)
{
	emu_program p;
	uint64_t *w;
	size_t n;
	/* Header 11 words (the machine's settings at 7); buffer A: words
	 * 11..25 (name 11..18, layout 19, length 20, init 21, pattern
	 * 22..25); buffer B 26..40; the command at 41: opcode 41, operands
	 * 42, imm 43, buffers 44, c and settings 45, arrays 46..49, bitlines
	 * 50..53. */
	encode_text("buffer A u8 128 wl=0 arrays=0:1:2\nbuffer B u8 128 wl=8 arrays=0:1:2\n"
		    "add.u8 A, A, B\n", &p, &w, &n);
	cr_assert_eq(n, 55);
	const uint64_t add = (uint64_t)isa_lookup("add"), none_c = 0xffff | UINT64_C(0xffff) << 16;
	cr_assert_eq(w[45], none_c | UINT64_C(17) << 40);
	uint64_t *c = malloc(n * sizeof *c);
#define MUTATE(i, v, msg) do { memcpy(c, w, n * sizeof *c); c[i] = (v); \
		expect_decode_error(c, n, msg); } while (0)
	MUTATE(0, 0x1234, "word 0: bad magic 0x0000000000001234; expected \"INFSIMB1\"");
	MUTATE(1, 2, "word 1: version 2 is not supported; expected 5");
	MUTATE(1, 3, "word 1: version 3 is not supported; expected 5");
	MUTATE(1, 4, "word 1: version 4 is not supported; expected 5");
	MUTATE(2, 54, "word 54: 1 words follow the end given in the header");
	MUTATE(3, 100, "word 3: the machine is not valid: wordlines must be a power of two");
	MUTATE(3, UINT64_C(1) << 40, "word 3: the machine is not valid");
	MUTATE(7, 2, "word 7: the machine's settings are not valid: fp must be ftz (0) or ieee (1)");
	MUTATE(7, 2 << 8, "word 7: the machine's settings are not valid: latency must be baseline");
	MUTATE(7, 61 << 16, "word 7: the machine's settings are not valid: cordic (the CORDIC iterations k) must be from 1 to 60");
	MUTATE(7, 17 << 16, "word 7: the machine's settings are not valid: cordic=17 is the default, stored as 0");
	MUTATE(7, UINT64_C(1) << 24, "word 7: reserved bits 0x0000000001000000 of the machine's settings");
	MUTATE(7, 1, "word 41: add.u8: its settings (flags 0x0, cordic=17) are not the machine's (flags 0x1 from fp=, cordic=17)");
	MUTATE(7, 20 << 16, "word 41: add.u8: its settings (flags 0x0, cordic=17) are not the machine's (flags 0x0 from fp=, cordic=20)");
	MUTATE(8, 300, "word 8: scratch wordline 300 is out of range; expected 0 to 256");
	MUTATE(8, 10, "word 34: buffer 'B' (wordlines 8..15) reaches into the scratch wordlines, which start at 10");
	MUTATE(9, 40000, "word 9: 40000 buffers and 1 commands cannot fit");
	MUTATE(10, UINT64_MAX, "cannot fit");
	MUTATE(10, 0, "word 41: 524288 node markers cannot fit in the 13 words that follow");
	MUTATE(11, 0, "word 11: a buffer name must be an identifier");
	MUTATE(11, 0x41 | (UINT64_C(0x42) << 16), "word 11: the buffer name is not padded with zero bytes");
	MUTATE(11, 0x67617400, "word 11: the buffer name is not padded with zero bytes");
	memcpy(c, w, n * sizeof *c); /* 64 name bytes, none of them zero */
	for (unsigned i = 11; i < 19; i++)
		c[i] = UINT64_C(0x4141414141414141);
	expect_decode_error(c, n, "word 11: the name has no ending zero byte (a name is at most 63 bytes)");
	MUTATE(11, 0x672d41, "word 11: a buffer name must be an identifier");
	MUTATE(11, 0x676174, "word 11: 'tag' is a reserved word");
	MUTATE(26, 0x41, "word 26: buffer 'A' is already declared (buffer #0)");
	MUTATE(19, 0, "word 19: element type u0 is not valid");
	MUTATE(19, 8 | (UINT64_C(2) << 8), "word 19: element type i8 is not valid");
	MUTATE(19, 8 | (UINT64_C(1) << 24), "word 19: element type f32 with width 8, signedness 0 is not valid");
	MUTATE(19, 8 | (UINT64_C(4) << 24), "word 19: element type q with width 8, signedness 0 is not valid");
	MUTATE(19, 8 | (UINT64_C(1) << 8) | (UINT64_C(4) << 24),
	       "word 42: add.u8: buffer 'A' is q8, but the command works on u8 elements");
	MUTATE(19, 8 | (UINT64_C(9) << 24), "word 19: element type format 9 is not valid");
	MUTATE(19, 8 | (UINT64_C(1) << 50), "word 19: reserved bits 0x0004000000000000");
	MUTATE(19, 8 | (UINT64_C(1) << 48), "word 19: buffer 'A' is shared, which only a tensor may be");
	MUTATE(19, 8 | (UINT64_C(9) << 16), "word 19: unknown init kind 9");
	MUTATE(19, 8 | (UINT64_C(250) << 32), "word 19: buffer 'A' needs wordlines 250..257");
	MUTATE(19, 8 | (UINT64_C(4) << 32),
	       "word 34: buffer 'B' (wordlines 8..15) overlaps buffer 'A' (wordlines 4..11, buffer #0) in array 0");
	MUTATE(19, 8 | (UINT64_C(12) << 32), "word 19: buffer 'A' (wordlines 12..19) reaches into the scratch wordlines, which start at 16");
	MUTATE(20, 0, "word 20: buffer length 0 is out of range");
	MUTATE(21, 5, "word 21: this init kind takes no value, found 5");
	MUTATE(22, 31, "word 22: array 32 of the pattern 31:1:2 is out of range");
	MUTATE(23, 9, "word 23: a buffer's array pattern has 9 dimensions; at most 8");
	MUTATE(25, 3, "word 22: buffer 'A' has 128 elements, which fill 2 arrays of 64 bitlines, but its array pattern 0:1:3 has 3");
	MUTATE(41, 999, "word 41: unknown command number 999");
	MUTATE(41, add | (UINT64_C(0) << 16), "word 41: add: element type u0 is not valid");
	MUTATE(41, add | (UINT64_C(8) << 16) | (UINT64_C(1) << 40), "word 41: add takes no source type (only cvt does)");
	MUTATE(41, add | (UINT64_C(32) << 16) | (UINT64_C(1) << 24) | (UINT64_C(4) << 32),
	       "word 41: 'add' (command number 0) does not take .q32 elements; it takes .iN/.uN or .f32/.f16/.bf16");
	MUTATE(41, add | (UINT64_C(32) << 16) | (UINT64_C(1) << 24) | (UINT64_C(1) << 32),
	       "word 41: 'add' (command number 0) does not take .f32 elements");
	MUTATE(41, (uint64_t)isa_lookup("cvt") | (UINT64_C(8) << 16) | (UINT64_C(8) << 48),
	       "word 41: cvt.u8.u8 converts a type to itself");
	MUTATE(41, (uint64_t)isa_lookup("cvt") | (UINT64_C(8) << 16),
	       "word 41: cvt: source element type u0 is not valid");
	MUTATE(41, add | (UINT64_C(16) << 16),
	       "word 42: add.u16: buffer 'A' is u8, but the command works on 16-bit elements");
	MUTATE(41, (uint64_t)isa_lookup("not") | (UINT64_C(8) << 16),
	       "word 41: not takes no operand b (its operands are d, a)");
	MUTATE(42, 0 | (UINT64_C(0xffff) << 16) | (UINT64_C(0) << 32) | (UINT64_C(9) << 48),
	       "word 42: add.u8: operand b is at wordline 9, but buffer 'B' is at wordline 8");
	MUTATE(43, 1, "word 41: add.u8 takes no immediate, found 1");
	MUTATE(44, 0 | (UINT64_C(0xffff) << 16) | (UINT64_C(0) << 32) | (UINT64_C(7) << 48),
	       "word 42: add.u8: operand b names buffer 7, but there are 2");
	MUTATE(44, 0 | (UINT64_C(0xffff) << 16) | (UINT64_C(0) << 32) | (UINT64_C(0xfffe) << 48),
	       "word 42: add.u8: operand b has a bad buffer index -2");
	MUTATE(45, none_c | UINT64_C(17) << 40 | UINT64_C(1) << 32,
	       "word 41: add.u8: its settings (flags 0x1, cordic=17) are not the machine's (flags 0x0 from fp=, cordic=17)");
	MUTATE(45, none_c | UINT64_C(16) << 40, "word 41: add.u8: its settings (flags 0x0, cordic=16)");
	MUTATE(45, none_c | UINT64_C(17) << 40 | UINT64_C(1) << 48, "word 45: reserved bits 0x0001000000000000");
	MUTATE(45, (none_c & ~UINT64_C(0xffff)) | 5 | UINT64_C(17) << 40,
	       "word 41: add takes no operand c (its operands are d, a, b)");
	MUTATE(45, 0xffff | UINT64_C(1) << 16 | UINT64_C(17) << 40,
	       "word 41: add takes no operand c (its operands are d, a, b)");
	MUTATE(46, 1, "word 46: buffer 'A' does not hold array 2, which the command selects");
	MUTATE(49, 0, "word 46: the array pattern 0:1:0 is empty");
	MUTATE(53, 65, "word 50: bitline 64 of the pattern 0:1:65 is out of range");
	free(c);
	free(w);
	emu_program_free(&p);
}

/* A decoded program re-encodes to the very same words, and any single
 * bit flip is either refused or gives a program that does. */
static void expect_bit_flips(const char *text)
{
	emu_program p, q;
	uint64_t *w, *c, *w2;
	size_t n, n2;
	diag d;
	encode_text(text, &p, &w, &n);
	c = malloc(n * sizeof *c);
	unsigned accepted = 0;
	for (size_t i = 0; i < n; i++)
		for (unsigned b = 0; b < 64; b += 3) {
			memcpy(c, w, n * sizeof *c);
			c[i] ^= UINT64_C(1) << b;
			if (decode(c, n, &q, &d)) {
				cr_assert(strncmp(d.msg, "t.inb: error: word ", 19) == 0, "%s", d.msg);
				continue;
			}
			accepted++;
			cr_assert_eq(emu_encode(&q, &w2, &n2, &d), 0);
			cr_assert_eq(n2, n);
			cr_assert_eq(memcmp(w2, c, n * sizeof *c), 0, "word %zu bit %u", i, b);
			free(w2);
			emu_program_free(&q);
		}
	cr_assert_gt(accepted, 0); /* e.g. a seed or a buffer's wordline */
	free(c);
	free(w);
	emu_program_free(&p);
}

Test(binary, bit_flips)
{
	expect_bit_flips(sketch);
}

/* ---- text mutations: never a crash, always one located message ---- */

static void expect_mutations(const char *text, const char *repl)
{
	const size_t len = strlen(text), nrepl = strlen(repl) + 1; /* and NUL */
	char *t = malloc(len);
	emu_program p;
	diag d;
	for (size_t k = 0; k <= len; k++) {
		/* Every prefix: either a whole-line cut that parses, or an error. */
		if (parse_len(text, k, &p, &d) == 0)
			emu_program_free(&p);
		else
			cr_assert(strncmp(d.msg, "t.s:", 4) == 0, "%s", d.msg);
		if (k == len)
			break;
		for (size_t r = 0; r < nrepl; r++) {
			memcpy(t, text, len);
			t[k] = repl[r];
			if (parse_len(t, len, &p, &d) == 0) {
				char *f = emu_format(&p);
				emu_program q;
				cr_assert_eq(parse(f, &q, &d), 0, "%s\n%s", d.msg, f);
				expect_same_program(&p, &q);
				emu_program_free(&q);
				free(f);
				emu_program_free(&p);
			} else {
				cr_assert(strncmp(d.msg, "t.s:", 4) == 0, "%s", d.msg);
			}
		}
	}
	free(t);
}

Test(parse, mutations)
{
	expect_mutations(multi_dim, ":9 #x\n,-@=");
}

/* ---- machine settings and config files ---- */

Test(geom, set_and_format)
{
	sram_geom g = sram_geom_default();
	const char *err = NULL;
	char buf[128];
	cr_assert_eq(emu_geom_set(&g, "wordlines", "512", &err), 0);
	cr_assert_eq(emu_geom_set(&g, "bitlines", "128", &err), 0);
	cr_assert_eq(emu_geom_set(&g, "arrays", "8", &err), 0);
	cr_assert_eq(emu_geom_set(&g, "ways", "4", &err), 0);
	cr_assert_eq(emu_geom_set(&g, "mesh", "4x2", &err), 0);
	emu_geom_format(&g, buf, sizeof buf);
	cr_assert_str_eq(buf, "wordlines=512 bitlines=128 arrays=8 ways=4 mesh=4x2");
	cr_assert_null(sram_geom_check(&g));
	const sram_geom before = g;
	struct { const char *k, *v, *err; } bad[] = {
		{"wordlines", "100", "wordlines must be a power of two from 8 to 1024"},
		{"wordlines", "2048", "power of two"},
		{"bitlines", "4", "bitlines must be a power of two"},
		{"arrays", "0", "arrays per way must be from 1 to 4096"},
		{"ways", "65", "ways per bank must be from 1 to 64"},
		{"mesh", "0x8", "each mesh dimension must be from 1 to 64"},
		{"mesh", "8", "expected XxY"},
		{"mesh", "8x", "expected XxY"},
		{"mesh", "x8", "expected XxY"},
		{"mesh", "8x8x8", "expected XxY"},
		{"wordlines", "", "expected a decimal number"},
		{"wordlines", "-8", "expected a decimal number"},
		{"wordlines", "+8", "expected a decimal number"},
		{"wordlines", "8 ", "expected a decimal number"},
		{"wordlines", "0x100", "expected a decimal number"},
		{"wordlines", "99999999999999999999", "expected a decimal number"},
		{"size", "8", "unknown machine setting"},
		{"banks", "8", "unknown machine setting"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		err = NULL;
		cr_assert_eq(emu_geom_set(&g, bad[i].k, bad[i].v, &err), -1, "%s=%s", bad[i].k, bad[i].v);
		cr_assert(err && strstr(err, bad[i].err), "%s=%s: %s", bad[i].k, bad[i].v, err);
		cr_assert_eq(memcmp(&g, &before, sizeof g), 0);
	}
	/* One key at a time: a step through a machine too big as a whole is
	 * allowed; the whole is checked at the end. */
	cr_assert_eq(emu_geom_set(&g, "arrays", "4096", &err), 0);
	cr_assert_eq(emu_geom_set(&g, "ways", "64", &err), 0);
	cr_assert_eq(emu_geom_set(&g, "mesh", "64x64", &err), 0);
	cr_assert_not_null(sram_geom_check(&g));
}

static char *write_tmp(const char *text, size_t len)
{
	static char path[64];
	snprintf(path, sizeof path, "/tmp/test_stream_conf_XXXXXX");
	int fd = mkstemp(path);
	cr_assert(fd >= 0);
	cr_assert_eq(write(fd, text, len), (ssize_t)len);
	close(fd);
	return path;
}

/* A -c FILE as every front reads it: tgt_config_read, then the in-cache
 * machine's inc_settings. */
static int conf_load(const char *path, emu_geom_override *o, diag *d)
{
	tgt_setting *set;
	size_t n;
	char *text;
	if (tgt_config_read(path, &set, &n, &text, d) < 0)
		return -1;
	const int rc = inc_settings(set, n, o, d);
	free(set);
	free(text);
	return rc;
}

static void expect_conf_error(const char *text, const char *where, const char *what)
{
	char *path = write_tmp(text, strlen(text));
	emu_geom_override o;
	diag d;
	diag_clear(&d);
	cr_assert_eq(conf_load(path, &o, &d), -1, "accepted: %s", text);
	char prefix[128];
	snprintf(prefix, sizeof prefix, "%s%s: error: ", path, where);
	cr_expect(strncmp(d.msg, prefix, strlen(prefix)) == 0, "wanted %s..., got %s", prefix, d.msg);
	cr_expect(strstr(d.msg, what), "wanted '%s' in %s", what, d.msg);
	unlink(path);
}

Test(geom, config_files)
{
	const char good[] = "# a small machine\n\nwordlines = 128\n  bitlines=64   # narrow\n"
			    "mesh\t=\t2x1\narrays = 2\nways=1\n";
	char *path = write_tmp(good, sizeof good - 1);
	emu_geom_override o;
	diag d;
	diag_clear(&d);
	cr_assert_eq(conf_load(path, &o, &d), 0, "%s", d.msg);
	sram_geom want = {.wordlines = 128, .bitlines = 64, .arrays_per_way = 2,
			  .ways_per_bank = 1, .mesh_x = 2, .mesh_y = 1};
	cr_assert_eq(memcmp(&o.g, &want, sizeof o.g), 0);
	unlink(path);
	/* Keys a file does not set keep the machine's values. */
	path = write_tmp("ways = 2\n", 9);
	cr_assert_eq(conf_load(path, &o, &d), 0, "%s", d.msg);
	sram_geom g = want;
	emu_geom_override_apply(&o, &g);
	cr_assert_eq(g.ways_per_bank, 2);
	cr_assert_eq(g.wordlines, 128);
	unlink(path);
	expect_conf_error("wordlines = 128\nsize = 3\n", ":2:8", "size = 3: unknown machine setting");
	expect_conf_error("wordlines = 100\n", ":1:13", "wordlines = 100: wordlines must be a power of two");
	expect_conf_error("  wordlines 128\n", ":1:3", "expected KEY = VALUE");
	expect_conf_error("wordlines =\n", ":1:1", "expected KEY = VALUE");
	expect_conf_error("wordlines = 128 256\n", ":1:13", "expected a decimal number");
	expect_conf_error("ways = 2\n# x\nways = 4\n", ":3:1", "'ways' is set twice (first at line 1)");
	expect_conf_error("= 4\n", ":1:1", "expected KEY = VALUE");
	expect_conf_error("mesh = 2x2", ":1:11", "does not end with a newline");
	expect_conf_error("mesh = 2x\x01\n", ":1:10", "control character 0x01");
	expect_conf_error("bitlines = 1024\narrays = 4096\nways = 64\nmesh = 64x64\n", "",
			  "the machine it describes is not valid: the machine has more than");
	diag_clear(&d);
	cr_assert_eq(conf_load("/nonexistent/m.conf", &o, &d), -1);
	cr_assert_str_eq(d.msg, "/nonexistent/m.conf: error: cannot open: No such file or directory");
}

/* ---- init=random ---- */

Test(random, splitmix64)
{
	/* The first outputs of splitmix64 started at 0 (Steele et al.'s
	 * reference generator): init=random:0 gives exactly these. */
	cr_assert_eq(emu_random_elem(0, 0), UINT64_C(0xE220A8397B1DCDAF));
	cr_assert_eq(emu_random_elem(0, 1), UINT64_C(0x6E789E6AA1B965F4));
	cr_assert_eq(emu_random_elem(0, 2), UINT64_C(0x06C45D188009454F));
	/* Seed s's index i is seed 0's index i + s/golden when s is a
	 * multiple of the increment: one sequence, entered anywhere. */
	const uint64_t g = UINT64_C(0x9E3779B97F4A7C15);
	cr_assert_eq(emu_random_elem(5 * g, 0), emu_random_elem(0, 5));
	cr_assert_neq(emu_random_elem(42, 7), emu_random_elem(43, 7));
}

/* ---- element formats: floats, .qN and conversions ---- */

static const char formats[] =
	"machine wordlines=512 bitlines=64 arrays=4 ways=2 mesh=2x2 fp=ieee cordic=20\n"
	"buffer F f32 256 wl=0 arrays=0:1:4 init=const:1.5\n"
	"buffer G f32 256 wl=32 arrays=0:1:4 init=random:7\n"
	"buffer K f32 256 wl=64 arrays=0:1:4 init=iota\n"
	"buffer H f16 256 wl=96 arrays=0:1:4 init=const:-inf\n"
	"buffer Z bf16 256 wl=112 arrays=0:1:4 init=const:bits:0x7fc1\n"
	"buffer Q q16 256 wl=128 arrays=0:1:4 init=const:-1.25\n"
	"buffer I i32 256 wl=144 arrays=0:1:4\n"
	"buffer P u1 256 wl=176 arrays=0:1:4\n"
	"add.f32 K, F, G\n"
	"madd.f32 K, F, G, F\n"
	"set.f32 K, #0x1.8p3\n"
	"set.f32 K, #-0\n"
	"search.f32 P, F, #nan\n"
	"search.u8 tag, wl:144, #0xa5 @ arrays=0:1:4\n"
	"cvt.f32.i32 K, I\n"
	"cvt.q16.f32 Q, F\n"
	"sin.q16 Q, Q\n"
	"set.q16 Q, #-1.25\n"
	"lt.f32 tag, F, G\n"
	"set.f16 H, #1e-7\n";

Test(parse, formats)
{
	emu_program p;
	diag d;
	cr_assert_eq(parse(formats, &p, &d), 0, "%s", d.msg);
	cr_assert_eq(p.geom.fp_ieee, 1);
	cr_assert_eq(p.geom.cordic_iters, 20);
	const emu_buffer *f = &p.bufs[0], *h = &p.bufs[3], *z = &p.bufs[4], *q = &p.bufs[5];
	cr_assert_eq(f->fmt, ISA_FMT_F32);
	cr_assert_eq(f->width, 32);
	cr_assert_eq(f->is_signed, 1);
	cr_assert_eq(f->init_arg, 0x3fc00000);
	cr_assert_eq(h->fmt, ISA_FMT_F16);
	cr_assert_eq(h->init_arg, 0xfc00);
	cr_assert_eq(z->fmt, ISA_FMT_BF16);
	cr_assert_eq(z->init_arg, 0x7fc1);
	cr_assert_eq(q->fmt, ISA_FMT_FIX);
	cr_assert_eq(q->width, 16);
	cr_assert_eq(q->init_arg, 0xd800); /* -1.25 * 2^13 */
	const emu_cmd *c = p.cmds;
	for (size_t i = 0; i < p.ncmds; i++) {
		cr_assert_eq(c[i].c.flags, ISA_FL_IEEE, "command %zu", i);
		cr_assert_eq(c[i].c.iters, 20, "command %zu", i);
	}
	cr_assert_eq(c[0].c.op, ISA_FADD);
	cr_assert_eq(c[0].c.fmt, ISA_FMT_F32);
	cr_assert_eq(c[0].c.c3, ISA_NONE);
	cr_assert_eq(c[0].buf_c, -1);
	cr_assert_eq(c[1].c.op, ISA_FMADD);
	cr_assert_eq(c[1].c.c3, 0);
	cr_assert_eq(c[1].buf_c, 0);
	cr_assert_eq(c[2].c.imm, 0x41400000);
	cr_assert_eq(c[3].c.imm, 0x80000000);
	cr_assert_eq(c[4].c.op, ISA_SEARCH);
	cr_assert_eq(c[4].c.imm, isa_fp_nan(ISA_FMT_F32));
	cr_assert_eq(c[4].c.d, 176);
	cr_assert_eq(c[5].c.d, ISA_TAG);
	cr_assert_eq(c[5].c.imm, 0xa5);
	cr_assert_eq(c[6].c.op, ISA_CVT);
	cr_assert_eq(c[6].c.fmt, ISA_FMT_F32);
	cr_assert_eq(c[6].c.sfmt, ISA_FMT_INT);
	cr_assert_eq(c[6].c.swidth, 32);
	cr_assert_eq(c[6].c.ssigned, 1);
	cr_assert_eq(c[7].c.fmt, ISA_FMT_FIX);
	cr_assert_eq(c[7].c.width, 16);
	cr_assert_eq(c[7].c.sfmt, ISA_FMT_F32);
	cr_assert_eq(c[8].c.op, ISA_SIN);
	cr_assert_eq(c[9].c.imm, 0xd800);
	cr_assert_eq(c[10].c.op, ISA_FLT);
	cr_assert_eq(c[11].c.imm, 2); /* 1e-7 is the subnormal 2 * 2^-24, kept exactly */
	emu_program_free(&p);
	expect_round_trip(formats);
	/* Without settings, every command carries the defaults. */
	cr_assert_eq(parse("buffer F f32 4 wl=0 arrays=0\nabs.f32 F, F\n", &p, &d), 0, "%s", d.msg);
	cr_assert_eq(p.cmds[0].c.flags, 0);
	cr_assert_eq(p.cmds[0].c.iters, ISA_CORDIC_DEFAULT);
	emu_program_free(&p);
}

Test(format, formats_canonical_text)
{
	emu_program p;
	diag d;
	cr_assert_eq(parse("buffer x f32 3 wl=0 arrays=2 init=const:0.1\n"
			   "buffer h f16 3 wl=32 arrays=2 init=const:bits:0x7e01\n"
			   "buffer q q8 3 wl=48 arrays=2 init=iota\n"
			   "set.f32 x, #0x1p-149\nset.f32 x, #3.4028235e38\nset.f32 x, #-inf\n"
			   "set.f16 h, #bits:0x7e00\nset.f16 h, #65504\nset.f16 h, #0.1\n"
			   "set.q8 q, #-0.03125\nset.q8 q, #3.999\nsearch.bf16 tag, wl:100, #-1.5 @ arrays=2\n"
			   "cvt.i16.bf16 wl:120, wl:100 @ arrays=2\n", &p, &d), 0, "%s", d.msg);
	char *t = emu_format(&p);
	cr_assert_str_eq(t,
			 "machine wordlines=256 bitlines=64 arrays=4 ways=2 mesh=2x2\n"
			 "scratch 56\n"
			 "buffer x f32 3 wl=0 arrays=2 init=const:0.1\n"
			 "buffer h f16 3 wl=32 arrays=2 init=const:bits:0x7e01\n"
			 "buffer q q8 3 wl=48 arrays=2 init=iota\n"
			 "set.f32 x, #1e-45 @ arrays=2 bitlines=0:1:64\n"
			 "set.f32 x, #3.4028235e+38 @ arrays=2 bitlines=0:1:64\n"
			 "set.f32 x, #-inf @ arrays=2 bitlines=0:1:64\n"
			 "set.f16 h, #nan @ arrays=2 bitlines=0:1:64\n"
			 "set.f16 h, #65504 @ arrays=2 bitlines=0:1:64\n"
			 "set.f16 h, #0.1 @ arrays=2 bitlines=0:1:64\n"
			 "set.q8 q, #-0.03 @ arrays=2 bitlines=0:1:64\n"
			 "set.q8 q, #3.97 @ arrays=2 bitlines=0:1:64\n"
			 "search.bf16 tag, wl:100, #-1.5 @ arrays=2 bitlines=0:1:64\n"
			 "cvt.i16.bf16 wl:120, wl:100 @ arrays=2 bitlines=0:1:64\n");
	free(t);
	emu_program_free(&p);
}

/* A literal's bits, or ~0 when it is refused (err then holds why). */
static uint64_t lit(unsigned fmt, unsigned width, const char *text, char *err, size_t *used)
{
	uint64_t bits;
	size_t u;
	err[0] = '\0';
	if (emu_literal_parse(fmt, width, text, strlen(text), &bits, used ? used : &u, err, 160))
		return ~UINT64_C(0);
	return bits;
}

Test(literals, values_and_rounding)
{
	char err[160];
	size_t used;
	cr_assert_eq(lit(ISA_FMT_F32, 32, "1.5", err, NULL), 0x3fc00000);
	cr_assert_eq(lit(ISA_FMT_F32, 32, "-2e-3", err, NULL), 0xbb03126f);
	cr_assert_eq(lit(ISA_FMT_F32, 32, "0x1p-4", err, NULL), 0x3d800000);
	cr_assert_eq(lit(ISA_FMT_F32, 32, "+.5", err, NULL), 0x3f000000);
	cr_assert_eq(lit(ISA_FMT_F32, 32, "7.", err, NULL), 0x40e00000);
	cr_assert_eq(lit(ISA_FMT_F32, 32, "1E+2", err, NULL), 0x42c80000);
	cr_assert_eq(lit(ISA_FMT_F32, 32, "0X.8P1", err, NULL), 0x3f800000);
	cr_assert_eq(lit(ISA_FMT_F32, 32, "inf", err, NULL), 0x7f800000);
	cr_assert_eq(lit(ISA_FMT_F32, 32, "-inf", err, NULL), 0xff800000);
	cr_assert_eq(lit(ISA_FMT_F32, 32, "nan", err, NULL), isa_fp_nan(ISA_FMT_F32));
	cr_assert_eq(lit(ISA_FMT_F32, 32, "1e-50", err, NULL), 0); /* underflow rounds to 0 */
	cr_assert_eq(lit(ISA_FMT_F32, 32, "1e-40", err, NULL), 0x000116c2); /* a subnormal, kept */
	/* Ties to even: f16's 1 + 2^-11 lies halfway between 1 and 1 + 2^-10. */
	cr_assert_eq(lit(ISA_FMT_F16, 16, "0x1.002p0", err, NULL), 0x3c00);
	cr_assert_eq(lit(ISA_FMT_F16, 16, "0x1.006p0", err, NULL), 0x3c02);
	cr_assert_eq(lit(ISA_FMT_F16, 16, "65519", err, NULL), 0x7bff); /* rounds down to 65504 */
	cr_assert_eq(lit(ISA_FMT_F16, 16, "65520", err, NULL), ~UINT64_C(0));
	cr_assert_str_eq(err, "65520 is out of range for .f16");
	cr_assert_eq(lit(ISA_FMT_BF16, 16, "1.00390625", err, NULL), 0x3f80); /* a tie: even */
	cr_assert_eq(lit(ISA_FMT_BF16, 16, "3.3895e38", err, NULL), 0x7f7f);
	cr_assert_eq(lit(ISA_FMT_BF16, 16, "3.4e38", err, NULL), ~UINT64_C(0));
	cr_assert_str_eq(err, "3.4e38 is out of range for .bf16");
	cr_assert_eq(lit(ISA_FMT_F32, 32, "bits:0xffffffff", err, NULL), 0xffffffff);
	/* .qN: N - 3 fraction bits. */
	cr_assert_eq(lit(ISA_FMT_FIX, 8, "1", err, NULL), 0x20);
	cr_assert_eq(lit(ISA_FMT_FIX, 8, "-4", err, NULL), 0x80);
	cr_assert_eq(lit(ISA_FMT_FIX, 8, "3.999", err, NULL), 0x7f); /* saturates to the largest */
	cr_assert_eq(lit(ISA_FMT_FIX, 32, "0.5", err, NULL), 0x10000000);
	cr_assert_eq(lit(ISA_FMT_FIX, 8, "-4.0001", err, NULL), ~UINT64_C(0));
	cr_assert_str_eq(err, "-4.0001 is out of range for .q8 (-4 <= value < 4)");
	/* Where a literal ends. */
	cr_assert_eq(lit(ISA_FMT_F32, 32, "1.5 @ arrays=0", err, &used), 0x3fc00000);
	cr_assert_eq(used, 3);
	cr_assert_eq(lit(ISA_FMT_F32, 32, "-1e-3,", err, &used), 0xba83126f);
	cr_assert_eq(used, 5);
	cr_assert_eq(lit(ISA_FMT_F32, 32, "1-3", err, &used), 0x3f800000); /* '-' ends it */
	cr_assert_eq(used, 1);
	cr_assert_eq(lit(ISA_FMT_F32, 32, "1.5e3.5", err, NULL), ~UINT64_C(0));
	cr_assert(strstr(err, "expected a floating-point literal"), "%s", err);
	cr_assert_eq(lit(ISA_FMT_F32, 32, "", err, NULL), ~UINT64_C(0));
	cr_assert_eq(lit(ISA_FMT_F32, 32, "0x", err, NULL), ~UINT64_C(0));
	cr_assert_eq(lit(ISA_FMT_F32, 32, "0x.p1", err, NULL), ~UINT64_C(0));
	cr_assert_eq(lit(ISA_FMT_F32, 32, "1e+", err, NULL), ~UINT64_C(0));
	cr_assert_eq(lit(ISA_FMT_F32, 32, "bits:", err, NULL), ~UINT64_C(0));
	cr_assert_eq(lit(ISA_FMT_F32, 32, "bits:0x1g", err, NULL), ~UINT64_C(0));
}

/* The canonical text of every f16, bf16 and q16 pattern (and of many
 * f32 and q64 ones) reads back as the same bits. */
static void expect_literal_round_trip(unsigned fmt, unsigned width, uint64_t bits)
{
	char text[96], err[160];
	size_t used;
	uint64_t back;
	int n = emu_literal_text(fmt, width, 1, bits, text, sizeof text);
	cr_assert_eq((size_t)n, strlen(text));
	cr_assert_eq(emu_literal_parse(fmt, width, text, (size_t)n, &back, &used, err, sizeof err), 0,
		     "%s: %s", text, err);
	cr_assert_eq(used, (size_t)n, "%s", text);
	cr_assert_eq(back, bits, "fmt %u bits 0x%llx: %s", fmt, (unsigned long long)bits, text);
}

Test(literals, text_round_trip, .timeout = 60)
{
	for (uint64_t b = 0; b < 0x10000; b++) {
		expect_literal_round_trip(ISA_FMT_F16, 16, b);
		expect_literal_round_trip(ISA_FMT_BF16, 16, b);
		expect_literal_round_trip(ISA_FMT_FIX, 16, b);
	}
	for (uint64_t i = 0; i < 20000; i++) {
		uint64_t z = emu_random_elem(99, i);
		expect_literal_round_trip(ISA_FMT_F32, 32, z & 0xffffffff);
		expect_literal_round_trip(ISA_FMT_FIX, 64, z);
		expect_literal_round_trip(ISA_FMT_FIX, 32, z & 0xffffffff);
	}
	char text[96];
	emu_literal_text(ISA_FMT_F32, 32, 1, 0x7fc00001, text, sizeof text);
	cr_assert_str_eq(text, "bits:0x7fc00001"); /* a NaN payload */
	emu_literal_text(ISA_FMT_F32, 32, 1, 0xffc00000, text, sizeof text);
	cr_assert_str_eq(text, "bits:0xffc00000"); /* not the canonical NaN */
	emu_literal_text(ISA_FMT_INT, 8, 1, 0xff, text, sizeof text);
	cr_assert_str_eq(text, "-1");
	emu_literal_text(ISA_FMT_INT, 8, 0, 0xff, text, sizeof text);
	cr_assert_str_eq(text, "255");
}

Test(literals, values_for_people)
{
	char t[96];
	emu_value_text(ISA_FMT_F32, 32, 1, 0x3fc00001, true, t, sizeof t);
	cr_assert_str_eq(t, "1.50000012 (0x3fc00001)");
	emu_value_text(ISA_FMT_F32, 32, 1, 0x7fc00000, true, t, sizeof t);
	cr_assert_str_eq(t, "nan (0x7fc00000)");
	emu_value_text(ISA_FMT_F16, 16, 1, 0xfc00, true, t, sizeof t);
	cr_assert_str_eq(t, "-inf (0xfc00)");
	emu_value_text(ISA_FMT_F16, 16, 1, 0x3555, false, t, sizeof t);
	cr_assert_str_eq(t, "0.33325");
	emu_value_text(ISA_FMT_BF16, 16, 1, 0x3eab, true, t, sizeof t);
	cr_assert_str_eq(t, "0.334 (0x3eab)");
	emu_value_text(ISA_FMT_F32, 32, 1, 0x80000000, true, t, sizeof t);
	cr_assert_str_eq(t, "-0 (0x80000000)");
	emu_value_text(ISA_FMT_FIX, 16, 1, 0x0c00, true, t, sizeof t);
	cr_assert_str_eq(t, "0.375 (0x0c00)");
	emu_value_text(ISA_FMT_FIX, 16, 1, 0x8000, true, t, sizeof t);
	cr_assert_str_eq(t, "-4 (0x8000)");
	emu_value_text(ISA_FMT_INT, 12, 1, 0xfff, true, t, sizeof t);
	cr_assert_str_eq(t, "-1 (0xfff)");
	emu_value_text(ISA_FMT_INT, 12, 0, 0xfff, false, t, sizeof t);
	cr_assert_str_eq(t, "4095");
}

/* init= for float and .qN buffers. */
Test(random, float_init)
{
	emu_buffer b;
	memset(&b, 0, sizeof b);
	b.width = 32;
	b.is_signed = 1;
	b.fmt = ISA_FMT_F32;
	b.init = EMU_INIT_IOTA;
	cr_assert_eq(emu_init_elem(&b, 0), 0);
	cr_assert_eq(emu_init_elem(&b, 3), 0x40400000);
	cr_assert_eq(emu_init_elem(&b, 16777217), 0x4b800000); /* 2^24 + 1 rounds to even */
	b.fmt = ISA_FMT_F16;
	b.width = 16;
	cr_assert_eq(emu_init_elem(&b, 2), 0x4000);
	cr_assert_eq(emu_init_elem(&b, 70000), 0x7c00); /* past f16's range: inf */
	b.fmt = ISA_FMT_FIX;
	cr_assert_eq(emu_init_elem(&b, 1), 0x2000);
	cr_assert_eq(emu_init_elem(&b, 9), 0x7fff); /* saturated */
	b.init = EMU_INIT_CONST;
	b.init_arg = 0x1234;
	cr_assert_eq(emu_init_elem(&b, 5), 0x1234);
	/* random: every class of every float format, often. */
	static const unsigned fmts[] = {ISA_FMT_F32, ISA_FMT_F16, ISA_FMT_BF16};
	b.init = EMU_INIT_RANDOM;
	b.init_arg = 42;
	for (unsigned k = 0; k < 3; k++) {
		const isa_fpfmt *ff = isa_fpfmt_of(fmts[k]);
		unsigned zero = 0, sub = 0, inf = 0, nan = 0, small = 0, big = 0, neg = 0;
		b.fmt = (uint8_t)fmts[k];
		b.width = (uint8_t)ff->width;
		for (uint64_t i = 0; i < 16000; i++) {
			uint64_t v = emu_init_elem(&b, i);
			uint64_t e = (v >> ff->mbits) & isa_mask(ff->ebits), f = v & isa_mask(ff->mbits);
			cr_assert_eq(v & ~isa_mask(ff->width), 0);
			zero += e == 0 && f == 0;
			sub += e == 0 && f != 0;
			inf += e == isa_mask(ff->ebits) && f == 0;
			nan += e == isa_mask(ff->ebits) && f != 0;
			small += e == 1;
			big += e == isa_mask(ff->ebits) - 1;
			neg += (unsigned)(v >> (ff->width - 1));
		}
		cr_assert_gt(zero, 800, "%s: %u zeros", ff->name, zero);
		cr_assert_gt(sub, 800, "%s: %u subnormals", ff->name, sub);
		cr_assert_gt(inf, 800, "%s: %u infinities", ff->name, inf);
		cr_assert_gt(nan, 800, "%s: %u NaNs", ff->name, nan);
		cr_assert_gt(small, 800, "%s", ff->name);
		cr_assert_gt(big, 800, "%s", ff->name);
		cr_assert(neg > 7000 && neg < 9000, "%s: %u negative", ff->name, neg);
	}
}

/* Type and command names, written by hand (isa.c, program.c), as
 * snprintf would: every format and width, cut to fit a small buffer. */
Test(names, types_and_commands)
{
	char t[16];
	cr_assert_str_eq(isa_type_name(ISA_FMT_INT, 1, 0, t, sizeof t), "u1");
	cr_assert_str_eq(isa_type_name(ISA_FMT_INT, 64, 1, t, sizeof t), "i64");
	cr_assert_str_eq(isa_type_name(ISA_FMT_INT, 4294967295u, 1, t, sizeof t), "i4294967295");
	cr_assert_str_eq(isa_type_name(ISA_FMT_FIX, 16, 1, t, sizeof t), "q16");
	cr_assert_str_eq(isa_type_name(ISA_FMT_F32, 32, 1, t, sizeof t), "f32");
	cr_assert_str_eq(isa_type_name(ISA_FMT_BF16, 16, 1, t, sizeof t), "bf16");
	cr_assert_str_eq(isa_type_name(ISA_FMT_INT, 32, 0, t, 3), "u3");
	cr_assert_str_eq(isa_type_name(ISA_FMT_BF16, 16, 1, t, 1), "");
	t[0] = 'x';
	isa_type_name(ISA_FMT_INT, 8, 0, t, 0);
	cr_assert_eq(t[0], 'x', "nothing is written into no room");
	char n[32];
	isa_cmd c = {.op = (uint16_t)isa_lookup("add"), .fmt = ISA_FMT_INT, .width = 12,
		     .is_signed = 1};
	cr_assert_eq(emu_cmd_name(&c, n, sizeof n), 7);
	cr_assert_str_eq(n, "add.i12");
	cr_assert_eq(emu_cmd_name(&c, n, 5), 7);
	cr_assert_str_eq(n, "add.");
	cr_assert_eq(emu_cmd_name(&c, NULL, 0), 7);
	isa_cmd x = {.op = (uint16_t)isa_lookup("cvt"), .fmt = ISA_FMT_F16, .width = 16,
		     .is_signed = 1, .sfmt = ISA_FMT_INT, .swidth = 32, .ssigned = 0};
	cr_assert_eq(emu_cmd_name(&x, n, sizeof n), 11);
	cr_assert_str_eq(n, "cvt.f16.u32");
	cr_assert_eq(emu_cmd_name(&x, n, 9), 11);
	cr_assert_str_eq(n, "cvt.f16.");
}

/* emu_init_fill, the whole-buffer fill the machine and the stream
 * reference use, gives emu_init_elem's bits element for element, for
 * every init= kind and format, from any first element. */
Test(random, fill_is_elem)
{
	static const struct { uint8_t fmt, width; } types[] = {
		{ISA_FMT_INT, 1}, {ISA_FMT_INT, 7}, {ISA_FMT_INT, 32}, {ISA_FMT_INT, 64},
		{ISA_FMT_F32, 32}, {ISA_FMT_F16, 16}, {ISA_FMT_BF16, 16}, {ISA_FMT_FIX, 16},
	};
	static const emu_init_kind kinds[] = {EMU_INIT_NONE, EMU_INIT_IOTA, EMU_INIT_RANDOM,
					      EMU_INIT_CONST};
	uint64_t v[300];
	for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
		for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
			for (uint64_t first = 0; first < 20000; first += 12345) {
				emu_buffer b;
				memset(&b, 0, sizeof b);
				b.fmt = types[t].fmt;
				b.width = types[t].width;
				b.is_signed = 1;
				b.init = kinds[k];
				b.init_arg = UINT64_C(0xfedcba9876543210);
				emu_init_fill(&b, first, 300, v);
				for (uint64_t i = 0; i < 300; i++)
					cr_assert_eq(v[i], emu_init_elem(&b, first + i),
						     "type %zu, init %d, element %" PRIu64, t,
						     (int)kinds[k], first + i);
			}
}

Test(geom, controller_settings)
{
	sram_geom g = sram_geom_default();
	const char *err = NULL;
	char buf[160];
	emu_geom_format(&g, buf, sizeof buf);
	cr_assert_str_eq(buf, "wordlines=256 bitlines=256 arrays=16 ways=16 mesh=8x8");
	cr_assert_eq(emu_geom_cordic(&g), ISA_CORDIC_DEFAULT);
	cr_assert_eq(emu_geom_set(&g, "fp", "ieee", &err), 0);
	cr_assert_eq(emu_geom_set(&g, "latency", "optimised", &err), 0);
	cr_assert_eq(emu_geom_set(&g, "cordic", "24", &err), 0);
	emu_geom_format(&g, buf, sizeof buf);
	cr_assert_str_eq(buf, "wordlines=256 bitlines=256 arrays=16 ways=16 mesh=8x8 fp=ieee "
			 "latency=optimised cordic=24");
	cr_assert_eq(emu_geom_cordic(&g), 24);
	/* The defaults, set explicitly, are the zero fields. */
	cr_assert_eq(emu_geom_set(&g, "fp", "ftz", &err), 0);
	cr_assert_eq(emu_geom_set(&g, "latency", "baseline", &err), 0);
	cr_assert_eq(emu_geom_set(&g, "cordic", "17", &err), 0);
	sram_geom def = sram_geom_default();
	cr_assert_eq(memcmp(&g, &def, sizeof g), 0);
	cr_assert_eq(emu_geom_set(&g, "cordic", "1", &err), 0);
	cr_assert_eq(emu_geom_set(&g, "cordic", "60", &err), 0);
	struct { const char *k, *v, *err; } bad[] = {
		{"fp", "IEEE", "expected ftz"}, {"fp", "", "expected ftz"},
		{"latency", "optimized", "expected baseline (the default) or optimised"},
		{"cordic", "0", "from 1 to 60"}, {"cordic", "61", "from 1 to 60"},
		{"cordic", "-1", "from 1 to 60"}, {"cordic", "17x", "from 1 to 60"},
	};
	const sram_geom before = g;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		cr_assert_eq(emu_geom_set(&g, bad[i].k, bad[i].v, &err), -1, "%s=%s", bad[i].k, bad[i].v);
		cr_assert(strstr(err, bad[i].err), "%s=%s: %s", bad[i].k, bad[i].v, err);
		cr_assert_eq(memcmp(&g, &before, sizeof g), 0);
	}
	/* sram_geom_check refuses what the binary decoder could be given. */
	g.fp_ieee = 2;
	cr_assert_not_null(sram_geom_check(&g));
	g = def;
	g.cordic_iters = 61;
	cr_assert_not_null(sram_geom_check(&g));
	/* --machine and config files: settings win key by key. */
	emu_geom_override o;
	emu_geom_override_init(&o);
	const char *why = NULL;
	cr_assert_eq(emu_geom_override_set(&o, "fp", "ieee", &why), 0, "%s", why);
	cr_assert_eq(emu_geom_override_set(&o, "cordic", "9", &why), 0, "%s", why);
	g = def;
	emu_geom_override_apply(&o, &g);
	cr_assert_eq(g.fp_ieee, 1);
	cr_assert_eq(g.cordic_iters, 9);
	cr_assert_eq(g.latency_opt, 0);
	cr_assert_eq(emu_geom_override_set(&o, "latency", "fast", &why), -1);
	cr_assert_str_eq(why, "expected baseline (the default) or optimised");
	emu_program p;
	diag d;
	diag_clear(&d);
	cr_assert_eq(emu_parse_over("t.s", "machine fp=ftz latency=optimised\nbuffer F f32 4 wl=0 arrays=0\n"
				    "abs.f32 F, F\n", 75, NULL, &o, &p, &d), 0, "%s", d.msg);
	cr_assert_eq(p.geom.fp_ieee, 1);
	cr_assert_eq(p.geom.latency_opt, 1);
	cr_assert_eq(p.cmds[0].c.flags, ISA_FL_IEEE);
	cr_assert_eq(p.cmds[0].c.iters, 9);
	emu_program_free(&p);
	const char conf[] = "fp = ieee\nlatency=optimised # data-dependent\ncordic = 30\n";
	char *path = write_tmp(conf, sizeof conf - 1);
	g = def;
	diag_clear(&d);
	cr_assert_eq(conf_load(path, &o, &d), 0, "%s", d.msg);
	emu_geom_override_apply(&o, &g);
	cr_assert_eq(g.fp_ieee, 1);
	cr_assert_eq(g.latency_opt, 1);
	cr_assert_eq(g.cordic_iters, 30);
	unlink(path);
	expect_conf_error("fp = fast\n", ":1:6", "fp = fast: expected ftz");
	expect_conf_error("cordic = 0\n", ":1:10", "cordic = 0: expected the number of CORDIC iterations");
}

/* Mutated literals, types and settings: never a crash, always one
 * located message, and what parses formats back to itself. */
Test(parse, format_mutations, .timeout = 120)
{
	expect_mutations(formats, ":9 #x\n,-.ep+n");
}

Test(binary, format_bit_flips, .timeout = 120)
{
	expect_bit_flips(formats);
}

/* ---- tensors and moves (doc/FORMAT.md, "Tensors" and "Moves") ---- */

#define T_MACHINE "machine wordlines=64 bitlines=16 arrays=4 ways=2 mesh=2x2\n"
#define T_AB T_MACHINE "tensor A u8 4x4 wl=0 array=0 tile=2x2\n" \
	"tensor B u8 4x4 wl=8 array=0 tile=2x2\n"

static const char tensor_text[] =
	T_MACHINE
	"tensor A u8 4x4 wl=0 array=0 tile=2x2 init=iota\n"
	"tensor B u8 4x4 wl=8 array=0 tile=2x2 init=zero\n"
	"tensor V f32 64 wl=16 array=4 init=const:1.5\n"
	"tensor C u4 4x4x4 wl=48 array=8 tile=2x2x2 init=random:3\n"
	"buffer x i8 16 wl=52 arrays=0\n"
	"mv.intra dist=1 wl=0 n=8 to=8 @ arrays=0:2:2 bitlines=0:2:2\n"
	"mv.intra dist=-3 wl=0 n=8 to=8 @ arrays=0:1:4 bitlines=3:1:2\n"
	"mv.inter dist=1 wl=0 n=8 to=8 dst=0:2:2 @ arrays=0:2:2 bitlines=1:2:2\n"
	"mv.bcast dist=8 reuse=8:3 wl=0 n=4 to=8 dst=0:1:16 @ arrays=0 bitlines=0:1:16\n"
	"mv.const value=0x2d wl=3 n=6 @ arrays=0:1:2 bitlines=5:7:2\n"
	"sync\n"
	"move B, A, +1, +0 @ box=0:3,0:4\n"
	"add.u8 B, B, A\n";

Test(tensors, round_trip_text_and_binary)
{
	emu_program p, q;
	uint64_t *w;
	size_t n;
	diag d;
	expect_round_trip(tensor_text);
	encode_text(tensor_text, &p, &w, &n);
	cr_assert_eq(decode(w, n, &q, &d), 0, "%s", d.msg);
	char *t1 = emu_format(&p), *t2 = emu_format(&q);
	cr_assert_str_eq(t1, t2);
	/* The tile selection ran for V; the canonical text names its tile. */
	cr_assert(strstr(t1, "tensor V f32 64 wl=16 array=4 tile=16 init=const:1.5\n"), "%s", t1);
	/* The tensor move is lowered: Fig 9's three commands; no sync, as
	 * the four tiles share bank 0 (8 arrays a bank). */
	cr_assert_eq(p.ncmds, 6 + 3 + 1);
	cr_assert(strstr(t1, "sync\nmv.intra dist=1 wl=0 n=8 to=8 @ arrays=0:2:2 bitlines=0:2:2\n"
			 "mv.inter dist=1"), "%s", t1);
	cr_assert_eq(p.cmds[6].line, 13);
	cr_assert_eq(p.cmds[9].kind, EMU_CMD_COMPUTE);
	cr_assert(emu_pattern_equal(&p.cmds[9].arrays, &p.bufs[1].arrays),
		  "a compute command selects its tensor's tiles");
	free(t1);
	free(t2);
	free(w);
	emu_program_free(&p);
	emu_program_free(&q);
}

/* The parser keeps a tensor move as written; lowering is a pass of its
 * own, and only a lowered program is encoded or run. */
Test(tensors, written_form)
{
	const char *text = T_AB "move B, A, +1, +0 @ box=0:3,0:4\nmove A, B, +0, -1\n";
	sram_geom g = small_geom();
	emu_program p;
	diag d;
	uint64_t *w = NULL;
	size_t n = 0;
	diag_clear(&d);
	cr_assert_eq(emu_parse("t.s", text, strlen(text), &g, &p, &d), 0, "%s", d.msg);
	cr_assert_eq(p.ncmds, 2);
	cr_assert(emu_program_written(&p));
	cr_assert_eq(p.cmds[0].kind, EMU_CMD_TMOVE);
	char *t = emu_format(&p);
	cr_assert(strstr(t, "\nmove B, A, +1, +0 @ box=0:3,0:4\nmove A, B, +0, -1\n"), "%s", t);
	emu_program q;
	cr_assert_eq(emu_parse("t.s", t, strlen(t), &g, &q, &d), 0, "%s", d.msg);
	char *t2 = emu_format(&q);
	cr_assert_str_eq(t, t2, "the written form round-trips");
	cr_assert_eq(emu_encode(&p, &w, &n, &d), -1);
	cr_assert(strstr(d.msg, "lower it first"), "%s", d.msg);
	diag_clear(&d);
	cr_assert_null(emu_machine_new(&p, &d));
	cr_assert(strstr(d.msg, "lower it first"), "%s", d.msg);
	cr_assert_eq(emu_program_lower(&p, &d), 0, "%s", d.msg);
	cr_assert_not(emu_program_written(&p));
	cr_assert_gt(p.ncmds, 2);
	for (size_t i = 0; i < p.ncmds; i++) {
		cr_assert_eq(p.cmds[i].kind, EMU_CMD_MOVE);
		cr_assert(p.cmds[i].line == 4 || p.cmds[i].line == 5);
	}
	free(t);
	free(t2);
	emu_program_free(&p);
	emu_program_free(&q);
}

Test(tensors, binary_bit_flips)
{
	expect_bit_flips(tensor_text);
}

Test(tensors, errors)
{
	expect_error(T_MACHINE "tensor A u8 4x4 wl=0\n", "2:21", "tensor 'A' needs array=N");
	expect_error(T_MACHINE "tensor A u8 4x0 wl=0 array=0\n", "2:15", "size 0 is out of range");
	expect_error(T_MACHINE "tensor A u8 4x4x4x4 wl=0 array=0\n", "2:19", "more than 3 dimensions");
	expect_error(T_MACHINE "tensor A u8 4x4 wl=0 array=0 tile=3x2\n", "2:35",
		     "tensor 'A': tile 3x2x1 has 6 bitlines");
	expect_error(T_MACHINE "tensor A u8 4x4 wl=0 array=0 tile=4\n", "2:35",
		     "has 2 dimensions but its tile has 1");
	expect_error(T_MACHINE "tensor A u8 4x4 wl=60 array=0 tile=4x4\n", "2:36",
		     "needs wordlines 60..67");
	expect_error(T_MACHINE "tensor A u8 64x64 wl=0 array=0 tile=4x4\n", "2:37",
		     "needs 256 arrays (16x16x1 tiles) from array 0, the machine has 32");
	expect_error(T_MACHINE "tensor A u8 4x4 wl=0 array=0 hint=spin:0\n", "2:35",
		     "expected a hint reduce:DIM, shift:DIM or broadcast:DIM");
	expect_error(T_MACHINE "tensor A u8 6x3 wl=0 array=0\n", "2:8",
		     "S_0 = 6 is not a multiple of L = 64 elements");
	expect_error(T_AB "mv.shift dist=1 wl=0 n=8 to=8 @ arrays=0 bitlines=0\n", "4:4",
		     "unknown move 'mv.shift'");
	expect_error(T_AB "mv.intra dist=1 wl=0 n=8 @ arrays=0 bitlines=0\n", "4:26",
		     "mv.intra needs to=");
	expect_error(T_AB "mv.intra dist=1 wl=0 n=8 to=8 dst=0 @ arrays=0 bitlines=0\n", "4:31",
		     "mv.intra takes dist=D wl=W n=N to=T [scratch=S]; found 'dst=0'");
	expect_error(T_AB "mv.intra dist=1 wl=0 n=8 to=8\n", "4:30", "needs '@ arrays=PATTERN");
	expect_error(T_AB "mv.intra dist=1 wl=0 n=8 to=8 @ arrays=0 bitlines=15\n", "4:1",
		     "command 1: intra-array shift: source bitline 15 would move to bitline 16, "
		     "past the edge of the array");
	expect_error(T_AB "mv.intra dist=2 wl=0 n=8 to=8 scratch=3 @ arrays=0 bitlines=0\n",
		     "4:1", "scratch wordline 3 is one of the wordlines it moves");
	expect_error(T_AB "mv.intra dist=2 wl=0 n=8 to=20 scratch=12 @ arrays=0 bitlines=0\n",
		     "4:1", "scratch wordline 12 is below the program's scratch wordlines (from 16)");
	expect_error(T_AB "mv.inter dist=31 wl=0 n=8 to=8 dst=0 @ arrays=1 bitlines=0\n", "4:1",
		     "array 1 would send to array 32, outside the machine's arrays 0..31");
	expect_error(T_AB "mv.const value=300 wl=0 n=8 @ arrays=0 bitlines=0\n", "4:1",
		     "value 0x12c does not fit in 8 wordlines");
	expect_error(T_AB "mv.bcast dist=1 reuse=1:0 wl=0 n=8 to=8 dst=0 @ arrays=0 bitlines=0\n",
		     "4:1", "reuse count 0; expected 1..32");
	expect_error(T_AB "sync now\n", "4:6", "sync takes nothing; found 'now'");
	expect_error(T_AB "move B, A, +1, +1\n", "4:12", "a move goes along exactly one dimension; "
		     "2 offsets are nonzero, expected one");
	expect_error(T_AB "move B, A, +0, +0\n", "4:12", "a move goes along exactly one dimension; "
		     "0 offsets are nonzero, expected one");
	expect_error(T_AB "move B, A, -0, +0 @ box=0:2,0:2\n", "4:12", "0 offsets are nonzero");
	/* A given tile of a whole array obeys the line rules a chosen one does. */
	expect_error(T_MACHINE "tensor A u8 4x4 wl=0 array=0 tile=4x4\n", "2:35",
		     "S_0 = 4 is not a multiple of L = 64 elements");
	expect_error(T_MACHINE "tensor A u8 64x4 wl=0 array=0 tile=4x4\n", "2:36",
		     "breaks constraint 2");
	expect_error(T_MACHINE "tensor A u8 64x0 wl=0 array=0\n", "2:16",
		     "the tensor's sizes: size 0 is out of range");
	expect_error(T_MACHINE "tensor A u8 0x40 wl=0 array=0\n", "2:13",
		     "the tensor's sizes: size 0 is out of range");
	expect_error(T_MACHINE "tensor A u8 64x4 wl=0 array=0 tile=0x10\n", "2:36",
		     "tile: size 0 is out of range");
	expect_error(T_AB "move B, A, +1\n", "4:14", "expected ',' before an offset");
	expect_error(T_AB "move B, A, +1, +0, +0\n", "4:18", "too many offsets: 'A' has 2");
	expect_error(T_AB "move B, A, +1, +0 @ box=0:5,0:4\n", "4:27", "box end 5 is out of range");
	expect_error(T_AB "move B, A, +1, +0 @ box=2:2,0:4\n", "4:25", "dimension 0 is empty");
	expect_error(T_AB "move C, A, +1, +0\n", "4:6", "unknown tensor 'C'");
	expect_error(T_MACHINE "tensor A u8 4x4 wl=0 array=0 tile=2x2\nbuffer B u8 16 wl=8 "
		     "arrays=0\nmove B, A, +1, +0\n", "4:6", "'B' is a buffer, not a tensor");
	expect_error(T_MACHINE "tensor A u8 4x4 wl=0 array=0 tile=2x2\ntensor B u8 4x4 wl=8 "
		     "array=0 tile=4x2\nmove B, A, +1, +0\n", "4:1", "must have the same type, "
		     "sizes, tiles and first array");
	expect_error(T_MACHINE "tensor A u8 64x2 wl=0 array=0 tile=16x2\nadd.u8 A, A, A\n",
		     "3:8", "tensor 'A' has tiles of 32 bitlines on arrays of 16");
}
