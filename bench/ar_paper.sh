#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/ar_paper.sh: the Active-Routing workloads of Table II at the
# paper's sizes where a functional run is practical, under ART-tid and
# ART-addr, printing the Fig 10 ratios against PEI (doc/ACTIVE-ROUTING.md).
#   sh bench/ar_paper.sh [INFSIM] [SAMPLES_DIR]
# sgemm and lud run at 512 and 256 (4096 would be 4.3e9 and 1.4e9
# Updates); pagerank at 65536 vertices of in-degree 8.
set -eu
infsim=${1:-./infsim}
dir=${2:-samples/ar}
run() {
	name=$1; shift
	for root in tid addr; do
		printf '%-12s %-5s ' "$name" "$root"
		"$infsim" ar "$dir/$name.ar" --root=$root -q --stats "$@" |
			sed -n 's/^Fig 10 (Active-Routing \/ PEI): //p'
	done
}
run reduce -D N=6553600
run rand_reduce -D N=6553600
run mac -D N=6553600
run rand_mac -D N=6553600
run spmv -D N=4096 -D K=1232
run backprop -D IN=2097152
run sgemm -D N=512
run lud -D N=256
run pagerank -D V=65536
