libinfsim_la_SOURCES += lib/diag.c lib/diag.h
pkginclude_HEADERS += lib/diag.h
EXTRA_DIST += lib/infsim.pc.in
