/* SPDX-License-Identifier: MIT */
/*
 * ref_fp.c: f32 arithmetic of the reference on the host's FPU; see
 * ref_fp.h for why it gives the commands' bits.
 *
 * The host kernels work on blocks of 64 floats in memory.  They are not
 * inlined, and empty asm statements that clobber memory stand on both
 * sides of them and of the MXCSR writes: the compiler can neither move
 * the arithmetic across the change of mode nor fold it, and since each
 * of mul and add is its own call, it cannot contract madd's mul and add
 * into one fused operation (madd rounds twice, doc/COMMANDS.md).
 */
#include "ref_fp.h"

#include <float.h>
#include <string.h>

#if defined(__x86_64__) && defined(__SSE2_MATH__) && FLT_EVAL_METHOD == 0
#define REF_FP_SSE 1
#include <xmmintrin.h>
#endif

enum { LANES = 64 };

#ifdef REF_FP_SSE
#define MXCSR_MASKS 0x1f80u /* every exception masked */
#define MXCSR_RC 0x6000u    /* rounding control: 00 is to nearest */
#define MXCSR_DAZ 0x0040u
#define MXCSR_FTZ 0x8000u

static inline void barrier(void)
{
	__asm__ __volatile__("" ::: "memory");
}

/* MXCSR for the command's mode, returning the one to restore. */
static unsigned csr_enter(unsigned flags)
{
	const unsigned old = _mm_getcsr();
	unsigned csr = (old & ~(MXCSR_RC | MXCSR_DAZ | MXCSR_FTZ)) | MXCSR_MASKS;
	if (!(flags & ISA_FL_IEEE))
		csr |= MXCSR_DAZ | MXCSR_FTZ;
	barrier();
	_mm_setcsr(csr);
	barrier();
	return old;
}

static void csr_leave(unsigned old)
{
	barrier();
	_mm_setcsr(old);
	barrier();
}

__attribute__((noinline)) static void host_add(const float *restrict x,
					       const float *restrict y, float *restrict o)
{
	for (unsigned i = 0; i < LANES; i++)
		o[i] = x[i] + y[i];
}

__attribute__((noinline)) static void host_sub(const float *restrict x,
					       const float *restrict y, float *restrict o)
{
	for (unsigned i = 0; i < LANES; i++)
		o[i] = x[i] - y[i];
}

__attribute__((noinline)) static void host_mul(const float *restrict x,
					       const float *restrict y, float *restrict o)
{
	for (unsigned i = 0; i < LANES; i++)
		o[i] = x[i] * y[i];
}

__attribute__((noinline)) static void host_div(const float *restrict x,
					       const float *restrict y, float *restrict o)
{
	for (unsigned i = 0; i < LANES; i++)
		o[i] = x[i] / y[i];
}

/* n (<= LANES) f32 patterns into floats, the rest of the block zero. */
static void to_floats(const uint64_t *v, size_t n, float *f)
{
	memset(f, 0, LANES * sizeof *f);
	for (size_t i = 0; v && i < n; i++) {
		const uint32_t u = (uint32_t)v[i];
		memcpy(&f[i], &u, sizeof u);
	}
}

/* Back to patterns; a NaN becomes the canonical quiet NaN, which is the
 * only NaN the commands make (x86 would keep an operand's payload, or
 * make the negative "default" NaN). */
static void from_floats(const float *f, size_t n, uint64_t *v)
{
	for (size_t i = 0; i < n; i++) {
		uint32_t u;
		memcpy(&u, &f[i], sizeof u);
		if ((u & UINT32_C(0x7fffffff)) > UINT32_C(0x7f800000))
			u = UINT32_C(0x7fc00000);
		v[i] = u;
	}
}

/* One block of n <= LANES elements. */
static void host_block(const isa_cmd *c, const uint64_t *a, const uint64_t *b,
		       const uint64_t *c3, uint64_t *d, size_t n)
{
	float x[LANES], y[LANES], z[LANES], o[LANES];
	to_floats(a, n, x);
	to_floats(b, n, y);
	if (c->op == ISA_FMADD)
		to_floats(c3, n, z);
	const unsigned old = csr_enter(c->flags);
	switch (c->op) {
	case ISA_FADD: host_add(x, y, o); break;
	case ISA_FSUB: host_sub(x, y, o); break;
	case ISA_FMUL: host_mul(x, y, o); break;
	case ISA_FDIV: host_div(x, y, o); break;
	default: /* FMADD: the product rounded, then the sum */
		host_mul(x, y, o);
		barrier();
		host_add(o, z, x);
		memcpy(o, x, sizeof o);
		break;
	}
	csr_leave(old);
	from_floats(o, n, d);
}
#endif

bool emu_ref_fp_host(const isa_cmd *c)
{
#ifdef REF_FP_SSE
	if (c->fmt != ISA_FMT_F32 || c->width != 32)
		return false;
	switch (c->op) {
	case ISA_FADD: case ISA_FSUB: case ISA_FMUL: case ISA_FDIV: case ISA_FMADD:
		return true;
	default:
		return false;
	}
#else
	(void)c;
	return false;
#endif
}

void emu_ref_fp_run(const isa_cmd *c, const uint64_t *a, const uint64_t *b,
		    const uint64_t *c3, uint64_t *d, size_t n)
{
#ifdef REF_FP_SSE
	if (emu_ref_fp_host(c)) {
		for (size_t i = 0; i < n; i += LANES) {
			const size_t k = n - i < LANES ? n - i : LANES;
			host_block(c, a + i, b ? b + i : NULL, c3 ? c3 + i : NULL, d + i, k);
		}
		return;
	}
#endif
	const uint64_t m = isa_mask(c->width);
	for (size_t i = 0; i < n; i++)
		d[i] = isa_ref_fp(c, a[i] & m, b ? b[i] & m : 0, c3 ? c3[i] & m : 0, NULL) & m;
}
