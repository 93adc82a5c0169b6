/*
 * load.c: reading a .vima file within VIMA_TEXT_MAX bytes ("-" is
 * standard input; a pipe is read within the limit too).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vima.h"

static int read_bounded(const char *path, char **text, size_t *len, diag *d)
{
	const bool in = !strcmp(path, "-");
	FILE *f = in ? stdin : fopen(path, "rb");
	if (!f)
		return diag_file(d, path, "cannot open: %s", strerror(errno)), -1;
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	int rc = buf ? 0 : -1;
	while (rc == 0) {
		if (n == cap) {
			char *b = cap > VIMA_TEXT_MAX ? NULL : realloc(buf, cap * 2);
			if (!b) {
				if (cap > VIMA_TEXT_MAX)
					diag_file(d, path, "larger than %u MiB", VIMA_TEXT_MAX >> 20);
				else
					diag_file(d, path, "out of memory");
				rc = -1;
				break;
			}
			buf = b;
			cap *= 2;
		}
		size_t got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0) {
			if (ferror(f))
				rc = (diag_file(d, path, "cannot read: %s", strerror(errno)), -1);
			break;
		}
	}
	if (!buf)
		diag_file(d, path, "out of memory");
	if (!in)
		fclose(f);
	if (rc < 0) {
		free(buf);
		return -1;
	}
	*text = buf;
	*len = n;
	return 0;
}

int vima_load(const char *path, const vima_parse_opts *o, vima_program *p, diag *d)
{
	char *text;
	size_t len;
	memset(p, 0, sizeof *p);
	if (read_bounded(path, &text, &len, d) < 0)
		return -1;
	int rc = vima_parse(path, text, len, o, p, d);
	free(text);
	return rc;
}
