EXTRA_DIST += samples/vadd_i32.ins samples/vmul_i32.ins samples/fig1d_add4.ins
