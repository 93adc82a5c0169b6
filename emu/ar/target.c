/* SPDX-License-Identifier: MIT */
/*
 * target.c: Active-Routing as a target of infsim's fronts (tgt_ar;
 * emu/target/target.h, doc/ACTIVE-ROUTING.md "As a target").
 *
 * One ar_session (engine.c) runs the program event by event, on the
 * program's own memory, from open on: `infsim run` steps it to the end,
 * infsdb steps it over events or over Updates.  With --check the
 * reference (ref.c) runs once when the run starts, on the memory as -l
 * left it, and the machine's stores are noted (the last writer of each
 * element and how many stores it took) so that a difference names the
 * event and the statement that wrote the wrong value.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ar_private.h"
#include "outfile.h"
#include "target.h"

/* The last store to one element (--check). */
typedef struct writer {
	uint64_t addr;            /* + 1; 0: an empty slot */
	uint64_t event, cycle;    /* the event (numbered from 0) and its cycle */
	uint64_t stores;          /* the machine's stores to it so far */
	int stmt;                 /* the statement whose value it was */
	bool commit, by_user;     /* a flow's commit; a front's write (the last one) */
} writer;

typedef struct writers {
	writer *w;
	size_t cap, used;
	bool oom;
} writers;

struct tgt {
	const char *path;         /* the program's, as the front named it */
	ar_config c;
	ar_program *p;
	ar_stats st;
	ar_session *ss;
	diag sd;                  /* the session's errors */
	char *text;               /* the source, for the statements' text */
	size_t len;
	char *heatmap;
	bool check, started, ended, failed, finished;
	ar_seq *seq;              /* with check, from the start of the run */
	diag seqd;
	bool seq_failed;
	writers wr;
	char *report;
	int agrees;               /* the last comparison: 1 agrees, 0 differs, -1 none */
};

struct tgt_snap {
	ar_session *ss;
	ar_stats st;
	diag sd;
	unsigned char *mem;
	size_t mem_bytes;
	writers wr;
	bool started, ended, failed, finished;
};

/* ---- settings ---- */

static const char *const exts[] = { ".ar", NULL };

#define SETTING_KEYS "root, net, interleave, flow-entries, buffers, link-bytes, max-events or " \
	"max-memory"

static const tgt_option options[] = {
	{ "root", TGT_OPT_ARG | TGT_OPT_SETTING, "naive|tid|addr", "the ARTree roots (default addr; §IV-E)" },
	{ "net", TGT_OPT_ARG | TGT_OPT_SETTING, "dragonfly|mesh", "the cube wiring (default dragonfly)" },
	{ "interleave", TGT_OPT_ARG | TGT_OPT_SETTING, "BYTES",
	  "bytes per cube in the address map (a power of two, default 4096)" },
	{ "flow-entries", TGT_OPT_ARG | TGT_OPT_SETTING, "N", "flow-table entries per cube (default 16)" },
	{ "buffers", TGT_OPT_ARG | TGT_OPT_SETTING, "N", "operand buffers per cube (default 128)" },
	{ "link-bytes", TGT_OPT_ARG | TGT_OPT_SETTING, "N",
	  "bytes a link carries per cycle each way (default 20; 0: no limit)" },
	{ "max-events", TGT_OPT_ARG | TGT_OPT_SETTING, "N", "stop a run after N events (default 1e9)" },
	{ "max-memory", TGT_OPT_ARG | TGT_OPT_SETTING, "BYTES", "bound on all arrays (default 1 GiB)" },
	{ "heatmap", TGT_OPT_ARG, "FILE.svg", "draw the Fig 11 heat map after the run" },
	{ NULL, 0, NULL, NULL },
};

/* Where a setting came from, for its message: "-m KEY=VALUE" (or
 * "--KEY=VALUE"), or the config file's line. */
static void bad_setting(diag *d, const tgt_setting *s, bool opt, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void bad_setting(diag *d, const tgt_setting *s, bool opt, const char *fmt, ...)
{
	char why[256], src[160];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	if (s->file) {
		diag_at(d, s->file, (int)s->line, 0, "%s=%s: %s", s->key, s->value, why);
		return;
	}
	snprintf(src, sizeof src, opt ? "--%s=%s" : "-m %s=%s", s->key, s->value);
	diag_file(d, src, "%s", why);
}

/* A decimal number in [lo, hi] (cli.c's rule). */
static bool number_in(const char *v, uint64_t lo, uint64_t hi, uint64_t *out)
{
	char *end;
	if (v[0] < '0' || v[0] > '9')
		return false;
	errno = 0;
	unsigned long long x = strtoull(v, &end, 10);
	if (*end || errno || x < lo || x > hi)
		return false;
	*out = x;
	return true;
}

static int set_number(ar_config *c, const tgt_setting *s, bool opt, diag *d)
{
	static const struct { const char *key; uint64_t lo, hi; } keys[] = {
		{ "interleave", 64, UINT64_MAX }, { "flow-entries", 1, 65536 },
		{ "buffers", 1, 65536 }, { "max-events", 1, UINT64_MAX },
		{ "max-memory", 64, UINT64_MAX }, { "link-bytes", 0, 4096 },
	};
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		if (strcmp(s->key, keys[i].key))
			continue;
		uint64_t v;
		if (!number_in(s->value, keys[i].lo, keys[i].hi, &v)) {
			if (keys[i].hi == UINT64_MAX)
				bad_setting(d, s, opt, "expected a number of at least %" PRIu64, keys[i].lo);
			else
				bad_setting(d, s, opt, "expected a number from %" PRIu64 " to %" PRIu64,
					    keys[i].lo, keys[i].hi);
			return -1;
		}
		switch (i) {
		case 0:
			if (v & (v - 1)) {
				bad_setting(d, s, opt, "expected a power of two");
				return -1;
			}
			c->interleave = v;
			break;
		case 1: c->flow_entries = (unsigned)v; break;
		case 2: c->buffers = (unsigned)v; break;
		case 3: c->max_events = v; break;
		case 4: c->max_memory = v; break;
		default: c->link_bytes = (unsigned)v; break;
		}
		return 0;
	}
	bad_setting(d, s, opt, "unknown setting (expected " SETTING_KEYS ")");
	return -1;
}

static int set_one(ar_config *c, const tgt_setting *s, bool opt, diag *d)
{
	if (!s->value) {
		bad_setting(d, &(tgt_setting){ s->key, "", s->file, s->line, 0 }, opt, "expected KEY=VALUE");
		return -1;
	}
	if (!strcmp(s->key, "root")) {
		if (!strcmp(s->value, "naive")) c->root = AR_ROOT_NAIVE;
		else if (!strcmp(s->value, "tid")) c->root = AR_ROOT_TID;
		else if (!strcmp(s->value, "addr")) c->root = AR_ROOT_ADDR;
		else return bad_setting(d, s, opt, "expected naive, tid or addr"), -1;
		return 0;
	}
	if (!strcmp(s->key, "net")) {
		if (!strcmp(s->value, "dragonfly")) c->net = AR_NET_DRAGONFLY;
		else if (!strcmp(s->value, "mesh")) c->net = AR_NET_MESH;
		else return bad_setting(d, s, opt, "expected dragonfly or mesh"), -1;
		return 0;
	}
	return set_number(c, s, opt, d);
}

/* -c's and -m's settings, then the options (a setting given as
 * --KEY=VALUE, and --heatmap). */
static int take_options(tgt *t, const tgt_load *a, diag *d)
{
	ar_config_default(&t->c);
	for (size_t i = 0; i < a->nsettings; i++)
		if (set_one(&t->c, &a->settings[i], false, d))
			return -1;
	for (size_t i = 0; i < a->nopts; i++) {
		const tgt_optval *o = &a->opts[i];
		if (o->opt->flags & TGT_OPT_SETTING) {
			if (set_one(&t->c, &(tgt_setting){ o->opt->name, o->value, NULL, 0, 0 }, true, d))
				return -1;
		} else if (!strcmp(o->opt->name, "heatmap")) {
			if (!o->value || !*o->value) {
				diag_file(d, "--heatmap", "expected a file name (FILE.svg)");
				return -1;
			}
			free(t->heatmap);
			if (!(t->heatmap = strdup(o->value))) {
				diag_file(d, a->path, "out of memory");
				return -2;
			}
		}
	}
	return 0;
}

/* ---- --check's record of the machine's stores ---- */

static size_t writer_slot(const writers *w, uint64_t addr)
{
	size_t i = (size_t)((addr * 0x9e3779b97f4a7c15ull) >> 21) & (w->cap - 1);
	while (w->w[i].addr && w->w[i].addr != addr + 1)
		i = (i + 1) & (w->cap - 1);
	return i;
}

static writer *writer_of(writers *w, uint64_t addr, bool make)
{
	if (w->cap && w->w[writer_slot(w, addr)].addr)
		return &w->w[writer_slot(w, addr)];
	if (!make || w->oom)
		return NULL;
	if (2 * (w->used + 1) > w->cap) {
		size_t cap = w->cap ? 2 * w->cap : 1024;
		writer *old = w->w, *n = calloc(cap, sizeof *n);
		if (!n) {
			w->oom = true;
			return NULL;
		}
		size_t oldcap = w->cap;
		w->w = n;
		w->cap = cap;
		for (size_t i = 0; i < oldcap; i++)
			if (old[i].addr)
				w->w[writer_slot(w, old[i].addr - 1)] = old[i];
		free(old);
	}
	writer *r = &w->w[writer_slot(w, addr)];
	*r = (writer){ .addr = addr + 1, .stmt = -1 };
	w->used++;
	return r;
}

static int writers_copy(writers *out, const writers *w)
{
	*out = *w;
	out->w = NULL;
	if (!w->cap)
		return 0;
	if (!(out->w = malloc(w->cap * sizeof *w->w)))
		return -1;
	memcpy(out->w, w->w, w->cap * sizeof *w->w);
	return 0;
}

/* ar_program.on_store: the event being handled made this store. */
static void note_store(void *ctx, uint64_t addr, const ar_stmt *by, bool commit)
{
	tgt *t = ctx;
	writer *r = writer_of(&t->wr, addr, true);
	if (!r)
		return;
	r->event = t->st.events - 1;
	r->cycle = ar_session_now(t->ss);
	r->stores++;
	r->stmt = by ? (int)(by - t->p->stmts) : -1;
	r->commit = commit;
	r->by_user = false;
}

/* A front changed an element once the run had started (set var, a
 * write between steps): the machine did not compute that value. */
static void note_user(tgt *t, size_t a, uint64_t k)
{
	if (!t->check || !t->started)
		return;
	const ar_array *arr = &t->p->arrays[a];
	writer *r = writer_of(&t->wr, arr->base + k * arr->esize, true);
	if (!r)
		return;
	r->event = t->st.events;
	r->cycle = ar_session_now(t->ss);
	r->by_user = true;
}

/* ---- open and close ---- */

static void close_target(tgt *t)
{
	if (!t)
		return;
	ar_session_free(t->ss);
	ar_program_free(t->p);
	ar_seq_free(t->seq);
	free(t->wr.w);
	free(t->text);
	free(t->heatmap);
	free(t->report);
	free(t);
}

/* -D's as the parser's "NAME=VALUE"; NULL out of memory. */
static char **def_strings(const tgt_load *a)
{
	char **v = calloc(a->ndefs + 1, sizeof *v);
	for (size_t i = 0; v && i < a->ndefs; i++) {
		size_t n = strlen(a->defs[i].name) + 24;
		if (!(v[i] = malloc(n))) {
			for (size_t k = 0; k < i; k++)
				free(v[k]);
			free(v);
			return NULL;
		}
		snprintf(v[i], n, "%s=%" PRId64, a->defs[i].name, a->defs[i].value);
	}
	return v;
}

/* Parse with -D's.  A program that fails only with them has a wrong -D
 * (an unknown param, a value the program cannot take): a usage error. */
static tgt_status parse(tgt *t, const tgt_load *a, diag *d)
{
	char **defs = def_strings(a);
	if (!defs) {
		diag_file(d, a->path, "out of memory");
		return TGT_FAILED;
	}
	t->p = ar_parse(a->path, a->text, a->len, defs, a->ndefs, &t->c, d);
	for (size_t i = 0; i < a->ndefs; i++)
		free(defs[i]);
	free(defs);
	if (t->p)
		return TGT_OK;
	if (!a->ndefs)
		return TGT_FAILED;
	diag scratch;
	diag_clear(&scratch);
	ar_program *plain = ar_parse(a->path, a->text, a->len, NULL, 0, &t->c, &scratch);
	ar_program_free(plain);
	return plain ? TGT_USAGE : TGT_FAILED;
}

static tgt *open_target(const tgt_load *a, tgt_status *st, diag *d)
{
	tgt *t = calloc(1, sizeof *t);
	*st = TGT_FAILED;
	if (!t) {
		diag_file(d, a->path, "out of memory");
		return NULL;
	}
	t->path = a->path;
	t->agrees = -1;
	diag_clear(&t->sd);
	diag_clear(&t->seqd);
	const int taken = take_options(t, a, d);
	if (taken) {
		*st = taken == -2 ? TGT_FAILED : TGT_USAGE; /* -2: out of memory */
		close_target(t);
		return NULL;
	}
	if ((*st = parse(t, a, d)) != TGT_OK || (t->heatmap && outfile_check(t->heatmap, d))) {
		*st = *st == TGT_OK ? TGT_FAILED : *st;
		close_target(t);
		return NULL;
	}
	t->check = a->check;
	t->len = a->len;
	t->text = malloc(a->len + 1);
	t->ss = t->text ? ar_session_new(t->p, &t->c, &t->st, &t->sd) : NULL;
	if (!t->ss) {
		diag_file(d, a->path, "out of memory");
		close_target(t);
		*st = TGT_FAILED;
		return NULL;
	}
	memcpy(t->text, a->text, a->len);
	t->text[a->len] = 0;
	if (t->check) {
		t->p->on_store = note_store;
		t->p->store_ctx = t;
	}
	*st = TGT_OK;
	return t;
}

/* ---- arrays ---- */

static size_t narrays(const tgt *t)
{
	return ar_array_count(t->p);
}

static tgt_type type_of(ar_type ty)
{
	if (ty == AR_F32)
		return (tgt_type){ .kind = TGT_F32, .width = 32 };
	return (tgt_type){ .kind = TGT_INT, .width = ty == AR_I64 ? 64 : 32, .is_signed = true };
}

static void array(const tgt *t, size_t i, tgt_array *out)
{
	memset(out, 0, sizeof *out);
	snprintf(out->name, sizeof out->name, "%s", ar_array_name(t->p, i));
	out->type = type_of(ar_array_type(t->p, i));
	out->ndim = 1;   /* the format gives an array its length only */
	out->shape[0] = out->length = ar_array_len(t->p, i);
}

static void array_get(tgt *t, size_t i, uint64_t first, uint64_t n, uint64_t *bits)
{
	for (uint64_t k = 0; k < n; k++)
		bits[k] = ar_array_get(t->p, i, first + k);
}

static uint64_t width_mask(const tgt *t, size_t i)
{
	return ar_array_type(t->p, i) == AR_I64 ? UINT64_MAX : 0xffffffffu;
}

static tgt_status array_set(tgt *t, size_t i, uint64_t first, uint64_t n, const uint64_t *bits,
			    diag *d)
{
	uint64_t len = ar_array_len(t->p, i);
	if (first > len || n > len - first) {
		diag_file(d, ar_array_name(t->p, i), "elements %" PRIu64 "..%" PRIu64 " are outside "
			  "its %" PRIu64, first, first + n, len);
		return TGT_USAGE;
	}
	for (uint64_t k = 0; k < n; k++) {
		ar_array_set(t->p, i, first + k, bits[k] & width_mask(t, i));
		note_user(t, i, first + k);
	}
	if (!t->started) {  /* the reference starts from the memory the run starts from */
		ar_seq_free(t->seq);
		t->seq = NULL;
	}
	return TGT_OK;
}

/* ---- running ---- */

/* The run starts: with check, the reference runs on the memory now. */
static void start(tgt *t)
{
	t->started = true;
	if (!t->check || t->seq || t->seq_failed)
		return;
	diag_clear(&t->seqd);
	t->seq = ar_seq_run(t->p, &t->c, &t->seqd);
	t->seq_failed = !t->seq;
}

static tgt_status failed(tgt *t, diag *d)
{
	if (d && !d->set)
		*d = t->sd;
	return TGT_FAILED;
}

/* After the last event: the heat map, once. */
static tgt_status finish(tgt *t, diag *d)
{
	if (t->finished || !t->heatmap)
		return TGT_OK;
	t->finished = true;
	outfile of;
	diag_clear(&t->sd);
	if (!outfile_open(&of, t->heatmap, &t->sd)) {
		ar_heatmap_svg(of.f, &t->st, &t->c);
		if (!outfile_commit(&of, &t->sd))
			return TGT_OK;
	}
	t->failed = true;
	return failed(t, d);
}

static tgt_status one_event(tgt *t, diag *d)
{
	if (t->ended)
		return t->failed ? failed(t, d) : TGT_OK;
	if (!t->started)
		start(t);
	int rc = ar_session_step(t->ss);
	if (rc > 0)
		return TGT_OK;
	t->ended = true;
	t->failed = rc < 0;
	return t->failed ? failed(t, d) : finish(t, d);
}

static tgt_status step(tgt *t, unsigned u, diag *d)
{
	uint64_t done = ar_session_computed(t->ss);
	tgt_status st;
	do
		st = one_event(t, d);
	while (st == TGT_OK && u > 0 && !t->ended && ar_session_computed(t->ss) == done);
	return st;
}

static bool ended(const tgt *t)
{
	return t->ended;
}

static uint64_t count(const tgt *t, unsigned u)
{
	return u == 0 ? t->st.events : ar_session_computed(t->ss);
}

/* ---- --check ---- */

static void value_text(const tgt *t, size_t a, uint64_t bits, char *buf, size_t n)
{
	tgt_value_text(type_of(ar_array_type(t->p, a)), bits, buf, n);
}

/* "UpdateRR (mac) at FILE:LINE" for statement i. */
static void stmt_text(const tgt *t, int i, char *buf, size_t n)
{
	static const char *const pats[] = { "UpdateRR", "UpdateRI", "UpdateII" };
	const ar_stmt *s = &t->p->stmts[i];
	if (s->kind == AR_S_GATHER)
		snprintf(buf, n, "Gather at %s:%d", t->p->path, s->line);
	else
		snprintf(buf, n, "%s (%s) at %s:%d", pats[s->pat], ar_op_name(s->op), t->p->path,
			 s->line);
}

/* Who last wrote array a's element k, one line. */
static void writer_text(tgt *t, size_t a, uint64_t k, char *buf, size_t n)
{
	const ar_array *arr = &t->p->arrays[a];
	const writer *r = writer_of(&t->wr, arr->base + k * arr->esize, false);
	char st[320] = "";
	if (r && r->stmt >= 0)
		stmt_text(t, r->stmt, st, sizeof st);
	if (!r)
		snprintf(buf, n, "the run never wrote it: it holds its value from the start");
	else if (r->by_user)
		snprintf(buf, n, "it was last written from outside the machine (a front's write) "
			 "before event %" PRIu64 " (cycle %" PRIu64 ")", r->event, r->cycle);
	else if (r->commit)
		snprintf(buf, n, "last written by event %" PRIu64 " (cycle %" PRIu64 "): the commit "
			 "of its flow, whose first Update is the %s", r->event, r->cycle, st);
	else
		snprintf(buf, n, "last written by event %" PRIu64 " (cycle %" PRIu64 "): the "
			 "assignment %s", r->event, r->cycle, st);
}

/* What element k of array a should hold now: at the end, the
 * reference's last value; before it, its value after as many stores as
 * the machine has made to it. */
static uint64_t expected(tgt *t, size_t a, uint64_t k)
{
	if (t->ended)
		return ar_seq_final(t->seq, a, k);
	const ar_array *arr = &t->p->arrays[a];
	const writer *r = writer_of(&t->wr, arr->base + k * arr->esize, false);
	return ar_seq_after(t->seq, a, k, r ? r->stores : 0);
}

static tgt_status differs(tgt *t, size_t a, uint64_t k, uint64_t got, uint64_t want,
			  uint64_t nwrong, diag *d)
{
	char g[48], w[48], who[640];
	value_text(t, a, got, g, sizeof g);
	value_text(t, a, want, w, sizeof w);
	writer_text(t, a, k, who, sizeof who);
	const char *name = ar_array_name(t->p, a);
	free(t->report);
	size_t n = strlen(t->p->path) + strlen(name) + strlen(who) + 256;
	if ((t->report = malloc(n)))
		snprintf(t->report, n, "%s: --check: %s[%" PRIu64 "]: got %s, expected %s (%" PRIu64
			 " element%s differ%s)\n  %s[%" PRIu64 "]: %s\n", t->p->path, name, k, g, w,
			 nwrong, nwrong == 1 ? "" : "s", nwrong == 1 ? "s" : "", name, k, who);
	diag_file(d, t->p->path, "--check: %s[%" PRIu64 "]: got %s, expected %s", name, k, g, w);
	t->agrees = 0;
	return TGT_DIFFERS;
}

static tgt_status compare(tgt *t, diag *d)
{
	if (!t->check) {
		diag_file(d, t->p->path, "the reference is kept only with --check");
		return TGT_USAGE;
	}
	if (!t->started) {
		start(t);
		t->started = false;
	}
	if (t->seq_failed) {
		if (d)
			*d = t->seqd;
		return TGT_FAILED;
	}
	if (t->wr.oom) {
		diag_file(d, t->p->path, "out of memory for --check's record of the stores");
		return TGT_FAILED;
	}
	size_t fa = 0;
	uint64_t fk = 0, fgot = 0, fwant = 0, nwrong = 0;
	for (size_t a = 0; a < ar_array_count(t->p); a++)
		for (uint64_t k = 0; k < ar_array_len(t->p, a); k++) {
			uint64_t got = ar_array_get(t->p, a, k), want = expected(t, a, k);
			if (got == want)
				continue;
			if (!nwrong++) {
				fa = a;
				fk = k;
				fgot = got;
				fwant = want;
			}
		}
	if (nwrong)
		return differs(t, fa, fk, fgot, fwant, nwrong, d);
	t->agrees = 1;
	return TGT_OK;
}

static tgt_status run(tgt *t, diag *d)
{
	tgt_status st = TGT_OK;
	while (st == TGT_OK && !t->ended)
		st = one_event(t, d);
	if (st == TGT_OK && t->failed)
		st = failed(t, d);
	if (st == TGT_OK && t->check)
		st = compare(t, d);
	return st;
}

static const char *report(const tgt *t)
{
	return t->agrees == 0 ? t->report : NULL;
}

static tgt_status check(tgt *t, diag *d)
{
	return compare(t, d);
}

/* ---- statistics (report.c's numbers as one tree) ---- */

static double ratio(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0.0;
}

static void stats_machine(const tgt *t, tgt_stat *root)
{
	const ar_config *c = &t->c;
	tgt_stat *m = tgt_stat_group(root, "machine", "machine");
	tgt_stat_str(m, "root", c->root == AR_ROOT_NAIVE ? "naive" : c->root == AR_ROOT_TID ? "tid"
			 : "addr", "ARTree roots");
	tgt_stat_str(m, "net", c->net == AR_NET_MESH ? "mesh" : "dragonfly", "network");
	tgt_stat_uint(m, "interleave", c->interleave, "interleave (bytes)");
	tgt_stat_uint(m, "flow_entries", c->flow_entries, "flow entries per cube");
	tgt_stat_uint(m, "buffers", c->buffers, "operand buffers per cube");
	tgt_stat_uint(m, "link_bytes", c->link_bytes, "link bytes per cycle (0: no limit)");
	tgt_stat_uint(m, "max_events", c->max_events, "max events");
	tgt_stat_uint(m, "max_memory", c->max_memory, "max memory (bytes)");
}

static void stats_traffic(const ar_stats *st, tgt_stat *root)
{
	tgt_stat *l = tgt_stat_list(root, "packets", "packets (Active-Routing)", 0);
	uint64_t hops = 0;
	for (int k = 0; k < AR_PK_TYPES; k++) {
		tgt_stat *r = tgt_stat_row(l);
		tgt_stat_str(r, "packet", ar_pk_name((ar_pktype)k), NULL);
		tgt_stat_uint(r, "packets", st->pk[k].packets, NULL);
		tgt_stat_uint(r, "bytes", st->pk[k].bytes, NULL);
		tgt_stat_uint(r, "byte_hops", st->pk[k].byte_hops, "bytes x hops");
		hops += st->pk[k].byte_hops;
	}
	uint64_t host = st->host_active + st->host_normal;
	uint64_t pei = st->pei_host_active + st->pei_host_normal;
	tgt_stat *h = tgt_stat_group(root, "host", "host <-> network bytes");
	tgt_stat_uint(h, "active", st->host_active, NULL);
	tgt_stat_uint(h, "normal", st->host_normal, NULL);
	tgt_stat_uint(h, "total", host, NULL);
	tgt_stat *p = tgt_stat_group(root, "pei", "PEI baseline");
	tgt_stat_uint(p, "packets", st->pei_pk.packets, NULL);
	tgt_stat_uint(p, "bytes", st->pei_pk.bytes, NULL);
	tgt_stat_uint(p, "byte_hops", st->pei_pk.byte_hops, "bytes x hops");
	tgt_stat_uint(p, "host_active", st->pei_host_active, "host <-> network bytes, active");
	tgt_stat_uint(p, "host_normal", st->pei_host_normal, "host <-> network bytes, normal");
	tgt_stat_uint(p, "host_total", pei, "host <-> network bytes, total");
	tgt_stat *f = tgt_stat_group(root, "fig10", "Fig 10 (Active-Routing / PEI)");
	tgt_stat_real(f, "host_bytes", ratio(host, pei), "host <-> network bytes");
	tgt_stat_real(f, "host_active", ratio(st->host_active, st->pei_host_active), "active");
	tgt_stat_real(f, "host_normal", ratio(st->host_normal, st->pei_host_normal), "normal");
	tgt_stat_real(f, "byte_hops", ratio(hops, st->pei_pk.byte_hops), "bytes x hops");
}

static void stats_engines(const ar_stats *st, unsigned link_bytes, tgt_stat *root)
{
	tgt_stat *tr = tgt_stat_group(root, "trees", "trees");
	tgt_stat_uint(tr, "trees", st->trees, NULL);
	tgt_stat_uint(tr, "max_depth", st->max_depth, "max depth");
	tgt_stat_uint(tr, "depth_sum", st->depth_sum, "compute-point depths, sum");
	tgt_stat_uint(tr, "depth_count", st->depth_count, "compute points");
	tgt_stat_real(tr, "mean_depth", st->depth_count ? (double)st->depth_sum /
		      (double)st->depth_count : 0.0, "mean compute-point depth");
	tgt_stat *s = tgt_stat_group(root, "stalls", "stalls");
	tgt_stat_uint(s, "table", st->stall_table, "flow table (packets)");
	tgt_stat_uint(s, "table_cycles", st->stall_table_cycles, "flow table (cycles)");
	tgt_stat_uint(s, "buffer", st->stall_buffer, "operand buffers (packets)");
	tgt_stat_uint(s, "buffer_cycles", st->stall_buffer_cycles, "operand buffers (cycles)");
	tgt_stat_uint(s, "max_table", st->max_table, "peak entries in use");
	tgt_stat_uint(s, "max_buffers", st->max_buffers, "peak buffers in use");
	double rate = link_bytes ? (double)link_bytes : 1.0;
	tgt_stat *n = tgt_stat_group(root, "links", "links");
	tgt_stat_uint(n, "waits", st->link_waits, "packets that waited for a link");
	tgt_stat_real(n, "wait_cycles", (double)st->link_wait_units / rate, "cycles waited");
	double k = st->lat_count ? (double)st->lat_count : 1.0;
	tgt_stat *f = tgt_stat_group(root, "fig9", "Fig 9 (Update round trip, mean cycles)");
	tgt_stat_uint(f, "updates", st->lat_count, "Updates and assignments");
	tgt_stat_real(f, "request", (double)st->lat_request / k, "request");
	tgt_stat_real(f, "stall", (double)st->lat_stall / k, "stall");
	tgt_stat_real(f, "response", (double)st->lat_response / k, "response");
	tgt_stat_real(f, "total", (double)(st->lat_request + st->lat_stall + st->lat_response) / k,
		      "round trip");
	tgt_stat *l = tgt_stat_list(root, "cubes", "per cube", TGT_STAT_DETAIL);
	for (int c = 0; c < AR_CUBES; c++) {
		tgt_stat *r = tgt_stat_row(l);
		tgt_stat_uint(r, "cube", (uint64_t)c, NULL);
		tgt_stat_uint(r, "compute", st->cube_compute[c], "compute (element ops)");
		tgt_stat_uint(r, "operands", st->cube_operands[c], "operands (elements read)");
		tgt_stat_uint(r, "updates", st->cube_updates[c], NULL);
		tgt_stat_uint(r, "pei", st->pei_cube_compute[c], "PEI compute");
		tgt_stat_real(r, "link_wait", (double)st->cube_link_wait[c] / rate,
			      "link wait (cycles)");
	}
}

static void stats(tgt *t, tgt_stat *root)
{
	const ar_stats *st = &t->st;
	stats_machine(t, root);
	tgt_stat *tot = tgt_stat_group(root, "totals", "totals");
	/* the cycle of the last event: ar_stats.cycles is set only at the end */
	tgt_stat_uint(tot, "cycles", ar_session_now(t->ss), NULL);
	tgt_stat_uint(tot, "events", st->events, NULL);
	tgt_stat_uint(tot, "updates", st->updates_issued, "updates issued");
	tgt_stat_uint(tot, "updates_computed", st->updates_computed, "updates computed");
	tgt_stat_uint(tot, "element_ops", st->elem_ops, "element operations");
	tgt_stat_uint(tot, "assignments", st->assigns, NULL);
	tgt_stat_uint(tot, "gathers", st->gathers, NULL);
	tgt_stat_uint(tot, "commits", st->commits, NULL);
	tgt_stat_uint(tot, "host_bytes", st->host_active + st->host_normal,
		      "host <-> network bytes");
	tgt_stat_uint(tot, "pei_host_bytes", st->pei_host_active + st->pei_host_normal,
		      "host <-> network bytes (PEI)");
	stats_traffic(st, root);
	stats_engines(st, t->c.link_bytes, root);
	tgt_stat *e = tgt_stat_group(root, "end_state", "end state");
	tgt_stat_bool(e, "ended", t->ended, "run ended");
	tgt_stat_bool(e, "clean", st->end_clean, "every table, buffer and queue empty");
}

static void summary(tgt *t, char *buf, size_t size)
{
	const ar_stats *st = &t->st;
	snprintf(buf, size, "%s: %" PRIu64 " updates, %" PRIu64 " assignments, %" PRIu64 " gathers, %"
		 PRIu64 " cycles; host <-> network bytes %" PRIu64 " (PEI %" PRIu64 ")%s",
		 t->path, st->updates_issued, st->assigns, st->gathers, ar_session_now(t->ss),
		 st->host_active + st->host_normal, st->pei_host_active + st->pei_host_normal,
		 t->agrees == 1 ? "; --check: the reference agrees" : "");
}

/* ---- where ---- */

static const tgt_unit units[] = {
	{ "event", "events" },
	{ "Update", "Updates" },
};

/* Line n of the source (1-based), as where shows it. */
static void source_line(const tgt *t, int n, char *buf, size_t size)
{
	tgt_source_line(t->text, t->len, n > 0 ? (unsigned)n : 0, buf, size);
}

static bool where(tgt *t, unsigned u, tgt_loc *loc)
{
	ar_next nx;
	memset(loc, 0, sizeof *loc);
	if (t->ended || !ar_session_next(t->ss, &nx))
		return false;
	loc->file = t->p->path;
	loc->line = (unsigned)nx.line;
	loc->col = (unsigned)nx.col;
	loc->index = count(t, u);
	if (u == 0 || !nx.line) {
		snprintf(loc->what, sizeof loc->what, "%.255s", nx.what);
		return true;
	}
	char src[200];
	source_line(t, nx.line, src, sizeof src);
	if (nx.thread >= 0)
		snprintf(loc->what, sizeof loc->what, "%s (thread %d)", src, nx.thread);
	else
		snprintf(loc->what, sizeof loc->what, "%s", src);
	return true;
}

static const char *source(const tgt *t)
{
	return t->p->path;
}

/* ---- names ---- */

enum { S_CYCLES, S_EVENTS, S_UPDATES, S_ISSUED, S_ASSIGNS, S_GATHERS, S_COMMITS, NSCALARS };
static const char *const scalars[NSCALARS] = {
	"cycles", "events", "updates", "issued", "assignments", "gathers", "commits",
};

static bool lookup(tgt *t, const char *name, tgt_sym *out)
{
	memset(out, 0, sizeof *out);
	int a = ar_array_find(t->p, name);
	if (a >= 0) {
		*out = (tgt_sym){ .is_array = true, .id = (size_t)a,
				  .type = type_of(ar_array_type(t->p, (size_t)a)),
				  .length = ar_array_len(t->p, (size_t)a), .writable = true };
		return true;
	}
	for (size_t i = 0; i < NSCALARS; i++)
		if (!strcmp(name, scalars[i])) {
			*out = (tgt_sym){ .id = i, .type = { .kind = TGT_INT, .width = 64 },
					  .length = 1 };
			return true;
		}
	return false;
}

static uint64_t scalar(tgt *t, size_t id)
{
	const ar_stats *st = &t->st;
	switch (id) {
	case S_CYCLES: return ar_session_now(t->ss);
	case S_EVENTS: return st->events;
	case S_UPDATES: return ar_session_computed(t->ss);
	case S_ISSUED: return st->updates_issued;
	case S_ASSIGNS: return st->assigns;
	case S_GATHERS: return st->gathers;
	default: return st->commits;
	}
}

static uint64_t read_sym(tgt *t, const tgt_sym *s, uint64_t index)
{
	if (!s->is_array)
		return index == 0 ? scalar(t, s->id) : 0;
	return index < ar_array_len(t->p, s->id) ? ar_array_get(t->p, s->id, index) : 0;
}

static tgt_status write_sym(tgt *t, const tgt_sym *s, uint64_t index, uint64_t bits, diag *d)
{
	if (!s->is_array) {
		diag_file(d, scalars[s->id], "a count of the run: it cannot be set");
		return TGT_USAGE;
	}
	return array_set(t, s->id, index, 1, &bits, d);
}

static void names(tgt *t, void (*each)(void *ctx, const char *name), void *ctx)
{
	for (size_t i = 0; i < ar_array_count(t->p); i++)
		each(ctx, ar_array_name(t->p, i));
	for (size_t i = 0; i < NSCALARS; i++)
		each(ctx, scalars[i]);
}

/* ---- breakpoints ---- */

enum { BP_LINE, BP_EVENT, BP_CYCLE, BP_CUBE, BP_FLOW };

static bool has_unit(const tgt *t, unsigned line)
{
	for (size_t i = 0; i < t->p->nstmts; i++)
		if ((unsigned)t->p->stmts[i].line == line &&
		    (t->p->stmts[i].kind == AR_S_UPDATE || t->p->stmts[i].kind == AR_S_GATHER))
			return true;
	return false;
}

static tgt_status break_line(tgt *t, unsigned line, tgt_bp *bp, diag *d)
{
	if (has_unit(t, line)) {
		const char *base = strrchr(t->p->path, '/');
		*bp = (tgt_bp){ .kind = BP_LINE, .a = line };
		snprintf(bp->what, sizeof bp->what, "%.140s:%u", base ? base + 1 : t->p->path, line);
		return TGT_OK;
	}
	unsigned best = 0;
	for (size_t i = 0; i < t->p->nstmts; i++) {
		const ar_stmt *s = &t->p->stmts[i];
		unsigned l = (unsigned)s->line;
		if ((s->kind == AR_S_UPDATE || s->kind == AR_S_GATHER) &&
		    (!best || (l > line ? l - line : line - l) < (best > line ? best - line : line - best)))
			best = l;
	}
	if (!best)
		diag_at(d, t->p->path, (int)line, 0, "no Update, assignment or Gather to stop at: the "
			"program has none");
	else
		diag_at(d, t->p->path, (int)line, 0, "no Update, assignment or Gather on this line; "
			"the nearest is on line %u", best);
	return TGT_USAGE;
}

static bool word_number(const char *spec, const char *word, uint64_t *v)
{
	size_t n = strlen(word);
	if (strncmp(spec, word, n) || spec[n] != ' ')
		return false;
	spec += n;
	while (*spec == ' ')
		spec++;
	return number_in(spec, 0, UINT64_MAX, v);
}

/* FILE:LINE names this program: its path, or a tail of it. */
static bool names_program(const tgt *t, const char *file, size_t n)
{
	size_t m = strlen(t->p->path);
	return n && n <= m && !memcmp(t->p->path + m - n, file, n) &&
	       (n == m || t->p->path[m - n - 1] == '/');
}

static tgt_status break_parse(tgt *t, const char *spec, tgt_bp *bp, diag *d)
{
	uint64_t v;
	while (*spec == ' ')
		spec++;
	memset(bp, 0, sizeof *bp);
	const char *colon = strrchr(spec, ':');
	if (number_in(spec, 1, UINT32_MAX, &v))
		return break_line(t, (unsigned)v, bp, d);
	if (colon && number_in(colon + 1, 1, UINT32_MAX, &v)) {
		if (!names_program(t, spec, (size_t)(colon - spec))) {
			diag_file(d, spec, "not this program's file (%s)", t->p->path);
			return TGT_USAGE;
		}
		return break_line(t, (unsigned)v, bp, d);
	}
	static const struct { const char *word; unsigned kind; } kinds[] = {
		{ "event", BP_EVENT }, { "cycle", BP_CYCLE }, { "cube", BP_CUBE },
	};
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (word_number(spec, kinds[i].word, &v)) {
			if (kinds[i].kind == BP_CUBE && v >= AR_CUBES) {
				diag_file(d, spec, "expected a cube from 0 to %d", AR_CUBES - 1);
				return TGT_USAGE;
			}
			*bp = (tgt_bp){ .kind = kinds[i].kind, .a = v };
			snprintf(bp->what, sizeof bp->what, "%s %" PRIu64, kinds[i].word, v);
			return TGT_OK;
		}
	if (!strncmp(spec, "flow ", 5)) {
		const char *ref = spec + 5;
		while (*ref == ' ')
			ref++;
		if (ar_target_of(t->p, ref, &v, d))
			return TGT_USAGE;
		*bp = (tgt_bp){ .kind = BP_FLOW, .a = v };
		snprintf(bp->what, sizeof bp->what, "flow %.150s", ref);
		return TGT_OK;
	}
	diag_file(d, spec, "expected LINE, FILE:LINE, event N, cycle N, cube N or flow ARRAY[INDEX]");
	return TGT_USAGE;
}

static bool break_hit(tgt *t, const tgt_bp *bp)
{
	ar_next nx;
	if (t->ended || !ar_session_next(t->ss, &nx))
		return false;
	switch (bp->kind) {
	case BP_LINE: return nx.enters && (uint64_t)nx.line == bp->a;
	case BP_EVENT: return t->st.events == bp->a;
	case BP_CYCLE: return nx.time >= bp->a && (!t->st.events || ar_session_now(t->ss) < bp->a);
	case BP_CUBE: return nx.cube >= 0 && (uint64_t)nx.cube == bp->a;
	default: return nx.has_target && nx.target == bp->a;
	}
}

/* ---- snapshots: real copies ---- */

static size_t mem_bytes(const ar_program *p)
{
	size_t n = 0;
	for (size_t i = 0; i < p->narrays; i++)
		n += p->arrays[i].len * p->arrays[i].esize;
	return n;
}

static void snap_free(tgt_snap *s)
{
	if (!s)
		return;
	ar_session_free(s->ss);
	free(s->mem);
	free(s->wr.w);
	free(s);
}

static tgt_snap *save(tgt *t, diag *d)
{
	tgt_snap *s = calloc(1, sizeof *s);
	if (s) {
		s->st = t->st;
		s->sd = t->sd;
		s->mem_bytes = mem_bytes(t->p);
		s->mem = malloc(s->mem_bytes ? s->mem_bytes : 1);
		s->ss = ar_session_copy(t->ss, t->p, &t->c, &s->st, &s->sd);
	}
	if (!s || !s->mem || !s->ss || writers_copy(&s->wr, &t->wr)) {
		snap_free(s);
		diag_file(d, t->p->path, "out of memory for a snapshot");
		return NULL;
	}
	size_t at = 0;
	for (size_t i = 0; i < t->p->narrays; i++) {
		const ar_array *a = &t->p->arrays[i];
		memcpy(s->mem + at, a->data, a->len * a->esize);
		at += a->len * a->esize;
	}
	s->started = t->started;
	s->ended = t->ended;
	s->failed = t->failed;
	s->finished = t->finished;
	return s;
}

static tgt_status restore(tgt *t, const tgt_snap *s, diag *d)
{
	writers wr;
	ar_session *ss = ar_session_copy(s->ss, t->p, &t->c, &t->st, &t->sd);
	if (!ss || writers_copy(&wr, &s->wr)) {
		ar_session_free(ss);
		diag_file(d, t->p->path, "out of memory to restore a snapshot");
		return TGT_FAILED;
	}
	ar_session_free(t->ss);
	t->ss = ss;
	free(t->wr.w);
	t->wr = wr;
	t->st = s->st;
	t->sd = s->sd;
	size_t at = 0;
	for (size_t i = 0; i < t->p->narrays; i++) {
		ar_array *a = &t->p->arrays[i];
		memcpy(a->data, s->mem + at, a->len * a->esize);
		at += a->len * a->esize;
	}
	if (!s->started) {  /* the reference starts again with the run */
		ar_seq_free(t->seq);
		t->seq = NULL;
		t->seq_failed = false;
	}
	t->started = s->started;
	t->ended = s->ended;
	t->failed = s->failed;
	t->finished = s->finished;
	t->agrees = -1;
	return TGT_OK;
}

static size_t snap_bytes(const tgt_snap *s)
{
	return sizeof *s + s->mem_bytes + s->wr.cap * sizeof *s->wr.w + ar_session_bytes(s->ss);
}

/* ---- infos and views ---- */

static int info_flows(tgt *t, const char *args, FILE *out, diag *d)
{
	(void)args;
	(void)d;
	ar_session_print_flows(t->ss, out);
	return 0;
}

static int info_partials(tgt *t, const char *args, FILE *out, diag *d)
{
	uint64_t addr;
	while (args && *args == ' ')
		args++;
	if (!args || !*args) {
		diag_file(d, "info partials", "expected a flow's target, ARRAY[INDEX]");
		return -1;
	}
	if (ar_target_of(t->p, args, &addr, d))
		return -1;
	if (ar_session_print_partials(t->ss, addr, out)) {
		diag_file(d, args, "no flow into it is under way");
		return -1;
	}
	return 0;
}

static const tgt_info infos[] = {
	{ "flows", "every cube's flow table, buffers in use and packets waiting", info_flows },
	{ "partials", "partials ARRAY[INDEX]: a flow's partial at every tree node", info_partials },
	{ NULL, NULL, NULL },
};

/* The flow tables, cut to the window. */
static void draw_flows(tgt *t, FILE *out, unsigned width, unsigned height)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&buf, &n);
	if (!m)
		return;
	ar_session_print_flows(t->ss, m);
	fclose(m);
	const char *s = buf;
	for (unsigned row = 0; row < height && s && *s; row++) {
		const char *nl = strchr(s, '\n');
		size_t len = nl ? (size_t)(nl - s) : strlen(s);
		fprintf(out, "%.*s\n", (int)(len < width ? len : width), s);
		s = nl ? nl + 1 : NULL;
	}
	free(buf);
}

static const tgt_view views[] = {
	{ "flows", "every cube's flow table", draw_flows },
	{ NULL, NULL, NULL },
};

static const char *why_not(unsigned can)
{
	if (can == TGT_CAN_STRICT)
		return "Active-Routing has no hazards to stop at: the host orders every assignment "
		       "against the reads and writes around it";
	if (can == TGT_CAN_THREADS)
		return "the network of cubes is simulated event by event, in one thread";
	return "not offered by Active-Routing";
}

/* A program on standard input is Active-Routing's when it has a
 * `threads` line or an Update. */
static bool claims(const char *head, size_t n)
{
	return tgt_head_has(head, n, "threads") || tgt_head_has(head, n, "Update") ||
	       tgt_head_has(head, n, "UpdateRR");
}

const tgt_ops tgt_ar = {
	.name = "ar",
	.title = "Active-Routing (HPCA'19)",
	.exts = exts,
	.claims = claims,
	.options = options,
	.settings_help = "root=naive|tid|addr, net=dragonfly|mesh, interleave=BYTES, "
			 "flow-entries=N, buffers=N, link-bytes=N, max-events=N, max-memory=BYTES",
	.can = TGT_CAN_DEFINE | TGT_CAN_LOAD | TGT_CAN_SAVE | TGT_CAN_CHECK | TGT_CAN_MACHINE,
	.why_not = why_not,
	.open = open_target,
	.close = close_target,
	.narrays = narrays,
	.array = array,
	.array_get = array_get,
	.array_set = array_set,
	.run = run,
	.report = report,
	.check = check,
	.stats = stats,
	.summary = summary,
	.units = units,
	.nunits = 2,
	.step = step,
	.ended = ended,
	.count = count,
	.where = where,
	.source = source,
	.lookup = lookup,
	.read = read_sym,
	.write = write_sym,
	.names = names,
	.break_parse = break_parse,
	.break_hit = break_hit,
	.break_help = "LINE, FILE:LINE (an Update or Gather entering the network), event N "
		      "(numbered from 0), cycle N, cube N (the next event at cube N), "
		      "flow ARRAY[INDEX]",
	.save = save,
	.restore = restore,
	.snap_free = snap_free,
	.snap_bytes = snap_bytes,
	.infos = infos,
	.views = views,
};
