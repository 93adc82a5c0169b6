libinfsim_la_SOURCES += lib/diag.c lib/diag.h
pkginclude_HEADERS += lib/diag.h
EXTRA_DIST += lib/infsim.pc.in
libinfsim_la_SOURCES += lib/npy.c lib/npy.h lib/outfile.c lib/outfile.h lib/infile.c lib/infile.h
pkginclude_HEADERS += lib/npy.h lib/outfile.h lib/infile.h
