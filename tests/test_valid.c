/* SPDX-License-Identifier: MIT */
/*
 * test_valid.c: a stream validated against its tDFG (emu/validate.h,
 * doc/TDFG.md "Validating a stream").  Every sample tDFG is lowered by
 * infsim's JIT, then broken by hand, each way a JIT goes wrong: a wrong
 * intra-array shift distance, a wrong inter-array tile distance, a wrong
 * wordline on one move, a dropped mv.intra, a dropped compute piece, a
 * dropped sync, the operands of a sub swapped, a wrong element type on
 * one compute command, a broadcast along the wrong dimension.  Each must
 * be caught at the node whose marker follows the edit, with the guilty
 * command (or, for a dropped one, the node's window) named, by the
 * library, by `infsim run --tdfg` and by infsdb's `check every node`.
 * The unbroken streams pass.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RUN_TMP_PREFIX "infsim-valid"
#include "infsim_run.h"
#include "stream_text.h"
#include "tdfg.h"
#include "validate.h"

static const char *const samples[] = {"stencil", "outer", "saxpy", "relu", "scale_i16",
				       "sin_q32", "diff"};
#define NSAMPLES (sizeof samples / sizeof samples[0])

static void text_write(const text *t, const char *name)
{
	cr_assert(text_write_in(t, tmpdir, name), "%s/%s: cannot write", tmpdir, name);
}

static void sample_path(const char *name, char *buf, size_t size)
{
	snprintf(buf, size, "%s/samples/tdfg/%s.tdfg", SRCDIR, name);
}

/* The sample's lowered stream: as the JIT writes it (moves as `move`
 * lines), or disassembled (moves as the mv.* commands they become). */
static void lowered(const char *tdfg_text_or_path, bool is_text, bool disasm, text *out)
{
	emu_tdfg t;
	emu_jit j;
	diag d;
	diag_clear(&d);
	emu_tdfg_init(&t);
	if (is_text) {
		const sram_geom g = sram_geom_default();
		cr_assert_eq(emu_tdfg_parse("v.tdfg", tdfg_text_or_path, strlen(tdfg_text_or_path),
					    &g, NULL, &t, &d), 0, "%s", d.msg);
		cr_assert_eq(emu_jit_lower(&t, &j, &d), 0, "%s", d.msg);
	} else {
		cr_assert_eq(emu_tdfg_load(tdfg_text_or_path, NULL, &t, &j, &d), 0, "%s", d.msg);
	}
	char *s = disasm ? emu_format(&j.prog) : strdup(j.text);
	cr_assert_not_null(s);
	text_split(out, s);
	free(s);
	emu_jit_free(&j);
	emu_tdfg_free(&t);
}

/* What a break is expected to give. */
typedef struct expect {
	char node[EMU_NAME_MAX]; /* the node whose marker follows the edit */
	int line, line_end;      /* the edited lines (1-based; line_end 0: line) */
	bool dropped;            /* a line was deleted: no command to name */
} expect;

/* The node of the first marker at or after line index i. */
static bool next_marker(const text *t, size_t i, expect *e)
{
	for (; i < t->n; i++)
		if (strncmp(t->l[i], "node ", 5) == 0) {
			snprintf(e->node, sizeof e->node, "%s", t->l[i] + 5);
			return true;
		}
	return false;
}

/* The first line starting with p, or SIZE_MAX. */
static size_t find(const text *t, const char *p)
{
	for (size_t i = 0; i < t->n; i++)
		if (starts(t->l[i], p))
			return i;
	return SIZE_MAX;
}

/* ---- the breaks: each edits t, fills e; false when t has nothing to break ---- */

/* `move D, S, +1, +0` moves by 2 (its mv.intra shift by 2). */
static bool wrong_intra_distance(text *t, expect *e)
{
	const size_t i = find(t, "move ");
	if (i == SIZE_MAX)
		return false;
	char *one = strstr(t->l[i], "+1");
	char *neg = strstr(t->l[i], "-1");
	char *at = one ? one : neg;
	if (!at)
		return false;
	at[1] = '2';
	e->line = (int)i + 1;
	return next_marker(t, i, e);
}

/* "KEY=V" in line s: V, or INT64_MIN. */
static long long field(const char *s, const char *key)
{
	const char *p = strstr(s, key);
	return p ? strtoll(p + strlen(key), NULL, 10) : INT64_MIN;
}

static void set_field(text *t, size_t i, const char *key, long long v)
{
	const char *s = t->l[i], *p = strstr(s, key);
	const char *rest = p + strlen(key);
	while (*rest == '-' || (*rest >= '0' && *rest <= '9'))
		rest++;
	char buf[1024];
	snprintf(buf, sizeof buf, "%.*s%s%lld%s", (int)(p - s), s, key, v, rest);
	replace_line(t, i, buf);
}

static bool parses(const text *t)
{
	size_t len = 0;
	for (size_t i = 0; i < t->n; i++)
		len += strlen(t->l[i]) + 1;
	char *all = malloc(len + 1), *p = all;
	for (size_t i = 0; i < t->n; i++)
		p += sprintf(p, "%s\n", t->l[i]);
	emu_program q;
	diag d;
	diag_clear(&d);
	const bool ok = emu_parse("t.ins", all, len, NULL, &q, &d) == 0;
	if (ok)
		emu_program_free(&q);
	free(all);
	return ok;
}

/* An mv.inter sends one tile further or nearer (the first whose new
 * distance the machine's arrays allow). */
static bool wrong_inter_distance(text *t, expect *e)
{
	for (size_t i = 0; i < t->n; i++) {
		if (!starts(t->l[i], "mv.inter "))
			continue;
		const long long d = field(t->l[i], "dist=");
		char *keep = strdup(t->l[i]);
		for (int k = 0; k < 2; k++) {
			const long long nd = d + (k ? -1 : 1);
			if (nd == 0)
				continue;
			set_field(t, i, "dist=", nd);
			if (parses(t)) {
				free(keep);
				e->line = (int)i + 1;
				return next_marker(t, i, e);
			}
			replace_line(t, i, keep);
		}
		free(keep);
	}
	return false;
}

/* The first move reads from one wordline up. */
static bool wrong_wordline(text *t, expect *e)
{
	for (size_t i = 0; i < t->n; i++)
		if (starts(t->l[i], "mv.intra ") || starts(t->l[i], "mv.inter ")) {
			set_field(t, i, " wl=", field(t->l[i], " wl=") + 1);
			e->line = (int)i + 1;
			return next_marker(t, i, e);
		}
	return false;
}

static bool drop_first(text *t, expect *e, const char *prefix)
{
	const size_t i = find(t, prefix);
	if (i == SIZE_MAX)
		return false;
	drop_line(t, i);
	e->line = (int)i + 1;
	e->dropped = true;
	return next_marker(t, i, e);
}

static bool dropped_intra(text *t, expect *e)
{
	return drop_first(t, e, "mv.intra ");
}

static bool dropped_sync(text *t, expect *e)
{
	return drop_first(t, e, "sync");
}

/* The first compute command (a line with " @ arrays=", not a move)
 * that starts with want. */
static size_t first_compute(const text *t, const char *want)
{
	for (size_t i = 0; i < t->n; i++)
		if (strstr(t->l[i], " @ arrays=") && !starts(t->l[i], "mv.") &&
		    starts(t->l[i], want))
			return i;
	return SIZE_MAX;
}

/* Not a `set`: a constant 0 dropped leaves the zeros the SRAM starts
 * with, the node's right value (only the unwritten-read hazard of its
 * readers tells). */
static bool dropped_piece(text *t, expect *e)
{
	size_t i = SIZE_MAX;
	for (size_t k = 0; k < t->n && i == SIZE_MAX; k++)
		if (strstr(t->l[k], " @ arrays=") && !starts(t->l[k], "mv.") &&
		    !starts(t->l[k], "set."))
			i = k;
	if (i == SIZE_MAX)
		return false;
	drop_line(t, i);
	e->line = (int)i + 1;
	e->dropped = true;
	return next_marker(t, i, e);
}

/* sub.T d, a, b @ ...  ->  sub.T d, b, a @ ... */
static bool swapped_sub(text *t, expect *e)
{
	const size_t i = find(t, "sub.");
	if (i == SIZE_MAX)
		return false;
	char op[32], d[80], a[80], b[80], rest[512], buf[1024];
	cr_assert_eq(sscanf(t->l[i], "%31s %79[^,], %79[^,], %79s %511[^\n]", op, d, a, b, rest), 5);
	snprintf(buf, sizeof buf, "%s %s, %s, %s %s", op, d, b, a, rest);
	replace_line(t, i, buf);
	e->line = (int)i + 1;
	return next_marker(t, i, e);
}

/* The first f32 compute command as i32 (or a signed comparison as an
 * unsigned one), its operands given as raw wordlines (wl:N), which the
 * assembler cannot type-check against the tensors. */
static bool wrong_type(text *t, expect *e)
{
	/* commands whose result on the other type's reading of the same
	 * bits is sure to differ (an i32 product of floats' bits may be 0) */
	static const char *const ops[][3] = {{"add.f32 ", ".f32", ".i32"},
		{"sub.f32 ", ".f32", ".i32"}, {"gt.i16 ", ".i16", ".u16"}};
	size_t i = SIZE_MAX;
	const char *from = NULL, *to = NULL;
	for (size_t k = 0; k < 3 && i == SIZE_MAX; k++) {
		i = first_compute(t, ops[k][0]);
		from = ops[k][1];
		to = ops[k][2];
	}
	if (i == SIZE_MAX || strstr(t->l[i], "cvt."))
		return false;
	emu_program p;
	diag d;
	diag_clear(&d);
	char all[1 << 16] = "";
	for (size_t k = 0; k < t->n; k++) /* the declarations give the wordlines */
		if (starts(t->l[k], "machine") || starts(t->l[k], "scratch") || starts(t->l[k], "tensor"))
			strcat(strcat(all, t->l[k]), "\n");
	strcat(strcat(all, t->l[i]), "\n");
	cr_assert_eq(emu_parse("w.ins", all, strlen(all), NULL, &p, &d), 0, "%s", d.msg);
	const isa_cmd *c = &p.cmds[p.ncmds - 1].c;
	const char *dot = strstr(t->l[i], from), *at = strstr(t->l[i], " @ ");
	char buf[1024];
	int n = snprintf(buf, sizeof buf, "%.*s%s wl:%u, wl:%u", (int)(dot - t->l[i]), t->l[i], to,
			 c->d, c->a);
	if (c->b != ISA_NONE)
		n += snprintf(buf + n, sizeof buf - (size_t)n, ", wl:%u", c->b);
	if (c->c3 != ISA_NONE)
		n += snprintf(buf + n, sizeof buf - (size_t)n, ", wl:%u", c->c3);
	snprintf(buf + n, sizeof buf - (size_t)n, "%s", at);
	emu_program_free(&p);
	replace_line(t, i, buf);
	e->line = (int)i + 1;
	return next_marker(t, i, e);
}

/* outer.tdfg's A = bcast a, 1, replaced by the commands the JIT writes
 * for a broadcast along dimension 0 of the same wordlines and tile. */
static bool wrong_bcast_dim(text *t, expect *e)
{
	const size_t i = find(t, "node A");
	if (i == SIZE_MAX || find(t, "tensor a f32 64x32 ") == SIZE_MAX)
		return false;
	size_t first = i;
	while (first > 0 && (starts(t->l[first - 1], "mv.") || starts(t->l[first - 1], "sync")))
		first--;
	const char *variant =
		"machine wordlines=512 bitlines=64 arrays=4 ways=2 mesh=2x2\n"
		"region outer 64x32 tile=2x32\n"
		"a = input f32 box=0:1,0:1 init=iota\n"
		"b = input f32 box=0:1,0:32 init=iota\n"
		"A = bcast a, 0\n"
		"B = bcast b, 0\n"
		"o = mul.f32 A, B\n"
		"output o\n";
	text v;
	lowered(variant, true, true, &v);
	const size_t vi = find(&v, "node A");
	size_t vfirst = vi;
	while (vfirst > 0 && (starts(v.l[vfirst - 1], "mv.") || starts(v.l[vfirst - 1], "sync")))
		vfirst--;
	for (size_t k = first; k < i; k++) /* A's commands out */
		drop_line(t, first);
	for (size_t k = vfirst; k < vi; k++) { /* the variant's in */
		t->l = realloc(t->l, (t->n + 1) * sizeof *t->l);
		memmove(t->l + first + (k - vfirst) + 1, t->l + first + (k - vfirst),
			(t->n - first - (k - vfirst)) * sizeof *t->l);
		t->l[first + (k - vfirst)] = strdup(v.l[k]);
		t->n++;
	}
	e->line = (int)first + 1;
	e->line_end = (int)(first + vi - vfirst);
	text_free(&v);
	return next_marker(t, first, e);
}

typedef struct brk {
	const char *name;
	bool disasm;               /* on the disassembled stream */
	bool (*apply)(text *, expect *);
} brk;

static const brk breaks[] = {
	{"wrong intra shift distance", false, wrong_intra_distance},
	{"wrong inter-array tile distance", true, wrong_inter_distance},
	{"wrong wordline on one move", true, wrong_wordline},
	{"dropped mv.intra", true, dropped_intra},
	{"dropped compute piece", true, dropped_piece},
	{"dropped sync", true, dropped_sync},
	{"swapped operands of a sub", true, swapped_sub},
	{"wrong element type", true, wrong_type},
	{"broadcast along the wrong dimension", true, wrong_bcast_dim},
};
#define NBREAKS (sizeof breaks / sizeof breaks[0])

/* ---- the three ways to validate ---- */

/* The library: the node, and the guilty command's line (a command
 * that wrote a wrong bit, or sent it and was not synced), or for a
 * dropped line a window that holds where it was. */
static void check_library(const char *what, const char *sample, const expect *e,
			  emu_valid_report *rep)
{
	char sp[512], bp[512];
	diag d;
	diag_clear(&d);
	sample_path(sample, sp, sizeof sp);
	snprintf(bp, sizeof bp, "%s/b.ins", tmpdir);
	const int rc = emu_valid_files(bp, sp, rep, &d);
	cr_assert_eq(rc, 1, "%s, %s: not caught (%d) %s", sample, what, rc, d.msg);
	cr_expect(strstr(rep->text, e->node) != NULL, "%s", rep->text);
	char want[EMU_NAME_MAX + 16];
	snprintf(want, sizeof want, "node '%s' (", e->node);
	cr_expect(strstr(rep->text, want) != NULL, "%s, %s: wanted %s in:\n%s", sample, what, want,
		  rep->text);
	if (rep->cause == EMU_VALID_UNWRITTEN) {
		cr_expect(e->dropped || strcmp(what, "wrong wordline on one move") == 0 ||
			  rep->elsewhere, "%s, %s: no command named:\n%s", sample, what, rep->text);
		return;
	}
	cr_expect(rep->guilty > 0 && rep->guilty <= rep->at, "%s", rep->text);
	if (!e->dropped)
		cr_expect((rep->guilty_line >= e->line &&
			   rep->guilty_line <= (e->line_end ? e->line_end : e->line)) ||
			  rep->cause == EMU_VALID_IN_FLIGHT,
			  "%s, %s: guilty line %d, edited %d:\n%s", sample, what, rep->guilty_line,
			  e->line, rep->text);
}

/* The report's note up to the command's place, which names the stream
 * by the path it was given. */
static void note_of(const emu_valid_report *rep, char *buf, size_t size)
{
	const char *note = strstr(rep->text, ": note: ");
	cr_assert_not_null(note, "%s", rep->text);
	snprintf(buf, size, "%.*s", (int)strcspn(note, "(\n"), note);
}

/* infsim run --tdfg --check: exit 3 and the library's report; *stops
 * the commands up to the check point with hazards (infsdb stops at
 * each). */
static void check_cli(const char *what, const char *sample, const emu_valid_report *rep,
		      unsigned *stops)
{
	char sp[512];
	sample_path(sample, sp, sizeof sp);
	result r = run("run b.ins --tdfg %s --check", sp);
	cr_expect_eq(r.status, 3, "%s, %s: %s", sample, what, r.err);
	/* the library names the stream by its full path, the run by b.ins */
	char note[256];
	note_of(rep, note, sizeof note);
	cr_expect(strstr(r.err, note), "%s, %s:\n%s\nvs\n%s", sample, what, r.err, rep->text);
	size_t last = 0, cmd;
	*stops = 0;
	for (const char *p = r.err; (p = strstr(p, "warning: command ")); p++)
		if (sscanf(p, "warning: command %zu", &cmd) == 1 && cmd != last && cmd < rep->at) {
			(*stops)++;
			last = cmd;
		}
	result_free(&r);
}

/* infsdb -batch: check every node, run: the same report, exit 3. */
static void check_dbg(const char *what, const char *sample, const emu_valid_report *rep,
		      unsigned stops)
{
	char sp[512], args[1200], more[512] = "";
	sample_path(sample, sp, sizeof sp);
	for (unsigned k = 0; k < stops && k < 40; k++)
		strcat(more, " -ex continue");
	snprintf(args, sizeof args, "-batch -nx -ex 'check every node' -ex run%s --tdfg %s b.ins",
		 more, sp);
	proc_result r = proc_run_in(tmpdir, INFSDB_BIN, args);
	cr_assert(r.status >= 0 && r.out);
	cr_expect_eq(r.status, 3, "%s, %s: %s %s", sample, what, r.out, r.err);
	char note[256];
	note_of(rep, note, sizeof note);
	cr_expect(strstr(r.out, note), "%s, %s:\n%s\nvs\n%s", sample, what, r.out, rep->text);
	proc_result_free(&r);
}

TestSuite(valid, .init = make_tmpdir, .fini = remove_tmpdir, .timeout = 600);

Test(valid, every_break_of_every_sample_is_caught)
{
	size_t caught[NBREAKS] = {0};
	for (size_t s = 0; s < NSAMPLES; s++)
		for (size_t b = 0; b < NBREAKS; b++) {
			char sp[512];
			text t;
			expect e;
			memset(&e, 0, sizeof e);
			sample_path(samples[s], sp, sizeof sp);
			lowered(sp, false, breaks[b].disasm, &t);
			if (!breaks[b].apply(&t, &e)) {
				text_free(&t);
				continue;
			}
			text_write(&t, "b.ins");
			text_free(&t);
			emu_valid_report rep;
			check_library(breaks[b].name, samples[s], &e, &rep);
			unsigned stops;
			check_cli(breaks[b].name, samples[s], &rep, &stops);
			check_dbg(breaks[b].name, samples[s], &rep, stops);
			caught[b]++;
		}
	for (size_t b = 0; b < NBREAKS; b++)
		cr_expect(caught[b] > 0, "no sample has what '%s' breaks", breaks[b].name);
}

Test(valid, correct_streams_pass)
{
	for (size_t s = 0; s < NSAMPLES; s++)
		for (int dis = 0; dis < 2; dis++) {
			char sp[512], bp[512];
			text t;
			emu_valid_report rep;
			diag d;
			diag_clear(&d);
			sample_path(samples[s], sp, sizeof sp);
			lowered(sp, false, dis, &t);
			text_write(&t, "ok.ins");
			text_free(&t);
			snprintf(bp, sizeof bp, "%s/ok.ins", tmpdir);
			cr_expect_eq(emu_valid_files(bp, sp, &rep, &d), 0, "%s: %s%s", samples[s], d.msg,
				     rep.text);
			result r = run("run ok.ins --tdfg %s --check --strict", sp);
			cr_expect_eq(r.status, 0, "%s: %s", samples[s], r.err);
			cr_expect(strstr(r.out, "--tdfg: ") != NULL, "%s", r.out);
			result_free(&r);
		}
}

/* Without markers the outputs are compared at the end, by name. */
Test(valid, outputs_by_name_without_markers)
{
	char sp[512];
	text t;
	sample_path("stencil", sp, sizeof sp);
	lowered(sp, false, true, &t);
	for (size_t i = t.n; i-- > 0;)
		if (starts(t.l[i], "node "))
			drop_line(&t, i);
	text_write(&t, "bare.ins");
	const size_t k = first_compute(&t, "add.f32 S,"); /* S's first piece */
	cr_assert_neq(k, SIZE_MAX);
	drop_line(&t, k);
	text_write(&t, "bare_bad.ins");
	text_free(&t);
	result r = run("run bare.ins --tdfg %s", sp);
	cr_expect_eq(r.status, 0, "%s", r.err);
	/* the output, the input left as it was, no stray write */
	cr_expect(strstr(r.out, "--tdfg: 3 check points of"), "%s", r.out);
	cr_expect(strstr(r.err, "bare.ins: warning: --tdfg: the stream has no node markers"), "%s",
		  r.err);
	result_free(&r);
	r = run("run bare_bad.ins --tdfg %s", sp);
	cr_expect_eq(r.status, 3, "%s", r.err);
	cr_expect(strstr(r.err, "bare_bad.ins: error: output 'S' ("), "%s", r.err);
	cr_expect(strstr(r.err, "at the end of the stream"), "%s", r.err);
	result_free(&r);
}

/* Markers round-trip through the disassembler and the binary form. */
Test(valid, markers_round_trip)
{
	static const char s[] = "machine wordlines=256 bitlines=64 arrays=4 ways=2 mesh=2x2\n"
				"tensor X f32 64x32 wl=0 array=0 tile=8x8 init=iota\n"
				"tensor Y f32 64x32 wl=32 array=0 tile=8x8\n"
				"node X\n"
				"copy.f32 Y, X @ arrays=0:1:32 bitlines=0:1:64\n"
				"node Z tensor=Y\n"
				"node X\n";
	emu_program p, q;
	diag d;
	diag_clear(&d);
	cr_assert_eq(emu_parse("m.ins", s, sizeof s - 1, NULL, &p, &d), 0, "%s", d.msg);
	cr_assert_eq(p.nmarks, 3);
	cr_expect_eq(p.marks[0].at, 0);
	cr_expect_eq(p.marks[1].at, 1);
	cr_expect_str_eq(p.marks[1].name, "Z");
	cr_expect_eq(p.marks[1].buf, 1);
	cr_expect_eq(p.marks[1].line, 6);
	char *t1 = emu_format(&p);
	cr_expect(strstr(t1, "node X\ncopy.f32 Y, X @ arrays=0:1:32 bitlines=0:1:64\nnode Z "
			 "tensor=Y\nnode X\n"), "%s", t1);
	uint64_t *w;
	size_t n;
	cr_assert_eq(emu_encode(&p, &w, &n, &d), 0, "%s", d.msg);
	cr_assert_eq(emu_decode("m.inb", w, n, &q, &d), 0, "%s", d.msg);
	char *t2 = emu_format(&q);
	cr_expect_str_eq(t1, t2);
	cr_expect_eq(q.marks[2].at, 1);
	cr_expect_eq(q.marks[2].line, 0);
	/* a marker's tensor index past the buffers is refused */
	w[n - 1] = 1 | UINT64_C(9) << 48;
	emu_program r;
	cr_expect_eq(emu_decode("m.inb", w, n, &r, &d), -1);
	cr_expect(strstr(d.msg, "node marker: its tensor index does not exist"), "%s", d.msg);
	free(t1);
	free(t2);
	free(w);
	emu_program_free(&p);
	emu_program_free(&q);
}

Test(valid, marker_and_binding_errors)
{
	static const struct { const char *line, *want; } bad[] = {
		{"node", "m.ins:4:5: error: expected the name of a tDFG node after 'node'"},
		{"node Q", "m.ins:4:6: error: node 'Q': no tensor 'Q' is declared; name the one that "
			   "holds it with tensor=NAME"},
		{"node X tensor=", "m.ins:4:15: error: expected a tensor name after 'tensor='"},
		{"node X tensor=Q", "m.ins:4:15: error: node 'X': no tensor 'Q' is declared"},
		{"node X foo", "m.ins:4:8: error: unexpected 'foo' after the node marker's name; "
			       "expected tensor=NAME, strm, run=N, PARAM=VALUE or the end of the line"},
		{"node X strm junk", "m.ins:4:13: error: unexpected 'junk' after the node marker's "
				     "name"},
		{"node X tensor=X junk", "m.ins:4:17: error: unexpected 'junk' after the node marker"},
		{"node X strm strm", "m.ins:4:13: error: unexpected 'strm' after the node marker's"},
		{"node X tensor=X tensor=X", "m.ins:4:17: error: unexpected 'tensor=X' after the"},
		{"node X run=0", "m.ins:4:12: error: run=0 is out of range; runs are numbered from 1"},
		{"node X run=-2", "m.ins:4:12: error: run=-2 is out of range"},
		{"node X run=", "m.ins:4:12: error: expected the run's number (1 for the region's first "
				"run) after 'run='"},
		{"node X k=1 k=2", "m.ins:4:12: error: node 'X': 'k=' is given twice"},
		{"node X k=x", "m.ins:4:10: error: expected a parameter value, found 'x'"},
		{"node X k=1,", "m.ins:4:11: error: unexpected ',' in the node marker; expected a "
				"space or the end of the line"},
		{"node X a=1 b=2 c=3 d=4 e=5", "m.ins:4:24: error: node 'X': at most 4 selectors"},
		{"node X tensor=T", "m.ins:4:15: error: node 'X': tensor 'T' is declared scratch, so it "
				    "holds no tDFG node"},
		{"node X tensor=b", "m.ins:4:15: error: node 'X': 'b' is a buffer, not a tensor"},
		{"nodee X", "m.ins:4:1: error: unknown command 'nodee'; did you mean 'node'?"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char s[512];
		emu_program p;
		diag d;
		diag_clear(&d);
		snprintf(s, sizeof s, "tensor X f32 64x32 wl=0 array=0 tile=8x8 init=iota\n"
			 "tensor T f32 64x32 wl=64 array=0 tile=8x8 scratch\n"
			 "buffer b u8 64 wl=40 arrays=0\n%s\n", bad[i].line);
		cr_expect_eq(emu_parse("m.ins", s, strlen(s), NULL, &p, &d), -1, "%s", bad[i].line);
		cr_expect(strstr(d.msg, bad[i].want) == d.msg, "%s\nwanted: %s", d.msg, bad[i].want);
	}
	/* binding: a node the tDFG lacks, a tensor of another shape, an
	 * output nothing holds */
	char sp[512];
	sample_path("stencil", sp, sizeof sp);
	static const char head[] = "machine wordlines=256 bitlines=64 arrays=4 ways=2 mesh=2x2\n"
				   "tensor X f32 64x32 wl=0 array=0 tile=8x8 init=iota\n"
				   "tensor S f32 64x32 wl=32 array=0 tile=8x8\n"
				   "tensor s i32 64x32 wl=64 array=0 tile=8x8\n";
	text t;
	char all[1024];
	/* each stream computes something (an empty one is refused first) */
	snprintf(all, sizeof all, "%snode Q tensor=X\nadd.f32 X, X, X\n", head);
	text_split(&t, all);
	text_write(&t, "e1.ins");
	text_free(&t);
	result r = run("run e1.ins --tdfg %s", sp);
	cr_expect_eq(r.status, 1);
	cr_expect(strstr(r.err, "e1.ins:5: error: node marker 'Q': "), "%s", r.err);
	result_free(&r);
	snprintf(all, sizeof all, "%snode S tensor=s\nadd.f32 X, X, X\n", head);
	text_split(&t, all);
	text_write(&t, "e2.ins");
	text_free(&t);
	r = run("run e2.ins --tdfg %s", sp);
	cr_expect_eq(r.status, 1);
	cr_expect(strstr(r.err, "e2.ins:5: error: node 'S' ("), "%s", r.err);
	cr_expect(strstr(r.err, "is f32 64x32, but tensor 's' is i32 64x32"), "%s", r.err);
	result_free(&r);
	snprintf(all, sizeof all, "%sadd.f32 X, X, X\n", head);
	text_split(&t, all);
	replace_line(&t, 2, "tensor T f32 64x32 wl=32 array=0 tile=8x8");
	text_write(&t, "e3.ins");
	text_free(&t);
	r = run("run e3.ins --tdfg %s", sp);
	cr_expect_eq(r.status, 1);
	cr_expect(strstr(r.err, "stencil.tdfg:20:1: error: output 'S': the stream e3.ins has no "
			 "marker 'node S' and no tensor of that name"), "%s", r.err);
	result_free(&r);
	r = run("run %s --tdfg %s", sp, sp);
	cr_expect_eq(r.status, 2);
	cr_expect(strstr(r.err, "is a tDFG already"), "%s", r.err);
	result_free(&r);
}

/* Hazards on real state: a tensor nothing wrote is an unwritten read. */
Test(valid, unwritten_read_is_reported)
{
	static const char s[] = "machine wordlines=256 bitlines=64 arrays=4 ways=2 mesh=2x2\n"
				"buffer a i16 64 wl=0 arrays=0\n"
				"buffer b i16 64 wl=16 arrays=0 init=iota\n"
				"add.i16 b, a, b\n";
	text t;
	text_split(&t, s);
	text_write(&t, "u.ins");
	text_free(&t);
	result r = run("run u.ins --strict");
	cr_expect_eq(r.status, 4, "%s", r.err);
	cr_expect(strstr(r.err, "u.ins:4: error: command 1: reads bank 0, array 0, wordlines 0..15"),
		  "%s", r.err);
	cr_expect(strstr(r.err, "never written"), "%s", r.err);
	result_free(&r);
	text_split(&t, s);
	replace_line(&t, 1, "buffer a i16 64 wl=0 arrays=0 init=zero");
	text_write(&t, "w.ins");
	text_free(&t);
	r = run("run w.ins --strict");
	cr_expect_eq(r.status, 0, "init= writes it: %s", r.err);
	result_free(&r);
}

/* --check follows the tag latch as doc/COMMANDS.md gives it: a sel after
 * each command that leaves a defined tag is checked, bit for bit,
 * against the machine (a < 0 ? a : b after sub, and so on). */
Test(valid, sel_after_every_command_that_defines_the_tag)
{
	static const char s[] =
		"machine wordlines=256 bitlines=64 arrays=4 ways=2 mesh=2x2\n"
		"buffer a i16 64 wl=0 arrays=0 init=random:3\n"
		"buffer b i16 64 wl=16 arrays=0 init=random:4\n"
		"buffer d i16 64 wl=32 arrays=0\n"
		"buffer e i16 64 wl=48 arrays=0\n"
		"buffer u u16 64 wl=64 arrays=0 init=random:5\n"
		"buffer v u16 64 wl=80 arrays=0 init=random:6\n"
		"buffer w u16 64 wl=96 arrays=0\n"
		"buffer k u16 64 wl=112 arrays=0 init=iota\n"
		"sub.i16 d, a, b\nsel.i16 e, a, b\n"
		"popcnt.i16 d, a\nsel.i16 e, a, b\n"
		"min.i16 d, a, b\nsel.i16 e, a, b\n"
		"max.u16 w, u, v\nsel.u16 w, u, v\n"
		"abs.i16 d, a\nsel.i16 e, a, b\n"
		"shl.u16 w, u, k\nsel.i16 e, a, b\n"
		"sra.i16 d, a, b\nsel.i16 e, a, b\n"
		"shr.u16 w, u, k\nsel.u16 w, u, v\n"
		"search.i16 wl:200, a, #5\nsel.i16 e, a, b\n"
		"eq.i16 wl:201, a, b\nsel.i16 e, a, b\n"
		"lt.i16 tag, a, b\nneg.i16 d, a\nsel.i16 e, a, b\n"
		"add.i16 d, a, b\nsel.i16 e, a, b\n"
		"set.i16 d, #7\nsel.i16 e, a, b\n";
	text t;
	text_split(&t, s);
	text_write(&t, "tag.ins");
	text_free(&t);
	result r = run("run tag.ins --check");
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "--check: the reference model agrees"), "%s", r.out);
	result_free(&r);
	/* a command that leaves it undefined is still caught, numbered from 1 */
	static const char u[] = "machine wordlines=256 bitlines=64 arrays=4 ways=2 mesh=2x2\n"
				"buffer a i16 64 wl=0 arrays=0 init=random:3\n"
				"buffer b i16 64 wl=16 arrays=0 init=random:4\n"
				"buffer d i16 64 wl=32 arrays=0\n"
				"mul.i16 d, a, b\nsel.i16 d, a, b\n";
	text_split(&t, u);
	text_write(&t, "undef.ins");
	text_free(&t);
	r = run("run undef.ins --check");
	cr_expect_eq(r.status, 1, "%s", r.err);
	cr_expect(strstr(r.err, "undef.ins:6: error: command 2 reads the tag latch of array 0 "
			 "bitline 0, which command 1 (line 5) left undefined"), "%s", r.err);
	result_free(&r);
}

/* A binary stream keeps its markers; places without a line name the
 * stream alone. */
Test(valid, binary_stream)
{
	char sp[512];
	text t;
	sample_path("stencil", sp, sizeof sp);
	lowered(sp, false, false, &t);
	expect e;
	memset(&e, 0, sizeof e);
	cr_assert(wrong_intra_distance(&t, &e));
	text_write(&t, "w.ins");
	text_free(&t);
	result r = run("asm w.ins -o w.inb");
	cr_assert_eq(r.status, 0, "%s", r.err);
	result_free(&r);
	r = run("run w.inb --tdfg %s", sp);
	cr_expect_eq(r.status, 3, "%s", r.err);
	cr_expect(strstr(r.err, "w.inb: error: node 'w' ("), "%s", r.err);
	cr_expect(strstr(r.err, "w.inb: note: the first command that wrote a wrong bit into it is "
			 "command 1 (w.inb: mv.intra dist=2 "), "%s", r.err);
	result_free(&r);
}

/* The library's errors: a file that cannot be read, a tDFG that does not
 * parse, each one located message and -1. */
Test(valid, library_errors)
{
	char sp[512], bp[512];
	emu_valid_report rep;
	diag d;
	diag_clear(&d);
	sample_path("stencil", sp, sizeof sp);
	cr_expect_eq(emu_valid_files("/nonexistent/p.ins", sp, &rep, &d), -1);
	cr_expect(strstr(d.msg, "/nonexistent/p.ins"), "%s", d.msg);
	text t;
	text_split(&t, "region r 64\nx = input f32\ny = shift x, +0\n");
	text_write(&t, "bad.tdfg");
	text_free(&t);
	lowered(sp, false, false, &t);
	text_write(&t, "ok.ins");
	text_free(&t);
	snprintf(bp, sizeof bp, "%s/ok.ins", tmpdir);
	snprintf(sp, sizeof sp, "%s/bad.tdfg", tmpdir);
	diag_clear(&d);
	cr_expect_eq(emu_valid_files(bp, sp, &rep, &d), -1);
	cr_expect(strstr(d.msg, "bad.tdfg:3:"), "%s", d.msg);
}

/* ---- whole programs (doc/TDFG.md, "Programs") ---- */

static const char *const programs[] = {"stencil1d", "stencil2d", "gauss_elim", "mm_outer"};
/* The arrays each stores into: one more check point each, at the end. */
/* each program's arrays: every one is compared at the end */
static const size_t arrays[] = {2, 2, 1, 3};
#define NPROGRAMS (sizeof programs / sizeof programs[0])

/* The --load options the lowered stream's comments ask for (an array's
 * load=), and the number of its node markers. */
static void program_loads(const text *t, char *buf, size_t size, size_t *marks)
{
	static const char key[] = "(infsim run --load ";
	size_t n = 0;
	buf[0] = 0;
	*marks = 0;
	for (size_t i = 0; i < t->n; i++) {
		*marks += starts(t->l[i], "node ");
		const char *p = strstr(t->l[i], key);
		if (p && t->l[i][0] == '#')
			n += (size_t)snprintf(buf + n, size - n, " --load %.*s",
					      (int)strcspn(p + sizeof key - 1, ")"), p + sizeof key - 1);
	}
}

/* The JIT's own stream of each program sample passes, every marker
 * bound to a node instance of the program's runs, and each stored
 * array compared at the end. */
Test(valid, program_samples_pass)
{
	for (size_t s = 0; s < NPROGRAMS; s++) {
		char sp[512], bp[512], loads[2048], want[64];
		size_t marks;
		text t;
		emu_valid_report rep;
		diag d;
		diag_clear(&d);
		sample_path(programs[s], sp, sizeof sp);
		lowered(sp, false, false, &t);
		program_loads(&t, loads, sizeof loads, &marks);
		cr_assert_gt(marks, 0, "%s: no markers", programs[s]);
		text_write(&t, "ok.ins");
		text_free(&t);
		snprintf(bp, sizeof bp, "%s/ok.ins", tmpdir);
		cr_expect_eq(emu_valid_files(bp, sp, &rep, &d), 0, "%s: %s%s", programs[s], d.msg,
			     rep.text);
		result r = run("run ok.ins%s --tdfg %s --check", loads, sp);
		cr_expect_eq(r.status, 0, "%s: %s", programs[s], r.err);
		/* the markers, the arrays, and the stray writes' check */
		snprintf(want, sizeof want, "--tdfg: %zu check points", marks + arrays[s] + 1);
		cr_expect(strstr(r.out, want) != NULL, "%s: wanted '%s' in %s", programs[s], want,
			  r.out);
		result_free(&r);
	}
}

/* The index of the k-th line (from 1) that starts with p, or t->n. */
static size_t nth_line(const text *t, const char *p, unsigned k)
{
	for (size_t i = 0; i < t->n; i++)
		if (starts(t->l[i], p) && --k == 0)
			return i;
	return t->n;
}

/* A wrong shift distance in the fifth run of stencil1d's `step`, whose
 * lowering is the memo's reuse of the third: caught at that run's node
 * 'l', the run named, the edited move guilty. */
Test(valid, program_break_in_a_reused_run)
{
	char sp[512], bp[512];
	text t;
	sample_path("stencil1d", sp, sizeof sp);
	lowered(sp, false, false, &t);
	const size_t i = nth_line(&t, "move l, ", 5);
	cr_assert_lt(i, t.n);
	char *plus = strstr(t.l[i], ", +1 ");
	cr_assert_not_null(plus, "%s", t.l[i]);
	plus[3] = '2';
	cr_assert(starts(t.l[i + 1], "node l"), "%s", t.l[i + 1]);
	text_write(&t, "b.ins");
	text_free(&t);
	snprintf(bp, sizeof bp, "%s/b.ins", tmpdir);
	emu_valid_report rep;
	diag d;
	diag_clear(&d);
	cr_assert_eq(emu_valid_files(bp, sp, &rep, &d), 1, "%s", d.msg);
	cr_expect_eq(rep.mark_line, (int)i + 2, "%s", rep.text);
	cr_expect_eq(rep.cause, EMU_VALID_WROTE, "%s", rep.text);
	cr_expect_eq(rep.guilty_line, (int)i + 1, "%s", rep.text);
	cr_expect(strstr(rep.text, "node 'l' (") != NULL, "%s", rep.text);
	cr_expect(strstr(rep.text, "in run 5 of region 'step', the program's run 5") != NULL, "%s",
		  rep.text);
	result r = run("run b.ins --tdfg %s --check", sp);
	cr_expect_eq(r.status, 3, "%s", r.err);
	cr_expect(strstr(r.err, "in run 5 of region 'step'") != NULL, "%s", r.err);
	result_free(&r);
}

/* A marker past the program's last node instance of its name. */
/* A marker after the last run: no later instance of its name is left,
 * and the tensor does not hold the one its previous marker held, so it
 * holds nothing the tDFG means; the report says which instance it was
 * compared with and where the name's binding stood. */
Test(valid, program_marker_past_the_runs)
{
	char sp[512], bp[512];
	text t;
	sample_path("stencil1d", sp, sizeof sp);
	lowered(sp, false, false, &t);
	t.l = realloc(t.l, (t.n + 2) * sizeof *t.l);
	t.l[t.n++] = strdup("set.f32 A, #3.0");
	t.l[t.n++] = strdup("node x tensor=A");
	text_write(&t, "b.ins");
	text_free(&t);
	snprintf(bp, sizeof bp, "%s/b.ins", tmpdir);
	emu_valid_report rep;
	diag d;
	diag_clear(&d);
	cr_assert_eq(emu_valid_files(bp, sp, &rep, &d), 1, "%s", d.msg);
	cr_expect(strstr(rep.text, "node 'x' (") != NULL, "%s", rep.text);
	cr_expect(strstr(rep.text, "in run 10 of region 'step'") != NULL, "%s", rep.text);
	cr_expect(strstr(rep.text, "no instance of 'x' that the marker may hold has this value") !=
		  NULL, "%s", rep.text);
	cr_expect(strstr(rep.text, "the previous marker of 'x', at ") != NULL, "%s", rep.text);
}

/* A dropped piece of the last run's store: no marker follows it, the
 * array's check at the end catches it. */
Test(valid, program_last_store_checked_at_the_end)
{
	char sp[512], bp[512];
	text t;
	sample_path("stencil1d", sp, sizeof sp);
	lowered(sp, false, false, &t);
	size_t i = t.n;
	while (i-- > 0 && !starts(t.l[i], "copy.f32 "))
		;
	cr_assert_lt(i, t.n);
	drop_line(&t, i);
	text_write(&t, "b.ins");
	text_free(&t);
	snprintf(bp, sizeof bp, "%s/b.ins", tmpdir);
	emu_valid_report rep;
	diag d;
	diag_clear(&d);
	cr_assert_eq(emu_valid_files(bp, sp, &rep, &d), 1, "%s", d.msg);
	cr_expect_eq(rep.mark_line, 0, "%s", rep.text);
	cr_expect(strstr(rep.text, "the last store 'store A' (") != NULL, "%s", rep.text);
	cr_expect(strstr(rep.text, "in run 10 of region 'step'") != NULL, "%s", rep.text);
}

/* ---- an array's load= (doc/TDFG.md, "Programs") ---- */

/* The lowered mm_outer with A's tensor starting from 1 everywhere: a
 * validation that did not load A's file into the machine would see the
 * ones where the tDFG means the file's data. */
static void mm_outer_with_ones(char *sp, size_t spsize, char *bp, size_t bpsize)
{
	text t;
	sample_path("mm_outer", sp, spsize);
	lowered(sp, false, false, &t);
	const size_t i = find(&t, "tensor A f32 ");
	cr_assert_lt(i, t.n);
	char line[512];
	snprintf(line, sizeof line, "%s init=const:1.0", t.l[i]);
	replace_line(&t, i, line);
	text_write(&t, "ones.ins");
	text_free(&t);
	snprintf(bp, bpsize, "%s/ones.ins", tmpdir);
}

/* Validation reads each array's load= file, as `infsim run` does: into
 * the machine and the reference, from the library and from the command
 * line, with no --load. */
Test(valid, program_load_files_are_read)
{
	char sp[512], bp[512];
	mm_outer_with_ones(sp, sizeof sp, bp, sizeof bp);
	emu_valid_report rep;
	diag d;
	diag_clear(&d);
	cr_expect_eq(emu_valid_files(bp, sp, &rep, &d), 0, "%s%s", d.msg, rep.text);
	result r = run("run ones.ins --tdfg %s --check", sp);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "--tdfg: ") != NULL, "%s", r.out);
	result_free(&r);
	/* a --load of the array on the command line stands for its load= */
	r = run("run ones.ins --tdfg %s --load A=%s/samples/tdfg/mm_outer_A.npy", sp, SRCDIR);
	cr_expect_eq(r.status, 0, "%s", r.err);
	result_free(&r);
}

/* A load= file that cannot be read, or does not fit the array: one
 * message naming it, before the run. */
Test(valid, program_load_file_errors)
{
	char sp[512], bp[512], tp[512];
	mm_outer_with_ones(sp, sizeof sp, bp, sizeof bp);
	char *src = proc_slurp(sp, NULL);
	cr_assert_not_null(src);
	static const struct { const char *file, *want; } bad[] = {
		{ "absent.npy", "absent.npy: error: cannot open" },
		{ "short.bin", "short.bin: error: raw data of 12 bytes; expected 1024 (256 elements of 4 bytes)" },
	};
	char shortp[512];
	snprintf(shortp, sizeof shortp, "%s/short.bin", tmpdir);
	FILE *sf = fopen(shortp, "wb");
	cr_assert_not_null(sf);
	fputs("twelve bytes", sf);
	cr_assert_eq(fclose(sf), 0);
	for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
		snprintf(tp, sizeof tp, "%s/bad.tdfg", tmpdir);
		FILE *f = fopen(tp, "w");
		cr_assert_not_null(f);
		char *at = strstr(src, "load=mm_outer_A.npy");
		cr_assert_not_null(at);
		fprintf(f, "%.*sload=%s%s", (int)(at - src), src, bad[k].file,
			at + strlen("load=mm_outer_A.npy"));
		cr_assert_eq(fclose(f), 0);
		emu_valid_report rep;
		diag d;
		diag_clear(&d);
		cr_expect_eq(emu_valid_files(bp, tp, &rep, &d), -1, "%s", bad[k].file);
		cr_expect(strstr(d.msg, bad[k].want) != NULL, "%s", d.msg);
		result r = run("run ones.ins --tdfg bad.tdfg");
		cr_expect_eq(r.status, 1, "%s", r.err);
		cr_expect(strstr(r.err, bad[k].want) != NULL, "%s", r.err);
		result_free(&r);
	}
	free(src);
}
