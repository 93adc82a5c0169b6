/* SPDX-License-Identifier: MIT */
/*
 * bind.c: which node instance each marker holds, and the order in which
 * the stream runs a program's runs (doc/TDFG.md, "Programs").
 *
 * A marker `node NAME [run=N] [PARAM=VALUE ...]` may hold any instance
 * of NAME (one per run of its region) that its selectors allow: its
 * candidates, in program order.  Which one it holds is decided when it is
 * compared (validate.c, resolve): the instance its name's previous marker
 * held, if the tensor still holds that value and is another tensor or
 * was not written since (a node marked again), else the earliest later
 * candidate whose value the tensor holds.  So independent
 * nodes may be marked in any order, and a node more than once.  Until
 * then a marker's guess is the instance after its name's previous
 * marker's, which is what a stream that marks each node once, run by
 * run, means.
 *
 * A marker whose selectors leave one candidate is fixed.  The runs such
 * markers name, in the order the stream first names them, are the order
 * in which the check points' reference runs the program's runs: a
 * stream that runs a loop backwards (`node c tensor=C k=15` first) is
 * compared run by run with what each run computes from the arrays as the
 * stream's earlier runs left them; the end of the stream is compared
 * with the program in its own order.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "valid_private.h"

int emu_valid_push(emu_valid *v, const point *pt)
{
	point *np = realloc(v->pts, (v->npts + 1) * sizeof *np);
	if (!np)
		return -1;
	v->pts = np;
	v->pts[v->npts++] = *pt;
	return 0;
}

/* Which run of its region node n is: 1 for the region's first. */
static size_t run_of(const emu_tdfg *t, size_t n)
{
	const emu_tregion *r = &t->regions[t->nodes[n].region];
	size_t nth = 0;
	if (!t->program)
		return 1;
	for (size_t i = 0; i <= t->nodes[n].region; i++)
		nth += t->regions[i].tmpl == r->tmpl;
	return nth;
}

void emu_valid_run_text(const emu_valid *v, size_t n, char *buf, size_t size)
{
	const emu_tdfg *t = v->t;
	const emu_tnode *x = &t->nodes[n];
	const emu_tregion *r = &t->regions[x->region];
	size_t k = (size_t)snprintf(buf, size, "run %zu of region '%s'", run_of(t, n), r->name);
	for (unsigned q = 0; q < r->nparams && k < size; q++)
		k += (size_t)snprintf(buf + k, size - k, "%s%s = %" PRId64, q ? ", " : " (with ",
				      r->param[q], r->pv[q]);
	if (r->nparams && k < size)
		k += (size_t)snprintf(buf + k, size - k, ")");
	if (k < size)
		snprintf(buf + k, size - k, ", the program's run %u", x->region + 1);
}

/* Does instance n pass selector s of marker m?  With why set (the
 * marker's error) when s can never pass: a parameter its region lacks. */
static bool selected(const emu_tdfg *t, size_t n, const struct emu_mark_sel *s, bool *known)
{
	if (strcmp(s->name, "run") == 0) {
		*known = true;
		return run_of(t, n) == (size_t)s->value;
	}
	const emu_tregion *r = &t->regions[t->nodes[n].region];
	for (unsigned q = 0; q < r->nparams; q++)
		if (strcmp(r->param[q], s->name) == 0) {
			*known = true;
			return r->pv[q] == s->value;
		}
	return false;
}

/* v->named: every node but the stores, sorted by name and, within a
 * name, in program order: a marker's candidates without selectors are
 * a range of it, found by a binary search. */
static const emu_tdfg *sort_t;

static int by_name(const void *a, const void *b)
{
	const size_t x = *(const size_t *)a, y = *(const size_t *)b;
	const int c = strcmp(sort_t->nodes[x].name, sort_t->nodes[y].name);
	return c ? c : x < y ? -1 : x > y;
}

static int name_index(emu_valid *v, diag *d)
{
	const emu_tdfg *t = v->t;
	v->named = malloc((t->nnodes ? t->nnodes : 1) * sizeof *v->named);
	if (!v->named) {
		diag_file(d, v->p->path, "out of memory");
		return -1;
	}
	for (size_t n = 0; n < t->nnodes; n++)
		if (t->nodes[n].kind != EMU_TN_STORE)
			v->named[v->nnamed++] = n;
	sort_t = t; /* qsort has no context argument in C17 */
	qsort(v->named, v->nnamed, sizeof *v->named, by_name);
	return 0;
}

/* The range [*lo, *hi) of v->named holding the nodes called name. */
static void name_range(const emu_valid *v, const char *name, size_t *lo, size_t *hi)
{
	size_t a = 0, b = v->nnamed;
	while (a < b) {
		const size_t m = a + (b - a) / 2;
		if (strcmp(v->t->nodes[v->named[m]].name, name) < 0)
			a = m + 1;
		else
			b = m;
	}
	*lo = a;
	for (b = v->nnamed; a < b;) {
		const size_t m = a + (b - a) / 2;
		if (strcmp(v->t->nodes[v->named[m]].name, name) <= 0)
			a = m + 1;
		else
			b = m;
	}
	*hi = a;
}

size_t emu_valid_cand_after(const emu_valid *v, const point *pt, size_t after)
{
	if (after == SIZE_MAX)
		return 0;
	size_t a = 0, b = pt->ncand;
	while (a < b) {
		const size_t m = a + (b - a) / 2;
		if (emu_valid_cand(v, pt, m) <= after)
			a = m + 1;
		else
			b = m;
	}
	return a;
}

/* The instances of m's name that its selectors allow: a range of
 * v->named, or without selectors (those kept, appended to v->cand).
 * -1 with d set (naming the marker's line) when none. */
static int candidates(emu_valid *v, const emu_mark *m, point *pt, diag *d)
{
	const emu_tdfg *t = v->t;
	size_t lo, hi;
	name_range(v, m->name, &lo, &hi);
	if (lo == hi) {
		diag_at(d, v->p->path, m->line, 0, "node marker '%s': %s has no node of that name",
			m->name, t->path);
		return -1;
	}
	const size_t any = v->named[lo];
	pt->name = any;
	pt->cand0 = lo;
	pt->ncand = hi - lo;
	pt->own_cand = false;
	if (!m->nsel)
		return 0;
	pt->cand0 = v->ncands;
	pt->own_cand = true;
	bool known[EMU_MARK_SELS] = {false};
	const size_t named = hi - lo;
	for (size_t i = lo; i < hi; i++) {
		const size_t n = v->named[i];
		bool ok = true;
		for (unsigned k = 0; k < m->nsel; k++)
			ok &= selected(t, n, &m->sel[k], &known[k]);
		if (!ok)
			continue;
		if ((v->ncands & (v->ncands - 1)) == 0) { /* a power of two: grow */
			size_t *nc = realloc(v->cand, (v->ncands ? 2 * v->ncands : 1) * sizeof *nc);
			if (!nc) {
				diag_file(d, v->p->path, "out of memory");
				return -1;
			}
			v->cand = nc;
		}
		v->cand[v->ncands++] = n;
	}
	pt->ncand = v->ncands - pt->cand0;
	if (pt->ncand)
		return 0;
	const emu_tregion *r = &t->regions[t->nodes[any].region];
	for (unsigned k = 0; k < m->nsel; k++)
		if (!known[k]) {
			char ps[EMU_TPARAMS * (EMU_NAME_MAX + 2)] = "";
			for (unsigned q = 0, o = 0; q < r->nparams && o < sizeof ps; q++)
				o += (unsigned)snprintf(ps + o, sizeof ps - o, "%s%s", q ? ", " : "",
							r->param[q]);
			diag_at(d, v->p->path, m->line, 0, "node marker '%s' %s=%" PRId64 ": region "
				"'%s' has no parameter '%s' (%s%s); a marker selects a run by run=N "
				"or by its region's parameters", m->name, m->sel[k].name,
				m->sel[k].value, r->name, m->sel[k].name, r->nparams ? "its parameters: "
				: "it has none", ps);
			return -1;
		}
	char sel[256] = "";
	for (unsigned k = 0, o = 0; k < m->nsel && o < sizeof sel; k++)
		o += (unsigned)snprintf(sel + o, sizeof sel - o, " %s=%" PRId64, m->sel[k].name,
					m->sel[k].value);
	diag_at(d, v->p->path, m->line, 0, "node marker '%s'%s: no run of %s has a node '%s' "
		"with%s (it has %zu instance%s of '%s', in runs of region '%s')", m->name, sel,
		t->path, m->name, sel, named, named == 1 ? "" : "s", m->name, r->name);
	return -1;
}

bool emu_valid_holds(const emu_valid *v, size_t n, int bi)
{
	const emu_tnode *x = &v->t->nodes[n];
	const emu_tregion *r = &v->t->regions[x->region];
	const emu_buffer *b = &v->p->bufs[bi];
	bool same = b->fmt == x->fmt && b->width == x->width && b->is_signed == x->is_signed &&
		    b->ndims == r->ndims;
	for (unsigned k = 0; same && k < r->ndims; k++)
		same = b->shape[k] == r->shape[k];
	return same;
}

/* Does tensor bi hold a value of node n's type and region? */
static int fits(const emu_valid *v, size_t n, int bi, int line, diag *d)
{
	if (emu_valid_holds(v, n, bi))
		return 0;
	const emu_tnode *x = &v->t->nodes[n];
	const emu_tregion *r = &v->t->regions[x->region];
	const emu_buffer *b = &v->p->bufs[bi];
	char bt[16], nt[16], bs[64] = "", rs[64] = "";
	for (unsigned k = 0, nb = 0, nr = 0; k < 3; k++) {
		if (k < b->ndims)
			nb += (unsigned)snprintf(bs + nb, sizeof bs - nb, "%s%" PRIu64, k ? "x" : "",
						 b->shape[k]);
		if (k < r->ndims)
			nr += (unsigned)snprintf(rs + nr, sizeof rs - nr, "%s%" PRIu64, k ? "x" : "",
						 r->shape[k]);
	}
	diag_at(d, v->p->path, line, 0, "node '%s' (%s:%d) is %s %s, but tensor '%s' is %s %s; "
		"the tensor that holds a node must have its element type and its region's sizes",
		x->name, v->t->path, x->line, isa_type_name(x->fmt, x->width, x->is_signed, nt,
							     sizeof nt), rs, b->name,
		emu_buffer_type(b, bt, sizeof bt), b->ndims ? bs : "(a plain buffer)");
	return -1;
}

/* A strm marker (`node NAME strm`) runs node n's stream: n must be a
 * strm node, and the tensor its stream writes the marker's. */
static int strm_fits(const emu_valid *v, const emu_mark *m, size_t n, diag *d)
{
	const emu_tnode *x = &v->t->nodes[n];
	const char *b = v->p->bufs[m->buf].name;
	if (!x->strm) {
		diag_at(d, v->p->path, m->line, 0, "node marker '%s' strm: node '%s' (%s:%d) is "
			"not a strm node, so no stream runs here; drop 'strm'", m->name, x->name,
			v->t->path, x->line);
		return -1;
	}
	if (strcmp(b, x->name) != 0) {
		diag_at(d, v->p->path, m->line, 0, "node marker '%s' strm: the node's stream writes "
			"tensor '%s', not '%s'", m->name, x->name, b);
		return -1;
	}
	return 0;
}

/* The candidate after instance `after` (SIZE_MAX: the first), or the
 * last one when none is later. */
static size_t next_candidate(const emu_valid *v, const point *pt, size_t after)
{
	const size_t k = emu_valid_cand_after(v, pt, after);
	return emu_valid_cand(v, pt, k < pt->ncand ? k : pt->ncand - 1);
}

int emu_valid_bind_marks(emu_valid *v, diag *d)
{
	const emu_program *p = v->p;
	const emu_tdfg *t = v->t;
	size_t *guess = malloc((t->nnodes ? t->nnodes : 1) * sizeof *guess);
	if (!guess) {
		diag_file(d, p->path, "out of memory");
		return -1;
	}
	for (size_t n = 0; n < t->nnodes; n++)
		guess[n] = SIZE_MAX;
	int rc = name_index(v, d);
	for (size_t i = 0; rc == 0 && i < p->nmarks; i++) {
		const emu_mark *m = &p->marks[i];
		point pt = {.kind = PT_MARK, .buf = m->buf, .at = m->at, .line = m->line, .mark = i,
			    .strm = m->strm};
		rc = candidates(v, m, &pt, d);
		if (rc)
			break;
		/* A strm marker runs its node's stream: which one is decided
		 * now, the next of its name (a stream does not run twice). */
		pt.node = next_candidate(v, &pt, guess[pt.name]);
		if (pt.strm && guess[pt.name] != SIZE_MAX && pt.node <= guess[pt.name] &&
		    !m->nsel) {
			diag_at(d, p->path, m->line, 0, "node marker '%s' strm: every run's stream of "
				"'%s' has run at an earlier marker", m->name, m->name);
			rc = -1;
			break;
		}
		pt.resolved = pt.strm || pt.ncand == 1;
		guess[pt.name] = pt.node;
		rc = fits(v, pt.node, pt.buf, pt.line, d) ||
		     (pt.strm && strm_fits(v, m, pt.node, d)) ? -1 : 0;
		if (rc == 0 && emu_valid_push(v, &pt)) {
			diag_file(d, p->path, "out of memory");
			rc = -1;
		}
	}
	free(guess);
	return rc;
}

/* ---- the order of the runs ---- */

/* rt: t with its runs in order[], perm the new index of each node. */
static int reorder(emu_valid *v, const size_t *order, diag *d)
{
	const emu_tdfg *t = v->t;
	emu_tdfg *rt = &v->rt;
	*rt = *t;
	rt->regions = malloc((t->nregions ? t->nregions : 1) * sizeof *rt->regions);
	rt->nodes = malloc((t->nnodes ? t->nnodes : 1) * sizeof *rt->nodes);
	v->perm = malloc((t->nnodes ? t->nnodes : 1) * sizeof *v->perm);
	if (!rt->regions || !rt->nodes || !v->perm) {
		diag_file(d, v->p->path, "out of memory");
		return -1;
	}
	size_t nn = 0;
	for (size_t k = 0; k < t->nregions; k++) {
		const emu_tregion *r = &t->regions[order[k]];
		rt->regions[k] = *r;
		rt->regions[k].node0 = nn;
		for (size_t n = r->node0; n < r->node1; n++)
			v->perm[n] = nn++;
		rt->regions[k].node1 = nn;
	}
	for (size_t k = 0; k < t->nregions; k++)
		for (size_t n = t->regions[order[k]].node0; n < t->regions[order[k]].node1; n++) {
			emu_tnode *x = &rt->nodes[v->perm[n]];
			*x = t->nodes[n];
			x->region = (uint32_t)k;
			for (unsigned a = 0; a < x->nargs; a++)
				x->arg[a] = (uint32_t)v->perm[x->arg[a]];
		}
	return 0;
}

typedef struct run_key {
	size_t key, run;
} run_key;

static int by_key(const void *a, const void *b)
{
	const run_key *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->run < y->run ? -1 : x->run > y->run;
}

int emu_valid_order_runs(emu_valid *v, diag *d)
{
	const emu_tdfg *t = v->t;
	if (!t->program || t->nregions < 2)
		return 0;
	run_key *k = malloc(t->nregions * sizeof *k);
	size_t *order = malloc(t->nregions * sizeof *order);
	int rc = 0;
	if (!k || !order) {
		diag_file(d, v->p->path, "out of memory");
		rc = -1;
	}
	bool any = false;
	for (size_t r = 0; rc == 0 && r < t->nregions; r++)
		k[r] = (run_key){SIZE_MAX, r};
	for (size_t i = 0; rc == 0 && i < v->npts; i++) {
		const point *pt = &v->pts[i];
		if (pt->kind != PT_MARK || !v->p->marks[pt->mark].nsel || pt->ncand != 1)
			continue;
		const size_t r = t->nodes[pt->node].region;
		if (k[r].key == SIZE_MAX)
			k[r].key = i;
		any = true;
	}
	/* A run no fixed marker names stays right after the run before it. */
	for (size_t r = 0, carry = 0; rc == 0 && any && r < t->nregions; r++) {
		if (k[r].key == SIZE_MAX)
			k[r].key = carry;
		carry = k[r].key;
	}
	bool moved = false;
	if (rc == 0 && any) {
		qsort(k, t->nregions, sizeof *k, by_key);
		for (size_t r = 0; r < t->nregions; r++) {
			order[r] = k[r].run;
			moved |= order[r] != r;
		}
	}
	if (rc == 0 && moved)
		rc = reorder(v, order, d);
	free(k);
	free(order);
	return rc;
}
