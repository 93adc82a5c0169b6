/* SPDX-License-Identifier: MIT */
/*
 * program.h: a command stream in memory (prefix emu_).
 *
 * The data flow is   text --emu_parse--> emu_program --emu_exec--> SRAM
 * and back           emu_program --emu_format--> text (the disassembler)
 *                    emu_program --emu_encode--> command words --emu_decode-->
 * emu_parse checks everything a user can get wrong (syntax, names,
 * ranges, overlaps, widths that do not fit) and reports the first problem
 * with FILE:LINE:COL.  A program that parsed is valid for its machine:
 * the executor does not check again.
 */
#ifndef INFSIM_PROGRAM_H
#define INFSIM_PROGRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "diag.h"
#include "isa.h"
#include "layout.h"
#include "sram.h"

INFSIM_BEGIN_DECLS

/* An affine pattern (infinity-stream §4.2 and the published artifact):
 * start plus up to 8 (stride, count) pairs, innermost first.  Element i is
 *   start + sum_k stride_k * ((i / prod_{j<k} count_j) % count_k).
 * Text: start[:stride1:count1[:stride2:count2...]].  "5" is the single
 * element 5; "0:1:0" is empty. */
#define EMU_PAT_MAX_DIMS 8
typedef struct emu_pattern {
	int64_t start;
	unsigned ndims;
	int64_t stride[EMU_PAT_MAX_DIMS];
	uint64_t count[EMU_PAT_MAX_DIMS];
} emu_pattern;

uint64_t emu_pattern_size(const emu_pattern *p);
int64_t emu_pattern_at(const emu_pattern *p, uint64_t i);
/* Smallest and largest element (p must be non-empty). */
void emu_pattern_bounds(const emu_pattern *p, int64_t *lo, int64_t *hi);
/* Parse text[0..len).  0 on success; -1 with *err a static message and
 * *errcol the 0-based offset of the problem. */
int emu_pattern_parse(const char *text, size_t len, emu_pattern *out,
		      const char **err, size_t *errcol);
/* Canonical text; returns the length snprintf would. */
int emu_pattern_format(const emu_pattern *p, char *buf, size_t size);
/* The pattern 0:1:count. */
emu_pattern emu_pattern_range(uint64_t count);
/* The same elements in the fewest dimensions: dimensions of count 1
 * dropped, contiguous ones merged (0:1:4:4:2 is 0:1:8). */
void emu_pattern_simplify(emu_pattern *p);

/* How a buffer is filled before the first command (emu_init_elem). */
typedef enum emu_init_kind {
	EMU_INIT_NONE = 0, /* left as the SRAM holds it (zero at start) */
	EMU_INIT_ZERO,
	EMU_INIT_IOTA,     /* element i = i: wrapped to n bits, or converted
			    * to a float or .qN format (saturating) */
	EMU_INIT_RANDOM,   /* a seeded generator (emu_random_elem) */
	EMU_INIT_CONST,    /* init_arg, the element's bits */
} emu_init_kind;

/* A named buffer: element i lives in array arrays[i / B], bitline i % B,
 * bits k = 0..width-1 at wordlines wl + k (LSB first, Fig 1(d)). */
#define EMU_NAME_MAX 64
typedef struct emu_buffer {
	char name[EMU_NAME_MAX];
	uint8_t width;       /* 1..64 */
	uint8_t is_signed;   /* 1 for .iN, floats and .qN */
	uint8_t fmt;         /* enum isa_fmt */
	uint64_t length;     /* elements */
	uint16_t wl;         /* first wordline */
	emu_pattern arrays;  /* the arrays holding it, in element order */
	emu_init_kind init;
	uint64_t init_arg;   /* seed (random) or value (const) */
	int line, col;       /* where it was declared */
	/* A tensor (doc/FORMAT.md, "Tensors"): an N-d tiled buffer, one
	 * region of the Layout Override Table (layout.h, infinity-stream
	 * §4.1, Table 1).  ndims 1..3 (0: a plain buffer, as above); sizes
	 * and tiles innermost first, 1 beyond ndims; tile t is held by array
	 * arrays.start + t, and element i by the cell emu_buffer_place gives.
	 * length is the product of the sizes. */
	uint8_t ndims;
	uint64_t shape[3], tile[3];
	/* A shared tensor (`shared` on its line) may hold cells that other
	 * shared tensors also hold: the wordlines a JIT reuses once a value
	 * is dead (doc/TDFG.md, "Wordline allocation").  Only two shared
	 * tensors may overlap; every other buffer keeps its cells alone. */
	uint8_t shared;
	/* A scratch tensor (`scratch` on its line) holds no tDFG node: the
	 * stream's own temporaries.  Validation (doc/TDFG.md, "Stray
	 * writes") reports no write into it as stray. */
	uint8_t scratch;
} emu_buffer;

/* Wordlines a buffer occupies in each of its arrays: its width, or for a
 * tensor with virtual bitlines (a tile wider than an array) width times
 * its wordline groups. */
unsigned emu_buffer_rows(const emu_buffer *b, const sram_geom *g);
/* The array, bitline and first wordline of element i (bit k at wordline
 * wl + k): a plain buffer's i / B, i % B, b->wl; a tensor's through the
 * tiled layout (emu_layout_place). */
void emu_buffer_place(const emu_buffer *b, const sram_geom *g, uint64_t i,
		      unsigned *array, unsigned *bitline, unsigned *wl);
/* Placing many elements of one buffer: the tensor's region is made once
 * (emu_buffer_place makes it for every call). */
typedef struct {
	const emu_buffer *b;
	const sram_geom *g;
	emu_region r;
} emu_placer;
void emu_placer_init(emu_placer *pl, const emu_buffer *b, const sram_geom *g);
void emu_placer_at(const emu_placer *pl, uint64_t i, unsigned *array,
		   unsigned *bitline, unsigned *wl);
/* A tensor as a region of the Layout Override Table (layout.h): name,
 * type, sizes, tiles, first wordline, first array, transposed. */
struct emu_region;
void emu_buffer_region(const emu_buffer *b, struct emu_region *r);

/* A data-movement command (infinity-stream §4.2; its semantics and
 * execution are in move.h, its text in doc/FORMAT.md, "Moves"). */
typedef enum emu_move_kind {
	EMU_MOVE_INTRA = 0, /* intra-array shift */
	EMU_MOVE_INTER,     /* inter-array shift */
	EMU_MOVE_BCAST,     /* broadcast with reuse */
	EMU_MOVE_CONST,     /* broadcast of a constant */
	EMU_MOVE_SYNC,      /* the global barrier */
	EMU_MOVE_KINDS
} emu_move_kind;

/* One move.  Fields a kind does not use are 0 (move.h says which).
 *   intra  each array of `arrays`: bitline b of `bitlines`, wordline
 *          wl + k  ->  bitline b + dist, wordline dst_wl + k (k < nwl);
 *          scratch: a wordline the shift may clobber, needed when
 *          |dist| >= 2 (SRAM_NO_ROW otherwise).
 *   inter  array a of `arrays`: element i of `bitlines`, wordline wl + k
 *          -> array a + dist, element i of `dst_bitlines`, dst_wl + k.
 *   bcast  as inter, to each array a + dist + j * reuse_stride,
 *          j < reuse_count (the reuse dimension's tile stride and count).
 *   const  each array of `arrays`, each bitline of `bitlines`: wordline
 *          wl + k := bit k of value (k < nwl <= 64).
 *   sync   nothing else. */
typedef struct emu_move {
	uint8_t kind;          /* enum emu_move_kind */
	emu_pattern arrays;    /* the tile pattern, as global arrays */
	emu_pattern bitlines;  /* source bitlines of each array */
	emu_pattern dst_bitlines;
	int64_t dist;          /* intra: bitlines; inter, bcast: arrays */
	int64_t reuse_stride;
	uint64_t reuse_count;
	uint16_t wl, nwl, dst_wl, scratch;
	uint64_t value;
	int line;              /* source line for messages, 0 if none */
} emu_move;

/* A tensor move as written (`move DST, SRC, OFFSETS [@ box=...]`,
 * doc/FORMAT.md, "Tensor moves"): the elements [lo, hi) of tensor src,
 * `off` elements away (one nonzero component), into tensor dst, which has
 * src's layout at other wordlines.  A program holding one is as written;
 * emu_program_lower (machine/lower.c, Algorithms 1 and 2) replaces it by
 * the mv.* commands it means, and only a lowered program runs. */
typedef struct emu_tmove {
	int16_t dst, src;      /* buffers, both tensors */
	int64_t off[3];        /* innermost first */
	uint64_t lo[3], hi[3]; /* the box */
	int col;               /* column of `move` on its line */
} emu_tmove;

/* What a command of the stream is. */
enum emu_cmd_kind { EMU_CMD_COMPUTE = 0, EMU_CMD_MOVE = 1, EMU_CMD_TMOVE = 2 };

/* One command: a compute command (c, arrays, bitlines, buf_*), a
 * move (kind EMU_CMD_MOVE: mv; c is zero, the buffers -1), or a tensor
 * move as written (kind EMU_CMD_TMOVE: tm; the buffers -1). */
typedef struct emu_cmd {
	isa_cmd c;            /* resolved wordlines, types, settings */
	emu_pattern arrays;   /* selected arrays (global array numbers) */
	emu_pattern bitlines; /* selected bitlines inside each array */
	int16_t buf_d, buf_d2, buf_a, buf_b; /* operand buffers, -1 if none */
	int16_t buf_c;        /* madd's addend c (isa_cmd.c3), -1 if none */
	int line;             /* source line, 0 if decoded from binary */
	uint8_t kind;         /* enum emu_cmd_kind */
	emu_move mv;          /* kind EMU_CMD_MOVE */
	emu_tmove tm;         /* kind EMU_CMD_TMOVE */
} emu_cmd;

/* A node marker (`node NAME [tensor=T]`, doc/FORMAT.md, "Node
 * markers"): once the stream's first `at` commands have run, tensor buf
 * holds the value of the tDFG node called name.  It binds a stream to
 * the tDFG it was lowered from, for validation (doc/TDFG.md,
 * "Validating a stream"); the machine runs nothing at it.
 * `node NAME [tensor=T] strm` marks a strm node of the tDFG
 * (infinity-stream §3.3): its stream runs near memory at this point,
 * after the commands before it (the sync that orders it, §5.3), and
 * then T holds the node; what runs it is the tDFG's (emu/tdfg/strm.c),
 * so a stream with such a marker runs only beside its tDFG. */
#define EMU_MARK_SELS 4
typedef struct emu_mark {
	char name[EMU_NAME_MAX];
	int16_t buf;          /* the tensor that holds the node */
	bool strm;            /* a strm node's stream runs here */
	size_t at;            /* commands before the marker */
	int line;             /* source line, 0 if decoded from binary */
	/* Which run of a program's region the marker holds the node of:
	 * `run=N` (the region's N-th run, from 1) and the region's
	 * parameters (`k=15`), as written, in order. */
	uint8_t nsel;
	struct emu_mark_sel {
		char name[EMU_NAME_MAX]; /* "run", or a parameter's name */
		int64_t value;
	} sel[EMU_MARK_SELS];
} emu_mark;

typedef struct emu_program {
	char *path;           /* for diagnostics */
	sram_geom geom;
	uint16_t scratch;     /* first scratch wordline */
	emu_buffer *bufs;
	size_t nbufs;
	emu_cmd *cmds;
	size_t ncmds;
	emu_mark *marks;      /* in stream order (at never decreases) */
	size_t nmarks;
} emu_program;

/* Append a marker (at = p->ncmds).  0, or -1 when out of memory. */
int emu_program_mark(emu_program *p, const char *name, int16_t buf, int line);
/* p's first strm marker (emu_mark.strm), or NULL. */
const emu_mark *emu_program_strm_mark(const emu_program *p);

void emu_program_init(emu_program *p);
/* Does p hold tensor moves as written (EMU_CMD_TMOVE), which must be
 * lowered (emu_program_lower) before it runs or is encoded? */
bool emu_program_written(const emu_program *p);
/* 0 when p is lowered; else -1 with d set to say so (what runs, checks
 * or encodes a program calls it first). */
int emu_program_need_lowered(const emu_program *p, diag *d);
/* The Layout Override Table of p's tensors, in declaration order, each
 * at the next cache-line-aligned physical address (`infsim layout`).
 * 0, or -1 with d set (more tensors than EMU_LOT_MAX). */
struct emu_lot;
int emu_program_lot(const emu_program *p, struct emu_lot *t, diag *d);
void emu_program_free(emu_program *p);

/* Parse a command stream, as written: a tensor move stays one
 * EMU_CMD_TMOVE command until emu_program_lower.  geom_default is the machine used when the
 * stream has no `machine` line (the command line's or a config file's);
 * a stream's own `machine` line wins over it.  Returns 0, or -1 with d set. */
int emu_parse(const char *path, const char *text, size_t len,
	      const sram_geom *geom_default, emu_program *out, diag *d);
int emu_parse_file(const char *path, const sram_geom *geom_default,
		   emu_program *out, diag *d);


/* The disassembler: canonical text of p (malloc'd, NUL-terminated), such
 * that emu_parse(emu_format(p)) gives back p exactly, and formatting that
 * again gives the same text.  NULL on allocation failure. */
char *emu_format(const emu_program *p);
/* One command's canonical text, as in emu_format. */
int emu_format_cmd(const emu_program *p, const emu_cmd *c, char *buf, size_t size);

/* The assembler's binary form: a header, the buffers and the commands as
 * little-endian 64-bit words (doc/FORMAT.md).  emu_decode(emu_encode(p))
 * equals p except for source lines.  Return 0, or -1 with d set. */
int emu_encode(const emu_program *p, uint64_t **words, size_t *nwords, diag *d);
int emu_decode(const char *path, const uint64_t *words, size_t nwords,
	       emu_program *out, diag *d);

/* Machine settings: "key=value" (wordlines, bitlines, arrays per way,
 * ways per bank, mesh=XxY, and the controller's fp=ftz|ieee,
 * latency=baseline|optimised, cordic=K), used by the `machine` line,
 * --machine and config files.  The value is checked on its own; limits on the whole
 * machine (total arrays, bytes) need sram_geom_check once every key is
 * set.  Return 0, or -1 with *err a static message (g unchanged). */
int emu_geom_set(sram_geom *g, const char *key, const char *value,
		 const char **err);
/* The CORDIC iterations k that g gives (its 0 is the default, 17). */
unsigned emu_geom_cordic(const sram_geom *g);

/* Machine settings given outside a stream (a config file, --machine).
 * They win key by key over the stream's own `machine` line, so a user can
 * resize any stream.  keys has bit k set when key k (wordlines, bitlines,
 * arrays, ways, mesh, fp, latency, cordic, in that order) was given. */
typedef struct emu_geom_override {
	sram_geom g;
	unsigned keys;
} emu_geom_override;
void emu_geom_override_init(emu_geom_override *o);
int emu_geom_override_set(emu_geom_override *o, const char *key,
			  const char *value, const char **err);
void emu_geom_override_apply(const emu_geom_override *o, sram_geom *g);

/* emu_parse, with settings that win over the stream's machine line. */
int emu_parse_over(const char *path, const char *text, size_t len,
		   const sram_geom *geom_default, const emu_geom_override *ov,
		   emu_program *out, diag *d);

/* Read a stream file: text (.ins) is parsed with ov (may be NULL)
 * winning over its machine line; the binary form (.inb, or a NUL byte in
 * the first 16 bytes) is decoded, and refused with EMU_LOAD_FIXED_MACHINE
 * when ov would change its machine.  0, or a negative value with d set. */
#define EMU_LOAD_FIXED_MACHINE (-2)
int emu_load_file(const char *path, const emu_geom_override *ov,
		  emu_program *out, diag *d);
/* The same for a file's bytes, read already. */
int emu_load_text(const char *path, const char *bytes, size_t len, const emu_geom_override *ov,
		  emu_program *out, diag *d);
int emu_geom_format(const sram_geom *g, char *buf, size_t size);

/* Deterministic pseudo-random fill for EMU_INIT_RANDOM: element index
 * gets the (index + 1)-th output of splitmix64 started at seed (before
 * masking to the buffer's width), so the same stream always starts from
 * the same data. */
uint64_t emu_random_elem(uint64_t seed, uint64_t index);
/* The bits init= gives element i of b (doc/FORMAT.md, "Buffers"): iota
 * converted to b's format, random bits that for a float format visit
 * every class (zeros, subnormals, infinities, NaNs, the extreme
 * binades) often, const's bits. */
uint64_t emu_init_elem(const emu_buffer *b, uint64_t i);
/* v[k] = emu_init_elem(b, first + k) for k < n, with the format looked
 * up once: what fills a whole buffer. */
void emu_init_fill(const emu_buffer *b, uint64_t first, uint64_t n, uint64_t *v);

/* ---- element values as text ----
 * Literals of float and .qN elements (doc/FORMAT.md, "Literals"):
 * decimal (1.5, -2e-3), hex-float (0x1.8p3), inf, -inf, nan (the
 * canonical quiet NaN), or the raw pattern bits:0xHEX.  The value is read
 * as a double, then rounded to the format: isa_fp_from_double with full
 * IEEE subnormals (the literal's bits are the assembler's, whatever the
 * machine's fp= mode), isa_fix_from_double for .qN.
 * emu_literal_parse: the literal at s[0..len) for an element of a float
 * or .qN format; it ends at the first character that cannot continue a
 * literal (*used).  0 with *bits, or -1 with a message in err (errsize
 * bytes).  A finite value that overflows a float format, and a .qN value
 * outside [-4, 4), are out of range. */
int emu_literal_parse(unsigned fmt, unsigned width, const char *s, size_t len,
		      uint64_t *bits, size_t *used, char *err, size_t errsize);
/* The canonical literal of bits: the shortest decimal that parses back to
 * the same bits, else bits:0xHEX (NaN payloads, values the conversions
 * cannot carry).  Integers as signed or unsigned decimal.  Returns what
 * snprintf does. */
int emu_literal_text(unsigned fmt, unsigned width, unsigned is_signed,
		     uint64_t bits, char *buf, size_t size);
/* An element for people: "-7", "1.50000012", "-inf", "nan", "0.375" (a
 * .qN value); then " (0x...)" with its bits when with_bits. */
int emu_value_text(unsigned fmt, unsigned width, unsigned is_signed,
		   uint64_t bits, bool with_bits, char *buf, size_t size);
/* "i32", "f16", "q32": a buffer's element type. */
const char *emu_buffer_type(const emu_buffer *b, char *buf, size_t size);

INFSIM_END_DECLS

#endif
