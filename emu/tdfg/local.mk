# SPDX-License-Identifier: MIT
# emu/tdfg/: tensor dataflow graphs: the IR and its parser, the JIT that
# lowers them into a stream, and the node-level reference.
libinfsim_core_la_SOURCES += emu/tdfg/tdfg.h emu/tdfg/tdfg.c emu/tdfg/tdfg_prog.c emu/tdfg/jit.c \
	emu/tdfg/tdfg_ref.c emu/tdfg/strm.c emu/tdfg/tdfg_json.h emu/tdfg/tdfg_json.c \
	emu/tdfg/tile_cost.h emu/tdfg/tile_cost.c emu/tdfg/tdfg_param.h emu/tdfg/tdfg_param.c \
	emu/tdfg/jit_asm.h emu/tdfg/jit_asm.c
pkginclude_HEADERS += emu/tdfg/tdfg.h emu/tdfg/tdfg_json.h
