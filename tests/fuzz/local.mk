# SPDX-License-Identifier: MIT
# tests/fuzz/: fuzz targets, one per input format (doc/TESTING.md).
# `make check` replays each on its seed corpus and its regression inputs
# (tests/fuzz/replay.sh, with the normal compiler); `make fuzz` fuzzes
# each for FUZZ_TIME seconds with libFuzzer (tests/fuzz/fuzz.sh).  A new
# tests/fuzz/fuzz_NAME.c with a corpus folder tests/fuzz/corpus/NAME/ is
# picked up by both, with no change here.
FUZZ_TIME = 60
FUZZ_OPT = -O1
FUZZ_TARGETS =
# The whole folder from the source tree (any target, corpus and
# regression input), not the build folder's logs beside it.
dist-hook: dist-fuzz
.PHONY: dist-fuzz
dist-fuzz:
	$(MKDIR_P) $(distdir)/tests
	cp -pR $(srcdir)/tests/fuzz $(distdir)/tests/
	rm -f $(distdir)/tests/fuzz/*.log $(distdir)/tests/fuzz/*.trs
	chmod -R u+w $(distdir)/tests/fuzz
# The debugger's targets (those that include fuzz_dbg.h) link dbg/'s
# convenience library, and readline and ncurses with it.
FUZZ_ENV = srcdir='$(abs_top_srcdir)' builddir='$(abs_top_builddir)' \
	FUZZ_CPPFLAGS='$(AM_CPPFLAGS) $(JSONC_CFLAGS) $(XXHASH_CFLAGS) $(ZSTD_CFLAGS) -I$(top_srcdir)/dbg $(READLINE_CFLAGS) $(NCURSES_CFLAGS) -I$(top_srcdir)/tests/fuzz' \
	FUZZ_DBG_LIBS='$(READLINE_LIBS) $(NCURSES_LIBS)'
TESTS += tests/fuzz/replay.sh
AM_TESTS_ENVIRONMENT += $(FUZZ_ENV) LIBTOOL='$(LIBTOOL)' \
	FUZZ_CFLAGS='$(AM_CFLAGS) $(CFLAGS) $(AM_LDFLAGS)' \
	FUZZ_LIBS='$(XXHASH_LIBS) $(ZSTD_LIBS)'; \
	export srcdir builddir LIBTOOL FUZZ_CFLAGS FUZZ_CPPFLAGS FUZZ_DBG_LIBS FUZZ_LIBS;
.PHONY: fuzz
fuzz: libinfsim_core.la dbg/libinfsdb.la
	$(FUZZ_ENV) FUZZ_CC='$(FUZZ_CC)' FUZZ_WHY='$(FUZZ_WHY)' FUZZ_TIME='$(FUZZ_TIME)' \
	FUZZ_OPT='$(FUZZ_OPT)' \
	FUZZ_TARGETS='$(FUZZ_TARGETS)' FUZZ_LIB_SOURCES='$(libinfsim_core_la_SOURCES)' \
	FUZZ_DBG_SOURCES='$(dbg_libinfsdb_la_SOURCES)' \
	FUZZ_LIBS='$(JSONC_LIBS) $(XXHASH_LIBS) $(ZSTD_LIBS)' \
	sh $(srcdir)/tests/fuzz/fuzz.sh
clean-local: clean-fuzz
.PHONY: clean-fuzz
clean-fuzz:
	rm -rf fuzz
