# SPDX-License-Identifier: MIT
# emu/stream/: the command-stream language: patterns, machine settings,
# the parser, the assembler's checks, the canonical text, the binary
# form, loading a file, the data-movement commands as written, and a
# buffer's elements in .npy and .bin files.
libinfsim_core_la_SOURCES += emu/stream/program.h emu/stream/assemble.h \
	emu/stream/movecmd.h emu/stream/movecmd.c \
	emu/stream/program.c emu/stream/pattern.c emu/stream/geom.c \
	emu/stream/parse.c emu/stream/format.c emu/stream/encode.c emu/stream/load.c \
	emu/stream/elements.h emu/stream/elements.c
pkginclude_HEADERS += emu/stream/program.h emu/stream/elements.h
