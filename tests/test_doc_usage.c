/* SPDX-License-Identifier: MIT */
/*
 * test_doc_usage.c: the transcripts of doc/USAGE.md, replayed.
 *
 * The convention is doc/TDFG.md's (tests/test_doc_tdfg.c): a ```-fenced
 * block with a line that starts with "$ " is a transcript; each "$ " line
 * is a command typed at the top of the source tree, the lines after it
 * what it prints (standard output and error merged), byte for byte.  Each
 * block runs in a new temporary folder with a copy of the samples/ its
 * commands name and the build's infsim first on the PATH
 * (tests/doc_replay.h).  A failure names the document's line and the
 * command, gives a diff and the whole output to paste into the document.
 */
#include <criterion/criterion.h>

#include "doc_replay.h"
#include "proc.h"

#include <stdlib.h>
#include <string.h>

#define DOC SRCDIR "/doc/USAGE.md"

static void report(const char *msg, void *arg)
{
	(void)arg;
	cr_expect(0, "%s", msg);
}

Test(doc_usage, every_transcript_is_what_infsim_prints)
{
	doc_replay r = {DOC, SRCDIR, BUILDDIR, "infsim-doc-usage", report, NULL, 0, 0};
	const int blocks = doc_replay_run(&r);
	cr_assert_geq(blocks, 0, "%s cannot be read, or a fenced block is not closed", DOC);
	cr_expect_geq(blocks, 25, "only %d transcripts in %s", blocks, DOC);
	cr_expect_geq(r.commands, 50, "only %d commands replayed from %s", r.commands, DOC);
	cr_expect_eq(r.failed, 0, "%d of %d commands of %s print other than the document shows",
		     r.failed, r.commands, DOC);
}

/* The first run shows one program of every system infsim knows. */
Test(doc_usage, the_first_run_shows_every_system)
{
	char *doc = proc_slurp(DOC, NULL);
	cr_assert_not_null(doc);
	const char *first = strstr(doc, "## A first run");
	cr_assert_not_null(first);
	const char *end = strstr(first, "\n## ");
	cr_assert_not_null(end);
	static const char *const runs[] = { "$ infsim run samples/fig1d_add4.ins\n",
					    "$ infsim run samples/nsc/", "$ infsim run samples/ar/",
					    "$ infsim run samples/simt/", "$ infsim vima samples/vima/" };
	for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
		const char *at = strstr(first, runs[i]);
		cr_expect(at && at < end, "%s's \"A first run\" has no `%s`", DOC, runs[i]);
	}
	free(doc);
}
