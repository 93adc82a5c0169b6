/* SPDX-License-Identifier: MIT */
/*
 * ops_i32.c: the workloads' kernels in int32, with the in-memory
 * commands' meaning (doc/COMMANDS.md): add, sub and mul wrap around
 * 2^32; div rounds toward zero, x / 0 = -1 and INT32_MIN / -1 =
 * INT32_MIN; the shift of the lifting steps is arithmetic.
 */
#include "workloads.h"

static int32_t i_add(int32_t a, int32_t b)
{
	return (int32_t)((uint32_t)a + (uint32_t)b);
}

static int32_t i_sub(int32_t a, int32_t b)
{
	return (int32_t)((uint32_t)a - (uint32_t)b);
}

static int32_t i_mul(int32_t a, int32_t b)
{
	return (int32_t)((uint32_t)a * (uint32_t)b);
}

static int32_t i_div(int32_t a, int32_t b)
{
	if (b == 0)
		return -1;
	if (a == INT32_MIN && b == -1)
		return INT32_MIN;
	return a / b;
}

/* a >> s, arithmetic, without relying on the implementation's >>. */
static int32_t i_sra(int32_t a, unsigned s)
{
	return a < 0 ? ~(int32_t)(~(uint32_t)a >> s) : (int32_t)((uint32_t)a >> s);
}

#define T int32_t
#define S i32
#define ADD i_add
#define SUB i_sub
#define MUL i_mul
#define DIV i_div
/* 5/3 lifting in integers (JPEG 2000): predict (a + b) >> 1, update
 * (a + b + 2) >> 2. */
#define PREDICT(sum) i_sra((sum), 1)
#define UPDATE(sum) i_sra(i_add((sum), 2), 2)
#include "kernels.inc"
