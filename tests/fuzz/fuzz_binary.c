/* SPDX-License-Identifier: MIT */
/*
 * fuzz_binary.c: the command stream's binary form (emu/encode.c).
 *
 * Any bytes, as little-endian words: decoded, or refused with a message.
 * What decodes must check exactly what the text checks: its canonical
 * text parses, to a program that encodes to the same words.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "program.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const size_t n = size / 8;
	uint64_t *w = malloc(n ? n * sizeof *w : 1);
	if (!w)
		return 0;
	for (size_t i = 0; i < n; i++) {
		w[i] = 0;
		for (unsigned b = 0; b < 8; b++)
			w[i] |= (uint64_t)data[i * 8 + b] << (8 * b);
	}
	emu_program p, q;
	diag d;
	diag_clear(&d);
	if (emu_decode("fuzz.inb", w, n, &p, &d) != 0) {
		fuzz_require(d.set && d.msg[0], "a refused stream has a message");
		free(w);
		return 0;
	}
	char *t = emu_format(&p);
	fuzz_require(t != NULL, "format");
	if (emu_parse("fuzz.ins", t, strlen(t), NULL, &q, &d) != 0) {
		fprintf(stderr, "%s\n%s\n", t, d.msg);
		fuzz_require(0, "the text of a decoded stream parses");
	}
	uint64_t *w2;
	size_t n2;
	fuzz_require(emu_encode(&q, &w2, &n2, &d) == 0, "encode");
	char *t2 = emu_format(&q);
	fuzz_require(t2 && strcmp(t, t2) == 0, "the same text after a round trip");
	free(w2);
	free(t2);
	free(t);
	emu_program_free(&q);
	emu_program_free(&p);
	free(w);
	return 0;
}
