# SPDX-License-Identifier: MIT
EXTRA_DIST += samples/vadd_i32.ins samples/vmul_i32.ins samples/fig1d_add4.ins
# samples/fp/: floating point, conversions, search and CORDIC; make check
# runs each with --check in every fp= and latency= setting (tests/test_samples.c)
EXTRA_DIST += samples/fp/saxpy_f32.ins samples/fp/saxpy_half.ins samples/fp/fma.ins \
	samples/fp/normalise_f32.ins samples/fp/normalise_bf16.ins \
	samples/fp/zscore_f32.ins samples/fp/normals_half.ins samples/fp/quantise.ins \
	samples/fp/trig_q32.ins samples/fp/explog_q32.ins samples/fp/search_keys.ins
# samples/fig9/ and samples/move/: tensors and data movement (doc/MOVEMENT.md)
EXTRA_DIST += samples/fig9/fig9.ins samples/fig9/fig9_move.ins samples/fig9/fig9.txt \
	samples/move/missing_sync.ins samples/move/stencil_f32.ins
# samples/tdfg/: tensor dataflow graphs for the JIT (doc/TDFG.md)
EXTRA_DIST += samples/tdfg/stencil.tdfg samples/tdfg/outer.tdfg samples/tdfg/saxpy.tdfg \
	samples/tdfg/relu.tdfg samples/tdfg/scale_i16.tdfg samples/tdfg/sin_q32.tdfg \
	samples/tdfg/diff.tdfg
# whole programs (doc/TDFG.md, "Programs"), with their input data
EXTRA_DIST += samples/tdfg/stencil1d.tdfg samples/tdfg/stencil2d.tdfg \
	samples/tdfg/gauss_elim.tdfg samples/tdfg/gauss_elim_A.npy \
	samples/tdfg/mm_outer.tdfg samples/tdfg/mm_outer_A.npy
# embed.c shows a program linking libinfsim; `make check` builds and runs it
# against the library in the tree (the include path maps <infsim/...>).
check_PROGRAMS += samples/embed
samples_embed_SOURCES = samples/embed.c
samples_embed_CPPFLAGS = -I$(top_builddir)/samples/include $(AM_CPPFLAGS)
samples_embed_LDADD = libinfsim.la
BUILT_SOURCES = samples/include/infsim
samples/include/infsim: $(pkginclude_HEADERS)
	$(AM_V_GEN)$(MKDIR_P) samples/include/infsim && \
	for h in $(pkginclude_HEADERS); do cp $(srcdir)/$$h samples/include/infsim/; done
clean-local:
	rm -rf samples/include
EXTRA_DIST += samples/teach/add4/add4.ins samples/teach/add4/.infsdbinit \
	samples/teach/mul8/mul8.ins samples/teach/mul8/.infsdbinit \
	samples/teach/fpadd/fpadd.ins samples/teach/fpadd/.infsdbinit \
	samples/teach/shift2/shift2.ins samples/teach/shift2/.infsdbinit
# samples/tutorial-jit/: the sample of doc/tutorial-jit.md (tests/test_tutorial_jit.c)
EXTRA_DIST += samples/tutorial-jit/blur.tdfg samples/tutorial-jit/stencil1d.json
# samples/ar/: Active-Routing programs, the workloads of Table II
# (doc/ACTIVE-ROUTING.md); tests/test_ar.c checks each against C.
EXTRA_DIST += samples/ar/reduce.ar samples/ar/rand_reduce.ar samples/ar/mac.ar \
	samples/ar/rand_mac.ar samples/ar/mac_f32.ar samples/ar/spmv.ar samples/ar/sgemm.ar \
	samples/ar/backprop.ar samples/ar/lud.ar samples/ar/pagerank.ar
# samples/workloads/: the in-memory workloads of infinity-stream Table 3,
# fp32 and int32, at a small size (doc/WORKLOADS.md); tests/test_workloads.c
# runs each against the tDFG's reference and a plain C kernel.
EXTRA_DIST += samples/workloads/vec_add_f32.tdfg \
	samples/workloads/vec_add_i32.tdfg samples/workloads/array_sum_f32.tdfg \
	samples/workloads/array_sum_i32.tdfg samples/workloads/stencil1d_f32.tdfg \
	samples/workloads/stencil1d_i32.tdfg samples/workloads/stencil2d_f32.tdfg \
	samples/workloads/stencil2d_i32.tdfg samples/workloads/stencil3d_f32.tdfg \
	samples/workloads/stencil3d_i32.tdfg samples/workloads/dwt2d_f32.tdfg \
	samples/workloads/dwt2d_i32.tdfg samples/workloads/gauss_elim_f32.tdfg \
	samples/workloads/gauss_elim_i32.tdfg samples/workloads/conv2d_f32.tdfg \
	samples/workloads/conv2d_i32.tdfg samples/workloads/conv3d_f32.tdfg \
	samples/workloads/conv3d_i32.tdfg samples/workloads/mm_outer_f32.tdfg \
	samples/workloads/mm_outer_i32.tdfg samples/workloads/mm_inner_f32.tdfg \
	samples/workloads/mm_inner_i32.tdfg \
	samples/workloads/gauss_elim_f32.npy samples/workloads/gauss_elim_i32.npy \
	samples/workloads/gather_mlp_in_f32.tdfg samples/workloads/gather_mlp_in_i32.tdfg \
	samples/workloads/gather_mlp_out_f32.tdfg samples/workloads/gather_mlp_out_i32.tdfg \
	samples/workloads/gather_mlp_idx.npy \
	samples/workloads/kmeans_in_f32.tdfg samples/workloads/kmeans_in_i32.tdfg \
	samples/workloads/kmeans_out_f32.tdfg samples/workloads/kmeans_out_i32.tdfg
