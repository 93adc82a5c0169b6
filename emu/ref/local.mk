# SPDX-License-Identifier: MIT
# emu/ref/: the scalar reference model of a stream, in plain C; it never
# touches cells.
libinfsim_core_la_SOURCES += emu/ref/refmodel.h emu/ref/refmodel.c \
	emu/ref/ref_private.h emu/ref/ref_block.c emu/ref/ref_compute.c emu/ref/ref_move.c \
	emu/ref/ref_fp.h emu/ref/ref_fp.c
pkginclude_HEADERS += emu/ref/refmodel.h
