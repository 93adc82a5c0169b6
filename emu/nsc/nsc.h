/* SPDX-License-Identifier: MIT */
/*
 * nsc.h: near-stream computing (prefix nsc_; doc/STREAMS.md).
 *
 * A program of the .nsc format is a flat memory of named arrays, core
 * statements (loops, conditions, scalars, stores) and stream regions: a
 * `streams` block is one s_cfg of the NSC stream ISA (near-stream-computing
 * §III-A, Table IV), its streams stepped together (s_step) over an affine
 * iteration space of up to 3 dimensions or along a pointer chase, and
 * ended (s_end) when the space is done.  This folder offers:
 *   - the format: parse.c, expr.c, lex.c (nsc_parse);
 *   - the flat memory with .npy in and out (mem.c, files.c);
 *   - the stream engines, SE_core and one SE_L3 per bank, functional and in
 *     program order: placement by address (static NUCA), migration,
 *     forwarded indirect requests, atomics, per-bank partials of indirect
 *     reductions, run-ahead with range synchronisation, the floating
 *     decision with an LRU private-cache model, and the messages and
 *     traffic on the 8x8 mesh (engine.c, float.c, cache.c, noc.c, core.c);
 *   - an independent reference of the program's meaning (ref.c);
 *   - statistics (report.c);
 *   - the folder as an infsim target, tgt_nsc (target.c, target.h).
 * Library code never prints; it fills a diag and returns.
 */
#ifndef INFSIM_NSC_H
#define INFSIM_NSC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "api.h"
#include "diag.h"

INFSIM_BEGIN_DECLS

#define NSC_NAME_MAX 32
#define NSC_MAX_ARGS 8      /* arguments of a stream's computation (Table IV) */
#define NSC_MAX_DIMS 3      /* affine dimensions (Table IV) */
#define NSC_MAX_STREAMS 12  /* streams per region: the stream table (§IV-A) */
#define NSC_BANKS 64        /* the 8x8 mesh (Table V) */
#define NSC_MESH 8

/* ---- element types and values ---- */

typedef enum nsc_type { NSC_I8, NSC_U8, NSC_I32, NSC_U32, NSC_I64, NSC_F32, NSC_F64, NSC_NTYPES } nsc_type;

const char *nsc_type_name(nsc_type t);
unsigned nsc_type_size(nsc_type t);

/* A scalar: an integer (64-bit, wrapping), a float or a double. */
typedef struct nsc_val {
	char k;                /* 'i', 'f' (fp32) or 'd' (fp64) */
	union { int64_t i; float f; double d; } u;
} nsc_val;

/* ---- expressions ---- */

typedef enum nsc_eop {
	NSC_E_INT, NSC_E_FLT, NSC_E_DBL,  /* literals */
	NSC_E_VAR,     /* a core scalar (let, for, a reduction's result): ref = slot */
	NSC_E_DIM,     /* an iteration variable of the region: ref = dimension */
	NSC_E_STREAM,  /* a load stream's current value: ref = stream */
	NSC_E_SELF,    /* $: the element of the stream being computed */
	NSC_E_FIELD,   /* @F: a field of the chased node: ival = F */
	NSC_E_INDEX,   /* ARR[a]: a core load: ref = array */
	NSC_E_NEG, NSC_E_NOT, NSC_E_BNOT,
	NSC_E_ADD, NSC_E_SUB, NSC_E_MUL, NSC_E_DIV, NSC_E_MOD,
	NSC_E_SHL, NSC_E_SHR, NSC_E_AND, NSC_E_OR, NSC_E_XOR,
	NSC_E_LT, NSC_E_LE, NSC_E_GT, NSC_E_GE, NSC_E_EQ, NSC_E_NE,
	NSC_E_LAND, NSC_E_LOR, NSC_E_COND,
	NSC_E_MIN, NSC_E_MAX, NSC_E_ABS,
	NSC_E_CAST     /* i64(a), f32(a), f64(a): ival = the nsc_type */
} nsc_eop;

typedef struct nsc_expr {
	nsc_eop op;
	int a, b, c;           /* operands (expression indices), -1 if none */
	int ref;
	int64_t ival;
	double fval;
	int line, col;
} nsc_expr;

/* ---- streams (Table II: address pattern x computation) ---- */

typedef enum nsc_skind { NSC_S_LOAD, NSC_S_STORE, NSC_S_UPDATE, NSC_S_ATOMIC, NSC_S_REDUCE } nsc_skind;
typedef enum nsc_addr { NSC_A_AFFINE, NSC_A_INDIRECT, NSC_A_POINTER, NSC_A_NONE } nsc_addr;
typedef enum nsc_rop { NSC_R_ADD, NSC_R_MIN, NSC_R_MAX } nsc_rop;

typedef struct nsc_stream {
	nsc_skind kind;
	char name[NSC_NAME_MAX];   /* load and reduce streams */
	int arr;                   /* -1 for a reduction */
	int idx;                   /* the index expression */
	int val;                   /* computation: load's `-> e`, store/update's value, atomic's operand, reduce's term; -1 */
	nsc_addr addr;
	int base;                  /* indirect: the base stream; -1 */
	int offset;                /* indirect: the invariant w in B[A[i] + w] */
	nsc_rop rop;               /* atomic and reduce */
	nsc_type rtype;            /* reduce: the accumulator's type */
	int init;                  /* reduce: initial value expression, -1 for 0 */
	int slot;                  /* reduce: the core scalar that holds the result */
	int nargs;                 /* distinct streams and invariants in val */
	int line, col;
} nsc_stream;

/* A `streams` block: one stream configuration (s_cfg). */
typedef struct nsc_region {
	int ndims;                     /* 0: a pointer chase */
	int dim_len[NSC_MAX_DIMS];     /* trip count expressions, outermost first */
	char dim_name[NSC_MAX_DIMS][NSC_NAME_MAX];
	/* pointer chase: p = ARR-index; the chased stream is p */
	char chase_name[NSC_NAME_MAX];
	int chase_arr, chase_from, chase_next, chase_until;
	nsc_stream s[NSC_MAX_STREAMS];
	int nstreams;
	int line, col;
} nsc_region;

/* ---- statements ---- */

typedef enum nsc_skw {
	NSC_ST_LET,      /* slot = e1 */
	NSC_ST_STORE,    /* arr[e1] = e2 (a core store) */
	NSC_ST_FOR,      /* for slot < e1 ... end (at `end`) */
	NSC_ST_IF,       /* if e1 ... end */
	NSC_ST_STREAMS,  /* region `ref` */
	NSC_ST_END
} nsc_skw;

typedef struct nsc_stmt {
	nsc_skw kind;
	int slot, arr, e1, e2, ref;
	int end;         /* FOR/IF: the index of the matching END; END: its opener */
	int line, col;
} nsc_stmt;

typedef enum nsc_init { NSC_INIT_ZERO, NSC_INIT_IOTA, NSC_INIT_RANDOM, NSC_INIT_VALUE } nsc_init;

typedef struct nsc_array {
	char name[NSC_NAME_MAX];
	nsc_type type;
	uint64_t count;
	uint64_t base;        /* physical address of element 0 (mem.c) */
	nsc_init init;
	int64_t init_a, init_b;  /* iota: step; random: seed, modulus (0 = all bits); value: the value */
	double init_f;
	int line;
} nsc_array;

typedef struct nsc_program {
	char *file;
	nsc_array *arrays;
	int narrays;
	char (*slots)[NSC_NAME_MAX];   /* core scalar names */
	int nslots;
	nsc_expr *ex;
	int nex, cap_ex;
	nsc_stmt *st;
	int nst;
	nsc_region *rg;
	int nrg;
	uint64_t mem_bytes;
	char (*consts)[NSC_NAME_MAX];  /* the `const` lines' names, in order */
	int64_t *const_val;            /* and their values (after -D) */
	int nconsts;
} nsc_program;

/* -D NAME=VALUE overrides of `const` lines. */
typedef struct nsc_define {
	const char *name;
	int64_t value;
} nsc_define;

/* Parse text (len bytes) named file.  0, or -1 with one located message
 * "FILE:LINE:COL: error: ..." in d (nothing to free). */
int nsc_parse(const char *file, const char *text, size_t len, const nsc_define *defs,
	      int ndefs, nsc_program *p, diag *d);
int nsc_load_file(const char *path, const nsc_define *defs, int ndefs, nsc_program *p, diag *d);
void nsc_program_free(nsc_program *p);
int nsc_array_find(const nsc_program *p, const char *name);

/* ---- memory ---- */

/* The flat memory: each array's bytes, at the address nsc_parse placed it
 * (4 KB aligned, in declaration order from NSC_MEM_BASE). */
#define NSC_MEM_BASE 0x100000u
#define NSC_MEM_MAX ((uint64_t)1 << 30)
typedef struct nsc_mem {
	const nsc_program *p;
	uint8_t **data;
} nsc_mem;

int nsc_mem_init(nsc_mem *m, const nsc_program *p, diag *d);
void nsc_mem_free(nsc_mem *m);
int nsc_mem_copy(nsc_mem *dst, const nsc_mem *src, diag *d);
/* Element i of array a as a value, and a value stored with the array's
 * type's conversion (C's). */
nsc_val nsc_mem_get(const nsc_mem *m, int a, uint64_t i);
void nsc_mem_put(nsc_mem *m, int a, uint64_t i, nsc_val v);
/* The value's bits as stored in an element of type t (files, dumps). */
uint64_t nsc_mem_bits(const nsc_mem *m, int a, uint64_t i);
void nsc_mem_set_bits(nsc_mem *m, int a, uint64_t i, uint64_t bits);
/* First differing element of array a, or -1 (bit for bit). */
int64_t nsc_mem_diff(const nsc_mem *x, const nsc_mem *y, int a);
int nsc_npy_load(nsc_mem *m, int a, const char *path, diag *d);
int nsc_npy_save(const nsc_mem *m, int a, const char *path, diag *d);

/* ---- settings ---- */

typedef enum nsc_float_mode { NSC_FLOAT_AUTO, NSC_FLOAT_CORE, NSC_FLOAT_BANK } nsc_float_mode;

/* A store by the core at a given iteration, in the middle of a region:
 * how tests put an alias under the streams (doc/STREAMS.md, "Range
 * synchronisation").  iter counts every region iteration of the run, from
 * 0, in program order; the store happens before that iteration. */
typedef struct nsc_alias {
	uint64_t iter;
	int arr;
	uint64_t index;
	nsc_val value;
} nsc_alias;

typedef struct nsc_settings {
	unsigned interleave;     /* static NUCA interleave in bytes: 64 (NSC), 1024 (Infinity Stream) */
	nsc_float_mode floating;
	bool sync_free;          /* §V: no range or commit messages */
	bool no_nest;            /* nest=off: a region nested in a core loop is configured by the core each time */
	unsigned range_iters;    /* R: iterations per range message (8) */
	unsigned window;         /* run-ahead: iterations issued before the core commits them */
	unsigned cache_bytes;    /* the private cache of the floating decision */
	unsigned core_tile;      /* the core's tile on the mesh */
	const nsc_alias *aliases;
	int naliases;
	uint64_t max_iters;      /* bound on region iterations and loop trips (0: 1<<32) */
	uint64_t max_work;       /* bound on the whole run's loop trips and region iterations together (0: none) */
} nsc_settings;

void nsc_settings_default(nsc_settings *s);
/* Count n more loop trips or region iterations against s->max_work, as a
 * loop or region starts (the engines and the reference count alike):
 * 0, or -1 with d set at file:line:col once the run's total passes it. */
int nsc_work_charge(const nsc_settings *s, uint64_t *work, uint64_t n, const char *file,
		    int line, int col, diag *d);

/* Static NUCA: the bank of a physical address, and X-Y hops between tiles. */
unsigned nsc_bank_of(uint64_t pa, unsigned interleave);
unsigned nsc_hops(unsigned from, unsigned to);

/* ---- statistics ---- */

typedef enum nsc_msg {
	NSC_M_CONFIG, NSC_M_MIGRATE, NSC_M_FORWARD, NSC_M_CREDIT, NSC_M_RANGE,
	NSC_M_COMMIT, NSC_M_DONE, NSC_M_END, NSC_M_DATA, NSC_M_REQ, NSC_M_LINE,
	NSC_M_WRITEBACK, NSC_M_INSTANCE, NSC_NMSG
} nsc_msg;
const char *nsc_msg_name(nsc_msg m);

/* NSC Fig 12's classes (§VII-B): offloaded, "data and coordination
 * messages for near-data computing (e.g. credits, indirect ranges,
 * commits, etc.)": config, migrate, forward, credit, done, commit, range,
 * end, instance (a nested stream's next instance) and values between banks; control, "coherence/prefetch messages":
 * the core's requests; data, "non-offloaded data accesses and
 * writebacks": lines, writebacks and values to or from the core. */
typedef enum nsc_class { NSC_C_OFFLOAD, NSC_C_CONTROL, NSC_C_DATA, NSC_NCLASS } nsc_class;
const char *nsc_class_name(nsc_class c);

typedef struct nsc_stats {
	uint64_t msgs[NSC_NMSG];
	uint64_t bytes[NSC_NCLASS], byte_hops[NSC_NCLASS];
	uint64_t msg_bytes[NSC_NMSG], msg_byte_hops[NSC_NMSG];   /* by kind of message */
	uint64_t iters, regions;
	uint64_t streams_floated, streams_core;
	uint64_t elems_bank, elems_core;
	uint64_t uops_bank, uops_core;      /* operations of stream computations (Fig 11) */
	uint64_t aborts;                    /* offloads ended by an alias */
	uint64_t alias_stores;              /* injected core stores */
	uint64_t atomic_locks;              /* L3 lines locked by atomics */
	uint64_t partials;                  /* per-bank partials of indirect reductions */
	uint64_t credits, dones, commits;   /* in iterations */
	uint64_t cache_hits, cache_misses;  /* the private cache model */
	uint64_t core_loads, core_stores;   /* core statements' memory accesses */
	/* per tile (bank b is tile b; the core's tile is one of them) */
	uint64_t tile_msgs_out[NSC_BANKS], tile_msgs_in[NSC_BANKS];
	uint64_t tile_bytes_out[NSC_BANKS], tile_bytes_in[NSC_BANKS];
	uint64_t bank_elems[NSC_BANKS];     /* floated stream elements at each bank */
} nsc_stats;

uint64_t nsc_stats_bytes(const nsc_stats *s);
uint64_t nsc_stats_byte_hops(const nsc_stats *s);
/* Byte-hops of range synchronisation (credit, done, commit, range: NSC
 * §VII-B's "range-synchronization itself accounts for only 11%"), and of
 * all coordination (those, config and end: what infsim classed as control
 * before it followed Fig 12; part of the offloaded class now). */
uint64_t nsc_stats_sync_hops(const nsc_stats *s);
uint64_t nsc_stats_coord_hops(const nsc_stats *s);
uint64_t nsc_stats_coord_bytes(const nsc_stats *s);

/* ---- running ---- */

/* Run p on m with the engines.  0, or -1 with d set (a bad index, a
 * division by zero, a bound passed), naming the statement or stream. */
int nsc_run(const nsc_program *p, nsc_mem *m, const nsc_settings *s, nsc_stats *st, diag *d);
/* The reference: the program's meaning, run in plain sequential order
 * (ref.c, written apart from the engines).  Same contract. */
int nsc_ref_run(const nsc_program *p, nsc_mem *m, const nsc_settings *s, diag *d);

/* ---- a run one step at a time (session.c; infsdb, doc/DEBUGGER.md) ---- */

/* What one step did: a core statement (let, a store, an if's test, a
 * for's start), a region's s_cfg, one s_step (an iteration of every
 * stream of the region committed, in program order) or its s_end. */
typedef enum nsc_event { NSC_EV_STMT, NSC_EV_CONFIG, NSC_EV_ITER, NSC_EV_END } nsc_event;

typedef struct nsc_step {
	nsc_event ev;
	int stmt;         /* the statement (NSC_ST_STREAMS for a region's events) */
	int region;       /* -1 for a core statement */
	uint64_t iter;    /* NSC_EV_ITER: the region's iteration; NSC_EV_END: their count */
	int line;
} nsc_step;

/* A stream of the region in progress, as its engine holds it. */
typedef struct nsc_stream_state {
	const nsc_stream *s;     /* NULL for a chase's pointer stream */
	int arr;                 /* its array, -1 for a reduction */
	bool floated;            /* at the banks (else at the core) */
	bool placed;             /* configured at a bank: bank is where it is
				    (after its run-ahead); an indirect
				    reduction is at every bank of a partial */
	unsigned bank;
	bool has_elem;           /* an iteration committed: elem and value hold */
	int64_t elem;            /* its element in the last committed iteration
				    (a reduction: that iteration) */
	unsigned elem_bank;      /* that element's bank (static NUCA) */
	nsc_val value;           /* a load's value; a reduction's result so far */
	unsigned partials;       /* an indirect reduction's per-bank partials */
	uint64_t ahead;          /* elements issued ahead of the core, not committed */
	uint64_t pending_bytes;  /* values packed for a data message not yet sent */
	unsigned pending_from, pending_to;
	nsc_class pending_class;
} nsc_stream_state;

typedef struct nsc_session nsc_session;

/* A run of p on m, stopped before its first statement; NULL with d set.
 * p, m, s, st and d must outlive it; st is cleared.  nsc_run is this run
 * stepped to its end. */
nsc_session *nsc_session_new(const nsc_program *p, nsc_mem *m, const nsc_settings *s, nsc_stats *st, diag *d);
/* One step: 1 with *out set, 0 the program has ended, -1 a runtime error
 * (d set; the session steps no more). */
int nsc_session_step(nsc_session *ss, nsc_step *out);
bool nsc_session_ended(const nsc_session *ss);
/* Region iterations committed so far, over every region (aliases count them). */
uint64_t nsc_session_iters(const nsc_session *ss);
/* The region in progress: its index, next iteration and trip count
 * (UINT64_MAX for a chase not yet ended); false between regions. */
bool nsc_session_region(const nsc_session *ss, int *region, uint64_t *next, uint64_t *n);
/* Stream k of the region in progress (k == nstreams: a chase's pointer). */
bool nsc_session_stream(const nsc_session *ss, int k, nsc_stream_state *out);
/* The statement the next step runs (-1 at the end), and a core scalar. */
int nsc_session_pc(const nsc_session *ss);
nsc_val nsc_session_slot(const nsc_session *ss, int slot);
/* A debugger's `set var` of a core scalar. */
void nsc_session_set_slot(nsc_session *ss, int slot, nsc_val v);
void nsc_session_free(nsc_session *ss);
/* A copy of ss, its engines' whole state, that runs on m, st and d
 * instead (each already a copy of ss's); NULL with d set. */
nsc_session *nsc_session_copy(const nsc_session *ss, nsc_mem *m, nsc_stats *st, diag *d);

/* Who last wrote an element, as nsc_session_track records it: a kind,
 * an id (the statement, region * NSC_MAX_STREAMS + stream, or the
 * alias) and the run's region iterations committed before the write. */
typedef enum nsc_wkind { NSC_W_INIT, NSC_W_STORE, NSC_W_STREAM, NSC_W_ALIAS, NSC_W_SET } nsc_wkind;
#define NSC_WHO(kind, id, iter) \
	((uint64_t)(kind) << 61 | (uint64_t)(id) << 40 | ((iter) < ((uint64_t)1 << 40) ? (iter) : ((uint64_t)1 << 40) - 1))
#define NSC_WHO_KIND(w) ((nsc_wkind)((w) >> 61))
#define NSC_WHO_ID(w) ((unsigned)((w) >> 40 & 0x1fffff))
#define NSC_WHO_ITER(w) ((w) & (((uint64_t)1 << 40) - 1))
/* From now on, each write of element i of array a sets writer[a][i]
 * (NULL: none kept).  writer must outlive the session. */
void nsc_session_track(nsc_session *ss, uint64_t *const *writer);

/* Statistics as text (report.c). */
void nsc_report(FILE *f, const nsc_stats *st, const nsc_stats *base);

INFSIM_END_DECLS

#endif
