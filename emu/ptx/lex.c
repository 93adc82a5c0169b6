/* SPDX-License-Identifier: MIT */
/*
 * lex.c: the tokens of PTX text (doc/PTX.md, "Grammar"): words (opcodes
 * with their dotted modifiers, directives, registers %r1 and %tid.x,
 * labels, symbols), numbers (decimal, 0x hex, 0f/0d float bits) and
 * punctuation; // and block comments are skipped.  Never reads past len.
 */
#include <stdarg.h>
#include <string.h>

#include "ptx_int.h"

void ptx_lex_init(ptx_lex *x, const char *path, const char *s, size_t len, diag *d)
{
	memset(x, 0, sizeof *x);
	x->path = path;
	x->s = s;
	x->len = len;
	x->line = 1;
	x->d = d;
}

int ptx_err(ptx_lex *x, int line, int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vat(x->d, x->path, line, col, fmt, ap);
	va_end(ap);
	return -1;
}

bool ptx_tok_is(const ptx_tok_t *t, const char *word)
{
	size_t n = strlen(word);
	return t->kind == TK_ID && t->len == n && memcmp(t->s, word, n) == 0;
}

bool ptx_tok_punct(const ptx_tok_t *t, char c)
{
	return t->kind == TK_PUNCT && t->punct == c;
}

static int col_of(const ptx_lex *x, size_t pos)
{
	return (int)(pos - x->line_start) + 1;
}

/* Skip blanks, newlines and comments; -1 on an unterminated block
 * comment or a byte no PTX text holds. */
static int skip(ptx_lex *x)
{
	while (x->pos < x->len) {
		char c = x->s[x->pos];
		if (c == '\n') {
			x->pos++;
			x->line++;
			x->line_start = x->pos;
		} else if (text_is_space(c)) {
			x->pos++;
		} else if (c == '/' && x->pos + 1 < x->len && x->s[x->pos + 1] == '/') {
			while (x->pos < x->len && x->s[x->pos] != '\n')
				x->pos++;
		} else if (c == '/' && x->pos + 1 < x->len && x->s[x->pos + 1] == '*') {
			int line = x->line, col = col_of(x, x->pos);
			x->pos += 2;
			for (;;) {
				if (x->pos + 1 >= x->len)
					return ptx_err(x, line, col, "unterminated /* comment");
				if (x->s[x->pos] == '*' && x->s[x->pos + 1] == '/') {
					x->pos += 2;
					break;
				}
				if (x->s[x->pos] == '\n') {
					x->line++;
					x->line_start = x->pos + 1;
				}
				x->pos++;
			}
		} else {
			break;
		}
	}
	return 0;
}

static bool word_start(char c)
{
	return text_is_ident_start(c) || c == '%' || c == '.' || c == '$';
}

static bool word_char(char c)
{
	return text_is_ident_char(c) || c == '.' || c == '$';
}

static int number(ptx_lex *x, ptx_tok_t *t)
{
	const char *s = x->s + x->pos;
	size_t n = x->len - x->pos;
	if (n >= 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F' || s[1] == 'd' || s[1] == 'D')) {
		size_t want = (s[1] == 'f' || s[1] == 'F') ? 8 : 16;
		uint64_t v = 0;
		size_t i = 2;
		for (; i < n && text_hex_digit(s[i]) >= 0; i++) {
			if (i - 2 >= want)
				break;
			v = v << 4 | (uint64_t)text_hex_digit(s[i]);
		}
		if (i - 2 != want || (i < n && word_char(s[i])))
			return ptx_err(x, x->line, t->col, "a float immediate is 0f and 8 hex digits or 0d and 16");
		t->kind = TK_FNUM;
		t->num = v;
		t->len = i;
		x->pos += i;
		return 0;
	}
	uint64_t mag;
	bool neg;
	size_t used;
	const char *err;
	/* a PTX integer may end in U (unsigned), which changes nothing here */
	size_t m = 0;
	while (m < n && (text_is_ident_char(s[m])))
		m++;
	size_t cut = m;
	if (cut > 1 && (s[cut - 1] == 'U' || s[cut - 1] == 'u') && !(cut > 2 && (s[1] == 'x' || s[1] == 'X')))
		cut--;
	if (text_scan_number(s, cut, &mag, &neg, &used, &err) < 0 || used != cut)
		return ptx_err(x, x->line, t->col, "malformed number '%.*s'", (int)(m > 40 ? 40 : m), s);
	t->kind = TK_NUM;
	t->num = mag;
	t->len = m;
	x->pos += m;
	return 0;
}

int ptx_lex_next(ptx_lex *x)
{
	ptx_tok_t *t = &x->t;
	memset(t, 0, sizeof *t);
	if (skip(x) < 0)
		return -1;
	t->line = x->line;
	t->col = col_of(x, x->pos);
	t->s = x->s + x->pos;
	if (x->pos >= x->len) {
		t->kind = TK_EOF;
		return 0;
	}
	char c = x->s[x->pos];
	if (c >= '0' && c <= '9')
		return number(x, t);
	if (word_start(c)) {
		size_t e = x->pos + 1;
		while (e < x->len && word_char(x->s[e]))
			e++;
		t->kind = TK_ID;
		t->len = e - x->pos;
		x->pos = e;
		return 0;
	}
	if (strchr(",;:[]{}()<>+-@!=|", c) && c) {
		t->kind = TK_PUNCT;
		t->punct = c;
		t->len = 1;
		x->pos++;
		return 0;
	}
	if ((unsigned char)c >= 0x20 && (unsigned char)c < 0x7f)
		return ptx_err(x, t->line, t->col, "unexpected character '%c'", c);
	return ptx_err(x, t->line, t->col, "unexpected byte 0x%02x", (unsigned char)c);
}
