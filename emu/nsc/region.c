/* SPDX-License-Identifier: MIT */
/*
 * region.c: a `streams` region of the .nsc format: its header (an affine
 * iteration space of up to 3 dimensions, or a pointer chase) and its
 * streams.  Each stream's address is classified as in Table II of
 * near-stream-computing: affine (linear in the dimensions with invariant
 * coefficients), indirect (B[A[i] + w], one level: A affine) or pointer
 * (fields of the chased node).  §II-B's rule is checked: an indirect
 * stream computes only on its base stream, on streams of the base's own
 * array (fields of the same records) and on invariants.
 */
#include <string.h>

#include "nsc_int.h"

static int err_col(nsc_parser *ps, int col, diag *d, const char *fmt, const char *arg)
{
	diag_at(d, ps->x.file, ps->x.line, col, fmt, arg);
	return -1;
}

/* A core expression (a trip count, a chase's start): no dimension. */
static int core_expr(nsc_parser *ps, int *e, diag *d)
{
	bool dims = ps->allow_dims;
	ps->allow_dims = false;
	int rc = nsc_parse_expr(ps, e, d);
	ps->allow_dims = dims;
	return rc;
}

static int header_chase(nsc_parser *ps, nsc_region *r, diag *d)
{
	nsc_lex *x = &ps->x;
	char arr[NSC_NAME_MAX];
	if (x->t != NSC_T_NAME)
		return nsc_lex_error(x, d, "expected the chased pointer's name");
	strcpy(r->chase_name, x->text);
	if (nsc_lex_next(x, d) < 0 || nsc_lex_expect(x, "=", d) < 0)
		return -1;
	int col = nsc_lex_col(x);
	if (x->t != NSC_T_NAME)
		return nsc_lex_error(x, d, "expected the array of the chased nodes");
	strcpy(arr, x->text);
	if ((r->chase_arr = nsc_array_find(ps->p, arr)) < 0)
		return err_col(ps, col, d, "unknown array '%s'", arr);
	if (nsc_lex_next(x, d) < 0 || nsc_lex_expect(x, "from", d) < 0 || core_expr(ps, &r->chase_from, d) < 0 ||
	    nsc_lex_expect(x, "next", d) < 0)
		return -1;
	ps->allow_field = true;
	int rc = core_expr(ps, &r->chase_next, d);
	r->chase_until = -1;
	if (rc == 0 && nsc_lex_is(x, "until"))
		rc = nsc_lex_next(x, d) < 0 ? -1 : core_expr(ps, &r->chase_until, d);
	ps->allow_field = false;
	return rc;
}

/* streams NAME < EXPR {, NAME < EXPR} | streams chase NAME = ARR from E next E [until E] */
int nsc_region_header(nsc_parser *ps, nsc_region *r, diag *d)
{
	nsc_lex *x = &ps->x;
	r->chase_arr = r->chase_from = r->chase_next = r->chase_until = -1;
	if (nsc_lex_is(x, "chase") && x->t == NSC_T_NAME) {
		if (nsc_lex_next(x, d) < 0 || header_chase(ps, r, d) < 0)
			return -1;
	} else {
		for (;;) {
			if (r->ndims == NSC_MAX_DIMS)
				return nsc_lex_error(x, d, "a region has at most 3 dimensions (Table IV)");
			if (x->t != NSC_T_NAME)
				return nsc_lex_error(x, d, "expected a dimension's name or 'chase'");
			strcpy(r->dim_name[r->ndims], x->text);
			if (nsc_lex_next(x, d) < 0 || nsc_lex_expect(x, "<", d) < 0 ||
			    core_expr(ps, &r->dim_len[r->ndims], d) < 0)
				return -1;
			r->ndims++;
			if (!nsc_lex_is(x, ","))
				break;
			if (nsc_lex_next(x, d) < 0)
				return -1;
		}
	}
	if (x->t != NSC_T_END)
		return nsc_lex_error(x, d, "unexpected '%s' at the end of the region's header", x->text);
	return 0;
}

static bool invariant(const nsc_program *p, int e)
{
	return !nsc_expr_uses(p, e, NSC_E_DIM, -1) && !nsc_expr_uses(p, e, NSC_E_STREAM, -1) &&
	       !nsc_expr_uses(p, e, NSC_E_SELF, -1) && !nsc_expr_uses(p, e, NSC_E_FIELD, -1);
}

/* Linear in the dimensions, with invariant coefficients. */
static bool affine(const nsc_program *p, int e)
{
	const nsc_expr *x = &p->ex[e];
	if (invariant(p, e) || x->op == NSC_E_DIM)
		return true;
	if (x->op == NSC_E_ADD || x->op == NSC_E_SUB)
		return affine(p, x->a) && affine(p, x->b);
	if (x->op == NSC_E_NEG)
		return affine(p, x->a);
	if (x->op == NSC_E_MUL)
		return (invariant(p, x->a) && affine(p, x->b)) || (affine(p, x->a) && invariant(p, x->b));
	return false;
}

/* S, S + w, w + S or S - w with S a stream: 1 with *base and *off set. */
static int indirect_form(nsc_parser *ps, int e, int *base, int *off)
{
	nsc_program *p = ps->p;
	const nsc_expr *x = &p->ex[e];
	if (x->op == NSC_E_STREAM) {
		*base = x->ref;
		*off = -1;
		return 1;
	}
	if (x->op != NSC_E_ADD && x->op != NSC_E_SUB)
		return 0;
	if (p->ex[x->a].op == NSC_E_STREAM && invariant(p, x->b)) {
		*base = p->ex[x->a].ref;
		*off = e;
		return 1;
	}
	if (x->op == NSC_E_ADD && p->ex[x->b].op == NSC_E_STREAM && invariant(p, x->a)) {
		*base = p->ex[x->b].ref;
		*off = e;
		return 1;
	}
	return 0;
}

static int classify(nsc_parser *ps, nsc_region *r, nsc_stream *s, int col, diag *d)
{
	nsc_program *p = ps->p;
	s->base = -1;
	s->offset = -1;
	if (!nsc_expr_uses(p, s->idx, NSC_E_STREAM, -1)) {
		if (r->ndims == 0)
			return err_col(ps, col, d, "a chase region's streams are addressed from the chased pointer '%s'",
				       r->chase_name);
		if (!affine(p, s->idx))
			return err_col(ps, col, d, "an index is affine in %s (up to 3 dimensions) or STREAM + OFFSET",
				       r->dim_name[0]);
		s->addr = NSC_A_AFFINE;
		return 0;
	}
	if (!indirect_form(ps, s->idx, &s->base, &s->offset))
		return err_col(ps, col, d, "an indirect index is STREAM or STREAM + OFFSET (one level: %s)",
			       "B[A[i] + w]");
	if (s->base == NSC_MAX_STREAMS) {
		s->addr = NSC_A_POINTER;
		return 0;
	}
	const nsc_stream *b = &r->s[s->base];
	if (b->addr != NSC_A_AFFINE)
		return err_col(ps, col, d, "one level of indirection: '%s' is not an affine stream", b->name);
	s->addr = NSC_A_INDIRECT;
	return 0;
}

/* §II-B and Table IV: who a stream's computation may use, and how many. */
static int check_args(nsc_parser *ps, nsc_region *r, nsc_stream *s, diag *d)
{
	nsc_program *p = ps->p;
	if (s->val < 0)
		return 0;
	int n = 0;
	for (int i = 0; i <= NSC_MAX_STREAMS; i++) {
		if (!nsc_expr_uses(p, s->val, NSC_E_STREAM, i))
			continue;
		n++;
		if (s->addr != NSC_A_INDIRECT || i == s->base)
			continue;
		const nsc_stream *o = i < NSC_MAX_STREAMS ? &r->s[i] : NULL;
		if (!o || o->addr != NSC_A_AFFINE || o->arr != r->s[s->base].arr) {
			diag_at(d, ps->x.file, s->line, s->col,
				"an indirect stream computes only on its base stream '%s', fields of its array, and invariants (near-stream-computing §II-B)",
				r->s[s->base].name);
			return -1;
		}
	}
	for (int i = 0; i < p->nslots; i++)
		n += nsc_expr_uses(p, s->val, NSC_E_VAR, i);
	s->nargs = n;
	if (n > NSC_MAX_ARGS) {
		diag_at(d, ps->x.file, s->line, s->col,
			"a stream's computation takes at most 8 arguments (streams and invariants), not %d", n);
		return -1;
	}
	return 0;
}

static int parse_target(nsc_parser *ps, nsc_region *r, nsc_stream *s, diag *d)
{
	nsc_lex *x = &ps->x;
	int col = nsc_lex_col(x);
	if (x->t != NSC_T_NAME)
		return nsc_lex_error(x, d, "expected an array");
	if ((s->arr = nsc_array_find(ps->p, x->text)) < 0)
		return err_col(ps, col, d, "unknown array '%s'", x->text);
	if (nsc_lex_next(x, d) < 0 || nsc_lex_expect(x, "[", d) < 0)
		return -1;
	int icol = nsc_lex_col(x);
	if (nsc_parse_expr(ps, &s->idx, d) < 0 || nsc_lex_expect(x, "]", d) < 0)
		return -1;
	return classify(ps, r, s, icol, d);
}

static int parse_rop(nsc_parser *ps, nsc_stream *s, diag *d)
{
	nsc_lex *x = &ps->x;
	if (nsc_lex_is(x, "+="))
		s->rop = NSC_R_ADD;
	else if ((nsc_lex_is(x, "min") || nsc_lex_is(x, "max")) && x->t == NSC_T_NAME) {
		s->rop = x->text[1] == 'i' ? NSC_R_MIN : NSC_R_MAX;
		if (nsc_lex_next(x, d) < 0 || !nsc_lex_is(x, "="))
			return nsc_lex_error(x, d, "expected '+=', 'min=' or 'max='");
	} else
		return nsc_lex_error(x, d, "expected '+=', 'min=' or 'max='");
	return nsc_lex_next(x, d);
}

static int parse_value(nsc_parser *ps, nsc_stream *s, bool self, diag *d)
{
	ps->allow_self = self;
	int rc = nsc_parse_expr(ps, &s->val, d);
	ps->allow_self = false;
	return rc;
}

static int stream_body(nsc_parser *ps, nsc_region *r, nsc_stream *s, const char *kw, diag *d)
{
	nsc_lex *x = &ps->x;
	bool named = !strcmp(kw, "load") || !strcmp(kw, "reduce");
	if (named) {
		int col = nsc_lex_col(x);
		if (x->t != NSC_T_NAME)
			return nsc_lex_error(x, d, "expected the stream's name");
		strcpy(s->name, x->text);
		if (nsc_stream_find(r, s->name) >= 0 || !strcmp(s->name, r->chase_name))
			return err_col(ps, col, d, "stream '%s' is already defined", s->name);
		if (nsc_lex_next(x, d) < 0)
			return -1;
	}
	if (!strcmp(kw, "load")) {
		if (nsc_lex_expect(x, "=", d) < 0 || parse_target(ps, r, s, d) < 0)
			return -1;
		return nsc_lex_is(x, "->") ? (nsc_lex_next(x, d) < 0 ? -1 : parse_value(ps, s, true, d)) : 0;
	}
	if (!strcmp(kw, "store") || !strcmp(kw, "update"))
		return parse_target(ps, r, s, d) < 0 || nsc_lex_expect(x, "=", d) < 0
			       ? -1 : parse_value(ps, s, s->kind == NSC_S_UPDATE, d);
	if (!strcmp(kw, "atomic"))
		return parse_target(ps, r, s, d) < 0 || parse_rop(ps, s, d) < 0 ? -1 : parse_value(ps, s, false, d);
	/* reduce NAME TYPE OP= EXPR [init EXPR] */
	s->arr = -1;
	s->addr = NSC_A_NONE;
	s->init = -1;
	int tcol = nsc_lex_col(x);
	static const char *const tn[] = { "i8", "u8", "i32", "u32", "i64", "f32", "f64" };
	int t = -1;
	for (int i = 0; i < NSC_NTYPES; i++)
		if (nsc_lex_is(x, tn[i]) && x->t == NSC_T_NAME)
			t = i;
	if (t < 0)
		return err_col(ps, tcol, d, "expected the reduction's type (i8 ... f64)%s", "");
	s->rtype = (nsc_type)t;
	if (nsc_lex_next(x, d) < 0 || parse_rop(ps, s, d) < 0 || parse_value(ps, s, false, d) < 0)
		return -1;
	if (nsc_lex_is(x, "init") && x->t == NSC_T_NAME)
		return nsc_lex_next(x, d) < 0 ? -1 : core_expr(ps, &s->init, d);
	return 0;
}

static int reduce_slot(nsc_parser *ps, nsc_stream *s, diag *d)
{
	nsc_program *p = ps->p;
	s->slot = nsc_slot_find(p, s->name);
	if (s->slot >= 0)
		return 0;
	if (nsc_array_find(p, s->name) >= 0 || nsc_const_find(ps, s->name) >= 0 || p->nslots == 256) {
		diag_at(d, ps->x.file, s->line, s->col, "'%s' cannot name a reduction's result", s->name);
		return -1;
	}
	strcpy(p->slots[p->nslots], s->name);
	s->slot = p->nslots++;
	return 0;
}

/* One stream line of a region: load, store, update, atomic or reduce
 * (kw, at col, already read). */
int nsc_region_stream(nsc_parser *ps, nsc_region *r, const char *kw, int col, diag *d)
{
	static const char *const kws[] = { "load", "store", "update", "atomic", "reduce" };
	int k = -1;
	for (int i = 0; i < 5; i++)
		if (!strcmp(kw, kws[i]))
			k = i;
	if (k < 0)
		return err_col(ps, col, d, "expected a stream (load, store, update, atomic or reduce) or 'end', not '%s'", kw);
	if (r->nstreams == NSC_MAX_STREAMS)
		return err_col(ps, col, d, "a region has at most 12 streams (the stream table, %s)", "§IV-A");
	nsc_stream *s = &r->s[r->nstreams];
	memset(s, 0, sizeof *s);
	s->kind = (nsc_skind)k;
	s->val = -1;
	s->slot = -1;
	s->line = ps->x.line;
	s->col = col;
	ps->allow_dims = true;
	int rc = stream_body(ps, r, s, kw, d);
	ps->allow_dims = false;
	if (rc < 0 || check_args(ps, r, s, d) < 0)
		return -1;
	if (ps->x.t != NSC_T_END)
		return nsc_lex_error(&ps->x, d, "unexpected '%s' at the end of the stream", ps->x.text);
	if (s->kind == NSC_S_REDUCE && (s->val < 0 || reduce_slot(ps, s, d) < 0))
		return -1;
	if (s->kind == NSC_S_ATOMIC && nsc_expr_uses(ps->p, s->val, NSC_E_SELF, -1))
		return err_col(ps, col, d, "an atomic's operand does not read its own element%s", "");
	r->nstreams++;
	return 0;
}
