// SPDX-License-Identifier: MIT
// vadd: c[i] = a[i] + b[i] for i < n (add.rn.f32), OpenCL C 1.2.
// Launch: global size ceil(n / 128) * 128, local size 128, that is
// <<<ceil(n / 128), 128>>>.
__kernel void vadd(__global const float *a, __global const float *b, __global float *c, int n)
{
	int i = get_global_id(0);
	if (i < n)
		c[i] = a[i] + b[i];
}
