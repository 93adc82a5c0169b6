/* SPDX-License-Identifier: MIT */
/* mem.c: see mem.h. */
#include "mem.h"

#include <stdbool.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* Linux 5.14's value; a kernel without it answers EINVAL, and the pages
 * fault in as before. */
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

/* Below this a block from malloc is likely to share pages already
 * mapped: one system call would cost more than the faults it saves. */
#define MEM_WHOLE_MIN ((size_t)256 << 10)

static unsigned page_shift(void)
{
	const long ps = sysconf(_SC_PAGESIZE);
	unsigned s = 12;
	while (ps > 0 && ((size_t)1 << s) < (size_t)ps)
		s++;
	return s;
}

void mem_prefault(void *p, size_t bytes)
{
	if (!p || bytes < MEM_WHOLE_MIN)
		return;
	const uintptr_t page = (uintptr_t)1 << page_shift();
	const uintptr_t lo = ((uintptr_t)p + page - 1) & ~(page - 1);
	const uintptr_t hi = ((uintptr_t)p + bytes) & ~(page - 1);
	if (hi > lo)
		(void)madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);
}

void *mem_alloc_whole(size_t bytes)
{
	void *p = malloc(bytes ? bytes : 1);
	mem_prefault(p, bytes);
	return p;
}

int mem_pages_init(mem_pages *pg, void *base, size_t bytes)
{
	pg->base = base;
	pg->bytes = bytes;
	pg->shift = page_shift();
	/* A page more than the block spans: base need not be aligned. */
	const size_t pages = (bytes >> pg->shift) + 2;
	pg->taken = calloc((pages + 63) / 64, sizeof *pg->taken);
	return pg->taken ? 0 : -1;
}

void mem_pages_free(mem_pages *pg)
{
	free(pg->taken);
	pg->taken = NULL;
}

static bool page_taken(const mem_pages *pg, size_t i)
{
	return __atomic_load_n(&pg->taken[i / 64], __ATOMIC_RELAXED) >> (i % 64) & 1;
}

/* Pages i0..i1-1 of the block (counted from base's page), none taken:
 * one request, then their bits. */
static void take_run(mem_pages *pg, uintptr_t first, size_t i0, size_t i1)
{
	(void)madvise((void *)((first + i0) << pg->shift), (i1 - i0) << pg->shift,
		      MADV_POPULATE_WRITE);
	for (size_t i = i0; i < i1; i++)
		__atomic_fetch_or(&pg->taken[i / 64], UINT64_C(1) << (i % 64),
				  __ATOMIC_RELAXED);
}

void mem_pages_take(mem_pages *pg, const void *p, size_t bytes)
{
	/* Only the block's own pages: what lies outside is not the caller's. */
	const uintptr_t lo = (uintptr_t)p, hi = lo + bytes;
	const uintptr_t blo = (uintptr_t)pg->base, bhi = blo + pg->bytes;
	if (!pg->taken || hi <= blo || lo >= bhi || !bytes)
		return;
	p = (const void *)(lo > blo ? lo : blo);
	bytes = (hi < bhi ? hi : bhi) - (uintptr_t)p;
	const uintptr_t first = (uintptr_t)pg->base >> pg->shift;
	const size_t i0 = ((uintptr_t)p >> pg->shift) - first;
	const size_t i1 = (((uintptr_t)p + bytes - 1) >> pg->shift) - first + 1;
	size_t run = SIZE_MAX;
	for (size_t i = i0; i < i1; i++) {
		if (!page_taken(pg, i)) {
			if (run == SIZE_MAX)
				run = i;
			continue;
		}
		if (run != SIZE_MAX)
			take_run(pg, first, run, i);
		run = SIZE_MAX;
	}
	if (run != SIZE_MAX)
		take_run(pg, first, run, i1);
}
