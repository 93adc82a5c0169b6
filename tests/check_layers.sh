#!/bin/sh
# SPDX-License-Identifier: MIT
# check_layers.sh: the arrows of doc/ARCHITECTURE.md hold.  Every
# `#include "x.h"` of a source file in a layer folder must name a header
# of its own folder or of a folder below it (a lower rank); two folders of
# one rank (the machine and the reference, the seed systems) never include
# each other, so no circle spans two folders.
#   sh tests/check_layers.sh [SRCDIR]
set -eu
top=${1:-${srcdir:-$(dirname "$0")/..}}
cd "$top"
# folder rank; the data flow runs from high ranks to low ones
ranks='lib 0
sram 1
isa 2
emu/layout 3
emu/ptx 3
emu/target 1
emu/stream 4
emu/machine 5
emu/ref 5
emu/nsc 5
emu/ar 5
emu/vima 5
emu/simt 5
emu/check 6
emu/tdfg 7
emu/report 7
emu/valid 8
emu/incache 9
emu/infsim 10
dbg 11'
rank_of() { printf '%s\n' "$ranks" | awk -v f="$1" '$1 == f { print $2 }'; }
# the folder that holds header $1 (names are unique in the tree)
home_of() {
	for d in $(printf '%s\n' "$ranks" | awk '{ print $1 }'); do
		[ -f "$d/$1" ] && { printf '%s\n' "$d"; return; }
	done
}
bad=0
for d in $(printf '%s\n' "$ranks" | awk '{ print $1 }'); do
	[ -d "$d" ] || continue
	r=$(rank_of "$d")
	for f in "$d"/*.c "$d"/*.h "$d"/*.def; do
		[ -f "$f" ] || continue
		for h in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
			[ "$h" = config.h ] && continue
			home=$(home_of "$h")
			if [ -z "$home" ]; then
				echo "$f: includes \"$h\", which no layer folder holds"
				bad=1
				continue
			fi
			[ "$home" = "$d" ] && continue
			hr=$(rank_of "$home")
			if [ "$hr" -ge "$r" ]; then
				echo "$f: includes \"$h\" from $home/ (rank $hr), not below $d/ (rank $r)"
				bad=1
			fi
		done
	done
done
[ "$bad" -eq 0 ] && echo "check_layers: every include runs down the data flow"
exit "$bad"
