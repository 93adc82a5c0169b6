/* SPDX-License-Identifier: MIT */
/*
 * cli.c: `infsim ar PROG.ar [OPTION]...` (also `infsim run PROG.ar`):
 * read the program, load arrays, run it on the network, save arrays,
 * print the statistics (doc/ACTIVE-ROUTING.md, "Running").
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "ar.h"
#include "cli.h"
#include "npy.h"
#include "outfile.h"
#include "text.h"

#define CMD "ar"
enum { OPT_ROOT = 256, OPT_NET, OPT_INTERLEAVE, OPT_ENTRIES, OPT_BUFFERS, OPT_EVENTS,
       OPT_MEMORY, OPT_STATS, OPT_HEATMAP, OPT_HELP };

typedef struct cli {
	ar_config c;
	const char *prog, *heatmap;
	char **defs, **loads, **saves;
	size_t ndefs, nloads, nsaves;
	int stats;                /* 0 none, 1 text, 2 json */
	bool quiet;
} cli;

static const struct option longopts[] = {
	{ "define", required_argument, NULL, 'D' },
	{ "load", required_argument, NULL, 'l' },
	{ "save", required_argument, NULL, 's' },
	{ "root", required_argument, NULL, OPT_ROOT },
	{ "net", required_argument, NULL, OPT_NET },
	{ "interleave", required_argument, NULL, OPT_INTERLEAVE },
	{ "flow-entries", required_argument, NULL, OPT_ENTRIES },
	{ "buffers", required_argument, NULL, OPT_BUFFERS },
	{ "max-events", required_argument, NULL, OPT_EVENTS },
	{ "max-memory", required_argument, NULL, OPT_MEMORY },
	{ "stats", optional_argument, NULL, OPT_STATS },
	{ "heatmap", required_argument, NULL, OPT_HEATMAP },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

static int help(void)
{
	printf("Usage: infsim ar PROG.ar [OPTION]...\n"
	       "   or: infsim run PROG.ar [OPTION]...\n"
	       "Run an Active-Routing program (HPCA'19) on a network of 16 memory cubes:\n"
	       "every Update, operand and partial result, event by event, with the\n"
	       "statistics of the paper and its PEI baseline (doc/ACTIVE-ROUTING.md).\n\n"
	       "  -D, --define=NAME=VALUE   set a param of the program\n"
	       "  -l, --load=ARRAY=FILE     load an array from a .npy file\n"
	       "  -s, --save=ARRAY=FILE     save an array to a .npy file after the run\n"
	       "      --root=naive|tid|addr the ARTree roots (default addr; §IV-E)\n"
	       "      --net=dragonfly|mesh  the cube wiring (default dragonfly)\n"
	       "      --interleave=BYTES    bytes per cube in the address map (default 4096)\n"
	       "      --flow-entries=N      flow-table entries per cube (default 16)\n"
	       "      --buffers=N           operand buffers per cube (default 128)\n"
	       "      --max-events=N        stop a run after N events (default 1e9)\n"
	       "      --max-memory=BYTES    bound on all arrays (default 1 GiB)\n"
	       "      --stats[=text|json]   print the statistics\n"
	       "      --heatmap=FILE.svg    draw the Fig 11 heat map\n"
	       "  -q, --quiet               no summary line\n"
	       "      --help                this text\n\n"
	       "Exit status: 0 success, 1 an error in the program or its run, 2 a usage error.\n");
	return 0;
}

static int parse_choice(int opt, const char *arg, cli *o)
{
	if (opt == OPT_ROOT) {
		if (!strcmp(arg, "naive")) o->c.root = AR_ROOT_NAIVE;
		else if (!strcmp(arg, "tid")) o->c.root = AR_ROOT_TID;
		else if (!strcmp(arg, "addr")) o->c.root = AR_ROOT_ADDR;
		else return cli_usage(CMD, "--root=%s: expected naive, tid or addr", arg);
		return 0;
	}
	if (opt == OPT_NET) {
		if (!strcmp(arg, "dragonfly")) o->c.net = AR_NET_DRAGONFLY;
		else if (!strcmp(arg, "mesh")) o->c.net = AR_NET_MESH;
		else return cli_usage(CMD, "--net=%s: expected dragonfly or mesh", arg);
		return 0;
	}
	if (!arg || !strcmp(arg, "text")) o->stats = 1;
	else if (!strcmp(arg, "json")) o->stats = 2;
	else return cli_usage(CMD, "--stats=%s: expected text or json", arg);
	return 0;
}

static int parse_number_opt(int opt, const char *arg, cli *o)
{
	uint64_t v;
	int rc;
	switch (opt) {
	case OPT_INTERLEAVE:
		if ((rc = cli_number(CMD, "interleave", arg, 64, UINT64_MAX, &v)))
			return rc;
		if (v & (v - 1))
			return cli_usage(CMD, "--interleave=%s: expected a power of two", arg);
		o->c.interleave = v;
		return 0;
	case OPT_ENTRIES: case OPT_BUFFERS:
		if ((rc = cli_number(CMD, opt == OPT_ENTRIES ? "flow-entries" : "buffers", arg, 1, 65536, &v)))
			return rc;
		*(opt == OPT_ENTRIES ? &o->c.flow_entries : &o->c.buffers) = (unsigned)v;
		return 0;
	case OPT_EVENTS:
		return cli_number(CMD, "max-events", arg, 1, UINT64_MAX, &o->c.max_events);
	default:
		return cli_number(CMD, "max-memory", arg, 64, UINT64_MAX, &o->c.max_memory);
	}
}

static int parse_opts(int argc, char **argv, cli *o, bool *done)
{
	int opt;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "D:l:s:q", longopts, NULL)) != -1) {
		int rc = 0;
		switch (opt) {
		case 'D': o->defs[o->ndefs++] = optarg; break;
		case 'l': o->loads[o->nloads++] = optarg; break;
		case 's': o->saves[o->nsaves++] = optarg; break;
		case 'q': o->quiet = true; break;
		case OPT_ROOT: case OPT_NET: case OPT_STATS: rc = parse_choice(opt, optarg, o); break;
		case OPT_HEATMAP: o->heatmap = optarg; break;
		case OPT_HELP: *done = true; return help();
		case '?':
			return cli_usage(CMD, "unknown or incomplete option '%s'", argv[optind - 1]);
		default: rc = parse_number_opt(opt, optarg, o); break;
		}
		if (rc)
			return rc;
	}
	if (optind >= argc)
		return cli_usage(CMD, "missing the program (PROG.ar)");
	if (optind + 1 < argc)
		return cli_usage(CMD, "extra operand '%s'", argv[optind + 1]);
	o->prog = argv[optind];
	return 0;
}

static npy_dtype dtype_of(ar_type t)
{
	return t == AR_F32 ? (npy_dtype){ 'f', 4 } : (npy_dtype){ 'i', t == AR_I64 ? 8 : 4 };
}

/* ARRAY=FILE: the array's number and the file. */
static int split_arg(const ar_program *p, const char *opt, const char *arg, const char **file,
		     diag *d)
{
	const char *eq = strchr(arg, '=');
	char name[64];
	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof name || !eq[1]) {
		diag_file(d, "infsim ar", "%s %s: expected ARRAY=FILE", opt, arg);
		return -1;
	}
	memcpy(name, arg, (size_t)(eq - arg));
	name[eq - arg] = 0;
	int i = ar_array_find(p, name);
	if (i < 0)
		diag_file(d, "infsim ar", "%s %s: the program has no array '%s'", opt, arg, name);
	*file = eq + 1;
	return i;
}

static int load_one(ar_program *p, const char *arg, diag *d)
{
	const char *file;
	int i = split_arg(p, "--load", arg, &file, d);
	if (i < 0)
		return -1;
	npy_header h;
	FILE *f;
	if (npy_open(file, &h, &f, d))
		return -1;
	npy_dtype dt = dtype_of(ar_array_type(p, (size_t)i));
	uint64_t n = ar_array_len(p, (size_t)i);
	char want[16];
	npy_descr(dt, want, sizeof want);
	uint64_t *v = NULL;
	int rc = -1;
	if (!npy_dtype_matches(&h, dt) || h.fortran_order)
		diag_file(d, file, "holds %s; array %s needs %s in C order", h.descr,
			  ar_array_name(p, (size_t)i), want);
	else if (h.count != n)
		diag_file(d, file, "holds %llu elements; array %s has %llu",
			  (unsigned long long)h.count, ar_array_name(p, (size_t)i), (unsigned long long)n);
	else if (!(v = malloc(n * sizeof *v)))
		diag_file(d, file, "out of memory");
	else if (!npy_read_elems(f, file, dt, n, v, d))
		rc = 0;
	for (uint64_t k = 0; !rc && k < n; k++)
		ar_array_set(p, (size_t)i, k, v[k]);
	free(v);
	fclose(f);
	return rc;
}

static int save_one(const ar_program *p, const char *arg, diag *d)
{
	const char *file;
	int i = split_arg(p, "--save", arg, &file, d);
	if (i < 0)
		return -1;
	uint64_t n = ar_array_len(p, (size_t)i);
	uint64_t *v = malloc(n * sizeof *v);
	if (!v) {
		diag_file(d, file, "out of memory");
		return -1;
	}
	for (uint64_t k = 0; k < n; k++)
		v[k] = ar_array_get(p, (size_t)i, k);
	int rc = npy_save(file, dtype_of(ar_array_type(p, (size_t)i)), v, n, false, d);
	free(v);
	return rc;
}

static int check_outputs(const ar_program *p, const cli *o, diag *d)
{
	for (size_t i = 0; i < o->nsaves; i++) {
		const char *file;
		if (split_arg(p, "--save", o->saves[i], &file, d) < 0 || outfile_check(file, d))
			return -1;
	}
	return o->heatmap ? outfile_check(o->heatmap, d) : 0;
}

static int write_heatmap(const char *path, const ar_stats *st, const ar_config *c, diag *d)
{
	outfile of;
	if (outfile_open(&of, path, d))
		return -1;
	ar_heatmap_svg(of.f, st, c);
	return outfile_commit(&of, d);
}

ar_program *ar_load(const char *path, char *const *defs, size_t ndefs, const ar_config *c,
		    diag *d)
{
	char *text = NULL;
	size_t len;
	if (text_read_file(path, AR_SRC_MAX, &text, &len, d))
		return NULL;
	ar_program *p = ar_parse(path, text, len, defs, ndefs, c, d);
	free(text);
	return p;
}

static int run(cli *o, diag *d)
{
	ar_program *p = ar_load(o->prog, o->defs, o->ndefs, &o->c, d);
	if (!p)
		return 1;
	ar_stats st;
	int rc = check_outputs(p, o, d);
	for (size_t i = 0; !rc && i < o->nloads; i++)
		rc = load_one(p, o->loads[i], d);
	if (!rc)
		rc = ar_run(p, &o->c, &st, d);
	for (size_t i = 0; !rc && i < o->nsaves; i++)
		rc = save_one(p, o->saves[i], d);
	if (!rc && o->heatmap)
		rc = write_heatmap(o->heatmap, &st, &o->c, d);
	if (!rc && !o->quiet)
		printf("%s: %llu updates, %llu assignments, %llu gathers, %llu cycles; host <-> "
		       "network bytes %llu (PEI %llu)\n", o->prog,
		       (unsigned long long)st.updates_issued, (unsigned long long)st.assigns,
		       (unsigned long long)st.gathers, (unsigned long long)st.cycles,
		       (unsigned long long)(st.host_active + st.host_normal),
		       (unsigned long long)(st.pei_host_active + st.pei_host_normal));
	if (!rc && o->stats)
		(o->stats == 2 ? ar_report_json : ar_report_text)(stdout, &st, &o->c);
	ar_program_free(p);
	return rc ? 1 : 0;
}

int ar_cli(int argc, char **argv)
{
	cli o = { .stats = 0 };
	ar_config_default(&o.c);
	o.defs = calloc((size_t)argc + 1, sizeof *o.defs);
	o.loads = calloc((size_t)argc + 1, sizeof *o.loads);
	o.saves = calloc((size_t)argc + 1, sizeof *o.saves);
	bool done = false;
	int rc = !o.defs || !o.loads || !o.saves ? (fputs("infsim: error: out of memory\n", stderr), EXIT_FAILURE)
						  : parse_opts(argc, argv, &o, &done);
	if (!rc && !done) {
		diag d;
		diag_clear(&d);
		rc = run(&o, &d);
		if (rc && d.set)
			fprintf(stderr, "%s\n", d.msg);
		else if (rc)
			fprintf(stderr, "infsim ar: error: the run failed\n");
	}
	free(o.defs);
	free(o.loads);
	free(o.saves);
	return rc;
}

/* An operand whose name ends in ".ar" (cli.h). */
bool ar_cli_wants(int argc, char **argv)
{
	return cli_names_file(argc, argv, ".ar");
}
