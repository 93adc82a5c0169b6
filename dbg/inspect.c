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

/* Parse an optional "/NF" at the start of *args (N a count, F a format
 * letter among allowed).  0, or -1 with an error reported. */
static int parse_format(dbg_session *s, char **args, const char *allowed,
			char *fmt, uint64_t *count)
{
	char *p = *args;
	if (*p != '/')
		return 0;
	p++;
	if (isdigit((unsigned char)*p)) {
		char *end;
		unsigned long long n = strtoull(p, &end, 10);
		if (!count) {
			dbg_error(s, "Item count other than 1 is meaningless here (\"/%.*s\").",
				  (int)strcspn(*args + 1, " "), *args + 1);
			return -1;
		}
		if (n == 0 || n > 1024) {
			dbg_error(s, "Invalid count in \"/%.*s\": expected 1 to 1024.",
				  (int)strcspn(*args + 1, " "), *args + 1);
			return -1;
		}
		*count = n;
		p = end;
	}
	/* x takes gdb's unit letter w, which here is always a wordline */
	const char *letters = count ? "w" : "";
	if (*p && !isspace((unsigned char)*p) && !(*letters && *p == 'w')) {
		if (!strchr(allowed, *p)) {
			dbg_error(s, "Undefined output format \"%.*s\": expected one of %s.",
				  (int)strcspn(p, " "), p, allowed);
			return -1;
		}
		*fmt = *p++;
	}
	if (*letters && *p == 'w')
		p++;
	if (*p && !isspace((unsigned char)*p)) {
		dbg_error(s, "Undefined output format \"%.*s\": expected one of %s%s.",
			  (int)strcspn(*args + 1, " "), *args + 1, allowed, *letters ? ", then w" : "");
		return -1;
	}
	*args = p;
	return 0;
}

/* ---- print ---- */

/* A tensor as C prints an array of arrays, outermost dimension first:
 * {{A[0][0], A[0][1]}, {A[1][0], A[1][1]}} (dimension dim, elements from
 * flat index base).  At most 64 entries a dimension are shown. */
static void print_tensor(const dbg_session *s, const emu_buffer *b, char fmt, unsigned dim,
			 uint64_t base)
{
	uint64_t stride = 1;
	for (unsigned k = 0; k < dim; k++)
		stride *= b->shape[k];
	putchar('{');
	for (uint64_t i = 0; i < b->shape[dim] && i < 64; i++) {
		if (i)
			printf(", ");
		if (dim > 0) {
			print_tensor(s, b, fmt, dim - 1, base + i * stride);
			continue;
		}
		char text[160];
		dbg_value v = dbg_value_of_element(s, b, base + i);
		dbg_format_value(&v, fmt, text, sizeof text);
		/* a tDFG node's value outside its domain is not defined */
		printf(dbg_elem_outside(s, b, base + i) ? "(%s)" : "%s", text);
	}
	printf("%s}", b->shape[dim] > 64 ? ", ..." : "");
}

static int print_buffer(dbg_session *s, const emu_buffer *b, char fmt)
{
	if (dbg_need_machine(s) < 0)
		return -1;
	char text[160];
	/* the elements share a type: a format that does not apply to the
	 * first applies to none */
	dbg_value first = dbg_value_of_element(s, b, 0);
	if (b->length && dbg_format_value(&first, fmt, text, sizeof text) < 0) {
		dbg_error(s, "%s", text);
		return -1;
	}
	if (b->ndims > 1) {
		printf("%s = ", b->name);
		print_tensor(s, b, fmt, b->ndims - 1, 0);
		putchar('\n');
		bool outside = false;
		for (uint64_t i = 0; i < b->length && !outside; i++)
			outside = dbg_elem_outside(s, b, i);
		if (outside)
			dbg_domain_note(s, b, false);
		return 0;
	}
	/* `set print elements`: 200 by default, as gdb */
	const uint64_t limit = dbg_print_elements(s) ? dbg_print_elements(s) : UINT64_MAX;
	printf("%s = {", b->name);
	for (uint64_t i = 0; i < b->length && i < limit; i++) {
		dbg_value v = dbg_value_of_element(s, b, i);
		dbg_format_value(&v, fmt, text, sizeof text);
		printf("%s%s", i ? ", " : "", text);
	}
	printf("%s}\n", b->length > limit ? "..." : "");
	return 0;
}

int dbg_cmd_print(dbg_session *s, char *args)
{
	char fmt = 0;
	if (parse_format(s, &args, "xtduf", &fmt, NULL) < 0)
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
	if (dbg_format_value(&v, fmt, text, sizeof text) < 0) {
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

static void print_row(const dbg_session *s, unsigned array, unsigned wl, char fmt)
{
	const sram_machine *m = s->em->m;
	unsigned nb = m->g.bitlines;
	printf("array %u wl %u: ", array, wl);
	if (fmt == 't') {
		/* bit 0 rightmost, as print/t and the hex word (doc/DEBUGGER.md,
		 * "One bit order") */
		for (unsigned bl = nb; bl-- > 0;)
			putchar(sram_get_bit(m, array, wl, bl) ? '1' : '0');
	} else {
		printf("0x");
		for (unsigned d = (nb + 3) / 4; d-- > 0;) {
			unsigned digit = 0;
			for (unsigned k = 0; k < 4 && d * 4 + k < nb; k++)
				digit |= (unsigned)sram_get_bit(m, array, wl, d * 4 + k) << k;
			putchar("0123456789abcdef"[digit]);
		}
	}
	putchar('\n');
}

/* "ARRAY WL" of x/N: 0, or -1 with a message in err. */
static int examine_where(const dbg_session *s, const char *args, uint64_t count,
			 unsigned *array, uint64_t *wl, char *err, size_t errsize)
{
	char text[256], *save = NULL;
	snprintf(text, sizeof text, "%s", args);
	char *arr = strtok_r(text, " \t", &save), *wl_text = strtok_r(NULL, " \t", &save);
	if (!arr || !wl_text || strtok_r(NULL, " \t", &save)) {
		snprintf(err, errsize, "x: expected x/NF ARRAY WORDLINE.");
		return -1;
	}
	if (parse_array_quiet(s, arr, array, err, errsize) < 0)
		return -1;
	unsigned nw = s->em->m->g.wordlines;
	if (!dbg_parse_u64(wl_text, wl) || *wl >= nw) {
		snprintf(err, errsize, "x: no wordline %s: the arrays have wordlines 0 to %u.",
			 wl_text, nw - 1);
		return -1;
	}
	if (*wl + count > nw) {
		snprintf(err, errsize, "x: %" PRIu64 " wordlines from %" PRIu64 " go past wordline %u.",
			 count, *wl, nw - 1);
		return -1;
	}
	return 0;
}

/* x/N[F] ARRAY WL: N wordlines.  0, or -1 with a message in err. */
static int examine(const dbg_session *s, const char *args, char fmt, uint64_t count,
		   char *err, size_t errsize)
{
	unsigned array;
	uint64_t wl;
	if (examine_where(s, args, count, &array, &wl, err, errsize) < 0)
		return -1;
	for (uint64_t k = 0; k < count; k++)
		print_row(s, array, (unsigned)(wl + k), fmt);
	return 0;
}

int dbg_cmd_x(dbg_session *s, char *args)
{
	char fmt = 'x', err[256];
	uint64_t count = 1;
	if (parse_format(s, &args, "xt", &fmt, &count) < 0 || dbg_need_machine(s) < 0)
		return -1;
	if (examine(s, args, fmt, count, err, sizeof err) == 0)
		return 0;
	dbg_error(s, "%s", err);
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
		/* an examine display, as gdb's display/N: x/N of the array's rows */
		printf("%u: x/%" PRIu64 "%c %s\n", d->num, d->count, d->fmt, d->expr);
		if (!s->em) /* accepted before `start`, or kept after `kill` */
			printf("<The program is not being run.>\n");
		else if (examine(s, d->expr, d->fmt, d->count, err, sizeof err) < 0)
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
	else if (dbg_format_value(&v, d->fmt, text, sizeof text) < 0)
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
static int display_ok(dbg_session *s, const char *expr, char fmt, uint64_t count)
{
	char err[256], text[160];
	dbg_value v;
	if (count) {
		if (fmt != 'x' && fmt != 't') {
			dbg_error(s, "display/%" PRIu64 "%c: a display with a count examines wordlines, as x; its format is x or t.",
				  count, fmt);
			return -1;
		}
		if (!s->em)
			return 0;
		unsigned array;
		uint64_t wl;
		if (examine_where(s, expr, count, &array, &wl, err, sizeof err) == 0)
			return 0;
		dbg_error(s, "%s", err);
		return -1;
	}
	if (!s->em)
		return dbg_expr_check(s, expr);
	if (dbg_eval(s, expr, &v) < 0)
		return -1;
	if (dbg_format_value(&v, fmt, text, sizeof text) == 0)
		return 0;
	dbg_error(s, "%s", text);
	return -1;
}

int dbg_cmd_display(dbg_session *s, char *args)
{
	char fmt = 0;
	uint64_t count = 0;
	if (parse_format(s, &args, "xtduf", &fmt, &count) < 0)
		return -1;
	char *expr = dbg_trim(args);
	if (!*expr) {
		dbg_show_displays(s);
		return 0;
	}
	if (count && !fmt)
		fmt = 'x';
	if (display_ok(s, expr, fmt, count) < 0)
		return -1;
	dbg_display *grown = realloc(s->disps, (s->ndisps + 1) * sizeof *grown);
	char *copy = strdup(expr);
	if (!grown || !copy) {
		free(copy);
		if (grown)
			s->disps = grown;
		dbg_error(s, "out of memory");
		return -1;
	}
	s->disps = grown;
	s->disps[s->ndisps] = (dbg_display){ ++s->next_disp, fmt, count, copy, false };
	if (s->em)
		show_display(s, &s->disps[s->ndisps]);
	s->ndisps++;
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
			printf("%-3u %c   x/%" PRIu64 "%c %s\n", d->num, enb, d->count, d->fmt, d->expr);
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
			dbg_format_value(&v, fmt, text, sizeof text);
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
	if (parse_format(s, &args, "xtduf", &fmt, NULL) < 0)
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
	if (dbg_format_value(&first, fmt, text, sizeof text) < 0) {
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
