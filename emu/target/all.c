/* SPDX-License-Identifier: MIT */
/*
 * all.c: the one list of infsim's targets.  Each target's folder defines
 * its table (emu/<system>/target.c); this list names them and includes
 * none of their headers, so the arrows of doc/ARCHITECTURE.md still run
 * down: a front knows a target only through tgt_ops.
 */
#include "target.h"

extern const tgt_ops tgt_stream, tgt_ar, tgt_nsc, tgt_vima, tgt_simt, tgt_ptx;

const tgt_ops *const tgt_all[] = {
	&tgt_stream,
	&tgt_nsc,
	&tgt_ar,
	&tgt_simt,
	&tgt_ptx,
	&tgt_vima,
	NULL,
};
