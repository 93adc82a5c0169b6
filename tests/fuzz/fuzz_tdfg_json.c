/* SPDX-License-Identifier: MIT */
/*
 * fuzz_tdfg_json.c: a libFuzzer target for the artifact's tDFG JSON
 * reader (emu/tdfg_json.c).  The bytes are read as a dump of f32 (even
 * sizes) or i32 (odd sizes) elements; what parses is lowered by the JIT,
 * whose assembler checks the stream it writes.  Any input must end in
 * success or in one message, never in a crash, a leak or a hang.
 *
 *   clang -fsanitize=fuzzer,address,undefined ... fuzz_tdfg_json.c libinfsim
 *   ./fuzz_tdfg_json tests/fuzz/corpus/tdfg_json
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tdfg_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	emu_tdfg t;
	emu_jit j;
	diag d;
	diag_clear(&d);
	memset(&j, 0, sizeof j);
	emu_program_init(&j.prog);
	const char *type = size & 1 ? "i32" : "f32";
	if (emu_tdfg_json_parse("fuzz.json", (const char *)data, size, type, NULL, NULL, &t,
				&d) == 0) {
		diag_clear(&d);
		(void)emu_jit_lower(&t, &j, &d);
	}
	/* A failure must say what failed. */
	if (d.set && !d.msg[0])
		__builtin_trap();
	emu_jit_free(&j);
	emu_tdfg_free(&t);
	return 0;
}
