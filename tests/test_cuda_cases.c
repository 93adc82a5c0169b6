/* SPDX-License-Identifier: MIT */
/*
 * test_cuda_cases.c: the launch cases of tests/kernels/cuda/ and their
 * plain C, checked without running any PTX (tests/test_cuda_kernels.c
 * runs them): each launch passes as many arguments, of the sizes, as
 * the kernel's .entry in the committed PTX declares; every case has an
 * output that the kernel must change (a launch that does nothing fails);
 * and the C results satisfy what their algorithms promise (sums,
 * counts, A = L U, A x = b, breadth-first distances).
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cuda/cases.h"
#include "text.h"

/* The sizes of kernel's .params in the PTX text, in order; how many. */
static size_t entry_params(const char *text, const char *kernel, unsigned sizes[], size_t max)
{
	char head[128];
	snprintf(head, sizeof head, ".entry %s(", kernel);
	const char *p = strstr(text, head);
	cr_assert_not_null(p, "no .entry %s", kernel);
	const char *end = strchr(p, ')');
	cr_assert_not_null(end);
	size_t n = 0;
	for (const char *q = strstr(p, ".param "); q && q < end; q = strstr(q + 1, ".param ")) {
		cr_assert_lt(n, max);
		sizes[n++] = strncmp(q, ".param .u64", 11) == 0 || strncmp(q, ".param .b64", 11) == 0
				     ? 8 : 4;
	}
	return n;
}

static char *slurp(const char *rel)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", SRCDIR, rel);
	char *text;
	size_t len;
	diag d;
	diag_clear(&d);
	cr_assert_eq(text_read_file(path, 16u << 20, &text, &len, &d), 0, "%s", d.msg);
	char *s = realloc(text, len + 1);
	cr_assert_not_null(s);
	s[len] = 0;
	return s;
}

Test(cuda_cases, launches_match_the_committed_ptx)
{
	for (size_t i = 0; i < ck_case_count(); i++) {
		ck_case c;
		cr_assert_eq(ck_case_make(i, &c), 0);
		char *text = slurp(c.ptx);
		unsigned ptr = strstr(text, ".address_size 32") ? 4 : 8;
		cr_expect_gt(c.nlaunches, 0, "%s", c.name);
		for (size_t li = 0; li < c.nlaunches; li++) {
			const ck_launch *l = &c.launches[li];
			unsigned sizes[CK_MAX_ARGS];
			size_t n = entry_params(text, l->kernel, sizes, CK_MAX_ARGS);
			cr_assert_eq(n, l->nargs, "%s: %s has %zu parameters, the case %zu", c.name,
				     l->kernel, n, l->nargs);
			for (size_t a = 0; a < n; a++) {
				unsigned want = l->args[a].kind == CK_ARG_ARRAY ? ptr
						: l->args[a].kind == CK_ARG_U64 ? 8 : 4;
				cr_assert_eq(sizes[a], want, "%s: %s parameter %zu", c.name, l->kernel, a);
				if (l->args[a].kind == CK_ARG_ARRAY)
					cr_assert_lt(l->args[a].array, c.narrays);
			}
			for (int d = 0; d < 3; d++)
				cr_assert(l->grid[d] > 0 && l->block[d] > 0, "%s: an empty launch", c.name);
		}
		free(text);
		ck_case_free(&c);
	}
}

Test(cuda_cases, every_case_has_an_output_to_change)
{
	for (size_t i = 0; i < ck_case_count(); i++) {
		ck_case c;
		cr_assert_eq(ck_case_make(i, &c), 0);
		int changed = 0;
		for (size_t a = 0; a < c.narrays; a++)
			if (c.arrays[a].want &&
			    memcmp(c.arrays[a].init, c.arrays[a].want, c.arrays[a].n * c.arrays[a].elem))
				changed = 1;
		cr_expect(changed, "%s: doing nothing would pass", c.name);
		ck_case_free(&c);
	}
}

/* The case of that name, built. */
static void find(const char *name, ck_case *c)
{
	for (size_t i = 0; i < ck_case_count(); i++) {
		cr_assert_eq(ck_case_make(i, c), 0);
		if (strcmp(c->name, name) == 0)
			return;
		ck_case_free(c);
	}
	cr_assert_fail("no case %s", name);
}

static const ck_array *array(const ck_case *c, const char *name)
{
	for (size_t a = 0; a < c->narrays; a++)
		if (strcmp(c->arrays[a].name, name) == 0)
			return &c->arrays[a];
	cr_assert_fail("%s has no array %s", c->name, name);
	return NULL;
}

Test(cuda_cases, reduce_parts_add_up_to_the_sum)
{
	ck_case c;
	find("reduce_777_b64", &c);
	const ck_array *x = array(&c, "x"), *p = array(&c, "part");
	uint32_t s = 0, t = 0;
	for (size_t i = 0; i < x->n; i++)
		s += ((const uint32_t *)x->init)[i];
	for (size_t i = 0; i < p->n; i++)
		t += ((const uint32_t *)p->want)[i];
	cr_expect_eq(p->n, 7u);
	cr_expect_eq(s, t);
	ck_case_free(&c);
}

Test(cuda_cases, histogram_counts_every_element)
{
	ck_case c;
	find("histogram_100000_g13", &c);
	const ck_array *b = array(&c, "bins");
	uint64_t s = 0;
	for (size_t i = 0; i < 256; i++)
		s += ((const uint32_t *)b->want)[i];
	cr_expect_eq(s, 100000u);
	ck_case_free(&c);
}

Test(cuda_cases, gaussian_solves_the_system)
{
	ck_case c;
	find("gaussian_37", &c);
	const ck_array *A = array(&c, "a"), *B = array(&c, "b");
	size_t n = B->n;
	const float *a0 = A->init, *u = A->want, *b0 = B->init, *bu = B->want;
	double x[64];
	for (size_t i = n; i-- > 0;) {
		double s = bu[i];
		for (size_t j = i + 1; j < n; j++)
			s -= (double)u[i * n + j] * x[j];
		x[i] = s / u[i * n + i];
	}
	for (size_t i = 0; i < n; i++) {
		double s = 0;
		for (size_t j = 0; j < n; j++)
			s += (double)a0[i * n + j] * x[j];
		cr_expect_leq(fabs(s - b0[i]), 1e-4 * (1 + fabs(b0[i])), "row %zu", i);
	}
	ck_case_free(&c);
}

Test(cuda_cases, lud_multiplies_back)
{
	ck_case c;
	find("lud_50", &c);
	const ck_array *A = array(&c, "a");
	size_t n = 50;
	const float *a0 = A->init, *lu = A->want;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			double s = 0;
			for (size_t k = 0; k <= i && k <= j; k++)
				s += (k == i ? 1.0 : (double)lu[i * n + k]) * lu[k * n + j];
			cr_expect_leq(fabs(s - a0[i * n + j]), 1e-4 * (1 + fabs(a0[i * n + j])),
				      "(%zu, %zu)", i, j);
		}
	ck_case_free(&c);
}

Test(cuda_cases, bfs_costs_are_distances)
{
	ck_case c;
	find("bfs_5000", &c);
	const int32_t *start = array(&c, "start")->init, *degree = array(&c, "degree")->init;
	const int32_t *edges = array(&c, "edges")->init, *cost = array(&c, "cost")->want;
	size_t n = array(&c, "start")->n, reached = 0;
	for (size_t v = 0; v < n; v++) {
		if (cost[v] < 0)
			continue;
		reached++;
		for (int32_t e = start[v]; e < start[v] + degree[v]; e++)
			cr_expect(cost[edges[e]] >= 0 && cost[edges[e]] <= cost[v] + 1, "edge %d", e);
	}
	/* most nodes are reached, and deep: many levels, many launches */
	cr_expect_gt(reached, n / 2);
	cr_expect_gt(c.nlaunches, 20u);
	ck_case_free(&c);
}
