/* SPDX-License-Identifier: MIT */
/*
 * dbg.c: `infsdb PROG.vima`: stepping a VIMA program one instruction at a
 * time and looking into the unit (doc/VIMA.md, "Debugging").
 *
 * A small gdb-style command set of its own, from one table: stepi,
 * continue, info vcache (lines, tags, LRU order, dirty bits), info stats,
 * print ARRAY[I][@N] (elements as the host sees them), watch ARRAY[I]
 * (stop when the element changes), help, quit.  Commands come from -x
 * files and -ex, in order, then from standard input unless -batch.
 * Batch exit status: 0, or 1 if a command failed.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vima_int.h"

#define WATCH_MAX 16

typedef struct watch { int array; uint64_t index, old; } watch;

typedef struct session {
	vima_program p;
	vima_unit u;
	bool loaded, finished, failed, quit;
	watch w[WATCH_MAX];
	int nw;
} session;

typedef struct dcmd {
	const char *name, *alias;
	void (*run)(session *s, const char *arg);
	const char *help;
} dcmd;

static void fail(session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(session *s, const char *fmt, ...)
{
	va_list ap;
	fflush(stdout);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	s->failed = true;
}

static uint64_t elem(const session *s, int a, uint64_t i)
{
	const vima_array *ar = &s->p.arrays[a];
	const unsigned sz = vima_type_size(ar->type);
	uint8_t bytes[8];
	uint64_t addr = ar->base + i * sz, v = 0;
	vima_host_load((vima_unit *)&s->u, addr, bytes, sz, false);
	memcpy(&v, bytes, sz);
	return v;
}

/* ARRAY[I] [@N]: 0 with *a, *i, *n; -1 after a message. */
static int parse_ref(session *s, const char *arg, int *a, uint64_t *i, uint64_t *n)
{
	char name[VIMA_NAME_MAX];
	unsigned long long idx = 0, cnt = 1;
	int used = 0;
	if (sscanf(arg, " %63[A-Za-z0-9_]%n", name, &used) != 1)
		return fail(s, "expected ARRAY[INDEX], as in print A[3] or print A[0]@8"), -1;
	const char *r = arg + used;
	if (*r == '[' && sscanf(r, "[%llu]%n", &idx, &used) == 1)
		r += used;
	if (*r == '@' && sscanf(r, "@%llu%n", &cnt, &used) == 1)
		r += used;
	while (*r == ' ')
		r++;
	*a = vima_array_find(&s->p, name);
	if (*r || *a < 0)
		return fail(s, *a < 0 ? "no array '%s'" : "expected ARRAY[INDEX][@COUNT] after '%s'",
			    name), -1;
	const uint64_t count = s->p.arrays[*a].count;
	if (idx >= count || cnt == 0 || cnt > count - idx)
		return fail(s, "%s[%llu]@%llu is outside %s (%" PRIu64 " elements)", name, idx, cnt,
			    name, count), -1;
	*i = idx;
	*n = cnt;
	return 0;
}

/* ---- running ---- */

static void where(const session *s, size_t at)
{
	const vima_stmt *st = &s->p.stmts[at];
	if (st->kind == VIMA_S_INSN)
		printf("#%" PRIu64 " %s:%d: %s.%s\n", s->u.st.insns, s->p.path, st->line,
		       vima_op_info_of(st->op)->name, vima_type_name(st->type));
	else
		printf("host store %s:%d\n", s->p.path, st->line);
}

/* Did a watched element change?  Report each that did. */
static bool watches_hit(session *s)
{
	bool hit = false;
	for (int k = 0; k < s->nw; k++) {
		watch *w = &s->w[k];
		const uint64_t now = elem(s, w->array, w->index);
		if (now == w->old)
			continue;
		const vima_array *a = &s->p.arrays[w->array];
		char o[64], n[64];
		vima_elem_text(a->type, w->old, o, sizeof o);
		vima_elem_text(a->type, now, n, sizeof n);
		printf("Watchpoint %d: %s[%" PRIu64 "]\nOld value = %s\nNew value = %s\n", k + 1,
		       a->name, w->index, o, n);
		w->old = now;
		hit = true;
	}
	return hit;
}

/* One step; true to go on. */
static bool step_once(session *s, bool quiet)
{
	if (s->finished) {
		fail(s, "The program is not being run.");
		return false;
	}
	diag d;
	diag_clear(&d);
	int rc = vima_step(&s->u, &d);
	if (rc < 0) {
		s->finished = true;
		fail(s, "%s", d.msg);
		return false;
	}
	if (rc == VIMA_STEP_END) {
		s->finished = true;
		printf("[program finished: %" PRIu64 " VIMA instructions, %" PRIu64 " cycles]\n",
		       s->u.st.insns, s->u.st.cycles);
		return false;
	}
	if (rc == VIMA_STEP_FAULT) {
		s->finished = true;
		printf("Page fault at VIMA instruction %" PRIu64 " (%s:%d): nothing of it committed\n",
		       s->u.fault_insn, s->p.path, s->p.stmts[s->u.fault_stmt].line);
		return false;
	}
	const bool hit = watches_hit(s);
	if (!quiet || hit)
		where(s, s->u.pc.next - 1);
	return !hit;
}

static void cmd_stepi(session *s, const char *arg)
{
	unsigned long long n = 1;
	if (*arg && (sscanf(arg, "%llu", &n) != 1 || n == 0)) {
		fail(s, "stepi: expected a positive count, got '%s'", arg);
		return;
	}
	for (unsigned long long k = 0; k < n; k++)
		if (!step_once(s, k + 1 < n))
			return;
}

static void cmd_continue(session *s, const char *arg)
{
	(void)arg;
	while (step_once(s, true))
		;
}

/* ---- looking ---- */

/* Which array (and element) holds address addr. */
static void addr_name(const session *s, uint64_t addr, char *buf, size_t size)
{
	for (size_t i = 0; i < s->p.narrays; i++) {
		const vima_array *a = &s->p.arrays[i];
		if (addr >= a->base && addr < a->base + a->bytes) {
			snprintf(buf, size, "%s[%" PRIu64 "]", a->name,
				 (addr - a->base) / vima_type_size(a->type));
			return;
		}
	}
	snprintf(buf, size, "(padding)");
}

static void cmd_info(session *s, const char *arg)
{
	if (!strcmp(arg, "stats")) {
		vima_stats_text(stdout, &s->u);
		return;
	}
	if (strcmp(arg, "vcache") != 0) {
		fail(s, "info: expected vcache or stats");
		return;
	}
	printf("line  valid  dirty  LRU  tag         vector\n");
	for (unsigned i = 0; i < s->u.nlines; i++) {
		const vima_line *l = &s->u.lines[i];
		unsigned rank = 0; /* 0: most recently used */
		for (unsigned j = 0; j < s->u.nlines; j++)
			rank += s->u.lines[j].valid && s->u.lines[j].used > l->used;
		char name[96] = "-";
		if (l->valid)
			addr_name(s, l->tag, name, sizeof name);
		if (l->valid)
			printf("%4u  yes    %-5s  %3u  0x%08" PRIx64 "  %s\n", i, l->dirty ? "yes" : "no",
			       rank, l->tag, name);
		else
			printf("%4u  no     -        -  -           -\n", i);
	}
}

static void cmd_print(session *s, const char *arg)
{
	int a;
	uint64_t i, n;
	if (parse_ref(s, arg, &a, &i, &n) < 0)
		return;
	for (uint64_t k = i; k < i + n; k++) {
		char text[64];
		vima_elem_text(s->p.arrays[a].type, elem(s, a, k), text, sizeof text);
		printf("%s[%" PRIu64 "] = %s\n", s->p.arrays[a].name, k, text);
	}
}

static void cmd_watch(session *s, const char *arg)
{
	int a;
	uint64_t i, n;
	if (parse_ref(s, arg, &a, &i, &n) < 0)
		return;
	if (s->nw == WATCH_MAX || n != 1) {
		fail(s, n != 1 ? "watch: one element at a time" : "watch: at most %d", WATCH_MAX);
		return;
	}
	s->w[s->nw] = (watch){ a, i, elem(s, a, i) };
	printf("Watchpoint %d: %s[%" PRIu64 "]\n", ++s->nw, s->p.arrays[a].name, i);
}

static void cmd_help(session *s, const char *arg);
static void cmd_quit(session *s, const char *arg)
{
	(void)arg;
	s->quit = true;
}

static const dcmd commands[] = {
	{ "stepi", "si", cmd_stepi, "stepi [N]: run the next N VIMA instructions (or host stores)" },
	{ "step", "s", cmd_stepi, "step [N]: the same as stepi" },
	{ "continue", "c", cmd_continue, "continue: run to the end, a fault or a watchpoint" },
	{ "info", "i", cmd_info, "info vcache | stats: the vector cache's lines (tag, LRU rank, "
	  "dirty), or the statistics" },
	{ "print", "p", cmd_print, "print ARRAY[I][@N]: N elements as the host sees them" },
	{ "watch", NULL, cmd_watch, "watch ARRAY[I]: stop when the element changes" },
	{ "help", "h", cmd_help, "help: this list" },
	{ "quit", "q", cmd_quit, "quit: end the session" },
};

static void cmd_help(session *s, const char *arg)
{
	(void)s;
	(void)arg;
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		printf("%s\n", commands[i].help);
}

static void execute(session *s, const char *line)
{
	while (*line == ' ' || *line == '\t')
		line++;
	size_t n = strcspn(line, " \t\n");
	if (n == 0 || line[0] == '#')
		return;
	const char *arg = line + n;
	while (*arg == ' ' || *arg == '\t')
		arg++;
	char a[256];
	snprintf(a, sizeof a, "%.*s", (int)strcspn(arg, "\n"), arg);
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
		const dcmd *c = &commands[i];
		if ((strlen(c->name) == n && !strncmp(c->name, line, n)) ||
		    (c->alias && strlen(c->alias) == n && !strncmp(c->alias, line, n))) {
			c->run(s, a);
			return;
		}
	}
	fail(s, "Undefined command: \"%.*s\".  Try \"help\".", (int)n, line);
}

/* ---- the program ---- */

static void source(session *s, const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		fail(s, "%s: cannot open", path);
		return;
	}
	char line[1024];
	while (!s->quit && fgets(line, sizeof line, f))
		execute(s, line);
	fclose(f);
}

static int load(session *s, const char *prog, vima_parse_opts *po, const vima_run_opts *ro,
		unsigned lines)
{
	diag d;
	diag_clear(&d);
	if (vima_load(prog, po, &s->p, &d) < 0 ||
	    vima_unit_init(&s->u, &s->p, ro, lines, &d) < 0) {
		fprintf(stderr, "%s\n", d.msg);
		return -1;
	}
	s->loaded = true;
	return 0;
}

typedef struct dopts {
	bool batch, quiet;
	const char *prog;
	vima_parse_opts po;
	vima_run_opts ro;
	unsigned lines;
} dopts;

/* The options that shape the session (-x and -ex run later, in order).
 * 0, or an exit status after a message. */
static int parse_opts(int argc, char **argv, dopts *o)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-batch"))
			o->batch = true;
		else if (!strcmp(a, "-q") || !strcmp(a, "-quiet") || !strcmp(a, "-nx"))
			o->quiet = true;
		else if ((!strcmp(a, "-x") || !strcmp(a, "-ex")) && i + 1 < argc)
			i++;
		else if (!strncmp(a, "--lines=", 8))
			o->lines = (unsigned)strtoul(a + 8, NULL, 10);
		else if (!strncmp(a, "--vector=", 9))
			o->po.vector_bytes = (unsigned)strtoul(a + 9, NULL, 10);
		else if (!strncmp(a, "--fault-at=", 11))
			o->ro.fault_at = strtoull(a + 11, NULL, 10);
		else if (!strncmp(a, "-D", 2) && strchr(a, '=')) {
			char *eq = strchr(argv[i], '=');
			*eq = 0;
			o->po.defs[o->po.ndefs++] =
				(vima_define){ argv[i] + 2, strtoll(eq + 1, NULL, 0), false };
		} else if (a[0] != '-' && !o->prog)
			o->prog = a;
		else
			return fprintf(stderr, "infsdb: unknown option or extra operand '%s' for a "
				       ".vima program (doc/VIMA.md)\n", a), 2;
	}
	if (o->lines > VIMA_LINES_MAX || (o->po.vector_bytes && o->po.vector_bytes != 256 &&
					  o->po.vector_bytes != 8192))
		return fprintf(stderr, "infsdb: --lines is 1 to %u, --vector 256 or 8192\n",
			       VIMA_LINES_MAX), 2;
	return 0;
}

static void console(session *s)
{
	char line[1024];
	while (!s->quit) {
		if (isatty(STDIN_FILENO)) {
			fputs("(infsdb) ", stdout);
			fflush(stdout);
		}
		if (!fgets(line, sizeof line, stdin))
			break;
		execute(s, line);
	}
}

int vima_dbg_main(int argc, char **argv)
{
	session s;
	memset(&s, 0, sizeof s);
	dopts o = { .po.defs = calloc((size_t)argc, sizeof(vima_define)) };
	int rc = o.po.defs ? parse_opts(argc, argv, &o) : 1;
	if (rc == 0 && load(&s, o.prog, &o.po, &o.ro, o.lines) < 0)
		rc = 1;
	if (rc == 0 && !o.quiet && !o.batch)
		printf("infsdb: VIMA program %s, %zu arrays, vector %u B, %u lines. Type \"help\".\n",
		       o.prog, s.p.narrays, s.u.vbytes, s.u.nlines);
	for (int i = 1; rc == 0 && i < argc && !s.quit; i++) {
		if (!strcmp(argv[i], "-x") && i + 1 < argc)
			source(&s, argv[++i]);
		else if (!strcmp(argv[i], "-ex") && i + 1 < argc)
			execute(&s, argv[++i]);
	}
	if (rc == 0 && !o.batch)
		console(&s);
	if (rc == 0 && o.batch && s.failed)
		rc = 1;
	if (s.loaded) {
		vima_unit_free(&s.u);
		vima_program_free(&s.p);
	}
	free(o.po.defs);
	fflush(stdout);
	return rc;
}
