/* SPDX-License-Identifier: MIT */
/* elements.c: see elements.h. */
#include "elements.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "isa.h"

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* The file type of buffer b: the smallest integer holding its width, by
 * its signedness; bool for one bit; a .qN buffer's raw two's complement
 * as a signed integer; f4 and f2 for f32 and f16; bf16, which NumPy does
 * not have, as its raw bits in u2. */
npy_dtype emu_elements_dtype(const emu_buffer *b)
{
	npy_dtype dt = { b->is_signed ? 'i' : 'u', 8 };
	if (b->fmt == ISA_FMT_F32 || b->fmt == ISA_FMT_F16)
		dt = (npy_dtype){ 'f', b->width / 8u };
	else if (b->fmt == ISA_FMT_BF16)
		dt = (npy_dtype){ 'u', 2 };
	else if (b->width == 1)
		dt = (npy_dtype){ 'b', 1 };
	else if (b->width <= 8)
		dt.size = 1;
	else if (b->width <= 16)
		dt.size = 2;
	else if (b->width <= 32)
		dt.size = 4;
	return dt;
}

/* Do the values read for b fit its width?  Then keep their n-bit
 * patterns.  A bool is 0 or 1 already (true is -1 in a signed 1-bit
 * buffer). */
static int fit_values(const char *path, const emu_buffer *b, uint64_t *v,
		      uint64_t count, diag *d)
{
	unsigned n = b->width;
	if (n == 1 || n == 64 || isa_fpfmt_of(b->fmt))
		return 0; /* every pattern read is one of the buffer's */
	for (uint64_t i = 0; i < count; i++) {
		bool fits = b->is_signed ? isa_sext(v[i], n) == (int64_t)v[i]
					 : v[i] <= isa_mask(n);
		if (fits) {
			v[i] &= isa_mask(n);
			continue;
		}
		if (b->is_signed)
			diag_file(d, path, "element %" PRIu64 " is %" PRId64 ", which does not fit buffer '%s' (%c%u: %" PRId64 " to %" PRId64 ")",
				  i, (int64_t)v[i], b->name, b->fmt == ISA_FMT_FIX ? 'q' : 'i', n,
				  -(INT64_C(1) << (n - 1)), (INT64_C(1) << (n - 1)) - 1);
		else
			diag_file(d, path, "element %" PRIu64 " is %" PRIu64 ", which does not fit buffer '%s' (u%u: 0 to %" PRIu64 ")",
				  i, v[i], b->name, n, isa_mask(n));
		return -1;
	}
	return 0;
}

static int check_npy_header(const char *path, const npy_header *h,
			    const emu_buffer *b, diag *d)
{
	npy_dtype dt = emu_elements_dtype(b);
	char want[16], shape[32 + 24 * NPY_MAX_DIMS];
	npy_descr(dt, want, sizeof want);
	if (!npy_dtype_matches(h, dt)) {
		char tn[16];
		diag_file(d, path, "dtype '%s' does not match buffer '%s' (%s): expected '%s'",
			  h->descr, b->name, emu_buffer_type(b, tn, sizeof tn), want);
		return -1;
	}
	if (h->count != b->length) {
		npy_shape_text(h, shape, sizeof shape);
		diag_file(d, path, "shape %s has %" PRIu64 " elements; buffer '%s' has %" PRIu64,
			  shape, h->count, b->name, b->length);
		return -1;
	}
	return 0;
}

/* Read path (.npy, or raw .bin) for buffer b into values[b->length],
 * as n-bit patterns. */
int emu_elements_read(const char *path, const emu_buffer *b, uint64_t *values, diag *d)
{
	npy_dtype dt = emu_elements_dtype(b);
	FILE *f = NULL;
	if (ends_with(path, ".bin")) {
		if (npy_open_raw(path, dt, b->length, &f, d) < 0)
			return -1;
	} else {
		/* standard input or a pipe: no more than this buffer's file */
		npy_header h;
		if (npy_open_limit(path, NPY_HEADER_MAX + 16 + b->length * dt.size, &h, &f, d) < 0)
			return -1;
		if (check_npy_header(path, &h, b, d) < 0) {
			fclose(f);
			return -1;
		}
	}
	int rc = npy_read_elems(f, path, dt, b->length, values, d);
	fclose(f);
	if (rc == 0)
		rc = fit_values(path, b, values, b->length, d);
	return rc;
}

