/* SPDX-License-Identifier: MIT */
/*
 * test_far_shift.c: a shift by two bitlines or more in one pass
 * (sram/sram_far.c) against its micro-ops run one at a time.
 *
 * The micro-ops are those a bank controller runs for a long shift
 * (emu/machine/move.c): per wordline, SHUP or SHDOWN into the scratch
 * row |dist| - 1 times with the shifted arrays' enable set to one mask,
 * then once into the destination with another.  Both run on copies of a
 * machine of random bits (cells, latches, enables of the arrays not
 * shifted; bits above B of narrow arrays too, which a downward step
 * reads), and must leave the same cells, latches (enable, BL, BLB) and
 * record of the last read and write.  The cases cover odd distances,
 * distances of a whole word and across words, the whole array and
 * more, both directions, masks that cover the array (the fast path),
 * that leave bitlines off (step by step), narrow arrays, ways left out,
 * several wordlines, and rows that coincide (in place, into the scratch
 * row).  (tests/test_move_step.c compares whole moves, which take
 * this path, with the same moves stepped micro-op by micro-op.)
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa.h"
#include "sram.h"
#include "sram_far.h"

static uint64_t rng(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static sram_machine *machine(unsigned bitlines, unsigned apw)
{
	sram_geom g = sram_geom_default();
	g.wordlines = 16;
	g.bitlines = bitlines;
	g.arrays_per_way = apw;
	g.ways_per_bank = 2;
	g.mesh_x = 2;
	g.mesh_y = 1;
	sram_machine *m = sram_new(&g);
	cr_assert_not_null(m);
	return m;
}

/* Every word of every row and latch random, bits above B included when
 * junk is set (a narrow array's last word). */
static void fill(sram_machine *m, uint64_t seed, bool junk)
{
	uint64_t s = seed | 1;
	const uint64_t keep = junk ? ~UINT64_C(0) : m->tail;
	for (unsigned a = 0; a < m->narrays; a++) {
		for (unsigned wl = 0; wl < m->g.wordlines; wl++) {
			uint64_t *row = sram_row(m, a, wl);
			for (unsigned k = 0; k < m->wpa; k++)
				row[k] = rng(&s) & (k + 1 == m->wpa ? keep : ~UINT64_C(0));
		}
		const enum sram_latch ls[] = {SRAM_CARRY, SRAM_TAG, SRAM_ENABLE, SRAM_BL, SRAM_BLB};
		for (unsigned l = 0; l < 5; l++) {
			uint64_t *w = sram_latch_words(m, a, ls[l]);
			const unsigned kind = (unsigned)(rng(&s) % 3);
			for (unsigned k = 0; k < m->wpa; k++) {
				uint64_t v = rng(&s);
				if (ls[l] == SRAM_ENABLE)
					v = kind == 0 ? 0 : kind == 1 ? ~UINT64_C(0) : v;
				w[k] = v & (k + 1 == m->wpa ? m->tail : ~UINT64_C(0));
			}
		}
	}
}

/* The reference: f's micro-ops, one wordline after the other, the
 * enables set between them as the controller sets them. */
static void plain(sram_machine *m, unsigned first, unsigned count,
		  const uint8_t *way_on, const sram_far *f)
{
	const unsigned fn = f->dist > 0 ? SRAM_FN_SHUP : SRAM_FN_SHDOWN;
	const unsigned steps = (unsigned)(f->dist < 0 ? -f->dist : f->dist);
	for (unsigned k = 0; k < f->nwl; k++) {
		for (size_t i = 0; i < f->narrays; i++)
			memcpy(sram_latch_words(m, f->arrays[i], SRAM_ENABLE), f->first,
			       m->wpa * sizeof(uint64_t));
		for (unsigned s = 0; s + 1 < steps; s++) {
			const sram_uop u = isa_u1(fn, f->scratch, s ? f->scratch : f->src + k);
			cr_assert_eq(sram_run_ways(m, first, count, way_on, &u, 1), 0);
		}
		for (size_t i = 0; i < f->narrays; i++)
			memcpy(sram_latch_words(m, f->arrays[i], SRAM_ENABLE), f->last,
			       m->wpa * sizeof(uint64_t));
		const sram_uop u = isa_u1(fn, f->dst + k, f->scratch);
		cr_assert_eq(sram_run_ways(m, first, count, way_on, &u, 1), 0);
	}
}

static void same(const sram_machine *a, const sram_machine *b, const char *what)
{
	cr_assert(sram_state_equal(a, b), "%s: cells or latches differ", what);
	for (unsigned w = 0; w < a->nways; w++) {
		const sram_way *x = &a->ways[w], *y = &b->ways[w];
		cr_assert(memcmp(x->last_act, y->last_act, sizeof x->last_act) == 0 &&
			  x->last_nact == y->last_nact && x->last_set == y->last_set &&
			  x->last_dst == y->last_dst, "%s: way %u's last read or write", what, w);
	}
}

/* A mask: every bitline (with or without the bits above B), random, or
 * none. */
static void mask(const sram_machine *m, uint64_t *out, unsigned kind, uint64_t *s)
{
	for (unsigned k = 0; k < m->wpa; k++) {
		const uint64_t v = kind == 0 ? ~UINT64_C(0) : kind == 2 ? rng(s) : 0;
		out[k] = kind == 1 ? 0 : k + 1 == m->wpa && kind != 3 ? v & m->tail : v;
	}
	if (kind == 3)
		for (unsigned k = 0; k < m->wpa; k++)
			out[k] = ~UINT64_C(0);
}

struct shape {
	unsigned bitlines, apw;
	int dist;
};

static void one_case(const struct shape *sh, unsigned variant, uint64_t seed)
{
	sram_machine *a = machine(sh->bitlines, sh->apw), *b = machine(sh->bitlines, sh->apw);
	uint64_t s = seed * 0x9e3779b97f4a7c15u + variant + 1;
	const bool junk = variant % 4 == 3;
	fill(a, seed, junk);
	sram_copy_state(b, a);
	unsigned arrays[64];
	size_t n = 0;
	for (unsigned x = 0; x < a->narrays && n < 64; x++)
		if (variant % 5 == 0 || rng(&s) % 3)
			arrays[n++] = x;
	uint64_t first[SRAM_MAX_DIM / 64], last[SRAM_MAX_DIM / 64];
	mask(a, first, variant % 7 == 4 ? 2 : variant % 7 == 5 ? 3 : 0, &s);
	mask(a, last, variant % 3 == 1 ? 0 : 2, &s);
	uint8_t way_on[64];
	for (unsigned w = 0; w < a->nways; w++)
		way_on[w] = variant % 2 || rng(&s) % 4 != 0;
	const unsigned rows[][3] = {{1, 9, 15}, {2, 2, 15}, {3, 6, 6}, {15, 4, 15}, {0, 12, 7}};
	const unsigned *r = rows[variant % 5];
	const sram_far f = {
		.src = r[0], .dst = r[1], .scratch = r[2],
		.nwl = r[0] == 15 || r[2] == 15 ? 1 : 1 + variant % 3,
		.dist = sh->dist, .arrays = arrays, .narrays = n,
		.first = first, .last = last,
	};
	const unsigned w0 = variant % 6 == 2 ? 1 : 0, nw = a->nways - w0;
	plain(a, w0, nw, way_on, &f);
	cr_assert_eq(sram_far_run(b, w0, nw, way_on, &f), 0);
	char what[160];
	snprintf(what, sizeof what, "B=%u, %u arrays a way, dist %d, variant %u, seed %lu",
		 sh->bitlines, sh->apw, sh->dist, variant, (unsigned long)seed);
	same(a, b, what);
	sram_free(a);
	sram_free(b);
}

static const struct shape shapes[] = {
	{256, 4, 2}, {256, 4, -2}, {256, 4, 3}, {256, 4, -7}, {256, 4, 63}, {256, 4, -63},
	{256, 4, 64}, {256, 4, -64}, {256, 4, 65}, {256, 4, -65}, {256, 4, 127},
	{256, 4, -129}, {256, 4, 200}, {256, 4, 255}, {256, 4, -255}, {256, 4, 256},
	{256, 4, -256}, {64, 3, 2}, {64, 3, -5}, {64, 3, 63}, {64, 3, -64}, {32, 5, 2},
	{32, 5, -2}, {32, 5, 31}, {32, 5, -31}, {32, 5, -32}, {8, 6, -3}, {8, 6, 7},
	{128, 2, -100}, {128, 2, 70}, {1024, 1, 513}, {1024, 1, -1000},
};

Test(far_shift, against_micro_ops)
{
	for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
		for (unsigned v = 0; v < 14; v++)
			one_case(&shapes[i], v, 1000 * i + v);
}

/* A test that can fail: a shift one bitline short gives other bits. */
Test(far_shift, detects_a_wrong_distance)
{
	sram_machine *a = machine(256, 4), *b = machine(256, 4);
	fill(a, 7, false);
	sram_copy_state(b, a);
	unsigned arrays[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
	uint64_t all[4] = {~UINT64_C(0), ~UINT64_C(0), ~UINT64_C(0), ~UINT64_C(0)};
	sram_far f = {.src = 1, .dst = 2, .scratch = 3, .nwl = 1, .dist = 9,
		      .arrays = arrays, .narrays = 16, .first = all, .last = all};
	plain(a, 0, a->nways, NULL, &f);
	f.dist = 8;
	cr_assert_eq(sram_far_run(b, 0, b->nways, NULL, &f), 0);
	cr_assert(!sram_state_equal(a, b));
	sram_free(a);
	sram_free(b);
}
