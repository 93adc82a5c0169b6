# SPDX-License-Identifier: MIT
# emu/ref/: the scalar reference model of a stream, in plain C; it never
# touches cells.
libinfsim_core_la_SOURCES += emu/ref/refmodel.h emu/ref/refmodel.c
pkginclude_HEADERS += emu/ref/refmodel.h
