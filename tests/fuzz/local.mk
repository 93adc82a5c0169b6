# tests/fuzz/: fuzz targets, one per input format (doc/TESTING.md).
# `make check` replays each on its seed corpus and its regression inputs
# (tests/fuzz/replay.sh, with the normal compiler); `make fuzz` fuzzes
# each for FUZZ_TIME seconds with libFuzzer (tests/fuzz/fuzz.sh).  A new
# tests/fuzz/fuzz_NAME.c with a corpus folder tests/fuzz/corpus/NAME/ is
# picked up by both, with no change here.
FUZZ_TIME = 60
FUZZ_TARGETS =
EXTRA_DIST += tests/fuzz
FUZZ_ENV = srcdir='$(abs_top_srcdir)' builddir='$(abs_top_builddir)'
TESTS += tests/fuzz/replay.sh
AM_TESTS_ENVIRONMENT = $(FUZZ_ENV) CC='$(CC)' LIBTOOL='$(LIBTOOL)' \
	FUZZ_CFLAGS='$(AM_CFLAGS) $(CFLAGS) $(AM_LDFLAGS)'; \
	export srcdir builddir CC LIBTOOL FUZZ_CFLAGS;
.PHONY: fuzz
fuzz: libinfsim.la
	$(FUZZ_ENV) FUZZ_CC='$(FUZZ_CC)' FUZZ_WHY='$(FUZZ_WHY)' FUZZ_TIME='$(FUZZ_TIME)' \
	FUZZ_TARGETS='$(FUZZ_TARGETS)' FUZZ_LIB_SOURCES='$(libinfsim_la_SOURCES)' \
	sh $(srcdir)/tests/fuzz/fuzz.sh
clean-local: clean-fuzz
.PHONY: clean-fuzz
clean-fuzz:
	rm -rf fuzz
