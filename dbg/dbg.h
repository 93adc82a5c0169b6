/* SPDX-License-Identifier: MIT */
/*
 * dbg.h: infsdb, the gdb-style debugger of command streams (prefix dbg_).
 *
 * One session (dbg_session) holds the loaded stream, the machine that
 * runs it (emu_machine, stepped with emu_stepi where a micro-op can be
 * stopped on, emu_run_cmd elsewhere), a scalar reference model kept in
 * lockstep at command granularity (emu_ref), breakpoints, watchpoints,
 * displays and the history that reverse execution replays.  Every
 * value shown is read from the transposed bits through the array's
 * ordinary port (emu_elem_get, sram_get_bit, sram_get_latch).
 *
 * Commands come from one table (dbg_commands, commands.c): name, aliases,
 * class, handler, one-line and full help.  Prefix matching, `help` and
 * tab completion all read that table, as in gdb.
 *
 * A tDFG program (.tdfg, emu/tdfg/tdfg.h) is lowered by the JIT when it is
 * loaded, and the lowered stream is what runs; the session keeps the
 * graph, which command belongs to which node, and the reference at node
 * granularity (emu_tref), so that `next`, `finish`, node breakpoints,
 * the position, `list`, `info registers` and `check` speak of nodes and
 * tDFG source lines (nodes.c).
 */
#ifndef INFSIM_DBG_H
#define INFSIM_DBG_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "machine.h"
#include "move.h"
#include "program.h"
#include "check.h"
#include "refmodel.h"
#include "tdfg.h"
#include "validate.h"
#include "snap.h"
#include "target.h"

/* Exit status of a batch session: 1 if a command failed, 3 if `check`
 * found a difference (as `infsim run --check`), 2 on a usage error. */
enum { DBG_EXIT_FAILED = 1, DBG_EXIT_USAGE = 2, DBG_EXIT_MISMATCH = 3 };

/* A value of an expression: an integer (v, with width bits that matter,
 * signed or not) or a double (f, is_float).  An element read from a
 * float or .qN buffer is a double whose value is the exact value of its
 * format, and keeps its bits: fmt is then the buffer's format and v its
 * raw bits (width of them); every other value has fmt ISA_FMT_INT.
 * Arithmetic with a double gives a double, as in C. */
typedef struct dbg_value {
	int64_t v;         /* an integer, or a float element's raw bits */
	double f;          /* the value, when is_float */
	bool is_float;
	unsigned width;    /* bits that matter: the buffer's for an element */
	bool is_signed;
	uint8_t fmt;       /* enum isa_fmt of a float or .qN element, else INT */
} dbg_value;

typedef enum dbg_bp_kind {
	DBG_BP_CMD,    /* before command index */
	DBG_BP_LINE,   /* before the command on a source line */
	DBG_BP_OP,     /* before any command of an opcode */
	DBG_BP_MOVE,   /* before a move of a kind (arg: emu_move_kind, or
			* EMU_MOVE_KINDS for any move) */
	DBG_BP_CYCLE,  /* once the cycle count reaches a value */
	DBG_BP_WATCH,  /* the value of an expression changed */
	DBG_BP_NODE,   /* tDFG: before the first command of node arg */
	DBG_BP_NODE_END, /* tDFG: once the last command of node arg is done */
	DBG_BP_RWATCH, /* a micro-op read element elem of buffer arg */
	DBG_BP_AWATCH, /* a micro-op read or wrote element elem of buffer arg */
	DBG_BP_TARGET, /* target mode: tbp, as the target's break_hit tests it */
	DBG_BP_MARK,   /* --tdfg: before (elem 1: after) a window of node arg's
			* markers (valid.c) */
} dbg_bp_kind;

typedef struct dbg_bp {
	unsigned num;
	dbg_bp_kind kind;
	uint64_t arg;      /* command index, line, opcode or cycle */
	bool enabled, temporary;
	char *cond;        /* NULL, or the text of the condition */
	char *expr;        /* watch: the watched expression */
	dbg_value old;     /* watch: the value last seen */
	bool old_valid;
	uint64_t hits;
	uint64_t ignore;   /* `ignore N COUNT`: stops still to pass */
	uint64_t elem;     /* rwatch, awatch: the element */
	tgt_bp tbp;        /* DBG_BP_TARGET */
	/* `enable once`: disabled, `enable count C`: disabled after C stops
	 * (0: never); `enable delete` makes it temporary */
	bool once;
	uint64_t count;
	char **cmds;       /* `commands N`: the lines run when it stops */
	size_t ncmds;
} dbg_bp;

typedef struct dbg_display {
	unsigned num;
	char fmt;          /* 0, or a format letter of print's (x's when count) */
	uint64_t count;    /* 0: an expression; N: `x/N` of the address in expr */
	char *expr;
	bool disabled;     /* `disable display N` */
	char unit;         /* an examine display's unit letter b h w g, or 0 */
} dbg_display;

/* What `x` remembers (inspect.c), as gdb does: the last format and unit
 * letter, and the address that follows the last unit shown, where Enter
 * and a bare `x` go on.  kind 0: nothing examined yet. */
typedef struct dbg_examine {
	char fmt, unit;
	int kind;          /* 1: an array's bits, 2: a buffer's, 3: commands */
	unsigned array;
	size_t buf;
	uint64_t at;       /* a bit of the array or buffer, or a command */
} dbg_examine;

/* A machine state in memory: the words of a checkpoint's body (state.c
 * describes them): the SRAM, the statistics and the position, a half-run
 * data-dependent command's start rows and the bits of the data in flight
 * between banks, not the hazard tracker nor which transfers are pending
 * (emu/machine/hazard.h, emu/machine/move.h): a state is rebuilt by replaying to its
 * position, then installing the words.  parent NULL: replay the stream's
 * commands from a fresh start (w NULL: the fresh start itself; else a
 * checkpoint file: whole commands, then into the command from its start
 * rows); else replay `steps` micro-ops (emu_stepi) from the parent's
 * state (a `set var` base). */
typedef struct dbg_snapshot {
	uint64_t *w;
	size_t n;
	struct dbg_snapshot *parent;
	uint64_t steps;
} dbg_snapshot;
/* Free a snapshot's words and its parents. */
void dbg_snapshot_free(dbg_snapshot *snap);

/* A machine snapshot of reverse execution (snaps.c): the machine as it
 * was `since` micro-ops after the history's base, between commands. */
typedef struct dbg_rsnap {
	uint64_t since;
	emu_snap *snap;
} dbg_rsnap;

/* One value of the value history (print's): the value and the text of
 * the expression that gave it. */
typedef struct dbg_hist_value {
	dbg_value v;
	char *expr;
} dbg_hist_value;

/* A convenience variable, `set $name = EXPR`. */
typedef struct dbg_conv {
	char *name;
	dbg_value v;
} dbg_conv;

/* A user-defined command (`define NAME` ... `end`), its lines and the
 * text `document NAME` gave it. */
typedef struct dbg_user_cmd {
	char *name;
	char **lines;
	size_t nlines;
	char *doc;
} dbg_user_cmd;

/* A buffer's data at the start of every run (loads.c): bufs[buf] of
 * the program, its elements. */
typedef struct dbg_load {
	size_t buf;
	uint64_t *v;
} dbg_load;

/* -l NAME=PATH, as the command line gave it. */
typedef struct dbg_load_arg {
	char name[EMU_NAME_MAX];
	const char *path;
} dbg_load_arg;

struct dbg_tgt_mode;

/* A stream's checkpoint in the session (ckpts.c): a position of the
 * execution history it was taken in. */
typedef struct dbg_ckpt {
	unsigned num;
	uint64_t since;    /* micro-ops since the history's base */
	uint64_t gen;      /* the history's: another one ended it */
	char what[240];
} dbg_ckpt;

typedef struct dbg_session {
	/* Target mode (target.c): a program of a system other than the
	 * in-cache machine's streams (emu/target/target.h); ops NULL on a
	 * stream or a tDFG.  tg is the program, open from the start (break
	 * reads it), run from `run` or `start` on. */
	const tgt_ops *ops;
	tgt *tg;
	bool t_running;    /* tg is being run (`run`, `start`), not only read */
	struct dbg_tgt_mode *tm;
	emu_program prog;
	bool loaded;
	dbg_load *loads;   /* -l files and a tDFG's load= arrays (loads.c) */
	size_t nloads;
	emu_machine *em;   /* NULL when the program is not being run */
	emu_ref *ref;      /* the reference, in step with em */
	size_t ref_pc;     /* commands the reference has applied */
	bool ref_stale;    /* the machine went back past ref_pc (dbg_ref_ready) */
	char ref_err[1024]; /* set when the reference cannot go on */
	bool batch, interactive;
	bool no_shell;     /* `shell` and `!` refused: the session runs
			    * input nobody vetted (tests/fuzz/fuzz_dbg.h) */
	bool failed;       /* a command failed (batch exit status) */
	bool mismatch;     /* a check found a difference */
	bool quit;
	dbg_bp *bps;
	size_t nbps;
	unsigned next_bp;
	dbg_display *disps;
	size_t ndisps;
	unsigned next_disp;
	int source_depth;
	/* Execution history, for reverse execution by replay: the machine
	 * is rebuilt from the base (the start of the run, or the state that
	 * the last `set var` or `checkpoint load` made) and stepped forward
	 * `since` times.  bounds: the step counts (since the base) at which
	 * the machine was before a command, in increasing order. */
	dbg_snapshot base;  /* w NULL: the base is a fresh start */
	uint64_t since;
	uint64_t *bounds;
	size_t nbounds, capbounds;
	/* Snapshots taken as the machine runs (snaps.c), in increasing
	 * order of since, so that going back restores the nearest one and
	 * replays less than one interval: rsnap_every micro-ops apart at
	 * least (`set reverse interval`), thinned to rsnap_budget bytes
	 * (`set reverse budget`); 0 in either is the default. */
	dbg_rsnap *rsnaps;
	size_t nrsnaps, caprsnaps;
	emu_snap_pool rpool;
	uint64_t rsnap_every;
	uint64_t rsnap_budget;     /* bytes; UINT64_MAX: unlimited */
	uint64_t replayed;         /* micro-ops the last reverse motion replayed */
	uint64_t replay_interrupt; /* INFSDB_REPLAY_INTERRUPT: raise SIGINT after so many */
	struct dbg_record *rec; /* `record vcd` in progress, or NULL */
	bool check_every;  /* `check every command`: compare after each command */
	size_t hz_seen;    /* hazard reports (em->hz) already shown */
	/* A tDFG program: prog is its lowered stream (moved out of j.prog;
	 * j.node_of[i] is the node of command i), tref the node-level
	 * reference (inputs from init=, like the lowered stream's tensors). */
	bool tdfg;
	emu_tdfg t;
	emu_jit j;
	emu_tref *tref;
	emu_strm_stats strm; /* its strm nodes' streams (dbg_strm_after) */
	bool check_every_node; /* `check every node`: compare each finished node */
	/* --tdfg FILE: the tDFG the stream is validated against (valid.c) */
	emu_tdfg vt;
	emu_valid *valid;
	bool repeating;    /* the command runs again because Enter was typed */
	bool ckpt_zstd;    /* `set checkpoint compression zstd` */
	/* `list`: what Enter shows next (a tDFG's source line, a stream's
	 * command index; 0: nothing listed), and the position (since, pc,
	 * upc) the listing was made at: a motion since ends the run. */
	int list_next;
	uint64_t list_since;
	size_t list_pc, list_upc;
	/* The micro-op the last dbg_step_once ran (rwatch, awatch): the
	 * command it belongs to, and the micro-op itself when it has one. */
	size_t step_pc;
	sram_uop step_uop;
	bool step_has_uop;
	/* gdb's habits (vars.c, settings.c, user.c, frames.c) */
	dbg_hist_value *values;  /* the value history: $1 is values[0] */
	size_t nvalues;
	dbg_conv *convs;
	size_t nconvs;
	dbg_user_cmd *users;
	size_t nusers;
	dbg_user_cmd *defining;  /* `define` or `document` collecting lines */
	bool documenting;        /* the lines are defining->doc, not its body */
	int user_depth;          /* user commands running inside each other */
	unsigned listsize;       /* `set listsize`: lines `list` shows (10) */
	bool confirm, pagination; /* gdb's settings, shown by `show` */
	/* `set auto-load safe-path`: the folders (':'-separated, malloc'd;
	 * NULL: none) whose ./.infsdbinit infsdb reads without -ix */
	char *safe_path;
	int frame;               /* `frame N`: level+1 of the selected level; 0 none */
	uint64_t frame_since;    /* ... selected at this history step */
	bool expect_failed;      /* an `expect` found a difference */
	char *log_path;          /* `set logging file` (default infsdb.txt) */
	bool log_overwrite;      /* `set logging overwrite on` */
	/* `checkpoint` on a stream (ckpts.c) */
	dbg_ckpt *ckpts;
	size_t nckpts;
	unsigned next_ckpt;
	uint64_t history_gen;    /* dbg_history_reset counts the histories */
	/* user.c: a block being read (commands, if, while, define), the
	 * breakpoint commands due after the stop, and the position in the
	 * file `source` or -x reads (for messages) */
	struct dbg_block *block;
	struct dbg_block *due;
	bool stop_silent;        /* the stop's breakpoint commands say `silent` */
	unsigned last_bp;        /* the last breakpoint made (`commands` alone) */
	const char *source_path;
	unsigned source_line;
	int exit_code;           /* `quit N` (exit_set) */
	bool exit_set;
	unsigned width, height;  /* `set width`, `set height` (0: unlimited) */
	uint32_t print_on;       /* `set print NAME on|off`, a bit each (settings.c) */
	unsigned print_num[2];   /* `set print elements|repeats N` (UINT_MAX: unlimited) */
	dbg_examine x;           /* `x`'s defaults and next address (inspect.c) */
} dbg_session;

/* Set by SIGINT; running commands poll it between micro-ops. */
extern volatile sig_atomic_t dbg_interrupted;

/* ---- messages (console.c) ---- */
/* One error line on stderr, gdb style; marks the command as failed. */
void dbg_error(dbg_session *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- commands (commands.c) ---- */
typedef int (*dbg_handler)(dbg_session *s, char *args);
typedef struct dbg_command {
	const char *name;
	const char *aliases;     /* space-separated exact aliases, or NULL */
	const char *cls;         /* running, breakpoints, data, status, support */
	dbg_handler fn;
	bool repeat;             /* Enter repeats it */
	const char *brief;       /* one line */
	const char *help;        /* full help: usage and description */
	const struct dbg_command *sub; /* subcommand table, NULL-terminated */
} dbg_command;

extern const dbg_command dbg_commands[];
/* The top-level command whose name or alias is exactly name[0..len). */
const dbg_command *dbg_command_exact(const char *name, size_t len);
/* Execute one command line (comments and blank lines do nothing).
 * Returns 0, or -1 if the command failed.  *repeat tells whether Enter
 * may repeat it. */
int dbg_execute(dbg_session *s, const char *line, bool *repeat);
/* Read and execute every line of path. */
int dbg_source(dbg_session *s, const char *path);
/* readline completion over the table and buffer names. */
void dbg_completion_init(dbg_session *s);

/* ---- running (exec.c) ---- */
int dbg_cmd_run(dbg_session *s, char *args);
int dbg_cmd_start(dbg_session *s, char *args);
int dbg_cmd_continue(dbg_session *s, char *args);
int dbg_cmd_step(dbg_session *s, char *args);
int dbg_cmd_stepi(dbg_session *s, char *args);
int dbg_cmd_until(dbg_session *s, char *args);
int dbg_cmd_advance(dbg_session *s, char *args);
int dbg_cmd_kill(dbg_session *s, char *args);
int dbg_cmd_check(dbg_session *s, char *args);
void dbg_session_stop(dbg_session *s);
/* Everything a session holds (its machine, breakpoints, displays,
 * variables, user commands, loads, settings' strings), as at its end. */
void dbg_session_free(dbg_session *s);
/* Run until the machine is before command cmd (> the position; ncmds:
 * the end), stopping on breakpoints and watchpoints as `continue`. */
int dbg_run_to(dbg_session *s, size_t cmd);
/* A fresh machine and reference (init= applied); the history is kept. */
int dbg_new_machine(dbg_session *s);
/* Forget the history and start it at the machine's current state, with
 * base as its base (NULL: a fresh start).  Takes base's words. */
void dbg_history_reset(dbg_session *s, dbg_snapshot *base);
/* One micro-op (emu_stepi), recorded in the history and followed by
 * the reference.  0, or -1 with an error reported. */
int dbg_step_once(dbg_session *s);
/* The rest of the current command (or the next one) at full speed,
 * counted in the history as the micro-ops it ran.  0, or -1. */
int dbg_run_rest_of_cmd(dbg_session *s);
/* The position and the displays, after a stop. */
void dbg_report_stop(dbg_session *s);
/* 0 if the program is being run, else an error. */
int dbg_need_machine(dbg_session *s);
/* Cycles run so far, the current command's included. */
uint64_t dbg_cycles(const dbg_session *s);
/* Print the position: command, line, text and the next micro-op. */
void dbg_print_position(dbg_session *s);
/* ", bank B's trace[, the longest of N]" while a data-dependent command
 * runs per-bank traces (latency=optimised), else "". */
void dbg_trace_note(const dbg_session *s, char *buf, size_t size);
/* Show the hazard reports the machine made since the last call (a
 * compute command or a move that reads unsynced or unwritten bits, ...;
 * emu/machine/hazard.h).  true if there were any: the motion stops there. */
bool dbg_show_hazards(dbg_session *s);
/* Count the machine's reports as shown (a replay or a restore made
 * them again). */
void dbg_hazards_seen(dbg_session *s);
/* Does command cmd write (some cell of) buffer buf?  A compute command
 * its d (and d2); a move the buffers its destination rows meet; a sync
 * every buffer (it delivers whatever is in flight). */
bool dbg_cmd_writes(const dbg_session *s, size_t cmd, size_t buf);
/* One micro-op as text. */
void dbg_format_uop(const sram_uop *u, char *buf, size_t size);

/* ---- breakpoints (breaks.c) ---- */
int dbg_cmd_break(dbg_session *s, char *args);
int dbg_cmd_tbreak(dbg_session *s, char *args);
int dbg_cmd_watch(dbg_session *s, char *args);
/* A watchpoint on expr (its value now v), with its condition or NULL:
 * reported as gdb does; 0, or -1 with an error reported. */
int dbg_watch_set(dbg_session *s, const char *expr, const char *cond, dbg_value v);
int dbg_cmd_rwatch(dbg_session *s, char *args);
int dbg_cmd_awatch(dbg_session *s, char *args);
int dbg_cmd_condition(dbg_session *s, char *args);
int dbg_cmd_ignore(dbg_session *s, char *args);
int dbg_cmd_delete(dbg_session *s, char *args);
int dbg_cmd_enable(dbg_session *s, char *args);
int dbg_cmd_disable(dbg_session *s, char *args);
int dbg_cmd_info_breakpoints(dbg_session *s, char *args);
/* After a step: the breakpoint that stops the machine here, or NULL.
 * at_boundary: the machine is before a command; prev_cycles: the cycle
 * count before the step.  Sets *err on an error evaluating a condition. */
dbg_bp *dbg_bp_hit(dbg_session *s, bool at_boundary, uint64_t prev_cycles,
		   bool *err);
/* Is there an enabled watchpoint or cycle breakpoint, which must be
 * looked at after every micro-op? */
bool dbg_bp_need_uops(const dbg_session *s);
/* A new breakpoint of kind, numbered next, enabled; NULL out of memory
 * (reported). */
dbg_bp *dbg_bp_new(dbg_session *s, dbg_bp_kind kind, uint64_t arg);
/* `rbreak REGEX`: a breakpoint on every matching mnemonic, tDFG node or
 * (target mode) source line (breaks.c). */
int dbg_cmd_rbreak(dbg_session *s, char *args);
/* Report a stop at bp (and delete it when temporary). */
void dbg_bp_report(dbg_session *s, dbg_bp *bp);
/* The breakpoint numbered num, or NULL. */
dbg_bp *dbg_bp_find(dbg_session *s, uint64_t num);
/* Forget the values watchpoints saw (a new run). */
void dbg_bp_reset_watch(dbg_session *s);
void dbg_bp_free_all(dbg_session *s);

/* ---- values (value.c) ---- */
/* Element i of b, read from its transposed bits (emu_elem_get). */
dbg_value dbg_value_of_element(const dbg_session *s, const emu_buffer *b, uint64_t i);
/* An element of b whose bits (read from the array) are raw. */
dbg_value dbg_value_of_bits(const emu_buffer *b, uint64_t raw);
dbg_value dbg_value_int(int64_t v);
dbg_value dbg_value_real(double f);
/* v as a double (C's conversion of an integer). */
double dbg_value_double(const dbg_value *v);
/* Is v not zero (a NaN is not zero)? */
bool dbg_value_true(const dbg_value *v);
/* Do a and b hold the same value, bit for bit (a watchpoint's test:
 * -0 differs from +0, a NaN equals the same NaN)? */
bool dbg_value_same(const dbg_value *a, const dbg_value *b);
/* Format a value: fmt 0 (by its type), 'x' 't' 'd' 'u' (its bits: an
 * element's, a double's 64), 'f' (a float; an integer's bits read as a
 * float of its width, 16, 32 or 64 bits).  0, or -1 with a message in
 * buf when the format does not apply. */
int dbg_format_value(const dbg_value *v, char fmt, char *buf, size_t size);
/* dbg_format_value, and for /a the buffer whose wordline the value is
 * (" <C+2>"; array -1: in any array), as gdb names an address's symbol. */
int dbg_format_text(const dbg_session *s, const dbg_value *v, char fmt, int array, char *buf,
		    size_t size);
/* The bits to write into an element of b for v: rounded to a float
 * format with the machine's fp mode (fp_flags: ISA_FL_IEEE or 0),
 * rounded to .qN, or truncated toward zero to an integer.  0, or -1 with
 * a message in err when v does not fit. */
int dbg_value_to_element(const dbg_value *v, const emu_buffer *b, unsigned fp_flags,
			 uint64_t *bits, char *err, size_t errsize);

/* ---- expressions (expr.c) ---- */
/* Evaluate text.  0, or -1 with an error already reported. */
int dbg_eval(dbg_session *s, const char *text, dbg_value *out);
/* The same without reporting: the message goes to err. */
int dbg_eval_quiet(dbg_session *s, const char *text, dbg_value *out,
		   char *err, size_t errsize);
/* Check the names and syntax of text without reading any element (a
 * breakpoint's condition, a display set before the program runs).  0,
 * or -1 with an error reported. */
int dbg_expr_check(dbg_session *s, const char *text);
/* An element named by text, "BUF[INDEX]" or "TENSOR[I][J]" (indexes
 * outermost first, as C): its buffer and its element number.  0, or -1
 * with an error reported. */
int dbg_eval_element(dbg_session *s, const char *text, const emu_buffer **b, uint64_t *i);
const emu_buffer *dbg_find_buffer(const dbg_session *s, const char *name,
				  size_t len);

/* ---- reverse execution (reverse.c) ---- */
int dbg_cmd_reverse_stepi(dbg_session *s, char *args);
/* Move the machine to step count target of the history, by the replay
 * reverse execution uses (forward or back).  0, or -1 with an error. */
int dbg_history_goto(dbg_session *s, uint64_t target);
/* `delete checkpoint N` of a stream (ckpts.c). */
int dbg_delete_checkpoint(dbg_session *s, char *args);
int dbg_cmd_reverse_step(dbg_session *s, char *args);
int dbg_cmd_reverse_continue(dbg_session *s, char *args);
int dbg_cmd_reverse_next(dbg_session *s, char *args);
int dbg_cmd_reverse_finish(dbg_session *s, char *args);
int dbg_cmd_bisect(dbg_session *s, char *args);

/* ---- reverse execution's snapshots (snaps.c) ---- */
/* The defaults of the settings, and the session's start. */
void dbg_rsnap_init(dbg_session *s);
/* Forget every snapshot (a new history). */
void dbg_rsnap_clear(dbg_session *s);
/* The machine stands between commands: take a snapshot if the last one
 * is an interval back, and thin them to the budget. */
void dbg_rsnap_note(dbg_session *s);
/* The last snapshot at or before step count `at`, or NULL. */
const dbg_rsnap *dbg_rsnap_before(const dbg_session *s, uint64_t at);
/* Make the machine the snapshot's and the reference follow: 0, or -1
 * with an error reported (the machine is then gone). */
int dbg_rsnap_restore(dbg_session *s, const dbg_rsnap *r);
/* Bring a reference that a reverse motion left ahead of the machine back
 * to the machine's command (call before comparing).  0, or -1 with an
 * error reported. */
int dbg_ref_ready(dbg_session *s);
int dbg_cmd_set_reverse(dbg_session *s, char *args);
int dbg_cmd_show_reverse(dbg_session *s, char *args);

/* ---- recording (record.c) ---- */
int dbg_cmd_record_vcd(dbg_session *s, char *args);
int dbg_cmd_record_stop(dbg_session *s, char *args);
/* Write the changes of the micro-op just run (nothing if not recording). */
void dbg_record_step(dbg_session *s);
/* Finish the recording and write its file.  0, or -1 with an error. */
int dbg_record_stop(dbg_session *s);

/* ---- state (state.c) ---- */
/* Copy the machine's state out, or install a machine (and a reference
 * replayed to its position) made from one.  what names the source for
 * messages.  0, or -1 with an error reported (the session unchanged). */
int dbg_snapshot_take(dbg_session *s, dbg_snapshot *snap);
int dbg_snapshot_restore(dbg_session *s, const dbg_snapshot *snap, const char *what);
int dbg_cmd_set_var(dbg_session *s, char *args);
/* set history size N|unlimited (main.c, which keeps the console's history) */
int dbg_cmd_set_history(dbg_session *s, char *args);
int dbg_cmd_checkpoint_save(dbg_session *s, char *args);
int dbg_cmd_checkpoint_load(dbg_session *s, char *args);
/* set checkpoint compression zstd|none */
int dbg_cmd_set_checkpoint(dbg_session *s, char *args);

/* ---- checkpoint bodies (ckptfile.c) ---- */
/* XXH3-64 of len bytes. */
uint64_t dbg_ckpt_hash(const void *bytes, size_t len);
/* n words as a file body (little-endian words and their checksum,
 * compressed with zstd when asked) in *out (malloc'd).  0, or -1 with
 * *why. */
int dbg_ckpt_encode(const uint64_t *w, size_t n, bool zstd, unsigned char **out, size_t *len,
		    const char **why);
/* The words of a body (its checksum checked and dropped) in *w
 * (malloc'd), at most limit bytes once decompressed.  0, or -1 with
 * *why. */
int dbg_ckpt_decode(const unsigned char *bytes, size_t len, bool zstd, size_t limit,
		    uint64_t **w, size_t *n, const char **why);

/* ---- inspection (inspect.c) ---- */
int dbg_cmd_print(dbg_session *s, char *args);
int dbg_cmd_x(dbg_session *s, char *args);
int dbg_cmd_dump_array(dbg_session *s, char *args);
int dbg_cmd_display(dbg_session *s, char *args);
int dbg_cmd_undisplay(dbg_session *s, char *args);
/* `enable display [N]...`, `disable display [N]...` */
int dbg_display_enable(dbg_session *s, char *args, bool on);
int dbg_cmd_info_display(dbg_session *s, char *args);
int dbg_cmd_info_machine(dbg_session *s, char *args);
int dbg_cmd_info_stats(dbg_session *s, char *args);
int dbg_cmd_info_buffers(dbg_session *s, char *args);
int dbg_cmd_info_registers(dbg_session *s, char *args);
/* `info source`: the current source file, its lines and kind (inspect.c). */
int dbg_cmd_info_source(dbg_session *s, char *args);
int dbg_cmd_list(dbg_session *s, char *args);
int dbg_cmd_info_layout(dbg_session *s, char *args);
int dbg_cmd_dump_tile(dbg_session *s, char *args);
int dbg_cmd_disassemble(dbg_session *s, char *args);
/* ARRAY: a global number or BANK.WAY.ARRAY.  0, or -1 with an error. */
int dbg_parse_array(dbg_session *s, const char *text, unsigned *array);
/* Show every display (after a stop). */
void dbg_show_displays(dbg_session *s);
void dbg_display_free_all(dbg_session *s);
/* A new display of expr (count 0: an expression; N: an examine display of
 * unit unit), numbered as the next; NULL out of memory, reported. */
dbg_display *dbg_display_add(dbg_session *s, const char *expr, char fmt, uint64_t count,
			     char unit);

/* ---- the console and the TUI (console.c, tui.c) ---- */
/* One line typed at the console: empty repeats the last command when
 * it may be repeated, else it is executed and added to the history. */
void dbg_console_line(dbg_session *s, char *line);
/* Ctrl-C stops a running program (dbg_interrupted), not the session. */
void dbg_console_install_sigint(void);
/* The history's size from INFSDB_HISTSIZE, as gdb's GDBHISTSIZE. */
void dbg_history_size_from_env(void);
/* Read and execute typed lines (the TUI's while it is active) until
 * quit or end of input, with the history kept in ~/.infsdb_history. */
void dbg_console_loop(dbg_session *s);
int dbg_cmd_tui_enable(dbg_session *s, char *args);
int dbg_cmd_tui_disable(dbg_session *s, char *args);
/* `tui element [NAME]`: the buffer or tensor the TUI's element view
 * shows (none: the one the current command writes). */
int dbg_cmd_tui_element(dbg_session *s, char *args);
/* `tui rows A-B|auto`, `tui bitline N|off`, `tui console N|auto`. */
int dbg_cmd_tui_rows(dbg_session *s, char *args);
int dbg_cmd_tui_bitline(dbg_session *s, char *args);
int dbg_cmd_tui_console(dbg_session *s, char *args);
/* `tui view [NAME]`: the target view the TUI's state window draws
 * (tui_target.c). */
int dbg_cmd_tui_view(dbg_session *s, char *args);
/* Put text (what the init files and -x printed before -tui's screen
 * opened) into the TUI console's scrollback. */
void dbg_tui_preload(const char *text, size_t len);
/* Ask for the TUI, which the console loop then enters; when there is no
 * usable terminal, say so and stay in plain text (not an error).
 * Returns 0. */
int dbg_tui_enable(dbg_session *s);
/* Leave the TUI now (nothing if it is not active). */
void dbg_tui_disable(void);
/* Is the TUI active, or asked for? */
bool dbg_tui_active(void);
/* The console while the TUI is active: returns once it was left (`tui
 * disable`, Ctrl-X A) or the session ends. */
void dbg_tui_run(dbg_session *s);
/* Was Ctrl-X A typed at the plain prompt (readline then returned an
 * empty line)?  Clears the request. */
bool dbg_tui_take_toggle(void);
/* Bind Ctrl-X A, Ctrl-X a and Ctrl-X Ctrl-A to toggle the TUI, as gdb. */
void dbg_tui_bind_keys(void);

/* ---- layout, focus, refresh (layout.c) ---- */
/* What a TUI has for gdb's `layout`, `focus` and `refresh`: its layouts
 * (in `layout next` order) and windows, which layout shows which window,
 * and the hooks that change them.  Each hook turns the TUI on (when the
 * terminal can hold it) and returns 0, or -1 with an error reported. */
typedef struct dbg_layout_ops {
	const char *const *layouts;   /* NULL-terminated */
	const char *const *windows;   /* the windows focus names, NULL-terminated */
	int (*layout_now)(void);      /* the current layout's index */
	int (*focus_now)(void);       /* the focused window's index */
	bool (*shown)(int layout, int window);
	int (*set_layout)(dbg_session *s, int layout);
	int (*set_focus)(dbg_session *s, int window);  /* says "Focus set to ..." */
	int (*refresh)(dbg_session *s);
} dbg_layout_ops;
/* The stream and tDFG TUI's (tui.c). */
extern const dbg_layout_ops dbg_tui_layout;
/* Target mode's (tui.c, on tui_target.c's windows): layouts src, state
 * and split; windows src, state and cmd. */
extern const dbg_layout_ops dbg_tui_target_layout;
int dbg_cmd_layout(dbg_session *s, char *args);
int dbg_cmd_focus(dbg_session *s, char *args);
int dbg_cmd_refresh(dbg_session *s, char *args);

/* ---- tDFG programs (nodes.c) ---- */
/* Load a .tdfg (type NULL), or an artifact's .json read with element
 * type `type`: parse it, lower it (emu_tdfg_load, emu_tdfg_json_load),
 * make s->prog its lowered stream and build the node reference.  0, or
 * -1 with d set. */
int dbg_tdfg_load(dbg_session *s, const char *path, const char *type,
		  const emu_geom_override *ov, const emu_tdfg_def *defs, size_t ndefs, diag *d);
void dbg_tdfg_free(dbg_session *s);
/* After em finished command pc0 (em->pc is pc0 + 1, between commands):
 * the stream of the tDFG's strm node whose commands end there runs at
 * the banks (emu/tdfg/strm.c, doc/TDFG.md "strm nodes"), its result
 * into em.  The node, or -1 when none ran; -2 with d set when the
 * stream failed. */
long dbg_strm_after(dbg_session *s, emu_machine *em, size_t pc0, diag *d);
/* The stream's reference runs command pc, then, on a tDFG, the stream
 * of the strm node whose commands end there, from the reference's own
 * values (every path that advances a reference goes through here).
 * 0, or -1 with d set. */
int dbg_ref_run_cmd(dbg_session *s, emu_ref *ref, size_t pc, diag *d);
/* The node of command cmd, or -1 (a plain stream, or no node). */
long dbg_node_of(const dbg_session *s, size_t cmd);
/* The node the machine is in or before, or -1. */
long dbg_current_node(const dbg_session *s);
/* The node named name[0..len), or -1 (a plain stream). */
long dbg_node_find(const dbg_session *s, const char *name, size_t len);
/* The node defined on tDFG source line line, or -1. */
long dbg_node_on_line(const dbg_session *s, uint64_t line);
/* The node name nearest to name (edit distance at most 2), or NULL. */
const char *dbg_node_suggest(const dbg_session *s, const char *name);
/* "node 's1' (stencil.tdfg:14)" */
void dbg_node_label(const dbg_session *s, size_t n, char *buf, size_t size);
/* The position's node line (nothing on a plain stream):
 * "node s1 = add.f32 X, w  (stencil.tdfg:14), command 2 of 3". */
void dbg_print_node_position(dbg_session *s);
/* `check every node`: after a node's last command, compare the node.
 * true to stop (reported). */
bool dbg_node_diverged(dbg_session *s);
/* --tdfg (valid.c): read the tDFG (a .tdfg, or an artifact's .json of
 * element type `type`) and bind it to the loaded stream
 * (its arrays' load= files are read by dbg_loads_read); free it; `check`
 * at the position; `check every node` after each command. */
int dbg_valid_load(dbg_session *s, const char *path, const char *type,
		   const emu_tdfg_def *defs, size_t ndefs, diag *d);
void dbg_valid_free(dbg_session *s);
/* A machine (em) and the stream's reference (ref), either NULL, at the
 * start of a run: --tdfg's arrays' load= data, after init=. */
void dbg_valid_start(const dbg_session *s, emu_machine *em, emu_ref *ref);
/* loads.c: read the -l files (args), then --tdfg's and a tDFG program's
 * load= files (a -l of the array wins), once, after the program is
 * loaded; a machine (em) and the stream's reference (ref), either NULL,
 * start every run from them (dbg_loads_start, after init=); free them. */
int dbg_loads_read(dbg_session *s, const dbg_load_arg *args, size_t nargs, diag *d);
void dbg_loads_start(const dbg_session *s, emu_machine *em, emu_ref *ref);
void dbg_loads_free(dbg_session *s);
int dbg_valid_check(dbg_session *s);
/* --tdfg: the nodes from the stream's markers (valid.c).  Marker k's
 * window, the commands that computed its node, runs from the marker
 * before it to it.  The tDFG node named name[0..len) (-1: none) and in
 * *nmarks how many markers name it; does a window of node begin (end:
 * end) at pc; "node 'dx' (diff.tdfg:9), by its marker at s.ins:17:
 * before command 3"; the end of the window pc is in (the next marker's
 * position, or the end); the node of the window pc is in, its marker in
 * *marker (-1: after the last marker); `info nodes`; `bisect`. */
long dbg_valid_find(const dbg_session *s, const char *name, size_t len, size_t *nmarks);
bool dbg_valid_mark_hit(const dbg_session *s, long node, bool end, size_t pc);
void dbg_valid_mark_label(const dbg_session *s, long node, bool end, char *buf, size_t size);
size_t dbg_valid_window_end(const dbg_session *s, size_t pc);
/* The first command of node's first marker window that starts after pc,
 * else of its first window; SIZE_MAX if no marker names it. */
size_t dbg_valid_node_start(const dbg_session *s, long node, size_t pc);
long dbg_valid_node_at(const dbg_session *s, size_t pc, size_t *marker);
int dbg_valid_info_nodes(dbg_session *s);
bool dbg_valid_diverged(dbg_session *s);
/* `print` of a node's tensor (or element): a one-line note when the
 * node is not computed yet or its wordlines hold a later node's value. */
void dbg_node_print_note(dbg_session *s, const char *expr);
/* Is element flat of b outside the domain of the tDFG node whose tensor
 * b is (the tDFG does not define it there)?  false on a command stream. */
bool dbg_elem_outside(const dbg_session *s, const emu_buffer *b, uint64_t flat);
/* The note saying what the parentheses (a tensor) or the element lying
 * outside (element) mean, naming the node and its domain. */
void dbg_domain_note(const dbg_session *s, const emu_buffer *b, bool element);
/* dbg_eval_element without reporting: 0, or -1 (message in err). */
int dbg_eval_element_quiet(dbg_session *s, const char *text, const emu_buffer **b, uint64_t *i,
			   char *err, size_t errsize);
int dbg_cmd_next(dbg_session *s, char *args);
int dbg_cmd_finish(dbg_session *s, char *args);
/* `check` on either kind of program: the buffers with the stream
 * reference, then on a tDFG the nodes with the tDFG reference. */
int dbg_cmd_check_all(dbg_session *s, char *args);
int dbg_cmd_info_nodes(dbg_session *s, char *args);
int dbg_cmd_info_regions(dbg_session *s, char *args);
/* `info registers` of a tDFG: the current region's wordline allocation. */
int dbg_tdfg_registers(dbg_session *s);
/* `list` of a tDFG's source lines. */
int dbg_tdfg_list(dbg_session *s, char *args);

/* ---- value history and convenience variables (vars.c) ---- */
/* Record a value print shows; returns its number ($N), 0 when out of memory. */
size_t dbg_values_record(dbg_session *s, const dbg_value *v, const char *expr);
/* The convenience variable name[0..len), or NULL if it was never set. */
const dbg_value *dbg_conv_find(const dbg_session *s, const char *name, size_t len);
/* `set $NAME = EXPR` (text starts at '$'). */
int dbg_cmd_set_conv(dbg_session *s, char *args);
int dbg_cmd_show_values(dbg_session *s, char *args);
int dbg_cmd_show_convenience(dbg_session *s, char *args);
void dbg_vars_free(dbg_session *s);

/* ---- settings, show, logging, shell (settings.c) ---- */
int dbg_cmd_set(dbg_session *s, char *args);
int dbg_cmd_set_pagination(dbg_session *s, char *args);
int dbg_cmd_set_confirm(dbg_session *s, char *args);
int dbg_cmd_set_listsize(dbg_session *s, char *args);
int dbg_cmd_set_logging(dbg_session *s, char *args);
int dbg_cmd_set_width(dbg_session *s, char *args);
int dbg_cmd_set_height(dbg_session *s, char *args);
int dbg_cmd_set_print(dbg_session *s, char *args);
int dbg_cmd_show_width(dbg_session *s, char *args);
int dbg_cmd_show_height(dbg_session *s, char *args);
int dbg_cmd_show_print(dbg_session *s, char *args);
/* `set print NAME` (a boolean one) is on; `set print elements` (0:
 * unlimited). */
bool dbg_print_setting(const dbg_session *s, const char *name);
unsigned dbg_print_elements(const dbg_session *s);
/* `set print repeats` (0: unlimited). */
unsigned dbg_print_repeats(const dbg_session *s);
int dbg_cmd_show(dbg_session *s, char *args);
int dbg_cmd_show_pagination(dbg_session *s, char *args);
int dbg_cmd_set_auto_load(dbg_session *s, char *args);
int dbg_cmd_show_auto_load(dbg_session *s, char *args);
int dbg_cmd_add_auto_load_safe_path(dbg_session *s, char *args);
/* Is folder dir (an absolute path) in s's safe path, or under one of
 * its folders ("/" trusts every folder)? */
bool dbg_safe_path_allows(const dbg_session *s, const char *dir);
int dbg_cmd_show_confirm(dbg_session *s, char *args);
int dbg_cmd_show_listsize(dbg_session *s, char *args);
int dbg_cmd_show_logging(dbg_session *s, char *args);
int dbg_cmd_show_history(dbg_session *s, char *args);
int dbg_cmd_show_version(dbg_session *s, char *args);
int dbg_cmd_shell(dbg_session *s, char *args);
/* Stop logging (the end of the session). */
void dbg_logging_stop(dbg_session *s);
/* Write a command line to the log (nothing when not logging). */
void dbg_logging_command(const char *line);
/* The history size `set history size` set (-1: unlimited; main.c). */
long dbg_history_size(void);

/* ---- output and printf (printf.c) ---- */
int dbg_cmd_output(dbg_session *s, char *args);
int dbg_cmd_printf(dbg_session *s, char *args);

/* ---- user commands (user.c) ---- */
int dbg_cmd_define(dbg_session *s, char *args);
int dbg_cmd_document(dbg_session *s, char *args);
int dbg_cmd_show_user(dbg_session *s, char *args);
/* A line read while `define` or `document` collects: true if it was
 * taken (so it must not be executed). */
bool dbg_user_collect(dbg_session *s, const char *line);
/* Run the user command named word[0..len) with args: 1 if there is
 * none of that name, else 0 or -1 as a command. */
int dbg_user_run(dbg_session *s, const char *word, size_t len, const char *args);
/* The user command named exactly name[0..len), or NULL. */
const dbg_user_cmd *dbg_user_find(const dbg_session *s, const char *name, size_t len);
void dbg_user_free(dbg_session *s);
/* `if`, `while`, `commands [N]`; else, end, loop_break, loop_continue
 * and silent outside their block (an error). */
int dbg_cmd_if(dbg_session *s, char *args);
int dbg_cmd_while(dbg_session *s, char *args);
int dbg_cmd_commands(dbg_session *s, char *args);
int dbg_cmd_block_word(dbg_session *s, char *args);
/* The input (a file `source` or -x read, at source_depth; or the
 * console) ended: a block still being read is an error, named with the
 * line it began on (a define keeps the lines read, as gdb at Ctrl-D). */
void dbg_user_input_end(dbg_session *s, int source_depth);
void dbg_block_free_all(dbg_session *s);
/* The breakpoint stopped the machine: its commands run once the
 * command that moved it has ended (dbg_bp_run_due, from dbg_execute). */
void dbg_bp_due(dbg_session *s, const dbg_bp *bp);
void dbg_bp_run_due(dbg_session *s);

/* ---- locations (location.c) ---- */
/* A place in the program, as break, until, advance, list and info line
 * read it (doc/DEBUGGER.md, "Locations"):
 *   *N            command index N, on any program
 *   N             a command stream: command index N; a tDFG: line N
 *   :LINE, FILE:LINE   a source line: of the stream (the command on it),
 *                 or of the tDFG (the node defined on it)
 *   NAME, node NAME    a tDFG node
 * cmd: the first command there; node: the tDFG node, or -1. */
typedef struct dbg_location {
	size_t cmd;
	long node;
} dbg_location;
/* Parse text (what names the command for messages).  0, or -1 with an
 * error reported. */
int dbg_parse_location(dbg_session *s, const char *what, const char *text, dbg_location *loc);

/* ---- where, frame, info line (frames.c) ---- */
int dbg_cmd_where(dbg_session *s, char *args);
int dbg_cmd_frame(dbg_session *s, char *args);
int dbg_cmd_up(dbg_session *s, char *args);
int dbg_cmd_down(dbg_session *s, char *args);
/* The node of the selected frame (-1: none selected, or not a node's);
 * *region the selected region's index, or -1. */
long dbg_frame_node(const dbg_session *s, int *region);
int dbg_cmd_info_line(dbg_session *s, char *args);
int dbg_cmd_info_frame(dbg_session *s, char *args);
/* The level `frame`/`up`/`down` selected: the commands [start, end) it
 * spans (finish runs to end, reverse-finish back to start) and its
 * text.  0, or -1 if none is selected. */
int dbg_frame_span(const dbg_session *s, size_t *start, size_t *end, char *what, size_t size);

/* ---- expect (expect.c) ---- */
int dbg_cmd_expect(dbg_session *s, char *args);

/* ---- small parsers (commands.c) ---- */
/* Parse an unsigned decimal (or 0x hex) number taking the whole of text. */
bool dbg_parse_u64(const char *text, uint64_t *out);
/* Trim spaces at both ends in place. */
char *dbg_trim(char *text);


/* ---- target mode (target.c, target_data.c): every system but the
 * in-cache machine's streams, through emu/target/target.h ---- */
/* What open is given (main.c fills it from the options), and -l's
 * arrays: every `run` and `start` opens the program afresh with them. */
typedef struct dbg_tgt_args {
	tgt_load load;
	const char *const *lnames;   /* -l ARRAY=FILE, in order */
	const char *const *lpaths;
	size_t nl;
} dbg_tgt_args;
/* Enter target mode for ops with args (kept, not copied).  0, or -1
 * out of memory. */
int dbg_tgt_init(dbg_session *s, const tgt_ops *ops, const dbg_tgt_args *args);
void dbg_tgt_free(dbg_session *s);
/* Open the program afresh (for stepping) and fill -l's arrays: 0, or -1
 * with *st and d. */
int dbg_tgt_open(dbg_session *s, tgt_status *st, diag *d);
/* The handler target mode runs for command c (its own, or c's when the
 * command is the same on every program). */
dbg_handler dbg_tgt_handler(const dbg_command *c);
/* `info WHAT` of the target's own (info flows): 1 if WHAT is none of
 * them, else 0 or -1 as a command. */
int dbg_tgt_info(dbg_session *s, const char *word, size_t len, const char *args);
/* A target value's raw bits as a value of the expressions. */
dbg_value dbg_tgt_value(tgt_type type, uint64_t bits);
/* The target's "cycles" (its count of finest units when it has none). */
uint64_t dbg_tgt_cycles(const dbg_session *s);
/* Print the position and the displays (after a stop). */
void dbg_tgt_report_stop(dbg_session *s);
/* checkpoint, restart N, info checkpoints: target mode's in-memory
 * checkpoints (on a stream, which checkpoints to files, an error). */
int dbg_cmd_checkpoint(dbg_session *s, char *args);
int dbg_cmd_restart(dbg_session *s, char *args);
int dbg_cmd_info_checkpoints(dbg_session *s, char *args);

#endif
