/*
 * test_tui.c: infsdb's TUI, driven as a user drives it, under tmux.
 *
 * `infsdb -tui samples/fig1d_add4.ins` runs in a detached 80x24 tmux
 * session on a private server (-L infsim-test-PID, so that a user's own
 * tmux is never touched; the server is killed after each test, even a
 * failed one).  Keys go in with send-keys; the screen comes back with
 * capture-pane -p and is checked: the listing marks the add current,
 * the array view holds the sum bits the Fig 1(d) add wrote so far with
 * the activated and written wordlines marked, and a resize redraws the
 * whole screen at the new size.  Skipped only if tmux is missing.
 */
#include <criterion/criterion.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char server[64];
static char socket_path[4096];

static bool have_tmux(void)
{
	return system("command -v tmux >/dev/null 2>&1") == 0;
}

/* Run "tmux -L SERVER ARGS"; its stdout, or NULL if it failed. */
static char *tmux(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *tmux(const char *fmt, ...)
{
	char args[2048], cmd[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(args, sizeof args, fmt, ap);
	va_end(ap);
	snprintf(cmd, sizeof cmd, "tmux -L %s -f /dev/null %s 2>/dev/null", server, args);
	FILE *p = popen(cmd, "r");
	cr_assert_not_null(p);
	size_t n = 0, cap = 8192;
	char *out = malloc(cap);
	cr_assert_not_null(out);
	size_t got;
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

static void start_session(void)
{
	if (!have_tmux())
		return;
	snprintf(server, sizeof server, "infsim-test-%ld", (long)getpid());
	char *r = tmux("new-session -d -x 80 -y 24 \"cd '%s' && TERM=xterm-256color "
		       "HOME=/nonexistent '%s' -q -nx -tui samples/fig1d_add4.ins\"",
		       SRCDIR, INFSDB_BIN);
	cr_assert_not_null(r, "tmux new-session failed");
	free(r);
	r = tmux("display-message -p '#{socket_path}'");
	if (r)
		snprintf(socket_path, sizeof socket_path, "%.*s", (int)strcspn(r, "\n"), r);
	free(r);
}

/* tmux leaves its socket file behind when its server is killed. */
static void kill_session(void)
{
	if (server[0])
		free(tmux("kill-server"));
	if (socket_path[0])
		unlink(socket_path);
	server[0] = socket_path[0] = '\0';
}

TestSuite(tui, .init = start_session, .fini = kill_session, .timeout = 60);

static void keys(const char *text)
{
	char *r = tmux("send-keys -t 0 '%s' Enter", text);
	cr_assert_not_null(r, "send-keys %s failed", text);
	free(r);
}

static char *screen(bool escapes)
{
	char *r = tmux("capture-pane -t 0 -p%s", escapes ? " -e" : "");
	cr_assert_not_null(r, "capture-pane failed");
	return r;
}

/* The screen once it holds every needle (NULL-terminated), within 10 s. */
static char *wait_for(const char *first, ...)
{
	for (int tries = 0; tries < 200; tries++) {
		char *s = screen(false);
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
	char *s = screen(false);
	cr_assert_fail("the screen never showed \"%s\" (and the rest); it was:\n%s", first, s);
	return NULL;
}

/* The screen's line that starts with prefix (NULL if none), as a copy. */
static char *line_with(const char *scr, const char *prefix)
{
	for (const char *p = scr; *p;) {
		size_t n = strcspn(p, "\n");
		if (strncmp(p, prefix, strlen(prefix)) == 0)
			return strndup(p, n);
		p += n + (p[n] == '\n');
	}
	return NULL;
}

static int count_lines(const char *scr)
{
	int n = 0;
	for (const char *p = scr; *p; p++)
		n += *p == '\n';
	return n;
}

/* Bit k of A[i] + B[i] = i + 3 (mod 16) for i = 0..15, bitline 0 first:
 * what Fig 1(d)'s add writes to wordline 8 + k (C.k). */
static void sum_bits(unsigned k, char out[17])
{
	for (unsigned i = 0; i < 16; i++)
		out[i] = (char)('0' + (((i + 3) >> k) & 1));
	out[16] = '\0';
}

static void expect_row(const char *scr, const char *prefix, const char *bits)
{
	char *row = line_with(scr, prefix);
	cr_assert_not_null(row, "no row \"%s\" on the screen:\n%s", prefix, scr);
	cr_expect(strstr(row, bits) != NULL, "row \"%s\" should hold %s:\n%s", row, bits, scr);
	free(row);
}

/* Start, then two micro-ops: the add wrote C.0 and C.1 and activated A.1, B.1. */
static char *two_stepis(void)
{
	free(wait_for("(infsdb)", "add.u4 C, A, B", NULL));
	keys("start");
	free(wait_for("=> 0 ", "not started", NULL));
	keys("stepi");
	free(wait_for("next micro-op 1:", NULL));
	keys("stepi");
	return wait_for("next micro-op 2:", "  9 C.1     wr", NULL);
}

Test(tui, steps_the_fig1d_add)
{
	if (!have_tmux())
		cr_skip_test("tmux is not installed");
	char *scr = two_stepis();
	char *cur = line_with(scr, "=> 0 ");
	cr_assert_not_null(cur, "the listing does not mark command 0:\n%s", scr);
	cr_expect(strstr(cur, "add.u4 C, A, B") != NULL, "current line: %s", cur);
	free(cur);
	char bits[17];
	sum_bits(0, bits);
	expect_row(scr, "  8 C.0         ", bits);
	sum_bits(1, bits);
	expect_row(scr, "  9 C.1     wr  ", bits);
	expect_row(scr, " 10 C.2         ", "0000000000000000");
	expect_row(scr, "  1 A.1     act ", "0011001100110011");
	expect_row(scr, "  5 B.1     act ", "1111111111111111");
	expect_row(scr, "    E enable    ", "1111111111111111");
	cr_expect(strstr(scr, "ADD act wl 2,6 -> wl 10") != NULL, "next micro-op:\n%s", scr);
	free(scr);
	/* The bits the last micro-op wrote are in reverse video, the others not. */
	char *esc = screen(true);
	char *c1 = line_with(esc, "  9 C.1");
	char *c0 = line_with(esc, "  8 C.0");
	cr_assert(c1 && c0, "rows missing in:\n%s", esc);
	cr_expect(strstr(c1, "7m") != NULL, "C.1 not highlighted: %s", c1);
	cr_expect(strstr(c0, "7m") == NULL, "C.0 highlighted: %s", c0);
	free(c1);
	free(c0);
	free(esc);
}

/* Every line fits in cols, the layout's lines appear once each, and the
 * prompt is on the last line. */
static void check_layout(const char *scr, int lines, int cols)
{
	cr_expect_eq(count_lines(scr), lines, "%d lines expected:\n%s", lines, scr);
	for (const char *p = scr; *p;) {
		size_t n = strcspn(p, "\n");
		cr_expect(n <= (size_t)cols, "a line longer than %d: %.*s", cols, (int)n, p);
		p += n + (p[n] == '\n');
	}
	static const char *const once[] = { " samples/fig1d_add4.ins  (1 commands)", "=> 0 ", " wl buffer",
					    "    C carry", "    T tag", " array 0  cmd 0" };
	for (size_t i = 0; i < sizeof once / sizeof *once; i++) {
		const char *a = strstr(scr, once[i]);
		cr_expect(a && !strstr(a + 1, once[i]), "\"%s\" not exactly once:\n%s", once[i], scr);
	}
	cr_expect(strncmp(scr, " samples/fig1d_add4.ins", 23) == 0, "title:\n%s", scr);
	const char *last = scr + strlen(scr) - 1;
	while (last > scr && last[-1] != '\n')
		last--;
	cr_expect(strncmp(last, "(infsdb)", 8) == 0, "prompt not last:\n%s", scr);
}

Test(tui, resizes_cleanly)
{
	if (!have_tmux())
		cr_skip_test("tmux is not installed");
	free(two_stepis());
	free(tmux("resize-window -t 0 -x 100 -y 30"));
	/* 30 lines leave room for 11 wordlines: all of C and more of A and B. */
	char *scr = wait_for("  3 A.3", "  4 B.0", " 11 C.3", NULL);
	check_layout(scr, 30, 100);
	char bits[17];
	sum_bits(1, bits);
	expect_row(scr, "  9 C.1     wr  ", bits);
	free(scr);
	free(tmux("resize-window -t 0 -x 80 -y 24"));
	for (int tries = 0; tries < 200; tries++) {
		scr = screen(false);
		if (!strstr(scr, "  3 A.3") && count_lines(scr) == 24)
			break;
		free(scr);
		scr = NULL;
		nanosleep(&(struct timespec){ 0, 50 * 1000 * 1000 }, NULL);
	}
	cr_assert_not_null(scr, "the screen was not redrawn at 80x24");
	check_layout(scr, 24, 80);
	expect_row(scr, "  9 C.1     wr  ", bits);
	free(scr);
}

Test(tui, toggles_and_quits)
{
	if (!have_tmux())
		cr_skip_test("tmux is not installed");
	free(two_stepis());
	/* Left and entered again at another size, the TUI takes the new one. */
	free(tmux("resize-window -t 0 -x 100 -y 30"));
	free(wait_for(" 11 C.3", NULL));
	free(tmux("send-keys -t 0 C-x a"));
	for (int tries = 0; tries < 200; tries++) { /* back to the plain screen */
		char *scr = screen(false);
		bool plain = !strstr(scr, " wl buffer") && strstr(scr, "(infsdb)");
		free(scr);
		if (plain)
			break;
		nanosleep(&(struct timespec){ 0, 50 * 1000 * 1000 }, NULL);
	}
	keys("info machine");
	free(wait_for("in command 0, next micro-op 2 (of 0..3)", NULL));
	keys("tui enable");
	char *scr = wait_for(" wl buffer", "  9 C.1     wr", NULL);
	check_layout(scr, 30, 100);
	free(scr);
	/* Tab completes in the TUI too: at the second Tab the list of the
	 * commands "re" may start goes to the console. */
	free(tmux("send-keys -t 0 're' Tab Tab"));
	free(wait_for("record  reverse-continue  reverse-step  reverse-stepi", NULL));
	free(tmux("send-keys -t 0 C-u"));
	keys("tui disable");
	keys("print C[5]");
	free(wait_for("C[5] = 0", NULL)); /* bits 0 and 1 of 5 + 3 */
	keys("quit");
	for (int tries = 0; tries < 200; tries++) {
		char *r = tmux("list-sessions");
		bool ended = r == NULL;
		free(r);
		if (ended)
			return; /* infsdb left and the session ended */
		nanosleep(&(struct timespec){ 0, 50 * 1000 * 1000 }, NULL);
	}
	cr_assert_fail("infsdb did not quit");
}

/* Without a terminal, `tui enable` says so and the session goes on. */
Test(tui_plain, no_terminal)
{
	char cmd[4096];
	snprintf(cmd, sizeof cmd,
		 "cd '%s' && HOME=/nonexistent '%s' -q -nx -ex 'tui enable' -ex 'echo going on\\n' "
		 "samples/fig1d_add4.ins </dev/null 2>&1",
		 SRCDIR, INFSDB_BIN);
	FILE *p = popen(cmd, "r");
	cr_assert_not_null(p);
	char out[4096];
	size_t n = fread(out, 1, sizeof out - 1, p);
	out[n] = '\0';
	cr_assert_eq(pclose(p), 0);
	cr_expect_str_eq(out, "Cannot enable the TUI when output is not a terminal.\n"
			      "going on\n(infsdb) quit\n");
}
