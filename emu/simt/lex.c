/* SPDX-License-Identifier: MIT */
/*
 * lex.c: the tokens of a DC-PTX line (doc/SIMT.md, "Grammar"): words,
 * numbers and punctuation, each error at its column.
 */
#include <stdarg.h>
#include <string.h>

#include "simt_int.h"

int simt_err(simt_cur *c, size_t pos, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vat(c->d, c->path, c->line, (int)pos + 1, fmt, ap);
	va_end(ap);
	return -1;
}

void simt_skip(simt_cur *c)
{
	while (c->pos < c->len && text_is_space(c->s[c->pos]))
		c->pos++;
}

bool simt_at_end(simt_cur *c)
{
	simt_skip(c);
	return c->pos >= c->len || c->s[c->pos] == '#';
}

bool simt_eat(simt_cur *c, char ch)
{
	simt_skip(c);
	if (c->pos < c->len && c->s[c->pos] == ch) {
		c->pos++;
		return true;
	}
	return false;
}

/* PTX names take dots (add.s32) and '%' (%tid). */
static bool word_char(char ch)
{
	return text_is_ident_char(ch) || ch == '.';
}

size_t simt_word(simt_cur *c, char *buf, size_t size)
{
	simt_skip(c);
	size_t s = c->pos, n = 0;
	if (s < c->len && (text_is_ident_start(c->s[s]) || c->s[s] == '%'))
		n = 1;
	while (n && s + n < c->len && word_char(c->s[s + n]))
		n++;
	if (n == 0 || n >= size)
		return 0;
	memcpy(buf, c->s + s, n);
	buf[n] = 0;
	c->pos += n;
	return n;
}

int simt_number(simt_cur *c, uint64_t *mag, bool *neg)
{
	simt_skip(c);
	size_t used = 0;
	const char *why = NULL;
	if (text_scan_number(c->s + c->pos, c->len - c->pos, mag, neg, &used, &why) < 0)
		return simt_err(c, c->pos + used, "%s", why);
	c->pos += used;
	return 0;
}

int simt_count(simt_cur *c, const char *what, uint64_t lo, uint64_t hi, uint64_t *v)
{
	simt_skip(c);
	size_t at = c->pos, used = 0;
	bool neg = false;
	const char *why = NULL;
	if (at >= c->len || c->s[at] < '0' || c->s[at] > '9')
		return simt_err(c, at, "expected %s (a decimal number)", what);
	if (text_scan_decimal(c->s + at, c->len - at, v, &neg, &used, &why) < 0)
		return simt_err(c, at + used, "%s: %s", what, why);
	if (*v < lo || *v > hi)
		return simt_err(c, at, "%s %llu out of range: expected %llu to %llu", what,
				(unsigned long long)*v, (unsigned long long)lo,
				(unsigned long long)hi);
	c->pos += used;
	return 0;
}

int simt_imm32(simt_cur *c, uint32_t *out)
{
	simt_skip(c);
	size_t at = c->pos;
	if (c->len - at > 2 && c->s[at] == '0' && c->s[at + 1] == 'f') {
		uint32_t v = 0;
		size_t k = at + 2;
		for (; k < c->len && text_hex_digit(c->s[k]) >= 0 && k - at < 11; k++)
			v = v << 4 | (uint32_t)text_hex_digit(c->s[k]);
		if (k - at != 10 || (k < c->len && text_is_ident_char(c->s[k])))
			return simt_err(c, at, "expected 8 hex digits after 0f (a float's bits)");
		c->pos = k;
		*out = v;
		return 0;
	}
	uint64_t mag;
	bool neg;
	if (simt_number(c, &mag, &neg) < 0)
		return -1;
	if (mag > (neg ? UINT64_C(0x80000000) : UINT64_C(0xffffffff)))
		return simt_err(c, at, "constant does not fit 32 bits");
	*out = (uint32_t)(neg ? 0u - mag : mag);
	return 0;
}
