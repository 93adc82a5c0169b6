# SPDX-License-Identifier: MIT
# emu/ptx/cuda.mk: CUDA and OpenCL C kernels for infsim (doc/CUDA.md):
# the headers a kernel is compiled with, the samples and their committed
# PTX, and the check that clang 14 still gives that PTX.  (The PTX
# reader itself, emu/ptx/local.mk, is listed on its own.)
pkginclude_HEADERS += emu/ptx/cuda.h emu/ptx/opencl.h
EXTRA_DIST += samples/cuda/backprop.cu samples/cuda/backprop.ptx \
	samples/cuda/bfs.cu samples/cuda/bfs.ptx \
	samples/cuda/branchy.cu samples/cuda/branchy.ptx \
	samples/cuda/collatz.cu samples/cuda/collatz.ptx \
	samples/cuda/gaussian.cu samples/cuda/gaussian.ptx \
	samples/cuda/histogram.cu samples/cuda/histogram.ptx \
	samples/cuda/hotspot.cu samples/cuda/hotspot.ptx \
	samples/cuda/index64.cu samples/cuda/index64.ptx \
	samples/cuda/kmeans.cu samples/cuda/kmeans.ptx \
	samples/cuda/lud.cu samples/cuda/lud.ptx \
	samples/cuda/nw.cu samples/cuda/nw.ptx \
	samples/cuda/pathfinder.cu samples/cuda/pathfinder.ptx \
	samples/cuda/reduce.cu samples/cuda/reduce.ptx \
	samples/cuda/saxpy.cu samples/cuda/saxpy.ptx \
	samples/cuda/sinexp.cu samples/cuda/sinexp.ptx \
	samples/cuda/approx.cu samples/cuda/approx.ptx \
	samples/cuda/votes.cu samples/cuda/votes.ptx \
	samples/cuda/warpsum.cu samples/cuda/warpsum.ptx \
	samples/cuda/digits.cu samples/cuda/digits.ptx \
	samples/cuda/saxpy32.ptx samples/cuda/reduce32.ptx samples/cuda/bfs32.ptx \
	samples/cuda/half.cu samples/cuda/half.ptx samples/cuda/ftz.cu samples/cuda/ftz.ptx \
	samples/opencl/vadd.cl samples/opencl/vadd.ptx \
	samples/opencl/transpose.cl samples/opencl/transpose.ptx \
	samples/cuda/gen_ptx.sh doc/CUDA.md
# Rewrites the committed PTX in the source tree from the .cu and .cl.
.PHONY: ptx-samples
ptx-samples:
	@if test -z "$(PTX_CLANG)"; then \
	  echo "make ptx-samples needs clang 14, which configure did not find (Debian package: clang-14)"; exit 1; fi
	$(SHELL) $(srcdir)/samples/cuda/gen_ptx.sh $(srcdir) $(srcdir)/samples $(PTX_CLANG)
TESTS += tests/check_cuda_ptx.sh
EXTRA_DIST += tests/check_cuda_ptx.sh
AM_TESTS_ENVIRONMENT += PTX_CLANG='$(PTX_CLANG)'; export PTX_CLANG;
