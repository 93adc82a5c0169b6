/* SPDX-License-Identifier: MIT */
/*
 * isa.c: the command table, micro-program buffers, and the checks and
 * dispatch that every family shares.
 */
#include "isa.h"
#include "family.h"
#include "text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*gen_fn)(const isa_cmd *, unsigned, isa_prog *, isa_ctl *);
typedef void (*rules_fn)(const isa_cmd *, unsigned, isa_rules *);
typedef uint64_t (*cycles_fn)(const isa_cmd *, unsigned);

static const struct entry {
	isa_info info;
	gen_fn gen;
	rules_fn rules;
	cycles_fn cycles;
	int cls;
} table[ISA_OP_COUNT] = {
#define ISA_OP(name, mn, form, fam, cls, sem)                             \
	[ISA_##name] = {{mn, #fam, sem, ISA_FORM_##form},                 \
			isa_gen_##fam, isa_rules_##fam, isa_cycles_##fam, \
			ISA_CLASS_##cls},
#include "opcodes.def"
#undef ISA_OP
};

const isa_info *isa_info_of(unsigned op)
{
	return op < ISA_OP_COUNT ? &table[op].info : NULL;
}

int isa_lookup(const char *mnemonic)
{
	for (unsigned i = 0; i < ISA_OP_COUNT; i++)
		if (strcmp(table[i].info.name, mnemonic) == 0)
			return (int)i;
	return -1;
}

int isa_class_of(unsigned op)
{
	return op < ISA_OP_COUNT ? table[op].cls : -1;
}

bool isa_class_takes(int cls, unsigned fmt)
{
	switch (cls) {
	case ISA_CLASS_I: return fmt == ISA_FMT_INT;
	case ISA_CLASS_F: return isa_fpfmt_of(fmt) != NULL;
	case ISA_CLASS_Q: return fmt == ISA_FMT_FIX;
	case ISA_CLASS_A: return fmt < ISA_FMT_COUNT;
	case ISA_CLASS_X: return fmt < ISA_FMT_COUNT;
	default: return false;
	}
}

int isa_lookup_fmt(const char *mnemonic, unsigned fmt)
{
	int found = -1;
	for (unsigned i = 0; i < ISA_OP_COUNT; i++) {
		if (strcmp(table[i].info.name, mnemonic) != 0)
			continue;
		if (isa_class_takes(table[i].cls, fmt))
			return (int)i;
		found = -2;
	}
	return found;
}

/* ---- element formats ---- */

static const isa_fpfmt fpfmts[ISA_FMT_COUNT] = {
	[ISA_FMT_F32] = {"f32", 32, 8, 23, 127},
	[ISA_FMT_F16] = {"f16", 16, 5, 10, 15},
	[ISA_FMT_BF16] = {"bf16", 16, 8, 7, 127},
};

const isa_fpfmt *isa_fpfmt_of(unsigned fmt)
{
	return fmt < ISA_FMT_COUNT && fpfmts[fmt].name ? &fpfmts[fmt] : NULL;
}

int isa_type_parse(const char *text, size_t len, unsigned *fmt,
		   unsigned *width, unsigned *is_signed)
{
	for (unsigned f = 0; f < ISA_FMT_COUNT; f++) {
		const isa_fpfmt *ff = isa_fpfmt_of(f);
		if (ff && strlen(ff->name) == len && memcmp(ff->name, text, len) == 0) {
			*fmt = f;
			*width = ff->width;
			*is_signed = 1;
			return 0;
		}
	}
	if (len < 2 || len > 3 || (text[0] != 'i' && text[0] != 'u' && text[0] != 'q'))
		return -1;
	unsigned n = 0;
	for (size_t i = 1; i < len; i++) {
		if (text[i] < '0' || text[i] > '9' || (i == 1 && text[i] == '0'))
			return -1;
		n = n * 10 + (unsigned)(text[i] - '0');
	}
	if (n < 1 || n > ISA_MAX_WIDTH || (text[0] == 'q' && n <= ISA_FIX_INT))
		return -1;
	*fmt = text[0] == 'q' ? ISA_FMT_FIX : ISA_FMT_INT;
	*width = n;
	*is_signed = text[0] != 'u';
	return 0;
}

/* With a text_buf, not snprintf: the JIT names a type for every command
 * it makes, and the printf family was most of its time. */
const char *isa_type_name(unsigned fmt, unsigned width, unsigned is_signed,
			  char *buf, size_t size)
{
	const isa_fpfmt *ff = isa_fpfmt_of(fmt);
	text_buf t = text_buf_of(buf, size);
	if (ff) {
		text_put_str(&t, ff->name);
	} else {
		text_put_str(&t, fmt == ISA_FMT_FIX ? "q" : is_signed ? "i" : "u");
		text_put_uint(&t, width);
	}
	return buf;
}

void isa_prog_init(isa_prog *p)
{
	memset(p, 0, sizeof *p);
}

void isa_prog_free(isa_prog *p)
{
	free(p->u);
	isa_prog_init(p);
}

void isa_prog_clear(isa_prog *p)
{
	p->n = 0;
	p->oom = false;
}

void isa_emit(isa_prog *p, sram_uop u)
{
	if (p->oom)
		return;
	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 256;
		sram_uop *nu = realloc(p->u, cap * sizeof *nu);
		if (!nu) {
			p->oom = true;
			return;
		}
		p->u = nu;
		p->cap = cap;
	}
	p->u[p->n++] = u;
}

static sram_uop blank(void)
{
	sram_uop u;
	memset(&u, 0, sizeof u);
	u.dst = SRAM_NO_ROW;
	return u;
}

sram_uop isa_w0(unsigned wfn, unsigned dst)
{
	sram_uop u = blank();
	u.wfn = (uint8_t)wfn;
	u.dst = (uint16_t)dst;
	return u;
}

sram_uop isa_u1(unsigned wfn, unsigned dst, unsigned r0)
{
	sram_uop u = isa_w0(wfn, dst);
	u.nact = 1;
	u.act[0] = (uint16_t)r0;
	return u;
}

sram_uop isa_u2(unsigned wfn, unsigned dst, unsigned r0, unsigned r1)
{
	sram_uop u = isa_u1(wfn, dst, r0);
	u.nact = 2;
	u.act[1] = (uint16_t)r1;
	return u;
}

sram_uop isa_l0(unsigned lfn)
{
	sram_uop u = blank();
	u.lfn = (uint8_t)lfn;
	return u;
}

sram_uop isa_l1(unsigned lfn, unsigned r0)
{
	sram_uop u = isa_l0(lfn);
	u.nact = 1;
	u.act[0] = (uint16_t)r0;
	return u;
}

sram_uop isa_l2(unsigned lfn, unsigned r0, unsigned r1)
{
	sram_uop u = isa_l1(lfn, r0);
	u.nact = 2;
	u.act[1] = (uint16_t)r1;
	return u;
}

sram_uop isa_uset(unsigned wfn, unsigned dst, unsigned lfn, unsigned base,
		  uint64_t set)
{
	sram_uop u = blank();
	u.wfn = (uint8_t)wfn;
	u.dst = (uint16_t)dst;
	u.lfn = (uint8_t)lfn;
	u.act[0] = (uint16_t)base;
	u.set = set;
	u.nact = (uint8_t)__builtin_popcountll(set);
	return u;
}

static bool overlaps(unsigned a, unsigned na, unsigned b, unsigned nb)
{
	return a < b + nb && b < a + na;
}

static unsigned src_rows(const isa_cmd *c, char which)
{
	/* Every source operand is n rows (sel's and the shifts' b too),
	 * except a conversion's a, which has the source type's width. */
	if (which == 'a' && c->op == ISA_CVT)
		return c->swidth;
	return c->width;
}

const char *isa_check(const isa_cmd *c, unsigned wordlines, unsigned bitlines,
		      isa_rules *rules)
{
	isa_rules r = {0};
	if (c->op >= ISA_OP_COUNT) {
		if (rules)
			*rules = r;
		return "unknown command";
	}
	const struct entry *e = &table[c->op];
	r.min_width = 1;
	r.max_width = ISA_MAX_WIDTH;
	r.d_rows = c->width;
	r.max_imm = UINT64_MAX;
	e->rules(c, bitlines, &r);
	if (rules)
		*rules = r;
	if (c->width < r.min_width || c->width > r.max_width)
		return "width out of range for this command";
	const isa_form f = e->info.form;
	if ((f == ISA_FORM_DAI || f == ISA_FORM_DI || f == ISA_FORM_PAI) &&
	    c->imm > r.max_imm)
		return "immediate out of range for this command";
	if (!isa_class_takes(e->cls, c->fmt))
		return "this command does not take that element type";
	const bool has_a = f != ISA_FORM_DI;
	const bool has_b = f == ISA_FORM_DAB || f == ISA_FORM_PAB ||
			   f == ISA_FORM_QRAB || f == ISA_FORM_DABC;
	const bool has_c = f == ISA_FORM_DABC;
	if (c->d == ISA_TAG) {
		if (!r.tag_dest_ok)
			return "this command cannot write the tag latch";
	} else if (c->d == ISA_NONE || c->d + r.d_rows > wordlines) {
		return "destination wordlines out of range";
	}
	if (has_a && (c->a == ISA_NONE || c->a + src_rows(c, 'a') > wordlines))
		return "source a wordlines out of range";
	if (has_b && (c->b == ISA_NONE || c->b + src_rows(c, 'b') > wordlines))
		return "source b wordlines out of range";
	if (has_c && (c->c3 == ISA_NONE || c->c3 + c->width > wordlines))
		return "source c wordlines out of range";
	if (f == ISA_FORM_QRAB &&
	    (c->d2 == ISA_NONE || c->d2 + c->width > wordlines))
		return "second destination wordlines out of range";
	if (r.scratch_rows > c->scratch_rows)
		return "not enough scratch wordlines for this width";
	if (r.scratch_rows && c->scratch + r.scratch_rows > wordlines)
		return "scratch wordlines out of range";
	/* Overlap rules.  Outputs may never overlap scratch. */
	const unsigned dn = c->d == ISA_TAG ? 0 : r.d_rows;
	if (r.scratch_rows && dn &&
	    overlaps(c->d, dn, c->scratch, r.scratch_rows))
		return "destination overlaps the scratch wordlines";
	if (has_a && r.scratch_rows &&
	    overlaps(c->a, src_rows(c, 'a'), c->scratch, r.scratch_rows))
		return "source a overlaps the scratch wordlines";
	if (has_b && r.scratch_rows &&
	    overlaps(c->b, c->width, c->scratch, r.scratch_rows))
		return "source b overlaps the scratch wordlines";
	if (has_c && r.scratch_rows &&
	    overlaps(c->c3, c->width, c->scratch, r.scratch_rows))
		return "source c overlaps the scratch wordlines";
	if (dn && has_c && overlaps(c->d, dn, c->c3, c->width) &&
	    !(r.d_may_alias_c && c->d == c->c3))
		return "destination overlaps source c";
	if (dn && has_a && overlaps(c->d, dn, c->a, src_rows(c, 'a')) &&
	    !(r.d_may_alias_a && c->d == c->a))
		return "destination overlaps source a, which this command forbids";
	if (dn && has_b && overlaps(c->d, dn, c->b, c->width) &&
	    !(r.d_may_alias_b && c->d == c->b))
		return "destination overlaps source b, which this command forbids";
	if (f == ISA_FORM_QRAB) {
		if (overlaps(c->d2, c->width, c->a, c->width) ||
		    overlaps(c->d2, c->width, c->b, c->width) ||
		    overlaps(c->d2, c->width, c->d, c->width) ||
		    (r.scratch_rows &&
		     overlaps(c->d2, c->width, c->scratch, r.scratch_rows)))
			return "the remainder overlaps another operand";
	}
	return NULL;
}

int isa_build_ctl(const isa_cmd *c, unsigned bitlines, isa_prog *p,
		  isa_ctl *ctl)
{
	if (c->op >= ISA_OP_COUNT)
		return -1;
	int rc = table[c->op].gen(c, bitlines, p, ctl);
	return rc || p->oom ? -1 : 0;
}

int isa_build(const isa_cmd *c, unsigned bitlines, isa_prog *p)
{
	return isa_build_ctl(c, bitlines, p, NULL);
}

bool isa_data_dependent(const isa_cmd *c)
{
	if (c->op >= ISA_OP_COUNT)
		return false;
	static const char *const dd[] = {"mul", "div", "fpadd", "fpmul", "fma", "fpdiv", "rsqrt", "cvt"};
	for (size_t i = 0; i < sizeof dd / sizeof dd[0]; i++)
		if (strcmp(table[c->op].info.family, dd[i]) == 0)
			return true;
	return false;
}

uint64_t isa_baseline_cycles(const isa_cmd *c, unsigned bitlines)
{
	return c->op < ISA_OP_COUNT ? table[c->op].cycles(c, bitlines) : 0;
}
