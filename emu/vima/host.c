/* SPDX-License-Identifier: MIT */
/*
 * host.c: the host core's caches as VIMA sees them (§III-C, §III-D).
 *
 * The host caches are modelled as the set of 64 B lines the host has
 * written and not yet written back (what matters for coherence; their
 * size and replacement are the host's business).  Two rules keep the
 * host and VIMA coherent:
 *   - before a VIMA instruction runs, the host's dirty lines inside every
 *     vector line it touches are written back to DRAM and dropped
 *     (§III-C: "written back ... before execution");
 *   - a host store to a line the vector cache holds writes that line back
 *     (if dirty) and invalidates it (§III-D), then goes to the host cache.
 * A host load is served by the host cache, else by the vector cache
 * ("VIMA's cache provides data if available"), else by DRAM.
 */
#include <string.h>

#include "vima_int.h"

void vima_host_writeback(vima_unit *u, uint64_t addr, uint64_t len)
{
	for (uint64_t a = addr / VIMA_HOST_LINE; a * VIMA_HOST_LINE < addr + len; a++) {
		if (!u->hstate[a])
			continue;
		memcpy(u->mem + a * VIMA_HOST_LINE, u->hdata + a * VIMA_HOST_LINE, VIMA_HOST_LINE);
		u->hstate[a] = 0;
		u->st.host_lines_written_back++;
		vima_host_dram(u, VIMA_HOST_LINE);
	}
}

void vima_host_store(vima_unit *u, uint64_t addr, const uint8_t *v, unsigned size)
{
	int i = vima_cache_find(u, addr / u->vbytes * u->vbytes);
	if (i >= 0) {
		vima_cache_writeback(u, &u->lines[i], &u->st.wb_host);
		u->lines[i].valid = false;
		u->st.invalidations++;
	}
	const uint64_t hl = addr / VIMA_HOST_LINE, at = hl * VIMA_HOST_LINE;
	if (!u->hstate[hl]) { /* write-allocate: the rest of the line from DRAM */
		memcpy(u->hdata + at, u->mem + at, VIMA_HOST_LINE);
		u->hstate[hl] = 1;
		vima_host_dram(u, VIMA_HOST_LINE);
	}
	memcpy(u->hdata + addr, v, size);
}

void vima_host_load(vima_unit *u, uint64_t addr, uint8_t *v, unsigned size, bool count)
{
	const uint64_t hl = addr / VIMA_HOST_LINE;
	if (u->hstate[hl]) {
		memcpy(v, u->hdata + addr, size);
		return;
	}
	const uint64_t tag = addr / u->vbytes * u->vbytes;
	int i = vima_cache_find(u, tag);
	if (i >= 0) {
		memcpy(v, u->lines[i].data + (addr - tag), size);
		u->st.host_loads_vcache += count;
		return;
	}
	memcpy(v, u->mem + addr, size);
}
