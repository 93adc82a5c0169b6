/* SPDX-License-Identifier: MIT */
/*
 * stats.c: the statistics tree, and its JSON and text forms (stats.h).
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

typedef enum { N_GROUP, N_LIST, N_UINT, N_INT, N_REAL, N_STR, N_BOOL, N_UINTS } node_kind;

struct tgt_stat {
	node_kind kind;
	char *key, *label;
	unsigned flags;
	union {
		uint64_t u;
		int64_t i;
		double r;
		char *s;
		bool b;
		struct { uint64_t *at; size_t n; } a;
	} v;
	tgt_stat **kids;
	size_t nkids, cap;
	tgt_stat *root;     /* for the out-of-memory flag */
	bool oom;           /* the root's: something could not be made */
};

static char *dup_or_null(const char *s)
{
	if (!s)
		return NULL;
	const size_t n = strlen(s) + 1;
	char *c = malloc(n);
	return c ? memcpy(c, s, n) : NULL;
}

tgt_stat *tgt_stat_new(void)
{
	tgt_stat *r = calloc(1, sizeof *r);
	if (r)
		r->root = r;
	return r;
}

/* Free what n holds (its children, its string or array), not n. */
static void node_clear(tgt_stat *n)
{
	for (size_t i = 0; i < n->nkids; i++) {
		node_clear(n->kids[i]);
		free(n->kids[i]->key);
		free(n->kids[i]->label);
		free(n->kids[i]);
	}
	free(n->kids);
	n->kids = NULL;
	n->nkids = n->cap = 0;
	if (n->kind == N_STR)
		free(n->v.s);
	else if (n->kind == N_UINTS)
		free(n->v.a.at);
	n->kind = N_BOOL; /* holds nothing to free */
}

static void node_free(tgt_stat *n)
{
	if (!n)
		return;
	node_clear(n);
	free(n->key);
	free(n->label);
	free(n);
}

void tgt_stat_free(tgt_stat *root)
{
	node_free(root);
}

static tgt_stat *find_kid(const tgt_stat *g, const char *key)
{
	for (size_t i = 0; i < g->nkids; i++)
		if (g->kids[i]->key && !strcmp(g->kids[i]->key, key))
			return g->kids[i];
	return NULL;
}

/* A new child of g (key may be NULL: a row), or NULL out of memory. */
static tgt_stat *add_kid(tgt_stat *g, node_kind kind, const char *key, const char *label)
{
	if (!g)
		return NULL;
	tgt_stat *n = calloc(1, sizeof *n);
	if (n) {
		n->kind = kind;
		n->root = g->root;
		n->key = dup_or_null(key);
		n->label = dup_or_null(label);
	}
	if (n && g->nkids == g->cap) {
		const size_t cap = g->cap ? 2 * g->cap : 8;
		tgt_stat **k = realloc(g->kids, cap * sizeof *k);
		if (k) {
			g->kids = k;
			g->cap = cap;
		}
	}
	if (!n || (key && !n->key) || (label && !n->label) || g->nkids == g->cap) {
		node_free(n);
		g->root->oom = true;
		return NULL;
	}
	g->kids[g->nkids++] = n;
	return n;
}

/* The child key of g as a new node of kind: a key given twice replaces
 * what it held (and its label, when label is given), so the JSON never
 * has a key twice. */
static tgt_stat *slot(tgt_stat *g, node_kind kind, const char *key, const char *label)
{
	if (!g)
		return NULL;
	tgt_stat *n = find_kid(g, key);
	if (!n)
		return add_kid(g, kind, key, label);
	node_clear(n);
	n->kind = kind;
	n->flags = 0;
	if (label) {
		char *l = dup_or_null(label);
		if (!l) {
			g->root->oom = true;
			return NULL;
		}
		free(n->label);
		n->label = l;
	}
	return n;
}

tgt_stat *tgt_stat_group(tgt_stat *g, const char *key, const char *title)
{
	tgt_stat *n = g ? find_kid(g, key) : NULL;
	if (n && n->kind == N_GROUP)
		return n;
	return slot(g, N_GROUP, key, title);
}

void tgt_stat_detail(tgt_stat *g, const char *key)
{
	tgt_stat *n = g ? find_kid(g, key) : NULL;
	if (n && n->kind != N_GROUP && n->kind != N_LIST)
		n->flags |= TGT_STAT_DETAIL;
}

tgt_stat *tgt_stat_list(tgt_stat *g, const char *key, const char *title, unsigned flags)
{
	tgt_stat *n = slot(g, N_LIST, key, title);
	if (n)
		n->flags = flags;
	return n;
}

tgt_stat *tgt_stat_row(tgt_stat *list)
{
	return list && list->kind == N_LIST ? add_kid(list, N_GROUP, NULL, NULL) : NULL;
}

static tgt_stat *value(tgt_stat *g, node_kind kind, const char *key, const char *label)
{
	return slot(g, kind, key, label);
}

void tgt_stat_uint(tgt_stat *g, const char *key, uint64_t v, const char *label)
{
	tgt_stat *n = value(g, N_UINT, key, label);
	if (n)
		n->v.u = v;
}

void tgt_stat_int(tgt_stat *g, const char *key, int64_t v, const char *label)
{
	tgt_stat *n = value(g, N_INT, key, label);
	if (n)
		n->v.i = v;
}

void tgt_stat_real(tgt_stat *g, const char *key, double v, const char *label)
{
	tgt_stat *n = value(g, N_REAL, key, label);
	if (n)
		n->v.r = v;
}

void tgt_stat_str(tgt_stat *g, const char *key, const char *v, const char *label)
{
	tgt_stat *n = value(g, N_STR, key, label);
	if (!n)
		return;
	n->v.s = dup_or_null(v ? v : "");
	if (!n->v.s) {
		n->kind = N_BOOL; /* nothing to free */
		n->root->oom = true;
	}
}

void tgt_stat_uints(tgt_stat *g, const char *key, const uint64_t *v, size_t n,
		    const char *label)
{
	tgt_stat *x = value(g, N_UINTS, key, label);
	if (!x)
		return;
	x->v.a.n = n;
	x->v.a.at = malloc((n ? n : 1) * sizeof *v);
	if (!x->v.a.at) {
		x->kind = N_BOOL;
		x->root->oom = true;
		return;
	}
	if (n)
		memcpy(x->v.a.at, v, n * sizeof *v);
}

void tgt_stat_bool(tgt_stat *g, const char *key, bool v, const char *label)
{
	tgt_stat *n = value(g, N_BOOL, key, label);
	if (n)
		n->v.b = v;
}

void tgt_stat_failed(tgt_stat *g)
{
	if (g)
		g->root->oom = true;
}

const tgt_stat *tgt_stat_get(const tgt_stat *g, const char *path)
{
	while (g && *path) {
		const size_t n = strcspn(path, ".");
		const tgt_stat *k = NULL;
		char *end;
		const unsigned long row = strtoul(path, &end, 10);
		if (g->kind == N_LIST && n && end == path + n)
			k = row < g->nkids ? g->kids[row] : NULL;
		for (size_t i = 0; i < g->nkids && !k && g->kind != N_LIST; i++)
			if (g->kids[i]->key && strlen(g->kids[i]->key) == n &&
			    !strncmp(g->kids[i]->key, path, n))
				k = g->kids[i];
		g = k;
		path += n + (path[n] == '.');
	}
	return g;
}

double tgt_stat_number(const tgt_stat *v)
{
	if (!v)
		return NAN;
	switch (v->kind) {
	case N_UINT: return (double)v->v.u;
	case N_INT: return (double)v->v.i;
	case N_REAL: return v->v.r;
	case N_BOOL: return v->v.b;
	default: return NAN;
	}
}

/* ---- JSON ---- */

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

/* A real as the shortest text that reads back to it; JSON has no
 * infinities nor NaN: null. */
static void json_real(FILE *f, double r)
{
	if (!isfinite(r)) {
		fputs("null", f);
		return;
	}
	char buf[40];
	for (int p = 1; p <= 17; p++) {
		snprintf(buf, sizeof buf, "%.*g", p, r);
		if (strtod(buf, NULL) == r)
			break;
	}
	/* a real stays a real in JSON readers that tell them apart */
	fputs(buf, f);
	if (!strpbrk(buf, ".eE"))
		fputs(".0", f);
}

static void json_node(FILE *f, const tgt_stat *n, int depth)
{
	switch (n->kind) {
	case N_UINT: fprintf(f, "%" PRIu64, n->v.u); return;
	case N_INT: fprintf(f, "%" PRId64, n->v.i); return;
	case N_REAL: json_real(f, n->v.r); return;
	case N_STR: json_string(f, n->v.s); return;
	case N_BOOL: fputs(n->v.b ? "true" : "false", f); return;
	case N_UINTS:
		fputc('[', f);
		for (size_t i = 0; i < n->v.a.n; i++)
			fprintf(f, "%s%" PRIu64, i ? ", " : "", n->v.a.at[i]);
		fputc(']', f);
		return;
	case N_GROUP:
	case N_LIST:
		break;
	}
	const bool list = n->kind == N_LIST;
	if (!n->nkids) {
		fputs(list ? "[]" : "{}", f);
		return;
	}
	fputc(list ? '[' : '{', f);
	for (size_t i = 0; i < n->nkids; i++) {
		fprintf(f, "%s\n%*s", i ? "," : "", 2 * (depth + 1), "");
		if (!list) {
			json_string(f, n->kids[i]->key);
			fputs(": ", f);
		}
		json_node(f, n->kids[i], depth + 1);
	}
	fprintf(f, "\n%*s%c", 2 * depth, "", list ? ']' : '}');
}

int tgt_stat_json(const tgt_stat *root, FILE *f)
{
	if (!root || root->oom)
		return -1;
	json_node(f, root, 0);
	fputc('\n', f);
	return ferror(f) ? -1 : 0;
}

/* ---- text ---- */

/* The text form's width, its packed values' columns, and how many rows a
 * detail list shows in the short form. */
enum { TEXT_WIDTH = 100, TEXT_COLUMNS = 3, TEXT_SHORT_VALUE = 24, DETAIL_ROWS = 8,
       TABLE_COLUMNS = 16, CELL = 512 };

static const char *label_of(const tgt_stat *n)
{
	return n->label ? n->label : n->key;
}

static bool is_value(const tgt_stat *n)
{
	return n->kind != N_GROUP && n->kind != N_LIST;
}

static bool is_number(const tgt_stat *n)
{
	return n->kind == N_UINT || n->kind == N_INT || n->kind == N_REAL;
}

static void value_text(const tgt_stat *n, char *buf, size_t size)
{
	switch (n->kind) {
	case N_UINT: snprintf(buf, size, "%" PRIu64, n->v.u); return;
	case N_INT: snprintf(buf, size, "%" PRId64, n->v.i); return;
	case N_REAL:
		if (!isfinite(n->v.r))
			snprintf(buf, size, "%s", isnan(n->v.r) ? "-" : n->v.r > 0 ? "inf" : "-inf");
		else if (n->v.r != 0 && (fabs(n->v.r) >= 1e9 || fabs(n->v.r) < 1e-3))
			snprintf(buf, size, "%.4g", n->v.r);
		else /* 16, 512.5, 0.3333: no trailing zeros */
			snprintf(buf, size, "%.*g", fabs(n->v.r) < 1 ? 4 : 4 + (int)log10(fabs(n->v.r)), n->v.r);
		return;
	case N_STR: snprintf(buf, size, "%s", n->v.s); return;
	case N_BOOL: snprintf(buf, size, "%s", n->v.b ? "yes" : "no"); return;
	case N_UINTS: {
		size_t at = 0;
		buf[0] = 0;
		for (size_t i = 0; i < n->v.a.n && at < size; i++)
			at += (size_t)snprintf(buf + at, size - at, "%s%" PRIu64, i ? " " : "",
					       n->v.a.at[i]);
		return;
	}
	default: snprintf(buf, size, "-"); return;
	}
}

/* Do two values hold the same thing (not only the same text: a string
 * longer than a cell, a real that rounds alike)? */
static bool values_equal(const tgt_stat *a, const tgt_stat *b)
{
	if (a->kind != b->kind || !is_value(a))
		return false;
	switch (a->kind) {
	case N_UINT: return a->v.u == b->v.u;
	case N_INT: return a->v.i == b->v.i;
	case N_REAL: return a->v.r == b->v.r || (isnan(a->v.r) && isnan(b->v.r));
	case N_STR: return !strcmp(a->v.s, b->v.s);
	case N_BOOL: return a->v.b == b->v.b;
	case N_UINTS:
		return a->v.a.n == b->v.a.n &&
		       (!a->v.a.n || !memcmp(a->v.a.at, b->v.a.at, a->v.a.n * sizeof *a->v.a.at));
	default: return false;
	}
}

/* A group's values, packed TEXT_COLUMNS a line when they are short; a
 * long one (a list of numbers, a long string) has a line of its own. */
static void values_text(FILE *f, const tgt_stat *g, int indent, bool full)
{
	size_t lw = 0, vw = 0;
	char buf[CELL];
	for (size_t i = 0; i < g->nkids; i++) {
		const tgt_stat *n = g->kids[i];
		if (!is_value(n) || (!full && (n->flags & TGT_STAT_DETAIL)))
			continue;
		value_text(n, buf, sizeof buf);
		if (strlen(label_of(n)) > lw)
			lw = strlen(label_of(n));
		if (strlen(buf) <= TEXT_SHORT_VALUE && n->kind != N_UINTS && strlen(buf) > vw)
			vw = strlen(buf);
	}
	lw = lw > 40 ? 40 : lw;
	const size_t colw = lw + 2 + vw;
	size_t ncol = ((size_t)(TEXT_WIDTH - indent) + 4) / (colw + 4);
	ncol = ncol < 1 ? 1 : ncol > TEXT_COLUMNS ? TEXT_COLUMNS : ncol;
	size_t col = 0;
	for (size_t i = 0; i < g->nkids; i++) {
		const tgt_stat *n = g->kids[i];
		if (!is_value(n) || (!full && (n->flags & TGT_STAT_DETAIL)))
			continue;
		value_text(n, buf, sizeof buf);
		const bool lone = strlen(buf) > TEXT_SHORT_VALUE || n->kind == N_UINTS;
		if (col && (lone || col == ncol)) {
			fputc('\n', f);
			col = 0;
		}
		if (lone) {
			fprintf(f, "%*s%-*s  %s\n", indent, "", (int)lw, label_of(n), buf);
			continue;
		}
		if (col)
			fprintf(f, "    %-*s  %*s", (int)lw, label_of(n), (int)vw, buf);
		else
			fprintf(f, "%*s%-*s  %*s", indent, "", (int)lw, label_of(n), (int)vw, buf);
		col++;
	}
	if (col)
		fputc('\n', f);
}

/* A table: rows (groups of values) under the columns of the first, with
 * a name column before them when names (a group of groups: each member's
 * label).  nindex columns name a row; fold: a run of rows alike in the
 * others, the first column counting up by one, prints as one row with
 * each naming column's range ("0-63"); max: how many rows to print. */
typedef struct table {
	const tgt_stat *const *rows;
	size_t nrows, ncol, nindex, max;
	bool names, fold;
} table;

static bool rows_alike(const table *t, const tgt_stat *a, const tgt_stat *b)
{
	if (a->nkids != b->nkids || a->nkids < t->nindex || !is_number(a->kids[0]) ||
	    a->kids[0]->kind == N_REAL || b->kids[0]->kind != a->kids[0]->kind)
		return false;
	const bool next = a->kids[0]->kind == N_UINT ? b->kids[0]->v.u == a->kids[0]->v.u + 1
						     : b->kids[0]->v.i == a->kids[0]->v.i + 1;
	if (!next)
		return false;
	for (size_t i = 0; i < a->nkids; i++)
		if (strcmp(a->kids[i]->key, b->kids[i]->key) ||
		    (i >= t->nindex && !values_equal(a->kids[i], b->kids[i])))
			return false;
	return true;
}

/* The end of the run of alike rows that starts at row r. */
static size_t run_end(const table *t, size_t r)
{
	size_t end = r + 1;
	while (t->fold && end < t->nrows && rows_alike(t, t->rows[end - 1], t->rows[end]))
		end++;
	return end;
}

/* Column c's text for rows [r, end): a naming column's range over them. */
static void cell_text(const table *t, size_t r, size_t end, size_t c, char *buf, size_t size)
{
	const tgt_stat *row = t->rows[r];
	buf[0] = 0;
	if (c >= row->nkids)
		return;
	value_text(row->kids[c], buf, size);
	if (end == r + 1 || c >= t->nindex)
		return;
	const tgt_stat *lo = row->kids[c], *hi = row->kids[c];
	for (size_t i = r + 1; i < end; i++) {
		const tgt_stat *v = t->rows[i]->kids[c];
		if (tgt_stat_number(v) < tgt_stat_number(lo))
			lo = v;
		if (tgt_stat_number(v) > tgt_stat_number(hi))
			hi = v;
	}
	if (!is_number(lo))
		hi = t->rows[end - 1]->kids[c];
	if (values_equal(lo, hi))
		return;
	char a[CELL / 2], b[CELL / 2];
	value_text(lo, a, sizeof a);
	value_text(hi, b, sizeof b);
	snprintf(buf, size, "%s-%s", a, b);
}

static void table_text(FILE *f, const table *t, int indent)
{
	const tgt_stat *first = t->rows[0];
	int w[TABLE_COLUMNS], nw = 0;
	bool left[TABLE_COLUMNS];
	char buf[CELL];
	for (size_t c = 0; c < t->ncol; c++) {
		w[c] = (int)strlen(label_of(first->kids[c]));
		left[c] = first->kids[c]->kind == N_STR || c < t->nindex;
	}
	size_t shown = 0;
	for (size_t r = 0; r < t->nrows && shown < t->max; shown++) {
		const size_t end = run_end(t, r);
		if (t->names && (int)strlen(label_of(t->rows[r])) > nw)
			nw = (int)strlen(label_of(t->rows[r]));
		for (size_t c = 0; c < t->ncol; c++) {
			cell_text(t, r, end, c, buf, sizeof buf);
			if ((int)strlen(buf) > w[c])
				w[c] = (int)strlen(buf);
		}
		r = end;
	}
	/* the header, then the rows; the naming columns and strings are
	 * left-aligned, and the last column has no padding after it */
	fprintf(f, "%*s%-*s", indent + 2, "", nw, "");
	for (size_t c = 0; c < t->ncol; c++) {
		const bool pad = !left[c] || c + 1 < t->ncol;
		fprintf(f, "%s%*s", c || t->names ? "  " : "", pad ? (left[c] ? -w[c] : w[c]) : 0,
			label_of(first->kids[c]));
	}
	fputc('\n', f);
	size_t r = 0;
	for (shown = 0; r < t->nrows && shown < t->max; shown++) {
		const size_t end = run_end(t, r);
		fprintf(f, "%*s%-*s", indent + 2, "", nw, t->names ? label_of(t->rows[r]) : "");
		for (size_t c = 0; c < t->ncol; c++) {
			cell_text(t, r, end, c, buf, sizeof buf);
			const bool pad = !left[c] || c + 1 < t->ncol;
			fprintf(f, "%s%*s", c || t->names ? "  " : "",
				pad ? (left[c] ? -w[c] : w[c]) : 0, buf);
		}
		fputc('\n', f);
		r = end;
	}
	if (r < t->nrows)
		fprintf(f, "%*s... %zu more row%s (the full form shows every row)\n", indent + 2, "",
			t->nrows - r, t->nrows - r == 1 ? "" : "s");
}

static size_t columns_of(const tgt_stat *row)
{
	return row->nkids > TABLE_COLUMNS ? TABLE_COLUMNS : row->nkids;
}

static void list_text(FILE *f, const tgt_stat *l, int indent, bool full)
{
	fprintf(f, "%*s%s:%s\n", indent, "", label_of(l), l->nkids ? "" : " none");
	if (!l->nkids)
		return;
	const size_t nindex = l->flags >> 8 ? l->flags >> 8 : 1;
	const table t = {
		.rows = (const tgt_stat *const *)l->kids, .nrows = l->nkids,
		.ncol = columns_of(l->kids[0]), .nindex = nindex, .fold = !full,
		.max = !full && (l->flags & TGT_STAT_DETAIL) ? DETAIL_ROWS : SIZE_MAX,
	};
	table_text(f, &t, indent);
}

/* Is g a group of groups of values, all with the keys of the first (the
 * text form prints it as a table, a row a member)? */
static bool like_groups(const tgt_stat *g)
{
	if (!g->nkids)
		return false;
	const tgt_stat *first = g->kids[0];
	for (size_t i = 0; i < g->nkids; i++) {
		const tgt_stat *m = g->kids[i];
		if (m->kind != N_GROUP || m->nkids != first->nkids || !m->nkids)
			return false;
		for (size_t k = 0; k < m->nkids; k++)
			if (!is_value(m->kids[k]) || strcmp(m->kids[k]->key, first->kids[k]->key))
				return false;
	}
	return true;
}

static void group_text(FILE *f, const tgt_stat *g, int indent, bool full)
{
	values_text(f, g, indent, full);
	for (size_t i = 0; i < g->nkids; i++) {
		const tgt_stat *n = g->kids[i];
		if (n->kind == N_GROUP && like_groups(n)) {
			fprintf(f, "%*s%s:\n", indent, "", label_of(n));
			const table t = {
				.rows = (const tgt_stat *const *)n->kids, .nrows = n->nkids,
				.ncol = columns_of(n->kids[0]), .max = SIZE_MAX,
				.names = true,
			};
			table_text(f, &t, indent);
		} else if (n->kind == N_GROUP) {
			fprintf(f, "%*s%s:\n", indent, "", label_of(n));
			group_text(f, n, indent + 2, full);
		} else if (n->kind == N_LIST) {
			list_text(f, n, indent, full);
		}
	}
}

int tgt_stat_text(const tgt_stat *root, FILE *f, bool full)
{
	if (!root || root->root->oom)
		return -1;
	if (root->kind == N_LIST)
		list_text(f, root, 0, full); /* one list alone: --stats=commands */
	else
		group_text(f, root, 0, full);
	return ferror(f) ? -1 : 0;
}
