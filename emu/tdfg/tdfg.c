/* SPDX-License-Identifier: MIT */
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
 *   array NAME TYPE SIZES [init=KIND | load=FILE]        (programs:)
 *   NAME = tensor ARRAY [box=...]     store ARRAY, NODE [box=...]
 *   run REGION   repeat N .. end   for K = LO, HI .. end   swap A, B
 *   shrink REGION, D0[, D1[, D2]]     (region field: param=K[,...])
 *   param NAME = EXPR        (a size, bound, offset or loop bound may be
 *                             an EXPR over parameters: tdfg_param.c)
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
#include "tdfg_param.h"
#include "text.h"
#include "tdfg.h"

static const char *const kind_names[EMU_TN_KINDS] = {
	"input", "const", "shift", "bcast", "compute", "reduce", "tensor", "store", "gather",
	"update",
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
	for (size_t i = 0; t->regions && i < t->nregions; i++)
		free(t->regions[i].ctx);
	if (t->tregions != t->regions)
		free(t->tregions);
	if (t->tnodes != t->nodes)
		free(t->tnodes);
	free(t->regions);
	free(t->nodes);
	free(t->arrays);
	free(t->ctl);
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
	size_t capn, capr, capa, capc;
	bool in_control;       /* a control statement has ended the last region */
	unsigned depth;        /* open repeat/for blocks */
	size_t open[8];        /* their control indexes */
	emu_tpar par[EMU_TPAR_MAX]; /* the program's parameters (param) */
	unsigned npar;
	const emu_tdfg_def *defs;   /* -D NAME=VALUE: they replace param's values */
	size_t ndefs;
	bool def_used[EMU_TPAR_MAX];
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
	return emu_tpar_found(p->s, p->len, at, buf, size);
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

/* The region nodes are being added to (the last one). */
static emu_tregion *cur_region(const tp *p)
{
	return &p->t->regions[p->t->nregions - 1];
}

/* A region with parameters is checked at each run (tdfg_prog.c): the
 * parser leaves the domains' checks to then. */
static bool loose(const tp *p)
{
	return p->t->nregions && cur_region(p)->nparams;
}

static bool texpr_const(const emu_texpr *e)
{
	for (unsigned k = 0; k < EMU_TPARAMS; k++)
		if (e->coef[k])
			return false;
	return true;
}

/* An expression read by tdfg_param.c at pos, over the program's
 * parameters and, when r is given, region r's (param=). */
static void scan_init(const tp *p, emu_tpar_scan *sc, const emu_tregion *r, bool spaced)
{
	memset(sc, 0, sizeof *sc);
	sc->s = p->s;
	sc->len = p->len;
	sc->pos = p->pos;
	sc->par = p->par;
	sc->npar = p->npar;
	sc->r = r;
	sc->blanks = spaced;
}

static int scan_done(tp *p, const emu_tpar_scan *sc, int rc)
{
	if (rc)
		return perr(p, sc->err_at, "%s", sc->err);
	p->pos = sc->pos;
	return 0;
}

/* A bound or an offset: an expression over the program's parameters and
 * region r's (k, k+1, N-1-k; doc/TDFG.md, "Parameters").  Blanks end a
 * box's field (box=0:N k=...), so only an offset may hold them. */
static int expr(tp *p, const emu_tregion *r, const char *what, bool spaced, emu_texpr *e)
{
	emu_tpar_scan sc;
	blanks(p);
	scan_init(p, &sc, r, spaced);
	return scan_done(p, &sc, emu_tpar_expr(&sc, what, e));
}

/* A constant expression (loop bounds, steps): blanks may separate its
 * tokens, as the line's own commas end it. */
static int const_expr(tp *p, const char *what, int64_t *v)
{
	emu_tpar_scan sc;
	blanks(p);
	scan_init(p, &sc, NULL, true);
	return scan_done(p, &sc, emu_tpar_const(&sc, what, v));
}

/* S0[xS1[xS2]] into v (1 beyond the dimensions given); *nd set.  The
 * stream's reader (emu_scan_sizes), so both languages read sizes alike. */
static int dims(tp *p, const char *what, uint64_t v[EMU_LAYOUT_DIMS], uint8_t *nd)
{
	char err[DIAG_MAX / 2];
	unsigned k;
	blanks(p);
	/* Parameters or expressions: tdfg_param.c; numbers as the stream's
	 * (one reader, one set of messages).  An 'x' alone at the start is
	 * the separator a size is missing unless a parameter may be meant. */
	bool named = false;
	for (size_t e = p->pos; e < p->len && !text_is_space(p->s[e]) && p->s[e] != '#'; e++) {
		const bool start = e == p->pos || p->s[e - 1] == 'x';
		named |= p->s[e] == '(' || (start && text_is_ident_start(p->s[e]) &&
					    (p->s[e] != 'x' || p->npar));
	}
	if (named) {
		emu_tpar_scan sc;
		scan_init(p, &sc, NULL, false);
		return scan_done(p, &sc, emu_tpar_sizes(&sc, what, v, nd));
	}
	if (emu_scan_sizes(p->s, p->len, &p->pos, what, v, &k, err, sizeof err))
		return perr(p, p->pos, "%s", err);
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

/* param=NAME[,NAME...]: names the region's boxes and offsets may use;
 * `run` takes their values from the enclosing `for` loops. */
static int region_params(tp *p, emu_tregion *r)
{
	for (;;) {
		size_t n;
		if (word(p, "a parameter name after param=", &n))
			return -1;
		const size_t at = p->pos;
		if (r->nparams == EMU_TPARAMS)
			return perr(p, at, "too many parameters; a region has at most %d",
				    EMU_TPARAMS);
		if (n >= EMU_NAME_MAX)
			return perr(p, at, "parameter name is %zu characters long; expected at most %d",
				    n, EMU_NAME_MAX - 1);
		for (unsigned k = 0; k < r->nparams; k++)
			if (is_word(p, at, n, r->param[k]))
				return perr(p, at, "parameter '%s' is given twice", r->param[k]);
		const emu_tpar *g = emu_tpar_find(p->par, p->npar, p->s + at, n);
		if (g)
			return perr(p, at, "'%s' is a program parameter (line %d); a region's "
				    "parameter needs a name of its own", g->name, g->line);
		memcpy(r->param[r->nparams++], p->s + at, n);
		p->pos = at + n;
		if (p->pos >= p->len || p->s[p->pos] != ',')
			return 0;
		p->pos++;
	}
}

static int region_field(tp *p, emu_tregion *r, bool seen[4])
{
	static const char *const keys[4] = {"tile", "hint", "array", "param"};
	size_t n;
	char f[40];
	if (word(p, "tile=, hint=, array= or param=", &n))
		return -1;
	const size_t at = p->pos;
	unsigned k = 0;
	while (k < 4 && !is_word(p, at, n, keys[k]))
		k++;
	if (k == 4 || at + n >= p->len || p->s[at + n] != '=')
		return perr(p, at, "expected tile=T0xT1, hint=KIND:DIM, array=N or param=NAME, "
			    "found %s", found(p, at, f, sizeof f));
	if (seen[k])
		return perr(p, at, "%s= is given twice", keys[k]);
	seen[k] = true;
	p->pos = at + n + 1;
	if (k == 1)
		return region_hint(p, r);
	if (k == 3)
		return region_params(p, r);
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
	if (dims(p, "the tile", r->tile, &nd))
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
	if (dims(p, "the region's sizes", r->shape, &r->ndims))
		return -1;
	bool seen[4] = {false, false, false, false};
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++)
		r->window.hi[k] = r->shape[k];
	r->node0 = r->node1 = t->nnodes;
	t->nregions++; /* before its fields: param= is read into it */
	p->in_control = false;
	while (!at_end(p))
		if (region_field(p, &t->regions[t->nregions - 1], seen))
			return -1;
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
	if (x->kind == EMU_TN_STORE)
		return perr(p, at, "unknown node '%.*s'; operands must be defined above", (int)n,
			    p->s + at);
	/* A tensor names its array's rows (no copy): a store into the array
	 * since then would change it under an SSA name. */
	for (size_t k = (size_t)i + 1; x->kind == EMU_TN_TENSOR && k < p->t->nnodes; k++)
		if (p->t->nodes[k].kind == EMU_TN_STORE && p->t->nodes[k].array == x->array)
			return perr(p, at, "'%s' is a tensor of array '%s', which the store at "
				    "line %d has written since; read the array again with a new "
				    "tensor node", x->name, p->t->arrays[x->array].name,
				    p->t->nodes[k].line);
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

/* One bound of a box: an expression; a constant one is checked here,
 * one with parameters at each run (tdfg_prog.c). */
static int box_bound(tp *p, const emu_tregion *r, const char *what, uint64_t lo, uint64_t hi,
		     emu_texpr *e, uint64_t *v)
{
	const size_t at = (blanks(p), p->pos);
	if (expr(p, r, what, false, e))
		return -1;
	if (!texpr_const(e)) {
		*v = lo;
		return 0;
	}
	if (e->c < (int64_t)lo || (uint64_t)e->c > hi)
		return perr(p, at, "%s %" PRId64 " is out of range; expected %" PRIu64 " to %" PRIu64,
			    what, e->c, lo, hi);
	*v = (uint64_t)e->c;
	return 0;
}

/* box=LO:HI[,LO:HI...] of an input, a tensor or a store, inside the
 * region; dimensions not given span the lattice. */
static int input_box(tp *p, emu_tnode *x, const emu_tregion *r)
{
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++) {
		x->dom.lo[k] = 0;
		x->dom.hi[k] = r->shape[k];
		memset(x->box_e[k], 0, sizeof x->box_e[k]);
		x->box_e[k][1].c = (int64_t)r->shape[k];
	}
	x->has_box = true;
	for (unsigned k = 0;; k++) {
		uint64_t lo, hi;
		if (k == r->ndims)
			return perr(p, p->pos, "too many box dimensions: region '%s' has %u", r->name,
				    r->ndims);
		if (box_bound(p, r, "box start", 0, r->shape[k] - 1, &x->box_e[k][0], &lo) ||
		    expect_char(p, ':', "':' between the box's start and end") ||
		    box_bound(p, r, "box end", texpr_const(&x->box_e[k][0]) ? lo + 1 : 1,
			      r->shape[k], &x->box_e[k][1], &hi))
			return -1;
		x->dom.lo[k] = lo;
		x->dom.hi[k] = texpr_const(&x->box_e[k][1]) ? hi : r->shape[k];
		if (x->dom.lo[k] >= x->dom.hi[k])
			x->dom.lo[k] = 0;
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
		if (k == r->ndims && p->s[p->pos] != ',')
			return perr(p, p->pos, "unexpected text after the shift node");
		if (k == r->ndims)
			return perr(p, p->pos, "too many offsets: region '%s' has %u dimension%s",
				    r->name, r->ndims, r->ndims == 1 ? "" : "s");
		if (expect_char(p, ',', "',' and an offset") ||
		    expr(p, r, "an offset", true, &x->off_e[k]))
			return -1;
		x->off[k] = x->off_e[k].c;
		moving += !texpr_const(&x->off_e[k]) || x->off[k] != 0;
		k++;
	}
	if (k == 0)
		return perr(p, at0, "expected ', OFFSET' for each dimension after the source");
	if (moving != 1)
		return perr(p, at0, "a shift moves along exactly one dimension; %u offsets are "
			    "nonzero", moving);
	for (k = 0; k < EMU_LAYOUT_DIMS; k++)
		if (!texpr_const(&x->off_e[k]))
			x->off[k] = 0;
	if (loose(p))
		x->dom = s->dom;
	for (k = 0; k < EMU_LAYOUT_DIMS && !loose(p); k++) {
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
	if (s->dom.hi[dim] - s->dom.lo[dim] != 1 && !loose(p))
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
		if (x->dom.lo[k] >= x->dom.hi[k] && !loose(p))
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

/* ---- strm nodes (infinity-stream §3.3, Fig 5; strm.c) ---- */

bool emu_strm_type_ok(unsigned fmt, unsigned width, unsigned sg)
{
	if (fmt == ISA_FMT_F32)
		return true;
	return fmt == ISA_FMT_INT && (width == 8 || width == 32 || (width == 64 && sg));
}

int emu_strm_gather_domain(const emu_tnode *a, const emu_tnode *ix, unsigned dim,
			   emu_box *dom, char *why, size_t size)
{
	*dom = a->dom;
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++) {
		if (k == dim) {
			dom->lo[k] = ix->dom.lo[k];
			dom->hi[k] = ix->dom.hi[k];
		} else if (ix->dom.hi[k] - ix->dom.lo[k] != 1) {
			snprintf(why, size, "the index '%s' must be one element wide along every "
				 "dimension but %u (it spans [%" PRIu64 ", %" PRIu64 ") along "
				 "dimension %u)", ix->name, dim, ix->dom.lo[k], ix->dom.hi[k], k);
			return -1;
		}
	}
	return 0;
}

/* The element type after "strm.gather." or "strm.reduce.OP.", one that
 * the stream engines compute on (emu_strm_type_ok). */
static int strm_type(tp *p, emu_tnode *x, size_t at)
{
	char tn[16];
	if (!emu_strm_type_ok(x->fmt, x->width, x->is_signed))
		return perr(p, at, "a strm node holds i8, u8, i32, u32, i64 or f32 elements (the "
			    "stream engines' types), not %s",
			    isa_type_name(x->fmt, x->width, x->is_signed, tn, sizeof tn));
	return 0;
}

/* strm.gather.TYPE SRC, INDEX, DIM: x[.., i, ..] = SRC[.., INDEX[i], ..]
 * along DIM, the index read at INDEX's first position of every other
 * dimension (one indirect level, Fig 5's B[A[i] + w]). */
static int node_gather(tp *p, emu_tnode *x, const emu_tregion *r)
{
	char why[256], tn[16];
	if (expect_char(p, '.', "'.' and the element type (strm.gather.f32)"))
		return -1;
	const size_t t1 = p->pos;
	if (type_word(p, x) || strm_type(p, x, t1))
		return -1;
	memset(&x->c, 0, sizeof x->c);
	x->c.fmt = x->fmt;
	x->c.width = x->width;
	x->c.is_signed = x->is_signed;
	if (compute_arg(p, x, 0) || expect_char(p, ',', "',' and the index node"))
		return -1;
	blanks(p);
	const size_t at = p->pos;
	if (operand(p, &x->arg[1]))
		return -1;
	const emu_tnode *ix = &p->t->nodes[x->arg[1]];
	if (ix->fmt != ISA_FMT_INT || !emu_strm_type_ok(ix->fmt, ix->width, ix->is_signed))
		return perr(p, at, "the index '%s' holds %s elements; expected i8, u8, i32, u32 "
			    "or i64", ix->name,
			    isa_type_name(ix->fmt, ix->width, ix->is_signed, tn, sizeof tn));
	x->nargs = 2;
	if (expect_char(p, ',', "',' and the dimension the index selects along"))
		return -1;
	uint64_t dim;
	const size_t dat = (blanks(p), p->pos);
	if (unsigned_in(p, "dimension", 0, r->ndims - 1u, &dim))
		return -1;
	x->dim = (uint8_t)dim;
	x->strm = true;
	if (emu_strm_gather_domain(&p->t->nodes[x->arg[0]], ix, x->dim, &x->dom, why,
				   sizeof why) && !loose(p))
		return perr(p, dat, "%s", why);
	return 0;
}

/* strm.reduce.OP.TYPE SRC, DIM: a reduce whose last step runs near
 * memory (§3.3, Fig 4b): add, min or max; floats only add. */
static int node_strm_reduce(tp *p, emu_tnode *x, const emu_tregion *r)
{
	const size_t at = p->pos + 1;
	if (node_reduce(p, x, r))
		return -1;
	const char *op = isa_info_of(x->c.op)->name;
	if (strcmp(op, "add") && strcmp(op, "min") && strcmp(op, "max"))
		return perr(p, at, "strm.reduce takes add, min or max (the stream engines' "
			    "reductions), not %s", op);
	if (x->fmt == ISA_FMT_F32 && strcmp(op, "add"))
		return perr(p, at, "strm.reduce.%s does not take f32 elements; a float "
			    "reduction near memory is an add", op);
	x->strm = true;
	return strm_type(p, x, at);
}

/* ", INDEX, DIM" of a store or update stream; *dat: where DIM is. */
static int update_index(tp *p, emu_tnode *x, const emu_tregion *r, size_t *dat)
{
	char f[40];
	p->pos++;
	blanks(p);
	const size_t iat = p->pos;
	if (operand(p, &x->arg[2]))
		return -1;
	const emu_tnode *ix = &p->t->nodes[x->arg[2]];
	if (ix->fmt != ISA_FMT_INT || !emu_strm_type_ok(ix->fmt, ix->width, ix->is_signed))
		return perr(p, iat, "the index '%s' holds %s elements; expected i8, u8, i32, u32 "
			    "or i64", ix->name,
			    isa_type_name(ix->fmt, ix->width, ix->is_signed, f, sizeof f));
	x->nargs = 3;
	if (expect_char(p, ',', "',' and the dimension the index selects along"))
		return -1;
	uint64_t dim;
	*dat = (blanks(p), p->pos);
	if (unsigned_in(p, "dimension", 0, r->ndims - 1u, &dim))
		return -1;
	x->dim = (uint8_t)dim;
	return 0;
}

/* strm.store.TYPE C, V[, INDEX, DIM] and strm.update.OP.TYPE C, V[,
 * INDEX, DIM]: a store stream writing (or read-modify-writing with OP:
 * add, min, max; floats only add) the tensor C, affine or with one
 * indirect level along DIM (strm.c; §3.3, §5.3). */
static int node_update(tp *p, emu_tnode *x, const emu_tregion *r, bool rmw)
{
	static const char *const ops[] = {"add", "min", "max"};
	char f[40], why[256];
	int op = ISA_COPY;
	size_t k = 0;
	if (expect_char(p, '.', rmw ? "'.' and add, min or max (strm.update.add.f32)"
				    : "'.' and the element type (strm.store.f32)"))
		return -1;
	const size_t at = p->pos;
	if (rmw) {
		const size_t n = ident_len(p, at);
		while (k < 3 && !is_word(p, at, n, ops[k]))
			k++;
		if (k == 3)
			return perr(p, at, "strm.update takes add, min or max (the stream engines' "
				    "read-modify-writes), found %s", found(p, at, f, sizeof f));
		p->pos = at + n;
		if (expect_char(p, '.', "'.' and the element type (strm.update.add.f32)"))
			return -1;
	}
	const size_t t1 = p->pos;
	if (type_word(p, x) || strm_type(p, x, t1))
		return -1;
	if (rmw && x->fmt == ISA_FMT_F32 && k)
		return perr(p, at, "strm.update.%s does not take f32 elements; a float update "
			    "near memory is an add", ops[k]);
	if (rmw)
		op = isa_lookup_fmt(ops[k], x->fmt);
	memset(&x->c, 0, sizeof x->c);
	x->c.op = (uint16_t)op;
	x->c.fmt = x->fmt;
	x->c.width = x->width;
	x->c.is_signed = x->is_signed;
	if (compute_arg(p, x, 0) || compute_arg(p, x, 1))
		return -1;
	blanks(p);
	size_t dat = p->pos;
	if (p->pos < p->len && p->s[p->pos] == ',' && update_index(p, x, r, &dat))
		return -1;
	const emu_tnode *ix = x->nargs > 2 ? &p->t->nodes[x->arg[2]] : NULL;
	x->strm = true;
	if (emu_strm_update_domain(&p->t->nodes[x->arg[0]], &p->t->nodes[x->arg[1]], ix, x->dim,
				   &x->dom, why, sizeof why) && !loose(p))
		return perr(p, dat, "%s", why);
	return 0;
}

static int node_strm(tp *p, emu_tnode *x, const emu_tregion *r)
{
	char f[40];
	if (expect_char(p, '.', "'.' and a stream after 'strm' (strm.reduce, strm.gather, strm.store or strm.update)"))
		return -1;
	const size_t at = p->pos;
	const size_t n = ident_len(p, at);
	p->pos = at + n;
	if (is_word(p, at, n, "reduce")) {
		x->kind = EMU_TN_REDUCE;
		return node_strm_reduce(p, x, r);
	}
	if (is_word(p, at, n, "gather")) {
		x->kind = EMU_TN_GATHER;
		return node_gather(p, x, r);
	}
	if (is_word(p, at, n, "store") || is_word(p, at, n, "update")) {
		x->kind = EMU_TN_UPDATE;
		return node_update(p, x, r, p->s[at] == 'u');
	}
	p->pos = at;
	return perr(p, at, "expected reduce, gather, store or update after 'strm.', found %s",
		    found(p, at, f, sizeof f));
}

/* ---- arrays, tensors and stores (doc/TDFG.md, "Programs") ---- */

/* Among n records of size stride whose first member is their name (an
 * array, a region), the one called name[0..len), or -1. */
static long find_named(const void *v, size_t n, size_t stride, const char *name, size_t len)
{
	for (size_t i = 0; i < n; i++) {
		const char *rn = (const char *)v + i * stride;
		if (strlen(rn) == len && memcmp(rn, name, len) == 0)
			return (long)i;
	}
	return -1;
}

static long find_array(const emu_tdfg *t, const char *name, size_t len)
{
	return find_named(t->arrays, t->narrays, sizeof *t->arrays, name, len);
}

/* A name at pos among the records (find_named): *idx its index; unknown
 * names are told where to define them. */
static int named_ref(tp *p, const char *what, const char *expected, const void *v, size_t n,
		     size_t stride, const char *where, uint32_t *idx)
{
	size_t len;
	if (word(p, expected, &len))
		return -1;
	const size_t at = p->pos;
	const long i = find_named(v, n, stride, p->s + at, len);
	if (i < 0)
		return perr(p, at, "unknown %s '%.*s'; %s", what, (int)len, p->s + at, where);
	*idx = (uint32_t)i;
	p->pos = at + len;
	return 0;
}

static int array_ref(tp *p, uint32_t *a)
{
	return named_ref(p, "array", "an array name", p->t->arrays, p->t->narrays, sizeof *p->t->arrays,
			 "declare it above with 'array NAME TYPE SIZES'", a);
}

/* The arrays a region reads and stores have its sizes: they sit at the
 * lattice's origin (§3.2), so element (i0, i1, i2) of the array is cell
 * (i0, i1, i2) of the region. */
static int array_fits(tp *p, size_t at, const emu_tarray *a, const emu_tregion *r)
{
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++)
		if (a->shape[k] != r->shape[k] || a->ndims != r->ndims) {
			char as[64], rs[64];
			snprintf(as, sizeof as, "%" PRIu64 "x%" PRIu64 "x%" PRIu64, a->shape[0],
				 a->shape[1], a->shape[2]);
			snprintf(rs, sizeof rs, "%" PRIu64 "x%" PRIu64 "x%" PRIu64, r->shape[0],
				 r->shape[1], r->shape[2]);
			return perr(p, at, "array '%s' is %s but region '%s' is %s; a region reads and "
				    "stores arrays of its own sizes (§3.2: arrays sit at the lattice's "
				    "origin)", a->name, as, r->name, rs);
		}
	return 0;
}

/* box=... after a tensor or a store, at most once. */
static int opt_box(tp *p, emu_tnode *x, const emu_tregion *r, const char *what)
{
	char f[40];
	if (at_end(p))
		return 0;
	const size_t at = p->pos;
	if (p->len - at < 4 || memcmp(p->s + at, "box=", 4) != 0)
		return perr(p, at, "expected box=LO:HI,... or the end of the %s, found %s", what,
			    found(p, at, f, sizeof f));
	p->pos += 4;
	return input_box(p, x, r);
}

/* tensor ARRAY [box=...]: the array's elements in the box (default:
 * the region's window), read in place (§3.2's tensor node). */
static int node_tensor(tp *p, emu_tnode *x, const emu_tregion *r)
{
	blanks(p);
	const size_t at = p->pos;
	if (array_ref(p, &x->array))
		return -1;
	const emu_tarray *a = &p->t->arrays[x->array];
	if (array_fits(p, at, a, r))
		return -1;
	x->fmt = a->fmt;
	x->width = a->width;
	x->is_signed = a->is_signed;
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++)
		x->dom.hi[k] = r->shape[k];
	return opt_box(p, x, r, "tensor node");
}

/* store ARRAY, NODE [box=...]: NODE's value into the array's box
 * (default: NODE's domain). */
static int parse_store(tp *p, size_t at)
{
	emu_tdfg *t = p->t;
	if (!t->nregions || p->in_control)
		return perr(p, at, "'store' belongs to a region; expected 'region NAME SIZES' first");
	emu_tnode *nn = grow(t->nodes, &p->capn, t->nnodes, sizeof *nn);
	if (!nn)
		return perr(p, at, "out of memory");
	t->nodes = nn;
	emu_tnode *x = &nn[t->nnodes];
	memset(x, 0, sizeof *x);
	x->kind = EMU_TN_STORE;
	x->line = p->line;
	x->col = x->op_col = (int)at + 1;
	x->region = (uint32_t)(t->nregions - 1);
	x->buf = -1;
	const emu_tregion *r = cur_region(p);
	blanks(p);
	const size_t aat = p->pos;
	if (array_ref(p, &x->array) || array_fits(p, aat, &t->arrays[x->array], r) ||
	    expect_char(p, ',', "',' and the node to store"))
		return -1;
	blanks(p);
	const size_t nat = p->pos;
	if (operand(p, &x->arg[0]))
		return -1;
	x->nargs = 1;
	const emu_tnode *v = &t->nodes[x->arg[0]];
	const emu_tarray *a = &t->arrays[x->array];
	if (v->fmt != a->fmt || v->width != a->width || v->is_signed != a->is_signed) {
		char want[16], has[16];
		return perr(p, nat, "'%s' holds %s elements; array '%s' holds %s", v->name,
			    isa_type_name(v->fmt, v->width, v->is_signed, has, sizeof has), a->name,
			    isa_type_name(a->fmt, a->width, a->is_signed, want, sizeof want));
	}
	x->fmt = a->fmt;
	x->width = a->width;
	x->is_signed = a->is_signed;
	x->dom = v->dom;
	/* Listings name it as written; no operand can name it (not an
	 * identifier). */
	snprintf(x->name, sizeof x->name, "store %.*s", (int)(sizeof x->name - 7), a->name);
	if (opt_box(p, x, r, "store"))
		return -1;
	t->nnodes++;
	t->regions[x->region].node1 = t->nnodes;
	return 0;
}

/* load=FILE: a path relative to the tDFG's folder (a .npy or .bin, read
 * as `infsim run --load` reads it). */
static int array_load(tp *p, emu_tarray *a, size_t at, size_t end)
{
	if (end == at)
		return perr(p, at, "expected a file name after load=");
	const char *slash = strrchr(p->path, '/');
	const int dir = p->s[at] == '/' || !slash ? 0 : (int)(slash - p->path + 1);
	const int n = snprintf(a->load, sizeof a->load, "%.*s%.*s", dir, p->path,
			       (int)(end - at), p->s + at);
	if (n < 0 || (size_t)n >= sizeof a->load)
		return perr(p, at, "load= names a path longer than %zu characters",
			    sizeof a->load - 1);
	return 0;
}

/* array NAME TYPE SIZES [init=KIND | load=FILE]: init's text is the
 * stream's. */
static int parse_array(tp *p)
{
	emu_tdfg *t = p->t;
	size_t n;
	char f[40];
	if (word(p, "an array name after 'array'", &n))
		return -1;
	const size_t at = p->pos;
	if (name_ok(p, at, n, "array"))
		return -1;
	const long dup = find_array(t, p->s + at, n), node = emu_tdfg_find(t, p->s + at, n);
	if (dup >= 0 || node >= 0)
		return perr(p, at, "'%.*s' is defined twice (first at line %d); arrays and nodes "
			    "share one name space", (int)n, p->s + at,
			    dup >= 0 ? t->arrays[dup].line : t->nodes[node].line);
	emu_tarray *na = grow(t->arrays, &p->capa, t->narrays, sizeof *na);
	if (!na)
		return perr(p, at, "out of memory");
	t->arrays = na;
	emu_tarray *a = &na[t->narrays];
	memset(a, 0, sizeof *a);
	memcpy(a->name, p->s + at, n);
	a->line = p->line;
	a->col = (int)at + 1;
	a->buf = -1;
	p->pos = at + n;
	emu_tnode ty;
	if (type_word(p, &ty))
		return -1;
	a->fmt = ty.fmt;
	a->width = ty.width;
	a->is_signed = ty.is_signed;
	if (dims(p, "the array's sizes", a->shape, &a->ndims))
		return -1;
	if (!at_end(p)) {
		const size_t i = p->pos;
		size_t e = i;
		while (e < p->len && !text_is_space(p->s[e]) && p->s[e] != '#')
			e++;
		if (p->len - i >= 5 && memcmp(p->s + i, "load=", 5) == 0) {
			if (array_load(p, a, i + 5, e))
				return -1;
		} else if (p->len - i > 5 && memcmp(p->s + i, "init=", 5) == 0) {
			if (e - i >= sizeof a->init_text)
				return perr(p, i, "init= is too long");
			memcpy(a->init_text, p->s + i, e - i);
			a->init_col = (int)i + 1;
		} else {
			return perr(p, i, "expected init=KIND, load=FILE or the end of the array line, "
				    "found %s", found(p, i, f, sizeof f));
		}
		p->pos = e;
		if (!at_end(p))
			return perr(p, p->pos, "expected the end of the array line, found %s",
				    found(p, p->pos, f, sizeof f));
	}
	t->program = true;
	t->narrays++;
	return 0;
}

/* ---- control (doc/TDFG.md, "Programs") ---- */

static emu_tctl *new_ctl(tp *p, size_t at, unsigned kind)
{
	emu_tctl *nc = grow(p->t->ctl, &p->capc, p->t->nctl, sizeof *nc);
	if (!nc) {
		perr(p, at, "out of memory");
		return NULL;
	}
	p->t->ctl = nc;
	emu_tctl *c = &nc[p->t->nctl++];
	memset(c, 0, sizeof *c);
	c->kind = (uint8_t)kind;
	c->line = p->line;
	c->col = (int)at + 1;
	p->in_control = true;
	p->t->program = true;
	return c;
}

static int region_ref(tp *p, uint32_t *r)
{
	return named_ref(p, "region", "a region name", p->t->regions, p->t->nregions, sizeof *p->t->regions,
			 "a region is defined above its runs", r);
}

/* Is name a variable of an enclosing `for`? */
static bool loop_var(const tp *p, const char *name)
{
	for (unsigned i = 0; i < p->depth; i++) {
		const emu_tctl *c = &p->t->ctl[p->open[i]];
		if (c->kind == EMU_TC_FOR && strcmp(c->var, name) == 0)
			return true;
	}
	return false;
}

/* run REGION: its parameters take the values of the enclosing loops'
 * variables of the same names. */
static int parse_run(tp *p, size_t at)
{
	emu_tctl *c = new_ctl(p, at, EMU_TC_RUN);
	if (!c || region_ref(p, &c->a))
		return -1;
	const emu_tregion *r = &p->t->regions[c->a];
	for (unsigned k = 0; k < r->nparams; k++)
		if (!loop_var(p, r->param[k]))
			return perr(p, at, "region '%s' takes parameter '%s'; run it inside 'for %s = "
				    "LO, HI'", r->name, r->param[k], r->param[k]);
	return 0;
}

static int open_block(tp *p, size_t at)
{
	if (p->depth == sizeof p->open / sizeof p->open[0])
		return perr(p, at, "loops nest at most %zu deep",
			    sizeof p->open / sizeof p->open[0]);
	p->open[p->depth++] = p->t->nctl - 1;
	return 0;
}

/* An integer of a loop: a constant expression in [lo, hi]. */
static int loop_int(tp *p, const char *what, int64_t lo, int64_t hi, int64_t *v)
{
	const size_t at = (blanks(p), p->pos);
	if (const_expr(p, what, v))
		return -1;
	if (*v < lo || *v > hi)
		return perr(p, at, "%s %" PRId64 " is out of range; expected %" PRId64 " to %" PRId64,
			    what, *v, lo, hi);
	return 0;
}

/* repeat N ... end */
static int parse_repeat(tp *p, size_t at)
{
	emu_tctl *c = new_ctl(p, at, EMU_TC_REPEAT);
	return !c || loop_int(p, "repeat count", 1, 1000000, &c->hi) ? -1 : open_block(p, at);
}

/* for VAR = LO, HI ... end: VAR takes LO, LO + 1, ..., HI - 1. */
static int parse_for(tp *p, size_t at)
{
	emu_tctl *c = new_ctl(p, at, EMU_TC_FOR);
	size_t n;
	if (!c || word(p, "a variable name after 'for'", &n))
		return -1;
	const size_t v = p->pos;
	if (n >= EMU_NAME_MAX)
		return perr(p, v, "variable name is %zu characters long; expected at most %d", n,
			    EMU_NAME_MAX - 1);
	memcpy(c->var, p->s + v, n);
	if (loop_var(p, c->var))
		return perr(p, v, "'%s' is already the variable of an enclosing loop", c->var);
	const emu_tpar *g = emu_tpar_find(p->par, p->npar, c->var, n);
	if (g)
		return perr(p, v, "'%s' is a program parameter (line %d); a loop variable needs a "
			    "name of its own", g->name, g->line);
	p->pos = v + n;
	if (expect_char(p, '=', "'=' after the loop variable") ||
	    loop_int(p, "loop start", -(int64_t)UINT32_MAX, UINT32_MAX, &c->lo) ||
	    expect_char(p, ',', "',' and the loop's end (exclusive)") ||
	    loop_int(p, "loop end", c->lo + 1, c->lo + 1000000, &c->hi))
		return -1;
	return open_block(p, at);
}

static int parse_end(tp *p, size_t at)
{
	if (!p->depth)
		return perr(p, at, "'end' without an open 'repeat' or 'for'");
	emu_tctl *c = new_ctl(p, at, EMU_TC_END);
	if (!c)
		return -1;
	p->t->ctl[p->open[--p->depth]].end = p->t->nctl - 1;
	return 0;
}

/* swap A, B: from here on each name means the other's data (ping-pong). */
static int parse_swap(tp *p, size_t at)
{
	emu_tctl *c = new_ctl(p, at, EMU_TC_SWAP);
	if (!c || array_ref(p, &c->a) || expect_char(p, ',', "',' and the second array"))
		return -1;
	blanks(p);
	const size_t bat = p->pos;
	if (array_ref(p, &c->b))
		return -1;
	const emu_tarray *a = &p->t->arrays[c->a], *b = &p->t->arrays[c->b];
	if (c->a == c->b)
		return perr(p, bat, "swap of '%s' with itself; expected two arrays", a->name);
	if (a->fmt != b->fmt || a->width != b->width || a->is_signed != b->is_signed ||
	    memcmp(a->shape, b->shape, sizeof a->shape) != 0)
		return perr(p, bat, "swap needs arrays of one type and sizes; '%s' and '%s' differ",
			    a->name, b->name);
	return 0;
}

/* shrink REGION, D0[, D1[, D2]]: the region's later runs work on a
 * smaller window: D > 0 raises the low edge of dimension k by D, D < 0
 * lowers its high edge by -D. */
static int parse_shrink(tp *p, size_t at)
{
	emu_tctl *c = new_ctl(p, at, EMU_TC_SHRINK);
	if (!c || region_ref(p, &c->a))
		return -1;
	const emu_tregion *r = &p->t->regions[c->a];
	unsigned k = 0;
	while (!at_end(p)) {
		if (k == r->ndims)
			return perr(p, p->pos, "too many steps: region '%s' has %u dimension%s",
				    r->name, r->ndims, r->ndims == 1 ? "" : "s");
		if (expect_char(p, ',', "',' and a step") ||
		    loop_int(p, "shrink step", -(int64_t)UINT32_MAX, UINT32_MAX, &c->d[k]))
			return -1;
		k++;
	}
	if (k == 0)
		return perr(p, p->pos, "expected ', STEP' for each dimension after the region");
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
	if (p->in_control)
		return perr(p, at, "node '%.*s' follows a control statement; a region's nodes come "
			    "right after its 'region' line", (int)n, p->s + at);
	if (find_array(t, p->s + at, n) >= 0)
		return perr(p, at, "'%.*s' is an array; arrays and nodes share one name space",
			    (int)n, p->s + at);
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
	if (word(p, "input, const, shift, bcast, reduce, strm or a command such as add.f32", &kn))
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
	} else if (is_word(p, k, kn, "tensor")) {
		x->kind = EMU_TN_TENSOR;
		rc = node_tensor(p, x, r);
	} else if (is_word(p, k, kn, "bcast")) {
		x->kind = EMU_TN_BCAST;
		rc = node_bcast(p, x, r);
	} else if (is_word(p, k, kn, "strm")) {
		rc = node_strm(p, x, r);
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

/* Is name (n characters) a param= of a region so far? */
static const emu_tregion *region_param(const tp *p, const char *name, size_t n)
{
	for (size_t i = 0; i < p->t->nregions; i++)
		for (unsigned k = 0; k < p->t->regions[i].nparams; k++)
			if (strlen(p->t->regions[i].param[k]) == n &&
			    memcmp(p->t->regions[i].param[k], name, n) == 0)
				return &p->t->regions[i];
	return NULL;
}

/* param NAME = EXPR: a program parameter, used by the sizes, bounds and
 * loops below it; a -D NAME=VALUE replaces EXPR's value (the paper's
 * sizes from the samples' small ones, doc/TDFG.md "Parameters"). */
static int parse_param(tp *p, size_t at)
{
	size_t n;
	if (word(p, "a parameter name after 'param'", &n))
		return -1;
	const size_t v = p->pos;
	if (name_ok(p, v, n, "parameter"))
		return -1;
	const emu_tpar *dup = emu_tpar_find(p->par, p->npar, p->s + v, n);
	if (dup)
		return perr(p, v, "parameter '%s' is declared twice (first at line %d)", dup->name,
			    dup->line);
	const emu_tregion *r = region_param(p, p->s + v, n);
	if (r)
		return perr(p, v, "'%.*s' is a parameter of region '%s' (param=); a program "
			    "parameter needs a name of its own", (int)n, p->s + v, r->name);
	if (p->npar == EMU_TPAR_MAX)
		return perr(p, at, "too many parameters; a program declares at most %d",
			    EMU_TPAR_MAX);
	p->pos = v + n;
	emu_tpar *x = &p->par[p->npar];
	memset(x, 0, sizeof *x);
	if (expect_char(p, '=', "'=' and the parameter's value") ||
	    const_expr(p, "the parameter's value", &x->value))
		return -1;
	memcpy(x->name, p->s + v, n);
	x->line = p->line;
	for (size_t i = 0; i < p->ndefs; i++)
		if (strcmp(p->defs[i].name, x->name) == 0) {
			x->value = p->defs[i].value;
			x->defined = true;
			p->def_used[i] = true;
		}
	p->npar++;
	return 0;
}

static int statement(tp *p)
{
	size_t n;
	char f[40];
	if (at_end(p))
		return 0;
	if (word(p, "machine, param, array, region, output, store, a control statement (run, "
		 "repeat, for, end, swap, shrink) or 'NAME = ...'", &n))
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
	if (is_word(p, at, n, "array"))
		return parse_array(p);
	if (is_word(p, at, n, "store"))
		return parse_store(p, at);
	if (is_word(p, at, n, "param")) {
		if (parse_param(p, at))
			return -1;
		return at_end(p) ? 0 : perr(p, p->pos, "expected the end of the param line, found %s",
					    found(p, p->pos, f, sizeof f));
	}
	static const char *const ctl[] = {"run", "repeat", "for", "end", "swap", "shrink"};
	static int (*const ctl_fn[])(tp *, size_t) = {parse_run, parse_repeat, parse_for,
						      parse_end, parse_swap, parse_shrink};
	for (unsigned k = 0; k < 6; k++)
		if (is_word(p, at, n, ctl[k])) {
			if (ctl_fn[k](p, at))
				return -1;
			return at_end(p) ? 0 : perr(p, p->pos, "unexpected %s after '%s'",
						    found(p, p->pos, f, sizeof f), ctl[k]);
		}
	return perr(p, at, "expected machine, param, array, region, output, store, a control "
		    "statement (run, repeat, for, end, swap, shrink) or 'NAME = ...', found %s",
		    found(p, at, f, sizeof f));
}

/* A -D for a name the program does not declare is a mistake (a typo
 * would otherwise run the small size silently). */
static int defs_used(const tp *p)
{
	for (size_t i = 0; i < p->ndefs; i++) {
		if (p->def_used[i])
			continue;
		char list[160] = "";
		size_t k = 0;
		for (unsigned j = 0; j < p->npar && k + 1 < sizeof list; j++)
			k += (size_t)snprintf(list + k, sizeof list - k, "%s%s", j ? ", " : "",
					      p->par[j].name);
		diag_file(p->d, p->path, "-D %s: the program declares no parameter '%s' (%s%s)",
			  p->defs[i].name, p->defs[i].name, p->npar ? "it declares " :
			  "it declares none", list);
		return -1;
	}
	return 0;
}

static int finish(tp *p)
{
	emu_tdfg *t = p->t;
	if (defs_used(p))
		return -1;
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
	if (p->depth) {
		const emu_tctl *c = &t->ctl[p->open[p->depth - 1]];
		diag_at(p->d, p->path, c->line, c->col, "this '%s' has no 'end'",
			c->kind == EMU_TC_FOR ? "for" : "repeat");
		return -1;
	}
	return emu_tdfg_expand(t, p->d);
}

int emu_tdfg_parse(const char *path, const char *text, size_t len,
		   const sram_geom *geom_default, const emu_geom_override *ov,
		   emu_tdfg *out, diag *d)
{
	return emu_tdfg_parse_defs(path, text, len, geom_default, ov, NULL, 0, out, d);
}

/* -D NAME=VALUE: each name once, at most EMU_TPAR_MAX of them. */
static int defs_ok(const char *path, const emu_tdfg_def *defs, size_t ndefs, diag *d)
{
	if (ndefs > EMU_TPAR_MAX) {
		diag_file(d, path, "%zu -D options; a program declares at most %d parameters", ndefs,
			  EMU_TPAR_MAX);
		return -1;
	}
	for (size_t i = 0; i < ndefs; i++)
		for (size_t k = 0; k < i; k++)
			if (strcmp(defs[i].name, defs[k].name) == 0) {
				diag_file(d, path, "-D %s is given twice", defs[i].name);
				return -1;
			}
	return 0;
}

int emu_tdfg_parse_defs(const char *path, const char *text, size_t len,
			const sram_geom *geom_default, const emu_geom_override *ov,
			const emu_tdfg_def *defs, size_t ndefs, emu_tdfg *out, diag *d)
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
	if (defs_ok(path, defs, ndefs, d))
		return -1;
	memset(&p, 0, sizeof p);
	p.path = path;
	p.t = out;
	p.d = d;
	p.ov = ov;
	p.defs = defs;
	p.ndefs = ndefs;
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
	return emu_tdfg_parse_file_defs(path, geom_default, ov, NULL, 0, out, d);
}

int emu_tdfg_parse_file_defs(const char *path, const sram_geom *geom_default,
			     const emu_geom_override *ov, const emu_tdfg_def *defs, size_t ndefs,
			     emu_tdfg *out, diag *d)
{
	char *text;
	size_t len;
	emu_tdfg_init(out);
	if (text_read_file(path, TEXT_FILE_MAX, &text, &len, d))
		return -1;
	int rc = emu_tdfg_parse_defs(path, text, len, geom_default, ov, defs, ndefs, out, d);
	free(text);
	return rc;
}
