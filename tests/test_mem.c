/* SPDX-License-Identifier: MIT */
/*
 * test_mem.c: pages taken in runs (lib/mem.h) and the SRAM store's
 * prefault (sram_prefault, sram_prefault_rows).
 *
 * What must hold: taking pages never changes a byte; the bits name
 * exactly the pages a call covered; a page the kernel maps is resident
 * afterwards (mincore), where the kernel can (Linux 5.14 and later: the
 * residency checks are skipped on one that cannot); and the store stays
 * lazy: a prefault maps the named rows of one way, never another way's.
 */
#include <criterion/criterion.h>

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mem.h"
#include "sram.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

static size_t page(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);
}

/* A fresh anonymous mapping of n pages, none touched. */
static char *fresh(size_t n)
{
	void *p = mmap(NULL, n * page(), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	cr_assert_neq(p, MAP_FAILED);
	return p;
}

/* Does this kernel map pages on request?  (Asked of a page of its own.) */
static bool kernel_populates(void)
{
	char *p = fresh(1);
	const bool ok = madvise(p, page(), MADV_POPULATE_WRITE) == 0;
	munmap(p, page());
	return ok;
}

static bool resident(const void *p)
{
	unsigned char v = 0;
	const uintptr_t a = (uintptr_t)p & ~(uintptr_t)(page() - 1);
	cr_assert_eq(mincore((void *)a, page(), &v), 0, "mincore: %s", strerror(errno));
	return v & 1;
}

static bool taken(const mem_pages *pg, size_t i)
{
	return pg->taken[i / 64] >> (i % 64) & 1;
}

Test(mem, alloc_whole_gives_writable_memory_of_every_size)
{
	const size_t sizes[] = { 0, 1, 4095, 4096, (256u << 10) - 1, 256u << 10,
				 (3u << 20) + 17 };
	for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
		unsigned char *p = mem_alloc_whole(sizes[i]);
		cr_assert_not_null(p, "size %zu", sizes[i]);
		memset(p, 0xa5, sizes[i]);
		for (size_t k = 0; k < sizes[i]; k += 997)
			cr_assert_eq(p[k], 0xa5);
		free(p);
	}
}

Test(mem, alloc_whole_maps_a_large_block_before_it_is_written)
{
	if (!kernel_populates())
		cr_skip_test("this kernel has no MADV_POPULATE_WRITE");
	const size_t n = 4u << 20;
	char *p = mem_alloc_whole(n);
	cr_assert_not_null(p);
	/* Every whole page inside the block, read only through mincore. */
	for (size_t off = page(); off + page() < n; off += page())
		cr_assert(resident(p + off), "page at offset %zu not mapped", off);
	free(p);
}

Test(mem, take_keeps_every_byte_and_marks_exactly_the_pages_covered)
{
	const size_t np = 40;
	char *blk = fresh(np);
	/* Some pages written before: they must keep their bytes. */
	for (size_t i = 0; i < np; i += 3)
		memset(blk + i * page(), (int)(i + 1), page());
	/* A block that starts inside a page, as a malloc'd one does. */
	char *base = blk + 100;
	const size_t bytes = (np - 1) * page();
	mem_pages pg;
	cr_assert_eq(mem_pages_init(&pg, base, bytes), 0);
	for (size_t i = 0; i <= np; i++)
		cr_assert(!taken(&pg, i));

	/* Bytes 5 pages + 10 .. 9 pages + 20 of base: base's pages 5 to 9. */
	mem_pages_take(&pg, base + 5 * page() + 10, 4 * page() + 10);
	for (size_t i = 0; i < np; i++)
		cr_assert_eq(taken(&pg, i), i >= 5 && i <= 9, "page %zu", i);
	/* Again, wider: the taken ones stay, the new ones join.  base is 100
	 * bytes into its page, so 9 pages from base + 3 pages end in page 12. */
	mem_pages_take(&pg, base + 3 * page(), 9 * page());
	for (size_t i = 0; i < np; i++)
		cr_assert_eq(taken(&pg, i), i >= 3 && i <= 12, "page %zu", i);
	/* One byte, and nothing. */
	mem_pages_take(&pg, base + 20 * page(), 1);
	mem_pages_take(&pg, base + 30 * page(), 0);
	cr_assert(taken(&pg, 20));
	cr_assert(!taken(&pg, 30));
	/* The last byte of the block. */
	mem_pages_take(&pg, base + bytes - 1, 1);
	cr_assert(taken(&pg, ((uintptr_t)(base + bytes - 1) >> pg.shift) -
				 ((uintptr_t)base >> pg.shift)));

	/* A range running past the block: only the block's pages count. */
	mem_pages_take(&pg, base + bytes - 10, 5 * page());
	mem_pages_take(&pg, base + bytes + page(), page());
	mem_pages_take(&pg, blk, 50);
	cr_assert(!taken(&pg, np), "a page past the block was taken");
	cr_assert(!taken(&pg, 0), "bytes before the block took its first page");

	/* Before the bytes are read: a read maps the zero page. */
	if (kernel_populates()) {
		cr_assert(resident(base + 7 * page()));
		cr_assert(resident(base + 20 * page()));
		cr_assert(!resident(base + 14 * page() + 200), "a page never taken is mapped");
	}
	for (size_t i = 0; i < np; i++) {
		const char want = (char)(i % 3 == 0 ? i + 1 : 0);
		for (size_t k = 0; k < page(); k += 511)
			cr_assert_eq(blk[i * page() + k], want, "page %zu byte %zu", i, k);
	}
	mem_pages_free(&pg);
	mem_pages_free(&pg); /* twice is harmless */
	munmap(blk, np * page());
}

Test(mem, the_store_stays_lazy_and_keeps_its_bits)
{
	sram_geom g = sram_geom_default();
	sram_machine *m = sram_new(&g);
	cr_assert_not_null(m);
	/* Bits in way 3's rows 40 and 41, array 2 of the way. */
	const unsigned a = 3 * g.arrays_per_way + 2;
	sram_set_bit(m, a, 40, 7, true);
	sram_set_bit(m, a, 41, 255, true);
	sram_prefault_rows(m, a, 32, 64);
	cr_assert(sram_get_bit(m, a, 40, 7));
	cr_assert(sram_get_bit(m, a, 41, 255));
	cr_assert(!sram_get_bit(m, a, 40, 8));
	/* Out of range: nothing, and no crash. */
	sram_prefault_rows(m, m->narrays, 0, 8);
	sram_prefault_rows(m, a, g.wordlines, 8);
	sram_prefault_rows(m, a, g.wordlines - 4, 100); /* rows 252 to 255 */
	cr_assert(!sram_get_bit(m, a, 255, 0));
	if (kernel_populates()) {
		const uint64_t *w3 = m->ways[3].rows;
		cr_assert(resident(w3 + (size_t)50 * m->stride), "way 3, row 50");
		cr_assert(resident(w3 + (size_t)95 * m->stride), "way 3, row 95");
		cr_assert(!resident(w3 + (size_t)110 * m->stride),
			  "way 3's row 110 was not asked for, but is mapped");
		cr_assert(!resident(m->ways[9].rows + (size_t)50 * m->stride),
			  "way 9 was never written, but its row 50 is mapped");
		cr_assert(!resident(m->ways[3].rows + (size_t)8 * m->stride),
			  "way 3's row 8 was not asked for, but is mapped");
	}
	sram_free(m);
}
