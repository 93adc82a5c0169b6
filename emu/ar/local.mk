# SPDX-License-Identifier: MIT
# emu/ar/: Active-Routing (HPCA'19), in-network reductions over a network
# of memory cubes (doc/ACTIVE-ROUTING.md).  Includes only from lib/, and
# target.c from emu/target/ (the interface it fills).
libinfsim_core_la_SOURCES += emu/ar/ar.h emu/ar/ar_private.h emu/ar/ar_lex.h emu/ar/engine_types.h \
	emu/ar/lex.c emu/ar/parse.c emu/ar/memory.c emu/ar/alu.c emu/ar/net.c emu/ar/host.c \
	emu/ar/engine.c emu/ar/are.c emu/ar/wait.c emu/ar/flows.c emu/ar/pei.c emu/ar/report.c emu/ar/session.c \
	emu/ar/ref.c emu/ar/target.c
pkginclude_HEADERS += emu/ar/ar.h
EXTRA_DIST += emu/ar/README.md
