/* SPDX-License-Identifier: MIT */
/*
 * engine_types.h: the state of the simulated network (engine.c, flows.c,
 * are.c).  Private to emu/ar/.
 */
#ifndef INFSIM_AR_ENGINE_TYPES_H
#define INFSIM_AR_ENGINE_TYPES_H

#include "ar_private.h"

/* Latencies in cycles of the 1250 MHz crossbar clock (Table I): the
 * head of a packet crosses a hop in AR_LAT_LINK cycles once the link is
 * free; its bytes take bytes / link_bytes cycles on the link (virtual
 * cut-through: once per route, at the last hop, besides the waits). */
#define AR_LAT_LINK 4     /* one cube-to-cube hop */
#define AR_LAT_HOST 8     /* host controller <-> its cube */
#define AR_LINK_BYTES 20  /* 16 lanes x 12.5 Gb/s = 25 GB/s = 20 B per 0.8 ns cycle */
#define AR_LAT_VAULT 25   /* tRCD + tCAS, 20.1 ns */

typedef enum {
	EV_HOST, EV_UPDATE, EV_OPREAD, EV_OPRESP, EV_GREQ, EV_GRESP, EV_CTRL_GRESP, EV_COMMIT
} ar_evkind;

typedef enum { STALL_NONE, STALL_TABLE, STALL_BUFFER } ar_stall;

typedef struct ar_event {
	uint64_t time, seq;
	uint8_t kind, stall;
	int8_t cube, from;      /* where it happens; previous hop (-1 host) */
	uint32_t a;             /* update (EV_UPDATE, EV_OPREAD/RESP) or flow */
	uint32_t b;             /* buffer; root host for gathers */
	uint16_t depth;
	uint8_t slot, e0, k;    /* operand: which source, first element, count */
	bool has;
	uint64_t addr, value, count, since;
} ar_event;

typedef struct ar_upd {
	ar_hostop op;
	int root, dest, flow;   /* root host 0..3, compute cube, flow or -1 */
	unsigned bytes, reads_left;
	uint32_t next_free;
	uint64_t t_issue, t_sent, stall;   /* Fig 9's round trip (cycles) */
} ar_upd;

/* A flow round at the host controllers (§IV-E: trees merged there). */
typedef struct ar_flow {
	bool used, gathering;
	uint64_t target, issued;
	ar_op op;
	ar_type type;
	const ar_stmt *first, *gather;   /* its first Update; the Gather that closed it */
	unsigned roots, pending;
	uint64_t tree_val[AR_HOSTS], tree_cnt[AR_HOSTS];
	bool tree_has[AR_HOSTS];
	uint32_t next_free;
} ar_flow;

/* A flow-table entry (Fig 6b), one per (flow, tree root). */
typedef struct ar_entry {
	bool used, gflag, has;
	int flow, root, parent;
	unsigned depth;
	uint32_t children, responded, child_has;
	uint64_t result, req, resp, next_seq, next_commit, count;
	uint64_t child_val[AR_CUBES], child_cnt[AR_CUBES];
} ar_entry;

/* An operand buffer (Fig 6c). */
typedef struct ar_buffer {
	bool used;
	int entry;              /* -1: an assignment */
	uint32_t upd;
	uint64_t seq;
	unsigned need;
	uint64_t op1[AR_LANES], op2[AR_LANES];
} ar_buffer;

/* Packets waiting at a cube: one queue per flow tree (wait.c). */
typedef struct ar_wait {
	ar_event ev;
	uint64_t order;         /* arrival number at the cube */
} ar_wait;

typedef struct ar_waitq {
	int64_t key;            /* flow * AR_HOSTS + root; -1: queue 0, no tree */
	ar_wait *w;
	size_t first, n, cap;   /* w[first..n) wait, oldest first */
	size_t rd, keep;        /* queue 0 during a pass: read and write cursors */
	bool active;            /* listed in act[] */
} ar_waitq;

typedef struct ar_waiting {
	ar_waitq *q;
	size_t nq, cap_q;
	uint32_t *map;          /* key -> queue + 1, open addressing */
	size_t cap_map;
	uint32_t *act;          /* queues with packets waiting */
	size_t nact, cap_act;
	uint32_t *heap;         /* a pass: queue heads, oldest first */
	size_t nheap, cap_heap;
	uint32_t cur;           /* the queue of the packet ar_wait_next gave */
	uint64_t arrivals;
	size_t n;               /* packets waiting */
} ar_waiting;

typedef struct ar_cube {
	ar_entry *ent;
	ar_buffer *buf;
	unsigned nent, nbuf;    /* in use */
	ar_waiting wait;        /* packets waiting, in arrival order per tree */
	bool waking, rewake;
} ar_cube;

/* One one-way link's busy times, [a, b) in 1/link_bytes cycles, sorted,
 * disjoint, ending after now (net.c). */
#define AR_LINK_SLOTS 8
typedef struct ar_link {
	uint64_t a[AR_LINK_SLOTS], b[AR_LINK_SLOTS];
	unsigned n;
	uint64_t fifo;         /* the end of the last claim made for its own cycle */
} ar_link;

typedef struct ar_sim {
	ar_program *p;
	const ar_config *c;
	ar_stats *st;
	diag *d;
	ar_host *host;
	ar_cube cube[AR_CUBES];
	ar_event *heap;
	size_t nheap, cap_heap;
	uint64_t now, seq;
	ar_upd *upd;
	size_t nupd, cap_upd;
	uint32_t upd_free;
	ar_flow *flow;
	size_t nflow, cap_flow;
	uint32_t flow_free;
	uint32_t *fmap;         /* target -> flow + 1, open addressing */
	size_t fmap_cap, fmap_used;
	/* the host's issue state */
	int cur_thread;
	bool has_op, host_done, host_scheduled, failed;
	ar_hostop op;
	uint64_t reads_out, writes_out;
	/* Each link's busy times: cube x -> y, and controller h's link down
	 * (to its cube) and up. */
	ar_link link[AR_CUBES][AR_CUBES];
	ar_link host_link[AR_HOSTS][2];
} ar_sim;

/* engine.c */
int ar_sim_push(ar_sim *s, ar_event ev, uint64_t delay);
void ar_sim_kick_host(ar_sim *s);
void ar_sim_count(ar_sim *s, ar_pktype t, unsigned bytes, unsigned hops, bool host_link);
void ar_addr_name(const ar_program *p, uint64_t addr, char *buf, size_t size);

/* net.c: a packet of `bytes` sent at cycle t (>= now) along the minimal
 * route from cube `from` to cube `to`, host link first if host >= 0
 * (controller host down to its cube; `from` is then that cube) or last
 * if up >= 0 (from `to`, which is the controller's cube, up to it).
 * A packet claims each link of its route when it is sent, at the time
 * its head gets there, and takes the first idle time there long enough
 * for its bytes; the cycle the whole packet has arrived. */
uint64_t ar_net_send(ar_sim *s, uint64_t t, int host, int from, int to, int up, unsigned bytes);
/* ar_net_send then ar_sim_push at the arrival; -1 out of memory. */
int ar_sim_send(ar_sim *s, ar_event ev, uint64_t t, int host, int from, int to, int up,
		unsigned bytes);

/* wait.c: a cube's waiting packets.  A pass: ar_wait_begin, then
 * ar_wait_next and ar_wait_done (processed or kept) per packet, until
 * ar_wait_next gives NULL, then ar_wait_end.  Pushes go between passes. */
int ar_wait_push(ar_waiting *w, int64_t key, const ar_event *ev);
bool ar_wait_has(const ar_waiting *w, int64_t key);
int ar_wait_begin(ar_waiting *w);
ar_event *ar_wait_next(ar_waiting *w);
void ar_wait_done(ar_waiting *w, bool processed);
void ar_wait_end(ar_waiting *w);
const ar_event *ar_wait_oldest(const ar_waiting *w, bool (*want)(const ar_event *));
void ar_wait_free(ar_waiting *w);
/* A deep copy of w into out (for snapshots); -1 out of memory. */
int ar_wait_copy(ar_waiting *out, const ar_waiting *w);

/* session.c: what the debugger sees */
ar_sim *ar_session_sim(ar_session *ss);

/* flows.c: the controllers' flow records */
int ar_flow_find(ar_sim *s, uint64_t target);
int ar_flow_new(ar_sim *s, uint64_t target);
void ar_flow_delete(ar_sim *s, int f);
void ar_flow_start_gather(ar_sim *s, int f);
void ar_flow_tree_done(ar_sim *s, const ar_event *ev);
void ar_flow_commit(ar_sim *s, const ar_event *ev);

/* are.c: the Active-Routing Engine of a cube (§IV-C) */
void ar_are_request(ar_sim *s, ar_event *ev);
void ar_are_opread(ar_sim *s, const ar_event *ev);
void ar_are_opresp(ar_sim *s, const ar_event *ev);
void ar_are_gresp(ar_sim *s, const ar_event *ev);
/* A description of the first packet still waiting anywhere, or 0. */
int ar_are_describe_wait(ar_sim *s, char *buf, size_t size);

#endif
