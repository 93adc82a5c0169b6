// SPDX-License-Identifier: MIT
// branchy: a divergent if/else per thread.  For i < n:
//   odd x:   y[i] = 3 x + 1           (wrapping)
//   even x:  y[i] = x >> 1 (arithmetic), and if that is negative, its
//            bitwise complement
// so threads of one warp take both sides and one side branches again.
// Launch: <<<ceil(n / 128), 128>>>.
extern "C" __global__ void branchy(int n, const int *x, int *y)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	int v = x[i];
	if (v & 1) {
		v = (int)(3u * (unsigned)v + 1u);
	} else {
		v >>= 1;
		if (v < 0)
			v = ~v;
	}
	y[i] = v;
}
