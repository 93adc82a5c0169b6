/* SPDX-License-Identifier: MIT */
/*
 * frames.c: `where`/`backtrace`, `frame`, `up`, `down`, `info frame` and
 * `info line`.
 *
 * The machine has no call stack; what nests is the position itself: the
 * micro-op inside its command, the command inside the tDFG node it
 * computes, the node inside its region, the region inside the program
 * (infinity-stream 3.4: the JIT lowers each region's nodes to commands,
 * each command runs its micro-program).  `where` prints that nesting
 * innermost first, as gdb prints frames, each level with its file:line,
 * and `frame N` selects a level for `list` and `info frame`.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbg.h"

typedef enum frame_kind { FR_UOP, FR_CMD, FR_NODE, FR_REGION, FR_PROGRAM } frame_kind;

typedef struct frame {
	frame_kind kind;
	size_t index;      /* micro-op, command, node or region */
} frame;

#define MAX_FRAMES 5

/* The levels of the position, innermost first; 0 when not running. */
static int frames_of(const dbg_session *s, frame f[MAX_FRAMES])
{
	const emu_machine *em = s->em;
	if (!em || emu_done(em))
		return 0;
	int n = 0;
	if (em->upc > 0)
		f[n++] = (frame){ FR_UOP, em->upc };
	f[n++] = (frame){ FR_CMD, em->pc };
	const long node = dbg_node_of(s, em->pc);
	if (node >= 0) {
		f[n++] = (frame){ FR_NODE, (size_t)node };
		f[n++] = (frame){ FR_REGION, s->t.nodes[node].region };
	}
	f[n++] = (frame){ FR_PROGRAM, 0 };
	return n;
}

/* "at FILE:LINE" of a level, or "" when it has none. */
static void frame_where(const dbg_session *s, const frame *f, char *buf, size_t size)
{
	int line = 0;
	const char *path = s->tdfg ? s->t.path : s->prog.path;
	switch (f->kind) {
	case FR_UOP:
	case FR_CMD:
		line = s->prog.cmds[s->em->pc].line;
		path = s->prog.path;
		break;
	case FR_NODE:
		line = s->t.nodes[f->index].line;
		break;
	case FR_REGION:
		line = s->t.regions[f->index].line;
		break;
	case FR_PROGRAM:
		break;
	}
	if (line > 0)
		snprintf(buf, size, " at %s:%d", path, line);
	else if (f->kind == FR_PROGRAM)
		snprintf(buf, size, " %s", path);
	else
		buf[0] = '\0';
}

/* "command 3" or "commands 3 to 5" for [from, to). */
static void commands_text(size_t from, size_t to, char *buf, size_t size)
{
	if (to <= from + 1)
		snprintf(buf, size, "command %zu", from);
	else
		snprintf(buf, size, "commands %zu to %zu", from, to - 1);
}

static void frame_text(const dbg_session *s, const frame *f, char *buf, size_t size)
{
	char text[512], where[600];
	frame_where(s, f, where, sizeof where);
	switch (f->kind) {
	case FR_UOP:
		dbg_format_uop(&s->em->up.u[f->index], text, sizeof text);
		snprintf(buf, size, "micro-op %zu (of 0..%zu): %s%s", f->index, s->em->up.n - 1,
			 text, where);
		break;
	case FR_CMD:
		emu_format_cmd(&s->prog, &s->prog.cmds[f->index], text, sizeof text);
		snprintf(buf, size, "command %zu: %s%s", f->index, text, where);
		break;
	case FR_NODE: {
		const emu_tnode *x = &s->t.nodes[f->index];
		commands_text(x->cmd0, x->cmd1, text, sizeof text);
		/* a strm node's stream runs at the banks after its commands */
		if (x->strm)
			snprintf(buf, size, "strm node '%s' (%s, then its stream at the banks)%s",
				 x->name, text, where);
		else
			snprintf(buf, size, "node '%s' (%s)%s", x->name, text, where);
		break;
	}
	case FR_REGION: {
		const emu_tregion *r = &s->t.regions[f->index];
		commands_text(r->cmd0, r->cmd1, text, sizeof text);
		snprintf(buf, size, "region '%s' (%s)%s", r->name, text, where);
		break;
	}
	case FR_PROGRAM:
		snprintf(buf, size, "program%s (%zu command%s)", where, s->prog.ncmds,
			 s->prog.ncmds == 1 ? "" : "s");
		break;
	}
}

static void print_frame(const dbg_session *s, const frame *f, int level)
{
	char text[1400];
	frame_text(s, f, text, sizeof text);
	printf("#%d  %s\n", level, text);
}

static int no_stack(dbg_session *s)
{
	dbg_error(s, s->em ? "No stack: the program has finished." : "No stack.");
	return -1;
}

int dbg_cmd_where(dbg_session *s, char *args)
{
	frame f[MAX_FRAMES];
	const int n = frames_of(s, f);
	args = dbg_trim(args);
	uint64_t limit = MAX_FRAMES;
	if (*args && (!dbg_parse_u64(args, &limit) || limit == 0)) {
		dbg_error(s, "backtrace: expected a positive number of levels, got \"%s\".", args);
		return -1;
	}
	if (n == 0)
		return no_stack(s);
	for (int k = 0; k < n && (uint64_t)k < limit; k++)
		print_frame(s, &f[k], k);
	if ((uint64_t)n > limit)
		printf("(More levels follow...)\n");
	return 0;
}

/* The selected level (0 innermost), kept until the machine moves. */
static int selected(const dbg_session *s, int n)
{
	const bool still = s->frame > 0 && s->frame_since == s->since;
	const int level = still ? s->frame - 1 : 0;
	return level < n ? level : 0;
}

static int select_level(dbg_session *s, int level)
{
	frame f[MAX_FRAMES];
	const int n = frames_of(s, f);
	if (n == 0)
		return no_stack(s);
	if (level < 0 || level >= n) {
		dbg_error(s, "No frame at level %d: the position has levels 0 to %d (see \"where\").",
			  level, n - 1);
		return -1;
	}
	s->frame = level + 1;
	s->frame_since = s->since;
	print_frame(s, &f[level], level);
	return 0;
}

int dbg_cmd_frame(dbg_session *s, char *args)
{
	args = dbg_trim(args);
	frame f[MAX_FRAMES];
	const int n = frames_of(s, f);
	if (!*args)
		return select_level(s, selected(s, n));
	uint64_t level;
	if (!dbg_parse_u64(args, &level) || level > 1000) {
		dbg_error(s, "frame: expected a level number (see \"where\"), got \"%s\".", args);
		return -1;
	}
	return select_level(s, (int)level);
}

/* up N / down N: towards the program (outer) or the micro-op (inner). */
static int move_level(dbg_session *s, char *args, int dir, const char *name)
{
	args = dbg_trim(args);
	uint64_t k = 1;
	if (*args && (!dbg_parse_u64(args, &k) || k == 0 || k > 1000)) {
		dbg_error(s, "%s: expected a positive number of levels, got \"%s\".", name, args);
		return -1;
	}
	frame f[MAX_FRAMES];
	const int n = frames_of(s, f);
	if (n == 0)
		return no_stack(s);
	const int now = selected(s, n), to = now + dir * (int)k;
	if (to < 0) {
		dbg_error(s, "Bottom (innermost) frame selected; you cannot go down.");
		return -1;
	}
	if (to >= n) {
		dbg_error(s, "Initial frame selected; you cannot go up.");
		return -1;
	}
	return select_level(s, to);
}

int dbg_cmd_up(dbg_session *s, char *args)
{
	return move_level(s, args, 1, "up");
}

int dbg_cmd_down(dbg_session *s, char *args)
{
	return move_level(s, args, -1, "down");
}

long dbg_frame_node(const dbg_session *s, int *region)
{
	frame f[MAX_FRAMES];
	const int n = frames_of(s, f);
	*region = -1;
	if (n == 0 || s->frame == 0 || s->frame_since != s->since)
		return -1;
	const frame *sel = &f[selected(s, n)];
	if (sel->kind == FR_REGION)
		*region = (int)sel->index;
	return sel->kind == FR_NODE ? (long)sel->index : -1;
}

int dbg_frame_span(const dbg_session *s, size_t *start, size_t *end, char *what, size_t size)
{
	frame f[MAX_FRAMES];
	const int n = frames_of(s, f);
	if (n == 0 || s->frame == 0 || s->frame_since != s->since)
		return -1;
	const int level = selected(s, n);
	const frame *sel = &f[level];
	char text[1400];
	frame_text(s, sel, text, sizeof text);
	snprintf(what, size, "#%d  %s", level, text);
	switch (sel->kind) {
	case FR_UOP:
	case FR_CMD:
		*start = s->em->pc;
		*end = s->em->pc + 1;
		break;
	case FR_NODE:
		*start = s->t.nodes[sel->index].cmd0;
		*end = s->t.nodes[sel->index].cmd1;
		break;
	case FR_REGION:
		*start = s->t.regions[sel->index].cmd0;
		*end = s->t.regions[sel->index].cmd1;
		break;
	case FR_PROGRAM:
		*start = 0;
		*end = s->prog.ncmds;
		break;
	}
	return 0;
}

int dbg_cmd_info_frame(dbg_session *s, char *args)
{
	(void)args;
	frame f[MAX_FRAMES];
	const int n = frames_of(s, f);
	if (n == 0)
		return no_stack(s);
	const int level = selected(s, n);
	char text[1400];
	frame_text(s, &f[level], text, sizeof text);
	printf("Stack level %d: %s\n", level, text);
	if (level > 0) {
		frame_text(s, &f[level - 1], text, sizeof text);
		printf(" caller of level %d: %s\n", level - 1, text);
	}
	if (level + 1 < n) {
		frame_text(s, &f[level + 1], text, sizeof text);
		printf(" called by level %d: %s\n", level + 1, text);
	}
	printf(" cycle %" PRIu64 ", micro-op %zu of command %zu\n", dbg_cycles(s), s->em->upc,
	       s->em->pc);
	return 0;
}

/* ---- info line ---- */

static void stream_line_info(const dbg_session *s, size_t cmd)
{
	const emu_cmd *c = &s->prog.cmds[cmd];
	char text[512];
	emu_format_cmd(&s->prog, c, text, sizeof text);
	isa_prog built;
	isa_prog_init(&built);
	size_t uops = 0;
	if (s->em && c->kind == EMU_CMD_COMPUTE && emu_cmd_uprog(s->em, cmd, &built) == 0)
		uops = built.n;
	isa_prog_free(&built);
	if (c->line > 0)
		printf("Line %d of \"%s\" is command %zu: %s", c->line, s->prog.path, cmd, text);
	else
		printf("Command %zu (%s) has no source line: %s", cmd, s->prog.path, text);
	if (uops)
		printf(" (%zu micro-ops)", uops);
	printf(".\n");
	const long node = dbg_node_of(s, cmd);
	if (node >= 0)
		printf("It computes node '%s', line %d of \"%s\".\n", s->t.nodes[node].name,
		       s->t.nodes[node].line, s->t.path);
}

int dbg_cmd_info_line(dbg_session *s, char *args)
{
	args = dbg_trim(args);
	if (!s->loaded) {
		dbg_error(s, "No program loaded.");
		return -1;
	}
	if (!*args) {
		if (!s->em || emu_done(s->em)) {
			dbg_error(s, "info line: the program is not being run; give a location "
				  "(see \"help break\").");
			return -1;
		}
		stream_line_info(s, s->em->pc);
		return 0;
	}
	dbg_location loc;
	if (dbg_parse_location(s, "info line", args, &loc) < 0)
		return -1;
	if (loc.node >= 0) {
		const emu_tnode *x = &s->t.nodes[loc.node];
		if (x->cmd0 == x->cmd1)
			printf("Line %d of \"%s\" defines node '%s', lowered to no command.\n", x->line,
			       s->t.path, x->name);
		else
			printf("Line %d of \"%s\" defines node '%s': commands %zu to %zu.\n", x->line,
			       s->t.path, x->name, x->cmd0, x->cmd1 - 1);
		return 0;
	}
	stream_line_info(s, loc.cmd);
	return 0;
}
