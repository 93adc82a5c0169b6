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

#ifdef _OPENMP
#include <omp.h>
#endif

enum { TAG_ZERO = 0, TAG_ONE = 1, TAG_UNDEF = 2 };

struct emu_ref {
	const emu_program *p;
	unsigned W, B, cw;     /* wordlines, bitlines, words per column */
	unsigned narrays;
	uint64_t **cols;       /* per array: B * cw words, or NULL */
	uint8_t **tags;        /* per array: B tag states, or NULL */
	size_t undef_by;       /* command that last left a tag undefined */
	uint8_t *sel_arr;      /* scratch: selected arrays of a command */
	unsigned *lst[3];      /* scratch: a command's patterns, expanded */
	size_t cap_lst[3];
	uint64_t *vals;        /* scratch: a move's source fields */
	size_t cap_vals;
	struct ref_pend *pend; /* inter-bank bits waiting for the next sync */
	size_t npend, cap_pend;
	/* The rows the last command wrote, per array (emu_ref_written):
	 * the arrays in order of first write, each with [lo, hi). */
	unsigned *dirty;
	size_t ndirty;
	uint16_t *lo, *hi;     /* per array; hi == 0: not written */
	/* The same since the start: every buffer's rows, and every row any
	 * command wrote (emu_ref_touched). */
	unsigned *touched;
	size_t ntouched;
	uint16_t *tlo, *thi;
	/* An array's column that could not be allocated points here (all
	 * such arrays share it) and oom is set: the contents are no longer
	 * an answer, and emu_ref_run_cmd and emu_ref_init_buffers say so. */
	uint64_t *spare_col;
	uint8_t *spare_tag;
	bool oom;
};

/* Bits [wordline, wordline + n) of one bitline of an inter-bank move
 * (n from 1 to 64), delivered at the next sync. */
struct ref_pend {
	unsigned array, bitline, wordline, n;
	uint64_t bits;
};

/* Widen array a's entry of one row set (list, lo, hi) by [wl, wl + n). */
static void rows_add(unsigned *list, size_t *n_list, uint16_t *lo, uint16_t *hi,
		     unsigned a, unsigned wl, unsigned n)
{
	if (!hi[a]) {
		list[(*n_list)++] = a;
		lo[a] = (uint16_t)wl;
		hi[a] = (uint16_t)(wl + n);
		return;
	}
	if (wl < lo[a])
		lo[a] = (uint16_t)wl;
	if (wl + n > hi[a])
		hi[a] = (uint16_t)(wl + n);
}

/* Every buffer's cells count as touched from the start, so that the
 * end-of-run comparison covers a buffer nothing wrote. */
static void touch_buffers(emu_ref *r)
{
	const sram_geom *g = &r->p->geom;
	for (size_t k = 0; k < r->p->nbufs; k++) {
		const emu_buffer *b = &r->p->bufs[k];
		const unsigned rows = emu_buffer_rows(b, g);
		uint64_t tiles = emu_pattern_size(&b->arrays);
		if (b->ndims) {
			emu_region reg;
			emu_buffer_region(b, &reg);
			tiles = emu_region_tiles(&reg);
		}
		for (uint64_t t = 0; t < tiles; t++) {
			const int64_t a = b->ndims ? b->arrays.start + (int64_t)t
						   : emu_pattern_at(&b->arrays, t);
			if (a >= 0 && (uint64_t)a < r->narrays && b->wl + rows <= r->W)
				rows_add(r->touched, &r->ntouched, r->tlo, r->thi, (unsigned)a,
					 b->wl, rows);
		}
	}
}

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
	r->touched = calloc(r->narrays, sizeof *r->touched);
	r->tlo = calloc(r->narrays, sizeof *r->tlo);
	r->thi = calloc(r->narrays, sizeof *r->thi);
	r->spare_col = calloc((size_t)r->B * r->cw, sizeof(uint64_t));
	r->spare_tag = calloc(r->B, 1);
	if (!r->cols || !r->tags || !r->sel_arr || !r->dirty || !r->lo || !r->hi ||
	    !r->touched || !r->tlo || !r->thi || !r->spare_col || !r->spare_tag)
		goto oom;
	touch_buffers(r);
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
	for (unsigned a = 0; r->cols && r->tags && a < r->narrays; a++) {
		if (r->cols[a] != r->spare_col)
			free(r->cols[a]);
		if (r->tags[a] != r->spare_tag)
			free(r->tags[a]);
	}
	free(r->spare_col);
	free(r->spare_tag);
	free(r->cols);
	free(r->tags);
	free(r->sel_arr);
	free(r->dirty);
	free(r->lo);
	free(r->hi);
	free(r->touched);
	free(r->tlo);
	free(r->thi);
	free(r->pend);
	for (unsigned k = 0; k < 3; k++)
		free(r->lst[k]);
	free(r->vals);
	free(r);
}

/* The column of (array, bitline); allocated on first use when `make`. */
static uint64_t *column(const emu_ref *r, unsigned array, unsigned bl, bool make)
{
	if (!r->cols[array]) {
		if (!make)
			return NULL;
		uint64_t **rc = (uint64_t **)&r->cols[array];
		uint8_t **rt = (uint8_t **)&r->tags[array];
		*rc = calloc((size_t)r->B * r->cw, sizeof(uint64_t));
		*rt = calloc(r->B, 1);
		if (!*rc || !*rt) {
			free(*rc);
			free(*rt);
			*rc = r->spare_col;
			*rt = r->spare_tag;
			((emu_ref *)r)->oom = true;
		}
	}
	return r->cols[array] + (size_t)bl * r->cw;
}

/* Note that the current command writes rows [wl, wl + n) of array a. */
static void mark(emu_ref *r, unsigned a, unsigned wl, unsigned n)
{
	rows_add(r->dirty, &r->ndirty, r->lo, r->hi, a, wl, n);
	rows_add(r->touched, &r->ntouched, r->tlo, r->thi, a, wl, n);
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

size_t emu_ref_ntouched(const emu_ref *r)
{
	return r->ntouched;
}

void emu_ref_touched(const emu_ref *r, size_t k, unsigned *array, unsigned *wl,
		     unsigned *end)
{
	*array = r->touched[k];
	*wl = r->tlo[*array];
	*end = r->thi[*array];
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

int emu_ref_store(emu_ref *r, const emu_buffer *b, const uint64_t *values,
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
	return r->oom ? -1 : 0;
}

int emu_ref_init_buffers(emu_ref *r)
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
	return r->oom ? -1 : 0;
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

/* Pattern p expanded into scratch list `slot`, its *n values in order
 * (each pattern is walked once per command, not once per bit); NULL
 * when out of memory. */
static const unsigned *expand(emu_ref *r, unsigned slot, const emu_pattern *p, uint64_t *n)
{
	*n = emu_pattern_size(p);
	const size_t want = *n ? (size_t)*n : 1;
	if (want > r->cap_lst[slot]) {
		unsigned *nl = realloc(r->lst[slot], want * sizeof *nl);
		if (!nl) {
			r->oom = true;
			return NULL;
		}
		r->lst[slot] = nl;
		r->cap_lst[slot] = want;
	}
	for (uint64_t i = 0; i < *n; i++)
		r->lst[slot][i] = (unsigned)emu_pattern_at(p, i);
	return r->lst[slot];
}

/* A command's bitlines, each once, in increasing order (the hardware
 * enables a bitline once however often the pattern names it). */
static unsigned sel_bitlines(const emu_cmd *c, unsigned *bls, unsigned B)
{
	bool sel[SRAM_MAX_DIM] = {0};
	const uint64_t nb = emu_pattern_size(&c->bitlines);
	for (uint64_t i = 0; i < nb; i++)
		sel[emu_pattern_at(&c->bitlines, i)] = true;
	unsigned n = 0;
	for (unsigned bl = 0; bl < B; bl++)
		if (sel[bl])
			bls[n++] = bl;
	return n;
}

/* One element-wise command over the selected bitlines of one array:
 * each bitline's operands are fields of its column, the result is the
 * plain-C meaning of the command (isa_ref_elem3).  Arrays share
 * nothing here, so arrays may run on different threads. */
static void apply_row(const emu_ref *r, const isa_cmd *c, unsigned a, const unsigned *bls,
		      unsigned nbl, bool clobber)
{
	const isa_form f = isa_info_of(c->op)->form;
	/* A conversion's a has the source type's width. */
	const unsigned an = c->op == ISA_CVT ? c->swidth : c->width;
	const unsigned dn = f == ISA_FORM_PAB || f == ISA_FORM_PAI ? 1 : c->width;
	uint64_t *const cols = r->cols[a];
	uint8_t *const tags = r->tags[a];
	for (unsigned k = 0; k < nbl; k++) {
		uint64_t *col = cols + (size_t)bls[k] * r->cw;
		uint8_t *tag = &tags[bls[k]];
		const uint64_t av = c->a == ISA_NONE ? 0 : field_get(col, c->a, an);
		const uint64_t bv = c->b == ISA_NONE ? 0 : field_get(col, c->b, c->width);
		const uint64_t cv = c->c3 == ISA_NONE ? 0 : field_get(col, c->c3, c->width);
		bool tout = *tag == TAG_ONE;
		uint64_t r2 = 0;
		const uint64_t dv = isa_ref_elem3(c, av, bv, cv, *tag == TAG_ONE, &tout, &r2);
		if (f == ISA_FORM_QRAB)
			field_set(col, c->d2, c->width, r2);
		if (c->d == ISA_TAG) {
			*tag = tout ? TAG_ONE : TAG_ZERO;
			continue;
		}
		field_set(col, c->d, dn, dv);
		const int t = tag_effect(c, av, bv);
		if (t >= 0)
			*tag = (uint8_t)t;
		else if (clobber)
			*tag = TAG_UNDEF;
	}
}

/* A `sel` reading a tag an earlier command left undefined: the first
 * such element in the order of the command's arrays and bitlines is
 * reported, before anything is written. */
static int undef_tag_read(const emu_ref *r, size_t i, const unsigned *arr, uint64_t na,
			  const unsigned *bls, unsigned nbl, diag *d)
{
	const emu_cmd *ec = &r->p->cmds[i];
	if (ec->c.op != ISA_SEL)
		return 0;
	for (uint64_t k = 0; k < na; k++) {
		const uint8_t *tags = r->tags[arr[k]];
		for (unsigned j = 0; tags && j < nbl; j++) {
			if (tags[bls[j]] != TAG_UNDEF)
				continue;
			const emu_cmd *by = &r->p->cmds[r->undef_by];
			/* numbered from 1, as --stats and the hazards count */
			diag_at(d, r->p->path, ec->line, 0,
				"command %zu reads the tag latch of array %u bitline %u, "
				"which command %zu (line %d) left undefined",
				i + 1, arr[k], bls[j], r->undef_by + 1, by->line);
			return -1;
		}
	}
	return 0;
}

/* A reduction over every bitline of one array: the result goes to
 * bitline 0 of d; the other bitlines of d keep their values. */
static void apply_reduce(emu_ref *r, const isa_cmd *c, unsigned a, bool clobber)
{
	uint64_t v[SRAM_MAX_DIM];
	const uint64_t *cols = column(r, a, 0, true);
	for (unsigned bl = 0; bl < r->B; bl++)
		v[bl] = field_get(cols + (size_t)bl * r->cw, c->a, c->width);
	field_set(column(r, a, 0, true), c->d, c->width, isa_ref_reduce(c, v, r->B));
	if (clobber)
		memset(r->tags[a], TAG_UNDEF, r->B);
}

/* ---- moves, on the plain columns (infinity-stream §4.2) ----
 * Written apart from move.c, after the scalar model of tests/test_move.c:
 * the schedule of move.h (wordlines upwards; each wordline step reads
 * every source before it writes any destination), and bits bound for
 * another bank held until the next sync, in command order.  When the
 * source and destination wordlines are the same or share none, no
 * wordline step reads what an earlier one wrote, so up to 64 wordlines
 * of a bitline move as one field; otherwise the steps run bit by bit. */

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

static int pend_push(emu_ref *r, unsigned a, unsigned bl, unsigned wl, unsigned n,
		     uint64_t v)
{
	if (r->npend == r->cap_pend) {
		size_t cap = r->cap_pend ? 2 * r->cap_pend : 1024;
		struct ref_pend *np = realloc(r->pend, cap * sizeof *np);
		if (!np)
			return -1;
		r->pend = np;
		r->cap_pend = cap;
	}
	r->pend[r->npend++] = (struct ref_pend){a, bl, wl, n, v};
	return 0;
}

/* Do the source and destination wordlines of m let its rows move as
 * fields (the same wordlines, or none in common)? */
static bool moves_whole(const emu_move *m)
{
	return m->dst_wl == m->wl || m->dst_wl >= m->wl + m->nwl || m->wl >= m->dst_wl + m->nwl;
}

/* Intra-array shift: bitline b -> b + dist in each array.  Within one
 * array the destinations may be sources of later bitlines, so each
 * 64-wordline step reads every source field before it writes any. */
static int ref_intra(emu_ref *r, const emu_move *m, diag *d)
{
	uint64_t na, nb;
	const unsigned *arr = expand(r, 0, &m->arrays, &na);
	const unsigned *bl = expand(r, 1, &m->bitlines, &nb);
	if (!arr || !bl)
		return ref_oom(r, m, d);
	uint64_t v[SRAM_MAX_DIM];
	memset(r->sel_arr, 0, r->narrays);
	for (uint64_t i = 0; i < na; i++) {
		const unsigned a = arr[i];
		if (r->sel_arr[a]++)
			continue;
		if (!moves_whole(m)) {
			for (unsigned k = 0; k < m->nwl; k++) {
				for (uint64_t j = 0; j < nb; j++)
					v[j] = bit_get(r, a, bl[j], m->wl + k);
				for (uint64_t j = 0; j < nb; j++)
					bit_set(r, a, (unsigned)(bl[j] + m->dist), m->dst_wl + k,
						(unsigned)v[j]);
			}
			continue;
		}
		uint64_t *cols = column(r, a, 0, true);
		mark(r, a, m->dst_wl, m->nwl);
		for (unsigned k0 = 0; k0 < m->nwl; k0 += 64) {
			const unsigned n = m->nwl - k0 < 64 ? m->nwl - k0 : 64;
			for (uint64_t j = 0; j < nb; j++)
				v[j] = field_get(cols + (size_t)bl[j] * r->cw, m->wl + k0, n);
			for (uint64_t j = 0; j < nb; j++)
				field_set(cols + (size_t)(bl[j] + m->dist) * r->cw, m->dst_wl + k0, n,
					  v[j]);
		}
	}
	return 0;
}

/* The bit-by-bit schedule of an inter-array shift or broadcast whose
 * source and destination wordlines overlap without being the same. */
static int transfer_bits(emu_ref *r, const emu_move *m, const unsigned *arr, uint64_t na,
			 const unsigned *bl, const unsigned *dbl, uint64_t nb, diag *d)
{
	const uint64_t copies = m->kind == EMU_MOVE_BCAST ? m->reuse_count : 1;
	uint8_t *v = malloc(na * nb > 0 ? na * nb : 1);
	if (!v)
		return ref_oom(r, m, d);
	for (unsigned k = 0; k < m->nwl; k++) {
		for (uint64_t i = 0; i < na; i++)
			for (uint64_t j = 0; j < nb; j++)
				v[i * nb + j] = (uint8_t)bit_get(r, arr[i], bl[j], m->wl + k);
		for (uint64_t i = 0; i < na; i++)
			for (uint64_t c = 0; c < copies; c++) {
				const unsigned to = (unsigned)(arr[i] + m->dist +
							       (int64_t)c * m->reuse_stride);
				const bool local = ref_bank(r, to) == ref_bank(r, arr[i]);
				for (uint64_t j = 0; j < nb; j++) {
					if (local)
						bit_set(r, to, dbl[j], m->dst_wl + k, v[i * nb + j]);
					else if (pend_push(r, to, dbl[j], m->dst_wl + k, 1,
							   v[i * nb + j])) {
						free(v);
						return ref_oom(r, m, d);
					}
				}
			}
	}
	free(v);
	return 0;
}

/* Must the source fields of a same-wordline transfer be read before any
 * is written?  Only when a destination array is also a source array. */
static bool transfer_chains(emu_ref *r, const emu_move *m, const unsigned *arr, uint64_t na)
{
	const uint64_t copies = m->kind == EMU_MOVE_BCAST ? m->reuse_count : 1;
	bool hit = false;
	memset(r->sel_arr, 0, r->narrays);
	for (uint64_t i = 0; i < na; i++)
		r->sel_arr[arr[i]] = 1;
	for (uint64_t i = 0; i < na && !hit; i++)
		for (uint64_t c = 0; c < copies && !hit; c++) {
			const int64_t to = arr[i] + m->dist + (int64_t)c * m->reuse_stride;
			hit = to >= 0 && (uint64_t)to < r->narrays && r->sel_arr[to];
		}
	return m->dst_wl == m->wl && hit;
}

/* Source fields [wl + k0, + n) of every (array, bitline), into r->vals
 * (when the transfer chains); false when out of memory. */
static bool transfer_read(emu_ref *r, const unsigned *arr, uint64_t na, const unsigned *bl,
			  uint64_t nb, unsigned wl, unsigned n)
{
	if (na * nb > r->cap_vals) {
		uint64_t *nv = realloc(r->vals, na * nb * sizeof *nv);
		if (!nv)
			return false;
		r->vals = nv;
		r->cap_vals = na * nb;
	}
	for (uint64_t i = 0; i < na; i++) {
		const uint64_t *cols = column(r, arr[i], 0, false);
		for (uint64_t j = 0; j < nb; j++)
			r->vals[i * nb + j] = cols ? field_get(cols + (size_t)bl[j] * r->cw, wl, n) : 0;
	}
	return true;
}

/* Inter-array shift (copies 1) and broadcast (reuse_count copies), up to
 * 64 wordlines of each bitline at a time. */
static int ref_transfer(emu_ref *r, const emu_move *m, diag *d)
{
	uint64_t na, nb, nd;
	const unsigned *arr = expand(r, 0, &m->arrays, &na);
	const unsigned *bl = expand(r, 1, &m->bitlines, &nb);
	const unsigned *dbl = expand(r, 2, &m->dst_bitlines, &nd);
	if (!arr || !bl || !dbl)
		return ref_oom(r, m, d);
	if (!moves_whole(m))
		return transfer_bits(r, m, arr, na, bl, dbl, nb, d);
	const uint64_t copies = m->kind == EMU_MOVE_BCAST ? m->reuse_count : 1;
	const bool chains = transfer_chains(r, m, arr, na);
	for (unsigned k0 = 0; k0 < m->nwl; k0 += 64) {
		const unsigned n = m->nwl - k0 < 64 ? m->nwl - k0 : 64;
		const unsigned swl = m->wl + k0, dwl = m->dst_wl + k0;
		if (chains && !transfer_read(r, arr, na, bl, nb, swl, n))
			return ref_oom(r, m, d);
		for (uint64_t i = 0; i < na; i++) {
			const uint64_t *src = chains ? NULL : column(r, arr[i], 0, false);
			for (uint64_t c = 0; c < copies; c++) {
				const unsigned to = (unsigned)(arr[i] + m->dist +
							       (int64_t)c * m->reuse_stride);
				const bool local = ref_bank(r, to) == ref_bank(r, arr[i]);
				uint64_t *dst = local ? column(r, to, 0, true) : NULL;
				if (local)
					mark(r, to, dwl, n);
				for (uint64_t j = 0; j < nb; j++) {
					const uint64_t v =
						chains ? r->vals[i * nb + j]
						: src ? field_get(src + (size_t)bl[j] * r->cw, swl, n) : 0;
					if (local)
						field_set(dst + (size_t)dbl[j] * r->cw, dwl, n, v);
					else if (pend_push(r, to, dbl[j], dwl, n, v))
						return ref_oom(r, m, d);
				}
			}
		}
	}
	return 0;
}

static int ref_const(emu_ref *r, const emu_move *m, diag *d)
{
	uint64_t na, nb;
	const unsigned *arr = expand(r, 0, &m->arrays, &na);
	const unsigned *bl = expand(r, 1, &m->bitlines, &nb);
	if (!arr || !bl)
		return ref_oom(r, m, d);
	for (uint64_t i = 0; i < na; i++) {
		uint64_t *cols = column(r, arr[i], 0, true);
		mark(r, arr[i], m->wl, m->nwl);
		for (uint64_t j = 0; j < nb; j++)
			field_set(cols + (size_t)bl[j] * r->cw, m->wl, m->nwl, m->value);
	}
	return 0;
}

static int ref_move(emu_ref *r, const emu_move *m, diag *d)
{
	switch (m->kind) {
	case EMU_MOVE_INTRA:
		return ref_intra(r, m, d);
	case EMU_MOVE_INTER:
	case EMU_MOVE_BCAST:
		return ref_transfer(r, m, d);
	case EMU_MOVE_CONST:
		return ref_const(r, m, d);
	default: /* sync: every held field lands, in the order it was sent */
		for (size_t i = 0; i < r->npend; i++) {
			const struct ref_pend *q = &r->pend[i];
			field_set(column(r, q->array, q->bitline, true), q->wordline, q->n, q->bits);
			mark(r, q->array, q->wordline, q->n);
		}
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

static int ref_run_cmd(emu_ref *r, size_t i, diag *d);

int emu_ref_run_cmd(emu_ref *r, size_t i, diag *d)
{
	const int rc = ref_run_cmd(r, i, d);
	if (r->oom) {
		diag_file(d, r->p->path, "out of memory for the reference model");
		return -1;
	}
	return rc;
}

/* Threads for a compute command over na arrays of nbl bitlines: the
 * count --threads set, or OpenMP's, and one for small commands. */
static int ref_threads(uint64_t na, unsigned nbl)
{
#ifdef _OPENMP
	const int set = sram_get_threads();
	const int nt = set ? set : omp_get_max_threads();
	return na * nbl < 4096 || nt < 1 ? 1 : nt;
#else
	(void)na, (void)nbl;
	return 1;
#endif
}

/* The arrays of a compute command, each once, in the order the pattern
 * first names them (the hardware enables an array once). */
static const unsigned *sel_arrays(emu_ref *r, const emu_cmd *ec, uint64_t *n)
{
	uint64_t na;
	unsigned *arr = (unsigned *)expand(r, 0, &ec->arrays, &na);
	if (!arr)
		return NULL;
	memset(r->sel_arr, 0, r->narrays);
	*n = 0;
	for (uint64_t k = 0; k < na; k++)
		if (!r->sel_arr[arr[k]]++)
			arr[(*n)++] = arr[k];
	return arr;
}

static int ref_run_cmd(emu_ref *r, size_t i, diag *d)
{
	const emu_cmd *ec = &r->p->cmds[i];
	clear_marks(r);
	if (ec->kind == EMU_CMD_MOVE)
		return ref_move(r, &ec->mv, d);
	const isa_cmd *c = &ec->c;
	const bool clobber = clobbers_tag(r, c);
	unsigned bls[SRAM_MAX_DIM];
	const unsigned nbl = sel_bitlines(ec, bls, r->B);
	uint64_t na;
	const unsigned *arr = sel_arrays(r, ec, &na);
	if (!arr || undef_tag_read(r, i, arr, na, bls, nbl, d) != 0)
		return -1;
	/* Columns are allocated here, on one thread, before any is used. */
	for (uint64_t k = 0; k < na; k++) {
		column(r, arr[k], 0, true);
		mark_dests(r, c, arr[k]);
	}
	if (r->oom)
		return -1;
	if (isa_info_of(c->op)->form == ISA_FORM_RA) {
		for (uint64_t k = 0; k < na; k++)
			apply_reduce(r, c, arr[k], clobber);
	} else {
		const int nt = ref_threads(na, nbl);
		(void)nt;
#pragma omp parallel for schedule(static) num_threads(nt) if (nt > 1)
		for (uint64_t k = 0; k < na; k++)
			apply_row(r, c, arr[k], bls, nbl, clobber);
	}
	if (clobber && (isa_info_of(c->op)->form == ISA_FORM_RA || tag_effect(c, 0, 0) < 0))
		r->undef_by = i;
	return 0;
}
