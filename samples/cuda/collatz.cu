// SPDX-License-Identifier: MIT
// collatz: a loop whose trip count depends on the data.  For i < n,
// steps[i] = how many Collatz steps (x even: x / 2, odd: 3 x + 1, in
// 32-bit unsigned arithmetic that wraps) take x[i] to 1, stopping at
// limit steps; x = 0 never gets there and gives limit.
// Launch: <<<ceil(n / 64), 64>>>.
extern "C" __global__ void collatz(unsigned n, unsigned limit, const unsigned *x, unsigned *steps)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	unsigned v = x[i], k = 0;
	while (v != 1 && k < limit) {
		v = (v & 1) ? 3 * v + 1 : v >> 1;
		k++;
	}
	steps[i] = k;
}
