/* SPDX-License-Identifier: MIT */
/*
 * outfile.h: write an output file whole or not at all (prefix outfile_).
 *
 * The bytes go to a temporary file in the same folder as the target (so
 * the final rename stays inside one file system), which is flushed and
 * fsync'd, then renamed over the target, and the folder is fsync'd.  A
 * reader sees the old file or the complete new one, never a part.  On
 * any failure the temporary is removed and the target is untouched.
 *
 * Standard output ("-"), a character device (/dev/null, /dev/stdout, a
 * terminal) and a named pipe are written directly, as they cannot be
 * replaced: a write error (/dev/full) is still reported at commit.
 */
#ifndef INFSIM_OUTFILE_H
#define INFSIM_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "diag.h"

typedef struct outfile {
	FILE *f;      /* write here between outfile_open and commit/abort */
	char *path;   /* the target */
	char *tmp;    /* the temporary, in the target's folder */
	bool direct;  /* written in place: standard output, a device, a pipe */
} outfile;

/* Can path be created or replaced?  Its folder must exist and be
 * writable, and path must not be a directory.  Call it before a long
 * computation so a bad output path fails before the work, not after.
 * 0, or -1 with d set. */
int outfile_check(const char *path, diag *d);

/* Start writing path.  0, or -1 with d set (nothing created). */
int outfile_open(outfile *o, const char *path, diag *d);
/* Flush, fsync and rename into place.  0, or -1 with d set, in which case
 * the temporary is removed.  Either way o is closed. */
int outfile_commit(outfile *o, diag *d);
/* Give up: close and remove the temporary. */
void outfile_abort(outfile *o);

/* open + write len bytes + commit. */
int outfile_write(const char *path, const void *data, size_t len, diag *d);

/* Remove the temporary of an interrupted write when SIGINT, SIGTERM or
 * SIGHUP arrives, then die by the signal as usual.  For programs. */
void outfile_cleanup_on_signals(void);

#endif
