/* SPDX-License-Identifier: MIT */
/*
 * target.c: near-stream computing as one of infsim's targets (tgt_nsc;
 * emu/target/target.h, doc/STREAMS.md "As a target").  A .nsc program is
 * parsed with -D's constants, its machine set up from the settings (the
 * floating decision, the interleave, range synchronisation, ...) and run
 * as a session (session.c) one engine step at a time: a core statement, a
 * region's s_cfg, one s_step or its s_end.  --check runs the reference
 * (ref.c) from the same initial memory and compares every array bit for
 * bit; while it is on, each element remembers who last wrote it, so a
 * wrong element names its statement or stream.  The statistics are
 * nsc_report's numbers, with the traffic of the same run with every
 * stream at the core (NSC Fig 1b, Fig 12), and each tile's messages.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "nsc_int.h"
#include "target.h"

#define MAX_ALIASES 1024

/* What the breakpoints of break_parse are (tgt_bp.kind). */
enum { BP_LINE, BP_REGION, BP_REGION_OF, BP_ITER, BP_ELEM };
/* What a scalar of lookup is (tgt_sym.id >> 32). */
enum { SYM_SLOT = 1, SYM_CONST, SYM_STREAM, SYM_COUNTER };
/* Units, finest first. */
enum { U_STEP, U_ITER, U_STMT };

struct tgt {
	const char *path;     /* the program's, as the front named it */
	nsc_program p;
	nsc_settings s;
	nsc_alias *aliases;
	char *text;           /* the source, for what each unit is */
	size_t len;
	nsc_mem init;         /* before the run: the reference and baseline start here */
	nsc_mem m;            /* the machine's */
	nsc_stats st;
	nsc_session *ss;
	diag sd;              /* the session's */
	bool check, failed;
	uint64_t steps, stmts;   /* engine steps and statements done */
	nsc_step last;           /* the last step (has_last) */
	bool has_last;
	uint64_t **wr;           /* who last wrote each element (check) */
	nsc_mem ref;             /* the reference's final memory (ref_done) */
	bool ref_done;
	nsc_stats base;          /* the run with every stream at the core */
	int base_done;           /* 0 not yet, 1 done, -1 it failed (base_d) */
	diag base_d;
	char *report;
};

struct tgt_snap {
	nsc_mem m;
	nsc_stats st;
	diag sd;
	nsc_session *ss;
	uint64_t **wr;
	uint64_t steps, stmts;
	nsc_step last;
	bool has_last, failed;
	size_t bytes;
};

/* ---- names ---- */

static const char *kind_name(nsc_skind k)
{
	static const char *const n[] = { "load", "store", "update", "atomic", "reduce" };
	return n[k];
}

static int region_streams(const nsc_region *r)
{
	return r->nstreams + (r->ndims == 0);
}

/* A stream's name: its own (load, reduce, a chase's pointer), or the
 * array it writes (store, update, atomic), as infsdb has named them. */
static const char *stream_name(const nsc_program *p, const nsc_region *r, int k)
{
	if (k == r->nstreams)
		return r->chase_name;
	const nsc_stream *s = &r->s[k];
	return s->name[0] ? s->name : p->arrays[s->arr].name;
}

static tgt_type type_of(nsc_type t)
{
	switch (t) {
	case NSC_F32: return (tgt_type){ TGT_F32, 32, true, 0 };
	case NSC_F64: return (tgt_type){ TGT_F64, 64, true, 0 };
	default: return (tgt_type){ TGT_INT, (uint8_t)(8 * nsc_type_size(t)), t == NSC_I8 || t == NSC_I32 || t == NSC_I64, 0 };
	}
}

static tgt_type val_type(nsc_val v)
{
	return type_of(v.k == 'f' ? NSC_F32 : v.k == 'd' ? NSC_F64 : NSC_I64);
}

static uint64_t val_bits(nsc_val v)
{
	uint64_t b = (uint64_t)v.u.i;
	if (v.k == 'f') {
		uint32_t w;
		memcpy(&w, &v.u.f, 4);
		b = w;
	} else if (v.k == 'd') {
		memcpy(&b, &v.u.d, 8);
	}
	return b;
}

static nsc_val bits_val(char k, uint64_t b)
{
	nsc_val v = nsc_val_int((int64_t)b);
	v.k = k;
	if (k == 'f') {
		uint32_t w = (uint32_t)b;
		memcpy(&v.u.f, &w, 4);
	} else if (k == 'd') {
		memcpy(&v.u.d, &b, 8);
	}
	return v;
}

/* Line n of the source (1-based), as where shows it. */
static void source_line(const tgt *t, int n, char *buf, size_t size)
{
	tgt_source_line(t->text, t->len, n > 0 ? (unsigned)n : 0, buf, size);
}

/* ---- settings and options ---- */

static const tgt_option options[] = {
	{ "float", TGT_OPT_ARG | TGT_OPT_SETTING, "MODE",
	  "the floating decision: auto, core (every stream at the core) or bank (every stream offloaded)" },
	{ "interleave", TGT_OPT_ARG | TGT_OPT_SETTING, "BYTES", "static NUCA interleave, a power of two (64; 1024)" },
	{ "sync", TGT_OPT_ARG | TGT_OPT_SETTING, "MODE", "range (range synchronisation, the default) or free" },
	{ "nest", TGT_OPT_ARG | TGT_OPT_SETTING, "MODE",
	  "on (a region nested in a core loop is one nested stream configuration, the default) or off" },
	{ "range", TGT_OPT_ARG | TGT_OPT_SETTING, "R", "iterations per range message (8)" },
	{ "window", TGT_OPT_ARG | TGT_OPT_SETTING, "W", "iterations issued ahead of the core (16)" },
	{ "cache", TGT_OPT_ARG | TGT_OPT_SETTING, "BYTES", "the private cache of the floating decision (262144)" },
	{ "core", TGT_OPT_ARG | TGT_OPT_SETTING, "TILE", "the core's tile, 0 to 63 (0)" },
	{ "max-iters", TGT_OPT_ARG | TGT_OPT_SETTING, "N", "bound on a loop's or a region's iterations (2^32)" },
	{ "max-work", TGT_OPT_ARG | TGT_OPT_SETTING, "N",
	  "bound on the whole run's loop trips and region iterations together (none)" },
	{ "alias", TGT_OPT_ARG, "N:ARRAY[I]=V",
	  "a core store of V to ARRAY[I] before region iteration N (over every region, from 0); repeatable" },
	{ NULL, 0, NULL, NULL },
};

static const char settings_help[] =
	"float=auto|core|bank, interleave=BYTES (64), sync=range|free, nest=on|off, range=R (8), window=W (16), "
	"cache=BYTES (262144), core=TILE (0), max-iters=N (2^32), max-work=N (none)";

/* A whole message in d, as it is (the option at fault names itself). */
static void usage(diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void usage(diag *d, const char *fmt, ...)
{
	if (d->set)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(d->msg, sizeof d->msg, fmt, ap);
	va_end(ap);
	d->set = true;
}

/* A decimal number in [lo, hi], or why not (into why). */
static int number(const char *v, uint64_t lo, uint64_t hi, uint64_t *out, char *why, size_t n)
{
	char *end;
	errno = 0;
	unsigned long long x = v[0] >= '0' && v[0] <= '9' ? strtoull(v, &end, 10) : 0;
	if (v[0] < '0' || v[0] > '9' || *end || errno || x < lo || x > hi) {
		snprintf(why, n, "expected a number from %" PRIu64 " to %" PRIu64, lo, hi);
		return -1;
	}
	*out = x;
	return 0;
}

/* Setting key=v into s: 0, 1 an unknown key, or -1 with why. */
static int set_one(nsc_settings *s, const char *key, const char *v, char *why, size_t n)
{
	uint64_t x;
	if (!strcmp(key, "float")) {
		if (strcmp(v, "auto") && strcmp(v, "core") && strcmp(v, "bank"))
			return snprintf(why, n, "expected auto, core or bank"), -1;
		s->floating = v[0] == 'a' ? NSC_FLOAT_AUTO : v[0] == 'c' ? NSC_FLOAT_CORE : NSC_FLOAT_BANK;
	} else if (!strcmp(key, "sync")) {
		if (strcmp(v, "range") && strcmp(v, "free"))
			return snprintf(why, n, "expected range or free"), -1;
		s->sync_free = v[0] == 'f';
	} else if (!strcmp(key, "nest")) {
		if (strcmp(v, "on") && strcmp(v, "off"))
			return snprintf(why, n, "expected on or off"), -1;
		s->no_nest = v[1] == 'f';
	} else if (!strcmp(key, "interleave")) {
		if (number(v, 8, 1 << 20, &x, why, n) < 0)
			return -1;
		if (x & (x - 1))
			return snprintf(why, n, "expected a power of two"), -1;
		s->interleave = (unsigned)x;
	} else if (!strcmp(key, "range") || !strcmp(key, "window") || !strcmp(key, "core") || !strcmp(key, "cache")) {
		const bool r = key[0] == 'r', w = key[0] == 'w', c = !strcmp(key, "core");
		if (number(v, r ? 1 : w || c ? 0 : 64, r || w ? 1024 : c ? 63 : 1 << 30, &x, why, n) < 0)
			return -1;
		*(r ? &s->range_iters : w ? &s->window : c ? &s->core_tile : &s->cache_bytes) = (unsigned)x;
	} else if (!strcmp(key, "max-iters") || !strcmp(key, "max-work")) {
		if (number(v, 1, UINT64_MAX >> 1, &x, why, n) < 0)
			return -1;
		*(key[4] == 'i' ? &s->max_iters : &s->max_work) = x;
	} else {
		return 1;
	}
	return 0;
}

static int apply_settings(tgt *t, const tgt_load *a, diag *d)
{
	char why[160];
	for (size_t i = 0; i < a->nsettings; i++) {
		const tgt_setting *g = &a->settings[i];
		int rc = set_one(&t->s, g->key, g->value, why, sizeof why);
		if (rc == 1)
			snprintf(why, sizeof why, "unknown setting (nsc has float, interleave, sync, nest, range, window, "
				 "cache, core, max-iters and max-work)");
		if (rc && g->file)
			diag_at(d, g->file, (int)g->line, 0, "%s=%s: %s", g->key, g->value, why);
		else if (rc)
			usage(d, "-m %s=%s: %s", g->key, g->value, why);
		if (rc)
			return -1;
	}
	for (size_t i = 0; i < a->nopts; i++) {
		const tgt_optval *o = &a->opts[i];
		if (!(o->opt->flags & TGT_OPT_SETTING))
			continue;
		if (set_one(&t->s, o->opt->name, o->value ? o->value : "", why, sizeof why)) {
			usage(d, "--%s=%s: %s", o->opt->name, o->value ? o->value : "", why);
			return -1;
		}
	}
	return 0;
}

/* --alias=N:ARRAY[I]=V, resolved against the program. */
static int parse_alias(const nsc_program *p, const char *text, nsc_alias *a, diag *d)
{
	char arr[NSC_NAME_MAX], val[64], *end;
	unsigned long long n, i;
	int used = 0;
	if (sscanf(text, "%llu:%31[A-Za-z0-9_][%llu]=%63s%n", &n, arr, &i, val, &used) != 4 || text[used]) {
		usage(d, "--alias=%s: expected N:ARRAY[I]=VALUE", text);
		return -1;
	}
	a->arr = nsc_array_find(p, arr);
	if (a->arr < 0) {
		usage(d, "--alias=%s: no array '%s' in %s", text, arr, p->file);
		return -1;
	}
	if (i >= p->arrays[a->arr].count) {
		usage(d, "--alias=%s: index %llu is out of bounds of '%s' (%" PRIu64 " elements)", text, i, arr,
		      p->arrays[a->arr].count);
		return -1;
	}
	a->iter = n;
	a->index = i;
	errno = 0;
	if (strpbrk(val, ".eEn")) {
		a->value.k = 'd';
		a->value.u.d = strtod(val, &end);
	} else {
		a->value = nsc_val_int(strtoll(val, &end, 0));
	}
	if (*end || errno) {
		usage(d, "--alias=%s: expected a number, not '%s'", text, val);
		return -1;
	}
	return 0;
}

static int resolve_aliases(tgt *t, const tgt_load *a, diag *d)
{
	size_t n = 0;
	for (size_t i = 0; i < a->nopts; i++)
		n += !strcmp(a->opts[i].opt->name, "alias");
	if (n > MAX_ALIASES) {
		usage(d, "--alias: more than %d", MAX_ALIASES);
		return -1;
	}
	t->aliases = calloc(n + 1, sizeof *t->aliases);
	if (!t->aliases) {
		diag_file(d, t->p.file, "out of memory");
		return -2;
	}
	for (size_t i = 0; i < a->nopts; i++)
		if (!strcmp(a->opts[i].opt->name, "alias") &&
		    parse_alias(&t->p, a->opts[i].value ? a->opts[i].value : "", &t->aliases[t->s.naliases++], d) < 0)
			return -1;
	t->s.aliases = t->aliases;
	return 0;
}

/* Every -D names a `const` line of the program. */
static int defs_known(const tgt *t, const tgt_load *a, diag *d)
{
	for (size_t i = 0; i < a->ndefs; i++) {
		int k = 0;
		while (k < t->p.nconsts && strcmp(t->p.consts[k], a->defs[i].name))
			k++;
		if (k == t->p.nconsts) {
			usage(d, "-D %s=%" PRId64 ": no 'const %s' in %s", a->defs[i].name, a->defs[i].value,
			      a->defs[i].name, t->p.file);
			return -1;
		}
	}
	return 0;
}

/* ---- the life of a program ---- */

static void wr_free(uint64_t **wr, int n)
{
	for (int a = 0; wr && a < n; a++)
		free(wr[a]);
	free(wr);
}

/* One writer record per element (NSC_W_INIT: none yet). */
static uint64_t **wr_new(const nsc_program *p, const uint64_t *const *from)
{
	uint64_t **wr = calloc((size_t)p->narrays + 1, sizeof *wr);
	for (int a = 0; wr && a < p->narrays; a++) {
		wr[a] = calloc(p->arrays[a].count, sizeof **wr);
		if (!wr[a]) {
			wr_free(wr, p->narrays);
			return NULL;
		}
		if (from)
			memcpy(wr[a], from[a], p->arrays[a].count * sizeof **wr);
	}
	return wr;
}

/* A session from the machine's memory as it is. */
static int session_start(tgt *t, diag *d)
{
	t->ss = nsc_session_new(&t->p, &t->m, &t->s, &t->st, &t->sd);
	if (!t->ss) {
		*d = t->sd;
		return -1;
	}
	if (t->wr)
		nsc_session_track(t->ss, t->wr);
	return 0;
}

static void tn_close(tgt *t)
{
	if (!t)
		return;
	nsc_session_free(t->ss);
	wr_free(t->wr, t->p.narrays);
	if (t->ref_done)
		nsc_mem_free(&t->ref);
	nsc_mem_free(&t->m);
	nsc_mem_free(&t->init);
	nsc_program_free(&t->p);
	free(t->aliases);
	free(t->text);
	free(t->report);
	free(t);
}

static int parse_program(tgt *t, const tgt_load *a, diag *d)
{
	nsc_define *defs = calloc(a->ndefs + 1, sizeof *defs);
	t->text = malloc(a->len + 1);
	if (!defs || !t->text || a->ndefs > INT32_MAX) {
		free(defs);
		diag_file(d, a->path, "out of memory");
		return -1;
	}
	memcpy(t->text, a->text, a->len);
	t->text[a->len] = 0;
	t->len = a->len;
	for (size_t i = 0; i < a->ndefs; i++)
		defs[i] = (nsc_define){ a->defs[i].name, a->defs[i].value };
	int rc = nsc_parse(a->path, a->text, a->len, defs, (int)a->ndefs, &t->p, d);
	free(defs);
	return rc;
}

static tgt *tn_open(const tgt_load *a, tgt_status *st, diag *d)
{
	diag_clear(d);
	tgt *t = calloc(1, sizeof *t);
	if (t)
		t->path = a->path;
	if (!t) {
		diag_file(d, a->path, "out of memory");
		*st = TGT_FAILED;
		return NULL;
	}
	nsc_settings_default(&t->s);
	*st = TGT_USAGE;
	if (apply_settings(t, a, d) < 0)
		goto fail;
	*st = TGT_FAILED;
	if (parse_program(t, a, d) < 0)
		goto fail;
	*st = TGT_USAGE;
	int r = defs_known(t, a, d);
	if (r == 0)
		r = resolve_aliases(t, a, d);
	if (r < 0) {
		*st = r == -2 ? TGT_FAILED : TGT_USAGE; /* -2: out of memory */
		goto fail;
	}
	*st = TGT_FAILED;
	t->check = a->check;
	if (nsc_mem_init(&t->init, &t->p, d) < 0 || nsc_mem_copy(&t->m, &t->init, d) < 0)
		goto fail;
	if (t->check && !(t->wr = wr_new(&t->p, NULL))) {
		diag_file(d, a->path, "out of memory for the writers of --check");
		goto fail;
	}
	if (session_start(t, d) < 0)
		goto fail;
	*st = TGT_OK;
	return t;
fail:
	tn_close(t);
	return NULL;
}

/* ---- arrays ---- */

static size_t tn_narrays(const tgt *t)
{
	return (size_t)t->p.narrays;
}

static void tn_array(const tgt *t, size_t i, tgt_array *out)
{
	const nsc_array *a = &t->p.arrays[i];
	memset(out, 0, sizeof *out);
	snprintf(out->name, sizeof out->name, "%s", a->name);
	out->type = type_of(a->type);
	out->ndim = 1;
	out->shape[0] = out->length = a->count;
}

static void tn_array_get(tgt *t, size_t i, uint64_t first, uint64_t n, uint64_t *bits)
{
	for (uint64_t k = 0; k < n && first + k < t->p.arrays[i].count; k++)
		bits[k] = nsc_mem_bits(&t->m, (int)i, first + k);
}

/* What the reference and the baseline were made from changed. */
static void init_changed(tgt *t)
{
	if (t->ref_done)
		nsc_mem_free(&t->ref);
	t->ref_done = false;
	t->base_done = 0;
}

/* Element i of array a set from outside the machine: before the first
 * step it is the program's initial value (what -l does), after it a
 * change of the machine only, which --check then names. */
static void set_elem(tgt *t, int a, uint64_t i, uint64_t bits)
{
	nsc_mem_set_bits(&t->m, a, i, bits);
	if (t->steps == 0) {
		nsc_mem_set_bits(&t->init, a, i, bits);
		init_changed(t);
	} else if (t->wr) {
		t->wr[a][i] = NSC_WHO(NSC_W_SET, 0, nsc_session_iters(t->ss));
	}
}

static tgt_status tn_array_set(tgt *t, size_t i, uint64_t first, uint64_t n, const uint64_t *bits, diag *d)
{
	const nsc_array *a = &t->p.arrays[i];
	if (first > a->count || n > a->count - first) {
		usage(d, "%s: elements %" PRIu64 " to %" PRIu64 " are past its %" PRIu64, a->name, first,
		      first + n - 1, a->count);
		return TGT_USAGE;
	}
	for (uint64_t k = 0; k < n; k++)
		set_elem(t, (int)i, first + k, bits[k]);
	return TGT_OK;
}

/* ---- stepping ---- */

static bool tn_ended(const tgt *t)
{
	return t->failed || nsc_session_ended(t->ss);
}

/* One engine step. */
static tgt_status one_step(tgt *t, diag *d)
{
	if (t->failed) {
		*d = t->sd;
		return TGT_FAILED;
	}
	nsc_step ev;
	int rc = nsc_session_step(t->ss, &ev);
	if (rc < 0) {
		t->failed = true;
		*d = t->sd;
		return TGT_FAILED;
	}
	if (rc == 0) {
		diag_file(d, t->p.file, "the program has ended");
		return TGT_FAILED;
	}
	t->steps++;
	t->stmts += ev.ev == NSC_EV_STMT || ev.ev == NSC_EV_END;
	t->last = ev;
	t->has_last = true;
	return TGT_OK;
}

static tgt_status tn_step_unit(tgt *t, unsigned u, diag *d)
{
	diag_clear(d);
	int ri;
	uint64_t next, n;
	const uint64_t iters = nsc_session_iters(t->ss), stmts = t->stmts;
	do {
		tgt_status st = one_step(t, d);
		if (st != TGT_OK)
			return st;
	} while (!tn_ended(t) && ((u == U_ITER && nsc_session_iters(t->ss) == iters) ||
				   (u == U_STMT && t->stmts == stmts && nsc_session_region(t->ss, &ri, &next, &n))));
	return TGT_OK;
}

static uint64_t tn_count(const tgt *t, unsigned u)
{
	return u == U_STEP ? t->steps : u == U_ITER ? nsc_session_iters(t->ss) : t->stmts;
}

/* The statement at the position, as written. */
static void stmt_loc(tgt *t, int pc, tgt_loc *loc)
{
	const nsc_stmt *s = &t->p.st[pc];
	char line[200];
	loc->line = (unsigned)s->line;
	loc->col = (unsigned)s->col;
	source_line(t, s->line, line, sizeof line);
	snprintf(loc->what, sizeof loc->what, "%s%s", s->kind == NSC_ST_STREAMS ? "s_cfg: " : "", line);
}

static bool tn_where(tgt *t, unsigned u, tgt_loc *loc)
{
	memset(loc, 0, sizeof *loc);
	if (tn_ended(t))
		return false;
	int ri;
	uint64_t next, n;
	const bool in = nsc_session_region(t->ss, &ri, &next, &n);
	const int pc = nsc_session_pc(t->ss);
	loc->file = t->p.file;
	loc->index = tn_count(t, u);
	if (u == U_STMT || !in) {
		if (u == U_ITER)
			return false;
		stmt_loc(t, pc, loc);
		return true;
	}
	const nsc_region *r = &t->p.rg[ri];
	loc->line = (unsigned)r->line;
	loc->col = (unsigned)r->col;
	if (next < n) {
		snprintf(loc->what, sizeof loc->what, "s_step %" PRIu64 "%s of region %d (iteration %" PRIu64
			 " of the run)", next, n == UINT64_MAX ? " (or s_end: a chase)" : "", ri,
			 nsc_session_iters(t->ss));
		return true;
	}
	if (u == U_ITER)
		return false;
	snprintf(loc->what, sizeof loc->what, "s_end of region %d after %" PRIu64 " iterations", ri, next);
	return true;
}

static const char *tn_source(const tgt *t)
{
	return t->p.file;
}

static const tgt_unit units[] = {
	{ "step", "steps" },             /* an engine step: a core statement, s_cfg, one s_step, s_end */
	{ "iteration", "iterations" },   /* one s_step committed (the steps up to it) */
	{ "statement", "statements" },   /* a core statement, or a whole region */
};

/* ---- check ---- */

/* Who last wrote element i of array a, as words. */
static void writer_text(const tgt *t, int a, uint64_t i, char *buf, size_t n)
{
	const nsc_program *p = &t->p;
	if (!t->wr) {
		snprintf(buf, n, "its writer is not known");
		return;
	}
	const uint64_t w = t->wr[a][i];
	const unsigned id = NSC_WHO_ID(w);
	const uint64_t it = NSC_WHO_ITER(w);
	switch (NSC_WHO_KIND(w)) {
	case NSC_W_STORE:
		snprintf(buf, n, "last written by the core store at %s:%d:%d (after %" PRIu64 " region iterations)",
			 p->file, p->st[id].line, p->st[id].col, it);
		return;
	case NSC_W_STREAM: {
		const nsc_region *r = &p->rg[id / NSC_MAX_STREAMS];
		const nsc_stream *s = &r->s[id % NSC_MAX_STREAMS];
		snprintf(buf, n, "last written by the %s stream %s[...] at %s:%d:%d (region %u, iteration %" PRIu64
			 " of the run)", kind_name(s->kind), p->arrays[s->arr].name, p->file, s->line, s->col,
			 id / NSC_MAX_STREAMS, it);
		return;
	}
	case NSC_W_ALIAS:
		snprintf(buf, n, "last written by --alias %" PRIu64 ":%s[%" PRIu64 "] (before iteration %" PRIu64
			 " of the run)", t->s.aliases[id].iter, p->arrays[a].name, i, it);
		return;
	case NSC_W_SET:
		snprintf(buf, n, "last set from outside the machine (write or array_set), after %" PRIu64
			 " region iterations", it);
		return;
	default:
		snprintf(buf, n, "never written: its initial value");
	}
}

/* The reference's memory, run once from the initial memory. */
static int reference(tgt *t, diag *d)
{
	if (t->ref_done)
		return 0;
	if (nsc_mem_copy(&t->ref, &t->init, d) < 0)
		return -1;
	if (nsc_ref_run(&t->p, &t->ref, &t->s, d) < 0) {
		nsc_mem_free(&t->ref);
		return -1;
	}
	t->ref_done = true;
	return 0;
}

/* The first wrong element of array a, as the report and d say it. */
static void differs(tgt *t, int a, uint64_t i, diag *d)
{
	const nsc_array *ar = &t->p.arrays[a];
	const tgt_type ty = type_of(ar->type);
	char got[64], want[64], who[400];
	tgt_value_text(ty, nsc_mem_bits(&t->m, a, i), got, sizeof got);
	tgt_value_text(ty, nsc_mem_bits(&t->ref, a, i), want, sizeof want);
	writer_text(t, a, i, who, sizeof who);
	uint64_t bad = 0;
	const unsigned sz = nsc_type_size(ar->type);
	for (uint64_t k = i; k < ar->count; k++)
		bad += memcmp(t->m.data[a] + k * sz, t->ref.data[a] + k * sz, sz) != 0;
	free(t->report);
	t->report = malloc(1024);
	if (t->report)
		snprintf(t->report, 1024, "%s[%" PRIu64 "]: got %s, expected %s\n  %s\n  %" PRIu64
			 " of %" PRIu64 " elements of %s differ from the reference\n",
			 ar->name, i, got, want, who, bad, ar->count, ar->name);
	diag_file(d, t->p.file, "%s[%" PRIu64 "]: got %s, expected %s; %s", ar->name, i, got, want, who);
}

static tgt_status tn_check(tgt *t, diag *d)
{
	diag_clear(d);
	if (!t->check) {
		usage(d, "nsc: check needs --check when the program is opened");
		return TGT_USAGE;
	}
	if (!tn_ended(t) || t->failed) {
		diag_file(d, t->p.file, "check: the program has %s (%" PRIu64 " iterations so far); the reference "
			  "is of the whole run", t->failed ? "failed" : "not ended", nsc_session_iters(t->ss));
		return TGT_FAILED;
	}
	if (reference(t, d) < 0)
		return TGT_FAILED;
	for (int a = 0; a < t->p.narrays; a++) {
		int64_t i = nsc_mem_diff(&t->m, &t->ref, a);
		if (i >= 0) {
			differs(t, a, (uint64_t)i, d);
			return TGT_DIFFERS;
		}
	}
	return TGT_OK;
}

static const char *tn_report_text(const tgt *t)
{
	return t->report;
}

static tgt_status tn_run_all(tgt *t, diag *d)
{
	diag_clear(d);
	while (!tn_ended(t)) {
		tgt_status st = one_step(t, d);
		if (st != TGT_OK)
			return st;
	}
	if (t->failed) {
		*d = t->sd;
		return TGT_FAILED;
	}
	return t->check ? tn_check(t, d) : TGT_OK;
}

/* The line after a good run. */
static void tn_summary(tgt *t, char *buf, size_t size)
{
	const nsc_stats *s = &t->st;
	snprintf(buf, size, "%s: %" PRIu64 " region%s, %" PRIu64 " iterations, %" PRIu64 " streams "
		 "floated; %" PRIu64 " bytes, %" PRIu64 " byte-hops%s", t->path, s->regions,
		 s->regions == 1 ? "" : "s", s->iters, s->streams_floated, nsc_stats_bytes(s),
		 nsc_stats_byte_hops(s), t->check ? "; --check: every array equals the reference"
						  : "");
}

/* ---- statistics ---- */

static void stat_machine(const tgt *t, tgt_stat *root)
{
	const nsc_settings *s = &t->s;
	tgt_stat *g = tgt_stat_group(root, "machine", "machine");
	static const char *const fl[] = { "auto", "core", "bank" };
	tgt_stat_str(g, "float", fl[s->floating], "floating decision");
	tgt_stat_uint(g, "interleave", s->interleave, "interleave (bytes)");
	tgt_stat_str(g, "sync", s->sync_free ? "free" : "range", "synchronisation");
	tgt_stat_str(g, "nest", s->no_nest ? "off" : "on", "nested stream configurations");
	tgt_stat_uint(g, "range", s->range_iters, "iterations per range message");
	tgt_stat_uint(g, "window", s->window, "run-ahead window (iterations)");
	tgt_stat_uint(g, "cache", s->cache_bytes, "private cache (bytes)");
	tgt_stat_uint(g, "core", s->core_tile, "core's tile");
	tgt_stat_uint(g, "max_iters", s->max_iters ? s->max_iters : (uint64_t)1 << 32, "max-iters");
	tgt_stat_uint(g, "max_work", s->max_work, "max-work (0: none)");
	tgt_stat_uint(g, "aliases", (uint64_t)s->naliases, "injected stores (--alias)");
	tgt_stat_uint(g, "banks", NSC_BANKS, "L3 banks (8x8 mesh)");
}

/* Traffic by class, in bytes and bytes x hops.  The fig12_ keys are NSC
 * Fig 12's classes (coordination is offloaded traffic; nsc.h); the keys
 * without it keep the meaning format 2 gave them, infsim's first split,
 * where config, credit, done, commit, range and end were control. */
static void stat_traffic(tgt_stat *g, const nsc_stats *s)
{
	const uint64_t cb = nsc_stats_coord_bytes(s), ch = nsc_stats_coord_hops(s);
	tgt_stat_uint(g, "bytes", nsc_stats_bytes(s), NULL);
	tgt_stat_uint(g, "bytes_offloaded", s->bytes[NSC_C_OFFLOAD] - cb, "bytes offloaded");
	tgt_stat_uint(g, "bytes_control", s->bytes[NSC_C_CONTROL] + cb, "bytes control");
	tgt_stat_uint(g, "bytes_data", s->bytes[NSC_C_DATA], "bytes data");
	tgt_stat_uint(g, "byte_hops", nsc_stats_byte_hops(s), "byte-hops");
	tgt_stat_uint(g, "byte_hops_offloaded", s->byte_hops[NSC_C_OFFLOAD] - ch, "byte-hops offloaded");
	tgt_stat_uint(g, "byte_hops_control", s->byte_hops[NSC_C_CONTROL] + ch, "byte-hops control");
	tgt_stat_uint(g, "byte_hops_data", s->byte_hops[NSC_C_DATA], "byte-hops data");
	tgt_stat_uint(g, "fig12_bytes_offloaded", s->bytes[NSC_C_OFFLOAD], "Fig 12 bytes offloaded");
	tgt_stat_uint(g, "fig12_bytes_control", s->bytes[NSC_C_CONTROL], "Fig 12 bytes control");
	tgt_stat_uint(g, "fig12_bytes_data", s->bytes[NSC_C_DATA], "Fig 12 bytes data");
	tgt_stat_uint(g, "fig12_byte_hops_offloaded", s->byte_hops[NSC_C_OFFLOAD], "Fig 12 byte-hops offloaded");
	tgt_stat_uint(g, "fig12_byte_hops_control", s->byte_hops[NSC_C_CONTROL], "Fig 12 byte-hops control");
	tgt_stat_uint(g, "fig12_byte_hops_data", s->byte_hops[NSC_C_DATA], "Fig 12 byte-hops data");
	tgt_stat_uint(g, "byte_hops_sync", nsc_stats_sync_hops(s), "byte-hops of range-sync");
	tgt_stat_uint(g, "byte_hops_coordination", ch, "byte-hops of coordination");
}

/* The same program from the same memory with every stream at the core:
 * the traffic without offload (the baseline of `infsim nsc --stats`). */
static const nsc_stats *baseline(tgt *t)
{
	if (t->base_done == 0) {
		nsc_mem b;
		diag *d = &t->base_d;
		diag_clear(d);
		nsc_settings s = t->s;
		s.floating = NSC_FLOAT_CORE;
		t->base_done = -1;
		if (nsc_mem_copy(&b, &t->init, d) == 0) {
			if (nsc_run(&t->p, &b, &s, &t->base, d) == 0)
				t->base_done = 1;
			nsc_mem_free(&b);
		}
	}
	return t->base_done > 0 ? &t->base : NULL;
}

static void stat_counts(const nsc_stats *s, tgt_stat *root)
{
	tgt_stat *g = tgt_stat_group(root, "streams", "streams");
	tgt_stat_uint(g, "floated", s->streams_floated, NULL);
	tgt_stat_uint(g, "at_core", s->streams_core, "at the core");
	tgt_stat_uint(g, "elements_bank", s->elems_bank, "elements at the banks");
	tgt_stat_uint(g, "elements_core", s->elems_core, "elements at the core");
	const uint64_t u = s->uops_bank + s->uops_core;
	tgt_stat_uint(g, "uops_bank", s->uops_bank, "uops at the banks");
	tgt_stat_uint(g, "uops", u, "uops in all");
	tgt_stat_real(g, "uops_bank_percent", u ? 100.0 * (double)s->uops_bank / (double)u : 0.0,
		      "uops at the banks (%)");
	g = tgt_stat_group(root, "messages", "messages");
	for (int m = 0; m < NSC_NMSG; m++)
		tgt_stat_uint(g, nsc_msg_name((nsc_msg)m), s->msgs[m], NULL);
	/* byte-hops by kind of message: details (the JSON, --stats=full) */
	for (int m = 0; m < NSC_NMSG; m++) {
		char key[32];
		snprintf(key, sizeof key, "%s_byte_hops", nsc_msg_name((nsc_msg)m));
		tgt_stat_uint(g, key, s->msg_byte_hops[m], NULL);
		tgt_stat_detail(g, key);
	}
	g = tgt_stat_group(root, "sync", "synchronisation (in iterations)");
	tgt_stat_uint(g, "credits", s->credits, NULL);
	tgt_stat_uint(g, "done", s->dones, NULL);
	tgt_stat_uint(g, "commits", s->commits, NULL);
	g = tgt_stat_group(root, "events", "events");
	tgt_stat_uint(g, "aborts", s->aborts, NULL);
	tgt_stat_uint(g, "injected_stores", s->alias_stores, "injected stores");
	tgt_stat_uint(g, "atomic_locks", s->atomic_locks, "atomic locks");
	tgt_stat_uint(g, "partials", s->partials, NULL);
	g = tgt_stat_group(root, "core", "core");
	tgt_stat_uint(g, "cache_hits", s->cache_hits, "private cache hits");
	tgt_stat_uint(g, "cache_misses", s->cache_misses, "private cache misses");
	tgt_stat_uint(g, "loads", s->core_loads, "loads of core statements");
	tgt_stat_uint(g, "stores", s->core_stores, "stores of core statements");
}

static void stat_tiles(const nsc_stats *s, tgt_stat *root)
{
	tgt_stat *l = tgt_stat_list(root, "tiles", "tiles (bank b is tile b)", TGT_STAT_DETAIL);
	for (unsigned b = 0; b < NSC_BANKS; b++) {
		tgt_stat *r = tgt_stat_row(l);
		tgt_stat_uint(r, "tile", b, NULL);
		tgt_stat_uint(r, "elements", s->bank_elems[b], "stream elements");
		tgt_stat_uint(r, "messages_out", s->tile_msgs_out[b], "messages sent");
		tgt_stat_uint(r, "messages_in", s->tile_msgs_in[b], "messages received");
		tgt_stat_uint(r, "bytes_out", s->tile_bytes_out[b], "bytes sent");
		tgt_stat_uint(r, "bytes_in", s->tile_bytes_in[b], "bytes received");
	}
}

static void tn_stats_tree(tgt *t, tgt_stat *root)
{
	const nsc_stats *s = &t->st;
	stat_machine(t, root);
	tgt_stat *g = tgt_stat_group(root, "totals", "totals");
	uint64_t msgs = 0;
	for (int m = 0; m < NSC_NMSG; m++)
		msgs += s->msgs[m];
	tgt_stat_uint(g, "cycles", t->steps, "cycles (engine steps: no timing model)");
	tgt_stat_uint(g, "regions", s->regions, NULL);
	tgt_stat_uint(g, "iterations", s->iters, NULL);
	tgt_stat_uint(g, "statements", t->stmts, NULL);
	tgt_stat_uint(g, "messages", msgs, NULL);
	tgt_stat_uint(g, "bytes", nsc_stats_bytes(s), NULL);
	tgt_stat_uint(g, "byte_hops", nsc_stats_byte_hops(s), "byte-hops");
	stat_counts(s, root);
	g = tgt_stat_group(root, "traffic", "traffic");
	stat_traffic(tgt_stat_group(g, "offload", "with offload"), s);
	const nsc_stats *b = baseline(t);
	if (b) {
		stat_traffic(tgt_stat_group(g, "core_only", "every stream at the core (the whole run)"), b);
		const uint64_t bh = nsc_stats_byte_hops(b);
		tgt_stat_real(g, "byte_hops_ratio", bh ? (double)nsc_stats_byte_hops(s) / (double)bh : 0.0,
			      "byte-hops offload / core-only");
	} else if (strstr(t->base_d.msg, "out of memory")) {
		tgt_stat_failed(root);
	} else {
		tgt_stat_str(g, "core_only_error", t->base_d.msg, "every stream at the core failed");
	}
	stat_tiles(s, root);
}

/* ---- names: arrays, core scalars, constants, live streams, counters ---- */

static const char *const counters[] = { "cycles", "iterations", "regions", "statements", "messages", "bytes",
					"byte_hops", NULL };

static uint64_t counter(const tgt *t, size_t k)
{
	const nsc_stats *s = &t->st;
	uint64_t msgs = 0;
	for (int m = 0; m < NSC_NMSG; m++)
		msgs += s->msgs[m];
	const uint64_t v[] = { t->steps, s->iters, s->regions, t->stmts, msgs, nsc_stats_bytes(s),
			       nsc_stats_byte_hops(s) };
	return v[k];
}

/* Stream k of the region in progress named name: k, or -1. */
static int live_stream(const tgt *t, const char *name, nsc_stream_state *out)
{
	int ri;
	uint64_t next, n;
	if (!nsc_session_region(t->ss, &ri, &next, &n))
		return -1;
	const nsc_region *r = &t->p.rg[ri];
	for (int k = 0; k < region_streams(r); k++) {
		const bool valued = k == r->nstreams || r->s[k].kind == NSC_S_LOAD || r->s[k].kind == NSC_S_REDUCE;
		if (valued && !strcmp(stream_name(&t->p, r, k), name) && nsc_session_stream(t->ss, k, out))
			return k;
	}
	return -1;
}

static bool scalar(tgt_sym *out, unsigned kind, size_t i, tgt_type ty, bool writable)
{
	*out = (tgt_sym){ .is_array = false, .id = (size_t)kind << 24 | i, .type = ty, .length = 1,
			  .writable = writable };
	return true;
}

static bool tn_lookup(tgt *t, const char *name, tgt_sym *out)
{
	const nsc_program *p = &t->p;
	nsc_stream_state ss;
	int a = nsc_array_find(p, name);
	if (a >= 0) {
		*out = (tgt_sym){ .is_array = true, .id = (size_t)a, .type = type_of(p->arrays[a].type),
				  .length = p->arrays[a].count, .writable = true };
		return true;
	}
	int k = live_stream(t, name, &ss);
	if (k >= 0)
		return scalar(out, SYM_STREAM, (size_t)k, val_type(ss.value), false);
	for (int i = 0; i < p->nslots; i++)
		if (!strcmp(p->slots[i], name))
			return scalar(out, SYM_SLOT, (size_t)i, val_type(nsc_session_slot(t->ss, i)), true);
	for (int i = 0; i < p->nconsts; i++)
		if (!strcmp(p->consts[i], name))
			return scalar(out, SYM_CONST, (size_t)i, type_of(NSC_I64), false);
	for (size_t i = 0; counters[i]; i++)
		if (!strcmp(counters[i], name))
			return scalar(out, SYM_COUNTER, i, (tgt_type){ TGT_INT, 64, false, 0 }, false);
	return false;
}

static uint64_t tn_read(tgt *t, const tgt_sym *s, uint64_t index)
{
	if (s->is_array)
		return index < t->p.arrays[s->id].count ? nsc_mem_bits(&t->m, (int)s->id, index) : 0;
	const size_t i = s->id & 0xffffff;
	switch (s->id >> 24) {
	case SYM_SLOT: return val_bits(nsc_session_slot(t->ss, (int)i));
	case SYM_CONST: return (uint64_t)t->p.const_val[i];
	case SYM_COUNTER: return counter(t, i);
	default: {
		nsc_stream_state st;
		return nsc_session_stream(t->ss, (int)i, &st) ? val_bits(st.value) : 0;
	}
	}
}

static tgt_status tn_write(tgt *t, const tgt_sym *s, uint64_t index, uint64_t bits, diag *d)
{
	diag_clear(d);
	if (s->is_array && index < t->p.arrays[s->id].count) {
		set_elem(t, (int)s->id, index, bits);
		return TGT_OK;
	}
	if (!s->is_array && s->id >> 24 == SYM_SLOT) {
		const int i = (int)(s->id & 0xffffff);
		nsc_session_set_slot(t->ss, i, bits_val(nsc_session_slot(t->ss, i).k, bits));
		return TGT_OK;
	}
	usage(d, "nsc: %s", s->is_array ? "the index is past the array" : "this value cannot be changed");
	return TGT_USAGE;
}

static void tn_names(tgt *t, void (*each)(void *ctx, const char *name), void *ctx)
{
	const nsc_program *p = &t->p;
	for (int i = 0; i < p->narrays; i++)
		each(ctx, p->arrays[i].name);
	for (int i = 0; i < p->nslots; i++)
		each(ctx, p->slots[i]);
	for (int i = 0; i < p->nconsts; i++)
		each(ctx, p->consts[i]);
	for (size_t i = 0; counters[i]; i++)
		each(ctx, counters[i]);
	int ri;
	uint64_t next, n;
	if (!nsc_session_region(t->ss, &ri, &next, &n))
		return;
	const nsc_region *r = &p->rg[ri];
	for (int k = 0; k < region_streams(r); k++)
		if (k == r->nstreams || r->s[k].kind == NSC_S_LOAD)
			each(ctx, stream_name(p, r, k));   /* a reduction's name is a core scalar already */
}

/* ---- breakpoints ---- */

/* Does line hold a unit: a statement (not an `end`) or a stream? */
static bool line_has_unit(const nsc_program *p, int line)
{
	for (int i = 0; i < p->nst; i++)
		if (p->st[i].kind != NSC_ST_END && p->st[i].line == line)
			return true;
	for (int ri = 0; ri < p->nrg; ri++)
		for (int k = 0; k < p->rg[ri].nstreams; k++)
			if (p->rg[ri].s[k].line == line)
				return true;
	return false;
}

/* The line nearest to line that holds a unit (the later one of two), or 0. */
static int nearest_line(const nsc_program *p, int line)
{
	int best = 0;
	for (int i = 0; i < p->nst; i++)
		for (int k = -1; k < (p->st[i].kind == NSC_ST_STREAMS ? p->rg[p->st[i].ref].nstreams : 0); k++) {
			const int l = k < 0 ? p->st[i].line : p->rg[p->st[i].ref].s[k].line;
			const int dl = abs(l - line), db = abs(best - line);
			if (p->st[i].kind != NSC_ST_END && (!best || dl < db || (dl == db && l > best)))
				best = l;
		}
	return best;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

static tgt_status break_line(tgt *t, const char *spec, tgt_bp *bp, diag *d)
{
	const char *colon = strrchr(spec, ':'), *num = colon ? colon + 1 : spec;
	if (colon && (strlen(base_name(t->p.file)) != (size_t)(colon - base_name(spec)) ||
		      strncmp(base_name(spec), base_name(t->p.file), (size_t)(colon - base_name(spec))))) {
		usage(d, "break %s: the program's file is %s", spec, t->p.file);
		return TGT_USAGE;
	}
	uint64_t line;
	char why[80];
	if (number(num, 1, INT32_MAX, &line, why, sizeof why) < 0) {
		usage(d, "break %s: expected FILE:LINE, LINE, region N, region STREAM, iteration N or stream NAME "
		      "element K", spec);
		return TGT_USAGE;
	}
	if (!line_has_unit(&t->p, (int)line)) {
		const int near = nearest_line(&t->p, (int)line);
		diag_at(d, t->p.file, (int)line, 0, "no statement or stream at line %d; the nearest is line %d",
			(int)line, near);
		return TGT_USAGE;
	}
	*bp = (tgt_bp){ .kind = BP_LINE, .a = line };
	snprintf(bp->what, sizeof bp->what, "%s:%d", t->p.file, (int)line);
	return TGT_OK;
}

/* A region and stream of the program with a stream named name: 0, or -1. */
static int find_stream(const nsc_program *p, const char *name, int *ri, int *k)
{
	for (*ri = 0; *ri < p->nrg; (*ri)++)
		for (*k = 0; *k < region_streams(&p->rg[*ri]); (*k)++)
			if (!strcmp(stream_name(p, &p->rg[*ri], *k), name))
				return 0;
	return -1;
}

static tgt_status break_region(tgt *t, const char *spec, const char *arg, tgt_bp *bp, diag *d)
{
	const nsc_program *p = &t->p;
	uint64_t n;
	char why[80];
	int ri, k;
	if (arg[0] >= '0' && arg[0] <= '9') {
		if (!p->nrg) {
			usage(d, "break %s: the program has no stream regions", spec);
			return TGT_USAGE;
		}
		if (number(arg, 0, (uint64_t)p->nrg - 1, &n, why, sizeof why) < 0) {
			usage(d, "break %s: expected a region from 0 to %d", spec, p->nrg - 1);
			return TGT_USAGE;
		}
		*bp = (tgt_bp){ .kind = BP_REGION, .a = n };
		snprintf(bp->what, sizeof bp->what, "region %d (line %d)", (int)n, p->rg[n].line);
		return TGT_OK;
	}
	if (find_stream(p, arg, &ri, &k) < 0) {
		usage(d, "break %s: no region has a stream '%s'", spec, arg);
		return TGT_USAGE;
	}
	*bp = (tgt_bp){ .kind = BP_REGION_OF, .a = (uint64_t)ri * 16 + (uint64_t)k };
	snprintf(bp->what, sizeof bp->what, "region of stream %s", arg);
	return TGT_OK;
}

static tgt_status tn_break_parse(tgt *t, const char *spec, tgt_bp *bp, diag *d)
{
	char word[16], name[NSC_NAME_MAX], rest[2];
	unsigned long long k;
	int used = 0;
	int ri, s;
	diag_clear(d);
	memset(bp, 0, sizeof *bp);
	while (*spec == ' ' || *spec == '\t')
		spec++;
	if (sscanf(spec, "region %31s %1s", name, rest) == 1)
		return break_region(t, spec, name, bp, d);
	if (sscanf(spec, "iteration %n", &used) == 0 && used) {
		uint64_t n;
		char why[80];
		if (number(spec + used, 0, UINT64_MAX >> 1, &n, why, sizeof why) < 0) {
			usage(d, "break %s: %s", spec, why);
			return TGT_USAGE;
		}
		*bp = (tgt_bp){ .kind = BP_ITER, .a = n };
		snprintf(bp->what, sizeof bp->what, "iteration %" PRIu64, n);
		return TGT_OK;
	}
	if (sscanf(spec, "%15s", word) == 1 && !strcmp(word, "stream")) {
		if (sscanf(spec, "stream %31[A-Za-z0-9_] element %llu %1s", name, &k, rest) != 2) {
			usage(d, "break %s: expected stream NAME element K", spec);
			return TGT_USAGE;
		}
		if (find_stream(&t->p, name, &ri, &s) < 0) {
			usage(d, "break %s: no stream '%s' in %s", spec, name, t->p.file);
			return TGT_USAGE;
		}
		*bp = (tgt_bp){ .kind = BP_ELEM, .a = (uint64_t)ri * 16 + (uint64_t)s, .b = k };
		snprintf(bp->what, sizeof bp->what, "stream %s element %llu", name, k);
		return TGT_OK;
	}
	return break_line(t, spec, bp, d);
}

/* Has region r a stream named like stream a % 16 of region a / 16? */
static int named_in(const tgt *t, const nsc_region *r, uint64_t a)
{
	const char *name = stream_name(&t->p, &t->p.rg[a / 16], (int)(a % 16));
	for (int k = 0; k < region_streams(r); k++)
		if (!strcmp(stream_name(&t->p, r, k), name))
			return k;
	return -1;
}

static bool tn_break_hit(tgt *t, const tgt_bp *bp)
{
	if (tn_ended(t))
		return false;
	int ri;
	uint64_t next, n;
	const nsc_program *p = &t->p;
	if (!nsc_session_region(t->ss, &ri, &next, &n)) {
		const nsc_stmt *s = &p->st[nsc_session_pc(t->ss)];
		const bool cfg = s->kind == NSC_ST_STREAMS;
		return (bp->kind == BP_LINE && (uint64_t)s->line == bp->a) ||
		       (bp->kind == BP_REGION && cfg && (uint64_t)s->ref == bp->a) ||
		       (bp->kind == BP_REGION_OF && cfg && named_in(t, &p->rg[s->ref], bp->a) >= 0);
	}
	const nsc_region *r = &p->rg[ri];
	nsc_stream_state st;
	int k;
	switch (bp->kind) {
	case BP_LINE:
		for (k = 0; next < n && k < r->nstreams; k++)
			if ((uint64_t)r->s[k].line == bp->a)
				return true;
		return false;
	case BP_ITER:
		return next < n && nsc_session_iters(t->ss) == bp->a;
	case BP_ELEM:
		/* the s_step just done gave the stream that element */
		k = named_in(t, r, bp->a);
		return t->has_last && t->last.ev == NSC_EV_ITER && k >= 0 && nsc_session_stream(t->ss, k, &st) &&
		       st.has_elem && st.elem >= 0 && (uint64_t)st.elem == bp->b;
	default:
		return false;
	}
}

static const char break_help[] =
	"FILE:LINE or LINE (a statement: before it; a stream's line: before each s_step of its region), "
	"region N or region STREAM (before its s_cfg), iteration N (before the run's region iteration N), "
	"stream NAME element K (after the s_step that gave stream NAME element K)";

/* ---- snapshots: a real copy of the machine, its memory and counts ---- */

static size_t mem_bytes(const nsc_program *p, unsigned per_elem)
{
	size_t b = 0;
	for (int a = 0; a < p->narrays; a++)
		b += p->arrays[a].count * (per_elem ? per_elem : nsc_type_size(p->arrays[a].type));
	return b;
}

static void tn_snap_free(tgt_snap *s)
{
	if (!s)
		return;
	nsc_session_free(s->ss);
	if (s->m.data)
		wr_free(s->wr, s->m.p->narrays);
	nsc_mem_free(&s->m);
	free(s);
}

static tgt_snap *tn_save(tgt *t, diag *d)
{
	diag_clear(d);
	tgt_snap *s = calloc(1, sizeof *s);
	if (!s) {
		diag_file(d, t->p.file, "out of memory for a snapshot");
		return NULL;
	}
	if (nsc_mem_copy(&s->m, &t->m, d) < 0) {
		free(s);
		return NULL;
	}
	s->st = t->st;
	s->sd = t->sd;
	s->ss = nsc_session_copy(t->ss, &s->m, &s->st, &s->sd);
	if (!s->ss)
		*d = s->sd;
	if (s->ss && t->wr && !(s->wr = wr_new(&t->p, (const uint64_t *const *)t->wr)))
		diag_file(d, t->p.file, "out of memory for a snapshot");
	if (!s->ss || (t->wr && !s->wr)) {
		tn_snap_free(s);
		return NULL;
	}
	s->steps = t->steps;
	s->stmts = t->stmts;
	s->last = t->last;
	s->has_last = t->has_last;
	s->failed = t->failed;
	/* memory, writers, the private cache's lines (tag, age, dirty), the
	 * loops and the nests' statements, the floating history, the nests
	 * (about 420 bytes a region), a region's ring */
	s->bytes = sizeof *s + mem_bytes(&t->p, 0) + (t->wr ? mem_bytes(&t->p, 8) : 0) +
		   (size_t)(t->s.cache_bytes / NSC_LINE + 1) * 17 + ((size_t)t->p.nst + 1) * 28 +
		   ((size_t)t->p.nrg + 1) * ((NSC_MAX_STREAMS + 1) * 32 + 424) + ((size_t)t->s.window + 1) * 400;
	return s;
}

static tgt_status tn_restore(tgt *t, const tgt_snap *s, diag *d)
{
	diag_clear(d);
	diag sd = s->sd;
	nsc_session *ss = nsc_session_copy(s->ss, &t->m, &t->st, &t->sd);
	if (!ss) {
		*d = t->sd;
		return TGT_FAILED;
	}
	nsc_session_free(t->ss);   /* before the counts are copied: it counts a region it was in */
	t->ss = ss;
	t->sd = sd;
	t->st = s->st;
	for (int a = 0; a < t->p.narrays; a++) {
		const size_t n = t->p.arrays[a].count;
		memcpy(t->m.data[a], s->m.data[a], n * nsc_type_size(t->p.arrays[a].type));
		if (t->wr && s->wr)
			memcpy(t->wr[a], s->wr[a], n * sizeof **t->wr);
	}
	if (t->wr)
		nsc_session_track(ss, t->wr);
	t->steps = s->steps;
	t->stmts = s->stmts;
	t->last = s->last;
	t->has_last = s->has_last;
	t->failed = s->failed;
	return TGT_OK;
}

static size_t tn_snap_bytes(const tgt_snap *s)
{
	return s->bytes;
}

/* ---- infos and views ---- */

static void print_val(FILE *out, nsc_val v)
{
	char b[64];
	tgt_value_text(val_type(v), val_bits(v), b, sizeof b);
	fputs(b, out);
}

static void stream_line(tgt *t, const nsc_region *r, int k, FILE *out)
{
	nsc_stream_state s;
	if (!nsc_session_stream(t->ss, k, &s))
		return;
	static const char *const addr[] = { "affine", "indirect", "pointer", "" };
	fprintf(out, "  %-8s %-6s %-8s ", stream_name(&t->p, r, k), s.s ? kind_name(s.s->kind) : "chase",
		s.s ? addr[s.s->addr] : "pointer");
	if (s.floated && s.placed)
		fprintf(out, "bank %-2u ", s.bank);
	else
		fputs(s.floated ? "banks   " : "core    ", out);
	if (!s.has_elem) {
		fputs("not started", out);
	} else if (s.s && s.s->kind == NSC_S_REDUCE) {
		fputs("so far ", out);
		print_val(out, s.value);
	} else {
		fprintf(out, "at %s[%" PRId64 "]", t->p.arrays[s.arr].name, s.elem);
		if (!s.s || s.s->kind == NSC_S_LOAD) {
			fputs(" = ", out);
			print_val(out, s.value);
		}
		fprintf(out, " (bank %u)", s.elem_bank);
	}
	if (s.partials)
		fprintf(out, ", %u per-bank partials", s.partials);
	fprintf(out, ", %" PRIu64 " issued ahead", s.ahead);
	if (s.pending_bytes)
		fprintf(out, ", pending data %" PRIu64 " B from tile %u to tile %u (%s)", s.pending_bytes,
			s.pending_from, s.pending_to, nsc_class_name(s.pending_class));
	fputc('\n', out);
}

static int info_streams(tgt *t, const char *args, FILE *out, diag *d)
{
	(void)args;
	(void)d;
	int ri;
	uint64_t next, n;
	if (!nsc_session_region(t->ss, &ri, &next, &n)) {
		fprintf(out, "No stream region in progress (%" PRIu64 " iterations so far).\n",
			nsc_session_iters(t->ss));
		return 0;
	}
	const nsc_region *r = &t->p.rg[ri];
	fprintf(out, "region %d (line %d), next iteration %" PRIu64, ri, r->line, next);
	if (n != UINT64_MAX)
		fprintf(out, " of %" PRIu64, n);
	fputs(":\n", out);
	for (int k = 0; k < region_streams(r); k++)
		stream_line(t, r, k, out);
	return 0;
}

static int info_regions(tgt *t, const char *args, FILE *out, diag *d)
{
	(void)args;
	(void)d;
	int cur = -1;
	uint64_t next, n;
	if (!nsc_session_region(t->ss, &cur, &next, &n))
		cur = -1;
	if (!t->p.nrg)
		fputs("No stream regions.\n", out);
	for (int ri = 0; ri < t->p.nrg; ri++) {
		const nsc_region *r = &t->p.rg[ri];
		char line[200];
		source_line(t, r->line, line, sizeof line);
		fprintf(out, "%c region %d at %s:%d: %s:", ri == cur ? '*' : ' ', ri, t->p.file, r->line, line);
		for (int k = 0; k < region_streams(r); k++)
			fprintf(out, "%s %s %s", k ? "," : "", k < r->nstreams ? kind_name(r->s[k].kind) : "chase",
				stream_name(&t->p, r, k));
		fputc('\n', out);
	}
	return 0;
}

/* What an info prints, cut to a window of width x height. */
static void draw_info(tgt *t, int (*show)(tgt *, const char *, FILE *, diag *), FILE *out, unsigned width,
		      unsigned height)
{
	char *buf = NULL;
	size_t len = 0;
	diag d;
	diag_clear(&d);
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return;
	show(t, "", m, &d);
	fclose(m);
	unsigned row = 0;
	for (char *s = buf; s && *s && row < height; row++) {
		size_t k = strcspn(s, "\n");
		fprintf(out, "%.*s\n", (int)(k < width ? k : width), s);
		s += k + (s[k] == '\n');
	}
	free(buf);
}

static void view_streams(tgt *t, FILE *out, unsigned width, unsigned height)
{
	draw_info(t, info_streams, out, width, height);
}

static void view_regions(tgt *t, FILE *out, unsigned width, unsigned height)
{
	draw_info(t, info_regions, out, width, height);
}

static const tgt_info infos[] = {
	{ "streams", "each stream of the region in progress: engine, element, run-ahead, pending data",
	  info_streams },
	{ "regions", "the program's stream regions and their streams (* the one in progress)", info_regions },
	{ NULL, NULL, NULL },
};

static const tgt_view views[] = {
	{ "streams", "the streams of the region in progress", view_streams },
	{ "regions", "the program's stream regions", view_regions },
	{ NULL, NULL, NULL },
};

/* ---- the table ---- */

static const char *tn_why_not(unsigned can_bit)
{
	switch (can_bit) {
	case TGT_CAN_STRICT: return "near-stream computing has no hazards to stop at: range synchronisation "
				    "keeps program order";
	case TGT_CAN_THREADS: return "the stream engines run in one thread";
	default: return "near-stream computing does not take this option";
	}
}

static const char *const exts[] = { ".nsc", NULL };

/* A program on standard input is near-stream computing's when it has a
 * `streams` region. */
static bool claims(const char *head, size_t n)
{
	return tgt_head_has(head, n, "streams");
}

const tgt_ops tgt_nsc = {
	.name = "nsc",
	.title = "near-stream computing",
	.exts = exts,
	.claims = claims,
	.options = options,
	.settings_help = settings_help,
	.can = TGT_CAN_DEFINE | TGT_CAN_LOAD | TGT_CAN_SAVE | TGT_CAN_CHECK | TGT_CAN_MACHINE,
	.why_not = tn_why_not,
	.open = tn_open,
	.close = tn_close,
	.narrays = tn_narrays,
	.array = tn_array,
	.array_get = tn_array_get,
	.array_set = tn_array_set,
	.run = tn_run_all,
	.report = tn_report_text,
	.summary = tn_summary,
	.check = tn_check,
	.stats = tn_stats_tree,
	.units = units,
	.nunits = sizeof units / sizeof units[0],
	.step = tn_step_unit,
	.ended = tn_ended,
	.count = tn_count,
	.where = tn_where,
	.source = tn_source,
	.lookup = tn_lookup,
	.read = tn_read,
	.write = tn_write,
	.names = tn_names,
	.break_parse = tn_break_parse,
	.break_hit = tn_break_hit,
	.break_help = break_help,
	.save = tn_save,
	.restore = tn_restore,
	.snap_free = tn_snap_free,
	.snap_bytes = tn_snap_bytes,
	.infos = infos,
	.views = views,
};
