/* SPDX-License-Identifier: MIT */
/*
 * net.c: the memory network (Table I: 16 cubes, 4 host controllers,
 * minimal routing) and the address map.  The paper cites a Dragonfly [6]
 * without its wiring; doc/ACTIVE-ROUTING.md ("The network") draws the
 * one chosen here and the 4x4 mesh offered beside it.
 *
 * Dragonfly: 4 groups of 4 cubes (group g = cubes 4g..4g+3), all-to-all
 * inside a group; cube 4g+k (k = 1, 2, 3) has the one global link of its
 * group to group (g+k) mod 4, landing on that group's cube with local
 * index 4-k.  Cube 4g (k = 0) has no global link: it is the group's port
 * to host controller g.  Minimal routing: local hop to the gateway,
 * global hop, local hop: 3 hops at most.
 *
 * Mesh: a 4x4 grid (cube = 4y + x), XY routing, host controllers at the
 * corners 0, 3, 12, 15.
 *
 * Links (ar_net_send): every link, cube to cube and controller to cube,
 * is two one-way links of link_bytes bytes per cycle (Table I: 16 lanes
 * x 12.5 Gb/s = 25 GB/s = 20 B per 0.8 ns cycle).  A packet's head
 * takes the hop's latency once the link is free; the link is busy for
 * bytes / link_bytes cycles (virtual cut-through: the tail follows the
 * head, so the bytes cost their time once, after the last hop).  A
 * packet claims every link of its route when it is sent, for the time
 * its head gets there; a link carries one packet at a time, so a claim
 * takes the first idle time at or after its head's arrival that holds
 * its bytes, and a packet whose link is busy waits (claims made in one
 * cycle are served in the order made: FIFO).  Times are exact integers
 * in units of 1/link_bytes cycle.
 */
#include <string.h>

#include "engine_types.h"

int ar_cube_of(const ar_config *c, uint64_t addr)
{
	return (int)((addr / c->interleave) % AR_CUBES);
}

/* The cube's own blocks are numbered in address order and spread over
 * the vaults round robin. */
unsigned ar_vault_of(const ar_config *c, uint64_t addr)
{
	uint64_t chunk = addr / c->interleave / AR_CUBES;
	uint64_t local = chunk * (c->interleave / AR_BLOCK) + (addr % c->interleave) / AR_BLOCK;
	return (unsigned)(local % AR_VAULTS);
}

int ar_host_cube(const ar_config *c, unsigned host)
{
	static const int corners[AR_HOSTS] = { 0, 3, 12, 15 };
	return c->net == AR_NET_MESH ? corners[host % AR_HOSTS] : (int)(4 * (host % AR_HOSTS));
}

int ar_nearest_host(const ar_config *c, int cube)
{
	if (c->net == AR_NET_DRAGONFLY)
		return cube / 4;
	int best = 0;
	for (int h = 1; h < AR_HOSTS; h++)
		if (ar_hops(c, ar_host_cube(c, (unsigned)h), cube) <
		    ar_hops(c, ar_host_cube(c, (unsigned)best), cube))
			best = h;
	return best;
}

static int dragonfly_next(int from, int to)
{
	int gf = from / 4, gt = to / 4;
	if (gf == gt)
		return to;
	int gateway = 4 * gf + ((gt - gf) & 3);
	if (from != gateway)
		return gateway;
	return 4 * gt + ((gf - gt) & 3);
}

static int mesh_next(int from, int to)
{
	int fx = from % 4, tx = to % 4;
	if (fx != tx)
		return from + (tx > fx ? 1 : -1);
	return from + (to > from ? 4 : -4);
}

int ar_next_hop(const ar_config *c, int from, int to)
{
	if (from == to)
		return to;
	return c->net == AR_NET_MESH ? mesh_next(from, to) : dragonfly_next(from, to);
}

unsigned ar_hops(const ar_config *c, int from, int to)
{
	unsigned n = 0;
	while (from != to) {
		from = ar_next_hop(c, from, to);
		n++;
	}
	return n;
}

/* Fig 3b: walk both minimal routes from the root together; the compute
 * point is the last cube they share. */
int ar_meet_cube(const ar_config *c, int root, int a, int b)
{
	int x = root, y = root, last = root;
	while (x == y) {
		last = x;
		if (x == a || y == b)
			break;
		x = ar_next_hop(c, x, a);
		y = ar_next_hop(c, y, b);
	}
	return last;
}

/* Take [start, end) on link l at slot i (l->n < AR_LINK_SLOTS): merge
 * with the neighbours it touches. */
static void take(ar_link *l, unsigned i, uint64_t start, uint64_t end)
{
	if (i > 0 && l->b[i - 1] == start) {
		l->b[i - 1] = end;
		if (i < l->n && l->a[i] == end) {
			l->b[i - 1] = l->b[i];
			memmove(&l->a[i], &l->a[i + 1], (l->n - i - 1) * sizeof l->a[0]);
			memmove(&l->b[i], &l->b[i + 1], (l->n - i - 1) * sizeof l->b[0]);
			l->n--;
		}
		return;
	}
	if (i < l->n && l->a[i] == end) {
		l->a[i] = start;
		return;
	}
	memmove(&l->a[i + 1], &l->a[i], (l->n - i) * sizeof l->a[0]);
	memmove(&l->b[i + 1], &l->b[i], (l->n - i) * sizeof l->b[0]);
	l->a[i] = start;
	l->b[i] = end;
	l->n++;
}

/* Forget the busy times that have ended; with every slot still taken,
 * fill the shortest gap between two (the link then counts as busy a
 * little longer than it is: rare, and deterministic). */
static void tidy(ar_link *l, uint64_t now)
{
	unsigned drop = 0;
	while (drop < l->n && l->b[drop] <= now)
		drop++;
	if (drop) {
		memmove(&l->a[0], &l->a[drop], (l->n - drop) * sizeof l->a[0]);
		memmove(&l->b[0], &l->b[drop], (l->n - drop) * sizeof l->b[0]);
		l->n -= drop;
	}
	if (l->n < AR_LINK_SLOTS)
		return;
	unsigned k = 0;
	for (unsigned j = 1; j + 1 < l->n; j++)
		if (l->a[j + 1] - l->b[j] < l->a[k + 1] - l->b[k])
			k = j;
	l->b[k] = l->b[k + 1];
	memmove(&l->a[k + 1], &l->a[k + 2], (l->n - k - 2) * sizeof l->a[0]);
	memmove(&l->b[k + 1], &l->b[k + 2], (l->n - k - 2) * sizeof l->b[0]);
	l->n--;
}

/* One link: the head arrives at *head (units); it waits while the link
 * is busy, until an idle time of ser units, then the link is busy for
 * ser units and the head reaches the far end lat units after it starts.
 * A packet that reaches the link now starts after every earlier such
 * packet (FIFO: the order the protocol needs, e.g. a tree's Update
 * before its Gather request); a claim for a later time (the next hops
 * of a route, a response after its vault read) takes the first idle
 * time that fits, which may come before claims made earlier. */
static void claim(ar_sim *s, ar_link *l, int cube, uint64_t *head, uint64_t ser, uint64_t lat)
{
	uint64_t now = s->now * s->c->link_bytes, start = *head;
	bool present = *head == now;
	unsigned i;
	tidy(l, now);
	if (present && l->fifo > start)
		start = l->fifo;
	for (i = 0; i < l->n; i++) {
		if (l->b[i] <= start)
			continue;
		if (l->a[i] >= start + ser)
			break;
		start = l->b[i];
	}
	take(l, i, start, start + ser);
	if (present)
		l->fifo = start + ser;
	if (start > *head) {
		s->st->link_waits++;
		s->st->link_wait_units += start - *head;
		s->st->cube_link_wait[cube] += start - *head;
	}
	*head = start + lat;
}

uint64_t ar_net_send(ar_sim *s, uint64_t t, int host, int from, int to, int up, unsigned bytes)
{
	uint64_t r = s->c->link_bytes;
	if (!r) /* no limit: the latencies alone */
		return t + (host >= 0 ? AR_LAT_HOST : 0) + (up >= 0 ? AR_LAT_HOST : 0) +
		       (uint64_t)ar_hops(s->c, from, to) * AR_LAT_LINK;
	uint64_t head = t * r;
	bool any = false;
	if (host >= 0) {
		claim(s, &s->host_link[host][0], from, &head, bytes, AR_LAT_HOST * r);
		any = true;
	}
	while (from != to) {
		int next = ar_next_hop(s->c, from, to);
		claim(s, &s->link[from][next], from, &head, bytes, AR_LAT_LINK * r);
		from = next;
		any = true;
	}
	if (up >= 0) {
		claim(s, &s->host_link[up][1], to, &head, bytes, AR_LAT_HOST * r);
		any = true;
	}
	if (any)
		head += bytes;
	return (head + r - 1) / r;
}

int ar_sim_send(ar_sim *s, ar_event ev, uint64_t t, int host, int from, int to, int up,
		unsigned bytes)
{
	return ar_sim_push(s, ev, ar_net_send(s, t, host, from, to, up, bytes) - s->now);
}
