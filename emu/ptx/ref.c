/* SPDX-License-Identifier: MIT */
/*
 * ref.c: the PTX reference (doc/PTX.md, "The reference"): a launch run
 * CTA after CTA, each CTA's threads one at a time.  A thread runs until
 * it exits or reaches a bar.sync, shfl.sync, vote.sync; a warp's
 * collective is resolved once every live thread of the warp waits at
 * it, a barrier once every thread of the CTA does.  Every memory access
 * is checked against its space; every error names the thread and the
 * instruction's line.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa.h"
#include "ptx_int.h"

enum { T_RUN, T_WAIT, T_DONE };

typedef struct thr {
	uint64_t *r;
	uint8_t *local;
	uint32_t pc, lin;
	uint8_t st;
	ptx_dim3 tid;
} thr;

typedef struct run {
	const ptx_module *m;
	const ptx_kernel *k;
	const ptx_launch *l;
	ptx_mem *mem;
	uint8_t *params, *globals, *consts, *shared;
	thr *t;
	uint32_t nt;
	ptx_dim3 cta;
	uint64_t steps, max;
	diag *d;
	ptx_where *w;
} run;

static int fail(run *R, const thr *t, const ptx_ins *in, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(run *R, const thr *t, const ptx_ins *in, const char *fmt, ...)
{
	char what[700];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	diag_at(R->d, R->m->path, in ? in->line : 0, in ? in->col : 0,
		"thread (%u,%u,%u) of CTA (%u,%u,%u): %s", t->tid.x, t->tid.y, t->tid.z,
		R->cta.x, R->cta.y, R->cta.z, what);
	if (R->w) {
		R->w->cta = R->cta;
		R->w->tid = t->tid;
		R->w->line = in ? in->line : 0;
	}
	return -1;
}

static uint64_t load_le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;
	for (unsigned i = n; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

static void store_le(uint8_t *p, unsigned n, uint64_t v)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static const char *space_name(unsigned s)
{
	static const char *const n[] = {"generic", "global", "shared", "local", "param", "const"};
	return n[s];
}

/* The bytes of an access of n bytes at addr in space s, or NULL with
 * the error recorded. */
static uint8_t *locate(run *R, thr *t, const ptx_ins *in, unsigned s, uint64_t addr, unsigned n)
{
	const ptx_module *m = R->m;
	if (m->address_bits == 32)
		addr &= 0xffffffffu;
	if (addr % n) {
		fail(R, t, in, "%s access of %u bytes at 0x%" PRIx64 " is misaligned", space_name(s), n, addr);
		return NULL;
	}
	struct { unsigned s; uint64_t base, size; uint8_t *p; } w[] = {
		{PS_GLOBAL, PTX_WIN_GLOBALS, m->global_bytes, R->globals},
		{PS_CONST, PTX_WIN_CONST, m->const_bytes, R->consts},
		{PS_SHARED, PTX_WIN_SHARED, R->k->shared_bytes, R->shared},
		{PS_LOCAL, PTX_WIN_LOCAL, R->k->local_bytes, t->local},
	};
	bool in_windows = addr >= PTX_WIN_GLOBALS && addr < PTX_WIN_END;
	for (size_t i = 0; i < 4; i++) {
		if (s != PS_GENERIC && s != w[i].s)
			continue;
		if (addr >= w[i].base && addr - w[i].base < w[i].size && w[i].size - (addr - w[i].base) >= n)
			return w[i].p + (addr - w[i].base);
		if (s == w[i].s && (s != PS_GLOBAL || in_windows)) {
			fail(R, t, in, "%s access of %u bytes at 0x%" PRIx64 " is outside %s space [0x%" PRIx64 ", 0x%" PRIx64 ")",
			     space_name(s), n, addr, space_name(s), w[i].base, w[i].base + w[i].size);
			return NULL;
		}
	}
	if ((s == PS_GLOBAL || s == PS_GENERIC) && !in_windows) {
		ptx_mem *mm = R->mem;
		if (addr >= mm->base && addr - mm->base < mm->size && mm->size - (addr - mm->base) >= n)
			return mm->bytes + (addr - mm->base);
		fail(R, t, in, "%s access of %u bytes at 0x%" PRIx64 " is outside global memory [0x%" PRIx64 ", 0x%" PRIx64 ")",
		     space_name(s), n, addr, mm->base, mm->base + mm->size);
		return NULL;
	}
	fail(R, t, in, "%s access of %u bytes at 0x%" PRIx64 " is in no space", space_name(s), n, addr);
	return NULL;
}

static uint64_t sreg(const run *R, const thr *t, const ptx_opnd *o)
{
	const ptx_dim3 *d3;
	switch (o->sreg) {
	case SR_TID: d3 = &t->tid; break;
	case SR_NTID: d3 = &R->l->block; break;
	case SR_CTAID: d3 = &R->cta; break;
	case SR_NCTAID: d3 = &R->l->grid; break;
	case SR_LANEID: return t->lin % 32;
	case SR_WARPID: return t->lin / 32;
	case SR_NWARPID: return (R->nt + 31) / 32;
	default: {
		unsigned lane = t->lin % 32;
		uint64_t eq = UINT64_C(1) << lane, lt = eq - 1;
		switch (o->sreg) {
		case SR_LANEMASK_EQ: return eq;
		case SR_LANEMASK_LT: return lt;
		case SR_LANEMASK_LE: return lt | eq;
		case SR_LANEMASK_GT: return ~(lt | eq) & 0xffffffffu;
		default: return ~lt & 0xffffffffu;
		}
	}
	}
	return o->dim == 0 ? d3->x : o->dim == 1 ? d3->y : d3->z;
}

static uint64_t val(const run *R, const thr *t, const ptx_opnd *o)
{
	switch (o->kind) {
	case OK_REG: {
		uint64_t v = t->r[o->r[0]];
		return o->neg ? !v : v;
	}
	case OK_IMM: return o->imm;
	case OK_SREG: return sreg(R, t, o);
	case OK_SYM: return R->m->v[o->var].addr;
	default: return 0;
	}
}

static void put(const run *R, thr *t, uint32_t r, uint64_t v)
{
	t->r[r] = v & isa_mask(R->k->regbits[r]);
}

/* An operand's address: register or variable, plus the offset. */
static uint64_t addr_of(const run *R, const thr *t, const ptx_opnd *o)
{
	uint64_t base = o->r[0] != PTX_NOREG ? t->r[o->r[0]] : o->var != PTX_NOVAR ? R->m->v[o->var].addr : 0;
	return base + (uint64_t)o->off;
}

/* A load's value as its register holds it: sign-extended for .sN. */
static uint64_t widen(unsigned ty, uint64_t v)
{
	return ptx_type_signed(ty) ? (uint64_t)isa_sext(v, ptx_type_bits(ty)) : v;
}

static int ld_st(run *R, thr *t, const ptx_ins *in)
{
	bool st = in->op == PO_ST;
	const ptx_opnd *a = &in->o[st ? 0 : 1], *v = &in->o[st ? 1 : 0];
	unsigned n = ptx_type_bits(in->type) / 8;
	uint8_t *p;
	if (in->space == PS_PARAM && a->var == PTX_NOVAR) {
		const ptx_kparam *kp = &R->k->p[a->imm - 1];
		int64_t off = a->off;
		if (off < 0 || (uint64_t)off + (uint64_t)n * in->vec > kp->size)
			return fail(R, t, in, "ld.param of %u bytes at offset %" PRId64 " is outside parameter '%s' (%u bytes)",
				    n * in->vec, off, kp->name, kp->size);
		p = R->params + kp->offset + off;
	} else {
		unsigned s = in->space == PS_PARAM ? PS_LOCAL : in->space;
		p = locate(R, t, in, s, addr_of(R, t, a), n * in->vec);
		if (!p)
			return -1;
	}
	for (unsigned e = 0; e < in->vec; e++) {
		uint32_t r = v->kind == OK_VEC ? v->r[e] : v->r[0];
		if (st)
			store_le(p + e * n, n, v->kind == OK_IMM ? v->imm : t->r[r]);
		else
			put(R, t, r, widen(in->type, load_le(p + e * n, n)));
	}
	return 0;
}

static int atom(run *R, thr *t, const ptx_ins *in)
{
	bool red = in->op == PO_RED;
	const ptx_opnd *a = &in->o[red ? 0 : 1];
	unsigned n = ptx_type_bits(in->type) / 8;
	uint8_t *p = locate(R, t, in, in->space, addr_of(R, t, a), n);
	if (!p)
		return -1;
	uint64_t old = load_le(p, n);
	uint64_t b = val(R, t, &in->o[red ? 1 : 2]), c = in->nops > 3 ? val(R, t, &in->o[3]) : 0;
	store_le(p, n, ptx_alu_atom(in, old, b, c));
	if (!red)
		put(R, t, in->o[0].r[0], widen(in->type, old));
	return 0;
}

static uint64_t work_item(const run *R, const thr *t, unsigned wi, uint32_t dim)
{
	if (dim > 2)
		return wi == PW_LOCAL_SIZE || wi == PW_NUM_GROUPS || wi == PW_GLOBAL_SIZE ? 1 : 0;
	uint32_t tid = dim == 0 ? t->tid.x : dim == 1 ? t->tid.y : t->tid.z;
	uint32_t nt = dim == 0 ? R->l->block.x : dim == 1 ? R->l->block.y : R->l->block.z;
	uint32_t c = dim == 0 ? R->cta.x : dim == 1 ? R->cta.y : R->cta.z;
	uint32_t nc = dim == 0 ? R->l->grid.x : dim == 1 ? R->l->grid.y : R->l->grid.z;
	switch (wi) {
	case PW_GLOBAL_ID: return (uint64_t)c * nt + tid;
	case PW_LOCAL_ID: return tid;
	case PW_GROUP_ID: return c;
	case PW_LOCAL_SIZE: return nt;
	case PW_NUM_GROUPS: return nc;
	case PW_GLOBAL_SIZE: return (uint64_t)nc * nt;
	default: return 0;
	}
}

static int call(run *R, thr *t, const ptx_ins *in)
{
	const ptx_var *ret = &R->m->v[in->o[0].var], *arg = &R->m->v[in->o[1].var];
	uint8_t *pa = locate(R, t, in, PS_LOCAL, arg->addr, 4);
	uint8_t *pr = pa ? locate(R, t, in, PS_LOCAL, ret->addr, R->m->address_bits / 8) : NULL;
	if (!pr)
		return -1;
	store_le(pr, R->m->address_bits / 8, work_item(R, t, in->mod, (uint32_t)load_le(pa, 4)));
	return 0;
}

static bool is_float_op(const ptx_ins *in)
{
	return ptx_type_float(in->type) || in->type == PT_F16X2;
}

/* One instruction of thread t.  0 (t->pc moved, or t waiting or done),
 * -1 with the error recorded. */
static int step(run *R, thr *t)
{
	const ptx_ins *in = &R->k->ins[t->pc];
	if (++R->steps > R->max)
		return fail(R, t, in, "the launch ran %" PRIu64 " instructions, the step bound (ptx_launch.max_steps): a runaway loop?",
			    R->max);
	if (in->guard != PTX_NOREG && (t->r[in->guard] != 0) == in->guard_neg) {
		t->pc++;
		return 0;
	}
	const ptx_opnd *o = in->o;
	uint64_t a = in->nops > 1 ? val(R, t, &o[1]) : 0, b = in->nops > 2 ? val(R, t, &o[2]) : 0,
		 c = in->nops > 3 ? val(R, t, &o[3]) : 0;
	uint32_t d = o[0].r[0];
	switch (in->op) {
	case PO_ADD: case PO_SUB: case PO_MUL: case PO_MAD: case PO_DIV: case PO_MIN: case PO_MAX:
	case PO_ABS: case PO_NEG:
		put(R, t, d, is_float_op(in) ? ptx_alu_float(in, a, b, c) : ptx_alu_int(in, a, b, c));
		break;
	case PO_AND: case PO_OR: case PO_XOR: case PO_NOT:
		if (in->type == PT_PRED)
			put(R, t, d, in->op == PO_AND ? (a & b) : in->op == PO_OR ? (a | b) : in->op == PO_XOR ? (a ^ b) : !a);
		else
			put(R, t, d, ptx_alu_int(in, a, b, c));
		break;
	case PO_REM: case PO_SAD: case PO_CNOT: case PO_SHL: case PO_SHR: case PO_SHF: case PO_POPC: case PO_CLZ:
	case PO_BREV: case PO_BFE: case PO_PRMT:
		put(R, t, d, ptx_alu_int(in, a, b, c));
		break;
	case PO_BFI:
		put(R, t, d, ptx_alu_bfi(in, a, b, c, val(R, t, &o[4])));
		break;
	case PO_FMA: case PO_RCP: case PO_SQRT: case PO_RSQRT: case PO_SIN: case PO_COS: case PO_EX2:
	case PO_LG2: case PO_COPYSIGN: case PO_TESTP:
		put(R, t, d, ptx_alu_float(in, a, b, c));
		break;
	case PO_SELP:
		put(R, t, d, c ? a : b);
		break;
	case PO_SETP: {
		bool r = ptx_alu_setp(in, a, b), p = r, q = !r;
		if (in->boolop) {
			bool e = c != 0;
			p = in->boolop == PB_AND ? r && e : in->boolop == PB_OR ? r || e : r != e;
			q = in->boolop == PB_AND ? !r && e : in->boolop == PB_OR ? !r || e : !r != e;
		}
		put(R, t, d, p);
		if (o[0].r[1] != PTX_NOREG)
			put(R, t, o[0].r[1], q);
		break;
	}
	case PO_MOV:
		if (o[0].kind == OK_VEC) { /* unpack */
			unsigned eb = R->k->regbits[o[0].r[0]];
			for (unsigned i = 0; i < o[0].n; i++)
				put(R, t, o[0].r[i], a >> (eb * i));
		} else if (o[1].kind == OK_VEC) { /* pack */
			unsigned eb = R->k->regbits[o[1].r[0]];
			uint64_t v = 0;
			for (unsigned i = 0; i < o[1].n; i++)
				v |= (t->r[o[1].r[i]] & isa_mask(eb)) << (eb * i);
			put(R, t, d, v);
		} else {
			put(R, t, d, a & isa_mask(ptx_type_bits(in->type)));
		}
		break;
	case PO_CVT:
		put(R, t, d, widen(in->type, ptx_alu_cvt(in, a)));
		break;
	case PO_CVTA: /* one address map: the identity (doc/PTX.md, "Memory") */
		put(R, t, d, a);
		break;
	case PO_LD: case PO_LDU: case PO_ST:
		if (ld_st(R, t, in) < 0)
			return -1;
		break;
	case PO_ATOM: case PO_RED:
		if (atom(R, t, in) < 0)
			return -1;
		break;
	case PO_CALL:
		if (call(R, t, in) < 0)
			return -1;
		break;
	case PO_BAR: case PO_BARRIER: case PO_SHFL: case PO_VOTE:
		t->st = T_WAIT; /* the scheduler moves it on */
		return 0;
	case PO_BRA:
		t->pc = (uint32_t)o[0].imm;
		return 0;
	case PO_RET: case PO_EXIT:
		t->st = T_DONE;
		return 0;
	default: /* membar, fence: one thread at a time needs no ordering */
		break;
	}
	t->pc++;
	return 0;
}

/* ---- collectives ---- */

static int shfl(run *R, thr *w, uint32_t n, const ptx_ins *in)
{
	uint64_t res[32];
	bool ok[32];
	for (uint32_t i = 0; i < n; i++) {
		thr *t = &w[i];
		if (t->st == T_DONE)
			continue;
		uint32_t mask = (uint32_t)val(R, t, &in->o[4]);
		uint32_t lane = i, bv = (uint32_t)val(R, t, &in->o[2]) & 31, cv = (uint32_t)val(R, t, &in->o[3]);
		uint32_t clamp = cv & 31, seg = (cv >> 8) & 31;
		uint32_t maxl = (lane & seg) | (clamp & ~seg), minl = lane & seg;
		int32_t j;
		bool pv;
		switch (in->mod) {
		case PM_UP: j = (int32_t)lane - (int32_t)bv; pv = j >= (int32_t)maxl; break;
		case PM_DOWN: j = (int32_t)(lane + bv); pv = j <= (int32_t)maxl; break;
		case PM_BFLY: j = (int32_t)(lane ^ bv); pv = j <= (int32_t)maxl; break;
		default: j = (int32_t)(minl | (bv & ~seg)); pv = j <= (int32_t)maxl; break;
		}
		if (!pv)
			j = (int32_t)lane;
		if (!(mask >> lane & 1))
			return fail(R, t, in, "shfl.sync's member mask 0x%08x leaves out the thread itself", mask);
		if ((uint32_t)j >= n || w[j].st == T_DONE || !(mask >> j & 1))
			return fail(R, t, in, "shfl.sync reads lane %d, which is not an active member of the warp", j);
		res[i] = w[j].r[in->o[1].kind == OK_REG ? in->o[1].r[0] : 0];
		if (in->o[1].kind != OK_REG)
			res[i] = val(R, &w[j], &in->o[1]);
		ok[i] = pv;
	}
	for (uint32_t i = 0; i < n; i++) {
		if (w[i].st == T_DONE)
			continue;
		put(R, &w[i], in->o[0].r[0], res[i]);
		if (in->o[0].r[1] != PTX_NOREG)
			put(R, &w[i], in->o[0].r[1], ok[i]);
	}
	return 0;
}

static int vote(run *R, thr *w, uint32_t n, const ptx_ins *in)
{
	uint32_t ballot = 0, members = 0;
	for (uint32_t i = 0; i < n; i++)
		if (w[i].st != T_DONE) {
			members |= UINT32_C(1) << i;
			if (val(R, &w[i], &in->o[1]))
				ballot |= UINT32_C(1) << i;
		}
	for (uint32_t i = 0; i < n; i++) {
		if (w[i].st == T_DONE)
			continue;
		uint32_t mask = (uint32_t)val(R, &w[i], &in->o[2]) & members;
		if (!(mask >> i & 1))
			return fail(R, &w[i], in, "vote.sync's member mask leaves out the thread itself");
		uint32_t b = ballot & mask;
		uint64_t r = in->mod == PM_BALLOT ? b : in->mod == PM_ALL ? b == mask : in->mod == PM_ANY ? b != 0
			: (b == 0 || b == mask);
		put(R, &w[i], in->o[0].r[0], r);
	}
	return 0;
}

/* A warp whose live threads all wait: at one shfl/vote, resolved (1);
 * at a barrier, left to the CTA (0); split, an error (-1). */
static int warp_collective(run *R, thr *w, uint32_t n, bool *progress)
{
	thr *first = NULL;
	for (uint32_t i = 0; i < n; i++) {
		if (w[i].st == T_RUN)
			return 0;
		if (w[i].st == T_WAIT && !first)
			first = &w[i];
	}
	if (!first)
		return 0;
	const ptx_ins *in = &R->k->ins[first->pc];
	bool coll = in->op == PO_SHFL || in->op == PO_VOTE;
	for (uint32_t i = 0; i < n; i++) {
		if (w[i].st != T_WAIT || w[i].pc == first->pc)
			continue;
		const ptx_ins *o = &R->k->ins[w[i].pc];
		bool ocoll = o->op == PO_SHFL || o->op == PO_VOTE;
		if (coll || ocoll)
			return fail(R, &w[i], o, "the warp diverged at a collective: this thread waits here (line %d), thread (%u,%u,%u) at line %d",
				    o->line, first->tid.x, first->tid.y, first->tid.z, in->line);
	}
	if (!coll)
		return 0;
	if ((in->op == PO_SHFL ? shfl(R, w, n, in) : vote(R, w, n, in)) < 0)
		return -1;
	for (uint32_t i = 0; i < n; i++)
		if (w[i].st == T_WAIT) {
			w[i].st = T_RUN;
			w[i].pc++;
		}
	*progress = true;
	return 0;
}

static int barrier(run *R)
{
	thr *first = NULL, *done = NULL;
	for (uint32_t i = 0; i < R->nt; i++) {
		if (R->t[i].st == T_WAIT && !first)
			first = &R->t[i];
		if (R->t[i].st == T_DONE && !done)
			done = &R->t[i];
	}
	if (!first)
		return 1; /* every thread has exited: the CTA is done */
	const ptx_ins *in = &R->k->ins[first->pc];
	if (done)
		return fail(R, first, in, "bar.sync is not reached by every thread of the CTA: thread (%u,%u,%u) has exited",
			    done->tid.x, done->tid.y, done->tid.z);
	for (uint32_t i = 0; i < R->nt; i++)
		if (R->t[i].pc != first->pc)
			return fail(R, &R->t[i], &R->k->ins[R->t[i].pc],
				    "this thread waits here (line %d) while thread (%u,%u,%u) waits at the bar.sync of line %d",
				    R->k->ins[R->t[i].pc].line, first->tid.x, first->tid.y, first->tid.z, in->line);
	for (uint32_t i = 0; i < R->nt; i++) {
		R->t[i].st = T_RUN;
		R->t[i].pc++;
	}
	return 0;
}

static int run_cta(run *R)
{
	const ptx_launch *l = R->l;
	for (uint32_t i = 0; i < R->nt; i++) {
		thr *t = &R->t[i];
		memset(t->r, 0, R->k->nregs * sizeof *t->r);
		memset(t->local, 0, R->k->local_bytes);
		t->pc = 0;
		t->st = T_RUN;
		t->lin = i;
		t->tid.x = i % l->block.x;
		t->tid.y = i / l->block.x % l->block.y;
		t->tid.z = i / l->block.x / l->block.y;
	}
	memset(R->shared, 0, R->k->shared_bytes);
	for (;;) {
		for (uint32_t i = 0; i < R->nt; i++)
			while (R->t[i].st == T_RUN)
				if (step(R, &R->t[i]) < 0)
					return -1;
		bool progress = false;
		for (uint32_t w = 0; w < R->nt; w += 32) {
			uint32_t n = R->nt - w < 32 ? R->nt - w : 32;
			if (warp_collective(R, &R->t[w], n, &progress) < 0)
				return -1;
		}
		if (progress)
			continue;
		int rc = barrier(R);
		if (rc != 0)
			return rc < 0 ? -1 : 0;
	}
}

static int check_launch(const ptx_module *m, const ptx_launch *l, const ptx_mem *mem, diag *d)
{
	if (l->kernel >= m->nk)
		return diag_file(d, m->path, "the launch names kernel %zu of %zu", l->kernel, m->nk), -1;
	const ptx_kernel *k = &m->k[l->kernel];
	if (l->nargs != k->np)
		return diag_file(d, m->path, "kernel '%s' takes %zu arguments, the launch gives %zu", k->name, k->np, l->nargs), -1;
	for (size_t i = 0; i < k->np; i++)
		if (k->p[i].size > 8)
			return diag_file(d, m->path, "parameter '%s' of %u bytes is not passed by a launch (8 at most)",
					 k->p[i].name, k->p[i].size), -1;
	uint64_t nt = (uint64_t)l->block.x * l->block.y * l->block.z;
	if (!l->grid.x || !l->grid.y || !l->grid.z || nt == 0 || nt > PTX_MAX_THREADS)
		return diag_file(d, m->path, "a launch has a grid of at least one CTA and 1 to %u threads a CTA", PTX_MAX_THREADS), -1;
	uint64_t lim = m->address_bits == 32 ? UINT64_C(1) << 32 : UINT64_MAX;
	if (mem->size && (!mem->bytes || mem->base > lim - mem->size ||
			  (mem->base < PTX_WIN_END && mem->base + mem->size > PTX_WIN_GLOBALS)))
		return diag_file(d, m->path, "global memory [0x%" PRIx64 ", +0x%" PRIx64 ") must lie in the %u-bit address space, outside [0x%x, 0x%x) where the reference places its other spaces",
				 mem->base, mem->size, m->address_bits, PTX_WIN_GLOBALS, PTX_WIN_END), -1;
	return 0;
}

int ptx_ref_run(const ptx_module *m, const ptx_launch *l, ptx_mem *mem, ptx_where *w, diag *d)
{
	if (check_launch(m, l, mem, d) < 0)
		return -1;
	run R;
	memset(&R, 0, sizeof R);
	R.m = m;
	R.k = &m->k[l->kernel];
	R.l = l;
	R.mem = mem;
	R.d = d;
	R.w = w;
	R.max = l->max_steps ? l->max_steps : PTX_DEFAULT_STEPS;
	R.nt = l->block.x * l->block.y * l->block.z;
	const ptx_kernel *k = R.k;
	int rc = -1;
	R.params = calloc(k->param_bytes + 1, 1);
	R.globals = calloc(m->global_bytes + 1, 1);
	R.consts = calloc(m->const_bytes + 1, 1);
	R.shared = calloc(k->shared_bytes + 1, 1);
	R.t = calloc(R.nt, sizeof *R.t);
	uint64_t *regs = calloc((size_t)R.nt * k->nregs + 1, sizeof *regs);
	uint8_t *local = calloc((size_t)R.nt * k->local_bytes + 1, 1);
	if (!R.params || !R.globals || !R.consts || !R.shared || !R.t || !regs || !local) {
		diag_file(d, m->path, "out of memory for the launch");
		goto out;
	}
	for (size_t i = 0; i < k->np; i++)
		store_le(R.params + k->p[i].offset, k->p[i].size, l->args[i]);
	for (size_t i = 0; i < m->nv; i++) {
		const ptx_var *v = &m->v[i];
		if (v->init && (v->space == PS_GLOBAL || v->space == PS_CONST))
			memcpy((v->space == PS_GLOBAL ? R.globals + (v->addr - PTX_WIN_GLOBALS)
				: R.consts + (v->addr - PTX_WIN_CONST)), v->init, v->size);
	}
	for (uint32_t i = 0; i < R.nt; i++) {
		R.t[i].r = regs + (size_t)i * k->nregs;
		R.t[i].local = local + (size_t)i * k->local_bytes;
	}
	rc = 0;
	for (uint32_t z = 0; z < l->grid.z && rc == 0; z++)
		for (uint32_t y = 0; y < l->grid.y && rc == 0; y++)
			for (uint32_t x = 0; x < l->grid.x && rc == 0; x++) {
				R.cta = (ptx_dim3){x, y, z};
				rc = run_cta(&R);
			}
out:
	free(R.params);
	free(R.globals);
	free(R.consts);
	free(R.shared);
	free(R.t);
	free(regs);
	free(local);
	return rc;
}
