// SPDX-License-Identifier: MIT
// ftz.cu: f32 arithmetic compiled with -fcuda-flush-denormals-to-zero
// (gen_ptx.sh), so that clang writes .ftz on every instruction: add, mul,
// fma, division (div.rn, and __fdividef's div.approx), 1/x (rcp.rn),
// sqrtf (sqrt.rn), fminf, fabsf, a compare.  Subnormal inputs read as
// zeros and subnormal results become zeros (doc/PTX.md).
extern "C" __global__ void ftz_ops(int n, const float *x, const float *y, float *o, int *c)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float a = x[i], b = y[i];
	float s = a + b, p = a * b, f = fmaf(a, b, s);
	float q = a / b, d = __fdividef(a, b), r = 1.0f / b, t = sqrtf(fabsf(a));
	o[8 * i + 0] = s;
	o[8 * i + 1] = p;
	o[8 * i + 2] = f;
	o[8 * i + 3] = q;
	o[8 * i + 4] = d;
	o[8 * i + 5] = r;
	o[8 * i + 6] = t;
	o[8 * i + 7] = fminf(a, -b) - fmaxf(p, s);
	c[i] = a < b;
}
