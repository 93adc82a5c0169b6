#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench/workloads.py: Table 3's in-memory workloads at the paper's sizes.

For each workload of samples/workloads/ in fp32 and int32 it
  1. runs the sample at the paper's size: its size parameters given with
     -D (doc/TDFG.md, "Parameters"), on the default machine with 512
     wordlines, 1024 for dwt2d fp32, since fp32 commands need 124
     scratch rows (-m, which wins over the sample's machine line),
  2. has bench/workload_case write random inputs and the plain C kernel's
     result, and time the kernel,
  3. runs infsim on it, plain and with --check, with -l and -e: the run
     fails unless every array matches the C kernel bit for bit; records
     the wall time and peak memory (/usr/bin/time), the statistics
     (--stats=json: Fig 14's cycles, Figs 12 and 13's traffic),
then writes OUT/workloads.md (the table), OUT/fig14.dat, OUT/fig13.dat
and, with gnuplot (Debian: gnuplot-nox), OUT/fig14.svg and OUT/fig13.svg.
  --sweep: the tile sweep of Figs 16 and 17 for the 2-d and 3-d workloads
  instead: cycles for every tile the machine accepts, and the JIT's pick.
  --small: the samples' sizes (a quick look; make check runs them).
  --scale=F: F times the paper's sizes (0.25, 0.5: to extrapolate a run
  too long for the machine at hand).
  --threads=N: infsim -j N (on a loaded host, -j 1 avoids the executor's
  threads waiting for each other at every command).

usage: workloads.py INFSIM WORKLOAD_CASE SAMPLES OUT [--sweep] [--small]
                    [--scale=F] [--threads=N] [--no-check] [NAME[_f32|_i32] ...]
"""
import json
import os
import re
import shutil
import subprocess
import sys

NAMES = ["vec_add", "array_sum", "stencil1d", "stencil2d", "stencil3d", "dwt2d",
         "gauss_elim", "conv2d", "conv3d", "mm_outer", "mm_inner", "gather_mlp_out",
         "gather_mlp_in", "kmeans_out", "kmeans_in"]

# Workloads with strm nodes (doc/TDFG.md, "strm nodes"): they run on
# bench/workload_case's seeded inputs and are compared with its C kernels
# (bench/strm_case.c) at every size.
STRM = {"gather_mlp_out", "gather_mlp_in", "kmeans_out", "kmeans_in"}

# Table 3's sizes: the -D values of each sample's parameters.
PAPER = {
    "vec_add": {"N": 4194304},
    "array_sum": {"N": 4194304},
    "stencil1d": {"N": 4194304},
    "stencil2d": {"W": 2048, "H": 2048},
    "stencil3d": {"N0": 512, "N1": 512, "N2": 16},
    "dwt2d": {"N": 1024},
    "gauss_elim": {"N": 2048},
    "conv2d": {"W": 2048, "H": 2048},
    "conv3d": {"S": 256, "C": 64},
    "mm_outer": {"N": 2048},
    "mm_inner": {"N": 2048},
    # M = 32k points, N = K = 128: every array on the (128, 32768) lattice
    # (W uses its first 128 columns: arrays have their region's sizes).
    "gather_mlp_out": {"K": 128, "M": 32768},
    # The same lattice; a run of the products' region computes column j of
    # Y for every m; tiles of 64 along k leave two partials per sum, which
    # the banks add (the final reduce near memory).
    "gather_mlp_in": {"K": 128, "M": 32768, "TK": 64, "TM": 4},
    # kmeans: 32k points, D = K = 128, every array on the (128, 32768)
    # lattice (C, S and the counts use its first 128 columns); the tile
    # covers d (T = 128 on 256-bitline arrays, two points a tile), so the
    # inner products need no final reduce.
    "kmeans_out": {"K": 128, "N": 32768, "TN": 2},
    "kmeans_in": {"K": 128, "N": 32768, "TN": 2},
}

# The sizes bench/workload_case takes (tests/kernels/cases.h, wk_size)
# from the parameters: dwt2d's image has twice the side of its parts.
CASE_SIZE = {
    "vec_add": lambda d: [d["N"]], "array_sum": lambda d: [d["N"]],
    "stencil1d": lambda d: [d["N"]], "stencil2d": lambda d: [d["W"], d["H"]],
    "stencil3d": lambda d: [d["N0"], d["N1"], d["N2"]], "dwt2d": lambda d: [2 * d["N"]],
    "gauss_elim": lambda d: [d["N"]], "conv2d": lambda d: [d["W"], d["H"]],
    "conv3d": lambda d: [d["S"], d["C"], d["C"]], "mm_outer": lambda d: [d["N"]],
    "mm_inner": lambda d: [d["N"]],
}


# The parameters --scale leaves at the paper's value: kmeans' K is also
# the tile along d, which with TN fills the arrays' bitlines.
UNSCALED = {"kmeans_out": {"K", "TN"}, "kmeans_in": {"K", "TN"},
            "gather_mlp_in": {"K", "TK", "TM"}}


def paper_defs(name, scale):
    """The -D values at scale times Table 3's sizes (at least 4 each)."""
    keep = UNSCALED.get(name, set())
    return {k: v if k in keep else max(4, int(v * scale)) for k, v in PAPER[name].items()}


def define_args(defs):
    return sum((["-D", "%s=%d" % kv] for kv in sorted(defs.items())), [])


_DEFAULT_GEOM = []


def paper_machine(infsim, name, typ):
    """-m: the default machine with 512 wordlines (1024 for dwt2d f32),
    every key the samples' machine lines set given."""
    if not _DEFAULT_GEOM:
        p = subprocess.run([infsim, "info", "--json"], capture_output=True, text=True, check=True)
        _DEFAULT_GEOM.append(json.loads(p.stdout))
    g = _DEFAULT_GEOM[0]
    wl = 1024 if (name, typ) == ("dwt2d", "f32") else 512
    return ["-m", "wordlines=%d,bitlines=%d,arrays=%d,ways=%d,mesh=%dx%d" % (
        wl, g["bitlines"], g["arrays_per_way"], g["ways_per_bank"], g["mesh_x"], g["mesh_y"])]


# The 2-d and 3-d workloads of the sweep (Figs 16 and 17).
SWEEP = ["stencil2d", "stencil3d", "dwt2d", "conv2d", "gauss_elim", "mm_outer",
         "mm_inner", "conv3d"]

PARTS = ["transpose", "compute", "intra_tile_move", "inter_tile_move", "sync",
         "final_reduce", "jit", "near_mem", "mix"]
TRAFFIC = ["intra_tile_shift", "inter_tile_shift_bank", "inter_tile_shift_noc", "data",
           "stream_offload", "stream_control", "stream_data"]


def timed(cmd):
    """Run cmd under /usr/bin/time: (status, seconds, peak KiB, stdout, stderr)."""
    full = ["/usr/bin/time", "-f", "@@time %e %M"] + cmd
    p = subprocess.run(full, capture_output=True, text=True)
    m = re.search(r"@@time (\S+) (\S+)", p.stderr)
    err = re.sub(r"@@time .*\n?", "", p.stderr)
    return p.returncode, float(m.group(1)) if m else 0.0, int(m.group(2)) if m else 0, p.stdout, err


THREADS = []  # --threads=N: ["-j", N]


def size_opts(infsim, name, typ, small, scale):
    """The sample's -D and -m options at the size asked for, and the
    parameters' values (None: the sample's own)."""
    if small:
        return list(THREADS), None
    defs = paper_defs(name, scale)
    return define_args(defs) + paper_machine(infsim, name, typ) + THREADS, defs


# The strm workloads bench/workload_case has a C kernel for (strm_case.c):
# their size=KxN, from the parameters; the others run on the samples' data.
STRM_CASE = {"kmeans_in": ("K", "N"), "kmeans_out": ("K", "N"), "gather_mlp_out": ("K", "M"),
             "gather_mlp_in": ("K", "M", "TK")}


def run_strm(infsim, case, samples, out, name, typ, small, check, scale):
    """A workload with strm nodes: seeded inputs and the C kernel from
    bench/workload_case where it has one (the outputs saved, then compared
    there), else the sample's own data."""
    tdfg = os.path.join(samples, "%s_%s.tdfg" % (name, typ))
    if not small and PAPER[name] is None:
        return {"name": name, "type": typ, "error": "no paper size (see PAPER)"}
    opts, defs = size_opts(infsim, name, typ, small, scale)
    r = {"name": name, "type": typ, "kernel_s": 0.0}
    data = os.path.join(out, "data")
    os.makedirs(data, exist_ok=True)
    size = None
    if name in STRM_CASE:
        size = "small" if small else "size=" + "x".join(str(defs[k]) for k in STRM_CASE[name])
        p = subprocess.run([case, name, typ, data, size], capture_output=True, text=True)
        if p.returncode:
            return {"name": name, "type": typ, "error": p.stderr.strip()}
        kernel_s, args = p.stdout.rstrip("\n").split("\t")
        r["kernel_s"] = float(kernel_s)
        opts = args.split() + opts
    stats = os.path.join(out, "%s_%s.json" % (name, typ))
    st, sec, kib, so, se = timed([infsim, "run", tdfg, "-q", "--stats=json",
                                  "--stats-file=" + stats] + opts)
    r.update(plain_s=sec, plain_kib=kib, plain_ok=st == 0)
    if st:
        r["error"] = se.strip()
        return r
    r["stats"] = json.load(open(stats))
    if size:
        p = subprocess.run([case, "--compare", name, typ, data, size], capture_output=True,
                           text=True)
        r["c_ok"] = p.returncode == 0
        if p.returncode:
            r["error"] = p.stderr.strip()
            r["plain_ok"] = False
    if check:
        st, sec, kib, so, se = timed([infsim, "run", tdfg, "-q", "--check"] + opts)
        r.update(check_s=sec, check_kib=kib, check_ok=st == 0)
        if st:
            r["error"] = se.strip()
    for f in os.listdir(data):
        os.remove(os.path.join(data, f))
    return r


def run_one(infsim, case, samples, out, name, typ, small, check, scale):
    if name in STRM:
        return run_strm(infsim, case, samples, out, name, typ, small, check, scale)
    tdfg = os.path.join(samples, "%s_%s.tdfg" % (name, typ))
    opts, defs = size_opts(infsim, name, typ, small, scale)
    data = os.path.join(out, "data")
    os.makedirs(data, exist_ok=True)
    size = ["small"] if small else ["size=" + "x".join(map(str, CASE_SIZE[name](defs)))]
    p = subprocess.run([case, name, typ, data] + size, capture_output=True, text=True)
    if p.returncode:
        return {"name": name, "type": typ, "error": p.stderr.strip()}
    kernel_s, args = p.stdout.rstrip("\n").split("\t")
    args = args.split() + opts
    stats = os.path.join(out, "%s_%s.json" % (name, typ))
    r = {"name": name, "type": typ, "kernel_s": float(kernel_s)}
    st, sec, kib, so, se = timed([infsim, "run", tdfg, "-q", "--stats=json",
                                  "--stats-file=" + stats] + args)
    r.update(plain_s=sec, plain_kib=kib, plain_ok=st == 0)
    if st:
        r["error"] = se.strip()
        return r
    r["stats"] = json.load(open(stats))
    if check:
        st, sec, kib, so, se = timed([infsim, "run", tdfg, "-q", "--check"] + args)
        r.update(check_s=sec, check_kib=kib, check_ok=st == 0)
        if st:
            r["error"] = se.strip()
    for f in os.listdir(data):
        os.remove(os.path.join(data, f))
    return r


def mib(kib):
    return "%.0f" % (kib / 1024.0)


def table(results, out):
    lines = ["| workload | C kernel s | infsim s | ratio | peak MiB | --check s | peak MiB "
             "| bit-exact | cycles | on bitlines |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        label = "%s %s" % (r["name"], r["type"])
        if "stats" not in r:
            lines.append("| %s | | | | | | | failed: %s | | |" % (label, r.get("error", "")[:120]))
            continue
        p = r["stats"]["paper"]
        cyc = sum(p["cycles"][k] for k in PARTS if k != "jit")
        ratio = "%.0fx" % (r["plain_s"] / r["kernel_s"]) if r["kernel_s"] > 0 else "-"
        ok = r["plain_ok"] and r.get("check_ok", True)
        # Fig 14's dots: operations on elements, near-memory streams
        # included (doc/USAGE.md, "Operations on bitlines")
        bits = "%.1f%% (%d of %d)" % (100.0 * p["on_bitlines"] / p["ops"] if p["ops"] else 0.0,
                                      p["on_bitlines"], p["ops"])
        has_c = r["name"] not in STRM or "c_ok" in r
        lines.append("| %s | %s | %.2f | %s | %s | %s | %s | %s | %d | %s |" % (
            label, "%.3f" % r["kernel_s"] if has_c else "-", r["plain_s"], ratio,
            mib(r["plain_kib"]), "%.2f" % r["check_s"] if "check_s" in r else "-",
            mib(r["check_kib"]) if "check_kib" in r else "-",
            ("yes (C kernel%s)" % (", tDFG reference" if "check_s" in r else "") if has_c
             else "yes (tDFG reference; C kernel in make check)" if "check_s" in r
             else "-") if ok else "NO",
            cyc, bits))
    text = "\n".join(lines) + "\n"
    open(os.path.join(out, "workloads.md"), "w").write(text)
    return text


def plots(results, out):
    done = [r for r in results if "stats" in r]
    with open(os.path.join(out, "fig14.dat"), "w") as f:
        f.write("# workload " + " ".join(PARTS) + "  (fraction of the run's cycles)\n")
        for r in done:
            c = r["stats"]["paper"]["cycles"]
            tot = float(sum(c[k] for k in PARTS)) or 1.0
            f.write("%s_%s %s\n" % (r["name"], r["type"], " ".join("%.4f" % (c[k] / tot) for k in PARTS)))
    with open(os.path.join(out, "fig13.dat"), "w") as f:
        # bytes, not bytes x hops: a shift inside an array crosses no link,
        # and Fig 13's point is how much of the movement stays there
        f.write("# workload " + " ".join(TRAFFIC) + "  (bytes, fraction)\n")
        for r in done:
            t = r["stats"]["paper"]["traffic"]
            tot = float(sum(t[k]["bytes"] for k in TRAFFIC)) or 1.0
            f.write("%s_%s %s\n" % (r["name"], r["type"],
                                    " ".join("%.4f" % (t[k]["bytes"] / tot) for k in TRAFFIC)))
    if not shutil.which("gnuplot"):
        print("workloads.py: no gnuplot (Debian: gnuplot-nox): the pictures are not drawn; "
              "the data are in fig14.dat and fig13.dat")
        return
    for fig, cols, title in (("fig14", PARTS, "Fig 14: breakdown of cycles"),
                             ("fig13", TRAFFIC, "Fig 13: traffic (bytes)")):
        plot = ", ".join("'%s.dat' using %d%s title '%s'" % (fig, i + 2, ":xtic(1)" if i == 0 else "",
                                                             c.replace("_", " "))
                         for i, c in enumerate(cols))
        script = ("set terminal svg size 1000,500\nset output '%s.svg'\nset title '%s'\n"
                  "set termoption noenhanced\nset style data histograms\nset style histogram rowstacked\n"
                  "set style fill solid border -1\nset boxwidth 0.8\nset yrange [0:1]\n"
                  "set xtics rotate by -45\nset key outside right\nplot %s\n") % (fig, title, plot)
        open(os.path.join(out, fig + ".gp"), "w").write(script)
        subprocess.run(["gnuplot", fig + ".gp"], cwd=out, check=True)


def tiles(shape, bitlines):
    """Every tile of powers of two whose product is bitlines (a tile may
    be longer than its dimension: the machine refuses what it cannot lay
    out, and the JIT's cost model considers them too)."""
    res = []

    def rec(k, left, cur):
        if k == len(shape) - 1:
            res.append(cur + [left])
            return
        t = 1
        while t <= left:
            rec(k + 1, left // t, cur + [t])
            t *= 2
    rec(0, bitlines, [])
    return res


def params_of(text, defs):
    """The values of a sample's `param NAME = VALUE` lines (plain numbers
    in the samples), the -D values winning."""
    v = {m.group(1): int(m.group(2)) for m in
         re.finditer(r"(?m)^param\s+(\w+)\s*=\s*(\d+)\s*$", text)}
    v.update(defs or {})
    return v


def sizes_of(text, params):
    """A region's sizes such as NxN or 64x32, read as the parser does: a
    name ends at the longest parameter followed by 'x'."""
    out = []
    while text:
        m = re.match(r"\d+", text)
        if m:
            tok = m.group(0)
            out.append(int(tok))
        else:
            tok = next(text[:i] for i in range(len(text), 0, -1)
                       if text[:i] in params and (i == len(text) or text[i] == "x"))
            out.append(params[tok])
        text = text[len(tok) + 1:]
    return out


def sweep(infsim, samples, out, names, small):
    lines = ["| workload | tile | cycles | vs best |", "|---|---|---|---|"]
    for name in names:
        for typ in ("f32",):
            text = open(os.path.join(samples, "%s_%s.tdfg" % (name, typ))).read()
            opts, defs = size_opts(infsim, name, typ, small, 1.0)
            if not small:  # the cycles do not depend on the values
                text = re.sub(r"load=\S+", "init=zero", text)
            m = re.search(r"(?m)^region (\S+) (\S+)", text)
            shape = sizes_of(m.group(2), params_of(text, defs))
            bl = 64 if small else 256
            rows = []
            for t in [None] + tiles(shape, bl):
                tt = re.sub(r"(?m)^(region \S+ \S+)", lambda g: g.group(1) + (
                    " tile=" + "x".join(map(str, t)) if t else ""), text)
                f = os.path.join(out, "sweep_%s.tdfg" % name)
                open(f, "w").write(tt)
                if small:
                    for n in os.listdir(samples):
                        if n.endswith(".npy"):
                            shutil.copy(os.path.join(samples, n), out)
                j = subprocess.run([infsim, "jit", f] + opts, capture_output=True, text=True)
                if j.returncode:
                    rows.append((t, None, j.stderr.strip().split("error: ")[-1][:80]))
                    continue
                pick = re.search(r"tile=(\S+)", j.stdout).group(1)
                p = subprocess.run([infsim, "run", f, "--stats=json"] + opts, capture_output=True,
                                   text=True)
                if p.returncode:
                    rows.append((t, None, p.stderr.strip()[:80]))
                    continue
                cyc = json.loads(p.stdout)["totals"]["cycles"]
                rows.append((t or pick, cyc, "the JIT's pick" if t is None else ""))
            best = min([c for _, c, _ in rows if c is not None] or [0])
            for t, c, note in rows:
                tl = "x".join(map(str, t)) if isinstance(t, list) else t
                lines.append("| %s %s | %s | %s | %s |" % (
                    name, typ, tl, c if c is not None else "refused: " + note,
                    ("%+.1f%% %s" % (100.0 * (c - best) / best, note)) if c is not None and best else ""))
    text = "\n".join(lines) + "\n"
    open(os.path.join(out, "sweep.md"), "w").write(text)
    return text


def main(argv):
    if len(argv) < 5:
        sys.exit(__doc__)
    infsim, case, samples, out = argv[1:5]
    rest = argv[5:]
    flags = {a for a in rest if a.startswith("--")}
    want = [a for a in rest if not a.startswith("--")]
    small = "--small" in flags
    scale = 1.0
    for f in flags:
        if f.startswith("--scale="):
            scale = float(f[8:])
        if f.startswith("--threads="):
            THREADS[:] = ["-j", f[10:]]
    os.makedirs(out, exist_ok=True)
    if "--sweep" in flags:
        print(sweep(os.path.abspath(infsim), samples, out, want or SWEEP, small))
        return
    todo = []
    for w in want or NAMES:
        m = re.match(r"(.*)_(f32|i32)$", w)
        todo += [(m.group(1), m.group(2))] if m else [(w, "f32"), (w, "i32")]
    results = []
    for name, typ in todo:
        r = run_one(os.path.abspath(infsim), os.path.abspath(case), samples, out, name, typ,
                    small, "--no-check" not in flags, scale)
        results.append(r)
        print("%s %s: %s" % (name, typ, "ok %.2f s" % r["plain_s"] if "stats" in r else
                             "failed: " + r.get("error", "")[:200]), flush=True)
        json.dump(results, open(os.path.join(out, "results.json"), "w"), indent=1)
    print(table(results, out))
    plots(results, out)


if __name__ == "__main__":
    main(sys.argv)
