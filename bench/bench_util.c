/* SPDX-License-Identifier: MIT */
/*
 * bench_util.c: see bench_util.h.
 */
#include "bench_util.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

double bench_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

uint64_t bench_splitmix(uint64_t *state)
{
	uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* Transpose a 64x64 bit matrix in place: bit j of x[i] goes to bit i of
 * x[j] (Hacker's Delight 7-3, with bit 0 the least significant).  It
 * turns 64 element values into 64 row words of one array word, and back. */
static void transpose64(uint64_t x[64])
{
	uint64_t mask = UINT64_C(0x00000000ffffffff);
	for (unsigned j = 32; j; j >>= 1, mask ^= mask << j)
		for (unsigned k = 0; k < 64; k = ((k | j) + 1) & ~j) {
			const uint64_t t = ((x[k] >> j) ^ x[k | j]) & mask;
			x[k] ^= t << j;
			x[k | j] ^= t;
		}
}

void bench_put(sram_machine *m, unsigned base, unsigned width, const uint64_t *v)
{
	const unsigned B = m->g.bitlines;
	uint64_t x[64];
	for (unsigned arr = 0; arr < m->narrays; arr++)
		for (unsigned j = 0; j < m->wpa; j++) {
			const uint64_t e0 = (uint64_t)arr * B + 64u * j;
			for (unsigned i = 0; i < 64; i++)
				x[i] = 64u * j + i < B ? v[e0 + i] : 0;
			transpose64(x);
			for (unsigned k = 0; k < width; k++)
				sram_row(m, arr, base + k)[j] = x[k];
		}
}

void bench_get(sram_machine *m, unsigned base, unsigned width, uint64_t *v)
{
	const unsigned B = m->g.bitlines;
	uint64_t x[64];
	for (unsigned arr = 0; arr < m->narrays; arr++)
		for (unsigned j = 0; j < m->wpa; j++) {
			for (unsigned k = 0; k < 64; k++)
				x[k] = k < width ? sram_row(m, arr, base + k)[j] : 0;
			transpose64(x);
			const uint64_t e0 = (uint64_t)arr * B + 64u * j;
			for (unsigned i = 0; i < 64 && 64u * j + i < B; i++)
				v[e0 + i] = x[i];
		}
}

uint64_t bench_get_one(const sram_machine *m, unsigned base, unsigned width,
		       uint64_t e)
{
	const unsigned B = m->g.bitlines;
	uint64_t v = 0;
	for (unsigned k = 0; k < width; k++)
		v |= (uint64_t)sram_get_bit(m, (unsigned)(e / B), base + k,
					    (unsigned)(e % B)) << k;
	return v;
}

bool bench_last_rep(int reps, int r, double spent)
{
	if (reps)
		return r + 1 >= reps;
	return r + 1 >= BENCH_MAX_REPS ||
	       (r + 1 >= BENCH_MIN_REPS && spent >= BENCH_REPS_SECONDS);
}

double bench_best(int reps, void (*fn)(void *), void *ctx)
{
	double best = 1e30, spent = 0;
	for (int r = 0;; r++) {
		const double t0 = bench_now();
		fn(ctx);
		const double dt = bench_now() - t0;
		spent += dt;
		best = dt < best ? dt : best;
		if (bench_last_rep(reps, r, spent))
			return best;
	}
}

void bench_print_load(void)
{
	FILE *f = fopen("/proc/loadavg", "r");
	double load;
	if (f && fscanf(f, "%lf", &load) == 1)
		printf("load average when the bench started: %.2f\n", load);
	if (f)
		fclose(f);
}

sram_machine *bench_machine(const sram_geom *g, const char *who)
{
	sram_machine *m = sram_new(g);
	if (!m) {
		fprintf(stderr, "%s: cannot allocate a %" PRIu64 "-byte machine\n",
			who, sram_geom_bytes(g));
		exit(1);
	}
	return m;
}

int bench_threads(void)
{
#ifdef _OPENMP
	return omp_get_max_threads();
#else
	return 1;
#endif
}
