// SPDX-License-Identifier: MIT
// approx: the fast f32 functions, one thread an element.  For i < n,
//   s[i] = __sinf(x[i])     sin.approx.f32
//   c[i] = __cosf(x[i])     cos.approx.f32
//   e[i] = exp2f(x[i])      ex2.approx.f32
//   l[i] = __log2f(x[i])    lg2.approx.f32
//   r[i] = rsqrtf(x[i])     rsqrt.approx.f32
// Their results are what infsim defines .approx to give (doc/PTX.md, "The
// .approx functions"), within the accuracy stated there of the true ones.
// Launch: <<<ceil(n / 256), 256>>>.
extern "C" __global__ void approx(int n, const float *x, float *s, float *c, float *e,
				  float *l, float *r)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		float v = x[i];
		s[i] = __sinf(v);
		c[i] = __cosf(v);
		e[i] = exp2f(v);
		l[i] = __log2f(v);
		r[i] = rsqrtf(v);
	}
}
