/* SPDX-License-Identifier: MIT */
/*
 * test_tui_simt.c: `infsdb -tui PROG.simt` (dbg/tui_simt.c), driven as a
 * user drives it, under tmux: samples/simt/diverge.simt (64 threads;
 * threads 0-19 take a forward branch and wait while 20-63 run the other
 * side) is stepped bundle by bundle and the divergence view is checked
 * character for character: the jump line at the branch, slot 0's mask
 * on each side of the if/else, the threads waiting at the other PC, and
 * the meeting after it; at 80x24 and again after a resize to 132x40.
 * A private tmux server (-L infsim-simt-PID) is killed after each test.
 * Skipped only if tmux is missing.
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

static void start(void)
{
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "cd '%s' && TERM=xterm-256color '%s' -q -tui "
		 "samples/simt/diverge.simt", SRCDIR, INFSDB_BIN);
	tmux_start("infsim-simt", cmd);
}

static void stop(void)
{
	tmux_stop();
}

TestSuite(tui_simt, .init = start, .fini = stop, .timeout = 60);


/* The screen once it holds needle, within 10 s. */
static char *wait_for(const char *needle)
{
	return tmux_wait_for(needle, NULL);
}

/* The screen's line starting with label, without trailing blanks. */
static void line_of(const char *scr, const char *label, char *buf, size_t size)
{
	const char *l = scr;
	while (l && strncmp(l, label, strlen(label)))
		l = (l = strchr(l, '\n')) ? l + 1 : NULL;
	cr_assert_not_null(l, "no line '%s' on the screen:\n%s", label, scr);
	size_t n = strcspn(l, "\n");
	while (n && l[n - 1] == ' ')
		n--;
	snprintf(buf, size, "%.*s", (int)n, l);
}

/* A mask line: label padded to 7 columns, then one character a thread:
 * lo for threads below split, hi for the others. */
static void want_mask(const char *scr, const char *label, unsigned split, char lo, char hi)
{
	char want[128], got[256];
	int n = snprintf(want, sizeof want, "%-7s", label);
	for (unsigned t = 0; t < 64; t++)
		want[n++] = t < split ? lo : hi;
	want[n] = 0;
	line_of(scr, label, got, sizeof got);
	cr_assert_str_eq(got, want, "screen:\n%s", scr);
}

static void check_divergence(void)
{
	/* pc 3, "@p0 bra L": threads 0-19 jump */
	tmux_keys("stepi 3");
	char *s = wait_for("pc 3 active 64/64");
	want_mask(s, "jump", 20, '#', '.');
	want_mask(s, "here", 0, '.', '#');
	cr_assert(strstr(s, "waiting: none (no divergence)"), "%s", s);
	free(s);
	/* pc 4: the other side, 20-63, while 0-19 wait at L (pc 6) */
	tmux_keys("stepi");
	s = wait_for("pc 4 active 44/64");
	want_mask(s, "slot0", 20, '.', '#');
	want_mask(s, "slot1", 64, '.', '.');
	want_mask(s, "here", 20, '.', '#');
	cr_assert(strstr(s, "waiting: pc 6: 20 threads;"), "%s", s);
	cr_assert(strstr(s, "=>   4  add.u32 r2, r0, r1"), "%s", s);
	free(s);
	/* pc 6: the jumping side, while 20-63 wait at E (pc 7) */
	tmux_keys("stepi 2");
	s = wait_for("pc 6 active 20/64");
	want_mask(s, "slot0", 20, '#', '.');
	cr_assert(strstr(s, "waiting: pc 7: 44 threads;"), "%s", s);
	free(s);
	/* pc 7: together again */
	tmux_keys("stepi");
	s = wait_for("pc 7 active 64/64");
	want_mask(s, "slot2", 0, '.', '#');
	cr_assert(strstr(s, "waiting: none (no divergence)"), "%s", s);
	free(s);
}

Test(tui_simt, divergence_at_80x24)
{
	if (!tmux_have())
		cr_skip_test("tmux is not installed");
	free(wait_for("pc 0 active 64/64"));
	check_divergence();
	tmux_keys("stepi 2");
	char *s = wait_for("the program has ended");
	free(s);
}

Test(tui_simt, divergence_at_132x40)
{
	if (!tmux_have())
		cr_skip_test("tmux is not installed");
	free(tmux("resize-window -t 0 -x 132 -y 40"));
	free(wait_for("pc 0 active 64/64"));
	check_divergence();
	/* the larger screen lists more bundles: the kernel's first and last
	 * (waited for: under load the resize may reach the program only
	 * after the steps above were drawn, and it redraws then) */
	char *s = wait_for("     0  mov.u32 r0, %tid");
	cr_assert(strstr(s, "=>   7  add.u32 r6, r6, r7"), "%s", s);
	cr_assert(strstr(s, "     8  st.global.u32 [r6], r2"), "%s", s);
	free(s);
	tmux_keys("quit");
	for (int tries = 0; tries < 200; tries++) {
		char *r = tmux("list-sessions");
		free(r);
		if (!r)
			return;
		nanosleep(&(struct timespec){ 0, 50 * 1000 * 1000 }, NULL);
	}
	cr_assert_fail("infsdb did not leave on quit");
}
