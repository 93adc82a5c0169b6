/* SPDX-License-Identifier: MIT */
/*
 * nodes.c: infsdb on tDFG programs (emu/tdfg/tdfg.h).  A .tdfg is lowered by
 * the JIT when it is loaded (infinity-stream §3.4, §4.2) and its lowered
 * stream is what the machine runs; this file answers, at any position,
 * which node the machine is in, which nodes are computed, and which
 * nodes' wordlines a later node has taken over (§3.4: a value's range
 * is reused once the value is dead).  On that rest `next`, `finish`, the
 * node line of the position, `check` against the tDFG reference, `info
 * nodes|regions|registers`, `list` of the tDFG source and the notes of
 * `print`.
 *
 * A node's state is found from the commands the machine has run, not
 * from the JIT's allocation alone: a node is overwritten when a command
 * that started after its last one wrote cells of its wordlines in its
 * arrays (a later node's tensor, or a temporary of one), which is what
 * the cells themselves went through.
 */
#include "config.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbg.h"
#include "tdfg_json.h"
#include "report.h"

/* ---- loading ---- */

int dbg_tdfg_load(dbg_session *s, const char *path, const char *type,
		  const emu_geom_override *ov, const emu_tdfg_def *defs, size_t ndefs, diag *d)
{
	if (type ? emu_tdfg_json_load(path, type, ov, &s->t, &s->j, d) < 0
		 : emu_tdfg_load_defs(path, ov, defs, ndefs, &s->t, &s->j, d) < 0)
		return -1;
	/* s->prog owns the lowered stream; j keeps node_of (one entry per
	 * command of s->prog) */
	s->prog = s->j.prog;
	emu_program_init(&s->j.prog);
	s->tdfg = true;
	s->tref = emu_tref_new(&s->t, d);
	return s->tref ? 0 : -1;
}

long dbg_strm_after(dbg_session *s, emu_machine *em, size_t pc0, diag *d)
{
	if (!s->tdfg || em->upc || em->pc != pc0 + 1)
		return -1;
	const long n = emu_strm_node_at(&s->t, &s->j, pc0);
	if (n < 0)
		return -1;
	return emu_strm_exec(&s->t, &s->prog, em, NULL, (size_t)n, &s->strm, d) < 0 ? -2 : n;
}

int dbg_ref_run_cmd(dbg_session *s, emu_ref *ref, size_t pc, diag *d)
{
	if (emu_ref_run_cmd(ref, pc, d) < 0)
		return -1;
	const long n = s->tdfg ? emu_strm_node_at(&s->t, &s->j, pc) : -1;
	if (n < 0)
		return 0;
	emu_strm_stats st;
	memset(&st, 0, sizeof st);
	const int rc = emu_strm_exec(&s->t, &s->prog, NULL, ref, (size_t)n, &st, d);
	emu_strm_lot_free(&st.lot);
	return rc;
}

void dbg_tdfg_free(dbg_session *s)
{
	emu_strm_lot_free(&s->strm.lot);
	memset(&s->strm, 0, sizeof s->strm);
	emu_tref_free(s->tref);
	s->tref = NULL;
	emu_jit_free(&s->j);
	emu_tdfg_free(&s->t);
	s->tdfg = false;
}

/* ---- finding nodes ---- */

long dbg_node_of(const dbg_session *s, size_t cmd)
{
	if (!s->tdfg || cmd >= s->prog.ncmds || s->j.node_of[cmd] == UINT32_MAX)
		return -1;
	return (long)s->j.node_of[cmd];
}

long dbg_current_node(const dbg_session *s)
{
	if (!s->em || emu_done(s->em))
		return -1;
	return dbg_node_of(s, s->em->pc);
}

long dbg_node_find(const dbg_session *s, const char *name, size_t len)
{
	return s->tdfg ? emu_tdfg_find(&s->t, name, len) : -1;
}

long dbg_node_on_line(const dbg_session *s, uint64_t line)
{
	for (size_t i = 0; s->tdfg && i < s->t.nnodes; i++)
		if ((uint64_t)s->t.nodes[i].line == line)
			return (long)i;
	return -1;
}

/* Levenshtein distance of a and b (at most 64 characters of each); a
 * letter for the same letter in the other case costs nothing. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a) < 64 ? strlen(a) : 64, lb = strlen(b) < 64 ? strlen(b) : 64;
	size_t row[65];
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t corner = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			const size_t up = row[j];
			const bool same = tolower((unsigned char)a[i - 1]) ==
					  tolower((unsigned char)b[j - 1]);
			size_t best = corner + !same;
			best = up + 1 < best ? up + 1 : best;
			best = row[j - 1] + 1 < best ? row[j - 1] + 1 : best;
			row[j] = best;
			corner = up;
		}
	}
	return row[lb];
}

/* A name is suggested when at most half of the longer of the two names
 * must change: "S1" gives "S", "Q" gives nothing. */
const char *dbg_node_suggest(const dbg_session *s, const char *name)
{
	const char *best = NULL;
	size_t dist = SIZE_MAX;
	for (size_t i = 0; s->tdfg && i < s->t.nnodes; i++) {
		const char *cand = s->t.nodes[i].name;
		const size_t d = edit_distance(name, cand);
		const size_t longer = strlen(cand) > strlen(name) ? strlen(cand) : strlen(name);
		if (d < dist && 2 * d <= longer) {
			dist = d;
			best = cand;
		}
	}
	return best;
}

/* Where a node or region is defined: "PATH:LINE", or "PATH" for an
 * artifact's tDFG dump (.json), whose nodes have no source line. */
static void defined_at(const dbg_session *s, int line, char *buf, size_t size)
{
	if (line > 0)
		snprintf(buf, size, "%s:%d", s->t.path, line);
	else
		snprintf(buf, size, "%s", s->t.path);
}

void dbg_node_label(const dbg_session *s, size_t n, char *buf, size_t size)
{
	const emu_tnode *x = &s->t.nodes[n];
	if (x->line > 0)
		snprintf(buf, size, "node '%s' (%s:%d)", x->name, s->t.path, x->line);
	else /* an artifact's dump: no source line */
		snprintf(buf, size, "node '%s' (%s)", x->name, s->t.path);
}

/* Line `line` of the tDFG source without its leading and trailing
 * blanks, into buf. */
static void source_text(const dbg_session *s, int line, char *buf, size_t size)
{
	size_t len = 0;
	const char *text = emu_tdfg_line(&s->t, line, &len);
	while (text && len && isspace((unsigned char)*text)) {
		text++;
		len--;
	}
	while (text && len && isspace((unsigned char)text[len - 1]))
		len--;
	snprintf(buf, size, "%.*s", text ? (int)len : 0, text ? text : "");
}

static int source_lines(const dbg_session *s)
{
	int n = 0;
	for (size_t i = 0; i < s->t.len; i++)
		n += s->t.text[i] == '\n';
	return n + (s->t.len && s->t.text[s->t.len - 1] != '\n');
}

/* ---- a node's state at the position ---- */

typedef enum node_state {
	NODE_NOT_RUN,   /* not running, or its first command has not started */
	NODE_RUNNING,   /* some of its commands have run */
	NODE_COMPUTED,  /* all of its commands have run (an input: always) */
} node_state;

typedef struct node_status {
	node_state state;
	bool over;      /* a later command wrote over its cells */
	long by;        /* the node of the last such command, or -1 (none) */
	size_t by_cmd;  /* that command */
	bool by_running; /* that command is in progress */
	bool past_use;  /* the node of its last use has computed */
} node_status;

/* Has command cmd started (is it in progress or done)? */
static bool cmd_started(const dbg_session *s, size_t cmd)
{
	return s->em->pc > cmd || (s->em->pc == cmd && s->em->upc > 0);
}

static bool patterns_meet(const emu_pattern *p, const emu_pattern *q)
{
	const uint64_t np = emu_pattern_size(p), nq = emu_pattern_size(q);
	for (uint64_t i = 0; i < np; i++)
		for (uint64_t j = 0; j < nq; j++)
			if (emu_pattern_at(p, i) == emu_pattern_at(q, j))
				return true;
	return false;
}

static bool rows_meet(const dbg_session *s, const emu_buffer *a, const emu_buffer *b)
{
	const unsigned ra = emu_buffer_rows(a, &s->prog.geom), rb = emu_buffer_rows(b, &s->prog.geom);
	return a->wl < b->wl + rb && b->wl < a->wl + ra;
}

/* Does command cmd write cells of buffer buf (its wordlines, in one of
 * its arrays)?  A sync only delivers what earlier moves sent, which
 * counted when they ran. */
static bool cmd_overwrites(const dbg_session *s, size_t cmd, size_t buf)
{
	const emu_cmd *c = &s->prog.cmds[cmd];
	const emu_buffer *b = &s->prog.bufs[buf];
	/* a strm node's stream writes its tensor after the node's last
	 * command (dbg_strm_after) */
	const long sn = s->tdfg ? emu_strm_node_at(&s->t, &s->j, cmd) : -1;
	const int sb = sn >= 0 ? s->t.nodes[sn].buf : -1;
	if (sb >= 0 && rows_meet(s, &s->prog.bufs[sb], b) &&
	    patterns_meet(&s->prog.bufs[sb].arrays, &b->arrays))
		return true;
	if (c->kind == EMU_CMD_MOVE)
		return c->mv.kind != EMU_MOVE_SYNC && dbg_cmd_writes(s, cmd, buf);
	const int dst[2] = { c->buf_d, c->buf_d2 };
	for (int k = 0; k < 2; k++)
		if (dst[k] >= 0 && rows_meet(s, &s->prog.bufs[dst[k]], b) &&
		    patterns_meet(&c->arrays, &b->arrays))
			return true;
	return false;
}

static bool node_computed(const dbg_session *s, const emu_tnode *x)
{
	return x->kind == EMU_TN_INPUT || s->em->pc >= x->cmd1;
}

static node_status status_of(const dbg_session *s, size_t n)
{
	const emu_tnode *x = &s->t.nodes[n];
	node_status st = { NODE_NOT_RUN, false, -1, 0, false, false };
	if (!s->em || x->buf < 0)
		return st;
	if (node_computed(s, x))
		st.state = NODE_COMPUTED;
	else if (x->cmd1 > x->cmd0 && cmd_started(s, x->cmd0))
		st.state = NODE_RUNNING;
	/* inputs hold their values from the start; the others from their end */
	const size_t from = x->kind == EMU_TN_INPUT ? 0 : x->cmd1;
	for (size_t c = from; st.state == NODE_COMPUTED && c < s->prog.ncmds && cmd_started(s, c);
	     c++)
		if (cmd_overwrites(s, c, (size_t)x->buf)) {
			st.over = true;
			st.by = dbg_node_of(s, c);
			st.by_cmd = c;
			st.by_running = s->em->pc == c;
		}
	st.past_use = x->last_use != UINT32_MAX && x->last_use < s->t.nnodes &&
		      node_computed(s, &s->t.nodes[x->last_use]);
	return st;
}

/* The commands of node x as "command K of N" of the position. */
static void command_of(const dbg_session *s, const emu_tnode *x, char *buf, size_t size)
{
	snprintf(buf, size, "command %zu of %zu", s->em->pc - x->cmd0 + 1, x->cmd1 - x->cmd0);
}

/* Who wrote over a node's cells: "node 'e' (line 10)", or the command
 * when it belongs to no node. */
static void writer_text(const dbg_session *s, const node_status *st, char *buf, size_t size)
{
	if (st->by >= 0)
		snprintf(buf, size, "node '%s' (line %d)", s->t.nodes[st->by].name,
			 s->t.nodes[st->by].line);
	else
		snprintf(buf, size, "command %zu", st->by_cmd);
}

/* The state as info registers says it. */
static void state_text(const dbg_session *s, size_t n, char *buf, size_t size)
{
	const emu_tnode *x = &s->t.nodes[n];
	const node_status st = status_of(s, n);
	char cmd[64], by[EMU_NAME_MAX + 48] = "";
	writer_text(s, &st, by, sizeof by);
	if (!s->em) {
		snprintf(buf, size, "-");
	} else if (st.state == NODE_NOT_RUN) {
		snprintf(buf, size, "not yet computed");
	} else if (st.state == NODE_RUNNING) {
		command_of(s, x, cmd, sizeof cmd);
		snprintf(buf, size, "being computed (%s)", cmd);
	} else if (st.over && !st.past_use && x->last_use != n) {
		snprintf(buf, size, "OVERWRITTEN by %s before its last use", by);
	} else if (st.over) {
		snprintf(buf, size, st.by_running ? "dead: being overwritten by %s"
						  : "dead: holds what %s wrote", by);
	} else if (x->last_use == UINT32_MAX || !st.past_use) {
		snprintf(buf, size, "live");
	} else {
		snprintf(buf, size, "dead (its value is still there)");
	}
}

/* ---- the position ---- */

void dbg_print_node_position(dbg_session *s)
{
	const long n = dbg_current_node(s);
	if (n < 0)
		return;
	const emu_tnode *x = &s->t.nodes[n];
	char text[512], cmd[64], at[1100];
	if (x->line > 0)
		source_text(s, x->line, text, sizeof text);
	else /* a dump's node has no source line: its name */
		snprintf(text, sizeof text, "'%s'", x->name);
	command_of(s, x, cmd, sizeof cmd);
	defined_at(s, x->line, at, sizeof at);
	printf("node %s  (%s), %s\n", text, at, cmd);
}

/* ---- next and finish ---- */

static int count_of(dbg_session *s, const char *name, char *args, uint64_t *n)
{
	args = dbg_trim(args);
	*n = 1;
	if (!*args || (dbg_parse_u64(args, n) && *n > 0))
		return 0;
	dbg_error(s, "%s: invalid count \"%s\": expected a positive integer.", name, args);
	return -1;
}

/* --tdfg: to the end of the marker window the machine is in, then of
 * the following ones (valid.c), as next runs a tDFG node. */
static int next_marker(dbg_session *s, char *args)
{
	uint64_t n;
	if (count_of(s, "next", args, &n) < 0 || dbg_need_machine(s) < 0)
		return -1;
	if (emu_done(s->em)) {
		dbg_error(s, "The program is not being run.");
		return -1;
	}
	size_t target = s->em->pc, marker;
	for (uint64_t k = 0; k < n && target < s->prog.ncmds; k++)
		target = dbg_valid_window_end(s, target);
	const int rc = dbg_run_to(s, target);
	const long node = s->em && !emu_done(s->em) && s->em->pc == target && target > 0
		? dbg_valid_node_at(s, target - 1, &marker) : -1;
	if (rc == 0 && node >= 0) /* where the machine stopped: a node's marker */
		printf("At the marker of node '%s' (%s:%d), %s:%d.\n", s->vt.nodes[node].name,
		       s->vt.path, s->vt.nodes[node].line, s->prog.path, s->prog.marks[marker].line);
	return rc;
}

int dbg_cmd_next(dbg_session *s, char *args)
{
	if (!s->tdfg && s->valid)
		return next_marker(s, args);
	if (!s->tdfg)
		return dbg_cmd_step(s, args);
	uint64_t n;
	if (count_of(s, "next", args, &n) < 0 || dbg_need_machine(s) < 0)
		return -1;
	if (emu_done(s->em)) {
		dbg_error(s, "The program is not being run.");
		return -1;
	}
	/* the end of the node the machine is in, then of the following ones */
	size_t target = s->em->pc;
	for (uint64_t k = 0; k < n && target < s->prog.ncmds; k++) {
		const long node = dbg_node_of(s, target);
		target = node >= 0 ? s->t.nodes[node].cmd1 : target + 1;
	}
	return dbg_run_to(s, target);
}

/* finish: to the end of the level `frame` or `up` selected, as gdb's
 * finish leaves the selected frame; else of the innermost level the
 * position is in: the command it is in (or, at a boundary of a command
 * stream, the next command), at a boundary of a tDFG the node of the next
 * command.  Never more than that level: `up` then `finish` for the node
 * or the region around it. */
int dbg_cmd_finish(dbg_session *s, char *args)
{
	if (*dbg_trim(args)) {
		dbg_error(s, "\"finish\" takes no arguments (select an outer level with \"up\").");
		return -1;
	}
	if (dbg_need_machine(s) < 0)
		return -1;
	if (emu_done(s->em)) {
		dbg_error(s, "\"finish\" not meaningful: the program has finished.");
		return -1;
	}
	size_t start, end;
	char what[1500];
	if (dbg_frame_span(s, &start, &end, what, sizeof what) == 0) {
		printf("Run till exit from %s\n", what);
		return dbg_run_to(s, end);
	}
	if (!s->tdfg && s->valid && s->em->upc == 0) { /* --tdfg: the marker window */
		const size_t wend = dbg_valid_window_end(s, s->em->pc);
		size_t marker;
		const long node = wend > 0 ? dbg_valid_node_at(s, wend - 1, &marker) : -1;
		if (node >= 0) {
			printf("Run till exit from node '%s' (%s:%d), to its marker at %s:%d\n",
			       s->vt.nodes[node].name, s->vt.path, s->vt.nodes[node].line,
			       s->prog.path, s->prog.marks[marker].line);
			return dbg_run_to(s, wend);
		}
	}
	const long n = dbg_current_node(s);
	if (s->em->upc > 0 || n < 0) {
		printf("Run till exit from command %zu\n", s->em->pc);
		return dbg_run_to(s, s->em->pc + 1);
	}
	const emu_tnode *x = &s->t.nodes[n];
	char at[1100];
	defined_at(s, x->line, at, sizeof at);
	printf("Run till exit from node '%s' (%s)\n", x->name, at);
	return dbg_run_to(s, x->cmd1);
}

/* ---- check ---- */

static void report_node_mismatch(dbg_session *s, size_t n, const emu_mismatch *mm,
				 const char *lead)
{
	char text[1024], label[EMU_NAME_MAX + 300];
	if (!mm->buf) {
		dbg_error(s, "check: out of memory for the tDFG's reference");
		return;
	}
	emu_report_mismatch_text(text, sizeof text, mm);
	dbg_node_label(s, n, label, sizeof label);
	printf("%scheck: %s does not compute what the tDFG means: %s\n", lead, label, text);
	s->mismatch = true;
}

/* Every computed node whose cells no later command wrote over, with
 * the tDFG reference; the first wrong element is reported. */
static int check_nodes(dbg_session *s)
{
	size_t compared = 0, over = 0, pending = 0;
	char names[256] = "";
	for (size_t n = 0; n < s->t.nnodes; n++) {
		const node_status st = status_of(s, n);
		const size_t used = strlen(names);
		if (st.state != NODE_COMPUTED) {
			pending++;
		} else if (st.over) {
			if (used + EMU_NAME_MAX + 8 < sizeof names)
				snprintf(names + used, sizeof names - used, "%s%s", over ? ", " : "",
					 s->t.nodes[n].name);
			over++;
		} else {
			emu_mismatch mm;
			if (!emu_tref_compare(s->tref, &s->prog, s->em, n, &mm)) {
				report_node_mismatch(s, n, &mm, "");
				return 0;
			}
			compared++;
		}
	}
	printf("check: %zu tDFG node%s match%s what the tDFG means", compared,
	       compared == 1 ? "" : "s", compared == 1 ? "es" : "");
	if (over)
		printf("; %zu not compared, %s wordlines now hold a later node's value: %s", over,
		       over == 1 ? "its" : "their", names);
	if (pending)
		printf("; %zu not computed yet", pending);
	printf(".\n");
	return 0;
}

/* "every node", "every command", "every off": the word after "every". */
static int check_every_word(dbg_session *s, const char *args, char *word, size_t size)
{
	char extra[16] = "";
	word[0] = '\0';
	char fmt[32];
	snprintf(fmt, sizeof fmt, "%%%zus %%15s", size - 1);
	if (sscanf(args, fmt, word, extra) < 1 || extra[0] ||
	    (strcmp(word, "node") && strcmp(word, "command") && strcmp(word, "off"))) {
		dbg_error(s, s->tdfg ? "check every: expected \"command\", \"node\" or \"off\"."
				     : "check every: expected \"command\" or \"off\".");
		return -1;
	}
	if (strcmp(word, "node") == 0 && !s->tdfg && !s->valid) {
		dbg_error(s, "check every node: %s is a command stream, not a tDFG: it has no nodes "
			  "(\"check every command\" compares after each command; --tdfg FILE "
			  "validates it against a tDFG).", s->prog.path);
		return -1;
	}
	return 0;
}

int dbg_cmd_check_all(dbg_session *s, char *args)
{
	char *text = dbg_trim(args);
	if (strncmp(text, "every", 5) == 0 && (!text[5] || isspace((unsigned char)text[5]))) {
		char word[16];
		if (check_every_word(s, text + 5, word, sizeof word) < 0)
			return -1;
		if (strcmp(word, "node") == 0) {
			s->check_every_node = true;
			printf(s->valid ? "Checking each node marker against the tDFG reference.\n"
				: "Checking each tDFG node against the tDFG reference after its last command.\n");
			return 0;
		}
		if (strcmp(word, "off") == 0)
			s->check_every_node = false;
		return dbg_cmd_check(s, text);
	}
	const bool plain = !*text, was = s->mismatch;
	s->mismatch = false;
	const int rc = dbg_cmd_check(s, text);
	const bool differs = s->mismatch; /* the reference model, this time */
	s->mismatch = was || differs;
	if (rc == 0 && plain && s->valid && !differs)
		return dbg_valid_check(s);
	if (rc < 0 || !plain || !s->tdfg)
		return rc;
	return check_nodes(s);
}

bool dbg_node_diverged(dbg_session *s)
{
	if (s->valid)
		return dbg_valid_diverged(s);
	if (!s->check_every_node || !s->tdfg || s->em->upc != 0 || s->em->pc == 0)
		return false;
	const long n = dbg_node_of(s, s->em->pc - 1);
	if (n < 0 || s->t.nodes[n].cmd1 != s->em->pc)
		return false;
	emu_mismatch mm;
	if (emu_tref_compare(s->tref, &s->prog, s->em, (size_t)n, &mm))
		return false;
	report_node_mismatch(s, (size_t)n, &mm, "\n");
	dbg_report_stop(s);
	return true;
}

static void box_text(const emu_box *b, unsigned nd, char *buf, size_t size);

/* ---- the domain of a node's tensor ---- */

/* The node whose tensor b is, or -1. */
static long node_of_buffer(const dbg_session *s, const emu_buffer *b)
{
	if (!s->tdfg)
		return -1;
	const int buf = (int)(b - s->prog.bufs);
	for (size_t n = 0; n < s->t.nnodes; n++)
		if (s->t.nodes[n].buf == buf && s->t.nodes[n].cmd0 < s->t.nodes[n].cmd1)
			return (long)n;
	return -1;
}

bool dbg_elem_outside(const dbg_session *s, const emu_buffer *b, uint64_t flat)
{
	const long n = node_of_buffer(s, b);
	if (n < 0 || !b->ndims)
		return false;
	const emu_box *dom = &s->t.nodes[n].dom;
	for (unsigned k = 0; k < b->ndims; k++) {
		const uint64_t i = flat % b->shape[k];
		flat /= b->shape[k];
		if (i < dom->lo[k] || i >= dom->hi[k])
			return true;
	}
	return false;
}

void dbg_domain_note(const dbg_session *s, const emu_buffer *b, bool element)
{
	const long n = node_of_buffer(s, b);
	if (n < 0)
		return;
	char label[EMU_NAME_MAX + 300], box[128];
	dbg_node_label(s, (size_t)n, label, sizeof label);
	box_text(&s->t.nodes[n].dom, b->ndims, box, sizeof box);
	if (element)
		printf("(note: this element lies outside the domain of %s, %s: the tDFG does not "
		       "define it)\n", label, box);
	else
		printf("(note: the values in parentheses lie outside the domain of %s, %s: the tDFG "
		       "does not define them)\n", label, box);
}

/* ---- print's notes ---- */

/* The note for node n, if its cells do not hold its value now. */
static void print_note(dbg_session *s, size_t n)
{
	const emu_tnode *x = &s->t.nodes[n];
	const node_status st = status_of(s, n);
	char label[EMU_NAME_MAX + 300], by[EMU_NAME_MAX + 300] = "", cmd[64];
	dbg_node_label(s, n, label, sizeof label);
	if (st.state == NODE_RUNNING) {
		command_of(s, x, cmd, sizeof cmd);
		printf("(note: %s is being computed, at %s: not all of its elements are written)\n",
		       label, cmd);
		return;
	}
	if (st.state == NODE_COMPUTED && !st.over)
		return;
	if (st.over) {
		writer_text(s, &st, by, sizeof by);
		printf("(note: %s is dead: its wordlines %u..%u now hold what %s wrote, not its "
		       "value)\n", label, x->wl, x->wl + x->rows - 1, by);
		return;
	}
	/* not computed: what the cells hold is an earlier node's, or nothing */
	long prev = -1;
	for (size_t c = 0; c < s->em->pc && c < s->prog.ncmds; c++)
		if (cmd_overwrites(s, c, (size_t)x->buf))
			prev = dbg_node_of(s, c);
	if (prev >= 0)
		snprintf(by, sizeof by, "hold what node '%s' (line %d) wrote", s->t.nodes[prev].name,
			 s->t.nodes[prev].line);
	printf("(note: %s is not computed yet: its wordlines %u..%u %s)\n", label, x->wl,
	       x->wl + x->rows - 1, prev >= 0 ? by : "have not been written");
}

void dbg_node_print_note(dbg_session *s, const char *expr)
{
	if (!s->tdfg || !s->em)
		return;
	bool noted[256] = { false };
	for (const char *p = expr; *p;) {
		const bool starts = (isalpha((unsigned char)*p) || *p == '_') &&
				    (p == expr || (!isalnum((unsigned char)p[-1]) && p[-1] != '_' &&
						   p[-1] != '$' && p[-1] != '.'));
		size_t len = 0;
		while (isalnum((unsigned char)p[len]) || p[len] == '_')
			len++;
		const long n = starts ? dbg_node_find(s, p, len) : -1;
		if (n >= 0 && (n >= 256 || !noted[n])) {
			if (n < 256)
				noted[n] = true;
			print_note(s, (size_t)n);
		}
		p += len ? len : 1;
	}
}

/* ---- info nodes, info regions, info registers ---- */

static void box_text(const emu_box *b, unsigned nd, char *buf, size_t size)
{
	size_t n = 0;
	buf[0] = '\0';
	for (unsigned k = 0; k < nd && n < size; k++)
		n += (size_t)snprintf(buf + n, size - n, "%s%" PRIu64 ":%" PRIu64, k ? "," : "",
				      b->lo[k], b->hi[k]);
}

static void dims_text(const uint64_t *v, unsigned nd, char *buf, size_t size)
{
	size_t n = 0;
	buf[0] = '\0';
	for (unsigned k = 0; k < nd && n < size; k++)
		n += (size_t)snprintf(buf + n, size - n, "%s%" PRIu64, k ? "x" : "", v[k]);
}

/* "lo..hi" of a range of count from first, or "-" when empty. */
static void range_text(size_t first, size_t count, char *buf, size_t size)
{
	if (count)
		snprintf(buf, size, "%zu..%zu", first, first + count - 1);
	else
		snprintf(buf, size, "-");
}

static int name_width(const dbg_session *s, size_t from, size_t to, int least)
{
	int w = least;
	for (size_t i = from; i < to; i++)
		w = (int)strlen(s->t.nodes[i].name) > w ? (int)strlen(s->t.nodes[i].name) : w;
	return w;
}

static const char *node_type(const dbg_session *s, const emu_tnode *x, char *buf, size_t size)
{
	if (x->buf < 0)
		return "?";
	return emu_buffer_type(&s->prog.bufs[x->buf], buf, size);
}

static int no_tdfg(dbg_session *s, const char *what)
{
	if (!s->loaded) {
		dbg_error(s, "No program loaded.");
		return -1;
	}
	if (s->tdfg)
		return 0;
	dbg_error(s, "%s: %s is a command stream, not a tDFG: it has no %s.", what, s->prog.path,
		  strcmp(what, "info regions") == 0 ? "regions" : "nodes");
	return -1;
}

int dbg_cmd_info_nodes(dbg_session *s, char *args)
{
	(void)args;
	if (s->valid) /* --tdfg: the nodes the stream's markers name */
		return dbg_valid_info_nodes(s);
	if (no_tdfg(s, "info nodes") < 0)
		return -1;
	const int w = name_width(s, 0, s->t.nnodes, 4);
	printf("%-*s %-8s %-5s %-16s %-10s %-9s %s\n", w, "Node", "Kind", "Type", "Domain",
	       "Wordlines", "Commands", "Defined at");
	for (size_t i = 0; i < s->t.nnodes; i++) {
		const emu_tnode *x = &s->t.nodes[i];
		char type[16], dom[96], wl[32], cmds[48], at[EMU_NAME_MAX + 1100];
		box_text(&x->dom, s->t.regions[x->region].ndims, dom, sizeof dom);
		range_text(x->wl, x->rows, wl, sizeof wl);
		range_text(x->cmd0, x->cmd1 - x->cmd0, cmds, sizeof cmds);
		defined_at(s, x->line, at, sizeof at);
		printf("%-*s %-8s %-5s %-16s %-10s %-9s %s%s\n", w, x->name,
		       emu_tnode_kind_name(x->kind), node_type(s, x, type, sizeof type), dom, wl,
		       cmds, at, x->output ? " (output)" : "");
	}
	return 0;
}

int dbg_cmd_info_regions(dbg_session *s, char *args)
{
	(void)args;
	if (no_tdfg(s, "info regions") < 0)
		return -1;
	printf("%-10s %-7s %-9s %-9s %-6s %-20s %s\n", "Region", "Line", "Shape", "Tile", "Array",
	       "Nodes", "Commands");
	for (size_t i = 0; i < s->t.nregions; i++) {
		const emu_tregion *r = &s->t.regions[i];
		char shape[64], tile[64], nodes[2 * EMU_NAME_MAX + 32], cmds[48];
		dims_text(r->shape, r->ndims, shape, sizeof shape);
		dims_text(r->tile, r->ndims, tile, sizeof tile);
		snprintf(nodes, sizeof nodes, "%s..%s (%zu)", s->t.nodes[r->node0].name,
			 s->t.nodes[r->node1 - 1].name, r->node1 - r->node0);
		range_text(r->cmd0, r->cmd1 - r->cmd0, cmds, sizeof cmds);
		printf("%-10s %-7d %-9s %-9s %-6u %-20s %s\n", r->name, r->line, shape, tile,
		       (unsigned)r->array0, nodes, cmds);
	}
	return 0;
}

/* "b (line 8)", "end" (an input or output lives to the end), "none". */
static void last_use_text(const dbg_session *s, size_t n, char *buf, size_t size)
{
	const uint32_t u = s->t.nodes[n].last_use;
	if (u == UINT32_MAX)
		snprintf(buf, size, "end");
	else if (u == n || u >= s->t.nnodes)
		snprintf(buf, size, "none");
	else
		snprintf(buf, size, "%s (line %d)", s->t.nodes[u].name, s->t.nodes[u].line);
}

/* The region the position is in: the current node's; before the run
 * the first, after it the last. */
static size_t current_region(const dbg_session *s)
{
	const long n = dbg_current_node(s);
	if (n >= 0)
		return s->t.nodes[n].region;
	return s->em && emu_done(s->em) ? s->t.nregions - 1 : 0;
}

static void registers_header(const dbg_session *s, size_t ri)
{
	const emu_tregion *r = &s->t.regions[ri];
	char shape[64], where[EMU_NAME_MAX + 300] = "not running";
	dims_text(r->shape, r->ndims, shape, sizeof shape);
	const long n = dbg_current_node(s);
	if (n >= 0)
		snprintf(where, sizeof where, "at node '%s', command %zu", s->t.nodes[n].name,
			 s->em->pc);
	else if (s->em)
		snprintf(where, sizeof where, "%s", emu_done(s->em) ? "finished" : "between nodes");
	printf("Wordlines of region '%s' (%s:%d), %s, in every array from %u (%s):\n", r->name,
	       s->t.path, r->line, shape, (unsigned)r->array0, where);
}

int dbg_tdfg_registers(dbg_session *s)
{
	const size_t ri = current_region(s);
	const emu_tregion *r = &s->t.regions[ri];
	const int w = name_width(s, r->node0, r->node1, 4);
	registers_header(s, ri);
	printf("  %-*s %-8s %-5s %-10s %-10s %-14s %s\n", w, "Node", "Kind", "Type", "Wordlines",
	       "Defined at", "Last use", "State");
	for (size_t i = r->node0; i < r->node1; i++) {
		const emu_tnode *x = &s->t.nodes[i];
		char type[16], wl[32], line[32], use[EMU_NAME_MAX + 32], state[EMU_NAME_MAX + 160];
		range_text(x->wl, x->rows, wl, sizeof wl);
		snprintf(line, sizeof line, "line %d", x->line);
		last_use_text(s, i, use, sizeof use);
		state_text(s, i, state, sizeof state);
		printf("  %-*s %-8s %-5s %-10s %-10s %-14s %s\n", w, x->name,
		       emu_tnode_kind_name(x->kind), node_type(s, x, type, sizeof type), wl, line, use,
		       state);
	}
	const unsigned W = s->prog.geom.wordlines;
	if (s->prog.scratch < W)
		printf("  wl %u..%u: scratch (temporaries of the micro-programs)\n",
		       (unsigned)s->prog.scratch, W - 1);
	return 0;
}

/* ---- list ---- */

/* A line number or a node name: its line.  0, or -1 with an error. */
static int list_place(dbg_session *s, const char *text, int nlines, int *line)
{
	uint64_t v;
	if (*text == '*' || *text == ':' || strchr(text, ':')) { /* a location */
		dbg_location loc;
		if (dbg_parse_location(s, "list", text, &loc) < 0)
			return -1;
		const long n = loc.node >= 0 ? loc.node : dbg_node_of(s, loc.cmd);
		*line = n >= 0 ? s->t.nodes[n].line : 1;
		return 0;
	}
	if (dbg_parse_u64(text, &v)) {
		if (v >= 1 && v <= (uint64_t)nlines) {
			*line = (int)v;
			return 0;
		}
		dbg_error(s, "Line number %s out of range; \"%s\" has %d lines.", text, s->t.path,
			  nlines);
		return -1;
	}
	const long n = dbg_node_find(s, text, strlen(text));
	if (n >= 0) {
		*line = s->t.nodes[n].line;
		return 0;
	}
	const char *near = dbg_node_suggest(s, text);
	dbg_error(s, "list: \"%s\" is not a line number or a node of %s.%s%s%s", text, s->t.path,
		  near ? "  Did you mean \"" : "", near ? near : "", near ? "\"?" : "");
	return -1;
}

/* The line the listing centres on without an argument: the level
 * `frame` selected, else the current node's. */
static int list_centre(const dbg_session *s)
{
	int region;
	const long sel = dbg_frame_node(s, &region);
	if (sel >= 0)
		return s->t.nodes[sel].line;
	if (region >= 0)
		return s->t.regions[region].line;
	const long n = dbg_current_node(s);
	if (n >= 0)
		return s->t.nodes[n].line;
	if (s->em && emu_done(s->em))
		return s->t.nodes[s->t.nnodes - 1].line;
	return s->t.nregions ? s->t.regions[0].line : 1;
}

/* "A,B", "LINE", "NODE" or nothing: the lines from..to to show. */
static int list_range(dbg_session *s, char *args, int nlines, int *from, int *to)
{
	char *comma = strchr(args, ',');
	int a, b;
	if (comma) {
		*comma = '\0';
		if (list_place(s, dbg_trim(args), nlines, &a) < 0 ||
		    list_place(s, dbg_trim(comma + 1), nlines, &b) < 0)
			return -1;
		if (b < a) {
			dbg_error(s, "list: the range %d,%d goes backwards.", a, b);
			return -1;
		}
		*from = a;
		*to = b;
		return 0;
	}
	int centre = list_centre(s);
	if (*args && list_place(s, args, nlines, &centre) < 0)
		return -1;
	const int size = s->listsize ? (int)s->listsize : 10, before = size / 2;
	*from = centre > before ? centre - before : 1;
	*to = *from + size - 1;
	return 0;
}

/* Enter after a listing shows the lines after it, while the machine has
 * not moved. */
static bool list_continues(const dbg_session *s)
{
	return s->repeating && s->list_next > 0 && s->list_since == s->since &&
	       s->list_pc == (s->em ? s->em->pc : 0) && s->list_upc == (s->em ? s->em->upc : 0);
}

int dbg_tdfg_list(dbg_session *s, char *args)
{
	const int nlines = source_lines(s);
	int from, to;
	args = dbg_trim(args);
	if (list_continues(s)) {
		from = s->list_next;
		to = from + (s->listsize ? (int)s->listsize : 10) - 1;
		if (from > nlines) {
			dbg_error(s, "Line number %d out of range; \"%s\" has %d lines.", from,
				  s->t.path, nlines);
			return -1;
		}
	} else if (list_range(s, args, nlines, &from, &to) < 0) {
		return -1;
	}
	to = to < nlines ? to : nlines;
	const long cur = dbg_current_node(s);
	const int mark = cur >= 0 ? s->t.nodes[cur].line : 0;
	for (int l = from; l <= to; l++) {
		size_t len = 0;
		const char *text = emu_tdfg_line(&s->t, l, &len);
		printf("%s%-4d %.*s\n", l == mark ? "=> " : "   ", l, text ? (int)len : 0,
		       text ? text : "");
	}
	s->list_next = to + 1;
	s->list_since = s->since;
	s->list_pc = s->em ? s->em->pc : 0;
	s->list_upc = s->em ? s->em->upc : 0;
	return 0;
}
