/*
 * sram_exec.c: the micro-op executor.
 *
 * One micro-op is one cycle of every array of a way, run in lockstep.
 * Within the cycle, in this order (pe.def gives each function):
 *   1. sense: BL = AND, BLB = NOR of the activated wordlines;
 *   2. the gate is computed from the enable mask and the old tag;
 *   3. the latch function computes its new latch value from the sensed
 *      values and the old latches;
 *   4. the write function computes the write data (and maybe the carry)
 *      from the same inputs, and the destination wordline is written
 *      where the gate is set;
 *   5. the latches take their new values where the gate is set.
 * Sensing happens before the write, so a uop may read and write the same
 * wordline.
 *
 * Speed: see "How a run executes" below and doc/PERFORMANCE.md.  A way
 * of the default machine is 64 words wide; its live rows stay in L1/L2.
 */
#include "sram.h"

#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

static const struct fn_info {
	const char *name, *sem;
	char kind;
	int sense;
} fn_table[SRAM_FN_COUNT] = {
	[SRAM_FN_NONE] = {"none", "", 0, 0},
#define SRAM_FN(n, k, s, sem_) [SRAM_FN_##n] = {#n, sem_, (#k)[0], s},
#include "pe.def"
#undef SRAM_FN
};

const char *sram_fn_name(unsigned fn)
{
	return fn < SRAM_FN_COUNT ? fn_table[fn].name : "?";
}
const char *sram_fn_semantics(unsigned fn)
{
	return fn < SRAM_FN_COUNT ? fn_table[fn].sem : "";
}
int sram_fn_kind(unsigned fn)
{
	return fn < SRAM_FN_COUNT ? fn_table[fn].kind : 0;
}
int sram_fn_sense(unsigned fn)
{
	return fn < SRAM_FN_COUNT ? fn_table[fn].sense : 0;
}
int sram_fn_lookup(const char *name)
{
	for (unsigned i = 1; i < SRAM_FN_COUNT; i++) {
		const char *a = fn_table[i].name, *b = name;
		while (*a && (*a | 32) == (*b | 32))
			a++, b++;
		if (!*a && !*b)
			return (int)i;
	}
	return -1;
}

static int latch_of_lfn(unsigned fn)
{
	switch (fn) {
	case SRAM_FN_LOADC: case SRAM_FN_CANDZ: case SRAM_FN_CANDNX:
	case SRAM_FN_CORS: case SRAM_FN_SUBC:
		return 'C';
	default:
		return 'T';
	}
}

static bool wfn_sets_carry(unsigned fn)
{
	switch (fn) {
	case SRAM_FN_ADD: case SRAM_FN_ADDN: case SRAM_FN_SUB:
	case SRAM_FN_NEG: case SRAM_FN_INC: case SRAM_FN_CNEG:
		return true;
	default:
		return false;
	}
}

int sram_fn_latch(unsigned fn)
{
	if (fn == SRAM_FN_NONE || fn >= SRAM_FN_COUNT)
		return 0;
	if (fn_table[fn].kind == 'L')
		return latch_of_lfn(fn);
	return wfn_sets_carry(fn) ? 'C' : 0;
}

static bool sense_ok(int need, unsigned nact)
{
	switch (need) {
	case 0: return true;
	case SRAM_ANY: return nact >= 1 && nact <= 3;
	default: return nact == (unsigned)need;
	}
}

const char *sram_uop_check(const sram_machine *m, const sram_uop *u)
{
	if (u->wfn >= SRAM_FN_COUNT || u->lfn >= SRAM_FN_COUNT)
		return "unknown peripheral function";
	if (u->wfn && fn_table[u->wfn].kind != 'W')
		return "the write slot holds a latch function";
	if (u->lfn && fn_table[u->lfn].kind != 'L')
		return "the latch slot holds a write function";
	if (u->nact > SRAM_MAX_ACT)
		return "more than three wordlines activated";
	for (unsigned i = 0; i < u->nact; i++)
		if (u->act[i] >= m->g.wordlines)
			return "activated wordline out of range";
	if (!sense_ok(fn_table[u->wfn].sense, u->nact) ||
	    !sense_ok(fn_table[u->lfn].sense, u->nact))
		return "wrong number of activated wordlines for the function";
	if (u->wfn && u->dst >= m->g.wordlines)
		return "destination wordline out of range";
	if (!u->wfn && u->dst != SRAM_NO_ROW)
		return "a destination wordline without a write function";
	if (u->gate > SRAM_GATE_ENT || u->cpre > SRAM_CPRE_1)
		return "bad gate or carry preset";
	if (u->lfn && wfn_sets_carry(u->wfn) && latch_of_lfn(u->lfn) == 'C')
		return "two functions update the carry latch";
	if (!u->wfn && !u->lfn && u->nact == 0)
		return "the micro-op does nothing";
	return NULL;
}

void sram_uop_cost(const sram_uop *u, sram_count *c)
{
	c->cycles++;
	if (u->nact) {
		c->reads++;
		c->activations += u->nact;
	}
	if (u->wfn)
		c->writes++;
	if (u->lfn || wfn_sets_carry(u->wfn) || u->cpre)
		c->logic++;
}

/*
 * How a run executes (only speed is at stake here: the semantics are the
 * cycle order above; doc/PERFORMANCE.md has the figures).
 *
 * sram_run decodes the program once (struct plan), then each selected
 * way runs the whole program, uop after uop, so that the way's live rows
 * stay in L1/L2 from one uop to the next.  Ways share nothing (an array
 * computes only on its own bitlines), so neither the order of the ways
 * nor the thread that runs one can change a bit.
 *
 * A uop is one pass over the way's words.  Word k of every output depends
 * only on word k of the inputs (the shifts excepted), so a pass loads a
 * block of 8 words (one cache line, one GNU vector, which the compiler
 * maps to SSE2, AVX2 or AVX-512 in the clone picked at load time),
 * computes, and stores the same block: latches update in place.  A
 * temporary is needed only when a uop holds both a write and a latch
 * function (the write must still see the old latches), for the shifts,
 * and for three activated rows, which are first folded into two (see
 * fold_three_rows) so that every pass senses exactly two.
 *
 * Each function's loop exists in three variants of the gate: all ones
 * (gate E on a way whose every bitline is enabled, the usual case, which
 * needs neither the enable mask nor the old destination), E, and E & T
 * or E & ~T.  BL/BLB are recorded only by the last uop of the run that
 * senses: earlier records would be overwritten before anyone could look.
 */

#if defined(__GNUC__)
typedef uint64_t sram_vword __attribute__((vector_size(64)));
#define VW 8
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
typedef uint64_t sram_vword;
#define VW 1
#define ALWAYS_INLINE inline
#endif

/* One clone of each pass per x86-64 vector extension, picked when the
 * library loads (GNU ifunc): no -march flag, and it runs anywhere. */
#if defined(__x86_64__) && defined(__ELF__) && defined(__GNUC__) &&      \
	!defined(__clang__) && __GNUC__ >= 8
#define SRAM_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define SRAM_CLONES
#endif

/* What one pass of one uop over one way reads and writes. */
struct pass {
	const uint64_t *r0, *r1; /* the two sensed rows (equal if one) */
	uint64_t *dst, *carry, *tag;
	const uint64_t *en;
	const uint64_t *lold;    /* the latch the latch function updates */
	uint64_t *lout;          /* where its gated new value goes */
	uint64_t flip;           /* gate ET: 0; gate ENT: ~0 */
	unsigned n;              /* words */
	unsigned fn;             /* the function of this pass */
};

/* How a pass forms its gate g. */
enum pass_gate {
	PG_ALL, /* g = ~0: gate E, and every bitline of the way enabled */
	PG_E,   /* g = E */
	PG_T,   /* g = E & (T ^ flip): gate ET or ENT */
};

/* BODY once per block of VW words, as sram_vword, then once per word
 * left over, as uint64_t; W names the type inside BODY. */
#define FOR_WORDS(BODY)                                                  \
	do {                                                             \
		unsigned k = 0;                                          \
		for (; k + VW <= X->n; k += VW) {                        \
			typedef sram_vword W;                            \
			BODY                                             \
		}                                                        \
		for (; k < X->n; k++) {                                  \
			typedef uint64_t W;                              \
			BODY                                             \
		}                                                        \
	} while (0)

#define LD(var, p) W var; memcpy(&var, (p) + k, sizeof var)
#define ST(p, val)                                                       \
	do {                                                             \
		const W st_ = (val);                                     \
		memcpy((p) + k, &st_, sizeof st_);                       \
	} while (0)

/* The values of pe.def's notation for the current block, and g.  G is a
 * constant in every caller, so the unused branches vanish. */
#define SENSE_BLOCK                                                      \
	LD(a0_, X->r0); LD(a1_, X->r1);                                  \
	LD(C, X->carry); LD(T, X->tag);                                  \
	const W s = a0_ & a1_;                                           \
	const W z = ~(a0_ | a1_);                                        \
	const W x = ~(s | z);                                            \
	W g = ~(W){0};                                                   \
	if (G != PG_ALL) {                                               \
		LD(e_, X->en);                                           \
		g = e_;                                                  \
		if (G == PG_T)                                           \
			g &= T ^ X->flip;                                \
	}                                                                \
	(void)s; (void)z; (void)x; (void)C; (void)T;

/* old where the gate is clear, v where it is set. */
#define GATED(old, v) (G == PG_ALL ? (v) : ((old) & ~g) | ((v) & g))
/* The destination's old block, only when a gate can keep it. */
#define LD_DST                                                           \
	W d_ = (W){0};                                                   \
	if (G != PG_ALL)                                                 \
		memcpy(&d_, X->dst + k, sizeof d_);

/* A write function that leaves the carry alone.  (W){0} | v makes a
 * block of a constant. */
#define WLOOP(EXPR)                                                      \
	FOR_WORDS(SENSE_BLOCK LD_DST                                     \
		  ST(X->dst, GATED(d_, (W){0} | (EXPR))););              \
	break

/* A write function that also computes a new carry. */
#define WCLOOP(EXPR, CEXPR)                                              \
	FOR_WORDS(SENSE_BLOCK LD_DST                                     \
		  ST(X->dst, GATED(d_, (W){0} | (EXPR)));                \
		  ST(X->carry, GATED(C, (W){0} | (CEXPR))););            \
	break

/* A latch function: lout = the latch, updated where the gate is set. */
#define LLOOP(EXPR)                                                      \
	FOR_WORDS(SENSE_BLOCK LD(o_, X->lold);                           \
		  ST(X->lout, GATED(o_, (W){0} | (EXPR))););             \
	break

static ALWAYS_INLINE void lfn_pass(const struct pass *X, const enum pass_gate G)
{
	switch (X->fn) {
	case SRAM_FN_LOADT: LLOOP(s);
	case SRAM_FN_LOADTN: LLOOP(z);
	case SRAM_FN_LOADTX: LLOOP(x);
	case SRAM_FN_LOADTXN: LLOOP(~x);
	case SRAM_FN_LOADTOR: LLOOP(~z);
	case SRAM_FN_LOADC: LLOOP(s);
	case SRAM_FN_TANDS: LLOOP(T & s);
	case SRAM_FN_TANDZ: LLOOP(T & z);
	case SRAM_FN_TORS: LLOOP(T | s);
	case SRAM_FN_TORNZ: LLOOP(T | ~z);
	case SRAM_FN_TXORS: LLOOP(T ^ s);
	case SRAM_FN_TSANDC: LLOOP(s & C);
	case SRAM_FN_TFROMC: LLOOP(C);
	case SRAM_FN_TFROMNC: LLOOP(~C);
	case SRAM_FN_TNOT: LLOOP(~T);
	case SRAM_FN_CANDZ: LLOOP(C & z);
	case SRAM_FN_CANDNX: LLOOP(C & ~x);
	case SRAM_FN_CORS: LLOOP(C | s);
	case SRAM_FN_SUBC: LLOOP((T & x) | (C & (T | ~x)));
	default: LLOOP(0);
	}
}

static ALWAYS_INLINE void wfn_pass(const struct pass *X, const enum pass_gate G)
{
	switch (X->fn) {
	case SRAM_FN_COPY: WLOOP(s);
	case SRAM_FN_NOT: WLOOP(z);
	case SRAM_FN_OR: WLOOP(~z);
	case SRAM_FN_XOR: WLOOP(x);
	case SRAM_FN_XNOR: WLOOP(~x);
	case SRAM_FN_ZERO: WLOOP(0);
	case SRAM_FN_ONE: WLOOP(~UINT64_C(0));
	case SRAM_FN_WRC: WLOOP(C);
	case SRAM_FN_WRT: WLOOP(T);
	case SRAM_FN_ANDT: WLOOP(s & T);
	case SRAM_FN_XORT: WLOOP(s ^ T);
	case SRAM_FN_ADD: WCLOOP(x ^ C, s | (x & C));
	case SRAM_FN_ADDN: WCLOOP(~(x ^ C), s | (x & C));
	case SRAM_FN_SUB: WCLOOP(~x ^ C, (T & x) | (C & (T | ~x)));
	case SRAM_FN_NEG: WCLOOP(z ^ C, z & C);
	case SRAM_FN_INC: WCLOOP(s ^ C, s & C);
	case SRAM_FN_CNEG: WCLOOP(s ^ (T & C), C | s);
	default: break;
	}
}

typedef void pass_fn(const struct pass *X);
static SRAM_CLONES void lfn_pass_all(const struct pass *X) { lfn_pass(X, PG_ALL); }
static SRAM_CLONES void lfn_pass_e(const struct pass *X) { lfn_pass(X, PG_E); }
static SRAM_CLONES void lfn_pass_t(const struct pass *X) { lfn_pass(X, PG_T); }
static SRAM_CLONES void wfn_pass_all(const struct pass *X) { wfn_pass(X, PG_ALL); }
static SRAM_CLONES void wfn_pass_e(const struct pass *X) { wfn_pass(X, PG_E); }
static SRAM_CLONES void wfn_pass_t(const struct pass *X) { wfn_pass(X, PG_T); }
static pass_fn *const lfn_passes[] = {lfn_pass_all, lfn_pass_e, lfn_pass_t};
static pass_fn *const wfn_passes[] = {wfn_pass_all, wfn_pass_e, wfn_pass_t};

/* Three activated rows: their AND and OR go to two temporaries, whose
 * own AND is the AND of the three and whose NOR is their NOR (the AND is
 * inside the OR), so the uop then senses the two like any other. */
static void fold_three_rows(const uint64_t *r0, const uint64_t *r1,
			    const uint64_t *r2, uint64_t *tand, uint64_t *tor,
			    unsigned n)
{
	for (unsigned k = 0; k < n; k++) {
		tand[k] = r0[k] & r1[k] & r2[k];
		tor[k] = r0[k] | r1[k] | r2[k];
	}
}

/* Bitline shift by one inside each array of the way: words depend on
 * their neighbours, so the sensed row goes through tmp first. */
static void shift_pass(const sram_machine *m, const struct pass *X,
		       enum pass_gate G, uint64_t *tmp)
{
	const unsigned wpa = m->wpa, n = m->stride;
	const bool up = X->fn == SRAM_FN_SHUP;
	for (unsigned k = 0; k < n; k++)
		tmp[k] = X->r0[k] & X->r1[k];
	for (unsigned a = 0; a < n; a += wpa) {
		const uint64_t *src = tmp + a;
		for (unsigned k = 0; k < wpa; k++) {
			uint64_t v;
			if (up)
				v = (src[k] << 1) | (k ? src[k - 1] >> 63 : 0);
			else
				v = (src[k] >> 1) |
				    (k + 1 < wpa ? src[k + 1] << 63 : 0);
			if (k + 1 == wpa)
				v &= m->tail;
			const uint64_t T = X->tag[a + k];
			const uint64_t g = X->en[a + k] &
					   (G == PG_T ? T ^ X->flip : ~UINT64_C(0));
			X->dst[a + k] = (X->dst[a + k] & ~g) | (v & g);
		}
	}
}

static void record_sense(const sram_machine *m, sram_way *w,
			 const sram_uop *u, const struct pass *X)
{
	const unsigned n = m->stride;
	for (unsigned k = 0; k < n; k++) {
		w->bl[k] = X->r0[k] & X->r1[k];
		w->blb[k] = ~(X->r0[k] | X->r1[k]);
	}
	/* BLB of bitlines outside any array (tail bits) reads 0. */
	if (m->wpa && m->tail != ~UINT64_C(0))
		for (unsigned k = m->wpa - 1; k < n; k += m->wpa)
			w->blb[k] &= m->tail;
	memcpy(w->last_act, u->act, sizeof w->last_act);
	w->last_nact = u->nact;
}

/* The carry preset drives the latch on enabled bitlines only. */
static void preset_carry(const sram_machine *m, sram_way *w, unsigned cpre)
{
	const uint64_t v = cpre == SRAM_CPRE_1 ? ~UINT64_C(0) : 0;
	for (unsigned k = 0; k < m->stride; k++)
		w->carry[k] = (w->carry[k] & ~w->enable[k]) | (v & w->enable[k]);
}

/* A uop decoded for a run; offsets are in words from a way's rows. */
struct plan {
	const sram_uop *u;
	size_t act[SRAM_MAX_ACT]; /* sensed rows, the last one repeated */
	size_t dst;
	uint64_t flip;            /* see struct pass */
	bool record;              /* the run's last sensing uop */
	bool general;             /* needs more than one plain pass */
};

struct run {
	const sram_machine *m;
	const struct plan *plan;
	size_t n;
	const uint64_t *zero;     /* the sense inputs of a uop with nact 0 */
};

/* Every step of the cycle, for any uop.  tmp holds 4 * stride words. */
static void exec_general(const struct run *R, sram_way *w,
			 const struct plan *p, struct pass *X,
			 enum pass_gate G, uint64_t *tmp)
{
	const sram_uop *u = p->u;
	const unsigned n = R->m->stride;
	if (u->nact == 3) {
		fold_three_rows(w->rows + p->act[0], w->rows + p->act[1],
				w->rows + p->act[2], tmp + 2 * n, tmp + 3 * n, n);
		X->r0 = tmp + 2 * n;
		X->r1 = tmp + 3 * n;
	}
	if (u->cpre != SRAM_CPRE_KEEP)
		preset_carry(R->m, w, u->cpre);
	if (p->record)
		record_sense(R->m, w, u, X);
	if (u->lfn) {
		X->fn = u->lfn;
		if (u->wfn)
			X->lout = tmp;
		lfn_passes[G](X);
	}
	X->fn = u->wfn;
	if (u->wfn == SRAM_FN_SHUP || u->wfn == SRAM_FN_SHDOWN)
		shift_pass(R->m, X, G, tmp + n);
	else if (u->wfn)
		wfn_passes[G](X);
	if (u->lfn && u->wfn)
		memcpy((uint64_t *)X->lold, tmp, n * sizeof(uint64_t));
}

static bool all_enabled(const uint64_t *en, unsigned n)
{
	uint64_t all = ~UINT64_C(0);
	for (unsigned k = 0; k < n; k++)
		all &= en[k];
	return all == ~UINT64_C(0);
}

static void run_way(const struct run *R, sram_way *w, uint64_t *tmp)
{
	struct pass X = {.carry = w->carry, .tag = w->tag, .en = w->enable,
			 .n = R->m->stride};
	/* Enable never changes during a run: no function writes it. */
	const bool all_on = all_enabled(w->enable, X.n);
	for (size_t i = 0; i < R->n; i++) {
		const struct plan *p = &R->plan[i];
		const sram_uop *u = p->u;
		X.r0 = u->nact ? w->rows + p->act[0] : R->zero;
		X.r1 = u->nact ? w->rows + p->act[1] : R->zero;
		X.dst = w->rows + p->dst;
		X.flip = p->flip;
		X.lout = latch_of_lfn(u->lfn) == 'C' ? w->carry : w->tag;
		X.lold = X.lout;
		const enum pass_gate G = u->gate != SRAM_GATE_E ? PG_T
					 : all_on ? PG_ALL : PG_E;
		if (p->general) {
			exec_general(R, w, p, &X, G, tmp);
		} else if (u->lfn) {
			X.fn = u->lfn;
			lfn_passes[G](&X);
		} else {
			X.fn = u->wfn;
			wfn_passes[G](&X);
		}
	}
	if (R->n) {
		const sram_uop *u = R->plan[R->n - 1].u;
		w->last_dst = u->wfn ? u->dst : SRAM_NO_ROW;
	}
}

/* Decode prog for m, into R; NULL when out of memory.  A zero row
 * follows the plans in the same allocation. */
static struct plan *plan_new(const sram_machine *m, const sram_uop *prog,
			     size_t n, struct run *R)
{
	const size_t pbytes = (n ? n : 1) * sizeof(struct plan);
	struct plan *pl = calloc(1, pbytes + m->stride * sizeof(uint64_t));
	if (!pl)
		return NULL;
	size_t last_sense = SIZE_MAX;
	for (size_t i = 0; i < n; i++) {
		const sram_uop *u = &prog[i];
		struct plan *p = &pl[i];
		const unsigned last = u->nact ? u->nact - 1u : 0;
		p->u = u;
		for (unsigned j = 0; j < SRAM_MAX_ACT; j++)
			p->act[j] = (size_t)u->act[j < last ? j : last] * m->stride;
		p->dst = u->wfn ? (size_t)u->dst * m->stride : 0;
		p->flip = u->gate == SRAM_GATE_ENT ? ~UINT64_C(0) : 0;
		p->general = u->cpre != SRAM_CPRE_KEEP || u->nact > 2 ||
			     (u->lfn && u->wfn) || u->wfn == SRAM_FN_SHUP ||
			     u->wfn == SRAM_FN_SHDOWN;
		if (u->nact)
			last_sense = i;
	}
	if (last_sense != SIZE_MAX) {
		pl[last_sense].record = true;
		pl[last_sense].general = true;
	}
	R->m = m;
	R->plan = pl;
	R->n = n;
	R->zero = (const uint64_t *)((const char *)pl + pbytes);
	return pl;
}

static uint64_t *thread_tmp(const sram_machine *m)
{
	return calloc(4 * (size_t)m->stride + 8, sizeof(uint64_t));
}

void sram_run_way(sram_machine *m, unsigned way, const sram_uop *prog, size_t n)
{
	struct run R;
	struct plan *pl = plan_new(m, prog, n, &R);
	uint64_t *tmp = thread_tmp(m);
	if (!pl || !tmp)
		abort(); /* a few KiB; the machine itself is far larger */
	run_way(&R, &m->ways[way], tmp);
	free(tmp);
	free(pl);
}

static int run_threads;

void sram_set_threads(int n)
{
	run_threads = n > 0 ? n : 0;
}

void sram_run(sram_machine *m, const uint8_t *way_on, const sram_uop *prog,
	      size_t n)
{
	const long nways = (long)m->nways;
	struct run R;
	struct plan *pl = plan_new(m, prog, n, &R);
	if (!pl)
		abort();
#ifdef _OPENMP
	int nt = run_threads ? run_threads : omp_get_max_threads();
	if (nt > nways)
		nt = (int)nways;
#pragma omp parallel num_threads(nt)
#endif
	{
		uint64_t *tmp = thread_tmp(m);
		if (!tmp)
			abort();
		/* Static chunks: which thread runs a way is fixed, though
		 * nothing would change if it were not. */
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
		for (long w = 0; w < nways; w++)
			if (!way_on || way_on[w])
				run_way(&R, &m->ways[w], tmp);
		free(tmp);
	}
	free(pl);
}

void sram_step(sram_machine *m, const uint8_t *way_on, const sram_uop *u)
{
	sram_run(m, way_on, u, 1);
}
