/* SPDX-License-Identifier: MIT */
/* export.c: a case as a launch text and .npy files; see cases.h. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cases.h"
#include "diag.h"
#include "npy.h"

static const char *type_of(const ck_array *a)
{
	return a->elem == 1 ? "u8" : a->elem == 2 ? "u16" : a->elem == 8 ? "u64" : "u32";
}

int ck_case_export(const ck_case *c, const char *dir, FILE *cmd)
{
	char path[1024];
	(void)mkdir(dir, 0777); /* or it is there */
	snprintf(path, sizeof path, "%s/launch", dir);
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		return -1;
	}
	fprintf(f, "# %s: %zu launches (tests/ck_export)\n", c->name, c->nlaunches);
	bool declared[CK_MAX_ARRAYS] = { false };
	for (size_t li = 0; li < c->nlaunches; li++) {
		const ck_launch *l = &c->launches[li];
		fprintf(f, "%s<<<(%" PRIu32 ",%" PRIu32 ",%" PRIu32 "),(%" PRIu32 ",%" PRIu32 ",%" PRIu32 ")>>>(",
			l->kernel, l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2]);
		for (size_t i = 0; i < l->nargs; i++) {
			const ck_arg *g = &l->args[i];
			if (i)
				fputs(", ", f);
			if (g->kind == CK_ARG_ARRAY) {
				const ck_array *a = &c->arrays[g->array];
				if (declared[g->array]) {
					fputs(a->name, f);
				} else {
					fprintf(f, "%s:%s[%zu]", a->name, type_of(a), a->n);
					declared[g->array] = true;
				}
			} else if (g->kind == CK_ARG_F32) {
				uint32_t b = (uint32_t)g->bits;
				float v;
				memcpy(&v, &b, 4);
				fprintf(f, "%.9g", (double)v);
			} else if (g->kind == CK_ARG_U32) {
				fprintf(f, "%" PRId32, (int32_t)(uint32_t)g->bits);
			} else {
				fprintf(f, "%" PRIu64, g->bits);
			}
		}
		fprintf(f, ")%s\n", li + 1 < c->nlaunches ? ";" : "");
	}
	if (fclose(f) != 0) {
		perror(path);
		return -1;
	}
	fprintf(cmd, "infsim run %s --launch @%s/launch", c->ptx, dir);
	for (size_t i = 0; i < c->narrays; i++) {
		const ck_array *a = &c->arrays[i];
		if (!declared[i])
			continue;
		uint64_t *v = malloc((a->n ? a->n : 1) * sizeof *v);
		if (!v) {
			fputs("ck_export: out of memory\n", stderr);
			return -1;
		}
		const unsigned char *b = a->init;
		for (size_t e = 0; e < a->n; e++) {
			uint64_t x = 0;
			memcpy(&x, b + e * a->elem, a->elem); /* little-endian host */
			v[e] = x;
		}
		snprintf(path, sizeof path, "%s/%s.npy", dir, a->name);
		diag d;
		diag_clear(&d);
		int rc = npy_save(path, (npy_dtype){ 'u', (unsigned)a->elem }, v, a->n, false, &d);
		free(v);
		if (rc < 0) {
			fprintf(stderr, "%s\n", d.msg);
			return -1;
		}
		fprintf(cmd, " -l %s=%s", a->name, path);
	}
	fprintf(cmd, "\n");
	return 0;
}

