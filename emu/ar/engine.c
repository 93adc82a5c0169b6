/* SPDX-License-Identifier: MIT */
/*
 * engine.c: the event-driven run of an .ar program (ar_run).  Events are
 * ordered by (time, creation order), so a run is deterministic.  The host
 * issues one operation per cycle in program order (host.c) and holds an
 * operation back while an ordering rule says so (doc "Ordering"):
 *   - an operation of a thread that waits for its Gather's commit;
 *   - any operation while an earlier assignment has not written memory;
 *   - an assignment while an earlier operation has not read its operands.
 */
#include <stdlib.h>
#include <string.h>

#include "engine_types.h"

unsigned ar_pk_bytes(ar_pktype t, unsigned payload)
{
	(void)t;
	return 16 + (payload + 15) / 16 * 16;
}

static const char *const pk_names[AR_PK_TYPES] = {
	"update", "operand_request", "operand_response", "gather_request", "gather_response",
	"commit",
};

const char *ar_pk_name(ar_pktype t)
{
	return t < AR_PK_TYPES ? pk_names[t] : "?";
}

void ar_config_default(ar_config *c)
{
	*c = (ar_config){ .root = AR_ROOT_ADDR, .net = AR_NET_DRAGONFLY, .interleave = 4096,
			  .flow_entries = 16, .buffers = 128, .max_events = 1000000000ull,
			  .max_memory = 1ull << 30, .link_bytes = AR_LINK_BYTES };
}

void ar_addr_name(const ar_program *p, uint64_t addr, char *buf, size_t size)
{
	int i = ar_mem_find(p, addr);
	if (i < 0) {
		snprintf(buf, size, "address %llu", (unsigned long long)addr);
		return;
	}
	const ar_array *a = &p->arrays[i];
	snprintf(buf, size, "%s[%llu]", a->name, (unsigned long long)((addr - a->base) / a->esize));
}

void ar_sim_count(ar_sim *s, ar_pktype t, unsigned bytes, unsigned hops, bool host_link)
{
	s->st->pk[t].packets++;
	s->st->pk[t].bytes += bytes;
	s->st->pk[t].byte_hops += (uint64_t)bytes * hops;
	if (host_link)
		s->st->host_active += bytes;
}

/* ---- the event heap ---- */

static bool before(const ar_event *x, const ar_event *y)
{
	return x->time < y->time || (x->time == y->time && x->seq < y->seq);
}

int ar_sim_push(ar_sim *s, ar_event ev, uint64_t delay)
{
	if (s->nheap == s->cap_heap) {
		size_t cap = s->cap_heap ? 2 * s->cap_heap : 1024;
		ar_event *n = realloc(s->heap, cap * sizeof *n);
		if (!n) {
			diag_file(s->d, s->p->path, "out of memory for events");
			s->failed = true;
			return -1;
		}
		s->heap = n;
		s->cap_heap = cap;
	}
	ev.time = s->now + delay;
	ev.seq = s->seq++;
	size_t i = s->nheap++;
	while (i > 0 && before(&ev, &s->heap[(i - 1) / 2])) {
		s->heap[i] = s->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	s->heap[i] = ev;
	return 0;
}

static ar_event pop(ar_sim *s)
{
	ar_event top = s->heap[0], last = s->heap[--s->nheap];
	size_t i = 0;
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		const ar_event *best = &last;
		if (l < s->nheap && before(&s->heap[l], best)) {
			m = l;
			best = &s->heap[l];
		}
		if (l + 1 < s->nheap && before(&s->heap[l + 1], best))
			m = l + 1;
		if (m == i)
			break;
		s->heap[i] = s->heap[m];
		i = m;
	}
	if (s->nheap)
		s->heap[i] = last;
	return top;
}

void ar_sim_kick_host(ar_sim *s)
{
	if (s->host_done || s->host_scheduled)
		return;
	s->host_scheduled = true;
	ar_sim_push(s, (ar_event){ .kind = EV_HOST }, 1);
}

/* ---- issuing ---- */

static int root_of(const ar_sim *s, const ar_hostop *op, int src_cube)
{
	switch (s->c->root) {
	case AR_ROOT_NAIVE: return 0;
	case AR_ROOT_TID: return (int)(op->thread % AR_HOSTS);
	default: return ar_nearest_host(s->c, src_cube);
	}
}

static unsigned update_payload(const ar_hostop *op)
{
	unsigned a2 = !op->has_b ? 0 : op->pat == AR_RI ? 8 * op->n : 8;
	return 8 /* target */ + 8 /* src1 or the value */ + a2 + 4 /* op, count */;
}

static int new_upd(ar_sim *s)
{
	if (s->upd_free) {
		uint32_t u = s->upd_free - 1;
		s->upd_free = s->upd[u].next_free;
		return (int)u;
	}
	if (s->nupd == s->cap_upd) {
		size_t cap = s->cap_upd ? 2 * s->cap_upd : 1024;
		ar_upd *n = realloc(s->upd, cap * sizeof *n);
		if (!n)
			return -1;
		s->upd = n;
		s->cap_upd = cap;
	}
	return (int)s->nupd++;
}

static int flow_for(ar_sim *s, const ar_hostop *op, int root)
{
	int f = ar_flow_find(s, op->target);
	char name[96];
	if (f >= 0 && (s->flow[f].gathering || s->flow[f].op != op->op)) {
		ar_addr_name(s->p, op->target, name, sizeof name);
		if (s->flow[f].gathering)
			diag_at(s->d, s->p->path, op->s->line, op->s->col, "an Update of %s while its "
				"Gather is in progress (thread %u)", name, op->thread);
		else
			diag_at(s->d, s->p->path, op->s->line, op->s->col, "this %s Update joins the "
				"%s flow of %s (line %d); one flow has one operation",
				ar_op_name(op->op), ar_op_name(s->flow[f].op), name,
				s->flow[f].first->line);
		return -1;
	}
	if (f < 0) {
		if ((f = ar_flow_new(s, op->target)) < 0) {
			diag_file(s->d, s->p->path, "out of memory");
			return -1;
		}
		s->flow[f].op = op->op;
		s->flow[f].type = op->type;
		s->flow[f].first = op->s;
	}
	s->flow[f].issued++;
	s->flow[f].roots |= 1u << root;
	return f;
}

/* Where an Update computes (§III-C, Fig 3b). */
static int dest_of(const ar_sim *s, const ar_hostop *op, int root)
{
	if (!ar_op_is_flow(op->op))
		return ar_cube_of(s->c, op->target);
	int a = ar_cube_of(s->c, op->a1);
	if (op->pat != AR_II || !op->has_b)
		return a;
	return ar_meet_cube(s->c, ar_host_cube(s->c, (unsigned)root), a,
			    ar_cube_of(s->c, op->a2[0]));
}

static int issue_update(ar_sim *s, const ar_hostop *op)
{
	bool flow = ar_op_is_flow(op->op);
	int src = flow ? ar_cube_of(s->c, op->a1) : ar_cube_of(s->c, op->target);
	int root = root_of(s, op, src);
	int f = flow ? flow_for(s, op, root) : -1;
	int ui = f < -1 || (flow && f < 0) ? -1 : new_upd(s);
	if (ui < 0) {
		if (!s->d->set)
			diag_file(s->d, s->p->path, "out of memory");
		return -1;
	}
	ar_upd *u = &s->upd[ui];
	*u = (ar_upd){ .op = *op, .root = root, .flow = f };
	u->dest = dest_of(s, op, root);
	u->bytes = ar_pk_bytes(AR_PK_UPDATE, update_payload(op));
	ar_sim_count(s, AR_PK_UPDATE, u->bytes, 0, true);
	if (flow) {
		s->st->updates_issued++;
	} else {
		s->st->assigns++;
		s->writes_out++;
	}
	if (op->op != AR_OP_CONST)
		s->reads_out++;
	u->t_issue = s->now;
	int at = ar_host_cube(s->c, (unsigned)root);
	ar_event ev = { .kind = EV_UPDATE, .cube = (int8_t)at, .from = -1, .a = (uint32_t)ui };
	return ar_sim_send(s, ev, s->now, root, at, at, -1, u->bytes);
}

static int issue_gather(ar_sim *s, const ar_hostop *op)
{
	bool closed;
	s->st->gathers++;
	if (ar_host_gather(s->host, op, &closed, s->d))
		return -1;
	if (!closed)
		return 0;
	ar_pei_count(s->c, op, s->st);
	int f = ar_flow_find(s, op->target);
	if (f < 0) { /* no Update this round: nothing to gather */
		ar_host_committed(s->host, op->target);
		return 0;
	}
	/* A round that closes while the last one is still gathering has no
	 * Updates of its own (they would have been refused): its threads go
	 * on with that round's commit. */
	if (!s->flow[f].gathering) {
		s->flow[f].gather = op->s;
		ar_flow_start_gather(s, f);
	}
	return 0;
}

static int issue(ar_sim *s, const ar_hostop *op)
{
	s->st->host_normal += op->normal_bytes;
	s->st->pei_host_normal += op->normal_bytes;
	if (op->gather)
		return issue_gather(s, op);
	ar_pei_count(s->c, op, s->st);
	return issue_update(s, op);
}

/* One host cycle: issue the next operation unless an ordering rule holds
 * it back.  1 when one was issued, 0 when the host waits or is done. */
static int host_once(ar_sim *s)
{
	for (;;) {
		if (s->cur_thread < 0) {
			unsigned t;
			int rc = ar_host_pick(s->host, &t, s->d);
			if (rc <= 0) {
				s->host_done = rc == 0;
				return rc;
			}
			s->cur_thread = (int)t;
		}
		if (ar_host_thread_waits(s->host, (unsigned)s->cur_thread))
			return 0;
		if (!s->has_op) {
			if (s->writes_out)
				return 0;
			int rc = ar_host_next(s->host, (unsigned)s->cur_thread, &s->op, s->d);
			if (rc < 0)
				return -1;
			if (rc == 0) {
				s->cur_thread = -1;
				continue;
			}
			s->has_op = true;
		}
		if (!s->op.gather && !ar_op_is_flow(s->op.op) && (s->reads_out || s->writes_out))
			return 0;
		s->has_op = false;
		s->cur_thread = -1;
		return issue(s, &s->op) ? -1 : 1;
	}
}

static void host_step(ar_sim *s)
{
	s->host_scheduled = false;
	int rc = host_once(s);
	if (rc < 0)
		s->failed = true;
	else if (rc > 0)
		ar_sim_kick_host(s);
}

/* ---- the run ---- */

static void dispatch(ar_sim *s, ar_event *ev)
{
	switch (ev->kind) {
	case EV_HOST: host_step(s); break;
	case EV_UPDATE: case EV_GREQ: ar_are_request(s, ev); break;
	case EV_OPREAD: ar_are_opread(s, ev); break;
	case EV_OPRESP: ar_are_opresp(s, ev); break;
	case EV_GRESP: ar_are_gresp(s, ev); break;
	case EV_CTRL_GRESP: ar_flow_tree_done(s, ev); break;
	case EV_COMMIT: ar_flow_commit(s, ev); break;
	default: break;
	}
}

static int sim_init(ar_sim *s, ar_program *p, const ar_config *c, ar_stats *st, diag *d)
{
	memset(s, 0, sizeof *s);
	*s = (ar_sim){ .p = p, .c = c, .st = st, .d = d, .cur_thread = -1 };
	memset(st, 0, sizeof *st);
	if (c->flow_entries < 1 || c->buffers < 1 || c->interleave < AR_BLOCK ||
	    (c->interleave & (c->interleave - 1))) {
		diag_file(d, p->path, "the network needs at least 1 flow entry and 1 buffer, and "
			  "an interleave that is a power of two of at least 64 bytes");
		return -1;
	}
	for (int i = 0; i < AR_CUBES; i++) {
		s->cube[i].ent = calloc((size_t)c->flow_entries * AR_HOSTS, sizeof *s->cube[i].ent);
		s->cube[i].buf = calloc(c->buffers, sizeof *s->cube[i].buf);
		if (!s->cube[i].ent || !s->cube[i].buf) {
			diag_file(d, p->path, "out of memory");
			return -1;
		}
	}
	s->host = ar_host_new(p, c, d);
	return s->host ? 0 : -1;
}

static void sim_free(ar_sim *s)
{
	for (int i = 0; i < AR_CUBES; i++) {
		free(s->cube[i].ent);
		free(s->cube[i].buf);
		ar_wait_free(&s->cube[i].wait);
	}
	ar_host_free(s->host);
	free(s->heap);
	free(s->upd);
	free(s->flow);
	free(s->fmap);
}

/* After the last event: the host must be done, no flow left ungathered,
 * and every table, buffer and queue empty. */
static int sim_finish(ar_sim *s)
{
	char what[256];
	if (!s->host_done) {
		int line = ar_are_describe_wait(s, what, sizeof what);
		if (line)
			diag_file(s->d, s->p->path, "deadlock: %s", what);
		else
			diag_file(s->d, s->p->path, "deadlock: the host waits and nothing moves");
		return -1;
	}
	for (size_t f = 0; f < s->nflow; f++) {
		const ar_flow *fl = &s->flow[f];
		if (!fl->used)
			continue;
		ar_addr_name(s->p, fl->target, what, sizeof what);
		diag_at(s->d, s->p->path, fl->first->line, fl->first->col, "the flow of %s has %llu "
			"Updates that no Gather collected", what, (unsigned long long)fl->issued);
		return -1;
	}
	bool clean = s->reads_out == 0 && s->writes_out == 0;
	for (int i = 0; i < AR_CUBES; i++)
		clean = clean && !s->cube[i].nent && !s->cube[i].nbuf && !s->cube[i].wait.n;
	s->st->end_clean = clean;
	return 0;
}

/* ---- a run, event by event (ar.h: ar_session) ---- */

struct ar_session {
	ar_sim sim;
	bool ended;
	int rc;
};

ar_session *ar_session_new(ar_program *p, const ar_config *c, ar_stats *st, diag *d)
{
	ar_session *ss = malloc(sizeof *ss);
	if (!ss) {
		diag_file(d, p->path, "out of memory");
		return NULL;
	}
	ss->ended = false;
	ss->rc = 0;
	if (sim_init(&ss->sim, p, c, st, d)) {
		sim_free(&ss->sim);
		free(ss);
		return NULL;
	}
	ar_sim_kick_host(&ss->sim);
	return ss;
}

int ar_session_step(ar_session *ss)
{
	ar_sim *s = &ss->sim;
	if (ss->ended)
		return ss->rc;
	if (s->nheap && !s->failed) {
		ar_event ev = pop(s);
		s->now = ev.time;
		if (++s->st->events > s->c->max_events) {
			diag_file(s->d, s->p->path, "the run needed more than %llu events "
				  "(--max-events)", (unsigned long long)s->c->max_events);
			s->failed = true;
		} else {
			dispatch(s, &ev);
		}
		if (s->nheap && !s->failed)
			return 1;
	}
	s->st->cycles = s->now;
	ss->ended = true;
	ss->rc = s->failed ? -1 : sim_finish(s);
	return ss->rc;
}

/* A copy of n elements of size bytes into *out, room for cap (0: none). */
static bool dup_cap(void **out, const void *in, size_t n, size_t cap, size_t size)
{
	*out = NULL;
	if (!cap)
		return true;
	*out = malloc(cap * size);
	if (*out && n)
		memcpy(*out, in, n * size);
	return *out != NULL;
}

/* Between events: the whole state of the network and the host, deeply
 * copied, working on p (whose memory the caller copies), c, st and d. */
ar_session *ar_session_copy(const ar_session *ss, ar_program *p, const ar_config *c,
			    ar_stats *st, diag *d)
{
	const ar_sim *s = &ss->sim;
	ar_session *n = calloc(1, sizeof *n);
	if (!n)
		return NULL;
	*n = *ss;
	ar_sim *t = &n->sim;
	t->p = p;
	t->c = c;
	t->st = st;
	t->d = d;
	t->host = NULL;
	t->heap = NULL;
	t->upd = NULL;
	t->flow = NULL;
	t->fmap = NULL;
	for (int i = 0; i < AR_CUBES; i++) {
		t->cube[i].ent = NULL;
		t->cube[i].buf = NULL;
		memset(&t->cube[i].wait, 0, sizeof t->cube[i].wait);
	}
	bool ok = dup_cap((void **)&t->heap, s->heap, s->nheap, s->cap_heap, sizeof *s->heap) &&
		  dup_cap((void **)&t->upd, s->upd, s->nupd, s->cap_upd, sizeof *s->upd) &&
		  dup_cap((void **)&t->flow, s->flow, s->nflow, s->cap_flow, sizeof *s->flow) &&
		  dup_cap((void **)&t->fmap, s->fmap, s->fmap_cap, s->fmap_cap, sizeof *s->fmap) &&
		  (t->host = ar_host_copy(s->host, c)) != NULL;
	size_t nent = (size_t)c->flow_entries * AR_HOSTS;
	for (int i = 0; ok && i < AR_CUBES; i++)
		ok = dup_cap((void **)&t->cube[i].ent, s->cube[i].ent, nent, nent,
			     sizeof *s->cube[i].ent) &&
		     dup_cap((void **)&t->cube[i].buf, s->cube[i].buf, c->buffers, c->buffers,
			     sizeof *s->cube[i].buf) &&
		     !ar_wait_copy(&t->cube[i].wait, &s->cube[i].wait);
	if (!ok) {
		ar_session_free(n);
		return NULL;
	}
	return n;
}

size_t ar_session_bytes(const ar_session *ss)
{
	const ar_sim *s = &ss->sim;
	size_t n = sizeof *ss + s->cap_heap * sizeof *s->heap + s->cap_upd * sizeof *s->upd +
		   s->cap_flow * sizeof *s->flow + s->fmap_cap * sizeof *s->fmap;
	for (int i = 0; i < AR_CUBES; i++) {
		const ar_waiting *w = &s->cube[i].wait;
		n += (size_t)s->c->flow_entries * AR_HOSTS * sizeof *s->cube[i].ent +
		     s->c->buffers * sizeof *s->cube[i].buf + w->cap_q * sizeof *w->q +
		     w->cap_map * sizeof *w->map + w->cap_act * sizeof *w->act;
		for (size_t q = 0; q < w->nq; q++)
			n += w->q[q].cap * sizeof *w->q[q].w;
	}
	return n;
}

uint64_t ar_session_now(const ar_session *ss)
{
	return ss->sim.now;
}

bool ar_session_ended(const ar_session *ss)
{
	return ss->ended;
}

ar_sim *ar_session_sim(ar_session *ss)
{
	return &ss->sim;
}

void ar_session_free(ar_session *ss)
{
	if (!ss)
		return;
	sim_free(&ss->sim);
	free(ss);
}

int ar_run(ar_program *p, const ar_config *c, ar_stats *st, diag *d)
{
	ar_session *ss = ar_session_new(p, c, st, d);
	if (!ss)
		return -1;
	int rc;
	while ((rc = ar_session_step(ss)) > 0)
		;
	ar_session_free(ss);
	return rc;
}
