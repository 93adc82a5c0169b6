# `make bench`: throughput figures, not tests.
EXTRA_PROGRAMS += bench/bench_int
bench_bench_int_SOURCES = bench/bench_int.c
bench_bench_int_LDADD = libinfsim.la
CLEANFILES += $(EXTRA_PROGRAMS)

.PHONY: bench
bench: $(EXTRA_PROGRAMS)
	./bench/bench_int
