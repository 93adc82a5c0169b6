/*
 * expr.c: infsdb's integer expressions.
 *
 *   expr    := or
 *   or      := and { "||" and }
 *   and     := cmp { "&&" cmp }
 *   cmp     := sum [ ("<" | "<=" | ">" | ">=" | "==" | "!=") sum ]
 *   sum     := product { ("+" | "-") product }
 *   product := unary { ("*" | "/" | "%") unary }
 *   unary   := ("-" | "!") unary | primary
 *   primary := NUMBER | "(" expr ")" | BUF "[" expr "]" | "$pc" | "$upc" | "$cycle"
 *            | "$" SRAMFN "(" expr { "," expr } ")"
 *
 * Arithmetic is on 64-bit two's complement values (wrapping).  An element
 * is read from the transposed bits (emu_elem_get) and sign-extended when
 * its buffer is signed.
 */
#include "config.h"

#include <ctype.h>
#include <inttypes.h>
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
	/* "<" must not take the first half of "<=" (and so on) */
	if (n == 1 && strchr("<>=!&|", tok[0]) && ps->p[1] == '=')
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
	return (dbg_value){ v, 64, true };
}

static dbg_value parse_or(parser *ps);

static dbg_value parse_number(parser *ps)
{
	char *end;
	int base = 10;
	const char *start = ps->p;
	if (start[0] == '0' && (start[1] == 'x' || start[1] == 'X'))
		base = 16, start += 2;
	else if (start[0] == '0' && (start[1] == 'b' || start[1] == 'B'))
		base = 2, start += 2;
	unsigned long long v = strtoull(start, &end, base);
	if (end == start || isalnum((unsigned char)*end) || *end == '_') {
		fail(ps, "Invalid number \"%.*s\".", (int)strcspn(ps->p, " )]+-*/%<>=!&|"), ps->p);
		return plain(0);
	}
	ps->p = end;
	return plain((int64_t)v);
}

static dbg_value read_element(parser *ps, const emu_buffer *b)
{
	dbg_value idx = parse_or(ps);
	if (ps->failed)
		return plain(0);
	if (!accept(ps, "]")) {
		syntax_error(ps);
		return plain(0);
	}
	if (ps->syntax_only)
		return plain(0);
	if (idx.v < 0 || (uint64_t)idx.v >= b->length) {
		fail(ps, "Index %" PRId64 " is out of range for %s (elements 0 to %" PRIu64 ").",
		     idx.v, b->name, b->length - 1);
		return plain(0);
	}
	if (!ps->s->em) {
		fail(ps, "The program is not being run.");
		return plain(0);
	}
	uint64_t raw = emu_elem_get(ps->s->em, b, (uint64_t)idx.v);
	int64_t v = b->is_signed ? isa_sext(raw, b->width) : (int64_t)raw;
	return (dbg_value){ v, b->width, b->is_signed != 0 };
}

static dbg_value parse_name(parser *ps)
{
	const char *start = ps->p;
	while (isalnum((unsigned char)*ps->p) || *ps->p == '_' || *ps->p == '.')
		ps->p++;
	size_t len = (size_t)(ps->p - start);
	const emu_buffer *b = dbg_find_buffer(ps->s, start, len);
	if (!b) {
		fail(ps, "No symbol \"%.*s\" in current context.", (int)len, start);
		return plain(0);
	}
	if (!accept(ps, "[")) {
		fail(ps, "%s is a buffer: expected an element, %s[INDEX].", b->name, b->name);
		return plain(0);
	}
	return read_element(ps, b);
}

/* The SRAM functions: cells and latches read through the array's port.
 *   $cell(A, WL, BL)        one cell
 *   $C(A, BL) $T $E $BL $BLB  one bitline's latch, mask or sensed value
 *   $row(A, WL [, BL0])     bitlines BL0..BL0+63 of a wordline (bit k: BL0+k)
 *   $col(A, BL [, WL0])     wordlines WL0..WL0+63 of a bitline (bit k: WL0+k) */
typedef struct sram_fn_desc {
	const char *name;
	const char *args;  /* one letter per argument: a array, w wordline, b bitline */
	unsigned min_args; /* the last may be left out when fewer than strlen(args) */
	int latch;         /* enum sram_latch, or -1 */
} sram_fn_desc;

static const sram_fn_desc sram_fns[] = {
	{ "cell", "awb", 3, -1 }, { "row", "awb", 2, -1 }, { "col", "abw", 2, -1 },
	{ "C", "ab", 2, SRAM_CARRY }, { "T", "ab", 2, SRAM_TAG }, { "E", "ab", 2, SRAM_ENABLE },
	{ "BL", "ab", 2, SRAM_BL }, { "BLB", "ab", 2, SRAM_BLB },
};

/* Check argument k of f against its limit (arrays, wordlines, bitlines). */
static bool arg_in_range(parser *ps, const sram_fn_desc *f, unsigned k, int64_t v)
{
	const sram_machine *m = ps->s->em->m;
	char kind = f->args[k];
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
		return (dbg_value){ sram_get_latch(m, arr, (enum sram_latch)f->latch,
						   (unsigned)a[1]), 1, false };
	if (strcmp(f->name, "cell") == 0)
		return (dbg_value){ sram_get_bit(m, arr, (unsigned)a[1], (unsigned)a[2]), 1, false };
	bool row = strcmp(f->name, "row") == 0;
	unsigned fixed = (unsigned)a[1], from = n > 2 ? (unsigned)a[2] : 0;
	unsigned limit = row ? m->g.bitlines : m->g.wordlines;
	unsigned count = limit - from < 64 ? limit - from : 64;
	uint64_t v = 0;
	for (unsigned k = 0; k < count; k++) {
		bool bit = row ? sram_get_bit(m, arr, fixed, from + k)
			       : sram_get_bit(m, arr, from + k, fixed);
		v |= (uint64_t)bit << k;
	}
	return (dbg_value){ (int64_t)v, count, false };
}

static dbg_value parse_sram_fn(parser *ps, const sram_fn_desc *f)
{
	int64_t a[3];
	unsigned n = 0;
	if (!accept(ps, ")")) {
		do {
			dbg_value v = parse_or(ps);
			if (ps->failed)
				return plain(0);
			if (n < 3)
				a[n] = v.v;
			n++;
		} while (accept(ps, ","));
		if (!accept(ps, ")")) {
			syntax_error(ps);
			return plain(0);
		}
	}
	unsigned max_args = (unsigned)strlen(f->args);
	if (n < f->min_args || n > max_args) {
		fail(ps, "$%s takes %u%s arguments, not %u.", f->name, f->min_args,
		     max_args > f->min_args ? " or 3" : "", n);
		return plain(0);
	}
	if (ps->syntax_only)
		return plain(0);
	if (!ps->s->em) {
		fail(ps, "The program is not being run.");
		return plain(0);
	}
	for (unsigned k = 0; k < n; k++)
		if (!arg_in_range(ps, f, k, a[k]))
			return plain(0);
	return read_sram(ps, f, a, n);
}

static dbg_value parse_variable(parser *ps)
{
	const emu_machine *em = ps->s->em;
	const char *name = ps->p + 1;
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
		if (!em) {
			fail(ps, "The program is not being run.");
			return plain(0);
		}
		uint64_t v = k == 0 ? dbg_cycles(ps->s) : k == 1 ? em->upc : em->pc;
		return plain((int64_t)v);
	}
	fail(ps, "Unknown variable \"$%.*s\" (known: $pc, $upc, $cycle, and $cell, $row, $col, $C, $T, $E, $BL, $BLB with arguments).",
	     (int)len, name);
	return plain(0);
}

static dbg_value parse_primary(parser *ps)
{
	skip_space(ps);
	if (accept(ps, "(")) {
		dbg_value v = parse_or(ps);
		if (!ps->failed && !accept(ps, ")"))
			syntax_error(ps);
		return v;
	}
	if (isdigit((unsigned char)*ps->p))
		return parse_number(ps);
	if (*ps->p == '$')
		return parse_variable(ps);
	if (isalpha((unsigned char)*ps->p) || *ps->p == '_')
		return parse_name(ps);
	syntax_error(ps);
	return plain(0);
}

static dbg_value parse_unary(parser *ps);

static dbg_value parse_unary_nested(parser *ps)
{
	if (accept(ps, "-")) {
		dbg_value v = parse_unary(ps);
		return plain((int64_t)(0 - (uint64_t)v.v));
	}
	if (accept(ps, "!"))
		return plain(!parse_unary(ps).v);
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

static dbg_value parse_product(parser *ps)
{
	dbg_value l = parse_unary(ps);
	for (;;) {
		char op = accept(ps, "*") ? '*' : accept(ps, "/") ? '/' : accept(ps, "%") ? '%' : 0;
		if (!op || ps->failed)
			return l;
		dbg_value r = parse_unary(ps);
		if (op == '*') {
			l = plain((int64_t)((uint64_t)l.v * (uint64_t)r.v));
			continue;
		}
		if (r.v == 0 && ps->syntax_only)
			continue;
		if (r.v == 0) {
			fail(ps, "Division by zero");
			return l;
		}
		if (l.v == INT64_MIN && r.v == -1)
			l = plain(op == '/' ? INT64_MIN : 0);
		else
			l = plain(op == '/' ? l.v / r.v : l.v % r.v);
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
		uint64_t a = (uint64_t)l.v, b = (uint64_t)r.v;
		l = plain((int64_t)(op == '+' ? a + b : a - b));
	}
}

static dbg_value parse_cmp(parser *ps)
{
	dbg_value l = parse_sum(ps);
	static const char *const ops[] = { "<=", ">=", "==", "!=", "<", ">" };
	for (int k = 0; k < 6; k++) {
		if (ps->failed || !accept(ps, ops[k]))
			continue;
		int64_t a = l.v, b = parse_sum(ps).v;
		bool r = k == 0 ? a <= b : k == 1 ? a >= b : k == 2 ? a == b :
			 k == 3 ? a != b : k == 4 ? a < b : a > b;
		return plain(r);
	}
	return l;
}

static dbg_value parse_and(parser *ps)
{
	dbg_value l = parse_cmp(ps);
	while (!ps->failed && accept(ps, "&&")) {
		bool r = parse_cmp(ps).v != 0;
		l = plain(l.v != 0 && r);
	}
	return l;
}

static dbg_value parse_or(parser *ps)
{
	dbg_value l = parse_and(ps);
	while (!ps->failed && accept(ps, "||")) {
		bool r = parse_and(ps).v != 0;
		l = plain(l.v != 0 || r);
	}
	return l;
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
	*out = parse_or(&ps);
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

void dbg_format_value(const dbg_value *v, char fmt, char *buf, size_t size)
{
	unsigned w = v->width ? v->width : 64;
	uint64_t bits = (uint64_t)v->v & (w == 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1);
	switch (fmt) {
	case 'x':
		snprintf(buf, size, "0x%" PRIx64, bits);
		return;
	case 'u':
		snprintf(buf, size, "%" PRIu64, bits);
		return;
	case 'd':
		snprintf(buf, size, "%" PRId64, isa_sext(bits, w));
		return;
	case 't': {
		unsigned n = w == 64 ? 64 : w;
		if (v->width == 64) /* a computed value: no leading zeros */
			while (n > 1 && !((bits >> (n - 1)) & 1))
				n--;
		size_t k = 0;
		for (unsigned i = n; i-- > 0 && k + 1 < size;)
			buf[k++] = (char)('0' + ((bits >> i) & 1));
		buf[k] = '\0';
		return;
	}
	default:
		if (v->is_signed)
			snprintf(buf, size, "%" PRId64, v->v);
		else
			snprintf(buf, size, "%" PRIu64, bits);
	}
}
