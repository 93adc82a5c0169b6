/* SPDX-License-Identifier: MIT */
/*
 * simt_int.h: what the files of emu/simt/ share and nothing else sees:
 * the line cursor of the parser, and the fixed meaning of each DC-PTX
 * operation (which types it takes, which operands it has).
 */
#ifndef INFSIM_SIMT_INT_H
#define INFSIM_SIMT_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "isa.h"
#include "simt.h"
#include "text.h"

/* One line being parsed; errors are reported at its columns. */
typedef struct simt_cur {
	const char *path;
	const char *s;
	size_t len, pos;
	int line;
	diag *d;
} simt_cur;

int simt_err(simt_cur *c, size_t pos, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void simt_skip(simt_cur *c);
bool simt_at_end(simt_cur *c);
bool simt_eat(simt_cur *c, char ch);
/* An identifier (letters, digits, '_', '.' and '%' after the first) into
 * buf; its length, 0 if there is none. */
size_t simt_word(simt_cur *c, char *buf, size_t size);
/* A number: 0, or -1 with the error reported. */
int simt_number(simt_cur *c, uint64_t *mag, bool *neg);
/* A 32-bit constant: a decimal or 0x number, or PTX's 0fXXXXXXXX bits. */
int simt_imm32(simt_cur *c, uint32_t *out);
/* The token after a directive: expect a decimal count in [lo, hi]. */
int simt_count(simt_cur *c, const char *what, uint64_t lo, uint64_t hi, uint64_t *v);

/* The settings every program starts from (those of an empty .machine
 * line), with .thread kernels translated as mapping says. */
void simt_program_init(simt_program *p, const char *path, int mapping);

/* A global's initialiser, the rest of its line (init.c): zero, iota,
 * fill V, rand SEED [MAX], or '=' and its values. */
int simt_global_init(simt_cur *c, const simt_global *g, uint32_t *words);

/* What an operation takes (instr.c). */
typedef struct simt_opinfo {
	const char *name;
	unsigned ntypes;      /* bit t: takes enum simt_type t */
	unsigned nsrc;        /* register sources a, b, c */
	bool has_d;           /* writes register d */
} simt_opinfo;
const simt_opinfo *simt_opinfo_of(unsigned opc);

/* Parse one bundle's text (the rest of the line) into b; labels are
 * recorded as names to resolve when the kernel ends (parse.c). */
typedef struct simt_labels {
	char (*name)[64];
	uint32_t *at;        /* bundle index of each label */
	int *line;
	size_t n, cap;
	/* branch references to resolve: bundle, slot, label name, column */
	struct simt_fix { uint32_t bundle; uint8_t slot; char name[64]; int line, col; } *fix;
	size_t nfix, capfix;
} simt_labels;
int simt_parse_bundle(simt_cur *c, const simt_program *p, simt_labels *lab,
		      uint32_t index, simt_bundle *b);

/* The isa/ command of an ALU instruction (isacmd.c).  *via_temp: the
 * command writes SIMT_TEMP_ROW and a copy moves it to d.  0, or -1 with
 * *why a static message when isa/ has no such command. */
#define SIMT_TEMP_ROW (SIMT_WORDLINES - SIMT_REG_BITS)
int simt_isa_cmd(const simt_program *p, const simt_instr *in, unsigned ieee, isa_cmd *c,
		 bool *via_temp, const char **why);
unsigned simt_scratch_row(const simt_program *p, const simt_instr *in);

/* A .thread kernel being read (thread.c): each instruction parsed with
 * its values as r0, and the values (one a definition) it writes and
 * reads as a, b, c; translate.c turns it into bundles. */
typedef struct tinstr {
	simt_instr in;
	int def;            /* value defined, -1 none */
	int use[3];         /* values read as a, b, c, -1 none */
} tinstr;
typedef struct simt_tprog {
	tinstr *t;
	uint32_t n, cap;
	uint32_t nvalues;
	char (*name)[64];   /* each register name, and its current value */
	int *cur;
	size_t nnames, capnames;
} simt_tprog;
int simt_thread_line(simt_cur *c, const simt_program *p, simt_tprog *tp);
/* p->serial: one instruction a bundle on array 0 (mapping=serial, Fig 13's
 * baseline); p->regs: the registers of an array it allocates. */
int simt_translate(simt_cur *c, simt_kernel *k, simt_tprog *tp, const simt_program *p);
void simt_tprog_free(simt_tprog *tp);

/* The reference's arithmetic, one 32-bit value at a time (ref_alu.c). */
uint32_t simt_ref_alu(const simt_instr *in, uint32_t a, uint32_t b, uint32_t c,
		      bool p, unsigned ieee, bool *pout);

#endif
