/* SPDX-License-Identifier: MIT */
/*
 * console.c: infsdb's console: error lines, the readline prompt and its
 * history (~/.infsdb_history, its size as gdb's), the line Enter repeats,
 * and Ctrl-C, which stops a running program and not the session.  The
 * program's entry (options, loading, init files) is main.c; the rest of
 * dbg/ runs without a console (batch sessions, the fuzz targets).
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "dbg.h"

void dbg_error(dbg_session *s, const char *fmt, ...)
{
	va_list ap;
	fflush(stdout);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
	s->failed = true;
}


static void on_sigint(int sig)
{
	(void)sig;
	dbg_interrupted = 1;
}

/* Ctrl-C at the prompt: drop the line being typed, as gdb does. */
static int prompt_signal_hook(void)
{
	if (dbg_interrupted) {
		dbg_interrupted = 0;
		rl_replace_line("", 0);
		rl_point = rl_end = rl_mark = 0;
		rl_crlf();
		rl_on_new_line();
		rl_redisplay();
	}
	return 0;
}

/* readline's getc, checking for a Ctrl-C that arrived while readline
 * was not waiting in read() (then no EINTR calls the hook above). */
static int prompt_getc(FILE *in)
{
	prompt_signal_hook();
	int c = rl_getc(in);
	prompt_signal_hook();
	return c;
}

void dbg_console_install_sigint(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_sigint;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	/* Our handler alone sees SIGINT; readline's getc calls the hooks. */
	rl_catch_signals = 0;
	rl_signal_event_hook = prompt_signal_hook;
	rl_getc_function = prompt_getc;
}

static char *history_path(void)
{
	const char *home = getenv("HOME");
	if (!home || !*home)
		return NULL;
	size_t n = strlen(home) + sizeof "/.infsdb_history";
	char *path = malloc(n);
	if (path)
		snprintf(path, n, "%s/.infsdb_history", home);
	return path;
}

/* How many commands the history keeps: -1 for no limit.  gdb's default
 * (256), or INFSDB_HISTSIZE as gdb's GDBHISTSIZE (empty or negative: no
 * limit; not a number: the default), or `set history size`. */
static long hist_size = 256;

static void apply_history_size(void)
{
	if (hist_size < 0)
		unstifle_history();
	else
		stifle_history((int)hist_size);
}

void dbg_history_size_from_env(void)
{
	const char *v = getenv("INFSDB_HISTSIZE");
	if (!v)
		return;
	char *end;
	errno = 0;
	long n = strtol(v, &end, 10);
	if (!*v || (!*end && !errno && n < 0))
		hist_size = -1;
	else if (!*end && !errno && n <= INT_MAX)
		hist_size = n;
	apply_history_size();
}

long dbg_history_size(void)
{
	return hist_size;
}

int dbg_cmd_set_history(dbg_session *s, char *args)
{
	char *save = NULL, *what = strtok_r(args, " \t", &save);
	char *val = strtok_r(NULL, " \t", &save), *end = NULL;
	if (!what || strcmp(what, "size") != 0 || !val || strtok_r(NULL, " \t", &save)) {
		dbg_error(s, "set history: expected \"size N\" or \"size unlimited\".");
		return -1;
	}
	errno = 0;
	long n = strcmp(val, "unlimited") == 0 ? -1 : strtol(val, &end, 10);
	if (end && (*end || errno || n < 0 || n > INT_MAX)) {
		dbg_error(s, "set history size: \"%s\" is not a number of commands from 0 to %d, "
			  "or unlimited.", val, INT_MAX);
		return -1;
	}
	hist_size = n;
	apply_history_size();
	return 0;
}

/* The last command typed, which Enter repeats when it may be. */
static char *last_line;
static bool last_repeats;

void dbg_console_line(dbg_session *s, char *line)
{
	bool empty = !*dbg_trim(line);
	if (empty && last_line && last_repeats) {
		s->repeating = true; /* list goes on after the lines it showed */
		dbg_execute(s, last_line, &last_repeats);
		s->repeating = false;
	} else if (!empty) {
		add_history(line);
		free(last_line);
		last_line = strdup(line);
		dbg_execute(s, line, &last_repeats);
	}
}

/* The console: plain readline, or the TUI's while it is active. */
void dbg_console_loop(dbg_session *s)
{
	char *hist = history_path();
	if (hist)
		read_history(hist);
	apply_history_size(); /* a longer file is cut to the size */
	while (!s->quit) {
		if (dbg_tui_active()) {
			dbg_tui_run(s);
			continue;
		}
		const bool inside = s->defining || s->block;
		char *line = readline(inside ? ">" : "(infsdb) ");
		if (!line && inside) {
			/* Ctrl-D at define's (or a block's) prompt ends it, as
			 * `end` would, and the session goes on, as gdb's */
			printf("end\n");
			while ((s->defining || s->block) && dbg_user_collect(s, "end"))
				;
			continue;
		}
		if (!line) {
			printf("quit\n");
			break;
		}
		if (dbg_tui_take_toggle()) /* Ctrl-X A */
			dbg_tui_enable(s);
		else
			dbg_console_line(s, line);
		free(line);
	}
	free(last_line);
	last_line = NULL;
	if (hist) {
		write_history(hist);
		if (hist_size >= 0)
			history_truncate_file(hist, (int)hist_size);
	}
	free(hist);
}

