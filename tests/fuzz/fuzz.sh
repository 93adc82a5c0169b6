#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/fuzz/fuzz.sh: `make fuzz`.  Builds every fuzz target
# (tests/fuzz/fuzz_NAME.c that has a seed corpus tests/fuzz/corpus/NAME/)
# with libFuzzer, AddressSanitizer and UndefinedBehaviorSanitizer against
# the library's sources, then runs each for FUZZ_TIME seconds, FUZZ_JOBS
# (the number of processors) at a time.  The corpus grows in the build folder (fuzz/corpus/NAME),
# crashes land in fuzz/crashes/NAME/: copy each into
# tests/fuzz/regress/NAME/, where `make check` replays it for ever.
# Environment (set by the Makefile): FUZZ_CC, FUZZ_WHY (why fuzzing is
# off, if it is), FUZZ_TIME, FUZZ_TARGETS (names; all when empty),
# FUZZ_OPT (-O1 unless set; -O0 compiles several times faster on a
# loaded machine, and fuzzes slower), FUZZ_LIB_SOURCES, FUZZ_DBG_SOURCES (dbg/ but main.c, for the targets
# that include fuzz_dbg.h, with FUZZ_DBG_LIBS), FUZZ_CPPFLAGS, FUZZ_LIBS
# (libraries to link), srcdir, builddir.
set -eu
if [ -z "${FUZZ_CC:-}" ]; then
  echo "make fuzz: fuzzing is off: ${FUZZ_WHY:-configure found no clang with -fsanitize=fuzzer}"
  exit 0
fi
out="$builddir/fuzz"
mkdir -p "$out/obj"
# An object depends on headers too: when any header of the tree is newer
# than the last build, every object is built again (a stale object with
# an old structure's layout reads garbage).
if [ -f "$out/obj/.built" ] &&
   [ -n "$(find "$srcdir" -name '*.h' -newer "$out/obj/.built" -print | head -1)" ]; then
  rm -f "$out"/obj/*.o
fi
flags="-g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined -std=gnu17"
incs="$FUZZ_CPPFLAGS"
# compile SOURCES... into $out/obj (once, again when a source is newer),
# FUZZ_JOBS at a time (the number of processors unless set); the
# objects' names in $built
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
compile() {
  built=""
  stale=""
  for src in "$@"; do
    case "$src" in *.c) ;; *) continue ;; esac
    obj="$out/obj/$(echo "$src" | tr / _ | sed 's/\.c$/.o/')"
    if [ ! -f "$obj" ] || [ "$srcdir/$src" -nt "$obj" ]; then
      stale="$stale $src"
    fi
    built="$built $obj"
  done
  [ -n "$stale" ] || return 0
  # The micro-op executors (sram/sram_exec.c, sram/sram_block.c: the
  # vector kernels of every micro-op, inlined per width) are built with
  # AddressSanitizer but not UndefinedBehaviorSanitizer: with both, clang
  # takes over half an hour on them at -O1 (a minute of CPU with ASan
  # alone), and at -O0 they run too slowly for the targets that execute
  # programs.  The sanitizer suite (make check, gcc) runs them under both.
  # shellcheck disable=SC2086
  printf '%s\n' $stale | xargs -P "$jobs" -I{} sh -c '
    obj="$1/obj/$(echo "$2" | tr / _ | sed "s/\\.c\$/.o/")"
    case "$2" in sram/sram_exec.c|sram/sram_block.c) nub=-fno-sanitize=undefined ;; *) nub= ;; esac
    exec $3 $7 $4 $nub -fsanitize=fuzzer-no-link $5 -c "$6/$2" -o "$obj"' \
    sh "$out" {} "$FUZZ_CC" "$flags" "$incs" "$srcdir" "${FUZZ_OPT:--O1}"
}
# shellcheck disable=SC2086
compile $FUZZ_LIB_SOURCES
objs="$built"
# shellcheck disable=SC2086
compile ${FUZZ_DBG_SOURCES:-}
dbg_objs="$built"
touch "$out/obj/.built"
# Link every target first, then fuzz FUZZ_JOBS of them at a time (each
# on one core for FUZZ_TIME seconds, as if alone): the run takes
# FUZZ_TIME times the targets over the cores, not the targets' sum.
names=""
for target in "$srcdir"/tests/fuzz/fuzz_*.c; do
  name=$(basename "$target" .c | sed 's/^fuzz_//')
  [ -d "$srcdir/tests/fuzz/corpus/$name" ] || { echo "fuzz $name: no seed corpus tests/fuzz/corpus/$name, skipped"; continue; }
  if [ -n "${FUZZ_TARGETS:-}" ] && ! echo " $FUZZ_TARGETS " | grep -q " $name "; then
    continue
  fi
  extra=""
  if grep -q '#include "fuzz_dbg.h"' "$target"; then
    extra="$dbg_objs ${FUZZ_DBG_LIBS:-}"
  fi
  # shellcheck disable=SC2086
  $FUZZ_CC ${FUZZ_OPT:--O1} $flags -fsanitize=fuzzer $incs "$target" $objs $extra ${FUZZ_LIBS:-} -lm -o "$out/fuzz_$name"
  mkdir -p "$out/corpus/$name" "$out/crashes/$name"
  names="$names $name"
done
# fuzz NAME: its log in fuzz_NAME.log, "0" or "1" (crashed) in fuzz_NAME.rc
fuzz_one() {
  rc=0
  (cd "$out/crashes/$1" && "$out/fuzz_$1" -max_total_time="$FUZZ_TIME" \
      -timeout=20 -rss_limit_mb=2048 -max_len=8192 -print_final_stats=1 \
      -artifact_prefix="$out/crashes/$1/" \
      "$out/corpus/$1" "$srcdir/tests/fuzz/corpus/$1" > "$out/fuzz_$1.log" 2>&1) || rc=1
  echo "$rc" > "$out/fuzz_$1.rc"
}
echo "fuzz: ${FUZZ_TIME}s per target, $jobs at a time:$names"
running=0
for name in $names; do
  fuzz_one "$name" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then
    wait
    running=0
  fi
done
wait
status=0
failed=""
for name in $names; do
  log="$out/fuzz_$name.log"
  if [ "$(cat "$out/fuzz_$name.rc")" != 0 ]; then
    echo "fuzz $name: FOUND A CRASH; see $log and $out/crashes/$name/"
    # What the sanitizer said, so that a CI log alone names the bug.
    sed -n '/==ERROR\|runtime error\|ALARM\|out-of-memory\|deadly signal/,$p' "$log" | head -60 | sed "s/^/  | /"
    for f in "$out/crashes/$name"/*; do
      [ -f "$f" ] && { echo "  input $(basename "$f"), base64:"; head -c 4096 "$f" | base64 | sed "s/^/  | /"; }
    done
    status=1
    failed="$failed $name"
  else
    echo "fuzz $name: no crash"
  fi
  grep -E '^#[0-9]+.*DONE|stat::number_of_executed_units|stat::peak_rss_mb' "$log" | sed "s/^/  /" || true
done
# Named again last: a CI log often keeps only its tail.
if [ -n "$failed" ]; then
  for name in $failed; do
    echo "fuzz $name: FAILED; what it said:"
    sed -n '/==ERROR\|runtime error\|ALARM\|out-of-memory\|deadly signal/,$p' "$out/fuzz_$name.log" | head -25 | sed "s/^/  | /"
  done
fi
exit $status
