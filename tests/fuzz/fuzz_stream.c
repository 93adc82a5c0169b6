/* SPDX-License-Identifier: MIT */
/*
 * fuzz_stream.c: the command stream's text form (emu/parse.c).
 *
 * Any bytes: parsed, or refused with a message.  What parses formats to
 * canonical text that parses again and formats to the same text
 * (emu/program.h's round trip), encodes to the binary form that decodes
 * to the same text, and, on a small machine, runs beside the reference
 * model with every command compared.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "machine.h"
#include "program.h"
#include "refmodel.h"
#include "report.h"

/* Run p on the machine and the reference; a difference is a finding
 * (both are bit-exact models of the same commands). */
static void run_checked(const emu_program *p)
{
	diag d;
	diag_clear(&d);
	emu_machine *em = emu_machine_new(p, &d);
	emu_ref *ref = em ? emu_ref_new(p, &d) : NULL;
	if (ref && emu_init_buffers(em, &d) == 0) {
		emu_ref_init_buffers(ref);
		for (size_t i = 0; i < p->ncmds; i++) {
			if (emu_run_cmd(em, &d) < 0 || emu_ref_run_cmd(ref, i, &d) < 0)
				break;
			fuzz_require(emu_report_check_cmd(ref, em, i, &d), d.msg);
		}
	}
	emu_ref_free(ref);
	emu_machine_free(em);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	emu_program p, q;
	diag d;
	diag_clear(&d);
	if (emu_parse("fuzz.ins", (const char *)data, size, NULL, &p, &d) != 0) {
		fuzz_require(d.set && d.msg[0], "a refused stream has a message");
		return 0;
	}
	char *t1 = emu_format(&p);
	fuzz_require(t1 != NULL, "format");
	fuzz_require(emu_parse("fuzz.ins", t1, strlen(t1), NULL, &q, &d) == 0,
		     "the canonical text parses");
	char *t2 = emu_format(&q);
	fuzz_require(t2 && strcmp(t1, t2) == 0, "the canonical text formats to itself");
	uint64_t *w;
	size_t n;
	emu_program r;
	if (emu_encode(&p, &w, &n, &d) == 0) {
		fuzz_require(emu_decode("fuzz.inb", w, n, &r, &d) == 0, "the binary form decodes");
		char *t3 = emu_format(&r);
		fuzz_require(t3 && strcmp(t1, t3) == 0, "the binary form has the same text");
		free(t3);
		emu_program_free(&r);
		free(w);
	}
	if (fuzz_small_machine(&p.geom) && p.ncmds <= 64)
		run_checked(&p);
	free(t1);
	free(t2);
	emu_program_free(&q);
	emu_program_free(&p);
	return 0;
}
