/* SPDX-License-Identifier: MIT */
/*
 * report.c: the statistics of a run (doc "Statistics"): text, JSON, and
 * the Fig 11 heat map as an SVG picture.
 */
#include <inttypes.h>

#include "ar_private.h"

static const char *root_name(ar_root_policy r)
{
	return r == AR_ROOT_NAIVE ? "naive" : r == AR_ROOT_TID ? "tid" : "addr";
}

static uint64_t host_total(const ar_stats *st)
{
	return st->host_active + st->host_normal;
}

static uint64_t pei_total(const ar_stats *st)
{
	return st->pei_host_active + st->pei_host_normal;
}

static uint64_t art_byte_hops(const ar_stats *st)
{
	uint64_t n = 0;
	for (int t = 0; t < AR_PK_TYPES; t++)
		n += st->pk[t].byte_hops;
	return n;
}

static double ratio(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0.0;
}

void ar_report_text(FILE *f, const ar_stats *st, const ar_config *c)
{
	fprintf(f, "Active-Routing: root=%s net=%s interleave=%" PRIu64 " flow-entries=%u "
		"buffers=%u\n", root_name(c->root), c->net == AR_NET_MESH ? "mesh" : "dragonfly",
		c->interleave, c->flow_entries, c->buffers);
	fprintf(f, "cycles %" PRIu64 ", events %" PRIu64 "\n", st->cycles, st->events);
	fprintf(f, "updates: issued %" PRIu64 ", computed %" PRIu64 " (%" PRIu64 " element "
		"operations); assignments %" PRIu64 "; gathers %" PRIu64 ", commits %" PRIu64 "\n",
		st->updates_issued, st->updates_computed, st->elem_ops, st->assigns, st->gathers,
		st->commits);
	fprintf(f, "trees %u, max depth %u, mean compute-point depth %.2f\n", st->trees,
		st->max_depth, st->depth_count ? (double)st->depth_sum / (double)st->depth_count : 0.0);
	fprintf(f, "%-18s %12s %14s %16s\n", "packet", "packets", "bytes", "bytes x hops");
	for (int t = 0; t < AR_PK_TYPES; t++)
		fprintf(f, "%-18s %12" PRIu64 " %14" PRIu64 " %16" PRIu64 "\n", ar_pk_name((ar_pktype)t),
			st->pk[t].packets, st->pk[t].bytes, st->pk[t].byte_hops);
	fprintf(f, "host <-> network bytes: active %" PRIu64 ", normal %" PRIu64 ", total %" PRIu64
		"\n", st->host_active, st->host_normal, host_total(st));
	fprintf(f, "stalls: flow table %" PRIu64 " packets (%" PRIu64 " cycles), operand buffers %"
		PRIu64 " packets (%" PRIu64 " cycles); peak use: %u entries, %u buffers\n",
		st->stall_table, st->stall_table_cycles, st->stall_buffer, st->stall_buffer_cycles,
		st->max_table, st->max_buffers);
	fprintf(f, "%-5s %12s %12s %12s %12s\n", "cube", "compute", "operands", "updates", "pei");
	for (int i = 0; i < AR_CUBES; i++)
		fprintf(f, "%-5d %12" PRIu64 " %12" PRIu64 " %12" PRIu64 " %12" PRIu64 "\n", i,
			st->cube_compute[i], st->cube_operands[i], st->cube_updates[i],
			st->pei_cube_compute[i]);
	fprintf(f, "PEI baseline: packets %" PRIu64 ", bytes %" PRIu64 ", bytes x hops %" PRIu64
		"; host <-> network bytes: active %" PRIu64 ", normal %" PRIu64 ", total %" PRIu64 "\n",
		st->pei_pk.packets, st->pei_pk.bytes, st->pei_pk.byte_hops, st->pei_host_active,
		st->pei_host_normal, pei_total(st));
	fprintf(f, "Fig 10 (Active-Routing / PEI): host <-> network bytes %.3f (active %.3f, "
		"normal %.3f), bytes x hops %.3f\n", ratio(host_total(st), pei_total(st)),
		ratio(st->host_active, st->pei_host_active),
		ratio(st->host_normal, st->pei_host_normal),
		ratio(art_byte_hops(st), st->pei_pk.byte_hops));
	fprintf(f, "end state: %s\n", st->end_clean ? "every flow table, operand buffer and queue "
		"empty; every Update counted once" : "NOT CLEAN");
}

static void json_array(FILE *f, const char *name, const uint64_t *v, int n, bool comma)
{
	fprintf(f, "  \"%s\": [", name);
	for (int i = 0; i < n; i++)
		fprintf(f, "%s%" PRIu64, i ? ", " : "", v[i]);
	fprintf(f, "]%s\n", comma ? "," : "");
}

void ar_report_json(FILE *f, const ar_stats *st, const ar_config *c)
{
	fprintf(f, "{\n  \"root\": \"%s\", \"net\": \"%s\", \"interleave\": %" PRIu64 ",\n",
		root_name(c->root), c->net == AR_NET_MESH ? "mesh" : "dragonfly", c->interleave);
	fprintf(f, "  \"flow_entries\": %u, \"buffers\": %u,\n", c->flow_entries, c->buffers);
	fprintf(f, "  \"cycles\": %" PRIu64 ", \"events\": %" PRIu64 ",\n", st->cycles, st->events);
	fprintf(f, "  \"updates_issued\": %" PRIu64 ", \"updates_computed\": %" PRIu64 ", "
		"\"element_ops\": %" PRIu64 ", \"assignments\": %" PRIu64 ", \"gathers\": %" PRIu64
		", \"commits\": %" PRIu64 ",\n", st->updates_issued, st->updates_computed,
		st->elem_ops, st->assigns, st->gathers, st->commits);
	fprintf(f, "  \"trees\": %u, \"max_depth\": %u, \"depth_sum\": %" PRIu64 ", "
		"\"depth_count\": %" PRIu64 ",\n", st->trees, st->max_depth, st->depth_sum,
		st->depth_count);
	fprintf(f, "  \"packets\": {");
	for (int t = 0; t < AR_PK_TYPES; t++)
		fprintf(f, "%s\n    \"%s\": {\"packets\": %" PRIu64 ", \"bytes\": %" PRIu64
			", \"byte_hops\": %" PRIu64 "}", t ? "," : "", ar_pk_name((ar_pktype)t),
			st->pk[t].packets, st->pk[t].bytes, st->pk[t].byte_hops);
	fprintf(f, "\n  },\n  \"host_active\": %" PRIu64 ", \"host_normal\": %" PRIu64 ",\n",
		st->host_active, st->host_normal);
	fprintf(f, "  \"stall_table\": %" PRIu64 ", \"stall_table_cycles\": %" PRIu64 ", "
		"\"stall_buffer\": %" PRIu64 ", \"stall_buffer_cycles\": %" PRIu64 ",\n",
		st->stall_table, st->stall_table_cycles, st->stall_buffer, st->stall_buffer_cycles);
	fprintf(f, "  \"max_table\": %u, \"max_buffers\": %u,\n", st->max_table, st->max_buffers);
	json_array(f, "cube_compute", st->cube_compute, AR_CUBES, true);
	json_array(f, "cube_operands", st->cube_operands, AR_CUBES, true);
	json_array(f, "cube_updates", st->cube_updates, AR_CUBES, true);
	json_array(f, "pei_cube_compute", st->pei_cube_compute, AR_CUBES, true);
	fprintf(f, "  \"pei\": {\"packets\": %" PRIu64 ", \"bytes\": %" PRIu64 ", \"byte_hops\": %"
		PRIu64 ", \"host_active\": %" PRIu64 ", \"host_normal\": %" PRIu64 "},\n",
		st->pei_pk.packets, st->pei_pk.bytes, st->pei_pk.byte_hops, st->pei_host_active,
		st->pei_host_normal);
	fprintf(f, "  \"fig10\": {\"host_bytes\": %.6f, \"host_active\": %.6f, \"host_normal\": "
		"%.6f, \"byte_hops\": %.6f},\n", ratio(host_total(st), pei_total(st)),
		ratio(st->host_active, st->pei_host_active), ratio(st->host_normal, st->pei_host_normal),
		ratio(art_byte_hops(st), st->pei_pk.byte_hops));
	fprintf(f, "  \"end_clean\": %s\n}\n", st->end_clean ? "true" : "false");
}

/* One 4x4 panel: cube c at column c % 4, row c / 4; darker is more. */
static void svg_panel(FILE *f, int x0, const char *title, const uint64_t *v)
{
	uint64_t max = 1;
	for (int i = 0; i < AR_CUBES; i++)
		max = v[i] > max ? v[i] : max;
	fprintf(f, "<text x=\"%d\" y=\"20\" font-size=\"14\">%s</text>\n", x0, title);
	for (int i = 0; i < AR_CUBES; i++) {
		int shade = 255 - (int)(215.0 * (double)v[i] / (double)max);
		int x = x0 + (i % 4) * 60, y = 30 + (i / 4) * 60;
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"58\" height=\"58\" fill=\"rgb(%d,%d,255)\" "
			"stroke=\"black\"/>\n", x, y, shade, shade);
		fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"10\">cube %d</text>\n", x + 4, y + 14, i);
		fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\" fill=\"%s\">%" PRIu64 "</text>\n",
			x + 4, y + 40, shade < 120 ? "white" : "black", v[i]);
	}
}

void ar_heatmap_svg(FILE *f, const ar_stats *st, const ar_config *c)
{
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"540\" height=\"300\" "
		"font-family=\"sans-serif\">\n<rect width=\"540\" height=\"300\" fill=\"white\"/>\n");
	svg_panel(f, 10, "compute points (element operations)", st->cube_compute);
	svg_panel(f, 280, "operands (elements read)", st->cube_operands);
	fprintf(f, "<text x=\"10\" y=\"290\" font-size=\"11\">root=%s, net=%s; cube c at column "
		"c mod 4, row c / 4; darker is more</text>\n</svg>\n", root_name(c->root),
		c->net == AR_NET_MESH ? "mesh" : "dragonfly");
}
