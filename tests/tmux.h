/* SPDX-License-Identifier: MIT */
/*
 * tmux.h: drive a full-screen program as a user does, for the TUI tests:
 * a detached session on a private tmux server (-L NAME-PID, so that a
 * user's own tmux is never touched), keys in with send-keys, the screen
 * back with capture-pane.  The server and its socket file go at
 * tmux_stop, even after a failed test.
 */
#ifndef INFSIM_TESTS_TMUX_H
#define INFSIM_TESTS_TMUX_H

#include <stdbool.h>

/* Whether tmux is installed (the TUI tests are skipped without it). */
bool tmux_have(void);
/* "tmux -L SERVER ARGS": its standard output (the caller frees it), or
 * NULL if tmux failed. */
char *tmux(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A private server named PREFIX-PID with one 80x24 session running the
 * shell command line; asserts that it started.  Does nothing without
 * tmux. */
void tmux_start(const char *prefix, const char *command);
/* Kill the server started by tmux_start, and remove its socket. */
void tmux_stop(void);
/* Type text and Enter. */
void tmux_keys(const char *text);
/* The screen's text, with its colour escapes if asked. */
char *tmux_screen(bool escapes);
/* The screen once it holds every needle (a NULL-terminated list),
 * within 10 s; a failed assertion showing the screen otherwise. */
char *tmux_wait_for(const char *first, ...);

#endif
