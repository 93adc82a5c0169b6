/* SPDX-License-Identifier: MIT */
/*
 * test_teach.c: the teaching samples (samples/teach/) and the lab handout
 * doc/tutorial-bitserial.md, run as a student runs them.
 *
 * Each session starts infsdb in the sample's folder, so that it reads the
 * sample's ./.infsdbinit (HOME points nowhere, so no ~/.infsdbinit), then
 * runs the tutorial's commands in batch mode, each preceded by an echo of
 * "(infsdb) CMD" as the handout shows them.  The test checks key lines of
 * the output (the results and what each step shows), and that every
 * captured block of the handout (a fenced block with an "(infsdb) " line)
 * appears verbatim in one of the sessions: the handout cannot drift from
 * the program.  Then each stream must pass `infsim run --check`.
 * The floating-point sample (samples/teach/fpadd) runs with
 * latency=optimised: its sessions also pin the trace the controller
 * chose, micro-op by micro-op where the handout names them.
 */
#include <criterion/criterion.h>

#include "handout.h"
#include "proc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define TEACH_DIR SRCDIR "/samples/teach"
#define TUTORIAL SRCDIR "/doc/tutorial-bitserial.md"
#define MAX_CMDS 48

typedef struct session {
	const char *sample;  /* folder under samples/teach and stream base name */
	const char *cmds[MAX_CMDS];  /* NULL-terminated */
	const char *opts;    /* more infsdb options, or NULL */
} session;

typedef struct result {
	int status;
	char *out;  /* stdout and stderr, merged */
} result;

/* The sessions of the handout, in its order (sections 3, 4, 5, the
 * answers). */
static const session add4_steps = { .sample = "add4", .cmds = {
	"stepi", "dump array 0 0:11", "stepi 2", "dump array 0 0:11", "stepi",
	"print C", "print/t C[1]", "check", "info breakpoints", NULL } };
static const session add4_finish = { .sample = "add4", .cmds = { "step", "dump array 0 0:11", NULL } };
static const session mul8_steps = { .sample = "mul8", .cmds = {
	"delete 2", "break cycle 17", "continue", "dump array 0 8:31", "delete 3",
	"watch D[6]", "continue", "continue", "x/8t 0 16", "delete", "continue",
	"print D", "check", NULL } };
static const session fpadd_steps = { .sample = "fpadd", .cmds = {
	"print A", "print B", "undisplay 1 2 3 4", "stepi", "disassemble 15,27", "stepi 26",
	"print/t $col(0, 8, 54, 5)", "dump array 0 54:58", "stepi 5", "disassemble 32,44",
	"stepi 67", "print/t $col(0, 8, 59, 7)", "print/t $col(0, 8, 82, 11)",
	"print/t $col(0, 8, 93, 11)", "print/t $col(0, 0, 82, 11)", "print/t $col(0, 0, 93, 11)",
	"disassemble 99,105", "disassemble 118,126", "display/t $col(0, 0, 67, 15)",
	"display/t $col(0, 8, 67, 15)", "stepi 5", "dump array 0 54:58", "stepi 15", "stepi 21",
	"undisplay 5", "stepi 32", "disassemble 172,178", "stepi 38", "print/t $col(0, 0, 82, 4)",
	"print/t $col(0, 8, 82, 4)", "stepi 10", "print/t $col(0, 0, 59, 7)",
	"print/t $col(0, 8, 59, 7)", "disassemble 223,227", "stepi 7", "print $C(0, 0)",
	"print $C(0, 8)", "step", "print S", "check", "info stats", NULL } };
static const session fpadd_baseline = { .sample = "fpadd", .cmds = {
	"stepi", "disassemble 120,126", "continue", NULL }, .opts = "-m latency=baseline" };
static const session fpadd_answers = { .sample = "fpadd", .cmds = {
	"set var B[3] = 48", "set var A[9] = 130.5", "stepi", "disassemble 99,107",
	"disassemble 143,148", "continue", "print S[3]", "print S[9]", "check", NULL } };

static const session shift2_steps = { .sample = "shift2", .cmds = {
	"dump tile A 0", "step", "dump tile B 0", "step", "continue", "dump tile B 1", "step",
	"dump tile/x B 1", "check", NULL } };

/* Run the shell command CMD, stdout and stderr merged. */
static result run_shell(const char *cmd)
{
	result r;
	r.status = proc_shell(cmd, &r.out);
	cr_assert(r.status >= 0, "%s: did not exit normally", cmd);
	return r;
}

/* infsdb -batch in the sample's folder, reading its ./.infsdbinit (named:
 * infsdb reads a folder's init file unasked only where it is trusted). */
static result run_session(const session *s)
{
	char cmd[12288];
	int n = snprintf(cmd, sizeof cmd, "cd '%s/%s' && HOME=/nonexistent '%s' -batch "
			 "-ix .infsdbinit %s",
			 TEACH_DIR, s->sample, INFSDB_BIN, s->opts ? s->opts : "");
	for (int i = 0; s->cmds[i]; i++)
		n += snprintf(cmd + n, sizeof cmd - (size_t)n,
			      " -ex 'echo (infsdb) %s\\n' -ex '%s'", s->cmds[i], s->cmds[i]);
	snprintf(cmd + n, sizeof cmd - (size_t)n, " %s.ins", s->sample);
	return run_shell(cmd);
}

static void expect_lines(const result *r, const char *const *lines)
{
	for (int i = 0; lines[i]; i++)
		cr_expect(strstr(r->out, lines[i]), "missing \"%s\" in:\n%s", lines[i], r->out);
}

Test(teach, add4_init_stops_before_the_add)
{
	static const session init_only = { .sample = "add4", .cmds = { NULL } };
	result r = run_session(&init_only);
	cr_expect_eq(r.status, 0, "%s", r.out);
	const char *lines[] = {
		"Breakpoint 1 at opcode add\n",
		"Breakpoint 1, command 0 at add4.ins:25: add.u4 C, A, B @ arrays=0 bitlines=0:1:16\n"
		"1: /t C[1] = 0000\n2: $C(0, 1) = 0\n",
		"Stopped before the add.", NULL };
	expect_lines(&r, lines);
	free(r.out);
}

Test(teach, add4_carry_ripples)
{
	result r = run_session(&add4_steps);
	cr_expect_eq(r.status, 0, "%s", r.out);
	const char *lines[] = {
		/* after micro-op 0: a & b in the carry latch, a ^ b in C's bit 0 */
		"  => micro-op 1 (of 0..3): ADD act wl 1,5 -> wl 9, gate E\n"
		"1: /t C[1] = 0000\n2: $C(0, 1) = 1\n",
		"wl 0      0101010101010101  act\n",
		"wl 8      1010101010101010  write\n",
		"C         0101010101010101\n",
		/* after micro-op 2: the carry into bit 3 */
		"  => micro-op 3 (of 0..3): ADD act wl 3,7 -> wl 11, gate E\n",
		"wl 10     1000011110000111  write\n",
		"C         0111111101111111\n",
		"Program finished: 1 command, 4 cycles.\n1: /t C[1] = 1000\n2: $C(0, 1) = 0\n",
		"C = {7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6}\n",
		"check: 3 buffers match the reference after 1 command.\n", NULL };
	expect_lines(&r, lines);
	free(r.out);
}

Test(teach, add4_exercise_answers)
{
	result r = run_session(&add4_finish);
	cr_expect_eq(r.status, 0, "%s", r.out);
	const char *fin[] = { "wl 11     0111111110000000  write\n",
		"C         0000000001111111\n", "BL        0000000000000000\n",
		"BLB       1111111100000000\n", NULL };
	expect_lines(&r, fin);
	free(r.out);
	/* exercises 2 and 3: run again from the end, step, step back */
	static const session ex2 = { .sample = "add4", .cmds = {
		"step", "run", "stepi 2", "dump array 0 8:9", "reverse-stepi", NULL } };
	r = run_session(&ex2);
	cr_expect_eq(r.status, 0, "%s", r.out);
	const char *carry[] = { "C         0111011101110111\n",
		"(infsdb) reverse-stepi\ncommand 0 at add4.ins:25: add.u4 C, A, B @ arrays=0 "
		"bitlines=0:1:16\n  => micro-op 1 (of 0..3): ADD act wl 1,5 -> wl 9, gate E\n",
		NULL };
	expect_lines(&r, carry);
	free(r.out);
}

Test(teach, mul8_partial_products)
{
	result r = run_session(&mul8_steps);
	cr_expect_eq(r.status, 0, "%s", r.out);
	const char *lines[] = {
		"Breakpoint 1, command 0 at mul8.ins:28: mul.u8 D, A, B @ arrays=0 bitlines=0:1:16\n",
		"Watchpoint 2: D[6]\n",
		/* after round 1's LOADT: T is bit 1 of B, D holds 13 & b[0] */
		"  => micro-op 17 (of 0..85): ADD act wl 17,0 -> wl 17, gate E&T\n",
		"wl 9      0011001100110011  act\n", "wl 19     0101010101010101\n",
		"T         0011001100110011\n",
		/* round 1 adds 13 << 1 into bitline 6, one bit per micro-op */
		"Old value = 0\nNew value = 2\nat cycle 18\n",
		"Old value = 2\nNew value = 10\nat cycle 20\n",
		"1: /t $col(0, 6, 16) = 0000000000001010\n",
		"array 0 wl 19: 0110011001100110\n",
		"Program finished: 1 command, 86 cycles.\n"
		"1: /t $col(0, 6, 16) = 0000000001001110\n",
		"D = {0, 13, 26, 39, 52, 65, 78, 91, 104, 117, 130, 143, 156, 169, 182, 195}\n",
		"check: 3 buffers match the reference after 1 command.\n", NULL };
	expect_lines(&r, lines);
	free(r.out);
	static const session ex6 = { .sample = "mul8", .cmds = {
		"delete 2", "break cycle 26", "continue", "print D[11]", NULL } };
	r = run_session(&ex6);
	cr_expect_eq(r.status, 0, "%s", r.out);
	const char *d11[] = { "(infsdb) print D[11]\n$1 = 39\n", NULL };
	expect_lines(&r, d11);
	free(r.out);
}

Test(teach, fpadd_init_shows_the_operands)
{
	static const session init_only = { .sample = "fpadd", .cmds = { NULL } };
	result r = run_session(&init_only);
	cr_expect_eq(r.status, 0, "%s", r.out);
	const char *lines[] = {
		"Breakpoint 1, command 4 at fpadd.ins:32: add.f16 S, A, B @ arrays=0 bitlines=0:1:16\n"
		"1: A[8] = 129.5\n2: /t A[8] = 0101100000001100\n3: B[8] = 1024\n"
		"4: /t B[8] = 0110010000000000\n5: x/5t 0 54\n",
		"Stopped before the add.", NULL };
	expect_lines(&r, lines);
	free(r.out);
}

/* Algorithm 1 on the two groups of bitlines: ediff, the swap, the
 * searches, the aligned adds for k = 0 and 3, normalisation, rounding. */
Test(teach, fpadd_two_exponent_differences)
{
	result r = run_session(&fpadd_steps);
	cr_expect_eq(r.status, 0, "%s", r.out);
	const char *lines[] = {
		"  => micro-op 1 (of 0..257, bank 0's trace): COPY act wl 10,11,12,13,14 -> wl 86, gate E\n",
		/* ediff = -3 on bitlines 8-15, the swap flag in T */
		"$1 = 11101\n", "T         0000000011111111\n",
		/* the swap: 1024 is the bigger on bitline 8 */
		"$2 = 0011001\n", "$4 = 10000001100\n",
		"$5 = 00111111111\n",
		/* only k = 0 and k = 3 get an add */
		"   103   LOADTN act wl 54,55,56,57,58, gate E\n   104   INC act wl 50 -> wl 67, gate E&T, C:=0\n",
		"   124   TANDZ act wl 56,57,58, gate E\n   125   ADD act wl 50,93 -> wl 67, gate E&T, C:=0\n",
		"T         1111111100000000\n",
		"6: /t $col(0, 0, 67, 15) = 111011111111111\n7: /t $col(0, 8, 67, 15) = 010010000001100\n",
		/* normalised, em1 = EB - L, rounding up on bitline 8 only */
		"6: /t $col(0, 0, 67, 15) = 100000000000000\n7: /t $col(0, 8, 67, 15) = 100100000011000\n",
		"(infsdb) print/t $col(0, 0, 82, 4)\n$7 = 0011\n", "(infsdb) print/t $col(0, 0, 59, 7)\n$9 = 0001100\n",
		"(infsdb) print/t $col(0, 8, 59, 7)\n$10 = 0011000\n", "(infsdb) print $C(0, 0)\n$11 = 0\n", "(infsdb) print $C(0, 8)\n$12 = 1\n",
		"S = {0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 1154, 1154, 1154, 1154, 1154, 1154, 1154, 1154}\n",
		"check: 3 buffers match the reference after 5 commands.\n",
		"  add.f                   1          258          514 ", NULL };
	expect_lines(&r, lines);
	free(r.out);
}

Test(teach, fpadd_exercise_answers)
{
	result r = run_session(&fpadd_baseline);
	cr_expect_eq(r.status, 0, "%s", r.out);
	const char *base[] = { "Micro-ops of command 4 (0..513):\n",
		"   123   LOADTN act wl 54,55,56,57,58, gate E\n",
		"Program finished: 5 commands, 578 cycles.\n", NULL };
	expect_lines(&r, base);
	free(r.out);
	r = run_session(&fpadd_answers);
	cr_expect_eq(r.status, 3, "check must find the set var: %s", r.out);
	const char *ans[] = { "   101   LOADT act wl 56, gate E\n   102   OR act wl 93,94 -> wl 104, gate E\n",
		"   146   TANDZ act wl 55,57,58, gate E\n   147   ADD act wl 50,105 -> wl 67, gate E&T, C:=0\n",
		"(infsdb) print S[3]\n$1 = 49.5\n", "(infsdb) print S[9]\n$2 = 1154\n",
		"check: after 5 commands: A[9] (f16): expected 129.5 (0x580c), got 130.5 (0x5814); bits that differ: 3-4\n",
		NULL };
	expect_lines(&r, ans);
	free(r.out);
}

/* The -x form: the init file named on the command line, from the top. */
Test(teach, init_file_with_x)
{
	result r = run_shell("cd '" SRCDIR "' && HOME=/nonexistent '" INFSDB_BIN "' -batch -nx"
			     " -x samples/teach/mul8/.infsdbinit -ex continue"
			     " samples/teach/mul8/mul8.ins");
	cr_expect_eq(r.status, 0, "%s", r.out);
	const char *lines[] = { "Breakpoint 1, command 0 at samples/teach/mul8/mul8.ins:28:",
		"Old value = 0\nNew value = 2\nat cycle 18\n", NULL };
	expect_lines(&r, lines);
	free(r.out);
}

/* Every fenced block of the handout with an "(infsdb) " line must appear,
 * verbatim, in the output of one of the sessions. */
static void block_missing(const char *block, void *arg)
{
	cr_expect(0, "this block of %s is not in any session:\n%s", (const char *)arg, block);
}

Test(teach, tutorial_blocks_are_real)
{
	const session *all[] = { &add4_steps, &add4_finish, &mul8_steps, &fpadd_steps,
				 &fpadd_baseline, &fpadd_answers, &shift2_steps };
	enum { NSESSIONS = sizeof all / sizeof *all };
	char *outs[NSESSIONS];
	for (int i = 0; i < NSESSIONS; i++)
		outs[i] = run_session(all[i]).out;
	const int blocks = handout_check_blocks(TUTORIAL, "(infsdb) ", outs, NSESSIONS,
						block_missing, (void *)TUTORIAL);
	cr_expect_geq(blocks, 20, "only %d captured blocks in %s", blocks, TUTORIAL);
	for (int i = 0; i < NSESSIONS; i++)
		free(outs[i]);
}

static void stream_checks(const char *name)
{
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "'%s' run '%s/%s/%s.ins' --check", INFSIM_BIN, TEACH_DIR,
		 name, name);
	result r = run_shell(cmd);
	cr_expect_eq(r.status, 0, "%s: %s", name, r.out);
	cr_expect(strstr(r.out, "the reference model agrees"), "%s", r.out);
	free(r.out);
}

Test(teach, streams_pass_check)
{
	stream_checks("add4");
	stream_checks("mul8");
	stream_checks("fpadd");
	stream_checks("shift2");
}

/* The two-tile shift: the part inside each array moves at once, the part
 * that crosses to the other bank only at the sync; a checkpoint holds
 * the state in between, the data in flight with it. */
Test(teach, shift2_crosses_at_the_sync)
{
	result r = run_session(&shift2_steps);
	cr_expect_eq(r.status, 0, "%s", r.out);
	const char *lines[] = {
		"Breakpoint 1 at sync\n",
		"command 1 at shift2.ins:27: mv.inter dist=1 wl=0 n=8 to=8 dst=0:4:2 @ arrays=0 "
		"bitlines=3:4:2\n  (a transfer over the H-tree or the NoC, not micro-ops: one stepi "
		"runs it whole)\n1: B[0][2] = 1\n2: B[0][4] = 0\n",
		"  (8 wordline transfers between banks in flight, delivered by the sync, command 3)\n",
		"       0            0            4            5            6\n",
		"Program finished: 4 commands, 39 cycles.\n1: B[0][2] = 1\n2: B[0][4] = 3\n",
		"       1          0xb          0xc          0xd          0xe\n",
		"check: 2 buffers match the reference after 4 commands.\n", NULL };
	expect_lines(&r, lines);
	free(r.out);
	/* The checkpoint goes into the test's own folder. */
	char dir[256], save[320], load[320], saved[512], loaded[640];
	cr_assert_not_null(proc_tmpdir(dir, sizeof dir, "infsim-teach"));
	snprintf(save, sizeof save, "checkpoint save %s/shift2.ckpt", dir);
	snprintf(load, sizeof load, "checkpoint load %s/shift2.ckpt", dir);
	snprintf(saved, sizeof saved, "Checkpoint of command 3, micro-op 0 saved to %s/shift2.ckpt.\n",
		 dir);
	snprintf(loaded, sizeof loaded, "Checkpoint %s/shift2.ckpt loaded.\ncommand 3 at "
		 "shift2.ins:27: sync\n  (8 wordline transfers between banks in flight, delivered "
		 "by the sync, command 3)\n", dir);
	const session ckpt = { .sample = "shift2", .cmds = {
		"continue", save, "print B[1][4]", load, "continue", "print B[1][4]", NULL } };
	r = run_session(&ckpt);
	cr_expect_eq(r.status, 0, "%s", r.out);
	const char *in_flight[] = { saved, "(infsdb) print B[1][4]\n$1 = 0\n", loaded,
		"2: B[0][4] = 3\n(infsdb) print B[1][4]\n$2 = 11\n", NULL };
	expect_lines(&r, in_flight);
	free(r.out);
	proc_rmdir(dir);
}
