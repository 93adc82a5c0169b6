/* SPDX-License-Identifier: MIT */
/*
 * test_valid_jit.c: validation that another JIT can trust (doc/TDFG.md,
 * "Validating a stream").  Streams lowered otherwise than infsim's JIT
 * lowers them must pass: independent nodes in another order, a node
 * marked more than once, a loop run backwards with run=/parameter
 * markers.  Streams broken in each way the bullet of the report names
 * must be caught with that command: a write into an array or an input
 * after its last use and a stray write (the command that wrote it), a
 * clobbered operand (the command that overwrote it), a write to the
 * wrong wordlines, the wrong arrays or of too few bits (the command of
 * the window that wrote there), a reduction missing its last halving
 * step (the last command that wrote the element), a wrong op inside a
 * reduction step (the op), a strm marker without `strm` (said so); each
 * on a 1-d, a 2-d, a 3-d, a reduction and a strm tDFG.  Bugs the data
 * hide are found by generated input sets (--inputs), and a vacuous check
 * is warned about.
 */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RUN_TMP_PREFIX "infsim-valid-jit"
#include "infsim_run.h"
#include "move.h"
#include "stream_text.h"
#include "tdfg.h"
#include "validate.h"

/* ---- the tDFGs ---- */

#define MACHINE "machine wordlines=256 bitlines=64 arrays=4 ways=2 mesh=2x2\n"

static const char plane_tdfg[] = MACHINE
	"region p 64x4\n"
	"X = input i32 init=random:5\n"
	"w = shift X, +1, +0\n"
	"s1 = add.i32 X, w\n"
	"n = shift X, +0, +1\n"
	"s = add.i32 s1, n\n"
	"output s\n";

static const char cube_tdfg[] = MACHINE
	"region c 16x4x4\n"
	"X = input i32 init=random:9\n"
	"a = shift X, +1, +0, +0\n"
	"s1 = add.i32 X, a\n"
	"b = shift X, +0, +0, +1\n"
	"s = add.i32 s1, b\n"
	"output s\n";

static const char sum_tdfg[] = MACHINE
	"region r 64x4\n"
	"X = input i32 init=random:7\n"
	"y = mul.i32 X, X\n"
	"s = reduce.add.i32 y, 0\n"
	"t = add.i32 s, y\n"
	"output t\n";

static const char ssum_tdfg[] = MACHINE
	"region r 64x4\n"
	"x = input i32 init=random:3\n"
	"y = add.i32 x, x\n"
	"s = strm.reduce.add.i32 y, 0\n"
	"t = add.i32 s, y\n"
	"output t\n";

static const char zero_tdfg[] = MACHINE
	"region z 64x4\n"
	"X = input i32 init=zero\n"
	"y = add.i32 X, X\n"
	"output y\n";

/* One tDFG and the edits of each class on its lowered stream.  Each
 * edit is a line prefix and what replaces it (the rest of the line
 * kept), on the first line that starts with it. */
typedef struct edit {
	const char *from, *to;
} edit;

typedef struct sample {
	const char *name;      /* NAME.tdfg in the test's folder */
	const char *text;      /* NULL: blur, from samples/tutorial-jit */
	const char *end_tensor;/* an array, or an input: written after its last use */
	const char *stray_after, *stray_tensor; /* a marker; a tensor it leaves outside */
	bool stray_new;        /* the tensor is declared by the test (no node holds it) */
	edit clobber;          /* a tensor's wordlines onto a live operand's */
	edit wordline, arrays, narrow;
	bool narrow_hidden;    /* the given data hide the narrow write */
} sample;

static const sample samples[] = {
	{"blur", NULL, "B", "node s1", "s1", false,
	 {"tensor r i32 64 wl=64", "tensor r i32 64 wl=96"},
	 {"add.i32 s1, A, l @ arrays=0 ", "add.i32 wl:160, A, l @ arrays=0 "},
	 {"add.i32 s1, A, l @ arrays=0 ", "add.i32 s1, A, l @ arrays=1 "},
	 {"add.i32 s1, A, l @ arrays=1:1:3 ", "add.i16 wl:96, wl:0, wl:64 @ arrays=1:1:3 "},
	 true},
	{"plane", plane_tdfg, "X", "node s1", "s1", false,
	 {"tensor n i32 64x4 wl=32", "tensor n i32 64x4 wl=64"},
	 {"add.i32 s1, X, w @", "add.i32 wl:160, X, w @"},
	 {"add.i32 s1, X, w @ arrays=0:1:4", "add.i32 s1, X, w @ arrays=1:1:3"},
	 {"add.i32 s1, X, w @", "add.i16 wl:64, wl:0, wl:32 @"}, false},
	{"cube", cube_tdfg, "X", "node s1", "s1", false,
	 {"tensor b i32 16x4x4 wl=32", "tensor b i32 16x4x4 wl=64"},
	 {"add.i32 s1, X, a @", "add.i32 wl:160, X, a @"},
	 {"add.i32 s1, X, a @ arrays=0:1:4", "add.i32 s1, X, a @ arrays=1:1:3"},
	 {"add.i32 s1, X, a @", "add.i16 wl:64, wl:0, wl:32 @"}, false},
	{"sum", sum_tdfg, "X", "node y", "Z", true,
	 {"tensor __2_1 i32 64x4 wl=96", "tensor __2_1 i32 64x4 wl=32"},
	 {"mul.i32 y, X, X @", "mul.i32 wl:160, X, X @"},
	 {"mul.i32 y, X, X @ arrays=0:1:32", "mul.i32 y, X, X @ arrays=1:1:31"},
	 {"mul.i32 y, X, X @", "mul.i16 wl:32, wl:0, wl:0 @"}, false},
	{"ssum", ssum_tdfg, "x", "node y", "Z", true,
	 {"tensor __2_1 i32 64x4 wl=96", "tensor __2_1 i32 64x4 wl=32"},
	 {"add.i32 y, x, x @", "add.i32 wl:160, x, x @"},
	 {"add.i32 y, x, x @ arrays=0:1:32", "add.i32 y, x, x @ arrays=1:1:31"},
	 {"add.i32 y, x, x @", "add.i16 wl:32, wl:0, wl:0 @"}, false},
};
#define NSAMPLES (sizeof samples / sizeof samples[0])

static void write_file(const char *name, const char *s)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f, "%s", path);
	fputs(s, f);
	cr_assert_eq(fclose(f), 0);
}

/* The sample's tDFG in the test's folder, and its path. */
static void tdfg_path(const sample *s, char *buf, size_t size)
{
	if (!s->text) {
		snprintf(buf, size, "%s/samples/tutorial-jit/blur.tdfg", SRCDIR);
		return;
	}
	char name[64];
	snprintf(name, sizeof name, "%s.tdfg", s->name);
	write_file(name, s->text);
	snprintf(buf, size, "%s/%s", tmpdir, name);
}

/* The stream infsim's JIT lowers the tDFG at path into. */
static void lowered(const char *path, text *out)
{
	emu_tdfg t;
	emu_jit j;
	diag d;
	diag_clear(&d);
	emu_tdfg_init(&t);
	cr_assert_eq(emu_tdfg_load(path, NULL, &t, &j, &d), 0, "%s", d.msg);
	text_split(out, j.text);
	emu_jit_free(&j);
	emu_tdfg_free(&t);
}

/* The first line starting with e->from, edited; its index. */
static size_t apply(text *t, const edit *e)
{
	const size_t i = find_from(t, 0, e->from);
	cr_assert_neq(i, SIZE_MAX, "no line starts with '%s'", e->from);
	char buf[1024];
	snprintf(buf, sizeof buf, "%s%s", e->to, t->l[i] + strlen(e->from));
	replace_line(t, i, buf);
	return i;
}

/* The array and bitline of element e of tensor `name` in the stream. */
static void place_of(const text *t, const char *name, uint64_t e, unsigned *array, unsigned *bl)
{
	char *all = text_join(t);
	emu_program p;
	diag d;
	diag_clear(&d);
	cr_assert_eq(emu_parse("t.ins", all, strlen(all), NULL, &p, &d), 0, "%s", d.msg);
	bool found = false;
	for (size_t k = 0; k < p.nbufs; k++)
		if (strcmp(p.bufs[k].name, name) == 0) {
			unsigned wl;
			emu_buffer_place(&p.bufs[k], &p.geom, e, array, bl, &wl);
			found = true;
		}
	cr_assert(found, "no tensor '%s'", name);
	emu_program_free(&p);
	free(all);
}

/* Validate tmpdir/NAME against the tDFG at tdfg: 0, 1 (rep) or -1. */
static int validate(const char *name, const char *tdfg, emu_valid_report *rep)
{
	char sp[512];
	diag d;
	diag_clear(&d);
	snprintf(sp, sizeof sp, "%s/%s", tmpdir, name);
	memset(rep, 0, sizeof *rep);
	const int rc = emu_valid_files(sp, tdfg, rep, &d);
	cr_assert_neq(rc, -1, "%s: %s", name, d.msg);
	return rc;
}

static int line_of(size_t i)
{
	return (int)i + 1;
}

/* The command whose line is `line` is named in rep's text as the one
 * the bullet names (its "(STREAM:LINE: " place). */
static void names_line(const emu_valid_report *rep, const char *stream, int line, const char *why)
{
	char want[512];
	snprintf(want, sizeof want, "(%s/%s:%d: ", tmpdir, stream, line);
	cr_expect(strstr(rep->text, want) != NULL, "%s: wanted %s named (line %d) in:\n%s", why,
		  want, line, rep->text);
}

/* Run "infsim ARGS": its exit status must be status, and want (if
 * not NULL) in its standard output or error. */
static void expect_cli(int status, const char *want, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void expect_cli(int status, const char *want, const char *fmt, ...)
{
	char args[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(args, sizeof args, fmt, ap);
	va_end(ap);
	result r = run("%s", args);
	cr_expect_eq(r.status, status, "infsim %s: exit %d:\n%s%s", args, r.status, r.out, r.err);
	if (want)
		cr_expect(strstr(r.out, want) || strstr(r.err, want), "infsim %s: wanted '%s' in:\n%s%s",
			  args, want, r.out, r.err);
	result_free(&r);
}

TestSuite(valid_jit, .init = make_tmpdir, .fini = remove_tmpdir, .timeout = 600);

/* ---- streams lowered otherwise, which must pass ---- */

/* Lines (a, b] moved before (prev, a]: b's block first. */
static void swap_blocks(text *t, size_t prev, size_t a, size_t b)
{
	const size_t n1 = a - prev, n2 = b - a;
	char **tmp = malloc((n1 + n2) * sizeof *tmp);
	memcpy(tmp, t->l + a + 1, n2 * sizeof *tmp);
	memcpy(tmp + n2, t->l + prev + 1, n1 * sizeof *tmp);
	memcpy(t->l + prev + 1, tmp, (n1 + n2) * sizeof *tmp);
	free(tmp);
}

/* In every run, the block of node `late` (after the marker `before`)
 * and that of the independent node `early` after it change places. */
static size_t reorder(text *t, const char *before, const char *late, const char *early)
{
	size_t runs = 0;
	for (size_t i = 0; (i = find_from(t, i, before)) != SIZE_MAX; i++) {
		if (strcmp(t->l[i], before) != 0)
			continue;
		const size_t a = find_from(t, i + 1, late), b = find_from(t, a + 1, early);
		cr_assert(a != SIZE_MAX && b != SIZE_MAX);
		swap_blocks(t, i, a, b);
		runs++;
	}
	return runs;
}

/* The JIT gives the early node the wordlines of a value that is dead
 * once the late node has run; computed first it needs rows of its own
 * (moved, it would clobber that value: clobbered_operand below). */
Test(valid_jit, independent_node_earlier)
{
	static const struct {
		const char *sample, *before, *late, *early;
		size_t runs;
		edit rows;
	} cases[] = {
		{"blur", "node l", "node s1", "node r", 3,
		 {"tensor r i32 64 wl=64", "tensor r i32 64 wl=160"}},
		{"plane", "node w", "node s1", "node n", 1,
		 {"tensor n i32 64x4 wl=32", "tensor n i32 64x4 wl=160"}},
		{"cube", "node a", "node s1", "node b", 1,
		 {"tensor b i32 16x4x4 wl=32", "tensor b i32 16x4x4 wl=160"}},
	};
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		const sample *s = NULL;
		for (size_t k = 0; k < NSAMPLES; k++)
			if (strcmp(samples[k].name, cases[c].sample) == 0)
				s = &samples[k];
		char tp[512];
		text t;
		tdfg_path(s, tp, sizeof tp);
		lowered(tp, &t);
		apply(&t, &cases[c].rows);
		cr_assert_eq(reorder(&t, cases[c].before, cases[c].late, cases[c].early),
			     cases[c].runs);
		/* the early node's marker now comes before the late one's */
		cr_assert_lt(find_from(&t, 0, cases[c].early), find_from(&t, 0, cases[c].late));
		cr_assert(text_write_in(&t, tmpdir, "reorder.ins"));
		text_free(&t);
		emu_valid_report rep;
		cr_expect_eq(validate("reorder.ins", tp, &rep), 0, "%s:\n%s", s->name, rep.text);
		result r = run("run reorder.ins --tdfg %s", tp);
		cr_expect_eq(r.status, 0, "%s: %s", s->name, r.err);
		result_free(&r);
	}
}

/* Every marker of s1 twice, and once more after the next node's. */
Test(valid_jit, node_marked_twice)
{
	for (size_t k = 0; k < 3; k++) {
		const sample *s = &samples[k];
		char tp[512];
		text t;
		tdfg_path(s, tp, sizeof tp);
		lowered(tp, &t);
		size_t marks = 0;
		for (size_t i = 0; (i = find_from(&t, i, "node s1")) != SIZE_MAX;) {
			char *m = strdup(t.l[i]);
			insert_line(&t, i + 1, m);
			const size_t j = find_from(&t, i + 2, "node ");
			cr_assert_neq(j, SIZE_MAX);
			insert_line(&t, j + 1, m);
			free(m);
			marks++;
			i = j + 2;
		}
		cr_assert_gt(marks, 0);
		cr_assert(text_write_in(&t, tmpdir, "twice.ins"));
		text_free(&t);
		emu_valid_report rep;
		cr_expect_eq(validate("twice.ins", tp, &rep), 0, "%s:\n%s", s->name, rep.text);
	}
}

/* mm_outer's k loop as blocks of the lowered stream, one per run: the
 * header's end, and where each run's block starts ("# for k = ..."). */
static size_t run_blocks(const text *t, size_t *start, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < t->n; i++)
		if (starts(t->l[i], "# for k = ") && n < max)
			start[n++] = i;
	return n;
}

/* The stream with its runs in reverse order; each marker given the
 * run's selector (`k=K` or `run=K+1`) unless sel is NULL. */
static void reversed(const char *tdfg, const char *sel, const char *out)
{
	text t, r = {NULL, 0};
	lowered(tdfg, &t);
	size_t start[64];
	const size_t n = run_blocks(&t, start, 64);
	cr_assert_eq(n, 16);
	for (size_t i = 0; i < start[0]; i++)
		insert_line(&r, r.n, t.l[i]);
	for (size_t b = n; b-- > 0;) {
		const size_t end = b + 1 < n ? start[b + 1] : t.n;
		const char *kk = strrchr(t.l[start[b]], '=');
		cr_assert_not_null(kk);
		const long k = strtol(kk + 1, NULL, 10);
		cr_assert_eq(k, (long)b);
		for (size_t i = start[b]; i < end; i++) {
			char line[1024];
			if (sel && starts(t.l[i], "node "))
				snprintf(line, sizeof line, "%s %s=%ld", t.l[i], sel,
					 strcmp(sel, "run") == 0 ? k + 1 : k);
			else
				snprintf(line, sizeof line, "%s", t.l[i]);
			insert_line(&r, r.n, line);
		}
	}
	cr_assert(text_write_in(&r, tmpdir, out));
	text_free(&t);
	text_free(&r);
}

Test(valid_jit, loop_run_in_reverse)
{
	char tp[512];
	snprintf(tp, sizeof tp, "%s/samples/workloads/mm_outer_i32.tdfg", SRCDIR);
	emu_valid_report rep;
	/* each marker says which run it holds: every run is compared with
	 * what it computes from C as the stream's earlier runs left it, and
	 * C at the end with what the program leaves in it (integer sums do
	 * not depend on the order) */
	reversed(tp, "k", "rk.ins");
	cr_expect_eq(validate("rk.ins", tp, &rep), 0, "%s", rep.text);
	reversed(tp, "run", "rr.ins");
	cr_expect_eq(validate("rr.ins", tp, &rep), 0, "%s", rep.text);
	result r = run("run rk.ins --tdfg %s", tp);
	cr_expect_eq(r.status, 0, "%s", r.err);
	result_free(&r);
	/* without selectors the first run's markers hold k = 15's values,
	 * which no instance they may hold has */
	reversed(tp, NULL, "rn.ins");
	cr_assert_eq(validate("rn.ins", tp, &rep), 1);
	cr_expect(strstr(rep.text, "node 's' (") != NULL, "%s", rep.text);
	cr_expect(strstr(rep.text, "in run 1 of region 'mm' (with k = 0)") != NULL, "%s", rep.text);
	/* a selector that no run has, and a parameter the region lacks */
	text t;
	lowered(tp, &t);
	const size_t i = find_from(&t, 0, "node a");
	char line[256];
	snprintf(line, sizeof line, "%s k=99", t.l[i]);
	replace_line(&t, i, line);
	cr_assert(text_write_in(&t, tmpdir, "k99.ins"));
	snprintf(line, sizeof line, "node a tensor=A j=1");
	replace_line(&t, i, line);
	cr_assert(text_write_in(&t, tmpdir, "j1.ins"));
	text_free(&t);
	char sp[512];
	diag d;
	diag_clear(&d);
	snprintf(sp, sizeof sp, "%s/k99.ins", tmpdir);
	cr_expect_eq(emu_valid_files(sp, tp, &rep, &d), -1);
	cr_expect(strstr(d.msg, "node marker 'a' k=99: no run of ") != NULL, "%s", d.msg);
	snprintf(sp, sizeof sp, "%s/j1.ins", tmpdir);
	diag_clear(&d);
	cr_expect_eq(emu_valid_files(sp, tp, &rep, &d), -1);
	cr_expect(strstr(d.msg, "region 'mm' has no parameter 'j' (its parameters: k)") != NULL,
		  "%s", d.msg);
}

/* The floating-point loop run backwards rounds otherwise (A's 0.1 is
 * not exact): each run holds (the markers say which), and C at the end
 * is not what the program, in its own order, leaves in it. */
Test(valid_jit, fp_loop_in_reverse_differs_at_the_end)
{
	char sp[512], tp[512];
	snprintf(sp, sizeof sp, "%s/samples/workloads/mm_outer_f32.tdfg", SRCDIR);
	char *src = proc_slurp(sp, NULL);
	cr_assert_not_null(src);
	char *a = strstr(src, "array A f32 NxN init=iota\n");
	cr_assert_not_null(a);
	*a = '\0';
	char *body = malloc(strlen(src) + strlen(a + 1) + 64);
	sprintf(body, "%sarray A f32 NxN init=const:0.1\n%s", src, a + strlen("array A f32 NxN "
								     "init=iota\n"));
	write_file("mmf.tdfg", body);
	free(body);
	free(src);
	snprintf(tp, sizeof tp, "%s/mmf.tdfg", tmpdir);
	emu_valid_report rep;
	reversed(tp, "k", "rf.ins");
	cr_assert_eq(validate("rf.ins", tp, &rep), 1);
	cr_expect(strstr(rep.text, "error: array 'C' (") != NULL, "%s", rep.text);
	cr_expect(strstr(rep.text, "at the end of the stream") != NULL, "%s", rep.text);
}

/* ---- -D with --tdfg ---- */

Test(valid_jit, tdfg_takes_sizes_from_D)
{
	char tp[512];
	snprintf(tp, sizeof tp, "%s/samples/workloads/stencil2d_i32.tdfg", SRCDIR);
	result r = run("jit %s -D W=512 -D H=512 -m wordlines=512,bitlines=256,arrays=16,ways=16,"
		       "mesh=8x8 -o s512.ins", tp);
	cr_assert_eq(r.status, 0, "%s", r.err);
	result_free(&r);
	expect_cli(0, "s512.ins: 200 commands", "run s512.ins --tdfg %s -D W=512 -D H=512", tp);
	/* the tDFG at its default size does not fit the stream's tensors */
	expect_cli(1, "is i32 64x32, but tensor", "run s512.ins --tdfg %s", tp);
	/* a -D the tDFG does not declare */
	expect_cli(1, "-D Q: the program declares no parameter 'Q'", "run s512.ins --tdfg %s -D Q=3",
		   tp);
}

/* ---- broken streams: each class, on each kind of tDFG ---- */

/* The sample's lowered stream, its tDFG's path in tp. */
static void start(const sample *s, char *tp, size_t size, text *t)
{
	tdfg_path(s, tp, size);
	lowered(tp, t);
}

Test(valid_jit, write_into_an_array_or_input_after_its_last_use)
{
	for (size_t k = 0; k < NSAMPLES; k++) {
		const sample *s = &samples[k];
		char tp[512], line[256];
		text t;
		start(s, tp, sizeof tp, &t);
		unsigned a, b;
		place_of(&t, s->end_tensor, 0, &a, &b);
		snprintf(line, sizeof line, "set.i32 %s, #5 @ arrays=%u bitlines=%u", s->end_tensor, a,
			 b);
		insert_line(&t, t.n, line);
		const int at = line_of(t.n - 1);
		cr_assert(text_write_in(&t, tmpdir, "end.ins"));
		text_free(&t);
		emu_valid_report rep;
		cr_assert_eq(validate("end.ins", tp, &rep), 1, "%s: not caught", s->name);
		char want[64];
		snprintf(want, sizeof want, "error: %s '%s' (", s->text ? "input" : "array",
			 s->end_tensor);
		cr_expect(strstr(rep.text, want) != NULL, "%s: wanted %s in:\n%s", s->name, want,
			  rep.text);
		cr_expect_eq(rep.guilty_line, at, "%s:\n%s", s->name, rep.text);
		names_line(&rep, "end.ins", at, s->name);
	}
}

Test(valid_jit, stray_write)
{
	for (size_t k = 0; k < NSAMPLES; k++) {
		const sample *s = &samples[k];
		char tp[512], line[256];
		text t;
		start(s, tp, sizeof tp, &t);
		if (s->stray_new) /* a tensor of the region's layout on free wordlines */
			insert_line(&t, find_from(&t, 0, "node "),
				    "tensor Z i32 64x4 wl=160 array=0 tile=2x32");
		unsigned a, b;
		place_of(&t, s->stray_tensor, 0, &a, &b);
		const size_t m = find_from(&t, 0, s->stray_after);
		cr_assert_neq(m, SIZE_MAX);
		snprintf(line, sizeof line, "set.i32 %s, #5 @ arrays=%u bitlines=%u", s->stray_tensor,
			 a, b);
		insert_line(&t, m + 1, line);
		cr_assert(text_write_in(&t, tmpdir, "stray.ins"));
		text_free(&t);
		emu_valid_report rep;
		cr_assert_eq(validate("stray.ins", tp, &rep), 1, "%s: not caught", s->name);
		cr_expect_eq(rep.cause, EMU_VALID_STRAY, "%s:\n%s", s->name, rep.text);
		cr_expect_eq(rep.guilty_line, line_of(m + 1), "%s:\n%s", s->name, rep.text);
		cr_expect(strstr(rep.text, "error: a stray write: ") != NULL, "%s", rep.text);
		names_line(&rep, "stray.ins", line_of(m + 1), s->name);
		/* declared scratch, the same write is the stream's own */
		if (s->stray_new) {
			start(s, tp, sizeof tp, &t);
			insert_line(&t, find_from(&t, 0, "node "),
				    "tensor Z i32 64x4 wl=160 array=0 tile=2x32 scratch");
			insert_line(&t, find_from(&t, 0, s->stray_after) + 1, line);
			cr_assert(text_write_in(&t, tmpdir, "scratch.ins"));
			text_free(&t);
			cr_expect_eq(validate("scratch.ins", tp, &rep), 0, "%s:\n%s", s->name, rep.text);
		}
	}
}

Test(valid_jit, clobbered_operand)
{
	for (size_t k = 0; k < NSAMPLES; k++) {
		const sample *s = &samples[k];
		char tp[512];
		text t;
		start(s, tp, sizeof tp, &t);
		apply(&t, &s->clobber);
		cr_assert(text_write_in(&t, tmpdir, "clobber.ins"));
		emu_valid_report rep;
		cr_assert_eq(validate("clobber.ins", tp, &rep), 1, "%s: not caught", s->name);
		cr_expect_eq(rep.cause, EMU_VALID_CLOBBER, "%s:\n%s", s->name, rep.text);
		/* the overwriting command is a move into the tensor moved */
		const char *tensor = s->clobber.to + strlen("tensor ");
		char want[64];
		snprintf(want, sizeof want, "move %.*s, ", (int)strcspn(tensor, " "), tensor);
		cr_assert_gt(rep.guilty_line, 0, "%s", rep.text);
		cr_expect(starts(t.l[rep.guilty_line - 1], want), "%s: guilty line %d is '%s', "
			  "wanted a '%s' line:\n%s", s->name, rep.guilty_line, t.l[rep.guilty_line - 1],
			  want, rep.text);
		cr_expect(strstr(rep.text, "a clobbered operand: ") != NULL, "%s", rep.text);
		text_free(&t);
	}
}

/* An edit whose command writes elsewhere: no command of the window
 * wrote the wrong bits, and the note names the edited command. */
static void misplaced(const char *what, size_t off, const char *says, bool generated)
{
	for (size_t k = 0; k < NSAMPLES; k++) {
		const sample *s = &samples[k];
		char tp[512];
		text t;
		start(s, tp, sizeof tp, &t);
		const edit *e = (const edit *)((const char *)s + off);
		const size_t i = apply(&t, e);
		cr_assert(text_write_in(&t, tmpdir, "misplaced.ins"));
		text_free(&t);
		emu_valid_report rep;
		int rc;
		if (generated && s->narrow_hidden) {
			/* the given data (iota) hide it: random data do not */
			cr_expect_eq(validate("misplaced.ins", tp, &rep), 0, "%s:\n%s", s->name, rep.text);
			char sp[512];
			emu_program p;
			emu_tdfg g;
			diag d;
			diag_clear(&d);
			emu_tdfg_init(&g);
			snprintf(sp, sizeof sp, "%s/misplaced.ins", tmpdir);
			cr_assert_eq(emu_load_file(sp, NULL, &p, &d), 0, "%s", d.msg);
			cr_assert_eq(emu_program_lower(&p, &d), 0, "%s", d.msg);
			emu_geom_override ov;
			emu_geom_override_init(&ov);
			ov.g = p.geom;
			ov.keys = ~0u;
			cr_assert_eq(emu_tdfg_parse_file(tp, &p.geom, &ov, &g, &d), 0, "%s", d.msg);
			emu_valid *v = emu_valid_new(&g, &p, &d);
			cr_assert_not_null(v, "%s", d.msg);
			cr_assert_eq(emu_valid_generate(v, EMU_VALID_RANDOM, 1, &d), 0, "%s", d.msg);
			rc = emu_valid_drive(v, &rep, &d);
			emu_valid_free(v);
			emu_tdfg_free(&g);
			emu_program_free(&p);
		} else {
			rc = validate("misplaced.ins", tp, &rep);
		}
		cr_assert_eq(rc, 1, "%s, %s: not caught", s->name, what);
		cr_expect_eq(rep.cause, EMU_VALID_UNWRITTEN, "%s, %s:\n%s", s->name, what, rep.text);
		cr_expect_gt(rep.misplaced, 0, "%s", rep.text);
		names_line(&rep, "misplaced.ins", line_of(i), what);
		cr_expect(strstr(rep.text, says) != NULL, "%s, %s: wanted '%s' in:\n%s", s->name, what,
			  says, rep.text);
	}
}

Test(valid_jit, write_to_the_wrong_wordlines)
{
	misplaced("wrong wordlines", offsetof(sample, wordline), "it writes the wrong wordlines",
		  false);
}

Test(valid_jit, write_to_the_wrong_arrays)
{
	misplaced("wrong arrays", offsetof(sample, arrays), "and bitline ", false);
}

Test(valid_jit, write_of_too_few_bits)
{
	misplaced("16 bits of 32", offsetof(sample, narrow), "writes only bits 0..15 of it", true);
}

/* ---- reductions ---- */

/* The sum's stream with its last halving step (the move by -1, its add
 * and its copy back) dropped: the last command that wrote the element
 * is the step before's copy back, and the report names it. */
Test(valid_jit, reduction_missing_its_last_step)
{
	static const char *const which[] = {"sum", "ssum"};
	for (size_t w = 0; w < 2; w++) {
		const sample *s = NULL;
		for (size_t k = 0; k < NSAMPLES; k++)
			if (strcmp(samples[k].name, which[w]) == 0)
				s = &samples[k];
		char tp[512];
		text t;
		start(s, tp, sizeof tp, &t);
		size_t last = SIZE_MAX;
		for (size_t i = 0; (i = find_from(&t, i, "move __2_1, s, ")) != SIZE_MAX; i++)
			last = i;
		cr_assert_neq(last, SIZE_MAX);
		/* the step: its move, its adds, its copies back */
		size_t end = last + 1;
		while (end < t.n && (starts(t.l[end], "add.i32 __2_2") || starts(t.l[end], "copy.i32 s,")))
			end++;
		const bool first_step = find_from(&t, 0, "move __2_1, s, ") == last;
		for (size_t i = end; i-- > last;)
			drop_line(&t, i);
		size_t prev_copy = SIZE_MAX;
		for (size_t i = 0; (i = find_from(&t, i, "copy.i32 s,")) != SIZE_MAX && i < last; i++)
			prev_copy = i;
		cr_assert_neq(prev_copy, SIZE_MAX);
		cr_assert(text_write_in(&t, tmpdir, "nostep.ins"));
		text_free(&t);
		emu_valid_report rep;
		cr_assert_eq(validate("nostep.ins", tp, &rep), 1, "%s: not caught", s->name);
		cr_expect(strstr(rep.text, "node 's' (") != NULL, "%s", rep.text);
		cr_expect(rep.last_writer > 0, "%s", rep.text);
		(void)first_step; /* ssum's one in-array step: then the first copy is the last */
		cr_expect(strstr(rep.text, "note: the last command that wrote s[") != NULL ||
			  (rep.guilty_line == line_of(prev_copy)), "%s: %s", s->name, rep.text);
		names_line(&rep, "nostep.ins", line_of(prev_copy), s->name);
	}
}

/* A sub for the add of a halving step: the value the element ends with
 * was computed by the sub (and only copied back after it). */
Test(valid_jit, wrong_op_inside_a_reduction_step)
{
	static const struct { const char *sample, *from, *to; } cases[] = {
		{"sum", "add.i32 __2_2, s, __2_1 @ arrays=0 bitlines=0:1:8",
		 "sub.i32 __2_2, s, __2_1 @ arrays=0 bitlines=0:1:8"},
		{"ssum", "add.i32 __2_2, s, __2_1 @ arrays=0:1:31",
		 "sub.i32 __2_2, s, __2_1 @ arrays=0:1:31"},
	};
	for (size_t c = 0; c < 2; c++) {
		const sample *s = NULL;
		for (size_t k = 0; k < NSAMPLES; k++)
			if (strcmp(samples[k].name, cases[c].sample) == 0)
				s = &samples[k];
		char tp[512];
		text t;
		start(s, tp, sizeof tp, &t);
		const edit e = {cases[c].from, cases[c].to};
		const size_t i = apply(&t, &e);
		cr_assert(text_write_in(&t, tmpdir, "subop.ins"));
		text_free(&t);
		emu_valid_report rep;
		cr_assert_eq(validate("subop.ins", tp, &rep), 1, "%s: not caught", s->name);
		cr_assert_gt(rep.wrong_op, 0, "%s: the sub (line %d) not named:\n%s", s->name,
			     line_of(i), rep.text);
		cr_expect(strstr(rep.text, "computes sub.i32, but node 's' (") != NULL, "%s", rep.text);
		cr_expect(strstr(rep.text, "reduces with add.i32: a wrong operation") != NULL, "%s",
			  rep.text);
		names_line(&rep, "subop.ins", line_of(i), s->name);
	}
}

/* A strm node's marker without `strm`: its stream does not run, and
 * the report says so. */
Test(valid_jit, strm_marker_without_strm)
{
	const sample *s = &samples[4];
	char tp[512];
	text t;
	start(s, tp, sizeof tp, &t);
	const edit e = {"node s strm", "node s"};
	apply(&t, &e);
	cr_assert(text_write_in(&t, tmpdir, "nostrm.ins"));
	text_free(&t);
	emu_valid_report rep;
	cr_assert_eq(validate("nostrm.ins", tp, &rep), 1);
	cr_expect(strstr(rep.text, "node 's' is a strm node, and this marker has no 'strm'") != NULL,
		  "%s", rep.text);
}

/* ---- data that hide a bug, and vacuous checks ---- */

Test(valid_jit, generated_inputs_find_a_bug_the_data_hide)
{
	/* blur's iota data hide a 16-bit add: its sums fit in 16 bits */
	char tp[512];
	text t;
	start(&samples[0], tp, sizeof tp, &t);
	apply(&t, &samples[0].narrow);
	cr_assert(text_write_in(&t, tmpdir, "narrow.ins"));
	text_free(&t);
	result r = run("run narrow.ins --tdfg %s", tp);
	cr_expect_eq(r.status, 0, "%s", r.err);
	result_free(&r);
	r = run("run narrow.ins --tdfg %s --inputs=random", tp);
	cr_expect_eq(r.status, 3, "%s", r.err);
	cr_expect(strstr(r.err, "note: found on the generated input set random:1 (--inputs); the "
			 "given data pass") != NULL, "%s", r.err);
	cr_expect(strstr(r.err, "writes only bits 0..15 of it") != NULL, "%s", r.err);
	result_free(&r);
	/* zeros hide a sub for an add (0 - 0 = 0 + 0); edge values do not */
	write_file("zero.tdfg", zero_tdfg);
	r = run("jit zero.tdfg -o zero.ins");
	cr_assert_eq(r.status, 0, "%s", r.err);
	result_free(&r);
	lowered(strcat(strcpy(tp, tmpdir), "/zero.tdfg"), &t);
	const edit sub = {"add.i32 y, X, X", "sub.i32 y, X, X"};
	apply(&t, &sub);
	cr_assert(text_write_in(&t, tmpdir, "zsub.ins"));
	text_free(&t);
	r = run("run zsub.ins --tdfg zero.tdfg");
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.err, "warning: --tdfg: the check of 1 node is vacuous: 'y' (line 4)") !=
		  NULL, "%s", r.err);
	result_free(&r);
	r = run("run zsub.ins --tdfg zero.tdfg --inputs=random:2,edge:3");
	cr_expect_eq(r.status, 3, "%s", r.err);
	cr_expect(strstr(r.err, "the generated input set random:1 (--inputs)") != NULL, "%s", r.err);
	result_free(&r);
	r = run("run zsub.ins --tdfg zero.tdfg --inputs=edge");
	cr_expect_eq(r.status, 3, "%s", r.err);
	cr_expect(strstr(r.err, "the generated input set edge:1 (--inputs)") != NULL, "%s", r.err);
	result_free(&r);
	/* the unbroken stream holds on every set, and says how many */
	r = run("run zero.ins --tdfg zero.tdfg --inputs=random:2,edge:3");
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "(the given data and 5 generated input sets)") != NULL, "%s", r.out);
	cr_expect(strstr(r.err, "vacuous") == NULL, "%s", r.err);
	result_free(&r);
}

Test(valid_jit, inputs_option_errors)
{
	static const struct { const char *arg, *want; } bad[] = {
		{"--inputs=foo", "--inputs 'foo': expected random[:N] or edge[:N], found 'foo'"},
		{"--inputs=random:0", "--inputs 'random:0': expected a number of sets from 1 to 1000"},
		{"--inputs=edge:1001", "expected a number of sets from 1 to 1000 after 'edge:'"},
		{"--inputs=edge,edge", "--inputs 'edge,edge': 'edge' is given twice"},
		{"--inputs=random,", "--inputs 'random,': expected a set after ','"},
		{"--inputs=", "--inputs '': expected random[:N] or edge[:N]"},
	};
	write_file("zero.tdfg", zero_tdfg);
	result r = run("jit zero.tdfg -o zero.ins");
	result_free(&r);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		r = run("run zero.ins --tdfg zero.tdfg %s", bad[i].arg);
		cr_expect_eq(r.status, 2, "%s: %s", bad[i].arg, r.err);
		cr_expect(strstr(r.err, bad[i].want) != NULL, "%s: %s", bad[i].arg, r.err);
		result_free(&r);
	}
	r = run("run zero.ins --inputs=random");
	cr_expect_eq(r.status, 2, "%s", r.err);
	cr_expect(strstr(r.err, "--inputs validates on generated data against a tDFG; give it "
			 "with --tdfg FILE") != NULL, "%s", r.err);
	result_free(&r);
}

/* A node no marker holds is named; a stream without markers is warned
 * about (test_valid.c checks that one). */
Test(valid_jit, node_never_checked)
{
	char tp[512];
	text t;
	start(&samples[1], tp, sizeof tp, &t);
	drop_line(&t, find_from(&t, 0, "node s1"));
	cr_assert(text_write_in(&t, tmpdir, "nos1.ins"));
	text_free(&t);
	result r = run("run nos1.ins --tdfg %s", tp);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.err, "nos1.ins: warning: --tdfg: 1 node of ") != NULL, "%s", r.err);
	cr_expect(strstr(r.err, "is never checked: 's1' (line 5); no marker holds it") != NULL, "%s",
		  r.err);
	result_free(&r);
}

/* Edge values are the element type's: for f32 signed zeros, infinities
 * and a NaN among the random ones. */
Test(valid_jit, edge_values_of_the_element_type)
{
	static const char f32_tdfg[] = MACHINE
		"region f 64x4\n"
		"X = input f32 init=zero\n"
		"y = add.f32 X, X\n"
		"output y\n";
	write_file("f.tdfg", f32_tdfg);
	result r = run("jit f.tdfg -o f.ins");
	cr_assert_eq(r.status, 0, "%s", r.err);
	result_free(&r);
	char sp[512], tp[512];
	snprintf(sp, sizeof sp, "%s/f.ins", tmpdir);
	snprintf(tp, sizeof tp, "%s/f.tdfg", tmpdir);
	emu_program p;
	emu_tdfg g;
	diag d;
	diag_clear(&d);
	emu_tdfg_init(&g);
	cr_assert_eq(emu_load_file(sp, NULL, &p, &d), 0, "%s", d.msg);
	cr_assert_eq(emu_program_lower(&p, &d), 0, "%s", d.msg);
	cr_assert_eq(emu_tdfg_parse_file(tp, &p.geom, NULL, &g, &d), 0, "%s", d.msg);
	emu_valid *v = emu_valid_new(&g, &p, &d);
	cr_assert_not_null(v, "%s", d.msg);
	cr_assert_eq(emu_valid_generate(v, EMU_VALID_EDGE, 1, &d), 0, "%s", d.msg);
	const emu_buffer *b;
	const uint64_t *x = emu_valid_loaded(v, 0, &b);
	cr_assert_not_null(x);
	cr_assert_str_eq(b->name, "X");
	bool nz = false, inf = false, nan = false;
	for (uint64_t e = 0; e < b->length; e++) {
		nz |= x[e] == 0x80000000u;
		inf |= x[e] == 0x7f800000u || x[e] == 0xff800000u;
		nan |= (x[e] & 0x7f800000u) == 0x7f800000u && (x[e] & 0x7fffffu);
	}
	cr_expect(nz && inf && nan, "-0 %d, inf %d, nan %d", nz, inf, nan);
	emu_valid_report rep;
	cr_expect_eq(emu_valid_drive(v, &rep, &d), 0, "%s%s", d.msg, rep.text);
	emu_valid_free(v);
	emu_tdfg_free(&g);
	emu_program_free(&p);
}

/* ---- a stream validated against an artifact's tDFG (.json) ---- */

Test(valid_jit, tdfg_from_the_artifact_json)
{
	char jp[512];
	snprintf(jp, sizeof jp, "%s/tests/data/json/stencil1d_f32.json", SRCDIR);
	result r = run("jit %s --type f32 -o j.ins", jp);
	cr_assert_eq(r.status, 0, "%s", r.err);
	result_free(&r);
	r = run("run j.ins --tdfg %s --type f32", jp);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "check points of ") != NULL, "%s", r.out);
	result_free(&r);
	/* a wrong shift distance, at the node that made it */
	char sp[512];
	snprintf(sp, sizeof sp, "%s/j.ins", tmpdir);
	char *s = proc_slurp(sp, NULL);
	cr_assert_not_null(s);
	text t;
	text_split(&t, s);
	free(s);
	const edit e = {"move n3, n0, +1", "move n3, n0, +2"};
	const size_t i = apply(&t, &e);
	cr_assert(text_write_in(&t, tmpdir, "jb.ins"));
	text_free(&t);
	char want[64];
	snprintf(want, sizeof want, "jb.ins:%d: mv.intra dist=2", line_of(i));
	expect_cli(3, want, "run jb.ins --tdfg %s --type f32", jp);
	expect_cli(3, "error: node 'n3' (", "run jb.ins --tdfg %s --type f32", jp);
	/* the JSON has no element type, and no size parameters */
	expect_cli(2, "has no element type; give one with --type", "run j.ins --tdfg %s", jp);
	expect_cli(2, "-D N: parameters are a tDFG's (.tdfg)", "run j.ins --tdfg %s --type f32 -D N=3",
		   jp);
	/* and infsdb: check every node stops at the same node */
	char cmd[2048];
	snprintf(cmd, sizeof cmd, "cd '%s' && '%s' -batch -nx --tdfg '%s' --type f32 -ex 'check "
		 "every node' -ex run jb.ins", tmpdir, INFSDB_BIN, jp);
	char *out = NULL;
	const int st = proc_shell(cmd, &out);
	cr_expect_eq(st, 3, "%s", out);
	cr_expect(out && strstr(out, "error: node 'n3' (") != NULL, "%s", out);
	free(out);
}

/* In gauss_elim a tensor node's box (the pivot, A's element (k, k))
 * keeps its value once its run is over, so the next run's marker of it
 * could hold either; it holds the next run's, and a wrong op in run 7
 * is reported there, not at a run the binding fell behind to. */
Test(valid_jit, tensor_boxes_the_runs_leave_alone)
{
	char tp[512];
	snprintf(tp, sizeof tp, "%s/samples/tdfg/gauss_elim.tdfg", SRCDIR);
	text t;
	lowered(tp, &t);
	const size_t run7 = find_from(&t, 0, "# for k = 0, 15 (line 30): k = 6");
	cr_assert_neq(run7, SIZE_MAX);
	const size_t i = find_from(&t, run7, "div.f32 m, ");
	cr_assert_neq(i, SIZE_MAX);
	char line[512];
	snprintf(line, sizeof line, "mul.f32 %s", t.l[i] + strlen("div.f32 "));
	replace_line(&t, i, line);
	cr_assert(text_write_in(&t, tmpdir, "ge.ins"));
	text_free(&t);
	/* the sample's A comes from a file next to it, which the stream's
	 * comments ask for as --load (as infsim run does with the tDFG's
	 * load=) */
	emu_valid_report rep;
	cr_assert_eq(validate("ge.ins", tp, &rep), 1);
	cr_expect(strstr(rep.text, "node 'm' (") != NULL, "%s", rep.text);
	cr_expect(strstr(rep.text, "in run 7 of region 'elim' (with k = 6)") != NULL, "%s", rep.text);
	cr_expect_gt(rep.wrong_op, 0, "%s", rep.text);
	names_line(&rep, "ge.ins", line_of(i), "gauss_elim");
}
