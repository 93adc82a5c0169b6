/* SPDX-License-Identifier: MIT */
/*
 * files.c: arrays to and from NumPy .npy files (lib/npy.h): the dtype is
 * the array's (<i4 <u4 <i8 <u8 <f4 <f8), any shape with the array's
 * element count; floats travel as their bits.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "npy.h"
#include "vima_int.h"

static npy_dtype dtype_of(vima_type t)
{
	static const char kinds[VIMA_NTYPES] = { 'i', 'u', 'i', 'u', 'f', 'f' };
	return (npy_dtype){ kinds[t], vima_type_size(t) };
}

/* The values of file path for array a, as raw element bits.  malloc'd. */
static uint64_t *read_values(const vima_array *a, const char *path, diag *d)
{
	npy_header h;
	FILE *f;
	if (npy_open(path, &h, &f, d) < 0)
		return NULL;
	const npy_dtype dt = dtype_of(a->type);
	char want[16];
	npy_descr(dt, want, sizeof want);
	uint64_t *v = NULL;
	if (!npy_dtype_matches(&h, dt))
		diag_file(d, path, "holds %s elements; array %s needs %s", h.descr, a->name, want);
	else if (h.count != a->count)
		diag_file(d, path, "holds %" PRIu64 " elements; array %s has %" PRIu64, h.count,
			  a->name, a->count);
	else if (!(v = malloc(a->count * sizeof *v)))
		diag_file(d, path, "out of memory");
	else if (npy_read_elems(f, path, dt, a->count, v, d) < 0) {
		free(v);
		v = NULL;
	}
	fclose(f);
	return v;
}

static void pack(const vima_array *a, const uint64_t *v, uint8_t *bytes)
{
	const unsigned sz = vima_type_size(a->type);
	for (uint64_t k = 0; k < a->count; k++)
		memcpy(bytes + k * sz, &v[k], sz); /* little-endian host */
}

static uint64_t elem_at(const vima_array *a, const uint8_t *bytes, uint64_t k)
{
	uint64_t v = 0;
	memcpy(&v, bytes + k * vima_type_size(a->type), vima_type_size(a->type));
	return v;
}

int vima_npy_load(vima_unit *u, int ai, const char *path, diag *d)
{
	const vima_array *a = &u->p->arrays[ai];
	uint64_t *v = read_values(a, path, d);
	uint8_t *bytes = v ? malloc(a->bytes) : NULL;
	if (v && !bytes)
		diag_file(d, path, "out of memory");
	if (bytes) {
		pack(a, v, bytes);
		vima_write_array(u, ai, bytes);
	}
	free(v);
	free(bytes);
	return bytes ? 0 : -1;
}

int vima_npy_save(const vima_unit *u, int ai, const char *path, diag *d)
{
	const vima_array *a = &u->p->arrays[ai];
	uint8_t *bytes = malloc(a->bytes);
	uint64_t *v = malloc(a->count * sizeof *v);
	int rc = -1;
	if (bytes && v) {
		vima_read_array(u, ai, bytes);
		for (uint64_t k = 0; k < a->count; k++)
			v[k] = elem_at(a, bytes, k);
		rc = npy_save(path, dtype_of(a->type), v, a->count, false, d);
	} else {
		diag_file(d, path, "out of memory");
	}
	free(bytes);
	free(v);
	return rc;
}

int vima_npy_expect(const vima_unit *u, int ai, const char *path, diag *d)
{
	const vima_array *a = &u->p->arrays[ai];
	uint64_t *v = read_values(a, path, d);
	uint8_t *bytes = v ? malloc(a->bytes) : NULL;
	int rc = -1;
	if (v && !bytes)
		diag_file(d, path, "out of memory");
	if (bytes) {
		vima_read_array(u, ai, bytes);
		rc = 0;
		const uint64_t mask = vima_type_size(a->type) == 8 ? ~0ull : 0xffffffffull;
		for (uint64_t k = 0; k < a->count && rc == 0; k++)
			if (elem_at(a, bytes, k) != (v[k] & mask)) {
				diag_file(d, path, "%s[%" PRIu64 "] is 0x%" PRIx64 "; expected 0x%" PRIx64,
					  a->name, k, elem_at(a, bytes, k), v[k] & mask);
				rc = 1;
			}
	}
	free(v);
	free(bytes);
	return rc;
}
