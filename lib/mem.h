/* SPDX-License-Identifier: MIT */
/*
 * mem.h: taking a large block's pages from the kernel in runs rather than
 * a fault at a time (prefix mem_).
 *
 * A fresh large allocation comes from the kernel as unmapped pages, and
 * the first write to each page is a page fault.  On a virtual machine a
 * fault's entry and exit cost more than the page itself: on the KVM
 * guest of doc/PERFORMANCE.md, writing 128 MiB a page at a time takes
 * about 17 us of CPU a page, where asking for the same pages in one call
 * (madvise MADV_POPULATE_WRITE, Linux 5.14) takes about 6.  Taking pages
 * early costs no memory as long as they are about to be written anyway:
 *   - mem_alloc_whole: an array the caller writes whole right away (one
 *     read from a file, a buffer read back from the machine);
 *   - mem_pages: a block that is written a part at a time and may stay
 *     partly untouched (the SRAM store, the stream reference's store, the
 *     hazard tracker's state): the caller names the part it is about to
 *     write, and a bit a page remembers what was taken, so asking again
 *     costs a bit test.
 * On a kernel without MADV_POPULATE_WRITE both do nothing more than
 * malloc, and pages fault in as they are written.
 */
#ifndef INFSIM_MEM_H
#define INFSIM_MEM_H

#include <stddef.h>
#include <stdint.h>

/* malloc(bytes) (at least 1 byte), with the pages of a large block
 * mapped before it returns.  Release with free().  NULL when out of
 * memory. */
void *mem_alloc_whole(size_t bytes);

/* Map the whole pages inside [p, p + bytes) now, for a block the caller
 * is about to write whole (mem_alloc_whole without the malloc).  Nothing
 * for a block under 256 KiB, which may share its pages with others. */
void mem_prefault(void *p, size_t bytes);

/* The pages of the block [base, base + bytes) and which were taken. */
typedef struct mem_pages {
	char *base;
	size_t bytes;
	unsigned shift;   /* log2 of the page size */
	uint64_t *taken;  /* a bit a page, set atomically */
} mem_pages;

/* 0, or -1 when out of memory for the bits (pg is then unusable). */
int mem_pages_init(mem_pages *pg, void *base, size_t bytes);
void mem_pages_free(mem_pages *pg);
/* Map the pages under [p, p + bytes) that no earlier call took, in
 * runs: the part of the block about to be written (bytes outside the
 * block are left alone).  Safe
 * from several threads at once (a page two threads race for is asked
 * for twice, which changes nothing).  The contents do not change. */
void mem_pages_take(mem_pages *pg, const void *p, size_t bytes);

#endif
