/* SPDX-License-Identifier: MIT */
/*
 * state.c: changing and saving the machine's state from infsdb:
 * `set var BUF[i] = EXPR` and `checkpoint save|load FILE`.
 *
 * A checkpoint holds the exact machine, wherever it stands: every way's
 * cells, latches, enable mask, sensed BL/BLB and last activated/written
 * wordlines, the ways and banks of the current command, the statistics
 * and the position (command and micro-op); in the middle of a
 * data-dependent command under latency=optimised, the rows it started
 * from (its per-bank traces came from them); and the bits of the data
 * in flight between banks until the next sync.  Its text header names
 * the format, the infsim version, the machine, a hash of the program's
 * canonical text and how the body is stored (raw or zstd: ckptfile.c),
 * and a checksum ends the body: a file whose header or checksum differs
 * is refused before anything changes.  Loading
 * replays the stream to the position (which rebuilds the reference
 * model, the hazard tracker, which transfers are pending and a half-run
 * command's traces), then installs the words.
 */
#include "config.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbg.h"
#include "text.h"
#include "outfile.h"

/* ---- set var ---- */

/* "BUF[INDEX] = EXPR" or "TENSOR[I][J] = EXPR": the element write
 * through the array's port.  In the middle of a data-dependent command
 * under latency=optimised the write is allowed: its per-bank traces
 * were found from the data it started with (duality-cache §3.1.2, the
 * controller decides as the command goes), so the rest of each trace
 * runs on the new data unchanged, which is what the hardware would do
 * with a cell written under it. */
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
	    dbg_eval(s, eq + 1, &v) < 0)
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
	 * so far (the data in flight and a half-run command's traces with
	 * it) and installing the words. */
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
	if (*dbg_trim(args) == '$') /* gdb's set var $i = 3 */
		return dbg_cmd_set_conv(s, args);
	return set_element(s, args);
}

/* ---- checkpoint files ---- */

/* Version 4: a fifth header line says how the body is stored ("body
 * raw" or "body zstd"), and the checksums are XXH3 (ckptfile.c).  (3:
 * FNV-1a checksums; 2: no checksum, start rows or data in flight.) */
#define CKPT_MAGIC "infsdb checkpoint 4"
#define CKPT_FORMAT "infsdb checkpoint "
#define CKPT_RAW "body raw\n"
#define CKPT_ZSTD "body zstd\n"

/* The hash of the program's canonical text, so the same stream gives
 * the same hash whatever its comments or spacing. */
static int program_hash(const emu_program *p, uint64_t *hash)
{
	char *text = emu_format(p);
	if (!text)
		return -1;
	*hash = dbg_ckpt_hash(text, strlen(text));
	free(text);
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

/* Room for count more words when saving: where they go, or NULL. */
static uint64_t *walk_room(walker *k, size_t count)
{
	if (!k->oom && k->n + count > k->cap) {
		size_t cap = (k->n + count) * 2;
		uint64_t *grown = realloc(k->w, cap * sizeof *grown);
		if (!grown)
			k->oom = true;
		else
			k->w = grown, k->cap = cap;
	}
	if (k->oom)
		return NULL;
	k->n += count;
	return k->w + k->n - count;
}

static void walk_words(walker *k, uint64_t *p, size_t count)
{
	if (k->save) {
		uint64_t *to = walk_room(k, count);
		if (to && count)
			memcpy(to, p, count * sizeof *p);
		return;
	}
	if (k->oom || k->n + count > k->cap) {
		k->oom = true;
		return;
	}
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

/* The words walk_machine walks last: the current command's cost so far
 * (5 words), then the position (2). */
enum { WALK_TAIL_CUR = 7, WALK_TAIL_POS = 2 };

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

/* ---- a snapshot's body ----
 *
 * w[0], w[1], w[2]: the sizes of the three parts that follow:
 *   the machine: walk_machine's words (SRAM, latches, marks, ways and
 *     banks of the command, statistics, the command's cost, position);
 *   the command's start rows, only while a data-dependent command runs
 *     per-bank traces (latency=optimised) and is half run: R, then R
 *     times a key (way << 32 | row; rows past the wordlines are the
 *     latches carry, tag, enable, BL, BLB) and the row's words as the
 *     command found them, for each row that changed since.  The traces
 *     came from that data (duality-cache §3.1.2): a load finds them
 *     again by running the command's first micro-ops from it;
 *   the data in flight between banks, waiting for the next sync
 *     (emu_mover_pending_words; infinity-stream §4.2): a replay rebuilds
 *     which transfers are pending, these words give their bits. */
typedef struct snap_body {
	uint64_t *walk, *start, *pend;
	size_t nwalk, nstart, npend;
} snap_body;

enum { BODY_HEAD = 3, LATCH_ROWS = 5 };

static bool body_of(const dbg_snapshot *snap, snap_body *b)
{
	const uint64_t *w = snap->w;
	if (!w || snap->n < BODY_HEAD || w[0] > snap->n || w[1] > snap->n || w[2] > snap->n ||
	    BODY_HEAD + w[0] + w[1] + w[2] != snap->n || w[0] < WALK_TAIL_CUR)
		return false;
	b->nwalk = (size_t)w[0];
	b->nstart = (size_t)w[1];
	b->npend = (size_t)w[2];
	b->walk = snap->w + BODY_HEAD;
	b->start = b->walk + b->nwalk;
	b->pend = b->start + b->nstart;
	return true;
}

/* Row r of way w: a wordline, or past them a latch. */
static uint64_t *way_row(const sram_machine *m, const sram_way *w, unsigned r)
{
	if (r < m->g.wordlines)
		return w->rows + (size_t)r * m->stride;
	uint64_t *lat[LATCH_ROWS] = { w->carry, w->tag, w->enable, w->bl, w->blb };
	return lat[r - m->g.wordlines];
}

/* The start rows of a half-run data-dependent command.  The machine's
 * trace finder (emu/machine/machine.c, find_traces) keeps in em->shadow the
 * state the command started from: the rows that differ from it now are
 * written.  0, or -1 when that copy is missing. */
static int walk_start_rows(walker *k, const emu_machine *em)
{
	if (!em->dd || em->upc == 0)
		return 0;
	const sram_machine *m = em->m, *then = em->shadow;
	if (!then)
		return -1;
	const size_t head = k->n;
	uint64_t count = 0;
	walk_u64(k, &count);
	for (unsigned w = 0; w < m->nways; w++)
		for (unsigned r = 0; r < m->g.wordlines + LATCH_ROWS; r++) {
			uint64_t *was = way_row(then, &then->ways[w], r);
			if (!memcmp(was, way_row(m, &m->ways[w], r), m->stride * sizeof *was))
				continue;
			uint64_t key = (uint64_t)w << 32 | r;
			walk_u64(k, &key);
			walk_words(k, was, m->stride);
			count++;
		}
	if (!k->oom)
		k->w[head] = count;
	return 0;
}

/* Put the start rows of body b into m.  false: they are malformed. */
static bool install_start_rows(sram_machine *m, const snap_body *b)
{
	const uint64_t *p = b->start, *end = b->start + b->nstart;
	const uint64_t count = *p++;
	for (uint64_t i = 0; i < count; i++) {
		if ((size_t)(end - p) < 1 + (size_t)m->stride)
			return false;
		const uint64_t way = p[0] >> 32, r = p[0] & 0xffffffffu;
		if (way >= m->nways || r >= m->g.wordlines + LATCH_ROWS)
			return false;
		uint64_t *row = way_row(m, &m->ways[way], (unsigned)r);
		memcpy(row, p + 1, m->stride * sizeof *row);
		mask_tails(m, row, 1);
		p += 1 + m->stride;
	}
	return p == end;
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

int dbg_snapshot_take(dbg_session *s, dbg_snapshot *snap)
{
	walker k = { NULL, 0, 0, true, false };
	uint64_t sizes[BODY_HEAD] = { 0, 0, 0 };
	walk_words(&k, sizes, BODY_HEAD);
	walk_machine(&k, s->em);
	const size_t machine_end = k.n;
	if (walk_start_rows(&k, s->em) < 0) {
		free(k.w);
		dbg_error(s, "command %zu is half run but the data it started from is not kept.",
			  s->em->pc);
		return -1;
	}
	const size_t start_end = k.n;
	const size_t npend = emu_mover_pending_words(s->em->mover, NULL);
	uint64_t *pend = walk_room(&k, npend);
	if (pend)
		emu_mover_pending_words(s->em->mover, pend);
	if (k.oom) {
		free(k.w);
		dbg_error(s, "out of memory");
		return -1;
	}
	k.w[0] = machine_end - BODY_HEAD;
	k.w[1] = start_end - machine_end;
	k.w[2] = npend;
	*snap = (dbg_snapshot){ k.w, k.n, NULL, 0 };
	return 0;
}

/* ---- rebuilding a machine from a snapshot ---- */

static emu_machine *machine_of(dbg_session *s, const dbg_snapshot *snap, diag *d,
			       const char **why);

/* The position the words hold (walk_machine walks it last). */
static bool snapshot_position(const dbg_session *s, const dbg_snapshot *snap, size_t *pc,
			      size_t *upc)
{
	snap_body b;
	if (!body_of(snap, &b) || b.walk[b.nwalk - 2] > s->prog.ncmds)
		return false;
	*pc = (size_t)b.walk[b.nwalk - 2];
	*upc = (size_t)b.walk[b.nwalk - 1];
	return true;
}

/* A data-dependent command half run (latency=optimised): install the
 * state it started from (the machine's words with the start rows put
 * back, at micro-op 0) and run its first upc micro-ops, which finds the
 * same per-bank traces from the same data.  The replayed cost must be
 * the saved one.  false: the snapshot does not lead to its position. */
static bool step_from_start(emu_machine *em, const snap_body *b, size_t pc, size_t upc,
			    diag *d)
{
	walker k = { b->walk, 0, b->nwalk, false, false };
	walk_machine(&k, em);
	if (k.oom || k.n != k.cap || !install_start_rows(em->m, b))
		return false;
	em->upc = 0;
	for (size_t i = 0; i < upc && emu_stepi(em, d) == 0; i++)
		;
	const uint64_t *cur = b->walk + b->nwalk - WALK_TAIL_CUR;
	const sram_count *c = &em->cur;
	return em->dd && em->pc == pc && em->upc == upc && c->cycles == cur[0] &&
	       c->reads == cur[1] && c->writes == cur[2] && c->logic == cur[3] &&
	       c->activations == cur[4];
}

/* A fresh machine run to the position of a checkpoint file's snapshot
 * (whole commands, then into the command: one micro-op to start it, or
 * step_from_start).  NULL with *why when the snapshot is inconsistent. */
static emu_machine *replayed_root(dbg_session *s, const dbg_snapshot *snap, diag *d,
				  const char **why)
{
	size_t pc, upc;
	snap_body b;
	emu_machine *em = emu_machine_new(&s->prog, d);
	if (!em || emu_init_buffers(em, d) != 0)
		return em;
	dbg_loads_start(s, em, NULL);
	if (!snap->w || !snapshot_position(s, snap, &pc, &upc) || !body_of(snap, &b))
		return em;
	for (size_t pc0 = em->pc; em->pc < pc && emu_run_cmd(em, d) >= 0 &&
				  dbg_strm_after(s, em, pc0, d) != -2; pc0 = em->pc)
		;
	const bool inside = upc && em->pc == pc;
	if (inside && b.nstart == 0) {
		emu_stepi(em, d); /* started: its hazard check is made */
	} else if (b.nstart && !(inside && step_from_start(em, &b, pc, upc, d))) {
		*why = "its command-start rows do not lead to its position";
		emu_machine_free(em);
		diag_clear(d);
		return NULL;
	}
	return em;
}

/* A machine replayed to the position of snap, before its words go in:
 * the mover's transfers in flight, the hazard tracker's record (what
 * was written, what is pending) and a half-run command's traces are
 * what they were there.  Replay errors are the ones the first run
 * already reported; NULL when the machine cannot be built (d set) or
 * the snapshot is inconsistent (*why set). */
static emu_machine *replayed(dbg_session *s, const dbg_snapshot *snap, diag *d,
			     const char **why)
{
	if (!snap->parent)
		return replayed_root(s, snap, d, why);
	emu_machine *em = snap->parent->w || snap->parent->parent
				  ? machine_of(s, snap->parent, d, why)
				  : replayed(s, snap->parent, d, why);
	for (uint64_t i = 0; em && i < snap->steps; i++) {
		const size_t pc0 = em->pc;
		if (emu_stepi(em, d) == 0 && em->upc == 0)
			dbg_strm_after(s, em, pc0, d); /* the first run reported its errors */
	}
	return em;
}

/* Install the words of snapshot body b into em, replayed to its
 * position: NULL, or what makes them not fit it. */
static const char *install_body(dbg_session *s, const dbg_snapshot *snap, const snap_body *b,
				emu_machine *em, diag *d)
{
	walker k = { b->walk, 0, b->nwalk, false, false };
	walk_machine(&k, em);
	if (k.oom || k.n != k.cap || em->pc > s->prog.ncmds ||
	    (em->upc && em->pc == s->prog.ncmds))
		return "wrong size or position";
	/* A half-run data-dependent command keeps the traces its replay
	 * found (em->up: the longest); any other gets its program. */
	if (em->upc && !em->dd &&
	    (emu_cmd_uprog(em, em->pc, &em->up) != 0 || em->upc >= em->up.n))
		return "wrong size or position";
	if (em->upc && em->dd && !snap->parent && b->nstart == 0)
		return "a data-dependent command is half run but its start rows are missing";
	if (b->npend != emu_mover_pending_words(em->mover, NULL) ||
	    emu_mover_set_pending_words(em->mover, b->pend, b->npend, d) != 0)
		return "its data in flight between banks does not match the transfers pending "
		       "at its position";
	return NULL;
}

/* A machine at the state of the snapshot's words, or NULL (d set: the
 * machine cannot be built; else *why says what is wrong). */
static emu_machine *machine_of(dbg_session *s, const dbg_snapshot *snap, diag *d,
			       const char **why)
{
	snap_body b;
	if (!body_of(snap, &b)) {
		*why = "wrong size";
		return NULL;
	}
	emu_machine *em = replayed(s, snap, d, why);
	if (!em)
		return NULL;
	diag_clear(d);
	const char *bad = install_body(s, snap, &b, em, d);
	if (bad) {
		*why = bad;
		diag_clear(d);
		emu_machine_free(em);
		return NULL;
	}
	return em;
}

int dbg_snapshot_restore(dbg_session *s, const dbg_snapshot *snap, const char *what)
{
	diag d;
	diag_clear(&d);
	const char *why = "wrong size or position";
	emu_machine *em = machine_of(s, snap, &d, &why);
	emu_ref *ref = em ? emu_ref_new(&s->prog, &d) : NULL;
	if (ref && emu_ref_init_buffers(ref) < 0) {
		emu_ref_free(ref);
		ref = NULL;
		diag_file(&d, s->prog.path, "out of memory for the reference model");
	}
	if (!ref) {
		if (d.set)
			dbg_error(s, "%s", d.msg);
		else
			dbg_error(s, "%s: the checkpoint's data is damaged (%s).", what, why);
		emu_machine_free(em);
		return -1;
	}
	/* the reference: what the stream computes up to this position */
	dbg_loads_start(s, NULL, ref);
	size_t ref_pc = 0;
	while (ref_pc < em->pc && dbg_ref_run_cmd(s, ref, ref_pc, &d) == 0)
		ref_pc++;
	snprintf(s->ref_err, sizeof s->ref_err, "%s", d.set ? d.msg : "");
	dbg_record_stop(s);
	emu_machine_free(s->em);
	emu_ref_free(s->ref);
	s->em = em;
	s->ref = ref;
	s->ref_pc = ref_pc;
	s->ref_stale = false;
	dbg_hazards_seen(s); /* the replay made the reports of the way there again */
	dbg_bp_reset_watch(s);
	return 0;
}

/* ---- the file ---- */

static int checkpoint_save(dbg_session *s, const char *path)
{
	char head[1024];
	if (header_text(s, head, sizeof head) < 0) {
		dbg_error(s, "out of memory");
		return -1;
	}
	dbg_snapshot snap;
	if (dbg_snapshot_take(s, &snap) < 0)
		return -1;
	unsigned char *body = NULL;
	size_t len = 0;
	const char *why = "out of memory";
	diag d;
	diag_clear(&d);
	int rc = dbg_ckpt_encode(snap.w, snap.n, s->ckpt_zstd, &body, &len, &why);
	free(snap.w);
	outfile o;
	if (rc == 0 && (rc = outfile_open(&o, path, &d)) == 0) {
		fputs(head, o.f);
		fputs(s->ckpt_zstd ? CKPT_ZSTD : CKPT_RAW, o.f);
		fwrite(body, 1, len, o.f);
		rc = outfile_commit(&o, &d);
	}
	free(body);
	if (rc < 0) {
		dbg_error(s, "checkpoint save: %s", d.set ? d.msg : why);
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
			const bool other_format = line == 0 && shown > (int)strlen(CKPT_FORMAT) &&
						  !strncmp(bytes, CKPT_FORMAT, strlen(CKPT_FORMAT));
			dbg_error(s, "%s: this file %s (it says \"%.*s\"; expected \"%.*s\").", path,
				  other_format ? "is in another checkpoint format, which this infsdb "
						 "does not read" : what[line],
				  shown, bytes + at, (int)n - 1, head + at);
			return -1;
		}
		at += n;
	}
	*body = at;
	return 0;
}

/* The most bytes a checkpoint of this session's machine may hold: its
 * header (at most 1 KiB, with room to spare), the statistics, and eight
 * times its cells and latches (the machine, a half-run command's start
 * rows with their keys, and the data in flight between banks, which a
 * sync bounds to a few copies of the machine).  doc/TESTING.md lists it
 * with the other readers' limits. */
static size_t checkpoint_limit(const dbg_session *s)
{
	const sram_geom *g = &s->prog.geom;
	const uint64_t wpa = (g->bitlines + 63) / 64;
	const uint64_t ways = (uint64_t)g->mesh_x * g->mesh_y * g->ways_per_bank;
	const uint64_t banks = (uint64_t)g->mesh_x * g->mesh_y;
	const uint64_t cells = ways * g->arrays_per_way * wpa * (g->wordlines + LATCH_ROWS + 1);
	const uint64_t words = 64 + ISA_OP_COUNT * 16 + banks * 8 + ways * 8 + 8 * cells;
	const uint64_t limit = (UINT64_C(1) << 20) + 8 * words;
	return limit < SIZE_MAX / 2 ? (size_t)limit : SIZE_MAX / 2;
}

/* After the header: how the body is stored.  1 for zstd, 0 for raw,
 * -1 with an error. */
static int body_kind(dbg_session *s, const char *path, const char *bytes, size_t len,
		     size_t *body)
{
	const size_t at = *body;
	for (int zstd = 0; zstd < 2; zstd++) {
		const char *line = zstd ? CKPT_ZSTD : CKPT_RAW;
		if (len - at >= strlen(line) && !memcmp(bytes + at, line, strlen(line))) {
			*body = at + strlen(line);
			return zstd;
		}
	}
	const char *nl = memchr(bytes + at, '\n', len - at);
	const int shown = nl && nl - (bytes + at) < 200 ? (int)(nl - (bytes + at)) : 0;
	dbg_error(s, "%s: the checkpoint's fifth line says \"%.*s\"; expected \"body raw\" or "
		  "\"body zstd\".", path, shown, bytes + at);
	return -1;
}

/* The body of a checkpoint file as words, its checksum checked and
 * dropped.  0, or -1 with an error. */
static int read_body(dbg_session *s, const char *path, dbg_snapshot *snap)
{
	char *raw = NULL;
	size_t len = 0, body;
	diag d;
	diag_clear(&d);
	*snap = (dbg_snapshot){ NULL, 0, NULL, 0 };
	const size_t limit = checkpoint_limit(s);
	if (text_read_file(path, limit, &raw, &len, &d) < 0) {
		dbg_error(s, "%s", d.msg);
		return -1;
	}
	int zstd = check_header(s, path, raw, len, &body);
	if (zstd == 0)
		zstd = body_kind(s, path, raw, len, &body);
	const char *why = NULL;
	int rc = zstd < 0 ? -1
			  : dbg_ckpt_decode((const unsigned char *)raw + body, len - body, zstd,
					    limit, &snap->w, &snap->n, &why);
	free(raw);
	if (rc < 0 && why && !strcmp(why, "out of memory"))
		dbg_error(s, "out of memory");
	else if (rc < 0 && why)
		dbg_error(s, "%s: the checkpoint's data is damaged (%s).", path, why);
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

/* set checkpoint compression zstd|none: how `checkpoint save` stores
 * the body; `checkpoint load` reads either, from the file's header. */
int dbg_cmd_set_checkpoint(dbg_session *s, char *args)
{
	char *save = NULL, *what = strtok_r(args, " \t", &save);
	char *val = strtok_r(NULL, " \t", &save);
	if (!what || strcmp(what, "compression") != 0 || !val || strtok_r(NULL, " \t", &save) ||
	    (strcmp(val, "zstd") != 0 && strcmp(val, "none") != 0)) {
		dbg_error(s, "set checkpoint: expected \"compression zstd\" or \"compression none\".");
		return -1;
	}
	s->ckpt_zstd = !strcmp(val, "zstd");
	return 0;
}
