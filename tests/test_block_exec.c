/* SPDX-License-Identifier: MIT */
/*
 * test_block_exec.c: the column-blocked executor (sram/sram_block.c)
 * against the micro-op-at-a-time one (sram/sram_exec.c).
 *
 * Every command of opcodes.def (so every family of isa/families.def)
 * builds its micro-program; the program runs on two copies of a machine
 * filled with random bits (cells, carry, tag, and enables with some
 * bitlines off, or all on), once with INFSIM_BLOCK=0 and once with
 * INFSIM_BLOCK=1, and the two machines must hold the same cells,
 * latches, enables and sensed BL/BLB, and the same record of the last
 * read and write.  The data-dependent (optimised latency) build runs
 * through a controller that asks the wired-OR after each piece, so its
 * decisions, and so the micro-op counts, must agree as well.  Machines
 * whose rows are a whole number of blocks, and ones with words left
 * over (and narrow arrays, whose high bits must stay 0), each with every
 * vector width (INFSIM_VECTOR).
 */
#include <criterion/criterion.h>

#include <stdlib.h>
#include <string.h>

#include "isa.h"
#include "isa_harness.h"
#include "sram.h"

static uint64_t rng(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Random cells and latches on every way; enables all on, or about 7 in
 * 8 bitlines on.  The bits of a narrow array above B stay 0. */
static void fill_random(sram_machine *m, uint64_t seed, bool all_on)
{
	uint64_t s = seed | 1;
	for (unsigned a = 0; a < m->narrays; a++) {
		for (unsigned wl = 0; wl < m->g.wordlines; wl++) {
			uint64_t *row = sram_row(m, a, wl);
			for (unsigned k = 0; k < m->wpa; k++)
				row[k] = rng(&s) & (k + 1 == m->wpa ? m->tail : ~UINT64_C(0));
		}
		const enum sram_latch ls[] = {SRAM_CARRY, SRAM_TAG, SRAM_ENABLE};
		for (unsigned l = 0; l < 3; l++) {
			uint64_t *w = sram_latch_words(m, a, ls[l]);
			for (unsigned k = 0; k < m->wpa; k++) {
				uint64_t v = rng(&s);
				if (ls[l] == SRAM_ENABLE)
					v = all_on ? ~UINT64_C(0) : v | rng(&s) | rng(&s);
				w[k] = v & (k + 1 == m->wpa ? m->tail : ~UINT64_C(0));
			}
		}
	}
}

/* A command of op on a machine of W wordlines: operands as the ISA
 * tests place them (isa_harness.h), in a format its class takes. */
static bool cmd_of(unsigned op, unsigned W, unsigned B, isa_cmd *c)
{
	harness h = {.W = W, .B = B};
	const int cls = isa_class_of(op);
	unsigned fmt = ISA_FMT_INT, width = 32;
	if (cls == ISA_CLASS_F || cls == ISA_CLASS_X)
		fmt = ISA_FMT_F32;
	if (cls == ISA_CLASS_Q)
		fmt = ISA_FMT_FIX, width = 16;
	*c = harness_cmd_fmt(&h, op, fmt, width, true);
	c->imm = 0x5a5a5a5au;
	if (cls == ISA_CLASS_X) {
		c->sfmt = ISA_FMT_INT;
		c->swidth = 32;
		c->ssigned = 1;
	}
	isa_rules r;
	if (isa_check(c, W, B, &r)) {
		c->width = 16;  /* commands narrower than 32 bits */
		if (isa_check(c, W, B, &r))
			return false;
	}
	if (c->imm >> c->width)
		c->imm &= (UINT64_C(1) << c->width) - 1;
	if (c->imm > r.max_imm)
		c->imm = r.max_imm;
	return true;
}

/* The controller of a data-dependent build: run what was emitted on the
 * whole machine, then answer with the wired-OR of T (tests/isa_harness.c
 * does the same). */
struct ctl_ctx {
	sram_machine *m;
	sram_count cost;
};
static bool ctl_any(isa_ctl *ctl, isa_prog *p)
{
	struct ctl_ctx *x = ctl->ctx;
	if (p->n > ctl->done)
		cr_assert_eq(sram_run(x->m, NULL, p->u + ctl->done, p->n - ctl->done), 0);
	for (size_t i = ctl->done; i < p->n; i++)
		sram_uop_cost(&p->u[i], &x->cost);
	ctl->done = p->n;
	return sram_any_tag_ways(x->m, 0, x->m->nways, NULL);
}

/* Run c on m with INFSIM_BLOCK=block: the static program, or the
 * data-dependent one through a controller; the micro-op counts. */
static sram_count run_cmd(sram_machine *m, const isa_cmd *c, unsigned B,
			  const char *block, bool ctl_mode)
{
	cr_assert_eq(setenv("INFSIM_BLOCK", block, 1), 0);
	isa_prog p;
	isa_prog_init(&p);
	struct ctl_ctx x = {.m = m};
	if (ctl_mode) {
		isa_ctl ctl = {.any = ctl_any, .ctx = &x};
		cr_assert_eq(isa_build_ctl(c, B, &p, &ctl), 0);
		ctl_any(&ctl, &p);
	} else {
		cr_assert_eq(isa_build(c, B, &p), 0);
		for (size_t i = 0; i < p.n; i++) {
			const char *why = sram_uop_check(m, &p.u[i]);
			cr_assert_null(why, "%s: uop %zu: %s", isa_info_of(c->op)->name,
				       i, why);
			sram_uop_cost(&p.u[i], &x.cost);
		}
		cr_assert_eq(sram_run(m, NULL, p.u, p.n), 0);
	}
	isa_prog_free(&p);
	unsetenv("INFSIM_BLOCK");
	return x.cost;
}

static void expect_same(const sram_machine *a, const sram_machine *b,
			const char *what)
{
	cr_assert(sram_state_equal(a, b), "%s: the blocked run left other bits", what);
	for (unsigned w = 0; w < a->nways; w++) {
		const sram_way *x = &a->ways[w], *y = &b->ways[w];
		cr_assert_eq(x->last_nact, y->last_nact, "%s: way %u last read", what, w);
		cr_assert_eq(x->last_set, y->last_set, "%s: way %u last set", what, w);
		cr_assert_eq(x->last_dst, y->last_dst, "%s: way %u last write", what, w);
		for (unsigned i = 0; i < x->last_nact && i < SRAM_MAX_ACT; i++)
			cr_assert_eq(x->last_act[i], y->last_act[i], "%s: way %u", what, w);
	}
}

/* Every command, static and data-dependent, on one shape. */
static void every_command(unsigned W, unsigned B, unsigned apw, unsigned ways)
{
	const sram_geom g = harness_geom(W, B, apw, ways, 1, 1);
	sram_machine *m0 = sram_new(&g), *m1 = sram_new(&g);
	cr_assert(m0 && m1);
	unsigned ran = 0;
	for (unsigned op = 0; isa_info_of(op); op++) {
		isa_cmd c;
		if (!cmd_of(op, W, B, &c))
			continue;
		for (unsigned v = 0; v < 4; v++) {
			const bool ctl_mode = v & 1, all_on = v & 2;
			char what[96];
			snprintf(what, sizeof what, "%s (%s, %s), %ux%u x %u x %u",
				 isa_info_of(op)->name, ctl_mode ? "optimised" : "baseline",
				 all_on ? "all enabled" : "some disabled", W, B, apw, ways);
			fill_random(m0, 0x9e3779b97f4a7c15u * (op + 1) + v, all_on);
			sram_copy_state(m1, m0);
			const sram_count k0 = run_cmd(m0, &c, B, "0", ctl_mode);
			const sram_count k1 = run_cmd(m1, &c, B, "1", ctl_mode);
			cr_assert(memcmp(&k0, &k1, sizeof k0) == 0,
				  "%s: %llu micro-ops unblocked, %llu blocked", what,
				  (unsigned long long)k0.cycles, (unsigned long long)k1.cycles);
			expect_same(m0, m1, what);
		}
		ran++;
	}
	cr_assert_geq(ran, 40, "only %u commands fit the machine", ran);
	sram_free(m0);
	sram_free(m1);
}

/* Every shape with the vector width vec (NULL: the widest). */
static void every_shape(const char *vec)
{
	if (vec)
		cr_assert_eq(setenv("INFSIM_VECTOR", vec, 1), 0);
	every_command(256, 1024, 2, 2);  /* 32 words a row: whole blocks */
	every_command(256, 256, 3, 1);   /* 12 words: all left over */
	every_command(256, 512, 5, 1);   /* 40 words: blocks and words over */
	every_command(256, 32, 3, 2);    /* narrow arrays, 3 words */
}

Test(block_exec, widest_vectors, .timeout = 600) { every_shape(NULL); }
Test(block_exec, avx2, .timeout = 600) { every_shape("avx2"); }
Test(block_exec, generic, .timeout = 600) { every_shape("generic"); }
Test(block_exec, scalar, .timeout = 600) { every_shape("none"); }

/* INFSIM_BLOCK=1 on a one-uop run (a single step). */
Test(block_exec, env_switch)
{
	cr_assert_eq(setenv("INFSIM_BLOCK", "1", 1), 0);
	sram_geom g = harness_geom(8, 64, 1, 1, 1, 1);
	sram_machine *m = sram_new(&g);
	cr_assert_not_null(m);
	sram_enable_all(m, 0);
	sram_uop one = {.wfn = SRAM_FN_ONE, .dst = 3};
	cr_assert_eq(sram_run(m, NULL, &one, 1), 0);
	cr_assert(sram_get_bit(m, 0, 3, 63));
	cr_assert_eq(m->ways[0].last_dst, 3);
	sram_free(m);
	unsetenv("INFSIM_BLOCK");
}
