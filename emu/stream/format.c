/* SPDX-License-Identifier: MIT */
/*
 * format.c: the disassembler: emu_program to canonical text.
 *
 * Canonical means explicit: the machine line with every size (the
 * controller's settings when they are not the defaults, so that older
 * transcripts keep their text), the scratch line, every buffer field
 * (init=none included) and every command's `@ arrays=... bitlines=...`,
 * so that nothing depends on a default that could change,
 * emu_parse(emu_format(p)) rebuilds p field for field, and formatting
 * that again gives the same bytes.  Float and .qN values are written as
 * the shortest literal that parses back to the same bits (emu_literal_text),
 * and as bits:0x... when no decimal does.
 */
#include "program.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assemble.h"
#include "movecmd.h"

/* ---- element values ---- */

/* Are bits an infinity (nan false) or a NaN (nan true) of ff? */
static bool fp_is(const isa_fpfmt *ff, uint64_t bits, bool nan)
{
	const uint64_t emax = isa_mask(ff->ebits), frac = bits & isa_mask(ff->mbits);
	return ((bits >> ff->mbits) & emax) == emax && (nan ? frac != 0 : frac == 0);
}

/* The value of a float or .qN element as a double. */
static double elem_double(unsigned fmt, unsigned width, uint64_t bits)
{
	return fmt == ISA_FMT_FIX ? isa_fix_to_double(width, bits)
				  : isa_fp_to_double(fmt, bits);
}

/* v with prec significant digits: %g, but without an exponent from
 * 1e-5 to 1e16 (65500, not 6.55e+04). */
static int digits_text(double v, int prec, char *t, size_t size)
{
	int n = snprintf(t, size, "%.*g", prec, v);
	const char *e = strchr(t, 'e');
	const int e10 = e ? atoi(e + 1) : 0;
	if (e && e10 >= -5 && e10 < 16)
		n = snprintf(t, size, "%.*f", prec - 1 - e10 > 0 ? prec - 1 - e10 : 0, v);
	return n;
}

/* The fewest significant digits of v (1 to 17) that emu_literal_parse
 * reads back as bits, as NumPy prints its floats; 0 if none does. */
static int shortest_literal(unsigned fmt, unsigned width, uint64_t bits, double v,
			    char *buf, size_t size)
{
	char t[64], err[160];
	for (int prec = 1; prec <= 17; prec++) {
		uint64_t back;
		size_t used;
		int n = digits_text(v, prec, t, sizeof t);
		if (emu_literal_parse(fmt, width, t, (size_t)n, &back, &used, err, sizeof err) == 0 &&
		    used == (size_t)n && back == bits)
			return snprintf(buf, size, "%s", t);
	}
	return 0;
}

int emu_literal_text(unsigned fmt, unsigned width, unsigned is_signed,
		     uint64_t bits, char *buf, size_t size)
{
	const isa_fpfmt *ff = isa_fpfmt_of(fmt);
	bits &= isa_mask(width);
	if (fmt == ISA_FMT_INT)
		return is_signed ? snprintf(buf, size, "%" PRId64, isa_sext(bits, width))
				 : snprintf(buf, size, "%" PRIu64, bits);
	if (ff && fp_is(ff, bits, true) && bits == isa_fp_nan(fmt))
		return snprintf(buf, size, "nan");
	if (ff && fp_is(ff, bits, false))
		return snprintf(buf, size, "%sinf", bits >> (width - 1) ? "-" : "");
	int n = ff && fp_is(ff, bits, true) ? 0
		: shortest_literal(fmt, width, bits, elem_double(fmt, width, bits), buf, size);
	return n ? n : snprintf(buf, size, "bits:0x%0*" PRIx64, (int)(width + 3) / 4, bits);
}

int emu_value_text(unsigned fmt, unsigned width, unsigned is_signed,
		   uint64_t bits, bool with_bits, char *buf, size_t size)
{
	const isa_fpfmt *ff = isa_fpfmt_of(fmt);
	char v[64];
	bits &= isa_mask(width);
	if (ff && fp_is(ff, bits, true))
		snprintf(v, sizeof v, "nan");
	else if (ff && fp_is(ff, bits, false))
		snprintf(v, sizeof v, "%sinf", bits >> (width - 1) ? "-" : "");
	else if (ff) /* enough digits to tell any two values apart */
		snprintf(v, sizeof v, "%.*g", ff->mbits > 10 ? 9 : ff->mbits > 7 ? 5 : 4,
			 isa_fp_to_double(fmt, bits));
	else if (fmt == ISA_FMT_INT)
		emu_literal_text(fmt, width, is_signed, bits, v, sizeof v);
	else if (!shortest_literal(fmt, width, bits, elem_double(fmt, width, bits), v, sizeof v))
		snprintf(v, sizeof v, "%.17g", elem_double(fmt, width, bits));
	if (!with_bits)
		return snprintf(buf, size, "%s", v);
	return snprintf(buf, size, "%s (0x%0*" PRIx64 ")", v, (int)(width + 3) / 4, bits);
}

/* snprintf into buf[0..size) at offset *n, keeping the total length the
 * way snprintf does when the buffer is too small. */
static void put(char *buf, size_t size, size_t *n, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void put(char *buf, size_t size, size_t *n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(*n < size ? buf + *n : NULL, *n < size ? size - *n : 0, fmt, ap);
	va_end(ap);
	if (k > 0)
		*n += (size_t)k;
}

static void put_operand(const emu_program *p, const emu_cmd *c, enum emu_part part,
			char *buf, size_t size, size_t *n)
{
	const uint16_t wl[] = {c->c.d, c->c.d2, c->c.a, c->c.b, c->c.c3};
	const int16_t bi[] = {c->buf_d, c->buf_d2, c->buf_a, c->buf_b, c->buf_c};
	if (part == EMU_AT_IMM) {
		char lit[96];
		emu_literal_text(c->c.fmt, c->c.width, c->c.is_signed, c->c.imm, lit, sizeof lit);
		put(buf, size, n, "#%s", lit);
		return;
	}
	const unsigned k = (unsigned)(part - EMU_AT_D);
	if (bi[k] >= 0 && (size_t)bi[k] < p->nbufs)
		put(buf, size, n, "%s", p->bufs[bi[k]].name);
	else if (wl[k] == ISA_TAG)
		put(buf, size, n, "tag");
	else
		put(buf, size, n, "wl:%u", wl[k]);
}

/* move DST, SRC, OFF... @ box=LO:HI,...: the tensor move as written; the
 * box is printed only when it is not the whole tensor. */
static int format_tmove(const emu_program *p, const emu_tmove *tm, char *buf, size_t size)
{
	size_t n = 0;
	const emu_buffer *s = &p->bufs[tm->src];
	bool whole = true;
	put(buf, size, &n, "move %s, %s", p->bufs[tm->dst].name, s->name);
	for (unsigned k = 0; k < s->ndims; k++) {
		put(buf, size, &n, ", %+" PRId64, tm->off[k]);
		whole &= tm->lo[k] == 0 && tm->hi[k] == s->shape[k];
	}
	for (unsigned k = 0; !whole && k < s->ndims; k++)
		put(buf, size, &n, "%s%" PRIu64 ":%" PRIu64, k ? "," : " @ box=", tm->lo[k],
		    tm->hi[k]);
	return (int)n;
}

int emu_format_cmd(const emu_program *p, const emu_cmd *c, char *buf, size_t size)
{
	size_t n = 0;
	char name[48], arr[EMU_PAT_TEXT], bl[EMU_PAT_TEXT];
	if (c->kind == EMU_CMD_MOVE)
		return emu_move_format(&c->mv, buf, size);
	if (c->kind == EMU_CMD_TMOVE)
		return format_tmove(p, &c->tm, buf, size);
	const isa_info *in = isa_info_of(c->c.op);
	const emu_form_info *f = in ? emu_form_of(in->form) : NULL;
	emu_cmd_name(&c->c, name, sizeof name);
	put(buf, size, &n, "%s", name);
	for (unsigned i = 0; f && i < f->nops; i++) {
		put(buf, size, &n, "%s", i ? ", " : " ");
		put_operand(p, c, f->ops[i], buf, size, &n);
	}
	emu_pattern_format(&c->arrays, arr, sizeof arr);
	emu_pattern_format(&c->bitlines, bl, sizeof bl);
	put(buf, size, &n, " @ arrays=%s bitlines=%s", arr, bl);
	if (size && n >= size)
		buf[size - 1] = '\0';
	return (int)n;
}

static void put_init(const emu_buffer *b, FILE *f)
{
	static const char *const kinds[] = {"none", "zero", "iota", "random", "const"};
	char lit[96];
	fprintf(f, " init=%s", b->init <= EMU_INIT_CONST ? kinds[b->init] : "?");
	if (b->init == EMU_INIT_RANDOM)
		fprintf(f, ":%" PRIu64, b->init_arg);
	else if (b->init == EMU_INIT_CONST) {
		emu_literal_text(b->fmt, b->width, b->is_signed, b->init_arg, lit, sizeof lit);
		fprintf(f, ":%s", lit);
	}
}

/* "4x4": sizes or tiles of a tensor's dimensions, innermost first. */
static void put_dims(FILE *f, const uint64_t *v, unsigned nd)
{
	for (unsigned k = 0; k < nd; k++)
		fprintf(f, "%s%" PRIu64, k ? "x" : "", v[k]);
}

/* A tensor line without init: every field, the tile included, so that
 * the tile selection never runs again on the canonical text. */
static void put_tensor(const emu_buffer *b, FILE *f)
{
	char tn[16];
	fprintf(f, "tensor %s %s ", b->name, emu_buffer_type(b, tn, sizeof tn));
	put_dims(f, b->shape, b->ndims);
	fprintf(f, " wl=%u array=%" PRId64 " tile=", b->wl, b->arrays.start);
	put_dims(f, b->tile, b->ndims);
	if (b->shared)
		fputs(" shared", f);
	if (b->scratch)
		fputs(" scratch", f);
}

/* "node NAME", or "node NAME tensor=T" when another tensor holds it;
 * " strm" after it where a strm node's stream runs. */
static void put_mark(const emu_program *p, const emu_mark *m, FILE *f)
{
	const char *t = p->bufs[m->buf].name;
	fprintf(f, "node %s", m->name);
	if (strcmp(t, m->name) != 0)
		fprintf(f, " tensor=%s", t);
	if (m->strm)
		fputs(" strm", f);
	for (unsigned k = 0; k < m->nsel; k++)
		fprintf(f, " %s=%" PRId64, m->sel[k].name, m->sel[k].value);
	fputc('\n', f);
}

char *emu_format(const emu_program *p)
{
	char *text = NULL, line[4096];
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	if (!f)
		return NULL;
	emu_geom_format(&p->geom, line, sizeof line);
	fprintf(f, "machine %s\nscratch %u\n", line, p->scratch);
	for (size_t i = 0; i < p->nbufs; i++) {
		const emu_buffer *b = &p->bufs[i];
		char tn[16];
		emu_pattern_format(&b->arrays, line, sizeof line);
		if (b->ndims)
			put_tensor(b, f);
		else
			fprintf(f, "buffer %s %s %" PRIu64 " wl=%u arrays=%s", b->name,
				emu_buffer_type(b, tn, sizeof tn), b->length, b->wl, line);
		put_init(b, f);
		fputc('\n', f);
	}
	size_t m = 0;
	for (size_t i = 0; i <= p->ncmds; i++) {
		for (; m < p->nmarks && p->marks[m].at == i; m++)
			put_mark(p, &p->marks[m], f);
		if (i == p->ncmds)
			break;
		emu_format_cmd(p, &p->cmds[i], line, sizeof line);
		fprintf(f, "%s\n", line);
	}
	if (ferror(f)) {
		fclose(f);
		free(text);
		return NULL;
	}
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}
