/* SPDX-License-Identifier: MIT */
/*
 * sram_block.c: the column-blocked executor (sram_block.h).
 *
 * The semantics are sram_exec.c's cycle order, unchanged: sense, gate
 * from the enable mask and the old tag, carry preset, latch function,
 * write function, then the latches take their new values where the gate
 * is set.  Only the loop order differs.  sram_exec.c runs one micro-op
 * over every word of a group of ways, then the next micro-op; here a
 * stretch of micro-ops runs over one block of a way's columns (16 words,
 * 1024 bitlines, with AVX2 or AVX-512), then the stretch again over the
 * next block.  A block's share of every row the program touches (for
 * fp add about 200 rows of 128 bytes) stays in L1 for the whole stretch,
 * and its carry, tag and enable live in vector registers from one
 * micro-op to the next: a micro-op loads its one to three sensed rows
 * and stores its destination, nothing else.
 *
 * Why it is exact: word k of every output of every function of pe.def
 * but the shifts depends only on word k of the sensed rows and of the
 * latches (infinity-stream §2.2: the peripheral logic is per bitline),
 * so the columns may be cut into blocks in any way.  The shifts (SHUP,
 * SHDOWN) take a bit of the neighbouring word; sram_exec.c never puts
 * them in a stretch but runs them, whole-way, between two stretches.
 */
#include "sram_block.h"
#include "sram_vec.h"

#include <stdlib.h>
#include <string.h>

/* Programs of at least this many micro-ops run blocked by default (with
 * AVX-512, sram_block_wanted): a short program (an int add: 32) streams
 * its few rows from memory once either way, and the blocked loop pays
 * its dispatch per block. */
enum { BLOCK_MIN_UOPS = 64 };
#ifndef PREFETCH_LEVEL
#define PREFETCH_LEVEL 2
#endif

/* How a micro-op senses. */
enum block_sense {
	BS_NONE,  /* no wordline: s = 0, z = ~0 */
	BS_ONE,
	BS_TWO,
	BS_THREE,
	BS_SET,   /* a many-wordline set: AND and NOR of all its rows */
};

/* A micro-op decoded for the blocked kernels; rows are word offsets
 * from the way's rows. */
struct sram_block_op {
	uint32_t r0, r1, r2, dst;
	uint32_t set0;    /* its first row in sram_block_plan.setrows */
	uint8_t sense;    /* enum block_sense */
	uint8_t nset;     /* rows of the set */
	uint8_t wfn, lfn, gate, cpre;
	bool lc;          /* the latch function updates C (else T) */
	bool wc;          /* the write function also sets C (pe.def WC) */
	bool record;      /* the run's last sensing uop: BL/BLB keep it */
	uint8_t code;     /* FAST_CODE of a plain uop, or 0 (block_general) */
};

/* A plain uop (one function, one or two rows or none, no carry preset,
 * not the recorded read) runs through one switch on its function and
 * gate: the one indirect jump of its dispatch.  Its rows r0 and r1 are
 * then the two sensed ones (equal for one row, the zero row for none). */
#define FAST_CODE(fn, gate) (1 + (fn) * 3 + (gate))

/* The fast code of o, once its fields are set (zero row: the row of
 * no wordline). */
static void plan_fast(struct sram_block_op *o, uint32_t zero)
{
	if (o->cpre || o->record || o->sense > BS_TWO || (o->wfn && o->lfn))
		return;
	if (o->sense == BS_NONE)
		o->r0 = o->r1 = zero;
	o->code = (uint8_t)FAST_CODE(o->wfn ? o->wfn : o->lfn, o->gate);
}

bool sram_block_wanted(size_t n, size_t vec_words)
{
	const char *force = getenv("INFSIM_BLOCK");
	if (force && *force)
		return strcmp(force, "0") != 0;
	/* With narrower vectors than AVX-512's, blocked runs measured
	 * slower than unblocked ones (doc/PERFORMANCE.md, "An AVX2 host"):
	 * four ymm registers a latch do not pay for a dispatch per block. */
	return n >= BLOCK_MIN_UOPS && vec_words >= 8;
}

static void plan_op(const sram_uop *u, size_t n, uint32_t *setrows,
		    uint32_t *nsetrows, struct sram_block_op *o)
{
	*o = (struct sram_block_op){
		.wfn = u->wfn, .lfn = u->lfn, .gate = u->gate, .cpre = u->cpre,
		.lc = sram_fn_latch(u->lfn) == 'C',
		.wc = u->wfn && sram_fn_latch(u->wfn) == 'C',
		.dst = u->wfn ? (uint32_t)(u->dst * n) : 0,
	};
	if (u->set) {
		o->sense = BS_SET;
		o->set0 = *nsetrows;
		for (uint64_t set = u->set; set; set &= set - 1) {
			const size_t row = u->act[0] + (size_t)__builtin_ctzll(set);
			setrows[(*nsetrows)++] = (uint32_t)(row * n);
			o->nset++;
		}
		return;
	}
	o->sense = u->nact; /* 0 to 3: BS_NONE to BS_THREE */
	o->r0 = (uint32_t)(u->act[0] * n);
	o->r1 = (uint32_t)(u->act[u->nact > 1] * n);
	o->r2 = (uint32_t)(u->act[u->nact > 2 ? 2 : 0] * n);
}

/* The distinct rows prog touches, which sram_block_exec asks for one
 * block ahead. */
static bool plan_rows(sram_block_plan *bp, const sram_machine *m,
		      const sram_uop *prog, size_t n, size_t words)
{
	bool seen[SRAM_MAX_DIM] = {false};
	for (size_t i = 0; i < n; i++) {
		const sram_uop *u = &prog[i];
		if (u->wfn)
			seen[u->dst] = true;
		for (uint64_t set = u->set; set; set &= set - 1)
			seen[u->act[0] + __builtin_ctzll(set)] = true;
		for (unsigned j = 0; !u->set && j < u->nact; j++)
			seen[u->act[j]] = true;
	}
	bp->rows = malloc(m->g.wordlines * sizeof *bp->rows);
	if (!bp->rows)
		return false;
	for (unsigned r = 0; r < m->g.wordlines; r++)
		if (seen[r])
			bp->rows[bp->nrows++] = (uint32_t)(r * words);
	return true;
}

bool sram_block_plan_init(sram_block_plan *bp, const sram_machine *m,
			  const sram_block_layout *L, const sram_uop *prog,
			  size_t n, size_t record, size_t vec_words)
{
	size_t nset = 0;
	for (size_t i = 0; i < n; i++)
		nset += (size_t)__builtin_popcountll(prog[i].set);
	*bp = (sram_block_plan){.n = n, .width = (int)vec_words};
	bp->ops = malloc((n ? n : 1) * sizeof *bp->ops);
	bp->setrows = malloc((nset ? nset : 1) * sizeof *bp->setrows);
	bp->keep = malloc(L->n * sizeof *bp->keep);
	if (!bp->ops || !bp->setrows || !bp->keep) {
		sram_block_plan_free(bp);
		return false;
	}
	/* BLB of bitlines outside any array (a narrow array's high bits)
	 * reads 0, as in sram_exec.c's record_sense. */
	for (size_t k = 0; k < L->n; k++)
		bp->keep[k] = (k % m->wpa) + 1 == m->wpa ? m->tail : ~UINT64_C(0);
	uint32_t used = 0;
	for (size_t i = 0; i < n; i++) {
		plan_op(&prog[i], L->n, bp->setrows, &used, &bp->ops[i]);
		bp->ops[i].record = i == record;
		plan_fast(&bp->ops[i], (uint32_t)L->zero);
	}
	if (!plan_rows(bp, m, prog, n, L->n)) {
		sram_block_plan_free(bp);
		return false;
	}
	bp->record = record < n ? &prog[record] : NULL;
	bp->record_at = record;
	return true;
}

void sram_block_plan_free(sram_block_plan *bp)
{
	free(bp->ops);
	free(bp->setrows);
	free(bp->keep);
	free(bp->rows);
	bp->rows = NULL;
	bp->ops = NULL;
	bp->setrows = NULL;
	bp->keep = NULL;
}

/*
 * The kernels.  A block is NV vectors of type W (NV * sizeof(W) / 8
 * words); every loop over its vectors is unrolled so that the latch
 * arrays CA, TA and EA stay in registers.  pe.def's OUT and LATCH
 * columns are expressions in s, z, x, C and T: BLK_VALUES names them for
 * vector j of the block.
 */
#define BLK_LD(p) ((W)*(const WM *)(p))
#define BLK_ST(p, v) (*(WM *)(p) = (v))
#define BLEND(old, v, g) (((old) & ~(g)) | ((v) & (g)))
#define BLK_FOR_J _Pragma("GCC unroll 8") for (unsigned j = 0; j < NV; j++)
#define BLK_VALUES                                                       \
	const W s = S[j], z = Z[j], x = ~(s | z), C = CA[j], T = TA[j];  \
	(void)s; (void)z; (void)x; (void)C; (void)T;

#define BLK_W_W(n, out, latch)                                           \
	case SRAM_FN_##n:                                                \
		BLK_FOR_J { BLK_VALUES O[j] = (W){0} | (out); }          \
		break;
#define BLK_W_WC(n, out, latch)                                          \
	case SRAM_FN_##n:                                                \
		BLK_FOR_J {                                              \
			BLK_VALUES                                       \
			O[j] = (W){0} | (out);                           \
			CN[j] = (W){0} | (latch);                        \
		}                                                        \
		break;
#define BLK_W_SH(n, out, latch)
#define BLK_W_LT(n, out, latch)
#define BLK_W_LC(n, out, latch)
#define BLK_WRITE(n, eff, sense, out, latch, sem) BLK_W_##eff(n, out, latch)
#define BLK_L_W(n, latch)
#define BLK_L_WC(n, latch)
#define BLK_L_SH(n, latch)
#define BLK_L_LT(n, latch)                                               \
	case SRAM_FN_##n:                                                \
		BLK_FOR_J { BLK_VALUES LN[j] = (W){0} | (latch); }       \
		break;
#define BLK_L_LC(n, latch) BLK_L_LT(n, latch)
#define BLK_LATCH(n, eff, sense, out, latch, sem) BLK_L_##eff(n, latch)

/* The fast cases: a write function (pe.def W, WC) or a latch function
 * (LT, LC), for each gate. */
#define FAST_GATE(gate_, j)                                              	((gate_) == SRAM_GATE_ET ? EA[j] & TA[j]                         	 : (gate_) == SRAM_GATE_ENT ? EA[j] & ~TA[j] : EA[j])
#define FAST_SENSE                                                       	const W a_ = BLK_LD(b + o->r0 + j * BW);                         	const W c_ = BLK_LD(b + o->r1 + j * BW);                         	const W s = a_ & c_, z = ~(a_ | c_), x = ~(s | z);               	const W C = CA[j], T = TA[j];                                    	(void)s; (void)z; (void)x; (void)C; (void)T;
#define FAST_W1(n, out, cset, gate_)                                     	case FAST_CODE(SRAM_FN_##n, gate_):                              		BLK_FOR_J {                                              			FAST_SENSE                                       			const W g_ = FAST_GATE(gate_, j);                			const W o_ = (W){0} | (out);                     			uint64_t *d_ = b + o->dst + j * BW;              			if (allon && (gate_) == SRAM_GATE_E)             				BLK_ST(d_, o_);                          			else                                             				BLK_ST(d_, BLEND(BLK_LD(d_), o_, g_));   			cset                                             		}                                                        		break;
#define FAST_W3(n, out, cset)                                            	FAST_W1(n, out, cset, SRAM_GATE_E)                               	FAST_W1(n, out, cset, SRAM_GATE_ET)                              	FAST_W1(n, out, cset, SRAM_GATE_ENT)
#define FAST_L1(n, latch, dstv, gate_)                                   	case FAST_CODE(SRAM_FN_##n, gate_):                              		BLK_FOR_J {                                              			FAST_SENSE                                       			const W g_ = FAST_GATE(gate_, j);                			dstv[j] = BLEND(dstv[j], (W){0} | (latch), g_);  		}                                                        		break;
#define FAST_L3(n, latch, dstv)                                          	FAST_L1(n, latch, dstv, SRAM_GATE_E)                             	FAST_L1(n, latch, dstv, SRAM_GATE_ET)                            	FAST_L1(n, latch, dstv, SRAM_GATE_ENT)
#define FAST_W(n, out, latch) FAST_W3(n, out, )
#define FAST_WC(n, out, latch)                                           	FAST_W3(n, out, CA[j] = BLEND(C, (W){0} | (latch), g_);)
#define FAST_SH(n, out, latch)
#define FAST_LT(n, out, latch) FAST_L3(n, latch, TA)
#define FAST_LC(n, out, latch) FAST_L3(n, latch, CA)
#define FAST_CASE(n, eff, sense, out, latch, sem) FAST_##eff(n, out, latch)

/* s and z of the block for o: the AND and NOR of its sensed rows. */
#define BLK_SENSE                                                        \
	switch (o->sense) {                                              \
	case BS_NONE:                                                    \
		BLK_FOR_J { S[j] = (W){0}; Z[j] = ~(W){0}; }             \
		break;                                                   \
	case BS_ONE:                                                     \
		BLK_FOR_J {                                              \
			const W a = BLK_LD(b + o->r0 + j * BW);          \
			S[j] = a; Z[j] = ~a;                             \
		}                                                        \
		break;                                                   \
	case BS_TWO:                                                     \
		BLK_FOR_J {                                              \
			const W a = BLK_LD(b + o->r0 + j * BW);          \
			const W c = BLK_LD(b + o->r1 + j * BW);          \
			S[j] = a & c; Z[j] = ~(a | c);                   \
		}                                                        \
		break;                                                   \
	case BS_THREE:                                                   \
		BLK_FOR_J {                                              \
			const W a = BLK_LD(b + o->r0 + j * BW);          \
			const W c = BLK_LD(b + o->r1 + j * BW);          \
			const W e = BLK_LD(b + o->r2 + j * BW);          \
			S[j] = a & c & e; Z[j] = ~(a | c | e);           \
		}                                                        \
		break;                                                   \
	default:                                                         \
		BLK_FOR_J { S[j] = ~(W){0}; Z[j] = (W){0}; }             \
		for (unsigned q = 0; q < o->nset; q++) {                 \
			const uint64_t *r = b + setrows[o->set0 + q];    \
			BLK_FOR_J {                                      \
				const W a = BLK_LD(r + j * BW);          \
				S[j] &= a; Z[j] |= a;                    \
			}                                                \
		}                                                        \
		BLK_FOR_J Z[j] = ~Z[j];                                  \
		break;                                                   \
	}

/* The write: the function's data, stored where the gate is set (with
 * every bitline of the block enabled and gate E, the old destination is
 * not even read), and the carry of a WC function. */
#define BLK_DO_WRITE                                                     \
	do {                                                             \
		BLK_FOR_J CN[j] = CA[j];                                 \
		switch (o->wfn) {                                        \
			SRAM_PE_FUNCTIONS(BLK_WRITE)                     \
		default:                                                 \
			BLK_FOR_J O[j] = (W){0};                         \
			break;                                           \
		}                                                        \
		uint64_t *d = b + o->dst;                                \
		if (allon && o->gate == SRAM_GATE_E)                     \
			BLK_FOR_J BLK_ST(d + j * BW, O[j]);              \
		else                                                     \
			BLK_FOR_J BLK_ST(d + j * BW,                     \
					 BLEND(BLK_LD(d + j * BW), O[j], G[j])); \
		if (o->wc)                                               \
			BLK_FOR_J CA[j] = BLEND(CA[j], CN[j], G[j]);     \
	} while (0)

/* The body of one kernel: uops i0..i1-1 on the block at b (a way's rows
 * plus the block's first column); keep is the BLB mask of its words. */
#define DEFINE_BLOCK(SFX, ATTR, VT, VTM, NV_)                            \
	ATTR static ALWAYS_INLINE void body_##SFX(                       \
		const sram_block_plan *bp, const sram_block_layout *L,   \
		uint64_t *b, const uint64_t *keep, size_t i0, size_t i1, \
		const bool allon)                                        \
	{                                                                \
		typedef VT W;                                            \
		typedef VTM WM;                                          \
		enum { NV = NV_, BW = sizeof(W) / sizeof(uint64_t) };    \
		const struct sram_block_op *ops = bp->ops;               \
		const uint32_t *setrows = bp->setrows;                   \
		W CA[NV], TA[NV], EA[NV];                                \
		BLK_FOR_J {                                              \
			CA[j] = BLK_LD(b + L->carry + j * BW);           \
			TA[j] = BLK_LD(b + L->tag + j * BW);             \
			EA[j] = allon ? ~(W){0} : BLK_LD(b + L->en + j * BW); \
		}                                                        \
		for (size_t i = i0; i < i1; i++) {                       \
			const struct sram_block_op *o = &ops[i];         \
			switch (o->code) {                               \
				SRAM_PE_FUNCTIONS(FAST_CASE)             \
			default:                                         \
				break;                                   \
			}                                                \
			if (o->code)                                     \
				continue;                                \
			W S[NV], Z[NV], G[NV], LN[NV], O[NV], CN[NV];    \
			BLK_SENSE                                        \
			if (o->cpre) {                                   \
				const W v = o->cpre == SRAM_CPRE_1 ? ~(W){0} : (W){0}; \
				BLK_FOR_J CA[j] = BLEND(CA[j], v, EA[j]); \
			}                                                \
			BLK_FOR_J {                                      \
				G[j] = EA[j];                            \
				if (o->gate == SRAM_GATE_ET)             \
					G[j] &= TA[j];                   \
				else if (o->gate == SRAM_GATE_ENT)       \
					G[j] &= ~TA[j];                  \
			}                                                \
			switch (o->lfn) {                                \
				SRAM_PE_FUNCTIONS(BLK_LATCH)             \
			default:                                         \
				BLK_FOR_J LN[j] = (W){0};                \
				break;                                   \
			}                                                \
			if (o->wfn)                                      \
				BLK_DO_WRITE;                            \
			if (o->lfn && o->lc)                             \
				BLK_FOR_J CA[j] = BLEND(CA[j], LN[j], G[j]); \
			else if (o->lfn)                                 \
				BLK_FOR_J TA[j] = BLEND(TA[j], LN[j], G[j]); \
			if (o->record)                                   \
				BLK_FOR_J {                              \
					BLK_ST(b + L->bl + j * BW, S[j]); \
					BLK_ST(b + L->blb + j * BW,      \
					       Z[j] & BLK_LD(keep + j * BW)); \
				}                                        \
		}                                                        \
		BLK_FOR_J {                                              \
			BLK_ST(b + L->carry + j * BW, CA[j]);            \
			BLK_ST(b + L->tag + j * BW, TA[j]);              \
		}                                                        \
	}                                                                \
	ATTR static void block_##SFX(const sram_block_plan *bp,          \
				     const sram_block_layout *L,         \
				     uint64_t *b, const uint64_t *keep,  \
				     size_t i0, size_t i1)               \
	{                                                                \
		uint64_t all = ~UINT64_C(0);                             \
		for (size_t k = 0; k < (size_t)(NV_) * (sizeof(VT) / 8); k++) \
			all &= b[L->en + k];                             \
		if (all == ~UINT64_C(0))                                 \
			body_##SFX(bp, L, b, keep, i0, i1, true);        \
		else                                                     \
			body_##SFX(bp, L, b, keep, i0, i1, false);       \
	}

/* Word by word: any machine, and the words a wider kernel leaves over. */
DEFINE_BLOCK(w1, , uint64_t, uint64_t, 1)
#if defined(__GNUC__)
DEFINE_BLOCK(v2, , sram_v2, sram_v2m, 4)
#endif
#ifdef SRAM_X86_VECTORS
DEFINE_BLOCK(avx2, __attribute__((target("avx2"))), sram_v4, sram_v4m, 4)
DEFINE_BLOCK(avx512, __attribute__((target("avx512f"))), sram_v8, sram_v8m, 4)
#endif

typedef void block_fn(const sram_block_plan *bp, const sram_block_layout *L,
		      uint64_t *b, const uint64_t *keep, size_t i0, size_t i1);

/* The kernel for the vector width sram_exec.c picked, and its block. */
static block_fn *pick_block(int width, size_t *words)
{
	switch (width) {
#ifdef SRAM_X86_VECTORS
	case 8: *words = 32; return block_avx512;
	case 4: *words = 16; return block_avx2;
#endif
#if defined(__GNUC__)
	case 2: *words = 8; return block_v2;
#endif
	default: *words = 1; return block_w1;
	}
}

/* Ask for the lines of the next block (words at b) of every row the
 * program touches: they come from memory while this block computes. */
static void prefetch_block(const sram_block_plan *bp, const uint64_t *b,
			   size_t words)
{
#if defined(__GNUC__)
	for (size_t r = 0; r < bp->nrows; r++)
		for (size_t k = 0; k < words; k += 8)
			__builtin_prefetch(b + bp->rows[r] + k, 1, PREFETCH_LEVEL);
#else
	(void)bp, (void)b, (void)words;
#endif
}

void sram_block_exec(const sram_block_plan *bp, const sram_block_layout *L,
		     sram_way *const *ways, unsigned nw, size_t i0, size_t i1)
{
	size_t bw;
	block_fn *fn = pick_block(bp->width, &bw);
	const size_t n = L->n;
	for (unsigned w = 0; w < nw; w++) {
		uint64_t *rows = ways[w]->rows;
		size_t k = 0;
		for (; k + bw <= n; k += bw) {
			prefetch_block(bp, rows + k + bw, k + 2 * bw <= n ? bw : 0);
			fn(bp, L, rows + k, bp->keep + k, i0, i1);
		}
		for (; k < n; k++)
			block_w1(bp, L, rows + k, bp->keep + k, i0, i1);
		/* What the debugger shows of the last read (record_sense). */
		if (bp->record && bp->record_at >= i0 && bp->record_at < i1) {
			const sram_uop *u = bp->record;
			memcpy(ways[w]->last_act, u->act, sizeof ways[w]->last_act);
			ways[w]->last_nact = u->nact;
			ways[w]->last_set = u->set;
		}
	}
}
