/* SPDX-License-Identifier: MIT */
/*
 * expr.c: expressions of the .nsc format, parsed by precedence climbing
 * into the program's expression pool (doc/STREAMS.md, "Expressions").
 * Constants are folded as they are named; every other name is resolved
 * here, once: a region's dimension, one of its load streams, a core
 * scalar, or an array read by the core.
 */
#include <stdlib.h>
#include <string.h>

#include "nsc_int.h"

#define EXPR_DEPTH 64
#define EXPR_MAX (1 << 20)

int nsc_new_expr(nsc_parser *ps, nsc_eop op, int a, int b, int line, int col)
{
	nsc_program *p = ps->p;
	if (p->nex == p->cap_ex) {
		if (p->cap_ex >= EXPR_MAX)
			return -1;
		int cap = p->cap_ex ? 2 * p->cap_ex : 64;
		nsc_expr *n = realloc(p->ex, (size_t)cap * sizeof *n);
		if (!n)
			return -1;
		p->ex = n;
		p->cap_ex = cap;
	}
	nsc_expr *e = &p->ex[p->nex];
	memset(e, 0, sizeof *e);
	e->op = op;
	e->a = a;
	e->b = b;
	e->c = -1;
	e->ref = -1;
	e->line = line;
	e->col = col;
	return p->nex++;
}

static int new_at(nsc_parser *ps, nsc_eop op, int a, int b, int col, int *out, diag *d)
{
	*out = nsc_new_expr(ps, op, a, b, ps->x.line, col);
	if (*out < 0) {
		if (ps->p->cap_ex >= EXPR_MAX)
			diag_at(d, ps->x.file, ps->x.line, col, "more than %d expressions", EXPR_MAX);
		else
			diag_at(d, ps->x.file, ps->x.line, col, "out of memory");
		return -1;
	}
	return 0;
}

int nsc_const_find(const nsc_parser *ps, const char *name)
{
	for (int i = 0; i < ps->nconsts; i++)
		if (!strcmp(ps->consts[i], name))
			return i;
	return -1;
}

int nsc_slot_find(const nsc_program *p, const char *name)
{
	for (int i = 0; i < p->nslots; i++)
		if (!strcmp(p->slots[i], name))
			return i;
	return -1;
}

int nsc_stream_find(const nsc_region *r, const char *name)
{
	for (int i = 0; i < r->nstreams; i++)
		if (r->s[i].name[0] && !strcmp(r->s[i].name, name))
			return i;
	return -1;
}

static const struct { const char *name; nsc_eop op; int nargs; int type; } funcs[] = {
	{ "min", NSC_E_MIN, 2, -1 }, { "max", NSC_E_MAX, 2, -1 }, { "abs", NSC_E_ABS, 1, -1 },
	{ "i64", NSC_E_CAST, 1, NSC_I64 }, { "f32", NSC_E_CAST, 1, NSC_F32 },
	{ "f64", NSC_E_CAST, 1, NSC_F64 },
};

static int parse_call(nsc_parser *ps, int fi, int col, int *out, diag *d)
{
	nsc_lex *x = &ps->x;
	int args[2] = { -1, -1 };
	if (nsc_lex_expect(x, "(", d) < 0)
		return -1;
	for (int i = 0; i < funcs[fi].nargs; i++) {
		if (i && nsc_lex_expect(x, ",", d) < 0)
			return -1;
		if (nsc_parse_expr(ps, &args[i], d) < 0)
			return -1;
	}
	if (nsc_lex_expect(x, ")", d) < 0)
		return -1;
	if (new_at(ps, funcs[fi].op, args[0], args[1], col, out, d) < 0)
		return -1;
	ps->p->ex[*out].ival = funcs[fi].type;
	return 0;
}

/* A name in an expression: what it stands for, resolved now. */
static int parse_name(nsc_parser *ps, int col, int *out, diag *d)
{
	nsc_lex *x = &ps->x;
	char name[NSC_NAME_MAX];
	strcpy(name, x->text);
	if (nsc_lex_next(x, d) < 0)
		return -1;
	for (size_t i = 0; i < sizeof funcs / sizeof funcs[0]; i++)
		if (!strcmp(name, funcs[i].name) && nsc_lex_is(x, "("))
			return parse_call(ps, (int)i, col, out, d);
	int k = nsc_const_find(ps, name);
	if (k >= 0) {
		if (new_at(ps, NSC_E_INT, -1, -1, col, out, d) < 0)
			return -1;
		ps->p->ex[*out].ival = ps->const_val[k];
		return 0;
	}
	nsc_region *r = ps->cur;
	if (r) {
		for (int i = 0; i < r->ndims; i++)
			if (!strcmp(r->dim_name[i], name)) {
				if (!ps->allow_dims)
					break;
				if (new_at(ps, NSC_E_DIM, -1, -1, col, out, d) < 0)
					return -1;
				ps->p->ex[*out].ref = i;
				return 0;
			}
		int si = nsc_stream_find(r, name);
		bool chase = r->ndims == 0 && !strcmp(r->chase_name, name);
		if ((si >= 0 || chase) && ps->allow_dims) {
			if (si >= 0 && r->s[si].kind == NSC_S_REDUCE) {
				diag_at(d, x->file, x->line, col,
					"the result of reduction '%s' is read after its region", name);
				return -1;
			}
			if (new_at(ps, NSC_E_STREAM, -1, -1, col, out, d) < 0)
				return -1;
			ps->p->ex[*out].ref = chase ? NSC_MAX_STREAMS : si;
			return 0;
		}
	}
	if (nsc_lex_is(x, "[")) {
		int a = nsc_array_find(ps->p, name);
		if (a < 0) {
			diag_at(d, x->file, x->line, col, "unknown array '%s'", name);
			return -1;
		}
		if (r && ps->allow_dims) {
			diag_at(d, x->file, x->line, col,
				"a stream's computation reads memory only through streams: declare a load stream on '%s'",
				name);
			return -1;
		}
		int idx;
		if (nsc_lex_next(x, d) < 0 || nsc_parse_expr(ps, &idx, d) < 0 || nsc_lex_expect(x, "]", d) < 0)
			return -1;
		if (new_at(ps, NSC_E_INDEX, idx, -1, col, out, d) < 0)
			return -1;
		ps->p->ex[*out].ref = a;
		return 0;
	}
	int s = nsc_slot_find(ps->p, name);
	if (s < 0) {
		diag_at(d, x->file, x->line, col, "unknown name '%s'", name);
		return -1;
	}
	if (new_at(ps, NSC_E_VAR, -1, -1, col, out, d) < 0)
		return -1;
	ps->p->ex[*out].ref = s;
	return 0;
}

static int parse_unary(nsc_parser *ps, int *out, diag *d);

static int parse_primary(nsc_parser *ps, int *out, diag *d)
{
	nsc_lex *x = &ps->x;
	int col = nsc_lex_col(x);
	if (x->t == NSC_T_INT || x->t == NSC_T_FLT) {
		nsc_eop op = x->t == NSC_T_INT ? NSC_E_INT : x->is_f32 ? NSC_E_FLT : NSC_E_DBL;
		if (new_at(ps, op, -1, -1, col, out, d) < 0)
			return -1;
		ps->p->ex[*out].ival = x->ival;
		ps->p->ex[*out].fval = x->fval;
		return nsc_lex_next(x, d);
	}
	if (x->t == NSC_T_NAME)
		return parse_name(ps, col, out, d);
	if (nsc_lex_is(x, "(")) {
		if (nsc_lex_next(x, d) < 0 || nsc_parse_expr(ps, out, d) < 0)
			return -1;
		return nsc_lex_expect(x, ")", d);
	}
	if (nsc_lex_is(x, "$")) {
		if (!ps->allow_self)
			return nsc_lex_error(x, d, "'$' (the stream's own element) only in a load's '->', an update or an atomic");
		if (new_at(ps, NSC_E_SELF, -1, -1, col, out, d) < 0)
			return -1;
		return nsc_lex_next(x, d);
	}
	if (nsc_lex_is(x, "@")) {
		if (!ps->allow_field)
			return nsc_lex_error(x, d, "'@FIELD' only in a chase's 'next' and 'until'");
		if (nsc_lex_next(x, d) < 0)
			return -1;
		if (x->t != NSC_T_INT || x->ival > 1 << 20)
			return nsc_lex_error(x, d, "expected a field offset (an integer) after '@'");
		if (new_at(ps, NSC_E_FIELD, -1, -1, col, out, d) < 0)
			return -1;
		ps->p->ex[*out].ival = x->ival;
		return nsc_lex_next(x, d);
	}
	if (x->t == NSC_T_END)
		return nsc_lex_error(x, d, "expected an expression before the end of the line");
	return nsc_lex_error(x, d, "expected an expression, not '%s'", x->text);
}

static int parse_unary(nsc_parser *ps, int *out, diag *d)
{
	nsc_lex *x = &ps->x;
	static const struct { const char *t; nsc_eop op; } un[] = {
		{ "-", NSC_E_NEG }, { "!", NSC_E_NOT }, { "~", NSC_E_BNOT } };
	for (size_t i = 0; i < 3; i++)
		if (nsc_lex_is(x, un[i].t) && x->t == NSC_T_PUNCT) {
			int col = nsc_lex_col(x), a;
			if (++ps->depth > EXPR_DEPTH)
				return nsc_lex_error(x, d, "expression nested too deeply");
			if (nsc_lex_next(x, d) < 0 || parse_unary(ps, &a, d) < 0)
				return -1;
			ps->depth--;
			return new_at(ps, un[i].op, a, -1, col, out, d);
		}
	return parse_primary(ps, out, d);
}

static const struct { const char *t; nsc_eop op; int prec; } bins[] = {
	{ "||", NSC_E_LOR, 1 }, { "&&", NSC_E_LAND, 2 }, { "|", NSC_E_OR, 3 }, { "^", NSC_E_XOR, 4 },
	{ "&", NSC_E_AND, 5 }, { "==", NSC_E_EQ, 6 }, { "!=", NSC_E_NE, 6 }, { "<", NSC_E_LT, 7 },
	{ "<=", NSC_E_LE, 7 }, { ">", NSC_E_GT, 7 }, { ">=", NSC_E_GE, 7 }, { "<<", NSC_E_SHL, 8 },
	{ ">>", NSC_E_SHR, 8 }, { "+", NSC_E_ADD, 9 }, { "-", NSC_E_SUB, 9 }, { "*", NSC_E_MUL, 10 },
	{ "/", NSC_E_DIV, 10 }, { "%", NSC_E_MOD, 10 },
};

static int bin_at(const nsc_lex *x)
{
	if (x->t != NSC_T_PUNCT)
		return -1;
	for (size_t i = 0; i < sizeof bins / sizeof bins[0]; i++)
		if (!strcmp(x->text, bins[i].t))
			return (int)i;
	return -1;
}

static int parse_binary(nsc_parser *ps, int min_prec, int *out, diag *d)
{
	nsc_lex *x = &ps->x;
	if (++ps->depth > EXPR_DEPTH)
		return nsc_lex_error(x, d, "expression nested too deeply");
	if (parse_unary(ps, out, d) < 0)
		return -1;
	for (int b; (b = bin_at(x)) >= 0 && bins[b].prec >= min_prec;) {
		int col = nsc_lex_col(x), rhs;
		if (nsc_lex_next(x, d) < 0 || parse_binary(ps, bins[b].prec + 1, &rhs, d) < 0)
			return -1;
		if (new_at(ps, bins[b].op, *out, rhs, col, out, d) < 0)
			return -1;
	}
	ps->depth--;
	return 0;
}

/* expr := binary ['?' expr ':' expr] */
int nsc_parse_expr(nsc_parser *ps, int *out, diag *d)
{
	nsc_lex *x = &ps->x;
	if (++ps->depth > EXPR_DEPTH)
		return nsc_lex_error(x, d, "expression nested too deeply");
	if (parse_binary(ps, 1, out, d) < 0)
		return -1;
	if (nsc_lex_is(x, "?")) {
		int col = nsc_lex_col(x), t, f;
		if (nsc_lex_next(x, d) < 0 || nsc_parse_expr(ps, &t, d) < 0 ||
		    nsc_lex_expect(x, ":", d) < 0 || nsc_parse_expr(ps, &f, d) < 0)
			return -1;
		int c = *out;
		if (new_at(ps, NSC_E_COND, t, f, col, out, d) < 0)
			return -1;
		ps->p->ex[*out].c = c;
	}
	ps->depth--;
	return 0;
}

bool nsc_expr_uses(const nsc_program *p, int e, nsc_eop op, int ref)
{
	if (e < 0)
		return false;
	const nsc_expr *x = &p->ex[e];
	if (x->op == op && (ref < 0 || x->ref == ref))
		return true;
	return nsc_expr_uses(p, x->a, op, ref) || nsc_expr_uses(p, x->b, op, ref) ||
	       nsc_expr_uses(p, x->c, op, ref);
}

unsigned nsc_expr_ops(const nsc_program *p, int e)
{
	if (e < 0)
		return 0;
	const nsc_expr *x = &p->ex[e];
	unsigned self = x->op >= NSC_E_NEG ? 1 : 0;
	return self + nsc_expr_ops(p, x->a) + nsc_expr_ops(p, x->b) + nsc_expr_ops(p, x->c);
}
