/* SPDX-License-Identifier: MIT */
/*
 * report.c: the unit's statistics as the JSON they were first reported
 * in (the statistics infsim prints are target.c's tree).
 */
#include <inttypes.h>
#include <string.h>

#include "vima_int.h"

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
