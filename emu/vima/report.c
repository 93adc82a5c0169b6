/* SPDX-License-Identifier: MIT */
/*
 * report.c: the unit's statistics as text or JSON (doc/VIMA.md
 * "Statistics").
 */
#include <inttypes.h>
#include <string.h>

#include "vima_int.h"

static uint64_t vault_total(const vima_stats *s, unsigned v)
{
	uint64_t n = 0;
	for (unsigned b = 0; b < VIMA_BANKS; b++)
		n += s->sub[v][b];
	return n;
}

void vima_stats_text(FILE *f, const vima_unit *u)
{
	const vima_stats *s = &u->st;
	fprintf(f, "vector %u B, vector cache %u lines (%u KB)\n", u->vbytes, u->nlines,
		u->vbytes * u->nlines / 1024);
	fprintf(f, "instructions     %" PRIu64 " (host stores %" PRIu64 ")\n", s->insns, s->host_stmts);
	for (int op = 0; op < VIMA_NOPS; op++)
		if (s->by_op[op])
			fprintf(f, "  %-6s         %" PRIu64 "\n", vima_op_info_of((vima_op)op)->name,
				s->by_op[op]);
	fprintf(f, "read hits        %" PRIu64 "\nread misses      %" PRIu64 "\n", s->read_hits,
		s->read_misses);
	fprintf(f, "write hits       %" PRIu64 "\nwrite misses     %" PRIu64 " (no fill)\n",
		s->write_hits, s->write_misses);
	fprintf(f, "write-backs      %" PRIu64 " (eviction %" PRIu64 ", host write %" PRIu64
		", final flush %" PRIu64 ")\n", s->writebacks, s->wb_evict, s->wb_host, s->wb_flush);
	fprintf(f, "invalidations    %" PRIu64 " (host writes to held lines)\n", s->invalidations);
	fprintf(f, "host lines written back before VIMA  %" PRIu64 "\n", s->host_lines_written_back);
	fprintf(f, "host loads from the vector cache     %" PRIu64 "\n", s->host_loads_vcache);
	fprintf(f, "sub-requests     %" PRIu64 " (reads %" PRIu64 ", writes %" PRIu64 ")\n",
		s->sub_reads + s->sub_writes, s->sub_reads, s->sub_writes);
	fprintf(f, "per vault       ");
	for (unsigned v = 0; v < VIMA_VAULTS; v++)
		fprintf(f, " %" PRIu64, vault_total(s, v));
	fprintf(f, "\nper bank (all vaults)");
	for (unsigned b = 0; b < VIMA_BANKS; b++) {
		uint64_t n = 0;
		for (unsigned v = 0; v < VIMA_VAULTS; v++)
			n += s->sub[v][b];
		fprintf(f, " %" PRIu64, n);
	}
	fprintf(f, "\nDRAM bytes       %" PRIu64 " read, %" PRIu64 " written; host %" PRIu64 "\n",
		s->dram_read_bytes, s->dram_write_bytes, s->host_dram_bytes);
	fprintf(f, "cycles           %" PRIu64 " (tag %" PRIu64 ", DRAM %" PRIu64 ", transfer %"
		PRIu64 ", FU %" PRIu64 ", stop-and-go %" PRIu64 ") at 1 GHz\n", s->cycles,
		s->cyc_tag, s->cyc_dram, s->cyc_xfer, s->cyc_fu, s->cyc_gap);
	fprintf(f, "energy           %.3f uJ (DRAM %.3f, host DRAM %.3f, vector cache %.3f, "
		"static %.3f)\n", vima_energy_pj(s) * 1e-6, s->energy_dram_pj * 1e-6,
		s->energy_host_dram_pj * 1e-6, s->energy_cache_pj * 1e-6, s->energy_static_pj * 1e-6);
}

static void json_u(FILE *f, const char *k, uint64_t v, bool comma)
{
	fprintf(f, "  \"%s\": %" PRIu64 "%s\n", k, v, comma ? "," : "");
}

void vima_stats_json(FILE *f, const vima_unit *u)
{
	const vima_stats *s = &u->st;
	fprintf(f, "{\n");
	json_u(f, "vector_bytes", u->vbytes, true);
	json_u(f, "lines", u->nlines, true);
	json_u(f, "instructions", s->insns, true);
	fprintf(f, "  \"by_op\": {");
	bool first = true;
	for (int op = 0; op < VIMA_NOPS; op++)
		if (s->by_op[op]) {
			fprintf(f, "%s\"%s\": %" PRIu64, first ? "" : ", ",
				vima_op_info_of((vima_op)op)->name, s->by_op[op]);
			first = false;
		}
	fprintf(f, "},\n");
	json_u(f, "host_stores", s->host_stmts, true);
	json_u(f, "read_hits", s->read_hits, true);
	json_u(f, "read_misses", s->read_misses, true);
	json_u(f, "write_hits", s->write_hits, true);
	json_u(f, "write_misses", s->write_misses, true);
	json_u(f, "writebacks", s->writebacks, true);
	json_u(f, "writebacks_eviction", s->wb_evict, true);
	json_u(f, "writebacks_host_write", s->wb_host, true);
	json_u(f, "writebacks_flush", s->wb_flush, true);
	json_u(f, "invalidations", s->invalidations, true);
	json_u(f, "host_lines_written_back", s->host_lines_written_back, true);
	json_u(f, "host_loads_vcache", s->host_loads_vcache, true);
	json_u(f, "subrequests_read", s->sub_reads, true);
	json_u(f, "subrequests_write", s->sub_writes, true);
	fprintf(f, "  \"subrequests\": [");
	for (unsigned v = 0; v < VIMA_VAULTS; v++) {
		fprintf(f, "%s[", v ? ", " : "");
		for (unsigned b = 0; b < VIMA_BANKS; b++)
			fprintf(f, "%s%" PRIu64, b ? ", " : "", s->sub[v][b]);
		fprintf(f, "]");
	}
	fprintf(f, "],\n");
	json_u(f, "dram_read_bytes", s->dram_read_bytes, true);
	json_u(f, "dram_write_bytes", s->dram_write_bytes, true);
	json_u(f, "host_dram_bytes", s->host_dram_bytes, true);
	json_u(f, "cycles", s->cycles, true);
	fprintf(f, "  \"cycles_by_part\": {\"tag\": %" PRIu64 ", \"dram\": %" PRIu64
		", \"transfer\": %" PRIu64 ", \"fu\": %" PRIu64 ", \"stop_and_go\": %" PRIu64 "},\n",
		s->cyc_tag, s->cyc_dram, s->cyc_xfer, s->cyc_fu, s->cyc_gap);
	json_u(f, "cache_accesses", s->cache_accesses, true);
	fprintf(f, "  \"energy_pj\": {\"total\": %.1f, \"dram\": %.1f, \"host_dram\": %.1f, "
		"\"vector_cache\": %.1f, \"static\": %.1f}\n}\n", vima_energy_pj(s),
		s->energy_dram_pj, s->energy_host_dram_pj, s->energy_cache_pj, s->energy_static_pj);
}

void vima_elem_text(vima_type t, uint64_t v, char *buf, size_t size)
{
	char num[40];
	const unsigned sz = vima_type_size(t);
	if (t == VIMA_F32) {
		float f;
		uint32_t w = (uint32_t)v;
		memcpy(&f, &w, 4);
		snprintf(num, sizeof num, "%.9g", (double)f);
	} else if (t == VIMA_F64) {
		double f;
		memcpy(&f, &v, 8);
		snprintf(num, sizeof num, "%.17g", f);
	} else if (t == VIMA_I32) {
		snprintf(num, sizeof num, "%" PRId32, (int32_t)(uint32_t)v);
	} else if (t == VIMA_I64) {
		snprintf(num, sizeof num, "%" PRId64, (int64_t)v);
	} else {
		snprintf(num, sizeof num, "%" PRIu64, v);
	}
	snprintf(buf, size, "%s (0x%0*" PRIx64 ")", num, (int)sz * 2, v);
}
