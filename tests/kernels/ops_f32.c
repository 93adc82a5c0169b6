/* SPDX-License-Identifier: MIT */
/*
 * ops_f32.c: the workloads' kernels in fp32.  Every operation goes
 * through a volatile float, so that each is rounded to fp32 on its own,
 * as each in-memory command rounds its result (no fused multiply-add, no
 * wider intermediate).
 */
#include "workloads.h"

static float f_add(float a, float b)
{
	volatile float r = a + b;
	return r;
}

static float f_sub(float a, float b)
{
	volatile float r = a - b;
	return r;
}

static float f_mul(float a, float b)
{
	volatile float r = a * b;
	return r;
}

static float f_div(float a, float b)
{
	volatile float r = a / b;
	return r;
}

#define T float
#define S f32
#define ADD f_add
#define SUB f_sub
#define MUL f_mul
#define DIV f_div
/* 5/3 lifting in floating point: predict 0.5 (a + b), update 0.25 (a + b). */
#define PREDICT(sum) f_mul((sum), 0.5f)
#define UPDATE(sum) f_mul((sum), 0.25f)
#include "kernels.inc"
