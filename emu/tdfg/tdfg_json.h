/* SPDX-License-Identifier: MIT */
/*
 * tdfg_json.h: the published Infinity Stream artifact's tDFG dumps
 * (prefix emu_tdfg_json_), read and mapped onto infsim's tDFG (tdfg.h).
 *
 * The artifact (a gem5 timing model) writes each tDFG it lowers as the
 * protobuf message LLVM.TDG.TDFG printed as JSON: a map of nodes keyed
 * by their id (as strings), and edges from a user to an operand.  Its
 * nodes carry no element type (the timing model needs only a size), so
 * the caller names one (f32, i32, ...) for the whole graph.
 *
 *   X.json --json-c--> DOM --emu_tdfg_json_parse--> emu_tdfg
 *          --emu_jit_lower--> the lowered stream, checked node by node
 *
 * doc/TDFG.md ("The published artifact's JSON") gives the schema and
 * the table of what each JSON node becomes.  A file that does not fit
 * the schema is reported once, naming the JSON path of the bad field
 * ("X.json: error: $.nodes["3"].compute.op: unknown OpCode ..."); a
 * JSON syntax error, or an integer beyond 64 bits, as FILE:LINE:COL.
 */
#ifndef INFSIM_TDFG_JSON_H
#define INFSIM_TDFG_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include "api.h"
#include "diag.h"
#include "tdfg.h"

INFSIM_BEGIN_DECLS

/* Bounds on what is read: the file's bytes, its nodes and edges, and
 * the nesting of its JSON values (the schema needs 6 levels). */
#define EMU_TDFG_JSON_MAX_BYTES (16u << 20)
#define EMU_TDFG_JSON_MAX_NODES 4096u
#define EMU_TDFG_JSON_MAX_EDGES 16384u
#define EMU_TDFG_JSON_MAX_DEPTH 16

/* Does path name an artifact tDFG dump (".json")? */
bool emu_tdfg_json_path(const char *path);

/* The element types a dump may be read as: the integers of 8, 16, 32 or
 * 64 bits (iN, uN) and f32, each with scalar_elem_size N/8 bytes.  0,
 * or -1 with *why a static explanation. */
int emu_tdfg_json_type(const char *type, unsigned *fmt, unsigned *width,
		       unsigned *is_signed, const char **why);

/* Parse the JSON text (len bytes) of path into out, every value of the
 * element type `type` (emu_tdfg_json_type).  geom_default and ov as for
 * emu_tdfg_parse.  0, or -1 with d set. */
int emu_tdfg_json_parse(const char *path, const char *text, size_t len,
			const char *type, const sram_geom *geom_default,
			const emu_geom_override *ov, emu_tdfg *out, diag *d);

/* Read the file at path (at most EMU_TDFG_JSON_MAX_BYTES) and parse it
 * into t, as emu_tdfg_parse_file does for a .tdfg (a stream is validated
 * against it, doc/TDFG.md "Validating a stream").  0, or -1 with d set. */
int emu_tdfg_json_parse_file(const char *path, const char *type,
			     const sram_geom *geom_default, const emu_geom_override *ov,
			     emu_tdfg *t, diag *d);
/* Read the file at path (at most EMU_TDFG_JSON_MAX_BYTES), parse it and
 * lower it with the JIT into j, as emu_tdfg_load does for a .tdfg.  0,
 * or -1 with d set. */
int emu_tdfg_json_load(const char *path, const char *type, const emu_geom_override *ov,
		       emu_tdfg *t, emu_jit *j, diag *d);

INFSIM_END_DECLS

#endif
