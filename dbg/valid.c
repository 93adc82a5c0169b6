/* SPDX-License-Identifier: MIT */
/*
 * valid.c: infsdb STREAM --tdfg FILE: a command stream checked against
 * the tDFG it was lowered from (emu/validate.h, doc/TDFG.md "Validating
 * a stream").  `check` compares the nodes whose markers stand at the
 * position; `check every node` stops at the first marker whose node the
 * machine does not hold, with the command the bisection found.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "dbg.h"
#include "tdfg_json.h"

int dbg_valid_load(dbg_session *s, const char *path, const char *type,
		   const emu_tdfg_def *defs, size_t ndefs, diag *d)
{
	if (s->tdfg) {
		diag_file(d, "infsdb", "--tdfg: '%s' is a tDFG already; --tdfg validates a command "
			  "stream (.ins, .inb) against one", s->prog.path);
		return -1;
	}
	emu_geom_override ov;
	emu_geom_override_init(&ov);
	ov.g = s->prog.geom;
	ov.keys = ~0u; /* the tDFG on the stream's machine */
	emu_tdfg_init(&s->vt);
	if (emu_tdfg_json_path(path)) {
		if (!type) {
			diag_file(d, "infsdb", "--tdfg %s: an artifact's tDFG (.json) has no element "
				  "type; give one with --type (f32, i32, ...)", path);
			return -1;
		}
		if (ndefs) {
			diag_file(d, "infsdb", "-D %s: parameters are a tDFG's (.tdfg), not %s's",
				  defs[0].name, path);
			return -1;
		}
		if (emu_tdfg_json_parse_file(path, type, &s->prog.geom, &ov, &s->vt, d) < 0)
			return -1;
	} else if (emu_tdfg_parse_file_defs(path, &s->prog.geom, &ov, defs, ndefs, &s->vt,
					    d) < 0) {
		return -1;
	}
	s->valid = emu_valid_new(&s->vt, &s->prog, d);
	return s->valid ? 0 : -1;
}

void dbg_valid_start(const dbg_session *s, emu_machine *em, emu_ref *ref)
{
	const emu_buffer *b;
	const uint64_t *v;
	for (size_t i = 0; s->valid && (v = emu_valid_loaded(s->valid, i, &b)); i++) {
		if (em)
			emu_ttu_store(em, b, v, b->length);
		if (ref)
			emu_ref_store(ref, b, v, b->length);
	}
}

void dbg_valid_free(dbg_session *s)
{
	if (!s->valid)
		return;
	emu_valid_free(s->valid);
	emu_tdfg_free(&s->vt);
	s->valid = NULL;
}

/* Compare the check points at the position.  1 when they agree, 0 when
 * one differs (reported), -1 on an error. */
static int compare_here(dbg_session *s, size_t from)
{
	emu_valid_report rep;
	diag d;
	diag_clear(&d);
	emu_valid_seek(s->valid, from);
	const int rc = emu_valid_at(s->valid, s->em, &rep, &d);
	if (rc < 0)
		dbg_error(s, "%s", d.msg);
	if (rc == 0) {
		fputs(rep.text, stdout);
		s->mismatch = true;
	}
	return rc;
}

int dbg_valid_check(dbg_session *s)
{
	if (s->em->upc) {
		printf("check: node markers are between commands; command %zu is at micro-op %zu.\n",
		       s->em->pc, s->em->upc);
		return 0;
	}
	emu_valid_seek(s->valid, s->em->pc);
	const size_t from = emu_valid_compared(s->valid);
	const int rc = compare_here(s, s->em->pc);
	if (rc == 1) {
		const size_t n = emu_valid_compared(s->valid) - from;
		printf("check: %zu check point%s of %s at this position (after command %zu) hold%s "
		       "what the tDFG means.\n", n, n == 1 ? "" : "s", s->vt.path, s->em->pc,
		       n == 1 ? "s" : "");
	}
	return rc < 0 ? -1 : 0;
}

bool dbg_valid_diverged(dbg_session *s)
{
	if (!s->check_every_node || !s->valid || s->em->upc != 0 || s->em->pc == 0)
		return false;
	/* markers before the first command are compared after it: the
	 * machine first stops there */
	if (compare_here(s, s->em->pc == 1 ? 0 : s->em->pc) != 0)
		return false;
	dbg_report_stop(s);
	return true;
}
