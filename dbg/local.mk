# SPDX-License-Identifier: MIT
# dbg/: infsdb, the gdb-style debugger of command streams.  Everything
# but the program's entry (main.c) is a convenience library, which the
# fuzz targets of debugger command lines and checkpoints link too
# (tests/fuzz/fuzz_dbg.c, fuzz_checkpoint.c).
noinst_LTLIBRARIES += dbg/libinfsdb.la
dbg_libinfsdb_la_SOURCES = dbg/dbg.h dbg/console.c dbg/commands.c dbg/exec.c dbg/breaks.c \
	dbg/expr.c dbg/value.c dbg/inspect.c dbg/state.c dbg/reverse.c dbg/record.c \
	dbg/tui.c dbg/layout.c dbg/nodes.c dbg/valid.c dbg/loads.c dbg/vars.c dbg/settings.c \
	dbg/user.c dbg/printf.c dbg/frames.c dbg/location.c dbg/expect.c dbg/ckptfile.c \
	dbg/snaps.c dbg/ckpts.c dbg/tui_int.h dbg/tui_target.c dbg/target_mode.h dbg/target.c dbg/target_data.c
dbg_libinfsdb_la_CFLAGS = $(AM_CFLAGS) $(READLINE_CFLAGS) $(NCURSES_CFLAGS) $(XXHASH_CFLAGS) $(ZSTD_CFLAGS)
bin_PROGRAMS += infsdb
infsdb_SOURCES = dbg/main.c
infsdb_CFLAGS = $(AM_CFLAGS) $(READLINE_CFLAGS) $(NCURSES_CFLAGS) $(XXHASH_CFLAGS) $(ZSTD_CFLAGS)
infsdb_LDADD = dbg/libinfsdb.la libinfsim_core.la $(READLINE_LIBS) $(NCURSES_LIBS) $(XXHASH_LIBS) $(ZSTD_LIBS)
