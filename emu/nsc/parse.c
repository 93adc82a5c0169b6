/* SPDX-License-Identifier: MIT */
/*
 * parse.c: the statements of the .nsc format (doc/STREAMS.md, "Grammar"):
 * constants, arrays, core statements, and `streams` regions with their
 * load, store, update, atomic and reduce streams.  Each stream's address
 * pattern is classified here (affine, indirect, pointer: Table II) and
 * the rules of near-stream-computing §II-B and Table IV are checked, so
 * the engines only ever see well-formed configurations.
 */
#include <stdlib.h>
#include <string.h>

#include "nsc_int.h"
#include "text.h"

#define NEST_MAX 32
#define MAX_ARRAYS 256
#define MAX_SLOTS 256
#define MAX_CONSTS 256
#define MAX_STMTS 65536
#define MAX_REGIONS 4096

static int err_at(nsc_parser *ps, int col, diag *d, const char *fmt, const char *arg)
{
	diag_at(d, ps->x.file, ps->x.line, col, fmt, arg);
	return -1;
}

/* An integer constant expression (const lines, array lengths). */
static int const_eval(nsc_parser *ps, int e, int64_t *v, diag *d)
{
	const nsc_expr *x = &ps->p->ex[e];
	int64_t a = 0, b = 0;
	if (x->op == NSC_E_INT) {
		*v = x->ival;
		return 0;
	}
	if (x->op < NSC_E_NEG || x->op > NSC_E_LOR) {
		diag_at(d, ps->x.file, x->line, x->col, "expected an integer constant expression");
		return -1;
	}
	if (const_eval(ps, x->a, &a, d) < 0 || (x->b >= 0 && const_eval(ps, x->b, &b, d) < 0))
		return -1;
	/* a constant that wraps would give an array or a loop another size
	 * than the one written: refused, as the other formats refuse it */
	int64_t t;
	const bool wraps = (x->op == NSC_E_NEG && a == INT64_MIN) ||
			   (x->op == NSC_E_ADD && __builtin_add_overflow(a, b, &t)) ||
			   (x->op == NSC_E_SUB && __builtin_sub_overflow(a, b, &t)) ||
			   (x->op == NSC_E_MUL && __builtin_mul_overflow(a, b, &t)) ||
			   (x->op == NSC_E_SHL && (b < 0 || b > 63 ||
						    (int64_t)((uint64_t)a << b) >> b != a));
	if (wraps) {
		diag_at(d, ps->x.file, x->line, x->col, "the constant expression overflows 64-bit "
			"integers");
		return -1;
	}
	nsc_val r;
	const char *why;
	if (x->op <= NSC_E_BNOT)
		r = nsc_val_un(x->op, nsc_val_int(a));
	else if (nsc_val_bin(x->op, nsc_val_int(a), nsc_val_int(b), &r, &why) < 0) {
		diag_at(d, ps->x.file, x->line, x->col, "%s", why);
		return -1;
	}
	*v = r.u.i;
	return 0;
}

static int parse_const_expr(nsc_parser *ps, int64_t *v, diag *d)
{
	int e;
	nsc_region *cur = ps->cur;
	ps->cur = NULL;
	int rc = nsc_parse_expr(ps, &e, d) < 0 ? -1 : const_eval(ps, e, v, d);
	ps->cur = cur;
	return rc;
}

static bool name_taken(nsc_parser *ps, const char *name)
{
	return nsc_const_find(ps, name) >= 0 || nsc_array_find(ps->p, name) >= 0;
}

static int expect_name(nsc_parser *ps, char *out, const char *what, diag *d)
{
	if (ps->x.t != NSC_T_NAME)
		return nsc_lex_error(&ps->x, d, "expected %s", what);
	strcpy(out, ps->x.text);
	return nsc_lex_next(&ps->x, d);
}

static int expect_eol(nsc_parser *ps, diag *d)
{
	if (ps->x.t != NSC_T_END)
		return nsc_lex_error(&ps->x, d, "unexpected '%s' at the end of the statement", ps->x.text);
	return 0;
}

static int stmt_const(nsc_parser *ps, diag *d)
{
	char name[NSC_NAME_MAX];
	int col = nsc_lex_col(&ps->x);
	int64_t v;
	if (expect_name(ps, name, "a constant's name", d) < 0 || nsc_lex_expect(&ps->x, "=", d) < 0 ||
	    parse_const_expr(ps, &v, d) < 0 || expect_eol(ps, d) < 0)
		return -1;
	if (name_taken(ps, name) || nsc_slot_find(ps->p, name) >= 0)
		return err_at(ps, col, d, "'%s' is already defined", name);
	if (ps->nconsts == MAX_CONSTS)
		return err_at(ps, col, d, "more than 256 constants%s", "");
	for (int i = 0; i < ps->ndefs; i++)
		if (!strcmp(ps->defs[i].name, name))
			v = ps->defs[i].value;
	strcpy(ps->consts[ps->nconsts], name);
	ps->const_val[ps->nconsts++] = v;
	return 0;
}

static const char *const type_names[NSC_NTYPES] = { "i8", "u8", "i32", "u32", "i64", "f32", "f64" };

static int parse_type(nsc_parser *ps, nsc_type *t, diag *d)
{
	for (int i = 0; i < NSC_NTYPES; i++)
		if (nsc_lex_is(&ps->x, type_names[i]) && ps->x.t == NSC_T_NAME) {
			*t = (nsc_type)i;
			return nsc_lex_next(&ps->x, d);
		}
	return nsc_lex_error(&ps->x, d, "expected a type (i8, u8, i32, u32, i64, f32 or f64)");
}

/* [ ':' (['-'] FLOAT | integer constant expression) ] */
static int init_arg(nsc_parser *ps, bool *have, int64_t *iv, double *fv, diag *d)
{
	*have = false;
	if (!nsc_lex_is(&ps->x, ":"))
		return 0;
	if (nsc_lex_next(&ps->x, d) < 0)
		return -1;
	*have = true;
	nsc_lex peek = ps->x;
	bool neg = nsc_lex_is(&peek, "-");
	if (neg && nsc_lex_next(&peek, d) < 0)
		return -1;
	if (peek.t == NSC_T_FLT) {
		ps->x = peek;
		*fv = neg ? -ps->x.fval : ps->x.fval;
		*iv = (int64_t)*fv;
		return nsc_lex_next(&ps->x, d);
	}
	if (parse_const_expr(ps, iv, d) < 0)
		return -1;
	*fv = (double)*iv;
	return 0;
}

static int parse_init(nsc_parser *ps, nsc_array *a, diag *d)
{
	static const char *const kinds[] = { "zero", "iota", "random", "value" };
	if (nsc_lex_next(&ps->x, d) < 0 || nsc_lex_expect(&ps->x, "=", d) < 0)
		return -1;
	int k = -1;
	for (int i = 0; i < 4; i++)
		if (nsc_lex_is(&ps->x, kinds[i]))
			k = i;
	if (k < 0 || ps->x.t != NSC_T_NAME)
		return nsc_lex_error(&ps->x, d, "expected zero, iota[:STEP], random:SEED[:MOD] or value:NUMBER");
	if (nsc_lex_next(&ps->x, d) < 0)
		return -1;
	a->init = (nsc_init)k;
	a->init_a = k == NSC_INIT_IOTA ? 1 : 0;
	bool have1, have2;
	int64_t i2 = 0;
	double f2;
	if (init_arg(ps, &have1, &a->init_a, &a->init_f, d) < 0 || init_arg(ps, &have2, &i2, &f2, d) < 0)
		return -1;
	if ((k != NSC_INIT_IOTA && k != NSC_INIT_ZERO && !have1) || (have2 && k != NSC_INIT_RANDOM) ||
	    (k == NSC_INIT_ZERO && have1))
		return nsc_lex_error(&ps->x, d, "expected zero, iota[:STEP], random:SEED[:MOD] or value:NUMBER");
	if (k == NSC_INIT_IOTA && !have1)
		a->init_a = 1;
	if (have2 && i2 <= 0)
		return nsc_lex_error(&ps->x, d, "a random modulus is positive");
	a->init_b = i2;
	return 0;
}

static int stmt_array(nsc_parser *ps, diag *d)
{
	nsc_program *p = ps->p;
	nsc_array a;
	memset(&a, 0, sizeof a);
	int col = nsc_lex_col(&ps->x);
	int64_t n;
	if (expect_name(ps, a.name, "an array's name", d) < 0 || parse_type(ps, &a.type, d) < 0)
		return -1;
	int ncol = nsc_lex_col(&ps->x);
	if (parse_const_expr(ps, &n, d) < 0)
		return -1;
	if (n <= 0 || (uint64_t)n > NSC_MEM_MAX / nsc_type_size(a.type))
		return err_at(ps, ncol, d, "an array's length is between 1 and 1 GiB of elements%s", "");
	a.count = (uint64_t)n;
	a.line = ps->x.line;
	if (nsc_lex_is(&ps->x, "init") && parse_init(ps, &a, d) < 0)
		return -1;
	if (expect_eol(ps, d) < 0)
		return -1;
	if (name_taken(ps, a.name) || nsc_slot_find(p, a.name) >= 0)
		return err_at(ps, col, d, "'%s' is already defined", a.name);
	if (p->narrays == MAX_ARRAYS)
		return err_at(ps, col, d, "more than 256 arrays%s", "");
	uint64_t base = NSC_MEM_BASE;
	if (p->narrays) {
		const nsc_array *l = &p->arrays[p->narrays - 1];
		base = (l->base + l->count * nsc_type_size(l->type) + 4095) & ~(uint64_t)4095;
	}
	a.base = base;
	if (base + a.count * nsc_type_size(a.type) - NSC_MEM_BASE > NSC_MEM_MAX)
		return err_at(ps, col, d, "the arrays pass the 1 GiB memory at '%s'", a.name);
	p->mem_bytes = base + a.count * nsc_type_size(a.type) - NSC_MEM_BASE;
	p->arrays[p->narrays++] = a;
	return 0;
}

static int new_slot(nsc_parser *ps, const char *name, int col, diag *d)
{
	int s = nsc_slot_find(ps->p, name);
	if (s >= 0)
		return s;
	if (name_taken(ps, name))
		return err_at(ps, col, d, "'%s' is already a constant or an array", name);
	if (ps->p->nslots == MAX_SLOTS)
		return err_at(ps, col, d, "more than 256 scalars%s", "");
	strcpy(ps->p->slots[ps->p->nslots], name);
	return ps->p->nslots++;
}

static nsc_stmt *new_stmt(nsc_parser *ps, nsc_skw kind, int col, diag *d)
{
	nsc_program *p = ps->p;
	if (p->nst == MAX_STMTS) {
		err_at(ps, col, d, "more than 65536 statements%s", "");
		return NULL;
	}
	nsc_stmt *s = &p->st[p->nst++];
	memset(s, 0, sizeof *s);
	s->kind = kind;
	s->slot = s->arr = s->e1 = s->e2 = s->ref = s->end = -1;
	s->line = ps->x.line;
	s->col = col;
	return s;
}

/* let NAME = EXPR | for NAME < EXPR | if EXPR */
static int stmt_core(nsc_parser *ps, nsc_skw kind, int col, diag *d)
{
	char name[NSC_NAME_MAX] = "";
	int ncol = nsc_lex_col(&ps->x), slot = -1, e;
	if (kind != NSC_ST_IF) {
		if (expect_name(ps, name, "a scalar's name", d) < 0 ||
		    nsc_lex_expect(&ps->x, kind == NSC_ST_LET ? "=" : "<", d) < 0)
			return -1;
	}
	if (nsc_parse_expr(ps, &e, d) < 0 || expect_eol(ps, d) < 0)
		return -1;
	if (kind != NSC_ST_IF && (slot = new_slot(ps, name, ncol, d)) < 0)
		return -1;
	nsc_stmt *s = new_stmt(ps, kind, col, d);
	if (!s)
		return -1;
	s->slot = slot;
	s->e1 = e;
	return 0;
}

/* ARR '[' EXPR ']' '=' EXPR: a store by the core. */
static int stmt_store(nsc_parser *ps, const char *arr, int col, diag *d)
{
	int a = nsc_array_find(ps->p, arr), i, v;
	if (a < 0)
		return err_at(ps, col, d, "unknown statement or array '%s'", arr);
	if (nsc_lex_expect(&ps->x, "[", d) < 0 || nsc_parse_expr(ps, &i, d) < 0 ||
	    nsc_lex_expect(&ps->x, "]", d) < 0 || nsc_lex_expect(&ps->x, "=", d) < 0 ||
	    nsc_parse_expr(ps, &v, d) < 0 || expect_eol(ps, d) < 0)
		return -1;
	nsc_stmt *s = new_stmt(ps, NSC_ST_STORE, col, d);
	if (!s)
		return -1;
	s->arr = a;
	s->e1 = i;
	s->e2 = v;
	return 0;
}


static int stmt_streams(nsc_parser *ps, int col, diag *d)
{
	nsc_program *p = ps->p;
	if (p->nrg == MAX_REGIONS)
		return err_at(ps, col, d, "more than 4096 stream regions%s", "");
	nsc_region *r = &p->rg[p->nrg];
	memset(r, 0, sizeof *r);
	r->line = ps->x.line;
	r->col = col;
	if (nsc_region_header(ps, r, d) < 0)
		return -1;
	nsc_stmt *s = new_stmt(ps, NSC_ST_STREAMS, col, d);
	if (!s)
		return -1;
	s->ref = p->nrg++;
	ps->cur = r;
	return 0;
}

typedef struct open_block {
	int stmt;
	int line, col;
} open_block;

static int stmt_end(nsc_parser *ps, open_block *stack, int *depth, int col, diag *d)
{
	if (expect_eol(ps, d) < 0)
		return -1;
	if (*depth == 0)
		return err_at(ps, col, d, "'end' with no open for, if or streams%s", "");
	int open = stack[--*depth].stmt;
	nsc_program *p = ps->p;
	if (p->st[open].kind == NSC_ST_STREAMS) {
		if (ps->cur->nstreams == 0)
			return err_at(ps, col, d, "a streams region with no stream%s", "");
		ps->cur = NULL;
		return 0;
	}
	nsc_stmt *s = new_stmt(ps, NSC_ST_END, col, d);
	if (!s)
		return -1;
	s->end = open;
	p->st[open].end = p->nst - 1;
	return 0;
}

static int parse_line(nsc_parser *ps, open_block *stack, int *depth, diag *d)
{
	nsc_lex *x = &ps->x;
	if (x->t == NSC_T_END)
		return 0;
	int col = nsc_lex_col(x);
	char kw[NSC_NAME_MAX];
	if (expect_name(ps, kw, "a statement", d) < 0)
		return -1;
	if (!strcmp(kw, "end"))
		return stmt_end(ps, stack, depth, col, d);
	if (ps->cur)
		return nsc_region_stream(ps, ps->cur, kw, col, d);
	bool opens = !strcmp(kw, "for") || !strcmp(kw, "if") || !strcmp(kw, "streams");
	if (opens && *depth == NEST_MAX)
		return err_at(ps, col, d, "blocks nested more than 32 deep%s", "");
	int before = ps->p->nst;
	int rc;
	if (!strcmp(kw, "const"))
		rc = *depth ? err_at(ps, col, d, "'const' only at the top level%s", "") : stmt_const(ps, d);
	else if (!strcmp(kw, "array"))
		rc = *depth ? err_at(ps, col, d, "'array' only at the top level%s", "") : stmt_array(ps, d);
	else if (!strcmp(kw, "let"))
		rc = stmt_core(ps, NSC_ST_LET, col, d);
	else if (!strcmp(kw, "for"))
		rc = stmt_core(ps, NSC_ST_FOR, col, d);
	else if (!strcmp(kw, "if"))
		rc = stmt_core(ps, NSC_ST_IF, col, d);
	else if (!strcmp(kw, "streams"))
		rc = stmt_streams(ps, col, d);
	else
		rc = stmt_store(ps, kw, col, d);
	if (rc == 0 && opens)
		stack[(*depth)++] = (open_block){ before, x->line, col };
	return rc;
}

static int parse_text(nsc_parser *ps, const char *file, const char *text, size_t len, diag *d)
{
	text_lines it;
	text_line ln;
	open_block stack[NEST_MAX];
	int depth = 0, rc;
	text_lines_init(&it, file, text, len);
	while ((rc = text_lines_next(&it, &ln, d)) > 0) {
		nsc_lex_init(&ps->x, file, ln.s, ln.len, ln.no);
		if (nsc_lex_next(&ps->x, d) < 0 || parse_line(ps, stack, &depth, d) < 0)
			return -1;
	}
	if (rc < 0)
		return -1;
	if (depth) {
		const open_block *b = &stack[depth - 1];
		diag_at(d, file, b->line, b->col, "this block has no 'end'");
		return -1;
	}
	if (ps->p->narrays == 0) {
		diag_at(d, file, 0, 0, "a program declares at least one array");
		return -1;
	}
	return 0;
}

int nsc_parse(const char *file, const char *text, size_t len, const nsc_define *defs, int ndefs,
	      nsc_program *p, diag *d)
{
	memset(p, 0, sizeof *p);
	diag_clear(d);
	nsc_parser ps;
	memset(&ps, 0, sizeof ps);
	ps.p = p;
	ps.defs = defs;
	ps.ndefs = ndefs;
	ps.cur_stream = -1;
	p->file = strdup(file);
	p->arrays = calloc(MAX_ARRAYS, sizeof *p->arrays);
	p->slots = calloc(MAX_SLOTS, sizeof *p->slots);
	p->st = calloc(MAX_STMTS, sizeof *p->st);
	p->rg = calloc(MAX_REGIONS, sizeof *p->rg);
	ps.consts = calloc(MAX_CONSTS, sizeof *ps.consts);
	ps.const_val = calloc(MAX_CONSTS, sizeof *ps.const_val);
	int rc = -1;
	if (!p->file || !p->arrays || !p->slots || !p->st || !p->rg || !ps.consts || !ps.const_val)
		diag_file(d, file, "out of memory");
	else
		rc = parse_text(&ps, file, text, len, d);
	p->consts = ps.consts;   /* kept: a front names them (-D) */
	p->const_val = ps.const_val;
	p->nconsts = ps.nconsts;
	if (rc < 0)
		nsc_program_free(p);
	return rc;
}

int nsc_load_file(const char *path, const nsc_define *defs, int ndefs, nsc_program *p, diag *d)
{
	char *text;
	size_t len;
	if (text_read_file(path, TEXT_FILE_MAX, &text, &len, d) < 0)
		return -1;
	int rc = nsc_parse(path, text, len, defs, ndefs, p, d);
	free(text);
	return rc;
}

void nsc_program_free(nsc_program *p)
{
	free(p->file);
	free(p->arrays);
	free(p->slots);
	free(p->ex);
	free(p->st);
	free(p->rg);
	free(p->consts);
	free(p->const_val);
	memset(p, 0, sizeof *p);
}

int nsc_array_find(const nsc_program *p, const char *name)
{
	for (int i = 0; i < p->narrays; i++)
		if (!strcmp(p->arrays[i].name, name))
			return i;
	return -1;
}

const char *nsc_type_name(nsc_type t)
{
	return type_names[t];
}

unsigned nsc_type_size(nsc_type t)
{
	static const unsigned sizes[NSC_NTYPES] = { 1, 1, 4, 4, 8, 4, 8 };
	return sizes[t];
}
