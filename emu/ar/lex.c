/* SPDX-License-Identifier: MIT */
/*
 * lex.c: the tokens of one line of an .ar program (doc/ACTIVE-ROUTING.md,
 * "Program format").  Every token knows its column, so every message can
 * name file:line:column.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ar_lex.h"

static bool is_ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_ident_char(char c)
{
	return is_ident_start(c) || is_digit(c);
}

void ar_lex_init(ar_lex *lx, const char *path, const char *s, size_t len, int line)
{
	memset(lx, 0, sizeof *lx);
	lx->path = path;
	lx->s = s;
	lx->len = len;
	lx->line = line;
}

static int lex_error(ar_lex *lx, size_t pos, const char *msg, diag *d)
{
	diag_at(d, lx->path, lx->line, (int)pos + 1, "%s", msg);
	return -1;
}

/* A number: decimal or 0x hex integer, or a decimal float (digits with a
 * '.' or an exponent).  Bounded: at most 40 characters. */
static int lex_number(ar_lex *lx, size_t start, ar_tok *t, diag *d)
{
	size_t i = start, n = lx->len;
	bool hex = i + 1 < n && lx->s[i] == '0' && (lx->s[i + 1] == 'x' || lx->s[i + 1] == 'X');
	bool isfloat = false;
	if (hex) {
		i += 2;
		while (i < n && ((lx->s[i] >= '0' && lx->s[i] <= '9') ||
				 (lx->s[i] >= 'a' && lx->s[i] <= 'f') ||
				 (lx->s[i] >= 'A' && lx->s[i] <= 'F')))
			i++;
	} else {
		while (i < n && is_digit(lx->s[i]))
			i++;
		if (i < n && lx->s[i] == '.') {
			isfloat = true;
			i++;
			while (i < n && is_digit(lx->s[i]))
				i++;
		}
		if (i < n && (lx->s[i] == 'e' || lx->s[i] == 'E')) {
			size_t j = i + 1;
			if (j < n && (lx->s[j] == '+' || lx->s[j] == '-'))
				j++;
			if (j < n && is_digit(lx->s[j])) {
				isfloat = true;
				i = j;
				while (i < n && is_digit(lx->s[i]))
					i++;
			}
		}
	}
	if (i < n && is_ident_char(lx->s[i]))
		return lex_error(lx, i, "malformed number: a letter or digit follows it", d);
	if (i - start > 40 || (hex && i - start == 2))
		return lex_error(lx, start, hex ? "malformed hexadecimal number"
					       : "number too long (40 characters at most)", d);
	char buf[48];
	memcpy(buf, lx->s + start, i - start);
	buf[i - start] = 0;
	t->kind = isfloat ? AR_T_FLOAT : AR_T_INT;
	t->s = lx->s + start;
	t->len = i - start;
	errno = 0;
	if (isfloat) {
		t->fval = strtod(buf, NULL);
	} else {
		unsigned long long v = strtoull(buf, NULL, 0);
		if (errno || v > (unsigned long long)INT64_MAX)
			return lex_error(lx, start, "integer too large (2^63-1 at most)", d);
		t->ival = (int64_t)v;
	}
	lx->pos = i;
	return 0;
}

int ar_lex_next(ar_lex *lx, ar_tok *t, diag *d)
{
	while (lx->pos < lx->len && (lx->s[lx->pos] == ' ' || lx->s[lx->pos] == '\t' ||
				     lx->s[lx->pos] == '\r'))
		lx->pos++;
	memset(t, 0, sizeof *t);
	t->col = (int)lx->pos + 1;
	if (lx->pos >= lx->len || lx->s[lx->pos] == '#') {
		t->kind = AR_T_END;
		return 0;
	}
	char c = lx->s[lx->pos];
	size_t start = lx->pos;
	if (is_ident_start(c)) {
		while (lx->pos < lx->len && is_ident_char(lx->s[lx->pos]))
			lx->pos++;
		t->kind = AR_T_IDENT;
		t->s = lx->s + start;
		t->len = lx->pos - start;
		if (t->len >= 64)
			return lex_error(lx, start, "name too long (63 characters at most)", d);
		return 0;
	}
	if (is_digit(c) || (c == '.' && start + 1 < lx->len && is_digit(lx->s[start + 1])))
		return lex_number(lx, start, t, d);
	if (strchr("[](),=+-*/%:", c)) {
		t->kind = AR_T_PUNCT;
		t->p = c;
		t->s = lx->s + start;
		t->len = 1;
		lx->pos++;
		return 0;
	}
	if ((unsigned char)c < 0x20 || (unsigned char)c >= 0x7f)
		return lex_error(lx, start, "unexpected byte (only printable ASCII is allowed)", d);
	diag_at(d, lx->path, lx->line, t->col, "unexpected character '%c'", c);
	return -1;
}

int ar_lex_peek(ar_lex *lx, ar_tok *t, diag *d)
{
	size_t save = lx->pos;
	int rc = ar_lex_next(lx, t, d);
	lx->pos = save;
	return rc;
}

bool ar_tok_is(const ar_tok *t, const char *word)
{
	size_t n = strlen(word);
	return t->kind == AR_T_IDENT && t->len == n && memcmp(t->s, word, n) == 0;
}

bool ar_tok_punct(const ar_tok *t, char p)
{
	return t->kind == AR_T_PUNCT && t->p == p;
}

void ar_tok_text(const ar_tok *t, char *buf, size_t size)
{
	if (t->kind == AR_T_END) {
		snprintf(buf, size, "the end of the line");
		return;
	}
	size_t n = t->len < 40 ? t->len : 40;
	snprintf(buf, size, "'%.*s'", (int)n, t->s);
}
