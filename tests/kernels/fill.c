/* SPDX-License-Identifier: MIT */
/* fill.c: the workloads' inputs and sizes; see cases.h. */
#include "cases.h"

#include <string.h>

static uint64_t next_random(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

void wk_fill_f32(float *v, size_t n, uint64_t seed)
{
	for (size_t i = 0; i < n; i++)
		v[i] = (float)((int32_t)(next_random(&seed) >> 40) - (1 << 23)) * 0x1p-16f;
}

void wk_fill_i32(int32_t *v, size_t n, uint64_t seed)
{
	for (size_t i = 0; i < n; i++)
		v[i] = (int32_t)(uint32_t)next_random(&seed);
}

typedef struct wk_sizes {
	const char *name;
	wk_size small, paper;
} wk_sizes;

/* The samples' sizes and Table 3's (infinity-stream §6). */
static const wk_sizes sizes[] = {
	{"vec_add", {{2048, 1, 1}, 0}, {{4194304, 1, 1}, 0}},
	{"array_sum", {{2048, 1, 1}, 0}, {{4194304, 1, 1}, 0}},
	{"stencil1d", {{2048, 1, 1}, 10}, {{4194304, 1, 1}, 10}},
	{"stencil2d", {{64, 32, 1}, 10}, {{2048, 2048, 1}, 10}},
	{"stencil3d", {{16, 8, 8}, 10}, {{512, 512, 16}, 10}},
	{"dwt2d", {{64, 1, 1}, 0}, {{2048, 1, 1}, 0}},
	{"gauss_elim", {{16, 1, 1}, 0}, {{2048, 1, 1}, 0}},
	{"conv2d", {{64, 32, 1}, 0}, {{2048, 2048, 1}, 0}},
	{"conv3d", {{16, 4, 4}, 0}, {{256, 64, 64}, 0}},
	{"mm_outer", {{16, 1, 1}, 0}, {{2048, 1, 1}, 0}},
	{"mm_inner", {{16, 1, 1}, 0}, {{2048, 1, 1}, 0}},
};

static int lookup(const char *name, wk_size *sz, int paper)
{
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
		if (strcmp(sizes[i].name, name) == 0) {
			*sz = paper ? sizes[i].paper : sizes[i].small;
			return 0;
		}
	return -1;
}

int wk_case_small(const char *name, wk_size *sz)
{
	return lookup(name, sz, 0);
}

int wk_case_paper(const char *name, wk_size *sz)
{
	return lookup(name, sz, 1);
}
