/* SPDX-License-Identifier: MIT */
/*
 * opencl.h (installed as <infsim/opencl.h>): the work-item functions
 * and barrier of OpenCL C for clang's NVPTX back end without libclc
 * (doc/CUDA.md, "OpenCL C"):
 *
 *   clang --target=nvptx64-nvidia-cuda -march=sm_52 -x cl -cl-std=CL1.2 \
 *         -cl-no-stdinc -O2 -S -include infsim/opencl.h k.cl -o k.ptx
 *
 * clang 14's default OpenCL header only declares get_global_id and the
 * rest; without libclc they stay calls of .extern functions, which PTX
 * for infsim cannot have.  -cl-no-stdinc drops that header and this one
 * defines them from the special registers instead, each inlined:
 *   get_local_id(d)    %tid.{x,y,z}
 *   get_group_id(d)    %ctaid.{x,y,z}
 *   get_local_size(d)  %ntid.{x,y,z}
 *   get_num_groups(d)  %nctaid.{x,y,z}
 *   get_global_id(d)   %ctaid * %ntid + %tid (mad.lo.s32)
 *   get_global_size(d) %nctaid * %ntid
 *   barrier(flags)     bar.sync 0 (either fence: a CTA barrier orders both)
 *   fma(a, b, c)       fma.rn.f32;  mad(a, b, c) is the same here
 * A dimension other than 0, 1, 2 gives 0 (get_local_size: 1), as the
 * OpenCL specification asks.  Sizes are 32-bit on the device (a launch
 * has at most 2^32 - 1 items per dimension) and widen to size_t.
 */
#ifndef INFSIM_OPENCL_H
#define INFSIM_OPENCL_H

#ifndef __OPENCL_C_VERSION__
#error "infsim/opencl.h is for clang -x cl (doc/CUDA.md)"
#endif

typedef __SIZE_TYPE__ size_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;
typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;

#define CLK_LOCAL_MEM_FENCE 1u
#define CLK_GLOBAL_MEM_FENCE 2u

#define INFS_CL_FN static inline __attribute__((always_inline))

#define INFS_CL_SREG(fn, reg, other)                                              \
	INFS_CL_FN size_t fn(uint d)                                              \
	{                                                                         \
		return d == 0   ? (size_t)__nvvm_read_ptx_sreg_##reg##_x()        \
		       : d == 1 ? (size_t)__nvvm_read_ptx_sreg_##reg##_y()        \
		       : d == 2 ? (size_t)__nvvm_read_ptx_sreg_##reg##_z()        \
				: (size_t)(other);                                \
	}
INFS_CL_SREG(get_local_id, tid, 0)
INFS_CL_SREG(get_group_id, ctaid, 0)
INFS_CL_SREG(get_local_size, ntid, 1)
INFS_CL_SREG(get_num_groups, nctaid, 0)
#undef INFS_CL_SREG

/* The product in 32 bits, as CUDA's blockIdx.x * blockDim.x + threadIdx.x. */
INFS_CL_FN size_t get_global_id(uint d)
{
	return (size_t)((uint)get_group_id(d) * (uint)get_local_size(d) + (uint)get_local_id(d));
}
INFS_CL_FN size_t get_global_size(uint d)
{
	return (size_t)((uint)get_num_groups(d) * (uint)get_local_size(d));
}

INFS_CL_FN void barrier(uint flags)
{
	(void)flags;
	__syncthreads();
}

INFS_CL_FN float __attribute__((overloadable)) fma(float a, float b, float c)
{
	return __nvvm_fma_rn_f(a, b, c);
}
INFS_CL_FN float __attribute__((overloadable)) mad(float a, float b, float c)
{
	return __nvvm_fma_rn_f(a, b, c);
}

#undef INFS_CL_FN

#endif
