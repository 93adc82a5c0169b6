#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench/figures.py: the seed papers' headline figures from infsim's counts.

    bench/figures.py [--infsim PATH] [--out DIR] [--quick] [--list] [ID ...]

For every figure (all, or the IDs given) it runs infsim with --stats=json,
takes the counted quantity the figure plots, and writes into OUT (default
./figures):
  ID.dat    one row a point: x, series, infsim's value, the paper's value
            (or "-" where the paper publishes none), the command that
            measured it;
  ID.svg    the figure, infsim's bars or lines beside the paper's, drawn
            by gnuplot (Debian: gnuplot-nox);
  figures.md  every figure's table (what doc/FIGURES.md shows).
The paper's values come from bench/figures/paper.json, each with the
sentence of the paper that states it.  --quick runs every figure at small
sizes (make check does, to keep this script working); the figures of
doc/FIGURES.md are made without it (`make figures`).  Every value is a
count of the emulated machine: the same on every host and run.
"""
import argparse
import json
import math
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLES = os.path.normpath(os.path.join(HERE, "..", "samples"))
PAPER_JSON = os.path.join(HERE, "figures", "paper.json")


class Figure:
    """A figure: infsim's points, each (x, series, value, command), and the
    rows that put a value of the paper beside infsim's (beside())."""

    def __init__(self, fid, title, quantity, kind="bars", log=False, xlabel=""):
        self.id = fid
        self.title = title
        self.quantity = quantity  # the y axis
        self.xlabel = xlabel
        self.kind = kind          # bars (x are categories), stacked, lines (x numbers) or heatmap
        self.log = log
        self.points = []          # (x, series, value, command)
        self.paper_bars = {}      # (x, series) -> the paper's value, drawn beside infsim's
        self.rows = []            # the paper beside infsim (write_md)
        self.commands = []        # every command that measured a point

    def add(self, x, series, value, command):
        """A point; command: what measured it (or what its value sums)."""
        self.points.append((str(x), series, value, command))
        self.measured_by(command)

    def measured_by(self, command):
        if command not in self.commands:
            self.commands.append(command)

    def value(self, x, series):
        for px, ps, v, _ in self.points:
            if (px, ps) == (str(x), series):
                return v
        return None

    def beside(self, key, infsim, how, x=None, series=None, pick=None, paper=None):
        """The paper's value of bench/figures/paper.json this figure's
        entry with key (its workload or x, its series), beside infsim's
        value formed as how says; drawn as a bar beside infsim's bar
        (x, series) when x is given.  pick: the number from the entry
        (default: its in_figure_unit, else its value); paper: a value
        formed from the paper's (how says how)."""
        entry = next((v for v in PAPER.get(self.id, [])
                      if (v.get("workload", v.get("x")), v.get("series")) == key), None)
        if entry is None:
            sys.exit("figures.py: %s: bench/figures/paper.json has no value %r" % (self.id, key))
        value = paper if paper is not None else pick(entry) if pick else \
            entry.get("in_figure_unit", entry["value"])
        if x is not None:
            if self.value(x, series) is None:
                self.points.append((str(x), series, infsim, how))
            self.paper_bars[(str(x), series)] = value
        self.rows.append({"what": "%s, %s" % key, "paper": value, "stated": entry.get("stated_as", ""),
                          "infsim": infsim, "how": how, "quote": entry["quote"],
                          "where": entry.get("where", "")})


def mean(values):
    values = list(values)
    return sum(values) / len(values)


def geomean(values):
    values = list(values)
    return math.exp(sum(math.log(v) for v in values) / len(values))


class RunError(Exception):
    pass


class Runner:
    """Runs infsim; the same command twice is run once."""

    def __init__(self, infsim, quick, out, ck_export, scale):
        self.infsim = infsim
        self.scale = scale
        self.ck_export = ck_export
        self.quick = quick
        self.out = os.path.abspath(out)  # the runs work in a folder of their own
        self.cache = {}

    def program(self, name, text):
        """A program this script writes (OUT/programs/NAME): its path."""
        d = os.path.join(self.out, "programs")
        os.makedirs(d, exist_ok=True)
        path = os.path.join(d, name)
        with open(path, "w") as o:
            o.write(text)
        return path

    def cuda_case(self, case):
        """The infsim arguments of a CUDA case of tests/kernels/cuda (its
        launch text and .npy inputs written by tests/ck_export)."""
        d = os.path.join(self.out, "cuda", case)
        os.makedirs(d, exist_ok=True)
        r = subprocess.run([self.ck_export, case, d], stdout=subprocess.PIPE, text=True, check=True,
                           cwd=os.path.join(HERE, ".."))
        args = shlex.split(r.stdout.strip())[2:]  # after "infsim run"
        return [os.path.normpath(os.path.join(HERE, "..", a)) if a.endswith(".ptx") else a
                for a in args]

    def stats(self, args):
        """infsim ARGS --stats=json: (the statistics, the command as text)."""
        key = tuple(args)
        shown = "infsim " + " ".join(shlex.quote(a) for a in args)
        if key not in self.cache:
            with tempfile.TemporaryDirectory() as tmp:
                path = os.path.join(tmp, "stats.json")
                cmd = [self.infsim] + list(args) + ["--stats=json", "--stats-file=" + path, "-q"]
                r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                   text=True, cwd=tmp)
                if r.returncode != 0:
                    raise RunError("figures.py: %s failed (exit %d):\n%s" % (shown, r.returncode,
                                                                          r.stderr))
                with open(path) as f:
                    self.cache[key] = json.load(f)
        # what the figures wrote by its name in OUT (OUT may be inside the
        # source tree), the samples by theirs in the tree
        shown = shown.replace(self.out + "/", "").replace(SAMPLES + "/", "samples/").replace(
            os.path.normpath(os.path.join(HERE, "..")) + "/", "")
        return self.cache[key], shown


def sample(*parts):
    return os.path.join(SAMPLES, *parts)


FIGURES = []


def figure(fn):
    FIGURES.append(fn)
    return fn


# ---------------------------------------------------------------- VIMA

VIMA_UNITS = [  # (series, op, type): Table I's units, one instruction each
    ("int alu", "add", "i32"), ("int mul", "mul", "i32"), ("int div", "div", "i32"),
    ("fp alu", "add", "f32"), ("fp mul", "mul", "f32"), ("fp div", "div", "f32"),
]


@figure
def vima_table1(run):
    f = Figure("vima-table1", "VIMA Table I: functional-unit latency for an 8 KB vector",
               "cycles of the unit")
    for series, op, typ in VIMA_UNITS:
        prog = run.program("vima_%s_%s.vima" % (op, typ), "".join(
            "array %s %s 2048 init=random:%d\n" % (n, typ, i + 1) for i, n in enumerate("AB"))
            + "array C %s 2048\n%s.%s C[0], A[0], B[0]\n" % (typ, op, typ))
        st, cmd = run.stats(["vima", prog])
        f.add(series, "cycles", st["cycles_by_part"]["fu"], cmd)
        cell = "VIMA %s units (8 KB, pipelined)" % ("int" if typ[0] == "i" else "fp")
        k = ["alu", "mul", "div"].index(series.split()[1]) + 1
        f.beside((cell, "Table I"), f.value(series, "cycles"),
                 "the unit's cycles of one %s.%s of 8 KB (cycles_by_part.fu)" % (op, typ),
                 x=series, series="cycles",
                 pick=lambda e, k=k: int(re.search(r"(\d+)-(\d+)-(\d+)", e["value"]).group(k)))
    return f


@figure
def vima_fig5(run):
    f = Figure("vima-fig5", "VIMA Fig 5: cycles against vector-cache lines (normalised to 8 lines)",
               "cycles / cycles with 8 lines", kind="lines", xlabel="vector-cache lines (8 KB)")
    # the paper's largest data sets (matmul: its one size of whole 8 KB rows)
    sizes = {"stencil": ["-D", "H=256" if run.quick else "H=4096"],
             "vecsum": ["-D", "N=65536" if run.quick else "N=16777216"]}
    if not run.quick:
        sizes["matmul"] = ["-D", "n=1024"]
    lines = [3, 4, 6, 8, 12, 16] if run.quick else list(range(3, 17))
    for name, defs in sizes.items():
        base, _ = run.stats(["vima", sample("vima", name + ".vima")] + defs + ["--lines=8"])
        for n in lines:
            st, cmd = run.stats(["vima", sample("vima", name + ".vima")] + defs + ["--lines=%d" % n])
            f.add(n, name, st["totals"]["cycles"] / base["totals"]["cycles"], cmd)
    # "enough": the fewest lines within 5% of the most lines' cycles
    enough = [min(n for n in lines if f.value(n, w) <= 1.05 * f.value(lines[-1], w))
              for w in sizes]
    f.beside(("all seven applications (average)", "VIMA"), mean(enough),
             "the mean over %s of the fewest lines within 5%% of %d lines' cycles (%s)" % (
                 ", ".join(sizes), lines[-1], ", ".join(map(str, enough))))
    return f


# ---------------------------------------------------------------- Duality Cache

DC_CASES = ["saxpy_100000", "backprop_1024", "bfs_5000", "gaussian_64", "hotspot_100x77",
            "lud_50", "nw_100", "pathfinder_1000x20", "kmeans_5000x5", "reduce_100000_b256",
            "histogram_100000_g13"]
DC_QUICK = ["saxpy_1000", "backprop_160", "gaussian_37", "reduce_777_b64"]

# Fig 12's bars: isa/ commands (by_command's name and class) of each
DC_FIG12 = [("int mul", lambda c: c["command"] == "mul" and c["class"] == "int"),
            ("f32 add", lambda c: c["command"] == "add" and c["class"] != "int"),
            ("f32 sub", lambda c: c["command"] == "sub" and c["class"] != "int"),
            ("f32 mul", lambda c: c["command"] == "mul" and c["class"] != "int"),
            ("f32 fma", lambda c: c["command"] == "fma"),
            ("f32 div", lambda c: c["command"] == "div" and c["class"] != "int")]


def dc_cases(run):
    return DC_QUICK if run.quick else DC_CASES


@figure
def dc_fig9(run):
    f = Figure("dc-fig9", "Duality Cache Fig 9: active control blocks of each kernel",
               "CBs a launch's CTAs fill (mean over launches)")
    for case in dc_cases(run):
        st, cmd = run.stats(["run"] + run.cuda_case(case))
        f.add(case.split("_")[0], "active CBs", st["simt"]["active_cbs"], cmd)
    f.beside(("reference line", "560 CBs in total (dark orange line)"),
             max(v for _, _, v, _ in f.points),
             "the largest of the kernels' active CBs at the cases' sizes (the paper's line is "
             "the CBs of its two sockets)")
    return f


@figure
def dc_fig12(run):
    f = Figure("dc-fig12", "Duality Cache Fig 12: speedup of data-dependent latency over Table 1's",
               "cycles at Table 1's latency / cycles as run")
    totals = {name: [0, 0] for name, _ in DC_FIG12}
    for case in dc_cases(run):
        st, cmd = run.stats(["run"] + run.cuda_case(case))
        f.measured_by(cmd)
        for c in st["commands"]:
            for name, match in DC_FIG12:
                if match(c):
                    totals[name][0] += c["baseline_cycles"]
                    totals[name][1] += c["run_cycles"]
    for name, (base, ran) in totals.items():
        if ran:
            f.points.append((name, "speedup", base / ran, "the sum over every case below"))
    how = "the cases' cycles of every %s at Table 1's latency over their cycles as run"
    f.beside(("integer multiplication", "base / opt"), f.value("int mul", "speedup"),
             how % "int mul", x="int mul", series="speedup")
    f.beside(("floating point addition", "base / opt"), f.value("f32 add", "speedup"),
             how % "f32 add", x="f32 add", series="speedup")
    return f


@figure
def dc_fig13(run):
    f = Figure("dc-fig13", "Duality Cache Fig 13: compute cycles, one-array translation / VLIW",
               "serial compute cycles / vliw compute cycles")
    saved = []
    for case in dc_cases(run):
        args = ["run"] + run.cuda_case(case)
        vliw, cmd = run.stats(args + ["-m", "mapping=vliw"])
        serial, _ = run.stats(args + ["-m", "mapping=serial"])
        f.add(case.split("_")[0], "speedup",
              serial["simt"]["compute_cycles"] / vliw["simt"]["compute_cycles"],
              cmd + " (and -m mapping=serial)")
        saved.append(100.0 * (1 - vliw["simt"]["mem_requests"] / serial["simt"]["mem_requests"]))
    f.beside(("average", "compute speedup"), mean(v for _, _, v, _ in f.points),
             "the mean over the kernels of serial / vliw compute cycles", x="mean", series="speedup")
    f.beside(("average", "memory accesses saved (green dots)"), mean(saved),
             "the mean over the kernels of 1 - vliw / serial memory requests, in %",
             pick=lambda e: e["value"])
    return f


# ---------------------------------------------------------------- Near-Stream Computing

NSC_WORKLOADS = ["histogram", "pathfinder", "hotspot", "hotspot3d", "srad", "scluster", "svm",
                 "bfs_push", "sssp",
                 "pr_push", "bfs_pull", "pr_pull", "bin_tree", "hash_join"]


def nsc_run(run, w, extra=()):
    # the private cache scaled with the samples' sizes (about 1/1000 of
    # Table VI's), the paper's 64 B interleave (doc/STREAMS.md)
    return run.stats(["nsc", sample("nsc", w + ".nsc"), "--cache=512", "--interleave=64"]
                     + list(extra))


def nsc_names(run):
    return NSC_WORKLOADS[:4] if run.quick else NSC_WORKLOADS


@figure
def nsc_fig1b(run):
    f = Figure("nsc-fig1b", "NSC Fig 1b: data moved on the NoC, offloaded / at the core",
               "byte-hops of data, offloaded / core only")
    for w in nsc_names(run):
        st, cmd = nsc_run(run, w)
        off, core = st["traffic"]["offload"], st["traffic"]["core_only"]
        moved = off["byte_hops_offloaded"] + off["byte_hops_data"]
        f.add(w, "data traffic", moved / core["byte_hops_data"], cmd)
    f.beside(("average", "Perf-Near-LLC"), mean(v for _, _, v, _ in f.points),
             "the mean over the workloads of (offloaded + data byte-hops) offloaded / data "
             "byte-hops at the core", x="mean", series="data traffic")
    return f


@figure
def nsc_fig11(run):
    f = Figure("nsc-fig11", "NSC Fig 11: micro-ops offloaded to the banks' stream engines",
               "% of micro-ops at the banks")
    for w in nsc_names(run):
        st, cmd = nsc_run(run, w)
        f.add(w, "offloaded", st["streams"]["uops_bank_percent"], cmd)
    f.beside(("average", "offloaded at runtime / associated"), mean(v for _, _, v, _ in f.points),
             "the mean over the workloads of the streams' micro-ops run at the banks, in % of "
             "all their micro-ops", x="mean", series="offloaded")
    return f


@figure
def nsc_fig12(run):
    f = Figure("nsc-fig12", "NSC Fig 12: NoC traffic by class, normalised to every stream at the core",
               "byte-hops / core-only total")
    for w in nsc_names(run):
        st, cmd = nsc_run(run, w)
        off, core = st["traffic"]["offload"], st["traffic"]["core_only"]
        for cls in ("offloaded", "control", "data"):  # Fig 12's classes (doc/STREAMS.md)
            f.add(w, cls, off["fig12_byte_hops_" + cls] / core["byte_hops"], cmd)
        f.add(w, "total", off["byte_hops"] / core["byte_hops"], cmd)
        free, cmd = nsc_run(run, w, ["--sync=free"])
        f.add(w, "total, sync=free", free["traffic"]["offload"]["byte_hops"] / core["byte_hops"], cmd)
    names = nsc_names(run)
    f.beside(("average", "NS"), mean(f.value(w, "total") for w in names),
             "the mean over the workloads of offloaded / core-only byte-hops", x="mean",
             series="total")
    f.beside(("average", "NS_decouple"), mean(f.value(w, "total, sync=free") for w in names),
             "the same with --sync=free (no range or commit messages)", x="mean",
             series="total, sync=free")
    return f


# ---------------------------------------------------------------- Active-Routing

# Table II's workloads; sizes of bench/ar_paper.sh, smaller with --quick
AR_WORKLOADS = [("reduce", ["-D", "N=6553600"], ["-D", "N=65536"]),
                ("rand_reduce", ["-D", "N=6553600"], ["-D", "N=65536"]),
                ("mac", ["-D", "N=6553600"], ["-D", "N=65536"]),
                ("rand_mac", ["-D", "N=6553600"], ["-D", "N=65536"]),
                ("spmv", ["-D", "N=4096", "-D", "K=1232"], ["-D", "N=256", "-D", "K=77"]),
                ("backprop", ["-D", "IN=2097152"], ["-D", "IN=16384"]),
                ("sgemm", ["-D", "N=512"], ["-D", "N=64"]),
                ("lud", ["-D", "N=256"], ["-D", "N=32"]),
                ("pagerank", ["-D", "V=65536"], ["-D", "V=1024"])]


def ar_run(run, name, full, small, root):
    return run.stats(["ar", sample("ar", name + ".ar"), "--root=" + root]
                     + (small if run.quick else full))


def ar_names(run):
    return AR_WORKLOADS[:4] + AR_WORKLOADS[6:7] if run.quick else AR_WORKLOADS


# Figs 8 and 9: sizes whose arrays cover all 16 cubes (bench/ar_roots.sh)
AR_ROOT_SIZES = [("reduce", ["-D", "N=65536"], ["-D", "N=16384"]),
                 ("rand_reduce", ["-D", "N=65536"], ["-D", "N=16384"]),
                 ("mac", ["-D", "N=65536"], ["-D", "N=16384"]),
                 ("rand_mac", ["-D", "N=65536"], ["-D", "N=16384"]),
                 ("spmv", ["-D", "N=512", "-D", "K=64"], ["-D", "N=128", "-D", "K=16"]),
                 ("backprop", ["-D", "IN=16384"], ["-D", "IN=4096"]),
                 ("sgemm", ["-D", "N=128"], ["-D", "N=32"]),
                 ("lud", ["-D", "N=128"], ["-D", "N=32"]),
                 ("pagerank", ["-D", "V=16384"], ["-D", "V=1024"])]
AR_MICRO = {"reduce", "rand_reduce", "mac", "rand_mac"}


@figure
def ar_fig8(run):
    f = Figure("ar-fig8", "Active-Routing Fig 8: runtime by tree root, speedup over the naive root",
               "naive root's cycles / cycles")
    ratio = {"bench": [], "micro": []}
    for name, full, small in AR_ROOT_SIZES:
        naive, _ = ar_run(run, name, full, small, "naive")
        cyc = {}
        for root in ("tid", "addr"):
            st, cmd = ar_run(run, name, full, small, root)
            cyc[root] = st["totals"]["cycles"]
            f.add(name, root, naive["totals"]["cycles"] / cyc[root], cmd)
        ratio["micro" if name in AR_MICRO else "bench"].append(cyc["tid"] / cyc["addr"])
    # the paper's speedups are over PEI, which infsim counts but does not
    # time: what compares is ART-addr over ART-tid, its ratio of the two
    def paper(workload, series, field="value"):
        return next(v[field] for v in PAPER["ar-fig8"] if v.get("series") == series
                    and str(v.get("workload", "")).startswith(workload))
    tid, addr = paper("geomean", "ART-tid", "in_figure_unit"), paper("geomean", "ART-addr",
                                                                     "in_figure_unit")
    f.beside(("geomean", "ART-addr"), geomean(ratio["bench"]),
             "the geometric mean over the benchmarks of ART-tid's cycles / ART-addr's (the "
             "paper's: its ART-addr speedup over PEI over its ART-tid one, %g / %g)" % (addr, tid),
             paper=addr / tid)
    mkey = paper("microbenchmarks", "ART-addr", "workload")
    mtid, maddr = paper("microbenchmarks", "ART-tid"), paper("microbenchmarks", "ART-addr")
    f.beside((mkey, "ART-addr"), mean(ratio["micro"]),
             "the mean over the microbenchmarks of ART-tid's cycles / ART-addr's (the paper's: "
             "%gx / %gx)" % (maddr, mtid), paper=maddr / mtid)
    return f


@figure
def ar_fig9(run):
    f = Figure("ar-fig9", "Active-Routing Fig 9: an Update's round trip, request + stall + response",
               "cycles a round trip (mean over Updates)", kind="stacked")
    for name, full, small in AR_ROOT_SIZES:
        for root in ("tid", "addr"):
            st, cmd = ar_run(run, name, full, small, root)
            for part in ("request", "stall", "response"):
                f.add("%s %s" % (name, root), part, st["fig9"][part], cmd)
    return f


@figure
def ar_fig10(run):
    f = Figure("ar-fig10", "Active-Routing Fig 10: host <-> network data, Active-Routing / PEI",
               "bytes between the host and the cubes, ART / PEI")
    for name, full, small in ar_names(run):
        for root in ("tid", "addr"):
            st, cmd = ar_run(run, name, full, small, root)
            f.add(name, "ART-" + root, st["fig10"]["host_bytes"], cmd)
    return f


@figure
def ar_fig11(run):
    f = Figure("ar-fig11", "Active-Routing Fig 11: spmv's compute points and operands by cube",
               "element operations / operands", kind="heatmap", xlabel="cube")
    name, full, small = next(w for w in AR_ROOT_SIZES if w[0] == "spmv")
    for root in ("tid", "addr"):
        st, cmd = ar_run(run, name, full, small, root)
        for c in st["cubes"]:
            f.add(c["cube"], "ART-%s compute" % root, c["compute"], cmd)
            f.add(c["cube"], "ART-%s operands" % root, c["operands"], cmd)
    return f


# ---------------------------------------------------------------- Infinity Stream

sys.path.insert(0, HERE)
import workloads as wl  # noqa: E402  (Table 3's sizes and machine, bench/workloads.py)

# the in-memory workloads (those with strm nodes need bench/workload_case's inputs)
IS_WORKLOADS = [n for n in wl.NAMES if n not in wl.STRM]
IS_QUICK = ["vec_add", "stencil2d", "mm_outer"]


def is_run(run, name, typ="f32"):
    """A Table 3 workload at --scale times the paper's sizes (the
    samples' own sizes with --quick)."""
    opts, _ = wl.size_opts(run.infsim, name, typ, run.quick, run.scale)
    prog = sample("workloads", "%s_%s.tdfg" % (name, typ))
    text = open(prog).read()
    if not run.quick and "load=" in text:
        # the sample's .npy inputs have its own size: random data of the
        # size asked for instead (the counts are what is measured here)
        n = iter(range(1, 1000))
        prog = run.program(os.path.basename(prog),
                           re.sub(r"load=\S+", lambda _: "init=random:%d" % next(n), text))
    return run.stats(["run", prog] + opts)


def is_names(run):
    return IS_QUICK if run.quick else IS_WORKLOADS


@figure
def is_fig13(run):
    f = Figure("is-fig13", "Infinity Stream Fig 13: where the data moves (fraction of bytes)",
               "fraction of the bytes moved", kind="stacked")
    for name in is_names(run):
        st, cmd = is_run(run, name)
        tr = st["paper"]["traffic"]
        tot = float(sum(tr[k]["bytes"] for k in wl.TRAFFIC)) or 1.0
        for k in wl.TRAFFIC:
            f.add(name, k.replace("_", " "), tr[k]["bytes"] / tot, cmd)
    return f


@figure
def is_fig14(run):
    f = Figure("is-fig14", "Infinity Stream Fig 14: breakdown of cycles",
               "fraction of the run's cycles", kind="stacked")
    # the JIT's bar is a model of its work (doc/USAGE.md, "The JIT's
    # cycles"), never the host's time: the same on every run
    bitlines = []  # Fig 14's dots: the share of operations on bitlines
    for name in is_names(run):
        st, cmd = is_run(run, name)
        c = st["paper"]["cycles"]
        tot = float(sum(c[k] for k in wl.PARTS)) or 1.0
        for k in wl.PARTS:
            f.add(name, k.replace("_", " "), c[k] / tot, cmd)
        bitlines.append(st["paper"]["on_bitlines"] / (st["paper"]["ops"] or 1))
    names = is_names(run)

    def share(*ks):
        return 100 * mean(sum(f.value(n, k.replace("_", " ")) for k in ks) for n in names)
    inmem = ["transpose", "compute", "intra_tile_move", "inter_tile_move", "sync", "final_reduce"]
    # the paper's "DRAM transfer" is the data's way into the arrays: the
    # transpose unit's part, its nearest counterpart here
    for key, ks in ((("overall", "DRAM"), ["transpose"]),
                    (("overall", "Compute"), ["compute"]),
                    (("overall", "Move"), ["intra_tile_move", "inter_tile_move"]),
                    (("overall", "Final Reduce"), ["final_reduce"]),
                    (("overall", "in-memory computing (all in-memory parts)"), inmem),
                    (("overall", "JIT Lower"), ["jit"])):
        f.beside(key, share(*ks), "the mean over the workloads of the share of %s, in %% of "
                 "all the cycles" % " + ".join(ks))
    for w in ("gauss_elim", "stencil3d"):
        if w in names:
            f.beside((w, "JIT Lower"), 100 * f.value(w, "jit"), "%s's share of jit, in %%" % w)
    f.beside(("overall", "ops offloaded to bitlines (dots)"), 100 * mean(bitlines),
             "the mean over the workloads of the operations on bitlines, in % of all")
    return f


def is_sweep(run, f, names):
    """Figs 16 and 17: every tile of powers of two the machine accepts for
    each workload's first region, its cycles over the JIT's pick's, at
    half the --scale of Figs 13 and 14."""
    picks, best, flat = [], [], []
    for name in names:
        # half --scale: a figure is every tile's run, some of them slow
        opts, defs = wl.size_opts(run.infsim, name, "f32", run.quick, run.scale / 2)
        text = open(sample("workloads", "%s_f32.tdfg" % name)).read()
        n = iter(range(1, 1000))
        text = re.sub(r"load=\S+", lambda _: "init=random:%d" % next(n), text)
        m = re.search(r"(?m)^region (\S+) (\S+)", text)
        shape = wl.sizes_of(m.group(2), wl.params_of(text, defs))
        bitlines = 64 if run.quick else 256

        def with_tile(tile):
            tt = re.sub(r"(?m)^(region \S+ \S+)", lambda g: g.group(1) + (
                " tile=" + "x".join(map(str, tile)) if tile else ""), text, count=1)
            return run.program("%s_%s.tdfg" % (name, "x".join(map(str, tile)) if tile else "jit"), tt)
        jit = subprocess.run([run.infsim, "jit", with_tile(None)] + opts, capture_output=True,
                             text=True, check=True)
        pick = [int(v) for v in re.search(r"tile=(\S+)", jit.stdout).group(1).split("x")]
        pst, _ = run.stats(["run", with_tile(pick)] + opts)
        rows = {}
        for tile in wl.tiles(shape, bitlines):
            try:
                st, cmd = run.stats(["run", with_tile(tile)] + opts)
            except RunError:
                continue  # a tile the machine cannot lay out
            rows["x".join(map(str, tile))] = st["totals"]["cycles"]
            f.add("x".join(map(str, tile)), name, st["totals"]["cycles"] / pst["totals"]["cycles"],
                  cmd)
        picks.append(name + " " + "x".join(map(str, pick)))
        best.append(pst["totals"]["cycles"] / min(rows.values()))
        # no tiling: the innermost dimension (the first) laid along the bitlines
        inner = "x".join([str(bitlines)] + ["1"] * (len(shape) - 1))
        if inner in rows:
            flat.append(rows[inner] / pst["totals"]["cycles"])
    key = "all 2D/3D benchmarks (Figs 16 and 17)"
    f.beside((key, "runtime's tile vs oracle"), 100 * (mean(best) - 1),
             "the mean over the workloads of the JIT's tile's cycles over the best tile's, - 1, "
             "in %% (the JIT's: %s)" % ", ".join(picks))
    if flat:
        f.beside((key, "runtime's tile vs no tiling"), 100 * (mean(flat) - 1),
                 "the mean over the workloads of the cycles with tile %dx1...x1 over the JIT's "
                 "tile's, - 1, in %%" % bitlines)


@figure
def is_fig16(run):
    f = Figure("is-fig16", "Infinity Stream Fig 16: cycles against the 2-d tile (over the JIT's tile)",
               "cycles / cycles with the JIT's tile")
    is_sweep(run, f, ["stencil2d", "conv2d"] if run.quick else
             ["stencil2d", "dwt2d", "gauss_elim", "conv2d", "mm_outer", "mm_inner"])
    return f


@figure
def is_fig17(run):
    f = Figure("is-fig17", "Infinity Stream Fig 17: cycles against the 3-d tile (over the JIT's tile)",
               "cycles / cycles with the JIT's tile")
    is_sweep(run, f, ["stencil3d"] if run.quick else ["stencil3d", "conv3d"])
    return f


# ---------------------------------------------------------------- drawing

PAPER = {}  # figure id -> its values in bench/figures/paper.json


def load_paper():
    with open(PAPER_JSON) as f:
        doc = json.load(f)
    for fig in doc["figures"]:
        PAPER[fig["id"]] = fig.get("values", [])


def fmt(v):
    if v is None:
        return "-"
    if isinstance(v, int) or (isinstance(v, float) and v.is_integer() and abs(v) >= 100):
        return "%d" % v
    return "%.4g" % v


def write_dat(f, out):
    path = os.path.join(out, f.id + ".dat")
    with open(path, "w") as o:
        o.write("# %s\n# x\tseries\tinfsim\tcommand\n" % f.title)
        for x, s, v, cmd in f.points:
            o.write("%s\t%s\t%s\t%s\n" % (x, s, fmt(v), cmd))
        for r in f.rows:
            o.write("# the paper: %s: %s; infsim: %s (%s)\n" % (r["what"], fmt(r["paper"]),
                                                                fmt(r["infsim"]), r["how"]))
    return path


def gp_quote(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_svg(f, out):
    """gnuplot's picture: bars (infsim solid, the paper hatched) or lines."""
    series = list(dict.fromkeys(s for _, s, _, _ in f.points))
    xs = list(dict.fromkeys(x for x, _, _, _ in f.points))
    val = {(x, s): v for x, s, v, _ in f.points}
    data = os.path.join(out, f.id + ".gpdat")
    cols = []
    for s in series:
        cols.append(("infsim " + s if len(series) > 1 or f.paper_bars else "infsim", s, False))
        if any((x, s) in f.paper_bars for x in xs):
            cols.append(("paper " + s if len(series) > 1 else "paper", s, True))
    if f.kind == "heatmap":
        return write_heatmap(f, out, xs, series, val)
    if f.kind == "stacked":  # the parts of one bar; the paper's values are in the table
        cols = [(s, s, False) for s in series]
    with open(data, "w") as o:
        for x in xs:
            row = [x.replace(" ", "_")]
            for _, s, paper in cols:
                v = f.paper_bars.get((x, s)) if paper else val.get((x, s))
                row.append("NaN" if v is None else repr(float(v)))
            o.write("\t".join(row) + "\n")
    gp = ["set terminal svg size 760,420 dynamic font 'sans,11' background '#ffffff'",
          "set output %s" % gp_quote(os.path.join(out, f.id + ".svg")),
          "set title %s noenhanced" % gp_quote(f.title),
          "set ylabel %s noenhanced" % gp_quote(f.quantity),
          "set key outside right top noenhanced", "set grid ytics"]
    if f.log:
        gp.append("set logscale y")
    plots = []
    if f.kind == "stacked":
        gp += ["set style data histograms", "set style histogram rowstacked",
               "set boxwidth 0.8", "set xtics rotate by -30 noenhanced", "set yrange [0:*]",
               "set style fill solid 0.8 border -1"]
        for i, (label, _, _) in enumerate(cols):
            plots.append("%s using %d%s title %s" % (
                gp_quote(data), i + 2, ":xtic(1)" if i == 0 else "", gp_quote(label)))
    elif f.kind == "bars":
        gp += ["set style data histograms", "set style histogram clustered gap 1",
               "set boxwidth 0.9", "set xtics rotate by -30 noenhanced", "set yrange [0:*]"]
        for i, (label, _, paper) in enumerate(cols):
            style = "fill pattern 4 border" if paper else "fill solid 0.8 border"
            plots.append("%s using %d%s title %s %s" % (
                gp_quote(data), i + 2, ":xtic(1)" if i == 0 else "", gp_quote(label),
                "fs " + style))
    else:
        gp += ["set xlabel %s noenhanced" % gp_quote(f.xlabel), "set style data linespoints"]
        for i, (label, _, paper) in enumerate(cols):
            plots.append("%s using 1:%d title %s %s" % (
                gp_quote(data), i + 2, gp_quote(label), "dt 2" if paper else "lw 2"))
    gp.append("plot " + ", ".join(plots))
    gnuplot(gp, f, out)
    os.remove(data)


def gnuplot(gp, f, out):
    script = os.path.join(out, f.id + ".gp")
    with open(script, "w") as o:
        o.write("\n".join(gp) + "\n")
    subprocess.run(["gnuplot", script], check=True)
    os.remove(script)


def write_heatmap(f, out, xs, series, val):
    """One panel a series, the x (cubes 0..n-1) on a square grid (cube c
    at column c mod side, row c / side), darker = more."""
    side = math.isqrt(len(xs))
    if side * side != len(xs):
        sys.exit("figures.py: %s: %d cells do not make a square" % (f.id, len(xs)))
    cols = 2 if len(series) > 1 else 1
    rows = (len(series) + cols - 1) // cols
    gp = ["set terminal svg size %d,%d dynamic font 'sans,11' background '#ffffff'"
          % (360 * cols, 330 * rows + 30),
          "set output %s" % gp_quote(os.path.join(out, f.id + ".svg")),
          "set multiplot layout %d,%d title %s noenhanced" % (rows, cols, gp_quote(f.title)),
          "set palette defined (0 '#ffffff', 1 '#08306b')", "set size ratio 1",
          "set xrange [-0.5:%g]" % (side - 0.5), "set yrange [%g:-0.5]" % (side - 0.5),
          "set xtics 1", "set ytics 1", "unset key", "set cbrange [0:*]"]
    datas = []
    for k, s in enumerate(series):
        data = os.path.join(out, "%s.%d.gpdat" % (f.id, k))
        with open(data, "w") as o:
            for r in range(side):
                o.write(" ".join(repr(float(val.get((xs[r * side + c], s)) or 0))
                                 for c in range(side)) + "\n")
        datas.append(data)
        gp += ["set title %s noenhanced" % gp_quote(s),
               "plot %s matrix with image pixels, '' matrix using 1:2:(sprintf('%%g', $3)) "
               "with labels font ',8'" % gp_quote(data)]
    gp.append("unset multiplot")
    gnuplot(gp, f, out)
    for d in datas:
        os.remove(d)


def write_md(figs, out):
    """Each figure: its picture, infsim's values (a row an x, a column a
    series), the paper's values beside infsim's, the commands."""
    with open(os.path.join(out, "figures.md"), "w") as o:
        for f in figs:
            o.write("### %s (%s)\n\n![%s](%s.svg)\n\n" % (f.title, f.id, f.id, f.id))
            xs = list(dict.fromkeys(x for x, _, _, _ in f.points))
            series = list(dict.fromkeys(s for _, s, _, _ in f.points))
            o.write("| %s | %s |\n|---|%s\n" % (f.xlabel or "", " | ".join(series),
                                                 "---:|" * len(series)))
            for x in xs:
                o.write("| %s | %s |\n" % (x, " | ".join(fmt(f.value(x, s)) for s in series)))
            if f.rows:
                o.write("\n| the paper | its value | infsim | infsim's, formed as |\n"
                        "|---|---:|---:|---|\n")
                for r in f.rows:
                    o.write("| %s: \"%s\" (%s) | %s | %s | %s |\n" % (
                        r["what"], r["quote"].replace("|", "\\|"), r["where"], fmt(r["paper"]),
                        fmt(r["infsim"]), r["how"]))
            o.write("\nCommands:\n\n")
            for cmd in f.commands:
                o.write("    %s\n" % cmd)
            o.write("\n")


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--infsim", default="./infsim")
    ap.add_argument("--out", default="figures")
    ap.add_argument("--ck-export", default="tests/ck_export",
                    help="tests/ck_export of the build (the CUDA cases' inputs)")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--scale", type=float, default=0.25,
                    help="Infinity Stream's workloads at SCALE times Table 3's sizes (0.25)")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("ids", nargs="*")
    a = ap.parse_args(argv)
    known = {fn.__name__.replace("_", "-"): fn for fn in FIGURES}
    if a.list:
        for k in known:
            print(k)
        return 0
    for i in a.ids:
        if i not in known:
            sys.exit("figures.py: no figure %s (--list names them)" % i)
    if not shutil.which("gnuplot"):
        sys.exit("figures.py: gnuplot is needed to draw (Debian: gnuplot-nox)")
    os.makedirs(a.out, exist_ok=True)
    run = Runner(os.path.abspath(a.infsim), a.quick, a.out, os.path.abspath(a.ck_export), a.scale)
    load_paper()
    figs = []
    for k, fn in known.items():
        if a.ids and k not in a.ids:
            continue
        try:
            f = fn(run)
        except RunError as e:
            sys.exit(str(e))
        write_dat(f, a.out)
        write_svg(f, a.out)
        figs.append(f)
        print("figures.py: %s: %d points" % (f.id, len(f.points)))
    write_md(figs, a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
