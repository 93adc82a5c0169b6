/* SPDX-License-Identifier: MIT */
/*
 * tui_target.c: the TUI's windows on a program of a target (target mode,
 * target.c): every system but the in-cache machine's streams.
 *
 * tui.c keeps the screen, readline, the console and its scrollback; in
 * target mode it asks this file for the windows above the console:
 *   the listing   the program's source (ops->source) around the line of
 *                 the position (ops->where), which "=>" and bold mark;
 *   a bar         the view shown and the position ("bundle 5: ...");
 *   the state     one of the target's views (tgt_ops.views), drawn by the
 *                 target into the window's width and height: flows for
 *                 Active-Routing, divergence, bundles or threads for
 *                 SIMT, cache for VIMA, streams or regions for near-stream
 *                 computing.  `tui view NAME` picks it; the first is
 *                 shown until then.
 * Every view is redrawn from the target's state after each command, as
 * the stream's array view is read from the SRAM after each stop.
 */
#include "config.h"

#include <curses.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbg.h"
#include "target_mode.h"
#include "tui_int.h"

static struct {
	size_t view;          /* index in ops->views */
	char *path, *text;    /* the source as last read */
	unsigned line;        /* the last line the position was on */
} tt;

static size_t nviews(const tgt_ops *ops)
{
	size_t n = 0;
	while (ops->views && ops->views[n].name)
		n++;
	return n;
}

/* The source's text, read once per file. */
static const char *source(dbg_session *s)
{
	const char *path = s->ops->source ? s->ops->source(s->tg) : NULL;
	if (!path)
		return NULL;
	if (!tt.text || !tt.path || strcmp(tt.path, path) != 0) {
		free(tt.text);
		free(tt.path);
		tt.path = strdup(path);
		tt.text = dbg_tgt_source_text(s, &path);
	}
	return tt.text;
}

void dbg_tui_target_title(dbg_session *s, int y, const char *where)
{
	const size_t n = s->ops->narrays(s->tg);
	dbg_tui_bar(y, " %s  (%s, %zu array%s)%s", s->tm->args.load.path, s->ops->title, n,
		    n == 1 ? "" : "s", where);
}

void dbg_tui_target_listing(dbg_session *s, int top, int h, long *off)
{
	const char *text = source(s);
	if (!text) {
		mvaddnstr(top, 0, "   (the program has no source file to list)", COLS);
		return;
	}
	const unsigned here = dbg_tgt_position_line(s);
	if (here && here != tt.line)
		*off = 0; /* the position moved: the listing follows it again */
	if (here)
		tt.line = here;
	long c = (long)(tt.line ? tt.line : 1) + *off;
	if (c < 1)
		c = 1, *off = 1 - (long)(tt.line ? tt.line : 1);
	const unsigned centre = (unsigned)c;
	const unsigned first = centre > (unsigned)h / 2 ? centre - (unsigned)h / 2 : 1;
	unsigned line = 1;
	int y = 0;
	for (const char *p = text; *p && y < h; line++) {
		const size_t n = strcspn(p, "\n");
		if (line >= first) {
			const bool mark = here && line == here;
			if (mark)
				attron(A_BOLD);
			mvprintw(top + y++, 0, "%s%-4u ", mark ? "=> " : "   ", line);
			addnstr(p, COLS > 8 ? (int)(n < (size_t)COLS - 8 ? n : (size_t)COLS - 8) : 0);
			if (mark)
				attroff(A_BOLD);
		}
		p += n + (p[n] == '\n');
	}
}

void dbg_tui_target_bar(dbg_session *s, int y)
{
	const tgt_ops *ops = s->ops;
	char view[TGT_NAME_MAX + 8] = "";
	if (nviews(ops))
		snprintf(view, sizeof view, "[%s] ", ops->views[tt.view].name);
	tgt_loc loc;
	if (!s->t_running) {
		dbg_tui_bar(y, " %sthe program is not being run (run, start)", view);
	} else if (ops->ended(s->tg) || !ops->where(s->tg, 0, &loc)) {
		const uint64_t n = ops->count(s->tg, 0);
		dbg_tui_bar(y, " %sthe program ended after %" PRIu64 " %s, cycle %" PRIu64, view, n,
			    dbg_tgt_unit_word(ops, 0, n), dbg_tgt_cycles(s));
	} else {
		dbg_tui_bar(y, " %s%s %" PRIu64 ": %s", view, ops->units[0].name, loc.index, loc.what);
	}
}

void dbg_tui_target_view(dbg_session *s, int top, int h, long skip)
{
	if (!nviews(s->ops)) {
		mvaddnstr(top, 0, "(this target draws no state view)", COLS);
		return;
	}
	if (!s->t_running) {
		mvaddnstr(top, 0, "The program is not being run: `start` or `run` shows its state here.",
			  COLS);
		return;
	}
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	if (!f)
		return;
	/* scrolled (focus state): the view is drawn for the lines skipped too */
	s->ops->views[tt.view].draw(s->tg, f, (unsigned)COLS, (unsigned)(h + skip));
	fclose(f);
	int y = 0;
	const char *p = buf;
	for (long k = 0; p && *p && k < skip; k++) {
		const size_t n = strcspn(p, "\n");
		p += n + (p[n] == '\n');
	}
	for (; p && *p && y < h; y++) {
		const size_t n = strcspn(p, "\n");
		mvaddnstr(top + y, 0, p, (int)(n < (size_t)COLS ? n : (size_t)COLS));
		p += n + (p[n] == '\n');
	}
	free(buf);
}

void dbg_tui_target_free(void)
{
	free(tt.path);
	free(tt.text);
	tt.path = tt.text = NULL;
}

/* The views, one a line, the one shown marked. */
static void list_views(const tgt_ops *ops)
{
	printf("The views of %s programs (tui view NAME):\n", ops->name);
	for (size_t i = 0; ops->views[i].name; i++)
		printf("%s %-12s -- %s\n", i == tt.view ? "*" : " ", ops->views[i].name,
		       ops->views[i].help);
}

int dbg_cmd_tui_view(dbg_session *s, char *args)
{
	const char *name = dbg_trim(args);
	if (!s->ops) {
		dbg_error(s, "tui view: the views are a target's (.ar, .nsc, .vima, .simt); a "
			  "stream's TUI shows its array and element views (tui element, tui rows).");
		return -1;
	}
	const size_t n = nviews(s->ops);
	if (!n) {
		dbg_error(s, "tui view: %s programs have no state view.", s->ops->name);
		return -1;
	}
	if (!*name) {
		list_views(s->ops);
		return 0;
	}
	size_t found = n, matches = 0;
	for (size_t i = 0; i < n; i++) {
		const char *v = s->ops->views[i].name;
		if (!strcmp(v, name)) {
			found = i;
			matches = 1;
			break;
		}
		if (!strncmp(v, name, strlen(name))) {
			found = i;
			matches++;
		}
	}
	if (matches != 1) {
		char names[512] = "";
		size_t len = 0;
		for (size_t i = 0; i < n && len < sizeof names; i++)
			len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", i ? ", " : "",
						s->ops->views[i].name);
		dbg_error(s, "tui view: %s view \"%s\" for %s programs; expected one of: %s.",
			  matches ? "ambiguous" : "no", name, s->ops->name, names);
		return -1;
	}
	tt.view = found;
	printf("The state window shows the %s view: %s.\n", s->ops->views[found].name,
	       s->ops->views[found].help);
	return 0;
}
