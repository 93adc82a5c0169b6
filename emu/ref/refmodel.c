/* SPDX-License-Identifier: MIT */
/*
 * refmodel.c: the scalar reference model; see refmodel.h.
 *
 * Storage: for each array, B columns of W bits (ceil(W/64) words each),
 * allocated when first written (an array never written reads as zero,
 * as the SRAM does at start).  An operand at wordlines [wl, wl+n) of one
 * bitline is the bit field [wl, wl+n) of that bitline's column.
 */
#include "refmodel.h"

#include <stdlib.h>
#include <string.h>

enum { TAG_ZERO = 0, TAG_ONE = 1, TAG_UNDEF = 2 };

struct emu_ref {
	const emu_program *p;
	unsigned W, B, cw;     /* wordlines, bitlines, words per column */
	unsigned narrays;
	uint64_t **cols;       /* per array: B * cw words, or NULL */
	uint8_t **tags;        /* per array: B tag states, or NULL */
	size_t undef_by;       /* command that last left a tag undefined */
	uint8_t *sel_arr;      /* scratch: selected arrays of a command */
	struct ref_pend *pend; /* inter-bank bits waiting for the next sync */
	size_t npend, cap_pend;
	/* The rows the last command wrote, per array (emu_ref_written):
	 * the arrays in order of first write, each with [lo, hi). */
	unsigned *dirty;
	size_t ndirty;
	uint16_t *lo, *hi;     /* per array; hi == 0: not written */
};

/* One bit of an inter-bank move, delivered at the next sync. */
struct ref_pend {
	unsigned array, bitline, wordline;
	uint8_t bit;
};

emu_ref *emu_ref_new(const emu_program *p, diag *d)
{
	if (emu_program_need_lowered(p, d))
		return NULL;
	emu_ref *r = calloc(1, sizeof *r);
	if (!r)
		goto oom;
	r->p = p;
	r->W = p->geom.wordlines;
	r->B = p->geom.bitlines;
	r->cw = (r->W + 63) / 64;
	r->narrays = (unsigned)(sram_geom_bitlines(&p->geom) / r->B);
	r->cols = calloc(r->narrays, sizeof *r->cols);
	r->tags = calloc(r->narrays, sizeof *r->tags);
	r->sel_arr = calloc(r->narrays, 1);
	r->dirty = calloc(r->narrays, sizeof *r->dirty);
	r->lo = calloc(r->narrays, sizeof *r->lo);
	r->hi = calloc(r->narrays, sizeof *r->hi);
	if (!r->cols || !r->tags || !r->sel_arr || !r->dirty || !r->lo || !r->hi)
		goto oom;
	return r;
oom:
	diag_file(d, p->path, "out of memory for the reference model");
	emu_ref_free(r);
	return NULL;
}

void emu_ref_free(emu_ref *r)
{
	if (!r)
		return;
	for (unsigned a = 0; r->cols && a < r->narrays; a++) {
		free(r->cols[a]);
		free(r->tags[a]);
	}
	free(r->cols);
	free(r->tags);
	free(r->sel_arr);
	free(r->dirty);
	free(r->lo);
	free(r->hi);
	free(r->pend);
	free(r);
}

/* The column of (array, bitline); allocated on first use when `make`. */
static uint64_t *column(const emu_ref *r, unsigned array, unsigned bl, bool make)
{
	if (!r->cols[array]) {
		if (!make)
			return NULL;
		r->cols[array] = calloc((size_t)r->B * r->cw, sizeof(uint64_t));
		r->tags[array] = calloc(r->B, 1);
		if (!r->cols[array] || !r->tags[array])
			abort(); /* see emu_ref_new: sized like the machine */
	}
	return r->cols[array] + (size_t)bl * r->cw;
}

/* Note that the current command writes rows [wl, wl + n) of array a. */
static void mark(emu_ref *r, unsigned a, unsigned wl, unsigned n)
{
	if (!r->hi[a]) {
		r->dirty[r->ndirty++] = a;
		r->lo[a] = (uint16_t)wl;
		r->hi[a] = (uint16_t)(wl + n);
		return;
	}
	if (wl < r->lo[a])
		r->lo[a] = (uint16_t)wl;
	if (wl + n > r->hi[a])
		r->hi[a] = (uint16_t)(wl + n);
}

static void clear_marks(emu_ref *r)
{
	for (size_t i = 0; i < r->ndirty; i++)
		r->hi[r->dirty[i]] = 0;
	r->ndirty = 0;
}

size_t emu_ref_nwritten(const emu_ref *r)
{
	return r->ndirty;
}

void emu_ref_written(const emu_ref *r, size_t k, unsigned *array, unsigned *wl,
		     unsigned *end)
{
	*array = r->dirty[k];
	*wl = r->lo[*array];
	*end = r->hi[*array];
}

const uint64_t *emu_ref_column(const emu_ref *r, unsigned array, unsigned bitline)
{
	return r->cols[array] ? r->cols[array] + (size_t)bitline * r->cw : NULL;
}

/* Bits [wl, wl + n) of a column (n from 1 to 64): one word, or the end
 * of one and the start of the next. */
static uint64_t field_get(const uint64_t *col, unsigned wl, unsigned n)
{
	if (!col)
		return 0;
	const unsigned w = wl / 64, sh = wl % 64;
	uint64_t v = col[w] >> sh;
	if (sh && sh + n > 64)
		v |= col[w + 1] << (64 - sh);
	return v & isa_mask(n);
}

static void field_set(uint64_t *col, unsigned wl, unsigned n, uint64_t v)
{
	const unsigned w = wl / 64, sh = wl % 64;
	const uint64_t m = isa_mask(n);
	v &= m;
	col[w] = (col[w] & ~(m << sh)) | v << sh;
	if (sh && sh + n > 64)
		col[w + 1] = (col[w + 1] & ~(m >> (64 - sh))) | v >> (64 - sh);
}

uint64_t emu_ref_get(const emu_ref *r, const emu_buffer *b, uint64_t i)
{
	unsigned a, bl, wl;
	emu_buffer_place(b, &r->p->geom, i, &a, &bl, &wl);
	return field_get(column(r, a, bl, false), wl, b->width);
}

void emu_ref_set(emu_ref *r, const emu_buffer *b, uint64_t i, uint64_t v)
{
	unsigned a, bl, wl;
	emu_buffer_place(b, &r->p->geom, i, &a, &bl, &wl);
	field_set(column(r, a, bl, true), wl, b->width, v);
}

void emu_ref_read(const emu_ref *r, const emu_buffer *b, uint64_t *values)
{
	emu_placer pl;
	emu_placer_init(&pl, b, &r->p->geom);
	for (uint64_t i = 0; i < b->length; i++) {
		unsigned a, bl, wl;
		emu_placer_at(&pl, i, &a, &bl, &wl);
		values[i] = field_get(column(r, a, bl, false), wl, b->width);
	}
}

void emu_ref_store(emu_ref *r, const emu_buffer *b, const uint64_t *values,
		   uint64_t count)
{
	emu_placer pl;
	emu_placer_init(&pl, b, &r->p->geom);
	if (count > b->length)
		count = b->length;
	for (uint64_t i = 0; i < count; i++) {
		unsigned a, bl, wl;
		emu_placer_at(&pl, i, &a, &bl, &wl);
		field_set(column(r, a, bl, true), wl, b->width, values[i] & isa_mask(b->width));
	}
}

void emu_ref_init_buffers(emu_ref *r)
{
	for (size_t k = 0; k < r->p->nbufs; k++) {
		const emu_buffer *b = &r->p->bufs[k];
		if (b->init == EMU_INIT_NONE)
			continue;
		emu_placer pl;
		emu_placer_init(&pl, b, &r->p->geom);
		for (uint64_t i = 0; i < b->length; i++) {
			unsigned a, bl, wl;
			emu_placer_at(&pl, i, &a, &bl, &wl);
			field_set(column(r, a, bl, true), wl, b->width, emu_init_elem(b, i));
		}
	}
}

/* Does the command's lowering use the tag latch as a temporary?  That is
 * a fact of the micro-program, not of the values, so it is read from the
 * micro-program's latch functions. */
static bool clobbers_tag(const emu_ref *r, const isa_cmd *c)
{
	if (c->d == ISA_TAG)
		return false;
	isa_prog p;
	isa_prog_init(&p);
	bool t = false;
	if (isa_build(c, r->B, &p) == 0)
		for (size_t i = 0; i < p.n && !t; i++)
			t = sram_fn_latch(p.u[i].lfn) == 'T';
	isa_prog_free(&p);
	return t;
}

static bool signed_lt(bool sgn, unsigned n, uint64_t a, uint64_t b)
{
	return sgn ? isa_sext(a, n) < isa_sext(b, n) : a < b;
}

/* What a command leaves in the tag latch, as doc/COMMANDS.md and
 * doc/commands/ops.md give it for each command that writes no predicate
 * to the tag: TAG_ZERO or TAG_ONE, or -1 when the docs give no value (the
 * caller then keeps the tag, or marks it undefined when the
 * micro-program uses it as a temporary). */
static int tag_effect(const isa_cmd *c, uint64_t a, uint64_t b)
{
	const unsigned n = c->width;
	const bool sgn = c->is_signed;
	switch (c->op) {
	case ISA_SUB:
	case ISA_POPCNT: /* a[n-1] */
		return (int)(a >> (n - 1) & 1);
	case ISA_MIN:
	case ISA_MAX: /* the lt chain's a < b */
		return signed_lt(sgn, n, a, b);
	case ISA_ABS: /* signed: the sign of a; unsigned: untouched */
		return sgn ? (int)(a >> (n - 1) & 1) : -1;
	case ISA_SEARCH: /* the hit vector, whatever p is */
		return a == (c->imm & isa_mask(n));
	case ISA_SHL:
	case ISA_SHR:
	case ISA_SRA: { /* OR of b[k] over 2^k >= n; sra.1 keeps it */
		if (c->op == ISA_SRA && n == 1)
			return -1;
		uint64_t big = 0;
		for (unsigned k = 0; k < n && k < 64; k++)
			big |= (k >= 63 || (UINT64_C(1) << k) >= n) ? UINT64_C(1) << k : 0;
		return (b & big) != 0;
	}
	default:
		return -1;
	}
}

static void mark_bitlines(const emu_cmd *c, bool *sel, unsigned B)
{
	memset(sel, 0, B * sizeof *sel);
	const uint64_t nb = emu_pattern_size(&c->bitlines);
	for (uint64_t i = 0; i < nb; i++)
		sel[emu_pattern_at(&c->bitlines, i)] = true;
}

/* One element-wise command on one bitline of one array. */
static int apply_elem(emu_ref *r, const emu_cmd *ec, unsigned a, unsigned bl,
		      bool clobber, diag *d, size_t cmd_index)
{
	const isa_cmd *c = &ec->c;
	const isa_form f = isa_info_of(c->op)->form;
	uint64_t *col = column(r, a, bl, true);
	uint8_t *tag = &r->tags[a][bl];
	if (c->op == ISA_SEL && *tag == TAG_UNDEF) {
		const emu_cmd *by = &r->p->cmds[r->undef_by];
		/* numbered from 1, as --stats and the hazards count */
		diag_at(d, r->p->path, ec->line, 0,
			"command %zu reads the tag latch of array %u bitline %u, "
			"which command %zu (line %d) left undefined",
			cmd_index + 1, a, bl, r->undef_by + 1, by->line);
		return -1;
	}
	/* A conversion's a has the source type's width. */
	const unsigned an = c->op == ISA_CVT ? c->swidth : c->width;
	uint64_t av = c->a == ISA_NONE ? 0 : field_get(col, c->a, an);
	uint64_t bv = c->b == ISA_NONE ? 0 : field_get(col, c->b, c->width);
	uint64_t cv = c->c3 == ISA_NONE ? 0 : field_get(col, c->c3, c->width);
	bool tout = *tag == TAG_ONE;
	uint64_t r2 = 0;
	uint64_t dv = isa_ref_elem3(c, av, bv, cv, *tag == TAG_ONE, &tout, &r2);
	if (f == ISA_FORM_QRAB)
		field_set(col, c->d2, c->width, r2);
	if (c->d == ISA_TAG) {
		*tag = tout ? TAG_ONE : TAG_ZERO;
		return 0;
	}
	field_set(col, c->d, f == ISA_FORM_PAB || f == ISA_FORM_PAI ? 1 : c->width, dv);
	const int t = tag_effect(c, av, bv);
	if (t >= 0)
		*tag = (uint8_t)t;
	else if (clobber)
		*tag = TAG_UNDEF;
	return 0;
}

/* A reduction over every bitline of one array: the result goes to
 * bitline 0 of d; the other bitlines of d keep their values. */
static void apply_reduce(emu_ref *r, const isa_cmd *c, unsigned a, bool clobber)
{
	uint64_t v[SRAM_MAX_DIM];
	for (unsigned bl = 0; bl < r->B; bl++)
		v[bl] = field_get(column(r, a, bl, true), c->a, c->width);
	field_set(column(r, a, 0, true), c->d, c->width,
		  isa_ref_reduce(c, v, r->B));
	if (clobber)
		memset(r->tags[a], TAG_UNDEF, r->B);
}

/* ---- moves, on the plain columns (infinity-stream §4.2) ----
 * Written apart from move.c, after the scalar model of tests/test_move.c,
 * bit by bit: the schedule of move.h (wordlines upwards; each wordline
 * step reads every source before it writes any destination), and bits
 * bound for another bank held until the next sync, in command order. */

static unsigned bit_get(const emu_ref *r, unsigned a, unsigned bl, unsigned wl)
{
	const uint64_t *col = column(r, a, bl, false);
	return col ? (unsigned)(col[wl / 64] >> (wl % 64)) & 1 : 0;
}

static void bit_set(emu_ref *r, unsigned a, unsigned bl, unsigned wl, unsigned v)
{
	field_set(column(r, a, bl, true), wl, 1, v);
	mark(r, a, wl, 1);
}

static unsigned ref_bank(const emu_ref *r, unsigned a)
{
	return a / (r->p->geom.arrays_per_way * r->p->geom.ways_per_bank);
}

static int ref_oom(const emu_ref *r, const emu_move *m, diag *d)
{
	diag_at(d, r->p->path, m->line, 0, "out of memory in the reference model");
	return -1;
}

static int pend_push(emu_ref *r, unsigned a, unsigned bl, unsigned wl, unsigned v)
{
	if (r->npend == r->cap_pend) {
		size_t cap = r->cap_pend ? 2 * r->cap_pend : 1024;
		struct ref_pend *np = realloc(r->pend, cap * sizeof *np);
		if (!np)
			return -1;
		r->pend = np;
		r->cap_pend = cap;
	}
	r->pend[r->npend++] = (struct ref_pend){a, bl, wl, (uint8_t)v};
	return 0;
}

/* Intra-array shift: bitline b -> b + dist in each array, row by row.
 * When the source and destination rows are the same rows or share none,
 * no row step reads what an earlier one wrote, so the rows can move as
 * one field per bitline: every source field read, then every one
 * written. */
static void ref_intra(emu_ref *r, const emu_move *m)
{
	const uint64_t na = emu_pattern_size(&m->arrays), nb = emu_pattern_size(&m->bitlines);
	const bool whole = m->nwl <= 64 && (m->dst_wl == m->wl || m->dst_wl >= m->wl + m->nwl ||
					    m->wl >= m->dst_wl + m->nwl);
	uint64_t v[SRAM_MAX_DIM];
	unsigned bl[SRAM_MAX_DIM];
	for (uint64_t j = 0; j < nb; j++)
		bl[j] = (unsigned)emu_pattern_at(&m->bitlines, j);
	memset(r->sel_arr, 0, r->narrays);
	for (uint64_t i = 0; i < na; i++) {
		const unsigned a = (unsigned)emu_pattern_at(&m->arrays, i);
		if (r->sel_arr[a]++)
			continue;
		if (whole) {
			for (uint64_t j = 0; j < nb; j++)
				v[j] = field_get(column(r, a, bl[j], false), m->wl, m->nwl);
			for (uint64_t j = 0; j < nb; j++)
				field_set(column(r, a, (unsigned)(bl[j] + m->dist), true),
					  m->dst_wl, m->nwl, v[j]);
			mark(r, a, m->dst_wl, m->nwl);
			continue;
		}
		for (unsigned k = 0; k < m->nwl; k++) {
			for (uint64_t j = 0; j < nb; j++)
				v[j] = bit_get(r, a, bl[j], m->wl + k);
			for (uint64_t j = 0; j < nb; j++)
				bit_set(r, a, (unsigned)(bl[j] + m->dist), m->dst_wl + k, (unsigned)v[j]);
		}
	}
}

/* Inter-array shift (copies 1) and broadcast (reuse_count copies). */
static int ref_transfer(emu_ref *r, const emu_move *m, diag *d)
{
	const uint64_t na = emu_pattern_size(&m->arrays), nb = emu_pattern_size(&m->bitlines);
	const uint64_t copies = m->kind == EMU_MOVE_BCAST ? m->reuse_count : 1;
	uint8_t *v = malloc(na * nb);
	if (!v)
		return ref_oom(r, m, d);
	for (unsigned k = 0; k < m->nwl; k++) {
		for (uint64_t i = 0; i < na; i++)
			for (uint64_t j = 0; j < nb; j++)
				v[i * nb + j] = (uint8_t)bit_get(r, (unsigned)emu_pattern_at(&m->arrays, i),
					(unsigned)emu_pattern_at(&m->bitlines, j), m->wl + k);
		for (uint64_t i = 0; i < na; i++) {
			const int64_t a = emu_pattern_at(&m->arrays, i);
			for (uint64_t c = 0; c < copies; c++) {
				const unsigned to = (unsigned)(a + m->dist + (int64_t)c * m->reuse_stride);
				const bool local = ref_bank(r, to) == ref_bank(r, (unsigned)a);
				for (uint64_t j = 0; j < nb; j++) {
					const unsigned bl = (unsigned)emu_pattern_at(&m->dst_bitlines, j);
					if (local)
						bit_set(r, to, bl, m->dst_wl + k, v[i * nb + j]);
					else if (pend_push(r, to, bl, m->dst_wl + k, v[i * nb + j])) {
						free(v);
						return ref_oom(r, m, d);
					}
				}
			}
		}
	}
	free(v);
	return 0;
}

static void ref_const(emu_ref *r, const emu_move *m)
{
	const uint64_t na = emu_pattern_size(&m->arrays), nb = emu_pattern_size(&m->bitlines);
	for (uint64_t i = 0; i < na; i++) {
		const unsigned a = (unsigned)emu_pattern_at(&m->arrays, i);
		mark(r, a, m->wl, m->nwl);
		for (uint64_t j = 0; j < nb; j++)
			field_set(column(r, a, (unsigned)emu_pattern_at(&m->bitlines, j), true),
				  m->wl, m->nwl, m->value);
	}
}

static int ref_move(emu_ref *r, const emu_move *m, diag *d)
{
	switch (m->kind) {
	case EMU_MOVE_INTRA:
		ref_intra(r, m);
		return 0;
	case EMU_MOVE_INTER:
	case EMU_MOVE_BCAST:
		return ref_transfer(r, m, d);
	case EMU_MOVE_CONST:
		ref_const(r, m);
		return 0;
	default: /* sync: every held bit lands, in the order it was sent */
		for (size_t i = 0; i < r->npend; i++)
			bit_set(r, r->pend[i].array, r->pend[i].bitline, r->pend[i].wordline,
				r->pend[i].bit);
		r->npend = 0;
		return 0;
	}
}

/* The rows a compute command writes in each array it selects. */
static void mark_dests(emu_ref *r, const isa_cmd *c, unsigned a)
{
	const isa_form f = isa_info_of(c->op)->form;
	if (f == ISA_FORM_QRAB)
		mark(r, a, c->d2, c->width);
	if (c->d != ISA_TAG)
		mark(r, a, c->d, f == ISA_FORM_PAB || f == ISA_FORM_PAI ? 1 : c->width);
}

int emu_ref_run_cmd(emu_ref *r, size_t i, diag *d)
{
	const emu_cmd *ec = &r->p->cmds[i];
	clear_marks(r);
	if (ec->kind == EMU_CMD_MOVE)
		return ref_move(r, &ec->mv, d);
	const bool clobber = clobbers_tag(r, &ec->c);
	bool sel[SRAM_MAX_DIM];
	mark_bitlines(ec, sel, r->B);
	/* A pattern may name an array twice; the hardware enables it once. */
	memset(r->sel_arr, 0, r->narrays);
	const uint64_t na = emu_pattern_size(&ec->arrays);
	for (uint64_t k = 0; k < na; k++) {
		unsigned a = (unsigned)emu_pattern_at(&ec->arrays, k);
		if (r->sel_arr[a])
			continue;
		r->sel_arr[a] = 1;
		mark_dests(r, &ec->c, a);
		if (isa_info_of(ec->c.op)->form == ISA_FORM_RA) {
			apply_reduce(r, &ec->c, a, clobber);
			continue;
		}
		for (unsigned bl = 0; bl < r->B; bl++)
			if (sel[bl] && apply_elem(r, ec, a, bl, clobber, d, i) != 0)
				return -1;
	}
	if (clobber && (isa_info_of(ec->c.op)->form == ISA_FORM_RA || tag_effect(&ec->c, 0, 0) < 0))
		r->undef_by = i;
	return 0;
}
