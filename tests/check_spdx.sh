#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/check_spdx.sh [SRCDIR]: fail when a source file (C, headers,
# .def tables, shell scripts, automake fragments, CUDA and OpenCL
# kernels) lacks an "SPDX-License-Identifier: MIT" line in its first five
# lines.  Run by `make check` in a git checkout (the files git tracks);
# skipped elsewhere.
set -eu
top=${1:-${srcdir:-$(dirname "$0")/..}}
cd "$top"
git rev-parse --is-inside-work-tree >/dev/null 2>&1 ||
  { echo "check_spdx: not a git checkout, skipped"; exit 77; }
missing=0
for f in $(git ls-files '*.c' '*.h' '*.def' '*.sh' '*.mk' 'Makefile.am' 'configure.ac' '*.cu' '*.cl' \
           '.ci/*' '*.py'); do
  if ! head -n 5 "$f" | grep -q 'SPDX-License-Identifier: MIT'; then
    echo "$f: no SPDX-License-Identifier: MIT line"
    missing=$((missing + 1))
  fi
done
if [ "$missing" -gt 0 ]; then
  echo "check_spdx: $missing file(s) without a licence line"
  exit 1
fi
echo "check_spdx: every source file names its licence"
