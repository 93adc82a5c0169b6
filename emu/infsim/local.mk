# SPDX-License-Identifier: MIT
# emu/infsim/: the infsim program.
bin_PROGRAMS += infsim
infsim_SOURCES = emu/infsim/main.c emu/infsim/run.h emu/infsim/run.c
infsim_LDADD = libinfsim_core.la
# the rooms of seed systems still to come
EXTRA_DIST += emu/nsc/README.md emu/simt/README.md
