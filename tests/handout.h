/* SPDX-License-Identifier: MIT */
/*
 * handout.h: a handout's captured blocks against real runs.
 *
 * A tutorial (doc/tutorial-*.md) shows what the programs print in fenced
 * blocks.  Each block that holds a marker line (the debugger's
 * "(infsdb) ", a shell's "$ ") is a capture: it must appear verbatim in
 * the output of one of the runs the test made, so that the handout
 * cannot drift from the programs.
 */
#ifndef INFSIM_TESTS_HANDOUT_H
#define INFSIM_TESTS_HANDOUT_H

#include <stddef.h>

/* Called with the text of each captured block (up to its last newline,
 * NUL-terminated) and the document's line of its first line. */
typedef void handout_block_fn(const char *block, int line, void *arg);

/* Each captured block of the document at path (a fenced block with a
 * line that starts with marker), in the document's order.  A fence is
 * "```" at the start of a line, with or without a language after it.
 * Returns how many there are; -1 when the document cannot be read or a
 * block is not closed. */
int handout_each_block(const char *path, const char *marker, handout_block_fn *fn, void *arg);

/* Called with the text of each captured block (up to its last newline)
 * that no output holds. */
typedef void handout_missing_fn(const char *block, void *arg);

/* The captured blocks of the document at path (those with a line that
 * starts with marker) looked up in outs[0..nouts).  Returns how many
 * there are, each missing one passed to missing; -1 when the document
 * cannot be read or a block is not closed. */
int handout_check_blocks(const char *path, const char *marker, char *const *outs,
			 size_t nouts, handout_missing_fn *missing, void *arg);

#endif
