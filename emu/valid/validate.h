/* SPDX-License-Identifier: MIT */
/*
 * validate.h: validating a command stream against the tDFG it was
 * lowered from (prefix emu_valid_), whoever lowered it.
 * doc/TDFG.md, "Validating a stream", is the reference.
 *
 * infinity-stream §3-§4: a JIT turns a tDFG into a stream of bit-serial
 * commands; the tDFG says what every node means, the stream says how the
 * SRAM computes it.  The stream's own reference model (refmodel.h) runs
 * the same commands and so agrees with any command that is wrong by
 * design (a wrong shift distance, a dropped piece).  Here the machine
 * runs the stream and each node's value, as the SRAM holds it, is
 * compared with the tDFG's meaning computed in plain C (emu_tref).
 *
 * The binding: a `node NAME [tensor=T] [run=N] [PARAM=VALUE]` marker in
 * the stream (program.h, emu_mark) says that once the commands before it
 * have run, tensor T (by default the one called NAME) holds node NAME.
 * Each marker is a check point.  In a program (arrays, control) a name
 * stands for an instance per run of its region; a marker holds the one
 * its name's previous marker held if the tensor still holds that value
 * (and is a copy, or was not written since), else the earliest later
 * instance (of the runs its selectors allow)
 * whose value the tensor holds (bind.c).  The runs that markers with
 * selectors fix, in the order the stream names them, are the order in
 * which the check points' reference runs the program's runs.
 * At the end of the stream every `output` node (a program's: as its last
 * run left it) is compared once more, through its last marker's tensor
 * or, without a marker, the tensor of its name; a single region's inputs
 * must be as they were; every array of a program is compared over its
 * whole lattice with what the program (in its own order) leaves in it;
 * and no cell of a tensor may have changed outside the domains of the
 * nodes the stream bound it to (a stray write), but in `scratch` tensors.
 *
 * A strm marker (`node NAME strm`) is a check point too, and where the
 * strm node's stream runs (emu_valid_strm): the stream says where, the
 * tDFG what (emu/tdfg/strm.c runs it on the machine's values), and the
 * node reference says independently what it should leave.
 *
 * The first check point that differs is reported with the first wrong
 * element of the node (row-major, so outermost index first), and the
 * stream is run again from the start to find the command that put a
 * wrong bit there (bisect.c, "Bisecting" in doc/TDFG.md).
 */
#ifndef INFSIM_VALIDATE_H
#define INFSIM_VALIDATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "check.h"
#include "diag.h"
#include "machine.h"
#include "program.h"
#include "tdfg.h"

INFSIM_BEGIN_DECLS

/* What the bisection found about the wrong bits of the node. */
typedef enum emu_valid_cause {
	EMU_VALID_OK = 0,
	EMU_VALID_WROTE,     /* `guilty` wrote a bit that ends wrong (a bit a
			      * sync delivered counts for the move that sent it;
			      * guilty_strm: the strm stream after it did) */
	EMU_VALID_IN_FLIGHT, /* no command of the node's window wrote them, but
			      * `guilty` sent them to another bank and no sync
			      * has delivered them yet */
	EMU_VALID_UNWRITTEN, /* no command of the node's window wrote them: a
			      * command that should is missing or writes
			      * elsewhere (`elsewhere`, when one wrote cells of
			      * the tensor outside the node's domain) */
	EMU_VALID_CLOBBER,   /* `consumer` (which wrote the wrong bits) read
			      * tensor clobbered_buf, which `guilty` overwrote
			      * after the marker that bound it */
	EMU_VALID_STRAY,     /* at the end: `guilty` (the last to change it;
			      * first_stray the first) wrote element
			      * stray_index of tensor stray_buf, outside every
			      * node the stream bound the tensor to */
} emu_valid_cause;

#define EMU_VALID_TEXT 2048

typedef struct emu_valid_report {
	emu_valid_cause cause;
	size_t node;           /* the node that differs (t->nodes index) */
	size_t at;             /* commands run at its check point */
	int mark_line;         /* its marker's stream line, 0 at the end */
	emu_mismatch mm;       /* its first wrong element (buf: the tensor) */
	/* Commands are numbered from 1, as --stats counts them; 0 is none.
	 * The node's window is commands window+1 .. at: those after the
	 * previous check point (of any node). */
	size_t window;
	size_t guilty;
	bool guilty_strm;      /* the wrong bits came from the strm stream
				* that runs after command `guilty` */
	int guilty_line;
	uint64_t guilty_index; /* the element whose bits it wrote or sent */
	size_t elsewhere;
	uint64_t elsewhere_index;
	/* The first wrong element: the last command of the window that
	 * changed it, and when that one only moves bits, the command that
	 * first put the value it ends with on its bitline; 0 for none. */
	size_t last_writer;
	size_t origin;
	/* EMU_VALID_UNWRITTEN: the command of the window that wrote where
	 * the bits should have been (fewer bits, other arrays, other
	 * wordlines, outside the domain), or 0. */
	size_t misplaced;
	/* A command of the node's window that computes another operation
	 * or type than the node (a sub in an add's reduction), or 0. */
	size_t wrong_op;
	/* EMU_VALID_CLOBBER */
	size_t consumer;
	int clobbered_buf;
	uint64_t clobbered_index, clobbered_was, clobbered_now;
	int clobbered_mark_line;
	size_t clobbered_node;
	/* EMU_VALID_STRAY */
	int stray_buf;
	uint64_t stray_index;
	size_t first_stray;
	/* "STREAM:LINE: error: ..." then "STREAM:LINE: note: ..." lines,
	 * each ending with a newline. */
	char text[EMU_VALID_TEXT];
} emu_valid_report;

typedef struct emu_valid emu_valid;

/* Bind t to p: the markers' nodes and tensors (same element type, the
 * region's sizes), then the outputs.  t takes p's controller settings
 * (fp=, cordic=), which decide what the commands compute, and its
 * inputs' init= as the assembler reads it.  NULL with d set (naming the
 * marker's line, or the output) when they do not fit. */
emu_valid *emu_valid_new(emu_tdfg *t, const emu_program *p, diag *d);
void emu_valid_free(emu_valid *v);
/* Data loaded into tensor b before the run (--load): the input node it
 * holds starts from them, and so does the bisection's rerun.  0, or -1
 * with d set. */
int emu_valid_load(emu_valid *v, const emu_buffer *b, const uint64_t *values, diag *d);
/* Each array's load= file (its first data, read as `infsim run` reads
 * it: a .npy, or a raw .bin) into the stream's tensor of the array's
 * name, as emu_valid_load would, for the arrays no emu_valid_load has
 * given data already.  emu_valid_run does this itself; a caller that
 * drives its own machine loads the same files into it.  0, or -1 with d
 * set (the file, or the array's line when the stream has no tensor of
 * its name). */
int emu_valid_load_arrays(emu_valid *v, diag *d);
/* The data given so far (emu_valid_load, emu_valid_load_arrays), in the
 * order given: load i's tensor in *b and its elements returned, NULL
 * past the last.  A caller that drives its own machine (a debugger
 * starting a run again) stores each into it after init=. */
const uint64_t *emu_valid_loaded(const emu_valid *v, size_t i, const emu_buffer **b);
/* Run the near-memory stream of every strm marker (`node NAME strm`,
 * doc/FORMAT.md) at em's position (em->pc commands run, none in
 * progress) not run yet, on em's values (emu_strm_exec_at; into ref too,
 * the stream's reference model, unless NULL), counted in st.  Call it
 * before emu_valid_at at the same position.  0, or -1 with d set (at the
 * tDFG's node). */
int emu_valid_strm(emu_valid *v, emu_machine *em, emu_ref *ref, emu_strm_stats *st, diag *d);
/* The strm marker after pc commands, or NULL: what a debugger names. */
const emu_mark *emu_valid_strm_mark(const emu_valid *v, size_t pc);
/* Compare every check point at em's position (em->pc commands run, none
 * in progress) not compared yet.  1 when they agree (or none is here), 0
 * when one differs (rep filled: bisected, on a machine of its own), -1
 * with d set when out of memory. */
int emu_valid_at(emu_valid *v, const emu_machine *em, emu_valid_report *rep, diag *d);
/* Skip to the first check point at or after pc commands: a debugger
 * that moved, or will compare only where it stands. */
void emu_valid_seek(emu_valid *v, size_t pc);
/* Check points compared so far, and in all. */
size_t emu_valid_compared(const emu_valid *v);
size_t emu_valid_points(const emu_valid *v);
/* Once every check point has held: the warnings that the check was
 * weaker than it looks (no marker, a node never checked, a node whose
 * every compared value was 0 or its value is one of its operands'), one
 * line each without "warning: ".  Their number, and warning i (NULL past
 * the last). */
size_t emu_valid_warnings(const emu_valid *v);
const char *emu_valid_warning(const emu_valid *v, size_t i);

/* Generated input sets (--inputs): each array of a program, and each
 * input of a single region, that the stream holds, given data made for
 * its element type: EMU_VALID_RANDOM, random bits (seeded by the set's
 * number), or EMU_VALID_EDGE, the type's edge values (0, 1, -1, the
 * extremes; for floats also signed zeros, infinities, NaN, subnormals)
 * mixed with random ones.  Loaded as emu_valid_load would.  0, or -1
 * with d set. */
typedef enum emu_valid_inputs { EMU_VALID_RANDOM = 0, EMU_VALID_EDGE } emu_valid_inputs;
int emu_valid_generate(emu_valid *v, emu_valid_inputs kind, uint64_t seed, diag *d);
/* Run the stream on a machine of its own from the data given so far
 * (init=, emu_valid_load, emu_valid_generate) and compare every check
 * point: as emu_valid_run, on a validator already made; it may be
 * called again (after emu_valid_generate), each time from the start,
 * the markers bound by value bound anew. */
int emu_valid_drive(emu_valid *v, emu_valid_report *rep, diag *d);

/* The whole validation, for a compiler's test suite: run p on a machine
 * of its own (init= applied, hazards as warnings) and compare every
 * check point.  The arrays' load= files are read (emu_valid_load_arrays).
 * 0 when every node agrees, 1 when one differs (rep filled), -1 with d
 * set on an error (bad binding, a load= file that cannot be read, out of
 * memory). */
int emu_valid_run(emu_tdfg *t, const emu_program *p, emu_valid_report *rep, diag *d);
/* The same from files: a stream (.ins or .inb) and a .tdfg, each on the
 * stream's machine. */
int emu_valid_files(const char *stream, const char *tdfg, emu_valid_report *rep, diag *d);

INFSIM_END_DECLS

#endif
