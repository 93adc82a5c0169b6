# SPDX-License-Identifier: MIT
# emu/layout/: the tiled transposed layout (the Layout Override Table,
# tile choice, element <-> bitline mapping, transpose in and out).
libinfsim_core_la_SOURCES += emu/layout/layout.h emu/layout/layout.c \
	emu/layout/transpose.h emu/layout/transpose.c
pkginclude_HEADERS += emu/layout/layout.h emu/layout/transpose.h
