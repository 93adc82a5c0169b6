/* SPDX-License-Identifier: MIT */
/*
 * target.c: infsdb's target mode, running: a program of any system but
 * the in-cache machine's streams (Active-Routing, near-stream computing,
 * VIMA, SIMT), driven through its tgt_ops (emu/target/target.h) alone.
 *
 * The session's own machinery serves it unchanged: the breakpoint list
 * (a target breakpoint is DBG_BP_TARGET, its tgt_bp from break_parse;
 * conditions, ignore counts, enable, delete, watchpoints and their
 * reports are breaks.c's), the displays, the value history, user
 * commands, settings and logging.  What is the target's: the motions
 * over its units (ops->step of the finest, units[0], one at a time, so
 * that every breakpoint is asked before each and every watchpoint after
 * each), the position (ops->where), and the snapshots (ops->save) that
 * reverse execution and checkpoints restore.
 *
 * The position of the history is the count of finest units done
 * (ops->count(t, 0)).  As the program runs, a snapshot is kept every
 * `set reverse interval` finest units (DEFAULT_EVERY), within `set
 * reverse budget` bytes (snap_bytes); a reverse motion restores the last
 * snapshot at or before its target and replays the rest, less than one
 * interval.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbg.h"
#include "target_mode.h"

enum { DEFAULT_EVERY = 256 };
#define DEFAULT_BUDGET (256u << 20)

/* ---- values ---- */

dbg_value dbg_tgt_value(tgt_type type, uint64_t bits)
{
	const unsigned w = type.width ? type.width : 64;
	const uint64_t mask = w >= 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1;
	bits &= mask;
	static const uint8_t fmt[] = { [TGT_F16] = ISA_FMT_F16, [TGT_BF16] = ISA_FMT_BF16,
				       [TGT_F32] = ISA_FMT_F32, [TGT_FIXED] = ISA_FMT_FIX };
	switch (type.kind) {
	case TGT_INT: {
		const bool neg = type.is_signed && w < 64 && ((bits >> (w - 1)) & 1);
		return (dbg_value){ .v = (int64_t)(neg ? bits | ~mask : bits), .width = w,
				    .is_signed = type.is_signed, .fmt = ISA_FMT_INT };
	}
	case TGT_F64: {
		double d;
		memcpy(&d, &bits, sizeof d);
		return dbg_value_real(d);
	}
	default: {
		const double f = type.kind == TGT_FIXED ? isa_fix_to_double(w, bits)
							 : isa_fp_to_double(fmt[type.kind], bits);
		return (dbg_value){ .v = (int64_t)bits, .f = f, .is_float = true, .width = w,
				    .is_signed = true, .fmt = fmt[type.kind] };
	}
	}
}

uint64_t dbg_tgt_cycles(const dbg_session *s)
{
	tgt_sym sym;
	if (!s->tg)
		return 0;
	if (s->ops->lookup(s->tg, "cycles", &sym) && !sym.is_array)
		return s->ops->read(s->tg, &sym, 0);
	return s->ops->count(s->tg, 0);
}

/* ---- opening ---- */

static void snaps_clear(dbg_tgt_mode *tm, const tgt_ops *ops)
{
	for (size_t i = 0; i < tm->nsnaps; i++)
		ops->snap_free(tm->snaps[i].snap);
	tm->nsnaps = 0;
	tm->bytes = 0;
}

int dbg_tgt_init(dbg_session *s, const tgt_ops *ops, const dbg_tgt_args *args)
{
	dbg_tgt_mode *tm = calloc(1, sizeof *tm);
	if (!tm)
		return -1;
	tm->args = *args;
	s->ops = ops;
	s->tm = tm;
	return 0;
}

void dbg_tgt_free(dbg_session *s)
{
	dbg_tgt_mode *tm = s->tm;
	if (!tm)
		return;
	snaps_clear(tm, s->ops);
	free(tm->snaps);
	for (size_t i = 0; i < tm->nckpts; i++)
		s->ops->snap_free(tm->ckpts[i].snap);
	free(tm->ckpts);
	if (s->tg)
		s->ops->close(s->tg);
	s->tg = NULL;
	free(tm);
	s->tm = NULL;
}

static void warn(void *ctx, const char *msg)
{
	(void)ctx;
	fflush(stdout);
	fprintf(stderr, "%s\n", msg);
}

/* -l's files into the program just opened.  0, or -1 with d set. */
static int apply_loads(dbg_session *s, diag *d)
{
	const dbg_tgt_args *a = &s->tm->args;
	for (size_t i = 0; i < a->nl; i++) {
		const long k = tgt_array_find(s->ops, s->tg, a->lnames[i]);
		if (k < 0) {
			diag_file(d, a->load.path, "-l %s=%s: the program has no array '%s'",
				  a->lnames[i], a->lpaths[i], a->lnames[i]);
			return -1;
		}
		tgt_array arr;
		s->ops->array(s->tg, (size_t)k, &arr);
		uint64_t *v = malloc((arr.length ? arr.length : 1) * sizeof *v);
		if (!v) {
			diag_file(d, a->lpaths[i], "out of memory");
			return -1;
		}
		int rc = tgt_elements_read(a->lpaths[i], &arr, v, d) < 0 ||
			 s->ops->array_set(s->tg, (size_t)k, 0, arr.length, v, d) != TGT_OK ? -1 : 0;
		free(v);
		if (rc < 0)
			return -1;
	}
	return 0;
}

int dbg_tgt_open(dbg_session *s, tgt_status *st, diag *d)
{
	dbg_tgt_mode *tm = s->tm;
	/* the snapshots first: a target's may point into its program (an
	 * Active-Routing session's hosts); a new run ends the checkpoints */
	snaps_clear(tm, s->ops);
	for (size_t i = 0; i < tm->nckpts; i++)
		s->ops->snap_free(tm->ckpts[i].snap);
	tm->nckpts = 0;
	if (s->tg)
		s->ops->close(s->tg);
	s->tg = NULL;
	s->t_running = false;
	tgt_load a = tm->args.load;
	a.stepping = true;
	a.out = NULL;
	a.warn = warn;
	a.loading = tm->args.lnames;
	a.nloading = tm->args.nl;
	s->tg = s->ops->open(&a, st, d);
	if (!s->tg)
		return -1;
	if (apply_loads(s, d) < 0) {
		*st = TGT_FAILED;
		return -1;
	}
	return 0;
}

/* ---- snapshots of the history ---- */

uint64_t dbg_tgt_pos(const dbg_session *s)
{
	return s->ops->count(s->tg, 0);
}

/* Drop the snapshot whose loss widens the gaps least (never the first,
 * the base, nor the last), until the budget holds. */
static void snaps_thin(dbg_session *s)
{
	dbg_tgt_mode *tm = s->tm;
	const uint64_t budget = s->rsnap_budget ? s->rsnap_budget : DEFAULT_BUDGET;
	while (tm->bytes > budget && tm->nsnaps > 2) {
		size_t best = 1;
		uint64_t gap = UINT64_MAX;
		for (size_t i = 1; i + 1 < tm->nsnaps; i++) {
			const uint64_t g = tm->snaps[i + 1].at - tm->snaps[i - 1].at;
			if (g < gap) {
				gap = g;
				best = i;
			}
		}
		tm->bytes -= tm->snaps[best].bytes;
		s->ops->snap_free(tm->snaps[best].snap);
		memmove(&tm->snaps[best], &tm->snaps[best + 1],
			(tm->nsnaps - best - 1) * sizeof *tm->snaps);
		tm->nsnaps--;
	}
}

/* A snapshot here, now (force), or when the last is an interval back. */
int dbg_tgt_snap_note(dbg_session *s, bool force)
{
	dbg_tgt_mode *tm = s->tm;
	const uint64_t pos = dbg_tgt_pos(s);
	const uint64_t every = s->rsnap_every ? s->rsnap_every : DEFAULT_EVERY;
	if (every == UINT64_MAX && !force)
		return 0;
	if (!force && tm->nsnaps && pos < tm->snaps[tm->nsnaps - 1].at + every)
		return 0;
	if (tm->nsnaps && tm->snaps[tm->nsnaps - 1].at >= pos)
		return 0;
	if (tm->nsnaps == tm->capsnaps) {
		size_t cap = tm->capsnaps ? 2 * tm->capsnaps : 16;
		dbg_tgt_snap *grown = realloc(tm->snaps, cap * sizeof *grown);
		if (!grown)
			return -1;
		tm->snaps = grown;
		tm->capsnaps = cap;
	}
	diag d;
	diag_clear(&d);
	tgt_snap *snap = s->ops->save(s->tg, &d);
	if (!snap) {
		dbg_error(s, "%s", d.set ? d.msg : "reverse: the target cannot save its state");
		return -1;
	}
	dbg_tgt_snap *r = &tm->snaps[tm->nsnaps++];
	r->at = pos;
	r->snap = snap;
	r->bytes = s->ops->snap_bytes(snap);
	for (unsigned u = 0; u < s->ops->nunits && u < TGT_UNITS_MAX; u++)
		r->counts[u] = s->ops->count(s->tg, u);
	tm->bytes += r->bytes;
	snaps_thin(s);
	return 0;
}

/* The history starts again here: the base of reverse execution. */
int dbg_tgt_history_reset(dbg_session *s)
{
	snaps_clear(s->tm, s->ops);
	return dbg_tgt_snap_note(s, true);
}

/* ---- the position ---- */

void dbg_tgt_print_position(dbg_session *s)
{
	tgt_loc loc;
	const tgt_ops *ops = s->ops;
	if (ops->ended(s->tg) || !ops->where(s->tg, 0, &loc)) {
		printf("The program is at its end.\n");
		return;
	}
	printf("%s %" PRIu64 ": %s", ops->units[0].name, loc.index, loc.what);
	if (loc.file && loc.line)
		printf(" at %s:%u", loc.file, loc.line);
	putchar('\n');
}

void dbg_tgt_report_stop(dbg_session *s)
{
	if (s->stop_silent) { /* the breakpoint's commands begin with silent */
		s->stop_silent = false;
		return;
	}
	dbg_tgt_print_position(s);
	dbg_show_displays(s);
}

const char *dbg_tgt_unit_word(const tgt_ops *ops, unsigned u, uint64_t n)
{
	return n == 1 ? ops->units[u].name : ops->units[u].plural;
}

void dbg_tgt_report_end(dbg_session *s)
{
	const tgt_ops *ops = s->ops;
	const uint64_t n = ops->count(s->tg, 0);
	printf("The program ended after %" PRIu64 " %s", n, dbg_tgt_unit_word(ops, 0, n));
	if (ops->nunits > 1) {
		const uint64_t m = ops->count(s->tg, ops->nunits - 1);
		printf(" (%" PRIu64 " %s)", m, dbg_tgt_unit_word(ops, ops->nunits - 1, m));
	}
	printf(", cycle %" PRIu64 ".\n", dbg_tgt_cycles(s));
	dbg_show_displays(s);
}

int dbg_tgt_need_running(dbg_session *s)
{
	if (s->t_running)
		return 0;
	dbg_error(s, "The program is not being run.");
	return -1;
}

/* ---- motions ---- */

/* Run finest units until stop(s, ctx) is true after one, the end, a
 * breakpoint or watchpoint, Ctrl-C or an error; then report where.
 * from_start: the program has not run a unit yet, and a breakpoint
 * before the first stops it there. */
int dbg_tgt_go(dbg_session *s, bool (*stop)(dbg_session *, void *), void *ctx, bool from_start)
{
	const tgt_ops *ops = s->ops;
	dbg_interrupted = 0;
	bool err = false;
	if (from_start) {
		dbg_bp *bp = dbg_bp_hit(s, true, UINT64_MAX, &err);
		if (err)
			return -1;
		if (bp) {
			dbg_bp_report(s, bp);
			dbg_tgt_report_stop(s);
			return 0;
		}
	}
	for (;;) {
		if (ops->ended(s->tg)) {
			dbg_tgt_report_end(s);
			return 0;
		}
		if (dbg_interrupted) {
			dbg_interrupted = 0;
			printf("\nProgram received signal SIGINT, Interrupt.\n");
			dbg_tgt_report_stop(s);
			return 0;
		}
		const uint64_t prev = dbg_tgt_cycles(s);
		diag d;
		diag_clear(&d);
		if (ops->step(s->tg, 0, &d) != TGT_OK) {
			dbg_error(s, "%s", d.set ? d.msg : "the program failed");
			return -1;
		}
		if (dbg_tgt_snap_note(s, false) < 0)
			return -1;
		dbg_bp *bp = dbg_bp_hit(s, true, prev, &err);
		if (err)
			return -1;
		if (bp) {
			dbg_bp_report(s, bp);
			if (ops->ended(s->tg))
				dbg_tgt_report_end(s);
			else
				dbg_tgt_report_stop(s);
			return 0;
		}
		if (stop && stop(s, ctx)) {
			if (ops->ended(s->tg))
				dbg_tgt_report_end(s);
			else
				dbg_tgt_report_stop(s);
			return 0;
		}
	}
}

/* A fresh program, stopped before its first unit. */
static int begin(dbg_session *s)
{
	diag d;
	diag_clear(&d);
	tgt_status st;
	if (dbg_tgt_open(s, &st, &d) < 0) {
		dbg_error(s, "%s", d.set ? d.msg : "the program cannot be opened");
		return -1;
	}
	s->t_running = true;
	dbg_bp_reset_watch(s);
	return dbg_tgt_history_reset(s);
}

static int tcmd_run(dbg_session *s, char *args)
{
	(void)args;
	if (begin(s) < 0)
		return -1;
	return dbg_tgt_go(s, NULL, NULL, true);
}

static int tcmd_start(dbg_session *s, char *args)
{
	(void)args;
	if (begin(s) < 0)
		return -1;
	dbg_tgt_report_stop(s);
	return 0;
}

static int tcmd_kill(dbg_session *s, char *args)
{
	(void)args;
	if (dbg_tgt_need_running(s) < 0)
		return -1;
	s->t_running = false;
	snaps_clear(s->tm, s->ops);
	printf("[program %s killed]\n", s->tm->args.load.path);
	return 0;
}

/* N (default 1) of args, for the motions; 0, or -1 with an error. */
static int count_arg(dbg_session *s, const char *cmd, char *args, uint64_t *n)
{
	args = dbg_trim(args);
	*n = 1;
	if (!*args)
		return 0;
	dbg_value v;
	if (dbg_eval(s, args, &v) < 0)
		return -1;
	if (v.is_float || v.v < 0) {
		dbg_error(s, "%s: expected a count of 0 or more, got \"%s\".", cmd, args);
		return -1;
	}
	*n = (uint64_t)v.v;
	return 0;
}

typedef struct count_goal {
	unsigned level;
	uint64_t until;
} count_goal;

static bool reached(dbg_session *s, void *ctx)
{
	const count_goal *g = ctx;
	return s->ops->count(s->tg, g->level) >= g->until;
}

/* The count of a stepping command into *n: -1 (said why), 0 (nothing to
 * do) or 1 (step). */
static int step_count(dbg_session *s, const char *cmd, char *args, uint64_t *n)
{
	if (dbg_tgt_need_running(s) < 0 || count_arg(s, cmd, args, n) < 0)
		return -1;
	if (!*n)
		return 0;
	if (s->ops->ended(s->tg)) {
		dbg_error(s, "The program is not being run: it has ended.");
		return -1;
	}
	return 1;
}

/* N units of level u. */
static int steps(dbg_session *s, const char *cmd, unsigned u, char *args)
{
	uint64_t n;
	int go = step_count(s, cmd, args, &n);
	if (go <= 0)
		return go;
	count_goal g = { u, s->ops->count(s->tg, u) + n };
	return dbg_tgt_go(s, reached, &g, false);
}

static int tcmd_stepi(dbg_session *s, char *args)
{
	return steps(s, "stepi", 0, args);
}

/* A line step (tgt_ops.step_lines): N times, units of level 1 until
 * the line changes, a unit above level 1 ends, or the position has no
 * line. */
typedef struct line_goal {
	uint64_t left;       /* lines still to step */
	uint64_t from;       /* level 1's count at the line's start */
	uint64_t outer;      /* level 2's */
	unsigned line;
	const char *file;
} line_goal;

static void line_start(dbg_session *s, line_goal *g)
{
	tgt_loc loc;
	bool at = s->ops->where(s->tg, 1, &loc);
	g->from = s->ops->count(s->tg, 1);
	g->outer = s->ops->nunits > 2 ? s->ops->count(s->tg, 2) : 0;
	g->line = at ? loc.line : 0;
	g->file = at ? loc.file : NULL;
}

static bool line_done(dbg_session *s, void *ctx)
{
	line_goal *g = ctx;
	if (s->ops->count(s->tg, 1) == g->from)
		return false;
	tgt_loc loc;
	bool at = s->ops->where(s->tg, 1, &loc);
	bool moved = !at || !loc.line || !g->line || loc.line != g->line ||
		     (loc.file != g->file && (!loc.file || !g->file || strcmp(loc.file, g->file))) ||
		     (s->ops->nunits > 2 && s->ops->count(s->tg, 2) != g->outer);
	if (!moved)
		return false;
	if (--g->left == 0)
		return true;
	line_start(s, g);
	return false;
}

/* step and next: level 1, the finest when there is one level (by
 * lines when the target steps lines). */
static int line_steps(dbg_session *s, const char *cmd, char *args)
{
	if (!s->ops->step_lines || s->ops->nunits < 2)
		return steps(s, cmd, s->ops->nunits > 1 ? 1 : 0, args);
	uint64_t n;
	int go = step_count(s, cmd, args, &n);
	if (go <= 0)
		return go;
	line_goal g = { .left = n };
	line_start(s, &g);
	return dbg_tgt_go(s, line_done, &g, false);
}

static int tcmd_step(dbg_session *s, char *args)
{
	return line_steps(s, "step", args);
}

static int tcmd_next(dbg_session *s, char *args)
{
	return line_steps(s, "next", args);
}

/* The level finish ends: the one `frame` selected, else the coarsest
 * above 1; 0 when there is none (the outermost frame). */
unsigned dbg_tgt_finish_level(const dbg_session *s)
{
	if (s->frame > 0 && (unsigned)s->frame - 1 < s->ops->nunits &&
	    s->frame_since == dbg_tgt_pos(s))
		return (unsigned)s->frame - 1;
	return s->ops->nunits > 2 ? s->ops->nunits - 1 : 0;
}

static int tcmd_finish(dbg_session *s, char *args)
{
	(void)args;
	if (dbg_tgt_need_running(s) < 0)
		return -1;
	const unsigned u = dbg_tgt_finish_level(s);
	if (!u) {
		dbg_error(s, "\"finish\" not meaningful in the outermost frame: %s programs have "
			  "no unit around %s.", s->ops->name,
			  s->ops->units[s->ops->nunits > 1 ? 1 : 0].plural);
		return -1;
	}
	tgt_loc loc;
	if (s->ops->where(s->tg, u, &loc))
		printf("Run till exit from %s %" PRIu64 ": %s\n", s->ops->units[u].name, loc.index,
		       loc.what);
	count_goal g = { u, s->ops->count(s->tg, u) + 1 };
	return dbg_tgt_go(s, reached, &g, false);
}

static int tcmd_continue(dbg_session *s, char *args)
{
	uint64_t n;
	if (dbg_tgt_need_running(s) < 0 || count_arg(s, "continue", args, &n) < 0)
		return -1;
	/* continue N: ignore the breakpoint stopped at N-1 more times, as gdb */
	if (n > 1)
		for (size_t i = 0; i < s->nbps; i++)
			if (s->bps[i].kind == DBG_BP_TARGET && s->bps[i].enabled &&
			    s->ops->break_hit(s->tg, &s->bps[i].tbp)) {
				s->bps[i].ignore = n - 1;
				printf("Will ignore next %" PRIu64 " crossings of breakpoint %u.  "
				       "Continuing.\n", n - 1, s->bps[i].num);
				break;
			}
	return dbg_tgt_go(s, NULL, NULL, false);
}

static bool at_location(dbg_session *s, void *ctx)
{
	return s->ops->break_hit(s->tg, ctx);
}

static int to_location(dbg_session *s, const char *cmd, char *args)
{
	if (dbg_tgt_need_running(s) < 0)
		return -1;
	args = dbg_trim(args);
	if (!*args) {
		if (!strcmp(cmd, "until"))
			return tcmd_next(s, args);
		dbg_error(s, "advance: expected a location (%s).", s->ops->break_help);
		return -1;
	}
	tgt_bp bp;
	diag d;
	diag_clear(&d);
	if (s->ops->break_parse(s->tg, args, &bp, &d) != TGT_OK) {
		dbg_error(s, "%s: %s", cmd, d.msg);
		return -1;
	}
	return dbg_tgt_go(s, at_location, &bp, false);
}

static int tcmd_until(dbg_session *s, char *args)
{
	return to_location(s, "until", args);
}

static int tcmd_advance(dbg_session *s, char *args)
{
	return to_location(s, "advance", args);
}

/* ---- breakpoints ---- */

static int set_break(dbg_session *s, char *args, bool temporary)
{
	char *cond = strstr(args, " if ");
	if (cond) {
		*cond = '\0';
		cond = dbg_trim(cond + 4);
	}
	char *spec = dbg_trim(args);
	if (!*spec) {
		dbg_error(s, "break: expected a location: %s.", s->ops->break_help);
		return -1;
	}
	if (cond && dbg_expr_check(s, cond) < 0)
		return -1;
	tgt_bp tbp;
	diag d;
	diag_clear(&d);
	if (s->ops->break_parse(s->tg, spec, &tbp, &d) != TGT_OK) {
		dbg_error(s, "break: %s", d.msg);
		return -1;
	}
	dbg_bp *bp = dbg_bp_new(s, DBG_BP_TARGET, 0);
	if (!bp)
		return -1;
	bp->tbp = tbp;
	bp->temporary = temporary;
	bp->cond = cond ? strdup(cond) : NULL;
	printf("%s %u at %s\n", temporary ? "Temporary breakpoint" : "Breakpoint", bp->num, tbp.what);
	return 0;
}

static int tcmd_break(dbg_session *s, char *args)
{
	return set_break(s, args, false);
}

static int tcmd_tbreak(dbg_session *s, char *args)
{
	return set_break(s, args, true);
}

/* watch EXPR [if COND]: the shared watchpoint (breaks.c tests and
 * reports it after every finest unit). */
static int tcmd_watch(dbg_session *s, char *args)
{
	char *cond = strstr(args, " if ");
	if (cond) {
		*cond = '\0';
		cond = dbg_trim(cond + 4);
	}
	char *expr = dbg_trim(args);
	dbg_value v;
	if (!*expr) {
		dbg_error(s, "watch: expected an expression to watch.");
		return -1;
	}
	if (dbg_tgt_need_running(s) < 0 || dbg_eval(s, expr, &v) < 0 ||
	    (cond && dbg_expr_check(s, cond) < 0))
		return -1;
	return dbg_watch_set(s, expr, cond, v);
}

/* ---- the table ---- */

/* The stream session's handlers and target mode's for the same command;
 * a handler not listed serves both (define, echo, condition, ...). */
static const struct {
	dbg_handler stream, target;
} handlers[] = {
	{ dbg_cmd_run, tcmd_run }, { dbg_cmd_start, tcmd_start },
	{ dbg_cmd_continue, tcmd_continue }, { dbg_cmd_step, tcmd_step },
	{ dbg_cmd_next, tcmd_next }, { dbg_cmd_stepi, tcmd_stepi },
	{ dbg_cmd_finish, tcmd_finish }, { dbg_cmd_until, tcmd_until },
	{ dbg_cmd_advance, tcmd_advance }, { dbg_cmd_kill, tcmd_kill },
	{ dbg_cmd_break, tcmd_break }, { dbg_cmd_tbreak, tcmd_tbreak },
	{ dbg_cmd_watch, tcmd_watch },
	{ dbg_cmd_reverse_stepi, dbg_tcmd_reverse_stepi },
	{ dbg_cmd_reverse_step, dbg_tcmd_reverse_step },
	{ dbg_cmd_reverse_next, dbg_tcmd_reverse_next },
	{ dbg_cmd_reverse_continue, dbg_tcmd_reverse_continue },
	{ dbg_cmd_reverse_finish, dbg_tcmd_reverse_finish },
	{ dbg_cmd_print, dbg_tcmd_print }, { dbg_cmd_x, dbg_tcmd_x },
	{ dbg_cmd_set_var, dbg_tcmd_set_var }, { dbg_cmd_where, dbg_tcmd_where },
	{ dbg_cmd_frame, dbg_tcmd_frame }, { dbg_cmd_up, dbg_tcmd_up },
	{ dbg_cmd_down, dbg_tcmd_down }, { dbg_cmd_list, dbg_tcmd_list },
	{ dbg_cmd_info_stats, dbg_tcmd_info_stats }, { dbg_cmd_info_line, dbg_tcmd_info_line },
	{ dbg_cmd_info_frame, dbg_tcmd_info_frame },
	{ dbg_cmd_info_buffers, dbg_tcmd_info_arrays },
	{ dbg_cmd_info_machine, dbg_tcmd_info_program },
	{ dbg_cmd_check_all, dbg_tcmd_check }, { dbg_cmd_delete, dbg_tcmd_delete },
	{ dbg_cmd_display, dbg_tcmd_display },
	{ dbg_cmd_show_reverse, dbg_tcmd_show_reverse },
	{ dbg_cmd_checkpoint_save, dbg_tcmd_not_file }, { dbg_cmd_checkpoint_load, dbg_tcmd_not_file },
	{ dbg_cmd_restart, dbg_tcmd_restart },
	{ dbg_cmd_info_checkpoints, dbg_tcmd_info_checkpoints },
	{ dbg_cmd_checkpoint, dbg_tcmd_checkpoint },
	/* the in-cache machine's own: SRAM arrays, layouts, micro-ops, VCD */
	{ dbg_cmd_rwatch, dbg_tcmd_stream_only }, { dbg_cmd_awatch, dbg_tcmd_stream_only },
	{ dbg_cmd_dump_array, dbg_tcmd_stream_only }, { dbg_cmd_dump_tile, dbg_tcmd_stream_only },
	{ dbg_cmd_disassemble, dbg_tcmd_stream_only }, { dbg_cmd_info_layout, dbg_tcmd_stream_only },
	{ dbg_cmd_info_registers, dbg_tcmd_stream_only }, { dbg_cmd_info_nodes, dbg_tcmd_stream_only },
	{ dbg_cmd_info_regions, dbg_tcmd_stream_only }, { dbg_cmd_record_vcd, dbg_tcmd_stream_only },
	{ dbg_cmd_record_stop, dbg_tcmd_stream_only }, { dbg_cmd_bisect, dbg_tcmd_stream_only },
	{ dbg_cmd_expect, dbg_tcmd_expect }, { dbg_cmd_tui_element, dbg_tcmd_stream_only },
	{ dbg_cmd_tui_rows, dbg_tcmd_stream_only }, { dbg_cmd_tui_bitline, dbg_tcmd_stream_only },
	{ dbg_cmd_set_checkpoint, dbg_tcmd_stream_only },
};

dbg_handler dbg_tgt_handler(const dbg_command *c)
{
	for (size_t i = 0; i < sizeof handlers / sizeof handlers[0]; i++)
		if (handlers[i].stream == c->fn)
			return handlers[i].target;
	return c->fn;
}

int dbg_tgt_info(dbg_session *s, const char *word, size_t len, const char *args)
{
	const tgt_info *found = NULL;
	size_t nfound = 0;
	for (const tgt_info *i = s->ops->infos; i && i->name; i++) {
		if (strlen(i->name) == len && !strncmp(i->name, word, len)) {
			found = i;
			nfound = 1;
			break;
		}
		if (!strncmp(i->name, word, len)) {
			found = i;
			nfound++;
		}
	}
	if (nfound != 1)
		return 1;
	if (!s->t_running) {
		dbg_error(s, "info %s: the program is not being run.", found->name);
		return -1;
	}
	diag d;
	diag_clear(&d);
	fflush(stdout);
	if (found->show(s->tg, args, stdout, &d) < 0) {
		/* a target's message may name the command already */
		char cmd[TGT_NAME_MAX + 8];
		snprintf(cmd, sizeof cmd, "info %s:", found->name);
		if (d.set && !strncmp(d.msg, cmd, strlen(cmd)))
			dbg_error(s, "%s", d.msg);
		else
			dbg_error(s, "%s %s", cmd, d.set ? d.msg : "failed");
		return -1;
	}
	return 0;
}
