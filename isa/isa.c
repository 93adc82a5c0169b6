/*
 * isa.c: the command table, micro-program buffers, and the checks and
 * dispatch that every family shares.
 */
#include "isa.h"

#include <stdlib.h>
#include <string.h>

typedef int (*gen_fn)(const isa_cmd *, unsigned, isa_prog *);
typedef void (*rules_fn)(const isa_cmd *, unsigned, isa_rules *);
typedef uint64_t (*cycles_fn)(const isa_cmd *, unsigned);

static const struct entry {
	isa_info info;
	gen_fn gen;
	rules_fn rules;
	cycles_fn cycles;
} table[ISA_OP_COUNT] = {
#define ISA_OP(name, mn, form, fam, sem)                                  \
	[ISA_##name] = {{mn, #fam, sem, ISA_FORM_##form},                 \
			isa_gen_##fam, isa_rules_##fam, isa_cycles_##fam},
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

static bool overlaps(unsigned a, unsigned na, unsigned b, unsigned nb)
{
	return a < b + nb && b < a + na;
}

static unsigned src_rows(const isa_cmd *c, char which)
{
	/* Every source operand is n rows; sel's and the shifts' b too. */
	(void)which;
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
	if ((f == ISA_FORM_DAI || f == ISA_FORM_DI) && c->imm > r.max_imm)
		return "immediate out of range for this command";
	const bool has_a = f != ISA_FORM_DI;
	const bool has_b = f == ISA_FORM_DAB || f == ISA_FORM_PAB ||
			   f == ISA_FORM_QRAB;
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
	    overlaps(c->a, c->width, c->scratch, r.scratch_rows))
		return "source a overlaps the scratch wordlines";
	if (has_b && r.scratch_rows &&
	    overlaps(c->b, c->width, c->scratch, r.scratch_rows))
		return "source b overlaps the scratch wordlines";
	if (dn && has_a && overlaps(c->d, dn, c->a, c->width) &&
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

int isa_build(const isa_cmd *c, unsigned bitlines, isa_prog *p)
{
	if (c->op >= ISA_OP_COUNT)
		return -1;
	int rc = table[c->op].gen(c, bitlines, p);
	return rc || p->oom ? -1 : 0;
}

uint64_t isa_baseline_cycles(const isa_cmd *c, unsigned bitlines)
{
	return c->op < ISA_OP_COUNT ? table[c->op].cycles(c, bitlines) : 0;
}
