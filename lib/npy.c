/* SPDX-License-Identifier: MIT */
/* npy.c: NumPy .npy files of integers and booleans; see npy.h. */
#include "npy.h"
#include "outfile.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const unsigned char npy_magic[6] = { 0x93, 'N', 'U', 'M', 'P', 'Y' };


void npy_descr(npy_dtype dt, char *buf, size_t size)
{
	snprintf(buf, size, "%c%c%u", dt.size == 1 ? '|' : '<', dt.kind, dt.size);
}

bool npy_dtype_matches(const npy_header *h, npy_dtype dt)
{
	if (h->dtype.kind != dt.kind || h->dtype.size != dt.size)
		return false;
	/* One byte has no byte order: numpy writes '|', '<' is harmless. */
	return h->order == '<' || (dt.size == 1 && h->order == '|');
}

void npy_shape_text(const npy_header *h, char *buf, size_t size)
{
	size_t k = 0;
	int w = snprintf(buf, size, "(");
	for (unsigned i = 0; w >= 0 && i < h->ndim; i++) {
		k += (size_t)w;
		w = snprintf(buf + (k < size ? k : size), k < size ? size - k : 0,
			     i ? ", %" PRIu64 : "%" PRIu64, h->shape[i]);
	}
	if (w >= 0)
		k += (size_t)w;
	snprintf(buf + (k < size ? k : size), k < size ? size - k : 0,
		 h->ndim == 1 ? ",)" : ")");
}

/* ---- the header dict: a tiny, strict reader of one Python literal ---- */

typedef struct npy_lex {
	const char *s;
	size_t n, pos;
	const char *path;
	size_t base;  /* file offset of s[0], for messages */
	diag *d;
} npy_lex;

static int lex_fail(npy_lex *x, const char *what)
{
	diag_file(x->d, x->path, "bad .npy header at byte %zu: %s", x->base + x->pos,
		  what);
	return -1;
}

static void lex_space(npy_lex *x)
{
	while (x->pos < x->n && (x->s[x->pos] == ' ' || x->s[x->pos] == '\t'))
		x->pos++;
}

static bool lex_accept(npy_lex *x, char c)
{
	lex_space(x);
	if (x->pos < x->n && x->s[x->pos] == c) {
		x->pos++;
		return true;
	}
	return false;
}

static int lex_expect(npy_lex *x, char c, const char *what)
{
	return lex_accept(x, c) ? 0 : lex_fail(x, what);
}

/* A quoted string without escapes, at most size-1 characters. */
static int lex_string(npy_lex *x, char *out, size_t size)
{
	lex_space(x);
	if (x->pos >= x->n || (x->s[x->pos] != '\'' && x->s[x->pos] != '"'))
		return lex_fail(x, "expected a quoted string");
	char q = x->s[x->pos++];
	size_t k = 0;
	while (x->pos < x->n && x->s[x->pos] != q) {
		char c = x->s[x->pos];
		if (c == '\\' || c < 0x20 || c > 0x7e)
			return lex_fail(x, "unexpected character in a string");
		if (k + 1 >= size)
			return lex_fail(x, "string too long");
		out[k++] = c;
		x->pos++;
	}
	if (x->pos >= x->n)
		return lex_fail(x, "unterminated string");
	x->pos++;
	out[k] = '\0';
	return 0;
}

static bool lex_word(npy_lex *x, const char *w)
{
	size_t k = strlen(w);
	lex_space(x);
	if (x->n - x->pos < k || memcmp(x->s + x->pos, w, k) != 0)
		return false;
	char next = x->pos + k < x->n ? x->s[x->pos + k] : '\0';
	if ((next >= 'a' && next <= 'z') || (next >= 'A' && next <= 'Z') ||
	    (next >= '0' && next <= '9') || next == '_')
		return false;
	x->pos += k;
	return true;
}

static int lex_uint(npy_lex *x, uint64_t *v)
{
	lex_space(x);
	if (x->pos >= x->n || x->s[x->pos] < '0' || x->s[x->pos] > '9')
		return lex_fail(x, "expected a non-negative integer in the shape");
	uint64_t r = 0;
	while (x->pos < x->n && x->s[x->pos] >= '0' && x->s[x->pos] <= '9') {
		unsigned dg = (unsigned)(x->s[x->pos] - '0');
		if (r > (UINT64_MAX - dg) / 10)
			return lex_fail(x, "shape dimension too large");
		r = r * 10 + dg;
		x->pos++;
	}
	*v = r;
	return 0;
}

/* "(3, 4)", "(1000,)" or "()"; a one-element tuple needs its comma. */
static int parse_shape(npy_lex *x, npy_header *h)
{
	if (lex_expect(x, '(', "expected '(' to start the shape") < 0)
		return -1;
	h->ndim = 0;
	bool comma = false;
	while (!lex_accept(x, ')')) {
		if (h->ndim > 0 && !comma)
			return lex_fail(x, "expected ',' or ')' in the shape");
		if (h->ndim == NPY_MAX_DIMS)
			return lex_fail(x, "more than 32 dimensions");
		if (lex_uint(x, &h->shape[h->ndim++]) < 0)
			return -1;
		comma = lex_accept(x, ',');
	}
	if (h->ndim == 1 && !comma)
		return lex_fail(x, "a one-dimensional shape needs a trailing comma, as in (5,)");
	return 0;
}

/* descr: a byte order, a kind letter and an item size, such as '<i4'.
 * Types other than bool, integers of 1, 2, 4 or 8 bytes and floats of 2,
 * 4 or 8 bytes parse, but keep dtype.kind 0: the caller reports them as
 * the wrong type. */
static int parse_descr(npy_lex *x, npy_header *h)
{
	lex_space(x);
	if (x->pos < x->n && x->s[x->pos] == '[')
		return lex_fail(x, "structured types (a descr list) are not supported");
	size_t at = x->pos;
	if (lex_string(x, h->descr, sizeof h->descr) < 0)
		return -1;
	const char *s = h->descr;
	unsigned long size = 0;
	bool ok = strchr("<>|=", s[0]) && s[0] && s[1] >= 'A' && s[1] <= 'z' &&
		  s[2] >= '1' && s[2] <= '9';
	for (size_t i = 2; ok && s[i]; i++) {
		ok = s[i] >= '0' && s[i] <= '9' && size < 100000;
		size = size * 10 + (unsigned long)(s[i] - '0');
	}
	if (!ok) {
		x->pos = at;
		return lex_fail(x, "descr must be a byte order, a type letter and a size, such as '<i4'");
	}
	h->order = s[0];
	h->dtype.kind = 0;
	h->dtype.size = (unsigned)size;
	if (((s[1] == 'i' || s[1] == 'u') &&
	     (size == 1 || size == 2 || size == 4 || size == 8)) ||
	    (s[1] == 'f' && (size == 2 || size == 4 || size == 8)) ||
	    (s[1] == 'b' && size == 1))
		h->dtype.kind = s[1];
	return 0;
}

enum { KEY_DESCR = 1, KEY_FORTRAN = 2, KEY_SHAPE = 4 };

static int parse_entry(npy_lex *x, npy_header *h, unsigned *seen)
{
	char key[32];
	size_t at = x->pos;
	if (lex_string(x, key, sizeof key) < 0)
		return -1;
	unsigned k = !strcmp(key, "descr") ? KEY_DESCR
		   : !strcmp(key, "fortran_order") ? KEY_FORTRAN
		   : !strcmp(key, "shape") ? KEY_SHAPE : 0;
	x->pos = at;
	if (!k)
		return lex_fail(x, "unknown key; expected 'descr', 'fortran_order' or 'shape'");
	if (*seen & k)
		return lex_fail(x, "key given twice");
	*seen |= k;
	lex_string(x, key, sizeof key);
	if (lex_expect(x, ':', "expected ':' after the key") < 0)
		return -1;
	if (k == KEY_DESCR)
		return parse_descr(x, h);
	if (k == KEY_SHAPE)
		return parse_shape(x, h);
	if (lex_word(x, "True"))
		h->fortran_order = true;
	else if (lex_word(x, "False"))
		h->fortran_order = false;
	else
		return lex_fail(x, "fortran_order must be True or False");
	return 0;
}

static int parse_dict(npy_lex *x, npy_header *h)
{
	unsigned seen = 0;
	if (lex_expect(x, '{', "expected '{'") < 0)
		return -1;
	while (!lex_accept(x, '}')) {
		if (parse_entry(x, h, &seen) < 0)
			return -1;
		if (!lex_accept(x, ',')) {
			if (lex_expect(x, '}', "expected ',' or '}'") < 0)
				return -1;
			break;
		}
	}
	while (x->pos < x->n && (x->s[x->pos] == ' ' || x->s[x->pos] == '\n' ||
				 x->s[x->pos] == '\t' || x->s[x->pos] == '\r'))
		x->pos++;
	if (x->pos != x->n)
		return lex_fail(x, "unexpected text after the header dict");
	if (seen != (KEY_DESCR | KEY_FORTRAN | KEY_SHAPE))
		return lex_fail(x, !(seen & KEY_DESCR) ? "the key 'descr' is missing"
				   : !(seen & KEY_SHAPE) ? "the key 'shape' is missing"
				   : "the key 'fortran_order' is missing");
	return 0;
}

/* ---- the fixed prefix, and the size check ---- */

static int parse_prefix(const char *path, const unsigned char *buf, size_t len,
			uint64_t file_size, npy_header *h, size_t *hlen, diag *d)
{
	if (len < sizeof npy_magic || memcmp(buf, npy_magic, sizeof npy_magic) != 0) {
		diag_file(d, path, "not a .npy file (bad magic; expected \\x93NUMPY)");
		return -1;
	}
	if (len < 8) {
		diag_file(d, path, "file ends inside the .npy header");
		return -1;
	}
	h->major = buf[6];
	h->minor = buf[7];
	if (h->major < 1 || h->major > 3 || h->minor != 0) {
		diag_file(d, path, ".npy format version %u.%u is not supported (expected 1.0, 2.0 or 3.0)",
			  h->major, h->minor);
		return -1;
	}
	size_t pre = h->major == 1 ? 10 : 12;
	if (len < pre) {
		diag_file(d, path, "file ends inside the .npy header length");
		return -1;
	}
	uint64_t n = (uint64_t)buf[8] | (uint64_t)buf[9] << 8;
	if (h->major > 1)
		n |= (uint64_t)buf[10] << 16 | (uint64_t)buf[11] << 24;
	if (pre + n > file_size) {
		diag_file(d, path, "the .npy header length (%" PRIu64 " bytes) runs past the end of the file (%" PRIu64 " bytes)",
			  n, file_size);
		return -1;
	}
	if (n > NPY_HEADER_MAX) {
		diag_file(d, path, "the .npy header (%" PRIu64 " bytes) is too large", n);
		return -1;
	}
	*hlen = (size_t)n;
	h->data_offset = pre + n;
	return 0;
}

static int check_data_size(const char *path, npy_header *h, uint64_t file_size,
			   diag *d)
{
	uint64_t count = 1;
	bool empty = false; /* a 0 anywhere: no element, whatever the others */
	for (unsigned i = 0; i < h->ndim; i++)
		empty |= h->shape[i] == 0;
	for (unsigned i = 0; i < h->ndim && !empty; i++) {
		if (count > UINT64_MAX / h->shape[i]) {
			diag_file(d, path, "the .npy shape has more elements than fit in 64 bits");
			return -1;
		}
		count *= h->shape[i];
	}
	h->count = empty ? 0 : count;
	count = h->count;
	if (!h->dtype.kind)
		return 0; /* the caller refuses the type itself */
	uint64_t have = file_size - h->data_offset;
	bool fits = count <= UINT64_MAX / h->dtype.size;
	if (fits && count * h->dtype.size == have)
		return 0;
	char shape[32 + 24 * NPY_MAX_DIMS], need[32] = "more than 2^64";
	npy_shape_text(h, shape, sizeof shape);
	if (fits)
		snprintf(need, sizeof need, "%" PRIu64, count * h->dtype.size);
	diag_file(d, path, "file is too %s: shape %s of '%s' needs %s bytes of data after the header, the file has %" PRIu64,
		  !fits || count * h->dtype.size > have ? "short" : "long", shape,
		  h->descr, need, have);
	return -1;
}

int npy_parse_header(const char *path, const unsigned char *buf, size_t len,
		     uint64_t file_size, npy_header *h, diag *d)
{
	memset(h, 0, sizeof *h);
	size_t hlen;
	if (parse_prefix(path, buf, len, file_size, h, &hlen, d) < 0)
		return -1;
	size_t pre = (size_t)h->data_offset - hlen;
	if (len < pre + hlen) {
		diag_file(d, path, "file ends inside the .npy header");
		return -1;
	}
	npy_lex x = { (const char *)buf + pre, hlen, 0, path, pre, d };
	if (parse_dict(&x, h) < 0)
		return -1;
	if (h->fortran_order) {
		diag_file(d, path, "fortran_order True (column-major data) is not supported; save a C-order array");
		return -1;
	}
	return check_data_size(path, h, file_size, d);
}

/* ---- files ---- */

/* A stream (standard input, a pipe, a character device) copied into an
 * anonymous temporary file, so that it can be sized and read as a
 * regular one; at most limit bytes.  NULL with d set. */
static FILE *spool_stream(FILE *in, const char *path, uint64_t limit, uint64_t *size,
			  diag *d)
{
	FILE *t = tmpfile();
	if (!t) {
		diag_file(d, path, "cannot make a temporary file to read it into: %s",
			  strerror(errno));
		return NULL;
	}
	unsigned char buf[65536];
	uint64_t n = 0;
	size_t got;
	while ((got = fread(buf, 1, sizeof buf, in)) > 0 && n <= limit) {
		n += got;
		if (n <= limit && fwrite(buf, 1, got, t) != got) {
			diag_file(d, path, "cannot keep the data read: %s", strerror(errno));
			fclose(t);
			return NULL;
		}
	}
	const char *bad = ferror(in) ? "cannot read" : n > limit ? "too large"
			: fflush(t) || fseek(t, 0, SEEK_SET) ? "cannot keep the data read" : NULL;
	if (bad) {
		if (n > limit)
			diag_file(d, path, "the data is larger than %" PRIu64 " bytes, the limit "
				  "of this input", limit);
		else
			diag_file(d, path, "%s: %s", bad, strerror(errno));
		fclose(t);
		return NULL;
	}
	*size = n;
	return t;
}

/* path opened for reading, with its size: a regular file as it is,
 * "-" (standard input) and other streams spooled (spool_stream), at most
 * limit bytes. */
static FILE *open_regular(const char *path, uint64_t limit, uint64_t *size, diag *d)
{
	const bool std_in = !strcmp(path, "-");
	FILE *f = std_in ? stdin : fopen(path, "rb");
	if (!f) {
		diag_file(d, path, "cannot open: %s", strerror(errno));
		return NULL;
	}
	struct stat st;
	if (fstat(fileno(f), &st) != 0 || S_ISDIR(st.st_mode)) {
		diag_file(d, path, "%s", S_ISDIR(st.st_mode) ? "is a directory" : strerror(errno));
		if (!std_in)
			fclose(f);
		return NULL;
	}
	if (S_ISREG(st.st_mode) && !std_in) {
		*size = (uint64_t)st.st_size;
		return f;
	}
	FILE *t = spool_stream(f, path, limit, size, d);
	if (!std_in)
		fclose(f);
	return t;
}

int npy_open(const char *path, npy_header *h, FILE **fp, diag *d)
{
	return npy_open_limit(path, NPY_STREAM_MAX, h, fp, d);
}

int npy_open_limit(const char *path, uint64_t limit, npy_header *h, FILE **fp, diag *d)
{
	uint64_t size;
	FILE *f = open_regular(path, limit, &size, d);
	if (!f)
		return -1;
	unsigned char pre[12];
	size_t got = fread(pre, 1, sizeof pre, f);
	size_t hlen;
	unsigned char *buf = NULL;
	int rc = parse_prefix(path, pre, got, size, h, &hlen, d);
	if (rc == 0) {
		size_t total = (size_t)h->data_offset;
		buf = malloc(total);
		if (!buf) {
			diag_file(d, path, "out of memory");
			rc = -1;
		} else {
			size_t have = got < total ? got : total;
			memcpy(buf, pre, have);
			if (fread(buf + have, 1, total - have, f) != total - have ||
			    fseek(f, (long)total, SEEK_SET) != 0) {
				diag_file(d, path, "read error in the .npy header");
				rc = -1;
			}
		}
	}
	if (rc == 0)
		rc = npy_parse_header(path, buf, (size_t)h->data_offset, size, h, d);
	free(buf);
	if (rc < 0) {
		fclose(f);
		return -1;
	}
	*fp = f;
	return 0;
}

int npy_open_raw(const char *path, npy_dtype dt, uint64_t count, FILE **fp,
		 diag *d)
{
	uint64_t size;
	const uint64_t want = count <= UINT64_MAX / dt.size ? count * dt.size : UINT64_MAX;
	FILE *f = open_regular(path, want < NPY_STREAM_MAX ? want : NPY_STREAM_MAX, &size, d);
	if (!f)
		return -1;
	if (count > UINT64_MAX / dt.size || size != count * dt.size) {
		diag_file(d, path, "raw data of %" PRIu64 " bytes; expected %" PRIu64 " (%" PRIu64 " elements of %u byte%s)",
			  size, count * dt.size, count, dt.size, dt.size > 1 ? "s" : "");
		fclose(f);
		return -1;
	}
	*fp = f;
	return 0;
}

static uint64_t item_value(const unsigned char *p, npy_dtype dt)
{
	uint64_t v = 0;
	for (unsigned k = 0; k < dt.size; k++)
		v |= (uint64_t)p[k] << (8 * k);
	if (dt.kind == 'i' && dt.size < 8 && (v >> (8 * dt.size - 1)) & 1)
		v |= ~UINT64_C(0) << (8 * dt.size);
	return v;
}

int npy_read_elems(FILE *f, const char *what, npy_dtype dt, uint64_t count,
		   uint64_t *values, diag *d)
{
	unsigned char chunk[1 << 16];
	size_t per = sizeof chunk / dt.size;
	for (uint64_t i = 0; i < count;) {
		size_t want = count - i < per ? (size_t)(count - i) : per;
		if (fread(chunk, dt.size, want, f) != want) {
			diag_file(d, what, "%s", ferror(f) ? strerror(errno)
							 : "unexpected end of file");
			return -1;
		}
		for (size_t k = 0; k < want; k++, i++) {
			values[i] = item_value(chunk + k * dt.size, dt);
			if (dt.kind == 'b' && values[i] > 1) {
				diag_file(d, what, "element %" PRIu64 " is %" PRIu64 ", not a bool (0 or 1)",
					  i, values[i]);
				return -1;
			}
		}
	}
	return 0;
}

static void put_items(unsigned char *out, npy_dtype dt, const uint64_t *values,
		      uint64_t count)
{
	for (uint64_t i = 0; i < count; i++)
		for (unsigned k = 0; k < dt.size; k++)
			out[i * dt.size + k] = (unsigned char)(values[i] >> (8 * k));
}

unsigned char *npy_build_raw(npy_dtype dt, const uint64_t *values,
			     uint64_t count, size_t *len)
{
	if (count > SIZE_MAX / dt.size)
		return NULL;
	unsigned char *out = malloc(count ? (size_t)count * dt.size : 1);
	if (!out)
		return NULL;
	put_items(out, dt, values, count);
	*len = (size_t)(count * dt.size);
	return out;
}

unsigned char *npy_build_shape(npy_dtype dt, const uint64_t *values, unsigned ndim,
			       const uint64_t *shape, size_t *len)
{
	char descr[16], dims[24 * NPY_MAX_DIMS + 4], dict[64 + sizeof dims];
	npy_descr(dt, descr, sizeof descr);
	if (ndim < 1 || ndim > NPY_MAX_DIMS)
		return NULL;
	uint64_t count = 1;
	size_t m = 0;
	for (unsigned k = 0; k < ndim; k++) {
		if (shape[k] && count > UINT64_MAX / shape[k])
			return NULL;
		count *= shape[k];
		m += (size_t)snprintf(dims + m, sizeof dims - m, "%" PRIu64 "%s", shape[k],
				      ndim == 1 ? "," : k + 1 < ndim ? ", " : "");
	}
	int n = snprintf(dict, sizeof dict,
			 "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }", descr, dims);
	/* The header is under 64 KiB, so version 1.0 (2-byte header length)
	 * always suffices.  The data starts on a 64-byte boundary. */
	size_t pre = 10, hlen = ((pre + (size_t)n + 1 + 63) / 64) * 64 - pre;
	if (count > (SIZE_MAX - pre - hlen) / dt.size)
		return NULL;
	size_t total = pre + hlen + (size_t)count * dt.size;
	unsigned char *out = malloc(total);
	if (!out)
		return NULL;
	memcpy(out, npy_magic, sizeof npy_magic);
	out[6] = 1;
	out[7] = 0;
	out[8] = (unsigned char)hlen;
	out[9] = (unsigned char)(hlen >> 8);
	memset(out + pre, ' ', hlen);
	memcpy(out + pre, dict, (size_t)n);
	out[pre + hlen - 1] = '\n';
	put_items(out + pre + hlen, dt, values, count);
	*len = total;
	return out;
}

unsigned char *npy_build(npy_dtype dt, const uint64_t *values, uint64_t count,
			 size_t *len)
{
	return npy_build_shape(dt, values, 1, &count, len);
}

int npy_save_shape(const char *path, npy_dtype dt, const uint64_t *values, unsigned ndim,
		   const uint64_t *shape, bool raw, diag *d)
{
	uint64_t count = 1;
	for (unsigned k = 0; k < ndim; k++)
		count *= shape[k];
	size_t len;
	unsigned char *bytes = raw ? npy_build_raw(dt, values, count, &len)
				   : npy_build_shape(dt, values, ndim, shape, &len);
	if (!bytes) {
		diag_file(d, path, "out of memory");
		return -1;
	}
	int rc = outfile_write(path, bytes, len, d);
	free(bytes);
	return rc;
}

int npy_save(const char *path, npy_dtype dt, const uint64_t *values,
	     uint64_t count, bool raw, diag *d)
{
	return npy_save_shape(path, dt, values, 1, &count, raw, d);
}
