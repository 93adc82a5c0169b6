/* SPDX-License-Identifier: MIT */
/*
 * are.c: the Active-Routing Engine of one cube (§IV-C, Figs 4 and 6):
 * the packet processing unit, the flow table, the operand buffers and
 * the ALU.
 *
 * Requests (Updates and Gather requests) of one flow tree are processed
 * in arrival order; a request that cannot proceed (no free flow-table
 * entry, no free operand buffer) waits, and later requests of other
 * trees may pass it, as over separate virtual channels.  Operand and
 * Gather responses never wait: their buffer or entry is already held,
 * which is why an operand buffer is reserved before the operand requests
 * go out (§IV-C 3).  A computed Update joins its entry's partial result
 * in the order the Updates reached the cube (a sequence number per
 * entry), so results never depend on the operands' latencies.
 */
#include <stdlib.h>
#include <string.h>

#include "engine_types.h"

static ar_entry *find_entry(ar_cube *cb, unsigned cap, int flow, int root)
{
	for (unsigned i = 0; i < cap; i++)
		if (cb->ent[i].used && cb->ent[i].flow == flow && cb->ent[i].root == root)
			return &cb->ent[i];
	return NULL;
}

/* Entries of one flow at this cube (one per tree root that passes). */
static unsigned flow_entries_here(const ar_cube *cb, unsigned cap, int flow)
{
	unsigned n = 0;
	for (unsigned i = 0; i < cap; i++)
		n += cb->ent[i].used && cb->ent[i].flow == flow;
	return n;
}

/* A flow-table entry holds one flow (Fig 6b); when a flow has several
 * trees (ART-tid, ART-addr), the entry keeps a record per tree root, so
 * the table's capacity counts flows. */
static ar_entry *alloc_entry(ar_sim *s, ar_cube *cb, const ar_event *ev, int flow, int root)
{
	unsigned cap = s->c->flow_entries * AR_HOSTS;
	bool known = flow_entries_here(cb, cap, flow) > 0;
	if (!known && cb->nent >= s->c->flow_entries)
		return NULL;
	for (unsigned i = 0; i < cap; i++) {
		ar_entry *e = &cb->ent[i];
		if (e->used)
			continue;
		memset(e, 0, sizeof *e);
		*e = (ar_entry){ .used = true, .flow = flow, .root = root, .parent = ev->from,
				 .depth = ev->depth };
		if (!known && ++cb->nent > s->st->max_table)
			s->st->max_table = cb->nent;
		if (ev->from < 0)
			s->st->trees++;
		if (ev->depth > s->st->max_depth)
			s->st->max_depth = ev->depth;
		return e;
	}
	return NULL;
}

static int alloc_buffer(ar_sim *s, ar_cube *cb)
{
	for (unsigned i = 0; i < s->c->buffers; i++)
		if (!cb->buf[i].used) {
			cb->buf[i].used = true;
			if (++cb->nbuf > s->st->max_buffers)
				s->st->max_buffers = cb->nbuf;
			return (int)i;
		}
	return -1;
}

/* One operand request: k elements from addr into a buffer's slot. */
static void request_operand(ar_sim *s, int cube, int buf, uint32_t upd, uint8_t slot,
			    unsigned e0, unsigned k, uint64_t addr)
{
	int at = ar_cube_of(s->c, addr);
	unsigned hops = ar_hops(s->c, cube, at);
	ar_sim_count(s, AR_PK_OPREQ, ar_pk_bytes(AR_PK_OPREQ, 0), hops, false);
	ar_event ev = { .kind = EV_OPREAD, .cube = (int8_t)at, .from = (int8_t)cube, .a = upd,
			.b = (uint32_t)buf, .slot = slot, .e0 = (uint8_t)e0, .k = (uint8_t)k,
			.addr = addr };
	ar_sim_send(s, ev, s->now, -1, cube, at, -1, ar_pk_bytes(AR_PK_OPREQ, 0));
	s->upd[upd].reads_left++;
}

/* RR: src1's block and src2's elements (one request per 64 B block they
 * touch); RI: src1's block and one request per irregular element; II:
 * one request per scalar. */
static void request_operands(ar_sim *s, int cube, int buf, uint32_t ui)
{
	const ar_hostop *op = &s->upd[ui].op;
	if (op->op != AR_OP_CONST)
		request_operand(s, cube, buf, ui, 0, 0, op->n, op->a1);
	if (!op->has_b)
		return;
	if (op->pat == AR_RR) {
		unsigned e = 0;
		while (e < op->n) {
			uint64_t a = op->a2[0] + (uint64_t)e * op->esize;
			unsigned k = (unsigned)((AR_BLOCK - a % AR_BLOCK) / op->esize);
			if (k > op->n - e)
				k = op->n - e;
			request_operand(s, cube, buf, ui, 1, e, k, a);
			e += k;
		}
		return;
	}
	for (unsigned e = 0; e < op->n; e++)
		request_operand(s, cube, buf, ui, 1, e, 1, op->a2[e]);
}

static void retire_upd(ar_sim *s, uint32_t ui)
{
	s->upd[ui].next_free = s->upd_free;
	s->upd_free = ui + 1;
}

static void wake(ar_sim *s, int cube);

/* Gather phase (Fig 4 c, d): when Gflag is set, every Update of this
 * node is computed and every child has answered, send the partial up:
 * this node's own result first, then the children's in ascending cube
 * order (the documented combine order), and free the entry. */
static void check_done(ar_sim *s, int cube, ar_entry *e)
{
	if (!e->gflag || e->req != e->resp || (e->children & ~e->responded))
		return;
	const ar_flow *f = &s->flow[e->flow];
	bool has = e->has;
	uint64_t v = e->result, cnt = e->count;
	for (int c = 0; c < AR_CUBES; c++) {
		if (!(e->child_has & (1u << c)))
			continue;
		v = has ? ar_alu_combine(f->op, f->type, v, e->child_val[c]) : e->child_val[c];
		has = true;
		cnt += e->child_cnt[c];
	}
	ar_event ev = { .kind = e->parent < 0 ? EV_CTRL_GRESP : EV_GRESP, .from = (int8_t)cube,
			.cube = (int8_t)e->parent, .a = (uint32_t)e->flow, .b = (uint32_t)e->root,
			.has = has, .value = v, .count = cnt };
	unsigned bytes = ar_pk_bytes(AR_PK_GRESP, 16);
	ar_sim_count(s, AR_PK_GRESP, bytes, e->parent < 0 ? 0 : 1, e->parent < 0);
	if (e->parent < 0)
		ar_sim_send(s, ev, s->now, -1, cube, cube, e->root, bytes);
	else
		ar_sim_send(s, ev, s->now, -1, cube, e->parent, -1, bytes);
	e->used = false;
	if (!flow_entries_here(&s->cube[cube], s->c->flow_entries * AR_HOSTS, e->flow))
		s->cube[cube].nent--;
	wake(s, cube);
}

/* Fold every computed buffer of entry e whose turn has come. */
static void commit_in_order(ar_sim *s, int cube, ar_entry *e, int ei)
{
	ar_cube *cb = &s->cube[cube];
	bool again = true;
	while (again) {
		again = false;
		for (unsigned i = 0; i < s->c->buffers; i++) {
			ar_buffer *b = &cb->buf[i];
			if (!b->used || b->entry != ei || b->need || b->seq != e->next_commit)
				continue;
			const ar_hostop *op = &s->upd[b->upd].op;
			for (unsigned k = 0; k < op->n; k++) {
				uint64_t v = ar_alu_elem(op->op, op->type, b->op1[k], b->op2[k], op->has_b);
				e->result = e->has ? ar_alu_combine(op->op, op->type, e->result, v) : v;
				e->has = true;
			}
			s->st->cube_compute[cube] += op->n;
			s->st->cube_updates[cube]++;
			s->st->elem_ops += op->n;
			s->st->updates_computed++;
			e->resp++;
			e->count++;
			e->next_commit++;
			b->used = false;
			cb->nbuf--;
			retire_upd(s, b->upd);
			again = true;
		}
	}
}

/* Fig 9: an Update's operands are all in (now). */
static void note_latency(ar_sim *s, uint32_t ui)
{
	const ar_upd *u = &s->upd[ui];
	s->st->lat_request += u->t_sent - u->t_issue - u->stall;
	s->st->lat_stall += u->stall;
	s->st->lat_response += s->now - u->t_sent;
	s->st->lat_count++;
}

static void write_assign(ar_sim *s, int cube, ar_buffer *b)
{
	const ar_upd *u = &s->upd[b->upd];
	const ar_hostop *op = &u->op;
	uint64_t v = op->imm;
	if (op->op != AR_OP_CONST && ar_alu_assign(op->op, op->type, b->op1[0], b->op2[0], &v)) {
		diag_at(s->d, s->p->path, op->s->line, op->s->col,
			"integer division by zero (thread %u)", op->thread);
		s->failed = true;
		return;
	}
	ar_mem_write(s->p, op->target, op->esize, v, op->s, false);
	s->st->cube_compute[cube]++;
	s->st->cube_updates[cube]++;
	s->st->elem_ops++;
	s->writes_out--;
	ar_sim_kick_host(s);
}

/* An Update at its compute cube (Fig 4a): reserve a buffer, then ask for
 * the operands.  false: no buffer free (the packet waits). */
static bool compute_here(ar_sim *s, int cube, uint32_t ui, ar_entry *e)
{
	ar_cube *cb = &s->cube[cube];
	ar_upd *u = &s->upd[ui];
	u->t_sent = s->now;
	if (u->op.op == AR_OP_CONST) {
		note_latency(s, ui);
		ar_buffer tmp = { .upd = ui };
		write_assign(s, cube, &tmp);
		retire_upd(s, ui);
		return true;
	}
	int bi = alloc_buffer(s, cb);
	if (bi < 0)
		return false;
	u = &s->upd[ui];
	ar_buffer *b = &cb->buf[bi];
	b->entry = e ? (int)(e - cb->ent) : -1;
	b->upd = ui;
	b->need = 0;
	if (e) {
		b->seq = e->next_seq++;
		e->req++;
	}
	unsigned before = u->reads_left;
	request_operands(s, cube, bi, ui);
	b->need = u->reads_left - before;
	return true;
}

/* The Update packet at a cube (§IV-C 5).  true when processed. */
static bool try_update(ar_sim *s, ar_event *ev)
{
	int cube = ev->cube;
	ar_cube *cb = &s->cube[cube];
	ar_upd *u = &s->upd[ev->a];
	ar_entry *e = NULL;
	if (u->flow >= 0) {
		e = find_entry(cb, s->c->flow_entries * AR_HOSTS, u->flow, u->root);
		if (!e && !(e = alloc_entry(s, cb, ev, u->flow, u->root))) {
			ev->stall = STALL_TABLE;
			return false;
		}
	}
	if (cube != u->dest) {
		int next = ar_next_hop(s->c, cube, u->dest);
		if (e)
			e->children |= 1u << next;
		ar_event fw = { .kind = EV_UPDATE, .cube = (int8_t)next, .from = (int8_t)cube,
				.a = ev->a, .depth = (uint16_t)(ev->depth + 1) };
		s->st->pk[AR_PK_UPDATE].byte_hops += u->bytes;
		ar_sim_send(s, fw, s->now, -1, cube, next, -1, u->bytes);
		return true;
	}
	if (!compute_here(s, cube, ev->a, e)) {
		ev->stall = STALL_BUFFER;
		return false;
	}
	s->st->depth_sum += ev->depth;
	s->st->depth_count++;
	return true;
}

/* A Gather request (Fig 4c): set Gflag and replicate to the children. */
static void gather_request(ar_sim *s, const ar_event *ev)
{
	int cube = ev->cube;
	ar_cube *cb = &s->cube[cube];
	ar_entry *e = find_entry(cb, s->c->flow_entries * AR_HOSTS, (int)ev->a, (int)ev->b);
	if (!e)
		return; /* cannot happen: a tree's Gather follows its Updates */
	e->gflag = true;
	for (int c = 0; c < AR_CUBES; c++) {
		if (!(e->children & (1u << c)))
			continue;
		ar_event g = { .kind = EV_GREQ, .cube = (int8_t)c, .from = (int8_t)cube, .a = ev->a,
			       .b = ev->b };
		ar_sim_count(s, AR_PK_GREQ, ar_pk_bytes(AR_PK_GREQ, 0), 1, false);
		ar_sim_send(s, g, s->now, -1, cube, c, -1, ar_pk_bytes(AR_PK_GREQ, 0));
	}
	check_done(s, cube, e);
}

static bool try_request(ar_sim *s, ar_event *ev)
{
	if (ev->kind == EV_UPDATE)
		return try_update(s, ev);
	gather_request(s, ev);
	return true;
}

/* The ordering key of a request: its flow tree, or none (assignments). */
static int64_t key_of(const ar_sim *s, const ar_event *ev)
{
	if (ev->kind == EV_GREQ)
		return (int64_t)ev->a * AR_HOSTS + ev->b;
	const ar_upd *u = &s->upd[ev->a];
	return u->flow < 0 ? -1 : (int64_t)u->flow * AR_HOSTS + u->root;
}

static void push_pending(ar_sim *s, ar_cube *cb, const ar_event *ev)
{
	if (ar_wait_push(&cb->wait, key_of(s, ev), ev)) {
		diag_file(s->d, s->p->path, "out of memory");
		s->failed = true;
	}
}

static void count_stall(ar_sim *s, const ar_event *ev, bool first)
{
	if (ev->stall == STALL_TABLE) {
		if (first)
			s->st->stall_table++;
		else
			s->st->stall_table_cycles += s->now - ev->since;
	} else if (ev->stall == STALL_BUFFER) {
		if (first)
			s->st->stall_buffer++;
		else
			s->st->stall_buffer_cycles += s->now - ev->since;
	}
}

void ar_are_request(ar_sim *s, ar_event *ev)
{
	ar_cube *cb = &s->cube[(int)ev->cube];
	ev->stall = STALL_NONE;
	ev->since = s->now;
	if (ev->kind == EV_UPDATE)
		ev->count = s->now;
	if (ar_wait_has(&cb->wait, key_of(s, ev)) || !try_request(s, ev)) {
		count_stall(s, ev, true);
		push_pending(s, cb, ev);
	}
}

/* Would this waiting Update fail at once for want of a buffer?  (Saves
 * a try per waiting Update when a cube's buffers are all taken.) */
static bool surely_no_buffer(const ar_sim *s, const ar_cube *cb, const ar_event *ev)
{
	return ev->kind == EV_UPDATE && ev->stall == STALL_BUFFER && cb->nbuf >= s->c->buffers;
}

/* One pass over the waiting requests in arrival order, each tree's
 * behind its own earlier ones (wait.c); the ones processed leave. */
static void wake_pass(ar_sim *s, ar_cube *cb)
{
	if (ar_wait_begin(&cb->wait)) {
		diag_file(s->d, s->p->path, "out of memory");
		s->failed = true;
		return;
	}
	ar_event *at;
	while (!s->failed && (at = ar_wait_next(&cb->wait))) {
		ar_event ev = *at;
		uint8_t was = ev.stall;
		/* an Update's wait here (count: when it came) is in its round
		 * trip's stall if it goes now */
		uint64_t waited = ev.kind == EV_UPDATE ? s->now - ev.count : 0;
		if (waited)
			s->upd[ev.a].stall += waited;
		if (surely_no_buffer(s, cb, &ev) || !try_request(s, &ev)) {
			if (waited)
				s->upd[ev.a].stall -= waited;
			if (!was && ev.stall) {
				ev.since = s->now;
				count_stall(s, &ev, true);
			}
			*at = ev;
			ar_wait_done(&cb->wait, false);
			continue;
		}
		ev.stall = was;
		count_stall(s, &ev, false);
		ar_wait_done(&cb->wait, true);
	}
	ar_wait_end(&cb->wait);
}

/* A table entry or a buffer came free: retry the waiting requests.  A
 * request processed here may free more (a Gather completing a node):
 * that wake waits for this pass to end, then one more pass runs. */
static void wake(ar_sim *s, int cube)
{
	ar_cube *cb = &s->cube[cube];
	if (cb->waking) {
		cb->rewake = true;
		return;
	}
	cb->waking = true;
	do {
		cb->rewake = false;
		wake_pass(s, cb);
	} while (cb->rewake && !s->failed);
	cb->waking = false;
}

/* An operand request at the operand's cube: read the vault now, and the
 * response carries the values back (they land in the reserved buffer). */
void ar_are_opread(ar_sim *s, const ar_event *ev)
{
	ar_upd *u = &s->upd[ev->a];
	ar_buffer *b = &s->cube[(int)ev->from].buf[ev->b];
	uint64_t *dst = ev->slot ? b->op2 : b->op1;
	for (unsigned k = 0; k < ev->k; k++)
		dst[ev->e0 + k] = ar_mem_read(s->p, ev->addr + (uint64_t)k * u->op.esize, u->op.esize);
	s->st->cube_operands[(int)ev->cube] += ev->k;
	if (--u->reads_left == 0) {
		s->reads_out--;
		ar_sim_kick_host(s);
	}
	unsigned hops = ar_hops(s->c, ev->cube, ev->from);
	unsigned bytes = ar_pk_bytes(AR_PK_OPRESP, ev->k * u->op.esize);
	ar_sim_count(s, AR_PK_OPRESP, bytes, hops, false);
	ar_event r = *ev;
	r.kind = EV_OPRESP;
	r.cube = ev->from;
	r.from = ev->cube;
	ar_sim_send(s, r, s->now + AR_LAT_VAULT, -1, ev->cube, ev->from, -1, bytes);
}

void ar_are_opresp(ar_sim *s, const ar_event *ev)
{
	int cube = ev->cube;
	ar_cube *cb = &s->cube[cube];
	ar_buffer *b = &cb->buf[ev->b];
	if (--b->need)
		return;
	note_latency(s, b->upd);
	if (b->entry < 0) {
		write_assign(s, cube, b);
		b->used = false;
		cb->nbuf--;
		retire_upd(s, b->upd);
		wake(s, cube);
		return;
	}
	ar_entry *e = &cb->ent[b->entry];
	commit_in_order(s, cube, e, b->entry);
	check_done(s, cube, e);
	wake(s, cube);
}

/* A child's partial (Fig 4d): keep it in the child's slot. */
void ar_are_gresp(ar_sim *s, const ar_event *ev)
{
	int cube = ev->cube;
	ar_entry *e = find_entry(&s->cube[cube], s->c->flow_entries * AR_HOSTS, (int)ev->a, (int)ev->b);
	if (!e)
		return;
	unsigned c = (unsigned)ev->from;
	e->responded |= 1u << c;
	if (ev->has) {
		e->child_has |= 1u << c;
		e->child_val[c] = ev->value;
	}
	e->child_cnt[c] = ev->count;
	check_done(s, cube, e);
}

static bool stalled_update(const ar_event *ev)
{
	return ev->kind == EV_UPDATE && ev->stall != STALL_NONE;
}

int ar_are_describe_wait(ar_sim *s, char *buf, size_t size)
{
	for (int c = 0; c < AR_CUBES; c++) {
		const ar_cube *cb = &s->cube[c];
		const ar_event *ev = ar_wait_oldest(&cb->wait, stalled_update);
		if (!ev)
			continue;
		const ar_upd *u = &s->upd[ev->a];
		char name[96];
		ar_addr_name(s->p, u->op.target, name, sizeof name);
		snprintf(buf, size, "at cube %d an Update of %s (line %d, thread %u) waits for "
			 "%s (%u in use)", c, name, u->op.s->line, u->op.thread,
			 ev->stall == STALL_TABLE ? "a flow-table entry" : "an operand buffer",
			 ev->stall == STALL_TABLE ? cb->nent : cb->nbuf);
		return u->op.s->line;
	}
	return 0;
}
