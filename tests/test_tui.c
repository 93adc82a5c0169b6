/* SPDX-License-Identifier: MIT */
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
 * whole screen at the new size.  The suite tui_elems steps the two-tile
 * shift of samples/teach/shift2 and checks the element view (B's tile,
 * the moved elements in reverse video, `tui element`) and the console's
 * scroll-back (PageUp, PageDown).  The suite tui_tdfg opens a tDFG
 * program: the listing shows its source with the current node's line
 * marked, and Tab completes node names.  The suite tui_teach starts with
 * -ex (its output must reach the TUI's console), pins the array view's
 * wordlines (tui rows), highlights a bitline (tui bitline) and gives the
 * console more lines (tui console) at 80x24 and at 100x40.  Skipped only
 * if tmux is missing.
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

static void start_infsdb(const char *sample)
{
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "cd '%s' && TERM=xterm-256color HOME=/nonexistent '%s' -q -nx "
		 "-tui %s", SRCDIR, INFSDB_BIN, sample);
	tmux_start("infsim-test", cmd);
}

static void start_session(void)
{
	start_infsdb("samples/fig1d_add4.ins");
}

/* With -ex before -tui's screen opens: its output must reach the console. */
static void start_with_ex(void)
{
	start_infsdb("-ex 'echo init says hello\\n' samples/fig1d_add4.ins");
}

static void kill_session(void)
{
	tmux_stop();
}

TestSuite(tui, .init = start_session, .fini = kill_session, .timeout = 60);

/* The escape sequence at p (ESC [ ... letter), or 0 if there is none. */
static size_t escape_len(const char *p)
{
	if (p[0] != '\033' || p[1] != '[')
		return 0;
	size_t n = 2;
	while (p[n] && !((p[n] >= 'A' && p[n] <= 'Z') || (p[n] >= 'a' && p[n] <= 'z')))
		n++;
	return p[n] ? n + 1 : n;
}

/* The screen's line that starts with prefix (NULL if none), as a copy;
 * on a screen captured with escapes, after the line's leading ones. */
static char *line_with(const char *scr, const char *prefix)
{
	for (const char *p = scr; *p;) {
		size_t n = strcspn(p, "\n"), skip = 0;
		for (size_t e; (e = escape_len(p + skip)) != 0;)
			skip += e;
		if (strncmp(p + skip, prefix, strlen(prefix)) == 0)
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
	free(tmux_wait_for("(infsdb)", "add.u4 C, A, B", NULL));
	tmux_keys("start");
	free(tmux_wait_for("=> 0 ", "not started", NULL));
	tmux_keys("stepi");
	free(tmux_wait_for("next micro-op 1:", NULL));
	tmux_keys("stepi");
	return tmux_wait_for("next micro-op 2:", "  9 C.1     wr", NULL);
}

Test(tui, steps_the_fig1d_add)
{
	if (!tmux_have())
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
	char *esc = tmux_screen(true);
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

/* The screen once redrawn whole at `lines` lines: the prompt on the last
 * line, `has` shown and `hasnt` not (NULL for none).  Under load the
 * resize reaches the program while a redraw is under way, and a capture
 * taken then shows the top of the new screen only; polled for 10 s. */
static char *redrawn(int lines, const char *has, const char *hasnt)
{
	for (int tries = 0; tries < 200; tries++) {
		char *scr = tmux_screen(false);
		const char *last = scr + strlen(scr) - 1; /* as check_layout finds it */
		while (last > scr && last[-1] != '\n')
			last--;
		if (count_lines(scr) == lines && strncmp(last, "(infsdb)", 8) == 0 &&
		    (!has || strstr(scr, has)) && (!hasnt || !strstr(scr, hasnt)) &&
		    strstr(scr, "    T tag"))
			return scr;
		free(scr);
		nanosleep(&(struct timespec){ 0, 50 * 1000 * 1000 }, NULL);
	}
	return NULL;
}

Test(tui, resizes_cleanly)
{
	if (!tmux_have())
		cr_skip_test("tmux is not installed");
	free(two_stepis());
	free(tmux("resize-window -t 0 -x 100 -y 30"));
	/* 30 lines leave room for 11 wordlines: all of C and more of A and B. */
	char *scr = redrawn(30, " 11 C.3", NULL);
	cr_assert_not_null(scr, "the screen was not redrawn at 100x30");
	check_layout(scr, 30, 100);
	cr_expect(strstr(scr, "  3 A.3") && strstr(scr, "  4 B.0"), "%s", scr);
	char bits[17];
	sum_bits(1, bits);
	expect_row(scr, "  9 C.1     wr  ", bits);
	free(scr);
	free(tmux("resize-window -t 0 -x 80 -y 24"));
	scr = redrawn(24, NULL, "  3 A.3");
	cr_assert_not_null(scr, "the screen was not redrawn at 80x24");
	check_layout(scr, 24, 80);
	expect_row(scr, "  9 C.1     wr  ", bits);
	free(scr);
}

Test(tui, toggles_and_quits)
{
	if (!tmux_have())
		cr_skip_test("tmux is not installed");
	free(two_stepis());
	/* Left and entered again at another size, the TUI takes the new one. */
	free(tmux("resize-window -t 0 -x 100 -y 30"));
	free(tmux_wait_for(" 11 C.3", NULL));
	free(tmux("send-keys -t 0 C-x a"));
	for (int tries = 0; tries < 200; tries++) { /* back to the plain screen */
		char *scr = tmux_screen(false);
		bool plain = !strstr(scr, " wl buffer") && strstr(scr, "(infsdb)");
		free(scr);
		if (plain)
			break;
		nanosleep(&(struct timespec){ 0, 50 * 1000 * 1000 }, NULL);
	}
	tmux_keys("info machine");
	free(tmux_wait_for("in command 0, next micro-op 2 (of 0..3)", NULL));
	tmux_keys("tui enable");
	char *scr = tmux_wait_for(" wl buffer", "  9 C.1     wr", NULL);
	check_layout(scr, 30, 100);
	free(scr);
	/* Tab completes in the TUI too: at the second Tab the list of the
	 * commands "re" may start goes to the console. */
	free(tmux("send-keys -t 0 're' Tab Tab"));
	free(tmux_wait_for("record  refresh  restart  reverse-continue  reverse-finish  "
			   "reverse-next  reverse-step", "reverse-stepi", NULL));
	free(tmux("send-keys -t 0 C-u"));
	tmux_keys("tui disable");
	tmux_keys("print C[5]");
	free(tmux_wait_for("$1 = 0", NULL)); /* C[5]: bits 0 and 1 of 5 + 3 */
	tmux_keys("quit");
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

/* Wait until tmux says the session ended (infsdb left). */
static void expect_session_end(void)
{
	for (int tries = 0; tries < 200; tries++) {
		char *r = tmux("list-sessions");
		bool ended = r == NULL;
		free(r);
		if (ended)
			return;
		nanosleep(&(struct timespec){ 0, 50 * 1000 * 1000 }, NULL);
	}
	cr_assert_fail("infsdb did not quit");
}

/* Keys inside an incremental search (Ctrl-R) go through readline's
 * callback interface as at the plain prompt: Delete deletes (it is not
 * Ctrl-D's end of input), Ctrl-X A leaves the TUI in the middle of the
 * search and the plain console starts clean, and Ctrl-D at an empty
 * line quits. */
Test(tui, keys_inside_a_search)
{
	if (!tmux_have())
		cr_skip_test("tmux is not installed");
	free(tmux_wait_for("(infsdb)", "add.u4 C, A, B", NULL));
	tmux_keys("print 1+1");
	free(tmux_wait_for("$1 = 2", NULL));
	free(tmux("send-keys -t 0 C-r"));
	free(tmux("send-keys -t 0 DC"));
	/* an empty line repeats print, as gdb does */
	tmux_keys("");
	free(tmux_wait_for("$2 = 2", NULL));
	/* Delete at the cursor: "print 6*7x" with the cursor on the x */
	free(tmux("send-keys -t 0 'print 6*7x' Left DC"));
	tmux_keys("");
	free(tmux_wait_for("$3 = 42", " array view:", NULL));
	free(tmux("send-keys -t 0 C-r"));
	free(tmux("send-keys -t 0 C-x a"));
	for (int tries = 0; tries < 200; tries++) { /* back to the plain screen */
		char *scr = tmux_screen(false);
		bool plain = !strstr(scr, " array view:") && strstr(scr, "(infsdb)");
		free(scr);
		if (plain)
			break;
		nanosleep(&(struct timespec){ 0, 50 * 1000 * 1000 }, NULL);
	}
	tmux_keys("print 6*8");
	free(tmux_wait_for("$4 = 48", NULL));
	tmux_keys("tui enable");
	free(tmux_wait_for(" array view:", NULL));
	free(tmux("send-keys -t 0 C-r"));
	free(tmux("send-keys -t 0 C-d"));
	expect_session_end();
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

/* ---- the element view and the console's scroll-back (shift2) ---- */

static void start_shift2(void)
{
	start_infsdb("samples/teach/shift2/shift2.ins");
}

TestSuite(tui_elems, .init = start_shift2, .fini = kill_session, .timeout = 60);

/* The start of line y of scr. */
static const char *line_at(const char *scr, int y)
{
	const char *p = scr;
	for (int i = 0; i < y && *p; i++) {
		p += strcspn(p, "\n");
		p += *p == '\n';
	}
	return p;
}

/* Line y of a screen captured with escapes, as the characters shown and
 * whether each is in reverse video (SGR 7 sets it, 0 and 27 clear it;
 * tmux carries the attributes from one line to the next). */
static void decode_line(const char *esc, int y, char *text, bool *rev, size_t size)
{
	bool on = false;
	size_t n = 0;
	int line = 0;
	for (const char *p = esc; *p && line <= y;) {
		size_t e = escape_len(p);
		if (e && p[e - 1] == 'm') {
			for (const char *q = p + 2; q < p + e - 1; q += strcspn(q, ";m") + (q[strcspn(q, ";m")] == ';')) {
				int v = atoi(q);
				on = v == 7 ? true : v == 0 || v == 27 ? false : on;
			}
			if (e == 3) /* ESC [ m */
				on = false;
		} else if (e) {
		} else if (*p == '\n') {
			line++;
		} else if (line == y && n + 1 < size) {
			text[n] = *p;
			rev[n++] = on;
		}
		p += e ? e : 1;
	}
	text[n] = '\0';
}

/* The words of s[from..] (spaces collapsed) appended to out; only the
 * reverse-video ones if rev is given. */
static void append_words(char *out, size_t size, const char *s, const bool *rev, size_t from)
{
	for (size_t i = from; i < strlen(s);) {
		if (s[i] == ' ' || (rev && !rev[i])) {
			i++;
			continue;
		}
		size_t n = 0;
		while (s[i + n] && s[i + n] != ' ' && (!rev || rev[i + n]))
			n++;
		size_t len = strlen(out);
		snprintf(out + len, size - len, "%s%.*s", len && out[len - 1] != ' ' ? " " : "",
			 (int)n, s + i);
		i += n;
	}
}

/* The element view under its title: the column labels and `rows` grid
 * rows as words, rows separated by "|"; with esc, only the words in
 * reverse video. */
static void elem_grid(const char *scr, const char *esc, const char *title, int rows, char *out,
		      size_t size)
{
	const char *t = strstr(scr, title);
	cr_assert_not_null(t, "no element view \"%s\" on the screen:\n%s", title, scr);
	const char *start = t;
	while (start > scr && start[-1] != '\n')
		start--;
	int y = 0;
	for (const char *p = scr; p < start; p++)
		y += *p == '\n';
	const size_t col = (size_t)(t - start);
	out[0] = '\0';
	for (int r = 0; r <= rows; r++) {
		char text[512];
		bool rev[512];
		if (esc) {
			decode_line(esc, y + 1 + r, text, rev, sizeof text);
		} else {
			const char *l = line_at(scr, y + 1 + r);
			snprintf(text, sizeof text, "%.*s", (int)strcspn(l, "\n"), l);
		}
		const size_t len = strlen(out);
		if (r)
			snprintf(out + len, size - len, "%s|", len && out[len - 1] != ' ' ? " " : "");
		if (strlen(text) > col)
			append_words(out, size, text, esc ? rev : NULL, col);
	}
}

static void expect_grid(const char *title, const char *words, const char *highlighted)
{
	char *scr = tmux_wait_for(title, NULL), *esc = tmux_screen(true), got[1024];
	elem_grid(scr, NULL, title, 2, got, sizeof got);
	cr_expect_str_eq(got, words, "%s: the grid reads \"%s\", not \"%s\":\n%s", title, got, words,
			 scr);
	elem_grid(scr, esc, title, 2, got, sizeof got);
	cr_expect_str_eq(got, highlighted, "%s: the reverse-video elements are \"%s\", not \"%s\":\n%s",
			 title, got, highlighted, esc);
	free(esc);
	free(scr);
}

Test(tui_elems, shows_the_moved_elements)
{
	if (!tmux_have())
		cr_skip_test("tmux is not installed");
	free(tmux_wait_for("(infsdb)", "mv.intra", NULL));
	tmux_keys("start");
	free(tmux_wait_for("=> 0 ", NULL));
	/* B[i][j] = A[i][j - 1]: B's tile 0, zero before the move; the
	 * labels are indexes, [i] and [j], not values */
	expect_grid("B tile 0 (u8)", "[0] [1] [2] [3] | [0] 0 0 0 0 | [1] 0 0 0 0", "| |");
	tmux_keys("step"); /* the intra-array shift: columns 0-2 to 1-3 */
	/* before the transfer between banks the views show its destination,
	 * array 1, where the data will land */
	free(tmux_wait_for("=> 1 ", "array 1  cmd 1", NULL));
	expect_grid("B tile 1 (u8)", "[4] [5] [6] [7] | [0] 0 0 0 0 | [1] 0 0 0 0", "| |");
	tmux_keys("step"); /* the inter-bank move: in flight until the sync */
	free(tmux_wait_for("=> 2 ", "array 1  cmd 2", NULL));
	expect_grid("B tile 1 (u8)", "[4] [5] [6] [7] | [0] 0 0 0 0 | [1] 0 0 0 0", "| |");
	tmux_keys("step");
	free(tmux_wait_for("=> 3 ", NULL));
	expect_grid("B tile 1 (u8)", "[4] [5] [6] [7] | [0] 0 4 5 6 | [1] 0 12 13 14",
		    "| 4 5 6 | 12 13 14");
	tmux_keys("step"); /* the sync delivers A[i][3] to B[i][4], across the tile edge */
	free(tmux_wait_for("program finished", NULL));
	expect_grid("B tile 1 (u8)", "[4] [5] [6] [7] | [0] 3 4 5 6 | [1] 11 12 13 14", "| 3 | 11");
}

Test(tui_elems, chooses_the_buffer)
{
	if (!tmux_have())
		cr_skip_test("tmux is not installed");
	free(tmux_wait_for("(infsdb)", "mv.intra", NULL));
	tmux_keys("start");
	free(tmux_wait_for("B tile 0 (u8)", NULL));
	tmux_keys("tui element A");
	free(tmux_wait_for("The element view shows A.", NULL));
	expect_grid("A tile 0 (u8)", "[0] [1] [2] [3] | [0] 0 1 2 3 | [1] 8 9 10 11", "| |");
	tmux_keys("tui element Z");
	free(tmux_wait_for("tui element: no buffer or tensor \"Z\" in the program.", NULL));
	tmux_keys("tui element");
	free(tmux_wait_for("The element view follows the current command.", "B tile 0 (u8)", NULL));
}

/* A line of the console that scrolled away comes back with PageUp and
 * goes again with PageDown. */
Test(tui_elems, scrolls_the_console_back)
{
	if (!tmux_have())
		cr_skip_test("tmux is not installed");
	free(tmux_wait_for("(infsdb)", "mv.intra", NULL));
	tmux_keys("info layout");
	char *scr = tmux_wait_for("tile 1 (1,0,0): array 1 (bank 1, way 0, array 0), elements [4,8)", NULL);
	cr_expect(!strstr(scr, "Layout Override Table"), "the first line should be off the screen:\n%s",
		  scr);
	free(scr);
	scr = NULL;
	/* up to 12 pages: under load a page's redraw may lag behind the
	 * screen read after it (PageUp at the top stays at the top) */
	for (int page = 0; page < 12 && !scr; page++) {
		free(tmux("send-keys -t 0 PageUp"));
		char *s = tmux_wait_for("more lines below (PageDown)", NULL);
		if (strstr(s, "Layout Override Table"))
			scr = s;
		else
			free(s);
	}
	cr_assert_not_null(scr, "PageUp never showed the first line of \"info layout\"");
	cr_expect(strstr(scr, "(infsdb) info layout") != NULL, "the command line:\n%s", scr);
	free(scr);
	for (int page = 0; page < 4; page++)
		free(tmux("send-keys -t 0 PageDown"));
	for (int tries = 0; tries < 200; tries++) {
		scr = tmux_screen(false);
		bool back = !strstr(scr, "more lines below") && !strstr(scr, "Layout Override Table");
		free(scr);
		if (back)
			return;
		nanosleep(&(struct timespec){ 0, 50 * 1000 * 1000 }, NULL);
	}
	cr_assert_fail("PageDown did not return to the end of the console");
}

/* At 40 columns the element view of Fig 1(d)'s C goes below the array view. */
Test(tui, narrow_terminal_stacks_the_element_view)
{
	if (!tmux_have())
		cr_skip_test("tmux is not installed");
	free(two_stepis());
	free(tmux("resize-window -t 0 -x 40 -y 24"));
	char *scr = tmux_wait_for("\nC (u4) elements 0-15", NULL);
	for (const char *p = scr; *p;) {
		size_t n = strcspn(p, "\n");
		cr_expect(n <= 40, "a line longer than 40: %.*s", (int)n, p);
		p += n + (p[n] == '\n');
	}
	char got[1024];
	elem_grid(scr, NULL, "C (u4) elements 0-15", 2, got, sizeof got);
	cr_expect_str_eq(got, "+0 +1 +2 +3 +4 +5 +6 +7 | [0] 3 0 1 2 3 0 1 2 | [8] 3 0 1 2 3 0 1 2",
			 "%s", scr);
	expect_row(scr, "  9 C.1     wr  ", "1001100110011001");
	free(scr);
}

/* ---- a tDFG program: the listing shows its source ---- */

static void start_tdfg(void)
{
	start_infsdb("tests/dbg/tdfg_sum.tdfg");
}

TestSuite(tui_tdfg, .init = start_tdfg, .fini = kill_session, .timeout = 60);

/* The listing holds the tDFG's lines around the current node's, the
 * current one marked => and bold; `next` moves the mark node by node. */
Test(tui_tdfg, marks_the_current_node_line)
{
	if (!tmux_have())
		cr_skip_test("tmux is not installed");
	free(tmux_wait_for("(infsdb)", " tests/dbg/tdfg_sum.tdfg  (10 nodes, 15 commands)", NULL));
	tmux_keys("start");
	free(tmux_wait_for("=> 8    w = shift X, +1, +0", "node w  cmd 0", NULL));
	tmux_keys("next");
	free(tmux_wait_for("=> 9    a = add.u8 X, w", "node a  cmd 3", NULL));
	tmux_keys("next");
	char *scr = tmux_wait_for("=> 10   e = shift X, -1, +0", "node e  cmd 5", NULL);
	char *mark = line_with(scr, "=> ");
	cr_assert_not_null(mark, "no marked line:\n%s", scr);
	cr_expect(strncmp(mark, "=> 10   e = shift X, -1, +0", 27) == 0, "marked: %s", mark);
	free(mark);
	char *prev = line_with(scr, "   9    a = add.u8 X, w");
	cr_expect_not_null(prev, "line 9 unmarked above the current one:\n%s", scr);
	free(prev);
	free(scr);
	char *esc = tmux_screen(true);
	cr_expect(strstr(esc, "\033[1m=> 10   e = shift") != NULL, "the current line is not bold:\n%s",
		  esc);
	cr_expect(strstr(esc, "\033[1m   9") == NULL, "line 9 is bold:\n%s", esc);
	free(esc);
}

/* Tab completes node names (print, break, list, tui element, ...). */
Test(tui_tdfg, completes_node_names)
{
	if (!tmux_have())
		cr_skip_test("tmux is not installed");
	free(tmux_wait_for("(infsdb)", "tdfg_sum.tdfg", NULL));
	free(tmux("send-keys -t 0 'break k' Tab Tab"));
	free(tmux_wait_for("k  k5", NULL));
	free(tmux("send-keys -t 0 5 Enter"));
	free(tmux_wait_for("Breakpoint 1 at node 'k5' (tests/dbg/tdfg_sum.tdfg:20)", NULL));
	tmux_keys("start");
	free(tmux_wait_for("=> 8 ", NULL));
	free(tmux("send-keys -t 0 'print Y' Tab '[0][1]' Enter"));
	free(tmux_wait_for("(infsdb) print Y[0][1]", "$1 = ", NULL));
}

/* ---- teaching: what -ex printed, tui rows, tui bitline, tui console ---- */

TestSuite(tui_teach, .init = start_with_ex, .fini = kill_session, .timeout = 60);

Test(tui_teach, keeps_the_init_output_and_pins_rows)
{
	if (!tmux_have())
		cr_skip_test("tmux is not installed");
	/* what -ex printed before the screen opened is in its console */
	free(tmux_wait_for("init says hello", " samples/fig1d_add4.ins", NULL));
	free(two_stepis());
	tmux_keys("tui rows 12-13");
	char *scr = tmux_wait_for("The array view shows wordlines 12-13", NULL);
	cr_expect(line_with(scr, " 12 C.") == NULL && line_with(scr, "  9 C.1") == NULL,
		  "only wordlines 12-13 should be shown:\n%s", scr);
	free(scr);
	scr = tmux_wait_for(" 12          ", " 13          ", NULL);
	cr_expect(line_with(scr, "  1 A.1") == NULL, "the activated row is still shown:\n%s", scr);
	free(scr);
	tmux_keys("tui rows auto");
	free(tmux_wait_for("The array view chooses its wordlines", "  9 C.1     wr", NULL));
	tmux_keys("tui bitline 5");
	scr = tmux_wait_for("The array view highlights bitline 5.", " wl buffer      01234v6789012345",
		       NULL);
	free(scr);
	char *esc = tmux_screen(true);
	char *row = line_with(esc, "  9 C.1");
	cr_assert_not_null(row, "no C.1 row:\n%s", esc);
	cr_expect(strstr(row, "4m") != NULL, "bitline 5 is not underlined: %s", row);
	free(row);
	free(esc);
	tmux_keys("tui bitline 16");
	free(tmux_wait_for("tui bitline: expected a bitline from 0 to 15, or off, got \"16\".", NULL));
	tmux_keys("tui rows 9-3");
	free(tmux_wait_for("tui rows: expected wordlines A-B (0 to 15, A <= B) or auto, got \"9-3\".",
		      NULL));
	tmux_keys("tui bitline off");
	free(tmux_wait_for("No bitline is highlighted.", " wl buffer      0123456789012345", NULL));
}

/* The console's height: a quarter of the screen, or what tui console
 * says, at 80x24 and at 100x40. */
static int console_top(const char *scr)
{
	int y = 0, top = -1;
	for (const char *p = scr; *p; p++) {
		if (p == scr || p[-1] == '\n') {
			if (strncmp(p, "    E enable", 12) == 0)
				top = y + 1;
			y++;
		}
	}
	return top;
}

Test(tui_teach, gives_the_console_more_lines)
{
	if (!tmux_have())
		cr_skip_test("tmux is not installed");
	free(two_stepis());
	tmux_keys("tui console 11");
	char *scr = tmux_wait_for("The console takes 11 lines", NULL);
	int lines = count_lines(scr), top = console_top(scr);
	cr_expect(top > 0 && lines - top >= 10, "at 80x24 the console has %d lines:\n%s",
		  lines - top, scr);
	check_layout(scr, 24, 80);
	free(scr);
	free(tmux("resize-window -t 0 -x 100 -y 40"));
	tmux_keys("echo a1\\na2\\na3\\na4\\na5\\na6\\na7\\na8\\na9\\na10\\na11\\na12\\n");
	free(tmux_wait_for("a12", NULL));
	tmux_keys("tui console auto");
	scr = tmux_wait_for("The console takes a quarter of the screen.", NULL);
	cr_expect(strstr(scr, "\na1\n") == NULL, "a1 should have scrolled away:\n%s", scr);
	free(scr);
	tmux_keys("tui console 20");
	scr = tmux_wait_for("The console takes 20 lines", "\na1\n", NULL);
	check_layout(scr, 40, 100);
	char *row = line_with(scr, "  9 C.1     wr");
	cr_expect(row != NULL, "the array view is gone:\n%s", scr);
	free(row);
	free(scr);
	tmux_keys("tui console 1");
	free(tmux_wait_for("tui console: expected a number of lines from 2 to 1000, or auto, got \"1\".",
		      NULL));
}

/* ---- layout, focus, refresh ---- */

/* infsdb at the plain prompt on tests/dbg/steps.ins (five commands). */
static void start_plain_steps(void)
{
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "cd '%s' && TERM=xterm-256color HOME=/nonexistent '%s' -q -nx "
		 "tests/dbg/steps.ins", SRCDIR, INFSDB_BIN);
	tmux_start("infsim-test", cmd);
}

TestSuite(tui_layout, .init = start_plain_steps, .fini = kill_session, .timeout = 60);

/* The whole screen once redrawn: the prompt on the last line, the title
 * bar naming the layout and focus (bar), has shown and neither hasnt
 * (NULL for none); polled for 10 s, as a capture may catch a redraw
 * half done. */
static char *laid_out(const char *bar, const char *has, const char *hasnt, const char *hasnt2)
{
	char *scr = NULL;
	for (int tries = 0; tries < 200; tries++) {
		free(scr);
		scr = tmux_screen(false);
		const char *last = scr + strlen(scr) - 1;
		while (last > scr && last[-1] != '\n')
			last--;
		if (count_lines(scr) == 24 && strncmp(last, "(infsdb)", 8) == 0 && strstr(scr, bar) &&
		    (!has || strstr(scr, has)) && (!hasnt || !strstr(scr, hasnt)) &&
		    (!hasnt2 || !strstr(scr, hasnt2)))
			return scr;
		nanosleep(&(struct timespec){ 0, 50 * 1000 * 1000 }, NULL);
	}
	cr_assert_fail("no screen with \"%s\", \"%s\", without \"%s\", \"%s\":\n%s", bar,
		       has ? has : "", hasnt ? hasnt : "", hasnt2 ? hasnt2 : "", scr);
	return NULL;
}

/* `layout` turns the TUI on from the plain prompt, as gdb's, and picks
 * its windows: src the listing alone, asm the array view alone, regs
 * the listing with the latches and no wordline, split both; next and
 * prev go round them. */
Test(tui_layout, picks_the_windows)
{
	if (!tmux_have())
		cr_skip_test("tmux is not installed");
	free(tmux_wait_for("(infsdb)", NULL));
	tmux_keys("start");
	free(tmux_wait_for("command 0 at tests/dbg/steps.ins:7", NULL));
	tmux_keys("layout src");
	free(laid_out("[layout src, focus cmd]", "=> 0 ", " wl buffer", "    C carry"));
	tmux_keys("layout asm");
	free(laid_out("[layout asm, focus cmd]", "  0 A.0", "=> 0 ", NULL));
	tmux_keys("layout regs");
	free(laid_out("[layout regs, focus cmd]", "    C carry", "  0 A.0", NULL));
	char *scr = laid_out("[layout regs", "=> 0 ", NULL, NULL);
	cr_expect(strstr(scr, "    E enable") && strstr(scr, "C (u4) elements"),
		  "regs: the latches and the element view:\n%s", scr);
	free(scr);
	tmux_keys("layout next");
	free(laid_out("[layout src, focus cmd]", "=> 0 ", " wl buffer", NULL));
	tmux_keys("layout prev");
	free(laid_out("[layout regs, focus cmd]", "    C carry", NULL, NULL));
	tmux_keys("layout split");
	free(laid_out("[layout split, focus cmd]", "=> 0 ", "layout: ", NULL));
	scr = laid_out("[layout split", "  0 A.0", NULL, NULL);
	free(scr);
	tmux_keys("layout sideways");
	free(laid_out("[layout split", "layout: no layout \"sideways\": expected src, asm, split or regs",
		      NULL, NULL));
}

/* `focus` gives PageDown and the arrows to a window the layout shows:
 * the listing scrolls (away from => until the machine moves), the
 * array view shows wordlines from the one scrolled to; a window the
 * layout hides is refused; `refresh` and Ctrl-L repaint it all. */
Test(tui_layout, focus_scrolls_and_refresh_redraws)
{
	if (!tmux_have())
		cr_skip_test("tmux is not installed");
	free(tmux_wait_for("(infsdb)", NULL));
	tmux_keys("start");
	free(tmux_wait_for("command 0 at tests/dbg/steps.ins:7", NULL));
	tmux_keys("layout src");
	free(laid_out("[layout src, focus cmd]", "=> 0 ", NULL, NULL));
	tmux_keys("focus asm");
	free(laid_out("[layout src, focus cmd]", "focus: window asm is not shown by layout src",
		      NULL, NULL));
	tmux_keys("focus src");
	free(laid_out("[layout src, focus src]", "Focus set to src window.", NULL, NULL));
	free(tmux("send-keys -t 0 NPage"));
	free(laid_out("[layout src, focus src]", "   4      12  sel.u4", "=> 0 ", NULL));
	free(tmux("send-keys -t 0 PPage"));
	free(laid_out("[layout src, focus src]", "=> 0 ", NULL, NULL));
	tmux_keys("stepi");
	free(laid_out("[layout src, focus src]", "next micro-op 1", NULL, NULL));
	tmux_keys("layout split"); /* it shows src too: the focus stays */
	free(laid_out("[layout split, focus src]", "  0 A.0", NULL, NULL));
	tmux_keys("fs next");
	free(laid_out("[layout split, focus asm]", "Focus set to asm window.", NULL, NULL));
	for (int k = 0; k < 12; k++)
		free(tmux("send-keys -t 0 Down"));
	char *scr = laid_out("[layout split, focus asm]", " 12 D.0", "  0 A.0", NULL);
	free(scr);
	/* refresh and Ctrl-L repaint the whole screen, the windows as they were */
	free(tmux("send-keys -t 0 C-l"));
	free(laid_out("[layout split, focus asm]", " 12 D.0", NULL, NULL));
	tmux_keys("refresh");
	scr = laid_out("[layout split, focus asm]", "(infsdb) refresh", NULL, NULL);
	cr_expect(strstr(scr, " 12 D.0") && strstr(scr, "    E enable"), "after refresh:\n%s", scr);
	free(scr);
	tmux_keys("refresh now");
	free(laid_out("[layout split", "\"refresh\" takes no arguments.", NULL, NULL));
	tmux_keys("focus next"); /* the console's again: PageUp scrolls it */
	free(laid_out("[layout split, focus cmd]", "Focus set to cmd window.", NULL, NULL));
}
