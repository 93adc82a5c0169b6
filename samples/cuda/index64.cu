// SPDX-License-Identifier: MIT
// index64: 64-bit indexing, for arrays of more than 2^32 elements.  For
// i < n (a size_t), y[i] = x[i] * 5 + (int)(i >> 3), wrapping in 32 bits;
// i is the 64-bit product blockIdx.x * blockDim.x plus threadIdx.x, so
// no index wraps at 2^32.
// Launch: <<<ceil(n / 256), 256>>> (gridDim.x up to 2^31 - 1).
extern "C" __global__ void index64(size_t n, const int *x, int *y)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = (int)((unsigned)x[i] * 5u + (unsigned)(i >> 3));
}
