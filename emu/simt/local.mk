# SPDX-License-Identifier: MIT
# emu/simt/: Duality Cache's SIMT mode (doc/SIMT.md): the DC-PTX format,
# the machine on the SRAM arrays, the thread-at-a-time reference,
# statistics and the `infsim simt` program.
libinfsim_core_la_SOURCES += emu/simt/simt.h emu/simt/simt_int.h emu/simt/machine_int.h \
	emu/simt/lex.c emu/simt/init.c emu/simt/instr.c emu/simt/parse.c emu/simt/isacmd.c \
	emu/simt/ref_alu.c emu/simt/ref.c emu/simt/slot.c emu/simt/memport.c emu/simt/crossbar.c emu/simt/machine.c emu/simt/thread.c emu/simt/translate.c emu/simt/compare.c emu/simt/report.c emu/simt/format.c emu/simt/target.c \
	emu/simt/ptxc.h emu/simt/ptxc.c emu/simt/ptxprog.c
EXTRA_DIST += emu/simt/README.md
pkginclude_HEADERS += emu/simt/simt.h emu/simt/ptxc.h
# Its samples (duality-cache Table 3's vecadd, matvec and bfs) and its
# reference page.
EXTRA_DIST += samples/simt/vecadd.simt samples/simt/matvec.simt samples/simt/bfs.simt \
	samples/simt/vecadd_thread.simt samples/simt/hotspot.simt samples/simt/gaussian.simt \
	samples/simt/lud.simt samples/simt/nw.simt samples/simt/backprop.simt samples/simt/reduce.simt samples/simt/diverge.simt samples/simt/spill.simt \
	samples/simt/gen_samples.py doc/SIMT.md
