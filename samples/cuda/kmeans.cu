// SPDX-License-Identifier: MIT
// kmeans: the assignment step of Rodinia's kmeans (the paper's Table 3
// kmeans): each point p < npoints (features f < nfeatures, stored
// feature-major: feature[f * npoints + p]) gets the index of its nearest
// cluster centre (clusters row-major, nclusters x nfeatures) in
// membership[p], the first one on a tie.  The squared distance sums f
// in order with d = x - c and dist = fmaf(d, d, dist) from 0.
// Launch: <<<ceil(npoints / 256), 256>>>.
extern "C" __global__ void kmeans_assign(const float *feature, const float *clusters,
					  int *membership, int npoints, int nclusters, int nfeatures)
{
	int p = blockIdx.x * blockDim.x + threadIdx.x;
	if (p >= npoints)
		return;
	int best = 0;
	float best_dist = 0.0f;
	for (int c = 0; c < nclusters; c++) {
		float dist = 0.0f;
		for (int f = 0; f < nfeatures; f++) {
			float d = feature[f * npoints + p] - clusters[c * nfeatures + f];
			dist = fmaf(d, d, dist);
		}
		if (c == 0 || dist < best_dist) {
			best_dist = dist;
			best = c;
		}
	}
	membership[p] = best;
}
