/* SPDX-License-Identifier: MIT */
/*
 * validate.c: a stream checked node by node against its tDFG; see
 * validate.h and doc/TDFG.md, "Validating a stream".
 *
 * The comparison reads the node's tensor through the checks' port and
 * the tDFG's value from emu_tref (plain C, no micro-op).  A marker is
 * bound to the instance it holds when it is compared (bind.c says which
 * it may hold).  The end of the stream compares the outputs, the inputs
 * left as they were, every array over its whole lattice, and the cells
 * written outside every node (end.c).  The bisection (bisect.c) runs the
 * stream again on a machine of its own, so the run being checked (and a
 * debugger's position) is left as it was.
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
#include "valid_private.h"

void emu_valid_fmt(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, size, fmt, ap);
	va_end(ap);
}

void emu_valid_warnf(emu_valid *v, const char *fmt, ...)
{
	char (*nw)[EMU_VALID_WARN_TEXT] = realloc(v->warn, (v->nwarn + 1) * sizeof *nw);
	if (!nw)
		return; /* a warning lost to a full memory is not an error */
	v->warn = nw;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(v->warn[v->nwarn++], EMU_VALID_WARN_TEXT, fmt, ap);
	va_end(ap);
}

/* ---- the end's check points ---- */

/* The tensor that holds node n at the end: its last marker's, or the
 * tensor of its name; -1 if none. */
static int final_tensor(const emu_valid *v, size_t n)
{
	int bi = -1;
	for (size_t i = 0; i < v->npts; i++)
		if (v->pts[i].kind == PT_MARK && v->pts[i].ncand &&
		    strcmp(v->t->nodes[n].name, v->p->marks[v->pts[i].mark].name) == 0)
			bi = v->pts[i].buf;
	for (size_t b = 0; bi < 0 && b < v->p->nbufs; b++)
		if (strcmp(v->p->bufs[b].name, v->t->nodes[n].name) == 0)
			bi = (int)b;
	return bi;
}

static int tensor_fits(const emu_valid *v, size_t n, int bi, diag *d)
{
	const emu_tnode *x = &v->t->nodes[n];
	const emu_buffer *b = &v->p->bufs[bi];
	if (!emu_valid_holds(v, n, bi)) {
		char nt[16], bt[16];
		diag_at(d, v->p->path, b->line, 0, "node '%s' (%s:%d) is %s, but tensor '%s' that "
			"holds it at the end is %s or of other sizes; the tensor that holds a node "
			"must have its element type and its region's sizes", x->name, v->t->path,
			x->line, isa_type_name(x->fmt, x->width, x->is_signed, nt, sizeof nt), b->name,
			emu_buffer_type(b, bt, sizeof bt));
		return -1;
	}
	return 0;
}

static int push_end(emu_valid *v, uint8_t kind, size_t n, size_t a, int bi, diag *d)
{
	const point pt = {.kind = kind, .node = n, .array = a, .buf = bi, .at = v->p->ncmds,
			  .resolved = true};
	if (emu_valid_push(v, &pt)) {
		diag_file(d, v->p->path, "out of memory");
		return -1;
	}
	return 0;
}

/* Is some marker bound to tensor bi for another node than n? */
static bool other_marker(const emu_valid *v, int bi, size_t n)
{
	for (size_t i = 0; i < v->npts; i++)
		if (v->pts[i].kind == PT_MARK && v->pts[i].buf == bi &&
		    strcmp(v->p->marks[v->pts[i].mark].name, v->t->nodes[n].name) != 0)
			return true;
	return false;
}

/* Every output once more at the end, in node order; in a program, the
 * instance of its last run.  A single region's inputs: left as they
 * were (unless the stream gave their tensor to another node).  A
 * program's arrays: their whole lattice as the program leaves it.
 * Then the stray writes. */
static int bind_end(emu_valid *v, diag *d)
{
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
	for (size_t n = 0; rc == 0 && n < t->nnodes; n++) {
		const emu_tnode *x = &t->nodes[n];
		if (!x->output || !last[n])
			continue;
		const int bi = final_tensor(v, n);
		if (bi < 0) {
			diag_at(d, t->path, x->line, x->col, "output '%s': the stream %s has no "
				"marker 'node %s' and no tensor of that name, so nothing says what "
				"holds it", x->name, v->p->path, x->name);
			rc = -1;
		} else {
			rc = tensor_fits(v, n, bi, d) || push_end(v, PT_OUTPUT, n, 0, bi, d) ? -1 : 0;
		}
	}
	/* an input whose tensor of its name is another's is not compared */
	for (size_t n = 0; rc == 0 && !t->program && n < t->nnodes; n++) {
		const int bi = t->nodes[n].kind == EMU_TN_INPUT ? final_tensor(v, n) : -1;
		if (bi < 0 || t->nodes[n].output || other_marker(v, bi, n))
			continue;
		if (emu_valid_holds(v, n, bi))
			rc = push_end(v, PT_INPUT, n, 0, bi, d);
	}
	for (size_t a = 0; rc == 0 && t->program && a < t->narrays; a++) {
		const emu_tarray *ar = &t->arrays[a];
		int bi = -1;
		for (size_t b = 0; bi < 0 && b < v->p->nbufs; b++)
			if (strcmp(v->p->bufs[b].name, ar->name) == 0)
				bi = (int)b;
		const emu_buffer *b = bi >= 0 ? &v->p->bufs[bi] : NULL;
		bool same = b && b->fmt == ar->fmt && b->width == ar->width &&
			    b->is_signed == ar->is_signed && b->ndims == ar->ndims;
		for (unsigned k = 0; same && k < ar->ndims; k++)
			same = b->shape[k] == ar->shape[k];
		if (!same) {
			char at[16];
			diag_at(d, t->path, ar->line, ar->col, "array '%s' (%s %" PRIu64 "x%" PRIu64
				"x%" PRIu64 "): the stream %s has %s, so nothing holds it; a program's "
				"array is held by the stream's tensor of its name", ar->name,
				isa_type_name(ar->fmt, ar->width, ar->is_signed, at, sizeof at),
				ar->shape[0], ar->shape[1], ar->shape[2], v->p->path, b ?
				"a tensor of that name of another type or sizes" : "no tensor of that name");
			rc = -1;
		} else {
			rc = push_end(v, PT_ARRAY, SIZE_MAX, a, bi, d);
		}
	}
	if (rc == 0)
		rc = push_end(v, PT_STRAY, SIZE_MAX, 0, -1, d);
	free(seen);
	free(last);
	return rc;
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
	v->prev = malloc((t->nnodes ? t->nnodes : 1) * sizeof *v->prev);
	v->prev_hash = calloc(t->nnodes ? t->nnodes : 1, sizeof *v->prev_hash);
	v->prev_pt = calloc(t->nnodes ? t->nnodes : 1, sizeof *v->prev_pt);
	int rc = v->prev && v->prev_hash && v->prev_pt ? inits(t, d) : -1;
	if (rc && !d->set)
		diag_file(d, p->path, "out of memory");
	for (size_t n = 0; rc == 0 && n < t->nnodes; n++)
		v->prev[n] = SIZE_MAX;
	if (rc == 0 && (emu_valid_bind_marks(v, d) || bind_end(v, d) ||
			emu_valid_order_runs(v, d)))
		rc = -1;
	if (rc == 0 && !(v->ref_end = emu_tref_new(t, d)))
		rc = -1;
	if (rc == 0)
		v->ref = v->perm ? emu_tref_new(&v->rt, d) : v->ref_end;
	if (rc == 0 && !v->ref)
		rc = -1;
	if (rc == 0) /* coverage: a node whose value is an operand's */
		emu_tref_watch_echo(v->ref);
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
	if (v->ref != v->ref_end)
		emu_tref_free(v->ref);
	emu_tref_free(v->ref_end);
	emu_tref_free(v->peek);
	if (v->perm) {
		free(v->rt.regions);
		free(v->rt.nodes);
		free(v->perm);
	}
	for (size_t i = 0; i < v->nloads; i++)
		free(v->loads[i].v);
	free(v->loads);
	free(v->pts);
	free(v->cand);
	free(v->named);
	free(v->prev);
	free(v->prev_hash);
	free(v->prev_pt);
	free(v->warn);
	free(v);
}

/* Data for tensor b (an input's, or an array's first data) into
 * reference r, whose nodes are t's when perm is false, rt's if true. */
static int load_into(const emu_valid *v, emu_tref *r, bool perm, const emu_buffer *b,
		     const uint64_t *values, diag *d)
{
	const int bi = (int)(b - v->p->bufs);
	for (size_t n = 0; n < v->t->nnodes; n++)
		if (v->t->nodes[n].kind == EMU_TN_INPUT && final_tensor(v, n) == bi &&
		    emu_tref_input(r, perm ? emu_valid_rn(v, n) : n, values, b->length, d) < 0)
			return -1;
	for (size_t a = 0; a < v->t->narrays; a++)
		if (strcmp(v->t->arrays[a].name, b->name) == 0 &&
		    emu_tref_array_input(r, a, values, b->length, d) < 0)
			return -1;
	return 0;
}

/* The check points' reference, again, for a look ahead that leaves the
 * first where it is (resolve): made on first use, with the data given
 * so far.  NULL when out of memory. */
static emu_tref *peek_ref(emu_valid *v, diag *d)
{
	if (v->peek)
		return v->peek;
	emu_tref *r = emu_tref_new(v->perm ? &v->rt : v->t, d);
	for (size_t i = 0; r && i < v->nloads; i++)
		if (load_into(v, r, v->perm != NULL, v->loads[i].b, v->loads[i].v, d) < 0) {
			emu_tref_free(r);
			r = NULL;
		}
	return v->peek = r;
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
	size_t i = 0;
	while (i < v->nloads && v->loads[i].b != b)
		i++;
	if (i < v->nloads) { /* given again: the last data win */
		free(v->loads[i].v);
		v->loads[i].v = copy;
	} else {
		v->loads[v->nloads++] = (loaded){b, copy};
	}
	if (load_into(v, v->ref_end, false, b, values, d) < 0 ||
	    (v->ref != v->ref_end && load_into(v, v->ref, true, b, values, d) < 0) ||
	    (v->peek && load_into(v, v->peek, v->perm != NULL, b, values, d) < 0))
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
	/* the markers of each name before pc, as resolved or guessed */
	for (size_t n = 0; n < v->t->nnodes; n++)
		v->prev[n] = SIZE_MAX;
	for (size_t i = 0; i < v->next; i++)
		if (v->pts[i].kind == PT_MARK) {
			v->prev[v->pts[i].name] = v->pts[i].node;
			v->prev_hash[v->pts[i].name] = v->pts[i].hash;
			v->prev_pt[v->pts[i].name] = i;
		}
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

size_t emu_valid_warnings(const emu_valid *v)
{
	return v->nwarn;
}

const char *emu_valid_warning(const emu_valid *v, size_t i)
{
	return i < v->nwarn ? v->warn[i] : NULL;
}

/* ---- comparing ---- */

static inline uint64_t mix(uint64_t h, uint64_t x)
{
	h ^= x + 0x9e3779b97f4a7c15u + (h << 6) + (h >> 2);
	h *= 0xbf58476d1ce4e5b9u;
	return h ^ h >> 31;
}

/* The hash of node n's domain in cells (the tensor's elements). */
static uint64_t domain_hash(const emu_valid *v, size_t n, const uint64_t *cells)
{
	const emu_tnode *x = &v->t->nodes[n];
	const uint64_t *S = v->t->regions[x->region].shape;
	const emu_box *dm = &x->dom;
	uint64_t h = 0x243f6a8885a308d3u;
	for (uint64_t i2 = dm->lo[2]; i2 < dm->hi[2]; i2++)
		for (uint64_t i1 = dm->lo[1]; i1 < dm->hi[1]; i1++)
			for (uint64_t i0 = dm->lo[0]; i0 < dm->hi[0]; i0++)
				h = mix(h, cells[i0 + S[0] * (i1 + S[1] * i2)]);
	return h;
}

/* Node n's domain in cells (buffer b) against reference r's node rn:
 * the wrong elements (the first TRACK_MAX) into w (may be NULL), their
 * number returned, mm the first; *zero when every value is 0, *hash the
 * domain's cells (domain_hash) when every element agrees.  SIZE_MAX
 * with d set when the reference ran out of memory. */
static size_t compare_node(const emu_valid *v, emu_tref *r, size_t n, size_t rn,
			   const emu_buffer *b, const uint64_t *cells, emu_valid_wrong *w,
			   emu_mismatch *mm, bool *zero, uint64_t *hash, diag *d)
{
	const emu_tnode *x = &v->t->nodes[n];
	const uint64_t *S = v->t->regions[x->region].shape;
	emu_tref_run(r, rn);
	if (!emu_tref_kept(r, rn)) {
		diag_file(d, v->p->path, "out of memory for the tDFG's reference");
		return SIZE_MAX;
	}
	const emu_box *dm = &x->dom;
	const uint64_t len = dm->hi[0] > dm->lo[0] ? dm->hi[0] - dm->lo[0] : 0;
	uint64_t *row = malloc((len ? len : 1) * sizeof *row);
	if (!row) {
		diag_file(d, v->p->path, "out of memory");
		return SIZE_MAX;
	}
	size_t nw = 0;
	bool z = true;
	uint64_t h = 0x243f6a8885a308d3u;
	for (uint64_t i2 = dm->lo[2]; i2 < dm->hi[2]; i2++)
		for (uint64_t i1 = dm->lo[1]; i1 < dm->hi[1]; i1++) {
			const uint64_t e0 = dm->lo[0] + S[0] * (i1 + S[1] * i2);
			if (!emu_tref_row(r, rn, dm->lo[0], i1, i2, len, row))
				for (uint64_t k = 0; k < len; k++)
					row[k] = emu_tref_value(r, rn, e0 + k);
			for (uint64_t k = 0; k < len; k++) {
				const uint64_t want = row[k], got = cells[e0 + k];
				z &= want == 0;
				h = mix(h, got);
				if (got == want)
					continue;
				if (nw == 0)
					*mm = (emu_mismatch){b, e0 + k, want, got};
				if (w && nw < TRACK_MAX)
					w[nw] = (emu_valid_wrong){e0 + k, (want ^ got) & isa_mask(b->width),
								  got};
				nw++;
				if (!w) { /* a candidate that does not hold: enough */
					free(row);
					return nw;
				}
			}
		}
	free(row);
	*zero = z;
	if (hash)
		*hash = h;
	return nw < TRACK_MAX ? nw : TRACK_MAX;
}

/* An array's whole lattice against what the program leaves in it. */
static size_t compare_array(const emu_valid *v, size_t a, const emu_buffer *b,
			    const uint64_t *cells, emu_valid_wrong *w, emu_mismatch *mm, diag *d)
{
	const emu_tdfg *t = v->t;
	if (t->nnodes) {
		emu_tref_run(v->ref_end, t->nnodes - 1);
		if (!emu_tref_kept(v->ref_end, t->nnodes - 1) &&
		    t->nodes[t->nnodes - 1].kind != EMU_TN_STORE) {
			diag_file(d, v->p->path, "out of memory for the tDFG's reference");
			return SIZE_MAX;
		}
	}
	size_t nw = 0;
	for (uint64_t e = 0; e < b->length; e++) {
		const uint64_t want = emu_tref_array_value(v->ref_end, a, e);
		if (cells[e] == want)
			continue;
		if (nw == 0)
			*mm = (emu_mismatch){b, e, want, cells[e]};
		if (nw < TRACK_MAX)
			w[nw] = (emu_valid_wrong){e, (want ^ cells[e]) & isa_mask(b->width), cells[e]};
		nw++;
	}
	return nw < TRACK_MAX ? nw : TRACK_MAX;
}

/* Which instance marker pt holds: the one its name's previous marker
 * held if the tensor still holds that value, else the earliest later
 * candidate whose value it holds (bind.c).  1 when one holds (pt bound
 * to it), 0 when none does (pt bound to the one expected: the first
 * candidate after the previous marker's), SIZE_MAX-free -1 with d. */
static int resolve(emu_valid *v, point *pt, const emu_buffer *b, const uint64_t *cells, diag *d)
{
	const size_t before = v->prev[pt->name];
	const bool sel = v->p->marks[pt->mark].nsel != 0;
	const size_t after = emu_valid_cand_after(v, pt, before);
	emu_mismatch mm;
	bool zero;
	/* Marked again: the tensor still holds what the name's previous
	 * marker held, and is another tensor than that marker's (a copy) or
	 * was not written since (a tensor written since holds a new value,
	 * whatever cells its old one left alone). */
	const point *q = before != SIZE_MAX ? &v->pts[v->prev_pt[pt->name]] : NULL;
	if (q && after > 0 && emu_valid_cand(v, pt, after - 1) == before &&
	    domain_hash(v, before, cells) == v->prev_hash[pt->name] &&
	    (q->buf != pt->buf || !emu_valid_written(v, b, q->at, pt->at))) {
		/* unless the next instance holds too: looked at in a reference
		 * of its own, so that the first stays in this run */
		size_t c = after < pt->ncand ? emu_valid_cand(v, pt, after) : SIZE_MAX;
		emu_tref *pk = c != SIZE_MAX ? peek_ref(v, d) : NULL;
		if (c != SIZE_MAX && !pk)
			return -1;
		const size_t nw = pk ? compare_node(v, pk, c, emu_valid_rn(v, c), b, cells, NULL, &mm,
						    &zero, NULL, d) : 1;
		if (nw == SIZE_MAX)
			return -1;
		pt->node = nw == 0 ? c : before;
		return 1;
	}
	/* with selectors every instance they allow (a stream that reorders
	 * runs names them), else those after the previous marker's; the
	 * one expected is the first after it */
	size_t expect = after < pt->ncand ? emu_valid_cand(v, pt, after)
			: sel ? emu_valid_cand(v, pt, 0) : SIZE_MAX;
	size_t tried = 0;
	for (size_t k = sel ? 0 : after; k < pt->ncand && tried < 256; k++) {
		const size_t c = emu_valid_cand(v, pt, k);
		const size_t nw = compare_node(v, v->ref, c, emu_valid_rn(v, c), b, cells, NULL, &mm,
					       &zero, NULL, d);
		if (nw == SIZE_MAX)
			return -1;
		tried++;
		if (nw == 0) {
			pt->node = c;
			return 1;
		}
	}
	pt->node = expect != SIZE_MAX ? expect : before != SIZE_MAX ? before
				       : emu_valid_cand(v, pt, pt->ncand - 1);
	return 0;
}

/* Point pt against the machine's cells.  The number of wrong elements
 * into w (mm the first), or SIZE_MAX with d set. */
static size_t compare_point(emu_valid *v, point *pt, const emu_machine *em, emu_valid_wrong *w,
			    emu_mismatch *mm, diag *d)
{
	const emu_buffer *b = &v->p->bufs[pt->buf];
	uint64_t *cells = malloc((b->length ? b->length : 1) * sizeof *cells);
	if (!cells) {
		diag_file(d, v->p->path, "out of memory");
		return SIZE_MAX;
	}
	emu_buffer_read(em, b, cells);
	size_t nw = 0;
	if (pt->kind == PT_ARRAY) {
		nw = compare_array(v, pt->array, b, cells, w, mm, d);
		free(cells);
		return nw;
	}
	if (pt->kind == PT_MARK && !pt->resolved && resolve(v, pt, b, cells, d) < 0) {
		free(cells);
		return SIZE_MAX;
	}
	emu_tref *r = pt->kind == PT_MARK ? v->ref : v->ref_end;
	const size_t rn = pt->kind == PT_MARK ? emu_valid_rn(v, pt->node) : pt->node;
	bool zero = false;
	uint64_t hash = 0;
	nw = compare_node(v, r, pt->node, rn, b, cells, w, mm, &zero, &hash, d);
	pt->zero = zero;
	if (pt->kind == PT_MARK && nw == 0) {
		pt->hash = hash;
		pt->same = emu_tref_echo(r, rn);
		pt->resolved = true;
		v->prev[pt->name] = pt->node;
		v->prev_hash[pt->name] = pt->hash;
		v->prev_pt[pt->name] = (size_t)(pt - v->pts);
	}
	free(cells);
	return nw;
}

/* ---- coverage warnings, once the whole stream has held ---- */

static void coverage(emu_valid *v)
{
	const emu_tdfg *t = v->t;
	size_t marks = 0;
	if (v->warned)
		return;
	v->warned = true;
	for (size_t i = 0; i < v->npts; i++)
		marks += v->pts[i].kind == PT_MARK;
	if (!marks)
		emu_valid_warnf(v, "the stream has no node markers, so only the end of the stream "
				"was compared (%zu check point%s); a wrong node that later nodes "
				"hide is not seen; mark each node (doc/TDFG.md, \"The binding\")",
				v->npts - 1, v->npts == 2 ? "" : "s");
	/* per node as written: checked at all, and ever telling */
	const size_t nt = t->program ? t->ntnodes : t->nnodes;
	uint8_t *st = calloc(nt ? nt : 1, 1); /* 1 checked, 2 telling */
	if (!st)
		return;
	for (size_t i = 0; i < v->npts; i++) {
		const point *pt = &v->pts[i];
		if (pt->kind != PT_MARK && pt->kind != PT_OUTPUT)
			continue;
		const size_t k = t->program ? t->nodes[pt->node].tmpl : pt->node;
		if (k >= nt)
			continue;
		st[k] |= 1;
		if (!pt->zero && !pt->same)
			st[k] |= 2;
	}
	char list[400] = "", zl[400] = "";
	size_t nun = 0, nz = 0;
	for (size_t k = 0; k < nt; k++) {
		const emu_tnode *x = t->program ? &t->tnodes[k] : &t->nodes[k];
		if (x->kind == EMU_TN_STORE || x->kind == EMU_TN_INPUT || x->kind == EMU_TN_TENSOR)
			continue;
		char *l = !(st[k] & 1) ? list : !(st[k] & 2) ? zl : NULL;
		size_t *c = !(st[k] & 1) ? &nun : &nz;
		if (!l)
			continue;
		const size_t o = strlen(l);
		if (o + strlen(x->name) + 16 < sizeof list)
			snprintf(l + o, sizeof list - o, "%s'%s' (line %d)", *c ? ", " : "", x->name,
				 x->line);
		(*c)++;
	}
	free(st);
	if (marks && nun)
		emu_valid_warnf(v, "%zu node%s of %s %s never checked: %s; no marker holds %s",
				nun, nun == 1 ? "" : "s", t->path, nun == 1 ? "is" : "are", list,
				nun == 1 ? "it" : "them");
	if (nz)
		emu_valid_warnf(v, "the check of %zu node%s is vacuous: %s; every value compared "
				"was 0, or the node's value is one of its operands', so a missing or "
				"wrong command there is not seen; validate on other data "
				"(--inputs=random,edge)", nz, nz == 1 ? "" : "s", zl);
}

/* ---- the report ---- */

int emu_valid_at(emu_valid *v, const emu_machine *em, emu_valid_report *rep, diag *d)
{
	if (em->upc)
		return 1;
	for (; v->next < v->npts && v->pts[v->next].at <= em->pc; v->next++) {
		point *pt = &v->pts[v->next];
		memset(rep, 0, sizeof *rep);
		if (pt->kind == PT_STRAY) {
			const int rc = emu_valid_stray(v, em, pt, rep, d);
			if (rc <= 0)
				return rc;
			coverage(v);
			continue;
		}
		emu_valid_wrong *w = malloc(TRACK_MAX * sizeof *w);
		if (!w) {
			diag_file(d, v->p->path, "out of memory");
			return -1;
		}
		const size_t nw = compare_point(v, pt, em, w, &rep->mm, d);
		int rc = nw == SIZE_MAX ? -1 : 1;
		if (nw && nw != SIZE_MAX) {
			rep->node = pt->node;
			rep->at = pt->at;
			rep->mark_line = pt->line;
			rc = emu_valid_bisect(v, pt, w, nw, rep, d) < 0 ? -1 : 0;
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
	const int rc = v && emu_valid_load_arrays(v, d) == 0 ? emu_valid_drive(v, rep, d) : -1;
	emu_valid_free(v);
	return rc;
}

int emu_valid_drive(emu_valid *v, emu_valid_report *rep, diag *d)
{
	/* from the start: the markers bound by value are bound again */
	for (size_t i = 0; i < v->npts; i++) {
		point *pt = &v->pts[i];
		if (pt->kind == PT_MARK && !(pt->strm || pt->ncand == 1))
			pt->resolved = false;
	}
	v->nwarn = 0;
	v->warned = false;
	emu_valid_seek(v, 0);
	emu_machine *em = emu_valid_restart(v, d);
	emu_strm_stats st;
	memset(&st, 0, sizeof st);
	int rc = em && emu_valid_strm(v, em, NULL, &st, d) == 0 ? emu_valid_at(v, em, rep, d) : -1;
	while (rc == 1 && !emu_done(em))
		rc = emu_run_cmd(em, d) < 0 || emu_valid_strm(v, em, NULL, &st, d) < 0
			     ? -1 : emu_valid_at(v, em, rep, d);
	emu_strm_lot_free(&st.lot);
	emu_machine_free(em);
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
