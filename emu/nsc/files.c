/* SPDX-License-Identifier: MIT */
/*
 * files.c: arrays of the flat memory to and from NumPy .npy files
 * (lib/npy.h); the file's dtype must be the array's, its length the
 * array's length.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "npy.h"
#include "nsc_int.h"

static npy_dtype dtype_of(nsc_type t)
{
	static const char kinds[NSC_NTYPES] = { 'i', 'u', 'i', 'u', 'i', 'f', 'f' };
	return (npy_dtype){ kinds[t], nsc_type_size(t) };
}

int nsc_npy_load(nsc_mem *m, int ai, const char *path, diag *d)
{
	const nsc_array *a = &m->p->arrays[ai];
	npy_header h;
	FILE *f;
	if (npy_open(path, &h, &f, d) < 0)
		return -1;
	const npy_dtype dt = dtype_of(a->type);
	char want[16];
	npy_descr(dt, want, sizeof want);
	uint64_t *v = NULL;
	int rc = -1;
	if (!npy_dtype_matches(&h, dt))
		diag_file(d, path, "holds %s elements; array %s needs %s", h.descr, a->name, want);
	else if (h.count != a->count)
		diag_file(d, path, "holds %" PRIu64 " elements; array %s has %" PRIu64, h.count, a->name,
			  a->count);
	else if (!(v = malloc(a->count * sizeof *v)))
		diag_file(d, path, "out of memory");
	else if (npy_read_elems(f, path, dt, a->count, v, d) == 0) {
		for (uint64_t i = 0; i < a->count; i++)
			nsc_mem_set_bits(m, ai, i, v[i]);
		rc = 0;
	}
	free(v);
	fclose(f);
	return rc;
}

int nsc_npy_save(const nsc_mem *m, int ai, const char *path, diag *d)
{
	const nsc_array *a = &m->p->arrays[ai];
	uint64_t *v = malloc(a->count * sizeof *v);
	if (!v) {
		diag_file(d, path, "out of memory");
		return -1;
	}
	for (uint64_t i = 0; i < a->count; i++)
		v[i] = nsc_mem_bits(m, ai, i);
	int rc = npy_save(path, dtype_of(a->type), v, a->count, false, d);
	free(v);
	return rc;
}
