#!/bin/sh
# SPDX-License-Identifier: MIT
# staged_install.sh: libinfsim as an installed library.  Installs the
# build into a staging folder, then, against that folder only (through
# pkg-config, as a user would):
#   - compiles every installed header on its own, as C and as C++ (but
#     the CUDA and OpenCL ones);
#   - builds samples/embed.c as C and as C++, and runs both;
#   - checks that libinfsim.so exports only what the headers declare.
# Run by `make check` from the build folder (MAKE, CC, CXX, srcdir and
# SAN_CFLAGS come from tests/local.mk).
set -eu
: "${MAKE:=make}" "${CC:=cc}" "${CXX:=c++}" "${srcdir:=.}" "${SAN_CFLAGS:=}"
stage=$(mktemp -d "${TMPDIR:-/tmp}/infsim-stage.XXXXXX")
trap 'rm -rf "$stage"' EXIT
$MAKE -s install DESTDIR="$stage" >"$stage/install.log" 2>&1 ||
	{ cat "$stage/install.log"; echo "staged_install: make install failed"; exit 1; }
pcdir=$(find "$stage" -name infsim.pc -exec dirname {} \; | head -n 1)
[ -n "$pcdir" ] || { echo "staged_install: no infsim.pc installed"; exit 1; }
export PKG_CONFIG_SYSROOT_DIR="$stage" PKG_CONFIG_PATH="$pcdir" PKG_CONFIG_LIBDIR="$pcdir"
cflags=$(pkg-config --cflags infsim)
libs=$(pkg-config --libs infsim)
# pkgconf puts the sysroot in front of a path variable, pkg-config does not
staged() { case $1 in "$stage"*) echo "$1" ;; *) echo "$stage$1" ;; esac; }
libdir=$(staged "$(pkg-config --variable=libdir infsim)")
incdir=$(staged "$(pkg-config --variable=includedir infsim)")/infsim
n=0
for h in "$incdir"/*.h; do
	name=$(basename "$h")
	# For kernels, not host code: tests/check_cuda_ptx.sh compiles them
	# with clang -x cuda and -x cl.
	case $name in cuda.h | opencl.h) continue ;; esac
	printf '#include <infsim/%s>\nint infsim_header_alone;\n' "$name" >"$stage/alone.c"
	$CC -std=c17 -Wall -Wextra -Werror $cflags -c "$stage/alone.c" -o "$stage/alone.o" ||
		{ echo "staged_install: <infsim/$name> does not compile alone as C"; exit 1; }
	$CXX -x c++ -std=c++17 -Wall -Werror $cflags -c "$stage/alone.c" -o "$stage/alone.o" ||
		{ echo "staged_install: <infsim/$name> does not compile alone as C++"; exit 1; }
	n=$((n + 1))
done
$CC -std=c17 -Wall -Werror $SAN_CFLAGS $cflags "$srcdir/samples/embed.c" $libs -o "$stage/embed_c"
$CXX -x c++ -std=c++17 -Wall -Werror $SAN_CFLAGS $cflags "$srcdir/samples/embed.c" $libs \
	-o "$stage/embed_cxx"
LD_LIBRARY_PATH="$libdir" "$stage/embed_c"
LD_LIBRARY_PATH="$libdir" "$stage/embed_cxx"
# Exports: every defined dynamic symbol is declared in an installed header.
so=$(ls "$libdir"/libinfsim.so.* | head -n 1)
cat "$incdir"/*.h "$incdir"/*.def >"$stage/headers"
leaked=$(nm -D --defined-only "$so" | awk '$2 ~ /^[TDBR]$/ { print $3 }' |
	grep -v '^_' | while read -r s; do grep -q "\\b$s\\b" "$stage/headers" || echo "$s"; done)
if [ -n "$leaked" ]; then
	echo "staged_install: libinfsim.so exports symbols no installed header declares:"
	echo "$leaked" | head -n 20
	exit 1
fi
echo "staged_install: $n headers alone (C, C++), embed (C, C++), exports match the headers"
