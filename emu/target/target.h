/* SPDX-License-Identifier: MIT */
/*
 * target.h: one interface that every emulated system fills (prefix tgt_).
 *
 * infsim emulates five systems: command streams and tDFGs on the in-cache
 * machine, Active-Routing, near-stream computing, VIMA and Duality Cache's
 * SIMT mode.  Each fills one table of functions, tgt_ops, as each of gdb's
 * targets fills target_ops and each of QEMU's target/ARCH folders fills the
 * same hooks.  The fronts are generic: `infsim run` (emu/infsim) parses one
 * set of options, opens the program with the target that claims it, loads
 * and saves its arrays, runs it, checks it and prints its statistics;
 * `infsdb` (dbg/) steps it over its units, reads its values, stops at its
 * breakpoints and goes back through its snapshots.  A front never looks
 * inside a target's state, and a target never prints: it fills a diag, a
 * report, a statistics tree (stats.h) or a FILE the front gives it.
 *
 * The life of a program:
 *   tgt_find       which target claims a file (its extension, its first
 *                  bytes);
 *   ops->open      parse it with -D's parameters, the machine settings
 *                  (-c FILE's lines, then -m's, then the target's own
 *                  options), and set up its machine (and, with check, its
 *                  independent reference);
 *   ops->array_*   the named arrays: -l fills them before the run, -s, -e
 *                  and -d read them after it, print and x read them;
 *   ops->run       to the end (or step, one unit at a time);
 *   ops->stats     the statistics, as one tree;
 *   ops->close.
 * Every call that can fail returns a tgt_status and fills its diag with one
 * message naming the file, line and column, or the option, at fault.
 */
#ifndef INFSIM_TARGET_H
#define INFSIM_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "api.h"
#include "diag.h"
#include "stats.h"

INFSIM_BEGIN_DECLS

/* What a call ended with; also infsim's exit statuses (doc/USAGE.md, "Exit
 * status"), the same for every target. */
typedef enum tgt_status {
	TGT_OK = 0,
	TGT_FAILED = 1,   /* the program, a file or the run failed (d says how) */
	TGT_USAGE = 2,    /* an option or setting is wrong, or this target
			   * cannot honour it (d names the target and why) */
	TGT_DIFFERS = 3,  /* --check or -e found a difference (the report) */
	TGT_HAZARD = 4,   /* --strict stopped the run at a hazard */
	TGT_FAULT = 5,    /* the program raised a fault it was told to */
} tgt_status;

/* ---- values ---- */

/* The type of an element: raw bits, width of them, read as kind says. */
typedef enum tgt_kind {
	TGT_INT,     /* two's complement (is_signed) or unsigned */
	TGT_FIXED,   /* qN: a signed integer of width bits, frac of them
		      * after the point */
	TGT_F16, TGT_BF16, TGT_F32, TGT_F64,
} tgt_kind;

typedef struct tgt_type {
	uint8_t kind;      /* enum tgt_kind */
	uint8_t width;     /* 1..64 */
	bool is_signed;
	uint8_t frac;      /* TGT_FIXED */
} tgt_type;

/* A value's raw bits as text: "-3", "1.5" (floats and qN as the shortest
 * decimal that reads back to the same bits). */
void tgt_value_text(tgt_type t, uint64_t bits, char *buf, size_t size);
/* The same with the bits: "-3 (0xfffd)", digits for the whole width. */
void tgt_value_bits_text(tgt_type t, uint64_t bits, char *buf, size_t size);
/* "i32", "u8", "f16", "bf16", "q16" (qN: its width). */
void tgt_type_name(tgt_type t, char *buf, size_t size);
/* The .npy element type that holds t: <iN/<uN of the smallest size holding
 * width (|b1 for width 1), <f2, <u2 (bf16's raw bits), <f4, <f8. */
void tgt_type_dtype(tgt_type t, char *kind, unsigned *size);

#define TGT_NAME_MAX 64
#define TGT_DIMS_MAX 8

/* A named array of the program: what -l, -s, -e and -d name. */
typedef struct tgt_array {
	char name[TGT_NAME_MAX];
	tgt_type type;
	unsigned ndim;                 /* 1 or more; shape in C order */
	uint64_t shape[TGT_DIMS_MAX];
	uint64_t length;               /* the product of shape */
} tgt_array;

/* ---- options ---- */

/* A -D NAME=VALUE. */
typedef struct tgt_def {
	const char *name;
	int64_t value;
} tgt_def;

/* A machine setting, KEY=VALUE: a -c FILE line (file and line set), a -m
 * item, or a target option flagged TGT_OPT_SETTING (--KEY=VALUE). */
typedef struct tgt_setting {
	const char *key, *value;
	const char *file;              /* -c's file, or NULL for the command line */
	unsigned line;
	unsigned col;                  /* its value's column there (0: none) */
} tgt_setting;

enum {
	TGT_OPT_ARG = 1,      /* takes a value (--name=VALUE or --name VALUE) */
	TGT_OPT_SETTING = 2,  /* --name=VALUE is the setting -m name=VALUE */
};

/* An option of one target's own, for --help and the one parser. */
typedef struct tgt_option {
	const char *name;     /* long name without "--" */
	unsigned flags;       /* TGT_OPT_* */
	const char *arg;      /* the value's name in --help ("N", "FILE") */
	const char *help;     /* one line */
} tgt_option;

/* A target option as the command line gave it. */
typedef struct tgt_optval {
	const tgt_option *opt;
	const char *value;    /* NULL for a flag */
} tgt_optval;

/* What open is given.  text holds the whole file (the front read it within
 * its bound; "-" is standard input), not NUL-terminated. */
typedef struct tgt_load {
	const char *path;
	const char *text;
	size_t len;
	const tgt_def *defs;          /* -D, in order */
	size_t ndefs;
	const tgt_setting *settings;  /* -c FILE's, then -m's, in order: the
				       * last one of a key wins */
	size_t nsettings;
	const tgt_optval *opts;       /* the target's own options, in order
				       * (one flagged TGT_OPT_SETTING comes as
				       * a setting instead) */
	size_t nopts;
	bool check;        /* --check: keep the independent reference */
	bool strict;       /* --strict */
	bool stepping;     /* the debugger will step it: keep what step, where
			    * and the snapshots need */
	unsigned threads;  /* -j, 0: not given */
	/* Where a target option that asks for text (SIMT's --bundles) writes
	 * it; NULL: such options are refused (the debugger). */
	FILE *out;
	/* Warnings found while loading or running ("FILE:LINE:COL: warning:
	 * ..."): the front prints them as they come. */
	void (*warn)(void *ctx, const char *msg);
	void *warn_ctx;
	/* A long run's progress: units done of total, now and then (may be
	 * NULL); the front shows it on a terminal. */
	void (*progress)(void *ctx, uint64_t done, uint64_t total);
	/* The arrays the front fills after open (-l): a target need not
	 * fill them from its own sources (a tDFG's load=FILE) first. */
	const char *const *loading;
	size_t nloading;
} tgt_load;

/* ---- the debugger's view ---- */

/* A step unit: what `stepi`, `step`, `next` move over (units[0] is the
 * finest: a micro-op, an event, a bundle). */
typedef struct tgt_unit {
	const char *name;     /* "micro-op", "command", "event", "Update" */
	const char *plural;
} tgt_unit;

/* Where a unit of the program is: its source position and what it is. */
typedef struct tgt_loc {
	const char *file;     /* NULL when the unit has no source */
	unsigned line, col;   /* 0: not known */
	uint64_t index;       /* the unit's number, from 0, in its kind */
	char what[256];       /* "UpdateRR A[i], B[i], S[0], mac (thread 2)" */
} tgt_loc;

/* A value the debugger can name: an array (indexed), or a scalar (a
 * register, a counter, a thread's register: index 0 only). */
typedef struct tgt_sym {
	bool is_array;
	size_t id;            /* the target's own number */
	tgt_type type;
	uint64_t length;      /* 1 for a scalar */
	bool writable;        /* `set var` may change it */
} tgt_sym;

/* A breakpoint as the target understands it: what break_parse made of the
 * text after `break` (or `tbreak`), and what break_hit tests. */
typedef struct tgt_bp {
	unsigned kind;        /* the target's own */
	uint64_t a, b;
	char what[160];       /* "mac.ar:9", "event 100", "thread 3 at bundle 7" */
} tgt_bp;

typedef struct tgt_snap tgt_snap;  /* a whole state, the target's own */

typedef struct tgt tgt;            /* a loaded program with its machine */

/* `info WHAT` of a target's own (info flows, info threads, info streams):
 * show writes it to out and returns 0, or -1 with d set. */
typedef struct tgt_info {
	const char *name;
	const char *help;
	int (*show)(tgt *t, const char *args, FILE *out, diag *d);
} tgt_info;

/* A view of the TUI (the state window): listing is the front's own. */
typedef struct tgt_view {
	const char *name;     /* "flows", "divergence", "cache" */
	const char *help;
	void (*draw)(tgt *t, FILE *out, unsigned width, unsigned height);
} tgt_view;

/* ---- the table ---- */

typedef struct tgt_ops {
	const char *name;      /* "stream", "ar", "nsc", "vima", "simt" */
	const char *title;     /* "Active-Routing (HPCA'19)" */
	const char *const *exts;   /* ".ar", ..., NULL */
	/* Does a file whose extension is none of exts belong to this target,
	 * from its first bytes (head, n of them)?  May be NULL. */
	bool (*claims)(const char *head, size_t n);
	const tgt_option *options; /* its own, NULL-name terminated */
	const char *settings_help; /* the -m keys it knows, for --help */
	/* What the common options mean here: each bit TGT_CAN_* set if the
	 * target honours the option; the front refuses the others, naming
	 * the target and why (why_not). */
	unsigned can;
	const char *(*why_not)(unsigned can_bit);

	tgt *(*open)(const tgt_load *a, tgt_status *st, diag *d);
	void (*close)(tgt *t);

	size_t (*narrays)(const tgt *t);
	void (*array)(const tgt *t, size_t i, tgt_array *out);
	/* Elements [first, first + n) of array i, each its raw bits. */
	void (*array_get)(tgt *t, size_t i, uint64_t first, uint64_t n, uint64_t *bits);
	tgt_status (*array_set)(tgt *t, size_t i, uint64_t first, uint64_t n,
				const uint64_t *bits, diag *d);

	/* Run to the end from where it is.  With check, the reference is
	 * compared as the target defines (after every command, at the end)
	 * and TGT_DIFFERS names the first wrong element and the unit that
	 * wrote it (report). */
	tgt_status (*run)(tgt *t, diag *d);
	/* The last TGT_DIFFERS's full text (lines ending in '\n'), or NULL. */
	const char *(*report)(const tgt *t);
	/* With check, compare every array with the reference now (the
	 * debugger's `check`); TGT_OK or TGT_DIFFERS (report). */
	tgt_status (*check)(tgt *t, diag *d);

	/* The statistics of the run so far: fill root's "machine", "totals"
	 * and the target's own groups (doc/stats.schema.json). */
	void (*stats)(tgt *t, tgt_stat *root);
	/* What a good run did, for the one line infsim prints after it,
	 * the program's name first ("p.ins: 12 commands, 4096 cycles;
	 * --check: the reference model agrees"); NULL: the front says the
	 * run is done. */
	void (*summary)(tgt *t, char *buf, size_t size);

	/* ---- stepping (infsdb) ---- */
	const tgt_unit *units;     /* finest first */
	unsigned nunits;
	/* step and next run units of level 1 until where(1)'s line changes
	 * (or a unit above it ends), as gdb steps a source line; false: one
	 * unit of level 1. */
	bool step_lines;
	/* One unit of level u: TGT_OK, or TGT_FAILED with d (TGT_HAZARD,
	 * TGT_FAULT: the run stopped as run's would); ended tells whether
	 * anything is left. */
	tgt_status (*step)(tgt *t, unsigned u, diag *d);
	bool (*ended)(const tgt *t);
	/* Units of level u done so far. */
	uint64_t (*count)(const tgt *t, unsigned u);
	/* The unit of level u the position is in (or about to run); false
	 * when there is none (before the first, after the last). */
	bool (*where)(tgt *t, unsigned u, tgt_loc *loc);
	/* The source file the listing shows, or NULL. */
	const char *(*source)(const tgt *t);

	/* A name the debugger's expressions may use: an array, a register. */
	bool (*lookup)(tgt *t, const char *name, tgt_sym *out);
	uint64_t (*read)(tgt *t, const tgt_sym *s, uint64_t index);
	/* May be NULL.  Is scalar s unreadable now (a register not live
	 * where its thread is)?  Then why says so ("%r5 of thread 3 is not
	 * live at pc 12 ..."), and the debugger prints that, not read's bits. */
	bool (*unavailable)(tgt *t, const tgt_sym *s, char *why, size_t size);
	tgt_status (*write)(tgt *t, const tgt_sym *s, uint64_t index, uint64_t bits, diag *d);
	/* Every name lookup knows, for completion and `info symbols`. */
	void (*names)(tgt *t, void (*each)(void *ctx, const char *name), void *ctx);

	/* `break SPEC`: FILE:LINE, LINE, or the target's own words. */
	tgt_status (*break_parse)(tgt *t, const char *spec, tgt_bp *bp, diag *d);
	/* Is the position (before the next finest unit) at bp? */
	bool (*break_hit)(tgt *t, const tgt_bp *bp);
	const char *break_help;    /* the forms break_parse takes */

	/* May be NULL.  Threads, for a breakpoint's condition that names
	 * the current thread's values: the current thread, select another,
	 * and the threads the next finest unit runs (up to max into out,
	 * their number returned).  The debugger tests such a condition for
	 * the current thread, then for each of those, and stops in the
	 * first for which it holds (gdb's thread that hit the breakpoint). */
	unsigned (*thread_get)(const tgt *t);
	void (*thread_set)(tgt *t, unsigned thread);
	unsigned (*threads_here)(tgt *t, unsigned *out, unsigned max);

	/* The whole state, for checkpoints and reverse execution. */
	tgt_snap *(*save)(tgt *t, diag *d);
	tgt_status (*restore)(tgt *t, const tgt_snap *s, diag *d);
	void (*snap_free)(tgt_snap *s);
	size_t (*snap_bytes)(const tgt_snap *s);

	const tgt_info *infos;     /* NULL-name terminated, or NULL */
	const tgt_view *views;     /* NULL-name terminated, or NULL */

	/* The system's instruction set, a line each, with a header line
	 * (`infsim commands SYSTEM`); NULL: the system has none to list. */
	void (*commands)(FILE *out);
} tgt_ops;

/* The common options a target may honour (tgt_ops.can). */
enum {
	TGT_CAN_DEFINE = 1 << 0,   /* -D */
	TGT_CAN_LOAD = 1 << 1,     /* -l */
	TGT_CAN_SAVE = 1 << 2,     /* -s, -e, -d */
	TGT_CAN_CHECK = 1 << 3,    /* --check */
	TGT_CAN_STRICT = 1 << 4,   /* --strict */
	TGT_CAN_MACHINE = 1 << 5,  /* -m, -c */
	TGT_CAN_THREADS = 1 << 6,  /* -j */
};

/* Every target infsim has, in the order --help lists them; NULL ends it. */
extern const tgt_ops *const tgt_all[];

/* The target of path: by extension, then by claims over its first n bytes
 * of head; NULL if none. */
const tgt_ops *tgt_find(const char *path, const char *head, size_t n);

/* The array named name, or -1. */
long tgt_array_find(const tgt_ops *ops, const tgt *t, const char *name);

/* "A[5]"; "T[1][0] (element 4)" for an array of more than one
 * dimension, its indexes outermost first as in C. */
void tgt_elem_name(const tgt_array *a, uint64_t index, char *buf, size_t size);
/* "A[5] (i16): expected -262 (0xfefa), got -2 (0xfffe); bits that differ:
 * 2, 8": the words every target's --check and -e use. */
int tgt_mismatch_text(const tgt_array *a, uint64_t index, uint64_t expected, uint64_t got,
		      char *buf, size_t size);

/* Line `line` (from 1) of a program's text, its indentation and a
 * trailing '#' comment left out, into buf (empty past the end): what a
 * target's `where` shows of a statement. */
void tgt_source_line(const char *text, size_t len, unsigned line, char *buf, size_t size);

/* For claims: the first word (letters, digits, '.', '_') of line k of
 * head's statements (k from 0: blank lines and '#' comments skipped),
 * into buf; false past the last whole line. */
bool tgt_head_word(const char *head, size_t n, unsigned k, char *buf, size_t size);
/* Does a statement of head begin with word? */
bool tgt_head_has(const char *head, size_t n, const char *word);

/* ---- files (files.c) ---- */

/* Read path (.npy of a's element type and element count, any shape; or a
 * raw .bin of the same items; "-" standard input) into values[a->length],
 * as a's raw bits: integers must fit a's width. */
int tgt_elements_read(const char *path, const tgt_array *a, uint64_t *values, diag *d);
/* Write values (a's raw bits) to path as a .npy of a's shape (or a raw
 * .bin), atomically; "-" standard output. */
int tgt_elements_write(const char *path, const tgt_array *a, const uint64_t *values, diag *d);

/* A machine config file (-c FILE): "KEY = VALUE" lines, '#' comments;
 * each setting names the file and its line.  The settings point into
 * *text, which the caller frees with them. */
int tgt_config_read(const char *path, tgt_setting **out, size_t *n, char **text, diag *d);

INFSIM_END_DECLS

#endif
