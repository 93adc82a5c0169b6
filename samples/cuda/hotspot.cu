// SPDX-License-Identifier: MIT
// hotspot: one time step of Rodinia's thermal simulation of a chip (the
// paper's Table 3 hotspot), on a rows x cols grid (row-major).  Each cell
// t with power p and neighbours N, S, E, W (a missing neighbour at the
// edge is the cell itself) becomes
//   out = t + sdc * (p + (N + S - 2t) * ry + (E + W - 2t) * rx + (amb - t) * rz)
// evaluated in this order with single roundings:
//   d = fmaf(N + S - 2t, ry, p); d = fmaf(E + W - 2t, rx, d);
//   d = fmaf(amb - t, rz, d);    out = fmaf(sdc, d, t)
// where N + S - 2t is (N + S) - (t + t).  Every product is written as an
// fmaf so that no contraction is left to clang.
// Launch: <<<(ceil(cols / 16), ceil(rows / 16)), (16, 16)>>>.
extern "C" __global__ void hotspot(const float *power, const float *temp, float *out,
				    int cols, int rows, float sdc, float rx, float ry, float rz,
				    float amb)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x >= cols || y >= rows)
		return;
	int k = y * cols + x;
	float t = temp[k];
	float n = y > 0 ? temp[k - cols] : t;
	float s = y < rows - 1 ? temp[k + cols] : t;
	float w = x > 0 ? temp[k - 1] : t;
	float e = x < cols - 1 ? temp[k + 1] : t;
	float tt = t + t;
	float d = fmaf((n + s) - tt, ry, power[k]);
	d = fmaf((e + w) - tt, rx, d);
	d = fmaf(amb - t, rz, d);
	out[k] = fmaf(sdc, d, t);
}
