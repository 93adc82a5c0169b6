/* SPDX-License-Identifier: MIT */
/*
 * text.h: reading text input (prefix text_): a whole file within a size
 * bound, its lines, and the numbers and identifiers every infsim format
 * shares (command streams, machine settings, patterns, tDFGs, and the
 * formats of the near-memory systems); and a line builder for output
 * on hot paths (text_buf, below).
 *
 * Input is (text, len), never assumed NUL-terminated.  Lines end at '\n';
 * every line, including the last, must end with one, so that a file cut
 * short is reported instead of silently read as a shorter one.
 */
#ifndef INFSIM_TEXT_H
#define INFSIM_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"

#define TEXT_LINE_MAX 4096 /* bytes per line, without the newline */
/* The bound of every text format infsim reads (doc/USAGE.md, "Limits"). */
#define TEXT_FILE_MAX ((size_t)256 << 20)

/* Read the file at path into a malloc'd buffer (not NUL-terminated).
 * "-" is standard input.  Pipes, character devices and /dev/stdin are
 * read as a stream.  A file of more than limit bytes is refused without
 * reading it all.  0, or -1 with d set (nothing allocated). */
int text_read_file(const char *path, size_t limit, char **text, size_t *len,
		   diag *d);

/* Walks text line by line, refusing NUL bytes, control characters,
 * overlong lines and a last line with no newline. */
typedef struct text_lines {
	const char *path;
	const char *text;
	size_t len, pos;
	int no;            /* number of the line last returned (1-based) */
} text_lines;

typedef struct text_line {
	const char *s;     /* the line, without its newline */
	size_t len;
	int no;
} text_line;

void text_lines_init(text_lines *it, const char *path, const char *text, size_t len);
/* 1 with *out the next line, 0 at the end, -1 with d set. */
int text_lines_next(text_lines *it, text_line *out, diag *d);

/* Scan a number at s[0..len): ['-'] (decimal digits | 0x hex digits).
 * 0 with *mag, *neg and *used set; or -1 with *err a static message and
 * *used the offset of the problem.  A number followed directly by a
 * letter, digit or '_' is malformed. */
int text_scan_number(const char *s, size_t len, uint64_t *mag, bool *neg,
		     size_t *used, const char **err);
/* The same, decimal digits only (sizes: "0x10" is not sixteen). */
int text_scan_decimal(const char *s, size_t len, uint64_t *mag, bool *neg,
		      size_t *used, const char **err);

/* The value of a hex digit (either case), or -1. */
static inline int text_hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Characters of identifiers: [A-Za-z_][A-Za-z0-9_]*. */
static inline bool text_is_ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
static inline bool text_is_ident_char(char c)
{
	return text_is_ident_start(c) || (c >= '0' && c <= '9');
}
static inline bool text_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* ---- writing a line without printf ----
 * The JIT formats a pattern or two for every command it makes, and
 * snprintf's machinery was a fifth of its time.  A text_buf holds up to
 * cap - 1 bytes at p and a NUL after them (p may be NULL when cap is
 * 0); n counts every byte asked for, as snprintf's result does, so a
 * caller sees the length it would have needed. */
typedef struct text_buf {
	char *p;
	size_t cap, n;
} text_buf;

static inline text_buf text_buf_of(char *p, size_t cap)
{
	text_buf b = {p, cap, 0};
	if (cap)
		p[0] = 0;
	return b;
}
void text_put(text_buf *b, const char *s, size_t len);
void text_put_str(text_buf *b, const char *s);
void text_put_int(text_buf *b, int64_t x);   /* decimal, '-' if negative */
void text_put_uint(text_buf *b, uint64_t x); /* decimal */
/* src into dst of size bytes, cut to fit and NUL-terminated (when size
 * is not 0): snprintf(dst, size, "%s", src) without printf.  Returns
 * strlen(src). */
size_t text_copy(char *dst, size_t size, const char *src);

#endif
