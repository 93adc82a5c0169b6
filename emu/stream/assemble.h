/* SPDX-License-Identifier: MIT */
/*
 * assemble.h: the one set of checks that every way into an emu_program
 * goes through -- the text parser (parse.c) and the binary decoder
 * (encode.c) -- so a decoded program is exactly as valid as a parsed one.
 * Private to emu/; implemented in program.c.
 *
 * Usage: set p->geom (checked), then add the scratch wordline, buffers
 * and commands in stream order.  Each call validates against what came
 * before and appends, or sets d and returns -1.
 */
#ifndef INFSIM_EMU_ASSEMBLE_H
#define INFSIM_EMU_ASSEMBLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "program.h"
#include "text.h"

/* The parts of a declaration a message can point at. */
enum emu_part {
	EMU_AT_STMT,  /* the statement itself (a command's mnemonic) */
	EMU_AT_NAME, EMU_AT_TYPE, EMU_AT_LENGTH, EMU_AT_WL, EMU_AT_ARRAYS,
	EMU_AT_INIT, EMU_AT_INIT_VALUE, EMU_AT_BITLINES, EMU_AT_IMM,
	EMU_AT_D, EMU_AT_D2, EMU_AT_A, EMU_AT_B, EMU_AT_C, /* operand slots 0..4 */
	EMU_AT_COUNT
};

/* Where a declaration came from.  Text: at[] are 1-based columns on
 * line (0 = not written, use the statement's column).  Binary: line is
 * 0 and at[] are word offsets. */
typedef struct emu_src {
	const char *path;
	bool binary;
	int line;
	size_t at[EMU_AT_COUNT];
} emu_src;

void emu_src_error(diag *d, const emu_src *s, enum emu_part part,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

typedef struct emu_asm {
	emu_program *p;
	diag *d;
	size_t bufcap, cmdcap;
	uint32_t *hash;      /* buffer index + 1 by name; 0 = free slot */
	size_t hashcap;
	uint64_t *amark;     /* one bit per array, all clear between uses */
	uint64_t *bmark;     /* one bit per bitline */
	uint64_t narrays;
	bool scratch_set;    /* p->scratch is final */
	emu_pattern ok_sel[2]; /* the last bitline [0] and array [1] selections */
	bool ok_sel_set[2];    /* found valid */
} emu_asm;

/* p must be initialised, with p->geom valid. */
void emu_asm_init(emu_asm *a, emu_program *p, diag *d);
void emu_asm_free(emu_asm *a);

/* The first scratch wordline; every buffer must lie below it. */
int emu_asm_scratch(emu_asm *a, unsigned scratch, const emu_src *s);
/* Without an explicit scratch line: the first wordline above every
 * buffer.  Idempotent. */
void emu_asm_default_scratch(emu_asm *a);
int emu_asm_buffer(emu_asm *a, const emu_buffer *b, const emu_src *s);
/* Fills c->c.scratch and scratch_rows, then checks c completely
 * (types, settings, operands, patterns, occupancy, isa_check) and
 * appends it. */
int emu_asm_cmd(emu_asm *a, emu_cmd *c, const emu_src *s);
/* A move (c->mv; kind, buffers and compute fields are set here):
 * emu_move_check at the statement's column, and an intra-array shift's
 * scratch row at or above the program's scratch wordline (buffers live
 * below it).  Appended as command number p->ncmds. */
int emu_asm_move(emu_asm *a, emu_cmd *c, const emu_src *s);
/* A tensor move as written (c->tm; kind and buffers are set here); its
 * operands were checked by the parser. */
int emu_asm_tmove(emu_asm *a, emu_cmd *c, const emu_src *s);
/* The machine's settings that every command carries: flags
 * (ISA_FL_IEEE for fp=ieee) and the CORDIC iterations. */
void emu_asm_settings(const emu_asm *a, isa_cmd *c);

/* Index of the buffer named name[0..len), or -1. */
int emu_asm_find(const emu_asm *a, const char *name, size_t len);
/* The declared buffer name closest to name (edit distance <= 2), or NULL. */
const char *emu_asm_closest(const emu_asm *a, const char *name, size_t len);

/* Buffer names: identifiers of 1..63 characters, not reserved. */
/* Sizes S0[xS1[xS2]] at s[*pos..len), innermost first, in decimal, each
 * 1 to 2^32 - 1 (Table 1): the one reader of sizes, for the stream's
 * tensor line and the tDFG.  0 with out[0..*nd) set and *pos past them;
 * or -1 with *pos at the size that is wrong and err its message (what
 * names the sizes: "tile", "the tensor's sizes"). */
int emu_scan_sizes(const char *s, size_t len, size_t *pos, const char *what,
		   uint64_t out[3], unsigned *nd, char *err, size_t errsize);
bool emu_name_reserved(const char *name, size_t len);

/* A pattern's own consistency: ndims <= 8 and, when it is not empty, a
 * size and elements that fit 64 bits.  NULL, or a static message with
 * *dim the dimension at fault (0 = the start). */
const char *emu_pattern_check(const emu_pattern *p, unsigned *dim);
bool emu_pattern_equal(const emu_pattern *x, const emu_pattern *y);

/* Is a DAI command's immediate a shift amount (< n)?  From the table:
 * the shift family's immediate forms. */
bool emu_imm_is_shift(unsigned op);

/* The operands of each form, in text order. */
typedef struct emu_form_info {
	const char *syntax;          /* as in opcodes.def: "d, a, b" */
	unsigned nops;
	enum emu_part ops[4];        /* EMU_AT_D/D2/A/B/C, or EMU_AT_IMM */
	const char *names[4];        /* "d", "a", "#imm", ... */
} emu_form_info;
const emu_form_info *emu_form_of(unsigned form);

/* "add.i32", "add.f32", "cvt.f32.i32" */
int emu_cmd_name(const isa_cmd *c, char *buf, size_t size);
/* The types a mnemonic takes, from the CLASS column of its lines:
 * ".iN/.uN or .f32/.f16/.bf16".  0 if the mnemonic is unknown, else the
 * length snprintf gives. */
int emu_mnemonic_types(const char *mnemonic, char *buf, size_t size);
/* Is (fmt, width, is_signed) a type that a suffix can name? */
#define EMU_TYPE_LIST "iN or uN (N from 1 to 64), f32, f16, bf16 or qN (N from 4 to 64)"
bool emu_type_valid(unsigned fmt, unsigned width, unsigned is_signed);
#define EMU_PAT_TEXT 400 /* room for any pattern's text */
/* The canonical text of p appended to b (emu_pattern_format's, without
 * printf: the JIT's hot path). */
void emu_pattern_put(const emu_pattern *p, text_buf *b);

/* Levenshtein distance of two short strings (each cut to 32 chars). */
unsigned emu_edit_distance(const char *x, size_t xl, const char *y, size_t yl);


/* Index of one of emu_geom_set's keys (0..EMU_GEOM_KEYS-1), or -1. */
#define EMU_GEOM_KEYS 8
#define EMU_GEOM_KEY_LIST "wordlines, bitlines, arrays, ways, mesh, fp, latency or cordic"
int emu_geom_key_index(const char *key);

#endif
