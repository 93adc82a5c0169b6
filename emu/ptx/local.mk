# SPDX-License-Identifier: MIT
# emu/ptx/: PTX as clang emits it (doc/PTX.md): the reader of a module
# and the reference interpreter of a launch; launch texts and their
# device memory plans (launch.h).
libinfsim_core_la_SOURCES += emu/ptx/ptx.h emu/ptx/ptx_int.h emu/ptx/ops.def \
	emu/ptx/lex.c emu/ptx/insn.c emu/ptx/parse.c emu/ptx/ref_alu.c emu/ptx/ref.c \
	emu/ptx/launch.h emu/ptx/launch.c
EXTRA_DIST += emu/ptx/README.md doc/PTX.md
pkginclude_HEADERS += emu/ptx/ptx.h emu/ptx/launch.h
