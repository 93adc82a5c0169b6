/* SPDX-License-Identifier: MIT */
/*
 * stream_text.h: a command stream as lines, for suites that break a
 * lowered stream by hand (test_valid.c, test_valid_jit.c): split, find,
 * replace, insert, drop, write back.
 */
#ifndef INFSIM_TESTS_STREAM_TEXT_H
#define INFSIM_TESTS_STREAM_TEXT_H

#include <stdbool.h>
#include <stddef.h>

typedef struct text {
	char **l;
	size_t n;
} text;

/* s as lines, each without its newline. */
void text_split(text *t, const char *s);
void text_free(text *t);
/* The lines, each with a newline, into DIR/NAME; false when it cannot. */
bool text_write_in(const text *t, const char *dir, const char *name);
/* All of it as one string (malloc'd). */
char *text_join(const text *t);
void replace_line(text *t, size_t i, const char *s);
void drop_line(text *t, size_t i);
/* s as a new line at index i (the old line i follows it). */
void insert_line(text *t, size_t i, const char *s);
bool starts(const char *s, const char *p);
/* The first line at or after `from` starting with p, or SIZE_MAX. */
size_t find_from(const text *t, size_t from, const char *p);

#endif
