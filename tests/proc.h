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

#endif
