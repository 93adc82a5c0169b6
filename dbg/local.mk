# SPDX-License-Identifier: MIT
# dbg/: infsdb, the gdb-style debugger of command streams.
bin_PROGRAMS += infsdb
infsdb_SOURCES = dbg/dbg.h dbg/main.c dbg/commands.c dbg/exec.c dbg/breaks.c \
	dbg/expr.c dbg/value.c dbg/inspect.c dbg/state.c dbg/reverse.c dbg/record.c \
	dbg/tui.c dbg/nodes.c dbg/ar.c dbg/valid.c dbg/ckptfile.c
infsdb_CFLAGS = $(AM_CFLAGS) $(READLINE_CFLAGS) $(NCURSES_CFLAGS) $(XXHASH_CFLAGS) $(ZSTD_CFLAGS)
infsdb_LDADD = libinfsim_core.la $(READLINE_LIBS) $(NCURSES_LIBS) $(XXHASH_LIBS) $(ZSTD_LIBS)
