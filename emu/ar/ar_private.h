/* SPDX-License-Identifier: MIT */
/*
 * ar_private.h: the program's internal form, shared by the files of
 * emu/ar/ (parser, host interpreter, engine, baseline).  Not installed.
 */
#ifndef INFSIM_AR_PRIVATE_H
#define INFSIM_AR_PRIVATE_H

#include "ar.h"

#define AR_NAME_MAX 64
#define AR_LANES 16            /* elements of a 64 B block of 4-byte elements */
#define AR_MAX_NODES 65536     /* expression nodes per program */
#define AR_MAX_STMTS 16384
#define AR_MAX_VARS 256
#define AR_MAX_THREADS 64

typedef struct ar_array {
	char name[AR_NAME_MAX];
	ar_type type;
	unsigned esize;        /* bytes per element */
	uint64_t len, base;    /* elements; byte address of element 0 */
	unsigned char *data;
	int line, col;
} ar_array;

/* Expression nodes: integers only (indexes, bounds, counts). */
typedef enum {
	AR_E_CONST, AR_E_VAR, AR_E_LANE, AR_E_LOAD, AR_E_NEG,
	AR_E_ADD, AR_E_SUB, AR_E_MUL, AR_E_DIV, AR_E_MOD, AR_E_MIN, AR_E_MAX
} ar_ekind;

typedef struct ar_expr {
	ar_ekind kind;
	int a, b;              /* operand nodes; LOAD: a = array, b = index */
	int64_t value;         /* CONST value; VAR slot */
	int line, col;
} ar_expr;

/* 64-bit wrapping arithmetic of expression nodes; -1 on division by 0. */
int ar_arith(ar_ekind k, int64_t a, int64_t b, int64_t *out);

/* An operand of an Update: A[e], nil, or an immediate (const). */
typedef struct ar_ref {
	bool nil, imm;
	int array, index;      /* array number, expression node */
	uint64_t bits;         /* immediate, in the target's type */
	int line, col;
} ar_ref;

typedef enum { AR_S_FOR, AR_S_END, AR_S_UPDATE, AR_S_GATHER } ar_skind;
typedef enum { AR_RR, AR_RI, AR_II } ar_pattern;

typedef struct ar_stmt {
	ar_skind kind;
	int line, col;
	/* FOR: var slot, from, to, step (-1: 1), end pc.  END: its FOR. */
	int var, from, to, step, other;
	/* UPDATE */
	ar_pattern pat;
	ar_op op;
	ar_ref src1, src2, target;
	int count;             /* expression or -1 (the rest of the block) */
	/* GATHER: target, nthreads in `from` */
} ar_stmt;

struct ar_program {
	char path[256];
	ar_array *arrays;
	size_t narrays;
	ar_expr *nodes;
	size_t nnodes, cap_nodes;
	ar_stmt *stmts;
	size_t nstmts, cap_stmts;
	unsigned nvars;
	unsigned threads;
	uint64_t mem_bytes;
	/* Told of every store the machine makes (a commit, an assignment),
	 * when set: --check's record of who last wrote what (target.c). */
	void (*on_store)(void *ctx, uint64_t addr, const ar_stmt *by, bool commit);
	void *store_ctx;
};

/* Values and the ALU (alu.c): elements are raw bits in a uint64_t. */
bool ar_op_is_flow(ar_op op);
bool ar_op_needs_src2(ar_op op);   /* mac, msub, abs, div */
/* The value one element pair contributes (§IV-C ALU). */
uint64_t ar_alu_elem(ar_op op, ar_type t, uint64_t a, uint64_t b, bool has_b);
/* Fold a value into a partial: the op's combine (+ for mac/msub/abs). */
uint64_t ar_alu_combine(ar_op op, ar_type t, uint64_t acc, uint64_t v);
/* The committed target: old (+) result; old - result for msub. */
uint64_t ar_alu_commit(ar_op op, ar_type t, uint64_t old, uint64_t result);
/* Assignment ops: the value written; -1 on integer division by zero. */
int ar_alu_assign(ar_op op, ar_type t, uint64_t a, uint64_t b, uint64_t *out);
unsigned ar_type_size(ar_type t);
const char *ar_type_name(ar_type t);

/* Memory (memory.c). */
int ar_mem_find(const ar_program *p, uint64_t addr);    /* array or -1 */
uint64_t ar_mem_read(const ar_program *p, uint64_t addr, unsigned esize);
/* A store of the machine: by is the statement whose value it is (an
 * assignment, or the first Update of a committed flow). */
void ar_mem_write(ar_program *p, uint64_t addr, unsigned esize, uint64_t bits,
		  const ar_stmt *by, bool commit);
/* Apply an init= spec to array a; -1 with *err on a bad spec. */
int ar_mem_init(ar_array *a, const char *spec, size_t len, const char **err,
		size_t *errpos);
uint64_t ar_splitmix64(uint64_t *state);

/* One operation a host thread issues (host.c -> engine.c). */
typedef struct ar_hostop {
	bool gather;
	unsigned thread;
	const ar_stmt *s;
	ar_op op;
	ar_pattern pat;
	ar_type type;
	unsigned esize, n;               /* elements */
	bool has_b;
	uint64_t a1;                     /* src1 address (first element) */
	uint64_t a2[AR_LANES];           /* src2 address of each element */
	uint64_t imm;                    /* const: the value */
	uint64_t target;                 /* target address */
	unsigned nthreads;               /* gather */
	uint64_t normal_bytes;           /* index-array bytes the host read */
} ar_hostop;

/* The host threads (host.c): round-robin program order (doc §"Order"). */
typedef struct ar_host ar_host;
ar_host *ar_host_new(ar_program *p, const ar_config *c, diag *d);
void ar_host_free(ar_host *h);
/* A deep copy of h (for snapshots), on config c; NULL out of memory. */
ar_host *ar_host_copy(const ar_host *h, const ar_config *c);
/* Pick the next thread to issue, in round-robin program order: 1 with
 * *thread, 0 when every thread has finished, -1 with d set when the
 * threads that remain all wait at Gathers that cannot complete. */
int ar_host_pick(ar_host *h, unsigned *thread, diag *d);
/* Advance thread t to its next operation and fill *op: 1, 0 when it has
 * finished, -1 with d set (a located runtime error). */
int ar_host_next(ar_host *h, unsigned t, ar_hostop *op, diag *d);
/* Count a thread's Gather in its target's barrier; *closed when this is
 * the round's last.  -1 with d set if the thread counts disagree. */
int ar_host_gather(ar_host *h, const ar_hostop *op, bool *closed, diag *d);
/* The round of target committed: its threads go on. */
void ar_host_committed(ar_host *h, uint64_t target);
bool ar_host_thread_waits(const ar_host *h, unsigned t); /* for a commit */

/* PEI baseline (pei.c): the traffic one operation makes under PEI. */
void ar_pei_count(const ar_config *c, const ar_hostop *op, ar_stats *st);
/* Packet sizes (doc table): header and tail are one 16-byte FLIT. */
unsigned ar_pk_bytes(ar_pktype t, unsigned payload);

/* --check's reference (ref.c): the program's meaning, run apart from
 * the machine on a copy of p's memory as it is now (doc "The order of
 * combining" for f32).  NULL with d set (a runtime error, no memory). */
typedef struct ar_seq ar_seq;
ar_seq *ar_seq_run(const ar_program *p, const ar_config *c, diag *d);
void ar_seq_free(ar_seq *q);
/* Element k of array a at the end, and after its first n writes. */
uint64_t ar_seq_final(const ar_seq *q, size_t a, uint64_t k);
uint64_t ar_seq_after(const ar_seq *q, size_t a, uint64_t k, uint64_t n);

#endif
