/* SPDX-License-Identifier: MIT */
/*
 * test_doc_dbg.c: the example sessions of doc/DEBUGGER.md, replayed.
 *
 * A session is a ```-fenced block whose first line starts with
 * "(infsdb) ".  The line just before its fence says how to replay it:
 *
 *   <!-- replay: ARGS -->                  infsdb -batch -nx ARGS, from
 *                                          the top of the source tree
 *   <!-- replay: ARGS; before: C1 | C2 --> the same, C1, C2 ... first,
 *                                          their output not shown
 *   <!-- no replay: WHY -->                not a batch session (a TUI
 *                                          screen), and why
 *
 * The block's "(infsdb) CMD" lines are the commands, in order; every
 * other line is what they print, standard output and error merged, and
 * must be exactly that.  A session with neither comment fails: every
 * example a reader sees is what infsdb prints.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proc.h"

#define DOC SRCDIR "/doc/DEBUGGER.md"

/* The next line of *p (its end cut), or NULL at the end. */
static char *next_line(char **p)
{
	if (!**p)
		return NULL;
	char *line = *p, *nl = strchr(line, '\n');
	if (nl) {
		*nl = '\0';
		*p = nl + 1;
	} else {
		*p = line + strlen(line);
	}
	return line;
}

typedef struct session {
	int line;              /* the fence's, in the document */
	char args[512], before[1024];
	char *cmds, *want;     /* malloc'd */
} session;

static char *append(char *s, const char *line)
{
	const size_t n = s ? strlen(s) : 0;
	s = realloc(s, n + strlen(line) + 2);
	cr_assert_not_null(s);
	sprintf(s + n, "%s\n", line);
	return s;
}

/* Replay one session: 0 if it prints what the document shows. */
static int replay(const session *ss)
{
	char dir[256], path[512];
	cr_assert_not_null(proc_tmpdir(dir, sizeof dir, "infsim-doc-dbg"));
	snprintf(path, sizeof path, "%s/s.cmds", dir);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	/* the setting-up commands, then a mark the output is cut at */
	for (char *b = (char *)ss->before; *b;) {
		const size_t n = strcspn(b, "|");
		fprintf(f, "%.*s\n", (int)n, b);
		b += n + (b[n] == '|');
	}
	fprintf(f, "echo @@session@@\\n\n%s", ss->cmds);
	fclose(f);
	char cmd[2048], *out = NULL;
	snprintf(cmd, sizeof cmd, "(cd '%s' && HOME=/nonexistent '%s' -batch -nx -x '%s' %s 2>&1)",
		 SRCDIR, INFSDB_BIN, path, ss->args);
	proc_shell(cmd, &out);
	proc_rmdir(dir);
	cr_assert_not_null(out);
	const char *mark = strstr(out, "@@session@@\n");
	const char *got = mark ? mark + strlen("@@session@@\n") : out;
	const int rc = strcmp(got, ss->want) != 0;
	/* the first line that differs, and the whole output to paste */
	const char *w = ss->want, *g = got;
	int line = 1;
	while (*w && *w == *g) {
		line += *w == '\n';
		w++;
		g++;
	}
	cr_expect(!rc, "doc/DEBUGGER.md:%d: the session (infsdb -batch -nx %s) prints other than "
		  "the document shows, from its output's line %d:\n- doc: %.*s\n+ got: %.*s\n"
		  "--- what it prints now ---\n%s", ss->line, ss->args, line,
		  (int)strcspn(w - (w > ss->want && w[-1] != '\n' ? 0 : 0), "\n"), w,
		  (int)strcspn(g, "\n"), g, got);
	free(out);
	return rc;
}

Test(doc_dbg, every_example_session_is_what_infsdb_prints)
{
	char *doc = proc_slurp(DOC, NULL);
	cr_assert_not_null(doc, "%s", DOC);
	char *p = doc, *line, *prev = "";
	int no = 0, replayed = 0, failed = 0, skipped = 0;
	while ((line = next_line(&p))) {
		no++;
		if (strncmp(line, "```", 3) != 0) {
			prev = line;
			continue;
		}
		/* a fenced block: a session if it starts with the prompt */
		const char *marker = prev;
		session ss = { .line = no };
		char *body = NULL;
		bool first = true, is_session = false;
		while ((line = next_line(&p))) {
			no++;
			if (!strncmp(line, "```", 3))
				break;
			if (first)
				is_session = !strncmp(line, "(infsdb) ", 9);
			first = false;
			if (!is_session)
				continue;
			if (!strncmp(line, "(infsdb) ", 9))
				ss.cmds = append(ss.cmds, line + 9);
			else
				body = append(body, line);
		}
		prev = "";
		if (!is_session)
			continue;
		ss.want = body ? body : calloc(1, 1);
		if (!strncmp(marker, "<!-- no replay: ", 16)) {
			skipped++;
		} else {
			cr_expect(!strncmp(marker, "<!-- replay: ", 13), "doc/DEBUGGER.md:%d: a session "
				  "with no <!-- replay: ARGS --> (or <!-- no replay: WHY -->) before it",
				  ss.line);
			if (!strncmp(marker, "<!-- replay: ", 13)) {
				const char *a = marker + 13, *end = strstr(a, " -->");
				const char *semi = strstr(a, "; before: ");
				cr_assert(end, "doc/DEBUGGER.md:%d: unclosed comment", ss.line - 1);
				const char *aend = semi && semi < end ? semi : end;
				snprintf(ss.args, sizeof ss.args, "%.*s", (int)(aend - a), a);
				if (semi && semi < end)
					snprintf(ss.before, sizeof ss.before, "%.*s",
						 (int)(end - semi - 10), semi + 10);
				failed += replay(&ss);
				replayed++;
			}
		}
		free(ss.cmds);
		free(ss.want);
	}
	free(doc);
	cr_expect_geq(replayed, 4, "only %d sessions replayed", replayed);
	cr_expect_leq(skipped, 2, "%d sessions not replayed", skipped);
	cr_expect_eq(failed, 0, "%d of %d sessions differ", failed, replayed);
}
