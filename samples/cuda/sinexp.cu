// SPDX-License-Identifier: MIT
// sinexp: the fast transcendentals.  For i < n,
//   s[i] = __sinf(x[i])         sin.approx.f32
//   e[i] = __expf(x[i] / 8)     div.rn.f32, mul.f32 by log2(e), ex2.approx.f32
// Their results are what infsim defines .approx to give (doc/PTX.md),
// not the correctly rounded sine and exponential.
// Launch: <<<ceil(n / 256), 256>>>.
extern "C" __global__ void sinexp(int n, const float *x, float *s, float *e)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		float v = x[i];
		s[i] = __sinf(v);
		e[i] = __expf(v / 8.0f);
	}
}
