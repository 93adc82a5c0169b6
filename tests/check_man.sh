#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/check_man.sh [SRCDIR]: the man pages (doc/*.1) hold no control
# characters (a font escape such as \fI written through a language that
# reads "\f" as a form feed turns into one, and man then shows garbage),
# and, where groff is installed, format with no warning (groff -ww).
set -eu
top=${1:-${srcdir:-$(dirname "$0")/..}}
bad=0
for f in "$top"/doc/*.1; do
  if LC_ALL=C grep -n "$(printf '[\001-\010\013\014\016-\037]')" "$f" >/dev/null; then
    LC_ALL=C grep -n "$(printf '[\001-\010\013\014\016-\037]')" "$f" | sed "s|^|$f:|" | cat -v
    echo "$f: control characters (see the lines above)"
    bad=$((bad + 1))
  fi
  if command -v groff >/dev/null 2>&1; then
    out=$(groff -man -ww -z "$f" 2>&1 || true)
    if [ -n "$out" ]; then
      echo "$out"
      echo "$f: groff warns"
      bad=$((bad + 1))
    fi
  fi
done
[ "$bad" -eq 0 ] || exit 1
echo "check_man: every man page is clean"
