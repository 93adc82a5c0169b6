/* SPDX-License-Identifier: MIT */
/*
 * parse.c: a PTX module (doc/PTX.md, "Grammar"): its header directives,
 * variables, .extern/.func declarations and .entry kernels with their
 * .reg declarations, scopes, labels, guards and instructions.  One pass
 * over the tokens with no recursion (scopes are a counter); labels are
 * resolved at the end of each kernel.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_int.h"

typedef struct rdecl {
	const char *name;
	size_t len;
	uint32_t base, count; /* count 0: a single register, not a %r<N> range */
	uint8_t bits;
	int depth;
} rdecl;

typedef struct lref {
	const char *name;
	size_t len;
	size_t ins;
	int line, col;
} lref;

typedef struct pstate {
	ptx_lex x;
	ptx_module *m;
	ptx_kernel *k;
	int kidx;
	size_t cap_ins;
	rdecl rd[512];
	size_t nrd;
	lref *labels, *refs; /* definitions (ins = index) and uses */
	size_t nlabels, nrefs;
	uint16_t *regparam;  /* register -> 1 + the parameter it came from */
	int depth;
	uint32_t call_bytes; /* call .params of the kernel, in local space */
} pstate;

#define X (&p->x)
#define T (&p->x.t)

static int next(pstate *p)
{
	return ptx_lex_next(X);
}

static int syntax(pstate *p, const char *what)
{
	if (T->kind == TK_EOF)
		return ptx_err(X, T->line, T->col, "expected %s, found the end of the text", what);
	return ptx_err(X, T->line, T->col, "expected %s, found '%.*s'", what,
		       (int)(T->len > 40 ? 40 : T->len), T->s);
}

static int refuse(pstate *p)
{
	return ptx_err(X, T->line, T->col, "'%.*s' is not in infsim's PTX subset (doc/PTX.md)",
		       (int)(T->len > 80 ? 80 : T->len), T->s);
}

static int expect(pstate *p, char c)
{
	if (!ptx_tok_punct(T, c)) {
		char what[8] = {'\'', c, '\'', 0};
		return syntax(p, what);
	}
	return next(p);
}

static char *dup_tok(const ptx_tok_t *t)
{
	char *s = malloc(t->len + 1);
	if (s) {
		memcpy(s, t->s, t->len);
		s[t->len] = 0;
	}
	return s;
}

static int oom(pstate *p)
{
	return ptx_err(X, T->line, T->col, "out of memory");
}

static bool same(const char *a, size_t an, const char *b, size_t bn)
{
	return an == bn && memcmp(a, b, an) == 0;
}

/* ---- header ---- */

static int number(pstate *p, uint64_t *v)
{
	if (T->kind != TK_NUM)
		return syntax(p, "a number");
	*v = T->num;
	return next(p);
}

/* .version M.N: the lexer reads "4.1" as 4 and the word ".1". */
static int version(pstate *p)
{
	if (next(p) < 0)
		return -1;
	uint64_t maj = 0;
	int line = T->line, col = T->col;
	if (number(p, &maj) < 0)
		return -1;
	if (T->kind != TK_ID || T->len < 2 || T->s[0] != '.' || T->line != line)
		return syntax(p, "the version's '.MINOR'");
	unsigned minor = 0;
	for (size_t i = 1; i < T->len; i++) {
		if (T->s[i] < '0' || T->s[i] > '9' || i > 3)
			return syntax(p, "the version's '.MINOR'");
		minor = minor * 10 + (unsigned)(T->s[i] - '0');
	}
	if (maj < 3 || maj > 8)
		return ptx_err(X, line, col, "'.version %u.%u' is not in infsim's PTX subset (doc/PTX.md)",
			       (unsigned)(maj > 99 ? 99 : maj), minor);
	p->m->version_major = (unsigned)maj;
	p->m->version_minor = minor;
	return next(p);
}

static int target(pstate *p)
{
	if (next(p) < 0)
		return -1;
	if (T->kind != TK_ID || T->len < 5 || memcmp(T->s, "sm_", 3) != 0)
		return syntax(p, "a target sm_NN");
	unsigned sm = 0;
	for (size_t i = 3; i < T->len; i++) {
		if (T->s[i] < '0' || T->s[i] > '9' || i > 5)
			return refuse(p);
		sm = sm * 10 + (unsigned)(T->s[i] - '0');
	}
	if (sm < 20)
		return refuse(p);
	p->m->sm = sm;
	if (next(p) < 0)
		return -1;
	while (ptx_tok_punct(T, ',')) {
		if (next(p) < 0)
			return -1;
		if (!ptx_tok_is(T, "texmode_independent") && !ptx_tok_is(T, "texmode_unified"))
			return refuse(p);
		if (next(p) < 0)
			return -1;
	}
	return 0;
}

/* ---- registers ---- */

static int reg_type(pstate *p, unsigned *bits, char *kind)
{
	static const char *const names[] = {".pred", ".b16", ".u16", ".s16", ".f16", ".b32", ".u32", ".s32",
					    ".f32", ".b64", ".u64", ".s64", ".f64"};
	static const uint8_t b[] = {1, 16, 16, 16, 16, 32, 32, 32, 32, 64, 64, 64, 64};
	for (size_t i = 0; i < sizeof b; i++)
		if (ptx_tok_is(T, names[i])) {
			*bits = b[i];
			*kind = names[i][1];
			return next(p);
		}
	if (T->kind == TK_ID && T->s[0] == '.')
		return refuse(p);
	return syntax(p, "a register type (.pred, .b32, .f32, ...)");
}

static int reg_decl(pstate *p)
{
	unsigned bits = 0;
	char kind = 'b';
	if (next(p) < 0 || reg_type(p, &bits, &kind) < 0)
		return -1;
	for (;;) {
		if (T->kind != TK_ID || T->s[0] == '.')
			return syntax(p, "a register name");
		if (p->nrd == sizeof p->rd / sizeof p->rd[0])
			return ptx_err(X, T->line, T->col, "more than %zu register declarations",
				       sizeof p->rd / sizeof p->rd[0]);
		rdecl *r = &p->rd[p->nrd];
		r->name = T->s;
		r->len = T->len;
		r->bits = (uint8_t)bits;
		r->depth = p->depth;
		r->count = 0;
		int line = T->line, col = T->col;
		if (next(p) < 0)
			return -1;
		uint32_t n = 1;
		if (ptx_tok_punct(T, '<')) {
			uint64_t v = 0;
			if (next(p) < 0 || number(p, &v) < 0 || expect(p, '>') < 0)
				return -1;
			if (v > PTX_MAX_REGS)
				return ptx_err(X, line, col, "more than %u registers in a kernel", PTX_MAX_REGS);
			n = (uint32_t)v;
			r->count = n;
		}
		if (p->k->nregs + n > PTX_MAX_REGS)
			return ptx_err(X, line, col, "more than %u registers in a kernel", PTX_MAX_REGS);
		r->base = p->k->nregs;
		ptx_regrange *nr = realloc(p->k->rr, (p->k->nrr + 1) * sizeof *nr);
		if (!nr)
			return oom(p);
		p->k->rr = nr;
		nr = &nr[p->k->nrr++];
		snprintf(nr->name, sizeof nr->name, "%.*s", (int)(r->len < 31 ? r->len : 31), r->name);
		nr->base = r->base;
		nr->count = r->count;
		nr->bits = (uint8_t)bits;
		nr->kind = kind;
		uint8_t *rb = realloc(p->k->regbits, p->k->nregs + n + 1);
		uint16_t *rp = realloc(p->regparam, (p->k->nregs + n + 1) * sizeof *rp);
		if (rb)
			p->k->regbits = rb;
		if (rp)
			p->regparam = rp;
		if (!rb || !rp)
			return oom(p);
		for (uint32_t i = 0; i < n; i++) {
			rb[p->k->nregs + i] = (uint8_t)bits;
			rp[p->k->nregs + i] = 0;
		}
		p->k->nregs += n;
		p->nrd++;
		if (!ptx_tok_punct(T, ','))
			break;
		if (next(p) < 0)
			return -1;
	}
	return expect(p, ';');
}

/* The register T names, or PTX_NOREG. */
static uint32_t reg_find(pstate *p)
{
	for (size_t i = p->nrd; i-- > 0;) {
		rdecl *r = &p->rd[i];
		if (r->count == 0) {
			if (same(T->s, T->len, r->name, r->len))
				return r->base;
			continue;
		}
		if (T->len <= r->len || memcmp(T->s, r->name, r->len) != 0)
			continue;
		uint64_t v = 0;
		size_t j = r->len;
		if (T->s[j] == '0' && T->len > j + 1)
			continue;
		for (; j < T->len && j - r->len < 6; j++) {
			if (T->s[j] < '0' || T->s[j] > '9')
				break;
			v = v * 10 + (uint64_t)(T->s[j] - '0');
		}
		if (j == T->len && v < r->count)
			return r->base + (uint32_t)v;
	}
	return PTX_NOREG;
}

/* ---- variables ---- */

static int var_find(pstate *p, const char *s, size_t n)
{
	for (size_t i = p->m->nv; i-- > 0;) {
		ptx_var *v = &p->m->v[i];
		if (!v->hidden && (v->kernel == -1 || v->kernel == p->kidx) && strlen(v->name) == n && memcmp(v->name, s, n) == 0)
			return (int)i;
	}
	return -1;
}

static int elem_type(pstate *p, unsigned *ty)
{
	static const char *const names[] = {".b8", ".b16", ".b32", ".b64", ".u8", ".u16", ".u32", ".u64",
					    ".s8", ".s16", ".s32", ".s64", ".f16", ".f32", ".f64"};
	for (unsigned i = 0; i < 15; i++)
		if (ptx_tok_is(T, names[i])) {
			*ty = PT_B8 + i;
			return next(p);
		}
	if (T->kind == TK_ID && T->s[0] == '.')
		return refuse(p);
	return syntax(p, "a type (.b8, .u32, .f32, ...)");
}

/* One initialiser value of type ty into b. */
static int init_value(pstate *p, unsigned ty, uint8_t *b)
{
	bool neg = false;
	if (ptx_tok_punct(T, '-')) {
		neg = true;
		if (next(p) < 0)
			return -1;
	}
	uint64_t v = 0;
	unsigned n = ptx_type_bits(ty) / 8;
	if (T->kind == TK_FNUM && ty == PT_F32 && T->len == 10) {
		v = T->num;
	} else if (T->kind == TK_FNUM && ty == PT_F64 && T->len == 18) {
		v = T->num;
	} else if (T->kind == TK_NUM && !ptx_type_float(ty)) {
		v = neg ? (uint64_t)0 - T->num : T->num;
	} else {
		return syntax(p, ptx_type_float(ty) ? "a float initialiser 0f/0d" : "an integer initialiser");
	}
	if (neg && T->kind == TK_FNUM)
		return syntax(p, "a float initialiser 0f/0d");
	for (unsigned i = 0; i < n; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	return next(p);
}

/* .global/.const/.shared/.local [.align N] .type name[[N]] [= init];
 * T is at the space directive.  kernel: -1 at module scope. */
static int var_decl(pstate *p, unsigned space, int kernel)
{
	if (next(p) < 0)
		return -1;
	uint64_t align = 0;
	if (ptx_tok_is(T, ".align")) {
		if (next(p) < 0 || number(p, &align) < 0)
			return -1;
		if (align == 0 || align > 256 || (align & (align - 1)))
			return ptx_err(X, T->line, T->col, "an alignment is a power of two up to 256");
	}
	unsigned ty;
	if (elem_type(p, &ty) < 0)
		return -1;
	if (T->kind != TK_ID || T->s[0] == '.' || T->s[0] == '%')
		return syntax(p, "a variable name");
	if (p->m->nv == PTX_MAX_VARS)
		return ptx_err(X, T->line, T->col, "more than %u variables", PTX_MAX_VARS);
	if (var_find(p, T->s, T->len) >= 0 && (kernel < 0 || p->m->v[var_find(p, T->s, T->len)].kernel == kernel) &&
	    space != PS_PARAM)
		return ptx_err(X, T->line, T->col, "'%.*s' is declared twice", (int)(T->len > 40 ? 40 : T->len), T->s);
	ptx_var *v = &p->m->v[p->m->nv];
	memset(v, 0, sizeof *v);
	v->name = dup_tok(T);
	if (!v->name)
		return oom(p);
	p->m->nv++;
	v->space = (uint8_t)space;
	v->kernel = kernel;
	v->depth = p->depth;
	unsigned esz = ptx_type_bits(ty) / 8;
	v->align = align ? (uint32_t)align : esz;
	int line = T->line, col = T->col;
	if (next(p) < 0)
		return -1;
	uint64_t count = 1;
	bool open_len = false;
	if (ptx_tok_punct(T, '[')) {
		if (next(p) < 0)
			return -1;
		if (ptx_tok_punct(T, ']')) {
			open_len = true;
			count = 0;
		} else if (number(p, &count) < 0) {
			return -1;
		}
		if (expect(p, ']') < 0)
			return -1;
		if (ptx_tok_punct(T, '['))
			return refuse(p);
	}
	uint64_t cap = space == PS_SHARED ? PTX_MAX_SHARED_BYTES : space == PS_LOCAL || space == PS_PARAM
		? PTX_MAX_LOCAL_BYTES : PTX_MAX_GLOBAL_BYTES;
	if (count > cap / esz)
		return ptx_err(X, line, col, "'%s' is larger than the %s space's %llu bytes", v->name,
			       space == PS_SHARED ? "shared" : space == PS_LOCAL || space == PS_PARAM ? "local" : "global",
			       (unsigned long long)cap);
	if (ptx_tok_punct(T, '=')) {
		if (space != PS_GLOBAL && space != PS_CONST)
			return ptx_err(X, T->line, T->col, "only .global and .const variables have initialisers");
		if (next(p) < 0)
			return -1;
		uint64_t room = open_len ? cap / esz : count;
		v->init = calloc(room ? room : 1, esz);
		if (!v->init)
			return oom(p);
		if (ptx_tok_punct(T, '{')) {
			uint64_t n = 0;
			if (next(p) < 0)
				return -1;
			for (;;) {
				if (n == room)
					return ptx_err(X, T->line, T->col, "more initialisers than '%s' has elements", v->name);
				if (init_value(p, ty, v->init + n * esz) < 0)
					return -1;
				n++;
				if (ptx_tok_punct(T, '}'))
					break;
				if (expect(p, ',') < 0)
					return -1;
			}
			if (next(p) < 0)
				return -1;
			if (open_len)
				count = n;
		} else {
			if (count != 1)
				return syntax(p, "'{' and the array's initialisers");
			if (init_value(p, ty, v->init) < 0)
				return -1;
		}
	} else if (open_len) {
		return ptx_err(X, line, col, "'%s[]' needs an initialiser to give its length", v->name);
	}
	v->size = (uint32_t)(count * esz);
	/* place it in its window */
	uint32_t *top = space == PS_GLOBAL ? &p->m->global_bytes : space == PS_CONST ? &p->m->const_bytes
		: space == PS_SHARED ? (kernel >= 0 ? &p->k->shared_bytes : NULL)
		: space == PS_LOCAL ? &p->k->local_bytes : &p->call_bytes;
	if (!top) {
		/* module-scope .shared: every kernel's CTA has it; placed below
		 * the kernels' own */
		top = &p->m->global_bytes;
		return ptx_err(X, line, col, "a module-scope .shared variable is not in infsim's PTX subset (doc/PTX.md); declare it in the kernel");
	}
	uint64_t at = (*top + v->align - 1) / v->align * v->align;
	if (at + v->size > cap)
		return ptx_err(X, line, col, "the %s space is full (%llu bytes)",
			       space == PS_SHARED ? "shared" : space == PS_LOCAL || space == PS_PARAM ? "local" : "global",
			       (unsigned long long)cap);
	*top = (uint32_t)(at + v->size);
	uint64_t win = space == PS_GLOBAL ? PTX_WIN_GLOBALS : space == PS_CONST ? PTX_WIN_CONST
		: space == PS_SHARED ? PTX_WIN_SHARED : PTX_WIN_LOCAL;
	v->addr = win + at;
	return expect(p, ';');
}

/* ---- operands ---- */

static int sreg(pstate *p, ptx_opnd *o)
{
	static const char *const names[] = {"%tid", "%ntid", "%ctaid", "%nctaid"};
	for (unsigned i = 0; i < 4; i++) {
		size_t n = strlen(names[i]);
		if (T->len == n + 2 && memcmp(T->s, names[i], n) == 0 && T->s[n] == '.' &&
		    T->s[n + 1] >= 'x' && T->s[n + 1] <= 'z') {
			o->kind = OK_SREG;
			o->sreg = (uint8_t)i;
			o->dim = (uint8_t)(T->s[n + 1] - 'x');
			return 1;
		}
	}
	static const char *const one[] = {"%laneid", "%warpid", "%nwarpid", "%lanemask_eq", "%lanemask_lt",
					  "%lanemask_le", "%lanemask_gt", "%lanemask_ge"};
	for (unsigned i = 0; i < 8; i++)
		if (ptx_tok_is(T, one[i])) {
			o->kind = OK_SREG;
			o->sreg = (uint8_t)(SR_LANEID + i);
			return 1;
		}
	return 0;
}

static int reg_operand(pstate *p, ptx_opnd *o, unsigned slot)
{
	if (T->kind != TK_ID || T->s[0] != '%')
		return syntax(p, "a register");
	uint32_t r = reg_find(p);
	if (r == PTX_NOREG) {
		if (sreg(p, o))
			return ptx_err(X, T->line, T->col, "'%.*s' is a special register, read only by mov",
				       (int)T->len, T->s);
		return ptx_err(X, T->line, T->col, "'%.*s' is not a declared register",
			       (int)(T->len > 40 ? 40 : T->len), T->s);
	}
	o->r[slot] = r;
	return next(p);
}

/* The symbol at T: a variable (OK_SYM with var), a kernel parameter
 * (var = PTX_NOVAR, imm = 1 + its index) or a label (OK_LABEL). */
static int symbol(pstate *p, ptx_opnd *o, bool label_ok)
{
	int v = var_find(p, T->s, T->len);
	if (v >= 0) {
		o->kind = OK_SYM;
		o->var = (uint32_t)v;
		return next(p);
	}
	for (size_t i = 0; i < p->k->np; i++)
		if (same(T->s, T->len, p->k->p[i].name, strlen(p->k->p[i].name))) {
			o->kind = OK_SYM;
			o->var = PTX_NOVAR;
			o->imm = i + 1;
			return next(p);
		}
	if (!label_ok)
		return ptx_err(X, T->line, T->col, "'%.*s' is not a declared variable or parameter",
			       (int)(T->len > 40 ? 40 : T->len), T->s);
	lref *r = realloc(p->refs, (p->nrefs + 1) * sizeof *r);
	if (!r)
		return oom(p);
	p->refs = r;
	r[p->nrefs++] = (lref){T->s, T->len, p->k->nins, T->line, T->col};
	o->kind = OK_LABEL;
	return next(p);
}

static int operand(pstate *p, ptx_opnd *o, bool dest)
{
	memset(o, 0, sizeof *o);
	o->r[0] = o->r[1] = PTX_NOREG;
	o->var = PTX_NOVAR;
	if (ptx_tok_punct(T, '!')) {
		o->neg = 1;
		if (next(p) < 0)
			return -1;
		o->kind = OK_REG;
		return reg_operand(p, o, 0);
	}
	if (ptx_tok_punct(T, '-') || T->kind == TK_NUM || T->kind == TK_FNUM) {
		bool neg = false;
		if (ptx_tok_punct(T, '-')) {
			neg = true;
			if (next(p) < 0)
				return -1;
		}
		if (T->kind == TK_FNUM) {
			if (neg)
				return syntax(p, "a number");
			o->fimm = T->len == 10 ? 32 : 64;
		} else if (T->kind != TK_NUM) {
			return syntax(p, "a number");
		}
		o->kind = OK_IMM;
		o->imm = neg ? (uint64_t)0 - T->num : T->num;
		return next(p);
	}
	if (ptx_tok_punct(T, '[')) {
		o->kind = OK_ADDR;
		if (next(p) < 0)
			return -1;
		if (T->kind == TK_ID && T->s[0] == '%') {
			if (reg_operand(p, o, 0) < 0)
				return -1;
		} else if (T->kind == TK_ID) {
			if (symbol(p, o, false) < 0)
				return -1;
			o->kind = OK_ADDR;
		} else if (T->kind == TK_NUM) {
			o->off = (int64_t)T->num;
			if (next(p) < 0)
				return -1;
			return expect(p, ']');
		} else {
			return syntax(p, "an address [reg], [reg+imm] or [symbol]");
		}
		if (ptx_tok_punct(T, '+')) {
			if (next(p) < 0)
				return -1;
			bool neg = false;
			if (ptx_tok_punct(T, '-')) {
				neg = true;
				if (next(p) < 0)
					return -1;
			}
			if (T->kind != TK_NUM || T->num > ((uint64_t)1 << 40))
				return syntax(p, "an address offset");
			o->off = neg ? -(int64_t)T->num : (int64_t)T->num;
			if (next(p) < 0)
				return -1;
		}
		return expect(p, ']');
	}
	if (ptx_tok_punct(T, '{')) {
		o->kind = OK_VEC;
		if (next(p) < 0)
			return -1;
		for (;;) {
			if (o->n == 4)
				return syntax(p, "'}' after at most 4 registers");
			if (reg_operand(p, o, o->n) < 0)
				return -1;
			o->n++;
			if (ptx_tok_punct(T, '}'))
				break;
			if (expect(p, ',') < 0)
				return -1;
		}
		return next(p);
	}
	if (T->kind != TK_ID || T->s[0] == '.')
		return syntax(p, "an operand");
	if (T->s[0] == '%') {
		if (reg_find(p) == PTX_NOREG && sreg(p, o))
			return next(p);
		o->kind = OK_REG;
		if (reg_operand(p, o, 0) < 0)
			return -1;
		if (dest && ptx_tok_punct(T, '|')) {
			if (next(p) < 0)
				return -1;
			return reg_operand(p, o, 1);
		}
		return 0;
	}
	return symbol(p, o, true);
}

/* ---- checking an instruction's operands ---- */

static int opnd_err(pstate *p, const ptx_ins *in, unsigned k, const char *what)
{
	return ptx_err(X, in->line, in->col, "operand %u of this instruction must be %s", k + 1, what);
}

static bool is_pred(const pstate *p, const ptx_opnd *o)
{
	return o->kind == OK_REG && p->k->regbits[o->r[0]] == 1;
}

/* The operand shapes of each op: d a value register written, s a value
 * register or immediate, p a predicate written, q a predicate read,
 * a an address, l a label, S anything mov reads, y a register or symbol. */
static const char *shape_of(const ptx_ins *in)
{
	switch (in->op) {
	case PO_ADD: case PO_SUB: case PO_MUL: case PO_DIV: case PO_REM: case PO_MIN: case PO_MAX:
	case PO_SHL: case PO_SHR: case PO_COPYSIGN:
		return "dss";
	case PO_AND: case PO_OR: case PO_XOR:
		return in->type == PT_PRED ? "pqq" : "dss";
	case PO_NOT:
		return in->type == PT_PRED ? "pq" : "ds";
	case PO_MAD: case PO_FMA: case PO_BFE: case PO_PRMT: case PO_SHF: case PO_SAD:
		return "dsss";
	case PO_BFI:
		return "dssss";
	case PO_ABS: case PO_NEG: case PO_CNOT: case PO_POPC: case PO_CLZ: case PO_BREV: case PO_RCP:
	case PO_SQRT: case PO_RSQRT: case PO_SIN: case PO_COS: case PO_EX2: case PO_LG2: case PO_CVT:
		return "ds";
	case PO_SELP:
		return "dssq";
	case PO_SETP:
		return in->boolop ? "pssq" : "pss";
	case PO_TESTP:
		return "ps";
	case PO_MOV:
		return in->type == PT_PRED ? "pq" : "VS";
	case PO_CVTA:
		return "dy";
	case PO_LD: case PO_LDU:
		return "Va";
	case PO_ST:
		return "aW";
	case PO_ATOM:
		return in->mod == PA_CAS ? "dass" : "das";
	case PO_RED:
		return "as";
	case PO_BAR: case PO_BARRIER:
		return in->nops ? "s" : "";
	case PO_SHFL:
		return "dssss";
	case PO_VOTE:
		return in->mod == PM_BALLOT ? "dqs" : "pqs";
	case PO_BRA:
		return "l";
	default:
		return "";
	}
}

static int check(pstate *p, ptx_ins *in)
{
	const char *sh = shape_of(in);
	size_t n = strlen(sh);
	if (in->op == PO_BAR || in->op == PO_BARRIER) {
		if (in->nops != 1)
			return ptx_err(X, in->line, in->col, "bar.sync takes one barrier number (a thread count is not in infsim's PTX subset)");
		if (in->o[0].kind != OK_IMM || in->o[0].imm != 0)
			return ptx_err(X, in->line, in->col, "'bar.sync %s' is not in infsim's PTX subset (doc/PTX.md); only barrier 0",
				       in->o[0].kind == OK_IMM ? "N" : "%r");
		return 0;
	}
	if (in->nops != n)
		return ptx_err(X, in->line, in->col, "this instruction takes %zu operands, not %u", n, in->nops);
	bool fl = ptx_type_float(in->type);
	for (unsigned k = 0; k < n; k++) {
		ptx_opnd *o = &in->o[k];
		bool pair = o->kind == OK_REG && o->r[1] != PTX_NOREG;
		if (pair && !((in->op == PO_SETP && k == 0) || (in->op == PO_SHFL && k == 0)))
			return opnd_err(p, in, k, "one register");
		if (o->neg && sh[k] != 'q')
			return opnd_err(p, in, k, "a register without '!'");
		switch (sh[k]) {
		case 'd':
			if (o->kind != OK_REG || is_pred(p, o))
				return opnd_err(p, in, k, "a value register");
			if (pair && p->k->regbits[o->r[1]] != 1)
				return opnd_err(p, in, k, "a register and a predicate, d|p");
			break;
		case 'p':
			if (o->kind != OK_REG || !is_pred(p, o) || (pair && p->k->regbits[o->r[1]] != 1))
				return opnd_err(p, in, k, "a predicate register");
			break;
		case 'q':
			if (!(o->kind == OK_REG && is_pred(p, o)) && !(o->kind == OK_IMM && !o->fimm && o->imm <= 1))
				return opnd_err(p, in, k, "a predicate");
			break;
		case 's':
			if (o->kind == OK_REG && !is_pred(p, o))
				break;
			if (o->kind == OK_IMM) {
				bool fslot = fl && !(in->op == PO_SHFL || ((in->op == PO_SHL || in->op == PO_SHR) && k == 2));
				if (in->op == PO_CVT || in->op == PO_TESTP)
					fslot = false;
				if (fslot && o->fimm != ptx_type_bits(in->type))
					return opnd_err(p, in, k, in->type == PT_F32 ? "a register or a 0fXXXXXXXX immediate"
							: "a register or a 0dXXXXXXXXXXXXXXXX immediate");
				if (!fslot && o->fimm)
					return opnd_err(p, in, k, "a register or an integer immediate");
				break;
			}
			return opnd_err(p, in, k, "a value register or an immediate");
		case 'V':
			if ((o->kind == OK_REG && !is_pred(p, o)) || (o->kind == OK_VEC && (in->op != PO_LD || o->n == in->vec)))
				break;
			return opnd_err(p, in, k, in->vec > 1 ? "a vector {..} of as many registers as .vN" : "a value register");
		case 'W':
			if ((o->kind == OK_REG && !is_pred(p, o) && in->vec == 1) || (o->kind == OK_VEC && o->n == in->vec) ||
			    (o->kind == OK_IMM && in->vec == 1))
				break;
			return opnd_err(p, in, k, in->vec > 1 ? "a vector {..} of as many registers as .vN" : "a value register or immediate");
		case 'S':
			if ((o->kind == OK_REG && !is_pred(p, o)) || o->kind == OK_IMM || o->kind == OK_SREG ||
			    o->kind == OK_VEC || (o->kind == OK_SYM && o->var != PTX_NOVAR))
				break;
			return opnd_err(p, in, k, "a register, immediate, special register or variable");
		case 'y':
			if ((o->kind == OK_REG && !is_pred(p, o)) || (o->kind == OK_SYM && o->var != PTX_NOVAR))
				break;
			return opnd_err(p, in, k, "a register or variable");
		case 'a':
			if (o->kind != OK_ADDR)
				return opnd_err(p, in, k, "an address [..]");
			break;
		case 'l':
			if (o->kind != OK_LABEL)
				return opnd_err(p, in, k, "a label");
			break;
		}
	}
	if (in->op == PO_MOV && in->o[0].kind == OK_VEC && in->o[1].kind == OK_VEC)
		return opnd_err(p, in, 1, "a register when the destination is a vector");
	if (in->op == PO_MOV && (in->o[0].kind == OK_VEC || in->o[1].kind == OK_VEC)) {
		const ptx_opnd *v = in->o[0].kind == OK_VEC ? &in->o[0] : &in->o[1];
		unsigned eb = p->k->regbits[v->r[0]];
		for (unsigned i = 0; i < v->n; i++)
			if (p->k->regbits[v->r[i]] != eb)
				return opnd_err(p, in, 0, "a vector of registers of one width");
		if (eb * v->n != ptx_type_bits(in->type))
			return opnd_err(p, in, 0, "a vector as wide as the type (mov.b64 {%r1, %r2})");
	}
	/* addresses: kernel parameters only through ld.param, call
	 * parameters only through ld/st.param */
	for (unsigned k = 0; k < n; k++) {
		ptx_opnd *o = &in->o[k];
		if (o->kind != OK_ADDR)
			continue;
		bool param_sym = o->r[0] == PTX_NOREG && o->var == PTX_NOVAR && o->imm;
		bool call_sym = o->var != PTX_NOVAR && p->m->v[o->var].space == PS_PARAM;
		if (in->space == PS_PARAM) {
			if (!param_sym && !call_sym)
				return opnd_err(p, in, k, "a parameter [name] or [name+imm]");
			if (param_sym && in->op != PO_LD)
				return ptx_err(X, in->line, in->col, "a kernel parameter is only read (ld.param)");
		} else if (param_sym || call_sym) {
			return ptx_err(X, in->line, in->col, "a .param is read by ld.param, not by '%s' of another space",
				       in->op == PO_ST ? "st" : in->op == PO_LD ? "ld" : "this");
		}
		if (o->r[0] != PTX_NOREG && p->k->regbits[o->r[0]] != p->m->address_bits)
			return opnd_err(p, in, k, p->m->address_bits == 64 ? "an address in a 64-bit register (.address_size 64)"
					: "an address in a 32-bit register (.address_size 32)");
	}
	return 0;
}

/* The kernel parameters a register holds, followed through the moves
 * and adds of pointer arithmetic, so ptx_param can say which are used as
 * addresses. */
static void track_params(pstate *p, const ptx_ins *in)
{
	uint16_t *rp = p->regparam;
	const ptx_opnd *o = in->o;
	if (in->op == PO_LD && in->space == PS_PARAM && o[0].kind == OK_REG && o[1].var == PTX_NOVAR && o[1].imm) {
		rp[o[0].r[0]] = (uint16_t)o[1].imm;
		ptx_kparam *kp = &p->k->p[o[1].imm - 1];
		if (ptx_type_float(in->type))
			kp->is_float = true;
		return;
	}
	if ((in->op == PO_ADD || in->op == PO_SUB || in->op == PO_MOV || in->op == PO_CVTA) && o[0].kind == OK_REG) {
		uint16_t src = 0;
		for (unsigned k = 1; k < in->nops && k < 3; k++)
			if (o[k].kind == OK_REG && rp[o[k].r[0]])
				src = rp[o[k].r[0]];
		if (in->op == PO_CVTA && src)
			p->k->p[src - 1].is_ptr = true;
		rp[o[0].r[0]] = src;
		return;
	}
	for (unsigned k = 0; k < in->nops; k++)
		if (o[k].kind == OK_ADDR && o[k].r[0] != PTX_NOREG && rp[o[k].r[0]])
			p->k->p[rp[o[k].r[0]] - 1].is_ptr = true;
	if (o[0].kind == OK_REG && in->op != PO_ST && in->op != PO_RED && in->op != PO_BRA)
		rp[o[0].r[0]] = 0;
}

/* ---- calls ---- */

static const struct {
	const char *name;
	uint8_t wi;
} work_items[] = {
	{"_Z13get_global_idj", PW_GLOBAL_ID}, {"_Z12get_local_idj", PW_LOCAL_ID},
	{"_Z12get_group_idj", PW_GROUP_ID}, {"_Z14get_local_sizej", PW_LOCAL_SIZE},
	{"_Z14get_num_groupsj", PW_NUM_GROUPS}, {"_Z15get_global_sizej", PW_GLOBAL_SIZE},
	{"_Z17get_global_offsetj", PW_GLOBAL_OFFSET},
};

/* call[.uni] (ret), name, (arg);  the only calls: an OpenCL work-item
 * function, with its call-sequence .params.  o[0] ret, o[1] arg (both
 * call .param variables), mod the function. */
static int call(pstate *p, ptx_ins *in)
{
	ptx_tok_t name_tok;
	if (expect(p, '(') < 0)
		return -1;
	if (T->kind != TK_ID)
		return syntax(p, "the return .param");
	if (symbol(p, &in->o[0], false) < 0)
		return -1;
	if (expect(p, ')') < 0 || expect(p, ',') < 0)
		return -1;
	name_tok = *T;
	if (T->kind != TK_ID)
		return syntax(p, "the called function");
	for (size_t i = 0; i < sizeof work_items / sizeof work_items[0]; i++)
		if (ptx_tok_is(T, work_items[i].name))
			in->mod = work_items[i].wi;
	if (!in->mod)
		return ptx_err(X, name_tok.line, name_tok.col,
			       "a call of '%.*s' is not in infsim's PTX subset (doc/PTX.md): only kernels with every function inlined, and OpenCL's work-item functions",
			       (int)(name_tok.len > 60 ? 60 : name_tok.len), name_tok.s);
	if (next(p) < 0 || expect(p, ',') < 0 || expect(p, '(') < 0)
		return -1;
	if (T->kind != TK_ID)
		return syntax(p, "the argument .param");
	if (symbol(p, &in->o[1], false) < 0)
		return -1;
	if (expect(p, ')') < 0)
		return -1;
	for (unsigned k = 0; k < 2; k++)
		if (in->o[k].var == PTX_NOVAR || p->m->v[in->o[k].var].space != PS_PARAM ||
		    p->m->v[in->o[k].var].size < (k ? 4u : p->m->address_bits / 8))
			return ptx_err(X, in->line, in->col, "a call's return value and argument are call-sequence .params");
	in->nops = 2;
	return 0;
}

/* ---- a kernel's body ---- */

static int add_ins(pstate *p, const ptx_ins *in)
{
	ptx_kernel *k = p->k;
	if (k->nins == PTX_MAX_INSNS)
		return ptx_err(X, in->line, in->col, "more than %u instructions in a kernel", PTX_MAX_INSNS);
	if (k->nins == p->cap_ins) {
		size_t cap = p->cap_ins ? p->cap_ins * 2 : 64;
		ptx_ins *n = realloc(k->ins, cap * sizeof *n);
		if (!n)
			return oom(p);
		k->ins = n;
		p->cap_ins = cap;
	}
	k->ins[k->nins++] = *in;
	return 0;
}

static int instruction(pstate *p)
{
	ptx_ins in;
	memset(&in, 0, sizeof in);
	in.guard = PTX_NOREG;
	in.line = T->line;
	in.col = T->col;
	if (ptx_tok_punct(T, '@')) {
		if (next(p) < 0)
			return -1;
		if (ptx_tok_punct(T, '!')) {
			in.guard_neg = true;
			if (next(p) < 0)
				return -1;
		}
		ptx_opnd g = {0};
		if (reg_operand(p, &g, 0) < 0)
			return -1;
		if (p->k->regbits[g.r[0]] != 1)
			return ptx_err(X, in.line, in.col, "a guard is a predicate register");
		in.guard = g.r[0];
	}
	if (T->kind != TK_ID || T->s[0] == '.' || T->s[0] == '%')
		return T->kind == TK_ID && T->s[0] == '.' ? refuse(p) : syntax(p, "an instruction");
	ptx_tok_t op = *T;
	if (ptx_decode_opcode(X, &op, &in) < 0)
		return -1;
	if (next(p) < 0)
		return -1;
	if (in.op == PO_CALL) {
		if (call(p, &in) < 0)
			return -1;
	} else if (!ptx_tok_punct(T, ';')) {
		for (;;) {
			if (in.nops == 5)
				return syntax(p, "';' (at most 5 operands)");
			if (operand(p, &in.o[in.nops], in.nops == 0) < 0)
				return -1;
			in.nops++;
			if (!ptx_tok_punct(T, ','))
				break;
			if (next(p) < 0)
				return -1;
		}
	}
	if (!ptx_tok_punct(T, ';'))
		return syntax(p, "';'");
	if (in.op != PO_CALL && check(p, &in) < 0)
		return -1;
	track_params(p, &in);
	if (add_ins(p, &in) < 0)
		return -1;
	return next(p);
}

static int label(pstate *p)
{
	for (size_t i = 0; i < p->nlabels; i++)
		if (same(p->labels[i].name, p->labels[i].len, T->s, T->len))
			return ptx_err(X, T->line, T->col, "label '%.*s' is defined twice", (int)(T->len > 40 ? 40 : T->len), T->s);
	if (p->nlabels == PTX_MAX_LABELS)
		return ptx_err(X, T->line, T->col, "more than %u labels in a kernel", PTX_MAX_LABELS);
	lref *l = realloc(p->labels, (p->nlabels + 1) * sizeof *l);
	if (!l)
		return oom(p);
	p->labels = l;
	l[p->nlabels++] = (lref){T->s, T->len, p->k->nins, T->line, T->col};
	if (next(p) < 0)
		return -1;
	return next(p); /* the ':' */
}

/* Leaving a scope forgets its registers' and call .params' names (their
 * storage stays, so a kernel's registers are numbered once). */
static void close_scope(pstate *p)
{
	while (p->nrd && p->rd[p->nrd - 1].depth >= p->depth)
		p->nrd--;
	for (size_t i = 0; i < p->m->nv; i++) {
		ptx_var *v = &p->m->v[i];
		if (v->kernel == p->kidx && v->depth >= p->depth)
			v->hidden = true;
	}
	p->depth--;
}

static int body(pstate *p)
{
	if (expect(p, '{') < 0)
		return -1;
	p->depth = 1;
	while (p->depth > 0) {
		if (T->kind == TK_EOF)
			return syntax(p, "'}' closing the kernel");
		if (ptx_tok_punct(T, '{')) {
			if (p->depth == PTX_MAX_DEPTH)
				return ptx_err(X, T->line, T->col, "scopes nested deeper than %d", PTX_MAX_DEPTH);
			p->depth++;
			if (next(p) < 0)
				return -1;
		} else if (ptx_tok_punct(T, '}')) {
			close_scope(p);
			if (next(p) < 0)
				return -1;
		} else if (ptx_tok_is(T, ".reg")) {
			if (reg_decl(p) < 0)
				return -1;
		} else if (ptx_tok_is(T, ".shared")) {
			if (var_decl(p, PS_SHARED, p->kidx) < 0)
				return -1;
		} else if (ptx_tok_is(T, ".local")) {
			if (var_decl(p, PS_LOCAL, p->kidx) < 0)
				return -1;
		} else if (ptx_tok_is(T, ".param")) {
			if (p->depth < 2)
				return ptx_err(X, T->line, T->col, "a .param in a kernel's body belongs in a call sequence { }");
			if (var_decl(p, PS_PARAM, p->kidx) < 0)
				return -1;
		} else if (T->kind == TK_ID && T->s[0] != '.' && T->s[0] != '%') {
			/* a label or an instruction: look one token ahead */
			ptx_lex save = p->x;
			if (next(p) < 0)
				return -1;
			bool is_label = ptx_tok_punct(T, ':');
			p->x = save;
			if (is_label ? label(p) < 0 : instruction(p) < 0)
				return -1;
		} else if (ptx_tok_punct(T, '@')) {
			if (instruction(p) < 0)
				return -1;
		} else if (T->kind == TK_ID && T->s[0] == '.') {
			return refuse(p);
		} else {
			return syntax(p, "an instruction, a label or a declaration");
		}
	}
	return 0;
}

static int resolve_labels(pstate *p)
{
	for (size_t i = 0; i < p->nrefs; i++) {
		lref *r = &p->refs[i];
		size_t j = 0;
		while (j < p->nlabels && !same(p->labels[j].name, p->labels[j].len, r->name, r->len))
			j++;
		if (j == p->nlabels)
			return ptx_err(X, r->line, r->col, "'%.*s' is not a label of this kernel, a variable or a parameter",
				       (int)(r->len > 40 ? 40 : r->len), r->name);
		ptx_ins *in = &p->k->ins[r->ins];
		for (unsigned k = 0; k < in->nops; k++)
			if (in->o[k].kind == OK_LABEL)
				in->o[k].imm = p->labels[j].ins;
		if (in->op != PO_BRA)
			return ptx_err(X, r->line, r->col, "a label is only a branch's target");
	}
	p->nrefs = p->nlabels = 0;
	return 0;
}

/* .param [.type] [.ptr [.space] [.align N]] name[[N]] of an .entry */
static int entry_param(pstate *p)
{
	ptx_kernel *k = p->k;
	if (k->np == PTX_MAX_PARAMS)
		return ptx_err(X, T->line, T->col, "more than %u parameters", PTX_MAX_PARAMS);
	if (!ptx_tok_is(T, ".param"))
		return syntax(p, "'.param'");
	if (next(p) < 0)
		return -1;
	uint64_t align = 0;
	if (ptx_tok_is(T, ".align")) {
		if (next(p) < 0 || number(p, &align) < 0)
			return -1;
	}
	unsigned ty;
	if (elem_type(p, &ty) < 0)
		return -1;
	if (ptx_tok_is(T, ".ptr")) {
		if (next(p) < 0)
			return -1;
		if (ptx_tok_is(T, ".global") || ptx_tok_is(T, ".shared") || ptx_tok_is(T, ".const") || ptx_tok_is(T, ".local"))
			if (next(p) < 0)
				return -1;
		if (ptx_tok_is(T, ".align")) {
			uint64_t a;
			if (next(p) < 0 || number(p, &a) < 0)
				return -1;
		}
	}
	if (T->kind != TK_ID || T->s[0] == '.' || T->s[0] == '%')
		return syntax(p, "a parameter name");
	ptx_kparam *kp = &k->p[k->np];
	memset(kp, 0, sizeof *kp);
	kp->name = dup_tok(T);
	if (!kp->name)
		return oom(p);
	k->np++;
	if (next(p) < 0)
		return -1;
	uint64_t count = 1;
	if (ptx_tok_punct(T, '[')) {
		if (next(p) < 0 || number(p, &count) < 0 || expect(p, ']') < 0)
			return -1;
		if (count == 0 || count > 4096)
			return ptx_err(X, T->line, T->col, "a parameter array of 1 to 4096 elements");
	}
	unsigned esz = ptx_type_bits(ty) / 8;
	kp->size = (unsigned)(esz * count);
	kp->align = align ? (unsigned)align : esz;
	if (kp->align > 256 || (kp->align & (kp->align - 1)))
		return ptx_err(X, T->line, T->col, "an alignment is a power of two up to 256");
	uint32_t at = (k->param_bytes + kp->align - 1) / kp->align * kp->align;
	kp->offset = at;
	k->param_bytes = at + kp->size;
	kp->is_float = false;
	return 0;
}

/* Performance directives of an .entry (.maxntid 256, 1, 1): accepted and
 * not needed by the reference. */
static int perf_directives(pstate *p)
{
	while (ptx_tok_is(T, ".maxntid") || ptx_tok_is(T, ".reqntid") || ptx_tok_is(T, ".minnctapersm") ||
	       ptx_tok_is(T, ".maxnreg") || ptx_tok_is(T, ".maxnctapersm")) {
		uint64_t v = 0;
		if (next(p) < 0 || number(p, &v) < 0)
			return -1;
		while (ptx_tok_punct(T, ','))
			if (next(p) < 0 || number(p, &v) < 0)
				return -1;
	}
	return 0;
}

static int entry(pstate *p)
{
	ptx_module *m = p->m;
	if (m->nk == PTX_MAX_KERNELS)
		return ptx_err(X, T->line, T->col, "more than %u kernels", PTX_MAX_KERNELS);
	int line = T->line;
	if (next(p) < 0)
		return -1;
	if (T->kind != TK_ID || T->s[0] == '.' || T->s[0] == '%')
		return syntax(p, "a kernel name");
	for (size_t i = 0; i < m->nk; i++)
		if (ptx_tok_is(T, m->k[i].name))
			return ptx_err(X, T->line, T->col, "kernel '%s' is defined twice", m->k[i].name);
	ptx_kernel *k = &m->k[m->nk];
	memset(k, 0, sizeof *k);
	k->name = dup_tok(T);
	k->p = calloc(PTX_MAX_PARAMS, sizeof *k->p);
	k->line = line;
	m->nk++;
	if (!k->name || !k->p)
		return oom(p);
	p->k = k;
	p->kidx = (int)(m->nk - 1);
	p->cap_ins = 0;
	p->nrd = 0;
	p->call_bytes = 0;
	if (next(p) < 0)
		return -1;
	if (ptx_tok_punct(T, '(')) {
		if (next(p) < 0)
			return -1;
		if (!ptx_tok_punct(T, ')'))
			for (;;) {
				if (entry_param(p) < 0)
					return -1;
				if (ptx_tok_punct(T, ')'))
					break;
				if (expect(p, ',') < 0)
					return -1;
			}
		if (next(p) < 0)
			return -1;
	}
	if (perf_directives(p) < 0 || body(p) < 0 || resolve_labels(p) < 0)
		return -1;
	/* call .params live after the kernel's .local variables */
	uint32_t base = (k->local_bytes + 7) / 8 * 8;
	if ((uint64_t)base + p->call_bytes > PTX_MAX_LOCAL_BYTES)
		return ptx_err(X, line, 1, "kernel '%s' needs more than %u bytes of local space", k->name, PTX_MAX_LOCAL_BYTES);
	for (size_t i = 0; i < m->nv; i++)
		if (m->v[i].kernel == p->kidx && m->v[i].space == PS_PARAM)
			m->v[i].addr += base;
	k->local_bytes = base + p->call_bytes;
	if (k->nins == 0 || (k->ins[k->nins - 1].op != PO_RET && k->ins[k->nins - 1].op != PO_EXIT &&
			     k->ins[k->nins - 1].op != PO_BRA)) {
		/* falling off the end is a ret, as a kernel's closing brace */
		ptx_ins r;
		memset(&r, 0, sizeof r);
		r.op = PO_RET;
		r.guard = PTX_NOREG;
		r.line = T->line;
		r.col = T->col;
		if (add_ins(p, &r) < 0)
			return -1;
	}
	return 0;
}

/* A .func: its declaration is read, its body skipped (bounded by the
 * brace count, no recursion); calls to it are refused where they are. */
static int func(pstate *p)
{
	int depth = 0;
	if (next(p) < 0)
		return -1;
	for (;;) {
		if (T->kind == TK_EOF)
			return syntax(p, "the end of the .func");
		if (ptx_tok_punct(T, ';') && depth == 0)
			return next(p);
		if (ptx_tok_punct(T, '{'))
			depth++;
		if (ptx_tok_punct(T, '}')) {
			if (--depth < 0)
				return syntax(p, "'{' before '}'");
			if (depth == 0)
				return next(p);
		}
		if (next(p) < 0)
			return -1;
	}
}

static int module(pstate *p)
{
	bool have_target = false, have_version = false;
	if (next(p) < 0)
		return -1;
	while (T->kind != TK_EOF) {
		if (ptx_tok_is(T, ".version")) {
			if (have_version)
				return ptx_err(X, T->line, T->col, "a second .version");
			have_version = true;
			if (version(p) < 0)
				return -1;
			continue;
		}
		if (!have_version)
			return syntax(p, "'.version' first");
		if (ptx_tok_is(T, ".target")) {
			have_target = true;
			if (target(p) < 0)
				return -1;
			continue;
		}
		if (!have_target)
			return syntax(p, "'.target' after '.version'");
		if (ptx_tok_is(T, ".address_size")) {
			uint64_t v = 0;
			if (next(p) < 0 || number(p, &v) < 0)
				return -1;
			if (v != 32 && v != 64)
				return ptx_err(X, T->line, T->col, "an .address_size is 32 or 64");
			if (p->m->nk || p->m->nv)
				return ptx_err(X, T->line, T->col, ".address_size comes before the kernels");
			p->m->address_bits = (unsigned)v;
			continue;
		}
		bool linkage = false;
		while (ptx_tok_is(T, ".visible") || ptx_tok_is(T, ".extern") || ptx_tok_is(T, ".weak")) {
			linkage = true;
			if (next(p) < 0)
				return -1;
		}
		(void)linkage;
		if (ptx_tok_is(T, ".entry")) {
			if (entry(p) < 0)
				return -1;
		} else if (ptx_tok_is(T, ".func")) {
			if (func(p) < 0)
				return -1;
		} else if (ptx_tok_is(T, ".global")) {
			if (var_decl(p, PS_GLOBAL, -1) < 0)
				return -1;
		} else if (ptx_tok_is(T, ".const")) {
			if (var_decl(p, PS_CONST, -1) < 0)
				return -1;
		} else if (ptx_tok_is(T, ".shared")) {
			if (var_decl(p, PS_SHARED, -1) < 0)
				return -1;
		} else if (T->kind == TK_ID && T->s[0] == '.') {
			return refuse(p);
		} else {
			return syntax(p, "a directive (.entry, .global, ...)");
		}
	}
	if (!have_version)
		return syntax(p, "'.version'");
	return 0;
}

void ptx_module_free(ptx_module *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nk; i++) {
		ptx_kernel *k = &m->k[i];
		free(k->name);
		if (k->p)
			for (size_t j = 0; j < k->np; j++)
				free(k->p[j].name);
		free(k->p);
		free(k->ins);
		free(k->regbits);
		free(k->rr);
	}
	free(m->k);
	for (size_t i = 0; i < m->nv; i++) {
		free(m->v[i].name);
		free(m->v[i].init);
	}
	free(m->v);
	free(m->path);
	free(m);
}

int ptx_read(const char *path, const char *text, size_t len, ptx_module **out, diag *d)
{
	*out = NULL;
	pstate *p = calloc(1, sizeof *p);
	ptx_module *m = calloc(1, sizeof *m);
	if (m) {
		m->k = calloc(PTX_MAX_KERNELS, sizeof *m->k);
		m->v = calloc(PTX_MAX_VARS, sizeof *m->v);
		m->path = malloc(strlen(path) + 1);
		if (m->path)
			strcpy(m->path, path);
	}
	if (!p || !m || !m->k || !m->v || !m->path) {
		free(p);
		ptx_module_free(m);
		diag_file(d, path, "out of memory");
		return -1;
	}
	m->address_bits = 64;
	p->m = m;
	ptx_lex_init(&p->x, path, text, len, d);
	int rc = module(p);
	free(p->labels);
	free(p->refs);
	free(p->regparam);
	free(p);
	if (rc < 0) {
		ptx_module_free(m);
		return -1;
	}
	*out = m;
	return 0;
}

unsigned ptx_address_bits(const ptx_module *m)
{
	return m->address_bits;
}

size_t ptx_nkernels(const ptx_module *m)
{
	return m->nk;
}

const char *ptx_kernel_name(const ptx_module *m, size_t k)
{
	return k < m->nk ? m->k[k].name : NULL;
}

size_t ptx_nparams(const ptx_module *m, size_t k)
{
	return k < m->nk ? m->k[k].np : 0;
}

ptx_param_info ptx_param(const ptx_module *m, size_t k, size_t i)
{
	ptx_param_info r = {0};
	if (k < m->nk && i < m->k[k].np) {
		const ptx_kparam *p = &m->k[k].p[i];
		r.name = p->name;
		r.size = p->size;
		r.is_ptr = p->is_ptr;
		r.is_float = p->is_float;
	}
	return r;
}

long ptx_kernel_find(const ptx_module *m, const char *name)
{
	for (size_t i = 0; i < m->nk; i++)
		if (strcmp(m->k[i].name, name) == 0)
			return (long)i;
	return -1;
}

void ptx_reg_name(const ptx_kernel *k, uint32_t r, char *buf, size_t size)
{
	for (size_t i = k->nrr; i-- > 0;) {
		const ptx_regrange *g = &k->rr[i];
		if (g->count == 0 && r == g->base) {
			snprintf(buf, size, "%s", g->name);
			return;
		}
		if (g->count && r >= g->base && r < g->base + g->count) {
			snprintf(buf, size, "%s%u", g->name, r - g->base);
			return;
		}
	}
	snprintf(buf, size, "%%reg%u", r);
}

uint32_t ptx_reg_lookup(const ptx_kernel *k, const char *name)
{
	for (size_t i = k->nrr; i-- > 0;) {
		const ptx_regrange *g = &k->rr[i];
		size_t n = strlen(g->name);
		if (strncmp(name, g->name, n))
			continue;
		if (g->count == 0) {
			if (!name[n])
				return g->base;
			continue;
		}
		const char *s = name + n;
		if (*s < '0' || *s > '9' || (*s == '0' && s[1]))
			continue;
		uint64_t v = 0;
		while (*s >= '0' && *s <= '9' && v < g->count)
			v = v * 10 + (uint64_t)(*s++ - '0');
		if (!*s && v < g->count)
			return g->base + (uint32_t)v;
	}
	return PTX_NOREG;
}
