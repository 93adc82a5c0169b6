#!/bin/sh
# SPDX-License-Identifier: MIT
# gen.sh: the PTX of the test kernels, as Debian's clang 14 emits it
# (doc/PTX.md, "Getting PTX").  Run once by hand; the .ptx files are
# committed, so `make check` does not need clang.
set -eu
cd "$(dirname "$0")"
CUDA="clang -x cuda --cuda-device-only -nocudainc -nocudalib -O2 -S -Wno-unknown-cuda-version"
for k in saxpy misc ops mem; do
	$CUDA --cuda-gpu-arch=sm_52 $k.cu -o $k.ptx
done
# shfl.sync and vote.sync need PTX 6.0
$CUDA --cuda-gpu-arch=sm_70 -Xclang -target-feature -Xclang +ptx60 warp.cu -o warp.ptx
clang --target=nvptx64-nvidia-cuda -x cl -cl-std=CL1.2 -O2 -S vadd.cl -o vadd64.ptx
clang --target=nvptx-nvidia-cuda -x cl -cl-std=CL1.2 -O2 -S vadd.cl -o vadd32.ptx
