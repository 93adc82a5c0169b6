/* SPDX-License-Identifier: MIT */
/*
 * session.c: a run seen from the debugger: what each event was, every
 * cube's flow table, a flow's partial results (infsdb on .ar programs,
 * doc/ACTIVE-ROUTING.md "Debugging").
 */
#include <stdlib.h>
#include <string.h>

#include "engine_types.h"

uint64_t ar_session_computed(ar_session *ss)
{
	const ar_sim *s = ar_session_sim(ss);
	return s->st->updates_computed + s->st->assigns - s->writes_out;
}

static void value_text(ar_type t, bool has, uint64_t v, char *buf, size_t size)
{
	if (!has) {
		snprintf(buf, size, "none");
	} else if (t == AR_F32) {
		uint32_t u = (uint32_t)v;
		float f;
		memcpy(&f, &u, 4);
		snprintf(buf, size, "%.9g", (double)f);
	} else {
		snprintf(buf, size, "%lld", t == AR_I32 ? (long long)(int32_t)(uint32_t)v : (long long)v);
	}
}

static void from_text(int from, char *buf, size_t size)
{
	if (from < 0)
		snprintf(buf, size, "the host");
	else
		snprintf(buf, size, "cube %d", from);
}

static void describe_update(ar_sim *s, const ar_event *ev, const char *name, char *out, size_t n)
{
	const ar_upd *u = &s->upd[ev->a];
	char from[32];
	from_text(ev->from, from, sizeof from);
	switch (ev->kind) {
	case EV_UPDATE:
		snprintf(out, n, "cube %d receives an Update of %s (%s, thread %u, line %d) from %s",
			 ev->cube, name, ar_op_name(u->op.op), u->op.thread, u->op.s->line, from);
		break;
	case EV_OPREAD:
		snprintf(out, n, "cube %d reads %u operand element%s for %s's Update at cube %d",
			 ev->cube, ev->k, ev->k == 1 ? "" : "s", name, ev->from);
		break;
	default:
		snprintf(out, n, "cube %d receives operands of %s's Update from cube %d", ev->cube,
			 name, ev->from);
		break;
	}
}

static void describe_flow(ar_sim *s, const ar_event *ev, const char *name, char *out, size_t n)
{
	char v[48];
	value_text(s->flow[ev->a].type, ev->has, ev->value, v, sizeof v);
	switch (ev->kind) {
	case EV_GREQ:
		snprintf(out, n, "cube %d receives the Gather of %s (tree of host %u)", ev->cube,
			 name, ev->b);
		break;
	case EV_GRESP:
		snprintf(out, n, "cube %d receives %s's partial %s from cube %d (%llu Updates)",
			 ev->cube, name, v, ev->from, (unsigned long long)ev->count);
		break;
	case EV_CTRL_GRESP:
		snprintf(out, n, "host %u receives the tree of %s: %s (%llu Updates)", ev->b, name, v,
			 (unsigned long long)ev->count);
		break;
	default:
		value_text(s->flow[ev->a].type, true, ev->value, v, sizeof v);
		snprintf(out, n, "%s commits with the result %s at cube %d", name, v, ev->cube);
		break;
	}
}

/* What ev is about, as one line after "cycle N: "; its flow or
 * assignment target (false for a host event). */
static bool describe_event(ar_sim *s, const ar_event *ev, char *what, size_t n, uint64_t *target)
{
	char name[96];
	*target = 0;
	if (ev->kind == EV_HOST) {
		snprintf(what, n, "the host issues its next operation");
		return false;
	}
	bool upd = ev->kind == EV_UPDATE || ev->kind == EV_OPREAD || ev->kind == EV_OPRESP;
	*target = upd ? s->upd[ev->a].op.target : s->flow[ev->a].target;
	ar_addr_name(s->p, *target, name, sizeof name);
	if (upd)
		describe_update(s, ev, name, what, n);
	else
		describe_flow(s, ev, name, what, n);
	return true;
}

/* The statement an event comes from: its Update's, or for a flow's
 * events the Gather that closed it (else its first Update). */
static const ar_hostop *event_op(const ar_sim *s, const ar_event *ev, const ar_stmt **st)
{
	*st = NULL;
	if (ev->kind == EV_HOST) {
		*st = s->has_op ? s->op.s : NULL;
		return s->has_op ? &s->op : NULL;
	}
	if (ev->kind == EV_UPDATE || ev->kind == EV_OPREAD || ev->kind == EV_OPRESP) {
		*st = s->upd[ev->a].op.s;
		return &s->upd[ev->a].op;
	}
	const ar_flow *fl = &s->flow[ev->a];
	*st = fl->gather && ev->kind != EV_COMMIT ? fl->gather : fl->first;
	return NULL;
}

bool ar_session_next(ar_session *ss, ar_next *nx)
{
	ar_sim *s = ar_session_sim(ss);
	memset(nx, 0, sizeof *nx);
	if (!s->nheap || s->failed || ar_session_ended(ss))
		return false;
	const ar_event *ev = &s->heap[0];
	char what[320];
	const ar_stmt *st;
	const ar_hostop *op = event_op(s, ev, &st);
	nx->time = ev->time;
	nx->cube = ev->kind == EV_HOST || ev->kind == EV_CTRL_GRESP ? -1 : ev->cube;
	nx->has_target = describe_event(s, ev, what, sizeof what, &nx->target);
	nx->update = ev->kind == EV_UPDATE || ev->kind == EV_OPREAD || ev->kind == EV_OPRESP;
	nx->enters = (ev->kind == EV_UPDATE || ev->kind == EV_GREQ) && ev->from < 0;
	nx->line = st ? st->line : 0;
	nx->col = st ? st->col : 0;
	nx->thread = op ? (int)op->thread : -1;
	snprintf(nx->what, sizeof nx->what, "cycle %llu: %s", (unsigned long long)ev->time, what);
	return true;
}

static void print_entry(const ar_sim *s, const ar_entry *e, FILE *f)
{
	const ar_flow *fl = &s->flow[e->flow];
	char name[96], v[48], parent[32];
	ar_addr_name(s->p, fl->target, name, sizeof name);
	value_text(fl->type, e->has, e->result, v, sizeof v);
	from_text(e->parent, parent, sizeof parent);
	fprintf(f, "  %s (%s), tree of host %d: parent %s, children {", name, ar_op_name(fl->op),
		e->root, parent);
	for (int c = 0, first = 1; c < AR_CUBES; c++)
		if (e->children & (1u << c)) {
			fprintf(f, "%s%d%s", first ? "" : ",", c, e->responded & (1u << c) ? "*" : "");
			first = 0;
		}
	fprintf(f, "}, req %llu, resp %llu, Gflag %d, partial %s\n", (unsigned long long)e->req,
		(unsigned long long)e->resp, e->gflag, v);
}

void ar_session_print_flows(ar_session *ss, FILE *f)
{
	const ar_sim *s = ar_session_sim(ss);
	bool any = false;
	for (int c = 0; c < AR_CUBES; c++) {
		const ar_cube *cb = &s->cube[c];
		if (!cb->nent && !cb->nbuf && !cb->wait.n)
			continue;
		any = true;
		fprintf(f, "cube %d: %u of %u flows, %u of %u buffers, %zu waiting\n", c, cb->nent,
			s->c->flow_entries, cb->nbuf, s->c->buffers, cb->wait.n);
		for (unsigned i = 0; i < s->c->flow_entries * AR_HOSTS; i++)
			if (cb->ent[i].used)
				print_entry(s, &cb->ent[i], f);
	}
	if (!any)
		fprintf(f, "every flow table is empty\n");
}

int ar_session_print_partials(ar_session *ss, uint64_t target, FILE *f)
{
	ar_sim *s = ar_session_sim(ss);
	int fi = ar_flow_find(s, target);
	if (fi < 0)
		return -1;
	const ar_flow *fl = &s->flow[fi];
	char name[96], v[48];
	ar_addr_name(s->p, target, name, sizeof name);
	fprintf(f, "%s: %s flow, %llu Updates issued, %s\n", name, ar_op_name(fl->op),
		(unsigned long long)fl->issued, fl->gathering ? "gathering" : "updating");
	for (int c = 0; c < AR_CUBES; c++)
		for (unsigned i = 0; i < s->c->flow_entries * AR_HOSTS; i++) {
			const ar_entry *e = &s->cube[c].ent[i];
			if (!e->used || e->flow != fi)
				continue;
			value_text(fl->type, e->has, e->result, v, sizeof v);
			fprintf(f, "  cube %d, tree of host %d: partial %s from %llu Updates\n", c,
				e->root, v, (unsigned long long)e->count);
		}
	for (int h = 0; h < AR_HOSTS; h++)
		if ((fl->roots & (1u << h)) && fl->gathering && fl->tree_has[h]) {
			value_text(fl->type, true, fl->tree_val[h], v, sizeof v);
			fprintf(f, "  host %d holds its tree's result %s\n", h, v);
		}
	return 0;
}

int ar_target_of(const ar_program *p, const char *ref, uint64_t *addr, diag *d)
{
	const char *br = strchr(ref, '[');
	char name[AR_NAME_MAX];
	char *end;
	if (!br || br == ref || (size_t)(br - ref) >= sizeof name) {
		diag_file(d, ref, "expected ARRAY[INDEX]");
		return -1;
	}
	memcpy(name, ref, (size_t)(br - ref));
	name[br - ref] = 0;
	int a = ar_array_find(p, name);
	unsigned long long k = strtoull(br + 1, &end, 0);
	if (a < 0 || end == br + 1 || strcmp(end, "]") || k >= p->arrays[a].len) {
		diag_file(d, ref, a < 0 ? "no such array" : "expected ARRAY[INDEX] with an index "
			  "inside the array");
		return -1;
	}
	*addr = p->arrays[a].base + k * p->arrays[a].esize;
	return 0;
}
