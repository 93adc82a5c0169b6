/* SPDX-License-Identifier: MIT */
/*
 * cases.h: launches of the CUDA and OpenCL samples with their inputs and
 * expected outputs (prefix ck_case_), for tests/test_cuda_kernels.c.  A
 * case names its committed PTX, its arrays (initial contents, and for an
 * output the contents the plain C of refs.h gives), and the launches to
 * run in order on the same memory, as the host program of the kernel
 * would (gaussian: fan1 then fan2 for each step).  Inputs are
 * splitmix64 values (wk_fill_*), the same on every host; sizes are not
 * multiples of the block where the kernel allows it.
 */
#ifndef INFSIM_TESTS_KERNELS_CUDA_CASES_H
#define INFSIM_TESTS_KERNELS_CUDA_CASES_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#define CK_MAX_ARRAYS 10
#define CK_MAX_ARGS 12

typedef enum ck_check {
	CK_INPUT,   /* not compared */
	CK_EXACT,   /* every byte as want */
	CK_APPROX,  /* fp32 within tol of want, for .approx results */
} ck_check;

typedef struct ck_array {
	const char *name;
	size_t elem, n;       /* element size in bytes, count */
	void *init, *want;    /* n elements each (want: NULL for an input) */
	ck_check check;
	double tol;           /* CK_APPROX: |got - want| <= tol * max(1, |want|) */
} ck_array;

typedef enum ck_arg_kind { CK_ARG_ARRAY, CK_ARG_U32, CK_ARG_U64, CK_ARG_F32 } ck_arg_kind;

typedef struct ck_arg {
	ck_arg_kind kind;
	size_t array;     /* CK_ARG_ARRAY: its index; the argument is its address */
	uint64_t bits;    /* the others: the value's bits */
} ck_arg;

typedef struct ck_launch {
	const char *kernel;
	uint32_t grid[3], block[3];
	ck_arg args[CK_MAX_ARGS];
	size_t nargs;
	long clear;       /* an array the host zeroes before the launch, or -1 */
} ck_launch;

typedef struct ck_case {
	char name[48];
	const char *ptx;  /* relative to the source tree: samples/cuda/saxpy.ptx */
	ck_array arrays[CK_MAX_ARRAYS];
	size_t narrays;
	ck_launch *launches;
	size_t nlaunches, cap;
	uint64_t max_steps;
} ck_case;

/* The cases, 0 .. ck_case_count() - 1. */
size_t ck_case_count(void);
/* Build case i: its arrays filled and its expected outputs computed.
 * 0; out of memory aborts (a test program). */
int ck_case_make(size_t i, ck_case *c);
void ck_case_free(ck_case *c);
/* Case c as files for `infsim run` (tests/ck_export.c): DIR/launch, its
 * launches as one launch text, and DIR/NAME.npy, each array's initial
 * contents (1-byte elements as u8, 4-byte as u32); the command that runs
 * them to cmd.  0, or -1 with the reason on stderr. */
int ck_case_export(const ck_case *c, const char *dir, FILE *cmd);

#endif
