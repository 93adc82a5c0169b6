/* SPDX-License-Identifier: MIT */
/*
 * bench_run.c: what a whole small run costs, next to what the host's
 * kernel alone costs for the memory that run touches (issue target:
 * `infsim run samples/vadd_i32.ins` end to end in 40 ms;
 * doc/PERFORMANCE.md, "Whole runs: what bounds them").
 *
 * The SRAM store is an anonymous mapping whose pages the kernel hands out
 * on first touch (sram_new), so a run pays for the pages its buffers
 * touch.  This bench runs `infsim run PROGRAM` (vadd_i32 by default) as
 * a child and reads its wall time, CPU time and minor page faults from
 * wait4; then, in this process, it maps a fresh region and touches the
 * same number of pages, one write per page, spread as the store's ways
 * are (a run of pages in each of 1024 places), and times that.  The
 * second figure is a floor no emulator change can go under while the
 * run touches those pages; the ratio says how much of the run is above
 * it.  Both are measured in the same run of the bench, the best of
 * several.
 *
 * Usage: bench_run [repetitions] [INFSIM [PROGRAM]]
 * This is a benchmark: it prints figures and judges none by time.  It
 * fails (exit 1) when infsim fails.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_util.h"

#ifndef SRCDIR
#define SRCDIR "."
#endif

typedef struct {
	double wall, user, sys;
	long faults;
} cost;

static double tv(struct timeval t)
{
	return (double)t.tv_sec + (double)t.tv_usec * 1e-6;
}

/* One run of infsim as a child, its output thrown away. */
static int run_child(const char *infsim, const char *prog, cost *c)
{
	fflush(stdout);
	double t0 = bench_now();
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (!freopen("/dev/null", "w", stdout))
			_exit(127);
		execl(infsim, infsim, "run", prog, (char *)NULL);
		_exit(127);
	}
	int status;
	struct rusage ru;
	while (wait4(pid, &status, 0, &ru) < 0)
		if (errno != EINTR)
			return -1;
	c->wall = bench_now() - t0;
	c->user = tv(ru.ru_utime);
	c->sys = tv(ru.ru_stime);
	c->faults = ru.ru_minflt;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* Touch pages pages of a fresh mapping, in 1024 runs of consecutive
 * pages spaced as the default machine's ways are (one way: 256 + 10 rows
 * of 512 bytes). */
static int touch_pages(long pages, cost *c)
{
	const size_t page = (size_t)sysconf(_SC_PAGESIZE), places = 1024;
	const size_t stride = 266 * 512, per = ((size_t)pages + places - 1) / places;
	const size_t stride_pages = (stride + page - 1) / page;
	const size_t run = per < stride_pages ? per : stride_pages;
	const size_t bytes = places * stride_pages * page;
	struct rusage r0, r1;
	getrusage(RUSAGE_SELF, &r0);
	double t0 = bench_now();
	char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	long left = pages;
	for (size_t w = 0; w < places && left > 0; w++)
		for (size_t i = 0; i < run && left > 0; i++, left--)
			p[(w * stride_pages + i) * page] = 1;
	munmap(p, bytes);
	c->wall = bench_now() - t0;
	getrusage(RUSAGE_SELF, &r1);
	c->user = tv(r1.ru_utime) - tv(r0.ru_utime);
	c->sys = tv(r1.ru_stime) - tv(r0.ru_stime);
	c->faults = r1.ru_minflt - r0.ru_minflt;
	return 0;
}

static void keep_best(cost *best, const cost *c, int r)
{
	if (r == 0 || c->wall < best->wall)
		*best = *c;
}

int main(int argc, char **argv)
{
	const int reps = argc > 1 ? atoi(argv[1]) : 5;
	const char *infsim = argc > 2 ? argv[2] : "./infsim";
	const char *prog = argc > 3 ? argv[3] : SRCDIR "/samples/vadd_i32.ins";
	cost run = {0}, floor = {0}, c;
	bench_print_load();
	for (int r = 0; r < (reps > 0 ? reps : 5); r++) {
		if (run_child(infsim, prog, &c) < 0) {
			fprintf(stderr, "bench_run: FAIL: %s run %s failed\n", infsim, prog);
			return 1;
		}
		keep_best(&run, &c, r);
		if (touch_pages(c.faults, &c) < 0) {
			perror("bench_run: mmap");
			return 1;
		}
		keep_best(&floor, &c, r);
	}
	printf("%-34s %8s %8s %8s %9s\n", "whole run (best of runs)", "wall ms", "user ms",
	       "sys ms", "faults");
	printf("%-34s %8.1f %8.1f %8.1f %9ld\n", "infsim run (the program)", run.wall * 1e3,
	       run.user * 1e3, run.sys * 1e3, run.faults);
	printf("%-34s %8.1f %8.1f %8.1f %9ld\n", "the same pages touched, no more", floor.wall * 1e3,
	       floor.user * 1e3, floor.sys * 1e3, floor.faults);
	printf("run / its pages alone: %.2fx wall, %.2fx CPU (%s)\n", run.wall / floor.wall,
	       (run.user + run.sys) / (floor.user + floor.sys > 0 ? floor.user + floor.sys : 1e-9),
	       prog);
	return 0;
}
