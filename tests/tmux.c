/* SPDX-License-Identifier: MIT */
/*
 * tmux.c: the TUI tests' tmux driver (tmux.h).
 */
#include <criterion/criterion.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tmux.h"

static char server[64];
static char socket_path[4096];

bool tmux_have(void)
{
	return system("command -v tmux >/dev/null 2>&1") == 0;
}

char *tmux(const char *fmt, ...)
{
	char args[2048], cmd[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(args, sizeof args, fmt, ap);
	va_end(ap);
	snprintf(cmd, sizeof cmd, "tmux -L %s -f /dev/null %s 2>/dev/null", server, args);
	FILE *p = popen(cmd, "r");
	cr_assert_not_null(p);
	size_t n = 0, cap = 8192, got;
	char *out = malloc(cap);
	cr_assert_not_null(out);
	while ((got = fread(out + n, 1, cap - n - 1, p)) > 0) {
		n += got;
		if (n + 1 == cap) {
			cap *= 2;
			out = realloc(out, cap);
			cr_assert_not_null(out);
		}
	}
	out[n] = '\0';
	int st = pclose(p);
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		free(out);
		return NULL;
	}
	return out;
}

void tmux_start(const char *prefix, const char *command)
{
	if (!tmux_have())
		return;
	snprintf(server, sizeof server, "%s-%ld", prefix, (long)getpid());
	char *r = tmux("new-session -d -x 80 -y 24 \"%s\"", command);
	cr_assert_not_null(r, "tmux new-session failed");
	free(r);
	r = tmux("display-message -p '#{socket_path}'");
	if (r)
		snprintf(socket_path, sizeof socket_path, "%.*s", (int)strcspn(r, "\n"), r);
	free(r);
}

/* tmux leaves its socket file behind when its server is killed. */
void tmux_stop(void)
{
	if (server[0])
		free(tmux("kill-server"));
	if (socket_path[0])
		unlink(socket_path);
	server[0] = socket_path[0] = '\0';
}

void tmux_keys(const char *text)
{
	char *r = tmux("send-keys -t 0 '%s' Enter", text);
	cr_assert_not_null(r, "send-keys %s failed", text);
	free(r);
}

char *tmux_screen(bool escapes)
{
	char *r = tmux("capture-pane -t 0 -p%s", escapes ? " -e" : "");
	cr_assert_not_null(r, "capture-pane failed");
	return r;
}

char *tmux_wait_for(const char *first, ...)
{
	for (int tries = 0; tries < 200; tries++) {
		char *s = tmux_screen(false);
		bool all = true;
		va_list ap;
		va_start(ap, first);
		for (const char *n = first; n && all; n = va_arg(ap, const char *))
			all = strstr(s, n) != NULL;
		va_end(ap);
		if (all)
			return s;
		free(s);
		nanosleep(&(struct timespec){ 0, 50 * 1000 * 1000 }, NULL);
	}
	char *s = tmux_screen(false);
	cr_assert_fail("the screen never showed \"%s\" (and the rest); it was:\n%s", first, s);
	return NULL;
}
