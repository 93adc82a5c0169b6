#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# gen_samples.py: writes the .thread workloads of samples/simt/ (hotspot,
# gaussian, lud, nw, backprop): the host's fixed loops unrolled into one
# kernel a step, each step's index a constant (duality-cache §3.3, §3.4:
# thread-independent values become constants).  Run from this folder:
#   python3 gen_samples.py
import struct

def f32(x):
    return "0f%08x" % struct.unpack("<I", struct.pack("<f", x))[0]

def index(w):
    """%g = global thread index, %i = g / w, %j = g % w (w a power of two)."""
    sh = w.bit_length() - 1
    return [f"mov.u32 %cta, %ctaid", "mov.u32 %nt, %ntid", "mov.u32 %t, %tid",
            "mul.lo.u32 %g, %cta, %nt", "add.u32 %g, %g, %t",
            f"shr.u32 %i, %g, {sh}", f"mov.u32 %m, {w - 1}", "and.u32 %j, %g, %m"]

def kernel(name, lines):
    return [f".thread {name}"] + ["\t" + l for l in lines] + [".end"]

def hotspot():
    H = W = 16
    P2 = W + 2
    out = ["# hotspot: one step of Rodinia's thermal simulation on a 16x16 chip",
           "# (duality-cache Table 3), the temperatures padded by a border of one",
           "# cell; two kernels alternate T and U.  Written by gen_samples.py.",
           ".machine cbs=1 fp=ftz",
           f".global T f32 {P2 * P2} rand 5 80", f".global U f32 {P2 * P2} rand 5 80",
           f".global P f32 {H * W} rand 6 1"]
    cc, rx, ry, rz, amb = 0.5, 0.25, 0.125, 0.0625, 80.0
    for name, src, dst in (("hot_tu", "T", "U"), ("hot_ut", "U", "T")):
        body = index(W) + [
            f"mov.u32 %k72, {P2 * 4}", "mul.lo.u32 %off, %i, %k72", "shl.b32 %j4, %j, 2",
            "add.u32 %off, %off, %j4", f"mov.u32 %k76, {(P2 + 1) * 4}", "add.u32 %off, %off, %k76",
            f"mov.u32 %a, {src}", "add.u32 %a, %a, %off", "ld.global.f32 %c, [%a]",
            "add.f32 %d, %c, %c",
            "sub.u32 %an, %a, %k72", "ld.global.f32 %n, [%an]", "add.u32 %as, %a, %k72",
            "ld.global.f32 %s, [%as]", "add.f32 %ns, %n, %s", "sub.f32 %t1, %ns, %d",
            f"mov.f32 %ry, {f32(ry)}", "mul.f32 %t1, %t1, %ry",
            "mov.u32 %four, 4", "add.u32 %ae, %a, %four", "ld.global.f32 %e, [%ae]",
            "sub.u32 %aw, %a, %four", "ld.global.f32 %w, [%aw]", "add.f32 %ew, %e, %w",
            "sub.f32 %t2, %ew, %d", f"mov.f32 %rx, {f32(rx)}", "mul.f32 %t2, %t2, %rx",
            f"mov.f32 %amb, {f32(amb)}", "sub.f32 %t3, %amb, %c", f"mov.f32 %rz, {f32(rz)}",
            "mul.f32 %t3, %t3, %rz",
            "shl.b32 %g4, %g, 2", "mov.u32 %pa, P", "add.u32 %pa, %pa, %g4", "ld.global.f32 %p, [%pa]",
            "add.f32 %acc, %p, %t1", "add.f32 %acc, %acc, %t2", "add.f32 %acc, %acc, %t3",
            f"mov.f32 %cc, {f32(cc)}", "mul.f32 %acc, %acc, %cc", "add.f32 %r, %c, %acc",
            f"mov.u32 %o, {dst}", "add.u32 %o, %o, %off", "st.global.f32 [%o], %r"]
        out += kernel(name, body)
    out += [".launch hot_tu 1 256", ".launch hot_ut 1 256"]
    return out

def elimination(lud):
    N = 16
    name = "lud" if lud else "gaussian"
    out = [f"# {name}: " + ("Rodinia lud without pivoting, in place: L below the"
                            if lud else "Rodinia gaussian: Fan1 (the multipliers M), Fan2 (A)"),
           "# " + ("diagonal, U on and above it." if lud else "and Fan3 (B) for each column k."),
           "# Each step's k is a constant of its kernels.  Written by gen_samples.py.",
           ".machine cbs=1 fp=ftz"]
    diag = " ".join(f32(40.0 + i) for i in range(N))
    out += [f".global A f32 {N * N} rand 7 8", f".global D f32 {N} = {diag}"]
    if not lud:
        out += [f".global M f32 {N * N}", f".global B f32 {N} rand 8 10"]
    launches = []
    # the diagonal made dominant first: A[i][i] += D[i]
    out += kernel("dominant", ["mov.u32 %t, %tid", "shl.b32 %t4, %t, 2", f"mov.u32 %k, {(N + 1) * 4}",
                               "mul.lo.u32 %o, %t, %k", "mov.u32 %a, A", "add.u32 %a, %a, %o",
                               "ld.global.f32 %x, [%a]", "mov.u32 %da, D", "add.u32 %da, %da, %t4",
                               "ld.global.f32 %y, [%da]", "add.f32 %x, %x, %y", "st.global.f32 [%a], %x"])
    launches.append(f".launch dominant 1 {N}")
    for k in range(N - 1):
        mbase = "A" if lud else "M"
        # column k: X[i][k] = A[i][k] / A[k][k] for i > k (thread i)
        out += kernel(f"col{k}", [
            "mov.u32 %i, %tid", f"mov.u32 %kk, {k}", "setp.gt.u32 p0, %i, %kk",
            f"mov.u32 %rowb, {N * 4}", "mul.lo.u32 %r, %i, %rowb", f"mov.u32 %ck, {k * 4}",
            "add.u32 %r, %r, %ck", "mov.u32 %a, A", "add.u32 %aik, %a, %r",
            "ld.global.f32 %x, [%aik]", f"mov.u32 %dk, {(k * N + k) * 4}", "add.u32 %akk, %a, %dk",
            "ld.global.f32 %y, [%akk]", "div.f32 %q, %x, %y",
            f"mov.u32 %mb, {mbase}", "add.u32 %mik, %mb, %r", "@p0 st.global.f32 [%mik], %q"])
        launches.append(f".launch col{k} 1 {N}")
        # the rest: A[i][j] -= X[i][k] * A[k][j] for i > k (and j > k for lud)
        body = index(N) + [
            f"mov.u32 %kk, {k}", "setp.gt.u32 p0, %i, %kk"]
        if lud:
            body += ["@p0 setp.gt.u32 p0, %j, %kk"]
        body += [
            f"mov.u32 %rowb, {N * 4}", "mul.lo.u32 %r, %i, %rowb", f"mov.u32 %ck, {k * 4}",
            "add.u32 %rk, %r, %ck", f"mov.u32 %mb, {mbase}", "add.u32 %mik, %mb, %rk",
            "ld.global.f32 %m, [%mik]", "shl.b32 %j4, %j, 2", "add.u32 %rj, %r, %j4",
            "mov.u32 %a, A", "add.u32 %aij, %a, %rj", "ld.global.f32 %x, [%aij]",
            f"mov.u32 %kr, {k * N * 4}", "add.u32 %akj, %a, %kr", "add.u32 %akj, %akj, %j4",
            "ld.global.f32 %y, [%akj]", "mul.f32 %p, %m, %y", "sub.f32 %x, %x, %p",
            "@p0 st.global.f32 [%aij], %x"]
        out += kernel(f"rest{k}", body)
        launches.append(f".launch rest{k} 1 {N * N}")
        if not lud:
            out += kernel(f"rhs{k}", [
                "mov.u32 %i, %tid", f"mov.u32 %kk, {k}", "setp.gt.u32 p0, %i, %kk",
                "shl.b32 %i4, %i, 2", "mov.u32 %b, B", "add.u32 %bi, %b, %i4", "ld.global.f32 %x, [%bi]",
                f"mov.u32 %k4, {k * 4}", "add.u32 %bk, %b, %k4", "ld.global.f32 %y, [%bk]",
                f"mov.u32 %rowb, {N * 4}", "mul.lo.u32 %r, %i, %rowb", "add.u32 %r, %r, %k4",
                "mov.u32 %mb, M", "add.u32 %mik, %mb, %r", "ld.global.f32 %m, [%mik]",
                "mul.f32 %p, %m, %y", "sub.f32 %x, %x, %p", "@p0 st.global.f32 [%bi], %x"])
            launches.append(f".launch rhs{k} 1 {N}")
    return out + launches

def nw():
    N = 32
    out = ["# nw: Needleman-Wunsch alignment scores (Rodinia nw), one anti-diagonal",
           "# a kernel: F[i][j] = max(F[i-1][j-1] + S[i][j] - 4, F[i-1][j] - 10,",
           "# F[i][j-1] - 10).  Row and column 0 hold -10 * index.  Written by",
           "# gen_samples.py.",
           ".machine cbs=1",
           f".global S s32 {(N + 1) * (N + 1)} rand 9 9"]
    border = [0] * ((N + 1) * (N + 1))
    for i in range(N + 1):
        border[i * (N + 1)] = -10 * i
        border[i] = -10 * i
    # only the first row and column are set; the rest is zero
    last = max(i for i, v in enumerate(border) if v)
    out.append(f".global F s32 {(N + 1) * (N + 1)} = " + " ".join(str(v) for v in border[:last + 1]))
    launches = []
    R = (N + 1) * 4
    for d in range(2, 2 * N + 1):
        body = ["mov.u32 %t, %tid", "mov.u32 %one, 1", "add.u32 %i, %t, %one",
                f"mov.u32 %dd, {d}", "sub.u32 %j, %dd, %i",
                "setp.ge.s32 p0, %j, %one", f"mov.u32 %n, {N}", "@p0 setp.le.s32 p0, %j, %n",
                f"mov.u32 %rb, {R}", "mul.lo.u32 %r, %i, %rb", "shl.b32 %j4, %j, 2", "add.u32 %o, %r, %j4",
                "mov.u32 %f, F", "add.u32 %fij, %f, %o", "sub.u32 %fup, %fij, %rb",
                "mov.u32 %four, 4", "sub.u32 %fdiag, %fup, %four", "sub.u32 %fleft, %fij, %four",
                "@p0 ld.global.s32 %up, [%fup]", "@p0 ld.global.s32 %dg, [%fdiag]",
                "@p0 ld.global.s32 %lf, [%fleft]",
                "mov.u32 %s, S", "add.u32 %sij, %s, %o", "@p0 ld.global.s32 %sv, [%sij]",
                "add.s32 %dg, %dg, %sv", "sub.s32 %dg, %dg, %four",
                "mov.u32 %pen, 10", "sub.s32 %up, %up, %pen", "sub.s32 %lf, %lf, %pen",
                "max.s32 %best, %dg, %up", "max.s32 %best, %best, %lf",
                "@p0 st.global.s32 [%fij], %best"]
        out += kernel(f"diag{d}", body)
        launches.append(f".launch diag{d} 1 {N}")
    return out + launches

def backprop():
    NIN, NOUT = 16, 256
    out = ["# backprop: the forward pass of one layer (Rodinia backprop's",
           "# layerforward): H[j] = sum over i of W[i][j] * X[i], i unrolled; the",
           "# squashing function is left out (DC-PTX has no floating-point exp).",
           "# Written by gen_samples.py.",
           ".machine cbs=1 fp=ftz",
           f".global X f32 {NIN} rand 10 1", f".global W f32 {NIN * NOUT} rand 11 1",
           f".global H f32 {NOUT}"]
    body = ["mov.u32 %cta, %ctaid", "mov.u32 %nt, %ntid", "mov.u32 %t, %tid",
            "mul.lo.u32 %j, %cta, %nt", "add.u32 %j, %j, %t", "shl.b32 %j4, %j, 2",
            "mov.u32 %w, W", "add.u32 %w, %w, %j4", "mov.u32 %x, X", f"mov.u32 %stride, {NOUT * 4}",
            "mov.u32 %four, 4", "mov.f32 %acc, 0f00000000"]
    for i in range(NIN):
        body += ["ld.global.f32 %wv, [%w]", "ld.global.f32 %xv, [%x]", "mad.f32 %acc, %wv, %xv, %acc"]
        if i + 1 < NIN:
            body += ["add.u32 %w, %w, %stride", "add.u32 %x, %x, %four"]
    body += ["mov.u32 %h, H", "add.u32 %h, %h, %j4", "st.global.f32 [%h], %acc"]
    out += kernel("layer", body)
    out.append(f".launch layer 1 {NOUT}")
    return out

def spill():
    """Many values live at once (issue 18): each thread loads K floats and
    K integers before it uses any, then folds them twice in opposite
    orders, so all 2K stay live until the second fold."""
    K, T = 20, 512
    out = ["# spill: 40 values live at once, more than the 12 registers of a",
           "# thread, so the translator spills to local memory (st.local) and",
           "# reloads (ld.local).  Per thread g: x[k] = A[k*512 + g] (f32),",
           "# n[k] = B[k*512 + g] (u32), k < 20;",
           "#   F[g] = sum over k < 10 of x[k] * x[19-k], folded from k = 0;",
           "#   G[g] = (...((x[19] - x[18]) * 0.5 + x[17] - x[16]) * 0.5 ...), k down;",
           "#   I[g] = xor over k of n[k] * (2k + 1);",
           "#   J[g] = sum over k of (n[19-k] >> (k % 7)) - n[k].",
           "# Written by gen_samples.py.",
           ".machine cbs=2 fp=ieee",
           f".global A f32 {K * T} rand 12 100", f".global B u32 {K * T} rand 13",
           f".global F f32 {T}", f".global G f32 {T}", f".global I u32 {T}", f".global J u32 {T}"]
    body = ["mov.u32 %cta, %ctaid", "mov.u32 %nt, %ntid", "mov.u32 %t, %tid",
            "mul.lo.u32 %g, %cta, %nt", "add.u32 %g, %g, %t", "shl.b32 %g4, %g, 2",
            "mov.u32 %a, A", "add.u32 %a, %a, %g4", "mov.u32 %b, B", "add.u32 %b, %b, %g4",
            f"mov.u32 %stride, {T * 4}"]
    for k in range(K):
        body += [f"ld.global.f32 %x{k}, [%a]", f"ld.global.u32 %n{k}, [%b]"]
        if k + 1 < K:
            body += ["add.u32 %a, %a, %stride", "add.u32 %b, %b, %stride"]
    body += ["mul.f32 %f, %x0, %x19"]
    for k in range(1, K // 2):
        body += [f"mul.f32 %fp{k}, %x{k}, %x{K - 1 - k}", f"add.f32 %f, %f, %fp{k}"]
    body += [f"mov.f32 %half, {f32(0.5)}", "sub.f32 %h, %x19, %x18"]
    for k in range(K - 3, 0, -2):
        body += ["mul.f32 %h, %h, %half", f"add.f32 %h, %h, %x{k}", f"sub.f32 %h, %h, %x{k - 1}"]
    body += ["mov.u32 %i, 0"]
    for k in range(K):
        body += [f"mov.u32 %c{k}, {2 * k + 1}", f"mul.lo.u32 %m{k}, %n{k}, %c{k}", f"xor.b32 %i, %i, %m{k}"]
    body += ["mov.u32 %j, 0"]
    for k in range(K):
        body += [f"shr.u32 %s{k}, %n{K - 1 - k}, {k % 7}", f"add.u32 %j, %j, %s{k}", f"sub.u32 %j, %j, %n{k}"]
    for name, v, ty in (("F", "%f", "f32"), ("G", "%h", "f32"), ("I", "%i", "u32"), ("J", "%j", "u32")):
        body += [f"mov.u32 %o, {name}", "add.u32 %o, %o, %g4", f"st.global.{ty} [%o], {v}"]
    out += kernel("spill", body)
    out.append(".launch spill 2 256")
    return out

for name, lines in (("spill", spill()), ("hotspot", hotspot()), ("gaussian", elimination(False)),
                    ("lud", elimination(True)), ("nw", nw()), ("backprop", backprop())):
    with open(name + ".simt", "w") as f:
        f.write("\n".join(lines) + "\n")
