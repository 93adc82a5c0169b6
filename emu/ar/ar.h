/* SPDX-License-Identifier: MIT */
/*
 * ar.h: Active-Routing (HPCA'19), in-network reductions over a network of
 * 16 memory cubes (prefix ar_).  doc/ACTIVE-ROUTING.md is the reference.
 *
 * What this folder offers:
 *   - the program format (.ar text): named arrays in one flat memory, the
 *     host API of Fig 5 (UpdateRR, UpdateRI, UpdateII, Gather) run by
 *     several host threads, for-loops and index arrays (ar_parse);
 *   - the network (a 16-cube Dragonfly or a 4x4 mesh, 4 host
 *     controllers, minimal routing, links of Table I's bandwidth with
 *     per-link queues, address -> cube/vault interleave) and
 *     the Active-Routing Engine of every cube (flow table, operand
 *     buffers, ALU) as an event-driven simulation that computes every
 *     value (ar_run);
 *   - the PEI baseline counted on the same program (§VI);
 *   - statistics: packets and bytes x hops by type, host <-> network
 *     bytes, per-cube compute and operand counts, tree depth, stalls,
 *     link waits, the Update round trip of Fig 9, the Fig 10 ratios
 *     against PEI, the Fig 11 heat map as SVG;
 *   - the target the generic fronts drive (target.c: tgt_ar; `infsim
 *     run X.ar` and `infsdb X.ar`), with --check's independent
 *     reference (ref.c).
 * Library code never prints: errors go to a diag (lib/diag.h).
 */
#ifndef INFSIM_AR_H
#define INFSIM_AR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "api.h"
#include "diag.h"

INFSIM_BEGIN_DECLS

#define AR_CUBES 16       /* Table I: 16 cubes */
#define AR_HOSTS 4        /* Table I: 4 host controllers */
#define AR_BLOCK 64       /* bytes of a block: RR offload granularity (§III-C) */
#define AR_VAULTS 32      /* Table I: 32 vaults per cube */
#define AR_SRC_MAX (1u << 20)   /* bytes of program text */

/* Element types of arrays. */
typedef enum { AR_I32, AR_I64, AR_F32 } ar_type;

/* Update opcodes (§IV-A, Fig 5).  The first group are reductions: each
 * one is a flow, gathered into its target; the last three assign. */
typedef enum {
	AR_OP_SUM, AR_OP_XOR, AR_OP_AND, AR_OP_MIN, AR_OP_MAX,
	AR_OP_MAC, AR_OP_MSUB, AR_OP_ABS,
	AR_OP_MOV, AR_OP_CONST, AR_OP_DIV,
	AR_OP_COUNT
} ar_op;

typedef enum { AR_ROOT_NAIVE, AR_ROOT_TID, AR_ROOT_ADDR } ar_root_policy;
typedef enum { AR_NET_DRAGONFLY, AR_NET_MESH } ar_net_kind;

/* Packet types counted in the statistics (Fig 4). */
typedef enum {
	AR_PK_UPDATE, AR_PK_OPREQ, AR_PK_OPRESP, AR_PK_GREQ, AR_PK_GRESP,
	AR_PK_COMMIT, AR_PK_TYPES
} ar_pktype;

typedef struct ar_config {
	ar_root_policy root;
	ar_net_kind net;
	uint64_t interleave;      /* bytes per cube before the next cube */
	unsigned flow_entries;    /* per cube (Table I: 16) */
	unsigned buffers;         /* per cube (Table I: 128) */
	uint64_t max_events;      /* bound on simulated events */
	uint64_t max_memory;      /* bound on the bytes of all arrays */
	unsigned link_bytes;      /* bytes a link carries per cycle each way
				   * (Table I: 16 lanes x 12.5 Gb/s at 1250 MHz
				   * = 20); 0: no limit, no queueing */
} ar_config;

void ar_config_default(ar_config *c);

/* Traffic of one kind of packet. */
typedef struct ar_traffic {
	uint64_t packets, bytes, byte_hops;
} ar_traffic;

typedef struct ar_stats {
	ar_traffic pk[AR_PK_TYPES];       /* Active-Routing, by packet type */
	uint64_t host_active, host_normal; /* bytes over the host links */
	uint64_t cube_compute[AR_CUBES];  /* element operations per cube */
	uint64_t cube_operands[AR_CUBES]; /* operand elements read per cube */
	uint64_t cube_updates[AR_CUBES];  /* Updates computed per cube */
	uint64_t updates_issued, updates_computed, assigns, gathers, commits;
	uint64_t elem_ops;
	unsigned trees, max_depth;
	uint64_t depth_sum, depth_count;  /* compute-point depths */
	uint64_t stall_table, stall_buffer;        /* packets that waited */
	uint64_t stall_table_cycles, stall_buffer_cycles;
	unsigned max_table, max_buffers;  /* peak occupancy of any cube */
	uint64_t cycles, events;
	/* The links (doc "The network"): packets that waited for a busy
	 * link, and the wait, in 1/link_bytes cycles (1/1 with no limit). */
	uint64_t link_waits, link_wait_units;
	uint64_t cube_link_wait[AR_CUBES]; /* the same, per sending cube */
	/* Fig 9: the round trip of every Update (and assignment) computed:
	 * issue -> operand requests out, less the stall (request); waits for
	 * a flow-table entry or buffer (stall); requests out -> last operand
	 * in (response).  Cycles, summed over `lat_count` operations. */
	uint64_t lat_request, lat_stall, lat_response, lat_count;
	/* PEI baseline on the same program (§VI). */
	ar_traffic pei_pk;                /* all PEI packets */
	uint64_t pei_host_active, pei_host_normal;
	uint64_t pei_cube_compute[AR_CUBES];
	/* End state, checked after the run (issue 16's invariants). */
	bool end_clean;                   /* tables, buffers, packets empty */
} ar_stats;

typedef struct ar_program ar_program;

/* Parse program text (not NUL-terminated).  params: "NAME=VALUE" strings
 * overriding `param` lines (nparams of them).  NULL with d set. */
ar_program *ar_parse(const char *path, const char *text, size_t len,
		     char *const *params, size_t nparams, const ar_config *c,
		     diag *d);
void ar_program_free(ar_program *p);

/* Arrays of a parsed program, for loading and saving. */
size_t ar_array_count(const ar_program *p);
const char *ar_array_name(const ar_program *p, size_t i);
int ar_array_find(const ar_program *p, const char *name);
ar_type ar_array_type(const ar_program *p, size_t i);
uint64_t ar_array_len(const ar_program *p, size_t i);
/* Element k as raw little-endian bits (zero-extended). */
uint64_t ar_array_get(const ar_program *p, size_t i, uint64_t k);
void ar_array_set(ar_program *p, size_t i, uint64_t k, uint64_t bits);
uint64_t ar_array_base(const ar_program *p, size_t i);

/* Run the program on the network: every Update, every operand, every
 * partial and every Gather, event by event.  Fills st.  0, or -1 with d
 * set (a located message for errors in the program, or a deadlock). */
int ar_run(ar_program *p, const ar_config *c, ar_stats *st, diag *d);

/* The same run one event at a time (engine.c, session.c), for infsdb.
 * ar_session_step: 1 while events remain, 0 when the run has ended well
 * (its end checks made), -1 with d set. */
typedef struct ar_session ar_session;
ar_session *ar_session_new(ar_program *p, const ar_config *c, ar_stats *st, diag *d);
int ar_session_step(ar_session *ss);
void ar_session_free(ar_session *ss);
uint64_t ar_session_computed(ar_session *ss);  /* Updates and assignments done */
uint64_t ar_session_now(const ar_session *ss);  /* the cycle of the last event */
bool ar_session_ended(const ar_session *ss);
/* The event that runs next (false when none is left), for the
 * debugger's position and breakpoints. */
typedef struct ar_next {
	uint64_t time;
	int cube;              /* where it happens; -1: the host or a controller */
	bool enters;           /* an Update or a Gather request entering from the host */
	bool update;           /* about one Update or assignment */
	bool has_target;       /* target: the flow or assignment it concerns */
	uint64_t target;
	int line, col;         /* its statement; 0: not known (the host's next pick) */
	int thread;            /* the thread that issued it, or -1 */
	char what[360];        /* "cycle 12: cube 3 receives an Update of S[0] ..." */
} ar_next;
bool ar_session_next(ar_session *ss, ar_next *nx);
/* A deep copy between events, working on p (its memory copied by the
 * caller), c, st and d: the debugger's snapshots.  NULL out of memory. */
ar_session *ar_session_copy(const ar_session *ss, ar_program *p, const ar_config *c,
			    ar_stats *st, diag *d);
size_t ar_session_bytes(const ar_session *ss);  /* what a copy holds, roughly */
/* Every cube's flow table, buffers and waiting packets. */
void ar_session_print_flows(ar_session *ss, FILE *f);
/* A flow's partial results: each tree node's, and the controllers'.
 * -1 if the flow is not active. */
int ar_session_print_partials(ar_session *ss, uint64_t target, FILE *f);
/* "NAME[INDEX]" -> the element's address; -1 with d set. */
int ar_target_of(const ar_program *p, const char *ref, uint64_t *addr, diag *d);

/* The network (net.c). */
int ar_cube_of(const ar_config *c, uint64_t addr);
unsigned ar_vault_of(const ar_config *c, uint64_t addr);
int ar_host_cube(const ar_config *c, unsigned host);   /* the cube host h is attached to */
int ar_nearest_host(const ar_config *c, int cube);     /* index 0..3 */
int ar_next_hop(const ar_config *c, int from, int to); /* minimal route */
unsigned ar_hops(const ar_config *c, int from, int to);
/* Fig 3b: the last common cube of the minimal routes from root to a and
 * to b. */
int ar_meet_cube(const ar_config *c, int root, int a, int b);

/* The Fig 11 heat map (compute points and operands per cube) as SVG. */
void ar_heatmap_svg(FILE *f, const ar_stats *st, const ar_config *c);

const char *ar_op_name(ar_op op);
const char *ar_pk_name(ar_pktype t);

INFSIM_END_DECLS

#endif
