/* SPDX-License-Identifier: MIT */
/*
 * vima_int.h: what the files of emu/vima/ share and nobody else needs.
 */
#ifndef INFSIM_VIMA_INT_H
#define INFSIM_VIMA_INT_H

#include "vima.h"

/* Postfix code of integer expressions (expr.c). */
enum { VIMA_C_NUM, VIMA_C_VAR, VIMA_C_ADD, VIMA_C_SUB, VIMA_C_MUL, VIMA_C_DIV,
       VIMA_C_MOD, VIMA_C_NEG };

/* The value of c with loop variables vars.  0, or -1 with *why a static
 * message (overflow, division by zero). */
int vima_eval(const vima_program *p, vima_code c, const int64_t *vars,
	      int64_t *out, const char **why);

/* exec.c: move pc over the loop statements (counting them against the
 * step limit) up to the next instruction or host store, as vima_step
 * does before running one.  1 there (pc->next is it), 0 at the end, or
 * -1 with a located message in d (pc->next is the statement at fault).
 * On a copy of u->pc it tells where the next step will stop. */
int vima_advance(const vima_unit *u, vima_pc *pc, diag *d);

/* unit.c: a whole copy of a unit's state (a snapshot).  clone makes dst
 * (0, or -1 with d); assign copies src into dst, a unit of the same
 * program and line count. */
int vima_unit_clone(vima_unit *dst, const vima_unit *src, diag *d);
void vima_unit_assign(vima_unit *dst, const vima_unit *src);

/* mmu.c: address translation and permissions (§III-C).  The virtual
 * address of element index of array a; false when it is outside the
 * 64-bit address space. */
bool vima_va(const vima_program *p, int a, int64_t index, uint64_t *va);
/* Build u->pt from the program's arrays.  0, or -1 out of memory. */
int vima_mmu_init(vima_unit *u);
/* Translate the len bytes at va (within one or two pages) for access
 * need (VIMA_PERM_R and/or VIMA_PERM_W): 0 with the physical address in
 * *pa, or 1 (a page fault) with why (as "in a read-only page") in
 * why[0..n). */
int vima_translate(const vima_unit *u, uint64_t va, uint64_t len, unsigned need, uint64_t *pa,
		   char *why, size_t n);

/* cache.c: the vector cache (§III-D). */
/* The line holding byte address tag (a multiple of the line size), or -1. */
int vima_cache_find(const vima_unit *u, uint64_t tag);
/* Look up the line at tag for reading: a hit, or a miss that evicts the
 * LRU line (written back if dirty) and fills from DRAM.  The line. */
vima_line *vima_cache_read(vima_unit *u, uint64_t tag);
/* Commit the fill buffer as the whole line at tag (no fill: the write
 * covers the line).  The fill buffer and the line swap storage. */
void vima_cache_commit(vima_unit *u, uint64_t tag);
/* Write a dirty line back (if dirty) and drop it (a host write). */
void vima_cache_writeback(vima_unit *u, vima_line *l, uint64_t *why);
/* Write back every dirty line (the end of a run). */
void vima_cache_flush(vima_unit *u);

/* dram.c: sub-requests and their time (§III-D, Table I). */
void vima_dram_line(vima_unit *u, uint64_t addr, bool write);
/* Move the batch into the write buffer: it leaves with the next batch. */
void vima_dram_defer(vima_unit *u);
/* The time of the sub-requests issued since the last call, with the write
 * buffer's, in VIMA cycles; both are emptied. */
uint64_t vima_dram_batch_cycles(vima_unit *u);
/* The cycles an FU takes on a vector of vbytes. */
uint64_t vima_fu_cycles(vima_fu fu, bool fp, unsigned vbytes);
/* Add static energy for cycles of run time. */
void vima_energy_static(vima_stats *s, uint64_t cycles);
/* Count bytes of host DRAM traffic, and one access to a cache line. */
void vima_host_dram(vima_unit *u, uint64_t bytes);
void vima_cache_energy(vima_unit *u);

/* host.c: the host's caches and coherence (§III-C, §III-D). */
#define VIMA_HOST_LINE 64u
/* Write back (and drop) the host's dirty lines in [addr, addr+len). */
void vima_host_writeback(vima_unit *u, uint64_t addr, uint64_t len);
/* A host store of size bytes at addr (coherent: a vector-cache line
 * holding addr is written back and invalidated first). */
void vima_host_store(vima_unit *u, uint64_t addr, const uint8_t *v, unsigned size);
/* A host load: the host caches, else the vector cache, else DRAM. */
void vima_host_load(vima_unit *u, uint64_t addr, uint8_t *v, unsigned size, bool count);

/* ref.c: the independent meaning of a program for --check: every unit
 * (instruction or host store) in program order on one flat memory. */
typedef struct vima_writer {
	uint64_t seq;          /* the unit's number, from 1 (0: never written) */
	uint64_t num;          /* the VIMA instruction's or host store's, from 1 */
	uint32_t stmt;
} vima_writer;

typedef struct vima_reference {
	const vima_program *p;
	unsigned vbytes;
	uint8_t *mem, *tmp;
	size_t next;
	int64_t vars[VIMA_NEST_MAX], hi[VIMA_NEST_MAX], step[VIMA_NEST_MAX];
	uint64_t steps, max_steps, units, insns, hosts;
	vima_writer *lines;    /* per vector line: the instruction that last wrote it */
	uint64_t nlines;
	uint64_t *keys;        /* elements host stores and mad wrote: address + 1 */
	vima_writer *vals;
	size_t cap, used;
} vima_reference;

/* Start from memory mem (p->mem_bytes: the unit's after its init).  0,
 * or -1 with d. */
int vima_ref_init(vima_reference *r, const vima_program *p, const uint8_t *mem, uint64_t max_steps,
		  diag *d);
void vima_ref_free(vima_reference *r);
/* A whole copy (a snapshot); 0, or -1 out of memory. */
int vima_ref_clone(vima_reference *dst, const vima_reference *src);
/* Run the loop statements and then one unit: 1 (*stmt is the unit's
 * statement), 2 when that unit raised a page fault (nothing of it done),
 * 0 at the end, or -1 with d. */
int vima_ref_step(vima_reference *r, size_t *stmt, diag *d);
/* The unit that last wrote the element at addr (seq 0: none did). */
vima_writer vima_ref_writer(const vima_reference *r, uint64_t addr);

#endif
