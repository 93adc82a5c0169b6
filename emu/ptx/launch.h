/* SPDX-License-Identifier: MIT */
/*
 * launch.h: what a launch of a PTX module is (prefix ptx_; doc/PTX.md,
 * "Launches"): the launch text `saxpy<<<4, 256>>>(n, 2.0, x:f32[n], y)`
 * that `infsim run --launch` and infsdb take, read against a module into
 * a plan: the arrays the text declares, each placed in one device memory,
 * and the calls in order, each with its kernel, grid, block and the bits
 * of every parameter.  A plan runs on the reference (ptx_ref_run, one
 * call after another over the same memory) or on any other target that
 * takes the same plan.
 *
 * Includes only from lib/, emu/ptx/ptx.h and emu/target/target.h (the
 * element types and the array description a target gives its fronts).
 */
#ifndef INFSIM_PTX_LAUNCH_H
#define INFSIM_PTX_LAUNCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "diag.h"
#include "ptx.h"
#include "target.h"

INFSIM_BEGIN_DECLS

/* The device memory plan: the first array at PTX_PLAN_BASE (so that 0,
 * and every small integer, is never a valid address), each array aligned
 * to PTX_PLAN_ALIGN bytes, in the order the text declares them. */
#define PTX_PLAN_BASE 0x10000u
#define PTX_PLAN_ALIGN 256u
/* Bounds of a launch text: arrays, calls (launches), dimensions of an
 * array, bytes of text. */
#define PTX_PLAN_MAX_ARRAYS 256
#define PTX_PLAN_MAX_CALLS 1024
#define PTX_PLAN_MAX_DIMS TGT_DIMS_MAX
#define PTX_PLAN_MAX_TEXT (1u << 20)
/* A cap on device memory for callers with no better one (64 MiB). */
#define PTX_PLAN_DEFAULT_CAP (UINT64_C(64) << 20)

/* An array the launch text declares (NAME:TYPE[DIMS]). */
typedef struct ptx_array {
	tgt_array arr;        /* its name, element type (i8..u64 as TGT_INT,
			       * f16, f32, f64), shape in C order and
			       * element count, as a target describes it */
	unsigned elem_bytes;  /* 1, 2, 4 or 8 */
	uint64_t bytes;       /* arr.length * elem_bytes */
	uint64_t addr;        /* the device address of element 0 */
	int line, col;        /* where the text declares it */
} ptx_array;

/* One launch: kernel index into the module, <<<grid, block>>>, and one
 * argument's bits per parameter, as ptx_launch.args takes them (a
 * pointer's device address; an f32's bits in the low 32; an integer
 * truncated to the parameter's size). */
typedef struct ptx_call {
	size_t kernel;
	ptx_dim3 grid, block;
	uint64_t *args;
	size_t nargs;
	int line, col;        /* where the launch starts in the text */
} ptx_call;

/* A launch text read against a module.  Every array lies in the device
 * space [base, base + size); size is 0 when the text declares none. */
typedef struct ptx_plan {
	ptx_array *a;
	size_t na;
	ptx_call *c;
	size_t nc;
	uint64_t base, size;
	char *src;            /* the text's source name, for messages */
} ptx_plan;

/* Read a launch text (len bytes, never read past; at most
 * PTX_PLAN_MAX_TEXT) for module m.  src names the text in messages (a
 * file's path, or "--launch" for the command line); defs are -D's
 * NAME=VALUE pairs (the last of a name wins); mem_cap bounds the device
 * memory the arrays take, alignment included.  0 with *out set (free
 * it with ptx_plan_free), or -1 with one message in d,
 * "SRC:LINE:COL: error: ...", and *out empty. */
int ptx_plan_parse(const ptx_module *m, const char *src, const char *text, size_t len,
		   const tgt_def *defs, size_t ndefs, uint64_t mem_cap, ptx_plan *out, diag *d);
void ptx_plan_free(ptx_plan *p);

/* The array of that name, or NULL. */
const ptx_array *ptx_plan_array(const ptx_plan *p, const char *name);

/* Call i as a launch for ptx_ref_run (its args point into the plan). */
ptx_launch ptx_plan_launch(const ptx_plan *p, size_t i, uint64_t max_steps);

/* The device memory of a plan: p->size zeroed bytes at p->base (one byte
 * allocated when size is 0).  0, or -1 with d set (out of memory).
 * ptx_plan_mem_free frees the bytes and empties mem. */
int ptx_plan_mem(const ptx_plan *p, ptx_mem *mem, diag *d);
void ptx_plan_mem_free(ptx_mem *mem);

/* Array a's bytes in mem (elements little-endian, C order), or NULL when
 * mem does not hold all of them. */
uint8_t *ptx_array_bytes(const ptx_mem *mem, const ptx_array *a);
/* Elements [first, first + n) of a (within its length; false and
 * nothing done otherwise) as raw bits, zero-extended from elem_bytes;
 * set stores the low elem_bytes of each. */
bool ptx_array_get(const ptx_mem *mem, const ptx_array *a, uint64_t first, uint64_t n,
		   uint64_t *bits);
bool ptx_array_set(ptx_mem *mem, const ptx_array *a, uint64_t first, uint64_t n,
		   const uint64_t *bits);

/* Run every call of p in order on the reference over mem (made by
 * ptx_plan_mem, or any memory holding [p->base, p->base + p->size)),
 * each with max_steps as its ptx_launch.max_steps (0: the default).
 * 0; or -1 when a call stops with an error: d holds ptx_ref_run's
 * message followed by "(launch I of N, SRC:LINE:COL)", w where the
 * thread stopped, and the calls after it are not run. */
int ptx_plan_ref_run(const ptx_module *m, const ptx_plan *p, ptx_mem *mem, uint64_t max_steps,
		     ptx_where *w, diag *d);

INFSIM_END_DECLS

#endif
