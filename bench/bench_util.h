/* SPDX-License-Identifier: MIT */
/*
 * bench_util.h: what the benchmarks share: a clock, a seeded generator,
 * placing element vectors into (and reading them out of) the transposed
 * rows of a whole machine, and the rule for how many runs a figure takes.
 */
#ifndef INFSIM_BENCH_UTIL_H
#define INFSIM_BENCH_UTIL_H

#include <stdbool.h>
#include <stdint.h>

#include "sram.h"

enum { BENCH_MIN_REPS = 3, BENCH_MAX_REPS = 20 };
#define BENCH_REPS_SECONDS 0.25 /* default: runs until this much time is spent */

double bench_now(void);
uint64_t bench_splitmix(uint64_t *state);
/* Place width-bit values v (element order: element e at array e / B,
 * bitline e % B) at wordlines base.., through the array's ordinary port
 * (sram_row), 64 elements at a time through a 64x64 bit transpose. */
void bench_put(sram_machine *m, unsigned base, unsigned width, const uint64_t *v);
/* Read them back the same way. */
void bench_get(sram_machine *m, unsigned base, unsigned width, uint64_t *v);
/* Element e read bit by bit (sram_get_bit): an independent second path. */
uint64_t bench_get_one(const sram_machine *m, unsigned base, unsigned width,
		       uint64_t e);
/* Whether run r (from 0) is the last: reps runs if reps > 0, else as many
 * as fit in BENCH_REPS_SECONDS (from BENCH_MIN_REPS to BENCH_MAX_REPS). */
bool bench_last_rep(int reps, int r, double spent);
/* The best time of fn(ctx) over runs counted by bench_last_rep. */
double bench_best(int reps, void (*fn)(void *), void *ctx);
/* Print the 1-minute load average (other work slows runs down). */
void bench_print_load(void);
/* The threads the executor uses by default (OpenMP's count, or 1). */
int bench_threads(void);
/* A whole-machine allocation, or exit(1) with a message. */
sram_machine *bench_machine(const sram_geom *g, const char *who);

#endif
