/* SPDX-License-Identifier: MIT */
/*
 * fuzz_claims.c: telling a program's system by its first bytes, as
 * `infsim run -` and `infsdb -` do (each target's claims, tgt_find;
 * emu/target/target.c's tgt_head_word).
 *
 * Any bytes: a target or none, and the same answer twice; every
 * statement's first word fits its buffer.
 */
#include <string.h>

#include "fuzz.h"
#include "target.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *head = (const char *)data;
	const tgt_ops *a = tgt_find("-", head, size), *b = tgt_find("-", head, size);
	fuzz_require(a == b, "the same bytes, the same system");
	char w[8];
	for (unsigned k = 0; k < 64 && tgt_head_word(head, size, k, w, sizeof w); k++)
		fuzz_require(strlen(w) < sizeof w, "a word within its buffer");
	return 0;
}
