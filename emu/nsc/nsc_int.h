/* SPDX-License-Identifier: MIT */
/*
 * nsc_int.h: what the files of emu/nsc/ share and do not offer: the line
 * lexer of the .nsc format, the parser's state, and the engines' scalar
 * arithmetic.
 */
#ifndef INFSIM_NSC_INT_H
#define INFSIM_NSC_INT_H

#include "nsc.h"

/* ---- tokens of one line (lex.c) ---- */

typedef enum nsc_tok { NSC_T_END, NSC_T_NAME, NSC_T_INT, NSC_T_FLT, NSC_T_PUNCT } nsc_tok;

typedef struct nsc_lex {
	const char *file;
	const char *s;     /* the line */
	size_t len, pos;
	int line;
	nsc_tok t;         /* the current token */
	size_t start;      /* its offset */
	char text[NSC_NAME_MAX + 8];
	int64_t ival;
	double fval;
	bool is_f32;       /* a float literal with an f suffix */
} nsc_lex;

void nsc_lex_init(nsc_lex *x, const char *file, const char *s, size_t len, int line);
int nsc_lex_next(nsc_lex *x, diag *d);
int nsc_lex_col(const nsc_lex *x);
bool nsc_lex_is(const nsc_lex *x, const char *punct_or_word);
int nsc_lex_expect(nsc_lex *x, const char *what, diag *d);
int nsc_lex_error(nsc_lex *x, diag *d, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* ---- the parser's state (parse.c, expr.c) ---- */

typedef struct nsc_parser {
	nsc_program *p;
	nsc_lex x;
	const nsc_define *defs;
	int ndefs;
	char (*consts)[NSC_NAME_MAX];
	int64_t *const_val;
	int nconsts;
	nsc_region *cur;     /* inside a `streams` block */
	int cur_stream;      /* the stream whose computation is being parsed, -1 */
	bool allow_self, allow_field, allow_dims;
	int depth;
} nsc_parser;

int nsc_parse_expr(nsc_parser *ps, int *out, diag *d);
int nsc_new_expr(nsc_parser *ps, nsc_eop op, int a, int b, int line, int col);
int nsc_const_find(const nsc_parser *ps, const char *name);
int nsc_slot_find(const nsc_program *p, const char *name);
int nsc_stream_find(const nsc_region *r, const char *name);
/* region.c: a `streams` header, and one stream line (kw at col read). */
int nsc_region_header(nsc_parser *ps, nsc_region *r, diag *d);
int nsc_region_stream(nsc_parser *ps, nsc_region *r, const char *kw, int col, diag *d);

/* ---- the engines' arithmetic (value.c) ---- */

/* Binary and unary operations with C's conversions: an integer and a
 * float give a float, a float and a double a double.  -1 with *why set
 * (a division by zero). */
int nsc_val_bin(nsc_eop op, nsc_val a, nsc_val b, nsc_val *r, const char **why);
nsc_val nsc_val_un(nsc_eop op, nsc_val a);
nsc_val nsc_val_cast(nsc_val a, nsc_type t);
nsc_val nsc_val_int(int64_t i);
bool nsc_val_true(nsc_val a);
int64_t nsc_val_as_int(nsc_val a);
nsc_val nsc_val_reduce(nsc_rop op, nsc_val acc, nsc_val v, nsc_type t);
/* What a reduction with no `init` starts from: 0 for +=, the type's
 * largest value (+inf for floats) for min=, its smallest (-inf) for max=,
 * so the result is that of the elements alone. */
nsc_val nsc_val_start(nsc_rop op, nsc_type t);

/* Does expression e mention a stream, a dimension, $ or a field? */
bool nsc_expr_uses(const nsc_program *p, int e, nsc_eop op, int ref);
/* Count of expression nodes (the µops of a computation, Fig 11). */
unsigned nsc_expr_ops(const nsc_program *p, int e);

/* ---- the private cache model (cache.c): 16-way, LRU ---- */

typedef struct nsc_cache {
	uint64_t *tag;       /* line address + 1; 0 = empty */
	uint64_t *age;
	bool *dirty;
	unsigned lines;
	uint64_t clock;
} nsc_cache;

int nsc_cache_init(nsc_cache *c, unsigned bytes, diag *d);
void nsc_cache_free(nsc_cache *c);
/* dst (not initialised) becomes a copy of src: 0, or -1 with d set. */
int nsc_cache_copy(nsc_cache *dst, const nsc_cache *src, diag *d);
/* Access a line: 1 hit, 0 miss; *evicted is the address of a dirty line
 * that left, UINT64_MAX if none. */
int nsc_cache_access(nsc_cache *c, uint64_t pa, bool write, uint64_t *evicted);
void nsc_cache_invalidate(nsc_cache *c, uint64_t pa);

#define NSC_LINE 64u

/* ---- messages on the mesh (noc.c; doc/STREAMS.md, "Messages") ---- */

#define NSC_HDR 8u   /* bytes of a message's header */
/* Count one message of kind m and class c, bytes long, from tile to tile. */
void nsc_send(nsc_stats *st, nsc_msg m, nsc_class c, unsigned bytes, unsigned from, unsigned to);

/* ---- the engines' state (engine.c, core.c, float.c) ---- */

typedef struct nsc_hist {
	bool seen;
	uint64_t acc, miss;   /* core accesses and private-cache misses last time */
	uint64_t lines;       /* lines of the instances so far (affine streams) */
} nsc_hist;

/* A region nested in a core loop (nest.c; doc/STREAMS.md, "Nested
 * streams", NSC Fig 4d and Fig 8): once one of its instances floats, the
 * nest is open until the loop exits: its floating decision and its
 * streams' placement carry from instance to instance, each later
 * instance is started at the banks by an instance message from the outer
 * stream (the elements its configuration reads), and credits and done
 * count blocks of R iterations over the whole nest. */
typedef struct nsc_nest {
	bool open;
	bool fl[NSC_MAX_STREAMS + 1];
	bool placed[NSC_MAX_STREAMS + 1];
	unsigned bank[NSC_MAX_STREAMS + 1];
	int64_t off[NSC_MAX_STREAMS];     /* indirect offsets of the last instance */
	uint64_t block;                   /* inner iterations since the last sync */
	/* the outer stream: one per array whose elements the configuration reads */
	int oarr[NSC_MAX_STREAMS];
	unsigned obank[NSC_MAX_STREAMS];
	uint64_t oblock[NSC_MAX_STREAMS];
	int nouter;
	bool has_src;                     /* an outer element was read this outer iteration */
	unsigned src;                     /* its bank: where the instance message starts */
	uint64_t preds;                   /* guards' predicates not yet sent to the core */
	unsigned pred_bank;
} nsc_nest;

typedef struct nsc_eng {
	const nsc_program *p;
	nsc_mem *m;
	const nsc_settings *s;
	nsc_stats *st;
	diag *d;
	nsc_val *slots;
	nsc_cache cache;
	nsc_hist (*hist)[NSC_MAX_STREAMS + 1];
	uint64_t giter;      /* region iterations so far (aliases are placed by it) */
	uint64_t max_iters;
	uint64_t work;       /* loop trips and region iterations so far (nsc_work_charge) */
	uint64_t *const *writer;   /* who last wrote each element (nsc_session_track), or NULL */
	int *nest_for;       /* per region: the FOR statement it is nested in (nest.c), -1 */
	int *nest_stmt;      /* per statement: the region whose nest a let or guard belongs to, -1 */
	nsc_nest *nest;      /* per region */
	int outer;           /* core loads go to this region's outer stream (an open nest), -1 */
	uint64_t nest_trips; /* the enclosing loop's trips left, at a nested region's s_cfg */
} nsc_eng;

/* Where an expression is evaluated: a region's iteration, or the core. */
typedef struct nsc_ctx {
	int64_t dim[NSC_MAX_DIMS];
	nsc_val sv[NSC_MAX_STREAMS + 1];   /* load streams' values; [12]: the chased pointer */
	nsc_val self;
	int chase_arr;
} nsc_ctx;

int nsc_eval(nsc_eng *e, int x, const nsc_ctx *c, nsc_val *out);
int nsc_eval_int(nsc_eng *e, int x, const nsc_ctx *c, int64_t *out);
/* Element i of array arr was just written by who (NSC_WHO). */
void nsc_note_write(nsc_eng *e, int arr, uint64_t i, uint64_t who);
/* A core access of the private cache: its traffic. */
void nsc_core_access(nsc_eng *e, uint64_t pa, bool write);
/* A store statement by the core (core.c). */
int nsc_core_store(nsc_eng *e, const nsc_stmt *s);
/* A region's life, one s_step at a time (region_run.c): begin (s_cfg;
 * NULL with d set), step (1 an iteration committed, 0 no more, -1), end
 * (s_end), free (counts the region). */
typedef struct rstate rstate;
rstate *nsc_region_begin(nsc_eng *e, const nsc_region *r, int ri);
int nsc_region_step(rstate *g);
void nsc_region_end(rstate *g);
void nsc_region_free(rstate *g);
int nsc_index_check(nsc_eng *e, int arr, int64_t i, int line, int col);
/* The floating decision of region ri's streams for N iterations (float.c),
 * the region nested in a loop of `trips` trips left (1: not nested; the
 * nest is one stream to the engines, Fig 8). */
void nsc_float_decide(nsc_eng *e, const nsc_region *r, int ri, uint64_t n, uint64_t trips, bool *fl);
/* nest.c: which regions are nested streams (nest_for, nest_stmt: arrays
 * of nrg and nst entries); a core load of an open nest's outer stream; a
 * guard's predicate sent to the core; a nest closed as its loop exits. */
void nsc_nest_find(const nsc_program *p, int *nest_for, int *nest_stmt);
void nsc_nest_outer_access(nsc_eng *e, int ri, int arr, uint64_t pa);
void nsc_nest_predicate(nsc_eng *e, int ri);
void nsc_nest_close(nsc_eng *e, int ri);
/* Does a stream of r write array a (store, update, atomic)? */
bool nsc_region_writes(const nsc_region *r, int a);

#endif
