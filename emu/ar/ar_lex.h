/* SPDX-License-Identifier: MIT */
/*
 * ar_lex.h: tokens of one line of an .ar program (lex.c).  Private.
 */
#ifndef INFSIM_AR_LEX_H
#define INFSIM_AR_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "diag.h"

typedef enum { AR_T_END, AR_T_IDENT, AR_T_INT, AR_T_FLOAT, AR_T_PUNCT } ar_tkind;

typedef struct ar_tok {
	ar_tkind kind;
	const char *s;
	size_t len;
	int col;           /* 1-based */
	int64_t ival;
	double fval;
	char p;
} ar_tok;

typedef struct ar_lex {
	const char *path, *s;
	size_t len, pos;
	int line;
} ar_lex;

void ar_lex_init(ar_lex *lx, const char *path, const char *s, size_t len, int line);
/* 0 with *t (AR_T_END at the end or at '#'), or -1 with d set. */
int ar_lex_next(ar_lex *lx, ar_tok *t, diag *d);
int ar_lex_peek(ar_lex *lx, ar_tok *t, diag *d);
bool ar_tok_is(const ar_tok *t, const char *word);
bool ar_tok_punct(const ar_tok *t, char p);
/* "'word'" or "the end of the line", for messages. */
void ar_tok_text(const ar_tok *t, char *buf, size_t size);

#endif
