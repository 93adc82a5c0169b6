/* SPDX-License-Identifier: MIT */
/*
 * diag.h: one-line diagnostics (prefix diag_).
 *
 * Every error a user can cause is reported once, as
 *     FILE:LINE:COL: error: WHAT WAS WRONG, WHAT WAS EXPECTED
 * (GNU style; LINE and COL are 1-based, and omitted when not known).
 * Library code never prints: it fills a diag and returns an error; the
 * program decides where the message goes.
 */
#ifndef INFSIM_DIAG_H
#define INFSIM_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include "api.h"

INFSIM_BEGIN_DECLS

#define DIAG_MAX 1024

typedef struct diag {
	bool set;
	char msg[DIAG_MAX];
} diag;

void diag_clear(diag *d);
/* Record "FILE:LINE:COL: error: ..." (line or col 0 = not known).  The
 * first error recorded wins: later calls do not overwrite it. */
void diag_at(diag *d, const char *file, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void diag_vat(diag *d, const char *file, int line, int col, const char *fmt,
	      va_list ap);
/* Record "FILE: error: ..." for a whole-file or system error. */
void diag_file(diag *d, const char *file, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

INFSIM_END_DECLS

#endif
