/* SPDX-License-Identifier: MIT */
/*
 * fuzz.h: what the fuzz targets share (tests/fuzz/, doc/TESTING.md).
 *
 * Each fuzz_NAME.c defines LLVMFuzzerTestOneInput for one input format.
 * It is built two ways: with libFuzzer (make fuzz: clang, ASan, UBSan)
 * and with replay.c's main(), which feeds it the files of
 * tests/fuzz/corpus/NAME/ and tests/fuzz/regress/NAME/ (make check).  A
 * target aborts (fuzz_require) when an invariant of the format breaks,
 * so that both drivers report it as a crash.
 */
#ifndef INFSIM_FUZZ_H
#define INFSIM_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "sram.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An invariant of the format: abort with a message when it fails. */
#define fuzz_require(cond, what)                                                        \
	do {                                                                            \
		if (!(cond)) {                                                          \
			fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__, __LINE__, \
				what);                                                  \
			abort();                                                        \
		}                                                                       \
	} while (0)

/* Machines the fuzzers run on stay small (a run's time and memory). */
#define FUZZ_HOST_BYTES (UINT64_C(1) << 22)
static inline int fuzz_small_machine(const sram_geom *g)
{
	return sram_host_bytes(g) <= FUZZ_HOST_BYTES;
}

#endif
