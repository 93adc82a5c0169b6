#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench/nsc_gap.py: where NSC Fig 12's traffic goes, by mechanism.

    python3 bench/nsc_gap.py [--infsim ./infsim] [--samples samples/nsc] [-- OPTION...]

Runs each workload of samples/nsc/ as bench/nsc_traffic.sh does (64 B
interleave, --cache=512, core at tile 0) with `--stats=json`, and prints:

1. the offloaded run's byte-hops split by mechanism (each kind of
   message, from `messages.KIND_byte_hops`), as shares of the total, and
   the mean ratio offload / core-only;
2. the mean ratio of variant runs, each of which removes or changes one
   mechanism (--nest=off, --range=64, --range=128, --sync=free, ...), and
   the mean ratio with a mechanism's byte-hops taken out of the offloaded
   run (what it would be if those messages cost nothing).

OPTIONs after `--` go to every run (`-- --range=128`: the table at R = 128).

A measurement, not a test (doc/STREAMS.md, "Next to NSC Fig 12").
"""
import argparse
import json
import subprocess
import sys

WORKLOADS = ("histogram pathfinder hotspot hotspot3d srad scluster svm bfs_push sssp pr_push "
             "bfs_pull pr_pull bin_tree hash_join").split()

# mechanisms: their kinds of message (data is split by class below)
GROUPS = [
    ("range-sync (credit, done, commit, range)", ["credit", "done", "commit", "range"]),
    ("configuration (config, instance, end)", ["config", "instance", "end"]),
    ("migrate", ["migrate"]),
    ("forward", ["forward"]),
    ("values between banks", ["data_offload"]),
    ("values to/from the core", ["data_core"]),
    ("the core's requests, lines, writebacks", ["request", "line", "writeback"]),
]

VARIANTS = [
    ("as given (defaults: nested, R = 8)", []),
    ("--nest=off", ["--nest=off"]),
    ("--sync=free", ["--sync=free"]),
    ("--range=64", ["--range=64"]),
    ("--range=128", ["--range=128"]),
    ("--range=128 --sync=free", ["--range=128", "--sync=free"]),
]


def run(infsim, path, extra):
    out = subprocess.run([infsim, "nsc", path, "--cache=512", "--interleave=64", "--core=0", "--stats=json",
                          "-q"] + extra, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def kinds(d):
    m = d["messages"]
    t = d["traffic"]["offload"]
    k = {x[: -len("_byte_hops")]: v for x, v in m.items() if x.endswith("_byte_hops")}
    # data messages to or from the core are Fig 12's data class with lines
    # and writebacks; the rest of the data kind moved between banks
    core = t["fig12_byte_hops_data"] - k["line"] - k["writeback"]
    k["data_core"] = core
    k["data_offload"] = k["data"] - core
    return k


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--infsim", default="./infsim")
    ap.add_argument("--samples", default="samples/nsc")
    ap.add_argument("extra", nargs="*", help="options for every run")
    a = ap.parse_args()
    base = {}
    print("offloaded run's byte-hops by mechanism (share of its total), %s" % (" ".join(a.extra) or "defaults"))
    print("%-11s %7s" % ("workload", "ratio") + "".join(" %7s" % g[0].split()[0][:7] for g in GROUPS))
    shares = {g[0]: [] for g in GROUPS}
    for w in WORKLOADS:
        d = run(a.infsim, "%s/%s.nsc" % (a.samples, w), a.extra)
        base[w] = d
        k = kinds(d)
        tot = d["traffic"]["offload"]["byte_hops"]
        row = []
        for name, ks in GROUPS:
            s = sum(k[x] for x in ks) / tot if tot else 0.0
            shares[name].append(s)
            row.append(s)
        print("%-11s %7.3f" % (w, d["traffic"]["byte_hops_ratio"]) + "".join(" %6.1f%%" % (100 * s) for s in row))
    n = len(WORKLOADS)
    print("mean share: " + "; ".join("%s %.1f%%" % (g, 100 * sum(v) / n) for g, v in shares.items()))
    print()
    print("mean ratio offload / core-only (14 workloads)")
    for name, extra in VARIANTS:
        r = [run(a.infsim, "%s/%s.nsc" % (a.samples, w), a.extra + extra)["traffic"]["byte_hops_ratio"] if extra
             else base[w]["traffic"]["byte_hops_ratio"] for w in WORKLOADS]
        print("  %-28s %.3f (%+.0f%%)" % (name, sum(r) / n, 100 * (sum(r) / n - 1)))
    print("mean ratio with a mechanism's byte-hops taken out of the offloaded run")
    for name, ks in GROUPS:
        r = []
        for w in WORKLOADS:
            d = base[w]
            k = kinds(d)
            core = d["traffic"]["core_only"]["byte_hops"]
            r.append((d["traffic"]["offload"]["byte_hops"] - sum(k[x] for x in ks)) / core)
        print("  without %-40s %.3f (%+.0f%%)" % (name, sum(r) / n, 100 * (sum(r) / n - 1)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
