# SPDX-License-Identifier: MIT
libinfsim_core_la_SOURCES += sram/sram.c sram/sram_exec.c sram/sram.h sram/pe.def \
	sram/sram_block.c sram/sram_block.h sram/sram_vec.h \
	sram/sram_far.c sram/sram_far.h
pkginclude_HEADERS += sram/sram.h sram/pe.def
