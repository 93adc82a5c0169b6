/* SPDX-License-Identifier: MIT */
/*
 * report.c: the statistics of a SIMT run (doc/SIMT.md, "Statistics"):
 * compute time as the summed bundle latencies (each the maximum over its
 * slots), memory time, the critical path, CB utilisation (Fig 9), MSHR
 * merges, copies, and per command the cycles before and after the
 * data-dependent optimisations on this run's data (Fig 12).
 */
#include <inttypes.h>

#include "simt_int.h"

static double ratio(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0.0;
}

static void report_ops(FILE *f, const simt_stats *s)
{
	fprintf(f, "  %-8s %-4s %10s %14s %14s %8s\n", "command", "", "count", "baseline cyc", "run cyc",
		"speedup");
	for (unsigned op = 0; op < 64 && op < ISA_OP_COUNT; op++) {
		if (!s->op_count[op])
			continue;
		const isa_info *ii = isa_info_of(op);
		fprintf(f, "  %-8s %-4s %10" PRIu64 " %14" PRIu64 " %14" PRIu64 " %7.2fx\n", ii->name,
			isa_class_of(op) == ISA_CLASS_F ? "f32" : "", s->op_count[op], s->op_base[op],
			s->op_opt[op], ratio(s->op_base[op], s->op_opt[op]));
	}
}

void simt_report(FILE *f, const simt_program *p, const simt_stats *s)
{
	fprintf(f, "simt: %zu launch%s, %" PRIu64 " CTA runs in %" PRIu64 " CB runs on %u CBs, fp=%s, latency=%s\n",
		p->nl, p->nl == 1 ? "" : "es", s->cb_runs, s->cb_groups, p->cbs,
		p->ieee ? "ieee" : "ftz", p->latency_opt ? "optimised" : "baseline");
	fprintf(f, "  bundles issued       %" PRIu64 "\n", s->bundles);
	fprintf(f, "  compute cycles       %" PRIu64 " (baseline latencies: %" PRIu64 ", %.2fx)\n",
		s->compute_cycles, s->baseline_cycles, ratio(s->baseline_cycles, s->compute_cycles));
	fprintf(f, "  one-array schedule   %" PRIu64 " cycles (every slot in turn on one array, no copies: %.2fx the bundles')\n",
		s->one_array_cycles, ratio(s->one_array_cycles, s->compute_cycles));
	fprintf(f, "  memory cycles        %" PRIu64 "\n", s->memory_cycles);
	fprintf(f, "  critical path        %" PRIu64 " cycles (longest CB, summed over launches)\n",
		s->critical_path);
	fprintf(f, "  slots filled         %" PRIu64 " (%.2f a bundle of %d)\n", s->slot_ops,
		ratio(s->slot_ops, s->bundles), SIMT_ARRAYS);
	fprintf(f, "  CB utilisation       %.1f%% (active threads / CB threads, over issued bundles)\n",
		100.0 * ratio(s->thread_slots, s->lane_slots));
	fprintf(f, "  memory requests      %" PRIu64 ", lines %" PRIu64 ", MSHR merges %" PRIu64 "\n",
		s->mem_requests, s->mem_lines, s->mshr_merges);
	fprintf(f, "  copies               %" PRIu64 "\n", s->copies);
	fprintf(f, "  spills, reloads      %" PRIu64 ", %" PRIu64 " (st.local, ld.local)\n", s->spills,
		s->reloads);
	fprintf(f, "  shuffles             %" PRIu64 " (words moved between threads: %" PRIu64 ")\n",
		s->shuffles, s->shuffle_lanes);
	fprintf(f, "  jumps taken          %" PRIu64 "\n", s->jumps_taken);
	report_ops(f, s);
}
