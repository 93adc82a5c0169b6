/* SPDX-License-Identifier: MIT */
/*
 * machine.c: running a command stream on the SRAM model; see machine.h.
 */
#include "machine.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mem.h"
#include "layout.h"
#include "transpose.h"
#include "move.h"
#ifdef _OPENMP
#include <omp.h>
#endif

unsigned emu_array_index(const sram_machine *m, unsigned bank, unsigned way,
			 unsigned array)
{
	return (bank * m->g.ways_per_bank + way) * m->g.arrays_per_way + array;
}

unsigned emu_bank_of_array(const sram_machine *m, unsigned array)
{
	return array / (m->g.arrays_per_way * m->g.ways_per_bank);
}

/* The host's physical memory in bytes (sysconf), 0 if it cannot say. */
static uint64_t host_memory(void)
{
	const long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
	return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : 0;
}

int emu_machine_check_host(const sram_geom *g, const char *path, diag *d)
{
	const uint64_t need = sram_host_bytes(g), have = host_memory();
	if (!have || need <= have)
		return 0;
	diag_file(d, path ? path : "infsim",
		  "this machine's SRAM model needs %" PRIu64 " MiB of host memory, more than "
		  "the %" PRIu64 " MiB this host has; expected a smaller machine (wordlines, "
		  "bitlines, arrays, ways, mesh)", need >> 20, have >> 20);
	return -1;
}

emu_machine *emu_machine_new(const emu_program *p, diag *d)
{
	if (emu_program_need_lowered(p, d) || emu_machine_check_host(&p->geom, p->path, d) < 0)
		return NULL;
	emu_machine *em = calloc(1, sizeof *em);
	if (!em) {
		diag_file(d, p->path, "out of memory");
		return NULL;
	}
	em->prog = p;
	em->m = sram_new(&p->geom);
	if (!em->m) {
		diag_file(d, p->path,
			  "out of memory for this machine's %llu bytes of compute SRAM",
			  (unsigned long long)sram_geom_bytes(&p->geom));
		free(em);
		return NULL;
	}
	em->way_on = calloc(em->m->nways, 1);
	em->bank_on = calloc(em->m->nbanks, 1);
	em->st.by_bank = calloc(em->m->nbanks, sizeof *em->st.by_bank);
	em->st.nbanks = em->m->nbanks;
	isa_prog_init(&em->up);
	em->trace = calloc(em->m->nbanks, sizeof *em->trace);
	em->bank_cur = calloc(em->m->nbanks, sizeof *em->bank_cur);
	em->optimised = p->geom.latency_opt != 0; /* machine latency=optimised */
	em->hz = emu_hazard_new(&p->geom, false, p->path);
	em->mover = em->hz ? emu_mover_new(em->m, em->hz, p->path) : NULL;
	if (!em->way_on || !em->bank_on || !em->st.by_bank || !em->trace ||
	    !em->bank_cur || !em->mover) {
		diag_file(d, p->path, "out of memory");
		emu_machine_free(em);
		return NULL;
	}
	return em;
}

void emu_machine_free(emu_machine *em)
{
	if (!em)
		return;
	free(em->way_on);
	free(em->bank_on);
	free(em->st.by_bank);
	isa_prog_free(&em->up);
	for (unsigned b = 0; em->trace && b < em->m->nbanks; b++)
		isa_prog_free(&em->trace[b]);
	free(em->trace);
	free(em->bank_cur);
	sram_free(em->shadow);
	emu_mover_free(em->mover);
	emu_hazard_free(em->hz);
	sram_free(em->m);
	free(em);
}

int emu_machine_set_strict(emu_machine *em, bool strict)
{
	emu_hazards *hz = emu_hazard_new(&em->m->g, strict, em->prog->path);
	emu_mover *mv = hz ? emu_mover_new(em->m, hz, em->prog->path) : NULL;
	if (!mv) {
		emu_hazard_free(hz);
		return -1;
	}
	emu_mover_free(em->mover);
	emu_hazard_free(em->hz);
	em->hz = hz;
	em->mover = mv;
	return 0;
}

/* ---- the transpose unit ---- */

/* Element i of a plain buffer b: its array and bitline. */
static void elem_place(const sram_machine *m, const emu_buffer *b, uint64_t i,
		       unsigned *array, unsigned *bl)
{
	unsigned wl;
	emu_buffer_place(b, &m->g, i, array, bl, &wl);
}

/* Cycles of moving `count` elements of b: one wordline per cycle per
 * array; a bank's unit serves its arrays one after another; banks work
 * in parallel, so the slowest bank decides. */
static uint64_t ttu_cycles(emu_machine *em, const emu_buffer *b, uint64_t count)
{
	const sram_machine *m = em->m;
	const uint64_t B = m->g.bitlines;
	uint64_t *per_bank = calloc(m->nbanks, sizeof *per_bank);
	uint64_t worst = 0;
	if (!per_bank) {
		em->oom = true;
		return 0;
	}
	for (uint64_t t = 0; t * B < count; t++) {
		unsigned a = (unsigned)emu_pattern_at(&b->arrays, t);
		uint64_t c = per_bank[emu_bank_of_array(m, a)] += b->width;
		if (c > worst)
			worst = c;
	}
	free(per_bank);
	em->st.ttu_cycles += worst;
	em->st.ttu_bits += count * b->width;
	return worst;
}

/* Threads for n pieces of work that share nothing, spread as the
 * executor's ways are (-j, or OpenMP's count): one for fewer than least,
 * where a team costs more than it saves. */
static int piece_threads(uint64_t n, uint64_t least)
{
#ifdef _OPENMP
	const int set = sram_get_threads();
	const int nt = set ? set : omp_get_max_threads();
	return nt < 2 || n < least ? 1 : nt;
#else
	(void)n, (void)least;
	return 1;
#endif
}

/* A buffer's tiles, each through the transpose unit: stored from v, or
 * with v NULL from b's init= values, made a tile at a time; or read into
 * v.  Tiles share nothing, since a buffer never names an array twice
 * (the parser refuses it: "array N appears twice in the pattern"): each
 * has its own rows and its own values, so they run on the threads. */
static void for_each_tile(sram_machine *m, const emu_buffer *b, uint64_t *v,
			  uint64_t count, bool store)
{
	const uint64_t B = m->g.bitlines, nt = (count + B - 1) / B;
	const int threads = piece_threads(nt, 64);
	(void)threads;
#pragma omp parallel for schedule(static) num_threads(threads) if (threads > 1)
	for (uint64_t t = 0; t < nt; t++) {
		unsigned array, bl;
		elem_place(m, b, t * B, &array, &bl);
		const unsigned len = (unsigned)(count - t * B < B ? count - t * B : B);
		if (store) {
			uint64_t made[SRAM_MAX_DIM];
			if (!v)
				emu_init_fill(b, t * B, len, made);
			/* its rows' pages in runs, not a fault a page (sram.h) */
			sram_prefault_rows(m, array, b->wl, b->width);
			emu_ttu_put(m, array, b->wl, b->width, 0, v ? v + t * B : made, len);
		} else {
			emu_ttu_get(m, array, b->wl, b->width, 0, v + t * B, len);
		}
	}
}

/* The cells a load writes, for the hazard tracker (loads count as
 * writes): every bitline of the buffer's arrays at its wordlines. */
static void mark_loaded(emu_machine *em, const emu_buffer *b)
{
	if (b->ndims) {
		emu_region r;
		emu_buffer_region(b, &r);
		em->oom |= emu_hazard_load_region(em->hz, &r) < 0;
		return;
	}
	const uint64_t na = emu_pattern_size(&b->arrays);
	unsigned *arrays = malloc(na * sizeof *arrays);
	uint64_t mask[SRAM_MAX_DIM / 64];
	if (!arrays) {
		em->oom = true;
		return;
	}
	memset(mask, 0xff, sizeof mask);
	for (uint64_t i = 0; i < na; i++)
		arrays[i] = (unsigned)emu_pattern_at(&b->arrays, i);
	const emu_cells c = {arrays, na, mask, b->wl, b->width};
	em->oom |= emu_hazard_load(em->hz, &c) < 0;
	free(arrays);
}

/* emu_ttu_store of a 1-d buffer: from values, or with values NULL from
 * its init= values (for_each_tile). */
static uint64_t store_tiles(emu_machine *em, const emu_buffer *b, uint64_t *values,
			    uint64_t count)
{
	mark_loaded(em, b);
	for_each_tile(em->m, b, values, count, true);
	return ttu_cycles(em, b, count);
}

/* A tensor through the transpose unit (layout.h): the whole region, or
 * its first count elements one by one through the port. */
static uint64_t tensor_ttu(emu_machine *em, const emu_buffer *b, uint64_t *values,
			   uint64_t count, bool store)
{
	emu_region r;
	uint64_t idx[EMU_LAYOUT_DIMS], cycles;
	emu_buffer_region(b, &r);
	if (count == b->length)
		cycles = store ? emu_layout_store(em->m, &r, values)
			       : emu_layout_load(em->m, &r, values);
	else
		cycles = emu_layout_ttu_cycles(&r, &em->m->g);
	for (uint64_t i = 0; count < b->length && i < count; i++) {
		emu_region_unflatten(&r, i, idx);
		if (store)
			emu_layout_elem_set(em->m, &r, idx, values[i] & isa_mask(b->width));
		else
			values[i] = emu_layout_elem_get(em->m, &r, idx);
	}
	em->st.ttu_cycles += cycles;
	em->st.ttu_bits += count * b->width;
	return cycles;
}

uint64_t emu_ttu_store(emu_machine *em, const emu_buffer *b,
		       const uint64_t *values, uint64_t count)
{
	if (count > b->length)
		count = b->length;
	if (b->ndims) {
		mark_loaded(em, b);
		return tensor_ttu(em, b, (uint64_t *)values, count, true);
	}
	return store_tiles(em, b, (uint64_t *)values, count);
}

uint64_t emu_ttu_load(emu_machine *em, const emu_buffer *b, uint64_t *values,
		      uint64_t count)
{
	if (count > b->length)
		count = b->length;
	if (b->ndims)
		return tensor_ttu(em, b, values, count, false);
	for_each_tile(em->m, b, values, count, false);
	return ttu_cycles(em, b, count);
}

void emu_buffer_read(const emu_machine *em, const emu_buffer *b, uint64_t *values)
{
	if (b->ndims) {
		emu_region r;
		emu_buffer_region(b, &r);
		emu_layout_load(em->m, &r, values);
		return;
	}
	for_each_tile(em->m, b, values, b->length, false);
}

uint64_t emu_elem_get(const emu_machine *em, const emu_buffer *b, uint64_t i)
{
	unsigned array, bl, wl;
	uint64_t v = 0;
	emu_buffer_place(b, &em->m->g, i, &array, &bl, &wl);
	for (unsigned k = 0; k < b->width; k++)
		v |= (uint64_t)sram_get_bit(em->m, array, wl + k, bl) << k;
	return v;
}

void emu_elem_set(emu_machine *em, const emu_buffer *b, uint64_t i, uint64_t v)
{
	unsigned array, bl, wl;
	emu_buffer_place(b, &em->m->g, i, &array, &bl, &wl);
	for (unsigned k = 0; k < b->width; k++)
		sram_set_bit(em->m, array, wl + k, bl, (v >> k) & 1);
}

int emu_init_buffers(emu_machine *em, diag *d)
{
	const emu_program *p = em->prog;
	for (size_t k = 0; k < p->nbufs; k++) {
		const emu_buffer *b = &p->bufs[k];
		/* A buffer counts as written once something writes it: its
		 * init= here, a load (emu_ttu_store) or a command; a read of
		 * one declared without init= before any of them is an
		 * unwritten read (hazard.h), though the SRAM holds zeros. */
		if (b->init == EMU_INIT_NONE)
			continue;
		if (!b->ndims) {
			store_tiles(em, b, NULL, b->length);
			continue;
		}
		uint64_t *v = mem_alloc_whole(b->length * sizeof *v);
		if (!v) {
			diag_at(d, p->path, b->line, b->col,
				"out of memory initialising buffer '%s'", b->name);
			return -1;
		}
		/* Elements are computed each on its own: in pieces, on the
		 * threads (one for a small buffer). */
		const uint64_t piece = 16384, np = (b->length + piece - 1) / piece;
		const int threads = piece_threads(np, 8);
		(void)threads;
#pragma omp parallel for schedule(static) num_threads(threads) if (threads > 1)
		for (uint64_t q = 0; q < np; q++)
			emu_init_fill(b, q * piece,
				      b->length - q * piece < piece ? b->length - q * piece : piece,
				      v + q * piece);
		emu_ttu_store(em, b, v, b->length);
		free(v);
	}
	return emu_machine_failed(em, d);
}

int emu_machine_failed(const emu_machine *em, diag *d)
{
	if (!em->oom)
		return 0;
	diag_file(d, em->prog->path, "out of memory for the machine's statistics or hazard "
		  "record");
	return -1;
}

/* ---- running commands ---- */

bool emu_done(const emu_machine *em)
{
	return em->pc >= em->prog->ncmds;
}

/* Expand the command's patterns into enable masks and the ways and banks
 * that run it (infinity-stream §5.2: the bank controller turns the
 * bitline and tile patterns into masks for its local tiles). */
static void select_bitlines(emu_machine *em, const emu_cmd *c)
{
	sram_machine *m = em->m;
	uint64_t mask[SRAM_MAX_DIM / 64] = {0};
	const uint64_t nb = emu_pattern_size(&c->bitlines);
	for (uint64_t i = 0; i < nb; i++) {
		uint64_t bl = (uint64_t)emu_pattern_at(&c->bitlines, i);
		mask[bl / 64] |= UINT64_C(1) << (bl % 64);
	}
	sram_enable_clear(m);
	memset(em->way_on, 0, m->nways);
	memset(em->bank_on, 0, m->nbanks);
	const uint64_t na = emu_pattern_size(&c->arrays);
	for (uint64_t i = 0; i < na; i++) {
		unsigned a = (unsigned)emu_pattern_at(&c->arrays, i);
		memcpy(sram_latch_words(m, a, SRAM_ENABLE), mask,
		       m->wpa * sizeof(uint64_t));
		em->way_on[a / m->g.arrays_per_way] = 1;
		em->bank_on[emu_bank_of_array(m, a)] = 1;
	}
}

int emu_cmd_uprog(const emu_machine *em, size_t i, isa_prog *p)
{
	isa_prog_clear(p);
	if (em->prog->cmds[i].kind == EMU_CMD_MOVE) /* none for a transfer (move.h) */
		return emu_move_uprog(&em->prog->cmds[i].mv, &em->m->g, p);
	return isa_build(&em->prog->cmds[i].c, em->m->g.bitlines, p);
}

/* ---- data-dependent commands: one controller per bank ---- */

struct bank_ctl {
	isa_ctl ctl;
	emu_machine *em;
	unsigned bank;
	bool oom;   /* a run of the bank's ways was out of memory */
};

static void bank_ways(const emu_machine *em, unsigned bank, unsigned *w0,
		      unsigned *nw)
{
	*nw = em->m->g.ways_per_bank;
	*w0 = bank * *nw;
}

/* The bank's controller: run what is pending on the bank's ways, then
 * sense the wired-OR of T over their enabled bitlines. */
static bool bank_any(isa_ctl *ctl, isa_prog *p)
{
	struct bank_ctl *bc = ctl->ctx;
	emu_machine *em = bc->em;
	unsigned w0, nw;
	bank_ways(em, bc->bank, &w0, &nw);
	if (p->n > ctl->done && sram_run_ways(em->m, w0, nw, em->way_on, p->u + ctl->done,
					      p->n - ctl->done) < 0)
		bc->oom = true;
	ctl->done = p->n;
	return sram_any_tag_ways(em->m, w0, nw, em->way_on);
}

/* Build and run command pc's trace on every bank that runs it, each
 * under its own controller, banks spread over threads (they share
 * nothing).  0, or -1 if a trace ran out of memory. */
static int run_traces(emu_machine *em)
{
	const isa_cmd *c = &em->prog->cmds[em->pc].c;
	const long nb = (long)em->m->nbanks;
	int bad = 0;
#pragma omp parallel for schedule(dynamic) reduction(| : bad)
	for (long b = 0; b < nb; b++) {
		isa_prog *t = &em->trace[b];
		isa_prog_clear(t);
		if (!em->bank_on[b])
			continue;
		struct bank_ctl bc = {{bank_any, 0, NULL}, em, (unsigned)b, false};
		bc.ctl.ctx = &bc;
		if (isa_build_ctl(c, em->m->g.bitlines, t, &bc.ctl) != 0)
			bad |= 1;
		else if (t->n > bc.ctl.done)
			bank_any(&bc.ctl, t);
		bad |= bc.oom;
	}
	return bad ? -1 : 0;
}

/* The longest trace goes to em->up, for the debugger. */
static int keep_longest_trace(emu_machine *em)
{
	const isa_prog *best = NULL;
	for (unsigned b = 0; b < em->m->nbanks; b++)
		if (em->bank_on[b] && (!best || em->trace[b].n > best->n))
			best = &em->trace[b];
	isa_prog_clear(&em->up);
	for (size_t i = 0; best && i < best->n; i++)
		isa_emit(&em->up, best->u[i]);
	return em->up.oom ? -1 : 0;
}

/* Find the traces without changing the machine: run them on a copy of
 * the state, then put the state back (used before stepping). */
static int find_traces(emu_machine *em)
{
	if (!em->shadow && !(em->shadow = sram_new(&em->m->g)))
		return -1;
	sram_copy_state(em->shadow, em->m);
	int rc = run_traces(em);
	sram_copy_state(em->m, em->shadow);
	return rc;
}

static int start_cmd(emu_machine *em, bool stepping, diag *d)
{
	const emu_cmd *c = &em->prog->cmds[em->pc];
	select_bitlines(em, c);
	memset(&em->cur, 0, sizeof em->cur);
	memset(em->bank_cur, 0, em->m->nbanks * sizeof *em->bank_cur);
	em->dd = em->optimised && isa_data_dependent(&c->c);
	int rc;
	if (!em->dd)
		rc = emu_cmd_uprog(em, em->pc, &em->up);
	else if (stepping)
		rc = find_traces(em) || keep_longest_trace(em) ? -1 : 0;
	else
		rc = run_traces(em) || keep_longest_trace(em) ? -1 : 0;
	if (rc != 0) {
		diag_at(d, em->prog->path, c->line, 0,
			"out of memory building the micro-program");
		return -1;
	}
	return 0;
}

static void add_count(sram_count *to, const sram_count *c)
{
	to->cycles += c->cycles;
	to->reads += c->reads;
	to->writes += c->writes;
	to->logic += c->logic;
	to->activations += c->activations;
}

static void finish_cmd(emu_machine *em)
{
	const isa_cmd *c = &em->prog->cmds[em->pc].c;
	const uint64_t base = isa_baseline_cycles(c, em->m->g.bitlines);
	add_count(&em->st.total, &em->cur);
	add_count(&em->st.by_op[c->op], &em->cur);
	em->st.base_cycles += base;
	em->st.base_by_op[c->op] += base;
	em->st.cmds_by_op[c->op]++;
	em->st.commands++;
	for (unsigned b = 0; b < em->m->nbanks; b++) {
		if (em->bank_on[b])
			add_count(&em->st.by_bank[b], em->dd ? &em->bank_cur[b] : &em->cur);
		else
			em->st.bank_skips++;
	}
	em->pc++;
	em->upc = 0;
	em->dd = false;
}

/* Micro-ops upc..upc+steps-1 of every bank's trace, each bank on its own
 * ways; the command's cost is that of its longest trace. */
static int advance_traces(emu_machine *em, size_t steps, bool ran)
{
	for (unsigned b = 0; b < em->m->nbanks; b++) {
		const isa_prog *t = &em->trace[b];
		if (!em->bank_on[b] || em->upc >= t->n)
			continue;
		const size_t k = steps < t->n - em->upc ? steps : t->n - em->upc;
		unsigned w0, nw;
		bank_ways(em, b, &w0, &nw);
		if (!ran && sram_run_ways(em->m, w0, nw, em->way_on, t->u + em->upc, k) < 0)
			return -1;
		for (size_t i = 0; i < k; i++)
			sram_uop_cost(&t->u[em->upc + i], &em->bank_cur[b]);
	}
	for (size_t i = 0; i < steps; i++)
		sram_uop_cost(&em->up.u[em->upc + i], &em->cur);
	return 0;
}

/* A move through the mover (move.h): emu_move_begin checks it and its
 * hazards and builds its micro-ops into em->up (an intra-array shift's,
 * a constant's; none for a transfer or a sync, which then runs whole in
 * one step), which run like a compute command's, one emu_stepi each;
 * emu_move_end counts it into the mover's statistics, the same however
 * it was stepped.  Its cycles and micro-ops then join the totals. */
static int move_failed(emu_machine *em)
{
	em->hazard_stop = emu_hazard_strict(em->hz);
	return -1;
}

static int finish_move(emu_machine *em, diag *d)
{
	const emu_cmd *c = &em->prog->cmds[em->pc];
	emu_mover *mv = em->mover;
	const sram_count before = mv->st.sram;
	const uint64_t skipped = mv->st.banks_skipped;
	if (emu_move_end(mv, d) != 0)
		return move_failed(em);
	em->st.total.cycles += mv->last.cycles;
	em->st.base_cycles += mv->last.cycles; /* a move's latency has no data-dependent part */
	em->st.total.reads += mv->st.sram.reads - before.reads;
	em->st.total.writes += mv->st.sram.writes - before.writes;
	em->st.total.logic += mv->st.sram.logic - before.logic;
	em->st.total.activations += mv->st.sram.activations - before.activations;
	em->st.bank_skips += mv->st.banks_skipped - skipped;
	/* The banks it ran on (a sync: all) take its cycles, as for a
	 * compute command; bank_on says which, for per-command statistics. */
	if (c->mv.kind == EMU_MOVE_SYNC)
		memset(em->bank_on, 1, em->m->nbanks);
	else
		memcpy(em->bank_on, mv->bank_on, em->m->nbanks);
	for (unsigned b = 0; b < em->m->nbanks; b++)
		em->st.by_bank[b].cycles += em->bank_on[b] ? mv->last.cycles : 0;
	em->st.commands++;
	em->st.move_commands++;
	em->pc++;
	em->upc = 0;
	return 0;
}

static int advance_move(emu_machine *em, size_t steps, diag *d)
{
	const emu_cmd *c = &em->prog->cmds[em->pc];
	emu_mover *mv = em->mover;
	if (em->upc == 0) {
		memset(&em->cur, 0, sizeof em->cur);
		/* Commands are numbered from 1, as --check and --stats count. */
		if (emu_move_begin(mv, &c->mv, em->pc + 1, &em->up, d) != 0)
			return move_failed(em);
	}
	const size_t left = em->up.n - em->upc;
	if (steps > left)
		steps = left;
	if (emu_move_step(mv, em->upc, steps, d) != 0)
		return move_failed(em);
	for (size_t i = 0; i < steps; i++)
		sram_uop_cost(&em->up.u[em->upc + i], &em->cur);
	em->upc += steps;
	return em->upc < em->up.n ? 0 : finish_move(em, d);
}

/* The rows a compute command reads (a, b, c: cvt's a at its source
 * width) and writes (d, d2; one row for a predicate), on its arrays and
 * bitlines; a reduction reads every bitline and writes bitline 0. */
static int check_compute_hazards(emu_machine *em, const emu_cmd *ec, diag *d)
{
	const isa_cmd *c = &ec->c;
	const isa_form f = isa_info_of(c->op)->form;
	const bool reduce = f == ISA_FORM_RA;
	const emu_pattern all = emu_pattern_range(em->m->g.bitlines);
	emu_pattern first = emu_pattern_range(1);
	emu_access rd[3], wr[2];
	size_t nr = 0, nw = 0;
	const uint16_t in[3] = {c->a, c->b, c->c3}, out[2] = {c->d, c->d2};
	for (unsigned k = 0; k < 3; k++)
		if (in[k] != ISA_NONE && in[k] != ISA_TAG)
			rd[nr++] = (emu_access){ec->arrays, reduce ? all : ec->bitlines, in[k],
						k == 0 && c->op == ISA_CVT ? c->swidth : c->width};
	for (unsigned k = 0; k < 2; k++)
		if (out[k] != ISA_NONE && out[k] != ISA_TAG)
			wr[nw++] = (emu_access){ec->arrays, reduce ? first : ec->bitlines, out[k],
						f == ISA_FORM_PAB || f == ISA_FORM_PAI ? 1 : c->width};
	if (emu_hazard_compute(em->hz, em->pc + 1, ec->line, rd, nr, wr, nw, d) >= 0)
		return 0;
	em->hazard_stop = emu_hazard_strict(em->hz);
	return -1;
}

static int advance(emu_machine *em, size_t steps, diag *d)
{
	if (emu_done(em))
		return 1;
	if (emu_machine_failed(em, d) < 0)
		return -1;
	if (em->prog->cmds[em->pc].kind == EMU_CMD_MOVE)
		return advance_move(em, steps, d);
	if (em->upc == 0 && check_compute_hazards(em, &em->prog->cmds[em->pc], d) != 0)
		return -1;
	/* A data-dependent command run whole from its start has already run
	 * while its traces were found. */
	const bool whole = em->upc == 0 && steps == SIZE_MAX;
	if (em->upc == 0 && start_cmd(em, !whole, d) != 0)
		return -1;
	const size_t left = em->up.n - em->upc;
	if (steps > left)
		steps = left;
	const sram_uop *u = em->up.u + em->upc;
	const int ran = em->dd ? advance_traces(em, steps, whole)
			       : steps == 1 ? sram_step(em->m, em->way_on, u)
					    : sram_run(em->m, em->way_on, u, steps);
	if (ran < 0) {
		diag_file(d, em->prog->path, "out of memory running command %zu", em->pc + 1);
		return -1;
	}
	if (!em->dd) {
		for (size_t i = 0; i < steps; i++)
			sram_uop_cost(&u[i], &em->cur);
	}
	em->upc += steps;
	if (em->upc >= em->up.n)
		finish_cmd(em);
	return 0;
}

int emu_run_cmd(emu_machine *em, diag *d)
{
	return advance(em, SIZE_MAX, d);
}

int emu_stepi(emu_machine *em, diag *d)
{
	return advance(em, 1, d);
}

int emu_run_all(emu_machine *em, bool stepi, diag *d)
{
	while (!emu_done(em)) {
		int rc = stepi ? emu_stepi(em, d) : emu_run_cmd(em, d);
		if (rc < 0)
			return rc;
	}
	return 0;
}
