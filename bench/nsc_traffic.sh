#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/nsc_traffic.sh: the NoC traffic of each near-stream workload
# (samples/nsc/) with its streams offloaded and with every stream at the
# core, by class (offloaded, control, data: NSC Fig 12, Infinity Stream
# Fig 13), and their ratio (NSC Fig 1b, Fig 12); doc/STREAMS.md discusses
# the figures.  A measurement, not a test.
#   sh bench/nsc_traffic.sh [INFSIM] [SAMPLES_DIR] [EXTRA OPTION]...
# The private cache is scaled with the workloads (--cache=512, about
# 1/1000 of Table VI); run once with 64 B interleave (NSC) and once with
# 1 kB (Infinity Stream).  "free" is the ratio with --sync=free (no range
# or commit messages: NSC's NS_decouple, Fig 12); "moved" is the data
# moved (offloaded + data classes) against the core-only data class, the
# pure data traffic of NSC Fig 1b.
set -eu
infsim=${1:-./infsim}
dir=${2:-samples/nsc}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] && shift
workloads="histogram pathfinder hotspot srad svm bfs_push sssp pr_push bfs_pull pr_pull bin_tree hash_join"
# "traffic offload byte-hops T (offloaded O, control C, data D)" -> T O C D
hops() {
	sed -n "s/^traffic $1 *byte-hops \([0-9]*\) (offloaded \([0-9]*\), control \([0-9]*\), data \([0-9]*\))/\1 \2 \3 \4/p"
}
for il in 64 1024; do
	echo "interleave $il B: byte-hops on the 8x8 mesh, offload (offloaded/control/data) vs core only"
	printf '%-11s %10s %9s %9s %9s %10s %9s %9s %6s %6s %6s %6s\n' workload offload offl ctrl data core-only ctrl data ratio free moved uops%
	for w in $workloads; do
		out=$("$infsim" nsc "$dir/$w.nsc" --cache=512 --interleave="$il" --stats -q "$@")
		read -r t o c d <<-END
		$(printf '%s\n' "$out" | hops offload)
		END
		read -r bt bo bc bd <<-END
		$(printf '%s\n' "$out" | hops core-only)
		END
		ratio=$(printf '%s\n' "$out" | sed -n 's/^byte-hops offload \/ core-only //p')
		uops=$(printf '%s\n' "$out" | sed -n 's/^uops at the banks .*(\(.*\)%)/\1/p')
		free=$("$infsim" nsc "$dir/$w.nsc" --cache=512 --interleave="$il" --sync=free --stats -q "$@" |
			sed -n 's/^byte-hops offload \/ core-only //p')
		moved=$(awk "BEGIN { printf \"%.3f\", ($o + $d) / $bd }")
		printf '%-11s %10s %9s %9s %9s %10s %9s %9s %6s %6s %6s %6s\n' "$w" "$t" "$o" "$c" "$d" "$bt" "$bc" "$bd" "$ratio" "$free" "$moved" "$uops"
	done | tee "${TMPDIR:-/tmp}/nsc_traffic.$$"
	# the mean reduction, as the papers average their workloads
	awk '{ r += $9; f += $10; m += $11; n++ } END { if (n) printf "mean ratio %.3f (%+.0f%%), sync-free %.3f (%+.0f%%), data moved %.3f (%+.0f%%)\n", r / n, 100 * (r / n - 1), f / n, 100 * (f / n - 1), m / n, 100 * (m / n - 1) }' \
		"${TMPDIR:-/tmp}/nsc_traffic.$$"
	rm -f "${TMPDIR:-/tmp}/nsc_traffic.$$"
	echo
done
