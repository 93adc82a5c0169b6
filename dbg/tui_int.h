/* SPDX-License-Identifier: MIT */
/*
 * tui_int.h: what tui.c (the screen, readline, the console, the stream's
 * windows) and tui_target.c (a target's windows) share.
 */
#ifndef INFSIM_DBG_TUI_INT_H
#define INFSIM_DBG_TUI_INT_H

#include "dbg.h"

/* A bar across the screen at row y, in reverse video. */
void dbg_tui_bar(int y, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A target's windows (tui_target.c), each in the rows given: the title
 * bar (with where, the layout and focus), the listing of its source
 * (*off lines from the position's: focus src scrolls it, and a new
 * position sets it back to 0), the bar of the view and the position,
 * and the state window (the view `tui view` picked, from its line skip:
 * focus state scrolls it). */
void dbg_tui_target_title(dbg_session *s, int y, const char *where);
void dbg_tui_target_listing(dbg_session *s, int top, int h, long *off);
void dbg_tui_target_bar(dbg_session *s, int y);
void dbg_tui_target_view(dbg_session *s, int top, int h, long skip);
/* Forget the source read for the listing (leaving the TUI). */
void dbg_tui_target_free(void);

#endif
