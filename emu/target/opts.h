/* SPDX-License-Identifier: MIT */
/*
 * opts.h: the options every front takes for every target (prefix
 * tgt_opts_): -D, -m, -c, --check, --strict, -j and each target's own
 * options (--root=naive), with the same meanings and the same refusals in
 * `infsim run` (emu/infsim/run.c) and in `infsdb` (dbg/main.c).  A front
 * parses its own options around these (infsim's -s and --stats, infsdb's
 * -batch and -x), collects these into a tgt_opts, then, once it knows the
 * target, refuses what the target cannot honour (tgt_opts_refuse) and
 * makes the settings open is given (tgt_opts_settings).
 *
 * The messages are cli_usage's (lib/cli.h): "infsim: ..." from infsim,
 * "infsdb: ..." from infsdb (cli_program).
 */
#ifndef INFSIM_TARGET_OPTS_H
#define INFSIM_TARGET_OPTS_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>

#include "target.h"

/* A target option as the command line gave it, before the target is
 * known: its long name and its value (NULL for a flag). */
typedef struct tgt_given {
	const char *name;
	const char *value;
} tgt_given;

/* The common options as given (arrays with room for argc items). */
typedef struct tgt_opts {
	const char *prog;      /* the program operand, for messages */
	const char *config;    /* -c */
	const char **machine;  /* -m, in order */
	size_t nmachine;
	tgt_def *defs;         /* -D, in order, each name once */
	size_t ndefs;
	tgt_given *topts;      /* the targets' own options, in order */
	size_t ntopts;
	bool check, strict;
	unsigned threads;      /* -j; 0: not given */
	bool loads, saves;     /* -l given; -s, -e or -d given (the front's) */
} tgt_opts;

/* Room for n of each list.  0, or -1 out of memory. */
int tgt_opts_init(tgt_opts *o, size_t n);
void tgt_opts_free(tgt_opts *o);

/* The option value getopt_long returns for target option k of the table
 * tgt_opts_longopts made is TGT_OPTS_BASE + k. */
enum { TGT_OPTS_BASE = 1000 };
/* common[0..n) followed by the long options of every target (each name
 * once), terminated; NULL out of memory. */
struct option *tgt_opts_longopts(const struct option *common, size_t n);
/* One target option that getopt_long returned as opt (>= TGT_OPTS_BASE)
 * with optarg, from the table lo. */
void tgt_opts_given(tgt_opts *o, const struct option *lo, int opt, const char *arg);

/* -D NAME=VALUE (cmd names the subcommand in the message: "run", or NULL
 * for infsdb).  0, or a usage error. */
int tgt_opts_define(tgt_opts *o, const char *cmd, char *arg);
/* -j N, 1 to 1024.  0, or a usage error. */
int tgt_opts_threads(tgt_opts *o, const char *cmd, const char *arg);

/* The target named name ("ar"), or NULL; the extensions of every target,
 * ".ins, .inb, ..., .simt". */
const tgt_ops *tgt_opts_target(const char *name);
void tgt_opts_exts(char *buf, size_t size);

/* 0 if ops honours every option given; else the usage error naming the
 * target, the option and why ("infsim: mac.ar: ar programs
 * (Active-Routing) do not take --strict: ..."). */
int tgt_opts_refuse(const tgt_ops *ops, const tgt_opts *o, const char *cmd);

/* What ops->open is given: -c FILE's settings, then -m's, then the
 * target's setting options (--root=naive is root=naive); its other
 * options. */
typedef struct tgt_settings {
	tgt_setting *s;
	size_t n;
	tgt_optval *ov;
	size_t nov;
	char *config_text;     /* -c's file, which s points into */
	char *mtext;           /* -m's items, cut */
} tgt_settings;
/* 0, or an exit status (a usage error, or 1 if -c's file cannot be
 * read); st is to be freed either way. */
int tgt_opts_settings(const tgt_ops *ops, const tgt_opts *o, const char *cmd, tgt_settings *st);
void tgt_opts_settings_free(tgt_settings *st);

/* open's TGT_USAGE (a setting or option the target refused) as a usage
 * error: "FILE: error: WHAT" printed "infsim: FILE: WHAT", "--OPTION:
 * error: WHAT" as "infsim: --OPTION WHAT", then the hint.  CLI_EXIT_USAGE. */
int tgt_opts_open_usage(diag *d, const char *cmd);

#endif
