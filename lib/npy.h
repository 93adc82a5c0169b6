/* SPDX-License-Identifier: MIT */
/*
 * npy.h: NumPy .npy files of integers, floats and booleans (prefix npy_).
 *
 * The format (numpy.lib.format): the magic "\x93NUMPY", a major and minor
 * version, the length of a header (2 bytes in version 1.0, 4 bytes in
 * 2.0 and 3.0, little-endian), the header itself, a Python dict literal
 *     {'descr': '<i4', 'fortran_order': False, 'shape': (1000,), }
 * padded with spaces and ended by '\n', then the elements in C order.
 *
 * Reading accepts versions 1.0, 2.0 and 3.0.  The header parser is strict
 * and bounded: it reads nothing past the header's stated length, accepts
 * exactly the three keys, and checks that the shape's element count times
 * the item size is the number of bytes after the header before anything
 * is allocated, so a lying header cannot cause a huge allocation.
 * Writing produces version 1.0 (a 1-D header always fits its 2-byte
 * length), padded so the data starts at a multiple of 64 bytes, as NumPy
 * does.
 */
#ifndef INFSIM_NPY_H
#define INFSIM_NPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "api.h"
#include "diag.h"

INFSIM_BEGIN_DECLS

#define NPY_MAX_DIMS 32
/* numpy refuses headers past 10000 bytes unless told otherwise; a
 * one-dimensional header is under 128.  1 MiB leaves room for any real
 * shape and still bounds what a lying header length can make us read. */
#define NPY_HEADER_MAX (UINT32_C(1) << 20)
/* The most bytes read from standard input ("-"), a pipe or a device,
 * which are copied to a temporary file first (a regular file is read in
 * place, within its size), unless the caller gives a tighter limit
 * (npy_open_limit; npy_open_raw: exactly the items it expects). */
#define NPY_STREAM_MAX (UINT64_C(1) << 30)

/* An element type: kind 'b' (bool), 'i' (signed), 'u' (unsigned) or 'f'
 * (IEEE float, 2, 4 or 8 bytes, read and written as its raw bits), and
 * the item size in bytes. */
typedef struct npy_dtype {
	char kind;
	unsigned size;
} npy_dtype;

/* What a header says. */
typedef struct npy_header {
	unsigned major, minor;
	char descr[16];        /* as written, e.g. "<i4" */
	npy_dtype dtype;       /* kind 0 if descr is not a plain number type */
	char order;            /* '<', '>', '|' or '=' */
	bool fortran_order;
	unsigned ndim;
	uint64_t shape[NPY_MAX_DIMS];
	uint64_t count;        /* elements: the product of shape */
	uint64_t data_offset;  /* bytes before the first element */
} npy_header;

/* The descr string of dt ("<i4", "|u1", "|b1"). */
void npy_descr(npy_dtype dt, char *buf, size_t size);
/* Is the header's element type exactly dt, stored little-endian? */
bool npy_dtype_matches(const npy_header *h, npy_dtype dt);
/* "(3, 4)" or "(1000,)". */
void npy_shape_text(const npy_header *h, char *buf, size_t size);

/* Parse the first len bytes of a file (at least the whole header).
 * file_size is the full size of the file: the data after the header must
 * be exactly count * item size bytes.  Returns 0, or -1 with a message
 * "PATH: error: ..." in d (offset of the problem when it helps). */
int npy_parse_header(const char *path, const unsigned char *buf, size_t len,
		     uint64_t file_size, npy_header *h, diag *d);

/* Open path and parse its header; on success *fp is positioned at the
 * first element.  "-" is standard input; it, pipes and devices are read
 * within NPY_STREAM_MAX bytes.  -1 with d set on failure (nothing is
 * left open). */
int npy_open(const char *path, npy_header *h, FILE **fp, diag *d);
/* The same, a stream read within limit bytes (a caller that knows how
 * many elements it wants: NPY_HEADER_MAX + 16 + their bytes). */
int npy_open_limit(const char *path, uint64_t limit, npy_header *h, FILE **fp, diag *d);

/* Open a raw little-endian file (.bin) that must hold exactly count
 * items of dt.  -1 with d set on failure. */
int npy_open_raw(const char *path, npy_dtype dt, uint64_t count, FILE **fp,
		 diag *d);

/* Read count little-endian elements of type dt from f into values,
 * sign-extended ('i') or zero-extended ('u', 'b', and 'f' bits).  A bool element must
 * be 0 or 1.  what names the file in messages.  0, or -1 with d set. */
int npy_read_elems(FILE *f, const char *what, npy_dtype dt, uint64_t count,
		   uint64_t *values, diag *d);

/* The bytes of a complete .npy file holding values as a 1-D array of
 * type dt (values truncated to the item size).  malloc'd; NULL if out of
 * memory. */
unsigned char *npy_build(npy_dtype dt, const uint64_t *values, uint64_t count,
			 size_t *len);
/* Little-endian items of dt without a header (raw .bin). */
unsigned char *npy_build_raw(npy_dtype dt, const uint64_t *values,
			     uint64_t count, size_t *len);
/* Write values as a .npy file (raw: as a .bin file, items without a
 * header) at path, whole or not at all (the file appears only once it is
 * complete).  0, or -1 with d set (out of memory, or why the file could
 * not be written). */
/* The same with a shape (ndim 1..NPY_MAX_DIMS, C order); NULL out of
 * memory or when the shape's product overflows. */
unsigned char *npy_build_shape(npy_dtype dt, const uint64_t *values, unsigned ndim,
			       const uint64_t *shape, size_t *len);
int npy_save_shape(const char *path, npy_dtype dt, const uint64_t *values, unsigned ndim,
		   const uint64_t *shape, bool raw, diag *d);
int npy_save(const char *path, npy_dtype dt, const uint64_t *values,
	     uint64_t count, bool raw, diag *d);

INFSIM_END_DECLS

#endif
