// SPDX-License-Identifier: MIT
// nw: Needleman-Wunsch sequence alignment (the paper's Table 3 nw), one
// anti-diagonal per launch.  score is (n + 1) x (n + 1) row-major, its
// row 0 and column 0 set by the host (score[0][j] = -j penalty,
// score[i][0] = -i penalty); sim[i][j] is the similarity of the
// sequences' i-th and j-th items (the same shape).  Launch d = 2 .. 2n
// computes the cells i + j = d with 1 <= i, j <= n:
//   score[i][j] = max(score[i-1][j-1] + sim[i][j],
//                     score[i-1][j] - penalty, score[i][j-1] - penalty)
// thread r of the launch takes i = max(1, d - n) + r.
// Launch: <<<ceil(cells(d) / 64), 64>>>, cells(d) = min(d - 1, n, 2n + 1 - d).
extern "C" __global__ void nw_diagonal(int *score, const int *sim, int n, int d, int penalty)
{
	int lo = d - n > 1 ? d - n : 1;
	int hi = d - 1 < n ? d - 1 : n;
	int i = lo + (int)(blockIdx.x * blockDim.x + threadIdx.x);
	if (i > hi)
		return;
	int j = d - i, w = n + 1;
	int v = score[(i - 1) * w + j - 1] + sim[i * w + j];
	v = max(v, score[(i - 1) * w + j] - penalty);
	v = max(v, score[i * w + j - 1] - penalty);
	score[i * w + j] = v;
}
