#!/bin/sh
# SPDX-License-Identifier: MIT
# gen_ptx.sh: compile samples/cuda/*.cu and samples/opencl/*.cl to the
# PTX committed beside them (doc/CUDA.md), with clang 14 and no CUDA SDK.
#   sh samples/cuda/gen_ptx.sh SRCDIR OUTDIR [CLANG]
# writes OUTDIR/cuda/NAME.ptx, OUTDIR/cuda/NAME32.ptx (the 32-bit
# variants) and OUTDIR/opencl/NAME.ptx.  `make ptx-samples` runs it with
# OUTDIR = SRCDIR/samples; tests/check_cuda_ptx.sh runs it into a
# scratch folder and compares.  CLANG defaults to clang-14, then clang.
set -eu
src=$1
out=$2
clang=${3:-}
if [ -z "$clang" ]; then
	for c in clang-14 clang; do
		if command -v "$c" >/dev/null 2>&1; then clang=$c; break; fi
	done
fi
[ -n "$clang" ] || { echo "gen_ptx.sh: no clang found (Debian package: clang-14)" >&2; exit 1; }
# Another clang emits other (valid) PTX: the committed files are 14's.
case $("$clang" --version | head -n 1) in
*" version 14."*) ;;
*) echo "gen_ptx.sh: $clang is not clang 14; the committed PTX is clang 14's" >&2; exit 1 ;;
esac

# <infsim/cuda.h> from the source tree, whether or not it is built.
inc=$(mktemp -d)
trap 'rm -rf "$inc"' EXIT
mkdir "$inc/infsim"
cp "$src/emu/ptx/cuda.h" "$src/emu/ptx/opencl.h" "$inc/infsim/"
mkdir -p "$out/cuda" "$out/opencl"

# --cuda-path: an installed CUDA would raise the .version clang writes,
# so none is looked for.  Warp shuffles need PTX ISA 6.0 (+ptx60).
cuda() { # NAME OUT EXTRA...
	n=$1; o=$2; shift 2
	"$clang" -x cuda --cuda-device-only -nocudainc -nocudalib --cuda-path=/nonexistent \
		--cuda-gpu-arch="${arch:-sm_52}" -O2 -S -include infsim/cuda.h -I"$inc" "$@" \
		"$src/samples/cuda/$n.cu" -o "$o"
}
for f in "$src"/samples/cuda/*.cu; do
	n=$(basename "$f" .cu)
	extra=
	arch=
	case $n in
	warpsum|votes|digits) extra="-Xclang -target-feature -Xclang +ptx60" ;;
	half) arch=sm_60 ;;                          # f16 arithmetic: sm_53 on
	ftz) extra="-fcuda-flush-denormals-to-zero" ;; # .ftz on f32 arithmetic
	esac
	# shellcheck disable=SC2086
	cuda "$n" "$out/cuda/$n.ptx" $extra
done
# The .address_size 32 form: a 32-bit host makes clang's device triple nvptx.
for n in saxpy reduce bfs; do
	cuda "$n" "$out/cuda/${n}32.ptx" -m32
done
for f in "$src"/samples/opencl/*.cl; do
	n=$(basename "$f" .cl)
	"$clang" --target=nvptx64-nvidia-cuda -march=sm_52 -x cl -cl-std=CL1.2 -cl-no-stdinc \
		-O2 -S -include infsim/opencl.h -I"$inc" "$f" -o "$out/opencl/$n.ptx"
done
