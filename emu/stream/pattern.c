/* SPDX-License-Identifier: MIT */
/*
 * pattern.c: affine patterns, the start[:stride:count]+ form of
 * infinity-stream §4.2 ("These patterns are applied to bitlines/tiles,
 * specified using the start[:stride:count]+ format") generalised, as the
 * published artifact does, to up to 8 (stride, count) pairs, innermost
 * first.  Element i is
 *     start + sum_k stride_k * ((i / prod_{j<k} count_j) % count_k).
 * A box of extents (Q1, Q2) at (x, y) in a 2-d array of row size S1 is
 * x + y*S1 : 1:Q1 : S1:Q2.  "5" is the single element 5; a pattern with
 * any count 0 (such as 0:1:0) is empty.
 *
 * Arithmetic is done on uint64_t, which wraps instead of overflowing;
 * emu_pattern_check refuses any non-empty pattern whose elements or size
 * would not fit, so for a checked pattern the wrapped result is exact.
 */
#include "program.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "assemble.h"
#include "text.h"

uint64_t emu_pattern_size(const emu_pattern *p)
{
	uint64_t n = 1;
	for (unsigned k = 0; k < p->ndims && k < EMU_PAT_MAX_DIMS; k++)
		if (__builtin_mul_overflow(n, p->count[k], &n))
			return UINT64_MAX; /* saturate; the checks refuse it */
	return n;
}

int64_t emu_pattern_at(const emu_pattern *p, uint64_t i)
{
	uint64_t v = (uint64_t)p->start;
	for (unsigned k = 0; k < p->ndims && k < EMU_PAT_MAX_DIMS; k++) {
		if (p->count[k] == 0)
			break;
		v += (uint64_t)p->stride[k] * (i % p->count[k]);
		i /= p->count[k];
	}
	return (int64_t)v;
}

void emu_pattern_bounds(const emu_pattern *p, int64_t *lo, int64_t *hi)
{
	uint64_t l = (uint64_t)p->start, h = l;
	for (unsigned k = 0; k < p->ndims && k < EMU_PAT_MAX_DIMS; k++) {
		if (p->count[k] == 0)
			break;
		uint64_t span = (uint64_t)p->stride[k] * (p->count[k] - 1);
		if (p->stride[k] < 0)
			l += span;
		else
			h += span;
	}
	*lo = (int64_t)l;
	*hi = (int64_t)h;
}

emu_pattern emu_pattern_range(uint64_t count)
{
	emu_pattern p;
	memset(&p, 0, sizeof p);
	p.ndims = 1;
	p.stride[0] = 1;
	p.count[0] = count;
	return p;
}

bool emu_pattern_equal(const emu_pattern *x, const emu_pattern *y)
{
	if (x->start != y->start || x->ndims != y->ndims)
		return false;
	for (unsigned k = 0; k < x->ndims && k < EMU_PAT_MAX_DIMS; k++)
		if (x->stride[k] != y->stride[k] || x->count[k] != y->count[k])
			return false;
	return true;
}

/* Does stride * (count - 1) fit in int64_t?  Sets *span. */
static bool span_of(int64_t stride, uint64_t count, int64_t *span)
{
	uint64_t m = count - 1;
	if (m > (uint64_t)INT64_MAX)
		return stride == 0 ? (*span = 0, true) : false;
	return !__builtin_mul_overflow(stride, (int64_t)m, span);
}

const char *emu_pattern_check(const emu_pattern *p, unsigned *dim)
{
	*dim = 0;
	if (p->ndims > EMU_PAT_MAX_DIMS)
		return "a pattern has at most 8 dimensions";
	uint64_t n = 1;
	for (unsigned k = 0; k < p->ndims; k++)
		if (p->count[k] == 0)
			return NULL; /* empty: nothing can overflow */
	int64_t lo = p->start, hi = p->start;
	for (unsigned k = 0; k < p->ndims; k++) {
		int64_t span;
		*dim = k + 1;
		if (__builtin_mul_overflow(n, p->count[k], &n))
			return "the pattern has more than 2^64-1 elements";
		if (!span_of(p->stride[k], p->count[k], &span) ||
		    __builtin_add_overflow(span < 0 ? lo : hi, span,
					   span < 0 ? &lo : &hi))
			return "the pattern's elements do not fit in 64-bit integers";
	}
	*dim = 0;
	return NULL;
}

/* One ':'-separated number of a pattern; *pos advances past it. */
static int scan_field(const char *text, size_t len, size_t *pos, bool is_count,
		      uint64_t *mag, bool *neg, const char **err, size_t *errcol)
{
	size_t used;
	if (*pos >= len || text[*pos] == ':') {
		*err = is_count ? "expected a count after ':'"
				: "expected a number (start[:stride:count]...)";
		*errcol = *pos;
		return -1;
	}
	if (text_scan_number(text + *pos, len - *pos, mag, neg, &used, err)) {
		*errcol = *pos + used;
		return -1;
	}
	if (is_count && *neg && *mag) {
		*err = "a count cannot be negative";
		*errcol = *pos;
		return -1;
	}
	if (!is_count && (*neg ? *mag > (uint64_t)INT64_MAX + 1
			       : *mag > (uint64_t)INT64_MAX)) {
		*err = "a start or stride must fit in a signed 64-bit integer";
		*errcol = *pos;
		return -1;
	}
	*pos += used;
	return 0;
}

static int64_t to_i64(uint64_t mag, bool neg)
{
	return neg ? (int64_t)(0 - mag) : (int64_t)mag;
}

/* Expect ':' at *pos (the separator before a stride or a count). */
static int expect_colon(const char *text, size_t len, size_t *pos,
			const char *what, const char **err, size_t *errcol)
{
	if (*pos < len && text[*pos] == ':') {
		(*pos)++;
		return 0;
	}
	*err = what;
	*errcol = *pos;
	return -1;
}

int emu_pattern_parse(const char *text, size_t len, emu_pattern *out,
		      const char **err, size_t *errcol)
{
	emu_pattern p;
	memset(&p, 0, sizeof p);
	size_t pos = 0, dim_at[EMU_PAT_MAX_DIMS + 1] = {0};
	uint64_t mag;
	bool neg;
	if (scan_field(text, len, &pos, false, &mag, &neg, err, errcol))
		return -1;
	p.start = to_i64(mag, neg);
	while (pos < len) {
		if (expect_colon(text, len, &pos,
				 "expected ':' (start[:stride:count]...)", err, errcol))
			return -1;
		if (p.ndims == EMU_PAT_MAX_DIMS) {
			*err = "a pattern has at most 8 (stride, count) dimensions";
			*errcol = pos - 1;
			return -1;
		}
		dim_at[p.ndims + 1] = pos;
		if (scan_field(text, len, &pos, false, &mag, &neg, err, errcol))
			return -1;
		p.stride[p.ndims] = to_i64(mag, neg);
		if (expect_colon(text, len, &pos,
				 "a dimension needs a stride and a count: expected ':COUNT'",
				 err, errcol) ||
		    scan_field(text, len, &pos, true, &mag, &neg, err, errcol))
			return -1;
		p.count[p.ndims++] = mag;
	}
	unsigned bad;
	if ((*err = emu_pattern_check(&p, &bad)) != NULL) {
		*errcol = dim_at[bad];
		return -1;
	}
	*out = p;
	return 0;
}

int emu_pattern_format(const emu_pattern *p, char *buf, size_t size)
{
	text_buf b = text_buf_of(buf, size);
	emu_pattern_put(p, &b);
	return (int)b.n;
}

void emu_pattern_put(const emu_pattern *p, text_buf *b)
{
	text_put_int(b, p->start);
	for (unsigned d = 0; d < p->ndims && d < EMU_PAT_MAX_DIMS; d++) {
		text_put(b, ":", 1);
		text_put_int(b, p->stride[d]);
		text_put(b, ":", 1);
		text_put_uint(b, p->count[d]);
	}
}

/* Drop dimensions of count 1 and merge contiguous ones. */
void emu_pattern_simplify(emu_pattern *p)
{
	unsigned n = 0;
	for (unsigned k = 0; k < p->ndims; k++) {
		if (p->count[k] == 1)
			continue;
		if (n && p->stride[n - 1] * (int64_t)p->count[n - 1] == p->stride[k]) {
			p->count[n - 1] *= p->count[k];
			continue;
		}
		p->stride[n] = p->stride[k];
		p->count[n++] = p->count[k];
	}
	for (unsigned k = n; k < EMU_PAT_MAX_DIMS; k++)
		p->stride[k] = 0, p->count[k] = 0;
	p->ndims = n;
}
