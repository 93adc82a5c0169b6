# SPDX-License-Identifier: MIT
# `make bench`: throughput figures, not tests (doc/PERFORMANCE.md).
# Arguments for the program: make bench BENCH_ARGS=5 (repetitions).
EXTRA_PROGRAMS += bench/bench_int
bench_bench_int_SOURCES = bench/bench_int.c bench/bench_util.c bench/bench_util.h
bench_bench_int_LDADD = libinfsim_core.la
CLEANFILES += bench/bench_int$(EXEEXT)
EXTRA_PROGRAMS += bench/bench_fp
bench_bench_fp_SOURCES = bench/bench_fp.c bench/bench_util.c bench/bench_util.h
bench_bench_fp_LDADD = libinfsim_core.la
CLEANFILES += bench/bench_fp$(EXEEXT)
EXTRA_PROGRAMS += bench/bench_move
bench_bench_move_SOURCES = bench/bench_move.c bench/bench_util.c bench/bench_util.h
bench_bench_move_LDADD = libinfsim_core.la
CLEANFILES += bench/bench_move$(EXEEXT)
EXTRA_PROGRAMS += bench/bench_jit
bench_bench_jit_SOURCES = bench/bench_jit.c bench/bench_util.c bench/bench_util.h
bench_bench_jit_CFLAGS = $(AM_CFLAGS) -DSRCDIR='"$(abs_top_srcdir)"'
bench_bench_jit_LDADD = libinfsim_core.la
CLEANFILES += bench/bench_jit$(EXEEXT)
EXTRA_PROGRAMS += bench/bench_run
bench_bench_run_SOURCES = bench/bench_run.c bench/bench_util.c bench/bench_util.h
bench_bench_run_CFLAGS = $(AM_CFLAGS) -DSRCDIR='"$(abs_top_srcdir)"'
bench_bench_run_LDADD = libinfsim_core.la
CLEANFILES += bench/bench_run$(EXEEXT)
EXTRA_PROGRAMS += bench/bench_reverse
bench_bench_reverse_SOURCES = bench/bench_reverse.c bench/bench_util.c bench/bench_util.h
bench_bench_reverse_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/dbg
bench_bench_reverse_CFLAGS = $(AM_CFLAGS) $(READLINE_CFLAGS) $(NCURSES_CFLAGS)
bench_bench_reverse_LDADD = dbg/libinfsdb.la libinfsim_core.la $(READLINE_LIBS) $(NCURSES_LIBS) \
	$(XXHASH_LIBS) $(ZSTD_LIBS)
CLEANFILES += bench/bench_reverse$(EXEEXT)

# The seed systems at the paper's sizes run last: bench-vima (about 15
# minutes) and bench-ar, each also on its own.
.PHONY: bench
bench: bench/bench_int$(EXEEXT) bench/bench_fp$(EXEEXT) bench/bench_move$(EXEEXT) \
	bench/bench_jit$(EXEEXT) bench/bench_run$(EXEEXT) bench/bench_reverse$(EXEEXT) infsim$(EXEEXT)
	./bench/bench_int$(EXEEXT) $(BENCH_ARGS)
	./bench/bench_fp$(EXEEXT) $(BENCH_ARGS)
	./bench/bench_move$(EXEEXT) $(BENCH_ARGS)
	./bench/bench_jit$(EXEEXT) $(BENCH_ARGS)
	./bench/bench_run$(EXEEXT) $(BENCH_ARGS)
	./bench/bench_reverse$(EXEEXT) $(BENCH_ARGS)
	$(MAKE) bench-vima bench-ar

# VIMA at the paper's sizes and the Fig 5 line-count sweep (doc/VIMA.md):
# make bench-vima (VIMA_BENCH_ARGS=--quick for the 4 MB sizes only).
EXTRA_DIST += bench/vima_bench.py
.PHONY: bench-vima
bench-vima: infsim$(EXEEXT)
	python3 $(srcdir)/bench/vima_bench.py --infsim ./infsim --out . $(VIMA_BENCH_ARGS)
# `make bench-ar`: Active-Routing's workloads at the paper's sizes (Fig 10).
EXTRA_DIST += bench/ar_paper.sh
.PHONY: bench-ar
bench-ar: infsim$(EXEEXT)
	sh $(srcdir)/bench/ar_paper.sh ./infsim$(EXEEXT) $(srcdir)/samples/ar
# `make bench-ar-roots`: Figs 8 and 9, the three root policies (about 10 s).
EXTRA_DIST += bench/ar_roots.sh
.PHONY: bench-ar-roots
bench-ar-roots: infsim$(EXEEXT)
	sh $(srcdir)/bench/ar_roots.sh ./infsim$(EXEEXT) $(srcdir)/samples/ar

# Table 3's workloads at the paper's sizes (samples/workloads/), plain and
# with --check, against their C kernels; the Fig 14 and Fig 13 pictures
# and the tile sweep (doc/PERFORMANCE.md).  Needs gnuplot (Debian:
# gnuplot-nox) for the pictures.  make bench-workloads
# WORKLOADS_ARGS="stencil2d conv2d" runs some of them.
EXTRA_PROGRAMS += bench/workload_case
bench_workload_case_SOURCES = bench/workload_case.c tests/kernels/workloads.h \
	tests/kernels/ops_f32.c tests/kernels/ops_i32.c tests/kernels/cases.h \
	tests/kernels/fill.c tests/kernels/case_f32.c tests/kernels/case_i32.c \
	bench/strm_case.c bench/strm_case.h tests/kernels/strm_kernels.c tests/kernels/strm_kernels.h
bench_workload_case_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/kernels
CLEANFILES += bench/workload_case$(EXEEXT)
clean-local: clean-bench-workloads
.PHONY: clean-bench-workloads
clean-bench-workloads:
	rm -rf bench-workloads
EXTRA_DIST += bench/workloads.py
.PHONY: bench-workloads
bench-workloads: infsim$(EXEEXT) bench/workload_case$(EXEEXT)
	python3 $(srcdir)/bench/workloads.py ./infsim$(EXEEXT) ./bench/workload_case$(EXEEXT) \
	  $(srcdir)/samples/workloads bench-workloads $(WORKLOADS_ARGS)
# `make bench-nsc`: the NoC traffic of the near-stream workloads with and
# without offload, by class (doc/STREAMS.md, NSC Fig 1b and Fig 12).
# bench/nsc_gap.py: Fig 12's traffic split by mechanism, and variant runs
# each without one (doc/STREAMS.md, "Next to NSC Fig 12").
EXTRA_DIST += bench/nsc_traffic.sh bench/nsc_gap.py
.PHONY: bench-nsc
bench-nsc: infsim$(EXEEXT)
	sh $(srcdir)/bench/nsc_traffic.sh ./infsim$(EXEEXT) $(srcdir)/samples/nsc
	python3 $(srcdir)/bench/nsc_gap.py --infsim ./infsim$(EXEEXT) --samples $(srcdir)/samples/nsc

# `make figures`: the seed papers' headline figures from infsim's counts,
# each beside the paper's published values (bench/figures.py,
# bench/figures/paper.json; doc/FIGURES.md shows them), into figures/ of
# the build folder.  FIGURES_ARGS: figure IDs, --quick, --scale=F.
# tests/check_figures.sh runs it with --quick in make check.
EXTRA_DIST += bench/figures.py bench/figures/paper.json bench/figures/README.md
.PHONY: figures
figures: infsim$(EXEEXT) tests/ck_export$(EXEEXT)
	python3 $(srcdir)/bench/figures.py --infsim ./infsim$(EXEEXT) \
	  --ck-export tests/ck_export$(EXEEXT) --out figures $(FIGURES_ARGS)
clean-local: clean-figures
.PHONY: clean-figures
clean-figures:
	rm -rf figures
