#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/ar_roots.sh: Figs 8 and 9 as infsim measures them: every
# workload under the three root policies (naive, tid, addr) at sizes
# whose arrays cover all 16 cubes (doc/ACTIVE-ROUTING.md, "Figs 8 and 9"),
# printing the cycles and the mean Update round trip (request + stall +
# response).  About 15 s on one core.
#   sh bench/ar_roots.sh [INFSIM] [SAMPLES_DIR]
set -eu
infsim=${1:-./infsim}
dir=${2:-samples/ar}
run() {
	name=$1; shift
	for root in naive tid addr; do
		printf '%-12s %-5s ' "$name" "$root"
		"$infsim" ar "$dir/$name.ar" --root=$root -q --stats "$@" | awk '
			/^[^ ]/ { t = $1 == "totals:"; f = $1 == "Fig" && $2 == "9" }
			t && $1 == "cycles" { cyc = $2 }
			f { for (i = 1; i < NF; i++) {
				if ($i == "request") req = $(i + 1)
				if ($i == "stall") st = $(i + 1)
				if ($i == "response") resp = $(i + 1)
				if ($i == "round" && $(i + 1) == "trip") tot = $(i + 2)
			} }
			END { printf "cycles %9d  round trip %8.1f = %.1f + %.1f + %.1f\n",
			      cyc, tot, req, st, resp }'
	done
}
run reduce -D N=65536
run rand_reduce -D N=65536
run mac -D N=65536
run rand_mac -D N=65536
run spmv -D N=512 -D K=64
run backprop -D IN=16384
run sgemm -D N=128
run lud -D N=128
run pagerank -D V=16384
