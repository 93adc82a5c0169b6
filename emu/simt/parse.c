/* SPDX-License-Identifier: MIT */
/*
 * parse.c: a DC-PTX program (doc/SIMT.md, "Grammar"):
 *
 *   .machine cbs=4 fp=ftz latency=optimised    settings (optional, first)
 *   .global A f32 1024 rand 7                  an array in the DC pages
 *   .kernel vecadd                             a kernel: one bundle a line
 *   loop:                                      a label (a bundle index)
 *     add.s32 r0, r1, r2 ; ld.global.f32 r6, [r3]
 *   .end
 *   .launch vecadd 4 256                       grid CTAs x block threads
 *
 * Every error is reported once, at its line and column; sizes are
 * bounded (SIMT_MEM_MAX bytes of globals, TEXT_FILE_MAX of text).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simt_int.h"

#define KERNEL_BUNDLES_MAX (1u << 20)
#define GRID_MAX (1u << 16)
#define LAUNCH_MAX (1u << 16)

typedef struct pstate {
	simt_program *p;
	simt_kernel *open;        /* the kernel being read, or NULL */
	simt_labels lab;
	size_t gcap;
	bool body_seen;
	bool thread;              /* the open kernel is a .thread kernel */
	simt_tprog tp;
	int mapping;              /* SIMT_MAP_*: FILE lets .machine choose */
} pstate;

const simt_global *simt_global_find(const simt_program *p, const char *name)
{
	for (size_t i = 0; i < p->ng; i++)
		if (!strcmp(p->g[i].name, name))
			return &p->g[i];
	return NULL;
}

static int grow(simt_cur *c, void **v, size_t *cap, size_t n, size_t elem)
{
	if (n < *cap)
		return 0;
	size_t nc = *cap ? *cap * 2 : 8;
	void *q = realloc(*v, nc * elem);
	if (!q)
		return simt_err(c, 0, "out of memory");
	*v = q;
	*cap = nc;
	return 0;
}

/* .machine cbs=N ctas_per_cb=N fp=ieee|ftz latency=baseline|optimised
 * max_bundles=N max_cycles=N mapping=vliw|serial regs=N shared=BYTES */
static int machine_line(simt_cur *c, pstate *s)
{
	if (s->body_seen)
		return simt_err(c, 0, ".machine must come before any global, kernel or launch");
	while (!simt_at_end(c)) {
		char key[32], val[32];
		size_t at = c->pos;
		if (!simt_word(c, key, sizeof key) || !simt_eat(c, '='))
			return simt_err(c, at, "expected KEY=VALUE (cbs, ctas_per_cb, fp, latency, mapping, max_bundles, max_cycles, regs, shared)");
		uint64_t v;
		if (!strcmp(key, "cbs")) {
			if (simt_count(c, "cbs", 1, SIMT_MAX_CBS, &v) < 0)
				return -1;
			s->p->cbs = (unsigned)v;
		} else if (!strcmp(key, "shared")) {
			if (simt_count(c, "shared (bytes of a CTA's shared window)", 0, SIMT_SHARED_MAX, &v) < 0)
				return -1;
			if (v % 4)
				return simt_err(c, at + 7, "shared=%llu: a multiple of 4 bytes", (unsigned long long)v);
			s->p->shared_bytes = (uint32_t)v;
		} else if (!strcmp(key, "ctas_per_cb")) {
			if (simt_count(c, "ctas_per_cb", 1, SIMT_CB_THREADS, &v) < 0)
				return -1;
			s->p->ctas_per_cb = (unsigned)v;
		} else if (!strcmp(key, "max_bundles")) {
			if (simt_count(c, "max_bundles", 1, UINT64_C(1) << 40, &v) < 0)
				return -1;
			s->p->max_bundles = v;
		} else if (!strcmp(key, "max_cycles")) {
			if (simt_count(c, "max_cycles", 1, UINT64_C(1) << 50, &v) < 0)
				return -1;
			s->p->max_cycles = v;
		} else if (!strcmp(key, "regs")) {
			if (simt_count(c, "regs (registers of an array the translator allocates)", 1,
				       SIMT_REGS_PER_ARRAY, &v) < 0)
				return -1;
			s->p->regs = (unsigned)v;
		} else if (!strcmp(key, "mapping")) {
			size_t vat = (simt_skip(c), c->pos);
			if (!simt_word(c, val, sizeof val) || (strcmp(val, "vliw") && strcmp(val, "serial")))
				return simt_err(c, vat, "expected vliw or serial after mapping=");
			if (s->mapping == SIMT_MAP_FILE)
				s->p->serial = !strcmp(val, "serial");
		} else if (!strcmp(key, "fp") || !strcmp(key, "latency")) {
			size_t vat = (simt_skip(c), c->pos);
			bool fp = !strcmp(key, "fp");
			if (!simt_word(c, val, sizeof val))
				return simt_err(c, vat, fp ? "expected ieee or ftz" : "expected baseline or optimised");
			if (fp && (!strcmp(val, "ieee") || !strcmp(val, "ftz")))
				s->p->ieee = !strcmp(val, "ieee");
			else if (!fp && (!strcmp(val, "baseline") || !strcmp(val, "optimised")))
				s->p->latency_opt = !strcmp(val, "optimised");
			else
				return simt_err(c, vat, fp ? "unknown fp mode '%s': expected ieee or ftz"
						: "unknown latency '%s': expected baseline or optimised", val);
		} else {
			return simt_err(c, at, "unknown setting '%s': expected cbs, ctas_per_cb, fp, latency, mapping, max_bundles, max_cycles, regs or shared", key);
		}
	}
	return 0;
}

static int name_token(simt_cur *c, const char *what, char *buf, size_t size)
{
	size_t at = (simt_skip(c), c->pos);
	if (!simt_word(c, buf, size) || strchr(buf, '.') || buf[0] == '%')
		return simt_err(c, at, "expected %s (a name of letters, digits and '_', under 64 characters)", what);
	return 0;
}

static int global_line(simt_cur *c, pstate *s)
{
	simt_program *p = s->p;
	char name[64], ty[16];
	if (name_token(c, "the global's name", name, sizeof name) < 0)
		return -1;
	if (simt_global_find(p, name))
		return simt_err(c, 8, "global '%s' declared twice", name);
	size_t at = (simt_skip(c), c->pos);
	if (!simt_word(c, ty, sizeof ty) || (strcmp(ty, "u32") && strcmp(ty, "s32") && strcmp(ty, "f32")))
		return simt_err(c, at, "expected the element type: u32, s32 or f32");
	uint64_t count;
	uint64_t room = (SIMT_MEM_MAX - p->mem_bytes) / 4;
	if (simt_count(c, "element count", 1, room ? room : 1, &count) < 0)
		return -1;
	if (!room)
		return simt_err(c, at, "the globals exceed %llu bytes", (unsigned long long)SIMT_MEM_MAX);
	if (grow(c, (void **)&p->g, &s->gcap, p->ng, sizeof *p->g) < 0)
		return -1;
	simt_global *g = &p->g[p->ng];
	memset(g, 0, sizeof *g);
	snprintf(g->name, sizeof g->name, "%s", name);
	g->type = (uint8_t)(ty[0] == 'u' ? SIMT_U32 : ty[0] == 's' ? SIMT_S32 : SIMT_F32);
	g->count = (uint32_t)count;
	g->addr = p->mem_bytes;
	g->line = c->line;
	/* Each global starts on a line of its own, so a line holds one. */
	uint64_t bytes = (count * 4 + SIMT_LINE_BYTES - 1) / SIMT_LINE_BYTES * SIMT_LINE_BYTES;
	uint64_t total = p->mem_bytes + bytes;
	if (total > SIMT_MEM_MAX)
		return simt_err(c, at, "the globals exceed %llu bytes", (unsigned long long)SIMT_MEM_MAX);
	uint32_t *mem = realloc(p->init, total ? (size_t)total : 4);
	if (!mem)
		return simt_err(c, at, "out of memory");
	memset((char *)mem + p->mem_bytes, 0, (size_t)bytes);
	p->init = mem;
	p->mem_bytes = (uint32_t)total;
	p->ng++;
	return simt_global_init(c, g, p->init + g->addr / 4);
}

static int kernel_line(simt_cur *c, pstate *s, bool thread)
{
	simt_program *p = s->p;
	char name[64];
	if (s->open)
		return simt_err(c, 0, ".kernel inside kernel '%s' (line %d): expected .end first",
				s->open->name, s->open->line);
	if (name_token(c, "the kernel's name", name, sizeof name) < 0)
		return -1;
	for (size_t i = 0; i < p->nk; i++)
		if (!strcmp(p->k[i].name, name))
			return simt_err(c, 8, "kernel '%s' defined twice (first at line %d)", name, p->k[i].line);
	simt_kernel *k = realloc(p->k, (p->nk + 1) * sizeof *p->k);
	if (!k)
		return simt_err(c, 0, "out of memory");
	p->k = k;
	s->open = &p->k[p->nk++];
	memset(s->open, 0, sizeof *s->open);
	snprintf(s->open->name, sizeof s->open->name, "%s", name);
	s->open->line = c->line;
	s->lab.n = 0;
	s->lab.nfix = 0;
	s->thread = thread;
	simt_tprog_free(&s->tp);
	return 0;
}

/* .end: every branch's label is now known. */
static int end_line(simt_cur *c, pstate *s)
{
	simt_kernel *k = s->open;
	if (!k)
		return simt_err(c, 0, ".end outside a kernel");
	if (s->thread && s->tp.n == 0)
		return simt_err(c, 0, "kernel '%s' has no instruction", k->name);
	if (s->thread) {
		int line = c->line;
		if (simt_translate(c, k, &s->tp, s->p) < 0)
			return -1;
		c->line = line;
		k->translated = true;
	}
	if (k->n == 0)
		return simt_err(c, 0, "kernel '%s' has no bundle", k->name);
	for (size_t i = 0; i < s->lab.nfix; i++) {
		struct simt_fix *f = &s->lab.fix[i];
		size_t j = 0;
		while (j < s->lab.n && strcmp(s->lab.name[j], f->name))
			j++;
		if (j == s->lab.n) {
			c->line = f->line;
			return simt_err(c, (size_t)f->col - 1, "no label '%s' in kernel '%s'", f->name, k->name);
		}
		k->b[f->bundle].in[f->slot].target = s->lab.at[j];
	}
	for (size_t j = 0; j < s->lab.n; j++)
		if (s->lab.at[j] >= k->n) {
			c->line = s->lab.line[j];
			return simt_err(c, 0, "label '%s' labels no bundle (it is last in kernel '%s')",
					s->lab.name[j], k->name);
		}
	s->open = NULL;
	return 0;
}

static int label_line(simt_cur *c, pstate *s, const char *name)
{
	simt_labels *l = &s->lab;
	for (size_t j = 0; j < l->n; j++)
		if (!strcmp(l->name[j], name))
			return simt_err(c, 0, "label '%s' defined twice (first at line %d)", name, l->line[j]);
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		void *a = realloc(l->name, cap * sizeof *l->name);
		if (a)
			l->name = a;
		void *b = a ? realloc(l->at, cap * sizeof *l->at) : NULL;
		if (b)
			l->at = b;
		void *d = b ? realloc(l->line, cap * sizeof *l->line) : NULL;
		if (!d)
			return simt_err(c, 0, "out of memory");
		l->line = d;
		l->cap = cap;
	}
	snprintf(l->name[l->n], 64, "%s", name);
	l->at[l->n] = (uint32_t)s->open->n;
	l->line[l->n++] = c->line;
	return 0;
}

static int launch_line(simt_cur *c, pstate *s)
{
	simt_program *p = s->p;
	char name[64];
	size_t at = (simt_skip(c), c->pos);
	if (name_token(c, "the kernel's name", name, sizeof name) < 0)
		return -1;
	size_t k = 0;
	while (k < p->nk && strcmp(p->k[k].name, name))
		k++;
	if (k == p->nk)
		return simt_err(c, at, "no kernel '%s' defined before this launch", name);
	uint64_t grid, block;
	if (simt_count(c, "grid (CTAs)", 1, GRID_MAX, &grid) < 0 ||
	    simt_count(c, "block (threads of a CTA)", 1, SIMT_CB_THREADS, &block) < 0)
		return -1;
	if (p->nl >= LAUNCH_MAX)
		return simt_err(c, 0, "more than %u launches", LAUNCH_MAX);
	simt_launch *l = realloc(p->l, (p->nl + 1) * sizeof *p->l);
	if (!l)
		return simt_err(c, 0, "out of memory");
	p->l = l;
	p->l[p->nl++] = (simt_launch){ .kernel = (uint32_t)k, .grid = (uint32_t)grid,
					.block = (uint32_t)block, .line = c->line };
	return 0;
}

static int bundle_line(simt_cur *c, pstate *s)
{
	simt_kernel *k = s->open;
	if (!k)
		return simt_err(c, c->pos, "an instruction outside a kernel: expected .machine, .global, .kernel or .launch");
	if (k->n >= KERNEL_BUNDLES_MAX)
		return simt_err(c, c->pos, "more than %u bundles in a kernel", KERNEL_BUNDLES_MAX);
	if (grow(c, (void **)&k->b, &k->cap, k->n, sizeof *k->b) < 0)
		return -1;
	if (simt_parse_bundle(c, s->p, &s->lab, (uint32_t)k->n, &k->b[k->n]) < 0)
		return -1;
	k->n++;
	return 0;
}

static int one_line(simt_cur *c, pstate *s)
{
	char w[64];
	if (simt_at_end(c))
		return 0;
	size_t at = c->pos;
	if (c->s[at] == '.') {
		c->pos++;
		if (!simt_word(c, w, sizeof w))
			return simt_err(c, at, "expected a directive (.machine, .global, .kernel, .end, .launch)");
		bool in_kernel = s->open && strcmp(w, "end");
		if (in_kernel)
			return simt_err(c, at, ".%s inside kernel '%s': expected a bundle, a label or .end", w, s->open->name);
		int rc = !strcmp(w, "machine") ? machine_line(c, s)
			: !strcmp(w, "global") ? global_line(c, s)
			: !strcmp(w, "kernel") ? kernel_line(c, s, false)
			: !strcmp(w, "thread") ? kernel_line(c, s, true)
			: !strcmp(w, "end") ? end_line(c, s)
			: !strcmp(w, "launch") ? launch_line(c, s)
			: simt_err(c, at, "unknown directive '.%s' (expected .machine, .global, .kernel, .thread, .end or .launch)", w);
		s->body_seen |= strcmp(w, "machine") != 0;
		if (rc < 0)
			return -1;
	} else {
		/* A label is a name and ':' alone on its line. */
		size_t save = c->pos;
		if (s->open && s->thread) {
			if (simt_word(c, w, sizeof w) && simt_eat(c, ':'))
				return simt_err(c, save, "a .thread kernel is straight-line: no labels");
			c->pos = save;
			return simt_thread_line(c, s->p, &s->tp);
		}
		if (s->open && simt_word(c, w, sizeof w) && simt_eat(c, ':')) {
			if (strchr(w, '.') || w[0] == '%')
				return simt_err(c, save, "a label is a plain name");
			if (label_line(c, s, w) < 0)
				return -1;
		} else {
			c->pos = save;
			return bundle_line(c, s);
		}
	}
	return simt_at_end(c) ? 0 : simt_err(c, c->pos, "unexpected text at the end of the line");
}

/* The shared windows after the globals (.machine shared=BYTES): one for
 * each CTA a CB may hold in any launch, min(floor(1024 / block),
 * ceil(grid / cbs)), whatever ctas_per_cb says (a -m setting may change
 * it after the parse), on every CB (doc/SIMT.md, "Shared memory"). */
static int shared_region(simt_cur *c, simt_program *p)
{
	uint32_t windows = 1;
	for (size_t i = 0; i < p->nl; i++) {
		simt_program q = *p;
		q.ctas_per_cb = SIMT_CB_THREADS;
		unsigned s = simt_ctas_per_cb(&q, &p->l[i]);
		windows = s > windows ? s : windows;
	}
	p->shared_addr = (p->mem_bytes + SIMT_LINE_BYTES - 1) / SIMT_LINE_BYTES * SIMT_LINE_BYTES;
	p->shared_windows = windows;
	if (!p->shared_bytes)
		return 0;
	uint64_t end = p->shared_addr + (uint64_t)p->cbs * windows * p->shared_bytes;
	if (end > SIMT_MEM_MAX)
		return simt_err(c, 0, "the globals and the shared windows of %u CBs (%u a CB of %u bytes) exceed %llu bytes",
				p->cbs, windows, p->shared_bytes, (unsigned long long)SIMT_MEM_MAX);
	uint32_t *mem = realloc(p->init, (size_t)end);
	if (!mem)
		return simt_err(c, 0, "out of memory");
	memset((uint8_t *)mem + p->mem_bytes, 0, (size_t)(end - p->mem_bytes));
	p->init = mem;
	p->mem_bytes = (uint32_t)end;
	return 0;
}

/* The local memory after the globals: as many words a thread as the
 * highest offset any ld.local or st.local names, for every thread of
 * every CB (doc/SIMT.md, "Local memory"). */
static int local_region(simt_cur *c, simt_program *p)
{
	uint32_t words = 0;
	for (size_t i = 0; i < p->nk; i++)
		for (size_t j = 0; j < p->k[i].n; j++)
			for (unsigned q = 0; q < p->k[i].b[j].n; q++) {
				const simt_instr *in = &p->k[i].b[j].in[q];
				if (in->local && in->a.imm / 4 + 1 > words)
					words = in->a.imm / 4 + 1;
			}
	p->local_addr = p->mem_bytes;
	p->local_words = words;
	if (!words)
		return 0;
	uint64_t bytes = (uint64_t)p->cbs * words * SIMT_CB_THREADS * 4;
	if (p->mem_bytes + bytes > SIMT_MEM_MAX)
		return simt_err(c, 0, "the globals and the local memory of %u CBs (%u words a thread) exceed %llu bytes",
				p->cbs, words, (unsigned long long)SIMT_MEM_MAX);
	uint32_t *mem = realloc(p->init, (size_t)(p->mem_bytes + bytes));
	if (!mem)
		return simt_err(c, 0, "out of memory");
	memset((char *)mem + p->mem_bytes, 0, (size_t)bytes);
	p->init = mem;
	p->mem_bytes += (uint32_t)bytes;
	return 0;
}

void simt_program_init(simt_program *p, const char *path, int mapping)
{
	memset(p, 0, sizeof *p);
	p->path = path;
	p->cbs = 4;
	p->ctas_per_cb = SIMT_CB_THREADS; /* as many as fit (simt_ctas_per_cb) */
	p->latency_opt = 1;
	p->max_bundles = UINT64_C(1) << 19;
	/* a few seconds of the host at the emulator's 1.3-2.9 million cycles a
	 * second (doc/SIMT.md, "Bounds"), far above any sample's CTA */
	p->max_cycles = UINT64_C(1) << 22;
	p->serial = mapping == SIMT_MAP_SERIAL;
	p->regs = SIMT_REGS_PER_ARRAY;
	p->units = SIMT_REGS_PER_ARRAY;
}

int simt_parse_mapped(const char *path, const char *text, size_t len, int mapping,
		      simt_program *p, diag *d)
{
	simt_program_init(p, path, mapping);
	pstate s = { .p = p, .mapping = mapping };
	text_lines it;
	text_lines_init(&it, path, text, len);
	text_line ln;
	int rc, ret = 0;
	simt_cur c = { .path = path, .d = d };
	while ((rc = text_lines_next(&it, &ln, d)) > 0) {
		c = (simt_cur){ .path = path, .s = ln.s, .len = ln.len, .line = ln.no, .d = d };
		if (one_line(&c, &s) < 0) {
			ret = -1;
			break;
		}
	}
	if (rc < 0)
		ret = -1;
	if (!ret && s.open)
		ret = simt_err(&c, 0, "kernel '%s' (line %d) has no .end", s.open->name, s.open->line);
	if (!ret && p->nl == 0)
		ret = simt_err(&c, 0, "no .launch: the program runs nothing");
	if (!ret)
		ret = shared_region(&c, p) < 0 ? -1 : local_region(&c, p);
	free(s.lab.name);
	free(s.lab.at);
	free(s.lab.line);
	free(s.lab.fix);
	simt_tprog_free(&s.tp);
	if (ret < 0)
		simt_program_free(p);
	return ret;
}

int simt_parse(const char *path, const char *text, size_t len, simt_program *p, diag *d)
{
	return simt_parse_mapped(path, text, len, SIMT_MAP_FILE, p, d);
}

int simt_load_file_mapped(const char *path, int mapping, simt_program *p, diag *d)
{
	char *text;
	size_t len;
	memset(p, 0, sizeof *p);
	if (text_read_file(path, TEXT_FILE_MAX, &text, &len, d) < 0)
		return -1;
	int rc = simt_parse_mapped(path, text, len, mapping, p, d);
	free(text);
	return rc;
}

int simt_load_file(const char *path, simt_program *p, diag *d)
{
	return simt_load_file_mapped(path, SIMT_MAP_FILE, p, d);
}

void simt_program_free(simt_program *p)
{
	for (size_t i = 0; i < p->nk; i++) {
		free(p->k[i].b);
		free(p->k[i].regloc);
	}
	free(p->k);
	free(p->g);
	free(p->l);
	free(p->init);
	memset(p, 0, sizeof *p);
}
