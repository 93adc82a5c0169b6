// SPDX-License-Identifier: MIT
// saxpy: y[i] = a * x[i] + y[i] with one rounding (fma.rn.f32), i < n.
// Launch: <<<ceil(n / 256), 256>>>, one thread an element; the last
// block's threads past n do nothing.
extern "C" __global__ void saxpy(int n, float a, const float *x, float *y)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = fmaf(a, x[i], y[i]);
}
