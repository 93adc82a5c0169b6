/* SPDX-License-Identifier: MIT */
/*
 * thread.c: a line of a `.thread` kernel (doc/SIMT.md, "Translator"):
 * one DC-PTX instruction whose registers are names, %x, as PTX's virtual
 * registers are.  The line is checked by the bundle parser with every
 * name read as r0 (so columns stay where they were written); the names
 * are then renamed to values, one a definition, for translate.c.
 */
#include <stdlib.h>
#include <string.h>

#include "simt_int.h"

static bool is_special(const char *s, size_t n)
{
	static const char *const sp[] = { "%tid", "%ntid", "%ctaid", "%nctaid" };
	if (n > 2 && s[n - 2] == '.' && s[n - 1] == 'x')
		n -= 2;
	for (int i = 0; i < 4; i++)
		if (strlen(sp[i]) == n && !strncmp(s, sp[i], n))
			return true;
	return false;
}

/* The value a name holds now (-1: never written); with def, a new one. */
static int name_value(simt_cur *c, simt_tprog *tp, const char *nm, bool def, size_t at)
{
	size_t i = 0;
	while (i < tp->nnames && strcmp(tp->name[i], nm))
		i++;
	if (i == tp->nnames) {
		static const char *const ptx_only[] = { "%laneid", "%warpid", "%nwarpid", "%smid",
			"%nsmid", "%gridid", "%clock", "%clock64", "%lanemask_eq", "%lanemask_lt" };
		for (size_t k = 0; !def && k < sizeof ptx_only / sizeof *ptx_only; k++)
			if (!strcmp(nm, ptx_only[k]))
				return simt_err(c, at, "%s is a special register of PTX that DC-PTX does "
						"not have (it has %%tid, %%ntid, %%ctaid and %%nctaid)", nm);
		if (!def)
			return simt_err(c, at, "%s is read before anything writes it", nm);
		if (tp->nnames == tp->capnames) {
			size_t cap = tp->capnames ? tp->capnames * 2 : 16;
			void *n = realloc(tp->name, cap * sizeof *tp->name);
			if (n)
				tp->name = n;
			void *v = n ? realloc(tp->cur, cap * sizeof *tp->cur) : NULL;
			if (!v)
				return simt_err(c, at, "out of memory");
			tp->cur = v;
			tp->capnames = cap;
		}
		snprintf(tp->name[i], 64, "%s", nm);
		tp->nnames++;
	}
	if (def) {
		if (tp->nvalues >= (1u << 20))
			return simt_err(c, at, "too many values in one .thread kernel");
		tp->cur[i] = (int)tp->nvalues++;
	}
	return tp->cur[i];
}

/* Find the names of the line (in order) and blank them to "r0". */
static int names_of(simt_cur *c, char *line, size_t len, char names[3 + 1][64],
		    size_t at[4], int *n)
{
	*n = 0;
	for (size_t i = 0; i < len; i++) {
		if (line[i] == '#')
			break;
		if (line[i] != '%')
			continue;
		size_t j = i + 1;
		while (j < len && text_is_ident_char(line[j]))
			j++;
		if (j < len && line[j] == '.' && j + 1 < len && line[j + 1] == 'x')
			j += 2;
		if (is_special(line + i, j - i)) {
			i = j - 1;
			continue;
		}
		if (j - i < 2 || j - i >= 64)
			return simt_err(c, i, "expected a register name after '%%' (under 64 characters)");
		if (*n == 4)
			return simt_err(c, i, "too many register names in one instruction");
		memcpy(names[*n], line + i, j - i);
		names[*n][j - i] = 0;
		at[(*n)++] = i;
		line[i] = 'r';
		line[i + 1] = '0';
		memset(line + i + 2, ' ', j - i - 2);
		i = j - 1;
	}
	return 0;
}

static int add_instr(simt_cur *c, simt_tprog *tp, const tinstr *t)
{
	if (tp->n == tp->cap) {
		uint32_t cap = tp->cap ? tp->cap * 2 : 32;
		tinstr *nt = realloc(tp->t, cap * sizeof *nt);
		if (!nt)
			return simt_err(c, 0, "out of memory");
		tp->t = nt;
		tp->cap = cap;
	}
	tp->t[tp->n++] = *t;
	return 0;
}

int simt_thread_line(simt_cur *c, const simt_program *p, simt_tprog *tp)
{
	char line[TEXT_LINE_MAX + 1], names[4][64];
	size_t at[4];
	int n;
	memcpy(line, c->s, c->len);
	for (size_t i = 0; i < c->len && line[i] != '#'; i++)
		if (line[i] == ';')
			return simt_err(c, i, "one instruction a line in a .thread kernel");
	if (names_of(c, line, c->len, names, at, &n) < 0)
		return -1;
	simt_cur lc = *c;
	lc.s = line;
	simt_bundle b;
	simt_labels lab = { 0 };
	int rc = simt_parse_bundle(&lc, p, &lab, 0, &b);
	free(lab.fix);
	if (rc < 0)
		return -1;
	tinstr t = { .in = b.in[0], .def = -1, .use = { -1, -1, -1 } };
	if (b.n != 1)
		return simt_err(c, (size_t)b.in[1].col - 1, "one instruction a line in a .thread kernel");
	if (t.in.opc == SIMT_BAR || t.in.space == SIMT_SPACE_SHARED)
		return simt_err(c, (size_t)t.in.col - 1,
				"bar.sync and shared memory are written as bundles, not in a .thread kernel");
	if (t.in.opc == SIMT_BRA || t.in.opc == SIMT_EXIT)
		return simt_err(c, (size_t)t.in.col - 1, "a .thread kernel is straight-line: no %s",
				simt_opc_name(t.in.opc));
	if (t.in.local)
		return simt_err(c, (size_t)t.in.col - 1,
				"a .thread kernel has no local memory of its own: the translator keeps its spills there");
	/* The names stand, in order, for d (if written), then a, b, c. */
	bool has_d = simt_opinfo_of(t.in.opc)->has_d;
	const simt_operand *o[3] = { &t.in.a, &t.in.b, &t.in.c };
	int want = has_d, k = 0;
	for (int j = 0; j < 3; j++)
		want += o[j]->kind == SIMT_O_REG;
	if (want != n)
		return simt_err(c, (size_t)t.in.col - 1, "name every register of a .thread kernel %%x, not rN");
	int first = has_d;
	for (int j = 0; j < 3; j++)
		if (o[j]->kind == SIMT_O_REG) {
			k = first++;
			if ((t.use[j] = name_value(c, tp, names[k], false, at[k])) < 0)
				return -1;
		}
	/* Values are renamed per definition, so a guarded one would leave
	 * the threads it skips without the old value: refused. */
	for (size_t i = 0; has_d && t.in.guard >= 0 && i < tp->nnames; i++)
		if (!strcmp(tp->name[i], names[0]))
			return simt_err(c, at[0], "a guarded instruction cannot redefine %s in a .thread kernel (the threads it skips would lose its value): write a new name and merge them with selp",
					names[0]);
	if (has_d && (t.def = name_value(c, tp, names[0], true, at[0])) < 0)
		return -1;
	return add_instr(c, tp, &t);
}

void simt_tprog_free(simt_tprog *tp)
{
	free(tp->t);
	free(tp->name);
	free(tp->cur);
	memset(tp, 0, sizeof *tp);
}
