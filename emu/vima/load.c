/* SPDX-License-Identifier: MIT */
/*
 * load.c: reading a .vima file within VIMA_TEXT_MAX bytes ("-" is
 * standard input; lib/text.h reads pipes within the limit too).
 */
#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "vima.h"

int vima_load(const char *path, const vima_parse_opts *o, vima_program *p, diag *d)
{
	char *text;
	size_t len;
	memset(p, 0, sizeof *p);
	diag_clear(d);
	if (text_read_file(path, VIMA_TEXT_MAX, &text, &len, d) < 0)
		return -1;
	int rc = vima_parse(path, text, len, o, p, d);
	free(text);
	return rc;
}
