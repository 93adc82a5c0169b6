/* SPDX-License-Identifier: MIT */
/*
 * alloc_fail.c: the allocator of the failure-injection builds of infsim
 * and infsdb (tests/infsim_af, tests/infsdb_af; doc/TESTING.md,
 * "Injected failures").  They are linked with
 * -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup,--wrap=strndup,
 * so every allocation that infsim's own code makes comes here (those of
 * the C library, readline and json-c do not), as SQLite's test builds
 * route every allocation through a hook that can fail.
 *
 * INFSIM_ALLOC_FAIL=N makes the Nth allocation (counting from 1) fail,
 * and only that one; INFSIM_ALLOC_COUNT=FILE writes at exit how many
 * allocations were made (and, with a failure asked for, whether it was
 * reached: "COUNT hit" or "COUNT miss").  Neither set: allocations pass
 * through, counted.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t k, size_t n);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t k, size_t n);
void *__wrap_realloc(void *p, size_t n);
char *__wrap_strdup(const char *s);
char *__wrap_strndup(const char *s, size_t n);

static atomic_ulong count;
static unsigned long fail_at;   /* 0: none */
static atomic_bool hit;
static const char *count_file;

static void report(void)
{
	FILE *f = count_file ? fopen(count_file, "w") : NULL;
	if (!f)
		return;
	fprintf(f, "%lu %s\n", (unsigned long)atomic_load(&count),
		!fail_at ? "none" : atomic_load(&hit) ? "hit" : "miss");
	fclose(f);
}

/* Read the settings before main (and before any allocation of ours). */
__attribute__((constructor)) static void alloc_fail_init(void)
{
	const char *n = getenv("INFSIM_ALLOC_FAIL");
	fail_at = n ? strtoul(n, NULL, 10) : 0;
	count_file = getenv("INFSIM_ALLOC_COUNT");
	if (count_file)
		atexit(report);
}

/* Does this allocation fail? */
static int fails(void)
{
	const unsigned long k = atomic_fetch_add(&count, 1) + 1;
	if (fail_at && k == fail_at) {
		atomic_store(&hit, 1);
		return 1;
	}
	return 0;
}

void *__wrap_malloc(size_t n)
{
	return fails() ? NULL : __real_malloc(n);
}

void *__wrap_calloc(size_t k, size_t n)
{
	return fails() ? NULL : __real_calloc(k, n);
}

void *__wrap_realloc(void *p, size_t n)
{
	return fails() ? NULL : __real_realloc(p, n);
}

char *__wrap_strdup(const char *s)
{
	const size_t n = strlen(s) + 1;
	char *c = __wrap_malloc(n);
	if (c)
		memcpy(c, s, n);
	return c;
}

char *__wrap_strndup(const char *s, size_t n)
{
	const size_t len = strnlen(s, n);
	char *c = __wrap_malloc(len + 1);
	if (c) {
		memcpy(c, s, len);
		c[len] = '\0';
	}
	return c;
}
