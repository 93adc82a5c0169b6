# SPDX-License-Identifier: MIT
# emu/vima/: VIMA, the vector-in-memory architecture (doc/VIMA.md): its
# instruction set, the .vima program format, the unit (vector cache, fill
# buffer, sequencer, sub-requests, host coherence, precise exceptions),
# statistics and the `infsim vima` program.
libinfsim_core_la_SOURCES += emu/vima/vima.h emu/vima/vima_int.h emu/vima/ops.def emu/vima/ops_loop.h \
	emu/vima/ops.c emu/vima/expr.c emu/vima/parse.c emu/vima/load.c \
	emu/vima/dram.c emu/vima/cache.c emu/vima/host.c emu/vima/exec.c \
	emu/vima/unit.c emu/vima/mmu.c emu/vima/report.c \
	emu/vima/ref.c emu/vima/target.c
pkginclude_HEADERS += emu/vima/vima.h emu/vima/ops.def
EXTRA_DIST += emu/vima/README.md
# Its samples (the workloads of VIMA §IV-A) and its fuzz target and seeds.
EXTRA_DIST += samples/vima/memset.vima samples/vima/memcopy.vima samples/vima/vecsum.vima \
	samples/vima/stencil.vima samples/vima/matmul.vima samples/vima/knn.vima \
	samples/vima/mlp.vima tests/fuzz/fuzz_vima.c \
	tests/fuzz/corpus/vima/knn.vima tests/fuzz/corpus/vima/matmul.vima tests/fuzz/corpus/vima/memcopy.vima tests/fuzz/corpus/vima/memset.vima tests/fuzz/corpus/vima/mlp.vima tests/fuzz/corpus/vima/perm.vima tests/fuzz/corpus/vima/small_all.vima tests/fuzz/corpus/vima/stencil.vima tests/fuzz/corpus/vima/vecsum.vima
# make fuzz-vima: build the libFuzzer target with clang and run it for
# FUZZ_SECONDS (doc/VIMA.md, "Fuzzing"); not part of `make check`.  It
# fuzzes the unit, so the target's table (target.c) stays out.
FUZZ_SECONDS = 60
.PHONY: fuzz-vima
fuzz-vima:
	clang -g -O1 -fsanitize=fuzzer,address,undefined -I$(srcdir)/lib -I$(srcdir)/emu/vima \
		$(srcdir)/tests/fuzz/fuzz_vima.c \
		$(filter-out %/target.c,$(wildcard $(srcdir)/emu/vima/[a-z]*.c)) $(srcdir)/lib/diag.c \
		$(srcdir)/lib/npy.c $(srcdir)/lib/outfile.c $(srcdir)/lib/text.c $(srcdir)/lib/cli.c -lm -o fuzz_vima
	mkdir -p fuzz_vima_corpus && cp $(srcdir)/tests/fuzz/corpus/vima/* fuzz_vima_corpus/
	./fuzz_vima -max_total_time=$(FUZZ_SECONDS) -max_len=4096 fuzz_vima_corpus
CLEANFILES += fuzz_vima
