/* SPDX-License-Identifier: MIT */
/*
 * inspect.c: what infsdb shows of the machine: print, x, dump array,
 * display, info machine/stats/buffers/display, list.
 *
 * Every value is read from the transposed cells and the latches through
 * the array's ordinary port (emu_elem_get, sram_get_bit, sram_get_latch),
 * never from a copy kept on the side.
 */
#include "config.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbg.h"
#include "tdfg_json.h"
#include "report.h"

/* ---- /FMT ---- */

/* print's format letters; x's add i (commands) and the unit letters */
#define VALUE_FORMATS "xduotacfsz"
#define EXAMINE_FORMATS "xduotacfszi"
/* gdb's units, and e: the address's own, a whole wordline or an element */
#define UNITS "bhwge"

/* A "/FMT" as gdb's decode_format reads it: a count, then format and
 * unit letters in any order (the last of each kind wins). */
typedef struct fmt_spec {
	uint64_t count;    /* 0 when none was given */
	char fmt, unit;    /* 0 when none was given */
} fmt_spec;

/* Parse an optional "/FMT" at the start of *args for command cmd (x
 * when examine, else one that prints a value: then a count, a unit or
 * i are refused with gdb's words).  0, or -1 with an error reported. */
static int parse_format(dbg_session *s, const char *cmd, char **args, bool examine,
			fmt_spec *f)
{
	*f = (fmt_spec){ 0 };
	char *p = *args;
	if (*p != '/')
		return 0;
	const char *word = ++p;
	const int wlen = (int)strcspn(word, " \t");
	if (isdigit((unsigned char)*p)) {
		char *end;
		unsigned long long n = strtoull(p, &end, 10);
		if (!examine) {
			dbg_error(s, "Item count other than 1 is meaningless in \"%s\" command.", cmd);
			return -1;
		}
		if (n == 0 || n > 1024) {
			dbg_error(s, "Invalid count in \"/%.*s\": expected 1 to 1024.", wlen, word);
			return -1;
		}
		f->count = n;
		p = end;
	}
	for (; *p && !isspace((unsigned char)*p); p++) {
		if (strchr(UNITS, *p) && examine) {
			f->unit = *p;
		} else if (strchr(UNITS, *p)) {
			dbg_error(s, "Size letters are meaningless in \"%s\" command.", cmd);
			return -1;
		} else if (*p == 'i' && !examine) {
			dbg_error(s, "Format letter \"i\" is meaningless in \"%s\" command.", cmd);
			return -1;
		} else if (strchr(examine ? EXAMINE_FORMATS : VALUE_FORMATS, *p)) {
			f->fmt = *p;
		} else {
			dbg_error(s, "Undefined output format \"%.*s\": expected one of %s%s.", wlen,
				  word, examine ? EXAMINE_FORMATS : VALUE_FORMATS,
				  examine ? ", a count before them, a unit " UNITS " among them" : "");
			return -1;
		}
	}
	*args = p;
	return 0;
}

/* A print-style "/F" (no count, no unit): 0, or -1 with an error. */
static int value_format(dbg_session *s, const char *cmd, char **args, char *fmt)
{
	fmt_spec f;
	if (parse_format(s, cmd, args, false, &f) < 0)
		return -1;
	*fmt = f.fmt;
	return 0;
}

/* Does buffer b hold wordlines in array a? */
static bool buffer_in_array(const emu_buffer *b, unsigned a)
{
	const uint64_t n = emu_pattern_size(&b->arrays);
	for (uint64_t k = 0; k < n; k++)
		if (emu_pattern_at(&b->arrays, k) == (int64_t)a)
			return true;
	return false;
}

/* /a's symbol: a wordline is this machine's address (a micro-op's
 * operands are wordlines), its symbols the buffers: " <C+2>" is bit 2
 * of C, " <scratch+1>" the micro-programs' second temporary row (as gdb
 * names the nearest symbol before an address); array -1: in any array.
 * "" when no buffer holds that wordline. */
static void address_symbol(const dbg_session *s, uint64_t wl, int array, char *buf, size_t size)
{
	const emu_program *p = &s->prog;
	const emu_buffer *best = NULL;
	buf[0] = '\0';
	for (size_t i = 0; s->loaded && i < p->nbufs; i++) {
		const emu_buffer *b = &p->bufs[i];
		if (wl < b->wl || wl >= (uint64_t)b->wl + emu_buffer_rows(b, &p->geom) ||
		    (array >= 0 && !buffer_in_array(b, (unsigned)array)))
			continue;
		if (!best || b->wl > best->wl)
			best = b;
	}
	if (best && wl == best->wl)
		snprintf(buf, size, " <%s>", best->name);
	else if (best)
		snprintf(buf, size, " <%s+%" PRIu64 ">", best->name, wl - best->wl);
	else if (s->loaded && wl >= p->scratch && wl < p->geom.wordlines)
		snprintf(buf, size, " <scratch+%" PRIu64 ">", wl - p->scratch);
}

/* dbg_format_value, and /a's symbol after the hex (array as
 * address_symbol's).  0, or -1 with the message in buf. */
int dbg_format_text(const dbg_session *s, const dbg_value *v, char fmt, int array, char *buf,
		       size_t size)
{
	if (dbg_format_value(v, fmt, buf, size) < 0)
		return -1;
	if (fmt == 'a' && !v->is_float && dbg_print_setting(s, "symbol")) {
		/* `set print symbol off`: the hex alone; `set print address
		 * off`: the symbol alone, when there is one (gdb's) */
		char sym[EMU_NAME_MAX + 32];
		address_symbol(s, (uint64_t)v->v & isa_mask(v->width ? v->width : 64), array, sym,
			       sizeof sym);
		if (sym[0] && !dbg_print_setting(s, "address"))
			snprintf(buf, size, "%s", sym + 1);
		else
			strncat(buf, sym, size - strlen(buf) - 1);
	}
	return 0;
}

/* ---- print ---- */

/* print of a whole buffer or tensor, as gdb prints an array with its
 * `set print` settings (settings.c): a tensor as C writes an array of
 * arrays, outermost dimension first, {{A[0][0], A[0][1]}, {A[1][0], ...}}
 * (at most 64 entries a dimension); a buffer's elements up to `set
 * print elements` of them; a run of at least `set print repeats` equal
 * elements as "V <repeats N times>"; "[i] = " before each with
 * array-indexes; one element (a tensor: one innermost row) a line,
 * indented, with pretty or array; an 8-bit buffer up to its first zero
 * with null-stop. */
typedef struct print_opts {
	char fmt;
	bool lines, indexes;
	uint64_t limit, repeats;   /* UINT64_MAX: unlimited */
	uint64_t shown;            /* elements counted toward limit */
} print_opts;

/* Element i of b as print shows it: (V) outside a tDFG node's domain,
 * where the tDFG does not define it. */
static void element_text(const dbg_session *s, const emu_buffer *b, uint64_t i, char fmt,
			 char *buf, size_t size)
{
	char text[160];
	dbg_value v = dbg_value_of_element(s, b, i);
	dbg_format_text(s, &v, fmt, -1, text, sizeof text);
	snprintf(buf, size, dbg_elem_outside(s, b, i) ? "(%s)" : "%s", text);
}

/* Dimension dim of b from flat index base, n entries (stride apart),
 * at indentation depth. */
static void print_dim(const dbg_session *s, const emu_buffer *b, print_opts *o, unsigned dim,
		      uint64_t base, uint64_t n, unsigned depth)
{
	uint64_t stride = 1;
	for (unsigned k = 0; k < dim; k++)
		stride *= b->shape[k];
	const bool rows = o->lines && (dim > 0 || b->ndims <= 1);
	const uint64_t cap = b->ndims > 1 ? 64 : UINT64_MAX;
	putchar('{');
	uint64_t i = 0;
	for (; i < n && i < cap; i++) {
		if (dim == 0 && o->shown >= o->limit)
			break;
		printf("%s", i ? "," : "");
		if (rows)
			printf("\n%*s", (int)(2 * (depth + 1)), "");
		else if (i)
			putchar(' ');
		if (o->indexes)
			printf("[%" PRIu64 "] = ", i);
		if (dim > 0) {
			print_dim(s, b, o, dim - 1, base + i * stride, b->shape[dim - 1], depth + 1);
			continue;
		}
		char text[200], next[200];
		element_text(s, b, base + i, o->fmt, text, sizeof text);
		uint64_t run = 1;
		while (i + run < n && i + run < cap) {
			element_text(s, b, base + i + run, o->fmt, next, sizeof next);
			if (strcmp(next, text) != 0)
				break;
			run++;
		}
		if (run >= o->repeats) { /* gdb counts a run as `repeats` elements */
			printf("%s <repeats %" PRIu64 " times>", text, run);
			i += run - 1;
			o->shown += o->repeats;
		} else {
			printf("%s", text);
			o->shown++;
		}
	}
	if (i < n && rows)
		printf(",\n%*s...", (int)(2 * (depth + 1)), "");
	else if (i < n) /* gdb's "6...}" after `set print elements`; a tensor's ", ...}" */
		printf("%s...", i >= cap ? ", " : "");
	if (rows)
		printf("\n%*s", (int)(2 * depth), "");
	putchar('}');
}

static int print_buffer(dbg_session *s, const emu_buffer *b, char fmt)
{
	if (dbg_need_machine(s) < 0)
		return -1;
	char text[160];
	/* the elements share a type: a format that does not apply to the
	 * first applies to none */
	dbg_value first = dbg_value_of_element(s, b, 0);
	if (b->length && dbg_format_text(s, &first, fmt, -1, text, sizeof text) < 0) {
		dbg_error(s, "%s", text);
		return -1;
	}
	const unsigned elements = dbg_print_elements(s), repeats = dbg_print_repeats(s);
	print_opts o = { fmt, dbg_print_setting(s, "pretty") || dbg_print_setting(s, "array"),
			 dbg_print_setting(s, "array-indexes"),
			 elements ? elements : UINT64_MAX, repeats ? repeats : UINT64_MAX, 0 };
	uint64_t n = b->ndims > 1 ? b->shape[b->ndims - 1] : b->length;
	if (b->ndims <= 1 && b->width == 8 && b->fmt == ISA_FMT_INT &&
	    dbg_print_setting(s, "null-stop")) {
		uint64_t z = 0;
		while (z < n && emu_elem_get(s->em, b, z) != 0)
			z++;
		n = z; /* a C string's characters, its zero left out */
	}
	if (b->ndims > 1)
		o.limit = UINT64_MAX; /* a tensor: 64 a dimension, as before */
	printf("%s = ", b->name);
	print_dim(s, b, &o, b->ndims > 1 ? b->ndims - 1u : 0u, 0, n, 0);
	putchar('\n');
	bool outside = false;
	for (uint64_t i = 0; b->ndims > 1 && i < b->length && !outside; i++)
		outside = dbg_elem_outside(s, b, i);
	if (outside)
		dbg_domain_note(s, b, false);
	return 0;
}

int dbg_cmd_print(dbg_session *s, char *args)
{
	char fmt = 0;
	if (value_format(s, "print", &args, &fmt) < 0)
		return -1;
	char *expr = dbg_trim(args);
	const emu_buffer *b = dbg_find_buffer(s, expr, strlen(expr));
	if (b) {
		if (print_buffer(s, b, fmt) < 0)
			return -1;
		dbg_node_print_note(s, expr); /* a tDFG node that does not hold its value */
		return 0;
	}
	dbg_value v;
	if (dbg_eval(s, expr, &v) < 0)
		return -1;
	char text[160];
	if (dbg_format_text(s, &v, fmt, -1, text, sizeof text) < 0) {
		dbg_error(s, "%s", text);
		return -1;
	}
	/* $N = VALUE, as gdb: the value history's number, which $N, $ and
	 * $$ name (vars.c) */
	const size_t n = dbg_values_record(s, &v, expr);
	if (!n) {
		dbg_error(s, "out of memory");
		return -1;
	}
	printf("$%zu = %s\n", n, text);
	const emu_buffer *eb;
	uint64_t ei;
	char err[256];
	if (s->tdfg && dbg_eval_element_quiet(s, expr, &eb, &ei, err, sizeof err) == 0 &&
	    dbg_elem_outside(s, eb, ei))
		dbg_domain_note(s, eb, true);
	dbg_node_print_note(s, expr);
	return 0;
}

/* ---- arrays: x and dump array ---- */

/* ARRAY: a global number or BANK.WAY.ARRAY.  0, or -1 with a message. */
static int parse_array_quiet(const dbg_session *s, const char *text, unsigned *array,
			     char *err, size_t errsize)
{
	const sram_machine *m = s->em->m;
	unsigned long long b, w, a;
	int used = 0;
	if (sscanf(text, "%llu.%llu.%llu%n", &b, &w, &a, &used) == 3 && !text[used] &&
	    isdigit((unsigned char)*text)) {
		if (b < m->nbanks && w < m->g.ways_per_bank && a < m->g.arrays_per_way) {
			*array = emu_array_index(m, (unsigned)b, (unsigned)w, (unsigned)a);
			return 0;
		}
		snprintf(err, errsize, "No array %s: the machine has %u banks of %u ways of %u arrays.",
			 text, m->nbanks, m->g.ways_per_bank, m->g.arrays_per_way);
		return -1;
	}
	uint64_t n;
	if (dbg_parse_u64(text, &n) && n < m->narrays) {
		*array = (unsigned)n;
		return 0;
	}
	snprintf(err, errsize, "No array \"%s\": expected 0 to %u or BANK.WAY.ARRAY.", text,
		 m->narrays - 1);
	return -1;
}

int dbg_parse_array(dbg_session *s, const char *text, unsigned *array)
{
	char err[256];
	if (parse_array_quiet(s, text, array, err, sizeof err) == 0)
		return 0;
	dbg_error(s, "%s", err);
	return -1;
}

/* ---- x: examine ---- */

/* What x reads: an array's bits as one memory, wordline after wordline
 * (bit a is wordline a / bitlines, bitline a % bitlines); a buffer's
 * elements packed in order (bit a is bit a % width of element
 * a / width); or the commands (x/i). */
enum { X_NONE, X_ROW, X_BUF, X_CMD };
typedef struct xwhere {
	int kind;
	unsigned array;
	const emu_buffer *b;
	uint64_t at;       /* a bit, or a command */
} xwhere;

static unsigned unit_bits(char unit)
{
	return unit == 'b' ? 8 : unit == 'h' ? 16 : unit == 'w' ? 32 : 64;
}

/* The size of what w reads: bits, or commands. */
static uint64_t x_size(const dbg_session *s, const xwhere *w)
{
	const sram_geom *g = &s->em->m->g;
	if (w->kind == X_ROW)
		return (uint64_t)g->wordlines * g->bitlines;
	return w->kind == X_BUF ? w->b->length * w->b->width : s->prog.ncmds;
}

/* n (at most 64) bits of w's memory from bit a, a's bit the lowest. */
static uint64_t x_bits(const dbg_session *s, const xwhere *w, uint64_t a, unsigned n)
{
	if (w->kind == X_BUF && a % w->b->width == 0 && n == w->b->width)
		return emu_elem_get(s->em, w->b, a / w->b->width);
	const unsigned nb = s->em->m->g.bitlines;
	uint64_t v = 0;
	for (unsigned k = 0; k < n; k++, a++) {
		const bool bit = w->kind == X_ROW
			? sram_get_bit(s->em->m, w->array, (unsigned)(a / nb), (unsigned)(a % nb))
			: (emu_elem_get(s->em, w->b, a / w->b->width) >> (a % w->b->width)) & 1;
		v |= (uint64_t)bit << k;
	}
	return v;
}

/* "C[5]", "T[1][2]" (outermost index first, as print writes a tensor). */
static void element_label(const emu_buffer *b, uint64_t flat, char *buf, size_t size)
{
	size_t n = (size_t)snprintf(buf, size, "%s", b->name);
	const unsigned dims = b->ndims ? b->ndims : 1;
	uint64_t idx[3] = { flat, 0, 0 };
	for (unsigned k = 0; b->ndims > 1 && k < dims; k++) {
		idx[k] = flat % b->shape[k];
		flat /= b->shape[k];
	}
	for (unsigned k = dims; k-- > 0 && n < size;)
		n += (size_t)snprintf(buf + n, size - n, "[%" PRIu64 "]", idx[k]);
}

/* The address of bit a, as x labels its lines: "array 0 wl 3", "array 0
 * wl 3 bl 8", "C[2]", "C[2] bit 4". */
static void x_label(const dbg_session *s, const xwhere *w, uint64_t a, char *buf, size_t size)
{
	if (w->kind == X_ROW) {
		const unsigned nb = s->em->m->g.bitlines;
		int n = snprintf(buf, size, "array %u wl %" PRIu64, w->array, a / nb);
		if (a % nb)
			snprintf(buf + n, size - (size_t)n, " bl %" PRIu64, a % nb);
		return;
	}
	element_label(w->b, a / w->b->width, buf, size);
	if (a % w->b->width)
		snprintf(buf + strlen(buf), size - strlen(buf), " bit %" PRIu64, a % w->b->width);
}

/* The ub bits from a in radix 2^k (k 1, 3 or 4), the most significant
 * digit first: every digit (x z t, as gdb's x pads them to the unit), or
 * without the leading zeros (o, after its 0). */
static void x_digits(const dbg_session *s, const xwhere *w, uint64_t a, unsigned ub, unsigned k,
		     bool pad, char *buf, size_t size)
{
	size_t n = 0;
	for (unsigned d = (ub + k - 1) / k; d-- > 0 && n + 1 < size;) {
		const unsigned lo = d * k, nbits = ub - lo < k ? ub - lo : k;
		const unsigned digit = (unsigned)x_bits(s, w, a + lo, nbits);
		if (!pad && !digit && n == 1) /* "0" written: leading zeros */
			continue;
		buf[n++] = "0123456789abcdef"[digit];
	}
	buf[n] = '\0';
}

/* One unit of ub bits at a in format fmt (natural: the unit is a whole
 * wordline or an element).  0, or -1 with the message in buf. */
static int x_unit_text(const dbg_session *s, const xwhere *w, uint64_t a, unsigned ub,
		       bool natural, char fmt, char *buf, size_t size)
{
	if (fmt == 'x' || fmt == 'z') {
		snprintf(buf, size, "0x");
		x_digits(s, w, a, ub, 4, true, buf + 2, size - 2);
		return 0;
	}
	if (fmt == 't') {
		x_digits(s, w, a, ub, 1, true, buf, size);
		return 0;
	}
	if (fmt == 'o') {
		buf[0] = '0';
		x_digits(s, w, a, ub, 3, false, buf + 1, size - 1);
		if (buf[1] == '0' && !buf[2]) /* zero is 0, not 00 */
			buf[1] = '\0';
		return 0;
	}
	if (ub > 64) {
		snprintf(buf, size, "x/%c: a wordline of %u bitlines is more than 64 bits: give a "
			 "unit (b, h, w or g), or use x, z, t or o.", fmt, ub);
		return -1;
	}
	dbg_value v = { .v = (int64_t)x_bits(s, w, a, ub), .width = ub,
			.is_signed = fmt == 'd' || fmt == 'c', .fmt = ISA_FMT_INT };
	if (w->kind == X_BUF && natural)
		v = dbg_value_of_element(s, w->b, a / w->b->width);
	return dbg_format_text(s, &v, fmt, w->kind == X_ROW ? (int)w->array : -1, buf, size);
}

/* x/s: the units from a up to the first zero one (or `set print
 * elements` of them) as a C string; the address after it. */
static uint64_t x_string(const dbg_session *s, const xwhere *w, uint64_t a, unsigned ub,
			 uint64_t total)
{
	char label[EMU_NAME_MAX + 64];
	x_label(s, w, a, label, sizeof label);
	printf("%s: \"", label);
	const uint64_t limit = dbg_print_elements(s) ? dbg_print_elements(s) : UINT64_MAX;
	uint64_t n = 0;
	for (; a + ub <= total; a += ub) {
		const uint64_t c = x_bits(s, w, a, ub);
		if (!c) {
			a += ub;
			break;
		}
		if (n++ == limit) {
			printf("\"...");
			putchar('\n');
			return a;
		}
		static const char from[] = "\a\b\f\n\r\t\v\\\"", to[] = "abfnrtv\\\"";
		const char *k = c < 128 ? strchr(from, (int)c) : NULL;
		if (k)
			printf("\\%c", to[k - from]);
		else if (c >= 0x20 && c < 0x7f)
			putchar((int)c);
		else
			printf("\\%" PRIo64, c);
	}
	printf("\"\n");
	return a;
}

/* x/i: command i, as the position names it, `=>` at the machine's. */
static void x_command(const dbg_session *s, size_t i)
{
	const emu_cmd *c = &s->prog.cmds[i];
	char text[512], sym[EMU_NAME_MAX + 32] = "";
	emu_format_cmd(&s->prog, c, text, sizeof text);
	const long node = dbg_node_of(s, i);
	if (node >= 0)
		snprintf(sym, sizeof sym, " <%s+%zu>", s->t.nodes[node].name,
			 i - s->t.nodes[node].cmd0);
	printf("%scommand %zu%s", s->em->pc == i && !emu_done(s->em) ? "=> " : "   ", i, sym);
	if (c->line)
		printf(" at %s:%d", s->prog.path, c->line);
	printf(": %s\n", text);
}

/* Where args says x reads, as err-reporting: "ARRAY WL" (an array's
 * memory from wordline WL), BUF or an element (BUF[I], T[I][J]), or for
 * x/i a location or $pc.  0, or -1 with a message in err. */
static int x_address(dbg_session *s, const char *args, char fmt, xwhere *w, char *err,
		     size_t errsize)
{
	char text[256], *save = NULL;
	snprintf(text, sizeof text, "%s", args);
	if (fmt == 'i') {
		dbg_location loc;
		*w = (xwhere){ .kind = X_CMD, .at = s->em->pc };
		if (strcmp(dbg_trim(text), "$pc") == 0)
			return 0;
		/* a location's errors are its own (reported); err stays empty */
		err[0] = '\0';
		if (dbg_parse_location(s, "x/i", text, &loc) < 0)
			return -1;
		w->at = loc.cmd;
		return 0;
	}
	const emu_buffer *b = dbg_find_buffer(s, dbg_trim(text), strlen(dbg_trim(text)));
	uint64_t elem = 0;
	if (b || dbg_eval_element_quiet(s, args, &b, &elem, err, errsize) == 0) {
		*w = (xwhere){ .kind = X_BUF, .b = b, .at = elem * b->width };
		return 0;
	}
	if (strchr(args, '['))
		return -1; /* an element that is not there: err says why */
	snprintf(text, sizeof text, "%s", args);
	char *arr = strtok_r(text, " \t", &save), *wl_text = strtok_r(NULL, " \t", &save);
	if (!arr || !wl_text || strtok_r(NULL, " \t", &save)) {
		snprintf(err, errsize, "x: expected ARRAY WL, BUF or BUF[I] (x/i: a location), "
			 "found \"%s\".", args);
		return -1;
	}
	*w = (xwhere){ .kind = X_ROW };
	if (parse_array_quiet(s, arr, &w->array, err, errsize) < 0)
		return -1;
	unsigned nw = s->em->m->g.wordlines;
	uint64_t wl;
	if (!dbg_parse_u64(wl_text, &wl) || wl >= nw) {
		snprintf(err, errsize, "x: no wordline %s: the arrays have wordlines 0 to %u.",
			 wl_text, nw - 1);
		return -1;
	}
	w->at = wl * s->em->m->g.bitlines;
	return 0;
}

/* The unit x reads at w with format f: the one given, else the one last
 * given, else a whole wordline or an element; gdb's characters are
 * bytes, so c and s read bytes from an array then.  Its bits, *natural
 * when it is that whole wordline or element. */
static unsigned x_unit(const dbg_session *s, const xwhere *w, const fmt_spec *f, char fmt,
		       bool *natural)
{
	const char unit = f->unit ? f->unit : s->x.unit;
	*natural = unit == 'e' || (!unit && !(w->kind == X_ROW && (fmt == 'c' || fmt == 's')));
	if (!*natural)
		return unit_bits(unit ? unit : 'b');
	return w->kind == X_ROW ? s->em->m->g.bitlines : w->b->width;
}

/* Do count units (strings: one) at w fit what it reads?  The unit's
 * bits in *ub, *natural as x_unit's; w->at moved to the next whole
 * wordline or element if the last x's units stopped inside one.  0, or
 * -1 with a message in err. */
static int x_fits(const dbg_session *s, xwhere *w, const fmt_spec *f, char fmt, uint64_t count,
		  unsigned *ub, bool *natural, char *err, size_t errsize)
{
	const uint64_t total = x_size(s, w);
	if (w->kind == X_CMD) {
		if (w->at < total)
			return 0;
		snprintf(err, errsize, "x/i: the program has commands 0 to %" PRIu64 ".",
			 total ? total - 1 : 0);
		return -1;
	}
	*ub = x_unit(s, w, f, fmt, natural);
	if (*natural && w->at % *ub)
		w->at += *ub - w->at % *ub;
	if (fmt == 's')
		count = 1;
	if (w->at < total && count * *ub <= total - w->at)
		return 0;
	const char *what = w->kind == X_ROW ? "array" : "buffer";
	char from[EMU_NAME_MAX + 64], last[EMU_NAME_MAX + 64];
	x_label(s, w, *natural ? total - *ub : total - 1, last, sizeof last);
	if (w->at >= total) {
		snprintf(err, errsize, "x: nothing follows %s, the %s's last %s.", last, what,
			 *natural ? (w->kind == X_ROW ? "wordline" : "element") : "bit");
		return -1;
	}
	x_label(s, w, w->at, from, sizeof from);
	if (*natural)
		snprintf(err, errsize, "x: %" PRIu64 " %s from %s go past %s, the %s's last.", count,
			 w->kind == X_ROW ? "wordlines" : "elements", from, last, what);
	else
		snprintf(err, errsize, "x: %" PRIu64 " units of %u bits from %s go past %s, the "
			 "%s's last bit.", count, *ub, from, last, what);
	return -1;
}

/* x of count units (count strings for s, commands for i) from w, as
 * format fmt: one line per wordline, else by the unit's size (8 units
 * of 8 or 16 bits a line, 4 of 32, 2 of 64, as gdb).  Moves w->at past
 * them.  0, or -1 with a message in err. */
static int x_show(dbg_session *s, xwhere *w, const fmt_spec *f, char fmt, uint64_t count,
		  char *err, size_t errsize)
{
	unsigned ub = 0;
	bool natural = false;
	if (x_fits(s, w, f, fmt, count, &ub, &natural, err, errsize) < 0)
		return -1;
	const uint64_t total = x_size(s, w);
	if (w->kind == X_CMD) {
		for (uint64_t k = 0; k < count && w->at < total; k++)
			x_command(s, (size_t)w->at++);
		return 0;
	}
	const bool whole_row = natural && w->kind == X_ROW;
	if (fmt == 's') {
		for (uint64_t k = 0; k < count && w->at < total; k++)
			w->at = x_string(s, w, w->at, ub, total);
		return 0;
	}
	const unsigned per_line = whole_row ? 1 : fmt == 'a' ? 2 : ub <= 16 ? 8 : ub <= 32 ? 4 : 2;
	char *text = malloc(SRAM_MAX_DIM + 256);
	if (!text) {
		snprintf(err, errsize, "out of memory");
		return -1;
	}
	/* the units share a type: a format that does not apply to the first
	 * applies to none, and nothing is shown */
	int rc = x_unit_text(s, w, w->at, ub, natural, fmt, text, SRAM_MAX_DIM + 256);
	if (rc < 0) {
		snprintf(err, errsize, "%s", text);
		free(text);
		return -1;
	}
	for (uint64_t k = 0; k < count && rc == 0; k++, w->at += ub) {
		if (k % per_line == 0) {
			char label[EMU_NAME_MAX + 64];
			x_label(s, w, w->at, label, sizeof label);
			printf("%s%s:", k ? "\n" : "", label);
		}
		rc = x_unit_text(s, w, w->at, ub, natural, fmt, text, SRAM_MAX_DIM + 256);
		if (rc == 0)
			printf(" %s", text);
		else
			snprintf(err, errsize, "%s", text);
	}
	putchar('\n');
	free(text);
	return rc;
}

/* x or an examine display: args (empty: go on where the last x ended)
 * with f (its count, format and unit, or x's last).  remember: x itself,
 * which keeps its format, unit and the next address.  0, or -1 with a
 * message in err (empty when it was reported). */
static int examine(dbg_session *s, const char *args, const fmt_spec *f, bool remember,
		   char *err, size_t errsize)
{
	const char fmt = f->fmt ? f->fmt : s->x.fmt ? s->x.fmt : 'x';
	xwhere w;
	if (!*args || (remember && s->repeating)) {
		/* gdb's x with no address, and Enter after an x: from where the
		 * last one ended */
		if (s->x.kind == X_NONE || (s->x.kind == X_BUF && s->x.buf >= s->prog.nbufs)) {
			snprintf(err, errsize, "x: expected an address: ARRAY WL, BUF or BUF[I], or a "
				 "location with x/i.");
			return -1;
		}
		w = (xwhere){ .kind = s->x.kind, .array = s->x.array, .at = s->x.at,
			      .b = s->x.kind == X_BUF ? &s->prog.bufs[s->x.buf] : NULL };
		if ((w.kind == X_CMD) != (fmt == 'i')) {
			snprintf(err, errsize, "x/%c: the last x examined %s: give an address.", fmt,
				 w.kind == X_CMD ? "commands" : "data");
			return -1;
		}
	} else if (x_address(s, args, fmt, &w, err, errsize) < 0) {
		return -1;
	}
	const uint64_t count = f->count ? f->count : 1;
	const int rc = x_show(s, &w, f, fmt, count, err, errsize);
	if (remember) {
		s->x.fmt = fmt;
		if (f->unit)
			s->x.unit = f->unit;
		if (rc == 0)
			s->x = (dbg_examine){ s->x.fmt, s->x.unit, w.kind, w.array,
					      w.b ? (size_t)(w.b - s->prog.bufs) : 0, w.at };
	}
	return rc;
}

int dbg_cmd_x(dbg_session *s, char *args)
{
	char err[512];
	fmt_spec f;
	if (parse_format(s, "x", &args, true, &f) < 0 || dbg_need_machine(s) < 0)
		return -1;
	if (examine(s, dbg_trim(args), &f, true, err, sizeof err) == 0)
		return 0;
	if (err[0])
		dbg_error(s, "%s", err);
	else
		s->failed = true;
	return -1;
}

/* "FROM:TO" inclusive inside [0, limit). */
static int parse_range(dbg_session *s, const char *text, unsigned limit,
		       const char *what, unsigned *from, unsigned *to)
{
	unsigned long long a, b;
	int used = 0;
	if (sscanf(text, "%llu:%llu%n", &a, &b, &used) == 2 && !text[used] &&
	    isdigit((unsigned char)*text) && a <= b && b < limit) {
		*from = (unsigned)a;
		*to = (unsigned)b;
		return 0;
	}
	dbg_error(s, "dump array: bad %s range \"%s\": expected FROM:TO with FROM <= TO <= %u.",
		  what, text, limit - 1);
	return -1;
}

static void dump_header(unsigned bl0, unsigned bl1)
{
	char tens[SRAM_MAX_DIM + 1];
	size_t n = 0, last = 0;
	for (unsigned bl = bl0; bl <= bl1; bl++) {
		tens[n++] = bl % 10 == 0 ? (char)('0' + (bl / 10) % 10) : ' ';
		if (bl % 10 == 0)
			last = n;
	}
	tens[last] = '\0';
	if (last)
		printf("%-10s%s\n%-10s", "bitline", tens, "");
	else
		printf("bitline\n%-10s", "");
	for (unsigned bl = bl0; bl <= bl1; bl++)
		putchar((char)('0' + bl % 10));
	putchar('\n');
}

static void dump_latch(const sram_machine *m, unsigned array, const char *label,
		       enum sram_latch l, unsigned bl0, unsigned bl1)
{
	printf("%-10s", label);
	for (unsigned bl = bl0; bl <= bl1; bl++)
		putchar(sram_get_latch(m, array, l, bl) ? '1' : '0');
	putchar('\n');
}

static void dump_rows(sram_machine *m, unsigned array, const unsigned r[4])
{
	const sram_way *w = sram_way_of(m, array);
	for (unsigned wl = r[0]; wl <= r[1]; wl++) {
		printf("wl %-7u", wl);
		for (unsigned bl = r[2]; bl <= r[3]; bl++)
			putchar(sram_get_bit(m, array, wl, bl) ? '1' : '0');
		const bool act = sram_way_activated(w, wl);
		printf("%s%s\n", act ? "  act" : "", w->last_dst == wl ? "  write" : "");
	}
}

int dbg_cmd_dump_array(dbg_session *s, char *args)
{
	if (dbg_need_machine(s) < 0)
		return -1;
	char *save = NULL, *arr = strtok_r(args, " \t", &save);
	char *wls = strtok_r(NULL, " \t", &save), *bls = strtok_r(NULL, " \t", &save);
	unsigned array;
	if (!arr || strtok_r(NULL, " \t", &save)) {
		dbg_error(s, "dump array: expected ARRAY [WL_FROM:WL_TO] [BL_FROM:BL_TO].");
		return -1;
	}
	sram_machine *m = s->em->m;
	unsigned nb = m->g.bitlines, r[4] = { 0, m->g.wordlines - 1, 0, nb > 64 ? 63 : nb - 1 };
	if (dbg_parse_array(s, arr, &array) < 0 ||
	    (wls && parse_range(s, wls, m->g.wordlines, "wordline", &r[0], &r[1]) < 0) ||
	    (bls && parse_range(s, bls, nb, "bitline", &r[2], &r[3]) < 0))
		return -1;
	unsigned per_way = m->g.arrays_per_way, per_bank = per_way * m->g.ways_per_bank;
	printf("array %u (bank %u, way %u, array %u), wordlines %u-%u, bitlines %u-%u\n",
	       array, array / per_bank, (array / per_way) % m->g.ways_per_bank,
	       array % per_way, r[0], r[1], r[2], r[3]);
	dump_header(r[2], r[3]);
	dump_rows(m, array, r);
	static const char *const labels[] = { "C", "T", "E", "BL", "BLB" };
	for (int l = SRAM_CARRY; l <= SRAM_BLB; l++)
		dump_latch(m, array, labels[l], (enum sram_latch)l, r[2], r[3]);
	return 0;
}

/* ---- display ---- */

static void show_display(dbg_session *s, const dbg_display *d)
{
	char err[512], text[160];
	if (d->count) {
		/* an examine display, as gdb's display/i $pc: x/NFU of it */
		const fmt_spec f = { d->count, d->fmt, d->unit };
		printf("%u: x/%" PRIu64 "%c%.1s %s\n", d->num, d->count, d->fmt, &d->unit, d->expr);
		if (!s->em) /* accepted before `start`, or kept after `kill` */
			printf("<The program is not being run.>\n");
		else if (examine(s, d->expr, &f, false, err, sizeof err) < 0 && err[0])
			printf("<%s>\n", err);
		return;
	}
	dbg_value v;
	if (d->fmt)
		printf("%u: /%c %s = ", d->num, d->fmt, d->expr);
	else
		printf("%u: %s = ", d->num, d->expr);
	if (dbg_eval_quiet(s, d->expr, &v, err, sizeof err) < 0)
		printf("<%s>\n", err);
	else if (dbg_format_text(s, &v, d->fmt, -1, text, sizeof text) < 0)
		printf("<%s>\n", text);
	else
		printf("%s\n", text);
}

/* The index of the display numbered w, or ndisps with an error. */
static size_t find_display(dbg_session *s, const char *w)
{
	uint64_t n;
	size_t i = 0;
	while (i < s->ndisps && !(dbg_parse_u64(w, &n) && s->disps[i].num == n))
		i++;
	if (i == s->ndisps)
		dbg_error(s, "No display number %s.", w);
	return i;
}

void dbg_show_displays(dbg_session *s)
{
	for (size_t i = 0; i < s->ndisps; i++)
		if (!s->disps[i].disabled)
			show_display(s, &s->disps[i]);
}

int dbg_display_enable(dbg_session *s, char *args, bool on)
{
	args = dbg_trim(args);
	int rc = 0;
	for (size_t i = 0; !*args && i < s->ndisps; i++)
		s->disps[i].disabled = !on;
	for (char *save = NULL, *w = strtok_r(args, " \t", &save); w;
	     w = strtok_r(NULL, " \t", &save)) {
		const size_t i = find_display(s, w);
		if (i == s->ndisps)
			rc = -1;
		else
			s->disps[i].disabled = !on;
	}
	return rc;
}

/* Can expr be displayed now (or, before the program runs, is it well
 * formed)?  0, or -1 with an error reported. */
static int display_ok(dbg_session *s, const char *expr, char fmt, char unit, uint64_t count)
{
	char err[512], text[160];
	dbg_value v;
	if (count) {
		xwhere w;
		unsigned ub;
		bool natural;
		const fmt_spec f = { count, fmt, unit };
		if (!s->em || (x_address(s, expr, fmt, &w, err, sizeof err) == 0 &&
			       x_fits(s, &w, &f, fmt, count, &ub, &natural, err, sizeof err) == 0))
			return 0;
		if (err[0])
			dbg_error(s, "%s", err);
		return -1;
	}
	if (!s->em)
		return dbg_expr_check(s, expr);
	if (dbg_eval(s, expr, &v) < 0)
		return -1;
	if (dbg_format_text(s, &v, fmt, -1, text, sizeof text) == 0)
		return 0;
	dbg_error(s, "%s", text);
	return -1;
}

dbg_display *dbg_display_add(dbg_session *s, const char *expr, char fmt, uint64_t count,
			     char unit)
{
	dbg_display *grown = realloc(s->disps, (s->ndisps + 1) * sizeof *grown);
	char *copy = strdup(expr);
	if (grown)
		s->disps = grown;
	if (!grown || !copy) {
		free(copy);
		dbg_error(s, "out of memory");
		return NULL;
	}
	dbg_display *d = &s->disps[s->ndisps++];
	*d = (dbg_display){ ++s->next_disp, fmt, count, copy, false, unit };
	return d;
}

int dbg_cmd_display(dbg_session *s, char *args)
{
	fmt_spec f;
	if (parse_format(s, "display", &args, true, &f) < 0)
		return -1;
	char *expr = dbg_trim(args);
	if (!*expr) {
		dbg_show_displays(s);
		return 0;
	}
	/* a count, a unit, i or s make it an examine display, as gdb's */
	char fmt = f.fmt;
	uint64_t count = f.count;
	if ((f.unit || fmt == 'i' || fmt == 's') && !count)
		count = 1;
	if (count && !fmt)
		fmt = 'x';
	if (display_ok(s, expr, fmt, f.unit, count) < 0)
		return -1;
	dbg_display *d = dbg_display_add(s, expr, fmt, count, f.unit);
	if (!d)
		return -1;
	if (s->em)
		show_display(s, d);
	return 0;
}

int dbg_cmd_undisplay(dbg_session *s, char *args)
{
	args = dbg_trim(args);
	if (!*args) {
		dbg_display_free_all(s);
		return 0;
	}
	int rc = 0;
	for (char *save = NULL, *w = strtok_r(args, " \t", &save); w;
	     w = strtok_r(NULL, " \t", &save)) {
		const size_t i = find_display(s, w);
		if (i == s->ndisps) {
			rc = -1;
			continue;
		}
		free(s->disps[i].expr);
		memmove(&s->disps[i], &s->disps[i + 1], (s->ndisps - i - 1) * sizeof *s->disps);
		s->ndisps--;
	}
	return rc;
}

void dbg_display_free_all(dbg_session *s)
{
	for (size_t i = 0; i < s->ndisps; i++)
		free(s->disps[i].expr);
	free(s->disps);
	s->disps = NULL;
	s->ndisps = 0;
}

int dbg_cmd_info_display(dbg_session *s, char *args)
{
	(void)args;
	if (s->ndisps == 0) {
		printf("There are no auto-display expressions now.\n");
		return 0;
	}
	printf("Auto-display expressions now in effect:\nNum Enb Expression\n");
	for (size_t i = 0; i < s->ndisps; i++) {
		const dbg_display *d = &s->disps[i];
		const char enb = d->disabled ? 'n' : 'y';
		if (d->count)
			printf("%-3u %c   x/%" PRIu64 "%c%.1s %s\n", d->num, enb, d->count, d->fmt,
			       &d->unit, d->expr);
		else if (d->fmt)
			printf("%-3u %c   /%c %s\n", d->num, enb, d->fmt, d->expr);
		else
			printf("%-3u %c   %s\n", d->num, enb, d->expr);
	}
	return 0;
}

/* ---- info ---- */

int dbg_cmd_info_machine(dbg_session *s, char *args)
{
	(void)args;
	if (!s->loaded) {
		dbg_error(s, "No program loaded.");
		return -1;
	}
	const sram_geom *g = &s->prog.geom;
	emu_report_geom(stdout, g, false);
	/* emu_report_geom names the controller's settings only when one is
	 * not the default; here they are always shown */
	if (!g->fp_ieee && !g->latency_opt && !g->cordic_iters)
		printf("  controller  fp=ftz latency=baseline cordic=%u\n", emu_geom_cordic(g));
	printf("program %s: %zu commands, %zu buffers\n", s->prog.path, s->prog.ncmds,
	       s->prog.nbufs);
	if (s->tdfg)
		printf("tDFG %s: %zu nodes in %zu region%s\n", s->t.path, s->t.nnodes,
		       s->t.nregions, s->t.nregions == 1 ? "" : "s");
	const emu_machine *em = s->em;
	char note[64];
	dbg_trace_note(s, note, sizeof note);
	if (!em)
		printf("not running\n");
	else if (emu_done(em))
		printf("finished, cycle %" PRIu64 "\n", dbg_cycles(s));
	else if (em->upc)
		printf("in command %zu, next micro-op %zu (of 0..%zu%s), cycle %" PRIu64 "\n",
		       em->pc, em->upc, em->up.n - 1, note, dbg_cycles(s));
	else
		printf("before command %zu, cycle %" PRIu64 "\n", em->pc, dbg_cycles(s));
	return 0;
}

int dbg_cmd_info_stats(dbg_session *s, char *args)
{
	(void)args;
	if (dbg_need_machine(s) < 0)
		return -1;
	emu_report_stats_text(stdout, s->em);
	if (s->em->upc)
		printf("(command %zu is in progress: %" PRIu64 " cycles of it are not counted above)\n",
		       s->em->pc, s->em->cur.cycles);
	return 0;
}

static const char *const init_names[] = { "none", "zero", "iota", "random", "const" };

int dbg_cmd_info_buffers(dbg_session *s, char *args)
{
	(void)args;
	if (!s->loaded) {
		dbg_error(s, "No program loaded.");
		return -1;
	}
	printf("%-12s %-5s %8s %5s  %-16s %s\n", "Name", "Type", "Length", "WL", "Arrays", "Init");
	for (size_t i = 0; i < s->prog.nbufs; i++) {
		const emu_buffer *b = &s->prog.bufs[i];
		char type[16], arrays[128], init[96], lit[64];
		emu_buffer_type(b, type, sizeof type);
		emu_pattern_format(&b->arrays, arrays, sizeof arrays);
		/* const: the element's literal, as the stream writes it */
		emu_literal_text(b->fmt, b->width, b->is_signed, b->init_arg, lit, sizeof lit);
		if (b->init == EMU_INIT_RANDOM)
			snprintf(init, sizeof init, "random:%" PRIu64, b->init_arg);
		else if (b->init == EMU_INIT_CONST)
			snprintf(init, sizeof init, "const:%s", lit);
		else
			snprintf(init, sizeof init, "%s", init_names[b->init]);
		printf("%-12s %-5s %8" PRIu64 " %5u  %-16s %s\n", b->name, type, b->length,
		       (unsigned)b->wl, arrays, init);
	}
	return 0;
}

/* ---- info source ---- */

/* The lines of the file at path (a last line without its newline
 * counts), or -1 when it cannot be read. */
static long count_lines(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	long n = 0;
	int c, last = '\n';
	while ((c = getc(f)) != EOF) {
		n += c == '\n';
		last = c;
	}
	fclose(f);
	return n + (last != '\n');
}

/* "Contains N lines." of path, as gdb's. */
static void source_lines(const char *path)
{
	const long n = count_lines(path);
	if (n < 0)
		printf("Its text cannot be read now.\n");
	else
		printf("Contains %ld line%s.\n", n, n == 1 ? "" : "s");
}

/* gdb's `info source`: the current source file, where it is, its lines,
 * its language (here the kind of program), and what the program is. */
int dbg_cmd_info_source(dbg_session *s, char *args)
{
	(void)args;
	if (s->ops) { /* another system's program (target mode) */
		const char *src = s->ops->source && s->tg ? s->ops->source(s->tg) : NULL;
		if (!src) {
			printf("No current source file: the %s program has no source listing.\n",
			       s->ops->title);
			return 0;
		}
		char *abs = realpath(src, NULL);
		printf("Current source file is %s\nLocated in %s\n", src, abs ? abs : src);
		free(abs);
		source_lines(src);
		const char *dot = strrchr(src, '.');
		printf("Source language is %s, the %s target's.\n", dot ? dot : s->ops->name,
		       s->ops->name);
		printf("The program runs on %s (infsim %s), in units of", s->ops->title,
		       s->ops->name);
		for (unsigned u = 0; u < s->ops->nunits; u++)
			printf("%s %s", u ? "," : "", s->ops->units[u].name);
		printf(" (finest first).\n");
		return 0;
	}
	if (!s->loaded) {
		printf("No current source file.\n");
		return 0;
	}
	const bool json = s->tdfg && emu_tdfg_json_path(s->t.path);
	const char *path = s->tdfg ? s->t.path : s->prog.path;
	char *abs = realpath(path, NULL);
	printf("Current source file is %s\nLocated in %s\n", path, abs ? abs : path);
	free(abs);
	source_lines(path);
	if (json)
		printf("Source language is a tDFG of the published artifact (.json): it has no "
		       "source lines, so list shows the lowered commands.\n");
	else if (s->tdfg)
		printf("Source language is tDFG (doc/TDFG.md).\n");
	else
		printf("Source language is an infsim command stream (doc/FORMAT.md).\n");
	if (s->tdfg)
		printf("The program is a tDFG of %zu nodes in %zu region%s, lowered by the JIT to a "
		       "stream of %zu commands and %zu buffers for the in-cache machine.\n",
		       s->t.nnodes, s->t.nregions, s->t.nregions == 1 ? "" : "s", s->prog.ncmds,
		       s->prog.nbufs);
	else
		printf("The program is a command stream of %zu command%s and %zu buffer%s for the "
		       "in-cache machine.\n", s->prog.ncmds, s->prog.ncmds == 1 ? "" : "s",
		       s->prog.nbufs, s->prog.nbufs == 1 ? "" : "s");
	if (s->valid)
		printf("It is validated against the tDFG %s (%zu nodes; --tdfg).\n", s->vt.path,
		       s->vt.nnodes);
	return 0;
}

/* ---- list ---- */

int dbg_cmd_list(dbg_session *s, char *args)
{
	if (!s->loaded) {
		dbg_error(s, "No program loaded.");
		return -1;
	}
	/* an artifact's dump (.json) has no source lines: its lowered commands */
	if (s->tdfg && !emu_tdfg_json_path(s->t.path))
		return dbg_tdfg_list(s, args);
	args = dbg_trim(args);
	size_t n = s->prog.ncmds, pc = s->em ? s->em->pc : 0;
	uint64_t centre = pc;
	dbg_location loc;
	if (*args && dbg_parse_location(s, "list", args, &loc) < 0)
		return -1;
	if (*args)
		centre = loc.cmd;
	const size_t size = s->listsize ? s->listsize : 10, before = (size - 1) / 2;
	size_t from = centre > before ? (size_t)centre - before : 0;
	size_t to = from + size < n ? from + size : n;
	/* Enter after a listing: the commands that follow it */
	const bool more = s->repeating && s->list_next > 0 && s->list_since == s->since &&
			  s->list_pc == pc && s->list_upc == (s->em ? s->em->upc : 0);
	if (more && (size_t)s->list_next >= n) {
		dbg_error(s, "list: the program has commands 0 to %zu: no more to list.",
			  n ? n - 1 : 0);
		return -1;
	}
	if (more) {
		from = (size_t)s->list_next;
		to = from + size < n ? from + size : n;
	}
	s->list_next = (int)to;
	s->list_since = s->since;
	s->list_pc = pc;
	s->list_upc = s->em ? s->em->upc : 0;
	for (size_t i = from; i < to; i++) {
		char text[512];
		emu_format_cmd(&s->prog, &s->prog.cmds[i], text, sizeof text);
		printf("%s%-4zu %4d  %s\n", s->em && i == pc ? "=> " : "   ", i,
		       s->prog.cmds[i].line, text);
	}
	return 0;
}

/* ---- info registers: the wordline allocation ---- */

static int by_wordline(const void *a, const void *b)
{
	const emu_buffer *x = *(const emu_buffer *const *)a, *y = *(const emu_buffer *const *)b;
	return x->wl != y->wl ? (x->wl > y->wl) - (x->wl < y->wl) : strcmp(x->name, y->name);
}

/* A command stream has one region, the whole stream: its wordlines hold
 * the buffers (each in the arrays of its pattern) and, from `scratch`
 * up, the rows the micro-programs use as temporaries (doc/FORMAT.md). */
int dbg_cmd_info_registers(dbg_session *s, char *args)
{
	(void)args;
	if (!s->loaded) {
		dbg_error(s, "No program loaded.");
		return -1;
	}
	if (s->tdfg)
		return dbg_tdfg_registers(s);
	const emu_program *p = &s->prog;
	const emu_buffer **order = malloc((p->nbufs ? p->nbufs : 1) * sizeof *order);
	if (!order) {
		dbg_error(s, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < p->nbufs; i++)
		order[i] = &p->bufs[i];
	qsort(order, p->nbufs, sizeof *order, by_wordline);
	unsigned W = p->geom.wordlines;
	printf("Wordlines of every array (%u; the stream is one region):\n", W);
	for (size_t i = 0; i < p->nbufs; i++) {
		const emu_buffer *b = order[i];
		char range[32], arrays[128];
		snprintf(range, sizeof range, "%u-%u", (unsigned)b->wl, b->wl + b->width - 1u);
		emu_pattern_format(&b->arrays, arrays, sizeof arrays);
		char type[16];
		printf("  wl %-9s %-12s %s, in arrays %s\n", range, b->name,
		       emu_buffer_type(b, type, sizeof type), arrays);
	}
	if (p->scratch < W)
		printf("  wl %u-%u%*s scratch (temporaries of the micro-programs)\n",
		       (unsigned)p->scratch, W - 1,
		       (int)(9 - snprintf(NULL, 0, "%u-%u", (unsigned)p->scratch, W - 1)), "");
	else
		printf("  no scratch wordlines\n");
	free(order);
	return 0;
}

/* ---- disassemble: the micro-ops of the current command ---- */

/* "FROM", "FROM,TO" (TO excluded, as gdb) or "FROM,+N" within 0..n;
 * empty: all of them. */
static int uop_range(dbg_session *s, const char *args, size_t n, size_t *from, size_t *to)
{
	*from = 0;
	*to = n;
	if (!*args)
		return 0;
	char *end;
	bool ok = isdigit((unsigned char)args[0]);
	const unsigned long long a = strtoull(args, &end, 10);
	unsigned long long b = a + 1;
	if (ok && *end == ',') {
		const char *t = end + 1;
		const bool plus = *t == '+';
		t += plus;
		ok = isdigit((unsigned char)*t);
		b = strtoull(t, &end, 10);
		b = plus ? a + b : b;
	}
	if (ok && !*end && a < b && b <= n) {
		*from = (size_t)a;
		*to = (size_t)b;
		return 0;
	}
	dbg_error(s, "disassemble: bad range \"%s\": expected FROM, FROM,TO or FROM,+N with "
		  "0 <= FROM < TO <= %zu (TO excluded).", args, n);
	return -1;
}

/* The micro-program the position runs: em->up once the command started
 * (the longest bank trace of a data-dependent one), else its baseline
 * program, built here.  *note says which. */
static const isa_prog *current_uprog(dbg_session *s, isa_prog *built, char *note, size_t size)
{
	emu_machine *em = s->em;
	const emu_cmd *c = &s->prog.cmds[em->pc];
	if (em->upc > 0) {
		dbg_trace_note(s, note, size);
		return &em->up;
	}
	snprintf(note, size, "%s", em->optimised && c->kind == EMU_CMD_COMPUTE &&
				   isa_data_dependent(&c->c)
		 ? ", the baseline program: latency=optimised finds each bank's trace when the command starts"
		 : "");
	if (emu_cmd_uprog(em, em->pc, built) != 0) {
		dbg_error(s, "out of memory");
		return NULL;
	}
	return built;
}

/* Print micro-ops [from, to) of p, command cmd's; `=>` marks the next
 * one when cmd is the position's command. */
static void list_uops(const dbg_session *s, size_t cmd, const isa_prog *p, size_t from,
		      size_t to, const char *note)
{
	printf("Micro-ops of command %zu (0..%zu%s):\n", cmd, p->n - 1, note);
	const bool here = cmd == s->em->pc && s->em->upc > 0;
	for (size_t i = from; i < to; i++) {
		char text[512];
		dbg_format_uop(&p->u[i], text, sizeof text);
		printf("%s%-5zu %s\n", here && i == s->em->upc ? "=> " : "   ", i, text);
	}
	printf("End of micro-ops.\n");
}

/* The current command's micro-ops, all or a range (FROM,TO or FROM,+N). */
static int disassemble_here(dbg_session *s, char *args)
{
	if (emu_done(s->em)) {
		dbg_error(s, "disassemble: the program has finished: no command to show.");
		return -1;
	}
	isa_prog built;
	isa_prog_init(&built);
	char note[128];
	size_t from, to;
	const isa_prog *p = current_uprog(s, &built, note, sizeof note);
	if (p && p->n == 0) {
		dbg_error(s, "disassemble: command %zu runs no micro-ops (a data move).", s->em->pc);
		p = NULL;
	}
	int rc = p ? uop_range(s, args, p->n, &from, &to) : -1;
	if (rc == 0)
		list_uops(s, s->em->pc, p, from, to, note);
	isa_prog_free(&built);
	return rc;
}

/* The micro-ops of the command at a location, or of each command of a
 * tDFG node, as gdb disassembles the function around an address. */
static int disassemble_at(dbg_session *s, const char *args)
{
	dbg_location loc;
	if (dbg_parse_location(s, "disassemble", args, &loc) < 0)
		return -1;
	size_t first = loc.cmd, last = loc.cmd + 1;
	if (loc.node >= 0) {
		first = s->t.nodes[loc.node].cmd0;
		last = s->t.nodes[loc.node].cmd1;
	}
	for (size_t i = first; i < last; i++) {
		isa_prog built;
		isa_prog_init(&built);
		char note[128] = "";
		const isa_prog *p = i == s->em->pc ? current_uprog(s, &built, note, sizeof note)
						   : emu_cmd_uprog(s->em, i, &built) == 0 ? &built : NULL;
		if (!p) {
			isa_prog_free(&built);
			if (i != s->em->pc)
				dbg_error(s, "out of memory");
			return -1;
		}
		if (p->n == 0)
			printf("Command %zu runs no micro-ops (a data move).\n", i);
		else
			list_uops(s, i, p, 0, p->n, note);
		isa_prog_free(&built);
	}
	return 0;
}

int dbg_cmd_disassemble(dbg_session *s, char *args)
{
	if (dbg_need_machine(s) < 0)
		return -1;
	args = dbg_trim(args);
	if (!*args || strchr(args, ','))
		return disassemble_here(s, args);
	return disassemble_at(s, args);
}

/* ---- tensors: info layout and dump tile ---- */

/* The Layout Override Table of the stream's tensors and each one's tile
 * map, printed by the layout library as `infsim layout` prints them;
 * with a name, that tensor's map only. */
int dbg_cmd_info_layout(dbg_session *s, char *args)
{
	char *name = dbg_trim(args);
	const emu_buffer *b = *name ? dbg_find_buffer(s, name, strlen(name)) : NULL;
	if (*name && (!b || !b->ndims)) {
		dbg_error(s, b ? "%s is a buffer, not a tensor: it has no tile map."
			       : "No tensor \"%s\" in the program.", name);
		return -1;
	}
	diag d;
	diag_clear(&d);
	emu_lot *t = malloc(sizeof *t);
	if (!t || emu_program_lot(&s->prog, t, &d) < 0) {
		dbg_error(s, "%s", t ? d.msg : "out of memory");
		free(t);
		return -1;
	}
	if (t->n == 0)
		printf("The program declares no tensor: the Layout Override Table is empty.\n");
	else if (!b)
		emu_lot_print(stdout, t);
	for (size_t i = 0; i < t->n; i++) {
		if (b && strcmp(t->r[i].name, b->name) != 0)
			continue;
		if (!b)
			putchar('\n');
		emu_layout_print_tiles(stdout, &t->r[i], &s->prog.geom);
	}
	free(t);
	return 0;
}

/* One slice (o2) of tile (t0, t1, t2) of b as a grid: a row per i1, a
 * column per i0, the tensor's own indexes on the edges. */
static void tile_grid(dbg_session *s, const emu_buffer *b, const uint64_t t[3], uint64_t o2,
		      char fmt)
{
	const uint64_t i2 = t[2] * b->tile[2] + o2;
	char text[160];
	if (b->ndims == 3)
		printf("%s[%" PRIu64 "]:\n", b->name, i2);
	printf("%8s", "");
	for (uint64_t o0 = 0; o0 < b->tile[0]; o0++)
		printf(" %12" PRIu64, t[0] * b->tile[0] + o0);
	putchar('\n');
	for (uint64_t o1 = 0; o1 < b->tile[1]; o1++) {
		const uint64_t i1 = t[1] * b->tile[1] + o1;
		printf("%8" PRIu64, i1);
		for (uint64_t o0 = 0; o0 < b->tile[0]; o0++) {
			const uint64_t i0 = t[0] * b->tile[0] + o0;
			/* boundary tiles: bitlines past the tensor's edge hold nothing */
			if (i0 >= b->shape[0] || i1 >= b->shape[1] || i2 >= b->shape[2]) {
				printf(" %12s", "-");
				continue;
			}
			const uint64_t flat = i0 + b->shape[0] * (i1 + b->shape[1] * i2);
			dbg_value v = dbg_value_of_element(s, b, flat);
			dbg_format_text(s, &v, fmt, -1, text, sizeof text);
			if (dbg_elem_outside(s, b, flat)) { /* outside a tDFG node's domain */
				char marked[170];
				snprintf(marked, sizeof marked, "(%s)", text);
				printf(" %12s", marked);
			} else {
				printf(" %12s", text);
			}
		}
		putchar('\n');
	}
}

/* The tile number T of b, as text.  0, or -1 with an error. */
static int parse_tile(dbg_session *s, const emu_buffer *b, const char *text, uint64_t *tile)
{
	uint64_t n[EMU_LAYOUT_DIMS] = { 1, 1, 1 };
	for (unsigned k = 0; k < EMU_LAYOUT_DIMS; k++)
		n[k] = (b->shape[k] + b->tile[k] - 1) / b->tile[k];
	const uint64_t tiles = n[0] * n[1] * n[2];
	if (dbg_parse_u64(text, tile) && *tile < tiles)
		return 0;
	dbg_error(s, "No tile \"%s\" in %s: it has tiles 0 to %" PRIu64 " (see \"info layout %s\").",
		  text, b->name, tiles - 1, b->name);
	return -1;
}

int dbg_cmd_dump_tile(dbg_session *s, char *args)
{
	char fmt = 0;
	if (value_format(s, "dump tile", &args, &fmt) < 0)
		return -1;
	char *save = NULL, *name = strtok_r(args, " \t", &save);
	char *num = strtok_r(NULL, " \t", &save);
	if (!name || !num || strtok_r(NULL, " \t", &save)) {
		dbg_error(s, "dump tile: expected TENSOR TILE, e.g. \"dump tile A 0\".");
		return -1;
	}
	const emu_buffer *b = dbg_find_buffer(s, name, strlen(name));
	if (!b || !b->ndims) {
		dbg_error(s, b ? "dump tile: %s is a buffer, not a tensor: use \"print %s\"."
			       : "dump tile: no tensor \"%s\" in the program.", name, name);
		return -1;
	}
	uint64_t tile;
	if (parse_tile(s, b, num, &tile) < 0 || dbg_need_machine(s) < 0)
		return -1;
	dbg_value first = dbg_value_of_element(s, b, 0);
	char text[160];
	if (dbg_format_text(s, &first, fmt, -1, text, sizeof text) < 0) {
		dbg_error(s, "%s", text);
		return -1;
	}
	const uint64_t n0 = (b->shape[0] + b->tile[0] - 1) / b->tile[0];
	const uint64_t n1 = (b->shape[1] + b->tile[1] - 1) / b->tile[1];
	const uint64_t t[3] = { tile % n0, tile / n0 % n1, tile / (n0 * n1) };
	unsigned array, bl, wl;
	emu_buffer_place(b, &s->prog.geom, (t[0] * b->tile[0]) +
			 b->shape[0] * (t[1] * b->tile[1] + b->shape[1] * t[2] * b->tile[2]),
			 &array, &bl, &wl);
	const sram_machine *m = s->em->m;
	const unsigned bank = emu_bank_of_array(m, array);
	const unsigned in_bank = array - emu_array_index(m, bank, 0, 0);
	printf("%s tile %" PRIu64 " (%" PRIu64 ",%" PRIu64 ",%" PRIu64 "): array %u (bank %u, way %u, "
	       "array %u), %" PRIu64 "x%" PRIu64 " elements%s; row i, column j: %s[i][j]\n",
	       b->name, tile, t[0], t[1], t[2], array, bank, in_bank / m->g.arrays_per_way,
	       in_bank % m->g.arrays_per_way, b->tile[0], b->tile[1], b->ndims == 3 ? " a slice" : "",
	       b->name);
	for (uint64_t o2 = 0; o2 < b->tile[2]; o2++)
		tile_grid(s, b, t, o2, fmt);
	bool outside = false;
	for (uint64_t i = 0; i < b->length && !outside; i++)
		outside = dbg_elem_outside(s, b, i);
	if (outside)
		dbg_domain_note(s, b, false);
	return 0;
}
