/* SPDX-License-Identifier: MIT */
/*
 * parse.c: the assembler's front end: command-stream text to emu_program
 * (grammar in doc/FORMAT.md).
 *
 * A recursive-descent parser over one line at a time: each line holds at
 * most one statement (machine, scratch, buffer or a command).  Syntax and
 * names are checked here, where the column of every token is known; the
 * meaning (ranges, overlaps, widths, occupancy, isa_check) is checked by
 * emu_asm (program.c), which the binary decoder shares.  Mnemonics and
 * operand forms come from the command table (isa_lookup, isa_info_of),
 * never from a list of our own.
 */
#include "program.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assemble.h"
#include "layout.h"
#include "text.h"
#include "movecmd.h"

/* ---- literals of float and .qN elements (program.h, doc/FORMAT.md) ---- */

/* The extent of a literal: a sign, then letters, digits, '.' and ':',
 * and a sign right after an exponent letter (1e-3, 0x1p-4). */
static size_t literal_extent(const char *s, size_t len)
{
	size_t i = len > 0 && (s[0] == '-' || s[0] == '+');
	for (; i < len; i++) {
		const char c = s[i], prev = i ? (char)(s[i - 1] | 0x20) : 0;
		const bool sign = (c == '-' || c == '+') && (prev == 'e' || prev == 'p');
		if (!text_is_ident_char(c) && c != '.' && c != ':' && !sign)
			break;
	}
	return i;
}

static size_t digits_of(const char *s, size_t len, size_t i, bool hex)
{
	size_t k = i;
	while (k < len && text_hex_digit(s[k]) >= 0 && (hex || (s[k] >= '0' && s[k] <= '9')))
		k++;
	return k - i;
}

/* Is s[0..len) a decimal or hex-float number, after its sign?
 *   decimal  := (D+ ['.' D*] | '.' D+) [('e'|'E') ['+'|'-'] D+]
 *   hexfloat := '0x' (H+ ['.' H*] | '.' H+) [('p'|'P') ['+'|'-'] D+] */
static bool is_number_text(const char *s, size_t len)
{
	const bool hex = len >= 2 && s[0] == '0' && (s[1] | 0x20) == 'x';
	size_t i = hex ? 2 : 0, whole = digits_of(s, len, i, hex), frac = 0;
	i += whole;
	if (i < len && s[i] == '.') {
		frac = digits_of(s, len, i + 1, hex);
		i += 1 + frac;
	}
	if (whole + frac == 0)
		return false;
	if (i < len && (s[i] | 0x20) == (hex ? 'p' : 'e')) {
		i += 1 + (i + 1 < len && (s[i + 1] == '+' || s[i + 1] == '-'));
		const size_t e = digits_of(s, len, i, false);
		if (e == 0)
			return false;
		i += e;
	}
	return i == len;
}

/* The literal text[0..len) (its extent) as a double; *kw says if it was
 * the word inf (1) or nan (2).  0, or -1. */
static int literal_double(const char *text, size_t len, double *v, int *kw)
{
	char buf[96];
	const bool sgn = len > 0 && (text[0] == '-' || text[0] == '+');
	*kw = 0;
	if (len - sgn == 3 && memcmp(text + sgn, "inf", 3) == 0)
		*kw = 1;
	else if (len == 3 && memcmp(text, "nan", 3) == 0)
		*kw = 2;
	else if (!is_number_text(text + sgn, len - sgn) || len >= sizeof buf)
		return -1;
	memcpy(buf, text, len);
	buf[len] = '\0';
	*v = *kw == 2 ? 0 : *kw == 1 ? (text[0] == '-' ? -HUGE_VAL : HUGE_VAL)
		      : strtod(buf, NULL);
	return 0;
}

/* A float format's bits of v; -1 if a finite v overflows it. */
static int float_bits(const isa_fpfmt *ff, unsigned fmt, double v, int kw,
		      uint64_t *bits)
{
	const uint64_t emax = isa_mask(ff->ebits);
	if (kw == 2) {
		*bits = isa_fp_nan(fmt);
		return 0;
	}
	if (kw == 1) {
		*bits = (v < 0 ? UINT64_C(1) << (ff->width - 1) : 0) | emax << ff->mbits;
		return 0;
	}
	*bits = isa_fp_from_double(fmt, ISA_FL_IEEE, v);
	const bool inf = ((*bits >> ff->mbits) & emax) == emax &&
			 !(*bits & isa_mask(ff->mbits));
	return isinf(v) || inf ? -1 : 0;
}

/* bits:0xHEX, s[0..n) its extent: the raw pattern, which must fit. */
static int bits_literal(unsigned width, const char *s, size_t n, uint64_t *bits,
			char *err, size_t errsize)
{
	uint64_t mag;
	bool neg;
	size_t u;
	const char *e;
	if (n < 7 || s[5] != '0' || (s[6] | 0x20) != 'x' ||
	    text_scan_number(s + 5, n - 5, &mag, &neg, &u, &e) || u != n - 5) {
		snprintf(err, errsize, "expected the raw bits of an element after 'bits:', "
			 "as hex digits (bits:0x3fc00000)");
		return -1;
	}
	if (mag & ~isa_mask(width)) {
		snprintf(err, errsize, "bits:0x%" PRIx64 " does not fit in %u bits", mag, width);
		return -1;
	}
	*bits = mag;
	return 0;
}

int emu_literal_parse(unsigned fmt, unsigned width, const char *s, size_t len,
		      uint64_t *bits, size_t *used, char *err, size_t errsize)
{
	const isa_fpfmt *ff = isa_fpfmt_of(fmt);
	const size_t n = literal_extent(s, len);
	char tn[16];
	double v = 0;
	int kw;
	*used = n;
	if (n >= 5 && memcmp(s, "bits:", 5) == 0)
		return bits_literal(width, s, n, bits, err, errsize);
	if (literal_double(s, n, &v, &kw) || (!ff && kw == 2)) {
		snprintf(err, errsize, ff ? "expected a floating-point literal (e.g. 1.5, -2e-3, "
			 "0x1p-4, inf, nan, bits:0x3fc00000)"
			 : "expected a fixed-point literal (e.g. 1.5, -0.25, 0x1p-4, bits:0x20000000)");
		return -1;
	}
	isa_type_name(fmt, width, 1, tn, sizeof tn);
	if (ff ? float_bits(ff, fmt, v, kw, bits) : !(v >= -4 && v < 4)) {
		snprintf(err, errsize, "%.*s is out of range for .%s%s", n > 40 ? 40 : (int)n, s,
			 tn, ff ? "" : " (-4 <= value < 4)");
		return -1;
	}
	if (!ff)
		*bits = isa_fix_from_double(width, v) & isa_mask(width);
	return 0;
}

/* ---- the parser ---- */

typedef struct parser {
	emu_asm a;
	emu_program *p;
	const emu_geom_override *ov; /* settings that win over the machine line */
	const char *path;
	diag *d;
	const char *s;     /* the current line */
	size_t len, pos;
	int line;
	int machine_line, scratch_line, decl_line, cmd_line;
} parser;

static int perr(parser *ps, size_t pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int perr(parser *ps, size_t pos, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vat(ps->d, ps->path, ps->line, (int)pos + 1, fmt, ap);
	va_end(ap);
	return -1;
}

static void skip_ws(parser *ps)
{
	while (ps->pos < ps->len && text_is_space(ps->s[ps->pos]))
		ps->pos++;
}

/* At the end of the statement: the end of the line or a comment. */
static bool at_end(parser *ps)
{
	skip_ws(ps);
	return ps->pos >= ps->len || ps->s[ps->pos] == '#';
}

static size_t word_len(const parser *ps, size_t pos)
{
	size_t n = 0;
	if (pos < ps->len && text_is_ident_start(ps->s[pos]))
		while (pos + n < ps->len && text_is_ident_char(ps->s[pos + n]))
			n++;
	return n;
}

static bool word_is(const parser *ps, size_t pos, size_t n, const char *w)
{
	return strlen(w) == n && memcmp(ps->s + pos, w, n) == 0;
}

/* Index of the word at pos (n characters) in words[0..count), or count. */
static unsigned word_index(const parser *ps, size_t pos, size_t n,
			   const char *const *words, unsigned count)
{
	unsigned k = 0;
	while (k < count && !word_is(ps, pos, n, words[k]))
		k++;
	return k;
}

/* The token at pos, for messages: "'xyz'" or "the end of the line". */
static const char *found(const parser *ps, size_t pos, char *buf, size_t size)
{
	size_t n = 0;
	while (pos + n < ps->len && n < 40 && !text_is_space(ps->s[pos + n]) &&
	       (n == 0 || ps->s[pos + n] != ','))
		n++;
	if (pos >= ps->len)
		snprintf(buf, size, "the end of the line");
	else
		snprintf(buf, size, "'%.*s'", (int)n, ps->s + pos);
	return buf;
}

/* A non-space run at pos: a pattern or a machine setting's value. */
static size_t run_len(const parser *ps, size_t pos)
{
	size_t n = 0;
	while (pos + n < ps->len && !text_is_space(ps->s[pos + n]) && ps->s[pos + n] != '#')
		n++;
	return n;
}

/* A number at pos; its text must end at a delimiter. */
static int parse_number(parser *ps, const char *what, uint64_t *mag, bool *neg)
{
	size_t used;
	const char *err;
	char f[64];
	if (text_scan_number(ps->s + ps->pos, ps->len - ps->pos, mag, neg, &used, &err))
		return perr(ps, ps->pos + used, "expected %s, found %s (%s)", what,
			    found(ps, ps->pos, f, sizeof f), err);
	ps->pos += used;
	return 0;
}

/* An unsigned number below limit. */
static int parse_index(parser *ps, const char *what, uint64_t limit, uint64_t *v)
{
	const size_t t = ps->pos;
	bool neg;
	if (parse_number(ps, what, v, &neg))
		return -1;
	if ((neg && *v) || *v >= limit)
		return perr(ps, t, "%s %s%" PRIu64 " is out of range; expected 0 to %" PRIu64,
			    what, neg ? "-" : "", *v, limit - 1);
	return 0;
}

static int parse_pattern(parser *ps, const char *what, emu_pattern *out)
{
	const size_t t = ps->pos, n = run_len(ps, t);
	const char *err;
	size_t col;
	if (n == 0)
		return perr(ps, t, "expected a pattern start[:stride:count]... after '%s='", what);
	if (emu_pattern_parse(ps->s + t, n, out, &err, &col))
		return perr(ps, t + col, "malformed %s pattern '%.*s': %s", what,
			    n > 80 ? 80 : (int)n, ps->s + t, err);
	ps->pos = t + n;
	return 0;
}

/* An element type and its pieces. */
typedef struct elem_type {
	unsigned fmt, width, is_signed;
} elem_type;

/* A type name at pos: iN, uN, f32, f16, bf16 or qN (isa_type_parse). */
static int parse_type(parser *ps, elem_type *ty)
{
	const size_t t = ps->pos, n = word_len(ps, t);
	const int shown = n > 40 ? 40 : (int)n;
	char f[64];
	if (n == 0)
		return perr(ps, t, "expected an element type (%s, e.g. i32), found %s",
			    EMU_TYPE_LIST, found(ps, t, f, sizeof f));
	if (isa_type_parse(ps->s + t, n, &ty->fmt, &ty->width, &ty->is_signed) == 0) {
		ps->pos = t + n;
		return 0;
	}
	const char k = ps->s[t];
	bool digits = n >= 2;
	for (size_t i = 1; i < n && digits; i++)
		digits = ps->s[t + i] >= '0' && ps->s[t + i] <= '9';
	if ((k == 'i' || k == 'u' || k == 'q') && digits)
		return perr(ps, t, "element width %.*s is out of range; expected %s to 64",
			    shown - 1, ps->s + t + 1, k == 'q' ? "4" : "1");
	return perr(ps, t, "unknown element type '%.*s'; expected %s", shown, ps->s + t,
		    EMU_TYPE_LIST);
}

/* The closest mnemonic or directive to word, or NULL. */
static const char *closest_keyword(const char *w, size_t n)
{
	static const char *const directives[] = {"machine", "scratch", "buffer", "tensor",
						 "sync", "move", "node"};
	const unsigned nd = sizeof directives / sizeof directives[0];
	const char *best = NULL;
	unsigned bd = 3;
	for (unsigned i = 0; i < ISA_OP_COUNT + nd; i++) {
		const char *k = i < ISA_OP_COUNT ? isa_info_of(i)->name
						 : directives[i - ISA_OP_COUNT];
		unsigned dist = emu_edit_distance(w, n, k, strlen(k));
		if (dist < bd && dist < n) {
			bd = dist;
			best = k;
		}
	}
	return best;
}

static int unknown_command(parser *ps, size_t t, size_t n)
{
	const int shown = n > 40 ? 40 : (int)n;
	char mn[32];
	if (n < sizeof mn) {
		memcpy(mn, ps->s + t, n);
		mn[n] = '\0';
		char types[128];
		const int op = isa_lookup(mn);
		const bool conv = op >= 0 && isa_class_of((unsigned)op) == ISA_CLASS_X;
		if (op >= 0 && emu_mnemonic_types(mn, types, sizeof types) > 0)
			return perr(ps, t, "'%s' needs an element type: it takes %s (%s.%s)",
				    mn, types, mn, conv ? "f32.i32" : "i32");
	}
	const char *best = closest_keyword(ps->s + t, n);
	if (best)
		return perr(ps, t, "unknown command '%.*s'; did you mean '%s'?", shown,
			    ps->s + t, best);
	return perr(ps, t, "unknown command '%.*s'; expected a command such as add.i32 "
		    "(infsim --list-commands lists them), a move (mv.intra, mv.inter, "
		    "mv.bcast, mv.const, sync, move) or machine, scratch, buffer, tensor, node",
		    shown, ps->s + t);
}

/* ---- commands ---- */

/* Operand slot k (0 d, 1 d2, 2 a, 3 b, 4 c). */
static void set_slot(emu_cmd *c, unsigned k, uint16_t wl, int16_t buf)
{
	uint16_t *w[] = {&c->c.d, &c->c.d2, &c->c.a, &c->c.b, &c->c.c3};
	int16_t *b[] = {&c->buf_d, &c->buf_d2, &c->buf_a, &c->buf_b, &c->buf_c};
	*w[k] = wl;
	*b[k] = buf;
}

/* A register operand: a buffer name, wl:N or tag. */
static int parse_operand(parser *ps, emu_cmd *c, unsigned k, const char *nm)
{
	const size_t t = ps->pos, n = word_len(ps, t);
	char f[64];
	uint64_t wl;
	if (n == 0)
		return perr(ps, t, "expected a buffer name, wl:N or tag for operand %s, "
			    "found %s", nm, found(ps, t, f, sizeof f));
	ps->pos = t + n;
	if (word_is(ps, t, n, "wl")) {
		if (ps->pos >= ps->len || ps->s[ps->pos] != ':')
			return perr(ps, ps->pos, "expected ':' and a wordline number after "
				    "'wl' (wl:N)");
		ps->pos++;
		if (parse_index(ps, "wordline", ps->p->geom.wordlines, &wl))
			return -1;
		set_slot(c, k, (uint16_t)wl, -1);
		return 0;
	}
	if (word_is(ps, t, n, "tag")) {
		set_slot(c, k, ISA_TAG, -1);
		return 0;
	}
	const int bi = emu_asm_find(&ps->a, ps->s + t, n);
	if (bi < 0) {
		const char *best = emu_asm_closest(&ps->a, ps->s + t, n);
		const int shown = n > 63 ? 63 : (int)n;
		if (best)
			return perr(ps, t, "unknown buffer '%.*s'; did you mean '%s'?", shown,
				    ps->s + t, best);
		return perr(ps, t, "unknown buffer '%.*s'; declare it first with a buffer "
			    "line", shown, ps->s + t);
	}
	set_slot(c, k, ps->p->bufs[bi].wl, (int16_t)bi);
	return 0;
}

/* #LITERAL of a float or .qN command: emu_literal_parse. */
static int parse_imm_literal(parser *ps, emu_cmd *c, const char *cn)
{
	const size_t t = ++ps->pos;
	char err[160], f[64];
	size_t used;
	if (emu_literal_parse(c->c.fmt, c->c.width, ps->s + t, ps->len - t, &c->c.imm,
			      &used, err, sizeof err))
		return perr(ps, t, "%s: %s, found %s", cn, err, found(ps, t, f, sizeof f));
	ps->pos = t + used;
	return 0;
}

/* #N: it must fit n bits as a signed or an unsigned number; a float or
 * .qN command's immediate is a literal of its format. */
static int parse_imm(parser *ps, emu_cmd *c, const char *cn)
{
	const size_t t = ps->pos;
	const unsigned n = c->c.width;
	uint64_t mag;
	bool neg;
	if (c->c.fmt != ISA_FMT_INT)
		return parse_imm_literal(ps, c, cn);
	ps->pos++;
	if (parse_number(ps, "an immediate", &mag, &neg))
		return -1;
	const int len = (int)(ps->pos - t);
	if (ps->pos < ps->len && ps->s[ps->pos] == '.')
		return perr(ps, t, "%s: immediate %.*s... is not an integer; a fraction needs a "
			    "float or .qN command", cn, len - 1, ps->s + t + 1);
	if (emu_imm_is_shift(c->c.op) && ((neg && mag) || mag >= n))
		return perr(ps, t, "%s: shift amount %.*s is out of range; expected #0 to #%u",
			    cn, len - 1, ps->s + t + 1, n - 1);
	const uint64_t min_mag = UINT64_C(1) << (n - 1); /* |most negative| */
	if (neg ? mag > min_mag : mag > isa_mask(n))
		return perr(ps, t, "%s: immediate %.*s does not fit in %u bits; expected "
			    "#-%" PRIu64 " to #%" PRIu64, cn, len - 1, ps->s + t + 1, n,
			    min_mag, isa_mask(n));
	c->c.imm = (neg ? 0 - mag : mag) & isa_mask(n);
	return 0;
}

/* Is there an immediate at pos: '#' and right after it its value (#5,
 * #-1.5, #inf, #bits:0x7fc00000)?  A '#' before a blank, another '#' or
 * the end of the line starts a comment. */
static bool looks_imm(const parser *ps)
{
	const size_t p = ps->pos;
	return p + 1 < ps->len && ps->s[p] == '#' && !text_is_space(ps->s[p + 1]) &&
	       ps->s[p + 1] != '#';
}

/* Operand i of the form, after the ',' that separates it. */
static int parse_one_operand(parser *ps, emu_cmd *c, emu_src *src, const char *cn,
			     const emu_form_info *f, unsigned i)
{
	const bool imm = f->ops[i] == EMU_AT_IMM;
	char fd[64];
	skip_ws(ps);
	if (i > 0) {
		if (ps->pos < ps->len && ps->s[ps->pos] == ',') {
			ps->pos++;
			skip_ws(ps);
		} else if (!at_end(ps) || looks_imm(ps)) {
			return perr(ps, ps->pos, "expected ',' before operand %s, found %s",
				    f->names[i], found(ps, ps->pos, fd, sizeof fd));
		}
	}
	if (!looks_imm(ps) && at_end(ps))
		return perr(ps, ps->pos, "missing operand %s: %s takes %s", f->names[i],
			    cn, f->syntax);
	src->at[f->ops[i]] = ps->pos + 1;
	if (imm != looks_imm(ps))
		return perr(ps, ps->pos, "expected %s for operand %s, found %s",
			    !imm ? "a buffer name, wl:N or tag"
			    : c->c.fmt == ISA_FMT_INT ? "an immediate #N" : "an immediate #VALUE",
			    f->names[i], found(ps, ps->pos, fd, sizeof fd));
	return imm ? parse_imm(ps, c, cn)
		   : parse_operand(ps, c, (unsigned)(f->ops[i] - EMU_AT_D), f->names[i]);
}

static int parse_operands(parser *ps, emu_cmd *c, emu_src *src, const char *cn)
{
	const emu_form_info *f = emu_form_of(isa_info_of(c->c.op)->form);
	for (unsigned i = 0; i < f->nops; i++)
		if (parse_one_operand(ps, c, src, cn, f, i))
			return -1;
	if (!at_end(ps) && ps->s[ps->pos] == ',')
		return perr(ps, ps->pos, "too many operands: %s takes %u (%s)", cn,
			    f->nops, f->syntax);
	return 0;
}

/* "@ arrays=PATTERN bitlines=PATTERN", each optional, in any order. */
static int parse_selection(parser *ps, emu_cmd *c, emu_src *src, bool *has_arrays,
			   bool *has_bitlines)
{
	char fd[64];
	ps->pos++; /* '@' */
	while (!at_end(ps)) {
		const size_t t = ps->pos, n = word_len(ps, t);
		const bool arr = word_is(ps, t, n, "arrays");
		if (!arr && !word_is(ps, t, n, "bitlines"))
			return perr(ps, t, "expected arrays=PATTERN or bitlines=PATTERN, found %s",
				    found(ps, t, fd, sizeof fd));
		bool *has = arr ? has_arrays : has_bitlines;
		if (*has)
			return perr(ps, t, "%s= is given twice", arr ? "arrays" : "bitlines");
		ps->pos = t + n;
		if (ps->pos >= ps->len || ps->s[ps->pos] != '=')
			return perr(ps, ps->pos, "expected '=' right after '%s'",
				    arr ? "arrays" : "bitlines");
		ps->pos++;
		src->at[arr ? EMU_AT_ARRAYS : EMU_AT_BITLINES] = ps->pos + 1;
		if (parse_pattern(ps, arr ? "arrays" : "bitlines", arr ? &c->arrays : &c->bitlines))
			return -1;
		*has = true;
	}
	if (!*has_arrays && !*has_bitlines)
		return perr(ps, ps->pos, "expected arrays=PATTERN or bitlines=PATTERN after '@'");
	return 0;
}

/* Default arrays: the destination buffer's (else the first buffer
 * operand's), in the order d, d2, a, b. */
static bool default_arrays(const parser *ps, emu_cmd *c)
{
	const int16_t order[4] = {c->buf_d, c->buf_d2, c->buf_a, c->buf_b};
	for (unsigned k = 0; k < 4; k++)
		if (order[k] >= 0) {
			c->arrays = ps->p->bufs[order[k]].arrays;
			return true;
		}
	return false;
}

/* The command of mnemonic mn for type ty, whose suffix is at t. */
static int resolve_op(parser *ps, const char *mn, const elem_type *ty, size_t t)
{
	const int op = isa_lookup_fmt(mn, ty->fmt);
	char types[128], tn[16];
	if (op >= 0)
		return op;
	emu_mnemonic_types(mn, types, sizeof types);
	return perr(ps, t, "'%s' does not take .%s elements; it takes %s", mn,
		    isa_type_name(ty->fmt, ty->width, ty->is_signed, tn, sizeof tn), types);
}

/* ".TYPE" after the mnemonic mn, and cvt's second ".TYPE" (its source):
 * the command's op and types into c. */
static int parse_suffixes(parser *ps, const char *mn, emu_cmd *c)
{
	elem_type ty, src = {0, 0, 0};
	char tn[16];
	const size_t t = ++ps->pos; /* after '.' */
	if (parse_type(ps, &ty))
		return -1;
	const bool two = ps->pos < ps->len && ps->s[ps->pos] == '.';
	const size_t t2 = ps->pos + 1;
	if (two && (ps->pos++, parse_type(ps, &src)))
		return -1;
	const int op = resolve_op(ps, mn, &ty, t);
	if (op < 0)
		return -1;
	const bool conv = isa_class_of((unsigned)op) == ISA_CLASS_X;
	if (conv && !two)
		return perr(ps, ps->pos, "'%s' takes two type suffixes, the destination's first "
			    "(%s.f32.i32, %s.i16.bf16)", mn, mn, mn);
	if (!conv && two)
		return perr(ps, t2 - 1, "'%s' takes one type suffix; only a conversion (cvt) "
			    "takes two", mn);
	if (conv && ty.fmt == src.fmt && ty.width == src.width && ty.is_signed == src.is_signed)
		return perr(ps, t2, "%s.%s.%s converts a type to itself; the two suffixes must "
			    "differ", mn, isa_type_name(ty.fmt, ty.width, ty.is_signed, tn, sizeof tn),
			    tn);
	c->c.op = (uint16_t)op;
	c->c.fmt = (uint8_t)ty.fmt;
	c->c.width = (uint8_t)ty.width;
	c->c.is_signed = (uint8_t)ty.is_signed;
	c->c.sfmt = (uint8_t)src.fmt;
	c->c.swidth = (uint8_t)src.width;
	c->c.ssigned = (uint8_t)src.is_signed;
	return 0;
}

static int parse_command(parser *ps, size_t t, size_t n)
{
	char mn[32], cn[40], fd[64];
	if (n >= sizeof mn)
		return unknown_command(ps, t, n);
	memcpy(mn, ps->s + t, n);
	mn[n] = '\0';
	if (isa_lookup(mn) < 0)
		return unknown_command(ps, t, n);
	emu_cmd c;
	emu_src src = {.path = ps->path, .line = ps->line, .at = {[EMU_AT_STMT] = t + 1}};
	bool has_arrays = false, has_bitlines = false;
	memset(&c, 0, sizeof c);
	c.c.d = c.c.d2 = c.c.a = c.c.b = c.c.c3 = ISA_NONE;
	c.buf_d = c.buf_d2 = c.buf_a = c.buf_b = c.buf_c = -1;
	c.line = ps->line;
	if (parse_suffixes(ps, mn, &c))
		return -1;
	emu_asm_settings(&ps->a, &c.c);
	emu_cmd_name(&c.c, cn, sizeof cn);
	if (parse_operands(ps, &c, &src, cn))
		return -1;
	if (!at_end(ps) && ps->s[ps->pos] == '@' &&
	    parse_selection(ps, &c, &src, &has_arrays, &has_bitlines))
		return -1;
	if (!at_end(ps))
		return perr(ps, ps->pos, "unexpected %s after the operands; expected '@', a "
			    "comment or the end of the line", found(ps, ps->pos, fd, sizeof fd));
	if (!has_arrays && !default_arrays(ps, &c))
		return perr(ps, t, "%s names no buffer, so it needs '@ arrays=PATTERN' to "
			    "say which arrays run it", cn);
	if (!has_bitlines)
		c.bitlines = emu_pattern_range(ps->p->geom.bitlines);
	if (!ps->cmd_line)
		ps->cmd_line = ps->line;
	return emu_asm_cmd(&ps->a, &c, &src);
}

/* ---- directives ---- */

static int parse_machine(parser *ps, size_t t)
{
	static const char *const keys = EMU_GEOM_KEY_LIST;
	char key[32], val[64], fd[64];
	bool seen[EMU_GEOM_KEYS] = {false};
	sram_geom g = ps->p->geom;
	if (ps->machine_line)
		return perr(ps, t, "a second 'machine' line; the machine is already set at "
			    "line %d", ps->machine_line);
	if (ps->decl_line || ps->cmd_line)
		return perr(ps, t, "'machine' must come before every scratch, buffer and "
			    "command line (line %d has one)",
			    ps->decl_line ? ps->decl_line : ps->cmd_line);
	while (!at_end(ps)) {
		const size_t k = ps->pos, n = word_len(ps, k);
		int ki = -1;
		if (n > 0 && n < sizeof key) {
			memcpy(key, ps->s + k, n);
			key[n] = '\0';
			ki = emu_geom_key_index(key);
		}
		if (ki < 0)
			return perr(ps, k, "expected a machine setting (%s), found %s", keys,
				    found(ps, k, fd, sizeof fd));
		if (seen[ki])
			return perr(ps, k, "'%s' is given twice", key);
		seen[ki] = true;
		ps->pos = k + n;
		if (ps->pos >= ps->len || ps->s[ps->pos] != '=')
			return perr(ps, ps->pos, "expected '=' right after '%s' (%s=VALUE)", key, key);
		const size_t v = ++ps->pos, vn = run_len(ps, v);
		const char *err;
		if (vn == 0 || vn >= sizeof val)
			return perr(ps, v, "expected a value after '%s='", key);
		memcpy(val, ps->s + v, vn);
		val[vn] = '\0';
		if (emu_geom_set(&g, key, val, &err))
			return perr(ps, v, "machine %s=%s: %s", key, val, err);
		ps->pos = v + vn;
	}
	emu_geom_override_apply(ps->ov, &g);
	const char *e = sram_geom_check(&g);
	if (e)
		return perr(ps, t, "this machine is not valid%s: %s",
			    ps->ov && ps->ov->keys ? " with the settings given outside the stream" : "", e);
	ps->p->geom = g;
	emu_asm_free(&ps->a);
	emu_asm_init(&ps->a, ps->p, ps->d);
	ps->machine_line = ps->line;
	return 0;
}

static int parse_scratch(parser *ps, size_t t)
{
	char fd[64];
	uint64_t v;
	if (ps->cmd_line)
		return perr(ps, t, "'scratch' must come before the first command (line %d)",
			    ps->cmd_line);
	if (ps->scratch_line)
		return perr(ps, t, "a second 'scratch' line; scratch is already set at line %d",
			    ps->scratch_line);
	emu_src src = {.path = ps->path, .line = ps->line, .at = {[EMU_AT_STMT] = t + 1}};
	if (at_end(ps))
		return perr(ps, ps->pos, "expected the first scratch wordline after 'scratch'");
	src.at[EMU_AT_WL] = ps->pos + 1;
	if (parse_index(ps, "scratch wordline", (uint64_t)ps->p->geom.wordlines + 1, &v))
		return -1;
	if (!at_end(ps))
		return perr(ps, ps->pos, "unexpected %s after the scratch wordline",
			    found(ps, ps->pos, fd, sizeof fd));
	ps->scratch_line = ps->line;
	return emu_asm_scratch(&ps->a, (unsigned)v, &src);
}

/* init=none | zero | iota | random:SEED | const:VALUE */
static int parse_init(parser *ps, emu_buffer *b)
{
	static const char *const kinds[] = {"none", "zero", "iota", "random", "const"};
	const size_t t = ps->pos, n = word_len(ps, t);
	char fd[64];
	const unsigned k = word_index(ps, t, n, kinds, 5);
	if (k == 5)
		return perr(ps, t, "unknown init %s; expected none, zero, iota, random:SEED or "
			    "const:VALUE", found(ps, t, fd, sizeof fd));
	b->init = (emu_init_kind)k;
	ps->pos = t + n;
	const bool wants = k == EMU_INIT_RANDOM || k == EMU_INIT_CONST;
	const bool has = ps->pos < ps->len && ps->s[ps->pos] == ':';
	if (wants != has)
		return perr(ps, ps->pos, wants ? "expected ':' and a value after '%s'"
				: "init=%s takes no value", kinds[k]);
	if (!wants)
		return 0;
	const size_t v = ++ps->pos;
	uint64_t mag;
	bool neg;
	if (k == EMU_INIT_CONST && b->fmt != ISA_FMT_INT) {
		char err[160], f[64];
		size_t used;
		if (emu_literal_parse(b->fmt, b->width, ps->s + v, ps->len - v, &b->init_arg,
				      &used, err, sizeof err))
			return perr(ps, v, "init=const: %s, found %s", err, found(ps, v, f, sizeof f));
		ps->pos = v + used;
		return 0;
	}
	if (parse_number(ps, k == EMU_INIT_RANDOM ? "a seed" : "a value", &mag, &neg))
		return -1;
	const uint64_t min_mag = UINT64_C(1) << (b->width - 1);
	if (k == EMU_INIT_RANDOM && neg && mag)
		return perr(ps, v, "a seed cannot be negative");
	if (k == EMU_INIT_CONST && (neg ? mag > min_mag : mag > isa_mask(b->width)))
		return perr(ps, v, "init value %.*s does not fit in %u bits; expected -%" PRIu64
			    " to %" PRIu64, (int)(ps->pos - v), ps->s + v, b->width, min_mag,
			    isa_mask(b->width));
	b->init_arg = k == EMU_INIT_RANDOM ? mag : (neg ? 0 - mag : mag) & isa_mask(b->width);
	return 0;
}

/* One field of a buffer line: wl=N, arrays=PATTERN or init=KIND. */
/* The KEY= of a declaration's KEY=VALUE field: one of fields[0..n), not
 * given before (seen), followed right away by '='.  *k gets its index and
 * ps->pos the value's start.  what names the declaration ("buffer"),
 * expect the fields it takes, for the message. */
static int parse_field_key(parser *ps, const char *const *fields, unsigned n,
			   const char *what, const char *expect, bool *seen,
			   unsigned *k)
{
	const size_t t = ps->pos, len = word_len(ps, t);
	char fd[64];
	*k = word_index(ps, t, len, fields, n);
	if (*k == n)
		return perr(ps, t, "unknown %s field %s; expected %s", what,
			    found(ps, t, fd, sizeof fd), expect);
	if (seen[*k])
		return perr(ps, t, "%s= is given twice", fields[*k]);
	seen[*k] = true;
	ps->pos = t + len;
	if (ps->pos >= ps->len || ps->s[ps->pos] != '=')
		return perr(ps, ps->pos, "expected '=' right after '%s'", fields[*k]);
	ps->pos++;
	return 0;
}

static int parse_buffer_field(parser *ps, emu_buffer *b, emu_src *src, bool seen[3])
{
	static const char *const fields[] = {"wl", "arrays", "init"};
	static const enum emu_part parts[] = {EMU_AT_WL, EMU_AT_ARRAYS, EMU_AT_INIT};
	uint64_t v;
	unsigned k;
	if (parse_field_key(ps, fields, 3, "buffer", "wl=N, arrays=PATTERN or init=KIND",
			    seen, &k) != 0)
		return -1;
	src->at[parts[k]] = ps->pos + 1;
	if (k == 1)
		return parse_pattern(ps, "arrays", &b->arrays);
	if (k == 2)
		return parse_init(ps, b);
	if (parse_index(ps, "wordline", ps->p->geom.wordlines, &v))
		return -1;
	b->wl = (uint16_t)v;
	return 0;
}

/* buffer NAME TYPE LENGTH wl=N arrays=PATTERN [init=KIND] */
/* The name after `buffer` or `tensor` (what), at statement offset t,
 * into b; its offset into src.  *nt and *n get its place and length. */
static int parse_decl_name(parser *ps, size_t t, const char *what, emu_buffer *b,
			   emu_src *src, size_t *nt, size_t *n)
{
	char fd[64];
	if (ps->cmd_line)
		return perr(ps, t, "%ss must be declared before the first command (line %d)",
			    what, ps->cmd_line);
	skip_ws(ps);
	*nt = ps->pos;
	*n = word_len(ps, *nt);
	if (*n == 0)
		return perr(ps, *nt, "expected a %s name after '%s', found %s", what, what,
			    found(ps, *nt, fd, sizeof fd));
	if (*n >= EMU_NAME_MAX)
		return perr(ps, *nt, "%s name is %zu characters long; at most %d", what, *n,
			    EMU_NAME_MAX - 1);
	memcpy(b->name, ps->s + *nt, *n);
	src->at[EMU_AT_NAME] = *nt + 1;
	ps->pos = *nt + *n;
	return 0;
}

static int parse_buffer(parser *ps, size_t t)
{
	emu_buffer b;
	emu_src src = {.path = ps->path, .line = ps->line, .at = {[EMU_AT_STMT] = t + 1}};
	bool seen[3] = {false}, neg;
	memset(&b, 0, sizeof b);
	size_t nt, n;
	if (parse_decl_name(ps, t, "buffer", &b, &src, &nt, &n) != 0)
		return -1;
	if (!at_end(ps) && ps->pos == nt + n)
		return perr(ps, ps->pos, "unexpected '%c' in buffer name '%s'; a name is "
			    "[A-Za-z_][A-Za-z0-9_]*", ps->s[ps->pos], b.name);
	if (at_end(ps))
		return perr(ps, ps->pos, "expected an element type (%s, e.g. i32) after "
			    "the buffer name", EMU_TYPE_LIST);
	src.at[EMU_AT_TYPE] = ps->pos + 1;
	elem_type ty;
	if (parse_type(ps, &ty))
		return -1;
	b.fmt = (uint8_t)ty.fmt;
	b.width = (uint8_t)ty.width;
	b.is_signed = (uint8_t)ty.is_signed;
	if (at_end(ps))
		return perr(ps, ps->pos, "expected the buffer's length (its number of elements)");
	src.at[EMU_AT_LENGTH] = ps->pos + 1;
	if (parse_number(ps, "the buffer's length", &b.length, &neg))
		return -1;
	if (neg && b.length)
		return perr(ps, src.at[EMU_AT_LENGTH] - 1, "a buffer length cannot be negative");
	while (!at_end(ps))
		if (parse_buffer_field(ps, &b, &src, seen))
			return -1;
	if (!seen[0] || !seen[1])
		return perr(ps, ps->pos, "buffer '%s' needs %s", b.name,
			    !seen[0] ? "wl=N (its first wordline)"
				     : "arrays=PATTERN (the arrays that hold it)");
	b.line = ps->line;
	b.col = (int)nt + 1;
	return emu_asm_buffer(&ps->a, &b, &src);
}

/* ---- tensors (doc/FORMAT.md, "Tensors") ---- */

/* The one reader of sizes, for the stream's tensor line and the tDFG
 * (assemble.h): decimal only, so "0x10" is a size 0 and not sixteen. */
int emu_scan_sizes(const char *s, size_t len, size_t *pos, const char *what,
		   uint64_t out[3], unsigned *nd, char *err, size_t errsize)
{
	*nd = 0;
	for (;;) {
		const size_t t = *pos;
		uint64_t v = 0;
		size_t k = t;
		while (k < len && s[k] >= '0' && s[k] <= '9' && v <= UINT32_MAX)
			v = v * 10 + (uint64_t)(s[k++] - '0');
		while (k < len && s[k] >= '0' && s[k] <= '9')
			k++;
		if (k == t) {
			size_t n = 0;
			while (t + n < len && n < 40 && !text_is_space(s[t + n]) && s[t + n] != '#')
				n++;
			if (n)
				snprintf(err, errsize, "expected %s as numbers joined by 'x' (4x4, "
					 "innermost first), found '%.*s'", what, (int)n, s + t);
			else
				snprintf(err, errsize, "expected %s as numbers joined by 'x' (4x4, "
					 "innermost first), found the end of the line", what);
			return -1;
		}
		if (v == 0 || v > UINT32_MAX) {
			snprintf(err, errsize, "%s: size %.*s is out of range; expected 1 to "
				 "4294967295 (32 bits, Table 1)", what, (int)(k - t), s + t);
			return -1;
		}
		if (*nd == 3) {
			snprintf(err, errsize, "%s: more than 3 dimensions; a tensor has 1 to 3 "
				 "(fuse the outer ones)", what);
			return -1;
		}
		out[(*nd)++] = v;
		*pos = k;
		if (*pos >= len || s[*pos] != 'x')
			break;
		(*pos)++;
	}
	if (*pos < len && text_is_ident_char(s[*pos])) {
		size_t n = 0;
		while (*pos + n < len && n < 40 && text_is_ident_char(s[*pos + n]))
			n++;
		snprintf(err, errsize, "unexpected '%.*s' in %s; expected sizes such as 4x4",
			 (int)n, s + *pos, what);
		return -1;
	}
	return 0;
}

/* Sizes "S0xS1[xS2]", innermost first, each 1 to 2^32 - 1 (Table 1). */
static int parse_dims(parser *ps, const char *what, uint64_t out[3], unsigned *nd)
{
	char err[DIAG_MAX / 2];
	if (emu_scan_sizes(ps->s, ps->len, &ps->pos, what, out, nd, err, sizeof err))
		return perr(ps, ps->pos, "%s", err);
	return 0;
}

/* hint=KIND:DIM[,KIND:DIM]...: the computation's data movement, for the
 * tile selection (§4.1: reduce, shift, broadcast). */
static int parse_hint(parser *ps, emu_compute *h)
{
	static const char *const kinds[] = {"reduce", "shift", "broadcast"};
	char fd[64];
	for (;;) {
		const size_t t = ps->pos, n = word_len(ps, t);
		const unsigned k = word_index(ps, t, n, kinds, 3);
		if (k == 3)
			return perr(ps, t, "expected a hint reduce:DIM, shift:DIM or "
				    "broadcast:DIM, found %s", found(ps, t, fd, sizeof fd));
		ps->pos = t + n;
		if (ps->pos + 1 >= ps->len || ps->s[ps->pos] != ':' ||
		    ps->s[ps->pos + 1] < '0' || ps->s[ps->pos + 1] > '2')
			return perr(ps, ps->pos, "expected ':' and a dimension 0, 1 or 2 after "
				    "'%s'", kinds[k]);
		const unsigned bit = 1u << (ps->s[ps->pos + 1] - '0');
		*(k == 0 ? &h->reduce : k == 1 ? &h->shift : &h->broadcast) |= bit;
		ps->pos += 2;
		if (ps->pos >= ps->len || ps->s[ps->pos] != ',')
			return 0;
		ps->pos++;
	}
}

/* One field of a tensor line: wl=, array=, tile=, hint= or init=. */
static int parse_tensor_field(parser *ps, emu_buffer *b, emu_src *src, bool seen[5],
			      unsigned *ntile, emu_compute *hint)
{
	static const char *const fields[] = {"wl", "array", "tile", "hint", "init"};
	static const enum emu_part parts[] = {EMU_AT_WL, EMU_AT_ARRAYS, EMU_AT_LENGTH,
					      EMU_AT_STMT, EMU_AT_INIT};
	uint64_t v;
	unsigned k;
	if (parse_field_key(ps, fields, 5, "tensor", "wl=N, array=N, tile=T0xT1, "
			    "hint=KIND:DIM, init=KIND, shared or scratch", seen, &k) != 0)
		return -1;
	if (k != 3)
		src->at[parts[k]] = ps->pos + 1;
	if (k == 2)
		return parse_dims(ps, "tile", b->tile, ntile);
	if (k == 3)
		return parse_hint(ps, hint);
	if (k == 4)
		return parse_init(ps, b);
	if (k == 1) {
		if (parse_index(ps, "array", ps->a.narrays, &v))
			return -1;
		b->arrays.start = (int64_t)v;
		return 0;
	}
	if (parse_index(ps, "wordline", ps->p->geom.wordlines, &v))
		return -1;
	b->wl = (uint16_t)v;
	return 0;
}

/* The tile: as given (it must have the tensor's dimensions), else the
 * tile selection's choice (§4.1) under the hints. */
static int tensor_tile(parser *ps, emu_buffer *b, unsigned ntile,
		       const emu_compute *hint, const emu_src *src)
{
	if (ntile && ntile != b->ndims)
		return perr(ps, src->at[EMU_AT_LENGTH] - 1, "tensor '%s' has %u dimension%s "
			    "but its tile has %u; expected one tile size per dimension",
			    b->name, b->ndims, b->ndims == 1 ? "" : "s", ntile);
	for (unsigned k = ntile ? ntile : 0; k < 3; k++)
		b->tile[k] = 1;
	emu_region r;
	emu_tile_req q = {0, 0, *hint};
	uint64_t T[EMU_LAYOUT_DIMS];
	emu_buffer_region(b, &r);
	r.path = ps->path;
	r.line = ps->line;
	r.col = src->at[EMU_AT_NAME];
	if (ntile)
		return 0;
	if (emu_tile_select(&r, &ps->p->geom, &q, T, ps->d))
		return -1;
	memcpy(b->tile, T, sizeof T);
	return 0;
}

/* tensor NAME TYPE S0xS1[xS2] wl=N array=N [tile=T0xT1] [hint=...] [init=KIND] */
static int parse_tensor(parser *ps, size_t t)
{
	emu_buffer b;
	emu_src src = {.path = ps->path, .line = ps->line, .at = {[EMU_AT_STMT] = t + 1}};
	bool seen[5] = {false};
	emu_compute hint = {0, 0, 0};
	unsigned nd, ntile = 0;
	elem_type ty;
	memset(&b, 0, sizeof b);
	size_t nt, n;
	if (parse_decl_name(ps, t, "tensor", &b, &src, &nt, &n) != 0)
		return -1;
	if (at_end(ps))
		return perr(ps, ps->pos, "expected an element type (%s) after the tensor name",
			    EMU_TYPE_LIST);
	src.at[EMU_AT_TYPE] = ps->pos + 1;
	if (parse_type(ps, &ty))
		return -1;
	b.fmt = (uint8_t)ty.fmt;
	b.width = (uint8_t)ty.width;
	b.is_signed = (uint8_t)ty.is_signed;
	skip_ws(ps);
	src.at[EMU_AT_LENGTH] = ps->pos + 1;
	if (parse_dims(ps, "the tensor's sizes", b.shape, &nd))
		return -1;
	b.ndims = (uint8_t)nd;
	for (unsigned k = nd; k < 3; k++)
		b.shape[k] = 1;
	b.length = b.shape[0] * b.shape[1] * b.shape[2];
	while (!at_end(ps)) {
		const size_t w = ps->pos, wn = word_len(ps, w);
		if (wn == 6 && memcmp(ps->s + w, "shared", 6) == 0 && !b.shared) {
			b.shared = 1;
			ps->pos = w + wn;
			continue;
		}
		if (wn == 7 && memcmp(ps->s + w, "scratch", 7) == 0 && !b.scratch &&
		    (w + wn >= ps->len || ps->s[w + wn] != '=')) {
			b.scratch = 1;
			ps->pos = w + wn;
			continue;
		}
		if (parse_tensor_field(ps, &b, &src, seen, &ntile, &hint))
			return -1;
	}
	if (!seen[0] || !seen[1])
		return perr(ps, ps->pos, "tensor '%s' needs %s", b.name, !seen[0]
			    ? "wl=N (its first wordline)" : "array=N (the array of its tile 0)");
	b.line = ps->line;
	b.col = (int)nt + 1;
	if (tensor_tile(ps, &b, ntile, &hint, &src))
		return -1;
	emu_region r;
	emu_buffer_region(&b, &r);
	b.arrays = emu_pattern_range(emu_region_tiles(&r));
	b.arrays.start = (int64_t)r.array0;
	if (emu_asm_buffer(&ps->a, &b, &src))
		return -1;
	/* A given tile obeys the rules a chosen one does (constraint 2
	 * and the line rule among them), once the assembler has found it a
	 * valid tensor; unless it is Fig 9's tile on part of an array. */
	if (!ntile)
		return 0;
	const uint64_t P = emu_region_tile_bitlines(&r);
	emu_tile_req q = {0, P > ps->p->geom.bitlines ? P : 0, hint};
	r.path = ps->path;
	r.line = ps->line;
	r.col = src.at[EMU_AT_LENGTH];
	return emu_tile_check_given(&r, &ps->p->geom, &q, ps->d);
}

/* ---- moves (doc/FORMAT.md, "Moves"; semantics in doc/MOVEMENT.md) ---- */

enum mv_field { MF_DIST, MF_WL, MF_N, MF_TO, MF_SCRATCH, MF_DST, MF_REUSE, MF_VALUE,
		MF_COUNT };
static const char *const mv_fields[MF_COUNT] = {"dist", "wl", "n", "to", "scratch",
						"dst", "reuse", "value"};

/* The fields each kind takes (bit per mv_field) and must have. */
static const unsigned mv_takes[EMU_MOVE_KINDS] = {
	[EMU_MOVE_INTRA] = 1u << MF_DIST | 1u << MF_WL | 1u << MF_N | 1u << MF_TO | 1u << MF_SCRATCH,
	[EMU_MOVE_INTER] = 1u << MF_DIST | 1u << MF_WL | 1u << MF_N | 1u << MF_TO | 1u << MF_DST,
	[EMU_MOVE_BCAST] = 1u << MF_DIST | 1u << MF_WL | 1u << MF_N | 1u << MF_TO | 1u << MF_DST |
			   1u << MF_REUSE,
	[EMU_MOVE_CONST] = 1u << MF_VALUE | 1u << MF_WL | 1u << MF_N,
};
static const char *const mv_syntax[EMU_MOVE_KINDS] = {
	"dist=D wl=W n=N to=T [scratch=S]", "dist=D wl=W n=N to=T dst=PATTERN",
	"dist=D reuse=STRIDE:COUNT wl=W n=N to=T dst=PATTERN", "value=V wl=W n=N", "",
};

/* A signed number that fits 63 bits. */
static int parse_signed(parser *ps, const char *what, int64_t *v)
{
	const size_t t = ps->pos;
	uint64_t mag;
	bool neg;
	if (ps->pos < ps->len && ps->s[ps->pos] == '+')
		ps->pos++;
	if (parse_number(ps, what, &mag, &neg))
		return -1;
	if (mag > INT64_MAX)
		return perr(ps, t, "%s %.*s is out of range", what, (int)(ps->pos - t), ps->s + t);
	*v = neg ? -(int64_t)mag : (int64_t)mag;
	return 0;
}

static int parse_mv_value(parser *ps, emu_move *m, unsigned f)
{
	uint64_t v;
	bool neg;
	const uint64_t W = ps->p->geom.wordlines;
	switch (f) {
	case MF_DIST:
		return parse_signed(ps, "distance", &m->dist);
	case MF_DST:
		return parse_pattern(ps, "dst", &m->dst_bitlines);
	case MF_VALUE:
		if (parse_number(ps, "a value", &m->value, &neg))
			return -1;
		if (neg)
			return perr(ps, ps->pos, "a constant's value is its bits; expected 0 or more");
		return 0;
	case MF_REUSE:
		if (parse_signed(ps, "reuse stride", &m->reuse_stride))
			return -1;
		if (ps->pos >= ps->len || ps->s[ps->pos] != ':')
			return perr(ps, ps->pos, "expected ':' and the reuse count (reuse=STRIDE:COUNT)");
		ps->pos++;
		return parse_number(ps, "the reuse count", &m->reuse_count, &neg) ? -1
		       : neg ? perr(ps, ps->pos, "a reuse count cannot be negative") : 0;
	default:
		if (parse_index(ps, f == MF_N ? "wordline count" : "wordline", W + (f == MF_N), &v))
			return -1;
		*(f == MF_WL ? &m->wl : f == MF_N ? &m->nwl : f == MF_TO ? &m->dst_wl
		  : &m->scratch) = (uint16_t)v;
		return 0;
	}
}

/* The KEY=VALUE fields of a move, before '@'. */
static int parse_mv_fields(parser *ps, emu_move *m, const char *kn, unsigned *seen)
{
	char fd[64];
	while (!at_end(ps) && ps->s[ps->pos] != '@') {
		const size_t t = ps->pos, n = word_len(ps, t);
		const unsigned f = word_index(ps, t, n, mv_fields, MF_COUNT);
		if (f == MF_COUNT || !(mv_takes[m->kind] >> f & 1))
			return perr(ps, t, "%s takes %s; found %s", kn, mv_syntax[m->kind],
				    found(ps, t, fd, sizeof fd));
		if (*seen >> f & 1)
			return perr(ps, t, "%s= is given twice", mv_fields[f]);
		*seen |= 1u << f;
		ps->pos = t + n;
		if (ps->pos >= ps->len || ps->s[ps->pos] != '=')
			return perr(ps, ps->pos, "expected '=' right after '%s'", mv_fields[f]);
		ps->pos++;
		if (parse_mv_value(ps, m, f))
			return -1;
	}
	const unsigned need = mv_takes[m->kind] & ~(1u << MF_SCRATCH) & ~*seen;
	for (unsigned f = 0; f < MF_COUNT; f++)
		if (need >> f & 1)
			return perr(ps, ps->pos, "%s needs %s=; it takes %s", kn, mv_fields[f],
				    mv_syntax[m->kind]);
	return 0;
}

/* "@ arrays=PATTERN bitlines=PATTERN", both required for a move. */
static int parse_mv_selection(parser *ps, emu_move *m, const char *kn, emu_src *src)
{
	emu_cmd tmp;
	bool has_a = false, has_b = false;
	if (at_end(ps) || ps->s[ps->pos] != '@')
		return perr(ps, ps->pos, "%s needs '@ arrays=PATTERN bitlines=PATTERN' (its tile "
			    "and bitline patterns)", kn);
	memset(&tmp, 0, sizeof tmp);
	if (parse_selection(ps, &tmp, src, &has_a, &has_b))
		return -1;
	if (!has_a || !has_b)
		return perr(ps, ps->pos, "%s needs %s=PATTERN after '@'", kn,
			    has_a ? "bitlines" : "arrays");
	m->arrays = tmp.arrays;
	m->bitlines = tmp.bitlines;
	return 0;
}

/* mv.KIND FIELDS @ arrays=PATTERN bitlines=PATTERN */
static int parse_mv(parser *ps, size_t t)
{
	static const char *const kinds[] = {"intra", "inter", "bcast", "const"};
	emu_cmd c;
	emu_src src = {.path = ps->path, .line = ps->line, .at = {[EMU_AT_STMT] = t + 1}};
	char kn[16], fd[64];
	unsigned seen = 0;
	memset(&c, 0, sizeof c);
	const size_t k = ++ps->pos, n = word_len(ps, k);
	const unsigned kind = word_index(ps, k, n, kinds, 4);
	if (kind == 4)
		return perr(ps, k, "unknown move %s; expected mv.intra, mv.inter, mv.bcast or "
			    "mv.const", found(ps, k - 3, fd, sizeof fd));
	ps->pos = k + n;
	snprintf(kn, sizeof kn, "mv.%s", kinds[kind]);
	c.mv.kind = (uint8_t)kind;
	c.mv.scratch = SRAM_NO_ROW;
	if (parse_mv_fields(ps, &c.mv, kn, &seen) || parse_mv_selection(ps, &c.mv, kn, &src))
		return -1;
	if (!at_end(ps))
		return perr(ps, ps->pos, "unexpected %s after the patterns of %s",
			    found(ps, ps->pos, fd, sizeof fd), kn);
	emu_asm_default_scratch(&ps->a);
	/* A shift by 2 or more goes through a scratch row: the program's. */
	const uint64_t ad = c.mv.dist < 0 ? 0 - (uint64_t)c.mv.dist : (uint64_t)c.mv.dist;
	if (kind == EMU_MOVE_INTRA && !(seen >> MF_SCRATCH & 1) && ad >= 2 &&
	    ps->p->scratch < ps->p->geom.wordlines)
		c.mv.scratch = ps->p->scratch;
	if (!ps->cmd_line)
		ps->cmd_line = ps->line;
	return emu_asm_move(&ps->a, &c, &src);
}

static int parse_sync(parser *ps, size_t t)
{
	char fd[64];
	emu_cmd c;
	emu_src src = {.path = ps->path, .line = ps->line, .at = {[EMU_AT_STMT] = t + 1}};
	if (!at_end(ps))
		return perr(ps, ps->pos, "sync takes nothing; found %s",
			    found(ps, ps->pos, fd, sizeof fd));
	memset(&c, 0, sizeof c);
	c.mv = emu_move_sync();
	if (!ps->cmd_line)
		ps->cmd_line = ps->line;
	return emu_asm_move(&ps->a, &c, &src);
}

/* ---- the tensor move, as written (EMU_CMD_TMOVE) ---- */

/* A tensor operand of `move`. */
static int parse_tensor_name(parser *ps, const char *role, int *bi)
{
	const size_t t = ps->pos, n = word_len(ps, t);
	char fd[64];
	if (n == 0)
		return perr(ps, t, "expected the %s tensor of move, found %s", role,
			    found(ps, t, fd, sizeof fd));
	*bi = emu_asm_find(&ps->a, ps->s + t, n);
	if (*bi < 0)
		return perr(ps, t, "unknown tensor '%.*s'; declare it first with a tensor line",
			    n > 63 ? 63 : (int)n, ps->s + t);
	if (!ps->p->bufs[*bi].ndims)
		return perr(ps, t, "'%s' is a buffer, not a tensor; move lowers moves of "
			    "tiled tensors (declare it with a tensor line)", ps->p->bufs[*bi].name);
	ps->pos = t + n;
	return 0;
}

static int expect_comma(parser *ps, const char *what)
{
	char fd[64];
	skip_ws(ps);
	if (ps->pos >= ps->len || ps->s[ps->pos] != ',')
		return perr(ps, ps->pos, "expected ',' before %s, found %s", what,
			    found(ps, ps->pos, fd, sizeof fd));
	ps->pos++;
	skip_ws(ps);
	return 0;
}

/* "@ box=LO:HI[,LO:HI]...": the moved elements, half-open per dimension,
 * innermost first; the whole tensor when absent. */
static int parse_box(parser *ps, const emu_buffer *b, emu_box *box)
{
	char fd[64];
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++) {
		box->lo[k] = 0;
		box->hi[k] = b->shape[k];
	}
	if (at_end(ps))
		return 0;
	if (ps->s[ps->pos] != '@' || (ps->pos++, skip_ws(ps), 0) ||
	    ps->pos + 4 > ps->len || memcmp(ps->s + ps->pos, "box=", 4) != 0)
		return perr(ps, ps->pos, "expected '@ box=LO:HI,...' or the end of the line, "
			    "found %s", found(ps, ps->pos, fd, sizeof fd));
	ps->pos += 4;
	for (unsigned k = 0; k < b->ndims; k++) {
		uint64_t lo, hi;
		const size_t t = ps->pos;
		if (k && (ps->pos >= ps->len || ps->s[ps->pos++] != ','))
			return perr(ps, t, "box: expected ',' and LO:HI of dimension %u (one "
				    "range per dimension of '%s')", k, b->name);
		if (parse_index(ps, "box start", b->shape[k] + 1, &lo))
			return -1;
		if (ps->pos >= ps->len || ps->s[ps->pos++] != ':')
			return perr(ps, ps->pos - 1, "box: expected ':' after the start (LO:HI)");
		if (parse_index(ps, "box end", b->shape[k] + 1, &hi))
			return -1;
		if (hi <= lo)
			return perr(ps, t, "box: dimension %u is empty (%" PRIu64 ":%" PRIu64
				    "); expected LO < HI", k, lo, hi);
		box->lo[k] = lo;
		box->hi[k] = hi;
	}
	return at_end(ps) ? 0 : perr(ps, ps->pos, "unexpected %s after the box",
				      found(ps, ps->pos, fd, sizeof fd));
}

/* The destination must be the source's layout at other wordlines: the
 * lowering writes the moved value into the same tiles (§4.2). */
static int same_layout(parser *ps, size_t t, const emu_buffer *d, const emu_buffer *s)
{
	const bool same = d->fmt == s->fmt && d->width == s->width &&
			  d->ndims == s->ndims && d->arrays.start == s->arrays.start &&
			  !memcmp(d->shape, s->shape, sizeof d->shape) &&
			  !memcmp(d->tile, s->tile, sizeof d->tile);
	return same ? 0 : perr(ps, t, "move: '%s' and '%s' must have the same type, sizes, "
			       "tiles and first array (a move writes the source's layout at "
			       "the destination's wordlines)", d->name, s->name);
}

static int push_tensor_move(parser *ps, size_t t, int di, int si, const emu_box *box,
			    const int64_t *off)
{
	emu_cmd c;
	emu_src src = {.path = ps->path, .line = ps->line, .at = {[EMU_AT_STMT] = t + 1}};
	memset(&c, 0, sizeof c);
	c.tm.dst = (int16_t)di;
	c.tm.src = (int16_t)si;
	for (unsigned k = 0; k < 3; k++) {
		c.tm.off[k] = off[k];
		c.tm.lo[k] = box->lo[k];
		c.tm.hi[k] = box->hi[k];
	}
	if (!ps->cmd_line)
		ps->cmd_line = ps->line;
	return emu_asm_tmove(&ps->a, &c, &src);
}

/* move DST, SRC, OFF0[, OFF1[, OFF2]] [@ box=LO:HI,...]: each element of
 * the box goes OFF away (one nonzero component); kept as written, and
 * lowered into mv.intra / mv.inter / sync commands by Algorithms 1 and 2
 * in emu_program_lower. */
static int parse_tensor_move(parser *ps, size_t t)
{
	int di, si;
	int64_t off[EMU_LAYOUT_DIMS] = {0, 0, 0};
	emu_box box;
	skip_ws(ps);
	if (parse_tensor_name(ps, "destination", &di) || expect_comma(ps, "the source") ||
	    parse_tensor_name(ps, "source", &si))
		return -1;
	const emu_buffer *d = &ps->p->bufs[di], *s = &ps->p->bufs[si];
	if (same_layout(ps, t, d, s))
		return -1;
	size_t at0 = ps->pos;
	unsigned moving = 0;
	for (unsigned k = 0; k < s->ndims; k++) {
		if (expect_comma(ps, "an offset (one per dimension, innermost first)"))
			return -1;
		skip_ws(ps);
		if (k == 0)
			at0 = ps->pos;
		if (parse_signed(ps, "offset", &off[k]))
			return -1;
		moving += off[k] != 0;
	}
	/* §3.2: a mv moves along one dimension (doc/FORMAT.md, "Moves"). */
	if (moving != 1)
		return perr(ps, at0, "a move goes along exactly one dimension; %u offsets are "
			    "nonzero, expected one", moving);
	skip_ws(ps);
	if (ps->pos < ps->len && ps->s[ps->pos] == ',')
		return perr(ps, ps->pos, "too many offsets: '%s' has %u dimension%s", s->name,
			    s->ndims, s->ndims == 1 ? "" : "s");
	if (parse_box(ps, s, &box))
		return -1;
	return push_tensor_move(ps, t, di, si, &box, off);
}

/* ---- node markers (doc/FORMAT.md, "Node markers") ---- */

/* A marker's selector NAME=VALUE (run=N, or a region parameter's
 * value) into m; its word is at pos, n characters. */
static int parse_mark_sel(parser *ps, emu_mark *m, size_t pos, size_t n)
{
	char fd[64];
	if (m->nsel == EMU_MARK_SELS)
		return perr(ps, pos, "node '%s': at most %d selectors (run=N and parameter "
			    "values) on one marker", m->name, EMU_MARK_SELS);
	if (n >= EMU_NAME_MAX)
		return perr(ps, pos, "selector name is %zu characters long; at most %d", n,
			    EMU_NAME_MAX - 1);
	for (unsigned k = 0; k < m->nsel; k++)
		if (word_is(ps, pos, n, m->sel[k].name))
			return perr(ps, pos, "node '%s': '%.*s=' is given twice", m->name, (int)n,
				    ps->s + pos);
	struct emu_mark_sel *sl = &m->sel[m->nsel];
	memcpy(sl->name, ps->s + pos, n);
	sl->name[n] = '\0';
	ps->pos = pos + n + 1;
	const size_t vt = ps->pos;
	uint64_t mag;
	bool neg;
	const bool run = strcmp(sl->name, "run") == 0;
	if (vt >= ps->len || text_is_space(ps->s[vt]))
		return perr(ps, vt, "expected %s after '%s=', found %s",
			    run ? "the run's number (1 for the region's first run)"
				: "the parameter's value", sl->name, found(ps, vt, fd, sizeof fd));
	if (parse_number(ps, run ? "a run number" : "a parameter value", &mag, &neg))
		return -1;
	if (run && (neg || mag == 0 || mag > UINT32_MAX))
		return perr(ps, vt, "run=%s%" PRIu64 " is out of range; runs are numbered from 1 "
			    "(run=1 is the region's first run)", neg ? "-" : "", mag);
	if (!run && mag > (uint64_t)INT64_MAX + neg)
		return perr(ps, vt, "parameter value %s%" PRIu64 " does not fit in 64 bits",
			    neg ? "-" : "", mag);
	sl->value = neg ? (int64_t)(0 - mag) : (int64_t)mag;
	m->nsel++;
	return 0;
}

/* node NAME [tensor=T] [strm] [run=N] [PARAM=VALUE ...]: after the
 * commands so far, tensor T (by default the one called NAME) holds the
 * value of the tDFG node NAME (of the run the selectors name); with
 * strm, the node's near-memory stream runs here first. */
static int parse_node(parser *ps, size_t t)
{
	char fd[64];
	emu_mark m;
	memset(&m, 0, sizeof m);
	skip_ws(ps);
	const size_t nt = ps->pos, n = word_len(ps, nt);
	if (n == 0)
		return perr(ps, nt, "expected the name of a tDFG node after 'node', found %s",
			    found(ps, nt, fd, sizeof fd));
	if (n >= EMU_NAME_MAX)
		return perr(ps, nt, "node name is %zu characters long; at most %d", n,
			    EMU_NAME_MAX - 1);
	memcpy(m.name, ps->s + nt, n);
	m.name[n] = '\0';
	ps->pos = nt + n;
	size_t tt = nt, tn = n;
	bool strm = false;
	while (!at_end(ps)) {
		const size_t w = ps->pos, wn = word_len(ps, w);
		const bool eq = wn && w + wn < ps->len && ps->s[w + wn] == '=';
		if (eq && word_is(ps, w, wn, "tensor") && tt == nt) {
			tt = w + 7;
			tn = word_len(ps, tt);
			if (tn == 0)
				return perr(ps, tt, "expected a tensor name after 'tensor=', found %s",
					    found(ps, tt, fd, sizeof fd));
			ps->pos = tt + tn;
		} else if (!eq && word_is(ps, w, wn, "strm") && !strm) {
			strm = true;
			ps->pos = w + wn;
		} else if (eq && !word_is(ps, w, wn, "tensor")) {
			if (parse_mark_sel(ps, &m, w, wn))
				return -1;
		} else {
			return perr(ps, w, "unexpected %s after the node marker's name; expected "
				    "tensor=NAME, strm, run=N, PARAM=VALUE or the end of the line",
				    found(ps, w, fd, sizeof fd));
		}
		if (ps->pos < ps->len && !text_is_space(ps->s[ps->pos]) && ps->s[ps->pos] != '#')
			return perr(ps, ps->pos, "unexpected %s in the node marker; expected a space "
				    "or the end of the line", found(ps, ps->pos, fd, sizeof fd));
	}
	const int bi = emu_asm_find(&ps->a, ps->s + tt, tn);
	if (bi < 0)
		return perr(ps, tt, "node '%s': no tensor '%.*s' is declared%s", m.name,
			    tn > 63 ? 63 : (int)tn, ps->s + tt,
			    tt == nt ? "; name the one that holds it with tensor=NAME" : "");
	if (!ps->p->bufs[bi].ndims)
		return perr(ps, tt, "node '%s': '%s' is a buffer, not a tensor; a node's value "
			    "is held by a tensor of its region's shape", m.name, ps->p->bufs[bi].name);
	if (ps->p->bufs[bi].scratch)
		return perr(ps, tt, "node '%s': tensor '%s' is declared scratch, so it holds no "
			    "tDFG node; drop 'scratch' from its line, or mark another tensor",
			    m.name, ps->p->bufs[bi].name);
	if (emu_program_mark(ps->p, m.name, (int16_t)bi, ps->line))
		return perr(ps, t, "out of memory");
	emu_mark *pm = &ps->p->marks[ps->p->nmarks - 1];
	pm->strm = strm;
	pm->nsel = m.nsel;
	memcpy(pm->sel, m.sel, sizeof m.sel);
	return 0;
}

static int parse_statement(parser *ps)
{
	char fd[64];
	if (at_end(ps))
		return 0;
	const size_t t = ps->pos, n = word_len(ps, t);
	if (n == 0)
		return perr(ps, t, "expected a command or a directive (machine, scratch, "
			    "buffer, tensor), found %s", found(ps, t, fd, sizeof fd));
	ps->pos = t + n;
	const bool dot = ps->pos < ps->len && ps->s[ps->pos] == '.';
	if (dot && word_is(ps, t, n, "mv"))
		return parse_mv(ps, t);
	if (dot)
		return parse_command(ps, t, n);
	if (word_is(ps, t, n, "machine"))
		return parse_machine(ps, t);
	const bool decl = word_is(ps, t, n, "scratch") || word_is(ps, t, n, "buffer") ||
			  word_is(ps, t, n, "tensor");
	if (!ps->decl_line && decl)
		ps->decl_line = ps->line;
	if (word_is(ps, t, n, "scratch"))
		return parse_scratch(ps, t);
	if (word_is(ps, t, n, "buffer"))
		return parse_buffer(ps, t);
	if (word_is(ps, t, n, "tensor"))
		return parse_tensor(ps, t);
	if (word_is(ps, t, n, "sync"))
		return parse_sync(ps, t);
	if (word_is(ps, t, n, "move"))
		return parse_tensor_move(ps, t);
	if (word_is(ps, t, n, "node"))
		return parse_node(ps, t);
	return unknown_command(ps, t, n);
}

int emu_parse(const char *path, const char *text, size_t len,
	      const sram_geom *geom_default, emu_program *out, diag *d)
{
	return emu_parse_over(path, text, len, geom_default, NULL, out, d);
}

int emu_parse_over(const char *path, const char *text, size_t len,
		   const sram_geom *geom_default, const emu_geom_override *ov,
		   emu_program *out, diag *d)
{
	parser ps;
	text_lines it;
	text_line ln;
	int rc;
	emu_program_init(out);
	path = path ? path : "<input>";
	if (geom_default)
		out->geom = *geom_default;
	emu_geom_override_apply(ov, &out->geom);
	const char *e = sram_geom_check(&out->geom);
	if (e) {
		diag_file(d, path, "the default machine is not valid: %s", e);
		return -1;
	}
	if (!(out->path = strdup(path))) {
		diag_file(d, path, "out of memory");
		return -1;
	}
	memset(&ps, 0, sizeof ps);
	ps.p = out;
	ps.ov = ov;
	ps.path = path;
	ps.d = d;
	emu_asm_init(&ps.a, out, d);
	text_lines_init(&it, path, text, len);
	while ((rc = text_lines_next(&it, &ln, d)) > 0) {
		ps.s = ln.s;
		ps.len = ln.len;
		ps.pos = 0;
		ps.line = ln.no;
		if (parse_statement(&ps)) {
			rc = -1;
			break;
		}
	}
	emu_asm_default_scratch(&ps.a);
	emu_asm_free(&ps.a);
	if (rc < 0)
		emu_program_free(out);
	return rc < 0 ? -1 : 0;
}

int emu_parse_file(const char *path, const sram_geom *geom_default,
		   emu_program *out, diag *d)
{
	char *text;
	size_t len;
	emu_program_init(out);
	if (text_read_file(path, TEXT_FILE_MAX, &text, &len, d))
		return -1;
	int rc = emu_parse(path, text, len, geom_default, out, d);
	free(text);
	return rc;
}
