// SPDX-License-Identifier: MIT
// bfs: Rodinia's breadth-first search, one level per pair of launches
// (the paper's Table 3 bfs).  The graph is in compressed rows: node v's
// neighbours are edges[start[v] .. start[v] + degree[v]).
//   bfs_expand: each node v < n in the frontier (mask[v]) leaves it, and
//     each unvisited neighbour w gets cost[w] = cost[v] + 1 and is marked
//     in next[w] (all writers of one w write the same value: every
//     frontier node has the same cost).
//   bfs_commit: each node w < n with next[w] set joins the frontier and
//     is visited, next[w] is cleared and *again is set to 1.
// The host launches expand then commit, until a commit leaves *again 0.
// Launch (both): <<<ceil(n / 256), 256>>>.
extern "C" __global__ void bfs_expand(int n, const int *start, const int *degree,
				       const int *edges, unsigned char *mask,
				       unsigned char *next, const unsigned char *visited, int *cost)
{
	int v = blockIdx.x * blockDim.x + threadIdx.x;
	if (v < n && mask[v]) {
		mask[v] = 0;
		for (int e = start[v]; e < start[v] + degree[v]; e++) {
			int w = edges[e];
			if (!visited[w]) {
				cost[w] = cost[v] + 1;
				next[w] = 1;
			}
		}
	}
}

extern "C" __global__ void bfs_commit(int n, unsigned char *mask, unsigned char *next,
				       unsigned char *visited, int *again)
{
	int w = blockIdx.x * blockDim.x + threadIdx.x;
	if (w < n && next[w]) {
		mask[w] = 1;
		visited[w] = 1;
		*again = 1;
		next[w] = 0;
	}
}
