/* SPDX-License-Identifier: MIT */
/*
 * compare.c: the machine against the scalar reference, buffer by buffer
 * (check.h).
 */
#include "check.h"

#include <stdlib.h>

bool emu_ref_compare(const emu_ref *r, const emu_machine *em,
		     const emu_buffer *b, emu_mismatch *mm)
{
	uint64_t *got = malloc(b->length * sizeof *got);
	bool same = true;
	if (!got) {
		/* Fall back to one element at a time. */
		for (uint64_t i = 0; i < b->length && same; i++) {
			uint64_t e = emu_ref_get(r, b, i), g = emu_elem_get(em, b, i);
			if (e != g) {
				*mm = (emu_mismatch){b, i, e, g};
				same = false;
			}
		}
		return same;
	}
	emu_buffer_read(em, b, got);
	for (uint64_t i = 0; i < b->length && same; i++) {
		uint64_t e = emu_ref_get(r, b, i);
		if (e != got[i]) {
			*mm = (emu_mismatch){b, i, e, got[i]};
			same = false;
		}
	}
	free(got);
	return same;
}
