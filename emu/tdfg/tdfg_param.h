/* SPDX-License-Identifier: MIT */
/*
 * tdfg_param.h: integer expressions of the tDFG text form and its
 * program parameters (prefix emu_tpar_; doc/TDFG.md, "Parameters").
 *
 *   param N = 64            a program parameter; `-D N=2048` replaces it
 *   region r NxN            sizes: a number, a parameter or (EXPR), joined by x
 *   box=k+1:N,0:N/2         bounds, offsets and loop bounds: EXPR
 *
 * EXPR is + - * / over 64-bit integers with parentheses; / truncates
 * toward zero, as C does.  A region's own parameters (param=k) may appear
 * linearly: k+1, N-1-k, 2*k; the value is then c + sum coef[i] * k_i,
 * evaluated at each run (emu_texpr).  Not installed: the parser's.
 */
#ifndef INFSIM_EMU_TDFG_PARAM_H
#define INFSIM_EMU_TDFG_PARAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tdfg.h"

/* At most this many program parameters (a program declares a few sizes). */
#define EMU_TPAR_MAX 64

typedef struct emu_tpar {
	char name[EMU_NAME_MAX];
	int64_t value;
	int line;              /* where it is declared */
	bool defined;          /* its value came from a -D */
} emu_tpar;

/* Where an expression is read, and the names it may use. */
typedef struct emu_tpar_scan {
	const char *s;
	size_t len, pos;
	const emu_tpar *par;   /* the program parameters declared so far */
	unsigned npar;
	const emu_tregion *r;  /* its param= names may appear linearly, or NULL */
	bool blanks;           /* blanks may separate tokens outside parentheses */
	/* On failure: the column (0-based) at fault and what was wrong. */
	size_t err_at;
	char err[200];
} emu_tpar_scan;

/* EXPR at sc->pos into e (coefficients of sc->r's parameters, and a
 * constant); what names it in messages ("box start").  0, or -1 with
 * sc->err_at and sc->err set. */
int emu_tpar_expr(emu_tpar_scan *sc, const char *what, emu_texpr *e);
/* A constant EXPR (no region parameter) into *v. */
int emu_tpar_const(emu_tpar_scan *sc, const char *what, int64_t *v);
/* S0[xS1[xS2]], each S a decimal number, a program parameter or a
 * parenthesised EXPR, each from 1 to 2^32 - 1; v beyond *nd set to 1. */
int emu_tpar_sizes(emu_tpar_scan *sc, const char *what, uint64_t v[EMU_LAYOUT_DIMS],
		   uint8_t *nd);
/* The program parameter called name (n characters), or NULL. */
const emu_tpar *emu_tpar_find(const emu_tpar *par, unsigned npar, const char *name, size_t n);
/* How a message names what stands at s[at]: up to 24 characters of its
 * word in quotes, or "the end of the line" (buf holds the text). */
const char *emu_tpar_found(const char *s, size_t len, size_t at, char *buf, size_t size);

#endif
