#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/fuzz/replay.sh: in `make check`, every fuzz target
# (tests/fuzz/fuzz_NAME.c) built with the normal compiler and replay.c's
# main(), run on its seed corpus and on every input that once crashed
# it (tests/fuzz/regress/NAME/).  Environment (set by the Makefile):
# CC, LIBTOOL, srcdir, builddir, FUZZ_CPPFLAGS (include paths), FUZZ_CFLAGS
# (warnings, sanitizers), FUZZ_DBG_LIBS (what a debugger target, one that
# includes fuzz_dbg.h, links besides dbg/libinfsdb.la), FUZZ_LIBS (the
# libraries every target links beyond the library's: xxHash and zstd,
# for the checkpoint readers).
set -eu
status=0
for target in "$srcdir"/tests/fuzz/fuzz_*.c; do
  name=$(basename "$target" .c | sed 's/^fuzz_//')
  exe="$builddir/fuzz/replay_$name"
  mkdir -p "$builddir/fuzz"
  dbg=""
  if grep -q '#include "fuzz_dbg.h"' "$target"; then
    dbg="$builddir/dbg/libinfsdb.la"
  fi
  # shellcheck disable=SC2086
  $LIBTOOL --mode=link --silent $CC $FUZZ_CPPFLAGS $FUZZ_CFLAGS \
    -o "$exe" "$target" "$srcdir/tests/fuzz/replay.c" $dbg "$builddir/libinfsim_core.la" \
    ${dbg:+$FUZZ_DBG_LIBS} ${FUZZ_LIBS:-} -lm
  dirs=""
  for d in "$srcdir/tests/fuzz/corpus/$name" "$srcdir/tests/fuzz/regress/$name"; do
    [ -d "$d" ] && dirs="$dirs $d"
  done
  if [ -z "$dirs" ]; then
    echo "FAIL: fuzz_$name has no corpus (tests/fuzz/corpus/$name)"
    status=1
    continue
  fi
  # shellcheck disable=SC2086
  if ! $LIBTOOL --mode=execute "$exe" $dirs; then
    echo "FAIL: fuzz_$name crashed on an input of $dirs"
    status=1
  fi
done
exit $status
