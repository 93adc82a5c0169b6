/* SPDX-License-Identifier: MIT */
/*
 * ckpts.c: `checkpoint`, `restart N`, `info checkpoints` and `delete
 * checkpoint N` on a stream or a tDFG, as gdb's: a checkpoint is a
 * position of the execution history (a count of micro-ops since its
 * base), and restarting it rebuilds the machine there by the same replay
 * reverse execution uses (reverse.c), so it is the exact state.  What
 * ends the history (run, set var, checkpoint load) ends its checkpoints.
 * On a target's program the same words keep the target's snapshots
 * (target_data.c); a stream's state also goes to files (`checkpoint
 * save FILE`, state.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbg.h"

/* Where the machine is, for the list. */
static void position_text(dbg_session *s, char *buf, size_t size)
{
	const emu_program *p = &s->prog;
	const size_t pc = s->em->pc;
	if (pc >= p->ncmds) {
		snprintf(buf, size, "the end, after %zu command%s", p->ncmds, p->ncmds == 1 ? "" : "s");
		return;
	}
	char text[160];
	emu_format_cmd(p, &p->cmds[pc], text, sizeof text);
	snprintf(buf, size, "command %zu, micro-op %zu (line %d): %s", pc, s->em->upc,
		 p->cmds[pc].line, text);
}

int dbg_cmd_checkpoint(dbg_session *s, char *args)
{
	if (*dbg_trim(args)) {
		dbg_error(s, "checkpoint: expected save FILE, load FILE, or nothing (a checkpoint "
			  "in the session), got \"%s\".", dbg_trim(args));
		return -1;
	}
	if (dbg_need_machine(s) < 0)
		return -1;
	dbg_ckpt *grown = realloc(s->ckpts, (s->nckpts + 1) * sizeof *grown);
	if (!grown) {
		dbg_error(s, "checkpoint: out of memory");
		return -1;
	}
	s->ckpts = grown;
	dbg_ckpt *c = &s->ckpts[s->nckpts++];
	c->num = ++s->next_ckpt;
	c->since = s->since;
	c->gen = s->history_gen;
	position_text(s, c->what, sizeof c->what);
	printf("Checkpoint %u at %s\n", c->num, c->what);
	return 0;
}

static dbg_ckpt *find(dbg_session *s, const char *cmd, char *args)
{
	uint64_t n;
	args = dbg_trim(args);
	if (!dbg_parse_u64(args, &n)) {
		dbg_error(s, "%s: expected a checkpoint number (info checkpoints lists them), got "
			  "\"%s\".", cmd, args);
		return NULL;
	}
	for (size_t i = 0; i < s->nckpts; i++)
		if (s->ckpts[i].num == n)
			return &s->ckpts[i];
	dbg_error(s, "%s: no checkpoint number %" PRIu64 ".", cmd, n);
	return NULL;
}

int dbg_cmd_restart(dbg_session *s, char *args)
{
	dbg_ckpt *c = find(s, "restart", args);
	if (!c)
		return -1;
	if (!s->em || c->gen != s->history_gen) {
		dbg_error(s, "restart: checkpoint %u stood in a run that has ended (run, kill, set "
			  "var and checkpoint load begin another).", c->num);
		return -1;
	}
	if (dbg_history_goto(s, c->since) < 0)
		return -1;
	printf("Switching to checkpoint %u\n", c->num);
	dbg_report_stop(s);
	return 0;
}

int dbg_cmd_info_checkpoints(dbg_session *s, char *args)
{
	(void)args;
	if (!s->nckpts) {
		printf("No checkpoints.\n");
		return 0;
	}
	for (size_t i = 0; i < s->nckpts; i++) {
		const dbg_ckpt *c = &s->ckpts[i];
		const bool live = s->em && c->gen == s->history_gen;
		printf("%c %u  %s%s\n", live && s->since == c->since ? '*' : ' ', c->num, c->what,
		       live ? "" : " (its run has ended)");
	}
	return 0;
}

int dbg_delete_checkpoint(dbg_session *s, char *args)
{
	dbg_ckpt *c = find(s, "delete checkpoint", args);
	if (!c)
		return -1;
	const size_t i = (size_t)(c - s->ckpts);
	memmove(&s->ckpts[i], &s->ckpts[i + 1], (s->nckpts - i - 1) * sizeof *s->ckpts);
	s->nckpts--;
	return 0;
}
