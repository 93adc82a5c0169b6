/* SPDX-License-Identifier: MIT */
/*
 * fuzz_ckpt_body.c: the body of an infsdb checkpoint (dbg/ckptfile.c),
 * raw or a zstd frame: the part of a checkpoint file read before its
 * words meet a machine.
 *
 * The first byte chooses raw (even) or zstd (odd); the rest is the
 * body.  It decodes within a 1 MiB bound, or is refused with a reason;
 * decoded words encode again to a body that decodes to the same words.
 * (ckptfile.c lives with infsdb, outside the library, so it is compiled
 * in here.)
 */
#include "fuzz.h"
#include "../../dbg/ckptfile.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	const bool zstd = data[0] & 1;
	uint64_t *w = NULL;
	size_t n = 0;
	const char *why = NULL;
	if (dbg_ckpt_decode(data + 1, size - 1, zstd, (size_t)1 << 20, &w, &n, &why) != 0) {
		fuzz_require(why && *why, "a refused body has a reason");
		fuzz_require(!w, "a refused body leaves no words");
		return 0;
	}
	fuzz_require(n * 8 <= (size_t)1 << 20, "the words are within the bound");
	unsigned char *again = NULL;
	size_t len = 0;
	fuzz_require(dbg_ckpt_encode(w, n, zstd, &again, &len, &why) == 0, "encodes again");
	uint64_t *w2 = NULL;
	size_t n2 = 0;
	fuzz_require(dbg_ckpt_decode(again, len, zstd, (size_t)1 << 20, &w2, &n2, &why) == 0 &&
			     n2 == n && (n == 0 || !memcmp(w, w2, n * 8)),
		     "decodes to the same words");
	free(w);
	free(w2);
	free(again);
	return 0;
}
