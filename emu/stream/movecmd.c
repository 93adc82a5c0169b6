/* SPDX-License-Identifier: MIT */
/*
 * movecmd.c: data-movement commands as a stream holds them (movecmd.h):
 * constructors, the text form, and the checks a command must pass on a
 * machine before anything runs, shared by the parser, the binary decoder,
 * the lowering and the mover.
 */
#include "movecmd.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assemble.h"

#define MASK_WORDS (SRAM_MAX_DIM / 64)

static const char *const kind_names[EMU_MOVE_KINDS] = {
	"mv.intra", "mv.inter", "mv.bcast", "mv.const", "sync",
};
static const char *const kind_titles[EMU_MOVE_KINDS] = {
	"intra-array shift", "inter-array shift", "broadcast",
	"constant broadcast", "sync",
};

const char *emu_move_kind_name(unsigned kind)
{
	return kind < EMU_MOVE_KINDS ? kind_names[kind] : "?";
}

/* ---- constructors ---- */

static emu_move blank(unsigned kind)
{
	emu_move c;
	memset(&c, 0, sizeof c);
	c.kind = (uint8_t)kind;
	c.scratch = SRAM_NO_ROW;
	return c;
}

emu_move emu_move_intra(const emu_pattern *arrays, const emu_pattern *bitlines,
			int64_t dist, unsigned wl, unsigned nwl, unsigned dst_wl,
			unsigned scratch)
{
	emu_move c = blank(EMU_MOVE_INTRA);
	c.arrays = *arrays;
	c.bitlines = *bitlines;
	c.dist = dist;
	c.wl = (uint16_t)wl;
	c.nwl = (uint16_t)nwl;
	c.dst_wl = (uint16_t)dst_wl;
	c.scratch = (uint16_t)scratch;
	return c;
}

emu_move emu_move_inter(const emu_pattern *arrays, const emu_pattern *bitlines,
			int64_t dist, const emu_pattern *dst_bitlines,
			unsigned wl, unsigned nwl, unsigned dst_wl)
{
	emu_move c = emu_move_bcast(arrays, bitlines, dist, 0, 1, dst_bitlines,
				    wl, nwl, dst_wl);
	c.kind = EMU_MOVE_INTER;
	c.reuse_count = 0;
	return c;
}

emu_move emu_move_bcast(const emu_pattern *arrays, const emu_pattern *bitlines,
			int64_t dist, int64_t reuse_stride, uint64_t reuse_count,
			const emu_pattern *dst_bitlines, unsigned wl, unsigned nwl,
			unsigned dst_wl)
{
	emu_move c = blank(EMU_MOVE_BCAST);
	c.arrays = *arrays;
	c.bitlines = *bitlines;
	c.dst_bitlines = *dst_bitlines;
	c.dist = dist;
	c.reuse_stride = reuse_stride;
	c.reuse_count = reuse_count;
	c.wl = (uint16_t)wl;
	c.nwl = (uint16_t)nwl;
	c.dst_wl = (uint16_t)dst_wl;
	return c;
}

emu_move emu_move_const(const emu_pattern *arrays, const emu_pattern *bitlines,
			uint64_t value, unsigned wl, unsigned nwl)
{
	emu_move c = blank(EMU_MOVE_CONST);
	c.arrays = *arrays;
	c.bitlines = *bitlines;
	c.value = value;
	c.wl = (uint16_t)wl;
	c.nwl = (uint16_t)nwl;
	return c;
}

emu_move emu_move_sync(void)
{
	return blank(EMU_MOVE_SYNC);
}

/* ---- text ---- */

/* " KEY=" and x, for the head of a move's text. */
static void put_key(text_buf *b, const char *key, int64_t x)
{
	text_put_str(b, key);
	text_put_int(b, x);
}

int emu_move_format(const emu_move *c, char *buf, size_t size)
{
	if (c->kind >= EMU_MOVE_KINDS)
		return snprintf(buf, size, "mv.? kind=%u", c->kind);
	if (c->kind == EMU_MOVE_SYNC)
		return snprintf(buf, size, "sync");
	text_buf b = text_buf_of(buf, size);
	text_put_str(&b, kind_names[c->kind]);
	if (c->kind == EMU_MOVE_CONST) {
		char v[24];
		snprintf(v, sizeof v, " value=0x%" PRIx64, c->value);
		text_put_str(&b, v);
	} else {
		put_key(&b, " dist=", c->dist);
	}
	if (c->kind == EMU_MOVE_BCAST) {
		put_key(&b, " reuse=", c->reuse_stride);
		text_put(&b, ":", 1);
		text_put_uint(&b, c->reuse_count);
	}
	put_key(&b, " wl=", c->wl);
	put_key(&b, " n=", c->nwl);
	if (c->kind != EMU_MOVE_CONST)
		put_key(&b, " to=", c->dst_wl);
	if (c->kind == EMU_MOVE_INTRA && c->scratch != SRAM_NO_ROW)
		put_key(&b, " scratch=", c->scratch);
	if (c->kind == EMU_MOVE_INTER || c->kind == EMU_MOVE_BCAST) {
		text_put_str(&b, " dst=");
		emu_pattern_put(&c->dst_bitlines, &b);
	}
	text_put_str(&b, " @ arrays=");
	emu_pattern_put(&c->arrays, &b);
	text_put_str(&b, " bitlines=");
	emu_pattern_put(&c->bitlines, &b);
	return (int)b.n;
}

/* ---- checks ---- */

struct ctx {
	const sram_geom *g;
	const char *path;
	const emu_move *c;
	size_t cmd;
	diag *d;
	int col;      /* the command's column in its stream, 0 if none */
};

int emu_move_verror(diag *d, const char *path, const emu_move *c, size_t cmd, int col,
		    const char *fmt, va_list ap)
{
	char head[96], what[DIAG_MAX];
	snprintf(head, sizeof head, "command %zu: %s", cmd,
		 c->kind < EMU_MOVE_KINDS ? kind_titles[c->kind] : "move");
	vsnprintf(what, sizeof what, fmt, ap);
	diag_at(d, path ? path : "infsim", c->line, col, "%s: %s", head, what);
	return -1;
}

static int bad(const struct ctx *x, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int bad(const struct ctx *x, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	emu_move_verror(x->d, x->path, x->c, x->cmd, x->col, fmt, ap);
	va_end(ap);
	return -1;
}

static uint64_t machine_arrays(const sram_geom *g)
{
	return (uint64_t)g->arrays_per_way * g->ways_per_bank * g->mesh_x * g->mesh_y;
}

/* A non-empty pattern whose elements lie in [0, limit). */
static int check_pattern(const struct ctx *x, const emu_pattern *p,
			 const char *what, const char *unit, uint64_t limit)
{
	char t[EMU_PAT_TEXT];
	unsigned dim;
	int64_t lo = 0, hi = 0;
	const char *why = emu_pattern_check(p, &dim);
	if (!why && emu_pattern_size(p) != 0 && emu_pattern_size(p) <= limit) {
		emu_pattern_bounds(p, &lo, &hi);
		if (lo >= 0 && (uint64_t)hi < limit)
			return 0;
	}
	emu_pattern_format(p, t, sizeof t); /* only for the message */
	if (why)
		return bad(x, "%s pattern %s: %s", what, t, why);
	if (emu_pattern_size(p) == 0)
		return bad(x, "%s pattern %s selects no %s; expected at least one",
			   what, t, unit);
	if (emu_pattern_size(p) > limit)
		return bad(x, "%s pattern %s selects %" PRIu64 " %ss; there are only "
			   "%" PRIu64, what, t, emu_pattern_size(p), unit, limit);
	return bad(x, "%s pattern %s reaches %s %" PRId64 "; expected %ss "
		   "0..%" PRIu64, what, t, unit, lo < 0 ? lo : hi, unit, limit - 1);
}

/* A bitline pattern that names each bitline once (element i of a source
 * pattern is paired with element i of the destination's). */
static int check_distinct(const struct ctx *x, const emu_pattern *p,
			  const char *what)
{
	uint64_t seen[MASK_WORDS] = {0};
	const uint64_t n = emu_pattern_size(p);
	for (uint64_t i = 0; i < n; i++) {
		const uint64_t b = (uint64_t)emu_pattern_at(p, i);
		if (seen[b / 64] >> (b % 64) & 1) {
			char t[EMU_PAT_TEXT];
			emu_pattern_format(p, t, sizeof t);
			return bad(x, "%s pattern %s names bitline %" PRIu64 " twice; "
				   "expected each bitline once", what, t, b);
		}
		seen[b / 64] |= UINT64_C(1) << (b % 64);
	}
	return 0;
}

static int check_rows(const struct ctx *x, unsigned wl, unsigned n,
		      const char *what)
{
	if (n == 0)
		return bad(x, "moves no wordline (n=0); expected n >= 1");
	if (wl + n > x->g->wordlines)
		return bad(x, "%s wordlines %u..%u are outside the array's 0..%u",
			   what, wl, wl + n - 1, x->g->wordlines - 1);
	return 0;
}

static int check_intra(const struct ctx *x)
{
	const emu_move *c = x->c;
	const int64_t B = x->g->bitlines;
	int64_t lo, hi;
	if (check_rows(x, c->dst_wl, c->nwl, "destination") != 0)
		return -1;
	if (c->dist >= B || c->dist <= -B)
		return bad(x, "distance %" PRId64 " is past the array's width; expected "
			   "-%" PRId64 "..%" PRId64, c->dist, B - 1, B - 1);
	emu_pattern_bounds(&c->bitlines, &lo, &hi);
	if (hi + c->dist >= B || lo + c->dist < 0)
		return bad(x, "source bitline %" PRId64 " would move to bitline %" PRId64
			   ", past the edge of the array (bitlines 0..%" PRId64 "); the "
			   "runtime must clip the shift (infinity-stream §4.2)",
			   hi + c->dist >= B ? hi : lo,
			   (hi + c->dist >= B ? hi : lo) + c->dist, B - 1);
	/* A scratch row given is a wordline, whatever the distance: a
	 * stream's text could not say scratch=40000, so neither may its
	 * binary form (the two are one program, program.h). */
	if (c->scratch != SRAM_NO_ROW && c->scratch >= x->g->wordlines)
		return bad(x, "scratch wordline %u is outside the array's 0..%u", c->scratch,
			   x->g->wordlines - 1);
	if (c->dist > 1 || c->dist < -1) {
		if (c->scratch == SRAM_NO_ROW)
			return bad(x, "a shift by %" PRId64 " bitlines needs a scratch "
				   "wordline (scratch=WL) for its partial steps", c->dist);
		if (emu_windows_meet(c->scratch, c->wl, c->nwl) ||
		    emu_windows_meet(c->scratch, c->dst_wl, c->nwl))
			return bad(x, "scratch wordline %u is one of the wordlines it "
				   "moves (%u..%u to %u..%u); expected another", c->scratch,
				   c->wl, c->wl + c->nwl - 1, c->dst_wl,
				   c->dst_wl + c->nwl - 1);
	}
	return 0;
}

/* The destinations of inter and bcast: inside the machine. */
static int check_sends(const struct ctx *x)
{
	const emu_move *c = x->c;
	const uint64_t na = machine_arrays(x->g);
	const uint64_t copies = c->kind == EMU_MOVE_BCAST ? c->reuse_count : 1;
	int64_t lo, hi;
	if (c->kind == EMU_MOVE_INTER && c->dist == 0)
		return bad(x, "array distance 0 moves nothing between arrays; "
			   "expected a nonzero distance (an intra-array shift moves "
			   "bitlines within one array)");
	if (c->kind == EMU_MOVE_BCAST && (copies == 0 || copies > na))
		return bad(x, "reuse count %" PRIu64 "; expected 1..%" PRIu64,
			   copies, na);
	/* Distances beyond the machine would overflow the sums below. */
	const int64_t lim = (int64_t)na;
	if (c->dist >= lim || c->dist <= -lim ||
	    (c->kind == EMU_MOVE_BCAST && (c->reuse_stride >= lim || c->reuse_stride <= -lim)))
		return bad(x, "array distance %" PRId64 " (reuse stride %" PRId64 ") is past "
			   "the machine; expected -%" PRId64 "..%" PRId64, c->dist,
			   c->kind == EMU_MOVE_BCAST ? c->reuse_stride : 0, lim - 1, lim - 1);
	emu_pattern_bounds(&c->arrays, &lo, &hi);
	const int64_t step = c->kind == EMU_MOVE_BCAST ? c->reuse_stride : 0;
	const int64_t span = step * (int64_t)(copies - 1);
	const int64_t first = lo + c->dist + (span < 0 ? span : 0);
	const int64_t last = hi + c->dist + (span > 0 ? span : 0);
	if (first < 0 || (uint64_t)last >= na)
		return bad(x, "array %" PRId64 " would send to array %" PRId64 ", outside "
			   "the machine's arrays 0..%" PRIu64, first < 0 ? lo : hi,
			   first < 0 ? first : last, na - 1);
	return 0;
}

static int check_transfer(const struct ctx *x)
{
	const emu_move *c = x->c;
	const uint64_t ns = emu_pattern_size(&c->bitlines);
	if (check_rows(x, c->dst_wl, c->nwl, "destination") != 0 ||
	    check_pattern(x, &c->dst_bitlines, "destination bitline", "bitline",
			  x->g->bitlines) != 0 ||
	    check_distinct(x, &c->bitlines, "source bitline") != 0 ||
	    check_distinct(x, &c->dst_bitlines, "destination bitline") != 0)
		return -1;
	if (emu_pattern_size(&c->dst_bitlines) != ns)
		return bad(x, "moves %" PRIu64 " source bitlines to %" PRIu64
			   " destination bitlines; expected as many of each", ns,
			   emu_pattern_size(&c->dst_bitlines));
	return check_sends(x);
}

/* The fields a kind's text form has no word for hold what the text
 * parser leaves in them (zero; no scratch row), so that a binary stream
 * says nothing its text cannot, and text -> binary -> text -> binary
 * gives the same words (doc/FORMAT.md, "Moves"). */
static int check_unused(const struct ctx *x)
{
	const emu_move *c = x->c;
	const bool intra = c->kind == EMU_MOVE_INTRA, cnst = c->kind == EMU_MOVE_CONST;
	const char *field = NULL;
	if (!intra && c->scratch != SRAM_NO_ROW)
		field = "scratch";
	else if (!cnst && c->value)
		field = "value";
	else if (c->kind != EMU_MOVE_BCAST && (c->reuse_stride || c->reuse_count))
		field = "reuse";
	else if (cnst && c->dist)
		field = "dist";
	else if (cnst && c->dst_wl)
		field = "to";
	if (!field)
		return 0;
	return bad(x, "holds a %s field, which %s does not take", field,
		   emu_move_kind_name(c->kind));
}

int emu_move_check(const emu_move *c, const sram_geom *g, const char *path,
		   size_t cmd, diag *d)
{
	return emu_move_check_at(c, g, path, cmd, 0, d);
}

int emu_move_check_at(const emu_move *c, const sram_geom *g, const char *path,
		      size_t cmd, int col, diag *d)
{
	const struct ctx x = {g, path, c, cmd, d, col};
	if (c->kind >= EMU_MOVE_KINDS) {
		diag_at(d, path ? path : "infsim", c->line, col, "command %zu: unknown "
			"move kind %u; expected intra, inter, bcast, const or sync",
			cmd, c->kind);
		return -1;
	}
	if (c->kind == EMU_MOVE_SYNC)
		return 0;
	if (check_unused(&x) ||
	    check_pattern(&x, &c->arrays, "array", "array", machine_arrays(g)) ||
	    check_pattern(&x, &c->bitlines, "bitline", "bitline", g->bitlines) ||
	    check_rows(&x, c->wl, c->nwl, "source"))
		return -1;
	switch (c->kind) {
	case EMU_MOVE_INTRA:
		return check_intra(&x);
	case EMU_MOVE_CONST:
		if (c->nwl > 64)
			return bad(&x, "a constant has at most 64 bits; n=%u", c->nwl);
		if (c->nwl < 64 && c->value >> c->nwl)
			return bad(&x, "value 0x%" PRIx64 " does not fit in %u wordlines",
				   c->value, c->nwl);
		return 0;
	default:
		return check_transfer(&x);
	}
}

/* ---- lists ---- */

void emu_move_list_init(emu_move_list *l)
{
	memset(l, 0, sizeof *l);
}

void emu_move_list_free(emu_move_list *l)
{
	free(l->v);
	memset(l, 0, sizeof *l);
}

int emu_move_list_push(emu_move_list *l, const emu_move *c)
{
	if (l->n == l->cap) {
		const size_t cap = l->cap ? 2 * l->cap : 16;
		emu_move *v = realloc(l->v, cap * sizeof *v);
		if (!v)
			return -1;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = *c;
	return 0;
}

