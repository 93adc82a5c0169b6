/* SPDX-License-Identifier: MIT */
/*
 * target.c: the in-cache machine's table (tgt_stream), its options and
 * settings, opening a stream or a tDFG, and its arrays (incache.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "incache.h"
#include "isa.h"
#include "layout.h"
#include "mem.h"
#include "opts.h"
#include "move.h"
#include "tdfg_json.h"

static const char *const exts[] = { ".ins", ".inb", ".tdfg", ".json", NULL };

enum { OPT_TDFG, OPT_TYPE, OPT_INPUTS, OPT_STEPI, OPT_TP_CORE, OPT_LAT_JIT,
       OPT_LAT_JIT_CMD, OPT_OFFLOAD };

const char *const inc_offload_names[4] = {"in", "auto", "near", "core"};

static const tgt_option options[] = {
	[OPT_TDFG] = { "tdfg", TGT_OPT_ARG, "FILE", "validate the stream against the tDFG it was "
		       "lowered from (.tdfg with -D, or .json with --type): after each 'node' "
		       "marker compare the node's tensor with what the tDFG means, at the end "
		       "every output, input and array, and no stray write; on the first "
		       "difference name the node, its first wrong element and the command that "
		       "made it (exit 3)" },
	[OPT_TYPE] = { "type", TGT_OPT_ARG, "TYPE", "the element type of an artifact's tDFG "
		       "(.json): f32, or iN or uN with N 8, 16, 32 or 64" },
	[OPT_INPUTS] = { "inputs", TGT_OPT_ARG, "SET[,SET]...", "with --tdfg, validate again on "
			 "generated input sets, after the given data: random[:N] (N sets of "
			 "random bits), edge[:N] (the element type's edge values among random "
			 "ones); N 1 to 1000" },
	[OPT_STEPI] = { "stepi", 0, NULL, "run one micro-op at a time (same bits, slower)" },
	[OPT_TP_CORE] = { "tp-core", TGT_OPT_ARG, "N", "Eq. 2's TP_core, the core's operations "
			  "per cycle (16), for the offload decision (--offload=auto) and the statistics" },
	[OPT_LAT_JIT] = { "lat-jit", TGT_OPT_ARG, "N", "Eq. 2's Lat_JIT, the JIT's cycles per "
			  "node (1000), in Eq. 2 and in the JIT's cycles of the statistics" },
	[OPT_LAT_JIT_CMD] = { "lat-jit-cmd", TGT_OPT_ARG, "N", "the JIT's cycles per command "
			      "and L3 bank (4), in the JIT's cycles of the statistics" },
	[OPT_OFFLOAD] = { "offload", TGT_OPT_ARG, "in|auto|near|core", "where a tDFG's regions "
			  "run: in memory, on the bitlines (in, the default: In-L3); as Eq. 2 decides "
			  "for each region run (auto); near memory, on the stream engines (near: "
			  "Near-L3); or at the core (core: Base)" },
	{ NULL, 0, NULL, NULL },
};

/* A stream or a tDFG read from standard input: the binary form's NUL
 * bytes, a stream's first statement (buffer, tensor, machine), a tDFG's
 * region line (its first statements may be param or array lines, as
 * other systems' are), or the artifact's JSON. */
static bool claims(const char *head, size_t n)
{
	if (memchr(head, '\0', n < 16 ? n : 16))
		return true;
	char w[64];
	if (!tgt_head_word(head, n, 0, w, sizeof w))
		return false;
	size_t i = 0;
	while (i < n && (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' || head[i] == '\n'))
		i++;
	return (i < n && head[i] == '{') || !strcmp(w, "buffer") || !strcmp(w, "tensor") ||
	       !strcmp(w, "machine") || tgt_head_has(head, n, "region");
}

static bool is_json(const tgt *t)
{
	return emu_tdfg_json_path(t->a.path) ||
	       (!strcmp(t->a.path, "-") && t->a.len && t->a.text[strspn(t->a.text, " \t\r\n")] == '{');
}

/* A tDFG in text: by its name, or on standard input by a region line. */
static bool is_tdfg_text(const tgt *t)
{
	if (emu_tdfg_path(t->a.path))
		return true;
	if (strcmp(t->a.path, "-") != 0)
		return false;
	for (size_t i = 0; i + 7 < t->a.len; i++)
		if ((i == 0 || t->a.text[i - 1] == '\n') && !strncmp(t->a.text + i, "region ", 7))
			return true;
	return false;
}

/* --inputs=random[:N],edge[:N]: how many sets of each kind. */
static int parse_inputs(const char *arg, unsigned sets[2], diag *d)
{
	const char *p = arg;
	sets[0] = sets[1] = 0;
	while (*p) {
		const size_t n = strcspn(p, ":,");
		const int k = n == 6 && !strncmp(p, "random", 6) ? 0 : n == 4 && !strncmp(p, "edge", 4)
			      ? 1 : -1;
		if (k < 0) {
			diag_file(d, "--inputs", "'%s': expected random[:N] or edge[:N], found '%.*s'",
				  arg, (int)n, p);
			return -1;
		}
		if (sets[k]) {
			diag_file(d, "--inputs", "'%s': '%.*s' is given twice", arg, (int)n, p);
			return -1;
		}
		p += n;
		long count = 1;
		if (*p == ':') {
			char *end;
			errno = 0;
			count = strtol(p + 1, &end, 10);
			if (errno || end == p + 1 || (*end && *end != ',') || count < 1 || count > 1000) {
				diag_file(d, "--inputs", "'%s': expected a number of sets from 1 to 1000 "
					  "after '%.*s:'", arg, (int)n, p - n);
				return -1;
			}
			p = end;
		}
		sets[k] = (unsigned)count;
		if (*p == ',' && !*++p) {
			diag_file(d, "--inputs", "'%s': expected a set after ','", arg);
			return -1;
		}
	}
	if (!sets[0] && !sets[1]) {
		diag_file(d, "--inputs", "'%s': expected random[:N] or edge[:N]", arg);
		return -1;
	}
	return 0;
}

/* The target's own options into t.  0, or -1 with d set (a usage error). */
static int take_options(tgt *t, diag *d)
{
	for (size_t i = 0; i < t->a.nopts; i++) {
		const char *v = t->a.opts[i].value;
		char *end;
		switch (t->a.opts[i].opt - options) {
		case OPT_TDFG:
			t->tdfg = v;
			break;
		case OPT_TYPE: {
			unsigned fmt, width, sg;
			const char *why;
			if (emu_tdfg_json_type(v, &fmt, &width, &sg, &why)) {
				diag_file(d, "--type", "'%s': %s", v, why);
				return -1;
			}
			t->type = v;
			break;
		}
		case OPT_INPUTS:
			if (parse_inputs(v, t->sets, d) < 0)
				return -1;
			break;
		case OPT_STEPI:
			t->stepi = true;
			break;
		case OPT_TP_CORE:
			errno = 0;
			t->tp_core = strtod(v, &end);
			if (errno || end == v || *end || !(t->tp_core > 0 && t->tp_core <= 1e9)) {
				diag_file(d, "--tp-core", "'%s': expected the core's operations per "
					  "cycle, a number above 0 and at most 1e9", v);
				return -1;
			}
			break;
		case OPT_LAT_JIT:
			errno = 0;
			t->lat_jit = strtol(v, &end, 10);
			if (errno || end == v || *end || t->lat_jit < 0 || t->lat_jit > 1000000000L) {
				diag_file(d, "--lat-jit", "'%s': expected the JIT's cycles per node, 0 "
					  "to 1000000000", v);
				return -1;
			}
			break;
		case OPT_OFFLOAD: {
			unsigned k = 0;
			while (k < 4 && strcmp(v, inc_offload_names[k]) != 0)
				k++;
			if (k == 4) {
				diag_file(d, "--offload", "'%s': expected in, auto, near or core", v);
				return -1;
			}
			t->offload = k;
			break;
		}
		case OPT_LAT_JIT_CMD:
			errno = 0;
			t->lat_jit_cmd = strtol(v, &end, 10);
			if (errno || end == v || *end || t->lat_jit_cmd < 0 ||
			    t->lat_jit_cmd > 1000000L) {
				diag_file(d, "--lat-jit-cmd", "'%s': expected the JIT's cycles per "
					  "command and bank, 0 to 1000000", v);
				return -1;
			}
			break;
		}
	}
	if (!t->tdfg && (t->sets[0] || t->sets[1])) {
		diag_file(d, "--inputs", "validates on generated data against a tDFG; give it "
			  "with --tdfg FILE");
		return -1;
	}
	return 0;
}

int inc_settings(const tgt_setting *set, size_t n, emu_geom_override *o, diag *d)
{
	emu_geom_override_init(o);
	for (size_t i = 0; i < n; i++) {
		const tgt_setting *s = &set[i];
		const char *err = NULL;
		if (emu_geom_override_set(o, s->key, s->value, &err) == 0)
			continue;
		if (s->file)
			diag_at(d, s->file, (int)s->line, (int)s->col, "%s = %s: %s", s->key, s->value,
				err);
		else
			diag_file(d, "--machine", "'%s=%s': %s", s->key, s->value, err);
		return -1;
	}
	/* each key was checked alone; here the machine they make */
	const char *err = sram_geom_check(&o->g);
	if (err && n && set[n - 1].file)
		diag_file(d, set[n - 1].file, "the machine it describes is not valid: %s", err);
	else if (err && n)
		diag_file(d, "--machine", "makes a machine that is not valid: %s", err);
	return err && n ? -1 : 0;
}

int inc_machine_opts(const tgt_opts *o, const char *cmd, emu_geom_override *ov)
{
	tgt_settings st;
	diag d;
	diag_clear(&d);
	int rc = tgt_opts_settings(&tgt_stream, o, cmd, &st);
	if (!rc && inc_settings(st.s, st.n, ov, &d) < 0)
		rc = tgt_opts_open_usage(&d, cmd);
	tgt_opts_settings_free(&st);
	return rc;
}

int inc_need_commands(const emu_program *p, diag *d)
{
	if (p->ncmds)
		return 0;
	diag_file(d, p->path, "the stream has no command: it runs nothing (its buffers alone "
		  "compute nothing)");
	return -1;
}

emu_tdfg_def *inc_defs(const tgt_def *defs, size_t n)
{
	emu_tdfg_def *t = calloc(n + 1, sizeof *t);
	for (size_t i = 0; t && i < n; i++)
		t[i] = (emu_tdfg_def){ defs[i].name, defs[i].value };
	return t;
}

/* The program: a stream, or a tDFG lowered by the JIT.  TGT_OK, or
 * TGT_USAGE / TGT_FAILED with d set. */
static tgt_status load_program(tgt *t, const emu_geom_override *ov, diag *d)
{
	const tgt_load *a = &t->a;
	const bool json = is_json(t), text = !json && is_tdfg_text(t);
	const bool vjson = t->tdfg && emu_tdfg_json_path(t->tdfg);
	if (json && !t->type) {
		diag_file(d, a->path, "an artifact's tDFG (.json) has no element type; give one with "
			  "--type (f32, i32, ...)");
		return TGT_USAGE;
	}
	if (!json && t->type && !vjson) {
		diag_file(d, "--type", "applies to an artifact's tDFG (.json), not to '%s'",
			  a->path);
		return TGT_USAGE;
	}
	if (a->ndefs && !text && !(t->tdfg && !vjson)) {
		diag_file(d, "-D", "%s: parameters are a tDFG's (.tdfg), not %s's", a->defs[0].name,
			  json ? a->path : t->tdfg ? t->tdfg : a->path);
		return TGT_USAGE;
	}
	if (t->tdfg && (json || text)) {
		diag_file(d, "--tdfg:", "'%s' is a tDFG already; --tdfg validates a command stream "
			  "(.ins, .inb) against one", a->path);
		return TGT_USAGE;
	}
	const sram_geom def = sram_geom_default();
	if (json && a->len > EMU_TDFG_JSON_MAX_BYTES) {
		diag_file(d, a->path, "the file is larger than %u bytes, the limit of this input",
			  EMU_TDFG_JSON_MAX_BYTES);
		return TGT_FAILED;
	}
	if (json || text) {
		t->is_tdfg = true;
		memset(&t->j, 0, sizeof t->j);
		emu_program_init(&t->j.prog);
		int rc = json ? emu_tdfg_json_parse(a->path, a->text, a->len, t->type, &def, ov, &t->t, d)
			      : emu_tdfg_parse_defs(a->path, a->text, a->len, &def, ov, t->defs,
						    a->ndefs, &t->t, d);
		if (rc == 0)
			rc = emu_jit_lower(&t->t, &t->j, d);
		if (rc < 0)
			return TGT_FAILED;
		t->p = t->j.prog; /* the target owns the lowered stream */
		emu_program_init(&t->j.prog);
		return TGT_OK;
	}
	int rc = emu_load_text(a->path, a->text, a->len, ov, &t->p, d);
	if (rc == EMU_LOAD_FIXED_MACHINE)
		return TGT_USAGE;
	if (rc == 0)
		rc = emu_program_lower(&t->p, d);
	return rc < 0 ? TGT_FAILED : TGT_OK;
}

/* --tdfg: the tDFG, read on the stream's machine (its settings decide
 * what the commands compute). */
static tgt_status load_vtdfg(tgt *t, diag *d)
{
	const emu_mark *m = t->is_tdfg || t->tdfg ? NULL : emu_program_strm_mark(&t->p);
	if (m) {
		/* The stream says where the strm node runs, its tDFG what. */
		diag_at(d, t->p.path, m->line, 0, "'node %s strm': the near-memory stream of strm "
			"node '%s' runs here, and what it computes is in the tDFG the stream was "
			"lowered from; give it with --tdfg FILE", m->name, m->name);
		return TGT_FAILED;
	}
	if (!t->tdfg)
		return TGT_OK;
	emu_geom_override ov;
	emu_geom_override_init(&ov);
	ov.g = t->p.geom;
	ov.keys = ~0u;
	if (emu_tdfg_json_path(t->tdfg)) {
		if (!t->type) {
			diag_file(d, "--tdfg", "%s: an artifact's tDFG (.json) has no element type; "
				  "give one with --type (f32, i32, ...)", t->tdfg);
			return TGT_USAGE;
		}
		return emu_tdfg_json_parse_file(t->tdfg, t->type, &t->p.geom, &ov, &t->vt, d) < 0
			       ? TGT_FAILED : TGT_OK;
	}
	return emu_tdfg_parse_file_defs(t->tdfg, &t->p.geom, &ov, t->defs,
					t->a.ndefs, &t->vt, d) < 0 ? TGT_FAILED : TGT_OK;
}

static bool front_loads(const tgt *t, const char *name)
{
	for (size_t i = 0; i < t->a.nloading; i++)
		if (!strcmp(t->a.loading[i], name))
			return true;
	return false;
}

static tgt_status array_set(tgt *t, size_t i, uint64_t first, uint64_t n, const uint64_t *bits,
			    diag *d);

/* A tDFG's arrays with load=FILE, unless the front loads them itself. */
static tgt_status tdfg_loads(tgt *t, diag *d)
{
	const emu_tdfg *g = t->is_tdfg ? &t->t : t->tdfg ? &t->vt : NULL;
	for (size_t i = 0; g && i < g->narrays; i++) {
		const emu_tarray *ta = &g->arrays[i];
		if (!ta->load[0] || front_loads(t, ta->name))
			continue;
		size_t b = 0;
		while (b < t->p.nbufs && strcmp(t->p.bufs[b].name, ta->name) != 0)
			b++;
		if (b == t->p.nbufs)
			continue;
		tgt_array arr;
		tgt_stream.array(t, b, &arr);
		uint64_t *v = mem_alloc_whole((arr.length ? arr.length : 1) * sizeof *v);
		if (!v) {
			diag_file(d, ta->load, "out of memory for %" PRIu64 " elements", arr.length);
			return TGT_FAILED;
		}
		tgt_status st = tgt_elements_read(ta->load, &arr, v, d) < 0 ? TGT_FAILED
					: array_set(t, b, 0, arr.length, v, d);
		free(v);
		if (st)
			return st;
	}
	return TGT_OK;
}

/* The machine and the references, with init= applied. */
static tgt_status start_machine(tgt *t, diag *d)
{
	if (emu_machine_check_host(&t->p.geom, t->p.path, d) < 0)
		return TGT_FAILED;
	t->em = emu_machine_new(&t->p, d);
	if (!t->em)
		return TGT_FAILED;
	if (t->a.strict && emu_machine_set_strict(t->em, true) < 0) {
		diag_file(d, t->p.path, "out of memory for the hazard tracker");
		return TGT_FAILED;
	}
	if (t->a.threads)
		sram_set_threads((int)t->a.threads);
	if (emu_init_buffers(t->em, d) < 0)
		return TGT_FAILED;
	t->cc = calloc(t->p.ncmds + 1, sizeof *t->cc);
	t->bank_before = calloc(t->em->st.nbanks, sizeof *t->bank_before);
	if (!t->cc || !t->bank_before) {
		diag_file(d, t->p.path, "out of memory");
		return TGT_FAILED;
	}
	if (t->a.check) {
		t->ref = emu_ref_new(&t->p, d);
		if (!t->ref)
			return TGT_FAILED;
		if (emu_ref_init_buffers(t->ref) < 0) {
			diag_file(d, t->p.path, "out of memory for the reference model");
			return TGT_FAILED;
		}
		if (t->is_tdfg && !(t->tref = emu_tref_new(&t->t, d)))
			return TGT_FAILED;
	}
	if (t->tdfg && !(t->valid = emu_valid_new(&t->vt, &t->p, d)))
		return TGT_FAILED;
	return TGT_OK;
}

static void close_target(tgt *t)
{
	if (!t)
		return;
	if (t->ref)
		emu_ref_free(t->ref);
	emu_tref_free(t->tref);
	emu_valid_free(t->valid);
	emu_tdfg_free(&t->vt);
	emu_strm_lot_free(&t->strm.lot);
	if (t->is_tdfg) {
		emu_tdfg_free(&t->t);
		emu_jit_free(&t->j);
	}
	if (t->em)
		emu_machine_free(t->em);
	free(t->near);
	free(t->cc);
	free(t->bank_before);
	free(t->report);
	free(t->defs);
	for (size_t i = 0; i < t->nloads; i++)
		free(t->loads[i].v);
	free(t->loads);
	emu_program_free(&t->p);
	free(t);
}

static tgt *open_target(const tgt_load *a, tgt_status *st, diag *d)
{
	tgt *t = calloc(1, sizeof *t);
	if (!t) {
		diag_file(d, a->path, "out of memory");
		*st = TGT_FAILED;
		return NULL;
	}
	t->a = *a;
	t->lat_jit = -1;
	t->lat_jit_cmd = -1;
	emu_program_init(&t->p);
	emu_tdfg_init(&t->vt);
	t->defs = inc_defs(a->defs, a->ndefs);
	emu_geom_override ov;
	*st = !t->defs ? (diag_file(d, a->path, "out of memory"), TGT_FAILED)
	      : take_options(t, d) < 0 || inc_settings(a->settings, a->nsettings, &ov, d) < 0 ? TGT_USAGE : TGT_OK;
	if (*st == TGT_OK)
		*st = load_program(t, &ov, d);
	if (*st == TGT_OK)
		*st = load_vtdfg(t, d);
	/* after --tdfg's binding, whose errors name the markers */
	if (*st == TGT_OK && !t->is_tdfg && inc_need_commands(&t->p, d) < 0)
		*st = TGT_FAILED;
	if (*st == TGT_OK)
		*st = start_machine(t, d);
	if (*st == TGT_OK)
		*st = tdfg_loads(t, d);
	if (*st == TGT_OK)
		return t;
	close_target(t);
	return NULL;
}

/* ---- arrays: the stream's buffers ---- */

static size_t narrays(const tgt *t)
{
	return t->p.nbufs;
}

static tgt_type type_of(const emu_buffer *b)
{
	tgt_type ty = { TGT_INT, b->width, b->is_signed, 0 };
	switch (b->fmt) {
	case ISA_FMT_F32: ty.kind = TGT_F32; break;
	case ISA_FMT_F16: ty.kind = TGT_F16; break;
	case ISA_FMT_BF16: ty.kind = TGT_BF16; break;
	case ISA_FMT_FIX:
		ty.kind = TGT_FIXED;
		ty.frac = (uint8_t)(b->width - ISA_FIX_INT);
		break;
	default: break;
	}
	return ty;
}

static void array(const tgt *t, size_t i, tgt_array *out)
{
	const emu_buffer *b = &t->p.bufs[i];
	memset(out, 0, sizeof *out);
	snprintf(out->name, sizeof out->name, "%s", b->name);
	out->type = type_of(b);
	out->length = b->length;
	/* a tensor's sizes are innermost first; an array's shape is C order */
	out->ndim = b->ndims ? b->ndims : 1;
	for (unsigned k = 0; k < out->ndim; k++)
		out->shape[k] = b->ndims ? b->shape[b->ndims - 1 - k] : b->length;
}

static void array_get(tgt *t, size_t i, uint64_t first, uint64_t n, uint64_t *bits)
{
	const emu_buffer *b = &t->p.bufs[i];
	if (first == 0 && n == b->length) {
		emu_buffer_read(t->em, b, bits);
		return;
	}
	for (uint64_t k = 0; k < n; k++)
		bits[k] = emu_elem_get(t->em, b, first + k);
}

/* A whole buffer's data, kept for a restored reference (step.c). */
static int keep_load(tgt *t, size_t buf, const uint64_t *bits, diag *d)
{
	const uint64_t n = t->p.bufs[buf].length;
	struct inc_load *nl = realloc(t->loads, (t->nloads + 1) * sizeof *nl);
	uint64_t *v = nl ? malloc((n ? n : 1) * sizeof *v) : NULL;
	if (nl)
		t->loads = nl;
	if (!v) {
		diag_file(d, t->p.path, "out of memory");
		return -1;
	}
	memcpy(v, bits, n * sizeof *v);
	t->loads[t->nloads++] = (struct inc_load){ buf, v };
	return 0;
}

static tgt_status array_set(tgt *t, size_t i, uint64_t first, uint64_t n, const uint64_t *bits,
			    diag *d)
{
	const emu_buffer *b = &t->p.bufs[i];
	if (first != 0 || n != b->length) {
		/* part of a buffer: through the port, as the debugger's set var */
		for (uint64_t k = 0; k < n; k++)
			emu_elem_set(t->em, b, first + k, bits[k]);
		if (!t->ref)
			return TGT_OK;
		/* the reference takes the buffer as the machine now holds it */
		uint64_t *v = mem_alloc_whole((b->length ? b->length : 1) * sizeof *v);
		int rc = v ? (emu_buffer_read(t->em, b, v), emu_ref_store(t->ref, b, v, b->length)) : -1;
		free(v);
		if (rc < 0) {
			diag_file(d, t->p.path, "out of memory for the reference model");
			return TGT_FAILED;
		}
		return TGT_OK;
	}
	emu_ttu_store(t->em, b, bits, b->length);
	if (emu_machine_failed(t->em, d) < 0)
		return TGT_FAILED;
	if (t->ref && keep_load(t, i, bits, d) < 0)
		return TGT_FAILED;
	if (t->ref && emu_ref_store(t->ref, b, bits, b->length) < 0) {
		diag_file(d, t->p.path, "out of memory for the reference model");
		return TGT_FAILED;
	}
	if (t->valid && emu_valid_load(t->valid, b, bits, d) < 0)
		return TGT_FAILED;
	const long nd = t->tref ? emu_tdfg_find(&t->t, b->name, strlen(b->name)) : -1;
	if (nd >= 0 && emu_tref_input(t->tref, (size_t)nd, bits, b->length, d) < 0)
		return TGT_FAILED;
	/* an array's first data, for the reference too */
	for (size_t a = 0; t->tref && a < t->t.narrays; a++)
		if (strcmp(t->t.arrays[a].name, b->name) == 0 &&
		    emu_tref_array_input(t->tref, a, bits, b->length, d) < 0)
			return TGT_FAILED;
	return TGT_OK;
}

static const char *why_not(unsigned can)
{
	(void)can;
	return "";
}

const tgt_ops tgt_stream = {
	.name = "stream",
	.title = "the in-cache machine: command streams and tDFGs",
	.exts = exts,
	.claims = claims,
	.options = options,
	.settings_help = "wordlines, bitlines, arrays (per way), ways (per bank), mesh=XxY "
			 "(banks), fp=ftz|ieee, latency=baseline|optimised, cordic=K",
	.can = TGT_CAN_DEFINE | TGT_CAN_LOAD | TGT_CAN_SAVE | TGT_CAN_CHECK | TGT_CAN_STRICT |
	       TGT_CAN_MACHINE | TGT_CAN_THREADS,
	.why_not = why_not,
	.open = open_target,
	.close = close_target,
	.narrays = narrays,
	.array = array,
	.array_get = array_get,
	.array_set = array_set,
	.run = inc_run,
	.report = inc_report,
	.check = inc_check,
	.stats = inc_stats,
	.summary = inc_summary,
	.units = inc_units,
	.nunits = INC_NUNITS,
	.step = inc_step,
	.ended = inc_ended,
	.count = inc_count,
	.where = inc_where,
	.source = inc_source,
	.lookup = inc_lookup,
	.read = inc_read,
	.write = inc_write,
	.names = inc_names,
	.break_parse = inc_break_parse,
	.break_hit = inc_break_hit,
	.break_help = "LINE, FILE:LINE, command N, op NAME, node NAME (a tDFG's), cycle N",
	.save = inc_save,
	.restore = inc_restore,
	.snap_free = inc_snap_free,
	.snap_bytes = inc_snap_bytes,
};
