/* SPDX-License-Identifier: MIT */
/*
 * exec.c: running and stepping a stream under infsdb, and `check`.
 *
 * The machine runs one micro-op at a time (emu_stepi) for stepi, and
 * whenever a watchpoint, a cycle breakpoint or a recording must look
 * between micro-ops; otherwise whole commands at full speed
 * (emu_run_cmd).  Both give the same bits (doc/MACHINE.md, "One
 * mechanism, two speeds").
 * After each finished command the reference model applies that command,
 * so `check` can compare at any point.
 */
#include "config.h"
#include "move.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbg.h"
#include "report.h"

volatile sig_atomic_t dbg_interrupted;

void dbg_session_stop(dbg_session *s)
{
	dbg_record_stop(s);
	emu_machine_free(s->em);
	emu_ref_free(s->ref);
	s->em = NULL;
	s->ref = NULL;
	s->ref_pc = 0;
	s->ref_stale = false;
	s->ref_err[0] = '\0';
	dbg_history_reset(s, NULL);
}

void dbg_session_free(dbg_session *s)
{
	dbg_session_stop(s);
	dbg_logging_stop(s);
	dbg_bp_free_all(s);
	dbg_display_free_all(s);
	dbg_vars_free(s);
	dbg_user_free(s);
	dbg_tgt_free(s);
	dbg_loads_free(s);
	dbg_valid_free(s);
	emu_program_free(&s->prog);
	dbg_tdfg_free(s);
	free(s->safe_path);
	free(s->log_path);
	free(s->ckpts);
	s->safe_path = s->log_path = NULL;
	s->ckpts = NULL;
}

static void push_bound(dbg_session *s)
{
	if (s->nbounds == s->capbounds) {
		size_t cap = s->capbounds ? s->capbounds * 2 : 64;
		uint64_t *grown = realloc(s->bounds, cap * sizeof *grown);
		if (!grown)
			return; /* reverse-step then stops at an earlier command */
		s->bounds = grown;
		s->capbounds = cap;
	}
	s->bounds[s->nbounds++] = s->since;
	dbg_rsnap_note(s); /* between commands: a snapshot, an interval apart */
}

void dbg_history_reset(dbg_session *s, dbg_snapshot *base)
{
	s->history_gen++; /* its checkpoints are gone with it (ckpts.c) */
	dbg_snapshot_free(&s->base);
	dbg_rsnap_clear(s);
	s->base = base ? *base : (dbg_snapshot){ NULL, 0, NULL, 0 };
	s->since = 0;
	s->nbounds = 0;
	if (!s->em) {
		free(s->bounds);
		s->bounds = NULL;
		s->capbounds = 0;
	} else if (s->em->upc == 0) {
		push_bound(s);
	}
}

int dbg_need_machine(dbg_session *s)
{
	if (s->em)
		return 0;
	dbg_error(s, "The program is not being run.");
	return -1;
}

uint64_t dbg_cycles(const dbg_session *s)
{
	if (s->ops)
		return dbg_tgt_cycles(s);
	if (!s->em)
		return 0;
	/* em->cur holds the current command's cost once it has started; it
	 * is folded into the total when the command ends */
	return s->em->st.total.cycles + (s->em->upc ? s->em->cur.cycles : 0);
}

int dbg_new_machine(dbg_session *s)
{
	diag d;
	diag_clear(&d);
	emu_machine *em = emu_machine_new(&s->prog, &d);
	emu_ref *ref = NULL;
	if (em && emu_init_buffers(em, &d) == 0)
		ref = emu_ref_new(&s->prog, &d);
	if (!ref || emu_ref_init_buffers(ref) < 0) {
		dbg_error(s, "%s", d.set ? d.msg : "out of memory for the reference model");
		emu_ref_free(ref);
		emu_machine_free(em);
		return -1;
	}
	dbg_loads_start(s, em, ref);
	emu_machine_free(s->em);
	emu_ref_free(s->ref);
	s->em = em;
	s->ref = ref;
	s->ref_pc = 0;
	s->ref_stale = false;
	s->ref_err[0] = '\0';
	s->hz_seen = 0;
	dbg_bp_reset_watch(s);
	return 0;
}

/* A fresh machine with a new history. */
static int fresh_machine(dbg_session *s)
{
	if (!s->loaded) {
		dbg_error(s, "No program loaded.");
		return -1;
	}
	dbg_session_stop(s);
	if (dbg_new_machine(s) < 0)
		return -1;
	dbg_history_reset(s, NULL);
	return 0;
}

/* ---- the position ---- */

static const char *const gate_names[] = { "E", "E&T", "E&~T" };

void dbg_format_uop(const sram_uop *u, char *buf, size_t size)
{
	size_t n = 0;
	n += (size_t)snprintf(buf + n, size - n, "%s", u->wfn ? sram_fn_name(u->wfn) : "");
	if (u->lfn)
		n += (size_t)snprintf(buf + n, size - n, "%s%s", u->wfn ? "+" : "",
				      sram_fn_name(u->lfn));
	if (!u->wfn && !u->lfn)
		n += (size_t)snprintf(buf + n, size - n, "NOP");
	/* A many-wordline set lists its rows like the three of a plain uop. */
	for (unsigned k = 0, i = 0; u->set && i < 64 && n < size; i++)
		if ((u->set >> i) & 1)
			n += (size_t)snprintf(buf + n, size - n, "%s%u", k++ ? "," : " act wl ",
					      (unsigned)u->act[0] + i);
	for (unsigned k = 0; !u->set && k < u->nact && n < size; k++)
		n += (size_t)snprintf(buf + n, size - n, "%s%u", k ? "," : " act wl ",
				      (unsigned)u->act[k]);
	if (u->dst != SRAM_NO_ROW && n < size)
		n += (size_t)snprintf(buf + n, size - n, " -> wl %u", (unsigned)u->dst);
	if (n < size)
		n += (size_t)snprintf(buf + n, size - n, ", gate %s",
				      gate_names[u->gate < 3 ? u->gate : 0]);
	if (u->cpre != SRAM_CPRE_KEEP && n < size)
		snprintf(buf + n, size - n, ", C:=%d", u->cpre == SRAM_CPRE_1);
}

static void print_cmd_line(dbg_session *s, size_t i)
{
	const emu_cmd *c = &s->prog.cmds[i];
	char text[512];
	emu_format_cmd(&s->prog, c, text, sizeof text);
	if (c->line)
		printf("command %zu at %s:%d: %s\n", i, s->prog.path, c->line, text);
	else
		printf("command %zu: %s\n", i, text);
}

/* A data-dependent command under latency=optimised runs one trace per
 * bank (duality-cache §3.1.2: each bank's controller decides on its own
 * bitlines); em->up is the longest, the one the position shows. */
void dbg_trace_note(const dbg_session *s, char *buf, size_t size)
{
	const emu_machine *em = s->em;
	buf[0] = '\0';
	if (!em || !em->dd || em->upc == 0)
		return;
	unsigned best = 0, banks = 0;
	size_t longest = 0;
	for (unsigned b = 0; b < em->m->nbanks; b++) {
		if (!em->bank_on[b])
			continue;
		banks++;
		if (banks == 1 || em->trace[b].n > longest) {
			best = b;
			longest = em->trace[b].n;
		}
	}
	if (banks > 1)
		snprintf(buf, size, ", bank %u's trace, the longest of %u", best, banks);
	else
		snprintf(buf, size, ", bank %u's trace", best);
}

/* The sync that delivers the transfers pending at the position: the
 * first sync at or after command pc, or SIZE_MAX if none follows. */
static size_t next_sync(const dbg_session *s)
{
	for (size_t i = s->em->pc; i < s->prog.ncmds; i++)
		if (s->prog.cmds[i].kind == EMU_CMD_MOVE && s->prog.cmds[i].mv.kind == EMU_MOVE_SYNC)
			return i;
	return SIZE_MAX;
}

/* Inter-bank data in flight (infinity-stream §4.2, "Synchronization"):
 * sent, not yet visible in the destination arrays. */
static void print_pending(dbg_session *s)
{
	const size_t n = emu_mover_pending(s->em->mover);
	if (n == 0)
		return;
	const size_t sync = next_sync(s);
	printf("  (%zu wordline transfer%s between banks in flight, delivered by ", n,
	       n == 1 ? "" : "s");
	if (sync == SIZE_MAX)
		printf("no sync: none follows)\n");
	else
		printf("the sync, command %zu)\n", sync);
}

void dbg_print_position(dbg_session *s)
{
	emu_machine *em = s->em;
	if (!em)
		return;
	if (emu_done(em)) {
		printf("Program finished: %" PRIu64 " command%s, %" PRIu64 " cycle%s.\n",
		       em->st.commands, em->st.commands == 1 ? "" : "s", dbg_cycles(s),
		       dbg_cycles(s) == 1 ? "" : "s");
		return;
	}
	dbg_print_node_position(s); /* a tDFG's node, nothing otherwise */
	print_cmd_line(s, em->pc);
	print_pending(s);
	const emu_cmd *c = &s->prog.cmds[em->pc];
	const char *whole = c->kind == EMU_CMD_MOVE ? emu_move_whole_reason(&c->mv) : NULL;
	if (whole) /* the others step micro-op by micro-op, as compute commands */
		printf("  (%s: one stepi runs it whole)\n", whole);
	if (em->upc > 0) {
		char text[256], note[64];
		dbg_format_uop(&em->up.u[em->upc], text, sizeof text);
		dbg_trace_note(s, note, sizeof note);
		printf("  => micro-op %zu (of 0..%zu%s): %s\n", em->upc, em->up.n - 1, note, text);
	}
}

void dbg_report_stop(dbg_session *s)
{
	s->frame = 0; /* a stop selects the innermost level again, as gdb */
	if (s->stop_silent) { /* the breakpoint's commands begin with silent */
		s->stop_silent = false;
		return;
	}
	dbg_print_position(s);
	dbg_show_displays(s);
}

/* ---- hazards ---- */

bool dbg_show_hazards(dbg_session *s)
{
	const emu_hazards *hz = s->em->hz;
	const size_t n = emu_hazard_count(hz);
	if (s->hz_seen >= n)
		return false;
	for (size_t i = s->hz_seen; i < n; i++) {
		const emu_hazard *h = emu_hazard_get(hz, i);
		/* the warning is infsim run's, which counts commands from 1 */
		printf("\nHazard in command %zu (command %zu as infsim run counts):\n", h->cmd - 1,
		       h->cmd);
		if (h->line > 0)
			printf("%s:%d: ", s->prog.path, h->line);
		else
			printf("%s: ", s->prog.path);
		printf("warning: %s [%s]\n", h->text, emu_hazard_kind_name(h->kind));
	}
	s->hz_seen = n;
	return true;
}

void dbg_hazards_seen(dbg_session *s)
{
	s->hz_seen = s->em ? emu_hazard_count(s->em->hz) : 0;
}

/* ---- the stepping loop ---- */

typedef enum stop_mode { RUN_FREE, RUN_CMDS, RUN_UOPS, RUN_UNTIL } stop_mode;

/* Bring the reference up to the commands the machine finished. */
static void sync_ref(dbg_session *s)
{
	if (s->ref_stale)
		return; /* rebuilt when next compared (dbg_ref_ready) */
	while (s->ref_pc < s->em->pc && !s->ref_err[0]) {
		diag d;
		diag_clear(&d);
		if (dbg_ref_run_cmd(s, s->ref, s->ref_pc, &d) < 0)
			snprintf(s->ref_err, sizeof s->ref_err, "%s", d.msg);
		else
			s->ref_pc++;
	}
}

/* Has the requested motion ended after this micro-op? */
static bool motion_done(dbg_session *s, stop_mode mode, uint64_t *count)
{
	switch (mode) {
	case RUN_UOPS:
		return --*count == 0;
	case RUN_CMDS:
		return s->em->upc == 0 && --*count == 0;
	case RUN_UNTIL:
		return s->em->upc == 0 && s->em->pc == *count;
	default:
		return false;
	}
}

/* After command pc0 of a tDFG: a strm node's stream, at the banks
 * (dbg_strm_after).  The reference runs its own (dbg_ref_run_cmd) as it
 * passes the command.  0, or -1 (reported). */
static int strm_after(dbg_session *s, size_t pc0)
{
	diag d;
	diag_clear(&d);
	if (!s->tdfg || emu_strm_node_at(&s->t, &s->j, pc0) < 0 || s->em->pc != pc0 + 1)
		return 0;
	const long n = dbg_strm_after(s, s->em, pc0, &d);
	if (n == -2) {
		dbg_error(s, "%s", d.msg);
		return -1;
	}
	if (n >= 0)
		printf("strm node '%s': its stream ran at the banks after command %zu\n",
		       s->t.nodes[n].name, pc0);
	return 0;
}

int dbg_step_once(dbg_session *s)
{
	diag d;
	diag_clear(&d);
	const size_t upc = s->em->upc;
	s->step_pc = s->em->pc;
	if (emu_stepi(s->em, &d) < 0) {
		dbg_error(s, "%s", d.msg);
		return -1;
	}
	if (s->em->upc == 0 && strm_after(s, s->step_pc) < 0)
		return -1;
	/* the micro-op just run, for rwatch and awatch: em->up holds the
	 * command's micro-ops until the next command starts */
	s->step_has_uop = s->em->up.n > upc && !s->em->dd;
	if (s->step_has_uop)
		s->step_uop = s->em->up.u[upc];
	s->since++;
	if (s->em->upc == 0)
		push_bound(s);
	sync_ref(s);
	dbg_record_step(s);
	return 0;
}

/* Does the destination of move m (its arrays, shifted by dist for the
 * transfers, every reuse copy for a broadcast) include array a? */
static bool move_writes_array(const emu_move *m, const emu_pattern *src, int64_t a)
{
	const bool transfer = m->kind == EMU_MOVE_INTER || m->kind == EMU_MOVE_BCAST;
	const uint64_t copies = m->kind == EMU_MOVE_BCAST ? m->reuse_count : 1;
	for (uint64_t i = 0; i < emu_pattern_size(src); i++)
		for (uint64_t j = 0; j < copies; j++)
			if (emu_pattern_at(src, i) + (transfer ? m->dist + (int64_t)j * m->reuse_stride : 0) == a)
				return true;
	return false;
}

/* A move writes buffer b when its destination rows meet b's rows in one
 * of b's arrays; a sync delivers whatever is in flight: every buffer. */
static bool move_writes(const dbg_session *s, const emu_move *m, const emu_buffer *b)
{
	if (m->kind == EMU_MOVE_SYNC)
		return true;
	const unsigned first = m->kind == EMU_MOVE_CONST ? m->wl : m->dst_wl;
	const unsigned rows = emu_buffer_rows(b, &s->prog.geom);
	if (first + m->nwl <= b->wl || b->wl + rows <= first)
		return false;
	for (uint64_t i = 0; i < emu_pattern_size(&b->arrays); i++)
		if (move_writes_array(m, &m->arrays, emu_pattern_at(&b->arrays, i)))
			return true;
	return false;
}

bool dbg_cmd_writes(const dbg_session *s, size_t cmd, size_t buf)
{
	const emu_cmd *c = &s->prog.cmds[cmd];
	if (c->kind == EMU_CMD_MOVE)
		return move_writes(s, &c->mv, &s->prog.bufs[buf]);
	return (int)buf == c->buf_d || (int)buf == c->buf_d2;
}

/* `check every command`: after the command that just finished, compare
 * the buffers it wrote.  true to stop (reported). */
static bool diverged(dbg_session *s)
{
	if (!s->check_every || s->em->upc != 0 || s->em->pc == 0 || dbg_ref_ready(s) < 0 ||
	    s->ref_err[0])
		return false;
	size_t i = s->em->pc - 1;
	for (size_t b = 0; b < s->prog.nbufs; b++) {
		emu_mismatch mm;
		if (!dbg_cmd_writes(s, i, b) || emu_ref_compare(s->ref, s->em, &s->prog.bufs[b], &mm))
			continue;
		char text[1024];
		emu_report_mismatch_text(text, sizeof text, &mm);
		printf("\ncheck: command %zu left a wrong element: %s\n", i, text);
		s->mismatch = true;
		dbg_report_stop(s);
		return true;
	}
	return false;
}

/* The rest of the current command (or the next one) at full speed
 * (emu_run_cmd: the same bits as stepping it), counted in the history as
 * the emu_stepi calls it replaces. */
int dbg_run_rest_of_cmd(dbg_session *s)
{
	size_t upc0 = s->em->upc;
	const size_t pc0 = s->em->pc;
	diag d;
	diag_clear(&d);
	if (emu_run_cmd(s->em, &d) < 0) {
		dbg_error(s, "%s", d.msg);
		return -1;
	}
	if (strm_after(s, pc0) < 0)
		return -1;
	/* a command without micro-ops (a transfer, a sync) is one emu_stepi */
	s->since += s->em->up.n > upc0 ? s->em->up.n - upc0 : 1;
	push_bound(s);
	sync_ref(s);
	return 0;
}

/* Can the motion go a whole command at a time?  Not for stepi, nor
 * while something must be looked at after every micro-op. */
static bool whole_commands(const dbg_session *s, stop_mode mode)
{
	return mode != RUN_UOPS && !s->rec && !dbg_bp_need_uops(s);
}

/* One step (a micro-op, or the rest of a command) and what it may stop
 * on: 1 to stop (reported), 0 to go on, -1 on an error. */
static int one_step(dbg_session *s, stop_mode mode, uint64_t *count)
{
	uint64_t before = dbg_cycles(s);
	if ((whole_commands(s, mode) ? dbg_run_rest_of_cmd(s) : dbg_step_once(s)) < 0)
		return -1;
	bool err = false;
	dbg_bp *bp = dbg_bp_hit(s, s->em->upc == 0, before, &err);
	if (err) {
		dbg_report_stop(s);
		return -1;
	}
	if (bp) {
		dbg_show_hazards(s);
		dbg_bp_report(s, bp);
		dbg_report_stop(s);
		return 1;
	}
	if (dbg_show_hazards(s)) {
		/* a node checked here too: the run resumes past this point */
		if (!dbg_node_diverged(s))
			dbg_report_stop(s);
		return 1;
	}
	if (diverged(s) || dbg_node_diverged(s))
		return 1;
	if (emu_done(s->em) || motion_done(s, mode, count)) {
		dbg_report_stop(s);
		return 1;
	}
	return 0;
}

static int resume(dbg_session *s, stop_mode mode, uint64_t count)
{
	if (emu_done(s->em)) {
		dbg_error(s, "The program is not being run.");
		return -1;
	}
	dbg_interrupted = 0;
	for (;;) {
		if (dbg_interrupted) {
			dbg_interrupted = 0;
			printf("\nProgram stopped by Ctrl-C.\n");
			dbg_report_stop(s);
			return 0;
		}
		int rc = one_step(s, mode, &count);
		if (rc)
			return rc < 0 ? -1 : 0;
	}
}

/* ---- commands ---- */

static int no_args(dbg_session *s, const char *name, char *args)
{
	if (!*dbg_trim(args))
		return 0;
	dbg_error(s, "\"%s\" takes no arguments.", name);
	return -1;
}

int dbg_cmd_start(dbg_session *s, char *args)
{
	if (no_args(s, "start", args) < 0 || fresh_machine(s) < 0)
		return -1;
	dbg_report_stop(s);
	return 0;
}

int dbg_cmd_run(dbg_session *s, char *args)
{
	if (no_args(s, "run", args) < 0 || fresh_machine(s) < 0)
		return -1;
	if (s->prog.ncmds == 0) {
		dbg_report_stop(s);
		return 0;
	}
	bool err = false;
	dbg_bp *bp = dbg_bp_hit(s, true, UINT64_MAX, &err);
	if (err)
		return -1;
	if (bp) {
		dbg_bp_report(s, bp);
		dbg_report_stop(s);
		return 0;
	}
	return resume(s, RUN_FREE, 0);
}

int dbg_cmd_continue(dbg_session *s, char *args)
{
	if (no_args(s, "continue", args) < 0 || dbg_need_machine(s) < 0)
		return -1;
	return resume(s, RUN_FREE, 0);
}

static int count_arg(dbg_session *s, char *args, uint64_t *n)
{
	args = dbg_trim(args);
	*n = 1;
	if (!*args)
		return 0;
	if (dbg_parse_u64(args, n) && *n > 0)
		return 0;
	dbg_error(s, "Invalid count \"%s\": expected a positive integer.", args);
	return -1;
}

int dbg_cmd_step(dbg_session *s, char *args)
{
	uint64_t n;
	if (count_arg(s, args, &n) < 0 || dbg_need_machine(s) < 0)
		return -1;
	return resume(s, RUN_CMDS, n);
}

int dbg_cmd_stepi(dbg_session *s, char *args)
{
	uint64_t n;
	if (count_arg(s, args, &n) < 0 || dbg_need_machine(s) < 0)
		return -1;
	return resume(s, RUN_UOPS, n);
}

int dbg_run_to(dbg_session *s, size_t cmd)
{
	return resume(s, RUN_UNTIL, cmd);
}

/* Run to the location in args (until's and advance's). */
static int run_to_location(dbg_session *s, const char *what, const char *args)
{
	dbg_location loc;
	if (dbg_parse_location(s, what, args, &loc) < 0 || dbg_need_machine(s) < 0)
		return -1;
	if (emu_done(s->em)) {
		dbg_error(s, "%s: the program has finished; nothing is ahead (run starts it again).",
			  what);
		return -1;
	}
	if (loc.cmd == s->em->pc && s->em->upc == 0) {
		dbg_error(s, "%s: the machine is already before command %zu.", what, loc.cmd);
		return -1;
	}
	if (loc.cmd <= s->em->pc) {
		dbg_error(s, "%s: command %zu is behind the position (%s command %zu): the machine "
			  "only runs forward (reverse-step, or run to start again).", what, loc.cmd,
			  s->em->upc ? "in" : "before", s->em->pc);
		return -1;
	}
	return resume(s, RUN_UNTIL, loc.cmd);
}

int dbg_cmd_until(dbg_session *s, char *args)
{
	args = dbg_trim(args);
	if (*args)
		return run_to_location(s, "until", args);
	/* Without a location, as gdb's until without an argument: on to the
	 * next command, the rest of this one run. */
	if (dbg_need_machine(s) < 0)
		return -1;
	if (emu_done(s->em)) {
		dbg_error(s, "until: the program has ended; nothing is ahead.");
		return -1;
	}
	return resume(s, RUN_UNTIL, s->em->pc + 1);
}

int dbg_cmd_advance(dbg_session *s, char *args)
{
	args = dbg_trim(args);
	if (!*args) {
		dbg_error(s, "Argument required (a location: *N, N, :LINE or a node; see \"help "
			  "until\").");
		return -1;
	}
	return run_to_location(s, "advance", args);
}

int dbg_cmd_kill(dbg_session *s, char *args)
{
	if (no_args(s, "kill", args) < 0 || dbg_need_machine(s) < 0)
		return -1;
	dbg_session_stop(s);
	printf("[program killed]\n");
	return 0;
}

/* ---- check ---- */

static bool skipped_now(const dbg_session *s, size_t b)
{
	if (s->em->upc == 0 || emu_done(s->em))
		return false;
	return dbg_cmd_writes(s, s->em->pc, b);
}

static int check_every(dbg_session *s, char *args)
{
	char *save = NULL, *what = strtok_r(args, " \t", &save);
	bool off = what && strcmp(what, "off") == 0;
	if ((what && !off && strcmp(what, "command") != 0) || strtok_r(NULL, " \t", &save)) {
		dbg_error(s, "check every: expected \"command\" or \"off\".");
		return -1;
	}
	s->check_every = !off;
	printf(off ? "Checking after every command is off.\n"
		   : "Checking the buffers each command writes after every command.\n");
	return 0;
}

int dbg_cmd_check(dbg_session *s, char *args)
{
	args = dbg_trim(args);
	if (strncmp(args, "every", 5) == 0 && (!args[5] || args[5] == ' ' || args[5] == '\t'))
		return check_every(s, args + 5);
	if (no_args(s, "check", args) < 0 || dbg_need_machine(s) < 0 || dbg_ref_ready(s) < 0)
		return -1;
	if (s->ref_err[0]) {
		dbg_error(s, "check: the reference model stopped: %s", s->ref_err);
		return -1;
	}
	size_t compared = 0;
	for (size_t b = 0; b < s->prog.nbufs; b++) {
		if (skipped_now(s, b)) {
			printf("check: %s is not compared: command %zu is at micro-op %zu of %zu.\n",
			       s->prog.bufs[b].name, s->em->pc, s->em->upc, s->em->up.n);
			continue;
		}
		emu_mismatch mm;
		if (!emu_ref_compare(s->ref, s->em, &s->prog.bufs[b], &mm)) {
			char text[1024];
			emu_report_mismatch_text(text, sizeof text, &mm);
			printf("check: after %zu command%s: %s\n", s->ref_pc,
			       s->ref_pc == 1 ? "" : "s", text);
			s->mismatch = true;
			return 0;
		}
		compared++;
	}
	printf("check: %zu buffer%s match%s the reference after %zu command%s.\n",
	       compared, compared == 1 ? "" : "s", compared == 1 ? "es" : "",
	       s->ref_pc, s->ref_pc == 1 ? "" : "s");
	return 0;
}
