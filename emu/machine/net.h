/* SPDX-License-Identifier: MIT */
/*
 * net.h: the interconnect that data-movement commands use (prefix
 * emu_net_): the H-tree inside each L3 bank and the mesh NoC between
 * banks (infinity-stream §5.2 "a buffered H tree to enable efficient
 * broadcast", Table 2 "32B 1 cy. link, 8x8 Mesh ... multicast X-Y
 * routing", "5-level H tree, 64B total BW").  doc/MOVEMENT.md states the
 * model with a worked example.
 *
 * H-tree.  A bank's arrays hang off a tree: binary levels over the
 * arrays of a way (level 1 are the links out of the arrays; a way of A
 * arrays has ceil(log2 A) binary levels), then one level across ways
 * (the link from each way's root to the bank's root, where the bank's
 * NoC port is).  The default machine (16 arrays a way) has 4 + 1 = 5
 * levels, as Table 2 says.  A link of level l moves 4 * 2^(l-1) bytes a
 * cycle in each direction (4-byte leaves, the published artifact's
 * degree-2 tree; 64 bytes at the way level of the default machine).
 *
 * NoC.  Bank b sits at mesh position (b % mesh_x, b / mesh_x)
 * (doc/MACHINE.md); packets take X-Y routes over 32-byte links; a packet
 * is 512 bits (2 flits).  Moves between one pair of banks in one command
 * are packed together; a broadcast multicasts: one packet stream from
 * its source bank, forked along the union of the X-Y routes, each link
 * carrying it once.
 *
 * Cycles of one command (emu_net_end):
 *   H-tree  sum over levels of the busiest link (either direction) of
 *           that level: ceil(bytes / link width)  (store and forward);
 *   inject  the most flits a bank puts on the NoC (one flit a cycle);
 *   NoC     the most flits on one mesh link plus the longest route in
 *           hops times EMU_NET_HOP_CYCLES (5-stage router + 1-cycle link).
 */
#ifndef INFSIM_NET_H
#define INFSIM_NET_H

#include <stddef.h>
#include <stdint.h>

#include "sram.h"

#define EMU_NET_MAX_LEVELS 13   /* 12 binary levels (4096 arrays) + ways */
#define EMU_NET_LEAF_BYTES 4    /* level-1 link width, bytes a cycle */
#define EMU_NET_LINK_BYTES 32   /* mesh link width (Table 2) */
#define EMU_NET_PACKET_BITS 512
#define EMU_NET_HOP_CYCLES 6    /* 5-stage router + 1-cycle link */

/* The four links out of a router. */
enum emu_net_dir { EMU_NET_XP = 0, EMU_NET_XM, EMU_NET_YP, EMU_NET_YM };

typedef struct emu_net_stats {
	unsigned levels;        /* H-tree levels of a bank */
	/* Bytes over the links of each level ([0] = level 1), both
	 * directions: what Fig 13 of infinity-stream splits by level. */
	uint64_t htree_bytes[EMU_NET_MAX_LEVELS];
	uint64_t noc_packets;   /* injected; a multicast stream counts once */
	uint64_t noc_bytes;     /* bytes of those packets */
	uint64_t noc_byte_hops; /* packet bytes x links crossed (Fig 12) */
	uint64_t htree_cycles, inject_cycles, noc_cycles;
	unsigned nbanks;
	uint64_t *bank_sent;    /* NoC bytes injected by each bank */
	uint64_t *bank_recv;    /* NoC bytes delivered to each bank */
	uint64_t *bank_htree;   /* H-tree bytes of each bank, all levels */
	uint64_t *link_bytes;   /* [bank * 4 + dir]: bytes on that mesh link */
} emu_net_stats;

/* What one command costs on the interconnect (emu_net_end). */
typedef struct emu_net_cost {
	uint64_t htree_cycles, inject_cycles, noc_cycles;
	unsigned max_hops;
	uint64_t noc_packets;
} emu_net_cost;

typedef struct emu_net {
	sram_geom g;
	unsigned lw;            /* binary levels of a way */
	unsigned p2;            /* 2^lw: leaves of a way's tree */
	unsigned nbanks, nways;
	emu_net_stats st;
	/* One command's loads: H-tree edges (per way, heap numbered, up and
	 * down), mesh links in flits, flits injected per bank; the marks
	 * count each link once per multicast. */
	uint64_t *edge_load;
	uint32_t *edge_mark;
	uint64_t *mesh_load;
	uint32_t *mesh_mark;
	uint64_t *inject;
	uint32_t epoch;
	size_t *touched;        /* edges loaded by this command */
	size_t ntouched, cap_touched;
	unsigned max_hops;
	/* Unicast NoC flows of this command, packed per bank pair at the end. */
	struct emu_net_flow *flows;
	size_t nflows, cap_flows;
	uint64_t packets;
} emu_net;

/* 0, or -1 when out of memory (n is then freed). */
int emu_net_init(emu_net *n, const sram_geom *g);
void emu_net_free(emu_net *n);
/* Clear the statistics (not the geometry). */
void emu_net_reset(emu_net *n);

/* One command's transfers: begin, any number of sends, end.  A send
 * carries bits from array src to each of dst[0..ndst) (a unicast when
 * ndst is 1, else a broadcast); a destination equal to src costs
 * nothing.  end packs the NoC flows, adds everything to the statistics
 * and gives the command's cycles.  send returns -1 when out of memory. */
void emu_net_begin(emu_net *n);
int emu_net_send(emu_net *n, unsigned src, const unsigned *dst, size_t ndst,
		 uint64_t bits);
void emu_net_end(emu_net *n, emu_net_cost *c);

/* The bank of a global array, the hops of the X-Y route between two
 * banks, and the H-tree level at which two arrays of one bank meet
 * (0 for the same array). */
unsigned emu_net_bank(const sram_geom *g, unsigned array);
unsigned emu_net_hops(const sram_geom *g, unsigned bank_a, unsigned bank_b);
unsigned emu_net_meet_level(const emu_net *n, unsigned a, unsigned b);
/* Width in bytes of a link of level l (1-based). */
uint64_t emu_net_link_width(unsigned l);
/* A barrier's cycles: a round trip over the mesh diameter (§5.2: each
 * bank reports its packet counts, then the barrier is cleared). */
uint64_t emu_net_barrier_cycles(const sram_geom *g);

#endif
