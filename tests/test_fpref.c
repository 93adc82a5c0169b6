/* SPDX-License-Identifier: MIT */
/*
 * test_fpref.c: the floating-point reference (isa/fpref.c) against the
 * host FPU (tests/fp_host.c), every command, format and mode, on operand
 * pairs over every class (tests/fp_cases.c); every conversion from f16
 * and bf16 exhaustively; int -> float for every width 1..64.
 * doc/FLOAT.md, "How the tests prove it", gives the counts.
 */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xmmintrin.h>

#include "fp_cases.h"
#include "fp_host.h"
#include "isa.h"
#include "isa_harness.h"

#define PAIRS (UINT64_C(1) << 20)   /* per command, over formats and modes */
#define CHUNK 4096

static const unsigned fmts[] = {ISA_FMT_F32, ISA_FMT_F16, ISA_FMT_BF16};
static const unsigned modes[] = {0, ISA_FL_IEEE};

static const char *mode_name(unsigned flags)
{
	return (flags & ISA_FL_IEEE) ? "ieee" : "hardware";
}

static isa_cmd fp_cmd(unsigned op, unsigned fmt, unsigned flags)
{
	isa_cmd c = {.op = (uint16_t)op, .fmt = (uint8_t)fmt, .is_signed = 1,
		     .width = (uint8_t)isa_fpfmt_of(fmt)->width,
		     .flags = (uint8_t)flags, .c3 = ISA_NONE};
	return c;
}

/* abs and neg keep a NaN's bits; every other NaN result is canonical. */
static bool result_same(unsigned op, unsigned fmt, uint64_t ref, uint64_t host)
{
	if (op == ISA_FABS || op == ISA_FNEG)
		return ref == host;
	return fp_host_same(fmt, ref, host);
}

/* isa_ref_elem3 (the reference's front door) on count triples. */
static void ref_batch(const isa_cmd *c, const uint64_t *a, const uint64_t *b,
		      const uint64_t *c3, uint64_t *out, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		bool t = false;
		out[i] = isa_ref_elem3(c, a[i], b[i], c3[i], false, &t, NULL);
	}
}

/* op on `total` pairs of every format and mode, fpref against the host. */
static void check_op(unsigned op, uint64_t total)
{
	static uint64_t a[CHUNK], b[CHUNK], c3[CHUNK], ref[CHUNK], host[CHUNK];
	const uint64_t per = total / 6 + 1;
	for (unsigned fi = 0; fi < 3; fi++)
		for (unsigned mi = 0; mi < 2; mi++) {
			const unsigned fmt = fmts[fi], fl = modes[mi];
			const isa_cmd c = fp_cmd(op, fmt, fl);
			for (uint64_t done = 0, seed = 1; done < per; done += CHUNK, seed++) {
				fp_cases(fmt, seed * 131 + op, a, b, CHUNK);
				fp_cases(fmt, seed * 137 + op + 7, c3, ref, CHUNK);
				ref_batch(&c, a, b, c3, ref, CHUNK);
				fp_host_ops(op, fmt, fl, a, b, c3, host, CHUNK);
				for (size_t i = 0; i < CHUNK; i++)
					cr_assert(result_same(op, fmt, ref[i], host[i]),
						  "%s.%s %s: a=%#" PRIx64 " b=%#" PRIx64 " c=%#" PRIx64
						  ": fpref %#" PRIx64 ", host %#" PRIx64 " (%.9g op %.9g)",
						  isa_info_of(op)->name, isa_fpfmt_of(fmt)->name,
						  mode_name(fl), a[i], b[i], c3[i], ref[i], host[i],
						  isa_fp_to_double(fmt, a[i]), isa_fp_to_double(fmt, b[i]));
			}
		}
}

TestSuite(fpref, .description = "isa/fpref.c against the host FPU");

Test(fpref, paths)
{
	cr_log_info("f16 host oracle: %s", fp_host_f16_path());
}

Test(fpref, add) { check_op(ISA_FADD, PAIRS); }
Test(fpref, sub) { check_op(ISA_FSUB, PAIRS); }
Test(fpref, mul) { check_op(ISA_FMUL, PAIRS); }
Test(fpref, div) { check_op(ISA_FDIV, PAIRS); }
Test(fpref, madd) { check_op(ISA_FMADD, PAIRS); }
Test(fpref, fma) { check_op(ISA_FMA, PAIRS); }
Test(fpref, eq) { check_op(ISA_FEQ, PAIRS); }
Test(fpref, ne) { check_op(ISA_FNE, PAIRS); }
Test(fpref, lt) { check_op(ISA_FLT, PAIRS); }
Test(fpref, le) { check_op(ISA_FLE, PAIRS); }
Test(fpref, gt) { check_op(ISA_FGT, PAIRS); }
Test(fpref, ge) { check_op(ISA_FGE, PAIRS); }
Test(fpref, min) { check_op(ISA_FMIN, PAIRS); }
Test(fpref, max) { check_op(ISA_FMAX, PAIRS); }
Test(fpref, abs) { check_op(ISA_FABS, PAIRS); }
Test(fpref, neg) { check_op(ISA_FNEG, PAIRS); }

/* ---- the oracles themselves ---- */

/* The two f16 oracles (AVX512-FP16 and the double path that bf16 relies
 * on) agree, in both modes: evidence for the double-rounding argument. */
Test(fpref, f16_oracles_agree)
{
	static uint64_t a[CHUNK], b[CHUNK], c3[CHUNK], hw[CHUNK], dbl[CHUNK];
	const unsigned ops[] = {ISA_FADD, ISA_FSUB, ISA_FMUL, ISA_FDIV, ISA_FMADD};
	if (strcmp(fp_host_f16_path(), "AVX512-FP16") != 0) {
		cr_log_info("no AVX512-FP16 on this host: nothing to compare");
		return;
	}
	for (unsigned k = 0; k < 5; k++)
		for (unsigned mi = 0; mi < 2; mi++)
			for (uint64_t seed = 1; seed <= 16; seed++) {
				fp_cases(ISA_FMT_F16, seed + 1000 * k, a, b, CHUNK);
				fp_cases(ISA_FMT_F16, seed + 77, c3, hw, CHUNK);
				fp_host_force_double(false);
				fp_host_ops(ops[k], ISA_FMT_F16, modes[mi], a, b, c3, hw, CHUNK);
				fp_host_force_double(true);
				fp_host_ops(ops[k], ISA_FMT_F16, modes[mi], a, b, c3, dbl, CHUNK);
				for (size_t i = 0; i < CHUNK; i++)
					cr_assert(hw[i] == dbl[i] || fp_host_same(ISA_FMT_F16, isa_fp_nan(ISA_FMT_F16), hw[i]),
						  "%s.f16 %s a=%#" PRIx64 " b=%#" PRIx64 ": AVX512-FP16 %#" PRIx64
						  ", double path %#" PRIx64, isa_info_of(ops[k])->name,
						  mode_name(modes[mi]), a[i], b[i], hw[i], dbl[i]);
			}
	fp_host_force_double(false);
}

/* Directed cases with known answers: the host really flushes (MXCSR is
 * in effect), and x86 decides tininess after rounding. */
Test(fpref, x86_rules)
{
	static const struct { unsigned op, fmt, flags; uint64_t a, b, want; } t[] = {
		/* DAZ: a subnormal input is zero */
		{ISA_FADD, ISA_FMT_F32, 0, 0x00000001, 0x00000000, 0x00000000},
		{ISA_FADD, ISA_FMT_F32, ISA_FL_IEEE, 0x00000001, 0x00000000, 0x00000001},
		{ISA_FMUL, ISA_FMT_F32, 0, 0x80000001, 0x3f800000, 0x80000000},
		/* FTZ: min normal / 2 is a subnormal result */
		{ISA_FMUL, ISA_FMT_F32, 0, 0x00800000, 0x3f000000, 0x00000000},
		{ISA_FMUL, ISA_FMT_F32, ISA_FL_IEEE, 0x00800000, 0x3f000000, 0x00400000},
		/* (2 - 2^-22) 2^-126 * (1 + 2^-23) / 2 = 2^-126 (1 - 2^-46): tiny
		 * before rounding, not after: kept as the smallest normal */
		{ISA_FMUL, ISA_FMT_F32, 0, 0x00fffffe, 0x3f000001, 0x00800000},
		/* (1 - 2^-24) 2^-126: tiny after rounding (flushed), while the
		 * IEEE subnormal grid rounds the tie up to the smallest normal */
		{ISA_FMUL, ISA_FMT_F32, 0, 0x3f7fffff, 0x00800000, 0x00000000},
		{ISA_FMUL, ISA_FMT_F32, ISA_FL_IEEE, 0x3f7fffff, 0x00800000, 0x00800000},
		/* the same two in f16: (1 - 2^-11) 2^-14 */
		{ISA_FMUL, ISA_FMT_F16, 0, 0x3bff, 0x0400, 0x0000},
		{ISA_FMUL, ISA_FMT_F16, ISA_FL_IEEE, 0x3bff, 0x0400, 0x0400},
		{ISA_FMUL, ISA_FMT_F16, 0, 0x07fe, 0x3801, 0x0400},
		/* signs of zeros */
		{ISA_FADD, ISA_FMT_F32, 0, 0x80000000, 0x80000000, 0x80000000},
		{ISA_FSUB, ISA_FMT_F32, 0, 0x3f800000, 0x3f800000, 0x00000000},
		{ISA_FADD, ISA_FMT_BF16, 0, 0x8001, 0x8000, 0x8000},
		/* invalid: canonical NaN */
		{ISA_FSUB, ISA_FMT_F16, 0, 0x7c00, 0x7c00, 0x7e00},
		{ISA_FMUL, ISA_FMT_BF16, 0, 0xff80, 0x0000, 0x7fc0},
		{ISA_FDIV, ISA_FMT_F32, 0, 0x00000000, 0x80000000, 0x7fc00000},
		{ISA_FADD, ISA_FMT_F32, 0, 0xffc12345, 0x3f800000, 0x7fc00000},
		/* x / 0 and overflow */
		{ISA_FDIV, ISA_FMT_F32, 0, 0xbf800000, 0x00000000, 0xff800000},
		{ISA_FDIV, ISA_FMT_F32, 0, 0x3f800000, 0x00000001, 0x7f800000},
		{ISA_FMUL, ISA_FMT_F16, 0, 0x7bff, 0x4000, 0x7c00},
		/* a tie in f32 add: 1 + 2^-24 rounds to even (1), 1 + 3 2^-24 up */
		{ISA_FADD, ISA_FMT_F32, 0, 0x3f800000, 0x33800000, 0x3f800000},
		{ISA_FADD, ISA_FMT_F32, 0, 0x3f800000, 0x34400000, 0x3f800002},
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		const isa_cmd c = fp_cmd(t[i].op, t[i].fmt, t[i].flags);
		uint64_t ref = isa_ref_fp(&c, t[i].a, t[i].b, 0, NULL);
		uint64_t host = fp_host_op(t[i].op, t[i].fmt, t[i].flags, t[i].a, t[i].b, 0);
		cr_assert_eq(ref, t[i].want, "case %zu: fpref %#" PRIx64 ", want %#" PRIx64,
			     i, ref, t[i].want);
		cr_assert(fp_host_same(t[i].fmt, t[i].want, host),
			  "case %zu: host %#" PRIx64 ", want %#" PRIx64, i, host, t[i].want);
	}
}

/* min/max and compare on zeros, subnormals and NaN, by hand. */
Test(fpref, compare_rules)
{
	const unsigned f = ISA_FMT_F32, ie = ISA_FL_IEEE;
	cr_assert_eq(isa_fp_cmp(f, 0, 0x80000000, 0x00000000), 0);
	cr_assert_eq(isa_fp_cmp(f, 0, 0x00000001, 0x00000000), 0);
	cr_assert_eq(isa_fp_cmp(f, ie, 0x00000001, 0x00000000), 1);
	cr_assert_eq(isa_fp_cmp(f, ie, 0x7f800001, 0x00000000), 2);
	cr_assert_eq(isa_fp_cmp(f, ie, 0xff800000, 0xff7fffff), -1);
	cr_assert_eq(isa_fp_min(f, ie, 0x00000000, 0x80000000), 0x80000000);
	cr_assert_eq(isa_fp_max(f, ie, 0x80000000, 0x00000000), 0x00000000);
	cr_assert_eq(isa_fp_min(f, 0, 0x80000001, 0x00000000), 0x80000000);
	cr_assert_eq(isa_fp_max(f, 0, 0x00000005, 0x80000000), 0x00000000);
	cr_assert_eq(isa_fp_max(f, ie, 0x00000005, 0x80000000), 0x00000005);
	cr_assert_eq(isa_fp_min(f, ie, 0x7f800001, 0x3f800000), 0x7fc00000);
	cr_assert_eq(isa_fp_max(ISA_FMT_BF16, ie, 0x3f80, 0xffc1), 0x7fc0);
	cr_assert_eq(isa_fp_nan(ISA_FMT_F16), 0x7e00);
}

/* ---- conversions ---- */

static isa_cmd cvt_cmd(unsigned sfmt, unsigned swidth, bool ssigned, unsigned fmt,
		       unsigned width, bool sgn, unsigned flags)
{
	isa_cmd c = {.op = ISA_CVT, .fmt = (uint8_t)fmt, .width = (uint8_t)width,
		     .is_signed = sgn, .sfmt = (uint8_t)sfmt, .swidth = (uint8_t)swidth,
		     .ssigned = ssigned, .flags = (uint8_t)flags, .c3 = ISA_NONE};
	return c;
}

static const char *type_name(unsigned fmt, unsigned width, bool sgn, char *buf)
{
	return isa_type_name(fmt, width, sgn, buf, 16);
}

/* isa_ref_elem3 (so reference.c's cvt path) against the host on v[]. */
static void check_cvt(const isa_cmd *c, const uint64_t *v, size_t count)
{
	const bool to_float = isa_fpfmt_of(c->fmt) != NULL;
	char sn[16], dn[16];
	for (size_t i = 0; i < count; i++) {
		const uint64_t ref = isa_ref_elem3(c, v[i], 0, 0, false, NULL, NULL);
		const uint64_t host = fp_host_cvt(c, v[i]);
		const bool ok = to_float ? fp_host_same(c->fmt, ref, host) : ref == host;
		if (!ok)
			cr_assert_fail("cvt.%s.%s %s: a=%#" PRIx64 ": fpref %#" PRIx64 ", host %#" PRIx64,
				       type_name(c->fmt, c->width, c->is_signed, dn),
				       type_name(c->sfmt, c->swidth, c->ssigned, sn),
				       mode_name(c->flags), v[i], ref, host);
	}
}

/* Every destination the exhaustive tests convert f16 and bf16 to. */
static const struct { unsigned fmt, width; bool sgn; } dsts[] = {
	{ISA_FMT_F32, 32, 1}, {ISA_FMT_F16, 16, 1}, {ISA_FMT_BF16, 16, 1},
	{ISA_FMT_INT, 32, 1}, {ISA_FMT_INT, 32, 0}, {ISA_FMT_INT, 16, 1},
	{ISA_FMT_INT, 8, 0}, {ISA_FMT_INT, 64, 1}, {ISA_FMT_INT, 64, 0},
	{ISA_FMT_INT, 1, 1}, {ISA_FMT_FIX, 32, 1}, {ISA_FMT_FIX, 16, 1},
};

static void check_exhaustive_from(unsigned sfmt)
{
	static uint64_t all[65536];
	for (uint64_t i = 0; i < 65536; i++)
		all[i] = i;
	for (size_t d = 0; d < sizeof dsts / sizeof dsts[0]; d++)
		for (unsigned mi = 0; mi < 2; mi++) {
			const isa_cmd c = cvt_cmd(sfmt, 16, 1, dsts[d].fmt, dsts[d].width,
						  dsts[d].sgn, modes[mi]);
			check_cvt(&c, all, 65536);
		}
}

Test(fpref, cvt_all_f16) { check_exhaustive_from(ISA_FMT_F16); }
Test(fpref, cvt_all_bf16) { check_exhaustive_from(ISA_FMT_BF16); }

/* f16 and bf16 -> f32 -> back gives every value back (IEEE mode), and
 * the zero of its sign for a subnormal (hardware mode); NaN -> canonical. */
Test(fpref, cvt_round_trip)
{
	const unsigned srcs[] = {ISA_FMT_F16, ISA_FMT_BF16};
	for (unsigned s = 0; s < 2; s++)
		for (unsigned mi = 0; mi < 2; mi++) {
			const isa_cmd up = cvt_cmd(srcs[s], 16, 1, ISA_FMT_F32, 32, 1, modes[mi]);
			const isa_cmd down = cvt_cmd(ISA_FMT_F32, 32, 1, srcs[s], 16, 1, modes[mi]);
			for (uint64_t x = 0; x < 65536; x++) {
				uint64_t want = x;
				const uint64_t e = srcs[s] == ISA_FMT_F16 ? (x >> 10) & 31 : (x >> 7) & 255;
				const uint64_t emax = srcs[s] == ISA_FMT_F16 ? 31 : 255;
				const uint64_t m = x & (srcs[s] == ISA_FMT_F16 ? 0x3ff : 0x7f);
				if (e == emax && m)
					want = isa_fp_nan(srcs[s]);
				else if (e == 0 && !modes[mi])
					want = x & 0x8000;
				const uint64_t got = isa_fp_cvt(&down, isa_fp_cvt(&up, x));
				cr_assert_eq(got, want, "%s %#" PRIx64 " -> f32 -> %#" PRIx64 " (%s)",
					     isa_fpfmt_of(srcs[s])->name, x, got, mode_name(modes[mi]));
			}
		}
}

/* f32 to every other type on 2^17 values over every class. */
Test(fpref, cvt_from_f32)
{
	static uint64_t v[1u << 16], w[1u << 16];
	fp_cases(ISA_FMT_F32, 99, v, w, 1u << 16);
	for (size_t d = 0; d < sizeof dsts / sizeof dsts[0]; d++)
		for (unsigned mi = 0; mi < 2; mi++) {
			const isa_cmd c = cvt_cmd(ISA_FMT_F32, 32, 1, dsts[d].fmt, dsts[d].width,
						  dsts[d].sgn, modes[mi]);
			check_cvt(&c, v, 1u << 16);
			check_cvt(&c, w, 1u << 16);
		}
}

Test(fpref, cvt_int_to_float)
{
	static uint64_t v[4096];
	const unsigned to[] = {ISA_FMT_F32, ISA_FMT_F16, ISA_FMT_BF16};
	for (unsigned n = 1; n <= 64; n++)
		for (unsigned sg = 0; sg < 2; sg++) {
			fp_cases_int(n, 3 + sg, v, 4096);
			for (unsigned t = 0; t < 3; t++)
				for (unsigned mi = 0; mi < 2; mi++) {
					const isa_cmd c = cvt_cmd(ISA_FMT_INT, n, sg, to[t],
								  isa_fpfmt_of(to[t])->width, 1, modes[mi]);
					check_cvt(&c, v, 4096);
				}
		}
}

/* .qN <-> float, .qN <-> int, and int <-> int between every width. */
Test(fpref, cvt_fixed_and_int)
{
	static uint64_t v[1024];
	const unsigned to[] = {ISA_FMT_F32, ISA_FMT_F16, ISA_FMT_BF16};
	for (unsigned n = 4; n <= 64; n += 4) {
		fp_cases_int(n, 11, v, 1024);
		for (unsigned t = 0; t < 3; t++)
			for (unsigned mi = 0; mi < 2; mi++) {
				isa_cmd c = cvt_cmd(ISA_FMT_FIX, n, 1, to[t],
						    isa_fpfmt_of(to[t])->width, 1, modes[mi]);
				check_cvt(&c, v, 1024);
			}
	}
	for (unsigned n = 1; n <= 64; n++)
		for (unsigned m = 1; m <= 64; m += (m < 8 ? 1 : 7))
			for (unsigned k = 0; k < 4; k++) {
				/* k: int -> int signed/unsigned, q -> int, int -> q */
				fp_cases_int(n, 5 + k, v, 256);
				isa_cmd c = cvt_cmd(ISA_FMT_INT, n, k & 1, ISA_FMT_INT, m, k >> 1, 0);
				check_cvt(&c, v, 256);
				if (n > ISA_FIX_INT) {
					c = cvt_cmd(ISA_FMT_FIX, n, 1, ISA_FMT_INT, m, k & 1, 0);
					check_cvt(&c, v, 256);
				}
				if (m > ISA_FIX_INT) {
					c = cvt_cmd(ISA_FMT_INT, n, k & 1, ISA_FMT_FIX, m, 1, 0);
					check_cvt(&c, v, 256);
					if (n > ISA_FIX_INT) {
						c = cvt_cmd(ISA_FMT_FIX, n, 1, ISA_FMT_FIX, m, 1, 0);
						check_cvt(&c, v, 256);
					}
				}
			}
}

/* Conversion rules by hand (RISC-V fcvt: saturate, NaN to the largest). */
Test(fpref, cvt_rules)
{
	isa_cmd c = cvt_cmd(ISA_FMT_F32, 32, 1, ISA_FMT_INT, 32, 1, 0);
	cr_assert_eq(isa_fp_cvt(&c, 0x7fc00000), 0x7fffffff);      /* NaN */
	cr_assert_eq(isa_fp_cvt(&c, 0xff800000), 0x80000000);      /* -inf */
	cr_assert_eq(isa_fp_cvt(&c, 0xbfbfffff), 0xffffffff);      /* -1.5 -> -1 */
	cr_assert_eq(isa_fp_cvt(&c, 0x4f000000), 0x7fffffff);      /* 2^31 */
	c = cvt_cmd(ISA_FMT_F32, 32, 1, ISA_FMT_INT, 8, 0, 0);
	cr_assert_eq(isa_fp_cvt(&c, 0x7fc00000), 0xff);            /* NaN */
	cr_assert_eq(isa_fp_cvt(&c, 0xbf000000), 0);               /* -0.5 */
	cr_assert_eq(isa_fp_cvt(&c, 0x80000000), 0);               /* -0 */
	cr_assert_eq(isa_fp_cvt(&c, 0xc0000000), 0);               /* -2 */
	cr_assert_eq(isa_fp_cvt(&c, 0x437f8000), 0xff);            /* 255.5 */
	c = cvt_cmd(ISA_FMT_INT, 64, 0, ISA_FMT_F32, 32, 1, 0);
	cr_assert_eq(isa_fp_cvt(&c, UINT64_MAX), 0x5f800000);      /* 2^64 */
	c = cvt_cmd(ISA_FMT_INT, 32, 1, ISA_FMT_F16, 16, 1, 0);
	cr_assert_eq(isa_fp_cvt(&c, 65520), 0x7c00);               /* overflow */
	cr_assert_eq(isa_fp_cvt(&c, 2049), 0x6800);                /* tie to even */
	c = cvt_cmd(ISA_FMT_FIX, 32, 1, ISA_FMT_F16, 16, 1, 0);
	cr_assert_eq(isa_fp_cvt(&c, 1u << 8), 0);                  /* 2^-21: FTZ */
	c.flags = ISA_FL_IEEE;
	cr_assert_eq(isa_fp_cvt(&c, 1u << 8), 0x0008);             /* subnormal */
	c = cvt_cmd(ISA_FMT_FIX, 16, 1, ISA_FMT_INT, 8, 1, 0);
	cr_assert_eq(isa_fp_cvt(&c, 0xa000), 0xfd);                /* -3 exactly */
	cr_assert_eq(isa_fp_cvt(&c, 0xf000), 0);                   /* -0.5 -> 0 */
	c = cvt_cmd(ISA_FMT_INT, 8, 1, ISA_FMT_INT, 16, 0, 0);
	cr_assert_eq(isa_fp_cvt(&c, 0x80), 0xff80);                /* sign extension */
	c = cvt_cmd(ISA_FMT_INT, 16, 0, ISA_FMT_INT, 4, 1, 0);
	cr_assert_eq(isa_fp_cvt(&c, 0x1234), 0x4);                 /* truncation */
}

/* ---- rsqrt ---- */

/* The largest relative error of rsqrt against 1/sqrt, and the x where
 * it happens. */
typedef struct rsqrt_err { double rel, x; } rsqrt_err;

static void rsqrt_note(rsqrt_err *e, double rel, double x)
{
	if (rel > e->rel) {
		e->rel = rel;
		e->x = x;
	}
}

/* rsqrt on v[] against the host; the errors over the positive normals
 * (all) and over [lo, hi] (inner). */
static void rsqrt_check(unsigned fmt, unsigned flags, const uint64_t *v, size_t count,
			rsqrt_err *all, rsqrt_err *inner, double lo, double hi)
{
	const isa_cmd c = fp_cmd(ISA_RSQRT, fmt, flags);
	const double minn = ldexp(1.0, 1 - (int)isa_fpfmt_of(fmt)->bias);
	for (size_t i = 0; i < count; i++) {
		const uint64_t ref = isa_ref_elem3(&c, v[i], 0, 0, false, NULL, NULL);
		const uint64_t host = fp_host_rsqrt(fmt, flags, v[i]);
		cr_assert(fp_host_same(fmt, ref, host),
			  "rsqrt.%s %s a=%#" PRIx64 ": fpref %#" PRIx64 ", host %#" PRIx64,
			  isa_fpfmt_of(fmt)->name, mode_name(flags), v[i], ref, host);
		const double x = fp_host_value(fmt, flags, v[i]);
		if (!(x >= minn) || isinf(x))
			continue;
		const double rel = fabs(isa_fp_to_double(fmt, ref) * sqrt(x) - 1.0);
		rsqrt_note(all, rel, x);
		if (x >= lo && x <= hi)
			rsqrt_note(inner, rel, x);
	}
}

/* Where each Newton operand stays normal: x >= 2^(emin+1) keeps h = x/2
 * normal and x <= 2^(-emin-1) keeps u = y0^2 normal.  Outside it
 * hardware mode flushes h or u to zero and returns 1.5 y0. */
static void rsqrt_ranges(unsigned fmt, double *lo, double *hi)
{
	const int emin = 1 - (int)isa_fpfmt_of(fmt)->bias;
	*lo = ldexp(1.0, emin + 1);
	*hi = ldexp(1.0, -emin - 1);
}

/* Max relative errors of one format and mode: over every positive normal
 * (all) and over the inner range (inner). */
static void rsqrt_format(unsigned fmt, unsigned flags, rsqrt_err *all, rsqrt_err *inner)
{
	static uint64_t v[65536], w[65536];
	double lo, hi;
	rsqrt_ranges(fmt, &lo, &hi);
	if (fmt != ISA_FMT_F32) {
		for (uint64_t i = 0; i < 65536; i++)
			v[i] = i;
		rsqrt_check(fmt, flags, v, 65536, all, inner, lo, hi);
		return;
	}
	for (uint64_t k = 0; k < 8; k++) {
		fp_cases(ISA_FMT_F32, 500 + k, v, w, 65536);
		rsqrt_check(fmt, flags, v, 65536, all, inner, lo, hi);
		for (uint64_t i = 0; i < 65536; i++) /* [1, 4): 2^19 values */
			v[i] = 0x3f800000 + (k * 65536 + i) * 32;
		rsqrt_check(fmt, flags, v, 65536, all, inner, lo, hi);
	}
}

/* Exhaustive over f16 and bf16, 2^19 f32 values over every class plus a
 * dense sweep of [1, 4) (the estimate's error repeats with period 4).
 * The bounds are the measured maxima, rounded up (doc/FLOAT.md). */
Test(fpref, rsqrt)
{
	/* f32, f16, bf16: over the inner range (both modes), over every
	 * normal (IEEE mode) */
	static const double inner_bound[3] = {1.76e-3, 2.7e-3, 9.1e-3};
	static const double all_bound[3] = {1.76e-3, 2.7e-3, 9.1e-3};
	for (unsigned fi = 0; fi < 3; fi++)
		for (unsigned mi = 0; mi < 2; mi++) {
			rsqrt_err all = {0, 0}, inner = {0, 0};
			double lo, hi;
			rsqrt_format(fmts[fi], modes[mi], &all, &inner);
			rsqrt_ranges(fmts[fi], &lo, &hi);
			cr_log_info("rsqrt.%s %s: max rel error %.3g (x = %g) over the normals,"
				    " %.3g (x = %g) over [%g, %g]", isa_fpfmt_of(fmts[fi])->name,
				    mode_name(modes[mi]), all.rel, all.x, inner.rel, inner.x, lo, hi);
			cr_assert_lt(inner.rel, inner_bound[fi]);
			/* ((x y0) / 2) y0 keeps every step normal, so hardware
			 * mode is as accurate as IEEE mode over every normal. */
			cr_assert_lt(all.rel, all_bound[fi]);
		}
}

/* ---- to and from double ---- */

static uint64_t f32_bits_by_cast(unsigned flags, double d)
{
	/* cvtsd2ss under the mode's MXCSR: the real x86 rounding and FTZ */
	const unsigned old = _mm_getcsr();
	_mm_setcsr((old & ~0xe040u) | ((flags & ISA_FL_IEEE) ? 0 : 0x8040u));
	volatile double vd = d;
	volatile float f = (float)vd;
	_mm_setcsr(old);
	float g = f;
	uint32_t u;
	memcpy(&u, &g, sizeof u);
	return u;
}

/* Doubles near every format's range: random 53-bit significands with
 * exponents from below the smallest subnormal to above the largest. */
static double random_double(uint64_t *s)
{
	const uint64_t r = harness_rand(s);
	const double m = ldexp((double)(harness_rand(s) >> 11), -53) + 0.5;
	const int e = (int)(r % 320) - 160;
	return (r >> 32) & 1 ? -ldexp(m, e) : ldexp(m, e);
}

Test(fpref, to_from_double)
{
	for (unsigned fi = 0; fi < 3; fi++) {
		const unsigned fmt = fmts[fi];
		/* exhaustive for f16 and bf16, 2^20 patterns of f32 */
		const uint64_t n = fmt == ISA_FMT_F32 ? UINT64_C(1) << 20 : 65536;
		for (uint64_t i = 0; i < n; i++) {
			const uint64_t x = fmt == ISA_FMT_F32 ? i * 4093 + (i >> 9) : i;
			const double d = isa_fp_to_double(fmt, x);
			const double h = fp_host_value(fmt, ISA_FL_IEEE, x);
			cr_assert(isnan(d) ? isnan(h) : (d == h && signbit(d) == signbit(h)),
				  "%s %#" PRIx64 ": %g, host %g", isa_fpfmt_of(fmt)->name, x, d, h);
			const uint64_t back = isa_fp_from_double(fmt, ISA_FL_IEEE, d);
			cr_assert(isnan(d) ? back == isa_fp_nan(fmt) : back == (x & isa_mask(isa_fpfmt_of(fmt)->width)),
				  "%s %#" PRIx64 " -> %g -> %#" PRIx64, isa_fpfmt_of(fmt)->name, x, d, back);
		}
		uint64_t s = 42 + fmt;
		for (unsigned mi = 0; mi < 2; mi++)
			for (uint64_t i = 0; i < (UINT64_C(1) << 18); i++) {
				const double d = random_double(&s);
				const uint64_t ref = isa_fp_from_double(fmt, modes[mi], d);
				const uint64_t host = fmt == ISA_FMT_F32 ? f32_bits_by_cast(modes[mi], d)
									 : fp_host_round(fmt, modes[mi], d);
				cr_assert_eq(ref, host, "%s from %.17g (%s): %#" PRIx64 ", host %#" PRIx64,
					     isa_fpfmt_of(fmt)->name, d, mode_name(modes[mi]), ref, host);
			}
	}
}
