/* SPDX-License-Identifier: MIT */
/*
 * cuda.h (installed as <infsim/cuda.h>): what a CUDA kernel needs to be
 * compiled to PTX by clang alone, without NVIDIA's SDK or libdevice, for
 * infsim's PTX reader (emu/ptx/ptx.h, doc/CUDA.md):
 *
 *   clang -x cuda --cuda-device-only -nocudainc -nocudalib \
 *         --cuda-gpu-arch=sm_52 -O2 -S -include infsim/cuda.h k.cu -o k.ptx
 *
 * Every function here is an always-inline wrapper of one clang builtin
 * that the NVPTX back end lowers to one PTX instruction (checked with
 * clang 14; the instruction is given beside each).  Nothing calls out to
 * libdevice, so a kernel that compiles with this header gives PTX with
 * no .extern functions.  Where CUDA's own function is accurate and the
 * instruction here is not (exp2f, the __ intrinsics), the comment says
 * so: the .approx instructions are what infsim's reference defines them
 * to be (doc/PTX.md), not the libm result.
 *
 * Only device code is meant: __host__ is accepted so that shared code
 * compiles, but there is no runtime (no <<<>>> launch, no cudaMalloc);
 * infsim launches a kernel itself (ptx_ref_run, `infsim simt`).
 */
#ifndef INFSIM_CUDA_H
#define INFSIM_CUDA_H

#if !defined(__CUDA__) || !defined(__clang__)
#error "infsim/cuda.h is for clang -x cuda --cuda-device-only (doc/CUDA.md)"
#endif

/* ---- declaration specifiers ---- */
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __restrict__ __restrict

/* size_t as <stddef.h> has it, which -nocudainc does not bring in
 * (a kernel may still include <stddef.h>: the typedefs agree). */
typedef __SIZE_TYPE__ size_t;

/* Each wrapper: one instruction, inlined into the kernel. */
#define INFS_CUDA_FN static __device__ __forceinline__

/* ---- threadIdx, blockIdx, blockDim, gridDim ----
 * A reading of .x is a call of the special-register builtin, made
 * through an MS property so that `threadIdx.x` is an rvalue unsigned
 * like CUDA's (auto i = threadIdx.x is an unsigned, not a proxy).  The
 * objects are declared and never defined: no code takes their address
 * (the copy and & operators are deleted), so none is emitted.
 *   threadIdx.x  __nvvm_read_ptx_sreg_tid_x    mov.u32 %r, %tid.x
 *   blockIdx.x   __nvvm_read_ptx_sreg_ctaid_x  mov.u32 %r, %ctaid.x
 *   blockDim.x   __nvvm_read_ptx_sreg_ntid_x   mov.u32 %r, %ntid.x
 *   gridDim.x    __nvvm_read_ptx_sreg_nctaid_x mov.u32 %r, %nctaid.x
 * and the same for .y and .z. */
#define INFS_CUDA_SREG(field, builtin)                                            \
	__declspec(property(get = infs_get_##field)) unsigned int field;            \
	static __device__ __forceinline__ unsigned int infs_get_##field(void)        \
	{                                                                             \
		return builtin();                                                     \
	}
#define INFS_CUDA_SREG3(type, reg)                                                \
	struct type {                                                                 \
		INFS_CUDA_SREG(x, __nvvm_read_ptx_sreg_##reg##_x)                     \
		INFS_CUDA_SREG(y, __nvvm_read_ptx_sreg_##reg##_y)                     \
		INFS_CUDA_SREG(z, __nvvm_read_ptx_sreg_##reg##_z)                     \
	    private:                                                                  \
		__device__ type() = delete;                                           \
		__device__ type(const type &) = delete;                               \
		__device__ void operator=(const type &) const = delete;               \
		__device__ type *operator&() const = delete;                          \
	}
INFS_CUDA_SREG3(infs_cuda_tid, tid);
INFS_CUDA_SREG3(infs_cuda_ctaid, ctaid);
INFS_CUDA_SREG3(infs_cuda_ntid, ntid);
INFS_CUDA_SREG3(infs_cuda_nctaid, nctaid);
#undef INFS_CUDA_SREG3
#undef INFS_CUDA_SREG
extern const __device__ infs_cuda_tid threadIdx;
extern const __device__ infs_cuda_ctaid blockIdx;
extern const __device__ infs_cuda_ntid blockDim;
extern const __device__ infs_cuda_nctaid gridDim;
/* warpSize is 32 on every target infsim models (mov.u32 %r, WARP_SZ is
 * folded by clang anyway). */
#define warpSize 32

/* ---- a small dim3 for shared host/device code ---- */
struct dim3 {
	unsigned int x, y, z;
	__host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1,
					   unsigned int vz = 1)
	    : x(vx), y(vy), z(vz)
	{
	}
};

/* ---- barriers and fences ----
 *   __syncthreads()    clang's own builtin, so not defined here: bar.sync 0
 *   __threadfence()    __nvvm_membar_gl  membar.gl
 *   __threadfence_block() __nvvm_membar_cta membar.cta */
INFS_CUDA_FN void __threadfence(void) { __nvvm_membar_gl(); }
INFS_CUDA_FN void __threadfence_block(void) { __nvvm_membar_cta(); }

/* ---- atomics on global or shared memory (a generic address) ----
 * Each returns the old value (clang 14 writes atom.*, not red.*, even
 * when it is unused).
 *   atomicAdd(int/unsigned)  __nvvm_atom_add_gen_i   atom.add.u32
 *   atomicAdd(float)         __nvvm_atom_add_gen_f   atom.add.f32 (round to nearest)
 *   atomicSub                __nvvm_atom_add_gen_i of -v  atom.add.u32
 *   atomicExch               __nvvm_atom_xchg_gen_i  atom.exch.b32
 *   atomicMin(int)           __nvvm_atom_min_gen_i   atom.min.s32
 *   atomicMin(unsigned)      __nvvm_atom_min_gen_ui  atom.min.u32
 *   atomicMax(int/unsigned)  __nvvm_atom_max_gen_i/ui atom.max.s32/.u32
 *   atomicAnd/Or/Xor         __nvvm_atom_and/or/xor_gen_i  atom.and/or/xor.b32
 *   atomicCAS                __nvvm_atom_cas_gen_i   atom.cas.b32
 * (the address may carry a state space: atom.global.add.u32 or
 * atom.shared.add.u32 when clang can tell which it is.) */
INFS_CUDA_FN int atomicAdd(int *p, int v) { return __nvvm_atom_add_gen_i(p, v); }
INFS_CUDA_FN unsigned int atomicAdd(unsigned int *p, unsigned int v)
{
	return (unsigned int)__nvvm_atom_add_gen_i((int *)p, (int)v);
}
INFS_CUDA_FN float atomicAdd(float *p, float v) { return __nvvm_atom_add_gen_f(p, v); }
INFS_CUDA_FN int atomicSub(int *p, int v) { return __nvvm_atom_add_gen_i(p, -v); }
INFS_CUDA_FN unsigned int atomicSub(unsigned int *p, unsigned int v)
{
	return (unsigned int)__nvvm_atom_add_gen_i((int *)p, (int)(0u - v));
}
INFS_CUDA_FN int atomicExch(int *p, int v) { return __nvvm_atom_xchg_gen_i(p, v); }
INFS_CUDA_FN unsigned int atomicExch(unsigned int *p, unsigned int v)
{
	return (unsigned int)__nvvm_atom_xchg_gen_i((int *)p, (int)v);
}
INFS_CUDA_FN int atomicMin(int *p, int v) { return __nvvm_atom_min_gen_i(p, v); }
INFS_CUDA_FN unsigned int atomicMin(unsigned int *p, unsigned int v)
{
	return __nvvm_atom_min_gen_ui(p, v);
}
INFS_CUDA_FN int atomicMax(int *p, int v) { return __nvvm_atom_max_gen_i(p, v); }
INFS_CUDA_FN unsigned int atomicMax(unsigned int *p, unsigned int v)
{
	return __nvvm_atom_max_gen_ui(p, v);
}
INFS_CUDA_FN int atomicAnd(int *p, int v) { return __nvvm_atom_and_gen_i(p, v); }
INFS_CUDA_FN unsigned int atomicAnd(unsigned int *p, unsigned int v)
{
	return (unsigned int)__nvvm_atom_and_gen_i((int *)p, (int)v);
}
INFS_CUDA_FN int atomicOr(int *p, int v) { return __nvvm_atom_or_gen_i(p, v); }
INFS_CUDA_FN unsigned int atomicOr(unsigned int *p, unsigned int v)
{
	return (unsigned int)__nvvm_atom_or_gen_i((int *)p, (int)v);
}
INFS_CUDA_FN int atomicXor(int *p, int v) { return __nvvm_atom_xor_gen_i(p, v); }
INFS_CUDA_FN unsigned int atomicXor(unsigned int *p, unsigned int v)
{
	return (unsigned int)__nvvm_atom_xor_gen_i((int *)p, (int)v);
}
INFS_CUDA_FN int atomicCAS(int *p, int cmp, int v) { return __nvvm_atom_cas_gen_i(p, cmp, v); }
INFS_CUDA_FN unsigned int atomicCAS(unsigned int *p, unsigned int cmp, unsigned int v)
{
	return (unsigned int)__nvvm_atom_cas_gen_i((int *)p, (int)cmp, (int)v);
}

/* ---- warp shuffles (32-bit values; width a power of two <= 32) ----
 * The last operand packs the segment mask and clamp as PTX wants it:
 * ((32 - width) << 8) | clamp, clamp 31 for idx/down/xor and 0 for up.
 *   __shfl_sync       __nvvm_shfl_sync_idx_i32   shfl.sync.idx.b32
 *   __shfl_up_sync    __nvvm_shfl_sync_up_i32    shfl.sync.up.b32
 *   __shfl_down_sync  __nvvm_shfl_sync_down_i32  shfl.sync.down.b32
 *   __shfl_xor_sync   __nvvm_shfl_sync_bfly_i32  shfl.sync.bfly.b32
 * They need PTX ISA 6.0: add -Xclang -target-feature -Xclang +ptx60 to
 * clang's command (doc/CUDA.md); without it clang rejects the builtin.
 * The float forms move the bits (no conversion). */
#define INFS_CUDA_SHFL(name, builtin, clamp)                                          \
	INFS_CUDA_FN int name(unsigned int mask, int v, int lane, int width = 32)      \
	{                                                                                 \
		return builtin(mask, v, lane, ((32 - width) << 8) | (clamp));            \
	}                                                                                 \
	INFS_CUDA_FN unsigned int name(unsigned int mask, unsigned int v, int lane,    \
				       int width = 32)                                   \
	{                                                                                 \
		return (unsigned int)builtin(mask, (int)v, lane,                       \
					     ((32 - width) << 8) | (clamp));             \
	}                                                                                 \
	INFS_CUDA_FN float name(unsigned int mask, float v, int lane, int width = 32)  \
	{                                                                                 \
		return __builtin_bit_cast(float, builtin(mask, __builtin_bit_cast(int, v), \
							 lane, ((32 - width) << 8) | (clamp))); \
	}
INFS_CUDA_SHFL(__shfl_sync, __nvvm_shfl_sync_idx_i32, 31)
INFS_CUDA_SHFL(__shfl_up_sync, __nvvm_shfl_sync_up_i32, 0)
INFS_CUDA_SHFL(__shfl_down_sync, __nvvm_shfl_sync_down_i32, 31)
INFS_CUDA_SHFL(__shfl_xor_sync, __nvvm_shfl_sync_bfly_i32, 31)
#undef INFS_CUDA_SHFL

/* ---- warp votes (PTX ISA 6.0, as the shuffles) ----
 *   __ballot_sync     __nvvm_vote_ballot_sync    vote.sync.ballot.b32
 *   __any_sync        __nvvm_vote_any_sync       vote.sync.any.pred
 *   __all_sync        __nvvm_vote_all_sync       vote.sync.all.pred
 *   __uni_sync        __nvvm_vote_uni_sync       vote.sync.uni.pred */
INFS_CUDA_FN unsigned int __ballot_sync(unsigned int mask, int p)
{
	return __nvvm_vote_ballot_sync(mask, p != 0);
}
INFS_CUDA_FN int __any_sync(unsigned int mask, int p) { return __nvvm_vote_any_sync(mask, p != 0); }
INFS_CUDA_FN int __all_sync(unsigned int mask, int p) { return __nvvm_vote_all_sync(mask, p != 0); }
INFS_CUDA_FN int __uni_sync(unsigned int mask, int p) { return __nvvm_vote_uni_sync(mask, p != 0); }

/* ---- fp32 arithmetic, correctly rounded (round to nearest even) ----
 *   fmaf, __fmaf_rn   __nvvm_fma_rn_f   fma.rn.f32
 *   sqrtf, __fsqrt_rn __nvvm_sqrt_rn_f  sqrt.rn.f32
 *   __fdiv_rn         __nvvm_div_rn_f   div.rn.f32  (x / y in a kernel is this too)
 *   fabsf             __nvvm_fabs_f     abs.f32
 *   fminf, fmaxf      __nvvm_fmin_f/fmax_f  min.f32, max.f32 (a NaN operand
 *                     gives the other one, as C's fminf) */
INFS_CUDA_FN float fmaf(float a, float b, float c) { return __nvvm_fma_rn_f(a, b, c); }
INFS_CUDA_FN float __fmaf_rn(float a, float b, float c) { return __nvvm_fma_rn_f(a, b, c); }
INFS_CUDA_FN float sqrtf(float x) { return __nvvm_sqrt_rn_f(x); }
INFS_CUDA_FN float __fsqrt_rn(float x) { return __nvvm_sqrt_rn_f(x); }
INFS_CUDA_FN float __fdiv_rn(float x, float y) { return __nvvm_div_rn_f(x, y); }
INFS_CUDA_FN float fabsf(float x) { return __nvvm_fabs_f(x); }
INFS_CUDA_FN float fminf(float a, float b) { return __nvvm_fmin_f(a, b); }
INFS_CUDA_FN float fmaxf(float a, float b) { return __nvvm_fmax_f(a, b); }

/* ---- fp32 approximations (PTX .approx: not correctly rounded) ----
 *   __fdividef(x, y)  __nvvm_div_approx_f    div.approx.f32
 *   __sinf, __cosf    __nvvm_sin/cos_approx_f  sin.approx.f32, cos.approx.f32
 *   exp2f             __nvvm_ex2_approx_f    ex2.approx.f32 (CUDA's exp2f is
 *                     accurate to 2 ulp; this one is the instruction)
 *   __expf(x)         ex2.approx of x * log2(e): mul.f32 then ex2.approx.f32
 *   __log2f           __nvvm_lg2_approx_f    lg2.approx.f32
 *   __logf(x)         lg2.approx of x, times ln(2): lg2.approx.f32 then mul.f32
 *   rsqrtf            __nvvm_rsqrt_approx_f  rsqrt.approx.f32 */
INFS_CUDA_FN float __fdividef(float x, float y) { return __nvvm_div_approx_f(x, y); }
INFS_CUDA_FN float __sinf(float x) { return __nvvm_sin_approx_f(x); }
INFS_CUDA_FN float __cosf(float x) { return __nvvm_cos_approx_f(x); }
INFS_CUDA_FN float exp2f(float x) { return __nvvm_ex2_approx_f(x); }
INFS_CUDA_FN float __expf(float x) { return __nvvm_ex2_approx_f(x * 1.44269504f); }
INFS_CUDA_FN float __log2f(float x) { return __nvvm_lg2_approx_f(x); }
INFS_CUDA_FN float __logf(float x) { return __nvvm_lg2_approx_f(x) * 0.693147181f; }
INFS_CUDA_FN float rsqrtf(float x) { return __nvvm_rsqrt_approx_f(x); }

/* ---- integer min and max ----
 * clang 14 has no __nvvm_min_i builtin; the select below is what the
 * back end matches to the instruction.
 *   min, max (int)       a < b ? a : b    min.s32, max.s32
 *   min, max (unsigned)  a < b ? a : b    min.u32, max.u32
 *   abs (int)            __builtin_abs         abs.s32 */
INFS_CUDA_FN int min(int a, int b) { return a < b ? a : b; }
INFS_CUDA_FN int max(int a, int b) { return a > b ? a : b; }
INFS_CUDA_FN unsigned int min(unsigned int a, unsigned int b) { return a < b ? a : b; }
INFS_CUDA_FN unsigned int max(unsigned int a, unsigned int b) { return a > b ? a : b; }
INFS_CUDA_FN int abs(int a) { return __builtin_abs(a); }

/* ---- half precision (sm_53 and up: --cuda-gpu-arch=sm_60) ----
 * __half is IEEE binary16 bits, __half2 two of them (.x the low half);
 * clang 14 has no f16 builtins for these, so each is the instruction
 * itself, as inline PTX ("h": a .b16 register, "r": .b32):
 *   __hadd __hsub __hmul      add.f16 sub.f16 mul.f16 (to nearest even)
 *   __hfma                    fma.rn.f16
 *   __hadd_sat __hfma_sat     add.sat.f16 fma.rn.sat.f16 (clamped to [0, 1])
 *   __hneg __habs             neg.f16 abs.f16
 *   __hmin __hmax             min.f16 max.f16 (a NaN operand gives the other)
 *   __hlt __hle __hgt __hge __heq __hne   setp.{lt,...}.f16 (ordered)
 *   __hadd2 __hsub2 __hmul2 __hfma2 __hneg2 __habs2 __hmin2 __hmax2: .f16x2
 *   __float2half __half2float cvt.rn.f16.f32, cvt.f32.f16
 *   __floats2half2_rn(a, b)   {a, b} as halves; __low2half __high2half
 *   the operators + - * and unary - of __half and __half2 are the above. */
typedef struct __half { unsigned short x; } __half;
typedef struct __half2 { unsigned int x; } __half2;
#define INFS_H2(op, text)                                                              \
	INFS_CUDA_FN __half op(__half a, __half b)                                     \
	{                                                                              \
		__half r;                                                              \
		asm(text ".f16 %0, %1, %2;" : "=h"(r.x) : "h"(a.x), "h"(b.x));          \
		return r;                                                              \
	}                                                                              \
	INFS_CUDA_FN __half2 op##2(__half2 a, __half2 b)                               \
	{                                                                              \
		__half2 r;                                                             \
		asm(text ".f16x2 %0, %1, %2;" : "=r"(r.x) : "r"(a.x), "r"(b.x));        \
		return r;                                                              \
	}
#define INFS_H1(op, text)                                                              \
	INFS_CUDA_FN __half op(__half a)                                               \
	{                                                                              \
		__half r;                                                              \
		asm(text ".f16 %0, %1;" : "=h"(r.x) : "h"(a.x));                        \
		return r;                                                              \
	}                                                                              \
	INFS_CUDA_FN __half2 op##2(__half2 a)                                          \
	{                                                                              \
		__half2 r;                                                             \
		asm(text ".f16x2 %0, %1;" : "=r"(r.x) : "r"(a.x));                      \
		return r;                                                              \
	}
INFS_H2(__hadd, "add")
INFS_H2(__hsub, "sub")
INFS_H2(__hmul, "mul")
INFS_H2(__hmin, "min")
INFS_H2(__hmax, "max")
INFS_H1(__hneg, "neg")
INFS_H1(__habs, "abs")
INFS_CUDA_FN __half __hfma(__half a, __half b, __half c)
{
	__half r;
	asm("fma.rn.f16 %0, %1, %2, %3;" : "=h"(r.x) : "h"(a.x), "h"(b.x), "h"(c.x));
	return r;
}
INFS_CUDA_FN __half2 __hfma2(__half2 a, __half2 b, __half2 c)
{
	__half2 r;
	asm("fma.rn.f16x2 %0, %1, %2, %3;" : "=r"(r.x) : "r"(a.x), "r"(b.x), "r"(c.x));
	return r;
}
INFS_CUDA_FN __half __hadd_sat(__half a, __half b)
{
	__half r;
	asm("add.sat.f16 %0, %1, %2;" : "=h"(r.x) : "h"(a.x), "h"(b.x));
	return r;
}
INFS_CUDA_FN __half __hfma_sat(__half a, __half b, __half c)
{
	__half r;
	asm("fma.rn.sat.f16 %0, %1, %2, %3;" : "=h"(r.x) : "h"(a.x), "h"(b.x), "h"(c.x));
	return r;
}
#define INFS_HCMP(op, cmp)                                                             \
	INFS_CUDA_FN bool op(__half a, __half b)                                       \
	{                                                                              \
		unsigned short r;                                                      \
		asm("{ .reg .pred %%p; setp." cmp ".f16 %%p, %1, %2; selp.u16 %0, 1, 0, %%p; }" \
		    : "=h"(r) : "h"(a.x), "h"(b.x));                                     \
		return r != 0;                                                         \
	}
INFS_HCMP(__hlt, "lt")
INFS_HCMP(__hle, "le")
INFS_HCMP(__hgt, "gt")
INFS_HCMP(__hge, "ge")
INFS_HCMP(__heq, "eq")
INFS_HCMP(__hne, "ne")
INFS_CUDA_FN __half __float2half(float f)
{
	__half r;
	asm("cvt.rn.f16.f32 %0, %1;" : "=h"(r.x) : "f"(f));
	return r;
}
INFS_CUDA_FN float __half2float(__half h)
{
	float f;
	asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h.x));
	return f;
}
INFS_CUDA_FN __half2 __halves2half2(__half lo, __half hi)
{
	__half2 r;
	r.x = (unsigned int)lo.x | (unsigned int)hi.x << 16;
	return r;
}
INFS_CUDA_FN __half2 __floats2half2_rn(float a, float b)
{
	return __halves2half2(__float2half(a), __float2half(b));
}
INFS_CUDA_FN __half __low2half(__half2 h) { __half r; r.x = (unsigned short)h.x; return r; }
INFS_CUDA_FN __half __high2half(__half2 h) { __half r; r.x = (unsigned short)(h.x >> 16); return r; }
INFS_CUDA_FN __half operator+(__half a, __half b) { return __hadd(a, b); }
INFS_CUDA_FN __half operator-(__half a, __half b) { return __hsub(a, b); }
INFS_CUDA_FN __half operator*(__half a, __half b) { return __hmul(a, b); }
INFS_CUDA_FN __half operator-(__half a) { return __hneg(a); }
INFS_CUDA_FN bool operator<(__half a, __half b) { return __hlt(a, b); }
INFS_CUDA_FN bool operator>(__half a, __half b) { return __hgt(a, b); }
INFS_CUDA_FN __half2 operator+(__half2 a, __half2 b) { return __hadd2(a, b); }
INFS_CUDA_FN __half2 operator-(__half2 a, __half2 b) { return __hsub2(a, b); }
INFS_CUDA_FN __half2 operator*(__half2 a, __half2 b) { return __hmul2(a, b); }
INFS_CUDA_FN __half2 operator-(__half2 a) { return __hneg2(a); }
#undef INFS_H1
#undef INFS_H2
#undef INFS_HCMP

#undef INFS_CUDA_FN

#endif
