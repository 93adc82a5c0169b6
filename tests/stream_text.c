/* SPDX-License-Identifier: MIT */
/* stream_text.c: a command stream as lines (stream_text.h). */
#include "stream_text.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void text_split(text *t, const char *s)
{
	t->l = NULL;
	t->n = 0;
	while (*s) {
		const size_t k = strcspn(s, "\n");
		t->l = realloc(t->l, (t->n + 1) * sizeof *t->l);
		t->l[t->n++] = strndup(s, k);
		s += k + (s[k] == '\n');
	}
}

void text_free(text *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->l[i]);
	free(t->l);
	t->l = NULL;
	t->n = 0;
}

bool text_write_in(const text *t, const char *dir, const char *name)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (!f)
		return false;
	for (size_t i = 0; i < t->n; i++)
		fprintf(f, "%s\n", t->l[i]);
	return fclose(f) == 0;
}

char *text_join(const text *t)
{
	size_t len = 1;
	for (size_t i = 0; i < t->n; i++)
		len += strlen(t->l[i]) + 1;
	char *all = malloc(len), *p = all;
	*p = '\0';
	for (size_t i = 0; all && i < t->n; i++)
		p += sprintf(p, "%s\n", t->l[i]);
	return all;
}

void replace_line(text *t, size_t i, const char *s)
{
	free(t->l[i]);
	t->l[i] = strdup(s);
}

void drop_line(text *t, size_t i)
{
	free(t->l[i]);
	memmove(t->l + i, t->l + i + 1, (t->n - i - 1) * sizeof *t->l);
	t->n--;
}

void insert_line(text *t, size_t i, const char *s)
{
	t->l = realloc(t->l, (t->n + 1) * sizeof *t->l);
	memmove(t->l + i + 1, t->l + i, (t->n - i) * sizeof *t->l);
	t->l[i] = strdup(s);
	t->n++;
}

bool starts(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

size_t find_from(const text *t, size_t from, const char *p)
{
	for (size_t i = from; i < t->n; i++)
		if (starts(t->l[i], p))
			return i;
	return SIZE_MAX;
}
