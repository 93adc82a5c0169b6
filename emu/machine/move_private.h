/* SPDX-License-Identifier: MIT */
/*
 * move_private.h: what the lowering of tensor moves (lower.c) needs and
 * nobody else does.
 */
#ifndef INFSIM_MOVE_PRIVATE_H
#define INFSIM_MOVE_PRIVATE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "diag.h"

/* "PATH:LINE[:COL]: error: HEAD: WHAT": the one shape of the movement
 * messages (head names the command or the region).  Returns -1. */
static inline int say(diag *d, const char *path, int line, int col,
		      const char *head, const char *fmt, va_list ap)
{
	char what[DIAG_MAX];
	vsnprintf(what, sizeof what, fmt, ap);
	diag_at(d, path, line, col, "%s: %s", head, what);
	return -1;
}

#endif
