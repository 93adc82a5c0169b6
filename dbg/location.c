/* SPDX-License-Identifier: MIT */
/*
 * location.c: one syntax for a place in the program, read the same way
 * by `until`, `advance`, `list`, `info line` and `disassemble` as `break`
 * reads it:
 * `*N` is always command index N; a bare N is a command index on a
 * command stream and a source line on a tDFG (where a person reads
 * lines, as gdb's `break 30`); `:LINE` and `FILE:LINE` a source line;
 * a name a tDFG node.
 */
#include "config.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbg.h"

/* --tdfg's node name: the start of its next marker window (after the
 * position), as `break NODE` stops there. */
static int marker_here(dbg_session *s, const char *what, const char *name, dbg_location *loc)
{
	size_t nmarks;
	const long n = dbg_valid_find(s, name, strlen(name), &nmarks);
	if (n < 0) {
		dbg_error(s, "%s: \"%s\" is not a location: expected a node of %s, N (a command "
			  "index), *N or :LINE.", what, name, s->vt.path);
		return -1;
	}
	const size_t pc = s->em ? s->em->pc : 0;
	const size_t at = dbg_valid_node_start(s, n, pc);
	if (at == SIZE_MAX) {
		dbg_error(s, "%s: node '%s' (%s:%d) has %s in %s: no command is known to compute "
			  "it (\"info nodes\" lists the markers).", what, name, s->vt.path,
			  s->vt.nodes[n].line, nmarks ? "no command before its marker" : "no marker",
			  s->prog.path);
		return -1;
	}
	loc->cmd = at;
	loc->node = -1;
	return 0;
}

static int command_index(dbg_session *s, const char *what, const char *num, dbg_location *loc)
{
	uint64_t n;
	if (dbg_parse_u64(num, &n) && n < s->prog.ncmds) {
		loc->cmd = (size_t)n;
		loc->node = dbg_node_of(s, loc->cmd);
		return 0;
	}
	dbg_error(s, "%s: no command %s: the program has commands 0 to %zu.", what, num,
		  s->prog.ncmds ? s->prog.ncmds - 1 : 0);
	return -1;
}

/* Is file the program's file (its path or its base name)? */
static bool same_file(const char *file, size_t len, const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	return (strlen(path) == len && strncmp(file, path, len) == 0) ||
	       (strlen(base) == len && strncmp(file, base, len) == 0);
}

static int node_here(dbg_session *s, const char *what, long n, dbg_location *loc)
{
	const emu_tnode *x = &s->t.nodes[n];
	if (x->cmd0 == x->cmd1) {
		dbg_error(s, "%s: node '%s' (%s:%d) is %s: it has no command.", what, x->name,
			  s->t.path, x->line, x->kind == EMU_TN_INPUT
			  ? "an input, in memory before its region runs" : "lowered to no command");
		return -1;
	}
	loc->cmd = x->cmd0;
	loc->node = n;
	return 0;
}

static int source_line(dbg_session *s, const char *what, uint64_t line, dbg_location *loc)
{
	if (s->tdfg) {
		const long n = dbg_node_on_line(s, line);
		if (n >= 0)
			return node_here(s, what, n, loc);
		dbg_error(s, "%s: line %" PRIu64 " of %s defines no node (\"info nodes\" lists "
			  "their lines).", what, line, s->t.path);
		return -1;
	}
	for (size_t i = 0; i < s->prog.ncmds; i++)
		if ((uint64_t)s->prog.cmds[i].line == line) {
			loc->cmd = i;
			loc->node = -1;
			return 0;
		}
	dbg_error(s, "%s: line %" PRIu64 " of %s holds no command.", what, line, s->prog.path);
	return -1;
}

/* :LINE or FILE:LINE. */
static int file_line(dbg_session *s, const char *what, const char *text, const char *colon,
		     dbg_location *loc)
{
	const char *path = s->tdfg ? s->t.path : s->prog.path;
	if (colon != text && !same_file(text, (size_t)(colon - text), path)) {
		dbg_error(s, "%s: no source file \"%.*s\": the program is %s.", what,
			  (int)(colon - text), text, path);
		return -1;
	}
	uint64_t line;
	if (!dbg_parse_u64(colon + 1, &line) || line == 0) {
		dbg_error(s, "%s: expected a line number after ':', got \"%s\".", what, colon + 1);
		return -1;
	}
	return source_line(s, what, line, loc);
}

int dbg_parse_location(dbg_session *s, const char *what, const char *text, dbg_location *loc)
{
	while (isspace((unsigned char)*text))
		text++;
	if (*text == '*')
		return command_index(s, what, text + 1, loc);
	const char *colon = strrchr(text, ':');
	if (colon)
		return file_line(s, what, text, colon, loc);
	if (isdigit((unsigned char)*text)) {
		uint64_t line;
		if (!s->tdfg)
			return command_index(s, what, text, loc);
		if (dbg_parse_u64(text, &line) && line > 0)
			return source_line(s, what, line, loc);
		dbg_error(s, "%s: expected a line number, got \"%s\".", what, text);
		return -1;
	}
	const bool named = strncmp(text, "node", 4) == 0 && isspace((unsigned char)text[4]);
	const char *name = named ? text + 5 + strspn(text + 5, " \t") : text;
	if (!s->tdfg && s->valid) /* --tdfg: a node of that tDFG, by its markers */
		return marker_here(s, what, name, loc);
	const long n = s->tdfg ? dbg_node_find(s, name, strlen(name)) : -1;
	if (n >= 0)
		return node_here(s, what, n, loc);
	const char *near = s->tdfg ? dbg_node_suggest(s, name) : NULL;
	if (s->tdfg)
		dbg_error(s, "%s: \"%s\" is not a location: expected a node, LINE, :LINE or *N.%s%s%s",
			  what, name, near ? "  Did you mean \"" : "", near ? near : "",
			  near ? "\"?" : "");
	else
		dbg_error(s, "%s: \"%s\" is not a location: expected N (a command index), *N or "
			  ":LINE.", what, text);
	return -1;
}
