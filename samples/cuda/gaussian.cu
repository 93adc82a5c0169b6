// SPDX-License-Identifier: MIT
// gaussian: Rodinia's Gaussian elimination without pivoting of the n x n
// system a x = b (row-major a; the paper's Table 3 gaussian), for step
// t = 0 .. n - 2:
//   fan1: for rows i = t+1 .. n-1, m[i][t] = a[i][t] / a[t][t]
//         (div.rn.f32).  Launch: <<<ceil((n - 1 - t) / 256), 256>>>.
//   fan2: for i = t+1 .. n-1 and j = t .. n-1,
//         a[i][j] = a[i][j] - m[i][t] * a[t][j] rounded once (fma.rn.f32:
//         clang contracts the product into the subtraction), and for
//         j == t also b[i] = b[i] - m[i][t] * b[t] the same way.
//         Launch: <<<(ceil((n - t) / 16), ceil((n - 1 - t) / 16)), (16, 16)>>>,
//         x the column and y the row.
extern "C" __global__ void fan1(float *m, const float *a, int n, int t)
{
	int r = blockIdx.x * blockDim.x + threadIdx.x;
	if (r >= n - 1 - t)
		return;
	int i = r + t + 1;
	m[i * n + t] = a[i * n + t] / a[t * n + t];
}

extern "C" __global__ void fan2(const float *m, float *a, float *b, int n, int t)
{
	int c = blockIdx.x * blockDim.x + threadIdx.x;
	int r = blockIdx.y * blockDim.y + threadIdx.y;
	if (c >= n - t || r >= n - 1 - t)
		return;
	int i = r + t + 1, j = c + t;
	float f = m[i * n + t];
	a[i * n + j] -= f * a[t * n + j];
	if (c == 0)
		b[i] -= f * b[t];
}
