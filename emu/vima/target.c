/* SPDX-License-Identifier: MIT */
/*
 * target.c: VIMA as an infsim target (emu/target/target.h; doc/VIMA.md,
 * "As a target").
 *
 * A program is parsed by parse.c and run by the unit (exec.c) one unit
 * at a time: a unit is what vima_step runs, one VIMA instruction or one
 * host store, with the loop statements before it.  The last unit's step
 * also runs the loops' ends and the final write-back (vima_flush), so
 * `ended` and the statistics at the end are those of a whole run.  With
 * check, the reference (ref.c) runs the same units in step and the arrays
 * are compared at the end (and at `check`), bit for bit.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "target.h"
#include "vima_int.h"

/* The position and how the run ended: what a snapshot keeps besides the
 * unit and the reference. */
typedef struct position {
	/* the statement the next step stops at (-1: none) and the loops'
	 * values there (a lookahead: vima_advance on a copy) */
	long next;
	vima_pc ahead;
	uint64_t prev_cycles;      /* cycles before the last unit ran */
	bool done;                 /* ended, faulted or failed */
	tgt_status end;            /* TGT_OK, TGT_FAULT or TGT_FAILED */
	char end_msg[DIAG_MAX];
	char ref_err[DIAG_MAX];    /* the reference fell out of step: why */
} position;

struct tgt {
	const char *path;     /* the program's, as the front named it */
	vima_program p;
	vima_unit u;
	bool check;
	uint64_t fault_at;     /* --fault-at, 0: none */
	vima_reference ref;
	position pos;
	char *report;
};

struct tgt_snap {
	vima_unit u;
	vima_reference ref;
	bool has_ref;
	position pos;
};

/* d's message as msg (a whole "FILE: error: ..." line), unless d has one. */
static void set_msg(diag *d, const char *msg)
{
	if (d && !d->set) {
		snprintf(d->msg, sizeof d->msg, "%s", msg);
		d->set = true;
	}
}

/* ---- settings and options ---- */

static const tgt_option vt_options[] = {
	{ "vector", TGT_OPT_ARG | TGT_OPT_SETTING, "BYTES",
	  "vector (and cache line) size: 8192 or 256" },
	{ "lines", TGT_OPT_ARG | TGT_OPT_SETTING, "N", "vector cache lines (1 to 4096; default 8)" },
	{ "max-steps", TGT_OPT_ARG | TGT_OPT_SETTING, "N", "stop after N statements (default 2^28)" },
	{ "fault-at", TGT_OPT_ARG, "K", "raise a page fault at the K-th VIMA instruction" },
	{ NULL, 0, NULL, NULL },
};

typedef struct settings {
	unsigned vector, lines;    /* 0: the program's `vima` line, or the default */
	uint64_t max_steps, fault_at;
} settings;

/* s as a decimal number in [lo, hi]; false if it is not one. */
static bool number(const char *s, uint64_t lo, uint64_t hi, uint64_t *v)
{
	if (!s || s[0] < '0' || s[0] > '9')
		return false;
	uint64_t x = 0;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || x > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return false;
		x = x * 10 + (uint64_t)(*s - '0');
	}
	*v = x;
	return x >= lo && x <= hi;
}

/* What a number from lo to hi is expected to be, for a message. */
static void expected_number(char *buf, size_t size, uint64_t lo, uint64_t hi)
{
	if (hi == UINT64_MAX)
		snprintf(buf, size, "expected a number of at least %" PRIu64, lo);
	else
		snprintf(buf, size, "expected a number from %" PRIu64 " to %" PRIu64, lo, hi);
}

/* One setting into set: 0, or TGT_USAGE with d naming it ("-m KEY=VALUE:
 * ..." or, from -c FILE, "FILE:LINE: error: KEY=VALUE: ..."). */
static tgt_status one_setting(const tgt_load *a, const tgt_setting *s, settings *set, diag *d)
{
	char why[96];
	uint64_t v = 0;
	if (!strcmp(s->key, "vector")) {
		if (number(s->value, 0, UINT64_MAX, &v) && (v == VIMA_VECTOR || v == VIMA_VECTOR_SMALL)) {
			set->vector = (unsigned)v;
			return TGT_OK;
		}
		snprintf(why, sizeof why, "expected %u or %u", VIMA_VECTOR, VIMA_VECTOR_SMALL);
	} else if (!strcmp(s->key, "lines")) {
		if (number(s->value, 1, VIMA_LINES_MAX, &v)) {
			set->lines = (unsigned)v;
			return TGT_OK;
		}
		expected_number(why, sizeof why, 1, VIMA_LINES_MAX);
	} else if (!strcmp(s->key, "max-steps")) {
		if (number(s->value, 1, UINT64_MAX, &set->max_steps))
			return TGT_OK;
		expected_number(why, sizeof why, 1, UINT64_MAX);
	} else {
		snprintf(why, sizeof why, "unknown setting '%s'; expected vector, lines or max-steps",
			 s->key);
	}
	if (s->file)
		diag_at(d, s->file, (int)s->line, 0, "%s=%s: %s", s->key, s->value, why);
	else
		diag_file(d, a->path, "-m %s=%s: %s", s->key, s->value, why);
	return TGT_USAGE;
}

static tgt_status read_settings(const tgt_load *a, settings *set, diag *d)
{
	memset(set, 0, sizeof *set);
	for (size_t i = 0; i < a->nsettings; i++)
		if (one_setting(a, &a->settings[i], set, d))
			return TGT_USAGE;
	for (size_t i = 0; i < a->nopts; i++) {
		const tgt_optval *o = &a->opts[i];
		if (strcmp(o->opt->name, "fault-at") != 0)
			continue; /* the settings came as settings */
		if (!number(o->value, 1, UINT64_MAX, &set->fault_at)) {
			char why[96];
			expected_number(why, sizeof why, 1, UINT64_MAX);
			diag_file(d, a->path, "--fault-at=%s: %s", o->value ? o->value : "", why);
			return TGT_USAGE;
		}
	}
	return TGT_OK;
}

/* ---- the position ---- */

/* Where the next step stops, from the unit's position. */
static void look_ahead(tgt *t)
{
	diag scratch;
	diag_clear(&scratch);
	t->pos.ahead = t->u.pc;
	const int rc = vima_advance(&t->u, &t->pos.ahead, &scratch);
	t->pos.next = rc == 0 ? -1 : (long)t->pos.ahead.next; /* an error ahead: its statement */
}

static uint64_t units_done(const tgt *t)
{
	return t->u.st.insns + t->u.st.host_stmts;
}

/* The run is over: the final write-back, as `infsim vima` does after the
 * run or the fault. */
static void finish(tgt *t, tgt_status end, const char *msg)
{
	vima_flush(&t->u);
	t->pos.done = true;
	t->pos.end = end;
	t->pos.next = -1;
	snprintf(t->pos.end_msg, sizeof t->pos.end_msg, "%s", msg ? msg : "");
}

static void fault_msg(const tgt *t, diag *d)
{
	const vima_unit *u = &t->u;
	const vima_stmt *s = &t->p.stmts[u->fault_stmt];
	if (u->fault_host) /* a host store's own access (the host core's fault) */
		diag_at(d, t->p.path, s->line, s->col, "page fault at host store %" PRIu64 ": %s; "
			"VIMA instructions 1 to %" PRIu64 " committed, nothing of host store %" PRIu64
			" or after", u->fault_host, u->fault_why, u->st.insns, u->fault_host);
	else
		diag_at(d, t->p.path, s->line, s->col, "page fault at VIMA instruction %" PRIu64
			" (%s.%s): %s%sinstructions 1 to %" PRIu64 " committed, nothing of %" PRIu64
			" or after", u->fault_insn, vima_op_info_of(s->op)->name,
			vima_type_name(s->type), u->fault_why, u->fault_why[0] ? "; " : "",
			u->fault_insn - 1, u->fault_insn);
}

/* The reference runs the unit the machine just ran (statement stmt; -1:
 * none, the machine ran to the end), which the machine committed, or
 * whose access the page table refused (faulted). */
static void ref_follow(tgt *t, long stmt, bool faulted)
{
	if (!t->check || t->pos.ref_err[0])
		return;
	diag rd;
	diag_clear(&rd);
	size_t at = 0;
	const int rc = vima_ref_step(&t->ref, &at, &rd);
	char *why = t->pos.ref_err;
	const size_t size = sizeof t->pos.ref_err;
	if (rc < 0)
		snprintf(why, size, "%s", rd.msg);
	else if (stmt >= 0 && (rc == 2) != faulted)
		snprintf(why, size, "%s:%d: error: the %s raised a page fault at line %d where the %s "
			 "ran on", t->p.path, t->p.stmts[stmt].line, faulted ? "machine" : "reference",
			 t->p.stmts[stmt].line, faulted ? "reference" : "machine");
	else if (stmt >= 0 && (rc == 0 || (long)at != stmt))
		snprintf(why, size, "%s:%d: error: the reference ran %s where the machine ran line %d",
			 t->p.path, t->p.stmts[stmt].line, rc == 0 ? "to the end" : "another statement",
			 t->p.stmts[stmt].line);
	else if (stmt < 0 && rc != 0)
		snprintf(why, size, "%s: error: the reference ran a unit after the machine's last",
			 t->p.path);
}

/* The run reached the end: done, unless --fault-at asked for a fault at
 * an instruction the program never came to (then that is the error). */
static tgt_status ended(tgt *t, diag *d)
{
	if (t->fault_at && !t->u.fault_insn) {
		diag_file(d, t->p.path, "--fault-at=%" PRIu64 ": the program committed %" PRIu64
			  " VIMA instruction%s, so no page fault was raised (give K from 1 to %"
			  PRIu64 ")", t->fault_at, t->u.st.insns, t->u.st.insns == 1 ? "" : "s",
			  t->u.st.insns);
		finish(t, TGT_FAILED, d->msg);
		return TGT_FAILED;
	}
	finish(t, TGT_OK, NULL);
	return TGT_OK;
}

/* Run the loops after the last unit to the end, and the write-back. */
static tgt_status run_out(tgt *t, diag *d)
{
	const int rc = vima_step(&t->u, d);
	if (rc < 0) {
		finish(t, TGT_FAILED, d->msg);
		return TGT_FAILED;
	}
	ref_follow(t, -1, false);
	return ended(t, d);
}

static tgt_status step_unit(tgt *t, diag *d)
{
	if (t->pos.done) {
		if (t->pos.end != TGT_OK)
			set_msg(d, t->pos.end_msg);
		else
			diag_file(d, t->p.path, "the program has ended");
		return TGT_FAILED;
	}
	t->pos.prev_cycles = t->u.st.cycles;
	const int rc = vima_step(&t->u, d);
	if (rc < 0) {
		finish(t, TGT_FAILED, d->msg);
		return TGT_FAILED;
	}
	if (rc == VIMA_STEP_FAULT) {
		if (t->u.fault_why[0]) /* a real fault: the reference must find it too */
			ref_follow(t, (long)t->u.pc.next, true);
		fault_msg(t, d);
		finish(t, TGT_FAULT, d->msg);
		return TGT_FAULT;
	}
	if (rc == VIMA_STEP_END) { /* not reached: the last unit's step ran out */
		ref_follow(t, -1, false);
		return ended(t, d);
	}
	ref_follow(t, (long)t->u.pc.next - 1, false);
	look_ahead(t);
	return t->pos.next < 0 ? run_out(t, d) : TGT_OK;
}

/* ---- open and close ---- */

static void vt_close(tgt *t)
{
	if (!t)
		return;
	vima_ref_free(&t->ref);
	vima_unit_free(&t->u);
	vima_program_free(&t->p);
	free(t->report);
	free(t);
}

/* Did the parse fail on a -D that names no const (a usage error)? */
static bool define_error(const char *path, const diag *d)
{
	char head[DIAG_MAX];
	snprintf(head, sizeof head, "%s: error: -D ", path);
	return !strncmp(d->msg, head, strlen(head));
}

static tgt_status load_program(tgt *t, const tgt_load *a, const settings *set, diag *d)
{
	vima_define *defs = calloc(a->ndefs + 1, sizeof *defs);
	if (!defs)
		return diag_file(d, a->path, "out of memory"), TGT_FAILED;
	for (size_t i = 0; i < a->ndefs; i++)
		defs[i] = (vima_define){ a->defs[i].name, a->defs[i].value, false };
	vima_parse_opts po = { defs, a->ndefs, set->vector, set->lines };
	const int rc = vima_parse(a->path, a->text ? a->text : "", a->text ? a->len : 0, &po,
				  &t->p, d);
	free(defs);
	if (rc < 0)
		return define_error(a->path, d) ? TGT_USAGE : TGT_FAILED;
	return TGT_OK;
}

static tgt *vt_open(const tgt_load *a, tgt_status *st, diag *d)
{
	settings set;
	tgt *t = NULL;
	*st = read_settings(a, &set, d);
	if (*st == TGT_OK && !(t = calloc(1, sizeof *t))) {
		diag_file(d, a->path, "out of memory");
		*st = TGT_FAILED;
	}
	if (t)
		t->path = a->path;
	if (*st == TGT_OK)
		*st = load_program(t, a, &set, d);
	const vima_run_opts ro = { set.fault_at, set.max_steps };
	if (*st == TGT_OK && vima_unit_init(&t->u, &t->p, &ro, 0, d) < 0)
		*st = TGT_FAILED;
	if (t) {
		t->check = a->check;
		t->fault_at = set.fault_at;
	}
	if (*st == TGT_OK && a->check &&
	    vima_ref_init(&t->ref, &t->p, t->u.mem, set.max_steps, d) < 0)
		*st = TGT_FAILED;
	if (*st != TGT_OK) {
		vt_close(t);
		return NULL;
	}
	look_ahead(t);
	if (t->pos.next < 0 && run_out(t, d) != TGT_OK) { /* no unit at all */
		*st = TGT_FAILED;
		vt_close(t);
		return NULL;
	}
	return t;
}

/* ---- arrays ---- */

static tgt_type type_of(vima_type vt)
{
	switch (vt) {
	case VIMA_I32: return (tgt_type){ TGT_INT, 32, true, 0 };
	case VIMA_U32: return (tgt_type){ TGT_INT, 32, false, 0 };
	case VIMA_I64: return (tgt_type){ TGT_INT, 64, true, 0 };
	case VIMA_U64: return (tgt_type){ TGT_INT, 64, false, 0 };
	case VIMA_F32: return (tgt_type){ TGT_F32, 32, false, 0 };
	default: return (tgt_type){ TGT_F64, 64, false, 0 };
	}
}

static size_t vt_narrays(const tgt *t)
{
	return t->p.narrays;
}

static void vt_array_info(const tgt *t, size_t i, tgt_array *out)
{
	const vima_array *a = &t->p.arrays[i];
	memset(out, 0, sizeof *out);
	snprintf(out->name, sizeof out->name, "%s", a->name);
	out->type = type_of(a->type);
	out->ndim = 1;
	out->shape[0] = out->length = a->count;
}

/* Element k of array i as the host sees it (host caches, then the vector
 * cache, then DRAM), counting nothing. */
static uint64_t element(tgt *t, size_t i, uint64_t k)
{
	const vima_array *a = &t->p.arrays[i];
	const unsigned sz = vima_type_size(a->type);
	uint64_t v = 0;
	vima_host_load(&t->u, a->base + k * sz, (uint8_t *)&v, sz, false); /* little-endian */
	return v;
}

/* Store v at addr in every copy the machine holds (host cache, vector
 * cache line, DRAM) and count nothing: -l's or the debugger's store, not
 * the program's. */
static void poke(vima_unit *u, uint64_t addr, uint64_t v, unsigned sz)
{
	if (u->hstate[addr / VIMA_HOST_LINE])
		memcpy(u->hdata + addr, &v, sz);
	const uint64_t tag = addr / u->vbytes * u->vbytes;
	const int l = vima_cache_find(u, tag);
	if (l >= 0)
		memcpy(u->lines[l].data + (addr - tag), &v, sz);
	memcpy(u->mem + addr, &v, sz);
}

static void vt_array_get(tgt *t, size_t i, uint64_t first, uint64_t n, uint64_t *bits)
{
	const uint64_t count = t->p.arrays[i].count;
	for (uint64_t k = 0; k < n; k++)
		bits[k] = first <= count && k < count - first ? element(t, i, first + k) : 0;
}

/* Before the first unit, array_set is the program's input (-l): the
 * reference takes it too.  After, it is a change to the machine alone,
 * which --check then finds. */
static tgt_status vt_array_set(tgt *t, size_t i, uint64_t first, uint64_t n,
				 const uint64_t *bits, diag *d)
{
	const vima_array *a = &t->p.arrays[i];
	if (first > a->count || n > a->count - first)
		return diag_file(d, t->p.path, "%s[%" PRIu64 "..%" PRIu64 "] is outside %s (%" PRIu64
				 " elements)", a->name, first, first + n, a->name, a->count), TGT_USAGE;
	const unsigned sz = vima_type_size(a->type);
	const bool input = units_done(t) == 0;
	for (uint64_t k = 0; k < n; k++) {
		const uint64_t addr = a->base + (first + k) * sz;
		poke(&t->u, addr, bits[k], sz);
		if (input && t->check)
			memcpy(t->ref.mem + addr, &bits[k], sz);
	}
	return TGT_OK;
}

/* ---- --check ---- */

static void text_of(const vima_array *a, uint64_t bits, char *buf, size_t size)
{
	char num[64];
	const unsigned sz = vima_type_size(a->type);
	tgt_value_text(type_of(a->type), bits, num, sizeof num);
	snprintf(buf, size, "%s (0x%0*" PRIx64 ")", num, (int)sz * 2, bits);
}

/* The report of the first difference, element k of array ai. */
static tgt_status differs(tgt *t, int ai, uint64_t k, uint64_t got, uint64_t want,
			  uint64_t ndiff, diag *d)
{
	const vima_array *a = &t->p.arrays[ai];
	char g[96], w[96], by[512];
	text_of(a, got, g, sizeof g);
	text_of(a, want, w, sizeof w);
	const vima_writer wr = vima_ref_writer(&t->ref, a->base + k * vima_type_size(a->type));
	const vima_stmt *s = wr.seq ? &t->p.stmts[wr.stmt] : NULL;
	if (!s)
		snprintf(by, sizeof by, "no instruction wrote it: the reference holds its initial value");
	else if (s->kind == VIMA_S_INSN)
		snprintf(by, sizeof by, "last written by VIMA instruction %" PRIu64 " (%s.%s) at %s:%d:%d",
			 wr.num, vima_op_info_of(s->op)->name, vima_type_name(s->type), t->p.path,
			 s->line, s->col);
	else
		snprintf(by, sizeof by, "last written by host store %" PRIu64 " at %s:%d:%d", wr.num,
			 t->p.path, s->line, s->col);
	diag_file(d, t->p.path, "--check: %s[%" PRIu64 "]: got %s, expected %s", a->name, k, g, w);
	free(t->report);
	t->report = malloc(DIAG_MAX * 2);
	if (t->report)
		snprintf(t->report, DIAG_MAX * 2, "%s[%" PRIu64 "]: got %s, expected %s\n  %s\n  %" PRIu64
			 " element%s differ%s in all\n", a->name, k, g, w, by, ndiff,
			 ndiff == 1 ? "" : "s", ndiff == 1 ? "s" : "");
	return TGT_DIFFERS;
}

/* Every array, the host's view against the reference's memory. */
static tgt_status compare(tgt *t, diag *d)
{
	if (t->pos.ref_err[0]) {
		set_msg(d, t->pos.ref_err);
		free(t->report);
		t->report = malloc(DIAG_MAX + 2);
		if (t->report)
			snprintf(t->report, DIAG_MAX + 2, "%s\n", t->pos.ref_err);
		return TGT_DIFFERS;
	}
	int first_a = -1;
	uint64_t first_k = 0, got = 0, want = 0, ndiff = 0;
	for (size_t i = 0; i < t->p.narrays; i++) {
		const vima_array *a = &t->p.arrays[i];
		const unsigned sz = vima_type_size(a->type);
		uint8_t *mine = malloc(a->bytes);
		if (!mine)
			return diag_file(d, t->p.path, "out of memory"), TGT_FAILED;
		vima_read_array(&t->u, (int)i, mine);
		const uint8_t *ref = t->ref.mem + a->base;
		const bool same = !memcmp(mine, ref, a->bytes);
		for (uint64_t k = 0; !same && k < a->count; k++) {
			if (!memcmp(mine + k * sz, ref + k * sz, sz))
				continue;
			if (ndiff++ == 0) {
				first_a = (int)i;
				first_k = k;
				memcpy(&got, mine + k * sz, sz);
				memcpy(&want, ref + k * sz, sz);
			}
		}
		free(mine);
	}
	return ndiff ? differs(t, first_a, first_k, got, want, ndiff, d) : TGT_OK;
}

static tgt_status vt_check(tgt *t, diag *d)
{
	if (!t->check)
		return diag_file(d, t->p.path, "there is no reference to compare with (--check "
				 "was not given)"), TGT_USAGE;
	return compare(t, d);
}

static const char *vt_report(const tgt *t)
{
	return t->report;
}

/* A wrong result outranks the fault the program was told to raise. */
static tgt_status vt_run(tgt *t, diag *d)
{
	while (!t->pos.done)
		step_unit(t, d); /* every status but TGT_OK ends the run */
	const tgt_status st = t->pos.end;
	if (st != TGT_OK)
		set_msg(d, t->pos.end_msg);
	if (st != TGT_FAILED && t->check) {
		diag cd;
		diag_clear(&cd);
		const tgt_status c = compare(t, &cd);
		if (c != TGT_OK) {
			diag_clear(d);
			set_msg(d, cd.msg);
			return c;
		}
	}
	return st;
}

/* ---- statistics (the numbers of report.c) ---- */

static void stats_dram(const vima_stats *s, tgt_stat *root)
{
	tgt_stat *g = tgt_stat_group(root, "dram", "DRAM (sub-requests of 64 B)");
	tgt_stat_uint(g, "subrequests_read", s->sub_reads, "sub-requests read");
	tgt_stat_uint(g, "subrequests_write", s->sub_writes, "sub-requests written");
	tgt_stat_uint(g, "dram_read_bytes", s->dram_read_bytes, "bytes read");
	tgt_stat_uint(g, "dram_write_bytes", s->dram_write_bytes, "bytes written");
	tgt_stat *vaults = tgt_stat_list(g, "vaults", "sub-requests per vault", TGT_STAT_DETAIL);
	for (unsigned v = 0; v < VIMA_VAULTS; v++) {
		tgt_stat *r = tgt_stat_row(vaults);
		uint64_t n = 0;
		tgt_stat_uint(r, "vault", v, NULL);
		for (unsigned b = 0; b < VIMA_BANKS; b++) {
			char key[16];
			snprintf(key, sizeof key, "bank_%u", b);
			tgt_stat_uint(r, key, s->sub[v][b], NULL);
			n += s->sub[v][b];
		}
		tgt_stat_uint(r, "subrequests", n, "all banks");
	}
	tgt_stat *banks = tgt_stat_list(g, "banks", "sub-requests per bank (all vaults)",
					TGT_STAT_DETAIL);
	for (unsigned b = 0; b < VIMA_BANKS; b++) {
		tgt_stat *r = tgt_stat_row(banks);
		uint64_t n = 0;
		for (unsigned v = 0; v < VIMA_VAULTS; v++)
			n += s->sub[v][b];
		tgt_stat_uint(r, "bank", b, NULL);
		tgt_stat_uint(r, "subrequests", n, NULL);
	}
}

static void stats_cache(const vima_stats *s, tgt_stat *root)
{
	tgt_stat *g = tgt_stat_group(root, "vector_cache", "vector cache");
	tgt_stat_uint(g, "read_hits", s->read_hits, "read hits");
	tgt_stat_uint(g, "read_misses", s->read_misses, "read misses");
	tgt_stat_uint(g, "write_hits", s->write_hits, "write hits");
	tgt_stat_uint(g, "write_misses", s->write_misses, "write misses (no fill)");
	tgt_stat_uint(g, "writebacks", s->writebacks, "write-backs");
	tgt_stat_uint(g, "writebacks_eviction", s->wb_evict, "write-backs on eviction");
	tgt_stat_uint(g, "writebacks_host_write", s->wb_host, "write-backs on a host write");
	tgt_stat_uint(g, "writebacks_flush", s->wb_flush, "write-backs at the final flush");
	tgt_stat_uint(g, "invalidations", s->invalidations, "invalidations (host writes to held lines)");
	tgt_stat_uint(g, "cache_accesses", s->cache_accesses, "line accesses");
	g = tgt_stat_group(root, "host", "host");
	tgt_stat_uint(g, "host_lines_written_back", s->host_lines_written_back,
		      "host lines written back before VIMA");
	tgt_stat_uint(g, "host_loads_vcache", s->host_loads_vcache,
		      "host loads from the vector cache");
	tgt_stat_uint(g, "host_dram_bytes", s->host_dram_bytes, "host DRAM bytes");
}

/* The line after a good run. */
static void vt_summary(tgt *t, char *buf, size_t size)
{
	const vima_stats *s = &t->u.st;
	snprintf(buf, size, "%s: %" PRIu64 " VIMA instructions, %" PRIu64 " host stores, %" PRIu64
		 " cycles, %.0f pJ%s", t->path, s->insns, s->host_stmts, s->cycles,
		 vima_energy_pj(s), t->check ? "; --check: every array equals the in-order "
		 "reference" : "");
}

static void vt_stats(tgt *t, tgt_stat *root)
{
	const vima_stats *s = &t->u.st;
	tgt_stat *g = tgt_stat_group(root, "machine", "machine");
	tgt_stat_uint(g, "vector", t->u.vbytes, "vector (bytes)");
	tgt_stat_uint(g, "lines", t->u.nlines, "vector cache lines");
	tgt_stat_uint(g, "max_steps", t->u.ro.max_steps ? t->u.ro.max_steps : VIMA_STEPS_MAX,
		      "max-steps (statements)");
	g = tgt_stat_group(root, "totals", "totals");
	tgt_stat_uint(g, "cycles", s->cycles, "cycles (1 GHz)");
	tgt_stat_uint(g, "instructions", s->insns, "VIMA instructions");
	tgt_stat_uint(g, "host_stores", s->host_stmts, "host stores");
	tgt_stat_real(g, "energy_pj", vima_energy_pj(s), "energy (pJ)");
	g = tgt_stat_group(root, "by_op", "instructions by operation");
	for (int op = 0; op < VIMA_NOPS; op++)
		if (s->by_op[op])
			tgt_stat_uint(g, vima_op_info_of((vima_op)op)->name, s->by_op[op], NULL);
	stats_cache(s, root);
	stats_dram(s, root);
	g = tgt_stat_group(root, "cycles_by_part", "cycles by part");
	tgt_stat_uint(g, "tag", s->cyc_tag, "tag check");
	tgt_stat_uint(g, "dram", s->cyc_dram, "DRAM");
	tgt_stat_uint(g, "transfer", s->cyc_xfer, "transfer");
	tgt_stat_uint(g, "fu", s->cyc_fu, "functional units");
	tgt_stat_uint(g, "stop_and_go", s->cyc_gap, "stop-and-go");
	g = tgt_stat_group(root, "energy_pj", "energy (pJ)");
	tgt_stat_real(g, "total", vima_energy_pj(s), NULL);
	tgt_stat_real(g, "dram", s->energy_dram_pj, "DRAM");
	tgt_stat_real(g, "host_dram", s->energy_host_dram_pj, "host DRAM");
	tgt_stat_real(g, "vector_cache", s->energy_cache_pj, "vector cache");
	tgt_stat_real(g, "static", s->energy_static_pj, NULL);
}

/* ---- stepping ---- */

static const tgt_unit vt_units[] = {
	{ "instruction", "instructions" }, /* a VIMA instruction or a host store */
};

static tgt_status vt_step_hook(tgt *t, unsigned unit, diag *d)
{
	if (unit != 0)
		return diag_file(d, t->p.path, "no unit %u: VIMA steps by instruction", unit),
		       TGT_USAGE;
	return step_unit(t, d);
}

static bool vt_ended(const tgt *t)
{
	return t->pos.done;
}

static uint64_t vt_count(const tgt *t, unsigned unit)
{
	return unit == 0 ? units_done(t) : 0;
}

/* Operand k of s as ARRAY[INDEX], its index evaluated at pc. */
static void operand_text(const tgt *t, const vima_stmt *s, int k, const vima_pc *pc, char *buf,
			 size_t size)
{
	int64_t i;
	const char *why;
	const char *name = t->p.arrays[s->ref[k].array].name;
	if (vima_eval(&t->p, s->ref[k].index, pc->vars, &i, &why) < 0)
		snprintf(buf, size, "%s[?]", name);
	else
		snprintf(buf, size, "%s[%" PRId64 "]", name, i);
}

/* "add.f32 C[2048], A[2048], B[2048]", "host C[0] = 1.5"; or the loop
 * statement the next step fails at. */
static void unit_text(const tgt *t, const vima_stmt *s, const vima_pc *pc, char *buf, size_t size)
{
	if (s->kind == VIMA_S_FOR || s->kind == VIMA_S_END) {
		snprintf(buf, size, "%s %.63s (the next step fails here)",
			 s->kind == VIMA_S_FOR ? "for" : "end of", s->name[0] ? s->name
			 : t->p.stmts[s->other].name);
		return;
	}
	char o[3][96] = { "", "", "" };
	const vima_form f = s->kind == VIMA_S_HOST ? VIMA_FORM_I : vima_op_info_of(s->op)->form;
	const int nref = f == VIMA_FORM_I ? 1 + s->imm_ref : f == VIMA_FORM_V ? 2 : 3;
	for (int k = 0; k < nref; k++)
		operand_text(t, s, k, pc, o[k], sizeof o[k]);
	if (f == VIMA_FORM_I && !s->imm_ref)
		tgt_value_text(type_of(s->type), s->imm, o[1], sizeof o[1]);
	char line[400];
	if (s->kind == VIMA_S_HOST)
		snprintf(line, sizeof line, "host %s = %s", o[0], o[1]);
	else
		snprintf(line, sizeof line, "%s.%s %s, %s%s%s", vima_op_info_of(s->op)->name,
			 vima_type_name(s->type), o[0], o[1], nref == 3 ? ", " : "", o[2]);
	const size_t n = strlen(line) < size ? strlen(line) : size - 1; /* cut, not overflow */
	memcpy(buf, line, n);
	buf[n] = 0;
}

static bool vt_where(tgt *t, unsigned unit, tgt_loc *loc)
{
	if (unit != 0 || t->pos.done || t->pos.next < 0)
		return false;
	const vima_stmt *s = &t->p.stmts[t->pos.next];
	memset(loc, 0, sizeof *loc);
	loc->file = t->p.path;
	loc->line = (unsigned)s->line;
	loc->col = (unsigned)s->col;
	loc->index = units_done(t);
	unit_text(t, s, &t->pos.ahead, loc->what, sizeof loc->what);
	return true;
}

static const char *vt_source(const tgt *t)
{
	return t->p.path;
}

/* ---- names ---- */

enum { SYM_CYCLES, SYM_INSNS, SYM_HOSTS, SYM_STEPS, SYM_LOOP /* + the for's statement */ };
static const char *const scalar_names[] = { "cycles", "instructions", "host_stores", "statements" };
#define NSCALARS (sizeof scalar_names / sizeof scalar_names[0])

/* The loop named name around the next unit, or -1. */
static long loop_named(const tgt *t, const char *name)
{
	long found = -1;
	for (long f = 0; t->pos.next >= 0 && f < t->pos.next; f++) {
		const vima_stmt *s = &t->p.stmts[f];
		if (s->kind == VIMA_S_FOR && s->other > t->pos.next && !strcmp(s->name, name))
			found = f;
	}
	return found;
}

static bool vt_lookup(tgt *t, const char *name, tgt_sym *out)
{
	memset(out, 0, sizeof *out);
	const int a = vima_array_find(&t->p, name);
	if (a >= 0) {
		*out = (tgt_sym){ true, (size_t)a, type_of(t->p.arrays[a].type),
				  t->p.arrays[a].count, true };
		return true;
	}
	for (size_t i = 0; i < NSCALARS; i++)
		if (!strcmp(scalar_names[i], name)) {
			*out = (tgt_sym){ false, i, { TGT_INT, 64, false, 0 }, 1, false };
			return true;
		}
	const long f = loop_named(t, name);
	if (f < 0)
		return false;
	*out = (tgt_sym){ false, SYM_LOOP + (size_t)f, { TGT_INT, 64, true, 0 }, 1, false };
	return true;
}

static uint64_t vt_read(tgt *t, const tgt_sym *s, uint64_t index)
{
	if (s->is_array)
		return index < t->p.arrays[s->id].count ? element(t, s->id, index) : 0;
	switch (s->id) {
	case SYM_CYCLES: return t->u.st.cycles;
	case SYM_INSNS: return t->u.st.insns;
	case SYM_HOSTS: return t->u.st.host_stmts;
	case SYM_STEPS: return t->u.pc.steps;
	default: /* a loop's variable, as the next unit sees it */
		return (uint64_t)t->pos.ahead.vars[t->p.stmts[s->id - SYM_LOOP].var];
	}
}

static tgt_status vt_write(tgt *t, const tgt_sym *s, uint64_t index, uint64_t bits, diag *d)
{
	if (!s->is_array)
		return diag_file(d, t->p.path, "only array elements can be set, not counters or "
				 "loop variables"), TGT_USAGE;
	const vima_array *a = &t->p.arrays[s->id];
	if (index >= a->count)
		return diag_file(d, t->p.path, "%s[%" PRIu64 "] is outside %s (%" PRIu64 " elements)",
				 a->name, index, a->name, a->count), TGT_USAGE;
	const unsigned sz = vima_type_size(a->type);
	poke(&t->u, a->base + index * sz, bits, sz);
	return TGT_OK;
}

static void vt_names(tgt *t, void (*each)(void *ctx, const char *name), void *ctx)
{
	for (size_t i = 0; i < t->p.narrays; i++)
		each(ctx, t->p.arrays[i].name);
	for (size_t i = 0; i < NSCALARS; i++)
		each(ctx, scalar_names[i]);
	for (size_t f = 0; f < t->p.nstmts; f++) {
		const vima_stmt *s = &t->p.stmts[f];
		bool seen = false;
		for (size_t g = 0; s->kind == VIMA_S_FOR && g < f && !seen; g++)
			seen = t->p.stmts[g].kind == VIMA_S_FOR && !strcmp(t->p.stmts[g].name, s->name);
		if (s->kind == VIMA_S_FOR && !seen)
			each(ctx, s->name);
	}
}

/* ---- breakpoints ---- */

enum { BP_LINE, BP_INSN, BP_CYCLE };

static const char vt_break_help[] =
	"FILE:LINE or LINE (a line with an instruction or host store), "
	"instruction N (before the N-th VIMA instruction, from 1), "
	"cycle N (before the first unit that starts at cycle N or later)";

static bool has_unit(const tgt *t, long line)
{
	for (size_t i = 0; i < t->p.nstmts; i++) {
		const vima_stmt *s = &t->p.stmts[i];
		if ((s->kind == VIMA_S_INSN || s->kind == VIMA_S_HOST) && s->line == line)
			return true;
	}
	return false;
}

static tgt_status break_line(tgt *t, uint64_t line, tgt_bp *bp, diag *d)
{
	long best = -1;
	for (size_t i = 0; i < t->p.nstmts; i++) {
		const vima_stmt *s = &t->p.stmts[i];
		if (s->kind != VIMA_S_INSN && s->kind != VIMA_S_HOST)
			continue;
		const uint64_t dist = (uint64_t)s->line > line ? (uint64_t)s->line - line
							       : line - (uint64_t)s->line;
		const uint64_t bdist = best < 0 ? UINT64_MAX : (uint64_t)best > line
				       ? (uint64_t)best - line : line - (uint64_t)best;
		if (dist < bdist || (dist == bdist && s->line < best))
			best = s->line;
	}
	if (best < 0)
		return diag_file(d, t->p.path, "the program has no instruction or host store to "
				 "stop at"), TGT_USAGE;
	if (line > INT32_MAX || !has_unit(t, (long)line))
		return diag_file(d, t->p.path, "line %" PRIu64 " has no instruction or host store; "
				 "the nearest line with one is %ld", line, best), TGT_USAGE;
	bp->kind = BP_LINE;
	bp->a = line;
	snprintf(bp->what, sizeof bp->what, "%s:%" PRIu64, t->p.path, line);
	return TGT_OK;
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

static tgt_status vt_break_parse(tgt *t, const char *spec, tgt_bp *bp, diag *d)
{
	while (*spec == ' ' || *spec == '\t')
		spec++;
	memset(bp, 0, sizeof *bp);
	char word[16] = "", num[32] = "";
	uint64_t v;
	if (sscanf(spec, "%15[a-z] %31s", word, num) == 2 &&
	    (!strcmp(word, "instruction") || !strcmp(word, "cycle"))) {
		const bool insn = word[0] == 'i';
		if (!number(num, insn ? 1 : 0, UINT64_MAX, &v))
			return diag_file(d, t->p.path, "break %s: expected %s N, N a number%s", spec,
					 word, insn ? " from 1" : ""), TGT_USAGE;
		bp->kind = insn ? BP_INSN : BP_CYCLE;
		bp->a = v;
		snprintf(bp->what, sizeof bp->what, "%s %" PRIu64, word, v);
		return TGT_OK;
	}
	const char *colon = strrchr(spec, ':');
	if (colon && number(colon + 1, 1, UINT64_MAX, &v)) {
		const size_t n = (size_t)(colon - spec);
		if ((strlen(t->p.path) == n && !strncmp(spec, t->p.path, n)) ||
		    (strlen(base_name(t->p.path)) == n && !strncmp(spec, base_name(t->p.path), n)))
			return break_line(t, v, bp, d);
		return diag_file(d, t->p.path, "break %s: the program's file is %s", spec,
				 t->p.path), TGT_USAGE;
	}
	if (number(spec, 1, UINT64_MAX, &v))
		return break_line(t, v, bp, d);
	return diag_file(d, t->p.path, "break %s: expected FILE:LINE, LINE, instruction N or "
			 "cycle N", spec), TGT_USAGE;
}

static bool vt_break_hit(tgt *t, const tgt_bp *bp)
{
	if (t->pos.done || t->pos.next < 0)
		return false;
	const vima_stmt *s = &t->p.stmts[t->pos.next];
	switch (bp->kind) {
	case BP_LINE: return (uint64_t)s->line == bp->a;
	case BP_INSN: return s->kind == VIMA_S_INSN && t->u.st.insns + 1 == bp->a;
	default: /* the unit that crosses cycle N, once */
		return t->u.st.cycles >= bp->a && (units_done(t) == 0 || t->pos.prev_cycles < bp->a);
	}
}

/* ---- snapshots: a whole copy of the unit and of the reference ---- */

static tgt_snap *vt_save(tgt *t, diag *d)
{
	tgt_snap *s = calloc(1, sizeof *s);
	if (!s || vima_unit_clone(&s->u, &t->u, d) < 0) {
		free(s);
		diag_file(d, t->p.path, "out of memory for a snapshot");
		return NULL;
	}
	if (t->check && vima_ref_clone(&s->ref, &t->ref) < 0) {
		vima_unit_free(&s->u);
		free(s);
		diag_file(d, t->p.path, "out of memory for a snapshot");
		return NULL;
	}
	s->has_ref = t->check;
	s->pos = t->pos;
	return s;
}

static tgt_status vt_restore(tgt *t, const tgt_snap *s, diag *d)
{
	if (s->u.p != &t->p)
		return diag_file(d, t->p.path, "the snapshot is of another program"), TGT_USAGE;
	if (s->has_ref) {
		vima_reference r;
		if (vima_ref_clone(&r, &s->ref) < 0)
			return diag_file(d, t->p.path, "out of memory restoring a snapshot"), TGT_FAILED;
		vima_ref_free(&t->ref);
		t->ref = r;
	}
	vima_unit_assign(&t->u, &s->u);
	t->pos = s->pos;
	return TGT_OK;
}

static void vt_snap_free(tgt_snap *s)
{
	if (!s)
		return;
	vima_unit_free(&s->u);
	if (s->has_ref)
		vima_ref_free(&s->ref);
	free(s);
}

static size_t vt_snap_bytes(const tgt_snap *s)
{
	const uint64_t mem = s->u.p->mem_bytes;
	uint64_t n = sizeof *s + 2 * mem + mem / VIMA_HOST_LINE +
		     (uint64_t)(s->u.nlines + 3) * s->u.vbytes + s->u.nlines * sizeof(vima_line);
	if (s->has_ref)
		n += mem + s->ref.vbytes + s->ref.nlines * sizeof(vima_writer) +
		     s->ref.cap * (sizeof(uint64_t) + sizeof(vima_writer));
	return (size_t)n;
}

/* ---- info cache, and the cache view ---- */

/* Which array element a vector line's tag starts at. */
static void tag_name(const tgt *t, uint64_t addr, char *buf, size_t size)
{
	for (size_t i = 0; i < t->p.narrays; i++) {
		const vima_array *a = &t->p.arrays[i];
		if (addr >= a->base && addr < a->base + a->bytes) {
			snprintf(buf, size, "%s[%" PRIu64 "]", a->name,
				 (addr - a->base) / vima_type_size(a->type));
			return;
		}
	}
	snprintf(buf, size, "(padding)");
}

/* The vector cache's lines, one a row, each at most width characters
 * and at most height rows in all (0: no limit). */
static void cache_table(tgt *t, FILE *out, unsigned width, unsigned height)
{
	const vima_unit *u = &t->u;
	const int w = width ? (int)width : 1 << 20;
	fprintf(out, "%.*s\n", w, "line  valid  dirty  LRU  tag         vector");
	for (unsigned i = 0; i < u->nlines; i++) {
		if (height && i + 2 >= height && i + 1 < u->nlines) {
			fprintf(out, "%.*s\n", w, "...");
			return;
		}
		const vima_line *l = &u->lines[i];
		char row[256], name[96];
		unsigned rank = 0; /* 0: the most recently used */
		for (unsigned j = 0; j < u->nlines; j++)
			rank += u->lines[j].valid && u->lines[j].used > l->used;
		if (l->valid) {
			tag_name(t, l->tag, name, sizeof name);
			snprintf(row, sizeof row, "%4u  yes    %-5s  %3u  0x%08" PRIx64 "  %s", i,
				 l->dirty ? "yes" : "no", rank, l->tag, name);
		} else {
			snprintf(row, sizeof row, "%4u  no     -        -  -           -", i);
		}
		fprintf(out, "%.*s\n", w, row);
	}
}

static int info_cache(tgt *t, const char *args, FILE *out, diag *d)
{
	if (args && *args)
		return diag_file(d, t->p.path, "info cache takes no argument, got '%s'", args), -1;
	cache_table(t, out, 0, 0);
	return 0;
}

static void view_cache(tgt *t, FILE *out, unsigned width, unsigned height)
{
	cache_table(t, out, width, height);
}

static const tgt_info vt_infos[] = {
	{ "cache", "the vector cache's lines: valid, dirty, LRU rank, tag and the vector held",
	  info_cache },
	{ NULL, NULL, NULL },
};

static const tgt_view vt_views[] = {
	{ "cache", "the vector cache's lines (tag, state, dirty)", view_cache },
	{ NULL, NULL, NULL },
};

/* ---- the table ---- */

static const char *vt_why_not(unsigned can_bit)
{
	switch (can_bit) {
	case TGT_CAN_STRICT:
		return "the VIMA unit runs one instruction at a time and keeps the host coherent, "
		       "so there is no hazard to stop at";
	case TGT_CAN_THREADS:
		return "the VIMA unit runs one instruction at a time; there is nothing to split "
		       "over threads";
	default:
		return "VIMA does not take it";
	}
}

static const char *const vt_exts[] = { ".vima", NULL };

/* infsim commands vima: every instruction, its form, types and meaning. */
static void vt_commands(FILE *out)
{
	fprintf(out, "%-6s %-5s %-22s %s\n", "name", "form", "types", "semantics");
	static const char *const forms[] = { "d,a,b", "d,a", "d,v", "d,a,b" };
	for (int op = 0; op < VIMA_NOPS; op++) {
		const vima_op_info *in = vima_op_info_of((vima_op)op);
		char types[64] = "";
		size_t n = 0;
		for (int t = 0; t < VIMA_NTYPES; t++)
			if (in->types & (1u << t))
				n += (size_t)snprintf(types + n, sizeof types - n, "%s%s", n ? " " : "",
						      vima_type_name((vima_type)t));
		fprintf(out, "%-6s %-5s %-22s %s\n", in->name, forms[in->form], types,
			in->semantics);
	}
}

/* A program on standard input is VIMA's when a statement is one of its
 * instructions with a type (add.f32, mov.f64). */
static bool claims(const char *head, size_t n)
{
	char w[64];
	for (unsigned k = 0; tgt_head_word(head, n, k, w, sizeof w); k++) {
		const char *dot = strchr(w, '.');
		if (w[0] != '.' && dot && vima_op_lookup(w, (size_t)(dot - w)) >= 0 &&
		    vima_type_lookup(dot + 1, strlen(dot + 1)) >= 0)
			return true;
	}
	return false;
}

const tgt_ops tgt_vima = {
	.name = "vima",
	.title = "VIMA (vector-in-memory)",
	.exts = vt_exts,
	.claims = claims,
	.options = vt_options,
	.settings_help = "vector=8192|256 (bytes), lines=1..4096 (vector cache lines), "
			 "max-steps=N (statements run at most)",
	.can = TGT_CAN_DEFINE | TGT_CAN_LOAD | TGT_CAN_SAVE | TGT_CAN_CHECK | TGT_CAN_MACHINE,
	.why_not = vt_why_not,
	.open = vt_open,
	.close = vt_close,
	.narrays = vt_narrays,
	.array = vt_array_info,
	.array_get = vt_array_get,
	.array_set = vt_array_set,
	.run = vt_run,
	.report = vt_report,
	.check = vt_check,
	.stats = vt_stats,
	.summary = vt_summary,
	.commands = vt_commands,
	.units = vt_units,
	.nunits = 1,
	.step = vt_step_hook,
	.ended = vt_ended,
	.count = vt_count,
	.where = vt_where,
	.source = vt_source,
	.lookup = vt_lookup,
	.read = vt_read,
	.write = vt_write,
	.names = vt_names,
	.break_parse = vt_break_parse,
	.break_hit = vt_break_hit,
	.break_help = vt_break_help,
	.save = vt_save,
	.restore = vt_restore,
	.snap_free = vt_snap_free,
	.snap_bytes = vt_snap_bytes,
	.infos = vt_infos,
	.views = vt_views,
};
