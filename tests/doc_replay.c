/* SPDX-License-Identifier: MIT */
/* doc_replay.c: see doc_replay.h. */
#include "doc_replay.h"

#include "handout.h"
#include "proc.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- a growing string ---- */

typedef struct sbuf {
	char *s;
	size_t n, cap;
	bool oom;
} sbuf;

static void sb_addn(sbuf *b, const char *s, size_t n)
{
	if (b->oom)
		return;
	if (b->n + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		while (b->n + n + 1 > cap)
			cap *= 2;
		char *g = realloc(b->s, cap);
		if (!g) {
			b->oom = true;
			return;
		}
		b->s = g;
		b->cap = cap;
	}
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = '\0';
}

static void sb_add(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_add(sbuf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	const int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	char *t = malloc((size_t)n + 1);
	if (!t) {
		b->oom = true;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(t, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb_addn(b, t, (size_t)n);
	free(t);
}

/* The string, malloc'd (NULL when out of memory). */
static char *sb_take(sbuf *b)
{
	if (b->oom || !b->s) {
		free(b->s);
		return b->oom ? NULL : strdup("");
	}
	return b->s;
}

/* ---- lines and their diff ---- */

typedef struct span {
	const char *s;
	size_t n;
} span;

/* The lines of text (without their newlines); a last line without a
 * newline counts as a line. */
static span *split_lines(const char *text, size_t *count)
{
	size_t n = 0;
	for (const char *c = text; *c; c++)
		n += *c == '\n';
	const size_t len = strlen(text);
	n += len && text[len - 1] != '\n';
	span *v = calloc(n ? n : 1, sizeof *v);
	if (!v)
		return NULL;
	size_t i = 0;
	for (const char *c = text; *c && i < n; i++) {
		const char *nl = strchr(c, '\n');
		v[i].s = c;
		v[i].n = nl ? (size_t)(nl - c) : strlen(c);
		c += v[i].n + (nl ? 1 : 0);
	}
	*count = n;
	return v;
}

static bool same_line(span a, span b)
{
	return a.n == b.n && memcmp(a.s, b.s, a.n) == 0;
}

/* One line of the diff: ' ' both, '-' the transcript's only, '+' the
 * output's only; w and g its indexes (of the side(s) it is on). */
typedef struct dline {
	char op;
	size_t w, g;
} dline;

/* A shortest edit script of want into got (LCS), or, when the table
 * would be too large, the lines paired one for one. */
static dline *diff_lines(const span *w, size_t nw, const span *g, size_t ng, size_t *nd)
{
	dline *d = calloc(nw + ng + 1, sizeof *d);
	if (!d)
		return NULL;
	size_t k = 0;
	const size_t cols = ng + 1;
	unsigned *t = (nw + 1) * cols <= 4000000 ? calloc((nw + 1) * cols, sizeof *t) : NULL;
	if (!t) {
		for (size_t i = 0; i < nw || i < ng; i++) {
			if (i < nw && i < ng && same_line(w[i], g[i])) {
				d[k++] = (dline){' ', i, i};
				continue;
			}
			if (i < nw)
				d[k++] = (dline){'-', i, i};
			if (i < ng)
				d[k++] = (dline){'+', i, i};
		}
		*nd = k;
		return d;
	}
	/* t[i][j]: the longest common subsequence of w[i..] and g[j..]. */
	for (size_t i = nw; i-- > 0;)
		for (size_t j = ng; j-- > 0;)
			t[i * cols + j] = same_line(w[i], g[j]) ? t[(i + 1) * cols + j + 1] + 1
				: t[(i + 1) * cols + j] > t[i * cols + j + 1] ? t[(i + 1) * cols + j]
				: t[i * cols + j + 1];
	size_t i = 0, j = 0;
	while (i < nw || j < ng) {
		if (i < nw && j < ng && same_line(w[i], g[j])) {
			d[k++] = (dline){' ', i++, j++};
		} else if (i < nw && (j == ng || t[(i + 1) * cols + j] >= t[i * cols + j + 1])) {
			d[k++] = (dline){'-', i++, j};
		} else {
			d[k++] = (dline){'+', i, j++};
		}
	}
	free(t);
	*nd = k;
	return d;
}

/* The first column (1-based) where a and b differ. */
static size_t first_column(span a, span b)
{
	size_t c = 0;
	while (c < a.n && c < b.n && a.s[c] == b.s[c])
		c++;
	return c + 1;
}

char *doc_replay_diff(const char *doc, int line, const char *cmd, const char *want,
		      const char *got, int status)
{
	const size_t glen = strlen(got);
	const bool got_nl = glen == 0 || got[glen - 1] == '\n';
	if (got_nl && strcmp(want, got) == 0)
		return NULL;
	size_t nw = 0, ng = 0, nd = 0;
	span *w = split_lines(want, &nw), *g = split_lines(got, &ng);
	dline *d = w && g ? diff_lines(w, nw, g, ng, &nd) : NULL;
	if (!d) {
		free(w);
		free(g);
		return NULL;
	}
	sbuf b = {0};
	sb_add(&b, "%s:%d: the transcript of `$ %s` is not what it prints now", doc, line, cmd);
	if (status >= 0)
		sb_add(&b, " (exit status %d)", status);
	else
		sb_add(&b, " (it did not exit normally)");
	/* Where: the first line of the diff that is not on both sides. */
	size_t first = 0;
	while (first < nd && d[first].op == ' ')
		first++;
	if (first < nd) {
		const dline *f = &d[first];
		sb_add(&b, ";\nthe first difference is at %s:%zu, line %zu of the output", doc,
		       (size_t)line + 1 + f->w, f->g + 1);
		if (f->op == '-' && first + 1 < nd && d[first + 1].op == '+')
			sb_add(&b, ", from column %zu", first_column(w[f->w], g[d[first + 1].g]));
		else if (f->op == '-')
			sb_add(&b, ": the command no longer prints this line");
		else
			sb_add(&b, ": the transcript does not show this line");
	}
	sb_add(&b, ":\n");
	/* The diff, the changed lines with two lines of context each. */
	enum { CONTEXT = 2 };
	size_t shown_to = 0;
	for (size_t i = 0; i < nd; i++) {
		bool near = false;
		for (size_t k = i >= CONTEXT ? i - CONTEXT : 0; k < nd && k <= i + CONTEXT; k++)
			near |= d[k].op != ' ';
		if (!near)
			continue;
		if (i > shown_to)
			sb_add(&b, "  ...\n");
		const span s = d[i].op == '+' ? g[d[i].g] : w[d[i].w];
		sb_add(&b, "%s", d[i].op == '-' ? "- doc: " : d[i].op == '+' ? "+ got: " : "       ");
		sb_addn(&b, s.s, s.n);
		sb_addn(&b, "\n", 1);
		shown_to = i + 1;
	}
	if (!got_nl)
		sb_add(&b, "(the output does not end with a newline, so no transcript can show it)\n");
	sb_add(&b, "the whole output now (%zu line%s; what goes below the command in %s):\n", ng,
	       ng == 1 ? "" : "s", doc);
	sb_addn(&b, got, glen);
	if (!got_nl)
		sb_addn(&b, "\n", 1);
	free(w);
	free(g);
	free(d);
	return sb_take(&b);
}

/* ---- one block ---- */

typedef struct step {
	const char *cmd;  /* into the block's copy */
	size_t cmd_len;
	int line;
	sbuf want;
} step;

/* The "samples/NAME" a command names (NAME of letters, digits, '.', '_',
 * '-'), from position *at on: its NAME, copied into name; false when
 * there is none. */
static bool next_sample(const char *cmd, size_t *at, char *name, size_t size)
{
	static const char before[] = " \t'\"=(<>|;:,";
	for (const char *p = strstr(cmd + *at, "samples/"); p; p = strstr(p + 1, "samples/")) {
		if (p > cmd && !strchr(before, p[-1]))
			continue;
		const char *n = p + 8;
		size_t len = 0;
		while (n[len] && (strchr("._-", n[len]) || (n[len] >= 'a' && n[len] <= 'z') ||
				  (n[len] >= 'A' && n[len] <= 'Z') || (n[len] >= '0' && n[len] <= '9')))
			len++;
		*at = (size_t)(n - cmd) + len;
		if (len == 0 || len >= size || (len <= 2 && n[0] == '.'))
			continue; /* no name, or ".", ".." */
		memcpy(name, n, len);
		name[len] = '\0';
		return true;
	}
	return false;
}

/* Copy SRCDIR/samples/NAME for each one the block's commands name. */
static bool copy_samples(doc_replay *r, const char *dir, const step *s, size_t n)
{
	char path[4096], name[256];
	snprintf(path, sizeof path, "%s/samples", dir);
	if (mkdir(path, 0700) != 0) {
		r->fail("cannot make the temporary folder's samples/", r->arg);
		r->failed++;
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		char *cmd = strndup(s[i].cmd, s[i].cmd_len);
		if (!cmd)
			return false;
		for (size_t at = 0; next_sample(cmd, &at, name, sizeof name);) {
			struct stat st;
			snprintf(path, sizeof path, "%s/samples/%s", dir, name);
			if (stat(path, &st) == 0)
				continue; /* copied for an earlier mention */
			char cp[8192], *out = NULL;
			/* Writable, as a source tree made read-only (distcheck)
			 * would not leave it: so that it can be removed. */
			snprintf(cp, sizeof cp, "cp -R '%s/samples/%s' '%s/samples/' && chmod -R u+w "
				 "'%s/samples/%s'", r->srcdir, name, dir, dir, name);
			const int rc = proc_shell(cp, &out);
			if (rc != 0) {
				char msg[8192 + 256];
				snprintf(msg, sizeof msg, "%s:%d: cannot copy samples/%s, which `$ %s` "
					 "names: %s", r->doc, s[i].line, name, cmd, out ? out : "");
				r->fail(msg, r->arg);
				r->failed++;
				free(out);
				free(cmd);
				return false;
			}
			free(out);
		}
		free(cmd);
	}
	return true;
}

static void replay_block(const char *block, int line, void *arg)
{
	doc_replay *r = arg;
	step *s = NULL;
	size_t n = 0;
	char *body = strdup(block);
	if (!body) {
		r->fail("out of memory", r->arg);
		r->failed++;
		return;
	}
	/* The steps: each "$ " line and the lines up to the next. */
	int ln = line;
	bool ok = true;
	for (char *c = body; *c && ok; ln++) {
		char *nl = strchr(c, '\n');
		const size_t len = nl ? (size_t)(nl - c) : strlen(c);
		if (strncmp(c, "$ ", 2) == 0) {
			step *g = realloc(s, (n + 1) * sizeof *s);
			if (!g) {
				ok = false;
				break;
			}
			s = g;
			s[n++] = (step){c + 2, len - 2, ln, {0}};
		} else if (n == 0) {
			char msg[512];
			snprintf(msg, sizeof msg, "%s:%d: a transcript block starts with a line that is "
				 "not a command (\"$ \"); a transcript is commands, each followed by "
				 "what it prints", r->doc, ln);
			r->fail(msg, r->arg);
			r->failed++;
			ok = false;
		} else {
			sb_addn(&s[n - 1].want, c, len);
			sb_addn(&s[n - 1].want, "\n", 1);
		}
		c += len + (nl ? 1 : 0);
	}
	char dir[256];
	if (ok && !proc_tmpdir(dir, sizeof dir, r->prefix)) {
		r->fail("cannot make a temporary folder", r->arg);
		r->failed++;
		ok = false;
	} else if (ok) {
		if (copy_samples(r, dir, s, n)) {
			for (size_t i = 0; i < n; i++) {
				char *cmd = strndup(s[i].cmd, s[i].cmd_len), *out = NULL;
				const int st = cmd ? proc_shell_in(dir, r->bindir, cmd, &out) : -1;
				char *msg = cmd ? doc_replay_diff(r->doc, s[i].line, cmd,
								  s[i].want.s ? s[i].want.s : "",
								  out ? out : "", st) : NULL;
				r->commands++;
				if (msg || !cmd || s[i].want.oom) {
					r->fail(msg ? msg : "out of memory", r->arg);
					r->failed++;
				}
				free(msg);
				free(out);
				free(cmd);
			}
		}
		proc_rmdir(dir);
	}
	for (size_t i = 0; i < n; i++)
		free(s[i].want.s);
	free(s);
	free(body);
}

int doc_replay_run(doc_replay *r)
{
	r->commands = r->failed = 0;
	return handout_each_block(r->doc, "$ ", replay_block, r);
}
