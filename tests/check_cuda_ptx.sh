#!/bin/sh
# SPDX-License-Identifier: MIT
# check_cuda_ptx.sh: the PTX committed in samples/cuda/ and
# samples/opencl/ is what clang 14 makes of the .cu and .cl beside it
# today (samples/cuda/gen_ptx.sh, the same flags as `make ptx-samples`),
# and <infsim/cuda.h> and <infsim/opencl.h> compile alone.  Skipped
# (exit 77) without clang 14.  Run by `make check` (srcdir, PTX_CLANG).
set -eu
: "${srcdir:=.}" "${PTX_CLANG:=}"
clang=$PTX_CLANG
if [ -z "$clang" ]; then
	for c in clang-14 clang; do
		if command -v "$c" >/dev/null 2>&1; then clang=$c; break; fi
	done
fi
if [ -z "$clang" ] || ! "$clang" --version 2>/dev/null | head -n 1 | grep -q ' version 14\.'; then
	echo "check_cuda_ptx: skipped: no clang 14 (Debian package: clang-14) to compile the samples with"
	exit 77
fi
out=$(mktemp -d "${TMPDIR:-/tmp}/infsim-ptx.XXXXXX")
trap 'rm -rf "$out"' EXIT
# The headers alone: no kernel, nothing emitted, no warning.
mkdir -p "$out/inc/infsim"
cp "$srcdir/emu/ptx/cuda.h" "$srcdir/emu/ptx/opencl.h" "$out/inc/infsim/"
: >"$out/empty.cu"
"$clang" -x cuda --cuda-device-only -nocudainc -nocudalib --cuda-path=/nonexistent \
	--cuda-gpu-arch=sm_52 -O2 -S -Wall -Wextra -Werror -include infsim/cuda.h -I"$out/inc" \
	"$out/empty.cu" -o "$out/empty.ptx" ||
	{ echo "check_cuda_ptx: <infsim/cuda.h> does not compile alone"; exit 1; }
: >"$out/empty.cl"
"$clang" --target=nvptx64-nvidia-cuda -march=sm_52 -x cl -cl-std=CL1.2 -cl-no-stdinc -O2 -S \
	-Wall -Wextra -Werror -include infsim/opencl.h -I"$out/inc" "$out/empty.cl" -o "$out/empty.ptx" ||
	{ echo "check_cuda_ptx: <infsim/opencl.h> does not compile alone"; exit 1; }
sh "$srcdir/samples/cuda/gen_ptx.sh" "$srcdir" "$out/samples" "$clang"
fail=0
n=0
for f in "$srcdir"/samples/cuda/*.ptx "$srcdir"/samples/opencl/*.ptx; do
	rel=${f#"$srcdir"/samples/}
	n=$((n + 1))
	if ! cmp -s "$f" "$out/samples/$rel"; then
		echo "check_cuda_ptx: samples/$rel differs from what $clang gives (make ptx-samples rewrites it):"
		diff "$f" "$out/samples/$rel" | head -n 20
		fail=1
	fi
done
# Every .ptx made has a committed twin (a new .cu without its .ptx fails).
for f in "$out"/samples/cuda/*.ptx "$out"/samples/opencl/*.ptx; do
	rel=${f#"$out"/samples/}
	[ -f "$srcdir/samples/$rel" ] || { echo "check_cuda_ptx: samples/$rel is not committed"; fail=1; }
done
[ "$fail" = 0 ] || exit 1
echo "check_cuda_ptx: $n PTX files as $clang makes them"
