/* SPDX-License-Identifier: MIT */
/*
 * test_move_step.c: moves run micro-op by micro-op (emu_stepi, infsdb's
 * stepi) against the same moves run whole (emu_run_cmd, emu_move_run).
 *
 * An intra-array shift and a constant are micro-ops (doc/MOVEMENT.md);
 * stepping one must run the very micro-ops of the whole run, each with
 * the enable mask the whole run gives it, so every cell, latch and
 * sensed bit, and every statistic, comes out the same.  Each stream here
 * runs twice, command by command: once whole, once by emu_stepi, and the
 * two machines are compared after every command; inside a move, each
 * destination row must hold its final bits as soon as its wordline's
 * last micro-op ran.
 */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "machine.h"
#include "move.h"
#include "isa_harness.h"
#include "proc.h"
#include "program.h"
#include "report.h"

/* ---- two machines on one stream ---- */

struct twin {
	emu_program p;
	emu_machine *whole, *step;
	diag d;
	uint64_t uops;          /* micro-ops of moves stepped */
};

static emu_machine *twin_machine(struct twin *t, bool strict)
{
	emu_machine *em = emu_machine_new(&t->p, &t->d);
	cr_assert_not_null(em, "%s", t->d.msg);
	cr_assert_eq(emu_machine_set_strict(em, strict), 0);
	cr_assert_eq(emu_init_buffers(em, &t->d), 0, "%s", t->d.msg);
	return em;
}

/* From a file, or from text when text is not NULL. */
static void twin_start(struct twin *t, const char *path, const char *text, bool strict)
{
	const sram_geom g = sram_geom_default();
	memset(t, 0, sizeof *t);
	diag_clear(&t->d);
	const int rc = text ? emu_parse(path, text, strlen(text), &g, &t->p, &t->d)
			    : emu_parse_file(path, &g, &t->p, &t->d);
	cr_assert_eq(rc, 0, "%s", t->d.msg);
	cr_assert_eq(emu_program_lower(&t->p, &t->d), 0, "%s", t->d.msg);
	t->whole = twin_machine(t, strict);
	t->step = twin_machine(t, strict);
}

static void twin_end(struct twin *t)
{
	emu_machine_free(t->whole);
	emu_machine_free(t->step);
	emu_program_free(&t->p);
}

/* The micro-ops move c must run: move.h's count, written out here. */
static size_t expected_uops(const emu_move *c)
{
	const uint64_t d = (uint64_t)(c->dist < 0 ? -c->dist : c->dist);
	if (c->kind == EMU_MOVE_CONST)
		return c->nwl;
	if (c->kind != EMU_MOVE_INTRA || (d == 0 && c->wl == c->dst_wl))
		return 0;
	return (size_t)(c->nwl * (d ? d : 1));
}

/* What --stats prints, as text. */
static char *stats_text(const emu_machine *em)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	cr_assert_not_null(f);
	emu_report_stats_text(f, em);
	fclose(f);
	return text;
}

static void same_count(const sram_count *a, const sram_count *b, const char *what, size_t cmd)
{
	cr_assert(a->cycles == b->cycles && a->reads == b->reads && a->writes == b->writes &&
		  a->logic == b->logic && a->activations == b->activations,
		  "command %zu: %s: stepped %" PRIu64 " cycles %" PRIu64 " writes, whole %"
		  PRIu64 " cycles %" PRIu64 " writes", cmd, what, b->cycles, b->writes,
		  a->cycles, a->writes);
}

static void same_mover(const emu_mover *a, const emu_mover *b, size_t cmd)
{
	for (unsigned k = 0; k < EMU_MOVE_KINDS; k++)
		cr_assert(a->st.commands[k] == b->st.commands[k] &&
			  a->st.cycles[k] == b->st.cycles[k] && a->st.bits[k] == b->st.bits[k],
			  "command %zu: mover statistics of %s", cmd, emu_move_kind_name(k));
	same_count(&a->st.sram, &b->st.sram, "the mover's micro-ops", cmd);
	cr_assert(a->st.bits_remote == b->st.bits_remote && a->st.banks_run == b->st.banks_run &&
		  a->st.banks_skipped == b->st.banks_skipped, "command %zu: mover banks", cmd);
	cr_assert(a->last.cycles == b->last.cycles && a->last.bits == b->last.bits &&
		  a->last.banks_run == b->last.banks_run, "command %zu: the last move's cost", cmd);
	const emu_net_stats *x = &a->net.st, *y = &b->net.st;
	cr_assert(x->noc_packets == y->noc_packets && x->noc_bytes == y->noc_bytes &&
		  x->noc_byte_hops == y->noc_byte_hops && x->htree_cycles == y->htree_cycles &&
		  memcmp(x->htree_bytes, y->htree_bytes, sizeof x->htree_bytes) == 0,
		  "command %zu: interconnect statistics", cmd);
	cr_assert_eq(emu_mover_pending(a), emu_mover_pending(b), "command %zu: in flight", cmd);
}

/* Bits, statistics and hazards of the two machines after command cmd. */
static void same_machines(const struct twin *t, size_t cmd)
{
	const emu_machine *a = t->whole, *b = t->step;
	cr_assert(sram_state_equal(a->m, b->m), "command %zu: the SRAM state differs", cmd);
	for (size_t i = 0; i < t->p.nbufs; i++) {
		const emu_buffer *buf = &t->p.bufs[i];
		uint64_t *x = malloc(buf->length * sizeof *x), *y = malloc(buf->length * sizeof *y);
		cr_assert(x && y);
		emu_buffer_read(a, buf, x);
		emu_buffer_read(b, buf, y);
		for (uint64_t e = 0; e < buf->length; e++)
			cr_assert_eq(x[e], y[e], "command %zu: %s[%" PRIu64 "]", cmd, buf->name, e);
		free(x);
		free(y);
	}
	same_count(&a->st.total, &b->st.total, "total", cmd);
	for (unsigned k = 0; k < a->st.nbanks; k++)
		same_count(&a->st.by_bank[k], &b->st.by_bank[k], "a bank", cmd);
	cr_assert(a->st.commands == b->st.commands && a->st.move_commands == b->st.move_commands &&
		  a->st.bank_skips == b->st.bank_skips && a->st.base_cycles == b->st.base_cycles,
		  "command %zu: machine counts", cmd);
	same_mover(a->mover, b->mover, cmd);
	cr_assert_eq(emu_hazard_count(a->hz), emu_hazard_count(b->hz), "command %zu", cmd);
	char *x = stats_text(a), *y = stats_text(b);
	cr_assert_str_eq(x, y, "command %zu: --stats", cmd);
	free(x);
	free(y);
}

/* Has the micro-op that ran last (k - 1) finished a destination row?
 * Then that row holds its final bits in every array the move runs on. */
static void row_done(const struct twin *t, const emu_move *c, size_t k)
{
	const uint64_t d = (uint64_t)(c->dist < 0 ? -c->dist : c->dist);
	const size_t per = c->kind == EMU_MOVE_CONST || d == 0 ? 1 : (size_t)d;
	if (k % per != 0)
		return;
	const unsigned row = (unsigned)(c->kind == EMU_MOVE_CONST ? c->wl : c->dst_wl) +
			     (unsigned)(k / per - 1);
	const unsigned wpa = t->step->m->wpa;
	for (uint64_t i = 0; i < emu_pattern_size(&c->arrays); i++) {
		const unsigned a = (unsigned)emu_pattern_at(&c->arrays, i);
		cr_assert(memcmp(sram_row(t->step->m, a, row), sram_row(t->whole->m, a, row),
				 wpa * sizeof(uint64_t)) == 0,
			  "array %u, wordline %u: not final after micro-op %zu", a, row, k - 1);
	}
}

/* Command pc of the stepping machine by emu_stepi: one call a micro-op
 * (one in all for a move without any), the position in between. */
static void step_cmd(struct twin *t)
{
	emu_machine *em = t->step;
	const size_t pc = em->pc;
	const emu_cmd *c = &t->p.cmds[pc];
	const bool move = c->kind == EMU_CMD_MOVE;
	const size_t n = move ? expected_uops(&c->mv) : 0;
	size_t calls = 0;
	while (em->pc == pc) {
		cr_assert_eq(emu_stepi(em, &t->d), 0, "command %zu: %s", pc, t->d.msg);
		calls++;
		if (move && n && calls <= n)
			row_done(t, &c->mv, calls);
		if (em->pc == pc) {
			cr_assert_eq(em->upc, calls, "command %zu: the position", pc);
			cr_assert(move ? em->up.n == n : em->up.n > calls, "command %zu", pc);
		}
	}
	if (move) {
		cr_assert_eq(calls, n ? n : 1, "command %zu: %zu emu_stepi calls for %zu micro-ops",
			     pc, calls, n);
		t->uops += n;
	}
}

/* Every command: whole on one machine, stepped on the other. */
static void twin_run(struct twin *t)
{
	for (size_t i = 0; i < t->p.ncmds; i++) {
		cr_assert_eq(emu_run_cmd(t->whole, &t->d), 0, "command %zu: %s", i, t->d.msg);
		step_cmd(t);
		same_machines(t, i);
	}
	cr_assert(emu_done(t->whole) && emu_done(t->step));
}

static void twin_text(const char *text, uint64_t min_uops)
{
	struct twin t;
	twin_start(&t, "step.ins", text, true);
	twin_run(&t);
	cr_assert_geq(t.uops, min_uops);
	twin_end(&t);
}

/* ---- streams ---- */

/* Shifts inside arrays by 1, 2, 5, -3 and more bitlines, a copy between
 * rows, the identity and constants, on arrays of 128 bitlines (two
 * words: shifts cross the word edge) in 2 ways x 2 arrays x 2x2 banks;
 * the destination rows start random, so a wrong mask shows. */
Test(move_step, shifts_and_constants)
{
	static const char text[] =
		"machine wordlines=64 bitlines=128 arrays=2 ways=2 mesh=2x2\n"
		"buffer a u16 2048 wl=0 arrays=0:1:16 init=random:7\n"
		"buffer b u16 2048 wl=16 arrays=0:1:16 init=random:8\n"
		"mv.intra dist=1 wl=0 n=16 to=16 @ arrays=0:1:16 bitlines=0:1:127\n"
		"mv.intra dist=2 wl=0 n=16 to=16 scratch=40 @ arrays=0:3:5 bitlines=0:3:40\n"
		"mv.intra dist=5 wl=0 n=16 to=16 scratch=41 @ arrays=1:2:8 bitlines=60:1:10\n"
		"mv.intra dist=-3 wl=0 n=16 to=16 scratch=42 @ arrays=0:1:16 bitlines=3:1:125\n"
		"mv.intra dist=-70 wl=2 n=3 to=20 scratch=43 @ arrays=4:1:9 bitlines=100:1:28\n"
		"mv.intra dist=0 wl=0 n=8 to=24 @ arrays=2:1:3 bitlines=0:2:64\n"
		"mv.intra dist=0 wl=16 n=4 to=16 @ arrays=0 bitlines=0:1:8\n"
		"mv.const value=0xa5c3 wl=16 n=16 @ arrays=0:5:3 bitlines=1:7:18\n"
		"mv.const value=0 wl=44 n=1 @ arrays=15 bitlines=127\n";
	twin_text(text, 16 + 32 + 80 + 48 + 210 + 8 + 16 + 1);
}

/* Tensor moves across tile edges (lowered into intra- and inter-array
 * shifts and syncs) by 1, 2, 5 and -3 along both dimensions, and a
 * broadcast. */
Test(move_step, shifts_across_tiles)
{
	static const char text[] =
		"machine wordlines=128 bitlines=16 arrays=4 ways=2 mesh=2x2\n"
		"tensor A i8 64x4 wl=0 array=0 tile=8x2 init=random:5\n"
		"tensor B i8 64x4 wl=8 array=0 tile=8x2 init=random:6\n"
		"move B, A, +1, +0\n"
		"move B, A, +2, +0\n"
		"move B, A, +5, +0\n"
		"move B, A, -3, +0\n"
		"move B, A, +0, +2\n"
		"move B, A, +0, -3\n"
		"mv.bcast dist=1 reuse=2:2 wl=0 n=8 to=8 dst=0:1:4 @ arrays=0 bitlines=0:1:4\n"
		"sync\n";
	twin_text(text, 100);
}

/* The paper's Fig 9, command for command, and the stencil sample (moves
 * both ways along both dimensions, constants, syncs, f32 adds). */
Test(move_step, fig9)
{
	struct twin t;
	twin_start(&t, SRCDIR "/samples/fig9/fig9.ins", NULL, true);
	twin_run(&t);
	cr_assert_eq(t.uops, 16, "two shifts by 1 of 8 wordlines");
	twin_end(&t);
}

Test(move_step, stencil)
{
	struct twin t;
	twin_start(&t, SRCDIR "/samples/move/stencil_f32.ins", NULL, true);
	twin_run(&t);
	cr_assert_gt(t.uops, 0);
	twin_end(&t);
}

/* Strict hazards stop a move before its first micro-op: nothing ran. */
Test(move_step, hazard_before_the_first_micro_op)
{
	static const char text[] =
		"machine wordlines=64 bitlines=64 arrays=1 ways=1 mesh=1x1\n"
		"buffer a u8 64 wl=0 arrays=0 init=random:3\n"
		"mv.intra dist=2 wl=32 n=8 to=8 scratch=48 @ arrays=0 bitlines=0:1:60\n";
	struct twin t;
	twin_start(&t, "hz.ins", text, true);
	sram_machine *before = sram_new(&t.step->m->g);
	cr_assert_not_null(before);
	sram_copy_state(before, t.step->m);
	cr_assert_eq(emu_stepi(t.step, &t.d), -1);
	cr_assert(t.step->hazard_stop);
	cr_assert(strstr(t.d.msg, "hz.ins:3:"), "%s", t.d.msg);
	cr_assert(t.step->pc == 0 && t.step->upc == 0);
	cr_assert(sram_state_equal(before, t.step->m), "the move ran a micro-op");
	sram_free(before);
	twin_end(&t);
}

/* ---- the mover's three calls ---- */

static void fill(sram_machine *m, uint64_t seed)
{
	for (unsigned a = 0; a < m->narrays; a++)
		for (unsigned w = 0; w < m->g.wordlines; w++)
			for (unsigned k = 0; k < m->wpa; k++) {
				seed = seed * 6364136223846793005u + 1442695040888963407u;
				sram_row(m, a, w)[k] = (seed >> 7) & (k + 1 < m->wpa ? ~0ull : m->tail);
			}
}

/* Stopped before micro-op `cut`, the state is copied to a new machine and
 * mover (a checkpoint load: the move is begun again there), which runs
 * the rest: the same bits and statistics as emu_move_run. */
static void resumed_case(const sram_geom *g, const emu_move *c, size_t cut)
{
	sram_machine *m[3];
	emu_mover *mv[3];
	isa_prog up;
	diag d;
	diag_clear(&d);
	isa_prog_init(&up);
	for (int i = 0; i < 3; i++) {
		m[i] = sram_new(g);
		cr_assert_not_null(m[i]);
		fill(m[i], 42);
		mv[i] = emu_mover_new(m[i], NULL, "api.ins");
		cr_assert_not_null(mv[i]);
	}
	cr_assert_eq(emu_move_run(mv[0], c, 1, &d), 0, "%s", d.msg);
	cr_assert_eq(emu_move_begin(mv[1], c, 1, &up, &d), 0, "%s", d.msg);
	cr_assert_eq(up.n, expected_uops(c));
	for (size_t k = 0; k < cut; k++)
		cr_assert_eq(emu_move_step(mv[1], k, 1, &d), 0, "%s", d.msg);
	sram_copy_state(m[2], m[1]);
	cr_assert_eq(emu_move_begin(mv[2], c, 1, NULL, &d), 0, "%s", d.msg);
	cr_assert_eq(emu_move_step(mv[2], cut, up.n - cut, &d), 0, "%s", d.msg);
	cr_assert_eq(emu_move_end(mv[2], &d), 0, "%s", d.msg);
	cr_assert(sram_state_equal(m[0], m[2]), "dist %" PRId64 ", resumed after %zu", c->dist, cut);
	same_mover(mv[0], mv[2], 1);
	/* the first one goes on too, in uneven pieces */
	for (size_t k = cut; k < up.n; k += 3)
		cr_assert_eq(emu_move_step(mv[1], k, up.n - k < 3 ? up.n - k : 3, &d), 0);
	cr_assert_eq(emu_move_end(mv[1], &d), 0, "%s", d.msg);
	cr_assert(sram_state_equal(m[0], m[1]));
	same_mover(mv[0], mv[1], 1);
	for (int i = 0; i < 3; i++) {
		emu_mover_free(mv[i]);
		sram_free(m[i]);
	}
	isa_prog_free(&up);
}

Test(move_step, begin_step_end)
{
	sram_geom g = sram_geom_default();
	g.wordlines = 32;
	g.bitlines = 128;
	g.arrays_per_way = 2;
	g.ways_per_bank = 2;
	g.mesh_x = 2;
	g.mesh_y = 1;
	const emu_pattern arrays = harness_pat(0, 1, 8), some = harness_pat(1, 2, 3);
	const int64_t dists[] = {1, 2, 5, -3, 0};
	for (unsigned i = 0; i < 5; i++) {
		const emu_pattern bl = dists[i] < 0 ? harness_pat(10, 3, 30) : harness_pat(0, 3, 30);
		const emu_move c = emu_move_intra(dists[i] == 5 ? &some : &arrays, &bl, dists[i],
						  0, 6, 8, 20);
		const size_t n = expected_uops(&c);
		for (size_t cut = 0; cut < n || cut == 0; cut += n > 7 ? 7 : 1)
			resumed_case(&g, &c, cut);
	}
	const emu_move k = emu_move_const(&arrays, &some, 0x2d, 4, 6);
	resumed_case(&g, &k, 4);
}

Test(move_step, misuse)
{
	sram_geom g = sram_geom_default();
	g.wordlines = 16;
	g.bitlines = 64;
	g.arrays_per_way = 1;
	g.ways_per_bank = 1;
	g.mesh_x = 1;
	g.mesh_y = 1;
	sram_machine *m = sram_new(&g);
	emu_mover *mv = emu_mover_new(m, NULL, "api.ins");
	diag d;
	diag_clear(&d);
	cr_assert_eq(emu_move_step(mv, 0, 1, &d), -1);
	cr_assert(strstr(d.msg, "no move"), "%s", d.msg);
	diag_clear(&d);
	cr_assert_eq(emu_move_end(mv, &d), -1);
	cr_assert(strstr(d.msg, "none is begun"), "%s", d.msg);
	const emu_pattern a = harness_pat(0, 1, 1), b = harness_pat(0, 1, 8);
	const emu_move c = emu_move_intra(&a, &b, 1, 0, 4, 8, SRAM_NO_ROW);
	cr_assert_eq(emu_move_begin(mv, &c, 3, NULL, &d), 0);
	diag_clear(&d);
	cr_assert_eq(emu_move_step(mv, 2, 3, &d), -1);
	cr_assert(strstr(d.msg, "micro-ops 2..5 of the move: expected a range within 0..4"),
		  "%s", d.msg);
	/* a move begun again is dropped: nothing was counted */
	cr_assert_eq(emu_move_begin(mv, &c, 3, NULL, &d), 0);
	cr_assert_eq(emu_move_step(mv, 0, 4, &d), 0);
	cr_assert_eq(emu_move_end(mv, &d), 0);
	cr_assert_eq(mv->st.commands[EMU_MOVE_INTRA], 1);
	cr_assert_eq(mv->st.cycles[EMU_MOVE_INTRA], 4);
	/* an invalid command: refused by begin, nothing to list */
	const emu_move bad = emu_move_intra(&a, &b, 3, 0, 4, 8, SRAM_NO_ROW);
	diag_clear(&d);
	cr_assert_eq(emu_move_begin(mv, &bad, 4, NULL, &d), -1);
	cr_assert(strstr(d.msg, "needs a scratch wordline"), "%s", d.msg);
	isa_prog p;
	isa_prog_init(&p);
	cr_assert_eq(emu_move_uprog(&bad, &g, &p), 0);
	cr_assert_eq(p.n, 0);
	const emu_pattern high = harness_pat(4, 1, 8);
	const emu_move sh = emu_move_intra(&a, &high, -3, 0, 2, 8, 12);
	cr_assert_eq(emu_move_uprog(&sh, &g, &p), 0);
	cr_assert_eq(p.n, 6);
	cr_assert(p.u[0].wfn == SRAM_FN_SHDOWN && p.u[0].dst == 12 && p.u[0].act[0] == 0);
	cr_assert(p.u[1].dst == 12 && p.u[1].act[0] == 12);
	cr_assert(p.u[2].dst == 8 && p.u[2].act[0] == 12);
	cr_assert_null(emu_move_whole_reason(&sh));
	const emu_move sy = emu_move_sync();
	cr_assert_null(emu_move_whole_reason(&sy));
	const emu_move id = emu_move_intra(&a, &b, 0, 3, 2, 3, SRAM_NO_ROW);
	cr_assert_not_null(emu_move_whole_reason(&id));
	isa_prog_free(&p);
	emu_mover_free(mv);
	sram_free(m);
}

/* ---- infsdb: stepi inside a long shift ---- */

static const char far_text[] =
	"machine wordlines=32 bitlines=16 arrays=1 ways=1 mesh=2x1\n"
	"buffer a u8 32 wl=0 arrays=0:1:2 init=random:4\n"
	"buffer b u8 32 wl=8 arrays=0:1:2 init=random:5\n"
	"mv.intra dist=3 wl=0 n=8 to=8 scratch=16 @ arrays=0:1:2 bitlines=0:1:13\n"
	"mv.const value=0x5a wl=8 n=8 @ arrays=1 bitlines=0:2:8\n";

/* What `print b` shows after a full-speed run (emu_run_all). */
static char *full_speed_b(const char *path)
{
	emu_program p;
	diag d;
	diag_clear(&d);
	const sram_geom g = sram_geom_default();
	cr_assert_eq(emu_parse_file(path, &g, &p, &d), 0, "%s", d.msg);
	cr_assert_eq(emu_program_lower(&p, &d), 0, "%s", d.msg);
	emu_machine *em = emu_machine_new(&p, &d);
	cr_assert(em && emu_init_buffers(em, &d) == 0 && emu_run_all(em, false, &d) == 0);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	const emu_buffer *b = &p.bufs[1];
	fprintf(f, "b = {");
	for (uint64_t i = 0; i < b->length; i++)
		fprintf(f, "%s%" PRIu64, i ? ", " : "", emu_elem_get(em, b, i));
	fprintf(f, "}\n");
	fclose(f);
	emu_machine_free(em);
	emu_program_free(&p);
	return text;
}

/* The text between the lines "@N" and "@N+1" of an infsdb session. */
static char *between(const char *out, int n)
{
	char *s = proc_between(out, n);
	cr_assert(s, "no @%d..@%d in:\n%s", n, n + 1, out);
	return s;
}

/* A shift by 3 (two scratch steps and a masked step a wordline): stopped
 * inside wordline 3, reverse-stepi and stepi give back the same rows,
 * scratch included; a checkpoint saved there and loaded gives the bits
 * and the statistics of the run that went on, and of a full-speed run. */
Test(move_step, infsdb_long_shift)
{
	char dir[64];
	cr_assert_not_null(proc_tmpdir(dir, sizeof dir, "infsim-movestep"));
	char ins[600], cmds[600], ckpt[600];
	snprintf(ins, sizeof ins, "%s/far.ins", dir);
	snprintf(cmds, sizeof cmds, "%s/far.cmds", dir);
	snprintf(ckpt, sizeof ckpt, "%s/far.ckpt", dir);
	FILE *f = fopen(ins, "w");
	cr_assert_not_null(f);
	fputs(far_text, f);
	fclose(f);
	f = fopen(cmds, "w");
	cr_assert_not_null(f);
	fprintf(f, "start\nstepi 10\necho @1\\n\ninfo machine\nx/17t 0 0\necho @2\\n\n"
		"reverse-stepi 4\necho @3\\n\ninfo machine\nx/17t 0 0\necho @4\\n\n"
		"stepi 4\necho @5\\n\nx/17t 0 0\necho @6\\n\ncheckpoint save %s\n"
		"continue\necho @7\\n\nprint b\ninfo stats\necho @8\\n\n"
		"checkpoint load %s\necho @9\\n\ninfo machine\necho @10\\n\ncontinue\n"
		"echo @11\\n\nprint b\ninfo stats\necho @12\\n\ncheck\n", ckpt, ckpt);
	fclose(f);
	char sh[2048], *out = NULL;
	snprintf(sh, sizeof sh, "HOME=/nonexistent '%s' -batch -nx -x '%s' '%s'", INFSDB_BIN,
		 cmds, ins);
	cr_assert_eq(proc_shell(sh, &out), 0, "%s", out);
	char *stop = between(out, 1), *rows = strstr(stop, "array 0 wl 0:");
	cr_assert(strstr(stop, "in command 0, next micro-op 10 (of 0..23), cycle 10\n"), "%s", stop);
	char *back = between(out, 3), *again = between(out, 5);
	cr_assert(strstr(back, "in command 0, next micro-op 6 (of 0..23), cycle 6\n"), "%s", back);
	cr_assert_str_eq(again, rows, "stepi after reverse-stepi: other bits");
	cr_assert_str_neq(strstr(back, "array 0 wl 0:"), rows, "reverse-stepi changed nothing");
	char *loaded = between(out, 9);
	cr_assert(strstr(loaded, "in command 0, next micro-op 10 (of 0..23), cycle 10\n"), "%s",
		  loaded);
	char *first = between(out, 7), *second = between(out, 11);
	cr_assert_str_eq(first, second, "after the checkpoint load: other bits or statistics");
	char *want = full_speed_b(ins);
	cr_assert(strncmp(first, want, strlen(want)) == 0, "%s\nwant %s", first, want);
	cr_assert(strstr(out, "check: 2 buffers match the reference after 2 commands.\n"), "%s", out);
	free(want), free(first), free(second), free(loaded), free(back), free(again), free(stop);
	free(out);
	cr_assert_eq(proc_rmdir(dir), 0);
}
