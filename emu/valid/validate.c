/* SPDX-License-Identifier: MIT */
/*
 * validate.c: a stream checked node by node against its tDFG; see
 * validate.h and doc/TDFG.md, "Validating a stream".
 *
 * The comparison reads the node's tensor through the checks' port and
 * the tDFG's value from emu_tref (plain C, no micro-op).  The bisection
 * runs the stream again on a machine of its own, so the run being
 * checked (and a debugger's position) is left as it was.
 */
#include "validate.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elements.h"
#include "move.h"
#include "report.h"

/* The bisection follows at most this many wrong elements (the first in
 * row-major order); the first wrong element is always among them. */
enum { TRACK_MAX = 1024 };

/* A check point: after `at` commands, tensor buf holds node. */
typedef struct point {
	size_t node;
	int buf;
	size_t at;
	int line;              /* the marker's line (0 if decoded from binary) */
	bool end;              /* an output, at the end of the stream */
	bool strm;             /* a strm marker: the node's stream runs first */
} point;

typedef struct loaded {
	const emu_buffer *b;
	uint64_t *v;
} loaded;

struct emu_valid {
	emu_tdfg *t;
	const emu_program *p;
	emu_tref *ref;
	point *pts;
	size_t npts, next;
	size_t snext;          /* the next point whose strm stream may run */
	loaded *loads;
	size_t nloads;
};

/* One wrong element: its row-major index, the bits that differ and
 * the value it ends with. */
typedef struct wrong {
	uint64_t e, diff, end;
} wrong;

/* ---- binding ---- */

static int push_point(emu_valid *v, size_t node, int buf, size_t at, int line, bool end)
{
	point *np = realloc(v->pts, (v->npts + 1) * sizeof *np);
	if (!np)
		return -1;
	v->pts = np;
	v->pts[v->npts++] = (point){node, buf, at, line, end, false};
	return 0;
}

/* "run 3 of region 'step' (with k = 2), the program's run 5": where
 * node instance n is, for a program's messages. */
static void run_text(const emu_valid *v, size_t n, char *buf, size_t size)
{
	const emu_tdfg *t = v->t;
	const emu_tnode *x = &t->nodes[n];
	const emu_tregion *r = &t->regions[x->region];
	size_t nth = 0, k = 0;
	for (size_t i = 0; i <= x->region; i++)
		nth += t->regions[i].tmpl == r->tmpl;
	k += (size_t)snprintf(buf, size, "run %zu of region '%s'", nth, r->name);
	for (unsigned q = 0; q < r->nparams && k < size; q++)
		k += (size_t)snprintf(buf + k, size - k, "%s%s = %" PRId64, q ? ", " : " (with ",
				      r->param[q], r->pv[q]);
	if (r->nparams && k < size)
		k += (size_t)snprintf(buf + k, size - k, ")");
	if (k < size)
		snprintf(buf + k, size - k, ", the program's run %u", x->region + 1);
}

/* Does tensor bi hold a value of node n's type and region?  where and
 * line place the message (the marker, or the tensor's declaration). */
static int fits(const emu_valid *v, size_t n, int bi, int line, diag *d)
{
	const emu_tnode *x = &v->t->nodes[n];
	const emu_tregion *r = &v->t->regions[x->region];
	const emu_buffer *b = &v->p->bufs[bi];
	bool same = b->fmt == x->fmt && b->width == x->width && b->is_signed == x->is_signed &&
		    b->ndims == r->ndims;
	for (unsigned k = 0; same && k < r->ndims; k++)
		same = b->shape[k] == r->shape[k];
	if (same)
		return 0;
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

/* The node a marker names.  A single region: the node of that name.  A
 * program: the next instance of that name, in program order, after the
 * previous marker's (its runs repeat the names, and the JIT writes a
 * marker after each node of each run, reused lowerings included; stores
 * have none, so they are skipped).  -1 with d set. */
static long marked_node(emu_valid *v, const emu_mark *m, size_t *cursor, diag *d)
{
	const emu_tdfg *t = v->t;
	const long any = emu_tdfg_find(t, m->name, strlen(m->name));
	if (any < 0) {
		diag_at(d, v->p->path, m->line, 0, "node marker '%s': %s has no node of that name",
			m->name, t->path);
		return -1;
	}
	if (!t->program)
		return any;
	for (size_t n = *cursor; n < t->nnodes; n++)
		if (t->nodes[n].kind != EMU_TN_STORE && strcmp(t->nodes[n].name, m->name) == 0) {
			*cursor = n + 1;
			return (long)n;
		}
	char run[256] = "", lb[EMU_NAME_MAX + 8];
	const char *prev = "";
	if (*cursor) {
		run_text(v, *cursor - 1, run, sizeof run);
		prev = emu_tnode_label(t, &t->nodes[*cursor - 1], lb, sizeof lb);
	}
	diag_at(d, v->p->path, m->line, 0, "node marker '%s': no run of %s has a node of that name "
		"after %s%s%s%s; markers follow the nodes of the program's runs in program order",
		m->name, t->path, *cursor ? "node '" : "the start", prev, *cursor ? "' of " : "", run);
	return -1;
}

/* A strm marker (`node NAME strm`) runs node n's stream: n must be a
 * strm node, and the tensor its stream writes the marker's. */
static int strm_fits(const emu_valid *v, const emu_mark *m, size_t n, diag *d)
{
	const emu_tnode *x = &v->t->nodes[n];
	const char *b = v->p->bufs[m->buf].name;
	if (!m->strm)
		return 0;
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

/* Each marker is a check point. */
static int bind_marks(emu_valid *v, diag *d)
{
	const emu_program *p = v->p;
	size_t cursor = 0;
	for (size_t i = 0; i < p->nmarks; i++) {
		const emu_mark *m = &p->marks[i];
		const long n = marked_node(v, m, &cursor, d);
		if (n < 0 || fits(v, (size_t)n, m->buf, m->line, d) || strm_fits(v, m, (size_t)n, d))
			return -1;
		if (push_point(v, (size_t)n, m->buf, m->at, m->line, false)) {
			diag_file(d, p->path, "out of memory");
			return -1;
		}
		v->pts[v->npts - 1].strm = m->strm;
	}
	return 0;
}

/* The tensor that holds node n at the end: its last marker's, or the
 * tensor of its name; -1 if none. */
static int final_tensor(const emu_valid *v, size_t n)
{
	int bi = -1;
	for (size_t i = 0; i < v->npts; i++)
		if (v->pts[i].node == n)
			bi = v->pts[i].buf;
	for (size_t b = 0; bi < 0 && b < v->p->nbufs; b++)
		if (strcmp(v->p->bufs[b].name, v->t->nodes[n].name) == 0)
			bi = (int)b;
	return bi;
}

/* Output n at the end of the stream, through its final tensor. */
static int bind_output(emu_valid *v, size_t n, size_t nmarked, diag *d)
{
	const emu_tnode *x = &v->t->nodes[n];
	const int bi = final_tensor(v, n);
	if (bi < 0) {
		diag_at(d, v->t->path, x->line, x->col, "output '%s': the stream %s has no "
			"marker 'node %s' and no tensor of that name, so nothing says what "
			"holds it", x->name, v->p->path, x->name);
		return -1;
	}
	bool marked = false;
	for (size_t i = 0; i < nmarked; i++)
		marked |= v->pts[i].node == n;
	if ((!marked && fits(v, n, bi, v->p->bufs[bi].line, d)) ||
	    push_point(v, n, bi, v->p->ncmds, 0, true)) {
		if (!d->set)
			diag_file(d, v->p->path, "out of memory");
		return -1;
	}
	return 0;
}

/* A program's arrays at the end of the stream: the box of each array's
 * last store, through the array's tensor (stores have no marker; a store
 * of an earlier run is checked by the next run's tensor of that array). */
static int bind_stores(emu_valid *v, diag *d)
{
	const emu_tdfg *t = v->t;
	for (size_t a = 0; t->program && a < t->narrays; a++) {
		size_t n = t->nnodes;
		while (n-- > 0 && !(t->nodes[n].kind == EMU_TN_STORE && t->nodes[n].array == a))
			;
		if (n == SIZE_MAX)
			continue;
		int bi = -1;
		for (size_t b = 0; bi < 0 && b < v->p->nbufs; b++)
			if (strcmp(v->p->bufs[b].name, t->arrays[a].name) == 0)
				bi = (int)b;
		if (bi < 0) {
			diag_at(d, t->path, t->arrays[a].line, t->arrays[a].col, "array '%s': the "
				"stream %s has no tensor of that name, so nothing holds it",
				t->arrays[a].name, v->p->path);
			return -1;
		}
		if (fits(v, n, bi, v->p->bufs[bi].line, d) ||
		    push_point(v, n, bi, v->p->ncmds, 0, true)) {
			if (!d->set)
				diag_file(d, v->p->path, "out of memory");
			return -1;
		}
	}
	return 0;
}

/* Every output once more at the end of the stream, in node order; in a
 * program, the instance of its last run (last[n]: no later run has n's
 * node as written, found going backwards). */
static int bind_outputs(emu_valid *v, diag *d)
{
	const size_t nmarked = v->npts;
	const emu_tdfg *t = v->t;
	bool *seen = calloc(t->ntnodes ? t->ntnodes : 1, sizeof *seen);
	bool *last = calloc(t->nnodes ? t->nnodes : 1, sizeof *last);
	int rc = 0;
	if (!seen || !last) {
		diag_file(d, v->p->path, "out of memory");
		rc = -1;
	}
	for (size_t n = t->nnodes; rc == 0 && n-- > 0;) {
		const uint32_t k = t->nodes[n].tmpl;
		last[n] = !t->program || k >= t->ntnodes || !seen[k];
		if (t->program && k < t->ntnodes)
			seen[k] = true;
	}
	for (size_t n = 0; rc == 0 && n < t->nnodes; n++)
		if (t->nodes[n].output && last[n])
			rc = bind_output(v, n, nmarked, d);
	free(seen);
	free(last);
	return rc == 0 ? bind_stores(v, d) : rc;
}

/* An input's or an array's init= as the assembler reads it (the JIT
 * does the same), through a one-buffer stream: one reader for init= in
 * both languages. */
static int read_init(emu_tdfg *t, unsigned fmt, unsigned width, unsigned sg, const char *text0,
		     int line, int col, uint8_t *init, uint64_t *arg, diag *d)
{
	char text[256], tn[16];
	emu_program q;
	diag pd;
	diag_clear(&pd);
	snprintf(text, sizeof text, "buffer v %s 1 wl=0 arrays=0 %s\n",
		 isa_type_name((uint8_t)fmt, (uint8_t)width, (uint8_t)sg, tn, sizeof tn), text0);
	if (emu_parse(t->path, text, strlen(text), &t->geom, &q, &pd) < 0) {
		const char *e = strstr(pd.msg, "error: ");
		diag_at(d, t->path, line, col, "%s", e ? e + 7 : pd.msg);
		return -1;
	}
	*init = (uint8_t)q.bufs[0].init;
	*arg = q.bufs[0].init_arg;
	emu_program_free(&q);
	return 0;
}

/* Inputs' and arrays' init=: where the reference starts from. */
static int inits(emu_tdfg *t, diag *d)
{
	int rc = 0;
	for (size_t n = 0; rc == 0 && n < t->nnodes; n++) {
		emu_tnode *x = &t->nodes[n];
		if (x->kind == EMU_TN_INPUT && x->init_text[0])
			rc = read_init(t, x->fmt, x->width, x->is_signed, x->init_text, x->line,
				       x->op_col, &x->init, &x->init_arg, d);
	}
	for (size_t i = 0; rc == 0 && i < t->narrays; i++) {
		emu_tarray *a = &t->arrays[i];
		if (a->init_text[0])
			rc = read_init(t, a->fmt, a->width, a->is_signed, a->init_text, a->line,
				       a->init_col ? a->init_col : a->col, &a->init, &a->init_arg, d);
	}
	return rc;
}

emu_valid *emu_valid_new(emu_tdfg *t, const emu_program *p, diag *d)
{
	emu_valid *v = calloc(1, sizeof *v);
	if (!v) {
		diag_file(d, p->path, "out of memory");
		return NULL;
	}
	v->t = t;
	v->p = p;
	/* The commands compute in the stream's controller settings. */
	t->geom.fp_ieee = p->geom.fp_ieee;
	t->geom.cordic_iters = p->geom.cordic_iters;
	int rc = inits(t, d);
	if (rc == 0 && !(v->ref = emu_tref_new(t, d)))
		rc = -1;
	if (rc == 0 && (bind_marks(v, d) || bind_outputs(v, d)))
		rc = -1;
	if (rc) {
		emu_valid_free(v);
		return NULL;
	}
	return v;
}

void emu_valid_free(emu_valid *v)
{
	if (!v)
		return;
	emu_tref_free(v->ref);
	for (size_t i = 0; i < v->nloads; i++)
		free(v->loads[i].v);
	free(v->loads);
	free(v->pts);
	free(v);
}

int emu_valid_load(emu_valid *v, const emu_buffer *b, const uint64_t *values, diag *d)
{
	loaded *nl = realloc(v->loads, (v->nloads + 1) * sizeof *nl);
	uint64_t *copy = malloc(b->length ? b->length * sizeof *copy : 1);
	if (nl)
		v->loads = nl;
	if (!nl || !copy) {
		free(copy);
		diag_file(d, v->p->path, "out of memory");
		return -1;
	}
	memcpy(copy, values, b->length * sizeof *copy);
	v->loads[v->nloads++] = (loaded){b, copy};
	const int bi = (int)(b - v->p->bufs);
	for (size_t n = 0; n < v->t->nnodes; n++)
		if (v->t->nodes[n].kind == EMU_TN_INPUT && final_tensor(v, n) == bi &&
		    emu_tref_input(v->ref, n, values, b->length, d) < 0)
			return -1;
	/* An array's first data (load=, given with --load). */
	for (size_t a = 0; a < v->t->narrays; a++)
		if (strcmp(v->t->arrays[a].name, b->name) == 0 &&
		    emu_tref_array_input(v->ref, a, values, b->length, d) < 0)
			return -1;
	return 0;
}

/* Has an emu_valid_load given buffer b its data? */
static bool loaded_already(const emu_valid *v, const emu_buffer *b)
{
	for (size_t i = 0; i < v->nloads; i++)
		if (v->loads[i].b == b)
			return true;
	return false;
}

/* Array a's load= file into the stream's tensor of its name. */
static int load_array(emu_valid *v, const emu_tarray *a, diag *d)
{
	const emu_buffer *b = NULL;
	for (size_t k = 0; !b && k < v->p->nbufs; k++)
		if (strcmp(v->p->bufs[k].name, a->name) == 0)
			b = &v->p->bufs[k];
	if (!b) {
		diag_at(d, v->t->path, a->line, a->col, "array '%s' has load=%s, but the stream "
			"%s has no tensor of that name to load it into", a->name, a->load,
			v->p->path);
		return -1;
	}
	if (loaded_already(v, b))
		return 0;
	uint64_t *values = malloc(b->length ? b->length * sizeof *values : 1);
	if (!values) {
		diag_file(d, a->load, "out of memory for %" PRIu64 " elements", b->length);
		return -1;
	}
	int rc = emu_elements_read(a->load, b, values, d);
	if (rc == 0)
		rc = emu_valid_load(v, b, values, d);
	free(values);
	return rc;
}

int emu_valid_load_arrays(emu_valid *v, diag *d)
{
	for (size_t i = 0; i < v->t->narrays; i++)
		if (v->t->arrays[i].load[0] && load_array(v, &v->t->arrays[i], d) < 0)
			return -1;
	return 0;
}

const uint64_t *emu_valid_loaded(const emu_valid *v, size_t i, const emu_buffer **b)
{
	if (i >= v->nloads)
		return NULL;
	*b = v->loads[i].b;
	return v->loads[i].v;
}

void emu_valid_seek(emu_valid *v, size_t pc)
{
	for (v->next = 0; v->next < v->npts && v->pts[v->next].at < pc; v->next++)
		;
	v->snext = v->next;
}

/* The strm markers at em's position whose streams have not run: each
 * node's stream at the banks (emu/tdfg/strm.c), on the machine's
 * values, as the marker places it (doc/FORMAT.md, "strm markers"). */
int emu_valid_strm(emu_valid *v, emu_machine *em, emu_ref *ref, emu_strm_stats *st, diag *d)
{
	if (em->upc)
		return 0;
	for (; v->snext < v->npts && v->pts[v->snext].at <= em->pc; v->snext++) {
		const point *pt = &v->pts[v->snext];
		if (pt->strm && pt->at == em->pc &&
		    emu_strm_exec_at(v->t, v->p, em, ref, pt->node, pt->at ? pt->at - 1 : 0,
				     pt->line, st, d) < 0)
			return -1;
	}
	return 0;
}

const emu_mark *emu_valid_strm_mark(const emu_valid *v, size_t pc)
{
	for (size_t i = 0; i < v->p->nmarks; i++)
		if (v->p->marks[i].strm && v->p->marks[i].at == pc)
			return &v->p->marks[i];
	return NULL;
}

size_t emu_valid_compared(const emu_valid *v)
{
	return v->next;
}

size_t emu_valid_points(const emu_valid *v)
{
	return v->npts;
}

/* ---- comparing ---- */

/* The node's domain in row-major order: the wrong elements (the first
 * TRACK_MAX of them) into w, their number returned; mm the first. */
static size_t compare(emu_valid *v, const emu_machine *em, const point *pt, wrong *w,
		      emu_mismatch *mm, diag *d)
{
	const emu_tnode *x = &v->t->nodes[pt->node];
	const emu_buffer *b = &v->p->bufs[pt->buf];
	const uint64_t *S = v->t->regions[x->region].shape;
	uint64_t *cells = malloc(b->length * sizeof *cells);
	size_t nw = 0;
	if (!cells) {
		diag_file(d, v->p->path, "out of memory");
		return SIZE_MAX;
	}
	emu_tref_run(v->ref, pt->node);
	if (!emu_tref_kept(v->ref, pt->node)) {
		free(cells);
		diag_file(d, v->p->path, "out of memory for the tDFG's reference");
		return SIZE_MAX;
	}
	emu_buffer_read(em, b, cells);
	const emu_box *dm = &x->dom;
	for (uint64_t i2 = dm->lo[2]; i2 < dm->hi[2]; i2++)
		for (uint64_t i1 = dm->lo[1]; i1 < dm->hi[1]; i1++)
			for (uint64_t i0 = dm->lo[0]; i0 < dm->hi[0]; i0++) {
				const uint64_t e = i0 + S[0] * (i1 + S[1] * i2);
				const uint64_t want = emu_tref_value(v->ref, pt->node, e);
				if (cells[e] == want)
					continue;
				if (nw == 0)
					*mm = (emu_mismatch){b, e, want, cells[e]};
				if (nw < TRACK_MAX)
					w[nw] = (wrong){e, (want ^ cells[e]) & isa_mask(b->width), cells[e]};
				nw++;
			}
	free(cells);
	return nw < TRACK_MAX ? nw : TRACK_MAX;
}

/* ---- bisecting ---- */

/* The machine at the start: init= and every load applied. */
static emu_machine *restart(const emu_valid *v, diag *d)
{
	emu_machine *em = emu_machine_new(v->p, d);
	if (em && emu_init_buffers(em, d) < 0) {
		emu_machine_free(em);
		return NULL;
	}
	for (size_t i = 0; em && i < v->nloads; i++)
		emu_ttu_store(em, v->loads[i].b, v->loads[i].v, v->loads[i].b->length);
	return em;
}

static unsigned bank_of(const sram_geom *g, int64_t array)
{
	return (unsigned)(array / (int64_t)(g->arrays_per_way * g->ways_per_bank));
}

static bool in_pattern(const emu_pattern *q, int64_t x)
{
	const uint64_t n = emu_pattern_size(q);
	for (uint64_t i = 0; i < n; i++)
		if (emu_pattern_at(q, i) == x)
			return true;
	return false;
}

/* Does move m send a bit to (array, bitline, wl) in another bank, which
 * lands there only at the next sync (infinity-stream §4.2)? */
static bool sends_to(const emu_move *m, const sram_geom *g, unsigned array, unsigned bl,
		     unsigned wl)
{
	if ((m->kind != EMU_MOVE_INTER && m->kind != EMU_MOVE_BCAST) || wl < m->dst_wl ||
	    wl >= (unsigned)m->dst_wl + m->nwl || !in_pattern(&m->dst_bitlines, bl))
		return false;
	const uint64_t na = emu_pattern_size(&m->arrays);
	const uint64_t copies = m->kind == EMU_MOVE_BCAST ? m->reuse_count : 1;
	for (uint64_t i = 0; i < na; i++) {
		const int64_t a = emu_pattern_at(&m->arrays, i);
		for (uint64_t c = 0; c < copies; c++) {
			const int64_t to = a + m->dist + (int64_t)c * m->reuse_stride;
			if (to == (int64_t)array && bank_of(g, to) != bank_of(g, a))
				return true;
		}
	}
	return false;
}

/* The last move among commands [0, before) since the last sync that
 * sends bit k of element e of b to another bank: its number from 1, or 0. */
static size_t sender(const emu_program *p, size_t before, const emu_buffer *b, uint64_t e,
		     unsigned k)
{
	unsigned array, bl, wl;
	emu_buffer_place(b, &p->geom, e, &array, &bl, &wl);
	for (size_t j = before; j-- > 0;) {
		const emu_cmd *c = &p->cmds[j];
		if (c->kind == EMU_CMD_MOVE && c->mv.kind == EMU_MOVE_SYNC)
			return 0;
		if (c->kind == EMU_CMD_MOVE && sends_to(&c->mv, &p->geom, array, bl, wl + k))
			return j + 1;
	}
	return 0;
}

/* What the rerun records. */
typedef struct trail {
	const wrong *w;
	size_t nw;
	uint32_t *last;        /* nw x 64: the command after which bit k of
				* w[i] last changed (from 1), 0 if it never did */
	uint64_t *now;         /* nw: each element as the rerun holds it */
	uint64_t *all;         /* the whole tensor, for writes outside the domain */
} trail;

/* In a trail's last[], a change made by the strm stream that runs after
 * the command (emu_valid_strm), not by the command itself. */
#define BY_STRM 0x80000000u

/* After command c (from 1), or the strm stream after it (by_strm):
 * which wrong bits changed; inside the window, the first write to the
 * tensor outside the node's domain. */
static void observe(const emu_valid *v, const emu_machine *em, const point *pt, trail *tr,
		    size_t c, bool by_strm, emu_valid_report *rep)
{
	const emu_buffer *b = &v->p->bufs[pt->buf];
	for (size_t i = 0; i < tr->nw; i++) {
		const uint64_t x = emu_elem_get(em, b, tr->w[i].e);
		const uint64_t ch = (x ^ tr->now[i]) & tr->w[i].diff;
		for (unsigned k = 0; k < 64; k++)
			if (ch >> k & 1)
				tr->last[i * 64 + k] = (uint32_t)c | (by_strm ? BY_STRM : 0);
		tr->now[i] = x;
	}
	if (!tr->all || c < rep->window || rep->elsewhere)
		return;
	const emu_tnode *x = &v->t->nodes[pt->node];
	for (uint64_t e = 0; e < b->length; e++) {
		const uint64_t y = emu_elem_get(em, b, e);
		if (c > rep->window && y != tr->all[e] && !emu_tdfg_in_domain(v->t, x, e)) {
			rep->elsewhere = c;
			rep->elsewhere_index = e;
			return;
		}
		tr->all[e] = y;
	}
}

/* At the start of the window, each wrong bit that already holds the
 * value it ends with is flipped, so that a command of the window that
 * writes that value shows as a change (a write of the bits a cell
 * already holds is otherwise invisible).  Only the node's own wrong
 * cells are touched, before the commands that should write them. */
static void poison(const emu_valid *v, emu_machine *em, const point *pt, trail *tr)
{
	const emu_buffer *b = &v->p->bufs[pt->buf];
	for (size_t i = 0; i < tr->nw; i++) {
		const uint64_t x = emu_elem_get(em, b, tr->w[i].e);
		const uint64_t same = ~(x ^ tr->w[i].end) & tr->w[i].diff;
		tr->now[i] = x ^ same;
		emu_elem_set(em, b, tr->w[i].e, tr->now[i]);
	}
}

/* The strm point at command c (from 1) up to pt, or NULL. */
static const point *strm_at(const emu_valid *v, const point *pt, size_t c)
{
	for (const point *q = v->pts; q <= pt; q++)
		if (q->strm && q->at == c)
			return q;
	return NULL;
}

/* In the rerun, the strm stream after command c, if any, and what it
 * changed (its writes count for the stream, BY_STRM). */
static int rerun_strm(const emu_valid *v, emu_machine *em, const point *pt, trail *tr,
		      size_t c, emu_strm_stats *st, emu_valid_report *rep, diag *d)
{
	const point *q = strm_at(v, pt, c);
	if (!q)
		return 0;
	if (emu_strm_exec_at(v->t, v->p, em, NULL, q->node, c ? c - 1 : 0, q->line, st, d) < 0)
		return -1;
	observe(v, em, pt, tr, c, true, rep);
	return 0;
}

/* Rerun commands 1..at, recording each wrong bit's last change. */
static int rerun(const emu_valid *v, const point *pt, trail *tr, emu_valid_report *rep,
		 diag *d)
{
	emu_machine *em = restart(v, d);
	emu_strm_stats st;
	if (!em)
		return -1;
	memset(&st, 0, sizeof st);
	observe(v, em, pt, tr, 0, false, rep);
	memset(tr->last, 0, tr->nw * 64 * sizeof *tr->last);
	if (rep->window == 0)
		poison(v, em, pt, tr);
	int rc = rerun_strm(v, em, pt, tr, 0, &st, rep, d);
	for (size_t c = 1; rc == 0 && c <= pt->at; c++) {
		if (emu_run_cmd(em, d) < 0) {
			rc = -1;
			break;
		}
		observe(v, em, pt, tr, c, false, rep);
		if (c == rep->window)
			poison(v, em, pt, tr);
		rc = rerun_strm(v, em, pt, tr, c, &st, rep, d);
	}
	emu_strm_lot_free(&st.lot);
	emu_machine_free(em);
	return rc;
}

/* From the trail, the guilty command (validate.h, emu_valid_cause). */
static void judge(const emu_valid *v, const point *pt, const trail *tr, emu_valid_report *rep)
{
	const emu_buffer *b = &v->p->bufs[pt->buf];
	size_t wrote = 0, sent = 0;
	uint64_t we = 0, se = 0;
	for (size_t i = 0; i < tr->nw; i++)
		for (unsigned k = 0; k < 64; k++) {
			if (!(tr->w[i].diff >> k & 1))
				continue;
			size_t c = tr->last[i * 64 + k] & ~BY_STRM;
			const bool by_strm = tr->last[i * 64 + k] & BY_STRM;
			const emu_cmd *ec = c ? &v->p->cmds[c - 1] : NULL;
			if (by_strm) {
				if (c > rep->window && (!wrote || c < wrote)) {
					wrote = c;
					we = tr->w[i].e;
					rep->guilty_strm = true;
				}
				continue;
			}
			/* a bit a sync delivered: the move that sent it */
			if (ec && ec->kind == EMU_CMD_MOVE && ec->mv.kind == EMU_MOVE_SYNC) {
				const size_t s = sender(v->p, c - 1, b, tr->w[i].e, k);
				c = s ? s : c;
			}
			if (c > rep->window && (!wrote || c < wrote ||
						(c == wrote && rep->guilty_strm))) {
				wrote = c;
				we = tr->w[i].e;
				rep->guilty_strm = false;
			}
			const size_t f = c > rep->window ? 0 : sender(v->p, pt->at, b, tr->w[i].e, k);
			if (f && (!sent || f < sent)) {
				sent = f;
				se = tr->w[i].e;
			}
		}
	rep->cause = wrote ? EMU_VALID_WROTE : sent ? EMU_VALID_IN_FLIGHT : EMU_VALID_UNWRITTEN;
	rep->guilty = wrote ? wrote : sent;
	rep->guilty_index = wrote ? we : se;
	rep->guilty_line = rep->guilty ? v->p->cmds[rep->guilty - 1].line : 0;
}

static int bisect(const emu_valid *v, const point *pt, const wrong *w, size_t nw,
		  emu_valid_report *rep, diag *d)
{
	const emu_buffer *b = &v->p->bufs[pt->buf];
	trail tr = {w, nw, calloc(nw * 64, sizeof(uint32_t)), calloc(nw, sizeof(uint64_t)),
		    calloc(b->length, sizeof(uint64_t))};
	int rc = -1;
	/* The window: the commands after the previous check point. */
	rep->window = 0;
	for (size_t i = 0; i < v->npts; i++)
		if (v->pts[i].at < pt->at && v->pts[i].at > rep->window)
			rep->window = v->pts[i].at;
	if (!tr.last || !tr.now)
		diag_file(d, v->p->path, "out of memory");
	else if ((rc = rerun(v, pt, &tr, rep, d)) == 0)
		judge(v, pt, &tr, rep);
	free(tr.last);
	free(tr.now);
	free(tr.all);
	return rc;
}

/* ---- the report ---- */

/* Append to buf (size bytes, *n used so far), cutting what does not fit. */
static void append(char *buf, size_t size, size_t *n, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void append(char *buf, size_t size, size_t *n, const char *fmt, ...)
{
	va_list ap;
	if (*n >= size)
		return;
	va_start(ap, fmt);
	const int k = vsnprintf(buf + *n, size - *n, fmt, ap);
	va_end(ap);
	*n = k < 0 ? size : *n + (size_t)k;
}

/* "STREAM:LINE", or "STREAM" for a line not known (a binary stream). */
static void place(const emu_program *p, int line, char *buf, size_t size)
{
	if (line > 0)
		snprintf(buf, size, "%s:%d", p->path, line);
	else
		snprintf(buf, size, "%s", p->path);
}

/* "command N (STREAM:LINE: TEXT)" */
static void cmd_text(const emu_program *p, size_t c, char *buf, size_t size)
{
	char t[512], at[1100];
	size_t n = 0;
	emu_format_cmd(p, &p->cmds[c - 1], t, sizeof t);
	place(p, p->cmds[c - 1].line, at, sizeof at);
	append(buf, size, &n, "command %zu (%s: %s)", c, at, t);
}

/* The note line: what the bisection found. */
static void note_text(const emu_valid *v, const point *pt, const emu_valid_report *rep,
		      char *buf, size_t size)
{
	const emu_buffer *b = &v->p->bufs[pt->buf];
	char cmd[700], el[EMU_NAME_MAX + 96], other[900] = "";
	if (rep->guilty)
		cmd_text(v->p, rep->guilty, cmd, sizeof cmd);
	emu_report_element_name(b, rep->cause == EMU_VALID_UNWRITTEN ? rep->mm.index
								      : rep->guilty_index, el, sizeof el);
	const point *sp = rep->guilty_strm ? strm_at(v, pt, rep->guilty) : NULL;
	if (rep->cause == EMU_VALID_WROTE && sp) {
		char at[1100];
		place(v->p, sp->line, at, sizeof at);
		const int k = snprintf(buf, size, "the first to write a wrong bit into it is the "
				       "near-memory stream of strm node '%s' (%s), run after ",
				       v->t->nodes[sp->node].name, at);
		if (k > 0 && (size_t)k < size)
			snprintf(buf + k, size - (size_t)k, "%s, into %s", cmd, el);
		return;
	}
	if (rep->cause == EMU_VALID_WROTE) {
		snprintf(buf, size, "the first command that wrote a wrong bit into it is %s, into "
			 "%s", cmd, el);
		return;
	}
	if (rep->cause == EMU_VALID_IN_FLIGHT) {
		snprintf(buf, size, "its wrong bits are in flight: %s sent %s's bits to another bank, "
			 "and no sync delivered them before the check point", cmd, el);
		return;
	}
	if (rep->elsewhere) {
		char oel[EMU_NAME_MAX + 96];
		cmd_text(v->p, rep->elsewhere, cmd, sizeof cmd);
		emu_report_element_name(b, rep->elsewhere_index, oel, sizeof oel);
		snprintf(other, sizeof other, "; %s wrote %s, outside the node's domain", cmd, oel);
	}
	if (rep->window < pt->at)
		snprintf(buf, size, "no command of its window (commands %zu..%zu, after the previous "
			 "check point) wrote the wrong bits of %s: a command that should write them "
			 "is missing, or writes elsewhere%s", rep->window + 1, pt->at, el, other);
	else
		snprintf(buf, size, "no command ran between the previous check point and this one, "
			 "so %s holds what was there before", el);
}

static void report(const emu_valid *v, const point *pt, emu_valid_report *rep)
{
	const emu_tnode *x = &v->t->nodes[pt->node];
	char what[1024], note[1600];
	size_t n = 0;
	emu_report_mismatch_text(what, sizeof what, &rep->mm);
	note_text(v, pt, rep, note, sizeof note);
	char at[1100];
	place(v->p, pt->line, at, sizeof at);
	char run[300] = "", lb[EMU_NAME_MAX + 8];
	if (v->t->program) {
		memcpy(run, ", in ", 6);
		run_text(v, pt->node, run + 5, sizeof run - 5);
	}
	if (!pt->end)
		append(rep->text, sizeof rep->text, &n, "%s: error: node '%s' (%s:%d)%s, at its "
		       "marker after command %zu,", at, x->name, v->t->path, x->line, run, pt->at);
	else
		append(rep->text, sizeof rep->text, &n, "%s: error: %s '%s' (%s:%d)%s, at the "
		       "end of the stream (after command %zu),", at,
		       x->kind == EMU_TN_STORE ? "the last store" : "output",
		       emu_tnode_label(v->t, x, lb, sizeof lb), v->t->path, x->line, run, pt->at);
	append(rep->text, sizeof rep->text, &n, " does not hold what the tDFG means: %s\n", what);
	place(v->p, rep->guilty ? rep->guilty_line : pt->line, at, sizeof at);
	append(rep->text, sizeof rep->text, &n, "%s: note: %s\n", at, note);
	if (n >= sizeof rep->text) /* keep the last line's newline */
		memcpy(rep->text + sizeof rep->text - 2, "\n", 2);
}

int emu_valid_at(emu_valid *v, const emu_machine *em, emu_valid_report *rep, diag *d)
{
	if (em->upc)
		return 1;
	for (; v->next < v->npts && v->pts[v->next].at <= em->pc; v->next++) {
		const point *pt = &v->pts[v->next];
		wrong *w = malloc(TRACK_MAX * sizeof *w);
		if (!w) {
			diag_file(d, v->p->path, "out of memory");
			return -1;
		}
		memset(rep, 0, sizeof *rep);
		const size_t nw = compare(v, em, pt, w, &rep->mm, d);
		int rc = nw == SIZE_MAX ? -1 : 1;
		if (nw && nw != SIZE_MAX) {
			rep->node = pt->node;
			rep->at = pt->at;
			rep->mark_line = pt->line;
			rc = bisect(v, pt, w, nw, rep, d) < 0 ? -1 : 0;
			if (rc == 0)
				report(v, pt, rep);
		}
		free(w);
		if (rc <= 0)
			return rc;
	}
	return 1;
}

/* ---- the whole run ---- */

int emu_valid_run(emu_tdfg *t, const emu_program *p, emu_valid_report *rep, diag *d)
{
	emu_valid *v = emu_valid_new(t, p, d);
	emu_machine *em = v && emu_valid_load_arrays(v, d) == 0 ? restart(v, d) : NULL;
	emu_strm_stats st;
	memset(&st, 0, sizeof st);
	int rc = em && emu_valid_strm(v, em, NULL, &st, d) == 0 ? emu_valid_at(v, em, rep, d) : -1;
	while (rc == 1 && !emu_done(em))
		rc = emu_run_cmd(em, d) < 0 || emu_valid_strm(v, em, NULL, &st, d) < 0
			     ? -1 : emu_valid_at(v, em, rep, d);
	emu_strm_lot_free(&st.lot);
	emu_machine_free(em);
	emu_valid_free(v);
	return rc == 1 ? 0 : rc == 0 ? 1 : -1;
}

int emu_valid_files(const char *stream, const char *tdfg, emu_valid_report *rep, diag *d)
{
	emu_program p;
	emu_tdfg t;
	emu_tdfg_init(&t);
	int rc = emu_load_file(stream, NULL, &p, d) < 0 || emu_program_lower(&p, d) < 0 ? -1 : 0;
	if (rc == 0) {
		emu_geom_override ov;
		emu_geom_override_init(&ov);
		ov.g = p.geom;
		ov.keys = ~0u; /* the tDFG on the stream's machine */
		rc = emu_tdfg_parse_file(tdfg, &p.geom, &ov, &t, d);
		if (rc == 0)
			rc = emu_valid_run(&t, &p, rep, d);
		emu_program_free(&p);
	}
	emu_tdfg_free(&t);
	return rc;
}
