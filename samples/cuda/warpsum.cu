// SPDX-License-Identifier: MIT
// warpsum: a warp's sum by shuffles.  Warp w (threads 32 w .. 32 w + 31
// of the grid) adds x[32 w .. 32 w + 32) (past n: 0), wrapping in 32
// bits: v += __shfl_down_sync(~0, v, s) for s = 16, 8, 4, 2, 1 (a lane
// reading past lane 31 gets its own value, which lane 0's sum never
// uses), and lane 0 writes sums[w].
// Launch: <<<ceil(n / B), B>>>, B a multiple of 32.  Needs PTX ISA 6.0:
// compiled with -Xclang -target-feature -Xclang +ptx60 (gen_ptx.sh).
extern "C" __global__ void warpsum(unsigned n, const int *x, int *sums)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	int v = i < n ? x[i] : 0;
	for (int s = 16; s > 0; s >>= 1)
		v = (int)((unsigned)v + (unsigned)__shfl_down_sync(0xffffffffu, v, s));
	if ((threadIdx.x & 31) == 0)
		sums[i / 32] = v;
}
