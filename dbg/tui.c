/* SPDX-License-Identifier: MIT */
/*
 * tui.c: infsdb's text user interface (`tui enable`, `-tui`, Ctrl-X A),
 * on ncurses, as gdb's.  On a program of another target than streams the
 * windows above the console are the target's (tui_target.c: its source,
 * and the view `tui view` picks); on a stream: a listing of the commands
 * around the current one (of a tDFG program, its source lines around the
 * current node's),
 * an array view of the current command's first selected array
 * (wordlines x bitlines with the latches; the bits that changed since
 * the previous view in reverse video), an element view of the tile that
 * array holds (beside the array view, or below it on a narrow terminal;
 * the elements that changed in reverse video), and the console below,
 * which keeps its past output (PageUp, PageDown).
 *
 * gdb's `layout` picks the windows (layout.c reads the commands, this
 * file's dbg_tui_layout says what they mean here): src the listing, asm
 * the array view (the machine's wordlines, what the micro-ops act on),
 * split both (the default), regs the listing with the latches C, T, E
 * and the element view; `focus` gives PageUp, PageDown and the arrows to
 * the listing, the array view or the element view instead of the
 * console; `refresh` (and Ctrl-L) redraws the whole screen.
 *
 * The console is GNU readline's callback interface: ncurses reads the
 * keys (so KEY_RESIZE arrives with them), readline edits the line
 * (history, completion, Ctrl-X A) and draws it through our redisplay
 * hook.  A command's output (stdout and stderr) goes to a temporary
 * file while it runs and is then appended to the console's scrollback;
 * ncurses writes to its own duplicate of the terminal's descriptor.
 * Every value shown is read through the array's port (sram_get_bit,
 * sram_get_latch), never from a shadow copy of the data: the copy kept
 * here is the previous view, only to know what changed.
 */
#include "config.h"

#include <curses.h>
#include <inttypes.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "dbg.h"
#include "tui_int.h"

enum { SCROLLBACK = 1000, MIN_LINES = 14, MIN_COLS = 40, QUEUE = 16 };
/* gdb's layouts and windows, as `layout` and `focus` name them */
enum { L_SRC, L_ASM, L_SPLIT, L_REGS };
enum { W_SRC, W_ASM, W_REGS, W_CMD };
static const char *const layout_names[] = { "src", "asm", "split", "regs", NULL };
static const char *const window_names[] = { "src", "asm", "regs", "cmd", NULL };
/* A target's TUI (tui_target.c's windows): its listing (src), its state
 * view (state) or both, as the stream's src, asm and split. */
static const char *const tgt_layout_names[] = { "src", "state", "split", NULL };
static const int tgt_layout_of[] = { L_SRC, L_ASM, L_SPLIT };
static const char *const tgt_window_names[] = { "src", "state", "cmd", NULL };
static const int tgt_window_of[] = { W_SRC, W_ASM, W_CMD };
static int tgt_layout_now(void);
static int tgt_focus_now(void);

/* The array view as last read: rows wordlines then C, T, E; one byte a bit. */
typedef struct tui_view {
	bool valid;
	unsigned array, nwl, nbl;
	uint8_t *bits;     /* (nwl + 3) x nbl */
	uint8_t *changed;  /* same shape: differs from the previous view */
} tui_view;

/* The element view as last read: the elements of one buffer in the
 * array view's array (part: its place in the buffer's arrays pattern,
 * the tile number of a tensor), their bits as last shown. */
#define NO_ELEM UINT64_MAX /* a boundary tile's cell past the tensor's edge */
typedef struct tui_elems {
	bool valid, in_array;
	size_t buf;          /* index in prog.bufs */
	unsigned array;
	uint64_t part;
	uint64_t origin[3];  /* the tile's first index (a plain buffer's: [0]) */
	size_t n;
	uint64_t *elem;      /* element numbers, or NO_ELEM */
	uint64_t *raw;
	uint8_t *changed;
} tui_elems;

static struct tui_state {
	bool active, want_on, want_off, toggle_req;
	dbg_session *s;
	SCREEN *scr;
	FILE *term_out, *null_out, *cap;
	char *lines[SCROLLBACK];
	size_t nlines;
	int queue[QUEUE];
	size_t nqueue;
	tui_view view;
	tui_elems elems;
	char elem_pin[EMU_NAME_MAX]; /* `tui element NAME`, or "" */
	bool rows_pinned;    /* `tui rows A-B`: the array view shows those */
	unsigned rows_lo, rows_hi;
	long bitline;        /* `tui bitline N`: the column highlighted, or -1 */
	int console_lines;   /* `tui console N`: the console's height, or 0 */
	size_t scroll;       /* console lines scrolled back (PageUp) */
	int layout, focus;   /* L_*, W_* */
	long src_off;        /* focus src: lines the listing is scrolled by */
	uint64_t src_since;  /* ... at this history step (a motion recentres it) */
	long arr_top;        /* focus asm: the array view's first wordline, or -1 */
	int elem_off;        /* focus regs: the element view's first grid row */
	int cons_h;          /* the console's height as last drawn */
	/* readline's settings outside the TUI, restored when leaving it */
	rl_getc_func_t *old_getc;
	rl_voidfunc_t *old_redisplay;
	rl_vintfunc_t *old_prep;
	rl_voidfunc_t *old_deprep;
	FILE *old_out;
	rl_compdisp_func_t *old_matches;
} tui = { .bitline = -1, .layout = L_SPLIT, .focus = W_CMD, .arr_top = -1 };

/* ---- the scrollback ---- */

static void push_line(const char *text, size_t len)
{
	char *line = malloc(len * 8 + 1);
	if (!line)
		return;
	size_t n = 0;
	for (size_t i = 0; i < len; i++) {
		if (text[i] == '\t')
			do
				line[n++] = ' ';
			while (n % 8);
		else if ((unsigned char)text[i] >= ' ')
			line[n++] = text[i];
	}
	line[n] = '\0';
	if (tui.nlines == SCROLLBACK) {
		free(tui.lines[0]);
		memmove(tui.lines, tui.lines + 1, (SCROLLBACK - 1) * sizeof *tui.lines);
		tui.nlines--;
	}
	tui.lines[tui.nlines++] = line;
}

static void push_text(const char *text, size_t len)
{
	while (len) {
		const char *nl = memchr(text, '\n', len);
		size_t n = nl ? (size_t)(nl - text) : len;
		push_line(text, n);
		n += nl != NULL;
		text += n;
		len -= n;
	}
}

/* Move what the command wrote to the capture file into the scrollback. */
static void drain_capture(void)
{
	int fd = fileno(tui.cap);
	char buf[4096];
	char *all = NULL;
	size_t len = 0;
	ssize_t got;
	lseek(fd, 0, SEEK_SET);
	while ((got = read(fd, buf, sizeof buf)) > 0) {
		char *grown = realloc(all, len + (size_t)got);
		if (!grown)
			break;
		all = grown;
		memcpy(all + len, buf, (size_t)got);
		len += (size_t)got;
	}
	if (len)
		push_text(all, len);
	free(all);
	if (ftruncate(fd, 0) < 0) {
		static const char msg[] = "(the console's capture file could not be emptied)";
		push_line(msg, sizeof msg - 1);
	}
	lseek(fd, 0, SEEK_SET);
}

/* ---- the array view ---- */

/* The command the views follow: the current (or last) one, or before
 * a sync (which selects no array) the one before it.  false if none. */
static bool view_cmd(const dbg_session *s, size_t *cmd)
{
	if (!s->em || !s->prog.ncmds)
		return false;
	size_t pc = s->em->pc < s->prog.ncmds ? s->em->pc : s->prog.ncmds - 1;
	for (size_t i = pc + 1; i-- > 0;) {
		const emu_cmd *c = &s->prog.cmds[i];
		const bool move = c->kind == EMU_CMD_MOVE;
		if ((move && c->mv.kind == EMU_MOVE_SYNC) ||
		    !emu_pattern_size(move ? &c->mv.arrays : &c->arrays))
			continue;
		*cmd = i;
		return true;
	}
	return false;
}

/* Its first array; of a transfer between arrays (mv.inter, mv.bcast),
 * the first destination array, where the data lands (at a sync, the
 * transfer before it): mv.arrays are its source tiles, dist arrays away
 * from their destinations (infinity-stream §4.2). */
static bool view_array(const dbg_session *s, unsigned *array)
{
	size_t i;
	if (!view_cmd(s, &i))
		return false;
	const emu_cmd *c = &s->prog.cmds[i];
	const bool move = c->kind == EMU_CMD_MOVE;
	int64_t a = emu_pattern_at(move ? &c->mv.arrays : &c->arrays, 0);
	const bool transfer = move && (c->mv.kind == EMU_MOVE_INTER || c->mv.kind == EMU_MOVE_BCAST);
	if (transfer && a + c->mv.dist >= 0 && a + c->mv.dist < (int64_t)s->em->m->narrays)
		a += c->mv.dist;
	*array = (unsigned)a;
	return true;
}

static uint8_t view_bit(const sram_machine *m, unsigned array, unsigned row, unsigned bl)
{
	static const enum sram_latch latch[3] = { SRAM_CARRY, SRAM_TAG, SRAM_ENABLE };
	if (row < m->g.wordlines)
		return sram_get_bit(m, array, row, bl);
	return sram_get_latch(m, array, latch[row - m->g.wordlines], bl);
}

static void elems_free(void);
static void elems_take(const dbg_session *s);

/* Read the view after a stop; what differs from the previous one is
 * what the last micro-op (or command) changed. */
static void view_take(const dbg_session *s)
{
	unsigned array;
	if (!view_array(s, &array)) {
		tui.view.valid = false;
		elems_free();
		return;
	}
	const sram_machine *m = s->em->m;
	unsigned nwl = m->g.wordlines, nbl = m->g.bitlines;
	size_t n = (size_t)(nwl + 3) * nbl;
	tui_view *v = &tui.view;
	bool same = v->valid && v->array == array && v->nwl == nwl && v->nbl == nbl;
	if (!same) {
		free(v->bits);
		free(v->changed);
		v->bits = calloc(n, 1);
		v->changed = calloc(n, 1);
		if (!v->bits || !v->changed) {
			v->valid = false;
			elems_free();
			return;
		}
	}
	for (unsigned row = 0; row < nwl + 3; row++)
		for (unsigned bl = 0; bl < nbl; bl++) {
			size_t i = (size_t)row * nbl + bl;
			uint8_t b = view_bit(m, array, row, bl);
			v->changed[i] = same && v->bits[i] != b;
			v->bits[i] = b;
		}
	*v = (tui_view){ true, array, nwl, nbl, v->bits, v->changed };
	elems_take(s);
}

static bool row_listed(const unsigned *rows, unsigned n, unsigned wl)
{
	for (unsigned i = 0; i < n; i++)
		if (rows[i] == wl)
			return true;
	return false;
}

static void add_row(unsigned *rows, unsigned *n, unsigned max, unsigned nwl, unsigned wl)
{
	if (*n < max && wl < nwl && !row_listed(rows, *n, wl))
		rows[(*n)++] = wl;
}

static int by_value(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
	return (x > y) - (x < y);
}

/* The wordlines that fit, in order: the activated ones and the written
 * one first, then the destination's and the operands' wordlines (a
 * move's destination rows, then its source rows), then the rest from
 * wordline 0. */
static unsigned pick_rows(const dbg_session *s, const sram_way *w, unsigned *rows,
			  unsigned max)
{
	unsigned n = 0, nwl = tui.view.nwl;
	if (tui.arr_top >= 0) { /* scrolled (focus asm): wordlines from arr_top */
		for (unsigned wl = (unsigned)tui.arr_top; wl < nwl; wl++)
			add_row(rows, &n, max, nwl, wl);
		return n;
	}
	if (tui.rows_pinned) { /* `tui rows`: those, as many as fit */
		for (unsigned wl = tui.rows_lo; wl <= tui.rows_hi; wl++)
			add_row(rows, &n, max, nwl, wl);
		return n;
	}
	for (unsigned wl = 0; wl < nwl; wl++)
		if (sram_way_activated(w, wl))
			add_row(rows, &n, max, nwl, wl);
	add_row(rows, &n, max, nwl, w->last_dst);
	size_t pc = s->em->pc < s->prog.ncmds ? s->em->pc : s->prog.ncmds - 1;
	const emu_cmd *c = &s->prog.cmds[pc];
	if (c->kind == EMU_CMD_MOVE && c->mv.kind == EMU_MOVE_SYNC && view_cmd(s, &pc))
		c = &s->prog.cmds[pc]; /* a sync delivers the transfer before it */
	const int16_t ops[4] = { c->buf_d, c->buf_d2, c->buf_a, c->buf_b };
	for (unsigned o = 0; o < 4; o++)
		for (unsigned k = 0; ops[o] >= 0 && k < s->prog.bufs[ops[o]].width; k++)
			add_row(rows, &n, max, nwl, s->prog.bufs[ops[o]].wl + k);
	for (unsigned k = 0; c->kind == EMU_CMD_MOVE && k < c->mv.nwl; k++)
		add_row(rows, &n, max, nwl, c->mv.dst_wl + k); /* a move's destination rows */
	for (unsigned k = 0; c->kind == EMU_CMD_MOVE && k < c->mv.nwl; k++)
		add_row(rows, &n, max, nwl, c->mv.wl + k);
	for (unsigned wl = 0; wl < nwl; wl++)
		add_row(rows, &n, max, nwl, wl);
	qsort(rows, n, sizeof *rows, by_value);
	return n;
}

/* The bit k of an element of b: "B.3"; in a float format its field,
 * fraction bits "B.f0".., exponent bits "B.e0".. and the sign "B.s". */
static void bit_label(const emu_buffer *b, unsigned k, char *buf, size_t size)
{
	const isa_fpfmt *ff = isa_fpfmt_of(b->fmt);
	if (!ff)
		snprintf(buf, size, "%s.%u", b->name, k);
	else if (k < ff->mbits)
		snprintf(buf, size, "%s.f%u", b->name, k);
	else if (k < ff->mbits + ff->ebits)
		snprintf(buf, size, "%s.e%u", b->name, k - ff->mbits);
	else
		snprintf(buf, size, "%s.s", b->name);
}

/* The label of the buffer bit wordline wl of the array holds, or "". */
static void row_label(const dbg_session *s, unsigned array, unsigned wl, char *buf, size_t size)
{
	snprintf(buf, size, "%s", "");
	for (size_t i = 0; i < s->prog.nbufs; i++) {
		const emu_buffer *b = &s->prog.bufs[i];
		if (wl < b->wl || wl >= (unsigned)b->wl + b->width)
			continue;
		for (uint64_t k = 0; k < emu_pattern_size(&b->arrays); k++)
			if (emu_pattern_at(&b->arrays, k) == (int64_t)array) {
				bit_label(b, wl - b->wl, buf, size);
				return;
			}
	}
}

static void draw_bits(int y, unsigned row, unsigned nbl)
{
	for (unsigned bl = 0; bl < nbl; bl++) {
		size_t i = (size_t)row * tui.view.nbl + bl;
		attr_t a = tui.view.changed[i] ? A_REVERSE | A_BOLD : A_NORMAL;
		if ((long)bl == tui.bitline) /* `tui bitline`: its column underlined */
			a |= A_UNDERLINE;
		attron(a);
		mvaddch(y, 16 + (int)bl, tui.view.bits[i] ? '1' : '0');
		attroff(a);
	}
}

static void draw_wordline(const dbg_session *s, const sram_way *w, int y, unsigned wl,
			  unsigned nbl)
{
	const bool act = sram_way_activated(w, wl);
	bool wr = w->last_dst == wl;
	char label[EMU_NAME_MAX + 16];
	row_label(s, tui.view.array, wl, label, sizeof label);
	mvprintw(y, 0, "%3u %-7.7s %-3s", wl, label, act && wr ? "a+w" : act ? "act" : wr ? "wr" : "");
	draw_bits(y, wl, nbl);
}

/* The array view in the rows top.. top+h-1, width columns wide. */
static void draw_array(const dbg_session *s, int top, int h, int width)
{
	unsigned nbl = tui.view.nbl < (unsigned)width - 16 ? tui.view.nbl : (unsigned)width - 16;
	mvaddstr(top, 0, " wl buffer");
	for (unsigned bl = 0; bl < nbl; bl++) /* `tui bitline`: a 'v' over its column */
		mvaddch(top, 16 + (int)bl, (long)bl == tui.bitline ? 'v' : (chtype)('0' + bl % 10));
	if (tui.bitline >= 0 && (unsigned long)tui.bitline >= nbl)
		mvprintw(top, 0, " wl bl %ld: past", tui.bitline);
	const sram_way *w = sram_way_of(s->em->m, tui.view.array);
	unsigned rows[SRAM_MAX_DIM];
	unsigned max = h - 4 < SRAM_MAX_DIM ? (unsigned)(h - 4) : SRAM_MAX_DIM;
	if (tui.layout == L_REGS) /* the registers: the latches alone */
		max = 0;
	unsigned n = pick_rows(s, w, rows, max);
	for (unsigned i = 0; i < n; i++)
		draw_wordline(s, w, top + 1 + (int)i, rows[i], nbl);
	static const char *const latch[3] = { "C carry", "T tag", "E enable" };
	for (unsigned l = 0; l < 3; l++) {
		mvprintw(top + 1 + (int)n + (int)l, 0, "    %-11s", latch[l]);
		draw_bits(top + 1 + (int)n + (int)l, tui.view.nwl + l, nbl);
	}
}

/* ---- the element view ---- */

/* Which buffer's elements the element view shows: those of the array
 * the array view shows, as the tile that array holds (infinity-stream
 * §4.1: a tile is T0 x T1 x T2 elements, one a bitline); for a plain
 * buffer the elements on the array's bitlines.  Each value is read
 * through the array's port (emu_elem_get); raw keeps the bits last shown,
 * only to know which changed. */
static bool buffer_in_array(const emu_buffer *b, unsigned array, uint64_t *k)
{
	const uint64_t n = emu_pattern_size(&b->arrays);
	for (uint64_t i = 0; i < n; i++)
		if (emu_pattern_at(&b->arrays, i) == (int64_t)array) {
			*k = i;
			return true;
		}
	return false;
}

/* The pinned buffer (`tui element NAME`); else the one the command the
 * views follow (view_cmd) writes in the array; else the one shown
 * before; else the array's first. */
static bool pick_buffer(const dbg_session *s, unsigned array, size_t *buf)
{
	uint64_t k;
	const emu_buffer *pin = tui.elem_pin[0]
		? dbg_find_buffer(s, tui.elem_pin, strlen(tui.elem_pin)) : NULL;
	if (pin) {
		*buf = (size_t)(pin - s->prog.bufs);
		return true;
	}
	size_t pc;
	const bool follow = view_cmd(s, &pc);
	for (size_t i = 0; i < s->prog.nbufs && follow; i++)
		if (dbg_cmd_writes(s, pc, i) && buffer_in_array(&s->prog.bufs[i], array, &k)) {
			*buf = i;
			return true;
		}
	const tui_elems *e = &tui.elems;
	if (e->valid && e->buf < s->prog.nbufs && buffer_in_array(&s->prog.bufs[e->buf], array, &k)) {
		*buf = e->buf;
		return true;
	}
	for (size_t i = 0; i < s->prog.nbufs; i++)
		if (buffer_in_array(&s->prog.bufs[i], array, &k)) {
			*buf = i;
			return true;
		}
	return false;
}

/* The element numbers of part k of b (the k-th array of its pattern):
 * a tensor's tile k, row-major over (o2, o1, o0), NO_ELEM past the
 * tensor's edge in a boundary tile; a plain buffer's elements k*B.. */
static size_t part_elems(const emu_buffer *b, const sram_geom *g, uint64_t k, uint64_t **out)
{
	tui_elems *e = &tui.elems;
	uint64_t n = b->ndims ? b->tile[0] * b->tile[1] * b->tile[2] : g->bitlines;
	if (!b->ndims) {
		e->origin[0] = k * g->bitlines;
		n = b->length - e->origin[0] < n ? b->length - e->origin[0] : n;
	} else {
		const uint64_t n0 = (b->shape[0] + b->tile[0] - 1) / b->tile[0];
		const uint64_t n1 = (b->shape[1] + b->tile[1] - 1) / b->tile[1];
		const uint64_t t[3] = { k % n0, k / n0 % n1, k / (n0 * n1) };
		for (unsigned d = 0; d < 3; d++)
			e->origin[d] = t[d] * b->tile[d];
	}
	uint64_t *elem = malloc((n ? n : 1) * sizeof *elem);
	if (!elem)
		return 0;
	for (uint64_t j = 0; j < n; j++) {
		if (!b->ndims) {
			elem[j] = e->origin[0] + j;
			continue;
		}
		const uint64_t i0 = e->origin[0] + j % b->tile[0];
		const uint64_t i1 = e->origin[1] + j / b->tile[0] % b->tile[1];
		const uint64_t i2 = e->origin[2] + j / (b->tile[0] * b->tile[1]);
		elem[j] = i0 < b->shape[0] && i1 < b->shape[1] && i2 < b->shape[2]
			? i0 + b->shape[0] * (i1 + b->shape[1] * i2) : NO_ELEM;
	}
	*out = elem;
	return (size_t)n;
}

static void elems_free(void)
{
	free(tui.elems.elem);
	free(tui.elems.raw);
	free(tui.elems.changed);
	tui.elems = (tui_elems){ .buf = tui.elems.buf };
}

/* Read the element view after a stop (view_take's array). */
static void elems_take(const dbg_session *s)
{
	tui_elems *e = &tui.elems;
	size_t buf;
	uint64_t k = 0, *elem = NULL;
	if (!tui.view.valid || !pick_buffer(s, tui.view.array, &buf)) {
		elems_free();
		return;
	}
	const emu_buffer *b = &s->prog.bufs[buf];
	const bool in = buffer_in_array(b, tui.view.array, &k);
	const bool same = e->valid && e->buf == buf && e->array == tui.view.array;
	if (!same) {
		elems_free();
		e->n = in ? part_elems(b, &s->prog.geom, k, &elem) : 0;
		e->elem = elem;
		e->raw = calloc(e->n + 1, sizeof *e->raw);
		e->changed = calloc(e->n + 1, 1);
		if ((in && !e->elem) || !e->raw || !e->changed) {
			elems_free();
			return;
		}
	}
	for (size_t j = 0; j < e->n; j++) {
		const uint64_t raw = e->elem[j] == NO_ELEM ? 0 : emu_elem_get(s->em, b, e->elem[j]);
		e->changed[j] = same && raw != e->raw[j];
		e->raw[j] = raw;
	}
	e->valid = true;
	e->in_array = in;
	e->buf = buf;
	e->array = tui.view.array;
	e->part = k;
}

/* Element j's text in its buffer's format, as `print` writes it. */
static void elem_text(const emu_buffer *b, size_t j, char *buf, size_t size)
{
	if (tui.elems.elem[j] == NO_ELEM) {
		snprintf(buf, size, "-");
		return;
	}
	dbg_value v = dbg_value_of_bits(b, tui.elems.raw[j]);
	char text[160];
	if (dbg_format_value(&v, 0, text, sizeof text) < 0)
		snprintf(text, sizeof text, "?");
	/* outside a tDFG node's domain: in parentheses, as print shows it */
	snprintf(buf, size, dbg_elem_outside(tui.s, b, tui.elems.elem[j]) ? "(%s)" : "%s", text);
}

static int digits(uint64_t v)
{
	int n = 1;
	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/* The grid's geometry: a cell's width (the widest value or column label,
 * and a space), the row labels' width ("I1 ", "I2,I1 ", a plain buffer's
 * first element of the row), and columns per row: a tensor's T0, a plain
 * buffer's a power of two up to 16 that fits in w. */
typedef struct tui_grid {
	int cell, label, cols, rows;
} tui_grid;

static tui_grid elems_grid(const dbg_session *s, int w)
{
	const tui_elems *e = &tui.elems;
	const emu_buffer *b = &s->prog.bufs[e->buf];
	char text[160];
	tui_grid g = { 0, 0, 1, 0 };
	if (b->fmt == ISA_FMT_INT) /* the type's widest value: the grid keeps its shape */
		g.cell = b->is_signed ? 1 + digits(UINT64_C(1) << (b->width - 1))
				      : digits(isa_mask(b->width));
	for (size_t j = 0; j < e->n; j++) {
		elem_text(b, j, text, sizeof text);
		g.cell = (int)strlen(text) > g.cell ? (int)strlen(text) : g.cell;
	}
	if (b->ndims) {
		g.cols = (int)b->tile[0];
		const int col = digits(e->origin[0] + b->tile[0] - 1);
		g.cell = (col > g.cell ? col : g.cell) + 1;
		g.cell = (col + 2 > g.cell ? col + 2 : g.cell); /* the labels [j] */
		g.label = digits(e->origin[1] + b->tile[1] - 1) + 3;
		if (b->ndims == 3)
			g.label += digits(e->origin[2] + b->tile[2] - 1) + 2;
	} else {
		g.cell = (3 > g.cell ? 3 : g.cell) + 1; /* the column labels +0 .. +15 */
		g.label = digits(e->origin[0] + (e->n ? e->n - 1 : 0)) + 3;
		while (g.cols < 16 && (size_t)g.cols < e->n && g.label + 2 * g.cols * g.cell <= w)
			g.cols *= 2;
	}
	g.rows = e->n ? (int)((e->n + (size_t)g.cols - 1) / (size_t)g.cols) : 0;
	return g;
}

/* The title: "B tile 1 (u8)", "C (u4) elements 0-15", and how much of
 * the grid fits when not all of it does. */
static void elems_title(const dbg_session *s, const tui_grid *g, int rows, int cols, char *buf,
			size_t size)
{
	const tui_elems *e = &tui.elems;
	const emu_buffer *b = &s->prog.bufs[e->buf];
	char type[32];
	emu_buffer_type(b, type, sizeof type);
	int n = b->ndims ? snprintf(buf, size, "%s tile %" PRIu64 " (%s)", b->name, e->part, type)
			 : snprintf(buf, size, "%s (%s) elements %" PRIu64 "-%" PRIu64, b->name,
				    type, e->origin[0], e->origin[0] + e->n - 1);
	if (n > 0 && (size_t)n < size && (rows < g->rows || cols < g->cols))
		snprintf(buf + n, size - (size_t)n, ", %dx%d of %dx%d", cols, rows, g->cols,
			 g->rows);
}

/* Row r's label, as an index, so that it does not read like a value: a
 * tensor's [I1] ([I2][I1] in 3-d), a plain buffer's first element [I]. */
static void row_text(const emu_buffer *b, const tui_grid *g, int r, char *buf, size_t size)
{
	const tui_elems *e = &tui.elems;
	if (!b->ndims)
		snprintf(buf, size, "[%" PRIu64 "]", e->origin[0] + (uint64_t)r * (uint64_t)g->cols);
	else if (b->ndims < 3)
		snprintf(buf, size, "[%" PRIu64 "]", e->origin[1] + (uint64_t)r);
	else
		snprintf(buf, size, "[%" PRIu64 "][%" PRIu64 "]", e->origin[2] + (uint64_t)r / b->tile[1],
			 e->origin[1] + (uint64_t)r % b->tile[1]);
}

static void draw_elem_row(const emu_buffer *b, const tui_grid *g, int y, int x, int r, int cols)
{
	char text[160];
	row_text(b, g, r, text, sizeof text);
	mvprintw(y, x, "%*s", g->label - 1, text);
	for (int c = 0; c < cols; c++) {
		const size_t j = (size_t)r * (size_t)g->cols + (size_t)c;
		if (j >= tui.elems.n)
			break;
		elem_text(b, j, text, sizeof text);
		const int cx = x + g->label + c * g->cell;
		mvprintw(y, cx, "%*s", g->cell - 1, "");
		const attr_t a = tui.elems.changed[j] ? A_REVERSE | A_BOLD : A_NORMAL;
		attron(a);
		mvprintw(y, cx + g->cell - 1 - (int)strlen(text), "%s", text);
		attroff(a);
	}
}

/* The element view in the box at (top, left), h rows by w columns:
 * the title, the column labels, then a row per grid row, as many as fit. */
static void draw_elems(const dbg_session *s, int top, int left, int h, int w)
{
	const tui_elems *e = &tui.elems;
	const emu_buffer *b = &s->prog.bufs[e->buf];
	char text[256];
	if (!e->in_array) {
		snprintf(text, sizeof text, "%s has no element in array %u", b->name, e->array);
		mvaddnstr(top, left, text, w);
		return;
	}
	const tui_grid g = elems_grid(s, w);
	const int cols = g.label + g.cols * g.cell <= w ? g.cols : (w - g.label) / g.cell;
	if (tui.elem_off > g.rows - 1)
		tui.elem_off = g.rows > 0 ? g.rows - 1 : 0;
	const int off = tui.elem_off, left_rows = g.rows - off;
	const int rows = left_rows < h - 2 ? left_rows : h - 2;
	elems_title(s, &g, rows, cols, text, sizeof text);
	mvaddnstr(top, left, text, w);
	for (int c = 0; c < cols; c++) {
		if (b->ndims)
			snprintf(text, sizeof text, "[%" PRIu64 "]", e->origin[0] + (uint64_t)c);
		else
			snprintf(text, sizeof text, "+%d", c);
		mvprintw(top + 1, left + g.label + c * g.cell, "%*s", g.cell - 1, text);
	}
	for (int r = 0; r < rows; r++)
		draw_elem_row(b, &g, top + 2 + r, left, off + r, cols);
}

/* The element view's full size: the widest of its title and grid, and
 * its rows (title, column labels, grid) when w columns wide. */
static int elems_width(const dbg_session *s)
{
	char text[256];
	if (!tui.elems.in_array)
		return (int)strlen(s->prog.bufs[tui.elems.buf].name) + 32;
	const tui_grid g = elems_grid(s, 1 << 20);
	elems_title(s, &g, g.rows, g.cols, text, sizeof text);
	const int grid = g.label + g.cols * g.cell;
	return grid > (int)strlen(text) ? grid : (int)strlen(text);
}

static int elems_height(const dbg_session *s, int w)
{
	return tui.elems.in_array ? 2 + elems_grid(s, w).rows : 1;
}

/* The array view, and the element view beside it when that leaves the
 * array view 16 columns and up to 32 bitlines and the element view 16
 * columns or all it needs; else below it, if the array view keeps two
 * wordlines with its latches and the element view gets three rows; else
 * no element view. */
static void draw_views(const dbg_session *s, int top, int h)
{
	const int nbl = (int)tui.view.nbl, keep = nbl < 32 ? nbl : 32;
	const int side = COLS - 16 - keep - 2, need = tui.elems.valid ? elems_width(s) : 0;
	if (!tui.elems.valid) {
		draw_array(s, top, h, COLS);
	} else if (side >= 16 || side >= need) {
		const int w = need < side ? need : side;
		const int aw = 16 + nbl < COLS - 2 - w ? 16 + nbl : COLS - 2 - w;
		draw_array(s, top, h, aw);
		draw_elems(s, top, aw + 2, h, COLS - aw - 2);
	} else {
		int eh = elems_height(s, COLS);
		eh = eh < h - 6 ? eh : h - 6;
		draw_array(s, top, eh >= 3 ? h - eh : h, COLS);
		if (eh >= 3)
			draw_elems(s, top + h - eh, 0, eh, COLS);
	}
}

/* ---- drawing ---- */

void dbg_tui_bar(int y, const char *fmt, ...)
{
	char text[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	attron(A_REVERSE);
	mvhline(y, 0, ' ', COLS);
	mvaddnstr(y, 0, text, COLS);
	attroff(A_REVERSE);
}

/* A tDFG program's listing: its source lines around the current node's
 * line, which `=>` and bold mark (before the run, around the first
 * node; after it, around the last). */
static void draw_tdfg_listing(const dbg_session *s, int top, int h)
{
	const long node = dbg_current_node(s);
	const int cur = node >= 0 ? s->t.nodes[node].line : 0;
	const bool done = s->em && emu_done(s->em);
	const int centre = (cur ? cur : s->t.nodes[done ? s->t.nnodes - 1 : 0].line) +
			   (int)tui.src_off;
	const int from = centre > h / 2 ? centre - h / 2 : 1;
	for (int y = 0; y < h; y++) {
		size_t len = 0;
		const char *text = emu_tdfg_line(&s->t, from + y, &len);
		if (!text)
			break;
		const bool mark = from + y == cur;
		if (mark)
			attron(A_BOLD);
		mvprintw(top + y, 0, "%s%-4d ", mark ? "=> " : "   ", from + y);
		addnstr(text, COLS - 8 > 0 ? (int)(len < (size_t)COLS - 8 ? len : (size_t)COLS - 8) : 0);
		if (mark)
			attroff(A_BOLD);
	}
}

static void draw_listing(const dbg_session *s, int top, int h)
{
	if (s->tdfg) {
		draw_tdfg_listing(s, top, h);
		return;
	}
	size_t n = s->prog.ncmds, pc = s->em ? s->em->pc : 0;
	const long centre = (long)pc + tui.src_off;
	size_t from = centre > h / 2 ? (size_t)(centre - h / 2) : 0;
	for (int y = 0; y < h && from + (size_t)y < n; y++) {
		size_t i = from + (size_t)y;
		char text[512];
		emu_format_cmd(&s->prog, &s->prog.cmds[i], text, sizeof text);
		bool cur = s->em && i == pc;
		if (cur)
			attron(A_BOLD);
		mvprintw(top + y, 0, "%s%-4zu %4d  ", cur ? "=> " : "   ", i, s->prog.cmds[i].line);
		addnstr(text, COLS - 14 > 0 ? COLS - 14 : 0);
		if (cur)
			attroff(A_BOLD);
	}
}

static void draw_position_bar(const dbg_session *s, int y)
{
	const emu_machine *em = s->em;
	if (!em) {
		dbg_tui_bar(y, " array view: the program is not being run");
	} else if (!tui.view.valid) {
		dbg_tui_bar(y, " array view: no array selected");
	} else if (emu_done(em)) {
		dbg_tui_bar(y, " array %u  program finished, %llu cycles", tui.view.array,
			 (unsigned long long)dbg_cycles(s));
	} else {
		char text[256] = "not started", note[64];
		if (em->upc > 0)
			dbg_format_uop(&em->up.u[em->upc], text, sizeof text);
		dbg_trace_note(s, note, sizeof note);
		const long node = dbg_current_node(s);
		char where[EMU_NAME_MAX + 16] = "";
		if (node >= 0)
			snprintf(where, sizeof where, "node %s  ", s->t.nodes[node].name);
		dbg_tui_bar(y, " array %u  %scmd %zu  next micro-op %zu%s: %s", tui.view.array, where,
			 em->pc, em->upc, note, text);
	}
}

/* The last lines of the scrollback that fit, or, scrolled back
 * (PageUp), earlier ones above a bar saying how many lines are below. */
static void draw_console(int top, int h)
{
	tui.cons_h = h;
	const size_t rows = tui.scroll ? (size_t)h - 1 : (size_t)h;
	const size_t end = tui.nlines - tui.scroll;
	const size_t from = end > rows ? end - rows : 0;
	for (size_t i = from; i < end; i++)
		mvaddnstr(top + (int)(i - from), 0, tui.lines[i], COLS);
	if (tui.scroll)
		dbg_tui_bar(top + h - 1, " %zu more line%s below (PageDown)",
			 tui.scroll, tui.scroll == 1 ? "" : "s");
}

/* PageUp (dir 1) and PageDown (-1): the console moves by its height
 * less two lines, so that one line stays in view; at most until the
 * first line is at the top. */
static void scroll_console(int dir)
{
	const size_t page = tui.cons_h > 3 ? (size_t)tui.cons_h - 2 : 1;
	const size_t rows = tui.cons_h > 1 ? (size_t)tui.cons_h - 1 : 1;
	const size_t max = tui.nlines > rows ? tui.nlines - rows : 0;
	if (dir > 0)
		tui.scroll = tui.scroll + page < max ? tui.scroll + page : max;
	else
		tui.scroll = tui.scroll > page ? tui.scroll - page : 0;
}

/* PageUp, PageDown, Up and Down in the focused window (focus src, asm
 * or regs): the listing, the array view's wordlines (consecutive ones
 * from then on, until a layout or focus command), the element view's
 * grid rows; a page is ten lines. */
static void scroll_focused(int key)
{
	const long step = key == KEY_PPAGE ? -10 : key == KEY_NPAGE ? 10 : key == KEY_UP ? -1 : 1;
	if (tui.focus == W_SRC) {
		tui.src_off += step;
	} else if (tui.focus == W_ASM && tui.s->ops) { /* a target's state view */
		const long top = (tui.arr_top < 0 ? 0 : tui.arr_top) + step;
		tui.arr_top = top < 0 ? 0 : top;
	} else if (tui.focus == W_ASM) {
		const long nwl = tui.view.valid ? (long)tui.view.nwl : 1;
		long top = (tui.arr_top < 0 ? 0 : tui.arr_top) + step;
		tui.arr_top = top < 0 ? 0 : top >= nwl ? nwl - 1 : top;
	} else if (tui.focus == W_REGS) {
		const long off = tui.elem_off + step;
		tui.elem_off = off < 0 ? 0 : (int)off; /* draw_elems keeps it in the grid */
	}
}

/* The prompt line, with readline's buffer and the cursor where it is. */
static void draw_prompt(void)
{
	const char *prompt = rl_prompt ? rl_prompt : "";
	int y = LINES - 1, plen = (int)strlen(prompt);
	int point = rl_point, skip = plen + point >= COLS ? plen + point - COLS + 1 : 0;
	move(y, 0);
	clrtoeol();
	char *full = malloc((size_t)plen + (size_t)rl_end + 1);
	if (!full)
		return;
	memcpy(full, prompt, (size_t)plen);
	memcpy(full + plen, rl_line_buffer ? rl_line_buffer : "", (size_t)rl_end);
	full[plen + rl_end] = '\0';
	mvaddnstr(y, 0, full + skip, COLS);
	free(full);
	move(y, plen + point - skip);
}

/* Refresh, and push the bytes out now: ncurses may leave the last
 * ones in term_out's buffer until the next refresh. */
static void show(void)
{
	refresh();
	fflush(tui.term_out);
}

static void draw_all(void)
{
	const dbg_session *s = tui.s;
	erase();
	if (LINES < MIN_LINES || COLS < MIN_COLS) {
		mvprintw(0, 0, "The terminal is too small for the TUI (%dx%d; at least %dx%d).",
			 COLS, LINES, MIN_COLS, MIN_LINES);
		draw_prompt();
		show();
		return;
	}
	/* rows: bar, listing, bar, array view, console, prompt */
	int list_h = LINES * 4 / 24, cons_h = LINES * 6 / 24;
	if (tui.console_lines > 0) { /* `tui console N`, leaving the views 6 rows */
		const int most = LINES - list_h - 3 - 6;
		cons_h = tui.console_lines < most ? tui.console_lines : most;
		cons_h = cons_h < 2 ? 2 : cons_h;
	}
	int arr_h = LINES - list_h - cons_h - 3;
	const int views = list_h + arr_h; /* what the layout shares out */
	if (tui.layout == L_SRC)
		list_h = views, arr_h = 0;
	else if (tui.layout == L_ASM)
		list_h = 0, arr_h = views;
	else if (tui.layout == L_REGS) /* the latches and the element view */
		arr_h = views / 3 > 6 ? views / 3 : 6, list_h = views - arr_h;
	if (s->ops) { /* a target's windows (tui_target.c) */
		/* the layout and focus once changed (the system's title is long) */
		char where[64] = "";
		if (tui.layout != L_SPLIT || tui.focus != W_CMD)
			snprintf(where, sizeof where, "  [layout %s, focus %s]",
				 tgt_layout_names[tgt_layout_now()],
				 tgt_window_names[tgt_focus_now()]);
		dbg_tui_target_title(tui.s, 0, where);
		if (list_h > 0)
			dbg_tui_target_listing(tui.s, 1, list_h, &tui.src_off);
		dbg_tui_target_bar(tui.s, 1 + list_h);
		if (arr_h > 0)
			dbg_tui_target_view(tui.s, 2 + list_h, arr_h, tui.arr_top < 0 ? 0 : tui.arr_top);
	} else {
		if (s->since != tui.src_since) { /* the machine moved: the listing follows it */
			tui.src_off = 0;
			tui.src_since = s->since;
		}
		char where[64];
		snprintf(where, sizeof where, "  [layout %s, focus %s]", layout_names[tui.layout],
			 window_names[tui.focus]);
		if (s->tdfg)
			dbg_tui_bar(0, " %s  (%zu nodes, %zu commands)%s", s->t.path, s->t.nnodes,
				    s->prog.ncmds, where);
		else
			dbg_tui_bar(0, " %s  (%zu commands)%s", s->prog.path ? s->prog.path : "",
				    s->prog.ncmds, where);
		draw_listing(s, 1, list_h);
		draw_position_bar(s, 1 + list_h);
		if (s->em && tui.view.valid && arr_h > 0)
			draw_views(s, 2 + list_h, arr_h);
	}
	draw_console(2 + list_h + arr_h, cons_h);
	draw_prompt();
	show();
}

static void tui_redisplay(void)
{
	if (tui.active)
		draw_all();
}

/* ---- readline inside ncurses ---- */

static int tui_getc(FILE *in)
{
	(void)in;
	if (!tui.nqueue)
		return EOF;
	int c = tui.queue[0];
	memmove(tui.queue, tui.queue + 1, --tui.nqueue * sizeof *tui.queue);
	return c;
}

static int tui_input_available(void)
{
	return tui.nqueue > 0;
}

/* ncurses and not readline owns the terminal's modes. */
static void tui_prep(int meta)
{
	(void)meta;
}

static void tui_deprep(void)
{
}

/* Run one command with its output going to the console. */
static void run_captured(dbg_session *s, char *line)
{
	char echo[1024];
	int n = snprintf(echo, sizeof echo, "(infsdb) %s", line);
	push_line(echo, n < (int)sizeof echo ? (size_t)n : sizeof echo - 1);
	fflush(stdout);
	fflush(stderr);
	int out = dup(STDOUT_FILENO), err = dup(STDERR_FILENO);
	if (out >= 0 && err >= 0) {
		dup2(fileno(tui.cap), STDOUT_FILENO);
		dup2(fileno(tui.cap), STDERR_FILENO);
	}
	dbg_console_line(s, line);
	fflush(stdout);
	fflush(stderr);
	if (out >= 0 && err >= 0) {
		dup2(out, STDOUT_FILENO);
		dup2(err, STDERR_FILENO);
	}
	if (out >= 0)
		close(out);
	if (err >= 0)
		close(err);
	drain_capture();
	tui.scroll = 0;
	view_take(s);
}

static void tui_line(char *line)
{
	if (!line) {
		static const char msg[] = "(infsdb) quit";
		push_line(msg, sizeof msg - 1);
		tui.s->quit = true;
		return;
	}
	run_captured(tui.s, line);
	free(line);
	if (tui.s->quit)
		tui.want_off = true;
}

/* Tab's list of the possible completions goes to the console. */
static void show_matches(char **matches, int num, int max)
{
	(void)max;
	char line[1024];
	size_t n = 0, width = COLS > 0 && COLS < (int)sizeof line ? (size_t)COLS : sizeof line - 1;
	for (int i = 1; i <= num; i++) {
		size_t len = strlen(matches[i]);
		if (n && n + len > width) {
			push_line(line, n);
			n = 0;
		}
		int w = snprintf(line + n, sizeof line - n, "%s  ", matches[i]);
		n = w > 0 && n + (size_t)w < sizeof line ? n + (size_t)w : sizeof line - 1;
	}
	if (n)
		push_line(line, n);
	tui.scroll = 0;
	draw_all();
}

/* Keys ncurses decoded, as the keys readline knows: control keys, and
 * Delete as the terminal's own sequence (bound to delete-char), so that
 * Delete on an empty line is not Ctrl-D's end of input. */
static const char *translate_key(int c)
{
	switch (c) {
	case KEY_UP: return "\x10";    /* Ctrl-P */
	case KEY_DOWN: return "\x0e";  /* Ctrl-N */
	case KEY_LEFT: return "\x02";  /* Ctrl-B */
	case KEY_RIGHT: return "\x06"; /* Ctrl-F */
	case KEY_HOME: return "\x01";  /* Ctrl-A */
	case KEY_END: return "\x05";   /* Ctrl-E */
	case KEY_BACKSPACE: return "\x7f";
	case KEY_DC: return "\033[3~";
	case KEY_ENTER: return "\r";
	default: return NULL;
	}
}

/* SIGWINCH: our own handler (readline's or the environment's might keep
 * ncurses' away), with SA_RESTART so that no write to the terminal is
 * cut short; getch waits at most a tenth of a second, then the loop
 * looks at the flag. */
static volatile sig_atomic_t resized;

static void on_sigwinch(int sig)
{
	(void)sig;
	resized = 1;
}

static void catch_sigwinch(bool on)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on ? on_sigwinch : SIG_DFL;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGWINCH, &sa, NULL);
}

/* Take the terminal's new size and draw everything again. */
static void apply_resize(void)
{
	struct winsize ws;
	resized = 0;
	if (ioctl(fileno(tui.term_out), TIOCGWINSZ, &ws) == 0 && ws.ws_row && ws.ws_col &&
	    is_term_resized(ws.ws_row, ws.ws_col))
		resizeterm(ws.ws_row, ws.ws_col); /* queues a KEY_RESIZE, drawn below */
	clearok(curscr, TRUE);
	draw_all();
}

static void tui_loop(dbg_session *s)
{
	while (tui.active && !tui.want_off && !s->quit) {
		int c = getch();
		if (resized)
			apply_resize();
		if (c == KEY_RESIZE)
			draw_all();
		if (c == KEY_RESIZE || (c == ERR && !dbg_interrupted))
			continue;
		if (c == ERR) {
			if (dbg_interrupted) { /* Ctrl-C at the prompt: drop the line */
				dbg_interrupted = 0;
				rl_replace_line("", 0);
				draw_all();
			}
			continue;
		}
		if (c == 12) { /* Ctrl-L: `refresh` */
			clearok(curscr, TRUE);
			draw_all();
			continue;
		}
		if (tui.focus != W_CMD && (c == KEY_PPAGE || c == KEY_NPAGE || c == KEY_UP ||
					   c == KEY_DOWN)) {
			scroll_focused(c);
			draw_all();
			continue;
		}
		if (c == KEY_PPAGE || c == KEY_NPAGE) {
			scroll_console(c == KEY_PPAGE ? 1 : -1);
			draw_all();
			continue;
		}
		const char *seq = translate_key(c);
		size_t len = seq ? strlen(seq) : c >= 0 && c < KEY_MIN;
		if (!len || tui.nqueue + len > QUEUE)
			continue;
		for (size_t i = 0; i < len; i++)
			tui.queue[tui.nqueue++] = seq ? (unsigned char)seq[i] : c;
		while (tui.nqueue && !tui.want_off && !s->quit)
			rl_callback_read_char();
		if (tui.active && !tui.want_off && !s->quit)
			draw_all();
	}
}

/* ---- entering and leaving ---- */

/* Why the TUI cannot start here, or NULL. */
static const char *unusable(const dbg_session *s)
{
	if (s->batch)
		return "Cannot enable the TUI in batch mode.";
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		return "Cannot enable the TUI when output is not a terminal.";
	const char *term = getenv("TERM");
	if (!term || !*term || strcmp(term, "dumb") == 0)
		return "Cannot enable the TUI: the terminal type (TERM) is unset or \"dumb\".";
	return NULL;
}

static void release_files(void)
{
	if (tui.term_out)
		fclose(tui.term_out);
	if (tui.null_out)
		fclose(tui.null_out);
	if (tui.cap)
		fclose(tui.cap);
	tui.term_out = tui.null_out = tui.cap = NULL;
}

static int open_screen(void)
{
	int fd = dup(STDOUT_FILENO);
	tui.term_out = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!tui.term_out && fd >= 0)
		close(fd);
	tui.null_out = fopen("/dev/null", "w");
	tui.cap = tmpfile();
	if (!tui.term_out || !tui.null_out || !tui.cap) {
		release_files();
		return -1;
	}
	/* The size from the terminal (ioctl), even if $LINES and $COLUMNS
	 * are set: use_env(FALSE) would take terminfo's 80x24 instead. */
	use_env(TRUE);
	use_tioctl(TRUE);
	tui.scr = newterm(NULL, tui.term_out, stdin);
	if (!tui.scr) {
		release_files();
		return -1;
	}
	set_term(tui.scr);
	cbreak();  /* Ctrl-C still interrupts a running program */
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	timeout(100);
	typeahead(-1); /* draw the whole screen even with keys pending */
	catch_sigwinch(true);
	return 0;
}

static void hook_readline(void)
{
	tui.old_getc = rl_getc_function;
	tui.old_redisplay = rl_redisplay_function;
	tui.old_prep = rl_prep_term_function;
	tui.old_deprep = rl_deprep_term_function;
	tui.old_out = rl_outstream;
	tui.old_matches = rl_completion_display_matches_hook;
	rl_completion_display_matches_hook = show_matches;
	rl_getc_function = tui_getc;
	rl_input_available_hook = tui_input_available;
	rl_redisplay_function = tui_redisplay;
	rl_prep_term_function = tui_prep;
	rl_deprep_term_function = tui_deprep;
	rl_outstream = tui.null_out;
	rl_catch_sigwinch = 0;
	rl_callback_handler_install("(infsdb) ", tui_line);
}

/* Leaving the TUI in the middle of a key sequence or an incremental
 * search (Ctrl-R, then Ctrl-X A): readline's callback state is dropped
 * first, so that the plain console's readline starts from a clean one. */
static void unhook_readline(void)
{
	rl_callback_sigcleanup();
	rl_callback_handler_remove();
	rl_getc_function = tui.old_getc;
	rl_input_available_hook = NULL;
	rl_redisplay_function = tui.old_redisplay;
	rl_prep_term_function = tui.old_prep;
	rl_deprep_term_function = tui.old_deprep;
	rl_outstream = tui.old_out ? tui.old_out : stdout; /* NULL before readline's first call */
	rl_completion_display_matches_hook = tui.old_matches;
}

/* Not an error: the session goes on in plain text. */
static void say_unusable(const char *why)
{
	fflush(stdout);
	fprintf(stderr, "%s\n", why);
	fflush(stderr);
}

/* The screen is opened by the console loop (dbg_tui_run), so that what
 * the init files, -x and -ex print after `tui enable` still goes to the
 * plain terminal. */
int dbg_tui_enable(dbg_session *s)
{
	const char *why = tui.active ? NULL : unusable(s);
	if (why) {
		say_unusable(why);
		return 0;
	}
	tui.want_on = !tui.active;
	tui.want_off = false;
	return 0;
}

static void start_screen(dbg_session *s)
{
	tui.want_on = false;
	if (open_screen() < 0) {
		say_unusable("Cannot enable the TUI: the terminal (TERM) is unknown to ncurses.");
		return;
	}
	tui.s = s;
	tui.active = true;
	tui.want_off = false;
	hook_readline();
	view_take(s);
	draw_all();
}

void dbg_tui_disable(void)
{
	tui.want_on = false;
	if (!tui.active)
		return;
	unhook_readline();
	catch_sigwinch(false);
	endwin();
	delscreen(tui.scr);
	tui.scr = NULL;
	release_files();
	for (size_t i = 0; i < tui.nlines; i++)
		free(tui.lines[i]);
	tui.nlines = 0;
	tui.nqueue = 0;
	free(tui.view.bits);
	free(tui.view.changed);
	tui.view = (tui_view){ 0 };
	elems_free();
	dbg_tui_target_free();
	tui.scroll = 0;
	tui.active = tui.want_off = false;
}

bool dbg_tui_active(void)
{
	return tui.active || tui.want_on;
}

void dbg_tui_run(dbg_session *s)
{
	if (!tui.active)
		start_screen(s);
	tui_loop(s);
	if (tui.want_off || s->quit)
		dbg_tui_disable();
}

bool dbg_tui_take_toggle(void)
{
	bool req = tui.toggle_req;
	tui.toggle_req = false;
	return req;
}

/* Ctrl-X A: leave the TUI, or (at the plain prompt) end the line so
 * that the console loop enters it. */
static int toggle_key(int count, int key)
{
	(void)count;
	(void)key;
	if (tui.active) {
		tui.want_off = true;
	} else {
		tui.toggle_req = true;
		rl_replace_line("", 0);
		rl_done = 1;
	}
	return 0;
}

void dbg_tui_bind_keys(void)
{
	rl_bind_keyseq("\\C-xa", toggle_key);
	rl_bind_keyseq("\\C-xA", toggle_key);
	rl_bind_keyseq("\\C-x\\C-a", toggle_key);
}

/* ---- the commands ---- */

int dbg_cmd_tui_enable(dbg_session *s, char *args)
{
	if (*dbg_trim(args)) {
		dbg_error(s, "\"tui enable\" takes no arguments.");
		return -1;
	}
	return dbg_tui_enable(s);
}

int dbg_cmd_tui_disable(dbg_session *s, char *args)
{
	if (*dbg_trim(args)) {
		dbg_error(s, "\"tui disable\" takes no arguments.");
		return -1;
	}
	/* Inside the TUI the loop leaves it once this command's output is shown. */
	if (tui.active)
		tui.want_off = true;
	tui.want_on = false;
	return 0;
}

int dbg_cmd_tui_element(dbg_session *s, char *args)
{
	const char *name = dbg_trim(args);
	if (!*name) {
		tui.elem_pin[0] = '\0';
		printf("The element view follows the current command.\n");
		return 0;
	}
	const emu_buffer *b = dbg_find_buffer(s, name, strlen(name));
	if (!b) {
		dbg_error(s, "tui element: no buffer or tensor \"%s\" in the program.", name);
		return -1;
	}
	snprintf(tui.elem_pin, sizeof tui.elem_pin, "%s", b->name);
	printf("The element view shows %s.\n", b->name);
	return 0;
}

/* "A-B" or "A": wordlines, inclusive. */
static bool parse_rows(const char *text, uint64_t *lo, uint64_t *hi)
{
	char a[32];
	const char *dash = strchr(text, '-');
	if (!dash)
		return dbg_parse_u64(text, lo) && (*hi = *lo, true);
	snprintf(a, sizeof a, "%.*s", (int)(dash - text < 31 ? dash - text : 31), text);
	return dbg_parse_u64(a, lo) && dbg_parse_u64(dash + 1, hi) && *lo <= *hi;
}

int dbg_cmd_tui_rows(dbg_session *s, char *args)
{
	const char *text = dbg_trim(args);
	if (!*text || strcmp(text, "auto") == 0) {
		tui.rows_pinned = false;
		printf("The array view chooses its wordlines (activated, written, operands).\n");
		return 0;
	}
	uint64_t lo, hi;
	const unsigned nwl = s->prog.geom.wordlines;
	if (!parse_rows(text, &lo, &hi) || hi >= nwl) {
		dbg_error(s, "tui rows: expected wordlines A-B (0 to %u, A <= B) or auto, got \"%s\".",
			  nwl - 1, text);
		return -1;
	}
	tui.rows_pinned = true;
	tui.rows_lo = (unsigned)lo;
	tui.rows_hi = (unsigned)hi;
	printf("The array view shows wordlines %" PRIu64 "-%" PRIu64 " (as many as fit).\n", lo, hi);
	return 0;
}

int dbg_cmd_tui_bitline(dbg_session *s, char *args)
{
	const char *text = dbg_trim(args);
	uint64_t bl;
	if (!*text || strcmp(text, "off") == 0) {
		tui.bitline = -1;
		printf("No bitline is highlighted.\n");
		return 0;
	}
	if (!dbg_parse_u64(text, &bl) || bl >= s->prog.geom.bitlines) {
		dbg_error(s, "tui bitline: expected a bitline from 0 to %u, or off, got \"%s\".",
			  s->prog.geom.bitlines - 1, text);
		return -1;
	}
	tui.bitline = (long)bl;
	printf("The array view highlights bitline %" PRIu64 ".\n", bl);
	return 0;
}

int dbg_cmd_tui_console(dbg_session *s, char *args)
{
	const char *text = dbg_trim(args);
	uint64_t n;
	if (!*text || strcmp(text, "auto") == 0) {
		tui.console_lines = 0;
		printf("The console takes a quarter of the screen.\n");
		return 0;
	}
	if (!dbg_parse_u64(text, &n) || n < 2 || n > 1000) {
		dbg_error(s, "tui console: expected a number of lines from 2 to 1000, or auto, got "
			  "\"%s\".", text);
		return -1;
	}
	tui.console_lines = (int)n;
	printf("The console takes %" PRIu64 " lines (the views keep at least 6).\n", n);
	return 0;
}

void dbg_tui_preload(const char *text, size_t len)
{
	push_text(text, len);
}

/* ---- layout, focus, refresh: what they mean here (layout.c reads them) ---- */

static int layout_now(void)
{
	return tui.layout;
}

static int focus_now(void)
{
	return tui.focus;
}

static bool layout_shows(int layout, int window)
{
	switch (window) {
	case W_SRC: return layout != L_ASM;
	case W_ASM: return layout == L_ASM || layout == L_SPLIT;
	case W_REGS: return layout == L_REGS;
	default: return true; /* the console */
	}
}

/* Scrolled windows come back to following the position. */
static void unscroll(void)
{
	tui.src_off = 0;
	tui.arr_top = -1;
	tui.elem_off = 0;
}

static int set_layout(dbg_session *s, int layout)
{
	tui.layout = layout;
	if (!layout_shows(layout, tui.focus))
		tui.focus = W_CMD;
	unscroll();
	return dbg_tui_enable(s);
}

static int set_focus(dbg_session *s, int window)
{
	tui.focus = window;
	unscroll();
	printf("Focus set to %s window.\n", window_names[window]);
	return dbg_tui_enable(s);
}

static int tui_refresh(dbg_session *s)
{
	if (tui.active)
		clearok(curscr, TRUE); /* the loop's next draw repaints every cell */
	return dbg_tui_enable(s);
}

const dbg_layout_ops dbg_tui_layout = {
	layout_names, window_names, layout_now, focus_now, layout_shows, set_layout, set_focus,
	tui_refresh,
};

/* The same for a target: its indices mapped onto the stream's. */
static int index_of(const int *map, int n, int v, int otherwise)
{
	for (int k = 0; k < n; k++)
		if (map[k] == v)
			return k;
	return otherwise;
}

static int tgt_layout_now(void)
{
	return index_of(tgt_layout_of, 3, tui.layout, 2);
}

static int tgt_focus_now(void)
{
	return index_of(tgt_window_of, 3, tui.focus, 2);
}

static bool tgt_layout_shows(int layout, int window)
{
	return layout_shows(tgt_layout_of[layout], tgt_window_of[window]);
}

static int tgt_set_layout(dbg_session *s, int layout)
{
	return set_layout(s, tgt_layout_of[layout]);
}

static int tgt_set_focus(dbg_session *s, int window)
{
	tui.focus = tgt_window_of[window];
	unscroll();
	printf("Focus set to %s window.\n", tgt_window_names[window]);
	return dbg_tui_enable(s);
}

const dbg_layout_ops dbg_tui_target_layout = {
	tgt_layout_names, tgt_window_names, tgt_layout_now, tgt_focus_now, tgt_layout_shows,
	tgt_set_layout, tgt_set_focus, tui_refresh,
};
