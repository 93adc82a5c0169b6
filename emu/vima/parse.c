/* SPDX-License-Identifier: MIT */
/*
 * parse.c: the .vima program format (doc/VIMA.md, "Program format").
 *
 *   vima vector=8192 lines=8          the unit (optional, first)
 *   const N = 4096                    a named integer (-D N=... overrides)
 *   array A f32 N init=random:1       a named array in the flat memory
 *   for i = 0, N, VBYTES/4            a loop: i = 0, VBYTES/4, ... < N
 *     add.f32 C[i], A[i], B[i]        an instruction on vectors by address
 *   end
 *   host A[0] = 1.5                   a store by the host core
 *
 * Every error is reported once, at its line and column.  The text is
 * bounded (VIMA_TEXT_MAX; lines of TEXT_LINE_MAX, read by lib/text.h),
 * so is the memory the arrays
 * ask for (VIMA_MEM_MAX), the nesting of loops and of expressions.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "vima_int.h"

#define EXPR_DEPTH 24
#define CODE_MAX (1u << 24)

typedef struct konst { char name[VIMA_NAME_MAX]; int64_t v; } konst;

typedef struct cur {
	const char *path;
	const char *s;         /* the line */
	size_t len, pos;
	int line;
	diag *d;
	vima_program *p;
	const vima_parse_opts *o;
	konst *consts;
	size_t nconsts;
	/* loops open now: statement index and variable name */
	int open[VIMA_NEST_MAX];
	char vname[VIMA_NEST_MAX][VIMA_NAME_MAX];
	int nopen;
	bool unit_set, body;
	uint64_t mem;          /* bytes placed so far */
} cur;

static int err(cur *c, size_t pos, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int err(cur *c, size_t pos, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vat(c->d, c->path, c->line, (int)pos + 1, fmt, ap);
	va_end(ap);
	return -1;
}

#define is_space text_is_space
#define id_start text_is_ident_start
#define id_char text_is_ident_char

static void skip(cur *c)
{
	while (c->pos < c->len && is_space(c->s[c->pos]))
		c->pos++;
}

static bool at_end(cur *c)
{
	skip(c);
	return c->pos >= c->len || c->s[c->pos] == '#';
}

static bool eat(cur *c, char ch)
{
	skip(c);
	if (c->pos < c->len && c->s[c->pos] == ch) {
		c->pos++;
		return true;
	}
	return false;
}

static int expect(cur *c, char ch, const char *what)
{
	if (eat(c, ch))
		return 0;
	return err(c, c->pos, "expected '%c' %s", ch, what);
}

/* An identifier into buf; -1 with a message naming what was expected. */
static int ident(cur *c, char *buf, const char *what)
{
	skip(c);
	size_t st = c->pos;
	if (st >= c->len || !id_start(c->s[st]))
		return err(c, st, "expected %s", what);
	while (c->pos < c->len && id_char(c->s[c->pos]))
		c->pos++;
	size_t n = c->pos - st;
	if (n >= VIMA_NAME_MAX)
		return err(c, st, "name longer than %d characters", VIMA_NAME_MAX - 1);
	memcpy(buf, c->s + st, n);
	buf[n] = 0;
	return 0;
}

static bool word_is(const cur *c, size_t st, const char *w)
{
	size_t n = strlen(w);
	return c->pos - st == n && !memcmp(c->s + st, w, n);
}

/* Make room for element n of an array whose capacity doubles from 16. */
static int grow(void **a, size_t n, size_t size)
{
	if (n != 0 && (n < 16 || (n & (n - 1)) != 0))
		return 0;
	void *m = realloc(*a, (n ? n * 2 : 16) * size);
	if (!m)
		return -1;
	*a = m;
	return 0;
}

/* ---- names ---- */

static const char *const reserved[] = { "vima", "const", "array", "for", "end",
					"host", "VBYTES", NULL };

static int const_find(const cur *c, const char *n)
{
	for (size_t i = 0; i < c->nconsts; i++)
		if (!strcmp(c->consts[i].name, n))
			return (int)i;
	return -1;
}

static int var_find(const cur *c, const char *n)
{
	for (int i = c->nopen - 1; i >= 0; i--)
		if (!strcmp(c->vname[i], n))
			return i;
	return -1;
}

/* A new name must not be taken by anything a statement could mean. */
static int fresh(cur *c, size_t pos, const char *n)
{
	for (int i = 0; reserved[i]; i++)
		if (!strcmp(reserved[i], n))
			return err(c, pos, "'%s' is a reserved word; expected a new name", n);
	if (const_find(c, n) >= 0 || vima_array_find(c->p, n) >= 0 || var_find(c, n) >= 0)
		return err(c, pos, "'%s' is already defined", n);
	return 0;
}

/* ---- expressions ---- */

static int emit(cur *c, uint8_t kind, int64_t v)
{
	vima_program *p = c->p;
	if (p->ncode >= CODE_MAX)
		return err(c, c->pos, "the program has too many expressions");
	if (grow((void **)&p->code, p->ncode, sizeof *p->code) < 0)
		return err(c, c->pos, "out of memory");
	p->code[p->ncode++] = (vima_cop){ kind, v };
	return 0;
}

static int expr(cur *c, int depth);

static int number(cur *c)
{
	size_t st = c->pos;
	uint64_t v = 0;
	int base = 10;
	if (c->len - st > 2 && c->s[st] == '0' && (c->s[st + 1] == 'x' || c->s[st + 1] == 'X')) {
		base = 16;
		c->pos += 2;
	}
	size_t digits = c->pos;
	for (; c->pos < c->len; c->pos++) {
		char ch = c->s[c->pos];
		int dv = ch >= '0' && ch <= '9' ? ch - '0'
			 : base == 16 && ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
			 : base == 16 && ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
		if (dv < 0)
			break;
		if (v > (uint64_t)INT64_MAX / (unsigned)base ||
		    v * (unsigned)base + (unsigned)dv > (uint64_t)INT64_MAX)
			return err(c, st, "number does not fit in 63 bits");
		v = v * (unsigned)base + (unsigned)dv;
	}
	if (c->pos == digits || (c->pos < c->len && id_char(c->s[c->pos])))
		return err(c, st, "malformed number");
	return emit(c, VIMA_C_NUM, (int64_t)v);
}

static int primary(cur *c, int depth)
{
	skip(c);
	size_t st = c->pos;
	if (st >= c->len)
		return err(c, st, "expected a number, a name or '('");
	char ch = c->s[st];
	if (ch == '(') {
		c->pos++;
		if (expr(c, depth + 1) < 0)
			return -1;
		return expect(c, ')', "to close '('");
	}
	if (ch == '-') {
		c->pos++;
		if (depth >= EXPR_DEPTH)
			return err(c, st, "expression nested too deeply");
		return primary(c, depth + 1) < 0 ? -1 : emit(c, VIMA_C_NEG, 0);
	}
	if (ch >= '0' && ch <= '9')
		return number(c);
	char n[VIMA_NAME_MAX];
	if (ident(c, n, "a number, a name or '('") < 0)
		return -1;
	if (!strcmp(n, "VBYTES"))
		return emit(c, VIMA_C_NUM, c->p->vector_bytes);
	int i = var_find(c, n);
	if (i >= 0)
		return emit(c, VIMA_C_VAR, i);
	i = const_find(c, n);
	if (i >= 0)
		return emit(c, VIMA_C_NUM, c->consts[i].v);
	if (vima_array_find(c->p, n) >= 0)
		return err(c, st, "'%s' is an array; expected an integer (a number, a const or a loop variable)", n);
	return err(c, st, "unknown name '%s'; expected a const, a loop variable or VBYTES", n);
}

static int term(cur *c, int depth)
{
	if (primary(c, depth) < 0)
		return -1;
	for (;;) {
		skip(c);
		char ch = c->pos < c->len ? c->s[c->pos] : 0;
		int k = ch == '*' ? VIMA_C_MUL : ch == '/' ? VIMA_C_DIV : ch == '%' ? VIMA_C_MOD : -1;
		if (k < 0)
			return 0;
		c->pos++;
		if (primary(c, depth) < 0 || emit(c, (uint8_t)k, 0) < 0)
			return -1;
	}
}

static int expr(cur *c, int depth)
{
	if (depth >= EXPR_DEPTH)
		return err(c, c->pos, "expression nested too deeply");
	if (term(c, depth) < 0)
		return -1;
	for (;;) {
		skip(c);
		char ch = c->pos < c->len ? c->s[c->pos] : 0;
		if (ch != '+' && ch != '-')
			return 0;
		c->pos++;
		if (term(c, depth) < 0 || emit(c, ch == '+' ? VIMA_C_ADD : VIMA_C_SUB, 0) < 0)
			return -1;
	}
}

static int code(cur *c, vima_code *out)
{
	out->start = (uint32_t)c->p->ncode;
	if (expr(c, 0) < 0)
		return -1;
	out->len = (uint32_t)(c->p->ncode - out->start);
	return 0;
}

/* An expression with no loop variable, evaluated now. */
static int const_expr(cur *c, int64_t *v)
{
	size_t st = c->pos;
	int saved = c->nopen;
	c->nopen = 0; /* loop variables are not constants */
	vima_code k;
	int rc = code(c, &k);
	c->nopen = saved;
	const char *why;
	if (rc == 0 && vima_eval(c->p, k, NULL, v, &why) < 0)
		rc = err(c, st, "%s", why);
	c->p->ncode = k.start;
	return rc;
}

/* ---- values: an element of a given type ---- */

static int int_value(cur *c, size_t st, const char *tok, vima_type t, uint64_t *v)
{
	const bool neg = tok[0] == '-';
	const char *q = tok + neg;
	const unsigned w = vima_type_size(t) * 8;
	const bool sgn = t == VIMA_I32 || t == VIMA_I64;
	const bool hex = q[0] == '0' && (q[1] == 'x' || q[1] == 'X');
	char *end;
	errno = 0;
	unsigned long long m = (q[0] >= '0' && q[0] <= '9') ? strtoull(q, &end, hex ? 16 : 10) : 0;
	if (!(q[0] >= '0' && q[0] <= '9') || *end || errno)
		return err(c, st, "expected an integer for %s, got '%s'", vima_type_name(t), tok);
	const uint64_t max = w == 64 ? ~0ull : (1ull << w) - 1, half = 1ull << (w - 1);
	bool ok = neg ? sgn && m <= half : m <= (sgn && !hex ? half - 1 : max);
	if (!ok)
		return err(c, st, "%s is out of range for %s", tok, vima_type_name(t));
	*v = (neg ? 0 - (uint64_t)m : (uint64_t)m) & max;
	return 0;
}

static int float_value(cur *c, size_t st, const char *tok, vima_type t, uint64_t *v)
{
	char *end;
	if (t == VIMA_F32) {
		float f = strtof(tok, &end);
		uint32_t u;
		memcpy(&u, &f, 4);
		*v = u;
	} else {
		double f = strtod(tok, &end);
		memcpy(v, &f, 8);
	}
	if (end == tok || *end)
		return err(c, st, "expected a number for %s, got '%s'", vima_type_name(t), tok);
	return 0;
}

/* The token at the cursor, up to a space, ',' or '#'. */
static int token(cur *c, char *buf, size_t size, const char *what)
{
	skip(c);
	size_t st = c->pos;
	while (c->pos < c->len && !is_space(c->s[c->pos]) && c->s[c->pos] != ',' &&
	       c->s[c->pos] != '#')
		c->pos++;
	size_t n = c->pos - st;
	if (n == 0)
		return err(c, st, "expected %s", what);
	if (n >= size)
		return err(c, st, "%s is too long", what);
	memcpy(buf, c->s + st, n);
	buf[n] = 0;
	return 0;
}

static int value(cur *c, vima_type t, uint64_t *v)
{
	char tok[64];
	skip(c);
	size_t st = c->pos;
	if (token(c, tok, sizeof tok, "a value") < 0)
		return -1;
	return vima_type_is_float(t) ? float_value(c, st, tok, t, v) : int_value(c, st, tok, t, v);
}

/* ---- operands ---- */

/* NAME or NAME[INDEX]: a vector (or one element) of an array of elements
 * of size bytes (0: any). */
static int ref(cur *c, vima_ref *r, unsigned size, const char *what)
{
	skip(c);
	size_t st = c->pos;
	char n[VIMA_NAME_MAX];
	if (ident(c, n, what) < 0)
		return -1;
	r->array = vima_array_find(c->p, n);
	r->col = (int)st + 1;
	if (r->array < 0)
		return err(c, st, "unknown array '%s'; expected %s", n, what);
	const vima_array *a = &c->p->arrays[r->array];
	if (size && vima_type_size(a->type) != size)
		return err(c, st, "'%s' holds %s elements of %u bytes; the instruction's are %u bytes",
			   n, vima_type_name(a->type), vima_type_size(a->type), size);
	if (!eat(c, '[')) {
		r->index = (vima_code){ (uint32_t)c->p->ncode, 1 };
		return emit(c, VIMA_C_NUM, 0);
	}
	if (code(c, &r->index) < 0)
		return -1;
	return expect(c, ']', "to close the index");
}

/* A value, or an element the host reads (an array name). */
static int value_or_ref(cur *c, vima_stmt *s, vima_type t, unsigned size)
{
	skip(c);
	size_t st = c->pos;
	if (st < c->len && id_start(c->s[st])) {
		char n[VIMA_NAME_MAX];
		size_t save = c->pos;
		if (ident(c, n, "a value") == 0 && vima_array_find(c->p, n) >= 0) {
			c->pos = save;
			s->imm_ref = true;
			return ref(c, &s->ref[1], size, "an element");
		}
		diag_clear(c->d);
		c->pos = save;
	}
	return value(c, t, &s->imm);
}

static int comma(cur *c)
{
	return expect(c, ',', "between operands");
}

/* ---- statements ---- */

static vima_stmt *new_stmt(cur *c, vima_stmt_kind k, size_t col)
{
	vima_program *p = c->p;
	if (grow((void **)&p->stmts, p->nstmts, sizeof *p->stmts) < 0) {
		err(c, col, "out of memory");
		return NULL;
	}
	vima_stmt *s = &p->stmts[p->nstmts++];
	memset(s, 0, sizeof *s);
	s->kind = k;
	s->line = c->line;
	s->col = (int)col + 1;
	c->body = true;
	return s;
}

static int unit_key(cur *c, const char *key, size_t kpos, int64_t v, size_t vpos)
{
	vima_program *p = c->p;
	if (!strcmp(key, "vector")) {
		if (v != VIMA_VECTOR && v != VIMA_VECTOR_SMALL)
			return err(c, vpos, "vector=%lld: expected %u or %u (bytes)", (long long)v,
				   VIMA_VECTOR, VIMA_VECTOR_SMALL);
		if (!c->o || !c->o->vector_bytes)
			p->vector_bytes = (unsigned)v;
		return 0;
	}
	if (!strcmp(key, "lines")) {
		if (v < 1 || v > VIMA_LINES_MAX)
			return err(c, vpos, "lines=%lld: expected 1 to %u", (long long)v, VIMA_LINES_MAX);
		if (!c->o || !c->o->lines)
			p->lines = (unsigned)v;
		return 0;
	}
	return err(c, kpos, "unknown setting '%s'; expected vector or lines", key);
}

static int stmt_unit(cur *c, size_t st)
{
	if (c->body || c->unit_set)
		return err(c, st, "'vima' must be the first statement, and only one");
	c->unit_set = true;
	while (!at_end(c)) {
		char key[VIMA_NAME_MAX];
		size_t kpos = c->pos;
		if (ident(c, key, "a setting (vector=BYTES or lines=N)") < 0 ||
		    expect(c, '=', "after the setting's name") < 0)
			return -1;
		skip(c);
		size_t vpos = c->pos;
		int64_t v;
		if (const_expr(c, &v) < 0 || unit_key(c, key, kpos, v, vpos) < 0)
			return -1;
	}
	return 0;
}

/* NEW_NAME '=' (const and for). */
static int name_is(cur *c, char *n, const char *what)
{
	skip(c);
	size_t st = c->pos;
	char after[80];
	snprintf(after, sizeof after, "after %s", what);
	if (ident(c, n, what) < 0 || fresh(c, st, n) < 0 || expect(c, '=', after) < 0)
		return -1;
	return 0;
}

static int stmt_const(cur *c)
{
	char n[VIMA_NAME_MAX];
	skip(c);
	size_t st = c->pos;
	if (name_is(c, n, "the const's name") < 0)
		return -1;
	int64_t v;
	if (const_expr(c, &v) < 0)
		return -1;
	for (size_t i = 0; c->o && i < c->o->ndefs; i++)
		if (!strcmp(c->o->defs[i].name, n)) {
			v = c->o->defs[i].value;
			c->o->defs[i].used = true;
		}
	if (grow((void **)&c->consts, c->nconsts, sizeof *c->consts) < 0)
		return err(c, st, "out of memory");
	konst *k = &c->consts[c->nconsts++];
	memcpy(k->name, n, sizeof n);
	k->v = v;
	c->body = true;
	return 0;
}

static int array_init(cur *c, vima_array *a);

/* perm=rw|ro|none, after "perm" (doc/VIMA.md, "Address translation"). */
static int array_perm(cur *c, vima_array *a)
{
	char kind[VIMA_NAME_MAX];
	skip(c);
	size_t st = c->pos;
	if (ident(c, kind, "rw, ro or none") < 0)
		return -1;
	if (!strcmp(kind, "rw"))
		a->perm = VIMA_PERM_R | VIMA_PERM_W;
	else if (!strcmp(kind, "ro"))
		a->perm = VIMA_PERM_R;
	else if (!strcmp(kind, "none"))
		a->perm = 0;
	else
		return err(c, st, "unknown permission '%s'; expected rw, ro or none", kind);
	return 0;
}

/* The array's options: init=... and perm=..., each at most once. */
static int array_opts(cur *c, vima_array *a)
{
	bool seen[2] = { false, false };
	while (!at_end(c)) {
		char key[VIMA_NAME_MAX];
		skip(c);
		size_t st = c->pos;
		if (ident(c, key, "init= or perm=") < 0)
			return -1;
		const int k = !strcmp(key, "init") ? 0 : !strcmp(key, "perm") ? 1 : -1;
		if (k < 0)
			return err(c, st, "unknown array option '%s'; expected init= or perm=", key);
		if (seen[k])
			return err(c, st, "a second %s= for array %s; expected one", key, a->name);
		seen[k] = true;
		if (expect(c, '=', k ? "after perm" : "after init") < 0 ||
		    (k ? array_perm(c, a) : array_init(c, a)) < 0)
			return -1;
	}
	return 0;
}

static int array_init(cur *c, vima_array *a)
{
	char kind[VIMA_NAME_MAX];
	skip(c);
	size_t st = c->pos;
	if (ident(c, kind, "zero, iota, const or random") < 0)
		return -1;
	if (!strcmp(kind, "zero") || !strcmp(kind, "iota")) {
		a->init = kind[0] == 'z' ? VIMA_INIT_ZERO : VIMA_INIT_IOTA;
		return 0;
	}
	bool isc = !strcmp(kind, "const");
	if (!isc && strcmp(kind, "random") != 0)
		return err(c, st, "unknown init '%s'; expected zero, iota, const:VALUE or random:SEED", kind);
	if (expect(c, ':', isc ? "before the constant" : "before the seed") < 0)
		return -1;
	a->init = isc ? VIMA_INIT_CONST : VIMA_INIT_RANDOM;
	return value(c, isc ? a->type : VIMA_U64, &a->init_arg);
}

static int stmt_array(cur *c)
{
	vima_program *p = c->p;
	char n[VIMA_NAME_MAX], tn[VIMA_NAME_MAX];
	skip(c);
	size_t st = c->pos;
	if (ident(c, n, "the array's name") < 0 || fresh(c, st, n) < 0)
		return -1;
	skip(c);
	size_t tpos = c->pos;
	if (ident(c, tn, "an element type (i32, u32, i64, u64, f32 or f64)") < 0)
		return -1;
	int t = vima_type_lookup(tn, strlen(tn));
	if (t < 0)
		return err(c, tpos, "unknown type '%s'; expected i32, u32, i64, u64, f32 or f64", tn);
	skip(c);
	size_t npos = c->pos;
	int64_t count;
	if (const_expr(c, &count) < 0)
		return -1;
	const uint64_t size = vima_type_size((vima_type)t), vb = p->vector_bytes;
	if (count < 1 || (uint64_t)count > VIMA_MEM_MAX / size ||
	    c->mem + (uint64_t)count * size > VIMA_MEM_MAX)
		return err(c, npos, "%lld elements: expected 1 or more, and all arrays within %llu MiB",
			   (long long)count, VIMA_MEM_MAX >> 20);
	if (grow((void **)&p->arrays, p->narrays, sizeof *p->arrays) < 0)
		return err(c, st, "out of memory");
	vima_array *a = &p->arrays[p->narrays];
	memset(a, 0, sizeof *a);
	memcpy(a->name, n, sizeof n);
	a->type = (vima_type)t;
	a->count = (uint64_t)count;
	a->bytes = a->count * size;
	a->base = c->mem;
	a->line = c->line;
	a->perm = VIMA_PERM_R | VIMA_PERM_W;
	if (array_opts(c, a) < 0)
		return -1;
	p->narrays++;
	c->mem = (a->base + a->bytes + vb - 1) / vb * vb;
	c->body = true;
	return 0;
}

static int stmt_for(cur *c, size_t st)
{
	if (c->nopen == VIMA_NEST_MAX)
		return err(c, st, "loops nested more than %d deep", VIMA_NEST_MAX);
	char n[VIMA_NAME_MAX];
	if (name_is(c, n, "the loop variable") < 0)
		return -1;
	vima_code lo, hi, step;
	if (code(c, &lo) < 0 || expect(c, ',', "between the loop's start and end") < 0 ||
	    code(c, &hi) < 0)
		return -1;
	if (eat(c, ',')) {
		if (code(c, &step) < 0)
			return -1;
	} else {
		step = (vima_code){ (uint32_t)c->p->ncode, 1 };
		if (emit(c, VIMA_C_NUM, 1) < 0)
			return -1;
	}
	vima_stmt *s = new_stmt(c, VIMA_S_FOR, st);
	if (!s)
		return -1;
	s->var = c->nopen;
	memcpy(s->name, n, sizeof n);
	s->lo = lo;
	s->hi = hi;
	s->step = step;
	c->open[c->nopen] = (int)(c->p->nstmts - 1);
	memcpy(c->vname[c->nopen++], n, sizeof n);
	return 0;
}

static int stmt_end(cur *c, size_t st)
{
	if (c->nopen == 0)
		return err(c, st, "'end' without a 'for'");
	vima_stmt *s = new_stmt(c, VIMA_S_END, st);
	if (!s)
		return -1;
	int f = c->open[--c->nopen];
	s->other = f;
	s->var = c->p->stmts[f].var;
	c->p->stmts[f].other = (int)(c->p->nstmts - 1);
	return 0;
}

static int stmt_host(cur *c, size_t st)
{
	vima_stmt *s = new_stmt(c, VIMA_S_HOST, st);
	if (!s || ref(c, &s->ref[0], 0, "an array element") < 0 ||
	    expect(c, '=', "after the element") < 0)
		return -1;
	const vima_type t = c->p->arrays[s->ref[0].array].type;
	s->type = t;
	return value_or_ref(c, s, t, vima_type_size(t));
}

static int insn_operands(cur *c, vima_stmt *s)
{
	const vima_op_info *in = vima_op_info_of(s->op);
	const unsigned sz = vima_type_size(s->type);
	if (ref(c, &s->ref[0], sz, "the destination vector") < 0 ||
	    comma(c) < 0)
		return -1;
	if (in->form == VIMA_FORM_I)
		return value_or_ref(c, s, s->type, sz);
	if (ref(c, &s->ref[1], sz, "a source vector") < 0)
		return -1;
	if (in->form == VIMA_FORM_V)
		return 0;
	return comma(c) < 0 ? -1 : ref(c, &s->ref[2], sz, "a source vector");
}

static int stmt_insn(cur *c, size_t st, const char *w)
{
	int op = vima_op_lookup(w, strlen(w));
	if (op < 0)
		return err(c, st, "unknown statement '%s'; expected vima, const, array, for, end, host "
			   "or an instruction (infsim commands vima)", w);
	if (!eat(c, '.'))
		return err(c, c->pos, "expected '.TYPE' after '%s' (i32, u32, i64, u64, f32 or f64)", w);
	size_t tpos = c->pos;
	char tn[VIMA_NAME_MAX];
	if (ident(c, tn, "a type (i32, u32, i64, u64, f32 or f64)") < 0)
		return -1;
	int t = vima_type_lookup(tn, strlen(tn));
	if (t < 0)
		return err(c, tpos, "unknown type '%s'; expected i32, u32, i64, u64, f32 or f64", tn);
	const vima_op_info *in = vima_op_info_of((vima_op)op);
	if (!(in->types & (1u << t)))
		return err(c, tpos, "%s does not take %s; it takes %s", w, tn,
			   in->types == 0x0f ? "i32, u32, i64 or u64" : "i32, i64, f32 or f64");
	vima_stmt *s = new_stmt(c, VIMA_S_INSN, st);
	if (!s)
		return -1;
	s->op = (vima_op)op;
	s->type = (vima_type)t;
	return insn_operands(c, s);
}

static int statement(cur *c)
{
	if (at_end(c))
		return 0;
	size_t st = c->pos;
	char w[VIMA_NAME_MAX];
	if (ident(c, w, "a statement (vima, const, array, for, end, host or an instruction)") < 0)
		return -1;
	int rc;
	if (word_is(c, st, "vima"))
		rc = stmt_unit(c, st);
	else if (word_is(c, st, "const"))
		rc = stmt_const(c);
	else if (word_is(c, st, "array"))
		rc = stmt_array(c);
	else if (word_is(c, st, "for"))
		rc = stmt_for(c, st);
	else if (word_is(c, st, "end"))
		rc = stmt_end(c, st);
	else if (word_is(c, st, "host"))
		rc = stmt_host(c, st);
	else
		rc = stmt_insn(c, st, w);
	if (rc < 0)
		return -1;
	if (!at_end(c))
		return err(c, c->pos, "unexpected '%c' after the statement", c->s[c->pos]);
	return 0;
}

/* ---- the file ---- */

static int finish(cur *c)
{
	vima_program *p = c->p;
	if (c->nopen > 0) {
		const vima_stmt *f = &p->stmts[c->open[c->nopen - 1]];
		return diag_at(c->d, c->path, f->line, f->col, "'for %s' has no 'end'",
			       c->vname[c->nopen - 1]), -1;
	}
	for (size_t i = 0; c->o && i < c->o->ndefs; i++)
		if (!c->o->defs[i].used)
			return diag_file(c->d, c->path, "-D %s: the program has no 'const %s'",
					 c->o->defs[i].name, c->o->defs[i].name), -1;
	if (p->nstmts == 0)
		return diag_file(c->d, c->path, "the program has no statement: it runs nothing "
				 "(its declarations alone compute nothing)"), -1;
	p->mem_bytes = c->mem ? c->mem : p->vector_bytes;
	p->nvars = VIMA_NEST_MAX;
	return 0;
}

int vima_parse(const char *path, const char *text, size_t len,
	       const vima_parse_opts *o, vima_program *p, diag *d)
{
	memset(p, 0, sizeof *p);
	diag_clear(d);
	p->path = strdup(path);
	p->vector_bytes = o && o->vector_bytes ? o->vector_bytes : VIMA_VECTOR;
	p->lines = o && o->lines ? o->lines : VIMA_LINES;
	cur c = { .path = path, .d = d, .p = p, .o = o };
	for (size_t i = 0; o && i < o->ndefs; i++)
		o->defs[i].used = false;
	if (!p->path)
		return diag_file(d, path, "out of memory"), -1;
	if (len > VIMA_TEXT_MAX)
		return diag_file(d, path, "larger than %u MiB", VIMA_TEXT_MAX >> 20), -1;
	text_lines it;
	text_line ln;
	text_lines_init(&it, path, text, len);
	int rc;
	while ((rc = text_lines_next(&it, &ln, d)) == 1) {
		c.s = ln.s;
		c.len = ln.len;
		c.pos = 0;
		c.line = ln.no;
		if (statement(&c) < 0) {
			rc = -1;
			break;
		}
	}
	if (rc == 0)
		rc = finish(&c);
	free(c.consts);
	if (rc < 0)
		vima_program_free(p);
	return rc;
}

void vima_program_free(vima_program *p)
{
	free(p->path);
	free(p->arrays);
	free(p->stmts);
	free(p->code);
	memset(p, 0, sizeof *p);
}

int vima_array_find(const vima_program *p, const char *name)
{
	for (size_t i = 0; i < p->narrays; i++)
		if (!strcmp(p->arrays[i].name, name))
			return (int)i;
	return -1;
}
