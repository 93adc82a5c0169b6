/* SPDX-License-Identifier: MIT */
#include "cuda.h"
extern "C" __global__ void iops(const int *a, int *o, long long *w) {
  int t = tid(); int x = a[t], y = a[t+32]; unsigned ux = x, uy = y;
  o[t*16+0] = x / y; o[t*16+1] = x % y; o[t*16+2] = ux / uy; o[t*16+3] = ux % uy;
  o[t*16+4] = __builtin_popcount(ux); o[t*16+5] = __builtin_clz(ux|1);
  o[t*16+6] = __builtin_bitreverse32(ux); o[t*16+7] = (x < 0 ? -x : x);
  o[t*16+8] = x > y ? x : y; o[t*16+9] = ux < uy ? ux : uy;
  o[t*16+10] = (ux >> 3) & 0x1f; o[t*16+11] = x >> (y & 31);
  o[t*16+12] = __nvvm_mulhi_i(x, y); o[t*16+13] = ~x ^ (x | y);
  o[t*16+14] = (signed char)x + (short)y; o[t*16+15] = (x<<7)|(ux>>25);
  w[t] = (long long)x * y + ((long long)w[t] / (y|1)) + ((unsigned long long)w[t] >> 5);
}
extern "C" __global__ void fops(const float *a, float *o, int *io, double *d) {
  int t = tid(); float x = a[t], y = a[t+32];
  o[t*8+0] = x / y; o[t*8+1] = __builtin_fminf(x, y); o[t*8+2] = __builtin_fabsf(x) - y;
  o[t*8+3] = __builtin_copysignf(x, y); o[t*8+4] = (float)(int)x; o[t*8+5] = (float)(unsigned)y;
  o[t*8+6] = __nvvm_div_approx_f(x,y); o[t*8+7] = __nvvm_div_rz_f(x, y);
  io[t*8+0] = x < y; io[t*8+1] = !(x >= y); io[t*8+2] = x != y; io[t*8+3] = __builtin_isnan(x);
  io[t*8+4] = __nvvm_f2i_rm(x); io[t*8+5] = __nvvm_f2ui_rp(y); io[t*8+6] = __builtin_isinf(y); io[t*8+7] = (long long)x;
  d[t] = (double)x * d[t] + __nvvm_f2ll_rz(y) + (float)d[t+32];
  o[t*8+0] += __nvvm_fmin_ftz_f(x, y) + __nvvm_saturate_f(x) + __nvvm_add_rm_f(x,y) + __nvvm_ui2f_rz(t) + __builtin_rintf(x) + __builtin_floorf(y) + __builtin_truncf(x)+__builtin_ceilf(y);
}
