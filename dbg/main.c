/* SPDX-License-Identifier: MIT */
/*
 * main.c: the infsdb program: options, loading the stream, the init
 * files, -x and -ex, and the console (GNU readline, history in
 * ~/.infsdb_history, Enter repeats, Ctrl-C interrupts a running program).
 *
 *   infsdb [OPTION]... PROG        (a .ins or .inb stream, or a .tdfg)
 *
 * Exit status (batch mode): 0 if every command worked and every check
 * agreed, 1 if a command failed, 3 if a check found a difference, 2 on a
 * usage error.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "ar.h"
#include "dbg.h"
#include "text.h"
#include "outfile.h"
#include "vima.h"
#include "simt.h"

static const char help_text[] =
"Usage: infsdb [OPTION]... PROG\n"
"Debug a command stream (.ins text or .inb binary), or a tDFG program\n"
"(.tdfg, lowered by the JIT), on infsim's SRAM model: step it node by node,\n"
"command by command or micro-op by micro-op, stop on breakpoints and\n"
"watchpoints, inspect elements, wordlines and latches, and compare with\n"
"the scalar reference model (and, for a tDFG, with what its nodes mean).\n"
"\n"
"  -batch                     read commands from -x and -ex only, then exit\n"
"  -x, -command FILE          execute the commands in FILE (repeatable)\n"
"  -ex, -eval-command CMD     execute CMD (repeatable; with -x, in order)\n"
"  -q, -quiet                 print no banner\n"
"  -nx                        do not read ~/.infsdbinit and ./.infsdbinit\n"
"  -tui                       start in the text user interface (tui enable)\n"
"  -m, --machine=KEY=VAL[,KEY=VAL]...  machine settings, as infsim run\n"
"  -c, --config=FILE          machine config file, as infsim run\n"
"      --tdfg=FILE            validate the stream against the tDFG it was\n"
"                             lowered from: check compares the nodes whose\n"
"                             'node' markers stand at the position, check\n"
"                             every node stops at the first that differs\n"
"      --help                 display this help and exit\n"
"      --version              output version information and exit\n"
"\n"
"Type \"help\" inside infsdb for the commands.\n"
"Exit status in batch mode: 0 if OK, 1 if a command failed, 3 if a\n"
"check found a difference; 2 on a usage error.\n"
"\n"
"Full documentation: man infsdb, and doc/DEBUGGER.md.\n"
"Report bugs to: " PACKAGE_BUGREPORT "\n";

void dbg_error(dbg_session *s, const char *fmt, ...)
{
	va_list ap;
	fflush(stdout);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
	s->failed = true;
}

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("infsdb: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'infsdb --help' for more information.\n", stderr);
	return DBG_EXIT_USAGE;
}

/* ---- options ---- */

typedef struct action {
	bool is_file;  /* -x FILE, else -ex CMD */
	const char *arg;
} action;

typedef struct options {
	bool batch, quiet, no_init, tui;
	action *actions;
	size_t nactions;
	const char *config;
	const char **machine;
	size_t nmachine;
	const char *prog;
	const char *tdfg;      /* --tdfg: validate the stream against this tDFG */
} options;

enum { OPT_HELP = 256, OPT_VERSION, OPT_BATCH, OPT_EX, OPT_NX, OPT_TUI, OPT_TDFG };

static const struct option long_options[] = {
	{ "batch", no_argument, NULL, OPT_BATCH },
	{ "command", required_argument, NULL, 'x' },
	{ "ex", required_argument, NULL, OPT_EX },
	{ "eval-command", required_argument, NULL, OPT_EX },
	{ "quiet", no_argument, NULL, 'q' },
	{ "silent", no_argument, NULL, 'q' },
	{ "nx", no_argument, NULL, OPT_NX },
	{ "tui", no_argument, NULL, OPT_TUI },
	{ "machine", required_argument, NULL, 'm' },
	{ "config", required_argument, NULL, 'c' },
	{ "tdfg", required_argument, NULL, OPT_TDFG },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

static int add_action(options *o, bool is_file, const char *arg)
{
	action *grown = realloc(o->actions, (o->nactions + 1) * sizeof *grown);
	if (!grown)
		return usage_error("out of memory");
	o->actions = grown;
	o->actions[o->nactions++] = (action){ is_file, arg };
	return 0;
}

static int add_machine(options *o, const char *arg)
{
	const char **grown = realloc(o->machine, (o->nmachine + 1) * sizeof *grown);
	if (!grown)
		return usage_error("out of memory");
	o->machine = grown;
	o->machine[o->nmachine++] = arg;
	return 0;
}

/* One option: 0 to go on, -1 to exit 0 (--help, --version), else an exit status. */
static int one_option(options *o, int c)
{
	switch (c) {
	case OPT_BATCH: o->batch = true; return 0;
	case 'x': return add_action(o, true, optarg);
	case OPT_EX: return add_action(o, false, optarg);
	case 'q': o->quiet = true; return 0;
	case OPT_NX: o->no_init = true; return 0;
	case OPT_TUI: o->tui = true; return 0;
	case 'm': return add_machine(o, optarg);
	case 'c': o->config = optarg; return 0;
	case OPT_TDFG: o->tdfg = optarg; return 0;
	case OPT_HELP: fputs(help_text, stdout); return -1;
	case OPT_VERSION: printf("infsdb (infsim) %s\n%s", PACKAGE_VERSION, VERSION_NOTICE); return -1;
	default: return usage_error("unknown option");
	}
}

static int parse_options(int argc, char **argv, options *o)
{
	int c;
	opterr = 0;
	while ((c = getopt_long_only(argc, argv, "+x:qm:c:", long_options, NULL)) != -1) {
		if (c == '?') {
			if (optopt && strchr("xmc", optopt))
				return usage_error("option '-%c' requires an argument", optopt);
			return usage_error("unrecognized option '%s'", argv[optind - 1]);
		}
		int rc = one_option(o, c);
		if (rc)
			return rc;
	}
	if (optind < argc)
		o->prog = argv[optind++];
	if (optind < argc)
		return usage_error("extra operand '%s'", argv[optind]);
	if (!o->prog)
		return usage_error("missing program operand (a .ins or .inb stream, or a .tdfg)");
	return 0;
}

/* ---- loading ---- */

static int machine_overrides(const options *o, emu_geom_override *ov, diag *d)
{
	emu_geom_override_init(ov);
	if (o->config && emu_geom_override_load(ov, o->config, d) < 0)
		return -1;
	for (size_t i = 0; i < o->nmachine; i++) {
		char why[256];
		if (emu_geom_override_parse(ov, o->machine[i], why, sizeof why) < 0) {
			diag_file(d, "infsdb", "--machine %s", why);
			return -1;
		}
	}
	const char *err = sram_geom_check(&ov->g);
	if (err)
		diag_file(d, "infsdb", "--machine: %s", err);
	return err ? -1 : 0;
}

/* The stream, for the machine the options give (emu_load_file: a text
 * stream may be resized, a binary one may not); a .tdfg is lowered by
 * the JIT for that machine (nodes.c). */
static int load_program(dbg_session *s, const options *o, diag *d)
{
	emu_geom_override ov;
	if (machine_overrides(o, &ov, d) < 0)
		return -1;
	if (emu_tdfg_path(o->prog) ? dbg_tdfg_load(s, o->prog, &ov, d) < 0
				   : emu_load_file(o->prog, &ov, &s->prog, d) < 0 ||
				     emu_program_lower(&s->prog, d) < 0)
		return -1;
	if (o->tdfg && dbg_valid_load(s, o->tdfg, d) < 0)
		return -1;
	s->loaded = true;
	return 0;
}

static void print_banner(const dbg_session *s, const char *path)
{
	if (!s->tdfg) {
		printf("Reading %s: %zu commands, %zu buffers.\n", path, s->prog.ncmds,
		       s->prog.nbufs);
		return;
	}
	printf("Reading %s: %zu nodes in %zu region%s, lowered to %zu commands.\n", path,
	       s->t.nnodes, s->t.nregions, s->t.nregions == 1 ? "" : "s", s->prog.ncmds);
}

/* ---- the console ---- */

static void on_sigint(int sig)
{
	(void)sig;
	dbg_interrupted = 1;
}

/* Ctrl-C at the prompt: drop the line being typed, as gdb does. */
static int prompt_signal_hook(void)
{
	if (dbg_interrupted) {
		dbg_interrupted = 0;
		rl_replace_line("", 0);
		rl_point = rl_end = rl_mark = 0;
		rl_crlf();
		rl_on_new_line();
		rl_redisplay();
	}
	return 0;
}

/* readline's getc, checking for a Ctrl-C that arrived while readline
 * was not waiting in read() (then no EINTR calls the hook above). */
static int prompt_getc(FILE *in)
{
	prompt_signal_hook();
	int c = rl_getc(in);
	prompt_signal_hook();
	return c;
}

static void install_sigint(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_sigint;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	/* Our handler alone sees SIGINT; readline's getc calls the hooks. */
	rl_catch_signals = 0;
	rl_signal_event_hook = prompt_signal_hook;
	rl_getc_function = prompt_getc;
}

static char *history_path(void)
{
	const char *home = getenv("HOME");
	if (!home || !*home)
		return NULL;
	size_t n = strlen(home) + sizeof "/.infsdb_history";
	char *path = malloc(n);
	if (path)
		snprintf(path, n, "%s/.infsdb_history", home);
	return path;
}

/* How many commands the history keeps: -1 for no limit.  gdb's default
 * (256), or INFSDB_HISTSIZE as gdb's GDBHISTSIZE (empty or negative: no
 * limit; not a number: the default), or `set history size`. */
static long hist_size = 256;

static void apply_history_size(void)
{
	if (hist_size < 0)
		unstifle_history();
	else
		stifle_history((int)hist_size);
}

static void history_size_from_env(void)
{
	const char *v = getenv("INFSDB_HISTSIZE");
	if (!v)
		return;
	char *end;
	errno = 0;
	long n = strtol(v, &end, 10);
	if (!*v || (!*end && !errno && n < 0))
		hist_size = -1;
	else if (!*end && !errno && n <= INT_MAX)
		hist_size = n;
	apply_history_size();
}

int dbg_cmd_set_history(dbg_session *s, char *args)
{
	char *save = NULL, *what = strtok_r(args, " \t", &save);
	char *val = strtok_r(NULL, " \t", &save), *end = NULL;
	if (!what || strcmp(what, "size") != 0 || !val || strtok_r(NULL, " \t", &save)) {
		dbg_error(s, "set history: expected \"size N\" or \"size unlimited\".");
		return -1;
	}
	errno = 0;
	long n = strcmp(val, "unlimited") == 0 ? -1 : strtol(val, &end, 10);
	if (end && (*end || errno || n < 0 || n > INT_MAX)) {
		dbg_error(s, "set history size: \"%s\" is not a number of commands from 0 to %d, "
			  "or unlimited.", val, INT_MAX);
		return -1;
	}
	hist_size = n;
	apply_history_size();
	return 0;
}

/* The last command typed, which Enter repeats when it may be. */
static char *last_line;
static bool last_repeats;

void dbg_console_line(dbg_session *s, char *line)
{
	bool empty = !*dbg_trim(line);
	if (empty && last_line && last_repeats) {
		s->repeating = true; /* list goes on after the lines it showed */
		dbg_execute(s, last_line, &last_repeats);
		s->repeating = false;
	} else if (!empty) {
		add_history(line);
		free(last_line);
		last_line = strdup(line);
		dbg_execute(s, line, &last_repeats);
	}
}

/* The console: plain readline, or the TUI's while it is active. */
static void interactive_loop(dbg_session *s)
{
	char *hist = history_path();
	if (hist)
		read_history(hist);
	apply_history_size(); /* a longer file is cut to the size */
	while (!s->quit) {
		if (dbg_tui_active()) {
			dbg_tui_run(s);
			continue;
		}
		char *line = readline("(infsdb) ");
		if (!line) {
			printf("quit\n");
			break;
		}
		if (dbg_tui_take_toggle()) /* Ctrl-X A */
			dbg_tui_enable(s);
		else
			dbg_console_line(s, line);
		free(line);
	}
	free(last_line);
	last_line = NULL;
	if (hist) {
		write_history(hist);
		if (hist_size >= 0)
			history_truncate_file(hist, (int)hist_size);
	}
	free(hist);
}

static void read_init_files(dbg_session *s)
{
	const char *home = getenv("HOME");
	char path[4096];
	if (home && *home) {
		snprintf(path, sizeof path, "%s/.infsdbinit", home);
		if (access(path, R_OK) == 0)
			dbg_source(s, path);
	}
	/* ./.infsdbinit, unless it is the same file as ~/.infsdbinit */
	char cwd[4096];
	if (access(".infsdbinit", R_OK) == 0 &&
	    !(home && getcwd(cwd, sizeof cwd) && strcmp(cwd, home) == 0))
		dbg_source(s, ".infsdbinit");
}

static void run_actions(dbg_session *s, const options *o)
{
	for (size_t i = 0; i < o->nactions && !s->quit; i++) {
		bool repeat;
		if (o->actions[i].is_file)
			dbg_source(s, o->actions[i].arg);
		else
			dbg_execute(s, o->actions[i].arg, &repeat);
	}
}

static int session_status(const dbg_session *s)
{
	if (s->failed)
		return DBG_EXIT_FAILED;
	return s->mismatch ? DBG_EXIT_MISMATCH : EXIT_SUCCESS;
}

int main(int argc, char **argv)
{
	/* VIMA programs have their own command set (emu/vima, doc/VIMA.md). */
	if (vima_cli_wants(argc - 1, argv + 1))
		return vima_dbg_main(argc, argv);
	if (simt_cli_wants(argc, argv)) /* DC-PTX programs (emu/simt, doc/SIMT.md) */
		return simt_dbg_main(argc, argv);
	if (ar_cli_wants(argc, argv)) /* an Active-Routing program: dbg/ar.c */
		return dbg_ar_main(argc, argv);
	options o = { 0 };
	int rc = parse_options(argc, argv, &o);
	if (rc) {
		free(o.actions);
		free(o.machine);
		return rc < 0 ? EXIT_SUCCESS : rc;
	}
	dbg_session s = { 0 };
	/* readline must not export LINES and COLUMNS: ncurses would then
	 * keep that size after a resize. */
	rl_change_environment = 0;
	rl_readline_name = "infsdb"; /* $if infsdb in ~/.inputrc */
	history_size_from_env();
	s.batch = o.batch;
	s.interactive = !o.batch && isatty(STDIN_FILENO);
	diag d;
	diag_clear(&d);
	if (!o.batch && !o.quiet)
		printf("infsdb (infsim) %s\nType \"help\" for the commands.\n", PACKAGE_VERSION);
	if (load_program(&s, &o, &d) < 0) {
		fprintf(stderr, "%s\n", d.msg);
		dbg_valid_free(&s);
		dbg_tdfg_free(&s);
		free(o.actions);
		free(o.machine);
		return DBG_EXIT_FAILED;
	}
	if (!o.batch && !o.quiet)
		print_banner(&s, o.prog);
	/* Interactive: Ctrl-C stops a running program, not the session.
	 * Batch: it ends the session, removing a half-written checkpoint. */
	if (o.batch)
		outfile_cleanup_on_signals();
	else
		install_sigint();
	dbg_completion_init(&s);
	dbg_tui_bind_keys();
	if (!o.no_init)
		read_init_files(&s);
	run_actions(&s, &o);
	if (o.tui && !s.quit)
		dbg_tui_enable(&s);
	if (!o.batch && !s.quit)
		interactive_loop(&s);
	dbg_tui_disable();
	dbg_session_stop(&s); /* writes a recording still in progress */
	rc = o.batch ? session_status(&s) : EXIT_SUCCESS;
	dbg_bp_free_all(&s);
	dbg_display_free_all(&s);
	dbg_valid_free(&s);
	emu_program_free(&s.prog);
	dbg_tdfg_free(&s);
	free(o.actions);
	free(o.machine);
	fflush(stdout);
	return rc;
}
