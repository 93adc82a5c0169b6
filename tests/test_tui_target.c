/* SPDX-License-Identifier: MIT */
/*
 * test_tui_target.c: the TUI on a program of a target (dbg/tui_target.c),
 * driven as a user drives it, under tmux: `infsdb -tui PROG` in a
 * detached session, keys in with send-keys, the screen back with
 * capture-pane.  Each check waits until the screen holds every line it
 * looks for, so that a half-drawn screen is never read.
 *
 * tui_simt: samples/simt/diverge.simt (64 threads; threads 0-19 take a
 * forward branch and wait while 20-63 run the other side) is stepped
 * bundle by bundle, and the divergence view (SIMT's first) is checked
 * character for character: the jump line at the branch, slot 0's mask
 * on each side of the if/else, the threads waiting at the other PC, and
 * the meeting after it; the listing marks the source line of the
 * bundle; at 80x24 and again after a resize to 132x40; `tui view
 * bundles` then draws the kernel's bundles instead.
 *
 * tui_ar: samples/ar/mac.ar stops at a breakpoint on the flow of S[0],
 * and the flows view (Active-Routing's) shows cube 0's flow table entry
 * once the Update arrived; `tui view` lists the views and refuses one
 * the target does not have; quit leaves.
 *
 * A private tmux server (-L NAME-PID) is killed after each test.
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

static void start_infsdb(const char *prog)
{
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "cd '%s' && TERM=xterm-256color HOME=/nonexistent '%s' -q -nx "
		 "-tui %s", SRCDIR, INFSDB_BIN, prog);
	tmux_start("infsim-tuitgt", cmd);
}

static void start_simt(void)
{
	start_infsdb("samples/simt/diverge.simt");
}

static void start_ar(void)
{
	start_infsdb("samples/ar/mac.ar");
}

static void stop(void)
{
	tmux_stop();
}

TestSuite(tui_simt, .init = start_simt, .fini = stop, .timeout = 60);
TestSuite(tui_ar, .init = start_ar, .fini = stop, .timeout = 60);

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

/* A mask line of the divergence view: label padded to 7 columns, then
 * one character a thread: lo for threads below split, hi for the
 * others. */
static void mask_text(const char *label, unsigned split, char lo, char hi, char *want, size_t size)
{
	int n = snprintf(want, size, "%-7s", label);
	for (unsigned t = 0; t < 64 && (size_t)n + 1 < size; t++)
		want[n++] = t < split ? lo : hi;
	want[n] = 0;
}

static void want_mask(const char *scr, const char *label, unsigned split, char lo, char hi)
{
	char want[128], got[256];
	mask_text(label, split, lo, hi, want, sizeof want);
	line_of(scr, label, got, sizeof got);
	cr_assert_str_eq(got, want, "screen:\n%s", scr);
}

/* The screen once the bar names bundle n and the view's "here" line
 * holds the mask drawn for it. */
static char *wait_bundle(unsigned n, unsigned split, char lo, char hi)
{
	char bar[64], here[128];
	snprintf(bar, sizeof bar, "[divergence] bundle %u: diverge pc %u:", n, n);
	mask_text("here", split, lo, hi, here, sizeof here);
	return tmux_wait_for(bar, here, NULL);
}

/* The same, once the view's last line (who waits where) is drawn too:
 * a loaded host may capture the window between its lines. */
static char *wait_bundle_waiting(unsigned n, unsigned split, char lo, char hi, const char *waiting)
{
	char bar[64], here[128];
	snprintf(bar, sizeof bar, "[divergence] bundle %u: diverge pc %u:", n, n);
	mask_text("here", split, lo, hi, here, sizeof here);
	return tmux_wait_for(bar, here, waiting, NULL);
}

static void check_divergence(void)
{
	tmux_keys("start");
	free(wait_bundle(0, 0, '.', '#'));
	/* pc 3, "@p0 bra L": threads 0-19 jump */
	tmux_keys("stepi 3");
	char *s = wait_bundle_waiting(3, 0, '.', '#', "waiting: none (no divergence)");
	want_mask(s, "jump", 20, '#', '.');
	cr_assert(strstr(s, "waiting: none (no divergence)"), "%s", s);
	cr_assert(strstr(s, "=> 11           @p0 bra L"), "the listing marks line 11:\n%s", s);
	free(s);
	/* pc 4: the other side, 20-63, while 0-19 wait at L (pc 6) */
	tmux_keys("stepi");
	s = wait_bundle_waiting(4, 20, '.', '#', "waiting at pc 6: 0-19 (20 threads)");
	want_mask(s, "slot0", 20, '.', '#');
	want_mask(s, "slot1", 64, '.', '.');
	cr_assert(strstr(s, "waiting at pc 6: 0-19 (20 threads)"), "%s", s);
	cr_assert(strstr(s, "=> 12           add.u32 r2, r0, r1"), "%s", s);
	free(s);
	/* pc 6: the jumping side, while 20-63 wait at E (pc 7) */
	tmux_keys("stepi 2");
	s = wait_bundle_waiting(6, 20, '#', '.', "waiting at pc 7: 20-63 (44 threads)");
	want_mask(s, "slot0", 20, '#', '.');
	cr_assert(strstr(s, "waiting at pc 7: 20-63 (44 threads)"), "%s", s);
	free(s);
	/* pc 7: together again */
	tmux_keys("stepi");
	s = wait_bundle_waiting(7, 0, '.', '#', "waiting: none (no divergence)");
	want_mask(s, "slot2", 0, '.', '#');
	cr_assert(strstr(s, "waiting: none (no divergence)"), "%s", s);
	free(s);
}

Test(tui_simt, divergence_at_80x24)
{
	if (!tmux_have())
		cr_skip_test("tmux is not installed");
	free(tmux_wait_for("[divergence] the program is not being run", "(infsdb)", NULL));
	check_divergence();
	tmux_keys("stepi 2");
	free(tmux_wait_for("[divergence] the program ended after 9 bundles, cycle 325",
			   "the program has ended", NULL));
}

Test(tui_simt, divergence_at_132x40_then_bundles)
{
	if (!tmux_have())
		cr_skip_test("tmux is not installed");
	/* the first screen drawn, so that the resize reaches a program that
	 * handles it (one still starting would miss its SIGWINCH) */
	free(tmux_wait_for("(infsdb)", "[divergence]", NULL));
	free(tmux("resize-window -t 0 -x 132 -y 40"));
	/* the larger screen lists more source: six lines, not four (waited
	 * for: the resize may reach the program late, and it redraws then) */
	free(tmux_wait_for("   6    .global O u32 64", "(infsdb)", NULL));
	check_divergence();
	char *s = tmux_wait_for("   18           st.global.u32 [r6], r2", NULL);
	cr_assert(strstr(s, "=> 17           add.u32 r6, r6, r7"), "%s", s);
	free(s);
	tmux_keys("tui view bundles");
	s = tmux_wait_for("[bundles] bundle 7:", "=>   7  add.u32 r6, r6, r7",
			  "The state window shows the bundles view", NULL);
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

Test(tui_ar, flows_at_a_flow_breakpoint)
{
	if (!tmux_have())
		cr_skip_test("tmux is not installed");
	free(tmux_wait_for("[flows] the program is not being run", "   4    threads 4", NULL));
	tmux_keys("break flow S[0]");
	free(tmux_wait_for("Breakpoint 1 at flow S[0]", NULL));
	tmux_keys("run");
	/* before the Update's arrival: the tables are empty, the listing marks
	 * the UpdateRR's line */
	char *s = tmux_wait_for("[flows] event 11: cycle 12: cube 0 receives an Update of S[0]",
				"every flow table is empty", NULL);
	cr_assert(strstr(s, "=> 9      UpdateRR A[i], B[i], S[0], mac"), "%s", s);
	free(s);
	tmux_keys("stepi");
	s = tmux_wait_for("[flows] event 12: cycle 12: the host issues its next operation",
			  "cube 0: 1 of 16 flows, 1 of 128 buffers, 0 waiting", NULL);
	cr_assert(strstr(s, "  S[0] (mac), tree of host 0: parent the host, children {}"), "%s", s);
	free(s);
	tmux_keys("tui view");
	free(tmux_wait_for("The views of ar programs (tui view NAME):",
			   "* flows        -- every cube's flow table", NULL));
	tmux_keys("tui view divergence");
	free(tmux_wait_for("tui view: no view \"divergence\" for ar programs; expected one of: "
			   "flows.", NULL));
	tmux_keys("delete 1");
	tmux_keys("continue");
	free(tmux_wait_for("[flows] the program ended after 1899 events, cycle 1113",
			   "every flow table is empty", NULL));
}

/* layout and focus on a target's TUI: src shows the listing alone and
 * state the state window alone; focus src scrolls the listing away from
 * "=>", focus state scrolls the state window; a window the layout hides
 * cannot be focused, and the top bar names both. */
Test(tui_simt, layout_and_focus)
{
	if (!tmux_have())
		cr_skip_test("tmux is not installed");
	free(tmux_wait_for("(infsdb)", "[divergence]", NULL));
	free(tmux("resize-window -t 0 -x 132 -y 40"));
	free(tmux_wait_for("   6    .global O u32 64", "(infsdb)", NULL));
	tmux_keys("start");
	free(tmux_wait_for("[divergence] bundle 0:", NULL));
	tmux_keys("layout src");
	/* the listing alone: the bar of the state window moves to the foot */
	char *s = tmux_wait_for("[layout src, focus cmd]", "   1    ", NULL);
	cr_assert(!strstr(s, "slot0  "), "layout src still shows the state:\n%s", s);
	free(s);
	tmux_keys("focus state");
	free(tmux_wait_for("focus: window state is not shown by layout src", NULL));
	tmux_keys("layout state");
	s = tmux_wait_for("[layout state, focus cmd]", "slot0  ", NULL);
	cr_assert(!strstr(s, "=> "), "layout state still lists the source:\n%s", s);
	free(s);
	tmux_keys("focus state");
	s = tmux_wait_for("[layout state, focus state]", "Focus set to state window.", NULL);
	free(s);
	/* Down scrolls the state window one line: its first line goes */
	char first[256];
	s = tmux_wait_for("slot0  ", NULL);
	const char *bar = strstr(s, "[divergence] bundle 0:");
	cr_assert_not_null(bar, "%s", s);
	const char *l = strchr(bar, '\n') + 1;
	snprintf(first, sizeof first, "%.*s", (int)strcspn(l, "\n"), l);
	free(s);
	free(tmux("send-keys -t 0 Down"));
	for (int tries = 0; tries < 100; tries++) {
		s = tmux("capture-pane -p -t 0");
		bar = s ? strstr(s, "[divergence] bundle 0:") : NULL;
		l = bar ? strchr(bar, '\n') : NULL;
		if (l && strncmp(l + 1, first, strlen(first)) != 0) {
			free(s);
			break;
		}
		free(s);
		cr_assert_lt(tries, 99, "Down did not scroll the state window from \"%s\"", first);
		nanosleep(&(struct timespec){ 0, 50 * 1000 * 1000 }, NULL);
	}
	tmux_keys("layout split");
	free(tmux_wait_for("[layout split, focus state]", "=> ", NULL));
	tmux_keys("focus src");
	free(tmux_wait_for("[layout split, focus src]", "Focus set to src window.", NULL));
	tmux_keys("layout next");
	free(tmux_wait_for("[layout src, focus src]", NULL));
}
