/* SPDX-License-Identifier: MIT */
/*
 * breaks.c: breakpoints and watchpoints of infsdb.
 *
 * Location breakpoints (a command index, a source line, an opcode) stop
 * the machine before the command, as gdb stops before a line; a cycle
 * breakpoint stops after the micro-op that reaches the count; a
 * watchpoint stops after the micro-op that changed its expression's value.
 * On a tDFG program a node breakpoint stops before the node's first
 * command, or (`end`) once its last command is done; a source line of
 * the tDFG names the node defined on it (nodes.c).
 */
#include "config.h"

#include <ctype.h>
#include <inttypes.h>
#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbg.h"

static dbg_bp *new_bp(dbg_session *s, dbg_bp_kind kind, uint64_t arg)
{
	dbg_bp *grown = realloc(s->bps, (s->nbps + 1) * sizeof *grown);
	if (!grown) {
		dbg_error(s, "out of memory");
		return NULL;
	}
	s->bps = grown;
	dbg_bp *bp = &s->bps[s->nbps++];
	memset(bp, 0, sizeof *bp);
	bp->num = ++s->next_bp;
	bp->kind = kind;
	bp->arg = arg;
	bp->enabled = true;
	s->last_bp = bp->num; /* `commands` alone: this one */
	return bp;
}

dbg_bp *dbg_bp_new(dbg_session *s, dbg_bp_kind kind, uint64_t arg)
{
	return new_bp(s, kind, arg);
}

static void free_bp_fields(dbg_bp *bp)
{
	free(bp->cond);
	free(bp->expr);
	for (size_t i = 0; i < bp->ncmds; i++)
		free(bp->cmds[i]);
	free(bp->cmds);
}

static void remove_bp(dbg_session *s, size_t i)
{
	free_bp_fields(&s->bps[i]);
	memmove(&s->bps[i], &s->bps[i + 1], (s->nbps - i - 1) * sizeof *s->bps);
	s->nbps--;
}

void dbg_bp_free_all(dbg_session *s)
{
	for (size_t i = 0; i < s->nbps; i++)
		free_bp_fields(&s->bps[i]);
	free(s->bps);
	s->bps = NULL;
	s->nbps = 0;
}

void dbg_bp_reset_watch(dbg_session *s)
{
	for (size_t i = 0; i < s->nbps; i++) {
		dbg_bp *bp = &s->bps[i];
		bp->old_valid = false;
		if (bp->kind == DBG_BP_WATCH) {
			char err[256];
			dbg_value v;
			if (dbg_eval_quiet(s, bp->expr, &v, err, sizeof err) == 0) {
				bp->old = v;
				bp->old_valid = true;
			}
		}
	}
}

/* ---- setting ---- */

/* Split "LOCATION if COND": returns the condition (or NULL) and ends the
 * location before " if ". */
static char *split_condition(char *args)
{
	for (char *p = args; (p = strstr(p, "if")) != NULL; p += 2) {
		bool starts = p == args || isspace((unsigned char)p[-1]);
		bool ends = !p[2] || isspace((unsigned char)p[2]) || p[2] == '(';
		if (starts && ends) {
			*p = '\0';
			return dbg_trim(p + 2);
		}
	}
	return NULL;
}

/* A move kind as the stream spells it (doc/FORMAT.md, "Moves"): mv.intra,
 * mv.inter, mv.bcast, mv.const, sync; "mv" is any move. */
static bool move_kind(const char *loc, uint64_t *arg)
{
	if (strcmp(loc, "mv") == 0) {
		*arg = EMU_MOVE_KINDS;
		return true;
	}
	for (unsigned k = 0; k < EMU_MOVE_KINDS; k++)
		if (strcmp(loc, emu_move_kind_name(k)) == 0) {
			*arg = k;
			return true;
		}
	return false;
}

/* Strip a last word `word` from loc; true if it was there. */
static bool strip_last_word(char *loc, const char *word)
{
	const size_t n = strlen(loc), w = strlen(word);
	if (n <= w || strcmp(loc + n - w, word) != 0 || !isspace((unsigned char)loc[n - w - 1]))
		return false;
	loc[n - w] = '\0';
	dbg_trim(loc);
	return true;
}

/* A tDFG line (LINE, :LINE, FILE:LINE) as a node: -1 with an error. */
static long node_at_line(dbg_session *s, char *loc)
{
	char *colon = strrchr(loc, ':');
	uint64_t line;
	if (colon && colon != loc) {
		*colon = '\0';
		const char *base = strrchr(s->t.path, '/');
		if (strcmp(loc, s->t.path) != 0 && !(base && strcmp(loc, base + 1) == 0)) {
			dbg_error(s, "break: no source file \"%s\": the program is %s.", loc, s->t.path);
			return -1;
		}
	}
	const char *num = colon ? colon + 1 : loc;
	if (!dbg_parse_u64(num, &line) || line == 0) {
		dbg_error(s, "break: expected a line number, got \"%s\".", num);
		return -1;
	}
	const long n = dbg_node_on_line(s, line);
	if (n < 0)
		dbg_error(s, "break: line %" PRIu64 " of %s defines no node (\"info nodes\" lists "
			  "their lines).", line, s->t.path);
	return n;
}

static int no_such_node(dbg_session *s, const char *name)
{
	const char *near = dbg_node_suggest(s, name);
	dbg_error(s, "break: no node \"%s\" in %s.%s%s%s", name, s->t.path,
		  near ? "  Did you mean \"" : "", near ? near : "", near ? "\"?" : "");
	return -1;
}

/* --tdfg: [node] NAME [end], a node of the tDFG the stream's markers
 * name (valid.c).  1 if loc is one, 0 if not (an opcode, ...), -1 on an
 * error.  *arg is the node, with bit 63 for `end`. */
static int marker_location(dbg_session *s, char *loc, bool named, dbg_bp_kind *kind,
			   uint64_t *arg)
{
	const bool end = strip_last_word(loc, "end");
	char *what = named ? dbg_trim(loc + 4) : loc;
	size_t nmarks;
	const long n = dbg_valid_find(s, what, strlen(what), &nmarks);
	if (n < 0 && !named && !end)
		return 0;
	if (n < 0) {
		dbg_error(s, "break: no node \"%s\" in %s (--tdfg).", what, s->vt.path);
		return -1;
	}
	bool computed = false; /* a marker whose window holds commands */
	for (size_t pc = 0; pc <= s->prog.ncmds && !computed; pc++)
		computed = dbg_valid_mark_hit(s, n, false, pc);
	if (!computed) {
		dbg_error(s, "break: node '%s' (%s:%d) %s in %s: there is no command to stop %s.",
			  s->vt.nodes[n].name, s->vt.path, s->vt.nodes[n].line,
			  nmarks ? "has only markers with no command before them" : "has no marker",
			  s->prog.path, end ? "after" : "before");
		return -1;
	}
	*kind = DBG_BP_MARK;
	*arg = (uint64_t)n | (end ? UINT64_C(1) << 63 : 0);
	return 1;
}

/* A tDFG location: [node] NAME, LINE, :LINE or FILE:LINE, with `end`
 * after it for the node's end.  1 if loc is one (kind, arg set), 0 if
 * it is not (an opcode, a move kind, ...), -1 on an error. */
static int node_location(dbg_session *s, char *loc, dbg_bp_kind *kind, uint64_t *arg)
{
	const bool named = strncmp(loc, "node", 4) == 0 && isspace((unsigned char)loc[4]);
	if (!s->tdfg && s->valid)
		return marker_location(s, loc, named, kind, arg);
	if (!s->tdfg) {
		if (named)
			dbg_error(s, "break node: %s is a command stream, not a tDFG: it has no nodes.",
				  s->prog.path);
		return named ? -1 : 0;
	}
	const bool end = strip_last_word(loc, "end");
	char *what = named ? dbg_trim(loc + 4) : loc;
	long n = dbg_node_find(s, what, strlen(what));
	if (n < 0 && !named && (isdigit((unsigned char)*what) || strchr(what, ':')))
		n = node_at_line(s, what);
	else if (n < 0 && (named || end))
		return no_such_node(s, what);
	else if (n < 0)
		return 0;
	if (n < 0)
		return -1;
	const emu_tnode *x = &s->t.nodes[n];
	if (x->cmd0 == x->cmd1) {
		dbg_error(s, "break: node '%s' (%s:%d) is %s: it has no command to stop %s.", x->name,
			  s->t.path, x->line, x->kind == EMU_TN_INPUT
			  ? "an input, in memory before its region runs" : "lowered to no command",
			  end ? "after" : "before");
		return -1;
	}
	*kind = end ? DBG_BP_NODE_END : DBG_BP_NODE;
	*arg = (uint64_t)n;
	return 1;
}

/* Parse LOCATION into kind and arg.  0, or -1 with an error reported. */
static int parse_location(dbg_session *s, char *loc, dbg_bp_kind *kind, uint64_t *arg)
{
	const int node = node_location(s, loc, kind, arg);
	if (node)
		return node < 0 ? -1 : 0;
	if (*loc == '*') {
		*kind = DBG_BP_CMD;
		if (dbg_parse_u64(loc + 1, arg) && *arg < s->prog.ncmds)
			return 0;
		dbg_error(s, "break: no command %s: the program has commands 0 to %zu.",
			  loc + 1, s->prog.ncmds ? s->prog.ncmds - 1 : 0);
		return -1;
	}
	char *colon = strrchr(loc, ':');
	if (strncmp(loc, "cycle", 5) == 0 && (!loc[5] || isspace((unsigned char)loc[5]))) {
		*kind = DBG_BP_CYCLE;
		if (dbg_parse_u64(dbg_trim(loc + 5), arg) && *arg > 0)
			return 0;
		dbg_error(s, "break cycle: expected a positive cycle count, got \"%s\".",
			  dbg_trim(loc + 5));
		return -1;
	}
	if (colon) {
		*kind = DBG_BP_LINE;
		const char *base = strrchr(s->prog.path, '/');
		const size_t n = (size_t)(colon - loc);
		if (n && !(strlen(s->prog.path) == n && strncmp(loc, s->prog.path, n) == 0) &&
		    !(base && strlen(base + 1) == n && strncmp(loc, base + 1, n) == 0)) {
			dbg_error(s, "break: no source file \"%.*s\": the program is %s.", (int)n, loc,
				  s->prog.path);
			return -1;
		}
		if (dbg_parse_u64(colon + 1, arg) && *arg > 0)
			return 0;
		dbg_error(s, "break: expected a line number after ':', got \"%s\".", colon + 1);
		return -1;
	}
	if (isdigit((unsigned char)*loc)) {
		*kind = DBG_BP_CMD;
		if (dbg_parse_u64(loc, arg) && *arg < s->prog.ncmds)
			return 0;
		dbg_error(s, "break: no command %s: the program has commands 0 to %zu.",
			  loc, s->prog.ncmds ? s->prog.ncmds - 1 : 0);
		return -1;
	}
	if (move_kind(loc, arg)) {
		*kind = DBG_BP_MOVE;
		return 0;
	}
	int op = isa_lookup(loc);
	if (op < 0 && s->tdfg) {
		const char *near = dbg_node_suggest(s, loc);
		dbg_error(s, "break: \"%s\" is not a node, a line, *N, an opcode, a move kind "
			  "(mv, mv.intra, mv.inter, mv.bcast, mv.const, sync) or \"cycle N\".%s%s%s",
			  loc, near ? "  Did you mean \"" : "", near ? near : "", near ? "\"?" : "");
		return -1;
	}
	if (op < 0) {
		dbg_error(s, "break: \"%s\" is not a command index, :LINE, an opcode, a move kind "
			  "(mv, mv.intra, mv.inter, mv.bcast, mv.const, sync) or \"cycle N\".", loc);
		return -1;
	}
	*kind = DBG_BP_OP;
	*arg = (uint64_t)op;
	return 0;
}

/* A line breakpoint must name a line that holds a command. */
static int check_line(dbg_session *s, uint64_t line)
{
	for (size_t i = 0; i < s->prog.ncmds; i++)
		if ((uint64_t)s->prog.cmds[i].line == line)
			return 0;
	dbg_error(s, "break: line %" PRIu64 " of %s holds no command.", line, s->prog.path);
	return -1;
}

static void describe_bp(const dbg_session *s, const dbg_bp *bp, char *buf, size_t size)
{
	/* on a tDFG: the node of a command, or the node of a node breakpoint */
	const bool of_node = bp->kind == DBG_BP_NODE || bp->kind == DBG_BP_NODE_END;
	const long node = bp->kind == DBG_BP_CMD ? dbg_node_of(s, bp->arg)
						 : of_node ? (long)bp->arg : -1;
	char label[EMU_NAME_MAX + 300] = "";
	if (node >= 0)
		dbg_node_label(s, (size_t)node, label, sizeof label);
	switch (bp->kind) {
	case DBG_BP_CMD:
		if (node >= 0)
			snprintf(buf, size, "command %" PRIu64 ", in %s", bp->arg, label);
		else
			snprintf(buf, size, "command %" PRIu64, bp->arg);
		break;
	case DBG_BP_NODE:
		snprintf(buf, size, "%s, before command %zu", label, s->t.nodes[bp->arg].cmd0);
		break;
	case DBG_BP_NODE_END:
		snprintf(buf, size, "end of %s, after command %zu", label,
			 s->t.nodes[bp->arg].cmd1 - 1);
		break;
	case DBG_BP_LINE:
		snprintf(buf, size, "%s:%" PRIu64, s->prog.path, bp->arg);
		break;
	case DBG_BP_OP:
		snprintf(buf, size, "opcode %s", isa_info_of((unsigned)bp->arg)->name);
		break;
	case DBG_BP_MOVE:
		snprintf(buf, size, "%s", bp->arg == EMU_MOVE_KINDS ? "any move"
					  : emu_move_kind_name((unsigned)bp->arg));
		break;
	case DBG_BP_CYCLE:
		snprintf(buf, size, "cycle %" PRIu64, bp->arg);
		break;
	case DBG_BP_TARGET:
		snprintf(buf, size, "%s", bp->tbp.what);
		break;
	case DBG_BP_MARK:
		dbg_valid_mark_label(s, (long)(bp->arg & ~(UINT64_C(1) << 63)), bp->arg >> 63, buf,
				     size);
		break;
	case DBG_BP_WATCH:
	case DBG_BP_RWATCH:
	case DBG_BP_AWATCH:
		snprintf(buf, size, "%s", bp->expr);
		break;
	}
}

static const char *type_name(const dbg_bp *bp)
{
	switch (bp->kind) {
	case DBG_BP_WATCH: return "watchpoint";
	case DBG_BP_RWATCH: return "read watch";
	case DBG_BP_AWATCH: return "acc watch";
	default: return "breakpoint";
	}
}

static int set_break(dbg_session *s, char *args, bool temporary)
{
	char *cond = split_condition(args);
	char *loc = dbg_trim(args);
	dbg_bp_kind kind;
	uint64_t arg;
	if (!s->loaded) {
		dbg_error(s, "No program loaded.");
		return -1;
	}
	if (!*loc) {
		dbg_error(s, s->tdfg ? "break: expected a location (NODE, LINE, *N, OPCODE, MOVE-KIND or cycle N)."
				     : "break: expected a location (N, :LINE, OPCODE, MOVE-KIND or cycle N).");
		return -1;
	}
	if (parse_location(s, loc, &kind, &arg) < 0 ||
	    (kind == DBG_BP_LINE && check_line(s, arg) < 0))
		return -1;
	if (cond && !*cond) {
		dbg_error(s, "break: \"if\" must be followed by an expression.");
		return -1;
	}
	if (cond && dbg_expr_check(s, cond) < 0)
		return -1;
	dbg_bp *bp = new_bp(s, kind, arg);
	if (!bp)
		return -1;
	bp->temporary = temporary;
	bp->cond = cond ? strdup(cond) : NULL;
	char where[300];
	describe_bp(s, bp, where, sizeof where);
	printf("%s %u at %s\n", temporary ? "Temporary breakpoint" : "Breakpoint", bp->num, where);
	return 0;
}

int dbg_cmd_break(dbg_session *s, char *args)
{
	return set_break(s, args, false);
}

int dbg_cmd_tbreak(dbg_session *s, char *args)
{
	return set_break(s, args, true);
}

/* ---- rbreak ---- */

/* A breakpoint of kind, arg, announced as break announces it. */
static int rbreak_one(dbg_session *s, dbg_bp_kind kind, uint64_t arg, unsigned *made)
{
	dbg_bp *bp = new_bp(s, kind, arg);
	if (!bp)
		return -1;
	char where[300];
	describe_bp(s, bp, where, sizeof where);
	printf("Breakpoint %u at %s\n", bp->num, where);
	(*made)++;
	return 0;
}

/* The stream's (or a tDFG's lowered stream's) mnemonics that match re:
 * one breakpoint by opcode each (add.u4 and add.f16 are one, "add"),
 * and one by move kind. */
static int rbreak_mnemonics(dbg_session *s, const regex_t *re, unsigned *made)
{
	bool moves[EMU_MOVE_KINDS] = { false };
	for (size_t i = 0; i < s->prog.ncmds; i++) {
		const emu_cmd *c = &s->prog.cmds[i];
		if (c->kind == EMU_CMD_MOVE) {
			if (c->mv.kind < EMU_MOVE_KINDS)
				moves[c->mv.kind] = true;
			continue;
		}
		if (c->kind != EMU_CMD_COMPUTE)
			continue;
		const char *name = isa_info_of(c->c.op)->name;
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = s->prog.cmds[j].kind == EMU_CMD_COMPUTE &&
			       strcmp(isa_info_of(s->prog.cmds[j].c.op)->name, name) == 0;
		if (!seen && regexec(re, name, 0, NULL, 0) == 0 &&
		    rbreak_one(s, DBG_BP_OP, c->c.op, made) < 0)
			return -1;
	}
	for (unsigned k = 0; k < EMU_MOVE_KINDS; k++)
		if (moves[k] && regexec(re, emu_move_kind_name(k), 0, NULL, 0) == 0 &&
		    rbreak_one(s, DBG_BP_MOVE, k, made) < 0)
			return -1;
	return 0;
}

/* Target mode: every line of the target's source whose text matches re
 * and that break_parse takes as FILE:LINE (a line with no unit to stop
 * at is passed over). */
static int rbreak_lines(dbg_session *s, const regex_t *re, unsigned *made)
{
	const char *path = s->ops->source ? s->ops->source(s->tg) : NULL;
	FILE *f = path ? fopen(path, "r") : NULL;
	if (!f) {
		dbg_error(s, "rbreak: %s", path ? "the program's source cannot be read."
			  : "this program has no source lines to match.");
		return -1;
	}
	char line[4096];
	int rc = 0;
	unsigned matched = 0;
	for (unsigned n = 1; rc == 0 && fgets(line, sizeof line, f); n++) {
		line[strcspn(line, "\n")] = '\0';
		if (regexec(re, line, 0, NULL, 0) != 0)
			continue;
		matched++;
		char spec[4200];
		snprintf(spec, sizeof spec, "%s:%u", path, n);
		tgt_bp tbp;
		diag d;
		diag_clear(&d);
		if (s->ops->break_parse(s->tg, spec, &tbp, &d) != TGT_OK)
			continue;
		dbg_bp *bp = new_bp(s, DBG_BP_TARGET, 0);
		if (!bp) {
			rc = -1;
			break;
		}
		bp->tbp = tbp;
		printf("Breakpoint %u at %s\n", bp->num, tbp.what);
		(*made)++;
	}
	fclose(f);
	if (rc == 0 && matched && !*made)
		printf("%u line%s of %s match%s, but none holds a unit to stop at: no breakpoint "
		       "set.\n", matched, matched == 1 ? "" : "s", path, matched == 1 ? "es" : "");
	if (matched && !*made)
		*made = UINT_MAX; /* reported */
	return rc;
}

int dbg_cmd_rbreak(dbg_session *s, char *args)
{
	char *pattern = dbg_trim(args);
	if (!s->loaded && !s->ops) {
		dbg_error(s, "No program loaded.");
		return -1;
	}
	if (!*pattern) {
		dbg_error(s, "rbreak: expected a regular expression, e.g. \"rbreak ^mul\".");
		return -1;
	}
	regex_t re;
	const int bad = regcomp(&re, pattern, REG_NOSUB);
	if (bad) {
		char why[128];
		regerror(bad, &re, why, sizeof why);
		dbg_error(s, "rbreak: \"%s\" is not a regular expression: %s.", pattern, why);
		return -1;
	}
	unsigned made = 0;
	int rc = 0;
	if (s->ops) {
		rc = rbreak_lines(s, &re, &made);
	} else {
		/* a tDFG's nodes first, as gdb's functions, then the mnemonics */
		for (size_t n = 0; s->tdfg && rc == 0 && n < s->t.nnodes; n++)
			if (s->t.nodes[n].cmd0 < s->t.nodes[n].cmd1 &&
			    regexec(&re, s->t.nodes[n].name, 0, NULL, 0) == 0)
				rc = rbreak_one(s, DBG_BP_NODE, n, &made);
		if (rc == 0)
			rc = rbreak_mnemonics(s, &re, &made);
	}
	regfree(&re);
	if (rc == 0 && !made) /* gdb says nothing; a line says why nothing stops */
		printf("No %s matches \"%s\": no breakpoint set.\n",
		       s->ops ? "source line" : s->tdfg ? "node or command mnemonic"
		       : "command mnemonic", pattern);
	return rc;
}

/* "EXPR [if COND]": the condition checked, or -1 with an error. */
static int watch_condition(dbg_session *s, const char *name, char *args, char **expr,
			   char **cond)
{
	*cond = split_condition(args);
	*expr = dbg_trim(args);
	if (!**expr) {
		dbg_error(s, "%s: expected an expression.", name);
		return -1;
	}
	if (*cond && !**cond) {
		dbg_error(s, "%s: \"if\" must be followed by an expression.", name);
		return -1;
	}
	if (dbg_need_machine(s) < 0 || (*cond && dbg_expr_check(s, *cond) < 0))
		return -1;
	return 0;
}

int dbg_watch_set(dbg_session *s, const char *expr, const char *cond, dbg_value v)
{
	dbg_bp *bp = new_bp(s, DBG_BP_WATCH, 0);
	if (!bp)
		return -1;
	bp->expr = strdup(expr);
	bp->cond = cond ? strdup(cond) : NULL;
	if (!bp->expr || (cond && !bp->cond)) {
		/* not made after all: the last breakpoint, taken back */
		free(bp->expr);
		free(bp->cond);
		s->nbps--;
		s->next_bp--;
		dbg_error(s, "watch: out of memory");
		return -1;
	}
	bp->old = v;
	bp->old_valid = true;
	printf("Watchpoint %u: %s\n", bp->num, expr);
	return 0;
}

int dbg_cmd_watch(dbg_session *s, char *args)
{
	char *expr, *cond;
	dbg_value v;
	if (watch_condition(s, "watch", args, &expr, &cond) < 0 || dbg_eval(s, expr, &v) < 0)
		return -1;
	return dbg_watch_set(s, expr, cond, v);
}

/* rwatch and awatch watch one element: where its bits are is known, so
 * the micro-ops that sense or write them are too. */
static int set_access_watch(dbg_session *s, char *args, dbg_bp_kind kind, const char *name)
{
	char *expr, *cond;
	const emu_buffer *b;
	uint64_t i;
	if (watch_condition(s, name, args, &expr, &cond) < 0 ||
	    dbg_eval_element(s, expr, &b, &i) < 0)
		return -1;
	dbg_bp *bp = new_bp(s, kind, (uint64_t)(b - s->prog.bufs));
	if (!bp)
		return -1;
	bp->elem = i;
	bp->expr = strdup(expr);
	bp->cond = cond ? strdup(cond) : NULL;
	bp->old = dbg_value_of_element(s, b, i);
	bp->old_valid = true;
	printf("Hardware %s watchpoint %u: %s\n", kind == DBG_BP_RWATCH ? "read" : "access (read/write)",
	       bp->num, expr);
	return 0;
}

int dbg_cmd_rwatch(dbg_session *s, char *args)
{
	return set_access_watch(s, args, DBG_BP_RWATCH, "rwatch");
}

int dbg_cmd_awatch(dbg_session *s, char *args)
{
	return set_access_watch(s, args, DBG_BP_AWATCH, "awatch");
}

/* ---- listing, deleting, enabling ---- */

/* A breakpoint's command lines as gdb lists them: indented, two more
 * inside each block. */
static void print_commands(const dbg_bp *bp)
{
	int depth = 0;
	for (size_t i = 0; i < bp->ncmds; i++) {
		const char *l = bp->cmds[i];
		const bool closes = strcmp(l, "end") == 0 || strcmp(l, "else") == 0;
		if (closes && depth > 0)
			depth--;
		printf("        %*s%s\n", 2 * depth, "", l);
		const size_t w = strcspn(l, " \t");
		if (strcmp(l, "else") == 0 ||
		    ((w == 2 && strncmp(l, "if", 2) == 0) || (w == 5 && strncmp(l, "while", 5) == 0)))
			depth++;
	}
}

int dbg_cmd_info_breakpoints(dbg_session *s, char *args)
{
	(void)args;
	if (s->nbps == 0) {
		printf("No breakpoints or watchpoints.\n");
		return 0;
	}
	printf("Num  Type        Disp Enb What\n");
	for (size_t i = 0; i < s->nbps; i++) {
		const dbg_bp *bp = &s->bps[i];
		char where[300];
		describe_bp(s, bp, where, sizeof where);
		printf("%-4u %-11s %-4s %-3s %s\n", bp->num, type_name(bp),
		       bp->temporary ? "del" : bp->once ? "dis" : "keep", bp->enabled ? "y" : "n",
		       where);
		if (bp->cond)
			printf("\tstop only if %s\n", bp->cond);
		if (bp->hits)
			printf("\thit %" PRIu64 " time%s\n", bp->hits, bp->hits == 1 ? "" : "s");
		if (bp->ignore)
			printf("\tWill ignore next %" PRIu64 " crossing%s of breakpoint.\n", bp->ignore,
			       bp->ignore == 1 ? "" : "s");
		if (bp->count)
			printf("\tdisable after %" PRIu64 " more stop%s\n", bp->count,
			       bp->count == 1 ? "" : "s");
		print_commands(bp);
	}
	return 0;
}

static dbg_bp *find_bp(dbg_session *s, uint64_t num, size_t *index)
{
	for (size_t i = 0; i < s->nbps; i++)
		if (s->bps[i].num == num) {
			*index = i;
			return &s->bps[i];
		}
	return NULL;
}

dbg_bp *dbg_bp_find(dbg_session *s, uint64_t num)
{
	size_t i;
	return find_bp(s, num, &i);
}

/* What for_each_number does to each breakpoint: enable, disable,
 * delete, `enable once`, `enable delete`, `enable count C`. */
enum { BP_ENABLE, BP_DISABLE, BP_DELETE, BP_ONCE, BP_ENABLE_DELETE, BP_COUNT };

/* Apply op (as for_each_number's) to breakpoint num. */
static int apply_one(dbg_session *s, uint64_t num, int op, uint64_t count, bool quiet)
{
	size_t i;
	dbg_bp *bp = find_bp(s, num, &i);
	if (!bp) {
		if (!quiet)
			dbg_error(s, "No breakpoint number %" PRIu64 ".", num);
		return quiet ? 0 : -1;
	}
	if (op == BP_DELETE) {
		remove_bp(s, i);
		return 0;
	}
	bp->enabled = op != BP_DISABLE;
	bp->once = op == BP_ONCE;
	if (op == BP_ENABLE_DELETE)
		bp->temporary = true;
	bp->count = op == BP_COUNT ? count : 0;
	return 0;
}

/* One word: N, or a range N-M as gdb takes (the numbers in it that
 * exist; none is an error). */
static int each_in(dbg_session *s, const char *w, int op, uint64_t count)
{
	uint64_t a, b;
	const char *dash = strchr(w, '-');
	char first[32];
	if (!dash && dbg_parse_u64(w, &a))
		return apply_one(s, a, op, count, false);
	if (!dash) {
		dbg_error(s, "No breakpoint number %s.", w);
		return -1;
	}
	snprintf(first, sizeof first, "%.*s", (int)(dash - w < 31 ? dash - w : 31), w);
	if (!dbg_parse_u64(first, &a) || !dbg_parse_u64(dash + 1, &b) || a == 0) {
		dbg_error(s, "Bad breakpoint number '%s': expected N or N-M.", w);
		return -1;
	}
	if (b < a) {
		dbg_error(s, "Inverted breakpoint range at '%s'.", w);
		return -1;
	}
	size_t applied = 0;
	for (size_t i = s->nbps; i-- > 0;)
		if (s->bps[i].num >= a && s->bps[i].num <= b) {
			apply_one(s, s->bps[i].num, op, count, true);
			applied++;
		}
	if (applied)
		return 0;
	dbg_error(s, "No breakpoint number in %s.", w);
	return -1;
}

/* `condition N [EXPR]` */
int dbg_cmd_condition(dbg_session *s, char *args)
{
	args = dbg_trim(args);
	size_t n = strcspn(args, " \t");
	char *expr = dbg_trim(args + n);
	args[n] = '\0';
	uint64_t num;
	size_t i;
	if (!*args) {
		dbg_error(s, "Argument required (breakpoint number).");
		return -1;
	}
	dbg_bp *bp = dbg_parse_u64(args, &num) ? find_bp(s, num, &i) : NULL;
	if (!bp) {
		dbg_error(s, "No breakpoint number %s.", args);
		return -1;
	}
	if (*expr && dbg_expr_check(s, expr) < 0)
		return -1;
	char *copy = *expr ? strdup(expr) : NULL;
	if (*expr && !copy) {
		dbg_error(s, "out of memory");
		return -1;
	}
	free(bp->cond);
	bp->cond = copy;
	if (!copy)
		printf("Breakpoint %u now unconditional.\n", bp->num);
	return 0;
}

/* `ignore N COUNT` */
int dbg_cmd_ignore(dbg_session *s, char *args)
{
	char *save = NULL, *w = strtok_r(args, " \t", &save);
	char *count = strtok_r(NULL, " \t", &save);
	uint64_t num, c;
	size_t i;
	if (!w || !count || strtok_r(NULL, " \t", &save)) {
		dbg_error(s, "ignore: expected a breakpoint number and a count (ignore N COUNT).");
		return -1;
	}
	dbg_bp *bp = dbg_parse_u64(w, &num) ? find_bp(s, num, &i) : NULL;
	if (!bp) {
		dbg_error(s, "No breakpoint number %s.", w);
		return -1;
	}
	if (!dbg_parse_u64(count, &c)) {
		dbg_error(s, "ignore: expected a count of 0 or more, got \"%s\".", count);
		return -1;
	}
	bp->ignore = c;
	if (c == 0)
		printf("Will stop next time breakpoint %u is reached.\n", bp->num);
	else
		printf("Will ignore next %" PRIu64 " crossing%s of breakpoint %u.\n", c,
		       c == 1 ? "" : "s", bp->num);
	return 0;
}

/* Apply op to each number in args (every breakpoint without args). */
static int for_each_number(dbg_session *s, char *args, int op, uint64_t count)
{
	args = dbg_trim(args);
	if (!*args) {
		for (size_t i = s->nbps; i-- > 0;)
			apply_one(s, s->bps[i].num, op, count, true);
		return 0;
	}
	int rc = 0;
	for (char *save = NULL, *w = strtok_r(args, " \t", &save); w;
	     w = strtok_r(NULL, " \t", &save))
		if (each_in(s, w, op, count) < 0)
			rc = -1;
	return rc;
}

/* A first word of args that is a prefix (at least min letters) of
 * word: true, and args moves past it. */
static bool take_word(char **args, const char *word, size_t min)
{
	char *a = dbg_trim(*args);
	const size_t n = strcspn(a, " \t");
	if (n < min || n > strlen(word) || strncmp(a, word, n) != 0)
		return false;
	*args = dbg_trim(a + n);
	return true;
}

int dbg_cmd_enable(dbg_session *s, char *args)
{
	if (take_word(&args, "display", 1))
		return dbg_display_enable(s, args, true);
	if (take_word(&args, "breakpoints", 1))
		return for_each_number(s, args, BP_ENABLE, 0);
	if (take_word(&args, "once", 1))
		return for_each_number(s, args, BP_ONCE, 0);
	if (take_word(&args, "delete", 1))
		return for_each_number(s, args, BP_ENABLE_DELETE, 0);
	if (take_word(&args, "count", 1)) {
		const size_t n = strcspn(args, " \t");
		char count[32];
		snprintf(count, sizeof count, "%.*s", (int)(n < 31 ? n : 31), args);
		uint64_t c;
		if (!dbg_parse_u64(count, &c) || c == 0 || !*dbg_trim(args + n)) {
			dbg_error(s, "enable count: expected a positive count and breakpoint numbers "
				  "(enable count COUNT N...).");
			return -1;
		}
		return for_each_number(s, args + n, BP_COUNT, c);
	}
	return for_each_number(s, args, BP_ENABLE, 0);
}

int dbg_cmd_disable(dbg_session *s, char *args)
{
	if (take_word(&args, "display", 1))
		return dbg_display_enable(s, args, false);
	take_word(&args, "breakpoints", 1);
	return for_each_number(s, args, BP_DISABLE, 0);
}

int dbg_cmd_delete(dbg_session *s, char *args)
{
	if (take_word(&args, "display", 1))
		return dbg_cmd_undisplay(s, args);
	if (take_word(&args, "checkpoint", 10))
		return dbg_delete_checkpoint(s, args);
	take_word(&args, "breakpoints", 1);
	return for_each_number(s, args, BP_DELETE, 0);
}

/* ---- hitting ---- */

bool dbg_bp_need_uops(const dbg_session *s)
{
	for (size_t i = 0; i < s->nbps; i++)
		if (s->bps[i].enabled &&
		    (s->bps[i].kind == DBG_BP_WATCH || s->bps[i].kind == DBG_BP_CYCLE ||
		     s->bps[i].kind == DBG_BP_RWATCH || s->bps[i].kind == DBG_BP_AWATCH))
			return true;
	return false;
}

/* Does bp's location or cycle match after this micro-op? */
static bool location_hits(const dbg_session *s, const dbg_bp *bp, bool at_boundary,
			  uint64_t prev_cycles)
{
	const emu_machine *em = s->em;
	if (bp->kind == DBG_BP_TARGET) /* target mode: before the next finest unit */
		return s->tg && s->ops->break_hit(s->tg, &bp->tbp);
	if (bp->kind == DBG_BP_CYCLE) {
		uint64_t now = dbg_cycles(s);
		return prev_cycles != UINT64_MAX && prev_cycles < bp->arg && now >= bp->arg;
	}
	if (bp->kind == DBG_BP_NODE_END) /* the end of the program is one */
		return at_boundary && em->pc == s->t.nodes[bp->arg].cmd1;
	if (bp->kind == DBG_BP_MARK) /* --tdfg: a window of the node's markers */
		return at_boundary && dbg_valid_mark_hit(s, (long)(bp->arg & ~(UINT64_C(1) << 63)),
							 bp->arg >> 63, em->pc);
	if (!at_boundary || emu_done(em))
		return false;
	const emu_cmd *c = &s->prog.cmds[em->pc];
	switch (bp->kind) {
	case DBG_BP_CMD:
		return em->pc == bp->arg;
	case DBG_BP_NODE:
		return em->pc == s->t.nodes[bp->arg].cmd0;
	case DBG_BP_LINE:
		return (uint64_t)c->line == bp->arg;
	case DBG_BP_OP: /* by mnemonic: "add" is add.u4's ADD and add.f16's FADD */
		return c->kind == EMU_CMD_COMPUTE &&
		       strcmp(isa_info_of(c->c.op)->name, isa_info_of((unsigned)bp->arg)->name) == 0;
	case DBG_BP_MOVE:
		return c->kind == EMU_CMD_MOVE &&
		       (bp->arg == EMU_MOVE_KINDS || c->mv.kind == bp->arg);
	default:
		return false;
	}
}

/* A watchpoint whose value changed: remember the new one in bp->old
 * after keeping the previous value in *prev. */
static bool watch_hits(dbg_session *s, dbg_bp *bp, dbg_value *prev, bool *err)
{
	dbg_value v;
	char msg[512];
	if (dbg_eval_quiet(s, bp->expr, &v, msg, sizeof msg) < 0) {
		dbg_error(s, "Watchpoint %u: %s", bp->num, msg);
		*err = true;
		return false;
	}
	if (bp->old_valid && dbg_value_same(&v, &bp->old))
		return false;
	*prev = bp->old;
	bp->old = v;
	bp->old_valid = true;
	return true;
}

/* A target's breakpoint whose condition fails (or cannot be read) for
 * the current thread: the first other thread the next unit runs for
 * which it holds becomes the current one (tgt_ops.threads_here). */
static bool other_thread_holds(dbg_session *s, const dbg_bp *bp, bool *any_read)
{
	const tgt_ops *ops = s->ops;
	if (!ops || bp->kind != DBG_BP_TARGET || !ops->threads_here || !ops->thread_get ||
	    !ops->thread_set)
		return false;
	static unsigned list[4096];
	const unsigned cur = ops->thread_get(s->tg);
	const unsigned n = ops->threads_here(s->tg, list, sizeof list / sizeof *list);
	for (unsigned i = 0; i < n; i++) {
		if (list[i] == cur)
			continue;
		ops->thread_set(s->tg, list[i]);
		dbg_value v;
		char msg[512];
		const bool read = dbg_eval_quiet(s, bp->cond, &v, msg, sizeof msg) == 0;
		*any_read = *any_read || read;
		if (read && dbg_value_true(&v))
			return true;
	}
	ops->thread_set(s->tg, cur);
	return false;
}

static bool condition_holds(dbg_session *s, const dbg_bp *bp, bool *err)
{
	if (!bp->cond)
		return true;
	dbg_value v;
	char msg[512];
	bool any_read = false;
	if (dbg_eval_quiet(s, bp->cond, &v, msg, sizeof msg) < 0) {
		/* the current thread cannot read it (a register not live where
		 * it waits): false if another thread here can */
		if (other_thread_holds(s, bp, &any_read))
			return true;
		if (any_read)
			return false;
		dbg_error(s, "Error in testing condition for breakpoint %u: %s", bp->num, msg);
		*err = true;
		return true;
	}
	return dbg_value_true(&v) || other_thread_holds(s, bp, &any_read);
}

/* ---- rwatch and awatch ---- */

static bool in_pattern(const emu_pattern *p, int64_t v)
{
	for (uint64_t i = 0; i < emu_pattern_size(p); i++)
		if (emu_pattern_at(p, i) == v)
			return true;
	return false;
}

static bool rows_meet(unsigned a, unsigned na, unsigned b, unsigned nb)
{
	return a < b + nb && b < a + na;
}

/* Did the micro-op (or the transfer) just run read, or write, element
 * elem of b at (array, bl, wl)?  A read senses one of its wordlines in
 * its array on a selected bitline; a write targets one. */
static void element_access(const dbg_session *s, const emu_buffer *b, unsigned array,
			   unsigned bl, unsigned wl, bool *read, bool *write)
{
	const emu_cmd *c = &s->prog.cmds[s->step_pc];
	const bool move = c->kind == EMU_CMD_MOVE;
	const bool reduce = !move && isa_info_of(c->c.op)->form == ISA_FORM_RA;
	const bool selected = move ? in_pattern(&c->mv.arrays, array)
		: in_pattern(&c->arrays, array) && (reduce || in_pattern(&c->bitlines, bl));
	*read = *write = false;
	if (!selected)
		return;
	if (s->step_has_uop) {
		const sram_uop *u = &s->step_uop;
		for (unsigned k = 0; k < b->width && !*read; k++)
			*read = sram_uop_activates(u, wl + k);
		*write = u->dst != SRAM_NO_ROW && u->dst >= wl && u->dst < wl + b->width;
		return;
	}
	if (move) { /* a transfer or a sync, run whole: its source rows */
		*read = c->mv.kind != EMU_MOVE_CONST && c->mv.kind != EMU_MOVE_SYNC &&
			rows_meet(c->mv.wl, c->mv.nwl, wl, b->width);
		return;
	}
	const isa_cmd *ic = &c->c; /* a data-dependent command's bank traces */
	const uint16_t in[3] = { ic->a, ic->b, ic->c3 };
	for (unsigned k = 0; k < 3; k++)
		if (in[k] != ISA_NONE && in[k] != ISA_TAG && rows_meet(in[k], ic->width, wl, b->width))
			*read = true;
	*write = ic->d != ISA_NONE && ic->d != ISA_TAG && rows_meet(ic->d, ic->width, wl, b->width);
}

/* An access watchpoint: the element read (both kinds) or written
 * (awatch; a change of its value is a write whatever did it). */
static bool access_hits(dbg_session *s, dbg_bp *bp, dbg_value *prev)
{
	const emu_buffer *b = &s->prog.bufs[bp->arg];
	unsigned array, bl, wl;
	emu_buffer_place(b, &s->em->m->g, bp->elem, &array, &bl, &wl);
	bool read, write;
	element_access(s, b, array, bl, wl, &read, &write);
	const dbg_value v = dbg_value_of_element(s, b, bp->elem);
	write = write || !dbg_value_same(&v, &bp->old);
	*prev = bp->old;
	bp->old = v;
	return read || (bp->kind == DBG_BP_AWATCH && write);
}

/* The watchpoints that stopped in the last micro-op (reported together,
 * as gdb does), and their previous values. */
#define MAX_CHANGED 16
static dbg_bp *changed[MAX_CHANGED];
static dbg_value changed_prev[MAX_CHANGED];
static size_t nchanged;

static bool is_watch(const dbg_bp *bp)
{
	return bp->kind == DBG_BP_WATCH || bp->kind == DBG_BP_RWATCH || bp->kind == DBG_BP_AWATCH;
}

/* Would bp stop here (before its condition and ignore count)? */
static bool bp_matches(dbg_session *s, dbg_bp *bp, bool at_boundary, uint64_t prev_cycles,
		       dbg_value *prev, bool *err)
{
	if (bp->kind == DBG_BP_WATCH)
		return prev_cycles != UINT64_MAX && watch_hits(s, bp, prev, err);
	if (bp->kind == DBG_BP_RWATCH || bp->kind == DBG_BP_AWATCH)
		return prev_cycles != UINT64_MAX && access_hits(s, bp, prev);
	return location_hits(s, bp, at_boundary, prev_cycles);
}

dbg_bp *dbg_bp_hit(dbg_session *s, bool at_boundary, uint64_t prev_cycles, bool *err)
{
	dbg_bp *hit = NULL;
	nchanged = 0;
	/* a condition may move the current thread to one for which it holds
	 * (other_thread_holds): kept if the run stops, else put back */
	const bool threads = s->ops && s->tg && s->ops->thread_get && s->ops->thread_set;
	const unsigned thread0 = threads ? s->ops->thread_get(s->tg) : 0;
	for (size_t i = 0; i < s->nbps; i++) {
		dbg_bp *bp = &s->bps[i];
		if (!bp->enabled)
			continue;
		dbg_value prev;
		bool matched = bp_matches(s, bp, at_boundary, prev_cycles, &prev, err) &&
			       condition_holds(s, bp, err);
		if (*err) {
			if (threads)
				s->ops->thread_set(s->tg, thread0);
			return NULL;
		}
		if (matched && bp->ignore) { /* `ignore`: passed, and counted */
			bp->ignore--;
			bp->hits++;
			matched = false;
		}
		if (matched && is_watch(bp) && nchanged < MAX_CHANGED) {
			changed_prev[nchanged] = prev;
			changed[nchanged++] = bp;
		}
		if (matched && !hit)
			hit = bp;
	}
	if (threads && s->ops->thread_get(s->tg) != thread0) {
		if (hit && !*err)
			printf("[Switching to thread %u]\n", s->ops->thread_get(s->tg));
		else
			s->ops->thread_set(s->tg, thread0);
	}
	return hit;
}

static void report_watch(const dbg_bp *bp, const dbg_value *prev)
{
	char old[160], now[160];
	dbg_format_value(prev, 0, old, sizeof old);
	dbg_format_value(&bp->old, 0, now, sizeof now);
	const bool same = dbg_value_same(prev, &bp->old);
	if (bp->kind == DBG_BP_WATCH)
		printf("\nWatchpoint %u: %s\n\n", bp->num, bp->expr);
	else
		printf("\nHardware %s watchpoint %u: %s\n\n",
		       bp->kind == DBG_BP_RWATCH ? "read" : "access (read/write)", bp->num, bp->expr);
	if (bp->kind != DBG_BP_WATCH && same)
		printf("Value = %s\n", now);
	else
		printf("Old value = %s\nNew value = %s\n", old, now);
}

/* After a stop at bp: `enable once` and `enable count` disable it. */
static void after_stop(dbg_bp *bp)
{
	if (bp->once) {
		bp->once = false;
		bp->enabled = false;
	}
	if (bp->count && --bp->count == 0)
		bp->enabled = false;
}

void dbg_bp_report(dbg_session *s, dbg_bp *bp)
{
	dbg_bp_due(s, bp); /* its commands, run after the stop; silent? */
	if (is_watch(bp)) {
		for (size_t i = 0; i < nchanged; i++) {
			changed[i]->hits++;
			after_stop(changed[i]);
			if (!s->stop_silent)
				report_watch(changed[i], &changed_prev[i]);
		}
		if (!s->stop_silent)
			printf("at cycle %" PRIu64 "\n", dbg_cycles(s));
		return;
	}
	bp->hits++;
	after_stop(bp);
	if (!s->stop_silent) {
		printf("\n%s %u, ", bp->temporary ? "Temporary breakpoint" : "Breakpoint", bp->num);
		if (bp->kind == DBG_BP_CYCLE)
			printf("cycle %" PRIu64 ", ", dbg_cycles(s));
		if (bp->kind == DBG_BP_NODE_END)
			printf("end of node '%s', ", s->t.nodes[bp->arg].name);
	}
	if (bp->temporary) {
		size_t i;
		if (find_bp(s, bp->num, &i))
			remove_bp(s, i);
	}
}
