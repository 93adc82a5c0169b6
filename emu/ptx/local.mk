# SPDX-License-Identifier: MIT
# emu/ptx/: PTX as clang emits it (doc/PTX.md): the reader of a module
# and the reference interpreter of a launch.
libinfsim_core_la_SOURCES += emu/ptx/ptx.h emu/ptx/ptx_int.h emu/ptx/ops.def \
	emu/ptx/lex.c emu/ptx/insn.c emu/ptx/parse.c emu/ptx/ref_alu.c emu/ptx/ref.c
EXTRA_DIST += emu/ptx/README.md doc/PTX.md
pkginclude_HEADERS += emu/ptx/ptx.h
