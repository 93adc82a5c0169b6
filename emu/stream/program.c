/* SPDX-License-Identifier: MIT */
/*
 * program.c: the command-stream model and its invariants.
 *
 * Every emu_program is built through emu_asm (assemble.h), by the text
 * parser or the binary decoder, so "a program that parsed is valid for
 * its machine" holds whichever way it came in: buffers lie inside the
 * machine and below the scratch wordlines, never share a cell, and every
 * command's operands, patterns and micro-program constraints (isa_check)
 * have been checked once, here.
 */
#include "program.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assemble.h"
#include "layout.h"
#include "text.h"
#include "movecmd.h"

void emu_program_init(emu_program *p)
{
	memset(p, 0, sizeof *p);
	p->geom = sram_geom_default();
}

void emu_program_free(emu_program *p)
{
	free(p->path);
	free(p->bufs);
	free(p->cmds);
	free(p->marks);
	emu_program_init(p);
}

int emu_program_mark(emu_program *p, const char *name, int16_t buf, int line)
{
	emu_mark *m = realloc(p->marks, (p->nmarks + 1) * sizeof *m);
	if (!m)
		return -1;
	p->marks = m;
	m += p->nmarks++;
	memset(m, 0, sizeof *m);
	text_copy(m->name, sizeof m->name, name);
	m->buf = buf;
	m->at = p->ncmds;
	m->line = line;
	return 0;
}

const emu_mark *emu_program_strm_mark(const emu_program *p)
{
	for (size_t i = 0; i < p->nmarks; i++)
		if (p->marks[i].strm)
			return &p->marks[i];
	return NULL;
}

/* The (index + 1)-th output of Steele, Lea and Flood's splitmix64
 * generator started at seed: any element can be computed on its own, so
 * init=random gives the same data however the buffer is filled. */
uint64_t emu_random_elem(uint64_t seed, uint64_t index)
{
	uint64_t z = seed + (index + 1) * UINT64_C(0x9E3779B97F4A7C15);
	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

/* init=iota of a float or .qN buffer: i converted, saturating. */
static uint64_t iota_elem(const emu_buffer *b, uint64_t i)
{
	if (b->fmt == ISA_FMT_INT)
		return i & isa_mask(b->width);
	if (b->fmt == ISA_FMT_FIX)
		return isa_fix_from_double(b->width, (double)i) & isa_mask(b->width);
	return isa_fp_from_double(b->fmt, ISA_FL_IEEE, (double)i);
}

/* init=random of a float buffer: splitmix64's bits, whose bits 56..59
 * (above every float format) pick a class for 7 values in 16: +-0, a
 * subnormal, +-inf, a NaN (any payload), the smallest and the largest
 * binade, [1, 2); the other 9 keep the random bits, every exponent alike. */
static uint64_t random_float(const isa_fpfmt *ff, uint64_t z)
{
	const uint64_t emax = isa_mask(ff->ebits), fm = isa_mask(ff->mbits);
	const uint64_t exps[] = {0, 0, emax, emax, 1, emax - 1, ff->bias};
	const unsigned cls = (unsigned)(z >> 56) & 15;
	uint64_t v = z & isa_mask(ff->width);
	if (cls >= sizeof exps / sizeof exps[0])
		return v;
	if (cls == 0 || cls == 2)
		v &= ~fm;                       /* a zero or an infinity */
	if (cls == 3 && !(v & fm))
		v |= UINT64_C(1) << (ff->mbits - 1); /* a NaN, not an infinity */
	return (v & ~(emax << ff->mbits)) | exps[cls] << ff->mbits;
}

uint64_t emu_init_elem(const emu_buffer *b, uint64_t i)
{
	const uint64_t m = isa_mask(b->width);
	const isa_fpfmt *ff = isa_fpfmt_of(b->fmt);
	switch (b->init) {
	case EMU_INIT_IOTA: return iota_elem(b, i);
	case EMU_INIT_RANDOM:
		return ff ? random_float(ff, emu_random_elem(b->init_arg, i))
			  : emu_random_elem(b->init_arg, i) & m;
	case EMU_INIT_CONST: return b->init_arg & m;
	default: return 0;
	}
}

void emu_init_fill(const emu_buffer *b, uint64_t first, uint64_t n, uint64_t *v)
{
	const uint64_t m = isa_mask(b->width), seed = b->init_arg;
	const isa_fpfmt *ff = isa_fpfmt_of(b->fmt);
	switch (b->init) {
	case EMU_INIT_RANDOM:
		if (ff)
			for (uint64_t k = 0; k < n; k++)
				v[k] = random_float(ff, emu_random_elem(seed, first + k));
		else
			for (uint64_t k = 0; k < n; k++)
				v[k] = emu_random_elem(seed, first + k) & m;
		return;
	case EMU_INIT_CONST:
		for (uint64_t k = 0; k < n; k++)
			v[k] = seed & m;
		return;
	default:
		for (uint64_t k = 0; k < n; k++)
			v[k] = emu_init_elem(b, first + k);
	}
}

void emu_src_error(diag *d, const emu_src *s, enum emu_part part,
		   const char *fmt, ...)
{
	char msg[DIAG_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	size_t at = s->at[part] ? s->at[part] : s->at[EMU_AT_STMT];
	if (s->binary)
		diag_file(d, s->path, "word %zu: %s", at, msg);
	else
		diag_at(d, s->path, s->line, (int)at, "%s", msg);
}

static const emu_form_info forms[] = {
	[ISA_FORM_DAB] = {"d, a, b", 3, {EMU_AT_D, EMU_AT_A, EMU_AT_B}, {"d", "a", "b"}},
	[ISA_FORM_DA] = {"d, a", 2, {EMU_AT_D, EMU_AT_A}, {"d", "a"}},
	[ISA_FORM_DAI] = {"d, a, #imm", 3, {EMU_AT_D, EMU_AT_A, EMU_AT_IMM}, {"d", "a", "#imm"}},
	[ISA_FORM_DI] = {"d, #imm", 2, {EMU_AT_D, EMU_AT_IMM}, {"d", "#imm"}},
	[ISA_FORM_PAB] = {"p, a, b", 3, {EMU_AT_D, EMU_AT_A, EMU_AT_B}, {"p", "a", "b"}},
	[ISA_FORM_QRAB] = {"q, r, a, b", 4, {EMU_AT_D, EMU_AT_D2, EMU_AT_A, EMU_AT_B},
			   {"q", "r", "a", "b"}},
	[ISA_FORM_RA] = {"d, a", 2, {EMU_AT_D, EMU_AT_A}, {"d", "a"}},
	[ISA_FORM_DABC] = {"d, a, b, c", 4, {EMU_AT_D, EMU_AT_A, EMU_AT_B, EMU_AT_C},
			   {"d", "a", "b", "c"}},
	[ISA_FORM_PAI] = {"p, a, #imm", 3, {EMU_AT_D, EMU_AT_A, EMU_AT_IMM}, {"p", "a", "#imm"}},
};

const emu_form_info *emu_form_of(unsigned form)
{
	return form < sizeof forms / sizeof forms[0] ? &forms[form] : NULL;
}

/* With a text_buf, not snprintf: the JIT's assembler names every
 * command it checks (isa_type_name says why). */
int emu_cmd_name(const isa_cmd *c, char *buf, size_t size)
{
	const isa_info *in = isa_info_of(c->op);
	char d[16], a[16];
	text_buf t = text_buf_of(buf, size);
	text_put_str(&t, in ? in->name : "?");
	text_put_str(&t, ".");
	text_put_str(&t, isa_type_name(c->fmt, c->width, c->is_signed, d, sizeof d));
	if (in && isa_class_of(c->op) == ISA_CLASS_X) {
		text_put_str(&t, ".");
		text_put_str(&t, isa_type_name(c->sfmt, c->swidth, c->ssigned, a, sizeof a));
	}
	return (int)t.n;
}

int emu_mnemonic_types(const char *mnemonic, char *buf, size_t size)
{
	static const char *const text[] = {
		[ISA_CLASS_I] = ".iN/.uN", [ISA_CLASS_F] = ".f32/.f16/.bf16",
		[ISA_CLASS_Q] = ".qN", [ISA_CLASS_A] = "any type",
		[ISA_CLASS_X] = "two types, the destination's first",
	};
	int n = 0;
	for (unsigned op = 0; op < ISA_OP_COUNT; op++) {
		if (strcmp(isa_info_of(op)->name, mnemonic) != 0)
			continue;
		size_t at = (size_t)n < size ? (size_t)n : size;
		n += snprintf(buf + at, size - at, "%s%s", n ? " or " : "",
			      text[isa_class_of(op)]);
	}
	if (size && n == 0)
		buf[0] = '\0';
	return n;
}

bool emu_type_valid(unsigned fmt, unsigned width, unsigned is_signed)
{
	char name[16];
	unsigned f, w, sg;
	isa_type_name(fmt, width, is_signed, name, sizeof name);
	return isa_type_parse(name, strlen(name), &f, &w, &sg) == 0 && f == fmt &&
	       w == width && sg == is_signed;
}

const char *emu_buffer_type(const emu_buffer *b, char *buf, size_t size)
{
	return isa_type_name(b->fmt, b->width, b->is_signed, buf, size);
}

/* A type for a message, valid or not: "i8", "u0", "format 9", "f32 with
 * width 16, signedness 1". */
static const char *type_text(unsigned fmt, unsigned width, unsigned is_signed,
			     char *buf, size_t size)
{
	const isa_fpfmt *ff = isa_fpfmt_of(fmt);
	if (fmt >= ISA_FMT_COUNT)
		snprintf(buf, size, "format %u", fmt);
	else if ((ff && width != ff->width) || (fmt != ISA_FMT_INT && is_signed != 1))
		snprintf(buf, size, "%s with width %u, signedness %u",
			 ff ? ff->name : "q", width, is_signed);
	else
		isa_type_name(fmt, width, is_signed, buf, size);
	return buf;
}

bool emu_imm_is_shift(unsigned op)
{
	const isa_info *in = isa_info_of(op);
	return in && in->form == ISA_FORM_DAI && strcmp(in->family, "shift") == 0;
}

bool emu_name_reserved(const char *name, size_t len)
{
	static const char *const reserved[] = {
		"tag", "wl", "machine", "scratch", "buffer",
	};
	for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; i++)
		if (strlen(reserved[i]) == len && memcmp(reserved[i], name, len) == 0)
			return true;
	return false;
}

unsigned emu_edit_distance(const char *x, size_t xl, const char *y, size_t yl)
{
	unsigned row[33], prev[33];
	xl = xl > 32 ? 32 : xl;
	yl = yl > 32 ? 32 : yl;
	for (size_t j = 0; j <= yl; j++)
		prev[j] = (unsigned)j;
	for (size_t i = 1; i <= xl; i++) {
		row[0] = (unsigned)i;
		for (size_t j = 1; j <= yl; j++) {
			unsigned sub = prev[j - 1] + (x[i - 1] != y[j - 1]);
			unsigned del = prev[j] + 1, ins = row[j - 1] + 1;
			row[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
		}
		memcpy(prev, row, sizeof row);
	}
	return prev[yl];
}

/* ---- the assembler's state ---- */

void emu_asm_init(emu_asm *a, emu_program *p, diag *d)
{
	memset(a, 0, sizeof *a);
	a->p = p;
	a->d = d;
	a->narrays = (uint64_t)p->geom.arrays_per_way * p->geom.ways_per_bank *
		     p->geom.mesh_x * p->geom.mesh_y;
}

void emu_asm_free(emu_asm *a)
{
	free(a->hash);
	free(a->amark);
	free(a->bmark);
	a->hash = NULL;
	a->amark = a->bmark = NULL;
}

static uint64_t name_hash(const char *s, size_t len)
{
	uint64_t h = UINT64_C(1469598103934665603); /* FNV-1a */
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * UINT64_C(1099511628211);
	return h;
}

int emu_asm_find(const emu_asm *a, const char *name, size_t len)
{
	if (!a->hashcap || len >= EMU_NAME_MAX)
		return -1;
	for (size_t i = name_hash(name, len) & (a->hashcap - 1);;
	     i = (i + 1) & (a->hashcap - 1)) {
		uint32_t v = a->hash[i];
		if (!v)
			return -1;
		const char *n = a->p->bufs[v - 1].name;
		if (strncmp(n, name, len) == 0 && n[len] == '\0')
			return (int)(v - 1);
	}
}

static int hash_insert(emu_asm *a, size_t idx)
{
	if ((a->p->nbufs + 1) * 2 > a->hashcap) {
		size_t cap = a->hashcap ? a->hashcap * 2 : 64;
		uint32_t *h = calloc(cap, sizeof *h);
		if (!h)
			return -1;
		free(a->hash);
		a->hash = h;
		a->hashcap = cap;
		for (size_t i = 0; i < a->p->nbufs; i++)
			if (i != idx && hash_insert(a, i))
				return -1;
	}
	const char *n = a->p->bufs[idx].name;
	size_t i = name_hash(n, strlen(n)) & (a->hashcap - 1);
	while (a->hash[i])
		i = (i + 1) & (a->hashcap - 1);
	a->hash[i] = (uint32_t)idx + 1;
	return 0;
}

const char *emu_asm_closest(const emu_asm *a, const char *name, size_t len)
{
	const char *best = NULL;
	unsigned bd = 3;
	for (size_t i = 0; i < a->p->nbufs; i++) {
		const char *n = a->p->bufs[i].name;
		unsigned dist = emu_edit_distance(name, len, n, strlen(n));
		if (dist < bd && dist < len) {
			bd = dist;
			best = n;
		}
	}
	return best;
}

static void *grow(void *v, size_t *cap, size_t n, size_t elem)
{
	if (n < *cap)
		return v;
	size_t c = *cap ? *cap * 2 : 16;
	if (c > SIZE_MAX / elem)
		return NULL;
	void *nv = realloc(v, c * elem);
	if (nv)
		*cap = c;
	return nv;
}

/* ---- marks: one bit per array or bitline, all clear between uses ---- */

static uint64_t *marks(emu_asm *a, bool arrays)
{
	uint64_t **m = arrays ? &a->amark : &a->bmark;
	uint64_t n = arrays ? a->narrays : a->p->geom.bitlines;
	if (!*m)
		*m = calloc((size_t)(n + 63) / 64, sizeof **m);
	return *m;
}

static bool test_mark(const uint64_t *m, int64_t v)
{
	return (m[(uint64_t)v / 64] >> ((uint64_t)v % 64)) & 1;
}

static void set_marks(uint64_t *m, const emu_pattern *p, bool on)
{
	uint64_t n = emu_pattern_size(p);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t v = (uint64_t)emu_pattern_at(p, i);
		if (on)
			m[v / 64] |= UINT64_C(1) << (v % 64);
		else
			m[v / 64] &= ~(UINT64_C(1) << (v % 64));
	}
}

static uint64_t magnitude(int64_t v)
{
	return v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
}

/* Are p's elements certainly all different?  Yes when, taking the
 * dimensions by increasing |stride|, each stride exceeds the span of
 * those before: a box (x + y*S1 : 1:Q1 : S1:Q2 with Q1 <= S1) and
 * anything nested like one.  Cheap, so a stream of commands on the same
 * tiles does not pay for marking every element. */
static bool plainly_distinct(const emu_pattern *p)
{
	bool taken[EMU_PAT_MAX_DIMS] = {false};
	uint64_t span = 0;
	for (unsigned t = 0; t < p->ndims; t++) {
		unsigned k = EMU_PAT_MAX_DIMS;
		for (unsigned j = 0; j < p->ndims; j++)
			if (!taken[j] && (k == EMU_PAT_MAX_DIMS ||
					  magnitude(p->stride[j]) < magnitude(p->stride[k])))
				k = j;
		taken[k] = true;
		if (p->count[k] <= 1)
			continue;
		const uint64_t st = magnitude(p->stride[k]);
		if (st <= span ||
		    __builtin_add_overflow(span, st * (p->count[k] - 1), &span))
			return false;
	}
	return true;
}

/* First element that p repeats, -1 if none, -2 out of memory (p's
 * elements are in range). */
static int64_t first_repeat(emu_asm *a, const emu_pattern *p, bool arrays)
{
	if (plainly_distinct(p))
		return -1;
	uint64_t *m = marks(a, arrays), n = emu_pattern_size(p);
	int64_t rep = -1;
	if (!m)
		return -2;
	for (uint64_t i = 0; i < n && rep < 0; i++) {
		int64_t v = emu_pattern_at(p, i);
		if (test_mark(m, v))
			rep = v;
		m[(uint64_t)v / 64] |= UINT64_C(1) << ((uint64_t)v % 64);
	}
	set_marks(m, p, false);
	return rep;
}

static void oom(emu_asm *a, const emu_src *s)
{
	emu_src_error(a->d, s, EMU_AT_STMT, "out of memory");
}

static const char *pat_text(const emu_pattern *p, char buf[EMU_PAT_TEXT])
{
	emu_pattern_format(p, buf, EMU_PAT_TEXT);
	return buf;
}

/* An array or bitline selection: a valid pattern, not empty, inside the
 * machine, each element once.  The last pattern found valid is kept:
 * streams repeat their selections. */
static int check_selection(emu_asm *a, const emu_pattern *p, bool arrays,
			   const emu_src *s, enum emu_part part)
{
	const char *what = arrays ? "array" : "bitline";
	const uint64_t limit = arrays ? a->narrays : a->p->geom.bitlines;
	char pt[EMU_PAT_TEXT];
	unsigned dim;
	int64_t lo, hi, rep;
	if (a->ok_sel_set[arrays] && emu_pattern_equal(p, &a->ok_sel[arrays]))
		return 0;
	const char *e = emu_pattern_check(p, &dim);
	if (e) {
		emu_src_error(a->d, s, part, "%s pattern %s: %s", what, pat_text(p, pt), e);
		return -1;
	}
	const uint64_t n = emu_pattern_size(p);
	if (n == 0) {
		emu_src_error(a->d, s, part, "the %s pattern %s is empty; expected at least one %s",
			      what, pat_text(p, pt), what);
		return -1;
	}
	emu_pattern_bounds(p, &lo, &hi);
	if (lo < 0 || (uint64_t)hi >= limit) {
		emu_src_error(a->d, s, part,
			      "%s %" PRId64 " of the pattern %s is out of range; expected 0 to %" PRIu64
			      " (%s %" PRIu64 " %ss)", what, lo < 0 ? lo : hi, pat_text(p, pt),
			      limit - 1, arrays ? "the machine has" : "an array has", limit, what);
		return -1;
	}
	if (n > limit) {
		emu_src_error(a->d, s, part, "the %s pattern %s has %" PRIu64 " elements, more "
			      "than the %" PRIu64 " %ss there are", what, pat_text(p, pt), n,
			      limit, what);
		return -1;
	}
	if ((rep = first_repeat(a, p, arrays)) == -2) {
		oom(a, s);
		return -1;
	}
	if (rep >= 0) {
		emu_src_error(a->d, s, part, "%s %" PRId64 " appears twice in the pattern %s",
			      what, rep, pat_text(p, pt));
		return -1;
	}
	a->ok_sel[arrays] = *p;
	a->ok_sel_set[arrays] = true;
	return 0;
}

/* Where buffer i was declared: "line 3", or "buffer #0" if decoded. */
static const char *buf_where(const emu_asm *a, size_t i, char *out, size_t size)
{
	const emu_buffer *b = &a->p->bufs[i];
	if (b->line > 0)
		snprintf(out, size, "line %d", b->line);
	else
		snprintf(out, size, "buffer #%zu", i);
	return out;
}

/* ---- buffers ---- */

static int check_buffer_name(emu_asm *a, const emu_buffer *b, const emu_src *s)
{
	size_t len = strnlen(b->name, EMU_NAME_MAX);
	bool ok = len > 0 && len < EMU_NAME_MAX && text_is_ident_start(b->name[0]);
	for (size_t i = 1; ok && i < len; i++)
		ok = text_is_ident_char(b->name[i]);
	if (!ok) {
		emu_src_error(a->d, s, EMU_AT_NAME, "a buffer name must be an identifier "
			      "[A-Za-z_][A-Za-z0-9_]* of 1 to %d characters", EMU_NAME_MAX - 1);
		return -1;
	}
	if (emu_name_reserved(b->name, len)) {
		emu_src_error(a->d, s, EMU_AT_NAME, "'%s' is a reserved word; choose another "
			      "buffer name", b->name);
		return -1;
	}
	int other = emu_asm_find(a, b->name, len);
	if (other >= 0) {
		char w[64];
		emu_src_error(a->d, s, EMU_AT_NAME, "buffer '%s' is already declared (%s)",
			      b->name, buf_where(a, (size_t)other, w, sizeof w));
		return -1;
	}
	if (a->p->nbufs >= INT16_MAX) {
		emu_src_error(a->d, s, EMU_AT_NAME, "too many buffers; at most %d", INT16_MAX);
		return -1;
	}
	return 0;
}

static int check_buffer_scratch(emu_asm *a, const emu_buffer *b, const emu_src *s)
{
	const unsigned rows = emu_buffer_rows(b, &a->p->geom);
	if (a->scratch_set && (unsigned)b->wl + rows > a->p->scratch) {
		emu_src_error(a->d, s, EMU_AT_WL, "buffer '%s' (wordlines %u..%u) reaches into "
			      "the scratch wordlines, which start at %u", b->name, b->wl,
			      b->wl + rows - 1, a->p->scratch);
		return -1;
	}
	return 0;
}

static int check_tensor_shape(emu_asm *a, const emu_buffer *b, const emu_src *s);

static int check_buffer_shape(emu_asm *a, const emu_buffer *b, const emu_src *s)
{
	const sram_geom *g = &a->p->geom;
	char tn[64];
	if (!emu_type_valid(b->fmt, b->width, b->is_signed)) {
		emu_src_error(a->d, s, EMU_AT_TYPE, "element type %s is not valid; expected "
			      EMU_TYPE_LIST, type_text(b->fmt, b->width, b->is_signed, tn, sizeof tn));
		return -1;
	}
	if (b->ndims)
		return check_tensor_shape(a, b, s);
	if (b->length == 0 || b->length > a->narrays * g->bitlines) {
		emu_src_error(a->d, s, EMU_AT_LENGTH, "buffer length %" PRIu64 " is out of range; "
			      "expected 1 to %" PRIu64 " (every bitline of the machine)",
			      b->length, a->narrays * g->bitlines);
		return -1;
	}
	if ((unsigned)b->wl + b->width > g->wordlines) {
		emu_src_error(a->d, s, EMU_AT_WL, "buffer '%s' needs wordlines %u..%u, past the "
			      "last wordline %u", b->name, b->wl, b->wl + b->width - 1,
			      g->wordlines - 1);
		return -1;
	}
	if (check_buffer_scratch(a, b, s))
		return -1;
	/* Exactly the arrays its elements fill: then the arrays a command
	 * selects by default (a buffer's) all hold the buffer. */
	const uint64_t need = (b->length + g->bitlines - 1) / g->bitlines;
	unsigned dim;
	if (!emu_pattern_check(&b->arrays, &dim) && emu_pattern_size(&b->arrays) != need) {
		char pat[EMU_PAT_TEXT];
		emu_pattern_format(&b->arrays, pat, sizeof pat);
		emu_src_error(a->d, s, EMU_AT_ARRAYS, "buffer '%s' has %" PRIu64 " elements, "
			      "which fill %" PRIu64 " array%s of %u bitlines, but its array pattern "
			      "%s has %" PRIu64, b->name, b->length, need, need == 1 ? "" : "s",
			      g->bitlines, pat,
			      emu_pattern_size(&b->arrays));
		return -1;
	}
	return check_selection(a, &b->arrays, true, s, EMU_AT_ARRAYS);
}

static int check_buffer_init(emu_asm *a, const emu_buffer *b, const emu_src *s)
{
	if (b->init > EMU_INIT_CONST) {
		emu_src_error(a->d, s, EMU_AT_INIT, "unknown init kind %u; expected 0 to %u",
			      (unsigned)b->init, (unsigned)EMU_INIT_CONST);
		return -1;
	}
	if (b->init == EMU_INIT_CONST && (b->init_arg & ~isa_mask(b->width))) {
		emu_src_error(a->d, s, EMU_AT_INIT_VALUE, "init value 0x%" PRIx64 " does not fit in %u bits",
			      b->init_arg, b->width);
		return -1;
	}
	if (b->init != EMU_INIT_CONST && b->init != EMU_INIT_RANDOM && b->init_arg) {
		emu_src_error(a->d, s, EMU_AT_INIT_VALUE, "this init kind takes no value, found %" PRIu64,
			      b->init_arg);
		return -1;
	}
	return 0;
}

/* First array that both buffers hold, or -1; x's arrays are marked. */
static int64_t shared_array(const uint64_t *m, const emu_buffer *y)
{
	uint64_t n = emu_pattern_size(&y->arrays);
	for (uint64_t i = 0; i < n; i++) {
		int64_t v = emu_pattern_at(&y->arrays, i);
		if (test_mark(m, v))
			return v;
	}
	return -1;
}

static bool ranges_meet(int64_t a0, int64_t a1, int64_t b0, int64_t b1)
{
	return a0 <= b1 && b0 <= a1;
}

static int check_buffer_overlap(emu_asm *a, const emu_buffer *b, const emu_src *s)
{
	int64_t lo, hi, ylo, yhi, hit = -1;
	uint64_t *m = NULL;
	bool marked = false;
	size_t i;
	const sram_geom *g = &a->p->geom;
	const unsigned rows = emu_buffer_rows(b, g);
	emu_pattern_bounds(&b->arrays, &lo, &hi);
	for (i = 0; i < a->p->nbufs && hit < 0; i++) {
		const emu_buffer *y = &a->p->bufs[i];
		if (b->shared && y->shared)
			continue;
		emu_pattern_bounds(&y->arrays, &ylo, &yhi);
		if (!ranges_meet(b->wl, b->wl + rows - 1, y->wl,
				 y->wl + emu_buffer_rows(y, g) - 1) ||
		    !ranges_meet(lo, hi, ylo, yhi))
			continue;
		if (!m && !(m = marks(a, true))) {
			oom(a, s);
			return -1;
		}
		if (!marked)
			set_marks(m, &b->arrays, true);
		marked = true;
		hit = shared_array(m, y);
	}
	if (marked)
		set_marks(m, &b->arrays, false);
	if (hit < 0)
		return 0;
	const emu_buffer *y = &a->p->bufs[i - 1];
	char w[64];
	emu_src_error(a->d, s, EMU_AT_WL, "buffer '%s' (wordlines %u..%u) overlaps buffer "
		      "'%s' (wordlines %u..%u, %s) in array %" PRId64, b->name, b->wl,
		      b->wl + rows - 1, y->name, y->wl, y->wl + emu_buffer_rows(y, g) - 1,
		      buf_where(a, i - 1, w, sizeof w), hit);
	return -1;
}

int emu_asm_buffer(emu_asm *a, const emu_buffer *b, const emu_src *s)
{
	if (b->shared && !b->ndims) {
		emu_src_error(a->d, s, EMU_AT_TYPE, "buffer '%s' is shared, which only a tensor "
			      "may be", b->name);
		return -1;
	}
	if (check_buffer_name(a, b, s) || check_buffer_shape(a, b, s) ||
	    check_buffer_init(a, b, s) || check_buffer_overlap(a, b, s))
		return -1;
	emu_program *p = a->p;
	emu_buffer *nb = grow(p->bufs, &a->bufcap, p->nbufs, sizeof *nb);
	if (!nb) {
		oom(a, s);
		return -1;
	}
	p->bufs = nb;
	p->bufs[p->nbufs] = *b;
	if (hash_insert(a, p->nbufs)) {
		oom(a, s);
		return -1;
	}
	p->nbufs++;
	return 0;
}

int emu_asm_scratch(emu_asm *a, unsigned scratch, const emu_src *s)
{
	const unsigned W = a->p->geom.wordlines;
	if (scratch > W) {
		emu_src_error(a->d, s, EMU_AT_WL, "scratch wordline %u is out of range; expected "
			      "0 to %u (the machine has %u wordlines)", scratch, W, W);
		return -1;
	}
	for (size_t i = 0; i < a->p->nbufs; i++) {
		const emu_buffer *b = &a->p->bufs[i];
		char w[64];
		const unsigned rows = emu_buffer_rows(b, &a->p->geom);
		if ((unsigned)b->wl + rows > scratch) {
			emu_src_error(a->d, s, EMU_AT_WL, "scratch wordlines from %u would overlap "
				      "buffer '%s' (wordlines %u..%u, %s)", scratch, b->name,
				      b->wl, b->wl + rows - 1, buf_where(a, i, w, sizeof w));
			return -1;
		}
	}
	a->p->scratch = (uint16_t)scratch;
	a->scratch_set = true;
	return 0;
}

void emu_asm_default_scratch(emu_asm *a)
{
	if (a->scratch_set)
		return;
	unsigned top = 0;
	for (size_t i = 0; i < a->p->nbufs; i++) {
		const emu_buffer *b = &a->p->bufs[i];
		unsigned end = (unsigned)b->wl + emu_buffer_rows(b, &a->p->geom);
		top = end > top ? end : top;
	}
	a->p->scratch = (uint16_t)top;
	a->scratch_set = true;
}

/* ---- commands ---- */

/* Operand slot k of a command: 0 d, 1 d2, 2 a, 3 b, 4 c. */
#define SLOTS 5
static uint16_t slot_wl(const emu_cmd *c, unsigned k)
{
	const uint16_t wl[SLOTS] = {c->c.d, c->c.d2, c->c.a, c->c.b, c->c.c3};
	return wl[k];
}

static int16_t slot_buf(const emu_cmd *c, unsigned k)
{
	const int16_t b[SLOTS] = {c->buf_d, c->buf_d2, c->buf_a, c->buf_b, c->buf_c};
	return b[k];
}

/* Which of d, d2, a, b, c the form uses, and their names there. */
static bool slot_used(const emu_form_info *f, unsigned k, const char **name)
{
	static const char *const names[SLOTS] = {"d", "d2", "a", "b", "c"};
	for (unsigned i = 0; i < f->nops; i++)
		if (f->ops[i] == EMU_AT_D + k) {
			*name = f->names[i];
			return true;
		}
	*name = names[k];
	return false;
}

void emu_asm_settings(const emu_asm *a, isa_cmd *c)
{
	c->flags = a->p->geom.fp_ieee ? ISA_FL_IEEE : 0;
	c->iters = (uint8_t)emu_geom_cordic(&a->p->geom);
}

/* A command's types: valid, taken by the command (its CLASS), and for a
 * conversion a source type that differs; no source type otherwise. */
static int check_cmd_types(emu_asm *a, const emu_cmd *c, const emu_src *s)
{
	const isa_cmd *ic = &c->c;
	const char *mn = isa_info_of(ic->op)->name;
	const bool conv = isa_class_of(ic->op) == ISA_CLASS_X;
	char tn[64], types[128];
	if (!emu_type_valid(ic->fmt, ic->width, ic->is_signed) ||
	    (conv && !emu_type_valid(ic->sfmt, ic->swidth, ic->ssigned))) {
		const bool src = emu_type_valid(ic->fmt, ic->width, ic->is_signed);
		emu_src_error(a->d, s, EMU_AT_STMT, "%s: %selement type %s is not valid; expected "
			      EMU_TYPE_LIST, mn, src ? "source " : "",
			      src ? type_text(ic->sfmt, ic->swidth, ic->ssigned, tn, sizeof tn)
				  : type_text(ic->fmt, ic->width, ic->is_signed, tn, sizeof tn));
		return -1;
	}
	if (!isa_class_takes(isa_class_of(ic->op), ic->fmt)) {
		emu_mnemonic_types(mn, types, sizeof types);
		emu_src_error(a->d, s, EMU_AT_STMT, "'%s' (command number %u) does not take .%s "
			      "elements; it takes %s", mn, ic->op,
			      isa_type_name(ic->fmt, ic->width, ic->is_signed, tn, sizeof tn), types);
		return -1;
	}
	if (conv && ic->sfmt == ic->fmt && ic->swidth == ic->width && ic->ssigned == ic->is_signed) {
		isa_type_name(ic->fmt, ic->width, ic->is_signed, tn, sizeof tn);
		emu_src_error(a->d, s, EMU_AT_STMT, "%s.%s.%s converts a type to itself", mn, tn, tn);
		return -1;
	}
	if (!conv && (ic->sfmt || ic->swidth || ic->ssigned)) {
		emu_src_error(a->d, s, EMU_AT_STMT, "%s takes no source type (only cvt does)", mn);
		return -1;
	}
	return 0;
}

static int check_cmd_head(emu_asm *a, const emu_cmd *c, const emu_src *s)
{
	if (c->c.op >= ISA_OP_COUNT) {
		emu_src_error(a->d, s, EMU_AT_STMT, "unknown command number %u; expected 0 to %u",
			      c->c.op, ISA_OP_COUNT - 1);
		return -1;
	}
	if (check_cmd_types(a, c, s))
		return -1;
	isa_cmd want = c->c;
	emu_asm_settings(a, &want);
	if (want.flags != c->c.flags || want.iters != c->c.iters) {
		char cn[40];
		emu_cmd_name(&c->c, cn, sizeof cn);
		emu_src_error(a->d, s, EMU_AT_STMT, "%s: its settings (flags 0x%x, cordic=%u) are "
			      "not the machine's (flags 0x%x from fp=, cordic=%u)", cn, c->c.flags,
			      c->c.iters, want.flags, want.iters);
		return -1;
	}
	return 0;
}

/* The type operand slot k holds: a 1-bit predicate, cvt's source, or
 * the command's type. */
static void slot_type(const emu_cmd *c, unsigned k, unsigned *fmt, unsigned *width,
		      unsigned *is_signed)
{
	const isa_form f = isa_info_of(c->c.op)->form;
	*fmt = c->c.fmt;
	*width = c->c.width;
	*is_signed = c->c.is_signed;
	if (k == 0 && (f == ISA_FORM_PAB || f == ISA_FORM_PAI)) {
		*fmt = ISA_FMT_INT;
		*width = 1;
	} else if (k == 2 && isa_class_of(c->c.op) == ISA_CLASS_X) {
		*fmt = c->c.sfmt;
		*width = c->c.swidth;
		*is_signed = c->c.ssigned;
	}
}

/* Does buffer b hold elements of the slot's type?  Integers match by
 * width (an i32 buffer may be added as u32); other formats exactly. */
static int check_operand_type(emu_asm *a, const emu_cmd *c, unsigned k,
			      const emu_buffer *b, const emu_src *s)
{
	const enum emu_part part = (enum emu_part)(EMU_AT_D + k);
	const bool source = k == 2 && isa_class_of(c->c.op) == ISA_CLASS_X;
	unsigned fmt, width, sg;
	char cn[40], bt[16], want[16];
	slot_type(c, k, &fmt, &width, &sg);
	if (b->fmt == fmt && b->width == width)
		return 0;
	emu_cmd_name(&c->c, cn, sizeof cn);
	emu_buffer_type(b, bt, sizeof bt);
	if (width == 1 && k == 0)
		emu_src_error(a->d, s, part, "%s: buffer '%s' is %s, but the destination of a "
			      "compare must be 1 bit wide (an i1 or u1 buffer, wl:N or tag)", cn,
			      b->name, bt);
	else if (fmt == ISA_FMT_INT && b->fmt == ISA_FMT_INT && !source)
		emu_src_error(a->d, s, part, "%s: buffer '%s' is %s, but the command works on "
			      "%u-bit elements", cn, b->name, bt, width);
	else
		emu_src_error(a->d, s, part, "%s: buffer '%s' is %s, but the command %s %s "
			      "elements", cn, b->name, bt, source ? "converts from" : "works on",
			      isa_type_name(fmt, width, sg, want, sizeof want));
	return -1;
}

static int check_operand_buffer(emu_asm *a, const emu_cmd *c, unsigned k,
				const char *nm, const emu_src *s)
{
	const int16_t bi = slot_buf(c, k);
	const enum emu_part part = (enum emu_part)(EMU_AT_D + k);
	char cn[40];
	emu_cmd_name(&c->c, cn, sizeof cn);
	if ((size_t)bi >= a->p->nbufs) {
		emu_src_error(a->d, s, part, "%s: operand %s names buffer %d, but there are %zu",
			      cn, nm, bi, a->p->nbufs);
		return -1;
	}
	const emu_buffer *b = &a->p->bufs[bi];
	if (b->wl != slot_wl(c, k)) {
		emu_src_error(a->d, s, part, "%s: operand %s is at wordline %u, but buffer '%s' "
			      "is at wordline %u", cn, nm, slot_wl(c, k), b->name, b->wl);
		return -1;
	}
	return check_operand_type(a, c, k, b, s);
}

static int check_operand_raw(emu_asm *a, const emu_cmd *c, unsigned k,
			     const char *nm, unsigned rows, const emu_src *s)
{
	const uint16_t wl = slot_wl(c, k);
	const unsigned W = a->p->geom.wordlines;
	const enum emu_part part = (enum emu_part)(EMU_AT_D + k);
	char cn[40];
	emu_cmd_name(&c->c, cn, sizeof cn);
	if (slot_buf(c, k) != -1) {
		emu_src_error(a->d, s, part, "%s: operand %s has a bad buffer index %d", cn, nm,
			      slot_buf(c, k));
		return -1;
	}
	if (wl == ISA_TAG && k != 0) {
		emu_src_error(a->d, s, part, "%s: the tag latch can only be a destination, "
			      "not operand %s", cn, nm);
		return -1;
	}
	if (wl == ISA_NONE) {
		emu_src_error(a->d, s, part, "%s: operand %s is missing", cn, nm);
		return -1;
	}
	if (wl != ISA_TAG && wl + rows > W) {
		emu_src_error(a->d, s, part, "%s: operand %s needs wordlines %u..%u, past the "
			      "last wordline %u", cn, nm, wl, wl + rows - 1, W - 1);
		return -1;
	}
	return 0;
}

static int check_cmd_operands(emu_asm *a, const emu_cmd *c, const emu_src *s)
{
	const isa_info *in = isa_info_of(c->c.op);
	const emu_form_info *f = emu_form_of(in->form);
	for (unsigned k = 0; k < SLOTS; k++) {
		const char *nm;
		const bool used = slot_used(f, k, &nm);
		unsigned fmt, rows, sg;
		slot_type(c, k, &fmt, &rows, &sg);
		if (!used) {
			if (slot_wl(c, k) != ISA_NONE ||
			    slot_buf(c, k) != -1) {
				emu_src_error(a->d, s, EMU_AT_STMT, "%s takes no operand %s "
					      "(its operands are %s)", in->name, nm, f->syntax);
				return -1;
			}
			continue;
		}
		int rc = slot_buf(c, k) >= 0
				 ? check_operand_buffer(a, c, k, nm, s)
				 : check_operand_raw(a, c, k, nm, rows, s);
		if (rc)
			return -1;
	}
	return 0;
}

static int check_cmd_imm(emu_asm *a, const emu_cmd *c, const emu_src *s)
{
	const isa_info *in = isa_info_of(c->c.op);
	const unsigned n = c->c.width;
	char cn[40];
	emu_cmd_name(&c->c, cn, sizeof cn);
	if (in->form != ISA_FORM_DAI && in->form != ISA_FORM_DI && in->form != ISA_FORM_PAI) {
		if (c->c.imm) {
			emu_src_error(a->d, s, EMU_AT_STMT, "%s takes no immediate, found %" PRIu64,
				      cn, c->c.imm);
			return -1;
		}
		return 0;
	}
	if (c->c.imm & ~isa_mask(n)) {
		emu_src_error(a->d, s, EMU_AT_IMM, "%s: immediate 0x%" PRIx64 " does not fit "
			      "in %u bits", cn, c->c.imm, n);
		return -1;
	}
	if (emu_imm_is_shift(c->c.op) && c->c.imm >= n) {
		emu_src_error(a->d, s, EMU_AT_IMM, "%s: shift amount %" PRIu64 " is out of "
			      "range; expected 0 to %u", cn, c->c.imm, n - 1);
		return -1;
	}
	return 0;
}

static int check_cmd_reduce(emu_asm *a, const emu_cmd *c, const emu_src *s)
{
	const unsigned B = a->p->geom.bitlines;
	if (isa_info_of(c->c.op)->form != ISA_FORM_RA ||
	    emu_pattern_size(&c->bitlines) == B)
		return 0; /* distinct and in range: every bitline */
	char cn[40], pat[EMU_PAT_TEXT];
	emu_cmd_name(&c->c, cn, sizeof cn);
	emu_pattern_format(&c->bitlines, pat, sizeof pat);
	emu_src_error(a->d, s, EMU_AT_BITLINES, "%s reduces whole arrays: it needs every "
		      "bitline selected (bitlines=0:1:%u), not %s", cn, B, pat);
	return -1;
}

/* The first selected array that the buffer b does not hold, or -1.  A
 * buffer on one run of consecutive arrays (the usual layout) needs only
 * the bounds; any other is marked. */
static int64_t first_missing(emu_asm *a, const emu_buffer *b, const emu_pattern *sel)
{
	const emu_pattern *bp = &b->arrays;
	const uint64_t n = emu_pattern_size(sel);
	int64_t lo, hi, slo, shi, miss = -1;
	emu_pattern_bounds(bp, &lo, &hi);
	emu_pattern_bounds(sel, &slo, &shi);
	if (bp->ndims == 0 || (bp->ndims == 1 && magnitude(bp->stride[0]) == 1)) {
		if (slo >= lo && shi <= hi)
			return -1;
		for (uint64_t i = 0; i < n && miss < 0; i++) {
			int64_t v = emu_pattern_at(sel, i);
			miss = v < lo || v > hi ? v : -1;
		}
		return miss;
	}
	uint64_t *m = marks(a, true);
	if (!m)
		return -2;
	set_marks(m, bp, true);
	for (uint64_t i = 0; i < n && miss < 0; i++)
		if (!test_mark(m, emu_pattern_at(sel, i)))
			miss = emu_pattern_at(sel, i);
	set_marks(m, bp, false);
	return miss;
}

/* Each buffer operand must hold every selected array, so that what the
 * command does there is what the scalar reference does to its elements. */
static int check_cmd_occupancy(emu_asm *a, const emu_cmd *c, const emu_src *s)
{
	for (unsigned k = 0; k < SLOTS; k++) {
		const int16_t bi = slot_buf(c, k);
		if (bi < 0 || emu_pattern_equal(&a->p->bufs[bi].arrays, &c->arrays))
			continue;
		const emu_buffer *b = &a->p->bufs[bi];
		const int64_t miss = first_missing(a, b, &c->arrays);
		if (miss == -2) {
			oom(a, s);
			return -1;
		}
		if (miss >= 0) {
			char pt[EMU_PAT_TEXT];
			/* Point at arrays= if it was written, else at the operand. */
			emu_src_error(a->d, s, s->at[EMU_AT_ARRAYS] ? EMU_AT_ARRAYS
					       : (enum emu_part)(EMU_AT_D + k),
				      "buffer '%s' does not hold array %" PRId64 ", which the "
				      "command selects ('%s' is on arrays %s)", b->name, miss,
				      b->name, pat_text(&b->arrays, pt));
			return -1;
		}
	}
	return 0;
}

static int check_cmd_isa(emu_asm *a, const emu_cmd *c, const emu_src *s)
{
	isa_rules r;
	const sram_geom *g = &a->p->geom;
	const char *e = isa_check(&c->c, g->wordlines, g->bitlines, &r);
	if (!e)
		return 0;
	char cn[40];
	emu_cmd_name(&c->c, cn, sizeof cn);
	if (r.scratch_rows > c->c.scratch_rows)
		emu_src_error(a->d, s, EMU_AT_STMT, "%s: %s (it needs %u scratch wordlines; the "
			      "program has %u, from wordline %u)", cn, e, r.scratch_rows,
			      c->c.scratch_rows, c->c.scratch);
	else
		emu_src_error(a->d, s, EMU_AT_STMT, "%s: %s", cn, e);
	return -1;
}

/* A compute command works on one wordline range in every array; a
 * tensor whose tile is wider than an array keeps its groups at other
 * wordlines, so a compute command would see only group 0. */
static int check_cmd_tensors(emu_asm *a, const emu_cmd *c, const emu_src *s)
{
	for (unsigned k = 0; k < SLOTS; k++) {
		const int16_t bi = slot_buf(c, k);
		if (bi < 0)
			continue;
		const emu_buffer *b = &a->p->bufs[bi];
		if (!b->ndims || emu_buffer_rows(b, &a->p->geom) == b->width)
			continue;
		emu_src_error(a->d, s, (enum emu_part)(EMU_AT_D + k), "tensor '%s' has tiles of "
			      "%" PRIu64 " bitlines on arrays of %u (virtual bitlines at %u wordline "
			      "groups), so a compute command cannot reach all its elements at one "
			      "wordline range; expected a tensor whose tile has at most %u bitlines",
			      b->name, b->tile[0] * b->tile[1] * b->tile[2], a->p->geom.bitlines,
			      emu_buffer_rows(b, &a->p->geom) / b->width, a->p->geom.bitlines);
		return -1;
	}
	return 0;
}

static int push_cmd(emu_asm *a, const emu_cmd *c, const emu_src *s)
{
	emu_program *p = a->p;
	emu_cmd *nc = grow(p->cmds, &a->cmdcap, p->ncmds, sizeof *nc);
	if (!nc) {
		oom(a, s);
		return -1;
	}
	p->cmds = nc;
	p->cmds[p->ncmds++] = *c;
	return 0;
}

int emu_asm_cmd(emu_asm *a, emu_cmd *c, const emu_src *s)
{
	emu_asm_default_scratch(a);
	c->c.scratch = a->p->scratch;
	c->c.scratch_rows = (uint16_t)(a->p->geom.wordlines - a->p->scratch);
	if (check_cmd_head(a, c, s) || check_cmd_operands(a, c, s) ||
	    check_cmd_imm(a, c, s) ||
	    check_selection(a, &c->arrays, true, s, EMU_AT_ARRAYS) ||
	    check_selection(a, &c->bitlines, false, s, EMU_AT_BITLINES) ||
	    check_cmd_reduce(a, c, s) || check_cmd_occupancy(a, c, s) ||
	    check_cmd_tensors(a, c, s) || check_cmd_isa(a, c, s))
		return -1;
	c->kind = EMU_CMD_COMPUTE;
	return push_cmd(a, c, s);
}

/* ---- tensors: N-d tiled buffers (layout.h) ---- */

void emu_buffer_region(const emu_buffer *b, struct emu_region *r)
{
	emu_region_init(r, b->name, b->fmt, b->width, b->is_signed);
	r->ndims = b->ndims;
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++) {
		r->size[k] = b->shape[k];
		r->tile[k] = b->tile[k];
	}
	r->wl = b->wl;
	r->array0 = (uint32_t)b->arrays.start;
	r->trans = EMU_TRANS_DONE; /* a stream's tensors are loaded transposed */
	r->shared = b->shared;
	r->line = b->line;
	r->col = b->col;
}

unsigned emu_buffer_rows(const emu_buffer *b, const sram_geom *g)
{
	if (!b->ndims)
		return b->width;
	/* Only the tile and the width decide the rows: no whole region (its
	 * name is copied), since the assembler asks this for every pair of
	 * buffers. */
	emu_region r = {.width = (uint8_t)b->width, .ndims = (uint8_t)b->ndims};
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++)
		r.tile[k] = b->tile[k];
	return (unsigned)emu_region_rows(&r, g);
}

void emu_placer_init(emu_placer *pl, const emu_buffer *b, const sram_geom *g)
{
	pl->b = b;
	pl->g = g;
	if (b->ndims)
		emu_buffer_region(b, &pl->r);
}

void emu_placer_at(const emu_placer *pl, uint64_t i, unsigned *array,
		   unsigned *bitline, unsigned *wl)
{
	const emu_buffer *b = pl->b;
	if (!b->ndims) {
		*array = (unsigned)emu_pattern_at(&b->arrays, i / pl->g->bitlines);
		*bitline = (unsigned)(i % pl->g->bitlines);
		*wl = b->wl;
		return;
	}
	uint64_t idx[EMU_LAYOUT_DIMS];
	emu_loc loc;
	emu_region_unflatten(&pl->r, i, idx);
	emu_layout_place(&pl->r, pl->g, idx, &loc);
	*array = loc.array;
	*bitline = loc.bitline;
	*wl = loc.wordline;
}

void emu_buffer_place(const emu_buffer *b, const sram_geom *g, uint64_t i,
		      unsigned *array, unsigned *bitline, unsigned *wl)
{
	emu_placer pl;
	emu_placer_init(&pl, b, g);
	emu_placer_at(&pl, i, array, bitline, wl);
}

/* A tensor's declaration: up to 3 dimensions, a region that the layout
 * accepts on this machine (emu_region_check: type, Table 1 ranges, tile
 * bitlines, wordlines and arrays), its length the product of its sizes,
 * and its arrays array0:1:TILES (tiles fill arrays in order, §4.1). */
static int check_tensor_shape(emu_asm *a, const emu_buffer *b, const emu_src *s)
{
	const sram_geom *g = &a->p->geom;
	emu_region r;
	if (b->ndims > EMU_LAYOUT_DIMS) {
		emu_src_error(a->d, s, EMU_AT_LENGTH, "tensor '%s' has %u dimensions; expected "
			      "1 to %d", b->name, b->ndims, EMU_LAYOUT_DIMS);
		return -1;
	}
	emu_buffer_region(b, &r);
	if (b->arrays.start < 0 || b->arrays.start > UINT32_MAX)
		r.array0 = UINT32_MAX;
	diag rd;
	diag_clear(&rd);
	if (emu_region_check(&r, g, &rd)) {
		/* The layout's message, re-pointed at the sizes (a column, or
		 * a word of the binary form). */
		const char *m = strstr(rd.msg, "error: region ");
		emu_src_error(a->d, s, EMU_AT_LENGTH, "tensor %s", m ? m + 14 : rd.msg);
		return -1;
	}
	const emu_pattern want = {.start = r.array0, .ndims = 1, .stride = {1},
				  .count = {emu_region_tiles(&r)}};
	char pt[EMU_PAT_TEXT], pw[EMU_PAT_TEXT];
	if (!emu_pattern_equal(&b->arrays, &want)) {
		emu_src_error(a->d, s, EMU_AT_ARRAYS, "tensor '%s' has %" PRIu64 " tiles from "
			      "array %u, so its arrays are %s, not %s", b->name,
			      emu_region_tiles(&r), r.array0, pat_text(&want, pw),
			      pat_text(&b->arrays, pt));
		return -1;
	}
	if (b->length != emu_region_elems(&r)) {
		emu_src_error(a->d, s, EMU_AT_LENGTH, "tensor '%s' has %" PRIu64 " elements by "
			      "its sizes, not %" PRIu64, b->name, emu_region_elems(&r), b->length);
		return -1;
	}
	return check_buffer_scratch(a, b, s);
}

int emu_program_lot(const emu_program *p, struct emu_lot *t, diag *d)
{
	emu_lot_init(t, &p->geom, EMU_LOT_MAX);
	uint64_t base = 0;
	for (size_t i = 0; i < p->nbufs; i++) {
		const emu_buffer *b = &p->bufs[i];
		emu_region r;
		if (!b->ndims)
			continue;
		emu_buffer_region(b, &r);
		r.path = p->path;
		/* Tensors sit one after another in the physical address
		 * space, each on a cache-line boundary (§5.2: the LOT maps
		 * addresses to regions). */
		r.base = base;
		base = (emu_region_end(&r) + EMU_LINE_BYTES - 1) / EMU_LINE_BYTES * EMU_LINE_BYTES;
		if (emu_lot_add(t, &r, d))
			return -1;
	}
	return 0;
}

/* ---- moves ---- */

int emu_asm_tmove(emu_asm *a, emu_cmd *c, const emu_src *s)
{
	emu_asm_default_scratch(a);
	const isa_cmd zero = {0};
	c->kind = EMU_CMD_TMOVE;
	c->c = zero;
	c->buf_d = c->buf_d2 = c->buf_a = c->buf_b = c->buf_c = -1;
	c->line = s->line;
	c->tm.col = (int)s->at[EMU_AT_STMT];
	return push_cmd(a, c, s);
}

bool emu_program_written(const emu_program *p)
{
	for (size_t i = 0; i < p->ncmds; i++)
		if (p->cmds[i].kind == EMU_CMD_TMOVE)
			return true;
	return false;
}

int emu_program_need_lowered(const emu_program *p, diag *d)
{
	if (!emu_program_written(p))
		return 0;
	diag_file(d, p->path ? p->path : "<program>", "the program still has a tensor "
		  "move as written; lower it first (emu_program_lower)");
	return -1;
}

int emu_asm_move(emu_asm *a, emu_cmd *c, const emu_src *s)
{
	emu_asm_default_scratch(a);
	const isa_cmd zero = {0};
	c->kind = EMU_CMD_MOVE;
	c->c = zero;
	c->buf_d = c->buf_d2 = c->buf_a = c->buf_b = c->buf_c = -1;
	c->mv.line = c->line = s->line;
	memset(&c->arrays, 0, sizeof c->arrays);
	memset(&c->bitlines, 0, sizeof c->bitlines);
	const int col = s->binary ? 0 : (int)s->at[EMU_AT_STMT];
	diag md;
	diag_clear(&md);
	if (emu_move_check_at(&c->mv, &a->p->geom, s->path, a->p->ncmds + 1, col, &md)) {
		/* The binary form names the word of the command instead. */
		const char *m = strstr(md.msg, "error: ");
		if (s->binary)
			emu_src_error(a->d, s, EMU_AT_STMT, "%s", m ? m + 7 : md.msg);
		else if (a->d)
			*a->d = md;
		return -1;
	}
	if (c->mv.kind == EMU_MOVE_INTRA && c->mv.scratch != SRAM_NO_ROW &&
	    c->mv.scratch < a->p->scratch) {
		emu_src_error(a->d, s, EMU_AT_WL, "command %zu: intra-array shift: scratch "
			      "wordline %u is below the program's scratch wordlines (from %u), "
			      "where buffers live; expected scratch=%u or above", a->p->ncmds + 1,
			      c->mv.scratch, a->p->scratch, a->p->scratch);
		return -1;
	}
	return push_cmd(a, c, s);
}
