/* SPDX-License-Identifier: MIT */
/*
 * cli.h: what the option parsers of `infsim` and its subcommands share
 * (prefix cli_): one form for usage errors, numbers, NAME=VALUE and
 * ARRAY=FILE arguments, so that every subcommand answers a mistake in
 * the same words (GNU's: "infsim: WHAT" then "Try 'infsim CMD --help'
 * for more information.", exit status 2).
 *
 * Unlike the rest of the library, these print: they serve the command
 * line only (emu/infsim/main.c and each system's cli.c).
 */
#ifndef INFSIM_CLI_H
#define INFSIM_CLI_H

#include <stdbool.h>
#include <stdint.h>

#include "diag.h"

enum { CLI_EXIT_USAGE = 2 };

/* The program the messages name: "infsim" (the default) or "infsdb",
 * which then names no subcommand in its hint ("Try 'infsdb --help'"). */
extern const char *cli_program;

/* Print "infsim: MESSAGE" and the hint to `infsim [CMD] --help` (cmd
 * NULL: the top-level help; cli_program names the program); CLI_EXIT_USAGE. */
int cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Print a runtime failure's message; EXIT_FAILURE. */
int cli_failed(const diag *d);

bool cli_ends_with(const char *s, const char *suffix);


/* --opt=S as a decimal number in [lo, hi] into *v; 0, or a usage error
 * ("--OPT=S: expected a number from LO to HI", or "of at least LO" when
 * hi is UINT64_MAX). */
int cli_number(const char *cmd, const char *opt, const char *s, uint64_t lo, uint64_t hi,
	       uint64_t *v);

/* -D NAME=VALUE, VALUE an integer (C's decimal, 0x hex or 0 octal):
 * splits arg in place; 0, or a usage error. */
int cli_define(const char *cmd, char *arg, const char **name, long long *value);

/* -OPT ARRAY=FILE: splits arg in place; 0, or a usage error. */
int cli_name_file(const char *cmd, int opt, char *arg, const char **name, const char **path);

#endif
