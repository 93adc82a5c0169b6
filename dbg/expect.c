/* SPDX-License-Identifier: MIT */
/*
 * expect.c: `expect`, a check of a result inside a session, for grading.
 *
 * A teacher's script runs a student's program under `infsdb -batch` and
 * states what must hold: a buffer equal, bit for bit, to the array a
 * reference solution wrote (`infsim run -d BUF=FILE.npy`), or an
 * expression equal to a value.  A difference is reported and makes the
 * batch exit status 3, as `check` does, so the grader reads one number.
 */
#include "config.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbg.h"
#include "elements.h"

static void element_text(const emu_buffer *b, uint64_t bits, char *buf, size_t size)
{
	emu_value_text(b->fmt, b->width, b->is_signed, bits, true, buf, size);
}

/* The file's elements as b's bit patterns (malloc'd), or NULL with an
 * error reported: read as `infsim run -l` reads a buffer's file. */
static uint64_t *read_expected(dbg_session *s, const emu_buffer *b, const char *path)
{
	uint64_t *v = malloc((b->length ? b->length : 1) * sizeof *v);
	diag d;
	diag_clear(&d);
	if (!v) {
		dbg_error(s, "out of memory");
		return NULL;
	}
	if (emu_elements_read(path, b, v, &d) < 0) {
		dbg_error(s, "expect: %s", d.msg);
		free(v);
		return NULL;
	}
	return v;
}

static int expect_file(dbg_session *s, const emu_buffer *b, const char *path)
{
	uint64_t *want = read_expected(s, b, path);
	if (!want)
		return -1;
	uint64_t first = UINT64_MAX, wrong = 0, got_first = 0;
	for (uint64_t i = 0; i < b->length; i++) {
		const uint64_t got = emu_elem_get(s->em, b, i);
		if (got == want[i])
			continue;
		if (!wrong++) {
			first = i;
			got_first = got;
		}
	}
	if (!wrong) {
		printf("expect: %s matches %s (%" PRIu64 " element%s).\n", b->name, path, b->length,
		       b->length == 1 ? "" : "s");
	} else {
		char g[96], w[96];
		element_text(b, got_first, g, sizeof g);
		element_text(b, want[first], w, sizeof w);
		printf("expect: FAILED: %s[%" PRIu64 "] is %s, %s has %s (%" PRIu64 " of %" PRIu64
		       " elements differ).\n", b->name, first, g, path, w, wrong, b->length);
		s->mismatch = true;
	}
	free(want);
	return 0;
}

/* The last "==" outside parentheses and brackets, or NULL. */
static char *top_level_eq(char *text)
{
	char *found = NULL;
	int depth = 0;
	for (char *p = text; *p; p++) {
		depth += *p == '(' || *p == '[';
		depth -= *p == ')' || *p == ']';
		if (depth == 0 && p[0] == '=' && p[1] == '=')
			found = p++;
	}
	return found;
}

/* Equal as values (an integer and a float compare as C compares them);
 * a NaN equals a NaN here, so that a NaN a program must produce can be
 * expected. */
static bool same_value(const dbg_value *a, const dbg_value *b)
{
	if (!a->is_float && !b->is_float)
		return a->v == b->v;
	const double x = dbg_value_double(a), y = dbg_value_double(b);
	return x == y || (isnan(x) && isnan(y));
}

static int expect_expr(dbg_session *s, char *text)
{
	char *eq = top_level_eq(text);
	dbg_value got, want = dbg_value_int(1);
	if (eq)
		*eq = '\0';
	char *lhs = dbg_trim(text), *rhs = eq ? dbg_trim(eq + 2) : NULL;
	if (eq && (!*lhs || !*rhs)) {
		dbg_error(s, "expect: expected EXPR == VALUE, with an expression on each side.");
		return -1;
	}
	if (dbg_eval(s, lhs, &got) < 0 || (rhs && dbg_eval(s, rhs, &want) < 0))
		return -1;
	const bool ok = rhs ? same_value(&got, &want) : dbg_value_true(&got);
	char g[160], w[160];
	dbg_format_value(&got, 0, g, sizeof g);
	dbg_format_value(&want, 0, w, sizeof w);
	if (ok && rhs)
		printf("expect: %s == %s: ok.\n", lhs, rhs);
	else if (ok)
		printf("expect: %s: ok.\n", lhs);
	else if (rhs)
		printf("expect: FAILED: %s is %s, expected %s.\n", lhs, g, w);
	else
		printf("expect: FAILED: %s is 0.\n", lhs);
	if (!ok)
		s->mismatch = true;
	return 0;
}

int dbg_cmd_expect(dbg_session *s, char *args)
{
	args = dbg_trim(args);
	if (!*args) {
		dbg_error(s, "expect: expected BUF FILE.npy, EXPR == VALUE or EXPR.");
		return -1;
	}
	if (dbg_need_machine(s) < 0)
		return -1;
	/* BUF FILE: a buffer's name, then one word ending in .npy */
	size_t n = 0;
	while (isalnum((unsigned char)args[n]) || args[n] == '_' || args[n] == '.')
		n++;
	const emu_buffer *b = dbg_find_buffer(s, args, n);
	char *file = dbg_trim(args + n);
	const size_t flen = strlen(file);
	if (b && isspace((unsigned char)args[n]) && flen > 4 && !strchr(file, ' ') &&
	    strcmp(file + flen - 4, ".npy") == 0)
		return expect_file(s, b, file);
	if (!b && flen > 4 && strcmp(file + flen - 4, ".npy") == 0 && n && isspace((unsigned char)args[n])) {
		dbg_error(s, "expect: no buffer \"%.*s\" (\"info buffers\" lists them).", (int)n, args);
		return -1;
	}
	return expect_expr(s, args);
}
