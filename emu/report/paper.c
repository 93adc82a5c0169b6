/* SPDX-License-Identifier: MIT */
/* paper.c: a run's statistics as infinity-stream §7 reports them; see paper.h. */
#include "paper.h"
#include "move.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char *const part_names[EMU_PAPER_PARTS] = {
	"transpose", "compute", "intra_tile_move", "inter_tile_move", "sync", "final_reduce",
	"jit", "near_mem", "mix",
};

static const char *const traffic_names[EMU_TRAFFIC_KINDS] = {
	"intra_tile_shift", "inter_tile_shift_bank", "inter_tile_shift_noc", "data",
	"stream_offload", "stream_control", "stream_data",
};

const char *emu_paper_part_name(unsigned part)
{
	return part < EMU_PAPER_PARTS ? part_names[part] : "?";
}

const char *emu_paper_traffic_name(unsigned kind)
{
	return kind < EMU_TRAFFIC_KINDS ? traffic_names[kind] : "?";
}

/* The part of Fig 14 that command c's cycles belong to.  A constant
 * written to bitlines is part of its compute command (§5: the bank's
 * controller "first broadcasts constant operands (if any) to bitlines"). */
static unsigned part_of(const emu_cmd *c, bool final)
{
	if (final)
		return EMU_PAPER_FINAL_REDUCE;
	if (c->kind != EMU_CMD_MOVE)
		return EMU_PAPER_COMPUTE;
	switch (c->mv.kind) {
	case EMU_MOVE_INTRA:
		return EMU_PAPER_INTRA;
	case EMU_MOVE_INTER:
	case EMU_MOVE_BCAST:
		return EMU_PAPER_INTER;
	case EMU_MOVE_SYNC:
		return EMU_PAPER_SYNC;
	default:
		return EMU_PAPER_COMPUTE;
	}
}

/* Figs 12 and 13.  Cells are bits: a byte is 8 of them.  Hops are links
 * crossed: none for a shift inside an array; the H-tree's links for the
 * data that stays in its bank (net.c counts each link a transfer loads
 * once, so its byte counts are already bytes x links); the mesh's for
 * the NoC (net.c's bytes x hops); and for the transpose unit, which sits
 * at the root of its bank's H-tree (doc/MACHINE.md), the tree's levels. */
static void traffic(emu_paper *p, const emu_machine *em)
{
	const emu_move_stats *ms = &em->mover->st;
	const emu_net_stats *ns = &em->mover->net.st;
	uint64_t htree = 0;
	for (unsigned l = 0; l < ns->levels; l++)
		htree += ns->htree_bytes[l];
	const uint64_t moved = ms->bits[EMU_MOVE_INTER] + ms->bits[EMU_MOVE_BCAST];
	p->bytes[EMU_TRAFFIC_INTRA] = ms->bits[EMU_MOVE_INTRA] / 8;
	p->byte_hops[EMU_TRAFFIC_INTRA] = 0;
	p->bytes[EMU_TRAFFIC_INTER_BANK] = (moved - ms->bits_remote) / 8;
	p->byte_hops[EMU_TRAFFIC_INTER_BANK] = htree;
	p->bytes[EMU_TRAFFIC_INTER_NOC] = ns->noc_bytes;
	p->byte_hops[EMU_TRAFFIC_INTER_NOC] = ns->noc_byte_hops;
	p->bytes[EMU_TRAFFIC_DATA] = em->st.ttu_bits / 8;
	p->byte_hops[EMU_TRAFFIC_DATA] = em->st.ttu_bits / 8 * ns->levels;
}

void emu_paper_collect(emu_paper *p, const emu_machine *em, const emu_cmd_cycles *cc,
		       size_t n, const uint8_t *final, uint64_t jit_cycles)
{
	memset(p->cycles, 0, sizeof p->cycles);
	memset(p->bytes, 0, sizeof p->bytes);
	memset(p->byte_hops, 0, sizeof p->byte_hops);
	p->ops = p->ops_bitlines = 0;
	p->elem_bitlines = p->elem_final = p->elem_near = 0;
	for (size_t i = 0; i < n; i++) {
		const emu_cmd *c = &em->prog->cmds[i];
		const bool fin = final && final[i];
		p->cycles[part_of(c, fin)] += cc[i].cycles;
		if (c->kind == EMU_CMD_COMPUTE) {
			const uint64_t e = emu_pattern_size(&c->arrays) *
					   emu_pattern_size(&c->bitlines);
			p->ops++;
			p->ops_bitlines += !fin;
			*(fin ? &p->elem_final : &p->elem_bitlines) += e;
		}
	}
	p->cycles[EMU_PAPER_TRANSPOSE] = em->st.ttu_cycles;
	p->cycles[EMU_PAPER_JIT] = jit_cycles;
	traffic(p, em);
}

void emu_paper_streams(emu_paper *p, uint64_t near, uint64_t final, uint64_t ttu,
		       const uint64_t bytes[3], const uint64_t byte_hops[3])
{
	p->cycles[EMU_PAPER_NEAR_MEM] += near;
	p->cycles[EMU_PAPER_FINAL_REDUCE] += final;
	ttu = ttu < p->cycles[EMU_PAPER_TRANSPOSE] ? ttu : p->cycles[EMU_PAPER_TRANSPOSE];
	p->cycles[EMU_PAPER_TRANSPOSE] -= ttu;
	p->cycles[EMU_PAPER_MIX] += ttu;
	for (unsigned k = 0; k < 3; k++) {
		p->bytes[EMU_TRAFFIC_STREAM_OFFLOAD + k] += bytes[k];
		p->byte_hops[EMU_TRAFFIC_STREAM_OFFLOAD + k] += byte_hops[k];
	}
}

void emu_paper_stream_ops(emu_paper *p, uint64_t ops)
{
	p->elem_near += ops;
}

int emu_paper_eq2_add(emu_paper *p, const struct emu_paper_eq2 *e)
{
	struct emu_paper_eq2 *v = realloc(p->eq2, (p->neq2 + 1) * sizeof *v);
	if (!v)
		return -1;
	v[p->neq2++] = *e;
	p->eq2 = v;
	return 0;
}

int emu_paper_group_add(emu_paper_group **gs, size_t *ng, size_t g, const char *label,
			uint64_t cycles)
{
	if (g >= *ng) {
		emu_paper_group *v = realloc(*gs, (g + 1) * sizeof *v);
		if (!v)
			return -1;
		memset(v + *ng, 0, (g + 1 - *ng) * sizeof *v);
		*gs = v;
		*ng = g + 1;
	}
	emu_paper_group *x = &(*gs)[g];
	if (!x->label[0])
		snprintf(x->label, sizeof x->label, "%s", label);
	x->commands++;
	x->cycles += cycles;
	return 0;
}

void emu_paper_free(emu_paper *p)
{
	free(p->nodes);
	free(p->regions);
	free(p->eq2);
	p->eq2 = NULL;
	p->neq2 = 0;
	p->nodes = p->regions = NULL;
	p->nnodes = p->nregions = 0;
}

/* "12.5%" of whole, or "-" when whole is 0. */
static const char *percent(uint64_t part, uint64_t whole, char *buf, size_t size)
{
	if (!whole)
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%.1f%%", 100.0 * (double)part / (double)whole);
	return buf;
}

static void groups_text(FILE *f, const char *title, const emu_paper_group *g, size_t n)
{
	fprintf(f, "  %-40s %8s %10s %14s\n", title, "runs", "commands", "cycles");
	for (size_t i = 0; i < n; i++)
		if (g[i].label[0])
			fprintf(f, "    %-38s %8" PRIu64 " %10" PRIu64 " %14" PRIu64 "\n",
				g[i].label, g[i].runs, g[i].commands, g[i].cycles);
}

void emu_paper_text(FILE *f, const emu_paper *p)
{
	char pc[24];
	uint64_t all = 0;
	for (unsigned k = 0; k < EMU_PAPER_PARTS; k++)
		all += p->cycles[k];
	fprintf(f, "\nthe paper's view (infinity-stream §7)\n");
	fprintf(f, "  cycles (Fig 14)          %14s %8s\n", "cycles", "share");
	for (unsigned k = 0; k < EMU_PAPER_PARTS; k++)
		fprintf(f, "    %-22s %14" PRIu64 " %8s\n", part_names[k], p->cycles[k],
			percent(p->cycles[k], all, pc, sizeof pc));
	fprintf(f, "    %-22s %14" PRIu64 "\n", "total", all);
	fprintf(f, "  traffic (Figs 12, 13)    %14s %16s\n", "bytes", "bytes x hops");
	for (unsigned k = 0; k < EMU_TRAFFIC_KINDS; k++)
		fprintf(f, "    %-22s %14" PRIu64 " %16" PRIu64 "\n", traffic_names[k],
			p->bytes[k], p->byte_hops[k]);
	const uint64_t ops = p->elem_bitlines + p->elem_final + p->elem_near;
	fprintf(f, "  operations on bitlines   %" PRIu64 " of %" PRIu64 " operations (%s); "
		"final reduce %" PRIu64 ", near memory %" PRIu64 "\n", p->elem_bitlines, ops,
		percent(p->elem_bitlines, ops, pc, sizeof pc), p->elem_final, p->elem_near);
	fprintf(f, "  compute commands         %" PRIu64 ", %" PRIu64 " outside a final reduce\n",
		p->ops, p->ops_bitlines);
	for (size_t i = 0; i < p->neq2; i++) {
		const struct emu_paper_eq2 *e = &p->eq2[i];
		fprintf(f, "  Eq. 2, region '%s' (line %d): N_elem*N_op/TP_core = %" PRIu64 "*%" PRIu64
			"/%g = %.1f; sum Lat_op + N_node*Lat_JIT = %" PRIu64 " + %" PRIu64 "*%" PRIu64
			" = %" PRIu64 ": %s; --offload=%s: %" PRIu64 " of %" PRIu64 " run%s near "
			"memory\n", e->region, e->line, e->n_elem, e->n_op, e->tp_core,
			e->core, e->lat_ops, e->n_node, e->lat_jit, e->mem,
			e->in_memory ? "in memory (tDFG)" : "streams (sDFG)", e->offload,
			e->runs_near, e->runs, e->runs == 1 ? "" : "s");
	}
	if (p->nregions)
		groups_text(f, "by region", p->regions, p->nregions);
	if (p->nnodes)
		groups_text(f, "by node (line: name)", p->nodes, p->nnodes);
}

static void groups_json(FILE *f, const char *name, const emu_paper_group *g, size_t n)
{
	const char *sep = "";
	fprintf(f, ",\n    \"%s\": [", name);
	for (size_t i = 0; i < n; i++) {
		if (!g[i].label[0])
			continue;
		fprintf(f, "%s\n      {\"label\": \"%s\", \"runs\": %" PRIu64 ", \"commands\": %"
			PRIu64 ", \"cycles\": %" PRIu64 "}", sep, g[i].label, g[i].runs,
			g[i].commands, g[i].cycles);
		sep = ",";
	}
	fprintf(f, "%s]", *sep ? "\n    " : "");
}

void emu_paper_json(FILE *f, const emu_paper *p)
{
	fprintf(f, "  \"paper\": {\n    \"cycles\": {");
	for (unsigned k = 0; k < EMU_PAPER_PARTS; k++)
		fprintf(f, "%s\"%s\": %" PRIu64, k ? ", " : "", part_names[k], p->cycles[k]);
	fprintf(f, "},\n    \"traffic\": {");
	for (unsigned k = 0; k < EMU_TRAFFIC_KINDS; k++)
		fprintf(f, "%s\n      \"%s\": {\"bytes\": %" PRIu64 ", \"byte_hops\": %" PRIu64 "}",
			k ? "," : "", traffic_names[k], p->bytes[k], p->byte_hops[k]);
	fprintf(f, "\n    },\n    \"compute_commands\": %" PRIu64 ", \"compute_commands_on_bitlines\": %"
		PRIu64 ",\n    \"ops\": %" PRIu64 ", \"on_bitlines\": %" PRIu64 ", \"ops_final_reduce\": %"
		PRIu64 ", \"ops_near_mem\": %" PRIu64, p->ops, p->ops_bitlines,
		p->elem_bitlines + p->elem_final + p->elem_near, p->elem_bitlines, p->elem_final,
		p->elem_near);
	if (p->neq2)
		fprintf(f, ",\n    \"eq2\": [");
	for (size_t i = 0; i < p->neq2; i++) {
		const struct emu_paper_eq2 *e = &p->eq2[i];
		fprintf(f, "%s\n      {\"region\": \"%s\", \"line\": %d, \"n_elem\": %" PRIu64
			", \"n_op\": %" PRIu64 ", \"tp_core\": %g, \"core_cycles\": %.1f, "
			"\"lat_ops\": %" PRIu64 ", \"n_node\": %" PRIu64 ", \"lat_jit\": %" PRIu64
			", \"mem_cycles\": %" PRIu64 ", \"in_memory\": %s, \"lat_ops_run\": %" PRIu64
			", \"offload\": \"%s\", \"runs\": %" PRIu64 ", \"runs_near\": %" PRIu64 "}",
			i ? "," : "", e->region, e->line, e->n_elem, e->n_op, e->tp_core, e->core,
			e->lat_ops, e->n_node, e->lat_jit, e->mem, e->in_memory ? "true" : "false",
			e->lat_ops_run, e->offload, e->runs, e->runs_near);
	}
	if (p->neq2)
		fprintf(f, "\n    ]");
	if (p->nregions)
		groups_json(f, "by_region", p->regions, p->nregions);
	if (p->nnodes)
		groups_json(f, "by_node", p->nodes, p->nnodes);
	fprintf(f, "\n  }");
}
