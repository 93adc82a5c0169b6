/* SPDX-License-Identifier: MIT */
/*
 * doc_replay.h: a document's shell transcripts, replayed and compared
 * byte for byte.
 *
 * A transcript is a fenced block (tests/handout.h) with a line that
 * starts with "$ ".  Each "$ " line is a command; the lines after it, up
 * to the next "$ " line or the end of the block, are what it prints,
 * standard output and error merged as a terminal shows them.  Each block
 * is replayed on its own, in a new temporary folder: the paths are
 * written as from the top of the source tree, so each "samples/NAME"
 * that a command of the block names (a folder or a file directly under
 * samples/) is copied from SRCDIR/samples/NAME into the folder's
 * samples/ first; the commands then run there, one after the other,
 * each in a shell of its own (sh -c, its pipes and redirections as
 * typed), with BINDIR first on the PATH.  A copy, not a link: nothing a
 * command writes can reach the source tree.  What a command leaves in
 * the folder is there for the next command of its block only.
 *
 * Exit statuses are not compared (a transcript shows what is printed; a
 * command may end with `; echo "exit status $?"` to show one), but a
 * failure message gives the status.
 */
#ifndef INFSIM_TESTS_DOC_REPLAY_H
#define INFSIM_TESTS_DOC_REPLAY_H

/* Called once per command whose output differs from its transcript (or
 * per block that cannot be replayed), with a message: the document's
 * file:line, the command, a line diff ("- doc:" the transcript's line,
 * "+ got:" the output's, "  " the lines both have) and the whole output
 * as the command printed it, ready to paste into the document. */
typedef void doc_replay_fail_fn(const char *msg, void *arg);

typedef struct doc_replay {
	const char *doc;      /* the document */
	const char *srcdir;   /* the source tree: its samples/ */
	const char *bindir;   /* first on the PATH: the programs under test */
	const char *prefix;   /* of the temporary folders, /tmp/PREFIX-XXXXXX */
	doc_replay_fail_fn *fail;
	void *arg;
	int commands;         /* out: the commands replayed */
	int failed;           /* out: how many of them differ, and blocks that could not run */
} doc_replay;

/* Replay every transcript of r->doc.  Returns the number of transcript
 * blocks, or -1 when the document cannot be read or a block is not
 * closed. */
int doc_replay_run(doc_replay *r);

/* The message for a command whose output got differs from want (both
 * NUL-terminated; want is the transcript's lines, each ending with a
 * newline), malloc'd; NULL when they are the same.  line is the
 * document's line of the "$ " line, status the command's exit status. */
char *doc_replay_diff(const char *doc, int line, const char *cmd, const char *want,
		      const char *got, int status);

#endif
