# SPDX-License-Identifier: MIT
# emu/report/: statistics and mismatch reports, for infsim and infsdb.
libinfsim_core_la_SOURCES += emu/report/report.h emu/report/report.c \
	emu/report/paper.h emu/report/paper.c emu/report/tree.c
pkginclude_HEADERS += emu/report/report.h emu/report/paper.h
