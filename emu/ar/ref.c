/* SPDX-License-Identifier: MIT */
/*
 * ref.c: what an .ar program means, in plain C, apart from the machine
 * (--check's reference, prefix ar_seq_).  No network, no engines, no
 * events: the host threads' statements run one operation at a time on a
 * copy of the arrays, in the host's documented round-robin order (doc
 * "Order"), and each operation takes effect at once:
 *   - a reduction Update adds its element values to its flow, at the
 *     compute cube of the tree of its root;
 *   - an assignment writes its target;
 *   - a Gather counts its thread in the target's barrier; when the
 *     barrier closes the flow commits, target = old (+) result.
 * Integer results do not depend on any order.  For f32 the flow's result
 * follows doc "The order of combining", computed here from the address
 * map, the root policy and the routes of doc "The network" (this file's
 * own copy of them): at each (tree, cube) the Updates' element values
 * fold in issue order, a node's partial is its own result then its
 * children's in ascending cube number, and the flow's result is the
 * trees' partials in ascending root.  Expressions, loops, the ALU, the
 * address map and the routes are all written again here; only the parsed
 * program (ar_private.h) is shared with the machine.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ar_private.h"

enum { NCUBES = 16, NHOSTS = 4, BLOCK = 64, PAGE = 4096 };

/* An array of the reference: its own bytes and address. */
typedef struct seq_array {
	ar_type type;
	unsigned esize;
	uint64_t len, base;
	unsigned char *data;
} seq_array;

/* The values an element held: [0] before its first write, then one per
 * write (for a mid-run check after n writes). */
typedef struct seq_hist {
	uint64_t bits;
	size_t next;            /* index + 1 of the next write's value, or 0 */
} seq_hist;

typedef struct seq_slot {
	uint64_t addr;          /* + 1; 0: empty */
	size_t head, tail;
} seq_slot;

/* A flow round: every Update into one target since its last commit. */
typedef struct seq_flow {
	bool used;
	uint64_t addr;
	ar_op op;
	ar_type type;
	uint64_t own[NHOSTS][NCUBES];
	bool has[NHOSTS][NCUBES];
	uint16_t kids[NHOSTS][NCUBES];   /* tree edges: the next hops used */
} seq_flow;

typedef struct seq_round {
	uint64_t addr;
	unsigned n, arrived;
} seq_round;

typedef struct seq_thread {
	int pc;
	bool done, waits;
	uint64_t wait_addr;
	int64_t *var, *end, *step;
} seq_thread;

struct ar_seq {
	const ar_program *p;
	const ar_config *c;
	diag *d;
	seq_array *a;
	size_t na;
	seq_thread *t;
	int64_t *vars;
	seq_flow *flows;
	size_t nflows;
	seq_round *rounds;
	size_t nrounds;
	seq_hist *hist;
	size_t nhist, cap_hist;
	seq_slot *slots;
	size_t cap_slots, used_slots;
	uint64_t steps;
	bool failed;
};

static int fail(ar_seq *q, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int fail(ar_seq *q, int line, int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vat(q->d, q->p->path, line, col, fmt, ap);
	va_end(ap);
	q->failed = true;
	return -1;
}

static int no_memory(ar_seq *q)
{
	diag_file(q->d, q->p->path, "out of memory for the reference");
	q->failed = true;
	return -1;
}

/* ---- memory: the doc's address map ---- */

static uint64_t get(const seq_array *a, uint64_t k)
{
	uint64_t v = 0;
	for (unsigned j = 0; j < a->esize; j++)
		v |= (uint64_t)a->data[k * a->esize + j] << (8 * j);
	return v;
}

static void put(seq_array *a, uint64_t k, uint64_t bits)
{
	for (unsigned j = 0; j < a->esize; j++)
		a->data[k * a->esize + j] = (unsigned char)(bits >> (8 * j));
}

/* Arrays at 4 KiB boundaries in declaration order from address 0. */
static int copy_arrays(ar_seq *q)
{
	uint64_t next = 0;
	q->a = calloc(q->p->narrays ? q->p->narrays : 1, sizeof *q->a);
	if (!q->a)
		return no_memory(q);
	q->na = q->p->narrays;
	for (size_t i = 0; i < q->na; i++) {
		const ar_array *src = &q->p->arrays[i];
		seq_array *a = &q->a[i];
		a->type = src->type;
		a->esize = src->type == AR_I64 ? 8 : 4;
		a->len = src->len;
		a->base = next;
		next = (next + a->len * a->esize + PAGE - 1) / PAGE * PAGE;
		a->data = malloc(a->len * a->esize);
		if (!a->data)
			return no_memory(q);
		memcpy(a->data, src->data, a->len * a->esize);
	}
	return 0;
}

static int cube_at(const ar_seq *q, const seq_array *a, uint64_t k)
{
	return (int)((a->base + k * a->esize) / q->c->interleave % NCUBES);
}

static size_t slot_at(const ar_seq *q, uint64_t addr)
{
	size_t i = (size_t)((addr * 0x9e3779b97f4a7c15ull) >> 17) & (q->cap_slots - 1);
	while (q->slots[i].addr && q->slots[i].addr != addr + 1)
		i = (i + 1) & (q->cap_slots - 1);
	return i;
}

static int push_hist(ar_seq *q, uint64_t bits, size_t *at)
{
	if (q->nhist == q->cap_hist) {
		size_t cap = q->cap_hist ? 2 * q->cap_hist : 256;
		seq_hist *n = realloc(q->hist, cap * sizeof *n);
		if (!n)
			return no_memory(q);
		q->hist = n;
		q->cap_hist = cap;
	}
	q->hist[q->nhist] = (seq_hist){ .bits = bits };
	*at = ++q->nhist;
	return 0;
}

static int grow_slots(ar_seq *q)
{
	size_t cap = q->cap_slots ? 2 * q->cap_slots : 256;
	seq_slot *old = q->slots, *n = calloc(cap, sizeof *n);
	if (!n)
		return no_memory(q);
	size_t oldcap = q->cap_slots;
	q->slots = n;
	q->cap_slots = cap;
	for (size_t i = 0; i < oldcap; i++)
		if (old[i].addr)
			q->slots[slot_at(q, old[i].addr - 1)] = old[i];
	free(old);
	return 0;
}

/* Element k of a = bits, with the element's history. */
static int store(ar_seq *q, seq_array *a, uint64_t k, uint64_t bits)
{
	uint64_t addr = a->base + k * a->esize;
	if (2 * (q->used_slots + 1) > q->cap_slots && grow_slots(q))
		return -1;
	seq_slot *s = &q->slots[slot_at(q, addr)];
	size_t at;
	if (!s->addr) {
		if (push_hist(q, get(a, k), &at))
			return -1;
		*s = (seq_slot){ .addr = addr + 1, .head = at, .tail = at };
		q->used_slots++;
	}
	if (push_hist(q, bits, &at))
		return -1;
	q->hist[s->tail - 1].next = at;
	s->tail = at;
	put(a, k, bits);
	return 0;
}

/* ---- the ALU of doc "Operations" ---- */

static float as_f(uint64_t b)
{
	uint32_t u = (uint32_t)b;
	float f;
	memcpy(&f, &u, sizeof f);
	return f;
}

static uint64_t of_f(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	return u;
}

static int64_t as_int(ar_type t, uint64_t b)
{
	return t == AR_I32 ? (int64_t)(int32_t)(uint32_t)b : (int64_t)b;
}

static uint64_t wrap(ar_type t, uint64_t v)
{
	return t == AR_I32 ? v & 0xffffffffu : v;
}

/* Keeps a unless b is strictly smaller (min) or larger (max). */
static uint64_t pick(bool max, ar_type t, uint64_t a, uint64_t b)
{
	bool take = t == AR_F32 ? (max ? as_f(b) > as_f(a) : as_f(b) < as_f(a))
				: (max ? as_int(t, b) > as_int(t, a) : as_int(t, b) < as_int(t, a));
	return take ? b : a;
}

static uint64_t add(ar_type t, uint64_t a, uint64_t b)
{
	return t == AR_F32 ? of_f(as_f(a) + as_f(b)) : wrap(t, a + b);
}

static uint64_t combine(ar_op op, ar_type t, uint64_t acc, uint64_t v)
{
	switch (op) {
	case AR_OP_XOR: return acc ^ v;
	case AR_OP_AND: return acc & v;
	case AR_OP_MIN: return pick(false, t, acc, v);
	case AR_OP_MAX: return pick(true, t, acc, v);
	default: return add(t, acc, v);   /* sum, mac, msub, abs */
	}
}

static uint64_t element(ar_op op, ar_type t, uint64_t a, uint64_t b, bool has_b)
{
	if (op == AR_OP_MAC || op == AR_OP_MSUB)
		return t == AR_F32 ? of_f(as_f(a) * as_f(b)) : wrap(t, a * b);
	if (op == AR_OP_ABS) {
		if (t == AR_F32) {
			float x = as_f(a) - as_f(b);
			return of_f(x < 0 ? -x : x);
		}
		uint64_t d = wrap(t, a - b);
		return as_int(t, d) < 0 ? wrap(t, 0 - d) : d;
	}
	return has_b ? combine(op, t, a, b) : a;
}

static uint64_t commit_value(ar_op op, ar_type t, uint64_t old, uint64_t r)
{
	if (op != AR_OP_MSUB)
		return combine(op, t, old, r);
	return t == AR_F32 ? of_f(as_f(old) - as_f(r)) : wrap(t, old - r);
}

/* ---- the network of doc "The network": roots and routes ---- */

static int host_cube(const ar_seq *q, int h)
{
	static const int corners[NHOSTS] = { 0, 3, 12, 15 };
	return q->c->net == AR_NET_MESH ? corners[h] : 4 * h;
}

static int next_hop(const ar_seq *q, int from, int to)
{
	if (from == to)
		return to;
	if (q->c->net == AR_NET_MESH) {   /* XY: x first */
		if (from % 4 != to % 4)
			return from + (to % 4 > from % 4 ? 1 : -1);
		return from + (to > from ? 4 : -4);
	}
	int gf = from / 4, gt = to / 4;
	if (gf == gt)
		return to;
	int gateway = 4 * gf + (gt - gf + 4) % 4;
	return from != gateway ? gateway : 4 * gt + (gf - gt + 4) % 4;
}

/* The cubes from a to b, both included; their number. */
static int route(const ar_seq *q, int a, int b, int *path)
{
	int n = 0;
	path[n++] = a;
	while (a != b && n < NCUBES) {
		a = next_hop(q, a, b);
		path[n++] = a;
	}
	return n;
}

/* ART-addr's root: the controller nearest the cube (the lowest on a tie). */
static int nearest_host(const ar_seq *q, int cube)
{
	if (q->c->net == AR_NET_DRAGONFLY)
		return cube / 4;
	int best = 0, path[NCUBES];
	for (int h = 1; h < NHOSTS; h++)
		if (route(q, host_cube(q, h), cube, path) < route(q, host_cube(q, best), cube, path))
			best = h;
	return best;
}

static int root_of(const ar_seq *q, unsigned thread, int cube)
{
	switch (q->c->root) {
	case AR_ROOT_NAIVE: return 0;
	case AR_ROOT_TID: return (int)(thread % NHOSTS);
	default: return nearest_host(q, cube);
	}
}

/* Fig 3b: the last cube the routes from the root to a and to b share. */
static int meet(const ar_seq *q, int root, int a, int b)
{
	int pa[NCUBES], pb[NCUBES];
	int na = route(q, root, a, pa), nb = route(q, root, b, pb), i = 0;
	while (i + 1 < na && i + 1 < nb && pa[i + 1] == pb[i + 1])
		i++;
	return pa[i];
}

/* ---- expressions and loops ---- */

static int eval(ar_seq *q, const seq_thread *t, int n, int64_t lane, int64_t *out);

static int index_of(ar_seq *q, const seq_thread *t, int array, int n, int64_t lane,
		    uint64_t need, int line, int col, uint64_t *k)
{
	int64_t i;
	if (eval(q, t, n, lane, &i))
		return -1;
	const seq_array *a = &q->a[array];
	if (i < 0 || (uint64_t)i >= a->len || a->len - (uint64_t)i < need)
		return fail(q, line, col, "the reference: index %lld of %s is outside its %llu "
			    "elements", (long long)i, q->p->arrays[array].name,
			    (unsigned long long)a->len);
	*k = (uint64_t)i;
	return 0;
}

/* 64-bit wrapping integers; / and % truncate; x / -1 wraps. */
static int eval(ar_seq *q, const seq_thread *t, int n, int64_t lane, int64_t *out)
{
	const ar_expr *e = &q->p->nodes[n];
	int64_t x = 0, y = 0;
	uint64_t k;
	switch (e->kind) {
	case AR_E_CONST: *out = e->value; return 0;
	case AR_E_VAR: *out = t->var[e->value]; return 0;
	case AR_E_LANE: *out = lane; return 0;
	case AR_E_LOAD:
		if (index_of(q, t, e->a, e->b, lane, 1, e->line, e->col, &k))
			return -1;
		*out = as_int(q->a[e->a].type, get(&q->a[e->a], k));
		return 0;
	default: break;
	}
	if (eval(q, t, e->a, lane, &x) || (e->kind != AR_E_NEG && eval(q, t, e->b, lane, &y)))
		return -1;
	uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
	switch (e->kind) {
	case AR_E_NEG: *out = (int64_t)(0 - ux); return 0;
	case AR_E_ADD: *out = (int64_t)(ux + uy); return 0;
	case AR_E_SUB: *out = (int64_t)(ux - uy); return 0;
	case AR_E_MUL: *out = (int64_t)(ux * uy); return 0;
	case AR_E_MIN: *out = x < y ? x : y; return 0;
	case AR_E_MAX: *out = x > y ? x : y; return 0;
	default: break;
	}
	if (y == 0)
		return fail(q, e->line, e->col, "the reference: division by zero");
	if (y == -1)
		*out = e->kind == AR_E_DIV ? (int64_t)(0 - ux) : 0;
	else
		*out = e->kind == AR_E_DIV ? x / y : x % y;
	return 0;
}

static int loop_enter(ar_seq *q, seq_thread *t, const ar_stmt *s)
{
	int64_t from, to, step = 1;
	if (eval(q, t, s->from, 0, &from) || eval(q, t, s->to, 0, &to) ||
	    (s->step >= 0 && eval(q, t, s->step, 0, &step)))
		return -1;
	if (step < 1)
		return fail(q, s->line, s->col, "the reference: a loop step of %lld", (long long)step);
	if (from >= to) {
		t->pc = s->other + 1;
		return 0;
	}
	t->var[s->var] = from;
	t->end[s->var] = to;
	t->step[s->var] = step;
	t->pc++;
	return 0;
}

static void loop_end(const ar_seq *q, seq_thread *t, const ar_stmt *s)
{
	const ar_stmt *f = &q->p->stmts[s->other];
	int64_t v;
	if (!__builtin_add_overflow(t->var[f->var], t->step[f->var], &v) && v < t->end[f->var]) {
		t->var[f->var] = v;
		t->pc = s->other + 1;
	} else {
		t->pc++;
	}
}

/* Run thread t's loops up to its next operation: the statement, or NULL
 * when it has finished (or failed). */
static const ar_stmt *next_op(ar_seq *q, seq_thread *t)
{
	while ((size_t)t->pc < q->p->nstmts) {
		if (++q->steps > q->c->max_events) {
			fail(q, 0, 0, "the reference ran more than %llu loop steps (--max-events)",
			     (unsigned long long)q->c->max_events);
			return NULL;
		}
		const ar_stmt *s = &q->p->stmts[t->pc];
		if (s->kind == AR_S_FOR) {
			if (loop_enter(q, t, s))
				return NULL;
		} else if (s->kind == AR_S_END) {
			loop_end(q, t, s);
		} else {
			t->pc++;
			return s;
		}
	}
	t->done = true;
	return NULL;
}

/* ---- operations ---- */

static seq_flow *flow_of(ar_seq *q, uint64_t addr, bool make)
{
	seq_flow *free_one = NULL;
	for (size_t i = 0; i < q->nflows; i++) {
		if (q->flows[i].used && q->flows[i].addr == addr)
			return &q->flows[i];
		if (!q->flows[i].used && !free_one)
			free_one = &q->flows[i];
	}
	if (!make)
		return NULL;
	if (!free_one) {
		seq_flow *n = realloc(q->flows, (q->nflows + 1) * sizeof *n);
		if (!n) {
			no_memory(q);
			return NULL;
		}
		q->flows = n;
		free_one = &q->flows[q->nflows++];
	}
	memset(free_one, 0, sizeof *free_one);
	free_one->used = true;
	free_one->addr = addr;
	return free_one;
}

/* The operands of one Update: element i pairs src1[k1 + i] with
 * src2[k2[i]]. */
typedef struct operands {
	unsigned n;
	uint64_t k1, k2[AR_LANES];
} operands;

static int operands_of(ar_seq *q, const seq_thread *t, const ar_stmt *s, operands *o)
{
	o->n = 1;
	if (s->src1.imm)
		return 0;
	const seq_array *a1 = &q->a[s->src1.array];
	if (index_of(q, t, s->src1.array, s->src1.index, 0, 1, s->src1.line, s->src1.col, &o->k1))
		return -1;
	if (s->pat != AR_II) {   /* the rest of src1's 64 B block, or count */
		uint64_t rest = (BLOCK - (a1->base + o->k1 * a1->esize) % BLOCK) / a1->esize;
		if (rest > a1->len - o->k1)
			rest = a1->len - o->k1;
		int64_t n = (int64_t)rest;
		if (s->count >= 0 && eval(q, t, s->count, 0, &n))
			return -1;
		if (n < 1 || (uint64_t)n > rest)
			return fail(q, s->line, s->col, "the reference: count %lld is outside 1..%llu",
				    (long long)n, (unsigned long long)rest);
		o->n = (unsigned)n;
	}
	if (s->src2.nil)
		return 0;
	if (s->pat == AR_RR) {
		if (index_of(q, t, s->src2.array, s->src2.index, 0, o->n, s->src2.line,
			     s->src2.col, &o->k2[0]))
			return -1;
		for (unsigned i = 1; i < o->n; i++)
			o->k2[i] = o->k2[0] + i;
		return 0;
	}
	for (unsigned i = 0; i < (s->pat == AR_RI ? o->n : 1); i++)
		if (index_of(q, t, s->src2.array, s->src2.index, i, 1, s->src2.line, s->src2.col,
			     &o->k2[i]))
			return -1;
	return 0;
}

/* A reduction Update: its element values fold at its compute cube, in
 * the tree of its root, whose edges are the route's hops. */
static int reduce(ar_seq *q, unsigned thread, const ar_stmt *s, const operands *o,
		  uint64_t target)
{
	const seq_array *a1 = &q->a[s->src1.array], *a2 = s->src2.nil ? NULL : &q->a[s->src2.array];
	int c1 = cube_at(q, a1, o->k1), root = root_of(q, thread, c1);
	int dest = c1;
	if (s->pat == AR_II && a2)
		dest = meet(q, host_cube(q, root), c1, cube_at(q, a2, o->k2[0]));
	seq_flow *f = flow_of(q, target, true);
	if (!f)
		return -1;
	ar_type ty = a1->type;
	f->op = s->op;
	f->type = ty;
	int path[NCUBES], n = route(q, host_cube(q, root), dest, path);
	for (int i = 0; i + 1 < n; i++)
		f->kids[root][path[i]] |= (uint16_t)(1u << path[i + 1]);
	for (unsigned i = 0; i < o->n; i++) {
		uint64_t v = element(s->op, ty, get(a1, o->k1 + i), a2 ? get(a2, o->k2[i]) : 0, a2 != NULL);
		f->own[root][dest] = f->has[root][dest] ? combine(s->op, ty, f->own[root][dest], v) : v;
		f->has[root][dest] = true;
	}
	return 0;
}

static int assign(ar_seq *q, const ar_stmt *s, const operands *o, seq_array *ta, uint64_t tk)
{
	uint64_t v = s->src1.bits;
	if (s->op != AR_OP_CONST)
		v = get(&q->a[s->src1.array], o->k1);
	if (s->op == AR_OP_DIV) {
		uint64_t b = get(&q->a[s->src2.array], o->k2[0]);
		if (ta->type == AR_F32) {
			v = of_f(as_f(v) / as_f(b));
		} else {
			int64_t x = as_int(ta->type, v), y = as_int(ta->type, b);
			if (y == 0)
				return fail(q, s->line, s->col, "the reference: integer division by zero");
			v = wrap(ta->type, y == -1 ? 0 - (uint64_t)x : (uint64_t)(x / y));
		}
	}
	return store(q, ta, tk, v);
}

static int update(ar_seq *q, unsigned thread, const ar_stmt *s)
{
	seq_thread *t = &q->t[thread];
	uint64_t tk;
	operands o;
	if (index_of(q, t, s->target.array, s->target.index, 0, 1, s->target.line, s->target.col,
		     &tk) || operands_of(q, t, s, &o))
		return -1;
	seq_array *ta = &q->a[s->target.array];
	if (s->op > AR_OP_ABS)
		return assign(q, s, &o, ta, tk);
	return reduce(q, thread, s, &o, ta->base + tk * ta->esize);
}

/* A tree node's partial: its own result, then its children's in
 * ascending cube number. */
static bool partial(const seq_flow *f, int root, int cube, uint64_t *out)
{
	bool has = f->has[root][cube];
	uint64_t v = f->own[root][cube];
	for (int c = 0; c < NCUBES; c++) {
		uint64_t cv;
		if (!(f->kids[root][cube] & (1u << c)) || !partial(f, root, c, &cv))
			continue;
		v = has ? combine(f->op, f->type, v, cv) : cv;
		has = true;
	}
	*out = v;
	return has;
}

/* The barrier closed: the trees' results in ascending root, then
 * target = old (+) result. */
static int commit(ar_seq *q, seq_array *ta, uint64_t tk)
{
	seq_flow *f = flow_of(q, ta->base + tk * ta->esize, false);
	if (!f)
		return 0;
	bool has = false;
	uint64_t r = 0;
	for (int h = 0; h < NHOSTS; h++) {
		uint64_t v;
		if (!partial(f, h, host_cube(q, h), &v))
			continue;
		r = has ? combine(f->op, f->type, r, v) : v;
		has = true;
	}
	f->used = false;
	return has ? store(q, ta, tk, commit_value(f->op, f->type, get(ta, tk), r)) : 0;
}

static int gather(ar_seq *q, unsigned thread, const ar_stmt *s)
{
	seq_thread *t = &q->t[thread];
	uint64_t tk;
	int64_t n;
	if (index_of(q, t, s->target.array, s->target.index, 0, 1, s->target.line, s->target.col,
		     &tk) || eval(q, t, s->from, 0, &n))
		return -1;
	if (n < 1 || n > (int64_t)q->p->threads)
		return fail(q, s->line, s->col, "the reference: a Gather of %lld threads", (long long)n);
	seq_array *ta = &q->a[s->target.array];
	uint64_t addr = ta->base + tk * ta->esize;
	seq_round *r = NULL;
	for (size_t i = 0; i < q->nrounds && !r; i++)
		r = q->rounds[i].addr == addr ? &q->rounds[i] : NULL;
	if (!r) {
		seq_round *nr = realloc(q->rounds, (q->nrounds + 1) * sizeof *nr);
		if (!nr)
			return no_memory(q);
		q->rounds = nr;
		r = &q->rounds[q->nrounds++];
		*r = (seq_round){ .addr = addr, .n = (unsigned)n };
	} else if (r->n != (unsigned)n) {
		return fail(q, s->line, s->col, "the reference: Gathers of %u and %lld threads",
			    r->n, (long long)n);
	}
	if (++r->arrived < r->n) {
		t->waits = true;
		t->wait_addr = addr;
		return 0;
	}
	for (unsigned i = 0; i < q->p->threads; i++)
		if (q->t[i].waits && q->t[i].wait_addr == addr)
			q->t[i].waits = false;
	*r = q->rounds[--q->nrounds];
	return commit(q, ta, tk);
}

/* ---- the host's order ---- */

/* Round robin from rr over the threads that have not finished and do
 * not wait at a barrier: 1 with *thread, 0 when all have finished. */
static int pick_thread(ar_seq *q, unsigned *rr, unsigned *thread)
{
	unsigned n = q->p->threads;
	bool any = false;
	for (unsigned k = 0; k < n; k++) {
		unsigned i = (*rr + k) % n;
		if (q->t[i].done)
			continue;
		any = true;
		if (q->t[i].waits)
			continue;
		*thread = i;
		*rr = (i + 1) % n;
		return 1;
	}
	return any ? fail(q, 0, 0, "the reference: every thread left waits at a Gather") : 0;
}

static int run(ar_seq *q)
{
	unsigned rr = 0, th = 0;
	int rc;
	while ((rc = pick_thread(q, &rr, &th)) > 0) {
		const ar_stmt *s = next_op(q, &q->t[th]);
		if (q->failed)
			return -1;
		if (s && (s->kind == AR_S_GATHER ? gather(q, th, s) : update(q, th, s)))
			return -1;
	}
	return rc;
}

static int setup(ar_seq *q)
{
	size_t nv = q->p->nvars ? q->p->nvars : 1;
	q->t = calloc(q->p->threads, sizeof *q->t);
	q->vars = calloc(3 * nv * q->p->threads, sizeof *q->vars);
	if (!q->t || !q->vars)
		return no_memory(q);
	for (unsigned i = 0; i < q->p->threads; i++) {
		q->t[i].var = q->vars + 3 * nv * i;
		q->t[i].end = q->t[i].var + nv;
		q->t[i].step = q->t[i].end + nv;
		q->t[i].var[0] = i; /* tid */
	}
	return copy_arrays(q);
}

ar_seq *ar_seq_run(const ar_program *p, const ar_config *c, diag *d)
{
	ar_seq *q = calloc(1, sizeof *q);
	if (!q) {
		diag_file(d, p->path, "out of memory for the reference");
		return NULL;
	}
	q->p = p;
	q->c = c;
	q->d = d;
	if (setup(q) || run(q)) {
		ar_seq_free(q);
		return NULL;
	}
	q->d = NULL;
	return q;
}

void ar_seq_free(ar_seq *q)
{
	if (!q)
		return;
	for (size_t i = 0; q->a && i < q->na; i++)
		free(q->a[i].data);
	free(q->a);
	free(q->t);
	free(q->vars);
	free(q->flows);
	free(q->rounds);
	free(q->hist);
	free(q->slots);
	free(q);
}

uint64_t ar_seq_final(const ar_seq *q, size_t a, uint64_t k)
{
	return get(&q->a[a], k);
}

uint64_t ar_seq_after(const ar_seq *q, size_t a, uint64_t k, uint64_t n)
{
	const seq_array *sa = &q->a[a];
	if (!q->cap_slots)
		return get(sa, k);
	const seq_slot *s = &q->slots[slot_at(q, sa->base + k * sa->esize)];
	if (!s->addr)
		return get(sa, k);
	size_t at = s->head;
	for (uint64_t i = 0; i < n && q->hist[at - 1].next; i++)
		at = q->hist[at - 1].next;
	return q->hist[at - 1].bits;
}

