/* SPDX-License-Identifier: MIT */
/*
 * main.c: the infsim program.
 *
 *   infsim run PROG [OPTION]...    execute a command stream
 *   infsim asm PROG -o OUT.inb     assemble to the binary form
 *   infsim disasm FILE             print canonical text
 *   infsim info [-m ...] [-c FILE] describe the machine
 *   infsim commands                list the commands
 *
 * Exit status: 0 success, 1 a runtime failure (a file, the stream), 2 a
 * usage error, 3 a result that differs from --expect or from --check.
 * Every message is one line naming the file (FILE:LINE:COL) or the option.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ar.h"
#include "assemble.h"
#include "cli.h"
#include "diag.h"
#include "elements.h"
#include "isa.h"
#include "text.h"
#include "machine.h"
#include "mem.h"
#include "move.h"
#include "npy.h"
#include "layout.h"
#include "outfile.h"
#include "program.h"
#include "tdfg.h"
#include "check.h"
#include "tdfg_json.h"
#include "nsc.h"
#include "refmodel.h"
#include "report.h"
#include "paper.h"
#include "tdfg_stats.h"
#include "validate.h"
#include "run.h"
#include "target.h"
#include "incache.h"
#include "opts.h"

enum { EXIT_USAGE = CLI_EXIT_USAGE, EXIT_MISMATCH = 3, EXIT_HAZARD = 4 };

static const char help_text[] =
"Usage: infsim run PROG [OPTION]...     run a program of any system infsim\n"
"                                       emulates, told by its extension:\n"
"                                       command streams (.ins, .inb) and tDFGs\n"
"                                       (.tdfg, .json) on the in-cache machine,\n"
"                                       Active-Routing (.ar), near-stream\n"
"                                       computing (.nsc), VIMA (.vima), Duality\n"
"                                       Cache's SIMT mode (.simt)\n"
"  or:  infsim PROG [OPTION]...         the same\n"
"  or:  infsim SYSTEM PROG [OPTION]...  the same, for that system only (stream,\n"
"                                       ar, nsc, vima or simt)\n"
"  or:  infsim jit PROG.tdfg [-o OUT]   print the stream the JIT lowers a tDFG\n"
"                                       into (.ins text)\n"
"  or:  infsim asm PROG -o OUT.inb      assemble to the binary form\n"
"  or:  infsim disasm FILE [--written]  print the canonical text of a stream:\n"
"                                       lowered, or as written\n"
"  or:  infsim info [-m ...] [-c FILE]  describe the in-cache machine\n"
"  or:  infsim commands [SYSTEM]        list the compute commands (of the\n"
"                                       in-cache machine, or of vima)\n"
"  or:  infsim layout PROG              print the Layout Override Table and the\n"
"                                       tile map of a stream's tensors\n"
"Emulate computing in and near cache memory, bit for bit.\n"
"\n"
"'infsim run --help' lists run's options: those of every system, then each\n"
"system's own.\n"
"\n"
"Options of jit, asm, disasm, layout and info (the in-cache machine):\n"
"  -m, --machine=KEY=VAL[,KEY=VAL]...  wordlines, bitlines, arrays (per way),\n"
"                             ways (per bank), mesh=XxY (banks), fp=ftz|ieee,\n"
"                             latency=baseline|optimised, cordic=K; repeatable\n"
"  -c, --config=FILE          machine config file (KEY = VAL lines)\n"
"                             Precedence: the stream's machine line < --config\n"
"                             < --machine, key by key.\n"
"      --type=TYPE            the element type of an artifact's tDFG (.json):\n"
"                             f32, or iN or uN with N 8, 16, 32 or 64\n"
"  -D, --define=NAME=VALUE    give the tDFG's parameter NAME the integer VALUE\n"
"  -o, --output=FILE          asm: the binary stream to write (required);\n"
"                             jit: write the lowered stream to FILE\n"
"      --json                 info: print the sizes as JSON\n"
"      --help                 display this help and exit\n"
"      --version              output version information and exit\n"
"\n"
"Exit status: 0 if OK, 1 on a runtime failure (a file, the program, the run),\n"
"2 on a usage error, 3 if a result differs (--expect or --check), 4 if\n"
"--strict stopped the run at a hazard, 5 if an injected fault stopped it.\n"
"\n"
"Full documentation: man infsim, and doc/USAGE.md.\n"
"Report bugs to: " PACKAGE_BUGREPORT "\n";

/* ---- messages ---- */

/* Out of memory before any file is read: a runtime failure (exit 1),
 * not a usage error. */
static int oom_error(void)
{
	fputs("infsim: error: out of memory\n", stderr);
	return EXIT_FAILURE;
}

static int print_help(void)
{
	fputs(help_text, stdout);
	return EXIT_SUCCESS;
}

static int print_version(void)
{
	printf("infsim %s\n%s", PACKAGE_VERSION, VERSION_NOTICE);
	return EXIT_SUCCESS;
}

/* ---- the options of the stream tools ---- */

/* -m, -c and -D as every front reads them (emu/target/opts.h), and
 * --type: the element type of a JSON tDFG. */
typedef struct geom_opts {
	tgt_opts c;
	const char *type;
} geom_opts;

static int geom_opts_init(geom_opts *go, int argc)
{
	go->type = NULL;
	return tgt_opts_init(&go->c, (size_t)argc) < 0 ? oom_error() : 0;
}

/* ---- reading a stream (.ins text or .inb words) ---- */


enum { OPT_CHECK = 256, OPT_STEPI, OPT_STATS, OPT_STATS_FILE, OPT_HELP,
       OPT_VERSION, OPT_JSON, OPT_WRITTEN };

enum { OPT_STRICT = 300, OPT_TDFG, OPT_TYPE, OPT_TP_CORE, OPT_LAT_JIT, OPT_INPUTS };

/* Options every subcommand shares: -m, -c, -D, --help, --version.  Returns
 * -1 if opt is not one of them, else 0 or an exit status (with *done
 * set when --help or --version has run). */
static int common_option(int opt, geom_opts *geo, bool *done)
{
	switch (opt) {
	case 'm':
		geo->c.machine[geo->c.nmachine++] = optarg;
		return 0;
	case 'c':
		geo->c.config = optarg;
		return 0;
	case 'D':
		return tgt_opts_define(&geo->c, NULL, optarg);
	case OPT_TYPE: {
		unsigned fmt, width, sg;
		const char *why;
		if (emu_tdfg_json_type(optarg, &fmt, &width, &sg, &why))
			return cli_usage(NULL, "--type '%s': %s", optarg, why);
		geo->type = optarg;
		return 0;
	}
	case OPT_HELP:
		*done = true;
		return print_help();
	case OPT_VERSION:
		*done = true;
		return print_version();
	case '?': /* getopt has said what was wrong, on one line */
		*done = true;
		fputs("Try 'infsim --help' for more information.\n", stderr);
		return EXIT_USAGE;
	}
	return -1;
}

/* The one operand of a subcommand, after getopt has permuted argv. */
static int one_operand(int argc, char **argv, const char *what, const char **out)
{
	if (optind >= argc)
		return cli_usage(NULL, "missing %s operand", what);
	if (optind + 1 < argc)
		return cli_usage(NULL, "extra operand '%s'", argv[optind + 1]);
	*out = argv[optind];
	return 0;
}

/* ---- the stream and its machine ---- */

/* Read a stream for the machine that its own `machine` line, --config
 * and --machine give, each key taken from the last of them that sets it
 * (so a user can resize any text stream).  0, or an exit status. */
/* A tDFG program (.tdfg) and what the JIT made of it; its lowered stream
 * is handed to the caller's emu_program. */
typedef struct tdfg_src {
	bool on;
	emu_tdfg t;
	emu_jit j;
} tdfg_src;

static void tdfg_src_free(tdfg_src *ts)
{
	if (!ts->on)
		return;
	emu_tdfg_free(&ts->t);
	emu_jit_free(&ts->j);
	ts->on = false;
}

/* The program at path, lowered (emu_program_lower) unless written.
 * vtdfg: the tDFG that --tdfg validates it against, which takes -D. */
static int load_program(const geom_opts *go, const char *path, emu_program *p,
			tdfg_src *ts, bool written, const char *vtdfg)
{
	diag d;
	diag_clear(&d);
	emu_geom_override ov;
	int rc = inc_machine_opts(&go->c, NULL, &ov);
	if (rc)
		return rc;
	const bool json = emu_tdfg_json_path(path);
	if (json && !go->type)
		return cli_usage(NULL, "%s: an artifact's tDFG (.json) has no element type; give one "
				   "with --type (f32, i32, ...)", path);
	if (!json && go->type && !(vtdfg && emu_tdfg_json_path(vtdfg)))
		return cli_usage(NULL, "--type applies to an artifact's tDFG (.json), not to '%s'", path);
	if (go->c.ndefs && (json || !emu_tdfg_path(path)) && !(vtdfg && (emu_tdfg_path(vtdfg) ||
									emu_tdfg_json_path(vtdfg))))
		return cli_usage(NULL, "-D %s: parameters are a tDFG's (.tdfg), not %s's",
				   go->c.defs[0].name, path);
	if (json || emu_tdfg_path(path)) {
		ts->on = true;
		emu_tdfg_def *defs = inc_defs(go->c.defs, go->c.ndefs);
		if (!defs)
			return oom_error();
		rc = json ? emu_tdfg_json_load(path, go->type, &ov, &ts->t, &ts->j, &d)
			  : emu_tdfg_load_defs(path, &ov, defs, go->c.ndefs, &ts->t, &ts->j, &d);
		free(defs);
		if (rc)
			return cli_failed(&d);
		*p = ts->j.prog; /* the caller owns the lowered stream */
		emu_program_init(&ts->j.prog);
		return 0;
	}
	rc = emu_load_file(path, &ov, p, &d);
	if (rc == EMU_LOAD_FIXED_MACHINE)
		return cli_usage(NULL, "%s", d.msg);
	if (rc == 0 && !written)
		rc = emu_program_lower(p, &d);
	return rc < 0 ? cli_failed(&d) : 0;
}

/* ---- asm, disasm, info, commands ---- */

static const struct option tool_longopts[] = {
	{ "machine", required_argument, NULL, 'm' },
	{ "config", required_argument, NULL, 'c' },
	{ "type", required_argument, NULL, OPT_TYPE },
	{ "define", required_argument, NULL, 'D' },
	{ "output", required_argument, NULL, 'o' },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "written", no_argument, NULL, OPT_WRITTEN },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

/* Options of asm, disasm, info and commands; allowed lists the ones the
 * subcommand sub accepts: m, c, D, o, j (--json), w (--written).  0 or
 * an exit status. */
static int parse_tool_opts(int argc, char **argv, const char *sub,
			   const char *allowed, geom_opts *go, const char **output,
			   bool *json, bool *written, bool *done)
{
	int opt;
	while ((opt = getopt_long(argc, argv, "m:c:D:o:", tool_longopts, NULL)) != -1) {
		int key = opt == OPT_JSON ? 'j' : opt == OPT_WRITTEN ? 'w' : opt;
		if (strchr("mcDojw", key) && !strchr(allowed, key)) {
			const struct option *lo = tool_longopts;
			while (lo->val != opt)
				lo++;
			return cli_usage(NULL, "option '--%s' does not apply to '%s'", lo->name, sub);
		}
		if (opt == 'o')
			*output = optarg;
		else if (opt == OPT_JSON)
			*json = true;
		else if (opt == OPT_WRITTEN)
			*written = true;
		else {
			int rc = common_option(opt, go, done);
			if (rc > 0 || *done)
				return rc;
		}
	}
	return 0;
}

/* asm's action: the stream's binary form, written atomically to out. */
static int write_binary(const emu_program *p, const tdfg_src *ts, const char *out)
{
	(void)ts;
	diag d;
	diag_clear(&d);
	uint64_t *words = NULL;
	size_t n = 0;
	unsigned char *bytes = NULL;
	int rc = 0;
	if (emu_encode(p, &words, &n, &d) == 0 && !(bytes = malloc(n * 8 + 1)))
		diag_file(&d, out, "out of memory");
	for (size_t i = 0; bytes && i < n * 8; i++)
		bytes[i] = (unsigned char)(words[i / 8] >> (8 * (i % 8)));
	if (!bytes || outfile_write(out, bytes, n * 8, &d) < 0)
		rc = cli_failed(&d);
	free(bytes);
	free(words);
	return rc;
}

/* disasm's action: the canonical text on stdout. */
static int print_text(const emu_program *p, const tdfg_src *ts, const char *out)
{
	(void)ts;
	(void)out;
	char *text = emu_format(p);
	int rc = text ? (fputs(text, stdout), 0)
		      : (fputs("infsim: error: out of memory\n", stderr), EXIT_FAILURE);
	free(text);
	return rc;
}

/* asm and disasm: their options, one stream operand, the stream read for
 * the machine the options give, then the action. */
static int stream_tool(int argc, char **argv, const char *name, const char *opts,
		       bool need_out,
		       int (*act)(const emu_program *, const tdfg_src *, const char *))
{
	geom_opts go;
	const char *out = NULL, *prog = NULL;
	bool json = false, written = false, done = false;
	emu_program p;
	emu_program_init(&p);
	tdfg_src ts = { .on = false };
	int rc = geom_opts_init(&go, argc);
	if (!rc)
		rc = parse_tool_opts(argc, argv, name, opts, &go, &out, &json, &written, &done);
	if (!rc && !done)
		rc = one_operand(argc, argv, "stream file", &prog);
	if (!rc && !done && need_out && !out)
		rc = cli_usage(NULL, "%s: missing -o OUT.inb", name);
	if (!rc && !done)
		rc = load_program(&go, prog, &p, &ts, written, NULL);
	if (!rc && !done)
		rc = act(&p, &ts, out);
	emu_program_free(&p);
	tdfg_src_free(&ts);
	tgt_opts_free(&go.c);
	return rc;
}

static int cmd_asm(int argc, char **argv)
{
	return stream_tool(argc, argv, "asm", "mcDo", true, write_binary);
}

/* layout's action: the Layout Override Table of the stream's tensors,
 * then each tensor's tile map (doc/LAYOUT.md, "In a stream"). */
static int print_layout(const emu_program *p, const tdfg_src *ts, const char *out)
{
	(void)ts;
	(void)out;
	diag d;
	emu_lot *t = malloc(sizeof *t);
	diag_clear(&d);
	if (!t || emu_program_lot(p, t, &d) < 0) {
		if (!t)
			diag_file(&d, p->path, "out of memory");
		free(t);
		return cli_failed(&d);
	}
	emu_lot_print(stdout, t);
	for (size_t i = 0; i < t->n; i++) {
		putchar('\n');
		emu_layout_print_tiles(stdout, &t->r[i], &p->geom);
	}
	free(t);
	return 0;
}

/* jit's action: the stream the JIT lowered a tDFG into, with a comment
 * before each node's commands, on stdout or written atomically to out. */
static int write_jit(const emu_program *p, const tdfg_src *ts, const char *out)
{
	diag d;
	diag_clear(&d);
	if (!ts->on)
		return cli_usage(NULL, "jit: '%s' is not a tDFG; expected a .tdfg file, or an "
				   "artifact's .json with --type", p->path);
	if (out && outfile_write(out, ts->j.text, ts->j.len, &d) < 0)
		return cli_failed(&d);
	if (!out)
		fputs(ts->j.text, stdout);
	return 0;
}

static int cmd_jit(int argc, char **argv)
{
	return stream_tool(argc, argv, "jit", "mcDo", false, write_jit);
}

static int cmd_layout(int argc, char **argv)
{
	return stream_tool(argc, argv, "layout", "mcD", false, print_layout);
}

static int cmd_disasm(int argc, char **argv)
{
	return stream_tool(argc, argv, "disasm", "mcDw", false, print_text);
}

/* info [PROG]: the machine of the options, or of a stream run with them. */
static int cmd_info(int argc, char **argv)
{
	geom_opts go;
	const char *out = NULL;
	bool json = false, written = false, done = false;
	emu_program p;
	emu_program_init(&p);
	tdfg_src ts = { .on = false };
	sram_geom g = sram_geom_default();
	emu_geom_override ov;
	int rc = geom_opts_init(&go, argc);
	if (!rc)
		rc = parse_tool_opts(argc, argv, "info", "mcDj", &go, &out, &json, &written, &done);
	if (!rc && !done && optind + 1 < argc)
		rc = cli_usage(NULL, "extra operand '%s'", argv[optind + 1]);
	if (!rc && !done && optind >= argc && go.c.ndefs)
		rc = cli_usage(NULL, "-D %s: parameters are a tDFG's; give info the .tdfg",
			       go.c.defs[0].name);
	if (!rc && !done && optind < argc && !(rc = load_program(&go, argv[optind], &p, &ts, false, NULL)))
		g = p.geom;
	else if (!rc && !done && !(rc = inc_machine_opts(&go.c, NULL, &ov)))
		g = ov.g;
	if (!rc && !done)
		emu_report_geom(stdout, &g, json);
	emu_program_free(&p);
	tdfg_src_free(&ts);
	tgt_opts_free(&go.c);
	return rc;
}

/* The command table, from opcodes.def through isa_info_of. */
static int cmd_commands(int argc, char **argv)
{
	geom_opts go;
	const char *out = NULL;
	bool json = false, written = false, done = false;
	int rc = geom_opts_init(&go, argc);
	if (!rc)
		rc = parse_tool_opts(argc, argv, "commands", "", &go, &out, &json, &written, &done);
	tgt_opts_free(&go.c);
	if (rc || done)
		return rc;
	if (optind + 1 < argc)
		return cli_usage(NULL, "extra operand '%s'", argv[optind + 1]);
	/* infsim commands SYSTEM: another system's instruction set */
	if (optind < argc && strcmp(argv[optind], "stream") != 0) {
		for (size_t i = 0; tgt_all[i]; i++)
			if (!strcmp(tgt_all[i]->name, argv[optind])) {
				if (!tgt_all[i]->commands)
					return cli_usage(NULL, "commands: %s programs (%s) have no instruction "
							 "set of their own to list", tgt_all[i]->name,
							 tgt_all[i]->title);
				tgt_all[i]->commands(stdout);
				return 0;
			}
		return cli_usage(NULL, "commands: '%s' is not a system (expected stream, ar, nsc, "
				 "vima or simt)", argv[optind]);
	}
	printf("Each command takes a type suffix: .iN (signed) or .uN (unsigned), N\n"
	       "the element width in bits; .f32, .f16 or .bf16 (IEEE floats); .qN (fixed\n"
	       "point, %d integer bits); cvt takes two, the destination's first.  The\n"
	       "types column says which; one mnemonic may have a line per kind.\n"
	       "Optional patterns follow '@'.\n\n", ISA_FIX_INT);
	printf("%-8s %-6s %-12s %-8s %s\n", "command", "types", "operands", "family",
	       "semantics");
	for (unsigned op = 0; op < ISA_OP_COUNT; op++) {
		static const char *const types[] = {
			[ISA_CLASS_I] = "i u", [ISA_CLASS_F] = "f", [ISA_CLASS_Q] = "q",
			[ISA_CLASS_A] = "any", [ISA_CLASS_X] = "x.y",
		};
		const isa_info *in = isa_info_of(op);
		printf("%-8s %-6s %-12s %-8s %s\n", in->name, types[isa_class_of(op)],
		       emu_form_of(in->form)->syntax, in->family, in->semantics);
	}
	return 0;
}

/* ---- main ---- */

/* Output that never reached stdout (a full disk, a closed pipe) is a
 * failure, not a success. */
static int finish_stdout(int rc)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "infsim: error: writing to standard output: %s\n",
			strerror(errno));
		return rc ? rc : EXIT_FAILURE;
	}
	return rc;
}

/* `infsim run`, and `infsim SYSTEM PROG` for the one system (ar, nsc,
 * vima, simt, stream): the generic front (run.c). */
static int cmd_run(int argc, char **argv)
{
	return infsim_run(argc, argv, NULL);
}

static const struct subcmd {
	const char *name;
	int (*run)(int argc, char **argv);
} subcmds[] = {
	{ "run", cmd_run },
	{ "asm", cmd_asm },
	{ "disasm", cmd_disasm },
	{ "info", cmd_info },
	{ "commands", cmd_commands },
	{ "layout", cmd_layout },
	{ "jit", cmd_jit },
};

static bool is_target(const char *name)
{
	for (size_t i = 0; tgt_all[i]; i++)
		if (!strcmp(tgt_all[i]->name, name))
			return true;
	return false;
}

/* Run one of the subcommands with getopt's state fresh; getopt names
 * the program by argv[0] in its messages. */
static int subcommand(int (*run)(int, char **), int argc, char **argv)
{
	char *sub_argv0 = argv[1];
	argv[1] = (char *)"infsim";
	optind = 1;
	int rc = run(argc - 1, argv + 1);
	argv[1] = sub_argv0;
	return finish_stdout(rc);
}

int main(int argc, char **argv)
{
	outfile_cleanup_on_signals();
	if (argc < 2)
		return cli_usage(NULL, "missing command (run, jit, asm, disasm, info, commands or "
				 "layout) or program");
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return finish_stdout(print_help());
	if (!strcmp(argv[1], "--version"))
		return finish_stdout(print_version());
	if (!strcmp(argv[1], "--list-commands")) /* the name parse.c suggests */
		argv[1] = (char *)"commands";
	for (size_t i = 0; i < sizeof subcmds / sizeof subcmds[0]; i++)
		if (!strcmp(argv[1], subcmds[i].name))
			return subcommand(subcmds[i].run, argc, argv);
	/* infsim SYSTEM PROG: run, for that system only */
	if (is_target(argv[1])) {
		const char *sys = argv[1];
		argv[1] = (char *)"infsim";
		optind = 1;
		int rc = infsim_run(argc - 1, argv + 1, sys);
		argv[1] = (char *)sys;
		return finish_stdout(rc);
	}
	/* infsim PROG [OPTION]...: run */
	struct stat sb;
	if (argv[1][0] != '-' && stat(argv[1], &sb) == 0 && tgt_find(argv[1], "", 0)) {
		optind = 1;
		return finish_stdout(infsim_run(argc, argv, NULL));
	}
	return cli_usage(NULL, "unknown command '%s' (expected run, jit, asm, disasm, info, "
			 "commands or layout, or a program to run)", argv[1]);
}
