/* SPDX-License-Identifier: MIT */
/*
 * files.c: what the fronts read and write for any target: an array's
 * elements (.npy or raw .bin) and a machine config file (target.h).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "npy.h"
#include "target.h"
#include "text.h"

static bool ends_with(const char *s, const char *suffix)
{
	const size_t n = strlen(s), k = strlen(suffix);
	return n >= k && strcmp(s + n - k, suffix) == 0;
}

static npy_dtype dtype_of(const tgt_array *a)
{
	npy_dtype dt;
	tgt_type_dtype(a->type, &dt.kind, &dt.size);
	return dt;
}

/* Do the values read for a fit its width?  Then keep their raw bits. */
static int fit_values(const char *path, const tgt_array *a, uint64_t *v, diag *d)
{
	const unsigned n = a->type.width;
	if (n == 1 || n == 64 || (a->type.kind != TGT_INT && a->type.kind != TGT_FIXED))
		return 0; /* every pattern read is one of the array's */
	const uint64_t mask = (UINT64_C(1) << n) - 1;
	const int64_t lo = -(INT64_C(1) << (n - 1)), hi = (INT64_C(1) << (n - 1)) - 1;
	for (uint64_t i = 0; i < a->length; i++) {
		const bool fits = a->type.is_signed ? (int64_t)v[i] >= lo && (int64_t)v[i] <= hi
						    : v[i] <= mask;
		if (fits) {
			v[i] &= mask;
			continue;
		}
		char tn[16];
		tgt_type_name(a->type, tn, sizeof tn);
		if (a->type.is_signed)
			diag_file(d, path, "element %" PRIu64 " is %" PRId64 ", which does not fit "
				  "array '%s' (%s: %" PRId64 " to %" PRId64 ")", i, (int64_t)v[i],
				  a->name, tn, lo, hi);
		else
			diag_file(d, path, "element %" PRIu64 " is %" PRIu64 ", which does not fit "
				  "array '%s' (%s: 0 to %" PRIu64 ")", i, v[i], a->name, tn, mask);
		return -1;
	}
	return 0;
}

int tgt_elements_read(const char *path, const tgt_array *a, uint64_t *values, diag *d)
{
	const npy_dtype dt = dtype_of(a);
	FILE *f = NULL;
	if (ends_with(path, ".bin")) {
		if (npy_open_raw(path, dt, a->length, &f, d) < 0)
			return -1;
	} else {
		npy_header h;
		/* standard input or a pipe: no more than this array's file */
		if (npy_open_limit(path, NPY_HEADER_MAX + 16 + a->length * dt.size, &h, &f, d) < 0)
			return -1;
		char want[16], tn[16], shape[32 + 24 * NPY_MAX_DIMS];
		npy_descr(dt, want, sizeof want);
		if (!npy_dtype_matches(&h, dt)) {
			tgt_type_name(a->type, tn, sizeof tn);
			diag_file(d, path, "dtype '%s' does not match array '%s' (%s): expected '%s'",
				  h.descr, a->name, tn, want);
			fclose(f);
			return -1;
		}
		if (h.count != a->length) {
			npy_shape_text(&h, shape, sizeof shape);
			diag_file(d, path, "shape %s has %" PRIu64 " elements; array '%s' has %" PRIu64,
				  shape, h.count, a->name, a->length);
			fclose(f);
			return -1;
		}
	}
	int rc = npy_read_elems(f, path, dt, a->length, values, d);
	fclose(f);
	return rc == 0 ? fit_values(path, a, values, d) : rc;
}

int tgt_elements_write(const char *path, const tgt_array *a, const uint64_t *values, diag *d)
{
	const npy_dtype dt = dtype_of(a);
	uint64_t *v = malloc((a->length ? a->length : 1) * sizeof *v);
	if (!v) {
		diag_file(d, path, "out of memory for %" PRIu64 " elements", a->length);
		return -1;
	}
	/* sign-extended, so that NumPy reads the same numbers */
	const unsigned n = a->type.width;
	const bool sext = a->type.is_signed && n > 1 && n < 64 &&
			  (a->type.kind == TGT_INT || a->type.kind == TGT_FIXED);
	for (uint64_t i = 0; i < a->length; i++)
		v[i] = sext && (values[i] >> (n - 1) & 1) ? values[i] | ~((UINT64_C(1) << n) - 1)
							   : values[i];
	int rc = npy_save_shape(path, dt, v, a->ndim, a->shape, ends_with(path, ".bin"), d);
	free(v);
	return rc;
}

/* ---- -c FILE ---- */

int tgt_config_read(const char *path, tgt_setting **out, size_t *n, char **text, diag *d)
{
	size_t len;
	*out = NULL;
	*n = 0;
	if (text_read_file(path, TEXT_FILE_MAX, text, &len, d))
		return -1;
	/* each line's key and value are cut in place: the text ends in a
	 * newline (text_read_file), so every line has a byte to end it */
	text_lines it;
	text_line ln;
	int rc;
	size_t cap = 0;
	text_lines_init(&it, path, *text, len);
	while ((rc = text_lines_next(&it, &ln, d)) > 0) {
		char *s = (char *)ln.s, *end = s + ln.len;
		char *hash = memchr(s, '#', ln.len);
		if (hash)
			end = hash;
		while (s < end && text_is_space(*s))
			s++;
		while (end > s && text_is_space(end[-1]))
			end--;
		if (s == end)
			continue;
		char *eq = memchr(s, '=', (size_t)(end - s));
		char *k = eq, *v = eq ? eq + 1 : NULL;
		while (k && k > s && text_is_space(k[-1]))
			k--;
		while (v && v < end && text_is_space(*v))
			v++;
		if (!eq || k == s || v == end) {
			diag_at(d, path, ln.no, (int)(s - ln.s) + 1, "expected KEY = VALUE");
			rc = -1;
			break;
		}
		for (size_t i = 0; i < *n; i++)
			if ((size_t)(k - s) == strlen((*out)[i].key) && !strncmp((*out)[i].key, s, (size_t)(k - s))) {
				diag_at(d, path, ln.no, (int)(s - ln.s) + 1, "'%.*s' is set twice "
					"(first at line %u)", (int)(k - s), s, (*out)[i].line);
				rc = -1;
			}
		if (rc < 0)
			break;
		if (*n == cap) {
			cap = cap ? 2 * cap : 16;
			tgt_setting *ns = realloc(*out, cap * sizeof *ns);
			if (!ns) {
				diag_file(d, path, "out of memory");
				rc = -1;
				break;
			}
			*out = ns;
		}
		*k = '\0';
		*end = '\0';
		(*out)[(*n)++] = (tgt_setting){ s, v, path, (unsigned)ln.no,
						    (unsigned)(v - ln.s) + 1 };
	}
	if (rc < 0) {
		free(*out);
		free(*text);
		*out = NULL;
		*text = NULL;
		*n = 0;
		return -1;
	}
	return 0;
}
