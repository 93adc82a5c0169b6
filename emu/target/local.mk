# SPDX-License-Identifier: MIT
# emu/target/: the interface every emulated system fills (target.h), the
# statistics tree (stats.h) and the list of targets (all.c).  Includes
# only from lib/.
libinfsim_core_la_SOURCES += emu/target/target.h emu/target/stats.h \
	emu/target/target.c emu/target/stats.c emu/target/files.c emu/target/all.c \
	emu/target/opts.h emu/target/opts.c
pkginclude_HEADERS += emu/target/target.h emu/target/stats.h
