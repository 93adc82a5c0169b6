// SPDX-License-Identifier: MIT
// digits: integer division by constants and by 64-bit values, and a
// shuffle with a computed lane (doc/CUDA.md).  clang writes x / 10 and
// x % 10 as mul.hi.u32 (and x / 1000 of a 64-bit x as mul.hi.u64).
//   digits: thread i takes x[i] apart in base 10: sum[i] = the sum of
//     its decimal digits, and hist[d] counts every digit d (atomicAdd).
//   div64: q[i] = a[i] / b[i] and r[i] = a[i] % b[i] as unsigned 64-bit,
//     sq[i] = (long)a[i] / (long)b[i] and sr[i] their remainder (a
//     divisor 0 is made 1 first; the signed quotient of the minimum by
//     -1 wraps to the minimum), k[i] = a[i] / 1000.
//   rotate: y[i] = x[j] for j = the lane (lane * 7 + s[i]) & 31 of i's
//     warp, read by __shfl_sync with that lane computed per thread, and
//     m[i] = __shfl_sync of the per-thread values x[i] % 10 from lane
//     (x[i] / 10) & 31.
// Launch: <<<ceil(n / B), B>>>, B a multiple of 32 (rotate: n too).
extern "C" __global__ void digits(unsigned n, const unsigned *x, unsigned *sum, unsigned *hist)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	unsigned v = x[i], s = 0;
	do {
		unsigned d = v % 10;
		s += d;
		atomicAdd(&hist[d], 1u);
		v /= 10;
	} while (v);
	sum[i] = s;
}

extern "C" __global__ void div64(unsigned n, const unsigned long long *a, const unsigned long long *b,
				 unsigned long long *q, unsigned long long *r, long long *sq, long long *sr,
				 unsigned long long *k)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	unsigned long long x = a[i], y = b[i] ? b[i] : 1;
	q[i] = x / y;
	r[i] = x % y;
	long long sx = (long long)x, sy = (long long)y;
	sq[i] = sy == -1 ? (long long)(0 - x) : sx / sy; // wraps: MIN / -1 = MIN
	sr[i] = sy == -1 ? 0 : sx % sy;
	k[i] = x / 1000;
}

extern "C" __global__ void rotate(const int *x, const unsigned *s, int *y, int *m)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned lane = threadIdx.x & 31;
	int v = x[i];
	y[i] = __shfl_sync(0xffffffffu, v, (int)((lane * 7 + s[i]) & 31));
	unsigned u = (unsigned)v;
	m[i] = __shfl_sync(0xffffffffu, (int)(u % 10), (int)((u / 10) & 31));
}
