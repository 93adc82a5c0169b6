/* SPDX-License-Identifier: MIT */
/*
 * exec.c: running a .vima program: the loops, the host stores, and the
 * in-order sequencer that runs one VIMA instruction at a time (§III-C,
 * §III-D).
 *
 * An instruction (stop-and-go, one in flight):
 *   1. translate its operands (the destination on a line; the page
 *      table's permissions, mmu.c: a refused access is a page fault
 *      raised before the instruction leaves the host);
 *   2. coherence: the host's dirty lines inside its lines go to DRAM;
 *   3. tag check; the source lines that miss are fetched together;
 *   4. the FUs compute the result into the fill buffer;
 *   5. the status signal: a page fault (injected at instruction k) drops
 *      the fill buffer, so nothing of k is visible; otherwise the fill
 *      buffer becomes the destination's cache line, and the
 *      instruction commits.  The next one dispatches only then.
 */
#include <stdarg.h>
#include <string.h>

#include "vima_int.h"

/* The gap between two instructions (stop-and-go, §III-C): 4 CPU cycles at
 * 2 GHz: the status signal up to the core and the next instruction down
 * (Table I: "Inst. lat. 1 CPU cycle" each), the commit and the dispatch
 * from the MOB (one cycle each). */
#define GAP_CYCLES 2

static int fail(const vima_unit *u, const vima_stmt *s, int col, diag *d, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* A located message, with the values of the loops around the statement
 * ("(i = 4096, j = 3)"), so an address that goes wrong in one iteration
 * says which. */
static int fail(const vima_unit *u, const vima_stmt *s, int col, diag *d, const char *fmt, ...)
{
	const bool was = d->set;
	va_list ap;
	va_start(ap, fmt);
	diag_vat(d, u->p->path, s->line, col, fmt, ap);
	va_end(ap);
	const size_t at = (size_t)(s - u->p->stmts);
	size_t len = strlen(d->msg);
	const char *sep = " (";
	for (size_t f = 0; !was && f < at; f++) {
		const vima_stmt *l = &u->p->stmts[f];
		if (l->kind != VIMA_S_FOR || (size_t)l->other < at || len + 1 >= DIAG_MAX)
			continue;
		len += (size_t)snprintf(d->msg + len, DIAG_MAX - len, "%s%s = %lld", sep, l->name,
					(long long)u->pc.vars[l->var]);
		sep = ", ";
	}
	if (!was && *sep == ',' && len + 1 < DIAG_MAX)
		snprintf(d->msg + len, DIAG_MAX - len, ")");
	return -1;
}

static int eval_at(const vima_unit *u, const vima_pc *pc, const vima_stmt *s, vima_code c,
		   int col, int64_t *v, diag *d)
{
	const char *why;
	if (vima_eval(u->p, c, pc->vars, v, &why) < 0)
		return fail(u, s, col, d, "%s", why);
	return 0;
}

static int eval(vima_unit *u, const vima_stmt *s, vima_code c, int col, int64_t *v, diag *d)
{
	return eval_at(u, &u->pc, s, c, col, v, d);
}

/* The physical byte address of operand k: a whole vector (on a line
 * boundary when `line`) or one element, translated for access need
 * (VIMA_PERM_R, VIMA_PERM_W).  0; 1, a page fault, with u->fault_why
 * saying which access and why; or -1 with d. */
static int address(vima_unit *u, const vima_stmt *s, int k, bool vector, bool line,
		   unsigned need, uint64_t *addr, diag *d)
{
	const vima_ref *r = &s->ref[k];
	const vima_array *a = &u->p->arrays[r->array];
	const unsigned sz = vima_type_size(a->type);
	const int64_t n = vector ? u->vbytes / sz : 1;
	int64_t i;
	if (eval(u, s, r->index, r->col, &i, d) < 0)
		return -1;
	if (line && i % n != 0)
		return fail(u, s, r->col, d, "destination %s[%lld] does not start a vector line "
			    "(an index that is a multiple of %lld); VIMA writes whole lines",
			    a->name, (long long)i, (long long)n);
	uint64_t va;
	char why[96];
	if (!vima_va(u->p, r->array, i, &va))
		snprintf(why, sizeof why, "outside the address space");
	else if (vima_translate(u, va, (uint64_t)n * sz, need, addr, why, sizeof why) == 0)
		return 0;
	snprintf(u->fault_why, sizeof u->fault_why, "%s[%lld]: a %s of %llu bytes %s", a->name,
		 (long long)i, need == VIMA_PERM_R ? "read" : need == VIMA_PERM_W ? "write"
		 : "read and write", (unsigned long long)n * sz, why);
	return 1;
}

/* The lines a source vector at addr covers: one, or two when unaligned. */
static unsigned lines_of(const vima_unit *u, uint64_t addr, uint64_t tag[2])
{
	tag[0] = addr / u->vbytes * u->vbytes;
	tag[1] = tag[0] + u->vbytes;
	return addr == tag[0] ? 1 : 2;
}

/* The source vector at addr, through the cache. */
static const uint8_t *source(vima_unit *u, uint64_t addr, int k)
{
	uint64_t tag[2];
	if (lines_of(u, addr, tag) == 1)
		return vima_cache_read(u, tag[0])->data;
	const uint64_t off = addr - tag[0];
	memcpy(u->gather[k], vima_cache_read(u, tag[0])->data + off, u->vbytes - off);
	memcpy(u->gather[k] + (u->vbytes - off), vima_cache_read(u, tag[1])->data, off);
	return u->gather[k];
}

/* Operand addresses of s: dst (a line, or the scalar), up to two sources. */
typedef struct operands {
	uint64_t dst, src[2];
	unsigned nsrc;
} operands;

/* Translate s's operands: 0, 1 (a page fault), or -1 with d. */
static int resolve(vima_unit *u, const vima_stmt *s, operands *o, diag *d)
{
	const vima_form f = vima_op_info_of(s->op)->form;
	o->nsrc = f == VIMA_FORM_VV || f == VIMA_FORM_R ? 2 : f == VIMA_FORM_V ? 1 : 0;
	/* mad reads its destination too */
	int rc = address(u, s, 0, true, true,
			 f == VIMA_FORM_R ? VIMA_PERM_R | VIMA_PERM_W : VIMA_PERM_W, &o->dst, d);
	for (unsigned k = 0; rc == 0 && k < o->nsrc; k++)
		rc = address(u, s, (int)k + 1, true, false, VIMA_PERM_R, &o->src[k], d);
	if (rc == 0 && f == VIMA_FORM_I && s->imm_ref)
		rc = address(u, s, 1, false, false, VIMA_PERM_R, &o->src[0], d);
	if (rc != 0)
		return rc;
	/* Sources stay in the cache until the FUs read them; LRU never evicts
	 * a line this instruction has touched while it has fewer lines. */
	uint64_t tags[4];
	unsigned nt = 0;
	if (f == VIMA_FORM_R)
		tags[nt++] = o->dst;
	for (unsigned k = 0; k < o->nsrc; k++) {
		uint64_t t[2];
		for (unsigned j = 0, n = lines_of(u, o->src[k], t); j < n; j++) {
			unsigned q = 0;
			while (q < nt && tags[q] != t[j])
				q++;
			if (q == nt)
				tags[nt++] = t[j];
		}
	}
	if (nt > u->nlines)
		return fail(u, s, s->col, d, "the sources need %u cache lines at once; the "
			    "vector cache has %u", nt, u->nlines);
	return 0;
}

static void coherence(vima_unit *u, const operands *o)
{
	uint64_t t[2];
	vima_host_writeback(u, o->dst, u->vbytes);
	for (unsigned k = 0; k < o->nsrc; k++)
		for (unsigned j = 0, n = lines_of(u, o->src[k], t); j < n; j++)
			vima_host_writeback(u, t[j], u->vbytes);
}

static void charge(vima_unit *u, uint64_t *part, uint64_t c)
{
	*part += c;
	u->st.cycles += c;
	vima_energy_static(&u->st, c);
}

static int insn(vima_unit *u, const vima_stmt *s, diag *d)
{
	const vima_op_info *in = vima_op_info_of(s->op);
	const unsigned sz = vima_type_size(s->type);
	operands o;
	const int tr = resolve(u, s, &o, d);
	if (tr < 0)
		return -1;
	if (tr > 0) { /* the host's translation refused it: it never reaches the unit */
		u->fault_insn = u->st.insns + 1;
		return VIMA_STEP_FAULT;
	}
	coherence(u, &o);
	charge(u, &u->st.cyc_tag, 1);
	uint64_t imm = s->imm;
	if (in->form == VIMA_FORM_I && s->imm_ref)
		vima_host_load(u, o.src[0], (uint8_t *)&imm, sz, true); /* little-endian host */
	if (in->form == VIMA_FORM_R) /* the destination's line, the addend, read first */
		memcpy(u->fill, vima_cache_read(u, o.dst)->data, u->vbytes);
	const uint8_t *a = o.nsrc > 0 ? source(u, o.src[0], 0) : NULL;
	const uint8_t *b = o.nsrc > 1 ? source(u, o.src[1], 1) : NULL;
	charge(u, &u->st.cyc_dram, vima_dram_batch_cycles(u));
	vima_op_exec(s->op, s->type, u->vbytes / sz, u->fill, a, b, &imm);
	charge(u, &u->st.cyc_xfer, u->vbytes == VIMA_VECTOR ? 8 : 1);
	const bool fp = vima_type_is_float(s->type);
	uint64_t fu = vima_fu_cycles(in->fu, fp, u->vbytes);
	if (in->form == VIMA_FORM_R) /* the products, then the sums */
		fu += vima_fu_cycles(VIMA_FU_ALU, fp, u->vbytes);
	charge(u, &u->st.cyc_fu, fu);
	if (u->ro.fault_at == u->st.insns + 1) {
		u->fault_insn = u->st.insns + 1;
		u->fault_why[0] = '\0';
		return VIMA_STEP_FAULT; /* the fill buffer is dropped */
	}
	/* the write buffer holds one line: one still there from the last
	 * commit (no miss of this instruction took it) leaves now */
	charge(u, &u->st.cyc_dram, vima_dram_batch_cycles(u));
	vima_cache_commit(u, o.dst);
	vima_dram_defer(u);
	charge(u, &u->st.cyc_gap, GAP_CYCLES);
	u->st.insns++;
	u->st.by_op[s->op]++;
	return VIMA_STEP_OK;
}

static int host(vima_unit *u, const vima_stmt *s, diag *d)
{
	uint64_t dst, src = 0, v = s->imm;
	const unsigned sz = vima_type_size(s->type);
	int rc = s->imm_ref ? address(u, s, 1, false, false, VIMA_PERM_R, &src, d) : 0;
	if (rc == 0)
		rc = address(u, s, 0, false, false, VIMA_PERM_W, &dst, d);
	if (rc < 0)
		return -1;
	if (rc > 0) {
		u->fault_host = u->st.host_stmts + 1;
		return VIMA_STEP_FAULT;
	}
	if (s->imm_ref)
		vima_host_load(u, src, (uint8_t *)&v, sz, true);
	vima_host_store(u, dst, (const uint8_t *)&v, sz);
	charge(u, &u->st.cyc_dram, vima_dram_batch_cycles(u));
	u->st.host_stmts++;
	return VIMA_STEP_OK;
}

/* ---- loops ---- */

static int loop_enter(const vima_unit *u, vima_pc *pc, const vima_stmt *s, diag *d)
{
	int64_t lo, hi, step;
	if (eval_at(u, pc, s, s->lo, s->col, &lo, d) < 0 || eval_at(u, pc, s, s->hi, s->col, &hi, d) < 0 ||
	    eval_at(u, pc, s, s->step, s->col, &step, d) < 0)
		return -1;
	if (step <= 0)
		return fail(u, s, s->col, d, "the loop's step is %lld; expected a positive step",
			    (long long)step);
	pc->vars[s->var] = lo;
	pc->hi[s->var] = hi;
	pc->step[s->var] = step;
	pc->next = lo < hi ? pc->next + 1 : (size_t)s->other + 1;
	return 0;
}

static void loop_end(vima_pc *pc, const vima_stmt *s)
{
	int64_t *v = &pc->vars[s->var];
	const int64_t hi = pc->hi[s->var], step = pc->step[s->var];
	/* v + step < hi, without overflow (hi - v is positive and fits
	 * unsigned) */
	if (*v < hi && (uint64_t)hi - (uint64_t)*v > (uint64_t)step) {
		*v += step;
		pc->next = (size_t)s->other + 1;
	} else {
		pc->next++;
	}
}

/* Count statement pc->next against the step limit. */
static int count_step(const vima_unit *u, vima_pc *pc, diag *d)
{
	const uint64_t max = u->ro.max_steps ? u->ro.max_steps : VIMA_STEPS_MAX;
	const vima_stmt *s = &u->p->stmts[pc->next];
	if (++pc->steps > max)
		return fail(u, s, s->col, d, "more than %llu statements run; stopped (a "
			    "larger --max-steps allows more)", (unsigned long long)max);
	return 0;
}

int vima_advance(const vima_unit *u, vima_pc *pc, diag *d)
{
	const vima_program *p = u->p;
	while (pc->next < p->nstmts) {
		const vima_stmt *s = &p->stmts[pc->next];
		if (s->kind == VIMA_S_INSN || s->kind == VIMA_S_HOST)
			return 1;
		if (count_step(u, pc, d) < 0)
			return -1;
		if (s->kind == VIMA_S_END)
			loop_end(pc, s);
		else if (loop_enter(u, pc, s, d) < 0)
			return -1;
	}
	return 0;
}

int vima_step(vima_unit *u, diag *d)
{
	int rc = vima_advance(u, &u->pc, d);
	if (rc <= 0) {
		u->pc.done = rc == 0;
		return rc < 0 ? -1 : VIMA_STEP_END;
	}
	const vima_stmt *s = &u->p->stmts[u->pc.next];
	if (count_step(u, &u->pc, d) < 0)
		return -1;
	rc = s->kind == VIMA_S_INSN ? insn(u, s, d) : host(u, s, d);
	if (rc == VIMA_STEP_OK)
		u->pc.next++;
	else if (rc == VIMA_STEP_FAULT)
		u->fault_stmt = (int)u->pc.next;
	return rc;
}

int vima_run(vima_unit *u, diag *d)
{
	int rc;
	while ((rc = vima_step(u, d)) == VIMA_STEP_OK)
		;
	return rc;
}
