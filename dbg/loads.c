/* SPDX-License-Identifier: MIT */
/*
 * loads.c: the data every run of the program starts from, after init=:
 * the files of `-l BUF=FILE` (as infsim run --load), and for a tDFG
 * program its arrays' load= files (doc/TDFG.md), read once when the
 * program is loaded.  A -l of an array wins over its load=.  The files
 * of --tdfg's arrays are the validator's (valid.c); this file hands them
 * out with the rest (dbg_loads_start).
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "dbg.h"
#include "elements.h"

/* Read path into buffer b's data of the runs; the node reference of a
 * tDFG program and --tdfg's validator take it as their input too. */
static int add_load(dbg_session *s, const emu_buffer *b, const char *path, diag *d)
{
	dbg_load *grown = realloc(s->loads, (s->nloads + 1) * sizeof *grown);
	if (!grown) {
		diag_file(d, path, "out of memory");
		return -1;
	}
	s->loads = grown;
	uint64_t *v = malloc(b->length ? b->length * sizeof *v : 1);
	if (!v) {
		diag_file(d, path, "out of memory for %" PRIu64 " elements", b->length);
		return -1;
	}
	if (emu_elements_read(path, b, v, d) < 0) {
		free(v);
		return -1;
	}
	s->loads[s->nloads++] = (dbg_load){ (size_t)(b - s->prog.bufs), v };
	if (s->valid && emu_valid_load(s->valid, b, v, d) < 0)
		return -1;
	if (!s->tdfg)
		return 0;
	const long n = emu_tdfg_find(&s->t, b->name, strlen(b->name));
	if (n >= 0 && emu_tref_input(s->tref, (size_t)n, v, b->length, d) < 0)
		return -1;
	for (size_t a = 0; a < s->t.narrays; a++)
		if (!strcmp(s->t.arrays[a].name, b->name) &&
		    emu_tref_array_input(s->tref, a, v, b->length, d) < 0)
			return -1;
	return 0;
}

/* "a, b, c" (cut short with ", ..."): the buffers a -l may name. */
static void buffer_names(const emu_program *p, char *out, size_t cap)
{
	size_t n = 0;
	out[0] = 0;
	for (size_t k = 0; k < p->nbufs && n + 70 < cap; k++)
		n += (size_t)snprintf(out + n, cap - n, "%s%s", k ? ", " : "", p->bufs[k].name);
	if (p->nbufs && n + 70 >= cap)
		snprintf(out + n, cap - n, ", ...");
}

int dbg_loads_read(dbg_session *s, const dbg_load_arg *args, size_t nargs, diag *d)
{
	for (size_t i = 0; i < nargs; i++) {
		const emu_buffer *b = dbg_find_buffer(s, args[i].name, strlen(args[i].name));
		if (!b) {
			char names[256];
			buffer_names(&s->prog, names, sizeof names);
			diag_file(d, "infsdb", "-l %s=%s: %s declares no %s '%s' (it has: %s)",
				  args[i].name, args[i].path, s->prog.path,
				  s->tdfg ? "array or tensor" : "buffer", args[i].name,
				  s->prog.nbufs ? names : "none");
			return -1;
		}
		if (add_load(s, b, args[i].path, d) < 0)
			return -1;
	}
	/* --tdfg's arrays' load= files, read as infsim run reads them
	 * (emu_valid_load_arrays skips the arrays a -l gave). */
	if (s->valid && emu_valid_load_arrays(s->valid, d) < 0)
		return -1;
	/* A tDFG program's load= arrays, unless a -l gave the array. */
	for (size_t a = 0; s->tdfg && a < s->t.narrays; a++) {
		const emu_tarray *ta = &s->t.arrays[a];
		bool given = false;
		for (size_t i = 0; i < nargs; i++)
			given |= !strcmp(args[i].name, ta->name);
		const emu_buffer *b = ta->load[0] && !given ? dbg_find_buffer(s, ta->name, strlen(ta->name))
								 : NULL;
		if (b && add_load(s, b, ta->load, d) < 0)
			return -1;
	}
	return 0;
}

void dbg_loads_start(const dbg_session *s, emu_machine *em, emu_ref *ref)
{
	dbg_valid_start(s, em, ref);
	for (size_t i = 0; i < s->nloads; i++) {
		const emu_buffer *b = &s->prog.bufs[s->loads[i].buf];
		if (em)
			emu_ttu_store(em, b, s->loads[i].v, b->length);
		if (ref)
			emu_ref_store(ref, b, s->loads[i].v, b->length);
	}
}

void dbg_loads_free(dbg_session *s)
{
	for (size_t i = 0; i < s->nloads; i++)
		free(s->loads[i].v);
	free(s->loads);
	s->loads = NULL;
	s->nloads = 0;
}
