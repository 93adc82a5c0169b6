/* SPDX-License-Identifier: MIT */
/*
 * reverse.c: reverse execution by replay (reverse-stepi, reverse-step,
 * reverse-continue).
 *
 * The machine is deterministic, so the state n micro-ops after the
 * history's base (the start of the run, or the last `set var` or
 * `checkpoint load`) is found again by rebuilding the base and running
 * n micro-ops forward.  Going back therefore gives exactly the bits the
 * machine had when it was there (tests/dbg/reverse.cmds checks it).
 */
#include "config.h"

#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbg.h"
#include "report.h"

/* A replay this long says so first, since it takes a while. */
#define REPLAY_NOTE 100000
/* last_stop_within: a Ctrl-C stopped the search. */
#define STOPPED 2

/* Stand at the history's base, or at the last snapshot at or before
 * target (snaps.c).  0, or -1 with an error. */
static int restore_before(dbg_session *s, uint64_t target)
{
	if (s->em && s->since <= target)
		return 0; /* forward from here is the shortest way */
	const dbg_rsnap *r = s->em ? dbg_rsnap_before(s, target) : NULL;
	if (r)
		return dbg_rsnap_restore(s, r);
	int rc = s->base.w ? dbg_snapshot_restore(s, &s->base, "history")
			   : dbg_new_machine(s);
	if (rc < 0)
		return -1;
	s->since = 0;
	s->nbounds = 0;
	if (s->em->upc == 0 && s->capbounds > 0)
		s->bounds[s->nbounds++] = 0; /* the array only shrinks here */
	return 0;
}

/* Go to step count target: restore the nearest snapshot before it and
 * replay the rest (less than an interval).  0, or -1 with an error. */
static int replay_to(dbg_session *s, uint64_t target)
{
	if (s->rec) {
		/* a waveform's time only goes forward */
		printf("Recording stopped: reverse execution.\n");
		dbg_record_stop(s);
	}
	/* the last command boundary at or before target: whole commands,
	 * at full speed, up to there, then micro-ops */
	uint64_t whole = 0;
	for (size_t i = s->nbounds; i > 0; i--)
		if (s->bounds[i - 1] <= target) {
			whole = s->bounds[i - 1];
			break;
		}
	if (restore_before(s, target) < 0)
		return -1;
	const uint64_t from = s->since;
	bool raised = false;
	if (s->interactive && target - from >= REPLAY_NOTE) {
		printf("Replaying %" PRIu64 " micro-ops (Ctrl-C stops the replay)...\n",
		       target - from);
		fflush(stdout);
	}
	dbg_interrupted = 0;
	while (s->since < target) {
		if (s->replay_interrupt && !raised &&
		    s->replayed + s->since - from >= s->replay_interrupt) {
			raised = true;
			raise(SIGINT);
		}
		if (dbg_interrupted) { /* Ctrl-C: stay where the replay got to */
			dbg_interrupted = 0;
			printf("\nReplay stopped by Ctrl-C, %" PRIu64 " micro-ops short of the "
			       "target: the machine is further back than asked.\n", target - s->since);
			break;
		}
		const bool cmd = s->em->upc == 0 && s->since < whole && !s->rec;
		if ((cmd ? dbg_run_rest_of_cmd(s) : dbg_step_once(s)) < 0)
			return -1;
	}
	s->replayed += s->since - from;
	dbg_hazards_seen(s); /* shown when the machine first went there */
	dbg_bp_reset_watch(s);
	return 0;
}

static int count_arg(dbg_session *s, const char *name, char *args, uint64_t *n)
{
	args = dbg_trim(args);
	*n = 1;
	if (!*args || (dbg_parse_u64(args, n) && *n > 0))
		return 0;
	dbg_error(s, "%s: invalid count \"%s\": expected a positive integer.", name, args);
	return -1;
}

static int can_reverse(dbg_session *s)
{
	if (dbg_need_machine(s) < 0)
		return -1;
	s->replayed = 0;
	if (s->since > 0)
		return 0;
	dbg_error(s, "No more reverse-execution history.");
	return -1;
}

/* Go to target, saying so when the history ran out before n steps. */
static int go_back(dbg_session *s, uint64_t target, bool clamped)
{
	if (replay_to(s, target) < 0)
		return -1;
	if (clamped)
		printf("No more reverse-execution history.\n");
	dbg_report_stop(s);
	return 0;
}

int dbg_cmd_reverse_stepi(dbg_session *s, char *args)
{
	uint64_t n;
	if (count_arg(s, "reverse-stepi", args, &n) < 0 || can_reverse(s) < 0)
		return -1;
	bool clamped = n > s->since;
	return go_back(s, clamped ? 0 : s->since - n, clamped);
}

int dbg_cmd_reverse_step(dbg_session *s, char *args)
{
	uint64_t n;
	if (count_arg(s, "reverse-step", args, &n) < 0 || can_reverse(s) < 0)
		return -1;
	/* the n-th command boundary strictly before the position */
	size_t i = s->nbounds;
	while (i > 0 && s->bounds[i - 1] >= s->since)
		i--;
	bool clamped = n > i;
	uint64_t target = clamped ? 0 : s->bounds[i - n];
	return go_back(s, target, clamped);
}

/* The step count at which the machine stood before command cmd (at or
 * before the position's command), if the history reaches back there.
 * The last command boundary at or before the position is before the
 * position's command; each earlier one is before the command before. */
static bool step_of_command(const dbg_session *s, size_t cmd, uint64_t *at)
{
	size_t i = s->nbounds;
	while (i > 0 && s->bounds[i - 1] > s->since)
		i--;
	const size_t back = s->em->pc - cmd;
	if (i == 0 || cmd > s->em->pc || back > i - 1)
		return false;
	*at = s->bounds[i - 1 - back];
	return true;
}

/* Go back to the start of command cmd, or of the history if it does
 * not reach so far. */
static int back_to_command(dbg_session *s, size_t cmd)
{
	uint64_t at;
	const bool found = step_of_command(s, cmd, &at);
	return go_back(s, found ? at : 0, !found);
}

/* Is the position past the start of command cmd? */
static bool past(const dbg_session *s, size_t cmd)
{
	return s->em->pc > cmd || (s->em->pc == cmd && s->em->upc > 0);
}

int dbg_cmd_reverse_next(dbg_session *s, char *args)
{
	if (!s->tdfg)
		return dbg_cmd_reverse_step(s, args);
	uint64_t n;
	if (count_arg(s, "reverse-next", args, &n) < 0 || can_reverse(s) < 0)
		return -1;
	/* the start of the node the position is in, then of the ones before */
	size_t target = s->em->pc;
	for (uint64_t k = 0; k < n; k++) {
		const long node = dbg_node_of(s, target);
		if (k == 0 && node >= 0 && past(s, s->t.nodes[node].cmd0)) {
			target = s->t.nodes[node].cmd0;
			continue;
		}
		if (target == 0)
			break;
		const long prev = dbg_node_of(s, target - 1);
		target = prev >= 0 ? s->t.nodes[prev].cmd0 : target - 1;
	}
	return back_to_command(s, target);
}

int dbg_cmd_reverse_finish(dbg_session *s, char *args)
{
	if (*dbg_trim(args)) {
		dbg_error(s, "\"reverse-finish\" takes no arguments (select an outer level with \"up\").");
		return -1;
	}
	if (can_reverse(s) < 0)
		return -1;
	if (emu_done(s->em)) {
		dbg_error(s, "\"reverse-finish\" not meaningful: the program has finished "
			  "(reverse-step or reverse-next go back into it).");
		return -1;
	}
	size_t start, end;
	char what[1500];
	if (dbg_frame_span(s, &start, &end, what, sizeof what) == 0) {
		printf("Run back to call of %s\n", what);
		return back_to_command(s, start);
	}
	const long n = dbg_current_node(s);
	size_t target = s->em->pc;
	if (s->em->upc > 0) {
		printf("Run back to the start of command %zu\n", target);
	} else if (n >= 0 && past(s, s->t.nodes[n].cmd0)) {
		target = s->t.nodes[n].cmd0;
		printf("Run back to the start of node '%s' (%s:%d)\n", s->t.nodes[n].name, s->t.path,
		       s->t.nodes[n].line);
	} else if (n >= 0 && past(s, s->t.regions[s->t.nodes[n].region].cmd0)) {
		const emu_tregion *r = &s->t.regions[s->t.nodes[n].region];
		target = r->cmd0;
		printf("Run back to the start of region '%s' (%s:%d)\n", r->name, s->t.path, r->line);
	} else {
		printf("Run back to the start of the history\n");
		return go_back(s, 0, false);
	}
	return back_to_command(s, target);
}

/* The last stop of a breakpoint among the step counts (lo, hi], found
 * by replaying from lo (and at lo itself when it is the base): 1 if
 * found (in *at, the breakpoint's number in *num), 0 if none, -1 on an
 * error, STOPPED on a Ctrl-C. */
static int last_stop_within(dbg_session *s, uint64_t lo, uint64_t hi, uint64_t *at,
			    unsigned *num)
{
	dbg_bp *bp;
	bool err = false, found = false;
	if (replay_to(s, lo) < 0)
		return -1;
	if (s->since != lo)
		return STOPPED; /* replay_to said so */
	if (lo == 0 && (bp = dbg_bp_hit(s, s->em->upc == 0, UINT64_MAX, &err))) {
		found = true;
		*at = 0;
		*num = bp->num;
	}
	dbg_interrupted = 0;
	while (!err && s->since < hi && !dbg_interrupted) {
		uint64_t before = dbg_cycles(s);
		if (s->replay_interrupt && s->replayed == s->replay_interrupt)
			raise(SIGINT);
		if (dbg_step_once(s) < 0)
			return -1;
		s->replayed++;
		if ((bp = dbg_bp_hit(s, s->em->upc == 0, before, &err))) {
			found = true;
			*at = s->since;
			*num = bp->num;
		}
	}
	if (dbg_interrupted) {
		dbg_interrupted = 0;
		printf("\nReplay stopped by Ctrl-C before the last breakpoint stop was found.\n");
		return STOPPED;
	}
	return err ? -1 : found;
}

/* The last step count before now where a breakpoint stops the machine,
 * searched an interval between snapshots at a time, the latest first,
 * so that a stop in the last interval costs one interval's replay: as
 * last_stop_within. */
static int last_stop_before(dbg_session *s, uint64_t now, uint64_t *at, unsigned *num)
{
	if (now == 0)
		return 0;
	uint64_t hi = now - 1;
	for (;;) {
		const dbg_rsnap *r = dbg_rsnap_before(s, hi > 0 ? hi - 1 : 0);
		const uint64_t lo = r && hi > 0 ? r->since : 0;
		const int found = last_stop_within(s, lo, hi, at, num);
		if (found != 0 || lo == 0)
			return found; /* found, an error, Ctrl-C, or the start */
		hi = lo;
	}
}

/* Stand at step count at and report the breakpoint that stops there. */
static int stop_at(dbg_session *s, uint64_t at)
{
	bool err = false;
	dbg_bp *bp;
	if (at == 0) {
		if (replay_to(s, 0) < 0)
			return -1;
		bp = dbg_bp_hit(s, s->em->upc == 0, UINT64_MAX, &err);
	} else {
		if (replay_to(s, at - 1) < 0)
			return -1;
		uint64_t before = dbg_cycles(s);
		if (dbg_step_once(s) < 0)
			return -1;
		bp = dbg_bp_hit(s, s->em->upc == 0, before, &err);
	}
	if (err)
		return -1;
	if (bp)
		dbg_bp_report(s, bp);
	dbg_report_stop(s);
	return 0;
}

int dbg_cmd_reverse_continue(dbg_session *s, char *args)
{
	if (*dbg_trim(args)) {
		dbg_error(s, "\"reverse-continue\" takes no arguments.");
		return -1;
	}
	if (can_reverse(s) < 0)
		return -1;
	uint64_t now = s->since, at = 0;
	unsigned num = 0;
	int found = last_stop_before(s, now, &at, &num);
	if (found < 0 || found == STOPPED) {
		if (s->em) /* a failed restore discards the machine */
			dbg_report_stop(s);
		return found < 0 ? -1 : 0;
	}
	if (found && s->since == at) { /* the search ended on the stop */
		for (size_t i = 0; i < s->nbps; i++)
			if (s->bps[i].num == num) {
				dbg_bp_report(s, &s->bps[i]);
				break;
			}
		dbg_report_stop(s);
		return 0;
	}
	if (found)
		return stop_at(s, at);
	return go_back(s, 0, true);
}

/* ---- bisect ---- */

/* Name the buffers that differ from the reference at the history's base
 * (a `set var` or a checkpoint made them so). */
static void note_base_differences(dbg_session *s, emu_mismatch *first)
{
	for (size_t b = 0; b < s->prog.nbufs; b++) {
		first[b].buf = NULL;
		if (!emu_ref_compare(s->ref, s->em, &s->prog.bufs[b], &first[b]))
			printf("bisect: %s already differs from the reference at the start of the history.\n",
			       s->prog.bufs[b].name);
	}
}

/* After the command that just finished: does a buffer it wrote differ,
 * other than by the first difference it had at the base (a move may
 * write part of a buffer a `set var` changed: that is not its doing)? */
static bool wrote_wrong(dbg_session *s, const emu_mismatch *first, char *text, size_t size)
{
	for (size_t b = 0; b < s->prog.nbufs; b++) {
		emu_mismatch mm;
		if (dbg_cmd_writes(s, s->em->pc - 1, b) &&
		    !emu_ref_compare(s->ref, s->em, &s->prog.bufs[b], &mm) &&
		    !(first[b].buf && first[b].index == mm.index && first[b].actual == mm.actual &&
		      first[b].expected == mm.expected)) {
			emu_report_mismatch_text(text, size, &mm);
			return true;
		}
	}
	return false;
}

/* --tdfg: replay the history up to the position comparing each check
 * point (node marker) with the tDFG as the machine passes it; at the
 * first that differs, the validator's bisection (emu/valid/bisect.c)
 * names the first wrong element and the command that wrote it, and the
 * machine goes back to before that command. */
static int bisect_tdfg(dbg_session *s)
{
	const uint64_t now = s->since;
	/* the history step at which the machine was before each command */
	uint64_t *before = calloc(s->prog.ncmds + 1, sizeof *before);
	if (!before) {
		dbg_error(s, "out of memory");
		return -1;
	}
	if (replay_to(s, 0) < 0) {
		free(before);
		return -1;
	}
	emu_valid_seek(s->valid, s->em->pc);
	const size_t from = emu_valid_compared(s->valid);
	for (;;) {
		if (s->em->upc == 0 && s->em->pc <= s->prog.ncmds)
			before[s->em->pc] = s->since;
		if (s->em->upc == 0) {
			emu_valid_report rep;
			diag d;
			diag_clear(&d);
			const int rc = emu_valid_at(s->valid, s->em, &rep, &d);
			if (rc < 0) {
				dbg_error(s, "%s", d.msg);
				free(before);
				return -1;
			}
			if (rc == 0) {
				const emu_tnode *x = &s->vt.nodes[rep.node];
				/* the report counts commands from 1, the debugger from 0 */
				const size_t guilty = rep.guilty ? rep.guilty - 1 : s->em->pc;
				if (rep.guilty)
					printf("bisect: command %zu (line %d; the validator's note counts from "
					       "1: its command %zu) is the first to write a wrong bit of node "
					       "'%s' (%s:%d), as the tDFG means it:\n", guilty,
					       s->prog.cmds[guilty].line, rep.guilty, x->name, s->vt.path,
					       x->line);
				else
					printf("bisect: node '%s' (%s:%d) is the first to differ from what the "
					       "tDFG means, and no command wrote the wrong bits:\n", x->name,
					       s->vt.path, x->line);
				fputs(rep.text, stdout);
				s->mismatch = true;
				const uint64_t back = before[guilty < s->em->pc ? guilty : s->em->pc];
				free(before);
				return go_back(s, back, false);
			}
		}
		if (s->since >= now)
			break;
		if (dbg_step_once(s) < 0) {
			free(before);
			return -1;
		}
	}
	free(before);
	const size_t n = emu_valid_compared(s->valid) - from;
	printf("bisect: the %zu check point%s of %s up to here hold%s what the tDFG means.\n", n,
	       n == 1 ? "" : "s", s->vt.path, n == 1 ? "s" : "");
	return go_back(s, now, false);
}

int dbg_cmd_bisect(dbg_session *s, char *args)
{
	if (*dbg_trim(args)) {
		dbg_error(s, "\"bisect\" takes no arguments.");
		return -1;
	}
	if (dbg_need_machine(s) < 0)
		return -1;
	if (s->valid)
		return bisect_tdfg(s);
	uint64_t now = s->since, start = 0;
	char text[1024];
	emu_mismatch *first = calloc(s->prog.nbufs + 1, sizeof *first);
	if (!first) {
		dbg_error(s, "out of memory");
		return -1;
	}
	if (replay_to(s, 0) < 0 || dbg_ref_ready(s) < 0) {
		free(first);
		return -1;
	}
	note_base_differences(s, first);
	while (s->since < now && !s->ref_err[0]) {
		if (s->em->upc == 0)
			start = s->since;
		if (dbg_step_once(s) < 0) {
			free(first);
			return -1;
		}
		if (s->em->upc == 0 && s->em->pc > 0 && wrote_wrong(s, first, text, sizeof text)) {
			size_t i = s->em->pc - 1;
			const long node = dbg_node_of(s, i);
			char where[EMU_NAME_MAX + 300] = "";
			if (node >= 0) /* on a tDFG: the node the command computes */
				dbg_node_label(s, (size_t)node, where, sizeof where);
			printf("bisect: command %zu (line %d%s%s) is the first to write a wrong element: %s\n",
			       i, s->prog.cmds[i].line, node >= 0 ? " of the lowered stream, in " : "",
			       where, text);
			s->mismatch = true;
			free(first);
			return go_back(s, start, false);
		}
	}
	free(first);
	printf("bisect: no command up to here wrote a wrong element%s.\n",
	       s->ref_err[0] ? " (the reference model stopped)" : "");
	return go_back(s, now, false);
}

int dbg_history_goto(dbg_session *s, uint64_t target)
{
	return replay_to(s, target);
}
