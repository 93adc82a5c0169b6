/* SPDX-License-Identifier: MIT */
/*
 * ptxc.h: the translator of clang's PTX (emu/ptx/) into the bundles the
 * SIMT machine runs (prefix simt_ptx_; doc/SIMT.md, "Translated PTX").
 * It is the paper's compiler (duality-cache §4) for a kernel as clang
 * wrote it: basic blocks with real branches (divergence and
 * reconvergence come from the machine's min-PC issue), each PTX
 * instruction lowered to the machine's operations, registers allocated
 * in the arrays' 32-wordline units with the values live across blocks
 * kept in the thread's local memory, and the operations of a block
 * packed into VLIW bundles.
 */
#ifndef INFSIM_SIMT_PTXC_H
#define INFSIM_SIMT_PTXC_H

#include <stdint.h>

#include "diag.h"
#include "ptx.h"
#include "simt.h"

INFSIM_BEGIN_DECLS

/* Where the machine's memory holds what the kernel names besides its
 * arguments: the module's .global and .const variables (their bytes are
 * the caller's to copy there, at these bases plus each variable's offset
 * in its window, doc/PTX.md "Memory"). */
typedef struct simt_ptx_layout {
	uint32_t global_base, const_base;
} simt_ptx_layout;

/* What a translated kernel needs of the program that runs it. */
typedef struct simt_ptx_needs {
	uint32_t local_words;   /* words of local memory a thread */
	uint32_t shared_bytes;  /* its CTA's shared memory */
} simt_ptx_needs;

/* Translate kernel k of module m into out (its name, bundles, each
 * instruction at its PTX line and column), for a program of units =
 * SIMT_UNITS_MAX.  mapping: SIMT_MAP_VLIW packs each block's operations
 * into bundles, SIMT_MAP_SERIAL keeps one a bundle (Fig 13's baseline).
 * 0, or -1 with d at the PTX line and column of the first instruction
 * it cannot map, naming it and why.  out's bundles are the caller's to
 * free (free(out->b)). */
int simt_ptx_translate(const ptx_module *m, size_t k, const simt_ptx_layout *lay, int mapping,
		       simt_kernel *out, simt_ptx_needs *needs, diag *d);

/* One launch of a program built from a module. */
typedef struct simt_ptx_call {
	size_t kernel;            /* the module's kernel */
	uint32_t gdim[3], bdim[3];
	const uint64_t *args;     /* one per parameter, as ptx_launch.args */
	size_t nargs;
	int line;                 /* where the launch was written, or 0 */
} simt_ptx_call;

/* A program for the machine from module m and its launches, in order:
 * every kernel they name translated (mapping as above), memory of the
 * device space [0, dev_bytes) (zero: the caller fills its arrays into
 * p->init), then the module's .global and .const variables with their
 * initial bytes, each launch's parameter buffer, the CBs' shared
 * windows and the local memory.  0, or -1 with d set (a kernel that
 * does not translate, memory past SIMT_MEM_MAX). */
int simt_ptx_program(const char *path, const ptx_module *m, const simt_ptx_call *c, size_t nc,
		     uint64_t dev_bytes, int mapping, simt_program *p, diag *d);

INFSIM_END_DECLS

#endif
