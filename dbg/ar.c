/* SPDX-License-Identifier: MIT */
/*
 * ar.c: infsdb on an Active-Routing program (PROG.ar): step one event
 * (a packet arriving, an operand read) or one Update, stop at a flow's
 * events, show every cube's flow table and a flow's partial results
 * (doc/ACTIVE-ROUTING.md, "Debugging").  A small console of its own: the
 * machine-level commands of infsdb do not apply to a cube network.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ar.h"
#include "dbg.h"

typedef struct ar_dbg {
	ar_program *p;
	ar_config c;
	ar_stats st;
	ar_session *ss;
	bool ended, failed, has_break, quit;
	uint64_t brk;
	diag d;
} ar_dbg;

typedef struct ar_cmd {
	const char *name, *alias;
	int (*run)(ar_dbg *g, const char *arg);
	const char *help;
} ar_cmd;

static int cmd_error(const char *fmt, const char *arg)
{
	fflush(stdout);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	return -1;
}

/* One event; the end of the run is reported once. */
static int one_event(ar_dbg *g)
{
	if (g->ended)
		return cmd_error("%s", "The program is not being run.");
	int rc = ar_session_step(g->ss);
	if (rc > 0)
		return 1;
	g->ended = true;
	if (rc < 0) {
		g->failed = true;
		printf("The run stopped: %s\n", g->d.msg);
		return 0;
	}
	printf("The run ended after %llu events, cycle %llu: %s.\n",
	       (unsigned long long)g->st.events, (unsigned long long)g->st.cycles,
	       g->st.end_clean ? "every table, buffer and queue empty" : "NOT CLEAN");
	return 0;
}

static long count_arg(const char *arg)
{
	if (!arg || !*arg)
		return 1;
	char *end;
	long n = strtol(arg, &end, 10);
	return *end || n < 1 ? -1 : n;
}

static int cmd_stepi(ar_dbg *g, const char *arg)
{
	long n = count_arg(arg);
	if (n < 0)
		return cmd_error("stepi: expected a positive count, not '%s'", arg);
	for (long i = 0; i < n; i++) {
		int rc = one_event(g);
		if (rc <= 0)
			return rc;
	}
	printf("%s\n", ar_session_last(g->ss));
	return 0;
}

static int cmd_step(ar_dbg *g, const char *arg)
{
	long n = count_arg(arg);
	if (n < 0)
		return cmd_error("step: expected a positive count, not '%s'", arg);
	uint64_t want = ar_session_computed(g->ss) + (uint64_t)n;
	while (ar_session_computed(g->ss) < want) {
		int rc = one_event(g);
		if (rc <= 0)
			return rc;
	}
	printf("%s\n", ar_session_last(g->ss));
	return 0;
}

static int cmd_continue(ar_dbg *g, const char *arg)
{
	(void)arg;
	for (;;) {
		int rc = one_event(g);
		if (rc <= 0)
			return rc;
		uint64_t t;
		if (g->has_break && ar_session_last_flow(g->ss, &t) && t == g->brk) {
			printf("Breakpoint, %s\n", ar_session_last(g->ss));
			return 0;
		}
	}
}

static int cmd_break(ar_dbg *g, const char *arg)
{
	if (!arg || strncmp(arg, "flow ", 5))
		return cmd_error("break: expected 'break flow ARRAY[INDEX]', not '%s'", arg ? arg : "");
	diag d;
	diag_clear(&d);
	if (ar_target_of(g->p, arg + 5, &g->brk, &d))
		return cmd_error("%s", d.msg);
	g->has_break = true;
	printf("Breakpoint at the flow of %s\n", arg + 5);
	return 0;
}

static int cmd_delete(ar_dbg *g, const char *arg)
{
	(void)arg;
	g->has_break = false;
	return 0;
}

static int cmd_info(ar_dbg *g, const char *arg)
{
	if (arg && !strcmp(arg, "flows")) {
		ar_session_print_flows(g->ss, stdout);
		return 0;
	}
	if (arg && !strcmp(arg, "stats")) {
		ar_report_text(stdout, &g->st, &g->c);
		return 0;
	}
	return cmd_error("info: expected 'info flows' or 'info stats', not '%s'", arg ? arg : "");
}

static int cmd_print(ar_dbg *g, const char *arg)
{
	bool partial = arg && !strncmp(arg, "partial ", 8);
	const char *ref = partial ? arg + 8 : arg ? arg : "";
	uint64_t addr;
	diag d;
	diag_clear(&d);
	if (ar_target_of(g->p, ref, &addr, &d))
		return cmd_error("%s", d.msg);
	if (partial) {
		if (ar_session_print_partials(g->ss, addr, stdout))
			printf("%s: no flow in progress\n", ref);
		return 0;
	}
	for (size_t i = 0; i < ar_array_count(g->p); i++) {
		uint64_t base = ar_array_base(g->p, i), es = ar_array_type(g->p, i) == AR_I64 ? 8 : 4;
		if (addr < base || addr >= base + ar_array_len(g->p, i) * es)
			continue;
		uint64_t v = ar_array_get(g->p, i, (addr - base) / es);
		if (ar_array_type(g->p, i) == AR_F32) {
			uint32_t u = (uint32_t)v;
			float f;
			memcpy(&f, &u, 4);
			printf("%s = %.9g\n", ref, (double)f);
		} else {
			printf("%s = %lld\n", ref, ar_array_type(g->p, i) == AR_I32
			       ? (long long)(int32_t)(uint32_t)v : (long long)v);
		}
	}
	return 0;
}

static int cmd_quit(ar_dbg *g, const char *arg)
{
	(void)arg;
	g->quit = true;
	return 0;
}

static int cmd_help(ar_dbg *g, const char *arg);

static const ar_cmd cmds[] = {
	{ "run", "r", cmd_continue, "run to the end or to a breakpoint" },
	{ "continue", "c", cmd_continue, "the same" },
	{ "stepi", "si", cmd_stepi, "stepi [N]: N events (a packet arrives, an operand is read)" },
	{ "step", "s", cmd_step, "step [N]: until N more Updates have been computed" },
	{ "break", "b", cmd_break, "break flow ARRAY[INDEX]: stop at that flow's events" },
	{ "delete", "d", cmd_delete, "remove the breakpoint" },
	{ "info", "i", cmd_info, "info flows: every cube's flow table; info stats" },
	{ "print", "p", cmd_print, "print ARRAY[INDEX]; print partial ARRAY[INDEX]" },
	{ "help", "h", cmd_help, "this list" },
	{ "quit", "q", cmd_quit, "leave" },
};

static int cmd_help(ar_dbg *g, const char *arg)
{
	(void)g;
	(void)arg;
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
		printf("%-9s %-3s %s\n", cmds[i].name, cmds[i].alias, cmds[i].help);
	return 0;
}

static int execute(ar_dbg *g, char *text)
{
	char *arg, *line = dbg_line_split(text, NULL, &arg);
	if (!line)
		return 0;
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
		if (!strcmp(line, cmds[i].name) || !strcmp(line, cmds[i].alias))
			return cmds[i].run(g, arg);
	return cmd_error("Undefined command: \"%s\".  Try \"help\".", line);
}

static int execute_line(void *g, char *line)
{
	return execute(g, line);
}

int dbg_ar_main(int argc, char **argv)
{
	ar_dbg g = { .ss = NULL };
	ar_config_default(&g.c);
	diag_clear(&g.d);
	const char *prog = NULL;
	bool batch = false;
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "-batch"))
			batch = true;
		else if ((!strcmp(argv[i], "-x") || !strcmp(argv[i], "-ex")) && i + 1 < argc)
			i++;
		else if (argv[i][0] != '-')
			prog = argv[i];
	g.p = prog ? ar_load(prog, NULL, 0, &g.c, &g.d) : NULL;
	if (g.p)
		g.ss = ar_session_new(g.p, &g.c, &g.st, &g.d);
	if (!g.ss) {
		fprintf(stderr, "%s\n", g.d.msg);
		ar_program_free(g.p);
		return DBG_EXIT_FAILED;
	}
	ar_session_watch(g.ss, true);
	int rc = 0;
	for (int i = 1; i < argc && !g.quit; i++) {
		if (!strcmp(argv[i], "-x") && i + 1 < argc)
			rc |= dbg_lines_file(argv[++i], execute_line, &g, &g.quit);
		else if (!strcmp(argv[i], "-ex") && i + 1 < argc) {
			char buf[1024];
			snprintf(buf, sizeof buf, "%s", argv[++i]);
			rc |= execute(&g, buf) ? 1 : 0;
		}
	}
	if (!batch)
		dbg_lines_console(execute_line, &g, &g.quit);
	ar_session_free(g.ss);
	ar_program_free(g.p);
	return rc ? DBG_EXIT_FAILED : 0;
}
