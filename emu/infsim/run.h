/* SPDX-License-Identifier: MIT */
/*
 * run.h: `infsim run`, the one front of every target (run.c).
 */
#ifndef INFSIM_RUN_H
#define INFSIM_RUN_H

#include <stdio.h>

/* infsim run's options and operand (argv[0] the program's name); system:
 * NULL, or the one target to run (`infsim ar PROG`).  The exit status. */
int infsim_run(int argc, char **argv, const char *system);
/* run's --help: every system's options, or only system's (NULL: all). */
void infsim_run_help(FILE *f, const char *system);

#endif
