/* SPDX-License-Identifier: MIT */
#include "cuda.h"
extern "C" __global__ void sh(const int *a, int *o) {
  int t = tid(); int v = a[t];
  v += __nvvm_shfl_sync_down_i32(0xffffffff, v, 1, 31);
  v += __nvvm_shfl_sync_bfly_i32(0xffffffff, v, 2, 31);
  o[t] = v + __nvvm_vote_ballot_sync(0xffffffff, v > 3);
}
