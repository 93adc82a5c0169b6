# SPDX-License-Identifier: MIT
libinfsim_core_la_SOURCES += sram/sram.c sram/sram_exec.c sram/sram.h sram/pe.def
pkginclude_HEADERS += sram/sram.h sram/pe.def
