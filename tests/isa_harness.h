/* SPDX-License-Identifier: MIT */
/*
 * isa_harness.h: run one command on a small machine through the SRAM
 * micro-ops, and through the scalar reference, and compare bit for bit.
 * Shared by the ISA test suites.
 */
#ifndef INFSIM_ISA_HARNESS_H
#define INFSIM_ISA_HARNESS_H

#include <stdbool.h>
#include <stdint.h>

#include "isa.h"
#include "program.h"
#include "sram.h"

/* The harness machine: W wordlines, B bitlines, 2 arrays in 1 way, 1 bank.
 * Elements 0..2B-1 are spread over the two arrays. */
typedef struct harness {
	sram_machine *m;
	unsigned W, B;
	uint64_t count;       /* elements = 2 * B */
	uint64_t cycles;      /* cycles of the last run */
	sram_count cost;      /* micro-op counts of the last run */
} harness;

harness *harness_new(unsigned wordlines, unsigned bitlines);
/* A geometry: wl x bl arrays, apw arrays a way, wpb ways a bank, an
 * mx x my mesh of banks; the controller settings at their defaults. */
/* The 1-d pattern start:stride:count. */
emu_pattern harness_pat(int64_t start, int64_t stride, uint64_t count);

sram_geom harness_geom(unsigned wl, unsigned bl, unsigned apw, unsigned wpb,
		       unsigned mx, unsigned my);
void harness_free(harness *h);

/* Place operand values: element i of the vector at wordlines base.. */
void harness_put(harness *h, unsigned base, unsigned width, const uint64_t *v);
void harness_get(harness *h, unsigned base, unsigned width, uint64_t *v);
void harness_put_tag(harness *h, const bool *t);
void harness_get_tag(harness *h, bool *t);

/* A command with operands at fixed wordlines that fit width n on the
 * harness machine: a at 0, b at n, d at 2n, d2 at 3n, scratch from 4n. */
isa_cmd harness_cmd(harness *h, unsigned op, unsigned width, bool is_signed);
/* The same for any element format (fmt: enum isa_fmt).  madd's c goes at
 * 4n and the scratch then starts at 5n.  iters is ISA_CORDIC_DEFAULT,
 * flags 0 (hardware mode); a cvt's caller sets sfmt, swidth, ssigned. */
isa_cmd harness_cmd_fmt(harness *h, unsigned op, unsigned fmt, unsigned width,
			bool is_signed);

/* Run c on a and b (count elements each; b may be NULL) with the tag
 * latch set from tag_in (NULL = clear), then compare d (and d2, and the
 * tag for predicate commands) with the scalar reference.  Returns true
 * when everything agrees; otherwise writes a description of the first
 * wrong element to why (size bytes).  stepped: run one micro-op at a time
 * with sram_step instead of sram_run. */
bool harness_check(harness *h, const isa_cmd *c, const uint64_t *a,
		   const uint64_t *b, const bool *tag_in, bool stepped,
		   char *why, size_t size);

/* Random n-bit values mixed with edge values (0, 1, -1, MIN, MAX, ...). */
void harness_values(uint64_t *v, uint64_t count, unsigned width, uint64_t seed);
uint64_t harness_rand(uint64_t *state);

/* How harness_check3 runs the micro-program: whole (sram_run), one
 * micro-op at a time (sram_step), or built and run through a controller
 * (isa_build_ctl: the optimised, data-dependent latency).  h->cycles is
 * then the number of micro-ops that ran. */
typedef enum harness_mode { HARNESS_RUN, HARNESS_STEP, HARNESS_CTL } harness_mode;
/* harness_check with a third operand c3 (madd's c; NULL for none), a
 * conversion's source of c->swidth bits, and a mode. */
bool harness_check3(harness *h, const isa_cmd *c, const uint64_t *a,
		    const uint64_t *b, const uint64_t *c3, const bool *tag_in,
		    harness_mode mode, char *why, size_t size);

#endif
