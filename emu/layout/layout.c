/* SPDX-License-Identifier: MIT */
/*
 * layout.c: the tiled transposed layout; see layout.h and doc/LAYOUT.md.
 */
#include "layout.h"
#include "transpose.h"
#include "text.h"

#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#define LIMIT32 UINT64_C(0xffffffff)
#define ADDR_LIMIT (UINT64_C(1) << EMU_LOT_ADDR_BITS)

/* "PATH:LINE:COL: error: region 'NAME': WHAT". */
static void region_err(diag *d, const emu_region *r, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void region_err(diag *d, const emu_region *r, const char *fmt, ...)
{
	char what[DIAG_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	diag_at(d, r->path ? r->path : "layout", r->line, r->col, "region '%s': %s",
		r->name, what);
}

/* a * b, or UINT64_MAX when it does not fit. */
static uint64_t mul_sat(uint64_t a, uint64_t b)
{
	if (a && b > UINT64_MAX / a)
		return UINT64_MAX;
	return a * b;
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static bool is_pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

static unsigned log2_floor(uint64_t x)
{
	unsigned k = 0;
	while (x >>= 1)
		k++;
	return k;
}

static unsigned log2_ceil(uint64_t x)
{
	return x <= 1 ? 0 : log2_floor(x - 1) + 1;
}

/* Compute arrays of one bank: the W of §4.1's constraint 2. */
static uint64_t arrays_per_bank(const sram_geom *g)
{
	return (uint64_t)g->arrays_per_way * g->ways_per_bank;
}

static uint64_t machine_arrays(const sram_geom *g)
{
	return arrays_per_bank(g) * g->mesh_x * g->mesh_y;
}

/* ---- regions ---- */

void emu_region_init(emu_region *r, const char *name, unsigned fmt,
		     unsigned width, unsigned is_signed)
{
	memset(r, 0, sizeof *r);
	text_copy(r->name, sizeof r->name, name);
	r->fmt = (uint8_t)fmt;
	r->width = (uint8_t)width;
	r->is_signed = (uint8_t)is_signed;
	r->ndims = 1;
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++)
		r->size[k] = r->tile[k] = 1;
}

int emu_region_shape(emu_region *r, unsigned nd, const uint64_t *sizes, diag *d)
{
	uint64_t s[EMU_LAYOUT_DIMS] = {1, 1, 1};
	if (nd < 1 || nd > EMU_LAYOUT_SHAPE_MAX) {
		region_err(d, r, "%u dimensions; expected 1 to %d (dimensions 2 "
			   "and up are fused into dimension 2)", nd, EMU_LAYOUT_SHAPE_MAX);
		return -1;
	}
	for (unsigned k = 0; k < nd; k++) {
		const unsigned into = k < EMU_LAYOUT_DIMS ? k : EMU_LAYOUT_DIMS - 1;
		if (sizes[k] == 0) {
			region_err(d, r, "dimension %u has size 0; expected at least 1", k);
			return -1;
		}
		if (mul_sat(s[into], sizes[k]) > LIMIT32) {
			region_err(d, r, "dimension %u%s has more than %" PRIu64 " elements "
				   "(Table 1 gives S_i %d bits)", into,
				   nd > EMU_LAYOUT_DIMS ? " (fused)" : "", LIMIT32,
				   EMU_LOT_SIZE_BITS);
			return -1;
		}
		s[into] *= sizes[k];
	}
	r->ndims = (uint8_t)(nd < EMU_LAYOUT_DIMS ? nd : EMU_LAYOUT_DIMS);
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++) {
		r->size[k] = s[k];
		r->tile[k] = 1;
	}
	return 0;
}

unsigned emu_region_elem_bytes(const emu_region *r)
{
	return r->width <= 8 ? 1 : r->width <= 16 ? 2 : r->width <= 32 ? 4 : 8;
}

uint64_t emu_region_elems(const emu_region *r)
{
	return mul_sat(mul_sat(r->size[0], r->size[1]), r->size[2]);
}

uint64_t emu_region_end(const emu_region *r)
{
	const uint64_t bytes = mul_sat(emu_region_elems(r), emu_region_elem_bytes(r));
	return bytes > UINT64_MAX - r->base ? UINT64_MAX : r->base + bytes;
}

uint64_t emu_region_tile_bitlines(const emu_region *r)
{
	return mul_sat(mul_sat(r->tile[0], r->tile[1]), r->tile[2]);
}

void emu_region_grid(const emu_region *r, uint64_t n[EMU_LAYOUT_DIMS])
{
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++)
		n[k] = r->tile[k] ? (r->size[k] + r->tile[k] - 1) / r->tile[k] : 0;
}

uint64_t emu_region_tiles(const emu_region *r)
{
	uint64_t n[EMU_LAYOUT_DIMS];
	emu_region_grid(r, n);
	return mul_sat(mul_sat(n[0], n[1]), n[2]);
}

uint64_t emu_region_groups(const emu_region *r, const sram_geom *g)
{
	const uint64_t tb = emu_region_tile_bitlines(r);
	return tb <= g->bitlines ? 1 : tb / g->bitlines;
}

uint64_t emu_region_rows(const emu_region *r, const sram_geom *g)
{
	return mul_sat(emu_region_groups(r, g), r->width);
}

uint64_t emu_region_flatten(const emu_region *r, const uint64_t idx[EMU_LAYOUT_DIMS])
{
	return idx[0] + r->size[0] * (idx[1] + r->size[1] * idx[2]);
}

void emu_region_unflatten(const emu_region *r, uint64_t i, uint64_t idx[EMU_LAYOUT_DIMS])
{
	idx[0] = i % r->size[0];
	i /= r->size[0];
	idx[1] = i % r->size[1];
	idx[2] = i / r->size[1];
}

/* The element type: a format of isa.h with a width it allows. */
static int check_type(const emu_region *r, diag *d)
{
	const isa_fpfmt *ff = isa_fpfmt_of(r->fmt);
	if (r->fmt >= ISA_FMT_COUNT) {
		region_err(d, r, "unknown element format %u", r->fmt);
		return -1;
	}
	if (r->width < 1 || r->width > ISA_MAX_WIDTH ||
	    (ff && r->width != ff->width) ||
	    (r->fmt == ISA_FMT_FIX && r->width <= ISA_FIX_INT)) {
		region_err(d, r, "element width %u does not fit its format; expected %s",
			   r->width, ff ? "the format's own width" :
			   r->fmt == ISA_FMT_FIX ? "4 to 64 bits" : "1 to 64 bits");
		return -1;
	}
	return 0;
}

/* Shape, Table 1 field ranges and addresses: what does not depend on the
 * tile or the machine. */
static int check_shape(const emu_region *r, diag *d)
{
	if (!r->name[0]) {
		region_err(d, r, "a region needs a name");
		return -1;
	}
	if (check_type(r, d))
		return -1;
	if (r->ndims < 1 || r->ndims > EMU_LAYOUT_DIMS) {
		region_err(d, r, "%u dimensions; expected 1 to %d (fuse higher ones "
			   "with emu_region_shape)", r->ndims, EMU_LAYOUT_DIMS);
		return -1;
	}
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++) {
		if (r->size[k] < 1 || r->size[k] > LIMIT32 ||
		    (k >= r->ndims && r->size[k] != 1)) {
			region_err(d, r, "S_%u = %" PRIu64 "; expected 1%s", k, r->size[k],
				   k < r->ndims ? " to 4294967295 (32 bits, Table 1)"
						: " beyond the region's dimensions");
			return -1;
		}
	}
	if (r->base % emu_region_elem_bytes(r) || emu_region_end(r) > ADDR_LIMIT) {
		region_err(d, r, "addresses 0x%" PRIx64 "..0x%" PRIx64 " must start on a "
			   "%u-byte element boundary and end by 2^%d (Table 1's base "
			   "and end have %d bits)", r->base, emu_region_end(r) - 1,
			   emu_region_elem_bytes(r), EMU_LOT_ADDR_BITS, EMU_LOT_ADDR_BITS);
		return -1;
	}
	if (r->trans > EMU_TRANS_DONE) {
		region_err(d, r, "transpose state %u; expected 0, 1 or 2", r->trans);
		return -1;
	}
	return 0;
}

static int check_geom(const emu_region *r, const sram_geom *g, diag *d)
{
	if (!g->wordlines || !g->arrays_per_way || !g->ways_per_bank ||
	    !g->mesh_x || !g->mesh_y) {
		region_err(d, r, "the machine has no arrays (a size of 0 in its geometry)");
		return -1;
	}
	if (!is_pow2(g->bitlines)) {
		region_err(d, r, "arrays of %u bitlines; expected a power of two",
			   g->bitlines);
		return -1;
	}
	return 0;
}

/* Wordlines wl .. wl + groups * width - 1 inside the array. */
static int check_rows(const emu_region *r, const sram_geom *g, uint64_t groups,
		      diag *d)
{
	const uint64_t rows = mul_sat(groups, r->width);
	if (r->wl + rows > g->wordlines) {
		region_err(d, r, "needs wordlines %u..%" PRIu64 " (%" PRIu64 " wordline "
			   "group%s of %u bits from wl %u), the arrays have %u", r->wl,
			   r->wl + rows - 1, groups, groups == 1 ? "" : "s", r->width,
			   r->wl, g->wordlines);
		return -1;
	}
	return 0;
}

static int check_arrays(const emu_region *r, const sram_geom *g, diag *d)
{
	uint64_t n[EMU_LAYOUT_DIMS];
	emu_region_grid(r, n);
	const uint64_t need = emu_region_tiles(r), have = machine_arrays(g);
	if (need > have || r->array0 > have - need) {
		region_err(d, r, "needs %" PRIu64 " arrays (%" PRIu64 "x%" PRIu64 "x%"
			   PRIu64 " tiles) from array %u, the machine has %" PRIu64
			   " (%ux%u banks x %u ways x %u arrays)", need, n[0], n[1], n[2],
			   r->array0, have, g->mesh_x, g->mesh_y, g->ways_per_bank,
			   g->arrays_per_way);
		return -1;
	}
	return 0;
}

int emu_region_check(const emu_region *r, const sram_geom *g, diag *d)
{
	if (check_shape(r, d) || check_geom(r, g, d))
		return -1;
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++) {
		if (r->tile[k] < 1 || r->tile[k] > LIMIT32 ||
		    (k >= r->ndims && r->tile[k] != 1)) {
			region_err(d, r, "T_%u = %" PRIu64 "; expected 1%s", k, r->tile[k],
				   k < r->ndims ? " to 4294967295 (32 bits, Table 1)"
						: " beyond the region's dimensions");
			return -1;
		}
	}
	/* A tile fills whole arrays (§4.1), or, as Fig 9 draws it, holds the
	 * first P bitlines of one array, P a divisor of B. */
	const uint64_t tb = emu_region_tile_bitlines(r);
	if (tb % g->bitlines && (tb > g->bitlines || g->bitlines % tb)) {
		region_err(d, r, "tile %" PRIu64 "x%" PRIu64 "x%" PRIu64 " has %" PRIu64
			   " bitlines; a tile fills whole arrays, so expected a multiple "
			   "of the %u bitlines of an array (or a divisor of it: a tile on "
			   "the array's first bitlines)", r->tile[0], r->tile[1],
			   r->tile[2], tb, g->bitlines);
		return -1;
	}
	const uint64_t groups = tb > g->bitlines ? tb / g->bitlines : 1;
	return check_rows(r, g, groups, d) || check_arrays(r, g, d) ? -1 : 0;
}

/* ---- the table ---- */

void emu_lot_init(emu_lot *t, const sram_geom *g, size_t capacity)
{
	t->g = *g;
	t->n = 0;
	t->cap = capacity == 0 ? EMU_LOT_ENTRIES
		 : capacity > EMU_LOT_MAX ? EMU_LOT_MAX : capacity;
}

/* Do two regions share addresses, or wordlines of one array? */
static int check_overlap(const emu_lot *t, const emu_region *r,
			 const emu_region *o, diag *d)
{
	if (r->base < emu_region_end(o) && o->base < emu_region_end(r)) {
		region_err(d, r, "addresses 0x%" PRIx64 "..0x%" PRIx64 " overlap region "
			   "'%s' (0x%" PRIx64 "..0x%" PRIx64 ")", r->base,
			   emu_region_end(r) - 1, o->name, o->base, emu_region_end(o) - 1);
		return -1;
	}
	const uint64_t ra = r->array0, re = ra + emu_region_tiles(r);
	const uint64_t oa = o->array0, oe = oa + emu_region_tiles(o);
	const uint64_t rw = r->wl, rwe = rw + emu_region_rows(r, &t->g);
	const uint64_t ow = o->wl, owe = ow + emu_region_rows(o, &t->g);
	/* Two shared tensors may: a JIT reuses a dead value's wordlines
	 * (doc/TDFG.md, "Wordline allocation"). */
	if (ra < oe && oa < re && rw < owe && ow < rwe && !(r->shared && o->shared)) {
		const uint64_t a0 = ra > oa ? ra : oa, w0 = rw > ow ? rw : ow;
		region_err(d, r, "shares wordlines %" PRIu64 "..%" PRIu64 " of arrays %"
			   PRIu64 "..%" PRIu64 " with region '%s'; two regions may use "
			   "one array only on different wordlines", w0,
			   min_u64(rwe, owe) - 1, a0, min_u64(re, oe) - 1, o->name);
		return -1;
	}
	return 0;
}

int emu_lot_add(emu_lot *t, const emu_region *r, diag *d)
{
	if (emu_region_check(r, &t->g, d))
		return -1;
	if (emu_lot_find(t, r->name)) {
		region_err(d, r, "the table already has a region of this name");
		return -1;
	}
	if (t->n >= t->cap) {
		region_err(d, r, "the table is full: it holds %zu regions (Table 2's "
			   "LOT has %d)", t->cap, EMU_LOT_ENTRIES);
		return -1;
	}
	for (size_t i = 0; i < t->n; i++)
		if (check_overlap(t, r, &t->r[i], d))
			return -1;
	t->r[t->n++] = *r;
	return 0;
}

emu_region *emu_lot_find(emu_lot *t, const char *name)
{
	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->r[i].name, name) == 0)
			return &t->r[i];
	return NULL;
}

emu_region *emu_lot_find_addr(emu_lot *t, uint64_t addr)
{
	for (size_t i = 0; i < t->n; i++)
		if (addr >= t->r[i].base && addr < emu_region_end(&t->r[i]))
			return &t->r[i];
	return NULL;
}

int emu_lot_remove(emu_lot *t, const char *name, diag *d)
{
	emu_region *r = emu_lot_find(t, name);
	if (!r) {
		diag_file(d, "layout", "no region named '%s' in the table", name);
		return -1;
	}
	const size_t i = (size_t)(r - t->r);
	memmove(&t->r[i], &t->r[i + 1], (t->n - i - 1) * sizeof *r);
	t->n--;
	return 0;
}

int emu_lot_locate_addr(emu_lot *t, uint64_t addr, emu_region **rp,
			uint64_t idx[EMU_LAYOUT_DIMS], diag *d)
{
	emu_region *r = emu_lot_find_addr(t, addr);
	if (!r) {
		diag_file(d, "layout", "no region of the table holds address 0x%" PRIx64,
			  addr);
		return -1;
	}
	const unsigned eb = emu_region_elem_bytes(r);
	const uint64_t off = addr - r->base;
	if (off % eb) {
		region_err(d, r, "address 0x%" PRIx64 " is byte %" PRIu64 " of element %"
			   PRIu64 "; expected the first byte of a %u-byte element",
			   addr, off % eb, off / eb, eb);
		return -1;
	}
	emu_region_unflatten(r, off / eb, idx);
	*rp = r;
	return 0;
}

/* ---- the printer ---- */

/* Text goes to a stream or into a buffer (snprintf semantics). */
typedef struct text_sink {
	FILE *f;
	char *buf;
	size_t size, len;
	bool err;
} text_sink;

static void sink_printf(text_sink *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void sink_printf(text_sink *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (s->f) {
		if (vfprintf(s->f, fmt, ap) < 0)
			s->err = true;
	} else {
		const size_t room = s->len < s->size ? s->size - s->len : 0;
		const int k = vsnprintf(room ? s->buf + s->len : NULL, room, fmt, ap);
		if (k > 0)
			s->len += (size_t)k;
	}
	va_end(ap);
}

enum { COL_NAME, COL_BASE, COL_END, COL_TYPE, COL_DIM, COL_SIZE, COL_TILE,
       COL_GROUPS, COL_WL, COL_ARRAYS, COL_BANKS, COL_TRANS, NCOLS };
#define CELL_MAX 80

static const char *const col_head[NCOLS] = {
	"name", "base", "end", "type", "dim", "size S", "tile T", "groups",
	"wordlines", "arrays", "banks", "trans",
};

/* "AxBxC" over the region's dimensions. */
static void fmt_dims(char *out, const emu_region *r, const uint64_t *v)
{
	int k = snprintf(out, CELL_MAX, "%" PRIu64, v[0]);
	for (unsigned i = 1; i < r->ndims && k > 0 && k < CELL_MAX; i++)
		k += snprintf(out + k, CELL_MAX - (size_t)k, "x%" PRIu64, v[i]);
}

static void region_cells(const emu_region *r, const sram_geom *g,
			 char cell[NCOLS][CELL_MAX])
{
	static const char *const trans[] = {"0 normal", "1 busy", "2 transposed"};
	const uint64_t first = r->array0, last = first + emu_region_tiles(r) - 1;
	const uint64_t bank = arrays_per_bank(g);
	snprintf(cell[COL_NAME], CELL_MAX, "%s", r->name);
	snprintf(cell[COL_BASE], CELL_MAX, "0x%" PRIx64, r->base);
	snprintf(cell[COL_END], CELL_MAX, "0x%" PRIx64, emu_region_end(r));
	isa_type_name(r->fmt, r->width, r->is_signed, cell[COL_TYPE], CELL_MAX);
	snprintf(cell[COL_DIM], CELL_MAX, "%u", r->ndims);
	fmt_dims(cell[COL_SIZE], r, r->size);
	fmt_dims(cell[COL_TILE], r, r->tile);
	snprintf(cell[COL_GROUPS], CELL_MAX, "%" PRIu64, emu_region_groups(r, g));
	snprintf(cell[COL_WL], CELL_MAX, "%u..%" PRIu64, r->wl,
		 r->wl + emu_region_rows(r, g) - 1);
	snprintf(cell[COL_ARRAYS], CELL_MAX, "%" PRIu64 "..%" PRIu64, first, last);
	snprintf(cell[COL_BANKS], CELL_MAX, "%" PRIu64 "..%" PRIu64, first / bank,
		 last / bank);
	snprintf(cell[COL_TRANS], CELL_MAX, "%s",
		 r->trans <= EMU_TRANS_DONE ? trans[r->trans] : "?");
}

static void print_row(text_sink *s, char cell[NCOLS][CELL_MAX], const int *w)
{
	for (int c = 0; c < NCOLS; c++)
		sink_printf(s, "%-*s%s", c + 1 < NCOLS ? w[c] : 0, cell[c],
			    c + 1 < NCOLS ? "  " : "\n");
}

static void lot_write(text_sink *s, const emu_lot *t)
{
	char cell[NCOLS][CELL_MAX];
	int w[NCOLS];
	for (int c = 0; c < NCOLS; c++)
		w[c] = (int)strlen(col_head[c]);
	for (size_t i = 0; i < t->n; i++) {
		region_cells(&t->r[i], &t->g, cell);
		for (int c = 0; c < NCOLS; c++)
			if ((int)strlen(cell[c]) > w[c])
				w[c] = (int)strlen(cell[c]);
	}
	sink_printf(s, "Layout Override Table: %zu of %zu regions; %ux%u arrays, "
		    "%u arrays/way, %u ways/bank, %ux%u banks\n", t->n, t->cap,
		    t->g.wordlines, t->g.bitlines, t->g.arrays_per_way,
		    t->g.ways_per_bank, t->g.mesh_x, t->g.mesh_y);
	for (int c = 0; c < NCOLS; c++)
		snprintf(cell[c], CELL_MAX, "%s", col_head[c]);
	print_row(s, cell, w);
	for (size_t i = 0; i < t->n; i++) {
		region_cells(&t->r[i], &t->g, cell);
		print_row(s, cell, w);
	}
}

int emu_lot_format(const emu_lot *t, char *buf, size_t size)
{
	text_sink s = {.buf = buf, .size = size};
	if (size)
		buf[0] = '\0';
	lot_write(&s, t);
	return s.len > INT32_MAX ? INT32_MAX : (int)s.len;
}

int emu_lot_print(FILE *f, const emu_lot *t)
{
	text_sink s = {.f = f};
	lot_write(&s, t);
	return s.err || ferror(f) ? -1 : 0;
}

/* ---- element index <-> SRAM cell ---- */

void emu_layout_place(const emu_region *r, const sram_geom *g,
		      const uint64_t idx[EMU_LAYOUT_DIMS], emu_loc *loc)
{
	uint64_t n[EMU_LAYOUT_DIMS], t = 0, b = 0;
	emu_region_grid(r, n);
	for (int k = EMU_LAYOUT_DIMS - 1; k >= 0; k--) {
		t = t * n[k] + idx[k] / r->tile[k];
		b = b * r->tile[k] + idx[k] % r->tile[k];
	}
	const unsigned apw = g->arrays_per_way, wpb = g->ways_per_bank;
	loc->tile = t;
	loc->tile_bitline = b;
	loc->array = r->array0 + (unsigned)t;
	loc->bank = loc->array / (apw * wpb);
	loc->way = loc->array / apw % wpb;
	loc->array_in_way = loc->array % apw;
	loc->bitline = (unsigned)(b % g->bitlines);
	loc->wordline = r->wl + (unsigned)(b / g->bitlines) * r->width;
}

int emu_layout_locate(const emu_region *r, const sram_geom *g,
		      const uint64_t idx[EMU_LAYOUT_DIMS], emu_loc *loc, diag *d)
{
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++) {
		if (idx[k] >= r->size[k]) {
			region_err(d, r, "index %" PRIu64 " of dimension %u is outside "
				   "0..%" PRIu64, idx[k], k, r->size[k] - 1);
			return -1;
		}
	}
	emu_layout_place(r, g, idx, loc);
	return 0;
}

bool emu_layout_element_at(const emu_region *r, const sram_geom *g,
			   unsigned array, unsigned bitline, unsigned wordline,
			   uint64_t idx[EMU_LAYOUT_DIMS], unsigned *bit)
{
	const uint64_t tiles = emu_region_tiles(r);
	if (array < r->array0 || array - r->array0 >= tiles || bitline >= g->bitlines ||
	    wordline < r->wl || wordline - r->wl >= emu_region_rows(r, g))
		return false;
	uint64_t n[EMU_LAYOUT_DIMS], t = array - r->array0;
	uint64_t b = (uint64_t)(wordline - r->wl) / r->width * g->bitlines + bitline;
	if (b >= emu_region_tile_bitlines(r))
		return false;
	emu_region_grid(r, n);
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++) {
		idx[k] = t % n[k] * r->tile[k] + b % r->tile[k];
		t /= n[k];
		b /= r->tile[k];
		if (idx[k] >= r->size[k])
			return false; /* an unused bitline of a boundary tile */
	}
	*bit = (wordline - r->wl) % r->width;
	return true;
}

/* ---- tile selection (§4.1) ---- */

/* The rules a candidate tile can break, as bits. */
enum {
	FAIL_PROD = 1,  /* (1) prod T_i = tile bitlines */
	FAIL_LINE = 2,  /* (2) T_0 x A_bank mod L = 0 */
	FAIL_FIT = 4,   /* the tiles fit the machine's arrays */
	FAIL_DIMS = 8,  /* T_k = 1 beyond the region's dimensions */
};

/* The request's tile bitlines P and line size, checked. */
static int req_resolve(const emu_region *r, const sram_geom *g,
		       const emu_tile_req *q, uint64_t *P, unsigned *line, diag *d)
{
	*P = q->tile_bitlines ? q->tile_bitlines : g->bitlines;
	*line = q->line_bytes ? q->line_bytes : EMU_LINE_BYTES;
	if (*P % g->bitlines || !is_pow2(*P / g->bitlines) || *P > LIMIT32) {
		region_err(d, r, "tiles of %" PRIu64 " bitlines requested; expected the "
			   "%u bitlines of an array times a power of two, at most 2^32",
			   *P, g->bitlines);
		return -1;
	}
	if (!is_pow2(*line)) {
		region_err(d, r, "a cache line of %u bytes; expected a power of two", *line);
		return -1;
	}
	return 0;
}

unsigned emu_layout_line_elems(const emu_region *r, unsigned line_bytes)
{
	const unsigned eb = emu_region_elem_bytes(r);
	return line_bytes > eb ? line_bytes / eb : 1;
}

/* What holds for every candidate of r: a sane region and machine, a
 * valid request, wordlines for the tile's groups, and S_0 mod L = 0
 * (§4.1: a transposed line is never split across banks). */
static int tile_common(const emu_region *r, const sram_geom *g,
		       const emu_tile_req *q, uint64_t *P, diag *d)
{
	unsigned line;
	if (check_shape(r, d) || check_geom(r, g, d) || req_resolve(r, g, q, P, &line, d) ||
	    check_rows(r, g, *P / g->bitlines, d))
		return -1;
	const unsigned L = emu_layout_line_elems(r, line);
	if (r->size[0] % L) {
		region_err(d, r, "S_0 = %" PRIu64 " is not a multiple of L = %u elements "
			   "per %u-byte cache line (infinity-stream 4.1: the innermost "
			   "dimension must align to the line); pad dimension 0 to %"
			   PRIu64, r->size[0], L, line, (r->size[0] + L - 1) / L * L);
		return -1;
	}
	return 0;
}

/* The rules tile T breaks for r (FAIL_* bits). */
static unsigned tile_fails(const emu_region *r, const sram_geom *g,
			   const emu_tile_req *q, uint64_t P, const uint64_t T[EMU_LAYOUT_DIMS])
{
	unsigned fails = 0;
	emu_region t = *r;
	const unsigned L = emu_layout_line_elems(r, q->line_bytes ? q->line_bytes
							   : EMU_LINE_BYTES);
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++) {
		t.tile[k] = T[k];
		if (T[k] < 1 || T[k] > LIMIT32 || (k >= r->ndims && T[k] != 1))
			fails |= FAIL_DIMS;
	}
	if (fails)
		return fails;
	if (emu_region_tile_bitlines(&t) != P)
		fails |= FAIL_PROD;
	if (mul_sat(T[0], arrays_per_bank(g)) % L)
		fails |= FAIL_LINE;
	const uint64_t need = emu_region_tiles(&t), have = machine_arrays(g);
	if (need > have || r->array0 > have - need)
		fails |= FAIL_FIT;
	return fails;
}

static void fmt_tile(char *out, size_t size, const emu_region *r,
		     const uint64_t T[EMU_LAYOUT_DIMS])
{
	int k = snprintf(out, size, "%" PRIu64, T[0]);
	for (unsigned i = 1; i < r->ndims && k > 0 && (size_t)k < size; i++)
		k += snprintf(out + k, size - (size_t)k, "x%" PRIu64, T[i]);
}

/* Rule `rule` as it applies to r, with its numbers. */
static void rule_text(text_sink *s, const emu_region *r, const sram_geom *g,
		      const emu_tile_req *q, uint64_t P, unsigned rule)
{
	const unsigned line = q->line_bytes ? q->line_bytes : EMU_LINE_BYTES;
	const uint64_t n = machine_arrays(g);
	switch (rule) {
	case FAIL_PROD:
		sink_printf(s, "constraint 1 (prod T_i = %" PRIu64 " bitlines per tile)", P);
		break;
	case FAIL_LINE:
		sink_printf(s, "constraint 2 (T_0 x A_bank mod L = 0, with A_bank = %"
			    PRIu64 " arrays per bank and L = %u elements per %u-byte "
			    "line)", arrays_per_bank(g), emu_layout_line_elems(r, line), line);
		break;
	case FAIL_FIT:
		sink_printf(s, "the fit rule (the tiles on arrays %u..%" PRIu64
			    " of the machine)", r->array0, n - 1);
		break;
	default:
		sink_printf(s, "the dims rule (T_k >= 1, and T_k = 1 beyond the "
			    "%u dimensions)", r->ndims);
		break;
	}
}

/* One rule's failure, with the numbers that break it. */
static void rule_detail(text_sink *s, const emu_region *r, const sram_geom *g,
			unsigned rule, const uint64_t T[EMU_LAYOUT_DIMS])
{
	emu_region t = *r;
	memcpy(t.tile, T, sizeof t.tile);
	switch (rule) {
	case FAIL_PROD:
		sink_printf(s, ": it has %" PRIu64 " bitlines", emu_region_tile_bitlines(&t));
		break;
	case FAIL_LINE:
		sink_printf(s, ": T_0 x A_bank = %" PRIu64,
			    mul_sat(T[0], arrays_per_bank(g)));
		break;
	case FAIL_FIT:
		sink_printf(s, ": it needs %" PRIu64 " arrays", emu_region_tiles(&t));
		break;
	default:
		break;
	}
}

/* The fix is most often a larger machine than the program's own. */
static void machine_hint(text_sink *s, const sram_geom *g)
{
	sink_printf(s, "; a machine of more arrays or bitlines may hold it (-m arrays=N,"
		    "bitlines=N, ways=N, mesh=XxY: now %u, %u, %u, %ux%u)", g->arrays_per_way,
		    g->bitlines, g->ways_per_bank, g->mesh_x, g->mesh_y);
}

int emu_tile_check(const emu_region *r, const sram_geom *g,
		   const emu_tile_req *q, const uint64_t T[EMU_LAYOUT_DIMS], diag *d)
{
	uint64_t P;
	if (tile_common(r, g, q, &P, d))
		return -1;
	const unsigned fails = tile_fails(r, g, q, P, T);
	if (!fails)
		return 0;
	const unsigned rule = fails & -fails;
	char msg[DIAG_MAX];
	text_sink s = {.buf = msg, .size = sizeof msg};
	sink_printf(&s, "tile %" PRIu64 "x%" PRIu64 "x%" PRIu64 " breaks ", T[0],
		    T[1], T[2]);
	rule_text(&s, r, g, q, P, rule);
	rule_detail(&s, r, g, rule, T);
	machine_hint(&s, g);
	region_err(d, r, "%s", msg);
	return -1;
}

int emu_tile_check_given(const emu_region *r, const sram_geom *g,
			 const emu_tile_req *q, diag *d)
{
	const uint64_t P = emu_region_tile_bitlines(r);
	const unsigned L = emu_layout_line_elems(r, q->line_bytes ? q->line_bytes : EMU_LINE_BYTES);
	/* A bank of fewer bitlines than a line has elements (a teaching
	 * machine of 8-bitline arrays) keeps no line whole whatever the
	 * tile: the line rules cannot apply, as on Fig 9's partial tiles. */
	if ((P < g->bitlines && g->bitlines % P == 0) ||
	    mul_sat(arrays_per_bank(g), g->bitlines) < L)
		return emu_region_check(r, g, d);
	return emu_tile_check(r, g, q, r->tile, d);
}

/* Candidates: every power-of-two tile of P bitlines over the region's
 * dimensions, less the dominated ones: a tile twice as large as the
 * array along one dimension while another dimension still spans
 * several tiles (moving the factor over gives fewer tiles). */
#define MAX_CANDS 528 /* (E + 1)(E + 2) / 2 for E = 31 */
typedef struct tile_cand {
	uint64_t T[EMU_LAYOUT_DIMS];
} tile_cand;

static bool tile_dominated(const emu_region *r, const uint64_t T[EMU_LAYOUT_DIMS])
{
	bool spills = false, oversized = false;
	for (unsigned k = 0; k < r->ndims; k++) {
		spills |= T[k] < r->size[k];
		oversized |= T[k] / 2 >= r->size[k];
	}
	return spills && oversized;
}

static size_t tile_candidates(const emu_region *r, uint64_t P, tile_cand *c)
{
	const unsigned E = log2_floor(P);
	size_t n = 0;
	for (unsigned a = 0; a <= E; a++) {
		for (unsigned b = 0; a + b <= E; b++) {
			const unsigned e2 = E - a - b;
			if ((r->ndims < 2 && b) || (r->ndims < 3 && e2))
				continue;
			tile_cand t = {{UINT64_C(1) << a, UINT64_C(1) << b,
					UINT64_C(1) << e2}};
			if (!tile_dominated(r, t.T) && n < MAX_CANDS)
				c[n++] = t;
		}
	}
	return n;
}

/* The §4.1 heuristics as a key, compared lexicographically, smaller is
 * better; the priority is reduction, shift, broadcast (doc/LAYOUT.md). */
#define NKEYS 6
static void tile_score(const emu_region *r, const sram_geom *g,
		       const emu_compute *h, uint64_t P,
		       const uint64_t T[EMU_LAYOUT_DIMS], uint64_t key[NKEYS])
{
	unsigned rounds = 0, lo = 64, hi = 0;
	uint64_t cross = 0;
	const unsigned dims = (1u << r->ndims) - 1;
	for (unsigned k = 0; k < r->ndims; k++) {
		/* Reduction: rounds of in-tile halving along a reduced dimension. */
		if (h->reduce >> k & 1)
			rounds += log2_ceil(min_u64(T[k], r->size[k]));
		/* Shift by one along k: the fraction 1 / T_k of the elements
		 * cross a tile edge (none if the tile spans the dimension). */
		if (h->shift >> k & 1) {
			if (T[k] < r->size[k])
				cross += P / T[k];
			lo = log2_floor(T[k]) < lo ? log2_floor(T[k]) : lo;
			hi = log2_floor(T[k]) > hi ? log2_floor(T[k]) : hi;
		}
	}
	/* Broadcast: the banks one row (dimension 0) spreads over. */
	const uint64_t row_tiles = (r->size[0] + T[0] - 1) / T[0];
	const uint64_t bank = arrays_per_bank(g);
	const uint64_t banks = (r->array0 + row_tiles - 1) / bank - r->array0 / bank + 1;
	emu_region t = *r;
	memcpy(t.tile, T, sizeof t.tile);
	key[0] = 64 * EMU_LAYOUT_DIMS - rounds;
	key[1] = cross;
	key[2] = (h->shift & dims) ? hi - lo : 0;
	key[3] = (h->broadcast & dims) ? UINT64_MAX - banks : 0;
	key[4] = emu_region_tiles(&t);
	key[5] = P / T[0];
}

static bool key_less(const uint64_t *a, const uint64_t *b)
{
	for (unsigned i = 0; i < NKEYS; i++)
		if (a[i] != b[i])
			return a[i] < b[i];
	return false;
}

/* "T = 1x256, 2x128, ... (and N more)": the candidates breaking `rule`
 * for r. */
static void list_failing(text_sink *s, const emu_region *r, const sram_geom *g,
			 const emu_tile_req *q, uint64_t P, unsigned rule,
			 const tile_cand *c, size_t nc)
{
	size_t shown = 0, more = 0;
	for (size_t i = 0; i < nc; i++) {
		if (!(tile_fails(r, g, q, P, c[i].T) & rule))
			continue;
		if (shown == 6) {
			more++;
			continue;
		}
		char t[CELL_MAX];
		fmt_tile(t, sizeof t, r, c[i].T);
		sink_printf(s, "%s%s", shown++ ? ", " : " fails for T = ", t);
	}
	if (more)
		sink_printf(s, " (and %zu more)", more);
}

/* Why no candidate is valid, rule by rule and region by region. */
static void explain_none(diag *d, const emu_region *const *rs, size_t n,
			 size_t primary, const sram_geom *g, const emu_tile_req *q,
			 uint64_t P, const tile_cand *c, size_t nc)
{
	/* The message is built clause by clause: a clause already given is
	 * not repeated, and one that would not fit (the path and position
	 * come before it) is counted, never cut. */
	enum { BODY_MAX = DIAG_MAX * 5 / 8 };
	char msg[BODY_MAX], clause[DIAG_MAX];
	text_sink s = {.buf = msg, .size = sizeof msg};
	size_t left_out = 0;
	sink_printf(&s, "no tile of %" PRIu64 " bitlines is valid%s: ", P,
		    n > 1 ? " for every region of the group" : "");
	const size_t head = s.len;
	bool named = false; /* name each region when they have different names */
	for (size_t m = 1; m < n; m++)
		named |= strcmp(rs[m]->name, rs[0]->name) != 0;
	for (size_t m = 0; m < n; m++) {
		unsigned any = 0;
		for (size_t i = 0; i < nc; i++)
			any |= tile_fails(rs[m], g, q, P, c[i].T);
		for (unsigned rule = 1; rule <= FAIL_DIMS; rule <<= 1) {
			if (!(any & rule))
				continue;
			text_sink cs = {.buf = clause, .size = sizeof clause};
			if (named)
				sink_printf(&cs, "for '%s', ", rs[m]->name);
			rule_text(&cs, rs[m], g, q, P, rule);
			list_failing(&cs, rs[m], g, q, P, rule, c, nc);
			if (cs.len >= sizeof clause || strstr(msg + head, clause))
				continue;
			if (s.len + cs.len + 40 >= sizeof msg) {
				left_out++;
				continue;
			}
			sink_printf(&s, "%s%s", s.len > head ? "; " : "", clause);
		}
	}
	if (left_out)
		sink_printf(&s, " (and %zu more)", left_out);
	machine_hint(&s, g);
	region_err(d, rs[primary], "%s", msg);
}

static int select_core(const emu_region *const *rs, size_t n, size_t primary,
		       const sram_geom *g, const emu_tile_req *q,
		       uint64_t T[EMU_LAYOUT_DIMS], diag *d)
{
	const emu_region *pr = rs[primary];
	tile_cand c[MAX_CANDS];
	uint64_t P = 0, best[NKEYS], key[NKEYS];
	for (size_t i = 0; i < n; i++) {
		if (tile_common(rs[i], g, q, &P, d))
			return -1;
		if (rs[i]->ndims != pr->ndims) {
			region_err(d, rs[i], "has %u dimensions and shares the tile of "
				   "'%s', which has %u; give it sizes of 1 up to %u "
				   "dimensions", rs[i]->ndims, pr->name, pr->ndims, pr->ndims);
			return -1;
		}
	}
	const size_t nc = tile_candidates(pr, P, c);
	size_t pick = nc;
	for (size_t i = 0; i < nc; i++) {
		unsigned fails = 0;
		for (size_t m = 0; m < n; m++)
			fails |= tile_fails(rs[m], g, q, P, c[i].T);
		if (fails)
			continue;
		tile_score(pr, g, &q->hint, P, c[i].T, key);
		if (pick == nc || key_less(key, best)) {
			pick = i;
			memcpy(best, key, sizeof best);
		}
	}
	if (pick == nc) {
		explain_none(d, rs, n, primary, g, q, P, c, nc);
		return -1;
	}
	memcpy(T, c[pick].T, sizeof c[pick].T);
	return 0;
}

int emu_tile_select(const emu_region *r, const sram_geom *g,
		    const emu_tile_req *q, uint64_t T[EMU_LAYOUT_DIMS], diag *d)
{
	return select_core(&r, 1, 0, g, q, T, d);
}

int emu_tile_select_group(emu_region *const *rs, size_t n, size_t primary,
			  const sram_geom *g, const emu_tile_req *q, diag *d)
{
	uint64_t T[EMU_LAYOUT_DIMS];
	if (n == 0 || primary >= n) {
		diag_file(d, "layout", "a group of %zu regions with primary %zu; "
			  "expected the primary among them", n, primary);
		return -1;
	}
	if (select_core((const emu_region *const *)rs, n, primary, g, q, T, d))
		return -1;
	for (size_t i = 0; i < n; i++)
		memcpy(rs[i]->tile, T, sizeof T);
	return 0;
}

/* ---- the transpose unit ---- */

/* Move one run of dimension 0 (elements idx .. idx + len - 1, all in
 * one tile, so on consecutive tile bitlines) in or out, split where the
 * tile's bitlines wrap into the next wordline group. */
static void move_run(sram_machine *m, const emu_region *r,
		     const uint64_t idx[EMU_LAYOUT_DIMS], uint64_t *v, uint64_t len,
		     bool store)
{
	const unsigned B = m->g.bitlines;
	emu_loc loc;
	emu_layout_place(r, &m->g, idx, &loc);
	uint64_t b = loc.tile_bitline;
	for (uint64_t done = 0; done < len;) {
		const unsigned first = (unsigned)(b % B);
		const unsigned piece = (unsigned)min_u64(len - done, B - first);
		const unsigned wl0 = r->wl + (unsigned)(b / B) * r->width;
		if (store)
			emu_ttu_put(m, loc.array, wl0, r->width, first, v + done, piece);
		else
			emu_ttu_get(m, loc.array, wl0, r->width, first, v + done, piece);
		done += piece;
		b += piece;
	}
}

/* One whole tile of P <= B bitlines (none cut by the region's edge): its
 * P elements gathered into tile-bitline order and moved as one run of
 * the transpose unit (64 bitlines a step), instead of one run per row of
 * dimension 0 (a tile 1 element wide would be a run per element). */
static void move_tile(sram_machine *m, const emu_region *r, const uint64_t o[EMU_LAYOUT_DIMS],
		      uint64_t *v, bool store)
{
	uint64_t buf[SRAM_MAX_DIM], idx[EMU_LAYOUT_DIMS];
	const uint64_t *T = r->tile;
	emu_loc loc;
	emu_layout_place(r, &m->g, o, &loc);
	const unsigned first = (unsigned)(loc.tile_bitline % m->g.bitlines);
	const unsigned P = (unsigned)emu_region_tile_bitlines(r);
	unsigned b = 0;
	if (!store)
		emu_ttu_get(m, loc.array, r->wl, r->width, first, buf, P);
	for (idx[2] = o[2]; idx[2] < o[2] + T[2]; idx[2]++)
		for (idx[1] = o[1]; idx[1] < o[1] + T[1]; idx[1]++) {
			idx[0] = o[0];
			uint64_t *row = v + emu_region_flatten(r, idx);
			if (store)
				memcpy(buf + b, row, T[0] * sizeof *row);
			else
				memcpy(row, buf + b, T[0] * sizeof *row);
			b += (unsigned)T[0];
		}
	if (store)
		emu_ttu_put(m, loc.array, r->wl, r->width, first, buf, P);
}

static bool tile_whole(const emu_region *r, const sram_geom *g, const uint64_t o[EMU_LAYOUT_DIMS])
{
	if (emu_region_tile_bitlines(r) > g->bitlines)
		return false;
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++)
		if (o[k] + r->tile[k] > r->size[k])
			return false;
	return true;
}

static void move_region(sram_machine *m, const emu_region *r, uint64_t *v,
			bool store)
{
	const uint64_t *T = r->tile;
	uint64_t o[EMU_LAYOUT_DIMS];
	for (o[2] = 0; o[2] < r->size[2]; o[2] += T[2])
		for (o[1] = 0; o[1] < r->size[1]; o[1] += T[1])
			for (o[0] = 0; o[0] < r->size[0]; o[0] += T[0]) {
				if (tile_whole(r, &m->g, o)) {
					move_tile(m, r, o, v, store);
					continue;
				}
				/* A tile cut by the region's edge: row by row, its
				 * unused bitlines untouched. */
				const uint64_t h1 = min_u64(o[1] + T[1], r->size[1]);
				const uint64_t h2 = min_u64(o[2] + T[2], r->size[2]);
				const uint64_t len = min_u64(T[0], r->size[0] - o[0]);
				for (uint64_t i2 = o[2]; i2 < h2; i2++)
					for (uint64_t i1 = o[1]; i1 < h1; i1++)
						for (uint64_t j = 0; j < len; j += SRAM_MAX_DIM) {
							const uint64_t at[EMU_LAYOUT_DIMS] = {o[0] + j, i1, i2};
							move_run(m, r, at, v + emu_region_flatten(r, at),
								 min_u64(SRAM_MAX_DIM, len - j), store);
						}
			}
}

uint64_t emu_layout_store(sram_machine *m, emu_region *r, const uint64_t *values)
{
	/* The region's rows in every way it covers, taken from the kernel in
	 * runs before the transpose unit writes them (sram_prefault). */
	const uint64_t tiles = emu_region_tiles(r);
	const unsigned rows = (unsigned)emu_region_rows(r, &m->g);
	const unsigned apw = m->g.arrays_per_way;
	for (uint64_t w = r->array0 / apw; tiles && w <= (r->array0 + tiles - 1) / apw; w++)
		sram_prefault_rows(m, (unsigned)(w * apw), r->wl, rows);
	move_region(m, r, (uint64_t *)values, true);
	r->trans = EMU_TRANS_DONE;
	return emu_layout_ttu_cycles(r, &m->g);
}

uint64_t emu_layout_load(const sram_machine *m, const emu_region *r, uint64_t *values)
{
	move_region((sram_machine *)m, r, values, false);
	return emu_layout_ttu_cycles(r, &m->g);
}

/* Tile o's first `span` tile bitlines (one run of the transpose unit
 * from the tile's first bitline), into buf; for a tile of at most B
 * bitlines, which sits in one array from its bitline 0, cut by the
 * region's edge or not (emu_layout_place: the same offsets either way). */
static void tile_run(const sram_machine *m, const emu_region *r, const uint64_t o[EMU_LAYOUT_DIMS],
		     uint64_t span, uint64_t *buf)
{
	emu_loc loc;
	emu_layout_place(r, &m->g, o, &loc);
	emu_ttu_get(m, loc.array, r->wl, r->width, (unsigned)(loc.tile_bitline % m->g.bitlines),
		    buf, (unsigned)span);
}

/* The tile bitline just past element hi - 1 of tile o: every element of
 * the tile below hi in each dimension lies before it. */
static uint64_t tile_span(const emu_region *r, const uint64_t o[EMU_LAYOUT_DIMS],
			  const uint64_t hi[EMU_LAYOUT_DIMS])
{
	const uint64_t *T = r->tile;
	return (hi[0] - 1 - o[0]) + T[0] * ((hi[1] - 1 - o[1]) + T[1] * (hi[2] - 1 - o[2])) + 1;
}

bool emu_layout_load_tile(const sram_machine *m, const emu_region *r,
			  const uint64_t o[EMU_LAYOUT_DIMS], uint64_t *values)
{
	if (emu_region_tile_bitlines(r) > m->g.bitlines)
		return false;
	uint64_t hi[EMU_LAYOUT_DIMS];
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++)
		hi[k] = min_u64(o[k] + r->tile[k], r->size[k]);
	tile_run(m, r, o, tile_span(r, o, hi), values);
	return true;
}

/* The part of tile o inside box b into values (b's row-major order). */
static void load_tile_part(const sram_machine *m, const emu_region *r, const emu_box *b,
			   const uint64_t o[EMU_LAYOUT_DIMS], uint64_t *values)
{
	uint64_t buf[SRAM_MAX_DIM], lo[EMU_LAYOUT_DIMS], hi[EMU_LAYOUT_DIMS], w[EMU_LAYOUT_DIMS];
	const uint64_t *T = r->tile;
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++) {
		lo[k] = o[k] > b->lo[k] ? o[k] : b->lo[k];
		hi[k] = min_u64(min_u64(o[k] + T[k], b->hi[k]), r->size[k]);
		w[k] = b->hi[k] - b->lo[k];
	}
	/* A tile in one array: the bitlines up to the box's last element in
	 * one run (a tile one element wide would otherwise be a run per
	 * element); a tile over several wordline groups: row by row. */
	const bool one_run = emu_region_tile_bitlines(r) <= m->g.bitlines;
	if (one_run)
		tile_run(m, r, o, tile_span(r, o, hi), buf);
	for (uint64_t i2 = lo[2]; i2 < hi[2]; i2++)
		for (uint64_t i1 = lo[1]; i1 < hi[1]; i1++) {
			uint64_t *out = values + (lo[0] - b->lo[0]) +
					w[0] * ((i1 - b->lo[1]) + w[1] * (i2 - b->lo[2]));
			const uint64_t at[EMU_LAYOUT_DIMS] = {lo[0], i1, i2};
			if (one_run)
				memcpy(out, buf + (lo[0] - o[0]) + T[0] * ((i1 - o[1]) + T[1] * (i2 - o[2])),
				       (hi[0] - lo[0]) * sizeof *out);
			else
				for (uint64_t j = 0; j < hi[0] - lo[0]; j += SRAM_MAX_DIM) {
					const uint64_t a2[EMU_LAYOUT_DIMS] = {at[0] + j, i1, i2};
					move_run((sram_machine *)m, r, a2, out + j,
						 min_u64(SRAM_MAX_DIM, hi[0] - lo[0] - j), false);
				}
		}
}

void emu_layout_load_box(const sram_machine *m, const emu_region *r, const emu_box *b,
			 uint64_t *values)
{
	const uint64_t *T = r->tile;
	uint64_t o[EMU_LAYOUT_DIMS];
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++)
		if (b->lo[k] >= b->hi[k])
			return;
	for (o[2] = b->lo[2] / T[2] * T[2]; o[2] < b->hi[2]; o[2] += T[2])
		for (o[1] = b->lo[1] / T[1] * T[1]; o[1] < b->hi[1]; o[1] += T[1])
			for (o[0] = b->lo[0] / T[0] * T[0]; o[0] < b->hi[0]; o[0] += T[0])
				load_tile_part(m, r, b, o, values);
}

/* Wordline groups of tile t that hold at least one element: the tile's
 * rows of dimension 0 cover tile bitlines base .. base + e0 - 1, with
 * base increasing, so count each group once as the rows pass it. */
static uint64_t tile_groups_used(const emu_region *r, const sram_geom *g, uint64_t t)
{
	uint64_t n[EMU_LAYOUT_DIMS], e[EMU_LAYOUT_DIMS];
	const uint64_t B = g->bitlines;
	emu_region_grid(r, n);
	if (emu_region_tile_bitlines(r) <= B)
		return 1;
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++) {
		const uint64_t tk = t % n[k];
		t /= n[k];
		e[k] = min_u64(r->tile[k], r->size[k] - tk * r->tile[k]);
	}
	uint64_t used = 0, next = 0; /* next: first group not yet counted */
	for (uint64_t o2 = 0; o2 < e[2]; o2++) {
		for (uint64_t o1 = 0; o1 < e[1]; o1++) {
			const uint64_t base = r->tile[0] * (o1 + r->tile[1] * o2);
			const uint64_t lo = base / B, hi = (base + e[0] - 1) / B;
			if (hi >= next) {
				used += hi - (lo > next ? lo : next) + 1;
				next = hi + 1;
			}
		}
	}
	return used;
}

uint64_t emu_layout_ttu_cycles(const emu_region *r, const sram_geom *g)
{
	const uint64_t tiles = emu_region_tiles(r), bank = arrays_per_bank(g);
	uint64_t worst = 0, cur = 0, cur_bank = r->array0 / bank;
	/* Tiles sit on consecutive arrays, so each bank's tiles come in one
	 * run: sum a bank's wordline writes, keep the slowest bank. */
	for (uint64_t t = 0; t < tiles; t++) {
		const uint64_t b = (r->array0 + t) / bank;
		if (b != cur_bank) {
			cur_bank = b;
			cur = 0;
		}
		cur += tile_groups_used(r, g, t) * r->width;
		if (cur > worst)
			worst = cur;
	}
	return worst;
}

uint64_t emu_layout_elem_get(const sram_machine *m, const emu_region *r,
			     const uint64_t idx[EMU_LAYOUT_DIMS])
{
	emu_loc loc;
	uint64_t v = 0;
	emu_layout_place(r, &m->g, idx, &loc);
	for (unsigned k = 0; k < r->width; k++)
		v |= (uint64_t)sram_get_bit(m, loc.array, loc.wordline + k, loc.bitline) << k;
	return v;
}

void emu_layout_elem_set(sram_machine *m, const emu_region *r,
			 const uint64_t idx[EMU_LAYOUT_DIMS], uint64_t v)
{
	emu_loc loc;
	emu_layout_place(r, &m->g, idx, &loc);
	for (unsigned k = 0; k < r->width; k++)
		sram_set_bit(m, loc.array, loc.wordline + k, loc.bitline, v >> k & 1);
}

/* ---- the tile map (`infsim layout`) ---- */

int emu_layout_print_tiles(FILE *f, const emu_region *r, const sram_geom *g)
{
	uint64_t n[EMU_LAYOUT_DIMS];
	const uint64_t per_bank = (uint64_t)g->arrays_per_way * g->ways_per_bank;
	const uint64_t tb = emu_region_tile_bitlines(r), B = g->bitlines;
	emu_region_grid(r, n);
	fprintf(f, "%s: %" PRIu64 "x%" PRIu64 "x%" PRIu64 " in %" PRIu64 "x%" PRIu64 "x%"
		PRIu64 " tiles (%" PRIu64 "x%" PRIu64 "x%" PRIu64 " of them), %" PRIu64
		" bitlines a tile%s, wordlines %u..%" PRIu64 "\n", r->name, r->size[0],
		r->size[1], r->size[2], r->tile[0], r->tile[1], r->tile[2], n[0], n[1], n[2],
		tb, tb > B ? " (virtual)" : "", r->wl, r->wl + emu_region_rows(r, g) - 1);
	for (uint64_t t = 0; t < emu_region_tiles(r); t++) {
		const uint64_t a = r->array0 + t, c0 = t % n[0], c1 = t / n[0] % n[1];
		const uint64_t c2 = t / n[0] / n[1];
		uint64_t hi[EMU_LAYOUT_DIMS];
		const uint64_t c[EMU_LAYOUT_DIMS] = {c0, c1, c2};
		for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++)
			hi[k] = min_u64((c[k] + 1) * r->tile[k], r->size[k]);
		if (fprintf(f, "  tile %" PRIu64 " (%" PRIu64 ",%" PRIu64 ",%" PRIu64 "): array %"
			    PRIu64 " (bank %" PRIu64 ", way %" PRIu64 ", array %" PRIu64 "), "
			    "elements [%" PRIu64 ",%" PRIu64 ") x [%" PRIu64 ",%" PRIu64 ") x [%"
			    PRIu64 ",%" PRIu64 ")\n", t, c0, c1, c2, a, a / per_bank,
			    a % per_bank / g->arrays_per_way, a % g->arrays_per_way,
			    c0 * r->tile[0], hi[0], c1 * r->tile[1], hi[1], c2 * r->tile[2],
			    hi[2]) < 0)
			return -1;
	}
	return 0;
}
