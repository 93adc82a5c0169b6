# emu/: the program model (parser, assembler, disassembler), the machine
# that executes it, the scalar reference model, and the infsim program.
libinfsim_la_SOURCES += emu/program.h emu/assemble.h emu/lex.h emu/program.c emu/pattern.c emu/geom.c \
	emu/parse.c emu/format.c emu/encode.c emu/load.c \
	emu/machine.h emu/machine.c emu/refmodel.h emu/refmodel.c \
	emu/report.h emu/report.c emu/layout.h emu/layout.c \
	emu/move.h emu/move_private.h emu/move.c emu/lower.c emu/net.h emu/net.c emu/hazard.h emu/hazard.c \
	emu/tdfg.h emu/tdfg.c emu/jit.c emu/tdfg_ref.c \
	emu/tdfg_json.h emu/tdfg_json.c
pkginclude_HEADERS += emu/program.h emu/machine.h emu/refmodel.h emu/report.h emu/tdfg.h emu/tdfg_json.h

bin_PROGRAMS += infsim
infsim_SOURCES = emu/main.c
infsim_LDADD = libinfsim.la
