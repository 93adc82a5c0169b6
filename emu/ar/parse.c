/* SPDX-License-Identifier: MIT */
/*
 * parse.c: the .ar program text -> ar_program (doc/ACTIVE-ROUTING.md,
 * "Program format").  Directives (param, threads, array) come first,
 * then the statements every host thread runs: for/end, UpdateRR,
 * UpdateRI, UpdateII and Gather (the API of §IV-A).  Everything a user
 * can get wrong is checked here or, for values only known while running
 * (indexes, counts), reported at run time at the same line and column.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ar_lex.h"
#include "ar_private.h"

#define MAX_PARAMS 256
#define MAX_DEPTH 32

typedef struct pstate {
	ar_program *p;
	const char *path;
	diag *d;
	const ar_config *c;
	char *const *over;
	size_t nover;
	bool over_used[MAX_PARAMS];
	char pname[MAX_PARAMS][AR_NAME_MAX];
	int64_t pval[MAX_PARAMS];
	size_t nparams;
	/* loop variables in scope, innermost last */
	char vname[MAX_DEPTH][AR_NAME_MAX];
	int vslot[MAX_DEPTH];
	int forpc[MAX_DEPTH];
	int depth;
	bool started, threads_set;
	bool lane_ok;
	int line;
} pstate;

static int perr(pstate *ps, int col, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int perr(pstate *ps, int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vat(ps->d, ps->path, ps->line, col, fmt, ap);
	va_end(ap);
	return -1;
}

static int expect_tok(pstate *ps, ar_lex *lx, char p, const char *what)
{
	ar_tok t;
	if (ar_lex_next(lx, &t, ps->d))
		return -1;
	if (ar_tok_punct(&t, p))
		return 0;
	char got[64];
	ar_tok_text(&t, got, sizeof got);
	return perr(ps, t.col, "expected %s, found %s", what, got);
}

static int add_node(pstate *ps, ar_ekind k, int a, int b, int64_t v, int col)
{
	ar_program *p = ps->p;
	if (p->nnodes >= AR_MAX_NODES)
		return perr(ps, col, "too many expressions (%d at most per program)", AR_MAX_NODES);
	if (p->nnodes == p->cap_nodes) {
		size_t cap = p->cap_nodes ? 2 * p->cap_nodes : 256;
		ar_expr *n = realloc(p->nodes, cap * sizeof *n);
		if (!n)
			return perr(ps, col, "out of memory");
		p->nodes = n;
		p->cap_nodes = cap;
	}
	p->nodes[p->nnodes] = (ar_expr){ .kind = k, .a = a, .b = b, .value = v,
					 .line = ps->line, .col = col };
	return (int)p->nnodes++;
}

static int parse_expr(pstate *ps, ar_lex *lx);

static int find_param(const pstate *ps, const ar_tok *t)
{
	for (size_t i = 0; i < ps->nparams; i++)
		if (strlen(ps->pname[i]) == t->len && !memcmp(ps->pname[i], t->s, t->len))
			return (int)i;
	return -1;
}

static int find_var(const pstate *ps, const ar_tok *t)
{
	for (int i = ps->depth - 1; i >= 0; i--)
		if (strlen(ps->vname[i]) == t->len && !memcmp(ps->vname[i], t->s, t->len))
			return ps->vslot[i];
	return -1;
}

static int find_array_tok(const pstate *ps, const ar_tok *t)
{
	for (size_t i = 0; i < ps->p->narrays; i++)
		if (strlen(ps->p->arrays[i].name) == t->len &&
		    !memcmp(ps->p->arrays[i].name, t->s, t->len))
			return (int)i;
	return -1;
}

/* min(a, b) / max(a, b) */
static int parse_call(pstate *ps, ar_lex *lx, ar_ekind k, int col)
{
	if (expect_tok(ps, lx, '(', "'(' after min or max"))
		return -1;
	int a = parse_expr(ps, lx);
	if (a < 0 || expect_tok(ps, lx, ',', "',' between the two arguments"))
		return -1;
	int b = parse_expr(ps, lx);
	if (b < 0 || expect_tok(ps, lx, ')', "')'"))
		return -1;
	return add_node(ps, k, a, b, 0, col);
}

/* NAME[index] reading an integer array (an index array). */
static int parse_load(pstate *ps, ar_lex *lx, const ar_tok *t)
{
	int a = find_array_tok(ps, t);
	if (a < 0)
		return perr(ps, t->col, "unknown array '%.*s'", (int)t->len, t->s);
	if (ps->p->arrays[a].type == AR_F32)
		return perr(ps, t->col, "array '%s' is f32: an index must be an integer array",
			    ps->p->arrays[a].name);
	ar_tok br;
	if (ar_lex_next(lx, &br, ps->d))
		return -1;
	int i = parse_expr(ps, lx);
	if (i < 0 || expect_tok(ps, lx, ']', "']' after the index"))
		return -1;
	return add_node(ps, AR_E_LOAD, a, i, 0, t->col);
}

static int parse_name(pstate *ps, ar_lex *lx, const ar_tok *t)
{
	ar_tok nx;
	if (ar_lex_peek(lx, &nx, ps->d))
		return -1;
	if (ar_tok_punct(&nx, '['))
		return parse_load(ps, lx, t);
	if (ar_tok_is(t, "min") && ar_tok_punct(&nx, '('))
		return parse_call(ps, lx, AR_E_MIN, t->col);
	if (ar_tok_is(t, "max") && ar_tok_punct(&nx, '('))
		return parse_call(ps, lx, AR_E_MAX, t->col);
	if (ar_tok_is(t, "lane")) {
		if (!ps->lane_ok)
			return perr(ps, t->col, "'lane' is only meaningful in the second operand of UpdateRI");
		return add_node(ps, AR_E_LANE, 0, 0, 0, t->col);
	}
	int v = find_var(ps, t);
	if (v >= 0)
		return add_node(ps, AR_E_VAR, 0, 0, v, t->col);
	if (ar_tok_is(t, "tid")) {
		if (!ps->started)
			return perr(ps, t->col, "'tid' is only known in statements, not in directives");
		return add_node(ps, AR_E_VAR, 0, 0, 0, t->col);
	}
	if (ar_tok_is(t, "nthreads"))
		return add_node(ps, AR_E_CONST, 0, 0, (int64_t)ps->p->threads, t->col);
	int k = find_param(ps, t);
	if (k >= 0)
		return add_node(ps, AR_E_CONST, 0, 0, ps->pval[k], t->col);
	return perr(ps, t->col, "unknown name '%.*s' (expected a loop variable, a param, tid, "
		    "nthreads, lane, min(..), max(..) or ARRAY[INDEX])", (int)t->len, t->s);
}

static int parse_primary(pstate *ps, ar_lex *lx)
{
	ar_tok t;
	if (ar_lex_next(lx, &t, ps->d))
		return -1;
	if (t.kind == AR_T_INT)
		return add_node(ps, AR_E_CONST, 0, 0, t.ival, t.col);
	if (t.kind == AR_T_IDENT)
		return parse_name(ps, lx, &t);
	if (ar_tok_punct(&t, '-')) {
		int a = parse_primary(ps, lx);
		return a < 0 ? -1 : add_node(ps, AR_E_NEG, a, 0, 0, t.col);
	}
	if (ar_tok_punct(&t, '(')) {
		int a = parse_expr(ps, lx);
		if (a < 0 || expect_tok(ps, lx, ')', "')'"))
			return -1;
		return a;
	}
	if (t.kind == AR_T_FLOAT)
		return perr(ps, t.col, "expected an integer expression, found a floating-point number");
	char got[64];
	ar_tok_text(&t, got, sizeof got);
	return perr(ps, t.col, "expected an integer expression, found %s", got);
}

static int parse_term(pstate *ps, ar_lex *lx)
{
	int a = parse_primary(ps, lx);
	for (;;) {
		ar_tok t;
		if (a < 0 || ar_lex_peek(lx, &t, ps->d))
			return -1;
		ar_ekind k = ar_tok_punct(&t, '*') ? AR_E_MUL : ar_tok_punct(&t, '/') ? AR_E_DIV
			   : ar_tok_punct(&t, '%') ? AR_E_MOD : AR_E_CONST;
		if (k == AR_E_CONST)
			return a;
		ar_lex_next(lx, &t, ps->d);
		int b = parse_primary(ps, lx);
		a = b < 0 ? -1 : add_node(ps, k, a, b, 0, t.col);
	}
}

static int expr_depth_guard;

static int parse_expr(pstate *ps, ar_lex *lx)
{
	if (++expr_depth_guard > 64) {
		expr_depth_guard = 0;
		return perr(ps, (int)lx->pos + 1, "expression nested too deeply (64 levels at most)");
	}
	int a = parse_term(ps, lx);
	for (;;) {
		ar_tok t;
		if (a < 0 || ar_lex_peek(lx, &t, ps->d)) {
			expr_depth_guard = 0;
			return -1;
		}
		ar_ekind k = ar_tok_punct(&t, '+') ? AR_E_ADD : ar_tok_punct(&t, '-') ? AR_E_SUB
			   : AR_E_CONST;
		if (k == AR_E_CONST) {
			expr_depth_guard--;
			return a;
		}
		ar_lex_next(lx, &t, ps->d);
		int b = parse_term(ps, lx);
		a = b < 0 ? -1 : add_node(ps, k, a, b, 0, t.col);
	}
}

/* Evaluate a constant expression (directives): no variables, no loads. */
static int const_eval(pstate *ps, int n, int64_t *out)
{
	const ar_expr *e = &ps->p->nodes[n];
	int64_t a = 0, b = 0;
	switch (e->kind) {
	case AR_E_CONST:
		*out = e->value;
		return 0;
	case AR_E_VAR: case AR_E_LANE: case AR_E_LOAD:
		return perr(ps, e->col, "a directive needs a constant: params, numbers and "
			    "nthreads only");
	default:
		break;
	}
	if (const_eval(ps, e->a, &a) || (e->kind != AR_E_NEG && const_eval(ps, e->b, &b)))
		return -1;
	/* a directive's constant that wraps would give an array or a param
	 * another value than the one written: refused, as in every format
	 * (run-time expressions wrap, as documented) */
	int64_t t;
	if ((e->kind == AR_E_NEG && a == INT64_MIN) ||
	    (e->kind == AR_E_ADD && __builtin_add_overflow(a, b, &t)) ||
	    (e->kind == AR_E_SUB && __builtin_sub_overflow(a, b, &t)) ||
	    (e->kind == AR_E_MUL && __builtin_mul_overflow(a, b, &t)) ||
	    (e->kind == AR_E_DIV && a == INT64_MIN && b == -1))
		return perr(ps, e->col, "the constant overflows 64-bit integers");
	if (ar_arith(e->kind, a, b, out))
		return perr(ps, e->col, "division by zero");
	return 0;
}

static int parse_const(pstate *ps, ar_lex *lx, int64_t *v)
{
	int n = parse_expr(ps, lx);
	return n < 0 ? -1 : const_eval(ps, n, v);
}

static int expect_end(pstate *ps, ar_lex *lx, const char *after)
{
	ar_tok t;
	if (ar_lex_next(lx, &t, ps->d))
		return -1;
	if (t.kind == AR_T_END)
		return 0;
	char got[64];
	ar_tok_text(&t, got, sizeof got);
	return perr(ps, t.col, "unexpected %s after %s", got, after);
}

static int expect_ident(pstate *ps, ar_lex *lx, ar_tok *t, const char *what)
{
	if (ar_lex_next(lx, t, ps->d))
		return -1;
	if (t->kind == AR_T_IDENT)
		return 0;
	char got[64];
	ar_tok_text(t, got, sizeof got);
	return perr(ps, t->col, "expected %s, found %s", what, got);
}

static bool reserved(const ar_tok *t)
{
	static const char *const words[] = { "tid", "nthreads", "lane", "nil", "min", "max",
		"for", "end", "param", "threads", "array", "UpdateRR", "UpdateRI", "UpdateII",
		"Gather" };
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (ar_tok_is(t, words[i]))
			return true;
	return false;
}

static int check_new_name(pstate *ps, const ar_tok *t)
{
	if (reserved(t))
		return perr(ps, t->col, "'%.*s' is a reserved word", (int)t->len, t->s);
	if (find_param(ps, t) >= 0 || find_array_tok(ps, t) >= 0 || find_var(ps, t) >= 0)
		return perr(ps, t->col, "'%.*s' is already defined", (int)t->len, t->s);
	return 0;
}

/* -D NAME=VALUE given for this param? */
static int param_override(pstate *ps, const ar_tok *name, int64_t *v, bool *found)
{
	*found = false;
	for (size_t i = 0; i < ps->nover && i < MAX_PARAMS; i++) {
		const char *o = ps->over[i], *eq = strchr(o, '=');
		if (!eq || (size_t)(eq - o) != name->len || memcmp(o, name->s, name->len))
			continue;
		char *end;
		long long x = strtoll(eq + 1, &end, 0);
		if (end == eq + 1 || *end)
			return perr(ps, name->col, "-D %s: expected an integer value", o);
		ps->over_used[i] = true;
		*v = x;
		*found = true;
	}
	return 0;
}

static int parse_param(pstate *ps, ar_lex *lx)
{
	ar_tok name;
	if (expect_ident(ps, lx, &name, "the param's name") || check_new_name(ps, &name))
		return -1;
	if (ps->nparams >= MAX_PARAMS)
		return perr(ps, name.col, "too many params (%d at most)", MAX_PARAMS);
	int64_t v;
	bool over;
	if (expect_tok(ps, lx, '=', "'=' after the param's name") || parse_const(ps, lx, &v) ||
	    expect_end(ps, lx, "the param's value") || param_override(ps, &name, &v, &over))
		return -1;
	snprintf(ps->pname[ps->nparams], AR_NAME_MAX, "%.*s", (int)name.len, name.s);
	ps->pval[ps->nparams++] = v;
	return 0;
}

static int parse_threads(pstate *ps, ar_lex *lx, int col)
{
	int64_t v;
	if (ps->threads_set)
		return perr(ps, col, "threads is given twice");
	if (parse_const(ps, lx, &v) || expect_end(ps, lx, "the thread count"))
		return -1;
	if (v < 1 || v > AR_MAX_THREADS)
		return perr(ps, col, "threads must be 1 to %d, not %lld", AR_MAX_THREADS, (long long)v);
	ps->p->threads = (unsigned)v;
	ps->threads_set = true;
	return 0;
}

static int parse_type(pstate *ps, const ar_tok *t, ar_type *ty)
{
	if (ar_tok_is(t, "i32"))
		*ty = AR_I32;
	else if (ar_tok_is(t, "i64"))
		*ty = AR_I64;
	else if (ar_tok_is(t, "f32"))
		*ty = AR_F32;
	else
		return perr(ps, t->col, "unknown type '%.*s' (expected i32, i64 or f32)",
			    (int)t->len, t->s);
	return 0;
}

/* Arrays are placed in declaration order, each at a 4 KiB boundary
 * (doc: "Memory and the address map"). */
static int place_array(pstate *ps, ar_array *a, int64_t len, int col)
{
	ar_program *p = ps->p;
	if (len < 1)
		return perr(ps, col, "an array needs at least 1 element, not %lld", (long long)len);
	uint64_t bytes = (uint64_t)len * a->esize;
	if ((uint64_t)len > ps->c->max_memory / a->esize || p->mem_bytes + bytes > ps->c->max_memory)
		return perr(ps, col, "the arrays would need more than %llu bytes (--max-memory)",
			    (unsigned long long)ps->c->max_memory);
	a->len = (uint64_t)len;
	a->base = p->mem_bytes;
	p->mem_bytes = (p->mem_bytes + bytes + 4095) & ~(uint64_t)4095;
	a->data = calloc(1, bytes);
	return a->data ? 0 : perr(ps, col, "out of memory for %llu bytes", (unsigned long long)bytes);
}

/* An init spec with its param names replaced by their values; where
 * each rewritten field starts in the original, for messages. */
static int spec_subst(pstate *ps, const char *s, size_t len, char *out, size_t size,
		      size_t orig[8], size_t outpos[8], int *nf)
{
	size_t o = 0, start = 0;
	*nf = 0;
	for (size_t i = 0; i <= len; i++) {
		if (i < len && s[i] != ':')
			continue;
		ar_tok t = { .kind = AR_T_IDENT, .s = s + start, .len = i - start };
		int k = t.len && ((s[start] >= 'a' && s[start] <= 'z') ||
				  (s[start] >= 'A' && s[start] <= 'Z') || s[start] == '_')
			? find_param(ps, &t) : -1;
		if (*nf == 8)
			return -1;
		orig[*nf] = start;
		outpos[(*nf)++] = o;
		int n = k >= 0 ? snprintf(out + o, size - o, "%lld%s", (long long)ps->pval[k],
					  i < len ? ":" : "")
			       : snprintf(out + o, size - o, "%.*s%s", (int)t.len, t.s, i < len ? ":" : "");
		if (n < 0 || (size_t)n >= size - o)
			return -1;
		o += (size_t)n;
		start = i + 1;
	}
	return (int)o;
}

static int parse_init(pstate *ps, ar_lex *lx, ar_array *a)
{
	size_t s = lx->pos;
	while (lx->pos < lx->len && lx->s[lx->pos] != ' ' && lx->s[lx->pos] != '\t' &&
	       lx->s[lx->pos] != '#' && lx->s[lx->pos] != '\r')
		lx->pos++;
	char spec[256];
	size_t orig[8], outpos[8];
	int nf, n = spec_subst(ps, lx->s + s, lx->pos - s, spec, sizeof spec, orig, outpos, &nf);
	if (n < 0)
		return perr(ps, (int)s + 1, "init spec too long");
	const char *err = NULL;
	size_t at = 0;
	if (!ar_mem_init(a, spec, (size_t)n, &err, &at))
		return 0;
	size_t col = s;
	for (int f = 0; f < nf; f++)
		if (outpos[f] <= at)
			col = s + orig[f];
	return perr(ps, (int)col + 1, "%s", err);
}

static int parse_array_fields(pstate *ps, ar_lex *lx, ar_array *a)
{
	for (;;) {
		ar_tok k;
		if (ar_lex_next(lx, &k, ps->d))
			return -1;
		if (k.kind == AR_T_END)
			return 0;
		if (!ar_tok_is(&k, "init"))
			return perr(ps, k.col, "expected init=SPEC after the array's length");
		if (expect_tok(ps, lx, '=', "'=' after init") || parse_init(ps, lx, a))
			return -1;
	}
}

static int parse_array(pstate *ps, ar_lex *lx)
{
	ar_program *p = ps->p;
	ar_tok name, ty;
	if (expect_ident(ps, lx, &name, "the array's name") || check_new_name(ps, &name))
		return -1;
	if (p->narrays >= 1024)
		return perr(ps, name.col, "too many arrays (1024 at most)");
	ar_array a = { .line = ps->line, .col = name.col };
	snprintf(a.name, sizeof a.name, "%.*s", (int)name.len, name.s);
	if (expect_ident(ps, lx, &ty, "the element type (i32, i64 or f32)") ||
	    parse_type(ps, &ty, &a.type))
		return -1;
	a.esize = ar_type_size(a.type);
	int64_t len;
	ar_tok lt;
	if (ar_lex_peek(lx, &lt, ps->d))
		return -1;
	if (parse_const(ps, lx, &len) || place_array(ps, &a, len, lt.col))
		return -1;
	ar_array *na = realloc(p->arrays, (p->narrays + 1) * sizeof *na);
	if (!na) {
		free(a.data);
		return perr(ps, name.col, "out of memory");
	}
	p->arrays = na;
	p->arrays[p->narrays++] = a;
	return parse_array_fields(ps, lx, &p->arrays[p->narrays - 1]);
}

static ar_stmt *new_stmt(pstate *ps, ar_skind k, int col)
{
	ar_program *p = ps->p;
	if (p->nstmts >= AR_MAX_STMTS) {
		perr(ps, col, "too many statements (%d at most)", AR_MAX_STMTS);
		return NULL;
	}
	if (p->nstmts == p->cap_stmts) {
		size_t cap = p->cap_stmts ? 2 * p->cap_stmts : 64;
		ar_stmt *s = realloc(p->stmts, cap * sizeof *s);
		if (!s) {
			perr(ps, col, "out of memory");
			return NULL;
		}
		p->stmts = s;
		p->cap_stmts = cap;
	}
	ar_stmt *s = &p->stmts[p->nstmts++];
	memset(s, 0, sizeof *s);
	s->kind = k;
	s->line = ps->line;
	s->col = col;
	s->count = -1;
	s->step = -1;
	return s;
}

static int parse_for(pstate *ps, ar_lex *lx, int col)
{
	ar_tok v;
	if (expect_ident(ps, lx, &v, "the loop variable") || check_new_name(ps, &v))
		return -1;
	if (ps->depth >= MAX_DEPTH)
		return perr(ps, col, "loops nested too deeply (%d at most)", MAX_DEPTH);
	if (ps->p->nvars >= AR_MAX_VARS)
		return perr(ps, col, "too many loop variables (%d at most)", AR_MAX_VARS);
	int from, to, step = -1;
	if (expect_tok(ps, lx, '=', "'=' after the loop variable") ||
	    (from = parse_expr(ps, lx)) < 0 || expect_tok(ps, lx, ',', "',' before the end bound") ||
	    (to = parse_expr(ps, lx)) < 0)
		return -1;
	ar_tok t;
	if (ar_lex_peek(lx, &t, ps->d))
		return -1;
	if (ar_tok_punct(&t, ',')) {
		ar_lex_next(lx, &t, ps->d);
		if ((step = parse_expr(ps, lx)) < 0)
			return -1;
	}
	if (expect_end(ps, lx, "the loop's bounds"))
		return -1;
	ar_stmt *s = new_stmt(ps, AR_S_FOR, col);
	if (!s)
		return -1;
	s->var = (int)ps->p->nvars++;
	s->from = from;
	s->to = to;
	s->step = step;
	snprintf(ps->vname[ps->depth], AR_NAME_MAX, "%.*s", (int)v.len, v.s);
	ps->vslot[ps->depth] = s->var;
	ps->forpc[ps->depth++] = (int)(s - ps->p->stmts);
	return 0;
}

static int parse_end(pstate *ps, ar_lex *lx, int col)
{
	if (ps->depth == 0)
		return perr(ps, col, "'end' without a 'for'");
	if (expect_end(ps, lx, "'end'"))
		return -1;
	ar_stmt *s = new_stmt(ps, AR_S_END, col);
	if (!s)
		return -1;
	int f = ps->forpc[--ps->depth];
	s->other = f;
	ps->p->stmts[f].other = (int)(s - ps->p->stmts);
	return 0;
}

/* ---- Update and Gather (§IV-A) ---- */

static const char *const op_names[AR_OP_COUNT] = {
	"sum", "xor", "and", "min", "max", "mac", "msub", "abs", "mov", "const", "div",
};

const char *ar_op_name(ar_op op)
{
	return op < AR_OP_COUNT ? op_names[op] : "?";
}

/* An immediate operand (const's value), kept as text until the target's
 * type is known. */
typedef struct imm_text {
	char s[48];
	bool isint;
	int col;
} imm_text;

static int parse_number_ref(pstate *ps, ar_lex *lx, ar_tok *t, ar_ref *r, imm_text *im)
{
	bool neg = ar_tok_punct(t, '-');
	int col = t->col;
	if (neg && ar_lex_next(lx, t, ps->d))
		return -1;
	if (t->kind != AR_T_INT && t->kind != AR_T_FLOAT)
		return perr(ps, t->col, "expected a number after '-'");
	r->imm = true;
	r->line = ps->line;
	r->col = col;
	snprintf(im->s, sizeof im->s, "%s%.*s", neg ? "-" : "", (int)t->len, t->s);
	im->isint = t->kind == AR_T_INT;
	im->col = col;
	return 0;
}

/* ARRAY[INDEX], nil, or (im != NULL) a number. */
static int parse_ref(pstate *ps, ar_lex *lx, ar_ref *r, const char *what, imm_text *im)
{
	ar_tok t;
	memset(r, 0, sizeof *r);
	if (ar_lex_next(lx, &t, ps->d))
		return -1;
	r->line = ps->line;
	r->col = t.col;
	if (ar_tok_is(&t, "nil")) {
		r->nil = true;
		return 0;
	}
	if (im && (t.kind == AR_T_INT || t.kind == AR_T_FLOAT || ar_tok_punct(&t, '-')))
		return parse_number_ref(ps, lx, &t, r, im);
	if (t.kind != AR_T_IDENT) {
		char got[64];
		ar_tok_text(&t, got, sizeof got);
		return perr(ps, t.col, "expected %s (ARRAY[INDEX]%s), found %s", what,
			    im ? ", nil or a number" : ", or nil", got);
	}
	r->array = find_array_tok(ps, &t);
	if (r->array < 0)
		return perr(ps, t.col, "unknown array '%.*s'", (int)t.len, t.s);
	if (expect_tok(ps, lx, '[', "'[' after the array's name"))
		return -1;
	r->index = parse_expr(ps, lx);
	if (r->index < 0 || expect_tok(ps, lx, ']', "']' after the index"))
		return -1;
	return 0;
}

static int parse_op(pstate *ps, ar_lex *lx, ar_op *op)
{
	ar_tok t;
	if (expect_ident(ps, lx, &t, "the operation (sum, xor, and, min, max, mac, msub, abs, "
			 "mov, const or div)"))
		return -1;
	for (int i = 0; i < AR_OP_COUNT; i++)
		if (ar_tok_is(&t, op_names[i])) {
			*op = (ar_op)i;
			return 0;
		}
	return perr(ps, t.col, "unknown operation '%.*s' (expected sum, xor, and, min, max, mac, "
		    "msub, abs, mov, const or div)", (int)t.len, t.s);
}

static int imm_bits(pstate *ps, const imm_text *im, ar_type ty, uint64_t *bits)
{
	char *end;
	if (ty == AR_F32) {
		float f = strtof(im->s, &end);
		uint32_t u;
		memcpy(&u, &f, 4);
		*bits = u;
		return 0;
	}
	if (!im->isint)
		return perr(ps, im->col, "the target is %s: the value must be an integer",
			    ar_type_name(ty));
	errno = 0;
	long long v = strtoll(im->s, &end, 0);
	if (errno || (ty == AR_I32 && (v < INT32_MIN || v > INT32_MAX)))
		return perr(ps, im->col, "%s does not fit in %s", im->s, ar_type_name(ty));
	*bits = ty == AR_I32 ? (uint32_t)(int32_t)v : (uint64_t)v;
	return 0;
}

static int ref_type_check(pstate *ps, const ar_ref *r, ar_type ty, const char *what)
{
	if (r->nil || r->imm)
		return 0;
	const ar_array *a = &ps->p->arrays[r->array];
	if (a->type != ty)
		return perr(ps, r->col, "%s '%s' is %s but the target is %s", what, a->name,
			    ar_type_name(a->type), ar_type_name(ty));
	return 0;
}

/* The rules of doc "Operations": which operands each op takes. */
static int check_update(pstate *ps, ar_stmt *s, const imm_text *im, int opcol)
{
	ar_type ty = ps->p->arrays[s->target.array].type;
	bool assign = !ar_op_is_flow(s->op);
	if (s->src1.nil)
		return perr(ps, s->src1.col, "the first operand cannot be nil");
	if (s->op == AR_OP_CONST) {
		if (!s->src1.imm)
			return perr(ps, s->src1.col, "const assigns a number: the first operand "
				    "must be one");
		if (imm_bits(ps, im, ty, &s->src1.bits))
			return -1;
	} else if (s->src1.imm) {
		return perr(ps, s->src1.col, "only const takes a number as its first operand");
	}
	if ((s->op == AR_OP_CONST || s->op == AR_OP_MOV) && !s->src2.nil)
		return perr(ps, s->src2.col, "%s takes one operand: the second must be nil",
			    ar_op_name(s->op));
	if ((ar_op_needs_src2(s->op) || s->pat == AR_RI) && s->src2.nil)
		return perr(ps, s->src2.col, "%s needs a second operand",
			    s->pat == AR_RI ? "UpdateRI" : ar_op_name(s->op));
	if (assign && s->pat != AR_II)
		return perr(ps, opcol, "%s assigns one element: use UpdateII", ar_op_name(s->op));
	if ((s->op == AR_OP_XOR || s->op == AR_OP_AND) && ty == AR_F32)
		return perr(ps, opcol, "%s needs integer operands, not f32", ar_op_name(s->op));
	if (ref_type_check(ps, &s->src1, ty, "the first operand") ||
	    ref_type_check(ps, &s->src2, ty, "the second operand"))
		return -1;
	return 0;
}

static int parse_update(pstate *ps, ar_lex *lx, const ar_tok *kw)
{
	ar_stmt *s = new_stmt(ps, AR_S_UPDATE, kw->col);
	if (!s)
		return -1;
	s->pat = ar_tok_is(kw, "UpdateRR") ? AR_RR : ar_tok_is(kw, "UpdateRI") ? AR_RI : AR_II;
	imm_text im = { .isint = false };
	if (parse_ref(ps, lx, &s->src1, "the first operand", &im) ||
	    expect_tok(ps, lx, ',', "',' after the first operand"))
		return -1;
	ps->lane_ok = s->pat == AR_RI;
	int rc = parse_ref(ps, lx, &s->src2, "the second operand", NULL);
	ps->lane_ok = false;
	if (rc || expect_tok(ps, lx, ',', "',' after the second operand") ||
	    parse_ref(ps, lx, &s->target, "the target", NULL))
		return -1;
	if (s->target.nil)
		return perr(ps, s->target.col, "the target cannot be nil");
	ar_tok t;
	if (expect_tok(ps, lx, ',', "',' after the target") || ar_lex_peek(lx, &t, ps->d))
		return -1;
	int opcol = t.col;
	if (parse_op(ps, lx, &s->op))
		return -1;
	if (ar_lex_peek(lx, &t, ps->d))
		return -1;
	if (ar_tok_punct(&t, ',')) {
		ar_lex_next(lx, &t, ps->d);
		if (s->pat == AR_II)
			return perr(ps, t.col, "UpdateII has no element count: it is one element");
		if ((s->count = parse_expr(ps, lx)) < 0)
			return -1;
	}
	if (expect_end(ps, lx, "the Update"))
		return -1;
	return check_update(ps, s, &im, opcol);
}

static int parse_gather(pstate *ps, ar_lex *lx, int col)
{
	ar_stmt *s = new_stmt(ps, AR_S_GATHER, col);
	if (!s)
		return -1;
	if (parse_ref(ps, lx, &s->target, "the target", NULL))
		return -1;
	if (s->target.nil)
		return perr(ps, s->target.col, "the target cannot be nil");
	if (expect_tok(ps, lx, ',', "',' before the number of threads") ||
	    (s->from = parse_expr(ps, lx)) < 0)
		return -1;
	return expect_end(ps, lx, "Gather's number of threads");
}

static int parse_line(pstate *ps, ar_lex *lx)
{
	ar_tok t;
	if (ar_lex_next(lx, &t, ps->d))
		return -1;
	if (t.kind == AR_T_END)
		return 0;
	if (t.kind != AR_T_IDENT)
		return perr(ps, t.col, "expected a directive (param, threads, array) or a statement "
			    "(for, end, UpdateRR, UpdateRI, UpdateII, Gather)");
	bool directive = ar_tok_is(&t, "param") || ar_tok_is(&t, "threads") || ar_tok_is(&t, "array");
	if (directive && ps->started)
		return perr(ps, t.col, "'%.*s' must come before the first statement", (int)t.len, t.s);
	if (ar_tok_is(&t, "param"))
		return parse_param(ps, lx);
	if (ar_tok_is(&t, "threads"))
		return parse_threads(ps, lx, t.col);
	if (ar_tok_is(&t, "array"))
		return parse_array(ps, lx);
	ps->started = true;
	if (ar_tok_is(&t, "for"))
		return parse_for(ps, lx, t.col);
	if (ar_tok_is(&t, "end"))
		return parse_end(ps, lx, t.col);
	if (ar_tok_is(&t, "Gather"))
		return parse_gather(ps, lx, t.col);
	if (ar_tok_is(&t, "UpdateRR") || ar_tok_is(&t, "UpdateRI") || ar_tok_is(&t, "UpdateII"))
		return parse_update(ps, lx, &t);
	return perr(ps, t.col, "unknown statement '%.*s' (expected param, threads, array, for, "
		    "end, UpdateRR, UpdateRI, UpdateII or Gather)", (int)t.len, t.s);
}

/* Split into lines: each ends with '\n' (the last may not); no NUL, no
 * line longer than 4096 bytes. */
static int parse_lines(pstate *ps, const char *text, size_t len)
{
	size_t pos = 0;
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len;
		ps->line++;
		if (end - pos > 4096)
			return perr(ps, 4097, "line too long (4096 bytes at most)");
		const char *nul = memchr(text + pos, 0, end - pos);
		if (nul)
			return perr(ps, (int)(nul - (text + pos)) + 1, "NUL byte in the program text");
		ar_lex lx;
		ar_lex_init(&lx, ps->path, text + pos, end - pos, ps->line);
		if (parse_line(ps, &lx))
			return -1;
		pos = end + 1;
	}
	return 0;
}

static int parse_finish(pstate *ps)
{
	if (ps->depth > 0) {
		const ar_stmt *f = &ps->p->stmts[ps->forpc[ps->depth - 1]];
		diag_at(ps->d, ps->path, f->line, f->col, "this 'for' has no 'end'");
		return -1;
	}
	for (size_t i = 0; i < ps->nover && i < MAX_PARAMS; i++)
		if (!ps->over_used[i]) {
			diag_file(ps->d, ps->path, "-D %s: the program has no such param", ps->over[i]);
			return -1;
		}
	if (ps->nover > MAX_PARAMS) {
		diag_file(ps->d, ps->path, "too many -D options (%d at most)", MAX_PARAMS);
		return -1;
	}
	if (ps->p->nstmts == 0) {
		diag_file(ps->d, ps->path, "the program has no statement: it runs nothing (its "
			  "declarations alone compute nothing)");
		return -1;
	}
	return 0;
}

ar_program *ar_parse(const char *path, const char *text, size_t len,
		     char *const *params, size_t nparams, const ar_config *c, diag *d)
{
	ar_program *p = calloc(1, sizeof *p);
	pstate *ps = calloc(1, sizeof *ps);
	if (!p || !ps) {
		free(p);
		free(ps);
		diag_file(d, path, "out of memory");
		return NULL;
	}
	snprintf(p->path, sizeof p->path, "%s", path);
	p->threads = 1;
	p->nvars = 1; /* slot 0 is tid */
	*ps = (pstate){ .p = p, .path = p->path, .d = d, .c = c, .over = params, .nover = nparams };
	expr_depth_guard = 0;
	int rc = len > AR_SRC_MAX ? (diag_file(d, path, "program too large (%u bytes at most)",
					       AR_SRC_MAX), -1)
				  : parse_lines(ps, text, len);
	if (!rc)
		rc = parse_finish(ps);
	free(ps);
	if (rc) {
		ar_program_free(p);
		return NULL;
	}
	return p;
}

void ar_program_free(ar_program *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->narrays; i++)
		free(p->arrays[i].data);
	free(p->arrays);
	free(p->nodes);
	free(p->stmts);
	free(p);
}
