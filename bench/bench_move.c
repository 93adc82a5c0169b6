/* SPDX-License-Identifier: MIT */
/*
 * bench_move.c: throughput of the data-movement engine (emu/machine/move.h) over
 * the whole default machine (sram_geom_default(): 64 banks x 16 ways x 16
 * arrays x 256x256 = 4M bitlines), next to a scalar model of each move,
 * and the time to map the moves of a 2048 x 2048 fp32 array to banks
 * (infinity-stream §4.1 tile selection, §4.2 Algorithms 1 and 2, and the
 * runtime's step 3: "intersects the commands' tile pattern and the tiles
 * mapped to each L3 bank").  doc/PERFORMANCE.md, "Data movement", records
 * the figures.
 *
 * This is a benchmark, not a test: it prints figures and never judges
 * them by time.  It fails (prints FAIL, exits 1) only on a wrong bit:
 * every run is checked on a sample of elements read back bit by bit
 * (sram_get_bit), and the last run of each case on every element,
 * against a scalar model of the same move written here over element
 * values (the source rows must also be left as they were).  The
 * bench's own expansion of commands into banks must also count the same
 * (command, bank) pairs as the engine does.
 *
 * Rows: a 32-bit source value per bitline at wordlines 0..31, another
 * (what the destination held before) at 32..63, a scratch row at 64.
 * Each run starts from the same snapshot of the machine, with a fresh
 * mover (no hazard tracking); only the engine's calls are timed.  The
 * engine uses threads only for micro-ops (intra-array shifts, constants:
 * the executor's, or the bank controllers' of a shift by 2 or more,
 * both counted by sram_set_threads): those cases run with 2 threads and
 * with 1; transfers, syncs, the lowering and the bank expansion are
 * single threaded.  The reference is one thread.
 * Usage: bench_move [repetitions]
 * Each figure is the best of several runs: the given number, or as many
 * as fit in about a quarter of a second (3 to 20), counting whole runs
 * (snapshot copy and checks included) so that the bench stays short.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "layout.h"
#include "move.h"
#include "net.h"

enum {
	WIDTH = 32, ROW_A = 0, ROW_D = 32, ROW_SCRATCH = 64, SAMPLES = 4096,
	THREADS = 2, TENSOR = 2048,
};

struct bench {
	sram_machine *m;   /* where each run happens */
	sram_machine *m0;  /* the snapshot every run starts from */
	sram_geom g;
	uint64_t count;    /* elements = bitlines of the machine */
	unsigned B, narrays, nbanks;
	uint64_t *a, *d0;  /* source values; what the destination held */
	uint64_t *ref, *got;
	int reps;
	bool failed;
};

/* One move and its scalar model: for each array a of c.arrays and each
 * copy j < copies, element (a, b) for b in [b0, b1) goes to element
 * (a + dist + j * stride, b + bshift); a constant writes value there. */
struct mcase {
	char label[64];
	emu_move c;
	bool sync;         /* a sync follows: every destination is in
			    * another bank, so none lands before it */
	int64_t dist, stride, bshift;
	uint64_t copies;
	unsigned b0, b1;
};

struct timing {
	int threads;       /* of the micro-op executor */
	double move, sync; /* best seconds of the move and of its sync */
	double total;      /* best of move + sync in one run */
};

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p) {
		fprintf(stderr, "bench_move: out of memory\n");
		exit(1);
	}
	return p;
}

static uint64_t sample_elem(const struct bench *B, uint64_t s)
{
	return s == SAMPLES ? B->count - 1 : (s * UINT64_C(2654435761)) % B->count;
}

/* ---- the scalar model ---- */

/* Destination (array, bitline) pairs the move writes. */
static uint64_t cells_of(const struct mcase *k)
{
	return emu_pattern_size(&k->c.arrays) * k->copies * (k->b1 - k->b0);
}

/* The plain-C move over element values (element e = array e / B,
 * bitline e % B), into out. */
static void model_move(const struct bench *B, const struct mcase *k, uint64_t *out)
{
	const emu_move *c = &k->c;
	const uint64_t na = emu_pattern_size(&c->arrays);
	const bool constant = c->kind == EMU_MOVE_CONST;
	for (uint64_t i = 0; i < na; i++) {
		const int64_t a = emu_pattern_at(&c->arrays, i);
		const uint64_t *from = B->a + (uint64_t)a * B->B;
		for (uint64_t j = 0; j < k->copies; j++) {
			const int64_t t = a + k->dist + (int64_t)j * k->stride;
			uint64_t *to = out + (t * (int64_t)B->B + k->bshift);
			for (unsigned b = k->b0; b < k->b1; b++)
				to[b] = constant ? c->value : from[b];
		}
	}
}

static void model_tensor(const struct bench *B, unsigned dim, uint64_t *out);

/* Best of several passes of the model; ref is left holding its result. */
struct model_pass {
	struct bench *B;
	const struct mcase *k;  /* a move case, or NULL: the tensor shift */
	unsigned dim;
};

static void model_pass(void *ctx)
{
	const struct model_pass *m = ctx;
	if (m->k)
		model_move(m->B, m->k, m->B->ref);
	else
		model_tensor(m->B, m->dim, m->B->ref);
}

static double time_model(struct bench *B, const struct mcase *k, unsigned dim)
{
	struct model_pass m = {B, k, dim};
	memcpy(B->ref, B->d0, B->count * sizeof *B->ref);
	return bench_best(B->reps, model_pass, &m);
}

/* ---- checks ---- */

static bool report_bad(struct bench *B, const char *label, const char *what,
		       uint64_t e, uint64_t want, uint64_t got)
{
	printf("%s FAIL (%s): array %" PRIu64 " bitline %" PRIu64 ": expected 0x%08"
	       PRIx64 ", SRAM 0x%08" PRIx64 "\n", label, what, e / B->B, e % B->B,
	       want, got);
	B->failed = true;
	return false;
}

/* The destination rows against want and the source rows against the
 * source values: a sample bit by bit, or every element. */
static bool check_rows(struct bench *B, const char *label, const char *when,
		       const uint64_t *want, bool full)
{
	char what[80];
	for (uint64_t s = 0; s <= SAMPLES; s++) {
		const uint64_t e = sample_elem(B, s);
		const uint64_t d = bench_get_one(B->m, ROW_D, WIDTH, e);
		const uint64_t a = bench_get_one(B->m, ROW_A, WIDTH, e);
		snprintf(what, sizeof what, "%s, destination, sample", when);
		if (d != want[e])
			return report_bad(B, label, what, e, want[e], d);
		snprintf(what, sizeof what, "%s, source, sample", when);
		if (a != B->a[e])
			return report_bad(B, label, what, e, B->a[e], a);
	}
	if (!full)
		return true;
	const unsigned rows[2] = {ROW_D, ROW_A};
	const uint64_t *wants[2] = {want, B->a};
	for (unsigned r = 0; r < 2; r++) {
		bench_get(B->m, rows[r], WIDTH, B->got);
		snprintf(what, sizeof what, "%s, %s, every element", when,
			 r ? "source" : "destination");
		for (uint64_t e = 0; e < B->count; e++)
			if (B->got[e] != wants[r][e])
				return report_bad(B, label, what, e, wants[r][e], B->got[e]);
	}
	return true;
}

/* ---- timed runs ---- */

static emu_mover *new_mover(struct bench *B)
{
	emu_mover *mv = emu_mover_new(B->m, NULL, "bench_move");
	if (!mv) {
		fprintf(stderr, "bench_move: out of memory\n");
		exit(1);
	}
	return mv;
}

static bool run_cmd(struct bench *B, emu_mover *mv, const struct mcase *k,
		    const emu_move *c, size_t n)
{
	diag d;
	diag_clear(&d);
	if (emu_move_run(mv, c, n, &d) == 0)
		return true;
	printf("%s FAIL: the engine refuses the command: %s\n", k->label, d.msg);
	B->failed = true;
	return false;
}

/* One run from the snapshot: the move, then (before the sync, nothing
 * bound for another bank may have landed) the sync.  Returns the mover
 * (the caller reads its statistics), NULL on a failure. */
static emu_mover *run_once(struct bench *B, const struct mcase *k, bool last,
			   struct timing *t)
{
	const emu_move sync = emu_move_sync();
	sram_copy_state(B->m, B->m0);
	emu_mover *mv = new_mover(B);
	const double t0 = bench_now();
	bool ok = run_cmd(B, mv, k, &k->c, 0);
	const double t1 = bench_now();
	double t2 = t1;
	if (ok && k->sync) {
		ok = check_rows(B, k->label, "before the sync", B->d0, false);
		const double ts = bench_now();
		ok = ok && run_cmd(B, mv, k, &sync, 1);
		t2 = bench_now();
		t->sync = t2 - ts < t->sync ? t2 - ts : t->sync;
		t2 = t1 + (t2 - ts);
	}
	t->move = t1 - t0 < t->move ? t1 - t0 : t->move;
	t->total = t2 - t0 < t->total ? t2 - t0 : t->total;
	if (ok && check_rows(B, k->label, "after the move", B->ref, last))
		return mv;
	emu_mover_free(mv);
	return NULL;
}

/* Best of several runs; the mover of the last run (its statistics) is
 * returned, NULL on a failure.  The rep rule counts whole runs (the copy
 * of the snapshot and the checks too), which keeps the bench short. */
static emu_mover *time_engine(struct bench *B, const struct mcase *k,
			      int threads, struct timing *t)
{
	double spent = 0;
	t->threads = threads;
	t->move = t->sync = t->total = 1e30;
	sram_set_threads(threads);
	for (int r = 0;; r++) {
		const bool last = bench_last_rep(B->reps, r, spent);
		const double w0 = bench_now();
		emu_mover *mv = run_once(B, k, last, t);
		if (!mv || last)
			return mv;
		emu_mover_free(mv);
		spent += bench_now() - w0;
	}
}

/* ---- printing ---- */

static void print_traffic(const emu_mover *mv, bool sync)
{
	const emu_net_stats *n = &mv->net.st;
	const emu_move_stats *s = &mv->st;
	const unsigned kind = mv->st.commands[EMU_MOVE_INTER] ? EMU_MOVE_INTER
			    : mv->st.commands[EMU_MOVE_BCAST] ? EMU_MOVE_BCAST
			    : mv->st.commands[EMU_MOVE_CONST] ? EMU_MOVE_CONST
							      : EMU_MOVE_INTRA;
	printf("  modelled: %" PRIu64 " cycles", s->cycles[kind]);
	if (sync)
		printf(", then the sync %" PRIu64, s->cycles[EMU_MOVE_SYNC]);
	printf("; cells %" PRIu64 " (%" PRIu64 " to other banks); (command, bank)"
	       " pairs run %" PRIu64 ", skipped %" PRIu64 "\n", s->bits[kind],
	       s->bits_remote, s->banks_run, s->banks_skipped);
	if (kind != EMU_MOVE_INTER && kind != EMU_MOVE_BCAST)
		return;
	printf("  H-tree bytes by level:");
	for (unsigned l = 0; l < n->levels; l++)
		printf(" %" PRIu64, n->htree_bytes[l]);
	printf("; cycles: H-tree %" PRIu64 ", injection %" PRIu64 ", NoC %" PRIu64
	       "\n", n->htree_cycles, n->inject_cycles, n->noc_cycles);
	uint64_t sent = 0, link = 0;
	for (unsigned b = 0; b < n->nbanks; b++) {
		sent = n->bank_sent[b] > sent ? n->bank_sent[b] : sent;
		for (unsigned d = 0; d < 4; d++)
			link = n->link_bytes[b * 4 + d] > link ? n->link_bytes[b * 4 + d] : link;
	}
	printf("  NoC: %" PRIu64 " packets, %" PRIu64 " bytes, %" PRIu64 " byte-hops;"
	       " busiest bank sends %" PRIu64 " bytes, busiest link carries %" PRIu64
	       "\n", n->noc_packets, n->noc_bytes, n->noc_byte_hops, sent, link);
}

/* Micro-op cases run with THREADS and with 1 executor thread (t[0],
 * t[1]); transfers have no threads, so one timing. */
static void print_case(const struct mcase *k, const struct timing *t, size_t nt,
		       double ref, const emu_mover *mv)
{
	const double cells = (double)cells_of(k);
	char who[40];
	printf("%s: %.0f bitlines x %u wordlines\n", k->label, cells, k->c.nwl);
	for (size_t i = 0; i < nt; i++) {
		snprintf(who, sizeof who, "engine, %d thread%s", t[i].threads,
			 t[i].threads == 1 ? "" : "s");
		printf("  %-26s %9.3g bitlines/s %9.3g wordline-bits/s %8.2f ms"
		       "  x%-6.3g the reference\n", nt > 1 ? who : k->sync ?
		       "engine, move" : "engine", cells / t[i].move,
		       cells * k->c.nwl / t[i].move, t[i].move * 1e3, ref / t[i].move);
	}
	if (k->sync) {
		printf("  %-26s %9s            %9s                 %8.2f ms\n",
		       "engine, its sync", "", "", t->sync * 1e3);
		printf("  %-26s %9.3g bitlines/s %9.3g wordline-bits/s %8.2f ms"
		       "  x%-6.3g the reference\n", "engine, move + sync",
		       cells / t->total, cells * k->c.nwl / t->total,
		       t->total * 1e3, ref / t->total);
	}
	printf("  %-26s %9.3g bitlines/s %9.3g wordline-bits/s %8.2f ms\n",
	       "reference (1 thread)", cells / ref, cells * k->c.nwl / ref, ref * 1e3);
	print_traffic(mv, k->sync);
}

static void run_case(struct bench *B, const struct mcase *k)
{
	const double ref = time_model(B, k, 0);
	const bool uops = k->c.kind == EMU_MOVE_INTRA || k->c.kind == EMU_MOVE_CONST;
	struct timing t[2];
	emu_mover *mv = time_engine(B, k, THREADS, &t[0]);
	if (mv && uops) {
		emu_mover_free(mv);
		mv = time_engine(B, k, 1, &t[1]);
	}
	if (!mv)
		return;
	print_case(k, t, uops ? 2 : 1, ref, mv);
	emu_mover_free(mv);
}

/* ---- the cases ---- */

static struct mcase base_case(const struct bench *B, const char *label)
{
	struct mcase k;
	memset(&k, 0, sizeof k);
	snprintf(k.label, sizeof k.label, "%s", label);
	k.copies = 1;
	k.b1 = B->B;
	return k;
}

/* Every array, bitlines 0 .. B - d - 1 moved up by d (the ones that can
 * move without leaving the array). */
static struct mcase intra_case(const struct bench *B, unsigned d)
{
	char label[64];
	snprintf(label, sizeof label, "mv.intra dist=%u", d);
	struct mcase k = base_case(B, label);
	const emu_pattern arrays = emu_pattern_range(B->narrays);
	const emu_pattern bl = emu_pattern_range(B->B - d);
	k.c = emu_move_intra(&arrays, &bl, d, ROW_A, WIDTH, ROW_D,
			     d > 1 ? ROW_SCRATCH : SRAM_NO_ROW);
	k.bshift = d;
	k.b1 = B->B - d;
	return k;
}

/* Every array whose neighbour is in its bank, to that neighbour (the
 * H-tree): arrays 0..254 of each bank (on the default machine),
 * distance 1. */
static struct mcase inter_local_case(const struct bench *B)
{
	const unsigned per = B->narrays / B->nbanks;
	struct mcase k = base_case(B, "mv.inter dist=1, inside banks (H-tree)");
	emu_pattern arrays = emu_pattern_range(per - 1);
	arrays.stride[1] = per;
	arrays.count[1] = B->nbanks;
	arrays.ndims = 2;
	const emu_pattern bl = emu_pattern_range(B->B);
	k.c = emu_move_inter(&arrays, &bl, 1, &bl, ROW_A, WIDTH, ROW_D);
	k.dist = 1;
	return k;
}

/* Every array of banks 0..62 to the same array of the next bank. */
static struct mcase inter_remote_case(const struct bench *B)
{
	const unsigned per = B->narrays / B->nbanks;
	char label[64];
	snprintf(label, sizeof label, "mv.inter dist=%u, between banks (NoC)", per);
	struct mcase k = base_case(B, label);
	const emu_pattern arrays = emu_pattern_range(B->narrays - per);
	const emu_pattern bl = emu_pattern_range(B->B);
	k.c = emu_move_inter(&arrays, &bl, per, &bl, ROW_A, WIDTH, ROW_D);
	k.dist = per;
	k.sync = true;
	return k;
}

/* Array 0 of each bank to the other 255 arrays of its bank. */
static struct mcase bcast_local_case(const struct bench *B)
{
	const unsigned per = B->narrays / B->nbanks;
	char label[64];
	snprintf(label, sizeof label, "mv.bcast reuse=1:%u, inside banks (H-tree)",
		 per - 1);
	struct mcase k = base_case(B, label);
	emu_pattern arrays = emu_pattern_range(B->nbanks);
	arrays.stride[0] = per;
	const emu_pattern bl = emu_pattern_range(B->B);
	k.c = emu_move_bcast(&arrays, &bl, 1, 1, per - 1, &bl, ROW_A, WIDTH, ROW_D);
	k.dist = k.stride = 1;
	k.copies = per - 1;
	return k;
}

/* Bank 0's 256 arrays to the same arrays of the other 63 banks. */
static struct mcase bcast_remote_case(const struct bench *B)
{
	const unsigned per = B->narrays / B->nbanks;
	char label[64];
	snprintf(label, sizeof label, "mv.bcast reuse=%u:%u, bank 0 to all (NoC)",
		 per, B->nbanks - 1);
	struct mcase k = base_case(B, label);
	const emu_pattern arrays = emu_pattern_range(per);
	const emu_pattern bl = emu_pattern_range(B->B);
	k.c = emu_move_bcast(&arrays, &bl, per, per, B->nbanks - 1, &bl, ROW_A,
			     WIDTH, ROW_D);
	k.dist = k.stride = per;
	k.copies = B->nbanks - 1;
	k.sync = true;
	return k;
}

static struct mcase const_case(const struct bench *B)
{
	struct mcase k = base_case(B, "mv.const value=0x3f800000 (1.0f)");
	const emu_pattern arrays = emu_pattern_range(B->narrays);
	const emu_pattern bl = emu_pattern_range(B->B);
	k.c = emu_move_const(&arrays, &bl, 0x3f800000u, ROW_D, WIDTH);
	return k;
}

static void run_moves(struct bench *B)
{
	static const unsigned dists[] = {1, 4, 16};
	for (size_t i = 0; i < sizeof dists / sizeof dists[0] && !B->failed; i++) {
		const struct mcase k = intra_case(B, dists[i]);
		run_case(B, &k);
	}
	struct mcase (*const make[])(const struct bench *) = {
		inter_local_case, inter_remote_case, bcast_local_case,
		bcast_remote_case, const_case,
	};
	for (size_t i = 0; i < sizeof make / sizeof make[0] && !B->failed; i++) {
		const struct mcase k = make[i](B);
		run_case(B, &k);
	}
}

/* ---- mapping a 2048 x 2048 fp32 array to banks ---- */

struct tensor {
	emu_region A, D;          /* the array, and its new value at ROW_D */
	emu_move_list l[2];       /* a shift by one along dimension 0, 1 */
	uint64_t run[2], skipped[2], busiest[2];
	uint8_t *bank_on;
	uint64_t *bank_cmds;      /* per bank: commands it runs */
	uint32_t *cell;           /* element i -> array * B + bitline */
};

/* Repeat f until about 20 ms have passed; best of 3 such batches, in
 * microseconds per call.  f returns nonzero on an error (then -1). */
static double best_us(int (*f)(struct bench *, struct tensor *, unsigned),
		      struct bench *B, struct tensor *T, unsigned arg)
{
	double best = 1e30;
	for (int batch = 0; batch < 3; batch++) {
		unsigned n = 0;
		const double t0 = bench_now();
		double dt;
		do {
			if (f(B, T, arg) != 0)
				return -1;
			n++;
			dt = bench_now() - t0;
		} while (dt < 0.02);
		best = dt / n < best ? dt / n : best;
	}
	return best * 1e6;
}

static int select_tile(struct bench *B, struct tensor *T, unsigned arg)
{
	emu_tile_req q;
	diag d;
	memset(&q, 0, sizeof q);
	q.hint.shift = 3; /* shifts along dimensions 0 and 1 */
	diag_clear(&d);
	(void)arg;
	if (emu_tile_select(&T->A, &B->g, &q, T->A.tile, &d) == 0)
		return 0;
	printf("map FAIL: tile selection: %s\n", d.msg);
	return -1;
}

static int lower_shift(struct bench *B, struct tensor *T, unsigned dim)
{
	const emu_box box = {{0, 0, 0}, {T->A.size[0], T->A.size[1], T->A.size[2]}};
	int64_t off[EMU_LAYOUT_DIMS] = {0, 0, 0};
	diag d;
	off[dim] = 1;
	diag_clear(&d);
	T->l[dim].n = 0;
	if (emu_lower_move(&T->A, &B->g, &box, off, ROW_D, ROW_SCRATCH, &T->l[dim],
			   &d) == 0)
		return 0;
	printf("map FAIL: lowering the shift along dimension %u: %s\n", dim, d.msg);
	return -1;
}

/* Mark the banks of arrays first, first + step, ..., count of them.  A
 * step of at most a bank's arrays cannot jump over a bank, so such a
 * run marks the range of banks between its ends at once. */
static void mark_run(const struct bench *B, int64_t first, int64_t step,
		     uint64_t count, uint8_t *on)
{
	const int64_t per = (int64_t)(B->narrays / B->nbanks);
	const int64_t last = first + step * (int64_t)(count - 1);
	if (step <= per && step >= -per) {
		const int64_t lo = first < last ? first : last;
		const int64_t hi = first < last ? last : first;
		memset(on + lo / per, 1, (size_t)(hi / per - lo / per + 1));
		return;
	}
	for (uint64_t i = 0; i < count; i++)
		on[(first + step * (int64_t)i) / per] = 1;
}

/* The banks of command c's source and destination arrays: its array
 * pattern walked run by run (the innermost dimension), an odometer over
 * the outer dimensions. */
static void mark_cmd(const struct bench *B, const emu_move *c, uint8_t *on)
{
	const emu_pattern *p = &c->arrays;
	const uint64_t copies = c->kind == EMU_MOVE_BCAST ? c->reuse_count
			      : c->kind == EMU_MOVE_INTER ? 1 : 0;
	const int64_t step = p->ndims ? p->stride[0] : 0;
	const uint64_t len = p->ndims ? p->count[0] : 1;
	uint64_t idx[EMU_PAT_MAX_DIMS] = {0};
	int64_t a = p->start;
	for (unsigned k = 0; k < p->ndims; k++)
		if (p->count[k] == 0)
			return;
	for (;;) {
		mark_run(B, a, step, len, on);
		for (uint64_t j = 0; j < copies; j++)
			mark_run(B, a + c->dist + (int64_t)j * c->reuse_stride, step, len, on);
		unsigned k = 1;
		for (; k < p->ndims; k++) {
			a += p->stride[k];
			if (++idx[k] < p->count[k])
				break;
			a -= p->stride[k] * (int64_t)p->count[k];
			idx[k] = 0;
		}
		if (k >= p->ndims)
			return;
	}
}

/* The banks that run each command: those holding one of its source or
 * destination arrays (§4.2, step 3); a sync runs on every bank.  Counts
 * (command, bank) pairs run and skipped, and each bank's commands. */
static int expand_banks(struct bench *B, struct tensor *T, unsigned dim)
{
	const emu_move_list *l = &T->l[dim];
	memset(T->bank_cmds, 0, B->nbanks * sizeof *T->bank_cmds);
	T->run[dim] = 0;
	for (size_t i = 0; i < l->n; i++) {
		const emu_move *c = &l->v[i];
		memset(T->bank_on, c->kind == EMU_MOVE_SYNC, B->nbanks);
		if (c->kind != EMU_MOVE_SYNC)
			mark_cmd(B, c, T->bank_on);
		for (unsigned b = 0; b < B->nbanks; b++) {
			T->bank_cmds[b] += T->bank_on[b];
			T->run[dim] += T->bank_on[b];
		}
	}
	T->skipped[dim] = (uint64_t)l->n * B->nbanks - T->run[dim];
	T->busiest[dim] = 0;
	for (unsigned b = 0; b < B->nbanks; b++)
		if (T->bank_cmds[b] > T->busiest[dim])
			T->busiest[dim] = T->bank_cmds[b];
	return 0;
}

static void count_kinds(const emu_move_list *l, size_t n[EMU_MOVE_KINDS])
{
	memset(n, 0, EMU_MOVE_KINDS * sizeof *n);
	for (size_t i = 0; i < l->n; i++)
		n[l->v[i].kind]++;
}

static void print_list(const emu_move_list *l)
{
	char text[1280]; /* three patterns and the fields */
	for (size_t i = 0; i < l->n; i++) {
		emu_move_format(&l->v[i], text, sizeof text);
		printf("    %s\n", text);
	}
}

/* Tile selection, lowering and expansion, timed; the commands printed. */
static bool map_tensor(struct bench *B, struct tensor *T)
{
	const double sel = best_us(select_tile, B, T, 0);
	if (sel < 0)
		return false;
	printf("map 2048x2048 f32 (shift hints on dimensions 0 and 1): tile %"
	       PRIu64 "x%" PRIu64 " selected in %.1f us\n", T->A.tile[0],
	       T->A.tile[1], sel);
	for (unsigned dim = 0; dim < 2; dim++) {
		const double low = best_us(lower_shift, B, T, dim);
		const double exp = low < 0 ? -1 : best_us(expand_banks, B, T, dim);
		if (exp < 0)
			return false;
		size_t n[EMU_MOVE_KINDS];
		count_kinds(&T->l[dim], n);
		printf("  shift by +1 along dimension %u: lowered to %zu commands (%zu"
		       " intra, %zu inter, %zu sync) in %.1f us; expanded into banks"
		       " in %.1f us: %" PRIu64 " (command, bank) pairs run, %" PRIu64
		       " skipped, at most %" PRIu64 " commands on one bank; %.1f us"
		       " in all\n", dim, T->l[dim].n, n[EMU_MOVE_INTRA],
		       n[EMU_MOVE_INTER], n[EMU_MOVE_SYNC], low, exp, T->run[dim],
		       T->skipped[dim], T->busiest[dim], sel + low + exp);
		print_list(&T->l[dim]);
	}
	return true;
}

/* ---- running the lowered shifts ---- */

/* The 2048 x 2048 move by one along dim, in plain C over the elements:
 * out[i] = A[i - step], and out keeps its old value at index 0 of dim. */
static void model_tensor(const struct bench *B, unsigned dim, uint64_t *out)
{
	const uint64_t n = TENSOR, step = dim ? n : 1;
	for (uint64_t i1 = 0; i1 < n; i1++)
		for (uint64_t i0 = 0; i0 < n; i0++) {
			const uint64_t i = i0 + n * i1;
			if ((dim ? i1 : i0) > 0)
				out[i] = B->a[i - step];
		}
}

/* The new value (region D) against the model: a sample through the
 * array's port, element by element (emu_layout_elem_get), or all of it
 * row by row through T->cell; the source region A must be unchanged
 * (checked fully). */
static bool check_tensor(struct bench *B, const struct tensor *T, unsigned dim,
			 bool full)
{
	for (uint64_t s = 0; s <= SAMPLES; s++) {
		const uint64_t e = sample_elem(B, s);
		const uint64_t idx[EMU_LAYOUT_DIMS] = {e % TENSOR, e / TENSOR, 0};
		const uint64_t got = emu_layout_elem_get(B->m, &T->D, idx);
		if (got != B->ref[e]) {
			printf("tensor shift along %u FAIL (sample): element (%" PRIu64 ", %"
			       PRIu64 "): expected 0x%08" PRIx64 ", SRAM 0x%08" PRIx64 "\n",
			       dim, idx[0], idx[1], B->ref[e], got);
			return !(B->failed = true);
		}
	}
	const unsigned rows[2] = {ROW_D, ROW_A};
	const uint64_t *want[2] = {B->ref, B->a};
	for (unsigned r = 0; r < (full ? 2u : 0u); r++) {
		bench_get(B->m, rows[r], WIDTH, B->got);
		for (uint64_t e = 0; e < B->count; e++)
			if (B->got[T->cell[e]] != want[r][e]) {
				printf("tensor shift along %u FAIL (%s, every element): element"
				       " (%" PRIu64 ", %" PRIu64 "): expected 0x%08" PRIx64
				       ", SRAM 0x%08" PRIx64 "\n", dim, r ? "source" : "result",
				       e % TENSOR, e / TENSOR, want[r][e], B->got[T->cell[e]]);
				return !(B->failed = true);
			}
	}
	return true;
}

/* The engine's count of (command, bank) pairs must be the expansion's. */
static bool same_banks(struct bench *B, const struct tensor *T, unsigned dim,
		       const emu_move_stats *st)
{
	if (st->banks_run == T->run[dim] && st->banks_skipped == T->skipped[dim])
		return true;
	printf("tensor shift along %u FAIL: the engine ran %" PRIu64 " (command, bank)"
	       " pairs and skipped %" PRIu64 "; the expansion says %" PRIu64 " and %"
	       PRIu64 "\n", dim, st->banks_run, st->banks_skipped, T->run[dim],
	       T->skipped[dim]);
	B->failed = true;
	return false;
}

static void print_tensor(const double best[2], double ref,
			 const emu_move_stats *st)
{
	const double moved = (double)(TENSOR - 1) * TENSOR;
	const int threads[2] = {THREADS, 1};
	for (unsigned i = 0; i < 2; i++)
		printf("  engine, %d thread%s %8.2f ms, %9.3g elements/s  x%-6.3g the"
		       " reference\n", threads[i], threads[i] == 1 ? ": " : "s:",
		       best[i] * 1e3, moved / best[i], ref / best[i]);
	printf("  reference, 1 thread: %8.2f ms, %9.3g elements/s\n", ref * 1e3,
	       moved / ref);
	printf("  modelled cycles: intra %" PRIu64 ", inter %" PRIu64 ", sync %" PRIu64
	       "; %" PRIu64 " cells moved, %" PRIu64 " to other banks\n",
	       st->cycles[EMU_MOVE_INTRA], st->cycles[EMU_MOVE_INTER],
	       st->cycles[EMU_MOVE_SYNC], st->bits[EMU_MOVE_INTRA] +
	       st->bits[EMU_MOVE_INTER], st->bits_remote);
}

/* Best of several runs of the lowered shift along dim from the snapshot,
 * each checked; st gets the engine's statistics of the last. */
static bool time_tensor(struct bench *B, const struct tensor *T, unsigned dim,
			int threads, double *best, emu_move_stats *st)
{
	double spent = 0;
	*best = 1e30;
	sram_set_threads(threads);
	for (int r = 0;; r++) {
		const bool last = bench_last_rep(B->reps, r, spent);
		const double w0 = bench_now();
		diag d;
		diag_clear(&d);
		sram_copy_state(B->m, B->m0);
		emu_mover *mv = new_mover(B);
		const double t0 = bench_now();
		const int rc = emu_move_run_list(mv, &T->l[dim], 0, &d);
		const double dt = bench_now() - t0;
		*st = mv->st;
		emu_mover_free(mv);
		if (rc != 0) {
			printf("tensor shift along %u FAIL: %s\n", dim, d.msg);
			return !(B->failed = true);
		}
		*best = dt < *best ? dt : *best;
		if (!check_tensor(B, T, dim, last))
			return false;
		spent += bench_now() - w0;
		if (last)
			return true;
	}
}

/* The lowered shift along dim, with THREADS and 1 executor thread, next
 * to the plain-C move of the elements. */
static void run_tensor(struct bench *B, const struct tensor *T, unsigned dim)
{
	const double ref = time_model(B, NULL, dim);
	double best[2];
	emu_move_stats st;
	if (time_tensor(B, T, dim, THREADS, &best[0], &st) &&
	    time_tensor(B, T, dim, 1, &best[1], &st) && same_banks(B, T, dim, &st))
		print_tensor(best, ref, &st);
}

static bool tensor_init(struct bench *B, struct tensor *T)
{
	const uint64_t sizes[2] = {TENSOR, TENSOR};
	diag d;
	diag_clear(&d);
	memset(T, 0, sizeof *T);
	emu_region_init(&T->A, "A", ISA_FMT_F32, WIDTH, 1);
	if (emu_region_shape(&T->A, 2, sizes, &d) != 0) {
		printf("map FAIL: %s\n", d.msg);
		return !(B->failed = true);
	}
	T->A.wl = ROW_A;
	emu_move_list_init(&T->l[0]);
	emu_move_list_init(&T->l[1]);
	T->bank_on = xmalloc(B->nbanks);
	T->bank_cmds = xmalloc(B->nbanks * sizeof *T->bank_cmds);
	T->cell = xmalloc(B->count * sizeof *T->cell);
	return true;
}

static void tensor_free(struct tensor *T)
{
	emu_move_list_free(&T->l[0]);
	emu_move_list_free(&T->l[1]);
	free(T->bank_on);
	free(T->bank_cmds);
	free(T->cell);
}

/* Where each element lives (emu_layout_place), for the full checks; a
 * tile of B bitlines has one wordline group, so bit k of element i is on
 * wordline wl + k of cell[i]. */
static bool place_cells(struct bench *B, struct tensor *T)
{
	for (uint64_t i = 0; i < B->count; i++) {
		const uint64_t idx[EMU_LAYOUT_DIMS] = {i % TENSOR, i / TENSOR, 0};
		emu_loc loc;
		emu_layout_place(&T->A, &B->g, idx, &loc);
		if (loc.wordline != T->A.wl) {
			printf("map FAIL: element %" PRIu64 " is in wordline group %u;"
			       " expected tiles of one group\n", i,
			       (loc.wordline - T->A.wl) / WIDTH);
			return !(B->failed = true);
		}
		T->cell[i] = (uint32_t)(loc.array * B->B + loc.bitline);
	}
	return true;
}

/* Map the shifts, then run them on A stored through the transpose
 * unit, its new value D (initially d0) in the wordlines from ROW_D. */
static void run_map(struct bench *B)
{
	struct tensor T;
	if (!tensor_init(B, &T))
		return;
	if (!map_tensor(B, &T)) {
		B->failed = true;
		tensor_free(&T);
		return;
	}
	T.D = T.A;
	snprintf(T.D.name, sizeof T.D.name, "A.next");
	T.D.wl = ROW_D;
	emu_layout_store(B->m0, &T.A, B->a);
	emu_layout_store(B->m0, &T.D, B->d0);
	const bool placed = place_cells(B, &T);
	for (unsigned dim = 0; dim < 2 && placed && !B->failed; dim++) {
		printf("shift of the whole 2048x2048 array by +1 along dimension %u"
		       " (the commands above):\n", dim);
		run_tensor(B, &T, dim);
	}
	tensor_free(&T);
}

/* ---- main ---- */

static void bench_init(struct bench *B, int reps)
{
	B->g = sram_geom_default();
	B->m = bench_machine(&B->g, "bench_move");
	B->m0 = bench_machine(&B->g, "bench_move");
	B->count = sram_geom_bitlines(&B->g);
	B->B = B->g.bitlines;
	B->narrays = B->m0->narrays;
	B->nbanks = B->m0->nbanks;
	B->reps = reps;
	B->a = xmalloc(B->count * sizeof *B->a);
	B->d0 = xmalloc(B->count * sizeof *B->d0);
	B->ref = xmalloc(B->count * sizeof *B->ref);
	B->got = xmalloc(B->count * sizeof *B->got);
	uint64_t st = 20261123;
	for (uint64_t e = 0; e < B->count; e++) {
		B->a[e] = bench_splitmix(&st) & 0xffffffffu;
		B->d0[e] = bench_splitmix(&st) & 0xffffffffu;
	}
	bench_put(B->m0, ROW_A, WIDTH, B->a);
	bench_put(B->m0, ROW_D, WIDTH, B->d0);
	sram_set_threads(THREADS);
}

static void bench_free(struct bench *B)
{
	sram_free(B->m);
	sram_free(B->m0);
	free(B->a);
	free(B->d0);
	free(B->ref);
	free(B->got);
}

int main(int argc, char **argv)
{
	const int reps = argc > 1 ? atoi(argv[1]) : 0;
	if ((argc > 1 && reps < 1) || argc > 2) {
		fprintf(stderr, "usage: bench_move [repetitions >= 1]\n");
		return 2;
	}
	struct bench B;
	memset(&B, 0, sizeof B);
	const double start = bench_now();
	bench_init(&B, reps);
	printf("infsim bench_move: %u banks x %u ways x %u arrays x %ux%u = %" PRIu64
	       " bitlines; a 32-bit value per bitline at wordlines %d..%d, moved to"
	       " %d..%d\n", B.nbanks, B.g.ways_per_bank, B.g.arrays_per_way,
	       B.g.wordlines, B.g.bitlines, B.count, ROW_A, ROW_A + WIDTH - 1,
	       ROW_D, ROW_D + WIDTH - 1);
	printf("threads: %d for the micro-op executor (intra shifts, constants);"
	       " transfers, syncs and lowering run on one; reference: one\n", THREADS);
	printf("best of %s runs; only the engine's calls are timed\n",
	       reps ? argv[1] : "3 to 20");
	bench_print_load();
	printf("\n");
	run_moves(&B);
	printf("\n");
	if (!B.failed)
		run_map(&B);
	bench_free(&B);
	printf("\nwhole bench: %.1f s\n", bench_now() - start);
	if (B.failed)
		printf("FAIL\n");
	return B.failed;
}
