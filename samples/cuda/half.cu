// SPDX-License-Identifier: MIT
// half.cu: half-precision arithmetic (__half, __half2 of <infsim/cuda.h>;
// sm_60): per element of x, y, z (halves) h = clamp(fma(x, y, z) - x * y,
// by min/max with z) and the packed forms on pairs, plus a comparison.
// tests/kernels/cuda/refs.c has the plain C (round to nearest even).
extern "C" __global__ void half_ops(int n, const __half *x, const __half *y, const __half *z, __half *h,
			 const __half2 *p, const __half2 *q, __half2 *r, int *cmp)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	__half a = x[i], b = y[i], c = z[i];
	__half t = __hfma(a, b, c) - a * b;
	t = __hmax(__hmin(t, c), -__habs(c));
	h[i] = __hadd_sat(t, a) + __hfma_sat(a, b, t);
	cmp[i] = (a < b) + 2 * (__hge(b, c)) + 4 * __hne(a, c);
	if (i < n / 2) {
		__half2 u = p[i], v = q[i];
		__half2 w = __hfma2(u, v, u) - u * v;
		r[i] = __hmax2(__hmin2(w, v), -__habs2(v)) + __hneg2(u);
	}
}
