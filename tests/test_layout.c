/* SPDX-License-Identifier: MIT */
/*
 * test_layout.c: the tiled transposed layout (emu/layout/layout.h): the Layout
 * Override Table, the element <-> cell mapping (exhaustive over small
 * machines), tile selection (infinity-stream §4.1 and Fig 9) and the
 * transpose unit for regions, with its cycle counts.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "isa_harness.h"
#include "layout.h"
#include "transpose.h"


/* A region of unsigned n-bit elements with sizes S and tile T (nd dims). */
static emu_region region(const char *name, unsigned width, unsigned nd,
			 const uint64_t *S, const uint64_t *T)
{
	emu_region r;
	diag d;
	diag_clear(&d);
	emu_region_init(&r, name, ISA_FMT_INT, width, 0);
	cr_assert_eq(emu_region_shape(&r, nd, S, &d), 0, "%s", d.msg);
	for (unsigned k = 0; T && k < nd; k++)
		r.tile[k] = T[k];
	return r;
}

static emu_region f32_region(const char *name, uint64_t s0, uint64_t s1)
{
	emu_region r;
	diag d;
	diag_clear(&d);
	const uint64_t S[2] = {s0, s1};
	emu_region_init(&r, name, ISA_FMT_F32, 32, 1);
	cr_assert_eq(emu_region_shape(&r, 2, S, &d), 0, "%s", d.msg);
	return r;
}

/* Clear d, then expect rc == -1 and a message holding every string of
 * the list. */
#define EXPECT_ERR(rc, d, ...)                                                \
	do {                                                                  \
		const char *want_[] = {__VA_ARGS__};                          \
		diag_clear(&(d));                                             \
		cr_assert_eq((rc), -1, "expected an error");                  \
		for (size_t i_ = 0; i_ < sizeof want_ / sizeof *want_; i_++)  \
			cr_assert(strstr((d).msg, want_[i_]),                 \
				  "message lacks '%s': %s", want_[i_], (d).msg); \
	} while (0)

/* ---- the mapping, exhaustively ---- */

/* Every element: place, then find each of its bits back; no cell holds
 * two bits; every cell that holds no bit says so. */
static void check_mapping(const emu_region *r, const sram_geom *g)
{
	const uint64_t arrays = emu_region_tiles(r) + r->array0;
	const size_t cells = (size_t)arrays * g->wordlines * g->bitlines;
	uint8_t *seen = calloc(cells, 1);
	cr_assert(seen);
	for (uint64_t i = 0; i < emu_region_elems(r); i++) {
		uint64_t idx[3], back[3];
		unsigned bit;
		emu_loc loc;
		emu_region_unflatten(r, i, idx);
		cr_assert_eq(emu_region_flatten(r, idx), i);
		emu_layout_place(r, g, idx, &loc);
		cr_assert_eq(loc.array, ((loc.bank * g->ways_per_bank + loc.way) *
					 g->arrays_per_way + loc.array_in_way));
		cr_assert_lt(loc.bitline, g->bitlines);
		for (unsigned k = 0; k < r->width; k++) {
			cr_assert(emu_layout_element_at(r, g, loc.array, loc.bitline,
							loc.wordline + k, back, &bit));
			cr_assert(back[0] == idx[0] && back[1] == idx[1] &&
				  back[2] == idx[2] && bit == k,
				  "%s: element %llu bit %u comes back as (%llu,%llu,%llu) bit %u",
				  r->name, (unsigned long long)i, k,
				  (unsigned long long)back[0], (unsigned long long)back[1],
				  (unsigned long long)back[2], bit);
			size_t c = ((size_t)loc.array * g->wordlines + loc.wordline + k) *
				   g->bitlines + loc.bitline;
			cr_assert_eq(seen[c], 0, "%s: two bits in one cell", r->name);
			seen[c] = 1;
		}
	}
	for (size_t c = 0; c < cells; c++) {
		uint64_t idx[3];
		unsigned bit;
		const unsigned bl = (unsigned)(c % g->bitlines);
		const unsigned wl = (unsigned)(c / g->bitlines % g->wordlines);
		const unsigned a = (unsigned)(c / g->bitlines / g->wordlines);
		cr_assert_eq(emu_layout_element_at(r, g, a, bl, wl, idx, &bit), seen[c] == 1,
			     "%s: cell (array %u, wl %u, bl %u)", r->name, a, wl, bl);
	}
	free(seen);
}

/* All power-of-two tiles of P bitlines over nd dimensions. */
static unsigned all_tiles(unsigned nd, uint64_t P, uint64_t T[][3])
{
	unsigned n = 0, E = 0;
	while ((UINT64_C(1) << E) < P)
		E++;
	for (unsigned a = 0; a <= E; a++)
		for (unsigned b = 0; a + b <= E; b++) {
			unsigned c = E - a - b;
			if ((nd < 2 && b) || (nd < 3 && c))
				continue;
			T[n][0] = UINT64_C(1) << a;
			T[n][1] = UINT64_C(1) << b;
			T[n][2] = UINT64_C(1) << c;
			n++;
		}
	return n;
}

Test(layout, mapping_exhaustive_small_machines)
{
	static const uint64_t shapes[][4] = {
		/* nd, S0, S1, S2 */
		{1, 1, 1, 1}, {1, 7, 1, 1}, {1, 16, 1, 1}, {1, 37, 1, 1},
		{2, 4, 4, 1}, {2, 5, 3, 1}, {2, 8, 2, 1}, {2, 3, 9, 1},
		{3, 2, 3, 4}, {3, 4, 4, 2}, {3, 5, 1, 3},
	};
	static const unsigned bls[] = {4, 8, 16};
	unsigned checked = 0;
	for (unsigned bi = 0; bi < 3; bi++)
	for (unsigned apw = 1; apw <= 3; apw++)
	for (unsigned wpb = 1; wpb <= 2; wpb++)
	for (unsigned mesh = 0; mesh < 3; mesh++) {
		sram_geom g = harness_geom(32, bls[bi], apw, wpb, mesh ? 2 : 1, mesh == 2 ? 2 : 1);
		for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
		for (uint64_t vb = 1; vb <= 4; vb *= 2) {
			uint64_t T[64][3];
			unsigned nt = all_tiles((unsigned)shapes[s][0], g.bitlines * vb, T);
			for (unsigned t = 0; t < nt; t++)
			for (unsigned a0 = 0; a0 <= 1; a0++) {
				emu_region r = region("m", 3, (unsigned)shapes[s][0],
						      &shapes[s][1], T[t]);
				r.wl = 5;
				r.array0 = a0;
				if (emu_region_check(&r, &g, NULL))
					continue; /* does not fit this machine */
				check_mapping(&r, &g);
				checked++;
			}
		}
	}
	cr_assert_gt(checked, 3000, "only %u layouts fit", checked);
}

/* Virtual bitlines: tile bitline b -> bitline b % B, wordline wl + (b / B) * n. */
Test(layout, virtual_bitlines)
{
	const sram_geom g = harness_geom(64, 8, 1, 1, 2, 1);
	const uint64_t S[1] = {40}, T[1] = {32};
	emu_region r = region("v", 5, 1, S, T);
	r.wl = 3;
	cr_assert_eq(emu_region_check(&r, &g, NULL), 0);
	cr_assert_eq(emu_region_groups(&r, &g), 4);
	cr_assert_eq(emu_region_rows(&r, &g), 20);
	for (uint64_t i = 0; i < 40; i++) {
		uint64_t idx[3] = {i, 0, 0};
		emu_loc loc;
		emu_layout_place(&r, &g, idx, &loc);
		cr_assert_eq(loc.array, i / 32);
		cr_assert_eq(loc.tile_bitline, i % 32);
		cr_assert_eq(loc.bitline, i % 8);
		cr_assert_eq(loc.wordline, 3 + (i % 32) / 8 * 5);
	}
}

Test(layout, locate_and_addresses)
{
	const sram_geom g = harness_geom(64, 8, 2, 1, 1, 1);
	const uint64_t S[2] = {4, 3}, T[2] = {4, 2};
	emu_region r = region("A", 16, 2, S, T);
	emu_lot t;
	diag d;
	emu_loc loc;
	uint64_t idx[3] = {3, 2, 0};
	diag_clear(&d);
	r.base = 0x1000;
	emu_lot_init(&t, &g, 0);
	cr_assert_eq(emu_lot_add(&t, &r, &d), 0, "%s", d.msg);
	cr_assert_eq(emu_layout_locate(&r, &g, idx, &loc, &d), 0);
	cr_assert_eq(loc.array, 1);
	cr_assert_eq(loc.bitline, 3);
	idx[1] = 3;
	EXPECT_ERR(emu_layout_locate(&r, &g, idx, &loc, &d), d,
		   "region 'A'", "index 3 of dimension 1 is outside 0..2");
	emu_region *found;
	diag_clear(&d);
	cr_assert_eq(emu_lot_locate_addr(&t, 0x1000 + 2 * 9, &found, idx, &d), 0);
	cr_assert(found == emu_lot_find(&t, "A"));
	cr_assert(idx[0] == 1 && idx[1] == 2 && idx[2] == 0);
	EXPECT_ERR(emu_lot_locate_addr(&t, 0x1000 + 2 * 9 + 1, &found, idx, &d), d,
		   "address 0x1013 is byte 1 of element 9",
		   "expected the first byte of a 2-byte element");
	EXPECT_ERR(emu_lot_locate_addr(&t, 0x1000 + 24, &found, idx, &d), d,
		   "no region of the table holds address 0x1018");
}

/* ---- shapes and the LOT ---- */

Test(layout, fused_dimensions)
{
	/* A 5-d array 2x3x4x5x6 (innermost first): dims 2, 3, 4 fuse. */
	const uint64_t S[5] = {2, 3, 4, 5, 6};
	emu_region r = region("x", 8, 5, S, NULL);
	cr_assert_eq(r.ndims, 3);
	cr_assert(r.size[0] == 2 && r.size[1] == 3 && r.size[2] == 120);
	/* The fused index is the row-major one: addresses do not move. */
	uint64_t i[5] = {1, 2, 3, 4, 5};
	uint64_t flat5 = i[0] + 2 * (i[1] + 3 * (i[2] + 4 * (i[3] + 5 * i[4])));
	uint64_t idx[3] = {i[0], i[1], i[2] + 4 * (i[3] + 5 * i[4])};
	cr_assert_eq(emu_region_flatten(&r, idx), flat5);

	diag d;
	diag_clear(&d);
	const uint64_t zero[2] = {4, 0};
	EXPECT_ERR(emu_region_shape(&r, 2, zero, &d), d,
		   "region 'x'", "dimension 1 has size 0");
	diag_clear(&d);
	const uint64_t big[4] = {2, 2, 65536, 65536};
	EXPECT_ERR(emu_region_shape(&r, 4, big, &d), d,
		   "dimension 2 (fused) has more than 4294967295 elements");
	EXPECT_ERR(emu_region_shape(&r, 9, S, &d), d, "9 dimensions; expected 1 to 8");
}

Test(layout, lot_add_find_remove)
{
	const sram_geom g = harness_geom(64, 8, 2, 2, 2, 1); /* 8 arrays */
	const uint64_t S[1] = {16}, T[1] = {8};
	emu_lot t;
	diag d;
	emu_lot_init(&t, &g, 3);
	emu_region a = region("a", 8, 1, S, T), b = region("b", 8, 1, S, T);
	b.base = 16;
	b.wl = 8;   /* same arrays, other wordlines */
	emu_region c = region("c", 8, 1, S, T);
	c.base = 32;
	c.array0 = 2; /* same wordlines, other arrays */
	diag_clear(&d);
	cr_assert_eq(emu_lot_add(&t, &a, &d), 0, "%s", d.msg);
	cr_assert_eq(emu_lot_add(&t, &b, &d), 0, "%s", d.msg);
	cr_assert_eq(emu_lot_add(&t, &c, &d), 0, "%s", d.msg);
	cr_assert_eq(t.n, 3);
	cr_assert_str_eq(emu_lot_find(&t, "b")->name, "b");
	cr_assert_null(emu_lot_find(&t, "zz"));
	cr_assert_str_eq(emu_lot_find_addr(&t, 20)->name, "b");
	cr_assert_null(emu_lot_find_addr(&t, 48));

	emu_region e = region("e", 8, 1, S, T);
	e.base = 100;
	e.wl = 40;
	EXPECT_ERR(emu_lot_add(&t, &e, &d), d, "region 'e'",
		   "the table is full: it holds 3 regions");
	diag_clear(&d);
	cr_assert_eq(emu_lot_remove(&t, "a", &d), 0);
	cr_assert_eq(t.n, 2);
	cr_assert_null(emu_lot_find(&t, "a"));
	cr_assert_str_eq(t.r[0].name, "b");
	EXPECT_ERR(emu_lot_remove(&t, "a", &d), d, "no region named 'a'");
	diag_clear(&d);
	b.base = 200;
	EXPECT_ERR(emu_lot_add(&t, &b, &d), d, "region 'b'",
		   "already has a region of this name");
}

Test(layout, lot_overlaps)
{
	const sram_geom g = harness_geom(64, 8, 2, 2, 2, 1);
	const uint64_t S[1] = {24}, T[1] = {8};
	emu_lot t;
	diag d;
	emu_lot_init(&t, &g, 0);
	cr_assert_eq(t.cap, EMU_LOT_ENTRIES);
	emu_region a = region("a", 8, 1, S, T);
	a.array0 = 1;
	a.wl = 4;
	diag_clear(&d);
	cr_assert_eq(emu_lot_add(&t, &a, &d), 0, "%s", d.msg);
	emu_region b = region("b", 8, 1, S, T);
	b.base = 8;
	b.wl = 40;
	EXPECT_ERR(emu_lot_add(&t, &b, &d), d, "region 'b'",
		   "addresses 0x8..0x1f overlap region 'a' (0x0..0x17)");
	diag_clear(&d);
	emu_region c = region("c", 8, 1, S, T);
	c.base = 64;
	c.array0 = 3;
	c.wl = 10;
	EXPECT_ERR(emu_lot_add(&t, &c, &d), d, "region 'c'",
		   "shares wordlines 10..11 of arrays 3..3 with region 'a'");
}

Test(layout, region_errors)
{
	const sram_geom g = harness_geom(64, 8, 2, 1, 1, 1); /* 2 arrays of 8 bitlines */
	const uint64_t S[2] = {8, 2}, T[2] = {4, 2};
	emu_region r;
	diag d;
#define REGION_ERR(edit, ...)                                                 \
	do {                                                                  \
		r = region("r", 8, 2, S, T);                                  \
		edit;                                                         \
		EXPECT_ERR(emu_region_check(&r, &g, &d), d, "region 'r'",     \
			   __VA_ARGS__);                                      \
	} while (0)
	r = region("r", 8, 2, S, T);
	cr_assert_eq(emu_region_check(&r, &g, NULL), 0);
	REGION_ERR(r.tile[0] = 3, "tile 3x2x1 has 6 bitlines",
		   "expected a multiple of the 8 bitlines");
	REGION_ERR(r.tile[2] = 2; r.tile[0] = 2, "T_2 = 2; expected 1 beyond");
	REGION_ERR(r.wl = 60, "needs wordlines 60..67",
		   "the arrays have 64");
	REGION_ERR(r.tile[0] = 8; r.tile[1] = 2; r.wl = 50,
		   "needs wordlines 50..65 (2 wordline groups of 8 bits from wl 50)");
	REGION_ERR(r.tile[0] = 2; r.tile[1] = 4; r.array0 = 1,
		   "needs 4 arrays (4x1x1 tiles) from array 1, the machine has 2");
	REGION_ERR(r.width = 33; r.fmt = ISA_FMT_F32,
		   "element width 33 does not fit its format");
	REGION_ERR(r.base = 0x3; r.width = 16, "must start on a 2-byte element boundary");
	REGION_ERR(r.base = (UINT64_C(1) << 48) - 8, "end by 2^48");
	REGION_ERR(r.trans = 3, "transpose state 3");
	r = region("", 8, 2, S, T);
	EXPECT_ERR(emu_region_check(&r, &g, &d), d, "region '': a region needs a name");
	REGION_ERR(r.size[2] = 2, "S_2 = 2; expected 1 beyond");
#undef REGION_ERR
}

Test(layout, printer)
{
	const sram_geom g = sram_geom_default();
	emu_lot t;
	diag d;
	char buf[2048];
	emu_lot_init(&t, &g, 0);
	emu_region a = f32_region("A", 2048, 2048);
	a.tile[0] = a.tile[1] = 16;
	a.trans = EMU_TRANS_DONE;
	diag_clear(&d);
	cr_assert_eq(emu_lot_add(&t, &a, &d), 0, "%s", d.msg);
	const uint64_t S[1] = {1000}, T[1] = {512};
	emu_region v = region("vec", 12, 1, S, T);
	v.base = 0x1000000;
	v.wl = 32;
	cr_assert_eq(emu_lot_add(&t, &v, &d), 0, "%s", d.msg);
	const int n = emu_lot_format(&t, buf, sizeof buf);
	cr_assert_eq((size_t)n, strlen(buf));
	const char *want =
		"Layout Override Table: 2 of 16 regions; 256x256 arrays, 16 arrays/way, "
		"16 ways/bank, 8x8 banks\n"
		"name  base       end        type  dim  size S     tile T  groups  "
		"wordlines  arrays    banks  trans\n"
		"A     0x0        0x1000000  f32   2    2048x2048  16x16   1       "
		"0..31      0..16383  0..63  2 transposed\n"
		"vec   0x1000000  0x10007d0  u12   1    1000       512     2       "
		"32..55     0..1      0..0   0 normal\n";
	cr_assert_str_eq(buf, want);
	/* A short buffer: truncated, NUL-terminated, full length returned. */
	char small[10];
	cr_assert_eq(emu_lot_format(&t, small, sizeof small), n);
	cr_assert_eq(strlen(small), 9);
	FILE *f = tmpfile();
	cr_assert(f);
	cr_assert_eq(emu_lot_print(f, &t), 0);
	rewind(f);
	char back[2048] = "";
	cr_assert_eq(fread(back, 1, sizeof back - 1, f), (size_t)n);
	cr_assert_str_eq(back, want);
	fclose(f);
}

/* ---- tile selection ---- */

static emu_tile_req req(unsigned line, unsigned reduce, unsigned shift,
			unsigned bcast)
{
	emu_tile_req q;
	memset(&q, 0, sizeof q);
	q.line_bytes = line;
	q.hint.reduce = reduce;
	q.hint.shift = shift;
	q.hint.broadcast = bcast;
	return q;
}

#define EXPECT_TILE(r, g, q, t0, t1, t2)                                      \
	do {                                                                  \
		uint64_t T_[3];                                               \
		diag d_;                                                      \
		diag_clear(&d_);                                              \
		cr_assert_eq(emu_tile_select(&(r), &(g), &(q), T_, &d_), 0,  \
			     "%s", d_.msg);                                   \
		cr_assert(T_[0] == (t0) && T_[1] == (t1) && T_[2] == (t2),    \
			  "picked %llux%llux%llu, expected %ux%ux%u",          \
			  (unsigned long long)T_[0], (unsigned long long)T_[1], \
			  (unsigned long long)T_[2], (unsigned)(t0),          \
			  (unsigned)(t1), (unsigned)(t2));                    \
	} while (0)

/* Fig 9: a 4x4 array on 4-bitline arrays, one compute array per bank,
 * shifted along both dimensions: 2x2 tiles, tile 0 in bank 0 and tile 1
 * in bank 1; column 1 of the paper (dimension 0 here) is bitlines 1, 3
 * of tiles 0, 2 (CMD 1: bitline pattern 1:2:2, tile pattern 0:2:2). */
Test(layout, fig9_tiles)
{
	const sram_geom g = harness_geom(8, 4, 1, 1, 2, 2);
	const uint64_t S[2] = {4, 4};
	emu_region r = region("A", 8, 2, S, NULL);
	emu_tile_req q = req(2, 0, 3, 0); /* L = 2 one-byte elements a line */
	EXPECT_TILE(r, g, q, 2, 2, 1);
	r.tile[0] = r.tile[1] = 2;
	cr_assert_eq(emu_region_check(&r, &g, NULL), 0);
	for (uint64_t row = 0; row < 4; row++) {
		uint64_t idx[3] = {1, row, 0};
		emu_loc loc;
		emu_layout_place(&r, &g, idx, &loc);
		cr_assert_eq(loc.tile, row / 2 * 2);
		cr_assert_eq(loc.bitline, 1 + 2 * (row % 2));
	}
	uint64_t idx[3] = {2, 0, 0};
	emu_loc loc;
	emu_layout_place(&r, &g, idx, &loc);
	cr_assert(loc.tile == 1 && loc.bank == 1 && loc.bitline == 0);
	check_mapping(&r, &g);
	/* Shifted along dimension 0 only, whole rows in a tile cross nothing. */
	q = req(2, 0, 1, 0);
	r.tile[0] = r.tile[1] = 1;
	EXPECT_TILE(r, g, q, 4, 1, 1);
}

/* A 2048x2048 fp32 array on the default machine (Table 2): L = 16,
 * A_bank = 256, 16384 tiles of 256 bitlines fill all 16384 arrays. */
Test(layout, default_machine_2048_fp32)
{
	const sram_geom g = sram_geom_default();
	emu_region r = f32_region("A", 2048, 2048);
	emu_tile_req q = req(0, 0, 0, 0);
	cr_assert_eq(emu_layout_line_elems(&r, EMU_LINE_BYTES), 16);
	EXPECT_TILE(r, g, q, 256, 1, 1); /* no hint: the trivial row layout */
	q = req(0, 0, 3, 0);
	EXPECT_TILE(r, g, q, 16, 16, 1); /* shifts: square */
	q = req(0, 2, 0, 0);
	EXPECT_TILE(r, g, q, 1, 256, 1); /* reduce dim 1: tall tiles */
	q = req(0, 1, 0, 0);
	EXPECT_TILE(r, g, q, 256, 1, 1);
	q = req(0, 0, 0, 1);
	EXPECT_TILE(r, g, q, 1, 256, 1); /* broadcast: a row over 8 banks */
	q = req(0, 2, 3, 0);
	EXPECT_TILE(r, g, q, 1, 256, 1); /* reduction wins over shift */
	q = req(0, 0, 3, 3);
	EXPECT_TILE(r, g, q, 16, 16, 1); /* shift wins over broadcast */

	/* Each 64-byte line of the transposed array lies in one bank. */
	const uint64_t tiles[3][2] = {{16, 16}, {256, 1}, {1, 256}};
	for (int t = 0; t < 3; t++) {
		r.tile[0] = tiles[t][0];
		r.tile[1] = tiles[t][1];
		cr_assert_eq(emu_region_check(&r, &g, NULL), 0);
		for (uint64_t i = 0; i < emu_region_elems(&r); i += 16 * 997) {
			uint64_t idx[3];
			emu_loc first, loc;
			emu_region_unflatten(&r, i - i % 16, idx);
			emu_layout_place(&r, &g, idx, &first);
			for (int e = 1; e < 16; e++) {
				idx[0]++;
				emu_layout_place(&r, &g, idx, &loc);
				cr_assert_eq(loc.bank, first.bank);
			}
		}
		uint64_t last[3] = {2047, 2047, 0};
		emu_loc loc;
		emu_layout_place(&r, &g, last, &loc);
		cr_assert(loc.array == 16383 && loc.bank == 63 && loc.bitline == 255 &&
			  loc.wordline == 0);
	}
}

Test(layout, heuristics)
{
	const sram_geom g = sram_geom_default();
	/* 112x3 shifted both ways: 64x4 keeps dimension 1 whole (4 bitlines
	 * in 256 cross a tile per unit shift), 128x2 would cross 128. */
	emu_region r = f32_region("A", 112, 3);
	emu_tile_req q = req(0, 0, 3, 0);
	EXPECT_TILE(r, g, q, 64, 4, 1);
	/* Unhinted: fewest tiles (2), then the longer row. */
	q = req(0, 0, 0, 0);
	EXPECT_TILE(r, g, q, 128, 2, 1);
	/* 3-d, reduced along dimension 2 and shifted along 0 and 1. */
	const uint64_t S3[3] = {64, 64, 64};
	emu_region c = region("C", 32, 3, S3, NULL);
	q = req(0, 4, 3, 0);
	/* T_2 = 64: all 6 rounds (a larger T_2 only pads); then the square
	 * 2x2 for the shifts. */
	EXPECT_TILE(c, g, q, 2, 2, 64);
	q = req(0, 4, 0, 0);
	EXPECT_TILE(c, g, q, 4, 1, 64);
}

Test(layout, selection_errors)
{
	diag d;
	uint64_t T[3];
	/* S_0 not a multiple of the line. */
	const sram_geom g = sram_geom_default();
	emu_region r = f32_region("A", 100, 3);
	emu_tile_req q = req(0, 0, 0, 0);
	EXPECT_ERR(emu_tile_select(&r, &g, &q, T, &d), d, "region 'A'",
		   "S_0 = 100 is not a multiple of L = 16 elements per 64-byte cache line",
		   "pad dimension 0 to 112");

	/* One array of 8 bitlines per bank, one bank, L = 8: only T_0 = 8
	 * passes constraint 2, and it needs 4 arrays. */
	const sram_geom one = harness_geom(64, 8, 1, 1, 1, 1);
	const uint64_t S[2] = {16, 2};
	emu_region s = region("S", 8, 2, S, NULL);
	q = req(8, 0, 0, 0);
	EXPECT_ERR(emu_tile_select(&s, &one, &q, T, &d), d, "region 'S'",
		   "no tile of 8 bitlines is valid",
		   "constraint 2 (T_0 x A_bank mod L = 0, with A_bank = 1 arrays per "
		   "bank and L = 8 elements per 8-byte line) fails for T = 4x2",
		   "the fit rule (the tiles on arrays 0..0 of the machine) fails for "
		   "T = 4x2, 8x1");

	/* Wordlines for the virtual bitline groups. */
	q = req(8, 0, 0, 0);
	q.tile_bitlines = 64;
	s.wl = 10;
	EXPECT_ERR(emu_tile_select(&s, &one, &q, T, &d), d,
		   "needs wordlines 10..73 (8 wordline groups of 8 bits from wl 10)");
	q.tile_bitlines = 24;
	EXPECT_ERR(emu_tile_select(&s, &one, &q, T, &d), d,
		   "tiles of 24 bitlines requested; expected the 8 bitlines of an "
		   "array times a power of two");
	q.tile_bitlines = 0;
	q.line_bytes = 48;
	EXPECT_ERR(emu_tile_select(&s, &one, &q, T, &d), d,
		   "a cache line of 48 bytes; expected a power of two");
}

Test(layout, user_override)
{
	const sram_geom g = sram_geom_default();
	emu_region r = f32_region("A", 2048, 2048);
	emu_tile_req q = req(0, 0, 0, 0);
	diag d;
	const uint64_t good[3] = {32, 8, 1}, prod[3] = {16, 8, 1},
		       dims[3] = {16, 8, 2}, zero[3] = {0, 256, 1};
	diag_clear(&d);
	cr_assert_eq(emu_tile_check(&r, &g, &q, good, &d), 0, "%s", d.msg);
	EXPECT_ERR(emu_tile_check(&r, &g, &q, prod, &d), d, "region 'A'",
		   "tile 16x8x1 breaks constraint 1 (prod T_i = 256 bitlines per "
		   "tile): it has 128 bitlines");
	EXPECT_ERR(emu_tile_check(&r, &g, &q, dims, &d), d,
		   "tile 16x8x2 breaks the dims rule (T_k >= 1, and T_k = 1 beyond "
		   "the 2 dimensions)");
	EXPECT_ERR(emu_tile_check(&r, &g, &q, zero, &d), d, "tile 0x256x1 breaks the dims rule");

	/* Constraint 2 on a machine of 2 arrays per bank: T_0 = 1 gives 2. */
	const sram_geom small = harness_geom(64, 16, 2, 1, 8, 4);
	emu_region s = f32_region("B", 64, 16);
	const uint64_t thin[3] = {1, 16, 1}, fat[3] = {16, 1, 1}, wide[3] = {8, 2, 1};
	EXPECT_ERR(emu_tile_check(&s, &small, &q, thin, &d), d,
		   "tile 1x16x1 breaks constraint 2 (T_0 x A_bank mod L = 0, with "
		   "A_bank = 2 arrays per bank and L = 16 elements per 64-byte "
		   "line): T_0 x A_bank = 2");
	diag_clear(&d);
	cr_assert_eq(emu_tile_check(&s, &small, &q, wide, &d), 0, "%s", d.msg);
	s.size[1] = 32; /* 4 x 32 = 128 tiles of 16x1 on 64 arrays */
	EXPECT_ERR(emu_tile_check(&s, &small, &q, fat, &d), d,
		   "breaks the fit rule (the tiles on arrays 0..63 of the machine): "
		   "it needs 128 arrays");
}

Test(layout, group_shares_primary_tile)
{
	const sram_geom g = sram_geom_default();
	emu_region out = f32_region("out", 2048, 2048);
	emu_region in = f32_region("in", 2048, 2048);
	emu_region w = f32_region("w", 2048, 2048);
	in.base = 1u << 24;
	w.base = 2u << 24;
	emu_region *grp[3] = {&in, &w, &out};
	emu_tile_req q = req(0, 2, 0, 0);
	diag d;
	diag_clear(&d);
	cr_assert_eq(emu_tile_select_group(grp, 3, 2, &g, &q, &d), 0, "%s", d.msg);
	for (int i = 0; i < 3; i++)
		cr_assert(grp[i]->tile[0] == 1 && grp[i]->tile[1] == 256 &&
			  grp[i]->tile[2] == 1);

	/* A bank of 2 arrays of 16 bitlines.  The primary, of 8-byte
	 * elements (L = 8), needs T_0 >= 4 and alone picks 4x4 for its
	 * reduction; a member of f16 (L = 32) needs T_0 >= 16, so the group
	 * gets the best tile valid for both: 16x1. */
	const sram_geom small = harness_geom(64, 16, 2, 1, 8, 8);
	const uint64_t S[2] = {64, 16};
	emu_region a, b;
	emu_region_init(&a, "a", ISA_FMT_INT, 64, 1);
	emu_region_init(&b, "b", ISA_FMT_F16, 16, 1);
	cr_assert_eq(emu_region_shape(&a, 2, S, &d), 0);
	cr_assert_eq(emu_region_shape(&b, 2, S, &d), 0);
	b.base = 1u << 20;
	emu_region *pair[2] = {&a, &b};
	q = req(0, 2, 0, 0);
	cr_assert_eq(emu_tile_select(&a, &small, &q, a.tile, &d), 0, "%s", d.msg);
	cr_assert(a.tile[0] == 4 && a.tile[1] == 4);
	diag_clear(&d);
	cr_assert_eq(emu_tile_select_group(pair, 2, 0, &small, &q, &d), 0, "%s", d.msg);
	cr_assert(a.tile[0] == 16 && a.tile[1] == 1 && b.tile[0] == 16 && b.tile[1] == 1,
		  "group picked %llux%llu", (unsigned long long)a.tile[0],
		  (unsigned long long)a.tile[1]);
	/* With a member that no tile suits, the error names it. */
	emu_region u;
	emu_region_init(&u, "u", ISA_FMT_INT, 8, 0);
	cr_assert_eq(emu_region_shape(&u, 2, S, &d), 0);
	emu_region *bad[2] = {&a, &u};
	EXPECT_ERR(emu_tile_select_group(bad, 2, 0, &small, &q, &d), d,
		   "region 'a': no tile of 16 bitlines is valid for every region of "
		   "the group: for 'a', constraint 2", "for 'u', constraint 2 (T_0 x "
		   "A_bank mod L = 0, with A_bank = 2 arrays per bank and L = 64 "
		   "elements per 64-byte line) fails for T = 1x16, 2x8, 4x4, 8x2, 16x1");

	/* Dimensions must agree; the primary must be in the group. */
	emu_region v;
	emu_region_init(&v, "v", ISA_FMT_F32, 32, 1);
	const uint64_t S1[1] = {64};
	cr_assert_eq(emu_region_shape(&v, 1, S1, &d), 0);
	emu_region *mixed[2] = {&a, &v};
	EXPECT_ERR(emu_tile_select_group(mixed, 2, 0, &small, &q, &d), d,
		   "region 'v': has 1 dimensions and shares the tile of 'a', which has 2");
	EXPECT_ERR(emu_tile_select_group(mixed, 2, 2, &small, &q, &d), d,
		   "expected the primary among them");
}

/* ---- the transpose unit ---- */

/* The cost model recomputed from the mapping alone: the distinct
 * (array, wordline group) pairs that hold an element, width cycles
 * each, summed per bank; the slowest bank decides. */
static uint64_t cycles_by_brute_force(const emu_region *r, const sram_geom *g)
{
	const uint64_t narrays = (uint64_t)g->arrays_per_way * g->ways_per_bank *
				 g->mesh_x * g->mesh_y;
	const uint64_t groups = g->wordlines / r->width + 1;
	uint8_t *used = calloc(narrays * groups, 1);
	uint64_t *bank = calloc(g->mesh_x * g->mesh_y, sizeof *bank), worst = 0;
	cr_assert(used && bank);
	for (uint64_t i = 0; i < emu_region_elems(r); i++) {
		uint64_t idx[3];
		emu_loc loc;
		emu_region_unflatten(r, i, idx);
		emu_layout_place(r, g, idx, &loc);
		uint8_t *u = &used[loc.array * groups + (loc.wordline - r->wl) / r->width];
		if (!*u) {
			*u = 1;
			bank[loc.bank] += r->width;
			if (bank[loc.bank] > worst)
				worst = bank[loc.bank];
		}
	}
	free(used);
	free(bank);
	return worst;
}

static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Store random values, check every cell against the mapping (and that
 * no other cell changed), load them back, and read/write single
 * elements. */
static void check_transpose(sram_machine *m, emu_region r, uint64_t seed)
{
	const uint64_t n = emu_region_elems(&r), mask = isa_mask(r.width);
	uint64_t *v = malloc(n * sizeof *v), *back = malloc(n * sizeof *back);
	sram_machine *before = sram_new(&m->g);
	cr_assert(v && back && before);
	for (unsigned a = 0; a < m->narrays; a++)
		for (unsigned wl = 0; wl < m->g.wordlines; wl++)
			for (unsigned bl = 0; bl < m->g.bitlines; bl++)
				sram_set_bit(m, a, wl, bl, next_rand(&seed) & 1);
	sram_copy_state(before, m);
	for (uint64_t i = 0; i < n; i++)
		v[i] = next_rand(&seed); /* high bits must be dropped */
	const uint64_t cyc = emu_layout_store(m, &r, v);
	cr_assert_eq(r.trans, EMU_TRANS_DONE);
	cr_assert_eq(cyc, cycles_by_brute_force(&r, &m->g), "%s: %llu cycles", r.name,
		     (unsigned long long)cyc);
	for (unsigned a = 0; a < m->narrays; a++)
		for (unsigned wl = 0; wl < m->g.wordlines; wl++)
			for (unsigned bl = 0; bl < m->g.bitlines; bl++) {
				uint64_t idx[3];
				unsigned bit;
				bool want = sram_get_bit(before, a, wl, bl);
				if (emu_layout_element_at(&r, &m->g, a, bl, wl, idx, &bit))
					want = v[emu_region_flatten(&r, idx)] >> bit & 1;
				cr_assert_eq(sram_get_bit(m, a, wl, bl), want,
					     "%s: cell (%u, %u, %u)", r.name, a, wl, bl);
			}
	cr_assert_eq(emu_layout_load(m, &r, back), cyc);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t idx[3];
		emu_region_unflatten(&r, i, idx);
		cr_assert_eq(back[i], v[i] & mask, "%s: element %llu", r.name,
			     (unsigned long long)i);
		cr_assert_eq(emu_layout_elem_get(m, &r, idx), v[i] & mask);
		emu_layout_elem_set(m, &r, idx, ~v[i]);
	}
	emu_layout_load(m, &r, back);
	for (uint64_t i = 0; i < n; i++)
		cr_assert_eq(back[i], ~v[i] & mask);
	sram_free(before);
	free(v);
	free(back);
}

Test(layout, transpose_round_trips)
{
	const sram_geom g = harness_geom(128, 8, 2, 2, 2, 1); /* 8 arrays, 4 per bank */
	sram_machine *m = sram_new(&g);
	cr_assert(m);
	static const struct { unsigned width, nd; uint64_t S[3], T[3]; unsigned wl, a0; } cs[] = {
		{7, 1, {29, 1, 1}, {8, 1, 1}, 3, 0},      /* 1-d, partial last tile */
		{5, 1, {40, 1, 1}, {32, 1, 1}, 1, 0},     /* virtual bitlines */
		{9, 2, {6, 5, 1}, {4, 2, 1}, 0, 1},       /* 2-d, ragged both ways */
		{6, 2, {6, 5, 1}, {4, 4, 1}, 10, 2},      /* 2-d virtual, partial */
		{33, 2, {3, 7, 1}, {1, 8, 1}, 20, 0},     /* non-square, 33 bits */
		{4, 3, {3, 4, 4}, {2, 2, 2}, 2, 0},       /* 3-d */
		{64, 3, {4, 2, 6}, {2, 2, 4}, 0, 3},      /* 3-d virtual, 64 bits */
	};
	for (size_t i = 0; i < sizeof cs / sizeof *cs; i++) {
		emu_region r = region("t", cs[i].width, cs[i].nd, cs[i].S, cs[i].T);
		r.wl = (uint16_t)cs[i].wl;
		r.array0 = cs[i].a0;
		diag d;
		diag_clear(&d);
		cr_assert_eq(emu_region_check(&r, &g, &d), 0, "case %zu: %s", i, d.msg);
		check_transpose(m, r, 0x9e3779b97f4a7c15ull + i);
	}
	sram_free(m);
}

/* The transpose unit's data path, cell by cell against sram_get_bit:
 * runs that start and end inside a word, cross words, fill whole words,
 * on machines of 256 bitlines and of 32 (a row shorter than a word);
 * widths 1 to 64.  The cells around each run keep their bits. */
static void ttu_runs(unsigned bitlines)
{
	const sram_geom g = harness_geom(128, bitlines, 2, 1, 1, 1);
	sram_machine *m = sram_new(&g);
	cr_assert(m);
	static const struct { unsigned wl0, width, first, len; } cs[] = {
		{0, 1, 0, 32}, {3, 7, 5, 3}, {10, 13, 20, 12}, {0, 64, 31, 1},
		{0, 1, 0, 256}, {10, 13, 60, 9}, {0, 32, 0, 64}, {12, 33, 1, 190},
		{16, 64, 64, 192}, {5, 64, 255, 1}, {70, 10, 63, 2}, {1, 17, 200, 56},
	};
	uint64_t v[256], back[256];
	uint64_t x = 0x2545f4914f6cdd1dull;
	for (size_t c = 0; c < sizeof cs / sizeof *cs; c++) {
		if (cs[c].first + cs[c].len > bitlines)
			continue;
		for (unsigned a = 0; a < m->narrays; a++) /* a known background */
			for (unsigned wl = 0; wl < g.wordlines; wl++)
				for (unsigned bl = 0; bl < g.bitlines; bl++)
					sram_set_bit(m, a, wl, bl, (a + wl * 3 + bl * 7) % 5 < 2);
		for (unsigned j = 0; j < cs[c].len; j++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			v[j] = x; /* bits above the width must be ignored */
		}
		emu_ttu_put(m, 1, cs[c].wl0, cs[c].width, cs[c].first, v, cs[c].len);
		for (unsigned a = 0; a < m->narrays; a++)
			for (unsigned wl = 0; wl < g.wordlines; wl++)
				for (unsigned bl = 0; bl < g.bitlines; bl++) {
					bool want = (a + wl * 3 + bl * 7) % 5 < 2;
					if (a == 1 && wl >= cs[c].wl0 && wl < cs[c].wl0 + cs[c].width &&
					    bl >= cs[c].first && bl < cs[c].first + cs[c].len)
						want = v[bl - cs[c].first] >> (wl - cs[c].wl0) & 1;
					cr_assert_eq(sram_get_bit(m, a, wl, bl), want,
						     "case %zu: array %u wordline %u bitline %u", c, a, wl, bl);
				}
		emu_ttu_get(m, 1, cs[c].wl0, cs[c].width, cs[c].first, back, cs[c].len);
		for (unsigned j = 0; j < cs[c].len; j++)
			cr_assert_eq(back[j], v[j] & isa_mask(cs[c].width), "case %zu: element %u", c, j);
	}
	sram_free(m);
}

Test(layout, ttu_runs_cell_by_cell)
{
	ttu_runs(256);
	ttu_runs(32);
}

/* The cost formula by hand: width cycles per (array, wordline group)
 * holding data, a bank's arrays in turn, banks in parallel. */
Test(layout, transpose_cycle_formula)
{
	const sram_geom g4 = harness_geom(64, 8, 2, 2, 2, 1); /* 4 arrays per bank */
	const sram_geom g1 = harness_geom(64, 8, 1, 1, 4, 2); /* 1 array per bank */
	/* Full tiles: n x groups x min(tiles, arrays per bank). */
	const uint64_t S1[1] = {64}, T8[1] = {8}, T16[1] = {16};
	emu_region r = region("r", 6, 1, S1, T8);
	cr_assert_eq(emu_layout_ttu_cycles(&r, &g4), 6 * 1 * 4); /* 8 tiles, 2 banks */
	cr_assert_eq(emu_layout_ttu_cycles(&r, &g1), 6 * 1 * 1);
	r = region("r", 6, 1, S1, T16);
	cr_assert_eq(emu_layout_ttu_cycles(&r, &g4), 6 * 2 * 4); /* 4 tiles, 1 bank */
	cr_assert_eq(emu_layout_ttu_cycles(&r, &g1), 6 * 2 * 1);
	/* 1-d, 20 elements in 16-bitline tiles: 2 groups + 1 group. */
	const uint64_t S20[1] = {20};
	r = region("r", 4, 1, S20, T16);
	cr_assert_eq(emu_layout_ttu_cycles(&r, &g4), 4 * 3);
	cr_assert_eq(emu_layout_ttu_cycles(&r, &g1), 4 * 2);
	/* 6x5 in 4x4 tiles of 16 bitlines: rows 0-1 of a tile are group 0,
	 * rows 2-3 group 1; the tiles of grid row 1 hold one row each. */
	const uint64_t S2[2] = {6, 5}, T44[2] = {4, 4};
	r = region("r", 3, 2, S2, T44);
	cr_assert_eq(emu_layout_ttu_cycles(&r, &g4), 3 * (2 + 2 + 1 + 1));
	cr_assert_eq(emu_layout_ttu_cycles(&r, &g1), 3 * 2);
	/* Starting at array 3 of a 4-array bank: tile 0 alone in bank 0. */
	r.array0 = 3;
	cr_assert_eq(emu_layout_ttu_cycles(&r, &g4), 3 * (2 + 1 + 1));
}
