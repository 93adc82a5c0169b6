/* SPDX-License-Identifier: MIT */
/*
 * dbg.c: `infsdb PROG.simt`: stepping a DC-PTX program one bundle at a
 * time and looking at a thread (doc/SIMT.md, "Debugging").
 *
 * A small gdb-style command set from one table: stepi (one bundle),
 * continue, break PC, where, thread N, print rN / pN, info mask (the
 * active mask and the threads waiting elsewhere: divergence), info
 * stats, help, quit.  Commands come from -x files and -ex, in order,
 * then from standard input unless -batch.  Batch exit status: 0, or 1
 * if a command failed.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "simt_int.h"

#define BREAK_MAX 16

struct simt_dbg {
	simt_program p;
	simt_machine *m;
	bool loaded, ended, failed, quit;
	unsigned thread;
	uint32_t brk[BREAK_MAX];
	int nbrk;
};
typedef struct simt_dbg session;

typedef struct dcmd {
	const char *name, *alias;
	void (*run)(session *s, const char *arg);
	const char *help;
} dcmd;

static void fail(session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(session *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	s->failed = true;
}

static bool mask_bit(const simt_mask *m, unsigned t)
{
	return (m->w[t / 64] >> (t % 64)) & 1;
}

static void cmd_where(session *s, const char *arg)
{
	(void)arg;
	simt_where w;
	if (s->ended || !simt_machine_where(s->m, &w)) {
		printf("the program has ended\n");
		return;
	}
	const simt_kernel *k = &s->p.k[w.kernel];
	printf("launch %u kernel %s CTA %u on CB %u, pc %u (line %d): ", w.launch, k->name, w.cta,
	       w.cb, w.pc, k->b[w.pc].line);
	simt_format_bundle(stdout, &s->p, &k->b[w.pc]);
	putchar('\n');
}

/* One bundle; false at the end or on an error. */
static bool step_one(session *s)
{
	diag d;
	diag_clear(&d);
	int rc = simt_machine_step(s->m, &d);
	if (rc < 0) {
		fail(s, "%s", d.msg);
		s->ended = true;
	} else if (rc == 0 || !simt_machine_where(s->m, &(simt_where){ 0 })) {
		printf("the program has ended\n");
		s->ended = true;
	}
	return rc > 0 && !s->ended;
}

static void cmd_stepi(session *s, const char *arg)
{
	long n = *arg ? strtol(arg, NULL, 10) : 1;
	if (n < 1)
		return fail(s, "stepi: expected a positive count, not '%s'", arg);
	if (s->ended)
		return fail(s, "the program has ended");
	for (long i = 0; i < n; i++)
		if (!step_one(s))
			return;
	cmd_where(s, "");
}

static bool at_break(session *s)
{
	simt_where w;
	if (!simt_machine_where(s->m, &w))
		return false;
	for (int i = 0; i < s->nbrk; i++)
		if (s->brk[i] == w.pc)
			return true;
	return false;
}

static void cmd_continue(session *s, const char *arg)
{
	(void)arg;
	if (s->ended)
		return fail(s, "the program has ended");
	do {
		if (!step_one(s))
			return;
	} while (!at_break(s));
	printf("breakpoint: ");
	cmd_where(s, "");
}

static void cmd_break(session *s, const char *arg)
{
	char *end;
	long pc = strtol(arg, &end, 10);
	if (!*arg || *end || pc < 0)
		return fail(s, "break: expected a bundle index (a PC), not '%s'", arg);
	if (s->nbrk == BREAK_MAX)
		return fail(s, "break: at most %d breakpoints", BREAK_MAX);
	s->brk[s->nbrk++] = (uint32_t)pc;
	printf("breakpoint %d at pc %ld\n", s->nbrk, pc);
}

static void cmd_thread(session *s, const char *arg)
{
	char *end;
	long t = strtol(arg, &end, 10);
	if (!*arg || *end || t < 0 || t >= SIMT_CB_THREADS)
		return fail(s, "thread: expected 0 to %d, not '%s'", SIMT_CB_THREADS - 1, arg);
	s->thread = (unsigned)t;
	simt_where w;
	if (s->ended || !simt_machine_where(s->m, &w)) {
		printf("thread %ld\n", t);
		return;
	}
	printf("thread %ld (TB %ld, bitline %ld): %s, waits at pc %u\n", t, t / SIMT_TB_THREADS,
	       t % SIMT_TB_THREADS, !mask_bit(&w.live, s->thread) ? "ended"
	       : mask_bit(&w.active, s->thread) ? "active" : "waiting",
	       simt_machine_thread_pc(s->m, s->thread));
}

static void cmd_print(session *s, const char *arg)
{
	simt_where w;
	if (s->ended || !simt_machine_where(s->m, &w))
		return fail(s, "print: no CTA is running");
	char *end;
	long n = strtol(arg + (*arg ? 1 : 0), &end, 10);
	if (arg[0] == 'p' && arg[1] && !*end && n >= 0 && n < SIMT_PREDS) {
		printf("thread %u p%ld = %d\n", s->thread, n, mask_bit(&w.pred[n], s->thread));
		return;
	}
	if (arg[0] != 'r' || !arg[1] || *end || n < 0 || n >= SIMT_REGS)
		return fail(s, "print: expected r0 to r%d or p0 to p%d, not '%s'", SIMT_REGS - 1,
			    SIMT_PREDS - 1, arg);
	uint32_t v = simt_machine_thread_reg(s->m, s->thread, (unsigned)n);
	float f;
	memcpy(&f, &v, 4);
	printf("thread %u r%ld = 0x%08x = %u = %d = %.9g\n", s->thread, n, v, v, (int32_t)v,
	       (double)f);
}

/* The active mask as ranges, and where the other live threads wait. */
static void cmd_mask(session *s, const char *arg)
{
	(void)arg;
	simt_where w;
	if (s->ended || !simt_machine_where(s->m, &w))
		return fail(s, "info mask: no CTA is running");
	unsigned n = 0;
	printf("active at pc %u:", w.pc);
	for (unsigned t = 0; t < SIMT_CB_THREADS; t++) {
		if (!mask_bit(&w.active, t) || (t && mask_bit(&w.active, t - 1)))
			continue;
		unsigned e = t;
		while (e + 1 < SIMT_CB_THREADS && mask_bit(&w.active, e + 1))
			e++;
		printf(e > t ? " %u-%u" : " %u", t, e);
		n += e - t + 1;
	}
	printf(" (%u threads)\n", n);
	for (uint32_t pc = 0; pc <= s->p.k[w.kernel].n; pc++) {
		unsigned c = 0;
		for (unsigned t = 0; t < SIMT_CB_THREADS; t++)
			c += mask_bit(&w.live, t) && !mask_bit(&w.active, t) &&
			     simt_machine_thread_pc(s->m, t) == pc;
		if (c)
			printf("waiting at pc %u: %u threads (divergence)\n", pc, c);
	}
}

static void cmd_stats(session *s, const char *arg)
{
	(void)arg;
	simt_report(stdout, &s->p, simt_machine_stats(s->m));
}

static void cmd_quit(session *s, const char *arg)
{
	(void)arg;
	s->quit = true;
}

static void cmd_help(session *s, const char *arg);

static const dcmd cmds[] = {
	{ "stepi", "si", cmd_stepi, "stepi [N]: issue N bundles (1) and show where the CB is" },
	{ "continue", "c", cmd_continue, "continue: run to a breakpoint or the end" },
	{ "break", "b", cmd_break, "break PC: stop before the bundle of index PC is issued" },
	{ "where", "info pc", cmd_where, "where: the launch, CTA, CB and the bundle issued next" },
	{ "thread", NULL, cmd_thread, "thread N: select thread N of the CTA (print shows its registers)" },
	{ "print", "p", cmd_print, "print rN | pN: the selected thread's register or predicate" },
	{ "info mask", "mask", cmd_mask, "info mask: the active threads, and the others' PCs (divergence)" },
	{ "info stats", "stats", cmd_stats, "info stats: the statistics so far" },
	{ "help", "h", cmd_help, "help: this list" },
	{ "quit", "q", cmd_quit, "quit: leave" },
};

static void cmd_help(session *s, const char *arg)
{
	(void)s;
	(void)arg;
	for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++)
		printf("  %s\n", cmds[i].help);
}

static bool word_is(const char *line, const char *w, const char **rest)
{
	size_t n = strlen(w);
	if (strncmp(line, w, n) || (line[n] && line[n] != ' '))
		return false;
	*rest = line + n + (line[n] == ' ');
	while (**rest == ' ')
		(*rest)++;
	return true;
}

static void execute(session *s, const char *text)
{
	char line[1024];
	snprintf(line, sizeof line, "%s", text);
	line[strcspn(line, "\r\n")] = 0;
	char *l = line;
	while (*l == ' ' || *l == '\t')
		l++;
	if (!*l || *l == '#')
		return;
	for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++) {
		const char *rest;
		if (word_is(l, cmds[i].name, &rest) || (cmds[i].alias && word_is(l, cmds[i].alias, &rest)))
			return cmds[i].run(s, rest);
	}
	fail(s, "unknown command '%s' (try help)", l);
}

static void source(session *s, const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return fail(s, "%s: cannot open", path);
	char line[1024];
	while (!s->quit && fgets(line, sizeof line, f))
		execute(s, line);
	fclose(f);
}

simt_dbg *simt_dbg_open(const char *path, diag *d)
{
	session *s = calloc(1, sizeof *s);
	if (!s) {
		diag_file(d, path, "out of memory");
		return NULL;
	}
	if (simt_load_file(path, &s->p, d) < 0 || !(s->m = simt_machine_new(&s->p, d))) {
		simt_program_free(&s->p);
		free(s);
		return NULL;
	}
	return s;
}

void simt_dbg_close(simt_dbg *s)
{
	if (!s)
		return;
	simt_machine_free(s->m);
	simt_program_free(&s->p);
	free(s);
}

bool simt_dbg_exec(simt_dbg *s, const char *line)
{
	execute(s, line);
	return !s->quit;
}

simt_machine *simt_dbg_machine(simt_dbg *s) { return s->m; }
const simt_program *simt_dbg_program(const simt_dbg *s) { return &s->p; }
unsigned simt_dbg_thread(const simt_dbg *s) { return s->thread; }
bool simt_dbg_ended(const simt_dbg *s) { return s->ended; }

void simt_where_slots(const simt_program *p, const simt_where *w, simt_mask slot[SIMT_ARRAYS + 2])
{
	memset(slot, 0, (SIMT_ARRAYS + 2) * sizeof *slot);
	const simt_bundle *b = &p->k[w->kernel].b[w->pc];
	for (unsigned i = 0; i < b->n; i++) {
		const simt_instr *in = &b->in[i];
		unsigned k = simt_instr_slot(in);
		for (unsigned j = 0; j < SIMT_MASK_WORDS; j++) {
			uint64_t g = in->guard < 0 ? ~UINT64_C(0) : w->pred[in->guard].w[j];
			slot[k].w[j] = w->active.w[j] & (in->guard_neg ? ~g : g);
		}
	}
}

bool simt_cli_wants(int argc, char **argv)
{
	return argc > 1 && cli_names_file(argc - 1, argv + 1, ".simt");
}

int simt_dbg_main(int argc, char **argv)
{
	session s;
	memset(&s, 0, sizeof s);
	bool batch = false, quiet = false;
	const char *prog = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-batch"))
			batch = true;
		else if (!strcmp(argv[i], "-q") || !strcmp(argv[i], "-quiet") || !strcmp(argv[i], "-nx"))
			quiet = true;
		else if ((!strcmp(argv[i], "-x") || !strcmp(argv[i], "-ex")) && i + 1 < argc)
			i++;
		else if (argv[i][0] != '-' && !prog)
			prog = argv[i];
		else
			return fprintf(stderr, "infsdb: unknown option or extra operand '%s' for a .simt program (doc/SIMT.md)\n", argv[i]), 2;
	}
	diag d;
	diag_clear(&d);
	if (simt_load_file(prog, &s.p, &d) < 0 || !(s.m = simt_machine_new(&s.p, &d))) {
		fprintf(stderr, "%s\n", d.msg);
		simt_program_free(&s.p);
		return 1;
	}
	if (!quiet && !batch)
		printf("infsdb: DC-PTX program %s, %zu kernels, %zu launches. Type \"help\".\n", prog,
		       s.p.nk, s.p.nl);
	for (int i = 1; i < argc && !s.quit; i++) {
		if (!strcmp(argv[i], "-x") && i + 1 < argc)
			source(&s, argv[++i]);
		else if (!strcmp(argv[i], "-ex") && i + 1 < argc)
			execute(&s, argv[++i]);
	}
	char line[1024];
	while (!batch && !s.quit) {
		if (isatty(STDIN_FILENO)) {
			fputs("(infsdb) ", stdout);
			fflush(stdout);
		}
		if (!fgets(line, sizeof line, stdin))
			break;
		execute(&s, line);
	}
	simt_machine_free(s.m);
	simt_program_free(&s.p);
	fflush(stdout);
	return batch && s.failed ? 1 : 0;
}
