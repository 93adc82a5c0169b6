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
void harness_free(harness *h);

/* Place operand values: element i of the vector at wordlines base.. */
void harness_put(harness *h, unsigned base, unsigned width, const uint64_t *v);
void harness_get(harness *h, unsigned base, unsigned width, uint64_t *v);
void harness_put_tag(harness *h, const bool *t);
void harness_get_tag(harness *h, bool *t);

/* A command with operands at fixed wordlines that fit width n on the
 * harness machine: a at 0, b at n, d at 2n, d2 at 3n, scratch from 4n. */
isa_cmd harness_cmd(harness *h, unsigned op, unsigned width, bool is_signed);

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

#endif
