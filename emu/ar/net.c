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
 */
#include "ar_private.h"

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
