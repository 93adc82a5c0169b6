// SPDX-License-Identifier: MIT
// histogram: bins[k] += the number of i < n with x[i] % 256 == k, for
// k < 256.  Each block counts into its own shared histogram with
// atomicAdd, then adds it to bins with atomicAdd on global memory; the
// threads stride over x, so any grid covers any n.
// Launch: <<<G, 256>>> (blockDim.x must be 256), bins zeroed first.
extern "C" __global__ void histogram(unsigned n, const unsigned *x, unsigned *bins)
{
	__shared__ unsigned local[256];
	unsigned t = threadIdx.x;
	local[t] = 0;
	__syncthreads();
	for (unsigned i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x)
		atomicAdd(&local[x[i] & 255u], 1u);
	__syncthreads();
	if (local[t] != 0)
		atomicAdd(&bins[t], local[t]);
}
