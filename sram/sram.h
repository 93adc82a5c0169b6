/* SPDX-License-Identifier: MIT */
/*
 * sram.h: the bit-level model of compute SRAM arrays (prefix sram_).
 *
 * An array is W wordlines x B bitlines.  Data is stored transposed: one
 * element per bitline, one bit per wordline (infinity-stream §2.2).  The
 * per-bitline peripheral logic (sense amplifiers, carry and tag latches,
 * an enable mask) is listed in pe.def.  Computation happens only through
 * micro-ops (struct sram_uop): one cycle each, activating 0 to 3
 * wordlines, applying one write function and/or one latch function, and
 * writing one wordline masked by the gate.
 *
 * Storage.  Arrays are grouped by way.  Inside a way, row w of every
 * array is stored side by side, 64 bitlines to a uint64_t, so that one
 * micro-op sweeps the whole way in one vectorisable loop over a block
 * that stays in cache (doc/ARCHITECTURE.md, "Data layout").  An array
 * narrower than 64 bitlines uses the low bits of its one word; the rest
 * of that word is never enabled and always reads 0.
 */
#ifndef INFSIM_SRAM_H
#define INFSIM_SRAM_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#include "api.h"

INFSIM_BEGIN_DECLS

#define SRAM_MAX_ACT 3
#define SRAM_ANY 7          /* SENSE column of pe.def: 1 to 3 wordlines, or a set of 1 to 64 */
#define SRAM_NO_ROW 0xffffu /* destination of a uop that writes nothing */
#define SRAM_MIN_DIM 8
#define SRAM_MAX_DIM 1024

/* The peripheral functions, from pe.def. */
#include "pe.def"

typedef enum sram_fn {
	SRAM_FN_NONE = 0,
#define SRAM_FN_ENUM_(name, eff, sense, out, latch, sem) SRAM_FN_##name,
	SRAM_PE_FUNCTIONS(SRAM_FN_ENUM_)
#undef SRAM_FN_ENUM_
	SRAM_FN_COUNT
} sram_fn;

typedef enum sram_gate {
	SRAM_GATE_E = 0,  /* enabled bitlines */
	SRAM_GATE_ET,     /* enabled bitlines whose tag is set */
	SRAM_GATE_ENT,    /* enabled bitlines whose tag is clear */
} sram_gate;

/* Carry latch preset, applied at the start of the cycle (a reset or set
 * line on the latch, as in Neural Cache). */
typedef enum sram_cpre {
	SRAM_CPRE_KEEP = 0,
	SRAM_CPRE_0,
	SRAM_CPRE_1,
} sram_cpre;

/* One micro-op: one cycle of every enabled bitline of an array.
 * Activated wordlines: act[0..nact) for up to three; or, when set is not
 * 0, the wordlines act[0] + i for every bit i of set (nact is then its
 * popcount, up to 64): the many-wordline activation of a search
 * (duality-cache §3.1.1), which senses the AND of all of them on BL and
 * their NOR on BLB. */
typedef struct sram_uop {
	uint8_t wfn;   /* write function (kind W) or SRAM_FN_NONE */
	uint8_t lfn;   /* latch function (kind L) or SRAM_FN_NONE */
	uint8_t nact;  /* number of activated wordlines, 0..3 (1..64 with set) */
	uint8_t gate;  /* enum sram_gate */
	uint8_t cpre;  /* enum sram_cpre */
	uint8_t pad_;
	uint16_t dst;  /* destination wordline, SRAM_NO_ROW if none */
	uint16_t act[SRAM_MAX_ACT];
	uint64_t set;  /* many-wordline activation, relative to act[0] */
} sram_uop;

/* Does u activate wordline wl? */
bool sram_uop_activates(const sram_uop *u, unsigned wl);
/* Did the way's last read (last_act, last_nact, last_set) activate wl? */
struct sram_way;
bool sram_way_activated(const struct sram_way *w, unsigned wl);

/* What a micro-op costs, by the categories bit-serial simulators report. */
typedef struct sram_count {
	uint64_t cycles;  /* one per micro-op */
	uint64_t reads;   /* micro-ops that activate and sense wordlines */
	uint64_t writes;  /* micro-ops that write a wordline */
	uint64_t logic;   /* micro-ops that update a latch */
	uint64_t activations; /* wordline activations (1 to 3 per read, 64 with a set) */
} sram_count;

typedef struct sram_geom {
	unsigned wordlines;      /* W, power of two in [8, 1024] */
	unsigned bitlines;       /* B, power of two in [8, 1024] */
	unsigned arrays_per_way;
	unsigned ways_per_bank;  /* compute ways */
	unsigned mesh_x, mesh_y; /* banks on a mesh_x x mesh_y 2-D mesh */
	/* Controller settings: they change the micro-programs the bank
	 * controllers issue, not the arrays (duality-cache §3.1.2), but a
	 * stream is assembled for them like for the sizes above.  Zero is the
	 * default of each, so a zero-initialised geometry stays valid. */
	unsigned fp_ieee;        /* 1: full IEEE subnormals; 0: flush to zero */
	unsigned latency_opt;    /* 1: data-dependent (optimised) latency */
	unsigned cordic_iters;   /* CORDIC iterations k, 1..60; 0: the default, 17 */
} sram_geom;

/* One way: its arrays' rows, latches and enable mask, interleaved. */
typedef struct sram_way {
	uint64_t *rows;   /* wordlines x stride words */
	uint64_t *carry;  /* stride words each */
	uint64_t *tag;
	uint64_t *enable;
	uint64_t *bl;     /* what the sense amplifiers saw last cycle */
	uint64_t *blb;
	uint16_t last_act[SRAM_MAX_ACT]; /* wordlines of the last read */
	uint8_t last_nact;
	uint64_t last_set;  /* its many-wordline set (see sram_uop) */
	uint16_t last_dst; /* wordline of the last write, SRAM_NO_ROW if none */
} sram_way;

struct mem_pages; /* lib/mem.h */

typedef struct sram_machine {
	sram_geom g;
	unsigned wpa;      /* words per array row: ceil(B / 64) */
	unsigned stride;   /* words per row of a way: arrays_per_way * wpa */
	unsigned nbanks;
	unsigned nways;    /* all ways of the machine */
	unsigned narrays;  /* all arrays of the machine */
	uint64_t tail;     /* valid-bit mask of an array's last word */
	sram_way *ways;
	uint64_t *store;   /* one mapping for every way's bits */
	size_t store_bytes; /* its size */
	struct mem_pages *pages; /* which of its pages sram_prefault took */
} sram_machine;

/* The default machine, Table 2 of infinity-stream. */
sram_geom sram_geom_default(void);
/* NULL if the geometry is valid, else a message naming what is wrong. */
const char *sram_geom_check(const sram_geom *g);
uint64_t sram_geom_bitlines(const sram_geom *g);   /* all bitlines */
uint64_t sram_geom_bytes(const sram_geom *g);      /* compute SRAM bytes */
/* The host memory sram_new takes for g: every way's rows, latches and
 * the executor's own rows, each array row a whole number of 64-bit words. */
uint64_t sram_host_bytes(const sram_geom *g);

/* Allocate a machine with all cells, latches and enables cleared.  NULL
 * on allocation failure (errno set) or an invalid geometry. */
sram_machine *sram_new(const sram_geom *g);
void sram_free(sram_machine *m);
/* Copy all state (cells, latches, enable, sense) from src to dst; the
 * geometries must be equal. */
void sram_copy_state(sram_machine *dst, const sram_machine *src);

/* Do two machines of the same geometry hold the same architectural
 * state: every cell, carry, tag, enable and sensed BL/BLB bit? */
bool sram_state_equal(const sram_machine *a, const sram_machine *b);

/* Array addressing: array a of the machine is array a % apw of way
 * a / apw; way w is way w % ways_per_bank of bank w / ways_per_bank. */
static inline sram_way *sram_way_of(sram_machine *m, unsigned array)
{
	return &m->ways[array / m->g.arrays_per_way];
}
static inline unsigned sram_word_of(const sram_machine *m, unsigned array)
{
	return (array % m->g.arrays_per_way) * m->wpa;
}

/* Cell, latch and enable access for loaders, the debugger and tests.
 * These are not micro-ops: they model the array's ordinary read/write
 * port and are never used to compute. */
bool sram_get_bit(const sram_machine *m, unsigned array, unsigned wl, unsigned bl);
void sram_set_bit(sram_machine *m, unsigned array, unsigned wl, unsigned bl, bool v);
enum sram_latch { SRAM_CARRY, SRAM_TAG, SRAM_ENABLE, SRAM_BL, SRAM_BLB };
bool sram_get_latch(const sram_machine *m, unsigned array, enum sram_latch l, unsigned bl);
void sram_set_latch(sram_machine *m, unsigned array, enum sram_latch l, unsigned bl, bool v);
/* Pointer to the words of row wl of an array (wpa words). */
uint64_t *sram_row(sram_machine *m, unsigned array, unsigned wl);
uint64_t *sram_latch_words(sram_machine *m, unsigned array, enum sram_latch l);

/* Enable mask: clear every array's, or set bitlines of one array. */
void sram_enable_clear(sram_machine *m);
void sram_enable_set(sram_machine *m, unsigned array, unsigned bl, bool on);
void sram_enable_all(sram_machine *m, unsigned array);

/* The wired-OR "any bitline set" signal of an array: is T set on any
 * enabled bitline?  Used by searches and data-dependent skipping. */
bool sram_any_tag(const sram_machine *m, unsigned array);
/* The same over every array of ways first..first+count-1 that way_on
 * selects (all if NULL): a bank controller's view. */
bool sram_any_tag_ways(const sram_machine *m, unsigned first, unsigned count,
		       const uint8_t *way_on);

/* Micro-op validation against a machine: NULL if uop can run, else a
 * static message saying what is wrong (row out of range, wrong number of
 * activated wordlines for its functions, two functions on one latch). */
const char *sram_uop_check(const sram_machine *m, const sram_uop *u);
/* Add the cost of one micro-op to c. */
void sram_uop_cost(const sram_uop *u, sram_count *c);

/* Execute micro-ops.
 * sram_run_way: the full-speed path: run prog[0..n) on one way, every
 *   array of it in lockstep.
 * sram_run: run prog on every way whose flag in way_on is set (all ways
 *   if way_on is NULL), spreading ways over threads.  The result does not
 *   depend on the thread count: ways share nothing.
 * sram_step: run one micro-op on the selected ways (single stepping).
 * Stepping a program and running it give identical bits: a long program
 * runs column-blocked (sram_block.h), a step micro-op at a time, and both
 * compute every bit by the same pe.def functions in the same cycle order
 * (tests/test_block_exec.c compares them).  Each returns 0, or -1 when
 * out of memory for the decoded program (nothing was run). */
int sram_run_way(sram_machine *m, unsigned way, const sram_uop *prog, size_t n);
int sram_run(sram_machine *m, const uint8_t *way_on, const sram_uop *prog, size_t n);
int sram_step(sram_machine *m, const uint8_t *way_on, const sram_uop *u);
/* Run prog on the ways first..first+count-1 that way_on selects, on the
 * calling thread (a bank's controller runs its ways this way; callers
 * spread banks over threads).  0, or -1 when out of memory. */
int sram_run_ways(sram_machine *m, unsigned first, unsigned count,
		  const uint8_t *way_on, const sram_uop *prog, size_t n);

/* Map the store's pages under p[0..nwords) (inside m->store) for
 * writing now, before they are written: the kernel hands the store out
 * as it is touched, and on a virtual machine a fault a page costs about
 * three times what one request for a run of pages costs (doc/
 * PERFORMANCE.md, "Pages taken in runs").  Pages an earlier call took
 * cost a bit test; the bits never change.  Safe to call from several
 * threads at once.  Without kernel support (Linux before 5.14) it does
 * nothing and the pages fault in as before. */
void sram_prefault(sram_machine *m, const uint64_t *p, size_t nwords);
/* The same for wordlines wl..wl+nwl-1 of the way that holds array (a
 * way's arrays share its rows: every array of the way is mapped). */
void sram_prefault_rows(sram_machine *m, unsigned array, unsigned wl, unsigned nwl);

/* Names and semantics of the peripheral functions (from pe.def). */
const char *sram_fn_name(unsigned fn);
const char *sram_fn_semantics(unsigned fn);
int sram_fn_kind(unsigned fn);   /* 'W', 'L' or 0 */
int sram_fn_sense(unsigned fn);  /* SENSE column of pe.def */
int sram_fn_lookup(const char *name); /* -1 if unknown */
/* The latch a function updates: 'C', 'T', or 0 for none. */
int sram_fn_latch(unsigned fn);

/* Threads used by sram_run (0 = OpenMP's default, and one thread for
 * runs too small to be worth a team). */
void sram_set_threads(int n);
/* The count sram_set_threads set (0: none), for callers that spread
 * banks over threads themselves (sram_run_ways). */
int sram_get_threads(void);

INFSIM_END_DECLS

#endif
