/* SPDX-License-Identifier: MIT */
/*
 * valid.c: infsdb STREAM --tdfg FILE: a command stream checked against
 * the tDFG it was lowered from (emu/validate.h, doc/TDFG.md "Validating
 * a stream").  `check` compares the nodes whose markers stand at the
 * position; `check every node` stops at the first marker whose node the
 * machine does not hold, with the command the bisection found.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "dbg.h"
#include "tdfg_json.h"

int dbg_valid_load(dbg_session *s, const char *path, const char *type,
		   const emu_tdfg_def *defs, size_t ndefs, diag *d)
{
	if (s->tdfg) {
		diag_file(d, "infsdb", "--tdfg: '%s' is a tDFG already; --tdfg validates a command "
			  "stream (.ins, .inb) against one", s->prog.path);
		return -1;
	}
	emu_geom_override ov;
	emu_geom_override_init(&ov);
	ov.g = s->prog.geom;
	ov.keys = ~0u; /* the tDFG on the stream's machine */
	emu_tdfg_init(&s->vt);
	if (emu_tdfg_json_path(path)) {
		if (!type) {
			diag_file(d, "infsdb", "--tdfg %s: an artifact's tDFG (.json) has no element "
				  "type; give one with --type (f32, i32, ...)", path);
			return -1;
		}
		if (ndefs) {
			diag_file(d, "infsdb", "-D %s: parameters are a tDFG's (.tdfg), not %s's",
				  defs[0].name, path);
			return -1;
		}
		if (emu_tdfg_json_parse_file(path, type, &s->prog.geom, &ov, &s->vt, d) < 0)
			return -1;
	} else if (emu_tdfg_parse_file_defs(path, &s->prog.geom, &ov, defs, ndefs, &s->vt,
					    d) < 0) {
		return -1;
	}
	s->valid = emu_valid_new(&s->vt, &s->prog, d);
	return s->valid ? 0 : -1;
}

void dbg_valid_start(const dbg_session *s, emu_machine *em, emu_ref *ref)
{
	const emu_buffer *b;
	const uint64_t *v;
	for (size_t i = 0; s->valid && (v = emu_valid_loaded(s->valid, i, &b)); i++) {
		if (em)
			emu_ttu_store(em, b, v, b->length);
		if (ref)
			emu_ref_store(ref, b, v, b->length);
	}
}

void dbg_valid_free(dbg_session *s)
{
	if (!s->valid)
		return;
	emu_valid_free(s->valid);
	emu_tdfg_free(&s->vt);
	s->valid = NULL;
}

/* Compare the check points at the position.  1 when they agree, 0 when
 * one differs (reported), -1 on an error. */
static int compare_here(dbg_session *s, size_t from)
{
	emu_valid_report rep;
	diag d;
	diag_clear(&d);
	emu_valid_seek(s->valid, from);
	const int rc = emu_valid_at(s->valid, s->em, &rep, &d);
	if (rc < 0)
		dbg_error(s, "%s", d.msg);
	if (rc == 0) {
		fputs(rep.text, stdout);
		s->mismatch = true;
	}
	return rc;
}

/* `check` where no marker stands: say so, naming the markers around. */
static void no_marker_here(const dbg_session *s)
{
	const size_t pc = s->em->pc;
	const emu_mark *before = NULL, *after = NULL;
	for (size_t k = 0; k < s->prog.nmarks; k++) {
		const emu_mark *m = &s->prog.marks[k];
		if (m->at < pc)
			before = m;
		else if (m->at > pc && !after)
			after = m;
	}
	printf("check: no node marker of %s stands at this position (after command %zu): "
	       "nothing of the tDFG is compared here.\n", s->prog.path, pc);
	if (before)
		printf("  The last marker before it is node '%s' after command %zu (%s:%d).\n",
		       before->name, before->at, s->prog.path, before->line);
	if (after)
		printf("  The next is node '%s' after command %zu (%s:%d): `next` runs to it.\n",
		       after->name, after->at, s->prog.path, after->line);
	else if (!s->prog.nmarks)
		printf("  The stream has no `node` marker: only the outputs are compared, at its "
		       "end.\n");
}

int dbg_valid_check(dbg_session *s)
{
	if (s->em->upc) {
		printf("check: node markers are between commands; command %zu is at micro-op %zu.\n",
		       s->em->pc, s->em->upc);
		return 0;
	}
	emu_valid_seek(s->valid, s->em->pc);
	const size_t from = emu_valid_compared(s->valid);
	const int rc = compare_here(s, s->em->pc);
	if (rc == 1 && emu_valid_compared(s->valid) == from) {
		no_marker_here(s);
		return 0;
	}
	if (rc == 1) {
		const size_t n = emu_valid_compared(s->valid) - from;
		printf("check: %zu check point%s of %s at this position (after command %zu) hold%s "
		       "what the tDFG means.\n", n, n == 1 ? "" : "s", s->vt.path, s->em->pc,
		       n == 1 ? "s" : "");
	}
	return rc < 0 ? -1 : 0;
}

bool dbg_valid_diverged(dbg_session *s)
{
	if (!s->check_every_node || !s->valid || s->em->upc != 0 || s->em->pc == 0)
		return false;
	/* markers before the first command are compared after it: the
	 * machine first stops there */
	if (compare_here(s, s->em->pc == 1 ? 0 : s->em->pc) != 0)
		return false;
	dbg_report_stop(s);
	return true;
}

/* ---- the markers as the nodes' places in the stream ----
 *
 * Marker k (`node NAME` in the stream) says that the commands before it
 * computed node NAME: its window is the commands after the marker
 * before it (of any node) up to it, [marks[k-1].at, marks[k].at), as the
 * validator's report names them.  `next`, `break NODE` and `info nodes`
 * read the nodes from there. */

/* The first command of marker k's window. */
static size_t window_start(const dbg_session *s, size_t k)
{
	return k ? s->prog.marks[k - 1].at : 0;
}

/* The tDFG node marker k names, or -1. */
static long marker_node(const dbg_session *s, size_t k)
{
	const char *name = s->prog.marks[k].name;
	return emu_tdfg_find(&s->vt, name, strlen(name));
}

long dbg_valid_find(const dbg_session *s, const char *name, size_t len, size_t *nmarks)
{
	const long n = s->valid ? emu_tdfg_find(&s->vt, name, len) : -1;
	*nmarks = 0;
	for (size_t k = 0; n >= 0 && k < s->prog.nmarks; k++)
		*nmarks += marker_node(s, k) == n;
	return n;
}

bool dbg_valid_mark_hit(const dbg_session *s, long node, bool end, size_t pc)
{
	for (size_t k = 0; k < s->prog.nmarks; k++) {
		const size_t a = window_start(s, k), b = s->prog.marks[k].at;
		if (a < b && marker_node(s, k) == node && (end ? b : a) == pc)
			return true;
	}
	return false;
}

void dbg_valid_mark_label(const dbg_session *s, long node, bool end, char *buf, size_t size)
{
	size_t first = SIZE_MAX, n = 0;
	for (size_t k = 0; k < s->prog.nmarks; k++)
		if (marker_node(s, k) == node && window_start(s, k) < s->prog.marks[k].at) {
			first = first == SIZE_MAX ? k : first;
			n++;
		}
	const emu_tnode *x = &s->vt.nodes[node];
	const emu_mark *m = &s->prog.marks[first];
	const size_t a = window_start(s, first);
	int len = snprintf(buf, size, "node '%s' (%s:%d), by its marker at %s:%d: %s command %zu",
			   x->name, s->vt.path, x->line, s->prog.path, m->line,
			   end ? "after" : "before", end ? m->at - 1 : a);
	if (n > 1 && len > 0 && (size_t)len < size)
		snprintf(buf + len, size - (size_t)len, " (and %zu more marker%s)", n - 1,
			 n == 2 ? "" : "s");
}

size_t dbg_valid_node_start(const dbg_session *s, long node, size_t pc)
{
	size_t first = SIZE_MAX;
	for (size_t k = 0; k < s->prog.nmarks; k++) {
		const size_t a = window_start(s, k);
		if (marker_node(s, k) != node || a >= s->prog.marks[k].at)
			continue;
		if (a > pc)
			return a;
		first = first == SIZE_MAX ? a : first;
	}
	return first;
}

size_t dbg_valid_window_end(const dbg_session *s, size_t pc)
{
	for (size_t k = 0; k < s->prog.nmarks; k++)
		if (s->prog.marks[k].at > pc)
			return s->prog.marks[k].at;
	return s->prog.ncmds;
}

long dbg_valid_node_at(const dbg_session *s, size_t pc, size_t *marker)
{
	for (size_t k = 0; k < s->prog.nmarks; k++)
		if (s->prog.marks[k].at > pc && window_start(s, k) <= pc) {
			*marker = k;
			return marker_node(s, k);
		}
	return -1;
}

int dbg_valid_info_nodes(dbg_session *s)
{
	const size_t pc = s->em ? s->em->pc : SIZE_MAX;
	printf("Nodes of %s, by the markers of %s:\n", s->vt.path, s->prog.path);
	printf("   %-10s %-8s %-12s %-10s %s\n", "Node", "Kind", "Marker", "Commands", "Defined at");
	for (size_t i = 0; i < s->vt.nnodes; i++) {
		const emu_tnode *x = &s->vt.nodes[i];
		bool marked = false;
		for (size_t k = 0; k < s->prog.nmarks; k++) {
			if (marker_node(s, k) != (long)i)
				continue;
			const size_t a = window_start(s, k), b = s->prog.marks[k].at;
			char line[32], cmds[48];
			snprintf(line, sizeof line, "line %d", s->prog.marks[k].line);
			if (a == b)
				snprintf(cmds, sizeof cmds, "none");
			else if (b - a == 1)
				snprintf(cmds, sizeof cmds, "%zu", a);
			else
				snprintf(cmds, sizeof cmds, "%zu-%zu", a, b - 1);
			/* => the window the machine is in or before */
			printf("%s%-10s %-8s %-12s %-10s %s:%d\n", a <= pc && pc < b ? "=> " : "   ",
			       x->name, emu_tnode_kind_name(x->kind), line, cmds, s->vt.path,
			       x->line);
			marked = true;
		}
		if (!marked)
			printf("   %-10s %-8s %-12s %-10s %s:%d\n", x->name, emu_tnode_kind_name(x->kind),
			       "(none)", "-", s->vt.path, x->line);
	}
	return 0;
}
