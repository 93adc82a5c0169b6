/* SPDX-License-Identifier: MIT */
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
#include "sram_block.h"
#include "sram_vec.h"

#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif
#ifdef _OPENMP
#include <omp.h>
#endif

/* What pe.def's EFFECT column means: the kind of function ('W' write,
 * 'L' latch) and the latch it updates ('C', 'T' or none). */
#define EFFECT_KIND_W 'W'
#define EFFECT_KIND_WC 'W'
#define EFFECT_KIND_SH 'W'
#define EFFECT_KIND_LT 'L'
#define EFFECT_KIND_LC 'L'
#define EFFECT_LATCH_W 0
#define EFFECT_LATCH_WC 'C'
#define EFFECT_LATCH_SH 0
#define EFFECT_LATCH_LT 'T'
#define EFFECT_LATCH_LC 'C'

static const struct fn_info {
	const char *name, *sem;
	char kind, latch;
	int sense;
} fn_table[SRAM_FN_COUNT] = {
	[SRAM_FN_NONE] = {"none", "", 0, 0, 0},
#define FN_INFO_(n, eff, sense_, out, latch_, sem_) \
	[SRAM_FN_##n] = {#n, sem_, EFFECT_KIND_##eff, EFFECT_LATCH_##eff, sense_},
	SRAM_PE_FUNCTIONS(FN_INFO_)
#undef FN_INFO_
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

int sram_fn_latch(unsigned fn)
{
	return fn < SRAM_FN_COUNT ? fn_table[fn].latch : 0;
}

/* The latch a latch function updates. */
static int latch_of_lfn(unsigned fn)
{
	return fn_table[fn].latch;
}

static bool wfn_sets_carry(unsigned fn)
{
	return fn_table[fn].kind == 'W' && fn_table[fn].latch == 'C';
}


/* Does a function needing `need` (pe.def's SENSE) get what it needs?
 * A many-wordline activation (set) feeds only the functions of SENSE
 * SRAM_ANY: an AND or NOR of any number of cells is still an AND or NOR,
 * but XOR (two rows) and the one-row functions would mean nothing. */
static bool sense_ok(int need, const sram_uop *u)
{
	if (need == 0)
		return true;
	if (u->set)
		return need == SRAM_ANY;
	switch (need) {
	case SRAM_ANY: return u->nact >= 1 && u->nact <= 3;
	default: return u->nact == (unsigned)need;
	}
}

/* The activated wordlines: act[0..nact), or, with a set, act[0] + i for
 * each bit i of set (up to 64: a search value is at most 64 bits). */
static const char *check_activation(const sram_machine *m, const sram_uop *u)
{
	if (u->set) {
		const unsigned top = 63u - (unsigned)__builtin_clzll(u->set);
		if (u->nact != (unsigned)__builtin_popcountll(u->set))
			return "nact is not the number of wordlines in set";
		if ((unsigned)u->act[0] + top >= m->g.wordlines)
			return "activated wordline out of range";
		return NULL;
	}
	if (u->nact > SRAM_MAX_ACT)
		return "more than three wordlines activated";
	for (unsigned i = 0; i < u->nact; i++)
		if (u->act[i] >= m->g.wordlines)
			return "activated wordline out of range";
	return NULL;
}

const char *sram_uop_check(const sram_machine *m, const sram_uop *u)
{
	if (u->wfn >= SRAM_FN_COUNT || u->lfn >= SRAM_FN_COUNT)
		return "unknown peripheral function";
	if (u->wfn && fn_table[u->wfn].kind != 'W')
		return "the write slot holds a latch function";
	if (u->lfn && fn_table[u->lfn].kind != 'L')
		return "the latch slot holds a write function";
	const char *act = check_activation(m, u);
	if (act)
		return act;
	if (!sense_ok(fn_table[u->wfn].sense, u) ||
	    !sense_ok(fn_table[u->lfn].sense, u))
		return u->set ? "a many-wordline activation feeds a function "
				"that needs exactly one or two wordlines"
			      : "wrong number of activated wordlines for the function";
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
 * The peripheral functions as code come straight from pe.def: its OUT and
 * LATCH columns are expressions in s, z, x, C and T.  These pick, for
 * each EFFECT, what the write switch and the latch switch below run (the
 * shifts, whose words depend on their neighbours, are DEFINE_SHIFT).
 */
#define PE_WRITE_W(n, out, latch) WRITE_CASE(n, out)
#define PE_WRITE_WC(n, out, latch) WRITE_C_CASE(n, out, latch)
#define PE_WRITE_SH(n, out, latch)
#define PE_WRITE_LT(n, out, latch)
#define PE_WRITE_LC(n, out, latch)
#define PE_WRITE(n, eff, sense, out, latch, sem) PE_WRITE_##eff(n, out, latch)
#define PE_LATCH_W(n, latch)
#define PE_LATCH_WC(n, latch)
#define PE_LATCH_SH(n, latch)
#define PE_LATCH_LT(n, latch) LATCH_CASE(n, latch)
#define PE_LATCH_LC(n, latch) LATCH_CASE(n, latch)
#define PE_LATCH(n, eff, sense, out, latch, sem) PE_LATCH_##eff(n, latch)

/*
 * How a run executes (only speed is at stake from here on: the semantics
 * are the cycle order at the top; doc/PERFORMANCE.md has the figures).
 *
 * sram_run decodes the program once (struct plan), then runs it on small
 * groups of ways, uop after uop, so that the group's live rows stay in
 * L1/L2 from one uop to the next.  Ways share nothing (an array computes
 * only on its own bitlines), so neither the grouping nor the thread that
 * runs a group can change a bit.  A group of RUN_GROUP ways pays the
 * dispatch of each uop once for all its ways.
 *
 * A uop is one pass over the words of each way.  Word k of every output
 * depends only on word k of the inputs (the shifts excepted), so a pass
 * loads a block of words into one vector register, computes, and stores
 * the same block: latches update in place.  The block is 8 words with
 * AVX-512, 4 with AVX2, 2 otherwise; each pass is compiled once per
 * width, and run_init picks the widest the CPU has.  Temporaries (rows
 * that sram.c keeps after each way's latches) are needed only when a uop
 * holds both a write and a latch function (the write must still see the
 * old latches), and for three or more activated rows (a many-wordline
 * set too), which are folded into two first (fold_rows): every pass
 * senses two rows.  The shifts, whose words take a bit of their
 * neighbours, have passes of their own (DEFINE_SHIFT), as fast as the
 * plain ones and with no temporary either.
 *
 * Each pass exists for every way of forming the gate (enum pass_gate):
 * when every bitline of the group is enabled, the usual case, E drops
 * out, and gate E needs neither E nor the old destination.  BL/BLB are
 * recorded only by the last uop of the run that senses: earlier records
 * would be overwritten before anyone could look.
 *
 * Long programs (from 64 uops, with AVX-512; or any with INFSIM_BLOCK=1)
 * run column-blocked instead: sram_block.c runs each stretch between two
 * shifts over a few words of a way at a time, latches in registers;
 * the shifts run here, whole-way, between the stretches
 * (run_group_blocked).
 *
 * Memory.  A run over the whole default machine reads most of its rows
 * from DRAM, once.  The rows a uop touches first are prefetched a few
 * uops ahead; and on large machines a destination that the run never
 * touches again is written with non-temporal stores, which saves reading
 * the line before writing it (a third of an add's traffic).
 */

enum {
	RUN_GROUP = 4,       /* ways that run each uop together */
	PREFETCH_AHEAD = 4,  /* uops between a row's prefetch and its use */
};

/* A way's words, as offsets from its rows: the latches, then the rows
 * that sram.c allocates for the executor after blb. */
struct layout {
	size_t carry, tag, en;
	size_t zero;      /* a row that stays 0: the sense of no wordline */
	size_t tmp[4];    /* temporaries */
	size_t n;         /* words of a row of a way */
};

/* A uop decoded for a run; rows are offsets as in struct layout. */
struct plan {
	const sram_uop *u;
	size_t r0, r1;     /* the two sensed rows (equal if one, zero if none) */
	size_t r2;         /* the third, when three are activated */
	size_t dst, lold, lout;
	unsigned fn;       /* the function of the plain pass */
	bool latch_pass;   /* the plain pass is the latch function's */
	bool record;       /* the run's last sensing uop */
	bool general;      /* needs more than the plain pass */
	bool shift;        /* SHUP or SHDOWN: the shift pass, not a plain one */
	bool stream;       /* the run never touches dst again: PG_STREAM */
	unsigned npf;      /* rows the run touches first here: pf[0..npf) */
	size_t pf[SRAM_MAX_ACT + 1];
};

/* One pass: a plan over the ways of a group. */
struct pass {
	const struct plan *p;
	const struct layout *L;
	sram_way *const *ways;
	unsigned nw;
	size_t k0, k1;     /* the words of each way the pass covers */
	const struct shift_masks *shm; /* a shift's edges (shift passes) */
};

/* How a pass forms its gate g; "all on": every bitline of the group is
 * enabled, so E drops out. */
enum pass_gate {
	PG_ALL, /* g = ~0: gate E, all on */
	PG_STREAM, /* PG_ALL, and the run never touches the destination
		      again: it goes to memory without passing the cache */
	PG_E,   /* g = E */
	PG_ET,  /* g = E & T */
	PG_ENT, /* g = E & ~T */
	PG_T,   /* g = T: gate ET, all on */
	PG_NT,  /* g = ~T: gate ENT, all on */
	PG_COUNT
};

typedef void pass_fn(const struct pass *X);
typedef pass_fn *const pass_table[2][PG_COUNT]; /* [latch pass][gate] */

static enum pass_gate pass_gate_of(unsigned gate, bool all_on)
{
	switch (gate) {
	case SRAM_GATE_ET: return all_on ? PG_T : PG_ET;
	case SRAM_GATE_ENT: return all_on ? PG_NT : PG_ENT;
	default: return all_on ? PG_ALL : PG_E;
	}
}

/* Gates that are all ones. */
#define G_ALL (G == PG_ALL || G == PG_STREAM)

static uint64_t gate_word(enum pass_gate G, uint64_t e, uint64_t t)
{
	switch (G) {
	case PG_ET: return e & t;
	case PG_ENT: return e & ~t;
	case PG_T: return t;
	case PG_NT: return ~t;
	default: return e;
	}
}

/* BODY once per block of words k0..k1 of each way of the pass; W names
 * the block's type inside BODY (VBLK, the vector type of the pass), WM
 * its type in memory (8-byte aligned, aliasing uint64_t).  Offsets and
 * pointers are copied to locals: the stores may alias anything, so
 * fields read through X would be reloaded after each one. */
#define FOR_WORDS(BODY)                                                  \
	do {                                                             \
		const struct plan *const p_ = X->p;                      \
		const size_t o0_ = p_->r0, o1_ = p_->r1, od_ = p_->dst;  \
		const size_t olo_ = p_->lold, oli_ = p_->lout;           \
		const size_t oc_ = X->L->carry, ot_ = X->L->tag;         \
		const size_t oe_ = X->L->en, k0_ = X->k0, k1_ = X->k1;   \
		const unsigned nw_ = X->nw;                              \
		sram_way *const *const ways_ = X->ways;                  \
		for (unsigned w_ = 0; w_ < nw_; w_++) {                  \
			uint64_t *const b_ = ways_[w_]->rows;            \
			WAY_POINTERS                                     \
			const size_t bw_ = sizeof(VBLK) / sizeof(uint64_t); \
			for (size_t k = k0_; k < k1_; k += bw_) {        \
				typedef VBLK W;                          \
				typedef VBLKM WM;                        \
				BODY                                     \
			}                                                \
		}                                                        \
	} while (0)

#define WAY_POINTERS                                                     \
	const uint64_t *const r0_ = b_ + o0_, *const r1_ = b_ + o1_;     \
	const uint64_t *const en_ = b_ + oe_, *const lold_ = b_ + olo_;  \
	uint64_t *const dst_ = b_ + od_, *const lout_ = b_ + oli_;       \
	uint64_t *const carry_ = b_ + oc_, *const tag_ = b_ + ot_;       \
	(void)en_; (void)lold_; (void)dst_; (void)lout_;

#define LD(var, p) const W var = *(const WM *)((p) + k)
#define ST(p, val) (*(WM *)((p) + k) = (val))

/* The values of pe.def's notation for the current block, and g.  G is a
 * constant in every pass, so the unused branches vanish. */
#define SENSE_BLOCK                                                      \
	LD(a0_, r0_); LD(a1_, r1_);                                      \
	LD(C, carry_); LD(T, tag_);                                      \
	const W s = a0_ & a1_;                                           \
	const W z = ~(a0_ | a1_);                                        \
	const W x = ~(s | z);                                            \
	W g = ~(W){0};                                                   \
	if (G == PG_E || G == PG_ET || G == PG_ENT)                      \
		g = *(const WM *)(en_ + k);                              \
	if (G == PG_ET || G == PG_T)                                     \
		g &= T;                                                  \
	if (G == PG_ENT || G == PG_NT)                                   \
		g &= ~T;                                                 \
	(void)s; (void)z; (void)x; (void)C; (void)T;

/* old where the gate is clear, v where it is set. */
#define GATED(old, v) (G_ALL ? (v) : ((old) & ~g) | ((v) & g))
/* The destination's old block, only when a gate can keep it. */
#define LD_DST                                                           \
	W d_ = (W){0};                                                   \
	if (!G_ALL)                                                      \
		d_ = *(const WM *)(dst_ + k);
/* The destination's new block; STREAM is the non-temporal store of
 * the block's type. */
#define ST_DST(val)                                                      \
	do {                                                             \
		if (G == PG_STREAM)                                      \
			STREAM(dst_ + k, (val));                         \
		else                                                     \
			ST(dst_, (val));                                 \
	} while (0)

/* The loops; (W){0} | v makes a block of a constant. */
#define WRITE_CASE(NAME, EXPR)                                           \
	case SRAM_FN_##NAME:                                             \
		FOR_WORDS(SENSE_BLOCK LD_DST                             \
			  ST_DST(GATED(d_, (W){0} | (EXPR))););          \
		break;
#define WRITE_C_CASE(NAME, EXPR, CEXPR)                                  \
	case SRAM_FN_##NAME:                                             \
		FOR_WORDS(SENSE_BLOCK LD_DST                             \
			  ST_DST(GATED(d_, (W){0} | (EXPR)));            \
			  ST(carry_, GATED(C, (W){0} | (CEXPR))););      \
		break;
/* A latch function: lout = the latch, updated where the gate is set. */
#define LATCH_LOOP(EXPR)                                                 \
	FOR_WORDS(SENSE_BLOCK LD(o_, lold_);                             \
		  ST(lout_, GATED(o_, (W){0} | (EXPR))););
#define LATCH_CASE(NAME, EXPR)                                           \
	case SRAM_FN_##NAME:                                             \
		LATCH_LOOP(EXPR)                                         \
		break;

#define WRITE_SWITCH(G_)                                                 \
	{                                                                \
		const enum pass_gate G = (G_);                           \
		switch (X->p->fn) {                                      \
			SRAM_PE_FUNCTIONS(PE_WRITE)            \
		default:                                                 \
			break;                                           \
		}                                                        \
	}
#define LATCH_SWITCH(G_)                                                 \
	{                                                                \
		const enum pass_gate G = (G_);                           \
		switch (X->p->fn) {                                      \
			SRAM_PE_FUNCTIONS(PE_LATCH)                      \
		default:                                                 \
			LATCH_LOOP(0)                                    \
			break;                                           \
		}                                                        \
	}

/* One pass: function set (WRITE or LATCH) and gate, for vector type VT
 * (VTM: VT as it sits in memory), compiled with ATTR. */
#define DEFINE_PASS(NAME, ATTR, VT, VTM, KIND, GATE)                     \
	ATTR static void NAME(const struct pass *X)                      \
	{                                                                \
		typedef VT VBLK;                                         \
		typedef VTM VBLKM;                                       \
		KIND##_SWITCH(GATE)                                      \
	}

/* The passes of one kind (WRITE or LATCH, named K) for one vector type,
 * one per gate, and their row of the table (for a latch pass, PG_STREAM
 * is the same as PG_ALL: it writes no row). */
#define DEFINE_GATES(K, KIND, SFX, ATTR, VT, VTM)                        \
	DEFINE_PASS(K##all_##SFX, ATTR, VT, VTM, KIND, PG_ALL)           \
	DEFINE_PASS(K##st_##SFX, ATTR, VT, VTM, KIND, PG_STREAM)         \
	DEFINE_PASS(K##e_##SFX, ATTR, VT, VTM, KIND, PG_E)               \
	DEFINE_PASS(K##et_##SFX, ATTR, VT, VTM, KIND, PG_ET)             \
	DEFINE_PASS(K##ent_##SFX, ATTR, VT, VTM, KIND, PG_ENT)           \
	DEFINE_PASS(K##t_##SFX, ATTR, VT, VTM, KIND, PG_T)               \
	DEFINE_PASS(K##nt_##SFX, ATTR, VT, VTM, KIND, PG_NT)
#define GATES_ROW(K, SFX)                                                \
	{K##all_##SFX, K##st_##SFX, K##e_##SFX, K##et_##SFX,             \
	 K##ent_##SFX, K##t_##SFX, K##nt_##SFX}

/* The passes for one vector type, and their table. */
#define DEFINE_PASSES(SFX, ATTR, VT, VTM)                                \
	DEFINE_GATES(w, WRITE, SFX, ATTR, VT, VTM)                       \
	DEFINE_GATES(l, LATCH, SFX, ATTR, VT, VTM)                       \
	static pass_table passes_##SFX = {GATES_ROW(w, SFX),             \
					  GATES_ROW(l, SFX)};

/* The non-temporal store of each block type (sram_vec.h). */
static ALWAYS_INLINE void stream_w1(uint64_t *p, uint64_t v)
{
	*p = v;
}
#if defined(__GNUC__)
static ALWAYS_INLINE void stream_v2(uint64_t *p, sram_v2 v)
{
#if defined(__x86_64__)
	_mm_stream_si128((__m128i *)(void *)p, (__m128i)v);
#else
	*(sram_v2m *)p = v;
#endif
}
#endif
#ifdef SRAM_X86_VECTORS
__attribute__((target("avx2")))
static ALWAYS_INLINE void stream_v4(uint64_t *p, sram_v4 v)
{
	_mm256_stream_si256((__m256i *)(void *)p, (__m256i)v);
}
__attribute__((target("avx512f")))
static ALWAYS_INLINE void stream_v8(uint64_t *p, sram_v8 v)
{
	_mm512_stream_si512((void *)p, (__m512i)v);
}
#define STREAM(p, v)                                                     \
	_Generic((v), sram_v8: stream_v8, sram_v4: stream_v4,            \
		 sram_v2: stream_v2, default: stream_w1)(p, v)
#elif defined(__GNUC__)
#define STREAM(p, v)                                                     \
	_Generic((v), sram_v2: stream_v2, default: stream_w1)(p, v)
#else
#define STREAM(p, v) stream_w1(p, v)
#endif

/*
 * Bitline shifts (SHUP, SHDOWN): out[i] = s[i -+ 1] inside each array.
 * Word k of the result takes one bit of its neighbour word, except at an
 * array's edge, where the entering bitline reads 0 (pe.def) and the bit
 * leaving the array must not reach the next one; and bits above B of a
 * narrow array stay 0.  Three per-word masks of a way's row carry these
 * rules (struct shift_masks, built once per run), so a pass is the same
 * few vector operations on every block, with no test per word.
 *
 * The pass writes the destination straight from the sensed row, with
 * no temporary, even when they are the same row (a shift in place):
 * SHUP walks the words downwards and SHDOWN upwards, so every word is
 * read before the block that overwrites it.  The neighbour block is an
 * unaligned load one word over, which never leaves the row: the one
 * block that would (the row's first word for SHUP, its last for
 * SHDOWN) is done word by word.
 */
struct shift_masks {
	const uint64_t *cin_up;   /* word k may take bit 63 of word k - 1 */
	const uint64_t *cin_down; /* word k may take bit 0 of word k + 1 */
	const uint64_t *keep;     /* bits of word k inside its array */
};

/* One word of a shift, for the words the vector loop leaves over. */
static ALWAYS_INLINE uint64_t shift_word(const uint64_t *src, size_t k,
					 size_t n, bool up,
					 const struct shift_masks *M)
{
	if (up)
		return ((src[k] << 1) | (k ? (src[k - 1] >> 63) & M->cin_up[k] : 0)) &
		       M->keep[k];
	return ((src[k] >> 1) | (k + 1 < n ? (src[k + 1] << 63) & M->cin_down[k] : 0)) &
	       M->keep[k];
}

/* dst[k..k+bw) = the shifted block v where the gate is set. */
#define SHIFT_STORE(k, v)                                                \
	do {                                                             \
		W g_ = ~(W){0};                                          \
		if (G == PG_E || G == PG_ET || G == PG_ENT)              \
			g_ = *(const WM *)(en + (k));                    \
		if (G == PG_ET || G == PG_T)                             \
			g_ &= *(const WM *)(tag + (k));                  \
		if (G == PG_ENT || G == PG_NT)                           \
			g_ &= ~*(const WM *)(tag + (k));                 \
		if (G == PG_ALL)                                         \
			*(WM *)(dst + (k)) = (v);                        \
		else                                                     \
			*(WM *)(dst + (k)) = (*(const WM *)(dst + (k)) & ~g_) | \
					     ((v) & g_);                 \
	} while (0)
#define LDW(p) (*(const WM *)(p))

/* A shift on one way (rows at b) for gate G, blocks of type VT; then
 * the shift for any gate (G is a constant in each call, so the unused
 * gate code vanishes). */
#define DEFINE_SHIFT(SFX, ATTR, VT, VTM)                                 \
	ATTR static ALWAYS_INLINE void shift_way_##SFX(                  \
		uint64_t *b, const struct pass *X, enum pass_gate G)     \
	{                                                                \
		typedef VT W;                                            \
		typedef VTM WM;                                          \
		const size_t bw = sizeof(W) / sizeof(uint64_t), n = X->L->n; \
		const struct shift_masks *M = X->shm;                    \
		const uint64_t *src = b + X->p->r0, *en = b + X->L->en;  \
		const uint64_t *tag = b + X->L->tag;                     \
		uint64_t *dst = b + X->p->dst;                           \
		size_t k;                                                \
		if (X->p->u->wfn == SRAM_FN_SHUP) {                      \
			for (k = n; k >= bw + 1;) {                      \
				k -= bw;                                 \
				const W v = ((LDW(src + k) << 1) |       \
					     ((LDW(src + k - 1) >> 63) & \
					      LDW(M->cin_up + k))) &     \
					    LDW(M->keep + k);            \
				SHIFT_STORE(k, v);                       \
			}                                                \
			while (k-- > 0)                                  \
				SHIFT_WORD(k, true);                     \
			return;                                          \
		}                                                        \
		for (k = 0; k + bw < n; k += bw) {                       \
			const W v = ((LDW(src + k) >> 1) |               \
				     ((LDW(src + k + 1) << 63) &         \
				      LDW(M->cin_down + k))) &           \
				    LDW(M->keep + k);                    \
			SHIFT_STORE(k, v);                               \
		}                                                        \
		for (; k < n; k++)                                       \
			SHIFT_WORD(k, false);                            \
	}                                                                \
	ATTR static void shift_##SFX(const struct pass *X, enum pass_gate G) \
	{                                                                \
		for (unsigned i = 0; i < X->nw; i++) {                   \
			uint64_t *b = X->ways[i]->rows;                  \
			switch (G) {                                     \
			case PG_ALL: case PG_STREAM:                     \
				shift_way_##SFX(b, X, PG_ALL); break;    \
			case PG_E: shift_way_##SFX(b, X, PG_E); break;   \
			case PG_ET: shift_way_##SFX(b, X, PG_ET); break; \
			case PG_ENT: shift_way_##SFX(b, X, PG_ENT); break; \
			case PG_T: shift_way_##SFX(b, X, PG_T); break;   \
			default: shift_way_##SFX(b, X, PG_NT); break;    \
			}                                                \
		}                                                        \
	}

/* One word k of the shift, with its gate. */
#define SHIFT_WORD(k, up)                                                \
	do {                                                             \
		const uint64_t g1_ = gate_word(G, en[k], tag[k]);        \
		const uint64_t v1_ = shift_word(src, k, n, up, M);       \
		dst[k] = G == PG_ALL ? v1_ : (dst[k] & ~g1_) | (v1_ & g1_); \
	} while (0)

/* Word by word: any machine, and the words a vector pass leaves over. */
DEFINE_PASSES(w1, , uint64_t, uint64_t)
DEFINE_SHIFT(w1, , uint64_t, uint64_t)
#if defined(__GNUC__)
DEFINE_PASSES(v2, , sram_v2, sram_v2m)
DEFINE_SHIFT(v2, , sram_v2, sram_v2m)
#endif
#ifdef SRAM_X86_VECTORS
DEFINE_PASSES(avx2, __attribute__((target("avx2"))), sram_v4, sram_v4m)
DEFINE_SHIFT(avx2, __attribute__((target("avx2"))), sram_v4, sram_v4m)
DEFINE_PASSES(avx512, __attribute__((target("avx512f"))), sram_v8, sram_v8m)
DEFINE_SHIFT(avx512, __attribute__((target("avx512f"))), sram_v8, sram_v8m)
#endif

/* Passes over blocks of `words` words, and word-by-word ones. */
struct pass_set {
	pass_table *block;
	size_t words;
	void (*shift)(const struct pass *X, enum pass_gate G);
};

/* The widest passes this CPU runs, or narrower ones if the environment
 * variable INFSIM_VECTOR says so ("avx2", "generic" for 2 words, "none"
 * for 1), so that the tests can cover every width on one machine. */
static struct pass_set pick_passes(void)
{
	const char *want = getenv("INFSIM_VECTOR");
	if (want && strcmp(want, "none") == 0)
		return (struct pass_set){&passes_w1, 1, shift_w1};
#ifdef SRAM_X86_VECTORS
	const bool generic = want && strcmp(want, "generic") == 0;
	__builtin_cpu_init();
	if (!generic && !(want && strcmp(want, "avx2") == 0) &&
	    __builtin_cpu_supports("avx512f"))
		return (struct pass_set){&passes_avx512, 8, shift_avx512};
	if (!generic && __builtin_cpu_supports("avx2"))
		return (struct pass_set){&passes_avx2, 4, shift_avx2};
#endif
#if defined(__GNUC__)
	return (struct pass_set){&passes_v2, 2, shift_v2};
#else
	return (struct pass_set){&passes_w1, 1, shift_w1};
#endif
}

/* The AND and OR of the rows base + r * n, r each bit of set, into tand
 * and tor: eight words at a time, with every row's words of a block
 * folded in registers, so each word is loaded once and stored once. */
static void fold_set(uint64_t *restrict tand, uint64_t *restrict tor,
		     const uint64_t *base, uint64_t set, size_t n)
{
	size_t off[64];
	unsigned nr = 0;
	for (; set; set &= set - 1)
		off[nr++] = (size_t)__builtin_ctzll(set) * n;
	size_t k0 = 0;
#if defined(__GNUC__)
	/* Eight words in four 2-word vectors, kept in registers. */
	for (; k0 + 8 <= n; k0 += 8) {
		const sram_v2 ones = {~UINT64_C(0), ~UINT64_C(0)}, zero = {0, 0};
		sram_v2 a0 = ones, a1 = ones, a2 = ones, a3 = ones;
		sram_v2 o0 = zero, o1 = zero, o2 = zero, o3 = zero;
		for (unsigned r = 0; r < nr; r++) {
			const uint64_t *row = base + off[r] + k0;
			const sram_v2 x0 = *(const sram_v2m *)row;
			const sram_v2 x1 = *(const sram_v2m *)(row + 2);
			const sram_v2 x2 = *(const sram_v2m *)(row + 4);
			const sram_v2 x3 = *(const sram_v2m *)(row + 6);
			a0 &= x0, a1 &= x1, a2 &= x2, a3 &= x3;
			o0 |= x0, o1 |= x1, o2 |= x2, o3 |= x3;
		}
		*(sram_v2m *)(tand + k0) = a0;
		*(sram_v2m *)(tand + k0 + 2) = a1;
		*(sram_v2m *)(tand + k0 + 4) = a2;
		*(sram_v2m *)(tand + k0 + 6) = a3;
		*(sram_v2m *)(tor + k0) = o0;
		*(sram_v2m *)(tor + k0 + 2) = o1;
		*(sram_v2m *)(tor + k0 + 4) = o2;
		*(sram_v2m *)(tor + k0 + 6) = o3;
	}
#endif
	for (; k0 < n; k0++) {
		uint64_t a = ~UINT64_C(0), o = 0;
		for (unsigned r = 0; r < nr; r++) {
			a &= base[off[r] + k0];
			o |= base[off[r] + k0];
		}
		tand[k0] = a;
		tor[k0] = o;
	}
}

/* Three activated rows, or a many-wordline set: their AND and OR go to
 * two temporaries, whose own AND is the AND of them all and whose NOR is
 * their NOR (the AND is inside the OR), so the uop then senses the two
 * like any other. */
static void fold_rows(uint64_t *b, const struct plan *p, const struct layout *L)
{
	uint64_t *tand = b + L->tmp[2], *tor = b + L->tmp[3];
	const size_t n = L->n;
	if (!p->u->set) {
		const uint64_t *r0 = b + p->r0, *r1 = b + p->r1, *r2 = b + p->r2;
		for (size_t k = 0; k < n; k++) {
			tand[k] = r0[k] & r1[k] & r2[k];
			tor[k] = r0[k] | r1[k] | r2[k];
		}
		return;
	}
	fold_set(tand, tor, b + (size_t)p->u->act[0] * n, p->u->set, n);
}

/* Does the uop sense more than two rows (folded by fold_rows)? */
static bool folds_rows(const sram_uop *u)
{
	return u->set || u->nact > 2;
}

static void record_sense(const sram_machine *m, sram_way *w,
			 const struct plan *p)
{
	const unsigned n = m->stride;
	const uint64_t *r0 = w->rows + p->r0, *r1 = w->rows + p->r1;
	uint64_t *bl = w->bl, *blb = w->blb;
	unsigned k = 0;
#if defined(__GNUC__)
	/* Two words at a time: a short run (a shift's) records as often as
	 * it shifts. */
	for (; k + 2 <= n; k += 2) {
		const sram_v2 a0 = *(const sram_v2m *)(r0 + k);
		const sram_v2 a1 = *(const sram_v2m *)(r1 + k);
		*(sram_v2m *)(bl + k) = a0 & a1;
		*(sram_v2m *)(blb + k) = ~(a0 | a1);
	}
#endif
	for (; k < n; k++) {
		bl[k] = r0[k] & r1[k];
		blb[k] = ~(r0[k] | r1[k]);
	}
	/* BLB of bitlines outside any array (tail bits) reads 0. */
	if (m->wpa && m->tail != ~UINT64_C(0))
		for (k = m->wpa - 1; k < n; k += m->wpa)
			blb[k] &= m->tail;
	memcpy(w->last_act, p->u->act, sizeof w->last_act);
	w->last_nact = p->u->nact;
	w->last_set = p->u->set;
}

/* The carry preset drives the latch on enabled bitlines only. */
static void preset_carry(const sram_machine *m, sram_way *w, unsigned cpre)
{
	const uint64_t v = cpre == SRAM_CPRE_1 ? ~UINT64_C(0) : 0;
	for (unsigned k = 0; k < m->stride; k++)
		w->carry[k] = (w->carry[k] & ~w->enable[k]) | (v & w->enable[k]);
}

struct run {
	const sram_machine *m;
	struct layout L;
	struct plan *plan;
	size_t n;
	struct pass_set ps;
	size_t split;      /* words in whole blocks of ps */
	struct shift_masks shm;
	uint64_t *shm_words; /* shm's words, if the program shifts */
	bool blocked;      /* run stretches column-blocked (sram_block.h) */
	sram_block_layout bl;
	sram_block_plan bp;
	/* The wordlines the program writes, as runs: nruns runs of run_len[i]
	 * rows from run_at[i] (sram_prefault before each group). */
	uint16_t run_at[SRAM_MAX_DIM / 2], run_len[SRAM_MAX_DIM / 2];
	unsigned nruns;
};

/* A pass over every word: whole blocks, then the words left over. */
static void run_pass(const struct run *R, struct pass *X, int latch,
		     enum pass_gate G)
{
	const size_t n = R->L.n, split = R->split;
	if (split) {
		X->k0 = 0;
		X->k1 = split;
		(*R->ps.block)[latch][G](X);
	}
	if (split < n) {
		X->k0 = split;
		X->k1 = n;
		passes_w1[latch][G](X);
	}
}

/* Every step of the cycle, in order, for any uop, over the ways of X. */
static void exec_general(const struct run *R, const struct pass *X,
			 enum pass_gate G)
{
	const struct plan *p = X->p;
	const sram_uop *u = p->u;
	const struct layout *L = &R->L;
	struct plan q = *p;
	struct pass Y = *X;
	Y.p = &q;
	for (unsigned i = 0; i < X->nw; i++) {
		sram_way *w = X->ways[i];
		if (folds_rows(u))
			fold_rows(w->rows, p, L);
		if (u->cpre != SRAM_CPRE_KEEP)
			preset_carry(R->m, w, u->cpre);
	}
	if (folds_rows(u)) {
		q.r0 = L->tmp[2];
		q.r1 = L->tmp[3];
	}
	for (unsigned i = 0; p->record && i < X->nw; i++)
		record_sense(R->m, X->ways[i], &q);
	if (u->lfn) {
		q.fn = u->lfn;
		q.lout = u->wfn ? L->tmp[0] : p->lold;
		run_pass(R, &Y, 1, G);
	}
	q.fn = u->wfn;
	if (p->shift)
		R->ps.shift(&Y, G);
	else if (u->wfn)
		run_pass(R, &Y, 0, G);
	for (unsigned i = 0; u->lfn && u->wfn && i < X->nw; i++)
		memcpy(X->ways[i]->rows + p->lold, X->ways[i]->rows + L->tmp[0],
		       L->n * sizeof(uint64_t));
}

static bool all_enabled(const sram_way *w, unsigned n)
{
	const uint64_t *en = w->enable;
	uint64_t all = ~UINT64_C(0);
	unsigned k = 0;
#if defined(__GNUC__)
	sram_v2 all2 = ~(sram_v2){0};
	for (; k + 2 <= n; k += 2)
		all2 &= *(const sram_v2m *)(en + k);
	all = all2[0] & all2[1];
#endif
	for (; k < n; k++)
		all &= en[k];
	return all == ~UINT64_C(0);
}

/* Ask for the rows that uop i touches first, in each of nw ways: they
 * come from memory, and the uops in between hide the wait.  (Asking
 * for the next group's rows a whole group ahead measured no faster.) */
static void prefetch_rows(const struct run *R, size_t i,
			  sram_way *const *ways, unsigned nw)
{
#if defined(__GNUC__)
	const struct plan *p = &R->plan[i];
	for (unsigned r = 0; r < p->npf; r++)
		for (unsigned w = 0; w < nw; w++) {
			const uint64_t *row = ways[w]->rows + p->pf[r];
			for (size_t k = 0; k < R->L.n; k += 8)
				__builtin_prefetch(row + k, 1, 3);
		}
#else
	(void)R, (void)i, (void)ways, (void)nw;
#endif
}

/* The ways of a group: up to RUN_GROUP of them. */
struct group {
	sram_way *w[RUN_GROUP];
	unsigned n;
};

/* The whole program on group g, blocked: each stretch between two
 * shifts runs column block after column block (sram_block.c); a shift,
 * which couples neighbouring words, runs alone over whole ways. */
static void run_group_blocked(const struct run *R, const struct group *g,
			      bool all_on)
{
	struct pass X = {.L = &R->L, .ways = g->w, .nw = g->n, .shm = &R->shm};
	for (size_t i = 0; i < R->n;) {
		size_t j = i;
		while (j < R->n && !R->plan[j].shift)
			j++;
		if (j > i)
			sram_block_exec(&R->bp, &R->bl, g->w, g->n, i, j);
		if (j < R->n) {
			const struct plan *p = &R->plan[j];
			const enum pass_gate G = pass_gate_of(p->u->gate, all_on);
			X.p = p;
			if (p->general)
				exec_general(R, &X, G);
			else
				R->ps.shift(&X, G);
		}
		i = j + 1;
	}
}

/* The whole program on group g, uop after uop, each over all its ways. */
static void run_group_uops(const struct run *R, const struct group *g,
			   bool all_on)
{
	struct pass X = {.L = &R->L, .ways = g->w, .nw = g->n, .shm = &R->shm};
	for (size_t i = 0; i < PREFETCH_AHEAD && i < R->n; i++)
		prefetch_rows(R, i, g->w, g->n);
	for (size_t i = 0; i < R->n; i++) {
		const struct plan *p = &R->plan[i];
		const size_t ahead = i + PREFETCH_AHEAD;
		if (ahead < R->n && R->plan[ahead].npf)
			prefetch_rows(R, ahead, g->w, g->n);
		const enum pass_gate G = pass_gate_of(p->u->gate, all_on);
		X.p = p;
		if (p->stream && G == PG_ALL)
			run_pass(R, &X, p->latch_pass, PG_STREAM);
		else if (p->general)
			exec_general(R, &X, G);
		else if (p->shift)
			R->ps.shift(&X, G);
		else
			run_pass(R, &X, p->latch_pass, G);
	}
}

/* The whole program on group g. */
static void run_group(const struct run *R, const struct group *g)
{
	/* Enable never changes during a run: no function writes it. */
	bool all_on = true;
	for (unsigned i = 0; i < g->n; i++)
		all_on = all_on && all_enabled(g->w[i], R->L.n);
	if (R->blocked)
		run_group_blocked(R, g, all_on);
	else
		run_group_uops(R, g, all_on);
	for (unsigned i = 0; R->n && i < g->n; i++) {
		const sram_uop *u = R->plan[R->n - 1].u;
		g->w[i]->last_dst = u->wfn ? u->dst : SRAM_NO_ROW;
	}
}

static void plan_one(const struct layout *L, const sram_uop *u, struct plan *p)
{
	const size_t n = L->n;
	p->u = u;
	p->r0 = p->r1 = p->r2 = L->zero;
	if (u->nact && !u->set) {
		p->r0 = u->act[0] * n;
		p->r1 = u->act[u->nact > 1] * n;
		p->r2 = u->act[u->nact > 2 ? 2 : u->nact > 1] * n;
	}
	p->dst = u->wfn ? u->dst * n : L->zero;
	p->lold = p->lout = latch_of_lfn(u->lfn) == 'C' ? L->carry : L->tag;
	p->latch_pass = u->lfn && !u->wfn;
	p->fn = p->latch_pass ? u->lfn : u->wfn;
	p->shift = u->wfn == SRAM_FN_SHUP || u->wfn == SRAM_FN_SHDOWN;
	p->general = u->cpre != SRAM_CPRE_KEEP || folds_rows(u) ||
		     (u->lfn && u->wfn);
}

/* The wordlines u activates, into rows (room for 64); their number. */
static unsigned activated_rows(const sram_uop *u, uint16_t *rows)
{
	unsigned nr = 0;
	if (u->set) {
		for (uint64_t set = u->set; set; set &= set - 1)
			rows[nr++] = (uint16_t)(u->act[0] + __builtin_ctzll(set));
		return nr;
	}
	for (unsigned j = 0; j < u->nact && j < SRAM_MAX_ACT; j++)
		rows[nr++] = u->act[j];
	return nr;
}

/* The rows u touches that no earlier uop of the run touched, as many as
 * p->pf holds (a search's set may touch more: the rest are left to the
 * hardware prefetcher, and stay unseen so later uops may ask for them). */
static void plan_first_touch(const sram_uop *u, const sram_machine *m,
			     bool *seen, struct plan *p)
{
	uint16_t rows[64 + 1];
	unsigned nr = activated_rows(u, rows);
	if (u->wfn)
		rows[nr++] = u->dst;
	const unsigned cap = sizeof p->pf / sizeof p->pf[0];
	for (unsigned j = 0; j < nr && p->npf < cap; j++)
		if (rows[j] < m->g.wordlines && !seen[rows[j]]) {
			seen[rows[j]] = true;
			p->pf[p->npf++] = (size_t)rows[j] * m->stride;
		}
}

/* Whether destinations may bypass the cache: only on machines far
 * larger than the caches (a run streams through them anyway, and a store
 * that skips the cache saves reading the line first: doc/PERFORMANCE.md),
 * with rows aligned to whole blocks.  INFSIM_STREAM=0 or 1 overrides the
 * size rule (the tests use it on small machines). */
static bool stream_worth(const sram_machine *m, const struct run *R)
{
	const size_t way_words = R->L.tmp[3] + R->L.n;
	const uint64_t bytes = (uint64_t)way_words * sizeof(uint64_t) * m->nways;
	const char *force = getenv("INFSIM_STREAM");
	if (R->ps.words < 2 || m->stride % R->ps.words != 0)
		return false;
	if (force)
		return strcmp(force, "0") != 0;
	return bytes >= (UINT64_C(64) << 20);
}

/* Drop row from p's prefetch list: a streamed row is never read. */
static void plan_no_prefetch(struct plan *p, size_t row)
{
	for (unsigned j = 0; j < p->npf; j++)
		if (p->pf[j] == row)
			p->pf[j--] = p->pf[--p->npf];
}

/* Mark the plain write uops whose destination no later uop of the run
 * senses or writes: walking back, a row is live once a uop touches it. */
static void plan_streams(const sram_uop *prog, size_t n,
			 const sram_machine *m, struct plan *pl)
{
	bool touched[SRAM_MAX_DIM] = {false};
	for (size_t i = n; i-- > 0;) {
		const sram_uop *u = &prog[i];
		const bool sensed = sram_uop_activates(u, u->dst);
		if (u->wfn && !pl[i].general && !pl[i].latch_pass && !pl[i].shift &&
		    u->dst < m->g.wordlines && !touched[u->dst]) {
			pl[i].stream = true;
			if (!sensed)
				plan_no_prefetch(&pl[i], (size_t)u->dst * m->stride);
		}
		uint16_t rows[64];
		const unsigned nr = activated_rows(u, rows);
		for (unsigned j = 0; j < nr; j++)
			if (rows[j] < m->g.wordlines)
				touched[rows[j]] = true;
		if (u->wfn && u->dst < m->g.wordlines)
			touched[u->dst] = true;
	}
}

/* The masks of a shift over m's way rows (struct shift_masks): word k
 * is word k % wpa of its array.  False when out of memory. */
static bool shift_masks_init(struct run *R, const sram_machine *m)
{
	const size_t n = m->stride, wpa = m->wpa;
	uint64_t *w = malloc(3 * n * sizeof *w);
	R->shm_words = w;
	if (!w)
		return false;
	for (size_t k = 0; k < n; k++) {
		const size_t i = k % wpa;
		w[k] = i ? ~UINT64_C(0) : 0;
		w[n + k] = i + 1 < wpa ? ~UINT64_C(0) : 0;
		w[2 * n + k] = i + 1 == wpa ? m->tail : ~UINT64_C(0);
	}
	R->shm = (struct shift_masks){w, w + n, w + 2 * n};
	return true;
}

static void run_free(struct run *R)
{
	free(R->plan);
	free(R->shm_words);
	if (R->blocked)
		sram_block_plan_free(&R->bp);
}

/* Decode the program for blocked stretches too (sram_block.h); false
 * when out of memory. */
static bool run_init_blocked(struct run *R, const sram_machine *m,
			     const sram_uop *prog, size_t record)
{
	const sram_way *w = &m->ways[0];
	R->bl = (sram_block_layout){
		.carry = R->L.carry, .tag = R->L.tag, .en = R->L.en,
		.bl = (size_t)(w->bl - w->rows), .blb = (size_t)(w->blb - w->rows),
		.zero = R->L.zero, .n = R->L.n,
	};
	return sram_block_plan_init(&R->bp, m, &R->bl, prog, R->n, record,
				    R->ps.words);
}

/* Decode prog for m into R; false when out of memory. */
static bool run_init(struct run *R, const sram_machine *m,
		     const sram_uop *prog, size_t n)
{
	const sram_way *w = &m->ways[0];
	R->m = m;
	R->n = n;
	R->ps = pick_passes();
	R->split = m->stride - m->stride % R->ps.words;
	R->L.n = m->stride;
	R->L.carry = (size_t)(w->carry - w->rows);
	R->L.tag = (size_t)(w->tag - w->rows);
	R->L.en = (size_t)(w->enable - w->rows);
	R->L.zero = (size_t)(w->blb - w->rows) + m->stride;
	for (unsigned i = 0; i < 4; i++)
		R->L.tmp[i] = R->L.zero + (i + 1u) * m->stride;
	struct plan *pl = calloc(n ? n : 1, sizeof *pl);
	R->plan = pl;
	if (!pl)
		return false;
	size_t last_sense = SIZE_MAX;
	bool seen[SRAM_MAX_DIM] = {false}, shifts = false, wrote[SRAM_MAX_DIM] = {false};
	for (size_t i = 0; i < n; i++) {
		plan_one(&R->L, &prog[i], &pl[i]);
		if (prog[i].nact)
			last_sense = i;
		shifts = shifts || pl[i].shift;
		plan_first_touch(&prog[i], m, seen, &pl[i]);
		if (prog[i].wfn && prog[i].dst < m->g.wordlines)
			wrote[prog[i].dst] = true;
	}
	R->nruns = 0;
	for (unsigned r = 0; r < m->g.wordlines; r++) {
		if (!wrote[r])
			continue;
		if (R->nruns && R->run_at[R->nruns - 1] + R->run_len[R->nruns - 1] == r) {
			R->run_len[R->nruns - 1]++;
			continue;
		}
		R->run_at[R->nruns] = (uint16_t)r;
		R->run_len[R->nruns++] = 1;
	}
	R->shm_words = NULL;
	R->blocked = false;
	if (shifts && !shift_masks_init(R, m)) {
		run_free(R);
		return false;
	}
	if (last_sense != SIZE_MAX)
		pl[last_sense].record = pl[last_sense].general = true;
	if (sram_block_wanted(n, R->ps.words)) {
		if (!run_init_blocked(R, m, prog, last_sense)) {
			run_free(R);
			return false;
		}
		R->blocked = true;
	} else if (stream_worth(m, R)) {
		plan_streams(prog, n, m, pl);
	}
	return true;
}

/* Non-temporal stores are weakly ordered: fence them before the run
 * returns and anyone reads the rows. */
static void stream_fence(void)
{
#if defined(__x86_64__) && defined(__GNUC__)
	_mm_sfence();
#endif
}

int sram_run_way(sram_machine *m, unsigned way, const sram_uop *prog, size_t n)
{
	struct run R;
	if (!run_init(&R, m, prog, n))
		return -1;
	const struct group g = {.w = {&m->ways[way]}, .n = 1};
	run_group(&R, &g);
	stream_fence();
	run_free(&R);
	return 0;
}

static int run_threads;

void sram_set_threads(int n)
{
	run_threads = n > 0 ? n : 0;
}

int sram_get_threads(void)
{
	return run_threads;
}

/* Group gi: ways gi * RUN_GROUP on, those selected by way_on. */
static void group_of(const sram_machine *m, const uint8_t *way_on, long gi,
		     struct group *g)
{
	g->n = 0;
	for (unsigned w = (unsigned)gi * RUN_GROUP;
	     w < m->nways && w < (unsigned)(gi + 1) * RUN_GROUP; w++)
		if (!way_on || way_on[w])
			g->w[g->n++] = &m->ways[w];
}

/* The pages of g's ways that the run writes, taken from the kernel in
 * runs before the first write faults them in one at a time (sram.h,
 * sram_prefault): each run of wordlines the program writes, and the
 * latches with the executor's rows after them. */
static void prefault_group(const struct run *R, sram_machine *m, const struct group *g)
{
	const size_t n = R->L.n;
	for (unsigned i = 0; i < g->n; i++) {
		const sram_way *w = g->w[i];
		for (unsigned k = 0; k < R->nruns; k++)
			sram_prefault(m, w->rows + (size_t)R->run_at[k] * n, (size_t)R->run_len[k] * n);
		sram_prefault(m, w->rows + R->L.carry, R->L.tmp[3] + n - R->L.carry);
	}
}

/* Groups g0..g1-1, in order. */
static void run_groups(const struct run *R, sram_machine *m,
		       const uint8_t *way_on, long g0, long g1)
{
	for (long gi = g0; gi < g1; gi++) {
		struct group g;
		group_of(m, way_on, gi, &g);
		if (!g.n)
			continue;
		prefault_group(R, m, &g);
		run_group(R, &g);
	}
	stream_fence();
}

int sram_run(sram_machine *m, const uint8_t *way_on, const sram_uop *prog,
	     size_t n)
{
	struct run R;
	if (!run_init(&R, m, prog, n))
		return -1;
	const long ngroups = (long)((m->nways + RUN_GROUP - 1) / RUN_GROUP);
#ifdef _OPENMP
	int nt = run_threads ? run_threads : omp_get_max_threads();
	if (nt > ngroups)
		nt = (int)ngroups;
	/* Starting a team costs more than a small run (a single step, a small
	 * machine): below about 256K word operations one thread does it,
	 * unless a thread count was set explicitly (sram_set_threads). */
	if (!run_threads && (uint64_t)n * m->stride * m->nways < (UINT64_C(1) << 18))
		nt = 1;
	/* Static chunks: thread t runs a fixed block of consecutive groups,
	 * though no schedule could change a bit, as ways share nothing. */
#pragma omp parallel num_threads(nt) if (nt > 1)
	{
		const long t = omp_get_thread_num(), nth = omp_get_num_threads();
		run_groups(&R, m, way_on, ngroups * t / nth,
			   ngroups * (t + 1) / nth);
	}
#else
	run_groups(&R, m, way_on, 0, ngroups);
#endif
	run_free(&R);
	return 0;
}

int sram_run_ways(sram_machine *m, unsigned first, unsigned count,
		  const uint8_t *way_on, const sram_uop *prog, size_t n)
{
	struct run R;
	if (!run_init(&R, m, prog, n))
		return -1;
	const unsigned end = first + count < m->nways ? first + count : m->nways;
	for (unsigned w = first; w < end;) {
		struct group g = {.n = 0};
		for (; w < end && g.n < RUN_GROUP; w++)
			if (!way_on || way_on[w])
				g.w[g.n++] = &m->ways[w];
		if (g.n)
			run_group(&R, &g);
	}
	stream_fence();
	run_free(&R);
	return 0;
}

int sram_step(sram_machine *m, const uint8_t *way_on, const sram_uop *u)
{
	return sram_run(m, way_on, u, 1);
}
