/*
 * state.c: changing and saving the machine's state from infsdb:
 * `set var BUF[i] = EXPR` and `checkpoint save|load FILE`.
 *
 * A checkpoint holds the exact machine: every way's cells, latches,
 * enable mask, sensed BL/BLB and last activated/written wordlines, the
 * ways and banks of the current command, the statistics and the
 * position (command and micro-op).  Its text header names the format,
 * the infsim version, the machine and a hash of the program's canonical
 * text; a file whose header differs is refused before anything changes.
 * The reference model is rebuilt by replaying the finished commands.
 */
#include "config.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbg.h"
#include "lex.h"
#include "outfile.h"

/* ---- set var ---- */

/* A data-dependent command half run under latency=optimised has
 * per-bank traces found from the data it started with: a state taken
 * there could not be run on (the traces are not part of it). */
static int refuse_mid_trace(dbg_session *s, const char *what)
{
	if (!s->em->dd || s->em->upc == 0)
		return 0;
	dbg_error(s, "%s: command %zu depends on the data (latency=optimised) and is half run; "
		  "step to its end first (\"step\").", what, s->em->pc);
	return -1;
}

/* "BUF[INDEX] = EXPR" or "TENSOR[I][J] = EXPR": the element write
 * through the array's port. */
static int set_element(dbg_session *s, char *args)
{
	char *eq = strchr(args, '=');
	if (!eq || eq[1] == '=') {
		dbg_error(s, "set var: expected BUF[INDEX] = EXPR.");
		return -1;
	}
	*eq = '\0';
	const emu_buffer *b;
	uint64_t i;
	dbg_value v;
	if (dbg_eval_element(s, args, &b, &i) < 0 || dbg_need_machine(s) < 0 ||
	    refuse_mid_trace(s, "set var") < 0 || dbg_eval(s, eq + 1, &v) < 0)
		return -1;
	/* a float or .qN element gets the value rounded to its format, as
	 * the machine's fp mode rounds (fp=ftz flushes a tiny result) */
	char err[256];
	uint64_t bits;
	if (dbg_value_to_element(&v, b, s->prog.geom.fp_ieee ? ISA_FL_IEEE : 0, &bits, err,
				 sizeof err) < 0) {
		dbg_error(s, "set var: %s", err);
		return -1;
	}
	/* Replaying from the start would lose the write: reverse execution
	 * now starts from here, a state found again by replaying the history
	 * so far (the data in flight with it) and installing the words. */
	dbg_snapshot *parent = malloc(sizeof *parent);
	if (!parent) {
		dbg_error(s, "out of memory");
		return -1;
	}
	emu_elem_set(s->em, b, i, bits);
	dbg_record_step(s);
	dbg_snapshot snap;
	if (dbg_snapshot_take(s, &snap) < 0) {
		free(parent);
		return -1;
	}
	*parent = s->base;
	snap.parent = parent;
	snap.steps = s->since;
	s->base = (dbg_snapshot){ NULL, 0, NULL, 0 }; /* moved into parent */
	dbg_history_reset(s, &snap);
	return 0;
}

int dbg_cmd_set_var(dbg_session *s, char *args)
{
	return set_element(s, args);
}

/* ---- checkpoint files ---- */

static emu_machine *machine_of(dbg_session *s, const dbg_snapshot *snap, diag *d);

/* Version 2: a way's marks gained the many-wordline set (last_set). */
#define CKPT_MAGIC "infsdb checkpoint 2"

/* FNV-1a of the program's canonical text: the same stream gives the
 * same hash whatever its comments or spacing. */
static int program_hash(const emu_program *p, uint64_t *hash)
{
	char *text = emu_format(p);
	if (!text)
		return -1;
	uint64_t h = UINT64_C(14695981039346656037);
	for (const char *c = text; *c; c++)
		h = (h ^ (unsigned char)*c) * UINT64_C(1099511628211);
	free(text);
	*hash = h;
	return 0;
}

static int header_text(const dbg_session *s, char *buf, size_t size)
{
	char geom[256];
	uint64_t hash;
	if (program_hash(&s->prog, &hash) < 0)
		return -1;
	emu_geom_format(&s->prog.geom, geom, sizeof geom);
	snprintf(buf, size, CKPT_MAGIC "\ninfsim %s\nmachine %s\nprogram %016" PRIx64 " %zu\n",
		 PACKAGE_VERSION, geom, hash, s->prog.ncmds);
	return 0;
}

/* The machine's state as a list of words, the same walk for saving
 * (save true: copy out) and loading (copy in). */
typedef struct walker {
	uint64_t *w;
	size_t n, cap;
	bool save, oom;
} walker;

static void walk_words(walker *k, uint64_t *p, size_t count)
{
	if (k->save && k->n + count > k->cap) {
		size_t cap = (k->n + count) * 2;
		uint64_t *grown = realloc(k->w, cap * sizeof *grown);
		if (!grown) {
			k->oom = true;
			return;
		}
		k->w = grown;
		k->cap = cap;
	}
	if (k->oom || (!k->save && k->n + count > k->cap)) {
		k->oom = true;
		return;
	}
	if (k->save)
		memcpy(k->w + k->n, p, count * sizeof *p);
	else
		memcpy(p, k->w + k->n, count * sizeof *p);
	k->n += count;
}

static void walk_u64(walker *k, uint64_t *v)
{
	walk_words(k, v, 1);
}

static void walk_count(walker *k, sram_count *c)
{
	uint64_t *f[] = { &c->cycles, &c->reads, &c->writes, &c->logic, &c->activations };
	for (int i = 0; i < 5; i++)
		walk_u64(k, f[i]);
}

/* Clear the bits past an array's last bitline in n rows of a loaded way
 * (they are never enabled and always read 0), whatever the file held. */
static void mask_tails(const sram_machine *m, uint64_t *rows, size_t n)
{
	for (size_t r = 0; r < n; r++)
		for (unsigned a = 0; a < m->g.arrays_per_way; a++)
			rows[r * m->stride + a * m->wpa + m->wpa - 1] &= m->tail;
}

static void walk_way(walker *k, const sram_machine *m, sram_way *w)
{
	walk_words(k, w->rows, (size_t)m->stride * m->g.wordlines);
	uint64_t *lat[] = { w->carry, w->tag, w->enable, w->bl, w->blb };
	for (int i = 0; i < 5; i++)
		walk_words(k, lat[i], m->stride);
	if (!k->save) {
		mask_tails(m, w->rows, m->g.wordlines);
		for (int i = 0; i < 5; i++)
			mask_tails(m, lat[i], 1);
	}
	uint64_t marks[6] = { w->last_act[0], w->last_act[1], w->last_act[2],
			      w->last_nact, w->last_dst, w->last_set };
	walk_words(k, marks, 6);
	for (int i = 0; i < 3; i++)
		w->last_act[i] = (uint16_t)marks[i];
	/* A set's count is its popcount; otherwise at most three rows. */
	const uint64_t nact = marks[5] ? (uint64_t)__builtin_popcountll(marks[5])
				       : marks[3] <= SRAM_MAX_ACT ? marks[3] : 0;
	w->last_nact = (uint8_t)nact;
	w->last_set = marks[5];
	w->last_dst = (uint16_t)marks[4];
}

static void walk_flags(walker *k, uint8_t *flags, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		uint64_t v = flags[i];
		walk_u64(k, &v);
		flags[i] = v != 0;
	}
}

static void walk_machine(walker *k, emu_machine *em)
{
	sram_machine *m = em->m;
	for (unsigned w = 0; w < m->nways; w++)
		walk_way(k, m, &m->ways[w]);
	walk_flags(k, em->way_on, m->nways);
	walk_flags(k, em->bank_on, m->nbanks);
	emu_stats *st = &em->st;
	walk_count(k, &st->total);
	walk_u64(k, &st->base_cycles);
	for (unsigned op = 0; op < ISA_OP_COUNT; op++) {
		walk_count(k, &st->by_op[op]);
		walk_u64(k, &st->cmds_by_op[op]);
		walk_u64(k, &st->base_by_op[op]);
	}
	for (unsigned b = 0; b < m->nbanks; b++)
		walk_count(k, &st->by_bank[b]);
	uint64_t *f[] = { &st->commands, &st->bank_skips, &st->ttu_cycles, &st->ttu_bits };
	for (int i = 0; i < 4; i++)
		walk_u64(k, f[i]);
	walk_count(k, &em->cur);
	uint64_t pos[2] = { em->pc, em->upc };
	walk_words(k, pos, 2);
	em->pc = (size_t)pos[0];
	em->upc = (size_t)pos[1];
}

/* Data sent to another bank and not yet delivered lives in the mover
 * (emu/move.h), not in the SRAM: a checkpoint file, which holds the
 * SRAM and is loaded by replaying whole commands, cannot hold it
 * (infinity-stream §4.2: it becomes visible only at the next sync). */
static int refuse_in_flight(dbg_session *s)
{
	const size_t n = emu_mover_pending(s->em->mover);
	if (n == 0)
		return 0;
	dbg_error(s, "checkpoint save: %zu wordline transfer%s between banks %s in flight until "
		  "the next sync; a checkpoint cannot hold data in flight: step past the sync "
		  "first.", n, n == 1 ? "" : "s", n == 1 ? "is" : "are");
	return -1;
}

static int checkpoint_save(dbg_session *s, const char *path)
{
	char head[1024];
	walker k = { NULL, 0, 0, true, false };
	diag d;
	diag_clear(&d);
	/* Its per-bank micro-op sequences depend on the data it started
	 * from, which a checkpoint of the middle no longer holds. */
	if (refuse_mid_trace(s, "checkpoint save") < 0 || refuse_in_flight(s) < 0)
		return -1;
	if (header_text(s, head, sizeof head) < 0) {
		dbg_error(s, "out of memory");
		return -1;
	}
	walk_machine(&k, s->em);
	outfile o;
	int rc = k.oom ? -1 : outfile_open(&o, path, &d);
	if (rc == 0) {
		fputs(head, o.f);
		for (size_t i = 0; i < k.n; i++)
			for (unsigned b = 0; b < 8; b++)
				fputc((int)((k.w[i] >> (8 * b)) & 0xff), o.f);
		rc = outfile_commit(&o, &d);
	}
	free(k.w);
	if (rc < 0) {
		dbg_error(s, "checkpoint save: %s", d.set ? d.msg : "out of memory");
		return -1;
	}
	printf("Checkpoint of command %zu, micro-op %zu saved to %s.\n", s->em->pc, s->em->upc,
	       path);
	return 0;
}

/* Compare the file's header line by line with this session's. */
static int check_header(dbg_session *s, const char *path, const char *bytes, size_t len,
			size_t *body)
{
	char head[1024];
	if (header_text(s, head, sizeof head) < 0) {
		dbg_error(s, "out of memory");
		return -1;
	}
	static const char *const what[] = { "is not an infsdb checkpoint",
		"was written by another version of infsim", "is for another machine",
		"was saved from another program" };
	size_t at = 0;
	for (int line = 0; line < 4; line++) {
		size_t n = strcspn(head + at, "\n") + 1;
		if (at + n > len || memcmp(bytes + at, head + at, n) != 0) {
			const char *nl = at < len ? memchr(bytes + at, '\n', len - at) : NULL;
			int shown = nl && nl - (bytes + at) < 200 ? (int)(nl - (bytes + at)) : 0;
			dbg_error(s, "%s: this file %s (it says \"%.*s\"; expected \"%.*s\").", path,
				  what[line], shown, bytes + at, (int)n - 1, head + at);
			return -1;
		}
		at += n;
	}
	*body = at;
	return 0;
}

void dbg_snapshot_free(dbg_snapshot *snap)
{
	if (snap->parent) {
		dbg_snapshot_free(snap->parent);
		free(snap->parent);
	}
	free(snap->w);
	*snap = (dbg_snapshot){ NULL, 0, NULL, 0 };
}

/* The position the words hold (walk_machine walks it last). */
static bool snapshot_position(const dbg_session *s, const dbg_snapshot *snap, size_t *pc,
			      size_t *upc)
{
	if (snap->n < 2 || snap->w[snap->n - 2] > s->prog.ncmds)
		return false;
	*pc = (size_t)snap->w[snap->n - 2];
	*upc = (size_t)snap->w[snap->n - 1];
	return true;
}

/* A machine replayed to the position of snap, before its words go in:
 * the mover's transfers in flight and the hazard tracker's record (what
 * was written, what is pending) are what they were there.  Replay errors
 * are the ones the first run already reported; NULL only when the
 * machine cannot be built. */
static emu_machine *replayed(dbg_session *s, const dbg_snapshot *snap, diag *d)
{
	size_t pc, upc;
	if (!snap->parent) {
		emu_machine *em = emu_machine_new(&s->prog, d);
		if (!em || emu_init_buffers(em, d) != 0 || !snap->w ||
		    !snapshot_position(s, snap, &pc, &upc))
			return em;
		while (em->pc < pc && emu_run_cmd(em, d) >= 0)
			;
		if (upc && em->pc == pc)
			emu_stepi(em, d); /* started: its hazard check is made */
		return em;
	}
	emu_machine *em = snap->parent->w || snap->parent->parent
				  ? machine_of(s, snap->parent, d)
				  : replayed(s, snap->parent, d);
	for (uint64_t i = 0; em && i < snap->steps; i++)
		emu_stepi(em, d);
	return em;
}

/* A machine at the state of the snapshot's words, or NULL (bad). */
static emu_machine *machine_of(dbg_session *s, const dbg_snapshot *snap, diag *d)
{
	emu_machine *em = replayed(s, snap, d);
	if (!em)
		return NULL;
	diag_clear(d);
	walker k = { snap->w, 0, snap->n, false, false };
	walk_machine(&k, em);
	bool bad = k.oom || k.n != k.cap || em->pc > s->prog.ncmds ||
		   (em->upc && em->pc == s->prog.ncmds);
	if (!bad && em->upc)
		bad = emu_cmd_uprog(em, em->pc, &em->up) != 0 || em->upc >= em->up.n;
	if (bad) {
		emu_machine_free(em);
		return NULL;
	}
	return em;
}

int dbg_snapshot_restore(dbg_session *s, const dbg_snapshot *snap, const char *what)
{
	diag d;
	diag_clear(&d);
	emu_machine *em = machine_of(s, snap, &d);
	emu_ref *ref = em ? emu_ref_new(&s->prog, &d) : NULL;
	if (!ref) {
		if (d.set)
			dbg_error(s, "%s", d.msg);
		else
			dbg_error(s, "%s: the checkpoint's data is damaged (wrong size or position).", what);
		emu_machine_free(em);
		return -1;
	}
	/* the reference: what the stream computes up to this position */
	emu_ref_init_buffers(ref);
	size_t ref_pc = 0;
	while (ref_pc < em->pc && emu_ref_run_cmd(ref, ref_pc, &d) == 0)
		ref_pc++;
	snprintf(s->ref_err, sizeof s->ref_err, "%s", d.set ? d.msg : "");
	dbg_record_stop(s);
	emu_machine_free(s->em);
	emu_ref_free(s->ref);
	s->em = em;
	s->ref = ref;
	s->ref_pc = ref_pc;
	dbg_hazards_seen(s); /* the replay made the reports of the way there again */
	dbg_bp_reset_watch(s);
	return 0;
}

int dbg_snapshot_take(dbg_session *s, dbg_snapshot *snap)
{
	walker k = { NULL, 0, 0, true, false };
	walk_machine(&k, s->em);
	if (k.oom) {
		free(k.w);
		dbg_error(s, "out of memory");
		return -1;
	}
	*snap = (dbg_snapshot){ k.w, k.n, NULL, 0 };
	return 0;
}

/* The body of a checkpoint file as words.  0, or -1 with an error. */
static int read_body(dbg_session *s, const char *path, dbg_snapshot *snap)
{
	char *bytes = NULL;
	size_t len = 0, body;
	diag d;
	diag_clear(&d);
	*snap = (dbg_snapshot){ NULL, 0, NULL, 0 };
	if (emu_read_file(path, &bytes, &len, &d) < 0) {
		dbg_error(s, "%s", d.msg);
		return -1;
	}
	int rc = check_header(s, path, bytes, len, &body);
	if (rc == 0 && (len - body) % 8) {
		dbg_error(s, "%s: the checkpoint's data is damaged (wrong size or position).", path);
		rc = -1;
	}
	snap->n = rc == 0 ? (len - body) / 8 : 0;
	snap->w = NULL;
	if (rc == 0 && !(snap->w = malloc(snap->n ? snap->n * sizeof *snap->w : 1))) {
		dbg_error(s, "out of memory");
		rc = -1;
	}
	for (size_t i = 0; rc == 0 && i < snap->n; i++) {
		snap->w[i] = 0;
		for (unsigned b = 0; b < 8; b++)
			snap->w[i] |= (uint64_t)(unsigned char)bytes[body + i * 8 + b] << (8 * b);
	}
	free(bytes);
	return rc;
}

static int checkpoint_load(dbg_session *s, const char *path)
{
	dbg_snapshot snap;
	if (read_body(s, path, &snap) < 0 || dbg_snapshot_restore(s, &snap, path) < 0) {
		free(snap.w);
		return -1;
	}
	/* the loaded state is where reverse execution stops */
	dbg_history_reset(s, &snap);
	printf("Checkpoint %s loaded.\n", path);
	dbg_print_position(s);
	return 0;
}

int dbg_cmd_checkpoint_save(dbg_session *s, char *args)
{
	char *path = dbg_trim(args);
	if (!*path) {
		dbg_error(s, "checkpoint save: expected a file name.");
		return -1;
	}
	if (dbg_need_machine(s) < 0)
		return -1;
	return checkpoint_save(s, path);
}

int dbg_cmd_checkpoint_load(dbg_session *s, char *args)
{
	char *path = dbg_trim(args);
	if (!*path) {
		dbg_error(s, "checkpoint load: expected a file name.");
		return -1;
	}
	if (!s->loaded) {
		dbg_error(s, "No program loaded.");
		return -1;
	}
	return checkpoint_load(s, path);
}
