/* SPDX-License-Identifier: MIT */
#include "cuda.h"
extern "C" __global__ void saxpy(int n, float a, const float *x, float *y) {
  unsigned i = ctaid()*ntid()+tid();
  if (i < n) y[i] = __builtin_fmaf(a, x[i], y[i]);
}
