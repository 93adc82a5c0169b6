/* SPDX-License-Identifier: MIT */
/*
 * test_jit_direct.c: the JIT assembles its commands straight into the
 * program (emu/tdfg/jit_asm.c) and replays the commands of a run that
 * repeats an earlier one (the memo); the program must be the one the
 * assembler makes of the lowered text (emu_parse, emu_program_lower),
 * command for command and marker for marker, on every sample tDFG.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "move.h"
#include "tdfg.h"

static void same_cmd(const emu_program *a, const emu_program *b, size_t i, const char *path)
{
	const emu_cmd *x = &a->cmds[i], *y = &b->cmds[i];
	char tx[2048], ty[2048];
	emu_format_cmd(a, x, tx, sizeof tx);
	emu_format_cmd(b, y, ty, sizeof ty);
	cr_assert_str_eq(tx, ty, "%s: command %zu", path, i + 1);
	cr_assert_eq(x->kind, y->kind, "%s: command %zu", path, i + 1);
	cr_assert_eq(x->line, y->line, "%s: command %zu: line %d, text's %d", path, i + 1,
		     x->line, y->line);
	cr_assert(x->buf_d == y->buf_d && x->buf_d2 == y->buf_d2 && x->buf_a == y->buf_a &&
		  x->buf_b == y->buf_b && x->buf_c == y->buf_c, "%s: command %zu", path, i + 1);
	cr_assert(x->c.scratch == y->c.scratch && x->c.scratch_rows == y->c.scratch_rows &&
		  x->c.flags == y->c.flags && x->c.iters == y->c.iters && x->c.imm == y->c.imm,
		  "%s: command %zu", path, i + 1);
	cr_assert(x->mv.scratch == y->mv.scratch && x->mv.line == y->mv.line,
		  "%s: command %zu", path, i + 1);
}

/* path lowered: its program against the text's; false if it does not
 * lower (a sample that needs options). */
static bool compare(const char *path)
{
	const sram_geom def = sram_geom_default();
	emu_tdfg t;
	emu_jit j;
	emu_program p;
	diag d;
	diag_clear(&d);
	if (emu_tdfg_load(path, NULL, &t, &j, &d)) {
		emu_tdfg_free(&t);
		return false;
	}
	char lowered[1100];
	snprintf(lowered, sizeof lowered, "%s (lowered)", t.path);
	cr_assert_eq(emu_parse(lowered, j.text, j.len, &def, &p, &d), 0, "%s", d.msg);
	cr_assert_eq(emu_program_lower(&p, &d), 0, "%s", d.msg);
	cr_assert_eq(j.prog.ncmds, p.ncmds, "%s", path);
	cr_assert_eq(j.prog.nbufs, p.nbufs, "%s", path);
	cr_assert_eq(j.prog.scratch, p.scratch, "%s", path);
	for (size_t i = 0; i < p.ncmds; i++)
		same_cmd(&j.prog, &p, i, path);
	cr_assert_eq(j.prog.nmarks, p.nmarks, "%s", path);
	for (size_t i = 0; i < p.nmarks; i++) {
		const emu_mark *x = &j.prog.marks[i], *y = &p.marks[i];
		cr_assert(strcmp(x->name, y->name) == 0 && x->buf == y->buf && x->at == y->at &&
			  x->strm == y->strm && x->line == y->line, "%s: marker %zu", path, i + 1);
	}
	char *fa = emu_format(&j.prog), *fb = emu_format(&p);
	cr_assert(fa && fb);
	cr_assert_str_eq(fa, fb, "%s", path);
	free(fa);
	free(fb);
	emu_program_free(&p);
	emu_jit_free(&j);
	emu_tdfg_free(&t);
	return true;
}

static size_t compare_dir(const char *dir)
{
	char path[1024];
	size_t n = 0;
	DIR *dp = opendir(dir);
	cr_assert(dp, "%s", dir);
	for (struct dirent *e; (e = readdir(dp)) != NULL;) {
		const size_t l = strlen(e->d_name);
		if (l < 6 || strcmp(e->d_name + l - 5, ".tdfg") != 0)
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		n += compare(path);
	}
	closedir(dp);
	return n;
}

Test(jit_direct, workloads_as_the_text_assembles)
{
	cr_expect_geq(compare_dir(SRCDIR "/samples/workloads"), 22);
}

Test(jit_direct, samples_as_the_text_assembles)
{
	cr_expect_geq(compare_dir(SRCDIR "/samples/tdfg"), 10);
}

static bool same_arrays(const emu_tdfg *t, const emu_tregion *a, const emu_tregion *b)
{
	for (size_t i = 0; i < a->node1 - a->node0; i++)
		if (t->nodes[a->node0 + i].array != t->nodes[b->node0 + i].array)
			return false;
	return true;
}

/* A memoised run (a repeat's commands replayed) against the run lowered
 * on its own: the same commands, one run later. */
Test(jit_direct, replayed_run_is_a_fresh_one)
{
	const sram_geom def = sram_geom_default();
	emu_tdfg t;
	emu_jit j;
	diag d;
	diag_clear(&d);
	cr_assert_eq(emu_tdfg_load(SRCDIR "/samples/workloads/stencil2d_f32.tdfg", NULL, &t, &j,
				   &d), 0, "%s", d.msg);
	cr_assert_gt(j.hits, 0);
	size_t n = 0;
	(void)def;
	/* every hit's commands are those of the run it repeats */
	for (size_t r = 1; r < t.nregions; r++) {
		const emu_tregion *a = &t.regions[r], *b = NULL;
		for (size_t q = 0; q < r && !b; q++)
			if (t.regions[q].tmpl == a->tmpl &&
			    memcmp(t.regions[q].pv, a->pv, sizeof a->pv) == 0 &&
			    memcmp(&t.regions[q].window, &a->window, sizeof a->window) == 0 &&
			    same_arrays(&t, &t.regions[q], a))
				b = &t.regions[q];
		if (!b)
			continue;
		n++;
		cr_assert_eq(a->cmd1 - a->cmd0, b->cmd1 - b->cmd0);
		for (size_t c = 0; c < a->cmd1 - a->cmd0; c++) {
			char x[2048], y[2048];
			emu_format_cmd(&j.prog, &j.prog.cmds[a->cmd0 + c], x, sizeof x);
			emu_format_cmd(&j.prog, &j.prog.cmds[b->cmd0 + c], y, sizeof y);
			cr_assert_str_eq(x, y, "run %zu command %zu", r + 1, c + 1);
		}
	}
	cr_expect_gt(n, 0);
	emu_jit_free(&j);
	emu_tdfg_free(&t);
}
