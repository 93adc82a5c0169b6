/* SPDX-License-Identifier: MIT */
/*
 * move.c: data-movement commands, their checks and their execution on
 * the SRAM model; see move.h and doc/MOVEMENT.md.  The lowering of tensor
 * moves into these commands is in lower.c.
 */
#include "move.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "assemble.h"
#include "mem.h"
#include "sram_far.h"

#define MASK_WORDS (SRAM_MAX_DIM / 64)

static int move_error(diag *d, const char *path, const emu_move *c, size_t cmd,
		      const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static int move_error(diag *d, const char *path, const emu_move *c, size_t cmd,
		      const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	emu_move_verror(d, path, c, cmd, 0, fmt, ap);
	va_end(ap);
	return -1;
}

/* ---- the mover ---- */

/* Transfers of one command bound for other banks, delivered at sync. */
struct emu_move_batch {
	uint64_t mask[MASK_WORDS]; /* destination bitlines */
	size_t n, cap;
	unsigned *array;
	uint16_t *row;
	uint64_t *data;            /* wpa words per entry */
};

static struct emu_move_cur *cur_new(void);
static void cur_free(struct emu_move_cur *r);

emu_mover *emu_mover_new(sram_machine *m, emu_hazards *hz, const char *path)
{
	emu_mover *mv = calloc(1, sizeof *mv);
	if (!mv)
		return NULL;
	mv->m = m;
	mv->hz = hz;
	mv->path = path;
	mv->way_on = calloc(m->nways, 1);
	mv->bank_on = calloc(m->nbanks, 1);
	mv->dst_seen = calloc(m->narrays, 1);
	mv->cur = cur_new();
	if (!mv->way_on || !mv->bank_on || !mv->dst_seen || !mv->cur ||
	    emu_net_init(&mv->net, &m->g) != 0) {
		free(mv->way_on);
		free(mv->bank_on);
		free(mv->dst_seen);
		cur_free(mv->cur);
		free(mv);
		return NULL;
	}
	return mv;
}

static void drop_batches(emu_mover *mv)
{
	for (size_t i = 0; i < mv->npend; i++) {
		free(mv->pend[i].array);
		free(mv->pend[i].row);
		free(mv->pend[i].data);
	}
	mv->npend = 0;
}

void emu_mover_free(emu_mover *mv)
{
	if (!mv)
		return;
	drop_batches(mv);
	free(mv->pend);
	free(mv->way_on);
	free(mv->bank_on);
	free(mv->dst_seen);
	cur_free(mv->cur);
	emu_net_free(&mv->net);
	free(mv);
}

size_t emu_mover_pending(const emu_mover *mv)
{
	size_t n = 0;
	for (size_t i = 0; i < mv->npend; i++)
		n += mv->pend[i].n;
	return n;
}

size_t emu_mover_pending_words(const emu_mover *mv, uint64_t *w)
{
	size_t n = 0;
	for (size_t i = 0; i < mv->npend; i++) {
		const size_t k = mv->pend[i].n * mv->m->wpa;
		if (w && k)
			memcpy(w + n, mv->pend[i].data, k * sizeof *w);
		n += k;
	}
	return n;
}

int emu_mover_set_pending_words(emu_mover *mv, const uint64_t *w, size_t n, diag *d)
{
	const size_t want = emu_mover_pending_words(mv, NULL);
	if (n != want) {
		diag_file(d, mv->path ? mv->path : "infsim",
			  "%zu words of data in flight between banks given, expected %zu (the "
			  "transfers pending until the next sync)", n, want);
		return -1;
	}
	for (size_t i = 0, at = 0; i < mv->npend; i++) {
		const size_t k = mv->pend[i].n * mv->m->wpa;
		if (k)
			memcpy(mv->pend[i].data, w + at, k * sizeof *w);
		at += k;
	}
	return 0;
}

/* ---- execution helpers ---- */

/* One command's operands, expanded. */
struct op {
	const emu_move *c;
	size_t cmd;
	unsigned *src;            /* source arrays */
	size_t nsrc;
	unsigned *dst;            /* destination arrays: nsrc x copies */
	size_t copies;
	uint64_t smask[MASK_WORDS], dmask[MASK_WORDS];
	uint64_t sbits;           /* bitlines per array */
};

static void pattern_mask(const emu_pattern *p, uint64_t *mask)
{
	const uint64_t n = emu_pattern_size(p);
	memset(mask, 0, MASK_WORDS * sizeof *mask);
	for (uint64_t i = 0; i < n; i++) {
		const uint64_t b = (uint64_t)emu_pattern_at(p, i);
		mask[b / 64] |= UINT64_C(1) << (b % 64);
	}
}

static uint64_t popcount_words(const uint64_t *w, unsigned n)
{
	uint64_t c = 0;
	for (unsigned k = 0; k < n; k++)
		c += (uint64_t)__builtin_popcountll(w[k]);
	return c;
}

/* Shift a bit vector of n words by s bits (s > 0: towards higher
 * bitlines), zeros entering. */
static void shift_words(const uint64_t *in, uint64_t *out, unsigned n, int64_t s)
{
	const int64_t ws = s / 64, bs = s % 64;
	for (int64_t k = 0; k < (int64_t)n; k++) {
		const int64_t j = k - ws;
		uint64_t v = 0;
		if (bs >= 0) {
			if (j >= 0 && j < (int64_t)n)
				v = in[j] << bs;
			if (bs && j - 1 >= 0 && j - 1 < (int64_t)n)
				v |= in[j - 1] >> (64 - bs);
		} else {
			if (j >= 0 && j < (int64_t)n)
				v = in[j] >> -bs;
			if (j + 1 >= 0 && j + 1 < (int64_t)n)
				v |= in[j + 1] << (64 + bs);
		}
		out[k] = v;
	}
}

static int op_expand(emu_mover *mv, const emu_move *c, size_t cmd, struct op *o)
{
	memset(o, 0, sizeof *o);
	o->c = c;
	o->cmd = cmd;
	o->nsrc = (size_t)emu_pattern_size(&c->arrays);
	o->copies = c->kind == EMU_MOVE_BCAST ? (size_t)c->reuse_count
		  : c->kind == EMU_MOVE_INTER ? 1 : 0;
	o->src = malloc(o->nsrc * sizeof *o->src);
	o->dst = malloc((o->nsrc * o->copies + 1) * sizeof *o->dst);
	if (!o->src || !o->dst)
		return -1;
	for (size_t i = 0; i < o->nsrc; i++) {
		o->src[i] = (unsigned)emu_pattern_at(&c->arrays, i);
		for (size_t j = 0; j < o->copies; j++)
			o->dst[i * o->copies + j] = (unsigned)((int64_t)o->src[i] + c->dist +
							      (int64_t)j * c->reuse_stride);
	}
	pattern_mask(&c->bitlines, o->smask);
	if (c->kind == EMU_MOVE_INTRA)
		shift_words(o->smask, o->dmask, mv->m->wpa, c->dist);
	else if (o->copies)
		pattern_mask(&c->dst_bitlines, o->dmask);
	else
		memcpy(o->dmask, o->smask, sizeof o->dmask);
	o->sbits = popcount_words(o->smask, mv->m->wpa);
	return 0;
}

static void op_free(struct op *o)
{
	free(o->src);
	free(o->dst);
}

/* Mark the ways and banks of o's arrays; the banks' count. */
static unsigned mark_banks(emu_mover *mv, const struct op *o)
{
	const sram_machine *m = mv->m;
	unsigned n = 0;
	memset(mv->way_on, 0, m->nways);
	memset(mv->bank_on, 0, m->nbanks);
	for (size_t i = 0; i < o->nsrc + o->nsrc * o->copies; i++) {
		const unsigned a = i < o->nsrc ? o->src[i] : o->dst[i - o->nsrc];
		const unsigned b = emu_net_bank(&m->g, a);
		mv->way_on[a / m->g.arrays_per_way] = 1;
		n += !mv->bank_on[b];
		mv->bank_on[b] = 1;
	}
	return n;
}

static void set_enable(sram_machine *m, const unsigned *a, size_t n,
		       const uint64_t *mask)
{
	for (size_t i = 0; i < n; i++)
		memcpy(sram_latch_words(m, a[i], SRAM_ENABLE), mask,
		       m->wpa * sizeof *mask);
}

/* ---- intra-array shifts and constants: micro-ops ---- */

/* A shift by d (|d| <= 1 in one step; d = 0 is a copy between rows)
 * writes each destination row straight from its source row through
 * the destination bitlines' enable mask.  A longer shift moves a whole
 * row |d| - 1 steps into the scratch row, every bitline enabled (bits
 * leaving the array fall off; those that matter never reach its edge),
 * and the last step writes the destination bitlines only: |d| cycles a
 * wordline, the published artifact's cost ("n per bitline of
 * distance").  A constant is one ONE or ZERO write a wordline: the
 * controller drives the constant's bits onto the write drivers, through
 * the bitlines' enable mask.
 *
 * How a long shift runs.  Its enable mask changes twice a wordline (no
 * micro-op writes the enable latch: the controller sets it between
 * micro-ops), so it cannot be one sram_run of the whole machine; the
 * scratch row forbids running the wordlines in any other order, and a
 * fixed mask would leave bits in the scratch row that the last step
 * needs.  So each bank's controller runs its part of the shift,
 * wordline after wordline, on its own ways (sram_run_ways), setting its
 * own arrays' masks: a bank's rows, latches and masks stay in cache from
 * the first wordline to the last, and the banks, which share nothing,
 * are spread over threads once (emu/machine/machine.c runs the ISA's traces the
 * same way).  The bits and the cycles are those of the machine-wide
 * schedule: every bank runs the same micro-ops in the same order on
 * disjoint ways, so a part of the shift (the debugger's stepi) runs the
 * same way.  (Running a thread's whole block of banks in lockstep, two
 * calls a wordline over the block, makes fewer calls but took 1.4 to
 * 1.5 times the CPU time: a wordline's rows, masks and sensed values
 * over 512 ways no longer stay in L2 between the two calls.  Units of 4
 * ways instead of a bank's 16 did no better: 4 times the calls.) */

/* A move begun (emu_move_begin) and not yet ended: its operands, its
 * micro-ops and the enable mask each one runs with. */
struct emu_move_cur {
	bool active;
	struct op o;
	isa_prog own;             /* the micro-ops when the caller keeps none */
	isa_prog *up;             /* the micro-ops: &own or the caller's */
	unsigned banks;           /* banks that run the move */
	/* Micro-op i runs with the enable mask `last` when i % period is
	 * period - 1 (a wordline's last step: a shift's destination
	 * bitlines, a constant's bitlines), else with `all` (the steps of a
	 * long shift through the scratch row).  period: |dist| for a long
	 * shift, else 1. */
	unsigned period;
	const uint64_t *last;
	uint64_t all[MASK_WORDS];
	unsigned *by_bank;        /* a long shift: o's source arrays by bank */
	size_t *bank_at;          /* bank b's: by_bank[bank_at[b] .. bank_at[b + 1]) */
};

static struct emu_move_cur *cur_new(void)
{
	struct emu_move_cur *r = calloc(1, sizeof *r);
	if (r)
		isa_prog_init(&r->own);
	return r;
}

/* Forget the move begun, if any (the program's memory is kept). */
static void cur_reset(struct emu_move_cur *r)
{
	op_free(&r->o);
	memset(&r->o, 0, sizeof r->o);
	free(r->by_bank);
	free(r->bank_at);
	r->by_bank = NULL;
	r->bank_at = NULL;
	r->active = false;
}

static void cur_free(struct emu_move_cur *r)
{
	if (!r)
		return;
	cur_reset(r);
	isa_prog_free(&r->own);
	free(r);
}

/* The micro-ops of a valid intra or const command (move.h). */
static void build_uops(const emu_move *c, isa_prog *p)
{
	const int64_t d = c->dist;
	const unsigned fn = d > 0 ? SRAM_FN_SHUP : d < 0 ? SRAM_FN_SHDOWN : SRAM_FN_COPY;
	const unsigned steps = (unsigned)(d < 0 ? -d : d);
	isa_prog_clear(p);
	for (unsigned k = 0; c->kind == EMU_MOVE_CONST && k < c->nwl; k++)
		isa_emit(p, isa_w0(c->value >> k & 1 ? SRAM_FN_ONE : SRAM_FN_ZERO, c->wl + k));
	if (c->kind != EMU_MOVE_INTRA || (d == 0 && c->wl == c->dst_wl))
		return; /* not micro-ops; or the identity */
	for (unsigned k = 0; k < c->nwl; k++) {
		if (steps <= 1) {
			isa_emit(p, isa_u1(fn, c->dst_wl + k, c->wl + k));
			continue;
		}
		isa_emit(p, isa_u1(fn, c->scratch, c->wl + k));
		for (unsigned s = 1; s + 1 < steps; s++)
			isa_emit(p, isa_u1(fn, c->scratch, c->scratch));
		isa_emit(p, isa_u1(fn, c->dst_wl + k, c->scratch));
	}
}

int emu_move_uprog(const emu_move *c, const sram_geom *g, isa_prog *p)
{
	diag quiet;
	diag_clear(&quiet);
	isa_prog_clear(p);
	if (emu_move_check(c, g, NULL, 0, &quiet) == 0)
		build_uops(c, p);
	return p->oom ? -1 : 0;
}

const char *emu_move_whole_reason(const emu_move *c)
{
	if (c->kind == EMU_MOVE_INTER || c->kind == EMU_MOVE_BCAST)
		return "a transfer over the H-tree or the NoC, not micro-ops";
	if (c->kind == EMU_MOVE_INTRA && c->dist == 0 && c->wl == c->dst_wl)
		return "a shift by 0 onto its own wordlines, no micro-ops";
	return NULL;
}

static const uint64_t *mask_of(const struct emu_move_cur *r, size_t i)
{
	return i % r->period == r->period - 1 ? r->last : r->all;
}

/* The end (at most `to`) of the micro-ops from i on that share i's
 * enable mask: to itself for one mask; else a wordline's scratch steps,
 * or its last step alone. */
static size_t same_mask_end(const struct emu_move_cur *r, size_t i, size_t to)
{
	const size_t p = r->period, at = i % p;
	const size_t end = p == 1 ? to : at == p - 1 ? i + 1 : i - at + p - 1;
	return end < to ? end : to;
}

/* Micro-ops [from, to) of a long shift, on bank b's ways. */
struct intra_run {
	sram_machine *m;
	const struct emu_move_cur *r;
	const uint8_t *way_on;
	size_t from, to;
	bool fast;   /* whole wordlines through sram_far_run */
};

/* Whole wordlines of a long shift run through sram_far_run unless
 * INFSIM_FAR=0 asks for the micro-ops one at a time (the tests compare
 * the two). */
static bool far_wanted(void)
{
	const char *e = getenv("INFSIM_FAR");
	return !e || strcmp(e, "0") != 0;
}

/* Whole wordlines [i / period, to / period) of a long shift on bank b:
 * the bank's ways through sram_far_run, which gives the bits the
 * micro-ops give (sram/sram_far.h) in one pass over the enabled arrays
 * instead of |dist| passes over every way. */
static int intra_whole(const struct intra_run *I, unsigned b, size_t i,
		       const unsigned *arrays, size_t na)
{
	const struct emu_move_cur *r = I->r;
	const emu_move *c = r->o.c;
	const unsigned k = (unsigned)(i / r->period);
	const sram_far f = {
		.src = c->wl + k, .dst = c->dst_wl + k,
		.nwl = (unsigned)((I->to - i) / r->period), .scratch = c->scratch,
		.dist = (int)c->dist, .arrays = arrays, .narrays = na,
		.first = r->all, .last = r->last,
	};
	return sram_far_run(I->m, b * I->m->g.ways_per_bank, I->m->g.ways_per_bank,
			    I->way_on, &f);
}

static int intra_bank(const struct intra_run *I, unsigned b)
{
	const struct emu_move_cur *r = I->r;
	sram_machine *m = I->m;
	const unsigned wpb = m->g.ways_per_bank;
	const unsigned *arrays = r->by_bank + r->bank_at[b];
	const size_t na = r->bank_at[b + 1] - r->bank_at[b];
	for (size_t i = I->from; na && i < I->to;) {
		if (I->fast && i % r->period == 0 && I->to - i >= r->period) {
			if (intra_whole(I, b, i, arrays, na) < 0)
				return -1;
			i += (I->to - i) / r->period * r->period;
			continue;
		}
		const size_t end = same_mask_end(r, i, I->to);
		set_enable(m, arrays, na, mask_of(r, i));
		if (sram_run_ways(m, b * wpb, wpb, I->way_on, r->up->u + i, end - i) < 0)
			return -1;
		i = end;
	}
	return 0;
}

/* o's source arrays sorted by bank (a counting sort): *by_bank, and
 * the start of each bank's, *bank_at (nbanks + 1 entries). */
static int group_by_bank(sram_machine *m, const struct op *o,
			 unsigned **by_bank, size_t **bank_at)
{
	*by_bank = malloc((o->nsrc + 1) * sizeof **by_bank);
	*bank_at = calloc(m->nbanks + 1, sizeof **bank_at);
	if (!*by_bank || !*bank_at)
		return -1;
	size_t *at = *bank_at;
	for (size_t i = 0; i < o->nsrc; i++)
		at[emu_net_bank(&m->g, o->src[i]) + 1]++;
	for (unsigned b = 0; b < m->nbanks; b++)
		at[b + 1] += at[b];
	for (size_t i = 0; i < o->nsrc; i++)
		(*by_bank)[at[emu_net_bank(&m->g, o->src[i])]++] = o->src[i];
	for (unsigned b = m->nbanks; b > 0; b--)
		at[b] = at[b - 1];
	at[0] = 0;
	return 0;
}

/* Threads for a run of `work` word operations: sram_run's rule. */
static int intra_threads(uint64_t work, unsigned banks)
{
#ifdef _OPENMP
	const int set = sram_get_threads();
	int nt = set ? set : omp_get_max_threads();
	if (!set && work < (UINT64_C(1) << 18))
		nt = 1;
	return nt > (int)banks ? (int)banks : nt < 1 ? 1 : nt;
#else
	(void)work, (void)banks;
	return 1;
#endif
}

/* Micro-ops [from, from + n) of a long shift: every bank's controller
 * runs its part (above).  0, or -1 when out of memory. */
static int run_far(emu_mover *mv, size_t from, size_t n)
{
	const struct emu_move_cur *r = mv->cur;
	sram_machine *m = mv->m;
	const int nt = intra_threads((uint64_t)n * m->stride * m->g.ways_per_bank *
				     r->banks, r->banks);
	const struct intra_run I = {m, r, mv->way_on, from, from + n, far_wanted()};
	const long nb = (long)m->nbanks;
	int bad = 0;
#pragma omp parallel for num_threads(nt) schedule(dynamic) if (nt > 1) reduction(| : bad)
	for (long b = 0; b < nb; b++)
		bad |= intra_bank(&I, (unsigned)b) < 0;
	return bad ? -1 : 0;
}

/* The cycles of n uops, charged once (every bank runs them at once). */
static void charge(emu_mover *mv, const sram_uop *u, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		sram_uop_cost(&u[i], &mv->st.sram);
		mv->last.cycles++;
	}
}

/* After the checks: the move's ways and banks, its micro-ops and their
 * masks; the controller clears the enables before a shift or a
 * constant.  0, or -1 when out of memory. */
static int prepare(emu_mover *mv, struct emu_move_cur *r)
{
	const emu_move *c = r->o.c;
	sram_machine *m = mv->m;
	const bool far = c->kind == EMU_MOVE_INTRA && (c->dist > 1 || c->dist < -1);
	r->banks = mark_banks(mv, &r->o);
	build_uops(c, r->up);
	if (r->up->oom || (far && group_by_bank(m, &r->o, &r->by_bank, &r->bank_at) != 0))
		return -1;
	r->period = far ? (unsigned)(c->dist < 0 ? -c->dist : c->dist) : 1;
	r->last = c->kind == EMU_MOVE_CONST ? r->o.smask : r->o.dmask;
	memset(r->all, 0xff, sizeof r->all);
	r->all[m->wpa - 1] = m->tail;
	if (c->kind == EMU_MOVE_INTRA || c->kind == EMU_MOVE_CONST)
		sram_enable_clear(m);
	return 0;
}

/* ---- inter-array transfers ---- */

/* How source bits map onto destination bits: a constant shift, or a
 * list of (source, destination) bitline pairs. */
struct remap {
	bool is_shift;
	int64_t shift;
	size_t n;
	uint16_t *from, *to;
};

static int remap_init(const emu_move *c, struct remap *r)
{
	const uint64_t n = emu_pattern_size(&c->bitlines);
	memset(r, 0, sizeof *r);
	r->is_shift = true;
	r->shift = emu_pattern_at(&c->dst_bitlines, 0) - emu_pattern_at(&c->bitlines, 0);
	for (uint64_t i = 1; i < n && r->is_shift; i++)
		r->is_shift = emu_pattern_at(&c->dst_bitlines, i) -
			      emu_pattern_at(&c->bitlines, i) == r->shift;
	if (r->is_shift)
		return 0;
	r->n = (size_t)n;
	r->from = malloc(n * sizeof *r->from);
	r->to = malloc(n * sizeof *r->to);
	if (!r->from || !r->to)
		return -1;
	for (uint64_t i = 0; i < n; i++) {
		r->from[i] = (uint16_t)emu_pattern_at(&c->bitlines, i);
		r->to[i] = (uint16_t)emu_pattern_at(&c->dst_bitlines, i);
	}
	return 0;
}

static void remap_apply(const struct remap *r, const uint64_t *in, uint64_t *out,
			unsigned wpa)
{
	if (r->is_shift) {
		shift_words(in, out, wpa, r->shift);
		return;
	}
	memset(out, 0, wpa * sizeof *out);
	for (size_t i = 0; i < r->n; i++)
		out[r->to[i] / 64] |= (in[r->from[i] / 64] >> (r->from[i] % 64) & 1)
				      << (r->to[i] % 64);
}

static struct emu_move_batch *new_batch(emu_mover *mv, const uint64_t *mask)
{
	if (mv->npend == mv->cap_pend) {
		const size_t cap = mv->cap_pend ? 2 * mv->cap_pend : 8;
		struct emu_move_batch *v = realloc(mv->pend, cap * sizeof *v);
		if (!v)
			return NULL;
		mv->pend = v;
		mv->cap_pend = cap;
	}
	struct emu_move_batch *b = &mv->pend[mv->npend++];
	memset(b, 0, sizeof *b);
	memcpy(b->mask, mask, sizeof b->mask);
	return b;
}

/* Room for n entries in b (realloc keeps what it holds); 0, or -1 when
 * out of memory. */
static int batch_reserve(struct emu_move_batch *b, unsigned wpa, size_t n)
{
	unsigned *a = realloc(b->array, n * sizeof *a);
	if (a)
		b->array = a;
	uint16_t *r = realloc(b->row, n * sizeof *r);
	if (r)
		b->row = r;
	uint64_t *d = realloc(b->data, n * wpa * sizeof *d);
	if (d)
		b->data = d;
	if (!a || !r || !d)
		return -1;
	b->cap = n;
	return 0;
}

static int batch_add(struct emu_move_batch *b, unsigned wpa, unsigned array,
		     unsigned row, const uint64_t *data)
{
	if (b->n == b->cap && batch_reserve(b, wpa, b->cap ? 2 * b->cap : 64) != 0)
		return -1;
	b->array[b->n] = array;
	b->row[b->n] = (uint16_t)row;
	memcpy(b->data + b->n * wpa, data, wpa * sizeof *data);
	b->n++;
	return 0;
}

static void write_masked(sram_machine *m, unsigned array, unsigned row,
			 const uint64_t *mask, const uint64_t *data)
{
	uint64_t *w = sram_row(m, array, row);
	for (unsigned k = 0; k < m->wpa; k++)
		w[k] = (w[k] & ~mask[k]) | (data[k] & mask[k]);
}

/* One wordline step: read every source row, then write every
 * destination (the H-tree's) or hold it for the sync (the NoC's). */
static int transfer_step(emu_mover *mv, const struct op *o, const struct remap *r,
			 unsigned k, uint64_t *buf, struct emu_move_batch *b)
{
	sram_machine *m = mv->m;
	const unsigned wpa = m->wpa;
	const emu_move *c = o->c;
	for (size_t i = 0; i < o->nsrc; i++) {
		const uint64_t *row = sram_row(m, o->src[i], c->wl + k);
		uint64_t in[MASK_WORDS];
		for (unsigned w = 0; w < wpa; w++)
			in[w] = row[w] & o->smask[w];
		remap_apply(r, in, buf + i * wpa, wpa);
	}
	for (size_t i = 0; i < o->nsrc; i++) {
		const unsigned sb = emu_net_bank(&m->g, o->src[i]);
		for (size_t j = 0; j < o->copies; j++) {
			const unsigned a = o->dst[i * o->copies + j];
			if (emu_net_bank(&m->g, a) == sb)
				write_masked(m, a, c->dst_wl + k, o->dmask, buf + i * wpa);
			else if (batch_add(b, wpa, a, c->dst_wl + k, buf + i * wpa) != 0)
				return -1;
		}
	}
	return 0;
}

/* The destinations of o in another bank than their source's. */
static size_t remote_count(const emu_mover *mv, const struct op *o)
{
	size_t n = 0;
	for (size_t i = 0; i < o->nsrc * o->copies; i++)
		n += emu_net_bank(&mv->m->g, o->dst[i]) !=
		     emu_net_bank(&mv->m->g, o->src[i / o->copies]);
	return n;
}

static int exec_transfer(emu_mover *mv, const struct op *o)
{
	const emu_move *c = o->c;
	struct remap r;
	struct emu_move_batch *b = NULL;
	uint64_t *buf = malloc((o->nsrc ? o->nsrc : 1) * mv->m->wpa * sizeof *buf);
	int rc = -1;
	if (!buf || remap_init(c, &r) != 0)
		goto out;
	/* The held rows, every wordline's, reserved at once: growing the
	 * batch by doubling copied it over and over. */
	const size_t held = remote_count(mv, o) * c->nwl;
	if (held && (!(b = new_batch(mv, o->dmask)) ||
		     batch_reserve(b, mv->m->wpa, held) != 0))
		goto out_remap;
	/* Pages about to be written, taken in runs rather than a fault at a
	 * time (lib/mem.h): the held rows, written whole below, and the
	 * destination rows, now or at the sync. */
	if (b)
		mem_prefault(b->data, held * mv->m->wpa * sizeof *b->data);
	for (size_t i = 0; i < o->nsrc * o->copies; i++)
		sram_prefault_rows(mv->m, o->dst[i], c->dst_wl, c->nwl);
	rc = 0;
	for (unsigned k = 0; k < c->nwl && rc == 0; k++)
		rc = transfer_step(mv, o, &r, k, buf, b);
	emu_net_begin(&mv->net);
	for (size_t i = 0; i < o->nsrc && rc == 0; i++)
		rc = emu_net_send(&mv->net, o->src[i], o->dst + i * o->copies, o->copies,
				  o->sbits * c->nwl);
	emu_net_end(&mv->net, &mv->last.net);
	mv->last.cycles += mv->last.net.htree_cycles + mv->last.net.inject_cycles;
	if (mv->last.net.noc_cycles > mv->noc_in_flight)
		mv->noc_in_flight = mv->last.net.noc_cycles;
out_remap:
	free(r.from);
	free(r.to);
out:
	free(buf);
	return rc;
}

/* The sync: every held transfer lands, in command order. */
static void exec_sync(emu_mover *mv)
{
	for (size_t i = 0; i < mv->npend; i++) {
		const struct emu_move_batch *b = &mv->pend[i];
		for (size_t e = 0; e < b->n; e++)
			write_masked(mv->m, b->array[e], b->row[e], b->mask,
				     b->data + e * mv->m->wpa);
	}
	drop_batches(mv);
	mv->last.cycles = mv->noc_in_flight + emu_net_barrier_cycles(&mv->m->g);
	mv->noc_in_flight = 0;
}

/* ---- hazards of a command ---- */

/* Two sources of a broadcast writing one array is not a command a
 * controller can run: refuse it. */
static int check_collisions(emu_mover *mv, const struct op *o, diag *d)
{
	int rc = 0;
	size_t i = 0;
	for (; i < o->nsrc * o->copies && rc == 0; i++) {
		if (mv->dst_seen[o->dst[i]])
			rc = move_error(d, mv->path, o->c, o->cmd, "two source arrays both "
					"send to array %u; expected each destination array once "
					"(check the reuse stride against the array pattern)",
					o->dst[i]);
		mv->dst_seen[o->dst[i]] = 1;
	}
	while (i > 0)
		mv->dst_seen[o->dst[--i]] = 0;
	return rc;
}

/* Overlap that the hardware's schedule cannot do (doc/MOVEMENT.md):
 * wordline steps go up, each reading its source row before writing its
 * destination row; so an array that is both a source and a destination
 * written in this command (not held for a sync) loses source bits when
 * its destination rows start inside its source rows, above them, on
 * common bitlines. */
static int check_overlap(emu_mover *mv, const struct op *o, diag *d)
{
	const emu_move *c = o->c;
	uint64_t common[MASK_WORDS], any = 0;
	for (unsigned k = 0; k < mv->m->wpa; k++)
		any |= common[k] = o->smask[k] & o->dmask[k];
	if (!any || c->dst_wl <= c->wl || c->dst_wl >= c->wl + c->nwl)
		return 0;
	uint64_t n = 0;
	unsigned first = 0;
	if (c->kind == EMU_MOVE_INTRA) {
		n = o->nsrc;
		first = o->src[0];
	} else {
		for (size_t i = 0; i < o->nsrc; i++)
			mv->dst_seen[o->src[i]] = 1;
		for (size_t i = 0; i < o->nsrc * o->copies; i++) {
			const unsigned a = o->dst[i];
			if (mv->dst_seen[a] == 1 && emu_net_bank(&mv->m->g, a) ==
			    emu_net_bank(&mv->m->g, o->src[i / o->copies])) {
				first = n ? first : a;
				n++;
				mv->dst_seen[a] = 2;
			}
		}
		for (size_t i = 0; i < o->nsrc; i++)
			mv->dst_seen[o->src[i]] = 0;
	}
	if (!n)
		return 0;
	char text[200];
	snprintf(text, sizeof text, "onto its own source: destination wordlines "
		 "%u..%u start inside source wordlines %u..%u, so wordline %u is "
		 "overwritten before it is read; move into other wordlines, or "
		 "downwards", c->dst_wl, c->dst_wl + c->nwl - 1, c->wl,
		 c->wl + c->nwl - 1, c->dst_wl);
	return emu_hazard_overlap(mv->hz, o->cmd, c->line, first, common, c->dst_wl,
				  c->wl + c->nwl - 1, n, text, d) < 0 ? -1 : 0;
}

static int check_hazards(emu_mover *mv, const struct op *o, diag *d)
{
	const emu_move *c = o->c;
	emu_hazards *h = mv->hz;
	const size_t ndst = o->copies ? o->nsrc * o->copies : o->nsrc;
	const unsigned *dst = o->copies ? o->dst : o->src;
	const emu_cells src = {o->src, o->nsrc, o->smask, c->wl, c->nwl};
	const emu_cells out = {dst, ndst, o->dmask,
			       c->kind == EMU_MOVE_CONST ? c->wl : c->dst_wl, c->nwl};
	if (c->kind != EMU_MOVE_CONST &&
	    emu_hazard_check_read(h, o->cmd, c->line, &src, d) < 0)
		return -1;
	if (emu_hazard_check_write(h, o->cmd, c->line, &out, d) < 0)
		return -1;
	if (c->kind == EMU_MOVE_INTRA && c->scratch != SRAM_NO_ROW &&
	    (c->dist > 1 || c->dist < -1)) {
		uint64_t all[MASK_WORDS];
		memset(all, 0xff, sizeof all);
		const emu_cells s = {o->src, o->nsrc, all, c->scratch, 1};
		if (emu_hazard_check_write(h, o->cmd, c->line, &s, d) < 0)
			return -1;
	}
	return c->kind == EMU_MOVE_CONST ? 0 : check_overlap(mv, o, d);
}

/* After the command ran: what it wrote, and what waits for the sync. */
static int track_writes(emu_mover *mv, const struct op *o)
{
	const emu_move *c = o->c;
	emu_hazards *h = mv->hz;
	if (o->copies == 0) {
		uint64_t all[MASK_WORDS];
		memset(all, 0xff, sizeof all);
		const emu_cells out = {o->src, o->nsrc, o->dmask,
				       c->kind == EMU_MOVE_CONST ? c->wl : c->dst_wl, c->nwl};
		const emu_cells s = {o->src, o->nsrc, all, c->scratch, 1};
		const bool scratch = c->kind == EMU_MOVE_INTRA && (c->dist > 1 || c->dist < -1);
		return emu_hazard_written(h, &out) || (scratch && emu_hazard_written(h, &s))
		       ? -1 : 0;
	}
	/* Split the destinations: local ones are written now, remote ones
	 * (and the sources that feed them) are pending until the sync. */
	const size_t nd = o->nsrc * o->copies;
	unsigned *local = malloc(nd * sizeof *local), *remote = malloc(nd * sizeof *remote);
	unsigned *feed = malloc(o->nsrc * sizeof *feed);
	size_t nl = 0, nr = 0, nf = 0;
	int rc = -1;
	if (!local || !remote || !feed)
		goto out;
	for (size_t i = 0; i < nd; i++) {
		const unsigned s = o->src[i / o->copies];
		const bool far = emu_net_bank(&mv->m->g, o->dst[i]) != emu_net_bank(&mv->m->g, s);
		if (!far)
			local[nl++] = o->dst[i];
		else
			remote[nr++] = o->dst[i];
		if (far && (nf == 0 || feed[nf - 1] != s))
			feed[nf++] = s;
	}
	const emu_cells l = {local, nl, o->dmask, c->dst_wl, c->nwl};
	const emu_cells rs = {feed, nf, o->smask, c->wl, c->nwl};
	const emu_cells rd = {remote, nr, o->dmask, c->dst_wl, c->nwl};
	rc = emu_hazard_written(h, &l) || (nr && emu_hazard_pend(h, o->cmd, c->line, &rs, &rd))
	     ? -1 : 0;
out:
	free(local);
	free(remote);
	free(feed);
	return rc;
}

/* ---- running a command ---- */

static void count(emu_mover *mv, const struct op *o, unsigned banks)
{
	const emu_move *c = o->c;
	const uint64_t per = o->sbits * c->nwl;
	mv->last.bits = per * o->nsrc * (o->copies ? o->copies : 1);
	mv->last.banks_run = banks;
	mv->st.commands[c->kind]++;
	mv->st.cycles[c->kind] += mv->last.cycles;
	mv->st.bits[c->kind] += mv->last.bits;
	for (size_t i = 0; i < o->nsrc * o->copies; i++)
		if (emu_net_bank(&mv->m->g, o->dst[i]) !=
		    emu_net_bank(&mv->m->g, o->src[i / o->copies]))
			mv->st.bits_remote += per;
	mv->st.banks_run += banks;
	mv->st.banks_skipped += mv->m->nbanks - banks;
}

static int run_sync(emu_mover *mv, const emu_move *c)
{
	exec_sync(mv);
	if (mv->hz && emu_hazard_sync(mv->hz) != 0)
		return -1;
	mv->st.commands[c->kind]++;
	mv->st.cycles[c->kind] += mv->last.cycles;
	mv->last.banks_run = mv->m->nbanks;
	mv->st.banks_run += mv->m->nbanks;
	return 0;
}

static int nomem(emu_mover *mv, const emu_move *c, size_t cmd, diag *d)
{
	return move_error(d, mv->path, c, cmd, "out of memory");
}

int emu_move_begin(emu_mover *mv, const emu_move *c, size_t cmd, isa_prog *up,
		   diag *d)
{
	struct emu_move_cur *r = mv->cur;
	cur_reset(r);
	memset(&mv->last, 0, sizeof mv->last);
	r->up = up ? up : &r->own;
	isa_prog_clear(r->up);
	if (emu_move_check(c, &mv->m->g, mv->path, cmd, d) != 0)
		return -1;
	r->o.c = c;
	r->o.cmd = cmd;
	if (c->kind == EMU_MOVE_SYNC) {
		r->active = true;
		return 0;
	}
	if (op_expand(mv, c, cmd, &r->o) != 0) {
		cur_reset(r);
		return nomem(mv, c, cmd, d);
	}
	int rc = r->o.copies > 1 ? check_collisions(mv, &r->o, d) : 0;
	if (rc == 0 && mv->hz)
		rc = check_hazards(mv, &r->o, d);
	if (rc == 0 && prepare(mv, r) != 0)
		rc = nomem(mv, c, cmd, d);
	if (rc != 0) {
		cur_reset(r);
		isa_prog_clear(r->up);
		return -1;
	}
	r->active = true;
	return 0;
}

int emu_move_step(emu_mover *mv, size_t from, size_t n, diag *d)
{
	const struct emu_move_cur *r = mv->cur;
	if (!r->active || from > r->up->n || n > r->up->n - from) {
		diag_at(d, mv->path ? mv->path : "infsim", r->active ? r->o.c->line : 0, 0,
			"micro-ops %zu..%zu of %s: expected a range within 0..%zu of a "
			"move begun", from, from + n, r->active ? "the move" : "no move",
			r->active ? r->up->n : 0);
		return -1;
	}
	if (n == 0)
		return 0;
	int rc;
	if (r->period > 1) {
		rc = run_far(mv, from, n);
	} else {
		set_enable(mv->m, r->o.src, r->o.nsrc, r->last);
		rc = sram_run(mv->m, mv->way_on, r->up->u + from, n);
	}
	if (rc < 0) {
		diag_at(d, mv->path ? mv->path : "infsim", r->o.c->line, 0,
			"out of memory running the move");
		return -1;
	}
	return 0;
}

int emu_move_end(emu_mover *mv, diag *d)
{
	struct emu_move_cur *r = mv->cur;
	if (!r->active) {
		diag_at(d, mv->path ? mv->path : "infsim", 0, 0,
			"ending a move: none is begun; expected emu_move_begin first");
		return -1;
	}
	const emu_move *c = r->o.c;
	int rc = 0;
	if (c->kind == EMU_MOVE_SYNC) {
		rc = run_sync(mv, c);
	} else {
		if (c->kind == EMU_MOVE_INTER || c->kind == EMU_MOVE_BCAST)
			rc = exec_transfer(mv, &r->o);
		charge(mv, r->up->u, r->up->n);
		if (rc == 0 && mv->hz)
			rc = track_writes(mv, &r->o);
		if (rc == 0)
			count(mv, &r->o, r->banks);
	}
	if (rc != 0)
		rc = nomem(mv, c, r->o.cmd, d);
	cur_reset(r);
	return rc;
}

int emu_move_run(emu_mover *mv, const emu_move *c, size_t cmd, diag *d)
{
	if (emu_move_begin(mv, c, cmd, NULL, d) != 0)
		return -1;
	if (emu_move_step(mv, 0, mv->cur->up->n, d) != 0) {
		cur_reset(mv->cur);
		return -1;
	}
	return emu_move_end(mv, d);
}

int emu_move_run_list(emu_mover *mv, const emu_move_list *l, size_t first,
		      diag *d)
{
	for (size_t i = 0; i < l->n; i++)
		if (emu_move_run(mv, &l->v[i], first + i, d) != 0)
			return -1;
	return 0;
}

/* ---- snapshots (snap.c) ----
 * What a run changes in the mover between commands: its statistics and
 * the interconnect's, the last command's cost, the NoC time in flight
 * and the transfers waiting for a sync (with their data).  The per
 * command scratch (enables, the interconnect's loads and marks) is set
 * afresh by every command, and stays as it is. */
struct emu_mover_saved {
	emu_move_stats st;
	emu_move_cost last;
	uint64_t noc_in_flight;
	struct emu_move_batch *pend;
	size_t npend;
	emu_net_stats net;      /* its arrays are the copies below */
	uint64_t *bank_arrays;  /* sent, recv, htree (nbanks each), links (4 nbanks) */
};

static void free_batch_list(struct emu_move_batch *b, size_t n)
{
	for (size_t i = 0; b && i < n; i++) {
		free(b[i].array);
		free(b[i].row);
		free(b[i].data);
	}
	free(b);
}

void emu_mover_saved_free(emu_mover_saved *v)
{
	if (!v)
		return;
	free_batch_list(v->pend, v->npend);
	free(v->bank_arrays);
	free(v);
}

/* Copies of n batches (exactly sized), or NULL. */
static struct emu_move_batch *dup_batches(const struct emu_move_batch *b, size_t n,
					  unsigned wpa)
{
	struct emu_move_batch *v = calloc(n ? n : 1, sizeof *v);
	for (size_t i = 0; v && i < n; i++) {
		v[i] = b[i];
		v[i].cap = b[i].n;
		const size_t k = b[i].n ? b[i].n : 1;
		v[i].array = malloc(k * sizeof *v[i].array);
		v[i].row = malloc(k * sizeof *v[i].row);
		v[i].data = malloc(k * wpa * sizeof *v[i].data);
		if (!v[i].array || !v[i].row || !v[i].data) {
			free_batch_list(v, i + 1);
			return NULL;
		}
		memcpy(v[i].array, b[i].array, b[i].n * sizeof *v[i].array);
		memcpy(v[i].row, b[i].row, b[i].n * sizeof *v[i].row);
		memcpy(v[i].data, b[i].data, b[i].n * wpa * sizeof *v[i].data);
	}
	return v;
}

/* The interconnect's per-bank statistics, laid end to end: from (into
 * flat) or to (out of flat) st. */
static void net_arrays(emu_net_stats *st, uint64_t *flat, bool into)
{
	uint64_t *const part[4] = { st->bank_sent, st->bank_recv, st->bank_htree, st->link_bytes };
	const size_t len[4] = { st->nbanks, st->nbanks, st->nbanks, (size_t)st->nbanks * 4 };
	for (size_t i = 0, at = 0; i < 4; at += len[i], i++) {
		if (into)
			memcpy(flat + at, part[i], len[i] * sizeof *flat);
		else
			memcpy(part[i], flat + at, len[i] * sizeof *flat);
	}
}

emu_mover_saved *emu_mover_save(const emu_mover *mv)
{
	emu_mover_saved *v = calloc(1, sizeof *v);
	if (!v)
		return NULL;
	v->st = mv->st;
	v->last = mv->last;
	v->noc_in_flight = mv->noc_in_flight;
	v->net = mv->net.st;
	v->npend = mv->npend;
	v->pend = dup_batches(mv->pend, mv->npend, mv->m->wpa);
	v->bank_arrays = malloc((size_t)mv->net.st.nbanks * 7 * sizeof *v->bank_arrays + 1);
	if (!v->pend || !v->bank_arrays) {
		emu_mover_saved_free(v);
		return NULL;
	}
	net_arrays(&v->net, v->bank_arrays, true);
	return v;
}

size_t emu_mover_saved_bytes(const emu_mover_saved *v)
{
	size_t b = sizeof *v + (size_t)v->net.nbanks * 7 * 8;
	for (size_t i = 0; i < v->npend; i++)
		b += sizeof v->pend[i] + v->pend[i].n * (sizeof(unsigned) + 2 + 8 * MASK_WORDS);
	return b;
}

int emu_mover_restore(emu_mover *mv, const emu_mover_saved *v)
{
	struct emu_move_batch *pend = dup_batches(v->pend, v->npend, mv->m->wpa);
	if (!pend)
		return -1;
	drop_batches(mv);
	free(mv->pend);
	mv->pend = pend;
	mv->npend = mv->cap_pend = v->npend;
	mv->st = v->st;
	mv->last = v->last;
	mv->noc_in_flight = v->noc_in_flight;
	emu_net_stats *st = &mv->net.st;
	uint64_t *const keep[4] = { st->bank_sent, st->bank_recv, st->bank_htree, st->link_bytes };
	*st = v->net;
	st->bank_sent = keep[0];
	st->bank_recv = keep[1];
	st->bank_htree = keep[2];
	st->link_bytes = keep[3];
	net_arrays(st, v->bank_arrays, false);
	return 0;
}
