/* SPDX-License-Identifier: MIT */
/*
 * cordic_ref.c: the scalar reference of the CORDIC commands (sin, cos,
 * exp, log, sqrt on .qN), and the constants they share with the
 * micro-program (cordic.c).
 *
 * Every value is an n-bit two's complement pattern with f = n - 3
 * fraction bits (ISA_FIX_INT = 3 integer bits, the sign included), kept
 * sign-extended in an int64_t.  The reference does the very arithmetic of
 * the micro-program: additions wrap at n bits, x >> i is the arithmetic
 * shift (the micro-program reads bit min(j + i, n - 1)), and a negation is
 * the two's complement.  doc/commands/cordic.md derives each function;
 * in short (d is the direction of an iteration, +1 or -1):
 *
 *   sin, cos  circular rotation (Volder; duality-cache §3.1.3): start
 *             (x, y, z) = (1/An, 0, a) after the range reduction below;
 *             d = sign(z); x -= d (y >> i); y += d (x >> i);
 *             z -= d atan(2^-i); i = 0, 1, ..., k - 1.  sin = y, cos = x.
 *             Range reduction: a > pi/2 becomes pi - a, a < -pi/2
 *             becomes -pi - a, and cos of those starts at x = -1/An.
 *   exp       hyperbolic rotation on w = x + y, which obeys
 *             w += d (w >> i): start w = 1/Kh, z = a; d = sign(z);
 *             z -= d atanh(2^-i); i = 1, 2, 3, 4, 4, 5, ..., 13, 13, ...
 *             (4, 13, 40 repeat, which hyperbolic CORDIC needs to
 *             converge).  e^a = w.
 *   log       hyperbolic vectoring of x = a/2 + 1/2, y = a/2 - 1/2 (the
 *             halves keep x inside the format): d = -sign(y);
 *             x += d (y >> i); y += d (x >> i); z -= d 2 atanh(2^-i), so
 *             z ends at 2 atanh((a - 1)/(a + 1)) = ln a.  a < 0 gives
 *             -(the sum of the steps), what a = 0 saturates to.
 *   sqrt      the same vectoring, without z, of x = A + B, y = A - B,
 *             with A = a, B = 1/(4 Kh^2) where a < 2 and A = a/2,
 *             B = 1/(2 Kh^2) where a >= 2: x ends at Kh sqrt(x^2 - y^2)
 *             = Kh sqrt(4 A B) = sqrt(a).  The gain correction is folded
 *             into the offset B, so no multiplication is needed, and the
 *             two choices of A (a normalisation by 4) keep x inside the
 *             format while widening the range where it converges.  a <= 0
 *             gives 0.
 * a/2 is a >> 1 (its last bit dropped).
 */
#include "isa.h"

/* The tables below hold each constant rounded to 62 fraction bits
 * (computed with mpmath at 300 bits: doc/commands/cordic.md, "The
 * tables", has the script).  An = prod_{i<k} sqrt(1 + 2^-2i) and
 * Kh = prod sqrt(1 - 2^-2i) over the first k hyperbolic shifts are the
 * gains of k iterations. */
/* atan(2^-i), i = 0..59 */
static const uint64_t atan_2mi[60] = {
	UINT64_C(0x3243f6a8885a308d), UINT64_C(0x1dac670561bb4f69), UINT64_C(0x0fadbafc96406eb1),
	UINT64_C(0x07f56ea6ab0bdb72), UINT64_C(0x03feab76e59fbd39), UINT64_C(0x01ffd55bba97624b),
	UINT64_C(0x00fffaaadddb94d6), UINT64_C(0x007fff5556eeea5d), UINT64_C(0x003fffeaaab7776e),
	UINT64_C(0x001ffffd5555bbbc), UINT64_C(0x000fffffaaaaadde), UINT64_C(0x0007fffff555556f),
	UINT64_C(0x0003fffffeaaaaab), UINT64_C(0x0001ffffffd55555), UINT64_C(0x0000fffffffaaaab),
	UINT64_C(0x00007fffffff5555), UINT64_C(0x00003fffffffeaab), UINT64_C(0x00001ffffffffd55),
	UINT64_C(0x00000fffffffffab), UINT64_C(0x000007fffffffff5), UINT64_C(0x000003ffffffffff),
	UINT64_C(0x0000020000000000), UINT64_C(0x0000010000000000), UINT64_C(0x0000008000000000),
	UINT64_C(0x0000004000000000), UINT64_C(0x0000002000000000), UINT64_C(0x0000001000000000),
	UINT64_C(0x0000000800000000), UINT64_C(0x0000000400000000), UINT64_C(0x0000000200000000),
	UINT64_C(0x0000000100000000), UINT64_C(0x0000000080000000), UINT64_C(0x0000000040000000),
	UINT64_C(0x0000000020000000), UINT64_C(0x0000000010000000), UINT64_C(0x0000000008000000),
	UINT64_C(0x0000000004000000), UINT64_C(0x0000000002000000), UINT64_C(0x0000000001000000),
	UINT64_C(0x0000000000800000), UINT64_C(0x0000000000400000), UINT64_C(0x0000000000200000),
	UINT64_C(0x0000000000100000), UINT64_C(0x0000000000080000), UINT64_C(0x0000000000040000),
	UINT64_C(0x0000000000020000), UINT64_C(0x0000000000010000), UINT64_C(0x0000000000008000),
	UINT64_C(0x0000000000004000), UINT64_C(0x0000000000002000), UINT64_C(0x0000000000001000),
	UINT64_C(0x0000000000000800), UINT64_C(0x0000000000000400), UINT64_C(0x0000000000000200),
	UINT64_C(0x0000000000000100), UINT64_C(0x0000000000000080), UINT64_C(0x0000000000000040),
	UINT64_C(0x0000000000000020), UINT64_C(0x0000000000000010), UINT64_C(0x0000000000000008),
};
/* atanh(2^-i), i = 1..59 ([0] unused) */
static const uint64_t atanh_2mi[60] = {
	UINT64_C(0x0000000000000000), UINT64_C(0x2327d4f55a06152f), UINT64_C(0x1058aefa811451a7),
	UINT64_C(0x080ac48e4f577bb5), UINT64_C(0x04015622b4dd6b37), UINT64_C(0x02002ab11235dc49),
	UINT64_C(0x01000555888ad1ca), UINT64_C(0x008000aaac4448d7), UINT64_C(0x004000155562222b),
	UINT64_C(0x00200002aaab1111), UINT64_C(0x0010000055555889), UINT64_C(0x000800000aaaaac4),
	UINT64_C(0x0004000001555556), UINT64_C(0x00020000002aaaab), UINT64_C(0x0001000000055555),
	UINT64_C(0x000080000000aaab), UINT64_C(0x0000400000001555), UINT64_C(0x00002000000002ab),
	UINT64_C(0x0000100000000055), UINT64_C(0x000008000000000b), UINT64_C(0x0000040000000001),
	UINT64_C(0x0000020000000000), UINT64_C(0x0000010000000000), UINT64_C(0x0000008000000000),
	UINT64_C(0x0000004000000000), UINT64_C(0x0000002000000000), UINT64_C(0x0000001000000000),
	UINT64_C(0x0000000800000000), UINT64_C(0x0000000400000000), UINT64_C(0x0000000200000000),
	UINT64_C(0x0000000100000000), UINT64_C(0x0000000080000000), UINT64_C(0x0000000040000000),
	UINT64_C(0x0000000020000000), UINT64_C(0x0000000010000000), UINT64_C(0x0000000008000000),
	UINT64_C(0x0000000004000000), UINT64_C(0x0000000002000000), UINT64_C(0x0000000001000000),
	UINT64_C(0x0000000000800000), UINT64_C(0x0000000000400000), UINT64_C(0x0000000000200000),
	UINT64_C(0x0000000000100000), UINT64_C(0x0000000000080000), UINT64_C(0x0000000000040000),
	UINT64_C(0x0000000000020000), UINT64_C(0x0000000000010000), UINT64_C(0x0000000000008000),
	UINT64_C(0x0000000000004000), UINT64_C(0x0000000000002000), UINT64_C(0x0000000000001000),
	UINT64_C(0x0000000000000800), UINT64_C(0x0000000000000400), UINT64_C(0x0000000000000200),
	UINT64_C(0x0000000000000100), UINT64_C(0x0000000000000080), UINT64_C(0x0000000000000040),
	UINT64_C(0x0000000000000020), UINT64_C(0x0000000000000010), UINT64_C(0x0000000000000008),
};
/* k = 1..60: 1/An, An = prod_{i<k} sqrt(1 + 2^-2i) */
static const uint64_t circ_gain[60] = {
	UINT64_C(0x2d413cccfe779921), UINT64_C(0x287a26c490921db6), UINT64_C(0x2744c374daf46d30),
	UINT64_C(0x26f72283bd67fbdb), UINT64_C(0x26e3b58305ddeb19), UINT64_C(0x26ded9f57b2c3e7b),
	UINT64_C(0x26dda30d3e4fd186), UINT64_C(0x26dd5552e1641def), UINT64_C(0x26dd41e4454da117),
	UINT64_C(0x26dd3d089dfa47c8), UINT64_C(0x26dd3bd1b42095cf), UINT64_C(0x26dd3b83f9a9db96),
	UINT64_C(0x26dd3b708b0c282c), UINT64_C(0x26dd3b6baf64bb04), UINT64_C(0x26dd3b6a787adfb5),
	UINT64_C(0x26dd3b6a2ac068e1), UINT64_C(0x26dd3b6a1751cb2c), UINT64_C(0x26dd3b6a127623be),
	UINT64_C(0x26dd3b6a113f39e3), UINT64_C(0x26dd3b6a10f17f6c), UINT64_C(0x26dd3b6a10de10cf),
	UINT64_C(0x26dd3b6a10d93527), UINT64_C(0x26dd3b6a10d7fe3d), UINT64_C(0x26dd3b6a10d7b083),
	UINT64_C(0x26dd3b6a10d79d14), UINT64_C(0x26dd3b6a10d79839), UINT64_C(0x26dd3b6a10d79702),
	UINT64_C(0x26dd3b6a10d796b4), UINT64_C(0x26dd3b6a10d796a0), UINT64_C(0x26dd3b6a10d7969c),
	UINT64_C(0x26dd3b6a10d7969a), UINT64_C(0x26dd3b6a10d7969a), UINT64_C(0x26dd3b6a10d7969a),
	UINT64_C(0x26dd3b6a10d7969a), UINT64_C(0x26dd3b6a10d7969a), UINT64_C(0x26dd3b6a10d7969a),
	UINT64_C(0x26dd3b6a10d7969a), UINT64_C(0x26dd3b6a10d7969a), UINT64_C(0x26dd3b6a10d7969a),
	UINT64_C(0x26dd3b6a10d7969a), UINT64_C(0x26dd3b6a10d7969a), UINT64_C(0x26dd3b6a10d7969a),
	UINT64_C(0x26dd3b6a10d7969a), UINT64_C(0x26dd3b6a10d7969a), UINT64_C(0x26dd3b6a10d7969a),
	UINT64_C(0x26dd3b6a10d7969a), UINT64_C(0x26dd3b6a10d7969a), UINT64_C(0x26dd3b6a10d7969a),
	UINT64_C(0x26dd3b6a10d7969a), UINT64_C(0x26dd3b6a10d7969a), UINT64_C(0x26dd3b6a10d7969a),
	UINT64_C(0x26dd3b6a10d7969a), UINT64_C(0x26dd3b6a10d7969a), UINT64_C(0x26dd3b6a10d7969a),
	UINT64_C(0x26dd3b6a10d7969a), UINT64_C(0x26dd3b6a10d7969a), UINT64_C(0x26dd3b6a10d7969a),
	UINT64_C(0x26dd3b6a10d7969a), UINT64_C(0x26dd3b6a10d7969a), UINT64_C(0x26dd3b6a10d7969a),
};
/* k = 1..60: 1/Kh, Kh = prod sqrt(1 - 2^-2i) over the first k hyperbolic shifts */
static const uint64_t hyp_inv_gain[60] = {
	UINT64_C(0x49e69d1640cc7135), UINT64_C(0x4c530f64aa7a4339), UINT64_C(0x4ced8581784e96d8),
	UINT64_C(0x4d1419356a70f616), UINT64_C(0x4d3ac041ba089f77), UINT64_C(0x4d446969835ffe0c),
	UINT64_C(0x4d46d3a9c9d60bce), UINT64_C(0x4d476e3940d89f12), UINT64_C(0x4d4794dd14f020fb),
	UINT64_C(0x4d479e86095b7176), UINT64_C(0x4d47a0f0466c9c9e), UINT64_C(0x4d47a18ad5b04cd9),
	UINT64_C(0x4d47a1b179812f3f), UINT64_C(0x4d47a1bb2275673d), UINT64_C(0x4d47a1c4cb69a071),
	UINT64_C(0x4d47a1c735a6aeb5), UINT64_C(0x4d47a1c7d035f245), UINT64_C(0x4d47a1c7f6d9c329),
	UINT64_C(0x4d47a1c80082b762), UINT64_C(0x4d47a1c802ecf470), UINT64_C(0x4d47a1c8038783b4),
	UINT64_C(0x4d47a1c803ae2785), UINT64_C(0x4d47a1c803b7d079), UINT64_C(0x4d47a1c803ba3ab6),
	UINT64_C(0x4d47a1c803bad545), UINT64_C(0x4d47a1c803bafbe9), UINT64_C(0x4d47a1c803bb0592),
	UINT64_C(0x4d47a1c803bb07fc), UINT64_C(0x4d47a1c803bb0897), UINT64_C(0x4d47a1c803bb08bd),
	UINT64_C(0x4d47a1c803bb08c7), UINT64_C(0x4d47a1c803bb08ca), UINT64_C(0x4d47a1c803bb08ca),
	UINT64_C(0x4d47a1c803bb08ca), UINT64_C(0x4d47a1c803bb08ca), UINT64_C(0x4d47a1c803bb08ca),
	UINT64_C(0x4d47a1c803bb08ca), UINT64_C(0x4d47a1c803bb08ca), UINT64_C(0x4d47a1c803bb08ca),
	UINT64_C(0x4d47a1c803bb08ca), UINT64_C(0x4d47a1c803bb08ca), UINT64_C(0x4d47a1c803bb08ca),
	UINT64_C(0x4d47a1c803bb08ca), UINT64_C(0x4d47a1c803bb08ca), UINT64_C(0x4d47a1c803bb08ca),
	UINT64_C(0x4d47a1c803bb08ca), UINT64_C(0x4d47a1c803bb08ca), UINT64_C(0x4d47a1c803bb08ca),
	UINT64_C(0x4d47a1c803bb08ca), UINT64_C(0x4d47a1c803bb08ca), UINT64_C(0x4d47a1c803bb08ca),
	UINT64_C(0x4d47a1c803bb08ca), UINT64_C(0x4d47a1c803bb08ca), UINT64_C(0x4d47a1c803bb08ca),
	UINT64_C(0x4d47a1c803bb08ca), UINT64_C(0x4d47a1c803bb08ca), UINT64_C(0x4d47a1c803bb08ca),
	UINT64_C(0x4d47a1c803bb08ca), UINT64_C(0x4d47a1c803bb08ca), UINT64_C(0x4d47a1c803bb08ca),
};
/* k = 1..60: 1/(4 Kh^2) */
static const uint64_t sqrt_offset[60] = {
	UINT64_C(0x1555555555555555), UINT64_C(0x16c16c16c16c16c1), UINT64_C(0x171de3a556c73390),
	UINT64_C(0x173518be14dc0f9f), UINT64_C(0x174c6523381423c3), UINT64_C(0x175239b1a47d4314),
	UINT64_C(0x1753aeec9346777b), UINT64_C(0x17540c3cc4398861), UINT64_C(0x17542390e7ca702c),
	UINT64_C(0x17542965f223ecb5), UINT64_C(0x17542adb34d1a002), UINT64_C(0x17542b38857e8218),
	UINT64_C(0x17542b4fd9a9d1f2), UINT64_C(0x17542b55aeb4a75d), UINT64_C(0x17542b5b83bf7e3e),
	UINT64_C(0x17542b5cf902340e), UINT64_C(0x17542b5d5652e183), UINT64_C(0x17542b5d6da70ce1),
	UINT64_C(0x17542b5d737c17b8), UINT64_C(0x17542b5d74f15a6e), UINT64_C(0x17542b5d754eab1b),
	UINT64_C(0x17542b5d7565ff47), UINT64_C(0x17542b5d756bd451), UINT64_C(0x17542b5d756d4994),
	UINT64_C(0x17542b5d756da6e5), UINT64_C(0x17542b5d756dbe39), UINT64_C(0x17542b5d756dc40e),
	UINT64_C(0x17542b5d756dc583), UINT64_C(0x17542b5d756dc5e1), UINT64_C(0x17542b5d756dc5f8),
	UINT64_C(0x17542b5d756dc5fe), UINT64_C(0x17542b5d756dc5ff), UINT64_C(0x17542b5d756dc600),
	UINT64_C(0x17542b5d756dc600), UINT64_C(0x17542b5d756dc600), UINT64_C(0x17542b5d756dc600),
	UINT64_C(0x17542b5d756dc600), UINT64_C(0x17542b5d756dc600), UINT64_C(0x17542b5d756dc600),
	UINT64_C(0x17542b5d756dc600), UINT64_C(0x17542b5d756dc600), UINT64_C(0x17542b5d756dc600),
	UINT64_C(0x17542b5d756dc600), UINT64_C(0x17542b5d756dc600), UINT64_C(0x17542b5d756dc600),
	UINT64_C(0x17542b5d756dc600), UINT64_C(0x17542b5d756dc600), UINT64_C(0x17542b5d756dc600),
	UINT64_C(0x17542b5d756dc600), UINT64_C(0x17542b5d756dc600), UINT64_C(0x17542b5d756dc600),
	UINT64_C(0x17542b5d756dc600), UINT64_C(0x17542b5d756dc600), UINT64_C(0x17542b5d756dc600),
	UINT64_C(0x17542b5d756dc600), UINT64_C(0x17542b5d756dc600), UINT64_C(0x17542b5d756dc600),
	UINT64_C(0x17542b5d756dc600), UINT64_C(0x17542b5d756dc600), UINT64_C(0x17542b5d756dc600),
};
#define PI_62 UINT64_C(0xc90fdaa22168c235)
#define HALF_PI_62 UINT64_C(0x6487ed5110b4611a)

/* A 62-fraction-bit constant rounded to the f fraction bits of .qN. */
static uint64_t from62(uint64_t v, unsigned f)
{
	return (v + (UINT64_C(1) << (61 - f))) >> (62 - f);
}

/* Hyperbolic CORDIC converges only if some shifts repeat: 4, 13, 40
 * (each the next 3i + 1; Walther 1971). */
static bool hyperbolic_repeats(unsigned i)
{
	return i == 4 || i == 13 || i == 40;
}

int isa_cordic_consts_of(const isa_cmd *c, isa_cordic_consts *k)
{
	const unsigned f = c->width - ISA_FIX_INT;
	const unsigned n = c->iters ? c->iters : ISA_CORDIC_DEFAULT;
	if (n > ISA_CORDIC_MAX)
		return -1;
	k->iters = n;
	const bool circular = c->op == ISA_SIN || c->op == ISA_COS;
	for (unsigned j = 0, i = circular ? 0 : 1; j < n; i++) {
		k->shift[j++] = (uint8_t)i;
		if (!circular && hyperbolic_repeats(i) && j < n)
			k->shift[j++] = (uint8_t)i;
	}
	for (unsigned j = 0; j < n; j++) {
		const unsigned i = k->shift[j];
		uint64_t v = circular ? atan_2mi[i] : atanh_2mi[i];
		k->step[j] = from62(c->op == ISA_LOG ? 2 * v : v, f);
	}
	k->x0 = from62(circular ? circ_gain[n - 1] : hyp_inv_gain[n - 1], f);
	for (unsigned s = 0; s < 2; s++)
		k->offset[s] = c->op == ISA_LOG ? UINT64_C(1) << (f - 1)
			       : from62(sqrt_offset[n - 1] << s, f);
	k->half_pi = from62(HALF_PI_62, f);
	k->pi = from62(PI_62, f);
	return 0;
}

/* ---- the iterations, on sign-extended n-bit values ---- */

typedef struct fix {
	unsigned n;
} fix;

static int64_t wrap(fix q, int64_t v)
{
	return isa_sext((uint64_t)v, q.n);
}

static int64_t add(fix q, int64_t a, int64_t b)
{
	return wrap(q, (int64_t)((uint64_t)a + (uint64_t)b));
}

static int64_t neg(fix q, int64_t v)
{
	return wrap(q, (int64_t)(0 - (uint64_t)v));
}

/* v >> i, arithmetic, for any i (the sign once i >= n). */
static int64_t asr(int64_t v, unsigned i)
{
	if (i > 62)
		return v < 0 ? -1 : 0;
	return v < 0 ? ~(~v >> i) : v >> i;
}

/* d (x >> i) with d = -1 where negate: what CNEG writes. */
static int64_t signed_shift(fix q, int64_t x, unsigned i, bool negate)
{
	const int64_t s = asr(x, i);
	return negate ? neg(q, s) : s;
}


/* z - d step: the step added where sub is false, subtracted where it is
 * true. */
static int64_t step_z(fix q, int64_t z, uint64_t step, bool sub)
{
	const int64_t s = wrap(q, (int64_t)step);
	return add(q, z, sub ? -s : s);
}

/* The range reduction of sin and cos: a > pi/2 becomes pi - a, a < -pi/2
 * becomes -pi - a; *refl says whether a was reflected. */
static int64_t reduce_angle(fix q, const isa_cordic_consts *k, int64_t a,
			    bool *refl)
{
	const int64_t half_pi = (int64_t)k->half_pi, pi = (int64_t)k->pi;
	const bool hi = a > half_pi, lo = a < -half_pi;
	*refl = hi || lo;
	if (!*refl)
		return a;
	return neg(q, add(q, a, hi ? -pi : pi));
}

static uint64_t ref_sincos(const isa_cmd *c, const isa_cordic_consts *k,
			   fix q, int64_t a)
{
	bool refl;
	int64_t z = reduce_angle(q, k, a, &refl);
	int64_t x = (int64_t)k->x0, y = 0;
	if (c->op == ISA_COS && refl)
		x = neg(q, x);
	for (unsigned j = 0; j < k->iters; j++) {
		const unsigned i = k->shift[j];
		const bool down = z < 0; /* d = -1 */
		const int64_t dx = signed_shift(q, x, i, down);
		const int64_t dy = signed_shift(q, y, i, !down);
		x = add(q, x, dy);
		y = add(q, y, dx);
		z = step_z(q, z, k->step[j], !down);
	}
	return (uint64_t)(c->op == ISA_SIN ? y : x);
}

static uint64_t ref_exp(const isa_cordic_consts *k, fix q, int64_t a)
{
	int64_t w = (int64_t)k->x0, z = a;
	for (unsigned j = 0; j < k->iters; j++) {
		const bool down = z < 0;
		w = add(q, w, signed_shift(q, w, k->shift[j], down));
		z = step_z(q, z, k->step[j], !down);
	}
	return (uint64_t)w;
}

/* log and sqrt: hyperbolic vectoring of (A + B, A - B), d = -sign(y).
 * Returns z for log, x for sqrt. */
static uint64_t ref_vectoring(const isa_cmd *c, const isa_cordic_consts *k,
			      fix q, int64_t a)
{
	const bool is_log = c->op == ISA_LOG;
	int64_t z = 0;
	if (a < 0 || (!is_log && a == 0)) {
		for (unsigned j = 0; is_log && j < k->iters; j++)
			z = step_z(q, z, k->step[j], true);
		return (uint64_t)z;
	}
	const bool big = is_log || a >= 2 * ((int64_t)1 << (q.n - ISA_FIX_INT));
	const int64_t half = big ? asr(a, 1) : a, off = (int64_t)k->offset[big];
	int64_t x = add(q, half, off), y = add(q, half, -off);
	for (unsigned j = 0; j < k->iters; j++) {
		const unsigned i = k->shift[j];
		const bool up = y >= 0; /* d = -1 */
		const int64_t dx = signed_shift(q, x, i, up);
		const int64_t dy = signed_shift(q, y, i, up);
		x = add(q, x, dy);
		y = add(q, y, dx);
		z = step_z(q, z, k->step[j], !up);
	}
	return (uint64_t)(is_log ? z : x);
}

uint64_t isa_ref_cordic(const isa_cmd *c, uint64_t a)
{
	isa_cordic_consts k;
	isa_cmd cc = *c;
	if (cc.iters > ISA_CORDIC_MAX)
		cc.iters = ISA_CORDIC_MAX;
	if (c->width <= ISA_FIX_INT || isa_cordic_consts_of(&cc, &k))
		return 0;
	const fix q = {c->width};
	const int64_t v = isa_sext(a, c->width);
	uint64_t r;
	switch (c->op) {
	case ISA_SIN:
	case ISA_COS: r = ref_sincos(c, &k, q, v); break;
	case ISA_EXP: r = ref_exp(&k, q, v); break;
	case ISA_LOG:
	case ISA_SQRT: r = ref_vectoring(c, &k, q, v); break;
	default: r = 0; break;
	}
	return r & isa_mask(c->width);
}

/* ---- conversions, for tests and tools (exact powers of two; no libm) ---- */

static double two_to(unsigned f)
{
	double p = 1.0;
	while (f--)
		p *= 2.0;
	return p;
}

double isa_fix_to_double(unsigned width, uint64_t bits)
{
	return (double)isa_sext(bits, width) / two_to(width - ISA_FIX_INT);
}

uint64_t isa_fix_from_double(unsigned width, double v)
{
	const double s = v * two_to(width - ISA_FIX_INT);
	const double lim = two_to(width - 1);
	if (s != s)
		return 0;
	if (s >= lim - 0.5)
		return isa_mask(width - 1);
	if (s <= -lim)
		return (UINT64_C(1) << (width - 1)) & isa_mask(width);
	/* Round half away from zero: trunc of |s| + 0.5. */
	const double m = (s < 0 ? -s : s) + 0.5;
	const int64_t r = (int64_t)m;
	return (uint64_t)(s < 0 ? -r : r) & isa_mask(width);
}
