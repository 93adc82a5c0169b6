/* SPDX-License-Identifier: MIT */
/*
 * vars.c: gdb's value history and convenience variables.
 *
 * Every value `print` shows is recorded as $1, $2, ... ($ the last, $$
 * the one before, $$N N back), so a later expression can use it without
 * reading the array again: the value is the one read when it was
 * printed.  `set $NAME = EXPR` keeps a value under a name ($i counts
 * in a user command, $mask holds a bit pattern).
 */
#include "config.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbg.h"

size_t dbg_values_record(dbg_session *s, const dbg_value *v, const char *expr)
{
	dbg_hist_value *grown = realloc(s->values, (s->nvalues + 1) * sizeof *grown);
	char *copy = strdup(expr);
	if (!grown || !copy) {
		free(copy);
		if (grown)
			s->values = grown;
		return 0; /* out of memory */
	}
	s->values = grown;
	s->values[s->nvalues] = (dbg_hist_value){ *v, copy };
	return ++s->nvalues;
}

const dbg_value *dbg_conv_find(const dbg_session *s, const char *name, size_t len)
{
	for (size_t i = 0; i < s->nconvs; i++)
		if (strlen(s->convs[i].name) == len && strncmp(s->convs[i].name, name, len) == 0)
			return &s->convs[i].v;
	return NULL;
}

/* The names expressions give their own meaning: a variable of one of
 * them could never be read. */
static bool reserved(const char *name, size_t len)
{
	static const char *const names[] = { "pc", "upc", "cycle", "cell", "row", "col",
					     "C", "T", "E", "BL", "BLB", NULL };
	for (int k = 0; names[k]; k++)
		if (strlen(names[k]) == len && strncmp(names[k], name, len) == 0)
			return true;
	return false;
}

static int store(dbg_session *s, const char *name, size_t len, const dbg_value *v)
{
	for (size_t i = 0; i < s->nconvs; i++)
		if (strlen(s->convs[i].name) == len && strncmp(s->convs[i].name, name, len) == 0) {
			s->convs[i].v = *v;
			return 0;
		}
	dbg_conv *grown = realloc(s->convs, (s->nconvs + 1) * sizeof *grown);
	char *copy = strndup(name, len);
	if (!grown || !copy) {
		free(copy);
		if (grown)
			s->convs = grown;
		dbg_error(s, "out of memory");
		return -1;
	}
	s->convs = grown;
	s->convs[s->nconvs++] = (dbg_conv){ copy, *v };
	return 0;
}

int dbg_cmd_set_conv(dbg_session *s, char *args)
{
	const char *name = dbg_trim(args) + 1;
	size_t len = 0;
	while (isalnum((unsigned char)name[len]) || name[len] == '_')
		len++;
	const char *rest = name + len;
	rest += strspn(rest, " \t");
	if (len == 0 || isdigit((unsigned char)*name) || *rest != '=' || rest[1] == '=') {
		dbg_error(s, "set: expected \"set $NAME = EXPR\" (a name of letters, digits and _), "
			  "got \"%s\".", dbg_trim(args));
		return -1;
	}
	if (reserved(name, len)) {
		dbg_error(s, "set: $%.*s is infsdb's own (see \"help print\"); choose another name.",
			  (int)len, name);
		return -1;
	}
	dbg_value v;
	if (dbg_eval(s, rest + 1, &v) < 0)
		return -1;
	return store(s, name, len, &v);
}

int dbg_cmd_show_values(dbg_session *s, char *args)
{
	(void)args;
	if (!s->nvalues) {
		printf("The value history is empty.\n");
		return 0;
	}
	/* the last ten, as gdb's show values */
	for (size_t i = s->nvalues > 10 ? s->nvalues - 10 : 0; i < s->nvalues; i++) {
		char text[160];
		if (dbg_format_value(&s->values[i].v, 0, text, sizeof text) < 0)
			snprintf(text, sizeof text, "?");
		printf("$%zu = %s   (%s)\n", i + 1, text, s->values[i].expr);
	}
	return 0;
}

int dbg_cmd_show_convenience(dbg_session *s, char *args)
{
	(void)args;
	if (!s->nconvs) {
		printf("No convenience variables (\"set $NAME = EXPR\" makes one).\n");
		return 0;
	}
	for (size_t i = 0; i < s->nconvs; i++) {
		char text[160];
		if (dbg_format_value(&s->convs[i].v, 0, text, sizeof text) < 0)
			snprintf(text, sizeof text, "?");
		printf("$%s = %s\n", s->convs[i].name, text);
	}
	return 0;
}

void dbg_vars_free(dbg_session *s)
{
	for (size_t i = 0; i < s->nvalues; i++)
		free(s->values[i].expr);
	for (size_t i = 0; i < s->nconvs; i++)
		free(s->convs[i].name);
	free(s->values);
	free(s->convs);
	s->values = NULL;
	s->convs = NULL;
	s->nvalues = s->nconvs = 0;
}
