/* SPDX-License-Identifier: MIT */
/*
 * ops_loop.h: one function FNAME running every element-wise instruction of
 * ops.def on SZ-byte elements through ELEM(op, x, y), one loop per
 * instruction so the compiler folds ELEM's switch away.  Included by
 * ops.c once per type, with FNAME, SZ and ELEM defined (and undefined
 * here).  mov and mad never reach it (ops.c runs them).
 */
static void FNAME(vima_op op, size_t n, uint8_t *d, const uint8_t *a, const uint8_t *b)
{
	switch (op) {
#define X(name, form, types, fu, sem) \
	case VIMA_OP_##name: LOOP(SZ, ELEM(VIMA_OP_##name, x, y)) break;
#include "ops.def"
#undef X
	default:
		break;
	}
}
#undef FNAME
#undef SZ
#undef ELEM
