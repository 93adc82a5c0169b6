/* SPDX-License-Identifier: MIT */
/*
 * cli.c: `infsim vima PROG.vima [OPTION]...` (also `infsim run
 * PROG.vima`): parse a program, run it on the VIMA unit, load, save and
 * compare arrays as .npy files, print statistics (doc/VIMA.md, infsim(1)).
 *
 * Exit status: 0 success, 1 a runtime failure (a file, the program),
 * 2 a usage error, 3 an array differs from --expect, 5 the injected page
 * fault stopped the run (the arrays saved are the memory the exception
 * handler sees).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "npy.h"
#include "outfile.h"
#include "vima_int.h"

#define CMD "vima"
enum { EXIT_USAGE = CLI_EXIT_USAGE, EXIT_MISMATCH = 3, EXIT_FAULT = 5 };

static const char help_text[] =
"Usage: infsim vima PROG.vima [OPTION]...\n"
"  or:  infsim run PROG.vima [OPTION]...\n"
"Run a VIMA program: vector instructions on 8 KB (or 256 B) vectors, run by\n"
"a unit beside 3-D stacked memory from a small vector cache (doc/VIMA.md).\n"
"\n"
"  -D, --define=NAME=VALUE    set the program's 'const NAME' to VALUE\n"
"  -l, --load=ARRAY=FILE      fill ARRAY from FILE (.npy of its type) before the run\n"
"  -s, --save=ARRAY=FILE      write ARRAY to FILE (.npy) after the run\n"
"  -e, --expect=ARRAY=FILE    compare ARRAY with FILE (.npy) bit for bit\n"
"  -d, --dump=ARRAY           print ARRAY's elements after the run\n"
"      --vector=BYTES         vector (and cache line) size: 8192 or 256\n"
"      --lines=N              vector cache lines (1 to 4096; default 8)\n"
"      --fault-at=K           raise a page fault at the K-th VIMA instruction\n"
"      --max-steps=N          stop after N statements (default 2^28)\n"
"      --stats[=FORMAT]       print statistics: text (default) or json\n"
"      --stats-file=FILE      write the statistics to FILE\n"
"      --list                 list the instructions and exit\n"
"  -q, --quiet                print nothing on success\n"
"      --help                 display this help and exit\n"
"\n"
"Exit status: 0 if OK, 1 on a runtime failure, 2 on a usage error, 3 if an\n"
"array differs from --expect, 5 if the injected page fault stopped the run.\n";

typedef struct arrarg { int opt; const char *name, *path; int array; } arrarg;

typedef struct cli {
	const char *prog;
	vima_define *defs;
	size_t ndefs;
	arrarg *aa;
	size_t naa;
	unsigned vector, lines;
	vima_run_opts ro;
	int stats;             /* 0, 't' or 'j' */
	const char *stats_file;
	bool quiet;
} cli;

bool vima_cli_wants(int argc, char **argv)
{
	return cli_names_file(argc, argv, ".vima");
}

static int define_arg(cli *c, char *s)
{
	const char *name;
	long long v;
	int rc = cli_define(CMD, s, &name, &v);
	if (!rc)
		c->defs[c->ndefs++] = (vima_define){ name, v, false };
	return rc;
}

static int array_arg(cli *c, int opt, char *s)
{
	const char *name = s, *path = NULL;
	int rc = opt == 'd' ? 0 : cli_name_file(CMD, opt, s, &name, &path);
	if (!rc)
		c->aa[c->naa++] = (arrarg){ opt, name, path, -1 };
	return rc;
}

enum { O_VECTOR = 256, O_LINES, O_FAULT, O_STEPS, O_STATS, O_STATS_FILE, O_LIST, O_HELP };

static const struct option longopts[] = {
	{ "define", required_argument, NULL, 'D' }, { "load", required_argument, NULL, 'l' },
	{ "save", required_argument, NULL, 's' }, { "expect", required_argument, NULL, 'e' },
	{ "dump", required_argument, NULL, 'd' }, { "vector", required_argument, NULL, O_VECTOR },
	{ "lines", required_argument, NULL, O_LINES }, { "fault-at", required_argument, NULL, O_FAULT },
	{ "max-steps", required_argument, NULL, O_STEPS }, { "stats", optional_argument, NULL, O_STATS },
	{ "stats-file", required_argument, NULL, O_STATS_FILE }, { "list", no_argument, NULL, O_LIST },
	{ "quiet", no_argument, NULL, 'q' }, { "help", no_argument, NULL, O_HELP },
	{ NULL, 0, NULL, 0 }
};

static int list_ops(void)
{
	printf("%-6s %-5s %-22s %s\n", "name", "form", "types", "semantics");
	static const char *const forms[] = { "d,a,b", "d,a", "d,v", "s,a,b" };
	for (int op = 0; op < VIMA_NOPS; op++) {
		const vima_op_info *in = vima_op_info_of((vima_op)op);
		char types[64] = "";
		for (int t = 0; t < VIMA_NTYPES; t++)
			if (in->types & (1u << t)) {
				strcat(types, types[0] ? " " : "");
				strcat(types, vima_type_name((vima_type)t));
			}
		printf("%-6s %-5s %-22s %s\n", in->name, forms[in->form], types, in->semantics);
	}
	return 1;
}

static int one_opt(cli *c, int ch, char *arg)
{
	uint64_t v;
	switch (ch) {
	case 'D': return define_arg(c, arg);
	case 'l': case 's': case 'e': case 'd': return array_arg(c, ch, arg);
	case 'q': c->quiet = true; return 0;
	case O_VECTOR:
		if (strcmp(arg, "256") && strcmp(arg, "8192"))
			return cli_usage(CMD, "--vector=%s: expected 8192 or 256", arg);
		c->vector = arg[0] == '2' ? 256 : 8192;
		return 0;
	case O_LINES:
		if (cli_number(CMD, "lines", arg, 1, VIMA_LINES_MAX, &v))
			return EXIT_USAGE;
		c->lines = (unsigned)v;
		return 0;
	case O_FAULT: return cli_number(CMD, "fault-at", arg, 1, UINT64_MAX, &c->ro.fault_at);
	case O_STEPS: return cli_number(CMD, "max-steps", arg, 1, UINT64_MAX, &c->ro.max_steps);
	case O_STATS:
		if (arg && strcmp(arg, "text") && strcmp(arg, "json"))
			return cli_usage(CMD, "--stats=%s: expected text or json", arg);
		c->stats = arg && arg[0] == 'j' ? 'j' : 't';
		return 0;
	case O_STATS_FILE: c->stats_file = arg; return 0;
	case O_LIST: return list_ops() ? -1 : 0;
	case O_HELP: fputs(help_text, stdout); return -1;
	default: return cli_usage(CMD, "unknown or incomplete option '%s'", arg ? arg : "?");
	}
}

/* 0 to run, -1 when done (--help, --list), or an exit status. */
static int parse_opts(cli *c, int argc, char **argv)
{
	opterr = 0;
	optind = 1;
	int ch;
	while ((ch = getopt_long(argc, argv, "D:l:s:e:d:q", longopts, NULL)) != -1) {
		int rc = one_opt(c, ch, ch == '?' ? argv[optind - 1] : optarg);
		if (rc)
			return rc;
	}
	if (optind >= argc)
		return cli_usage(CMD, "missing the program (PROG.vima)");
	if (optind + 1 < argc)
		return cli_usage(CMD, "extra operand '%s'", argv[optind + 1]);
	c->prog = argv[optind];
	return 0;
}

static int resolve_arrays(cli *c, const vima_program *p, diag *d)
{
	for (size_t i = 0; i < c->naa; i++) {
		arrarg *a = &c->aa[i];
		a->array = vima_array_find(p, a->name);
		if (a->array < 0)
			return cli_usage(CMD, "-%c %s: the program has no array '%s'", a->opt, a->name, a->name);
		if (a->opt == 's' && outfile_check(a->path, d) < 0)
			return cli_failed(d);
	}
	if (c->stats_file && outfile_check(c->stats_file, d) < 0)
		return cli_failed(d);
	return 0;
}

static void dump(const vima_unit *u, int ai)
{
	const vima_array *a = &u->p->arrays[ai];
	uint8_t *bytes = malloc(a->bytes);
	if (!bytes)
		return;
	vima_read_array(u, ai, bytes);
	const unsigned sz = vima_type_size(a->type);
	for (uint64_t k = 0; k < a->count; k++) {
		uint64_t v = 0;
		char text[64];
		memcpy(&v, bytes + k * sz, sz);
		vima_elem_text(a->type, v, text, sizeof text);
		printf("%s[%" PRIu64 "] = %s\n", a->name, k, text);
	}
	free(bytes);
}

static int write_stats(const cli *c, const vima_unit *u, diag *d)
{
	if (!c->stats_file) {
		(c->stats == 'j' ? vima_stats_json : vima_stats_text)(stdout, u);
		return 0;
	}
	char *mem = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&mem, &len);
	if (!f)
		return diag_file(d, c->stats_file, "out of memory"), -1;
	(c->stats == 'j' ? vima_stats_json : vima_stats_text)(f, u);
	int rc = fclose(f) == 0 ? outfile_write(c->stats_file, mem, len, d) : -1;
	if (rc < 0 && !d->set)
		diag_file(d, c->stats_file, "out of memory");
	free(mem);
	return rc;
}

/* After the run (or the fault): save, dump, statistics, compare. */
static int outputs(const cli *c, const vima_unit *u, diag *d)
{
	for (size_t i = 0; i < c->naa; i++) {
		const arrarg *a = &c->aa[i];
		if (a->opt == 's' && vima_npy_save(u, a->array, a->path, d) < 0)
			return cli_failed(d);
		if (a->opt == 'd')
			dump(u, a->array);
	}
	if (c->stats && write_stats(c, u, d) < 0)
		return cli_failed(d);
	for (size_t i = 0; i < c->naa; i++) {
		const arrarg *a = &c->aa[i];
		int rc = a->opt == 'e' ? vima_npy_expect(u, a->array, a->path, d) : 0;
		if (rc)
			return rc < 0 ? cli_failed(d) : (fprintf(stderr, "%s\n", d->msg), EXIT_MISMATCH);
	}
	return 0;
}

static int run_program(cli *c, const vima_program *p, diag *d)
{
	vima_unit u;
	int rc = resolve_arrays(c, p, d);
	if (rc)
		return rc;
	if (vima_unit_init(&u, p, &c->ro, c->lines, d) < 0)
		return cli_failed(d);
	for (size_t i = 0; i < c->naa && rc == 0; i++)
		if (c->aa[i].opt == 'l' && vima_npy_load(&u, c->aa[i].array, c->aa[i].path, d) < 0)
			rc = cli_failed(d);
	int st = rc ? -1 : vima_run(&u, d);
	if (st < 0 && rc == 0)
		rc = cli_failed(d);
	if (rc == 0) {
		vima_flush(&u);
		rc = outputs(c, &u, d);
	}
	if (rc == 0 && st == VIMA_STEP_FAULT) {
		const vima_stmt *s = &p->stmts[u.fault_stmt];
		fprintf(stderr, "%s:%d:%d: error: page fault at VIMA instruction %" PRIu64
			" (%s.%s): instructions 1 to %" PRIu64 " committed, nothing of %" PRIu64
			" or after\n", p->path, s->line, s->col, u.fault_insn,
			vima_op_info_of(s->op)->name, vima_type_name(s->type), u.fault_insn - 1,
			u.fault_insn);
		rc = EXIT_FAULT;
	} else if (rc == 0 && !c->quiet && !(c->stats == 'j' && !c->stats_file)) {
		printf("%s: %" PRIu64 " VIMA instructions, %" PRIu64 " cycles, %" PRIu64
		       " hits, %" PRIu64 " misses, %" PRIu64 " write-backs\n", p->path, u.st.insns,
		       u.st.cycles, u.st.read_hits + u.st.write_hits,
		       u.st.read_misses + u.st.write_misses, u.st.writebacks);
	}
	vima_unit_free(&u);
	return rc;
}

int vima_cli(int argc, char **argv)
{
	cli c;
	memset(&c, 0, sizeof c);
	c.defs = calloc((size_t)argc + 1, sizeof *c.defs);
	c.aa = calloc((size_t)argc + 1, sizeof *c.aa);
	diag d;
	diag_clear(&d);
	int rc = !c.defs || !c.aa ? (fputs("infsim: error: out of memory\n", stderr), EXIT_FAILURE)
				   : parse_opts(&c, argc, argv);
	if (rc == 0) {
		vima_parse_opts po = { c.defs, c.ndefs, c.vector, c.lines };
		vima_program p;
		if (vima_load(c.prog, &po, &p, &d) < 0) {
			rc = cli_failed(&d);
		} else {
			rc = run_program(&c, &p, &d);
			vima_program_free(&p);
		}
	}
	free(c.defs);
	free(c.aa);
	return rc < 0 ? 0 : rc;
}
