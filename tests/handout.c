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

int handout_check_blocks(const char *path, const char *marker, char *const *outs,
			 size_t nouts, handout_missing_fn *missing, void *arg)
{
	char *doc = proc_slurp(path, NULL);
	if (!doc)
		return -1;
	int blocks = 0;
	/* A fence is "```" at the start of a line, with or without a
	 * language after it; the body ends at the next fence. */
	for (char *p = strstr(doc, "\n```"); p; p = strstr(p, "\n```")) {
		char *body = strchr(p + 1, '\n');
		char *end = body ? strstr(body, "\n```") : NULL;
		if (!end) {
			blocks = -1;
			break;
		}
		body++;
		end[1] = '\0';
		if (has_marker_line(body, marker)) {
			blocks++;
			bool found = false;
			for (size_t i = 0; i < nouts && !found; i++)
				found = outs[i] && strstr(outs[i], body) != NULL;
			if (!found)
				missing(body, arg);
		}
		p = strchr(end + 2, '\n');  /* past the closing fence's line */
		if (!p)
			break;
	}
	free(doc);
	return blocks;
}
