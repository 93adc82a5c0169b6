/* SPDX-License-Identifier: MIT */
/*
 * vima.h: VIMA, the Vector-In-Memory Architecture (prefix vima_;
 * doc/VIMA.md).
 *
 * A host core sends memory-to-memory vector instructions on 8 KB (or
 * 256 B) vectors to a unit in the logic layer of a 3-D stacked memory;
 * the unit runs them, one at a time, from a small fully associative
 * vector cache (VIMA §III).  This folder offers:
 *   - the instruction set (ops.def) and the value of each instruction on
 *     a vector (vima_op_exec: ops.c);
 *   - a text program format (.vima): a flat memory of named arrays,
 *     instructions naming vectors by address, loops (vima_parse: parse.c);
 *   - the unit: vector cache, fill buffer, in-order sequencer, the split of
 *     a line into 128 sub-requests over 32 vaults x 8 banks, host
 *     coherence, precise exceptions, and Table I's costs (unit.c, cache.c,
 *     dram.c, host.c, exec.c);
 *   - statistics (report.c, and target.c's tree), and the target the
 *     generic fronts drive (target.c: tgt_vima; `infsim run X.vima`,
 *     `infsdb X.vima`), with --check's reference (ref.c).
 * Library code never prints; it fills a diag and returns.
 */
#ifndef INFSIM_VIMA_H
#define INFSIM_VIMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "api.h"
#include "diag.h"

INFSIM_BEGIN_DECLS

/* ---- the instruction set ---- */

typedef enum vima_type {
	VIMA_I32, VIMA_U32, VIMA_I64, VIMA_U64, VIMA_F32, VIMA_F64, VIMA_NTYPES
} vima_type;

typedef enum vima_op {
#define X(name, form, types, fu, sem) VIMA_OP_##name,
#include "ops.def"
#undef X
	VIMA_NOPS
} vima_op;

typedef enum vima_form { VIMA_FORM_VV, VIMA_FORM_V, VIMA_FORM_I, VIMA_FORM_R } vima_form;
typedef enum vima_fu { VIMA_FU_ALU, VIMA_FU_MUL, VIMA_FU_DIV } vima_fu;

typedef struct vima_op_info {
	const char *name;
	vima_form form;
	unsigned types;        /* bit t set: type t allowed */
	vima_fu fu;
	const char *semantics;
} vima_op_info;

const vima_op_info *vima_op_info_of(vima_op op);
const char *vima_type_name(vima_type t);
unsigned vima_type_size(vima_type t);      /* 4 or 8 bytes */
bool vima_type_is_float(vima_type t);
/* The op or type named by s[0..len), or -1. */
int vima_op_lookup(const char *s, size_t len);
int vima_type_lookup(const char *s, size_t len);

/* d[j] = op(a[j], b[j]) for j < n elements of type t (b unused by the V
 * form; a unused by I, which broadcasts *imm).  The R form (mad) also
 * reads d: d[j] = d[j] + a[j]*b[j].  d may be a or b (not for mad).
 * Buffers hold little-endian elements, any alignment. */
void vima_op_exec(vima_op op, vima_type t, size_t n, uint8_t *d,
		  const uint8_t *a, const uint8_t *b, uint64_t *imm);

/* ---- programs (doc/VIMA.md, "Program format") ---- */

#define VIMA_TEXT_MAX   (16u << 20)  /* bytes of program text */
#define VIMA_NAME_MAX   64           /* bytes per name, with the NUL */
#define VIMA_NEST_MAX   16           /* nested loops */
#define VIMA_MEM_MAX    (1ull << 30) /* bytes of arrays in all */
#define VIMA_VECTOR     8192u        /* the paper's vector (§III-D) */
#define VIMA_VECTOR_SMALL 256u       /* the 256 B variant (§III-C) */
#define VIMA_LINES      8u           /* 64 KB of 8 KB lines (Table I) */
#define VIMA_LINES_MAX  4096u

typedef enum vima_init { VIMA_INIT_ZERO, VIMA_INIT_IOTA, VIMA_INIT_CONST,
			 VIMA_INIT_RANDOM } vima_init;

typedef struct vima_array {
	char name[VIMA_NAME_MAX];
	vima_type type;
	uint64_t count;        /* elements */
	uint64_t base;         /* byte address, a multiple of the vector size */
	uint64_t bytes;        /* count * element size */
	vima_init init;
	uint64_t init_arg;     /* the constant's bits, or the seed */
	unsigned perm;         /* its pages: VIMA_PERM_R | VIMA_PERM_W (rw, the default), R (ro), 0 (none) */
	int line;
} vima_array;

/* Page permissions (doc/VIMA.md, "Address translation"): an array's
 * `perm=rw|ro|none`.  Array k is mapped at virtual address
 * (k + 1) << VIMA_REGION_SHIFT, one page per vector line of it. */
enum { VIMA_PERM_R = 1, VIMA_PERM_W = 2 };
#define VIMA_REGION_SHIFT 40

/* An integer expression in postfix form: a slice of the program's code. */
typedef struct vima_code { uint32_t start, len; } vima_code;
typedef struct vima_cop { uint8_t kind; int64_t v; } vima_cop;

/* A vector (or one element) named by address: ARRAY[INDEX]. */
typedef struct vima_ref {
	int array;
	vima_code index;       /* in elements of the array */
	int col;
} vima_ref;

typedef enum vima_stmt_kind { VIMA_S_FOR, VIMA_S_END, VIMA_S_INSN,
			      VIMA_S_HOST } vima_stmt_kind;

typedef struct vima_stmt {
	vima_stmt_kind kind;
	int line, col;
	/* VIMA_S_INSN: op.type ref[0], ref[1], ref[2]; the I form's value is
	 * imm (bits), or the element ref[1] when imm_ref. VIMA_S_HOST: the
	 * element ref[0] = imm (or = ref[1] when imm_ref). */
	vima_op op;
	vima_type type;
	vima_ref ref[3];
	uint64_t imm;
	bool imm_ref;
	/* VIMA_S_FOR: var = lo; while var < hi; var += step.  `other` is the
	 * index of the matching END (and END's is its FOR). */
	int var;
	vima_code lo, hi, step;
	int other;
	char name[VIMA_NAME_MAX]; /* the loop variable, for messages */
} vima_stmt;

typedef struct vima_program {
	char *path;
	unsigned vector_bytes, lines;
	vima_array *arrays;
	size_t narrays;
	vima_stmt *stmts;
	size_t nstmts;
	vima_cop *code;
	size_t ncode;
	unsigned nvars;        /* loop variable slots */
	uint64_t mem_bytes;    /* the flat memory: every array, vector-aligned */
} vima_program;

/* NAME=VALUE settings from the command line (-D), and the unit settings
 * that override the program's `vima` line (0 = the program's). */
typedef struct vima_define { const char *name; int64_t value; bool used; } vima_define;
typedef struct vima_parse_opts {
	vima_define *defs;
	size_t ndefs;
	unsigned vector_bytes, lines;
} vima_parse_opts;

/* Parse text[0..len) (not NUL-terminated) named path.  0, or -1 with one
 * located message "PATH:LINE:COL: error: ..." in d. */
int vima_parse(const char *path, const char *text, size_t len,
	       const vima_parse_opts *o, vima_program *p, diag *d);
/* Read path ("-" is standard input) within VIMA_TEXT_MAX and parse it. */
int vima_load(const char *path, const vima_parse_opts *o, vima_program *p, diag *d);
void vima_program_free(vima_program *p);
int vima_array_find(const vima_program *p, const char *name);

/* ---- the unit ---- */

#define VIMA_SUB_BYTES 64u   /* one sub-request (§III-D) */
#define VIMA_VAULTS    32u
#define VIMA_BANKS     8u    /* per vault */

typedef struct vima_stats {
	uint64_t insns;                    /* committed VIMA instructions */
	uint64_t by_op[VIMA_NOPS];
	uint64_t host_stmts;               /* host stores executed */
	uint64_t read_hits, read_misses;   /* source vectors' line lookups */
	uint64_t write_hits, write_misses; /* destination lines at commit (no fill) */
	uint64_t writebacks;               /* dirty lines written to DRAM, all causes */
	uint64_t wb_evict, wb_host, wb_flush; /* ... on eviction, a host write, the final flush */
	uint64_t invalidations;            /* lines invalidated by host writes */
	uint64_t host_lines_written_back;  /* 64 B host lines written back before VIMA ran */
	uint64_t host_loads_vcache;        /* host loads served by the vector cache */
	uint64_t sub_reads, sub_writes;    /* 64 B sub-requests */
	uint64_t sub[VIMA_VAULTS][VIMA_BANKS];
	uint64_t dram_read_bytes, dram_write_bytes;   /* VIMA's */
	uint64_t host_dram_bytes;          /* the host's write-backs and fills */
	uint64_t cycles;                   /* VIMA cycles (1 GHz) */
	uint64_t cyc_tag, cyc_dram, cyc_xfer, cyc_fu, cyc_gap;
	uint64_t cache_accesses;           /* line reads and writes (194 pJ each) */
	double energy_dram_pj, energy_host_dram_pj, energy_cache_pj, energy_static_pj;
} vima_stats;

typedef struct vima_line {
	bool valid, dirty;
	uint64_t tag;          /* the line's byte address */
	uint64_t used;         /* LRU stamp */
	uint8_t *data;
} vima_line;

typedef struct vima_run_opts {
	uint64_t fault_at;     /* raise a page fault at this VIMA instruction (1-based); 0 none */
	uint64_t max_steps;    /* statements executed at most; 0 = VIMA_STEPS_MAX */
} vima_run_opts;
#define VIMA_STEPS_MAX (1ull << 28)

/* Where the program is: the statement to run next and the loop stack. */
typedef struct vima_pc {
	size_t next;
	int64_t vars[VIMA_NEST_MAX], hi[VIMA_NEST_MAX], step[VIMA_NEST_MAX];
	uint64_t steps;
	bool done;
} vima_pc;

typedef struct vima_unit {
	const vima_program *p;
	vima_run_opts ro;
	unsigned vbytes, nlines;
	uint8_t *mem;          /* DRAM */
	uint8_t *hdata;        /* the host caches' copy of each 64 B line */
	uint8_t *hstate;       /* per 64 B line: 0 absent, 1 dirty in the host caches */
	vima_line *lines;
	uint64_t clock;
	uint8_t *fill;         /* the fill buffer: a result waits here for commit */
	uint8_t *gather[2];    /* a source vector that spans two lines */
	/* sub-requests of the batch now being issued, per vault and bank */
	uint32_t batch[VIMA_VAULTS][VIMA_BANKS];
	uint32_t batch_n;
	/* the write buffer: a commit's victim, sent with the next batch */
	uint32_t pend[VIMA_VAULTS][VIMA_BANKS];
	uint32_t pend_n;
	vima_pc pc;
	uint32_t *pt;          /* the page table: per page, frame << 2 | permissions (mmu.c) */
	uint64_t fault_insn;   /* the instruction that faulted, 0 if none */
	int fault_stmt;
	uint64_t fault_host;   /* the host store whose access faulted (from 1), 0 if none */
	char fault_why[256];   /* a translation fault: the access and why; "" when injected */
	vima_stats st;
} vima_unit;

/* Allocate the memory and fill every array by its init.  0, or -1 with d. */
int vima_unit_init(vima_unit *u, const vima_program *p, const vima_run_opts *o,
		   unsigned lines, diag *d);
void vima_unit_free(vima_unit *u);

enum { VIMA_STEP_END = 0, VIMA_STEP_OK = 1, VIMA_STEP_FAULT = 2 };
/* Run statements up to and including the next VIMA instruction or host
 * store.  VIMA_STEP_OK, VIMA_STEP_END at the end, VIMA_STEP_FAULT when
 * the instruction raised a page fault (injected, or an access the page
 * table refuses: fault_why says which; nothing of it committed), or -1
 * with a located message in d. */
int vima_step(vima_unit *u, diag *d);
/* vima_step to the end: VIMA_STEP_END, VIMA_STEP_FAULT or -1. */
int vima_run(vima_unit *u, diag *d);

/* Write every dirty host line and then every dirty vector-cache line back
 * to DRAM (the end of a run: what the memory holds afterwards). */
void vima_flush(vima_unit *u);
/* The bytes of array a as the host sees them now (host caches, then the
 * vector cache, then DRAM), copied to out (array's bytes long). */
void vima_read_array(const vima_unit *u, int a, uint8_t *out);
/* Host stores of a whole array (loading a .npy before the run). */
void vima_write_array(vima_unit *u, int a, const uint8_t *in);

/* ---- statistics (report.c) ---- */
/* The JSON the unit's counters were first reported in (tests compare
 * the target's tree with it). */
void vima_stats_json(FILE *f, const vima_unit *u);
/* Energy in pJ, the sum of the parts. */
double vima_energy_pj(const vima_stats *s);

INFSIM_END_DECLS

#endif
