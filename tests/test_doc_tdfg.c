/* SPDX-License-Identifier: MIT */
/*
 * test_doc_tdfg.c: the transcripts of doc/TDFG.md, replayed.
 *
 * The convention: a ```-fenced block of doc/TDFG.md with a line that
 * starts with "$ " is a transcript.  Each "$ " line is a command, typed
 * as written; the lines after it, up to the next "$ " line or the end of
 * the block, are what it prints, standard output and error merged as a
 * terminal shows them, and they must be exactly that, byte for byte.
 * Only such blocks are replayed: a block without a "$ " line (a file, a
 * synopsis, an excerpt with "...") is not, and a block that shows a
 * command must show all it prints (a `| sed -n` in the command may pick
 * the lines to show).
 *
 * How the paths are mapped (tests/doc_replay.h): the commands are written
 * as typed at the top of the source tree (`samples/tdfg/stencil.tdfg`),
 * and each block runs in a new temporary folder that holds a copy of each
 * samples/NAME its commands name, taken from the source tree; the infsim
 * of the build is first on the PATH.  Files a command writes stay in the
 * folder for the later commands of its block, and the next block starts
 * afresh.
 *
 * When the programs change what they print, the failure names the
 * document's line and the command, gives a diff ("- doc:" the
 * transcript's line, "+ got:" what it prints now) and the whole output
 * to paste into the document.  tests/test_tutorial_jit.c checks
 * doc/tutorial-jit.md with the same blocks (tests/handout.h) and shell
 * (proc_shell_in).
 */
#include <criterion/criterion.h>

#include "doc_replay.h"
#include "proc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DOC SRCDIR "/doc/TDFG.md"
#define STENCIL SRCDIR "/samples/tdfg/stencil.tdfg"

static void report(const char *msg, void *arg)
{
	(void)arg;
	cr_expect(0, "%s", msg);
}

Test(doc_tdfg, every_transcript_is_what_infsim_prints)
{
	doc_replay r = {DOC, SRCDIR, BUILDDIR, "infsim-doc-tdfg", report, NULL, 0, 0};
	const int blocks = doc_replay_run(&r);
	cr_assert_geq(blocks, 0, "%s cannot be read, or a fenced block is not closed", DOC);
	/* The first example, the size parameters, the lowering of outer,
	 * and the two broken streams of "Validating a stream". */
	cr_expect_geq(blocks, 5, "only %d transcripts in %s", blocks, DOC);
	cr_expect_geq(r.commands, 10, "only %d commands replayed from %s", r.commands, DOC);
	cr_expect_eq(r.failed, 0, "%d of %d commands of %s print other than the document shows",
		     r.failed, r.commands, DOC);
}

/* The first example shows the sample as the file has it, less its
 * comment lines. */
Test(doc_tdfg, the_first_example_is_the_sample)
{
	char *tdfg = proc_slurp(STENCIL, NULL), *doc = proc_slurp(DOC, NULL);
	cr_assert(tdfg && doc);
	char *shown = calloc(1, strlen(tdfg) + 16);
	cr_assert_not_null(shown);
	strcpy(shown, "```\n");
	for (char *line = tdfg; *line;) {
		char *nl = strchr(line, '\n');
		const size_t len = nl ? (size_t)(nl - line) + 1 : strlen(line);
		if (*line != '#')
			strncat(shown, line, len);
		line += len;
	}
	strcat(shown, "```\n");
	cr_expect(strstr(doc, shown), "%s does not show %s as it is (less its comments):\n%s",
		  DOC, STENCIL, shown);
	free(shown);
	free(tdfg);
	free(doc);
}

/* The replay itself: a stale transcript fails with a diff that names the
 * document's line, shows the transcript's line against the output's and
 * gives the whole output; a true one passes; text before the first
 * command is refused. */
typedef struct caught {
	char msgs[4][8192];
	int n;
} caught;

static void catch(const char *msg, void *arg)
{
	caught *c = arg;
	if (c->n < 4)
		snprintf(c->msgs[c->n], sizeof c->msgs[0], "%s", msg);
	c->n++;
}

Test(doc_tdfg, a_stale_transcript_fails_with_a_diff)
{
	char dir[256], path[512];
	cr_assert_not_null(proc_tmpdir(dir, sizeof dir, "infsim-doc-stale"));
	snprintf(path, sizeof path, "%s/doc.md", dir);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs("# A doc\n\n```\n$ printf 'a\\nb\\nc\\n'\na\nB\nc\n$ echo one; echo two >&2\none\ntwo\n"
	      "```\n\nText.\n\n```\nnot a transcript\n```\n\n```\nstale\n$ echo x\nx\n```\n\n"
	      "```\n$ printf 'no newline'\nno newline\n$ wc -l < samples/tdfg/stencil.tdfg\n"
	      "21\n```\n", f);
	fclose(f);
	caught c = {.n = 0};
	doc_replay r = {path, SRCDIR, BUILDDIR, "infsim-doc-replay", catch, &c, 0, 0};
	cr_assert_eq(doc_replay_run(&r), 3);
	cr_expect_eq(r.commands, 4);
	cr_assert_eq(c.n, 3, "%d failures:\n%s\n%s", c.n, c.msgs[0], c.msgs[1]);
	char want[2048];
	snprintf(want, sizeof want, "%s:4: the transcript of `$ printf 'a\\nb\\nc\\n'` is not what "
		 "it prints now (exit status 0);\nthe first difference is at %s:6, line 2 of the "
		 "output, from column 1:\n       a\n- doc: B\n+ got: b\n       c\nthe whole output "
		 "now (3 lines; what goes below the command in %s):\na\nb\nc\n", path, path, path);
	cr_expect_str_eq(c.msgs[0], want);
	snprintf(want, sizeof want, "%s:20: a transcript block starts with a line that is not a "
		 "command", path);
	cr_expect(strstr(c.msgs[1], want), "%s", c.msgs[1]);
	cr_expect(strstr(c.msgs[2], "(the output does not end with a newline"), "%s", c.msgs[2]);
	cr_expect_eq(proc_rmdir(dir), 0);
}
