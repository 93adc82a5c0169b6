/* SPDX-License-Identifier: MIT */
#include "cuda.h"
extern "C" __global__ void reduce(const float *in, float *out) {
  __shared__ float s[128];
  unsigned t = tid();
  s[t] = in[ctaid()*128+t];
  __syncthreads();
  for (unsigned k = 64; k > 0; k >>= 1) { if (t < k) s[t] += s[t+k]; __syncthreads(); }
  if (t == 0) out[ctaid()] = s[0];
}
extern "C" __global__ void hist(const unsigned *in, unsigned *h, int n) {
  int i = ctaid()*ntid()+tid();
  if (i < n) __atomic_fetch_add(&h[in[i] & 15], 1u, __ATOMIC_RELAXED);
}
extern "C" __global__ void loop(const int *in, int *out) {
  int t = tid(); int v = in[t]; int c = 0;
  while (v > 1) { v = (v & 1) ? 3*v+1 : v/2; c++; }
  out[t] = c;
}
extern "C" __global__ void trans(const float *in, float *out) {
  int t = tid(); float x = in[t];
  out[4*t] = __nvvm_sin_approx_f(x);
  out[4*t+1] = __nvvm_ex2_approx_f(x);
  out[4*t+2] = __nvvm_lg2_approx_f(x);
  out[4*t+3] = __nvvm_cos_approx_f(x) + __nvvm_rsqrt_approx_f(x) + __nvvm_sqrt_rn_f(x) + __nvvm_rcp_rn_f(x);
}
