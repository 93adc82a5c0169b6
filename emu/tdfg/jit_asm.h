/* SPDX-License-Identifier: MIT */
/*
 * jit_asm.h: the JIT's commands straight into the program (prefix
 * emu_jasm_; private to emu/tdfg).  jit.c writes the lowered stream's
 * text for people (`infsim jit`) and, next to each command line, hands
 * the command to the assembler's checks (assemble.h) as the parser would
 * have built it from that line: the program is the one emu_parse and
 * emu_program_lower make of the text, without printing and reading it
 * back (infinity-stream §4 and §8: the JIT runs at run time, so its cost
 * counts).  Any check that fails makes jit.c assemble the text instead,
 * so a message reads as it always did.
 */
#ifndef INFSIM_JIT_ASM_H
#define INFSIM_JIT_ASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "assemble.h"
#include "program.h"

typedef struct emu_jasm {
	emu_asm a;
	diag d;                /* the first failure (then failed) */
	char path[1100];       /* "PATH (lowered)" */
	bool on, failed;
} emu_jasm;

/* A compute command as its text names it: mnemonic and types, then the
 * operand buffers in text order and the immediate if it has one. */
typedef struct emu_jasm_op {
	const char *mnemonic;  /* "add", "copy", "set" */
	uint8_t fmt, width, is_signed, sfmt, swidth, ssigned;
	int16_t buf[4];
	unsigned nbufs;
	bool has_imm;
	uint64_t imm;
} emu_jasm_op;

/* Start on p, which holds the declarations (parsed, scratch set). */
void emu_jasm_start(emu_jasm *j, emu_program *p, const char *path);
void emu_jasm_end(emu_jasm *j);
/* Each of these does nothing once j failed or when it is not on. */
void emu_jasm_cmd(emu_jasm *j, int line, const emu_jasm_op *o, const emu_pattern *arrays,
		  const emu_pattern *bitlines);
void emu_jasm_move(emu_jasm *j, int line, const emu_move *m);
/* `move DST, SRC, OFF @ box=...`: its mv commands (emu_lower_move). */
void emu_jasm_tmove(emu_jasm *j, int line, int16_t dst, int16_t src, const int64_t *off,
		    const uint64_t *lo, const uint64_t *hi);
void emu_jasm_mark(emu_jasm *j, int line, const char *name, int16_t buf, bool strm);

#endif
