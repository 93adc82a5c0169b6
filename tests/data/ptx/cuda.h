/* SPDX-License-Identifier: MIT */
/* cuda.h: what the test kernels need of CUDA, for clang -nocudainc. */
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __device__ __attribute__((device))
static __device__ inline unsigned tid(void){return __nvvm_read_ptx_sreg_tid_x();}
static __device__ inline unsigned ntid(void){return __nvvm_read_ptx_sreg_ntid_x();}
static __device__ inline unsigned ctaid(void){return __nvvm_read_ptx_sreg_ctaid_x();}
