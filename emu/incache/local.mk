# SPDX-License-Identifier: MIT
# emu/incache/: the in-cache machine as a target (emu/target/target.h):
# command streams and tDFGs, run, checked, validated, stepped.
libinfsim_core_la_SOURCES += emu/incache/incache.h emu/incache/target.c emu/incache/run.c \
	emu/incache/stats.c emu/incache/step.c \
	emu/incache/tdfg_stats.h emu/incache/tdfg_stats.c
