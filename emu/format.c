/*
 * format.c: the disassembler: emu_program to canonical text.
 *
 * Canonical means explicit: the machine line with every key, the scratch
 * line, every buffer field (init=none included) and every command's
 * `@ arrays=... bitlines=...`, so that nothing depends on a default that
 * could change, emu_parse(emu_format(p)) rebuilds p field for field, and
 * formatting that again gives the same bytes.
 */
#include "program.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assemble.h"

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
	const uint16_t wl[] = {c->c.d, c->c.d2, c->c.a, c->c.b};
	const int16_t bi[] = {c->buf_d, c->buf_d2, c->buf_a, c->buf_b};
	if (part == EMU_AT_IMM) {
		if (c->c.is_signed)
			put(buf, size, n, "#%" PRId64, isa_sext(c->c.imm, c->c.width));
		else
			put(buf, size, n, "#%" PRIu64, c->c.imm);
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

int emu_format_cmd(const emu_program *p, const emu_cmd *c, char *buf, size_t size)
{
	size_t n = 0;
	char name[40], arr[EMU_PAT_TEXT], bl[EMU_PAT_TEXT];
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
	fprintf(f, " init=%s", b->init <= EMU_INIT_CONST ? kinds[b->init] : "?");
	if (b->init == EMU_INIT_RANDOM)
		fprintf(f, ":%" PRIu64, b->init_arg);
	else if (b->init == EMU_INIT_CONST && b->is_signed)
		fprintf(f, ":%" PRId64, isa_sext(b->init_arg, b->width));
	else if (b->init == EMU_INIT_CONST)
		fprintf(f, ":%" PRIu64, b->init_arg);
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
		emu_pattern_format(&b->arrays, line, sizeof line);
		fprintf(f, "buffer %s %c%u %" PRIu64 " wl=%u arrays=%s", b->name,
			b->is_signed ? 'i' : 'u', b->width, b->length, b->wl, line);
		put_init(b, f);
		fputc('\n', f);
	}
	for (size_t i = 0; i < p->ncmds; i++) {
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
