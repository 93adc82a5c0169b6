/* SPDX-License-Identifier: MIT */
/*
 * ref_compute.c: the reference's compute commands (refmodel.h): what each
 * command means, element by element, in plain C.
 *
 * A command runs array by array (arrays share nothing, so they are spread
 * over threads), and in each array one word of its rows at a time: the
 * 64 bitlines of that word have their operands read out of the rows
 * (ref_block.c), their results computed, and written back on the bitlines
 * the command selects.  The result of an element is isa_ref_elem3's (madd
 * with its addend c, cvt reading a of the source type's width; floats
 * through the IEEE reference in the command's fp= mode), or, for f32
 * add, sub, mul, div and madd, the same bits from the host's FPU
 * (ref_fp.h).  Commands whose every result bit is the same function of
 * the operands' bits at that wordline (copy and the bitwise ones) are
 * computed on the rows directly, a word of 64 bitlines at a time.
 */
#include "ref_private.h"

#include <string.h>

#include "ref_fp.h"

#ifdef _OPENMP
#include <omp.h>
#endif

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
 * to the tag: EMU_REF_TAG_ZERO or _ONE, or -1 when the docs give no value
 * (the caller then keeps the tag, or marks it undefined when the
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

/* A command's bitlines as a mask of rw words (the hardware enables a
 * bitline once however often the pattern names it). */
static void sel_bitlines(const emu_cmd *c, uint64_t *sel, unsigned rw)
{
	memset(sel, 0, rw * sizeof *sel);
	const uint64_t nb = emu_pattern_size(&c->bitlines);
	for (uint64_t i = 0; i < nb; i++) {
		const unsigned bl = (unsigned)emu_pattern_at(&c->bitlines, i);
		sel[bl / 64] |= UINT64_C(1) << (bl % 64);
	}
}

/* The operands and results of the 64 bitlines of one word of rows. */
typedef struct ref_lanes {
	uint64_t a[64], b[64], c[64], d[64], r2[64];
} ref_lanes;

/* Is every result bit of c at wordline d + k the same function of the
 * operands' bits at a + k and b + k?  Then it runs on whole rows. */
static bool bitwise(const isa_cmd *c)
{
	switch (c->op) {
	case ISA_COPY: case ISA_AND: case ISA_OR: case ISA_XOR: case ISA_NOT:
		return c->d != ISA_TAG;
	default:
		return false;
	}
}

/* A bitwise command on word w of the rows: every source word is read
 * before any is written, since d may overlap a or b. */
static void word_bitwise(uint64_t *rows, size_t rs, const isa_cmd *c, unsigned w,
			 uint64_t sel)
{
	uint64_t x[64], y[64] = {0};
	const unsigned n = c->width;
	for (unsigned k = 0; k < n; k++) {
		x[k] = rows[(c->a + k) * rs + w];
		if (c->b != ISA_NONE)
			y[k] = rows[(c->b + k) * rs + w];
	}
	for (unsigned k = 0; k < n; k++) {
		uint64_t v;
		switch (c->op) {
		case ISA_AND: v = x[k] & y[k]; break;
		case ISA_OR: v = x[k] | y[k]; break;
		case ISA_XOR: v = x[k] ^ y[k]; break;
		case ISA_NOT: v = ~x[k]; break;
		default: v = x[k]; break; /* COPY */
		}
		uint64_t *o = &rows[(c->d + k) * rs + w];
		*o = (*o & ~sel) | (v & sel);
	}
}

/* Element by element: results into L->d (and L->r2), or the tag for a
 * predicate to the tag.  tags: the word's 64 tag states. */
static void word_elems(const isa_cmd *c, uint64_t sel, uint8_t *tags, ref_lanes *L)
{
	for (uint64_t s = sel; s; s &= s - 1) {
		const unsigned j = (unsigned)__builtin_ctzll(s);
		bool tout = tags[j] == EMU_REF_TAG_ONE;
		L->d[j] = isa_ref_elem3(c, L->a[j], L->b[j], L->c[j], tout, &tout, &L->r2[j]);
		if (c->d == ISA_TAG)
			tags[j] = tout ? EMU_REF_TAG_ONE : EMU_REF_TAG_ZERO;
	}
}

/* Does what c leaves in the tag depend on the element's values?  When
 * not, tag_effect gives -1 for every element. */
static bool tag_by_value(const isa_cmd *c)
{
	switch (c->op) {
	case ISA_SUB: case ISA_POPCNT: case ISA_MIN: case ISA_MAX: case ISA_SEARCH:
	case ISA_SHL: case ISA_SHR:
		return true;
	case ISA_ABS:
		return c->is_signed;
	case ISA_SRA:
		return c->width > 1;
	default:
		return false;
	}
}

/* What a command that writes a destination leaves in the tags. */
static void word_tags(const isa_cmd *c, uint64_t sel, bool clobber, uint8_t *tags,
		      const ref_lanes *L)
{
	if (!tag_by_value(c)) {
		for (uint64_t s = sel; clobber && s; s &= s - 1)
			tags[__builtin_ctzll(s)] = EMU_REF_TAG_UNDEF;
		return;
	}
	for (uint64_t s = sel; s; s &= s - 1) {
		const unsigned j = (unsigned)__builtin_ctzll(s);
		const int t = tag_effect(c, L->a[j], L->b[j]);
		if (t >= 0)
			tags[j] = (uint8_t)t;
		else if (clobber)
			tags[j] = EMU_REF_TAG_UNDEF;
	}
}

/* One element-wise command on word w of array a's rows. */
static void apply_word(const emu_ref *r, const isa_cmd *c, unsigned a, unsigned w,
		       uint64_t sel, bool clobber, ref_lanes *L)
{
	uint64_t *const rows = r->rows[a];
	uint8_t *const tags = r->tags[a] + 64 * w;
	const isa_form f = isa_info_of(c->op)->form;
	if (bitwise(c)) { /* their tags do not depend on the values */
		word_bitwise(rows, r->rs, c, w, sel);
		word_tags(c, sel, clobber, tags, L);
		return;
	}
	/* A conversion's a has the source type's width. */
	const unsigned an = c->op == ISA_CVT ? c->swidth : c->width;
	const unsigned dn = f == ISA_FORM_PAB || f == ISA_FORM_PAI ? 1 : c->width;
	if (c->a != ISA_NONE)
		emu_ref_block_get(rows, r->rs, w, c->a, an, L->a);
	if (c->b != ISA_NONE)
		emu_ref_block_get(rows, r->rs, w, c->b, c->width, L->b);
	if (c->c3 != ISA_NONE)
		emu_ref_block_get(rows, r->rs, w, c->c3, c->width, L->c);
	if (emu_ref_fp_host(c))
		emu_ref_fp_run(c, L->a, L->b, L->c, L->d, 64);
	else if (c->d == ISA_TAG || !isa_ref_row(c, L->a, L->b, L->d, 64))
		word_elems(c, sel, tags, L);
	if (c->d == ISA_TAG)
		return;
	word_tags(c, sel, clobber, tags, L);
	if (f == ISA_FORM_QRAB)
		emu_ref_block_put(rows, r->rs, w, c->d2, c->width, sel, L->r2);
	emu_ref_block_put(rows, r->rs, w, c->d, dn, sel, L->d);
}

/* One element-wise command over the selected bitlines of one array.
 * Arrays share nothing here, so arrays may run on different threads. */
static void apply_array(const emu_ref *r, const isa_cmd *c, unsigned a, const uint64_t *sel,
			bool clobber)
{
	ref_lanes L;
	/* an operand the command does not read is 0, as for isa_ref_elem3 */
	if (c->a == ISA_NONE)
		memset(L.a, 0, sizeof L.a);
	if (c->b == ISA_NONE)
		memset(L.b, 0, sizeof L.b);
	if (c->c3 == ISA_NONE)
		memset(L.c, 0, sizeof L.c);
	for (unsigned w = 0; w < r->rw; w++)
		if (sel[w])
			apply_word(r, c, a, w, sel[w], clobber, &L);
}

/* A `sel` reading a tag an earlier command left undefined: the first
 * such element in the order of the command's arrays and bitlines is
 * reported, before anything is written. */
static int undef_tag_read(const emu_ref *r, size_t i, const unsigned *arr, uint64_t na,
			  const uint64_t *sel, diag *d)
{
	const emu_cmd *ec = &r->p->cmds[i];
	if (ec->c.op != ISA_SEL)
		return 0;
	for (uint64_t k = 0; k < na; k++) {
		const uint8_t *tags = r->tags[arr[k]];
		for (unsigned bl = 0; tags && bl < r->B; bl++) {
			if (!(sel[bl / 64] >> (bl % 64) & 1) || tags[bl] != EMU_REF_TAG_UNDEF)
				continue;
			const emu_cmd *by = &r->p->cmds[r->undef_by];
			/* numbered from 1, as --stats and the hazards count */
			diag_at(d, r->p->path, ec->line, 0,
				"command %zu reads the tag latch of array %u bitline %u, "
				"which command %zu (line %d) left undefined",
				i + 1, arr[k], bl, r->undef_by + 1, by->line);
			return -1;
		}
	}
	return 0;
}

/* A reduction over every bitline of one array: the result goes to
 * bitline 0 of d; the other bitlines of d keep their values. */
static void apply_reduce(emu_ref *r, const isa_cmd *c, unsigned a, bool clobber)
{
	uint64_t v[SRAM_MAX_DIM + 64];
	uint64_t *rows = emu_ref_rows(r, a, true);
	for (unsigned w = 0; w < r->rw; w++)
		emu_ref_block_get(rows, r->rs, w, c->a, c->width, v + 64 * w);
	const uint64_t x = isa_ref_reduce(c, v, r->B);
	for (unsigned k = 0; k < c->width; k++) {
		uint64_t *o = &rows[(c->d + k) * r->rs];
		*o = (*o & ~UINT64_C(1)) | (x >> k & 1);
	}
	if (clobber)
		memset(r->tags[a], EMU_REF_TAG_UNDEF, r->B);
}

/* The rows a compute command writes in each array it selects. */
static void mark_dests(emu_ref *r, const isa_cmd *c, unsigned a)
{
	const isa_form f = isa_info_of(c->op)->form;
	if (f == ISA_FORM_QRAB)
		emu_ref_mark(r, a, c->d2, c->width);
	if (c->d != ISA_TAG)
		emu_ref_mark(r, a, c->d, f == ISA_FORM_PAB || f == ISA_FORM_PAI ? 1 : c->width);
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
	unsigned *arr = (unsigned *)emu_ref_expand(r, 0, &ec->arrays, &na);
	if (!arr)
		return NULL;
	memset(r->sel_arr, 0, r->narrays);
	*n = 0;
	for (uint64_t k = 0; k < na; k++)
		if (!r->sel_arr[arr[k]]++)
			arr[(*n)++] = arr[k];
	return arr;
}

int emu_ref_compute(emu_ref *r, size_t i, diag *d)
{
	const emu_cmd *ec = &r->p->cmds[i];
	const isa_cmd *c = &ec->c;
	const bool clobber = clobbers_tag(r, c);
	uint64_t sel[SRAM_MAX_DIM / 64];
	sel_bitlines(ec, sel, r->rw);
	uint64_t na;
	const unsigned *arr = sel_arrays(r, ec, &na);
	if (!arr || undef_tag_read(r, i, arr, na, sel, d) != 0)
		return -1;
	/* Rows are allocated here, on one thread, before any is used. */
	for (uint64_t k = 0; k < na; k++) {
		emu_ref_rows(r, arr[k], true);
		mark_dests(r, c, arr[k]);
	}
	if (r->oom)
		return -1;
	if (isa_info_of(c->op)->form == ISA_FORM_RA) {
		for (uint64_t k = 0; k < na; k++)
			apply_reduce(r, c, arr[k], clobber);
	} else {
		unsigned nbl = 0;
		for (unsigned w = 0; w < r->rw; w++)
			nbl += (unsigned)__builtin_popcountll(sel[w]);
		const int nt = ref_threads(na, nbl);
		(void)nt;
#pragma omp parallel for schedule(static) num_threads(nt) if (nt > 1)
		for (uint64_t k = 0; k < na; k++)
			apply_array(r, c, arr[k], sel, clobber);
	}
	if (clobber && (isa_info_of(c->op)->form == ISA_FORM_RA || tag_effect(c, 0, 0) < 0))
		r->undef_by = i;
	return 0;
}
