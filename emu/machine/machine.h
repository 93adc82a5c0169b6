/* SPDX-License-Identifier: MIT */
/*
 * machine.h: executing a command stream on the SRAM model (prefix emu_).
 *
 * An emu_machine owns the SRAM state of one emu_program and runs its
 * commands.  For each command it
 *   1. expands the command's array and bitline patterns into enable masks
 *      (what the bank controller does, infinity-stream §5.2),
 *   2. marks the banks and ways whose arrays the command selects (the
 *      others skip it: §4.2 step 3),
 *   3. builds the micro-program once (isa_build), and
 *   4. runs it: at full speed (emu_run_cmd), or one micro-op at a time
 *      (emu_stepi), which the debugger uses.  Both run the same micro-ops
 *      through the same executor, so they produce identical bits.
 * The transpose unit (emu_ttu_*) moves element vectors in and out of the
 * transposed layout and counts the cycles it spends.
 */
#ifndef INFSIM_MACHINE_H
#define INFSIM_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "diag.h"
#include "isa.h"
#include "program.h"
#include "sram.h"

INFSIM_BEGIN_DECLS

typedef struct emu_stats {
	sram_count total;                /* all compute commands */
	sram_count by_op[ISA_OP_COUNT];  /* by command kind */
	/* The baseline latency (isa_baseline_cycles) of the same commands,
	 * next to total.cycles, which is the latency they ran with: the
	 * optimised one when the machine has latency=optimised. */
	uint64_t base_cycles;
	uint64_t base_by_op[ISA_OP_COUNT];
	uint64_t cmds_by_op[ISA_OP_COUNT];
	sram_count *by_bank;             /* nbanks entries */
	uint64_t commands;               /* commands executed */
	uint64_t bank_skips;             /* (command, bank) pairs skipped */
	uint64_t ttu_cycles;             /* transpose unit, in and out */
	uint64_t ttu_bits;               /* bits moved by the transpose unit */
	uint64_t move_commands;          /* of commands, the moves (in total) */
	unsigned nbanks;
} emu_stats;

typedef struct emu_machine {
	sram_machine *m;
	const emu_program *prog;
	emu_stats st;
	/* execution position */
	size_t pc;          /* the command being run, or the next one */
	size_t upc;         /* next micro-op of command pc (0: not started) */
	isa_prog up;        /* micro-program of command pc once started */
	uint8_t *way_on;    /* ways that run command pc */
	uint8_t *bank_on;   /* banks that run command pc */
	sram_count cur;     /* cost of command pc so far */
	/* Data-dependent latency (duality-cache §3.1.2).  With optimised
	 * set, a command whose micro-program depends on the data
	 * (isa_data_dependent) runs on each bank under that bank's own
	 * controller: the wired-OR it decides on spans the bank's selected
	 * bitlines, so banks may run different micro-op sequences (traces),
	 * and the command's latency is the longest trace.  up then holds the
	 * longest trace (what the debugger shows). */
	bool optimised;
	bool dd;            /* command pc runs per-bank traces */
	isa_prog *trace;    /* nbanks traces of command pc, when dd */
	sram_count *bank_cur; /* each bank's cost of command pc so far */
	sram_machine *shadow; /* scratch copy used to find traces before stepping */
	/* Moves and hazards (doc/MOVEMENT.md): every move runs through the
	 * mover (its statistics: mover->st, mover->net.st); every command,
	 * compute or move, is checked by the hazard tracker first. */
	struct emu_hazards *hz;  /* hazard.h */
	struct emu_mover *mover; /* move.h */
	bool hazard_stop;   /* the last failure was a hazard in strict mode */
	/* Bookkeeping that cannot fail its caller (the transpose unit's
	 * cycles, the hazard record of a load) ran out of memory: the
	 * statistics or the hazard record are incomplete.  The next
	 * emu_run_cmd, emu_stepi or emu_init_buffers reports it;
	 * emu_machine_failed tells a caller that runs nothing more. */
	bool oom;
} emu_machine;

/* Hazards as errors (infsim run --strict): the first one stops the run
 * before its command, with d set.  Call before running anything.
 * 0, or -1 when out of memory. */
int emu_machine_set_strict(emu_machine *em, bool strict);

/* A machine for p, with all SRAM cleared.  NULL with d set on failure. */
/* Can this host hold a machine of geometry g?  Its SRAM model
 * (sram_host_bytes) is compared with the host's physical memory
 * (sysconf _SC_PHYS_PAGES), so that a machine too large is refused at
 * once with a message rather than when an allocation or the kernel
 * fails.  0, or -1 with d set (path names the stream). */
int emu_machine_check_host(const sram_geom *g, const char *path, diag *d);
emu_machine *emu_machine_new(const emu_program *p, diag *d);
void emu_machine_free(emu_machine *em);

/* Apply each buffer's init= directive through the transpose unit. */
int emu_init_buffers(emu_machine *em, diag *d);
/* 0, or -1 with d set when em->oom: call it after emu_ttu_store and
 * emu_ttu_load, which have no error path of their own. */
int emu_machine_failed(const emu_machine *em, diag *d);

/* The transpose unit.  Element i of buffer b (values[i], n-bit patterns
 * in the low bits) goes to its bitline, bit k to wordline wl + k.
 * count may be less than the buffer's length (the rest is untouched).
 * Each returns the cycles spent: one wordline write (or read) per cycle
 * per array, the arrays of a bank served one after another by the
 * bank's unit, banks in parallel (doc/MACHINE.md). */
uint64_t emu_ttu_store(emu_machine *em, const emu_buffer *b,
		       const uint64_t *values, uint64_t count);
uint64_t emu_ttu_load(emu_machine *em, const emu_buffer *b, uint64_t *values,
		      uint64_t count);
/* Read a whole buffer without charging the transpose unit (the port
 * that checks and the debugger use). */
void emu_buffer_read(const emu_machine *em, const emu_buffer *b, uint64_t *values);
/* One element, read or written through the array's normal port. */
uint64_t emu_elem_get(const emu_machine *em, const emu_buffer *b, uint64_t i);
void emu_elem_set(emu_machine *em, const emu_buffer *b, uint64_t i, uint64_t v);

/* Is the program finished? */
bool emu_done(const emu_machine *em);
/* Run the rest of the current command (or the next whole command) at full
 * speed.  Returns 0, 1 when the program had already ended, or -1 on an
 * allocation failure (d set). */
int emu_run_cmd(emu_machine *em, diag *d);
/* Run one micro-op of the current command, starting it if needed; when
 * its last micro-op has run, the command is finished and pc moves on.
 * A move steps too: an intra-array shift or a constant micro-op by
 * micro-op (em->up holds them); a transfer or a sync, which has none, in
 * one step (move.h).  Same return values as emu_run_cmd. */
int emu_stepi(emu_machine *em, diag *d);
/* Run to the end: whole commands, or micro-op by micro-op if stepi. */
int emu_run_all(emu_machine *em, bool stepi, diag *d);

/* The micro-program of command i (built on demand into *p). */
int emu_cmd_uprog(const emu_machine *em, size_t i, isa_prog *p);

/* Global array number of (bank, way, array-in-way) and back. */
unsigned emu_array_index(const sram_machine *m, unsigned bank, unsigned way,
			 unsigned array);
unsigned emu_bank_of_array(const sram_machine *m, unsigned array);

INFSIM_END_DECLS

#endif
