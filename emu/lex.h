/*
 * lex.h: the small lexical layer shared by the stream parser (parse.c),
 * the pattern parser (pattern.c) and machine config files (geom.c).
 * Private to emu/.
 *
 * Input is (text, len), never assumed NUL-terminated.  Lines end at '\n';
 * every line, including the last, must end with one, so that a file cut
 * short is reported instead of silently running a shorter program.
 */
#ifndef INFSIM_EMU_LEX_H
#define INFSIM_EMU_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"

#define EMU_LINE_MAX 4096 /* bytes per line, without the newline */

/* Walks text line by line, refusing NUL bytes, control characters,
 * overlong lines and a last line with no newline. */
typedef struct emu_lines {
	const char *path;
	const char *text;
	size_t len, pos;
	int no;            /* number of the line last returned (1-based) */
} emu_lines;

typedef struct emu_line {
	const char *s;     /* the line, without its newline */
	size_t len;
	int no;
} emu_line;

void emu_lines_init(emu_lines *it, const char *path, const char *text, size_t len);
/* 1 with *out the next line, 0 at the end, -1 with d set. */
int emu_lines_next(emu_lines *it, emu_line *out, diag *d);

/* Scan a number at s[0..len): ['-'] (decimal digits | 0x hex digits).
 * 0 with *mag, *neg and *used set; or -1 with *err a static message and
 * *used the offset of the problem.  A number followed directly by a
 * letter, digit or '_' is malformed. */
int emu_scan_number(const char *s, size_t len, uint64_t *mag, bool *neg,
		    size_t *used, const char **err);

/* Characters of identifiers: [A-Za-z_][A-Za-z0-9_]*. */
static inline bool emu_is_ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
static inline bool emu_is_ident_char(char c)
{
	return emu_is_ident_start(c) || (c >= '0' && c <= '9');
}
static inline bool emu_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* Read a whole file into a malloc'd buffer (not NUL-terminated).
 * 0, or -1 with d set. */
int emu_read_file(const char *path, char **text, size_t *len, diag *d);

/* Index of one of emu_geom_set's keys (0..EMU_GEOM_KEYS-1), or -1. */
#define EMU_GEOM_KEYS 8
#define EMU_GEOM_KEY_LIST "wordlines, bitlines, arrays, ways, mesh, fp, latency or cordic"
int emu_geom_key_index(const char *key);

#endif
