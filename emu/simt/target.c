/* SPDX-License-Identifier: MIT */
/*
 * target.c: Duality Cache's SIMT mode as an infsim target (tgt_simt;
 * target.h, doc/SIMT.md "As a target").
 *
 * The program is parsed with the mapping in force (-m mapping=), run on
 * the machine (machine.c) one bundle at a time, and with --check kept
 * against the thread-at-a-time reference (ref.c): at the end memory and
 * registers bit for bit, in the debugger's `check` memory after the CTAs
 * done so far.  The machine then remembers who last wrote each word and
 * register, so a difference is named with the instruction behind it.
 *
 * Units: a bundle (one issue of the running CB), a thread (bundles until
 * one the current thread takes part in has run), a CTA, a launch.  The
 * current thread is the scalar `thread`, which `set var` changes.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "launch.h"
#include "machine_int.h"
#include "ptx_int.h"
#include "ptxc.h"
#include "target.h"
#include "text.h"

struct tgt {
	char *path;            /* the parser keeps the pointer */
	char *text;            /* the program, for --fig13's translations */
	size_t len;
	simt_program p;
	simt_machine *m;
	int mapping;           /* SIMT_MAP_*: FILE, the program's own */
	bool ptx;              /* tgt_ptx: a PTX module, which has no .machine line */
	int latency;           /* PTX only: -m latency=, 0 unset (optimised), 1 baseline, 2 optimised */
	unsigned ctas;         /* -m ctas_per_cb=N, 0 unset (DC-PTX: the .machine line's) */
	bool check, bundles, fig13;
	bool failed;           /* a bundle stopped the run with an error */
	FILE *out;
	unsigned thread;       /* the current thread (of the running CTA) */
	/* What steps keep beside the machine (saved with it). */
	uint64_t instructions;
	uint64_t tcount[SIMT_CB_THREADS]; /* bundles each thread took part in */
	char *report;
	/* A PTX module (tgt_ptx): its launches and their arrays, which live
	 * in the machine's memory at their device addresses (p.init holds
	 * them as the run starts: the reference's input). */
	ptx_module *mod;
	ptx_plan plan;
	bool have_plan;
	char *launch;          /* --launch's text */
	char *launch_src;      /* where it came from: "--launch" or @FILE */
	size_t launch_len;
	simt_ptx_call *calls;
};

struct tgt_snap {
	simt_machine *m;
	uint32_t *init;
	uint64_t instructions;
	uint64_t tcount[SIMT_CB_THREADS];
	bool failed;
	size_t bytes;
};

enum { UNIT_BUNDLE, UNIT_THREAD, UNIT_CTA, UNIT_LAUNCH };
static const tgt_unit units[] = {
	{ "bundle", "bundles" }, { "thread", "thread steps" }, { "CTA", "CTAs" },
	{ "launch", "launches" },
};

/* ---- messages ---- */

/* An option's or a spec's message, which names it: no file. */
static void say(diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(diag *d, const char *fmt, ...)
{
	if (!d || d->set)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(d->msg, sizeof d->msg, fmt, ap);
	va_end(ap);
	d->set = true;
}

static tgt_type global_type(const simt_global *g)
{
	if (g->type == SIMT_F32)
		return (tgt_type){ .kind = TGT_F32, .width = 32 };
	return (tgt_type){ .kind = TGT_INT, .width = 32, .is_signed = g->type == SIMT_S32 };
}

static const tgt_type u32_type = { .kind = TGT_INT, .width = 32 };

/* ---- open, settings, options ---- */

/* mapping=VALUE, ctas_per_cb=N (and for a PTX module latency=VALUE), from
 * -m (how "-m"), a -c file (file set) or --mapping. */
static int apply_setting(tgt *t, const tgt_setting *s, const char *how, diag *d)
{
	const char *why = NULL;
	if (!strcmp(s->key, "ctas_per_cb")) {
		char *end;
		unsigned long v = s->value[0] >= '0' && s->value[0] <= '9' ? strtoul(s->value, &end, 10) : 0;
		if (v >= 1 && v <= SIMT_CB_THREADS && !*end)
			t->ctas = (unsigned)v;
		else
			why = "expected 1 to 1024 (the most CTAs a CB holds at once; default: as many as fit)";
	} else if (t->ptx && !strcmp(s->key, "latency")) {
		if (!strcmp(s->value, "baseline"))
			t->latency = 1;
		else if (!strcmp(s->value, "optimised"))
			t->latency = 2;
		else
			why = "expected baseline or optimised";
	} else if (strcmp(s->key, "mapping"))
		why = t->ptx ? "unknown setting (the PTX target's are mapping=vliw|serial, ctas_per_cb=N and latency=baseline|optimised)"
			     : "unknown setting (the SIMT mode's are mapping=vliw|serial and ctas_per_cb=N; the rest is the program's .machine line)";
	else if (!strcmp(s->value, "vliw"))
		t->mapping = SIMT_MAP_VLIW;
	else if (!strcmp(s->value, "serial"))
		t->mapping = SIMT_MAP_SERIAL;
	else
		why = "expected vliw or serial";
	if (!why)
		return 0;
	if (s->file)
		diag_at(d, s->file, (int)s->line, 0, "%s=%s: %s", s->key, s->value, why);
	else if (!strcmp(how, "--"))
		say(d, "--%s=%s: %s", s->key, s->value, why);
	else
		say(d, "-m %s=%s: %s", s->key, s->value, why);
	return -1;
}

static const tgt_option options[] = {
	{ "mapping", TGT_OPT_ARG | TGT_OPT_SETTING, "MAP",
	  "translate .thread kernels as MAP: vliw or serial (-m mapping=MAP)" },
	{ "bundles", 0, NULL, "print each kernel's bundles (how .thread kernels were translated) instead of running" },
	{ "fig13", 0, NULL, "also translate both ways, run and check both, print cycles and ratio (Fig 13)" },
	{ NULL, 0, NULL, NULL },
};

static const tgt_option ptx_options[] = {
	{ "launch", TGT_OPT_ARG, "LAUNCHES",
	  "the launches to run, in order: 'KERNEL<<<GRID,BLOCK>>>(ARGS)', or @FILE (doc/PTX.md, \"Launches\")" },
	{ "mapping", TGT_OPT_ARG | TGT_OPT_SETTING, "MAP",
	  "translate the kernels as MAP: vliw (bundles) or serial (one operation a bundle)" },
	{ "bundles", 0, NULL, "print each kernel's bundles (how it was translated) instead of running" },
	{ "fig13", 0, NULL, "also translate both ways, run and check both, print cycles and ratio (Fig 13)" },
	{ NULL, 0, NULL, NULL },
};

static int apply_options(tgt *t, const tgt_load *a, diag *d)
{
	for (size_t i = 0; i < a->nsettings; i++)
		if (apply_setting(t, &a->settings[i], "-m", d) < 0)
			return -1;
	for (size_t i = 0; i < a->nopts; i++) {
		const tgt_option *o = a->opts[i].opt;
		if (o->flags & TGT_OPT_SETTING) {
			tgt_setting s = { o->name, a->opts[i].value ? a->opts[i].value : "", NULL, 0, 0 };
			if (apply_setting(t, &s, "--", d) < 0)
				return -1;
		} else if (!strcmp(o->name, "bundles")) {
			t->bundles = true;
		} else if (!strcmp(o->name, "fig13")) {
			t->fig13 = true;
		} else if (!strcmp(o->name, "launch")) {
			if (t->launch) {
				say(d, "--launch: give it once (several launches go in one text, separated by ';')");
				return -1;
			}
			const char *v = a->opts[i].value ? a->opts[i].value : "";
			if (v[0] == '@') {
				if (text_read_file(v + 1, TEXT_FILE_MAX, &t->launch, &t->launch_len, d) < 0)
					return -1;
				t->launch_src = strdup(v + 1);
			} else {
				t->launch_len = strlen(v);
				t->launch = malloc(t->launch_len + 1);
				if (t->launch)
					memcpy(t->launch, v, t->launch_len + 1);
				t->launch_src = strdup("--launch");
			}
			if (!t->launch || !t->launch_src) {
				say(d, "--launch: out of memory");
				return -1;
			}
		} else {
			say(d, "--%s: not an option of the SIMT mode", o->name);
			return -1;
		}
	}
	if ((t->bundles || t->fig13) && !a->out) {
		say(d, "--%s: prints text, and there is no output to print it to here",
		    t->bundles ? "bundles" : "fig13");
		return -1;
	}
	return 0;
}

static void simt_close(tgt *t)
{
	if (!t)
		return;
	simt_machine_free(t->m);
	simt_program_free(&t->p);
	if (t->have_plan)
		ptx_plan_free(&t->plan);
	ptx_module_free(t->mod);
	free(t->launch);
	free(t->launch_src);
	free(t->calls);
	free(t->path);
	free(t->text);
	free(t->report);
	free(t);
}

static int ptx_setup(tgt *t, const tgt_load *a, diag *d);

static tgt *open_common(const tgt_load *a, bool ptx, tgt_status *st, diag *d)
{
	tgt *t = calloc(1, sizeof *t);
	if (!t) {
		diag_file(d, a->path, "out of memory");
		*st = TGT_FAILED;
		return NULL;
	}
	t->mapping = SIMT_MAP_FILE;
	t->ptx = ptx;
	t->check = a->check;
	t->out = a->out;
	*st = TGT_USAGE;
	if (apply_options(t, a, d) < 0)
		goto fail;
	*st = TGT_FAILED;
	t->path = strdup(a->path);
	t->text = malloc(a->len ? a->len : 1);
	if (!t->path || !t->text) {
		diag_file(d, a->path, "out of memory");
		goto fail;
	}
	memcpy(t->text, a->text, a->len);
	t->len = a->len;
	if (!ptx && t->launch) {
		say(d, "--launch: %s is DC-PTX, whose launches are its .launch lines", a->path);
		*st = TGT_USAGE;
		goto fail;
	}
	if (ptx) {
		tgt_status fail_st = t->launch ? TGT_FAILED : TGT_USAGE;
		if (ptx_setup(t, a, d) < 0) {
			*st = fail_st;
			goto fail;
		}
	} else if (simt_parse_mapped(t->path, t->text, t->len, t->mapping, &t->p, d) < 0) {
		goto fail;
	} else if (t->ctas) {
		t->p.ctas_per_cb = t->ctas;
	}
	bool any = false;
	for (size_t k = 0; k < t->p.nk; k++)
		any |= t->p.k[k].translated;
	if (t->fig13 && !any) {
		say(d, "--fig13 compares the two translations of .thread kernels, and %s has none: "
		    "its kernels are bundles as written, the same under either mapping", a->path);
		*st = TGT_USAGE;
		goto fail;
	}
	if (!(t->m = simt_machine_new(&t->p, d)) || (t->check && simt_machine_track(t->m, d) < 0))
		goto fail;
	*st = TGT_OK;
	return t;
fail:
	simt_close(t);
	return NULL;
}

/* ---- a PTX module ---- */

/* A program of the module's launches translated as mapping says, its
 * memory as it starts: the arrays' bytes from p.init (t->p is the one
 * running; a --fig13 translation copies the same input). */
static int ptx_program(tgt *t, int mapping, simt_program *q, diag *d)
{
	const ptx_plan *pl = &t->plan;
	if (simt_ptx_program(t->path, t->mod, t->calls, pl->nc, pl->base + pl->size,
			     mapping == SIMT_MAP_SERIAL ? SIMT_MAP_SERIAL : SIMT_MAP_VLIW, q, d) < 0)
		return -1;
	if (t->latency)
		q->latency_opt = t->latency == 2;
	if (t->ctas)
		q->ctas_per_cb = t->ctas;
	if (q != &t->p && t->p.init)
		memcpy((uint8_t *)q->init + pl->base, (const uint8_t *)t->p.init + pl->base, pl->size);
	return 0;
}

/* "saxpy(4 bytes, pointer, ...)" of each kernel, for the message that
 * asks for --launch. */
static void kernel_list(const ptx_module *m, char *buf, size_t size)
{
	size_t at = 0;
	buf[0] = 0;
	for (size_t k = 0; k < ptx_nkernels(m) && at + 1 < size; k++) {
		at += (size_t)snprintf(buf + at, size - at, "%s%s(", k ? ", " : "", ptx_kernel_name(m, k));
		for (size_t i = 0; i < ptx_nparams(m, k) && at + 1 < size; i++) {
			ptx_param_info pi = ptx_param(m, k, i);
			at += (size_t)snprintf(buf + at, size - at, "%s%s", i ? ", " : "",
					       pi.is_ptr ? "pointer" : pi.is_float ? (pi.size == 8 ? "f64" : "f32")
					       : pi.size == 8 ? "64-bit integer" : "32-bit integer");
		}
		if (at + 1 < size)
			at += (size_t)snprintf(buf + at, size - at, ")");
	}
}

static int ptx_setup(tgt *t, const tgt_load *a, diag *d)
{
	if (ptx_read(t->path, t->text, t->len, &t->mod, d) < 0)
		return -1;
	if (!t->launch) {
		char list[1024];
		kernel_list(t->mod, list, sizeof list);
		say(d, "%s: a PTX module runs with --launch 'KERNEL<<<GRID,BLOCK>>>(ARGS)' (doc/PTX.md, \"Launches\"); its kernels: %s",
		    t->path, list);
		return -1;
	}
	int rc = ptx_plan_parse(t->mod, t->launch_src, t->launch, t->launch_len, a->defs, a->ndefs,
				SIMT_MEM_MAX / 2, &t->plan, d);
	if (rc < 0)
		return -1;
	t->have_plan = true;
	const ptx_plan *pl = &t->plan;
	t->calls = calloc(pl->nc + 1, sizeof *t->calls);
	if (!t->calls) {
		diag_file(d, t->path, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < pl->nc; i++) {
		const ptx_call *c = &pl->c[i];
		t->calls[i] = (simt_ptx_call){ .kernel = c->kernel, .args = c->args, .nargs = c->nargs,
					       .line = c->line,
					       .gdim = { c->grid.x, c->grid.y, c->grid.z },
					       .bdim = { c->block.x, c->block.y, c->block.z } };
	}
	return ptx_program(t, t->mapping, &t->p, d);
}

static uint8_t mem_byte(const uint32_t *mem, uint64_t at)
{
	return (uint8_t)(mem[at / 4] >> (8 * (at % 4)));
}

static tgt *simt_open(const tgt_load *a, tgt_status *st, diag *d)
{
	return open_common(a, false, st, d);
}

static tgt *ptx_open(const tgt_load *a, tgt_status *st, diag *d)
{
	return open_common(a, true, st, d);
}

/* ---- arrays ---- */

static size_t simt_narrays(const tgt *t)
{
	return t->mod ? t->plan.na : t->p.ng;
}

static void simt_array(const tgt *t, size_t i, tgt_array *out)
{
	memset(out, 0, sizeof *out);
	if (t->mod) {
		*out = t->plan.a[i].arr;
		return;
	}
	const simt_global *g = &t->p.g[i];
	snprintf(out->name, sizeof out->name, "%s", g->name);
	out->type = global_type(g);
	out->ndim = 1;
	out->shape[0] = out->length = g->count;
}

static void simt_array_get(tgt *t, size_t i, uint64_t first, uint64_t n, uint64_t *bits)
{
	const uint32_t *mem = simt_machine_mem(t->m);
	if (t->mod) {
		const ptx_array *a = &t->plan.a[i];
		for (uint64_t k = 0; k < n; k++) {
			uint64_t v = 0;
			for (unsigned b = 0; first + k < a->arr.length && b < a->elem_bytes; b++)
				v |= (uint64_t)mem_byte(mem, a->addr + (first + k) * a->elem_bytes + b) << (8 * b);
			bits[k] = v;
		}
		return;
	}
	const simt_global *g = &t->p.g[i];
	for (uint64_t k = 0; k < n; k++)
		bits[k] = first + k < g->count ? mem[g->addr / 4 + first + k] : 0;
}

/* Before the first bundle a value is the program's input: the reference
 * starts from it too.  Later it is a change made to the machine alone. */
static void set_word(tgt *t, uint32_t w, uint32_t v)
{
	t->m->mem[w] = v;
	if (simt_machine_stats(t->m)->bundles == 0)
		t->p.init[w] = v;
	else
		simt_machine_mark_mem(t->m, w);
}

static tgt_status simt_array_set(tgt *t, size_t i, uint64_t first, uint64_t n,
				 const uint64_t *bits, diag *d)
{
	if (t->mod) {
		const ptx_array *a = &t->plan.a[i];
		if (first > a->arr.length || n > a->arr.length - first) {
			say(d, "%s: elements %" PRIu64 " to %" PRIu64 " are outside its %" PRIu64,
			    a->arr.name, first, first + n, a->arr.length);
			return TGT_FAILED;
		}
		for (uint64_t k = 0; k < n; k++)
			for (unsigned b = 0; b < a->elem_bytes; b++) {
				uint64_t at = a->addr + (first + k) * a->elem_bytes + b;
				uint32_t w = t->m->mem[at / 4], sh = 8 * (uint32_t)(at % 4);
				w = (w & ~(UINT32_C(0xff) << sh)) | (uint32_t)((bits[k] >> (8 * b)) & 0xff) << sh;
				set_word(t, (uint32_t)(at / 4), w);
			}
		return TGT_OK;
	}
	const simt_global *g = &t->p.g[i];
	if (first > g->count || n > g->count - first) {
		diag_at(d, t->path, g->line, 0, "%s: elements %" PRIu64 " to %" PRIu64
			" are outside its %u", g->name, first, first + n, g->count);
		return TGT_FAILED;
	}
	for (uint64_t k = 0; k < n; k++)
		set_word(t, g->addr / 4 + (uint32_t)(first + k), (uint32_t)bits[k]);
	return TGT_OK;
}

/* ---- stepping ---- */

static bool simt_ended(const tgt *t)
{
	return t->failed || t->m->launch >= t->p.nl;
}

/* One bundle, and what steps count beside the machine. */
static tgt_status step_bundle(tgt *t, diag *d)
{
	simt_where w;
	if (t->failed || !simt_machine_where(t->m, &w)) {
		diag_file(d, t->path, "the program has ended");
		return TGT_FAILED;
	}
	if (simt_machine_step(t->m, d) < 0) {
		t->failed = true;
		return TGT_FAILED;
	}
	t->instructions += t->p.k[w.kernel].b[w.pc].n;
	for (unsigned i = 0; i < SIMT_MASK_WORDS; i++)
		for (uint64_t b = w.active.w[i]; b; b &= b - 1)
			t->tcount[i * 64 + (unsigned)__builtin_ctzll(b)]++;
	return TGT_OK;
}

static uint64_t unit_count(const tgt *t, unsigned u)
{
	const simt_stats *s = simt_machine_stats(t->m);
	switch (u) {
	case UNIT_BUNDLE: return s->bundles;
	case UNIT_THREAD: return t->tcount[t->thread];
	case UNIT_CTA: return s->cb_runs;
	default: return t->m->launch;
	}
}

static tgt_status simt_step(tgt *t, unsigned u, diag *d)
{
	if (u >= sizeof units / sizeof *units) {
		diag_file(d, t->path, "no step unit %u (the SIMT mode has %zu)", u,
			  sizeof units / sizeof *units);
		return TGT_FAILED;
	}
	const uint64_t before = unit_count(t, u);
	tgt_status st = step_bundle(t, d);
	while (st == TGT_OK && u != UNIT_BUNDLE && unit_count(t, u) == before && !simt_ended(t))
		st = step_bundle(t, d);
	return st;
}

/* The bundle's text into buf (it may be cut). */
static void bundle_text(const tgt *t, const simt_bundle *b, char *buf, size_t size)
{
	FILE *f = fmemopen(buf, size, "w");
	buf[0] = 0;
	if (!f)
		return;
	simt_format_bundle(f, &t->p, b);
	fclose(f);
	buf[size - 1] = 0;
}

static void bundle_loc(const tgt *t, const simt_bundle *b, tgt_loc *loc)
{
	loc->file = t->path;
	loc->line = (unsigned)b->line;
	loc->col = b->n && b->in[0].line == b->line ? (unsigned)b->in[0].col : 1;
}

/* The CTAs the CB holds: "CTA 3", or "CTAs 0-3" when it holds several. */
static const char *ctas_text(const simt_where *w, char *buf, size_t size)
{
	if (w->ctas > 1)
		snprintf(buf, size, "CTAs %u-%u", w->cta, w->cta + w->ctas - 1);
	else
		snprintf(buf, size, "CTA %u", w->cta);
	return buf;
}

/* The thread on the CB's bitline th: "thread 37 of CTA 0", and when it is
 * another CTA's thread of another number, "thread 100 (thread 36 of CTA
 * 1)" (the debugger's threads are the CB's bitlines). */
static const char *thread_text(const simt_where *w, unsigned th, char *buf, size_t size)
{
	unsigned n = w->ntid ? w->ntid : 1;
	if (th < n)
		snprintf(buf, size, "thread %u of CTA %u", th, w->cta);
	else
		snprintf(buf, size, "thread %u (thread %u of CTA %u)", th, th % n, w->cta + th / n);
	return buf;
}

static bool simt_where_(tgt *t, unsigned u, tgt_loc *loc)
{
	simt_where w;
	memset(loc, 0, sizeof *loc);
	if (simt_ended(t) || !simt_machine_where(t->m, &w))
		return false;
	const simt_program *p = &t->p;
	const simt_kernel *k = &p->k[w.kernel];
	const simt_launch *l = &p->l[w.launch];
	char text[200], ctas[40];
	ctas_text(&w, ctas, sizeof ctas);
	if (u == UNIT_BUNDLE || u == UNIT_THREAD) {
		uint32_t pc = w.pc;
		if (u == UNIT_THREAD) {
			if (!simt_mask_bit(&w.live, t->thread))
				return false;
			pc = simt_machine_thread_pc(t->m, t->thread);
		}
		bundle_loc(t, &k->b[pc], loc);
		bundle_text(t, &k->b[pc], text, sizeof text);
		if (u == UNIT_BUNDLE) {
			loc->index = simt_machine_stats(t->m)->bundles;
			snprintf(loc->what, sizeof loc->what, "%s pc %u: %s (%s on CB %u, %u threads)",
				 k->name, pc, text, ctas, w.cb, simt_mask_count(&w.active));
		} else {
			loc->index = t->tcount[t->thread];
			snprintf(loc->what, sizeof loc->what, "thread %u %s at %s pc %u: %s", t->thread,
				 simt_mask_bit(&w.active, t->thread) ? "issues" : "waits", k->name, pc, text);
		}
		return true;
	}
	loc->file = t->mod ? t->launch_src : t->path;
	loc->line = (unsigned)l->line;
	loc->col = 1;
	if (t->mod && u != UNIT_CTA) {
		loc->index = w.launch;
		snprintf(loc->what, sizeof loc->what, "launch %u: %s<<<(%u,%u,%u),(%u,%u,%u)>>>", w.launch,
			 k->name, l->gdim[0], l->gdim[1], l->gdim[2], l->bdim[0], l->bdim[1], l->bdim[2]);
		return true;
	}
	if (u == UNIT_CTA) {
		loc->index = simt_machine_stats(t->m)->cb_runs;
		snprintf(loc->what, sizeof loc->what, "%s of %u of launch %u (%s) on CB %u", ctas,
			 l->grid, w.launch, k->name, w.cb);
	} else {
		loc->index = w.launch;
		snprintf(loc->what, sizeof loc->what, ".launch %s %u %u", k->name, l->grid, l->block);
	}
	return true;
}

static const char *simt_source(const tgt *t)
{
	return t->path;
}

/* ---- the reference and the report ---- */

static void set_report(tgt *t, const char *text)
{
	free(t->report);
	t->report = strdup(text);
}

/* "FILE:LINE:COL: INSTR (kernel K, pc N)" of a writer, or what set it. */
static void writer_text(const tgt *t, simt_writer w, char *buf, size_t size)
{
	unsigned kernel, slot;
	uint32_t pc;
	if (w.at == SIMT_WRITER_OUTSIDE) {
		snprintf(buf, size, "set from outside the program (a write or a load) during CTA run %u",
			 w.run);
		return;
	}
	if (!simt_writer_instr(t->m, w.at, &kernel, &pc, &slot)) {
		snprintf(buf, size, "not written by the program: the value it started with");
		return;
	}
	const simt_kernel *k = &t->p.k[kernel];
	const simt_instr *in = &k->b[pc].in[slot];
	char text[160];
	FILE *f = fmemopen(text, sizeof text, "w");
	text[0] = 0;
	if (f) {
		simt_format_instr(f, &t->p, in);
		fclose(f);
	}
	text[sizeof text - 1] = 0;
	snprintf(buf, size, "%s:%d:%d: %s (kernel %s, bundle %u, CTA run %u)", t->path, in->line,
		 in->col, text, k->name, pc, w.run);
}

/* Fill the report and d with the difference x. */
static tgt_status differs(tgt *t, const simt_diff *x, diag *d)
{
	char what[200], got[48], want[48], by[512], rep[1024];
	simt_writer w;
	if (x->reg) {
		snprintf(what, sizeof what, "r%u of thread %u of CTA %u", x->index, x->t, x->cta);
		tgt_value_text(u32_type, x->got, got, sizeof got);
		tgt_value_text(u32_type, x->want, want, sizeof want);
		/* the CB and bitline of the CTA's thread (the last launch's) */
		const simt_launch *l = &t->p.l[t->p.nl - 1];
		unsigned cb, slot;
		simt_cta_place(&t->p, l, x->cta, &cb, &slot);
		w = simt_machine_reg_writer(t->m, cb, slot * l->block + x->t, x->index);
	} else {
		uint32_t idx;
		const char *name = simt_word_owner(&t->p, x->word * 4, &idx);
		const simt_global *g = simt_global_find(&t->p, name);
		snprintf(what, sizeof what, "%s[%u]", name, idx);
		tgt_value_text(g ? global_type(g) : u32_type, x->got, got, sizeof got);
		tgt_value_text(g ? global_type(g) : u32_type, x->want, want, sizeof want);
		w = simt_machine_mem_writer(t->m, x->word);
	}
	writer_text(t, w, by, sizeof by);
	snprintf(rep, sizeof rep, "%s: got %s, expected %s (bits 0x%08x, 0x%08x)\n  last written by %s\n",
		 what, got, want, x->got, x->want, by);
	set_report(t, rep);
	diag_file(d, t->path, "%s: got %s, expected %s; last written by %s", what, got, want, by);
	return TGT_DIFFERS;
}

/* The PTX reference over the first n launches, from the memory the run
 * started with: its bytes of the device space in *mem.  0, or -1 with d. */
static int ptx_reference(tgt *t, const simt_program *q, size_t n, ptx_mem *mem, diag *d)
{
	const ptx_plan *pl = &t->plan;
	mem->bytes = NULL;
	mem->base = pl->base;
	mem->size = pl->size;
	mem->bytes = malloc(pl->size ? pl->size : 1);
	if (!mem->bytes) {
		diag_file(d, t->path, "out of memory");
		return -1;
	}
	memcpy(mem->bytes, (const uint8_t *)q->init + pl->base, pl->size);
	for (size_t i = 0; i < n; i++) {
		const ptx_call *c = &pl->c[i];
		ptx_launch l = { .kernel = c->kernel, .grid = c->grid, .block = c->block,
				 .args = c->args, .nargs = c->nargs };
		ptx_where w;
		diag e;
		diag_clear(&e);
		if (ptx_ref_run(t->mod, &l, mem, &w, &e) < 0) {
			diag_file(d, t->path, "the PTX reference stopped in launch %zu (%s), CTA (%u,%u,%u) thread (%u,%u,%u): %s",
				  i, ptx_kernel_name(t->mod, c->kernel), w.cta.x, w.cta.y, w.cta.z,
				  w.tid.x, w.tid.y, w.tid.z, e.msg);
			return -1;
		}
	}
	return 0;
}

/* The first element of the launches' arrays where the machine's memory
 * differs from the reference's: 1 and the report, or 0. */
static int ptx_first_diff(tgt *t, const simt_machine *m, const ptx_mem *mem, bool track, diag *d)
{
	const uint32_t *got = simt_machine_mem(m);
	for (size_t i = 0; i < t->plan.na; i++) {
		const ptx_array *a = &t->plan.a[i];
		for (uint64_t e = 0; e < a->arr.length; e++) {
			uint64_t g = 0, w = 0, at = a->addr + e * a->elem_bytes;
			for (unsigned b = 0; b < a->elem_bytes; b++) {
				g |= (uint64_t)mem_byte(got, at + b) << (8 * b);
				w |= (uint64_t)mem->bytes[at - mem->base + b] << (8 * b);
			}
			if (g == w)
				continue;
			tgt_array ta;
			simt_array(t, i, &ta);
			char what[400], by[512], rep[1024];
			tgt_mismatch_text(&ta, e, w, g, what, sizeof what);
			unsigned k = 0;
			while (k < a->elem_bytes && mem_byte(got, at + k) == mem->bytes[at - mem->base + k])
				k++;
			if (track)
				writer_text(t, simt_machine_mem_writer(m, (uint32_t)((at + k) / 4)), by, sizeof by);
			else
				snprintf(by, sizeof by, "(not tracked)");
			snprintf(rep, sizeof rep, "%s\n  last written by %s\n", what, by);
			set_report(t, rep);
			diag_file(d, t->path, "%s; last written by %s", what, by);
			return 1;
		}
	}
	return 0;
}

/* --check of a PTX module: between launches, the launches done so far
 * against the PTX reference's, element by element. */
static tgt_status ptx_compare(tgt *t, diag *d)
{
	size_t done = t->m->launch;
	if (!simt_ended(t) && (t->m->running || t->m->next_cta)) {
		say(d, "a PTX module is compared between launches, and launch %zu (%s) is running; "
		    "step to its end (`step launch`) first", done,
		    ptx_kernel_name(t->mod, t->plan.c[done].kernel));
		return TGT_USAGE;
	}
	ptx_mem mem;
	if (ptx_reference(t, &t->p, done, &mem, d) < 0) {
		free(mem.bytes);
		return TGT_FAILED;
	}
	int rc = ptx_first_diff(t, t->m, &mem, true, d);
	free(mem.bytes);
	if (rc)
		return TGT_DIFFERS;
	free(t->report);
	t->report = NULL;
	return TGT_OK;
}

/* Compare with the reference run over the CTAs the machine has done. */
static tgt_status compare_now(tgt *t, diag *d)
{
	if (!t->check) {
		say(d, "check: the program was not opened with --check");
		return TGT_USAGE;
	}
	if (t->mod)
		return ptx_compare(t, d);
	const simt_stats *s = simt_machine_stats(t->m);
	simt_ref *r = simt_ref_new(&t->p, d);
	if (!r || simt_ref_run_ctas(r, s->cb_runs, d) < 0) {
		simt_ref_free(r);
		return TGT_FAILED;
	}
	bool end = simt_ended(t);
	simt_diff x;
	int rc = simt_first_diff(t->m, r, end, end || !t->m->running ? 0 : (uint32_t)s->cb_runs + 1, &x);
	simt_ref_free(r);
	if (!rc) {
		free(t->report);
		t->report = NULL;
		return TGT_OK;
	}
	return differs(t, &x, d);
}

/* One translation for --fig13, from the same text and the same input
 * (the globals as -l left them), run and checked: its stats in *st. */
static tgt_status fig13_ptx(tgt *t, int mapping, simt_stats *st, diag *d)
{
	simt_program q;
	if (ptx_program(t, mapping, &q, d) < 0)
		return TGT_FAILED;
	tgt_status rc = TGT_FAILED;
	ptx_mem mem = { 0 };
	simt_machine *m = simt_machine_new(&q, d);
	if (m && simt_machine_run(m, d) == 0 && ptx_reference(t, &q, q.nl, &mem, d) == 0) {
		rc = ptx_first_diff(t, m, &mem, false, d) ? TGT_DIFFERS : TGT_OK;
		*st = *simt_machine_stats(m);
	}
	free(mem.bytes);
	simt_machine_free(m);
	simt_program_free(&q);
	return rc;
}

static tgt_status fig13_one(tgt *t, int mapping, simt_stats *st, diag *d)
{
	if (t->mod)
		return fig13_ptx(t, mapping, st, d);
	simt_program q;
	if (simt_parse_mapped(t->path, t->text, t->len, mapping, &q, d) < 0)
		return TGT_FAILED;
	if (t->ctas)
		q.ctas_per_cb = t->ctas;
	for (size_t i = 0; i < q.ng && i < t->p.ng; i++)
		memcpy(&q.init[q.g[i].addr / 4], &t->p.init[t->p.g[i].addr / 4], q.g[i].count * 4u);
	tgt_status rc = TGT_FAILED;
	simt_machine *m = simt_machine_new(&q, d);
	simt_ref *r = m && simt_machine_run(m, d) == 0 ? simt_ref_new(&q, d) : NULL;
	if (r && simt_ref_run(r, d) == 0) {
		rc = simt_compare(m, r, d) ? TGT_DIFFERS : TGT_OK;
		*st = *simt_machine_stats(m);
	}
	if (rc == TGT_DIFFERS) {
		char rep[DIAG_MAX + 32];
		snprintf(rep, sizeof rep, "fig13, mapping=%s: %s\n", mapping ? "serial" : "vliw", d->msg);
		set_report(t, rep);
	}
	simt_ref_free(r);
	simt_machine_free(m);
	simt_program_free(&q);
	return rc;
}

/* Fig 13: the program translated into VLIW bundles and serially, both
 * checked; their cycles and the ratio, as `infsim simt --fig13` printed. */
static tgt_status fig13(tgt *t, diag *d)
{
	simt_stats *v = malloc(2 * sizeof *v);
	if (!v) {
		diag_file(d, t->path, "out of memory");
		return TGT_FAILED;
	}
	tgt_status rc = fig13_one(t, SIMT_MAP_VLIW, &v[0], d);
	if (rc == TGT_OK)
		rc = fig13_one(t, SIMT_MAP_SERIAL, &v[1], d);
	if (rc == TGT_OK) {
		FILE *f = t->out;
		fprintf(f, "fig13: both translations match the thread-at-a-time reference\n");
		fprintf(f, "  %-8s %10s %14s %14s %8s %12s %10s %8s %8s\n", "mapping", "bundles",
			"compute cyc", "critical path", "copies", "memory cyc", "requests", "spills",
			"reloads");
		for (int i = 0; i < 2; i++)
			fprintf(f, "  %-8s %10" PRIu64 " %14" PRIu64 " %14" PRIu64 " %8" PRIu64 " %12" PRIu64
				" %10" PRIu64 " %8" PRIu64 " %8" PRIu64 "\n",
				i ? "serial" : "vliw", v[i].bundles, v[i].compute_cycles,
				v[i].critical_path, v[i].copies, v[i].memory_cycles, v[i].mem_requests,
				v[i].spills, v[i].reloads);
		fprintf(f, "  serial / vliw: %.2fx compute, %.2fx critical path, %.2fx memory requests\n",
			v[0].compute_cycles ? (double)v[1].compute_cycles / (double)v[0].compute_cycles : 0.0,
			v[0].critical_path ? (double)v[1].critical_path / (double)v[0].critical_path : 0.0,
			v[0].mem_requests ? (double)v[1].mem_requests / (double)v[0].mem_requests : 0.0);
	}
	free(v);
	return rc;
}

static tgt_status simt_run(tgt *t, diag *d)
{
	if (t->bundles) {
		for (size_t i = 0; i < t->p.nk; i++)
			simt_format_kernel(t->out, &t->p, &t->p.k[i]);
		return TGT_OK;
	}
	while (!simt_ended(t))
		if (step_bundle(t, d) != TGT_OK)
			return TGT_FAILED;
	if (t->failed) {
		diag_file(d, t->path, "the run stopped at an error");
		return TGT_FAILED;
	}
	tgt_status st = t->check ? compare_now(t, d) : TGT_OK;
	if (st == TGT_OK && t->fig13)
		st = fig13(t, d);
	return st;
}

static const char *simt_report_text(const tgt *t)
{
	return t->report;
}

/* ---- statistics ---- */

static double ratio(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0.0;
}

static void stats_machine(const tgt *t, tgt_stat *root)
{
	const simt_program *p = &t->p;
	tgt_stat *g = tgt_stat_group(root, "machine", "machine");
	tgt_stat_str(g, "mapping", p->serial ? "serial" : "vliw", "mapping of .thread kernels");
	tgt_stat_uint(g, "cbs", p->cbs, "control blocks");
	tgt_stat_uint(g, "ctas_per_cb", p->ctas_per_cb, "CTAs a CB at most (1024: all fit)");
	tgt_stat_str(g, "fp", p->ieee ? "ieee" : "ftz", "floating point");
	tgt_stat_str(g, "latency", p->latency_opt ? "optimised" : "baseline", "latencies");
	tgt_stat_uint(g, "max_bundles", p->max_bundles, "bundles a CB run may issue");
	tgt_stat_uint(g, "regs", p->regs, "registers of an array the translator allocates");
	tgt_stat_uint(g, "arrays_per_tb", SIMT_ARRAYS, "arrays of a TB (VLIW slots)");
	tgt_stat_uint(g, "threads_per_tb", SIMT_TB_THREADS, "threads of a TB (bitlines)");
	tgt_stat_uint(g, "tbs_per_cb", SIMT_TBS, "TBs of a CB");
	tgt_stat_uint(g, "threads_per_cb", SIMT_CB_THREADS, "threads of a CB");
	tgt_stat_uint(g, "wordlines", SIMT_WORDLINES, "wordlines of an array");
	tgt_stat_uint(g, "registers", SIMT_ARRAYS * simt_units(&t->p), "registers of a thread (32-bit units)");
	tgt_stat_uint(g, "predicates", SIMT_PREDS, "predicates of a thread");
	tgt_stat_uint(g, "line_bytes", SIMT_LINE_BYTES, "bytes of an MSHR line");
}

/* The numbers simt_report prints (report.c), one key each. */
/* Fig 9's "average number of active Control Blocks" of a kernel: the
 * CBs that hold all of a launch's CTAs at once, as many CTAs a CB as its
 * 1024 threads take (however many CBs the machine has), averaged over
 * the program's launches. */
static double active_cbs(const simt_program *p)
{
	double sum = 0;
	for (size_t i = 0; i < p->nl; i++) {
		const unsigned per = p->l[i].block ? SIMT_CB_THREADS / p->l[i].block : 1;
		sum += (double)((p->l[i].grid + per - 1) / (per ? per : 1));
	}
	return p->nl ? sum / (double)p->nl : 0;
}

static void stats_run(const tgt *t, const simt_stats *s, tgt_stat *root)
{
	tgt_stat *g = tgt_stat_group(root, "simt", "SIMT run");
	tgt_stat_uint(g, "launches", t->p.nl, "launches");
	tgt_stat_uint(g, "cta_runs", s->cb_runs, "CTA runs");
	tgt_stat_uint(g, "cb_runs", s->cb_groups, "CB runs (CTAs run together)");
	tgt_stat_uint(g, "bundles", s->bundles, "bundles issued");
	tgt_stat_uint(g, "compute_cycles", s->compute_cycles, "compute cycles");
	tgt_stat_uint(g, "baseline_cycles", s->baseline_cycles, "compute cycles at baseline latencies");
	tgt_stat_real(g, "baseline_ratio", ratio(s->baseline_cycles, s->compute_cycles),
		      "baseline / compute");
	tgt_stat_uint(g, "one_array_cycles", s->one_array_cycles, "one-array schedule cycles");
	tgt_stat_real(g, "one_array_ratio", ratio(s->one_array_cycles, s->compute_cycles),
		      "one-array / bundles");
	tgt_stat_uint(g, "memory_cycles", s->memory_cycles, "memory cycles");
	tgt_stat_uint(g, "critical_path", s->critical_path, "critical path (finished launches)");
	tgt_stat_uint(g, "slot_ops", s->slot_ops, "slots filled");
	tgt_stat_real(g, "slots_per_bundle", ratio(s->slot_ops, s->bundles), "slots a bundle");
	tgt_stat_real(g, "cb_utilisation_pct", 100.0 * ratio(s->thread_slots, s->lane_slots),
		      "CB lane occupancy (%)");
	tgt_stat_real(g, "active_cbs", active_cbs(&t->p), "active CBs a launch (Fig 9)");
	tgt_stat_uint(g, "mem_requests", s->mem_requests, "memory requests");
	tgt_stat_uint(g, "mem_lines", s->mem_lines, "lines");
	tgt_stat_uint(g, "mshr_merges", s->mshr_merges, "MSHR merges");
	tgt_stat_uint(g, "copies", s->copies, "copies");
	tgt_stat_uint(g, "spills", s->spills, "spills (st.local)");
	tgt_stat_uint(g, "reloads", s->reloads, "reloads (ld.local)");
	tgt_stat_uint(g, "shuffles", s->shuffles, "shuffles");
	tgt_stat_uint(g, "shuffle_lanes", s->shuffle_lanes, "words moved between threads");
	tgt_stat_uint(g, "jumps_taken", s->jumps_taken, "jumps taken");
	tgt_stat *list = tgt_stat_list(root, "commands", "per isa/ command (Fig 12)", 0);
	for (unsigned op = 0; op < 64 && op < ISA_OP_COUNT; op++) {
		if (!s->op_count[op])
			continue;
		tgt_stat *r = tgt_stat_row(list);
		tgt_stat_str(r, "command", isa_info_of(op)->name, "command");
		tgt_stat_str(r, "class", isa_class_of(op) == ISA_CLASS_F ? "f32" : "int", "class");
		tgt_stat_uint(r, "count", s->op_count[op], "count");
		tgt_stat_uint(r, "baseline_cycles", s->op_base[op], "baseline cycles");
		tgt_stat_uint(r, "run_cycles", s->op_opt[op], "run cycles");
		tgt_stat_real(r, "speedup", ratio(s->op_base[op], s->op_opt[op]), "speedup");
	}
}

static void simt_stats_fill(tgt *t, tgt_stat *root)
{
	const simt_stats *s = simt_machine_stats(t->m);
	stats_machine(t, root);
	tgt_stat *tot = tgt_stat_group(root, "totals", "totals");
	tgt_stat_uint(tot, "cycles", simt_machine_cycles(t->m), "cycles (critical path so far)");
	tgt_stat_uint(tot, "bundles", s->bundles, "bundles issued");
	tgt_stat_uint(tot, "instructions", t->instructions, "instructions issued");
	tgt_stat_uint(tot, "cta_runs", s->cb_runs, "CTA runs");
	tgt_stat_uint(tot, "launches", t->m->launch, "launches done");
	stats_run(t, s, root);
}

/* The line after a good run. */
static void simt_summary(tgt *t, char *buf, size_t size)
{
	const simt_stats *s = simt_machine_stats(t->m);
	snprintf(buf, size, "%s: %" PRIu64 " bundles, %" PRIu64 " instructions, %" PRIu64 " CTA "
		 "runs, %" PRIu64 " cycles%s", t->path, s->bundles, t->instructions, s->cb_runs,
		 simt_machine_cycles(t->m), !t->check ? "" : t->mod
		 ? "; --check: every array equals the PTX reference's"
		 : "; --check: memory and registers equal the thread-at-a-time reference");
}

/* ---- values ---- */

/* A scalar's id: what it is, whose (a thread, or CUR the current one),
 * and its number. */
enum { S_GLOBAL, S_REG, S_PRED, S_PC, S_SPECIAL, S_CYCLES, S_BUNDLES, S_INSTRUCTIONS,
       S_THREAD, S_CTA, S_CB, S_PTXREG };
#define CUR 0xfffu
static size_t sym_id(unsigned kind, unsigned thread, unsigned n)
{
	return (size_t)kind << 24 | (size_t)thread << 12 | n;
}
static unsigned sym_kind(size_t id) { return (unsigned)(id >> 24); }
static unsigned sym_thread(const tgt *t, size_t id)
{
	unsigned th = (unsigned)(id >> 12) & 0xfff;
	return th == CUR ? t->thread : th;
}
static unsigned sym_n(size_t id) { return (unsigned)id & 0xfff; }

static const char *const specials[] = { "%tid", "%ntid", "%ctaid", "%nctaid" };
static const char *const counters[] = { "cycles", "bundles", "instructions", "thread", "cta",
					 "cb" };

/* "NUMBER" in [0, max), the whole of s. */
static bool number_in(const char *s, unsigned max, unsigned *out)
{
	char *end;
	if (*s < '0' || *s > '9')
		return false;
	unsigned long v = strtoul(s, &end, 10);
	if (*end || v >= max)
		return false;
	*out = (unsigned)v;
	return true;
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

/* ---- PTX registers (tgt_ptx): where the translator left them ---- */

/* The kernel running, or the one of the last launch begun; false when
 * there is none. */
static bool cur_kernel(tgt *t, size_t *k)
{
	simt_where w;
	if (!simt_ended(t) && simt_machine_where(t->m, &w)) {
		*k = w.kernel;
		return true;
	}
	if (!t->p.nl)
		return false;
	size_t l = t->m->launch < t->p.nl ? t->m->launch : t->p.nl - 1;
	*k = t->p.l[l].kernel;
	return true;
}

/* The module's kernel that program kernel k was translated from. */
static const ptx_kernel *ptx_kernel_of(const tgt *t, size_t k)
{
	for (size_t i = 0; t->mod && i < t->mod->nk; i++)
		if (!strcmp(t->mod->k[i].name, t->p.k[k].name))
			return &t->mod->k[i];
	return NULL;
}

static const ptx_regrange *range_of(const ptx_kernel *pk, uint32_t r)
{
	for (size_t i = pk->nrr; i-- > 0;)
		if (r >= pk->rr[i].base && r < pk->rr[i].base + (pk->rr[i].count ? pk->rr[i].count : 1))
			return &pk->rr[i];
	return NULL;
}

/* A PTX register's type as its kernel declares it (.f32 a float, .s32
 * signed, .b32 and .u32 unsigned, .pred one bit). */
static tgt_type ptx_reg_type(const ptx_kernel *pk, uint32_t r)
{
	const ptx_regrange *g = range_of(pk, r);
	unsigned bits = pk->regbits[r];
	if (bits == 32 && g && g->kind == 'f')
		return (tgt_type){ .kind = TGT_F32, .width = 32 };
	return (tgt_type){ .kind = TGT_INT, .width = (uint8_t)bits, .is_signed = g && g->kind == 's' };
}

/* Where PTX register r of thread th is now (a SIMT_LOC_* code), or
 * SIMT_LOC_NONE with why set. */
static unsigned ptx_place(tgt *t, unsigned th, uint32_t r, uint32_t *pc, char *why, size_t size)
{
	size_t k;
	simt_where w;
	char name[40];
	*pc = 0;
	if (!cur_kernel(t, &k) || simt_ended(t) || !simt_machine_where(t->m, &w)) {
		snprintf(why, size, "no CTA is running: the program has ended");
		return SIMT_LOC_NONE;
	}
	const simt_kernel *sk = &t->p.k[k];
	const ptx_kernel *pk = ptx_kernel_of(t, k);
	if (pk)
		ptx_reg_name(pk, r, name, sizeof name);
	else
		snprintf(name, sizeof name, "register %u", (unsigned)r);
	char who[64];
	if (th >= w.ctas * w.ntid && w.ctas > 1) {
		snprintf(why, size, "%s: CB %u has no thread %u (its CTAs %u-%u of %u threads are threads 0 to %u)",
			 name, w.cb, th, w.cta, w.cta + w.ctas - 1, w.ntid, w.ctas * w.ntid - 1);
		return SIMT_LOC_NONE;
	}
	if (th >= w.ctas * w.ntid) {
		snprintf(why, size, "%s: CTA %u has no thread %u (its block has %u)", name, w.cta, th,
			 w.ntid);
		return SIMT_LOC_NONE;
	}
	if (!simt_mask_bit(&w.live, th)) {
		snprintf(why, size, "%s: %s has ended", name, thread_text(&w, th, who, sizeof who));
		return SIMT_LOC_NONE;
	}
	*pc = simt_machine_thread_pc(t->m, th);
	unsigned loc = SIMT_LOC_NONE;
	if (*pc < sk->n && sk->regloc && r < sk->nregloc)
		loc = sk->regloc[(size_t)*pc * sk->nregloc + r] & ~SIMT_LOC_NEW;
	if (loc == SIMT_LOC_NONE)
		snprintf(why, size, "%s of thread %u is not live at pc %u (%s:%d): no unit or home holds its value there",
			 name, th, *pc, base_name(t->path), *pc < sk->n ? sk->b[*pc].line : 0);
	return loc;
}

/* The bits of the value at loc (bits wide) of thread th. */
static uint64_t place_read(tgt *t, unsigned th, unsigned loc, unsigned bits)
{
	simt_machine *m = t->m;
	if (loc >= SIMT_LOC_HOME) {
		const simt_program *p = &t->p;
		uint32_t off = loc - SIMT_LOC_HOME;
		uint64_t v = 0;
		for (unsigned h = 0; h < (bits == 64 ? 2u : 1u); h++) {
			uint64_t a = p->local_addr + ((uint64_t)(m->cb.index * p->local_words + off / 4 + h) *
						      SIMT_CB_THREADS + th) * 4;
			v |= (uint64_t)m->mem[a / 4] << (32 * h);
		}
		return bits == 1 ? v != 0 : bits == 16 ? v & 0xffff : v;
	}
	if (loc >= SIMT_LOC_PRED)
		return simt_mask_bit(&m->cb.pred[loc - SIMT_LOC_PRED], th);
	uint64_t v = simt_port_read(m, m->cb.index, th, loc - SIMT_LOC_REG, bits == 64 ? 64 : 32);
	return bits == 16 ? v & 0xffff : v;
}

/* The value at loc (bits wide) of thread th := v. */
static void place_write(tgt *t, unsigned th, unsigned loc, unsigned bits, uint64_t v)
{
	simt_machine *m = t->m;
	if (bits == 16)
		v &= 0xffff;
	if (loc >= SIMT_LOC_HOME) {
		const simt_program *p = &t->p;
		uint32_t off = loc - SIMT_LOC_HOME;
		for (unsigned h = 0; h < (bits == 64 ? 2u : 1u); h++) {
			uint64_t a = p->local_addr + ((uint64_t)(m->cb.index * p->local_words + off / 4 + h) *
						      SIMT_CB_THREADS + th) * 4;
			set_word(t, (uint32_t)(a / 4), bits == 1 ? (v & 1) : (uint32_t)(v >> (32 * h)));
		}
		return;
	}
	if (loc >= SIMT_LOC_PRED) {
		simt_mask_put(&m->cb.pred[loc - SIMT_LOC_PRED], th, v & 1);
		return;
	}
	unsigned reg = loc - SIMT_LOC_REG;
	simt_port_write(m, m->cb.index, th, reg, v, bits == 64 ? 64 : 32);
	simt_machine_mark_reg(m, m->cb.index, th, reg);
	if (bits == 64)
		simt_machine_mark_reg(m, m->cb.index, th, reg + 1);
}

/* "in r16", "in p3", "at home (local +12)". */
static void place_text(unsigned loc, char *buf, size_t size)
{
	if (loc >= SIMT_LOC_HOME)
		snprintf(buf, size, "at home (local +%u)", loc - SIMT_LOC_HOME);
	else if (loc >= SIMT_LOC_PRED)
		snprintf(buf, size, "in p%u", loc - SIMT_LOC_PRED);
	else
		snprintf(buf, size, "in r%u", loc - SIMT_LOC_REG);
}

/* A PTX register of the running kernel (or, with none, of the first
 * kernel declaring it). */
static bool ptx_reg_sym(tgt *t, const char *name, unsigned thread, tgt_sym *out)
{
	size_t k;
	const ptx_kernel *pk = cur_kernel(t, &k) ? ptx_kernel_of(t, k) : NULL;
	uint32_t r = pk ? ptx_reg_lookup(pk, name) : PTX_NOREG;
	for (size_t i = 0; r == PTX_NOREG && !pk && t->mod && i < t->mod->nk; i++)
		if ((r = ptx_reg_lookup(&t->mod->k[i], name)) != PTX_NOREG)
			pk = &t->mod->k[i];
	if (r == PTX_NOREG || r > 0xfff)
		return false;
	*out = (tgt_sym){ false, sym_id(S_PTXREG, thread, r), ptx_reg_type(pk, r), 1, true };
	return true;
}

/* A thread's value: rN, pN, pc, or a special register. */
static bool thread_sym(tgt *t, const char *name, unsigned thread, tgt_sym *out)
{
	unsigned n;
	tgt_type one = { .kind = TGT_INT, .width = 1 };
	if (name[0] == '%' && t->mod && ptx_reg_sym(t, name, thread, out))
		return true;
	if (name[0] == 'r' && number_in(name + 1, SIMT_ARRAYS * simt_units(&t->p), &n))
		*out = (tgt_sym){ false, sym_id(S_REG, thread, n), u32_type, 1, true };
	else if (name[0] == 'p' && name[1] != 'c' && number_in(name + 1, SIMT_PREDS, &n))
		*out = (tgt_sym){ false, sym_id(S_PRED, thread, n), one, 1, true };
	else if (!strcmp(name, "pc"))
		*out = (tgt_sym){ false, sym_id(S_PC, thread, 0), u32_type, 1, false };
	else {
		for (n = 0; n < 4; n++)
			if (!strcmp(name, specials[n]) ||
			    (t->mod && !strncmp(name, specials[n], strlen(specials[n])) &&
			     !strcmp(name + strlen(specials[n]), ".x"))) {
				*out = (tgt_sym){ false, sym_id(S_SPECIAL, thread, n), u32_type, 1, false };
				return true;
			}
		return false;
	}
	return true;
}

static bool simt_lookup(tgt *t, const char *name, tgt_sym *out)
{
	const simt_global *g = simt_global_find(&t->p, name);
	if (g) {
		*out = (tgt_sym){ true, (size_t)(g - t->p.g), global_type(g), g->count, true };
		return true;
	}
	const ptx_array *pa = t->mod ? ptx_plan_array(&t->plan, name) : NULL;
	if (pa) {
		*out = (tgt_sym){ true, (size_t)(pa - t->plan.a), pa->arr.type, pa->arr.length, true };
		return true;
	}
	for (unsigned i = 0; i < sizeof counters / sizeof *counters; i++)
		if (!strcmp(name, counters[i])) {
			tgt_type u64 = { .kind = TGT_INT, .width = 64 };
			*out = (tgt_sym){ false, sym_id(S_CYCLES + i, 0, 0), i < 3 ? u64 : u32_type, 1,
					  i == 3 };
			return true;
		}
	/* THREAD.X or tTHREAD.X: thread THREAD's X */
	const char *dot = strchr(name, '.');
	if (dot && dot - name < 8 && name[0] != '%') {
		char num[8];
		const char *s = name[0] == 't' ? name + 1 : name;
		memcpy(num, s, (size_t)(dot - s));
		num[dot - s] = 0;
		unsigned th;
		return number_in(num, SIMT_CB_THREADS, &th) && thread_sym(t, dot + 1, th, out);
	}
	return thread_sym(t, name, CUR, out);
}

/* The running CTA (or the last one) holds the threads' values. */
static void ensure_cta(tgt *t)
{
	simt_where w;
	if (!simt_ended(t))
		simt_machine_where(t->m, &w);
}

static uint64_t simt_read(tgt *t, const tgt_sym *s, uint64_t index)
{
	if (s->is_array) {
		uint64_t v = 0;
		simt_array_get(t, s->id, index, 1, &v);
		return v;
	}
	ensure_cta(t);
	simt_machine *m = t->m;
	const unsigned th = sym_thread(t, s->id), n = sym_n(s->id);
	switch (sym_kind(s->id)) {
	case S_REG: return simt_machine_thread_reg(m, th, n);
	case S_PRED: return simt_mask_bit(&m->cb.pred[n], th);
	case S_PC: return simt_machine_thread_pc(m, th);
	case S_SPECIAL: /* the thread's own CTA's, th a bitline of the CB */
		return n == SIMT_TID ? simt_cb_tid(&m->cb, th) : n == SIMT_NTID ? m->cb.ntid
			: n == SIMT_CTAID ? simt_cb_cta(&m->cb, th) : m->cb.nctaid;
	case S_CYCLES: return simt_machine_cycles(m);
	case S_BUNDLES: return simt_machine_stats(m)->bundles;
	case S_INSTRUCTIONS: return t->instructions;
	case S_THREAD: return t->thread;
	case S_CTA: return simt_cb_cta(&m->cb, t->thread);
	case S_PTXREG: {
		uint32_t pc;
		char why[8];
		size_t k;
		unsigned loc = ptx_place(t, th, n, &pc, why, sizeof why);
		const ptx_kernel *pk = cur_kernel(t, &k) ? ptx_kernel_of(t, k) : NULL;
		return loc == SIMT_LOC_NONE || !pk ? 0 : place_read(t, th, loc, pk->regbits[n]);
	}
	default: return m->cb.index;
	}
}

/* The threads, for conditions tested thread by thread. */
static unsigned simt_thread_get(const tgt *t)
{
	return t->thread;
}

static void simt_thread_set(tgt *t, unsigned thread)
{
	if (thread < SIMT_CB_THREADS)
		t->thread = thread;
}

/* The threads the next bundle enables, in order. */
static unsigned simt_threads_here(tgt *t, unsigned *out, unsigned max)
{
	simt_where w;
	if (simt_ended(t) || !simt_machine_where(t->m, &w))
		return 0;
	unsigned n = 0;
	for (unsigned th = 0; th < SIMT_CB_THREADS && n < max; th++)
		if (simt_mask_bit(&w.active, th))
			out[n++] = th;
	return n;
}

/* A PTX register not live where its thread is cannot be read. */
static bool simt_unavailable(tgt *t, const tgt_sym *s, char *why, size_t size)
{
	if (s->is_array || sym_kind(s->id) != S_PTXREG)
		return false;
	uint32_t pc;
	return ptx_place(t, sym_thread(t, s->id), sym_n(s->id), &pc, why, size) == SIMT_LOC_NONE;
}

static tgt_status simt_write(tgt *t, const tgt_sym *s, uint64_t index, uint64_t bits, diag *d)
{
	if (s->is_array)
		return simt_array_set(t, s->id, index, 1, &bits, d);
	ensure_cta(t);
	simt_machine *m = t->m;
	const unsigned th = sym_thread(t, s->id), n = sym_n(s->id);
	switch (sym_kind(s->id)) {
	case S_REG:
		simt_port_write(m, m->cb.index, th, n, (uint32_t)bits, 32);
		simt_machine_mark_reg(m, m->cb.index, th, n);
		return TGT_OK;
	case S_PRED:
		simt_mask_put(&m->cb.pred[n], th, bits & 1);
		return TGT_OK;
	case S_THREAD:
		if (bits >= SIMT_CB_THREADS) {
			say(d, "thread: expected 0 to %d, not %" PRIu64, SIMT_CB_THREADS - 1, bits);
			return TGT_FAILED;
		}
		t->thread = (unsigned)bits;
		return TGT_OK;
	case S_PTXREG: {
		/* where the thread's value is now: its unit, latch or home */
		uint32_t pc;
		char why[256];
		size_t k;
		unsigned loc = ptx_place(t, th, n, &pc, why, sizeof why);
		const ptx_kernel *pk = cur_kernel(t, &k) ? ptx_kernel_of(t, k) : NULL;
		if (loc == SIMT_LOC_NONE || !pk) {
			say(d, "%s", why);
			return TGT_FAILED;
		}
		place_write(t, th, loc, pk->regbits[n], bits);
		return TGT_OK;
	}
	default:
		say(d, "this value is read-only (counters, pc and the special registers are)");
		return TGT_FAILED;
	}
}

static void simt_names(tgt *t, void (*each)(void *ctx, const char *name), void *ctx)
{
	char buf[16];
	for (size_t i = 0; i < t->p.ng; i++)
		each(ctx, t->p.g[i].name);
	for (size_t i = 0; t->mod && i < t->plan.na; i++)
		each(ctx, t->plan.a[i].arr.name);
	for (unsigned i = 0; i < sizeof counters / sizeof *counters; i++)
		each(ctx, counters[i]);
	for (unsigned r = 0; r < SIMT_ARRAYS * simt_units(&t->p); r++) {
		snprintf(buf, sizeof buf, "r%u", r);
		each(ctx, buf);
	}
	for (unsigned q = 0; q < SIMT_PREDS; q++) {
		snprintf(buf, sizeof buf, "p%u", q);
		each(ctx, buf);
	}
	each(ctx, "pc");
	for (unsigned i = 0; i < 4; i++)
		each(ctx, specials[i]);
	size_t k;
	const ptx_kernel *pk = t->mod && cur_kernel(t, &k) ? ptx_kernel_of(t, k) : NULL;
	char name[40];
	for (uint32_t r = 0; pk && r < pk->nregs; r++) {
		ptx_reg_name(pk, r, name, sizeof name);
		each(ctx, name);
	}
}

/* ---- breakpoints ---- */

enum { BP_LINE, BP_BUNDLE, BP_PC, BP_THREAD };

static bool bundle_on_line(const simt_bundle *b, unsigned line)
{
	if ((unsigned)b->line == line)
		return true;
	for (unsigned i = 0; i < b->n; i++)
		if ((unsigned)b->in[i].line == line)
			return true;
	return false;
}

/* A PTX program's line breakpoints and line steps go by the bundles'
 * own lines (the line of the instruction that opened each): a line
 * breakpoint stops at a bundle of the line that the bundle before it
 * is not on, where the line begins, not again at each of its bundles. */
static bool line_head(const simt_kernel *k, uint32_t pc, unsigned line)
{
	return (unsigned)k->b[pc].line == line && (pc == 0 || (unsigned)k->b[pc - 1].line != line);
}

/* The line nearest to line (the later of two as near) with a bundle or
 * one of its instructions on it (a PTX program: a bundle's own line),
 * or 0. */
static unsigned nearest_line(const tgt *t, unsigned line, bool *exact)
{
	unsigned best = 0;
	uint64_t dist = UINT64_MAX;
	*exact = false;
	for (size_t k = 0; k < t->p.nk; k++)
		for (size_t i = 0; i < t->p.k[k].n; i++) {
			const simt_bundle *b = &t->p.k[k].b[i];
			for (int j = -1; j < (t->mod ? 0 : (int)b->n); j++) {
				unsigned l = (unsigned)(j < 0 ? b->line : b->in[j].line);
				uint64_t dd = l > line ? l - line : line - l;
				if (dd < dist || (dd == dist && l > best))
					best = l, dist = dd;
			}
		}
	*exact = best == line && dist == 0;
	return best;
}

static tgt_status break_line(tgt *t, const char *spec, const char *file, const char *num,
			     tgt_bp *bp, diag *d)
{
	unsigned line;
	if (!number_in(num, UINT32_MAX, &line) || line == 0) {
		say(d, "break %s: expected a line number after '%s:'", spec, file ? file : "");
		return TGT_FAILED;
	}
	if (file && strcmp(file, t->path) && strcmp(base_name(file), base_name(t->path))) {
		say(d, "break %s: no source file '%s' (the program is %s)", spec, file, t->path);
		return TGT_FAILED;
	}
	bool exact;
	unsigned near = nearest_line(t, line, &exact);
	if (!exact) {
		diag_at(d, t->path, (int)line, 0,
			"no bundle on line %u; the nearest line with one is %u", line, near);
		return TGT_FAILED;
	}
	*bp = (tgt_bp){ .kind = BP_LINE, .a = line };
	snprintf(bp->what, sizeof bp->what, "%s:%u", base_name(t->path), line);
	return TGT_OK;
}

static tgt_status simt_break_parse(tgt *t, const char *spec, tgt_bp *bp, diag *d)
{
	static const char expected[] = "expected FILE:LINE, LINE, bundle N, pc N or thread T";
	while (*spec == ' ')
		spec++;
	size_t longest = 0;
	for (size_t k = 0; k < t->p.nk; k++)
		longest = t->p.k[k].n > longest ? t->p.k[k].n : longest;
	const char *arg;
	unsigned n;
	if (!strncmp(spec, "bundle ", 7)) {
		char *end;
		arg = spec + 7;
		uint64_t v = strtoull(arg, &end, 10);
		if (*arg < '0' || *arg > '9' || *end) {
			say(d, "break %s: expected a bundle number (bundles issued before it)", spec);
			return TGT_FAILED;
		}
		*bp = (tgt_bp){ .kind = BP_BUNDLE, .a = v };
		snprintf(bp->what, sizeof bp->what, "bundle %" PRIu64, v);
		return TGT_OK;
	}
	if (!strncmp(spec, "pc ", 3)) {
		if (!number_in(spec + 3, (unsigned)longest, &n)) {
			say(d, "break %s: expected a bundle index from 0 to %zu", spec, longest - 1);
			return TGT_FAILED;
		}
		*bp = (tgt_bp){ .kind = BP_PC, .a = n };
		snprintf(bp->what, sizeof bp->what, "pc %u", n);
		return TGT_OK;
	}
	if (!strncmp(spec, "thread ", 7)) {
		if (!number_in(spec + 7, SIMT_CB_THREADS, &n)) {
			say(d, "break %s: expected a thread from 0 to %d", spec, SIMT_CB_THREADS - 1);
			return TGT_FAILED;
		}
		*bp = (tgt_bp){ .kind = BP_THREAD, .a = n };
		snprintf(bp->what, sizeof bp->what, "thread %u", n);
		return TGT_OK;
	}
	const char *colon = strrchr(spec, ':');
	if (colon && colon > spec && colon - spec < 4096) {
		char file[4096];
		memcpy(file, spec, (size_t)(colon - spec));
		file[colon - spec] = 0;
		return break_line(t, spec, file, colon + 1, bp, d);
	}
	if (*spec >= '0' && *spec <= '9')
		return break_line(t, spec, NULL, spec, bp, d);
	say(d, "break %s: %s", spec, expected);
	return TGT_FAILED;
}

static bool simt_break_hit(tgt *t, const tgt_bp *bp)
{
	simt_where w;
	if (simt_ended(t) || !simt_machine_where(t->m, &w))
		return false;
	switch (bp->kind) {
	case BP_LINE:
		if (t->mod)
			return line_head(&t->p.k[w.kernel], w.pc, (unsigned)bp->a);
		return bundle_on_line(&t->p.k[w.kernel].b[w.pc], (unsigned)bp->a);
	case BP_BUNDLE: return simt_machine_stats(t->m)->bundles == bp->a;
	case BP_PC: return w.pc == bp->a;
	default: return simt_mask_bit(&w.active, (unsigned)bp->a);
	}
}

/* ---- snapshots: a real copy of the machine ---- */

static void simt_snap_free(tgt_snap *s)
{
	if (!s)
		return;
	simt_machine_free(s->m);
	free(s->init);
	free(s);
}

static tgt_snap *simt_save(tgt *t, diag *d)
{
	tgt_snap *s = calloc(1, sizeof *s);
	const size_t bytes = t->p.mem_bytes ? t->p.mem_bytes : 4;
	if (s && (s->m = simt_machine_new(&t->p, d)) != NULL && t->check &&
	    simt_machine_track(s->m, d) < 0) {
		simt_snap_free(s);
		return NULL;
	}
	if (s && s->m)
		s->init = malloc(bytes);
	if (!s || !s->m || !s->init) {
		simt_snap_free(s);
		diag_file(d, t->path, "out of memory for a snapshot");
		return NULL;
	}
	simt_machine_copy(s->m, t->m);
	if (t->p.mem_bytes)
		memcpy(s->init, t->p.init, t->p.mem_bytes);
	s->instructions = t->instructions;
	memcpy(s->tcount, t->tcount, sizeof s->tcount);
	s->failed = t->failed;
	s->bytes = sizeof *s + sizeof *s->m + t->m->s->store_bytes + 2 * bytes +
		   (t->check ? (t->p.mem_bytes / 4 + 1 + (size_t)t->p.cbs * SIMT_CB_THREADS * SIMT_REGS_MAX) *
			       sizeof(simt_writer) : 0);
	return s;
}

static tgt_status simt_restore(tgt *t, const tgt_snap *s, diag *d)
{
	(void)d;
	simt_machine_copy(t->m, s->m);
	if (t->p.mem_bytes)
		memcpy(t->p.init, s->init, t->p.mem_bytes);
	t->instructions = s->instructions;
	memcpy(t->tcount, s->tcount, sizeof t->tcount);
	t->failed = s->failed;
	return TGT_OK;
}

static size_t simt_snap_bytes(const tgt_snap *s)
{
	return s->bytes;
}

/* ---- infos and views ---- */

/* The threads of m among the first n as ranges "0-19 25", and how many. */
static unsigned print_ranges(FILE *out, const simt_mask *m, unsigned n)
{
	unsigned count = 0;
	for (unsigned t = 0; t < n; t++) {
		if (!simt_mask_bit(m, t) || (t && simt_mask_bit(m, t - 1)))
			continue;
		unsigned e = t;
		while (e + 1 < n && simt_mask_bit(m, e + 1))
			e++;
		fprintf(out, e > t ? " %u-%u" : " %u", t, e);
		count += e - t + 1;
	}
	return count;
}

/* Where the live threads that do not issue next wait: "pc N: K threads". */
static void print_waiting(tgt *t, const simt_where *w, FILE *out)
{
	bool any = false;
	for (uint32_t pc = 0; pc <= t->p.k[w->kernel].n; pc++) {
		simt_mask at = { { 0 } };
		for (unsigned th = 0; th < SIMT_CB_THREADS; th++)
			simt_mask_put(&at, th, simt_mask_bit(&w->live, th) &&
				      !simt_mask_bit(&w->active, th) &&
				      simt_machine_thread_pc(t->m, th) == pc);
		if (!simt_mask_any(&at))
			continue;
		fprintf(out, "waiting at pc %u:", pc);
		unsigned c = print_ranges(out, &at, SIMT_CB_THREADS);
		fprintf(out, " (%u threads)\n", c);
		any = true;
	}
	if (!any)
		fprintf(out, "waiting: none (no divergence)\n");
}

static bool running_where(tgt *t, simt_where *w, diag *d)
{
	if (simt_ended(t) || !simt_machine_where(t->m, w)) {
		say(d, "no CTA is running: the program has ended");
		return false;
	}
	return true;
}

static int info_threads(tgt *t, const char *args, FILE *out, diag *d)
{
	simt_where w;
	if (!running_where(t, &w, d))
		return -1;
	const unsigned ntid = t->p.l[w.launch].block, lanes = w.ctas * ntid;
	unsigned th = t->thread;
	if (args && *args && !number_in(args, SIMT_CB_THREADS, &th)) {
		say(d, "info threads %s: expected a thread from 0 to %d", args, SIMT_CB_THREADS - 1);
		return -1;
	}
	if (args && *args) {
		char tid[24] = "";
		if (th >= ntid)
			snprintf(tid, sizeof tid, "; thread %u", th % ntid);
		fprintf(out, "thread %u (TB %u, bitline %u%s) of CTA %u: %s, at pc %u\n", th,
			th / SIMT_TB_THREADS, th % SIMT_TB_THREADS, tid, w.cta + th / ntid,
			!simt_mask_bit(&w.live, th) ? "ended" : simt_mask_bit(&w.active, th) ? "issues next"
			: "waiting", simt_machine_thread_pc(t->m, th));
		for (unsigned r = 0; r < SIMT_ARRAYS * simt_units(&t->p); r++)
			fprintf(out, "  r%-2u 0x%08x%s", r, simt_machine_thread_reg(t->m, th, r),
				r % 4 == 3 ? "\n" : "");
		fprintf(out, "  predicates");
		for (unsigned q = 0; q < SIMT_PREDS; q++)
			fprintf(out, " p%u=%d", q, simt_mask_bit(&w.pred[q], th));
		fputc('\n', out);
		return 0;
	}
	char ctas[40];
	if (w.ctas > 1)
		fprintf(out, "%s of launch %u (%s) on CB %u, %u threads each (thread T is thread T %% %u of CTA %u + T / %u), current thread %u\n",
			ctas_text(&w, ctas, sizeof ctas), w.launch, t->p.k[w.kernel].name, w.cb, ntid,
			ntid, w.cta, ntid, t->thread);
	else
		fprintf(out, "CTA %u of launch %u (%s) on CB %u, %u threads, current thread %u\n", w.cta,
			w.launch, t->p.k[w.kernel].name, w.cb, ntid, t->thread);
	fprintf(out, "issuing pc %u:", w.pc);
	fprintf(out, " (%u threads)\n", print_ranges(out, &w.active, lanes));
	print_waiting(t, &w, out);
	simt_mask done = { { 0 } };
	for (unsigned i = 0; i < lanes; i++)
		simt_mask_put(&done, i, !simt_mask_bit(&w.live, i));
	if (simt_mask_any(&done)) {
		fprintf(out, "ended:");
		fprintf(out, " (%u threads)\n", print_ranges(out, &done, lanes));
	}
	return 0;
}

/* info registers [T]: thread T's (the current thread's) PTX registers
 * where it is, each with its value and where the machine holds it, or
 * why it has none. */
static int info_registers(tgt *t, const char *args, FILE *out, diag *d)
{
	simt_where w;
	if (!running_where(t, &w, d))
		return -1;
	unsigned th = t->thread;
	if (args && *args && !number_in(args, SIMT_CB_THREADS, &th)) {
		say(d, "info registers %s: expected a thread from 0 to %d", args, SIMT_CB_THREADS - 1);
		return -1;
	}
	const ptx_kernel *pk = ptx_kernel_of(t, w.kernel);
	if (!pk) {
		say(d, "info registers: kernel '%s' has no PTX registers", t->p.k[w.kernel].name);
		return -1;
	}
	uint32_t pc;
	char why[256], name[40], val[96], where[40];
	if (ptx_place(t, th, 0, &pc, why, sizeof why) == SIMT_LOC_NONE && pc == 0 &&
	    (th >= w.ctas * w.ntid || !simt_mask_bit(&w.live, th))) {
		say(d, "info registers: %s", strchr(why, ':') ? strchr(why, ':') + 2 : why);
		return -1;
	}
	pc = simt_machine_thread_pc(t->m, th);
	const simt_kernel *sk = &t->p.k[w.kernel];
	char who[64];
	fprintf(out, "%s %s at %s pc %u (%s:%d)\n", thread_text(&w, th, who, sizeof who),
		simt_mask_bit(&w.active, th) ? "issues" : "waits", sk->name, pc, base_name(t->path),
		pc < sk->n ? sk->b[pc].line : 0);
	for (uint32_t r = 0; r < pk->nregs; r++) {
		ptx_reg_name(pk, r, name, sizeof name);
		unsigned loc = ptx_place(t, th, r, &pc, why, sizeof why);
		if (loc == SIMT_LOC_NONE)
			continue;
		tgt_value_bits_text(ptx_reg_type(pk, r), place_read(t, th, loc, pk->regbits[r]), val,
				    sizeof val);
		place_text(loc, where, sizeof where);
		fprintf(out, "  %-8s %-28s %s\n", name, val, where);
	}
	/* the others, as one list */
	unsigned col = 0;
	for (uint32_t r = 0; r < pk->nregs; r++) {
		if (ptx_place(t, th, r, &pc, why, sizeof why) != SIMT_LOC_NONE)
			continue;
		ptx_reg_name(pk, r, name, sizeof name);
		if (!col || col + strlen(name) + 1 > 76) {
			fprintf(out, col ? "\n  not live:" : "  not live:");
			col = 11;
		}
		fprintf(out, " %s", name);
		col += (unsigned)strlen(name) + 1;
	}
	if (col)
		fputc('\n', out);
	return 0;
}

/* The label of slot k of a bundle: slot0..3, mem, then jump or exit. */
static const char *slot_label(const simt_bundle *b, unsigned k, char *buf, size_t size)
{
	if (k < SIMT_ARRAYS)
		snprintf(buf, size, "slot%u", k);
	else
		snprintf(buf, size, k == SIMT_SLOT_MEM ? "mem" :
			 b->n && b->in[b->n - 1].opc == SIMT_BRA ? "jump" : "exit");
	return buf;
}

static int info_divergence(tgt *t, const char *args, FILE *out, diag *d)
{
	(void)args;
	simt_where w;
	if (!running_where(t, &w, d))
		return -1;
	const unsigned ntid = w.ctas * t->p.l[w.launch].block; /* the CB's threads */
	const simt_bundle *b = &t->p.k[w.kernel].b[w.pc];
	simt_mask slot[SIMT_ARRAYS + 2];
	simt_where_slots(&t->p, &w, slot);
	char label[16], text[200];
	bundle_text(t, b, text, sizeof text);
	fprintf(out, "pc %u: %s\n", w.pc, text);
	for (unsigned k = 0; k <= SIMT_SLOT_CTL; k++) {
		fprintf(out, "%-6s", slot_label(b, k, label, sizeof label));
		fprintf(out, " (%u threads)\n", print_ranges(out, &slot[k], ntid));
	}
	fprintf(out, "here  ");
	fprintf(out, " (%u threads)\n", print_ranges(out, &w.active, ntid));
	print_waiting(t, &w, out);
	return 0;
}

/* The bundles of kernel k, "=>" before the one at mark (or none). */
static void list_bundles(tgt *t, const simt_kernel *k, size_t from, size_t to, int64_t mark,
			 FILE *out, unsigned width)
{
	char text[512];
	for (size_t i = from; i < to && i < k->n; i++) {
		bundle_text(t, &k->b[i], text, sizeof text);
		fprintf(out, "%s%4zu  %.*s\n", (int64_t)i == mark ? "=>" : "  ", i,
			width > 8 ? (int)width - 8 : 0, text);
	}
}

static int info_bundles(tgt *t, const char *args, FILE *out, diag *d)
{
	simt_where w;
	const simt_kernel *k = NULL;
	int64_t mark = -1;
	for (size_t i = 0; args && *args && i < t->p.nk; i++)
		if (!strcmp(t->p.k[i].name, args))
			k = &t->p.k[i];
	if (args && *args && !k) {
		say(d, "info bundles %s: no such kernel", args);
		return -1;
	}
	if (!simt_ended(t) && simt_machine_where(t->m, &w) && (!k || k == &t->p.k[w.kernel])) {
		k = &t->p.k[w.kernel];
		mark = w.pc;
	}
	if (!k) {
		for (size_t i = 0; i < t->p.nk; i++)
			simt_format_kernel(out, &t->p, &t->p.k[i]);
		return 0;
	}
	fprintf(out, "kernel %s (line %d), %zu bundles\n", k->name, k->line, k->n);
	list_bundles(t, k, 0, k->n, mark, out, 4096);
	return 0;
}

/* The first lines of text, each cut to width. */
static void put_cut(FILE *out, const char *text, unsigned width, unsigned lines)
{
	unsigned y = 0;
	for (const char *line = text; text && *line && y < lines; y++) {
		size_t n = strcspn(line, "\n");
		fprintf(out, "%.*s\n", (int)(n < width ? n : width), line);
		line += n + (line[n] == '\n');
	}
}

/* A view draws what an info prints, cut to the window. */
static void draw_cut(tgt *t, int (*show)(tgt *, const char *, FILE *, diag *), FILE *out,
		     unsigned width, unsigned height)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	if (!f)
		return;
	diag d;
	diag_clear(&d);
	if (show(t, "", f, &d) < 0)
		fprintf(f, "%s\n", d.msg);
	fclose(f);
	put_cut(out, buf, width, height);
	free(buf);
}

static void view_threads(tgt *t, FILE *out, unsigned width, unsigned height)
{
	draw_cut(t, info_threads, out, width, height);
}

/* The divergence view of the TUI: a line a slot, one character for as
 * many threads as the width needs ('#' all enabled, '+' some, '.' none
 * but live, ' ' none live), then the issuing threads and who waits. */
static void view_divergence(tgt *t, FILE *out, unsigned width, unsigned height)
{
	simt_where w;
	if (simt_ended(t) || !simt_machine_where(t->m, &w) || width < 8) {
		if (height)
			fprintf(out, "%.*s\n", (int)width, "the program has ended");
		return;
	}
	const unsigned ntid = w.ctas * t->p.l[w.launch].block, per = (ntid + width - 8) / (width - 7);
	const simt_bundle *b = &t->p.k[w.kernel].b[w.pc];
	simt_mask slot[SIMT_ARRAYS + 2];
	simt_where_slots(&t->p, &w, slot);
	char label[16];
	for (unsigned k = 0; k <= SIMT_SLOT_CTL + 1 && k < height; k++) {
		const simt_mask *on = k <= SIMT_SLOT_CTL ? &slot[k] : &w.active;
		fprintf(out, "%-7s", k <= SIMT_SLOT_CTL ? slot_label(b, k, label, sizeof label) : "here");
		for (unsigned c = 0; c * per < ntid; c++) {
			unsigned n_on = 0, n_live = 0;
			for (unsigned th = c * per; th < (c + 1) * per && th < ntid; th++) {
				bool l = simt_mask_bit(&w.live, th);
				n_live += l;
				n_on += l && simt_mask_bit(on, th);
			}
			fputc(!n_live ? ' ' : !n_on ? '.' : n_on == n_live ? '#' : '+', out);
		}
		fputc('\n', out);
	}
	if (height > SIMT_SLOT_CTL + 2) {
		char *buf = NULL;
		size_t size = 0;
		FILE *f = open_memstream(&buf, &size);
		if (f) {
			print_waiting(t, &w, f);
			fclose(f);
			put_cut(out, buf, width, height - (SIMT_SLOT_CTL + 2));
		}
		free(buf);
	}
}

/* The bundles around the PC, "=>" at the one issued next. */
static void view_bundles(tgt *t, FILE *out, unsigned width, unsigned height)
{
	simt_where w;
	if (simt_ended(t) || !simt_machine_where(t->m, &w)) {
		if (height)
			fprintf(out, "%.*s\n", (int)width, "the program has ended");
		return;
	}
	const simt_kernel *k = &t->p.k[w.kernel];
	int64_t first = (int64_t)w.pc - height / 2;
	if (first + height > (int64_t)k->n)
		first = (int64_t)k->n - height;
	if (first < 0)
		first = 0;
	list_bundles(t, k, (size_t)first, (size_t)first + height, w.pc, out, width);
}

static const tgt_info infos[] = {
	{ "threads", "info threads [T]: the running CTA's threads (issuing, waiting, ended), or thread T's registers", info_threads },
	{ "divergence", "info divergence: the threads each slot of the next bundle enables, and where the others wait", info_divergence },
	{ "bundles", "info bundles [KERNEL]: the kernel's bundles, => at the one issued next", info_bundles },
	{ NULL, NULL, NULL },
};

static const tgt_info ptx_infos[] = {
	{ "threads", "info threads [T]: the running CTA's threads (issuing, waiting, ended), or thread T's machine registers", info_threads },
	{ "divergence", "info divergence: the threads each slot of the next bundle enables, and where the others wait", info_divergence },
	{ "bundles", "info bundles [KERNEL]: the kernel's bundles, => at the one issued next", info_bundles },
	{ "registers", "info registers [T]: the current thread's (thread T's) PTX registers where it is: value and place, or not live", info_registers },
	{ NULL, NULL, NULL },
};

static const tgt_view views[] = {
	{ "divergence", "the threads each slot of the next bundle enables, and who waits where", view_divergence },
	{ "bundles", "the kernel's bundles around the PC", view_bundles },
	{ "threads", "the running CTA's threads", view_threads },
	{ NULL, NULL, NULL },
};

/* ---- the table ---- */

static const char *simt_why_not(unsigned bit)
{
	switch (bit) {
	case TGT_CAN_DEFINE: return "DC-PTX programs have no parameters";
	case TGT_CAN_STRICT: return "the SIMT machine has no hazards to stop at (a bundle's slots never depend on each other: the parser refuses it)";
	case TGT_CAN_THREADS: return "the SIMT machine runs on one host thread";
	default: return "the SIMT mode does not have it";
	}
}

static const char *const exts[] = { ".simt", NULL };

/* A program on standard input is DC-PTX when its first statement is a
 * directive (.machine, .global, .kernel, ...). */
static bool claims(const char *head, size_t n)
{
	char w[64];
	return tgt_head_word(head, n, 0, w, sizeof w) && w[0] == '.' && strcmp(w, ".version");
}

const tgt_ops tgt_simt = {
	.name = "simt",
	.title = "Duality Cache SIMT mode",
	.exts = exts,
	.claims = claims,
	.options = options,
	.settings_help = "mapping=vliw|serial  translate .thread kernels into VLIW bundles or one operation a bundle (default: the program's .machine mapping=); "
			 "ctas_per_cb=N  at most N CTAs a CB at once (default: the program's .machine ctas_per_cb=, else as many as fit)",
	.can = TGT_CAN_LOAD | TGT_CAN_SAVE | TGT_CAN_CHECK | TGT_CAN_MACHINE,
	.why_not = simt_why_not,
	.open = simt_open,
	.close = simt_close,
	.narrays = simt_narrays,
	.array = simt_array,
	.array_get = simt_array_get,
	.array_set = simt_array_set,
	.run = simt_run,
	.report = simt_report_text,
	.check = compare_now,
	.stats = simt_stats_fill,
	.summary = simt_summary,
	.units = units,
	.nunits = sizeof units / sizeof *units,
	.step = simt_step,
	.ended = simt_ended,
	.count = unit_count,
	.where = simt_where_,
	.source = simt_source,
	.lookup = simt_lookup,
	.read = simt_read,
	.write = simt_write,
	.names = simt_names,
	.break_parse = simt_break_parse,
	.break_hit = simt_break_hit,
	.break_help = "FILE:LINE, LINE (a line with a bundle or an instruction), bundle N (before the bundle issued N-th, from 0), pc N (before a bundle of index N of any kernel), thread T (before a bundle thread T takes part in)",
	.save = simt_save,
	.restore = simt_restore,
	.snap_free = simt_snap_free,
	.snap_bytes = simt_snap_bytes,
	.infos = infos,
	.views = views,
};

static const char *const ptx_exts[] = { ".ptx", NULL };

/* PTX on standard input: clang's starts with // comments, then .version. */
static bool ptx_claims(const char *head, size_t n)
{
	char w[64];
	for (unsigned k = 0; k < 32 && tgt_head_word(head, n, k, w, sizeof w); k++) {
		if (!strcmp(w, ".version"))
			return true;
		if (w[0])
			return false;
	}
	return false;
}

static const char *ptx_why_not(unsigned bit)
{
	switch (bit) {
	case TGT_CAN_STRICT: return "the SIMT machine has no hazards to stop at (the translator orders every bundle's slots)";
	case TGT_CAN_THREADS: return "the SIMT machine runs on one host thread";
	default: return "the PTX target does not have it";
	}
}

const tgt_ops tgt_ptx = {
	.name = "ptx",
	.title = "CUDA and OpenCL PTX on Duality Cache's SIMT mode",
	.exts = ptx_exts,
	.claims = ptx_claims,
	.options = ptx_options,
	.settings_help = "mapping=vliw|serial  translate the kernels into VLIW bundles or one operation a bundle (default: vliw); "
			 "ctas_per_cb=N  at most N CTAs a CB at once (default: as many as fit); "
			 "latency=baseline|optimised  Table 1's static latencies, or the data-dependent ones (default: optimised)",
	.can = TGT_CAN_DEFINE | TGT_CAN_LOAD | TGT_CAN_SAVE | TGT_CAN_CHECK | TGT_CAN_MACHINE,
	.why_not = ptx_why_not,
	.open = ptx_open,
	.close = simt_close,
	.narrays = simt_narrays,
	.array = simt_array,
	.array_get = simt_array_get,
	.array_set = simt_array_set,
	.run = simt_run,
	.report = simt_report_text,
	.check = compare_now,
	.stats = simt_stats_fill,
	.summary = simt_summary,
	.units = units,
	.nunits = sizeof units / sizeof *units,
	.step_lines = true,
	.step = simt_step,
	.ended = simt_ended,
	.count = unit_count,
	.where = simt_where_,
	.source = simt_source,
	.lookup = simt_lookup,
	.read = simt_read,
	.unavailable = simt_unavailable,
	.thread_get = simt_thread_get,
	.thread_set = simt_thread_set,
	.threads_here = simt_threads_here,
	.write = simt_write,
	.names = simt_names,
	.break_parse = simt_break_parse,
	.break_hit = simt_break_hit,
	.break_help = "FILE:LINE, LINE (a PTX line a bundle begins on), bundle N (before the bundle issued N-th, from 0), pc N (before a bundle of index N of any kernel), thread T (before a bundle thread T takes part in)",
	.save = simt_save,
	.restore = simt_restore,
	.snap_free = simt_snap_free,
	.snap_bytes = simt_snap_bytes,
	.infos = ptx_infos,
	.views = views,
};

