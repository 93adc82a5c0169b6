/* SPDX-License-Identifier: MIT */
/* handout.c: see handout.h. */
#include "handout.h"

#include "proc.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Does some line of block start with marker? */
static bool has_marker_line(const char *block, const char *marker)
{
	const size_t n = strlen(marker);
	for (const char *line = block; *line; ) {
		if (strncmp(line, marker, n) == 0)
			return true;
		const char *nl = strchr(line, '\n');
		if (!nl)
			break;
		line = nl + 1;
	}
	return false;
}

/* The document's line of position p. */
static int line_of(const char *doc, const char *p)
{
	int line = 1;
	for (const char *c = doc; c < p; c++)
		line += *c == '\n';
	return line;
}

int handout_each_block(const char *path, const char *marker, handout_block_fn *fn, void *arg)
{
	char *doc = proc_slurp(path, NULL);
	if (!doc)
		return -1;
	int blocks = 0;
	/* The body ends at the next fence. */
	for (char *p = strstr(doc, "\n```"); p; p = strstr(p, "\n```")) {
		char *body = strchr(p + 1, '\n');
		char *end = body ? strstr(body, "\n```") : NULL;
		if (!end) {
			blocks = -1;
			break;
		}
		body++;
		const int line = line_of(doc, body);
		end[1] = '\0';
		if (has_marker_line(body, marker)) {
			blocks++;
			fn(body, line, arg);
		}
		end[1] = '`';
		p = strchr(end + 2, '\n');  /* past the closing fence's line */
		if (!p)
			break;
	}
	free(doc);
	return blocks;
}

/* handout_check_blocks' state: the outputs and the caller's callback. */
typedef struct check_arg {
	char *const *outs;
	size_t nouts;
	handout_missing_fn *missing;
	void *arg;
} check_arg;

static void check_block(const char *block, int line, void *arg)
{
	const check_arg *c = arg;
	(void)line;
	bool found = false;
	for (size_t i = 0; i < c->nouts && !found; i++)
		found = c->outs[i] && strstr(c->outs[i], block) != NULL;
	if (!found)
		c->missing(block, c->arg);
}

int handout_check_blocks(const char *path, const char *marker, char *const *outs,
			 size_t nouts, handout_missing_fn *missing, void *arg)
{
	check_arg c = {outs, nouts, missing, arg};
	return handout_each_block(path, marker, check_block, &c);
}
