/* SPDX-License-Identifier: MIT */
/*
 * test_refcheck.c: the fast paths of `--check` (emu/ref, emu/check) held
 * to the slow ones they replace: the reference's host-FPU f32 arithmetic
 * to the soft-float reference, its own bit-matrix transpose and row
 * fields to bit-by-bit loops, and the whole-row comparison of what a
 * command wrote to a cell-by-cell scan and to the element-by-element
 * comparison of buffers, which names the element, the command and the
 * bits in the report.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fp_cases.h"
#include "machine.h"
#include "program.h"
#include "ref_fp.h"
#include "ref_private.h"
#include "refmodel.h"
#include "report.h"

/* ---- the host FPU against the soft-float reference ---- */

static void host_vs_soft(unsigned op, unsigned flags, uint64_t seed)
{
	enum { N = 20000 };
	static uint64_t a[N], b[N], c[N], got[N];
	uint64_t dummy[N];
	fp_cases(ISA_FMT_F32, seed, a, b, N);
	fp_cases(ISA_FMT_F32, seed + 1000, c, dummy, N);
	const isa_cmd cmd = {.op = (uint16_t)op, .width = 32, .is_signed = 1,
			     .fmt = ISA_FMT_F32, .flags = (uint8_t)flags, .c3 = ISA_NONE};
	/* n not a multiple of the 64-element blocks, and one short block */
	emu_ref_fp_run(&cmd, a, b, c, got, N - 7);
	emu_ref_fp_run(&cmd, a + N - 7, b + N - 7, c + N - 7, got + N - 7, 7);
	for (size_t i = 0; i < N; i++) {
		const uint64_t want = isa_ref_fp(&cmd, a[i], b[i], c[i], NULL);
		cr_assert_eq(got[i], want,
			     "%s fp=%s: %08llx, %08llx, %08llx: host %08llx, reference %08llx",
			     isa_info_of(op)->name, flags & ISA_FL_IEEE ? "ieee" : "ftz",
			     (unsigned long long)a[i], (unsigned long long)b[i],
			     (unsigned long long)c[i], (unsigned long long)got[i],
			     (unsigned long long)want);
	}
}

Test(refcheck, host_fpu_gives_the_reference_bits)
{
	static const unsigned ops[] = {ISA_FADD, ISA_FSUB, ISA_FMUL, ISA_FDIV, ISA_FMADD};
	const isa_cmd add = {.op = ISA_FADD, .width = 32, .fmt = ISA_FMT_F32};
	cr_log_info("f32 on the host's FPU: %s", emu_ref_fp_host(&add) ? "yes" : "no (soft float)");
#if defined(__x86_64__)
	cr_assert(emu_ref_fp_host(&add), "an x86-64 host computes f32 add on its FPU");
#endif
	const isa_cmd f16 = {.op = ISA_FADD, .width = 16, .fmt = ISA_FMT_F16};
	cr_assert_not(emu_ref_fp_host(&f16), "only f32 runs on the host");
	for (unsigned k = 0; k < sizeof ops / sizeof *ops; k++) {
		host_vs_soft(ops[k], 0, 11 + k);
		host_vs_soft(ops[k], ISA_FL_IEEE, 31 + k);
	}
}

/* ---- the transpose and row fields against bit loops ---- */

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* isa_ref_row, the integer row path of both references, against
 * isa_ref_elem3 element by element: every op it takes, signed and
 * unsigned, at widths that end inside a byte, at a byte and at the word,
 * on operands with bits above the width set; and it refuses the rest. */
Test(refcheck, integer_rows_give_the_reference_bits)
{
	enum { N = 515 };
	static const unsigned ops[] = {ISA_ADD, ISA_SUB, ISA_MUL, ISA_AND, ISA_OR, ISA_XOR};
	static const unsigned widths[] = {1, 5, 8, 16, 31, 32, 33, 64};
	uint64_t a[N], b[N], got[N], seed = 0x9e3779b97f4a7c15ull;
	for (unsigned k = 0; k < sizeof ops / sizeof *ops; k++)
		for (unsigned w = 0; w < sizeof widths / sizeof *widths; w++)
			for (unsigned sg = 0; sg < 2; sg++) {
				const isa_cmd c = {.op = (uint16_t)ops[k], .width = (uint8_t)widths[w],
						   .is_signed = (uint8_t)sg, .c3 = ISA_NONE};
				for (size_t i = 0; i < N; i++) {
					a[i] = i < 4 ? (i & 1 ? ~0ull : 0) : rnd(&seed);
					b[i] = i < 4 ? (i & 2 ? ~0ull : 1) : rnd(&seed);
				}
				cr_assert(isa_ref_row(&c, a, b, got, N), "%s takes rows",
					  isa_info_of(ops[k])->name);
				for (size_t i = 0; i < N; i++) {
					bool tag = false;
					uint64_t r2 = 0;
					const uint64_t want = isa_ref_elem3(&c, a[i], b[i], 0, false, &tag, &r2);
					cr_assert_eq(got[i], want, "%s.%c%u element %zu: row %llx, element %llx",
						     isa_info_of(ops[k])->name, sg ? 'i' : 'u', widths[w], i,
						     (unsigned long long)got[i], (unsigned long long)want);
				}
			}
	static const unsigned others[] = {ISA_DIV, ISA_MIN, ISA_SEL, ISA_SHL, ISA_EQ, ISA_FADD,
					  ISA_CVT, ISA_POPCNT};
	for (unsigned k = 0; k < sizeof others / sizeof *others; k++) {
		const isa_cmd c = {.op = (uint16_t)others[k], .width = 32, .c3 = ISA_NONE};
		got[0] = 12345;
		cr_assert_not(isa_ref_row(&c, a, b, got, 1), "%s is left to isa_ref_elem3",
			      isa_info_of(others[k])->name);
		cr_assert_eq(got[0], 12345u);
	}
}

Test(refcheck, transpose_and_fields)
{
	uint64_t s = 88172645463325252u, a[64], t[64];
	for (unsigned k = 0; k < 64; k++)
		a[k] = t[k] = rnd(&s);
	emu_ref_transpose64(t);
	for (unsigned r = 0; r < 64; r++)
		for (unsigned c = 0; c < 64; c++)
			cr_assert_eq(t[c] >> r & 1, a[r] >> c & 1, "bit %u of row %u", c, r);
	/* rows of 3 arrays' words (rs = 6), word 1 of the middle array */
	enum { RS = 6, W = 80 };
	static uint64_t rows[RS * W], keep[RS * W];
	for (unsigned n = 1; n <= 64; n++) {
		for (unsigned k = 0; k < RS * W; k++)
			rows[k] = keep[k] = rnd(&s);
		const unsigned wl = n % 13, w = 3;
		uint64_t v[64], back[64];
		emu_ref_block_get(rows, RS, w, wl, n, v);
		for (unsigned j = 0; j < 64; j++)
			for (unsigned k = 0; k < 64; k++) {
				const uint64_t bit = k < n ? rows[(wl + k) * RS + w] >> j & 1 : 0;
				cr_assert_eq(v[j] >> k & 1, bit, "n %u: bitline %u bit %u", n, j, k);
			}
		/* write other values on some bitlines; the rest keep theirs */
		const uint64_t mask = rnd(&s);
		for (unsigned j = 0; j < 64; j++)
			back[j] = v[j] = rnd(&s);
		emu_ref_block_put(rows, RS, w, wl, n, mask, v);
		for (unsigned k = 0; k < RS * W; k++) {
			const unsigned row = k / RS;
			if (k % RS != w || row < wl || row >= wl + n) {
				cr_assert_eq(rows[k], keep[k], "n %u: word %u changed", n, k);
				continue;
			}
			for (unsigned j = 0; j < 64; j++) {
				const uint64_t want = mask >> j & 1 ? back[j] >> (row - wl) & 1
								    : keep[k] >> j & 1;
				cr_assert_eq(rows[k] >> j & 1, want, "n %u: row %u bitline %u", n, row, j);
			}
		}
	}
}

/* ---- the whole-row comparison against a cell-by-cell scan ---- */

static emu_program parse_text(const char *text)
{
	emu_program p;
	diag d;
	diag_clear(&d);
	emu_program_init(&p);
	sram_geom g = sram_geom_default();
	cr_assert_eq(emu_parse("test.ins", text, strlen(text), &g, &p, &d), 0, "%s", d.msg);
	return p;
}

/* Run every command on the machine and the reference; after each, the
 * rows the reference wrote agree with the machine's. */
static void run_both(emu_program *p, emu_machine **emo, emu_ref **refo)
{
	diag d;
	diag_clear(&d);
	emu_machine *em = emu_machine_new(p, &d);
	cr_assert_not_null(em, "%s", d.msg);
	emu_ref *r = emu_ref_new(p, &d);
	cr_assert_not_null(r, "%s", d.msg);
	cr_assert_eq(emu_init_buffers(em, &d), 0, "%s", d.msg);
	cr_assert_eq(emu_ref_init_buffers(r), 0);
	for (size_t i = 0; i < p->ncmds; i++) {
		cr_assert_eq(emu_run_cmd(em, &d), 0, "%s", d.msg);
		cr_assert_eq(emu_ref_run_cmd(r, i, &d), 0, "%s", d.msg);
		diag dc;
		diag_clear(&dc);
		cr_assert(emu_report_check_cmd(r, em, i, &dc), "%s", dc.msg);
	}
	emu_cell_mismatch cm;
	cr_assert(emu_ref_compare_touched(r, em, &cm), "cell %u/%u/%u", cm.array, cm.bitline,
		  cm.wordline);
	*emo = em;
	*refo = r;
}

/* The first differing cell of the rows the last command wrote, by the
 * order check.h documents: arrays in the reference's order, 64-row blocks
 * upwards, then bitlines, then rows; one cell at a time. */
static bool scan_written(const emu_ref *r, const emu_machine *em, emu_cell_mismatch *cm)
{
	for (size_t k = 0; k < emu_ref_nwritten(r); k++) {
		unsigned a, lo, hi;
		emu_ref_written(r, k, &a, &lo, &hi);
		for (unsigned blk = lo / 64 * 64; blk < hi; blk += 64)
			for (unsigned bl = 0; bl < em->m->g.bitlines; bl++)
				for (unsigned wl = blk > lo ? blk : lo; wl < hi && wl < blk + 64; wl++) {
					const uint64_t *row = emu_ref_row(r, a, wl);
					const unsigned e = row ? (unsigned)(row[bl / 64] >> (bl % 64) & 1) : 0;
					const unsigned g = sram_get_bit(em->m, a, wl, bl);
					if (e != g) {
						*cm = (emu_cell_mismatch){a, bl, wl, e, g};
						return false;
					}
				}
	}
	return true;
}

static void flip(emu_machine *em, unsigned a, unsigned wl, unsigned bl)
{
	sram_set_bit(em->m, a, wl, bl, !sram_get_bit(em->m, a, wl, bl));
}

/* f32 arithmetic in both modes, random bits (NaNs and subnormals among
 * them), then moves and a copy whose rows end the stream. */
static const char *fp_prog =
	"machine wordlines=512 bitlines=256 arrays=4 ways=2 mesh=2x2 fp=%s\n"
	"buffer A f32 8192 wl=0 arrays=0:1:32 init=random:5\n"
	"buffer B f32 8192 wl=32 arrays=0:1:32 init=random:6\n"
	"buffer C f32 8192 wl=64 arrays=0:1:32 init=random:7\n"
	"buffer D f32 8192 wl=96 arrays=0:1:32\n"
	"add.f32 D, A, B\n"
	"sub.f32 D, D, C @ arrays=1:2:16 bitlines=3:2:100\n"
	"mul.f32 C, A, D\n"
	"madd.f32 D, A, B, C\n"
	"div.f32 C, D, B\n"
	"mv.intra dist=1 wl=64 n=32 to=64 @ arrays=0:1:32 bitlines=0:1:255\n"
	"mv.inter dist=1 wl=64 n=32 to=64 dst=0:1:256 @ arrays=0:1:31 bitlines=0:1:256\n"
	"sync\n"
	"copy.f32 D, C @ arrays=0:1:32 bitlines=0:1:256\n";

Test(refcheck, fp_commands_agree_with_the_machine)
{
	static const char *const modes[] = {"ftz", "ieee"};
	for (unsigned k = 0; k < 2; k++) {
		char text[2048];
		snprintf(text, sizeof text, fp_prog, modes[k]);
		emu_program p = parse_text(text);
		emu_machine *em;
		emu_ref *r;
		run_both(&p, &em, &r);
		emu_ref_free(r);
		emu_machine_free(em);
		emu_program_free(&p);
	}
}

/* One wrong bitline in the middle of a row the last command wrote: the
 * whole-row comparison names the cell the cell-by-cell scan names, and
 * the report names the element of D on that bitline, the command and the
 * bit, as the element-by-element comparison finds them. */
Test(refcheck, one_wrong_bitline_named_as_before)
{
	char text[2048];
	snprintf(text, sizeof text, fp_prog, "ftz");
	emu_program p = parse_text(text);
	emu_machine *em;
	emu_ref *r;
	run_both(&p, &em, &r);
	const emu_buffer *D = &p.bufs[3];
	/* the last command wrote D's rows (96..127) of arrays 0..31 */
	static const unsigned cells[][3] = {
		{17, 96 + 13, 137}, {5, 96 + 31, 64}, {31, 96, 255}, {0, 96 + 7, 0}, {9, 96 + 20, 63},
	};
	for (unsigned t = 0; t < sizeof cells / sizeof *cells; t++) {
		const unsigned a = cells[t][0], wl = cells[t][1], bl = cells[t][2];
		flip(em, a, wl, bl);
		emu_cell_mismatch cm, scan;
		cr_assert_not(emu_ref_compare_written(r, em, &cm), "flip %u unseen", t);
		cr_assert_not(scan_written(r, em, &scan));
		cr_assert(cm.array == scan.array && cm.bitline == scan.bitline &&
			  cm.wordline == scan.wordline && cm.expected == scan.expected &&
			  cm.actual == scan.actual, "fast %u/%u/%u, scan %u/%u/%u", cm.array,
			  cm.bitline, cm.wordline, scan.array, scan.bitline, scan.wordline);
		cr_assert(cm.array == a && cm.bitline == bl && cm.wordline == wl);
		/* the element the buffer comparison names sits on that cell */
		emu_mismatch mm;
		cr_assert_not(emu_ref_compare(r, em, D, &mm));
		unsigned ea, ebl, ewl;
		emu_buffer_place(D, &p.geom, mm.index, &ea, &ebl, &ewl);
		cr_assert(ea == a && ebl == bl && ewl == 96, "element %llu at %u/%u/%u",
			  (unsigned long long)mm.index, ea, ebl, ewl);
		cr_assert_eq(mm.expected ^ mm.actual, UINT64_C(1) << (wl - 96));
		char want[160];
		snprintf(want, sizeof want, "D[%llu] (f32)", (unsigned long long)mm.index);
		char bits[32];
		snprintf(bits, sizeof bits, "bits that differ: %u", wl - 96);
		diag d;
		diag_clear(&d);
		cr_assert_not(emu_report_check_cmd(r, em, p.ncmds - 1, &d));
		cr_assert(strstr(d.msg, "after command 9 'copy.f32") && strstr(d.msg, want) &&
			  strstr(d.msg, bits), "%s", d.msg);
		flip(em, a, wl, bl);
	}
	/* three wrong cells, two in one word of the rows: the first in the
	 * documented order (the lowest bitline, then its lowest row) */
	flip(em, 4, 97, 200);
	flip(em, 4, 100, 50);
	flip(em, 4, 110, 20);
	emu_cell_mismatch cm, scan;
	cr_assert_not(emu_ref_compare_written(r, em, &cm));
	cr_assert_not(scan_written(r, em, &scan));
	cr_assert(cm.array == 4 && cm.bitline == 20 && cm.wordline == 110 &&
		  scan.bitline == 20 && scan.wordline == 110, "cell %u/%u/%u", cm.array,
		  cm.bitline, cm.wordline);
	emu_ref_free(r);
	emu_machine_free(em);
	emu_program_free(&p);
}
