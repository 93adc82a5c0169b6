// SPDX-License-Identifier: MIT
// transpose: out = the transpose of the rows x cols row-major matrix in
// (out is cols x rows), 32-bit words, through a 16 x 16 tile in local
// memory so that both the reads and the writes go along rows; the tile
// has 17 columns so a column read does not hit one bank 16 times.
// Work-group (16, 16); group (gx, gy) reads in's tile at columns
// 16 gx.., rows 16 gy.., waits at the barrier and writes out's tile at
// columns 16 gy.., rows 16 gx...
// Launch: <<<(ceil(cols / 16), ceil(rows / 16)), (16, 16)>>>.
__kernel void transpose(__global const uint *in, __global uint *out, int rows, int cols)
{
	__local uint tile[16][17];
	int lx = get_local_id(0), ly = get_local_id(1);
	int gx = get_group_id(0) * 16, gy = get_group_id(1) * 16;
	if (gx + lx < cols && gy + ly < rows)
		tile[ly][lx] = in[(gy + ly) * cols + gx + lx];
	barrier(CLK_LOCAL_MEM_FENCE);
	if (gy + lx < rows && gx + ly < cols)
		out[(gx + ly) * rows + gy + lx] = tile[lx][ly];
}
