/* SPDX-License-Identifier: MIT */
/*
 * fuzz_tdfg.c: the tDFG text form (emu/tdfg.c) through the JIT (jit.c).
 *
 * Any bytes: parsed and lowered, or refused with a message.  A lowered
 * stream's text parses again (the JIT emits only what a stream may say).
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "program.h"
#include "tdfg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	emu_tdfg t;
	emu_jit j;
	diag d;
	diag_clear(&d);
	emu_tdfg_init(&t);
	if (emu_tdfg_parse("fuzz.tdfg", (const char *)data, size, NULL, NULL, &t, &d) != 0) {
		fuzz_require(d.set && d.msg[0], "a refused tDFG has a message");
		emu_tdfg_free(&t);
		return 0;
	}
	if (!fuzz_small_machine(&t.geom)) {
		emu_tdfg_free(&t);
		return 0;
	}
	memset(&j, 0, sizeof j);
	if (emu_jit_lower(&t, &j, &d) == 0) {
		char *text = emu_format(&j.prog);
		emu_program p;
		fuzz_require(text != NULL, "format");
		if (emu_parse("fuzz.ins", text, strlen(text), NULL, &p, &d) != 0) {
			fprintf(stderr, "%s\n", d.msg);
			fuzz_require(0, "the JIT's stream parses");
		}
		emu_program_free(&p);
		free(text);
	} else {
		fuzz_require(d.set && d.msg[0], "a refused lowering has a message");
	}
	emu_jit_free(&j);
	emu_tdfg_free(&t);
	return 0;
}
