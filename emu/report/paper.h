/* SPDX-License-Identifier: MIT */
/*
 * paper.h: a run's statistics as infinity-stream §7 reports them (prefix
 * emu_paper_): the cycle breakdown of Fig 14, the traffic of Figs 12 and
 * 13 in bytes and bytes x hops, commands and cycles per tDFG node and per
 * region, and the fraction of operations done on bitlines.
 * doc/USAGE.md, "The paper's statistics", defines every quantity.
 */
#ifndef INFSIM_PAPER_H
#define INFSIM_PAPER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "api.h"
#include "machine.h"
#include "report.h"
#include "stats.h"

INFSIM_BEGIN_DECLS

/* Fig 14's parts of a run's cycles. */
typedef enum emu_paper_part {
	EMU_PAPER_TRANSPOSE = 0, /* the transpose unit, data in and out */
	EMU_PAPER_COMPUTE,       /* compute commands, and constants written to bitlines */
	EMU_PAPER_INTRA,         /* intra-tile (intra-array) shifts */
	EMU_PAPER_INTER,         /* inter-tile shifts and broadcasts */
	EMU_PAPER_SYNC,          /* the barriers */
	EMU_PAPER_FINAL_REDUCE,  /* a reduction's steps across tiles */
	EMU_PAPER_JIT,           /* the JIT's work, modelled per node and per
				  * command (tdfg_stats.h), never measured */
	EMU_PAPER_NEAR_MEM,      /* strm streams at the banks (gathers; the cost model
				  * of doc/TDFG.md, "strm nodes") */
	EMU_PAPER_MIX,           /* transposes between the arrays and the streams */
	EMU_PAPER_PARTS
} emu_paper_part;

/* Figs 12 and 13's kinds of traffic. */
typedef enum emu_paper_traffic {
	EMU_TRAFFIC_INTRA = 0,   /* intra-tile shifts (bitline to bitline) */
	EMU_TRAFFIC_INTER_BANK,  /* inter-tile shifts inside a bank (H-tree) */
	EMU_TRAFFIC_INTER_NOC,   /* inter-tile shifts over the NoC */
	EMU_TRAFFIC_DATA,        /* data in and out of the arrays (transpose unit) */
	EMU_TRAFFIC_STREAM_OFFLOAD, /* strm streams: between SE_L3s (NSC Fig 12's classes) */
	EMU_TRAFFIC_STREAM_CONTROL, /* strm streams: config, credit, done, end, ... */
	EMU_TRAFFIC_STREAM_DATA,    /* strm streams: values to and from the core */
	EMU_TRAFFIC_KINDS
} emu_paper_traffic;

/* The system clock of infinity-stream Table 2. */
#define EMU_PAPER_CLOCK_HZ 2.0e9
/* The JIT's cycles per command and L3 bank (§4.2's step 3): infsim's
 * choice, `infsim run --lat-jit-cmd`. */
#define EMU_PAPER_LAT_JIT_CMD 4u

/* A group of commands: a tDFG node (its line) or a region. */
typedef struct emu_paper_group {
	char label[96];
	uint64_t runs, commands, cycles;
} emu_paper_group;

typedef struct emu_paper {
	uint64_t cycles[EMU_PAPER_PARTS];
	uint64_t bytes[EMU_TRAFFIC_KINDS], byte_hops[EMU_TRAFFIC_KINDS];
	/* compute commands, and of those the ones outside a final reduce */
	uint64_t ops, ops_bitlines;
	/* Fig 14's dots, "the percentage of ops offloaded to bitlines" (§8):
	 * operations on elements (Eq. 2's N_elem x N_op).  A compute command
	 * outside a final reduce does one on each element it selects (its
	 * arrays x its bitlines): elem_bitlines; one inside a final reduce
	 * stands for the paper's near-memory final reduce: elem_final; a
	 * near-memory stream's operations (the engines' count, emu/nsc):
	 * elem_near. */
	uint64_t elem_bitlines, elem_final, elem_near;
	emu_paper_group *nodes, *regions;  /* owned; NULL outside a tDFG */
	size_t nnodes, nregions;
	/* Eq. 2 (§4.3) for each region as written, at its first run. */
	struct emu_paper_eq2 {
		char region[64];
		int line;
		uint64_t n_elem, n_op, n_node, lat_ops, lat_jit, mem;
		double tp_core, core;
		bool in_memory;
		/* lat_ops is the JIT's model (what decides, §4.3); lat_ops_run
		 * the cycles its commands took in this run (0 near memory) */
		uint64_t lat_ops_run;
		char offload[8];           /* --offload: in, auto, near */
		uint64_t runs, runs_near;  /* its runs; those near memory */
	} *eq2;                            /* owned */
	size_t neq2;
} emu_paper;

/* A tDFG's strm streams (emu/tdfg/strm.c): near-memory and final-reduce
 * cycles of the cost model, the transposes they made (moved from
 * transpose to mix), and their traffic by class (offload, control, data). */
void emu_paper_streams(emu_paper *p, uint64_t near, uint64_t final, uint64_t ttu,
		       const uint64_t bytes[3], const uint64_t byte_hops[3]);
/* Add ops operations of near-memory streams (elem_near). */
void emu_paper_stream_ops(emu_paper *p, uint64_t ops);
/* Add Eq. 2's record e (copied).  0, or -1 when out of memory. */
int emu_paper_eq2_add(emu_paper *p, const struct emu_paper_eq2 *e);

/* The breakdown of em's run, cc[0..n) each command's cycles (report.h).
 * final (NULL: none) marks the commands of a final reduce; jit_cycles are
 * the JIT's modelled cycles (0 for a stream). */
void emu_paper_collect(emu_paper *p, const emu_machine *em, const emu_cmd_cycles *cc,
		       size_t n, const uint8_t *final, uint64_t jit_cycles);
/* Count command i (cycles cc[i]) into group g of the array *gs (grown to
 * at least g + 1 entries, labelled label when new).  0, or -1 when out of
 * memory. */
int emu_paper_group_add(emu_paper_group **gs, size_t *ng, size_t g, const char *label,
			uint64_t cycles);
void emu_paper_free(emu_paper *p);

/* Text, after `--stats`'s other tables; JSON, the "paper" member of
 * `--stats=json` (without a trailing comma or newline). */
void emu_paper_text(FILE *f, const emu_paper *p);
void emu_paper_json(FILE *f, const emu_paper *p);
/* emu_report_stats_json_cmds with the "paper" member (left out when pp
 * is NULL). */
void emu_report_stats_json_paper(FILE *f, const emu_machine *em, const emu_cmd_cycles *cc,
				 size_t n, const emu_paper *pp);
const char *emu_paper_part_name(unsigned part);
const char *emu_paper_traffic_name(unsigned kind);

/* emu_report_stats_tree's what: the list of commands too. */
enum { EMU_TREE_COMMANDS = 1 };

/* The statistics of em's run as the tree of stats.h, under root (the
 * caller adds "format", "system" and "program"): "machine", "totals",
 * "by_command", "by_bank", "bank_skips", "transpose_unit", "movement"
 * (when commands moved data), "commands" (cc[0..ncmds), with
 * EMU_TREE_COMMANDS and cc) and "paper" (pp, when not NULL): the keys
 * and numbers of emu_report_stats_json_paper, and what the text report
 * adds, labelled in words. */
void emu_report_stats_tree(tgt_stat *root, const emu_machine *em, const emu_cmd_cycles *cc,
			   size_t ncmds, const emu_paper *pp, unsigned what);

INFSIM_END_DECLS

#endif
