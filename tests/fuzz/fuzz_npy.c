/* SPDX-License-Identifier: MIT */
/*
 * fuzz_npy.c: .npy headers (lib/npy.c).
 *
 * Any bytes, as a whole file: its header is parsed, or refused with a
 * message.  A header accepted promises count * item size bytes of data
 * after data_offset, exactly the file's size, so nothing read past it.
 */
#include "fuzz.h"
#include "npy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	npy_header h;
	diag d;
	diag_clear(&d);
	if (npy_parse_header("fuzz.npy", data, size, size, &h, &d) != 0) {
		fuzz_require(d.set && d.msg[0], "a refused header has a message");
		return 0;
	}
	fuzz_require(h.data_offset <= size, "the data starts inside the file");
	if (h.dtype.kind)
		fuzz_require(h.count * h.dtype.size == size - h.data_offset,
			     "the data is exactly the elements");
	return 0;
}
