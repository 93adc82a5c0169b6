/*
 * tdfg.c: the text form of a tensor dataflow graph (doc/TDFG.md),
 * infinity-stream §3.  One statement a line:
 *
 *   machine KEY=VALUE...                       (before the first region)
 *   region NAME S0[xS1[xS2]] [tile=T0x..] [hint=KIND:DIM,...] [array=N]
 *   NAME = input TYPE [box=LO:HI,...] [init=KIND]
 *   NAME = const TYPE VALUE
 *   NAME = shift SRC, OFF0[, OFF1[, OFF2]]
 *   NAME = bcast SRC, DIM
 *   NAME = MNEMONIC.TYPE[.STYPE] A[, B[, C]]     (or A, #IMM)
 *   output NAME[, NAME...]
 *
 * Every mistake is reported as FILE:LINE:COL with what was expected.
 * The parser computes each node's type and domain; the JIT (jit.c) does
 * the rest.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assemble.h"
#include "text.h"
#include "tdfg.h"

static const char *const kind_names[EMU_TN_KINDS] = {
	"input", "const", "shift", "bcast", "compute", "reduce",
};

const char *emu_tnode_kind_name(unsigned kind)
{
	return kind < EMU_TN_KINDS ? kind_names[kind] : "?";
}

void emu_tdfg_init(emu_tdfg *t)
{
	memset(t, 0, sizeof *t);
	t->geom = sram_geom_default();
}

void emu_tdfg_free(emu_tdfg *t)
{
	free(t->path);
	free(t->text);
	free(t->regions);
	free(t->nodes);
	memset(t, 0, sizeof *t);
}

bool emu_tdfg_path(const char *path)
{
	const size_t n = path ? strlen(path) : 0;
	return n > 5 && strcmp(path + n - 5, ".tdfg") == 0;
}

long emu_tdfg_find(const emu_tdfg *t, const char *name, size_t len)
{
	for (size_t i = 0; i < t->nnodes; i++)
		if (strlen(t->nodes[i].name) == len && memcmp(t->nodes[i].name, name, len) == 0)
			return (long)i;
	return -1;
}

uint64_t emu_tregion_elems(const emu_tregion *r)
{
	return r->shape[0] * r->shape[1] * r->shape[2];
}

bool emu_tdfg_in_domain(const emu_tdfg *t, const emu_tnode *n, uint64_t i)
{
	const emu_tregion *r = &t->regions[n->region];
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++) {
		const uint64_t x = i % r->shape[k];
		if (x < n->dom.lo[k] || x >= n->dom.hi[k])
			return false;
		i /= r->shape[k];
	}
	return true;
}

const char *emu_tdfg_line(const emu_tdfg *t, int line, size_t *len)
{
	size_t pos = 0;
	for (int no = 1; pos < t->len; no++) {
		const char *nl = memchr(t->text + pos, '\n', t->len - pos);
		const size_t end = nl ? (size_t)(nl - t->text) : t->len;
		if (no == line) {
			*len = end - pos;
			return t->text + pos;
		}
		pos = end + 1;
	}
	return NULL;
}

/* ---- the parser ---- */

typedef struct tp {
	const char *path;
	emu_tdfg *t;
	diag *d;
	const emu_geom_override *ov;
	const char *s;
	size_t len, pos;
	int line;
	size_t capn, capr;
} tp;

static int perr(const tp *p, size_t at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int perr(const tp *p, size_t at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vat(p->d, p->path, p->line, (int)at + 1, fmt, ap);
	va_end(ap);
	return -1;
}

static void blanks(tp *p)
{
	while (p->pos < p->len && text_is_space(p->s[p->pos]))
		p->pos++;
}

/* The end of the statement: the end of the line or a comment. */
static bool at_end(tp *p)
{
	blanks(p);
	return p->pos >= p->len || p->s[p->pos] == '#';
}

/* What is at pos, for messages: "'word'" or "the end of the line". */
static const char *found(const tp *p, size_t at, char *buf, size_t size)
{
	if (at >= p->len || p->s[at] == '#')
		return "the end of the line";
	size_t n = 0;
	while (at + n < p->len && !text_is_space(p->s[at + n]) && p->s[at + n] != ',' && n < 24)
		n++;
	snprintf(buf, size, "'%.*s'", (int)(n ? n : 1), p->s + at);
	return buf;
}

static size_t ident_len(const tp *p, size_t at)
{
	size_t n = 0;
	if (at < p->len && text_is_ident_start(p->s[at]))
		while (at + n < p->len && text_is_ident_char(p->s[at + n]))
			n++;
	return n;
}

/* A word: an identifier, at pos; *n its length. */
static int word(tp *p, const char *what, size_t *n)
{
	char f[40];
	blanks(p);
	*n = ident_len(p, p->pos);
	if (!*n)
		return perr(p, p->pos, "expected %s, found %s", what, found(p, p->pos, f, sizeof f));
	return 0;
}

static bool is_word(const tp *p, size_t at, size_t n, const char *w)
{
	return strlen(w) == n && memcmp(p->s + at, w, n) == 0;
}

static int expect_char(tp *p, char c, const char *what)
{
	char f[40];
	blanks(p);
	if (p->pos >= p->len || p->s[p->pos] != c)
		return perr(p, p->pos, "expected %s, found %s", what, found(p, p->pos, f, sizeof f));
	p->pos++;
	return 0;
}

/* A number: [+|-] decimal or 0x hex.  It ends at the first character
 * that cannot continue it, so sizes like 64x32 split at the 'x'. */
static int number(tp *p, const char *what, int64_t *v)
{
	uint64_t mag;
	bool neg;
	size_t used;
	const char *e;
	char f[40];
	blanks(p);
	size_t at = p->pos, end = p->pos;
	if (at < p->len && p->s[at] == '+')
		at++, end++;
	if (at == p->pos && end < p->len && p->s[end] == '-') /* not "+-1" */
		end++;
	const bool hex = end + 1 < p->len && p->s[end] == '0' && (p->s[end + 1] | 0x20) == 'x';
	end += hex ? 2 : 0;
	while (end < p->len && (hex ? strchr("0123456789abcdefABCDEF", p->s[end]) != NULL
				    : p->s[end] >= '0' && p->s[end] <= '9') && p->s[end])
		end++;
	if (at >= end || text_scan_number(p->s + at, end - at, &mag, &neg, &used, &e))
		return perr(p, p->pos, "expected %s, found %s", what, found(p, p->pos, f, sizeof f));
	if (mag > (uint64_t)INT64_MAX)
		return perr(p, p->pos, "%s %.*s is out of range", what, (int)(at + used - p->pos),
			    p->s + p->pos);
	*v = neg ? -(int64_t)mag : (int64_t)mag;
	p->pos = at + used;
	return 0;
}

static int unsigned_in(tp *p, const char *what, uint64_t lo, uint64_t hi, uint64_t *v)
{
	const size_t at = (blanks(p), p->pos);
	int64_t x;
	if (number(p, what, &x))
		return -1;
	if (x < (int64_t)lo || (uint64_t)x > hi)
		return perr(p, at, "%s %" PRId64 " is out of range; expected %" PRIu64 " to %" PRIu64,
			    what, x, lo, hi);
	*v = (uint64_t)x;
	return 0;
}

/* S0[xS1[xS2]] into v (1 beyond the dimensions given); *nd set. */
static int dims(tp *p, const char *what, uint64_t v[EMU_LAYOUT_DIMS], uint8_t *nd)
{
	unsigned k = 0;
	for (;;) {
		if (k == EMU_LAYOUT_DIMS)
			return perr(p, p->pos - 1, "too many dimensions in the %s; expected at most 3 "
				    "(S0xS1xS2, innermost first)", what);
		if (unsigned_in(p, what, 1, UINT32_MAX, &v[k]))
			return -1;
		k++;
		if (p->pos >= p->len || p->s[p->pos] != 'x')
			break;
		p->pos++;
	}
	for (unsigned j = k; j < EMU_LAYOUT_DIMS; j++)
		v[j] = 1;
	*nd = (uint8_t)k;
	return 0;
}

static void *grow(void *v, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return v;
	size_t nc = *cap ? *cap * 2 : 16;
	void *nv = realloc(v, nc * size);
	if (nv)
		*cap = nc;
	return nv;
}

/* ---- machine ---- */

static int parse_machine(tp *p, size_t at)
{
	if (p->t->nregions)
		return perr(p, at, "'machine' must come before the first region");
	if (p->t->has_machine)
		return perr(p, at, "a second 'machine' line");
	sram_geom g = p->t->geom;
	while (!at_end(p)) {
		const size_t k = p->pos;
		size_t eq = k;
		while (eq < p->len && p->s[eq] != '=' && !text_is_space(p->s[eq]))
			eq++;
		size_t v = eq + 1, ve = v;
		while (ve < p->len && !text_is_space(p->s[ve]) && p->s[ve] != '#')
			ve++;
		if (eq >= p->len || p->s[eq] != '=' || eq == k || ve == v)
			return perr(p, k, "expected KEY=VALUE (keys: %s)", EMU_GEOM_KEY_LIST);
		char key[32], val[64];
		const char *e;
		snprintf(key, sizeof key, "%.*s", (int)(eq - k), p->s + k);
		snprintf(val, sizeof val, "%.*s", (int)(ve - v), p->s + v);
		if (emu_geom_set(&g, key, val, &e))
			return perr(p, k, "%s", e);
		p->pos = ve;
	}
	emu_geom_override_apply(p->ov, &g);
	const char *e = sram_geom_check(&g);
	if (e)
		return perr(p, at, "this machine is not valid: %s", e);
	p->t->geom = g;
	p->t->has_machine = true;
	return 0;
}

/* ---- region ---- */

static int region_hint(tp *p, emu_tregion *r)
{
	const size_t at = p->pos;
	while (p->pos < p->len && !text_is_space(p->s[p->pos]) && p->s[p->pos] != '#')
		p->pos++;
	if (p->pos == at)
		return perr(p, at, "expected hint=KIND:DIM[,KIND:DIM]... (reduce, shift or "
			    "broadcast; DIM 0, 1 or 2)");
	/* Each item KIND:DIM sets the bit of DIM in that kind's mask. */
	for (size_t i = at; i < p->pos;) {
		size_t j = i;
		while (j < p->pos && p->s[j] != ',')
			j++;
		const size_t n = j - i > 2 ? j - i - 2 : 0;
		unsigned *mask = is_word(p, i, n, "reduce") ? &r->hint.reduce
				 : is_word(p, i, n, "shift") ? &r->hint.shift
				 : is_word(p, i, n, "broadcast") ? &r->hint.broadcast : NULL;
		if (!mask || p->s[j - 2] != ':' || p->s[j - 1] < '0' || p->s[j - 1] > '2')
			return perr(p, i, "expected a hint reduce:DIM, shift:DIM or broadcast:DIM "
				    "(DIM 0, 1 or 2), found '%.*s'", (int)(j - i), p->s + i);
		*mask |= 1u << (p->s[j - 1] - '0');
		i = j + 1;
	}
	return 0;
}

static int region_field(tp *p, emu_tregion *r, bool seen[3])
{
	static const char *const keys[3] = {"tile", "hint", "array"};
	size_t n;
	char f[40];
	if (word(p, "tile=, hint= or array=", &n))
		return -1;
	const size_t at = p->pos;
	unsigned k = 0;
	while (k < 3 && !is_word(p, at, n, keys[k]))
		k++;
	if (k == 3 || at + n >= p->len || p->s[at + n] != '=')
		return perr(p, at, "expected tile=T0xT1, hint=KIND:DIM or array=N, found %s",
			    found(p, at, f, sizeof f));
	if (seen[k])
		return perr(p, at, "%s= is given twice", keys[k]);
	seen[k] = true;
	p->pos = at + n + 1;
	if (k == 1)
		return region_hint(p, r);
	if (k == 2) {
		uint64_t a;
		const sram_geom *g = &p->t->geom;
		if (unsigned_in(p, "array", 0, (uint64_t)g->arrays_per_way * g->ways_per_bank *
				g->mesh_x * g->mesh_y - 1, &a))
			return -1;
		r->array0 = (uint32_t)a;
		return 0;
	}
	uint8_t nd;
	const size_t tat = p->pos;
	if (dims(p, "tile size", r->tile, &nd))
		return -1;
	if (nd != r->ndims)
		return perr(p, tat, "region '%s' has %u dimension%s but its tile has %u; expected "
			    "one tile size per dimension", r->name, r->ndims, r->ndims == 1 ? "" : "s",
			    nd);
	return 0;
}

static int name_ok(tp *p, size_t at, size_t n, const char *what)
{
	if (n >= EMU_NAME_MAX)
		return perr(p, at, "%s name is %zu characters long; expected at most %d", what, n,
			    EMU_NAME_MAX - 1);
	for (size_t i = 0; i + 1 < n; i++)
		if (p->s[at + i] == '_' && p->s[at + i + 1] == '_')
			return perr(p, at + i, "'%.*s': names with '__' are the JIT's (its temporaries); "
				    "choose another %s name", (int)n, p->s + at, what);
	if (emu_name_reserved(p->s + at, n) || is_word(p, at, n, "region") ||
	    is_word(p, at, n, "output"))
		return perr(p, at, "'%.*s' is a reserved word; choose another %s name", (int)n,
			    p->s + at, what);
	return 0;
}

static int parse_region(tp *p)
{
	emu_tdfg *t = p->t;
	size_t n;
	if (word(p, "a region name after 'region'", &n))
		return -1;
	const size_t at = p->pos;
	if (name_ok(p, at, n, "region"))
		return -1;
	for (size_t i = 0; i < t->nregions; i++)
		if (is_word(p, at, n, t->regions[i].name))
			return perr(p, at, "a second region '%.*s' (the first is at line %d)", (int)n,
				    p->s + at, t->regions[i].line);
	emu_tregion *nr = grow(t->regions, &p->capr, t->nregions, sizeof *nr);
	if (!nr)
		return perr(p, at, "out of memory");
	t->regions = nr;
	emu_tregion *r = &nr[t->nregions];
	memset(r, 0, sizeof *r);
	memcpy(r->name, p->s + at, n);
	r->line = p->line;
	r->col = (int)at + 1;
	p->pos = at + n;
	if (dims(p, "region size", r->shape, &r->ndims))
		return -1;
	bool seen[3] = {false, false, false};
	while (!at_end(p))
		if (region_field(p, r, seen))
			return -1;
	r->node0 = r->node1 = t->nnodes;
	t->nregions++;
	return 0;
}

/* ---- nodes ---- */

/* A node name used as an operand: defined earlier, in this region. */
static int operand(tp *p, uint32_t *idx)
{
	size_t n;
	if (word(p, "a node name", &n))
		return -1;
	const size_t at = p->pos;
	const long i = emu_tdfg_find(p->t, p->s + at, n);
	if (i < 0)
		return perr(p, at, "unknown node '%.*s'; operands must be defined above", (int)n,
			    p->s + at);
	const emu_tnode *x = &p->t->nodes[i];
	if (x->region != p->t->nregions - 1)
		return perr(p, at, "'%s' belongs to region '%s'; a node reads only nodes of its "
			    "own region ('%s')", x->name, p->t->regions[x->region].name,
			    p->t->regions[p->t->nregions - 1].name);
	*idx = (uint32_t)i;
	p->pos = at + n;
	return 0;
}

static int type_of(tp *p, size_t at, size_t n, emu_tnode *x)
{
	unsigned fmt, w, sg;
	if (isa_type_parse(p->s + at, n, &fmt, &w, &sg))
		return perr(p, at, "expected an element type (iN or uN (N from 1 to 64), f32, f16, "
			    "bf16 or qN (N from 4 to 64), e.g. i32), found '%.*s'", (int)n, p->s + at);
	x->fmt = (uint8_t)fmt;
	x->width = (uint8_t)w;
	x->is_signed = (uint8_t)sg;
	return 0;
}

static int type_word(tp *p, emu_tnode *x)
{
	blanks(p);
	const size_t at = p->pos;
	size_t n = 0;
	while (at + n < p->len && text_is_ident_char(p->s[at + n]))
		n++;
	p->pos = at + n;
	return type_of(p, at, n, x);
}

/* box=LO:HI[,LO:HI...] of an input, inside the region. */
static int input_box(tp *p, emu_tnode *x, const emu_tregion *r)
{
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++) {
		x->dom.lo[k] = 0;
		x->dom.hi[k] = r->shape[k];
	}
	for (unsigned k = 0;; k++) {
		uint64_t lo, hi;
		if (k == r->ndims)
			return perr(p, p->pos, "too many box dimensions: region '%s' has %u", r->name,
				    r->ndims);
		if (unsigned_in(p, "box start", 0, r->shape[k] - 1, &lo) ||
		    expect_char(p, ':', "':' between the box's start and end") ||
		    unsigned_in(p, "box end", lo + 1, r->shape[k], &hi))
			return -1;
		x->dom.lo[k] = lo;
		x->dom.hi[k] = hi;
		if (p->pos >= p->len || p->s[p->pos] != ',')
			return 0;
		p->pos++;
	}
}

/* input TYPE [box=...] [init=KIND]: init's text is the stream's
 * (doc/FORMAT.md, "buffer"); the assembler checks it (jit.c). */
static int node_input(tp *p, emu_tnode *x, const emu_tregion *r, char *init, size_t isize)
{
	bool seen_box = false, seen_init = false;
	char f[40];
	if (type_word(p, x))
		return -1;
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++)
		x->dom.hi[k] = r->shape[k];
	while (!at_end(p)) {
		const size_t at = p->pos;
		if (p->len - at > 4 && memcmp(p->s + at, "box=", 4) == 0 && !seen_box) {
			p->pos += 4;
			seen_box = true;
			if (input_box(p, x, r))
				return -1;
		} else if (p->len - at > 5 && memcmp(p->s + at, "init=", 5) == 0 && !seen_init) {
			size_t e = at + 5;
			while (e < p->len && !text_is_space(p->s[e]))
				e++;
			if (e - at >= isize)
				return perr(p, at, "init= is too long");
			memcpy(init, p->s + at, e - at);
			init[e - at] = 0;
			seen_init = true;
			p->pos = e;
		} else {
			return perr(p, at, "expected box=LO:HI,... or init=KIND (each at most once), "
				    "found %s", found(p, at, f, sizeof f));
		}
	}
	return 0;
}

/* const TYPE VALUE */
static int node_const(tp *p, emu_tnode *x, const emu_tregion *r)
{
	if (type_word(p, x))
		return -1;
	blanks(p);
	const size_t at = p->pos;
	char err[160], f[40];
	size_t used = 0;
	if (x->fmt != ISA_FMT_INT) {
		if (emu_literal_parse(x->fmt, x->width, p->s + at, p->len - at, &x->value, &used,
				      err, sizeof err))
			return perr(p, at, "const: %s, found %s", err, found(p, at, f, sizeof f));
		p->pos = at + used;
	} else {
		int64_t v;
		if (number(p, "a constant", &v))
			return -1;
		const uint64_t m = isa_mask(x->width);
		if (v < 0 ? (uint64_t)-v > (m >> 1) + 1 : (uint64_t)v > m)
			return perr(p, at, "constant %" PRId64 " does not fit in %u bits", v, x->width);
		x->value = (uint64_t)v & m;
	}
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++)
		x->dom.hi[k] = r->shape[k];
	return 0;
}

static void copy_type(emu_tnode *x, const emu_tnode *from)
{
	x->fmt = from->fmt;
	x->width = from->width;
	x->is_signed = from->is_signed;
}

/* shift SRC, OFF0[, OFF1[, OFF2]]: one nonzero offset (§3.2). */
static int node_shift(tp *p, emu_tnode *x, const emu_tregion *r)
{
	if (operand(p, &x->arg[0]))
		return -1;
	x->nargs = 1;
	const emu_tnode *s = &p->t->nodes[x->arg[0]];
	copy_type(x, s);
	unsigned k = 0, moving = 0;
	const size_t at0 = p->pos;
	while (!at_end(p)) {
		if (k == r->ndims)
			return perr(p, p->pos, "too many offsets: region '%s' has %u dimension%s",
				    r->name, r->ndims, r->ndims == 1 ? "" : "s");
		if (expect_char(p, ',', "',' and an offset") || number(p, "an offset", &x->off[k]))
			return -1;
		moving += x->off[k] != 0;
		k++;
	}
	if (k == 0)
		return perr(p, at0, "expected ', OFFSET' for each dimension after the source");
	if (moving != 1)
		return perr(p, at0, "a shift moves along exactly one dimension; %u offsets are "
			    "nonzero", moving);
	for (k = 0; k < EMU_LAYOUT_DIMS; k++) {
		const int64_t lo = (int64_t)s->dom.lo[k] + x->off[k];
		const int64_t hi = (int64_t)s->dom.hi[k] + x->off[k];
		x->dom.lo[k] = lo < 0 ? 0 : (uint64_t)lo;
		x->dom.hi[k] = hi > (int64_t)r->shape[k] ? r->shape[k] : hi < 0 ? 0 : (uint64_t)hi;
		if (x->dom.lo[k] >= x->dom.hi[k])
			return perr(p, at0, "the shift moves every element of '%s' out of region "
				    "'%s' along dimension %u", s->name, r->name, k);
	}
	return 0;
}

/* bcast SRC, DIM: SRC's domain is one element wide along DIM. */
static int node_bcast(tp *p, emu_tnode *x, const emu_tregion *r)
{
	if (operand(p, &x->arg[0]) || expect_char(p, ',', "',' and a dimension"))
		return -1;
	x->nargs = 1;
	const emu_tnode *s = &p->t->nodes[x->arg[0]];
	copy_type(x, s);
	uint64_t dim;
	const size_t at = (blanks(p), p->pos);
	if (unsigned_in(p, "dimension", 0, r->ndims - 1u, &dim))
		return -1;
	if (s->dom.hi[dim] - s->dom.lo[dim] != 1)
		return perr(p, at, "bcast copies one element along dimension %" PRIu64 ", but "
			    "'%s' spans [%" PRIu64 ", %" PRIu64 ") there", dim, s->name,
			    s->dom.lo[dim], s->dom.hi[dim]);
	x->dim = (uint8_t)dim;
	x->dom = s->dom;
	x->dom.lo[dim] = 0;
	x->dom.hi[dim] = r->shape[dim];
	return 0;
}

/* ---- compute nodes ---- */

/* MNEMONIC.TYPE[.STYPE]: the command; *mn_n the mnemonic's length. */
static int compute_op(tp *p, emu_tnode *x)
{
	const size_t at = p->pos;
	size_t mn = 0;
	char f[40];
	while (at + mn < p->len && text_is_ident_char(p->s[at + mn]))
		mn++;
	if (at + mn >= p->len || p->s[at + mn] != '.')
		return perr(p, at, "expected input, const, shift, bcast or a command with its type "
			    "(add.f32), found %s", found(p, at, f, sizeof f));
	char name[24];
	snprintf(name, sizeof name, "%.*s", (int)(mn < 23 ? mn : 23), p->s + at);
	p->pos = at + mn + 1;
	const size_t t1 = p->pos;
	if (type_word(p, x))
		return -1;
	isa_cmd *c = &x->c;
	memset(c, 0, sizeof *c);
	c->a = c->b = c->c3 = c->d = c->d2 = ISA_NONE;
	c->fmt = x->fmt;
	c->width = x->width;
	c->is_signed = x->is_signed;
	if (strcmp(name, "cvt") == 0) {
		emu_tnode src;
		if (p->pos >= p->len || p->s[p->pos] != '.')
			return perr(p, t1, "'cvt' takes two type suffixes, the destination's first "
				    "(cvt.f32.i32)");
		p->pos++;
		const size_t t2 = p->pos;
		if (type_word(p, &src))
			return -1;
		if (src.fmt == x->fmt && src.width == x->width && src.is_signed == x->is_signed)
			return perr(p, t2, "cvt converts a type to itself; the two suffixes must differ");
		c->op = ISA_CVT;
		c->sfmt = src.fmt;
		c->swidth = src.width;
		c->ssigned = src.is_signed;
		return 0;
	}
	const int op = isa_lookup_fmt(name, x->fmt);
	if (op == -1)
		return perr(p, at, "unknown command '%s'; expected input, const, shift, bcast or a "
			    "command such as add.f32 (infsim commands lists them)", name);
	char tn[16];
	if (op < 0)
		return perr(p, t1, "'%s' does not take .%s elements", name,
			    isa_type_name(x->fmt, x->width, x->is_signed, tn, sizeof tn));
	if (p->pos < p->len && p->s[p->pos] == '.')
		return perr(p, p->pos, "'%s' takes one type suffix; only a conversion (cvt) takes two",
			    name);
	c->op = (uint16_t)op;
	const isa_form fm = isa_info_of((unsigned)op)->form;
	const char *why = fm == ISA_FORM_QRAB ? "has two results; use a div node and a rem node"
			  : fm == ISA_FORM_RA ? "is a reduction, not an element-wise command"
			  : fm == ISA_FORM_DI ? "writes a constant; use a const node"
			  : op == ISA_SEL ? "reads the tag latch, which no tDFG value names"
			  : NULL;
	if (why)
		return perr(p, at, "'%s' %s", name, why);
	return 0;
}

/* Operand i of a compute node: a node of the command's type (cvt's a:
 * the source type). */
static int compute_arg(tp *p, emu_tnode *x, unsigned i)
{
	if (i && expect_char(p, ',', "',' and the next operand"))
		return -1;
	blanks(p);
	const size_t at = p->pos;
	if (operand(p, &x->arg[i]))
		return -1;
	const emu_tnode *a = &p->t->nodes[x->arg[i]];
	const isa_cmd *c = &x->c;
	const bool cvt_a = c->op == ISA_CVT && i == 0;
	const unsigned fmt = cvt_a ? c->sfmt : c->fmt, w = cvt_a ? c->swidth : c->width;
	const unsigned sg = cvt_a ? c->ssigned : c->is_signed;
	if (a->fmt != fmt || a->width != w || a->is_signed != sg) {
		char want[16], has[16];
		return perr(p, at, "'%s' holds %s elements; this operand must be %s", a->name,
			    isa_type_name(a->fmt, a->width, a->is_signed, has, sizeof has),
			    isa_type_name(fmt, w, sg, want, sizeof want));
	}
	x->nargs = (uint8_t)(i + 1);
	return 0;
}

/* #IMM of a DAI or PAI command. */
static int compute_imm(tp *p, emu_tnode *x)
{
	isa_cmd *c = &x->c;
	char err[160], f[40];
	size_t used;
	if (expect_char(p, ',', "',' and an immediate #N") ||
	    expect_char(p, '#', "an immediate #N"))
		return -1;
	const size_t at = p->pos;
	if (c->fmt != ISA_FMT_INT) {
		if (emu_literal_parse(c->fmt, c->width, p->s + at, p->len - at, &c->imm, &used,
				      err, sizeof err))
			return perr(p, at, "%s, found %s", err, found(p, at, f, sizeof f));
		p->pos = at + used;
		return 0;
	}
	int64_t v;
	if (number(p, "an immediate", &v))
		return -1;
	const unsigned n = c->width;
	const bool shift = c->op == ISA_SHLI || c->op == ISA_SHRI || c->op == ISA_SRAI;
	if (shift && (v < 0 || v >= (int64_t)n))
		return perr(p, at, "shift amount %" PRId64 " is out of range; expected #0 to #%u",
			    v, n - 1);
	const uint64_t m = isa_mask(n);
	if (v < 0 ? (uint64_t)-v > (m >> 1) + 1 : (uint64_t)v > m)
		return perr(p, at, "immediate %" PRId64 " does not fit in %u bits", v, n);
	c->imm = (uint64_t)v & m;
	return 0;
}

static int node_compute(tp *p, emu_tnode *x, const emu_tregion *r)
{
	if (compute_op(p, x))
		return -1;
	const isa_form fm = isa_info_of(x->c.op)->form;
	const unsigned nargs = fm == ISA_FORM_DABC ? 3 : fm == ISA_FORM_DAB || fm == ISA_FORM_PAB ? 2 : 1;
	for (unsigned i = 0; i < nargs; i++)
		if (compute_arg(p, x, i))
			return -1;
	if ((fm == ISA_FORM_DAI || fm == ISA_FORM_PAI) && compute_imm(p, x))
		return -1;
	if (fm == ISA_FORM_PAB || fm == ISA_FORM_PAI) { /* a predicate: one bit */
		x->fmt = ISA_FMT_INT;
		x->width = 1;
		x->is_signed = 0;
	}
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++) {
		x->dom.lo[k] = 0;
		x->dom.hi[k] = r->shape[k];
		for (unsigned i = 0; i < x->nargs; i++) {
			const emu_box *b = &p->t->nodes[x->arg[i]].dom;
			x->dom.lo[k] = b->lo[k] > x->dom.lo[k] ? b->lo[k] : x->dom.lo[k];
			x->dom.hi[k] = b->hi[k] < x->dom.hi[k] ? b->hi[k] : x->dom.hi[k];
		}
		if (x->dom.lo[k] >= x->dom.hi[k])
			return perr(p, x->op_col - 1, "the operands' domains do not meet along "
				    "dimension %u; a compute node works where all of them are defined",
				    k);
	}
	return 0;
}

/* reduce.OP.TYPE SRC, DIM: OP one of the commutative two-operand
 * commands; the result keeps the first position of DIM. */
static int node_reduce(tp *p, emu_tnode *x, const emu_tregion *r)
{
	static const char *const ops[] = {"add", "mul", "min", "max", "and", "or", "xor"};
	char f[40];
	if (expect_char(p, '.', "'.' and a command after 'reduce' (reduce.add.f32)"))
		return -1;
	const size_t at = p->pos;
	size_t n = ident_len(p, at), k = 0;
	while (k < 7 && !is_word(p, at, n, ops[k]))
		k++;
	if (k == 7)
		return perr(p, at, "expected add, mul, min, max, and, or or xor after 'reduce.', "
			    "found %s", found(p, at, f, sizeof f));
	p->pos = at + n;
	if (expect_char(p, '.', "'.' and the element type (reduce.add.f32)"))
		return -1;
	const size_t t1 = p->pos;
	if (type_word(p, x))
		return -1;
	const int op = isa_lookup_fmt(ops[k], x->fmt);
	char tn[16];
	if (op < 0)
		return perr(p, t1, "'%s' does not take .%s elements", ops[k],
			    isa_type_name(x->fmt, x->width, x->is_signed, tn, sizeof tn));
	memset(&x->c, 0, sizeof x->c);
	x->c.op = (uint16_t)op;
	x->c.fmt = x->fmt;
	x->c.width = x->width;
	x->c.is_signed = x->is_signed;
	x->c.a = x->c.b = x->c.c3 = x->c.d = x->c.d2 = ISA_NONE;
	if (compute_arg(p, x, 0) || expect_char(p, ',', "',' and the dimension to reduce"))
		return -1;
	uint64_t dim;
	if (unsigned_in(p, "dimension", 0, r->ndims - 1u, &dim))
		return -1;
	x->dim = (uint8_t)dim;
	x->dom = p->t->nodes[x->arg[0]].dom;
	x->dom.hi[dim] = x->dom.lo[dim] + 1;
	return 0;
}

/* NAME = KIND ... */
static int parse_node(tp *p, size_t at, size_t n)
{
	emu_tdfg *t = p->t;
	char init[sizeof t->nodes->init_text] = "";
	if (!t->nregions)
		return perr(p, at, "node '%.*s' comes before any region; expected 'region NAME "
			    "SIZES' first", (int)n, p->s + at);
	if (name_ok(p, at, n, "node"))
		return -1;
	const long dup = emu_tdfg_find(t, p->s + at, n);
	if (dup >= 0)
		return perr(p, at, "node '%.*s' is defined twice (first at line %d); a tDFG is in "
			    "SSA form", (int)n, p->s + at, t->nodes[dup].line);
	p->pos = at + n;
	if (expect_char(p, '=', "'=' after the node name"))
		return -1;
	emu_tnode *nn = grow(t->nodes, &p->capn, t->nnodes, sizeof *nn);
	if (!nn)
		return perr(p, at, "out of memory");
	t->nodes = nn;
	emu_tnode *x = &nn[t->nnodes];
	memset(x, 0, sizeof *x);
	memcpy(x->name, p->s + at, n);
	x->line = p->line;
	x->col = (int)at + 1;
	x->region = (uint32_t)(t->nregions - 1);
	x->buf = -1;
	size_t kn;
	if (word(p, "input, const, shift, bcast, reduce or a command such as add.f32", &kn))
		return -1;
	const size_t k = p->pos;
	x->op_col = (int)k + 1;
	const emu_tregion *r = &t->regions[x->region];
	int rc;
	p->pos = k + kn;
	if (is_word(p, k, kn, "input")) {
		x->kind = EMU_TN_INPUT;
		rc = node_input(p, x, r, init, sizeof init);
	} else if (is_word(p, k, kn, "const")) {
		x->kind = EMU_TN_CONST;
		rc = node_const(p, x, r);
	} else if (is_word(p, k, kn, "shift")) {
		x->kind = EMU_TN_SHIFT;
		rc = node_shift(p, x, r);
	} else if (is_word(p, k, kn, "reduce")) {
		x->kind = EMU_TN_REDUCE;
		rc = node_reduce(p, x, r);
	} else if (is_word(p, k, kn, "bcast")) {
		x->kind = EMU_TN_BCAST;
		rc = node_bcast(p, x, r);
	} else {
		x->kind = EMU_TN_COMPUTE;
		p->pos = k;
		rc = node_compute(p, x, r);
	}
	if (rc || (x->kind != EMU_TN_INPUT && !at_end(p)))
		return rc ? rc : perr(p, p->pos, "unexpected text after the %s node",
				       kind_names[x->kind]);
	memcpy(x->init_text, init, sizeof x->init_text);
	t->nnodes++;
	t->regions[x->region].node1 = t->nnodes;
	return 0;
}

static int parse_output(tp *p)
{
	for (;;) {
		uint32_t i;
		size_t n;
		if (word(p, "a node name", &n))
			return -1;
		const long j = emu_tdfg_find(p->t, p->s + p->pos, n);
		if (j < 0)
			return perr(p, p->pos, "unknown node '%.*s'", (int)n, p->s + p->pos);
		i = (uint32_t)j;
		p->t->nodes[i].output = true;
		p->pos += n;
		if (at_end(p))
			return 0;
		if (expect_char(p, ',', "',' or the end of the line"))
			return -1;
	}
}

static int statement(tp *p)
{
	size_t n;
	if (at_end(p))
		return 0;
	if (word(p, "machine, region, output or 'NAME = ...'", &n))
		return -1;
	const size_t at = p->pos;
	p->pos += n;
	/* "NAME =" first, so a node called machine, region or output is
	 * told that the word is reserved (name_ok). */
	blanks(p);
	if (p->pos < p->len && p->s[p->pos] == '=')
		return parse_node(p, at, n);
	if (is_word(p, at, n, "machine"))
		return parse_machine(p, at);
	if (is_word(p, at, n, "region"))
		return parse_region(p);
	if (is_word(p, at, n, "output"))
		return parse_output(p);
	char f[40];
	return perr(p, at, "expected machine, region, output or 'NAME = ...', found %s",
		    found(p, at, f, sizeof f));
}

static int finish(tp *p)
{
	emu_tdfg *t = p->t;
	if (!t->nregions) {
		diag_file(p->d, p->path, "no region; a tDFG needs 'region NAME SIZES' and nodes");
		return -1;
	}
	for (size_t i = 0; i < t->nregions; i++)
		if (t->regions[i].node0 == t->regions[i].node1) {
			diag_at(p->d, p->path, t->regions[i].line, t->regions[i].col,
				"region '%s' has no nodes", t->regions[i].name);
			return -1;
		}
	return 0;
}

int emu_tdfg_parse(const char *path, const char *text, size_t len,
		   const sram_geom *geom_default, const emu_geom_override *ov,
		   emu_tdfg *out, diag *d)
{
	tp p;
	text_lines it;
	text_line ln;
	int rc;
	emu_tdfg_init(out);
	path = path ? path : "<input>";
	if (geom_default)
		out->geom = *geom_default;
	emu_geom_override_apply(ov, &out->geom);
	if (!(out->path = strdup(path)) || !(out->text = malloc(len ? len : 1))) {
		diag_file(d, path, "out of memory");
		return -1;
	}
	memcpy(out->text, text, len);
	out->len = len;
	memset(&p, 0, sizeof p);
	p.path = path;
	p.t = out;
	p.d = d;
	p.ov = ov;
	text_lines_init(&it, path, text, len);
	while ((rc = text_lines_next(&it, &ln, d)) > 0) {
		p.s = ln.s;
		p.len = ln.len;
		p.pos = 0;
		p.line = ln.no;
		if (statement(&p))
			return -1;
	}
	return rc < 0 ? -1 : finish(&p);
}

int emu_tdfg_parse_file(const char *path, const sram_geom *geom_default,
			const emu_geom_override *ov, emu_tdfg *out, diag *d)
{
	char *text;
	size_t len;
	emu_tdfg_init(out);
	if (text_read_file(path, TEXT_FILE_MAX, &text, &len, d))
		return -1;
	int rc = emu_tdfg_parse(path, text, len, geom_default, ov, out, d);
	free(text);
	return rc;
}
