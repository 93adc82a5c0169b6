/* SPDX-License-Identifier: MIT */
/*
 * run.c: `infsim run PROG [OPTION]...` for every target (emu/target):
 * one option parser, the arrays' files, the run, its checks, its
 * statistics and its exit status, the same for every system.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "mem.h"
#include "opts.h"
#include "outfile.h"
#include "run.h"
#include "stats.h"
#include "target.h"
#include "text.h"

/* One -l, -s, -e or -d. */
typedef struct bufarg {
	int opt;               /* 'l', 's', 'e' or 'd' */
	const char *arg;       /* ARRAY=FILE as given */
	char name[TGT_NAME_MAX];
	const char *path;
	long array;            /* the target's, once open */
	tgt_array a;
	uint64_t *values;      /* the file's elements (-l, -e) */
} bufarg;

typedef struct run_opts {
	tgt_opts c;            /* -D, -m, -c, --check, ... (emu/target/opts.h) */
	const char *target;    /* --target */
	bufarg *ba;
	size_t nba;
	bool quiet;
	int stats;             /* 0, 't' text, 'f' full, 'c' commands, 'j' json */
	const char *stats_file;
} run_opts;

enum { OPT_CHECK = 256, OPT_STRICT, OPT_STATS, OPT_STATS_FILE, OPT_TARGET, OPT_HELP,
       OPT_VERSION };

static const struct option common_longopts[] = {
	{ "machine", required_argument, NULL, 'm' },
	{ "config", required_argument, NULL, 'c' },
	{ "define", required_argument, NULL, 'D' },
	{ "load", required_argument, NULL, 'l' },
	{ "save", required_argument, NULL, 's' },
	{ "expect", required_argument, NULL, 'e' },
	{ "dump", required_argument, NULL, 'd' },
	{ "check", no_argument, NULL, OPT_CHECK },
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ "stats", optional_argument, NULL, OPT_STATS },
	{ "stats-file", required_argument, NULL, OPT_STATS_FILE },
	{ "threads", required_argument, NULL, 'j' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "target", required_argument, NULL, OPT_TARGET },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
};
enum { NCOMMON = sizeof common_longopts / sizeof common_longopts[0] };

static const char *bufarg_option(int opt)
{
	return opt == 'l' ? "--load" : opt == 's' ? "--save" : opt == 'd' ? "--dump" : "--expect";
}

static int parse_bufarg(bufarg *b, int opt, char *arg)
{
	memset(b, 0, sizeof *b);
	b->opt = opt;
	b->arg = arg;
	b->array = -1;
	if (opt == 'd') {
		if (!*arg || strlen(arg) >= sizeof b->name)
			return cli_usage("run", "--dump '%s': expected an array name", arg);
		strcpy(b->name, arg);
		return 0;
	}
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg || !eq[1])
		return cli_usage("run", "%s '%s': expected ARRAY=FILE", bufarg_option(opt), arg);
	if ((size_t)(eq - arg) >= sizeof b->name)
		return cli_usage("run", "%s '%s': array name too long", bufarg_option(opt), arg);
	memcpy(b->name, arg, (size_t)(eq - arg));
	b->path = eq + 1;
	return 0;
}

static int print_version(void)
{
	printf("infsim %s\n%s", PACKAGE_VERSION, VERSION_NOTICE);
	return 0;
}

/* One option; 0, an exit status, or -1 when --help or --version ran. */
static int take_option(run_opts *o, int opt, const struct option *lo)
{
	switch (opt) {
	case 'm': o->c.machine[o->c.nmachine++] = optarg; return 0;
	case 'c': o->c.config = optarg; return 0;
	case 'D': return tgt_opts_define(&o->c, "run", optarg);
	case 'l': case 's': case 'e': case 'd':
		if (opt == 'l')
			o->c.loads = true;
		else
			o->c.saves = true;
		return parse_bufarg(&o->ba[o->nba++], opt, optarg);
	case OPT_CHECK: o->c.check = true; return 0;
	case OPT_STRICT: o->c.strict = true; return 0;
	case OPT_STATS:
		if (!optarg || !strcmp(optarg, "text"))
			o->stats = 't';
		else if (!strcmp(optarg, "full"))
			o->stats = 'f';
		else if (!strcmp(optarg, "json"))
			o->stats = 'j';
		else if (!strcmp(optarg, "commands"))
			o->stats = 'c';
		else
			return cli_usage("run", "--stats '%s': expected text, full, commands or json",
					 optarg);
		return 0;
	case OPT_STATS_FILE: o->stats_file = optarg; return 0;
	case 'j': return tgt_opts_threads(&o->c, "run", optarg);
	case 'q': o->quiet = true; return 0;
	case OPT_TARGET: o->target = optarg; return 0;
	case OPT_HELP: infsim_run_help(stdout, o->target); return -1;
	case OPT_VERSION: print_version(); return -1;
	case '?': /* getopt has said what was wrong, on one line */
		fputs("Try 'infsim run --help' for more information.\n", stderr);
		return CLI_EXIT_USAGE;
	}
	if (opt >= TGT_OPTS_BASE) {
		tgt_opts_given(&o->c, lo, opt, optarg);
		return 0;
	}
	return cli_usage("run", "invalid option");
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

static bool is_stdout(const char *path)
{
	return !strcmp(path, "-") || !strcmp(path, "/dev/stdout");
}

/* The outputs: each file written by one option; standard output by
 * text (dumps, text statistics) or by one binary or JSON output alone;
 * standard input read once. */
static int outputs_apart(const run_opts *o)
{
	const char *alone = o->stats == 'j' && !o->stats_file ? "--stats=json" : NULL;
	char saved[TGT_NAME_MAX + 64];
	const char *text = o->stats && o->stats != 'j' && !o->stats_file ? "--stats" : NULL;
	char first[TGT_NAME_MAX + 64] = "";
	if (!strcmp(o->c.prog, "-"))
		snprintf(first, sizeof first, "the program '-'");
	for (size_t i = 0; i < o->nba; i++) {
		const bufarg *a = &o->ba[i];
		const bool out_bin = a->opt == 's' && is_stdout(a->path);
		if (a->opt == 'd' || out_bin) {
			/* the other option that writes to standard output, as given */
			char other[TGT_NAME_MAX + 64] = "";
			if (alone || (out_bin && text))
				snprintf(other, sizeof other, "%s", alone ? alone : text);
			for (size_t k = 0; k < o->nba && out_bin && !*other; k++)
				if (k != i && (o->ba[k].opt == 'd' ||
					       (o->ba[k].opt == 's' && is_stdout(o->ba[k].path))))
					snprintf(other, sizeof other, "%s '%s'",
						 bufarg_option(o->ba[k].opt), o->ba[k].arg);
			if (*other)
				return cli_usage("run", "%s and %s '%s' both write to standard output; "
						 "give one of them a file", other, bufarg_option(a->opt),
						 a->arg);
			if (out_bin) {
				snprintf(saved, sizeof saved, "--save '%s'", a->arg);
				alone = saved;
			}
			continue;
		}
		if (a->opt == 's') {
			if (o->stats_file && same_output(a->path, o->stats_file))
				return cli_usage("run", "--save '%s' and --stats-file '%s' name the same "
						 "file", a->arg, o->stats_file);
			for (size_t k = 0; k < i; k++)
				if (o->ba[k].opt == 's' && same_output(o->ba[k].path, a->path))
					return cli_usage("run", "--save '%s' and --save '%s' name the "
							 "same file; each output needs a file of its "
							 "own", o->ba[k].arg, a->arg);
			continue;
		}
		if (strcmp(a->path, "-") != 0)
			continue;
		if (*first)
			return cli_usage("run", "%s and %s '%s' both read standard input, which can be "
					 "read once", first, bufarg_option(a->opt), a->arg);
		snprintf(first, sizeof first, "%s '%s'", bufarg_option(a->opt), a->arg);
	}
	return 0;
}

static int parse_opts(int argc, char **argv, run_opts *o, const struct option *lo)
{
	int opt, rc = 0;
	while (!rc && (opt = getopt_long(argc, argv, "m:c:D:l:s:e:d:j:q", lo, NULL)) != -1)
		rc = take_option(o, opt, lo);
	if (rc)
		return rc;
	if (optind >= argc)
		return cli_usage("run", "missing program operand");
	if (optind + 1 < argc)
		return cli_usage("run", "extra operand '%s'", argv[optind + 1]);
	o->c.prog = argv[optind];
	if (o->stats_file && !o->stats)
		o->stats = cli_ends_with(o->stats_file, ".json") ? 'j' : 't';
	return outputs_apart(o);
}

/* ---- running ---- */

typedef struct front {
	const tgt_ops *ops;
	tgt *t;
	run_opts *o;
	bool progress_shown;
	struct timespec start;
	diag d;
} front;

static void warn(void *ctx, const char *msg)
{
	front *f = ctx;
	if (f->progress_shown) {
		fputs("\r\033[K", stderr);
		f->progress_shown = false;
	}
	fprintf(stderr, "%s\n", msg);
}

/* Seconds a run goes on before it says how far it is: 2, or
 * INFSIM_PROGRESS_AFTER's (doc/USAGE.md). */
static double progress_after(void)
{
	const char *e = getenv("INFSIM_PROGRESS_AFTER");
	char *end;
	const double v = e ? strtod(e, &end) : 2;
	return e && (end == e || *end || !(v >= 0)) ? 2 : v;
}

/* A long run says how far it is, on a terminal. */
static void progress(void *ctx, uint64_t done, uint64_t total)
{
	front *f = ctx;
	if (f->o->quiet || !isatty(STDERR_FILENO))
		return;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	const double s = (double)(now.tv_sec - f->start.tv_sec) +
			 (double)(now.tv_nsec - f->start.tv_nsec) * 1e-9;
	if (s < progress_after() || done == total) {
		if (f->progress_shown && done == total) {
			fputs("\r\033[K", stderr);
			f->progress_shown = false;
		}
		return;
	}
	fprintf(stderr, "\r%s: %" PRIu64 " of %" PRIu64 " %s, %.0f s\033[K", f->o->c.prog, done,
		total, f->ops->nunits > 1 ? f->ops->units[1].plural : "steps", s);
	f->progress_shown = true;
}

/* Find each -l/-s/-e/-d array in the program. */
static int resolve(front *f)
{
	for (size_t i = 0; i < f->o->nba; i++) {
		bufarg *b = &f->o->ba[i];
		b->array = tgt_array_find(f->ops, f->t, b->name);
		if (b->array >= 0) {
			f->ops->array(f->t, (size_t)b->array, &b->a);
			continue;
		}
		char names[256] = "";
		size_t n = 0, na = f->ops->narrays(f->t);
		for (size_t k = 0; k < na && n < sizeof names - 70; k++) {
			tgt_array a;
			f->ops->array(f->t, k, &a);
			n += (size_t)snprintf(names + n, sizeof names - n, "%s%s", k ? ", " : "", a.name);
		}
		if (na && n >= sizeof names - 70)
			snprintf(names + n, sizeof names - n, ", ...");
		return cli_usage("run", "%s '%s': %s has no array '%s' (it has: %s)",
				 bufarg_option(b->opt), b->arg, f->o->c.prog, b->name,
				 na ? names : "none");
	}
	return 0;
}

/* Before the run: every output can be written, every input is read, and
 * -l's data are in the program. */
static int prepare(front *f)
{
	const run_opts *o = f->o;
	if (o->stats_file && outfile_check(o->stats_file, &f->d) < 0)
		return cli_failed(&f->d);
	for (size_t i = 0; i < o->nba; i++) {
		bufarg *b = &o->ba[i];
		if (b->opt == 'd')
			continue;
		if (b->opt == 's') {
			if (!is_stdout(b->path) && outfile_check(b->path, &f->d) < 0)
				return cli_failed(&f->d);
			continue;
		}
		b->values = mem_alloc_whole((b->a.length ? b->a.length : 1) * sizeof *b->values);
		if (!b->values) {
			diag_file(&f->d, b->path, "out of memory for %" PRIu64 " elements", b->a.length);
			return cli_failed(&f->d);
		}
		if (tgt_elements_read(b->path, &b->a, b->values, &f->d) < 0)
			return cli_failed(&f->d);
		if (b->opt == 'l' && f->ops->array_set(f->t, (size_t)b->array, 0, b->a.length,
						       b->values, &f->d) != TGT_OK)
			return cli_failed(&f->d);
	}
	return 0;
}

/* A's elements, read from the target; NULL with f->d set. */
static uint64_t *elements(front *f, const bufarg *b)
{
	uint64_t *v = mem_alloc_whole((b->a.length ? b->a.length : 1) * sizeof *v);
	if (!v)
		diag_file(&f->d, f->o->c.prog, "out of memory for array '%s'", b->name);
	else
		f->ops->array_get(f->t, (size_t)b->array, 0, b->a.length, v);
	return v;
}

/* -s, -d and -e, in the order given.  0, 1 or 3. */
static int outputs(front *f)
{
	int rc = 0;
	for (size_t i = 0; i < f->o->nba; i++) {
		const bufarg *b = &f->o->ba[i];
		if (b->opt == 'l')
			continue;
		uint64_t *v = elements(f, b);
		if (!v)
			return cli_failed(&f->d);
		if (b->opt == 's' && tgt_elements_write(b->path, &b->a, v, &f->d) < 0)
			rc = cli_failed(&f->d);
		for (uint64_t k = 0; b->opt == 'd' && k < b->a.length; k++) {
			/* flat indexes, the order of -l and -s */
			char text[96];
			tgt_value_bits_text(b->a.type, v[k], text, sizeof text);
			printf("%s[%" PRIu64 "] = %s\n", b->name, k, text);
		}
		for (uint64_t k = 0; b->opt == 'e' && k < b->a.length; k++) {
			if (v[k] == b->values[k])
				continue;
			char what[1024];
			tgt_mismatch_text(&b->a, k, b->values[k], v[k], what, sizeof what);
			fprintf(stderr, "%s: error: --expect: %s\n", b->path, what);
			rc = 3;
			break;
		}
		free(v);
		if (rc)
			return rc;
	}
	return 0;
}

static int write_stats(front *f)
{
	tgt_stat *root = tgt_stat_new();
	tgt_stat_str(root, "format", TGT_STATS_FORMAT, NULL);
	tgt_stat_str(root, "system", f->ops->name, NULL);
	tgt_stat_str(root, "program", f->o->c.prog, NULL);
	f->ops->stats(f->t, root);
	FILE *out = stdout;
	char *mem = NULL;
	size_t len = 0;
	if (f->o->stats_file && !(out = open_memstream(&mem, &len))) {
		tgt_stat_free(root);
		diag_file(&f->d, f->o->stats_file, "out of memory");
		return cli_failed(&f->d);
	}
	const tgt_stat *cmds = f->o->stats == 'c' ? tgt_stat_get(root, "commands") : NULL;
	int rc = f->o->stats == 'j' ? tgt_stat_json(root, out)
		 : cmds ? tgt_stat_text(cmds, out, true)
		 : tgt_stat_text(root, out, f->o->stats == 'f');
	tgt_stat_free(root);
	if (f->o->stats_file) {
		if (fclose(out) != 0 || rc < 0)
			rc = -1;
		if (rc == 0 && outfile_write(f->o->stats_file, mem, len, &f->d) < 0)
			rc = -2;
		free(mem);
	}
	if (rc == -2)
		return cli_failed(&f->d);
	if (rc < 0) {
		fputs("infsim: error: out of memory for the statistics\n", stderr);
		return EXIT_FAILURE;
	}
	return 0;
}

/* Is standard output taken by the statistics or by a file's bytes?  The
 * summary line then stays out of it (after dumps it is printed). */
static bool stdout_taken(const run_opts *o)
{
	if (o->stats && !o->stats_file)
		return true;
	for (size_t i = 0; i < o->nba; i++)
		if (o->ba[i].opt == 's' && is_stdout(o->ba[i].path))
			return true;
	return false;
}

static void summary(front *f)
{
	if (f->o->quiet || stdout_taken(f->o))
		return;
	char line[1024];
	if (f->ops->summary)
		f->ops->summary(f->t, line, sizeof line);
	else
		snprintf(line, sizeof line, "%s: the run is done%s", f->o->c.prog,
			 f->o->c.check ? "; --check: the reference agrees, bit for bit" : "");
	fputs(line, stdout);
	for (size_t i = 0; i < f->o->nba; i++)
		if (f->o->ba[i].opt == 'e')
			printf("; %s matches %s", f->o->ba[i].name, f->o->ba[i].path);
	putchar('\n');
}

/* The run's status as the exit status, its message on stderr. */
static int after_run(front *f, tgt_status st)
{
	if (f->progress_shown)
		fputs("\r\033[K", stderr);
	f->progress_shown = false;
	if (st == TGT_OK)
		return 0;
	const char *rep = st == TGT_DIFFERS && f->ops->report ? f->ops->report(f->t) : NULL;
	if (rep && *rep)
		fprintf(stderr, "%s%s", rep, rep[strlen(rep) - 1] == '\n' ? "" : "\n");
	else
		fprintf(stderr, "%s\n", f->d.set ? f->d.msg : "infsim: error: the run failed");
	return (int)st;
}

static int run_program(const tgt_ops *ops, run_opts *o, const char *text, size_t len)
{
	front f = { .ops = ops, .o = o };
	diag_clear(&f.d);
	tgt_settings st;
	int rc = tgt_opts_settings(ops, &o->c, "run", &st);
	const char **loading = calloc(o->nba + 1, sizeof *loading);
	size_t nloading = 0;
	for (size_t i = 0; loading && i < o->nba; i++)
		if (o->ba[i].opt == 'l')
			loading[nloading++] = o->ba[i].name;
	if (!rc && !loading) {
		fputs("infsim: error: out of memory\n", stderr);
		rc = EXIT_FAILURE;
	}
	tgt_load a = { .path = o->c.prog, .text = text, .len = len, .defs = o->c.defs,
		       .ndefs = o->c.ndefs, .settings = st.s, .nsettings = st.n, .opts = st.ov,
		       .nopts = st.nov, .check = o->c.check, .strict = o->c.strict,
		       .threads = o->c.threads, .out = stdout, .warn = warn, .warn_ctx = &f,
		       .progress = progress, .loading = loading, .nloading = nloading };
	clock_gettime(CLOCK_MONOTONIC, &f.start);
	if (!rc) {
		tgt_status ts;
		f.t = ops->open(&a, &ts, &f.d);
		/* running out of memory is never the user's mistake */
		if (!f.t && ts == TGT_USAGE && !strstr(f.d.msg, "out of memory"))
			rc = tgt_opts_open_usage(&f.d, "run");
		else if (!f.t) {
			rc = cli_failed(&f.d);
		}
	}
	if (!rc)
		rc = resolve(&f);
	if (!rc)
		rc = prepare(&f);
	bool fault = false;
	if (!rc) {
		rc = after_run(&f, ops->run(f.t, &f.d));
		/* a precise fault leaves the memory its handler sees: -s saves it,
		 * -e checks it, --stats counts up to it; the status stays 5 */
		fault = rc == TGT_FAULT;
		if (fault)
			rc = 0;
	}
	if (!rc)
		rc = outputs(&f);
	if (!rc && o->stats)
		rc = write_stats(&f);
	if (!rc && !fault)
		summary(&f);
	if (!rc && fault)
		rc = TGT_FAULT;
	if (f.t)
		ops->close(f.t);
	tgt_opts_settings_free(&st);
	free(loading);
	return rc;
}

int infsim_run(int argc, char **argv, const char *system)
{
	run_opts o;
	memset(&o, 0, sizeof o);
	const size_t n = (size_t)argc + 1;
	const int room = tgt_opts_init(&o.c, n);
	o.ba = calloc(n, sizeof *o.ba);
	struct option *lo = tgt_opts_longopts(common_longopts, NCOMMON);
	char *text = NULL;
	size_t len = 0;
	o.target = system;
	int rc = room < 0 || !o.ba || !lo
		 ? (fputs("infsim: error: out of memory\n", stderr), EXIT_FAILURE)
		 : parse_opts(argc, argv, &o, lo);
	const tgt_ops *ops = NULL;
	if (!rc && o.target && !(ops = tgt_opts_target(o.target))) {
		char names[128] = "";
		for (size_t i = 0, m = 0; tgt_all[i]; i++)
			m += (size_t)snprintf(names + m, sizeof names - m, "%s%s", i ? ", " : "",
					      tgt_all[i]->name);
		rc = cli_usage("run", "--target '%s': expected one of %s", o.target, names);
	}
	diag d;
	diag_clear(&d);
	if (!rc && text_read_file(o.c.prog, TEXT_FILE_MAX, &text, &len, &d) < 0)
		rc = cli_failed(&d);
	if (!rc && !ops && !(ops = tgt_find(o.c.prog, text, len < 4096 ? len : 4096))) {
		char exts[256];
		tgt_opts_exts(exts, sizeof exts);
		rc = cli_usage("run", "%s: not a program infsim knows (expected %s); name its "
			       "system with --target", o.c.prog, exts);
	}
	if (!rc)
		rc = tgt_opts_refuse(ops, &o.c, "run");
	if (!rc)
		rc = run_program(ops, &o, text, len);
	for (size_t i = 0; i < o.nba; i++)
		free(o.ba[i].values);
	free(text);
	free(lo);
	free(o.ba);
	tgt_opts_free(&o.c);
	return rc < 0 ? 0 : rc;
}

/* ---- --help ---- */

/* One option of --help: its name from column 2 (a long-only option
 * from column 6, as GNU's), its help from column 29, wrapped at 79. */
static void option_help(FILE *f, const char *left, const char *help)
{
	char name[96];
	snprintf(name, sizeof name, "%s%s", left[1] == '-' ? "    " : "", left);
	int col = fprintf(f, "  %s", name);
	const char *p = help;
	bool first = true;
	while (*p) {
		while (*p == ' ')
			p++;
		const int w = (int)strcspn(p, " ");
		if (!w)
			break;
		if (first ? col > 28 : col + 1 + w > 79) {
			fputc('\n', f);
			col = 0;
		}
		if (col < 29)
			col += fprintf(f, "%*s", 29 - col, "");
		else
			col += fprintf(f, " ");
		col += fprintf(f, "%.*s", w, p);
		p += w;
		first = false;
	}
	fputc('\n', f);
}

void infsim_run_help(FILE *f, const char *system)
{
	char exts[256];
	tgt_opts_exts(exts, sizeof exts);
	const tgt_ops *only = system ? tgt_opts_target(system) : NULL;
	if (only)
		fprintf(f, "Usage: infsim %s PROG [OPTION]...\n   or: infsim run PROG [OPTION]...\n"
			"Run PROG on %s.\n\n", only->name, only->title);
	else
		fprintf(f, "Usage: infsim run PROG [OPTION]...\n"
			"Run PROG on the machine of its system, told by its extension or, for\n"
			"standard input (-), its first lines:\n  %s.\n\n", exts);
	fputs("Every system:\n", f);
	static const char *const common[][2] = {
		{ "-D, --define=NAME=VALUE", "give the program's parameter NAME the integer VALUE; "
		  "repeatable, each NAME once" },
		{ "-m, --machine=KEY=VAL[,KEY=VAL]...", "machine settings (the keys of each system "
		  "below); repeatable, the last of a key wins" },
		{ "-c, --config=FILE", "machine settings, KEY = VALUE lines; -m wins over them" },
		{ "-l, --load=ARRAY=FILE", "fill ARRAY from FILE (.npy of its type, any shape with "
		  "its element count; or raw .bin) before the run" },
		{ "-s, --save=ARRAY=FILE", "write ARRAY to FILE (.npy of its shape, or .bin) after "
		  "the run; - for standard output" },
		{ "-e, --expect=ARRAY=FILE", "compare ARRAY with FILE bit for bit after the run" },
		{ "-d, --dump=ARRAY", "print ARRAY's elements after the run" },
		{ "--check", "run the system's independent reference beside the machine and compare "
		  "bit for bit; name the first wrong element and what wrote it" },
		{ "--strict", "make hazards errors, not warnings" },
		{ "--stats[=FORMAT]", "print the statistics: text (default; identical rows "
		  "folded), full (every row), commands (one row per command) or json "
		  "(doc/stats.schema.json)" },
		{ "--stats-file=FILE", "write the statistics to FILE (JSON if it ends in .json)" },
		{ "-j, --threads=N", "threads for the machine's executor (1 to 1024)" },
		{ "-q, --quiet", "print nothing on success" },
		{ "--target=SYSTEM", "the system of PROG, when its name does not tell" },
		{ "--help", "display this help and exit" },
		{ "--version", "output version information and exit" },
	};
	for (size_t i = 0; i < sizeof common / sizeof common[0]; i++)
		option_help(f, common[i][0], common[i][1]);
	for (size_t i = 0; tgt_all[i]; i++) {
		const tgt_ops *ops = tgt_all[i];
		if (only && ops != only)
			continue;
		fprintf(f, "\n%s: %s (", ops->name, ops->title);
		for (size_t k = 0; ops->exts && ops->exts[k]; k++)
			fprintf(f, "%s%s", k ? ", " : "", ops->exts[k]);
		fputs(")\n", f);
		if (ops->settings_help)
			option_help(f, "-m KEY=VAL", ops->settings_help);
		for (const tgt_option *o = ops->options; o && o->name; o++) {
			char left[64];
			snprintf(left, sizeof left, "--%s%s%s", o->name, o->arg ? "=" : "",
				 o->arg ? o->arg : "");
			option_help(f, left, o->help);
		}
	}
	fputs("\nExit status: 0 if OK, 1 on a runtime failure (a file, the program, the run),\n"
	      "2 on a usage error, 3 if a result differs (--expect or --check), 4 if --strict\n"
	      "stopped the run at a hazard, 5 if an injected fault stopped it.\n\n"
	      "Full documentation: man infsim, and doc/USAGE.md.\n"
	      "Report bugs to: " PACKAGE_BUGREPORT "\n", f);
}
