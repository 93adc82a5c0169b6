/* SPDX-License-Identifier: MIT */
/*
 * ptx.h: PTX as clang emits it (prefix ptx_; doc/PTX.md): the reader of
 * a module (.version, .target, .address_size, globals, .entry kernels
 * with their .params, .reg declarations, instructions) and the
 * reference, a plain-C interpreter of the PTX itself that runs a launch
 * one thread at a time (a CTA's threads up to each bar.sync, a warp's up
 * to each shfl.sync).  It knows nothing of Duality Cache's translator or
 * machine (emu/simt/), so it can say what a translated kernel must give.
 *
 * Includes only from lib/ and isa/ (the scalar references of the
 * transcendental commands that the .approx instructions map to).
 */
#ifndef INFSIM_PTX_H
#define INFSIM_PTX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "diag.h"

INFSIM_BEGIN_DECLS

/* A module read from text: its kernels, globals and instructions (the
 * internal form is in ptx_int.h; what a caller needs is below). */
typedef struct ptx_module ptx_module;

/* Read PTX text (len bytes, path for messages).  0 with *out set, or -1
 * with d set at the line and column of the first construct outside the
 * subset of doc/PTX.md, naming it ("'tex.2d' is not in infsim's PTX
 * subset ...").  Never reads past len; bounded memory for any input. */
int ptx_read(const char *path, const char *text, size_t len, ptx_module **out, diag *d);
void ptx_module_free(ptx_module *m);

/* The CORDIC iterations of sin, cos, ex2 and lg2 .approx.f32 (doc/PTX.md,
 * "The .approx functions"): the reference and the SIMT machine both. */
#define PTX_CORDIC_ITERS 28

/* The module's .address_size (32 or 64). */
unsigned ptx_address_bits(const ptx_module *m);

/* Its kernels (.entry), in the order of the text. */
size_t ptx_nkernels(const ptx_module *m);
const char *ptx_kernel_name(const ptx_module *m, size_t k);
/* Kernel k's parameters, in order: name, and size in bytes (4 or 8 for
 * a scalar or a pointer); is_ptr when the kernel uses it as an address
 * (cvta.to.global, or ld/st through it). */
size_t ptx_nparams(const ptx_module *m, size_t k);
typedef struct ptx_param_info {
	const char *name;
	unsigned size;
	bool is_ptr;
	bool is_float;  /* read as .f32/.f64 by the kernel */
} ptx_param_info;
ptx_param_info ptx_param(const ptx_module *m, size_t k, size_t i);
/* The kernel of that name, or -1. */
long ptx_kernel_find(const ptx_module *m, const char *name);

/* ---- a launch on the reference ---- */

/* Global memory as the reference sees it: a flat byte space of size
 * bytes at device addresses [base, base + size).  A pointer argument is
 * a device address in it; the caller places its arrays there. */
typedef struct ptx_mem {
	uint8_t *bytes;
	uint64_t base, size;
} ptx_mem;

typedef struct ptx_dim3 {
	uint32_t x, y, z;
} ptx_dim3;

typedef struct ptx_launch {
	size_t kernel;            /* index into the module's kernels */
	ptx_dim3 grid, block;     /* <<<grid, block>>> */
	const uint64_t *args;     /* one per parameter: its bits (a pointer's
				   * device address, an f32's bits in the low 32) */
	size_t nargs;
	uint64_t max_steps;       /* instructions over all threads before the
				   * run is stopped as runaway (0: a default) */
} ptx_launch;

/* Where a run stopped early (the thread, the instruction's line). */
typedef struct ptx_where {
	ptx_dim3 cta, tid;
	int line;
} ptx_where;

/* Run the launch on mem.  0; or -1 with d set: an access outside mem
 * or outside shared/local/param space, a misaligned access, a barrier
 * that not every thread of a CTA reaches, the step bound, each located
 * at the PTX line of the instruction with the thread (ptx_where in *w
 * when w is not NULL). */
int ptx_ref_run(const ptx_module *m, const ptx_launch *l, ptx_mem *mem, ptx_where *w, diag *d);

INFSIM_END_DECLS

#endif
