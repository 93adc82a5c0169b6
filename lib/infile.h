/*
 * infile.h: read a whole input file within a stated limit (prefix infile_).
 *
 * The reading counterpart of outfile.h, for binary inputs (checkpoints,
 * .npy data).  Any kind of file is read the same way, in chunks until
 * its end: a regular file, a pipe, /dev/stdin, or "-" (standard input).
 * A file larger than the limit is refused with a message naming the
 * limit, after reading at most limit + 1 bytes, so that /dev/zero or an
 * endless pipe costs no more memory than the largest file accepted.
 */
#ifndef INFSIM_INFILE_H
#define INFSIM_INFILE_H

#include <stddef.h>

#include "diag.h"

/* Read path ("-": standard input) whole into a malloc'd buffer (*bytes,
 * *len bytes, followed by a '\0' not counted in len).  what names the
 * kind of file in the message when it is larger than limit bytes ("a
 * checkpoint").  0, or -1 with d set and nothing allocated. */
int infile_read(const char *path, size_t limit, const char *what, unsigned char **bytes,
		size_t *len, diag *d);

#endif
