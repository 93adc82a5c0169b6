/* SPDX-License-Identifier: MIT */
/*
 * proc.h: what the program-level suites share: reading a whole file and
 * running a shell command with its output captured.
 */
#ifndef INFSIM_TESTS_PROC_H
#define INFSIM_TESTS_PROC_H

#include <stddef.h>

/* The whole file, NUL-terminated (malloc'd), its length in *len if len
 * is not NULL; NULL if it cannot be read. */
char *proc_slurp(const char *path, size_t *len);

/* Run `sh -c CMD` with stdin from /dev/null and stdout and stderr merged
 * into *out (malloc'd).  Returns the exit status, or -1 if the command
 * did not exit normally or its output could not be captured. */
int proc_shell(const char *cmd, char **out);

/* proc_shell of `cd DIR && PATH=BINDIR:$PATH && (CMD)`: a line a reader
 * types in DIR, with the programs of BINDIR first on the PATH.  CMD runs
 * in a subshell, so its own redirections, pipes and comments stand. */
int proc_shell_in(const char *dir, const char *bindir, const char *cmd, char **out);

/* A program run with its stdout and stderr apart. */
typedef struct proc_result {
	int status;   /* exit status, -1 if it did not exit normally */
	char *out;    /* stdout (malloc'd) */
	char *err;    /* stderr (malloc'd) */
} proc_result;
/* Run `cd DIR && BIN ARGS` (ARGS a shell word list), its outputs through
 * files in DIR that are removed afterwards.  out or err is NULL if it
 * could not be read back. */
proc_result proc_run_in(const char *dir, const char *bin, const char *args);
void proc_result_free(proc_result *r);

/* A new directory /tmp/PREFIX-XXXXXX, its name in buf; NULL on failure. */
char *proc_tmpdir(char *buf, size_t size, const char *prefix);
/* rm -rf DIR: 0, or the shell's status. */
int proc_rmdir(const char *dir);

/* The text of out between the lines "@N" and "@N+1" (a batch session
 * that echoes markers), malloc'd; NULL if either line is missing. */
char *proc_between(const char *out, int n);

#endif
