# SPDX-License-Identifier: MIT
libinfsim_core_la_SOURCES += lib/diag.c lib/diag.h
pkginclude_HEADERS += lib/diag.h
EXTRA_DIST += lib/infsim.pc.in
libinfsim_core_la_SOURCES += lib/cli.c lib/cli.h lib/npy.c lib/npy.h lib/outfile.c lib/outfile.h lib/text.c lib/text.h lib/mem.c lib/mem.h lib/api.h
pkginclude_HEADERS += lib/npy.h lib/api.h
