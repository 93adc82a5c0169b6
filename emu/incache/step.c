/* SPDX-License-Identifier: MIT */
/*
 * step.c: the in-cache machine as the debugger sees it (incache.h): its
 * units (micro-op, command, and for a tDFG node and region run), the
 * position, the names a user prints (every buffer; pc, upc, cycles,
 * commands), breakpoints and snapshots.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "incache.h"
#include "isa.h"

const tgt_unit inc_units[INC_NUNITS] = {
	{ "micro-op", "micro-ops" },
	{ "command", "commands" },
	{ "node", "nodes" },
	{ "region run", "region runs" },
};

/* The node (u 2) or region run (u 3) command i belongs to, -1 for none;
 * a stream's commands are their own. */
static long group_of(const tgt *t, unsigned u, size_t i)
{
	if (!t->is_tdfg || i >= t->p.ncmds)
		return u < 2 ? (long)i : -1;
	const long n = emu_jit_node_of(&t->j, i);
	if (n < 0 || u == 2)
		return n;
	return (long)t->t.nodes[n].region;
}

/* Command pc has finished: the references, check points, strm node. */
static tgt_status finished(tgt *t, diag *d)
{
	return inc_after_cmd(t, t->em->pc - 1, d);
}

/* The rest of command pc (all of it when it has not started). */
static tgt_status one_command(tgt *t, diag *d)
{
	const size_t pc = t->em->pc;
	const long near = inc_near_at(t, pc);
	if (near >= 0)
		return inc_near_run(t, (size_t)near, d);
	if (t->em->upc == 0) {
		if (emu_run_cmd(t->em, d) < 0)
			return t->em->hazard_stop ? TGT_HAZARD : TGT_FAILED;
	} else {
		while (t->em->pc == pc && !emu_done(t->em))
			if (emu_stepi(t->em, d) < 0)
				return TGT_FAILED;
	}
	return finished(t, d);
}

tgt_status inc_step(tgt *t, unsigned u, diag *d)
{
	tgt_status st = inc_start(t, d);
	if (st != TGT_OK || emu_done(t->em))
		return st;
	if (u == 0) {
		const size_t pc = t->em->pc;
		if (emu_stepi(t->em, d) < 0)
			return t->em->hazard_stop ? TGT_HAZARD : TGT_FAILED;
		t->uops++;
		return t->em->pc != pc ? finished(t, d) : TGT_OK;
	}
	const long g = group_of(t, u, t->em->pc);
	do
		st = one_command(t, d);
	while (st == TGT_OK && u > 1 && !emu_done(t->em) && group_of(t, u, t->em->pc) == g &&
	       g >= 0);
	return st;
}

bool inc_ended(const tgt *t)
{
	return emu_done(t->em);
}

uint64_t inc_count(const tgt *t, unsigned u)
{
	if (u == 0)
		return t->uops;
	if (u == 1 || !t->is_tdfg)
		return t->em->pc;
	/* nodes (region runs) whose last command has run */
	uint64_t n = 0;
	for (size_t i = 0; i < t->t.nnodes; i++)
		n += t->t.nodes[i].cmd1 <= t->em->pc && t->t.nodes[i].cmd1 > t->t.nodes[i].cmd0 &&
		     (u == 2 || i + 1 == t->t.nnodes ||
		      t->t.nodes[i + 1].region != t->t.nodes[i].region);
	return n;
}

bool inc_where(tgt *t, unsigned u, tgt_loc *loc)
{
	memset(loc, 0, sizeof *loc);
	const size_t pc = t->em->pc;
	if (pc >= t->p.ncmds)
		return false;
	const emu_cmd *c = &t->p.cmds[pc];
	loc->file = t->p.path;
	loc->line = c->line > 0 ? (unsigned)c->line : 0;
	if (u <= 1) {
		loc->index = u == 0 ? t->em->upc : pc;
		char text[200];
		emu_format_cmd(&t->p, c, text, sizeof text);
		if (u == 0)
			snprintf(loc->what, sizeof loc->what, "micro-op %zu of %zu of command %zu: %s",
				 t->em->upc, (size_t)t->em->up.n, pc + 1, text);
		else
			snprintf(loc->what, sizeof loc->what, "command %zu: %s", pc + 1, text);
		return true;
	}
	const long g = group_of(t, u, pc);
	if (g < 0)
		return false;
	loc->index = (uint64_t)g;
	loc->file = t->t.path;
	if (u == 2) {
		const emu_tnode *x = &t->t.nodes[g];
		char label[96];
		loc->line = (unsigned)x->line;
		loc->col = (unsigned)x->col;
		snprintf(loc->what, sizeof loc->what, "node '%s' (commands %zu..%zu)",
			 emu_tnode_label(&t->t, x, label, sizeof label), x->cmd0 + 1, x->cmd1);
	} else {
		const emu_tregion *r = &t->t.regions[g];
		loc->line = (unsigned)r->line;
		snprintf(loc->what, sizeof loc->what, "run %ld of region '%s'", g + 1, r->name);
	}
	return true;
}

const char *inc_source(const tgt *t)
{
	return t->is_tdfg ? t->t.path : t->p.path;
}

/* ---- names ---- */

enum { SYM_PC, SYM_UPC, SYM_CYCLES, SYM_COMMANDS, NSYMS };
static const char *const sym_names[NSYMS] = { "pc", "upc", "cycles", "commands" };

bool inc_lookup(tgt *t, const char *name, tgt_sym *out)
{
	memset(out, 0, sizeof *out);
	for (size_t i = 0; i < t->p.nbufs; i++)
		if (!strcmp(t->p.bufs[i].name, name)) {
			tgt_array a;
			tgt_stream.array(t, i, &a);
			*out = (tgt_sym){ true, i, a.type, a.length, true };
			return true;
		}
	for (size_t k = 0; k < NSYMS; k++)
		if (!strcmp(sym_names[k], name)) {
			*out = (tgt_sym){ false, k, { TGT_INT, 64, false, 0 }, 1, false };
			return true;
		}
	return false;
}

uint64_t inc_read(tgt *t, const tgt_sym *s, uint64_t index)
{
	if (s->is_array)
		return emu_elem_get(t->em, &t->p.bufs[s->id], index);
	switch (s->id) {
	case SYM_PC: return t->em->pc;
	case SYM_UPC: return t->em->upc;
	case SYM_CYCLES: return t->em->st.total.cycles;
	default: return t->em->st.commands;
	}
}

tgt_status inc_write(tgt *t, const tgt_sym *s, uint64_t index, uint64_t bits, diag *d)
{
	if (!s->is_array) {
		diag_file(d, t->p.path, "'%s' cannot be set", sym_names[s->id]);
		return TGT_FAILED;
	}
	return tgt_stream.array_set(t, s->id, index, 1, &bits, d);
}

void inc_names(tgt *t, void (*each)(void *ctx, const char *name), void *ctx)
{
	for (size_t i = 0; i < t->p.nbufs; i++)
		each(ctx, t->p.bufs[i].name);
	for (size_t k = 0; k < NSYMS; k++)
		each(ctx, sym_names[k]);
}

/* ---- breakpoints ---- */

enum { BP_CMD, BP_OP, BP_NODE, BP_CYCLE };

tgt_status inc_break_parse(tgt *t, const char *spec, tgt_bp *bp, diag *d)
{
	memset(bp, 0, sizeof *bp);
	char word[32];
	char *end;
	int n = 0;
	if (sscanf(spec, "%31s %n", word, &n) == 1 && n > 0 && spec[n]) {
		const char *arg = spec + n;
		if (!strcmp(word, "command") || !strcmp(word, "cycle")) {
			const unsigned long long v = strtoull(arg, &end, 10);
			if (end == arg || *end || (word[0] == 'c' && word[1] == 'o' &&
						   (v < 1 || v > t->p.ncmds))) {
				diag_file(d, "break", "'%s': expected %s", spec, word[1] == 'o'
					  ? "a command number from 1" : "a cycle count");
				return TGT_USAGE;
			}
			bp->kind = word[1] == 'o' ? BP_CMD : BP_CYCLE;
			bp->a = word[1] == 'o' ? v - 1 : v;
			snprintf(bp->what, sizeof bp->what, "%s %llu", word, v);
			return TGT_OK;
		}
		if (!strcmp(word, "op")) {
			const int op = isa_lookup(arg);
			if (op < 0) {
				diag_file(d, "break", "'%s': no command is called '%s'", spec, arg);
				return TGT_USAGE;
			}
			bp->kind = BP_OP;
			bp->a = (uint64_t)op;
			snprintf(bp->what, sizeof bp->what, "op %s", arg);
			return TGT_OK;
		}
		if (!strcmp(word, "node")) {
			const long x = t->is_tdfg ? emu_tdfg_find(&t->t, arg, strlen(arg)) : -1;
			if (x < 0) {
				diag_file(d, "break", "'%s': %s", spec, t->is_tdfg ? "the tDFG has no "
					  "such node" : "only a tDFG has nodes");
				return TGT_USAGE;
			}
			bp->kind = BP_NODE;
			bp->a = (uint64_t)x;
			snprintf(bp->what, sizeof bp->what, "node %s", arg);
			return TGT_OK;
		}
	}
	/* LINE or FILE:LINE: the first command of that line (of the tDFG's
	 * nodes, for a tDFG) */
	const char *colon = strrchr(spec, ':');
	const char *num = colon ? colon + 1 : spec;
	const char *file = inc_source(t);
	if (colon) {
		const char *base = strrchr(file, '/');
		const size_t fl = (size_t)(colon - spec);
		if (!((strlen(file) == fl && !strncmp(file, spec, fl)) ||
		      (base && strlen(base + 1) == fl && !strncmp(base + 1, spec, fl)))) {
			diag_file(d, "break", "'%.*s' is not loaded (the program is %s)", (int)fl, spec,
				  file);
			return TGT_USAGE;
		}
	}
	const unsigned long line = strtoul(num, &end, 10);
	if (end == num || *end || line == 0) {
		diag_file(d, "break", "'%s': expected LINE, FILE:LINE, command N, op NAME, node "
			  "NAME or cycle N", spec);
		return TGT_USAGE;
	}
	long best = -1, near = -1;
	for (size_t i = 0; i < t->p.ncmds && best < 0; i++) {
		long l = t->p.cmds[i].line;
		if (t->is_tdfg) {
			const long x = emu_jit_node_of(&t->j, i);
			l = x >= 0 ? t->t.nodes[x].line : 0;
		}
		if (l == (long)line)
			best = (long)i;
		else if (l > (long)line && (near < 0 || l < near))
			near = l;
	}
	if (best < 0) {
		if (near > 0)
			diag_file(d, "break", "line %lu of %s has no command; the next line that has "
				  "one is %ld", line, file, near);
		else
			diag_file(d, "break", "line %lu of %s has no command", line, file);
		return TGT_USAGE;
	}
	bp->kind = BP_CMD;
	bp->a = (uint64_t)best;
	snprintf(bp->what, sizeof bp->what, "%s:%lu", file, line);
	return TGT_OK;
}

bool inc_break_hit(tgt *t, const tgt_bp *bp)
{
	const size_t pc = t->em->pc;
	if (t->em->upc != 0 && bp->kind != BP_CYCLE)
		return false; /* a command's breakpoints stop before its first micro-op */
	switch (bp->kind) {
	case BP_CMD: return pc == bp->a;
	case BP_OP: return pc < t->p.ncmds && t->p.cmds[pc].c.op == bp->a;
	case BP_NODE: return t->is_tdfg && pc < t->p.ncmds && t->t.nodes[bp->a].cmd0 == pc;
	default: return t->em->st.total.cycles >= bp->a;
	}
}

/* ---- snapshots: the machine between commands, copy on write ---- */

struct tgt_snap {
	emu_snap *s;
	size_t bytes;       /* what it holds of the pool */
	uint64_t uops;
	size_t checked;
	bool started;
	emu_cmd_cycles *cc;
};

tgt_snap *inc_save(tgt *t, diag *d)
{
	tgt_snap *s = calloc(1, sizeof *s);
	if (s)
		s->cc = malloc((t->p.ncmds + 1) * sizeof *s->cc);
	if (!s || !s->cc) {
		free(s);
		diag_file(d, t->p.path, "out of memory for a snapshot");
		return NULL;
	}
	const size_t before = t->pool.bytes;
	if (!(s->s = emu_snap_take(t->em, NULL, &t->pool, d))) {
		free(s->cc);
		free(s);
		return NULL;
	}
	s->bytes = t->pool.bytes - before + (t->p.ncmds + 1) * sizeof *s->cc;
	memcpy(s->cc, t->cc, (t->p.ncmds + 1) * sizeof *s->cc);
	s->uops = t->uops;
	s->checked = t->checked;
	s->started = t->started;
	return s;
}

tgt_status inc_restore(tgt *t, const tgt_snap *s, diag *d)
{
	if (emu_snap_restore(t->em, s->s, d) < 0)
		return TGT_FAILED;
	memcpy(t->cc, s->cc, (t->p.ncmds + 1) * sizeof *s->cc);
	t->uops = s->uops;
	t->started = s->started;
	if (!t->ref)
		return TGT_OK;
	/* The references only go forwards: a fresh one, with the data the
	 * run started from, replays the commands before the snapshot's
	 * position. */
	emu_ref_free(t->ref);
	if (!(t->ref = emu_ref_new(&t->p, d)))
		return TGT_FAILED;
	if (emu_ref_init_buffers(t->ref) < 0) {
		diag_file(d, t->p.path, "out of memory for the reference model");
		return TGT_FAILED;
	}
	for (size_t i = 0; i < t->nloads; i++) {
		const emu_buffer *b = &t->p.bufs[t->loads[i].buf];
		if (emu_ref_store(t->ref, b, t->loads[i].v, b->length) < 0) {
			diag_file(d, t->p.path, "out of memory for the reference model");
			return TGT_FAILED;
		}
	}
	for (t->checked = 0; t->checked < s->checked; t->checked++)
		if (emu_ref_run_cmd(t->ref, t->checked, d) < 0)
			return TGT_FAILED;
	return TGT_OK;
}

void inc_snap_free(tgt_snap *s)
{
	if (!s)
		return;
	emu_snap_free(s->s);
	free(s->cc);
	free(s);
}

size_t inc_snap_bytes(const tgt_snap *s)
{
	return sizeof *s + s->bytes;
}
