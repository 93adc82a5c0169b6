/* proc.c: see proc.h. */
#include "proc.h"

#include <stdio.h>
#include <stdlib.h>
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
