/* SPDX-License-Identifier: MIT */
/*
 * test_tutorial_jit.c: the tutorial doc/tutorial-jit.md, run as a reader
 * runs it.
 *
 * In a folder of its own holding samples/tutorial-jit/blur.tdfg, the
 * test types the tutorial's shell commands one after the other (infsim
 * on the PATH), each echoed as "$ CMD" before its output, then the three
 * infsdb sessions (each typed command echoed as "(infsdb) CMD", as
 * tests/test_teach.c does).  Every captured block of the tutorial (a
 * fenced block with a "$ " or an "(infsdb) " line) must appear verbatim
 * in one of these outputs (tests/handout.h), so the tutorial cannot drift
 * from the programs; and each broken stream must be caught at its node,
 * with the command that broke it named.
 */
#include <criterion/criterion.h>

#include "handout.h"
#include "proc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TUTORIAL SRCDIR "/doc/tutorial-jit.md"
#define SAMPLE SRCDIR "/samples/tutorial-jit/blur.tdfg"
#define JSON_SAMPLE SRCDIR "/samples/tutorial-jit/stencil1d.json"

/* The tutorial's shell commands, in its order. */
static const char *const steps[] = {
	"infsim jit blur.tdfg -o blur.ins",
	"sed -n '10,34p' blur.ins",
	"infsim run blur.tdfg --check",
	"infsim run blur.tdfg --dump B | sed -n '1,4p;62,65p'",
	"infsim run blur.ins --tdfg blur.tdfg --check",
	/* 1: a wrong shift distance */
	"sed '0,/move l, A, +1/s//move l, A, +2/' blur.ins > shift.ins",
	"diff blur.ins shift.ins",
	"infsim run shift.ins --check",
	"infsim run shift.ins --tdfg blur.tdfg; echo \"exit status $?\"",
	/* 2: a wrong operand (B's wordlines for A's) */
	"sed 's/add.i32 s1, A, l @ arrays=1:1:3/add.i32 s1, B, l @ arrays=1:1:3/' "
	"blur.ins > operand.ins",
	"infsim run operand.ins --tdfg blur.tdfg --check",
	/* 3: a dropped sync */
	"infsim disasm blur.ins > flat.ins",
	"grep -n -m 2 '^sync' flat.ins",
	"sed 13d flat.ins > nosync.ins",
	"infsim run nosync.ins --tdfg blur.tdfg",
	/* 4: a clobbered operand */
	"sed 's/^tensor r i32 64 wl=64/tensor r i32 64 wl=96/' blur.ins > clobber.ins",
	"infsim run clobber.ins --tdfg blur.tdfg",
	/* streams lowered another way */
	"sed 's/^node s1$/node s1\\nnode s1/' blur.ins > twice.ins",
	"infsim run twice.ins --tdfg blur.tdfg",
	"sed '/iteration 2/,/iteration 3/s/^node .*/& run=2/' blur.ins > run2.ins",
	"infsim run run2.ins --tdfg blur.tdfg",
	"sed 's/^node x tensor=A$/node x tensor=A run=4/' blur.ins > run4.ins",
	"infsim run run4.ins --tdfg blur.tdfg",
	/* the end of the stream */
	"sed '$a set.i32 B, #5 @ arrays=0 bitlines=0' blur.ins > late.ins",
	"infsim run late.ins --tdfg blur.tdfg",
	/* data that hide a bug */
	"sed 's/^add.i32 s1, A, l @ arrays=1:1:3 /add.i16 wl:96, wl:0, wl:64 @ arrays=1:1:3 /' "
	"blur.ins > narrow.ins",
	"infsim run narrow.ins --tdfg blur.tdfg --inputs=random,edge 2>&1 | grep -v warning",
	/* another size */
	"sed -e '1i param N = 64' -e '/^#/d' -e 's/ 64 / N /; s/ 64$/ N/' blur.tdfg > blurN.tdfg",
	"infsim jit blurN.tdfg -D N=256 -m bitlines=64 -o blur256.ins",
	"infsim run blur256.ins --tdfg blurN.tdfg -D N=256",
	"infsim run blur256.ins --tdfg blurN.tdfg",
	/* the artifact's JSON, in another proto3 spelling */
	"sed -e 's/\"scalar_elem_size\": 4/\"scalarElemSize\": \"4\"/' -e "
	"'s/\"start\": \"0\"/\"start\": 0/g' stencil1d.json > proto3.json",
	"infsim jit proto3.json --type f32 -o s1d.ins",
	"infsim run s1d.ins --tdfg stencil1d.json --type f32",
	NULL,
};

typedef struct dbg_session {
	const char *stream;
	const char *cmds[8];  /* NULL-terminated */
} dbg_session;

static const dbg_session sessions[] = {
	{ "shift.ins", { "check every node", "run", "print l[2]", "print l[3]", "print A[0]",
			 "list 1", NULL } },
	{ "operand.ins", { "check every node", "run", "print s1[16]", "print l[16]",
			   "print A[16]", "print B[16]", NULL } },
	{ "nosync.ins", { "check every node", "run", "print l[16]", "print A[15]", "list 2",
			  NULL } },
};
enum { NSESSIONS = sizeof sessions / sizeof *sessions };

/* Append "$ CMD\n" and its output (stdout and stderr merged) to *log;
 * CMD runs in a subshell, so that its own redirections and pipes stand. */
static void type_step(const char *dir, const char *step, char **log, size_t *len)
{
	char *out = NULL;
	const int st = proc_shell_in(dir, BUILDDIR, step, &out);
	cr_assert(st >= 0 && out, "%s: did not run", step);
	const size_t add = strlen(step) + strlen(out) + 4;
	char *grown = realloc(*log, *len + add);
	cr_assert_not_null(grown);
	*len += (size_t)snprintf(grown + *len, add, "$ %s\n%s", step, out);
	*log = grown;
	free(out);
}

static char *type_steps(const char *dir)
{
	char *log = calloc(1, 1);
	size_t len = 0;
	cr_assert_not_null(log);
	for (int i = 0; steps[i]; i++)
		type_step(dir, steps[i], &log, &len);
	return log;
}

/* infsdb -batch on one broken stream, each command echoed. */
static char *run_session(const char *dir, const dbg_session *s, int *status)
{
	char cmd[4096];
	int n = snprintf(cmd, sizeof cmd, "cd '%s' && HOME=/nonexistent '%s/infsdb' -batch -nx "
			 "--tdfg blur.tdfg", dir, BUILDDIR);
	for (int i = 0; s->cmds[i]; i++)
		n += snprintf(cmd + n, sizeof cmd - (size_t)n, " -ex 'echo (infsdb) %s\\n' -ex '%s'",
			      s->cmds[i], s->cmds[i]);
	snprintf(cmd + n, sizeof cmd - (size_t)n, " %s", s->stream);
	char *out = NULL;
	*status = proc_shell(cmd, &out);
	cr_assert_not_null(out, "%s", cmd);
	return out;
}

static void expect_in(const char *out, const char *const *lines)
{
	for (int i = 0; lines[i]; i++)
		cr_expect(strstr(out, lines[i]), "missing \"%s\" in:\n%s", lines[i], out);
}

static void block_missing(const char *block, void *arg)
{
	(void)arg;
	cr_expect(0, "this block of %s is not in any run:\n%s", TUTORIAL, block);
}

Test(tutorial_jit, every_block_is_real_and_every_break_is_caught)
{
	char dir[256], cp[1024];
	cr_assert_not_null(proc_tmpdir(dir, sizeof dir, "infsim-tutorial-jit"));
	snprintf(cp, sizeof cp, "cp '%s' '%s' '%s/'", SAMPLE, JSON_SAMPLE, dir);
	char *junk = NULL;
	cr_assert_eq(proc_shell(cp, &junk), 0, "%s", junk ? junk : cp);
	free(junk);
	char *outs[NSESSIONS + 1];
	outs[0] = type_steps(dir);
	const char *const shell[] = {
		"--check: the reference model agrees, and every tDFG node (18) computes what the "
		"tDFG means; 3 region runs, 2 lowered, 1 reused\n",
		"B[1] = 27 (0x0000001b)\n",
		"--check: the reference model agrees; --tdfg: 18 check points of blur.tdfg hold "
		"what the tDFG means\n",
		/* --check alone agrees with the wrong distance; --tdfg does not */
		"shift.ins: 48 commands, 1463 cycles; transpose unit 64 cycles; --check: the "
		"reference model agrees\n",
		"shift.ins:17: error: node 'l' (blur.tdfg:10), in run 1 of region 'blur'",
		"note: the first command that wrote a wrong bit into it is command 1 (shift.ins:16: "
		"mv.intra dist=2", "exit status 3\n",
		"operand.ins:21: error: node 's1' (blur.tdfg:11)",
		"is command 6 (operand.ins:20: add.i32 s1, B, l @ arrays=1:1:3",
		"nosync.ins:13: error: node 'l' (blur.tdfg:10)",
		"note: its wrong bits are in flight: command 2 (nosync.ins:11: mv.inter",
		/* the clobber is named by the move that overwrote s1 */
		"clobber.ins:23: note: a clobbered operand: command 11 (clobber.ins:26: add.i32 s, ",
		"but command 7 (clobber.ins:23: mv.intra dist=-1",
		"twice.ins: 48 commands, 1398 cycles; transpose unit 64 cycles; --tdfg: 21 check "
		"points of blur.tdfg hold what the tDFG means\n",
		"run4.ins:14: error: node marker 'x' run=4: no run of blur.tdfg has a node 'x'",
		"late.ins: error: array 'B' (blur.tdfg:7), at the end of the stream",
		"is command 49 (late.ins:84: set.i32 B, #5",
		"narrow.ins: note: found on the generated input set random:1 (--inputs); the given "
		"data pass\n",
		"--tdfg: 18 check points of blurN.tdfg hold what the tDFG means\n",
		"blur256.ins:14: error: node 'x' (blurN.tdfg:6) is i32 64, but tensor 'A' is i32 256",
		"--tdfg: 10 check points of stencil1d.json hold what the tDFG means\n", NULL };
	expect_in(outs[0], shell);
	for (int i = 0; i < NSESSIONS; i++) {
		int st;
		outs[i + 1] = run_session(dir, &sessions[i], &st);
		cr_expect_eq(st, 3, "infsdb on %s must find the difference:\n%s",
			     sessions[i].stream, outs[i + 1]);
	}
	const int shells = handout_check_blocks(TUTORIAL, "$ ", outs, NSESSIONS + 1,
						block_missing, NULL);
	const int dbgs = handout_check_blocks(TUTORIAL, "(infsdb) ", outs, NSESSIONS + 1,
					      block_missing, NULL);
	cr_expect_geq(shells, 14, "only %d shell blocks in %s", shells, TUTORIAL);
	cr_expect_geq(dbgs, 4, "only %d infsdb blocks in %s", dbgs, TUTORIAL);
	for (int i = 0; i < NSESSIONS + 1; i++)
		free(outs[i]);
	cr_expect_eq(proc_rmdir(dir), 0);
}

/* The tutorial shows the sample whole, as the file has it. */
Test(tutorial_jit, the_sample_is_the_one_shown)
{
	char *tdfg = proc_slurp(SAMPLE, NULL), *doc = proc_slurp(TUTORIAL, NULL);
	cr_assert(tdfg && doc);
	cr_expect(strstr(doc, tdfg), "%s is not shown whole in %s", SAMPLE, TUTORIAL);
	free(tdfg);
	free(doc);
}
