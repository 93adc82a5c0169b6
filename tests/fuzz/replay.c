/* SPDX-License-Identifier: MIT */
/*
 * replay.c: the plain driver of a fuzz target (make check): call
 * LLVMFuzzerTestOneInput once on each file named on the command line (a
 * folder: on each file in it).  Exit 0 when every input ran; a crash or
 * a failed invariant ends the program as it would end the fuzzer.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return -1;
	}
	size_t cap = 4096, n = 0;
	unsigned char *buf = malloc(cap);
	size_t got;
	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			unsigned char *grown = realloc(buf, cap * 2);
			if (!grown) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = grown;
			cap *= 2;
		}
	}
	fclose(f);
	if (!buf) {
		fprintf(stderr, "%s: out of memory\n", path);
		return -1;
	}
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	return 0;
}

static int replay(const char *path, unsigned *count)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		perror(path);
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		++*count;
		return replay_file(path);
	}
	DIR *dir = opendir(path);
	if (!dir) {
		perror(path);
		return -1;
	}
	int rc = 0;
	for (struct dirent *e; rc == 0 && (e = readdir(dir)) != NULL;) {
		if (e->d_name[0] == '.')
			continue;
		size_t len = strlen(path) + strlen(e->d_name) + 2;
		char *child = malloc(len);
		if (!child) {
			rc = -1;
			break;
		}
		snprintf(child, len, "%s/%s", path, e->d_name);
		rc = replay(child, count);
		free(child);
	}
	closedir(dir);
	return rc;
}

int main(int argc, char **argv)
{
	unsigned count = 0;
	for (int i = 1; i < argc; i++)
		if (replay(argv[i], &count) < 0)
			return 1;
	printf("%s: %u inputs replayed\n", argc > 0 ? argv[0] : "replay", count);
	return 0;
}
