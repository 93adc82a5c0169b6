# SPDX-License-Identifier: MIT
# emu/nsc/: near-stream computing (doc/STREAMS.md): the .nsc stream
# program format, the stream engines at the core and at the L3 banks,
# the floating decision, range synchronisation, messages and traffic, a
# reference of the programs' meaning, and the `infsim nsc` program.
libinfsim_core_la_SOURCES += emu/nsc/nsc.h emu/nsc/nsc_int.h emu/nsc/engine.h \
	emu/nsc/lex.c emu/nsc/expr.c emu/nsc/parse.c emu/nsc/region.c emu/nsc/value.c \
	emu/nsc/mem.c emu/nsc/files.c emu/nsc/cache.c emu/nsc/noc.c emu/nsc/core.c \
	emu/nsc/engine.c emu/nsc/commit.c emu/nsc/region_run.c emu/nsc/float.c emu/nsc/nest.c \
	emu/nsc/session.c emu/nsc/ref.c emu/nsc/report.c \
	emu/nsc/target.c
pkginclude_HEADERS += emu/nsc/nsc.h
EXTRA_DIST += emu/nsc/README.md
EXTRA_DIST += doc/STREAMS.md \
	samples/nsc/bfs_pull.nsc \
	samples/nsc/bfs_push.nsc \
	samples/nsc/bin_tree.nsc \
	samples/nsc/hash_join.nsc \
	samples/nsc/histogram.nsc \
	samples/nsc/hotspot.nsc \
	samples/nsc/hotspot3d.nsc \
	samples/nsc/pathfinder.nsc \
	samples/nsc/pr_pull.nsc \
	samples/nsc/pr_push.nsc \
	samples/nsc/scluster.nsc \
	samples/nsc/srad.nsc \
	samples/nsc/sssp.nsc \
	samples/nsc/svm.nsc
