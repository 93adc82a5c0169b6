/* SPDX-License-Identifier: MIT */
/*
 * host.c: the host threads of an .ar program.  Every thread runs the
 * statements with its own tid and loop variables; the host issues their
 * operations in one round-robin program order (one operation of thread
 * 0, then of thread 1, ...), skipping a thread that waits at a Gather
 * barrier (§IV-A: the root waits for num_threads Gathers).  Addresses and
 * loop bounds are evaluated when an operation is issued, reading index
 * arrays from memory as the host core would.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ar_private.h"

typedef struct thread_state {
	int pc;
	bool done, barrier_wait, commit_wait;
	uint64_t wait_target;
	int64_t *vars, *end, *step;
} thread_state;

typedef struct round {
	uint64_t target;
	unsigned n, arrived;
	const ar_stmt *s;
} round;

struct ar_host {
	ar_program *p;
	const ar_config *c;
	thread_state *t;
	unsigned rr;
	round *rounds;
	size_t nrounds, cap_rounds;
	uint64_t steps;
	uint64_t normal;       /* index bytes read for the operation being built */
};

ar_host *ar_host_new(ar_program *p, const ar_config *c, diag *d)
{
	ar_host *h = calloc(1, sizeof *h);
	if (h) {
		h->p = p; /* first: ar_host_free needs it to free the threads' variables */
		h->c = c;
		h->t = calloc(p->threads, sizeof *h->t);
	}
	for (unsigned i = 0; h && h->t && i < p->threads; i++) {
		thread_state *t = &h->t[i];
		t->vars = calloc(3 * (size_t)p->nvars, sizeof *t->vars);
		if (!t->vars) {
			ar_host_free(h);
			h = NULL;
			break;
		}
		t->end = t->vars + p->nvars;
		t->step = t->end + p->nvars;
		t->vars[0] = i; /* tid */
	}
	if (!h || !h->t) {
		ar_host_free(h);
		diag_file(d, p->path, "out of memory");
		return NULL;
	}
	return h;
}

void ar_host_free(ar_host *h)
{
	if (!h)
		return;
	for (unsigned i = 0; h->t && h->p && i < h->p->threads; i++)
		free(h->t[i].vars);
	free(h->t);
	free(h->rounds);
	free(h);
}

ar_host *ar_host_copy(const ar_host *h, const ar_config *c)
{
	ar_host *n = calloc(1, sizeof *n);
	if (!n)
		return NULL;
	*n = *h;
	n->c = c;
	n->t = calloc(h->p->threads, sizeof *n->t);
	n->rounds = h->nrounds ? malloc(h->nrounds * sizeof *n->rounds) : NULL;
	n->cap_rounds = n->rounds ? h->nrounds : 0;
	if (!n->t || (h->nrounds && !n->rounds)) {
		free(n->t);
		free(n->rounds);
		free(n);
		return NULL;
	}
	if (h->nrounds)
		memcpy(n->rounds, h->rounds, h->nrounds * sizeof *n->rounds);
	size_t vars = 3 * (size_t)h->p->nvars;
	for (unsigned i = 0; i < h->p->threads; i++) {
		n->t[i] = h->t[i];
		n->t[i].vars = malloc(vars * sizeof *n->t[i].vars);
		if (!n->t[i].vars) {
			ar_host_free(n);  /* frees the threads' variables copied so far */
			return NULL;
		}
		memcpy(n->t[i].vars, h->t[i].vars, vars * sizeof *n->t[i].vars);
		n->t[i].end = n->t[i].vars + h->p->nvars;
		n->t[i].step = n->t[i].end + h->p->nvars;
	}
	return n;
}

static int rt_err(const ar_host *h, int line, int col, diag *d, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static int rt_err(const ar_host *h, int line, int col, diag *d, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vat(d, h->p->path, line, col, fmt, ap);
	va_end(ap);
	return -1;
}

static int eval(ar_host *h, const thread_state *t, int n, int64_t lane, int64_t *out, diag *d);

/* The arithmetic of expressions, for the parser's constants and the
 * host alike: 64-bit wrapping, / and % truncating, INT64_MIN / -1 wraps. */
int ar_arith(ar_ekind k, int64_t a, int64_t b, int64_t *out)
{
	uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
	switch (k) {
	case AR_E_NEG: *out = (int64_t)(0 - ua); return 0;
	case AR_E_ADD: *out = (int64_t)(ua + ub); return 0;
	case AR_E_SUB: *out = (int64_t)(ua - ub); return 0;
	case AR_E_MUL: *out = (int64_t)(ua * ub); return 0;
	case AR_E_MIN: *out = a < b ? a : b; return 0;
	case AR_E_MAX: *out = a > b ? a : b; return 0;
	default: break;
	}
	if (b == 0)
		return -1;
	if (b == -1)
		*out = k == AR_E_DIV ? (int64_t)(0 - ua) : 0;
	else
		*out = k == AR_E_DIV ? a / b : a % b;
	return 0;
}

static int eval_load(ar_host *h, const thread_state *t, const ar_expr *e, int64_t lane,
		     int64_t *out, diag *d)
{
	int64_t i;
	if (eval(h, t, e->b, lane, &i, d))
		return -1;
	const ar_array *a = &h->p->arrays[e->a];
	if (i < 0 || (uint64_t)i >= a->len)
		return rt_err(h, e->line, e->col, d, "index %lld is outside %s (%llu elements)",
			      (long long)i, a->name, (unsigned long long)a->len);
	uint64_t v = ar_mem_read(h->p, a->base + (uint64_t)i * a->esize, a->esize);
	*out = a->type == AR_I32 ? (int64_t)(int32_t)(uint32_t)v : (int64_t)v;
	h->normal += a->esize;
	return 0;
}

static int eval(ar_host *h, const thread_state *t, int n, int64_t lane, int64_t *out, diag *d)
{
	const ar_expr *e = &h->p->nodes[n];
	int64_t a = 0, b = 0;
	switch (e->kind) {
	case AR_E_CONST: *out = e->value; return 0;
	case AR_E_VAR: *out = t->vars[e->value]; return 0;
	case AR_E_LANE: *out = lane; return 0;
	case AR_E_LOAD: return eval_load(h, t, e, lane, out, d);
	default: break;
	}
	if (eval(h, t, e->a, lane, &a, d) || (e->kind != AR_E_NEG && eval(h, t, e->b, lane, &b, d)))
		return -1;
	if (ar_arith(e->kind, a, b, out))
		return rt_err(h, e->line, e->col, d, "division by zero");
	return 0;
}

/* The address of ARRAY[INDEX] (lane for UpdateRI's second operand). */
static int ref_addr(ar_host *h, const thread_state *t, const ar_ref *r, int64_t lane,
		    uint64_t need, uint64_t *addr, int64_t *idx, diag *d)
{
	const ar_array *a = &h->p->arrays[r->array];
	if (eval(h, t, r->index, lane, idx, d))
		return -1;
	if (*idx >= 0 && (uint64_t)*idx < a->len && a->len - (uint64_t)*idx >= need) {
		*addr = a->base + (uint64_t)*idx * a->esize;
		return 0;
	}
	if (need > 1)
		return rt_err(h, r->line, r->col, d, "elements %lld..%lld are outside %s "
			      "(%llu elements)", (long long)*idx, (long long)(*idx + (int64_t)need - 1),
			      a->name, (unsigned long long)a->len);
	return rt_err(h, r->line, r->col, d, "index %lld is outside %s (%llu elements)",
		      (long long)*idx, a->name, (unsigned long long)a->len);
}

/* RR and RI work on the rest of src1's 64 B block (§III-C), or on
 * `count` elements of it. */
static int block_count(ar_host *h, const thread_state *t, const ar_stmt *s, ar_hostop *op,
		       int64_t idx1, diag *d)
{
	const ar_array *a = &h->p->arrays[s->src1.array];
	uint64_t rest = (AR_BLOCK - op->a1 % AR_BLOCK) / a->esize;
	if (rest > a->len - (uint64_t)idx1)
		rest = a->len - (uint64_t)idx1;
	op->n = (unsigned)rest;
	if (s->count < 0)
		return 0;
	int64_t n;
	if (eval(h, t, s->count, 0, &n, d))
		return -1;
	const ar_expr *e = &h->p->nodes[s->count];
	if (n < 1 || (uint64_t)n > rest)
		return rt_err(h, e->line, e->col, d, "count %lld is outside 1..%llu (the elements "
			      "of %s's 64-byte block from element %lld)", (long long)n,
			      (unsigned long long)rest, a->name, (long long)idx1);
	op->n = (unsigned)n;
	return 0;
}

static int build_update(ar_host *h, const thread_state *t, const ar_stmt *s, ar_hostop *op,
			diag *d)
{
	const ar_array *ta = &h->p->arrays[s->target.array];
	int64_t idx, idx1 = 0;
	op->type = ta->type;
	op->esize = ta->esize;
	op->n = 1;
	if (ref_addr(h, t, &s->target, 0, 1, &op->target, &idx, d))
		return -1;
	if (s->src1.imm)
		op->imm = s->src1.bits;
	else if (ref_addr(h, t, &s->src1, 0, 1, &op->a1, &idx1, d))
		return -1;
	if (s->pat != AR_II && block_count(h, t, s, op, idx1, d))
		return -1;
	op->has_b = !s->src2.nil;
	if (!op->has_b)
		return 0;
	if (s->pat == AR_RR)
		return ref_addr(h, t, &s->src2, 0, op->n, &op->a2[0], &idx, d) ? -1 : 0;
	for (unsigned e = 0; e < (s->pat == AR_RI ? op->n : 1); e++)
		if (ref_addr(h, t, &s->src2, e, 1, &op->a2[e], &idx, d))
			return -1;
	return 0;
}

static int build_op(ar_host *h, unsigned ti, const ar_stmt *s, ar_hostop *op, diag *d)
{
	thread_state *t = &h->t[ti];
	memset(op, 0, sizeof *op);
	op->thread = ti;
	op->s = s;
	op->op = s->op;
	op->pat = s->pat;
	h->normal = 0;
	if (s->kind == AR_S_GATHER) {
		int64_t n, idx;
		op->gather = true;
		if (ref_addr(h, t, &s->target, 0, 1, &op->target, &idx, d) ||
		    eval(h, t, s->from, 0, &n, d))
			return -1;
		const ar_expr *e = &h->p->nodes[s->from];
		if (n < 1 || n > (int64_t)h->p->threads)
			return rt_err(h, e->line, e->col, d, "Gather's number of threads is %lld; "
				      "expected 1..%u (the program's threads)", (long long)n,
				      h->p->threads);
		op->nthreads = (unsigned)n;
		op->type = h->p->arrays[s->target.array].type;
		op->esize = h->p->arrays[s->target.array].esize;
	} else if (build_update(h, t, s, op, d)) {
		return -1;
	}
	op->normal_bytes = h->normal;
	return 1;
}

static int loop_enter(ar_host *h, thread_state *t, const ar_stmt *s, int pc, diag *d)
{
	int64_t from, to, step = 1;
	if (eval(h, t, s->from, 0, &from, d) || eval(h, t, s->to, 0, &to, d) ||
	    (s->step >= 0 && eval(h, t, s->step, 0, &step, d)))
		return -1;
	if (step < 1) {
		const ar_expr *e = &h->p->nodes[s->step];
		return rt_err(h, e->line, e->col, d, "the loop's step is %lld; it must be at least 1",
			      (long long)step);
	}
	if (from >= to) {
		t->pc = s->other + 1;
		return 0;
	}
	t->vars[s->var] = from;
	t->end[s->var] = to;
	t->step[s->var] = step;
	t->pc = pc + 1;
	return 0;
}

static void loop_next(thread_state *t, const ar_program *p, const ar_stmt *s, int pc)
{
	const ar_stmt *f = &p->stmts[s->other];
	int64_t v;
	if (!__builtin_add_overflow(t->vars[f->var], t->step[f->var], &v) && v < t->end[f->var]) {
		t->vars[f->var] = v;
		t->pc = s->other + 1;
	} else {
		t->pc = pc + 1;
	}
}

int ar_host_next(ar_host *h, unsigned ti, ar_hostop *op, diag *d)
{
	thread_state *t = &h->t[ti];
	while (!t->done) {
		if (++h->steps > h->c->max_events) {
			diag_file(d, h->p->path, "the program ran more than %llu loop steps "
				  "(--max-events)", (unsigned long long)h->c->max_events);
			return -1;
		}
		int pc = t->pc;
		if ((size_t)pc >= h->p->nstmts) {
			t->done = true;
			break;
		}
		const ar_stmt *s = &h->p->stmts[pc];
		if (s->kind == AR_S_FOR) {
			if (loop_enter(h, t, s, pc, d))
				return -1;
		} else if (s->kind == AR_S_END) {
			loop_next(t, h->p, s, pc);
		} else {
			t->pc = pc + 1;
			return build_op(h, ti, s, op, d);
		}
	}
	return 0;
}

static round *find_round(ar_host *h, uint64_t target)
{
	for (size_t i = 0; i < h->nrounds; i++)
		if (h->rounds[i].target == target)
			return &h->rounds[i];
	return NULL;
}

int ar_host_pick(ar_host *h, unsigned *thread, diag *d)
{
	unsigned n = h->p->threads;
	bool any = false;
	for (unsigned k = 0; k < n; k++) {
		unsigned i = (h->rr + k) % n;
		if (h->t[i].done)
			continue;
		any = true;
		if (h->t[i].barrier_wait)
			continue;
		*thread = i;
		h->rr = (i + 1) % n;
		return 1;
	}
	if (!any)
		return 0;
	for (unsigned i = 0; i < n; i++) {
		if (!h->t[i].barrier_wait)
			continue;
		const round *r = find_round(h, h->t[i].wait_target);
		return rt_err(h, r->s->line, r->s->col, d, "deadlock: this Gather waits for %u "
			      "threads but only %u reach it (the others have finished or wait "
			      "at other Gathers)", r->n, r->arrived);
	}
	return 0;
}

int ar_host_gather(ar_host *h, const ar_hostop *op, bool *closed, diag *d)
{
	round *r = find_round(h, op->target);
	if (!r) {
		if (h->nrounds == h->cap_rounds) {
			size_t cap = h->cap_rounds ? 2 * h->cap_rounds : 16;
			round *nr = realloc(h->rounds, cap * sizeof *nr);
			if (!nr)
				return rt_err(h, op->s->line, op->s->col, d, "out of memory");
			h->rounds = nr;
			h->cap_rounds = cap;
		}
		r = &h->rounds[h->nrounds++];
		*r = (round){ .target = op->target, .n = op->nthreads, .s = op->s };
	} else if (r->n != op->nthreads) {
		return rt_err(h, op->s->line, op->s->col, d, "this Gather counts %u threads but "
			      "the Gather at line %d, which this one joins, counts %u",
			      op->nthreads, r->s->line, r->n);
	}
	thread_state *t = &h->t[op->thread];
	t->commit_wait = true;
	t->wait_target = op->target;
	*closed = ++r->arrived == r->n;
	t->barrier_wait = !*closed;
	if (!*closed)
		return 0;
	for (unsigned i = 0; i < h->p->threads; i++)
		if (h->t[i].barrier_wait && h->t[i].wait_target == op->target)
			h->t[i].barrier_wait = false;
	*r = h->rounds[--h->nrounds];
	return 0;
}

void ar_host_committed(ar_host *h, uint64_t target)
{
	for (unsigned i = 0; i < h->p->threads; i++)
		if (h->t[i].commit_wait && !h->t[i].barrier_wait && h->t[i].wait_target == target)
			h->t[i].commit_wait = false;
}

bool ar_host_thread_waits(const ar_host *h, unsigned t)
{
	return h->t[t].commit_wait;
}
