/* SPDX-License-Identifier: MIT */
/*
 * value.c: infsdb's values: integers and doubles, elements read from the
 * transposed bits, their text in each print format, and the bits that
 * `set var` writes.
 *
 * An element of a float (.f32 .f16 .bf16) or fixed-point (.qN) buffer
 * is the exact value of its format (isa_fp_to_double, isa_fix_to_double),
 * a double, and keeps its bits for /x /t /d /u.  Printed by default, a
 * float element shows enough digits to tell it from its neighbours
 * (emu_value_text, as `infsim run -d` and the check reports print it);
 * a computed double shows the fewest digits that read back to it.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbg.h"

dbg_value dbg_value_int(int64_t v)
{
	return (dbg_value){ .v = v, .width = 64, .is_signed = true, .fmt = ISA_FMT_INT };
}

dbg_value dbg_value_real(double f)
{
	return (dbg_value){ .f = f, .is_float = true, .width = 64, .is_signed = true,
			    .fmt = ISA_FMT_INT };
}

dbg_value dbg_value_of_element(const dbg_session *s, const emu_buffer *b, uint64_t i)
{
	return dbg_value_of_bits(b, emu_elem_get(s->em, b, i));
}

dbg_value dbg_value_of_bits(const emu_buffer *b, uint64_t raw)
{
	if (b->fmt == ISA_FMT_INT)
		return (dbg_value){ .v = b->is_signed ? isa_sext(raw, b->width) : (int64_t)raw,
				    .width = b->width, .is_signed = b->is_signed != 0,
				    .fmt = ISA_FMT_INT };
	const double f = b->fmt == ISA_FMT_FIX ? isa_fix_to_double(b->width, raw)
					       : isa_fp_to_double(b->fmt, raw);
	return (dbg_value){ .v = (int64_t)raw, .f = f, .is_float = true, .width = b->width,
			    .is_signed = true, .fmt = b->fmt };
}

double dbg_value_double(const dbg_value *v)
{
	if (v->is_float)
		return v->f;
	if (v->is_signed)
		return (double)v->v;
	return (double)((uint64_t)v->v & isa_mask(v->width ? v->width : 64));
}

bool dbg_value_true(const dbg_value *v)
{
	return v->is_float ? !(v->f == 0) : v->v != 0;
}

/* The bits of v: an element's (width of them), a double's 64, an
 * integer's at its width. */
static uint64_t value_bits(const dbg_value *v, unsigned *width)
{
	if (v->is_float && v->fmt == ISA_FMT_INT) {
		uint64_t bits;
		memcpy(&bits, &v->f, sizeof bits);
		*width = 64;
		return bits;
	}
	*width = v->width ? v->width : 64;
	return (uint64_t)v->v & isa_mask(*width);
}

bool dbg_value_same(const dbg_value *a, const dbg_value *b)
{
	unsigned wa, wb;
	const uint64_t x = value_bits(a, &wa), y = value_bits(b, &wb);
	return a->is_float == b->is_float && a->fmt == b->fmt && wa == wb && x == y;
}

/* A double in the fewest significant digits that read back to it
 * (0.1 + 0.2 is 0.30000000000000004, 3.0 is 3), as %g writes them but
 * without an exponent from 1e-5 to 1e16 (70000, not 7e+04), as
 * emu_value_text writes the elements. */
static void double_text(double d, char *buf, size_t size)
{
	/* A NaN is "nan" whatever its sign and payload (0.0/0 is -nan on
	 * x86), as the elements print; /x shows its bits. */
	if (isnan(d)) {
		snprintf(buf, size, "nan");
		return;
	}
	if (isinf(d)) {
		snprintf(buf, size, "%sinf", d < 0 ? "-" : "");
		return;
	}
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, size, "%.*g", prec, d);
		if (strtod(buf, NULL) != d)
			continue;
		const char *e = strchr(buf, 'e');
		const int e10 = e ? atoi(e + 1) : 0;
		if (e && e10 >= -5 && e10 < 16)
			snprintf(buf, size, "%.*f", prec - 1 - e10 > 0 ? prec - 1 - e10 : 0, d);
		return;
	}
}

/* The bits of an integer read as a float of its width: f16, f32 or the
 * host's binary64.  0, or -1 with a message. */
static int bits_as_float(uint64_t bits, unsigned width, char *buf, size_t size)
{
	if (width == 16 || width == 32) {
		emu_value_text(width == 16 ? ISA_FMT_F16 : ISA_FMT_F32, width, 1, bits, false,
			       buf, size);
		return 0;
	}
	if (width == 64) {
		double d;
		memcpy(&d, &bits, sizeof d);
		double_text(d, buf, size);
		return 0;
	}
	snprintf(buf, size, "Format /f needs a float, or an integer of 16, 32 or 64 bits to read "
		 "as one; this value is an integer of %u bits.", width);
	return -1;
}

/* /t: the bits, most significant first; a computed 64-bit value
 * without its leading zeros. */
static void binary_text(uint64_t bits, unsigned w, bool computed, char *buf, size_t size)
{
	unsigned n = w;
	if (computed)
		while (n > 1 && !((bits >> (n - 1)) & 1))
			n--;
	size_t k = 0;
	for (unsigned i = n; i-- > 0 && k + 1 < size;)
		buf[k++] = (char)('0' + ((bits >> i) & 1));
	buf[k] = '\0';
}

/* The value in its own type: an integer by its signedness, a float
 * element as its format prints it, a double in its shortest form. */
static void natural_text(const dbg_value *v, uint64_t bits, unsigned w, char *buf, size_t size)
{
	if (v->fmt != ISA_FMT_INT)
		emu_value_text(v->fmt, v->width, 1, bits, false, buf, size);
	else if (v->is_float)
		double_text(v->f, buf, size);
	else if (v->is_signed)
		snprintf(buf, size, "%" PRId64, v->v);
	else
		snprintf(buf, size, "%" PRIu64, bits & isa_mask(w));
}

/* /c, as gdb's: the value cast to an integer (a float truncated), then
 * to a char (signed unless the value is unsigned), and that char as C
 * writes its constant: 65 'A', 10 '\n', -56 '\310'. */
static void char_text(const dbg_value *v, char *buf, size_t size)
{
	int64_t x = v->v;
	if (v->is_float)
		x = v->f >= -0x1p63 && v->f < 0x1p63 ? (int64_t)trunc(v->f) : 0;
	const unsigned char c = (unsigned char)(x & 0xff);
	const int n = v->is_signed ? (int)(signed char)c : (int)c;
	static const char from[] = "\a\b\f\n\r\t\v\\'", to[] = "abfnrtv\\'";
	const char *k = c ? strchr(from, c) : NULL;
	if (k)
		snprintf(buf, size, "%d '\\%c'", n, to[k - from]);
	else if (c >= 0x20 && c < 0x7f)
		snprintf(buf, size, "%d '%c'", n, c);
	else
		snprintf(buf, size, "%d '\\%03o'", n, c);
}

int dbg_format_value(const dbg_value *v, char fmt, char *buf, size_t size)
{
	unsigned w;
	const uint64_t bits = value_bits(v, &w);
	switch (fmt) {
	case 'x':
	case 'a': /* the address's symbol, when there is one, is the caller's */
		snprintf(buf, size, "0x%" PRIx64, bits);
		return 0;
	case 'z':
		snprintf(buf, size, "0x%0*" PRIx64, (int)((w + 3) / 4), bits);
		return 0;
	case 'o':
		snprintf(buf, size, bits ? "0%" PRIo64 : "%" PRIo64, bits);
		return 0;
	case 'c':
		char_text(v, buf, size);
		return 0;
	case 'u':
		snprintf(buf, size, "%" PRIu64, bits);
		return 0;
	case 'd':
		snprintf(buf, size, "%" PRId64, isa_sext(bits, w));
		return 0;
	case 't':
		binary_text(bits, w, w == 64 && v->fmt == ISA_FMT_INT && v->width == 64, buf,
			    size);
		return 0;
	case 'f':
		if (!v->is_float)
			return bits_as_float(bits, w, buf, size);
		natural_text(v, bits, w, buf, size);
		return 0;
	default:
		natural_text(v, bits, w, buf, size);
		return 0;
	}
}

/* ---- set var: a value into an element's bits ---- */

/* The largest finite value of a float format, as text. */
static void largest_finite(const isa_fpfmt *ff, unsigned fmt, char *buf, size_t size)
{
	const uint64_t bits = ((isa_mask(ff->ebits) - 1) << ff->mbits) | isa_mask(ff->mbits);
	emu_value_text(fmt, ff->width, 1, bits, false, buf, size);
}

static int to_float_bits(double d, const emu_buffer *b, unsigned fp_flags, uint64_t *bits,
			 char *err, size_t errsize)
{
	const isa_fpfmt *ff = isa_fpfmt_of(b->fmt);
	char tn[16], text[48], max[48];
	*bits = isa_fp_from_double(b->fmt, fp_flags, d);
	const uint64_t emax = isa_mask(ff->ebits);
	const bool inf = ((*bits >> ff->mbits) & emax) == emax && !(*bits & isa_mask(ff->mbits));
	if (!inf || isinf(d))
		return 0;
	double_text(d, text, sizeof text);
	largest_finite(ff, b->fmt, max, sizeof max);
	snprintf(err, errsize, "%s is out of range for %s (%s): the largest finite %s is %s.",
		 text, b->name, emu_buffer_type(b, tn, sizeof tn), tn, max);
	return -1;
}

static int to_fix_bits(double d, const emu_buffer *b, uint64_t *bits, char *err,
		       size_t errsize)
{
	char tn[16], text[48];
	if (d >= -(1 << (ISA_FIX_INT - 1)) && d < (1 << (ISA_FIX_INT - 1))) {
		*bits = isa_fix_from_double(b->width, d) & isa_mask(b->width);
		return 0;
	}
	double_text(d, text, sizeof text);
	snprintf(err, errsize, "%s is out of range for %s (%s): -4 <= value < 4.", text,
		 b->name, emu_buffer_type(b, tn, sizeof tn));
	return -1;
}

/* An integer buffer: a double is truncated toward zero, as C converts. */
static int to_int_bits(const dbg_value *v, const emu_buffer *b, uint64_t *bits, char *err,
		       size_t errsize)
{
	char tn[16], text[48];
	int64_t x = v->v;
	bool fits = true;
	if (v->is_float) {
		const double t = trunc(v->f);
		fits = t >= -0x1p63 && t < 0x1p63;
		x = fits ? (int64_t)t : 0;
	}
	if (fits && b->width < 64)
		fits = b->is_signed ? isa_sext((uint64_t)x, b->width) == x
				    : x >= 0 && (uint64_t)x <= isa_mask(b->width);
	if (fits) {
		*bits = (uint64_t)x & isa_mask(b->width);
		return 0;
	}
	dbg_format_value(v, 0, text, sizeof text);
	snprintf(err, errsize, "%s does not fit %s (%s).", text, b->name,
		 emu_buffer_type(b, tn, sizeof tn));
	return -1;
}

int dbg_value_to_element(const dbg_value *v, const emu_buffer *b, unsigned fp_flags,
			 uint64_t *bits, char *err, size_t errsize)
{
	if (b->fmt == ISA_FMT_INT)
		return to_int_bits(v, b, bits, err, errsize);
	const double d = dbg_value_double(v);
	if (b->fmt == ISA_FMT_FIX)
		return to_fix_bits(d, b, bits, err, errsize);
	return to_float_bits(d, b, fp_flags, bits, err, errsize);
}
