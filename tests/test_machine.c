/* SPDX-License-Identifier: MIT */
/*
 * test_machine.c: the machine that runs a stream (emu/machine/machine.c), the
 * transpose unit, the reference model (emu/ref/refmodel.c), stepping versus
 * running, thread-count independence, statistics, and that the docs
 * list every peripheral function and command.
 */
#include <criterion/criterion.h>
#include <inttypes.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa_harness.h"
#include "proc.h"
#include "machine.h"
#include "program.h"
#include "check.h"
#include "refmodel.h"
#include "report.h"

static emu_program parse_text(const char *text)
{
	emu_program p;
	diag d;
	diag_clear(&d);
	emu_program_init(&p);
	sram_geom g = sram_geom_default();
	int rc = emu_parse("test.ins", text, strlen(text), &g, &p, &d);
	cr_assert_eq(rc, 0, "parse failed: %s", d.msg);
	return p;
}

static const char *small_prog =
	"machine wordlines=256 bitlines=64 arrays=4 ways=2 mesh=2x2\n"
	"buffer A i16 1000 wl=0 arrays=0:1:16 init=random:1\n"
	"buffer B i16 1000 wl=16 arrays=0:1:16 init=random:2\n"
	"buffer C i16 1000 wl=32 arrays=0:1:16\n"
	"buffer D i16 1000 wl=48 arrays=0:1:16\n"
	"add.i16 C, A, B\n"
	"sub.i16 D, C, A\n"
	"xor.i16 C, D, B\n"
	"add.i16 D, D, C @ arrays=2:3:4 bitlines=1:2:20\n";

static void run_with_ref(emu_program *p, bool stepi, emu_machine **emo,
			 emu_ref **refo)
{
	diag d;
	diag_clear(&d);
	emu_machine *em = emu_machine_new(p, &d);
	cr_assert_not_null(em, "%s", d.msg);
	emu_ref *r = emu_ref_new(p, &d);
	cr_assert_not_null(r, "%s", d.msg);
	cr_assert_eq(emu_init_buffers(em, &d), 0);
	emu_ref_init_buffers(r);
	for (size_t i = 0; i < p->ncmds; i++) {
		if (stepi) {
			size_t pc = em->pc;
			while (em->pc == pc)
				cr_assert_eq(emu_stepi(em, &d), 0);
		} else {
			cr_assert_eq(emu_run_cmd(em, &d), 0);
		}
		cr_assert_eq(emu_ref_run_cmd(r, i, &d), 0, "%s", d.msg);
	}
	cr_assert(emu_done(em));
	*emo = em;
	*refo = r;
}

Test(machine, reference_agrees_after_every_buffer)
{
	emu_program p = parse_text(small_prog);
	emu_machine *em;
	emu_ref *r;
	run_with_ref(&p, false, &em, &r);
	for (size_t b = 0; b < p.nbufs; b++) {
		emu_mismatch mm;
		cr_assert(emu_ref_compare(r, em, &p.bufs[b], &mm),
			  "%s[%llu]: expected %llx got %llx", p.bufs[b].name,
			  (unsigned long long)mm.index,
			  (unsigned long long)mm.expected,
			  (unsigned long long)mm.actual);
	}
	/* A flipped cell is found, at the right element. */
	const emu_buffer *C = &p.bufs[2];
	uint64_t v = emu_elem_get(em, C, 777);
	emu_elem_set(em, C, 777, v ^ 0x100);
	emu_mismatch mm;
	cr_assert_not(emu_ref_compare(r, em, C, &mm));
	cr_assert_eq(mm.index, 777);
	cr_assert_eq(mm.expected ^ mm.actual, 0x100);
	emu_ref_free(r);
	emu_machine_free(em);
	emu_program_free(&p);
}

/* The per-command check compares the rows the reference's last command
 * wrote, on every bitline, and names the first differing cell; rows the
 * command did not write are left to the end-of-run comparison. */
Test(machine, written_rows_compare)
{
	emu_program p = parse_text(small_prog);
	emu_machine *em;
	emu_ref *r;
	run_with_ref(&p, false, &em, &r);
	emu_cell_mismatch cm;
	/* the last command: D (wordlines 48..63) of arrays 2, 5, 8, 11 */
	cr_assert_eq(emu_ref_nwritten(r), 4);
	unsigned a, lo, hi;
	emu_ref_written(r, 1, &a, &lo, &hi);
	cr_assert(a == 5 && lo == 48 && hi == 64, "array %u rows %u..%u", a, lo, hi);
	cr_assert(emu_ref_compare_written(r, em, &cm));
	/* a cell of a row it did not write: unseen here, seen at the end */
	cr_assert(emu_ref_compare_touched(r, em, &cm));
	sram_set_bit(em->m, 3, 50, 7, !sram_get_bit(em->m, 3, 50, 7));
	cr_assert(emu_ref_compare_written(r, em, &cm));
	cr_assert_not(emu_ref_compare_touched(r, em, &cm));
	cr_assert(cm.array == 3 && cm.bitline == 7 && cm.wordline == 50);
	diag de;
	diag_clear(&de);
	cr_assert_not(emu_report_check_all(r, em, &de));
	cr_assert(strstr(de.msg, "D[199]") && strstr(de.msg, "end of the run"), "%s", de.msg);
	sram_set_bit(em->m, 3, 50, 7, !sram_get_bit(em->m, 3, 50, 7));
	/* a row of no buffer that nothing wrote is not compared */
	sram_set_bit(em->m, 3, 200, 7, 1);
	cr_assert(emu_ref_compare_touched(r, em, &cm));
	sram_set_bit(em->m, 3, 200, 7, 0);
	/* a written row, on a bitline the command did not select: seen */
	sram_set_bit(em->m, 5, 50, 7, !sram_get_bit(em->m, 5, 50, 7));
	cr_assert_not(emu_ref_compare_written(r, em, &cm));
	cr_assert(cm.array == 5 && cm.bitline == 7 && cm.wordline == 50 &&
		  cm.expected != cm.actual, "cell %u/%u/%u", cm.array, cm.bitline, cm.wordline);
	/* and the report names the element of D that holds it */
	diag d;
	diag_clear(&d);
	cr_assert_not(emu_report_check_cmd(r, em, p.ncmds - 1, &d));
	cr_assert(strstr(d.msg, "D[327]") && strstr(d.msg, "after command 4"), "%s", d.msg);
	emu_ref_free(r);
	emu_machine_free(em);
	emu_program_free(&p);
}

/* Moves of every shape the reference moves as whole fields (wordlines
 * apart, the same wordlines onto overlapping arrays, across banks held
 * until a sync, a broadcast) and one it moves bit by bit (wordlines that
 * overlap), on arrays of 256 bitlines: the reference agrees with the
 * machine cell for cell, and a cell flipped on one bitline in the middle
 * of a row is named at the same element by the written-rows comparison
 * (whole rows) as by the element-by-element one. */
static const char *move_prog =
	"machine wordlines=256 bitlines=256 arrays=4 ways=2 mesh=2x2\n"
	"buffer A i32 8192 wl=0 arrays=0:1:32 init=random:1\n"
	"buffer B i32 8192 wl=32 arrays=0:1:32 init=random:2\n"
	"buffer C i32 8192 wl=64 arrays=0:1:32\n"
	"add.i32 C, A, B\n"
	"mv.inter dist=1 wl=0 n=32 to=96 dst=0:1:256 @ arrays=0:1:31 bitlines=0:1:256\n"
	"sync\n"
	"mv.intra dist=1 wl=64 n=32 to=64 @ arrays=0:1:32 bitlines=0:1:255\n"
	"mv.inter dist=1 wl=32 n=32 to=32 dst=0:1:256 @ arrays=0:1:31 bitlines=0:1:256\n"
	"sync\n"
	"mv.inter dist=-2 wl=0 n=80 to=8 dst=128:1:128 @ arrays=2:1:30 bitlines=128:1:128\n"
	"sync\n"
	"mv.bcast dist=1 wl=64 n=100 to=130 dst=0:1:256 reuse=4:8 @ arrays=0:1:3 bitlines=0:1:256\n"
	"sync\n"
	"sub.i32 C, C, A\n";

Test(machine, whole_rows_and_elements_agree)
{
	emu_program p = parse_text(move_prog);
	emu_machine *em;
	emu_ref *r;
	run_with_ref(&p, false, &em, &r);
	emu_cell_mismatch cm;
	cr_assert(emu_ref_compare_touched(r, em, &cm), "cell %u/%u/%u", cm.array, cm.bitline,
		  cm.wordline);
	emu_mismatch mm;
	for (size_t b = 0; b < p.nbufs; b++)
		cr_assert(emu_ref_compare(r, em, &p.bufs[b], &mm), "%s[%llu]", p.bufs[b].name,
			  (unsigned long long)mm.index);
	/* C's bit 5 on bitline 130 of array 9, a row the last command wrote */
	sram_set_bit(em->m, 9, 69, 130, !sram_get_bit(em->m, 9, 69, 130));
	cr_assert_not(emu_ref_compare_written(r, em, &cm));
	cr_assert(cm.array == 9 && cm.bitline == 130 && cm.wordline == 69 &&
		  cm.expected != cm.actual, "cell %u/%u/%u", cm.array, cm.bitline, cm.wordline);
	cr_assert_not(emu_ref_compare(r, em, &p.bufs[2], &mm));
	cr_assert_eq(mm.expected ^ mm.actual, 0x20);
	unsigned a, bl, wl;
	emu_buffer_place(&p.bufs[2], &p.geom, mm.index, &a, &bl, &wl);
	cr_assert(a == 9 && bl == 130 && wl == 64, "element %llu at %u/%u/%u",
		  (unsigned long long)mm.index, a, bl, wl);
	char name[32];
	snprintf(name, sizeof name, "C[%llu]", (unsigned long long)mm.index);
	diag d;
	diag_clear(&d);
	cr_assert_not(emu_report_check_cmd(r, em, p.ncmds - 1, &d));
	cr_assert(strstr(d.msg, name) && strstr(d.msg, "bits that differ: 5"), "%s", d.msg);
	emu_ref_free(r);
	emu_machine_free(em);
	emu_program_free(&p);
}

/* Stepping every micro-op and running whole commands give identical
 * SRAM state, latches included, and identical statistics. */
Test(machine, stepi_equals_run)
{
	emu_program p = parse_text(small_prog);
	emu_machine *a, *b;
	emu_ref *ra, *rb;
	run_with_ref(&p, false, &a, &ra);
	run_with_ref(&p, true, &b, &rb);
	cr_assert(sram_state_equal(a->m, b->m));
	sram_set_latch(b->m, 9, SRAM_CARRY, 3, !sram_get_latch(b->m, 9, SRAM_CARRY, 3));
	cr_assert_not(sram_state_equal(a->m, b->m), "a flipped carry goes unseen");
	sram_set_latch(b->m, 9, SRAM_CARRY, 3, !sram_get_latch(b->m, 9, SRAM_CARRY, 3));
	cr_assert_eq(a->st.total.cycles, b->st.total.cycles);
	cr_assert_eq(a->st.total.reads, b->st.total.reads);
	cr_assert_eq(a->st.total.writes, b->st.total.writes);
	cr_assert_eq(a->st.total.logic, b->st.total.logic);
	emu_ref_free(ra);
	emu_ref_free(rb);
	emu_machine_free(a);
	emu_machine_free(b);
	emu_program_free(&p);
}

Test(machine, thread_count_does_not_matter)
{
	emu_program p = parse_text(small_prog);
	emu_machine *a, *b;
	emu_ref *ra, *rb;
	sram_set_threads(1);
	run_with_ref(&p, false, &a, &ra);
	sram_set_threads(2);
	run_with_ref(&p, false, &b, &rb);
	sram_set_threads(0);
	cr_assert(sram_state_equal(a->m, b->m));
	emu_ref_free(ra);
	emu_ref_free(rb);
	emu_machine_free(a);
	emu_machine_free(b);
	emu_program_free(&p);
}

/* init= and the transpose unit spread a large buffer's pieces and tiles
 * over the threads: the same cells whatever the count, each element
 * init='s value read through the array's own port, and read back whole
 * (threads too) the same values. */
Test(machine, transpose_unit_threads)
{
	const uint64_t n = 512 * 256 - 7; /* a last tile cut short */
	char text[256];
	snprintf(text, sizeof text,
		 "machine wordlines=64 bitlines=256 arrays=16 ways=8 mesh=2x2\n"
		 "buffer X i24 %" PRIu64 " wl=5 arrays=0:1:512 init=random:5\n", n);
	emu_program p = parse_text(text);
	emu_machine *em[2];
	for (int t = 0; t < 2; t++) {
		diag d;
		sram_set_threads(t + 1);
		em[t] = emu_machine_new(&p, &d);
		cr_assert_not_null(em[t]);
		cr_assert_eq(emu_init_buffers(em[t], &d), 0, "%s", d.msg);
	}
	cr_assert(sram_state_equal(em[0]->m, em[1]->m));
	uint64_t *back = malloc(n * sizeof *back);
	cr_assert_not_null(back);
	emu_buffer_read(em[1], &p.bufs[0], back);
	sram_set_threads(0);
	for (uint64_t i = 0; i < n; i++) {
		const uint64_t want = emu_init_elem(&p.bufs[0], i);
		cr_assert_eq(emu_elem_get(em[0], &p.bufs[0], i), want, "element %" PRIu64, i);
		cr_assert_eq(back[i], want, "element %" PRIu64 " read back", i);
	}
	free(back);
	emu_machine_free(em[0]);
	emu_machine_free(em[1]);
	emu_program_free(&p);
}

/* Cycles are the micro-program lengths; banks that hold no selected
 * array skip the command and are counted. */
Test(machine, statistics)
{
	emu_program p = parse_text(small_prog);
	emu_machine *em;
	emu_ref *r;
	run_with_ref(&p, false, &em, &r);
	uint64_t want = 0;
	for (size_t i = 0; i < p.ncmds; i++)
		want += isa_baseline_cycles(&p.cmds[i].c, 64);
	cr_assert_eq(em->st.total.cycles, want);
	cr_assert_eq(em->st.commands, 4);
	cr_assert_eq(em->st.cmds_by_op[ISA_ADD], 2);
	cr_assert_eq(em->st.by_op[ISA_SUB].cycles, 32);
	/* 16 arrays = 2 banks of 8; the last command touches arrays 2, 5, 8,
	 * 11: banks 0 and 1.  Banks 2 and 3 skip all four commands. */
	cr_assert_eq(em->st.bank_skips, 8);
	cr_assert_eq(em->st.by_bank[0].cycles, want);
	cr_assert_eq(em->st.by_bank[2].cycles, 0);
	/* add: one read, one write, one carry update per cycle. */
	cr_assert_eq(em->st.by_op[ISA_ADD].reads, 32);
	cr_assert_eq(em->st.by_op[ISA_ADD].writes, 32);
	cr_assert_eq(em->st.by_op[ISA_ADD].activations, 64);
	/* Transpose unit: two 16-bit buffers of 16 arrays, 8 per bank. */
	cr_assert_eq(em->st.ttu_cycles, 2 * 8 * 16);
	cr_assert_eq(em->st.ttu_bits, 2 * 1000 * 16);
	emu_ref_free(r);
	emu_machine_free(em);
	emu_program_free(&p);
}

/* The transpose unit round-trips every width, partial arrays included,
 * and leaves the other wordlines and bitlines alone. */
Test(machine, transpose_round_trip)
{
	char text[512];
	for (unsigned n = 1; n <= 64; n++) {
		snprintf(text, sizeof text,
			 "machine wordlines=256 bitlines=128 arrays=2 ways=1 mesh=2x1\n"
			 "buffer X %c%u 300 wl=3 arrays=3:-1:3\n"
			 "buffer Y u8 256 wl=100 arrays=0:1:2 init=const:171\n",
			 n % 2 ? 'i' : 'u', n);
		emu_program p = parse_text(text);
		diag d;
		emu_machine *em = emu_machine_new(&p, &d);
		cr_assert_eq(emu_init_buffers(em, &d), 0);
		uint64_t in[300], out[300];
		harness_values(in, 300, n, n);
		uint64_t cyc = emu_ttu_store(em, &p.bufs[0], in, 300);
		/* 3 arrays: 3 and 2 in bank 1, 1 in bank 0 -> 2 * n. */
		cr_assert_eq(cyc, 2u * n);
		cr_assert_eq(emu_ttu_load(em, &p.bufs[0], out, 300), 2u * n);
		for (int i = 0; i < 300; i++) {
			cr_assert_eq(out[i], in[i], "n=%u i=%d", n, i);
			cr_assert_eq(emu_elem_get(em, &p.bufs[0], (uint64_t)i), in[i]);
		}
		/* Bitlines past the 300th element and other wordlines untouched. */
		for (unsigned bl = 44; bl < 128; bl++)
			for (unsigned k = 0; k < n; k++)
				cr_assert_not(sram_get_bit(em->m, 1, 3 + k, bl));
		for (int i = 0; i < 256; i++)
			cr_assert_eq(emu_elem_get(em, &p.bufs[1], (uint64_t)i), 171);
		emu_machine_free(em);
		emu_program_free(&p);
	}
}

/* sel after a command that used the tag latch as a temporary is caught
 * by the reference model. */
Test(machine, undefined_tag_is_reported)
{
	emu_program p = parse_text(
		"machine wordlines=128 bitlines=64 arrays=1 ways=1 mesh=1x1\n"
		"buffer A u8 64 wl=0 arrays=0 init=iota\n"
		"buffer B u8 64 wl=8 arrays=0 init=const:3\n"
		"buffer C u8 64 wl=16 arrays=0\n"
		"lt.u8 tag, A, B\n"
		"sel.u8 C, A, B\n"
		"mul.u8 C, A, B\n"
		"sel.u8 C, A, B\n");
	diag d;
	diag_clear(&d);
	emu_ref *r = emu_ref_new(&p, &d);
	emu_ref_init_buffers(r);
	cr_assert_eq(emu_ref_run_cmd(r, 0, &d), 0, "%s", d.msg);
	cr_assert_eq(emu_ref_run_cmd(r, 1, &d), 0, "%s", d.msg);
	cr_assert_eq(emu_ref_get(r, &p.bufs[2], 1), 1);
	cr_assert_eq(emu_ref_get(r, &p.bufs[2], 5), 3);
	cr_assert_eq(emu_ref_run_cmd(r, 2, &d), 0, "%s", d.msg);
	cr_assert_eq(emu_ref_run_cmd(r, 3, &d), -1);
	cr_assert(strstr(d.msg, "test.ins:8:") != NULL, "%s", d.msg);
	/* numbered from 1, as --stats counts */
	cr_assert(strstr(d.msg, "command 4 reads the tag latch") != NULL, "%s", d.msg);
	cr_assert(strstr(d.msg, "which command 3 (line 7) left undefined") != NULL, "%s", d.msg);
	emu_ref_free(r);
	emu_program_free(&p);
}

/* The docs cannot drift from pe.def and opcodes.def. */
Test(docs, machine_md_lists_every_peripheral_function)
{
	char *md = proc_slurp(SRCDIR "/doc/MACHINE.md", NULL);
	cr_assert_not_null(md, "cannot read doc/MACHINE.md");
	for (unsigned fn = 1; fn < SRAM_FN_COUNT; fn++) {
		char name[64];
		snprintf(name, sizeof name, "| `%s` |", sram_fn_name(fn));
		cr_assert(strstr(md, name), "doc/MACHINE.md lacks %s", name);
		cr_assert(strstr(md, sram_fn_semantics(fn)),
			  "doc/MACHINE.md lacks the semantics of %s", sram_fn_name(fn));
	}
	free(md);
}

Test(docs, commands_md_lists_every_command)
{
	char *md = proc_slurp(SRCDIR "/doc/COMMANDS.md", NULL);
	cr_assert_not_null(md, "cannot read doc/COMMANDS.md");
	for (unsigned op = 0; op < ISA_OP_COUNT; op++) {
		char name[64];
		snprintf(name, sizeof name, "| `%s` |", isa_info_of(op)->name);
		cr_assert(strstr(md, name), "doc/COMMANDS.md lacks %s", name);
		cr_assert(strstr(md, isa_info_of(op)->semantics),
			  "doc/COMMANDS.md lacks the semantics of %s", isa_info_of(op)->name);
	}
	free(md);
}

/* ---- the SRAM model itself ---- */

Test(sram, geometry_limits)
{
	sram_geom g = sram_geom_default();
	cr_assert_null(sram_geom_check(&g));
	cr_assert_eq(sram_geom_bitlines(&g), UINT64_C(4194304));
	cr_assert_eq(sram_geom_bytes(&g), UINT64_C(128) << 20);
	const unsigned bad[] = {0, 4, 7, 12, 2048, 1000};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		g = sram_geom_default();
		g.wordlines = bad[i];
		cr_assert_not_null(sram_geom_check(&g), "wordlines=%u", bad[i]);
		g = sram_geom_default();
		g.bitlines = bad[i];
		cr_assert_not_null(sram_geom_check(&g), "bitlines=%u", bad[i]);
	}
	for (unsigned v = 8; v <= 1024; v *= 2) {
		g = sram_geom_default();
		g.wordlines = g.bitlines = v;
		cr_assert_null(sram_geom_check(&g));
	}
}

/* The wired-OR signal: T on any enabled bitline of the array. */
Test(sram, any_tag)
{
	sram_geom g = {.wordlines = 16, .bitlines = 16, .arrays_per_way = 2, .ways_per_bank = 1, .mesh_x = 1, .mesh_y = 1};
	sram_machine *m = sram_new(&g);
	cr_assert_not(sram_any_tag(m, 0));
	sram_set_latch(m, 0, SRAM_TAG, 5, true);
	cr_assert_not(sram_any_tag(m, 0), "bitline 5 is not enabled");
	sram_enable_set(m, 0, 5, true);
	cr_assert(sram_any_tag(m, 0));
	cr_assert_not(sram_any_tag(m, 1));
	sram_free(m);
}

/* Sensing: BL is the AND and BLB the NOR of the activated cells, for one,
 * two and three wordlines; gating by E&T and E&~T; a disabled bitline
 * changes nothing. */
Test(sram, sense_and_gates)
{
	sram_geom g = {.wordlines = 16, .bitlines = 16, .arrays_per_way = 1, .ways_per_bank = 1, .mesh_x = 1, .mesh_y = 1};
	sram_machine *m = sram_new(&g);
	sram_enable_all(m, 0);
	sram_enable_set(m, 0, 15, false);
	/* rows 0..2 hold the 8 patterns of 3 bits on bitlines 0..7 */
	for (unsigned bl = 0; bl < 8; bl++)
		for (unsigned r = 0; r < 3; r++)
			sram_set_bit(m, 0, r, bl, (bl >> r) & 1);
	for (unsigned bl = 0; bl < 16; bl++)
		sram_set_latch(m, 0, SRAM_TAG, bl, bl % 2);
	sram_uop u = isa_u2(SRAM_FN_COPY, 8, 0, 1);
	u.nact = 3;
	u.act[2] = 2;
	sram_step(m, NULL, &u);
	sram_uop v = isa_gate(isa_u2(SRAM_FN_NOT, 9, 0, 1), SRAM_GATE_ET);
	v.nact = 3;
	v.act[2] = 2;
	sram_step(m, NULL, &v);
	sram_uop w = isa_gate(isa_u1(SRAM_FN_ONE, 10, 0), SRAM_GATE_ENT);
	w.nact = 0;
	sram_step(m, NULL, &w);
	sram_uop x = isa_u1(SRAM_FN_ONE, 11, 0);
	x.nact = 0;
	sram_step(m, NULL, &x);
	for (unsigned bl = 0; bl < 8; bl++) {
		cr_assert_eq(sram_get_bit(m, 0, 8, bl), bl == 7, "AND3 on %u", bl);
		cr_assert_eq(sram_get_latch(m, 0, SRAM_BLB, bl), bl == 0, "NOR3 on %u", bl);
		cr_assert_eq(sram_get_bit(m, 0, 9, bl), bl == 0 && bl % 2, "NOR3 gated by T");
	}
	for (unsigned bl = 0; bl < 16; bl++) {
		cr_assert_eq(sram_get_bit(m, 0, 10, bl), bl % 2 == 0 && bl != 15);
		cr_assert_eq(sram_get_bit(m, 0, 11, bl), bl != 15, "disabled bitline written");
	}
	sram_free(m);
}

/* sram_uop_check refuses malformed micro-ops with a reason. */
Test(sram, uop_check)
{
	sram_geom g = {.wordlines = 16, .bitlines = 16, .arrays_per_way = 1, .ways_per_bank = 1, .mesh_x = 1, .mesh_y = 1};
	sram_machine *m = sram_new(&g);
	sram_uop u = isa_u2(SRAM_FN_ADD, 3, 0, 1);
	cr_assert_null(sram_uop_check(m, &u));
	u.act[1] = 16;
	cr_assert_not_null(sram_uop_check(m, &u));
	u = isa_u2(SRAM_FN_ADD, 16, 0, 1);
	cr_assert_not_null(sram_uop_check(m, &u));
	u = isa_u1(SRAM_FN_ADD, 3, 0);
	cr_assert_not_null(sram_uop_check(m, &u), "ADD needs two wordlines");
	u = isa_u2(SRAM_FN_LOADT, 3, 0, 1);
	cr_assert_not_null(sram_uop_check(m, &u), "a latch function in the write slot");
	u = isa_with_l(isa_u2(SRAM_FN_ADD, 3, 0, 1), SRAM_FN_LOADC);
	cr_assert_not_null(sram_uop_check(m, &u), "two functions on the carry");
	u = isa_l0(SRAM_FN_NONE);
	cr_assert_not_null(sram_uop_check(m, &u), "a micro-op that does nothing");
	sram_free(m);
}

/* ---- data-dependent latency: one controller per bank ---- */

static const char *dd_prog_fmt =
	"machine wordlines=512 bitlines=64 arrays=4 ways=2 mesh=2x2 latency=%s\n"
	"buffer A u32 1024 wl=0 arrays=0:1:16 init=iota\n"
	"buffer B u32 1024 wl=32 arrays=0:1:16 init=iota\n"
	"buffer C u32 1024 wl=64 arrays=0:1:16\n"
	"buffer X f32 1024 wl=96 arrays=0:1:16 init=random:4\n"
	"buffer Y f32 1024 wl=128 arrays=0:1:16 init=iota\n"
	"buffer D u32 1024 wl=160 arrays=0:1:16\n"
	"mul.u32 C, A, B\n"
	"divrem.u32 A, D, C, B @ arrays=0:1:16 bitlines=1:1:63\n"
	"add.f32 X, X, Y\n";

static emu_program dd_program(const char *latency)
{
	char text[1024];
	snprintf(text, sizeof text, dd_prog_fmt, latency);
	return parse_text(text);
}

/* The optimised latency gives the baseline's bits, agrees with the
 * reference, takes fewer cycles, and banks with smaller numbers finish
 * sooner (each bank decides on its own wired-OR). */
Test(machine, optimised_latency_same_bits_fewer_cycles)
{
	emu_program pb = dd_program("baseline"), po = dd_program("optimised");
	emu_machine *b, *o;
	emu_ref *rb, *ro;
	run_with_ref(&pb, false, &b, &rb);
	run_with_ref(&po, false, &o, &ro);
	cr_assert_not(b->optimised);
	cr_assert(o->optimised);
	for (size_t k = 0; k < po.nbufs; k++) {
		emu_mismatch mm;
		cr_assert(emu_ref_compare(ro, o, &po.bufs[k], &mm), "%s[%llu] differs",
			  po.bufs[k].name, (unsigned long long)mm.index);
		cr_assert(emu_ref_compare(rb, b, &pb.bufs[k], &mm));
	}
	cr_assert_eq(b->st.total.cycles, b->st.base_cycles);
	cr_assert_eq(o->st.base_cycles, b->st.base_cycles);
	cr_assert_lt(o->st.total.cycles, o->st.base_cycles,
		     "optimised %llu, baseline %llu",
		     (unsigned long long)o->st.total.cycles,
		     (unsigned long long)o->st.base_cycles);
	cr_assert_lt(o->st.by_op[ISA_MUL].cycles, o->st.base_by_op[ISA_MUL] / 2);
	cr_assert_lt(o->st.by_op[ISA_FADD].cycles, o->st.base_by_op[ISA_FADD]);
	/* iota: bank 0 holds 0..511, bank 1 512..1023 (one more bit). */
	cr_assert_lt(o->st.by_bank[0].cycles, o->st.by_bank[1].cycles);
	cr_assert_leq(o->st.by_bank[1].cycles, o->st.total.cycles);
	cr_assert_eq(o->st.by_bank[2].cycles, 0, "bank 2 holds no element");
	emu_ref_free(rb);
	emu_ref_free(ro);
	emu_machine_free(b);
	emu_machine_free(o);
	emu_program_free(&pb);
	emu_program_free(&po);
}

/* Stepping a data-dependent command micro-op by micro-op (the traces are
 * found on a copy first) leaves the same state and statistics as running
 * it whole. */
Test(machine, optimised_stepi_equals_run)
{
	emu_program p = dd_program("optimised");
	emu_machine *a, *s;
	emu_ref *ra, *rs;
	run_with_ref(&p, false, &a, &ra);
	run_with_ref(&p, true, &s, &rs);
	cr_assert(sram_state_equal(a->m, s->m));
	cr_assert_eq(a->st.total.cycles, s->st.total.cycles);
	cr_assert_eq(a->st.total.reads, s->st.total.reads);
	cr_assert_eq(a->st.total.activations, s->st.total.activations);
	for (unsigned bk = 0; bk < a->m->nbanks; bk++)
		cr_assert_eq(a->st.by_bank[bk].cycles, s->st.by_bank[bk].cycles,
			     "bank %u", bk);
	emu_ref_free(ra);
	emu_ref_free(rs);
	emu_machine_free(a);
	emu_machine_free(s);
	emu_program_free(&p);
}
