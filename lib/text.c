/* SPDX-License-Identifier: MIT */
/*
 * text.c: bounded file reading, lines and numbers (text.h).
 */
#include "text.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void text_lines_init(text_lines *it, const char *path, const char *text, size_t len)
{
	it->path = path;
	it->text = text;
	it->len = text ? len : 0;
	it->pos = 0;
	it->no = 0;
}

/* Is s[0..n) text?  0, or -1 with d set at the first bad byte. */
static int check_line(const text_lines *it, const char *s, size_t n, diag *d)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];
		if (i == TEXT_LINE_MAX) {
			diag_at(d, it->path, it->no, (int)i + 1, "line is longer than %d "
				"characters", TEXT_LINE_MAX);
			return -1;
		}
		if (ch == 0 || (ch < 0x20 && ch != '\t' && ch != '\r') || ch == 0x7f) {
			diag_at(d, it->path, it->no, (int)i + 1, ch ? "control character "
				"0x%02x in the input; expected text" : "NUL byte in the input; "
				"expected text", ch);
			return -1;
		}
	}
	return 0;
}

int text_lines_next(text_lines *it, text_line *out, diag *d)
{
	if (it->pos >= it->len)
		return 0;
	if (it->no == INT32_MAX) {
		diag_at(d, it->path, it->no, 0, "too many lines");
		return -1;
	}
	const char *s = it->text + it->pos;
	const char *nl = memchr(s, '\n', it->len - it->pos);
	const size_t n = nl ? (size_t)(nl - s) : it->len - it->pos;
	it->no++;
	if (check_line(it, s, n, d))
		return -1;
	if (!nl) {
		diag_at(d, it->path, it->no, (int)n + 1, "the last line does not end with "
			"a newline; the file may be truncated");
		return -1;
	}
	out->s = s;
	out->len = n;
	out->no = it->no;
	it->pos += n + 1;
	return 1;
}

static int scan(const char *s, size_t len, bool allow_hex, uint64_t *mag, bool *neg,
		size_t *used, const char **err)
{
	uint64_t v = 0;
	bool over = false;
	*neg = len > 0 && s[0] == '-';
	size_t i = *neg;
	const bool hex = allow_hex && i + 1 < len && s[i] == '0' && (s[i + 1] | 0x20) == 'x';
	i += 2 * hex;
	const size_t first = i;
	const unsigned base = hex ? 16 : 10;
	for (int dg; i < len && (dg = text_hex_digit(s[i])) >= 0 && (unsigned)dg < base; i++)
		over |= __builtin_mul_overflow(v, base, &v) ||
			__builtin_add_overflow(v, (unsigned)dg, &v);
	*used = 0;
	if (i == first) {
		*err = hex ? "expected hex digits after 0x" : "expected a number";
		return -1;
	}
	if (i < len && text_is_ident_char(s[i])) {
		*err = allow_hex ? "malformed number" : "malformed number (decimal digits expected)";
		return -1;
	}
	if (over) {
		*err = "number does not fit in 64 bits";
		return -1;
	}
	*mag = v;
	*used = i;
	return 0;
}

int text_scan_number(const char *s, size_t len, uint64_t *mag, bool *neg,
		     size_t *used, const char **err)
{
	return scan(s, len, true, mag, neg, used, err);
}

int text_scan_decimal(const char *s, size_t len, uint64_t *mag, bool *neg,
		      size_t *used, const char **err)
{
	return scan(s, len, false, mag, neg, used, err);
}

/* Read f to its end, at most limit bytes; a regular file of known size is
 * read in one allocation. */
static int read_stream(FILE *f, const char *path, size_t limit, size_t hint,
		       char **text, size_t *len, diag *d)
{
	char *buf = NULL;
	size_t n = 0, cap = 0;
	for (;;) {
		if (n == cap) {
			if (cap > limit) {
				diag_file(d, path, "the file is larger than %zu bytes, the limit "
					  "of this input", limit);
				goto fail;
			}
			size_t nc = cap ? cap * 2 : (hint ? hint + 1 : 65536);
			if (nc > limit + 1)
				nc = limit + 1;
			char *nb = nc > cap ? realloc(buf, nc) : NULL;
			if (!nb) {
				diag_file(d, path, "out of memory reading the file");
				goto fail;
			}
			buf = nb;
			cap = nc;
		}
		size_t got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		diag_file(d, path, "cannot read: %s", strerror(errno));
		goto fail;
	}
	if (n > limit) {
		diag_file(d, path, "the file is larger than %zu bytes, the limit of this "
			  "input", limit);
		goto fail;
	}
	*text = buf;
	*len = n;
	return 0;
fail:
	free(buf);
	return -1;
}

int text_read_file(const char *path, size_t limit, char **text, size_t *len, diag *d)
{
	const bool std_in = strcmp(path, "-") == 0;
	FILE *f = std_in ? stdin : fopen(path, "rb");
	if (!f) {
		diag_file(d, path, "cannot open: %s", strerror(errno));
		return -1;
	}
	struct stat st;
	size_t hint = 0;
	if (fstat(fileno(f), &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			diag_file(d, path, "is a directory; expected a file");
			if (!std_in)
				fclose(f);
			return -1;
		}
		if (S_ISREG(st.st_mode)) {
			if ((uint64_t)st.st_size > limit) {
				diag_file(d, path, "the file is larger than %zu bytes, the "
					  "limit of this input", limit);
				if (!std_in)
					fclose(f);
				return -1;
			}
			hint = (size_t)st.st_size;
		}
	}
	int rc = read_stream(f, std_in ? "<stdin>" : path, limit, hint, text, len, d);
	if (!std_in)
		fclose(f);
	return rc;
}

/* ---- writing a line without printf ---- */

void text_put(text_buf *b, const char *s, size_t len)
{
	if (b->n + 1 < b->cap) {
		const size_t room = b->cap - 1 - b->n, k = len < room ? len : room;
		memcpy(b->p + b->n, s, k);
		b->p[b->n + k] = 0;
	}
	b->n += len;
}

size_t text_copy(char *dst, size_t size, const char *src)
{
	text_buf t = text_buf_of(dst, size);
	text_put_str(&t, src);
	return t.n;
}

void text_put_str(text_buf *b, const char *s)
{
	text_put(b, s, strlen(s));
}

void text_put_uint(text_buf *b, uint64_t x)
{
	char t[20], *d = t + sizeof t;
	do
		*--d = (char)('0' + x % 10);
	while (x /= 10);
	text_put(b, d, (size_t)(t + sizeof t - d));
}

void text_put_int(text_buf *b, int64_t x)
{
	if (x < 0)
		text_put(b, "-", 1);
	text_put_uint(b, x < 0 ? 0 - (uint64_t)x : (uint64_t)x);
}
