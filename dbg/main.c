/* SPDX-License-Identifier: MIT */
/*
 * main.c: the infsdb program: options, loading the stream, the init
 * files, -x and -ex, then the console (console.c: GNU readline, history
 * in ~/.infsdb_history, Enter repeats, Ctrl-C interrupts a running
 * program).
 *
 *   infsdb [OPTION]... PROG        (a .ins or .inb stream, a .tdfg, or a
 *                                   .json tDFG with --type; or a program
 *                                   of another target, .ar, .nsc, .vima,
 *                                   .simt: target mode, target.c)
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

#include "cli.h"
#include "dbg.h"
#include "incache.h"
#include "opts.h"
#include "tdfg_json.h"
#include "text.h"
#include "outfile.h"

static const char help_text[] =
"Usage: infsdb [OPTION]... PROG [OPTION]...\n"
"Debug a command stream (.ins text or .inb binary), or a tDFG program\n"
"(.tdfg, or the published artifact's .json with --type) lowered by the\n"
"JIT, on infsim's SRAM model: step it node by node, command by command\n"
"or micro-op by micro-op, stop on breakpoints and watchpoints, inspect\n"
"elements, wordlines and latches, and compare with the scalar reference\n"
"model (and, for a tDFG, with what its nodes mean).\n"
"A program of another system (.ar, .nsc, .vima, .simt) is debugged with\n"
"the same commands, over its own units (events and Updates, steps and\n"
"iterations, instructions, bundles): see doc/DEBUGGER.md, \"Targets\".\n"
"\n"
"  -batch                     read commands from -x and -ex only, then exit\n"
"  -x, -command FILE          execute the commands in FILE (repeatable)\n"
"  -ex, -eval-command CMD     execute CMD (repeatable; with -x, in order)\n"
"  -q, -quiet                 print no banner\n"
"  -nx                        do not read ~/.infsdbinit and ./.infsdbinit\n"
"  -ix, -init-command FILE    as -x, before ./.infsdbinit (-ix .infsdbinit\n"
"                             reads the folder's init file in any mode)\n"
"  -iex, -init-eval-command CMD  as -ex, before ./.infsdbinit\n"
"  -tui                       start in the text user interface (tui enable)\n"
"  -m, --machine=KEY=VAL[,KEY=VAL]...  machine settings, as infsim run\n"
"  -c, --config=FILE          machine config file, as infsim run\n"
"  -l, --load=BUF=FILE        every run starts with buffer BUF (a tDFG's array\n"
"                             or node) filled from FILE (.npy, or raw .bin),\n"
"                             as infsim run --load; repeatable, each BUF once\n"
"      --tdfg=FILE            validate the stream against the tDFG it was\n"
"                             lowered from: check compares the nodes whose\n"
"                             'node' markers stand at the position, check\n"
"                             every node stops at the first that differs\n"
"      --type=TYPE            the element type of an artifact's tDFG (.json):\n"
"                             i8, i16, i32, i64, u8 ... u64 or f32\n"
"  -D, --define=NAME=VALUE    give the program's parameter NAME (a tDFG's\n"
"                             'param NAME = DEFAULT') the integer VALUE, as\n"
"                             infsim run -D; repeatable, each NAME once\n"
"      --check                keep the system's independent reference, for\n"
"                             `check` (the other systems; streams keep theirs)\n"
"      --strict, -j N, and each system's own options (--root=naive, ...):\n"
"                             as infsim run (infsim run --help lists them)\n"
"      --help                 display this help and exit\n"
"      --version              output version information and exit\n"
"\n"
"Type \"help\" inside infsdb for the commands.\n"
"Exit status in batch mode: 0 if OK, 1 if a command failed, 3 if a\n"
"check found a difference; 2 on a usage error.\n"
"\n"
"Full documentation: man infsdb, and doc/DEBUGGER.md.\n"
"Report bugs to: " PACKAGE_BUGREPORT "\n";

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
	bool early;    /* -ix FILE, -iex CMD: before ./.infsdbinit */
	const char *arg;
} action;

typedef struct options {
	bool batch, quiet, no_init, tui;
	action *actions;
	size_t nactions;
	const char *prog;
	const char *tdfg;      /* --tdfg: validate the stream against this tDFG */
	const char *type;      /* --type: the element type of an artifact's tDFG (.json) */
	emu_tdfg_def *defs;    /* c's -D, as the tDFG parser takes them */
	dbg_load_arg *loads;   /* -l BUF=FILE */
	size_t nloads;
	tgt_opts c;            /* -m, -c, -D, --check, --strict, -j, the targets' own options */
	const struct option *lo;
	const tgt_ops *target; /* a program of another system than streams */
	char *text;            /* its text */
	size_t len;
	tgt_settings st;       /* what its open is given */
	const char **lnames, **lpaths;
} options;

enum { OPT_HELP = 256, OPT_VERSION, OPT_BATCH, OPT_EX, OPT_NX, OPT_TUI, OPT_TDFG, OPT_TYPE,
       OPT_CHECK, OPT_STRICT, OPT_IX, OPT_IEX };

static const struct option long_options[] = {
	{ "batch", no_argument, NULL, OPT_BATCH },
	{ "command", required_argument, NULL, 'x' },
	{ "ex", required_argument, NULL, OPT_EX },
	{ "eval-command", required_argument, NULL, OPT_EX },
	{ "ix", required_argument, NULL, OPT_IX },
	{ "init-command", required_argument, NULL, OPT_IX },
	{ "iex", required_argument, NULL, OPT_IEX },
	{ "init-eval-command", required_argument, NULL, OPT_IEX },
	{ "quiet", no_argument, NULL, 'q' },
	{ "silent", no_argument, NULL, 'q' },
	{ "nx", no_argument, NULL, OPT_NX },
	{ "tui", no_argument, NULL, OPT_TUI },
	{ "machine", required_argument, NULL, 'm' },
	{ "config", required_argument, NULL, 'c' },
	{ "load", required_argument, NULL, 'l' },
	{ "tdfg", required_argument, NULL, OPT_TDFG },
	{ "type", required_argument, NULL, OPT_TYPE },
	{ "define", required_argument, NULL, 'D' },
	{ "check", no_argument, NULL, OPT_CHECK },
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ "threads", required_argument, NULL, 'j' },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
};
enum { NLONG = sizeof long_options / sizeof long_options[0] };

/* Out of memory while reading the options: a runtime failure (exit 1),
 * not a usage error. */
static int oom_error(void)
{
	fputs("infsdb: error: out of memory\n", stderr);
	return EXIT_FAILURE;
}

static int add_action(options *o, bool is_file, bool early, const char *arg)
{
	action *grown = realloc(o->actions, (o->nactions + 1) * sizeof *grown);
	if (!grown)
		return oom_error();
	o->actions = grown;
	o->actions[o->nactions++] = (action){ is_file, early, arg };
	return 0;
}

/* -l BUF=FILE: the buffer is found when the program is loaded
 * (dbg_loads_read). */
static int add_load(options *o, const char *arg)
{
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg || !eq[1])
		return usage_error("-l %s: expected BUF=FILE", arg);
	if ((size_t)(eq - arg) >= EMU_NAME_MAX)
		return usage_error("-l %s: a buffer name is at most %d characters", arg,
				   EMU_NAME_MAX - 1);
	if (!strcmp(eq + 1, "-"))
		return usage_error("-l %s: infsdb reads its commands from standard input; give "
				   "the data a file", arg);
	dbg_load_arg l = { .path = eq + 1 };
	memcpy(l.name, arg, (size_t)(eq - arg));
	l.name[eq - arg] = 0;
	for (size_t i = 0; i < o->nloads; i++)
		if (!strcmp(o->loads[i].name, l.name))
			return usage_error("-l %s is given twice; each buffer is loaded once", l.name);
	dbg_load_arg *grown = realloc(o->loads, (o->nloads + 1) * sizeof *grown);
	if (!grown)
		return oom_error();
	o->loads = grown;
	o->loads[o->nloads++] = l;
	return 0;
}

/* One option: 0 to go on, -1 to exit 0 (--help, --version), else an exit status. */
static int one_option(options *o, int c)
{
	switch (c) {
	case OPT_BATCH: o->batch = true; return 0;
	case 'x': return add_action(o, true, false, optarg);
	case OPT_EX: return add_action(o, false, false, optarg);
	case OPT_IX: return add_action(o, true, true, optarg);
	case OPT_IEX: return add_action(o, false, true, optarg);
	case 'q': o->quiet = true; return 0;
	case OPT_NX: o->no_init = true; return 0;
	case OPT_TUI: o->tui = true; return 0;
	case 'm': o->c.machine[o->c.nmachine++] = optarg; return 0;
	case 'c': o->c.config = optarg; return 0;
	case 'l': return add_load(o, optarg);
	case OPT_TDFG: o->tdfg = optarg; return 0;
	case OPT_TYPE: o->type = optarg; return 0;
	case 'D': return tgt_opts_define(&o->c, NULL, optarg);
	case OPT_CHECK: o->c.check = true; return 0;
	case OPT_STRICT: o->c.strict = true; return 0;
	case 'j': return tgt_opts_threads(&o->c, NULL, optarg);
	case OPT_HELP: fputs(help_text, stdout); return -1;
	case OPT_VERSION: printf("infsdb (infsim) %s\n%s", PACKAGE_VERSION, VERSION_NOTICE); return -1;
	default:
		if (c >= TGT_OPTS_BASE) {
			tgt_opts_given(&o->c, o->lo, c, optarg);
			return 0;
		}
		return usage_error("unknown option");
	}
}

/* Is the program another system's (o->target)?  A file that cannot be
 * read is left to the stream session, which says why. */
static bool which_target(options *o)
{
	diag d;
	diag_clear(&d);
	if (!strcmp(o->prog, "-") || text_read_file(o->prog, TEXT_FILE_MAX, &o->text, &o->len, &d) < 0)
		return false;
	const tgt_ops *ops = tgt_find(o->prog, o->text, o->len < 4096 ? o->len : 4096);
	if (ops && strcmp(ops->name, "stream") != 0) {
		o->target = ops;
		return true;
	}
	free(o->text);
	o->text = NULL;
	return false;
}

static int target_options(options *o);

static int parse_options(int argc, char **argv, options *o)
{
	int c;
	opterr = 0;
	/* options before and after the program, as infsim run takes them */
	while ((c = getopt_long_only(argc, argv, "-x:qm:c:D:l:j:", o->lo, NULL)) != -1) {
		if (c == '?') {
			if (optopt && strchr("xmcDlj", optopt))
				return usage_error("option '-%c' requires an argument", optopt);
			return usage_error("unrecognized option '%s'", argv[optind - 1]);
		}
		if (c == 1) {
			if (o->prog)
				return usage_error("extra operand '%s'", optarg);
			o->prog = optarg;
			continue;
		}
		int rc = one_option(o, c);
		if (rc)
			return rc;
	}
	if (!o->prog) {
		char exts[256];
		tgt_opts_exts(exts, sizeof exts);
		return usage_error("missing program operand (%s)", exts);
	}
	o->c.prog = o->prog;
	if (which_target(o))
		return target_options(o);
	if (o->c.ntopts)
		return tgt_opts_refuse(tgt_opts_target("stream"), &o->c, NULL);
	/* An artifact's dump has no element type of its own (doc/TDFG.md). */
	const bool json = emu_tdfg_json_path(o->prog);
	if (json && !o->type)
		return usage_error("%s: an artifact's tDFG (.json) has no element type; give one "
				   "with --type (f32, i32, ...)", o->prog);
	if (!json && o->type && !(o->tdfg && emu_tdfg_json_path(o->tdfg)))
		return usage_error("--type applies to an artifact's tDFG (.json), not to '%s'",
				   o->prog);
	if (o->c.ndefs && !emu_tdfg_path(o->prog) && !o->tdfg)
		return usage_error("-D %s: parameters are a tDFG's (.tdfg, or --tdfg), not %s's",
				   o->c.defs[0].name, o->prog);
	o->defs = inc_defs(o->c.defs, o->c.ndefs);
	return o->defs ? 0 : oom_error();
}

/* ---- loading ---- */

/* A program of another target than the in-cache machine's: infsim run's
 * refusals, and none of the stream session's own options. */
static int target_options(options *o)
{
	if (o->tdfg || o->type)
		return usage_error("%s '%s': a stream's option; %s is a program of %s", o->tdfg ?
				   "--tdfg" : "--type", o->tdfg ? o->tdfg : o->type, o->prog,
				   o->target->title);
	o->c.loads = o->nloads > 0;
	return tgt_opts_refuse(o->target, &o->c, NULL);
}

/* Target mode: open the program once (its errors are the session's
 * start's), with the settings and -l's arrays every run opens it with. */
static int load_target(dbg_session *s, options *o, diag *d)
{
	int rc = tgt_opts_settings(o->target, &o->c, NULL, &o->st);
	if (rc)
		return rc;
	o->lnames = calloc(o->nloads + 1, sizeof *o->lnames);
	o->lpaths = calloc(o->nloads + 1, sizeof *o->lpaths);
	if (!o->lnames || !o->lpaths)
		return oom_error();
	for (size_t i = 0; i < o->nloads; i++) {
		o->lnames[i] = o->loads[i].name;
		o->lpaths[i] = o->loads[i].path;
	}
	dbg_tgt_args a = {
		.load = { .path = o->prog, .text = o->text, .len = o->len, .defs = o->c.defs,
			  .ndefs = o->c.ndefs, .settings = o->st.s, .nsettings = o->st.n,
			  .opts = o->st.ov, .nopts = o->st.nov, .check = o->c.check,
			  .strict = o->c.strict, .threads = o->c.threads },
		.lnames = o->lnames, .lpaths = o->lpaths, .nl = o->nloads,
	};
	if (dbg_tgt_init(s, o->target, &a) < 0)
		return oom_error();
	tgt_status st;
	if (dbg_tgt_open(s, &st, d) < 0)
		return st == TGT_USAGE ? tgt_opts_open_usage(d, NULL) : (fprintf(stderr, "%s\n",
									 d->msg), DBG_EXIT_FAILED);
	s->loaded = true;
	return 0;
}

/* The stream, for the machine the options give (emu_load_file: a text
 * stream may be resized, a binary one may not); a .tdfg, or an
 * artifact's .json read as --type says, is lowered by the JIT for that
 * machine (nodes.c). */
static int load_stream(dbg_session *s, const options *o, const emu_geom_override *ov, diag *d)
{
	const bool tdfg = emu_tdfg_path(o->prog) || emu_tdfg_json_path(o->prog);
	if (tdfg ? dbg_tdfg_load(s, o->prog, o->type, ov, o->defs, o->c.ndefs, d) < 0
				   : emu_load_file(o->prog, ov, &s->prog, d) < 0 ||
				     inc_need_commands(&s->prog, d) < 0 ||
				     emu_program_lower(&s->prog, d) < 0)
		return -1;
	/* A strm marker's stream is the tDFG's: infsdb runs it from a .tdfg. */
	const emu_mark *m = s->tdfg ? NULL : emu_program_strm_mark(&s->prog);
	if (m) {
		diag_at(d, s->prog.path, m->line, 0, "'node %s strm': the near-memory stream of "
			"strm node '%s' runs here, and what it computes is in the tDFG the stream "
			"was lowered from; debug that .tdfg", m->name, m->name);
		return -1;
	}
	if (o->tdfg && dbg_valid_load(s, o->tdfg, o->type, o->defs, o->c.ndefs, d) < 0)
		return -1;
	s->loaded = true; /* the program is in (dbg_find_buffer); its data next */
	return dbg_loads_read(s, o->loads, o->nloads, d);
}

/* 0, or an exit status after the message. */
static int load_program(dbg_session *s, const options *o, diag *d)
{
	emu_geom_override ov;
	const int rc = inc_machine_opts(&o->c, NULL, &ov);
	if (rc)
		return rc;
	if (load_stream(s, o, &ov, d) == 0)
		return 0;
	fprintf(stderr, "%s\n", d->msg);
	return DBG_EXIT_FAILED;
}

static void print_banner(const dbg_session *s, const char *path)
{
	if (s->ops) {
		const size_t n = s->ops->narrays(s->tg);
		printf("Reading %s: a program of %s (%s), %zu array%s.\n", path, s->ops->title,
		       s->ops->name, n, n == 1 ? "" : "s");
		return;
	}
	if (!s->tdfg) {
		printf("Reading %s: %zu commands, %zu buffers.\n", path, s->prog.ncmds,
		       s->prog.nbufs);
		return;
	}
	printf("Reading %s: %zu nodes in %zu region%s, lowered to %zu commands.\n", path,
	       s->t.nnodes, s->t.nregions, s->t.nregions == 1 ? "" : "s", s->prog.ncmds);
}

/* The actions of one kind (early: -ix and -iex; else -x and -ex), in
 * their order. */
static void run_actions(dbg_session *s, const options *o, bool early)
{
	for (size_t i = 0; i < o->nactions && !s->quit; i++) {
		bool repeat;
		if (o->actions[i].early != early)
			continue;
		if (o->actions[i].is_file)
			dbg_source(s, o->actions[i].arg);
		else
			dbg_execute(s, o->actions[i].arg, &repeat);
	}
}

/* As gdb: ~/.infsdbinit, then -ix and -iex, then ./.infsdbinit only if
 * the folder is trusted (`set auto-load safe-path`) and not in batch
 * mode (a file that came with a program must not run unasked), then -x
 * and -ex.  A ./.infsdbinit that is not read is named, with how to read
 * it. */
static void read_init_files(dbg_session *s, const options *o)
{
	const char *home = getenv("HOME");
	char path[4096], cwd[4096] = "", real_home[4096] = "";
	if (!o->no_init && home && *home) {
		snprintf(path, sizeof path, "%s/.infsdbinit", home);
		if (access(path, R_OK) == 0)
			dbg_source(s, path);
	}
	run_actions(s, o, true);
	if (o->no_init || s->quit || access(".infsdbinit", F_OK) != 0)
		return;
	/* ./.infsdbinit, unless it is the same file as ~/.infsdbinit */
	if (!realpath(".", cwd) || (home && realpath(home, real_home) && !strcmp(cwd, real_home)))
		return;
	char local[4096];
	if (!realpath(".infsdbinit", local))
		return;
	for (size_t i = 0; i < o->nactions; i++)
		if (o->actions[i].early && o->actions[i].is_file &&
		    realpath(o->actions[i].arg, path) && !strcmp(path, local))
			return; /* named with -ix: read already */
	if (!o->batch && dbg_safe_path_allows(s, cwd)) {
		dbg_source(s, ".infsdbinit");
		return;
	}
	fprintf(stderr, "warning: %s/.infsdbinit was not read: %s. Read it with \"-ix "
		".infsdbinit\"%s, or give -nx to say nothing.\n", cwd, o->batch ?
		"-batch reads no init file of the current folder" :
		"the folder is not in the auto-load safe-path", o->batch ? "" :
		", or trust the folder with \"add-auto-load-safe-path FOLDER\" in ~/.infsdbinit");
}


/* Send stdout and stderr to a temporary file until capture_end (NULL
 * if it cannot be made: the output then goes to the terminal alone). */
static int saved_out = -1, saved_err = -1;

static FILE *capture_begin(void)
{
	FILE *f = tmpfile();
	if (!f)
		return NULL;
	fflush(stdout);
	fflush(stderr);
	saved_out = dup(STDOUT_FILENO);
	saved_err = dup(STDERR_FILENO);
	if (saved_out < 0 || saved_err < 0 || dup2(fileno(f), STDOUT_FILENO) < 0 ||
	    dup2(fileno(f), STDERR_FILENO) < 0) {
		if (saved_out >= 0)
			close(saved_out);
		if (saved_err >= 0)
			close(saved_err);
		saved_out = saved_err = -1;
		fclose(f);
		return NULL;
	}
	return f;
}

/* Put the terminal back, show what was captured there, and keep it for
 * the TUI's console. */
static void capture_end(FILE *f)
{
	fflush(stdout);
	fflush(stderr);
	dup2(saved_out, STDOUT_FILENO);
	dup2(saved_err, STDERR_FILENO);
	close(saved_out);
	close(saved_err);
	saved_out = saved_err = -1;
	rewind(f);
	char buf[4096], *all = NULL;
	size_t got, len = 0;
	while ((got = fread(buf, 1, sizeof buf, f)) > 0) {
		fwrite(buf, 1, got, stdout);
		char *grown = realloc(all, len + got);
		if (!grown)
			continue; /* shown on the terminal; the console misses it */
		all = grown;
		memcpy(all + len, buf, got);
		len += got;
	}
	if (all) /* whole lines: a line must not be cut where a read ended */
		dbg_tui_preload(all, len);
	free(all);
	fflush(stdout);
	fclose(f);
}

static int session_status(const dbg_session *s)
{
	if (s->failed)
		return DBG_EXIT_FAILED;
	return s->mismatch ? DBG_EXIT_MISMATCH : EXIT_SUCCESS;
}

static void options_free(options *o)
{
	free(o->actions);
	free(o->defs);
	free(o->loads);
	free(o->text);
	free(o->lnames);
	free(o->lpaths);
	free((void *)o->lo);
	tgt_opts_settings_free(&o->st);
	tgt_opts_free(&o->c);
}

int main(int argc, char **argv)
{
	cli_program = "infsdb";
	options o = { 0 };
	int rc = tgt_opts_init(&o.c, (size_t)argc) < 0 ||
		 !(o.lo = tgt_opts_longopts(long_options, NLONG)) ? oom_error()
								   : parse_options(argc, argv, &o);
	if (rc) {
		options_free(&o);
		return rc < 0 ? EXIT_SUCCESS : rc;
	}
	dbg_session s = { 0 };
	dbg_rsnap_init(&s);
	/* readline must not export LINES and COLUMNS: ncurses would then
	 * keep that size after a resize. */
	rl_change_environment = 0;
	rl_readline_name = "infsdb"; /* $if infsdb in ~/.inputrc */
	dbg_history_size_from_env();
	s.batch = o.batch;
	s.confirm = s.pagination = true; /* gdb's defaults */
	s.interactive = !o.batch && isatty(STDIN_FILENO);
	diag d;
	diag_clear(&d);
	if (!o.batch && !o.quiet)
		printf("infsdb (infsim) %s\nType \"help\" for the commands.\n", PACKAGE_VERSION);
	rc = o.target ? load_target(&s, &o, &d)
		      : load_program(&s, &o, &d);
	if (rc) {
		dbg_tgt_free(&s);
		dbg_loads_free(&s);
		dbg_valid_free(&s);
		emu_program_free(&s.prog);
		dbg_tdfg_free(&s);
		options_free(&o);
		return rc;
	}
	if (!o.batch && !o.quiet)
		print_banner(&s, o.prog);
	/* Interactive: Ctrl-C stops a running program, not the session.
	 * Batch: it ends the session, removing a half-written checkpoint. */
	if (o.batch)
		outfile_cleanup_on_signals();
	else
		dbg_console_install_sigint();
	dbg_completion_init(&s);
	dbg_tui_bind_keys();
	/* With -tui, what the init files and -x print would be hidden by the
	 * screen: it goes to the terminal and to the TUI's console too. */
	FILE *early = o.tui && s.interactive ? capture_begin() : NULL;
	read_init_files(&s, &o);
	run_actions(&s, &o, false);
	if (early)
		capture_end(early);
	if (o.tui && !s.quit)
		dbg_tui_enable(&s);
	if (!o.batch && !s.quit)
		dbg_console_loop(&s);
	dbg_tui_disable();
	dbg_session_stop(&s); /* writes a recording still in progress */
	rc = s.exit_set ? s.exit_code : o.batch ? session_status(&s) : EXIT_SUCCESS;
	if (s.defining)
		fprintf(stderr, "infsdb: the definition of \"%s\" was not ended by \"end\".\n",
			s.defining->name);
	dbg_session_free(&s);
	options_free(&o);
	/* A session whose output never reached stdout (a full disk, a
	 * closed pipe) failed, as infsim's does. */
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "infsdb: error: writing to standard output: %s\n", strerror(errno));
		return DBG_EXIT_FAILED;
	}
	return rc;
}
