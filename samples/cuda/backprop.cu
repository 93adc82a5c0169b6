// SPDX-License-Identifier: MIT
// backprop: Rodinia's bpnn_layerforward, the input-to-hidden layer of a
// two-layer network with 16 hidden units (the paper's Table 3 backprop).
// Block by (16 x 16 threads) takes input units by*16+1 .. by*16+16
// (unit 0 is the bias, left out here as in Rodinia): thread (tx, ty)
// forms input[u] * w[u][tx + 1] (u = by*16 + ty + 1, w a
// (n_in + 1) x 17 row-major matrix), stores it in shared memory, and
// the 16 rows are summed as a tree: rows ty and ty + s for s = 1, 2, 4,
// 8 (ty a multiple of 2s), one __syncthreads per level; then
//   partial[by * 16 + tx] = that sum.
// Launch: <<<(1, n_in / 16), (16, 16)>>>, n_in a multiple of 16.
#define WIDTH 16
#define HID 16
extern "C" __global__ void layerforward(const float *input, const float *w, float *partial)
{
	__shared__ float in_node[HID];
	__shared__ float prod[HID][WIDTH];
	unsigned tx = threadIdx.x, ty = threadIdx.y, by = blockIdx.y;
	unsigned u = by * HID + ty + 1;
	if (tx == 0)
		in_node[ty] = input[u];
	__syncthreads();
	prod[ty][tx] = in_node[ty] * w[u * (HID + 1) + tx + 1];
	__syncthreads();
	for (unsigned s = 1; s < HID; s *= 2) {
		if (ty % (2 * s) == 0)
			prod[ty][tx] = prod[ty][tx] + prod[ty + s][tx];
		__syncthreads();
	}
	if (ty == 0)
		partial[by * HID + tx] = prod[0][tx];
}
