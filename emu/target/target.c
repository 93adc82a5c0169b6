/* SPDX-License-Identifier: MIT */
/*
 * target.c: what every target and front shares: finding the target of a
 * file, and the text and .npy type of a value.
 */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "target.h"

static bool ends_with(const char *s, const char *suffix)
{
	const size_t n = strlen(s), k = strlen(suffix);
	return n > k && strcmp(s + n - k, suffix) == 0;
}

const tgt_ops *tgt_find(const char *path, const char *head, size_t n)
{
	for (size_t i = 0; tgt_all[i]; i++)
		for (size_t k = 0; tgt_all[i]->exts && tgt_all[i]->exts[k]; k++)
			if (ends_with(path, tgt_all[i]->exts[k]))
				return tgt_all[i];
	for (size_t i = 0; tgt_all[i]; i++)
		if (tgt_all[i]->claims && tgt_all[i]->claims(head, n))
			return tgt_all[i];
	return NULL;
}

long tgt_array_find(const tgt_ops *ops, const tgt *t, const char *name)
{
	const size_t n = ops->narrays(t);
	for (size_t i = 0; i < n; i++) {
		tgt_array a;
		ops->array(t, i, &a);
		if (!strcmp(a.name, name))
			return (long)i;
	}
	return -1;
}

/* IEEE half and bfloat16 bits as a float (exactly: both fit). */
static float half_float(uint64_t bits)
{
	const unsigned s = (bits >> 15) & 1, e = (bits >> 10) & 31, m = bits & 1023;
	float v = e == 0 ? ldexpf((float)m, -24) : e == 31 ? (m ? NAN : INFINITY)
						   : ldexpf((float)(m | 1024), (int)e - 25);
	return s ? -v : v;
}

static float bits_float(uint32_t bits)
{
	float f;
	memcpy(&f, &bits, sizeof f);
	return f;
}

/* The shortest %.*g of v that reads back as the same value in a float
 * (single) or a double. */
static void shortest(double v, bool single, char *buf, size_t size)
{
	for (int p = 1; p <= 17; p++) {
		snprintf(buf, size, "%.*g", p, v);
		const double back = strtod(buf, NULL);
		if (single ? (float)back == (float)v : back == v)
			return;
	}
}

void tgt_value_text(tgt_type t, uint64_t bits, char *buf, size_t size)
{
	const uint64_t mask = t.width >= 64 ? UINT64_MAX : (UINT64_C(1) << t.width) - 1;
	bits &= mask;
	double f;
	bool single = true;
	switch (t.kind) {
	case TGT_F16:
		f = half_float(bits);
		break;
	case TGT_BF16:
		f = bits_float((uint32_t)bits << 16);
		break;
	case TGT_F32:
		f = bits_float((uint32_t)bits);
		break;
	case TGT_F64:
		memcpy(&f, &bits, sizeof f);
		single = false;
		break;
	default: {
		int64_t s = (int64_t)bits;
		const bool neg = t.is_signed && t.width < 64 && (bits >> (t.width - 1) & 1);
		if (neg)
			s = (int64_t)(bits | ~mask);
		if (t.kind == TGT_FIXED) {
			snprintf(buf, size, "%.17g", ldexp((double)s, -(int)t.frac));
			shortest(ldexp((double)s, -(int)t.frac), false, buf, size);
			return;
		}
		if (t.is_signed)
			snprintf(buf, size, "%" PRId64, s);
		else
			snprintf(buf, size, "%" PRIu64, bits);
		return;
	}
	}
	if (isnan(f))
		snprintf(buf, size, "%snan", signbit(f) ? "-" : "");
	else if (isinf(f))
		snprintf(buf, size, "%sinf", f < 0 ? "-" : "");
	else
		shortest(f, single, buf, size);
}

void tgt_type_dtype(tgt_type t, char *kind, unsigned *size)
{
	switch (t.kind) {
	case TGT_F16: *kind = 'f'; *size = 2; return;
	case TGT_BF16: *kind = 'u'; *size = 2; return;
	case TGT_F32: *kind = 'f'; *size = 4; return;
	case TGT_F64: *kind = 'f'; *size = 8; return;
	case TGT_FIXED: *kind = 'i'; break;
	default: *kind = t.width == 1 ? 'b' : t.is_signed ? 'i' : 'u'; break;
	}
	*size = t.width <= 8 ? 1 : t.width <= 16 ? 2 : t.width <= 32 ? 4 : 8;
}

void tgt_value_bits_text(tgt_type t, uint64_t bits, char *buf, size_t size)
{
	char v[64];
	const uint64_t mask = t.width >= 64 ? UINT64_MAX : (UINT64_C(1) << t.width) - 1;
	tgt_value_text(t, bits, v, sizeof v);
	snprintf(buf, size, "%s (0x%0*" PRIx64 ")", v, (t.width + 3) / 4, bits & mask);
}

void tgt_type_name(tgt_type t, char *buf, size_t size)
{
	static const char *const fp[] = { [TGT_F16] = "f16", [TGT_BF16] = "bf16",
					  [TGT_F32] = "f32", [TGT_F64] = "f64" };
	if (t.kind == TGT_INT)
		snprintf(buf, size, "%c%u", t.is_signed ? 'i' : 'u', t.width);
	else if (t.kind == TGT_FIXED)
		snprintf(buf, size, "q%u", t.width);
	else
		snprintf(buf, size, "%s", fp[t.kind]);
}

void tgt_elem_name(const tgt_array *a, uint64_t index, char *buf, size_t size)
{
	if (a->ndim < 2) {
		snprintf(buf, size, "%s[%" PRIu64 "]", a->name, index);
		return;
	}
	uint64_t ix[TGT_DIMS_MAX], rest = index;
	for (unsigned k = a->ndim; k-- > 0;) {
		ix[k] = a->shape[k] ? rest % a->shape[k] : 0;
		rest = a->shape[k] ? rest / a->shape[k] : 0;
	}
	size_t len = (size_t)snprintf(buf, size, "%s", a->name);
	for (unsigned k = 0; k < a->ndim && len < size; k++)
		len += (size_t)snprintf(buf + len, size - len, "[%" PRIu64 "]", ix[k]);
	if (len < size)
		snprintf(buf + len, size - len, " (element %" PRIu64 ")", index);
}

int tgt_mismatch_text(const tgt_array *a, uint64_t index, uint64_t expected, uint64_t got,
		      char *buf, size_t size)
{
	char exp[96], act[96], bits[400], tn[16], name[TGT_NAME_MAX + 96];
	const uint64_t mask = a->type.width >= 64 ? UINT64_MAX : (UINT64_C(1) << a->type.width) - 1;
	const uint64_t x = (expected ^ got) & mask;
	tgt_value_bits_text(a->type, expected, exp, sizeof exp);
	tgt_value_bits_text(a->type, got, act, sizeof act);
	/* "0-3, 7, 31": the bits that differ, as ranges */
	size_t len = 0;
	bits[0] = '\0';
	for (unsigned i = 0; i < 64 && len < sizeof bits;) {
		if (!(x >> i & 1)) {
			i++;
			continue;
		}
		unsigned j = i;
		while (j + 1 < 64 && (x >> (j + 1) & 1))
			j++;
		len += (size_t)snprintf(bits + len, sizeof bits - len, j > i ? "%s%u-%u" : "%s%u",
					len ? ", " : "", i, j);
		i = j + 1;
	}
	tgt_elem_name(a, index, name, sizeof name);
	tgt_type_name(a->type, tn, sizeof tn);
	return snprintf(buf, size, "%s (%s): expected %s, got %s; bits that differ: %s", name, tn,
			exp, act, bits);
}

void tgt_source_line(const char *text, size_t len, unsigned line, char *buf, size_t size)
{
	const char *s = text, *end = text + len;
	for (unsigned l = 1; l < line && s < end; l++) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		s = nl ? nl + 1 : end;
	}
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	const char *e = s;
	while (e < end && *e != '\n' && *e != '\r' && *e != '#')
		e++;
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	snprintf(buf, size, "%.*s", (int)(e - s), s);
}

bool tgt_head_word(const char *head, size_t n, unsigned k, char *buf, size_t size)
{
	size_t i = 0;
	for (;;) {
		const char *nl = memchr(head + i, '\n', n - i);
		if (!nl)
			return false; /* a line cut by the head's end is not read */
		size_t s = i;
		while (s < (size_t)(nl - head) && (head[s] == ' ' || head[s] == '\t'))
			s++;
		i = (size_t)(nl - head) + 1;
		if (head + s == nl || head[s] == '#')
			continue;
		if (k--)
			continue;
		size_t e = s;
		while (head + e < nl && (isalnum((unsigned char)head[e]) || head[e] == '.' ||
					 head[e] == '_'))
			e++;
		snprintf(buf, size, "%.*s", (int)(e - s), head + s);
		return true;
	}
}

bool tgt_head_has(const char *head, size_t n, const char *word)
{
	char w[64];
	for (unsigned k = 0; tgt_head_word(head, n, k, w, sizeof w); k++)
		if (!strcmp(w, word))
			return true;
	return false;
}
