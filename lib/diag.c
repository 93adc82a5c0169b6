/* SPDX-License-Identifier: MIT */
/* diag.c: one-line diagnostics; see diag.h. */
#include "diag.h"

#include <stdio.h>

void diag_clear(diag *d)
{
	d->set = false;
	d->msg[0] = '\0';
}

void diag_vat(diag *d, const char *file, int line, int col, const char *fmt,
	      va_list ap)
{
	if (!d || d->set)
		return;
	int k;
	if (line > 0 && col > 0)
		k = snprintf(d->msg, sizeof d->msg, "%s:%d:%d: error: ", file, line, col);
	else if (line > 0)
		k = snprintf(d->msg, sizeof d->msg, "%s:%d: error: ", file, line);
	else
		k = snprintf(d->msg, sizeof d->msg, "%s: error: ", file);
	if (k < 0)
		k = 0;
	if ((size_t)k < sizeof d->msg)
		vsnprintf(d->msg + k, sizeof d->msg - (size_t)k, fmt, ap);
	d->set = true;
}

void diag_at(diag *d, const char *file, int line, int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vat(d, file, line, col, fmt, ap);
	va_end(ap);
}

void diag_file(diag *d, const char *file, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vat(d, file, 0, 0, fmt, ap);
	va_end(ap);
}
