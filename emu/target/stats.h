/* SPDX-License-Identifier: MIT */
/*
 * stats.h: statistics as one tree (prefix tgt_stat_), the same for every
 * target, written as one versioned JSON document (doc/stats.schema.json)
 * or as text made from the same tree.
 *
 * A node is a group (a JSON object), a list of rows (a JSON array of
 * objects: per bank, per cube, per node) or a value (an unsigned or signed
 * integer, a real, a string, a boolean, a list of unsigned integers).
 * Every value has a key (its JSON name, lower_snake_case) and a label (its
 * name in the text form, words); a label NULL uses the key.
 *
 * The text form prints a group as a heading and its values, short ones
 * packed a few a line; a group whose members are all groups of the same
 * values, and a list, as a table.  In a list, the first column (or the
 * first n, TGT_STAT_INDEX(n): bank, x, y) names a row; a run of rows the
 * same in the other columns, whose first column counts up by one, folds
 * into one row showing the naming columns' ranges ("0-63").  A list
 * flagged TGT_STAT_DETAIL (per bank, per cube) shows its first few
 * (folded) rows only; the full text form (--stats=full) prints every row
 * of every list, unfolded.
 *
 * The calls never fail: out of memory, the tree remembers it and
 * tgt_stat_json / tgt_stat_text return -1.  A NULL parent makes a call do
 * nothing, so a group that could not be made loses only its own values.
 */
#ifndef INFSIM_STATS_H
#define INFSIM_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "api.h"

INFSIM_BEGIN_DECLS

/* The JSON document's "format". */
#define TGT_STATS_FORMAT "infsim-stats 3"

typedef struct tgt_stat tgt_stat;

enum { TGT_STAT_DETAIL = 1 };
/* A list flag: the first n columns name a row (at most 255). */
#define TGT_STAT_INDEX(n) ((unsigned)(n) << 8)

/* A new root (a group with no key); NULL out of memory. */
tgt_stat *tgt_stat_new(void);
void tgt_stat_free(tgt_stat *root);

/* The group key of g, made if it is not there yet (title: the text
 * form's heading; NULL: the key). */
tgt_stat *tgt_stat_group(tgt_stat *g, const char *key, const char *title);
/* A new list key of g; each tgt_stat_row adds a row, a group. */
tgt_stat *tgt_stat_list(tgt_stat *g, const char *key, const char *title, unsigned flags);
tgt_stat *tgt_stat_row(tgt_stat *list);

/* Values: a key given twice in one group replaces the first value (a
 * group, a list or a value; and its label, when one is given). */
void tgt_stat_uint(tgt_stat *g, const char *key, uint64_t v, const char *label);
void tgt_stat_int(tgt_stat *g, const char *key, int64_t v, const char *label);
void tgt_stat_real(tgt_stat *g, const char *key, double v, const char *label);
void tgt_stat_str(tgt_stat *g, const char *key, const char *v, const char *label);
void tgt_stat_bool(tgt_stat *g, const char *key, bool v, const char *label);
/* v[0..n), copied: a JSON array of numbers, one line of text. */
void tgt_stat_uints(tgt_stat *g, const char *key, const uint64_t *v, size_t n,
		    const char *label);

/* Mark g's value key a detail: in the JSON and the full text form
 * (--stats=full), left out of the short text. */
void tgt_stat_detail(tgt_stat *g, const char *key);

/* The tree is incomplete (a target ran out of memory making it): the
 * writers then fail, as on the tree's own out of memory. */
void tgt_stat_failed(tgt_stat *g);

/* The child of g named key, or NULL; a path "totals.cycles" looks down,
 * a number picks a list's row ("by_bank.0.cycles"). */
const tgt_stat *tgt_stat_get(const tgt_stat *g, const char *path);
/* A value node's number (an integer as a double), or NAN. */
double tgt_stat_number(const tgt_stat *v);

/* The tree as JSON, two spaces an indent, ending in a newline. */
int tgt_stat_json(const tgt_stat *root, FILE *f);
/* The tree as text; full: every row of every list, unfolded.  root may
 * be a node of the tree (a list: its table alone). */
int tgt_stat_text(const tgt_stat *root, FILE *f, bool full);

INFSIM_END_DECLS

#endif
