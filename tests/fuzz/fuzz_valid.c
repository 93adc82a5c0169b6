/* SPDX-License-Identifier: MIT */
/*
 * fuzz_valid.c: a stream validated against its tDFG (emu/valid/,
 * doc/TDFG.md "Validating a stream"): the marker binding, the end's
 * checks, the stray writes and the bisection, on streams nobody wrote.
 *
 * The input's first byte picks one of three small tDFGs (a 2-d region,
 * a program of three runs over arrays, a reduction); the rest is the
 * stream.  A stream that parses and lowers on a small machine is
 * validated: refused before the run with a message, held, or differing
 * with a report whose first line is an error, never a crash.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "move.h"
#include "program.h"
#include "tdfg.h"
#include "validate.h"

static const char *const tdfgs[] = {
	"region p 64x4\n"
	"X = input i32 init=random:5\n"
	"w = shift X, +1, +0\n"
	"s1 = add.i32 X, w\n"
	"n = shift X, +0, +1\n"
	"s = add.i32 s1, n\n"
	"output s\n",
	"array A i32 64 init=iota\n"
	"array B i32 64 init=zero\n"
	"region blur 64 param=k\n"
	"x = tensor A\n"
	"l = shift x, +1\n"
	"s1 = add.i32 x, l\n"
	"store B, s1\n"
	"for k = 0, 3\n"
	"  run blur\n"
	"  swap A, B\n"
	"end\n",
	"region r 64x4\n"
	"X = input i32 init=random:7\n"
	"s = reduce.add.i32 X, 0\n"
	"output s\n",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	const char *tt = tdfgs[data[0] % 3];
	emu_program p;
	diag d;
	diag_clear(&d);
	if (emu_parse("fuzz.ins", (const char *)data + 1, size - 1, NULL, &p, &d) != 0)
		return 0;
	if (!fuzz_small_machine(&p.geom) || p.ncmds > 64 || p.nmarks > 64 ||
	    emu_program_lower(&p, &d) != 0 || p.ncmds > 256) {
		emu_program_free(&p);
		return 0;
	}
	emu_geom_override ov;
	emu_geom_override_init(&ov);
	ov.g = p.geom;
	ov.keys = ~0u; /* the tDFG on the stream's machine */
	emu_tdfg t;
	emu_tdfg_init(&t);
	if (emu_tdfg_parse("fuzz.tdfg", tt, strlen(tt), &p.geom, &ov, &t, &d) == 0) {
		emu_valid_report rep;
		memset(&rep, 0, sizeof rep);
		diag_clear(&d);
		const int rc = emu_valid_run(&t, &p, &rep, &d);
		fuzz_require(rc >= -1 && rc <= 1, "a result of the validation");
		fuzz_require(rc != -1 || (d.set && d.msg[0]), "a refusal has a message");
		fuzz_require(rc != 1 || strstr(rep.text, ": error: "), "a difference is reported");
		fuzz_require(rc != 1 || rep.text[strlen(rep.text) - 1] == '\n',
			     "a report ends with a newline");
	}
	emu_tdfg_free(&t);
	emu_program_free(&p);
	return 0;
}
