/* SPDX-License-Identifier: MIT */
/*
 * stats.c: the statistics tree, and its JSON and text forms (stats.h).
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

typedef enum { N_GROUP, N_LIST, N_UINT, N_INT, N_REAL, N_STR, N_BOOL } node_kind;

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

static void node_free(tgt_stat *n)
{
	if (!n)
		return;
	for (size_t i = 0; i < n->nkids; i++)
		node_free(n->kids[i]);
	free(n->kids);
	free(n->key);
	free(n->label);
	if (n->kind == N_STR)
		free(n->v.s);
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

tgt_stat *tgt_stat_group(tgt_stat *g, const char *key, const char *title)
{
	if (!g)
		return NULL;
	tgt_stat *n = find_kid(g, key);
	if (n && n->kind == N_GROUP)
		return n;
	return add_kid(g, N_GROUP, key, title);
}

tgt_stat *tgt_stat_list(tgt_stat *g, const char *key, const char *title, unsigned flags)
{
	tgt_stat *n = add_kid(g, N_LIST, key, title);
	if (n)
		n->flags = flags;
	return n;
}

tgt_stat *tgt_stat_row(tgt_stat *list)
{
	return list && list->kind == N_LIST ? add_kid(list, N_GROUP, NULL, NULL) : NULL;
}

/* The value key of g, replacing one of that key. */
static tgt_stat *value(tgt_stat *g, node_kind kind, const char *key, const char *label)
{
	if (!g)
		return NULL;
	tgt_stat *n = find_kid(g, key);
	if (n && n->kind != N_GROUP && n->kind != N_LIST) {
		if (n->kind == N_STR)
			free(n->v.s);
		n->kind = kind;
		return n;
	}
	return add_kid(g, kind, key, label);
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

void tgt_stat_bool(tgt_stat *g, const char *key, bool v, const char *label)
{
	tgt_stat *n = value(g, N_BOOL, key, label);
	if (n)
		n->v.b = v;
}

const tgt_stat *tgt_stat_get(const tgt_stat *g, const char *path)
{
	while (g && *path) {
		const size_t n = strcspn(path, ".");
		const tgt_stat *k = NULL;
		for (size_t i = 0; i < g->nkids && !k; i++)
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

static const char *label_of(const tgt_stat *n)
{
	return n->label ? n->label : n->key;
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
		else
			snprintf(buf, size, "%.4f", n->v.r);
		return;
	case N_STR: snprintf(buf, size, "%s", n->v.s); return;
	case N_BOOL: snprintf(buf, size, "%s", n->v.b ? "yes" : "no"); return;
	default: snprintf(buf, size, "-"); return;
	}
}

static bool is_value(const tgt_stat *n)
{
	return n->kind != N_GROUP && n->kind != N_LIST;
}

/* The widest label among g's values, for one column of them. */
static int label_width(const tgt_stat *g)
{
	size_t w = 0;
	for (size_t i = 0; i < g->nkids; i++)
		if (is_value(g->kids[i]) && strlen(label_of(g->kids[i])) > w)
			w = strlen(label_of(g->kids[i]));
	return (int)(w > 40 ? 40 : w);
}

/* Are rows a and b the same but for their first column? */
static bool rows_alike(const tgt_stat *a, const tgt_stat *b)
{
	if (a->nkids != b->nkids)
		return false;
	for (size_t i = 1; i < a->nkids; i++) {
		char x[64], y[64];
		value_text(a->kids[i], x, sizeof x);
		value_text(b->kids[i], y, sizeof y);
		if (strcmp(x, y) != 0 || strcmp(a->kids[i]->key, b->kids[i]->key) != 0)
			return false;
	}
	return true;
}

static void list_text(FILE *f, const tgt_stat *l, int indent, bool full)
{
	fprintf(f, "%*s%s:\n", indent, "", label_of(l));
	if (!l->nkids)
		return;
	const tgt_stat *first = l->kids[0];
	size_t ncol = first->nkids;
	if (ncol > 16)
		ncol = 16;
	/* column widths: the label or the widest value (the first column:
	 * room for a folded range, "FIRST-LAST") */
	int w[16];
	for (size_t c = 0; c < ncol; c++) {
		int widest = 0;
		for (size_t r = 0; r < l->nkids; r++) {
			char buf[64];
			if (c < l->kids[r]->nkids) {
				value_text(l->kids[r]->kids[c], buf, sizeof buf);
				if ((int)strlen(buf) > widest)
					widest = (int)strlen(buf);
			}
		}
		if (c == 0 && !full && l->nkids > 1)
			widest = 2 * widest + 1;
		w[c] = (int)strlen(label_of(first->kids[c]));
		if (widest > w[c])
			w[c] = widest;
	}
	fprintf(f, "%*s", indent + 2, "");
	for (size_t c = 0; c < ncol; c++)
		fprintf(f, c ? "  %*s" : "%-*s", w[c], label_of(first->kids[c]));
	fputc('\n', f);
	for (size_t r = 0; r < l->nkids;) {
		size_t end = r + 1;
		while (!full && end < l->nkids && rows_alike(l->kids[r], l->kids[end]))
			end++;
		const tgt_stat *row = l->kids[r];
		char buf[64], last[64];
		fprintf(f, "%*s", indent + 2, "");
		for (size_t c = 0; c < ncol && c < row->nkids; c++) {
			value_text(row->kids[c], buf, sizeof buf);
			if (c == 0 && end > r + 1) {
				value_text(l->kids[end - 1]->kids[0], last, sizeof last);
				char range[140];
				snprintf(range, sizeof range, "%s-%s", buf, last);
				fprintf(f, "%-*s", w[c], range);
			} else {
				fprintf(f, c ? "  %*s" : "%-*s", w[c], buf);
			}
		}
		fputc('\n', f);
		r = end;
	}
}

static void group_text(FILE *f, const tgt_stat *g, int indent, bool full)
{
	const int w = label_width(g);
	for (size_t i = 0; i < g->nkids; i++) {
		const tgt_stat *n = g->kids[i];
		if (is_value(n)) {
			char buf[256];
			value_text(n, buf, sizeof buf);
			fprintf(f, "%*s%-*s  %s\n", indent, "", w, label_of(n), buf);
		}
	}
	for (size_t i = 0; i < g->nkids; i++) {
		const tgt_stat *n = g->kids[i];
		if (n->kind == N_GROUP) {
			fprintf(f, "%*s%s:\n", indent, "", label_of(n));
			group_text(f, n, indent + 2, full);
		} else if (n->kind == N_LIST && (full || !(n->flags & TGT_STAT_DETAIL))) {
			list_text(f, n, indent, full);
		}
	}
}

int tgt_stat_text(const tgt_stat *root, FILE *f, bool full)
{
	if (!root || root->oom)
		return -1;
	group_text(f, root, 0, full);
	return ferror(f) ? -1 : 0;
}
