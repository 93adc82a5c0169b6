/* SPDX-License-Identifier: MIT */
/*
 * end.c: what the stream leaves outside its nodes (doc/TDFG.md, "Stray
 * writes"), and the generated input sets (--inputs).
 *
 * A tensor cell is the stream's to write where a node it bound the
 * tensor to (a marker, an output, an input) has it in its domain, or
 * where a `scratch` tensor, or another tensor of the same layout on the
 * same wordlines (a `shared` alias), holds it so.  An array's tensor is
 * compared whole at the end instead.  Every other cell must end as it
 * started: one that changed is a stray write, named with the commands
 * that wrote it.  A tensor that shares wordlines with one of another
 * layout is not judged: which cell is which element is then the
 * stream's own business.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "valid_private.h"

static bool same_layout(const emu_buffer *a, const emu_buffer *b)
{
	if (a->ndims != b->ndims || a->arrays.start != b->arrays.start)
		return false;
	for (unsigned k = 0; k < 3; k++)
		if (a->shape[k] != b->shape[k] || a->tile[k] != b->tile[k])
			return false;
	return true;
}

static bool rows_overlap(const emu_program *p, const emu_buffer *a, const emu_buffer *b)
{
	const unsigned ra = emu_buffer_rows(a, &p->geom), rb = emu_buffer_rows(b, &p->geom);
	return a->wl < b->wl + rb && b->wl < a->wl + ra;
}

static bool is_array(const emu_valid *v, const emu_buffer *b)
{
	for (size_t a = 0; v->t->program && a < v->t->narrays; a++)
		if (strcmp(v->t->arrays[a].name, b->name) == 0)
			return true;
	return false;
}

/* The boxes node n's lowering may write in its tensor: its domain; for
 * a reduce, its operand's too (the working space of its halving steps);
 * for a shift, its operand's moved by the offset (a node whose domain a
 * window narrows is still moved whole); for a bcast, its operand's
 * stretched over the whole of its dimension (a broadcast fills whole
 * tiles, whatever window the run has). */
static unsigned node_boxes(const emu_tdfg *t, size_t n, emu_box *out)
{
	const emu_tnode *x = &t->nodes[n];
	unsigned k = 0;
	out[k++] = x->dom;
	if (x->kind == EMU_TN_REDUCE && x->nargs)
		out[k++] = t->nodes[x->arg[0]].dom;
	if (x->kind == EMU_TN_SHIFT && x->nargs) { /* the move of its operand's domain */
		const emu_tregion *r = &t->regions[x->region];
		emu_box m = t->nodes[x->arg[0]].dom;
		for (unsigned q = 0; q < EMU_LAYOUT_DIMS; q++) {
			const int64_t lo = (int64_t)m.lo[q] + x->off[q], hi = (int64_t)m.hi[q] + x->off[q];
			m.lo[q] = lo < 0 ? 0 : (uint64_t)lo;
			m.hi[q] = hi < 0 ? 0 : (uint64_t)hi > r->shape[q] ? r->shape[q] : (uint64_t)hi;
		}
		out[k++] = m;
	}
	if (x->kind == EMU_TN_BCAST && x->nargs) {
		out[k] = t->nodes[x->arg[0]].dom;
		out[k].lo[x->dim] = 0;
		out[k++].hi[x->dim] = t->regions[x->region].shape[x->dim];
	}
	return k;
}

typedef struct boxes {
	emu_box *b;
	size_t n, cap;
} boxes;

static int boxes_add(boxes *s, const emu_box *b)
{
	for (size_t i = s->n; i-- > 0 && i + 64 > s->n;) /* runs repeat their boxes */
		if (!memcmp(&s->b[i], b, sizeof *b))
			return 0;
	if (s->n == s->cap) {
		const size_t cap = s->cap ? 2 * s->cap : 16;
		emu_box *nb = realloc(s->b, cap * sizeof *nb);
		if (!nb)
			return -1;
		s->b = nb;
		s->cap = cap;
	}
	s->b[s->n++] = *b;
	return 0;
}

/* The nodes bound to tensor k (its markers', the end's, the nodes of
 * its name): their boxes into s.  1 when k is scratch (all of it may be
 * written), 0, or -1 when out of memory. */
static int bound_boxes(const emu_valid *v, size_t k, boxes *s)
{
	const emu_tdfg *t = v->t;
	const emu_buffer *b = &v->p->bufs[k];
	emu_box nb[3];
	if (b->scratch)
		return 1;
	for (size_t i = 0; i < v->npts; i++) {
		const point *pt = &v->pts[i];
		if (pt->buf != (int)k || pt->kind == PT_ARRAY || pt->kind == PT_STRAY)
			continue;
		for (unsigned j = node_boxes(t, pt->node, nb); j-- > 0;)
			if (boxes_add(s, &nb[j]))
				return -1;
	}
	for (size_t n = 0; n < t->nnodes; n++) {
		if (t->nodes[n].kind == EMU_TN_STORE || strcmp(t->nodes[n].name, b->name) != 0)
			continue;
		for (unsigned j = node_boxes(t, n, nb); j-- > 0;)
			if (boxes_add(s, &nb[j]))
				return -1;
	}
	return 0;
}

/* Which elements of tensor bi the stream may write: a byte each, from
 * its own nodes' boxes and those of its aliases of the same layout on
 * its wordlines.  NULL when out of memory. */
uint8_t *emu_valid_owned(const emu_valid *v, int bi)
{
	const emu_buffer *b = &v->p->bufs[bi];
	uint8_t *own = calloc(b->length ? b->length : 1, 1);
	boxes s = {0};
	int all = 0;
	for (size_t k = 0; own && all == 0 && k < v->p->nbufs; k++)
		if ((int)k == bi || (same_layout(b, &v->p->bufs[k]) &&
				     rows_overlap(v->p, b, &v->p->bufs[k])))
			all = bound_boxes(v, k, &s);
	if (all < 0 || !own) {
		free(own);
		free(s.b);
		return NULL;
	}
	if (all)
		memset(own, 1, b->length);
	const uint64_t *S = b->shape;
	for (size_t i = 0; !all && i < s.n; i++) {
		const emu_box *x = &s.b[i];
		for (uint64_t i2 = x->lo[2]; i2 < x->hi[2] && i2 < S[2]; i2++)
			for (uint64_t i1 = x->lo[1]; i1 < x->hi[1] && i1 < S[1]; i1++)
				for (uint64_t i0 = x->lo[0]; i0 < x->hi[0] && i0 < S[0]; i0++)
					own[i0 + S[0] * (i1 + S[1] * i2)] = 1;
	}
	free(s.b);
	return own;
}

/* May tensor bi be judged: a tensor, not scratch, not an array's, and
 * not on the wordlines of a tensor of another layout? */
static int judged(const emu_valid *v, int bi)
{
	const emu_buffer *b = &v->p->bufs[bi];
	if (!b->ndims || b->scratch || is_array(v, b))
		return 0;
	for (size_t k = 0; k < v->p->nbufs; k++) {
		const emu_buffer *o = &v->p->bufs[k];
		if ((int)k != bi && rows_overlap(v->p, b, o) && !same_layout(b, o) &&
		    emu_pattern_size(&o->arrays) && emu_pattern_size(&b->arrays))
			for (uint64_t i = 0; i < emu_pattern_size(&b->arrays); i++)
				if (emu_pattern_at(&b->arrays, i) >= o->arrays.start &&
				    emu_pattern_at(&b->arrays, i) < o->arrays.start +
				    (int64_t)emu_pattern_size(&o->arrays))
					return 0;
	}
	return 1;
}

int emu_valid_stray(emu_valid *v, const emu_machine *em, const point *pt,
		    emu_valid_report *rep, diag *d)
{
	emu_machine *start = NULL;
	uint64_t *now = NULL, *was = NULL;
	uint8_t *own = NULL;
	int rc = 1;
	for (size_t k = 0; rc == 1 && k < v->p->nbufs; k++) {
		if (!judged(v, (int)k))
			continue;
		const emu_buffer *b = &v->p->bufs[k];
		if (!start && !(start = emu_valid_restart(v, d))) {
			rc = -1;
			break;
		}
		free(now);
		free(was);
		free(own);
		now = malloc((b->length ? b->length : 1) * sizeof *now);
		was = malloc((b->length ? b->length : 1) * sizeof *was);
		own = emu_valid_owned(v, (int)k);
		if (!now || !was || !own) {
			diag_file(d, v->p->path, "out of memory");
			rc = -1;
			break;
		}
		emu_buffer_read(em, b, now);
		emu_buffer_read(start, b, was);
		for (uint64_t e = 0; rc == 1 && e < b->length; e++) {
			if (now[e] == was[e] || own[e])
				continue;
			rep->cause = EMU_VALID_STRAY;
			rep->at = pt->at;
			rep->stray_buf = (int)k;
			rep->stray_index = e;
			rep->mm = (emu_mismatch){b, e, was[e], now[e]};
			if (emu_valid_writers(v, b, e, &rep->first_stray, &rep->guilty, d) < 0) {
				rc = -1;
				break;
			}
			rep->guilty_line = rep->guilty ? v->p->cmds[rep->guilty - 1].line : 0;
			/* named through the tensor the command wrote, when it is an
			 * alias on the same wordlines */
			const emu_cmd *gc = rep->guilty ? &v->p->cmds[rep->guilty - 1] : NULL;
			if (gc && gc->kind == EMU_CMD_COMPUTE && gc->buf_d >= 0 && gc->buf_d != (int)k &&
			    same_layout(b, &v->p->bufs[gc->buf_d]) && v->p->bufs[gc->buf_d].wl == b->wl) {
				b = &v->p->bufs[gc->buf_d];
				rep->stray_buf = gc->buf_d;
				rep->mm.buf = b;
			}
			char el[EMU_NAME_MAX + 96], what[1024], lc[700], fc[700] = "", at[1100];
			emu_report_element_name(b, e, el, sizeof el);
			emu_report_mismatch_text(what, sizeof what, &rep->mm);
			if (rep->guilty)
				emu_valid_cmd_text(v->p, rep->guilty, lc, sizeof lc);
			if (rep->first_stray && rep->first_stray != rep->guilty) {
				char f[700];
				emu_valid_cmd_text(v->p, rep->first_stray, f, sizeof f);
				emu_valid_fmt(fc, sizeof fc, "; the first to change it was %s", f);
			}
			if (rep->guilty_line)
				emu_valid_fmt(at, sizeof at, "%s:%d", v->p->path, rep->guilty_line);
			else
				snprintf(at, sizeof at, "%s", v->p->path);
			emu_valid_fmt(rep->text, sizeof rep->text, "%s: error: a stray write: %s, outside "
				 "every node the stream binds tensor '%s' to, changed during the stream "
				 "(%s)\n%s: note: the last command that wrote it is %s%s; declare the "
				 "tensor `scratch` if it holds the stream's own temporaries\n",
				 v->p->path, el, b->name, what, at, rep->guilty ? lc : "none (it "
				 "changed through a near-memory stream)", fc);
			if (strlen(rep->text) == sizeof rep->text - 1) /* cut: keep the newline */
				rep->text[sizeof rep->text - 2] = '\n';
			rc = 0;
		}
	}
	free(now);
	free(was);
	free(own);
	if (start)
		emu_machine_free(start);
	return rc;
}

/* ---- generated input sets ---- */

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15u);
	z = (z ^ z >> 30) * 0xbf58476d1ce4e5b9u;
	z = (z ^ z >> 27) * 0x94d049bb133111ebu;
	return z ^ z >> 31;
}

/* The edge values of b's element type into x (at most 16); their number. */
static unsigned edges(const emu_buffer *b, uint64_t *x)
{
	const unsigned w = b->width;
	const uint64_t m = isa_mask(w);
	unsigned n = 0;
	if (b->fmt == ISA_FMT_F32 || b->fmt == ISA_FMT_F16 || b->fmt == ISA_FMT_BF16) {
		const unsigned mb = b->fmt == ISA_FMT_F32 ? 23 : b->fmt == ISA_FMT_F16 ? 10 : 7;
		const unsigned eb = w - 1 - mb;
		const uint64_t sign = UINT64_C(1) << (w - 1), expo = ((UINT64_C(1) << eb) - 1) << mb;
		const uint64_t one = (((UINT64_C(1) << (eb - 1)) - 1)) << mb;
		const uint64_t v[] = {0, sign, one, one | sign, expo, expo | sign,
				      expo | UINT64_C(1) << (mb - 1), 1, (UINT64_C(1) << mb) - 1,
				      UINT64_C(1) << mb, expo - 1, (expo - 1) | sign,
				      one + (UINT64_C(1) << mb), sign | 1};
		for (unsigned k = 0; k < sizeof v / sizeof v[0]; k++)
			x[n++] = v[k] & m;
		return n;
	}
	const uint64_t top = UINT64_C(1) << (w - 1);
	const uint64_t v[] = {0, 1, m, top, top - 1, top + 1, m - 1, 2, top >> 1, 3};
	for (unsigned k = 0; k < sizeof v / sizeof v[0]; k++)
		x[n++] = v[k] & m;
	return n;
}

static int generate_into(emu_valid *v, const emu_buffer *b, emu_valid_inputs kind,
			 uint64_t seed, diag *d)
{
	uint64_t *x = malloc((b->length ? b->length : 1) * sizeof *x), ev[16];
	if (!x) {
		diag_file(d, v->p->path, "out of memory");
		return -1;
	}
	const unsigned ne = edges(b, ev);
	uint64_t s = seed * 0x2545f4914f6cdd1du ^ (uint64_t)(b - v->p->bufs) << 32;
	for (uint64_t e = 0; e < b->length; e++) {
		const uint64_t r = splitmix(&s);
		x[e] = (kind == EMU_VALID_EDGE && (r >> 60) < 12 ? ev[(r >> 32) % ne] : r) &
		       isa_mask(b->width);
	}
	const int rc = emu_valid_load(v, b, x, d);
	free(x);
	return rc;
}

int emu_valid_generate(emu_valid *v, emu_valid_inputs kind, uint64_t seed, diag *d)
{
	const emu_tdfg *t = v->t;
	for (size_t k = 0; k < v->p->nbufs; k++) {
		const emu_buffer *b = &v->p->bufs[k];
		bool input = is_array(v, b);
		for (size_t n = 0; !input && !t->program && n < t->nnodes; n++)
			input = t->nodes[n].kind == EMU_TN_INPUT && strcmp(t->nodes[n].name, b->name) == 0;
		for (size_t i = 0; !input && !t->program && i < v->npts; i++)
			input = v->pts[i].buf == (int)k && v->pts[i].kind == PT_MARK &&
				t->nodes[v->pts[i].node].kind == EMU_TN_INPUT;
		if (input && generate_into(v, b, kind, seed, d) < 0)
			return -1;
	}
	return 0;
}
