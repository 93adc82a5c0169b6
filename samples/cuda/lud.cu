// SPDX-License-Identifier: MIT
// lud: LU decomposition in place without pivoting (Doolittle: unit lower
// L below the diagonal, U on and above it) of the n x n row-major a, the
// simple form of the paper's Table 3 lud, for step k = 0 .. n - 2:
//   lud_column: for i = k+1 .. n-1, a[i][k] = a[i][k] / a[k][k] (div.rn.f32).
//     Launch: <<<ceil((n - 1 - k) / 128), 128>>>.
//   lud_update: for i, j = k+1 .. n-1, a[i][j] = fmaf(-a[i][k], a[k][j], a[i][j]).
//     Launch: <<<(ceil((n - 1 - k) / 16), ceil((n - 1 - k) / 16)), (16, 16)>>>,
//     x the column.
extern "C" __global__ void lud_column(float *a, int n, int k)
{
	int i = k + 1 + (int)(blockIdx.x * blockDim.x + threadIdx.x);
	if (i < n)
		a[i * n + k] = a[i * n + k] / a[k * n + k];
}

extern "C" __global__ void lud_update(float *a, int n, int k)
{
	int j = k + 1 + (int)(blockIdx.x * blockDim.x + threadIdx.x);
	int i = k + 1 + (int)(blockIdx.y * blockDim.y + threadIdx.y);
	if (i < n && j < n)
		a[i * n + j] = fmaf(-a[i * n + k], a[k * n + j], a[i * n + j]);
}
