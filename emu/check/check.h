/* SPDX-License-Identifier: MIT */
/*
 * check.h: comparing the machine with a reference (prefix emu_ref_):
 * what `infsim run --check`, infsdb's check and bisect, and a compiler's
 * own test suite use.  The machine (machine.h) and the scalar reference
 * (refmodel.h) know nothing of each other; this is where they meet.
 */
#ifndef INFSIM_CHECK_H
#define INFSIM_CHECK_H

#include <stdbool.h>
#include <stdint.h>

#include "api.h"
#include "machine.h"
#include "program.h"
#include "refmodel.h"

INFSIM_BEGIN_DECLS

/* The first element of buffer b where machine and reference differ. */
typedef struct emu_mismatch {
	const emu_buffer *buf;
	uint64_t index;
	uint64_t expected, actual;
} emu_mismatch;
/* true if every element agrees; else *mm describes the first difference. */
bool emu_ref_compare(const emu_ref *r, const emu_machine *em,
		     const emu_buffer *b, emu_mismatch *mm);

INFSIM_END_DECLS

#endif
