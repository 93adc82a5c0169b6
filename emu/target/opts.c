/* SPDX-License-Identifier: MIT */
/* opts.c: see opts.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "opts.h"

int tgt_opts_init(tgt_opts *o, size_t n)
{
	memset(o, 0, sizeof *o);
	n++;
	o->machine = calloc(n, sizeof *o->machine);
	o->defs = calloc(n, sizeof *o->defs);
	o->topts = calloc(n, sizeof *o->topts);
	return o->machine && o->defs && o->topts ? 0 : -1;
}

void tgt_opts_free(tgt_opts *o)
{
	free(o->machine);
	free(o->defs);
	free(o->topts);
	o->machine = NULL;
	o->defs = NULL;
	o->topts = NULL;
}

struct option *tgt_opts_longopts(const struct option *common, size_t n)
{
	size_t total = n;
	for (size_t i = 0; tgt_all[i]; i++)
		for (const tgt_option *p = tgt_all[i]->options; p && p->name; p++)
			total++;
	struct option *lo = calloc(total + 1, sizeof *lo);
	if (!lo)
		return NULL;
	memcpy(lo, common, n * sizeof *common);
	size_t k = n;
	for (size_t i = 0; tgt_all[i]; i++)
		for (const tgt_option *p = tgt_all[i]->options; p && p->name; p++) {
			size_t j = 0;
			while (j < k && strcmp(lo[j].name, p->name) != 0)
				j++;
			if (j < k)
				continue; /* two targets' option of one name */
			lo[k] = (struct option){ p->name, p->flags & TGT_OPT_ARG ? required_argument
									 : no_argument, NULL,
						 TGT_OPTS_BASE + (int)k };
			k++;
		}
	return lo;
}

void tgt_opts_given(tgt_opts *o, const struct option *lo, int opt, const char *arg)
{
	o->topts[o->ntopts++] = (tgt_given){ lo[opt - TGT_OPTS_BASE].name, arg };
}

int tgt_opts_define(tgt_opts *o, const char *cmd, char *arg)
{
	const char *name;
	long long v;
	int rc = cli_define(cmd, arg, &name, &v);
	if (rc)
		return rc;
	for (size_t i = 0; i < o->ndefs; i++)
		if (!strcmp(o->defs[i].name, name))
			return cli_usage(cmd, "-D %s is given twice", name);
	o->defs[o->ndefs++] = (tgt_def){ name, (int64_t)v };
	return 0;
}

int tgt_opts_threads(tgt_opts *o, const char *cmd, const char *arg)
{
	char *end;
	errno = 0;
	const unsigned long long v = strtoull(arg, &end, 10);
	if (errno || end == arg || *end || v < 1 || v > 1024)
		return cli_usage(cmd, "--threads '%s': expected a number of threads from 1 to 1024",
				 arg);
	o->threads = (unsigned)v;
	return 0;
}

const tgt_ops *tgt_opts_target(const char *name)
{
	for (size_t i = 0; tgt_all[i]; i++)
		if (!strcmp(tgt_all[i]->name, name))
			return tgt_all[i];
	return NULL;
}

void tgt_opts_exts(char *buf, size_t size)
{
	size_t m = 0;
	buf[0] = '\0';
	for (size_t i = 0; tgt_all[i]; i++)
		for (size_t k = 0; tgt_all[i]->exts && tgt_all[i]->exts[k] && m < size; k++)
			m += (size_t)snprintf(buf + m, size - m, "%s%s", m ? ", " : "",
					      tgt_all[i]->exts[k]);
}

static const tgt_option *own_option(const tgt_ops *ops, const char *name)
{
	for (const tgt_option *p = ops->options; p && p->name; p++)
		if (!strcmp(p->name, name))
			return p;
	return NULL;
}

/* The first target (other than ops) that has option name. */
static const tgt_ops *owner_of(const tgt_ops *ops, const char *name)
{
	for (size_t i = 0; tgt_all[i]; i++)
		if (tgt_all[i] != ops && own_option(tgt_all[i], name))
			return tgt_all[i];
	return NULL;
}

int tgt_opts_refuse(const tgt_ops *ops, const tgt_opts *o, const char *cmd)
{
	static const struct { unsigned bit; const char *what; } common[] = {
		{ TGT_CAN_DEFINE, "-D" }, { TGT_CAN_LOAD, "-l" }, { TGT_CAN_SAVE, "-s, -e and -d" },
		{ TGT_CAN_CHECK, "--check" }, { TGT_CAN_STRICT, "--strict" },
		{ TGT_CAN_MACHINE, "-m and -c" }, { TGT_CAN_THREADS, "-j" },
	};
	const bool used[7] = { o->ndefs > 0, o->loads, o->saves, o->check, o->strict,
			       o->nmachine || o->config, o->threads > 0 };
	for (size_t k = 0; k < 7; k++) {
		if (!used[k] || (ops->can & common[k].bit))
			continue;
		const char *why = ops->why_not ? ops->why_not(common[k].bit) : NULL;
		return cli_usage(cmd, "%s: %s programs (%s) do not take %s%s%s", o->prog, ops->name,
				 ops->title, common[k].what, why && *why ? ": " : "", why ? why : "");
	}
	for (size_t i = 0; i < o->ntopts; i++) {
		if (own_option(ops, o->topts[i].name))
			continue;
		const tgt_ops *w = owner_of(ops, o->topts[i].name);
		return cli_usage(cmd, "--%s is an option of %s programs (%s), not of %s (%s)",
				 o->topts[i].name, w ? w->name : "other", w ? w->exts[0] : "?", o->prog,
				 ops->title);
	}
	return 0;
}

void tgt_opts_settings_free(tgt_settings *st)
{
	free(st->s);
	free(st->config_text);
	free(st->mtext);
	free(st->ov);
	memset(st, 0, sizeof *st);
}

/* -m's items, each KEY=VALUE, cut in place into st->mtext. */
static int machine_items(const tgt_ops *ops, const tgt_opts *o, const char *cmd, tgt_settings *st)
{
	char *p = st->mtext;
	for (size_t i = 0; i < o->nmachine; i++) {
		strcpy(p, o->machine[i]);
		for (char *item = p, *next; item; item = next) {
			next = strchr(item, ',');
			if (next)
				*next++ = '\0';
			char *eq = strchr(item, '=');
			if (!eq || eq == item || !eq[1])
				return cli_usage(cmd, "--machine '%s': expected KEY=VALUE (%s: %s)",
						 item, ops->name, ops->settings_help ? ops->settings_help
										  : "no settings");
			*eq = '\0';
			st->s[st->n++] = (tgt_setting){ item, eq + 1, NULL, 0, 0 };
		}
		p += strlen(o->machine[i]) + 1;
	}
	return 0;
}

int tgt_opts_settings(const tgt_ops *ops, const tgt_opts *o, const char *cmd, tgt_settings *st)
{
	diag d;
	diag_clear(&d);
	memset(st, 0, sizeof *st);
	tgt_setting *cs = NULL;
	size_t nc = 0;
	if (o->config && tgt_config_read(o->config, &cs, &nc, &st->config_text, &d) < 0)
		return cli_failed(&d);
	size_t mlen = 0, nitems = 0;
	for (size_t i = 0; i < o->nmachine; i++) {
		mlen += strlen(o->machine[i]) + 1;
		for (const char *p = o->machine[i]; *p; p++)
			nitems += *p == ',';
		nitems++;
	}
	st->s = calloc(nc + nitems + o->ntopts + 1, sizeof *st->s);
	st->mtext = malloc(mlen + 1);
	st->ov = calloc(o->ntopts + 1, sizeof *st->ov);
	if (!st->s || !st->mtext || !st->ov) {
		free(cs);
		fprintf(stderr, "%s: error: out of memory\n", cli_program);
		return EXIT_FAILURE;
	}
	if (nc)
		memcpy(st->s, cs, nc * sizeof *cs);
	free(cs);
	st->n = nc;
	int rc = machine_items(ops, o, cmd, st);
	if (rc)
		return rc;
	for (size_t i = 0; i < o->ntopts; i++) {
		const tgt_option *to = own_option(ops, o->topts[i].name);
		if (to->flags & TGT_OPT_SETTING)
			st->s[st->n++] = (tgt_setting){ to->name, o->topts[i].value, NULL, 0, 0 };
		else
			st->ov[st->nov++] = (tgt_optval){ to, o->topts[i].value };
	}
	return 0;
}

int tgt_opts_open_usage(diag *d, const char *cmd)
{
	/* "FILE: error: WHAT": "FILE: WHAT"; "--OPTION: error: WHAT":
	 * "--OPTION WHAT"; "-m KEY=VALUE: error: WHAT": "-m KEY=VALUE: WHAT" */
	char *e = strstr(d->msg, ": error: ");
	if (e && d->msg[0] == '-' && !memchr(d->msg, '=', (size_t)(e - d->msg)) &&
	    !memchr(d->msg, ' ', (size_t)(e - d->msg))) {
		*e = ' ';
		memmove(e + 1, e + 9, strlen(e + 9) + 1);
	} else if (e) {
		memmove(e + 2, e + 9, strlen(e + 9) + 1);
	}
	return cli_usage(cmd, "%s", d->msg);
}
