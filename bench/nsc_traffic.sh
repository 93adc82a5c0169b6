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
# moved (the offloaded class without its coordination messages, and the
# data class) against the core-only data class, the pure data traffic of
# NSC Fig 1b; "sync%" the share of range-sync (credit, done, commit,
# range) in the offloaded run's byte-hops (NSC: 11%).  Classes are Fig
# 12's (`--stats=json`'s fig12_ keys; doc/STREAMS.md, "Messages").
set -eu
infsim=${1:-./infsim}
dir=${2:-samples/nsc}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] && shift
workloads="histogram pathfinder hotspot hotspot3d srad scluster svm bfs_push sssp pr_push bfs_pull pr_pull bin_tree hash_join"
# The numbers of one run, from `--stats=json` (Fig 12's classes, the
# fig12_ keys): total, offloaded, control, data byte-hops with offload,
# the same at the core only, the ratio, the µops at the banks (percent),
# and the range-sync byte-hops.
nums() {
	python3 -c '
import json, sys
d = json.load(sys.stdin)
t = d["traffic"]
o, b = t["offload"], t["core_only"]
k = ["byte_hops", "fig12_byte_hops_offloaded", "fig12_byte_hops_control", "fig12_byte_hops_data"]
print(*[o[x] for x in k], *[b[x] for x in k], "%.3f" % t["byte_hops_ratio"],
      "%.1f" % d["streams"]["uops_bank_percent"], o["byte_hops_sync"], o["byte_hops_coordination"])'
}
for il in 64 1024; do
	echo "interleave $il B: byte-hops on the 8x8 mesh, offload (offloaded/control/data) vs core only"
	printf '%-11s %10s %9s %9s %9s %10s %9s %9s %6s %6s %6s %6s %6s\n' workload offload offl ctrl data core-only ctrl data ratio free moved uops% sync%
	for w in $workloads; do
		[ -f "$dir/$w.nsc" ] || continue
		read -r t o c d bt bo bc bd ratio uops sync coord <<-END
		$("$infsim" nsc "$dir/$w.nsc" --cache=512 --interleave="$il" --stats=json -q "$@" | nums)
		END
		read -r _ _ _ _ _ _ _ _ free _ _ _ <<-END
		$("$infsim" nsc "$dir/$w.nsc" --cache=512 --interleave="$il" --sync=free --stats=json -q "$@" | nums)
		END
		moved=$(awk "BEGIN { printf \"%.3f\", ($o - $coord + $d) / $bd }")
		printf '%-11s %10s %9s %9s %9s %10s %9s %9s %6s %6s %6s %6s %6s\n' "$w" "$t" "$o" "$c" "$d" "$bt" "$bc" "$bd" "$ratio" "$free" "$moved" "$uops" \
			"$(awk "BEGIN { printf \"%.1f\", 100 * $sync / $t }")"
	done | tee "${TMPDIR:-/tmp}/nsc_traffic.$$"	done | tee "${TMPDIR:-/tmp}/nsc_traffic.$$"
	# the mean reduction, as the papers average their workloads
	awk '{ r += $9; f += $10; m += $11; n++ } END { if (n) printf "mean ratio %.3f (%+.0f%%), sync-free %.3f (%+.0f%%), data moved %.3f (%+.0f%%)\n", r / n, 100 * (r / n - 1), f / n, 100 * (f / n - 1), m / n, 100 * (m / n - 1) }' \
		"${TMPDIR:-/tmp}/nsc_traffic.$$"
	rm -f "${TMPDIR:-/tmp}/nsc_traffic.$$"
	echo
done
