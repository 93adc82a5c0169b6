/* SPDX-License-Identifier: MIT */
/*
 * report.h: what `infsim run` prints (prefix emu_report_): statistics as
 * text or JSON, and the description of the first wrong element.
 */
#ifndef INFSIM_REPORT_H
#define INFSIM_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "api.h"
#include "machine.h"
#include "check.h"
#include "refmodel.h"

INFSIM_BEGIN_DECLS

/* Statistics: cycles and micro-ops (reads, writes, logic, activations)
 * by command kind, by bank and in total, and the transpose unit. */
void emu_report_stats_text(FILE *f, const emu_machine *em);
void emu_report_stats_json(FILE *f, const emu_machine *em);

/* One executed command's cycles (duality-cache §3.1.2: under
 * latency=optimised each bank runs its own data-dependent trace):
 * baseline, the latency of the static micro-program; cycles, what the
 * command took, its longest bank's; shortest, its shortest bank's; banks,
 * the banks that ran it.  Under latency=baseline all three are equal. */
typedef struct emu_cmd_cycles {
	uint64_t baseline, cycles, shortest;
	unsigned banks;
} emu_cmd_cycles;

/* `infsim run --stats=commands`: one line per executed command, cc[i]
 * for command i (its index from 1, source line, the three counts, and
 * its canonical text), then the totals. */
void emu_report_commands_text(FILE *f, const emu_machine *em,
			      const emu_cmd_cycles *cc, size_t n);
/* emu_report_stats_json with a "commands" list of cc[0..n) (left out
 * when cc is NULL). */
void emu_report_stats_json_cmds(FILE *f, const emu_machine *em,
				const emu_cmd_cycles *cc, size_t n);

/* "BUF[i]: expected V (0x..), got W (0x..); bits that differ: ..." with
 * the values shown by the buffer's signedness and the differing bits.
 * emu_report_mismatch prints "WHAT: " and that line; _text writes the
 * line without a newline into buf and returns what snprintf would. */
void emu_report_mismatch(FILE *f, const char *what, const emu_mismatch *mm);
int emu_report_mismatch_text(char *buf, size_t size, const emu_mismatch *mm);
/* "A[5]" for a buffer's element; "T[1][0] (element 4)" for a tensor's,
 * its indexes outermost first as in C, then its row-major number. */
void emu_report_element_name(const emu_buffer *b, uint64_t index, char *buf, size_t size);

/* `infsim run --check`.  _cmd: after command i, compare the buffers it
 * wrote (d and d2); _all: compare every buffer (at the end of a run,
 * where a write outside a command's destination shows).  true when the
 * machine and the reference model agree; otherwise d gets one line,
 * "FILE:LINE: error: --check: after command N 'TEXT', ...", naming the
 * command, its canonical text (emu_format_cmd) and the first wrong
 * element (emu_report_mismatch_text). */
bool emu_report_check_cmd(const emu_ref *r, const emu_machine *em, size_t i,
			  diag *d);
bool emu_report_check_all(const emu_ref *r, const emu_machine *em, diag *d);

/* A command kind's name in the statistics: its mnemonic, with ".f" or
 * ".q" when an integer command shares it ("add", "add.f"). */
const char *emu_report_op_label(unsigned op, char *buf, size_t size);

/* The machine's sizes ("infsim info"): text, or JSON when json. */
void emu_report_geom(FILE *f, const sram_geom *g, bool json);

INFSIM_END_DECLS

#endif
