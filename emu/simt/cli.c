/* SPDX-License-Identifier: MIT */
/*
 * cli.c: `infsim simt PROG.simt [OPTION]...`: parse a DC-PTX program,
 * run it on the SIMT machine, optionally check it against the
 * thread-at-a-time reference, print globals and statistics (doc/SIMT.md,
 * infsim(1)).
 *
 * Exit status: 0 success, 1 a failure (a file, the program, a run),
 * 2 a usage error, 3 the machine and the reference differ.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "simt_int.h"

#define CMD "simt"
enum { EXIT_USAGE = CLI_EXIT_USAGE, EXIT_MISMATCH = 3 };

static const char help_text[] =
"Usage: infsim simt PROG.simt [OPTION]...\n"
"Run a DC-PTX program in Duality Cache's SIMT mode: each thread a bitline,\n"
"256-thread blocks on a bank's four arrays, 1024-thread control blocks issuing\n"
"VLIW bundles (doc/SIMT.md).\n"
"\n"
"  -c, --check            also run the thread-at-a-time reference and compare\n"
"                         memory and registers bit for bit\n"
"  -p, --print=GLOBAL     print GLOBAL's elements after the run\n"
"  -b, --bundles          print each kernel's bundles (how .thread kernels were\n"
"                         translated) and exit\n"
"      --stats            print the statistics (the default unless --print)\n"
"      --mapping=MAP      translate .thread kernels as MAP: vliw (bundles of up to\n"
"                         4 independent operations) or serial (one operation a\n"
"                         bundle, every value on one array, spilling what does\n"
"                         not fit), whatever the program's .machine mapping= says\n"
"      --fig13            translate the program both ways, run and check both\n"
"                         against the reference, and print their cycles and ratio\n"
"                         (duality-cache Fig 13)\n"
"  -q, --quiet            print nothing on success\n"
"      --help             display this help and exit\n"
"\n"
"Exit status: 0 if OK, 1 on a failure, 2 on a usage error, 3 if the machine\n"
"and the reference differ.\n";

static void print_global(const simt_program *p, const simt_global *g, const uint32_t *mem)
{
	for (uint32_t i = 0; i < g->count; i++) {
		uint32_t v = mem[g->addr / 4 + i];
		if (g->type == SIMT_F32) {
			float f;
			memcpy(&f, &v, 4);
			printf("%s[%u] = %.9g (0x%08x)\n", g->name, i, (double)f, v);
		} else if (g->type == SIMT_S32) {
			printf("%s[%u] = %d\n", g->name, i, (int32_t)v);
		} else {
			printf("%s[%u] = %u\n", g->name, i, v);
		}
	}
	(void)p;
}

typedef struct opts {
	const char *prog;
	bool check, stats, quiet, bundles, fig13;
	int mapping;
	const char *print[16];
	int nprint;
} opts;

static int parse_opts(opts *o, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "check", no_argument, NULL, 'c' }, { "print", required_argument, NULL, 'p' },
		{ "stats", no_argument, NULL, 's' }, { "bundles", no_argument, NULL, 'b' }, { "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' }, { "mapping", required_argument, NULL, 'm' },
		{ "fig13", no_argument, NULL, 'f' }, { NULL, 0, NULL, 0 },
	};
	int ch;
	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "bcp:q", lo, NULL)) != -1) {
		switch (ch) {
		case 'c': o->check = true; break;
		case 's': o->stats = true; break;
		case 'b': o->bundles = true; break;
		case 'q': o->quiet = true; break;
		case 'p':
			if (o->nprint == 16)
				return cli_usage(CMD, "at most 16 --print options");
			o->print[o->nprint++] = optarg;
			break;
		case 'f': o->fig13 = true; break;
		case 'm':
			if (strcmp(optarg, "vliw") && strcmp(optarg, "serial"))
				return cli_usage(CMD, "--mapping=%s: expected vliw or serial", optarg);
			o->mapping = strcmp(optarg, "vliw") ? SIMT_MAP_SERIAL : SIMT_MAP_VLIW;
			break;
		case 'h': fputs(help_text, stdout); return 0;
		default: return cli_usage(CMD, "unknown or incomplete option '%s'", argv[optind - 1]);
		}
	}
	if (optind + 1 != argc)
		return optind == argc ? cli_usage(CMD, "missing PROG.simt")
				      : cli_usage(CMD, "extra operand '%s'", argv[optind + 1]);
	o->prog = argv[optind];
	return -1;
}

static int check_run(const simt_program *p, simt_machine *m, bool quiet)
{
	diag d;
	diag_clear(&d);
	simt_ref *r = simt_ref_new(p, &d);
	if (!r || simt_ref_run(r, &d) < 0) {
		simt_ref_free(r);
		return cli_failed(&d);
	}
	int rc = simt_compare(m, r, &d);
	simt_ref_free(r);
	if (rc) {
		fprintf(stderr, "%s\n", d.msg);
		return EXIT_MISMATCH;
	}
	if (!quiet)
		printf("check: memory and registers match the thread-at-a-time reference\n");
	return 0;
}

static int run(const opts *o, const simt_program *p)
{
	diag d;
	diag_clear(&d);
	for (int i = 0; i < o->nprint; i++)
		if (!simt_global_find(p, o->print[i]))
			return cli_usage(CMD, "--print=%s: no such global", o->print[i]);
	simt_machine *m = simt_machine_new(p, &d);
	if (!m || simt_machine_run(m, &d) < 0) {
		simt_machine_free(m);
		return cli_failed(&d);
	}
	int rc = o->check ? check_run(p, m, o->quiet) : 0;
	for (int i = 0; rc == 0 && i < o->nprint; i++)
		print_global(p, simt_global_find(p, o->print[i]), simt_machine_mem(m));
	if (rc == 0 && !o->quiet && (o->stats || o->nprint == 0))
		simt_report(stdout, p, simt_machine_stats(m));
	simt_machine_free(m);
	return rc;
}

/* One translation for --fig13: run and checked; its stats in *st. */
static int fig13_one(const char *path, int mapping, simt_stats *st)
{
	diag d;
	diag_clear(&d);
	simt_program p;
	if (simt_load_file_mapped(path, mapping, &p, &d) < 0)
		return cli_failed(&d);
	simt_machine *m = simt_machine_new(&p, &d);
	int rc = !m || simt_machine_run(m, &d) < 0 ? cli_failed(&d) : check_run(&p, m, true);
	if (rc == 0)
		*st = *simt_machine_stats(m);
	simt_machine_free(m);
	simt_program_free(&p);
	return rc;
}

/* Fig 13: the same program translated into VLIW bundles and serially
 * (one operation a bundle), both checked; compute cycles and ratio. */
static int fig13(const opts *o)
{
	simt_stats *v = malloc(2 * sizeof *v);
	if (!v)
		return fprintf(stderr, "infsim: out of memory\n"), EXIT_FAILURE;
	int rc = fig13_one(o->prog, SIMT_MAP_VLIW, &v[0]);
	if (rc == 0)
		rc = fig13_one(o->prog, SIMT_MAP_SERIAL, &v[1]);
	if (rc == 0) {
		printf("fig13: both translations match the thread-at-a-time reference\n");
		printf("  %-8s %10s %14s %14s %8s\n", "mapping", "bundles", "compute cyc", "critical path", "copies");
		for (int i = 0; i < 2; i++)
			printf("  %-8s %10llu %14llu %14llu %8llu\n", i ? "serial" : "vliw",
			       (unsigned long long)v[i].bundles, (unsigned long long)v[i].compute_cycles,
			       (unsigned long long)v[i].critical_path, (unsigned long long)v[i].copies);
		printf("  serial / vliw: %.2fx compute, %.2fx critical path\n",
		       v[0].compute_cycles ? (double)v[1].compute_cycles / (double)v[0].compute_cycles : 0.0,
		       v[0].critical_path ? (double)v[1].critical_path / (double)v[0].critical_path : 0.0);
	}
	free(v);
	return rc;
}

int simt_cli(int argc, char **argv)
{
	opts o;
	memset(&o, 0, sizeof o);
	o.mapping = SIMT_MAP_FILE;
	int rc = parse_opts(&o, argc, argv);
	if (rc >= 0)
		return rc;
	if (o.fig13)
		return fig13(&o);
	diag d;
	diag_clear(&d);
	simt_program p;
	if (simt_load_file_mapped(o.prog, o.mapping, &p, &d) < 0)
		return cli_failed(&d);
	if (o.bundles)
		for (size_t i = 0; i < p.nk; i++)
			simt_format_kernel(stdout, &p, &p.k[i]);
	rc = o.bundles ? 0 : run(&o, &p);
	simt_program_free(&p);
	return rc;
}
