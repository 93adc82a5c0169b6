/* SPDX-License-Identifier: MIT */
/*
 * tdfg_prog.c: whole tDFG programs (doc/TDFG.md, "Programs"): the
 * control statements expanded into runs of the regions, in program
 * order.  Each run is a copy of its region's nodes with the run's
 * parameter values, window (shrink) and arrays (after the swaps so far)
 * applied, so the JIT (jit.c) and the reference (tdfg_ref.c) see one
 * flat sequence of regions and nodes.  Infinity Stream configures a
 * region once per inf_cfg with its run-time parameters (§3.4) and lowers
 * it at run time (§4); a run that repeats an earlier one's parameters is
 * lowered once (jit.c's memo).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tdfg.h"

/* At most this many runs and nodes: a program's expansion is bounded. */
#define MAX_RUNS 100000u
#define MAX_NODES 4000000u

int64_t emu_texpr_eval(const emu_texpr *e, const int64_t *pv)
{
	int64_t v = e->c;
	for (unsigned k = 0; k < EMU_TPARAMS; k++)
		v += e->coef[k] * pv[k];
	return v;
}

const char *emu_tnode_value_name(const emu_tdfg *t, const emu_tnode *x)
{
	if (x->kind == EMU_TN_TENSOR || x->kind == EMU_TN_STORE)
		return t->arrays[x->array].name;
	return x->name;
}

const char *emu_tnode_label(const emu_tdfg *t, const emu_tnode *x, char *buf, size_t size)
{
	if (x->kind != EMU_TN_STORE)
		return x->name;
	snprintf(buf, size, "store %s", t->arrays[x->array].name);
	return buf;
}

typedef struct xp {
	emu_tdfg *t;
	diag *d;
	uint32_t *bind;        /* array name -> the array whose data it means */
	emu_box *window;       /* per region as written */
	int64_t var[8];        /* the enclosing for loops' values */
	const char *var_name[8];
	unsigned nvars;
	char *ctx;             /* comments for the next run */
	size_t ctx_len;
	bool ctx_oom;          /* a comment could not be kept */
	size_t capr, capn;
} xp;

static void ctx_add(xp *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void ctx_add(xp *x, const char *fmt, ...)
{
	char line[256];
	va_list ap;
	va_start(ap, fmt);
	const int n = vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	const size_t add = n > 0 ? strlen(line) + 1 : 0;
	char *nc = realloc(x->ctx, x->ctx_len + add + 1);
	if (!nc) {
		x->ctx_oom = true; /* reported once the walk ends */
		return;
	}
	x->ctx = nc;
	memcpy(x->ctx + x->ctx_len, line, add ? add - 1 : 0);
	x->ctx_len += add;
	if (add)
		x->ctx[x->ctx_len - 1] = '\n';
	x->ctx[x->ctx_len] = 0;
}

/* " (with k = 3)" for the messages of a run with parameters. */
static void with_params(const emu_tregion *r, char *buf, size_t size)
{
	size_t n = 0;
	buf[0] = 0;
	for (unsigned k = 0; k < r->nparams && n < size; k++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s = %" PRId64, k ? ", " : " (with ",
				      r->param[k], r->pv[k]);
	if (r->nparams && n < size)
		snprintf(buf + n, size - n, ")");
}

static int run_err(xp *x, const emu_tregion *r, const emu_tnode *n, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int run_err(xp *x, const emu_tregion *r, const emu_tnode *n, const char *fmt, ...)
{
	char msg[DIAG_MAX / 2], w[160];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	with_params(r, w, sizeof w);
	diag_at(x->d, x->t->path, n->line, n->op_col, "%s%s", msg, w);
	return -1;
}

/* A box as written (tensor, store, input), evaluated for the run. */
static int eval_box(xp *x, const emu_tregion *r, emu_tnode *n, emu_box *b)
{
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++) {
		const int64_t lo = emu_texpr_eval(&n->box_e[k][0], r->pv);
		const int64_t hi = emu_texpr_eval(&n->box_e[k][1], r->pv);
		if (lo < 0 || hi > (int64_t)r->shape[k] || lo >= hi)
			return run_err(x, r, n, "the box [%" PRId64 ", %" PRId64 ") along dimension %u "
				       "is empty or outside region '%s' ([0, %" PRIu64 "))", lo, hi, k,
				       r->name, r->shape[k]);
		b->lo[k] = (uint64_t)lo;
		b->hi[k] = (uint64_t)hi;
	}
	return 0;
}

static void clip(emu_box *b, const emu_box *w)
{
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++) {
		b->lo[k] = b->lo[k] > w->lo[k] ? b->lo[k] : w->lo[k];
		b->hi[k] = b->hi[k] < w->hi[k] ? b->hi[k] : w->hi[k];
	}
}

static bool box_empty(const emu_box *b, unsigned *dim)
{
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++)
		if (b->lo[k] >= b->hi[k]) {
			*dim = k;
			return true;
		}
	return false;
}

static int shift_domain(xp *x, const emu_tregion *r, emu_tnode *n, const emu_tnode *s)
{
	unsigned moving = 0, dim;
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++) {
		n->off[k] = emu_texpr_eval(&n->off_e[k], r->pv);
		moving += n->off[k] != 0;
		const int64_t lo = (int64_t)s->dom.lo[k] + n->off[k];
		const int64_t hi = (int64_t)s->dom.hi[k] + n->off[k];
		n->dom.lo[k] = lo < 0 ? 0 : (uint64_t)lo;
		n->dom.hi[k] = hi < 0 ? 0 : (uint64_t)hi;
	}
	if (moving != 1)
		return run_err(x, r, n, "a shift moves along exactly one dimension; %u offsets are "
			       "nonzero", moving);
	clip(&n->dom, &r->window);
	if (box_empty(&n->dom, &dim))
		return run_err(x, r, n, "the shift moves every element of '%s' out of region '%s' "
			       "along dimension %u", s->name, r->name, dim);
	return 0;
}

/* Node n's domain in run r (tdfg.h gives the rules; the window of a
 * shrunk region bounds what is not given). */
static int node_domain(xp *x, const emu_tregion *r, emu_tnode *n)
{
	const emu_tnode *a = n->nargs ? &x->t->nodes[n->arg[0]] : NULL;
	unsigned dim;
	switch (n->kind) {
	case EMU_TN_INPUT:
	case EMU_TN_TENSOR:
		n->dom = r->window;
		if (n->has_box && eval_box(x, r, n, &n->dom))
			return -1;
		return 0;
	case EMU_TN_CONST:
		n->dom = r->window;
		return 0;
	case EMU_TN_SHIFT:
		return shift_domain(x, r, n, a);
	case EMU_TN_BCAST:
		if (a->dom.hi[n->dim] - a->dom.lo[n->dim] != 1)
			return run_err(x, r, n, "bcast copies one element along dimension %u, but "
				       "'%s' spans [%" PRIu64 ", %" PRIu64 ") there", n->dim, a->name,
				       a->dom.lo[n->dim], a->dom.hi[n->dim]);
		n->dom = a->dom;
		n->dom.lo[n->dim] = r->window.lo[n->dim];
		n->dom.hi[n->dim] = r->window.hi[n->dim];
		return 0;
	case EMU_TN_REDUCE:
		n->dom = a->dom;
		n->dom.hi[n->dim] = n->dom.lo[n->dim] + 1;
		return 0;
	case EMU_TN_GATHER: {
		char why[256];
		if (emu_strm_gather_domain(a, &x->t->nodes[n->arg[1]], n->dim, &n->dom, why,
					   sizeof why))
			return run_err(x, r, n, "%s", why);
		return 0;
	}
	case EMU_TN_UPDATE: {
		char why[256];
		if (emu_strm_update_domain(a, &x->t->nodes[n->arg[1]],
					   n->nargs > 2 ? &x->t->nodes[n->arg[2]] : NULL, n->dim,
					   &n->dom, why, sizeof why))
			return run_err(x, r, n, "%s", why);
		return 0;
	}
	case EMU_TN_STORE:
		n->dom = a->dom;
		if (n->has_box) {
			emu_box b;
			if (eval_box(x, r, n, &b))
				return -1;
			for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++)
				if (b.lo[k] < a->dom.lo[k] || b.hi[k] > a->dom.hi[k])
					return run_err(x, r, n, "the store's box is not inside the "
						       "domain of '%s' along dimension %u", a->name, k);
			n->dom = b;
		}
		return 0;
	default: /* compute: where all its operands are defined (Fig 5) */
		n->dom = r->window;
		for (unsigned i = 0; i < n->nargs; i++)
			clip(&n->dom, &x->t->nodes[n->arg[i]].dom);
		if (box_empty(&n->dom, &dim))
			return run_err(x, r, n, "the operands' domains do not meet along dimension "
				       "%u; a compute node works where all of them are defined", dim);
		return 0;
	}
}

static void *grow(void *v, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return v;
	size_t nc = *cap ? *cap : 16;
	while (nc <= n)
		nc *= 2;
	void *nv = realloc(v, nc * size);
	if (nv)
		*cap = nc;
	return nv;
}

/* One run of region ri as written: its nodes copied, bound and given
 * their domains. */
static int run_region(xp *x, uint32_t ri)
{
	emu_tdfg *t = x->t;
	const emu_tregion *tr = &t->tregions[ri];
	const size_t nn = tr->node1 - tr->node0;
	if (t->nregions >= MAX_RUNS || t->nnodes + nn > MAX_NODES) {
		diag_file(x->d, t->path, "the program runs its regions more than %u times (or "
			  "with more than %u nodes); infsim expands every run", MAX_RUNS, MAX_NODES);
		return -1;
	}
	emu_tregion *nr = grow(t->regions, &x->capr, t->nregions, sizeof *nr);
	emu_tnode *nd = nr ? grow(t->nodes, &x->capn, t->nnodes + nn, sizeof *nd) : NULL;
	if (nr)
		t->regions = nr;
	if (!nr || !nd) {
		diag_file(x->d, t->path, "out of memory for the program's runs");
		return -1;
	}
	t->nodes = nd;
	emu_tregion *r = &t->regions[t->nregions++];
	*r = *tr;
	r->tmpl = ri;
	r->window = x->window[ri];
	r->node0 = t->nnodes;
	r->node1 = t->nnodes + nn;
	r->ctx = x->ctx;
	x->ctx = NULL;
	x->ctx_len = 0;
	for (unsigned k = 0; k < r->nparams; k++)
		for (unsigned v = 0; v < x->nvars; v++)
			if (strcmp(x->var_name[v], r->param[k]) == 0)
				r->pv[k] = x->var[v];
	for (size_t i = 0; i < nn; i++) {
		emu_tnode *n = &t->nodes[t->nnodes + i];
		*n = t->tnodes[tr->node0 + i];
		n->tmpl = (uint32_t)(tr->node0 + i);
		n->region = (uint32_t)(t->nregions - 1);
		for (unsigned a = 0; a < n->nargs; a++)
			n->arg[a] = n->arg[a] - (uint32_t)tr->node0 + (uint32_t)r->node0;
		if (n->kind == EMU_TN_TENSOR || n->kind == EMU_TN_STORE)
			n->array = x->bind[n->array];
	}
	t->nnodes += nn;
	for (size_t i = r->node0; i < r->node1; i++)
		if (node_domain(x, r, &t->nodes[i]))
			return -1;
	return 0;
}

static void window_text(const emu_box *w, unsigned nd, char *buf, size_t size)
{
	size_t n = 0;
	for (unsigned k = 0; k < nd && n < size; k++)
		n += (size_t)snprintf(buf + n, size - n, "%s%" PRIu64 ":%" PRIu64, k ? "," : "",
				      w->lo[k], w->hi[k]);
}

static int shrink(xp *x, const emu_tctl *c)
{
	const emu_tregion *r = &x->t->tregions[c->a];
	emu_box *w = &x->window[c->a];
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++) {
		const int64_t lo = (int64_t)w->lo[k] + (c->d[k] > 0 ? c->d[k] : 0);
		const int64_t hi = (int64_t)w->hi[k] + (c->d[k] < 0 ? c->d[k] : 0);
		if (lo >= hi) {
			diag_at(x->d, x->t->path, c->line, c->col, "shrink leaves region '%s' nothing "
				"along dimension %u (its window was [%" PRIu64 ", %" PRIu64 "))",
				r->name, k, w->lo[k], w->hi[k]);
			return -1;
		}
		w->lo[k] = (uint64_t)lo;
		w->hi[k] = (uint64_t)hi;
	}
	char wt[128];
	window_text(w, r->ndims, wt, sizeof wt);
	ctx_add(x, "# shrink %s (line %d): its window is now %s", r->name, c->line, wt);
	return 0;
}

static int walk(xp *x, size_t i, size_t end);

/* repeat and for: the body [i + 1, c->end) once per iteration. */
static int loop(xp *x, size_t i)
{
	const emu_tctl *c = &x->t->ctl[i];
	const bool is_for = c->kind == EMU_TC_FOR;
	if (is_for) {
		x->var_name[x->nvars] = c->var;
		x->nvars++;
	}
	for (int64_t it = is_for ? c->lo : 0; it < c->hi; it++) {
		if (is_for) {
			x->var[x->nvars - 1] = it;
			ctx_add(x, "# for %s = %" PRId64 ", %" PRId64 " (line %d): %s = %" PRId64, c->var,
				c->lo, c->hi, c->line, c->var, it);
		} else {
			ctx_add(x, "# repeat %" PRId64 " (line %d): iteration %" PRId64, c->hi, c->line,
				it + 1);
		}
		if (walk(x, i + 1, c->end))
			return -1;
	}
	if (is_for)
		x->nvars--;
	return 0;
}

static int walk(xp *x, size_t i, size_t end)
{
	emu_tdfg *t = x->t;
	for (; i < end; i++) {
		const emu_tctl *c = &t->ctl[i];
		switch (c->kind) {
		case EMU_TC_RUN:
			if (run_region(x, c->a))
				return -1;
			break;
		case EMU_TC_REPEAT:
		case EMU_TC_FOR:
			if (loop(x, i))
				return -1;
			i = c->end;
			break;
		case EMU_TC_SWAP: {
			const uint32_t s = x->bind[c->a];
			x->bind[c->a] = x->bind[c->b];
			x->bind[c->b] = s;
			ctx_add(x, "# swap %s, %s (line %d)", t->arrays[c->a].name, t->arrays[c->b].name,
				c->line);
			break;
		}
		case EMU_TC_SHRINK:
			if (shrink(x, c))
				return -1;
			break;
		default:
			break;
		}
	}
	return 0;
}

int emu_tdfg_expand(emu_tdfg *t, diag *d)
{
	xp x;
	memset(&x, 0, sizeof x);
	x.t = t;
	x.d = d;
	t->tregions = t->regions;
	t->ntregions = t->nregions;
	t->tnodes = t->nodes;
	t->ntnodes = t->nnodes;
	t->regions = NULL;
	t->nodes = NULL;
	t->nregions = t->nnodes = 0;
	x.bind = calloc(t->narrays ? t->narrays : 1, sizeof *x.bind);
	x.window = calloc(t->ntregions, sizeof *x.window);
	int rc = -1;
	if (!x.bind || !x.window) {
		diag_file(d, t->path, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < t->narrays; i++)
		x.bind[i] = (uint32_t)i;
	for (size_t i = 0; i < t->ntregions; i++)
		for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++)
			x.window[i].hi[k] = t->tregions[i].shape[k];
	rc = 0;
	if (t->nctl)
		rc = walk(&x, 0, t->nctl);
	for (uint32_t r = 0; !t->nctl && !rc && r < t->ntregions; r++)
		rc = t->tregions[r].nparams ? 0 : run_region(&x, r);
	if (!rc && x.ctx_oom) {
		diag_file(d, t->path, "out of memory");
		rc = -1;
	}
	if (!rc && !t->nregions) {
		diag_file(d, t->path, "the program runs no region; expected 'run NAME'");
		rc = -1;
	}
out:
	free(x.bind);
	free(x.window);
	free(x.ctx);
	return rc;
}
