// SPDX-License-Identifier: MIT
// reduce: a shared-memory tree sum.  Block b adds the elements
// [2 b B, 2 b B + 2 B) of x (B = blockDim.x, a power of two <= 512;
// those past n count as 0), wrapping in 32 bits, into part[b]:
// each thread first adds its two elements x[j] + x[j + B], then the
// halves are folded s = B/2, B/4, .. 1 with a __syncthreads between.
// Launch: <<<ceil(n / (2 B)), B>>>.
extern "C" __global__ void reduce(unsigned n, const int *x, int *part)
{
	__shared__ int s[512];
	unsigned t = threadIdx.x, B = blockDim.x;
	unsigned j = 2 * blockIdx.x * B + t;
	int v = j < n ? x[j] : 0;
	if (j + B < n)
		v = (int)((unsigned)v + (unsigned)x[j + B]);
	s[t] = v;
	__syncthreads();
	for (unsigned h = B / 2; h > 0; h >>= 1) {
		if (t < h)
			s[t] = (int)((unsigned)s[t] + (unsigned)s[t + h]);
		__syncthreads();
	}
	if (t == 0)
		part[blockIdx.x] = s[0];
}
