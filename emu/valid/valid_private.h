/* SPDX-License-Identifier: MIT */
/*
 * valid_private.h: what the validator's files share (validate.c binds
 * and compares, bind.c binds markers to node instances and orders the
 * runs, bisect.c finds the guilty command, end.c compares the whole
 * state at the end).  validate.h is the interface.
 */
#ifndef INFSIM_VALID_PRIVATE_H
#define INFSIM_VALID_PRIVATE_H

#include "validate.h"

/* The bisection follows at most this many wrong elements (the first in
 * row-major order); the first wrong element is always among them. */
enum { TRACK_MAX = 1024 };

/* What a check point compares. */
typedef enum pt_kind {
	PT_MARK = 0,   /* a node marker: its tensor holds a node instance */
	PT_OUTPUT,     /* an output at the end, as its last run left it */
	PT_INPUT,      /* an input at the end: the stream left it as it was */
	PT_ARRAY,      /* an array at the end, over its whole lattice */
	PT_STRAY,      /* the end: no tensor cell written outside every node */
} pt_kind;

typedef struct point {
	uint8_t kind;          /* pt_kind */
	size_t node;           /* the node instance (marks: the one bound, or
				* until resolved the structural guess) */
	size_t array;          /* PT_ARRAY: the array */
	int buf;               /* the tensor */
	size_t at;             /* commands run before it */
	int line;              /* the marker's line (0: the end, or binary) */
	size_t mark;           /* PT_MARK: index into p->marks */
	bool strm;             /* a strm marker: the node's stream runs first */
	bool resolved;         /* PT_MARK: bound for good (by value or fixed) */
	size_t name;           /* PT_MARK: the first node of its name */
	size_t cand0, ncand;   /* PT_MARK: instances it may hold, in program
				* order: emu_valid_cand(v, pt, k) */
	bool own_cand;         /* ... in v->cand (selected), not v->named */
	uint64_t hash;         /* its domain's cells when it held */
	bool same, zero;       /* coverage: its value is an operand's; every
				* value compared was 0 */
} point;

typedef struct loaded {
	const emu_buffer *b;
	uint64_t *v;
} loaded;

#define EMU_VALID_WARN_TEXT 512

struct emu_valid {
	emu_tdfg *t;
	const emu_program *p;
	/* The reference of the check points runs the runs in the order the
	 * stream's selected markers visit them (bind.c): rt is t with its
	 * runs reordered, perm[n] node n's index in rt.  Without a reorder,
	 * rt is unused, perm NULL and ref_end == ref. */
	emu_tdfg rt;
	size_t *perm;
	emu_tref *ref;         /* the check points' reference */
	emu_tref *ref_end;     /* program order: the end's */
	emu_tref *peek;        /* the check points' again, to look ahead (or NULL) */
	point *pts;
	size_t npts, next, snext;
	size_t *cand;          /* markers' selected instances */
	size_t ncands;
	size_t *named;         /* every node but stores, by name, each name's
				* in program order (bind.c) */
	size_t nnamed;
	size_t *prev;          /* per node: the instance the last resolved
				* marker of its name held, SIZE_MAX for none */
	uint64_t *prev_hash;
	size_t *prev_pt;       /* ... and that marker's check point */
	loaded *loads;
	size_t nloads;
	char (*warn)[EMU_VALID_WARN_TEXT];
	size_t nwarn;
	bool warned;
};

/* bind.c */
int emu_valid_bind_marks(emu_valid *v, diag *d);
/* Does tensor bi have node n's element type and its region's sizes? */
bool emu_valid_holds(const emu_valid *v, size_t n, int bi);
int emu_valid_order_runs(emu_valid *v, diag *d);
/* Candidate k of marker pt. */
static inline size_t emu_valid_cand(const emu_valid *v, const point *pt, size_t k)
{
	return (pt->own_cand ? v->cand : v->named)[pt->cand0 + k];
}
/* The first of pt's candidates after instance `after` (SIZE_MAX: the
 * first of all), or pt->ncand when none is. */
size_t emu_valid_cand_after(const emu_valid *v, const point *pt, size_t after);
/* Node n of t in the check points' reference. */
static inline size_t emu_valid_rn(const emu_valid *v, size_t n)
{
	return v->perm ? v->perm[n] : n;
}
/* "run 3 of region 'step' (with k = 2), the program's run 5". */
void emu_valid_run_text(const emu_valid *v, size_t n, char *buf, size_t size);
int emu_valid_push(emu_valid *v, const point *pt);

/* bisect.c: the guilty command of a point that differs (rep->mm and the
 * wrong elements known); fills rep and its text.  0, or -1 with d set. */
typedef struct emu_valid_wrong {
	uint64_t e, diff, end;
} emu_valid_wrong;
int emu_valid_bisect(const emu_valid *v, const point *pt, const emu_valid_wrong *w, size_t nw,
		     emu_valid_report *rep, diag *d);
/* The machine at the start: init= and every load applied. */
emu_machine *emu_valid_restart(const emu_valid *v, diag *d);
/* The stray writes (end.c): 1 when none, 0 with rep filled, -1 with d. */
int emu_valid_stray(emu_valid *v, const emu_machine *em, const point *pt,
		    emu_valid_report *rep, diag *d);
/* The first and the last command (from 1; 0 for none) that changed
 * element e of b, the stream run again from the start (a bit a sync
 * delivered counts for the move that sent it).  0, or -1 with d. */
int emu_valid_writers(const emu_valid *v, const emu_buffer *b, uint64_t e, size_t *first,
		      size_t *last, diag *d);
/* Did a command after the first `from` and up to `to` write a cell of
 * tensor b (its footprint meets b's wordlines in one of its arrays)? */
bool emu_valid_written(const emu_valid *v, const emu_buffer *b, size_t from, size_t to);
/* "command N (STREAM:LINE: TEXT)" */
void emu_valid_cmd_text(const emu_program *p, size_t c, char *buf, size_t size);
/* Which elements of tensor bi the stream may write (end.c): a byte
 * each, 1 where a node it binds the tensor (or an alias of the same
 * layout on its wordlines) to has it in the boxes its lowering writes;
 * all of a scratch tensor.  NULL when out of memory. */
uint8_t *emu_valid_owned(const emu_valid *v, int bi);
/* snprintf, for messages cut to fit. */
void emu_valid_fmt(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void emu_valid_warnf(emu_valid *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
