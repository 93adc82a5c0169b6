/* SPDX-License-Identifier: MIT */
/*
 * layout.c: gdb's TUI commands `layout`, `focus` and `refresh`, read in
 * one place for every TUI infsdb has.  What each TUI has (its layouts,
 * its windows, which layout shows which window) comes through a
 * dbg_layout_ops table: the stream and tDFG TUI's (dbg_tui_layout,
 * tui.c), and in target mode a target's (dbg_tui_target_layout, tui.c
 * on tui_target.c's windows).  As gdb's, each of the three turns the TUI
 * on.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "dbg.h"

/* The table of the TUI this program has. */
static const dbg_layout_ops *ops_of(const dbg_session *s)
{
	return s->ops ? &dbg_tui_target_layout : &dbg_tui_layout;
}

/* "a, b or c" of names, into buf. */
static void name_list(const char *const *names, char *buf, size_t size)
{
	size_t n = 0;
	buf[0] = '\0';
	for (int k = 0; names[k] && n < size; k++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s", k ? (names[k + 1] ? ", " : " or ") : "",
				      names[k]);
}

/* The index among names of word (exact, or the one name it begins;
 * next and prev from cur, as gdb's), or -1 with an error naming them. */
static int pick(dbg_session *s, const char *cmd, const char *what, const char *const *names,
		int cur, const char *word)
{
	int n = 0, found = -1, nfound = 0;
	while (names[n])
		n++;
	if (strcmp(word, "next") == 0)
		return (cur + 1) % n;
	if (strcmp(word, "prev") == 0)
		return (cur + n - 1) % n;
	for (int k = 0; k < n; k++) {
		if (strcmp(names[k], word) == 0)
			return k;
		if (*word && strncmp(names[k], word, strlen(word)) == 0) {
			found = k;
			nfound++;
		}
	}
	if (nfound == 1)
		return found;
	char list[256];
	name_list(names, list, sizeof list);
	dbg_error(s, "%s: %s \"%s\": expected %s, next or prev.", cmd,
		  nfound ? "ambiguous" : what, word, list);
	return -1;
}

int dbg_cmd_layout(dbg_session *s, char *args)
{
	const dbg_layout_ops *o = ops_of(s);
	const char *word = dbg_trim(args);
	if (!*word) { /* gdb lists its layouts */
		char list[256];
		name_list(o->layouts, list, sizeof list);
		printf("Layouts: %s (layout next, layout prev); the current one is %s.\n", list,
		       o->layouts[o->layout_now()]);
		return 0;
	}
	const int k = pick(s, "layout", "no layout", o->layouts, o->layout_now(), word);
	return k < 0 ? -1 : o->set_layout(s, k);
}

int dbg_cmd_focus(dbg_session *s, char *args)
{
	const dbg_layout_ops *o = ops_of(s);
	const char *word = dbg_trim(args);
	if (!*word) {
		char list[256];
		name_list(o->windows, list, sizeof list);
		dbg_error(s, "focus: expected a window (%s), next or prev.", list);
		return -1;
	}
	const int layout = o->layout_now();
	int k;
	if (strcmp(word, "next") == 0 || strcmp(word, "prev") == 0) {
		/* the windows the layout shows, in order, as gdb's focus next */
		k = o->focus_now();
		const int step = word[0] == 'n' ? 1 : -1;
		int n = 0;
		while (o->windows[n])
			n++;
		do
			k = (k + step + n) % n;
		while (!o->shown(layout, k));
	} else {
		k = pick(s, "focus", "no window", o->windows, o->focus_now(), word);
		if (k < 0)
			return -1;
		if (!o->shown(layout, k)) {
			dbg_error(s, "focus: window %s is not shown by layout %s (\"layout\" lists "
				  "the layouts).", o->windows[k], o->layouts[layout]);
			return -1;
		}
	}
	return o->set_focus(s, k);
}

int dbg_cmd_refresh(dbg_session *s, char *args)
{
	if (*dbg_trim(args)) {
		dbg_error(s, "\"refresh\" takes no arguments.");
		return -1;
	}
	/* a repaint means the same on every TUI tui.c draws */
	return ops_of(s)->refresh(s);
}
