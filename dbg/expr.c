/* SPDX-License-Identifier: MIT */
/*
 * expr.c: infsdb's expressions.
 *
 *   expr    := or [ "?" expr ":" expr ]
 *   or      := and { "||" and }
 *   and     := bitor { "&&" bitor }
 *   bitor   := bitxor { "|" bitxor }
 *   bitxor  := bitand { "^" bitand }
 *   bitand  := eq { "&" eq }
 *   eq      := rel { ("==" | "!=") rel }
 *   rel     := shift { ("<" | "<=" | ">" | ">=") shift }
 *   shift   := sum { ("<<" | ">>") sum }
 *   sum     := product { ("+" | "-") product }
 *   product := unary { ("*" | "/" | "%") unary }
 *   unary   := ("-" | "!" | "~") unary | primary
 *   primary := NUMBER | FLOAT | "inf" | "nan" | "(" expr ")" | BUF "[" expr "]"
 *            | "$pc" | "$upc" | "$cycle" | "$" SRAMFN "(" expr { "," expr } ")"
 *            | "$" | "$$" | "$$" N | "$" N | "$" NAME
 *
 * In target mode (a program of another system, target.c) NAME is what
 * the target's lookup knows: an array, indexed, or a scalar.
 *
 * The precedence is C's, as gdb's: a bit-level debugger's masks and
 * shifts (A[i] >> 3 & 1) read as they would in C.  `$`, `$$`, `$$N`
 * and `$N` are the value history (print records each value it shows,
 * vars.c); `$NAME` is a convenience variable (`set $i = 3`).  A number
 * is read as gdb reads it: 0x hex, 0b binary, a leading 0 octal (08 is
 * not a number).
 *
 * Integers are 64-bit two's complement (wrapping); an integer element is
 * read from the transposed bits (emu_elem_get) and sign-extended when its
 * buffer is signed.  A float literal, and an element of a float or .qN
 * buffer, is a double (value.c); as in C, an operation with a double
 * operand converts the other to double and gives a double.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbg.h"

typedef struct parser {
	dbg_session *s;
	const char *text, *p;
	char *err;
	size_t errsize;
	bool failed;
	bool syntax_only;  /* check names and syntax; read no element */
	unsigned depth;    /* nesting of parentheses, brackets and unary ops */
} parser;

/* Deep enough for any expression a person writes; shallow enough that
 * "((((..." of any length cannot exhaust the stack. */
#define EXPR_MAX_DEPTH 256

static void fail(parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(parser *ps, const char *fmt, ...)
{
	if (ps->failed)
		return;
	ps->failed = true;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ps->err, ps->errsize, fmt, ap);
	va_end(ap);
}

static void skip_space(parser *ps)
{
	while (isspace((unsigned char)*ps->p))
		ps->p++;
}

static bool accept(parser *ps, const char *tok)
{
	skip_space(ps);
	size_t n = strlen(tok);
	if (strncmp(ps->p, tok, n) != 0)
		return false;
	/* "<" must not take the first half of "<=" or "<<", "&" of "&&",
	 * "|" of "||" (and so on) */
	if (n == 1 && strchr("<>=!&|", tok[0]) && ps->p[1] == '=')
		return false;
	if (n == 1 && strchr("<>&|", tok[0]) && ps->p[1] == tok[0])
		return false;
	ps->p += n;
	return true;
}

static void syntax_error(parser *ps)
{
	skip_space(ps);
	if (*ps->p)
		fail(ps, "A syntax error in expression, near `%s'.", ps->p);
	else
		fail(ps, "A syntax error in expression, near the end.");
}

static dbg_value plain(int64_t v)
{
	return dbg_value_int(v);
}

static dbg_value parse_or(parser *ps);
static dbg_value parse_expr(parser *ps);

/* The extent of a number at s: letters, digits, '_' and '.', and a sign
 * right after an exponent letter (e or E, p or P in hex). */
static size_t number_extent(const char *s)
{
	const bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	size_t n = 0;
	for (;;) {
		const char c = s[n];
		if (isalnum((unsigned char)c) || c == '_' || c == '.') {
			n++;
			continue;
		}
		const char prev = n ? (char)(s[n - 1] | 0x20) : 0;
		if ((c == '+' || c == '-') && prev == (hex ? 'p' : 'e') && n > (hex ? 2u : 0u)) {
			n++;
			continue;
		}
		return n;
	}
}

/* Is the number at s[0..n) a float literal: decimal with '.' or an
 * exponent, or hex with a binary exponent (0x1.8p3)? */
static bool is_float_literal(const char *s, size_t n)
{
	const bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	for (size_t i = hex ? 2 : 0; i < n; i++)
		if (s[i] == '.' || (hex ? (s[i] | 0x20) == 'p' : (s[i] | 0x20) == 'e'))
			return true;
	return false;
}

static dbg_value parse_float(parser *ps, size_t n)
{
	char text[128], *end;
	const bool hex = ps->p[0] == '0' && (ps->p[1] == 'x' || ps->p[1] == 'X');
	bool ok = n < sizeof text;
	if (ok && hex) /* strtod takes 0x1.8 without an exponent; a literal needs one */
		ok = memchr(ps->p, 'p', n) || memchr(ps->p, 'P', n);
	snprintf(text, sizeof text, "%.*s", (int)(n < sizeof text ? n : sizeof text - 1), ps->p);
	errno = 0;
	const double d = ok ? strtod(text, &end) : 0;
	if (!ok || end != text + n) {
		fail(ps, "Invalid number \"%.*s\": expected a float such as 1.5, -2e-3, 0x1p-4, inf or nan.",
		     (int)n, ps->p);
		return plain(0);
	}
	if (errno == ERANGE && isinf(d)) {
		fail(ps, "Invalid number \"%.*s\": too large for a double.", (int)n, ps->p);
		return plain(0);
	}
	ps->p += n;
	return dbg_value_real(d);
}

static dbg_value parse_number(parser *ps)
{
	const size_t n = number_extent(ps->p);
	if (is_float_literal(ps->p, n))
		return parse_float(ps, n);
	char *end;
	int base = 10;
	const char *start = ps->p;
	if (start[0] == '0' && (start[1] == 'x' || start[1] == 'X'))
		base = 16, start += 2;
	else if (start[0] == '0' && (start[1] == 'b' || start[1] == 'B'))
		base = 2, start += 2;
	else if (start[0] == '0' && n > 1)
		base = 8, start += 1; /* as C and gdb: 010 is 8, 08 no number */
	errno = 0;
	unsigned long long v = strtoull(start, &end, base);
	if (end == start || end != ps->p + n || !isalnum((unsigned char)*start)) {
		fail(ps, "Invalid number \"%.*s\".", (int)n, ps->p);
		return plain(0);
	}
	if (errno == ERANGE) {
		fail(ps, "Numeric constant too large: \"%.*s\" (at most 64 bits).", (int)n, ps->p);
		return plain(0);
	}
	ps->p = end;
	dbg_value r = plain((int64_t)v);
	r.is_signed = v <= INT64_MAX; /* as C's: a constant above it is unsigned */
	return r;
}

/* An index or an SRAM function's argument: an integer, not a double. */
static bool need_integer(parser *ps, const dbg_value *v, const char *what)
{
	if (!v->is_float)
		return true;
	char text[64];
	dbg_format_value(v, 0, text, sizeof text);
	fail(ps, "%s must be an integer, not %s.", what, text);
	return false;
}

/* "NAME[4][4]": a tensor's shape as C declares it (outermost first). */
static void shape_text(const emu_buffer *b, char *buf, size_t size)
{
	size_t n = (size_t)snprintf(buf, size, "%s", b->name);
	for (unsigned k = b->ndims; k-- > 0 && n < size;)
		n += (size_t)snprintf(buf + n, size - n, "[%" PRIu64 "]", b->shape[k]);
}

/* An index as written: an unsigned one (above INT64_MAX) as unsigned. */
static void index_text(const dbg_value *x, char *buf, size_t size)
{
	if (x->is_signed)
		snprintf(buf, size, "%" PRId64, x->v);
	else
		snprintf(buf, size, "%" PRIu64, (uint64_t)x->v);
}

/* Is index x within [0, n)? */
static bool index_below(const dbg_value *x, uint64_t n)
{
	return (!x->is_signed || x->v >= 0) && (uint64_t)x->v < n;
}

/* Check index k (as written, outermost first) of an element of b. */
static bool index_in_range(parser *ps, const emu_buffer *b, unsigned k, const dbg_value *x)
{
	char v[32];
	index_text(x, v, sizeof v);
	if (b->ndims == 0) {
		if (index_below(x, b->length))
			return true;
		fail(ps, "Index %s is out of range for %s (elements 0 to %" PRIu64 ").", v, b->name,
		     b->length - 1);
		return false;
	}
	const unsigned dim = b->ndims - 1 - k;
	if (index_below(x, b->shape[dim]))
		return true;
	char shape[EMU_NAME_MAX + 64];
	shape_text(b, shape, sizeof shape);
	static const char *const nth[] = { "first", "second", "third" };
	fail(ps, "Index %s is out of range for the %s index of %s (0 to %" PRIu64 ").", v, nth[k],
	     shape, b->shape[dim] - 1);
	return false;
}

/* The indexes after "NAME[": one for a buffer, one per dimension for a
 * tensor, written outermost first as C does (doc/FORMAT.md: `tensor A
 * f32 64x32` is A[32][64]), so A[i][j] is element (i0, i1) = (j, i) of
 * the layout (emu/layout/layout.h).  Sets *flat.  false on an error. */
static bool parse_indexes(parser *ps, const emu_buffer *b, uint64_t *flat)
{
	const unsigned want = b->ndims ? b->ndims : 1;
	uint64_t idx[EMU_LAYOUT_DIMS] = { 0, 0, 0 };
	unsigned k = 0;
	do {
		dbg_value v = parse_expr(ps);
		if (ps->failed)
			return false;
		if (!accept(ps, "]")) {
			syntax_error(ps);
			return false;
		}
		char what[EMU_NAME_MAX + 32];
		snprintf(what, sizeof what, "The index of %s", b->name);
		if (!need_integer(ps, &v, what))
			return false;
		if (k < want && !ps->syntax_only && !index_in_range(ps, b, k, &v))
			return false;
		if (k < want)
			idx[b->ndims ? b->ndims - 1 - k : 0] = (uint64_t)v.v;
		k++;
	} while (accept(ps, "["));
	if (k != want) {
		char shape[EMU_NAME_MAX + 64];
		shape_text(b, shape, sizeof shape);
		if (b->ndims)
			fail(ps, "%s has %u dimension%s (%s): expected %u index%s, got %u.", b->name,
			     b->ndims, b->ndims == 1 ? "" : "s", shape, want, want == 1 ? "" : "es", k);
		else
			fail(ps, "%s is a buffer of one dimension: expected %s[INDEX], got %u indexes.",
			     b->name, b->name, k);
		return false;
	}
	*flat = b->ndims ? idx[0] + b->shape[0] * (idx[1] + b->shape[1] * idx[2]) : idx[0];
	return true;
}

static dbg_value read_element(parser *ps, const emu_buffer *b)
{
	uint64_t i;
	if (!parse_indexes(ps, b, &i) || ps->syntax_only)
		return plain(0);
	if (!ps->s->em) {
		fail(ps, "The program is not being run.");
		return plain(0);
	}
	return dbg_value_of_element(ps->s, b, i);
}

/* Target mode: a name the target knows (ops->lookup): a scalar, or an
 * array's element, NAME[I] (NAME[I][J] for an array of two dimensions
 * or more, outermost first as C, the shape tgt_array gives). */
static dbg_value parse_target_name(parser *ps, const char *start, size_t len)
{
	dbg_session *s = ps->s;
	char name[TGT_NAME_MAX];
	tgt_sym sym;
	skip_space(ps);
	const bool known = len < sizeof name && s->tg &&
			   (memcpy(name, start, len), name[len] = '\0', s->ops->lookup(s->tg, name, &sym));
	if (!known && len == 3 && (!strncmp(start, "inf", 3) || !strncmp(start, "nan", 3)))
		return dbg_value_real(*start == 'i' ? INFINITY : NAN);
	if (!known) {
		fail(ps, "No symbol \"%.*s\" in current context.", (int)len, start);
		return plain(0);
	}
	if (!ps->syntax_only && !s->t_running) {
		fail(ps, "The program is not being run.");
		return plain(0);
	}
	skip_space(ps);
	char why[256];
	if (!sym.is_array && !ps->syntax_only && s->ops->unavailable &&
	    s->ops->unavailable(s->tg, &sym, why, sizeof why)) {
		fail(ps, "%s.", why);
		return plain(0);
	}
	if (!sym.is_array && (sym.length <= 1 || *ps->p != '['))
		return ps->syntax_only ? plain(0) : dbg_tgt_value(sym.type, s->ops->read(s->tg, &sym, 0));
	tgt_array a = { .ndim = 1, .shape = { sym.length } };
	const long ai = tgt_array_find(s->ops, s->tg, name);
	if (ai >= 0)
		s->ops->array(s->tg, (size_t)ai, &a);
	if (!accept(ps, "[")) {
		fail(ps, "%s is an array of %" PRIu64 " elements: expected an element, %s[INDEX].",
		     name, sym.length, name);
		return plain(0);
	}
	uint64_t flat = 0;
	unsigned k = 0;
	do {
		dbg_value v = parse_expr(ps);
		if (ps->failed)
			return plain(0);
		if (!accept(ps, "]")) {
			syntax_error(ps);
			return plain(0);
		}
		char what[TGT_NAME_MAX + 32];
		snprintf(what, sizeof what, "The index of %s", name);
		if (!need_integer(ps, &v, what))
			return plain(0);
		const uint64_t dim = a.ndim > 1 && k < a.ndim ? a.shape[k] : sym.length;
		if (!ps->syntax_only && !index_below(&v, dim)) {
			char t[32];
			index_text(&v, t, sizeof t);
			fail(ps, "Index %s is out of range for %s (0 to %" PRIu64 ").", t, name, dim - 1);
			return plain(0);
		}
		flat = flat * (a.ndim > 1 ? dim : 1) + (uint64_t)v.v;
		k++;
	} while (accept(ps, "["));
	if (k != (a.ndim > 1 ? a.ndim : 1)) {
		fail(ps, "%s has %u dimension%s: expected %u index%s, got %u.", name, a.ndim,
		     a.ndim == 1 ? "" : "s", a.ndim, a.ndim == 1 ? "" : "es", k);
		return plain(0);
	}
	return ps->syntax_only ? plain(0) : dbg_tgt_value(sym.type, s->ops->read(s->tg, &sym, flat));
}

/* A name: letters, digits, '_' and '.'; a '%' may begin it or follow a
 * '.' (a PTX register, %r5 or t37.%r5). */
static dbg_value parse_name(parser *ps)
{
	const char *start = ps->p;
	if (*ps->p == '%')
		ps->p++;
	while (isalnum((unsigned char)*ps->p) || *ps->p == '_' || *ps->p == '.' ||
	       (*ps->p == '%' && ps->p[-1] == '.' && isalpha((unsigned char)ps->p[1])))
		ps->p++;
	size_t len = (size_t)(ps->p - start);
	if (ps->s->ops)
		return parse_target_name(ps, start, len);
	const emu_buffer *b = dbg_find_buffer(ps->s, start, len);
	skip_space(ps);
	/* inf and nan are literals, unless a buffer of that name is indexed */
	if ((!b || *ps->p != '[') && (len == 3 && (!strncmp(start, "inf", 3) ||
						   !strncmp(start, "nan", 3))))
		return dbg_value_real(*start == 'i' ? INFINITY : NAN);
	if (!b) {
		fail(ps, "No symbol \"%.*s\" in current context.", (int)len, start);
		return plain(0);
	}
	if (!accept(ps, "[")) {
		if (b->ndims) {
			char shape[EMU_NAME_MAX + 64];
			shape_text(b, shape, sizeof shape);
			fail(ps, "%s is a tensor (%s): expected an element, %s%s.", b->name, shape,
			     b->name, b->ndims == 1 ? "[I]" : b->ndims == 2 ? "[I][J]" : "[I][J][K]");
		} else {
			fail(ps, "%s is a buffer: expected an element, %s[INDEX].", b->name, b->name);
		}
		return plain(0);
	}
	return read_element(ps, b);
}

/* The SRAM functions: cells and latches read through the array's port.
 *   $cell(A, WL, BL)          one cell
 *   $C(A, BL) $T $E $BL $BLB  one bitline's latch, mask or sensed value
 *   $row(A, WL [, BL0 [, N]]) N bitlines (default up to 64) from BL0 of a
 *                             wordline (bit k: bitline BL0 + k)
 *   $col(A, BL [, WL0 [, N]]) N wordlines from WL0 of a bitline (bit k:
 *                             wordline WL0 + k): a field of an element */
typedef struct sram_fn_desc {
	const char *name;
	const char *args;  /* one letter per argument: a array, w wordline, b bitline, n count */
	unsigned min_args; /* the others may be left out, from the end */
	int latch;         /* enum sram_latch, or -1 */
} sram_fn_desc;

static const sram_fn_desc sram_fns[] = {
	{ "cell", "awb", 3, -1 }, { "row", "awbn", 2, -1 }, { "col", "abwn", 2, -1 },
	{ "C", "ab", 2, SRAM_CARRY }, { "T", "ab", 2, SRAM_TAG }, { "E", "ab", 2, SRAM_ENABLE },
	{ "BL", "ab", 2, SRAM_BL }, { "BLB", "ab", 2, SRAM_BLB },
};

/* Check argument k of f against its limit (arrays, wordlines, bitlines;
 * a count must keep the range inside the array and be at most 64). */
static bool arg_in_range(parser *ps, const sram_fn_desc *f, unsigned k, const int64_t *a)
{
	const sram_machine *m = ps->s->em->m;
	const char kind = f->args[k];
	const int64_t v = a[k];
	if (kind == 'n') {
		const uint64_t lines = f->name[0] == 'r' ? m->g.bitlines : m->g.wordlines;
		const uint64_t room = lines - (uint64_t)a[2];
		const uint64_t most = room < 64 ? room : 64;
		if (v >= 1 && (uint64_t)v <= most)
			return true;
		fail(ps, "$%s: count %" PRId64 " is out of range (1 to %" PRIu64 " from %s %" PRId64 ").",
		     f->name, v, most, f->name[0] == 'r' ? "bitline" : "wordline", a[2]);
		return false;
	}
	uint64_t limit = kind == 'a' ? m->narrays : kind == 'w' ? m->g.wordlines : m->g.bitlines;
	if (v >= 0 && (uint64_t)v < limit)
		return true;
	fail(ps, "$%s: %s %" PRId64 " is out of range (0 to %" PRIu64 ").", f->name,
	     kind == 'a' ? "array" : kind == 'w' ? "wordline" : "bitline", v, limit - 1);
	return false;
}

static dbg_value read_sram(parser *ps, const sram_fn_desc *f, const int64_t *a, unsigned n)
{
	const sram_machine *m = ps->s->em->m;
	unsigned arr = (unsigned)a[0];
	if (f->latch >= 0)
		return (dbg_value){ .v = sram_get_latch(m, arr, (enum sram_latch)f->latch,
							(unsigned)a[1]), .width = 1 };
	if (strcmp(f->name, "cell") == 0)
		return (dbg_value){ .v = sram_get_bit(m, arr, (unsigned)a[1], (unsigned)a[2]),
				    .width = 1 };
	bool row = strcmp(f->name, "row") == 0;
	unsigned fixed = (unsigned)a[1], from = n > 2 ? (unsigned)a[2] : 0;
	unsigned limit = row ? m->g.bitlines : m->g.wordlines;
	unsigned count = limit - from < 64 ? limit - from : 64;
	if (n > 3)
		count = (unsigned)a[3];
	uint64_t v = 0;
	for (unsigned k = 0; k < count; k++) {
		bool bit = row ? sram_get_bit(m, arr, fixed, from + k)
			       : sram_get_bit(m, arr, from + k, fixed);
		v |= (uint64_t)bit << k;
	}
	return (dbg_value){ .v = (int64_t)v, .width = count };
}

/* The arguments "(" expr { "," expr } ")" of an SRAM function, integers. */
static unsigned parse_args(parser *ps, const sram_fn_desc *f, int64_t a[4])
{
	unsigned n = 0;
	if (accept(ps, ")"))
		return 0;
	do {
		dbg_value v = parse_expr(ps);
		char what[32];
		snprintf(what, sizeof what, "An argument of $%s", f->name);
		if (ps->failed || !need_integer(ps, &v, what))
			return 0;
		if (n < 4)
			a[n] = v.v;
		n++;
	} while (accept(ps, ","));
	if (!accept(ps, ")"))
		syntax_error(ps);
	return n;
}

static dbg_value parse_sram_fn(parser *ps, const sram_fn_desc *f)
{
	int64_t a[4] = { 0, 0, 0, 0 };
	unsigned n = parse_args(ps, f, a);
	if (ps->failed)
		return plain(0);
	unsigned max_args = (unsigned)strlen(f->args);
	if (n < f->min_args || n > max_args) {
		if (max_args > f->min_args)
			fail(ps, "$%s takes %u to %u arguments, not %u.", f->name, f->min_args,
			     max_args, n);
		else
			fail(ps, "$%s takes %u arguments, not %u.", f->name, max_args, n);
		return plain(0);
	}
	if (ps->syntax_only)
		return plain(0);
	if (!ps->s->em) {
		fail(ps, "The program is not being run.");
		return plain(0);
	}
	for (unsigned k = 0; k < n; k++)
		if (!arg_in_range(ps, f, k, a))
			return plain(0);
	return read_sram(ps, f, a, n);
}

/* The value history: "$" the last value, "$$" the one before, "$$N" N
 * back from the last, "$N" value N (gdb's numbering, from 1). */
static dbg_value parse_history(parser *ps)
{
	const char *p = ps->p + 1;
	const bool back = *p == '$';
	p += back;
	size_t digits = strspn(p, "0123456789");
	uint64_t n = 0;
	for (size_t k = 0; k < digits && n < (UINT64_MAX - 9) / 10; k++)
		n = n * 10 + (uint64_t)(p[k] - '0');
	ps->p = p + digits;
	if (ps->syntax_only)
		return plain(0);
	const size_t have = ps->s->nvalues;
	/* $ is $$0, $$ is $$1 */
	const uint64_t from_last = back ? (digits ? n : 1) : 0;
	if (!back && digits && (n == 0 || n > have)) {
		fail(ps, "History has not yet reached $%" PRIu64 ".", n);
		return plain(0);
	}
	if ((back || !digits) && from_last >= have) {
		if (!have)
			fail(ps, "The value history is empty (print records its values there).");
		else
			fail(ps, "History has not yet reached $$%" PRIu64 " (it holds $1 to $%zu).",
			     from_last, have);
		return plain(0);
	}
	return ps->s->values[!back && digits ? n - 1 : have - 1 - from_last].v;
}

/* $NAME, a convenience variable: set with `set $NAME = EXPR`. */
static dbg_value parse_convenience(parser *ps, const char *name, size_t len)
{
	if (ps->syntax_only)
		return plain(0);
	const dbg_value *v = dbg_conv_find(ps->s, name, len);
	if (v)
		return *v;
	fail(ps, "Unknown variable \"$%.*s\": $pc, $upc, $cycle, the value history ($, $$, $N), "
	     "a convenience variable set with \"set $%.*s = EXPR\", or $cell, $row, $col, $C, $T, "
	     "$E, $BL, $BLB with arguments.", (int)len, name, (int)len, name);
	return plain(0);
}

static dbg_value parse_variable(parser *ps)
{
	const emu_machine *em = ps->s->em;
	const char *name = ps->p + 1;
	if (!isalpha((unsigned char)*name) && *name != '_')
		return parse_history(ps);
	size_t len = 0;
	while (isalnum((unsigned char)name[len]) || name[len] == '_')
		len++;
	ps->p = name + len;
	for (size_t k = 0; k < sizeof sram_fns / sizeof *sram_fns; k++)
		if (strlen(sram_fns[k].name) == len && strncmp(name, sram_fns[k].name, len) == 0 &&
		    accept(ps, "("))
			return parse_sram_fn(ps, &sram_fns[k]);
	static const char *const names[] = { "cycle", "upc", "pc" };
	for (int k = 0; k < 3; k++) {
		if (strlen(names[k]) != len || strncmp(name, names[k], len) != 0)
			continue;
		if (ps->syntax_only)
			return plain(0);
		if (ps->s->ops && k == 0 && ps->s->t_running) /* a target's own cycles */
			return plain((int64_t)dbg_cycles(ps->s));
		if (!em) {
			fail(ps, "The program is not being run.");
			return plain(0);
		}
		uint64_t v = k == 0 ? dbg_cycles(ps->s) : k == 1 ? em->upc : em->pc;
		return plain((int64_t)v);
	}
	return parse_convenience(ps, name, len);
}

static dbg_value parse_primary(parser *ps)
{
	skip_space(ps);
	if (accept(ps, "(")) {
		dbg_value v = parse_expr(ps);
		if (!ps->failed && !accept(ps, ")"))
			syntax_error(ps);
		return v;
	}
	if (isdigit((unsigned char)*ps->p) ||
	    (*ps->p == '.' && isdigit((unsigned char)ps->p[1])))
		return parse_number(ps);
	if (*ps->p == '$')
		return parse_variable(ps);
	if (isalpha((unsigned char)*ps->p) || *ps->p == '_' ||
	    (*ps->p == '%' && isalpha((unsigned char)ps->p[1])))
		return parse_name(ps);
	syntax_error(ps);
	return plain(0);
}

static dbg_value parse_unary(parser *ps);

static dbg_value parse_unary_nested(parser *ps)
{
	if (accept(ps, "-")) {
		dbg_value v = parse_unary(ps);
		if (v.is_float)
			return dbg_value_real(-v.f);
		return plain((int64_t)(0 - (uint64_t)v.v));
	}
	if (accept(ps, "!")) {
		dbg_value v = parse_unary(ps);
		return plain(!dbg_value_true(&v));
	}
	if (accept(ps, "~")) {
		dbg_value v = parse_unary(ps);
		if (v.is_float && !ps->failed)
			fail(ps, "Integer-only operation: ~ needs an integer, and a floating-point value was given.");
		return plain(~v.v);
	}
	return parse_primary(ps);
}

static dbg_value parse_unary(parser *ps)
{
	if (ps->depth >= EXPR_MAX_DEPTH) {
		fail(ps, "Expression nested too deeply (more than %d levels).", EXPR_MAX_DEPTH);
		return plain(0);
	}
	ps->depth++;
	dbg_value v = parse_unary_nested(ps);
	ps->depth--;
	return v;
}

/* l OP r for + - * / % on integers (wrapping; / and % truncate). */
static dbg_value int_arith(parser *ps, char op, int64_t l, int64_t r)
{
	const uint64_t a = (uint64_t)l, b = (uint64_t)r;
	switch (op) {
	case '+': return plain((int64_t)(a + b));
	case '-': return plain((int64_t)(a - b));
	case '*': return plain((int64_t)(a * b));
	default: break;
	}
	if (r == 0) {
		if (!ps->syntax_only)
			fail(ps, "Division by zero");
		return plain(l);
	}
	if (l == INT64_MIN && r == -1)
		return plain(op == '/' ? INT64_MIN : 0);
	return plain(op == '/' ? l / r : l % r);
}

/* The bitwise operators and shifts: integers only, as in C.  A shift
 * counts 0 to 63 bits; >> of a negative value keeps its sign (gdb's
 * arithmetic shift of a signed long). */
static dbg_value bit_op(parser *ps, const char *op, const dbg_value *l, const dbg_value *r)
{
	if (l->is_float || r->is_float) {
		fail(ps, "Integer-only operation: %s needs two integers, and a floating-point value was given.",
		     op);
		return plain(0);
	}
	const uint64_t a = (uint64_t)l->v, b = (uint64_t)r->v;
	if (op[0] == '&' || op[0] == '|' || op[0] == '^')
		return plain((int64_t)(op[0] == '&' ? a & b : op[0] == '|' ? a | b : a ^ b));
	if (r->v < 0 || r->v > 63) {
		if (!ps->syntax_only)
			fail(ps, "Shift count %" PRId64 " is out of range (0 to 63).", r->v);
		return plain(0);
	}
	if (op[0] == '<')
		return plain((int64_t)(a << b));
	return plain(l->v < 0 ? ~(int64_t)(~a >> b) : (int64_t)(a >> b));
}

/* l OP r: with a double operand the other is converted and the result
 * is a double (IEEE: 1 / 0.0 is inf); % takes integers only. */
static dbg_value arith(parser *ps, char op, const dbg_value *l, const dbg_value *r)
{
	if (!l->is_float && !r->is_float)
		return int_arith(ps, op, l->v, r->v);
	const double a = dbg_value_double(l), b = dbg_value_double(r);
	switch (op) {
	case '+': return dbg_value_real(a + b);
	case '-': return dbg_value_real(a - b);
	case '*': return dbg_value_real(a * b);
	case '/': return dbg_value_real(a / b);
	default:
		fail(ps, "Integer-only operation: %% needs two integers, and a floating-point value was given.");
		return plain(0);
	}
}

static dbg_value parse_product(parser *ps)
{
	dbg_value l = parse_unary(ps);
	for (;;) {
		char op = accept(ps, "*") ? '*' : accept(ps, "/") ? '/' : accept(ps, "%") ? '%' : 0;
		if (!op || ps->failed)
			return l;
		dbg_value r = parse_unary(ps);
		if (ps->failed)
			return l;
		l = arith(ps, op, &l, &r);
	}
}

static dbg_value parse_sum(parser *ps)
{
	dbg_value l = parse_product(ps);
	for (;;) {
		char op = accept(ps, "+") ? '+' : accept(ps, "-") ? '-' : 0;
		if (!op || ps->failed)
			return l;
		dbg_value r = parse_product(ps);
		if (ps->failed)
			return l;
		l = arith(ps, op, &l, &r);
	}
}

static dbg_value parse_shift(parser *ps)
{
	dbg_value l = parse_sum(ps);
	for (;;) {
		const char *op = accept(ps, "<<") ? "<<" : accept(ps, ">>") ? ">>" : NULL;
		if (!op || ps->failed)
			return l;
		dbg_value r = parse_sum(ps);
		if (ps->failed)
			return l;
		l = bit_op(ps, op, &l, &r);
	}
}

/* Comparison k of ops[] (<= >= == != < >) on doubles or integers; a
 * NaN compares unequal to everything, itself included. */
static bool compare(int k, const dbg_value *l, const dbg_value *r)
{
	if (l->is_float || r->is_float) {
		const double a = dbg_value_double(l), b = dbg_value_double(r);
		return k == 0 ? a <= b : k == 1 ? a >= b : k == 2 ? a == b :
		       k == 3 ? a != b : k == 4 ? a < b : a > b;
	}
	const int64_t a = l->v, b = r->v;
	return k == 0 ? a <= b : k == 1 ? a >= b : k == 2 ? a == b :
	       k == 3 ? a != b : k == 4 ? a < b : a > b;
}

static const char *const cmp_ops[] = { "<=", ">=", "==", "!=", "<", ">" };

/* rel (ops 0, 1, 4, 5 of cmp_ops) binds tighter than eq (2, 3), as in C. */
static dbg_value parse_rel(parser *ps)
{
	dbg_value l = parse_shift(ps);
	static const int rel[] = { 0, 1, 4, 5 };
	for (int k = 0; k < 4 && !ps->failed; k++) {
		if (!accept(ps, cmp_ops[rel[k]]))
			continue;
		dbg_value r = parse_shift(ps);
		l = plain(compare(rel[k], &l, &r));
		k = -1; /* a < b < c, left to right */
	}
	return l;
}

static dbg_value parse_eq(parser *ps)
{
	dbg_value l = parse_rel(ps);
	for (;;) {
		const int k = accept(ps, "==") ? 2 : accept(ps, "!=") ? 3 : -1;
		if (k < 0 || ps->failed)
			return l;
		dbg_value r = parse_rel(ps);
		l = plain(compare(k, &l, &r));
	}
}

/* One level of & ^ |: op over operands of the next tighter level. */
static dbg_value parse_bitwise(parser *ps, int level)
{
	static const char *const ops[] = { "|", "^", "&" };
	dbg_value l = level == 2 ? parse_eq(ps) : parse_bitwise(ps, level + 1);
	while (!ps->failed && accept(ps, ops[level])) {
		dbg_value r = level == 2 ? parse_eq(ps) : parse_bitwise(ps, level + 1);
		if (ps->failed)
			return l;
		l = bit_op(ps, ops[level], &l, &r);
	}
	return l;
}

/* Parse with nothing read nor any run-time error when skip (the operand
 * that && || ?: do not evaluate, as C). */
static dbg_value parse_maybe(parser *ps, dbg_value (*fn)(parser *), bool skip)
{
	const bool was = ps->syntax_only;
	ps->syntax_only = was || skip;
	dbg_value v = fn(ps);
	ps->syntax_only = was;
	return v;
}

static dbg_value parse_bitor(parser *ps)
{
	return parse_bitwise(ps, 0);
}

static dbg_value parse_and(parser *ps)
{
	dbg_value l = parse_bitor(ps);
	while (!ps->failed && accept(ps, "&&")) {
		const bool t = dbg_value_true(&l);
		dbg_value r = parse_maybe(ps, parse_bitor, !t);
		l = plain(t && dbg_value_true(&r));
	}
	return l;
}

static dbg_value parse_or(parser *ps)
{
	dbg_value l = parse_and(ps);
	while (!ps->failed && accept(ps, "||")) {
		const bool t = dbg_value_true(&l);
		dbg_value r = parse_maybe(ps, parse_and, t);
		l = plain(t || dbg_value_true(&r));
	}
	return l;
}

/* C's conditional: only the chosen side is evaluated. */
static dbg_value parse_expr(parser *ps)
{
	dbg_value c = parse_or(ps);
	if (ps->failed || !accept(ps, "?"))
		return c;
	const bool t = dbg_value_true(&c);
	dbg_value a = parse_maybe(ps, parse_expr, !t);
	if (ps->failed)
		return a;
	if (!accept(ps, ":")) {
		syntax_error(ps);
		return a;
	}
	dbg_value b = parse_maybe(ps, parse_expr, t);
	return t ? a : b;
}


static int evaluate(dbg_session *s, const char *text, dbg_value *out, char *err,
		    size_t errsize, bool syntax_only)
{
	parser ps = { s, text, text, err, errsize, false, syntax_only, 0 };
	skip_space(&ps);
	if (!*ps.p) {
		fail(&ps, "An expression is required.");
		return -1;
	}
	*out = parse_expr(&ps);
	skip_space(&ps);
	if (!ps.failed && *ps.p)
		syntax_error(&ps);
	return ps.failed ? -1 : 0;
}

int dbg_eval_quiet(dbg_session *s, const char *text, dbg_value *out, char *err,
		   size_t errsize)
{
	return evaluate(s, text, out, err, errsize, false);
}

int dbg_expr_check(dbg_session *s, const char *text)
{
	char err[512];
	dbg_value v;
	if (evaluate(s, text, &v, err, sizeof err, true) == 0)
		return 0;
	dbg_error(s, "%s", err);
	return -1;
}

int dbg_eval(dbg_session *s, const char *text, dbg_value *out)
{
	char err[512];
	if (dbg_eval_quiet(s, text, out, err, sizeof err) == 0)
		return 0;
	dbg_error(s, "%s", err);
	return -1;
}

int dbg_eval_element_quiet(dbg_session *s, const char *text, const emu_buffer **b, uint64_t *i,
			   char *err, size_t errsize)
{
	parser ps = { s, text, text, err, errsize, false, false, 0 };
	skip_space(&ps);
	const char *start = ps.p;
	while (isalnum((unsigned char)*ps.p) || *ps.p == '_' || *ps.p == '.')
		ps.p++;
	const size_t len = (size_t)(ps.p - start);
	*b = dbg_find_buffer(s, start, len);
	skip_space(&ps);
	if (!len || !accept(&ps, "[")) {
		fail(&ps, "expected BUF[INDEX] or TENSOR[I][J]..., got \"%s\".", text);
	} else if (!*b) {
		fail(&ps, "No symbol \"%.*s\" in current context.", (int)len, start);
	} else if (parse_indexes(&ps, *b, i)) {
		skip_space(&ps);
		if (*ps.p)
			syntax_error(&ps);
	}
	return ps.failed ? -1 : 0;
}

int dbg_eval_element(dbg_session *s, const char *text, const emu_buffer **b, uint64_t *i)
{
	char err[512];
	if (dbg_eval_element_quiet(s, text, b, i, err, sizeof err) == 0)
		return 0;
	dbg_error(s, "%s", err);
	return -1;
}

const emu_buffer *dbg_find_buffer(const dbg_session *s, const char *name, size_t len)
{
	if (!s->loaded)
		return NULL;
	for (size_t i = 0; i < s->prog.nbufs; i++)
		if (strlen(s->prog.bufs[i].name) == len &&
		    strncmp(s->prog.bufs[i].name, name, len) == 0)
			return &s->prog.bufs[i];
	return NULL;
}
