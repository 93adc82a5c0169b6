#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/check_figures.sh: bench/figures.py --quick measures and draws
# every figure (doc/FIGURES.md) at small sizes: each has its table and
# its picture, and a second run writes the same tables, byte for byte
# (every figure is a count of the emulated machine, never a host time);
# doc/FIGURES.md shows every figure, and doc/figures/ has its picture.
# bench/figures/paper.json, where the papers' values are, parses and
# gives every value the paper's own words.
set -eu
top=${srcdir:-$(dirname "$0")/..}
b=${builddir:-.}
if ! command -v gnuplot >/dev/null 2>&1; then
  echo "check_figures: gnuplot is not installed (Debian: gnuplot-nox): skipped"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
top=$(cd "$top" && pwd)
b=$(cd "$b" && pwd)
# --out relative, as `make figures` gives it
fig() {
  (cd "$tmp" && python3 "$top/bench/figures.py" --infsim "$b/infsim" --ck-export "$b/tests/ck_export" --quick --out "$1")
}
fig a >/dev/null
fig b >/dev/null
n=0
for id in $(python3 "$top/bench/figures.py" --list); do
  [ -s "$tmp/a/$id.dat" ] || { echo "check_figures: no $id.dat"; exit 1; }
  grep -q '</svg>' "$tmp/a/$id.svg" || { echo "check_figures: $id.svg is not a whole SVG"; exit 1; }
  grep -q "^### .*($id)" "$tmp/a/figures.md" || { echo "check_figures: $id is not in figures.md"; exit 1; }
  cmp "$tmp/a/$id.dat" "$tmp/b/$id.dat" || { echo "check_figures: two runs of $id differ"; exit 1; }
  # and doc/FIGURES.md shows it, with its picture and table
  grep -q "^### .*($id)" "$top/doc/FIGURES.md" || { echo "check_figures: doc/FIGURES.md has no $id"; exit 1; }
  [ -s "$top/doc/figures/$id.svg" ] && [ -s "$top/doc/figures/$id.dat" ] ||
    { echo "check_figures: doc/figures/ lacks $id.svg or $id.dat"; exit 1; }
  grep -q "doc/figures/$id.svg" "$top/doc/local.mk" || { echo "check_figures: doc/local.mk does not ship $id.svg"; exit 1; }
  n=$((n + 1))
done
python3 - "$top/bench/figures/paper.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for fig in doc["figures"]:
    for v in fig.get("values", []):
        if not v.get("quote"):
            sys.exit("paper.json: %s: a value without the paper's words: %r" % (fig["id"], v))
PY
echo "check_figures: $n figures, each twice the same"
