/* SPDX-License-Identifier: MIT */
/*
 * bisect.c: the command that made a check point wrong (doc/TDFG.md,
 * "Bisecting").  The stream runs again from the start on a machine of
 * its own; after each command the wrong bits are read, and for the
 * first wrong element also its whole value, its bitline's other
 * wordlines and its wordlines in the tensor's other arrays.  From that:
 *   - the first command that wrote a bit that ends wrong (a bit a sync
 *     delivered counts for the move that sent it);
 *   - the last command that wrote the first wrong element, and, when it
 *     only moved bits, the command that first made the value it ends
 *     with on that bitline;
 *   - a clobber: an operand of the guilty command whose tensor changed
 *     after the marker that bound it, and the command that changed it;
 *   - for bits no command of the window wrote: the command that wrote
 *     some of the element's bits but not these (a narrower width), the
 *     element's bitline at other wordlines (the wrong wordline), its
 *     wordlines in another array (the wrong array), or the tensor outside
 *     the node's domain.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "move.h"
#include "report.h"
#include "valid_private.h"

emu_machine *emu_valid_restart(const emu_valid *v, diag *d)
{
	emu_machine *em = emu_machine_new(v->p, d);
	if (em && emu_init_buffers(em, d) < 0) {
		emu_machine_free(em);
		return NULL;
	}
	for (size_t i = 0; em && i < v->nloads; i++)
		emu_ttu_store(em, v->loads[i].b, v->loads[i].v, v->loads[i].b->length);
	return em;
}

static unsigned bank_of(const sram_geom *g, int64_t array)
{
	return (unsigned)(array / (int64_t)(g->arrays_per_way * g->ways_per_bank));
}

static bool in_pattern(const emu_pattern *q, int64_t x)
{
	const uint64_t n = emu_pattern_size(q);
	if (n == 0)
		return false;
	int64_t lo, hi;
	emu_pattern_bounds(q, &lo, &hi);
	if (x < lo || x > hi)
		return false;
	if (q->ndims == 0)
		return x == q->start;
	if (q->ndims == 1) { /* start + i * stride, i < count */
		const int64_t s = q->stride[0], off = x - q->start;
		return s == 0 ? off == 0 : off % s == 0 && off / s >= 0 && (uint64_t)(off / s) < n;
	}
	for (uint64_t i = 0; i < n; i++)
		if (emu_pattern_at(q, i) == x)
			return true;
	return false;
}

/* Does move m send a bit to (array, bitline, wl) in another bank, which
 * lands there only at the next sync (infinity-stream §4.2)? */
static bool sends_to(const emu_move *m, const sram_geom *g, unsigned array, unsigned bl,
		     unsigned wl)
{
	if ((m->kind != EMU_MOVE_INTER && m->kind != EMU_MOVE_BCAST) || wl < m->dst_wl ||
	    wl >= (unsigned)m->dst_wl + m->nwl || !in_pattern(&m->dst_bitlines, bl))
		return false;
	const uint64_t na = emu_pattern_size(&m->arrays);
	const uint64_t copies = m->kind == EMU_MOVE_BCAST ? m->reuse_count : 1;
	for (uint64_t i = 0; i < na; i++) {
		const int64_t a = emu_pattern_at(&m->arrays, i);
		for (uint64_t c = 0; c < copies; c++) {
			const int64_t to = a + m->dist + (int64_t)c * m->reuse_stride;
			if (to == (int64_t)array && bank_of(g, to) != bank_of(g, a))
				return true;
		}
	}
	return false;
}

/* The last move among commands [0, before) since the last sync that
 * sends bit k of element e of b to another bank: its number from 1, or 0. */
static size_t sender(const emu_program *p, size_t before, const emu_buffer *b, uint64_t e,
		     unsigned k)
{
	unsigned array, bl, wl;
	emu_buffer_place(b, &p->geom, e, &array, &bl, &wl);
	for (size_t j = before; j-- > 0;) {
		const emu_cmd *c = &p->cmds[j];
		if (c->kind == EMU_CMD_MOVE && c->mv.kind == EMU_MOVE_SYNC)
			return 0;
		if (c->kind == EMU_CMD_MOVE && sends_to(&c->mv, &p->geom, array, bl, wl + k))
			return j + 1;
	}
	return 0;
}

static bool is_sync(const emu_program *p, size_t c)
{
	return c && p->cmds[c - 1].kind == EMU_CMD_MOVE && p->cmds[c - 1].mv.kind == EMU_MOVE_SYNC;
}

/* Command c that changed bit k of element e: a sync stands for the move
 * that sent the bit. */
static size_t writer(const emu_program *p, size_t c, const emu_buffer *b, uint64_t e, unsigned k)
{
	if (!is_sync(p, c))
		return c;
	const size_t s = sender(p, c - 1, b, e, k);
	return s ? s : c;
}

/* What the rerun records. */
typedef struct trail {
	const emu_valid_wrong *w;
	size_t nw;
	uint32_t *last;        /* nw x 64: the command after which bit k of
				* w[i] last changed (from 1), 0 if it never did */
	uint64_t *now;         /* nw: each element as the rerun holds it */
	uint64_t *all;         /* the whole tensor, for writes outside the domain */
	/* the first wrong element */
	unsigned array, bitline, wl, width;
	size_t first_any, last_any; /* window commands that changed any of its bits */
	uint64_t first_bits;   /* the bits the first of them changed */
	uint64_t col_now[16];  /* its bitline, every wordline (up to 1024) */
	size_t col_other;      /* first window command that changed other wordlines */
	unsigned col_wl;       /* the first wordline it changed there */
	bool value_there;      /* the value it ends with is on its bitline */
	size_t origin;         /* the window command that first put it there */
	unsigned *other_arrays;/* arrays near its own, where a write of the
				* wrong array would land: arrays_lo.. but its own */
	unsigned arrays_lo;
	size_t nother;
	uint64_t *other_now;   /* their bits at the element's place */
	size_t arr_other;      /* first window command that changed one */
	unsigned arr_which;
	/* The cells of its bitline, in its array and the others: 1 where
	 * the stream may write (an element a node owns), else 0; rows a
	 * row each, arrays its own (0) then other_arrays. */
	uint8_t *legit;
	unsigned rows;
} trail;

/* tr->legit: on the first wrong element's bitline, in its array and the
 * ones near it, the rows of every element a node owns (of any tensor of
 * the stream).  0, or -1 when out of memory. */
static int legit_cells(const emu_valid *v, trail *tr)
{
	for (size_t k = 0; k < v->p->nbufs; k++) {
		const emu_buffer *b = &v->p->bufs[k];
		uint8_t *own = b->ndims ? emu_valid_owned(v, (int)k) : NULL;
		if (b->ndims && !own)
			return -1;
		emu_placer pl;
		emu_placer_init(&pl, b, &v->p->geom);
		const unsigned w = b->width;
		for (uint64_t e = 0; e < b->length; e++) {
			unsigned a, bl, wl;
			emu_placer_at(&pl, e, &a, &bl, &wl);
			if (bl != tr->bitline || (own && !own[e]))
				continue;
			/* slot 0 its own array, k + 1 other_arrays[k] */
			size_t slot = 0;
			if (a != tr->array) {
				if (a < tr->arrays_lo || a >= tr->arrays_lo + tr->nother + 1)
					continue;
				slot = a - tr->arrays_lo + (a < tr->array);
			}
			for (unsigned j = 0; j < w && wl + j < tr->rows; j++)
				tr->legit[slot * tr->rows + wl + j] = 1;
		}
		free(own);
	}
	return 0;
}

/* In a trail's last[], a change made by the strm stream that runs after
 * the command (emu_valid_strm), not by the command itself. */
#define BY_STRM 0x80000000u

static void column(const emu_machine *em, unsigned array, unsigned bl, unsigned rows,
		   uint64_t *col)
{
	memset(col, 0, 16 * sizeof *col);
	for (unsigned r = 0; r < rows && r < 1024; r++)
		if (sram_get_bit(em->m, array, r, bl))
			col[r / 64] |= UINT64_C(1) << (r % 64);
}

static uint64_t bits_at(const uint64_t *col, unsigned wl, unsigned width)
{
	uint64_t x = 0;
	for (unsigned k = 0; k < width; k++)
		x |= (col[(wl + k) / 64] >> ((wl + k) % 64) & 1) << k;
	return x;
}

/* Is value x (width bits) anywhere on the column? */
static bool on_column(const uint64_t *col, unsigned rows, unsigned width, uint64_t x)
{
	for (unsigned o = 0; o + width <= rows && o + width <= 1024; o++)
		if (bits_at(col, o, width) == x)
			return true;
	return false;
}

static uint64_t place_bits(const emu_machine *em, unsigned array, unsigned bl, unsigned wl,
			   unsigned width)
{
	uint64_t x = 0;
	for (unsigned k = 0; k < width; k++)
		x |= (uint64_t)sram_get_bit(em->m, array, wl + k, bl) << k;
	return x;
}

/* After command c (from 1), or the strm stream after it (by_strm):
 * which wrong bits changed; inside the window, the first element's
 * changes and the first write to the tensor outside the node's domain. */
static void observe(const emu_valid *v, const emu_machine *em, const point *pt, trail *tr,
		    size_t c, bool by_strm, emu_valid_report *rep)
{
	const emu_buffer *b = &v->p->bufs[pt->buf];
	const bool in = c > rep->window;
	for (size_t i = 0; i < tr->nw; i++) {
		const uint64_t x = emu_elem_get(em, b, tr->w[i].e);
		const uint64_t changed = x ^ tr->now[i];
		const uint64_t ch = changed & tr->w[i].diff;
		for (unsigned k = 0; k < 64; k++)
			if (ch >> k & 1)
				tr->last[i * 64 + k] = (uint32_t)c | (by_strm ? BY_STRM : 0);
		if (i == 0 && in && changed && !by_strm) {
			unsigned k = 0;
			while (!(changed >> k & 1))
				k++;
			const size_t wc = writer(v->p, c, b, tr->w[0].e, k);
			if (!tr->first_any) {
				tr->first_any = wc;
				tr->first_bits = changed;
			}
			tr->last_any = wc;
		}
		tr->now[i] = x;
	}
	const unsigned rows = v->p->geom.wordlines;
	uint64_t col[16];
	column(em, tr->array, tr->bitline, rows, col);
	const bool there = on_column(col, rows, tr->width, tr->w[0].end);
	if (in && there && !tr->value_there && !tr->origin)
		tr->origin = c;
	tr->value_there = there;
	for (unsigned r = 0; in && !tr->col_other && r < rows && r < v->p->scratch && r < 1024; r++)
		if ((r < tr->wl || r >= tr->wl + tr->width) && !tr->legit[r] &&
		    ((col[r / 64] ^ tr->col_now[r / 64]) >> (r % 64) & 1)) {
			tr->col_other = c;
			tr->col_wl = r;
		}
	memcpy(tr->col_now, col, sizeof col);
	for (size_t k = 0; tr->other_now && k < tr->nother; k++) {
		const uint64_t x = place_bits(em, tr->other_arrays[k], tr->bitline, tr->wl, tr->width);
		const uint8_t *lg = tr->legit + (k + 1) * tr->rows + tr->wl;
		bool legit = true;
		for (unsigned j = 0; j < tr->width; j++)
			legit &= lg[j] != 0;
		if (in && !tr->arr_other && x != tr->other_now[k] && !legit) {
			tr->arr_other = c;
			tr->arr_which = tr->other_arrays[k];
		}
		tr->other_now[k] = x;
	}
	if (!tr->all || c < rep->window || rep->elsewhere || pt->kind == PT_ARRAY)
		return;
	const emu_tnode *x = &v->t->nodes[pt->node];
	for (uint64_t e = 0; e < b->length; e++) {
		const uint64_t y = emu_elem_get(em, b, e);
		if (c > rep->window && y != tr->all[e] && !emu_tdfg_in_domain(v->t, x, e)) {
			rep->elsewhere = c;
			rep->elsewhere_index = e;
			return;
		}
		tr->all[e] = y;
	}
}

/* At the start of the window, each bit of a wrong element that already
 * holds the value it ends with is flipped (of the first wrong element,
 * every bit), so that a command of the window that writes that value
 * shows as a change (a write of the bits a cell already holds is
 * otherwise invisible).  Only the node's own wrong cells are touched,
 * before the commands that should write them. */
static void poison(const emu_valid *v, emu_machine *em, const point *pt, trail *tr)
{
	const emu_buffer *b = &v->p->bufs[pt->buf];
	for (size_t i = 0; i < tr->nw; i++) {
		const uint64_t x = emu_elem_get(em, b, tr->w[i].e);
		const uint64_t mask = i == 0 ? isa_mask(b->width) : tr->w[i].diff;
		const uint64_t same = ~(x ^ tr->w[i].end) & mask;
		tr->now[i] = x ^ same;
		emu_elem_set(em, b, tr->w[i].e, tr->now[i]);
	}
	column(em, tr->array, tr->bitline, v->p->geom.wordlines, tr->col_now);
	tr->value_there = on_column(tr->col_now, v->p->geom.wordlines, tr->width, tr->w[0].end);
}

/* The strm point at command c (from 1) up to pt, or NULL. */
static const point *strm_at(const emu_valid *v, const point *pt, size_t c)
{
	for (const point *q = v->pts; q <= pt; q++)
		if (q->strm && q->at == c)
			return q;
	return NULL;
}

/* A rerun of commands 1..upto, calling back after each (and at 0), and
 * again, with by_strm, after the strm stream that runs there if any. */
typedef int (*rerun_fn)(const emu_valid *v, emu_machine *em, size_t c, bool by_strm,
			void *arg);

static int rerun_each(const emu_valid *v, const point *pt, size_t upto, rerun_fn f, void *arg,
		      diag *d)
{
	emu_machine *em = emu_valid_restart(v, d);
	emu_strm_stats st;
	if (!em)
		return -1;
	memset(&st, 0, sizeof st);
	int rc = 0;
	for (size_t c = 0; rc == 0 && c <= upto; c++) {
		if (c && emu_run_cmd(em, d) < 0) {
			rc = -1;
			break;
		}
		rc = f(v, em, c, false, arg);
		const point *q = rc == 0 ? strm_at(v, pt, c) : NULL;
		if (q && emu_strm_exec_at(v->t, v->p, em, NULL, q->node, c ? c - 1 : 0, q->line, &st,
					  d) < 0)
			rc = -1;
		else if (q)
			rc = f(v, em, c, true, arg);
	}
	emu_strm_lot_free(&st.lot);
	emu_machine_free(em);
	return rc < 0 ? -1 : 0;
}

typedef struct observing {
	const point *pt;
	trail *tr;
	emu_valid_report *rep;
} observing;

/* The bisection's rerun: each wrong bit's last change; the wrong cells
 * poisoned at the window's start. */
static int observe_each(const emu_valid *v, emu_machine *em, size_t c, bool by_strm, void *arg)
{
	observing *o = arg;
	observe(v, em, o->pt, o->tr, c, by_strm, o->rep);
	if (by_strm)
		return 0;
	if (c == 0)
		memset(o->tr->last, 0, o->tr->nw * 64 * sizeof *o->tr->last);
	if (c == o->rep->window)
		poison(v, em, o->pt, o->tr);
	return 0;
}

static int rerun(const emu_valid *v, const point *pt, trail *tr, emu_valid_report *rep,
		 diag *d)
{
	observing o = {pt, tr, rep};
	return rerun_each(v, pt, pt->at, observe_each, &o, d);
}

/* From the trail, the guilty command (validate.h, emu_valid_cause). */
static void judge(const emu_valid *v, const point *pt, const trail *tr, emu_valid_report *rep)
{
	const emu_buffer *b = &v->p->bufs[pt->buf];
	size_t wrote = 0, sent = 0;
	uint64_t we = 0, se = 0;
	for (size_t i = 0; i < tr->nw; i++)
		for (unsigned k = 0; k < 64; k++) {
			if (!(tr->w[i].diff >> k & 1))
				continue;
			size_t c = tr->last[i * 64 + k] & ~BY_STRM;
			const bool by_strm = tr->last[i * 64 + k] & BY_STRM;
			if (by_strm) {
				if (c > rep->window && (!wrote || c < wrote)) {
					wrote = c;
					we = tr->w[i].e;
					rep->guilty_strm = true;
				}
				continue;
			}
			c = writer(v->p, c, b, tr->w[i].e, k);
			if (c > rep->window && (!wrote || c < wrote ||
						(c == wrote && rep->guilty_strm))) {
				wrote = c;
				we = tr->w[i].e;
				rep->guilty_strm = false;
			}
			const size_t f = c > rep->window ? 0 : sender(v->p, pt->at, b, tr->w[i].e, k);
			if (f && (!sent || f < sent)) {
				sent = f;
				se = tr->w[i].e;
			}
		}
	rep->cause = wrote ? EMU_VALID_WROTE : sent ? EMU_VALID_IN_FLIGHT : EMU_VALID_UNWRITTEN;
	rep->guilty = wrote ? wrote : sent;
	rep->guilty_index = wrote ? we : se;
	rep->guilty_line = rep->guilty ? v->p->cmds[rep->guilty - 1].line : 0;
	rep->last_writer = tr->last_any;
	if (tr->origin && tr->origin < tr->last_any)
		rep->origin = tr->origin;
}

/* ---- a clobber: an operand changed after its marker ---- */

typedef struct clob {
	const emu_buffer *b;
	const point *q;        /* the marker that bound the operand */
	size_t cmd;            /* the command that reads it (from 1) */
	uint64_t *at_mark;     /* its cells at the marker */
	bool found;
	uint64_t e, was, now;  /* the first element that changed */
	size_t by;             /* the last command that changed it */
	uint64_t track;
} clob;

static int clob_scan(const emu_valid *v, emu_machine *em, size_t c, bool by_strm, void *arg)
{
	clob *k = arg;
	if (by_strm)
		return 0;
	if (c == k->q->at)
		emu_buffer_read(em, k->b, k->at_mark);
	if (c + 1 != k->cmd)
		return 0;
	const emu_tnode *x = &v->t->nodes[k->q->node];
	for (uint64_t e = 0; e < k->b->length; e++) {
		if (!emu_tdfg_in_domain(v->t, x, e))
			continue;
		const uint64_t y = emu_elem_get(em, k->b, e);
		if (y != k->at_mark[e]) {
			k->found = true;
			k->e = e;
			k->was = k->at_mark[e];
			k->now = y;
			return 1;
		}
	}
	return 1;
}

static int clob_track(const emu_valid *v, emu_machine *em, size_t c, bool by_strm, void *arg)
{
	(void)v;
	(void)by_strm;
	clob *k = arg;
	const uint64_t y = emu_elem_get(em, k->b, k->e);
	if (c > k->q->at && c < k->cmd && y != k->track)
		k->by = c;
	k->track = y;
	return 0;
}

/* Did an operand of the guilty compute command change between the
 * marker that bound it and the command?  Fills rep's clobber fields. */
static int clobber(const emu_valid *v, const point *pt, emu_valid_report *rep, diag *d)
{
	const emu_cmd *c = &v->p->cmds[rep->guilty - 1];
	if (rep->guilty_strm || c->kind != EMU_CMD_COMPUTE)
		return 0;
	const int ops[3] = {c->buf_a, c->buf_b, c->buf_c};
	for (unsigned o = 0; o < 3; o++) {
		if (ops[o] < 0 || ops[o] == c->buf_d)
			continue;
		const point *q = NULL;
		for (const point *r = v->pts; r < pt; r++)
			if (r->kind == PT_MARK && r->buf == ops[o] && r->at < rep->guilty && r->resolved)
				q = r;
		if (!q)
			continue;
		clob k = {.b = &v->p->bufs[ops[o]], .q = q, .cmd = rep->guilty};
		k.at_mark = malloc((k.b->length ? k.b->length : 1) * sizeof *k.at_mark);
		if (!k.at_mark) {
			diag_file(d, v->p->path, "out of memory");
			return -1;
		}
		int rc = rerun_each(v, pt, rep->guilty - 1, clob_scan, &k, d);
		if (rc == 0 && k.found) {
			k.track = k.was;
			rc = rerun_each(v, pt, rep->guilty - 1, clob_track, &k, d);
		}
		free(k.at_mark);
		if (rc < 0)
			return -1;
		if (k.found && k.by) {
			rep->cause = EMU_VALID_CLOBBER;
			rep->consumer = rep->guilty;
			rep->clobbered_buf = ops[o];
			rep->clobbered_index = k.e;
			rep->clobbered_was = k.was;
			rep->clobbered_now = k.now;
			rep->clobbered_mark_line = q->line;
			rep->clobbered_node = q->node;
			rep->guilty = k.by;
			rep->guilty_line = v->p->cmds[k.by - 1].line;
			return 0;
		}
	}
	return 0;
}

static void cmd_text(const emu_program *p, size_t c, char *buf, size_t size);

/* ---- one element's writers ---- */

typedef struct elem_track {
	const emu_buffer *b;
	uint64_t e, now;
	size_t first, last;
} elem_track;

static int track_elem(const emu_valid *v, emu_machine *em, size_t c, bool by_strm, void *arg)
{
	(void)by_strm;
	elem_track *k = arg;
	const uint64_t y = emu_elem_get(em, k->b, k->e);
	if (c && y != k->now) {
		unsigned bit = 0;
		while (!((y ^ k->now) >> bit & 1))
			bit++;
		const size_t w = writer(v->p, c, k->b, k->e, bit);
		if (!k->first)
			k->first = w;
		k->last = w;
	}
	k->now = y;
	return 0;
}

int emu_valid_writers(const emu_valid *v, const emu_buffer *b, uint64_t e, size_t *first,
		      size_t *last, diag *d)
{
	elem_track k = {.b = b, .e = e};
	const point *end = &v->pts[v->npts - 1];
	if (rerun_each(v, end, v->p->ncmds, track_elem, &k, d) < 0)
		return -1;
	*first = k.first;
	*last = k.last;
	return 0;
}

void emu_valid_cmd_text(const emu_program *p, size_t c, char *buf, size_t size)
{
	cmd_text(p, c, buf, size);
}

/* ---- where a window's commands write (their footprints) ---- */

/* What a command writes: rows [wl, wl + n) of the bitlines `bl` (plus
 * bl_off) of the arrays `ar` (plus ar_off), copies times ar_stride
 * apart.  n 0: it writes no cell (a sync, the tag). */
typedef struct foot {
	const emu_pattern *ar, *bl;
	int64_t ar_off, bl_off, ar_stride;
	uint64_t copies;
	unsigned wl, n;
} foot;

static foot footprint(const emu_cmd *c)
{
	foot f = {.copies = 1};
	if (c->kind == EMU_CMD_COMPUTE) {
		if (c->c.d < ISA_TAG)
			f = (foot){&c->arrays, &c->bitlines, 0, 0, 0, 1, c->c.d, c->c.width};
		return f;
	}
	const emu_move *m = &c->mv;
	switch (m->kind) {
	case EMU_MOVE_INTRA:
		return (foot){&m->arrays, &m->bitlines, 0, m->dist, 0, 1, m->dst_wl, m->nwl};
	case EMU_MOVE_INTER:
		return (foot){&m->arrays, &m->dst_bitlines, m->dist, 0, 0, 1, m->dst_wl, m->nwl};
	case EMU_MOVE_BCAST:
		return (foot){&m->arrays, &m->dst_bitlines, m->dist, 0, m->reuse_stride,
			      m->reuse_count, m->dst_wl, m->nwl};
	case EMU_MOVE_CONST:
		return (foot){&m->arrays, &m->bitlines, 0, 0, 0, 1, m->wl, m->nwl};
	}
	return f;
}

static bool foot_array(const foot *f, int64_t a)
{
	for (uint64_t j = 0; j < f->copies; j++)
		if (in_pattern(f->ar, a - f->ar_off - (int64_t)j * f->ar_stride))
			return true;
	return false;
}

static bool foot_bitline(const foot *f, int64_t b)
{
	return in_pattern(f->bl, b - f->bl_off);
}

/* Do two footprints share a cell?  Rows first; then some array and
 * bitline of the smaller patterns (at most 4096 of each are tried). */
static bool feet_meet(const foot *f, const foot *g)
{
	if (!f->n || !g->n || f->wl >= g->wl + g->n || g->wl >= f->wl + f->n)
		return false;
	bool arr = false, bit = false;
	const uint64_t na = emu_pattern_size(f->ar), nb = emu_pattern_size(f->bl);
	for (uint64_t j = 0; !arr && j < f->copies; j++)
		for (uint64_t i = 0; !arr && i < na && i < 4096; i++)
			arr = foot_array(g, emu_pattern_at(f->ar, i) + f->ar_off +
					      (int64_t)j * f->ar_stride);
	for (uint64_t i = 0; arr && !bit && i < nb && i < 4096; i++)
		bit = foot_bitline(g, emu_pattern_at(f->bl, i) + f->bl_off);
	return arr && bit;
}

bool emu_valid_written(const emu_valid *v, const emu_buffer *b, size_t from, size_t to)
{
	const unsigned rows = emu_buffer_rows(b, &v->p->geom);
	const uint64_t na = emu_pattern_size(&b->arrays);
	for (size_t c = from + 1; c <= to && c <= v->p->ncmds; c++) {
		const emu_cmd *k = &v->p->cmds[c - 1];
		if (k->kind == EMU_CMD_COMPUTE && k->buf_d == (int)(b - v->p->bufs))
			return true;
		const foot f = footprint(k);
		if (!f.n || f.wl >= b->wl + rows || b->wl >= f.wl + f.n)
			continue;
		for (uint64_t i = 0; i < na; i++)
			if (foot_array(&f, emu_pattern_at(&b->arrays, i)))
				return true;
	}
	return false;
}

/* For bits no command of the window wrote, the command of the window
 * that wrote where they should have been, from the commands' own
 * footprints: one that writes the element's place with fewer bits
 * (`narrow`), one that writes its wordlines and bitline in other arrays
 * over cells another command of the window also writes (`wrong array`:
 * a piece sent to the arrays of another piece), one that writes its
 * array and bitline at wordlines no node owns (`wrong wordline`).
 * Fills why and returns the command, or 0. */
static size_t misplaced(const emu_valid *v, const point *pt, const trail *tr,
			const emu_valid_report *rep, char *why, size_t size)
{
	const emu_program *p = v->p;
	const unsigned A = tr->array, B = tr->bitline, W = tr->wl, N = tr->width;
	char oc[700];
	for (unsigned pass = 0; pass < 4; pass++)
		for (size_t c = rep->window + 1; c <= pt->at; c++) {
			const foot f = footprint(&p->cmds[c - 1]);
			if (!f.n)
				continue;
			const bool here = foot_array(&f, A) && foot_bitline(&f, B);
			const bool rows_meet = f.wl < W + N && W < f.wl + f.n;
			if (pass == 0 && here && rows_meet && (f.wl > W || f.wl + f.n < W + N)) {
				const unsigned lo = f.wl > W ? f.wl - W : 0;
				const unsigned hi = (f.wl + f.n < W + N ? f.wl + f.n : W + N) - W - 1;
				emu_valid_cmd_text(p, c, oc, sizeof oc);
				emu_valid_fmt(why, size, "%s writes only bits %u..%u of it (wordlines "
					      "%u..%u), not all %u of its bits", oc, lo, hi, W + lo, W + hi,
					      N);
				return c;
			}
			if (pass == 1 && !here && f.wl == W && f.n == N && foot_bitline(&f, B)) {
				for (size_t o = rep->window + 1; o <= pt->at; o++) {
					const foot g = footprint(&p->cmds[o - 1]);
					if (o == c || !feet_meet(&f, &g))
						continue;
					emu_valid_cmd_text(p, c, oc, sizeof oc);
					emu_valid_fmt(why, size, "%s writes its wordlines %u..%u and bitline %u "
						      "in other arrays, not in array %u, over cells that command "
						      "%zu also writes: it writes the wrong arrays", oc, W,
						      W + N - 1, B, A, o);
					return c;
				}
			}
			if (pass == 2 && here && !rows_meet) {
				bool legit = true;
				for (unsigned r = f.wl; r < f.wl + f.n && r < tr->rows; r++)
					legit &= tr->legit[r] != 0;
				if (legit)
					continue;
				emu_valid_cmd_text(p, c, oc, sizeof oc);
				emu_valid_fmt(why, size, "%s writes its array %u and bitline %u at wordlines "
					      "%u..%u, which hold no node, not at its wordlines %u..%u: it "
					      "writes the wrong wordlines", oc, A, B, f.wl, f.wl + f.n - 1, W,
					      W + N - 1);
				return c;
			}
			if (pass == 3 && !here && f.wl == W && f.n == N && foot_bitline(&f, B)) {
				char ap[160], off[32] = "";
				emu_pattern_format(f.ar, ap, sizeof ap);
				if (f.ar_off)
					snprintf(off, sizeof off, " moved by %+" PRId64, f.ar_off);
				emu_valid_cmd_text(p, c, oc, sizeof oc);
				emu_valid_fmt(why, size, "%s writes its wordlines %u..%u and bitline %u in "
					      "arrays %s%s, not in its array %u", oc, W, W + N - 1, B, ap,
					      off, A);
				return c;
			}
		}
	return 0;
}

/* ---- the report ---- */

/* Append to buf (size bytes, *n used so far), cutting what does not fit. */
static void append(char *buf, size_t size, size_t *n, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void append(char *buf, size_t size, size_t *n, const char *fmt, ...)
{
	va_list ap;
	if (*n >= size)
		return;
	va_start(ap, fmt);
	const int k = vsnprintf(buf + *n, size - *n, fmt, ap);
	va_end(ap);
	*n = k < 0 ? size : *n + (size_t)k;
}

/* "STREAM:LINE", or "STREAM" for a line not known (a binary stream). */
static void place(const emu_program *p, int line, char *buf, size_t size)
{
	if (line > 0)
		snprintf(buf, size, "%s:%d", p->path, line);
	else
		snprintf(buf, size, "%s", p->path);
}

/* "TDFG:LINE", or "TDFG" for a node of no line (an artifact's JSON). */
static const char *node_at(const emu_tdfg *t, int line, char *buf, size_t size)
{
	if (line > 0)
		snprintf(buf, size, "%s:%d", t->path, line);
	else
		snprintf(buf, size, "%s", t->path);
	return buf;
}

/* "command N (STREAM:LINE: TEXT)" */
static void cmd_text(const emu_program *p, size_t c, char *buf, size_t size)
{
	char t[512], at[1100];
	size_t n = 0;
	emu_format_cmd(p, &p->cmds[c - 1], t, sizeof t);
	place(p, p->cmds[c - 1].line, at, sizeof at);
	append(buf, size, &n, "command %zu (%s: %s)", c, at, t);
}

static bool moves_only(const emu_program *p, size_t c)
{
	const emu_cmd *k = &p->cmds[c - 1];
	return k->kind == EMU_CMD_MOVE || (k->kind == EMU_CMD_COMPUTE && k->c.op == ISA_COPY);
}

/* "bits 0-15" of a mask. */
static void bits_text(uint64_t m, char *buf, size_t size)
{
	size_t n = 0;
	for (unsigned k = 0; k < 64 && n < size; k++) {
		if (!(m >> k & 1) || (k && m >> (k - 1) & 1))
			continue;
		unsigned e = k;
		while (e + 1 < 64 && m >> (e + 1) & 1)
			e++;
		n += (size_t)snprintf(buf + n, size - n, "%s%u", n ? ", " : "", k);
		if (e > k && n < size)
			n += (size_t)snprintf(buf + n, size - n, "-%u", e);
	}
}

/* A command of the window that computes another operation or type
 * than the node it belongs to (a compute node's pieces, a reduce's
 * steps compute the node's op; copies, moves and sets only carry
 * values): its number, or 0. */
static size_t wrong_op(const emu_valid *v, const point *pt, const emu_valid_report *rep)
{
	if (pt->kind == PT_ARRAY || pt->kind == PT_STRAY)
		return 0;
	const emu_tnode *x = &v->t->nodes[pt->node];
	if (x->kind != EMU_TN_COMPUTE && x->kind != EMU_TN_REDUCE)
		return 0;
	for (size_t c = rep->window + 1; c <= pt->at; c++) {
		const emu_cmd *k = &v->p->cmds[c - 1];
		if (k->kind != EMU_CMD_COMPUTE || k->c.op == ISA_COPY || k->c.op == ISA_SET)
			continue;
		if (k->c.op != x->c.op || k->c.fmt != x->c.fmt || k->c.width != x->c.width ||
		    k->c.is_signed != x->c.is_signed)
			return c;
	}
	return 0;
}

/* The note lines: what the bisection found. */
static void notes(const emu_valid *v, const point *pt, const trail *tr,
		  emu_valid_report *rep, char *buf, size_t size, size_t *n)
{
	const emu_buffer *b = &v->p->bufs[pt->buf];
	char cmd[700], el[EMU_NAME_MAX + 96], at[1100];
	emu_report_element_name(b, rep->mm.index, el, sizeof el);
	place(v->p, rep->guilty ? rep->guilty_line : pt->line, at, sizeof at);
	if (rep->guilty)
		cmd_text(v->p, rep->guilty, cmd, sizeof cmd);
	if (rep->cause == EMU_VALID_CLOBBER) {
		char cons[700], op[EMU_NAME_MAX + 96], ml[1100];
		const emu_buffer *ob = &v->p->bufs[rep->clobbered_buf];
		cmd_text(v->p, rep->consumer, cons, sizeof cons);
		emu_report_element_name(ob, rep->clobbered_index, op, sizeof op);
		place(v->p, rep->clobbered_mark_line, ml, sizeof ml);
		append(buf, size, n, "%s: note: a clobbered operand: %s reads tensor '%s', which the "
		       "marker at %s bound to node '%s', but %s overwrote it after that marker: %s "
		       "was 0x%" PRIx64 " there and 0x%" PRIx64 " when it was read\n", at, cons,
		       ob->name, ml, v->t->nodes[rep->clobbered_node].name, cmd, op,
		       rep->clobbered_was, rep->clobbered_now);
		return;
	}
	const point *sp = rep->guilty_strm ? strm_at(v, pt, rep->guilty) : NULL;
	char gel[EMU_NAME_MAX + 96];
	emu_report_element_name(b, rep->guilty_index, gel, sizeof gel);
	if (rep->cause == EMU_VALID_WROTE && sp) {
		char sat[1100];
		place(v->p, sp->line, sat, sizeof sat);
		append(buf, size, n, "%s: note: the first to write a wrong bit into it is the "
		       "near-memory stream of strm node '%s' (%s), run after %s, into %s\n", at,
		       v->t->nodes[sp->node].name, sat, cmd, gel);
	} else if (rep->cause == EMU_VALID_WROTE)
		append(buf, size, n, "%s: note: the first command that wrote a wrong bit into it is "
		       "%s, into %s\n", at, cmd, gel);
	else if (rep->cause == EMU_VALID_IN_FLIGHT)
		append(buf, size, n, "%s: note: its wrong bits are in flight: %s sent %s's bits to "
		       "another bank, and no sync delivered them before the check point\n", at, cmd,
		       gel);
	if (rep->cause != EMU_VALID_UNWRITTEN) {
		if (rep->last_writer && rep->last_writer != rep->guilty) {
			char lc[700], lat[1100];
			cmd_text(v->p, rep->last_writer, lc, sizeof lc);
			place(v->p, v->p->cmds[rep->last_writer - 1].line, lat, sizeof lat);
			append(buf, size, n, "%s: note: the last command that wrote %s is %s\n", lat,
			       el, lc);
		}
		const size_t lw = rep->last_writer ? rep->last_writer : rep->guilty;
		if (rep->origin && lw && moves_only(v->p, lw) && !moves_only(v->p, rep->origin)) {
			char oc[700], oat[1100];
			cmd_text(v->p, rep->origin, oc, sizeof oc);
			place(v->p, v->p->cmds[rep->origin - 1].line, oat, sizeof oat);
			append(buf, size, n, "%s: note: that command only moves bits; the value %s ends "
			       "with was computed by %s, the first command of the window that put it "
			       "on %s's bitline\n", oat, el, oc, el);
		}
		if (pt->kind == PT_MARK && !pt->strm && v->t->nodes[pt->node].strm)
			append(buf, size, n, "%s: note: node '%s' is a strm node, and this marker has "
			       "no 'strm', so its near-memory stream did not run here; write `node %s "
			       "strm` if the stream leaves it to the stream engines\n", at,
			       v->t->nodes[pt->node].name, v->t->nodes[pt->node].name);
		return;
	}
	char mk[1100];
	place(v->p, pt->line, mk, sizeof mk);
	if (pt->kind == PT_MARK && !pt->strm && v->t->nodes[pt->node].strm) {
		append(buf, size, n, "%s: note: node '%s' is a strm node, and this marker has no "
		       "'strm', so its near-memory stream did not run here and nothing of the window "
		       "wrote %s; write `node %s strm` to run it here\n", mk,
		       v->t->nodes[pt->node].name, el, v->t->nodes[pt->node].name);
		return;
	}
	if (rep->window >= pt->at) {
		append(buf, size, n, "%s: note: no command ran between the previous check point and "
		       "this one, so %s holds what was there before\n", mk, el);
		return;
	}
	char why[900] = "", oc[700], oat[1100];
	const size_t mp = misplaced(v, pt, tr, rep, why, sizeof why);
	const size_t other = mp ? mp : tr->first_any ? tr->first_any : tr->col_other
			     ? tr->col_other : tr->arr_other ? tr->arr_other : rep->elsewhere;
	rep->misplaced = other;
	if (other) {
		cmd_text(v->p, other, oc, sizeof oc);
		place(v->p, v->p->cmds[other - 1].line, oat, sizeof oat);
	}
	if (mp) {
		/* why says it */
	} else if (tr->first_any) {
		char wb[160], nb[160];
		bits_text(tr->first_bits & isa_mask(b->width), wb, sizeof wb);
		bits_text(rep->mm.expected ^ rep->mm.actual, nb, sizeof nb);
		emu_valid_fmt(why, sizeof why, "%s wrote bits %s of %s, but not bits %s: it writes fewer "
			 "bits than the element's %u", oc, wb, el, nb, (unsigned)b->width);
	} else if (tr->col_other) {
		emu_valid_fmt(why, sizeof why, "%s wrote wordline %u of %s's bitline %u in array %u, not "
			 "its wordlines %u..%u: it writes the wrong wordlines", oc, tr->col_wl, el,
			 tr->bitline, tr->array, tr->wl, tr->wl + tr->width - 1);
	} else if (tr->arr_other) {
		emu_valid_fmt(why, sizeof why, "%s wrote %s's bitline %u and wordlines %u..%u in array %u, "
			 "not in array %u: it writes the wrong arrays", oc, el, tr->bitline, tr->wl,
			 tr->wl + tr->width - 1, tr->arr_which, tr->array);
	} else if (rep->elsewhere) {
		char oel[EMU_NAME_MAX + 96];
		emu_report_element_name(b, rep->elsewhere_index, oel, sizeof oel);
		emu_valid_fmt(why, sizeof why, "%s wrote %s, outside the node's domain", oc, oel);
	}
	append(buf, size, n, "%s: note: no command of its window (commands %zu..%zu, after the "
	       "previous check point) wrote the wrong bits of %s: a command that should write "
	       "them is missing, or writes elsewhere%s%s\n", other ? oat : mk, rep->window + 1,
	       pt->at, el, why[0] ? "; " : "", why);
}

/* The first line: which check point, and what differs. */
static void headline(const emu_valid *v, const point *pt, emu_valid_report *rep, size_t *n)
{
	const emu_tdfg *t = v->t;
	char what[1024], at[1100], run[300] = "", lb[EMU_NAME_MAX + 8];
	emu_report_mismatch_text(what, sizeof what, &rep->mm);
	place(v->p, pt->line, at, sizeof at);
	if (pt->kind == PT_ARRAY) {
		const emu_tarray *a = &t->arrays[pt->array];
		size_t s = t->nnodes;
		while (s-- > 0 && !(t->nodes[s].kind == EMU_TN_STORE && t->nodes[s].array == pt->array))
			;
		append(rep->text, sizeof rep->text, n, "%s: error: array '%s' (%s:%d), at the end "
		       "of the stream (after command %zu), does not hold what the program leaves "
		       "in it: %s", at, a->name, t->path, a->line, pt->at, what);
		if (s != SIZE_MAX) {
			emu_valid_run_text(v, s, run, sizeof run);
			append(rep->text, sizeof rep->text, n, "; the last store into it is the last "
			       "store '%s' (%s:%d), in %s", emu_tnode_label(t, &t->nodes[s], lb,
									       sizeof lb),
			       t->path, t->nodes[s].line, run);
		} else {
			append(rep->text, sizeof rep->text, n, "; the program never stores into it, "
			       "so it ends with its first data");
		}
		append(rep->text, sizeof rep->text, n, "\n");
		return;
	}
	const emu_tnode *x = &t->nodes[pt->node];
	char nat[1100];
	if (t->program) {
		memcpy(run, ", in ", 6);
		emu_valid_run_text(v, pt->node, run + 5, sizeof run - 5);
	}
	if (pt->kind == PT_MARK)
		append(rep->text, sizeof rep->text, n, "%s: error: node '%s' (%s)%s, at its "
		       "marker after command %zu,", at, x->name, node_at(t, x->line, nat, sizeof nat),
		       run, pt->at);
	else if (pt->kind == PT_INPUT)
		append(rep->text, sizeof rep->text, n, "%s: error: input '%s' (%s), at the end of "
		       "the stream (after command %zu), is not as the stream found it: the tDFG "
		       "never writes an input, and", at, x->name, node_at(t, x->line, nat, sizeof nat),
		       pt->at);
	else
		append(rep->text, sizeof rep->text, n, "%s: error: output '%s' (%s)%s, at the "
		       "end of the stream (after command %zu),", at,
		       emu_tnode_label(t, x, lb, sizeof lb), node_at(t, x->line, nat, sizeof nat), run,
		       pt->at);
	append(rep->text, sizeof rep->text, n, " does not hold what the tDFG means: %s\n", what);
}

/* A command of the node's window that computes another operation. */
static void op_note(const emu_valid *v, const point *pt, emu_valid_report *rep, size_t *n)
{
	if (rep->cause == EMU_VALID_STRAY || rep->cause == EMU_VALID_CLOBBER ||
	    !(rep->wrong_op = wrong_op(v, pt, rep)))
		return;
	const emu_tnode *x = &v->t->nodes[pt->node];
	char oc[700], at[1100], want[16], got[16];
	const emu_cmd *k = &v->p->cmds[rep->wrong_op - 1];
	cmd_text(v->p, rep->wrong_op, oc, sizeof oc);
	place(v->p, k->line, at, sizeof at);
	isa_type_name(x->c.fmt, x->c.width, x->c.is_signed, want, sizeof want);
	isa_type_name(k->c.fmt, k->c.width, k->c.is_signed, got, sizeof got);
	char nat[1100];
	append(rep->text, sizeof rep->text, n, "%s: note: %s computes %s.%s, but node '%s' (%s) "
	       "%s %s.%s: a wrong operation in the node's commands\n", at, oc,
	       isa_info_of(k->c.op)->name, got, x->name, node_at(v->t, x->line, nat, sizeof nat),
	       x->kind == EMU_TN_REDUCE ? "reduces with" : "is", isa_info_of(x->c.op)->name, want);
}

/* A marker that could hold several instances, after an earlier marker
 * of its name: which instance it was compared with, and which one that
 * marker held (where the binding may have gone wrong). */
static void binding_note(const emu_valid *v, const point *pt, emu_valid_report *rep, size_t *n)
{
	if (pt->kind != PT_MARK || pt->ncand < 2)
		return;
	const emu_mark *m = &v->p->marks[pt->mark];
	const point *q = NULL;
	for (const point *r = v->pts; r < pt; r++)
		if (r->kind == PT_MARK && r->name == pt->name && r->resolved)
			q = r;
	if (!q)
		return;
	char at[1100], qa[1100], qr[300], run[300];
	place(v->p, pt->line, at, sizeof at);
	place(v->p, q->line, qa, sizeof qa);
	emu_valid_run_text(v, q->node, qr, sizeof qr);
	emu_valid_run_text(v, pt->node, run, sizeof run);
	append(rep->text, sizeof rep->text, n, "%s: note: no instance of '%s' that the marker "
	       "may hold%s has this value; it is compared with the one expected, %s (the "
	       "previous marker of '%s', at %s, held %s); a marker may name its run with run=N "
	       "or its region's parameters\n", at, m->name, m->nsel ? " (by its selectors)" : "",
	       run, m->name, qa, qr);
}

int emu_valid_bisect(const emu_valid *v, const point *pt, const emu_valid_wrong *w, size_t nw,
		     emu_valid_report *rep, diag *d)
{
	const emu_buffer *b = &v->p->bufs[pt->buf];
	trail tr = {.w = w, .nw = nw};
	tr.last = calloc(nw * 64, sizeof *tr.last);
	tr.now = calloc(nw, sizeof *tr.now);
	tr.all = calloc(b->length ? b->length : 1, sizeof *tr.all);
	emu_buffer_place(b, &v->p->geom, w[0].e, &tr.array, &tr.bitline, &tr.wl);
	tr.width = b->width;
	const unsigned total = (unsigned)(v->p->geom.arrays_per_way * v->p->geom.ways_per_bank *
					  v->p->geom.mesh_x * v->p->geom.mesh_y);
	const unsigned lo = tr.array > 64 ? tr.array - 64 : 0;
	const unsigned hi = tr.array + 65 < total ? tr.array + 65 : total;
	tr.other_arrays = malloc((hi - lo + 1) * sizeof *tr.other_arrays);
	tr.arrays_lo = lo;
	for (unsigned a = lo; tr.other_arrays && a < hi; a++)
		if (a != tr.array)
			tr.other_arrays[tr.nother++] = a;
	tr.other_now = calloc(tr.nother ? tr.nother : 1, sizeof *tr.other_now);
	tr.rows = v->p->geom.wordlines;
	tr.legit = calloc((tr.nother + 1) * tr.rows, 1);
	if (tr.legit && tr.other_arrays && legit_cells(v, &tr) < 0) {
		free(tr.legit);
		tr.legit = NULL;
	}
	int rc = -1;
	/* The window: the commands after the previous check point. */
	rep->window = 0;
	for (size_t i = 0; i < v->npts; i++)
		if (v->pts[i].at < pt->at && v->pts[i].at > rep->window)
			rep->window = v->pts[i].at;
	if (!tr.last || !tr.now || !tr.all || !tr.other_arrays || !tr.other_now || !tr.legit)
		diag_file(d, v->p->path, "out of memory");
	else if ((rc = rerun(v, pt, &tr, rep, d)) == 0) {
		judge(v, pt, &tr, rep);
		if (rep->cause == EMU_VALID_WROTE)
			rc = clobber(v, pt, rep, d);
	}
	if (rc == 0) {
		size_t n = 0;
		headline(v, pt, rep, &n);
		notes(v, pt, &tr, rep, rep->text, sizeof rep->text, &n);
		op_note(v, pt, rep, &n);
		binding_note(v, pt, rep, &n);
		if (n >= sizeof rep->text) /* keep the last line's newline */
			memcpy(rep->text + sizeof rep->text - 2, "\n", 2);
	}
	free(tr.last);
	free(tr.now);
	free(tr.all);
	free(tr.other_arrays);
	free(tr.other_now);
	free(tr.legit);
	return rc;
}
