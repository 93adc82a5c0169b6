/* SPDX-License-Identifier: MIT */
/*
 * tdfg.h: tensor dataflow graphs (prefix emu_tdfg_, emu_jit_, emu_tref_),
 * infinity-stream §3 (the tDFG), §3.4 (wordline allocation) and §4.2
 * (JIT lowering).  doc/TDFG.md gives the text form with examples.
 *
 *   .tdfg text --emu_tdfg_parse--> emu_tdfg --emu_jit--> .ins text
 *        --emu_parse--> emu_program (+ which node each command belongs to)
 *   emu_tdfg --emu_tref--> each node's value, in plain C (the reference
 *        at node granularity), compared with the node's tensor as the
 *        machine holds it once the node's last command has run.
 *
 * A region is one lattice (§3.1): a shape S0[xS1[xS2]] (innermost first)
 * and one tiled layout that all its tensors share, so element (i0, i1,
 * i2) of every tensor of the region sits on the same bitline.  Each node
 * is a tensor of the region's shape holding one element type; its value
 * is defined on its *domain*, a box of the lattice (§3.1's hyperrectangle):
 *   input    the whole lattice, or the box it declares;
 *   const    the whole lattice;
 *   shift    the operand's domain moved by the offset, clipped to the
 *            lattice (§3.2 mv: elements moved past the edge are dropped);
 *   bcast    the operand's domain (one element wide along DIM) stretched
 *            over the whole of dimension DIM (§3.2 bc);
 *   compute  the intersection of its operands' domains (Fig 5);
 *   reduce   the operand's domain with dimension DIM cut to its first
 *            position: r = reduce.add.f32 x, 0 holds at (lo0, i1, i2)
 *            the sum over i0 of x's elements.  The order is pairwise,
 *            as the lowering computes it: with len elements left, h =
 *            ceil(len / 2), element lo + j takes OP(element lo + j,
 *            element lo + j + h) for j < len - h, until len is 1.
 * Cells of a node's tensor outside its domain are not part of its value:
 * nothing compares them, and the JIT does not compute them.
 *
 * The JIT (§3.4, §4.2) serialises the nodes in source order, which is a
 * topological order (operands are defined before use), and allocates each
 * node's tensor a wordline range by local register allocation: a value
 * lives from its node to its last use (inputs and outputs to the end);
 * its range is freed after the node of its last use has been lowered, so
 * a result never shares wordlines with an operand of its own node.  There
 * is no spilling: a region that needs more wordlines than the arrays have
 * below the scratch rows is refused, naming the node.  Nodes whose ranges
 * may overlap become `alias` tensors of the lowered stream.
 */
#ifndef INFSIM_TDFG_H
#define INFSIM_TDFG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "diag.h"
#include "isa.h"
#include "check.h"
#include "layout.h"
#include "machine.h"
#include "program.h"
#include "refmodel.h"
#include "sram.h"

INFSIM_BEGIN_DECLS

typedef enum emu_tnode_kind {
	EMU_TN_INPUT = 0, /* a tensor in memory before the region runs */
	EMU_TN_CONST,     /* every element the same constant */
	EMU_TN_SHIFT,     /* mv: move along one dimension */
	EMU_TN_BCAST,     /* bc: broadcast along one dimension */
	EMU_TN_COMPUTE,   /* an element-wise command of isa/opcodes.def */
	EMU_TN_REDUCE,    /* reduce along one dimension, pairwise (§4.2) */
	EMU_TN_TENSOR,    /* a hyperrectangle of an array (§3.2 tensor) */
	EMU_TN_STORE,     /* a node's value written into an array's box; its
			   * name is "store A", A the array as written */
	EMU_TN_GATHER,    /* strm.gather: an indirect load stream near memory
			   * writing a tensor (§3.3, Fig 5: B[A[i] + w]) */
	EMU_TN_UPDATE,    /* strm.store / strm.update: a store stream near
			   * memory writing (or read-modify-writing) a
			   * tensor, affine or C[i[p]] op= v[p] (§3.3, §5.3) */
	EMU_TN_KINDS
} emu_tnode_kind;

const char *emu_tnode_kind_name(unsigned kind);

/* A bound of a box or an offset: c + sum of coef[i] * parameter i of the
 * region (doc/TDFG.md, "Programs": `k`, `k+1`, `16-k`). */
#define EMU_TPARAMS 4
typedef struct emu_texpr {
	int64_t c;
	int8_t coef[EMU_TPARAMS];
} emu_texpr;

/* An array that lives across regions (the paper's inf_array, §3.4): a
 * tensor of the lowered stream with wordlines of its own for the whole
 * program.  A region reads a hyperrectangle of it (tensor) and stores a
 * node's value into one (store); arrays sit at the lattice's origin
 * (§3.2), so a region works on arrays of its own sizes. */
typedef struct emu_tarray {
	char name[EMU_NAME_MAX];
	int line, col;
	uint8_t fmt, width, is_signed;
	uint8_t ndims;
	uint64_t shape[EMU_LAYOUT_DIMS];
	char init_text[96];    /* "init=iota", "" for none */
	int init_col;          /* where init= is, for the assembler's messages */
	char load[1024];       /* load=FILE: a .npy or .bin (the path as resolved
				* from the tDFG's folder), "" for none */
	uint8_t init;          /* enum emu_init_kind, as the assembler read it */
	uint64_t init_arg;
	/* emu_jit: */
	uint64_t tile[EMU_LAYOUT_DIMS]; /* 0: not tiled yet */
	uint32_t array0;
	uint16_t wl;
	int buf;
} emu_tarray;

typedef struct emu_tnode {
	char name[EMU_NAME_MAX];
	uint8_t kind;          /* enum emu_tnode_kind */
	uint32_t region;       /* index into emu_tdfg.regions */
	int line, col;         /* the node's line; col of its name */
	int op_col;            /* col of the op word (after '=') */
	/* the value's element type, as in emu_buffer */
	uint8_t fmt, width, is_signed;
	/* operands: node indexes, in the command's order (a, b, c) */
	uint32_t arg[3];
	uint8_t nargs;
	/* compute: the command (op, types, imm; no wordlines).  Its
	 * settings (fp mode, CORDIC iterations) come from the machine. */
	isa_cmd c;
	/* const: the element's bits.  input: its init= text as the stream
	 * writes it ("init=random:42", "" for none), and what the assembler
	 * made of it (emu_jit fills init and init_arg). */
	uint64_t value;
	char init_text[96];
	uint8_t init;          /* enum emu_init_kind */
	uint64_t init_arg;
	/* shift: the offset; bcast, reduce: dim (reduce's command is c) */
	int64_t off[EMU_LAYOUT_DIMS];
	uint8_t dim;
	bool output;           /* named by an `output` line */
	/* strm (strm.c, §3.3): a reduce whose final step is a stream at the
	 * banks (strm.reduce), or a gather (EMU_TN_GATHER). */
	bool strm;
	emu_box dom;           /* its domain, in lattice coordinates */
	/* Programs (doc/TDFG.md): tensor, store, input: the box as written
	 * (has_box), shift: off_e; evaluated at each run of the region. */
	emu_texpr box_e[EMU_LAYOUT_DIMS][2], off_e[EMU_LAYOUT_DIMS];
	bool has_box;
	uint32_t array;        /* tensor, store: the array (at this run, after swaps) */
	uint32_t tmpl;         /* the node as written (index into emu_tdfg.tnodes) */
	/* What the JIT made of it (emu_jit fills these). */
	uint16_t wl, rows;     /* its wordline range */
	uint16_t tmp[2];       /* reduce: two more ranges of rows, its temporaries */
	uint32_t last_use;     /* the last node that reads it (itself if
				* none); UINT32_MAX when it lives to the end */
	size_t cmd0, cmd1;     /* its commands [cmd0, cmd1) in the program */
	int buf;               /* its tensor in the program */
} emu_tnode;

typedef struct emu_tregion {
	char name[EMU_NAME_MAX];
	int line, col;
	uint8_t ndims;
	uint64_t shape[EMU_LAYOUT_DIMS], tile[EMU_LAYOUT_DIMS]; /* tile 0: pick */
	emu_compute hint;      /* hint=: the data-movement hints given */
	uint32_t array0;       /* array= (default 0) */
	size_t node0, node1;   /* its nodes [node0, node1) */
	size_t cmd0, cmd1;     /* its commands (emu_jit) */
	/* Programs: the parameters (param=), and for a run of the region
	 * their values, its window (shrink) and its place in the loops. */
	uint8_t nparams;
	char param[EMU_TPARAMS][EMU_NAME_MAX];
	int64_t pv[EMU_TPARAMS];
	emu_box window;
	uint32_t tmpl;         /* the region as written (emu_tdfg.tregions) */
	char *ctx;             /* comment lines before its commands, or NULL */
} emu_tregion;

/* A control statement (doc/TDFG.md, "Programs"). */
typedef enum emu_tctl_kind {
	EMU_TC_RUN = 0, EMU_TC_REPEAT, EMU_TC_FOR, EMU_TC_END, EMU_TC_SWAP, EMU_TC_SHRINK,
} emu_tctl_kind;
typedef struct emu_tctl {
	uint8_t kind;
	int line, col;
	uint32_t a, b;         /* run, shrink: region; swap: arrays a, b */
	int64_t lo, hi;        /* repeat: count in hi; for: [lo, hi) */
	char var[EMU_NAME_MAX];/* for: the parameter */
	int64_t d[EMU_LAYOUT_DIMS]; /* shrink: each side's step */
	size_t end;            /* repeat, for: index of the matching end */
} emu_tctl;

typedef struct emu_tdfg {
	char *path;
	char *text;            /* the source, for listings */
	size_t len;
	sram_geom geom;        /* the machine line, or the default */
	bool has_machine;
	emu_tregion *regions;
	size_t nregions;
	emu_tnode *nodes;
	size_t nnodes;
	/* Programs: arrays, control, and the regions and nodes as written
	 * (regions and nodes above are their runs, in program order; a
	 * file without control runs each region once, so they are the same). */
	emu_tarray *arrays;
	size_t narrays;
	emu_tctl *ctl;
	size_t nctl;
	emu_tregion *tregions;
	size_t ntregions;
	emu_tnode *tnodes;
	size_t ntnodes;
	bool program;          /* arrays or control: regions do not share values */
} emu_tdfg;

void emu_tdfg_init(emu_tdfg *t);
void emu_tdfg_free(emu_tdfg *t);
/* Parse the text form (doc/TDFG.md).  Every mistake a user can make is
 * reported as FILE:LINE:COL with what was expected.  ov (may be NULL)
 * wins over the machine line key by key, as for streams.  0, or -1 with
 * d set. */
int emu_tdfg_parse(const char *path, const char *text, size_t len,
		   const sram_geom *geom_default, const emu_geom_override *ov,
		   emu_tdfg *out, diag *d);
int emu_tdfg_parse_file(const char *path, const sram_geom *geom_default,
			const emu_geom_override *ov, emu_tdfg *out, diag *d);
/* -D NAME=VALUE: replaces the value of the program's `param NAME = ...`
 * (doc/TDFG.md, "Parameters").  Each name at most once; a name the
 * program does not declare is an error. */
typedef struct emu_tdfg_def {
	const char *name;
	int64_t value;
} emu_tdfg_def;
/* As emu_tdfg_parse and emu_tdfg_parse_file, with ndefs -D values. */
int emu_tdfg_parse_defs(const char *path, const char *text, size_t len,
			const sram_geom *geom_default, const emu_geom_override *ov,
			const emu_tdfg_def *defs, size_t ndefs, emu_tdfg *out, diag *d);
int emu_tdfg_parse_file_defs(const char *path, const sram_geom *geom_default,
			     const emu_geom_override *ov, const emu_tdfg_def *defs, size_t ndefs,
			     emu_tdfg *out, diag *d);
/* Does path name a tDFG (".tdfg")? */
bool emu_tdfg_path(const char *path);
/* The node called name, or -1. */
long emu_tdfg_find(const emu_tdfg *t, const char *name, size_t len);
/* Is element i (row-major over the region's lattice) in node n's domain? */
bool emu_tdfg_in_domain(const emu_tdfg *t, const emu_tnode *n, uint64_t i);
/* Elements of the region's lattice. */
uint64_t emu_tregion_elems(const emu_tregion *r);
/* Line `line` of the source (1-based) without its newline: *len set;
 * NULL past the end. */
const char *emu_tdfg_line(const emu_tdfg *t, int line, size_t *len);

/* ---- strm nodes (tdfg.c, strm.c; doc/TDFG.md, "strm nodes") ----
 * Element types the stream engines compute on: i8, u8, i32, u32, i64, f32. */
bool emu_strm_type_ok(unsigned fmt, unsigned width, unsigned sg);
/* A gather's domain: src's, with dimension dim taken from the index's
 * domain; the index must be one element wide along every other
 * dimension.  0, or -1 with why set. */
int emu_strm_gather_domain(const emu_tnode *src, const emu_tnode *index, unsigned dim,
			   emu_box *dom, char *why, size_t size);
/* A store/update stream's domain (strm.c): the target c's.  Affine
 * (index NULL): v's domain inside c's.  Indirect: the index one element
 * wide along every dimension but dim, covering v's positions along dim;
 * v inside c along the other dimensions.  0, or -1 with why set. */
int emu_strm_update_domain(const emu_tnode *c, const emu_tnode *v, const emu_tnode *index,
			   unsigned dim, emu_box *dom, char *why, size_t size);

/* ---- the JIT (jit.c) ----
 * Lower t into a command stream: allocate wordlines, choose each
 * region's tiles (§4.1, emu_tile_select, unless the region gives them),
 * and emit, node by node, tensor declarations and commands:
 *   input    `tensor NAME TYPE SHAPE wl= array= tile= [init=]`;
 *   const    `set.TYPE NAME, #VALUE` over the node's domain;
 *   shift    `move NAME, SRC, OFFSETS @ box=DOMAIN(SRC)` (Algorithms 1
 *            and 2 in the assembler);
 *   bcast    the mv.bcast / mv.intra commands of emu_lower_broadcast;
 *   compute  the command over its domain, cut by Algorithm 1 into
 *            pieces with their own arrays and bitlines patterns;
 *   reduce   copy the operand, then per halving step a `move` of the
 *            upper part down by h, the command into a temporary, and a
 *            copy back (the tile-by-tile reduction of the published
 *            artifact, carried across tiles by the move's inter-array
 *            shifts instead of near memory).
 * The text is a stream that `infsim run` takes on its own; the parsed
 * program is prog, and node_of[i] is the node of command i.  t's nodes
 * get their wordlines, commands and buffers.  0, or -1 with d set at the
 * node that could not be lowered. */
typedef struct emu_jit {
	char *text;            /* the lowered stream (.ins), NUL-terminated */
	size_t len;
	emu_program prog;
	uint32_t *node_of;     /* ncmds entries */
	size_t ncmds;          /* the lowered stream's commands (prog may be
				* handed over to a caller, node_of stays) */
	uint16_t scratch;      /* first scratch wordline */
	/* Memoised lowering (§4): a region run whose parameters, window and
	 * arrays repeat an earlier run's reuses its commands. */
	size_t hits, misses;
	struct emu_jit_lowering {
		uint32_t region;       /* the run that was lowered */
		double seconds;        /* the JIT's time for it */
	} *lowerings;              /* misses entries */
} emu_jit;

int emu_jit_lower(emu_tdfg *t, emu_jit *out, diag *d);
/* Parse the tDFG file at path (ov as for emu_tdfg_parse) and lower it
 * into j.  0, or -1 with d set. */
int emu_tdfg_load(const char *path, const emu_geom_override *ov, emu_tdfg *t,
		  emu_jit *j, diag *d);
/* The same with ndefs -D values for its parameters (emu_tdfg_parse_defs;
 * tdfg_param.c). */
int emu_tdfg_load_defs(const char *path, const emu_geom_override *ov, const emu_tdfg_def *defs,
		       size_t ndefs, emu_tdfg *t, emu_jit *j, diag *d);
void emu_jit_free(emu_jit *j);
/* The node whose commands hold command i (i < ncmds), or -1. */
long emu_jit_node_of(const emu_jit *j, size_t cmd);

/* ---- strm nodes at run time (strm.c) ----
 * The Layout Override Table's trans field of each tensor (infinity-stream
 * §5.2, Table 1): 0 in normal memory, 1 while the transpose unit fills it
 * (the core's requests to it are blocked), 2 once it is transposed. */
enum { EMU_LOT_NORMAL = 0, EMU_LOT_FILLING = 1, EMU_LOT_TRANSPOSED = 2 };
typedef struct emu_strm_lot {
	uint8_t *trans;        /* per buffer of the program */
	size_t n;
	uint64_t fills;        /* 0/2 -> 1 transitions */
	uint64_t blocked;      /* core requests refused while filling */
	uint64_t served;       /* core requests served */
} emu_strm_lot;
int emu_strm_lot_init(emu_strm_lot *l, size_t nbufs);
void emu_strm_lot_free(emu_strm_lot *l);
void emu_strm_lot_fill(emu_strm_lot *l, size_t buf);    /* trans := 1 */
void emu_strm_lot_filled(emu_strm_lot *l, size_t buf);  /* trans := 2 */
/* A core request to buffer buf: false (counted blocked) while filling. */
bool emu_strm_lot_core_request(emu_strm_lot *l, size_t buf);

/* NSC Fig 12's classes: offloaded, control, data (nsc.h's nsc_class). */
#define EMU_STRM_CLASSES 3
typedef struct emu_strm_stats {
	uint64_t streams;          /* strm nodes run */
	uint64_t elems;            /* elements they produced */
	uint64_t partials;         /* per-tile partials folded at the banks */
	uint64_t iters, uops, msgs;/* the engines' iterations, operations, messages */
	uint64_t bytes[EMU_STRM_CLASSES], byte_hops[EMU_STRM_CLASSES];
	uint64_t ttu_out_cycles, ttu_in_cycles; /* transposes out of and into the arrays */
	uint64_t bytes_out, bytes_in;
	/* The cost model (doc/TDFG.md, "strm nodes"): cycles of the
	 * gathers' streams (Fig 14's Near-Mem) and of the final reduces'. */
	uint64_t near_cycles, final_cycles;
	/* Regions run near memory (§4.3, emu_near_exec): their nodes and
	 * the elements those produced (their cycles are in near_cycles). */
	uint64_t near_nodes, near_elems;
	uint64_t core_cycles;      /* the streams run at the core (Base) */
	emu_strm_lot lot;
} emu_strm_stats;

/* Table 2: the SE_L3's compute-init latency, and the mesh's link width. */
#define EMU_STRM_LAT_SE 4u
#define EMU_STRM_LINK_BYTES 32u

/* The offload decision of infinity-stream §4.3, Eq. 2, for one region
 * run: in memory when N_elem·N_op/TP_core > Σ Lat_op + N_node·Lat_JIT,
 * else streams (the sDFG).  N_elem: the run's window; N_op: its compute
 * and reduce nodes (operations per element); Σ Lat_op: the cycles of its
 * nodes' commands on this machine (cycles[c] per command, NULL for 0);
 * TP_core and Lat_JIT are settings (infsim run --tp-core, --lat-jit). */
typedef struct emu_eq2 {
	uint64_t n_elem, n_op, n_node;
	double tp_core;
	uint64_t lat_ops, lat_jit;
	double core;           /* N_elem·N_op/TP_core */
	uint64_t mem;          /* Σ Lat_op + N_node·Lat_JIT */
	bool in_memory;
} emu_eq2;
#define EMU_EQ2_TP_CORE 16.0    /* one 512-bit SIMD operation on 32-bit elements a cycle */
#define EMU_EQ2_LAT_JIT 1000u   /* cycles per node lowered */
void emu_eq2_region(const emu_tdfg *t, size_t run, const uint64_t *cycles, double tp_core,
		    uint64_t lat_jit, emu_eq2 *e);

/* A region run near memory instead of on the bitlines (§4.3: Eq. 2, or
 * infsim run --offload=near): each node with commands a stream program
 * of the engines of emu/nsc (strm.c, doc/TDFG.md, "In or near memory").
 * emu_near_unfit: the first node of run that has no such stream (why
 * says which and why), or -1 when the run can go near memory.
 * emu_near_exec: node n's stream instead of its commands, on em (its
 * cycles, traffic and transposes into st) and, unless NULL, on the
 * stream's reference model ref, from its own values; em may be NULL.
 * core_tp > 0: the streams run at the core instead (Base, infsim run
 * --offload=core), core_tp operations a cycle (core_cycles).
 * 0, or -1 with d set at the node. */
long emu_near_unfit(const emu_tdfg *t, size_t run, char *why, size_t size);
int emu_near_exec(const emu_tdfg *t, const emu_program *p, emu_machine *em, emu_ref *ref,
		  size_t n, double core_tp, emu_strm_stats *st, diag *d);
/* Eq. 2 for run before it runs, Σ Lat_op from the JIT's model of the
 * run's commands on its tile (emu_jit_tile_cost, tile_cost.c): what
 * decides where the run goes. */
void emu_eq2_model(const emu_tdfg *t, size_t run, double tp_core, uint64_t lat_jit,
		   emu_eq2 *e);

/* t's first strm node, or -1. */
long emu_strm_first(const emu_tdfg *t);
/* The strm node whose last command is cmd, or -1. */
long emu_strm_node_at(const emu_tdfg *t, const emu_jit *j, size_t cmd);
/* Run strm node n's stream at the banks, after its commands: operands
 * out of em through the transpose unit, the engines of emu/nsc, the
 * result back in.  A move not synced into an operand is a hazard
 * (strict: an error).  ref, the stream's reference model, unless NULL,
 * runs the same stream on its own values, apart from em's (its own
 * statistics are not counted in st); em may be NULL, to run ref's alone.
 * 0, or -1 with d set at the node. */
int emu_strm_exec(const emu_tdfg *t, const emu_program *p, emu_machine *em, emu_ref *ref,
		  size_t n, emu_strm_stats *st, diag *d);
/* The same for a stream that says where the node runs (a strm marker,
 * doc/FORMAT.md): after command cmd (from 0) at line of p, which the
 * hazard tracker names. */
int emu_strm_exec_at(const emu_tdfg *t, const emu_program *p, emu_machine *em, emu_ref *ref,
		     size_t n, size_t cmd, int line, emu_strm_stats *st, diag *d);

/* ---- programs (tdfg_prog.c) ----
 * Expand t's control into runs of its regions (t->regions, t->nodes),
 * each node's domain evaluated for the run's parameters and window, its
 * arrays bound after the swaps so far.  0, or -1 with d at the node or
 * control line that cannot run. */
int emu_tdfg_expand(emu_tdfg *t, diag *d);
/* The value of e for parameters pv. */
int64_t emu_texpr_eval(const emu_texpr *e, const int64_t *pv);
/* The name a node's value has in the lowered stream: an array's for a
 * tensor or a store, else the node's. */
const char *emu_tnode_value_name(const emu_tdfg *t, const emu_tnode *x);
/* "x", or "store A" for a store: how messages name node x. */
const char *emu_tnode_label(const emu_tdfg *t, const emu_tnode *x, char *buf, size_t size);

/* ---- the reference at node granularity (tdfg_ref.c) ----
 * Each node's value over its domain (elements outside it are 0),
 * computed in plain C from its operands' values: isa_ref_elem3 for
 * compute nodes (in the machine's fp mode and CORDIC iterations), index
 * arithmetic for shift and bcast.  Inputs start from init= (the bits
 * emu_init_elem gives the stream's tensor) or from emu_tref_input.  It
 * never reads the machine and never runs a micro-op.  Values are kept at
 * their element's width, over their domain, and only while live: a value
 * is dropped once the last node reading it is computed, a value nothing
 * reads once it is compared (emu_tref_compare) or its run is over. */
typedef struct emu_tref emu_tref;
emu_tref *emu_tref_new(const emu_tdfg *t, diag *d);
void emu_tref_free(emu_tref *r);
/* Replace input node n's values (count = the lattice's elements). */
int emu_tref_input(emu_tref *r, size_t n, const uint64_t *values, uint64_t count,
		   diag *d);
/* Replace array a's first data (count = its elements): --load. */
int emu_tref_array_input(emu_tref *r, size_t a, const uint64_t *values, uint64_t count,
			 diag *d);
/* Compute every node up to and including n (values still kept are
 * reused; an input change, or asking for a value already dropped,
 * starts again from the arrays' first data). */
void emu_tref_run(emu_tref *r, size_t n);
/* Are node n's values at hand (emu_tref_run has reached n, and memory
 * sufficed)? */
bool emu_tref_kept(const emu_tref *r, size_t n);
/* Element e (row-major over the region's lattice) of node n: 0 outside
 * its domain or when its values are not kept. */
uint64_t emu_tref_value(const emu_tref *r, size_t n, uint64_t e);
/* count elements of node n from (i0, i1, i2) along dimension 0 into
 * out, all inside its domain: false (out untouched) when they are not,
 * or the node's values are not kept. */
bool emu_tref_row(const emu_tref *r, size_t n, uint64_t i0, uint64_t i1, uint64_t i2,
		  uint64_t count, uint64_t *out);
/* From now on, note for each compute node whether its value, over its
 * domain, is one of its operands' (a check of it cannot tell the node
 * from a copy).  Ignored when out of memory. */
void emu_tref_watch_echo(emu_tref *r);
/* Was node n, when last computed, such an echo? */
bool emu_tref_echo(const emu_tref *r, size_t n);
/* Element e (row-major over the array's sizes) of array a, as the
 * stores of the nodes computed so far left it: after emu_tref_run of the
 * last node, what the program leaves in it. */
uint64_t emu_tref_array_value(const emu_tref *r, size_t a, uint64_t e);
/* Compare node n's domain, as the machine's cells hold it now (read
 * through its tensor in p, the lowered program), with the reference
 * (computing it first if needed).  true if every element agrees; else
 * *mm is the first difference (its buf the node's tensor, index
 * row-major), or mm->buf is NULL when the reference ran out of memory. */
bool emu_tref_compare(emu_tref *r, const emu_program *p, const emu_machine *em,
		      size_t n, emu_mismatch *mm);

INFSIM_END_DECLS

#endif
