/* SPDX-License-Identifier: MIT */
/*
 * fuzz_ar.c: libFuzzer target for the Active-Routing program format
 * (emu/ar/, doc/ACTIVE-ROUTING.md).  Every input is parsed; one that
 * parses is run on the network with small bounds (1 MiB of arrays,
 * 20000 events), on a small table so that stalls and deadlock reports
 * are reached too.  The event bound keeps each input fast.  (With a
 * table of two or three entries, thousands of updates of one flow wait
 * at one cube; every freed entry once retried them all, a time-out that
 * tests/fuzz/regress/ar/ keeps: emu/ar/wait.c now queues them per flow
 * tree.)  `make fuzz` builds it; by hand:
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Ilib -Iemu/ar \
 *       tests/fuzz/fuzz_ar.c emu/ar/[a-z]*.c  lib/diag.c lib/npy.c lib/outfile.c lib/text.c \
 *       -lm -o fuzz_ar
 *   ./fuzz_ar -max_total_time=60 tests/fuzz/corpus/ar
 */
#include <stddef.h>
#include <stdint.h>

#include "ar.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ar_config c;
	ar_config_default(&c);
	c.max_memory = 1u << 20;
	c.max_events = 20000;
	c.flow_entries = 2 + (unsigned)(size % 3);
	c.buffers = 1 + (unsigned)(size % 5);
	c.root = (ar_root_policy)(size % 3);
	diag d;
	diag_clear(&d);
	ar_program *p = ar_parse("fuzz.ar", (const char *)data, size, NULL, 0, &c, &d);
	if (!p)
		return 0;
	ar_stats st;
	diag_clear(&d);
	ar_run(p, &c, &st, &d);
	ar_program_free(p);
	return 0;
}
