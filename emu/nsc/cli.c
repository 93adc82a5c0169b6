/* SPDX-License-Identifier: MIT */
/*
 * cli.c: `infsim nsc PROG.nsc [OPTION]...` (also `infsim run PROG.nsc`):
 * parse a stream program, run it on the stream engines, load, save and
 * print arrays, compare with the reference (--check), and print the
 * statistics with the traffic the same program makes with every stream at
 * the core (doc/STREAMS.md, infsim(1)).
 *
 * Exit status: 0 success, 1 a runtime failure (a file, the program), 2 a
 * usage error, 3 a result that differs from the reference.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "nsc_int.h"

#define CMD "nsc"
enum { EXIT_USAGE = CLI_EXIT_USAGE, EXIT_MISMATCH = 3, MAX_ARGS = 64 };

static const char help_text[] =
"Usage: infsim nsc PROG.nsc [OPTION]...\n"
"  or:  infsim run PROG.nsc [OPTION]...\n"
"Run a stream program on near-stream computing's stream engines: streams\n"
"offloaded with their computation to the L3 banks of an 8x8 mesh\n"
"(doc/STREAMS.md).\n"
"\n"
"  -D, --define=NAME=VALUE    set the program's 'const NAME' to VALUE\n"
"  -l, --load=ARRAY=FILE      fill ARRAY from FILE (.npy of its type) before the run\n"
"  -s, --save=ARRAY=FILE      write ARRAY to FILE (.npy) after the run\n"
"  -d, --dump=ARRAY           print ARRAY's elements after the run\n"
"      --check                run the reference too; every array must be equal,\n"
"                             bit for bit (exit status 3 if not)\n"
"      --float=MODE           the floating decision: auto (default), core (every\n"
"                             stream at the core) or bank (every stream offloaded)\n"
"      --interleave=BYTES     static NUCA interleave: 64 (default) or 1024, ...\n"
"      --sync=MODE            range (default: range synchronisation) or free\n"
"      --range=R              iterations per range message (default 8)\n"
"      --window=W             iterations issued ahead of the core (default 16)\n"
"      --cache=BYTES          the private cache of the decision (default 262144)\n"
"      --core=TILE            the core's tile, 0 to 63 (default 0)\n"
"      --alias=N:ARRAY[I]=V   a core store of V to ARRAY[I] before iteration N\n"
"                             (counted over every region, from 0); repeatable\n"
"      --max-iters=N          bound on a loop's or region's iterations (2^32)\n"
"      --max-work=N           bound on the whole run's loop trips and region\n"
"                             iterations together (default: none)\n"
"      --stats                print statistics and the traffic with every\n"
"                             stream at the core\n"
"  -q, --quiet                print nothing on success\n"
"      --help                 display this help and exit\n"
"\n"
"Exit status: 0 if OK, 1 on a runtime failure, 2 on a usage error, 3 if the\n"
"result differs from the reference.\n";

typedef struct arrarg { int opt; const char *name, *path; } arrarg;

typedef struct nsc_cli_opts {
	const char *prog;
	nsc_define defs[MAX_ARGS];
	int ndefs;
	arrarg aa[MAX_ARGS];
	int naa;
	const char *alias_text[MAX_ARGS];
	nsc_alias aliases[MAX_ARGS];
	int naliases;
	nsc_settings s;
	bool check, stats, quiet;
} cli;

static int define(cli *c, char *arg)
{
	const char *name;
	long long v;
	if (c->ndefs == MAX_ARGS)
		return cli_usage(CMD, "-D: more than %d definitions", MAX_ARGS);
	int rc = cli_define(CMD, arg, &name, &v);
	if (!rc)
		c->defs[c->ndefs++] = (nsc_define){ name, v };
	return rc;
}

static int set_mode(cli *c, int opt, const char *arg)
{
	uint64_t v;
	switch (opt) {
	case 'F':
		if (!strcmp(arg, "auto") || !strcmp(arg, "core") || !strcmp(arg, "bank"))
			c->s.floating = arg[0] == 'a' ? NSC_FLOAT_AUTO : arg[0] == 'c' ? NSC_FLOAT_CORE : NSC_FLOAT_BANK;
		else
			return cli_usage(CMD, "--float=%s: expected auto, core or bank", arg);
		return 0;
	case 'S':
		if (strcmp(arg, "range") && strcmp(arg, "free"))
			return cli_usage(CMD, "--sync=%s: expected range or free", arg);
		c->s.sync_free = arg[0] == 'f';
		return 0;
	case 'I':
		if (cli_number(CMD, "interleave", arg, 8, 1 << 20, &v))
			return EXIT_USAGE;
		if (v & (v - 1))
			return cli_usage(CMD, "--interleave=%s: expected a power of two", arg);
		c->s.interleave = (unsigned)v;
		return 0;
	case 'R': if (cli_number(CMD, "range", arg, 1, 1024, &v)) return EXIT_USAGE; c->s.range_iters = (unsigned)v; return 0;
	case 'W': if (cli_number(CMD, "window", arg, 0, 1024, &v)) return EXIT_USAGE; c->s.window = (unsigned)v; return 0;
	case 'C': if (cli_number(CMD, "cache", arg, 64, 1 << 30, &v)) return EXIT_USAGE; c->s.cache_bytes = (unsigned)v; return 0;
	case 'T': if (cli_number(CMD, "core", arg, 0, 63, &v)) return EXIT_USAGE; c->s.core_tile = (unsigned)v; return 0;
	case 'M': return cli_number(CMD, "max-iters", arg, 1, UINT64_MAX >> 1, &c->s.max_iters) ? EXIT_USAGE : 0;
	case 'w': return cli_number(CMD, "max-work", arg, 1, UINT64_MAX >> 1, &c->s.max_work) ? EXIT_USAGE : 0;
	}
	return EXIT_USAGE;
}

static const struct option longopts[] = {
	{ "define", required_argument, NULL, 'D' }, { "load", required_argument, NULL, 'l' },
	{ "save", required_argument, NULL, 's' }, { "dump", required_argument, NULL, 'd' },
	{ "check", no_argument, NULL, 'k' }, { "float", required_argument, NULL, 'F' },
	{ "interleave", required_argument, NULL, 'I' }, { "sync", required_argument, NULL, 'S' },
	{ "range", required_argument, NULL, 'R' }, { "window", required_argument, NULL, 'W' },
	{ "cache", required_argument, NULL, 'C' }, { "core", required_argument, NULL, 'T' },
	{ "alias", required_argument, NULL, 'A' }, { "max-iters", required_argument, NULL, 'M' },
	{ "max-work", required_argument, NULL, 'w' },
	{ "stats", no_argument, NULL, 't' }, { "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 } };

static int options(cli *c, int argc, char **argv)
{
	int o;
	optind = 1;
	opterr = 0;
	while ((o = getopt_long(argc, argv, ":D:l:s:d:q", longopts, NULL)) != -1) {
		const char *name = NULL, *val = NULL;
		switch (o) {
		case 'D': if (define(c, optarg)) return EXIT_USAGE; break;
		case 'l': case 's': case 'd':
			if (c->naa == MAX_ARGS)
				return cli_usage(CMD, "more than %d array options", MAX_ARGS);
			if (o == 'd')
				name = optarg, val = NULL;
			else if (cli_name_file(CMD, o, optarg, &name, &val))
				return EXIT_USAGE;
			c->aa[c->naa++] = (arrarg){ o, name, val };
			break;
		case 'A':
			if (c->naliases == MAX_ARGS)
				return cli_usage(CMD, "--alias: more than %d", MAX_ARGS);
			c->alias_text[c->naliases++] = optarg;
			break;
		case 'k': c->check = true; break;
		case 't': c->stats = true; break;
		case 'q': c->quiet = true; break;
		case 'h': fputs(help_text, stdout); return -1;
		case ':': return cli_usage(CMD, "option '%s' needs a value", argv[optind - 1]);
		case '?': return cli_usage(CMD, "unknown option '%s'", argv[optind - 1]);
		default: if (set_mode(c, o, optarg)) return EXIT_USAGE;
		}
	}
	if (optind != argc - 1)
		return cli_usage(CMD, optind >= argc ? "missing PROG.nsc" : "one program, not '%s'", argv[argc - 1]);
	c->prog = argv[optind];
	return 0;
}

/* N:ARRAY[I]=V, resolved against the program. */
static int parse_alias(const nsc_program *p, const char *text, nsc_alias *a)
{
	char arr[NSC_NAME_MAX], val[64];
	unsigned long long n, i;
	int used = 0;
	if (sscanf(text, "%llu:%31[A-Za-z0-9_][%llu]=%63s%n", &n, arr, &i, val, &used) != 4 || text[used])
		return cli_usage(CMD, "--alias: expected N:ARRAY[I]=VALUE, not '%s'", text);
	a->arr = nsc_array_find(p, arr);
	if (a->arr < 0)
		return cli_usage(CMD, "--alias: no array '%s' in %s", arr, p->file);
	if (i >= p->arrays[a->arr].count)
		return cli_usage(CMD, "--alias: index %llu is out of bounds of '%s'", i, arr);
	a->iter = n;
	a->index = i;
	char *end;
	if (strpbrk(val, ".eEn")) {
		a->value.k = 'd';
		a->value.u.d = strtod(val, &end);
	} else {
		a->value = nsc_val_int(strtoll(val, &end, 0));
	}
	if (*end)
		return cli_usage(CMD, "--alias: expected a number, not '%s'", val);
	return 0;
}

static int arrays_in(cli *c, const nsc_program *p, nsc_mem *m, diag *d)
{
	for (int k = 0; k < c->naa; k++) {
		int a = nsc_array_find(p, c->aa[k].name);
		if (a < 0)
			return cli_usage(CMD, "--%s: no array '%s' in %s", c->aa[k].opt == 'l' ? "load" : c->aa[k].opt == 's' ? "save" : "dump",
				     c->aa[k].name, p->file);
		if (c->aa[k].opt == 'l' && nsc_npy_load(m, a, c->aa[k].path, d) < 0)
			return cli_failed(d);
	}
	return 0;
}

static void dump(const nsc_mem *m, int a)
{
	const nsc_array *ar = &m->p->arrays[a];
	printf("%s:", ar->name);
	for (uint64_t i = 0; i < ar->count; i++) {
		nsc_val v = nsc_mem_get(m, a, i);
		if (v.k == 'i')
			printf(" %" PRId64, v.u.i);
		else
			printf(" %.9g", v.k == 'f' ? (double)v.u.f : v.u.d);
	}
	printf("\n");
}

static int arrays_out(cli *c, const nsc_program *p, const nsc_mem *m, diag *d)
{
	for (int k = 0; k < c->naa; k++) {
		int a = nsc_array_find(p, c->aa[k].name);
		if (c->aa[k].opt == 's' && nsc_npy_save(m, a, c->aa[k].path, d) < 0)
			return cli_failed(d);
		if (c->aa[k].opt == 'd')
			dump(m, a);
	}
	return 0;
}

/* --check: the reference from the same initial memory; every array equal. */
static int check(cli *c, const nsc_program *p, const nsc_mem *init, const nsc_mem *m, diag *d)
{
	nsc_mem r;
	if (nsc_mem_copy(&r, init, d) < 0)
		return cli_failed(d);
	int rc = 0;
	if (nsc_ref_run(p, &r, &c->s, d) < 0)
		rc = cli_failed(d);
	for (int a = 0; a < p->narrays && rc == 0; a++) {
		int64_t i = nsc_mem_diff(m, &r, a);
		if (i >= 0) {
			fprintf(stderr, "%s: error: %s[%" PRId64 "] is 0x%" PRIx64 " on the engines, 0x%" PRIx64 " in the reference\n",
				p->file, p->arrays[a].name, i, nsc_mem_bits(m, a, (uint64_t)i), nsc_mem_bits(&r, a, (uint64_t)i));
			rc = EXIT_MISMATCH;
		}
	}
	if (rc == 0 && !c->quiet)
		printf("check: every array equals the reference\n");
	nsc_mem_free(&r);
	return rc;
}

/* The same program with every stream at the core: the traffic without offload. */
static int baseline(cli *c, const nsc_program *p, const nsc_mem *init, nsc_stats *st, diag *d)
{
	nsc_mem b;
	if (nsc_mem_copy(&b, init, d) < 0)
		return -1;
	nsc_settings s = c->s;
	s.floating = NSC_FLOAT_CORE;
	int rc = nsc_run(p, &b, &s, st, d);
	nsc_mem_free(&b);
	return rc;
}

static int resolve(cli *c, const nsc_program *p, nsc_mem *init, diag *d)
{
	int rc = arrays_in(c, p, init, d);
	for (int k = 0; k < c->naliases && rc == 0; k++)
		rc = parse_alias(p, c->alias_text[k], &c->aliases[k]);
	c->s.aliases = c->aliases;
	c->s.naliases = c->naliases;
	return rc;
}

int nsc_job_open(nsc_job *j, int argc, char **argv)
{
	memset(j, 0, sizeof *j);
	cli *c = calloc(1, sizeof *c);
	if (!c) {
		fputs("infsim: error: out of memory\n", stderr);
		return EXIT_FAILURE;
	}
	nsc_settings_default(&c->s);
	int rc = options(c, argc, argv);
	if (rc) {
		free(c);
		return rc;
	}
	diag d;
	diag_clear(&d);
	if (nsc_load_file(c->prog, c->defs, c->ndefs, &j->p, &d) < 0) {
		free(c);
		return cli_failed(&d);
	}
	if (nsc_mem_init(&j->init, &j->p, &d) < 0) {
		nsc_program_free(&j->p);
		free(c);
		return cli_failed(&d);
	}
	j->cli = c;
	j->s = &c->s;
	j->check = c->check;
	j->stats = c->stats;
	j->quiet = c->quiet;
	rc = resolve(c, &j->p, &j->init, &d);
	if (rc)
		nsc_job_close(j);
	return rc;
}

void nsc_job_close(nsc_job *j)
{
	if (!j->cli)
		return;
	nsc_mem_free(&j->init);
	nsc_program_free(&j->p);
	free(j->cli);
	j->cli = NULL;
}

int nsc_job_outputs(const nsc_job *j, const nsc_mem *m)
{
	diag d;
	diag_clear(&d);
	return arrays_out(j->cli, &j->p, m, &d);
}

int nsc_job_check(const nsc_job *j, const nsc_mem *m)
{
	diag d;
	diag_clear(&d);
	return check(j->cli, &j->p, &j->init, m, &d);
}

static int run(nsc_job *j)
{
	cli *c = j->cli;
	const nsc_program *p = &j->p;
	diag d;
	diag_clear(&d);
	int rc = 0;
	nsc_mem m;
	nsc_stats st, base;
	if (nsc_mem_copy(&m, &j->init, &d) < 0)
		return cli_failed(&d);
	if (nsc_run(p, &m, &c->s, &st, &d) < 0)
		rc = cli_failed(&d);
	if (rc == 0 && c->check)
		rc = check(c, p, &j->init, &m, &d);
	if (rc == 0)
		rc = arrays_out(c, p, &m, &d);
	if (rc == 0 && c->stats) {
		if (baseline(c, p, &j->init, &base, &d) < 0)
			rc = cli_failed(&d);
		else
			nsc_report(stdout, &st, &base);
	}
	nsc_mem_free(&m);
	return rc;
}

int nsc_cli(int argc, char **argv)
{
	nsc_job j;
	int rc = nsc_job_open(&j, argc, argv);
	if (rc)
		return rc < 0 ? 0 : rc;
	rc = run(&j);
	nsc_job_close(&j);
	return rc;
}
