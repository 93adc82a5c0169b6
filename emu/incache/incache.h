/* SPDX-License-Identifier: MIT */
/*
 * incache.h: the in-cache machine as a target (emu/target/target.h):
 * command streams (.ins, .inb) and tDFGs (.tdfg, the artifact's .json),
 * which the JIT lowers into a stream.  What its files share (prefix
 * inc_); the table is tgt_stream, in target.c.
 *
 *   target.c  the table, options and settings, open (the stream, the
 *             tDFG and its JIT, --tdfg's tDFG), the arrays;
 *   run.c     the run: every command with its cycles, --check's two
 *             references (the stream's and the tDFG's nodes), --tdfg's
 *             check points and generated input sets, the summary;
 *   stats.c   the statistics tree and the JIT's memo;
 *   step.c    the debugger's view: units, position, names, breakpoints,
 *             snapshots.
 */
#ifndef INFSIM_INCACHE_H
#define INFSIM_INCACHE_H

#include "check.h"
#include "machine.h"
#include "paper.h"
#include "program.h"
#include "refmodel.h"
#include "snap.h"
#include "target.h"
#include "tdfg.h"
#include "validate.h"

extern const tgt_ops tgt_stream;

struct tgt {
	tgt_load a;            /* as open was given it */
	emu_tdfg_def *defs;    /* a.defs, as the tDFG parser takes them */
	/* the target's own options */
	bool stepi;            /* --stepi: one micro-op at a time */
	const char *tdfg;      /* --tdfg: the tDFG the stream is validated against */
	const char *type;      /* --type: the element type of a .json tDFG */
	unsigned sets[2];      /* --inputs: random and edge sets to generate */
	double tp_core;        /* --tp-core, 0: Eq. 2's default */
	long lat_jit;          /* --lat-jit, -1: Eq. 2's default */
	long lat_jit_cmd;      /* --lat-jit-cmd, -1: EMU_PAPER_LAT_JIT_CMD */
	unsigned offload;      /* --offload: enum inc_offload */
	uint8_t *near;         /* per region run of a tDFG: it runs near memory
				* (inc_decide), or NULL before the run starts */
	uint64_t near_runs;    /* region runs that ran near memory */

	emu_program p;         /* the stream that runs (lowered) */
	bool is_tdfg;          /* p was lowered by the JIT from t */
	emu_tdfg t;
	emu_jit j;
	emu_machine *em;
	emu_ref *ref;          /* --check: the stream's reference */
	emu_tref *tref;        /* --check of a tDFG: the reference of its nodes */
	emu_tdfg vt;           /* --tdfg: the tDFG the stream is validated against */
	emu_valid *valid;      /* --tdfg: its check points */
	emu_valid_report vrep; /* --tdfg: the first node that differs */
	emu_cmd_cycles *cc;    /* each command's cycles */
	uint64_t *bank_before; /* each bank's cycles before the current command */
	emu_strm_stats strm;   /* a tDFG's strm nodes (emu/tdfg/strm.c) */
	unsigned sets_run;     /* --inputs: generated input sets that held */
	bool started;          /* the check points before the first command ran */
	size_t checked;        /* commands the references have applied */
	char *report;          /* the last difference, as text */
	uint64_t uops;         /* micro-ops stepped (step.c) */
	emu_snap_pool pool;    /* the snapshots' pages */
	/* With --check, the data array_set gave whole buffers (-l, load=):
	 * a restored snapshot's reference starts from them again. */
	struct inc_load {
		size_t buf;
		uint64_t *v;
	} *loads;
	size_t nloads;
};

/* target.c: the machine settings (-c's, then -m's, then the options
 * that are settings: each key from the last that sets it) into o.  0, or
 * -1 with d set (a usage error). */
int inc_settings(const tgt_setting *s, size_t n, emu_geom_override *o, diag *d);
/* The same from the options as a front collected them (emu/target/
 * opts.h), for the fronts that read a stream without opening the target
 * (infsim asm, disasm, jit, layout, info; infsdb's stream session): 0,
 * or an exit status after the message (cmd names the subcommand). */
struct tgt_opts;
int inc_machine_opts(const struct tgt_opts *o, const char *cmd, emu_geom_override *ov);
/* A stream to run has a command: 0, or -1 with d set ("the stream has
 * no command: it runs nothing"); the parser takes an empty stream (a
 * library's caller may build one), the fronts do not run one. */
int inc_need_commands(const emu_program *p, diag *d);
/* -D's parameters as the tDFG parser takes them (malloc'd, n + 1 items),
 * or NULL out of memory. */
emu_tdfg_def *inc_defs(const tgt_def *defs, size_t n);

/* --offload=in|auto|near|core: where each region run goes (§4.3; core:
 * the paper's Base, near: its Near-L3, in: In-L3 with the strm nodes). */
enum inc_offload { INC_OFFLOAD_IN = 0, INC_OFFLOAD_AUTO, INC_OFFLOAD_NEAR, INC_OFFLOAD_CORE };
extern const char *const inc_offload_names[4];

/* run.c */
/* Where each region run goes (t->near): Eq. 2 (emu_eq2_model) under
 * --offload=auto, every run that can under near (one that cannot is an
 * error naming its node).  0, or -1 with d set. */
int inc_decide(tgt *t, diag *d);
/* Eq. 2 of region run r as the decision takes it (the JIT's model). */
void inc_eq2(const tgt *t, size_t r, emu_eq2 *e);
/* The region run that starts at command i and goes near memory, or -1;
 * inc_near_run runs it (its nodes' streams, --check's comparisons) and
 * moves the machine past its commands. */
long inc_near_at(const tgt *t, size_t i);
tgt_status inc_near_run(tgt *t, size_t r, diag *d);
tgt_status inc_run(tgt *t, diag *d);
tgt_status inc_check(tgt *t, diag *d);
const char *inc_report(const tgt *t);
void inc_summary(tgt *t, char *buf, size_t size);
/* Command pc of the machine has just run: its references, node check,
 * check points and strm node.  TGT_OK, TGT_DIFFERS or TGT_FAILED. */
tgt_status inc_after_cmd(tgt *t, size_t i, diag *d);
/* Before the first command: the check points that hold at the start. */
tgt_status inc_start(tgt *t, diag *d);
/* Pass each line of text to the front's warnings. */
void inc_warn_lines(const tgt *t, const char *text);

/* stats.c */
void inc_stats(tgt *t, tgt_stat *root);

/* step.c: the debugger's hooks, filled into tgt_stream. */
enum { INC_NUNITS = 4 };
extern const tgt_unit inc_units[INC_NUNITS];
tgt_status inc_step(tgt *t, unsigned u, diag *d);
bool inc_ended(const tgt *t);
uint64_t inc_count(const tgt *t, unsigned u);
bool inc_where(tgt *t, unsigned u, tgt_loc *loc);
const char *inc_source(const tgt *t);
bool inc_lookup(tgt *t, const char *name, tgt_sym *out);
uint64_t inc_read(tgt *t, const tgt_sym *s, uint64_t index);
tgt_status inc_write(tgt *t, const tgt_sym *s, uint64_t index, uint64_t bits, diag *d);
void inc_names(tgt *t, void (*each)(void *ctx, const char *name), void *ctx);
tgt_status inc_break_parse(tgt *t, const char *spec, tgt_bp *bp, diag *d);
bool inc_break_hit(tgt *t, const tgt_bp *bp);
tgt_snap *inc_save(tgt *t, diag *d);
tgt_status inc_restore(tgt *t, const tgt_snap *s, diag *d);
void inc_snap_free(tgt_snap *s);
size_t inc_snap_bytes(const tgt_snap *s);

#endif
