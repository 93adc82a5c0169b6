# SPDX-License-Identifier: MIT
# emu/infsim/: the infsim program.
bin_PROGRAMS += infsim
infsim_SOURCES = emu/infsim/main.c
infsim_LDADD = libinfsim_core.la
