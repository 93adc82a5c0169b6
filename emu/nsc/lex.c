/* SPDX-License-Identifier: MIT */
/*
 * lex.c: the tokens of one line of a .nsc program (doc/STREAMS.md,
 * "Grammar"): names, integers (decimal or 0x), decimal floats (an `f`
 * suffix makes an fp32 literal), and punctuation.  `#` starts a comment.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nsc_int.h"
#include "text.h"

static const char *const punct2[] = { "<=", ">=", "==", "!=", "&&", "||", "<<", ">>", "+=", "->" };

void nsc_lex_init(nsc_lex *x, const char *file, const char *s, size_t len, int line)
{
	memset(x, 0, sizeof *x);
	x->file = file;
	x->s = s;
	x->len = len;
	x->line = line;
}

int nsc_lex_col(const nsc_lex *x)
{
	return (int)x->start + 1;
}

int nsc_lex_error(nsc_lex *x, diag *d, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vat(d, x->file, x->line, nsc_lex_col(x), fmt, ap);
	va_end(ap);
	return -1;
}

static int lex_number(nsc_lex *x, diag *d)
{
	const char *s = x->s + x->pos;
	size_t n = x->len - x->pos, k = 0;
	bool hex = n > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	while (k < n && (text_is_ident_char(s[k]) || (!hex && s[k] == '.') ||
			 (!hex && k > 0 && (s[k - 1] == 'e' || s[k - 1] == 'E') && (s[k] == '-' || s[k] == '+'))))
		k++;
	char buf[64];
	if (k >= sizeof buf)
		return nsc_lex_error(x, d, "number too long");
	memcpy(buf, s, k);
	buf[k] = 0;
	x->pos += k;
	if (!hex && strpbrk(buf, ".eE")) {
		bool f32 = buf[k - 1] == 'f';
		if (f32)
			buf[k - 1] = 0;
		char *end;
		x->fval = strtod(buf, &end);
		if (*end || end == buf)
			return nsc_lex_error(x, d, "malformed number '%s'", buf);
		x->t = NSC_T_FLT;
		x->is_f32 = f32;
		return 0;
	}
	uint64_t mag;
	bool neg;
	size_t used;
	const char *err;
	if (text_scan_number(buf, k, &mag, &neg, &used, &err) < 0 || used != k)
		return nsc_lex_error(x, d, "malformed number '%s'", buf);
	if (mag > (uint64_t)INT64_MAX)
		return nsc_lex_error(x, d, "number '%s' does not fit 63 bits", buf);
	x->t = NSC_T_INT;
	x->ival = (int64_t)mag;
	return 0;
}

/* Advance to the next token: 0, or -1 with d set. */
int nsc_lex_next(nsc_lex *x, diag *d)
{
	while (x->pos < x->len && text_is_space(x->s[x->pos]))
		x->pos++;
	x->start = x->pos;
	x->text[0] = 0;
	if (x->pos >= x->len || x->s[x->pos] == '#') {
		x->t = NSC_T_END;
		return 0;
	}
	char c = x->s[x->pos];
	if (text_is_ident_start(c)) {
		size_t k = 0;
		while (x->pos < x->len && text_is_ident_char(x->s[x->pos])) {
			if (k + 1 >= NSC_NAME_MAX)
				return nsc_lex_error(x, d, "name longer than %d characters", NSC_NAME_MAX - 1);
			x->text[k++] = x->s[x->pos++];
		}
		x->text[k] = 0;
		x->t = NSC_T_NAME;
		return 0;
	}
	if (c >= '0' && c <= '9')
		return lex_number(x, d);
	x->t = NSC_T_PUNCT;
	for (size_t i = 0; i < sizeof punct2 / sizeof punct2[0]; i++)
		if (x->pos + 1 < x->len && !strncmp(x->s + x->pos, punct2[i], 2)) {
			memcpy(x->text, punct2[i], 3);
			x->pos += 2;
			return 0;
		}
	if (!strchr("+-*/%<>=!~&|^?:()[],.$@", c))
		return nsc_lex_error(x, d, "unexpected character '%c'", c);
	x->text[0] = c;
	x->text[1] = 0;
	x->pos++;
	return 0;
}

bool nsc_lex_is(const nsc_lex *x, const char *s)
{
	return (x->t == NSC_T_PUNCT || x->t == NSC_T_NAME) && !strcmp(x->text, s);
}

/* The current token must be `what`: consume it. */
int nsc_lex_expect(nsc_lex *x, const char *what, diag *d)
{
	if (!nsc_lex_is(x, what)) {
		if (x->t == NSC_T_END)
			return nsc_lex_error(x, d, "expected '%s' before the end of the line", what);
		return nsc_lex_error(x, d, "expected '%s'", what);
	}
	return nsc_lex_next(x, d);
}
