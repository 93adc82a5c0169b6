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
#include "vima.h"
#include "simt.h"
#include "nsc.h"
#include "refmodel.h"
#include "report.h"
#include "paper.h"
#include "tdfg_stats.h"
#include "validate.h"

enum { EXIT_USAGE = CLI_EXIT_USAGE, EXIT_MISMATCH = 3, EXIT_HAZARD = 4 };

static const char help_text[] =
"Usage: infsim run PROG [OPTION]...     execute a command stream (.ins or .inb)\n"
"                                       or a tDFG (.tdfg, or the published\n"
"                                       artifact's .json), lowered by the JIT\n"
"  or:  infsim jit PROG.tdfg [-o OUT]   print the stream the JIT lowers a tDFG\n"
"                                       into (.ins text)\n"
"  or:  infsim asm PROG -o OUT.inb      assemble to the binary form\n"
"  or:  infsim disasm FILE [--written]  print the canonical text of a stream:\n"
"                                       lowered, or as written\n"
"  or:  infsim info [-m ...] [-c FILE]  describe the machine\n"
"  or:  infsim commands                 list the compute commands\n"
"  or:  infsim layout PROG              print the Layout Override Table and the\n"
"                                       tile map of a stream's tensors\n"
"  or:  infsim vima PROG.vima [OPTION]... run a VIMA program (also: infsim run\n"
"                                       PROG.vima); infsim vima --help\n"
"  or:  infsim ar PROG.ar [OPTION]...   run an Active-Routing program (also\n"
"                                       infsim run PROG.ar; infsim ar --help)\n"
"  or:  infsim nsc PROG.nsc [OPTION]... run a stream program on near-memory\n"
"                                       stream engines (also infsim run\n"
"                                       PROG.nsc; infsim nsc --help)\n"
"Emulate computing in cache SRAM arrays, bit for bit.\n"
"\n"
"Machine (run, jit, asm, disasm, layout, info):\n"
"  -m, --machine=KEY=VAL[,KEY=VAL]...  wordlines, bitlines, arrays (per way),\n"
"                             ways (per bank), mesh=XxY (banks), fp=ftz|ieee,\n"
"                             latency=baseline|optimised, cordic=K; repeatable\n"
"  -c, --config=FILE          machine config file (KEY = VAL lines)\n"
"                             Precedence: the stream's machine line < --config\n"
"                             < --machine, key by key.\n"
"      --type=TYPE            the element type of an artifact's tDFG (.json):\n"
"                             f32, or iN or uN with N 8, 16, 32 or 64\n"
"  -D, --define=NAME=VALUE    give the tDFG's parameter NAME (its line\n"
"                             'param NAME = DEFAULT') the integer VALUE;\n"
"                             repeatable, each NAME once\n"
"\n"
"run:\n"
"  -l, --load=BUF=FILE        fill buffer BUF from FILE (.npy, or raw .bin)\n"
"  -s, --save=BUF=FILE        write buffer BUF after the run (.npy or .bin)\n"
"  -e, --expect=BUF=FILE      compare buffer BUF with FILE after the run\n"
"  -d, --dump=BUF             print buffer BUF's elements after the run, as\n"
"                             values (floats and qN as numbers) and bits\n"
"      --check                run the scalar reference model beside the\n"
"                             machine and compare after every command; for a\n"
"                             tDFG also compare each node with what the tDFG\n"
"                             means, once its last command has run\n"
"      --tdfg=FILE            validate the stream against the tDFG it was\n"
"                             lowered from (.tdfg with -D, or .json with\n"
"                             --type): after each 'node' marker compare the\n"
"                             node's tensor with what the tDFG means, at the\n"
"                             end every output, input and array, and no\n"
"                             stray write; on the first difference name the\n"
"                             node, its first wrong element and the command\n"
"                             that made it (exit 3)\n"
"      --inputs=SET[,SET]...  with --tdfg, validate again on generated input\n"
"                             sets, after the given data: random[:N] (N sets\n"
"                             of random bits), edge[:N] (the element type's\n"
"                             edge values among random ones); N 1 to 1000\n"
"      --stepi                run one micro-op at a time (same bits, slower)\n"
"      --tp-core=N            Eq. 2's TP_core, the core's operations per cycle\n"
"                             (16), for the offload decision --stats prints\n"
"      --lat-jit=N            Eq. 2's Lat_JIT, the JIT's cycles per node (1000)\n"
"      --strict               make data-movement hazards (unsynced or unwritten\n"
"                             reads, clobbers, overlaps) errors, not warnings\n"
"      --stats[=FORMAT]       print statistics, FORMAT text (default), commands\n"
"                             (one line per command: its baseline cycles and\n"
"                             the cycles it ran with) or json (both); text and\n"
"                             json end with the paper's view: Fig 14's cycles,\n"
"                             Figs 12-13's traffic, per region and tDFG node\n"
"      --stats-file=FILE      write the statistics to FILE instead of stdout\n"
"  -j, --threads=N            threads for the SRAM executor and the transpose\n"
"                             unit (1 to 1024)\n"
"  -q, --quiet                print nothing on success\n"
"\n"
"asm:\n"
"  -o, --output=FILE          the binary stream to write (required)\n"
"\n"
"jit:\n"
"  -o, --output=FILE          write the lowered stream to FILE, not stdout\n"
"\n"
"info:\n"
"      --json                 print the sizes as JSON\n"
"\n"
"      --help                 display this help and exit\n"
"      --version              output version information and exit\n"
"\n"
"Element files: .npy of the buffer's type (<iN/<uN of the smallest size\n"
"holding its width, |b1 for 1-bit buffers, <f4 for f32, <f2 for f16, <u2\n"
"(raw bits) for bf16, <iN (raw two's complement) for qN), C order, any shape\n"
"with the buffer's element count; .bin holds the same items with no header.\n"
"Outputs are written to a temporary file and renamed into place.\n"
"\n"
"Exit status: 0 if OK, 1 on a runtime failure (a file, the stream),\n"
"2 on a usage error, 3 if a result differs (--expect or --check),\n"
"4 if --strict stopped the run at a hazard.\n"
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

/* ---- the machine's size: --config and --machine ---- */

typedef struct geom_opts {
	const char *config;
	const char **machine; /* -m arguments in order */
	size_t nmachine;
	const char *type;     /* --type: the element type of a JSON tDFG */
	emu_tdfg_def *defs;   /* -D NAME=VALUE: a tDFG's parameters */
	size_t ndefs;
} geom_opts;

/* The settings of --config, then every --machine, in o (each key from
 * the last option that sets it).  0, or an exit status after printing
 * the error. */
static int apply_geom_opts(emu_geom_override *o, const geom_opts *go)
{
	diag d;
	diag_clear(&d);
	emu_geom_override_init(o);
	if (go->config && emu_geom_override_load(o, go->config, &d) < 0)
		return cli_failed(&d);
	for (size_t i = 0; i < go->nmachine; i++) {
		char why[256];
		if (emu_geom_override_parse(o, go->machine[i], why, sizeof why) < 0)
			return cli_usage(NULL, "--machine %s", why);
	}
	/* emu_geom_load checked the whole machine; -m keys are checked one
	 * by one, so their combination is checked here. */
	const char *err = sram_geom_check(&o->g);
	return err ? cli_usage(NULL, "--machine: %s", err) : 0;
}

/* ---- reading a stream (.ins text or .inb words) ---- */


/* ---- element files: .npy, or raw .bin ---- */

/* Write values (n-bit patterns) of b to path, sign-extended for a signed
 * buffer so that NumPy reads the same numbers. */
static int write_elements(const char *path, const emu_buffer *b, uint64_t *values,
			  diag *d)
{
	npy_dtype dt = emu_elements_dtype(b);
	if (b->is_signed && b->width > 1 && !isa_fpfmt_of(b->fmt))
		for (uint64_t i = 0; i < b->length; i++)
			values[i] = (uint64_t)isa_sext(values[i], b->width);
	return npy_save(path, dt, values, b->length, cli_ends_with(path, ".bin"), d);
}

/* ---- infsim run: options ---- */

/* One --load, --save or --expect. */
typedef struct bufarg {
	int opt;               /* 'l', 's', 'e' or 'd' */
	const char *arg;       /* BUF=FILE as given */
	char name[EMU_NAME_MAX];
	const char *path;
	const emu_buffer *buf; /* resolved after the stream is read */
	uint64_t *values;      /* elements read (load, expect) */
} bufarg;

typedef struct run_opts {
	geom_opts geo;
	const char *prog;
	bufarg *ba;
	size_t nba;
	bool check, stepi, quiet;
	bool strict;           /* --strict: hazards are errors */
	const char *tdfg;      /* --tdfg: the tDFG to validate the stream against */
	unsigned sets[2];      /* --inputs: random and edge sets to generate */
	int stats;             /* 0 none, 't' text, 'c' commands, 'j' json */
	const char *stats_file;
	long threads;          /* 0: not given */
	double tp_core;        /* --tp-core: Eq. 2's TP_core */
	long lat_jit;          /* --lat-jit: Eq. 2's Lat_JIT */
} run_opts;

static const char *bufarg_option(int opt)
{
	return opt == 'l' ? "--load" : opt == 's' ? "--save" : opt == 'd' ? "--dump" : "--expect";
}

static int parse_bufarg(bufarg *b, int opt, const char *arg)
{
	memset(b, 0, sizeof *b);
	b->opt = opt;
	b->arg = arg;
	if (opt == 'd') {
		if (!*arg || strlen(arg) >= sizeof b->name)
			return cli_usage(NULL, "--dump '%s': expected a buffer name", arg);
		strcpy(b->name, arg);
		return 0;
	}
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg || !eq[1])
		return cli_usage(NULL, "%s '%s': expected BUF=FILE", bufarg_option(opt), arg);
	if ((size_t)(eq - arg) >= sizeof b->name)
		return cli_usage(NULL, "%s '%s': buffer name too long", bufarg_option(opt), arg);
	memcpy(b->name, arg, (size_t)(eq - arg));
	b->path = eq + 1;
	return 0;
}

static int parse_threads(const char *arg, long *out)
{
	char *end;
	errno = 0;
	long n = strtol(arg, &end, 10);
	if (errno || end == arg || *end || n < 1 || n > 1024)
		return cli_usage(NULL, "--threads '%s': expected a number of threads from 1 to 1024",
				   arg);
	*out = n;
	return 0;
}

enum { OPT_CHECK = 256, OPT_STEPI, OPT_STATS, OPT_STATS_FILE, OPT_HELP,
       OPT_VERSION, OPT_JSON, OPT_WRITTEN };

enum { OPT_STRICT = 300, OPT_TDFG, OPT_TYPE, OPT_TP_CORE, OPT_LAT_JIT, OPT_INPUTS };

static const struct option run_longopts[] = {
	{ "machine", required_argument, NULL, 'm' },
	{ "config", required_argument, NULL, 'c' },
	{ "type", required_argument, NULL, OPT_TYPE },
	{ "define", required_argument, NULL, 'D' },
	{ "load", required_argument, NULL, 'l' },
	{ "save", required_argument, NULL, 's' },
	{ "expect", required_argument, NULL, 'e' },
	{ "dump", required_argument, NULL, 'd' },
	{ "check", no_argument, NULL, OPT_CHECK },
	{ "stepi", no_argument, NULL, OPT_STEPI },
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ "tdfg", required_argument, NULL, OPT_TDFG },
	{ "inputs", required_argument, NULL, OPT_INPUTS },
	{ "tp-core", required_argument, NULL, OPT_TP_CORE },
	{ "lat-jit", required_argument, NULL, OPT_LAT_JIT },
	{ "stats", optional_argument, NULL, OPT_STATS },
	{ "stats-file", required_argument, NULL, OPT_STATS_FILE },
	{ "threads", required_argument, NULL, 'j' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

/* -D NAME=VALUE: a tDFG's parameter (emu_tdfg_parse_defs checks the
 * name against the program's `param` lines). */
static int parse_define(geom_opts *geo, char *arg)
{
	const char *name;
	long long v;
	int rc = cli_define(NULL, arg, &name, &v);
	if (rc)
		return rc;
	for (size_t i = 0; i < geo->ndefs; i++)
		if (!strcmp(geo->defs[i].name, name))
			return cli_usage(NULL, "-D %s is given twice", name);
	emu_tdfg_def *nd = realloc(geo->defs, (geo->ndefs + 1) * sizeof *nd);
	if (!nd)
		return oom_error();
	geo->defs = nd;
	geo->defs[geo->ndefs].name = name;
	geo->defs[geo->ndefs++].value = (int64_t)v;
	return 0;
}

/* Options every subcommand shares: -m, -c, -D, --help, --version.  Returns
 * -1 if opt is not one of them, else 0 or an exit status (with *done
 * set when --help or --version has run). */
static int common_option(int opt, geom_opts *geo, bool *done)
{
	switch (opt) {
	case 'm':
		geo->machine[geo->nmachine++] = optarg;
		return 0;
	case 'c':
		geo->config = optarg;
		return 0;
	case 'D':
		return parse_define(geo, optarg);
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

/* --inputs=random[:N],edge[:N]: how many sets of each kind. */
static int parse_inputs(const char *arg, unsigned sets[2])
{
	const char *p = arg;
	sets[0] = sets[1] = 0;
	while (*p) {
		const size_t n = strcspn(p, ":,");
		const int k = n == 6 && !strncmp(p, "random", 6) ? 0 : n == 4 && !strncmp(p, "edge", 4)
			      ? 1 : -1;
		if (k < 0)
			return cli_usage(NULL, "--inputs '%s': expected random[:N] or edge[:N], found "
					   "'%.*s'", arg, (int)n, p);
		if (sets[k])
			return cli_usage(NULL, "--inputs '%s': '%.*s' is given twice", arg, (int)n, p);
		p += n;
		long count = 1;
		if (*p == ':') {
			char *end;
			errno = 0;
			count = strtol(p + 1, &end, 10);
			if (errno || end == p + 1 || (*end && *end != ',') || count < 1 || count > 1000)
				return cli_usage(NULL, "--inputs '%s': expected a number of sets from 1 "
						   "to 1000 after '%.*s:'", arg, (int)n, p - n);
			p = end;
		}
		sets[k] = (unsigned)count;
		if (*p == ',' && !*++p)
			return cli_usage(NULL, "--inputs '%s': expected a set after ','", arg);
	}
	if (!sets[0] && !sets[1])
		return cli_usage(NULL, "--inputs '%s': expected random[:N] or edge[:N]", arg);
	return 0;
}

static int run_option(int opt, run_opts *o)
{
	switch (opt) {
	case 'l':
	case 's':
	case 'e':
	case 'd':
		return parse_bufarg(&o->ba[o->nba++], opt, optarg);
	case OPT_CHECK:
		o->check = true;
		return 0;
	case OPT_STEPI:
		o->stepi = true;
		return 0;
	case OPT_TP_CORE: {
		char *end;
		errno = 0;
		o->tp_core = strtod(optarg, &end);
		if (errno || end == optarg || *end || !(o->tp_core > 0 && o->tp_core <= 1e9))
			return cli_usage(NULL, "--tp-core '%s': expected the core's operations per cycle, "
					   "a number above 0 and at most 1e9", optarg);
		return 0;
	}
	case OPT_LAT_JIT: {
		char *end;
		errno = 0;
		o->lat_jit = strtol(optarg, &end, 10);
		if (errno || end == optarg || *end || o->lat_jit < 0 || o->lat_jit > 1000000000L)
			return cli_usage(NULL, "--lat-jit '%s': expected the JIT's cycles per node, 0 to "
					   "1000000000", optarg);
		return 0;
	}
	case OPT_STRICT:
		o->strict = true;
		return 0;
	case OPT_TDFG:
		o->tdfg = optarg;
		return 0;
	case OPT_INPUTS:
		return parse_inputs(optarg, o->sets);
	case OPT_STATS:
		if (!optarg || !strcmp(optarg, "text"))
			o->stats = 't';
		else if (!strcmp(optarg, "json"))
			o->stats = 'j';
		else if (!strcmp(optarg, "commands"))
			o->stats = 'c';
		else
			return cli_usage(NULL, "--stats '%s': expected text, commands or json",
					   optarg);
		return 0;
	case OPT_STATS_FILE:
		o->stats_file = optarg;
		return 0;
	case 'j':
		return parse_threads(optarg, &o->threads);
	case 'q':
		o->quiet = true;
		return 0;
	}
	return cli_usage(NULL, "invalid option");
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

/* Do two outputs name the same file?  The same name, or an existing
 * regular file reached by two names; character devices (/dev/null) may
 * be named twice, standard output ("-", /dev/stdout) may not. */
static bool same_output(const char *a, const char *b)
{
	if (!strcmp(a, b))
		return strcmp(a, "/dev/null") != 0;
	struct stat sa, sb;
	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && S_ISREG(sa.st_mode) &&
	       sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Each output file is written by one option: -s a=f.npy -s b=f.npy would
 * write the same file twice, the second silently replacing the first. */
static int outputs_distinct(const run_opts *o)
{
	for (size_t i = 0; i < o->nba; i++) {
		const bufarg *a = &o->ba[i];
		if (a->opt != 's')
			continue;
		if (o->stats_file && same_output(a->path, o->stats_file))
			return cli_usage(NULL, "--save '%s' and --stats-file '%s' name the same file",
					   a->arg, o->stats_file);
		for (size_t k = 0; k < i; k++)
			if (o->ba[k].opt == 's' && same_output(o->ba[k].path, a->path))
				return cli_usage(NULL, "--save '%s' and --save '%s' name the same "
						   "file; each output needs a file of its own",
						   o->ba[k].arg, a->arg);
	}
	return 0;
}

/* Standard input ("-") can be read once: by one --load or --expect, or
 * as the stream. */
static int stdin_once(const run_opts *o)
{
	char first[EMU_NAME_MAX + 64] = "";
	if (!strcmp(o->prog, "-"))
		snprintf(first, sizeof first, "the stream '-'");
	for (size_t i = 0; i < o->nba; i++) {
		const bufarg *a = &o->ba[i];
		if ((a->opt != 'l' && a->opt != 'e') || strcmp(a->path, "-") != 0)
			continue;
		if (*first)
			return cli_usage(NULL, "%s and %s '%s' both read standard input, which can be "
					   "read once", first, bufarg_option(a->opt), a->arg);
		snprintf(first, sizeof first, "%s '%s'", bufarg_option(a->opt), a->arg);
	}
	return 0;
}

static int parse_run_opts(int argc, char **argv, run_opts *o, bool *done)
{
	int opt, rc = 0;
	while (!rc && !*done &&
	       (opt = getopt_long(argc, argv, "m:c:D:l:s:e:d:j:q", run_longopts, NULL)) != -1) {
		rc = common_option(opt, &o->geo, done);
		if (rc < 0)
			rc = run_option(opt, o);
	}
	if (rc || *done)
		return rc;
	if (o->stats_file && !o->stats)
		o->stats = 't';
	for (size_t i = 0; i < o->nba; i++)
		if (o->ba[i].opt == 'd' && o->stats == 'j' && !o->stats_file)
			return cli_usage(NULL, "--dump and --stats=json both write to standard "
					   "output; give the statistics a --stats-file");
	if ((rc = outputs_distinct(o)) != 0 ||
	    (rc = one_operand(argc, argv, "stream file", &o->prog)) != 0)
		return rc;
	return stdin_once(o);
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
	int rc = apply_geom_opts(&ov, go);
	if (rc)
		return rc;
	const bool json = emu_tdfg_json_path(path);
	if (json && !go->type)
		return cli_usage(NULL, "%s: an artifact's tDFG (.json) has no element type; give one "
				   "with --type (f32, i32, ...)", path);
	if (!json && go->type && !(vtdfg && emu_tdfg_json_path(vtdfg)))
		return cli_usage(NULL, "--type applies to an artifact's tDFG (.json), not to '%s'", path);
	if (go->ndefs && (json || !emu_tdfg_path(path)) && !(vtdfg && (emu_tdfg_path(vtdfg) ||
									emu_tdfg_json_path(vtdfg))))
		return cli_usage(NULL, "-D %s: parameters are a tDFG's (.tdfg), not %s's",
				   go->defs[0].name, path);
	if (json || emu_tdfg_path(path)) {
		ts->on = true;
		if (json ? emu_tdfg_json_load(path, go->type, &ov, &ts->t, &ts->j, &d)
			 : emu_tdfg_load_defs(path, &ov, go->defs, go->ndefs, &ts->t, &ts->j, &d))
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

/* --tdfg: the tDFG, read on the stream's machine (its settings decide
 * what the commands compute).  0, or an exit status. */
static int load_tdfg(const run_opts *o, const emu_program *p, const tdfg_src *ts,
		     emu_tdfg *t)
{
	diag d;
	diag_clear(&d);
	const emu_mark *m = ts->on || o->tdfg ? NULL : emu_program_strm_mark(p);
	if (m) {
		/* The stream says where the strm node runs, its tDFG what. */
		diag_at(&d, p->path, m->line, 0, "'node %s strm': the near-memory stream of strm "
			"node '%s' runs here, and what it computes is in the tDFG the stream was "
			"lowered from; give it with --tdfg FILE", m->name, m->name);
		return cli_failed(&d);
	}
	if (!o->tdfg && (o->sets[0] || o->sets[1]))
		return cli_usage(NULL, "--inputs validates on generated data against a tDFG; give "
				   "it with --tdfg FILE");
	if (!o->tdfg)
		return 0;
	if (ts->on)
		return cli_usage(NULL, "--tdfg: '%s' is a tDFG already; --tdfg validates a command "
				   "stream (.ins, .inb) against one", o->prog);
	emu_geom_override ov;
	emu_geom_override_init(&ov);
	ov.g = p->geom;
	ov.keys = ~0u;
	/* an artifact's tDFG (.json) needs its element type, and has no
	 * size parameters */
	if (emu_tdfg_json_path(o->tdfg)) {
		if (!o->geo.type)
			return cli_usage(NULL, "--tdfg %s: an artifact's tDFG (.json) has no element "
					   "type; give one with --type (f32, i32, ...)", o->tdfg);
		if (o->geo.ndefs)
			return cli_usage(NULL, "-D %s: parameters are a tDFG's (.tdfg), not %s's",
					   o->geo.defs[0].name, o->tdfg);
		return emu_tdfg_json_parse_file(o->tdfg, o->geo.type, &p->geom, &ov, t, &d) < 0
			       ? cli_failed(&d) : 0;
	}
	return emu_tdfg_parse_file_defs(o->tdfg, &p->geom, &ov, o->geo.defs, o->geo.ndefs, t,
					&d) < 0 ? cli_failed(&d) : 0;
}

/* Find each --load/--save/--expect buffer in p. */
static int resolve_bufargs(run_opts *o, const emu_program *p)
{
	for (size_t i = 0; i < o->nba; i++) {
		bufarg *b = &o->ba[i];
		for (size_t k = 0; k < p->nbufs && !b->buf; k++)
			if (!strcmp(p->bufs[k].name, b->name))
				b->buf = &p->bufs[k];
		if (b->buf)
			continue;
		char names[256] = "";
		size_t n = 0;
		for (size_t k = 0; k < p->nbufs && n < sizeof names - 70; k++)
			n += (size_t)snprintf(names + n, sizeof names - n, "%s%s",
					      k ? ", " : "", p->bufs[k].name);
		if (p->nbufs && n >= sizeof names - 70)
			snprintf(names + n, sizeof names - n, ", ...");
		return cli_usage(NULL, "%s '%s': %s declares no buffer '%s' (it has: %s)",
				   bufarg_option(b->opt), b->arg, p->path ? p->path : o->prog,
				   b->name, p->nbufs ? names : "none");
	}
	return 0;
}

/* Before the run: every output can be written, every input is read. */
static int prepare_files(run_opts *o, diag *d)
{
	if (o->stats_file && outfile_check(o->stats_file, d) < 0)
		return -1;
	for (size_t i = 0; i < o->nba; i++) {
		bufarg *b = &o->ba[i];
		if (b->opt == 'd')
			continue;
		if (b->opt == 's') {
			if (outfile_check(b->path, d) < 0)
				return -1;
			continue;
		}
		b->values = mem_alloc_whole(b->buf->length * sizeof *b->values);
		if (!b->values) {
			diag_file(d, b->path, "out of memory for %" PRIu64 " elements",
				  b->buf->length);
			return -1;
		}
		if (emu_elements_read(b->path, b->buf, b->values, d) < 0)
			return -1;
	}
	return 0;
}

/* ---- infsim run: execution ---- */

typedef struct run_state {
	run_opts *o;
	const emu_program *p;
	emu_machine *em;
	emu_ref *ref;          /* --check only */
	tdfg_src *ts;          /* a tDFG program, when ts->on */
	emu_tref *tref;        /* --check of a tDFG: the reference of its nodes */
	emu_tdfg vt;           /* --tdfg: the tDFG the stream is validated against */
	emu_valid *valid;      /* --tdfg: its check points */
	emu_valid_report vrep; /* --tdfg: the first node that differs */
	emu_cmd_cycles *cc;    /* --stats=commands and json: each command's cycles */
	uint64_t *bank_before; /* each bank's cycles before the current command */
	emu_strm_stats strm;   /* a tDFG's strm nodes (emu/tdfg/strm.c) */
	unsigned sets_run;     /* --inputs: generated input sets that held */
	diag d;
} run_state;

/* The machine (and the reference model), with init= and --load applied. */
static int start_machine(run_state *s)
{
	s->em = emu_machine_new(s->p, &s->d);
	if (!s->em)
		return -1;
	if (s->o->strict && emu_machine_set_strict(s->em, true) < 0) {
		diag_file(&s->d, s->p->path, "out of memory for the hazard tracker");
		return -1;
	}
	if (s->o->threads)
		sram_set_threads((int)s->o->threads);
	if (emu_init_buffers(s->em, &s->d) < 0)
		return -1;
	if (s->o->stats) {
		s->cc = calloc(s->p->ncmds + 1, sizeof *s->cc);
		s->bank_before = calloc(s->em->st.nbanks, sizeof *s->bank_before);
		if (!s->cc || !s->bank_before) {
			diag_file(&s->d, s->p->path, "out of memory");
			return -1;
		}
	}
	if (s->o->check) {
		s->ref = emu_ref_new(s->p, &s->d);
		if (!s->ref)
			return -1;
		if (emu_ref_init_buffers(s->ref) < 0) {
			diag_file(&s->d, s->p->path, "out of memory for the reference model");
			return -1;
		}
		if (s->ts->on && !(s->tref = emu_tref_new(&s->ts->t, &s->d)))
			return -1;
	}
	if (s->o->tdfg && !(s->valid = emu_valid_new(&s->vt, s->p, &s->d)))
		return -1;
	for (size_t i = 0; i < s->o->nba; i++) {
		const bufarg *b = &s->o->ba[i];
		if (b->opt != 'l')
			continue;
		emu_ttu_store(s->em, b->buf, b->values, b->buf->length);
		if (emu_machine_failed(s->em, &s->d) < 0)
			return -1;
		if (s->ref && emu_ref_store(s->ref, b->buf, b->values, b->buf->length) < 0) {
			diag_file(&s->d, s->p->path, "out of memory for the reference model");
			return -1;
		}
		if (s->valid && emu_valid_load(s->valid, b->buf, b->values, &s->d) < 0)
			return -1;
		const long n = s->tref ? emu_tdfg_find(&s->ts->t, b->buf->name,
						       strlen(b->buf->name)) : -1;
		if (n >= 0 && emu_tref_input(s->tref, (size_t)n, b->values, b->buf->length,
					     &s->d) < 0)
			return -1;
		/* An array's first data, for the reference too. */
		for (size_t a = 0; s->tref && a < s->ts->t.narrays; a++)
			if (strcmp(s->ts->t.arrays[a].name, b->buf->name) == 0 &&
			    emu_tref_array_input(s->tref, a, b->values, b->buf->length, &s->d) < 0)
				return -1;
	}
	return 0;
}

/* Run command pc whole, or one micro-op at a time. */
static int run_one(run_state *s)
{
	if (!s->o->stepi)
		return emu_run_cmd(s->em, &s->d) < 0 ? -1 : 0;
	size_t pc = s->em->pc;
	while (s->em->pc == pc && !emu_done(s->em))
		if (emu_stepi(s->em, &s->d) < 0)
			return -1;
	return 0;
}

/* Run command i, and with s->cc keep its cycles in s->cc[i]: the growth
 * of the machine's statistics, its baseline latency, and over the banks
 * that ran it (em->bank_on still marks them once it has finished) the
 * shortest; under latency=optimised each bank runs its own trace
 * (duality-cache §3.1.2) and the command takes the longest. */
static int run_measured(run_state *s, size_t i)
{
	const emu_stats *st = &s->em->st;
	if (!s->cc)
		return run_one(s);
	const uint64_t base = st->base_cycles, cycles = st->total.cycles;
	for (unsigned b = 0; b < st->nbanks; b++)
		s->bank_before[b] = st->by_bank[b].cycles;
	if (run_one(s) < 0)
		return -1;
	emu_cmd_cycles *c = &s->cc[i];
	c->baseline = st->base_cycles - base;
	c->cycles = st->total.cycles - cycles;
	c->shortest = c->cycles;
	c->banks = 0;
	for (unsigned b = 0; b < st->nbanks; b++) {
		if (!s->em->bank_on[b])
			continue;
		const uint64_t t = st->by_bank[b].cycles - s->bank_before[b];
		if (t < c->shortest)
			c->shortest = t;
		c->banks++;
	}
	return 0;
}

/* After command i of a tDFG's stream, under --check: if it finished a
 * node, compare the node's domain with what the tDFG means (tdfg.h).
 * 1 if it agrees, 0 if not, -1 out of memory (s->d set either way). */
static int check_node(run_state *s, size_t i)
{
	const long n = emu_jit_node_of(&s->ts->j, i);
	emu_mismatch mm;
	if (n < 0 || s->ts->t.nodes[n].cmd1 != i + 1 ||
	    emu_tref_compare(s->tref, s->p, s->em, (size_t)n, &mm))
		return 1;
	const emu_tdfg *t = &s->ts->t;
	if (!mm.buf) {
		diag_file(&s->d, t->path, "out of memory for the tDFG's reference");
		return -1;
	}
	const emu_tnode *x = &t->nodes[n];
	const emu_tregion *r = &t->regions[x->region];
	char what[1024], label[96], run[160] = "";
	emu_report_mismatch_text(what, sizeof what, &mm);
	/* In a program, which run of the region: its number and parameters. */
	if (t->program) {
		size_t k = 0, m = 0;
		for (size_t q = 0; q <= x->region; q++)
			k += t->regions[q].tmpl == r->tmpl;
		m = (size_t)snprintf(run, sizeof run, " in run %zu of region '%s'", k, r->name);
		for (unsigned p = 0; p < r->nparams && m < sizeof run; p++)
			m += (size_t)snprintf(run + m, sizeof run - m, "%s%s = %" PRId64,
					      p ? ", " : " (", r->param[p], r->pv[p]);
		if (r->nparams && m < sizeof run)
			snprintf(run + m, sizeof run - m, ")");
	}
	diag_at(&s->d, t->path, x->line, x->col, "--check: node '%s'%s (commands %zu..%zu) "
		"does not compute what the tDFG means: %s",
		emu_tnode_label(t, x, label, sizeof label), run, x->cmd0 + 1, x->cmd1, what);
	return 0;
}

/* --tdfg: the strm markers' streams at the machine's position (they
 * run from the tDFG, emu_valid_strm), then the check points it has
 * reached.  1 when they agree, 0 when a node differs (s->vrep), -1 with
 * s->d set. */
static int validate(run_state *s)
{
	if (s->valid && emu_valid_strm(s->valid, s->em, s->ref, &s->strm, &s->d) < 0)
		return -1;
	return s->valid ? emu_valid_at(s->valid, s->em, &s->vrep, &s->d) : 1;
}

/* Every command, in order.  With --check, after each one compare what it
 * wrote, and at the end every buffer (a write outside the destination
 * shows up there).  0, -1 (d set) or EXIT_MISMATCH (d set). */
static int run_commands(run_state *s)
{
	if (validate(s) <= 0)
		return s->d.set ? -1 : EXIT_MISMATCH;
	for (size_t i = 0; i < s->p->ncmds; i++) {
		if (run_measured(s, i) < 0)
			return -1;
		if (s->ref && emu_ref_run_cmd(s->ref, i, &s->d) < 0)
			return -1;
		if (s->ref && !emu_report_check_cmd(s->ref, s->em, i, &s->d))
			return EXIT_MISMATCH;
		if (validate(s) <= 0)
			return s->d.set ? -1 : EXIT_MISMATCH;
		/* A strm node's stream runs at the banks after its commands
		 * (emu/tdfg/strm.c). */
		const long sn = s->ts->on ? emu_strm_node_at(&s->ts->t, &s->ts->j, i) : -1;
		if (sn >= 0 && emu_strm_exec(&s->ts->t, s->p, s->em, s->ref, (size_t)sn, &s->strm,
					     &s->d) < 0)
			return -1;
		if (!s->ref)
			continue;
		const int node = s->tref ? check_node(s, i) : 1;
		if (node <= 0)
			return node < 0 ? -1 : EXIT_MISMATCH;
	}
	if (s->ref && !emu_report_check_all(s->ref, s->em, &s->d))
		return EXIT_MISMATCH;
	return 0;
}

static int save_outputs(run_state *s)
{
	for (size_t i = 0; i < s->o->nba; i++) {
		const bufarg *b = &s->o->ba[i];
		if (b->opt != 's')
			continue;
		uint64_t *v = mem_alloc_whole(b->buf->length * sizeof *v);
		if (!v) {
			diag_file(&s->d, b->path, "out of memory");
			return -1;
		}
		emu_ttu_load(s->em, b->buf, v, b->buf->length);
		int rc = emu_machine_failed(s->em, &s->d) < 0 ? -1
							      : write_elements(b->path, b->buf, v, &s->d);
		free(v);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* Every --expect; each buffer that differs is reported.  0 or
 * EXIT_MISMATCH. */
static int compare_expects(run_state *s)
{
	int rc = 0;
	for (size_t i = 0; i < s->o->nba; i++) {
		const bufarg *b = &s->o->ba[i];
		if (b->opt != 'e')
			continue;
		uint64_t *got = mem_alloc_whole(b->buf->length * sizeof *got);
		if (!got) {
			diag_file(&s->d, b->path, "out of memory");
			return -1;
		}
		emu_buffer_read(s->em, b->buf, got);
		for (uint64_t k = 0; k < b->buf->length; k++) {
			if (got[k] == b->values[k])
				continue;
			emu_mismatch mm = { b->buf, k, b->values[k], got[k] };
			char what[DIAG_MAX];
			snprintf(what, sizeof what, "%s: error: --expect", b->path);
			emu_report_mismatch(stderr, what, &mm);
			rc = EXIT_MISMATCH;
			break;
		}
		free(got);
	}
	return rc;
}

/* The JIT's memo (§4): how many region runs were lowered and reused,
 * and the time each lowering took. */
static void jit_stats_text(FILE *f, const tdfg_src *ts)
{
	const emu_jit *j = &ts->j;
	const emu_tdfg *t = &ts->t;
	fprintf(f, "JIT: %zu region run%s: %zu lowered, %zu reused\n", t->nregions,
		t->nregions == 1 ? "" : "s", j->misses, j->hits);
	for (size_t m = 0; m < j->misses; m++) {
		const emu_tregion *r = &t->regions[j->lowerings[m].region];
		fprintf(f, "  lowering %zu: region '%s' (line %d)", m + 1, r->name, r->line);
		for (unsigned p = 0; p < r->nparams; p++)
			fprintf(f, "%s%s = %" PRId64, p ? ", " : ", ", r->param[p], r->pv[p]);
		fprintf(f, ": %.3f ms\n", j->lowerings[m].seconds * 1e3);
	}
}

/* Eq. 2 (§4.3) for each region as written, at its first run, its
 * Σ Lat_op from this run's cycles.  0, or -1 when out of memory. */
static int eq2_stats(const run_state *s, emu_paper *pp)
{
	const emu_tdfg *t = &s->ts->t;
	const size_t n = s->p->ncmds;
	uint64_t *cyc = calloc(n + 1, sizeof *cyc);
	if (!cyc)
		return -1;
	for (size_t i = 0; s->cc && i < n; i++)
		cyc[i] = s->cc[i].cycles;
	int rc = 0;
	for (size_t w = 0; rc == 0 && w < (t->tregions ? t->ntregions : t->nregions); w++) {
		size_t r = 0;
		while (r < t->nregions && t->tregions && t->regions[r].tmpl != w)
			r++;
		if (!t->tregions)
			r = w;
		if (r >= t->nregions)
			continue; /* a region never run */
		emu_eq2 e;
		emu_eq2_region(t, r, cyc, s->o->tp_core > 0 ? s->o->tp_core : EMU_EQ2_TP_CORE,
			       s->o->lat_jit >= 0 ? (uint64_t)s->o->lat_jit : EMU_EQ2_LAT_JIT, &e);
		struct emu_paper_eq2 q = {.line = t->regions[r].line, .n_elem = e.n_elem,
			.n_op = e.n_op, .n_node = e.n_node, .lat_ops = e.lat_ops, .lat_jit = e.lat_jit,
			.mem = e.mem, .tp_core = e.tp_core, .core = e.core, .in_memory = e.in_memory};
		snprintf(q.region, sizeof q.region, "%s", t->regions[r].name);
		rc = emu_paper_eq2_add(pp, &q);
	}
	free(cyc);
	return rc;
}

/* The paper's statistics (paper.h): for a tDFG, with the JIT's final
 * reduce, time and groups.  0, or -1 when out of memory. */
static int paper_stats(const run_state *s, emu_paper *pp)
{
	const size_t n = s->p->ncmds;
	if (!s->ts->on) {
		emu_paper_collect(pp, s->em, s->cc, n, NULL, 0);
		return 0;
	}
	uint8_t *final = calloc(n + 1, 1);
	if (!final)
		return -1;
	emu_paper_tdfg_final(&s->ts->t, &s->ts->j, s->p, final, n);
	emu_paper_collect(pp, s->em, s->cc, n, final, emu_paper_tdfg_jit_seconds(&s->ts->j));
	free(final);
	const emu_strm_stats *ss = &s->strm;
	emu_paper_streams(pp, ss->near_cycles, ss->final_cycles,
			  ss->ttu_out_cycles + ss->ttu_in_cycles, ss->bytes, ss->byte_hops);
	return eq2_stats(s, pp) < 0 ? -1 : emu_paper_tdfg_groups(pp, &s->ts->t, &s->ts->j, s->cc, n);
}

static int write_stats(run_state *s)
{
	FILE *f = stdout;
	char *mem = NULL;
	size_t len = 0;
	if (s->o->stats_file && !(f = open_memstream(&mem, &len))) {
		diag_file(&s->d, s->o->stats_file, "out of memory");
		return -1;
	}
	emu_paper pp = {0};
	if (s->o->stats != 'c' && paper_stats(s, &pp) < 0) {
		emu_paper_free(&pp);
		if (f != stdout)
			fclose(f);
		free(mem);
		diag_file(&s->d, s->p->path, "out of memory");
		return -1;
	}
	if (s->o->stats == 'j')
		emu_report_stats_json_paper(f, s->em, s->cc, s->p->ncmds, &pp);
	else if (s->o->stats == 'c')
		emu_report_commands_text(f, s->em, s->cc, s->p->ncmds);
	else
		emu_report_stats_text(f, s->em);
	if (s->o->stats == 't' && s->ts->on)
		jit_stats_text(f, s->ts);
	if (s->o->stats == 't')
		emu_paper_text(f, &pp);
	emu_paper_free(&pp);
	if (!s->o->stats_file)
		return 0;
	int rc = fclose(f) == 0 ? outfile_write(s->o->stats_file, mem, len, &s->d) : -1;
	if (rc < 0)
		diag_file(&s->d, s->o->stats_file, "out of memory");
	free(mem);
	return rc;
}

/* One line on stdout after a good run, unless --quiet or JSON statistics
 * go to stdout (which must stay pure JSON). */
static void print_summary(const run_state *s)
{
	if (s->o->quiet || (s->o->stats == 'j' && !s->o->stats_file))
		return;
	const emu_stats *st = &s->em->st;
	printf("%s: %" PRIu64 " command%s, %" PRIu64 " cycles; transpose unit %" PRIu64
	       " cycles", s->p->path, st->commands, st->commands == 1 ? "" : "s",
	       st->total.cycles, st->ttu_cycles);
	if (s->o->check)
		printf("; --check: the reference model agrees");
	if (s->o->check && s->tref)
		printf(", and every tDFG node (%zu) computes what the tDFG means",
		       s->ts->t.nnodes);
	if (s->valid)
		printf("; --tdfg: %zu check point%s of %s hold%s what the tDFG means",
		       emu_valid_points(s->valid), emu_valid_points(s->valid) == 1 ? "" : "s",
		       s->o->tdfg, emu_valid_points(s->valid) == 1 ? "s" : "");
	if (s->sets_run)
		printf(" (the given data and %u generated input set%s)", s->sets_run,
		       s->sets_run == 1 ? "" : "s");
	if (s->ts->on && s->ts->t.program)
		printf("; %zu region runs, %zu lowered, %zu reused", s->ts->t.nregions,
		       s->ts->j.misses, s->ts->j.hits);
	for (size_t i = 0; i < s->o->nba; i++)
		if (s->o->ba[i].opt == 'e')
			printf("; %s matches %s", s->o->ba[i].name, s->o->ba[i].path);
	putchar('\n');
}

/* Every --dump: "BUF[i] = VALUE (0xBITS)" per element, read through the
 * port that checks use (no transpose-unit cycles). */
static int dump_buffers(run_state *s)
{
	for (size_t i = 0; i < s->o->nba; i++) {
		const bufarg *b = &s->o->ba[i];
		const emu_buffer *eb = b->buf;
		if (b->opt != 'd')
			continue;
		uint64_t *v = malloc(eb->length * sizeof *v);
		if (!v) {
			diag_file(&s->d, s->p->path, "out of memory for --dump %s", eb->name);
			return -1;
		}
		emu_buffer_read(s->em, eb, v);
		for (uint64_t k = 0; k < eb->length; k++) {
			char text[96];
			emu_value_text(eb->fmt, eb->width, eb->is_signed, v[k], true, text, sizeof text);
			printf("%s[%" PRIu64 "] = %s\n", eb->name, k, text);
		}
		free(v);
	}
	return 0;
}

/* --inputs: the validation again on each generated input set, each on
 * a machine of its own.  0, -1 (s->d set) or EXIT_MISMATCH (s->vrep
 * filled, naming the set). */
static int generated_sets(run_state *s)
{
	static const char *const kind[2] = {"random", "edge"};
	for (unsigned k = 0; s->valid && k < 2; k++)
		for (unsigned i = 1; i <= s->o->sets[k]; i++) {
			emu_valid *v = emu_valid_new(&s->vt, s->p, &s->d);
			int rc = v && emu_valid_generate(v, (emu_valid_inputs)k, i, &s->d) == 0
					 ? emu_valid_drive(v, &s->vrep, &s->d) : -1;
			emu_valid_free(v);
			if (rc < 0)
				return -1;
			if (rc == 1) {
				const size_t n = strlen(s->vrep.text);
				snprintf(s->vrep.text + n, sizeof s->vrep.text - n, "%s: note: found on "
					 "the generated input set %s:%u (--inputs); the given data pass\n",
					 s->p->path, kind[k], i);
				return EXIT_MISMATCH;
			}
			s->sets_run++;
		}
	return 0;
}

/* --tdfg's warnings that the check was weaker than it looks. */
static void valid_warnings(const run_state *s)
{
	for (size_t i = 0; s->valid && i < emu_valid_warnings(s->valid); i++) {
		const char *w = emu_valid_warning(s->valid, i);
		if (s->sets_run && strstr(w, "--inputs"))
			continue; /* the generated sets have run */
		fprintf(stderr, "%s: warning: --tdfg: %s\n", s->p->path, w);
	}
}

static int execute(run_state *s)
{
	if (start_machine(s) < 0)
		return cli_failed(&s->d);
	int rc = run_commands(s);
	/* Hazards (doc/MOVEMENT.md): warnings on stderr; with --strict the
	 * first one stopped the run, with its own exit status. */
	if (rc < 0 && s->em->hazard_stop) {
		fprintf(stderr, "%s\n", s->d.msg);
		return EXIT_HAZARD;
	}
	emu_hazard_print(stderr, s->em->hz);
	if (rc == 0 && save_outputs(s) < 0)
		rc = -1;
	if (rc == 0 && dump_buffers(s) < 0)
		rc = -1;
	if (rc == 0 && s->o->stats && write_stats(s) < 0)
		rc = -1;
	if (rc == 0 && (rc = compare_expects(s)) == 0 && (rc = generated_sets(s)) == 0) {
		valid_warnings(s);
		print_summary(s);
	}
	if (rc < 0)
		return cli_failed(&s->d);
	if (rc == EXIT_MISMATCH && s->d.set)
		fprintf(stderr, "%s\n", s->d.msg);
	else if (rc == EXIT_MISMATCH && s->vrep.text[0])
		fputs(s->vrep.text, stderr);
	return rc;
}

/* A tDFG's arrays with load=FILE: a --load each, unless the command
 * line loads the array itself.  t is the program run (a .tdfg) or the
 * one --tdfg validates the stream against, whose arrays the stream
 * holds under their names; NULL for none. */
static int array_loads(run_opts *o, const emu_tdfg *t)
{
	size_t more = 0;
	for (size_t i = 0; t && i < t->narrays; i++)
		more += t->arrays[i].load[0] != 0;
	if (!more)
		return 0;
	bufarg *nb = realloc(o->ba, (o->nba + more) * sizeof *nb);
	if (!nb)
		return oom_error();
	o->ba = nb;
	for (size_t i = 0; i < t->narrays; i++) {
		const emu_tarray *a = &t->arrays[i];
		bool given = false;
		for (size_t k = 0; k < o->nba; k++)
			given |= o->ba[k].opt == 'l' && strcmp(o->ba[k].name, a->name) == 0;
		if (!a->load[0] || given)
			continue;
		bufarg *b = &o->ba[o->nba++];
		memset(b, 0, sizeof *b);
		b->opt = 'l';
		b->arg = a->load;
		snprintf(b->name, sizeof b->name, "%s", a->name);
		b->path = a->load;
	}
	return 0;
}

static int cmd_run(int argc, char **argv)
{
	run_opts o;
	memset(&o, 0, sizeof o);
	o.lat_jit = -1;
	o.ba = calloc((size_t)argc, sizeof *o.ba);
	o.geo.machine = calloc((size_t)argc, sizeof *o.geo.machine);
	emu_program p;
	emu_program_init(&p);
	tdfg_src ts = { .on = false };
	run_state s = { .o = &o, .p = &p, .ts = &ts };
	emu_tdfg_init(&s.vt);
	bool done = false;
	int rc = !o.ba || !o.geo.machine ? oom_error()
					 : parse_run_opts(argc, argv, &o, &done);
	if (!rc && !done)
		rc = load_program(&o.geo, o.prog, &p, &ts, false, o.tdfg);
	if (!rc && !done)
		rc = load_tdfg(&o, &p, &ts, &s.vt);
	if (!rc && !done)
		rc = array_loads(&o, ts.on ? &ts.t : o.tdfg ? &s.vt : NULL);
	if (!rc && !done)
		rc = resolve_bufargs(&o, &p);
	if (!rc && !done)
		rc = emu_machine_check_host(&p.geom, p.path, &s.d) < 0 || prepare_files(&o, &s.d) < 0
			     ? cli_failed(&s.d) : execute(&s);
	if (s.ref)
		emu_ref_free(s.ref);
	emu_tref_free(s.tref);
	emu_valid_free(s.valid);
	emu_tdfg_free(&s.vt);
	emu_strm_lot_free(&s.strm.lot);
	tdfg_src_free(&ts);
	if (s.em)
		emu_machine_free(s.em);
	free(s.cc);
	free(s.bank_before);
	emu_program_free(&p);
	for (size_t i = 0; i < o.nba; i++)
		free(o.ba[i].values);
	free(o.ba);
	free(o.geo.machine);
	free(o.geo.defs);
	return rc;
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
	geom_opts go = { NULL, calloc((size_t)argc, sizeof(char *)), 0, NULL, NULL, 0 };
	const char *out = NULL, *prog = NULL;
	bool json = false, written = false, done = false;
	emu_program p;
	emu_program_init(&p);
	tdfg_src ts = { .on = false };
	int rc = !go.machine ? oom_error()
			     : parse_tool_opts(argc, argv, name, opts, &go, &out, &json, &written, &done);
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
	free(go.machine);
	free(go.defs);
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
	geom_opts go = { NULL, calloc((size_t)argc, sizeof(char *)), 0, NULL, NULL, 0 };
	const char *out = NULL;
	bool json = false, written = false, done = false;
	emu_program p;
	emu_program_init(&p);
	tdfg_src ts = { .on = false };
	sram_geom g = sram_geom_default();
	emu_geom_override ov;
	int rc = !go.machine ? oom_error()
			     : parse_tool_opts(argc, argv, "info", "mcDj", &go, &out, &json, &written, &done);
	if (!rc && !done && optind + 1 < argc)
		rc = cli_usage(NULL, "extra operand '%s'", argv[optind + 1]);
	if (!rc && !done && optind >= argc && go.ndefs)
		rc = cli_usage(NULL, "-D %s: parameters are a tDFG's; give info the .tdfg",
			       go.defs[0].name);
	if (!rc && !done && optind < argc && !(rc = load_program(&go, argv[optind], &p, &ts, false, NULL)))
		g = p.geom;
	else if (!rc && !done && !(rc = apply_geom_opts(&ov, &go)))
		g = ov.g;
	if (!rc && !done)
		emu_report_geom(stdout, &g, json);
	emu_program_free(&p);
	tdfg_src_free(&ts);
	free(go.machine);
	free(go.defs);
	return rc;
}

/* The command table, from opcodes.def through isa_info_of. */
static int cmd_commands(int argc, char **argv)
{
	geom_opts go = { NULL, NULL, 0, NULL, NULL, 0 };
	const char *out = NULL;
	bool json = false, written = false, done = false;
	int rc = parse_tool_opts(argc, argv, "commands", "", &go, &out, &json, &written, &done);
	if (rc || done)
		return rc;
	if (optind < argc)
		return cli_usage(NULL, "extra operand '%s'", argv[optind]);
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
	{ "ar", ar_cli },
	{ "simt", simt_cli }, /* Duality Cache SIMT mode (emu/simt, doc/SIMT.md) */
};

int main(int argc, char **argv)
{
	outfile_cleanup_on_signals();
	if (argc < 2)
		return cli_usage(NULL, "missing command (run, jit, asm, disasm, info, commands, layout, vima or ar)");
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return finish_stdout(print_help());
	if (!strcmp(argv[1], "--version"))
		return finish_stdout(print_version());
	if (!strcmp(argv[1], "run") && ar_cli_wants(argc - 1, argv + 1))
		argv[1] = (char *)"ar"; /* an Active-Routing program (doc/ACTIVE-ROUTING.md) */
	if (!strcmp(argv[1], "--list-commands")) /* the name parse.c suggests */
		argv[1] = (char *)"commands";
	if (!strcmp(argv[1], "nsc") || (!strcmp(argv[1], "run") && nsc_cli_wants(argc - 2, argv + 2)))
		return finish_stdout(nsc_cli(argc - 1, argv + 1)); /* stream programs (doc/STREAMS.md) */
	/* VIMA programs have their own runner (emu/vima, doc/VIMA.md). */
	if (!strcmp(argv[1], "vima") ||
	    (!strcmp(argv[1], "run") && vima_cli_wants(argc - 2, argv + 2)))
		return finish_stdout(vima_cli(argc - 1, argv + 1));
	for (size_t i = 0; i < sizeof subcmds / sizeof subcmds[0]; i++) {
		if (strcmp(argv[1], subcmds[i].name) != 0)
			continue;
		/* getopt names the program by argv[0] in its messages. */
		char *sub_argv0 = argv[1];
		argv[1] = (char *)"infsim";
		optind = 1;
		int rc = subcmds[i].run(argc - 1, argv + 1);
		argv[1] = sub_argv0;
		return finish_stdout(rc);
	}
	return cli_usage(NULL, "unknown command '%s' (expected run, jit, asm, disasm, info, commands, layout, vima or ar)",
			   argv[1]);
}
