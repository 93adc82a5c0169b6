/* SPDX-License-Identifier: MIT */
/*
 * layout.h: the tiled transposed layout of N-d arrays (prefix emu_),
 * infinity-stream §4.1 (tiling), §5.2 (the Layout Override Table) and
 * Table 1.  doc/LAYOUT.md explains every rule here with examples.
 *
 *   emu_region    one LOT entry: an array of up to 3 dimensions (higher
 *                 ones fused into the third), its element type, tile
 *                 sizes, first wordline and transpose state.
 *   emu_lot       the table: add, find, remove, overlap checks, printer.
 *   emu_layout_*  element index <-> (bank, way, array, bitline, wordline).
 *   emu_tile_*    tile selection under the §4.1 constraints and hints.
 *   emu_layout_store/load: the transpose unit for whole regions.
 *
 * Dimensions are numbered innermost first: dimension 0 is contiguous in
 * memory (§4.1 constraint 2 and the artifact's patterns).  Element
 * (i0, i1, i2) is element i0 + S0 * (i1 + S1 * i2) of the plain array,
 * the row-major A[S2][S1][S0] of C.
 *
 * Mapping.  Tile (t0, t1, t2) = (i0 / T0, i1 / T1, i2 / T2) is tile
 * number t = t0 + n0 * (t1 + n1 * t2) (n_k = ceil(S_k / T_k): the
 * innermost dimension's tiles first), held by global array array0 + t:
 * tiles fill the arrays of a way, then the ways of a bank, then banks
 * (sram.h's array numbering).  Inside the tile, element offset
 * (o0, o1, o2) = (i_k mod T_k) is tile bitline b = o0 + T0 * (o1 + T1 * o2).
 * A tile of more than B bitlines uses virtual bitlines, as the published
 * artifact does: tile bitline b is physical bitline b mod B, its bits at
 * wordlines wl + (b / B) * width + k.
 */
#ifndef INFSIM_LAYOUT_H
#define INFSIM_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "api.h"
#include "diag.h"
#include "isa.h"
#include "sram.h"

INFSIM_BEGIN_DECLS

#define EMU_LAYOUT_DIMS 3      /* the LOT's dimensions (Table 1: dim, 2 bits) */
#define EMU_LAYOUT_SHAPE_MAX 8 /* dimensions emu_region_shape can fuse */
#define EMU_LOT_ENTRIES 16     /* Table 2: the LOT holds 16 regions */
#define EMU_LOT_MAX 64         /* the most any emu_lot can be given */
#define EMU_LINE_BYTES 64      /* cache line of Table 2's L3 */
#define EMU_REGION_NAME_MAX 64

/* Table 1 field widths: addresses, sizes, tiles and the wordline. */
#define EMU_LOT_ADDR_BITS 48
#define EMU_LOT_SIZE_BITS 32
#define EMU_LOT_WL_BITS 10

/* The trans field (§5.2): how the data is held right now. */
typedef enum emu_trans {
	EMU_TRANS_NONE = 0, /* normal layout; in-memory computing not ready */
	EMU_TRANS_BUSY = 1, /* being transposed: core requests are blocked */
	EMU_TRANS_DONE = 2, /* transposed: commands may run on it */
} emu_trans;

/* A box [lo_k, hi_k) per dimension, innermost first: a hyperrectangle of
 * a region's elements (a tensor move's elements, a tDFG node's domain). */
typedef struct emu_box {
	uint64_t lo[EMU_LAYOUT_DIMS], hi[EMU_LAYOUT_DIMS];
} emu_box;

/* One LOT entry.  Sizes and tiles of dimensions >= ndims are 1. */
typedef struct emu_region {
	char name[EMU_REGION_NAME_MAX];
	uint64_t base;        /* physical byte address of element 0 */
	uint8_t fmt;          /* enum isa_fmt */
	uint8_t width;        /* bits per element = wordlines per element */
	uint8_t is_signed;
	uint8_t ndims;        /* 1..3 */
	uint8_t trans;        /* enum emu_trans */
	uint8_t shared;       /* a stream's `shared` tensor: it may share
			       * wordlines with other shared regions */
	uint16_t wl;          /* first wordline */
	uint32_t array0;      /* global array of tile 0 (infsim: not in Table 1) */
	uint64_t size[EMU_LAYOUT_DIMS]; /* S_i */
	uint64_t tile[EMU_LAYOUT_DIMS]; /* T_i */
	const char *path;     /* where it was declared, for messages (may be NULL) */
	int line, col;
} emu_region;

/* A region named name of one element type, 1-d of one element, tile 1,
 * base 0, wordline 0, array 0, not transposed.  fmt, width and is_signed
 * as in isa_cmd; emu_region_check validates them. */
void emu_region_init(emu_region *r, const char *name, unsigned fmt,
		     unsigned width, unsigned is_signed);
/* Set the shape from nd sizes, innermost first (1 <= nd <= 8).
 * Dimensions 2..nd-1 are fused into dimension 2: S2' = S2 * S3 * ...,
 * and index i2' = i2 + S2 * (i3 + S3 * ...), which is the row-major
 * linearisation, so no element moves in memory.  Tiles are reset to 1.
 * 0, or -1 with d set (a size of 0, or a fused size beyond 32 bits). */
int emu_region_shape(emu_region *r, unsigned nd, const uint64_t *sizes, diag *d);

/* Derived quantities. */
unsigned emu_region_elem_bytes(const emu_region *r); /* 1, 2, 4 or 8 */
uint64_t emu_region_elems(const emu_region *r);      /* prod S_i */
uint64_t emu_region_end(const emu_region *r);        /* base + bytes */
uint64_t emu_region_tile_bitlines(const emu_region *r); /* prod T_i */
/* Tiles along each dimension (n_k = ceil(S_k / T_k)) and in all. */
void emu_region_grid(const emu_region *r, uint64_t n[EMU_LAYOUT_DIMS]);
uint64_t emu_region_tiles(const emu_region *r);
/* Wordline groups of a tile (1, or prod T / B with virtual bitlines)
 * and the wordlines the region occupies in each of its arrays. */
uint64_t emu_region_groups(const emu_region *r, const sram_geom *g);
uint64_t emu_region_rows(const emu_region *r, const sram_geom *g);
/* Linear element number <-> index. */
uint64_t emu_region_flatten(const emu_region *r, const uint64_t idx[EMU_LAYOUT_DIMS]);
void emu_region_unflatten(const emu_region *r, uint64_t i, uint64_t idx[EMU_LAYOUT_DIMS]);

/* Can r be laid out on g as it stands: type, Table 1 field ranges, tile
 * bitlines a multiple of B, wordlines and arrays inside the machine?
 * (The §4.1 line constraints are emu_tile_check's.)  0, or -1 with d. */
int emu_region_check(const emu_region *r, const sram_geom *g, diag *d);

/* ---- the Layout Override Table (Table 1, §5.2) ---- */

typedef struct emu_lot {
	sram_geom g;
	size_t n, cap;
	emu_region r[EMU_LOT_MAX];
} emu_lot;

/* An empty table for machine g holding up to capacity regions (0 means
 * EMU_LOT_ENTRIES; at most EMU_LOT_MAX). */
void emu_lot_init(emu_lot *t, const sram_geom *g, size_t capacity);
/* Add a copy of r after emu_region_check and the table's own checks: a
 * unique name, room in the table, no address range shared with another
 * region, and no wordline of an array shared with another region.
 * 0, or -1 with d set naming both regions. */
int emu_lot_add(emu_lot *t, const emu_region *r, diag *d);
emu_region *emu_lot_find(emu_lot *t, const char *name);
/* The region whose address range holds addr, NULL if none. */
emu_region *emu_lot_find_addr(emu_lot *t, uint64_t addr);
/* Remove by name: 0, or -1 if there is none (d set). */
int emu_lot_remove(emu_lot *t, const char *name, diag *d);
/* Physical address addr -> its region and element index (§5.2: "the
 * physical address is subtracted by base and divided by size").  0, or
 * -1 with d when no region holds addr or addr is inside an element. */
int emu_lot_locate_addr(emu_lot *t, uint64_t addr, emu_region **r,
			uint64_t idx[EMU_LAYOUT_DIMS], diag *d);

/* The table as text, one region a line with aligned columns (doc/LAYOUT.md
 * shows it).  format: snprintf semantics (returns the full length);
 * print: to a stream, returns 0 or -1 on a write error. */
int emu_lot_format(const emu_lot *t, char *buf, size_t size);
int emu_lot_print(FILE *f, const emu_lot *t);
/* r's tile map: one line for the region (sizes, tiles, wordlines), then
 * one a tile: its coordinates, its array as (bank, way, array) and the
 * elements it holds.  0, or -1 on a write error. */
int emu_layout_print_tiles(FILE *f, const emu_region *r, const sram_geom *g);

/* ---- element index <-> SRAM cell ---- */

typedef struct emu_loc {
	unsigned array;        /* global array number (sram.h) */
	unsigned bank, way, array_in_way; /* way is the way within the bank */
	unsigned bitline;      /* physical bitline */
	unsigned wordline;     /* wordline of bit 0; bit k at wordline + k */
	uint64_t tile;         /* tile number inside the region */
	uint64_t tile_bitline; /* bitline inside the tile (virtual if >= B) */
} emu_loc;

/* Where element idx lives.  r must have passed emu_region_check on g.
 * place: no checks (inner loops); locate: -1 with d if idx is outside. */
void emu_layout_place(const emu_region *r, const sram_geom *g,
		      const uint64_t idx[EMU_LAYOUT_DIMS], emu_loc *loc);
int emu_layout_locate(const emu_region *r, const sram_geom *g,
		      const uint64_t idx[EMU_LAYOUT_DIMS], emu_loc *loc, diag *d);
/* The reverse: does cell (array, bitline, wordline) hold a bit of an
 * element of r?  If so, its index and *bit (0 = LSB).  False for cells
 * of other arrays or wordlines, and for the unused bitlines of boundary
 * tiles. */
bool emu_layout_element_at(const emu_region *r, const sram_geom *g,
			   unsigned array, unsigned bitline, unsigned wordline,
			   uint64_t idx[EMU_LAYOUT_DIMS], unsigned *bit);

/* ---- tile selection (§4.1) ---- */

/* A computation's data movement, the configuration's layout hints
 * (§3.3, §4.1): bit k set = along dimension k. */
typedef struct emu_compute {
	unsigned reduce, shift, broadcast;
} emu_compute;

typedef struct emu_tile_req {
	unsigned line_bytes;    /* cache line; 0 means EMU_LINE_BYTES */
	uint64_t tile_bitlines; /* 0 means B; B * 2^j gives virtual bitlines */
	emu_compute hint;
} emu_tile_req;

/* L of §4.1: elements per cache line, line_bytes / element bytes (at
 * least 1). */
unsigned emu_layout_line_elems(const emu_region *r, unsigned line_bytes);

/* Is tile T valid for r under q: (1) prod T_i = tile bitlines, (2)
 * T_0 * A_bank mod L = 0 with A_bank the compute arrays of a bank, plus
 * S_0 mod L = 0, T_k = 1 beyond ndims, and the tiles fitting the
 * machine.  0, or -1 with d giving the failed rule and its numbers. */
int emu_tile_check(const emu_region *r, const sram_geom *g,
		   const emu_tile_req *q, const uint64_t T[EMU_LAYOUT_DIMS], diag *d);
/* A tile given by hand (a tensor's or a tDFG region's tile=): a tile of
 * a whole array (or of virtual bitlines) obeys every rule a chosen one
 * does (emu_tile_check: constraints 1 and 2, the line rule, the fit);
 * a tile on the first P bitlines of its array, P a proper divisor of B
 * (Fig 9's 2x2 tiles on 4-bitline arrays), needs only to be a valid
 * region (emu_region_check); so does any tile on a machine whose bank has
 * fewer bitlines than a cache line has elements (no tile keeps a line in
 * one bank there).  r->tile holds the tile.  0, or -1 with d. */
int emu_tile_check_given(const emu_region *r, const sram_geom *g,
			 const emu_tile_req *q, diag *d);
/* Pick the best valid tile for r (heuristics of §4.1, doc/LAYOUT.md),
 * into T.  0, or -1 with d saying which constraint failed for which
 * candidates. */
int emu_tile_select(const emu_region *r, const sram_geom *g,
		    const emu_tile_req *q, uint64_t T[EMU_LAYOUT_DIMS], diag *d);
/* The arrays of one computation share the tile of the primary one (the
 * output or reduced array, §4.1): the best tile for rs[primary] among
 * those valid for every rs[i]; written into every rs[i]->tile. */
int emu_tile_select_group(emu_region *const *rs, size_t n, size_t primary,
			  const sram_geom *g, const emu_tile_req *q, diag *d);

/* ---- the transpose unit for regions ---- */

/* Scatter values (the plain array, element (i0,i1,i2) at
 * i0 + S0 * (i1 + S1 * i2), each an n-bit pattern in its low bits) into
 * r's cells, and set r->trans = EMU_TRANS_DONE; gather them back.  Both
 * return the transpose unit's cycles (emu_layout_ttu_cycles).  Unused
 * bitlines of boundary tiles are not touched. */
uint64_t emu_layout_store(sram_machine *m, emu_region *r, const uint64_t *values);
uint64_t emu_layout_load(const sram_machine *m, const emu_region *r, uint64_t *values);
/* The elements of box b (inside r) gathered into values, row-major over
 * the box, without charging the transpose unit (the checks' port): what
 * a check reads when it needs part of a region, not all of it.  A whole
 * tile is read as one run of the transpose unit. */
void emu_layout_load_box(const sram_machine *m, const emu_region *r, const emu_box *b,
			 uint64_t *values);
/* Tile o of r (o its first element, a multiple of the tile) into values,
 * row-major over the tile (room for prod T_i elements), through the
 * checks' port as emu_layout_load_box: true.  Of a tile the region's edge
 * cuts, only the places of elements inside the region are meaningful.
 * false, with values untouched, for a tile wider than an array (several
 * wordline groups), which emu_layout_load_box reads. */
bool emu_layout_load_tile(const sram_machine *m, const emu_region *r,
			  const uint64_t o[EMU_LAYOUT_DIMS], uint64_t *values);
/* Cycles of moving r in or out: one wordline write (or read) per cycle
 * per array, the arrays of a bank one after another, banks in parallel
 * (the model of emu_ttu_store, doc/MACHINE.md).  A tile costs width
 * cycles per wordline group holding any of its elements. */
uint64_t emu_layout_ttu_cycles(const emu_region *r, const sram_geom *g);
/* One element through the array's normal port (the debugger, near-memory
 * streams); idx must be inside r. */
uint64_t emu_layout_elem_get(const sram_machine *m, const emu_region *r,
			     const uint64_t idx[EMU_LAYOUT_DIMS]);
void emu_layout_elem_set(sram_machine *m, const emu_region *r,
			 const uint64_t idx[EMU_LAYOUT_DIMS], uint64_t v);

INFSIM_END_DECLS

#endif
