/* SPDX-License-Identifier: MIT */
/* cli.c: see cli.h. */
#include "cli.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *cli_program = "infsim";

int cli_usage(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (strcmp(cli_program, "infsim") != 0)
		cmd = NULL;
	fprintf(stderr, "%s: ", cli_program);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s%s%s --help' for more information.\n", cli_program,
		cmd ? " " : "", cmd ? cmd : "");
	return CLI_EXIT_USAGE;
}

int cli_failed(const diag *d)
{
	fprintf(stderr, "%s\n", d->set ? d->msg : "infsim: error: unknown failure");
	return EXIT_FAILURE;
}

bool cli_ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && !strcmp(s + n - k, suffix);
}

int cli_number(const char *cmd, const char *opt, const char *s, uint64_t lo, uint64_t hi,
	       uint64_t *v)
{
	char *end;
	errno = 0;
	unsigned long long x = strtoull(s, &end, 10);
	if (s[0] < '0' || s[0] > '9' || *end || errno || x < lo || x > hi) {
		if (hi == UINT64_MAX)
			return cli_usage(cmd, "--%s=%s: expected a number of at least %" PRIu64, opt, s,
					 lo);
		return cli_usage(cmd, "--%s=%s: expected a number from %" PRIu64 " to %" PRIu64, opt,
				 s, lo, hi);
	}
	*v = x;
	return 0;
}

int cli_define(const char *cmd, char *arg, const char **name, long long *value)
{
	char *eq = strchr(arg, '=');
	if (!eq || eq == arg)
		return cli_usage(cmd, "-D %s: expected NAME=VALUE", arg);
	*eq = 0;
	char *end;
	errno = 0;
	long long v = strtoll(eq + 1, &end, 0);
	if (!eq[1] || *end || errno)
		return cli_usage(cmd, "-D %s=%s: expected an integer", arg, eq + 1);
	*name = arg;
	*value = v;
	return 0;
}

int cli_name_file(const char *cmd, int opt, char *arg, const char **name, const char **path)
{
	char *eq = strchr(arg, '=');
	if (!eq || eq == arg || !eq[1])
		return cli_usage(cmd, "-%c %s: expected ARRAY=FILE", opt, arg);
	*eq = 0;
	*name = arg;
	*path = eq + 1;
	return 0;
}
