# `make bench`: throughput figures, not tests (doc/PERFORMANCE.md).
# Arguments for the program: make bench BENCH_ARGS=5 (repetitions).
EXTRA_PROGRAMS += bench/bench_int
bench_bench_int_SOURCES = bench/bench_int.c
bench_bench_int_LDADD = libinfsim.la
CLEANFILES += bench/bench_int$(EXEEXT)

.PHONY: bench
bench: bench/bench_int$(EXEEXT)
	./bench/bench_int$(EXEEXT) $(BENCH_ARGS)
