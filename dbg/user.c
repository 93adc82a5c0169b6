/* SPDX-License-Identifier: MIT */
/*
 * user.c: gdb's user-defined commands (`define`, `document`).
 *
 * A user command is a list of lines run as if typed, with $arg0..$arg9
 * and $argc replaced by its arguments as gdb replaces them (as text,
 * before the line is read), so a course can give its students one-word
 * commands for what a lab asks them to look at.
 */
#include "config.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbg.h"

/* User commands inside user commands: deep enough for any script,
 * shallow enough that a command calling itself ends. */
#define USER_MAX_DEPTH 16

const dbg_user_cmd *dbg_user_find(const dbg_session *s, const char *name, size_t len)
{
	for (size_t i = 0; i < s->nusers; i++)
		if (strlen(s->users[i].name) == len && strncmp(s->users[i].name, name, len) == 0)
			return &s->users[i];
	return NULL;
}

static void user_clear(dbg_user_cmd *u)
{
	for (size_t i = 0; i < u->nlines; i++)
		free(u->lines[i]);
	free(u->lines);
	u->lines = NULL;
	u->nlines = 0;
}

void dbg_user_free(dbg_session *s)
{
	for (size_t i = 0; i < s->nusers; i++) {
		user_clear(&s->users[i]);
		free(s->users[i].name);
		free(s->users[i].doc);
	}
	free(s->users);
	s->users = NULL;
	s->nusers = 0;
	s->defining = NULL;
}

/* A name gdb would take: letters, digits, '-' and '_', a letter first. */
static bool good_name(const char *name)
{
	if (!isalpha((unsigned char)*name))
		return false;
	for (const char *p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_')
			return false;
	return true;
}

static bool builtin(const char *name)
{
	return dbg_command_exact(name, strlen(name)) != NULL;
}

int dbg_cmd_define(dbg_session *s, char *args)
{
	char *name = dbg_trim(args);
	if (!*name) {
		dbg_error(s, "define: expected the name of the command to define.");
		return -1;
	}
	if (!good_name(name)) {
		dbg_error(s, "define: \"%s\" is not a command name (letters, digits, - and _, a "
			  "letter first).", name);
		return -1;
	}
	if (builtin(name)) {
		dbg_error(s, "define: \"%s\" is an infsdb command; choose another name.", name);
		return -1;
	}
	dbg_user_cmd *u = (dbg_user_cmd *)dbg_user_find(s, name, strlen(name));
	if (!u) {
		dbg_user_cmd *grown = realloc(s->users, (s->nusers + 1) * sizeof *grown);
		char *copy = strdup(name);
		if (!grown || !copy) {
			free(copy);
			if (grown)
				s->users = grown;
			dbg_error(s, "out of memory");
			return -1;
		}
		s->users = grown;
		u = &s->users[s->nusers++];
		*u = (dbg_user_cmd){ copy, NULL, 0, NULL };
	}
	user_clear(u);
	s->defining = u;
	s->documenting = false;
	if (s->interactive && !s->source_depth)
		printf("Type commands for definition of \"%s\".\n"
		       "End with a line saying just \"end\".\n", name);
	return 0;
}

int dbg_cmd_document(dbg_session *s, char *args)
{
	char *name = dbg_trim(args);
	if (!*name) {
		dbg_error(s, "document: expected the name of a command made with define.");
		return -1;
	}
	dbg_user_cmd *u = (dbg_user_cmd *)dbg_user_find(s, name, strlen(name));
	if (!u) {
		dbg_error(s, "document: \"%s\" is not a command made with define%s.", name,
			  builtin(name) ? " (infsdb's own commands have their help)" : "");
		return -1;
	}
	free(u->doc);
	u->doc = NULL;
	s->defining = u;
	s->documenting = true;
	if (s->interactive && !s->source_depth)
		printf("Type documentation for \"%s\".\n"
		       "End with a line saying just \"end\".\n", name);
	return 0;
}

static int append_line(char ***lines, size_t *n, const char *line)
{
	char **grown = realloc(*lines, (*n + 1) * sizeof *grown);
	char *copy = strdup(line);
	if (!grown || !copy) {
		free(copy);
		if (grown)
			*lines = grown;
		return -1;
	}
	*lines = grown;
	(*lines)[(*n)++] = copy;
	return 0;
}

/* The documentation: its lines joined with newlines. */
static int append_doc(dbg_user_cmd *u, const char *line)
{
	size_t old = u->doc ? strlen(u->doc) : 0;
	char *grown = realloc(u->doc, old + strlen(line) + 2);
	if (!grown)
		return -1;
	u->doc = grown;
	snprintf(grown + old, strlen(line) + 2, "%s%s", old ? "\n" : "", line);
	return 0;
}

bool dbg_user_collect(dbg_session *s, const char *text)
{
	if (!s->defining)
		return false;
	char *copy = strdup(text), *line = copy ? dbg_trim(copy) : NULL;
	if (!line) {
		dbg_error(s, "out of memory");
		s->defining = NULL;
		return true;
	}
	if (strcmp(line, "end") == 0) {
		s->defining = NULL;
	} else if (s->documenting ? append_doc(s->defining, line) < 0
				  : *line && *line != '#' &&
				    append_line(&s->defining->lines, &s->defining->nlines, line) < 0) {
		dbg_error(s, "out of memory");
		s->defining = NULL;
	}
	free(copy);
	return true;
}

/* ---- running a user command ---- */

/* line with $argN and $argc replaced by the arguments (malloc'd). */
static char *substitute(const char *line, char **argv, int argc)
{
	size_t cap = strlen(line) + 1;
	for (int k = 0; k < argc; k++)
		cap += strlen(argv[k]) * 4;
	cap += 64;
	char *out = malloc(cap), *o = out;
	if (!out)
		return NULL;
	for (const char *p = line; *p;) {
		if (strncmp(p, "$argc", 5) == 0 && !isalnum((unsigned char)p[5])) {
			o += snprintf(o, cap - (size_t)(o - out), "%d", argc);
			p += 5;
		} else if (strncmp(p, "$arg", 4) == 0 && isdigit((unsigned char)p[4]) &&
			   !isalnum((unsigned char)p[5]) && p[4] - '0' < argc) {
			o += snprintf(o, cap - (size_t)(o - out), "%s", argv[p[4] - '0']);
			p += 5;
		} else {
			*o++ = *p++;
		}
	}
	*o = '\0';
	return out;
}

static int run_lines(dbg_session *s, const dbg_user_cmd *u, char **argv, int argc)
{
	int rc = 0;
	/* the body may be redefined while it runs: work on a copy */
	char **lines = NULL;
	size_t n = 0;
	for (size_t i = 0; i < u->nlines; i++)
		if (append_line(&lines, &n, u->lines[i]) < 0)
			rc = -1;
	for (size_t i = 0; rc == 0 && i < n && !s->quit; i++) {
		char *line = substitute(lines[i], argv, argc);
		bool repeat;
		if (!line || dbg_execute(s, line, &repeat) < 0)
			rc = -1; /* as gdb, a failing line ends the command */
		free(line);
	}
	for (size_t i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
	return rc;
}

int dbg_user_run(dbg_session *s, const char *word, size_t len, const char *args)
{
	const dbg_user_cmd *u = dbg_user_find(s, word, len);
	if (!u)
		return 1;
	if (s->user_depth >= USER_MAX_DEPTH) {
		dbg_error(s, "%s: user commands nested too deeply (more than %d).", u->name,
			  USER_MAX_DEPTH);
		return -1;
	}
	char *copy = strdup(args), *argv[10];
	int argc = 0;
	if (!copy) {
		dbg_error(s, "out of memory");
		return -1;
	}
	for (char *save = NULL, *w = strtok_r(copy, " \t", &save); w;
	     w = strtok_r(NULL, " \t", &save)) {
		if (argc == 10) {
			dbg_error(s, "%s: at most 10 arguments ($arg0 to $arg9).", u->name);
			free(copy);
			return -1;
		}
		argv[argc++] = w;
	}
	s->user_depth++;
	int rc = run_lines(s, u, argv, argc);
	s->user_depth--;
	free(copy);
	return rc;
}

int dbg_cmd_show_user(dbg_session *s, char *args)
{
	args = dbg_trim(args);
	bool shown = false;
	for (size_t i = 0; i < s->nusers; i++) {
		const dbg_user_cmd *u = &s->users[i];
		if (*args && strcmp(args, u->name) != 0)
			continue;
		shown = true;
		printf("User command \"%s\":\n", u->name);
		for (size_t k = 0; k < u->nlines; k++)
			printf("  %s\n", u->lines[k]);
	}
	if (*args && !shown) {
		dbg_error(s, "show user: \"%s\" is not a command made with define.", args);
		return -1;
	}
	if (!shown)
		printf("No user commands (\"define NAME\" makes one).\n");
	return 0;
}
