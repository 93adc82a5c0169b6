/* SPDX-License-Identifier: MIT */
/*
 * tdfg_param.c: the integer expressions of the tDFG text form; see
 * tdfg_param.h.  A recursive descent over
 *   expr    := term {('+' | '-') term}
 *   term    := unary {('*' | '/') unary}
 *   unary   := ('+' | '-') unary | primary
 *   primary := NUMBER | NAME | '(' expr ')'
 * whose values are linear forms in the region's parameters, so a box
 * such as k+1:N stays a function of the loop variable (infinity-stream
 * §3.4: a tDFG is re-instantiated for each value of its parameters).
 */
#include "tdfg_param.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "text.h"

/* A value under evaluation: c + sum coef[i] * (region parameter i). */
typedef struct lin {
	int64_t c;
	int64_t coef[EMU_TPARAMS];
} lin;

static int fail(emu_tpar_scan *sc, size_t at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(emu_tpar_scan *sc, size_t at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(sc->err, sizeof sc->err, fmt, ap);
	va_end(ap);
	sc->err_at = at;
	return -1;
}

/* What is at pos, for messages: 'text' or "the end of the line". */
const char *emu_tpar_found(const char *s, size_t len, size_t at, char *buf, size_t size)
{
	if (at >= len || s[at] == '#')
		return "the end of the line";
	size_t n = 0;
	while (at + n < len && !text_is_space(s[at + n]) && s[at + n] != ',' && n < 24)
		n++;
	snprintf(buf, size, "'%.*s'", (int)(n ? n : 1), s + at);
	return buf;
}

static const char *found(const emu_tpar_scan *sc, size_t at, char *buf, size_t size)
{
	return emu_tpar_found(sc->s, sc->len, at, buf, size);
}

static void skip(emu_tpar_scan *sc, unsigned depth)
{
	if (depth || sc->blanks)
		while (sc->pos < sc->len && text_is_space(sc->s[sc->pos]))
			sc->pos++;
}

static bool lin_const(const lin *v)
{
	for (unsigned k = 0; k < EMU_TPARAMS; k++)
		if (v->coef[k])
			return false;
	return true;
}

const emu_tpar *emu_tpar_find(const emu_tpar *par, unsigned npar, const char *name, size_t n)
{
	for (unsigned i = 0; i < npar; i++)
		if (strlen(par[i].name) == n && memcmp(par[i].name, name, n) == 0)
			return &par[i];
	return NULL;
}

static bool is_hex(char c)
{
	return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

/* A decimal or 0x hexadecimal number at sc->pos. */
static int number(emu_tpar_scan *sc, const char *what, int64_t *v)
{
	const size_t at = sc->pos;
	const char *s = sc->s;
	const bool hex = at + 1 < sc->len && s[at] == '0' && (s[at + 1] | 0x20) == 'x' &&
			 at + 2 < sc->len && is_hex(s[at + 2]);
	const unsigned base = hex ? 16 : 10;
	size_t i = at + (hex ? 2 : 0);
	uint64_t m = 0;
	bool big = false;
	for (; i < sc->len && (hex ? is_hex(s[i]) : s[i] >= '0' && s[i] <= '9'); i++) {
		const unsigned d = s[i] <= '9' ? (unsigned)(s[i] - '0') : (unsigned)((s[i] | 0x20) - 'a' + 10);
		big |= m > ((uint64_t)INT64_MAX - d) / base;
		m = big ? m : m * base + d;
	}
	if (big)
		return fail(sc, at, "%s %.*s is out of range; expected at most %" PRId64, what,
			    (int)(i - at), s + at, INT64_MAX);
	*v = (int64_t)m;
	sc->pos = i;
	return 0;
}

/* A name: a program parameter (a constant) or one of the region's. */
static int name(emu_tpar_scan *sc, const char *what, size_t n, lin *v)
{
	const size_t at = sc->pos;
	const emu_tpar *p = emu_tpar_find(sc->par, sc->npar, sc->s + at, n);
	sc->pos = at + n;
	if (p) {
		v->c = p->value;
		return 0;
	}
	const emu_tregion *r = sc->r;
	for (unsigned k = 0; r && k < r->nparams; k++)
		if (strlen(r->param[k]) == n && memcmp(r->param[k], sc->s + at, n) == 0) {
			v->coef[k] = 1;
			return 0;
		}
	if (r && r->nparams)
		return fail(sc, at, "unknown parameter '%.*s' in %s; region '%s' has param=%s and "
			    "the program declares no '%.*s' (param %.*s = VALUE)", (int)n, sc->s + at,
			    what, r->name, r->param[0], (int)n, sc->s + at, (int)n, sc->s + at);
	if (r)
		return fail(sc, at, "unknown parameter '%.*s' in %s; region '%s' has no parameters "
			    "(param=NAME) and the program declares no '%.*s' (param %.*s = VALUE)",
			    (int)n, sc->s + at, what, r->name, (int)n, sc->s + at, (int)n, sc->s + at);
	return fail(sc, at, "unknown parameter '%.*s' in %s; declare it first with 'param %.*s "
		    "= VALUE'", (int)n, sc->s + at, what, (int)n, sc->s + at);
}

static int expr(emu_tpar_scan *sc, const char *what, unsigned depth, lin *v);

static int primary(emu_tpar_scan *sc, const char *what, unsigned depth, lin *v)
{
	char f[40];
	const size_t at = sc->pos;
	memset(v, 0, sizeof *v);
	if (at < sc->len && sc->s[at] >= '0' && sc->s[at] <= '9')
		return number(sc, what, &v->c);
	size_t n = 0;
	if (at < sc->len && text_is_ident_start(sc->s[at]))
		while (at + n < sc->len && text_is_ident_char(sc->s[at + n]))
			n++;
	if (n)
		return name(sc, what, n, v);
	if (at >= sc->len || sc->s[at] != '(')
		return fail(sc, at, "expected %s (a number, or a parameter such as k+1 or N/2), "
			    "found %s", what, found(sc, at, f, sizeof f));
	if (depth == 32)
		return fail(sc, at, "%s: parentheses nest more than 32 deep", what);
	sc->pos++;
	skip(sc, depth + 1);
	if (expr(sc, what, depth + 1, v))
		return -1;
	skip(sc, depth + 1);
	if (sc->pos >= sc->len || sc->s[sc->pos] != ')')
		return fail(sc, sc->pos, "expected ')' closing the '(' at column %zu, found %s",
			    at + 1, found(sc, sc->pos, f, sizeof f));
	sc->pos++;
	return 0;
}

static int unary(emu_tpar_scan *sc, const char *what, unsigned depth, lin *v)
{
	const size_t at = sc->pos;
	if (at >= sc->len || (sc->s[at] != '+' && sc->s[at] != '-'))
		return primary(sc, what, depth, v);
	if (depth == 32)
		return fail(sc, at, "%s: more than 32 signs in a row", what);
	sc->pos++;
	skip(sc, depth);
	if (unary(sc, what, depth + 1, v))
		return -1;
	if (sc->s[at] == '+')
		return 0;
	bool ovf = __builtin_sub_overflow((int64_t)0, v->c, &v->c);
	for (unsigned k = 0; k < EMU_TPARAMS; k++)
		v->coef[k] = -v->coef[k]; /* bounded by the int8 check at the end */
	return ovf ? fail(sc, at, "%s: -%" PRId64 " overflows 64 bits", what, INT64_MIN) : 0;
}

/* x * y or x / y; at is the operator's column. */
static int mul_div(emu_tpar_scan *sc, const char *what, size_t at, char op, lin *x, const lin *y)
{
	bool ovf = false;
	if (op == '/') {
		if (!lin_const(y) || !lin_const(x))
			return fail(sc, at, "%s: only constants can be divided; a region parameter "
				    "(param=) may be added, subtracted or multiplied by a constant", what);
		if (y->c == 0)
			return fail(sc, at, "%s: division by zero", what);
		if (x->c == INT64_MIN && y->c == -1)
			return fail(sc, at, "%s: %" PRId64 "/-1 overflows 64 bits", what, x->c);
		x->c /= y->c;
		return 0;
	}
	if (!lin_const(x) && !lin_const(y))
		return fail(sc, at, "%s: a product of two region parameters is not linear; a box or "
			    "an offset is c + a*k + ...", what);
	const lin *k = lin_const(x) ? x : y, *o = lin_const(x) ? y : x;
	lin r = {0, {0}};
	ovf |= __builtin_mul_overflow(o->c, k->c, &r.c);
	for (unsigned i = 0; i < EMU_TPARAMS; i++)
		ovf |= __builtin_mul_overflow(o->coef[i], k->c, &r.coef[i]);
	if (ovf)
		return fail(sc, at, "%s: the product overflows 64 bits", what);
	*x = r;
	return 0;
}

static int term(emu_tpar_scan *sc, const char *what, unsigned depth, lin *v)
{
	if (unary(sc, what, depth, v))
		return -1;
	for (;;) {
		const size_t save = sc->pos;
		skip(sc, depth);
		const size_t at = sc->pos;
		if (at >= sc->len || (sc->s[at] != '*' && sc->s[at] != '/')) {
			sc->pos = save;
			return 0;
		}
		lin y;
		sc->pos++;
		skip(sc, depth);
		if (unary(sc, what, depth, &y) || mul_div(sc, what, at, sc->s[at], v, &y))
			return -1;
	}
}

static int expr(emu_tpar_scan *sc, const char *what, unsigned depth, lin *v)
{
	if (term(sc, what, depth, v))
		return -1;
	for (;;) {
		const size_t save = sc->pos;
		skip(sc, depth);
		const size_t at = sc->pos;
		if (at >= sc->len || (sc->s[at] != '+' && sc->s[at] != '-')) {
			sc->pos = save;
			return 0;
		}
		lin y;
		sc->pos++;
		skip(sc, depth);
		if (term(sc, what, depth, &y))
			return -1;
		const bool sub = sc->s[at] == '-';
		bool ovf = sub ? __builtin_sub_overflow(v->c, y.c, &v->c)
			       : __builtin_add_overflow(v->c, y.c, &v->c);
		for (unsigned k = 0; k < EMU_TPARAMS; k++)
			ovf |= sub ? __builtin_sub_overflow(v->coef[k], y.coef[k], &v->coef[k])
				   : __builtin_add_overflow(v->coef[k], y.coef[k], &v->coef[k]);
		if (ovf)
			return fail(sc, at, "%s: the %s overflows 64 bits", what,
				    sub ? "difference" : "sum");
	}
}

int emu_tpar_expr(emu_tpar_scan *sc, const char *what, emu_texpr *e)
{
	lin v;
	const size_t at = sc->pos;
	if (expr(sc, what, 0, &v))
		return -1;
	memset(e, 0, sizeof *e);
	e->c = v.c;
	for (unsigned k = 0; k < EMU_TPARAMS; k++) {
		if (v.coef[k] < INT8_MIN || v.coef[k] > INT8_MAX)
			return fail(sc, at, "%s: parameter '%s' is multiplied by %" PRId64 "; expected "
				    "a factor from %d to %d", what, sc->r->param[k], v.coef[k],
				    INT8_MIN, INT8_MAX);
		e->coef[k] = (int8_t)v.coef[k];
	}
	return 0;
}

int emu_tpar_const(emu_tpar_scan *sc, const char *what, int64_t *v)
{
	const emu_tregion *r = sc->r;
	sc->r = NULL;
	emu_texpr e;
	const int rc = emu_tpar_expr(sc, what, &e);
	sc->r = r;
	*v = e.c;
	return rc;
}

/* One size: a number, a parameter or (EXPR).  In "NxM" the name ends at
 * the longest prefix that is a parameter followed by 'x', so sizes read
 * as they do with numbers (64x32), unless NxM is itself a parameter. */
static int size_term(emu_tpar_scan *sc, const char *what, uint64_t *v)
{
	const size_t at = sc->pos;
	size_t n = 0;
	if (at < sc->len && text_is_ident_start(sc->s[at]))
		while (at + n < sc->len && text_is_ident_char(sc->s[at + n]))
			n++;
	if (n && !emu_tpar_find(sc->par, sc->npar, sc->s + at, n))
		for (size_t i = n - 1; i > 0; i--)
			if (sc->s[at + i] == 'x' && emu_tpar_find(sc->par, sc->npar, sc->s + at, i)) {
				n = i;
				break;
			}
	lin x;
	memset(&x, 0, sizeof x);
	const emu_tregion *r = sc->r;
	sc->r = NULL; /* a size is the same at every run */
	int rc = n ? name(sc, what, n, &x) : primary(sc, what, 0, &x);
	sc->r = r;
	if (rc)
		return -1;
	if (x.c < 1 || x.c > (int64_t)UINT32_MAX)
		return fail(sc, at, "%s: size %.*s is %" PRId64 "; expected 1 to 4294967295 (32 bits, "
			    "Table 1)", what, (int)(sc->pos - at), sc->s + at, x.c);
	*v = (uint64_t)x.c;
	return 0;
}

int emu_tpar_sizes(emu_tpar_scan *sc, const char *what, uint64_t v[EMU_LAYOUT_DIMS], uint8_t *nd)
{
	char f[40];
	unsigned k = 0;
	for (;;) {
		if (k == EMU_LAYOUT_DIMS)
			return fail(sc, sc->pos, "%s: more than 3 dimensions; a tensor has 1 to 3 "
				    "(fuse the outer ones)", what);
		if (size_term(sc, what, &v[k++]))
			return -1;
		if (sc->pos >= sc->len || sc->s[sc->pos] != 'x')
			break;
		sc->pos++;
	}
	if (sc->pos < sc->len && !text_is_space(sc->s[sc->pos]) && sc->s[sc->pos] != '#')
		return fail(sc, sc->pos, "expected 'x' and a size, or the end of %s, found %s (write "
			    "a size that is an expression in parentheses: (N+1)x4)", what,
			    found(sc, sc->pos, f, sizeof f));
	for (unsigned j = k; j < EMU_LAYOUT_DIMS; j++)
		v[j] = 1;
	*nd = (uint8_t)k;
	return 0;
}

int emu_tdfg_load_defs(const char *path, const emu_geom_override *ov, const emu_tdfg_def *defs,
		       size_t ndefs, emu_tdfg *t, emu_jit *j, diag *d)
{
	if (!ndefs)
		return emu_tdfg_load(path, ov, t, j, d);
	const sram_geom def = sram_geom_default();
	memset(j, 0, sizeof *j);
	emu_program_init(&j->prog);
	if (emu_tdfg_parse_file_defs(path, &def, ov, defs, ndefs, t, d))
		return -1;
	return emu_jit_lower(t, j, d);
}
