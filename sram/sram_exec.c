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
 * Speed: each (write function) has its own loop over the words of the
 * way, with no branch inside, so the compiler vectorises it.  A way of
 * the default machine is 64 words wide; its live rows stay in L1/L2.
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

/* Sense amplifier inputs: three row pointers (repeating the last one
 * when fewer are activated, which leaves AND and NOR unchanged). */
struct sense {
	const uint64_t *r0, *r1, *r2;
	uint64_t mt, mn; /* gate masks: g = E & ((T & mt) | (~T & mn)) */
};

static void sense_setup(const sram_machine *m, const sram_way *w,
			const sram_uop *u, const uint64_t *zero, struct sense *s)
{
	const uint64_t *r[3] = {zero, zero, zero};
	for (unsigned i = 0; i < u->nact; i++)
		r[i] = w->rows + (size_t)u->act[i] * m->stride;
	if (u->nact == 1)
		r[1] = r[2] = r[0];
	else if (u->nact == 2)
		r[2] = r[1];
	s->r0 = r[0];
	s->r1 = r[1];
	s->r2 = r[2];
	s->mt = u->gate == SRAM_GATE_ENT ? 0 : ~UINT64_C(0);
	s->mn = u->gate == SRAM_GATE_ET ? 0 : ~UINT64_C(0);
}

/* Every loop reads word k of its rows before it writes word k, and
 * touches no other word, so a destination that is also an activated row
 * is safe to vectorise. */
#if defined(__GNUC__) && !defined(__clang__)
#define IVDEP _Pragma("GCC ivdep")
#else
#define IVDEP
#endif

/* Per-word values every function may use. */
#define SENSE_WORD(k)                                                    \
	const uint64_t s = S.r0[k] & S.r1[k] & S.r2[k];                  \
	const uint64_t z = ~(S.r0[k] | S.r1[k] | S.r2[k]);               \
	const uint64_t x = ~s & ~z;                                      \
	const uint64_t C = carry[k], T = tag[k];                         \
	const uint64_t g = en[k] & ((T & S.mt) | (~T & S.mn));          \
	(void)x; (void)C; (void)T; (void)s; (void)z

static uint64_t lfn_value(unsigned fn, uint64_t s, uint64_t z, uint64_t x,
			  uint64_t C, uint64_t T)
{
	switch (fn) {
	case SRAM_FN_LOADT: return s;
	case SRAM_FN_LOADTN: return z;
	case SRAM_FN_LOADTX: return x;
	case SRAM_FN_LOADTXN: return ~x;
	case SRAM_FN_LOADTOR: return ~z;
	case SRAM_FN_LOADC: return s;
	case SRAM_FN_TANDS: return T & s;
	case SRAM_FN_TANDZ: return T & z;
	case SRAM_FN_TORS: return T | s;
	case SRAM_FN_TORNZ: return T | ~z;
	case SRAM_FN_TXORS: return T ^ s;
	case SRAM_FN_TSANDC: return s & C;
	case SRAM_FN_TFROMC: return C;
	case SRAM_FN_TFROMNC: return ~C;
	case SRAM_FN_TNOT: return ~T;
	case SRAM_FN_CANDZ: return C & z;
	case SRAM_FN_CANDNX: return C & ~x;
	case SRAM_FN_CORS: return C | s;
	case SRAM_FN_SUBC: return (T & x) | (C & (T | ~x));
	default: return 0;
	}
}

/* Step 3: the latch function, into tmp (already gated). */
static void run_lfn(const sram_machine *m, sram_way *w, const sram_uop *u,
		    const struct sense *sp, uint64_t *tmp)
{
	const struct sense S = *sp;
	const uint64_t *carry = w->carry, *tag = w->tag, *en = w->enable;
	const unsigned n = m->stride;
	const int latch = latch_of_lfn(u->lfn);
	for (unsigned k = 0; k < n; k++) {
		SENSE_WORD(k);
		uint64_t v = lfn_value(u->lfn, s, z, x, C, T);
		uint64_t old = latch == 'C' ? C : T;
		tmp[k] = (old & ~g) | (v & g);
	}
}

/* Loop of a write function that leaves the carry alone. */
#define WLOOP(EXPR)                                                      \
	IVDEP                                                             \
	for (unsigned k = 0; k < n; k++) {                                \
		SENSE_WORD(k);                                            \
		const uint64_t out = (EXPR);                              \
		dst[k] = (dst[k] & ~g) | (out & g);                       \
	}                                                                 \
	break

/* Loop of a write function that also computes a new carry. */
#define WCLOOP(EXPR, CEXPR)                                              \
	IVDEP                                                             \
	for (unsigned k = 0; k < n; k++) {                                \
		SENSE_WORD(k);                                            \
		const uint64_t out = (EXPR);                              \
		const uint64_t cn = (CEXPR);                              \
		dst[k] = (dst[k] & ~g) | (out & g);                       \
		carry[k] = (C & ~g) | (cn & g);                           \
	}                                                                 \
	break

static void run_wfn(const sram_machine *m, sram_way *w, const sram_uop *u,
		    const struct sense *sp)
{
	const struct sense S = *sp;
	uint64_t *carry = w->carry;
	const uint64_t *tag = w->tag, *en = w->enable;
	uint64_t *dst = w->rows + (size_t)u->dst * m->stride;
	const unsigned n = m->stride;

	switch (u->wfn) {
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

/* Bitline shift by one inside each array of the way. */
static void run_shift(const sram_machine *m, sram_way *w, const sram_uop *u,
		      const struct sense *sp, uint64_t *tmp)
{
	const unsigned wpa = m->wpa, n = m->stride;
	const bool up = u->wfn == SRAM_FN_SHUP;
	for (unsigned k = 0; k < n; k++)
		tmp[k] = sp->r0[k] & sp->r1[k] & sp->r2[k];
	uint64_t *dst = w->rows + (size_t)u->dst * m->stride;
	const uint64_t *tag = w->tag, *en = w->enable;
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
			const uint64_t T = tag[a + k];
			const uint64_t g = en[a + k] & ((T & sp->mt) | (~T & sp->mn));
			dst[a + k] = (dst[a + k] & ~g) | (v & g);
		}
	}
}

static void record_sense(const sram_machine *m, sram_way *w,
			 const sram_uop *u, const struct sense *sp)
{
	const unsigned n = m->stride;
	for (unsigned k = 0; k < n; k++) {
		w->bl[k] = sp->r0[k] & sp->r1[k] & sp->r2[k];
		w->blb[k] = ~(sp->r0[k] | sp->r1[k] | sp->r2[k]);
	}
	/* BLB of bitlines outside any array (tail bits) reads 0. */
	if (m->wpa && m->tail != ~UINT64_C(0))
		for (unsigned k = m->wpa - 1; k < n; k += m->wpa)
			w->blb[k] &= m->tail;
	memcpy(w->last_act, u->act, sizeof w->last_act);
	w->last_nact = u->nact;
}

/* One uop on one way.  scratch holds 2 * stride words. */
static void exec_uop(const sram_machine *m, sram_way *w, const sram_uop *u,
		     const uint64_t *zero, uint64_t *scratch)
{
	struct sense S;
	sense_setup(m, w, u, zero, &S);
	if (u->cpre != SRAM_CPRE_KEEP) {
		/* The preset drives the latch on enabled bitlines only. */
		const uint64_t v = u->cpre == SRAM_CPRE_1 ? ~UINT64_C(0) : 0;
		for (unsigned k = 0; k < m->stride; k++)
			w->carry[k] = (w->carry[k] & ~w->enable[k]) |
				      (v & w->enable[k]);
	}
	if (u->nact)
		record_sense(m, w, u, &S);
	uint64_t *ltmp = scratch;
	if (u->lfn)
		run_lfn(m, w, u, &S, ltmp);
	if (u->wfn == SRAM_FN_SHUP || u->wfn == SRAM_FN_SHDOWN)
		run_shift(m, w, u, &S, scratch + m->stride);
	else if (u->wfn)
		run_wfn(m, w, u, &S);
	if (u->lfn)
		memcpy(latch_of_lfn(u->lfn) == 'C' ? w->carry : w->tag, ltmp,
		       m->stride * sizeof(uint64_t));
	w->last_dst = u->wfn ? u->dst : SRAM_NO_ROW;
}

/* Scratch for one thread: a zero row and two temporaries. */
static uint64_t *thread_scratch(const sram_machine *m)
{
	return calloc(3 * (size_t)m->stride + 8, sizeof(uint64_t));
}

void sram_run_way(sram_machine *m, unsigned way, const sram_uop *prog, size_t n)
{
	uint64_t *buf = thread_scratch(m);
	if (!buf)
		abort(); /* a few KiB; the machine itself is far larger */
	for (size_t i = 0; i < n; i++)
		exec_uop(m, &m->ways[way], &prog[i], buf, buf + m->stride);
	free(buf);
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
#ifdef _OPENMP
	int nt = run_threads ? run_threads : omp_get_max_threads();
	if (nt > nways)
		nt = (int)nways;
#pragma omp parallel num_threads(nt)
#endif
	{
		uint64_t *buf = thread_scratch(m);
		if (!buf)
			abort();
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
		for (long w = 0; w < nways; w++) {
			if (way_on && !way_on[w])
				continue;
			for (size_t i = 0; i < n; i++)
				exec_uop(m, &m->ways[w], &prog[i], buf,
					 buf + m->stride);
		}
		free(buf);
	}
}

void sram_step(sram_machine *m, const uint8_t *way_on, const sram_uop *u)
{
	sram_run(m, way_on, u, 1);
}
