/* SPDX-License-Identifier: MIT */
/*
 * jit.c: lowering a tDFG into a command stream (infinity-stream §3.4:
 * serialise in topological order and allocate wordlines locally; §4.1:
 * one tile for the region; §4.2: Algorithm 1 for every node's domain,
 * Algorithm 2 for moves).  tdfg.h describes what each node becomes.
 *
 * The product is a program and its text: a stream anyone can read, save
 * and run with `infsim run`.  The declarations are assembled from their
 * text; every command goes straight into the program through the
 * assembler's checks (jit_asm.c), as emu_parse would build it from its
 * line, so nothing is printed and read back on the way (§8: the JIT runs
 * at run time).  If a check fails, the whole text is assembled instead
 * and a message about a generated line is reported at the node that
 * made it, with the line quoted, so a mistake in a tDFG is never blamed
 * on text its author did not write.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tdfg.h"
#include "tile_cost.h"
#include "move.h"
#include "jit_asm.h"

/* The text being written, with the node (or -1) of each line. */
typedef struct gen {
	char *text;            /* NUL-terminated */
	size_t size, tcap;
	int line;               /* lines written so far */
	long *line_node;        /* node of each line (1-based), -1 for none */
	int *line_src;          /* source line for messages */
	int *line_col;          /* and its column, for a line of no node (0: none) */
	int col_hint;           /* the column put_line gives the next line */
	size_t cap;
	bool oom;
	emu_tdfg *t;
	diag *d;
	uint16_t scratch;
	bool *first;           /* per run: the first of its region (first_runs) */
	/* The memo (§4): for each region run that was lowered, where its
	 * text and lines are, to replay them for a run that repeats it. */
	struct span {
		size_t t0, t1;
		int l0, l1;
		size_t c0, c1, m0, m1; /* its commands and markers in the program */
	} *span;               /* per run; t1 == 0 when it was a hit */
	emu_jit *out;
	/* The program built next to the text (jit_asm.h). */
	emu_jasm js;
	int16_t *buf_of;       /* per node as declared: its tensor's buffer */
	size_t nbuf;           /* buffers declared so far */
	size_t *wr0;           /* per region as written: its first run's node0 */
	size_t *src0;          /* where each line of the tDFG starts (NULL: none) */
	int nsrc;
} gen;

/* Room in g->text for n more bytes, a newline and the NUL: false (and
 * g->oom) when out of memory. */
static bool text_room(gen *g, size_t n)
{
	if (g->size + n + 2 <= g->tcap)
		return true;
	size_t nc = g->tcap ? g->tcap * 2 : 4096;
	while (nc < g->size + n + 2)
		nc *= 2;
	char *t = realloc(g->text, nc);
	if (!t) {
		g->oom = true;
		return false;
	}
	g->text = t;
	g->tcap = nc;
	return true;
}

/* The n bytes just written at the end of g->text end the line. */
static void text_end_line(gen *g, size_t n)
{
	g->size += n;
	g->text[g->size++] = '\n';
	g->text[g->size] = 0;
}

/* A line of text and its newline at the end of g->text (kept
 * NUL-terminated), formatted in place: a FILE of open_memstream costs
 * more per line than the formatting. */
static void put_text(gen *g, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
static void put_text(gen *g, const char *fmt, va_list ap)
{
	va_list again;
	va_copy(again, ap);
	const size_t room = g->tcap - g->size;
	const int n = vsnprintf(g->text ? g->text + g->size : NULL, g->text ? room : 0, fmt, ap);
	if (n < 0)
		g->oom = true;
	else if ((size_t)n + 2 > room && text_room(g, (size_t)n))
		vsnprintf(g->text + g->size, g->tcap - g->size, fmt, again);
	va_end(again);
	if (n < 0 || g->oom)
		return;
	text_end_line(g, (size_t)n);
}

/* A new line of the stream for node (or -1) and tDFG line src: false
 * when out of memory. */
static bool line_begin(gen *g, long node, int src)
{
	if ((size_t)g->line + 2 > g->cap) {
		const size_t nc = g->cap ? g->cap * 2 : 256;
		long *ln = realloc(g->line_node, nc * sizeof *ln);
		if (ln)
			g->line_node = ln;
		int *ls = realloc(g->line_src, nc * sizeof *ls);
		if (ls)
			g->line_src = ls;
		int *lc = realloc(g->line_col, nc * sizeof *lc);
		if (lc)
			g->line_col = lc;
		if (!ln || !ls || !lc) {
			g->oom = true;
			return false;
		}
		g->cap = nc;
	}
	g->line++;
	g->line_node[g->line] = node;
	g->line_src[g->line] = src;
	g->line_col[g->line] = g->col_hint;
	g->col_hint = 0;
	return true;
}

static void put_line(gen *g, long node, int src, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void put_line(gen *g, long node, int src, const char *fmt, ...)
{
	va_list ap;
	if (!line_begin(g, node, src))
		return;
	va_start(ap, fmt);
	put_text(g, fmt, ap);
	va_end(ap);
}

/* put_line of n bytes of text as they are (no printf). */
static void put_str(gen *g, long node, int src, const char *s, size_t n)
{
	if (!line_begin(g, node, src) || !text_room(g, n))
		return;
	memcpy(g->text + g->size, s, n);
	text_end_line(g, n);
}

/* The lines the JIT writes for every node and command are built with a
 * text_buf (lib/text.h), not printf, into JIT_LINE bytes: every part of
 * them is bounded (names, init= text, the tDFG's path, which was opened,
 * 150 bytes of its source line, patterns), so any fits; a longer line
 * would be cut, never overrun. */
enum { JIT_LINE = 8192 };

static void put_built(gen *g, long node, int src, const char *line, const text_buf *t)
{
	put_str(g, node, src, line, t->n < t->cap ? t->n : t->cap - 1);
}

static int node_err(gen *g, const emu_tnode *x, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int node_err(gen *g, const emu_tnode *x, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vat(g->d, g->t->path, x->line, x->op_col, fmt, ap);
	va_end(ap);
	return -1;
}

/* ---- the region's layout (§4.1) ---- */

static void region_of(const emu_tdfg *t, const emu_tnode *x, emu_region *r)
{
	const emu_tregion *tr = &t->regions[x->region];
	emu_region_init(r, x->name, x->fmt, x->width, x->is_signed);
	r->ndims = tr->ndims;
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++) {
		r->size[k] = tr->shape[k];
		r->tile[k] = tr->tile[k] ? tr->tile[k] : 1;
	}
	r->wl = x->wl;
	r->array0 = tr->array0;
	r->trans = EMU_TRANS_DONE;
	r->path = t->path;
	r->line = x->line;
	r->col = x->col;
}

/* The hints: the region's hint= and what its nodes move (§3.3: the
 * compiler derives them from the tDFG's data movement). */
static emu_compute region_hints(const emu_tdfg *t, const emu_tregion *r)
{
	emu_compute h = r->hint;
	for (size_t i = r->node0; i < r->node1; i++) {
		const emu_tnode *x = &t->nodes[i];
		for (unsigned k = 0; x->kind == EMU_TN_SHIFT && k < EMU_LAYOUT_DIMS; k++)
			h.shift |= x->off[k] ? 1u << k : 0;
		if (x->kind == EMU_TN_REDUCE)
			h.reduce |= 1u << x->dim;
		if (x->kind == EMU_TN_BCAST)
			h.broadcast |= 1u << x->dim;
	}
	return h;
}

/* One tile for all the region's tensors: given, or the best tile valid
 * for every element type in it, chosen for the first output (the
 * primary array of §4.1), else the first node. */
static int region_tile(gen *g, emu_tregion *tr)
{
	emu_tdfg *t = g->t;
	const size_t n = tr->node1 - tr->node0;
	emu_region *rs = calloc(n, sizeof *rs);
	emu_region **rp = calloc(n, sizeof *rp);
	size_t primary = 0;
	int rc = 0;
	if (!rs || !rp) {
		diag_file(g->d, t->path, "out of memory");
		rc = -1;
		goto out;
	}
	/* One region per element type: the rules depend on the type only,
	 * so a message names each failing type once, not once per node. */
	size_t m = 0;
	bool primary_out = false;
	for (size_t i = 0; i < n; i++) {
		const emu_tnode *x = &t->nodes[tr->node0 + i];
		size_t k = 0;
		while (k < m && !(rs[k].fmt == x->fmt && rs[k].width == x->width))
			k++;
		if (k == m) {
			region_of(t, x, &rs[m]);
			snprintf(rs[m].name, sizeof rs[m].name, "%s", tr->name); /* messages name it */
			rp[m] = &rs[m];
			m++;
		}
		if (x->output && !primary_out) {
			primary = k;
			primary_out = true;
		}
	}
	const emu_tile_req q = {0, 0, region_hints(t, tr)};
	if (tr->tile[0]) {
		for (size_t i = 0; i < m && !rc; i++)
			rc = emu_tile_check_given(&rs[i], &t->geom, &q, g->d);
	} else if (emu_jit_pick_tile(t, tr, rp, m, &q, tr->tile)) {
		for (size_t i = 0; i < m; i++) /* the machine's costs (tile_cost.c) */
			memcpy(rs[i].tile, tr->tile, sizeof tr->tile);
	} else if ((rc = emu_tile_select_group(rp, m, primary, &t->geom, &q, g->d)) == 0) {
		memcpy(tr->tile, rs[0].tile, sizeof tr->tile);
	}
	if (!rc && emu_region_groups(&rs[0], &t->geom) > 1) {
		diag_at(g->d, t->path, tr->line, tr->col, "region '%s': a tile of %" PRIu64
			" bitlines is more than an array's %u; compute commands need a tile that "
			"fits one array (give tile=)", tr->name, emu_region_tile_bitlines(&rs[0]),
			t->geom.bitlines);
		rc = -1;
	}
out:
	free(rs);
	free(rp);
	return rc;
}

/* Which runs are the first of their region as written: the JIT tiles
 * and allocates a region once; its later runs copy what the first got.
 * A tDFG built without the parser (no regions as written) has one run
 * of each region. */
static bool *first_runs(const emu_tdfg *t)
{
	bool *first = calloc(t->nregions ? t->nregions : 1, sizeof *first);
	bool *seen = calloc(t->ntregions ? t->ntregions : 1, sizeof *seen);
	if (!seen) {
		free(first);
		return NULL;
	}
	for (size_t r = 0; first && r < t->nregions; r++) {
		const uint32_t w = t->regions[r].tmpl;
		first[r] = !t->tregions || w >= t->ntregions || !seen[w];
		if (t->tregions && w < t->ntregions)
			seen[w] = true;
	}
	free(seen);
	return first;
}

/* The arrays a region reads and stores share its tile: the first region
 * to use an array gives it its tile (§4.1: one layout per array), and a
 * later region adopts it. */
static int region_tile_arrays(gen *g, emu_tregion *tr)
{
	emu_tdfg *t = g->t;
	for (size_t i = tr->node0; i < tr->node1; i++) {
		const emu_tnode *x = &t->nodes[i];
		if (x->kind != EMU_TN_TENSOR && x->kind != EMU_TN_STORE)
			continue; /* only they name an array (t->arrays may be NULL) */
		const emu_tarray *a = &t->arrays[x->array];
		if (!a->tile[0])
			continue;
		if ((tr->tile[0] && memcmp(tr->tile, a->tile, sizeof a->tile) != 0) ||
		    a->array0 != tr->array0) {
			diag_at(g->d, t->path, tr->line, tr->col, "region '%s' uses array '%s', which "
				"an earlier region laid out with tile %" PRIu64 "x%" PRIu64 "x%" PRIu64
				" from array %u; give the region the same tile= and array=", tr->name,
				a->name, a->tile[0], a->tile[1], a->tile[2], a->array0);
			return -1;
		}
		memcpy(tr->tile, a->tile, sizeof tr->tile);
	}
	if (region_tile(g, tr))
		return -1;
	for (size_t i = tr->node0; i < tr->node1; i++) {
		const emu_tnode *x = &t->nodes[i];
		if (x->kind != EMU_TN_TENSOR && x->kind != EMU_TN_STORE)
			continue;
		emu_tarray *a = &t->arrays[x->array];
		if (!a->tile[0]) {
			memcpy(a->tile, tr->tile, sizeof a->tile);
			a->array0 = tr->array0;
		}
	}
	return 0;
}

static void dims_text(const uint64_t *v, unsigned nd, char *buf, size_t size);

/* What a layout message (emu/layout: "FILE:L:C: error: region 'NAME':
 * WHY") says after its prefix: the layout calls everything it lays out
 * a region, and the JIT reports it about an array as the array. */
static const char *layout_why(const char *msg)
{
	const char *m = strstr(msg, "error: region '");
	const char *q = m ? strstr(m + 15, "': ") : NULL;
	if (q)
		return q + 3;
	return m ? m + 7 : msg;
}

/* Array a as the layout sees it, with tile T from array array0. */
static void array_region(const emu_tdfg *t, const emu_tarray *a, const uint64_t *T,
			 uint32_t array0, emu_region *r)
{
	emu_region_init(r, a->name, a->fmt, a->width, a->is_signed);
	r->ndims = a->ndims;
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++) {
		r->size[k] = a->shape[k];
		r->tile[k] = T[k];
	}
	r->array0 = array0;
	r->path = t->path;
	r->line = a->line;
	r->col = a->col;
}

/* Does tile T from array array0 lay out array a, as the assembler
 * checks a tensor line's tile= (a full tile by §4.1's rules, one on
 * part of an array by the fit rule alone)?  ld says why not. */
static bool array_tile_ok(const emu_tdfg *t, const emu_tarray *a, const uint64_t *T,
			  uint32_t array0, diag *ld)
{
	emu_region r;
	array_region(t, a, T, array0, &r);
	const uint64_t P = emu_region_tile_bitlines(&r);
	const emu_tile_req q = {0, P > t->geom.bitlines ? P : 0, {0, 0, 0}};
	return emu_region_check(&r, &t->geom, ld) == 0 &&
	       emu_tile_check_given(&r, &t->geom, &q, ld) == 0;
}

/* A tile for each array that no run of any region uses (no tensor or
 * store names it, even after the swaps).  Nothing computes on such an
 * array: only its init=/load= data, --load, --save and --dump touch it,
 * through the transpose unit, which moves any tile.  So its tile need
 * not suit a command, only lay it out on the machine; left to the
 * assembler's default pick (a tensor line without tile=), its sizes
 * would have to obey the rules of a region that computes (S_0 a
 * multiple of a line's elements), and a valid program that only
 * declares the array beside its regions would be refused.  In order:
 *   1. the tile and array= of the first run's region of the same sizes,
 *      if it lays out the array (its element type may need other line
 *      rules): the array is then laid out as the arrays that region
 *      uses, cell for cell;
 *   2. else the tile the default rules pick for its sizes (§4.1,
 *      emu_tile_select: what the assembler gives a tensor line without
 *      tile=, so an array that fits them keeps that layout);
 *   3. else a tile on part of one array (Fig 9; the rules of the line do
 *      not apply to it): each size rounded up to a power of two, the
 *      outermost dimension halved first until the tile has fewer
 *      bitlines than an array (a tile of a whole array would meet the
 *      line rules again), dimension 0 kept as long as it can be.
 * If none lays it out, the message names the array and why (the
 * default rules' reason, and the part-of-an-array tile's). */
static int tile_spare_arrays(gen *g)
{
	emu_tdfg *t = g->t;
	const uint64_t B = t->geom.bitlines;
	for (size_t i = 0; i < t->narrays; i++) {
		emu_tarray *a = &t->arrays[i];
		if (a->tile[0])
			continue; /* a region uses it: its tile */
		diag ld;
		bool done = false;
		for (size_t r = 0; r < t->nregions && !done; r++) {
			const emu_tregion *tr = &t->regions[r];
			bool same = g->first[r] && tr->tile[0] && tr->ndims == a->ndims;
			for (unsigned k = 0; same && k < EMU_LAYOUT_DIMS; k++)
				same = tr->shape[k] == a->shape[k];
			diag_clear(&ld);
			if (same && array_tile_ok(t, a, tr->tile, tr->array0, &ld)) {
				memcpy(a->tile, tr->tile, sizeof a->tile);
				a->array0 = tr->array0;
				done = true;
			}
		}
		if (done)
			continue;
		emu_region r;
		const uint64_t one[EMU_LAYOUT_DIMS] = {1, 1, 1};
		const emu_tile_req q = {0, 0, {0, 0, 0}};
		uint64_t T[EMU_LAYOUT_DIMS];
		array_region(t, a, one, 0, &r);
		diag_clear(&ld);
		if (emu_tile_select(&r, &t->geom, &q, T, &ld) == 0) {
			memcpy(a->tile, T, sizeof a->tile);
			a->array0 = 0;
			continue;
		}
		uint64_t P = 1;
		for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++) {
			T[k] = 1;
			while (T[k] < a->shape[k] && T[k] < B)
				T[k] <<= 1;
			P *= T[k];
		}
		for (unsigned k = EMU_LAYOUT_DIMS; P >= B && B > 1 && k-- > 0;)
			while (P >= B && T[k] > 1) {
				T[k] >>= 1;
				P >>= 1;
			}
		diag pd;
		diag_clear(&pd);
		if (B > 1 && array_tile_ok(t, a, T, 0, &pd)) {
			memcpy(a->tile, T, sizeof a->tile);
			a->array0 = 0;
			continue;
		}
		char tn[16], shape[64], tile[64];
		dims_text(a->shape, a->ndims, shape, sizeof shape);
		dims_text(T, a->ndims, tile, sizeof tile);
		diag_at(g->d, t->path, a->line, a->col, "array '%s' (%s %s), which no region uses, "
			"cannot be laid out on this machine: %s; nor on part of an array (tile %s): "
			"%s", a->name, isa_type_name(a->fmt, a->width, a->is_signed, tn, sizeof tn),
			shape, layout_why(ld.msg), tile, B > 1 ? layout_why(pd.msg)
			: "the arrays have 1 bitline");
		return -1;
	}
	return 0;
}

/* Per region as written, the first node of its first run (SIZE_MAX if
 * it never runs): written_index in constant time. */
static size_t *first_nodes(const emu_tdfg *t, const bool *first)
{
	const size_t n = t->tregions && t->ntregions ? t->ntregions : 1;
	size_t *w = malloc(n * sizeof *w);
	for (size_t k = 0; w && k < n; k++)
		w[k] = SIZE_MAX;
	for (size_t r = 0; w && first && t->tregions && r < t->nregions; r++)
		if (first[r] && t->regions[r].tmpl < t->ntregions &&
		    w[t->regions[r].tmpl] == SIZE_MAX)
			w[t->regions[r].tmpl] = t->regions[r].node0;
	return w;
}

/* Every run's tile: its region's, chosen at the first run. */
static int tile_runs(gen *g)
{
	emu_tdfg *t = g->t;
	for (size_t r = 0; r < t->nregions; r++) {
		emu_tregion *tr = &t->regions[r];
		emu_tregion *w = g->first[r] ? NULL : &t->tregions[tr->tmpl];
		if (w) {
			memcpy(tr->tile, w->tile, sizeof tr->tile);
			continue;
		}
		if (region_tile_arrays(g, tr))
			return -1;
		if (t->tregions && tr->tmpl < t->ntregions)
			memcpy(t->tregions[tr->tmpl].tile, tr->tile, sizeof tr->tile);
	}
	return 0;
}

/* ---- wordline allocation (§3.4) ---- */

/* The scratch rows every command needs: the most any compute node's
 * micro-program uses, and one for shifts by two or more bitlines. */
static unsigned scratch_rows(const emu_tdfg *t, const emu_tnode **who)
{
	unsigned most = 1;
	*who = NULL;
	for (size_t i = 0; i < t->nnodes; i++) {
		const emu_tnode *x = &t->nodes[i];
		if (x->kind != EMU_TN_COMPUTE && x->kind != EMU_TN_REDUCE)
			continue;
		isa_cmd c = x->c;
		isa_rules r;
		memset(&r, 0, sizeof r);
		c.d = 0;
		c.a = (uint16_t)(t->geom.wordlines / 4);
		c.b = x->nargs > 1 || x->kind == EMU_TN_REDUCE ? (uint16_t)(t->geom.wordlines / 4 * 2)
								: ISA_NONE;
		c.c3 = x->nargs > 2 ? (uint16_t)(t->geom.wordlines / 4 * 3) : ISA_NONE;
		c.scratch = 0;
		c.scratch_rows = 0;
		/* The machine's settings, as the assembler gives them: in
		 * fp=ieee a conversion needs more scratch than in ftz. */
		c.flags = t->geom.fp_ieee ? ISA_FL_IEEE : 0;
		c.iters = (uint8_t)emu_geom_cordic(&t->geom);
		(void)isa_check(&c, t->geom.wordlines, t->geom.bitlines, &r);
		if (r.scratch_rows > most) {
			most = r.scratch_rows;
			*who = x;
		}
	}
	return most;
}

static void last_uses(emu_tdfg *t)
{
	for (size_t i = 0; i < t->nnodes; i++) {
		emu_tnode *x = &t->nodes[i];
		x->last_use = x->output || x->kind == EMU_TN_INPUT ? UINT32_MAX : (uint32_t)i;
		for (unsigned a = 0; a < x->nargs; a++) {
			emu_tnode *y = &t->nodes[x->arg[a]];
			if (y->last_use != UINT32_MAX)
				y->last_use = (uint32_t)i;
		}
	}
}

/* First fit in busy[0..top): a run of rows free wordlines, or -1. */
static long first_fit(const uint8_t *busy, unsigned top, unsigned rows)
{
	for (unsigned w = 0, run = 0; w < top; w++) {
		run = busy[w] ? 0 : run + 1;
		if (run == rows)
			return (long)(w + 1 - rows);
	}
	return -1;
}

/* The values live at node x, with their rows: "a 0..31, b 32..63". */
static void live_text(const gen *g, const emu_tnode *x, const uint8_t *busy, char *live,
		      size_t size)
{
	size_t n = 0;
	live[0] = 0;
	for (size_t i = 0; i < g->t->nnodes && n + 80 < size; i++) {
		const emu_tnode *y = &g->t->nodes[i];
		if (y->rows && busy[y->wl] && (y == x || y->last_use == UINT32_MAX ||
					       y->last_use >= (uint32_t)(x - g->t->nodes)))
			n += (size_t)snprintf(live + n, size - n, "%s%s %u..%u", n ? ", " : "",
					      y->name, y->wl, y->wl + y->rows - 1);
	}
	if (!n)
		snprintf(live, size, "none");
}

/* No run of free rows for x itself (tmp < 0), or for its temporary tmp
 * (a reduce: its two hidden ranges, after its own). */
static int no_room(gen *g, const emu_tnode *x, const uint8_t *busy, unsigned top, int tmp)
{
	char live[512];
	live_text(g, x, busy, live, sizeof live);
	if (tmp >= 0)
		return node_err(g, x, "no room for the temporaries of reduce '%s' (2 x %u "
				"wordlines, beside its own %u): temporary %d of 2 does not fit; the "
				"values live here hold wordlines %s, and the scratch rows start at "
				"%u; infsim does not spill (§3.4), so split the region or use "
				"narrower types", x->name, x->width, x->width, tmp + 1, live, top);
	return node_err(g, x, "no room for '%s' (%u wordlines): the values live here hold "
			"wordlines %s, and the scratch rows start at %u; infsim does not spill "
			"(§3.4), so split the region or use narrower types", x->name, x->width, live,
			top);
}

/* Give node i its wordlines (first fit), then free every value whose
 * last use is node i: after the node has its own range, so no node
 * writes over one of its operands. */
static int place(gen *g, uint8_t *busy, unsigned top, size_t i)
{
	emu_tdfg *t = g->t;
	emu_tnode *x = &t->nodes[i];
	const long wl = first_fit(busy, top, x->width);
	if (wl < 0)
		return no_room(g, x, busy, top, -1);
	x->wl = (uint16_t)wl;
	x->rows = x->width;
	memset(busy + wl, 1, x->rows);
	for (unsigned k = 0; x->kind == EMU_TN_REDUCE && k < 2; k++) {
		const long tw = first_fit(busy, top, x->width);
		if (tw < 0)
			return no_room(g, x, busy, top, (int)k);
		x->tmp[k] = (uint16_t)tw;
		memset(busy + tw, 1, x->rows);
	}
	for (unsigned k = 0; x->kind == EMU_TN_REDUCE && k < 2; k++)
		memset(busy + x->tmp[k], 0, x->rows);
	for (size_t j = 0; j <= i; j++) {
		const emu_tnode *y = &t->nodes[j];
		if (y->last_use == (uint32_t)i)
			memset(busy + y->wl, 0, y->rows);
	}
	return 0;
}

/* Allocate in source order, inputs first (§3.4's local allocation). */
static int allocate(gen *g)
{
	emu_tdfg *t = g->t;
	const unsigned top = g->scratch;
	uint8_t *busy = calloc(t->geom.wordlines, 1);
	if (!busy) {
		diag_file(g->d, t->path, "out of memory");
		return -1;
	}
	last_uses(t);
	/* Inputs hold their data from the start (init=, --load), so they are
	 * placed before any value computed ahead of them could take their
	 * wordlines: first pass inputs, second pass the rest. */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < t->nnodes; i++)
			if ((t->nodes[i].kind == EMU_TN_INPUT) == (pass == 0) &&
			    place(g, busy, top, i)) {
				free(busy);
				return -1;
			}
	free(busy);
	return 0;
}

/* Arrays first: their rows are theirs for the whole program. */
static int place_arrays(gen *g, uint8_t *busy)
{
	emu_tdfg *t = g->t;
	for (size_t i = 0; i < t->narrays; i++) {
		emu_tarray *a = &t->arrays[i];
		const long wl = first_fit(busy, g->scratch, a->width);
		if (wl < 0) {
			diag_at(g->d, t->path, a->line, a->col, "no room for array '%s' (%u wordlines): "
				"the arrays before it and the scratch rows (from %u) take the rest; "
				"use a machine with more wordlines or narrower types", a->name,
				a->width, g->scratch);
			return -1;
		}
		a->wl = (uint16_t)wl;
		memset(busy + wl, 1, a->width);
	}
	return 0;
}

/* One region's values, locally (§3.4): inputs and outputs live to the
 * region's end, the others to their last use; tensors and stores are
 * their arrays' rows.  Every row is free again after the region. */
static int allocate_region(gen *g, uint8_t *busy, const emu_tregion *tr)
{
	emu_tdfg *t = g->t;
	for (size_t i = tr->node0; i < tr->node1; i++) {
		emu_tnode *x = &t->nodes[i];
		x->last_use = x->output || x->kind == EMU_TN_INPUT ? UINT32_MAX : (uint32_t)i;
		for (unsigned a = 0; a < x->nargs; a++)
			if (t->nodes[x->arg[a]].last_use != UINT32_MAX)
				t->nodes[x->arg[a]].last_use = (uint32_t)i;
	}
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = tr->node0; i < tr->node1; i++) {
			emu_tnode *x = &t->nodes[i];
			if ((x->kind == EMU_TN_INPUT) != (pass == 0))
				continue;
			if (x->kind == EMU_TN_TENSOR || x->kind == EMU_TN_STORE) {
				x->wl = t->arrays[x->array].wl;
				x->rows = 0;
			} else if (place(g, busy, g->scratch, i)) {
				return -1;
			}
		}
	for (size_t i = tr->node0; i < tr->node1; i++)
		if (t->nodes[i].rows)
			memset(busy + t->nodes[i].wl, 0, t->nodes[i].rows);
	return 0;
}

/* What a node as written got at its region's first run. */
typedef struct rows_of {
	uint16_t wl, rows, tmp[2];
	uint32_t last;         /* its last use, counted from the region's first node */
} rows_of;

/* A program: arrays, then each region at its first run; later runs
 * take the same rows (a tensor's or store's are its array's now). */
static int allocate_program(gen *g)
{
	emu_tdfg *t = g->t;
	uint8_t *busy = calloc(t->geom.wordlines, 1);
	rows_of *saved = calloc(t->ntnodes ? t->ntnodes : 1, sizeof *saved);
	int rc = busy && saved ? place_arrays(g, busy) : -1;
	if (!busy || !saved)
		diag_file(g->d, t->path, "out of memory");
	for (size_t r = 0; !rc && r < t->nregions; r++) {
		const emu_tregion *tr = &t->regions[r];
		const bool first = g->first[r];
		if (first && (rc = allocate_region(g, busy, tr)) != 0)
			break;
		for (size_t i = tr->node0; i < tr->node1; i++) {
			emu_tnode *x = &t->nodes[i];
			rows_of *w = &saved[x->tmpl];
			if (first) {
				*w = (rows_of){x->wl, x->rows, {x->tmp[0], x->tmp[1]},
					       x->last_use == UINT32_MAX ? UINT32_MAX
					       : (uint32_t)(x->last_use - tr->node0)};
				continue;
			}
			x->wl = x->kind == EMU_TN_TENSOR || x->kind == EMU_TN_STORE
				? t->arrays[x->array].wl : w->wl;
			x->rows = w->rows;
			memcpy(x->tmp, w->tmp, sizeof x->tmp);
			x->last_use = w->last == UINT32_MAX ? UINT32_MAX
				      : (uint32_t)(w->last + tr->node0);
		}
	}
	free(busy);
	free(saved);
	return rc;
}

/* ---- the text ---- */

/* The name of temporary k (0 or 1) of node i: "__N_K".  User names never
 * hold "__" (tdfg.c), so it cannot collide with one, and it is at most
 * 2 + 10 + 2 characters whatever the node's name is. */
static const char *tmp_name(size_t i, unsigned k, char *buf, size_t size)
{
	text_buf t = text_buf_of(buf, size);
	text_put_str(&t, "__");
	text_put_uint(&t, i);
	text_put_str(&t, "_");
	text_put_uint(&t, k + 1);
	return buf;
}

static const char *type_text(const emu_tnode *x, char *buf, size_t size)
{
	return isa_type_name(x->fmt, x->width, x->is_signed, buf, size);
}

static void dims_put(text_buf *t, const uint64_t *v, unsigned nd)
{
	for (unsigned k = 0; k < nd; k++) {
		if (k)
			text_put_str(t, "x");
		text_put_uint(t, v[k]);
	}
}

static void dims_text(const uint64_t *v, unsigned nd, char *buf, size_t size)
{
	text_buf t = text_buf_of(buf, size);
	dims_put(&t, v, nd);
}

/* Node i's index at its region's first run: the node as written, whose
 * tensor lines (declare) every later run's commands name. */
static size_t written_index(const gen *g, size_t i)
{
	const emu_tdfg *t = g->t;
	const emu_tregion *tr = &t->regions[t->nodes[i].region];
	if (g->wr0 && t->tregions && tr->tmpl < t->ntregions && g->wr0[tr->tmpl] != SIZE_MAX)
		return g->wr0[tr->tmpl] + (i - tr->node0);
	for (size_t r = 0; r < t->nregions; r++)
		if (g->first[r] && t->regions[r].tmpl == tr->tmpl)
			return t->regions[r].node0 + (i - tr->node0);
	return i;
}

/* The buffer that holds node i's value: its array's (declared first, in
 * order), else the tensor line of the node as written (declare). */
static int16_t value_buf(const gen *g, size_t i)
{
	const emu_tnode *x = &g->t->nodes[i];
	if (x->kind == EMU_TN_TENSOR || x->kind == EMU_TN_STORE)
		return (int16_t)x->array;
	return g->buf_of ? g->buf_of[written_index(g, i)] : -1;
}

/* An array's tensor: not shared (its rows are its own), with the tile
 * of the regions that use it (the assembler picks one if none does). */
static void declare_array(gen *g, const emu_tarray *a)
{
	char tn[16], shape[64], tile[80] = "";
	dims_text(a->shape, a->ndims, shape, sizeof shape);
	if (a->tile[0]) {
		memcpy(tile, " tile=", 7);
		dims_text(a->tile, a->ndims, tile + 6, sizeof tile - 6);
	}
	if (a->load[0])
		put_line(g, -1, a->line, "# array %s: its data from %s (infsim run --load %s=%s)",
			 a->name, a->load, a->name, a->load);
	g->col_hint = a->init_col ? a->init_col : a->col;
	put_line(g, -1, a->line, "tensor %s %s %s wl=%u array=%u%s%s%s", a->name,
		 isa_type_name(a->fmt, a->width, a->is_signed, tn, sizeof tn), shape, a->wl,
		 a->array0, tile, a->init_text[0] ? " " : "", a->init_text);
	g->nbuf++;
}

static void declare(gen *g, size_t i)
{
	const emu_tnode *x = &g->t->nodes[i];
	if (x->kind == EMU_TN_TENSOR || x->kind == EMU_TN_STORE)
		return; /* they are their arrays' rows */
	const emu_tregion *r = &g->t->regions[x->region];
	char tn[16], tmp[32], line[JIT_LINE];
	type_text(x, tn, sizeof tn);
	/* "tensor NAME TYPE SHAPE wl=W array=A tile=TILE[ shared][ scratch][ INIT]":
	 * a reduction's temporaries hold no node (scratch) */
	for (unsigned k = 0; k < (x->kind == EMU_TN_REDUCE ? 3u : 1u); k++) {
		text_buf t = text_buf_of(line, sizeof line);
		text_put_str(&t, "tensor ");
		text_put_str(&t, k ? tmp_name(i, k - 1, tmp, sizeof tmp) : x->name);
		text_put_str(&t, " ");
		text_put_str(&t, tn);
		text_put_str(&t, " ");
		dims_put(&t, r->shape, r->ndims);
		text_put_str(&t, " wl=");
		text_put_uint(&t, k ? x->tmp[k - 1] : x->wl);
		text_put_str(&t, " array=");
		text_put_uint(&t, r->array0);
		text_put_str(&t, " tile=");
		dims_put(&t, r->tile, r->ndims);
		if (k || x->kind != EMU_TN_INPUT)
			text_put_str(&t, " shared");
		if (k)
			text_put_str(&t, " scratch");
		if (!k && x->init_text[0]) {
			text_put_str(&t, " ");
			text_put_str(&t, x->init_text);
		}
		put_built(g, (long)i, x->line, line, &t);
		if (!k)
			g->buf_of[i] = (int16_t)g->nbuf;
		g->nbuf++;
	}
}

/* "add.f32 NAME, A, B" or "set.f32 NAME, #1.5": the command of node i,
 * as text and as the assembler's operands (jit_asm.h). */
static void cmd_text(const gen *g, size_t i, char *buf, size_t size, emu_jasm_op *o)
{
	const emu_tdfg *t = g->t;
	const emu_tnode *x = &t->nodes[i];
	char tn[16], st[16], lit[80];
	const isa_cmd *c = &x->c;
	const bool cnst = x->kind == EMU_TN_CONST;
	const unsigned fmt = cnst ? x->fmt : c->fmt, w = cnst ? x->width : c->width;
	const unsigned sg = cnst ? x->is_signed : c->is_signed;
	memset(o, 0, sizeof *o);
	o->mnemonic = cnst ? "set" : isa_info_of(c->op)->name;
	o->fmt = (uint8_t)fmt;
	o->width = (uint8_t)w;
	o->is_signed = (uint8_t)sg;
	text_buf b = text_buf_of(buf, size);
	text_put_str(&b, o->mnemonic);
	text_put_str(&b, ".");
	text_put_str(&b, isa_type_name(fmt, w, sg, tn, sizeof tn));
	if (!cnst && c->op == ISA_CVT) {
		text_put_str(&b, ".");
		text_put_str(&b, isa_type_name(c->sfmt, c->swidth, c->ssigned, st, sizeof st));
		o->sfmt = c->sfmt;
		o->swidth = c->swidth;
		o->ssigned = c->ssigned;
	}
	text_put_str(&b, " ");
	text_put_str(&b, x->name);
	o->buf[o->nbufs++] = value_buf(g, i);
	for (unsigned a = 0; a < x->nargs; a++) {
		text_put_str(&b, ", ");
		text_put_str(&b, emu_tnode_value_name(t, &t->nodes[x->arg[a]]));
		if (o->nbufs < 4)
			o->buf[o->nbufs] = value_buf(g, x->arg[a]);
		o->nbufs++;
	}
	const isa_form f = cnst ? ISA_FORM_DI : isa_info_of(c->op)->form;
	if (f == ISA_FORM_DAI || f == ISA_FORM_PAI || f == ISA_FORM_DI) {
		const uint64_t v = cnst ? x->value : c->imm;
		text_put_str(&b, ", #");
		if (fmt == ISA_FMT_INT && sg && w < 64 && (v >> (w - 1) & 1)) {
			text_put_str(&b, "-");
			text_put_uint(&b, (~v & isa_mask(w)) + 1);
		} else if (fmt == ISA_FMT_INT && sg && w == 64 && (v >> 63)) {
			text_put_int(&b, (int64_t)v);
		} else if (fmt == ISA_FMT_INT) {
			text_put_uint(&b, v);
		} else {
			emu_literal_text(fmt, w, sg, v, lit, sizeof lit);
			text_put_str(&b, lit);
		}
		o->has_imm = true;
		o->imm = v;
	}
}

/* A copy of node i's type: "copy.TY D, S" (text and operands). */
static void copy_op(const gen *g, size_t i, const char *dn, int16_t db, const char *sn,
		    int16_t sb, char *buf, size_t size, emu_jasm_op *o)
{
	const emu_tnode *x = &g->t->nodes[i];
	char tn[16];
	memset(o, 0, sizeof *o);
	o->mnemonic = "copy";
	o->fmt = (uint8_t)x->fmt;
	o->width = (uint8_t)x->width;
	o->is_signed = (uint8_t)x->is_signed;
	o->buf[0] = db;
	o->buf[1] = sb;
	o->nbufs = 2;
	text_buf t = text_buf_of(buf, size);
	text_put_str(&t, "copy.");
	text_put_str(&t, type_text(x, tn, sizeof tn));
	text_put_str(&t, " ");
	text_put_str(&t, dn);
	text_put_str(&t, ", ");
	text_put_str(&t, sn);
}

/* Command cmd (operands o, for node i) on every piece of box
 * (Algorithm 1). */
static void emit_on_box(gen *g, size_t i, const char *cmd, const emu_jasm_op *o,
			const emu_box *box)
{
	const emu_tnode *x = &g->t->nodes[i];
	emu_region r;
	emu_box pieces[27];
	char line[2048]; /* cmd (512) and two patterns (EMU_PAT_TEXT each) */
	region_of(g->t, x, &r);
	const size_t n = emu_decompose(box, r.tile, pieces);
	for (size_t k = 0; k < n; k++) {
		emu_pattern a, b;
		emu_piece_patterns(&r, &g->t->geom, &pieces[k], &a, &b);
		text_buf t = text_buf_of(line, sizeof line);
		text_put_str(&t, cmd);
		text_put_str(&t, " @ arrays=");
		emu_pattern_put(&a, &t);
		text_put_str(&t, " bitlines=");
		emu_pattern_put(&b, &t);
		put_str(g, (long)i, x->line, line, t.n < sizeof line ? t.n : sizeof line - 1);
		emu_jasm_cmd(&g->js, g->line, o, &a, &b);
	}
}

/* A command on every piece of x's domain. */
static void emit_pieces(gen *g, size_t i)
{
	char cmd[512];
	emu_jasm_op o;
	cmd_text(g, i, cmd, sizeof cmd, &o);
	emit_on_box(g, i, cmd, &o, &g->t->nodes[i].dom);
}

static void box_put(text_buf *t, const emu_box *b, unsigned nd)
{
	for (unsigned k = 0; k < nd; k++) {
		if (k)
			text_put_str(t, ",");
		text_put_uint(t, b->lo[k]);
		text_put_str(t, ":");
		text_put_uint(t, b->hi[k]);
	}
}

static void box_text(const emu_box *b, unsigned nd, char *buf, size_t size)
{
	text_buf t = text_buf_of(buf, size);
	box_put(&t, b, nd);
}

/* `move D, S, OFFSETS @ box=BOX` for node i: the text, and its commands
 * as emu_program_lower makes them (the parser reads dimensions past the
 * region's as offset 0 over [0, 1)). */
static void emit_tmove(gen *g, size_t i, const char *dn, int16_t db, const char *sn,
		       int16_t sb, const int64_t *off, const emu_box *box)
{
	const emu_tnode *x = &g->t->nodes[i];
	const unsigned nd = g->t->regions[x->region].ndims;
	char line[JIT_LINE];
	int64_t o[EMU_LAYOUT_DIMS] = {0, 0, 0};
	uint64_t lo[EMU_LAYOUT_DIMS] = {0, 0, 0}, hi[EMU_LAYOUT_DIMS] = {1, 1, 1};
	/* "move D, S, +O0, -O1 @ box=LO:HI,LO:HI" */
	text_buf t = text_buf_of(line, sizeof line);
	text_put_str(&t, "move ");
	text_put_str(&t, dn);
	text_put_str(&t, ", ");
	text_put_str(&t, sn);
	for (unsigned k = 0; k < nd; k++) {
		text_put_str(&t, off[k] < 0 ? ", " : ", +");
		text_put_int(&t, off[k]);
		o[k] = off[k];
		lo[k] = box->lo[k];
		hi[k] = box->hi[k];
	}
	text_put_str(&t, " @ box=");
	box_put(&t, box, nd);
	put_built(g, (long)i, x->line, line, &t);
	emu_jasm_tmove(&g->js, g->line, db, sb, o, lo, hi);
}

static void emit_sync(gen *g, size_t i)
{
	const emu_move m = emu_move_sync();
	put_str(g, (long)i, g->t->nodes[i].line, "sync", 4);
	emu_jasm_move(&g->js, g->line, &m);
}

/* One halving step of a reduce along dim k (both kinds, tdfg.h): the
 * upper part `up` moves down by h into t1, t2 := OP(x, t1) on `low`,
 * then x := t2 there. */
static void halve(gen *g, size_t i, uint64_t h, const emu_box *up, const emu_box *low)
{
	const emu_tnode *x = &g->t->nodes[i];
	const size_t w = written_index(g, i);
	const int16_t xb = value_buf(g, i), t1b = (int16_t)(xb + 1), t2b = (int16_t)(xb + 2);
	char tn[16], cmd[512], t1[32], t2[32];
	int64_t off[EMU_LAYOUT_DIMS] = {0, 0, 0};
	emu_jasm_op o;
	tmp_name(w, 0, t1, sizeof t1);
	tmp_name(w, 1, t2, sizeof t2);
	off[x->dim] = -(int64_t)h;
	emit_tmove(g, i, t1, t1b, x->name, xb, off, up);
	memset(&o, 0, sizeof o);
	o.mnemonic = isa_info_of(x->c.op)->name;
	o.fmt = (uint8_t)x->fmt;
	o.width = (uint8_t)x->width;
	o.is_signed = (uint8_t)x->is_signed;
	o.buf[0] = t2b;
	o.buf[1] = xb;
	o.buf[2] = t1b;
	o.nbufs = 3;
	snprintf(cmd, sizeof cmd, "%s.%s %s, %s, %s", o.mnemonic, type_text(x, tn, sizeof tn),
		 t2, x->name, t1);
	emit_on_box(g, i, cmd, &o, low);
	copy_op(g, i, x->name, xb, t2, t2b, cmd, sizeof cmd, &o);
	emit_on_box(g, i, cmd, &o, low);
}

/* acc := src over the source's domain, the first command of a reduce. */
static void reduce_start(gen *g, size_t i)
{
	const emu_tnode *x = &g->t->nodes[i];
	const emu_tnode *s = &g->t->nodes[x->arg[0]];
	char cmd[512];
	emu_jasm_op o;
	copy_op(g, i, x->name, value_buf(g, i), emu_tnode_value_name(g->t, s),
		value_buf(g, x->arg[0]), cmd, sizeof cmd, &o);
	emit_on_box(g, i, cmd, &o, &s->dom);
}

/* reduce (tdfg.h): acc := src; while len > 1: h = ceil(len / 2), the
 * upper len - h elements move down by h into t1, t2 := OP(acc, t1) on
 * the lower len - h, acc := t2 there. */
static void emit_reduce(gen *g, size_t i)
{
	const emu_tnode *x = &g->t->nodes[i];
	const emu_tnode *s = &g->t->nodes[x->arg[0]];
	const unsigned k = x->dim;
	reduce_start(g, i);
	const uint64_t lo = s->dom.lo[k];
	for (uint64_t len = s->dom.hi[k] - lo; len > 1;) {
		const uint64_t h = (len + 1) / 2;
		emu_box up = s->dom, low = s->dom;
		up.lo[k] = lo + h;
		up.hi[k] = lo + len;
		low.hi[k] = lo + len - h;
		halve(g, i, h, &up, &low);
		len = h;
	}
}

/* strm.reduce (§3.3, Fig 4b; doc/TDFG.md, "strm nodes"): the in-memory
 * partial reduces each tile's T positions along dim pairwise (h = T/2,
 * T/4, ..., 1: the whole domain moves down by h and the command runs on
 * [lo, hi - h); positions whose partner lies in the next tile compute
 * values nothing reads), then a sync: the final-reduce stream at the
 * banks (strm.c) starts only once the partial reduction has synced
 * (§5.3).  The domain along dim must be whole tiles, so that every tile
 * holds one partial at its first position. */
static int emit_strm_reduce(gen *g, size_t i)
{
	const emu_tnode *x = &g->t->nodes[i];
	const emu_tnode *s = &g->t->nodes[x->arg[0]];
	const emu_tregion *tr = &g->t->regions[x->region];
	const unsigned k = x->dim;
	const uint64_t lo = s->dom.lo[k], hi = s->dom.hi[k], T = tr->tile[k];
	if (lo % T || (hi % T && hi != tr->shape[k]) || (hi - lo) % T)
		return node_err(g, x, "strm.reduce along dimension %u needs whole tiles: '%s' "
				"spans [%" PRIu64 ", %" PRIu64 ") there and the tile is %" PRIu64
				" wide; give a box of whole tiles or a tile= that divides it",
				k, s->name, lo, hi, T);
	reduce_start(g, i);
	for (uint64_t h = T / 2; h >= 1 && hi - lo > h; h /= 2) {
		emu_box up = s->dom, low = s->dom;
		up.lo[k] = lo + h;
		low.hi[k] = hi - h;
		halve(g, i, h, &up, &low);
	}
	emit_sync(g, i);
	return 0;
}

/* strm.gather: no command on the bitlines but a sync, after which the
 * indirect stream at the banks (strm.c) reads its operands: in-memory
 * producers must have synced first (§5.3). */
static void emit_gather(gen *g, size_t i)
{
	emit_sync(g, i);
}

static void emit_shift(gen *g, size_t i)
{
	const emu_tnode *x = &g->t->nodes[i];
	const emu_tnode *s = &g->t->nodes[x->arg[0]];
	emit_tmove(g, i, x->name, value_buf(g, i), emu_tnode_value_name(g->t, s),
		   value_buf(g, x->arg[0]), x->off, &s->dom);
}

/* bc (§3.2): the source's one element along dim goes to every position
 * of dim, lowered here by emu_lower_broadcast (Algorithms 1 and 2). */
static int emit_bcast(gen *g, size_t i)
{
	const emu_tnode *x = &g->t->nodes[i];
	const emu_tnode *s = &g->t->nodes[x->arg[0]];
	const emu_tregion *tr = &g->t->regions[x->region];
	emu_region r;
	emu_move_list l;
	char line[512];
	region_of(g->t, s, &r);
	memcpy(r.tile, tr->tile, sizeof r.tile);
	emu_move_list_init(&l);
	const int64_t dist = -(int64_t)s->dom.lo[x->dim];
	int rc = emu_lower_broadcast(&r, &g->t->geom, &s->dom, x->dim, dist, tr->shape[x->dim],
				     x->wl, g->scratch, &l, g->d);
	for (size_t k = 0; rc == 0 && k < l.n; k++) {
		const int n = emu_move_format(&l.v[k], line, sizeof line);
		put_str(g, (long)i, x->line, line, n < (int)sizeof line ? (size_t)n : sizeof line - 1);
		emu_jasm_move(&g->js, g->line, &l.v[k]);
	}
	emu_move_list_free(&l);
	return rc;
}

/* store: a copy of the value into the array's rows over the box. */
static void emit_store(gen *g, size_t i)
{
	const emu_tnode *x = &g->t->nodes[i];
	char cmd[256];
	emu_jasm_op o;
	copy_op(g, i, g->t->arrays[x->array].name, (int16_t)x->array,
		emu_tnode_value_name(g->t, &g->t->nodes[x->arg[0]]), value_buf(g, x->arg[0]), cmd,
		sizeof cmd, &o);
	emit_on_box(g, i, cmd, &o, &x->dom);
}

static const char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		s[--n] = 0;
	return s;
}

/* Line `line` of the tDFG's text, as emu_tdfg_line finds it, from an
 * index of the lines made once (emu_tdfg_line reads from the start). */
static void index_lines(gen *g)
{
	const emu_tdfg *t = g->t;
	size_t n = 0, cap = 0;
	for (size_t pos = 0; t->text && pos < t->len;) {
		if (n == cap) {
			cap = cap ? cap * 2 : 256;
			size_t *v = realloc(g->src0, cap * sizeof *v);
			if (!v) {
				free(g->src0);
				g->src0 = NULL;
				g->nsrc = 0;
				return; /* emu_tdfg_line then */
			}
			g->src0 = v;
		}
		g->src0[n++] = pos;
		const char *nl = memchr(t->text + pos, '\n', t->len - pos);
		pos = nl ? (size_t)(nl - t->text) + 1 : t->len;
	}
	g->nsrc = n > INT32_MAX ? 0 : (int)n;
}

static const char *src_line(const gen *g, int line, size_t *len)
{
	const emu_tdfg *t = g->t;
	if (!g->src0)
		return emu_tdfg_line(t, line, len);
	if (line < 1 || line > g->nsrc)
		return NULL;
	const size_t pos = g->src0[line - 1];
	const char *nl = memchr(t->text + pos, '\n', t->len - pos);
	*len = (nl ? (size_t)(nl - t->text) : t->len) - pos;
	return t->text + pos;
}

static int emit_node(gen *g, size_t i)
{
	const emu_tnode *x = &g->t->nodes[i];
	char src[160], line[JIT_LINE];
	size_t n;
	const char *s = src_line(g, x->line, &n);
	n = s ? (n < 150 ? n : 150) : 0;
	memcpy(src, s ? s : "", n);
	src[n] = 0;
	/* "# PATH:LINE: SOURCE", or for a node read from JSON (tdfg_json.h),
	 * which has no text line, "# PATH: NAME (KIND)" */
	text_buf t = text_buf_of(line, sizeof line);
	text_put_str(&t, "# ");
	text_put_str(&t, g->t->path);
	text_put_str(&t, ":");
	if (x->line > 0) {
		text_put_int(&t, x->line);
		text_put_str(&t, ": ");
		text_put_str(&t, trim(src));
	} else {
		text_put_str(&t, " ");
		text_put_str(&t, x->name);
		text_put_str(&t, " (");
		text_put_str(&t, emu_tnode_kind_name(x->kind));
		text_put_str(&t, ")");
	}
	put_built(g, -1, x->line > 0 ? x->line : 0, line, &t);
	int rc = 0;
	/* §5.3: an in-memory consumer of a store stream waits for it: the
	 * stream's writes are visible after a sync (strm.c). */
	for (unsigned a = 0; a < x->nargs; a++)
		if (g->t->nodes[x->arg[a]].kind == EMU_TN_UPDATE && x->kind != EMU_TN_UPDATE &&
		    x->kind != EMU_TN_GATHER) {
			emit_sync(g, i);
			break;
		}
	switch (x->kind) {
	case EMU_TN_CONST:
	case EMU_TN_COMPUTE:
		emit_pieces(g, i);
		break;
	case EMU_TN_SHIFT:
		emit_shift(g, i);
		break;
	case EMU_TN_BCAST:
		rc = emit_bcast(g, i);
		break;
	case EMU_TN_REDUCE:
		if (x->strm)
			rc = emit_strm_reduce(g, i);
		else
			emit_reduce(g, i);
		break;
	case EMU_TN_GATHER:
	case EMU_TN_UPDATE:
		emit_gather(g, i);
		break;
	case EMU_TN_STORE: /* into an array: checked as the store, no marker */
		emit_store(g, i);
		return 0;
	default:
		break;
	}
	/* The node marker (doc/FORMAT.md): its tensor holds it from here; a
	 * tensor node is its array's rows.  A strm node's says that its
	 * stream runs here, after its sync (§3.3, §5.3). */
	if (rc == 0) {
		t = text_buf_of(line, sizeof line);
		text_put_str(&t, "node ");
		text_put_str(&t, x->name);
		if (x->kind == EMU_TN_TENSOR) {
			text_put_str(&t, " tensor=");
			text_put_str(&t, g->t->arrays[x->array].name);
		} else if (x->strm) {
			text_put_str(&t, " strm");
		}
		put_built(g, (long)i, x->line, line, &t);
		emu_jasm_mark(&g->js, g->line, x->name, value_buf(g, i), x->strm);
	}
	return rc;
}

/* Does run a repeat run b: the same region as written, parameters,
 * window and arrays?  Then it has the same commands (§4's memo). */
static bool same_run(const emu_tdfg *t, const emu_tregion *a, const emu_tregion *b)
{
	if (!t->tregions || a->tmpl != b->tmpl || a->node1 - a->node0 != b->node1 - b->node0 ||
	    memcmp(a->pv, b->pv, sizeof a->pv) != 0 ||
	    memcmp(&a->window, &b->window, sizeof a->window) != 0)
		return false;
	for (size_t i = 0; i < a->node1 - a->node0; i++)
		if (t->nodes[a->node0 + i].array != t->nodes[b->node0 + i].array)
			return false;
	return true;
}

/* Run q's commands and markers again, each line `delta` further on
 * (they passed the assembler's checks once; the program is the same). */
static void replay_cmds(gen *g, const struct span *sp, int delta)
{
	emu_jasm *js = &g->js;
	if (!js->on || js->failed)
		return;
	emu_program *p = js->a.p;
	const size_t nc = sp->c1 - sp->c0, nm = sp->m1 - sp->m0;
	if (p->ncmds + nc > js->a.cmdcap) {
		size_t cap = js->a.cmdcap ? js->a.cmdcap : 64;
		while (cap < p->ncmds + nc)
			cap *= 2;
		emu_cmd *v = realloc(p->cmds, cap * sizeof *v);
		if (!v) {
			g->oom = true;
			return;
		}
		p->cmds = v;
		js->a.cmdcap = cap;
	}
	for (size_t k = 0; k < nm; k++) {
		const emu_mark *m = &p->marks[sp->m0 + k];
		char name[EMU_NAME_MAX];
		memcpy(name, m->name, sizeof name); /* marks may move when they grow */
		const int16_t buf = m->buf;
		const bool strm = m->strm;
		const size_t at = m->at - sp->c0 + p->ncmds;
		const int line = m->line + delta;
		if (emu_program_mark(p, name, buf, line)) {
			g->oom = true;
			return;
		}
		p->marks[p->nmarks - 1].at = at;
		p->marks[p->nmarks - 1].strm = strm;
	}
	for (size_t k = 0; k < nc; k++) {
		emu_cmd *c = &p->cmds[p->ncmds++];
		*c = p->cmds[sp->c0 + k];
		c->line += delta;
		c->mv.line = c->kind == EMU_CMD_MOVE ? c->line : c->mv.line;
	}
}

/* Run r's commands are run q's: its lines again, each for the node of r
 * in the place of q's node. */
static int replay(gen *g, size_t q, size_t r)
{
	const struct span *sp = &g->span[q];
	const size_t len = sp->t1 - sp->t0;
	char *copy = malloc(len + 1);
	if (!copy) {
		free(copy);
		g->oom = true;
		return 0;
	}
	memcpy(copy, g->text + sp->t0, len);
	const long shift = (long)g->t->regions[r].node0 - (long)g->t->regions[q].node0;
	const char *s = copy, *end = copy + len;
	for (int l = sp->l0; l < sp->l1 && s < end; l++) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);
		const long node = g->line_node[l];
		put_str(g, node >= 0 ? node + shift : -1, g->line_src[l], s, n);
		s += n + 1;
	}
	free(copy);
	replay_cmds(g, sp, g->line + 1 - (sp->l1 - sp->l0) - sp->l0);
	return 0;
}

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* "# region NAME SHAPE tile=T [k=3] [window=...]" and the loops' comments. */
static void run_header(gen *g, const emu_tregion *tr)
{
	char shape[64], tile[64], extra[256] = "";
	size_t n = 0;
	for (const char *c = tr->ctx; c && *c;) {
		const char *nl = strchr(c, '\n');
		const int len = nl ? (int)(nl - c) : (int)strlen(c);
		put_line(g, -1, tr->line, "%.*s", len, c);
		c += len + (nl ? 1 : 0);
	}
	for (unsigned k = 0; k < tr->nparams; k++)
		n += (size_t)snprintf(extra + n, sizeof extra - n, " %s=%" PRId64, tr->param[k],
				      tr->pv[k]);
	for (unsigned k = 0; k < tr->ndims; k++)
		if (tr->window.lo[k] || tr->window.hi[k] != tr->shape[k]) {
			n += (size_t)snprintf(extra + n, sizeof extra - n, " window=");
			box_text(&tr->window, tr->ndims, extra + n, sizeof extra - n);
			break;
		}
	dims_text(tr->shape, tr->ndims, shape, sizeof shape);
	dims_text(tr->tile, tr->ndims, tile, sizeof tile);
	put_line(g, -1, tr->line, "# region %s %s tile=%s%s", tr->name, shape, tile, extra);
}

/* Run r: lowered, or (§4) replayed from an earlier run it repeats. */
static int emit_run(gen *g, size_t r)
{
	emu_tdfg *t = g->t;
	emu_jit *j = g->out;
	const emu_tregion *tr = &t->regions[r];
	run_header(g, tr);
	for (size_t m = 0; m < j->misses; m++)
		if (same_run(t, &t->regions[j->lowerings[m].region], tr)) {
			j->hits++;
			put_line(g, -1, tr->line, "# the commands of the run at lowering %zu, reused", m + 1);
			return replay(g, j->lowerings[m].region, r);
		}
	const double t0 = now_seconds();
	struct span *sp = &g->span[r];
	if (t->program)
		put_line(g, -1, tr->line, "# lowering %zu", j->misses + 1);
	sp->t0 = g->size;
	sp->l0 = g->line + 1;
	sp->c0 = g->out->prog.ncmds;
	sp->m0 = g->out->prog.nmarks;
	for (size_t i = tr->node0; i < tr->node1; i++)
		if (emit_node(g, i))
			return -1;
	sp->t1 = g->size;
	sp->l1 = g->line + 1;
	sp->c1 = g->out->prog.ncmds;
	sp->m1 = g->out->prog.nmarks;
	j->lowerings[j->misses].region = (uint32_t)r;
	j->lowerings[j->misses++].seconds = now_seconds() - t0;
	return 0;
}

/* The declarations so far, assembled from their text (init=, tiles and
 * every check as for any stream); the commands that follow go straight
 * into the same program (jit_asm.h).  Left off (the whole text is then
 * assembled) when the declarations do not assemble, so the message is
 * the parser's. */
static void start_direct(gen *g)
{
	char lowered[1100];
	diag pd;
	diag_clear(&pd);
	if (g->oom)
		return;
	snprintf(lowered, sizeof lowered, "%s (lowered)", g->t->path);
	if (emu_parse(lowered, g->text, g->size, &g->t->geom, &g->out->prog, &pd)) {
		emu_program_init(&g->out->prog);
		return;
	}
	emu_jasm_start(&g->js, &g->out->prog, g->t->path);
}

static int generate(gen *g)
{
	emu_tdfg *t = g->t;
	char mach[256];
	emu_geom_format(&t->geom, mach, sizeof mach);
	put_line(g, -1, 0, "# lowered by infsim's JIT from %s", t->path);
	put_line(g, -1, 0, "machine %s", mach);
	put_line(g, -1, 0, "scratch %u", g->scratch);
	for (size_t i = 0; i < t->narrays; i++)
		declare_array(g, &t->arrays[i]);
	/* One tensor per node as written: its runs share its rows. */
	for (size_t r = 0; r < t->nregions; r++)
		for (size_t i = t->regions[r].node0; g->first[r] && i < t->regions[r].node1; i++)
			declare(g, i);
	start_direct(g);
	index_lines(g);
	for (size_t r = 0; r < t->nregions; r++)
		if (emit_run(g, r))
			return -1;
	return 0;
}

/* "PATH:LINE:COL: error: MSG" from the assembler, about generated line
 * LINE: report MSG at the node (or region) that made the line. */
static void blame(gen *g, const diag *pd, const char *lowered)
{
	const char *m = pd->msg;
	const size_t pl = strlen(lowered);
	int line = 0;
	if (strncmp(m, lowered, pl) == 0 && m[pl] == ':')
		line = atoi(m + pl + 1);
	const char *e = strstr(m, "error: ");
	const char *msg = e ? e + 7 : m;
	if (line <= 0 || line > g->line) {
		diag_file(g->d, g->t->path, "the lowered stream is not valid: %s", msg);
		return;
	}
	const long node = g->line_node[line];
	const emu_tnode *x = node >= 0 ? &g->t->nodes[node] : NULL;
	size_t n = 0;
	const char *gl = g->text;
	for (int k = 1; k < line && gl; k++)
		gl = strchr(gl, '\n') ? strchr(gl, '\n') + 1 : NULL;
	if (gl)
		n = strcspn(gl, "\n");
	/* An array's tensor line: the layout's "region 'A': ..." is about
	 * the array, at its name. */
	for (size_t i = 0; !x && gl && i < g->t->narrays; i++) {
		const emu_tarray *a = &g->t->arrays[i];
		const size_t an = strlen(a->name);
		if (strncmp(gl, "tensor ", 7) || strncmp(gl + 7, a->name, an) || gl[7 + an] != ' ' ||
		    strncmp(msg, "region '", 8) || strncmp(msg + 8, a->name, an) ||
		    strncmp(msg + 8 + an, "': ", 3))
			continue;
		diag_at(g->d, g->t->path, a->line, a->col, "array '%s': %s (lowered line %d: %.*s)",
			a->name, msg + 11 + an, line, (int)(n < 200 ? n : 200), gl);
		return;
	}
	diag_at(g->d, g->t->path, x ? x->line : g->line_src[line],
		x ? x->op_col : g->line_col[line],
		"%s (lowered line %d: %.*s)", msg, line, (int)(n < 200 ? n : 200), gl ? gl : "");
}

/* Which node each command is, each node's commands and tensor, each
 * input's init as the assembler read it. */
static int link(gen *g, emu_jit *j)
{
	emu_tdfg *t = g->t;
	const emu_program *p = &j->prog;
	j->ncmds = p->ncmds;
	j->node_of = calloc(p->ncmds ? p->ncmds : 1, sizeof *j->node_of);
	if (!j->node_of) {
		diag_file(g->d, t->path, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < t->nnodes; i++) {
		emu_tnode *x = &t->nodes[i];
		x->cmd0 = x->cmd1 = SIZE_MAX;
		x->buf = value_buf(g, i); /* the buffer of its value's name */
		if (x->buf >= 0 && (size_t)x->buf < p->nbufs) {
			x->init = (uint8_t)p->bufs[x->buf].init;
			x->init_arg = p->bufs[x->buf].init_arg;
		}
	}
	for (size_t i = 0; i < t->narrays; i++) {
		emu_tarray *a = &t->arrays[i]; /* declared first, in order */
		a->buf = (int)i;
		a->init = (uint8_t)p->bufs[i].init;
		a->init_arg = p->bufs[i].init_arg;
	}
	for (size_t c = 0; c < p->ncmds; c++) {
		const int ln = p->cmds[c].line;
		const long node = ln > 0 && ln <= g->line ? g->line_node[ln] : -1;
		j->node_of[c] = node < 0 ? UINT32_MAX : (uint32_t)node;
		if (node < 0)
			continue;
		emu_tnode *x = &t->nodes[node];
		if (x->cmd0 == SIZE_MAX)
			x->cmd0 = c;
		x->cmd1 = c + 1;
	}
	/* Nodes without commands (inputs) sit where the next node starts. */
	size_t next = p->ncmds;
	for (size_t i = t->nnodes; i-- > 0;) {
		emu_tnode *x = &t->nodes[i];
		if (x->cmd0 == SIZE_MAX)
			x->cmd0 = x->cmd1 = next;
		next = x->cmd0;
	}
	for (size_t r = 0; r < t->nregions; r++) {
		emu_tregion *tr = &t->regions[r];
		tr->cmd0 = t->nodes[tr->node0].cmd0;
		tr->cmd1 = t->nodes[tr->node1 - 1].cmd1;
	}
	return 0;
}

int emu_jit_lower(emu_tdfg *t, emu_jit *out, diag *d)
{
	gen g;
	int rc = -1;
	memset(out, 0, sizeof *out);
	emu_program_init(&out->prog);
	memset(&g, 0, sizeof g);
	g.t = t;
	g.d = d;
	const emu_tnode *who;
	const unsigned rows = scratch_rows(t, &who);
	if (rows >= t->geom.wordlines) { /* >= 8 > 1, so a node asked: who */
		diag_at(d, t->path, who->line, who->op_col, "'%s' needs %u scratch wordlines; "
			"the arrays have %u in all, so no value would fit (use a machine with "
			"more wordlines)", who->name, rows, t->geom.wordlines);
		return -1;
	}
	g.scratch = (uint16_t)(t->geom.wordlines - rows);
	g.out = out;
	g.first = first_runs(t);
	g.span = calloc(t->nregions ? t->nregions : 1, sizeof *g.span);
	out->lowerings = calloc(t->nregions ? t->nregions : 1, sizeof *out->lowerings);
	g.buf_of = malloc((t->nnodes ? t->nnodes : 1) * sizeof *g.buf_of);
	g.wr0 = first_nodes(t, g.first);
	if (!g.first || !g.span || !out->lowerings || !g.buf_of || !g.wr0) {
		diag_file(d, t->path, "out of memory");
		goto out;
	}
	if (tile_runs(&g) || tile_spare_arrays(&g) ||
	    (t->program ? allocate_program(&g) : allocate(&g)))
		goto out;
	const int gr = generate(&g);
	if (g.oom || !g.text) {
		diag_file(d, t->path, "out of memory");
		goto out;
	}
	if (gr)
		goto out;
	if (!g.js.on || g.js.failed) {
		/* Not assembled on the way: the text is, and a message names
		 * the node that made the line (blame). */
		char lowered[1100];
		snprintf(lowered, sizeof lowered, "%s (lowered)", t->path);
		diag pd;
		diag_clear(&pd);
		emu_program_free(&out->prog);
		if (emu_parse(lowered, g.text, g.size, &t->geom, &out->prog, &pd) ||
		    emu_program_lower(&out->prog, &pd)) {
			blame(&g, &pd, lowered);
			goto out;
		}
	}
	if (link(&g, out))
		goto out;
	out->text = g.text;
	out->len = g.size;
	out->scratch = g.scratch;
	g.text = NULL;
	rc = 0;
out:
	if (g.js.on)
		emu_jasm_end(&g.js);
	free(g.buf_of);
	free(g.wr0);
	free(g.src0);
	free(g.text);
	free(g.line_node);
	free(g.line_src);
	free(g.line_col);
	free(g.first);
	free(g.span);
	if (rc)
		emu_jit_free(out);
	return rc;
}

void emu_jit_free(emu_jit *j)
{
	free(j->text);
	free(j->node_of);
	free(j->lowerings);
	emu_program_free(&j->prog);
	memset(j, 0, sizeof *j);
}

long emu_jit_node_of(const emu_jit *j, size_t cmd)
{
	if (cmd >= j->ncmds || j->node_of[cmd] == UINT32_MAX)
		return -1;
	return (long)j->node_of[cmd];
}

int emu_tdfg_load(const char *path, const emu_geom_override *ov, emu_tdfg *t,
		  emu_jit *j, diag *d)
{
	const sram_geom def = sram_geom_default();
	memset(j, 0, sizeof *j);
	emu_program_init(&j->prog);
	if (emu_tdfg_parse_file(path, &def, ov, t, d))
		return -1;
	return emu_jit_lower(t, j, d);
}
