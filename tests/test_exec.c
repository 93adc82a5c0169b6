/* SPDX-License-Identifier: MIT */
/*
 * test_exec.c: the micro-op executor (sram/sram_exec.c) against a
 * deliberately simple interpreter of pe.def, one bool per bit.
 *
 * The executor is written for speed (vector passes chosen at run time,
 * groups of ways, non-temporal stores).  None of that may change a bit,
 * so this suite never looks at how it is done: it runs random valid
 * micro-op sequences through sram_run (whole, and in short pieces),
 * sram_step and sram_run_way on machines of many shapes, runs the same
 * sequences through the interpreter below, and compares every cell,
 * latch and sensed bit, and the bits beyond narrow arrays.
 * Each INFSIM_VECTOR / INFSIM_STREAM setting gets its own Test(), and so
 * its own process.  (The executor reads both whenever a run starts, in
 * run_init, and caches nothing; a process per setting keeps it so.)
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sram.h"

/* ---- the interpreter: pe.def's semantics column, one bitline ---- */

/* What one bitline sees at the start of a cycle. */
struct pe_in {
	bool s, z;  /* BL = AND, BLB = NOR of the activated cells */
	bool s_in;  /* BL of the bitline a shift takes (0 outside the array) */
	bool e;     /* enable */
};

/* The data a write function writes; *cn is C' (C when it keeps it). */
static bool model_write_fn(unsigned fn, const struct pe_in *in, bool C,
			   bool T, bool *cn)
{
	const bool s = in->s, z = in->z, x = !s && !z;
	*cn = C;
	switch (fn) {
	case SRAM_FN_COPY: return s;
	case SRAM_FN_NOT: return z;
	case SRAM_FN_OR: return !z;
	case SRAM_FN_XOR: return x;
	case SRAM_FN_XNOR: return !x;
	case SRAM_FN_ZERO: return false;
	case SRAM_FN_ONE: return true;
	case SRAM_FN_WRC: return C;
	case SRAM_FN_WRT: return T;
	case SRAM_FN_ANDT: return s && T;
	case SRAM_FN_XORT: return s != T;
	case SRAM_FN_ADD: *cn = s || (x && C); return x != C;
	case SRAM_FN_ADDN: *cn = s || (x && C); return !(x != C);
	case SRAM_FN_SUB: *cn = (T && x) || (C && (T || !x)); return !x != C;
	case SRAM_FN_NEG: *cn = z && C; return z != C;
	case SRAM_FN_INC: *cn = s && C; return s != C;
	case SRAM_FN_CNEG: *cn = C || s; return s != (T && C);
	case SRAM_FN_SHUP: case SRAM_FN_SHDOWN: return in->s_in;
	}
	cr_assert_fail("the interpreter has no write function %s (%u): "
		       "add its pe.def semantics here", sram_fn_name(fn), fn);
	return false;
}

/* A latch function: sets *cn (C') or *tn (T'). */
static void model_latch_fn(unsigned fn, const struct pe_in *in, bool C,
			   bool T, bool *cn, bool *tn)
{
	const bool s = in->s, z = in->z, x = !s && !z;
	switch (fn) {
	case SRAM_FN_LOADT: *tn = s; return;
	case SRAM_FN_LOADTN: *tn = z; return;
	case SRAM_FN_LOADTX: *tn = x; return;
	case SRAM_FN_LOADTXN: *tn = !x; return;
	case SRAM_FN_LOADTOR: *tn = !z; return;
	case SRAM_FN_LOADC: *cn = s; return;
	case SRAM_FN_TANDS: *tn = T && s; return;
	case SRAM_FN_TANDZ: *tn = T && z; return;
	case SRAM_FN_TORS: *tn = T || s; return;
	case SRAM_FN_TORNZ: *tn = T || !z; return;
	case SRAM_FN_TXORS: *tn = T != s; return;
	case SRAM_FN_TSANDC: *tn = s && C; return;
	case SRAM_FN_TFROMC: *tn = C; return;
	case SRAM_FN_TFROMNC: *tn = !C; return;
	case SRAM_FN_TNOT: *tn = !T; return;
	case SRAM_FN_CANDZ: *cn = C && z; return;
	case SRAM_FN_CANDNX: *cn = C && !x; return;
	case SRAM_FN_SUBC: *cn = (T && x) || (C && (T || !x)); return;
	case SRAM_FN_CORS: *cn = C || s; return;
	}
	cr_assert_fail("the interpreter has no latch function %s (%u): "
		       "add its pe.def semantics here", sram_fn_name(fn), fn);
}

/* One cycle of one bitline: carry preset, gate from the old tag, both
 * functions from the same inputs, commit where gated. */
static void model_cycle(const sram_uop *u, const struct pe_in *in, bool *c,
			bool *t, bool *d)
{
	bool C = *c;
	const bool T = *t;
	if (in->e && u->cpre != SRAM_CPRE_KEEP)
		C = u->cpre == SRAM_CPRE_1;
	bool gate = in->e;
	if (u->gate == SRAM_GATE_ET)
		gate = in->e && T;
	if (u->gate == SRAM_GATE_ENT)
		gate = in->e && !T;
	bool cn = C, tn = T, out = false;
	if (u->wfn)
		out = model_write_fn(u->wfn, in, C, T, &cn);
	if (u->lfn)
		model_latch_fn(u->lfn, in, C, T, &cn, &tn);
	*c = C;
	if (gate) {
		*c = cn;
		*t = tn;
		if (u->wfn)
			*d = out;
	}
}

/* The whole machine, one bool per bit, by planes: planes 0..W-1 of an
 * array are its wordlines, plane W + l its latch l (enum sram_latch:
 * carry, tag, enable, BL, BLB). */
typedef struct model {
	unsigned narrays, apw, W, B;
	bool *bits;  /* [array][plane][bitline] */
} model;

enum { NLATCH = 5 };

static bool *bit_at(const model *M, unsigned a, unsigned plane, unsigned bl)
{
	return &M->bits[((size_t)a * (M->W + NLATCH) + plane) * M->B + bl];
}

static bool *cell_at(const model *M, unsigned a, unsigned wl, unsigned bl)
{
	return bit_at(M, a, wl, bl);
}

static bool *latch_at(const model *M, enum sram_latch l, unsigned a, unsigned bl)
{
	return bit_at(M, a, M->W + (unsigned)l, bl);
}

static model *model_new(const sram_machine *m)
{
	model *M = calloc(1, sizeof *M);
	cr_assert_not_null(M);
	M->narrays = m->narrays;
	M->apw = m->g.arrays_per_way;
	M->W = m->g.wordlines;
	M->B = m->g.bitlines;
	M->bits = calloc((size_t)M->narrays * (M->W + NLATCH) * M->B, sizeof(bool));
	cr_assert_not_null(M->bits);
	return M;
}

static void model_free(model *M)
{
	free(M->bits);
	free(M);
}

/* The machine's words of one plane of array a, through the array's
 * ordinary port (sram_row, sram_latch_words): wpa words. */
static const uint64_t *plane_words(const sram_machine *m, unsigned a,
				   unsigned plane)
{
	sram_machine *mm = (sram_machine *)m;
	if (plane < m->g.wordlines)
		return sram_row(mm, a, plane);
	return sram_latch_words(mm, a, (enum sram_latch)(plane - m->g.wordlines));
}

static bool word_bit(const uint64_t *w, unsigned bl)
{
	return (w[bl / 64] >> (bl % 64)) & 1;
}

static void model_load(model *M, const sram_machine *m)
{
	for (unsigned a = 0; a < M->narrays; a++)
		for (unsigned p = 0; p < M->W + NLATCH; p++) {
			const uint64_t *w = plane_words(m, a, p);
			for (unsigned bl = 0; bl < M->B; bl++)
				*bit_at(M, a, p, bl) = word_bit(w, bl);
		}
}

/* The wordlines u activates: act[0..nact), or act[0] + i for each bit
 * i of a many-wordline set. */
static unsigned model_rows(const sram_uop *u, unsigned *rows)
{
	unsigned n = 0;
	if (!u->set) {
		for (unsigned i = 0; i < u->nact; i++)
			rows[n++] = u->act[i];
		return n;
	}
	for (unsigned i = 0; i < 64; i++)
		if ((u->set >> i) & 1)
			rows[n++] = u->act[0] + i;
	return n;
}

/* One uop on one array: sense every bitline first (a uop may write a
 * row it senses, and a shift reads its neighbour's sense), then cycle.
 * With no wordline activated, s and z mean nothing and nothing reads
 * them: sram_uop_check then allows only functions of SENSE 0, and only
 * a uop that senses records BL/BLB. */
static void model_uop(model *M, unsigned a, const sram_uop *u)
{
	bool s[SRAM_MAX_DIM], z[SRAM_MAX_DIM];
	unsigned rows[64];
	const unsigned nrows = model_rows(u, rows);
	for (unsigned bl = 0; bl < M->B; bl++) {
		bool all = true, any = false;
		for (unsigned i = 0; i < nrows; i++) {
			const bool v = *cell_at(M, a, rows[i], bl);
			all = all && v;
			any = any || v;
		}
		s[bl] = all;
		z[bl] = !any;
	}
	for (unsigned bl = 0; bl < M->B; bl++) {
		struct pe_in in = {.s = s[bl], .z = z[bl],
				   .e = *latch_at(M, SRAM_ENABLE, a, bl)};
		if (u->wfn == SRAM_FN_SHUP)
			in.s_in = bl > 0 && s[bl - 1];
		if (u->wfn == SRAM_FN_SHDOWN)
			in.s_in = bl + 1 < M->B && s[bl + 1];
		bool scratch = false;
		bool *d = u->wfn ? cell_at(M, a, u->dst, bl) : &scratch;
		model_cycle(u, &in, latch_at(M, SRAM_CARRY, a, bl),
			    latch_at(M, SRAM_TAG, a, bl), d);
		if (u->nact) {
			*latch_at(M, SRAM_BL, a, bl) = s[bl];
			*latch_at(M, SRAM_BLB, a, bl) = z[bl];
		}
	}
}

static void model_run(model *M, const uint8_t *way_on, const sram_uop *prog,
		      size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (unsigned a = 0; a < M->narrays; a++)
			if (!way_on || way_on[a / M->apw])
				model_uop(M, a, &prog[i]);
}

/* ---- comparing a machine with the interpreter ---- */

struct diff {
	unsigned array, plane, bl;
	bool tail;    /* a bit beyond the array's B bitlines (B < 64) */
	bool want, got;
};

/* The first bit of plane p of array a where m and M differ, or that is
 * set beyond the array's B bitlines: those must always read 0. */
static bool find_plane_diff(const sram_machine *m, const model *M,
			    unsigned a, unsigned p, struct diff *d)
{
	const uint64_t *w = plane_words(m, a, p);
	for (unsigned bl = 0; bl < M->B; bl++) {
		const bool want = *bit_at(M, a, p, bl), got = word_bit(w, bl);
		if (want != got) {
			*d = (struct diff){a, p, bl, false, want, got};
			return true;
		}
	}
	const uint64_t beyond = w[m->wpa - 1] & ~m->tail;
	if (beyond) {
		*d = (struct diff){a, p, (unsigned)__builtin_ctzll(beyond), true, 0, 1};
		return true;
	}
	return false;
}

/* The first bit where m and M differ: the latches and the rows whose
 * flag in rows is set (every row if rows is NULL). */
static bool find_diff_in(const sram_machine *m, const model *M,
			 const bool *rows, struct diff *d)
{
	for (unsigned a = 0; a < M->narrays; a++)
		for (unsigned p = 0; p < M->W + NLATCH; p++)
			if ((!rows || p >= M->W || rows[p]) &&
			    find_plane_diff(m, M, a, p, d))
				return true;
	return false;
}

static bool find_diff(const sram_machine *m, const model *M, struct diff *d)
{
	return find_diff_in(m, M, NULL, d);
}

/* ---- random machines and micro-op sequences ---- */

static uint64_t rnd(uint64_t *s)
{
	uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* Random bits in one array's row (or latch) words w, the bits beyond
 * the array's B bitlines cleared, as sram_new leaves them. */
static void fill_words(const sram_machine *m, uint64_t *w, uint64_t *rng)
{
	for (unsigned k = 0; k < m->wpa; k++)
		w[k] = rnd(rng);
	w[m->wpa - 1] &= m->tail;
}

enum enable_mode { EN_ALL, EN_PER_ARRAY, EN_RANDOM, EN_MODES };

/* Random cells and latches.  Enables: EN_ALL sets every bitline (so the
 * executor drops E from the gate), EN_RANDOM random bits, EN_PER_ARRAY
 * each array all on, all off, or random bits. */
static void fill_random(sram_machine *m, uint64_t *rng, enum enable_mode mode)
{
	enum { ON, OFF, SOME };
	for (unsigned a = 0; a < m->narrays; a++) {
		for (unsigned wl = 0; wl < m->g.wordlines; wl++)
			fill_words(m, sram_row(m, a, wl), rng);
		static const enum sram_latch lats[] = {SRAM_CARRY, SRAM_TAG,
						       SRAM_BL, SRAM_BLB};
		for (unsigned i = 0; i < 4; i++)
			fill_words(m, sram_latch_words(m, a, lats[i]), rng);
		uint64_t *e = sram_latch_words(m, a, SRAM_ENABLE);
		uint64_t pick = mode == EN_ALL ? ON : SOME;
		if (mode == EN_PER_ARRAY)
			pick = rnd(rng) % 3;
		if (pick == ON)
			sram_enable_all(m, a);
		else if (pick == OFF)
			memset(e, 0, m->wpa * sizeof *e);
		else
			fill_words(m, e, rng);
	}
}

/* What the generated uops covered, checked at the end of each test. */
static struct coverage {
	unsigned fn[SRAM_FN_COUNT], gate[3], cpre[3], nact[4];
	unsigned dst_sensed, both_fns, subset_runs, all_on_runs;
	unsigned set, set_many, set_dst;  /* many-wordline activations */
	unsigned shift_plain, shift_in_place; /* shifts on the fast path */
} cov;

/* Draw mostly shifts (SHUP, SHDOWN): their pass reads neighbouring
 * words and array edges, which deserve more trials than their share. */
static bool shift_heavy;

static bool is_shift(unsigned fn)
{
	return fn == SRAM_FN_SHUP || fn == SRAM_FN_SHDOWN;
}

static unsigned random_fn(uint64_t *rng, int kind)
{
	for (;;) {
		const unsigned fn = 1 + (unsigned)(rnd(rng) % (SRAM_FN_COUNT - 1));
		if (sram_fn_kind(fn) == kind)
			return fn;
	}
}

/* Make u a many-wordline activation: random rows from a random base up
 * to 64 rows on, sometimes all of them, sometimes including u's
 * destination (a uop may write a row it senses). */
static void random_set(sram_uop *u, unsigned W, uint64_t *rng)
{
	u->act[0] = (uint16_t)(rnd(rng) % W);
	const unsigned span = W - u->act[0] < 64 ? W - u->act[0] : 64;
	const uint64_t span_mask = span == 64 ? ~UINT64_C(0)
					      : (UINT64_C(1) << span) - 1;
	u->set = rnd(rng) % 4 ? rnd(rng) & span_mask : span_mask;
	if (rnd(rng) % 4 == 0)
		u->set &= rnd(rng);
	if (u->wfn && u->dst >= u->act[0] && (unsigned)(u->dst - u->act[0]) < span &&
	    rnd(rng) % 2)
		u->set |= UINT64_C(1) << (u->dst - u->act[0]);
	if (!u->set)
		u->set = UINT64_C(1) << (rnd(rng) % span);
	u->nact = (uint8_t)__builtin_popcountll(u->set);
}

/* A random uop, kept only if sram_uop_check accepts it.  Plain uops
 * (one function, gate E, no preset), the bulk of real micro-programs,
 * are the ones the executor runs on its fastest paths. */
static sram_uop random_uop(const sram_machine *m, uint64_t *rng, bool plain)
{
	const unsigned W = m->g.wordlines;
	for (;;) {
		sram_uop u = {.dst = SRAM_NO_ROW};
		if (rnd(rng) % 5)
			u.wfn = (uint8_t)random_fn(rng, 'W');
		if (rnd(rng) % (plain && u.wfn ? 8 : 2) == 0)
			u.lfn = (uint8_t)random_fn(rng, 'L');
		if (shift_heavy && rnd(rng) % 4)
			u.wfn = (uint8_t)(rnd(rng) % 2 ? SRAM_FN_SHUP : SRAM_FN_SHDOWN);
		u.nact = (uint8_t)(shift_heavy && is_shift(u.wfn) ? 1 : rnd(rng) % 4);
		for (unsigned i = 0; i < u.nact; i++)
			u.act[i] = (uint16_t)(rnd(rng) % W);
		if (u.wfn)
			u.dst = (uint16_t)(rnd(rng) % W);
		if (u.wfn && u.nact && rnd(rng) % 2)
			u.act[rnd(rng) % u.nact] = u.dst;
		if (rnd(rng) % 6 == 0 && !(shift_heavy && is_shift(u.wfn)))
			random_set(&u, W, rng);
		u.gate = (uint8_t)(plain && rnd(rng) % 4 ? 0 : rnd(rng) % 3);
		u.cpre = (uint8_t)(rnd(rng) % (plain ? 8 : 3) ? 0 : 1 + rnd(rng) % 2);
		if (sram_uop_check(m, &u))
			continue;
		cov.fn[u.wfn]++, cov.fn[u.lfn]++;
		cov.gate[u.gate]++, cov.cpre[u.cpre]++;
		cov.nact[u.set ? 0 : u.nact] += !u.set;
		cov.both_fns += u.wfn && u.lfn;
		unsigned rows[64];
		const unsigned nrows = model_rows(&u, rows);
		for (unsigned i = 0; u.wfn && i < nrows; i++)
			if (rows[i] == u.dst) {
				cov.dst_sensed++;
				cov.set_dst += u.set != 0;
				break;
			}
		cov.set += u.set != 0;
		cov.set_many += u.nact > SRAM_MAX_ACT;
		cov.shift_plain += is_shift(u.wfn) && !u.lfn && !u.cpre;
		cov.shift_in_place += is_shift(u.wfn) && u.act[0] == u.dst;
		return u;
	}
}

static const char *gate_names[] = {"E", "E&T", "E&~T"};

static void format_uop(const sram_uop *u, char *buf, size_t len)
{
	int k = snprintf(buf, len, "wfn=%s lfn=%s act={", sram_fn_name(u->wfn),
			 sram_fn_name(u->lfn));
	if (u->set)
		k += snprintf(buf + k, len - (size_t)k, "%u+set %#llx", u->act[0],
			      (unsigned long long)u->set);
	for (unsigned i = 0; !u->set && i < u->nact && k > 0 && (size_t)k < len; i++)
		k += snprintf(buf + k, len - (size_t)k, "%s%u", i ? "," : "",
			      u->act[i]);
	if (k > 0 && (size_t)k < len)
		snprintf(buf + k, len - (size_t)k, "} dst=%d gate=%s cpre=%u",
			 u->wfn ? (int)u->dst : -1, gate_names[u->gate % 3],
			 u->cpre);
}

/* ---- one trial: a random machine, a sequence, every path ---- */

struct shape {
	unsigned B, apw, ways, mesh_x, mesh_y, W;
};

/* B = 8 .. 1024; 1, 2, 3 and 16 arrays per way; one to six ways, so
 * that several groups of ways run and a stride is seldom a whole number
 * of vector blocks.  Few wordlines make uops meet on the same rows; the
 * last shape's many leave rows that no later uop touches (streamed). */
static const struct shape shapes[] = {
	{8, 16, 3, 1, 1, 8},    {16, 1, 2, 2, 1, 16},  {16, 3, 5, 1, 1, 8},
	{64, 1, 6, 1, 1, 16},   {64, 3, 2, 1, 2, 8},   {64, 16, 2, 1, 1, 8},
	{128, 2, 3, 1, 1, 16},  {128, 3, 1, 2, 2, 8},  {256, 1, 5, 1, 1, 8},
	{256, 3, 2, 1, 1, 16},  {1024, 1, 2, 1, 1, 8}, {1024, 2, 3, 1, 1, 8},
	{1024, 16, 1, 1, 1, 8}, {64, 8, 1, 1, 1, 128},
};

/* How a path runs a sequence, and how many uops it runs per call, that
 * is, between two comparisons with the interpreter.  A long sram_run lets the executor plan across uops (in-place latch
 * passes, streamed destinations, one BL/BLB record); comparing after
 * short pieces catches the errors that later uops would overwrite. */
enum path { PATH_RUN, PATH_PIECES, PATH_STEP, PATH_RUN_WAY, PATH_COUNT };
static const char *path_names[] = {"sram_run", "sram_run in pieces",
				   "sram_step", "sram_run_way"};

enum { MAX_UOPS = 40, MAX_WAYS = 64 };

struct trial {
	const struct shape *sh;
	uint64_t seed;
	sram_uop prog[MAX_UOPS];
	size_t n;
	size_t piece;  /* uops per sram_run of PATH_PIECES */
	uint8_t way_on[MAX_WAYS];
	bool all_ways;
};

static const uint8_t *trial_ways(const struct trial *t)
{
	return t->all_ways ? NULL : t->way_on;
}

static size_t piece_of(enum path p, const struct trial *t)
{
	return p == PATH_STEP ? 1 : p == PATH_PIECES ? t->piece : t->n;
}

/* Uops t->prog[i .. i + n) through path p.  The whole run of one trial
 * in four spreads the groups of ways over two threads (no shape here has
 * more than two groups); other runs use one, as each thread team costs
 * milliseconds of spinning, and threads cannot change a bit. */
static void exec_path(enum path p, sram_machine *m, const struct trial *t,
		      size_t i, size_t n)
{
	const uint8_t *way_on = trial_ways(t);
	const sram_uop *prog = t->prog + i;
	sram_set_threads(p == PATH_RUN && t->seed % 4 == 0 ? 2 : 1);
	switch (p) {
	case PATH_RUN: case PATH_PIECES:
		sram_run(m, way_on, prog, n);
		break;
	case PATH_STEP:
		for (size_t k = 0; k < n; k++)
			sram_step(m, way_on, &prog[k]);
		break;
	default:
		for (unsigned w = 0; w < m->nways; w++)
			if (!way_on || way_on[w])
				sram_run_way(m, w, prog, n);
		break;
	}
}

/* Machine and interpreter after prog[0..end), the machine's run cut
 * into p's pieces, the last one cut short at end. */
static void replay(enum path p, const sram_machine *init,
		   const struct trial *t, size_t end, sram_machine *m, model *M)
{
	const size_t piece = piece_of(p, t);
	sram_copy_state(m, init);
	for (size_t i = 0; i < end; i += piece)
		exec_path(p, m, t, i, end - i < piece ? end - i : piece);
	model_load(M, init);
	model_run(M, trial_ways(t), t->prog, end);
}

/* The first end inside the piece [start, start + len) where the machine
 * already differs: the uop that went wrong, or start + len.  The runs
 * cut short plan differently from the whole piece (streams, records),
 * so the uop found may be a later one than the whole piece's culprit. */
static size_t first_bad_end(enum path p, const sram_machine *init,
			    const struct trial *t, size_t start, size_t len,
			    struct diff *d)
{
	sram_machine *m = sram_new(&init->g);
	cr_assert_not_null(m);
	model *M = model_new(init);
	size_t end = start + 1;
	for (; end < start + len; end++) {
		replay(p, init, t, end, m, M);
		if (find_diff(m, M, d))
			break;
	}
	model_free(M);
	sram_free(m);
	return end;
}

static void describe_bit(const struct diff *d, unsigned W, char *buf,
			 size_t len)
{
	static const char *lat[NLATCH] = {"carry", "tag", "enable", "BL", "BLB"};
	const char *where = d->tail ? "beyond the array: " : "";
	if (d->plane < W)
		snprintf(buf, len, "%swordline %u", where, d->plane);
	else
		snprintf(buf, len, "%s%s latch", where, lat[d->plane - W]);
}

/* Print the sequence, find the uop that went wrong, and fail. */
static void report(enum path p, const sram_machine *init,
		   const struct trial *t, size_t start, size_t len,
		   struct diff d)
{
	char ubuf[160], bbuf[64];
	for (size_t i = 0; i < t->n; i++) {
		format_uop(&t->prog[i], ubuf, sizeof ubuf);
		fprintf(stderr, "  uop %2zu: %s\n", i, ubuf);
	}
	const size_t end = first_bad_end(p, init, t, start, len, &d);
	const size_t call = (end - 1) / piece_of(p, t) * piece_of(p, t);
	format_uop(&t->prog[end - 1], ubuf, sizeof ubuf);
	describe_bit(&d, init->g.wordlines, bbuf, sizeof bbuf);
	const char *vec = getenv("INFSIM_VECTOR"), *st = getenv("INFSIM_STREAM");
	cr_assert_fail("%s differs from pe.def after uop %zu of %zu (%s)\n"
		       "  (uops %zu..%zu ran in one call)\n"
		       "  array %u (way %u), %s, bitline %u: expected %d, got %d\n"
		       "  machine B=%u W=%u arrays/way=%u ways=%u, %s ways, "
		       "seed %#llx, INFSIM_VECTOR=%s INFSIM_STREAM=%s",
		       path_names[p], end - 1, t->n, ubuf, call, end - 1, d.array,
		       d.array / t->sh->apw, bbuf, d.bl, d.want, d.got, t->sh->B,
		       t->sh->W, t->sh->apw, init->nways,
		       t->all_ways ? "all" : "some", (unsigned long long)t->seed,
		       vec ? vec : "(unset)", st ? st : "(unset)");
}

/* The trial's machines: the start state, and one per path. */
struct bench {
	sram_machine *init, *out[PATH_COUNT];
	model *M;
};

/* Run the trial through path p piece by piece, comparing with the
 * interpreter after each piece: the latches and the rows the piece
 * wrote, and every bit after the last piece. */
static void check_path(struct bench *b, const struct trial *t, enum path p)
{
	const size_t piece = piece_of(p, t);
	sram_machine *m = b->out[p];
	sram_copy_state(m, b->init);
	model_load(b->M, b->init);
	for (size_t i = 0; i < t->n; i += piece) {
		const size_t len = t->n - i < piece ? t->n - i : piece;
		bool written[SRAM_MAX_DIM] = {false};
		for (size_t j = i; j < i + len; j++)
			if (t->prog[j].wfn)
				written[t->prog[j].dst] = true;
		struct diff d;
		exec_path(p, m, t, i, len);
		model_run(b->M, trial_ways(t), t->prog + i, len);
		if (find_diff_in(m, b->M, i + len < t->n ? written : NULL, &d))
			report(p, b->init, t, i, len, d);
	}
}

static void run_trial(struct bench *b, struct trial *t)
{
	uint64_t rng = t->seed;
	const enum enable_mode mode = (enum enable_mode)(rnd(&rng) % EN_MODES);
	fill_random(b->init, &rng, mode);
	cov.all_on_runs += mode == EN_ALL;
	t->all_ways = rnd(&rng) % 3 == 0;
	for (unsigned w = 0; w < b->init->nways; w++)
		t->way_on[w] = rnd(&rng) % 3 != 0;
	cov.subset_runs += !t->all_ways;
	t->n = 1 + rnd(&rng) % MAX_UOPS;
	t->piece = 2 + rnd(&rng) % 5;
	const bool plain = rnd(&rng) % 2;
	for (size_t i = 0; i < t->n; i++)
		t->prog[i] = random_uop(b->init, &rng, plain);
	for (int p = 0; p < PATH_COUNT; p++) {
		check_path(b, t, (enum path)p);
		cr_assert(sram_state_equal(b->out[p], b->out[PATH_RUN]),
			  "%s and sram_run agree with pe.def bit by bit but "
			  "sram_state_equal says they differ", path_names[p]);
	}
}

/* Trials per shape: fewer on big machines, so the suite stays fast. */
static unsigned trials_of(const struct shape *sh)
{
	const unsigned long bits = (unsigned long)sh->B * sh->W * sh->apw *
				   sh->ways * sh->mesh_x * sh->mesh_y;
	const unsigned long t = 200000ul / bits;
	return t < 3 ? 3 : t > 24 ? 24 : (unsigned)t;
}

static void run_shape(const struct shape *sh, uint64_t seed)
{
	const sram_geom g = {.wordlines = sh->W, .bitlines = sh->B,
			     .arrays_per_way = sh->apw, .ways_per_bank = sh->ways,
			     .mesh_x = sh->mesh_x, .mesh_y = sh->mesh_y};
	struct bench b;
	b.init = sram_new(&g);
	cr_assert_not_null(b.init, "%s", sram_geom_check(&g));
	cr_assert(b.init->nways <= MAX_WAYS);
	for (int p = 0; p < PATH_COUNT; p++) {
		b.out[p] = sram_new(&g);
		cr_assert_not_null(b.out[p]);
	}
	b.M = model_new(b.init);
	const unsigned trials = trials_of(sh);
	for (unsigned i = 0; i < trials; i++) {
		struct trial t = {.sh = sh, .seed = seed * 1000003u + i};
		run_trial(&b, &t);
	}
	model_free(b.M);
	for (int p = 0; p < PATH_COUNT; p++)
		sram_free(b.out[p]);
	sram_free(b.init);
}

/* Every function, gate and preset was generated, and the cases the
 * executor handles apart (a sensed destination, two functions, three
 * wordlines, a subset of ways, all bitlines on). */
static void check_coverage(void)
{
	for (unsigned fn = 1; fn < SRAM_FN_COUNT && !shift_heavy; fn++)
		cr_expect(cov.fn[fn] > 0, "function %s was never generated",
			  sram_fn_name(fn));
	for (unsigned i = 0; i < 3; i++)
		cr_expect(cov.gate[i] && cov.cpre[i], "gate or preset %u missing", i);
	for (unsigned i = 0; i < 4; i++)
		cr_expect(cov.nact[i] > 0, "no uop activated %u wordlines", i);
	cr_expect(cov.dst_sensed && cov.both_fns && cov.subset_runs &&
		  cov.all_on_runs, "a special case was never generated");
	cr_expect(cov.set && cov.set_many && cov.set_dst,
		  "no many-wordline activation (%u), none of more than three "
		  "rows (%u), or none that senses its destination (%u)",
		  cov.set, cov.set_many, cov.set_dst);
	cr_expect(cov.shift_plain && cov.shift_in_place,
		  "no plain shift (%u) or none in place (%u)", cov.shift_plain,
		  cov.shift_in_place);
}

/* A seed per setting, so that each test draws other sequences. */
static uint64_t seed_of(const char *vector, const char *stream)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325);
	for (const char *p = vector ? vector : "-"; *p; p++)
		h = (h ^ (uint8_t)*p) * UINT64_C(0x100000001b3);
	for (const char *p = stream ? stream : "-"; *p; p++)
		h = (h ^ (uint8_t)*p) * UINT64_C(0x100000001b3);
	return h;
}

/* Select the executor's paths before the first sram call of this test
 * (this process): NULL leaves a variable unset, the default. */
static void run_all_shapes(const char *vector, const char *stream)
{
	if (vector)
		cr_assert_eq(setenv("INFSIM_VECTOR", vector, 1), 0);
	else
		unsetenv("INFSIM_VECTOR");
	if (stream)
		cr_assert_eq(setenv("INFSIM_STREAM", stream, 1), 0);
	else
		unsetenv("INFSIM_STREAM");
	for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
		run_shape(&shapes[i], seed_of(vector, stream) + i);
	check_coverage();
}

/* ---- the tests ---- */

Test(exec, defaults) { run_all_shapes(NULL, NULL); }
Test(exec, widest_vectors_no_stream) { run_all_shapes(NULL, "0"); }
Test(exec, widest_vectors_stream) { run_all_shapes(NULL, "1"); }
Test(exec, avx2_no_stream) { run_all_shapes("avx2", "0"); }
Test(exec, avx2_stream) { run_all_shapes("avx2", "1"); }
Test(exec, generic_no_stream) { run_all_shapes("generic", "0"); }
Test(exec, generic_stream) { run_all_shapes("generic", "1"); }
Test(exec, scalar_no_stream) { run_all_shapes("none", "0"); }
Test(exec, scalar_stream) { run_all_shapes("none", "1"); }
/* Programs of mostly shifts, at every vector width. */
Test(exec, shifts_widest_vectors) { shift_heavy = true; run_all_shapes(NULL, "0"); }
Test(exec, shifts_avx2) { shift_heavy = true; run_all_shapes("avx2", "0"); }
Test(exec, shifts_generic) { shift_heavy = true; run_all_shapes("generic", "1"); }
Test(exec, shifts_scalar) { shift_heavy = true; run_all_shapes("none", "0"); }

/* The interpreter itself against arithmetic, not against pe.def's
 * strings: ADD and SUB are full adders (SUB: a + ~b + C with a in T),
 * INC and NEG half adders (NEG: ~a + C). */
Test(exec, interpreter_is_a_full_adder)
{
	for (unsigned v = 0; v < 8; v++) {
		const bool a = v & 1, b = v >> 1 & 1, c = v >> 2 & 1;
		const struct pe_in two = {.s = a && b, .z = !a && !b, .e = true};
		const struct pe_in one = {.s = a, .z = !a, .e = true};
		const unsigned add = a + b + c, sub = a + !b + c;
		const unsigned inc = a + c, neg = !a + c;
		bool cn, t = a;
		sram_uop u = {.wfn = SRAM_FN_ADD, .nact = 2};
		bool C = c, d = false;
		model_cycle(&u, &two, &C, &t, &d);
		cr_expect(d == (add & 1) && C == (add >> 1), "ADD %u", v);
		cr_expect(model_write_fn(SRAM_FN_SUB, &two, c, a, &cn) == (sub & 1) &&
			  cn == (sub >> 1), "SUB %u", v);
		cr_expect(model_write_fn(SRAM_FN_INC, &one, c, 0, &cn) == (inc & 1) &&
			  cn == (inc >> 1), "INC %u", v);
		cr_expect(model_write_fn(SRAM_FN_NEG, &one, c, 0, &cn) == (neg & 1) &&
			  cn == (neg >> 1), "NEG %u", v);
	}
}

/* Gating and the preset, by hand: a tag-gated uop on a bitline whose
 * tag is clear still takes the preset carry, and nothing else. */
Test(exec, interpreter_gates_after_preset)
{
	const struct pe_in in = {.s = true, .z = false, .e = true};
	sram_uop u = {.wfn = SRAM_FN_ONE, .lfn = SRAM_FN_TNOT,
		      .gate = SRAM_GATE_ET, .cpre = SRAM_CPRE_1};
	bool c = false, t = false, d = false;
	model_cycle(&u, &in, &c, &t, &d);
	cr_expect(c && !t && !d);
	u.gate = SRAM_GATE_ENT;
	c = false;
	model_cycle(&u, &in, &c, &t, &d);
	cr_expect(c && t && d);
}

/* No uops, or no selected way: nothing changes, not even BL/BLB. */
Test(exec, empty_runs_change_nothing)
{
	const sram_geom g = {.wordlines = 8, .bitlines = 128, .arrays_per_way = 3,
			     .ways_per_bank = 5, .mesh_x = 1, .mesh_y = 1};
	sram_machine *m = sram_new(&g), *init = sram_new(&g);
	cr_assert(m && init);
	uint64_t rng = 42;
	fill_random(init, &rng, EN_ALL);
	sram_copy_state(m, init);
	const sram_uop u = {.wfn = SRAM_FN_NOT, .nact = 1, .act = {2}, .dst = 3};
	const uint8_t none[5] = {0};
	sram_run(m, NULL, &u, 0);
	sram_run(m, none, &u, 1);
	sram_step(m, none, &u);
	cr_expect(sram_state_equal(m, init));
	sram_free(m);
	sram_free(init);
}

/* sram_uop_check: what the random generator relies on to keep only
 * valid uops must refuse the invalid ones. */
Test(exec, uop_check_refuses_invalid)
{
	const sram_geom g = {.wordlines = 16, .bitlines = 64, .arrays_per_way = 1,
			     .ways_per_bank = 1, .mesh_x = 1, .mesh_y = 1};
	sram_machine *m = sram_new(&g);
	cr_assert_not_null(m);
	const sram_uop bad[] = {
		{.wfn = SRAM_FN_COUNT, .dst = 0},
		{.lfn = SRAM_FN_COUNT, .nact = 1, .dst = SRAM_NO_ROW},
		{.wfn = SRAM_FN_LOADT, .nact = 1, .dst = 0},
		{.lfn = SRAM_FN_COPY, .nact = 1, .dst = SRAM_NO_ROW},
		{.wfn = SRAM_FN_COPY, .nact = 4, .dst = 0},
		{.wfn = SRAM_FN_COPY, .nact = 1, .act = {16}, .dst = 0},
		{.wfn = SRAM_FN_COPY, .nact = 0, .dst = 0},
		{.wfn = SRAM_FN_XOR, .nact = 1, .dst = 0},
		{.wfn = SRAM_FN_XOR, .nact = 3, .dst = 0},
		{.wfn = SRAM_FN_SHUP, .nact = 2, .dst = 0},
		{.wfn = SRAM_FN_INC, .nact = 2, .dst = 0},
		{.lfn = SRAM_FN_LOADTX, .nact = 1, .dst = SRAM_NO_ROW},
		{.wfn = SRAM_FN_ONE, .dst = 16},
		{.wfn = SRAM_FN_ONE, .dst = SRAM_NO_ROW},
		{.lfn = SRAM_FN_TNOT, .dst = 3},
		{.wfn = SRAM_FN_ONE, .dst = 0, .gate = 3},
		{.wfn = SRAM_FN_ONE, .dst = 0, .cpre = 3},
		{.wfn = SRAM_FN_ADD, .lfn = SRAM_FN_LOADC, .nact = 2, .dst = 0},
		{.wfn = SRAM_FN_CNEG, .lfn = SRAM_FN_CORS, .nact = 1, .dst = 0},
		{.dst = SRAM_NO_ROW, .cpre = SRAM_CPRE_1},
		/* many-wordline sets: rows past the end, a wrong count,
		 * functions that need exactly one or two rows */
		{.lfn = SRAM_FN_LOADT, .nact = 2, .act = {14}, .set = 0x5, .dst = SRAM_NO_ROW},
		{.lfn = SRAM_FN_LOADT, .nact = 2, .act = {0}, .set = 0x3ull << 62, .dst = SRAM_NO_ROW},
		{.lfn = SRAM_FN_LOADT, .nact = 3, .act = {0}, .set = 0x5, .dst = SRAM_NO_ROW},
		{.lfn = SRAM_FN_LOADT, .nact = 1, .act = {0}, .set = 0x5, .dst = SRAM_NO_ROW},
		{.wfn = SRAM_FN_XOR, .nact = 2, .act = {0}, .set = 0x3, .dst = 0},
		{.wfn = SRAM_FN_INC, .nact = 1, .act = {0}, .set = 0x1, .dst = 0},
		{.lfn = SRAM_FN_LOADTX, .nact = 2, .act = {0}, .set = 0x3, .dst = SRAM_NO_ROW},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		cr_expect_not_null(sram_uop_check(m, &bad[i]), "bad uop %zu accepted", i);
	const sram_uop good[] = {
		{.wfn = SRAM_FN_ADD, .lfn = SRAM_FN_LOADT, .nact = 2, .act = {1, 2}, .dst = 1},
		{.wfn = SRAM_FN_COPY, .lfn = SRAM_FN_LOADC, .nact = 3, .act = {15, 0, 15}, .dst = 15},
		{.lfn = SRAM_FN_TFROMC, .dst = SRAM_NO_ROW},
		{.nact = 1, .dst = SRAM_NO_ROW},
		{.wfn = SRAM_FN_SHDOWN, .nact = 1, .dst = 3, .gate = SRAM_GATE_ENT, .cpre = SRAM_CPRE_0},
		{.lfn = SRAM_FN_LOADT, .nact = 16, .act = {0}, .set = 0xffff, .dst = SRAM_NO_ROW},
		{.wfn = SRAM_FN_NOT, .lfn = SRAM_FN_TANDZ, .nact = 2, .act = {13}, .set = 0x5, .dst = 13},
		{.wfn = SRAM_FN_WRC, .nact = 1, .act = {15}, .set = 0x1, .dst = 0},
	};
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
		cr_expect_null(sram_uop_check(m, &good[i]), "good uop %zu refused: %s",
			       i, sram_uop_check(m, &good[i]));
	sram_free(m);
}
