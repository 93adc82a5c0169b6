#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench/vima_bench.py: VIMA's workloads at the paper's sizes (VIMA §IV-A)
and the Fig 5 sweep of the vector cache's line count (doc/VIMA.md).

    bench/vima_bench.py [--infsim PATH] [--out DIR] [--quick] [--sweep-only]

Runs `infsim vima` on samples/vima/*.vima with --stats=json and prints
Markdown tables: per workload and size, the instructions, cycles, vector
cache misses and write-backs, DRAM traffic and energy; then, for Stencil,
VecSum and MatMul at their largest sizes, the misses and cycles for 3 to 16
lines (Fig 5; a stencil instruction needs 3 lines at once).  The sweep's data goes to OUT/vima_fig5.dat, a
picture to OUT/vima_fig5.svg and, when gnuplot is installed, OUT/vima_fig5.png.  --quick runs the
4 MB sizes only (and the sweep at 16 MB).  Not a test: `make bench-vima`.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLES = os.path.join(HERE, "..", "samples", "vima")

# name -> list of (size label, defines); the paper's 4, 16 and 64 MB data
# sets (MatMul: 24 MB, the one size whose rows are whole 8 KB vectors).
SIZES = {
    "memset": [("4MB", {"N": 1 << 20}), ("16MB", {"N": 1 << 22}), ("64MB", {"N": 1 << 24})],
    "memcopy": [("4MB", {"N": 1 << 20}), ("16MB", {"N": 1 << 22}), ("64MB", {"N": 1 << 24})],
    "vecsum": [("4MB", {"N": 1 << 20}), ("16MB", {"N": 1 << 22}), ("64MB", {"N": 1 << 24})],
    "stencil": [("4MB", {"H": 256}), ("16MB", {"H": 1024}), ("64MB", {"H": 4096})],
    "matmul": [("24MB", {"n": 1024})],
    "knn": [("4MB", {"F": 32}), ("16MB", {"F": 128}), ("64MB", {"F": 512})],
    "mlp": [("8MB", {"F": 64}), ("32MB", {"F": 256}), ("128MB", {"F": 1024})],
}
SWEEP = ["stencil", "vecsum", "matmul"]


def run(infsim, name, defines, lines=None):
    with tempfile.TemporaryDirectory() as tmp:
        stats = os.path.join(tmp, "stats.json")
        cmd = [infsim, "vima", os.path.join(SAMPLES, name + ".vima"),
               "--stats=json", "--stats-file=" + stats, "-q"]
        cmd += ["-D%s=%d" % kv for kv in defines.items()]
        if lines:
            cmd.append("--lines=%d" % lines)
        t0 = time.time()
        subprocess.run(cmd, check=True)
        wall = time.time() - t0
        with open(stats) as f:
            return flat(json.load(f)), wall


def flat(tree):
    """The counters of infsim's statistics tree by their own names (the
    groups totals, vector_cache, dram, ...); energy_pj the total."""
    s = {}
    for group in tree.values():
        if isinstance(group, dict):
            s.update((k, v) for k, v in group.items() if not isinstance(v, (dict, list)))
    s["energy_pj"] = tree["totals"]["energy_pj"]
    return s


def workloads(infsim, quick):
    print("| workload | size | instructions | cycles | read misses | write-backs "
          "| DRAM MB | energy uJ | host s |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, sizes in SIZES.items():
        for label, defines in sizes[:1] if quick else sizes:
            s, wall = run(infsim, name, defines)
            mb = (s["dram_read_bytes"] + s["dram_write_bytes"]) / 2**20
            print("| %s | %s | %d | %d | %d | %d | %.1f | %.1f | %.1f |" % (
                name, label, s["instructions"], s["cycles"], s["read_misses"],
                s["writebacks"], mb, s["energy_pj"] / 1e6, wall))
            sys.stdout.flush()


def sweep(infsim, out, quick):
    rows = []
    print("\n| lines | " + " | ".join("%s misses | %s cycles" % (n, n) for n in SWEEP) + " |")
    print("|---:|" + "---:|---:|" * len(SWEEP))
    for lines in range(3, 17):
        row = [lines]
        for name in SWEEP:
            label, defines = SIZES[name][1 if quick and len(SIZES[name]) > 1 else -1]
            s, _ = run(infsim, name, defines, lines)
            row += [s["read_misses"] + s["write_misses"], s["cycles"]]
        rows.append(row)
        print("| " + " | ".join(str(v) for v in row) + " |")
        sys.stdout.flush()
    dat = os.path.join(out, "vima_fig5.dat")
    with open(dat, "w") as f:
        f.write("# lines " + " ".join("%s_misses %s_cycles" % (n, n) for n in SWEEP) + "\n")
        for row in rows:
            f.write(" ".join(str(v) for v in row) + "\n")
    svg = os.path.join(out, "vima_fig5.svg")
    with open(svg, "w") as f:
        f.write(svg_plot(rows))
    print("\npicture: " + svg)
    if shutil.which("gnuplot"):
        png = os.path.join(out, "vima_fig5.png")
        plot = ", ".join("'%s' using 1:%d with linespoints title '%s'" % (dat, 2 + 2 * i, n)
                         for i, n in enumerate(SWEEP))
        script = ("set terminal png size 800,500; set output '%s'; set logscale y; "
                  "set xlabel 'vector cache lines (8 KB each)'; set ylabel 'misses'; "
                  "set title 'VIMA Fig 5: misses against cache lines'; plot %s" % (png, plot))
        subprocess.run(["gnuplot", "-e", script], check=True)
        print("\npicture: " + png)
    else:
        print("\n(gnuplot is not installed: the data is in %s)" % dat)


def svg_plot(rows):
    """Misses against lines, one line per workload, log scale: an SVG with
    no dependency (gnuplot draws a PNG too when it is installed)."""
    import math
    w, h, left, bottom, top, right = 640, 400, 70, 50, 30, 130
    xs = [r[0] for r in rows]
    ys = [v for r in rows for v in r[1::2]]
    lo, hi = math.log10(min(ys)) - 0.1, math.log10(max(ys)) + 0.1
    def px(x):
        return left + (x - xs[0]) * (w - left - right) / (xs[-1] - xs[0])
    def py(y):
        return h - bottom - (math.log10(y) - lo) * (h - bottom - top) / (hi - lo)
    colours = ["#d62728", "#1f77b4", "#2ca02c"]
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="sans-serif" font-size="12">' % (w, h),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="18" text-anchor="middle">VIMA Fig 5: vector cache misses '
           'against lines (8 KB each)</text>' % (w // 2)]
    out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (
        left, h - bottom, w - right, h - bottom))
    out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (
        left, top, left, h - bottom))
    for x in xs:
        out.append('<text x="%.1f" y="%d" text-anchor="middle">%d</text>' % (px(x), h - bottom + 16, x))
    for e in range(int(math.ceil(lo)), int(math.floor(hi)) + 1):
        out.append('<text x="%d" y="%.1f" text-anchor="end">1e%d</text>' % (left - 6, py(10 ** e) + 4, e))
        out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>' % (
            left, py(10 ** e), w - right, py(10 ** e)))
    out.append('<text x="%d" y="%d" text-anchor="middle">lines</text>' % ((left + w - right) // 2, h - 12))
    out.append('<text x="16" y="%d" transform="rotate(-90 16 %d)" text-anchor="middle">misses</text>'
               % (h // 2, h // 2))
    for i, name in enumerate(SWEEP):
        pts = " ".join("%.1f,%.1f" % (px(r[0]), py(r[1 + 2 * i])) for r in rows)
        out.append('<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>' % (colours[i], pts))
        out.append('<text x="%d" y="%d" fill="%s">%s</text>' % (w - right + 10, top + 20 + 18 * i,
                                                                 colours[i], name))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--infsim", default=os.path.join(HERE, "..", "infsim"))
    ap.add_argument("--out", default=".")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--sweep-only", action="store_true")
    ap.add_argument("--plot", metavar="DAT", help="only draw DAT (a vima_fig5.dat) as SVG")
    a = ap.parse_args()
    if a.plot:
        with open(a.plot) as f:
            rows = [[int(v) for v in l.split()] for l in f if not l.startswith("#")]
        sys.stdout.write(svg_plot(rows))
        return
    if not a.sweep_only:
        workloads(a.infsim, a.quick)
    sweep(a.infsim, a.out, a.quick)


if __name__ == "__main__":
    main()
