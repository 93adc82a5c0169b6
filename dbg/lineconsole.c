/* SPDX-License-Identifier: MIT */
/*
 * lineconsole.c: the console of the programs with a command set of their
 * own (Active-Routing's ar.c, near-stream's nsc.c): lines from a -x file
 * or from the terminal (readline, with history) or a pipe, each handed to
 * the program's own command executor until it quits.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "dbg.h"

int dbg_lines_file(const char *path, dbg_line_fn run, void *ctx, const bool *quit)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		fflush(stdout);
		fprintf(stderr, "%s: cannot open\n", path);
		return -1;
	}
	char line[1024];
	int rc = 0;
	while (!*quit && fgets(line, sizeof line, f))
		rc |= run(ctx, line) ? 1 : 0;
	fclose(f);
	return rc;
}

void dbg_lines_console(dbg_line_fn run, void *ctx, const bool *quit)
{
	bool tty = isatty(STDIN_FILENO);
	char buf[1024];
	while (!*quit) {
		char *line = tty ? readline("(infsdb) ") : fgets(buf, sizeof buf, stdin);
		if (!line)
			break;
		if (tty && *line)
			add_history(line);
		run(ctx, line);
		if (tty)
			free(line);
	}
}

char *dbg_line_split(char *line, char **fmt, char **arg)
{
	while (*line == ' ' || *line == '\t')
		line++;
	size_t n = strlen(line);
	while (n && (line[n - 1] == '\n' || line[n - 1] == ' ' || line[n - 1] == '\r'))
		line[--n] = 0;
	if (!*line || *line == '#')
		return NULL;
	char *rest = line + strcspn(line, fmt ? " /" : " ");
	if (fmt)
		*fmt = NULL;
	if (fmt && *rest == '/') {
		*rest++ = 0;
		*fmt = rest;
		rest += strcspn(rest, " ");
	}
	if (*rest) {
		*rest++ = 0;
		while (*rest == ' ')
			rest++;
	}
	*arg = rest;
	return line;
}
