// SPDX-License-Identifier: MIT
// pathfinder: Rodinia's dynamic programming over a rows x cols grid of
// weights (the paper's Table 3 pathfinder): the cheapest path from the
// top row down, moving to a column at most one away each row.  One
// launch per row r = 1 .. rows - 1:
//   dst[i] = wall[r][i] + min(src[i - 1], src[i], src[i + 1])
// over the neighbours that exist (i in [0, cols)); the host swaps src
// and dst between launches, src starting as row 0.
// Launch: <<<ceil(cols / 256), 256>>>.
extern "C" __global__ void pathfinder(const int *wall, const int *src, int *dst, int cols, int r)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= cols)
		return;
	int m = src[i];
	if (i > 0)
		m = min(m, src[i - 1]);
	if (i < cols - 1)
		m = min(m, src[i + 1]);
	dst[i] = wall[r * cols + i] + m;
}
