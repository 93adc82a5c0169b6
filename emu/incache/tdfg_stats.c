/* SPDX-License-Identifier: MIT */
/* tdfg_stats.c: the paper's statistics of a tDFG's run; see tdfg_stats.h. */
#include "tdfg_stats.h"

#include <stdio.h>

/* A move that leaves its tile.  A sync is not one: it belongs to the
 * step it is in (the barrier after a step's inter-array moves is part of
 * that step), and the sync alone after a reduce's last in-tile step,
 * before its stream, waits for the partials, not for a final reduce (with
 * one tile over the reduced dimension there is none, Fig 16). */
static bool crosses_tiles(const emu_cmd *c)
{
	return c->kind == EMU_CMD_MOVE && (c->mv.kind == EMU_MOVE_INTER ||
					   c->mv.kind == EMU_MOVE_BCAST);
}

/* A reduce node's commands from i: a step is its moves then the commands
 * that use them (the add and the copy back); returns the step's end and
 * sets *cross when one of its moves leaves a tile. */
static size_t reduce_step(const emu_jit *j, const emu_program *p, size_t i, size_t n,
			  long node, bool *cross)
{
	bool computed = false;
	*cross = false;
	for (; i < n && emu_jit_node_of(j, i) == node; i++) {
		const emu_cmd *c = &p->cmds[i];
		if (c->kind == EMU_CMD_MOVE) {
			if (computed)
				break;
			*cross = *cross || crosses_tiles(c);
		} else {
			computed = true;
		}
	}
	return i;
}

void emu_paper_tdfg_final(const emu_tdfg *t, const emu_jit *j, const emu_program *p,
			  uint8_t *final, size_t n)
{
	for (size_t i = 0; i < n;) {
		const long node = emu_jit_node_of(j, i);
		if (node < 0 || t->nodes[node].kind != EMU_TN_REDUCE) {
			final[i++] = 0;
			continue;
		}
		bool cross;
		const size_t end = reduce_step(j, p, i, n, node, &cross);
		for (; i < end; i++)
			final[i] = cross;
	}
}

int emu_paper_tdfg_groups(emu_paper *p, const emu_tdfg *t, const emu_jit *j,
			  const emu_cmd_cycles *cc, size_t n)
{
	char label[96], name[EMU_NAME_MAX + 8];
	for (size_t i = 0; i < n; i++) {
		const long k = emu_jit_node_of(j, i);
		if (k < 0)
			continue;
		const emu_tnode *x = &t->nodes[k];
		const emu_tregion *r = &t->regions[x->region];
		snprintf(label, sizeof label, "%d: %s", x->line,
			 emu_tnode_label(t, x, name, sizeof name));
		if (emu_paper_group_add(&p->nodes, &p->nnodes, (size_t)x->line, label, cc[i].cycles) ||
		    emu_paper_group_add(&p->regions, &p->nregions, r->tmpl, r->name, cc[i].cycles))
			return -1;
	}
	/* runs: the instances of each node and region in the program */
	for (size_t k = 0; k < t->nnodes; k++)
		if ((size_t)t->nodes[k].line < p->nnodes)
			p->nodes[t->nodes[k].line].runs++;
	for (size_t r = 0; r < t->nregions; r++)
		if (t->regions[r].tmpl < p->nregions)
			p->regions[t->regions[r].tmpl].runs++;
	return 0;
}

uint64_t emu_paper_tdfg_jit_lowering(const emu_tdfg *t, const emu_jit *j, size_t m,
				     uint64_t lat_node, uint64_t lat_cmd_bank, unsigned banks,
				     uint64_t *nodes, uint64_t *cmds)
{
	const emu_tregion *r = &t->regions[j->lowerings[m].region];
	const uint64_t nn = r->node1 - r->node0, nc = r->cmd1 - r->cmd0;
	if (nodes)
		*nodes = nn;
	if (cmds)
		*cmds = nc;
	return nn * lat_node + nc * lat_cmd_bank * banks;
}

uint64_t emu_paper_tdfg_jit_cycles(const emu_tdfg *t, const emu_jit *j, uint64_t lat_node,
				   uint64_t lat_cmd_bank, unsigned banks)
{
	uint64_t c = 0;
	for (size_t m = 0; m < j->misses; m++)
		c += emu_paper_tdfg_jit_lowering(t, j, m, lat_node, lat_cmd_bank, banks, NULL, NULL);
	return c;
}

double emu_paper_tdfg_jit_seconds(const emu_jit *j)
{
	double s = 0;
	for (size_t m = 0; m < j->misses; m++)
		s += j->lowerings[m].seconds;
	return s;
}
