/* SPDX-License-Identifier: MIT */
/*
 * tui_simt.c: `infsdb -tui PROG.simt`, the text user interface of a
 * DC-PTX program (doc/SIMT.md, "Debugging"): the kernel's bundles around
 * the CB's PC, then the divergence view, then the console.
 *
 * The divergence view shows, for the bundle issued next, which threads
 * each VLIW slot enables (duality-cache §3.3: slot k is member array k
 * of every TB of the CB; the memory port is the fifth line): the CB's
 * active mask and each instruction's guard predicate.  Below them the
 * live threads: active here, or waiting at another bundle (divergence),
 * and each other PC with how many threads wait there.  One character
 * stands for as many threads as the width needs: '#' all of them
 * enabled, '+' some, '.' none (but live), ' ' none live.
 *
 * The console runs the commands of `infsdb PROG.simt` (emu/simt/dbg.c);
 * their output is caught in a temporary file and kept in a scrollback.
 * An empty line repeats the last command, as gdb's does for stepi.
 */
#include "config.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dbg.h"
#include "simt.h"

enum { TS_BACK = 500, TS_LINE = 256, TS_MIN_LINES = 18, TS_MIN_COLS = 40 };

typedef struct tsimt {
	simt_dbg *s;
	char *back[TS_BACK];
	size_t nback;
	char input[TS_LINE], last[TS_LINE];
	size_t ninput;
} tsimt;

static void ts_push(tsimt *t, const char *line)
{
	if (t->nback == TS_BACK) {
		free(t->back[0]);
		memmove(t->back, t->back + 1, (TS_BACK - 1) * sizeof *t->back);
		t->nback--;
	}
	t->back[t->nback] = strdup(line);
	if (t->back[t->nback])
		t->nback++;
}

/* Run one command with its output caught for the console: false once
 * the user quits. */
static bool ts_run(tsimt *t, const char *cmd)
{
	char echo[TS_LINE + 16];
	snprintf(echo, sizeof echo, "(infsdb) %s", cmd);
	ts_push(t, echo);
	FILE *tmp = tmpfile();
	if (!tmp) {
		ts_push(t, "infsdb: cannot make a temporary file for the output");
		return true;
	}
	fflush(stdout);
	int saved = dup(STDOUT_FILENO);
	dup2(fileno(tmp), STDOUT_FILENO);
	bool go = simt_dbg_exec(t->s, cmd);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	rewind(tmp);
	char line[1024];
	while (fgets(line, sizeof line, tmp)) {
		line[strcspn(line, "\n")] = 0;
		ts_push(t, line);
	}
	fclose(tmp);
	return go;
}

static bool ts_source(tsimt *t, const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		char msg[TS_LINE + 32];
		snprintf(msg, sizeof msg, "%s: cannot open", path);
		ts_push(t, msg);
		return true;
	}
	char line[TS_LINE];
	bool go = true;
	while (go && fgets(line, sizeof line, f)) {
		line[strcspn(line, "\r\n")] = 0;
		if (line[0])
			go = ts_run(t, line);
	}
	fclose(f);
	return go;
}

static unsigned ts_count(const simt_mask *m)
{
	unsigned n = 0;
	for (unsigned i = 0; i < SIMT_MASK_WORDS; i++)
		n += (unsigned)__builtin_popcountll(m->w[i]);
	return n;
}

static void ts_bar(int y, int w, const char *text)
{
	attron(A_REVERSE);
	mvhline(y, 0, ' ', w);
	mvaddnstr(y, 0, text, w);
	attroff(A_REVERSE);
}

/* The bundles around pc, the next one marked "=>". */
static void ts_listing(tsimt *t, const simt_where *w, int top, int h, int width)
{
	const simt_program *p = simt_dbg_program(t->s);
	const simt_kernel *k = &p->k[w->kernel];
	long first = (long)w->pc - h / 2;
	if (first + h > (long)k->n)
		first = (long)k->n - h;
	if (first < 0)
		first = 0;
	char buf[1024];
	for (int y = 0; y < h && first + y < (long)k->n; y++) {
		size_t i = (size_t)(first + y);
		FILE *f = fmemopen(buf, sizeof buf, "w");
		if (!f)
			return;
		fprintf(f, "%s%4zu  ", i == w->pc ? "=>" : "  ", i);
		simt_format_bundle(f, p, &k->b[i]);
		fputc(0, f);
		fclose(f);
		buf[sizeof buf - 1] = 0;
		if (i == w->pc)
			attron(A_BOLD);
		mvaddnstr(top + y, 0, buf, width);
		if (i == w->pc)
			attroff(A_BOLD);
	}
}

/* One mask line: each character stands for per threads of ntid. */
static void ts_mask_line(int y, int width, const char *label, const simt_mask *on,
			 const simt_mask *live, unsigned ntid, unsigned per)
{
	mvaddnstr(y, 0, label, width);
	for (unsigned c = 0; c * per < ntid && 7 + (int)c < width; c++) {
		unsigned n_on = 0, n_live = 0;
		for (unsigned t = c * per; t < (c + 1) * per && t < ntid; t++) {
			bool l = (live->w[t / 64] >> (t % 64)) & 1;
			n_live += l;
			n_on += l && ((on->w[t / 64] >> (t % 64)) & 1);
		}
		char ch = !n_live ? ' ' : !n_on ? '.' : n_on == n_live ? '#' : '+';
		mvaddch(y, 7 + (int)c, (chtype)(unsigned char)ch);
	}
}

/* Where the live threads that are not active wait. */
static void ts_waiting(tsimt *t, const simt_where *w, int y, int width)
{
	simt_machine *m = simt_dbg_machine(t->s);
	const simt_kernel *k = &simt_dbg_program(t->s)->k[w->kernel];
	char buf[512];
	size_t n = (size_t)snprintf(buf, sizeof buf, "waiting:");
	bool any = false;
	for (uint32_t pc = 0; pc <= k->n && n < sizeof buf - 40; pc++) {
		unsigned c = 0;
		for (unsigned th = 0; th < SIMT_CB_THREADS; th++)
			c += ((w->live.w[th / 64] >> (th % 64)) & 1) &&
			     !((w->active.w[th / 64] >> (th % 64)) & 1) &&
			     simt_machine_thread_pc(m, th) == pc;
		if (c)
			n += (size_t)snprintf(buf + n, sizeof buf - n, " pc %u: %u threads;", pc, c);
		any |= c != 0;
	}
	if (!any)
		snprintf(buf + n, sizeof buf - n, " none (no divergence)");
	mvaddnstr(y, 0, buf, width);
}

/* The divergence view: a line a slot, the live threads, who waits. */
static void ts_masks(tsimt *t, const simt_where *w, int top, int width)
{
	const simt_program *p = simt_dbg_program(t->s);
	unsigned ntid = p->l[w->launch].block, avail = (unsigned)(width > 8 ? width - 8 : 1);
	unsigned per = (ntid + avail - 1) / avail;
	simt_mask slot[SIMT_ARRAYS + 2];
	simt_where_slots(p, w, slot);
	const simt_bundle *b = &p->k[w->kernel].b[w->pc];
	bool bra = b->n && b->in[b->n - 1].opc == SIMT_BRA;
	char label[16];
	for (unsigned k = 0; k <= SIMT_SLOT_CTL; k++) {
		if (k < SIMT_ARRAYS)
			snprintf(label, sizeof label, "slot%u", k);
		else
			snprintf(label, sizeof label, k == SIMT_SLOT_MEM ? "mem" : bra ? "jump" : "exit");
		ts_mask_line(top + (int)k, width, label, &slot[k], &w->live, ntid, per);
	}
	ts_mask_line(top + SIMT_ARRAYS + 2, width, "here", &w->active, &w->live, ntid, per);
	ts_waiting(t, w, top + SIMT_ARRAYS + 3, width);
}

static void ts_draw(tsimt *t)
{
	int h = LINES, wd = COLS;
	erase();
	if (h < TS_MIN_LINES || wd < TS_MIN_COLS) {
		mvaddnstr(0, 0, "infsdb: the terminal is too small for the TUI (40x18 at least)", wd);
		refresh();
		return;
	}
	simt_where w;
	bool run = !simt_dbg_ended(t->s) && simt_machine_where(simt_dbg_machine(t->s), &w);
	const int masks = SIMT_ARRAYS + 4, console = h / 4 > 4 ? h / 4 : 4;
	int list = h - masks - console - 3;
	char bar[256];
	if (run) {
		const simt_program *p = simt_dbg_program(t->s);
		unsigned ntid = p->l[w.launch].block;
		unsigned per = (ntid + (unsigned)(wd - 8) - 1) / (unsigned)(wd - 8);
		ts_listing(t, &w, 0, list, wd);
		snprintf(bar, sizeof bar, " launch %u kernel %s CTA %u CB %u pc %u active %u/%u, %u a column",
			 w.launch, p->k[w.kernel].name, w.cta, w.cb, w.pc,
			 ts_count(&w.active), ntid, per);
		ts_bar(list, wd, bar);
		ts_masks(t, &w, list + 1, wd);
	} else {
		mvaddnstr(0, 0, "the program has ended", wd);
		ts_bar(list, wd, " ended");
	}
	ts_bar(list + masks + 1, wd, " console");
	int ctop = list + masks + 2, ch = h - ctop - 1;
	size_t from = t->nback > (size_t)ch ? t->nback - (size_t)ch : 0;
	for (int y = 0; from + (size_t)y < t->nback; y++)
		mvaddnstr(ctop + y, 0, t->back[from + (size_t)y], wd);
	mvaddnstr(h - 1, 0, "(infsdb) ", wd);
	addnstr(t->input, wd - 9);
	refresh();
}

/* One key at the prompt: false once the user quits. */
static bool ts_key(tsimt *t, int c)
{
	if (c == '\n' || c == '\r' || c == KEY_ENTER) {
		t->input[t->ninput] = 0;
		if (t->ninput)
			snprintf(t->last, sizeof t->last, "%s", t->input);
		t->ninput = 0;
		t->input[0] = 0;
		return !t->last[0] || ts_run(t, t->last);
	}
	if (c == KEY_BACKSPACE || c == 127 || c == 8) {
		if (t->ninput)
			t->input[--t->ninput] = 0;
	} else if (c == 4 && !t->ninput) { /* Ctrl-D on an empty line */
		return false;
	} else if (c == 21) { /* Ctrl-U */
		t->ninput = 0;
		t->input[0] = 0;
	} else if (c >= ' ' && c < 127 && t->ninput + 1 < sizeof t->input) {
		t->input[t->ninput++] = (char)c;
		t->input[t->ninput] = 0;
	}
	return true;
}

static void ts_free(tsimt *t)
{
	for (size_t i = 0; i < t->nback; i++)
		free(t->back[i]);
	simt_dbg_close(t->s);
}

/* The screen goes to a duplicate of the terminal's descriptor, so that
 * the commands' output can be caught on standard output. */
static int ts_loop(tsimt *t)
{
	int fd = dup(STDOUT_FILENO);
	FILE *term = fd >= 0 ? fdopen(fd, "w") : NULL;
	SCREEN *scr = term ? newterm(NULL, term, stdin) : NULL;
	if (!scr) {
		fprintf(stderr, "infsdb: -tui needs a terminal (TERM is not usable)\n");
		if (term)
			fclose(term);
		return 1;
	}
	set_term(scr);
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	bool go = true;
	while (go) {
		ts_draw(t);
		int c = getch();
		if (c == ERR)
			break;
		if (c != KEY_RESIZE)
			go = ts_key(t, c);
	}
	endwin();
	delscreen(scr);
	fclose(term);
	return 0;
}

int dbg_simt_tui_main(int argc, char **argv)
{
	tsimt t = { 0 };
	const char *prog = NULL;
	for (int i = 1; i < argc; i++) {
		if ((!strcmp(argv[i], "-x") || !strcmp(argv[i], "-ex")) && i + 1 < argc)
			i++;
		else if (argv[i][0] != '-' && !prog)
			prog = argv[i];
		else if (strcmp(argv[i], "-tui") && strcmp(argv[i], "-q") && strcmp(argv[i], "-quiet") &&
			 strcmp(argv[i], "-nx"))
			return fprintf(stderr, "infsdb: unknown option or extra operand '%s' with -tui for a .simt program (doc/SIMT.md)\n", argv[i]), 2;
	}
	diag d;
	diag_clear(&d);
	if (!(t.s = simt_dbg_open(prog, &d))) {
		fprintf(stderr, "%s\n", d.msg);
		return 1;
	}
	bool go = true;
	for (int i = 1; i < argc && go; i++)
		if (!strcmp(argv[i], "-ex") && i + 1 < argc)
			go = ts_run(&t, argv[++i]);
		else if (!strcmp(argv[i], "-x") && i + 1 < argc)
			go = ts_source(&t, argv[++i]);
	int rc = go ? ts_loop(&t) : 0;
	ts_free(&t);
	return rc;
}
