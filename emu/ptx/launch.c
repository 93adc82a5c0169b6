/* SPDX-License-Identifier: MIT */
/*
 * launch.c: the launch text read against a module into a plan (its
 * arrays placed in one device memory, its calls with their arguments'
 * bits), and the plan run on the reference (launch.h; doc/PTX.md,
 * "Launches").  One pass over the text, no recursion; every size is
 * checked before it is multiplied or added.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launch.h"
#include "ptx_int.h"
#include "text.h"

/* CUDA's limits of a grid and a block (PTX's %nctaid and %ntid). */
#define GRID_X_MAX 0x7fffffffu
#define GRID_YZ_MAX 65535u
#define BLOCK_XY_MAX 1024u
#define BLOCK_Z_MAX 64u

/* ---- tokens ---- */

enum { LT_EOF, LT_ID, LT_NUM, LT_PUNCT, LT_OPEN, LT_CLOSE };

typedef struct ltok {
	int kind;
	char c;              /* LT_PUNCT */
	const char *s;
	size_t n;
	int line, col;
	bool nl;             /* a newline (or the text's start) before it */
} ltok;

typedef struct lx {
	const char *s;
	size_t len, pos, ls;
	int line;
	ltok t;
} lx;

typedef struct ps {
	lx x;
	const char *src;
	const ptx_module *m;
	const tgt_def *defs;
	size_t ndefs;
	uint64_t cap;        /* bytes the arrays may take */
	uint64_t top;        /* bytes they take so far */
	ptx_plan *p;
	size_t acap, ccap;
	diag *d;
} ps;

__attribute__((format(printf, 4, 5)))
static int err(ps *P, int line, int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vat(P->d, P->src, line, col, fmt, ap);
	va_end(ap);
	return -1;
}

static bool is_id_char(char c)
{
	return text_is_ident_char(c) || c == '$';
}

/* The next token into P->x.t; -1 on a character no token starts with. */
static int next(ps *P)
{
	lx *x = &P->x;
	bool nl = x->pos == 0;
	for (;;) {
		while (x->pos < x->len && text_is_space(x->s[x->pos]))
			x->pos++;
		if (x->pos < x->len && x->s[x->pos] == '#')
			while (x->pos < x->len && x->s[x->pos] != '\n')
				x->pos++;
		if (x->pos < x->len && x->s[x->pos] == '\n') {
			x->pos++;
			x->line++;
			x->ls = x->pos;
			nl = true;
			continue;
		}
		break;
	}
	ltok *t = &x->t;
	memset(t, 0, sizeof *t);
	t->nl = nl;
	t->line = x->line;
	t->col = (int)(x->pos - x->ls) + 1;
	t->s = x->s + x->pos;
	if (x->pos >= x->len) {
		t->kind = LT_EOF;
		return 0;
	}
	const char *s = x->s + x->pos;
	size_t left = x->len - x->pos, n = 1;
	char c = s[0];
	if (text_is_ident_start(c) || c == '$') {
		while (n < left && is_id_char(s[n]))
			n++;
		t->kind = LT_ID;
	} else if ((c >= '0' && c <= '9') || (c == '.' && left > 1 && s[1] >= '0' && s[1] <= '9')) {
		bool hex = left > 1 && c == '0' && (s[1] | 0x20) == 'x';
		while (n < left) {
			char e = s[n], p = s[n - 1] | 0x20;
			if (text_is_ident_char(e) || e == '.' ||
			    ((e == '+' || e == '-') && (hex ? p == 'p' : p == 'e')))
				n++;
			else
				break;
		}
		t->kind = LT_NUM;
	} else if (left >= 3 && memcmp(s, "<<<", 3) == 0) {
		n = 3;
		t->kind = LT_OPEN;
	} else if (left >= 3 && memcmp(s, ">>>", 3) == 0) {
		n = 3;
		t->kind = LT_CLOSE;
	} else if (strchr("(),;:[]+-<>", c) && c) {
		t->kind = LT_PUNCT;
		t->c = c;
	} else {
		if (c > ' ' && c < 127)
			return err(P, t->line, t->col, "unexpected character '%c' in a launch", c);
		return err(P, t->line, t->col, "unexpected byte 0x%02x in a launch", (unsigned char)c);
	}
	t->n = n;
	x->pos += n;
	return 0;
}

/* The token after the current one, without moving. */
static int peek(ps *P, ltok *out)
{
	lx save = P->x;
	diag keep = *P->d;
	int rc = next(P);
	*out = P->x.t;
	P->x = save;
	if (rc < 0)
		*P->d = keep;
	if (rc < 0)
		out->kind = LT_EOF;
	return 0;
}

static bool is_punct(const ltok *t, char c)
{
	return t->kind == LT_PUNCT && t->c == c;
}

static bool is_word(const ltok *t, const char *w)
{
	return t->kind == LT_ID && t->n == strlen(w) && memcmp(t->s, w, t->n) == 0;
}

/* "'x'", "the end of the text" */
static const char *found(const ltok *t, char *buf, size_t size)
{
	if (t->kind == LT_EOF)
		return "the end of the text";
	snprintf(buf, size, "'%.*s'", t->n > 40 ? 40 : (int)t->n, t->s);
	return buf;
}

__attribute__((format(printf, 2, 3)))
static int expected(ps *P, const char *fmt, ...)
{
	char what[256], buf[64];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	const ltok *t = &P->x.t;
	return err(P, t->line, t->col, "expected %s, found %s", what, found(t, buf, sizeof buf));
}

static int want_punct(ps *P, char c, const char *after)
{
	if (!is_punct(&P->x.t, c))
		return expected(P, "'%c'%s", c, after);
	return next(P);
}

/* ---- values ---- */

/* An integer: its magnitude and sign (so 0xffffffffffffffff and
 * -0x8000000000000000 both fit). */
typedef struct ival {
	uint64_t mag;
	bool neg;
} ival;

static const tgt_def *find_def(const ps *P, const ltok *t)
{
	for (size_t i = P->ndefs; i-- > 0;)
		if (P->defs[i].name && strlen(P->defs[i].name) == t->n &&
		    memcmp(P->defs[i].name, t->s, t->n) == 0)
			return &P->defs[i];
	return NULL;
}

static long find_array(const ps *P, const char *s, size_t n)
{
	for (size_t i = 0; i < P->p->na; i++)
		if (strlen(P->p->a[i].arr.name) == n && memcmp(P->p->a[i].arr.name, s, n) == 0)
			return (long)i;
	return -1;
}

static ival of_int64(int64_t v)
{
	return v < 0 ? (ival){0 - (uint64_t)v, true} : (ival){(uint64_t)v, false};
}

/* A number token that reads as an integer (not 1.5, 1e3, 0x1p3). */
static bool num_is_int(const ltok *t, uint64_t *mag, const char **why)
{
	bool neg;
	size_t used;
	const char *e = "malformed number";
	if (text_scan_number(t->s, t->n, mag, &neg, &used, &e) == 0 && used == t->n)
		return true;
	*why = e;
	return false;
}

/* len(NAME) at the current token "len": the array's element count. */
static int parse_len(ps *P, uint64_t *v)
{
	if (next(P) < 0 || want_punct(P, '(', " after len") < 0)
		return -1;
	ltok t = P->x.t;
	if (t.kind != LT_ID)
		return expected(P, "an array's name in len(NAME)");
	long a = find_array(P, t.s, t.n);
	if (a < 0)
		return err(P, t.line, t.col, "len(%.*s): '%.*s' is not an array declared before it",
			   (int)t.n, t.s, (int)t.n, t.s);
	*v = P->p->a[a].arr.length;
	if (next(P) < 0)
		return -1;
	return want_punct(P, ')', " to close len(NAME)");
}

/* An integer: ['-'] (decimal | 0x hex), a -D name, or len(NAME).  what
 * says what was expected, for the message. */
static int parse_int(ps *P, const char *what, ival *v)
{
	ltok t = P->x.t;
	bool neg = false;
	if (is_punct(&t, '-')) {
		neg = true;
		if (next(P) < 0)
			return -1;
		t = P->x.t;
	}
	if (t.kind == LT_NUM) {
		const char *why;
		if (!num_is_int(&t, &v->mag, &why))
			return err(P, t.line, t.col, "expected %s (an integer), found '%.*s': %s", what,
				   t.n > 40 ? 40 : (int)t.n, t.s, why);
		v->neg = neg && v->mag != 0;
		return next(P);
	}
	if (t.kind == LT_ID && !neg) {
		if (is_word(&t, "len")) {
			ltok n2;
			peek(P, &n2);
			if (is_punct(&n2, '(')) {
				v->neg = false;
				return parse_len(P, &v->mag);
			}
		}
		const tgt_def *def = find_def(P, &t);
		if (!def)
			return err(P, t.line, t.col, "expected %s: '%.*s' is not a -D name (give -D %.*s=VALUE)",
				   what, (int)t.n, t.s, (int)t.n, t.s);
		*v = of_int64(def->value);
		return next(P);
	}
	return expected(P, "%s: an integer, a -D name or len(NAME)", what);
}

/* A size: an integer of at least 1, at most max. */
static int parse_size(ps *P, const char *what, uint64_t max, uint64_t *out)
{
	ltok t = P->x.t;
	ival v;
	if (parse_int(P, what, &v) < 0)
		return -1;
	if (v.neg || v.mag == 0)
		return err(P, t.line, t.col, "%s is %s%" PRIu64 ": expected at least 1", what,
			   v.neg ? "-" : "", v.mag);
	if (v.mag > max)
		return err(P, t.line, t.col, "%s is %" PRIu64 ": at most %" PRIu64 " here", what, v.mag, max);
	*out = v.mag;
	return 0;
}

/* ---- grid and block ---- */

/* N, (X[,Y[,Z]]) or dim3(X[,Y[,Z]]). */
static int parse_dim3(ps *P, const char *what, ptx_dim3 *out)
{
	uint64_t v[3] = {1, 1, 1};
	static const char *const axis[3] = {"x", "y", "z"};
	char name[64];
	ltok t = P->x.t;
	bool paren = is_punct(&t, '(');
	if (is_word(&t, "dim3")) {
		if (next(P) < 0)
			return -1;
		if (!is_punct(&P->x.t, '('))
			return expected(P, "'(' after dim3");
		paren = true;
	}
	if (!paren) {
		snprintf(name, sizeof name, "the %s size", what);
		if (parse_size(P, name, UINT32_MAX, &v[0]) < 0)
			return -1;
	} else {
		if (next(P) < 0)
			return -1;
		for (int i = 0; i < 3; i++) {
			snprintf(name, sizeof name, "the %s's %s size", what, axis[i]);
			if (parse_size(P, name, UINT32_MAX, &v[i]) < 0)
				return -1;
			if (!is_punct(&P->x.t, ','))
				break;
			if (i == 2)
				return expected(P, "')' after the %s's z size (3 dimensions at most)", what);
			if (next(P) < 0)
				return -1;
		}
		snprintf(name, sizeof name, " to close the %s's sizes", what);
		if (want_punct(P, ')', name) < 0)
			return -1;
	}
	*out = (ptx_dim3){(uint32_t)v[0], (uint32_t)v[1], (uint32_t)v[2]};
	return 0;
}

static int check_grid(ps *P, const ltok *at, ptx_dim3 g)
{
	if (g.x > GRID_X_MAX || g.y > GRID_YZ_MAX || g.z > GRID_YZ_MAX)
		return err(P, at->line, at->col,
			   "a grid of (%" PRIu32 ",%" PRIu32 ",%" PRIu32 ") CTAs: x is at most %u, y and z at most %u",
			   g.x, g.y, g.z, GRID_X_MAX, GRID_YZ_MAX);
	return 0;
}

static int check_block(ps *P, const ltok *at, ptx_dim3 b)
{
	uint64_t n = (uint64_t)b.x * b.y * b.z;
	if (b.x > BLOCK_XY_MAX || b.y > BLOCK_XY_MAX || b.z > BLOCK_Z_MAX || n > PTX_MAX_THREADS)
		return err(P, at->line, at->col,
			   "a block of (%" PRIu32 ",%" PRIu32 ",%" PRIu32 ") threads (%" PRIu64 "): at most %u threads a CTA, x and y at most %u, z at most %u",
			   b.x, b.y, b.z, n, PTX_MAX_THREADS, BLOCK_XY_MAX, BLOCK_Z_MAX);
	return 0;
}

/* ---- the kernel ---- */

/* Is mangled an Itanium name _Z<len><name>... of the plain name s[0..n)? */
static bool mangles(const char *mangled, const char *s, size_t n)
{
	if (strncmp(mangled, "_Z", 2) != 0)
		return false;
	const char *q = mangled + 2;
	if (*q < '1' || *q > '9')
		return false;
	size_t len = 0;
	for (; *q >= '0' && *q <= '9'; q++) {
		len = len * 10 + (size_t)(*q - '0');
		if (len > 4096)
			return false;
	}
	return len == n && strlen(q) >= n && memcmp(q, s, n) == 0;
}

/* "a, b, c" into buf, cut with "..." when it does not fit. */
static void put_item(char *buf, size_t size, size_t *at, const char *item)
{
	if (*at >= size)
		return;
	size_t left = size - *at;
	int w = snprintf(buf + *at, left, "%s%s", *at ? ", " : "", item);
	if (w < 0 || (size_t)w >= left) {
		if (size >= 4)
			memcpy(buf + size - 4, "...", 4);
		*at = size;
		return;
	}
	*at += (size_t)w;
}

static int find_kernel(ps *P, const ltok *t, size_t *k)
{
	const ptx_module *m = P->m;
	size_t nk = ptx_nkernels(m);
	for (size_t i = 0; i < nk; i++) {
		const char *name = ptx_kernel_name(m, i);
		if (strlen(name) == t->n && memcmp(name, t->s, t->n) == 0) {
			*k = i;
			return 0;
		}
	}
	char list[600];
	size_t at = 0, hits = 0;
	list[0] = 0;
	for (size_t i = 0; i < nk; i++)
		if (mangles(ptx_kernel_name(m, i), t->s, t->n)) {
			*k = i;
			hits++;
			put_item(list, sizeof list, &at, ptx_kernel_name(m, i));
		}
	if (hits == 1)
		return 0;
	if (hits > 1)
		return err(P, t->line, t->col, "'%.*s' names %zu kernels: %s (write the .entry name)",
			   (int)t->n, t->s, hits, list);
	for (size_t i = 0; i < nk; i++)
		put_item(list, sizeof list, &at, ptx_kernel_name(m, i));
	if (nk == 0)
		return err(P, t->line, t->col, "no kernel '%.*s': the module has no .entry", (int)t->n, t->s);
	return err(P, t->line, t->col, "no kernel '%.*s' in the module; its kernels: %s",
		   (int)t->n, t->s, list);
}

/* "saxpy_param_2, 8 bytes, pointer" */
static const char *pdesc(ptx_param_info pi, char *buf, size_t size)
{
	snprintf(buf, size, "%s, %u byte%s%s", pi.name, pi.size, pi.size == 1 ? "" : "s",
		 pi.is_ptr ? ", pointer" : pi.is_float ? ", float" : "");
	return buf;
}

/* "saxpy_param_0 (4 bytes), saxpy_param_2 (8 bytes, pointer), ..." */
static void param_list(const ptx_module *m, size_t k, char *buf, size_t size)
{
	size_t at = 0;
	buf[0] = 0;
	for (size_t i = 0; i < ptx_nparams(m, k); i++) {
		ptx_param_info pi = ptx_param(m, k, i);
		char item[160], pd[150];
		snprintf(item, sizeof item, "%s (%s)", pi.name, pdesc(pi, pd, sizeof pd) + strlen(pi.name) + 2);
		put_item(buf, size, &at, item);
	}
	if (!at)
		text_copy(buf, size, "none");
}

static int count_error(ps *P, const ltok *at, size_t k, size_t given)
{
	char list[700];
	size_t np = ptx_nparams(P->m, k);
	param_list(P->m, k, list, sizeof list);
	return err(P, at->line, at->col, "kernel '%s' takes %zu argument%s, the launch gives %s%zu: %s",
		   ptx_kernel_name(P->m, k), np, np == 1 ? "" : "s", given > np ? "more than " : "",
		   given > np ? np : given, list);
}

/* ---- arrays ---- */

typedef struct etype {
	const char *name;
	uint8_t kind, width;
	bool is_signed;
} etype;

static const etype etypes[] = {
	{"i8", TGT_INT, 8, true},    {"i16", TGT_INT, 16, true},  {"i32", TGT_INT, 32, true},
	{"i64", TGT_INT, 64, true},  {"u8", TGT_INT, 8, false},   {"u16", TGT_INT, 16, false},
	{"u32", TGT_INT, 32, false}, {"u64", TGT_INT, 64, false}, {"f16", TGT_F16, 16, false},
	{"f32", TGT_F32, 32, false}, {"f64", TGT_F64, 64, false},
};

static uint64_t align_up(uint64_t v)
{
	return (v + PTX_PLAN_ALIGN - 1) / PTX_PLAN_ALIGN * PTX_PLAN_ALIGN;
}

/* NAME:TYPE[DIMS] with the current token ':' (name is the token before). */
static int declare(ps *P, const ltok *name, long *out)
{
	ptx_plan *p = P->p;
	if (name->n >= TGT_NAME_MAX)
		return err(P, name->line, name->col, "an array's name has at most %d characters", TGT_NAME_MAX - 1);
	long old = find_array(P, name->s, name->n);
	if (old >= 0)
		return err(P, name->line, name->col, "array '%.*s' is already declared at %d:%d (write just %.*s to pass it again)",
			   (int)name->n, name->s, p->a[old].line, p->a[old].col, (int)name->n, name->s);
	if (p->na >= PTX_PLAN_MAX_ARRAYS)
		return err(P, name->line, name->col, "more than %d arrays in a launch text", PTX_PLAN_MAX_ARRAYS);
	if (next(P) < 0)
		return -1;
	ltok tt = P->x.t;
	const etype *et = NULL;
	for (size_t i = 0; i < sizeof etypes / sizeof etypes[0] && tt.kind == LT_ID; i++)
		if (is_word(&tt, etypes[i].name))
			et = &etypes[i];
	if (!et)
		return expected(P, "an element type after '%.*s:' (i8 i16 i32 i64 u8 u16 u32 u64 f16 f32 f64)",
				(int)name->n, name->s);
	if (next(P) < 0 || want_punct(P, '[', " after the element type (NAME:TYPE[DIMS])") < 0)
		return -1;
	ptx_array a;
	memset(&a, 0, sizeof a);
	memcpy(a.arr.name, name->s, name->n);
	a.arr.type = (tgt_type){et->kind, et->width, et->is_signed, 0};
	a.elem_bytes = et->width / 8u;
	a.line = name->line;
	a.col = name->col;
	uint64_t length = 1;
	for (;;) {
		ltok at = P->x.t;
		char what[96];
		snprintf(what, sizeof what, "size %u of array '%s'", a.arr.ndim + 1, a.arr.name);
		uint64_t n;
		if (parse_size(P, what, UINT64_MAX, &n) < 0)
			return -1;
		if (a.arr.ndim == PTX_PLAN_MAX_DIMS)
			return err(P, at.line, at.col, "array '%s' has more than %d dimensions", a.arr.name, PTX_PLAN_MAX_DIMS);
		a.arr.shape[a.arr.ndim++] = n;
		if (length > P->cap / a.elem_bytes / n)
			return err(P, at.line, at.col, "array '%s' is larger than the device memory cap of %" PRIu64 " bytes",
				   a.arr.name, P->cap);
		length *= n;
		if (!is_punct(&P->x.t, ','))
			break;
		if (next(P) < 0)
			return -1;
	}
	if (want_punct(P, ']', " to close the array's sizes") < 0)
		return -1;
	a.arr.length = length;
	a.bytes = length * a.elem_bytes;
	uint64_t at = align_up(P->top);
	if (at > P->cap || a.bytes > P->cap - at)
		return err(P, name->line, name->col,
			   "array '%s' of %" PRIu64 " bytes at offset %" PRIu64 " is past the device memory cap of %" PRIu64 " bytes",
			   a.arr.name, a.bytes, at, P->cap);
	a.addr = p->base + at;
	P->top = at + a.bytes;
	if (p->na == P->acap) {
		size_t nc = P->acap ? P->acap * 2 : 8;
		ptx_array *na = realloc(p->a, nc * sizeof *na);
		if (!na)
			return err(P, name->line, name->col, "out of memory for the arrays");
		p->a = na;
		P->acap = nc;
	}
	p->a[p->na] = a;
	*out = (long)p->na++;
	return 0;
}

/* ---- arguments ---- */


/* An array argument: NAME:TYPE[DIMS], NAME or NAME+K; its address. */
static int array_arg(ps *P, size_t k, size_t i, ptx_param_info pi, uint64_t *bits)
{
	char pd[150];
	ltok name = P->x.t;
	if (next(P) < 0)
		return -1;
	long a = -1;
	if (is_punct(&P->x.t, ':')) {
		if (declare(P, &name, &a) < 0)
			return -1;
	} else {
		a = find_array(P, name.s, name.n);
		if (a < 0) {
			if (pi.is_ptr && find_def(P, &name))
				return err(P, name.line, name.col, "'%.*s' is a -D name, but parameter %zu of '%s' (%s) takes an array",
					   (int)name.n, name.s, i, ptx_kernel_name(P->m, k), pdesc(pi, pd, sizeof pd));
			return err(P, name.line, name.col, "'%.*s' is not an array declared before it (declare it as %.*s:TYPE[DIMS])",
				   (int)name.n, name.s, (int)name.n, name.s);
		}
	}
	const ptx_array *arr = &P->p->a[a];
	uint64_t off = 0;
	if (is_punct(&P->x.t, '+')) {
		if (next(P) < 0)
			return -1;
		ltok at = P->x.t;
		ival v;
		if (parse_int(P, "an element offset after '+'", &v) < 0)
			return -1;
		if (v.neg || v.mag > arr->arr.length)
			return err(P, at.line, at.col, "offset %s%" PRIu64 " is outside array '%s' of %" PRIu64 " elements",
				   v.neg ? "-" : "", v.mag, arr->arr.name, arr->arr.length);
		off = v.mag * arr->elem_bytes;
	}
	*bits = arr->addr + off;
	return 0;
}

/* Does v fit a parameter of size bytes (signed or unsigned)?  Its bits. */
static bool fit(ival v, unsigned size, uint64_t *bits)
{
	unsigned w = size * 8;
	uint64_t mask = w >= 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1;
	if (v.neg ? v.mag - 1 > mask >> 1 : v.mag > mask)
		return false;
	*bits = (v.neg ? 0 - v.mag : v.mag) & mask;
	return true;
}

static uint64_t float_bits(double dv, float fv, unsigned size)
{
	if (size == 4) {
		uint32_t b;
		memcpy(&b, &fv, 4);
		return b;
	}
	uint64_t b;
	memcpy(&b, &dv, 8);
	return b;
}

/* A float parameter's argument: a number (rounded once to the parameter's
 * type), inf, nan, a -D name or len(NAME) (converted). */
static int float_arg(ps *P, size_t k, size_t i, ptx_param_info pi, uint64_t *bits)
{
	char pd[150];
	ltok t = P->x.t;
	if (pi.size != 4 && pi.size != 8)
		return err(P, t.line, t.col, "parameter %zu of '%s' (%s) is a float of %u bytes: only f32 and f64 are passed",
			   i, ptx_kernel_name(P->m, k), pi.name, pi.size);
	bool neg = false;
	if (is_punct(&t, '-')) {
		neg = true;
		if (next(P) < 0)
			return -1;
		t = P->x.t;
	}
	if (t.kind == LT_NUM || (t.kind == LT_ID && (is_word(&t, "inf") || is_word(&t, "nan")) && !find_def(P, &t))) {
		char buf[80];
		if (t.n > 70)
			return err(P, t.line, t.col, "a number of more than 70 characters");
		size_t n = t.n;
		/* C's suffix: 2.5f (not in hex, where f is a digit) */
		if (t.kind == LT_NUM && n > 1 && (t.s[n - 1] | 0x20) == 'f' && (t.s[1] | 0x20) != 'x')
			n--;
		snprintf(buf, sizeof buf, "%s%.*s", neg ? "-" : "", (int)n, t.s);
		char *end;
		double dv = strtod(buf, &end);
		float fv = strtof(buf, &end);
		if (*end)
			return err(P, t.line, t.col, "expected a float for parameter %zu of '%s' (%s), found '%.*s'",
				   i, ptx_kernel_name(P->m, k), pdesc(pi, pd, sizeof pd), (int)t.n, t.s);
		*bits = float_bits(dv, fv, pi.size);
		return next(P);
	}
	if (neg)
		return expected(P, "a number after '-'");
	ival v;
	if (parse_int(P, "a float, a -D name or len(NAME)", &v) < 0)
		return -1;
	double dv = v.neg ? -(double)v.mag : (double)v.mag;
	float fv = v.neg ? -(float)v.mag : (float)v.mag;
	*bits = float_bits(dv, fv, pi.size);
	return 0;
}

/* Argument i of kernel k into *bits. */
static int parse_arg(ps *P, size_t k, size_t i, uint64_t *bits)
{
	char pd[150];
	ptx_param_info pi = ptx_param(P->m, k, i);
	ltok t = P->x.t;
	const char *kn = ptx_kernel_name(P->m, k);
	if (pi.size > 8)
		return err(P, t.line, t.col, "parameter %zu of '%s' (%s) is %u bytes passed by value: a launch passes 8 at most",
			   i, kn, pi.name, pi.size);
	unsigned abytes = ptx_address_bits(P->m) / 8;
	bool can_ptr = pi.is_ptr || (pi.size == abytes && !pi.is_float);
	bool arrayish = false;
	if (t.kind == LT_ID && !is_word(&t, "len")) {
		ltok n2;
		peek(P, &n2);
		if (is_punct(&n2, ':') || is_punct(&n2, '+') || pi.is_ptr)
			arrayish = true;
		else if (!find_def(P, &t) && find_array(P, t.s, t.n) >= 0)
			arrayish = true;
	} else if (t.kind == LT_ID && pi.is_ptr) {
		arrayish = true;  /* an array named len */
	}
	if (arrayish) {
		if (!can_ptr)
			return err(P, t.line, t.col, "parameter %zu of '%s' (%s) is not a pointer: expected a number, a -D name or len(NAME), found array '%.*s'",
				   i, kn, pdesc(pi, pd, sizeof pd), (int)t.n, t.s);
		return array_arg(P, k, i, pi, bits);
	}
	if (pi.is_ptr)
		return expected(P, "an array for parameter %zu of '%s' (%s): NAME:TYPE[DIMS], NAME or NAME+K",
				i, kn, pdesc(pi, pd, sizeof pd));
	if (pi.is_float)
		return float_arg(P, k, i, pi, bits);
	ltok at = P->x.t;
	if (at.kind == LT_NUM || is_punct(&at, '-')) {
		ltok num = at;
		if (is_punct(&at, '-'))
			peek(P, &num);
		uint64_t mag;
		const char *why;
		if (num.kind == LT_NUM && !num_is_int(&num, &mag, &why)) {
			return err(P, num.line, num.col, "expected an integer for parameter %zu of '%s' (%s), found '%.*s'",
				   i, kn, pdesc(pi, pd, sizeof pd), num.n > 40 ? 40 : (int)num.n, num.s);
		}
	}
	char what[400];
	snprintf(what, sizeof what, "parameter %zu of '%s' (%s)", i, kn, pdesc(pi, pd, sizeof pd));
	ival v;
	if (parse_int(P, what, &v) < 0)
		return -1;
	if (!fit(v, pi.size, bits)) {
		unsigned w = pi.size * 8;
		return err(P, at.line, at.col, "%s%" PRIu64 " does not fit %s: from -2^%u to 2^%u-1",
			   v.neg ? "-" : "", v.mag, what, w - 1, w);
	}
	return 0;
}

/* ---- launches ---- */

static int add_call(ps *P, ptx_call *c)
{
	ptx_plan *p = P->p;
	if (p->nc == P->ccap) {
		size_t nc = P->ccap ? P->ccap * 2 : 8;
		ptx_call *n = realloc(p->c, nc * sizeof *n);
		if (!n)
			return err(P, c->line, c->col, "out of memory for the launches");
		p->c = n;
		P->ccap = nc;
	}
	p->c[p->nc++] = *c;
	return 0;
}

/* KERNEL<<<GRID, BLOCK>>>(ARG, ...) at the current token. */
static int parse_launch(ps *P)
{
	ltok kt = P->x.t;
	if (kt.kind != LT_ID)
		return expected(P, "a launch KERNEL<<<GRID, BLOCK>>>(ARGS)");
	if (P->p->nc >= PTX_PLAN_MAX_CALLS)
		return err(P, kt.line, kt.col, "more than %d launches in a launch text", PTX_PLAN_MAX_CALLS);
	ptx_call c;
	memset(&c, 0, sizeof c);
	c.line = kt.line;
	c.col = kt.col;
	if (find_kernel(P, &kt, &c.kernel) < 0 || next(P) < 0)
		return -1;
	if (P->x.t.kind != LT_OPEN)
		return expected(P, "'<<<' after the kernel's name");
	if (next(P) < 0)
		return -1;
	ltok gt = P->x.t;
	if (parse_dim3(P, "grid", &c.grid) < 0 || check_grid(P, &gt, c.grid) < 0)
		return -1;
	if (want_punct(P, ',', " between the grid and the block") < 0)
		return -1;
	ltok bt = P->x.t;
	if (parse_dim3(P, "block", &c.block) < 0 || check_block(P, &bt, c.block) < 0)
		return -1;
	if (is_punct(&P->x.t, ','))
		return expected(P, "'>>>' after the block (dynamic shared memory and streams are not taken)");
	if (P->x.t.kind != LT_CLOSE)
		return expected(P, "'>>>' after the block");
	if (next(P) < 0 || want_punct(P, '(', " before the arguments") < 0)
		return -1;
	size_t np = ptx_nparams(P->m, c.kernel);
	c.args = calloc(np ? np : 1, sizeof *c.args);
	if (!c.args)
		return err(P, kt.line, kt.col, "out of memory for the arguments");
	if (add_call(P, &c) < 0) {
		free(c.args);
		return -1;
	}
	ptx_call *cp = &P->p->c[P->p->nc - 1];
	size_t n = 0;
	if (!is_punct(&P->x.t, ')'))
		for (;;) {
			if (n == np)
				return count_error(P, &P->x.t, c.kernel, n + 1);
			if (parse_arg(P, c.kernel, n, &cp->args[n]) < 0)
				return -1;
			n++;
			if (!is_punct(&P->x.t, ','))
				break;
			if (next(P) < 0)
				return -1;
		}
	if (!is_punct(&P->x.t, ')'))
		return expected(P, "',' or ')' after argument %zu", n ? n - 1 : 0);
	if (n != np)
		return count_error(P, &P->x.t, c.kernel, n);
	cp->nargs = np;
	if (next(P) < 0)
		return -1;
	const ltok *t = &P->x.t;
	if (t->kind != LT_EOF && !t->nl && !is_punct(t, ';'))
		return expected(P, "';' or a newline after the launch");
	return 0;
}

int ptx_plan_parse(const ptx_module *m, const char *src, const char *text, size_t len,
		   const tgt_def *defs, size_t ndefs, uint64_t mem_cap, ptx_plan *out, diag *d)
{
	memset(out, 0, sizeof *out);
	if (!src)
		src = "--launch";
	ps P;
	memset(&P, 0, sizeof P);
	P.x = (lx){text, len, 0, 0, 1, {0}};
	P.src = src;
	P.m = m;
	P.defs = defs;
	P.ndefs = defs ? ndefs : 0;
	P.p = out;
	P.d = d;
	out->base = PTX_PLAN_BASE;
	P.cap = mem_cap < PTX_WIN_GLOBALS - PTX_PLAN_BASE ? mem_cap : PTX_WIN_GLOBALS - PTX_PLAN_BASE;
	if (len > PTX_PLAN_MAX_TEXT) {
		diag_file(d, src, "the launch text is %zu bytes, more than %u", len, PTX_PLAN_MAX_TEXT);
		return -1;
	}
	out->src = malloc(strlen(src) + 1);
	if (!out->src) {
		diag_file(d, src, "out of memory for the launches");
		return -1;
	}
	memcpy(out->src, src, strlen(src) + 1);
	if (next(&P) < 0)
		goto fail;
	for (;;) {
		while (is_punct(&P.x.t, ';'))
			if (next(&P) < 0)
				goto fail;
		if (P.x.t.kind == LT_EOF)
			break;
		if (parse_launch(&P) < 0)
			goto fail;
	}
	if (out->nc == 0) {
		err(&P, P.x.t.line, P.x.t.col, "no launch: expected KERNEL<<<GRID, BLOCK>>>(ARGS)");
		goto fail;
	}
	out->size = out->na ? align_up(P.top) : 0;
	return 0;
fail:
	ptx_plan_free(out);
	return -1;
}

void ptx_plan_free(ptx_plan *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nc; i++)
		free(p->c[i].args);
	free(p->c);
	free(p->a);
	free(p->src);
	memset(p, 0, sizeof *p);
}

const ptx_array *ptx_plan_array(const ptx_plan *p, const char *name)
{
	for (size_t i = 0; i < p->na; i++)
		if (strcmp(p->a[i].arr.name, name) == 0)
			return &p->a[i];
	return NULL;
}

ptx_launch ptx_plan_launch(const ptx_plan *p, size_t i, uint64_t max_steps)
{
	ptx_launch l;
	memset(&l, 0, sizeof l);
	if (i < p->nc) {
		const ptx_call *c = &p->c[i];
		l = (ptx_launch){c->kernel, c->grid, c->block, c->args, c->nargs, max_steps};
	}
	return l;
}

/* ---- memory ---- */

int ptx_plan_mem(const ptx_plan *p, ptx_mem *mem, diag *d)
{
	memset(mem, 0, sizeof *mem);
	if (p->size > SIZE_MAX - 1)
		return diag_file(d, p->src, "%" PRIu64 " bytes of device memory do not fit this host", p->size), -1;
	mem->bytes = calloc((size_t)(p->size ? p->size : 1), 1);
	if (!mem->bytes)
		return diag_file(d, p->src, "out of memory for %" PRIu64 " bytes of device memory", p->size), -1;
	mem->base = p->base;
	mem->size = p->size;
	return 0;
}

void ptx_plan_mem_free(ptx_mem *mem)
{
	free(mem->bytes);
	memset(mem, 0, sizeof *mem);
}

uint8_t *ptx_array_bytes(const ptx_mem *mem, const ptx_array *a)
{
	if (!mem->bytes || a->addr < mem->base || a->addr - mem->base > mem->size ||
	    a->bytes > mem->size - (a->addr - mem->base))
		return NULL;
	return mem->bytes + (a->addr - mem->base);
}

static bool span(const ptx_array *a, uint64_t first, uint64_t n)
{
	return first <= a->arr.length && n <= a->arr.length - first;
}

bool ptx_array_get(const ptx_mem *mem, const ptx_array *a, uint64_t first, uint64_t n,
		   uint64_t *bits)
{
	const uint8_t *b = ptx_array_bytes(mem, a);
	if (!b || !span(a, first, n))
		return false;
	for (uint64_t i = 0; i < n; i++) {
		const uint8_t *e = b + (first + i) * a->elem_bytes;
		uint64_t v = 0;
		for (unsigned j = a->elem_bytes; j-- > 0;)
			v = v << 8 | e[j];
		bits[i] = v;
	}
	return true;
}

bool ptx_array_set(ptx_mem *mem, const ptx_array *a, uint64_t first, uint64_t n,
		   const uint64_t *bits)
{
	uint8_t *b = ptx_array_bytes(mem, a);
	if (!b || !span(a, first, n))
		return false;
	for (uint64_t i = 0; i < n; i++) {
		uint8_t *e = b + (first + i) * a->elem_bytes;
		for (unsigned j = 0; j < a->elem_bytes; j++)
			e[j] = (uint8_t)(bits[i] >> (8 * j));
	}
	return true;
}

/* ---- the run ---- */

int ptx_plan_ref_run(const ptx_module *m, const ptx_plan *p, ptx_mem *mem, uint64_t max_steps,
		     ptx_where *w, diag *d)
{
	for (size_t i = 0; i < p->nc; i++) {
		ptx_launch l = ptx_plan_launch(p, i, max_steps);
		if (ptx_ref_run(m, &l, mem, w, d) < 0) {
			size_t n = strlen(d->msg);
			if (n < sizeof d->msg)
				snprintf(d->msg + n, sizeof d->msg - n, " (launch %zu of %zu, %s:%d:%d)", i + 1,
					 p->nc, p->src ? p->src : "--launch", p->c[i].line, p->c[i].col);
			return -1;
		}
	}
	return 0;
}
