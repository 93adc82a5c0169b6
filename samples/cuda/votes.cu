// SPDX-License-Identifier: MIT
// votes: the warp votes, one thread an element; threads past n leave
// first, so the last warp votes with its running threads only.  For i < n,
//   b[i] = __ballot_sync(~0, x[i] > 0)   the warp's lanes where x > 0
//   v[i] = __any_sync(~0, x[i] > 5) | __all_sync(~0, x[i] > -5) << 1
//          | __uni_sync(~0, x[i] & 1) << 2
// Launch: <<<ceil(n / 256), 256>>>.
extern "C" __global__ void votes(int n, const int *x, unsigned *b, int *v)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	int a = x[i];
	b[i] = __ballot_sync(0xffffffffu, a > 0);
	v[i] = __any_sync(0xffffffffu, a > 5) | __all_sync(0xffffffffu, a > -5) << 1 |
	       __uni_sync(0xffffffffu, a & 1) << 2;
}
