/* SPDX-License-Identifier: MIT */
#include "cuda.h"
__device__ int table[8] = {3, 1, 4, 1, 5, 9, 2, 6};
__device__ float scale = 2.5f;
extern "C" __global__ void lookup(const int *in, int *out, float *f, long long stride) {
  int t = tid();
  int loc[16];
  for (int i = 0; i < 16; i++) loc[i] = in[(i * 7 + t) & 31] * i;
  int k = in[t] & 15;
  long long j = (long long)t * stride;
  out[j] = table[in[t] & 7] + loc[k];
  f[t] = scale * (float)k;
  table[t & 7] += 1;
}
extern "C" __global__ void branchy(const int *in, int *out) {
  int t = tid(); int x = in[t]; int r;
  if (x < 0) r = -x * 3;
  else if (x < 10) r = x + 100;
  else if ((x & 3) == 2) r = x >> 1;
  else { r = 0; for (int i = 0; i < (x & 7); i++) r += i * x; }
  out[t] = r;
}
extern "C" __global__ void bits(const unsigned *in, unsigned *out, double *d, unsigned short *h) {
  unsigned t = tid(); unsigned x = in[t], y = in[t + 32];
  out[t*4] = __nvvm_prmt(x, y, 0x3210 ^ (t & 0x7777));
  out[t*4+1] = (x & ~(0xffu << 8)) | ((y & 0xff) << 8);
  out[t*4+2] = __nvvm_mulhi_ui(x, y) + (unsigned)(((unsigned long long)x * y) >> 7);
  out[t*4+3] = __builtin_bswap32(x) ^ (unsigned)__nvvm_sad_ui(x, y, 0);
  double a = (double)x / (double)(y | 1);
  d[t] = __builtin_sqrt(a) + __builtin_fmin(a, 3.0) - __nvvm_rcp_rn_d(a + 1);
  h[t] = __nvvm_f2h_rn((float)x * 1e-3f);
}
