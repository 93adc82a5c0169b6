/* SPDX-License-Identifier: MIT */
/*
 * report.c: the statistics of a run on the stream engines as text:
 * streams floated, elements and µops at the banks (NSC Fig 11), messages
 * by kind, traffic by class in bytes and bytes x hops (NSC Fig 12), and,
 * given the same program's run with every stream at the core, the ratio
 * of NSC Fig 1b and Fig 12.
 */
#include <inttypes.h>

#include "nsc_int.h"

static void traffic(FILE *f, const char *what, const nsc_stats *s)
{
	fprintf(f, "traffic %-9s bytes %" PRIu64 " (offloaded %" PRIu64 ", control %" PRIu64 ", data %" PRIu64
		   ")\n", what, nsc_stats_bytes(s), s->bytes[NSC_C_OFFLOAD], s->bytes[NSC_C_CONTROL], s->bytes[NSC_C_DATA]);
	fprintf(f, "traffic %-9s byte-hops %" PRIu64 " (offloaded %" PRIu64 ", control %" PRIu64 ", data %" PRIu64
		   ")\n", what, nsc_stats_byte_hops(s), s->byte_hops[NSC_C_OFFLOAD], s->byte_hops[NSC_C_CONTROL],
		s->byte_hops[NSC_C_DATA]);
	fprintf(f, "traffic %-9s byte-hops of range-sync %" PRIu64 ", of coordination %" PRIu64 "\n", what,
		nsc_stats_sync_hops(s), nsc_stats_coord_hops(s));
}

void nsc_report(FILE *f, const nsc_stats *s, const nsc_stats *base)
{
	fprintf(f, "regions %" PRIu64 ", iterations %" PRIu64 "\n", s->regions, s->iters);
	fprintf(f, "streams floated %" PRIu64 ", at the core %" PRIu64 "\n", s->streams_floated, s->streams_core);
	fprintf(f, "elements at the banks %" PRIu64 ", at the core %" PRIu64 "\n", s->elems_bank, s->elems_core);
	uint64_t u = s->uops_bank + s->uops_core;
	fprintf(f, "uops at the banks %" PRIu64 " of %" PRIu64 " (%.1f%%)\n", s->uops_bank, u,
		u ? 100.0 * (double)s->uops_bank / (double)u : 0.0);
	fprintf(f, "messages");
	for (int m = 0; m < NSC_NMSG; m++)
		fprintf(f, " %s %" PRIu64, nsc_msg_name((nsc_msg)m), s->msgs[m]);
	fprintf(f, "\n");
	fprintf(f, "credits %" PRIu64 ", done %" PRIu64 ", commits %" PRIu64 " (iterations)\n", s->credits, s->dones,
		s->commits);
	fprintf(f, "aborts %" PRIu64 ", injected stores %" PRIu64 ", atomic locks %" PRIu64 ", partials %" PRIu64 "\n",
		s->aborts, s->alias_stores, s->atomic_locks, s->partials);
	fprintf(f, "private cache hits %" PRIu64 ", misses %" PRIu64 "\n", s->cache_hits, s->cache_misses);
	traffic(f, "offload", s);
	if (!base)
		return;
	traffic(f, "core-only", base);
	uint64_t b = nsc_stats_byte_hops(base);
	fprintf(f, "byte-hops offload / core-only %.3f\n", b ? (double)nsc_stats_byte_hops(s) / (double)b : 0.0);
}
