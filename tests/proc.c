/* SPDX-License-Identifier: MIT */
/* proc.c: see proc.h. */
#include "proc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

char *proc_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t n = 0, cap = 0, got;
	do {
		if (n + 4097 > cap) {
			char *nb = realloc(buf, cap = (n + 4097) * 2);
			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		got = fread(buf + n, 1, 4096, f);
		n += got;
	} while (got == 4096);
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

int proc_shell(const char *cmd, char **out)
{
	char outp[] = "/tmp/infsim-test-out-XXXXXX";
	*out = NULL;
	int fd = mkstemp(outp);
	if (fd < 0)
		return -1;
	close(fd);
	size_t size = 64;
	for (const char *c = cmd; *c; c++)
		size++;
	size += sizeof outp * 2;
	char *full = malloc(size);
	if (!full) {
		unlink(outp);
		return -1;
	}
	snprintf(full, size, "%s >'%s' 2>&1 </dev/null", cmd, outp);
	int st = system(full);
	free(full);
	*out = proc_slurp(outp, NULL);
	unlink(outp);
	if (!*out || st == -1 || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

int proc_shell_in(const char *dir, const char *bindir, const char *cmd, char **out)
{
	const size_t size = strlen(dir) + strlen(bindir) + strlen(cmd) + 64;
	char *full = malloc(size);
	*out = NULL;
	if (!full)
		return -1;
	/* The newline ends a comment CMD may close with before the ')'. */
	snprintf(full, size, "cd '%s' && PATH='%s':\"$PATH\" && (%s\n)", dir, bindir, cmd);
	const int st = proc_shell(full, out);
	free(full);
	return st;
}

proc_result proc_run_in(const char *dir, const char *bin, const char *args)
{
	proc_result r = { -1, NULL, NULL };
	const size_t size = strlen(dir) * 3 + strlen(bin) + strlen(args) + 64;
	char *cmd = malloc(size), *outp = malloc(size), *errp = malloc(size);
	if (cmd && outp && errp) {
		snprintf(outp, size, "%s/.stdout", dir);
		snprintf(errp, size, "%s/.stderr", dir);
		snprintf(cmd, size, "cd '%s' && '%s' %s >'%s' 2>'%s'", dir, bin, args, outp, errp);
		const int st = system(cmd);
		r.status = st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
		r.out = proc_slurp(outp, NULL);
		r.err = proc_slurp(errp, NULL);
		unlink(outp);
		unlink(errp);
	}
	free(cmd);
	free(outp);
	free(errp);
	return r;
}

void proc_result_free(proc_result *r)
{
	free(r->out);
	free(r->err);
	r->out = r->err = NULL;
}

char *proc_tmpdir(char *buf, size_t size, const char *prefix)
{
	snprintf(buf, size, "/tmp/%s-XXXXXX", prefix);
	return mkdtemp(buf);
}

int proc_rmdir(const char *dir)
{
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd);
}

char *proc_between(const char *out, int n)
{
	char from[16], to[16];
	snprintf(from, sizeof from, "@%d\n", n);
	snprintf(to, sizeof to, "@%d\n", n + 1);
	const char *a = strstr(out, from), *b = a ? strstr(a, to) : NULL;
	if (!b)
		return NULL;
	a += strlen(from);
	return strndup(a, (size_t)(b - a));
}
