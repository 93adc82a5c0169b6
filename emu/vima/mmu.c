/* SPDX-License-Identifier: MIT */
/*
 * mmu.c: address translation and permission checks (VIMA §III-C: "these
 * memory addresses are translated by the Translation Look-aside Buffer
 * (TLB) and go through permission checks like any memory operation";
 * doc/VIMA.md "Address translation").
 *
 * A program's addresses are virtual.  Array k (from 0, in the order
 * declared) is mapped at virtual address (k + 1) << 40, one page per
 * vector line it covers (8 KB or 256 B pages: the unit moves whole lines,
 * so a line is never split between two mappings), onto the frames the
 * flat DRAM gives it.  Everything else in the 64-bit space is unmapped.
 * Each page has the permissions of its array's `perm=` (rw by default,
 * ro, or none: not mapped at all).  The table is one 32-bit entry per
 * page, frame << 2 | permissions, found from the address's region (its
 * bits 40 and up: which array's mapping) and its page within the region.
 *
 * The paper assumes huge TLB pages, so translation costs no cycle here:
 * infsim counts no TLB miss.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "vima_int.h"

bool vima_va(const vima_program *p, int a, int64_t index, uint64_t *va)
{
	const int64_t base = (int64_t)((uint64_t)(a + 1) << VIMA_REGION_SHIFT);
	int64_t off, v;
	if (__builtin_mul_overflow(index, (int64_t)vima_type_size(p->arrays[a].type), &off) ||
	    __builtin_add_overflow(base, off, &v) || v < 0)
		return false;
	*va = (uint64_t)v;
	return true;
}

int vima_mmu_init(vima_unit *u)
{
	const vima_program *p = u->p;
	const uint64_t pages = p->mem_bytes / u->vbytes;
	u->pt = calloc(pages ? pages : 1, sizeof *u->pt);
	if (!u->pt)
		return -1;
	for (size_t k = 0; k < p->narrays; k++) {
		const vima_array *a = &p->arrays[k];
		const uint64_t first = a->base / u->vbytes, n = (a->bytes + u->vbytes - 1) / u->vbytes;
		for (uint64_t g = 0; g < n; g++)
			u->pt[first + g] = (uint32_t)((first + g) << 2 | a->perm);
	}
	return 0;
}

/* The entry of the page holding va, or 0 (no page: unmapped). */
static uint32_t pte(const vima_unit *u, uint64_t va)
{
	const uint64_t region = va >> VIMA_REGION_SHIFT;
	if (region == 0 || region > u->p->narrays)
		return 0;
	const vima_array *a = &u->p->arrays[region - 1];
	const uint64_t page = (va & ((UINT64_C(1) << VIMA_REGION_SHIFT) - 1)) / u->vbytes;
	if (page >= (a->bytes + u->vbytes - 1) / u->vbytes)
		return 0;
	return u->pt[a->base / u->vbytes + page];
}

int vima_translate(const vima_unit *u, uint64_t va, uint64_t len, unsigned need, uint64_t *pa,
		   char *why, size_t n)
{
	const uint64_t last = va + len - 1;
	if (last < va) {
		snprintf(why, n, "past the end of the address space");
		return 1;
	}
	for (uint64_t at = va; at <= last; at = (at / u->vbytes + 1) * u->vbytes) {
		const uint32_t e = pte(u, at);
		if (!(e & (VIMA_PERM_R | VIMA_PERM_W))) {
			snprintf(why, n, "in an unmapped page (address 0x%" PRIx64 ")", at);
			return 1;
		}
		if ((need & VIMA_PERM_W) && !(e & VIMA_PERM_W)) {
			snprintf(why, n, "in a read-only page (address 0x%" PRIx64 ")", at);
			return 1;
		}
		if (at == va)
			*pa = (uint64_t)(e >> 2) * u->vbytes + va % u->vbytes;
		if (at / u->vbytes == last / u->vbytes)
			break;
	}
	return 0;
}
