/* SPDX-License-Identifier: MIT */
/*
 * nsc.c: infsdb on a near-stream program (PROG.nsc, doc/STREAMS.md):
 * step one event (a core statement, a region's s_cfg, one s_step, its
 * s_end) or one s_step, stop at a stream's element, show each stream's
 * engine (core or bank), position, run-ahead and pending values, the
 * messages and traffic so far, stream elements and the flat memory, and
 * check the final memory against the reference (doc/DEBUGGER.md,
 * "Stream programs").  A small console of its own, as for Active-Routing
 * programs (ar.c): the machine-level commands do not apply to streams.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbg.h"
#include "nsc.h"

#define NSC_DBG_BREAKS 32

typedef struct nsc_brk {
	char name[NSC_NAME_MAX];
	int64_t elem;
	int num;         /* numbered from 1, never reused (gdb's habit) */
	bool used;
} nsc_brk;

typedef struct nsc_dbg {
	nsc_job j;
	nsc_mem m;
	nsc_stats st;
	nsc_session *ss;
	diag d;
	nsc_step last;
	bool has_last, quit, mismatch, failed;
	nsc_brk brk[NSC_DBG_BREAKS];
	int nbrk;        /* breakpoints made so far */
} nsc_dbg;

typedef struct nsc_cmd {
	const char *name, *alias;
	int (*run)(nsc_dbg *g, char *arg);
	const char *help;
} nsc_cmd;

static int cmd_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int cmd_error(const char *fmt, ...)
{
	va_list ap;
	fflush(stdout);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

/* ---- names ---- */

static const char *kind_name(nsc_skind k)
{
	static const char *const n[] = { "load", "store", "update", "atomic", "reduce" };
	return n[k];
}

static const char *addr_name(nsc_addr a)
{
	static const char *const n[] = { "affine", "indirect", "pointer", "" };
	return n[a];
}

/* A stream's name: its own (load, reduce, the chase's pointer), or the
 * array it writes (store, update, atomic). */
static const char *stream_name(const nsc_program *p, const nsc_region *r, int k)
{
	if (k == r->nstreams)
		return r->chase_name;
	const nsc_stream *s = &r->s[k];
	return s->name[0] ? s->name : p->arrays[s->arr].name;
}

static int region_streams(const nsc_region *r)
{
	return r->nstreams + (r->ndims == 0);
}

static void print_val(nsc_val v)
{
	if (v.k == 'i')
		printf("%" PRId64, v.u.i);
	else
		printf("%.9g", v.k == 'f' ? (double)v.u.f : v.u.d);
}

/* ---- events ---- */

static void print_elem(const nsc_dbg *g, const nsc_region *r, int k, const nsc_stream_state *t)
{
	const nsc_program *p = &g->j.p;
	bool writer = t->s && t->s->kind != NSC_S_LOAD && t->s->kind != NSC_S_REDUCE;
	printf("%s", writer ? kind_name(t->s->kind) : stream_name(p, r, k));
	if (t->s && t->s->kind == NSC_S_REDUCE) {
		printf(" = ");
		print_val(t->value);
	} else {
		printf(" %s[%" PRId64 "]", p->arrays[t->arr].name, t->elem);
		if (!writer) {
			printf(" = ");
			print_val(t->value);
		}
	}
	if (!t->floated)
		printf(" @core");
	else if (t->s && t->s->kind == NSC_S_REDUCE && !t->placed)
		printf(" @banks");   /* per-bank partials (§IV-C) */
	else
		printf(" @bank %u", t->elem_bank);
}

static void print_iter(const nsc_dbg *g, const nsc_step *e)
{
	const nsc_region *r = &g->j.p.rg[e->region];
	printf("s_step %" PRIu64 " of region %d (line %d):", e->iter, e->region, e->line);
	for (int k = 0; k < region_streams(r); k++) {
		nsc_stream_state t;
		if (!nsc_session_stream(g->ss, k, &t))
			continue;
		printf(k ? "; " : " ");
		print_elem(g, r, k, &t);
	}
	printf("\n");
}

static void print_stmt(const nsc_dbg *g, const nsc_step *e)
{
	const nsc_program *p = &g->j.p;
	const nsc_stmt *s = &p->st[e->stmt];
	printf("line %d: ", e->line);
	switch (s->kind) {
	case NSC_ST_LET:
		printf("let %s = ", p->slots[s->slot]);
		print_val(nsc_session_slot(g->ss, s->slot));
		printf("\n");
		break;
	case NSC_ST_STORE: printf("a core store to %s\n", p->arrays[s->arr].name); break;
	case NSC_ST_FOR: printf("for %s\n", p->slots[s->slot]); break;
	case NSC_ST_IF: printf("if\n"); break;
	default: printf("end\n"); break;
	}
}

static void print_event(const nsc_dbg *g, const nsc_step *e)
{
	const nsc_program *p = &g->j.p;
	if (e->ev == NSC_EV_STMT) {
		print_stmt(g, e);
	} else if (e->ev == NSC_EV_ITER) {
		print_iter(g, e);
	} else if (e->ev == NSC_EV_CONFIG) {
		int ri;
		uint64_t next, n;
		printf("s_cfg of region %d (line %d): %d streams, ", e->region, e->line,
		       region_streams(&p->rg[e->region]));
		if (nsc_session_region(g->ss, &ri, &next, &n) && n != UINT64_MAX)
			printf("%" PRIu64 " iterations\n", n);
		else
			printf("a chase\n");
	} else {
		const nsc_region *r = &p->rg[e->region];
		printf("s_end of region %d (line %d) after %" PRIu64 " iterations", e->region, e->line, e->iter);
		for (int k = 0; k < r->nstreams; k++)
			if (r->s[k].kind == NSC_S_REDUCE) {
				printf(k ? ", %s = " : ": %s = ", r->s[k].name);
				print_val(nsc_session_slot(g->ss, r->s[k].slot));
			}
		printf("\n");
	}
}

/* ---- running ---- */

static void run_ended(nsc_dbg *g)
{
	printf("The program ended after %" PRIu64 " regions, %" PRIu64 " iterations.\n", g->st.regions,
	       g->st.iters);
	if (nsc_job_outputs(&g->j, &g->m))
		g->failed = true;
}

/* One event: 1 stepped (g->last), 0 ended or failed (told), -1 not running. */
static int one_event(nsc_dbg *g)
{
	if (nsc_session_ended(g->ss))
		return cmd_error("The program is not being run.");
	if (g->d.set)
		return cmd_error("The program stopped: %s", g->d.msg);
	int rc = nsc_session_step(g->ss, &g->last);
	if (rc > 0) {
		g->has_last = true;
		if (!nsc_session_ended(g->ss))
			return 1;
		print_event(g, &g->last);
		run_ended(g);
		return 0;
	}
	if (rc < 0) {
		printf("The run stopped: %s\n", g->d.msg);
		g->failed = true;
		return 0;
	}
	run_ended(g);
	return 0;
}

/* The breakpoint the last s_step hit, or -1. */
static int break_hit(const nsc_dbg *g)
{
	if (!g->has_last || g->last.ev != NSC_EV_ITER)
		return -1;
	const nsc_region *r = &g->j.p.rg[g->last.region];
	for (int b = 0; b < NSC_DBG_BREAKS; b++) {
		if (!g->brk[b].used)
			continue;
		for (int k = 0; k < region_streams(r); k++) {
			nsc_stream_state t;
			if (!strcmp(stream_name(&g->j.p, r, k), g->brk[b].name) && nsc_session_stream(g->ss, k, &t) &&
			    t.has_elem && t.elem == g->brk[b].elem)
				return b;
		}
	}
	return -1;
}

static long count_arg(const char *arg)
{
	if (!arg || !*arg)
		return 1;
	char *end;
	long n = strtol(arg, &end, 10);
	return *end || n < 1 ? -1 : n;
}

/* stepi N: N events; step/next N: N s_steps.  A breakpoint stops both. */
static int stepping(nsc_dbg *g, const char *what, const char *arg, bool iters)
{
	long n = count_arg(arg);
	if (n < 0)
		return cmd_error("%s: expected a positive count, not '%s'", what, arg);
	for (long i = 0; i < n;) {
		int rc = one_event(g);
		if (rc <= 0)
			return rc;
		i += !iters || g->last.ev == NSC_EV_ITER;
		int b = i < n ? break_hit(g) : -1;
		if (b >= 0) {
			printf("Breakpoint %d, ", g->brk[b].num);
			break;
		}
	}
	print_event(g, &g->last);
	return 0;
}

static int cmd_stepi(nsc_dbg *g, char *arg) { return stepping(g, "stepi", arg, false); }
static int cmd_next(nsc_dbg *g, char *arg) { return stepping(g, "next", arg, true); }

static int cmd_continue(nsc_dbg *g, char *arg)
{
	(void)arg;
	for (;;) {
		int rc = one_event(g);
		if (rc <= 0)
			return rc;
		int b = break_hit(g);
		if (b >= 0) {
			printf("Breakpoint %d, ", g->brk[b].num);
			print_event(g, &g->last);
			return 0;
		}
	}
}

/* run: from the start again once the program has ended or stopped, the
 * breakpoints kept (gdb's habit); else continue. */
static int cmd_run(nsc_dbg *g, char *arg)
{
	if (nsc_session_ended(g->ss) || g->d.set) {
		nsc_session_free(g->ss);
		nsc_mem_free(&g->m);
		g->ss = NULL;
		g->has_last = false;
		if (nsc_mem_copy(&g->m, &g->j.init, &g->d) == 0)
			g->ss = nsc_session_new(&g->j.p, &g->m, g->j.s, &g->st, &g->d);
		if (!g->ss) {   /* out of memory: nothing left to run */
			fprintf(stderr, "%s\n", g->d.msg);
			g->quit = g->failed = true;
			return -1;
		}
		printf("Starting the program again.\n");
	}
	return cmd_continue(g, arg);
}

/* ---- breakpoints ---- */

/* A stream named name in some region: its array's length, or 0 (a
 * reduction: any iteration); -1 if none. */
static int64_t stream_extent(const nsc_program *p, const char *name)
{
	int64_t ext = -1;
	for (int ri = 0; ri < p->nrg; ri++) {
		const nsc_region *r = &p->rg[ri];
		for (int k = 0; k < region_streams(r); k++) {
			if (strcmp(stream_name(p, r, k), name))
				continue;
			int a = k == r->nstreams ? r->chase_arr : r->s[k].arr;
			int64_t e = a < 0 ? 0 : (int64_t)p->arrays[a].count;
			ext = ext < 0 || e == 0 || e > ext ? e : ext;
		}
	}
	return ext;
}

static int cmd_break(nsc_dbg *g, char *arg)
{
	char name[NSC_NAME_MAX], rest[2];
	long long k;
	if (!arg || sscanf(arg, "stream %31[A-Za-z0-9_] element %lld %1s", name, &k, rest) != 2)
		return cmd_error("break: expected 'break stream NAME element K', not '%s'", arg ? arg : "");
	int64_t ext = stream_extent(&g->j.p, name);
	if (ext < 0)
		return cmd_error("break: no stream '%s' in %s", name, g->j.p.file);
	if (k < 0 || (ext > 0 && k >= ext))
		return cmd_error("break: element %lld is out of range of stream '%s' (0 to %" PRId64 ")", k, name,
				 ext - 1);
	for (int b = 0; b < NSC_DBG_BREAKS; b++)
		if (!g->brk[b].used) {
			g->brk[b] = (nsc_brk){ .elem = k, .num = ++g->nbrk, .used = true };
			snprintf(g->brk[b].name, sizeof g->brk[b].name, "%s", name);
			printf("Breakpoint %d at stream %s, element %lld\n", g->brk[b].num, name, k);
			return 0;
		}
	return cmd_error("break: more than %d breakpoints", NSC_DBG_BREAKS);
}

static int cmd_delete(nsc_dbg *g, char *arg)
{
	if (!arg || !*arg) {
		memset(g->brk, 0, sizeof g->brk);
		return 0;
	}
	long n = count_arg(arg);
	for (int b = 0; n > 0 && b < NSC_DBG_BREAKS; b++)
		if (g->brk[b].used && g->brk[b].num == n) {
			g->brk[b].used = false;
			return 0;
		}
	return cmd_error("delete: no breakpoint number %s", arg);
}

/* ---- info ---- */

static void print_stream_line(const nsc_dbg *g, const nsc_region *r, int k)
{
	nsc_stream_state t;
	if (!nsc_session_stream(g->ss, k, &t))
		return;
	const char *kind = t.s ? kind_name(t.s->kind) : "chase";
	printf("  %-8s %-6s %-8s ", stream_name(&g->j.p, r, k), kind, t.s ? addr_name(t.s->addr) : "pointer");
	if (t.floated && t.placed)
		printf("bank %-2u ", t.bank);
	else
		printf(t.floated ? "banks   " : "core    ");
	if (t.has_elem) {
		printf("at ");
		print_elem(g, r, k, &t);
	} else {
		printf("not started");
	}
	if (t.partials)
		printf(", %u per-bank partials", t.partials);
	printf(", %" PRIu64 " issued ahead", t.ahead);
	if (t.pending_bytes)
		printf(", pending data %" PRIu64 " B from tile %u to tile %u (%s)", t.pending_bytes, t.pending_from,
		       t.pending_to, nsc_class_name(t.pending_class));
	printf("\n");
}

static void info_streams(const nsc_dbg *g)
{
	int ri;
	uint64_t next, n;
	if (!nsc_session_region(g->ss, &ri, &next, &n)) {
		printf("No stream region in progress (%" PRIu64 " iterations so far).\n", nsc_session_iters(g->ss));
		return;
	}
	const nsc_region *r = &g->j.p.rg[ri];
	printf("region %d (line %d), next iteration %" PRIu64, ri, r->line, next);
	if (n != UINT64_MAX)
		printf(" of %" PRIu64, n);
	printf(":\n");
	for (int k = 0; k < region_streams(r); k++)
		print_stream_line(g, r, k);
}

static void info_messages(const nsc_dbg *g)
{
	const nsc_stats *s = &g->st;
	printf("messages:");
	for (int m = 0; m < NSC_NMSG; m++)
		if (s->msgs[m])
			printf(" %s %" PRIu64, nsc_msg_name((nsc_msg)m), s->msgs[m]);
	printf("\n");
	for (int c = 0; c < NSC_NCLASS; c++)
		printf("%-10s %" PRIu64 " bytes, %" PRIu64 " byte-hops\n", nsc_class_name((nsc_class)c), s->bytes[c],
		       s->byte_hops[c]);
}

static int cmd_info(nsc_dbg *g, char *arg)
{
	if (arg && !strcmp(arg, "streams")) {
		info_streams(g);
	} else if (arg && (!strcmp(arg, "messages") || !strcmp(arg, "traffic"))) {
		info_messages(g);
	} else if (arg && !strcmp(arg, "stats")) {
		nsc_report(stdout, &g->st, NULL);
	} else if (arg && !strncmp(arg, "break", 5)) {
		bool any = false;
		for (int b = 0; b < NSC_DBG_BREAKS; b++)
			if (g->brk[b].used) {
				printf("%d  stream %s, element %" PRId64 "\n", g->brk[b].num, g->brk[b].name, g->brk[b].elem);
				any = true;
			}
		if (!any)
			printf("No breakpoints.\n");
	} else {
		return cmd_error("info: expected streams, messages, traffic, stats or breakpoints, not '%s'",
				 arg ? arg : "");
	}
	return 0;
}

/* ---- print and x ---- */

/* The stream k named name in the region in progress, or -1. */
static int live_stream(const nsc_dbg *g, const char *name, nsc_stream_state *t)
{
	int ri;
	uint64_t next, n;
	if (!nsc_session_region(g->ss, &ri, &next, &n))
		return -1;
	const nsc_region *r = &g->j.p.rg[ri];
	for (int k = 0; k < region_streams(r); k++)
		if (!strcmp(stream_name(&g->j.p, r, k), name) && nsc_session_stream(g->ss, k, t))
			return k;
	return -1;
}

static int print_element(nsc_dbg *g, const char *name, int a, long long i)
{
	const nsc_array *ar = &g->j.p.arrays[a];
	if (i < 0 || (uint64_t)i >= ar->count)
		return cmd_error("print: element %lld is out of range of '%s' (0 to %" PRIu64 ")", i, name,
				 ar->count - 1);
	printf("%s[%lld] = ", name, i);
	print_val(nsc_mem_get(&g->m, a, (uint64_t)i));
	printf("\n");
	return 0;
}

static int cmd_print(nsc_dbg *g, char *arg)
{
	char name[NSC_NAME_MAX], rest[2];
	long long i;
	nsc_stream_state t;
	if (!arg || !*arg)
		return cmd_error("print: expected NAME, NAME[K] or STREAM");
	int n = sscanf(arg, "%31[A-Za-z0-9_] [ %lld ] %1s", name, &i, rest);
	if (n < 1 || n > 2 || (n == 1 && strcspn(arg, " [") != strlen(arg)))
		return cmd_error("print: expected NAME, NAME[K] or STREAM, not '%s'", arg);
	const nsc_program *p = &g->j.p;
	int k = live_stream(g, name, &t);
	int a = nsc_array_find(p, name);
	if (n == 2 && a < 0 && k >= 0 && t.arr >= 0) {
		printf("%s[%lld] is ", name, i);   /* STREAM[K]: element K of the stream's array */
		return print_element(g, p->arrays[t.arr].name, t.arr, i);
	}
	if (n == 2 && a >= 0)
		return print_element(g, name, a, i);
	if (n == 1 && k >= 0) {
		int ri;
		uint64_t next, cnt;
		nsc_session_region(g->ss, &ri, &next, &cnt);
		if (!t.has_elem)
			return cmd_error("print: stream '%s' has no element yet", name);
		printf("%s: ", t.s ? kind_name(t.s->kind) : "chase");
		print_elem(g, &p->rg[ri], k, &t);
		printf("\n");
		return 0;
	}
	for (int s = 0; n == 1 && s < p->nslots; s++)
		if (!strcmp(p->slots[s], name)) {
			printf("%s = ", name);
			print_val(nsc_session_slot(g->ss, s));
			printf("\n");
			return 0;
		}
	if (n == 1 && a >= 0)
		return cmd_error("print: '%s' is an array: print %s[K]", name, name);
	return cmd_error("print: no array, stream or scalar '%s' in %s", name, p->file);
}

/* The array holding physical address pa, or -1. */
static int array_at(const nsc_program *p, uint64_t pa, uint64_t *off)
{
	for (int a = 0; a < p->narrays; a++) {
		uint64_t size = p->arrays[a].count * nsc_type_size(p->arrays[a].type);
		if (pa >= p->arrays[a].base && pa - p->arrays[a].base < size) {
			*off = pa - p->arrays[a].base;
			return a;
		}
	}
	return -1;
}

static int x_format(const char *f, unsigned *count, char *fmt, unsigned *size)
{
	*count = 4;
	*fmt = 'x';
	*size = 4;
	if (!f)
		return 0;
	char *end;
	if (*f >= '1' && *f <= '9') {
		unsigned long c = strtoul(f, &end, 10);
		if (c > 1024)
			return -1;
		*count = (unsigned)c;
		f = end;
	}
	for (; *f; f++) {
		if (strchr("xduf", *f))
			*fmt = *f;
		else if (strchr("bhwg", *f))
			*size = *f == 'b' ? 1 : *f == 'h' ? 2 : *f == 'w' ? 4 : 8;
		else
			return -1;
	}
	return *fmt == 'f' && *size < 4 ? -1 : 0;
}

static void x_unit(const nsc_dbg *g, int a, uint64_t off, unsigned size, char fmt)
{
	uint64_t u = 0;
	for (unsigned k = 0; k < size; k++)   /* little-endian, as nsc_mem_bits reads */
		u |= (uint64_t)g->m.data[a][off + k] << (8 * k);
	int64_t sv = size == 8 ? (int64_t)u : (int64_t)(u << (64 - 8 * size)) >> (64 - 8 * size);
	if (fmt == 'x')
		printf(" 0x%0*" PRIx64, (int)size * 2, u);
	else if (fmt == 'd')
		printf(" %" PRId64, sv);
	else if (fmt == 'u')
		printf(" %" PRIu64, u);
	else if (size == 4) {
		float f;
		uint32_t w = (uint32_t)u;
		memcpy(&f, &w, 4);
		printf(" %.9g", (double)f);
	} else {
		double d;
		memcpy(&d, &u, 8);
		printf(" %.17g", d);
	}
}

/* x[/NFU] ADDR: the flat memory at a physical address, gdb's x. */
static int cmd_x(nsc_dbg *g, char *arg, const char *f)
{
	unsigned count, size;
	char fmt;
	if (x_format(f, &count, &fmt, &size) < 0)
		return cmd_error("x: expected /N, a format x, d, u or f and a size b, h, w or g, not '/%s'", f);
	char *end;
	uint64_t pa = arg && *arg ? strtoull(arg, &end, 0) : 0;
	if (!arg || !*arg || *end)
		return cmd_error("x: expected an address, not '%s'", arg ? arg : "");
	const nsc_program *p = &g->j.p;
	for (unsigned i = 0; i < count; i++, pa += size) {
		uint64_t off;
		int a = array_at(p, pa, &off);
		if (a < 0 || off + size > p->arrays[a].count * nsc_type_size(p->arrays[a].type)) {
			if (i % 4)
				printf("\n");
			return cmd_error("x: cannot access memory at address 0x%" PRIx64 " (no array there)", pa);
		}
		if (i % 4 == 0)
			printf("%s0x%" PRIx64 " <%s+%" PRIu64 ">:", i ? "\n" : "", pa, p->arrays[a].name, off);
		x_unit(g, a, off, size, fmt);
	}
	printf("\n");
	return 0;
}

/* ---- check and expect ---- */

static int cmd_check(nsc_dbg *g, char *arg)
{
	(void)arg;
	if (!nsc_session_ended(g->ss))
		return cmd_error("check: the program has not ended (%" PRIu64 " iterations so far); "
				 "\"continue\" first", nsc_session_iters(g->ss));
	fflush(stdout);   /* a difference is told on stderr */
	int rc = nsc_job_check(&g->j, &g->m);
	if (rc == DBG_EXIT_MISMATCH)
		g->mismatch = true;   /* told on stderr, naming the element */
	return rc && rc != DBG_EXIT_MISMATCH ? -1 : 0;
}

static int cmd_expect(nsc_dbg *g, char *arg)
{
	char name[NSC_NAME_MAX], path[1024];
	if (!arg || sscanf(arg, "%31s %1023s", name, path) != 2)
		return cmd_error("expect: expected 'expect ARRAY FILE.npy', not '%s'", arg ? arg : "");
	int a = nsc_array_find(&g->j.p, name);
	if (a < 0)
		return cmd_error("expect: no array '%s' in %s", name, g->j.p.file);
	nsc_mem want = { 0 };
	if (nsc_mem_copy(&want, &g->m, &g->d) < 0 || nsc_npy_load(&want, a, path, &g->d) < 0) {
		if (want.data)
			nsc_mem_free(&want);
		int rc = cmd_error("expect: %s", g->d.msg);
		diag_clear(&g->d);
		return rc;
	}
	uint64_t n = g->j.p.arrays[a].count, wrong = 0;
	int64_t first = nsc_mem_diff(&g->m, &want, a);
	for (uint64_t i = first < 0 ? n : (uint64_t)first; i < n; i++)
		wrong += nsc_mem_bits(&g->m, a, i) != nsc_mem_bits(&want, a, i);
	if (first < 0) {
		printf("expect: %s matches %s (%" PRIu64 " element%s).\n", name, path, n, n == 1 ? "" : "s");
	} else {   /* a difference is a result, not an error: exit status 3 in batch */
		printf("expect: FAILED: %s[%" PRId64 "] is ", name, first);
		print_val(nsc_mem_get(&g->m, a, (uint64_t)first));
		printf(", %s has ", path);
		print_val(nsc_mem_get(&want, a, (uint64_t)first));
		printf(" (%" PRIu64 " of %" PRIu64 " elements differ).\n", wrong, n);
		g->mismatch = true;
	}
	nsc_mem_free(&want);
	return 0;
}

static int cmd_quit(nsc_dbg *g, char *arg)
{
	(void)arg;
	g->quit = true;
	return 0;
}

static int cmd_help(nsc_dbg *g, char *arg);
static int cmd_x_plain(nsc_dbg *g, char *arg) { return cmd_x(g, arg, NULL); }

static const nsc_cmd cmds[] = {
	{ "run", "r", cmd_run, "run to the end or to a breakpoint; from the start again after the end" },
	{ "continue", "c", cmd_continue, "to the end or to a breakpoint" },
	{ "stepi", "si", cmd_stepi, "stepi [N]: N events (a core statement, s_cfg, one s_step, s_end)" },
	{ "next", "n", cmd_next, "next [N]: N s_steps (one iteration of every stream of a region)" },
	{ "step", "s", cmd_next, "the same" },
	{ "break", "b", cmd_break, "break stream NAME element K: stop after the s_step at that element" },
	{ "delete", "d", cmd_delete, "delete [N]: remove breakpoint N, or all" },
	{ "info", "i", cmd_info, "info streams|messages|traffic|stats|breakpoints" },
	{ "print", "p", cmd_print, "print ARRAY[K], STREAM, STREAM[K] or SCALAR" },
	{ "x", "", cmd_x_plain, "x[/NFU] ADDR: N units (b h w g) of the flat memory as x, d, u or f" },
	{ "check", "", cmd_check, "compare the final memory with the reference, bit for bit" },
	{ "expect", "", cmd_expect, "expect ARRAY FILE.npy: compare an array with a file, bit for bit" },
	{ "help", "h", cmd_help, "this list" },
	{ "quit", "q", cmd_quit, "leave" },
};

/* infsdb's machine-level commands, which a stream program has no use for. */
static const char *const machine_only[] = {
	"tile", "watch", "rwatch", "awatch", "display", "undisplay", "record", "reverse-step", "reverse-stepi",
	"reverse-next", "reverse-continue", "rs", "rsi", "rc", "finish", "until", "advance", "frame",
	"backtrace", "bt", "disassemble", "checkpoint", "restart", "tui", "layout", "set", "jump", "call",
	"tbreak", "condition", "ignore", "commands", "define", "source", "printf", "output", NULL
};

static int cmd_help(nsc_dbg *g, char *arg)
{
	(void)g;
	(void)arg;
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
		printf("%-9s %-3s %s\n", cmds[i].name, cmds[i].alias, cmds[i].help);
	return 0;
}

static int execute(nsc_dbg *g, char *text)
{
	char *fmt, *arg, *line = dbg_line_split(text, &fmt, &arg);
	if (!line)
		return 0;
	if (!strcmp(line, "x"))
		return cmd_x(g, arg, fmt);
	for (size_t i = 0; !fmt && i < sizeof cmds / sizeof cmds[0]; i++)
		if (!strcmp(line, cmds[i].name) || (*cmds[i].alias && !strcmp(line, cmds[i].alias)))
			return cmds[i].run(g, arg);
	for (size_t i = 0; machine_only[i]; i++)
		if (!strcmp(line, machine_only[i]))
			return cmd_error("\"%s\" is not meaningful on a stream program (.nsc).  Try \"help\".", line);
	return cmd_error("Undefined command: \"%s\".  Try \"help\".", line);
}

static int execute_line(void *g, char *line)
{
	return execute(g, line);
}

/* infsdb's own options (-batch, -nx, -q, -x FILE, -ex CMD) apart; the rest
 * are `infsim nsc`'s, given to nsc_job_open. */
static bool own_option(const char *a, bool *takes_value)
{
	*takes_value = !strcmp(a, "-x") || !strcmp(a, "-ex");
	return *takes_value || !strcmp(a, "-batch") || !strcmp(a, "-nx") || !strcmp(a, "-n") ||
	       !strcmp(a, "-q") || !strcmp(a, "-quiet") || !strcmp(a, "-silent");
}

static int open_program(nsc_dbg *g, int argc, char **argv, bool *batch)
{
	char **rest = calloc((size_t)argc + 1, sizeof *rest);
	if (!rest)
		return cmd_error("infsdb: out of memory");
	int n = 0;
	rest[n++] = argv[0];
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help"))
			printf("Usage: infsdb [-batch] [-nx] [-q] [-x FILE] [-ex CMD]... PROG.nsc [OPTION]...\n"
			       "Debug a near-stream program on the stream engines (doc/DEBUGGER.md,\n"
			       "\"Stream programs\"); \"help\" inside lists the commands.  The OPTIONs\n"
			       "are those of infsim nsc:\n\n");
	for (int i = 1; i < argc; i++) {
		bool v;
		if (!own_option(argv[i], &v))
			rest[n++] = argv[i];
		*batch |= !strcmp(argv[i], "-batch");
		i += v && i + 1 < argc;
	}
	int rc = nsc_job_open(&g->j, n, rest);
	free(rest);
	if (rc)
		return rc < 0 ? -1 : rc;
	diag_clear(&g->d);
	if (nsc_mem_copy(&g->m, &g->j.init, &g->d) == 0)
		g->ss = nsc_session_new(&g->j.p, &g->m, g->j.s, &g->st, &g->d);
	if (!g->ss) {
		fprintf(stderr, "%s\n", g->d.msg);
		if (g->m.data)
			nsc_mem_free(&g->m);
		nsc_job_close(&g->j);
		return DBG_EXIT_FAILED;
	}
	return 0;
}

int dbg_nsc_main(int argc, char **argv)
{
	nsc_dbg *g = calloc(1, sizeof *g);
	if (!g)
		return DBG_EXIT_FAILED;
	bool batch = false;
	int rc = open_program(g, argc, argv, &batch);
	if (rc) {
		free(g);
		return rc < 0 ? 0 : rc;
	}
	int failed = 0;
	for (int i = 1; i < argc && !g->quit; i++) {
		if (!strcmp(argv[i], "-x") && i + 1 < argc)
			failed |= dbg_lines_file(argv[++i], execute_line, g, &g->quit);
		else if (!strcmp(argv[i], "-ex") && i + 1 < argc) {
			char buf[1024];
			snprintf(buf, sizeof buf, "%s", argv[++i]);
			failed |= execute(g, buf) ? 1 : 0;
		}
	}
	if (!batch)
		dbg_lines_console(execute_line, g, &g->quit);
	/* as infsdb's: a failed command, then a result that differs */
	rc = !batch ? 0 : failed || g->failed ? DBG_EXIT_FAILED : g->mismatch ? DBG_EXIT_MISMATCH : 0;
	nsc_session_free(g->ss);
	nsc_mem_free(&g->m);
	nsc_job_close(&g->j);
	free(g);
	return rc;
}
