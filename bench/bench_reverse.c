/* SPDX-License-Identifier: MIT */
/*
 * bench_reverse.c: what a reverse step of infsdb costs mid-history on a
 * large stream (issue 27 item 6; doc/PERFORMANCE.md, "infsdb: reverse
 * execution"), next to what going back cost without snapshots and what
 * one interval costs going forward, all measured in the same run.
 *
 * The stream: N commands (60 by default) over 1M int32 elements of the
 * default machine, mul.i32 c = a * b then add.i32 a = c + b, in turn.  A
 * session in this process (dbg/'s library, as tests/fuzz/fuzz_dbg.h
 * makes one) runs it to its end, goes back to the middle of its history
 * (reverse-step N/2), then takes reverse-stepi steps there, each timed
 * (CPU of the process and wall) with the micro-ops it replayed (the
 * session's `replayed`, which `show reverse` shows).  Then the same with
 * `set reverse interval unlimited`: no snapshots, a step replays from
 * the start, which is what a step mid-history did when the default
 * budget held only the snapshots near the end.  The ratio of the two is
 * the figure; the interval's forward cost (the run's CPU time per
 * micro-op, times the interval) is the bound a step should stay under.
 *
 * Usage: bench_reverse [steps [commands]]
 * This is a benchmark: it prints figures and judges none by time.  It
 * fails (exit 1) when the session fails or a step replays more than one
 * interval with the snapshots on.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_util.h"
#include "dbg.h"

enum { INTERVAL = 4096 }; /* `set reverse interval`'s default (snaps.c) */

static double cpu_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int write_stream(const char *path, int ncmds)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "buffer a i32 1048576 wl=0 arrays=0:4:4096 init=random:11\n"
		   "buffer b i32 1048576 wl=32 arrays=0:4:4096 init=random:12\n"
		   "buffer c i32 1048576 wl=64 arrays=0:4:4096\n");
	for (int i = 0; i < ncmds; i++)
		fprintf(f, i % 2 ? "add.i32 a, c, b\n" : "mul.i32 c, a, b\n");
	return fclose(f);
}

typedef struct figures {
	double run_cpu, run_wall;
	uint64_t history;        /* micro-ops of the whole run */
	double step_cpu, step_wall; /* the mean of the steps */
	uint64_t replayed_max;
	size_t nsnaps, bytes;
} figures;

/* One line in the session, its output thrown away; -1 if it failed. */
static int exec(dbg_session *s, const char *line)
{
	bool repeat;
	return dbg_execute(s, line, &repeat);
}

static int measure(const char *path, bool snapshots, int steps, figures *fg)
{
	dbg_session s = { 0 };
	diag d;
	diag_clear(&d);
	s.batch = true;
	if (emu_load_file(path, NULL, &s.prog, &d) < 0 || emu_program_lower(&s.prog, &d) < 0) {
		fprintf(stderr, "bench_reverse: %s\n", d.msg);
		return -1;
	}
	s.loaded = true;
	int rc = snapshots ? 0 : exec(&s, "set reverse interval unlimited");
	double c0 = cpu_now(), w0 = bench_now();
	rc |= exec(&s, "run");
	fg->run_cpu = cpu_now() - c0;
	fg->run_wall = bench_now() - w0;
	fg->history = s.since;
	char back[64];
	snprintf(back, sizeof back, "reverse-step %zu", s.prog.ncmds / 2);
	rc |= exec(&s, back);
	fg->replayed_max = 0;
	c0 = cpu_now();
	w0 = bench_now();
	for (int i = 0; i < steps && rc == 0; i++) {
		rc |= exec(&s, "reverse-stepi");
		if (s.replayed > fg->replayed_max)
			fg->replayed_max = s.replayed;
	}
	fg->step_cpu = (cpu_now() - c0) / steps;
	fg->step_wall = (bench_now() - w0) / steps;
	fg->nsnaps = s.nrsnaps;
	fg->bytes = s.rpool.bytes;
	dbg_session_free(&s);
	return rc;
}

int main(int argc, char **argv)
{
	const int steps = argc > 1 ? atoi(argv[1]) : 5;
	const int ncmds = argc > 2 ? atoi(argv[2]) : 60;
	if (steps <= 0 || ncmds < 2) {
		fprintf(stderr, "usage: bench_reverse [steps [commands]]\n");
		return 1;
	}
	char path[] = "/tmp/bench_reverse_XXXXXX.ins";
	int fd = mkstemps(path, 4);
	if (fd < 0 || close(fd) < 0 || write_stream(path, ncmds) < 0) {
		perror("bench_reverse: the stream");
		return 1;
	}
	bench_print_load();
	/* the session's output (positions, the banner of each step) */
	fflush(stdout);
	int out = dup(STDOUT_FILENO);
	if (out < 0 || !freopen("/dev/null", "w", stdout))
		return 1;
	figures on, off;
	const int rc = measure(path, true, steps, &on) | measure(path, false, steps, &off);
	fflush(stdout);
	dup2(out, STDOUT_FILENO);
	close(out);
	unlink(path);
	if (rc) {
		fprintf(stderr, "bench_reverse: the session failed\n");
		return 1;
	}
	const double per_interval = on.run_cpu / (double)on.history * INTERVAL;
	printf("reverse-stepi mid-history: %d commands over 1M int32 elements, %llu micro-ops, "
	       "%d steps back from micro-op %llu\n", ncmds, (unsigned long long)on.history, steps,
	       (unsigned long long)(on.history / 2));
	printf("  %-26s %10s %10s %10s %12s %9s %12s\n", "", "run CPU", "step CPU", "step wall",
	       "replayed", "snapshots", "bytes");
	printf("  %-26s %9.2fs %9.3fs %9.3fs %12llu %9zu %12zu\n", "snapshots (default budget)",
	       on.run_cpu, on.step_cpu, on.step_wall, (unsigned long long)on.replayed_max,
	       on.nsnaps, on.bytes);
	printf("  %-26s %9.2fs %9.3fs %9.3fs %12llu %9zu %12zu\n", "none (replay from start)",
	       off.run_cpu, off.step_cpu, off.step_wall, (unsigned long long)off.replayed_max,
	       off.nsnaps, off.bytes);
	printf("  a step with snapshots costs %.3f of one without (CPU), %.2f of one forward "
	       "interval (%.3fs of CPU)\n", on.step_cpu / off.step_cpu, on.step_cpu / per_interval,
	       per_interval);
	if (on.replayed_max > INTERVAL) {
		printf("  a step replayed %llu micro-ops, more than one interval (%d)\n",
		       (unsigned long long)on.replayed_max, INTERVAL);
		return 1;
	}
	return 0;
}
