/* SPDX-License-Identifier: MIT */
/*
 * lower.c: the JIT lowering of tensor moves (infinity-stream §4.2): a box
 * of a tiled region split into pieces that tiles hold whole (Algorithm
 * 1, emu_decompose), and each piece's shift turned into the physical
 * commands of move.h -- intra-array shifts, inter-array shifts and a sync
 * when data crosses banks (Algorithm 2, emu_lower_move); broadcasts too
 * (emu_lower_broadcast).  See doc/MOVEMENT.md.
 */
#include "move.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "assemble.h"
#include "move_private.h"

#define MASK_WORDS (SRAM_MAX_DIM / 64)

/* ---- lowering: Algorithm 1 ---- */

/* The 1 to 3 intervals of [p, q) along one dimension of tile t. */
static size_t split_dim(uint64_t p, uint64_t q, uint64_t t, uint64_t *lo,
			uint64_t *hi)
{
	const uint64_t a = p / t * t, b = (p + t - 1) / t * t, c = q / t * t;
	size_t n = 0;
	if (b > c) { /* a = c <= p < q < b = d: one tile */
		lo[n] = p, hi[n++] = q;
		return n;
	}
	if (a < p)
		lo[n] = p, hi[n++] = b;   /* head */
	if (b < c)
		lo[n] = b, hi[n++] = c;   /* middle: whole tiles */
	if (c < q)
		lo[n] = c, hi[n++] = q;   /* tail */
	return n;
}

size_t emu_decompose(const emu_box *box, const uint64_t tile[EMU_LAYOUT_DIMS],
		     emu_box out[27])
{
	uint64_t lo[EMU_LAYOUT_DIMS][3], hi[EMU_LAYOUT_DIMS][3];
	size_t n[EMU_LAYOUT_DIMS], total = 1;
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++) {
		if (box->lo[k] >= box->hi[k] || tile[k] == 0)
			return 0;
		n[k] = split_dim(box->lo[k], box->hi[k], tile[k], lo[k], hi[k]);
		total *= n[k];
	}
	/* Dimension 0 varies fastest, as Algorithm 1's recursion emits. */
	for (size_t i = 0; i < total; i++) {
		size_t rest = i;
		for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++) {
			out[i].lo[k] = lo[k][rest % n[k]];
			out[i].hi[k] = hi[k][rest % n[k]];
			rest /= n[k];
		}
	}
	return total;
}

/* ---- lowering: from tiles to physical commands ---- */

/* A piece in tile terms: per dimension, tiles [t0, t1) and, in each of
 * them, offsets [o0, o1). */
struct span {
	uint64_t t0, t1, o0, o1;
};
struct piece {
	struct span s[EMU_LAYOUT_DIMS];
};

/* A logical shift (Algorithm 2's Shift(A, k, mask, inter, intra)). */
struct shift {
	unsigned kind;  /* EMU_MOVE_INTRA, _INTER or _BCAST */
	unsigned k;     /* dimension */
	int64_t dt;     /* tiles along k to the (first) destination */
	int64_t dint;   /* offset change along k inside the tile */
	uint64_t reuse; /* bcast: copies, one tile apart along k */
};

struct lower {
	const emu_region *r;
	const sram_geom *g;
	uint64_t T[EMU_LAYOUT_DIMS], n[EMU_LAYOUT_DIMS];
	uint64_t S[EMU_LAYOUT_DIMS + 1]; /* tile-bitline stride of each dim */
	uint64_t N[EMU_LAYOUT_DIMS];     /* tile-number stride of each dim */
	unsigned c;     /* the dimension wordline groups cut (3: one group) */
	uint64_t m;     /* offsets of dimension c in one group */
	unsigned B, width, swl, dwl, scratch;
	emu_move_list *out;
	diag *d;
	bool remote;    /* a transfer since the last sync crossed banks */
};

static void piece_of(const struct lower *L, const emu_box *b, struct piece *p)
{
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++) {
		const uint64_t T = L->T[k], lo = b->lo[k], hi = b->hi[k];
		struct span *s = &p->s[k];
		s->t0 = lo / T;
		if (lo / T == (hi - 1) / T) {
			s->t1 = s->t0 + 1;
			s->o0 = lo % T;
			s->o1 = (hi - 1) % T + 1;
		} else { /* Algorithm 1's middle: whole tiles */
			s->t1 = hi / T;
			s->o0 = 0;
			s->o1 = T;
		}
	}
}

static void pat_add(emu_pattern *p, uint64_t stride, uint64_t count)
{
	p->stride[p->ndims] = (int64_t)stride;
	p->count[p->ndims++] = count;
}

static emu_pattern tile_pattern(const struct lower *L, const struct piece *p)
{
	emu_pattern t;
	memset(&t, 0, sizeof t);
	t.start = L->r->array0;
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++) {
		t.start += (int64_t)(p->s[k].t0 * L->N[k]);
		pat_add(&t, L->N[k], p->s[k].t1 - p->s[k].t0);
	}
	emu_pattern_simplify(&t);
	return t;
}

/* Does some array of the run lo, lo + s, ..., lo + s (n - 1) (lo >= 0,
 * s > 0, n > 0) lie in another bank than the array off further on?
 * With P arrays a bank, a and a + off share a bank iff a % P + off stays
 * in [0, P): so only the run's first and last array inside each bank it
 * meets matter, and the test costs a step per bank, not per array. */
static bool run_crosses(int64_t P, int64_t lo, int64_t s, uint64_t n, int64_t off)
{
	if (off == 0)
		return false;
	if (off <= -P || off >= P)
		return true;
	const int64_t hi = lo + s * (int64_t)(n - 1);
	for (int64_t a = lo; a <= hi;) {
		const int64_t end = (a / P + 1) * P - 1 < hi ? (a / P + 1) * P - 1 : hi;
		const int64_t last = a + (end - a) / s * s;
		if ((off > 0 && last % P + off >= P) || (off < 0 && a % P + off < 0))
			return true;
		a = last + s;
	}
	return false;
}

/* Does some transfer of c leave its source's bank?  Decided run by run
 * of c's arrays (the innermost dimension of its pattern). */
static bool crosses_banks(const struct lower *L, const emu_move *c)
{
	const emu_pattern *p = &c->arrays;
	const uint64_t n = emu_pattern_size(p);
	const uint64_t copies = c->kind == EMU_MOVE_BCAST ? c->reuse_count : 1;
	const int64_t P = (int64_t)L->g->arrays_per_way * L->g->ways_per_bank;
	const uint64_t len = p->ndims && p->stride[0] ? p->count[0] : 1;
	const int64_t s = p->ndims && p->stride[0] ? p->stride[0] : 1;
	for (uint64_t r = 0; r < n; r += len) {
		const int64_t first = emu_pattern_at(p, r);
		const int64_t lo = s < 0 ? first + s * (int64_t)(len - 1) : first;
		for (uint64_t j = 0; j < copies; j++)
			if (run_crosses(P, lo, s < 0 ? -s : s, len,
					c->dist + (int64_t)j * c->reuse_stride))
				return true;
	}
	return false;
}

static int push(struct lower *L, const emu_move *c)
{
	if (emu_move_list_push(L->out, c) == 0)
		return 0;
	diag_at(L->d, "lower", 0, 0, "out of memory lowering a move");
	return -1;
}

static int sync_if_remote(struct lower *L)
{
	if (!L->remote)
		return 0;
	L->remote = false;
	const emu_move s = emu_move_sync();
	return push(L, &s);
}

/* The physical bitlines of piece p in one wordline group: the whole
 * offset ranges of the dimensions below the cut, and offsets
 * [u, u + len) of the cut dimension (layout.h: tile bitline b is
 * physical bitline b mod B of group b / B). */
static emu_pattern group_bitlines(const struct lower *L, const struct piece *p,
				  uint64_t u, uint64_t len)
{
	emu_pattern b;
	memset(&b, 0, sizeof b);
	for (unsigned j = 0; j < L->c && j < EMU_LAYOUT_DIMS; j++) {
		b.start += (int64_t)(p->s[j].o0 * L->S[j]);
		pat_add(&b, L->S[j], p->s[j].o1 - p->s[j].o0);
	}
	if (L->c < EMU_LAYOUT_DIMS) {
		b.start += (int64_t)(u % L->m * L->S[L->c]);
		pat_add(&b, L->S[L->c], len);
	}
	emu_pattern_simplify(&b);
	return b;
}

/* The group of offset oc of the cut dimension and offsets o of the
 * dimensions above it. */
static uint64_t group_of(const struct lower *L, uint64_t oc, const uint64_t *o)
{
	if (L->c >= EMU_LAYOUT_DIMS)
		return 0;
	uint64_t g = oc / L->m;
	for (unsigned j = L->c + 1; j < EMU_LAYOUT_DIMS; j++)
		g += o[j] * (L->S[j] / L->B);
	return g;
}

static int emit_phys(struct lower *L, const struct piece *p, const struct shift *sh,
		     const emu_pattern *src, int64_t dstart, uint64_t gs, uint64_t gd)
{
	const emu_pattern tiles = tile_pattern(L, p);
	const unsigned wl = L->swl + (unsigned)gs * L->width;
	const unsigned dwl = L->dwl + (unsigned)gd * L->width;
	emu_move c;
	if (sh->kind == EMU_MOVE_INTRA) {
		const int64_t dist = dstart - src->start;
		const bool far = dist > 1 || dist < -1;
		if (dist == 0 && wl == dwl)
			return 0;
		if (far && L->scratch == SRAM_NO_ROW) {
			diag_at(L->d, L->r->path ? L->r->path : "lower", L->r->line, L->r->col,
				"region '%s': a shift by %" PRId64 " bitlines needs a scratch "
				"wordline; expected one outside the region's wordlines",
				L->r->name, dist);
			return -1;
		}
		c = emu_move_intra(&tiles, src, dist, wl, L->width, dwl,
				   far ? L->scratch : SRAM_NO_ROW);
	} else {
		emu_pattern dst = *src;
		dst.start = dstart;
		const int64_t dist = sh->dt * (int64_t)L->N[sh->k];
		if (sh->kind == EMU_MOVE_INTER)
			c = emu_move_inter(&tiles, src, dist, &dst, wl, L->width, dwl);
		else
			c = emu_move_bcast(&tiles, src, dist, (int64_t)L->N[sh->k], sh->reuse,
					   &dst, wl, L->width, dwl);
		L->remote = L->remote || crosses_banks(L, &c);
	}
	return push(L, &c);
}

/* One chunk: offsets [u, e) of the cut dimension (inside one group),
 * offsets o of the dimensions above it. */
static int emit_chunk(struct lower *L, const struct piece *p, const struct shift *sh,
		      const uint64_t *o, uint64_t u, uint64_t e)
{
	const unsigned k = sh->k;
	const uint64_t gs = group_of(L, u, o);
	if (k < L->c) {
		const emu_pattern src = group_bitlines(L, p, u, e - u);
		return emit_phys(L, p, sh, &src, src.start + sh->dint * (int64_t)L->S[k],
				 gs, gs);
	}
	if (k > L->c) {
		uint64_t o2[EMU_LAYOUT_DIMS];
		memcpy(o2, o, sizeof o2);
		o2[k] = (uint64_t)((int64_t)o2[k] + sh->dint);
		const emu_pattern src = group_bitlines(L, p, u, e - u);
		return emit_phys(L, p, sh, &src, src.start, gs, group_of(L, u, o2));
	}
	/* Along the cut dimension the chunk may land in two groups. */
	const uint64_t a0 = (uint64_t)((int64_t)u + sh->dint);
	const uint64_t a1 = (uint64_t)((int64_t)e + sh->dint);
	for (uint64_t a = a0, b; a < a1; a = b) {
		b = (a / L->m + 1) * L->m < a1 ? (a / L->m + 1) * L->m : a1;
		const uint64_t from = (uint64_t)((int64_t)a - sh->dint);
		const emu_pattern src = group_bitlines(L, p, from, b - a);
		const int64_t dstart = src.start - (int64_t)(from % L->m * L->S[k]) +
				       (int64_t)(a % L->m * L->S[k]);
		if (emit_phys(L, p, sh, &src, dstart, group_of(L, from, o),
			      group_of(L, a, o)) != 0)
			return -1;
	}
	return 0;
}

/* A logical shift of piece p: one physical command per wordline group
 * it touches (one in all without virtual bitlines). */
static int emit(struct lower *L, const struct piece *p, const struct shift *sh)
{
	const unsigned c = L->c;
	if (c >= EMU_LAYOUT_DIMS)
		return emit_chunk(L, p, sh, (const uint64_t[EMU_LAYOUT_DIMS]){0}, 0, 0);
	uint64_t o[EMU_LAYOUT_DIMS] = {0};
	for (unsigned j = c + 1; j < EMU_LAYOUT_DIMS; j++)
		o[j] = p->s[j].o0;
	for (;;) {
		for (uint64_t u = p->s[c].o0, e; u < p->s[c].o1; u = e) {
			e = (u / L->m + 1) * L->m < p->s[c].o1 ? (u / L->m + 1) * L->m
							       : p->s[c].o1;
			if (emit_chunk(L, p, sh, o, u, e) != 0)
				return -1;
		}
		unsigned j = c + 1;
		for (; j < EMU_LAYOUT_DIMS; j++) {
			if (++o[j] < p->s[j].o1)
				break;
			o[j] = p->s[j].o0;
		}
		if (j == EMU_LAYOUT_DIMS)
			return 0;
	}
}

/* Algorithm 2's Shift(A, k, [mlo, mhi), dt, dint) for piece p: the part
 * of p inside the mask, if any. */
static int shift_part(struct lower *L, const struct piece *p, unsigned k,
		      uint64_t mlo, uint64_t mhi, int64_t dt, int64_t dint)
{
	struct piece q = *p;
	struct span *s = &q.s[k];
	s->o0 = s->o0 > mlo ? s->o0 : mlo;
	s->o1 = s->o1 < mhi ? s->o1 : mhi;
	if (s->o0 >= s->o1)
		return 0; /* "filtered out later (omitted in Alg 2)" */
	const struct shift sh = {dt ? EMU_MOVE_INTER : EMU_MOVE_INTRA, k, dt, dint, 1};
	return emit(L, &q, &sh);
}

/* Algorithm 2: piece p moved by d along k. */
static int shift_piece(struct lower *L, const struct piece *p, unsigned k, int64_t d)
{
	const uint64_t T = L->T[k], a = (uint64_t)(d < 0 ? -d : d);
	const int64_t inter = (int64_t)(a / T), intra = (int64_t)(a % T);
	const int64_t bar = (int64_t)T - intra;
	if (d >= 0)
		return shift_part(L, p, k, 0, (uint64_t)bar, inter, intra) ||
		       (intra && shift_part(L, p, k, (uint64_t)bar, T, inter + 1, -bar))
		       ? -1 : 0;
	return (intra && shift_part(L, p, k, 0, (uint64_t)intra, -(inter + 1), bar)) ||
	       shift_part(L, p, k, (uint64_t)intra, T, -inter, -intra) ? -1 : 0;
}

/* ---- lowering: entry points ---- */

static int lower_err(const struct lower *L, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int lower_err(const struct lower *L, const char *fmt, ...)
{
	char head[EMU_REGION_NAME_MAX + 16];
	va_list ap;
	snprintf(head, sizeof head, "region '%s'", L->r->name);
	va_start(ap, fmt);
	say(L->d, L->r->path ? L->r->path : "lower", L->r->line, L->r->col, head, fmt, ap);
	va_end(ap);
	return -1;
}

/* The region's layout.  A tile of P bitlines either fills whole arrays
 * (P a multiple of B, virtual bitlines beyond B: emu_region_check), or
 * uses the first P < B bitlines of its array (as Fig 9 draws 4-bitline
 * arrays on a machine whose arrays have at least 8). */
static int lower_layout(struct lower *L)
{
	const emu_region *r = L->r;
	const uint64_t P = emu_region_tile_bitlines(r);
	if (P >= L->B)
		return emu_region_check(r, L->g, L->d);
	if (r->ndims < 1 || r->ndims > EMU_LAYOUT_DIMS || r->width < 1 || r->width > 64)
		return lower_err(L, "%u dimensions of %u-bit elements; expected 1..3 "
				 "dimensions of 1..64 bits", r->ndims, r->width);
	const uint64_t arrays = (uint64_t)L->g->arrays_per_way * L->g->ways_per_bank *
				L->g->mesh_x * L->g->mesh_y;
	if (r->array0 + emu_region_tiles(r) > arrays)
		return lower_err(L, "needs arrays %u..%" PRIu64 ", the machine has "
				 "0..%" PRIu64, r->array0,
				 r->array0 + emu_region_tiles(r) - 1, arrays - 1);
	if (r->wl + r->width > L->g->wordlines)
		return lower_err(L, "needs wordlines %u..%u, the arrays have %u",
				 r->wl, r->wl + r->width - 1, L->g->wordlines);
	return 0;
}

/* The strides of L->r's tiles and tile numbers, and the dimension its
 * wordline groups cut (virtual bitlines). */
static void lower_geometry(struct lower *L)
{
	emu_region_grid(L->r, L->n);
	L->S[0] = 1;
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++) {
		L->T[k] = L->r->tile[k];
		L->S[k + 1] = L->S[k] * L->T[k];
		L->N[k] = k ? L->N[k - 1] * L->n[k - 1] : 1;
	}
	L->c = EMU_LAYOUT_DIMS;
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS && L->S[EMU_LAYOUT_DIMS] > L->B; k++)
		if (L->S[k + 1] > L->B) {
			L->c = k;
			L->m = L->B / L->S[k];
			break;
		}
}

void emu_piece_patterns(const emu_region *r, const sram_geom *g, const emu_box *b,
			emu_pattern *arrays, emu_pattern *bitlines)
{
	struct lower L;
	struct piece p;
	memset(&L, 0, sizeof L);
	L.r = r;
	L.g = g;
	L.B = g->bitlines;
	lower_geometry(&L);
	piece_of(&L, b, &p);
	*arrays = tile_pattern(&L, &p);
	*bitlines = group_bitlines(&L, &p, 0, 0);
}

static int lower_setup(struct lower *L, const emu_region *r, const sram_geom *g,
		       unsigned dst_wl, unsigned scratch, emu_move_list *out, diag *d)
{
	memset(L, 0, sizeof *L);
	L->r = r;
	L->g = g;
	L->B = g->bitlines;
	L->width = r->width;
	L->swl = r->wl;
	L->dwl = dst_wl;
	L->scratch = scratch;
	L->out = out;
	L->d = d;
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++)
		if (r->tile[k] == 0 || r->size[k] == 0)
			return lower_err(L, "size and tile of dimension %u must be >= 1", k);
	if (lower_layout(L) != 0)
		return -1;
	lower_geometry(L);
	const unsigned rows = (unsigned)emu_region_rows(r, g);
	if (dst_wl + rows > g->wordlines)
		return lower_err(L, "destination wordlines %u..%u are outside the "
				 "arrays' 0..%u", dst_wl, dst_wl + rows - 1,
				 g->wordlines - 1);
	if (emu_windows_meet(dst_wl, r->wl, rows))
		return lower_err(L, "destination wordlines %u..%u overlap the region's "
				 "%u..%u; expected the new value in wordlines of its own "
				 "(§3.4: the compiler allocates them)", dst_wl,
				 dst_wl + rows - 1, r->wl, r->wl + rows - 1);
	if (scratch != SRAM_NO_ROW &&
	    (scratch >= g->wordlines || emu_windows_meet(scratch, r->wl, rows) ||
	     emu_windows_meet(scratch, dst_wl, rows)))
		return lower_err(L, "scratch wordline %u must be inside the arrays' "
				 "0..%u and outside wordlines %u..%u and %u..%u",
				 scratch, g->wordlines - 1, r->wl, r->wl + rows - 1,
				 dst_wl, dst_wl + rows - 1);
	return 0;
}

static int check_box(const struct lower *L, const emu_box *b)
{
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++)
		if (b->lo[k] >= b->hi[k] || b->hi[k] > L->r->size[k])
			return lower_err(L, "box [%" PRIu64 ", %" PRIu64 ") of dimension "
					 "%u; expected a non-empty part of 0..%" PRIu64,
					 b->lo[k], b->hi[k], k, L->r->size[k]);
	return 0;
}

/* Algorithms 1 and 2 on box moved by d along k (the box clipped first so
 * nothing lands outside the region: that data is discarded). */
static int lower_box(struct lower *L, const emu_box *box, unsigned k, int64_t d)
{
	emu_box b = *box, pieces[27];
	const uint64_t S = L->r->size[k];
	if (d < 0 && b.lo[k] < (uint64_t)-d)
		b.lo[k] = (uint64_t)-d;
	if (d > 0) {
		const uint64_t limit = S > (uint64_t)d ? S - (uint64_t)d : 0;
		if (b.hi[k] > limit)
			b.hi[k] = limit;
	}
	if (b.lo[k] >= b.hi[k])
		return 0;
	const size_t n = emu_decompose(&b, L->T, pieces);
	for (size_t i = 0; i < n; i++) {
		struct piece p;
		piece_of(L, &pieces[i], &p);
		if (shift_piece(L, &p, k, d) != 0)
			return -1;
	}
	return 0;
}

int emu_lower_move(const emu_region *r, const sram_geom *g, const emu_box *box,
		   const int64_t offset[EMU_LAYOUT_DIMS], unsigned dst_wl,
		   unsigned scratch, emu_move_list *out, diag *d)
{
	struct lower L;
	unsigned k = 0, moved = 0;
	if (lower_setup(&L, r, g, dst_wl, scratch, out, d) || check_box(&L, box))
		return -1;
	for (unsigned j = 0; j < EMU_LAYOUT_DIMS; j++)
		if (offset[j]) {
			k = j;
			moved++;
		}
	if (moved > 1)
		return lower_err(&L, "offset (%" PRId64 ", %" PRId64 ", %" PRId64 ") moves "
				 "along %u dimensions; a mv moves along one (§3.2), so "
				 "lower each dimension as its own mv", offset[0], offset[1],
				 offset[2], moved);
	if (lower_box(&L, box, k, offset[k]) != 0)
		return -1;
	return sync_if_remote(&L);
}

/* Fill offsets [x, hi) along k of piece p (tiles set, offset x holding
 * the value) by doubling: copy [x, x + w) to [x + w, x + 2w), clipped to
 * hi, for w = 1, 2, 4, ...: about hi - x bitline steps of dimension k. */
static int fill_tiles(struct lower *L, const struct piece *p, unsigned k,
		      uint64_t x, uint64_t hi)
{
	for (uint64_t w = 1; x + w < hi;) {
		const uint64_t len = w < hi - (x + w) ? w : hi - (x + w);
		struct piece q = *p;
		q.s[k].o0 = x;
		q.s[k].o1 = x + len;
		const struct shift sh = {EMU_MOVE_INTRA, k, 0, (int64_t)w, 1};
		if (emit(L, &q, &sh) != 0)
			return -1;
		w += len;
	}
	return 0;
}

/* The slab's pieces with dimension k's span replaced. */
static int each_piece(struct lower *L, const emu_box *pieces, size_t n,
		      unsigned k, struct span s, uint64_t x, uint64_t hi,
		      const struct shift *sh)
{
	for (size_t i = 0; i < n; i++) {
		struct piece p;
		piece_of(L, &pieces[i], &p);
		p.s[k] = s;
		if (sh ? emit(L, &p, sh) : fill_tiles(L, &p, k, x, hi))
			return -1;
	}
	return 0;
}

/* Copies q0 .. q1 - 1 along k, in the destination wordlines, of the
 * slab that lower_box already put at q0: fill the head tile, broadcast
 * its slab to the tiles after it (H-tree or NoC multicast), fill them. */
static int broadcast_fill(struct lower *L, const emu_box *pieces, size_t n,
			  unsigned k, uint64_t q0, uint64_t q1)
{
	const uint64_t T = L->T[k], th = q0 / T, x = q0 % T;
	const uint64_t head_hi = q1 - th * T < T ? q1 - th * T : T;
	L->swl = L->dwl;
	if (each_piece(L, pieces, n, k, (struct span){th, th + 1, x, x + 1}, x,
		       head_hi, NULL) != 0)
		return -1;
	if (q1 <= (th + 1) * T)
		return 0;
	const uint64_t tl = (q1 - 1) / T, full_end = q1 % T ? tl : tl + 1;
	const struct shift sh = {EMU_MOVE_BCAST, k, 1, -(int64_t)x, tl - th};
	if (each_piece(L, pieces, n, k, (struct span){th, th + 1, x, x + 1}, 0, 0, &sh) ||
	    sync_if_remote(L))
		return -1;
	if (th + 1 < full_end &&
	    each_piece(L, pieces, n, k, (struct span){th + 1, full_end, 0, 1}, 0, T, NULL))
		return -1;
	if (q1 % T &&
	    each_piece(L, pieces, n, k, (struct span){tl, tl + 1, 0, 1}, 0, q1 % T, NULL))
		return -1;
	return 0;
}

int emu_lower_broadcast(const emu_region *r, const sram_geom *g,
			const emu_box *box, unsigned dim, int64_t dist,
			uint64_t count, unsigned dst_wl, unsigned scratch,
			emu_move_list *out, diag *d)
{
	struct lower L;
	emu_box pieces[27];
	if (lower_setup(&L, r, g, dst_wl, scratch, out, d) || check_box(&L, box))
		return -1;
	if (dim >= r->ndims)
		return lower_err(&L, "broadcast along dimension %u; the region has "
				 "dimensions 0..%u", dim, r->ndims - 1);
	if (box->hi[dim] - box->lo[dim] != 1)
		return lower_err(&L, "a broadcast source has extent 1 along its reuse "
				 "dimension %u; this one has %" PRIu64, dim,
				 box->hi[dim] - box->lo[dim]);
	if (count == 0 || count > (uint64_t)INT64_MAX / 4 || dist > INT64_MAX / 4 ||
	    dist < -(INT64_MAX / 4))
		return lower_err(&L, "reuse count %" PRIu64 " at distance %" PRId64
				 "; expected a count >= 1 and both within 2^61",
				 count, dist);
	const int64_t p = (int64_t)box->lo[dim], S = (int64_t)r->size[dim];
	const int64_t q0 = p + dist > 0 ? p + dist : 0;
	const int64_t q1 = p + dist + (int64_t)count < S ? p + dist + (int64_t)count : S;
	if (q0 >= q1)
		return 0; /* all of it lands outside the region: discarded */
	if (lower_box(&L, box, dim, q0 - p) != 0 || sync_if_remote(&L) != 0)
		return -1;
	const size_t n = emu_decompose(box, L.T, pieces);
	return broadcast_fill(&L, pieces, n, dim, (uint64_t)q0, (uint64_t)q1);
}

/* ---- the lowering pass of a stream as written ---- */

/* The mv.* commands of tensor move c (kind EMU_CMD_TMOVE) of p, appended
 * to l. */
static int lower_tmove(const emu_program *p, const emu_cmd *c, emu_move_list *l, diag *d)
{
	const emu_tmove *tm = &c->tm;
	const emu_buffer *src = &p->bufs[tm->src], *dst = &p->bufs[tm->dst];
	emu_region r;
	emu_box box;
	emu_buffer_region(src, &r);
	r.path = p->path;
	r.line = c->line;
	r.col = tm->col;
	memcpy(box.lo, tm->lo, sizeof box.lo);
	memcpy(box.hi, tm->hi, sizeof box.hi);
	const unsigned scratch = p->scratch < p->geom.wordlines ? p->scratch : SRAM_NO_ROW;
	return emu_lower_move(&r, &p->geom, &box, tm->off, dst->wl, scratch, l, d);
}

static int push_lowered(emu_cmd **v, size_t *n, size_t *cap, const emu_cmd *c, diag *d)
{
	if (*n == *cap) {
		const size_t nc = *cap ? *cap * 2 : 64;
		emu_cmd *nv = realloc(*v, nc * sizeof *nv);
		if (!nv) {
			diag_file(d, "infsim", "out of memory lowering the stream");
			return -1;
		}
		*v = nv;
		*cap = nc;
	}
	(*v)[(*n)++] = *c;
	return 0;
}

/* Append the commands of tensor move c, numbered from *n + 1, each
 * checked as the assembler checks a written mv.* command. */
static int push_tmove(const emu_program *p, const emu_cmd *c, emu_cmd **v, size_t *n,
		      size_t *cap, diag *d)
{
	emu_move_list l;
	emu_move_list_init(&l);
	int rc = lower_tmove(p, c, &l, d);
	for (size_t j = 0; rc == 0 && j < l.n; j++) {
		emu_cmd m;
		memset(&m, 0, sizeof m);
		m.kind = EMU_CMD_MOVE;
		m.buf_d = m.buf_d2 = m.buf_a = m.buf_b = m.buf_c = -1;
		m.line = c->line;
		m.mv = l.v[j];
		m.mv.line = c->line;
		rc = emu_move_check_at(&m.mv, &p->geom, p->path, *n + 1, c->tm.col, d);
		if (rc == 0)
			rc = push_lowered(v, n, cap, &m, d);
	}
	emu_move_list_free(&l);
	return rc;
}

int emu_program_lower(emu_program *p, diag *d)
{
	if (!emu_program_written(p))
		return 0;
	emu_cmd *v = NULL;
	size_t n = 0, cap = 0, m = 0;
	for (size_t i = 0; i < p->ncmds; i++) {
		const emu_cmd *c = &p->cmds[i];
		/* a node marker stands before the same command, now number n */
		for (; m < p->nmarks && p->marks[m].at == i; m++)
			p->marks[m].at = n;
		const int rc = c->kind == EMU_CMD_TMOVE ? push_tmove(p, c, &v, &n, &cap, d)
							: push_lowered(&v, &n, &cap, c, d);
		if (rc != 0) {
			free(v);
			return -1;
		}
	}
	for (; m < p->nmarks; m++)
		p->marks[m].at = n;
	free(p->cmds);
	p->cmds = v;
	p->ncmds = n;
	return 0;
}
