/* SPDX-License-Identifier: MIT */
/*
 * encode.c: the assembler's binary form, 64-bit words (doc/FORMAT.md,
 * "Binary format"; stored little-endian in files).
 *
 *   header   magic "INFSIMB1", version 5, total words, the machine
 *            (4 words), its settings fp|latency|cordic, scratch, buffer
 *            count, command count
 *   buffer   name (8 words), width|signed|init|fmt|wl|shared|scratch|ndims, length, init
 *            value, array pattern; a tensor (ndims 1..3) then its sizes
 *            and tiles (6 words)
 *   command  op|width|signed|fmt|sfmt|swidth|ssigned, d|d2|a|b, imm,
 *            buffer indices, c3|buffer c|flags|iters, array pattern,
 *            bitline pattern
 *   move     0xffff|kind<<16 (op 0xffff marks a move); unless a sync:
 *            dist, reuse stride, reuse count, wl|n|to|scratch, value,
 *            array, bitline and destination bitline patterns
 *   pattern  start, ndims, then (stride, count) per dimension
 *   markers  their count, then per node marker its name (8 words),
 *            at (bits 0-43: commands before it) | selectors << 44 |
 *            strm << 47 | tensor index << 48, and per selector (run=N,
 *            PARAM=VALUE) its name (8 words) and value
 * Version 2 added the element formats, madd's c, the settings (fp=,
 * latency=, cordic=) and what each command carries of them.  Version 3
 * added tensors and moves, version 4 node markers, version 5 scratch
 * tensors and the markers' selectors.
 *
 * The decoder trusts nothing: every read is bounds-checked, every
 * reserved bit must be zero, and the program is rebuilt through emu_asm,
 * the same checks (isa_check included) as the text parser's.  Errors name
 * the offset of the word at fault.
 */
#include "program.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "assemble.h"
#include "text.h"

#define MAGIC UINT64_C(0x31424D4953464E49) /* "INFSIMB1" read little-endian */
#define VERSION 5
#define MOVE_OP 0xffffu
#define HEADER_WORDS 11
#define NAME_WORDS (EMU_NAME_MAX / 8)
#define MIN_BUF_WORDS (NAME_WORDS + 5)
#define MIN_CMD_WORDS 1 /* a sync */
#define U16_OF(w, k) ((uint16_t)((w) >> (16 * (k))))

typedef struct writer {
	uint64_t *w;
	size_t n, cap;
	bool oom;
} writer;

static void emit(writer *wr, uint64_t v)
{
	if (wr->oom)
		return;
	if (wr->n == wr->cap) {
		size_t cap = wr->cap ? wr->cap * 2 : 256;
		uint64_t *nw = cap > wr->cap ? realloc(wr->w, cap * sizeof *nw) : NULL;
		if (!nw) {
			wr->oom = true;
			return;
		}
		wr->w = nw;
		wr->cap = cap;
	}
	wr->w[wr->n++] = v;
}

static void emit_pattern(writer *wr, const emu_pattern *p)
{
	emit(wr, (uint64_t)p->start);
	emit(wr, p->ndims);
	for (unsigned k = 0; k < p->ndims && k < EMU_PAT_MAX_DIMS; k++) {
		emit(wr, (uint64_t)p->stride[k]);
		emit(wr, p->count[k]);
	}
}

static void emit_name(writer *wr, const char *name);

static void emit_buffer(writer *wr, const emu_buffer *b)
{
	emit_name(wr, b->name);
	emit(wr, b->width | (uint64_t)b->is_signed << 8 | (uint64_t)b->init << 16 |
		 (uint64_t)b->fmt << 24 | (uint64_t)b->wl << 32 | (uint64_t)b->shared << 48 | (uint64_t)b->scratch << 49 |
		 (uint64_t)b->ndims << 56);
	emit(wr, b->length);
	emit(wr, b->init_arg);
	emit_pattern(wr, &b->arrays);
	for (unsigned k = 0; b->ndims && k < 3; k++)
		emit(wr, b->shape[k]);
	for (unsigned k = 0; b->ndims && k < 3; k++)
		emit(wr, b->tile[k]);
}

static void emit_move(writer *wr, const emu_move *m)
{
	emit(wr, MOVE_OP | (uint64_t)m->kind << 16);
	if (m->kind == EMU_MOVE_SYNC)
		return;
	emit(wr, (uint64_t)m->dist);
	emit(wr, (uint64_t)m->reuse_stride);
	emit(wr, m->reuse_count);
	emit(wr, m->wl | (uint64_t)m->nwl << 16 | (uint64_t)m->dst_wl << 32 |
		 (uint64_t)m->scratch << 48);
	emit(wr, m->value);
	emit_pattern(wr, &m->arrays);
	emit_pattern(wr, &m->bitlines);
	emit_pattern(wr, &m->dst_bitlines);
}

static void emit_name(writer *wr, const char *name)
{
	for (unsigned j = 0; j < NAME_WORDS; j++) {
		uint64_t v = 0;
		for (unsigned i = 0; i < 8; i++)
			v |= (uint64_t)(unsigned char)name[8 * j + i] << (8 * i);
		emit(wr, v);
	}
}

/* The node markers after the commands: count, then name and
 * at|selectors|strm|tensor: at in bits 0-43, the number of selectors in
 * bits 44-46, bit 47 set for a strm marker, the tensor in bits 48-63;
 * then each selector's name and value. */
#define MARK_SEL_BIT 44
#define MARK_STRM_BIT 47
static void emit_marks(writer *wr, const emu_program *p)
{
	emit(wr, p->nmarks);
	for (size_t i = 0; i < p->nmarks; i++) {
		const emu_mark *m = &p->marks[i];
		emit_name(wr, m->name);
		emit(wr, (uint64_t)m->at | (uint64_t)m->nsel << MARK_SEL_BIT |
			 (uint64_t)m->strm << MARK_STRM_BIT | (uint64_t)(uint16_t)m->buf << 48);
		for (unsigned k = 0; k < m->nsel; k++) {
			emit_name(wr, m->sel[k].name);
			emit(wr, (uint64_t)m->sel[k].value);
		}
	}
}

static void emit_cmd(writer *wr, const emu_cmd *c)
{
	const isa_cmd *k = &c->c;
	if (c->kind == EMU_CMD_MOVE) {
		emit_move(wr, &c->mv);
		return;
	}
	emit(wr, k->op | (uint64_t)k->width << 16 | (uint64_t)k->is_signed << 24 |
		 (uint64_t)k->fmt << 32 | (uint64_t)k->sfmt << 40 |
		 (uint64_t)k->swidth << 48 | (uint64_t)k->ssigned << 56);
	emit(wr, k->d | (uint64_t)k->d2 << 16 | (uint64_t)k->a << 32 | (uint64_t)k->b << 48);
	emit(wr, k->imm);
	emit(wr, (uint16_t)c->buf_d | (uint64_t)(uint16_t)c->buf_d2 << 16 |
		 (uint64_t)(uint16_t)c->buf_a << 32 | (uint64_t)(uint16_t)c->buf_b << 48);
	emit(wr, k->c3 | (uint64_t)(uint16_t)c->buf_c << 16 | (uint64_t)k->flags << 32 |
		 (uint64_t)k->iters << 40);
	emit_pattern(wr, &c->arrays);
	emit_pattern(wr, &c->bitlines);
}

int emu_encode(const emu_program *p, uint64_t **words, size_t *nwords, diag *d)
{
	writer wr = {0};
	const sram_geom *g = &p->geom;
	if (emu_program_need_lowered(p, d)) /* the binary form holds lowered programs */
		return -1;
	emit(&wr, MAGIC);
	emit(&wr, VERSION);
	emit(&wr, 0); /* total, filled in below */
	emit(&wr, g->wordlines);
	emit(&wr, g->bitlines);
	emit(&wr, g->arrays_per_way | (uint64_t)g->ways_per_bank << 32);
	emit(&wr, g->mesh_x | (uint64_t)g->mesh_y << 32);
	emit(&wr, g->fp_ieee | (uint64_t)g->latency_opt << 8 | (uint64_t)g->cordic_iters << 16);
	emit(&wr, p->scratch);
	emit(&wr, p->nbufs);
	emit(&wr, p->ncmds);
	for (size_t i = 0; i < p->nbufs; i++)
		emit_buffer(&wr, &p->bufs[i]);
	for (size_t i = 0; i < p->ncmds; i++)
		emit_cmd(&wr, &p->cmds[i]);
	emit_marks(&wr, p);
	if (wr.oom) {
		free(wr.w);
		diag_file(d, p->path ? p->path : "<program>", "out of memory encoding the program");
		return -1;
	}
	wr.w[2] = wr.n;
	*words = wr.w;
	*nwords = wr.n;
	return 0;
}

/* ---- decoding ---- */

typedef struct reader {
	const char *path;
	const uint64_t *w;
	size_t n, pos;
	diag *d;
} reader;

static int take(reader *r, const char *what, uint64_t *v)
{
	if (r->pos >= r->n) {
		diag_file(r->d, r->path, "word %zu: the stream ends inside %s; it is truncated",
			  r->pos, what);
		return -1;
	}
	*v = r->w[r->pos++];
	return 0;
}

/* Bits outside mask must be zero. */
static int reserved_zero(reader *r, uint64_t v, uint64_t mask, const char *what)
{
	if (!(v & ~mask))
		return 0;
	diag_file(r->d, r->path, "word %zu: reserved bits 0x%016" PRIx64 " of %s are set; "
		  "the stream is corrupted", r->pos - 1, v & ~mask, what);
	return -1;
}

static int take_pattern(reader *r, const char *what, emu_pattern *p)
{
	uint64_t v;
	memset(p, 0, sizeof p[0]);
	if (take(r, what, &v))
		return -1;
	p->start = (int64_t)v;
	if (take(r, what, &v))
		return -1;
	if (v > EMU_PAT_MAX_DIMS) {
		diag_file(r->d, r->path, "word %zu: %s has %" PRIu64 " dimensions; at most %d",
			  r->pos - 1, what, v, EMU_PAT_MAX_DIMS);
		return -1;
	}
	p->ndims = (unsigned)v;
	for (unsigned k = 0; k < p->ndims; k++) {
		if (take(r, what, &v))
			return -1;
		p->stride[k] = (int64_t)v;
		if (take(r, what, &p->count[k]))
			return -1;
	}
	return 0;
}

/* A name: NAME_WORDS words of bytes, a zero byte after the last
 * character and zero bytes to the end. */
static int take_name(reader *r, char name[EMU_NAME_MAX])
{
	uint64_t v;
	for (unsigned j = 0; j < NAME_WORDS; j++) {
		if (take(r, "a buffer name", &v))
			return -1;
		for (unsigned i = 0; i < 8; i++)
			name[8 * j + i] = (char)(v >> (8 * i));
	}
	size_t len = strnlen(name, EMU_NAME_MAX);
	if (len == EMU_NAME_MAX) {
		diag_file(r->d, r->path, "word %zu: the name has no ending zero byte (a name is at "
			  "most %d bytes); the stream is corrupted", r->pos - NAME_WORDS,
			  EMU_NAME_MAX - 1);
		return -1;
	}
	for (size_t i = len; i < EMU_NAME_MAX; i++)
		if (name[i]) {
			diag_file(r->d, r->path, "word %zu: the buffer name is not padded with "
				  "zero bytes; the stream is corrupted", r->pos - NAME_WORDS + i / 8);
			return -1;
		}
	return 0;
}

/* A tensor's tile is always given in the binary form: it obeys the rules
 * the text form checks of a given tile (constraint 2 and the line rule,
 * emu_tile_check_given), so that every stream that decodes has a text
 * that parses.  The message is the layout's, re-pointed at the sizes. */
static int given_tile(emu_asm *a, const emu_buffer *b, const emu_src *s)
{
	const sram_geom *g = &a->p->geom;
	emu_region r;
	emu_buffer_region(b, &r);
	const uint64_t P = emu_region_tile_bitlines(&r);
	const emu_tile_req q = {0, P > g->bitlines ? P : 0, {0, 0, 0}};
	diag rd;
	diag_clear(&rd);
	if (!emu_tile_check_given(&r, g, &q, &rd))
		return 0;
	const char *m = strstr(rd.msg, "error: region ");
	emu_src_error(a->d, s, EMU_AT_LENGTH, "tensor %s", m ? m + 14 : rd.msg);
	return -1;
}

static int take_buffer(reader *r, emu_asm *a)
{
	emu_buffer b;
	emu_src s = {.path = r->path, .binary = true};
	uint64_t v;
	memset(&b, 0, sizeof b);
	s.at[EMU_AT_STMT] = s.at[EMU_AT_NAME] = r->pos;
	if (take_name(r, b.name))
		return -1;
	s.at[EMU_AT_TYPE] = s.at[EMU_AT_WL] = s.at[EMU_AT_INIT] = r->pos;
	if (take(r, "a buffer", &v) ||
	    reserved_zero(r, v, UINT64_C(0xff03ffffffffffff), "a buffer's layout word"))
		return -1;
	b.ndims = (uint8_t)(v >> 56);
	b.shared = (uint8_t)(v >> 48 & 1);
	b.scratch = (uint8_t)(v >> 49 & 1);
	b.width = (uint8_t)v;
	b.is_signed = (uint8_t)(v >> 8);
	b.init = (emu_init_kind)(uint8_t)(v >> 16);
	b.fmt = (uint8_t)(v >> 24);
	b.wl = U16_OF(v, 2);
	s.at[EMU_AT_LENGTH] = r->pos;
	if (take(r, "a buffer", &b.length))
		return -1;
	s.at[EMU_AT_INIT_VALUE] = r->pos;
	if (take(r, "a buffer", &b.init_arg))
		return -1;
	s.at[EMU_AT_ARRAYS] = r->pos;
	if (take_pattern(r, "a buffer's array pattern", &b.arrays))
		return -1;
	if (b.ndims)
		s.at[EMU_AT_LENGTH] = r->pos;
	for (unsigned k = 0; b.ndims && k < 6; k++)
		if (take(r, "a tensor's sizes and tiles", k < 3 ? &b.shape[k] : &b.tile[k - 3]))
			return -1;
	if (emu_asm_buffer(a, &b, &s))
		return -1;
	return b.ndims ? given_tile(a, &b, &s) : 0;
}

/* A move record, after its first word v (doc/FORMAT.md). */
static int take_move(reader *r, emu_asm *a, uint64_t v, const emu_src *s0)
{
	emu_cmd c;
	emu_src s = *s0;
	memset(&c, 0, sizeof c);
	if (reserved_zero(r, v, UINT64_C(0xffffff), "a move's first word"))
		return -1;
	c.mv.kind = (uint8_t)(v >> 16);
	if (c.mv.kind == EMU_MOVE_SYNC)
		return emu_asm_move(a, &c, &s);
	uint64_t w;
	if (take(r, "a move", &w))
		return -1;
	c.mv.dist = (int64_t)w;
	if (take(r, "a move", &w))
		return -1;
	c.mv.reuse_stride = (int64_t)w;
	if (take(r, "a move", &c.mv.reuse_count))
		return -1;
	s.at[EMU_AT_WL] = r->pos;
	if (take(r, "a move", &w))
		return -1;
	c.mv.wl = U16_OF(w, 0);
	c.mv.nwl = U16_OF(w, 1);
	c.mv.dst_wl = U16_OF(w, 2);
	c.mv.scratch = U16_OF(w, 3);
	if (take(r, "a move", &c.mv.value) ||
	    take_pattern(r, "a move's array pattern", &c.mv.arrays) ||
	    take_pattern(r, "a move's bitline pattern", &c.mv.bitlines) ||
	    take_pattern(r, "a move's destination pattern", &c.mv.dst_bitlines))
		return -1;
	return emu_asm_move(a, &c, &s);
}

static int take_cmd(reader *r, emu_asm *a)
{
	emu_cmd c;
	emu_src s = {.path = r->path, .binary = true};
	uint64_t v;
	memset(&c, 0, sizeof c);
	s.at[EMU_AT_STMT] = r->pos;
	if (take(r, "a command", &v))
		return -1;
	if ((v & 0xffff) == MOVE_OP)
		return take_move(r, a, v, &s);
	c.c.op = (uint16_t)v;
	c.c.width = (uint8_t)(v >> 16);
	c.c.is_signed = (uint8_t)(v >> 24);
	c.c.fmt = (uint8_t)(v >> 32);
	c.c.sfmt = (uint8_t)(v >> 40);
	c.c.swidth = (uint8_t)(v >> 48);
	c.c.ssigned = (uint8_t)(v >> 56);
	s.at[EMU_AT_D] = s.at[EMU_AT_D2] = s.at[EMU_AT_A] = s.at[EMU_AT_B] = r->pos;
	if (take(r, "a command", &v))
		return -1;
	c.c.d = U16_OF(v, 0);
	c.c.d2 = U16_OF(v, 1);
	c.c.a = U16_OF(v, 2);
	c.c.b = U16_OF(v, 3);
	s.at[EMU_AT_IMM] = r->pos;
	if (take(r, "a command", &c.c.imm) || take(r, "a command", &v))
		return -1;
	c.buf_d = (int16_t)U16_OF(v, 0);
	c.buf_d2 = (int16_t)U16_OF(v, 1);
	c.buf_a = (int16_t)U16_OF(v, 2);
	c.buf_b = (int16_t)U16_OF(v, 3);
	s.at[EMU_AT_C] = r->pos;
	if (take(r, "a command", &v) ||
	    reserved_zero(r, v, UINT64_C(0x0000ffffffffffff), "a command's c and settings word"))
		return -1;
	c.c.c3 = U16_OF(v, 0);
	c.buf_c = (int16_t)U16_OF(v, 1);
	c.c.flags = (uint8_t)(v >> 32);
	c.c.iters = (uint8_t)(v >> 40);
	s.at[EMU_AT_ARRAYS] = r->pos;
	if (take_pattern(r, "a command's array pattern", &c.arrays))
		return -1;
	s.at[EMU_AT_BITLINES] = r->pos;
	if (take_pattern(r, "a command's bitline pattern", &c.bitlines))
		return -1;
	return emu_asm_cmd(a, &c, &s);
}

/* One node marker: a name that is an identifier, an index that never
 * goes back (markers are in stream order), a tensor that exists. */
static int take_mark(reader *r, emu_program *out, size_t *last_at)
{
	char name[EMU_NAME_MAX];
	uint64_t v;
	const size_t at0 = r->pos;
	if (take_name(r, name) || take(r, "a node marker", &v))
		return -1;
	const size_t n = strlen(name);
	bool ident = n > 0 && text_is_ident_start(name[0]);
	for (size_t i = 1; ident && i < n; i++)
		ident = text_is_ident_char(name[i]);
	const uint64_t at = v & ((UINT64_C(1) << MARK_SEL_BIT) - 1);
	const unsigned nsel = (unsigned)(v >> MARK_SEL_BIT & 7);
	const uint16_t buf = (uint16_t)(v >> 48);
	const char *bad = !ident ? "its name is not an identifier"
			  : nsel > EMU_MARK_SELS ? "it has more selectors than a marker can hold"
			  : at > out->ncmds ? "it comes after more commands than the stream has"
			  : at < *last_at ? "it comes before the marker ahead of it (markers are in "
					    "stream order)"
			  : buf >= out->nbufs ? "its tensor index does not exist"
			  : !out->bufs[buf].ndims ? "its index names a buffer, not a tensor" : NULL;
	if (bad) {
		diag_file(r->d, r->path, "word %zu: node marker: %s; the stream is corrupted",
			  ident ? r->pos - 1 : at0, bad);
		return -1;
	}
	*last_at = (size_t)at;
	const size_t keep = out->ncmds;
	out->ncmds = (size_t)at; /* emu_program_mark marks after the first at commands */
	const int rc = emu_program_mark(out, name, (int16_t)buf, 0);
	out->ncmds = keep;
	if (rc) {
		diag_file(r->d, r->path, "out of memory");
		return rc;
	}
	emu_mark *m = &out->marks[out->nmarks - 1];
	m->strm = v >> MARK_STRM_BIT & 1;
	for (unsigned k = 0; k < nsel; k++) {
		uint64_t x;
		const size_t s0 = r->pos;
		if (take_name(r, m->sel[k].name) || take(r, "a node marker's selector", &x))
			return -1;
		bool ok = text_is_ident_start(m->sel[k].name[0]);
		for (size_t i = 1; ok && m->sel[k].name[i]; i++)
			ok = text_is_ident_char(m->sel[k].name[i]);
		if (!ok || (strcmp(m->sel[k].name, "run") == 0 && (x == 0 || x > UINT32_MAX))) {
			diag_file(r->d, r->path, "word %zu: node marker '%s': its selector %s; the "
				  "stream is corrupted", s0, name, ok ? "run= is out of range"
				  : "name is not an identifier");
			return -1;
		}
		m->sel[k].value = (int64_t)x;
		m->nsel++;
	}
	return 0;
}

static int take_marks(reader *r, emu_program *out)
{
	uint64_t n;
	size_t last_at = 0;
	if (take(r, "the node markers", &n))
		return -1;
	if (n > (r->n - r->pos) / (NAME_WORDS + 1)) {
		diag_file(r->d, r->path, "word %zu: %" PRIu64 " node markers cannot fit in the %zu "
			  "words that follow; the stream is corrupted", r->pos - 1, n, r->n - r->pos);
		return -1;
	}
	for (uint64_t i = 0; i < n; i++)
		if (take_mark(r, out, &last_at))
			return -1;
	return 0;
}

/* Magic, version and length: is this a whole infsim binary? */
static int take_preamble(reader *r)
{
	uint64_t v;
	if (take(r, "the header", &v))
		return -1;
	if (v != MAGIC) {
		diag_file(r->d, r->path, "word 0: bad magic 0x%016" PRIx64 "; expected "
			  "\"INFSIMB1\" (0x%016" PRIx64 "): not an infsim binary", v, MAGIC);
		return -1;
	}
	if (take(r, "the header", &v))
		return -1;
	if (v != VERSION) {
		diag_file(r->d, r->path, "word 1: version %" PRIu64 " is not supported; "
			  "expected %d", v, VERSION);
		return -1;
	}
	if (take(r, "the header", &v))
		return -1;
	if (v > r->n) {
		diag_file(r->d, r->path, "word %zu: the stream ends after %zu words, but its "
			  "header says %" PRIu64 "; it is truncated", r->n, r->n, v);
		return -1;
	}
	if (v < r->n) {
		diag_file(r->d, r->path, "word %" PRIu64 ": %zu words follow the end given in "
			  "the header (word 2); the stream is corrupted", v, r->n - (size_t)v);
		return -1;
	}
	return 0;
}

static int take_machine(reader *r, emu_program *out)
{
	uint64_t w[5];
	for (unsigned i = 0; i < 5; i++)
		if (take(r, "the header", &w[i]))
			return -1;
	if (w[0] > UINT32_MAX || w[1] > UINT32_MAX) {
		diag_file(r->d, r->path, "word %u: the machine is not valid: %s", w[0] > UINT32_MAX ? 3 : 4,
			  "a dimension does not fit in 32 bits");
		return -1;
	}
	sram_geom g = {.wordlines = (unsigned)w[0], .bitlines = (unsigned)w[1],
		       .arrays_per_way = (unsigned)w[2], .ways_per_bank = (unsigned)(w[2] >> 32),
		       .mesh_x = (unsigned)w[3], .mesh_y = (unsigned)(w[3] >> 32)};
	const char *e = sram_geom_check(&g);
	if (e) {
		diag_file(r->d, r->path, "word 3: the machine is not valid: %s", e);
		return -1;
	}
	if (reserved_zero(r, w[4], UINT64_C(0xffffff), "the machine's settings"))
		return -1; /* word 7, the last one read */
	g.fp_ieee = (uint8_t)w[4];
	g.latency_opt = (uint8_t)(w[4] >> 8);
	g.cordic_iters = (uint8_t)(w[4] >> 16);
	if ((e = sram_geom_check(&g)) || g.cordic_iters == ISA_CORDIC_DEFAULT) {
		diag_file(r->d, r->path, "word 7: the machine's settings are not valid: %s",
			  e ? e : "cordic=17 is the default, stored as 0");
		return -1;
	}
	out->geom = g;
	return 0;
}

/* Scratch, buffer and command counts; the counts must fit the words
 * left (a buffer takes at least 13, a command 9), so a corrupted count cannot
 * cause a huge allocation or a long loop. */
static int take_counts(reader *r, emu_asm *a, uint64_t *nbufs, uint64_t *ncmds)
{
	uint64_t scratch;
	emu_src s = {.path = r->path, .binary = true, .at = {[EMU_AT_STMT] = r->pos}};
	if (take(r, "the header", &scratch) || take(r, "the header", nbufs) ||
	    take(r, "the header", ncmds))
		return -1;
	if (scratch > UINT16_MAX)
		scratch = UINT16_MAX; /* emu_asm_scratch reports it out of range */
	if (emu_asm_scratch(a, (unsigned)scratch, &s))
		return -1;
	const uint64_t left = r->n - r->pos;
	if (*nbufs > INT16_MAX || *nbufs > left / MIN_BUF_WORDS ||
	    *ncmds > left / MIN_CMD_WORDS ||
	    *nbufs * MIN_BUF_WORDS + *ncmds * MIN_CMD_WORDS > left) {
		diag_file(r->d, r->path, "word %zu: %" PRIu64 " buffers and %" PRIu64 " commands "
			  "cannot fit in the %" PRIu64 " words that follow (at most %d buffers); "
			  "the stream is corrupted", r->pos - 2, *nbufs, *ncmds, left, INT16_MAX);
		return -1;
	}
	return 0;
}

int emu_decode(const char *path, const uint64_t *words, size_t nwords,
	       emu_program *out, diag *d)
{
	reader r = {.path = path ? path : "<binary>", .w = words, .n = words ? nwords : 0, .d = d};
	emu_asm a;
	uint64_t nbufs, ncmds;
	int rc = -1;
	emu_program_init(out);
	if (take_preamble(&r) || take_machine(&r, out))
		goto done;
	if (!(out->path = strdup(r.path))) {
		diag_file(d, r.path, "out of memory");
		goto done;
	}
	emu_asm_init(&a, out, d);
	rc = take_counts(&r, &a, &nbufs, &ncmds);
	for (uint64_t i = 0; rc == 0 && i < nbufs; i++)
		rc = take_buffer(&r, &a);
	for (uint64_t i = 0; rc == 0 && i < ncmds; i++)
		rc = take_cmd(&r, &a);
	if (rc == 0)
		rc = take_marks(&r, out);
	if (rc == 0 && r.pos != r.n) {
		diag_file(d, r.path, "word %zu: %zu words are left after the last command; the "
			  "stream is corrupted", r.pos, r.n - r.pos);
		rc = -1;
	}
	emu_asm_free(&a);
done:
	if (rc)
		emu_program_free(out);
	return rc;
}
