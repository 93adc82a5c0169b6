/* SPDX-License-Identifier: MIT */
/*
 * net.c: the H-tree and mesh NoC model; see net.h and doc/MOVEMENT.md.
 *
 * Edges of a way's tree are heap numbered: node 1 is the way's root,
 * node x has children 2x and 2x + 1, and the leaves p2 .. 2 p2 - 1 are
 * the arrays (p2 = 2^ceil(log2 A); leaves past A are never used).  Edge
 * x links node x to its parent, and edge 1 links the way's root to the
 * bank's root.  So edge x is on level lw + 1 - floor(log2 x).
 */
#include "net.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct emu_net_flow {
	unsigned src_bank, dst_bank;
	uint64_t bits;
};

enum { UP = 0, DOWN = 1 };

static unsigned log2_floor(uint64_t x)
{
	return x ? 63u - (unsigned)__builtin_clzll(x) : 0;
}

static uint64_t div_ceil(uint64_t a, uint64_t b)
{
	return a / b + (a % b != 0);
}

unsigned emu_net_bank(const sram_geom *g, unsigned array)
{
	return array / (g->arrays_per_way * g->ways_per_bank);
}

unsigned emu_net_hops(const sram_geom *g, unsigned a, unsigned b)
{
	const unsigned ax = a % g->mesh_x, ay = a / g->mesh_x;
	const unsigned bx = b % g->mesh_x, by = b / g->mesh_x;
	return (ax > bx ? ax - bx : bx - ax) + (ay > by ? ay - by : by - ay);
}

uint64_t emu_net_link_width(unsigned l)
{
	return (uint64_t)EMU_NET_LEAF_BYTES << (l ? l - 1 : 0);
}

uint64_t emu_net_barrier_cycles(const sram_geom *g)
{
	return 2 * (uint64_t)(g->mesh_x - 1 + g->mesh_y - 1) * EMU_NET_HOP_CYCLES;
}

unsigned emu_net_meet_level(const emu_net *n, unsigned a, unsigned b)
{
	const unsigned apw = n->g.arrays_per_way;
	if (a == b)
		return 0;
	if (a / apw != b / apw)
		return n->lw + 1;
	return log2_floor((a % apw) ^ (b % apw)) + 1;
}

int emu_net_init(emu_net *n, const sram_geom *g)
{
	memset(n, 0, sizeof *n);
	n->g = *g;
	n->lw = 0;
	while ((1u << n->lw) < g->arrays_per_way)
		n->lw++;
	n->p2 = 1u << n->lw;
	n->nbanks = g->mesh_x * g->mesh_y;
	n->nways = n->nbanks * g->ways_per_bank;
	const size_t edges = (size_t)n->nways * n->p2 * 4;
	n->edge_load = calloc(edges, sizeof *n->edge_load);
	n->edge_mark = calloc(edges, sizeof *n->edge_mark);
	n->mesh_load = calloc((size_t)n->nbanks * 4, sizeof *n->mesh_load);
	n->mesh_mark = calloc((size_t)n->nbanks * 4, sizeof *n->mesh_mark);
	n->inject = calloc(n->nbanks, sizeof *n->inject);
	n->st.nbanks = n->nbanks;
	n->st.levels = n->lw + 1;
	n->st.bank_sent = calloc(n->nbanks, sizeof(uint64_t));
	n->st.bank_recv = calloc(n->nbanks, sizeof(uint64_t));
	n->st.bank_htree = calloc(n->nbanks, sizeof(uint64_t));
	n->st.link_bytes = calloc((size_t)n->nbanks * 4, sizeof(uint64_t));
	if (!n->edge_load || !n->edge_mark || !n->mesh_load || !n->mesh_mark ||
	    !n->inject || !n->st.bank_sent || !n->st.bank_recv ||
	    !n->st.bank_htree || !n->st.link_bytes) {
		emu_net_free(n);
		return -1;
	}
	return 0;
}

void emu_net_free(emu_net *n)
{
	free(n->edge_load);
	free(n->edge_mark);
	free(n->mesh_load);
	free(n->mesh_mark);
	free(n->inject);
	free(n->touched);
	free(n->flows);
	free(n->st.bank_sent);
	free(n->st.bank_recv);
	free(n->st.bank_htree);
	free(n->st.link_bytes);
	memset(n, 0, sizeof *n);
}

void emu_net_reset(emu_net *n)
{
	emu_net_stats *s = &n->st;
	memset(s->htree_bytes, 0, sizeof s->htree_bytes);
	s->noc_packets = s->noc_bytes = s->noc_byte_hops = 0;
	s->htree_cycles = s->inject_cycles = s->noc_cycles = 0;
	memset(s->bank_sent, 0, n->nbanks * sizeof(uint64_t));
	memset(s->bank_recv, 0, n->nbanks * sizeof(uint64_t));
	memset(s->bank_htree, 0, n->nbanks * sizeof(uint64_t));
	memset(s->link_bytes, 0, (size_t)n->nbanks * 4 * sizeof(uint64_t));
}

void emu_net_begin(emu_net *n)
{
	n->ntouched = 0;
	n->nflows = 0;
	n->max_hops = 0;
	n->packets = 0;
	memset(n->mesh_load, 0, (size_t)n->nbanks * 4 * sizeof *n->mesh_load);
	memset(n->inject, 0, n->nbanks * sizeof *n->inject);
}

static int touch(emu_net *n, size_t e)
{
	if (n->ntouched == n->cap_touched) {
		size_t cap = n->cap_touched ? 2 * n->cap_touched : 256;
		size_t *t = realloc(n->touched, cap * sizeof *t);
		if (!t)
			return -1;
		n->touched = t;
		n->cap_touched = cap;
	}
	n->touched[n->ntouched++] = e;
	return 0;
}

/* Load edge x of way w in direction dir with bytes, once per send. */
static int load_edge(emu_net *n, unsigned w, unsigned x, int dir, uint64_t bytes)
{
	const size_t e = ((size_t)w * n->p2 * 2 + x) * 2 + (size_t)dir;
	if (n->edge_mark[e] == n->epoch)
		return 0;
	n->edge_mark[e] = n->epoch;
	if (n->edge_load[e] == 0 && touch(n, e) != 0)
		return -1;
	n->edge_load[e] += bytes;
	const unsigned level = n->lw + 1 - log2_floor(x);
	n->st.htree_bytes[level - 1] += bytes;
	n->st.bank_htree[w / n->g.ways_per_bank] += bytes;
	return 0;
}

/* From array a's leaf up to (and including) the way-level edge. */
static int climb(emu_net *n, unsigned a, int dir, uint64_t bytes)
{
	const unsigned apw = n->g.arrays_per_way, w = a / apw;
	for (unsigned x = n->p2 + a % apw; x >= 1; x >>= 1)
		if (load_edge(n, w, x, dir, bytes) != 0)
			return -1;
	return 0;
}

/* The H-tree path between two arrays of one bank. */
static int tree_path(emu_net *n, unsigned a, unsigned b, uint64_t bytes)
{
	const unsigned apw = n->g.arrays_per_way;
	if (a / apw != b / apw)
		return climb(n, a, UP, bytes) || climb(n, b, DOWN, bytes) ? -1 : 0;
	const unsigned w = a / apw;
	for (unsigned xa = n->p2 + a % apw, xb = n->p2 + b % apw; xa != xb;
	     xa >>= 1, xb >>= 1)
		if (load_edge(n, w, xa, UP, bytes) || load_edge(n, w, xb, DOWN, bytes))
			return -1;
	return 0;
}

/* The X-Y route from bank s to bank d: each mesh link once per send
 * (the multicast tree is the union of the routes).  Returns the links
 * newly loaded. */
static unsigned mesh_route(emu_net *n, unsigned s, unsigned d, uint64_t flits)
{
	const unsigned mx = n->g.mesh_x;
	unsigned x = s % mx, y = s / mx, links = 0;
	const unsigned tx = d % mx, ty = d / mx;
	while (x != tx || y != ty) {
		unsigned dir, b = y * mx + x;
		if (x != tx) {
			dir = x < tx ? EMU_NET_XP : EMU_NET_XM;
			x = x < tx ? x + 1 : x - 1;
		} else {
			dir = y < ty ? EMU_NET_YP : EMU_NET_YM;
			y = y < ty ? y + 1 : y - 1;
		}
		const size_t l = (size_t)b * 4 + dir;
		if (n->mesh_mark[l] != n->epoch) {
			n->mesh_mark[l] = n->epoch;
			n->mesh_load[l] += flits;
			n->st.link_bytes[l] += flits * EMU_NET_LINK_BYTES;
			links++;
		}
	}
	const unsigned hops = emu_net_hops(&n->g, s, d);
	if (hops > n->max_hops)
		n->max_hops = hops;
	return links;
}

/* A stream of bits from bank s to banks[0..nb) (distinct, not s): a
 * unicast when nb is 1, else a multicast along the union of the X-Y
 * routes, each link carrying the stream once. */
static void mesh_stream(emu_net *n, unsigned s, const unsigned *banks,
			size_t nb, uint64_t bits)
{
	const uint64_t packets = div_ceil(bits, EMU_NET_PACKET_BITS);
	const uint64_t bytes = packets * EMU_NET_PACKET_BITS / 8;
	const uint64_t flits = bytes / EMU_NET_LINK_BYTES;
	uint64_t links = 0;
	n->epoch++;
	for (size_t i = 0; i < nb; i++) {
		links += mesh_route(n, s, banks[i], flits);
		n->st.bank_recv[banks[i]] += bytes;
	}
	n->st.noc_packets += packets;
	n->packets += packets;
	n->st.noc_bytes += bytes;
	n->st.noc_byte_hops += bytes * links;
	n->st.bank_sent[s] += bytes;
	n->inject[s] += flits;
}

/* The distinct banks of dst[0..ndst) other than bank s, into banks. */
static size_t remote_banks(const emu_net *n, unsigned s, const unsigned *dst,
			   size_t ndst, unsigned *banks)
{
	size_t nb = 0;
	for (size_t i = 0; i < ndst; i++) {
		const unsigned d = emu_net_bank(&n->g, dst[i]);
		bool seen = d == s;
		for (size_t j = 0; j < nb && !seen; j++)
			seen = banks[j] == d;
		if (!seen)
			banks[nb++] = d;
	}
	return nb;
}

static int add_flow(emu_net *n, unsigned s, unsigned d, uint64_t bits)
{
	if (n->nflows == n->cap_flows) {
		size_t cap = n->cap_flows ? 2 * n->cap_flows : 64;
		struct emu_net_flow *f = realloc(n->flows, cap * sizeof *f);
		if (!f)
			return -1;
		n->flows = f;
		n->cap_flows = cap;
	}
	n->flows[n->nflows++] = (struct emu_net_flow){s, d, bits};
	return 0;
}

int emu_net_send(emu_net *n, unsigned src, const unsigned *dst, size_t ndst,
		 uint64_t bits)
{
	const uint64_t bytes = div_ceil(bits, 8);
	const unsigned sb = emu_net_bank(&n->g, src);
	bool remote = false, up = false;
	n->epoch++;
	for (size_t i = 0; i < ndst; i++) {
		const unsigned db = emu_net_bank(&n->g, dst[i]);
		if (dst[i] == src)
			continue;
		if (db == sb) {
			if (tree_path(n, src, dst[i], bytes) != 0)
				return -1;
			continue;
		}
		remote = true;
		if ((!up && climb(n, src, UP, bytes) != 0) ||
		    climb(n, dst[i], DOWN, bytes) != 0)
			return -1;
		up = true;
	}
	if (!remote)
		return 0;
	if (ndst == 1)
		return add_flow(n, sb, emu_net_bank(&n->g, dst[0]), bits);
	unsigned *banks = malloc(ndst * sizeof *banks);
	if (!banks)
		return -1;
	mesh_stream(n, sb, banks, remote_banks(n, sb, dst, ndst, banks), bits);
	free(banks);
	return 0;
}

static int flow_cmp(const void *a, const void *b)
{
	const struct emu_net_flow *x = a, *y = b;
	if (x->src_bank != y->src_bank)
		return x->src_bank < y->src_bank ? -1 : 1;
	if (x->dst_bank != y->dst_bank)
		return x->dst_bank < y->dst_bank ? -1 : 1;
	return 0;
}

/* The unicast flows of the command, packed per (source, destination)
 * bank pair into 512-bit packets (§5.2: the bank controller "packs the
 * bits into NoC packets"), then routed. */
static void pack_flows(emu_net *n)
{
	if (n->nflows > 1)
		qsort(n->flows, n->nflows, sizeof *n->flows, flow_cmp);
	for (size_t i = 0; i < n->nflows;) {
		const unsigned s = n->flows[i].src_bank, d = n->flows[i].dst_bank;
		uint64_t bits = 0;
		for (; i < n->nflows && n->flows[i].src_bank == s &&
		       n->flows[i].dst_bank == d; i++)
			bits += n->flows[i].bits;
		mesh_stream(n, s, &d, 1, bits);
	}
}

void emu_net_end(emu_net *n, emu_net_cost *c)
{
	uint64_t worst[EMU_NET_MAX_LEVELS] = {0};
	pack_flows(n);
	memset(c, 0, sizeof *c);
	for (size_t i = 0; i < n->ntouched; i++) {
		const size_t e = n->touched[i];
		const unsigned x = (unsigned)(e / 2 % (2 * (size_t)n->p2));
		const unsigned level = n->lw + 1 - log2_floor(x);
		if (n->edge_load[e] > worst[level - 1])
			worst[level - 1] = n->edge_load[e];
		n->edge_load[e] = 0;
	}
	n->ntouched = 0;
	for (unsigned l = 0; l <= n->lw && l < EMU_NET_MAX_LEVELS; l++)
		c->htree_cycles += div_ceil(worst[l], emu_net_link_width(l + 1));
	uint64_t link_flits = 0;
	for (size_t l = 0; l < (size_t)n->nbanks * 4; l++)
		if (n->mesh_load[l] > link_flits)
			link_flits = n->mesh_load[l];
	for (unsigned b = 0; b < n->nbanks; b++)
		if (n->inject[b] > c->inject_cycles)
			c->inject_cycles = n->inject[b];
	c->max_hops = n->max_hops;
	c->noc_cycles = link_flits ? link_flits + (uint64_t)n->max_hops * EMU_NET_HOP_CYCLES : 0;
	c->noc_packets = n->packets;
	n->st.htree_cycles += c->htree_cycles;
	n->st.inject_cycles += c->inject_cycles;
	n->st.noc_cycles += c->noc_cycles;
}
