/* SPDX-License-Identifier: MIT */
/*
 * user.c: gdb's user-defined commands (`define`, `document`), its
 * control flow (`if`/`else`/`end`, `while`/`end`, `loop_break`,
 * `loop_continue`) and breakpoint command lists (`commands N`).
 *
 * A user command is a list of lines run as if typed, with $arg0..$arg9
 * and $argc replaced by its arguments as gdb replaces them (as text,
 * before the line is read), so a course can give its students one-word
 * commands for what a lab asks them to look at.
 *
 * Every block (define, commands, if, while) is read whole, up to its
 * own `end` (the blocks inside it counted), before anything of it runs:
 * a define's or a breakpoint's lines are kept, an if's or a while's are
 * run then.  A breakpoint's lines run once the command that stopped the
 * machine has ended, as gdb's do; a line that moves the machine
 * (continue, step, ...) ends them.
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

typedef enum block_kind { BLOCK_DEFINE, BLOCK_COMMANDS, BLOCK_CONTROL } block_kind;

/* A block being read, or breakpoint commands due to run. */
struct dbg_block {
	block_kind kind;
	char **lines;
	size_t n;
	int depth;           /* blocks opened inside it, not yet ended */
	unsigned bp;         /* commands: the breakpoint */
	char *what;          /* "define NAME", "commands 2", "if", "while" */
	char *path;          /* where it began: the file (NULL: typed) and line */
	unsigned line;
	int source_depth;
	bool running;        /* due commands being run */
	struct dbg_block *next; /* due after these: a stop they made */
};

/* The loop a loop_break or loop_continue leaves or goes on with. */
enum { FLOW_NONE, FLOW_BREAK, FLOW_CONTINUE };

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
	dbg_block_free_all(s);
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

static int append_line(char ***lines, size_t *n, const char *line);
static int append_doc(dbg_user_cmd *u, const char *line);

/* ---- blocks ---- */

static void lines_free(char **lines, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
}

static void block_free(struct dbg_block *b)
{
	if (!b)
		return;
	lines_free(b->lines, b->n);
	free(b->what);
	free(b->path);
	block_free(b->next);
	free(b);
}

void dbg_block_free_all(dbg_session *s)
{
	block_free(s->block);
	block_free(s->due);
	s->block = s->due = NULL;
}

/* Start reading a block (first: its first line, kept, or NULL).  0, or
 * -1 with an error. */
static int block_begin(dbg_session *s, block_kind kind, const char *what, const char *first)
{
	struct dbg_block *b = calloc(1, sizeof *b);
	if (b) {
		b->kind = kind;
		b->what = strdup(what);
		b->path = s->source_path ? strdup(s->source_path) : NULL;
		b->line = s->source_line;
		b->source_depth = s->source_depth;
	}
	if (!b || !b->what || (s->source_path && !b->path) ||
	    (first && append_line(&b->lines, &b->n, first) < 0)) {
		block_free(b);
		dbg_error(s, "out of memory");
		return -1;
	}
	block_free(s->block);
	s->block = b;
	return 0;
}

/* The command word of a line and its length. */
static size_t first_word(const char *line)
{
	size_t n = 0;
	while (line[n] && !isspace((unsigned char)line[n]) && line[n] != '/')
		n++;
	return n;
}

static bool is_word(const char *line, const char *word)
{
	const size_t n = first_word(line);
	return n == strlen(word) && strncmp(line, word, n) == 0;
}

/* Does the line open a block that its own `end` closes? */
static bool opens_block(const char *line)
{
	return is_word(line, "if") || is_word(line, "while") || is_word(line, "define") ||
	       is_word(line, "document") || is_word(line, "commands");
}

static int run_range(dbg_session *s, char **l, size_t from, size_t to, int *flow, int loops);

/* The block read is whole: keep it or run it. */
static int block_end(dbg_session *s)
{
	struct dbg_block *b = s->block;
	s->block = NULL;
	int rc = 0;
	if (b->kind == BLOCK_DEFINE && s->defining) {
		user_clear(s->defining);
		s->defining->lines = b->lines;
		s->defining->nlines = b->n;
		b->lines = NULL;
		b->n = 0;
		s->defining = NULL;
	} else if (b->kind == BLOCK_COMMANDS) {
		dbg_bp *bp = dbg_bp_find(s, b->bp);
		if (bp) { /* else deleted meanwhile (by a line of the block) */
			lines_free(bp->cmds, bp->ncmds);
			bp->cmds = b->lines;
			bp->ncmds = b->n;
			b->lines = NULL;
			b->n = 0;
		}
	} else if (b->kind == BLOCK_CONTROL) {
		int flow = FLOW_NONE;
		rc = run_range(s, b->lines, 0, b->n, &flow, 0);
	}
	block_free(b);
	return rc;
}

bool dbg_user_collect(dbg_session *s, const char *text)
{
	if (!s->block && !(s->defining && s->documenting))
		return false;
	char *copy = strdup(text), *line = copy ? dbg_trim(copy) : NULL;
	if (!line) {
		dbg_error(s, "out of memory");
		dbg_block_free_all(s);
		s->defining = NULL;
		return true;
	}
	if (!s->block) { /* document: its text, up to end */
		if (strcmp(line, "end") == 0)
			s->defining = NULL;
		else if (append_doc(s->defining, line) < 0) {
			dbg_error(s, "out of memory");
			s->defining = NULL;
		}
		free(copy);
		return true;
	}
	struct dbg_block *b = s->block;
	if (strcmp(line, "end") == 0 && b->depth == 0) {
		free(copy);
		if (block_end(s) < 0)
			s->failed = true;
		return true;
	}
	if (strcmp(line, "end") == 0)
		b->depth--;
	else if (opens_block(line))
		b->depth++;
	if (*line && *line != '#' && append_line(&b->lines, &b->n, line) < 0) {
		dbg_error(s, "out of memory");
		dbg_block_free_all(s);
		s->defining = NULL;
	}
	free(copy);
	return true;
}

void dbg_user_input_end(dbg_session *s, int source_depth)
{
	struct dbg_block *b = s->block;
	if (!b || b->source_depth < source_depth)
		return;
	if (b->path)
		dbg_error(s, "%s:%u: \"%s\" has no \"end\" before the end of the file.", b->path,
			  b->line, b->what);
	else
		dbg_error(s, "\"%s\" has no \"end\" before the end of the input.", b->what);
	if (b->kind == BLOCK_DEFINE && s->defining) {
		/* as gdb at Ctrl-D: the lines read so far are the definition */
		s->block = NULL;
		s->defining->lines = b->lines;
		s->defining->nlines = b->n;
		b->lines = NULL;
		b->n = 0;
		s->defining = NULL;
		block_free(b);
		return;
	}
	block_free(b);
	s->block = NULL;
}

/* ---- if, while ---- */

/* The line of the `end` (and of an if's `else`, or to) matching the
 * block opened at l[at]; to if there is none. */
static size_t matching_end(char **l, size_t at, size_t to, size_t *else_at)
{
	int depth = 0;
	if (else_at)
		*else_at = to;
	for (size_t i = at + 1; i < to; i++) {
		if (strcmp(l[i], "end") == 0 && depth-- == 0)
			return i;
		if (opens_block(l[i]))
			depth++;
		else if (depth == 0 && else_at && *else_at == to && strcmp(l[i], "else") == 0)
			*else_at = i;
	}
	return to;
}

/* The condition of an if or while line: 1 true, 0 false, -1 an error. */
static int condition(dbg_session *s, const char *line)
{
	const char *expr = line + first_word(line);
	while (isspace((unsigned char)*expr))
		expr++;
	if (!*expr) {
		dbg_error(s, "%.*s: expected an expression.", (int)first_word(line), line);
		return -1;
	}
	dbg_value v;
	if (dbg_eval(s, expr, &v) < 0)
		return -1;
	return dbg_value_true(&v) ? 1 : 0;
}

static int run_while(dbg_session *s, char **l, size_t at, size_t end, int *flow)
{
	dbg_interrupted = 0;
	for (;;) {
		if (dbg_interrupted) {
			dbg_interrupted = 0;
			printf("Loop stopped by Ctrl-C.\n");
			return 0;
		}
		const int c = condition(s, l[at]);
		if (c <= 0)
			return c;
		if (run_range(s, l, at + 1, end, flow, 1) < 0)
			return -1;
		if (*flow == FLOW_BREAK || s->quit) {
			*flow = FLOW_NONE;
			return 0;
		}
		*flow = FLOW_NONE;
	}
}

/* Run l[from..to): if, while, loop_break and loop_continue here (loops:
 * the whiles around), every other line as typed, a nested define or
 * commands line by line so that it reads its own lines.  The first line
 * that fails ends it (-1). */
static int run_range(dbg_session *s, char **l, size_t from, size_t to, int *flow, int loops)
{
	for (size_t i = from; i < to && !s->quit && *flow == FLOW_NONE; i++) {
		bool repeat;
		if (is_word(l[i], "if")) {
			size_t else_at, end = matching_end(l, i, to, &else_at);
			const int c = condition(s, l[i]);
			if (c < 0 || (c ? run_range(s, l, i + 1, else_at < end ? else_at : end, flow, loops)
				       : else_at < end ? run_range(s, l, else_at + 1, end, flow, loops) : 0) < 0)
				return -1;
			i = end;
		} else if (is_word(l[i], "while")) {
			const size_t end = matching_end(l, i, to, NULL);
			if (run_while(s, l, i, end, flow) < 0)
				return -1;
			i = end;
		} else if ((is_word(l[i], "loop_break") || is_word(l[i], "loop_continue")) && loops) {
			*flow = is_word(l[i], "loop_break") ? FLOW_BREAK : FLOW_CONTINUE;
		} else if (opens_block(l[i])) { /* define, document, commands */
			const size_t end = matching_end(l, i, to, NULL);
			for (size_t k = i; k <= end && k < to; k++)
				if (dbg_execute(s, l[k], &repeat) < 0)
					return -1;
			i = end;
		} else if (dbg_execute(s, l[i], &repeat) < 0) {
			return -1; /* as gdb, a failing line ends the block */
		}
	}
	return 0;
}

/* `if EXPR` and `while EXPR` typed or read from a file: the block is
 * read up to its end, then run. */
static int control_begin(dbg_session *s, const char *word, char *args)
{
	char *expr = dbg_trim(args);
	if (!*expr) {
		dbg_error(s, "%s: expected an expression.", word);
		return -1;
	}
	if (dbg_expr_check(s, expr) < 0)
		return -1;
	char first[4096];
	snprintf(first, sizeof first, "%s %s", word, expr);
	return block_begin(s, BLOCK_CONTROL, word, first);
}

int dbg_cmd_if(dbg_session *s, char *args)
{
	return control_begin(s, "if", args);
}

int dbg_cmd_while(dbg_session *s, char *args)
{
	return control_begin(s, "while", args);
}

/* else, end, loop_break, loop_continue and silent outside the block
 * they belong to. */
int dbg_cmd_block_word(dbg_session *s, char *args)
{
	(void)args;
	dbg_error(s, "This command cannot be used at the top level: else and end close an if "
		  "or while, loop_break and loop_continue are for a while's body, silent for "
		  "the first line of `commands`.");
	return -1;
}

/* ---- breakpoint commands ---- */

int dbg_cmd_commands(dbg_session *s, char *args)
{
	args = dbg_trim(args);
	uint64_t num = s->last_bp;
	if (*args && !dbg_parse_u64(args, &num)) {
		dbg_error(s, "commands: expected a breakpoint number, got \"%s\".", args);
		return -1;
	}
	if (!dbg_bp_find(s, num)) {
		if (*args)
			dbg_error(s, "No breakpoint number %s.", args);
		else
			dbg_error(s, "No breakpoints specified.");
		return -1;
	}
	char what[64];
	snprintf(what, sizeof what, "commands %" PRIu64, num);
	if (block_begin(s, BLOCK_COMMANDS, what, NULL) < 0)
		return -1;
	s->block->bp = (unsigned)num;
	if (s->interactive && !s->source_depth)
		printf("Type commands for breakpoint(s) %" PRIu64 ", one per line.\n"
		       "End with a line saying just \"end\".\n", num);
	return 0;
}

void dbg_bp_due(dbg_session *s, const dbg_bp *bp)
{
	s->stop_silent = false;
	if (!bp->ncmds)
		return;
	struct dbg_block *b = calloc(1, sizeof *b);
	if (!b)
		return;
	b->kind = BLOCK_CONTROL;
	b->bp = bp->num;
	for (size_t i = 0; i < bp->ncmds; i++)
		if (append_line(&b->lines, &b->n, bp->cmds[i]) < 0) {
			block_free(b);
			return;
		}
	struct dbg_block **slot = s->due && s->due->running ? &s->due->next : &s->due;
	block_free(*slot);
	*slot = b;
	s->stop_silent = strcmp(bp->cmds[0], "silent") == 0;
}

void dbg_bp_run_due(dbg_session *s)
{
	while (s->due && !s->block && !s->due->running) {
		struct dbg_block *b = s->due;
		b->running = true;
		const emu_machine *em = s->em;
		const uint64_t since = s->since;
		for (size_t i = b->n && strcmp(b->lines[0], "silent") == 0; i < b->n && !s->quit; i++) {
			/* one line, or one block, at a time */
			const size_t end = opens_block(b->lines[i]) ? matching_end(b->lines, i, b->n, NULL)
								    : i;
			int flow = FLOW_NONE;
			if (run_range(s, b->lines, i, end < b->n ? end + 1 : b->n, &flow, 0) < 0)
				break;
			i = end;
			if (s->em != em || s->since != since)
				break; /* it moved the machine: the rest is not run, as gdb */
		}
		s->due = b->next;
		b->next = NULL;
		block_free(b);
	}
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
	char what[300];
	snprintf(what, sizeof what, "define %s", name);
	if (block_begin(s, BLOCK_DEFINE, what, NULL) < 0)
		return -1;
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
	/* the body may be redefined while it runs: work on a copy, its
	 * arguments in place */
	char **lines = NULL;
	size_t n = 0;
	for (size_t i = 0; i < u->nlines && rc == 0; i++) {
		char *line = substitute(u->lines[i], argv, argc);
		if (!line || append_line(&lines, &n, line) < 0)
			rc = -1;
		free(line);
	}
	if (rc < 0)
		dbg_error(s, "out of memory");
	int flow = FLOW_NONE;
	if (rc == 0)
		rc = run_range(s, lines, 0, n, &flow, 0);
	lines_free(lines, n);
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
