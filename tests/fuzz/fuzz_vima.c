/* SPDX-License-Identifier: MIT */
/*
 * fuzz_vima.c: libFuzzer target for the .vima parser and the VIMA unit
 * (emu/vima/).  Bytes are parsed as a program; one that parses is run,
 * with a small step bound and, when its memory is small, a page fault
 * injected at an instruction chosen by the input's length.  The unit
 * must never crash, leak, hang or read out of bounds, whatever the text.
 *
 * Build and run (doc/VIMA.md, "Fuzzing"):
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Ilib -Iemu/vima \
 *      tests/fuzz/fuzz_vima.c emu/vima/[a-z]*.c lib/diag.c lib/npy.c \
 *     lib/outfile.c lib/text.c -lm -o fuzz_vima
 *   ./fuzz_vima -max_total_time=60 tests/fuzz/corpus/vima
 */
#include <stddef.h>
#include <stdint.h>

#include "vima.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	vima_program p;
	diag d;
	if (vima_parse("fuzz.vima", (const char *)data, size, NULL, &p, &d) < 0)
		return 0;
	if (p.mem_bytes <= (4u << 20)) {
		vima_run_opts ro = { .fault_at = size % 7, .max_steps = 4096 };
		vima_unit u;
		if (vima_unit_init(&u, &p, &ro, 0, &d) == 0) {
			if (vima_run(&u, &d) >= 0)
				vima_flush(&u);
			vima_unit_free(&u);
		}
	}
	vima_program_free(&p);
	return 0;
}
