/* SPDX-License-Identifier: MIT */
/*
 * target_data.c: infsdb's target mode (target.c), what it shows and
 * changes: print, x, set var, display, where and frame (one frame per
 * unit level, ops->where), list (ops->source), info, check, checkpoints
 * and reverse execution over the snapshots target.c keeps.
 */
#include "config.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbg.h"
#include "target_mode.h"

/* ---- /FMT ---- */

/* "/NF" at the start of *args: N a count (when count is not NULL), F a
 * format among x t d u f.  0, or -1 with an error. */
static int format_arg(dbg_session *s, const char *cmd, char **args, char *fmt, uint64_t *count)
{
	char *p = *args;
	if (*p != '/')
		return 0;
	p++;
	if (isdigit((unsigned char)*p)) {
		char *end;
		const unsigned long long n = strtoull(p, &end, 10);
		if (!count || n == 0 || n > 1024) {
			dbg_error(s, "%s: %s", cmd, count ? "expected a count of 1 to 1024."
							  : "an item count is meaningless here.");
			return -1;
		}
		*count = n;
		p = end;
	}
	if (*p && !isspace((unsigned char)*p)) {
		if (!strchr("xtduf", *p) || (p[1] && !isspace((unsigned char)p[1]))) {
			dbg_error(s, "Undefined output format \"%.*s\": expected one of xtduf.",
				  (int)strcspn(*args + 1, " "), *args + 1);
			return -1;
		}
		*fmt = *p++;
	}
	*args = p;
	return 0;
}

/* The array named name (its symbol), or false with an error. */
static bool array_named(dbg_session *s, const char *cmd, const char *name, tgt_sym *sym)
{
	if (s->tg && s->ops->lookup(s->tg, name, sym) && sym->is_array)
		return true;
	dbg_error(s, "%s: no array \"%s\" in the program.", cmd, name);
	return false;
}

/* A whole array: NAME = {e0, e1, ...}, at most 256 elements. */
static int print_array(dbg_session *s, const char *name, const tgt_sym *sym, char fmt)
{
	char text[160];
	printf("%s = {", name);
	for (uint64_t i = 0; i < sym->length && i < 256; i++) {
		dbg_value v = dbg_tgt_value(sym->type, s->ops->read(s->tg, sym, i));
		if (dbg_format_value(&v, fmt, text, sizeof text) < 0) {
			printf("}\n");
			dbg_error(s, "%s", text);
			return -1;
		}
		printf("%s%s", i ? ", " : "", text);
	}
	printf("%s}\n", sym->length > 256 ? ", ..." : "");
	return 0;
}

/* print ARRAY[I]@N: gdb's artificial array, N elements from ARRAY[I]
 * (text is "ARRAY[I]", at the '@'). */
static int print_slice(dbg_session *s, char *text, char *at, char fmt)
{
	*at = '\0';
	char *elem = dbg_trim(text), *open = strchr(elem, '['), *close = strrchr(elem, ']');
	char name[TGT_NAME_MAX];
	dbg_value first, count;
	tgt_sym sym;
	if (!open || !close || close < open || *dbg_trim(close + 1) ||
	    (size_t)(open - elem) >= sizeof name) {
		dbg_error(s, "print: expected ARRAY[INDEX]@COUNT, got \"%s@%s\".", elem, at + 1);
		return -1;
	}
	memcpy(name, elem, (size_t)(open - elem));
	name[open - elem] = '\0';
	*close = '\0';
	if (!array_named(s, "print", dbg_trim(name), &sym) || dbg_tgt_need_running(s) < 0 ||
	    dbg_eval(s, open + 1, &first) < 0 || dbg_eval(s, at + 1, &count) < 0)
		return -1;
	if (first.is_float || first.v < 0 || (uint64_t)first.v >= sym.length) {
		dbg_error(s, "print: %s[%s] is outside the array (%" PRIu64 " elements).",
			  dbg_trim(name), open + 1, sym.length);
		return -1;
	}
	if (count.is_float || count.v <= 0) {
		dbg_error(s, "Invalid number %s of repetitions.", dbg_trim(at + 1));
		return -1;
	}
	if ((uint64_t)count.v > sym.length - (uint64_t)first.v) {
		dbg_error(s, "print: %s[%" PRId64 "]@%" PRId64 " runs past the end of the array "
			  "(%" PRIu64 " elements).", dbg_trim(name), first.v, count.v, sym.length);
		return -1;
	}
	char out[160];
	printf("%s[%" PRId64 "]@%" PRId64 " = {", dbg_trim(name), first.v, count.v);
	for (int64_t i = 0; i < count.v && i < 256; i++) {
		dbg_value v = dbg_tgt_value(sym.type, s->ops->read(s->tg, &sym,
								  (uint64_t)(first.v + i)));
		if (dbg_format_value(&v, fmt, out, sizeof out) < 0) {
			printf("}\n");
			dbg_error(s, "%s", out);
			return -1;
		}
		printf("%s%s", i ? ", " : "", out);
	}
	printf("%s}\n", count.v > 256 ? ", ..." : "");
	return 0;
}

int dbg_tcmd_print(dbg_session *s, char *args)
{
	char fmt = 0;
	if (format_arg(s, "print", &args, &fmt, NULL) < 0)
		return -1;
	char *expr = dbg_trim(args);
	tgt_sym sym;
	if (*expr && s->tg && s->ops->lookup(s->tg, expr, &sym) && sym.is_array) {
		if (dbg_tgt_need_running(s) < 0)
			return -1;
		return print_array(s, expr, &sym, fmt);
	}
	char *at = strrchr(expr, '@');
	if (at)
		return print_slice(s, expr, at, fmt);
	dbg_value v;
	if (dbg_eval(s, expr, &v) < 0)
		return -1;
	char text[160];
	if (dbg_format_value(&v, fmt, text, sizeof text) < 0) {
		dbg_error(s, "%s", text);
		return -1;
	}
	const size_t n = dbg_values_record(s, &v, expr);
	if (!n) {
		dbg_error(s, "out of memory");
		return -1;
	}
	printf("$%zu = %s\n", n, text);
	return 0;
}

/* x/NF NAME[I]: N elements of an array from I (from 0 without [I]). */
int dbg_tcmd_x(dbg_session *s, char *args)
{
	char fmt = 0;
	uint64_t count = 1;
	if (format_arg(s, "x", &args, &fmt, &count) < 0 || dbg_tgt_need_running(s) < 0)
		return -1;
	char *what = dbg_trim(args);
	char name[TGT_NAME_MAX];
	const size_t len = strcspn(what, "[ ");
	if (!len || len >= sizeof name) {
		dbg_error(s, "x: expected ARRAY or ARRAY[INDEX], got \"%s\".", what);
		return -1;
	}
	memcpy(name, what, len);
	name[len] = '\0';
	tgt_sym sym;
	if (!array_named(s, "x", name, &sym))
		return -1;
	uint64_t first = 0;
	char *rest = dbg_trim(what + len);
	if (*rest == '[') {
		char *close = strrchr(rest, ']');
		dbg_value v;
		if (!close || *dbg_trim(close + 1)) {
			dbg_error(s, "x: expected ARRAY[INDEX], got \"%s\".", what);
			return -1;
		}
		*close = '\0';
		if (dbg_eval(s, rest + 1, &v) < 0)
			return -1;
		if (v.is_float || v.v < 0 || (uint64_t)v.v >= sym.length) {
			dbg_error(s, "x: index %s is out of range for %s (0 to %" PRIu64 ").",
				  rest + 1, name, sym.length - 1);
			return -1;
		}
		first = (uint64_t)v.v;
	} else if (*rest) {
		dbg_error(s, "x: expected ARRAY or ARRAY[INDEX], got \"%s\".", what);
		return -1;
	}
	for (uint64_t i = first; i < first + count && i < sym.length; i++) {
		if ((i - first) % 8 == 0)
			printf("%s%s[%" PRIu64 "]:", i == first ? "" : "\n", name, i);
		char text[160];
		dbg_value v = dbg_tgt_value(sym.type, s->ops->read(s->tg, &sym, i));
		if (dbg_format_value(&v, fmt, text, sizeof text) < 0) {
			putchar('\n');
			dbg_error(s, "%s", text);
			return -1;
		}
		printf("\t%s", text);
	}
	putchar('\n');
	return 0;
}

/* The bits of v for an element of type ty: rounded to a float format
 * (round to nearest), to qN, or an integer that must fit.  0, or -1 with
 * err. */
static int value_bits(const dbg_value *v, tgt_type ty, const char *name, uint64_t *bits,
		      char *err, size_t errsize)
{
	if (ty.kind == TGT_F64) {
		const double d = dbg_value_double(v);
		memcpy(bits, &d, sizeof d);
		return 0;
	}
	static const uint8_t fmt[] = { [TGT_INT] = ISA_FMT_INT, [TGT_F16] = ISA_FMT_F16,
				       [TGT_BF16] = ISA_FMT_BF16, [TGT_F32] = ISA_FMT_F32,
				       [TGT_FIXED] = ISA_FMT_FIX };
	emu_buffer b;
	memset(&b, 0, sizeof b);
	snprintf(b.name, sizeof b.name, "%s", name);
	b.fmt = fmt[ty.kind];
	b.width = ty.width;
	b.is_signed = ty.kind == TGT_INT ? ty.is_signed : true;
	return dbg_value_to_element(v, &b, ISA_FL_IEEE, bits, err, errsize);
}

/* set var NAME[I] = EXPR, or NAME = EXPR for a scalar. */
int dbg_tcmd_set_var(dbg_session *s, char *args)
{
	if (dbg_tgt_need_running(s) < 0)
		return -1;
	char *eq = strchr(args, '=');
	if (!eq || eq[1] == '=') {
		dbg_error(s, "set var: expected NAME[INDEX] = EXPR.");
		return -1;
	}
	*eq = '\0';
	char *lhs = dbg_trim(args), *rhs = dbg_trim(eq + 1);
	char name[TGT_NAME_MAX];
	const size_t len = strcspn(lhs, "[ ");
	if (!len || len >= sizeof name) {
		dbg_error(s, "set var: expected NAME[INDEX] = EXPR.");
		return -1;
	}
	memcpy(name, lhs, len);
	name[len] = '\0';
	tgt_sym sym;
	if (!s->ops->lookup(s->tg, name, &sym)) {
		dbg_error(s, "No symbol \"%s\" in current context.", name);
		return -1;
	}
	uint64_t index = 0;
	char *rest = dbg_trim(lhs + len);
	if (sym.is_array) {
		char *close = strrchr(rest, ']');
		dbg_value iv;
		if (*rest != '[' || !close || *dbg_trim(close + 1)) {
			dbg_error(s, "set var: %s is an array: expected %s[INDEX] = EXPR.", name, name);
			return -1;
		}
		*close = '\0';
		if (dbg_eval(s, rest + 1, &iv) < 0)
			return -1;
		if (iv.is_float || iv.v < 0 || (uint64_t)iv.v >= sym.length) {
			dbg_error(s, "set var: index %s is out of range for %s (0 to %" PRIu64 ").",
				  rest + 1, name, sym.length - 1);
			return -1;
		}
		index = (uint64_t)iv.v;
	}
	if (!sym.writable) {
		dbg_error(s, "set var: %s cannot be set: it is a count of the run.", name);
		return -1;
	}
	dbg_value v;
	char err[256];
	uint64_t bits;
	if (dbg_eval(s, rhs, &v) < 0)
		return -1;
	if (value_bits(&v, sym.type, name, &bits, err, sizeof err) < 0) {
		dbg_error(s, "set var: %s", err);
		return -1;
	}
	diag d;
	diag_clear(&d);
	if (s->ops->write(s->tg, &sym, index, bits, &d) != TGT_OK) {
		dbg_error(s, "set var: %s", d.msg);
		return -1;
	}
	/* the past no longer leads here: the history starts again */
	return dbg_tgt_history_reset(s);
}

/* display[/F] EXPR: the shared list (inspect.c shows it); before `run`
 * only its syntax is checked. */
int dbg_tcmd_display(dbg_session *s, char *args)
{
	char fmt = 0;
	if (format_arg(s, "display", &args, &fmt, NULL) < 0)
		return -1;
	char *expr = dbg_trim(args);
	if (!*expr) {
		dbg_show_displays(s);
		return 0;
	}
	if (dbg_expr_check(s, expr) < 0)
		return -1;
	if (!dbg_display_add(s, expr, fmt, 0, 0))
		return -1;
	if (s->t_running) {
		const size_t keep = s->ndisps;
		dbg_display *last = &s->disps[keep - 1];
		/* show the new one alone */
		dbg_display *all = s->disps;
		s->disps = last;
		s->ndisps = 1;
		dbg_show_displays(s);
		s->disps = all;
		s->ndisps = keep;
	}
	return 0;
}

/* ---- frames ---- */

static void frame_line(dbg_session *s, unsigned level)
{
	const unsigned u = level;
	tgt_loc loc;
	if (!s->ops->where(s->tg, u, &loc)) {
		printf("#%u  no %s (the program is at its end)\n", level, s->ops->units[u].name);
		return;
	}
	printf("#%u  %s %" PRIu64 ": %s", level, s->ops->units[u].name, loc.index, loc.what);
	if (loc.file && loc.line)
		printf(" at %s:%u", loc.file, loc.line);
	putchar('\n');
}

int dbg_tcmd_where(dbg_session *s, char *args)
{
	(void)args;
	if (dbg_tgt_need_running(s) < 0)
		return -1;
	for (unsigned u = 0; u < s->ops->nunits; u++)
		frame_line(s, u);
	return 0;
}

static int select_frame(dbg_session *s, int64_t level)
{
	if (level < 0 || (uint64_t)level >= s->ops->nunits) {
		dbg_error(s, "No frame at level %" PRId64 ": %s programs have levels 0 to %u.", level,
			  s->ops->name, s->ops->nunits - 1);
		return -1;
	}
	s->frame = (int)level + 1;
	s->frame_since = dbg_tgt_pos(s);
	frame_line(s, (unsigned)level);
	return 0;
}

static int64_t selected(const dbg_session *s)
{
	return s->frame > 0 && s->frame_since == dbg_tgt_pos(s) ? s->frame - 1 : 0;
}

int dbg_tcmd_frame(dbg_session *s, char *args)
{
	if (dbg_tgt_need_running(s) < 0)
		return -1;
	args = dbg_trim(args);
	uint64_t n;
	if (!*args)
		return select_frame(s, selected(s));
	if (!dbg_parse_u64(args, &n)) {
		dbg_error(s, "frame: expected a level number, got \"%s\".", args);
		return -1;
	}
	return select_frame(s, (int64_t)n);
}

static int move_frame(dbg_session *s, char *args, int dir)
{
	if (dbg_tgt_need_running(s) < 0)
		return -1;
	args = dbg_trim(args);
	uint64_t n = 1;
	if (*args && !dbg_parse_u64(args, &n)) {
		dbg_error(s, "%s: expected a count, got \"%s\".", dir > 0 ? "up" : "down", args);
		return -1;
	}
	int64_t to = selected(s) + dir * (int64_t)n;
	if (to < 0 || (uint64_t)to >= s->ops->nunits) {
		dbg_error(s, dir > 0 ? "Initial frame selected; you cannot go up."
				     : "Bottom (innermost) frame selected; you cannot go down.");
		return -1;
	}
	return select_frame(s, to);
}

int dbg_tcmd_up(dbg_session *s, char *args)
{
	return move_frame(s, args, 1);
}

int dbg_tcmd_down(dbg_session *s, char *args)
{
	return move_frame(s, args, -1);
}

int dbg_tcmd_info_frame(dbg_session *s, char *args)
{
	(void)args;
	if (dbg_tgt_need_running(s) < 0)
		return -1;
	const int64_t k = selected(s);
	const char *unit = s->ops->units[k].name;
	printf("Stack level %" PRId64 ", %s %s:\n", k, strchr("aeiouAEIOU", unit[0]) ? "an" : "a",
	       unit);
	frame_line(s, (unsigned)k);
	if (k > 0)
		printf(" inner: %s\n", s->ops->units[k - 1].name);
	if ((uint64_t)k + 1 < s->ops->nunits)
		printf(" outer: %s\n", s->ops->units[k + 1].name);
	return 0;
}

/* ---- list, info line, info source ---- */

char *dbg_tgt_source_text(dbg_session *s, const char **path)
{
	*path = s->ops->source ? s->ops->source(s->tg) : NULL;
	if (!*path)
		return NULL;
	FILE *f = fopen(*path, "r");
	if (!f)
		return NULL;
	char *text = NULL;
	size_t cap = 0;
	ssize_t n = getdelim(&text, &cap, '\0', f);
	fclose(f);
	if (n < 0) {
		free(text);
		return NULL;
	}
	return text;
}

unsigned dbg_tgt_position_line(dbg_session *s)
{
	tgt_loc loc;
	for (unsigned u = 0; s->t_running && u < s->ops->nunits; u++)
		if (s->ops->where(s->tg, u, &loc) && loc.line)
			return loc.line;
	return 0;
}

int dbg_tcmd_list(dbg_session *s, char *args)
{
	const char *path;
	char *text = dbg_tgt_source_text(s, &path);
	if (!text) {
		dbg_error(s, "list: %s programs here have no source file to show.", s->ops->name);
		return -1;
	}
	args = dbg_trim(args);
	const unsigned size = s->listsize ? s->listsize : 10;
	const unsigned here = dbg_tgt_position_line(s);
	uint64_t center = here ? here : 1;
	unsigned first;
	if (*args) {
		const char *colon = strrchr(args, ':');
		if (!dbg_parse_u64(colon ? colon + 1 : args, &center) || !center) {
			free(text);
			dbg_error(s, "list: expected LINE or FILE:LINE, got \"%s\".", args);
			return -1;
		}
		first = center > size / 2 ? (unsigned)center - size / 2 : 1;
	} else if (s->repeating && s->list_next > 0) {
		first = (unsigned)s->list_next;
	} else {
		first = center > size / 2 ? (unsigned)center - size / 2 : 1;
	}
	unsigned line = 1, shown = 0;
	for (const char *p = text; *p && shown < size; line++) {
		const size_t n = strcspn(p, "\n");
		if (line >= first) {
			printf("%s%-4u  %.*s\n", line == here ? "=> " : "   ", line, (int)n, p);
			shown++;
		}
		p += n + (p[n] == '\n');
	}
	if (!shown)
		printf("Line number %u out of range; \"%s\" has %u lines.\n", first, path, line - 1);
	s->list_next = (int)(first + shown);
	free(text);
	return 0;
}

int dbg_tcmd_info_line(dbg_session *s, char *args)
{
	args = dbg_trim(args);
	if (*args) {
		tgt_bp bp;
		diag d;
		diag_clear(&d);
		if (s->ops->break_parse(s->tg, args, &bp, &d) != TGT_OK) {
			dbg_error(s, "info line: %s", d.msg);
			return -1;
		}
		printf("%s: a place to stop at (break %s).\n", bp.what, args);
		return 0;
	}
	if (dbg_tgt_need_running(s) < 0)
		return -1;
	tgt_loc loc;
	for (unsigned u = 0; u < s->ops->nunits; u++)
		if (s->ops->where(s->tg, u, &loc) && loc.file && loc.line) {
			printf("Line %u of \"%s\" is %s %" PRIu64 ": %s.\n", loc.line, loc.file,
			       s->ops->units[u].name, loc.index, loc.what);
			return 0;
		}
	printf("The position has no source line.\n");
	return 0;
}

/* info source and info program: the program and its target. */
int dbg_tcmd_info_program(dbg_session *s, char *args)
{
	(void)args;
	const char *src = s->ops->source ? s->ops->source(s->tg) : NULL;
	printf("Current source file is %s\n", src ? src : s->tm->args.load.path);
	printf("System: %s (%s), the target \"%s\".\n", s->ops->title, s->ops->name, s->ops->name);
	printf("Units, finest first:");
	for (unsigned u = 0; u < s->ops->nunits; u++)
		printf("%s %s", u ? "," : "", s->ops->units[u].name);
	printf(".\n");
	if (!s->t_running) {
		printf("The program is not being run.\n");
		return 0;
	}
	printf("Done:");
	for (unsigned u = 0; u < s->ops->nunits; u++) {
		const uint64_t n = s->ops->count(s->tg, u);
		printf("%s %" PRIu64 " %s", u ? "," : "", n, dbg_tgt_unit_word(s->ops, u, n));
	}
	printf("; cycle %" PRIu64 "%s.\n", dbg_tgt_cycles(s), s->ops->ended(s->tg) ? "; ended" : "");
	return 0;
}

int dbg_tcmd_info_arrays(dbg_session *s, char *args)
{
	(void)args;
	const size_t n = s->ops->narrays(s->tg);
	for (size_t i = 0; i < n; i++) {
		tgt_array a;
		char ty[32];
		s->ops->array(s->tg, i, &a);
		tgt_type_name(a.type, ty, sizeof ty);
		printf("%-12s %-5s", a.name, ty);
		for (unsigned k = 0; k < a.ndim; k++)
			printf("%s%" PRIu64, k ? " x " : " ", a.shape[k]);
		printf(" (%" PRIu64 " element%s)\n", a.length, a.length == 1 ? "" : "s");
	}
	if (!n)
		printf("The program has no arrays.\n");
	return 0;
}

int dbg_tcmd_info_stats(dbg_session *s, char *args)
{
	args = dbg_trim(args);
	if (dbg_tgt_need_running(s) < 0)
		return -1;
	const bool full = !strcmp(args, "full");
	if (*args && !full) {
		dbg_error(s, "info stats: expected nothing or \"full\", got \"%s\".", args);
		return -1;
	}
	tgt_stat *root = tgt_stat_new();
	tgt_stat_str(root, "format", TGT_STATS_FORMAT, NULL);
	tgt_stat_str(root, "system", s->ops->name, NULL);
	tgt_stat_str(root, "program", s->tm->args.load.path, NULL);
	s->ops->stats(s->tg, root);
	const int rc = tgt_stat_text(root, stdout, full);
	tgt_stat_free(root);
	if (rc < 0) {
		dbg_error(s, "info stats: out of memory");
		return -1;
	}
	return 0;
}

/* ---- check, expect ---- */

int dbg_tcmd_check(dbg_session *s, char *args)
{
	(void)args;
	if (dbg_tgt_need_running(s) < 0)
		return -1;
	if (!s->tm->args.load.check) {
		dbg_error(s, "check: the reference is kept only with --check (infsdb --check %s).",
			  s->tm->args.load.path);
		return -1;
	}
	diag d;
	diag_clear(&d);
	const tgt_status st = s->ops->check(s->tg, &d);
	if (st == TGT_OK) {
		printf("check: every array agrees with the reference, bit for bit.\n");
		return 0;
	}
	if (st == TGT_DIFFERS) {
		const char *rep = s->ops->report ? s->ops->report(s->tg) : NULL;
		printf("%s", rep && *rep ? rep : d.msg);
		if (!rep || !*rep || rep[strlen(rep) - 1] != '\n')
			putchar('\n');
		s->mismatch = true;
		return 0;
	}
	dbg_error(s, "check: %s", d.set ? d.msg : "the reference failed");
	return -1;
}

/* expect ARRAY FILE: the array against a .npy, bit for bit. */
int dbg_tcmd_expect(dbg_session *s, char *args)
{
	if (dbg_tgt_need_running(s) < 0)
		return -1;
	char *name = dbg_trim(args), *path = name + strcspn(name, " ");
	if (*path)
		*path++ = '\0';
	path = dbg_trim(path);
	const long k = *name ? tgt_array_find(s->ops, s->tg, name) : -1;
	if (k < 0 || !*path) {
		dbg_error(s, "expect: expected ARRAY FILE (an array of the program, a .npy or .bin).");
		return -1;
	}
	tgt_array a;
	s->ops->array(s->tg, (size_t)k, &a);
	uint64_t *want = malloc((a.length ? a.length : 1) * sizeof *want);
	uint64_t *got = malloc((a.length ? a.length : 1) * sizeof *got);
	diag d;
	diag_clear(&d);
	int rc = 0;
	if (!want || !got) {
		dbg_error(s, "expect: out of memory");
		rc = -1;
	} else if (tgt_elements_read(path, &a, want, &d) < 0) {
		dbg_error(s, "expect: %s", d.msg);
		rc = -1;
	} else {
		s->ops->array_get(s->tg, (size_t)k, 0, a.length, got);
		uint64_t i = 0;
		while (i < a.length && got[i] == want[i])
			i++;
		if (i == a.length) {
			printf("%s matches %s (%" PRIu64 " elements).\n", name, path, a.length);
		} else {
			char what[1024];
			tgt_mismatch_text(&a, i, want[i], got[i], what, sizeof what);
			printf("expect: %s\n", what);
			s->mismatch = true;
			s->expect_failed = true;
		}
	}
	free(want);
	free(got);
	return rc;
}

/* ---- delete checkpoint N ---- */

static int delete_checkpoint(dbg_session *s, char *args)
{
	uint64_t n;
	args = dbg_trim(args);
	dbg_tgt_mode *tm = s->tm;
	if (!dbg_parse_u64(args, &n)) {
		dbg_error(s, "delete checkpoint: expected a checkpoint number, got \"%s\".", args);
		return -1;
	}
	for (size_t i = 0; i < tm->nckpts; i++)
		if (tm->ckpts[i].num == n) {
			s->ops->snap_free(tm->ckpts[i].snap);
			memmove(&tm->ckpts[i], &tm->ckpts[i + 1],
				(tm->nckpts - i - 1) * sizeof *tm->ckpts);
			tm->nckpts--;
			return 0;
		}
	dbg_error(s, "delete checkpoint: no checkpoint number %" PRIu64 ".", n);
	return -1;
}

int dbg_tcmd_delete(dbg_session *s, char *args)
{
	char *a = dbg_trim(args);
	if (!strncmp(a, "checkpoint", 10) && (!a[10] || isspace((unsigned char)a[10])))
		return delete_checkpoint(s, a + 10);
	return dbg_cmd_delete(s, args);
}

/* ---- checkpoints ---- */

static void position_text(dbg_session *s, char *buf, size_t size)
{
	tgt_loc loc;
	if (s->ops->ended(s->tg) || !s->ops->where(s->tg, 0, &loc))
		snprintf(buf, size, "the end, after %" PRIu64 " %s", dbg_tgt_pos(s),
			 s->ops->units[0].plural);
	else
		snprintf(buf, size, "%s %" PRIu64 ": %.200s", s->ops->units[0].name, loc.index,
			 loc.what);
}

int dbg_tcmd_checkpoint(dbg_session *s, char *args)
{
	(void)args;
	if (dbg_tgt_need_running(s) < 0)
		return -1;
	dbg_tgt_mode *tm = s->tm;
	diag d;
	diag_clear(&d);
	dbg_tgt_ckpt *grown = realloc(tm->ckpts, (tm->nckpts + 1) * sizeof *grown);
	if (!grown) {
		dbg_error(s, "checkpoint: out of memory");
		return -1;
	}
	tm->ckpts = grown;
	tgt_snap *snap = s->ops->save(s->tg, &d);
	if (!snap) {
		dbg_error(s, "checkpoint: %s", d.set ? d.msg : "the state cannot be saved");
		return -1;
	}
	dbg_tgt_ckpt *c = &tm->ckpts[tm->nckpts++];
	c->num = ++tm->next_ckpt;
	c->at = dbg_tgt_pos(s);
	c->snap = snap;
	position_text(s, c->what, sizeof c->what);
	printf("Checkpoint %u at %s\n", c->num, c->what);
	return 0;
}

int dbg_tcmd_restart(dbg_session *s, char *args)
{
	uint64_t n;
	args = dbg_trim(args);
	if (!dbg_parse_u64(args, &n)) {
		dbg_error(s, "restart: expected a checkpoint number (info checkpoints lists them).");
		return -1;
	}
	dbg_tgt_mode *tm = s->tm;
	for (size_t i = 0; i < tm->nckpts; i++) {
		if (tm->ckpts[i].num != n)
			continue;
		diag d;
		diag_clear(&d);
		if (!s->t_running) {
			dbg_error(s, "restart: the program is not being run (a new run ends the "
				  "checkpoints of the old one).");
			return -1;
		}
		if (s->ops->restore(s->tg, tm->ckpts[i].snap, &d) != TGT_OK) {
			dbg_error(s, "restart: %s", d.set ? d.msg : "the state cannot be restored");
			return -1;
		}
		s->t_running = true;
		printf("Switching to checkpoint %u\n", tm->ckpts[i].num);
		dbg_bp_reset_watch(s);
		if (dbg_tgt_history_reset(s) < 0)
			return -1;
		dbg_tgt_report_stop(s);
		return 0;
	}
	dbg_error(s, "restart: no checkpoint number %" PRIu64 ".", n);
	return -1;
}

int dbg_tcmd_info_checkpoints(dbg_session *s, char *args)
{
	(void)args;
	dbg_tgt_mode *tm = s->tm;
	if (!tm->nckpts) {
		printf("No checkpoints.\n");
		return 0;
	}
	for (size_t i = 0; i < tm->nckpts; i++)
		printf("%c %u  %s\n", s->t_running && dbg_tgt_pos(s) == tm->ckpts[i].at ? '*' : ' ',
		       tm->ckpts[i].num, tm->ckpts[i].what);
	return 0;
}

int dbg_tcmd_not_file(dbg_session *s, char *args)
{
	(void)args;
	dbg_error(s, "checkpoint save/load: checkpoint files are the in-cache machine's; a %s "
		  "program's checkpoints are kept in the session: checkpoint, restart N, info "
		  "checkpoints.", s->ops->name);
	return -1;
}

int dbg_tcmd_stream_only(dbg_session *s, char *args)
{
	(void)args;
	dbg_error(s, "This command shows the in-cache machine's SRAM (streams and tDFGs); %s "
		  "programs (%s) have none: see \"info\" for theirs.", s->ops->name, s->ops->title);
	return -1;
}

/* ---- reverse execution ---- */

int dbg_tcmd_show_reverse(dbg_session *s, char *args)
{
	(void)args;
	const dbg_tgt_mode *tm = s->tm;
	if (s->rsnap_every == UINT64_MAX)
		printf("Reverse interval: unlimited (no snapshots: going back replays from the start).\n");
	else
		printf("Reverse interval: %" PRIu64 " %s.\n", s->rsnap_every ? s->rsnap_every : 256,
		       s->ops->units[0].plural);
	printf("Snapshots: %zu, %" PRIu64 " bytes; at", tm->nsnaps, tm->bytes);
	for (size_t i = 0; i < tm->nsnaps && i < 16; i++)
		printf(" %" PRIu64, tm->snaps[i].at);
	printf("%s.\n", tm->nsnaps > 16 ? " ..." : "");
	if (s->t_running)
		printf("Position: %" PRIu64 " %s.\n", dbg_tgt_pos(s), s->ops->units[0].plural);
	printf("The last reverse command replayed %" PRIu64 " %s.\n", tm->replayed,
	       s->ops->units[0].plural);
	return 0;
}

/* Restore the last snapshot at or before pos and replay to pos (quiet).
 * 0, or -1 with an error. */
static int go_to(dbg_session *s, uint64_t pos)
{
	dbg_tgt_mode *tm = s->tm;
	size_t i = tm->nsnaps;
	while (i > 0 && tm->snaps[i - 1].at > pos)
		i--;
	if (!i) {
		dbg_error(s, "reverse: no snapshot before %s %" PRIu64 ".", s->ops->units[0].name, pos);
		return -1;
	}
	diag d;
	diag_clear(&d);
	if (s->ops->restore(s->tg, tm->snaps[i - 1].snap, &d) != TGT_OK) {
		dbg_error(s, "reverse: %s", d.set ? d.msg : "the state cannot be restored");
		return -1;
	}
	while (dbg_tgt_pos(s) < pos && !s->ops->ended(s->tg)) {
		if (s->ops->step(s->tg, 0, &d) != TGT_OK) {
			dbg_error(s, "reverse: %s", d.set ? d.msg : "the replay failed");
			return -1;
		}
		tm->replayed++;
	}
	return 0;
}

static uint64_t base_pos(const dbg_session *s)
{
	return s->tm->nsnaps ? s->tm->snaps[0].at : 0;
}

/* The first position at which count(level) is `count` (at least the
 * base): the start of that unit. */
static int start_of(dbg_session *s, unsigned level, uint64_t count, uint64_t *pos)
{
	dbg_tgt_mode *tm = s->tm;
	size_t i = tm->nsnaps;
	while (i > 1 && tm->snaps[i - 1].counts[level] >= count)
		i--;
	if (!i || tm->snaps[i - 1].counts[level] >= count) {
		*pos = base_pos(s);
		return 0;
	}
	if (go_to(s, tm->snaps[i - 1].at) < 0)
		return -1;
	diag d;
	diag_clear(&d);
	while (s->ops->count(s->tg, level) < count && !s->ops->ended(s->tg)) {
		if (s->ops->step(s->tg, 0, &d) != TGT_OK) {
			dbg_error(s, "reverse: %s", d.msg);
			return -1;
		}
		tm->replayed++;
	}
	*pos = dbg_tgt_pos(s);
	return 0;
}

static void no_more_history(dbg_session *s)
{
	printf("\nNo more reverse-execution history.\n");
	dbg_tgt_report_stop(s);
}

/* Go back to pos (reported as a stop; at the base, as gdb says). */
static int back_to(dbg_session *s, uint64_t pos)
{
	if (go_to(s, pos) < 0)
		return -1;
	dbg_bp_reset_watch(s);
	if (pos == base_pos(s))
		no_more_history(s);
	else
		dbg_tgt_report_stop(s);
	return 0;
}

int dbg_tcmd_reverse_stepi(dbg_session *s, char *args)
{
	uint64_t n = 1;
	args = dbg_trim(args);
	if (dbg_tgt_need_running(s) < 0)
		return -1;
	if (*args && !dbg_parse_u64(args, &n)) {
		dbg_error(s, "reverse-stepi: expected a count, got \"%s\".", args);
		return -1;
	}
	s->tm->replayed = 0;
	const uint64_t pos = dbg_tgt_pos(s), base = base_pos(s);
	return back_to(s, pos - base > n ? pos - n : base);
}

/* Back to the start of the current unit of level u (when one of its
 * finest units has run), else of the previous one, n times. */
static int reverse_units(dbg_session *s, const char *cmd, unsigned u, char *args)
{
	uint64_t n = 1;
	args = dbg_trim(args);
	if (dbg_tgt_need_running(s) < 0)
		return -1;
	if (*args && !dbg_parse_u64(args, &n)) {
		dbg_error(s, "%s: expected a count, got \"%s\".", cmd, args);
		return -1;
	}
	s->tm->replayed = 0;
	const uint64_t here = dbg_tgt_pos(s), c = s->ops->count(s->tg, u);
	uint64_t start;
	if (start_of(s, u, c, &start) < 0)
		return -1;
	uint64_t want = start < here ? c - (n - 1 < c ? n - 1 : c) : c - (n < c ? n : c);
	if (start_of(s, u, want, &start) < 0)
		return -1;
	return back_to(s, start);
}

int dbg_tcmd_reverse_step(dbg_session *s, char *args)
{
	return reverse_units(s, "reverse-step", s->ops->nunits > 1 ? 1 : 0, args);
}

int dbg_tcmd_reverse_next(dbg_session *s, char *args)
{
	return reverse_units(s, "reverse-next", s->ops->nunits > 1 ? 1 : 0, args);
}

int dbg_tcmd_reverse_finish(dbg_session *s, char *args)
{
	(void)args;
	if (dbg_tgt_need_running(s) < 0)
		return -1;
	const unsigned u = dbg_tgt_finish_level(s);
	if (!u) {
		dbg_error(s, "\"reverse-finish\" not meaningful in the outermost frame: %s programs "
			  "have no unit around %s.", s->ops->name,
			  s->ops->units[s->ops->nunits > 1 ? 1 : 0].plural);
		return -1;
	}
	return reverse_units(s, "reverse-finish", u, "1");
}

/* Would an enabled breakpoint stop before the next unit here (its
 * condition holding; ignore counts are forward motions' own)? */
static bool stops_here(dbg_session *s)
{
	for (size_t i = 0; i < s->nbps; i++) {
		const dbg_bp *bp = &s->bps[i];
		if (!bp->enabled || bp->kind != DBG_BP_TARGET || !s->ops->break_hit(s->tg, &bp->tbp))
			continue;
		dbg_value v;
		char err[256];
		if (!bp->cond || (dbg_eval_quiet(s, bp->cond, &v, err, sizeof err) == 0 &&
				  dbg_value_true(&v)))
			return true;
	}
	return false;
}

/* Have the watched expressions changed from old[]? */
static bool watch_changed(dbg_session *s, dbg_value *old, bool *have)
{
	bool changed = false;
	for (size_t i = 0, k = 0; i < s->nbps; i++) {
		const dbg_bp *bp = &s->bps[i];
		if (bp->kind != DBG_BP_WATCH || !bp->enabled)
			continue;
		dbg_value v;
		char err[256];
		if (dbg_eval_quiet(s, bp->expr, &v, err, sizeof err) == 0) {
			if (have[k] && !dbg_value_same(&v, &old[k]))
				changed = true;
			old[k] = v;
			have[k] = true;
		}
		k++;
	}
	return changed;
}

/* reverse-continue: the last position before here where a breakpoint
 * (or a watchpoint's change) stops the program, interval by interval
 * backwards from the nearest snapshot. */
int dbg_tcmd_reverse_continue(dbg_session *s, char *args)
{
	(void)args;
	if (dbg_tgt_need_running(s) < 0)
		return -1;
	dbg_tgt_mode *tm = s->tm;
	tm->replayed = 0;
	const uint64_t here = dbg_tgt_pos(s);
	dbg_value *old = calloc(s->nbps + 1, sizeof *old);
	bool *have = calloc(s->nbps + 1, sizeof *have);
	if (!old || !have) {
		free(old);
		free(have);
		dbg_error(s, "reverse-continue: out of memory");
		return -1;
	}
	uint64_t end = here, found = UINT64_MAX;
	for (size_t i = tm->nsnaps; i-- > 0 && found == UINT64_MAX; end = tm->snaps[i].at) {
		const uint64_t from = tm->snaps[i].at;
		if (from >= end)
			continue;
		if (go_to(s, from) < 0)
			goto failed;
		memset(have, 0, (s->nbps + 1) * sizeof *have);
		watch_changed(s, old, have);
		for (uint64_t p = from; p < end;) {
			if (p > from && stops_here(s))
				found = p;
			diag d;
			diag_clear(&d);
			if (s->ops->step(s->tg, 0, &d) != TGT_OK) {
				dbg_error(s, "reverse-continue: %s", d.msg);
				goto failed;
			}
			tm->replayed++;
			p = dbg_tgt_pos(s);
			if (watch_changed(s, old, have) && p < here)
				found = p;
		}
	}
	free(old);
	free(have);
	if (found == UINT64_MAX)
		return back_to(s, base_pos(s));
	if (go_to(s, found) < 0)
		return -1;
	dbg_bp_reset_watch(s);
	for (size_t i = 0; i < s->nbps; i++)
		if (s->bps[i].kind == DBG_BP_TARGET && s->bps[i].enabled &&
		    s->ops->break_hit(s->tg, &s->bps[i].tbp)) {
			printf("\nBreakpoint %u, ", s->bps[i].num);
			break;
		}
	dbg_tgt_report_stop(s);
	return 0;
failed:
	free(old);
	free(have);
	return -1;
}

