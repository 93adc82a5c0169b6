/*
 * test_stream.c: the command stream: affine patterns, the parser and its
 * error messages (file:line:col and text), the disassembler's round trip,
 * the binary form's round trip and its decoder's errors, machine settings
 * and config files, and the seeded random fill.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
 * any read past the end. */
static int parse_len(const char *text, size_t len, emu_program *p, diag *d)
{
	sram_geom g = small_geom();
	char *copy = malloc(len ? len : 1);
	cr_assert(copy);
	memcpy(copy, text, len);
	diag_clear(d);
	int rc = emu_parse("t.s", copy, len, &g, p, d);
	free(copy);
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
	expect_error(HDR "add.f32 C, A, B\n", "6:5", "unknown element type 'f32'");
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
	expect_error(HDR "buffer D f32 4 wl=120 arrays=9\n", "6:10", "unknown element type 'f32'");
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
	expect_error("machine banks=8\n", "1:9", "expected a machine setting (wordlines, bitlines, arrays, ways or mesh), found 'banks=8'");
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
	expect_error("@\n", "1:1", "expected a command or a directive (machine, scratch, buffer), found '@'");
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

/* Every command of the table, in its form, on i16 buffers. */
static char *every_command(void)
{
	size_t cap = 16384, n = 0;
	char *t = malloc(cap);
	cr_assert(t);
	n += (size_t)snprintf(t + n, cap - n,
			      "machine wordlines=512 bitlines=64 arrays=4 ways=2 mesh=2x2\n"
			      "buffer A i16 256 wl=0 arrays=4:1:4\nbuffer B i16 256 wl=16 arrays=4:1:4\n"
			      "buffer D i16 256 wl=32 arrays=4:1:4\nbuffer R i16 256 wl=48 arrays=4:1:4\n"
			      "buffer P u1 256 wl=64 arrays=4:1:4\n");
	for (unsigned op = 0; op < ISA_OP_COUNT; op++) {
		const isa_info *in = isa_info_of(op);
		const char *ops = in->form == ISA_FORM_DAB ? "D, A, B"
				: in->form == ISA_FORM_DA ? "D, A"
				: in->form == ISA_FORM_DAI ? "D, A, #5"
				: in->form == ISA_FORM_DI ? "D, #-300"
				: in->form == ISA_FORM_PAB ? "P, A, B"
				: in->form == ISA_FORM_QRAB ? "D, R, A, B" : "D, A";
		for (int sg = 0; sg < 2; sg++)
			n += (size_t)snprintf(t + n, cap - n, "%s.%c16 %s\n", in->name,
					      sg ? 'i' : 'u', ops);
		if (in->form == ISA_FORM_PAB)
			n += (size_t)snprintf(t + n, cap - n, "%s.i16 tag, A, B @ arrays=5:1:2\n",
					      in->name);
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
		cr_assert_eq(w[1], 1);
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
			 "t.inb: error: word 40: the stream ends after 40 words, but its header says 138; it is truncated");
	cr_assert_eq(n, 138);
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
	/* Header 10 words; buffer A: words 10..24 (name 10..17, layout 18,
	 * length 19, init 20, pattern 21..24); buffer B 25..39; the command
	 * at 40: opcode 40, operands 41, imm 42, buffers 43, arrays 44..47,
	 * bitlines 48..51. */
	encode_text("buffer A u8 128 wl=0 arrays=0:1:2\nbuffer B u8 128 wl=8 arrays=0:1:2\n"
		    "add.u8 A, A, B\n", &p, &w, &n);
	cr_assert_eq(n, 52);
	uint64_t *c = malloc(n * sizeof *c);
#define MUTATE(i, v, msg) do { memcpy(c, w, n * sizeof *c); c[i] = (v); \
		expect_decode_error(c, n, msg); } while (0)
	MUTATE(0, 0x1234, "word 0: bad magic 0x0000000000001234; expected \"INFSIMB1\"");
	MUTATE(1, 2, "word 1: version 2 is not supported; expected 1");
	MUTATE(2, 51, "word 51: 1 words follow the end given in the header");
	MUTATE(3, 100, "word 3: the machine is not valid: wordlines must be a power of two");
	MUTATE(3, UINT64_C(1) << 40, "word 3: the machine is not valid");
	MUTATE(7, 300, "word 7: scratch wordline 300 is out of range; expected 0 to 256");
	MUTATE(7, 10, "word 33: buffer 'B' (wordlines 8..15) reaches into the scratch wordlines, which start at 10");
	MUTATE(8, 40000, "word 8: 40000 buffers and 1 commands cannot fit");
	MUTATE(9, UINT64_MAX, "cannot fit");
	MUTATE(9, 0, "word 40: 12 words are left after the last command");
	MUTATE(10, 0, "word 10: a buffer name must be an identifier");
	MUTATE(10, 0x41 | (UINT64_C(0x42) << 16), "word 10: the buffer name is not padded with zero bytes");
	MUTATE(10, 0x67617400, "word 10: the buffer name is not padded with zero bytes");
	MUTATE(10, 0x672d41, "word 10: a buffer name must be an identifier");
	MUTATE(10, 0x676174, "word 10: 'tag' is a reserved word");
	MUTATE(25, 0x41, "word 25: buffer 'A' is already declared (buffer #0)");
	MUTATE(18, 0, "word 18: element type u0 is not valid");
	MUTATE(18, 8 | (UINT64_C(2) << 8), "word 18: element type i8 is not valid");
	MUTATE(18, 8 | (UINT64_C(1) << 24), "word 18: reserved bits 0x0000000001000000");
	MUTATE(18, 8 | (UINT64_C(9) << 16), "word 18: unknown init kind 9");
	MUTATE(18, 8 | (UINT64_C(250) << 32), "word 18: buffer 'A' needs wordlines 250..257");
	MUTATE(18, 8 | (UINT64_C(4) << 32),
	       "word 33: buffer 'B' (wordlines 8..15) overlaps buffer 'A' (wordlines 4..11, buffer #0) in array 0");
	MUTATE(18, 8 | (UINT64_C(12) << 32), "word 18: buffer 'A' (wordlines 12..19) reaches into the scratch wordlines, which start at 16");
	MUTATE(19, 0, "word 19: buffer length 0 is out of range");
	MUTATE(20, 5, "word 20: this init kind takes no value, found 5");
	MUTATE(21, 31, "word 21: array 32 of the pattern 31:1:2 is out of range");
	MUTATE(22, 9, "word 22: a buffer's array pattern has 9 dimensions; at most 8");
	MUTATE(24, 3, "word 21: buffer 'A' has 128 elements, which fill 2 arrays of 64 bitlines, but its array pattern 0:1:3 has 3");
	MUTATE(40, 999, "word 40: unknown command number 999");
	MUTATE(40, (uint64_t)isa_lookup("add") | (UINT64_C(0) << 16), "word 40: add: element type u0 is not valid");
	MUTATE(40, (uint64_t)isa_lookup("add") | (UINT64_C(8) << 16) | (UINT64_C(1) << 40),
	       "word 40: reserved bits");
	MUTATE(40, (uint64_t)isa_lookup("add") | (UINT64_C(16) << 16),
	       "word 41: add.u16: buffer 'A' is u8, but the command works on 16-bit elements");
	MUTATE(40, (uint64_t)isa_lookup("not") | (UINT64_C(8) << 16),
	       "word 40: not takes no operand b (its operands are d, a)");
	MUTATE(41, 0 | (UINT64_C(0xffff) << 16) | (UINT64_C(0) << 32) | (UINT64_C(9) << 48),
	       "word 41: add.u8: operand b is at wordline 9, but buffer 'B' is at wordline 8");
	MUTATE(42, 1, "word 40: add.u8 takes no immediate, found 1");
	MUTATE(43, 0 | (UINT64_C(0xffff) << 16) | (UINT64_C(0) << 32) | (UINT64_C(7) << 48),
	       "word 41: add.u8: operand b names buffer 7, but there are 2");
	MUTATE(43, 0 | (UINT64_C(0xffff) << 16) | (UINT64_C(0) << 32) | (UINT64_C(0xfffe) << 48),
	       "word 41: add.u8: operand b has a bad buffer index -2");
	MUTATE(44, 1, "word 44: buffer 'A' does not hold array 2, which the command selects");
	MUTATE(47, 0, "word 44: the array pattern 0:1:0 is empty");
	MUTATE(51, 65, "word 48: bitline 64 of the pattern 0:1:65 is out of range");
	free(c);
	free(w);
	emu_program_free(&p);
}

/* A decoded program re-encodes to the very same words, and any single
 * bit flip is either refused or gives a program that does. */
Test(binary, bit_flips)
{
	emu_program p, q;
	uint64_t *w, *c, *w2;
	size_t n, n2;
	diag d;
	encode_text(sketch, &p, &w, &n);
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

/* ---- text mutations: never a crash, always one located message ---- */

Test(parse, mutations)
{
	static const char repl[] = {'\0', ':', '9', ' ', '#', 'x', '\n', ',', '-', '@', '='};
	const size_t len = sizeof multi_dim - 1;
	char *t = malloc(len);
	emu_program p;
	diag d;
	for (size_t k = 0; k <= len; k++) {
		/* Every prefix: either a whole-line cut that parses, or an error. */
		if (parse_len(multi_dim, k, &p, &d) == 0)
			emu_program_free(&p);
		else
			cr_assert(strncmp(d.msg, "t.s:", 4) == 0, "%s", d.msg);
		if (k == len)
			break;
		for (size_t r = 0; r < sizeof repl; r++) {
			memcpy(t, multi_dim, len);
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

static void expect_conf_error(const char *text, const char *where, const char *what)
{
	char *path = write_tmp(text, strlen(text));
	sram_geom g = sram_geom_default(), before = g;
	diag d;
	diag_clear(&d);
	cr_assert_eq(emu_geom_load(path, &g, &d), -1, "accepted: %s", text);
	char prefix[128];
	snprintf(prefix, sizeof prefix, "%s%s: error: ", path, where);
	cr_expect(strncmp(d.msg, prefix, strlen(prefix)) == 0, "wanted %s..., got %s", prefix, d.msg);
	cr_expect(strstr(d.msg, what), "wanted '%s' in %s", what, d.msg);
	cr_assert_eq(memcmp(&g, &before, sizeof g), 0);
	unlink(path);
}

Test(geom, config_files)
{
	const char good[] = "# a small machine\n\nwordlines = 128\n  bitlines=64   # narrow\n"
			    "mesh\t=\t2x1\narrays = 2\nways=1\n";
	char *path = write_tmp(good, sizeof good - 1);
	sram_geom g = sram_geom_default();
	diag d;
	diag_clear(&d);
	cr_assert_eq(emu_geom_load(path, &g, &d), 0, "%s", d.msg);
	sram_geom want = {.wordlines = 128, .bitlines = 64, .arrays_per_way = 2,
			  .ways_per_bank = 1, .mesh_x = 2, .mesh_y = 1};
	cr_assert_eq(memcmp(&g, &want, sizeof g), 0);
	unlink(path);
	/* Keys a file does not set keep their values. */
	path = write_tmp("ways = 2\n", 9);
	cr_assert_eq(emu_geom_load(path, &g, &d), 0, "%s", d.msg);
	cr_assert_eq(g.ways_per_bank, 2);
	cr_assert_eq(g.wordlines, 128);
	unlink(path);
	expect_conf_error("wordlines = 128\nsize = 3\n", ":2:1", "unknown setting 'size'");
	expect_conf_error("wordlines = 100\n", ":1:13", "wordlines = 100: wordlines must be a power of two");
	expect_conf_error("  wordlines 128\n", ":1:13", "expected '=' after 'wordlines'");
	expect_conf_error("wordlines =\n", ":1:12", "expected a value for 'wordlines'");
	expect_conf_error("wordlines = 128 256\n", ":1:17", "unexpected '2' after the value of 'wordlines'");
	expect_conf_error("ways = 2\n# x\nways = 4\n", ":3:1", "'ways' is set twice (first at line 1)");
	expect_conf_error("= 4\n", ":1:1", "expected a setting");
	expect_conf_error("mesh = 2x2", ":1:11", "does not end with a newline");
	expect_conf_error("mesh = 2x\x01\n", ":1:10", "control character 0x01");
	expect_conf_error("bitlines = 1024\narrays = 4096\nways = 64\nmesh = 64x64\n", "",
			  "the machine it describes is not valid: the machine has more than");
	diag_clear(&d);
	cr_assert_eq(emu_geom_load("/nonexistent/m.conf", &g, &d), -1);
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
