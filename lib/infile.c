/* infile.c: read a whole input file within a limit; see infile.h. */
#include "infile.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *shown(const char *path)
{
	return strcmp(path, "-") == 0 ? "standard input" : path;
}

static FILE *open_input(const char *path, diag *d)
{
	if (strcmp(path, "-") == 0)
		return stdin;
	FILE *f = fopen(path, "rb");
	if (!f) {
		diag_file(d, path, "cannot open: %s", strerror(errno));
		return NULL;
	}
	struct stat st;
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		diag_file(d, path, "is a directory, not a file to read");
		fclose(f);
		return NULL;
	}
	return f;
}

/* Grow *buf to hold at least want bytes (doubling, capped at cap). */
static int grow(unsigned char **buf, size_t *size, size_t want, size_t cap)
{
	if (want <= *size)
		return 0;
	size_t n = *size ? *size : 4096;
	while (n < want)
		n = n > cap / 2 ? cap : n * 2;
	unsigned char *b = realloc(*buf, n);
	if (!b)
		return -1;
	*buf = b;
	*size = n;
	return 0;
}

int infile_read(const char *path, size_t limit, const char *what, unsigned char **bytes,
		size_t *len, diag *d)
{
	*bytes = NULL;
	*len = 0;
	FILE *f = open_input(path, d);
	if (!f)
		return -1;
	/* limit + 1 bytes at most (and a '\0'): one more than allowed says "too large" */
	const size_t cap = limit < SIZE_MAX - 2 ? limit + 2 : SIZE_MAX;
	unsigned char *buf = NULL;
	size_t size = 0, n = 0;
	int rc = 0;
	while (rc == 0 && n <= limit) {
		if (grow(&buf, &size, n + 4096 < cap ? n + 4096 : cap, cap) < 0) {
			diag_file(d, shown(path), "out of memory");
			rc = -1;
			break;
		}
		size_t got = fread(buf + n, 1, size - 1 - n, f);
		n += got;
		if (got == 0) {
			if (ferror(f)) {
				diag_file(d, shown(path), "cannot read: %s", strerror(errno));
				rc = -1;
			}
			break;
		}
	}
	if (rc == 0 && n > limit) {
		diag_file(d, shown(path), "is larger than %zu bytes, the most %s may hold", limit,
			  what);
		rc = -1;
	}
	if (f != stdin)
		fclose(f);
	if (rc < 0) {
		free(buf);
		return -1;
	}
	buf[n] = '\0';
	*bytes = buf;
	*len = n;
	return 0;
}
