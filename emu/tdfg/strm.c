/* SPDX-License-Identifier: MIT */
/*
 * strm.c: running a tDFG's strm nodes on the near-memory stream engines
 * (infinity-stream §3.3, Fig 4b, Fig 5; doc/TDFG.md, "strm nodes").
 *
 * A strm node's commands on the bitlines end with a sync (jit.c); once
 * the machine has run them, its stream runs at the L3 banks on the
 * engines of emu/nsc (SE_core and SE_L3, with their messages and
 * traffic): the operands leave the arrays through the transpose unit
 * (emu_ttu_load), a stream program of the .nsc format is built over
 * them and run by nsc_run, and the result enters the arrays through the
 * transpose unit again (emu_ttu_store), its Layout Override Table entry
 * going through trans = 1 (filling) to 2 (§5.2, Table 1).
 *
 *   strm.reduce  the final reduce: one partial per tile (the in-memory
 *                part), folded at the banks in tile order, tile 0 first:
 *                for o < lines: let first = P[..]; streams c < tiles-1:
 *                load v = P[..]; reduce r += v init first.  One tile: nothing left to fold (no
 *                final reduce, as the paper's kmeans/in with T = 128).
 *   strm.gather  an indirect load stream writing a tensor: for each
 *                position of the other dimensions (core loops), streams
 *                m < n: load ix = I[..] -> $ * stride; load v = A[ix +
 *                base]; store X[..] = v  (Fig 5's B[A[i] + w]).
 *
 * §5.3's ordering: a stream starts only after the in-memory values it
 * reads have synced.  A pending inter-bank move that delivers into an
 * operand when the stream starts is a hazard, reported by the machine's
 * tracker as an unsynced read (an error under --strict).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hazard.h"
#include "nsc.h"
#include "tdfg.h"
#include "tile_cost.h"

long emu_strm_first(const emu_tdfg *t)
{
	for (size_t i = 0; i < t->nnodes; i++)
		if (t->nodes[i].strm)
			return (long)i;
	return -1;
}

long emu_strm_node_at(const emu_tdfg *t, const emu_jit *j, size_t cmd)
{
	const long n = emu_jit_node_of(j, cmd);
	if (n < 0 || !t->nodes[n].strm || t->nodes[n].cmd1 != cmd + 1)
		return -1;
	return n;
}

static const char *nsc_type_of(const emu_tnode *x)
{
	if (x->fmt == ISA_FMT_F32)
		return "f32";
	if (x->width == 64)
		return "i64";
	if (x->width == 8)
		return x->is_signed ? "i8" : "u8";
	return x->is_signed ? "i32" : "u32";
}

/* §5.3: the stream reads buffer b; a move not yet synced into it is a
 * missing ordering.  0, or -1 (strict: d set). */
static int ordering(emu_machine *em, const emu_buffer *b, size_t cmd, int line, diag *d)
{
	if (!em || !em->hz || emu_hazard_pending(em->hz) == 0)
		return 0;
	const sram_geom *g = &em->prog->geom;
	const uint64_t na = emu_pattern_size(&b->arrays);
	unsigned *arrays = malloc((na ? na : 1) * sizeof *arrays);
	uint64_t *mask = malloc((g->bitlines + 63) / 64 * sizeof *mask);
	int rc = 0;
	if (arrays && mask) {
		for (uint64_t i = 0; i < na; i++)
			arrays[i] = (unsigned)emu_pattern_at(&b->arrays, i);
		memset(mask, 0xff, (g->bitlines + 63) / 64 * sizeof *mask);
		const emu_cells c = {arrays, na, mask, b->wl, emu_buffer_rows(b, g)};
		rc = emu_hazard_check_read(em->hz, cmd, line, &c, d) < 0 ? -1 : 0;
	}
	free(arrays);
	free(mask);
	return rc;
}

/* The node's tensor in p. */
static const emu_buffer *buf_of(const emu_tdfg *t, const emu_program *p, const emu_tnode *x)
{
	const emu_tnode *w = x->kind == EMU_TN_TENSOR ? x : NULL;
	const char *name = w ? t->arrays[x->array].name : x->name;
	for (size_t i = 0; i < p->nbufs; i++)
		if (strcmp(p->bufs[i].name, name) == 0)
			return &p->bufs[i];
	return NULL;
}

/* One run of a node's stream: on the machine's values (em), or, when em
 * is NULL, on the reference model's (ref), which then computes the
 * stream from its own values, independently of the machine. */
typedef struct job {
	const emu_tdfg *t;
	const emu_tnode *x;
	const emu_tregion *g;
	const emu_program *p;
	emu_machine *em;
	emu_ref *ref;
	emu_strm_stats *st;
	diag *d;
	size_t cmd;            /* the command the stream runs after (from 0) */
	int line;              /* its line, for the hazard tracker */
	char *text;            /* the stream program (.nsc) */
	size_t len;
	FILE *f;
	bool near;             /* a node of a region run near memory */
	double core_tp;        /* > 0: the streams run at the core (Base), TP_core */
} job;

/* A tensor's elements out of the arrays through the transpose unit. */
static uint64_t *take_out(job *j, const emu_buffer *b)
{
	uint64_t *v = malloc(b->length * sizeof *v);
	if (!v) {
		diag_file(j->d, j->t->path, "out of memory for strm node '%s'", j->x->name);
		return NULL;
	}
	if (!j->em) {
		emu_ref_read(j->ref, b, v);
		return v;
	}
	j->st->ttu_out_cycles += emu_ttu_load(j->em, b, v, b->length);
	j->st->bytes_out += b->length * ((b->width + 7u) / 8u);
	return v;
}

/* A tensor's cells as they are, not counted as a transpose (the cells
 * outside the node's domain stay). */
static void cells_of(job *j, const emu_buffer *b, uint64_t *v)
{
	if (j->em)
		emu_buffer_read(j->em, b, v);
	else
		emu_ref_read(j->ref, b, v);
}

/* The result into the arrays through the transpose unit, its LOT entry
 * filling (trans = 1) until the last row is in (trans = 2). */
static int put_in(job *j, const emu_buffer *b, const uint64_t *v)
{
	if (!j->em) {
		if (emu_ref_store(j->ref, b, v, b->length) == 0)
			return 0;
		diag_file(j->d, j->t->path, "out of memory for the reference model");
		return -1;
	}
	const size_t bi = (size_t)(b - j->p->bufs);
	emu_strm_lot_fill(&j->st->lot, bi);
	j->st->ttu_in_cycles += emu_ttu_store(j->em, b, v, b->length);
	j->st->bytes_in += b->length * ((b->width + 7u) / 8u);
	emu_strm_lot_filled(&j->st->lot, bi);
	return emu_machine_failed(j->em, j->d) < 0 ? -1 : 0;
}

/* Run the .nsc text in j on mem's arrays (filled by fill), then copy
 * them back with back.  0, or -1 with d set at the node. */
static int engines(job *j, int (*fill)(job *, nsc_mem *, void *),
		   void (*back)(job *, const nsc_mem *, void *), void *arg)
{
	nsc_program p;
	nsc_mem m = {0};
	nsc_settings s;
	nsc_stats ns;
	diag pd;
	memset(&ns, 0, sizeof ns);
	diag_clear(&pd);
	if (nsc_parse(j->x->name, j->text, j->len, NULL, 0, &p, &pd) < 0) {
		diag_at(j->d, j->t->path, j->x->line, j->x->op_col,
			"strm node '%s': its stream program cannot be built: %s", j->x->name,
			pd.msg);
		return -1;
	}
	nsc_settings_default(&s);
	s.interleave = 1024;             /* Infinity Stream's NUCA interleave (Table 2) */
	/* a strm node runs at the banks (§3.3); at the core for Base */
	s.floating = j->core_tp > 0 ? NSC_FLOAT_CORE : NSC_FLOAT_BANK;
	int rc = nsc_mem_init(&m, &p, &pd);
	if (rc == 0)
		rc = fill(j, &m, arg);
	if (rc == 0 && (rc = nsc_run(&p, &m, &s, &ns, &pd)) == 0)
		back(j, &m, arg);
	if (rc < 0 && !j->d->set)
		diag_at(j->d, j->t->path, j->x->line, j->x->op_col,
			"strm node '%s': the stream engines failed: %s", j->x->name, pd.msg);
	for (unsigned c = 0; rc == 0 && c < EMU_STRM_CLASSES; c++) {
		j->st->bytes[c] += ns.bytes[c];
		j->st->byte_hops[c] += ns.byte_hops[c];
	}
	if (rc == 0) {
		/* The cost model of the near-memory part (doc/TDFG.md, "strm
		 * nodes"; Table 2): the iterations spread over the 64 SE_L3s,
		 * EMU_STRM_LAT_SE cycles each, plus the streams' bytes x hops on
		 * the mesh's EMU_STRM_LINK_BYTES-byte links, all links busy. */
		uint64_t bh = 0;
		for (unsigned c = 0; c < EMU_STRM_CLASSES; c++)
			bh += ns.byte_hops[c];
		const uint64_t cyc = EMU_STRM_LAT_SE * ((ns.iters + NSC_BANKS - 1) / NSC_BANKS) +
				     (bh + EMU_STRM_LINK_BYTES * NSC_BANKS - 1) /
				     (EMU_STRM_LINK_BYTES * NSC_BANKS);
		/* At the core (Base): the iterations at TP_core a cycle (Eq. 2's
		 * peak core), and every byte through the core's one link. */
		uint64_t by = 0;
		for (unsigned c = 0; c < EMU_STRM_CLASSES; c++)
			by += ns.bytes[c];
		if (j->core_tp > 0)
			j->st->core_cycles += (uint64_t)((double)ns.iters / j->core_tp + 0.999999) +
					      (by + EMU_STRM_LINK_BYTES - 1) / EMU_STRM_LINK_BYTES;
		else if (j->x->kind != EMU_TN_REDUCE || j->near)
			j->st->near_cycles += cyc;
		else
			j->st->final_cycles += cyc;
		j->st->msgs += ns.msgs[NSC_M_CONFIG] + ns.msgs[NSC_M_MIGRATE] +
			       ns.msgs[NSC_M_FORWARD] + ns.msgs[NSC_M_DATA] + ns.msgs[NSC_M_END];
		j->st->uops += ns.uops_bank + ns.uops_core;
		j->st->iters += ns.iters;
	}
	nsc_mem_free(&m);
	nsc_program_free(&p);
	return rc;
}

/* ---- strm.reduce ---- */

typedef struct red {
	uint64_t *v;           /* the node's tensor, partials in place */
	uint64_t lines, tiles, T;
	uint64_t *first;       /* per line, the lattice index of its first partial */
	uint64_t stride;       /* the lattice stride of the reduced dimension */
} red;

static int red_fill(job *j, nsc_mem *m, void *arg)
{
	(void)j;
	red *r = arg;
	for (uint64_t o = 0; o < r->lines; o++)
		for (uint64_t c = 0; c < r->tiles; c++)
			nsc_mem_set_bits(m, 0, o * r->tiles + c,
					 r->v[r->first[o] + c * r->T * r->stride]);
	return 0;
}

static void red_back(job *j, const nsc_mem *m, void *arg)
{
	red *r = arg;
	for (uint64_t o = 0; o < r->lines; o++)
		r->v[r->first[o]] = nsc_mem_bits(m, 1, o) & isa_mask(j->x->width);
}

/* Each line's first position, in row-major order. */
static uint64_t *line_starts(const emu_tregion *g, const emu_box *dom, uint64_t *n)
{
	*n = 1;
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++)
		*n *= dom->hi[k] - dom->lo[k];
	uint64_t *v = malloc((*n ? *n : 1) * sizeof *v), q = 0;
	for (uint64_t i2 = dom->lo[2]; v && i2 < dom->hi[2]; i2++)
		for (uint64_t i1 = dom->lo[1]; i1 < dom->hi[1]; i1++)
			for (uint64_t i0 = dom->lo[0]; i0 < dom->hi[0]; i0++)
				v[q++] = i0 + g->shape[0] * (i1 + g->shape[1] * i2);
	return v;
}

static int strm_reduce(job *j, const emu_buffer *b)
{
	const emu_tnode *x = j->x, *s = &j->t->nodes[x->arg[0]];
	const unsigned k = x->dim;
	/* the tile of the tensor on the machine: the stream's choice, which
	 * a tDFG that validates another JIT's stream does not give */
	red r = {.T = b->ndims && b->tile[k] ? b->tile[k] : j->g->tile[k], .stride = 1};
	for (unsigned q = 0; q < k; q++)
		r.stride *= j->g->shape[q];
	if (!r.T) {
		diag_file(j->d, j->t->path, "strm node '%s': its tensor has no tile along dimension "
			  "%u", x->name, k);
		return -1;
	}
	r.tiles = (s->dom.hi[k] - s->dom.lo[k]) / r.T;
	if (!(r.v = take_out(j, b)))
		return -1;
	int rc = 0;
	if (!(r.first = line_starts(j->g, &x->dom, &r.lines))) {
		diag_file(j->d, j->t->path, "out of memory for strm node '%s'", x->name);
		rc = -1;
	} else if (r.tiles > 1) {
		const char *ty = nsc_type_of(x), *op = isa_info_of(x->c.op)->name;
		fprintf(j->f, "array P %s %" PRIu64 "\narray R %s %" PRIu64 "\n", ty,
			r.lines * r.tiles, ty, r.lines);
		fprintf(j->f, "for o < %" PRIu64 "\nlet first = P[o * %" PRIu64 "]\n", r.lines,
			r.tiles);
		fprintf(j->f, "streams c < %" PRIu64 "\n", r.tiles - 1);
		fprintf(j->f, "load v = P[o * %" PRIu64 " + c + 1]\nreduce r %s %s v init first\n",
			r.tiles, ty, op[0] == 'a' ? "+=" : op[1] == 'i' ? "min=" : "max=");
		fprintf(j->f, "end\nR[o] = r\nend\n");
		if (fflush(j->f) != 0) {
			diag_file(j->d, j->t->path, "out of memory for strm node '%s'", x->name);
			rc = -1;
		}
		if (rc == 0)
			rc = engines(j, red_fill, red_back, &r);
		j->st->partials += r.lines * r.tiles;
	}
	if (rc == 0)
		rc = put_in(j, b, r.v);
	j->st->elems += rc == 0 ? r.lines : 0;
	free(r.first);
	free(r.v);
	return rc;
}

/* ---- strm.gather ---- */

typedef struct gat {
	uint64_t *src, *ix, *out;
	uint64_t n;
} gat;

static int gat_fill(job *j, nsc_mem *m, void *arg)
{
	(void)j;
	gat *g = arg;
	for (uint64_t e = 0; e < g->n; e++) {
		nsc_mem_set_bits(m, 0, e, g->src[e]);
		nsc_mem_set_bits(m, 1, e, g->ix[e]);
	}
	return 0;
}

static void gat_back(job *j, const nsc_mem *m, void *arg)
{
	gat *g = arg;
	for (uint64_t e = 0; e < g->n; e++)
		if (emu_tdfg_in_domain(j->t, j->x, e))
			g->out[e] = nsc_mem_bits(m, 2, e) & isa_mask(j->x->width);
}

/* Every index in range of the source's domain, before the engines run:
 * a bad one is named at the node with its position. */
static int gather_indexes(job *j, const gat *g)
{
	const emu_tnode *x = j->x, *s = &j->t->nodes[x->arg[0]], *ix = &j->t->nodes[x->arg[1]];
	const unsigned k = x->dim;
	uint64_t at[EMU_LAYOUT_DIMS], str = 1;
	for (unsigned q = 0; q < k; q++)
		str *= j->g->shape[q];
	for (unsigned q = 0; q < EMU_LAYOUT_DIMS; q++)
		at[q] = ix->dom.lo[q];
	const uint64_t base = at[0] + j->g->shape[0] * (at[1] + j->g->shape[1] * at[2]) -
			      at[k] * str;
	const unsigned sh = 64 - ix->width;
	for (uint64_t m = ix->dom.lo[k]; m < ix->dom.hi[k]; m++) {
		const uint64_t bits = g->ix[base + m * str];
		const int64_t v = ix->is_signed ? (int64_t)(bits << sh) >> sh : (int64_t)bits;
		if (v < (int64_t)s->dom.lo[k] || v >= (int64_t)s->dom.hi[k]) {
			diag_at(j->d, j->t->path, x->line, x->op_col,
				"strm.gather '%s': the index '%s' holds %" PRId64 " at position %"
				PRIu64 " of dimension %u, outside the domain of '%s' there [%" PRIu64
				", %" PRIu64 ")", x->name, ix->name, v, m, k, s->name, s->dom.lo[k],
				s->dom.hi[k]);
			return -1;
		}
	}
	return 0;
}

/* The core's loops over every dimension but k of dom's box (a, b, c),
 * then `let base`, the flat position of their element; the number of
 * loops opened (each closed by an `end`). */
static unsigned core_loops(job *j, const emu_tnode *dom, unsigned k)
{
	const uint64_t *S = j->g->shape;
	const uint64_t str[3] = {1, S[0], S[0] * S[1]};
	const char *names[3] = {"a", "b", "c"};
	unsigned loops = 0;
	for (unsigned q = 0; q < EMU_LAYOUT_DIMS; q++)
		if (q != k) {
			fprintf(j->f, "for %s < %" PRIu64 "\n", names[q], dom->dom.hi[q] - dom->dom.lo[q]);
			loops++;
		}
	fprintf(j->f, "let base = 0");
	for (unsigned q = 0; q < EMU_LAYOUT_DIMS; q++)
		if (q != k)
			fprintf(j->f, " + (%s + %" PRIu64 ") * %" PRIu64, names[q], dom->dom.lo[q],
				str[q]);
	return loops;
}

/* The .nsc program: core loops over the other dimensions (their flat
 * offset in `base`), a region along dim with the index stream, the
 * indirect load and the store. */
static void gather_text(job *j)
{
	const emu_tnode *x = j->x, *ix = &j->t->nodes[x->arg[1]];
	const unsigned k = x->dim;
	const uint64_t *S = j->g->shape;
	const uint64_t str[3] = {1, S[0], S[0] * S[1]};
	const uint64_t n = S[0] * S[1] * S[2];
	fprintf(j->f, "array A %s %" PRIu64 "\narray I %s %" PRIu64 "\narray X %s %" PRIu64 "\n",
		nsc_type_of(x), n, nsc_type_of(ix), n, nsc_type_of(x), n);
	unsigned loops = core_loops(j, x, k);
	uint64_t ib = 0;
	for (unsigned q = 0; q < EMU_LAYOUT_DIMS; q++)
		ib += (q == k ? x->dom.lo[q] : ix->dom.lo[q]) * str[q];
	fprintf(j->f, "\nstreams m < %" PRIu64 "\n", x->dom.hi[k] - x->dom.lo[k]);
	fprintf(j->f, "load ix = I[%" PRIu64 " + m * %" PRIu64 "] -> $ * %" PRIu64 "\n", ib,
		str[k], str[k]);
	fprintf(j->f, "load v = A[ix + base]\n");
	fprintf(j->f, "store X[base + (m + %" PRIu64 ") * %" PRIu64 "] = v\nend\n", x->dom.lo[k],
		str[k]);
	while (loops--)
		fprintf(j->f, "end\n");
}

static int strm_gather(job *j, const emu_program *p, const emu_buffer *b)
{
	const emu_tnode *x = j->x;
	const emu_buffer *sb = buf_of(j->t, p, &j->t->nodes[x->arg[0]]);
	const emu_buffer *ib = buf_of(j->t, p, &j->t->nodes[x->arg[1]]);
	gat g = {.n = b->length};
	int rc = -1;
	if (!sb || !ib) {
		diag_at(j->d, j->t->path, x->line, x->op_col, "strm node '%s': an operand has no "
			"tensor in the stream", x->name);
		return -1;
	}
	if (ordering(j->em, sb, j->cmd, j->line, j->d) < 0 ||
	    ordering(j->em, ib, j->cmd, j->line, j->d) < 0)
		return -1;
	if (!(g.src = take_out(j, sb)) || !(g.ix = take_out(j, ib)) ||
	    !(g.out = malloc(b->length * sizeof *g.out)))
		goto done;
	cells_of(j, b, g.out);
	if (gather_indexes(j, &g) < 0)
		goto done;
	gather_text(j);
	if (fflush(j->f) != 0) {
		diag_file(j->d, j->t->path, "out of memory for strm node '%s'", x->name);
		goto done;
	}
	if (engines(j, gat_fill, gat_back, &g) == 0 && put_in(j, b, g.out) == 0) {
		rc = 0;
		j->st->elems += (x->dom.hi[0] - x->dom.lo[0]) * (x->dom.hi[1] - x->dom.lo[1]) *
				(x->dom.hi[2] - x->dom.lo[2]);
	}
done:
	if (rc < 0 && !j->d->set)
		diag_file(j->d, j->t->path, "out of memory for strm node '%s'", x->name);
	free(g.src);
	free(g.ix);
	free(g.out);
	return rc;
}

/* ---- strm.store and strm.update ---- */

int emu_strm_update_domain(const emu_tnode *c, const emu_tnode *v, const emu_tnode *ix,
			   unsigned dim, emu_box *dom, char *why, size_t size)
{
	*dom = c->dom;
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++) {
		if (ix && k == dim) {
			if (v->dom.lo[k] < ix->dom.lo[k] || v->dom.hi[k] > ix->dom.hi[k]) {
				snprintf(why, size, "the index '%s' spans [%" PRIu64 ", %" PRIu64
					 ") along dimension %u; it must cover the values '%s' there "
					 "[%" PRIu64 ", %" PRIu64 ")", ix->name, ix->dom.lo[k],
					 ix->dom.hi[k], k, v->name, v->dom.lo[k], v->dom.hi[k]);
				return -1;
			}
			continue;
		}
		if (ix && ix->dom.hi[k] - ix->dom.lo[k] != 1) {
			snprintf(why, size, "the index '%s' must be one element wide along every "
				 "dimension but %u (it spans [%" PRIu64 ", %" PRIu64 ") along "
				 "dimension %u)", ix->name, dim, ix->dom.lo[k], ix->dom.hi[k], k);
			return -1;
		}
		if (v->dom.lo[k] < c->dom.lo[k] || v->dom.hi[k] > c->dom.hi[k]) {
			snprintf(why, size, "the values '%s' span [%" PRIu64 ", %" PRIu64 ") along "
				 "dimension %u, outside the target '%s' there [%" PRIu64 ", %"
				 PRIu64 ")", v->name, v->dom.lo[k], v->dom.hi[k], k, c->name,
				 c->dom.lo[k], c->dom.hi[k]);
			return -1;
		}
	}
	return 0;
}

typedef struct upd {
	uint64_t *c, *v, *ix, *out;
	uint64_t n, len;       /* lattice elements; positions along the stream's dimension */
	uint64_t *pix;         /* the index values as the records' type */
	emu_box touched;       /* the bounding hyperrectangle the stream writes */
} upd;

static int upd_fill(job *j, nsc_mem *m, void *arg)
{
	upd *u = arg;
	for (uint64_t e = 0; e < u->n; e++) {
		nsc_mem_set_bits(m, 0, e, u->c[e]);
		nsc_mem_set_bits(m, 1, e, u->v[e]);
	}
	for (uint64_t q = 0; j->x->nargs > 2 && q < u->len; q++)
		nsc_mem_set_bits(m, 1, u->n + q, u->pix[q]);
	return 0;
}

/* Only the hyperrectangle the stream touched changes (§3.3): the rest of
 * the node's tensor keeps the target's values. */
static void upd_back(job *j, const nsc_mem *m, void *arg)
{
	upd *u = arg;
	const uint64_t *S = j->g->shape;
	const emu_box *b = &u->touched;
	for (uint64_t i2 = b->lo[2]; i2 < b->hi[2]; i2++)
		for (uint64_t i1 = b->lo[1]; i1 < b->hi[1]; i1++)
			for (uint64_t i0 = b->lo[0]; i0 < b->hi[0]; i0++) {
				const uint64_t e = i0 + S[0] * (i1 + S[1] * i2);
				u->out[e] = nsc_mem_bits(m, 0, e) & isa_mask(j->x->width);
			}
}

/* An index value as the bits of the records' type T (the value stream
 * and its index are fields of one record, so that the indirect stream
 * computes only on its base's array, near-stream-computing §II-B). */
static uint64_t as_record(const emu_tnode *x, int64_t v)
{
	if (x->fmt == ISA_FMT_F32) {
		const float f = (float)v;
		uint32_t u;
		memcpy(&u, &f, 4);
		return u;
	}
	return (uint64_t)v & isa_mask(x->width);
}

/* The largest index a record of x's type holds exactly. */
static int64_t record_max(const emu_tnode *x)
{
	if (x->fmt == ISA_FMT_F32)
		return (int64_t)1 << 24;
	return x->is_signed ? (int64_t)(isa_mask(x->width) >> 1) : (int64_t)isa_mask(x->width);
}

/* Every index inside the target's domain along dim (and one a record
 * holds), before the engines run: a bad one is named with its position. */
static int update_indexes(job *j, upd *u)
{
	const emu_tnode *x = j->x, *c = &j->t->nodes[x->arg[0]], *v = &j->t->nodes[x->arg[1]];
	const emu_tnode *ix = &j->t->nodes[x->arg[2]];
	const unsigned k = x->dim;
	uint64_t str = 1;
	for (unsigned q = 0; q < k; q++)
		str *= j->g->shape[q];
	const uint64_t base = ix->dom.lo[0] + j->g->shape[0] * (ix->dom.lo[1] + j->g->shape[1] *
			      ix->dom.lo[2]) - ix->dom.lo[k] * str;
	const unsigned sh = 64 - ix->width;
	if ((int64_t)c->dom.hi[k] - 1 > record_max(x)) {
		diag_at(j->d, j->t->path, x->line, x->op_col,
			"strm.update '%s': the target '%s' spans [%" PRIu64 ", %" PRIu64 ") along "
			"dimension %u, more than a stream record of its type indexes exactly (up to "
			"%" PRId64 ")", x->name, c->name, c->dom.lo[k], c->dom.hi[k], k,
			record_max(x));
		return -1;
	}
	for (uint64_t m = v->dom.lo[k]; m < v->dom.hi[k]; m++) {
		const uint64_t bits = u->ix[base + m * str];
		const int64_t w = ix->is_signed ? (int64_t)(bits << sh) >> sh : (int64_t)bits;
		if (w < (int64_t)c->dom.lo[k] || w >= (int64_t)c->dom.hi[k]) {
			diag_at(j->d, j->t->path, x->line, x->op_col,
				"strm.update '%s': the index '%s' holds %" PRId64 " at position %"
				PRIu64 " of dimension %u, outside the target '%s' there [%" PRIu64
				", %" PRIu64 ")", x->name, ix->name, w, m, k, c->name, c->dom.lo[k],
				c->dom.hi[k]);
			return -1;
		}
		u->pix[m - v->dom.lo[k]] = as_record(x, w);
		if (m == v->dom.lo[k] || (uint64_t)w < u->touched.lo[k])
			u->touched.lo[k] = (uint64_t)w;
		if (m == v->dom.lo[k] || (uint64_t)w >= u->touched.hi[k])
			u->touched.hi[k] = (uint64_t)w + 1;
	}
	return 0;
}

/* The .nsc program: core loops over the values' other dimensions (their
 * flat offset in `base`), a region along the stream's dimension k: the
 * value load, for an indirect stream the index load (the record's last
 * fields, premultiplied by k's stride), and the store or the atomic. */
static void update_text(job *j, const upd *u)
{
	const emu_tnode *x = j->x, *v = &j->t->nodes[x->arg[1]];
	const bool ind = x->nargs > 2;
	const unsigned k = ind ? x->dim : 0;
	const uint64_t *S = j->g->shape;
	const uint64_t str[3] = {1, S[0], S[0] * S[1]};
	const char *ty = nsc_type_of(x);
	const char *op = isa_info_of(x->c.op)->name;
	fprintf(j->f, "array C %s %" PRIu64 "\narray P %s %" PRIu64 "\n", ty, u->n, ty,
		u->n + (ind ? u->len : 0));
	unsigned loops = core_loops(j, v, k);
	fprintf(j->f, "\nstreams m < %" PRIu64 "\n", u->len);
	if (ind)
		fprintf(j->f, "load ix = P[%" PRIu64 " + m] -> i64($) * %" PRIu64 "\n", u->n,
			str[k]);
	fprintf(j->f, "load v = P[base + (m + %" PRIu64 ") * %" PRIu64 "]\n", v->dom.lo[k],
		str[k]);
	char at[96];
	if (ind)
		snprintf(at, sizeof at, "ix + base");
	else
		snprintf(at, sizeof at, "base + (m + %" PRIu64 ") * %" PRIu64, v->dom.lo[k], str[k]);
	if (x->c.op == ISA_COPY)
		fprintf(j->f, "store C[%s] = v\nend\n", at);
	else
		fprintf(j->f, "atomic C[%s] %s v\nend\n", at,
			op[0] == 'a' ? "+=" : op[1] == 'i' ? "min=" : "max=");
	while (loops--)
		fprintf(j->f, "end\n");
}

/* §5.3: the stream's writes into b reach the arrays' readers only after
 * the next sync, like an inter-bank move's: pending in the tracker until
 * then, so an in-memory consumer that does not wait is an unsynced read.
 * (The stream has read its operands when it ends: only b is pending.) */
static int pend_writes(job *j, const emu_buffer *b)
{
	emu_machine *em = j->em;
	if (!em || !em->hz)
		return 0;
	const sram_geom *g = &em->prog->geom;
	const uint64_t na = emu_pattern_size(&b->arrays);
	unsigned *arrays = malloc((na ? na : 1) * sizeof *arrays);
	uint64_t *mask = malloc((g->bitlines + 63) / 64 * sizeof *mask);
	int rc = -1;
	if (arrays && mask) {
		for (uint64_t i = 0; i < na; i++)
			arrays[i] = (unsigned)emu_pattern_at(&b->arrays, i);
		memset(mask, 0xff, (g->bitlines + 63) / 64 * sizeof *mask);
		const emu_cells c = {arrays, na, mask, b->wl, emu_buffer_rows(b, g)};
		char what[EMU_HAZARD_WHAT];
		snprintf(what, sizeof what, "the store stream of strm node '%s'", j->x->name);
		rc = emu_hazard_pend_as(em->hz, j->cmd, j->line, NULL, &c, what);
	}
	free(arrays);
	free(mask);
	if (rc < 0)
		diag_file(j->d, j->t->path, "out of memory for strm node '%s'", j->x->name);
	return rc;
}

static int strm_update(job *j, const emu_program *p, const emu_buffer *b)
{
	const emu_tnode *x = j->x, *v = &j->t->nodes[x->arg[1]];
	const bool ind = x->nargs > 2;
	const emu_buffer *cb = buf_of(j->t, p, &j->t->nodes[x->arg[0]]);
	const emu_buffer *vb = buf_of(j->t, p, v);
	const emu_buffer *ib = ind ? buf_of(j->t, p, &j->t->nodes[x->arg[2]]) : NULL;
	const unsigned k = ind ? x->dim : 0;
	upd u = {.n = b->length, .len = v->dom.hi[k] - v->dom.lo[k]};
	int rc = -1;
	if (!cb || !vb || (ind && !ib) || cb->length != b->length || vb->length != b->length ||
	    (ib && ib->length != b->length)) {
		diag_at(j->d, j->t->path, x->line, x->op_col, "strm node '%s': an operand has no "
			"tensor of the region's sizes in the stream", x->name);
		return -1;
	}
	if (ordering(j->em, cb, j->cmd, j->line, j->d) < 0 ||
	    ordering(j->em, vb, j->cmd, j->line, j->d) < 0 ||
	    (ib && ordering(j->em, ib, j->cmd, j->line, j->d) < 0))
		return -1;
	if (!(u.c = take_out(j, cb)) || !(u.v = take_out(j, vb)) ||
	    (ib && !(u.ix = take_out(j, ib))) || !(u.out = malloc(b->length * sizeof *u.out)) ||
	    !(u.pix = malloc((u.len ? u.len : 1) * sizeof *u.pix)))
		goto done;
	cells_of(j, b, u.out);
	for (uint64_t e = 0; e < u.n; e++)
		if (emu_tdfg_in_domain(j->t, x, e))
			u.out[e] = u.c[e];
	u.touched = v->dom; /* affine: the values' box; indirect: along k, the indexes' span */
	if (ind && update_indexes(j, &u) < 0)
		goto done;
	update_text(j, &u);
	if (fflush(j->f) != 0) {
		diag_file(j->d, j->t->path, "out of memory for strm node '%s'", x->name);
		goto done;
	}
	if (engines(j, upd_fill, upd_back, &u) == 0 && put_in(j, b, u.out) == 0 &&
	    pend_writes(j, b) == 0) {
		rc = 0;
		j->st->elems += (v->dom.hi[0] - v->dom.lo[0]) * (v->dom.hi[1] - v->dom.lo[1]) *
				(v->dom.hi[2] - v->dom.lo[2]);
	}
done:
	if (rc < 0 && !j->d->set)
		diag_file(j->d, j->t->path, "out of memory for strm node '%s'", x->name);
	free(u.c);
	free(u.v);
	free(u.ix);
	free(u.out);
	free(u.pix);
	return rc;
}

int emu_strm_exec(const emu_tdfg *t, const emu_program *p, emu_machine *em, emu_ref *ref,
		  size_t n, emu_strm_stats *st, diag *d)
{
	const emu_tnode *x = &t->nodes[n];
	return emu_strm_exec_at(t, p, em, ref, n, x->cmd1 ? x->cmd1 - 1 : 0, x->line, st, d);
}

/* One run of node n's stream (job j's em or ref). */
static int run_job(job *j, const emu_buffer *b)
{
	if (!(j->f = open_memstream(&j->text, &j->len))) {
		diag_file(j->d, j->t->path, "out of memory for strm node '%s'", j->x->name);
		return -1;
	}
	j->st->streams++;
	int rc;
	if (j->x->kind == EMU_TN_GATHER)
		rc = strm_gather(j, j->p, b);
	else if (j->x->kind == EMU_TN_UPDATE)
		rc = strm_update(j, j->p, b);
	else
		rc = ordering(j->em, b, j->cmd, j->line, j->d) < 0 ? -1 : strm_reduce(j, b);
	fclose(j->f);
	free(j->text);
	return rc;
}

int emu_strm_exec_at(const emu_tdfg *t, const emu_program *p, emu_machine *em, emu_ref *ref,
		     size_t n, size_t cmd, int line, emu_strm_stats *st, diag *d)
{
	const emu_tnode *x = &t->nodes[n];
	const emu_buffer *b = buf_of(t, p, x);
	if (!b) {
		diag_at(d, t->path, x->line, x->op_col, "strm node '%s' has no tensor in the stream",
			x->name);
		return -1;
	}
	if (emu_strm_lot_init(&st->lot, p->nbufs) < 0) {
		diag_file(d, t->path, "out of memory for strm node '%s'", x->name);
		return -1;
	}
	job j = {.t = t, .x = x, .g = &t->regions[x->region], .p = p, .em = em, .st = st,
		 .d = d, .cmd = cmd, .line = line};
	if (em && run_job(&j, b) < 0)
		return -1;
	if (!ref)
		return 0;
	/* The reference's own run, from its own values: statistics apart,
	 * so that they count the machine's stream alone. */
	emu_strm_stats mine;
	memset(&mine, 0, sizeof mine);
	job r = {.t = t, .x = x, .g = j.g, .p = p, .ref = ref, .st = &mine, .d = d,
		 .cmd = cmd, .line = line};
	const int rc = run_job(&r, b);
	emu_strm_lot_free(&mine.lot);
	return rc;
}

/* ---- the Layout Override Table's trans field (§5.2, Table 1) ---- */

int emu_strm_lot_init(emu_strm_lot *l, size_t nbufs)
{
	if (l->trans && l->n >= nbufs)
		return 0;
	uint8_t *v = realloc(l->trans, nbufs ? nbufs : 1);
	if (!v)
		return -1;
	memset(v + l->n, EMU_LOT_NORMAL, nbufs - l->n);
	l->trans = v;
	l->n = nbufs;
	return 0;
}

void emu_strm_lot_free(emu_strm_lot *l)
{
	free(l->trans);
	l->trans = NULL;
	l->n = 0;
}

void emu_strm_lot_fill(emu_strm_lot *l, size_t b)
{
	if (b < l->n) {
		l->trans[b] = EMU_LOT_FILLING;
		l->fills++;
	}
}

void emu_strm_lot_filled(emu_strm_lot *l, size_t b)
{
	if (b < l->n)
		l->trans[b] = EMU_LOT_TRANSPOSED;
}

bool emu_strm_lot_core_request(emu_strm_lot *l, size_t b)
{
	if (b < l->n && l->trans[b] == EMU_LOT_FILLING) {
		l->blocked++;
		return false;
	}
	l->served++;
	return true;
}

/* ---- the offload decision, Eq. 2 (§4.3) ---- */

void emu_eq2_region(const emu_tdfg *t, size_t run, const uint64_t *cycles, double tp_core,
		    uint64_t lat_jit, emu_eq2 *e)
{
	const emu_tregion *r = &t->regions[run];
	memset(e, 0, sizeof *e);
	e->n_elem = 1;
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++)
		e->n_elem *= r->window.hi[k] - r->window.lo[k];
	e->tp_core = tp_core;
	e->lat_jit = lat_jit;
	for (size_t i = r->node0; i < r->node1; i++) {
		const emu_tnode *x = &t->nodes[i];
		e->n_node++;
		e->n_op += x->kind == EMU_TN_COMPUTE || x->kind == EMU_TN_REDUCE;
		for (size_t c = x->cmd0; cycles && c < x->cmd1; c++)
			e->lat_ops += cycles[c];
	}
	e->core = (double)e->n_elem * (double)e->n_op / tp_core;
	e->mem = e->lat_ops + e->n_node * lat_jit;
	e->in_memory = e->core > (double)e->mem;
}

/* ---- a region near memory (§4.3: Eq. 2 chose the streams) ----
 *
 * Each node of the run with commands becomes a stream program over its
 * domain, run by the engines of emu/nsc at the banks: core loops over
 * dimensions 2 and 1, a region along dimension 0, one load stream per
 * operand (a shift's at its offset, a broadcast's at the operand's first
 * position along its dimension) and a store stream of the node's value,
 * computed by the banks' ALU.  A reduce folds pairwise as on the
 * bitlines (h = ceil(len/2), position j takes OP(j, j + h)), one region
 * a step.  The operands leave the arrays and the value enters them
 * through the transpose unit, as a strm node's. */

/* The engines' type of x (nsc_type_of), or NULL when it has none. */
static const char *near_type(const emu_tnode *x)
{
	if (x->fmt == ISA_FMT_F32)
		return x->width == 32 ? "f32" : NULL;
	if (x->fmt != ISA_FMT_INT)
		return NULL;
	if (x->width == 8)
		return x->is_signed ? "i8" : "u8";
	if (x->width == 32)
		return x->is_signed ? "i32" : "u32";
	if (x->width == 64)
		return "i64";
	return NULL;
}

/* The banks' expression for compute op c over u0, u1 ("" when the ALU
 * has none that gives the arrays' bits). */
static const char *near_expr(const emu_tnode *x, bool ieee)
{
	const bool u64 = x->width == 64 && !x->is_signed;
	if (x->fmt == ISA_FMT_F32) {
		/* IEEE single precision at the banks: the arrays' bits only
		 * when they keep subnormals too (fp=ieee) */
		if (!ieee)
			return x->c.op == ISA_COPY ? "u0" : "";
		switch (x->c.op) {
		case ISA_ADD: case ISA_FADD: return "u0 + u1";
		case ISA_SUB: case ISA_FSUB: return "u0 - u1";
		case ISA_MUL: case ISA_FMUL: return "u0 * u1";
		case ISA_COPY: return "u0";
		default: return "";
		}
	}
	switch (x->c.op) {
	case ISA_ADD: return "u0 + u1";
	case ISA_SUB: return "u0 - u1";
	case ISA_MUL: return "u0 * u1";
	case ISA_AND: return "u0 & u1";
	case ISA_OR: return "u0 | u1";
	case ISA_XOR: return "u0 ^ u1";
	case ISA_NOT: return "~u0";
	case ISA_NEG: return "-u0";
	case ISA_COPY: return "u0";
	case ISA_MIN: return u64 ? "" : "min(u0, u1)";
	case ISA_MAX: return u64 ? "" : "max(u0, u1)";
	default: return "";
	}
}

/* An f32 add, sub or mul (what fp=ieee lets the banks compute). */
static bool f32_arith(const emu_tnode *x)
{
	const unsigned o = x->c.op;
	return x->fmt == ISA_FMT_F32 && (o == ISA_ADD || o == ISA_SUB || o == ISA_MUL ||
					  o == ISA_FADD || o == ISA_FSUB || o == ISA_FMUL);
}

long emu_near_unfit(const emu_tdfg *t, size_t run, char *why, size_t size)
{
	const emu_tregion *r = &t->regions[run];
	for (size_t i = r->node0; i < r->node1; i++) {
		const emu_tnode *x = &t->nodes[i];
		const char *what = NULL;
		if (x->cmd1 == x->cmd0 && x->kind != EMU_TN_REDUCE)
			continue; /* nothing runs for it (an input, a tensor) */
		if (x->kind == EMU_TN_GATHER || x->kind == EMU_TN_UPDATE)
			continue; /* a stream already */
		if (!near_type(x))
			what = "its type has no stream engine type (i8, u8, i32, u32, i64, f32)";
		else if (x->kind == EMU_TN_COMPUTE || x->kind == EMU_TN_REDUCE) {
			if (!*near_expr(x, t->geom.fp_ieee != 0))
				what = f32_arith(x) && !t->geom.fp_ieee
					       ? "the banks' IEEE single precision keeps subnormals, "
						 "the arrays flush them (fp=ieee gives the same bits)"
					       : "the banks' ALU has no operation that gives its bits";
			else if (x->kind == EMU_TN_REDUCE &&
				 (x->fmt == ISA_FMT_F32 ? x->c.op != ISA_ADD && x->c.op != ISA_FADD
							: x->c.op != ISA_ADD && x->c.op != ISA_MIN &&
								  x->c.op != ISA_MAX))
				what = "the banks' ALU has no operation that gives its bits";
			for (unsigned a = 0; !what && a < x->nargs; a++)
				if (!near_type(&t->nodes[x->arg[a]]))
					what = "an operand's type has no stream engine type";
		} else if (x->kind != EMU_TN_CONST && x->kind != EMU_TN_SHIFT &&
			   x->kind != EMU_TN_BCAST && x->kind != EMU_TN_STORE) {
			what = "its kind of node has no stream";
		}
		if (what) {
			char label[96];
			snprintf(why, size, "node '%s' (line %d) cannot run near memory: %s",
				 emu_tnode_label(t, x, label, sizeof label), x->line, what);
			return (long)i;
		}
	}
	return -1;
}

/* The flat index of position (a + lo0, b + lo1, c + lo2), each
 * coordinate moved by -off[k], or fixed at fix[k] where fixk[k]. */
static void near_index(FILE *f, const uint64_t *S, const emu_box *dom, const int64_t *off,
		       int fixk, uint64_t fix)
{
	static const char *const v[3] = {"a", "b", "c"};
	const uint64_t str[3] = {1, S[0], S[0] * S[1]};
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++) {
		if (k)
			fputs(" + ", f);
		if ((int)k == fixk)
			fprintf(f, "%" PRIu64 " * %" PRIu64, fix, str[k]);
		else
			fprintf(f, "(%s + %" PRId64 ") * %" PRIu64, v[k],
				(int64_t)dom->lo[k] - (off ? off[k] : 0), str[k]);
	}
}

typedef struct nearv {
	uint64_t *in[3];       /* the operands' cells */
	uint64_t *out;         /* the node's cells */
	unsigned nin;
	uint64_t n;
	const emu_box *dom;    /* what the store writes */
	uint64_t konst;        /* a const's bits */
} nearv;

static int near_fill(job *j, nsc_mem *m, void *arg)
{
	nearv *v = arg;
	for (unsigned a = 0; a < v->nin; a++)
		for (uint64_t e = 0; e < v->n; e++)
			nsc_mem_set_bits(m, (int)a, e, v->in[a][e]);
	if (j->x->kind == EMU_TN_CONST)
		nsc_mem_set_bits(m, 0, 0, v->konst);
	if (j->x->kind != EMU_TN_REDUCE) /* a reduce folds in its operand's array */
		for (uint64_t e = 0; e < v->n; e++)
			nsc_mem_set_bits(m, (int)(v->nin ? v->nin : 1), e, v->out[e]);
	return 0;
}

static void near_back(job *j, const nsc_mem *m, void *arg)
{
	nearv *v = arg;
	const uint64_t *S = j->g->shape;
	const int a = j->x->kind == EMU_TN_REDUCE ? 0 : (int)(v->nin ? v->nin : 1);
	for (uint64_t i2 = v->dom->lo[2]; i2 < v->dom->hi[2]; i2++)
		for (uint64_t i1 = v->dom->lo[1]; i1 < v->dom->hi[1]; i1++)
			for (uint64_t i0 = v->dom->lo[0]; i0 < v->dom->hi[0]; i0++) {
				const uint64_t e = i0 + S[0] * (i1 + S[1] * i2);
				v->out[e] = nsc_mem_bits(m, a, e) & isa_mask(j->x->width);
			}
}

/* The loops over box b, the streams along dimension 0 inside; the
 * number of `end`s to close. */
static void near_loops(FILE *f, const emu_box *b)
{
	fprintf(f, "for c < %" PRIu64 "\nfor b < %" PRIu64 "\nstreams a < %" PRIu64 "\n",
		b->hi[2] - b->lo[2], b->hi[1] - b->lo[1], b->hi[0] - b->lo[0]);
}

/* The .nsc text of node x (not a reduce): arrays A0.. (operands, or K
 * for a const) then X; the store over x's domain. */
static void near_text(job *j, const nearv *v)
{
	const emu_tnode *x = j->x;
	const uint64_t *S = j->g->shape;
	for (unsigned a = 0; a < v->nin; a++)
		fprintf(j->f, "array A%u %s %" PRIu64 "\n", a, near_type(&j->t->nodes[x->arg[a]]),
			v->n);
	if (x->kind == EMU_TN_CONST)
		fprintf(j->f, "array K %s 1\n", near_type(x));
	fprintf(j->f, "array X %s %" PRIu64 "\n", near_type(x), v->n);
	if (x->kind == EMU_TN_CONST)
		fprintf(j->f, "let k = K[0]\n");
	near_loops(j->f, &x->dom);
	for (unsigned a = 0; a < v->nin; a++) {
		fprintf(j->f, "load u%u = A%u[", a, a);
		if (x->kind == EMU_TN_SHIFT)
			near_index(j->f, S, &x->dom, x->off, -1, 0);
		else if (x->kind == EMU_TN_BCAST)
			near_index(j->f, S, &x->dom, NULL, x->dim,
				   j->t->nodes[x->arg[0]].dom.lo[x->dim]);
		else
			near_index(j->f, S, &x->dom, NULL, -1, 0);
		fputs("]\n", j->f);
	}
	fputs("store X[", j->f);
	near_index(j->f, S, &x->dom, NULL, -1, 0);
	fprintf(j->f, "] = %s\nend\nend\nend\n",
		x->kind == EMU_TN_CONST ? "k" : x->kind == EMU_TN_COMPUTE
			? near_expr(x, j->t->geom.fp_ieee != 0) : "u0");
}

/* A reduce's text: its operand in A0, halved along dim k step by step
 * over the operand's domain, in place. */
static void near_reduce_text(job *j, const nearv *v, uint64_t T)
{
	const emu_tnode *x = j->x, *s = &j->t->nodes[x->arg[0]];
	const unsigned k = x->dim;
	const uint64_t *S = j->g->shape;
	const uint64_t str[3] = {1, S[0], S[0] * S[1]};
	fprintf(j->f, "array A0 %s %" PRIu64 "\n", near_type(x), v->n);
	const char *op = x->c.op == ISA_MIN ? "min(u0, u1)" : x->c.op == ISA_MAX ? "max(u0, u1)"
										: "u0 + u1";
	/* a strm.reduce halves each tile of T positions (its in-memory
	 * part), a reduce the whole dimension */
	const uint64_t all = s->dom.hi[k] - s->dom.lo[k];
	for (uint64_t c0 = 0, len = T; c0 < all; c0 += T, len = T)
	for (; len > 1;) {
		const uint64_t h = (len + 1) / 2;
		emu_box b = s->dom;
		b.lo[k] += c0;
		b.hi[k] = b.lo[k] + (len - h);
		near_loops(j->f, &b);
		fputs("load u0 = A0[", j->f);
		near_index(j->f, S, &b, NULL, -1, 0);
		fputs("]\nload u1 = A0[", j->f);
		near_index(j->f, S, &b, NULL, -1, 0);
		fprintf(j->f, " + %" PRIu64 "]\nstore A0[", h * str[k]);
		near_index(j->f, S, &b, NULL, -1, 0);
		fprintf(j->f, "] = %s\nend\nend\nend\n", op);
		len = h;
	}
}

static int near_node(job *j, const emu_buffer *b)
{
	const emu_tnode *x = j->x;
	nearv v = {.n = b->length, .dom = &x->dom, .konst = x->value};
	int rc = -1;
	if (x->kind != EMU_TN_CONST)
		v.nin = x->nargs;
	for (unsigned a = 0; a < v.nin; a++) {
		const emu_tnode *o = &j->t->nodes[x->arg[a]];
		const emu_buffer *ob = o->buf >= 0 && (size_t)o->buf < j->p->nbufs
					       ? &j->p->bufs[o->buf] : NULL;
		if (!ob || ob->length != b->length) {
			diag_at(j->d, j->t->path, x->line, x->op_col, "node '%s': an operand has no "
				"tensor of the region's sizes to stream", x->name);
			goto done;
		}
		if (ordering(j->em, ob, j->cmd, j->line, j->d) < 0 || !(v.in[a] = take_out(j, ob)))
			goto done;
	}
	if (!(v.out = malloc(b->length * sizeof *v.out))) {
		diag_file(j->d, j->t->path, "out of memory for node '%s'", x->name);
		goto done;
	}
	cells_of(j, b, v.out);
	if (x->kind == EMU_TN_REDUCE && x->strm) {
		/* the partials at each tile's first position: the operand's box */
		const unsigned k = x->dim;
		v.dom = &j->t->nodes[x->arg[0]].dom;
		near_reduce_text(j, &v, b->ndims && b->tile[k] ? b->tile[k] : j->g->tile[k]);
	} else if (x->kind == EMU_TN_REDUCE) {
		const emu_box *sd = &j->t->nodes[x->arg[0]].dom;
		near_reduce_text(j, &v, sd->hi[x->dim] - sd->lo[x->dim]);
	} else
		near_text(j, &v);
	if (fflush(j->f) != 0) {
		diag_file(j->d, j->t->path, "out of memory for node '%s'", x->name);
		goto done;
	}
	if (engines(j, near_fill, near_back, &v) == 0 && put_in(j, b, v.out) == 0) {
		rc = 0;
		j->st->near_elems += (x->dom.hi[0] - x->dom.lo[0]) * (x->dom.hi[1] - x->dom.lo[1]) *
				     (x->dom.hi[2] - x->dom.lo[2]);
	}
done:
	for (unsigned a = 0; a < v.nin; a++)
		free(v.in[a]);
	free(v.out);
	return rc;
}

int emu_near_exec(const emu_tdfg *t, const emu_program *p, emu_machine *em, emu_ref *ref,
		  size_t n, double core_tp, emu_strm_stats *st, diag *d)
{
	const emu_tnode *x = &t->nodes[n];
	if (x->cmd1 == x->cmd0 && x->kind != EMU_TN_REDUCE)
		return 0;
	if (x->buf < 0 || (size_t)x->buf >= p->nbufs) {
		diag_at(d, t->path, x->line, x->op_col, "node '%s' has no tensor in the stream",
			x->name);
		return -1;
	}
	const emu_buffer *b = &p->bufs[x->buf];
	const emu_box *db = x->kind == EMU_TN_REDUCE ? &t->nodes[x->arg[0]].dom : &x->dom;
	if (db->hi[0] <= db->lo[0] || db->hi[1] <= db->lo[1] || db->hi[2] <= db->lo[2])
		return 0; /* an empty domain: nothing to stream */
	if (emu_strm_lot_init(&st->lot, p->nbufs) < 0) {
		diag_file(d, t->path, "out of memory for node '%s'", x->name);
		return -1;
	}
	const size_t cmd = t->regions[x->region].cmd0;
	for (int pass = 0; pass < 2; pass++) {
		emu_strm_stats mine;
		memset(&mine, 0, sizeof mine);
		job j = {.t = t, .x = x, .g = &t->regions[x->region], .p = p, .d = d, .cmd = cmd,
			 .line = x->line, .near = true, .core_tp = core_tp};
		if (pass == 0) {
			if (!em)
				continue;
			j.em = em;
			j.st = st;
		} else {
			if (!ref)
				break;
			j.ref = ref; /* its own run, its statistics apart */
			j.st = &mine;
		}
		int rc = 0;
		/* a gather's or a store's stream is the node (its commands
		 * only a sync); a strm.reduce's in-memory part streams, then
		 * its final reduce */
		if (x->kind != EMU_TN_GATHER && x->kind != EMU_TN_UPDATE) {
			if (!(j.f = open_memstream(&j.text, &j.len))) {
				diag_file(d, t->path, "out of memory for node '%s'", x->name);
				return -1;
			}
			rc = near_node(&j, b);
			fclose(j.f);
			free(j.text);
			j.text = NULL;
			j.len = 0;
		}
		if (rc == 0 && (x->strm || x->kind == EMU_TN_GATHER || x->kind == EMU_TN_UPDATE)) {
			j.near = x->kind != EMU_TN_REDUCE; /* the fold stays Final Reduce */
			rc = run_job(&j, b);
		}
		emu_strm_lot_free(&mine.lot);
		if (rc < 0)
			return -1;
	}
	st->near_nodes += em != NULL;
	return 0;
}

void emu_eq2_model(const emu_tdfg *t, size_t run, double tp_core, uint64_t lat_jit,
		   emu_eq2 *e)
{
	const emu_tregion *r = &t->regions[run];
	emu_eq2_region(t, run, NULL, tp_core, lat_jit, e);
	e->lat_ops = emu_jit_tile_cost(t, r, r->tile);
	e->mem = e->lat_ops + e->n_node * lat_jit;
	e->in_memory = e->core > (double)e->mem;
}
