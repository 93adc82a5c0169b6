/* SPDX-License-Identifier: MIT */
/*
 * simt.h: Duality Cache's SIMT mode (prefix simt_; doc/SIMT.md).
 *
 * A DC-PTX program (a subset of PTX with operand locations,
 * duality-cache §3.1, §3.4) is parsed into kernels of VLIW bundles and a
 * list of launches.  The machine (machine.c) runs each kernel on
 * emulated SRAM: a thread is a bitline, a thread block (TB) of 256
 * threads is one bank of four 256x256 arrays, a control block (CB) of
 * 1024 threads is four TBs with one PC (§3.3).  Every value a thread
 * computes comes from the isa/ micro-programs run on the arrays.  The
 * reference (ref.c) runs the same program one thread at a time in plain
 * C; tests compare the two bit for bit.
 */
#ifndef INFSIM_SIMT_H
#define INFSIM_SIMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "api.h"
#include "diag.h"

INFSIM_BEGIN_DECLS

/* The geometry of §3.3: fixed by the paper, not a setting. */
#define SIMT_ARRAYS 4          /* member arrays of a bank, VLIW slots */
#define SIMT_TB_THREADS 256    /* bitlines of an array: a TB */
#define SIMT_TBS 4             /* TBs (banks) of a CB */
#define SIMT_CB_THREADS (SIMT_TB_THREADS * SIMT_TBS)
#define SIMT_WORDLINES 256
#define SIMT_REG_BITS 32
/* Registers per array: 3 of 32 wordlines.  The paper's 8 would leave no
 * wordline for the micro-programs' scratch, and f32 division needs 133
 * of them (doc/SIMT.md, "Registers"): 160 scratch wordlines remain. */
#define SIMT_REGS_PER_ARRAY 3
#define SIMT_REGS (SIMT_ARRAYS * SIMT_REGS_PER_ARRAY)
#define SIMT_SCRATCH_ROW (SIMT_REGS_PER_ARRAY * SIMT_REG_BITS)
/* A translated PTX kernel (emu/simt/ptxc.c) sees each array as
 * SIMT_UNITS_MAX units of 32 wordlines (program.units = 8): a register
 * is a unit, a 64-bit value two neighbouring units of one array (the
 * register names the lower), and each instruction says where its
 * micro-program's scratch starts (simt_instr.scratch): every unit from
 * there up is free while it runs.  Register r is unit r % units of array
 * r / units; DC-PTX keeps units = 3 (r0..r11 as written). */
#define SIMT_UNITS_MAX 8
#define SIMT_REGS_MAX (SIMT_ARRAYS * SIMT_UNITS_MAX)
#define SIMT_PREDS 8
#define SIMT_LINE_BYTES 64     /* an MSHR entry: one cache line */
#define SIMT_MAX_CBS 64
#define SIMT_MEM_MAX (UINT64_C(64) << 20)
#define SIMT_LOCAL_MAX 1024    /* bytes of local memory a thread */
#define SIMT_SHARED_MAX 65536  /* bytes of a DC-PTX CTA's shared window */

/* Element types: DC-PTX's .u32/.b32, .s32, .f32; a translated kernel's
 * also the 64-bit integers (two units), the 16-bit ones (the low 16 rows
 * of a unit) and, for loads and stores only, bytes (a load extends them
 * to the unit's 32 bits). */
enum simt_type { SIMT_U32, SIMT_S32, SIMT_F32, SIMT_U64, SIMT_S64, SIMT_U16, SIMT_S16,
		 SIMT_U8, SIMT_S8,
		 SIMT_Q32,   /* translated PTX only: isa/'s .q32 fixed point, the
			      * CORDIC commands' type (3 integer bits) */
		 SIMT_F16,   /* translated PTX only: IEEE binary16, the low 16
			      * rows of a unit (isa/'s .f16) */
		 SIMT_TYPE_COUNT };
unsigned simt_type_bits(unsigned type);   /* 32, 64, 16 or 8 */
bool simt_type_signed(unsigned type);

/* Operations.  One line each, as in opcodes.def; the meaning per type is
 * the isa/ command named in doc/SIMT.md. */
enum simt_opc {
	SIMT_ADD, SIMT_SUB, SIMT_MUL, SIMT_DIV, SIMT_REM,
	SIMT_AND, SIMT_OR, SIMT_XOR, SIMT_NOT,
	SIMT_SHL, SIMT_SHR, SIMT_MIN, SIMT_MAX, SIMT_ABS, SIMT_NEG,
	SIMT_MAD,      /* d := a * b + c (f32: rounded twice) */
	SIMT_SETP,     /* p := a CMP b */
	SIMT_SELP,     /* d := p ? a : b */
	SIMT_MOV,      /* d := a (register, immediate, special or address) */
	SIMT_CVT,      /* d := a converted from type stype */
	SIMT_LD,       /* d := mem[a] */
	SIMT_ST,       /* mem[a] := b */
	SIMT_SHFL,     /* d := a of another thread of the CTA, through the
			* crossbar (its lane: mode and b) */
	SIMT_BRA,      /* pc := target (per thread, under its guard) */
	SIMT_EXIT,     /* the thread ends */
	/* Translated PTX only (not in DC-PTX text): */
	SIMT_FMA,      /* d := a * b + c, f32, rounded once (isa/ "fma") */
	SIMT_ATOM,     /* d := mem[a]; mem[a] := op(mem[a], b[, c]), op
			* simt_instr.cmp (enum simt_atom), thread by thread
			* in thread order through the memory port */
	SIMT_BAR,      /* bar.sync: every live thread of the CTA waits here
			* (control slot; an error if some cannot arrive) */
	SIMT_PLOG,     /* pd := a op b on the predicate latches, op
			* simt_instr.cmp (enum simt_plog), a.reg/b.reg
			* predicates (a.imm/b.imm 1: negated); no array */
	SIMT_SIN, SIMT_COS, /* d := sin a, cos a; .q32, isa/'s CORDIC commands */
	SIMT_EXP, SIMT_LOG, /* d := e^a, ln a; .q32, likewise */
	SIMT_OPC_COUNT
};

enum simt_cmp { SIMT_EQ, SIMT_NE, SIMT_LT, SIMT_LE, SIMT_GT, SIMT_GE };
enum simt_atom { SIMT_ATOM_ADD, SIMT_ATOM_MIN, SIMT_ATOM_MAX, SIMT_ATOM_EXCH, SIMT_ATOM_CAS,
		 SIMT_ATOM_AND, SIMT_ATOM_OR, SIMT_ATOM_XOR, SIMT_ATOM_INC, SIMT_ATOM_DEC };
enum simt_plog { SIMT_PLOG_AND, SIMT_PLOG_OR, SIMT_PLOG_XOR, SIMT_PLOG_MOV };
/* Memory spaces of ld, st and atom (simt_instr.space). */
enum simt_space {
	SIMT_SPACE_GLOBAL,  /* the flat DC-page memory at the address */
	SIMT_SPACE_LOCAL,   /* the thread's local words at byte a.imm (spills) */
	SIMT_SPACE_SHARED,  /* the CTA's shared memory: the CB's window of
			     * program.shared_bytes at shared_addr + cb * that */
	SIMT_SPACE_PARAM,   /* the launch's parameter buffer (param_addr) */
};
/* shfl's modes (kept in simt_instr.cmp): the source lane of thread t is
 * b, t - b, t + b or t ^ b; a lane outside the CTA gives t's own a. */
enum simt_shfl { SIMT_SHFL_IDX, SIMT_SHFL_UP, SIMT_SHFL_DOWN, SIMT_SHFL_BFLY };
/* The lane thread t of a CTA of ntid threads reads, or t itself. */
static inline uint32_t simt_shfl_lane(unsigned mode, uint32_t t, uint32_t b, uint32_t ntid)
{
	uint32_t j = mode == SIMT_SHFL_IDX ? b : mode == SIMT_SHFL_UP ? t - b
		: mode == SIMT_SHFL_DOWN ? t + b : t ^ b;
	/* t - b wraps past ntid when b > t; t + b may wrap past 2^32 */
	if (mode == SIMT_SHFL_UP && b > t)
		return t;
	if (mode == SIMT_SHFL_DOWN && j < t)
		return t;
	return j < ntid ? j : t;
}

/* Translated PTX's shfl.sync (simt_instr.off holds SIMT_SHFL_WARP | c):
 * lanes are those of the thread's warp of 32, and c is PTX's clamp (bits
 * 0-4) and segment mask (bits 8-12).  The warp lane thread t reads
 * (t's own when the lane falls outside its segment), as a CTA index. */
#define SIMT_SHFL_WARP 0x10000
/* With SIMT_SHFL_WARP: a lane that does not issue the shfl with the
 * thread reads 0 (the translator's vote.sync), where a plain shfl.sync
 * stops with an error (crossbar.c). */
#define SIMT_SHFL_ZERO 0x20000
static inline uint32_t simt_shfl_lane_warp(unsigned mode, uint32_t t, uint32_t b, uint32_t c)
{
	uint32_t lane = t & 31, base = t - lane, clamp = c & 31, seg = (c >> 8) & 31;
	uint32_t maxl = (lane & seg) | (clamp & ~seg), minl = lane & seg;
	int32_t j;
	bool in;
	b &= 31;
	switch (mode) {
	case SIMT_SHFL_UP: j = (int32_t)lane - (int32_t)b; in = j >= (int32_t)maxl; break;
	case SIMT_SHFL_DOWN: j = (int32_t)(lane + b); in = j <= (int32_t)maxl; break;
	case SIMT_SHFL_BFLY: j = (int32_t)(lane ^ b); in = j <= (int32_t)maxl; break;
	default: j = (int32_t)(minl | (b & ~seg)); in = j <= (int32_t)maxl; break;
	}
	return base + (in ? (uint32_t)j : lane);
}

/* Kinds of an operand. */
enum simt_okind { SIMT_O_NONE, SIMT_O_REG, SIMT_O_IMM, SIMT_O_SPECIAL };
/* Special registers of §3.2's programming model; the .y and .z ones and
 * the lane for translated PTX (a CTA's threads are x fastest). */
enum simt_special { SIMT_TID, SIMT_NTID, SIMT_CTAID, SIMT_NCTAID,
		    SIMT_TID_Y, SIMT_TID_Z, SIMT_NTID_Y, SIMT_NTID_Z,
		    SIMT_CTAID_Y, SIMT_CTAID_Z, SIMT_NCTAID_Y, SIMT_NCTAID_Z,
		    SIMT_LANEID, SIMT_SPECIAL_COUNT };

typedef struct simt_operand {
	uint8_t kind;   /* enum simt_okind */
	uint8_t reg;    /* register, or special */
	uint64_t imm;   /* immediate bits (a global's name: its address) */
} simt_operand;

typedef struct simt_instr {
	uint8_t opc;        /* enum simt_opc */
	uint8_t type;       /* enum simt_type */
	uint8_t stype;      /* cvt: the source type */
	uint8_t cmp;        /* setp: enum simt_cmp; shfl: enum simt_shfl */
	int8_t guard;       /* predicate guarding it, -1 none */
	uint8_t guard_neg;  /* @!p */
	uint8_t pd;         /* setp's predicate destination, selp's p */
	uint8_t local;      /* ld/st: the thread's local memory at byte a.imm
			     * (the translator's spills, doc/SIMT.md); the
			     * same as space == SIMT_SPACE_LOCAL */
	uint8_t space;      /* ld/st/atom: enum simt_space */
	uint8_t addr64;     /* ld/st/atom: the address register a is a 64-bit
			     * pair (its high unit must be 0) */
	uint8_t scratch;    /* first unit of its array the micro-program may
			     * use as scratch (0: program.units) */
	uint8_t d;          /* destination register */
	uint8_t ftz;        /* translated PTX only: the isa/ command in
			     * hardware mode (DAZ/FTZ, doc/FLOAT.md) whatever
			     * program.ieee says (PTX's .ftz, ptxc.c) */
	int32_t off;        /* ld/st/atom: added to the address */
	simt_operand a, b, c;
	uint32_t target;    /* bra: the bundle index of its label */
	int line, col;      /* where it was written */
} simt_instr;

/* A bundle: up to four ALU slots (slot k runs on array k), at most one
 * memory operation, and an optional branch or exit last (§3.3). */
#define SIMT_BUNDLE_MAX (SIMT_ARRAYS + 2)
typedef struct simt_bundle {
	simt_instr in[SIMT_BUNDLE_MAX];
	uint8_t n;
	int line;
} simt_bundle;

/* The slot an instruction takes: its array (0..3), the memory port, or
 * the control (branch, exit). */
#define SIMT_SLOT_MEM SIMT_ARRAYS
#define SIMT_SLOT_CTL (SIMT_ARRAYS + 1)
unsigned simt_instr_slot_units(unsigned units, const simt_instr *in);

typedef struct simt_kernel {
	char name[64];
	simt_bundle *b;
	size_t n, cap;
	int line;
	bool translated;    /* a .thread kernel, its bundles the translator's */
	/* A translated PTX kernel's register map (ptxc.c): where each of its
	 * nregloc PTX registers is before bundle pc, regloc[pc * nregloc +
	 * r], a SIMT_LOC_* code; NULL for DC-PTX. */
	uint16_t *regloc;
	uint32_t nregloc;
} simt_kernel;

/* A PTX register's place before a bundle: nowhere (not live: no unit
 * or home holds its value there), machine register SIMT_LOC_REG + reg
 * (a 64-bit value: reg and reg + 1), predicate latch SIMT_LOC_PRED + p,
 * or its home at byte SIMT_LOC_HOME + offset of the thread's local
 * memory (a predicate's home is a word, 0 or 1). */
enum { SIMT_LOC_NONE = 0, SIMT_LOC_REG = 1, SIMT_LOC_PRED = 0x100, SIMT_LOC_HOME = 0x8000 };
/* Or'ed into a code: bundle pc - 1 gave the register a new value, or pc
 * begins a block (without it, a thread that ran bundle pc - 1 holds the
 * same bits before pc as before pc - 1, wherever they moved). */
#define SIMT_LOC_NEW 0x4000u

typedef struct simt_global {
	char name[64];
	uint32_t addr;      /* byte address in the flat DC-page memory */
	uint32_t count;     /* 32-bit elements */
	uint8_t type;       /* enum simt_type */
	int line;
} simt_global;

typedef struct simt_launch {
	uint32_t kernel;
	uint32_t grid, block;   /* CTAs and threads per CTA (<= 1024) */
	int line;
	/* Translated PTX: the grid's and the block's x, y, z (their
	 * products grid and block; all 0 for DC-PTX: grid, 1, 1) and the
	 * byte address of the launch's parameter buffer in memory. */
	uint32_t gdim[3], bdim[3];
	uint32_t param_addr;
} simt_launch;

typedef struct simt_program {
	const char *path;
	simt_kernel *k;
	size_t nk;
	simt_global *g;
	size_t ng;
	simt_launch *l;
	size_t nl;
	uint32_t mem_bytes;     /* the memory: every global, in order */
	uint32_t *init;         /* its initial words (mem_bytes / 4) */
	/* .machine settings */
	unsigned cbs;           /* control blocks run at once (1..64) */
	unsigned ctas_per_cb;   /* at most this many CTAs a CB holds at once
				 * (1..1024; SIMT_CB_THREADS, the default: as
				 * many as fit its bitlines; see simt_cta_place) */
	unsigned ieee;          /* 1: subnormals kept; 0: flush to zero */
	unsigned latency_opt;   /* 1: data-dependent latency (§3.1.2) */
	uint64_t max_bundles;   /* bound of a CTA run's bundles */
	uint64_t max_cycles;    /* bound of a CTA run's cycles: what a runaway
				 * kernel costs the host follows its cycles
				 * (the micro-ops run), not its bundles */
	unsigned serial;        /* mapping=serial: .thread kernels translated
				 * one instruction a bundle on one array
				 * (Fig 13's baseline) */
	unsigned regs;          /* registers of an array the translator
				 * allocates (1..SIMT_REGS_PER_ARRAY) */
	/* Local memory (spills): local_words words a thread, after the
	 * globals at local_addr; word w of the thread on bitline t of CB cb
	 * is at local_addr + ((cb * local_words + w) * 1024 + t) * 4. */
	uint32_t local_addr, local_words;
	/* Units of 32 wordlines an array's registers are counted in
	 * (SIMT_REGS_PER_ARRAY for DC-PTX, SIMT_UNITS_MAX for translated
	 * PTX), and each CB's shared memory windows: shared_windows of
	 * shared_bytes a CB, one a CTA it holds (simt_cta_place's slot). */
	unsigned units;
	uint32_t shared_addr, shared_bytes, shared_windows;
	/* CORDIC iterations of sin, cos, exp and log (isa_cmd.iters); 0:
	 * ISA_CORDIC_DEFAULT */
	unsigned cordic_iters;
} simt_program;

/* The array register r is in, and its first wordline. */
static inline unsigned simt_units(const simt_program *p)
{
	return p->units ? p->units : SIMT_REGS_PER_ARRAY;
}
static inline unsigned simt_reg_array(const simt_program *p, unsigned r)
{
	return r / simt_units(p);
}
static inline unsigned simt_reg_row(const simt_program *p, unsigned r)
{
	return (r % simt_units(p)) * SIMT_REG_BITS;
}
/* The slot an instruction takes in a program of these units. */
unsigned simt_instr_slot(const simt_program *p, const simt_instr *in);

/* Several CTAs a CB (duality-cache §4: the compiler packs CTAs into a
 * control block; doc/SIMT.md, "The machine").  A CB of launch l holds
 * S = min(ctas_per_cb, floor(1024 / block), ceil(grid / cbs)) CTAs at
 * once, in lockstep under its one PC: as many as fit its bitlines, but
 * no more than it takes to give every CB some (a launch of no more CTAs
 * than CBs runs one a CB, side by side); the bitlines past S x block
 * idle. */
static inline unsigned simt_ctas_per_cb(const simt_program *p, const simt_launch *l)
{
	unsigned fit = l->block && l->block <= SIMT_CB_THREADS ? SIMT_CB_THREADS / l->block : 1;
	unsigned cbs = p->cbs ? p->cbs : 1;
	uint32_t spread = l->grid / cbs + (l->grid % cbs != 0);
	if (p->ctas_per_cb && p->ctas_per_cb < fit)
		fit = p->ctas_per_cb;
	return spread && spread < fit ? (unsigned)spread : fit;
}
/* Where CTA cta of launch l runs: CTAs go to the CBs S at a time, in
 * order, CTAs g x S to g x S + S - 1 together on CB g mod cbs (g = cta /
 * S), CTA cta in slot cta mod S: its thread t on the CB's bitline slot x
 * block + t (bitline b on TB b / 256).  A function of the program alone:
 * the layout of local and shared memory follows from it. */
static inline void simt_cta_place(const simt_program *p, const simt_launch *l, uint32_t cta,
				  unsigned *cb, unsigned *slot)
{
	unsigned s = simt_ctas_per_cb(p, l);
	*cb = (unsigned)((cta / s) % p->cbs);
	*slot = cta % s;
}

/* Parse DC-PTX text[0..len) (doc/SIMT.md).  0, or -1 with d naming
 * path:line:column.  path is kept, not copied. */
int simt_parse(const char *path, const char *text, size_t len, simt_program *p,
	       diag *d);
int simt_load_file(const char *path, simt_program *p, diag *d);
/* simt_parse with .thread kernels translated as mapping says (below). */
int simt_parse_mapped(const char *path, const char *text, size_t len, int mapping,
		      simt_program *p, diag *d);
/* The same with .thread kernels translated as mapping says, whatever
 * the file's .machine mapping= is: SIMT_MAP_VLIW, SIMT_MAP_SERIAL, or
 * SIMT_MAP_FILE (as written). */
enum { SIMT_MAP_FILE = -1, SIMT_MAP_VLIW = 0, SIMT_MAP_SERIAL = 1 };
int simt_load_file_mapped(const char *path, int mapping, simt_program *p, diag *d);
void simt_program_free(simt_program *p);
const char *simt_opc_name(unsigned opc);
/* The global named name, or NULL. */
const simt_global *simt_global_find(const simt_program *p, const char *name);

/* Statistics of a run (§5, Figs 9, 12, 13). */
typedef struct simt_stats {
	uint64_t bundles;          /* bundles issued, all CBs */
	uint64_t compute_cycles;   /* sum of bundle latencies (max over slots) */
	uint64_t baseline_cycles;  /* the same with Table 1's static latencies */
	uint64_t memory_cycles;    /* loads and stores: address, TMU, lines */
	uint64_t one_array_cycles; /* the same slots one after another on one
				    * array, without the copies (Fig 13's
				    * baseline mapping of a TB to one array) */
	uint64_t critical_path;    /* the longest CB's compute + memory cycles */
	uint64_t slot_ops;         /* ALU slots filled */
	uint64_t thread_slots;     /* active threads x bundles issued */
	uint64_t lane_slots;       /* 1024 x bundles issued */
	uint64_t mem_requests;     /* thread requests to the MSHR */
	uint64_t mem_lines;        /* lines fetched or written */
	uint64_t mshr_merges;      /* requests merged into a line already held */
	uint64_t copies;           /* cross-array copies */
	uint64_t spills, reloads;  /* st.local and ld.local issued */
	uint64_t shuffles;         /* shfl operations through the crossbar */
	uint64_t shuffle_lanes;    /* words they moved between threads */
	uint64_t jumps_taken;      /* branches where jump_en was set */
	uint64_t cb_runs;          /* CTAs run (finished) */
	uint64_t cb_groups;        /* CB runs: the CTAs a CB ran together */
	/* Fig 12: per isa/ command, cycles before and after the
	 * data-dependent optimisations on this run's data. */
	uint64_t op_count[64], op_base[64], op_opt[64];
} simt_stats;

/* The machine: memory, the SRAM of its CBs, statistics. */
typedef struct simt_machine simt_machine;
simt_machine *simt_machine_new(const simt_program *p, diag *d);
void simt_machine_free(simt_machine *m);
/* Run every launch in order.  0, or -1 with d set. */
int simt_machine_run(simt_machine *m, diag *d);
const uint32_t *simt_machine_mem(const simt_machine *m);
const simt_stats *simt_machine_stats(const simt_machine *m);
/* Issue one bundle (starting the next CTA or launch first if none
 * runs): 1, 0 when the program has ended, -1 with d set. */
int simt_machine_step(simt_machine *m, diag *d);

/* Where a stepped run stands: the CTA running, its CB's PC (the bundle
 * issued next) and masks.  false when the program has ended. */
#define SIMT_MASK_WORDS (SIMT_CB_THREADS / 64)
typedef struct simt_mask { uint64_t w[SIMT_MASK_WORDS]; } simt_mask;
typedef struct simt_where {
	unsigned launch, kernel, cta, cb;
	unsigned ctas, ntid;    /* the CB holds CTAs cta .. cta + ctas - 1 of
				 * ntid threads: CTA cta + b / ntid's thread
				 * b % ntid on bitline b */
	uint32_t pc;
	simt_mask active, live, pred[SIMT_PREDS];
} simt_where;
bool simt_machine_where(simt_machine *m, simt_where *w);
/* A register of the thread on bitline t of the running CB, and the
 * bundle it waits at. */
uint32_t simt_machine_thread_reg(simt_machine *m, unsigned t, unsigned reg);
uint32_t simt_machine_thread_pc(const simt_machine *m, unsigned t);
/* The critical path so far: the finished launches' (stats.critical_path)
 * and the longest CB of the launch running, counting the CTA it runs. */
uint64_t simt_machine_cycles(const simt_machine *m);
/* dst := src, every bit of the state (the SRAM, memory, CBs, statistics,
 * the position, the writers); both made by simt_machine_new on the same
 * program, both tracked or neither. */
void simt_machine_copy(simt_machine *dst, const simt_machine *src);

/* Who last wrote a word of memory or a register (for --check's report):
 * run is the CTA run (the writing thread's CTA counted from 1 over every
 * launch's CTAs in order: stats.cb_runs + 1 + its slot while it ran), at encodes the
 * instruction (simt_writer_instr), 0 when nothing wrote it since the
 * start, SIMT_WRITER_OUTSIDE when a debugger or loader set it. */
typedef struct simt_writer { uint32_t run, at; } simt_writer;
#define SIMT_WRITER_OUTSIDE UINT32_MAX
/* Keep the writers from now on: 0, or -1 with d (out of memory, or a
 * program too large to number its instructions in 32 bits). */
int simt_machine_track(simt_machine *m, diag *d);
/* The writer of memory word w, or of register reg of thread t of the CTA
 * that CB cb holds (a zero writer when not tracked). */
simt_writer simt_machine_mem_writer(const simt_machine *m, uint32_t w);
simt_writer simt_machine_reg_writer(const simt_machine *m, unsigned cb, unsigned t, unsigned reg);
/* Mark a word or register as set from outside the program. */
void simt_machine_mark_mem(simt_machine *m, uint32_t w);
void simt_machine_mark_reg(simt_machine *m, unsigned cb, unsigned t, unsigned reg);
/* The instruction a writer's at names: false for 0 and OUTSIDE. */
bool simt_writer_instr(const simt_machine *m, uint32_t at, unsigned *kernel, uint32_t *pc,
		       unsigned *slot);

/* The threads each slot of the bundle at w->pc enables (the active
 * mask and the instruction's guard): slots 0..3 the arrays, then the
 * memory port (SIMT_SLOT_MEM), then the threads a bra or exit takes
 * (SIMT_SLOT_CTL); a slot the bundle leaves empty enables none. */
void simt_where_slots(const simt_program *p, const simt_where *w,
		      simt_mask slot[SIMT_ARRAYS + 2]);

/* Register reg of thread t of CTA cta of the last launch, read from the
 * arrays through the port: 0, or -1 if no CB holds that CTA any more
 * (at the end each CB holds the CTAs of its last run). */
int simt_machine_reg(simt_machine *m, unsigned cta, unsigned t, unsigned reg,
		     uint32_t *out);

/* The reference: the program one thread at a time, in plain C. */
typedef struct simt_ref simt_ref;
simt_ref *simt_ref_new(const simt_program *p, diag *d);
void simt_ref_free(simt_ref *r);
int simt_ref_run(simt_ref *r, diag *d);
/* Run the first n CTA runs of the program (launches in order, CTAs in
 * order), as the machine finishes them: the state a machine that has
 * finished n CTAs must hold. */
int simt_ref_run_ctas(simt_ref *r, uint64_t n, diag *d);
const uint32_t *simt_ref_mem(const simt_ref *r);
/* The same registers, as the reference left them. */
int simt_ref_reg(const simt_ref *r, unsigned cta, unsigned t, unsigned reg, uint32_t *out);

/* Memory, then the registers both still hold: 0 if equal, 1 with d
 * naming the first difference (compare.c). */
int simt_compare(simt_machine *m, const simt_ref *r, diag *d);
/* The first difference: a word of memory (reg false), or register reg
 * of thread t of CTA cta of the last launch. */
typedef struct simt_diff {
	bool reg;
	uint32_t word;          /* memory: the word's index */
	unsigned cta, t, index; /* a register: its CTA, thread, number */
	uint32_t got, want;
} simt_diff;
/* 1 and *x if the machine and the reference differ, else 0.  regs: also
 * the registers (at the end only); skip_run: memory words whose writer's
 * run is skip_run or later (those the CTAs still running stored) are not
 * compared (0: compare every word). */
int simt_first_diff(simt_machine *m, const simt_ref *r, bool regs, uint32_t skip_run,
		    simt_diff *x);
/* The global holding byte address addr and the element's index there,
 * or "(local memory)" / "(padding)". */
const char *simt_word_owner(const simt_program *p, uint32_t addr, uint32_t *index);

/* The statistics as text (report.c). */
void simt_report(FILE *f, const simt_program *p, const simt_stats *s);

/* A kernel's bundles as DC-PTX text the parser reads back (format.c). */
void simt_format_kernel(FILE *f, const simt_program *p, const simt_kernel *k);
void simt_format_bundle(FILE *f, const simt_program *p, const simt_bundle *b);
void simt_format_instr(FILE *f, const simt_program *p, const simt_instr *in);

INFSIM_END_DECLS

#endif
