# SPDX-License-Identifier: MIT
# emu/machine/: the machine that runs a lowered stream: enables and bank
# mapping, per-bank controllers, the transpose unit, data movement and
# its lowering (Algorithms 1 and 2), the interconnect, hazards, statistics.
libinfsim_core_la_SOURCES += emu/machine/machine.h emu/machine/machine.c \
	emu/machine/move.h emu/machine/move_private.h emu/machine/move.c \
	emu/machine/lower.c emu/machine/net.h emu/machine/net.c \
	emu/machine/hazard.h emu/machine/hazard.c \
	emu/machine/snap.h emu/machine/snap.c
pkginclude_HEADERS += emu/machine/machine.h
