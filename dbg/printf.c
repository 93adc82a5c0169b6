/* SPDX-License-Identifier: MIT */
/*
 * printf.c: gdb's `output` and `printf`: values written without the
 * "EXPR = " of print, for scripts that lay out their own report (a lab's
 * table of elements, a line a grader reads).
 */
#include "config.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbg.h"

int dbg_cmd_output(dbg_session *s, char *args)
{
	char fmt = 0;
	if (*args == '/') {
		/* print's letters (`help print`) */
		if (!args[1] || !strchr("xduotacfsz", args[1]) ||
		    (args[2] && !isspace((unsigned char)args[2]))) {
			dbg_error(s, "Undefined output format \"%.*s\": expected one of xduotacfsz.",
				  (int)strcspn(args + 1, " "), args + 1);
			return -1;
		}
		fmt = args[1];
		args += 2;
	}
	char *expr = dbg_trim(args);
	dbg_value v;
	if (!*expr) {
		dbg_error(s, "Argument required (expression to compute).");
		return -1;
	}
	if (dbg_eval(s, expr, &v) < 0)
		return -1;
	char text[160];
	if (dbg_format_text(s, &v, fmt, -1, text, sizeof text) < 0) {
		dbg_error(s, "%s", text);
		return -1;
	}
	printf("%s", text);
	return 0;
}

/* ---- printf ---- */

/* The format string's text after the opening quote, escapes replaced,
 * into out; *end after the closing quote.  0, or -1 with an error. */
static int format_string(dbg_session *s, const char *p, char *out, size_t size, const char **end)
{
	size_t n = 0;
	for (; *p && *p != '"'; p++) {
		char c = *p;
		if (c == '\\') {
			static const char from[] = "ntrab\"\\e", to[] = "\n\t\r\a\b\"\\\033";
			const char *k = p[1] ? strchr(from, p[1]) : NULL;
			if (!k) {
				dbg_error(s, "printf: unknown escape \"\\%c\" in the format (known: "
					  "\\n \\t \\r \\a \\b \\\" \\\\ \\e).", p[1] ? p[1] : ' ');
				return -1;
			}
			c = to[k - from];
			p++;
		}
		if (n + 1 >= size) {
			dbg_error(s, "printf: the format is too long (at most %zu characters).",
				  size - 1);
			return -1;
		}
		out[n++] = c;
	}
	if (*p != '"') {
		dbg_error(s, "printf: the format string has no closing \".");
		return -1;
	}
	out[n] = '\0';
	*end = p + 1;
	return 0;
}

/* The next argument: text up to a comma outside () and [] (malloc'd),
 * or NULL at the end. */
static char *next_arg(const char **p)
{
	const char *q = *p;
	int depth = 0;
	while (*q && !(depth == 0 && *q == ',')) {
		depth += *q == '(' || *q == '[';
		depth -= *q == ')' || *q == ']';
		q++;
	}
	char *arg = strndup(*p, (size_t)(q - *p));
	*p = *q ? q + 1 : q;
	return arg;
}

/* One conversion spec (flags, width, precision, length, conversion),
 * copied into spec without the length letters (every integer is 64
 * bits).  The conversion letter, or 0 with an error. */
static char conversion(dbg_session *s, const char **p, char *spec, size_t size)
{
	const char *q = *p + 1;
	q += strspn(q, "-+ #0");
	q += strspn(q, "0123456789");
	if (*q == '.')
		q += 1 + strspn(q + 1, "0123456789");
	const char *len = q;
	q += strspn(q, "hlLqjzt");
	const char c = *q;
	if (!c || !strchr("diouxXcfFeEgGaA", c)) {
		dbg_error(s, "printf: unsupported conversion \"%.*s\" (known: d i u o x X c f e g a, "
			  "and %%%%).", (int)(q - *p + (c != 0)), *p);
		return 0;
	}
	if ((size_t)(len - *p) + 4 > size) {
		dbg_error(s, "printf: the conversion \"%.*s\" is too long.", (int)(q - *p + 1), *p);
		return 0;
	}
	snprintf(spec, size, "%.*s", (int)(len - *p), *p);
	*p = q + 1;
	return c;
}

/* Write one value with spec (without its conversion letter) and c. */
static void write_value(const char *spec, char c, const dbg_value *v)
{
	char full[80];
	if (strchr("fFeEgGaA", c)) {
		snprintf(full, sizeof full, "%s%c", spec, c);
		printf(full, dbg_value_double(v));
		return;
	}
	/* an integer conversion of a double truncates it, as C's cast */
	const double d = dbg_value_double(v);
	const int64_t i = !v->is_float ? v->v : isnan(d) ? 0 : d >= 0x1p63 ? INT64_MAX
			  : d < -0x1p63 ? INT64_MIN : (int64_t)d;
	if (c == 'c') {
		snprintf(full, sizeof full, "%sc", spec);
		printf(full, (int)(unsigned char)i);
	} else if (c == 'd' || c == 'i') {
		snprintf(full, sizeof full, "%s" PRId64, spec);
		printf(full, i);
	} else {
		snprintf(full, sizeof full, "%s%s", spec,
			 c == 'u' ? PRIu64 : c == 'o' ? PRIo64 : c == 'x' ? PRIx64 : PRIX64);
		printf(full, (uint64_t)i);
	}
}

/* Format fmt with the arguments at p into the output.  0, or -1 (then
 * nothing was written). */
static int format_all(dbg_session *s, const char *fmt, const char *p, char **out, size_t *len)
{
	FILE *mem = open_memstream(out, len);
	if (!mem) {
		dbg_error(s, "out of memory");
		return -1;
	}
	FILE *real = stdout;
	stdout = mem; /* write_value's printf: into the memory stream */
	int rc = 0;
	for (const char *f = fmt; *f && rc == 0;) {
		if (*f != '%') {
			fputc(*f++, mem);
			continue;
		}
		if (f[1] == '%') {
			fputc('%', mem);
			f += 2;
			continue;
		}
		char spec[64];
		const char c = conversion(s, &f, spec, sizeof spec);
		char *arg = c ? next_arg(&p) : NULL;
		dbg_value v;
		if (!c) {
			rc = -1;
		} else if (!arg || !*dbg_trim(arg)) {
			dbg_error(s, "printf: no argument for the conversion \"%%%c\".", c);
			rc = -1;
		} else if (dbg_eval(s, arg, &v) < 0) {
			rc = -1;
		} else {
			write_value(spec, c, &v);
		}
		free(arg);
	}
	stdout = real;
	fclose(mem);
	if (rc == 0 && p[strspn(p, " \t")] == '\0')
		return 0;
	if (rc == 0)
		dbg_error(s, "printf: more arguments than conversions: \"%s\".", p);
	free(*out);
	*out = NULL;
	return -1;
}

int dbg_cmd_printf(dbg_session *s, char *args)
{
	const char *p = dbg_trim(args);
	if (*p != '"') {
		dbg_error(s, "printf: Bad format string: expected \"FORMAT\", ARG...");
		return -1;
	}
	char fmt[1024];
	if (format_string(s, p + 1, fmt, sizeof fmt, &p) < 0)
		return -1;
	p += strspn(p, " \t");
	if (*p && *p != ',') {
		dbg_error(s, "printf: expected a comma after the format, got \"%s\".", p);
		return -1;
	}
	p += *p == ',';
	char *out = NULL;
	size_t len = 0;
	if (format_all(s, fmt, p, &out, &len) < 0)
		return -1;
	fwrite(out, 1, len, stdout);
	free(out);
	return 0;
}
