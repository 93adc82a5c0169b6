/* SPDX-License-Identifier: MIT */
/*
 * elements.h: a buffer's elements in files (prefix emu_elements_): a
 * NumPy .npy file, or a raw .bin of the same items (doc/USAGE.md,
 * "Loading and saving buffers").  `infsim run --load`, an array's
 * `load=` in a tDFG and the validation of a stream against a tDFG all
 * read through here, so one file means the same data to each.
 */
#ifndef INFSIM_ELEMENTS_H
#define INFSIM_ELEMENTS_H

#include <stdint.h>

#include "api.h"
#include "diag.h"
#include "npy.h"
#include "program.h"

INFSIM_BEGIN_DECLS

/* The file type of buffer b's elements. */
npy_dtype emu_elements_dtype(const emu_buffer *b);
/* Read path (.npy, or raw .bin by its name) for buffer b into
 * values[b->length], as b's n-bit patterns.  The file must hold exactly
 * b's elements, of b's type, each fitting b's width.  0, or -1 with d
 * set naming the file. */
int emu_elements_read(const char *path, const emu_buffer *b, uint64_t *values, diag *d);

INFSIM_END_DECLS

#endif
