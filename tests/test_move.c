/* SPDX-License-Identifier: MIT */
/*
 * test_move.c: data movement (emu/machine/move.h), the interconnect model
 * (emu/machine/net.h) and the hazard checks (emu/machine/hazard.h).
 *
 * Every move is checked against a scalar model written here, apart from
 * the engine: plain C over bits (the commands) or over element values in
 * the plain layout (the lowering of tensor moves and broadcasts).
 */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hazard.h"
#include "isa_harness.h"
#include "layout.h"
#include "move.h"
#include "net.h"
#include "machine.h"
#include "proc.h"
#include "refmodel.h"
#include "report.h"

/* ---- helpers ---- */


static uint64_t rnd(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

struct rig {
	sram_geom g;
	sram_machine *m;
	emu_hazards *hz;
	emu_mover *mv;
};

static void rig_init(struct rig *r, const sram_geom *g, bool strict)
{
	r->g = *g;
	r->m = sram_new(g);
	cr_assert_not_null(r->m, "%s", sram_geom_check(g) ? sram_geom_check(g) : "oom");
	r->hz = emu_hazard_new(g, strict, "test.ins");
	cr_assert_not_null(r->hz);
	r->mv = emu_mover_new(r->m, r->hz, "test.ins");
	cr_assert_not_null(r->mv);
}

static void rig_free(struct rig *r)
{
	emu_mover_free(r->mv);
	emu_hazard_free(r->hz);
	sram_free(r->m);
}

/* Every cell of the machine, one byte each: the model's state. */
static uint8_t *snapshot(const sram_machine *m)
{
	const size_t W = m->g.wordlines, B = m->g.bitlines;
	uint8_t *s = malloc(m->narrays * W * B);
	cr_assert_not_null(s);
	for (unsigned a = 0; a < m->narrays; a++)
		for (unsigned w = 0; w < W; w++)
			for (unsigned b = 0; b < B; b++)
				s[((size_t)a * W + w) * B + b] = sram_get_bit(m, a, w, b);
	return s;
}

static uint8_t *cell(uint8_t *s, const sram_machine *m, unsigned a, unsigned w,
		     unsigned b)
{
	return &s[((size_t)a * m->g.wordlines + w) * m->g.bitlines + b];
}

/* Random bits everywhere, and the tracker told they were loaded. */
static void fill_random(struct rig *r, uint64_t seed)
{
	for (unsigned a = 0; a < r->m->narrays; a++)
		for (unsigned w = 0; w < r->g.wordlines; w++)
			for (unsigned b = 0; b < r->g.bitlines; b++)
				sram_set_bit(r->m, a, w, b, rnd(&seed) & 1);
	uint64_t all[SRAM_MAX_DIM / 64];
	memset(all, 0xff, sizeof all);
	unsigned *arrays = malloc(r->m->narrays * sizeof *arrays);
	for (unsigned a = 0; a < r->m->narrays; a++)
		arrays[a] = a;
	const emu_cells c = {arrays, r->m->narrays, all, 0, r->g.wordlines};
	cr_assert_eq(emu_hazard_load(r->hz, &c), 0);
	free(arrays);
}

static void expect_state(const struct rig *r, uint8_t *want, const char *what)
{
	for (unsigned a = 0; a < r->m->narrays; a++)
		for (unsigned w = 0; w < r->g.wordlines; w++)
			for (unsigned b = 0; b < r->g.bitlines; b++)
				cr_assert_eq(sram_get_bit(r->m, a, w, b),
					     *cell(want, r->m, a, w, b),
					     "%s: array %u wordline %u bitline %u", what, a, w, b);
}

static void run_ok(struct rig *r, const emu_move *c, size_t cmd)
{
	diag d;
	diag_clear(&d);
	char t[512];
	emu_move_format(c, t, sizeof t);
	cr_assert_eq(emu_move_run(r->mv, c, cmd, &d), 0, "%s: %s", t, d.msg);
}

static void run_fails(struct rig *r, const emu_move *c, const char *msg)
{
	diag d;
	diag_clear(&d);
	cr_assert_eq(emu_move_run(r->mv, c, 7, &d), -1, "expected '%s'", msg);
	cr_assert(strstr(d.msg, msg), "got '%s', expected '%s'", d.msg, msg);
}

static emu_region region(const char *name, unsigned width, unsigned nd,
			 const uint64_t *S, const uint64_t *T, unsigned wl)
{
	emu_region r;
	diag d;
	diag_clear(&d);
	emu_region_init(&r, name, ISA_FMT_INT, width, 0);
	cr_assert_eq(emu_region_shape(&r, nd, S, &d), 0, "%s", d.msg);
	for (unsigned k = 0; k < nd; k++)
		r.tile[k] = T[k];
	r.wl = (uint16_t)wl;
	return r;
}

/* ---- the scalar model of tensor moves (plain layout) ---- */

static uint64_t flat(const emu_region *r, const uint64_t *i)
{
	return i[0] + r->size[0] * (i[1] + r->size[1] * i[2]);
}

/* dst[i + off] = src[i] for i in box, where i + off is inside r. */
static void model_move(const emu_region *r, const uint64_t *src, uint64_t *dst,
		       const emu_box *b, const int64_t *off)
{
	uint64_t i[3];
	for (i[2] = b->lo[2]; i[2] < b->hi[2]; i[2]++)
		for (i[1] = b->lo[1]; i[1] < b->hi[1]; i[1]++)
			for (i[0] = b->lo[0]; i[0] < b->hi[0]; i[0]++) {
				uint64_t j[3];
				bool in = true;
				for (unsigned k = 0; k < 3; k++) {
					const int64_t v = (int64_t)i[k] + off[k];
					in = in && v >= 0 && v < (int64_t)r->size[k];
					j[k] = (uint64_t)v;
				}
				if (in)
					dst[flat(r, j)] = src[flat(r, i)];
			}
}

/* dst[i with i_dim = t] = src[i] for i in box (extent 1 along dim, at p)
 * and t in [p + dist, p + dist + count) inside r. */
static void model_bcast(const emu_region *r, const uint64_t *src, uint64_t *dst,
			const emu_box *b, unsigned dim, int64_t dist, uint64_t count)
{
	for (uint64_t c = 0; c < count; c++) {
		int64_t off[3] = {0, 0, 0};
		off[dim] = dist + (int64_t)c;
		model_move(r, src, dst, b, off);
	}
}

/* ---- Fig 9 ---- */

struct fig9 {
	char cmd[8][160];
	size_t ncmd;
	uint64_t before[16], after[16];
	size_t nbefore, nafter;
};

static void fig9_read(struct fig9 *f)
{
	char *text = proc_slurp(SRCDIR "/samples/fig9/fig9.txt", NULL);
	cr_assert_not_null(text);
	memset(f, 0, sizeof *f);
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		if (!strncmp(line, "cmd ", 4)) {
			cr_assert_lt(f->ncmd, 8);
			snprintf(f->cmd[f->ncmd++], sizeof f->cmd[0], "%s", line + 4);
		} else if (!strncmp(line, "before ", 7) || !strncmp(line, "after ", 6)) {
			const bool is_after = line[0] == 'a';
			uint64_t *v = is_after ? f->after : f->before;
			size_t *n = is_after ? &f->nafter : &f->nbefore;
			char *p = line + (is_after ? 6 : 7), *e;
			for (int k = 0; k < 4 && *n < 16; k++, p = e)
				v[(*n)++] = strtoull(p, &e, 10);
		}
	}
	free(text);
}

Test(move, fig9)
{
	const sram_geom g = harness_geom(32, 8, 1, 1, 2, 2);
	const uint64_t S[2] = {4, 4}, T[2] = {2, 2};
	emu_region A = region("A", 8, 2, S, T, 0), D = A;
	D.wl = 8;
	struct rig r;
	struct fig9 f;
	uint64_t v[16], zero[16] = {0}, got[16], want[16] = {0};
	fig9_read(&f);
	rig_init(&r, &g, true);
	cr_assert_eq(f.nbefore, 16);
	memcpy(v, f.before, sizeof v);
	emu_layout_store(r.m, &A, v);
	emu_layout_store(r.m, &D, zero);
	cr_assert_eq(emu_hazard_load_region(r.hz, &A), 0);
	cr_assert_eq(emu_hazard_load_region(r.hz, &D), 0);

	emu_move_list l;
	emu_move_list_init(&l);
	diag d;
	diag_clear(&d);
	const emu_box box = {{0, 0, 0}, {3, 4, 1}};
	const int64_t off[3] = {1, 0, 0};
	cr_assert_eq(emu_lower_move(&A, &g, &box, off, 8, 16, &l, &d), 0, "%s", d.msg);
	cr_assert_eq(l.n, f.ncmd, "%zu commands, the paper has %zu", l.n, f.ncmd);
	for (size_t i = 0; i < l.n; i++) {
		char t[256];
		emu_move_format(&l.v[i], t, sizeof t);
		cr_assert_str_eq(t, f.cmd[i], "CMD %zu", i);
	}
	/* §4.2 step 3: CMD 0 runs on tiles 0 and 2, so banks 0 and 2 only. */
	run_ok(&r, &l.v[0], 0);
	cr_assert_eq(r.mv->last.banks_run, 2);
	run_ok(&r, &l.v[1], 1);
	cr_assert_eq(emu_mover_pending(r.mv), 16, "2 tiles x 8 wordlines held for the sync");
	run_ok(&r, &l.v[2], 2);
	run_ok(&r, &l.v[3], 3);
	cr_assert_eq(emu_mover_pending(r.mv), 0);
	cr_assert_eq(emu_hazard_count(r.hz), 0);
	emu_layout_load(r.m, &D, got);
	model_move(&A, v, want, &box, off);
	cr_assert_eq(f.nafter, 16);
	for (unsigned i = 0; i < 16; i++) {
		cr_assert_eq(got[i], want[i], "element (%u, %u)", i % 4, i / 4);
		cr_assert_eq(got[i], f.after[i], "element (%u, %u) against fig9.txt", i % 4, i / 4);
	}
	emu_layout_load(r.m, &A, got);
	for (unsigned i = 0; i < 16; i++)
		cr_assert_eq(got[i], v[i], "the source is untouched");
	emu_move_list_free(&l);
	rig_free(&r);
}

/* Algorithm 1 on the paper's example: [0,4) x [0,3) in 2x2 tiles (our
 * dimension 0 is the paper's dimension 1) gives A_L and A_R. */
Test(move, decompose)
{
	emu_box out[27];
	const uint64_t T[3] = {2, 2, 1};
	const emu_box b = {{0, 0, 0}, {3, 4, 1}};
	cr_assert_eq(emu_decompose(&b, T, out), 2);
	cr_assert(out[0].lo[0] == 0 && out[0].hi[0] == 2 && out[0].lo[1] == 0 && out[0].hi[1] == 4);
	cr_assert(out[1].lo[0] == 2 && out[1].hi[0] == 3 && out[1].lo[1] == 0 && out[1].hi[1] == 4);
	/* Head, middle and tail along one dimension; one piece inside a tile. */
	const uint64_t T8[3] = {8, 1, 1};
	const emu_box h = {{3, 0, 0}, {21, 1, 1}};
	cr_assert_eq(emu_decompose(&h, T8, out), 3);
	cr_assert(out[0].lo[0] == 3 && out[0].hi[0] == 8);
	cr_assert(out[1].lo[0] == 8 && out[1].hi[0] == 16);
	cr_assert(out[2].lo[0] == 16 && out[2].hi[0] == 21);
	const emu_box one = {{9, 0, 0}, {12, 1, 1}};
	cr_assert_eq(emu_decompose(&one, T8, out), 1);
	const emu_box aligned = {{8, 0, 0}, {24, 1, 1}};
	cr_assert_eq(emu_decompose(&aligned, T8, out), 1);
	cr_assert(out[0].lo[0] == 8 && out[0].hi[0] == 24);
	const emu_box empty = {{4, 0, 0}, {4, 1, 1}};
	cr_assert_eq(emu_decompose(&empty, T8, out), 0);
	/* 3 x 3 pieces in 2-d. */
	const uint64_t T44[3] = {4, 4, 1};
	const emu_box b2 = {{1, 1, 0}, {11, 11, 1}};
	cr_assert_eq(emu_decompose(&b2, T44, out), 9);
}

/* ---- commands against a bit-level model ---- */

/* What c does, on a snapshot: reads everything from before, writes want
 * (remote: only transfers between banks, local: only within a bank). */
static void model_cmd(const struct rig *r, const emu_move *c, const uint8_t *before,
		      uint8_t *want, bool local, bool remote)
{
	const sram_machine *m = r->m;
	const uint64_t na = emu_pattern_size(&c->arrays), nb = emu_pattern_size(&c->bitlines);
	const uint64_t copies = c->kind == EMU_MOVE_BCAST ? c->reuse_count : 1;
	for (uint64_t i = 0; i < na; i++) {
		const unsigned a = (unsigned)emu_pattern_at(&c->arrays, i);
		for (uint64_t j = 0; j < copies; j++) {
			unsigned to = a;
			if (c->kind == EMU_MOVE_INTER || c->kind == EMU_MOVE_BCAST)
				to = (unsigned)((int64_t)a + c->dist + (int64_t)j * c->reuse_stride);
			const bool far = emu_net_bank(&r->g, a) != emu_net_bank(&r->g, to);
			if ((far && !remote) || (!far && !local))
				continue;
			for (unsigned k = 0; k < c->nwl; k++)
				for (uint64_t e = 0; e < nb; e++) {
					const unsigned b = (unsigned)emu_pattern_at(&c->bitlines, e);
					if (c->kind == EMU_MOVE_CONST) {
						*cell(want, m, a, c->wl + k, b) = c->value >> k & 1;
						continue;
					}
					const unsigned tb = c->kind == EMU_MOVE_INTRA
						? (unsigned)((int64_t)b + c->dist)
						: (unsigned)emu_pattern_at(&c->dst_bitlines, e);
					*cell(want, m, to, c->dst_wl + k, tb) =
						*cell((uint8_t *)before, m, a, c->wl + k, b);
				}
		}
	}
}

/* The scratch row holds partial shifts: take the machine's word for it. */
static void accept_scratch(const struct rig *r, const emu_move *c, uint8_t *want)
{
	if (c->kind != EMU_MOVE_INTRA || c->scratch == SRAM_NO_ROW)
		return;
	for (unsigned a = 0; a < r->m->narrays; a++)
		for (unsigned b = 0; b < r->g.bitlines; b++)
			*cell(want, r->m, a, c->scratch, b) = sram_get_bit(r->m, a, c->scratch, b);
}

/* Run c, then a sync, checking the state after each; c's cycles. */
static uint64_t check_cmd(struct rig *r, const emu_move *c, uint64_t seed)
{
	fill_random(r, seed);
	uint8_t *before = snapshot(r->m), *want = snapshot(r->m);
	model_cmd(r, c, before, want, true, false);
	run_ok(r, c, 1);
	const uint64_t cycles = r->mv->last.cycles;
	accept_scratch(r, c, want);
	expect_state(r, want, "before the sync");
	const emu_move s = emu_move_sync();
	model_cmd(r, c, before, want, false, true);
	run_ok(r, &s, 2);
	expect_state(r, want, "after the sync");
	cr_assert_eq(emu_hazard_count(r->hz), 0, "%s",
		     emu_hazard_count(r->hz) ? emu_hazard_get(r->hz, 0)->text : "");
	free(before);
	free(want);
	return cycles;
}

/* Shifts by -B + 1 to B - 1 over some or all arrays of 2 banks; far
 * ones run bank by bank, on `threads` threads (sram_set_threads). */
static void intra_shift_cases(int threads)
{
	const unsigned widths[3] = {8, 64, 128};
	sram_set_threads(threads);
	for (unsigned w = 0; w < 3; w++) {
		const unsigned B = widths[w];
		const sram_geom g = harness_geom(16, B, 2, 1, 2, 1);
		struct rig r;
		rig_init(&r, &g, true);
		const emu_pattern all = harness_pat(0, 1, 4), some = harness_pat(1, 2, 2);
		const struct { emu_pattern bl; int64_t d; } cases[] = {
			{harness_pat(0, 2, B / 2), 1}, {harness_pat(1, 2, B / 2), -1},
			{harness_pat(0, 1, B / 2), (int64_t)B / 2}, {harness_pat(B / 2, 1, B / 2), -(int64_t)B / 2},
			{harness_pat(0, 3, B / 3), 2}, {harness_pat(B - 1, 1, 1), -(int64_t)B + 1},
			{harness_pat(0, 1, 1), (int64_t)B - 1}, {harness_pat(2, 1, 5), 0},
			{harness_pat(0, 1, B - 3), 3},
		};
		for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
			/* into other wordlines, then in place */
			emu_move c = emu_move_intra(i % 2 ? &all : &some, &cases[i].bl,
						    cases[i].d, 2, 5, 9, 15);
			const uint64_t d = (uint64_t)(cases[i].d < 0 ? -cases[i].d : cases[i].d);
			cr_assert_eq(check_cmd(&r, &c, 100 * w + i), 5 * (d ? d : 1),
				     "|d| cycles per wordline");
			c.dst_wl = c.wl;
			if (cases[i].d)
				check_cmd(&r, &c, 100 * w + i + 50);
		}
		rig_free(&r);
	}
	sram_set_threads(0);
}

Test(move, intra_shifts) { intra_shift_cases(1); }
Test(move, intra_shifts_threads) { intra_shift_cases(2); }

Test(move, inter_shifts_and_broadcasts)
{
	/* 2 arrays a way, 2 ways a bank, 2x2 banks: 16 arrays. */
	const sram_geom g = harness_geom(16, 64, 2, 2, 2, 2);
	struct rig r;
	rig_init(&r, &g, true);
	const emu_pattern arr = harness_pat(0, 1, 8), two = harness_pat(3, 4, 2), bl = harness_pat(0, 2, 16);
	const emu_pattern one5 = harness_pat(1, 4, 2);
	const emu_pattern up = harness_pat(1, 2, 16), perm = harness_pat(63, -3, 16), same = harness_pat(0, 2, 16);
	emu_move cases[] = {
		emu_move_inter(&arr, &bl, 1, &up, 0, 4, 8),      /* H-tree and NoC */
		emu_move_inter(&arr, &bl, 8, &same, 3, 4, 3),    /* all remote, in place */
		emu_move_inter(&two, &bl, -3, &perm, 1, 6, 9),   /* a permutation */
		emu_move_inter(&arr, &bl, 1, &bl, 2, 4, 2),      /* in place, one bank */
		emu_move_bcast(&one5, &bl, 1, 8, 2, &up, 0, 4, 8),
		emu_move_bcast(&two, &bl, -1, 1, 1, &same, 0, 16, 0),
	};
	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++)
		check_cmd(&r, &cases[i], 1000 + i);
	rig_free(&r);
}

Test(move, constants)
{
	const sram_geom g = harness_geom(16, 64, 2, 1, 1, 1);
	struct rig r;
	rig_init(&r, &g, true);
	const emu_pattern arr = harness_pat(0, 1, 2), bl = harness_pat(5, 7, 8);
	emu_move c = emu_move_const(&arr, &bl, 0x2d, 3, 8);
	cr_assert_eq(check_cmd(&r, &c, 5), 8, "one write per wordline");
	c = emu_move_const(&arr, &bl, ~UINT64_C(0) >> 48, 0, 16);
	check_cmd(&r, &c, 6);
	rig_free(&r);
}

/* ---- lowering against the scalar model ---- */

struct lowered {
	size_t ncmds, nsyncs, ninter;
	uint64_t cycles;
};

/* Does a transfer of l leave its source's bank?  Array by array (the
 * lowering decides it run by run of arrays: a sync iff one does). */
static bool lowered_remote(const sram_geom *g, const emu_move_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		const emu_move *c = &l->v[i];
		if (c->kind != EMU_MOVE_INTER && c->kind != EMU_MOVE_BCAST)
			continue;
		const uint64_t copies = c->kind == EMU_MOVE_BCAST ? c->reuse_count : 1;
		for (uint64_t j = 0; j < emu_pattern_size(&c->arrays); j++) {
			const int64_t a = emu_pattern_at(&c->arrays, j);
			for (uint64_t k = 0; k < copies; k++)
				if (emu_net_bank(g, (unsigned)a) !=
				    emu_net_bank(g, (unsigned)(a + c->dist +
							       (int64_t)k * c->reuse_stride)))
					return true;
		}
	}
	return false;
}

/* Lower a move (bcast false) or a broadcast of box in region A on g, run
 * it under a strict hazard tracker, and compare the destination (a copy
 * of A's layout right after A's wordlines) with the scalar model; every
 * cell that is not one of the destination's elements (or the scratch
 * row) must keep its bits. */
static struct lowered check_lowered(const sram_geom *g, const emu_region *A0,
				    const emu_box *box, bool bcast, unsigned dim,
				    const int64_t *off, int64_t dist, uint64_t count,
				    uint64_t seed)
{
	struct rig r;
	struct lowered out = {0};
	emu_region A = *A0, D = *A0;
	const unsigned rows = (unsigned)emu_region_rows(&A, g);
	D.wl = (uint16_t)(A.wl + rows);
	const unsigned scratch = D.wl + rows;
	const uint64_t n = emu_region_elems(&A);
	uint64_t *v = malloc(n * sizeof *v), *want = malloc(n * sizeof *want);
	uint64_t *got = malloc(n * sizeof *got);
	diag dc;
	diag_clear(&dc);
	cr_assert(emu_region_tile_bitlines(&A) < g->bitlines ||
		  emu_region_check(&D, g, &dc) == 0, "%s", dc.msg);
	rig_init(&r, g, true);
	fill_random(&r, seed);
	for (uint64_t i = 0; i < n; i++) {
		v[i] = rnd(&seed) & isa_mask(A.width);
		want[i] = rnd(&seed) & isa_mask(A.width);
	}
	emu_layout_store(r.m, &A, v);
	emu_layout_store(r.m, &D, want);
	uint8_t *before = snapshot(r.m);
	emu_move_list l;
	emu_move_list_init(&l);
	diag d;
	diag_clear(&d);
	const int rc = bcast ? emu_lower_broadcast(&A, g, box, dim, dist, count, D.wl,
						   scratch, &l, &d)
			     : emu_lower_move(&A, g, box, off, D.wl, scratch, &l, &d);
	cr_assert_eq(rc, 0, "%s", d.msg);
	diag_clear(&d);
	cr_assert_eq(emu_move_run_list(r.mv, &l, 0, &d), 0, "%s", d.msg);
	cr_assert_eq(emu_mover_pending(r.mv), 0, "the lowering ends synced");
	if (bcast)
		model_bcast(&A, v, want, box, dim, dist, count);
	else
		model_move(&A, v, want, box, off);
	emu_layout_load(r.m, &D, got);
	for (uint64_t i = 0; i < n; i++)
		cr_assert_eq(got[i], want[i], "element %" PRIu64 " (%" PRIu64 ", %" PRIu64
			     ", %" PRIu64 ") of %" PRIu64, i, i % A.size[0],
			     i / A.size[0] % A.size[1], i / A.size[0] / A.size[1], n);
	for (unsigned a = 0; a < r.m->narrays; a++)
		for (unsigned w = 0; w < g->wordlines; w++)
			for (unsigned b = 0; w != scratch && b < g->bitlines; b++) {
				uint64_t idx[3];
				unsigned bit;
				if (!emu_layout_element_at(&D, g, a, b, w, idx, &bit))
					cr_assert_eq(sram_get_bit(r.m, a, w, b),
						     *cell(before, r.m, a, w, b),
						     "cell %u/%u/%u outside the destination", a, w, b);
			}
	out.ncmds = l.n;
	for (size_t i = 0; i < l.n; i++) {
		out.nsyncs += l.v[i].kind == EMU_MOVE_SYNC;
		out.ninter += l.v[i].kind == EMU_MOVE_INTER || l.v[i].kind == EMU_MOVE_BCAST;
	}
	const bool remote = lowered_remote(g, &l);
	cr_assert_eq(out.nsyncs > 0, remote, "%s transfer crosses banks, but the "
		     "lowering has %zu syncs", remote ? "a" : "no", out.nsyncs);
	for (unsigned k = 0; k < EMU_MOVE_KINDS; k++)
		out.cycles += r.mv->st.cycles[k];
	free(before);
	free(v);
	free(want);
	free(got);
	emu_move_list_free(&l);
	rig_free(&r);
	return out;
}

static struct lowered check_move(const sram_geom *g, const emu_region *A,
				 const emu_box *box, unsigned k, int64_t d, uint64_t seed)
{
	int64_t off[3] = {0, 0, 0};
	off[k] = d;
	return check_lowered(g, A, box, false, k, off, 0, 0, seed);
}

static emu_box whole(const emu_region *A)
{
	emu_box b = {{0, 0, 0}, {A->size[0], A->size[1], A->size[2]}};
	return b;
}

/* A 3-d array in 4x2x2 tiles of 16 bitlines on 16-bitline arrays over
 * 4 banks (18 tiles): every dimension, both directions, distances below, equal to
 * and above the tile size. */
Test(move, every_dimension_and_direction)
{
	const sram_geom g = harness_geom(64, 16, 4, 2, 2, 2);
	const uint64_t S[3] = {10, 5, 3}, T[3] = {4, 2, 2};
	const emu_region A = region("A", 5, 3, S, T, 0);
	const emu_box b = whole(&A);
	unsigned seed = 1;
	for (unsigned k = 0; k < 3; k++)
		for (int64_t d = -(int64_t)T[k] - 1; d <= (int64_t)T[k] + 1; d++) {
			const struct lowered lw = check_move(&g, &A, &b, k, d, seed++);
			const uint64_t ad = (uint64_t)(d < 0 ? -d : d);
			cr_assert_eq(lw.ncmds > 0, ad < S[k], "dimension %u by %" PRId64, k, d);
		}
	/* Further than the region: everything is discarded, no command. */
	cr_assert_eq(check_move(&g, &A, &b, 0, 10, 99).ncmds, 0);
	cr_assert_eq(check_move(&g, &A, &b, 1, -7, 98).ncmds, 0);
}

/* Sub-tensors with head, middle and tail pieces, in 1-d and 2-d. */
Test(move, unaligned_subtensors)
{
	const sram_geom g = harness_geom(64, 8, 4, 2, 2, 2);
	const uint64_t S1[1] = {40}, T1[1] = {8};
	const emu_region A = region("A", 6, 1, S1, T1, 0);
	const emu_box b = {{3, 0, 0}, {29, 1, 1}};     /* head 3..7, middle 8..23, tail 24..28 */
	for (int64_t d = -12; d <= 12; d += 3)
		check_move(&g, &A, &b, 0, d, 200 + (uint64_t)d);
	const uint64_t S2[2] = {13, 11}, T2[2] = {4, 2};
	const emu_region M = region("M", 4, 2, S2, T2, 0);
	const emu_box m = {{1, 3, 0}, {11, 10, 1}};
	for (int64_t d = -5; d <= 5; d++) {
		check_move(&g, &M, &m, 0, d, 300 + (uint64_t)d);
		check_move(&g, &M, &m, 1, d, 400 + (uint64_t)d);
	}
}

Test(move, broadcasts_along_rows_and_columns)
{
	const sram_geom g = harness_geom(64, 16, 4, 1, 2, 2);
	const uint64_t S[2] = {12, 9}, T[2] = {4, 4};
	const emu_region A = region("A", 7, 2, S, T, 0);
	/* Row 2 (dimension 1 = 2) down to rows 3..8: along the columns. */
	const emu_box row = {{0, 2, 0}, {12, 3, 1}};
	check_lowered(&g, &A, &row, true, 1, NULL, 1, 6, 1);
	/* Part of a row, up and down, past the edge (clipped). */
	const emu_box part = {{3, 5, 0}, {10, 6, 1}};
	check_lowered(&g, &A, &part, true, 1, NULL, -5, 9, 2);
	check_lowered(&g, &A, &part, true, 1, NULL, 2, 30, 3);
	/* Column 1 across dimension 0: along the rows. */
	const emu_box col = {{1, 0, 0}, {2, 9, 1}};
	check_lowered(&g, &A, &col, true, 0, NULL, 0, 12, 4);
	check_lowered(&g, &A, &col, true, 0, NULL, 4, 5, 5);
	check_lowered(&g, &A, &col, true, 0, NULL, -1, 1, 6);
	/* Outside the region altogether: no command. */
	emu_move_list l;
	emu_move_list_init(&l);
	cr_assert_eq(emu_lower_broadcast(&A, &g, &col, 0, 20, 3, 8, 16, &l, NULL), 0);
	cr_assert_eq(l.n, 0);
	emu_move_list_free(&l);
}

/* Random layouts: tiles smaller than, equal to and larger than an array
 * (virtual bitlines), 1 to 3 dimensions, random boxes, moves and
 * broadcasts. */
Test(move, random_layouts)
{
	const sram_geom gs[3] = {harness_geom(64, 8, 4, 1, 2, 2), harness_geom(64, 16, 2, 2, 2, 1),
				 harness_geom(128, 64, 4, 2, 1, 2)};
	uint64_t seed = 77;
	unsigned ran[3][2] = {{0}}; /* [tile < B, = B, > B][move, broadcast] */
	for (unsigned it = 0; it < 240; it++) {
		const sram_geom *g = &gs[it % 3];
		const unsigned B = g->bitlines, nd = 1 + (unsigned)(rnd(&seed) % 3);
		const unsigned lp = __builtin_ctz(B) - 1 + (unsigned)(rnd(&seed) % 4);
		uint64_t T[3] = {1, 1, 1}, S[3] = {1, 1, 1};
		for (unsigned bit = 0; bit < lp; bit++)
			T[rnd(&seed) % nd] *= 2;
		uint64_t tiles = 1;
		for (unsigned k = 0; k < nd; k++) {
			S[k] = 1 + rnd(&seed) % (2 * T[k] + 2);
			tiles *= (S[k] + T[k] - 1) / T[k];
		}
		const uint64_t narrays = (uint64_t)g->arrays_per_way * g->ways_per_bank *
					 g->mesh_x * g->mesh_y;
		if (tiles > narrays)
			continue;
		const unsigned width = 1 + (unsigned)(rnd(&seed) % 6);
		emu_region A = region("A", width, nd, S, T, 0);
		emu_box b;
		for (unsigned k = 0; k < 3; k++) {
			b.lo[k] = rnd(&seed) % S[k];
			b.hi[k] = b.lo[k] + 1 + rnd(&seed) % (S[k] - b.lo[k]);
		}
		const unsigned k = (unsigned)(rnd(&seed) % nd);
		const uint64_t P = T[0] * T[1] * T[2];
		ran[P < B ? 0 : P == B ? 1 : 2][it % 2 == 0]++;
		if (it % 2) {
			const int64_t d = (int64_t)(rnd(&seed) % (2 * S[k] + 1)) - (int64_t)S[k];
			check_move(g, &A, &b, k, d, seed);
		} else {
			b.hi[k] = b.lo[k] + 1;
			const int64_t dist = (int64_t)(rnd(&seed) % (2 * S[k] + 1)) - (int64_t)S[k];
			check_lowered(g, &A, &b, true, k, NULL, dist, 1 + rnd(&seed) % S[k], seed);
		}
	}
	for (unsigned t = 0; t < 3; t++)
		cr_assert(ran[t][0] >= 10 && ran[t][1] >= 10, "tile kind %u: %u moves, %u "
			  "broadcasts", t, ran[t][0], ran[t][1]);
}

/* ---- every error message ---- */

Test(move, command_errors)
{
	const sram_geom g = harness_geom(128, 64, 4, 2, 2, 1); /* 16 arrays, 2 banks */
	struct rig r;
	rig_init(&r, &g, false);
	const emu_pattern a8 = harness_pat(0, 1, 8), bl = harness_pat(0, 2, 16), bl8 = harness_pat(0, 1, 8);
	emu_move c = emu_move_intra(&a8, &bl, 1, 2, 5, 9, SRAM_NO_ROW);
	c.kind = 9;
	run_fails(&r, &c, "command 7: unknown move kind 9; expected intra, inter, bcast, const or sync");
	c = emu_move_intra(&a8, &bl, 1, 2, 5, 9, SRAM_NO_ROW);
	c.line = 12;
	c.arrays = harness_pat(0, 1, 0);
	run_fails(&r, &c, "test.ins:12: error: command 7: intra-array shift: array pattern 0:1:0 selects no array; expected at least one");
	c.arrays = harness_pat(0, 1, 17);
	run_fails(&r, &c, "array pattern 0:1:17 selects 17 arrays; there are only 16");
	c.arrays = harness_pat(15, 1, 2);
	run_fails(&r, &c, "array pattern 15:1:2 reaches array 16; expected arrays 0..15");
	c.arrays = a8;
	c.arrays.ndims = 9;
	run_fails(&r, &c, "a pattern has at most 8 dimensions");
	c.arrays = a8;
	c.bitlines = harness_pat(60, 1, 8);
	run_fails(&r, &c, "bitline pattern 60:1:8 reaches bitline 67; expected bitlines 0..63");
	c.bitlines = harness_pat(60, 1, 4);
	run_fails(&r, &c, "source bitline 63 would move to bitline 64, past the edge of the array (bitlines 0..63)");
	c.bitlines = harness_pat(0, 1, 2);
	c.dist = -1;
	run_fails(&r, &c, "source bitline 0 would move to bitline -1, past the edge");
	c.dist = 1;
	c.nwl = 0;
	run_fails(&r, &c, "moves no wordline (n=0); expected n >= 1");
	c.nwl = 5;
	c.wl = 126;
	run_fails(&r, &c, "source wordlines 126..130 are outside the array's 0..127");
	c.wl = 2;
	c.dst_wl = 125;
	run_fails(&r, &c, "destination wordlines 125..129 are outside the array's 0..127");
	c.dst_wl = 9;
	c.dist = 2;
	run_fails(&r, &c, "a shift by 2 bitlines needs a scratch wordline (scratch=WL)");
	c.scratch = 128;
	run_fails(&r, &c, "scratch wordline 128 is outside the array's 0..127");
	c.scratch = 4;
	run_fails(&r, &c, "scratch wordline 4 is one of the wordlines it moves (2..6 to 9..13)");

	emu_move t = emu_move_inter(&a8, &bl, 0, &bl, 0, 4, 8);
	run_fails(&r, &t, "inter-array shift: array distance 0 moves nothing between arrays");
	t.dist = 9;
	run_fails(&r, &t, "array 7 would send to array 16, outside the machine's arrays 0..15");
	t.dist = -1;
	run_fails(&r, &t, "array 0 would send to array -1, outside");
	t.dist = 1;
	t.dst_bitlines = bl8;
	run_fails(&r, &t, "moves 16 source bitlines to 8 destination bitlines; expected as many of each");
	t.dst_bitlines = harness_pat(0, 0, 16);
	run_fails(&r, &t, "destination bitline pattern 0:0:16 names bitline 0 twice");
	t.dst_bitlines = harness_pat(60, 1, 16);
	run_fails(&r, &t, "destination bitline pattern 60:1:16 reaches bitline 75");
	emu_move b = emu_move_bcast(&a8, &bl, 1, 1, 0, &bl, 0, 4, 8);
	run_fails(&r, &b, "broadcast: reuse count 0; expected 1..16");
	b.arrays = harness_pat(0, 1, 2);
	b.reuse_count = 2;
	run_fails(&r, &b, "two source arrays both send to array 2; expected each destination array once");
	b.reuse_count = 9;
	b.arrays = a8;
	run_fails(&r, &b, "array 7 would send to array 16");

	emu_move k = emu_move_const(&a8, &bl, 0x100, 0, 8);
	run_fails(&r, &k, "constant broadcast: value 0x100 does not fit in 8 wordlines");
	k.nwl = 65;
	run_fails(&r, &k, "a constant has at most 64 bits; n=65");
	cr_assert_eq(emu_mover_pending(r.mv), 0);
	rig_free(&r);
}

static void lower_fails(const emu_region *A, const sram_geom *g, const emu_box *b,
			const int64_t *off, unsigned dst, unsigned scratch, const char *msg)
{
	emu_move_list l;
	diag d;
	emu_move_list_init(&l);
	diag_clear(&d);
	cr_assert_eq(emu_lower_move(A, g, b, off, dst, scratch, &l, &d), -1, "expected '%s'", msg);
	cr_assert(strstr(d.msg, msg), "got '%s', expected '%s'", d.msg, msg);
	emu_move_list_free(&l);
}

static void bcast_fails(const emu_region *A, const sram_geom *g, const emu_box *b,
			unsigned dim, int64_t dist, uint64_t count, const char *msg)
{
	emu_move_list l;
	diag d;
	emu_move_list_init(&l);
	diag_clear(&d);
	cr_assert_eq(emu_lower_broadcast(A, g, b, dim, dist, count, 8, 16, &l, &d), -1);
	cr_assert(strstr(d.msg, msg), "got '%s', expected '%s'", d.msg, msg);
	emu_move_list_free(&l);
}

Test(move, lowering_errors)
{
	const sram_geom g = harness_geom(32, 8, 1, 1, 2, 2);
	const uint64_t S[2] = {4, 4}, T[2] = {2, 2};
	emu_region A = region("A", 8, 2, S, T, 0);
	const emu_box b = {{0, 0, 0}, {3, 4, 1}};
	const int64_t off[3] = {1, 0, 0}, two[3] = {1, 1, 0}, far[3] = {3, 0, 0};
	lower_fails(&A, &g, &b, two, 8, 16, "region 'A': offset (1, 1, 0) moves along 2 dimensions; a mv moves along one");
	const emu_box big = {{0, 0, 0}, {5, 4, 1}};
	lower_fails(&A, &g, &big, off, 8, 16, "box [0, 5) of dimension 0; expected a non-empty part of 0..4");
	lower_fails(&A, &g, &b, off, 4, 16, "destination wordlines 4..11 overlap the region's 0..7");
	lower_fails(&A, &g, &b, off, 28, 16, "destination wordlines 28..35 are outside the arrays' 0..31");
	lower_fails(&A, &g, &b, off, 8, 9, "scratch wordline 9 must be inside the arrays' 0..31 and outside wordlines 0..7 and 8..15");
	/* The tile is 2 wide: a move by 3 shifts bitlines by 1 and... none by 2. */
	const emu_box col = {{0, 0, 0}, {1, 4, 1}};
	const uint64_t S1[1] = {16}, T1[1] = {8};
	emu_region L = region("L", 4, 1, S1, T1, 0);
	const emu_box lb = {{0, 0, 0}, {16, 1, 1}};
	lower_fails(&L, &g, &lb, far, 8, SRAM_NO_ROW, "region 'L': a shift by 3 bitlines needs a scratch wordline");
	(void)col;
	emu_region bad = A;
	bad.tile[0] = 3;
	bad.tile[1] = 4; /* 12 bitlines: more than 8, not a multiple */
	lower_fails(&bad, &g, &b, off, 8, 16, "a tile fills whole arrays");
	bad = A;
	bad.array0 = 2;
	lower_fails(&bad, &g, &b, off, 8, 16, "needs arrays 2..5, the machine has 0..3");
	bad = A;
	bad.wl = 28;
	lower_fails(&bad, &g, &b, off, 8, 16, "needs wordlines 28..35, the arrays have 32");
	bad = A;
	bad.tile[1] = 0;
	lower_fails(&bad, &g, &b, off, 8, 16, "size and tile of dimension 1 must be >= 1");
	const emu_box row = {{0, 1, 0}, {4, 2, 1}};
	bcast_fails(&A, &g, &b, 1, 1, 2, "a broadcast source has extent 1 along its reuse dimension 1; this one has 4");
	bcast_fails(&A, &g, &row, 2, 1, 2, "broadcast along dimension 2; the region has dimensions 0..1");
	bcast_fails(&A, &g, &row, 1, 1, 0, "reuse count 0 at distance 1; expected a count >= 1");
}

/* Virtual bitlines: tiles of 2 and 4 arrays' worth of bitlines, cut by
 * the wordline groups along each dimension in turn. */
Test(move, virtual_bitlines)
{
	const sram_geom g = harness_geom(128, 8, 4, 2, 2, 2);
	const struct { unsigned nd; uint64_t S[3], T[3]; } cases[] = {
		{2, {7, 9, 1}, {4, 4, 1}},   /* 16 bitlines: groups cut dimension 1 */
		{1, {37, 1, 1}, {16, 1, 1}}, /* cut dimension 0 */
		{3, {3, 5, 9}, {2, 2, 4}},   /* 32 bitlines: cut dimension 2 */
		{2, {5, 6, 1}, {1, 32, 1}},  /* 4 groups along dimension 1 */
	};
	uint64_t seed = 5;
	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const emu_region A = region("V", 3, cases[i].nd, cases[i].S, cases[i].T, 0);
		const emu_box b = whole(&A);
		for (unsigned k = 0; k < cases[i].nd; k++)
			for (int64_t d = -(int64_t)cases[i].T[k] - 1; d <= (int64_t)cases[i].T[k] + 1; d++)
				check_move(&g, &A, &b, k, d, seed++);
		for (unsigned k = 0; k < cases[i].nd; k++) {
			emu_box s = b;
			s.lo[k] = cases[i].S[k] / 2;
			s.hi[k] = s.lo[k] + 1;
			check_lowered(&g, &A, &s, true, k, NULL, -(int64_t)s.lo[k], cases[i].S[k], seed++);
		}
	}
}

/* ---- hazards ---- */

/* Fig 9 without its sync: region A at 0, its moved value D at 8, both
 * loaded; the lowered commands are in l (sync dropped). */
static void fig9_rig(struct rig *r, bool strict, emu_region *A, emu_region *D,
		     emu_move_list *l, const uint64_t *dst_init)
{
	static const sram_geom g = {32, 8, 1, 1, 2, 2, 0, 0, 0};
	const uint64_t S[2] = {4, 4}, T[2] = {2, 2};
	uint64_t v[16];
	*A = region("A", 8, 2, S, T, 0);
	*D = *A;
	D->wl = 8;
	rig_init(r, &g, strict);
	for (unsigned i = 0; i < 16; i++)
		v[i] = i;
	emu_layout_store(r->m, A, v);
	emu_layout_store(r->m, D, dst_init);
	cr_assert_eq(emu_hazard_load_region(r->hz, A), 0);
	cr_assert_eq(emu_hazard_load_region(r->hz, D), 0);
	const emu_box box = {{0, 0, 0}, {3, 4, 1}};
	const int64_t off[3] = {1, 0, 0};
	emu_move_list_init(l);
	cr_assert_eq(emu_lower_move(A, &g, &box, off, 8, 16, l, NULL), 0);
	cr_assert_eq(l->v[l->n - 1].kind, EMU_MOVE_SYNC);
	l->n--; /* the JIT forgot it */
}

/* What a compute command over all of D (arrays 0..3, bitlines 0..3,
 * wordlines 8..15) reads or writes. */
static emu_access d_access(void)
{
	const emu_access x = {harness_pat(0, 1, 4), harness_pat(0, 1, 4), 8, 8};
	return x;
}

Test(move, missing_sync_is_caught)
{
	struct rig r;
	emu_region A, D;
	emu_move_list l;
	const uint64_t zero[16] = {0};
	fig9_rig(&r, false, &A, &D, &l, zero);
	diag d;
	diag_clear(&d);
	cr_assert_eq(emu_move_run_list(r.mv, &l, 0, &d), 0, "%s", d.msg);
	const emu_access rd = d_access();
	cr_assert_eq(emu_hazard_compute(r.hz, 3, 5, &rd, 1, NULL, 0, &d), 1);
	const emu_hazard *z = emu_hazard_get(r.hz, 0);
	cr_assert_eq(z->kind, EMU_HZ_UNSYNCED);
	cr_assert(z->cmd == 3 && z->other == 1 && z->bank == 1 && z->array == 1 && z->narrays == 2);
	cr_assert_str_eq(z->text, "command 3: reads bank 1, array 1, wordlines 8..15, "
			 "bitlines 0,2 (and 1 more array) before they arrive: inter-bank move "
			 "command 1 delivers them only at the next sync; insert a sync before "
			 "this command (infinity-stream §4.2, Synchronization)");
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	emu_hazard_print(f, r.hz);
	fclose(f);
	cr_assert(!strncmp(out, "test.ins:5: warning: command 3: reads bank 1", 44), "%s", out);
	cr_assert(strstr(out, "[unsynced-read]\n"), "%s", out);
	free(out);
	/* A move that reads them is caught the same way. */
	const emu_pattern t13 = harness_pat(1, 2, 2), b02 = harness_pat(0, 2, 2);
	const emu_move c = emu_move_intra(&t13, &b02, 1, 8, 8, 20, SRAM_NO_ROW);
	run_ok(&r, &c, 4);
	cr_assert_eq(emu_hazard_count_kind(r.hz, EMU_HZ_UNSYNCED), 2);
	cr_assert_eq(emu_hazard_get(r.hz, 1)->cmd, 4);
	/* After the sync, the same read is fine. */
	const emu_move s = emu_move_sync();
	run_ok(&r, &s, 5);
	cr_assert_eq(emu_hazard_compute(r.hz, 6, 0, &rd, 1, NULL, 0, &d), 0);
	emu_move_list_free(&l);
	rig_free(&r);
}

/* A hazard even where the bits happen to be right: the destination
 * already holds the moved value, and strict mode refuses the read. */
Test(move, missing_sync_strict_even_when_bits_agree)
{
	struct rig r;
	emu_region A, D;
	emu_move_list l;
	const uint64_t after[16] = {0, 0, 1, 2, 0, 4, 5, 6, 0, 8, 9, 10, 0, 12, 13, 14};
	fig9_rig(&r, true, &A, &D, &l, after);
	diag d;
	diag_clear(&d);
	cr_assert_eq(emu_move_run_list(r.mv, &l, 0, &d), 0, "%s", d.msg);
	uint64_t got[16];
	emu_layout_load(r.m, &D, got);
	cr_assert_eq(memcmp(got, after, sizeof got), 0, "the bits happen to be right");
	const emu_access rd = d_access();
	cr_assert_eq(emu_hazard_compute(r.hz, 3, 9, &rd, 1, NULL, 0, &d), -1);
	cr_assert(!strncmp(d.msg, "test.ins:9: error: command 3: reads bank 1, array 1", 51), "%s", d.msg);
	cr_assert(strstr(d.msg, "(a hazard; strict mode makes it an error)"), "%s", d.msg);
	/* A strict move refuses to run, and changes nothing. */
	const emu_pattern t13 = harness_pat(1, 2, 2), b02 = harness_pat(0, 2, 2);
	const emu_move c = emu_move_intra(&t13, &b02, 1, 8, 8, 20, SRAM_NO_ROW);
	uint8_t *before = snapshot(r.m);
	diag_clear(&d);
	cr_assert_eq(emu_move_run(r.mv, &c, 4, &d), -1);
	cr_assert(strstr(d.msg, "command 4: reads bank 1, array 1"), "%s", d.msg);
	expect_state(&r, before, "a refused command");
	free(before);
	emu_move_list_free(&l);
	rig_free(&r);
}

Test(move, unwritten_reads)
{
	const sram_geom g = harness_geom(32, 64, 2, 1, 1, 1);
	struct rig r;
	rig_init(&r, &g, false);
	const emu_pattern arr = harness_pat(0, 1, 2), lo = harness_pat(0, 1, 4), all = harness_pat(0, 1, 8);
	/* Write bitlines 0..3 of wordlines 20..23, then read 0..7. */
	const emu_move k = emu_move_const(&arr, &lo, 0x5, 20, 4);
	run_ok(&r, &k, 0);
	const emu_move c = emu_move_intra(&arr, &all, 1, 20, 4, 24, SRAM_NO_ROW);
	run_ok(&r, &c, 1);
	cr_assert_eq(emu_hazard_count(r.hz), 1);
	const emu_hazard *z = emu_hazard_get(r.hz, 0);
	cr_assert_eq(z->kind, EMU_HZ_UNWRITTEN);
	cr_assert_str_eq(z->text, "command 1: reads bank 0, array 0, wordlines 20..23, "
			 "bitlines 4..7 (and 1 more array) that were never written since "
			 "the machine was loaded");
	/* Loads count as writes; so do the shift's own destinations. */
	const emu_access wr = {harness_pat(0, 1, 2), harness_pat(0, 1, 64), 0, 4};
	cr_assert_eq(emu_hazard_compute(r.hz, 2, 0, NULL, 0, &wr, 1, NULL), 0);
	const emu_access rd[2] = {{harness_pat(0, 1, 2), harness_pat(1, 1, 8), 24, 4},
				  {harness_pat(1, 1, 1), harness_pat(0, 1, 64), 0, 4}};
	cr_assert_eq(emu_hazard_compute(r.hz, 3, 0, rd, 2, NULL, 0, NULL), 0);
	const emu_access rd2 = {harness_pat(1, 1, 1), harness_pat(0, 1, 64), 0, 5};
	cr_assert_eq(emu_hazard_compute(r.hz, 4, 0, &rd2, 1, NULL, 0, NULL), 1);
	cr_assert_str_eq(emu_hazard_get(r.hz, 1)->text, "command 4: reads bank 0, "
			 "array 1, wordline 4, bitlines 0..63 that were never written since "
			 "the machine was loaded");
	rig_free(&r);
}

Test(move, clobbered_operands)
{
	struct rig r;
	emu_region A, D;
	emu_move_list l;
	const uint64_t zero[16] = {0};
	fig9_rig(&r, false, &A, &D, &l, zero);
	cr_assert_eq(emu_move_run_list(r.mv, &l, 0, NULL), 0);
	/* A compute writes D, where CMD 1 is still to land. */
	const emu_access wr = d_access();
	cr_assert_eq(emu_hazard_compute(r.hz, 3, 0, NULL, 0, &wr, 1, NULL), 1);
	cr_assert_str_eq(emu_hazard_get(r.hz, 0)->text, "command 3: writes bank 1, "
			 "array 1, wordlines 8..15, bitlines 0,2 (and 1 more array) that "
			 "inter-bank move command 1 delivers at the next sync, which will "
			 "overwrite this write; sync first");
	/* Another writes CMD 1's source: bitlines 1, 3 of tiles 0, 2. */
	const emu_access src = {harness_pat(0, 2, 2), harness_pat(0, 1, 8), 0, 8};
	cr_assert_eq(emu_hazard_compute(r.hz, 4, 0, NULL, 0, &src, 1, NULL), 1);
	cr_assert_eq(emu_hazard_get(r.hz, 1)->kind, EMU_HZ_CLOBBER);
	cr_assert_str_eq(emu_hazard_get(r.hz, 1)->text, "command 4: writes bank 0, "
			 "array 0, wordlines 0..7, bitlines 1,3 (and 1 more array) while they "
			 "are the source of inter-bank move command 1, which is complete only "
			 "at the next sync; sync first");
	/* A constant broadcast over D is a write too. */
	const emu_pattern t = harness_pat(1, 1, 1), b = harness_pat(0, 1, 1);
	const emu_move k = emu_move_const(&t, &b, 1, 8, 1);
	run_ok(&r, &k, 5);
	cr_assert_eq(emu_hazard_count_kind(r.hz, EMU_HZ_CLOBBER), 3);
	emu_move_list_free(&l);
	rig_free(&r);
}

/* Overlaps the wordline schedule cannot do; the result is what the
 * hardware gives (wordline by wordline, upwards), not the intent. */
Test(move, overlapping_shifts)
{
	const sram_geom g = harness_geom(32, 64, 4, 1, 1, 1);
	struct rig r;
	rig_init(&r, &g, false);
	fill_random(&r, 3);
	const emu_pattern one = harness_pat(1, 1, 1), bl = harness_pat(0, 1, 8);
	/* intra, destination 2 wordlines above its source, common bitlines */
	emu_move c = emu_move_intra(&one, &bl, 1, 2, 4, 4, SRAM_NO_ROW);
	uint8_t *want = snapshot(r.m);
	for (unsigned k = 0; k < 4; k++)      /* the schedule, step by step */
		for (unsigned b = 0; b < 8; b++)
			*cell(want, r.m, 1, 4 + k, b + 1) = *cell(want, r.m, 1, 2 + k, b);
	run_ok(&r, &c, 3);
	expect_state(&r, want, "the wordline schedule");
	cr_assert_eq(emu_hazard_count(r.hz), 1);
	cr_assert_str_eq(emu_hazard_get(r.hz, 0)->text, "command 3: moves bank 0, array 1, "
			 "wordlines 4..5, bitlines 1..7 onto its own source: destination "
			 "wordlines 4..7 start inside source wordlines 2..5, so wordline 4 is "
			 "overwritten before it is read; move into other wordlines, or downwards");
	/* Downwards, or in place, or on other bitlines: fine. */
	c.dst_wl = 0;
	run_ok(&r, &c, 4);
	c.dst_wl = 2;
	run_ok(&r, &c, 5);
	const emu_pattern hi = harness_pat(32, 1, 8);
	const emu_move apart = emu_move_intra(&one, &hi, -32, 2, 4, 4, 30);
	run_ok(&r, &apart, 6);
	cr_assert_eq(emu_hazard_count(r.hz), 1);
	/* inter in one bank: arrays 0..2 to 1..3, one wordline up. */
	const emu_pattern three = harness_pat(0, 1, 3);
	const emu_move t = emu_move_inter(&three, &bl, 1, &bl, 2, 4, 3);
	run_ok(&r, &t, 7);
	cr_assert_eq(emu_hazard_count(r.hz), 2);
	const emu_hazard *z = emu_hazard_get(r.hz, 1);
	cr_assert(z->kind == EMU_HZ_OVERLAP && z->array == 1 && z->narrays == 2,
		  "%s", z->text);
	free(want);
	rig_free(&r);
}

/* ---- the interconnect, by hand ---- */

/* 4 arrays a way (2 binary levels), 2 ways a bank (the third level),
 * 2x2 banks; each transfer is 16 bitlines x 4 wordlines = 8 bytes. */
static void net_case(struct rig *r, const emu_move *c, uint64_t l1, uint64_t l2,
		     uint64_t l3, uint64_t cycles)
{
	emu_net_reset(&r->mv->net);
	run_ok(r, c, 0);
	const emu_net_stats *s = &r->mv->net.st;
	cr_assert_eq(s->levels, 3);
	cr_assert(s->htree_bytes[0] == l1 && s->htree_bytes[1] == l2 && s->htree_bytes[2] == l3,
		  "H-tree bytes %" PRIu64 " %" PRIu64 " %" PRIu64, s->htree_bytes[0],
		  s->htree_bytes[1], s->htree_bytes[2]);
	cr_assert_eq(r->mv->last.cycles, cycles);
}

Test(move, interconnect_by_hand)
{
	const sram_geom g = harness_geom(16, 64, 4, 2, 2, 2);
	struct rig r;
	rig_init(&r, &g, false);
	fill_random(&r, 1);
	const emu_pattern a0 = harness_pat(0, 1, 1), a01 = harness_pat(0, 1, 2), bl = harness_pat(0, 1, 16);
	const emu_net_stats *s = &r.mv->net.st;
	/* Sibling arrays meet at level 1: 8 bytes up, 8 down over 4-byte links. */
	emu_move c = emu_move_inter(&a0, &bl, 1, &bl, 0, 4, 8);
	net_case(&r, &c, 16, 0, 0, 2);
	cr_assert_eq(r.mv->last.banks_run, 1);
	cr_assert_eq(emu_net_meet_level(&r.mv->net, 0, 1), 1);
	/* Arrays 0 and 2 meet at level 2 (8-byte links): 2 + 1 cycles. */
	c.dist = 2;
	net_case(&r, &c, 16, 16, 0, 3);
	/* Array 4 is in the other way: through the bank's root (16 bytes). */
	c.dist = 4;
	net_case(&r, &c, 16, 16, 16, 4);
	cr_assert_eq(s->noc_packets, 0);
	/* Array 24 is in bank 3 at (1, 1): up, two hops X then Y, down; one
	 * 512-bit packet (2 flits) for 64 bits; +2 cycles to inject it. */
	c.dist = 24;
	net_case(&r, &c, 16, 16, 16, 6);
	cr_assert(s->noc_packets == 1 && s->noc_bytes == 64 && s->noc_byte_hops == 128);
	cr_assert(s->bank_sent[0] == 64 && s->bank_recv[3] == 64 && s->bank_recv[1] == 0);
	cr_assert(s->link_bytes[0 * 4 + EMU_NET_XP] == 64 && s->link_bytes[1 * 4 + EMU_NET_YP] == 64);
	cr_assert_eq(r.mv->last.net.noc_cycles, 2 + 2 * EMU_NET_HOP_CYCLES);
	cr_assert_eq(r.mv->last.banks_run, 2);
	const emu_move y = emu_move_sync();
	run_ok(&r, &y, 1);
	cr_assert_eq(r.mv->last.cycles, 14 + 2 * 2 * EMU_NET_HOP_CYCLES, "in flight + barrier");
	/* A multicast to banks 1, 2, 3: one packet over 3 links (0 XP, 0 YP,
	 * 1 YP); the source climbs once, each bank descends once. */
	emu_move b = emu_move_bcast(&a0, &bl, 8, 8, 3, &bl, 0, 4, 8);
	net_case(&r, &b, 32, 32, 32, 6);
	cr_assert(s->noc_packets == 1 && s->noc_byte_hops == 192);
	cr_assert(s->bank_recv[1] == 64 && s->bank_recv[2] == 64 && s->bank_recv[3] == 64);
	cr_assert(s->link_bytes[0 * 4 + EMU_NET_YP] == 64 && s->link_bytes[1 * 4 + EMU_NET_YP] == 64);
	run_ok(&r, &y, 2);
	/* Two arrays of bank 0 to two of bank 1: packed into one packet; the
	 * shared edges carry 16 bytes (level 2: 2 cycles). */
	c = emu_move_inter(&a01, &bl, 8, &bl, 0, 4, 8);
	net_case(&r, &c, 32, 32, 32, 2 + 2 + 1 + 2);
	cr_assert(s->noc_packets == 1 && s->noc_byte_hops == 64);
	run_ok(&r, &y, 3);
	/* Banks run and skipped, over every command so far: 1+1+1+2+4 (sync)
	 * +4+4 (sync) +2+4 (sync). */
	cr_assert_eq(r.mv->st.banks_run, 23);
	cr_assert_eq(r.mv->st.banks_skipped, 9 * 4 - 23);
	cr_assert_eq(emu_net_hops(&g, 0, 3), 2);
	cr_assert_eq(emu_net_link_width(3), 16);
	rig_free(&r);
}

Test(move, hazard_access_errors)
{
	const sram_geom g = harness_geom(16, 64, 2, 1, 1, 1);
	emu_hazards *h = emu_hazard_new(&g, false, NULL);
	diag d;
	const emu_access bad_bl = {harness_pat(0, 1, 2), harness_pat(60, 1, 8), 0, 4};
	const emu_access bad_wl = {harness_pat(0, 1, 2), harness_pat(0, 1, 8), 14, 4};
	const emu_access bad_a = {harness_pat(1, 1, 2), harness_pat(0, 1, 8), 0, 4};
	diag_clear(&d);
	cr_assert_eq(emu_hazard_compute(h, 0, 3, &bad_bl, 1, NULL, 0, &d), -1);
	cr_assert_str_eq(d.msg, "infsim:3: error: bitline 64 of an access is outside the array's bitlines 0..63");
	diag_clear(&d);
	cr_assert_eq(emu_hazard_compute(h, 0, 3, NULL, 0, &bad_wl, 1, &d), -1);
	cr_assert_str_eq(d.msg, "infsim:3: error: an access of 2 arrays at wordlines 14..17 does not fit the machine (2 arrays of 16 wordlines)");
	diag_clear(&d);
	cr_assert_eq(emu_hazard_compute(h, 0, 3, &bad_a, 1, NULL, 0, &d), -1);
	cr_assert_str_eq(d.msg, "infsim:3: error: array 2 of an access is outside the machine's arrays 0..1");
	cr_assert_eq(emu_hazard_count(h), 0);
	emu_hazard_free(h);
	const sram_geom bad = harness_geom(16, 12, 2, 1, 1, 1);
	cr_assert_null(emu_hazard_new(&bad, false, NULL));
	char t[64];
	const uint64_t m[2] = {0xf0f1, 0x1};
	emu_hazard_bits_text(m, 128, t, sizeof t);
	cr_assert_str_eq(t, "0,4..7,12..15,64");
	cr_assert_str_eq(emu_hazard_kind_name(EMU_HZ_OVERLAP), "overlap");
}

/* ---- moves in command streams: the assembler, emu_machine, --check ---- */

/* A sample stream parsed, run on the machine and on the reference model
 * beside it, compared after every command (as `infsim run --check`). */
struct stream_run {
	emu_program p;
	emu_machine *em;
	emu_ref *ref;
	diag d;
};

static int stream_start(struct stream_run *s, const char *path, bool strict)
{
	sram_geom g = sram_geom_default();
	diag_clear(&s->d);
	cr_assert_eq(emu_parse_file(path, &g, &s->p, &s->d), 0, "%s", s->d.msg);
	cr_assert_eq(emu_program_lower(&s->p, &s->d), 0, "%s", s->d.msg);
	s->em = emu_machine_new(&s->p, &s->d);
	cr_assert_not_null(s->em, "%s", s->d.msg);
	cr_assert_eq(emu_machine_set_strict(s->em, strict), 0);
	cr_assert_eq(emu_init_buffers(s->em, &s->d), 0);
	s->ref = emu_ref_new(&s->p, &s->d);
	cr_assert_not_null(s->ref);
	emu_ref_init_buffers(s->ref);
	for (size_t i = 0; i < s->p.ncmds; i++) {
		if (emu_run_cmd(s->em, &s->d) < 0)
			return -1;
		cr_assert_eq(emu_ref_run_cmd(s->ref, i, &s->d), 0, "%s", s->d.msg);
		cr_assert(emu_report_check_cmd(s->ref, s->em, i, &s->d), "%s", s->d.msg);
	}
	cr_assert(emu_report_check_all(s->ref, s->em, &s->d), "%s", s->d.msg);
	return 0;
}

static void stream_end(struct stream_run *s)
{
	emu_ref_free(s->ref);
	emu_machine_free(s->em);
	emu_program_free(&s->p);
}

static const emu_buffer *stream_buf(const struct stream_run *s, const char *name)
{
	for (size_t i = 0; i < s->p.nbufs; i++)
		if (!strcmp(s->p.bufs[i].name, name))
			return &s->p.bufs[i];
	cr_assert_fail("no buffer %s", name);
	return NULL;
}

/* samples/fig9/fig9.ins is the paper's commands, fig9_move.ins the tensor
 * move whose lowering is the same commands; both give fig9.txt's data. */
Test(stream, fig9_samples)
{
	const char *const files[2] = {SRCDIR "/samples/fig9/fig9.ins",
				      SRCDIR "/samples/fig9/fig9_move.ins"};
	struct fig9 f;
	char t[2][4][256];
	fig9_read(&f);
	for (unsigned k = 0; k < 2; k++) {
		struct stream_run s;
		uint64_t got[16];
		cr_assert_eq(stream_start(&s, files[k], true), 0, "%s", s.d.msg);
		cr_assert_eq(s.p.ncmds, f.ncmd, "%s", files[k]);
		for (size_t i = 0; i < s.p.ncmds; i++) {
			emu_format_cmd(&s.p, &s.p.cmds[i], t[k][i], sizeof t[k][i]);
			cr_assert_str_eq(t[k][i], f.cmd[i], "%s, CMD %zu", files[k], i);
			static const int lines[4] = {15, 16, 18, 20};
			cr_assert_eq(s.p.cmds[i].line, k ? 7 : lines[i], "the source line");
		}
		emu_buffer_read(s.em, stream_buf(&s, "A"), got);
		for (unsigned i = 0; i < 16; i++)
			cr_assert_eq(got[i], f.before[i]);
		emu_buffer_read(s.em, stream_buf(&s, "B"), got);
		for (unsigned i = 0; i < 16; i++)
			cr_assert_eq(got[i], f.after[i], "%s: B[%u]", files[k], i);
		cr_assert_eq(emu_hazard_count(s.em->hz), 0);
		stream_end(&s);
	}
}

/* The statistics of Fig 9, by hand.  CMD 0 and CMD 2 shift 2 arrays x
 * 2 bitlines x 8 wordlines = 32 cells each; CMD 1 sends 32 cells, 16
 * (2 bytes) from bank 0 to bank 1 and 16 from bank 2 to bank 3: one
 * 512-bit packet each (128 bytes), one hop each (+x from banks 0 and 2).
 * The H-tree has one level (one array a way, one way a bank); each
 * transfer crosses it up in the source bank and down in the other:
 * 4 x 2 bytes.  Each shift runs on 2 of 4 banks, CMD 1 on all 4 (sources
 * and destinations), the sync on all: 12 run, 4 skipped. */
Test(stream, fig9_statistics)
{
	struct stream_run s;
	cr_assert_eq(stream_start(&s, SRCDIR "/samples/fig9/fig9.ins", false), 0);
	const emu_move_stats *ms = &s.em->mover->st;
	const emu_net_stats *ns = &s.em->mover->net.st;
	cr_assert_eq(ms->commands[EMU_MOVE_INTRA], 2);
	cr_assert_eq(ms->bits[EMU_MOVE_INTRA], 64);
	cr_assert_eq(ms->bits[EMU_MOVE_INTER], 32);
	cr_assert_eq(ms->bits_remote, 32);
	cr_assert_eq(ms->cycles[EMU_MOVE_INTRA], 16, "one SHUP a wordline");
	cr_assert_eq(ns->levels, 1);
	cr_assert_eq(ns->htree_bytes[0], 8);
	cr_assert_eq(ns->noc_packets, 2);
	cr_assert_eq(ns->noc_bytes, 128);
	cr_assert_eq(ns->noc_byte_hops, 128);
	cr_assert(ns->link_bytes[0 * 4 + EMU_NET_XP] == 64 && ns->link_bytes[2 * 4 + EMU_NET_XP] == 64);
	cr_assert(ns->bank_sent[0] == 64 && ns->bank_recv[1] == 64 && ns->bank_recv[3] == 64);
	cr_assert_eq(ms->banks_run, 12);
	cr_assert_eq(ms->banks_skipped, 4);
	cr_assert_eq(s.em->st.bank_skips, 4);
	cr_assert_eq(s.em->st.move_commands, 4);
	cr_assert_eq(s.em->st.total.cycles, ms->cycles[0] + ms->cycles[1] + ms->cycles[4]);
	stream_end(&s);
}

/* samples/move/missing_sync.ins: a warning naming the command, bank,
 * array and bitlines; strict mode stops before the add runs. */
Test(stream, missing_sync_sample)
{
	struct stream_run s;
	const char *path = SRCDIR "/samples/move/missing_sync.ins";
	cr_assert_eq(stream_start(&s, path, false), 0, "%s", s.d.msg);
	cr_assert_eq(emu_hazard_count(s.em->hz), 1);
	const emu_hazard *z = emu_hazard_get(s.em->hz, 0);
	cr_assert(z->kind == EMU_HZ_UNSYNCED && z->cmd == 4 && z->other == 2 && z->line == 16);
	cr_assert(strstr(z->text, "command 4: reads bank 1, array 1, wordlines 8..15, "
			 "bitlines 0,2 (and 1 more array) before they arrive"), "%s", z->text);
	stream_end(&s);

	sram_geom g = sram_geom_default();
	diag_clear(&s.d);
	cr_assert_eq(emu_parse_file(path, &g, &s.p, &s.d), 0);
	cr_assert_eq(emu_program_lower(&s.p, &s.d), 0, "%s", s.d.msg);
	s.em = emu_machine_new(&s.p, &s.d);
	cr_assert_eq(emu_machine_set_strict(s.em, true), 0);
	cr_assert_eq(emu_init_buffers(s.em, &s.d), 0);
	cr_assert_eq(emu_run_all(s.em, false, &s.d), -1);
	cr_assert(s.em->hazard_stop);
	cr_assert_eq(s.em->pc, 3, "stopped before command 4 (pc 3)");
	cr_assert(strstr(s.d.msg, "missing_sync.ins:16: error: command 4: reads bank 1"), "%s",
		  s.d.msg);
	cr_assert(strstr(s.d.msg, "strict mode makes it an error"), "%s", s.d.msg);
	emu_machine_free(s.em);
	emu_program_free(&s.p);
}

/* The stencil sample: 2-d f32, moves along both dimensions in both
 * directions, mv.const, sync; the result against a scalar model. */
Test(stream, stencil_sample)
{
	struct stream_run s;
	cr_assert_eq(stream_start(&s, SRCDIR "/samples/move/stencil_f32.ins", true), 0,
		     "%s", s.d.msg);
	const emu_buffer *S = stream_buf(&s, "S");
	cr_assert(S->ndims == 2 && S->tile[0] == 8 && S->tile[1] == 8);
	uint64_t *got = malloc(S->length * sizeof *got);
	emu_buffer_read(s.em, S, got);
	for (int64_t i1 = 0; i1 < 32; i1++)
		for (int64_t i0 = 0; i0 < 64; i0++) {
			const int64_t x = i0 + 64 * i1;
			int64_t want = x + (i0 > 0 ? x - 1 : 0) + (i0 < 63 ? x + 1 : 0) +
				       (i1 > 0 ? x - 64 : 0) + (i1 < 31 ? x + 64 : 0);
			float fw = (float)want;
			uint32_t bits;
			memcpy(&bits, &fw, 4);
			cr_assert_eq(got[x], bits, "S[%" PRId64 "]", x);
		}
	free(got);
	cr_assert_eq(emu_hazard_count(s.em->hz), 0);
	stream_end(&s);
}

/* Every move kind through the stream against the reference model, on a
 * machine with 4 arrays a way, 2 ways, 2x2 banks: shifts by distances
 * below, equal to and above a tile, both ways, 3-d, broadcasts along
 * rows and columns, constants, unaligned boxes; a wrong result shows as
 * a --check mismatch. */
Test(stream, every_kind_checked)
{
	static const char text[] =
		"machine wordlines=128 bitlines=16 arrays=4 ways=2 mesh=2x2\n"
		"tensor A i8 8x8 wl=0 array=0 tile=4x2 init=random:5\n"
		"tensor B i8 8x8 wl=8 array=0 tile=4x2 init=zero\n"
		"tensor C u4 4x4x4 wl=16 array=4 tile=2x2x2 init=iota\n"
		"tensor D u4 4x4x4 wl=20 array=4 tile=2x2x2 init=zero\n"
		"move B, A, +3, +0 @ box=1:7,2:5\n"
		"move B, A, -4, +0\n"
		"move B, A, +0, +5 @ box=0:8,0:3\n"
		"move B, A, +0, -1\n"
		"move D, C, +0, +0, +1\n"
		"move D, C, +0, -3, +0\n"
		"mv.const value=5 wl=8 n=8 @ arrays=0:1:4 bitlines=3:4:4\n"
		"mv.bcast dist=1 reuse=2:2 wl=0 n=8 to=8 dst=0:1:4 @ arrays=0 bitlines=0:1:4\n"
		"mv.bcast dist=8 reuse=8:3 wl=0 n=8 to=8 dst=4:1:4 @ arrays=0 bitlines=0:1:4\n"
		"sync\n"
		"mv.inter dist=-1 wl=8 n=8 to=8 dst=12:1:4 @ arrays=1 bitlines=0:1:4\n"
		"mv.intra dist=-3 wl=0 n=8 to=8 @ arrays=0:1:4 bitlines=5:1:3\n";
	char path[] = "/tmp/infsim-move-XXXXXX";
	const int fd = mkstemp(path);
	cr_assert(fd >= 0);
	cr_assert_eq(write(fd, text, sizeof text - 1), (ssize_t)(sizeof text - 1));
	close(fd);
	struct stream_run s;
	const int rc = stream_start(&s, path, false);
	unlink(path);
	cr_assert_eq(rc, 0, "%s", s.d.msg);
	cr_assert_gt(s.em->mover->st.commands[EMU_MOVE_BCAST], 0);
	stream_end(&s);
}

/* ---- the binary form checks what the text form checks ---- */

static void parse_text(const char *text, emu_program *p)
{
	diag d;
	diag_clear(&d);
	cr_assert_eq(emu_parse("t.ins", text, strlen(text), NULL, p, &d), 0, "%s", d.msg);
}

/* The encoded words of text's program, with the first word equal to
 * `from` replaced by `to`; decoded, the result must be refused with a
 * message holding want. */
static void binary_refused(const char *text, uint64_t from, uint64_t to, const char *want)
{
	emu_program p;
	parse_text(text, &p);
	uint64_t *w;
	size_t n;
	diag d;
	diag_clear(&d);
	cr_assert_eq(emu_encode(&p, &w, &n, &d), 0, "%s", d.msg);
	size_t at = 0;
	while (at < n && w[at] != from)
		at++;
	cr_assert_lt(at, n, "word 0x%" PRIx64 " not found in the encoded stream", from);
	w[at] = to;
	emu_program q;
	cr_expect_neq(emu_decode("t.inb", w, n, &q, &d), 0, "decoded a stream the text refuses");
	cr_expect(strstr(d.msg, want) != NULL, "message: %s (expected %s)", d.msg, want);
	free(w);
	emu_program_free(&p);
}

static uint64_t rows_word(unsigned wl, unsigned n, unsigned to, unsigned scratch)
{
	return wl | (uint64_t)n << 16 | (uint64_t)to << 32 | (uint64_t)scratch << 48;
}

Test(stream, binary_checks_what_text_checks)
{
	static const char head[] = "machine wordlines=16 bitlines=16 arrays=2\n";
	char text[512];
	/* the text refuses scratch=40000 on a shift by 1 ... */
	snprintf(text, sizeof text, "%smv.intra dist=1 wl=0 n=4 to=4 scratch=40000 @ arrays=0 "
		 "bitlines=0:1:8\n", head);
	emu_program p;
	diag d;
	diag_clear(&d);
	cr_assert_neq(emu_parse("t.ins", text, strlen(text), NULL, &p, &d), 0);
	/* ... and so does the binary form, through emu_move_check */
	snprintf(text, sizeof text, "%smv.intra dist=1 wl=0 n=4 to=4 scratch=9 @ arrays=0 "
		 "bitlines=0:1:8\n", head);
	binary_refused(text, rows_word(0, 4, 4, 9), rows_word(0, 4, 4, 40000),
		       "scratch wordline 40000 is outside the array's 0..15");
	snprintf(text, sizeof text, "%smv.intra dist=-3 wl=0 n=4 to=4 scratch=9 @ arrays=0 "
		 "bitlines=4:1:8\n", head);
	binary_refused(text, rows_word(0, 4, 4, 9), rows_word(0, 4, 4, 16),
		       "scratch wordline 16 is outside");
	/* fields a kind's text has no word for */
	snprintf(text, sizeof text, "%smv.inter dist=1 wl=0 n=4 to=4 dst=0:1:8 @ arrays=0 "
		 "bitlines=0:1:8\n", head);
	binary_refused(text, rows_word(0, 4, 4, 0xffff), rows_word(0, 4, 4, 3),
		       "holds a scratch field, which mv.inter does not take");
	snprintf(text, sizeof text, "%smv.const value=5 wl=2 n=4 @ arrays=0:1:2 bitlines=0:1:8\n",
		 head);
	binary_refused(text, rows_word(2, 4, 0, 0xffff), rows_word(2, 4, 7, 0xffff),
		       "holds a to field, which mv.const does not take");
}

/* Every kind: text -> binary -> text gives the same text, and binary ->
 * text -> binary the same words. */
Test(stream, move_round_trips)
{
	static const char text[] =
		"machine wordlines=16 bitlines=16 arrays=2\n"
		"mv.intra dist=1 wl=0 n=4 to=4 scratch=9 @ arrays=0 bitlines=0:1:8\n"
		"mv.intra dist=-1 wl=0 n=4 to=4 @ arrays=0 bitlines=1:1:8\n"
		"mv.intra dist=3 wl=0 n=4 to=4 scratch=12 @ arrays=0:1:2 bitlines=0:1:8\n"
		"mv.inter dist=1 wl=0 n=4 to=4 dst=2:1:8 @ arrays=0 bitlines=0:1:8\n"
		"sync\n"
		"mv.bcast dist=1 reuse=1:1 wl=0 n=4 to=8 dst=0:1:4 @ arrays=0 bitlines=0:1:4\n"
		"sync\n"
		"mv.const value=0x5 wl=2 n=4 @ arrays=0:1:2 bitlines=0:1:8\n";
	emu_program p, q, r;
	parse_text(text, &p);
	char *t1 = emu_format(&p);
	uint64_t *w1, *w2;
	size_t n1, n2;
	diag d;
	diag_clear(&d);
	cr_assert_eq(emu_encode(&p, &w1, &n1, &d), 0, "%s", d.msg);
	cr_assert_eq(emu_decode("t.inb", w1, n1, &q, &d), 0, "%s", d.msg);
	char *t2 = emu_format(&q);
	cr_assert_str_eq(t1, t2);
	parse_text(t2, &r);
	cr_assert_eq(emu_encode(&r, &w2, &n2, &d), 0, "%s", d.msg);
	cr_assert_eq(n1, n2);
	cr_assert_eq(memcmp(w1, w2, n1 * sizeof *w1), 0, "the words differ after a round trip");
	free(t1);
	free(t2);
	free(w1);
	free(w2);
	emu_program_free(&p);
	emu_program_free(&q);
	emu_program_free(&r);
}

/* The tracker's bit per (array, wordline) that every bitline is written
 * (hazard.c): rows across a word of those bits, masks that add up to a
 * whole row, and a table rewritten from outside (a snapshot's restore)
 * must give the reports the per-cell table gives. */
Test(move, hazard_written_summary)
{
	const sram_geom g = harness_geom(128, 64, 2, 1, 1, 1);
	emu_hazards *h = emu_hazard_new(&g, false, NULL);
	cr_assert_not_null(h);
	const unsigned arrays[] = {0, 1};
	const uint64_t all = ~UINT64_C(0), lo = 0xffffffffu, hi = ~lo;
	diag d;
	diag_clear(&d);
	const emu_cells w = {arrays, 1, &all, 60, 10};
	cr_assert_eq(emu_hazard_written(h, &w), 0);
	cr_assert_eq(emu_hazard_check_read(h, 0, 1, &w, &d), 0);
	const emu_cells before = {arrays, 2, &all, 58, 4};
	cr_assert_eq(emu_hazard_check_read(h, 1, 2, &before, &d), 1);
	cr_assert_eq(emu_hazard_get(h, 0)->wl_first, 58);
	cr_assert_eq(emu_hazard_get(h, 0)->wl_last, 59);
	/* Two halves make a whole row, in array 1 only. */
	const emu_cells half1 = {arrays + 1, 1, &lo, 70, 2}, half2 = {arrays + 1, 1, &hi, 70, 2};
	const emu_cells row70 = {arrays, 2, &all, 70, 2};
	cr_assert_eq(emu_hazard_written(h, &half1), 0);
	cr_assert_eq(emu_hazard_check_read(h, 2, 3, &row70, &d), 1);
	cr_assert_eq(emu_hazard_written(h, &half2), 0);
	cr_assert_eq(emu_hazard_check_read(h, 3, 4, &row70, &d), 1);
	cr_assert_eq(emu_hazard_get(h, 1)->narrays, 2);
	cr_assert_eq(emu_hazard_get(h, 2)->narrays, 1, "array 1's rows are whole now");
	/* The table cleared from outside: nothing is written any more. */
	size_t bytes;
	void *cells = emu_hazard_cells(h, &bytes);
	memset(cells, 0, bytes);
	emu_hazard_cells_changed(h);
	cr_assert_eq(emu_hazard_check_read(h, 4, 5, &w, &d), 1);
	cr_assert_eq(emu_hazard_count_kind(h, EMU_HZ_UNWRITTEN), 4);
	/* A half row, then the whole row over it: the row is whole, though
	 * its per-cell entry still names the half. */
	const emu_cells half90 = {arrays, 1, &lo, 90, 1}, row90 = {arrays, 1, &all, 90, 1};
	cr_assert_eq(emu_hazard_written(h, &half90), 0);
	cr_assert_eq(emu_hazard_written(h, &row90), 0);
	cr_assert_eq(emu_hazard_check_read(h, 5, 6, &row90, &d), 0);
	/* A snapshot's round trip: the cells copied out and the tables saved,
	 * whole rows written in every array (so every array's rows there are
	 * whole), then both put back: the rows are unwritten again. */
	void *saved_cells = malloc(bytes);
	cr_assert_not_null(saved_cells);
	memcpy(saved_cells, cells, bytes);
	emu_hazard_saved *v = emu_hazard_save(h);
	cr_assert_not_null(v);
	const emu_cells both = {arrays, 2, &all, 100, 2};
	cr_assert_eq(emu_hazard_written(h, &both), 0);
	cr_assert_eq(emu_hazard_check_read(h, 6, 7, &both, &d), 0);
	memcpy(cells, saved_cells, bytes);
	cr_assert_eq(emu_hazard_restore(h, v), 0);
	emu_hazard_cells_changed(h);
	cr_assert_eq(emu_hazard_check_read(h, 7, 8, &both, &d), 1);
	cr_assert_eq(emu_hazard_get(h, emu_hazard_count(h) - 1)->narrays, 2);
	cr_assert_eq(emu_hazard_check_read(h, 8, 9, &row90, &d), 0, "row 90 stays whole");
	emu_hazard_saved_free(v);
	free(saved_cells);
	emu_hazard_free(h);
}
