# SPDX-License-Identifier: MIT
# emu/check/: where the machine and a reference meet: comparisons.
libinfsim_core_la_SOURCES += emu/check/check.h emu/check/compare.c
pkginclude_HEADERS += emu/check/check.h
