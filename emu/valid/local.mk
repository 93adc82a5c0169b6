# SPDX-License-Identifier: MIT
# emu/valid/: a stream validated against the tDFG it was lowered from
# (doc/TDFG.md, "Validating a stream"): above the tDFG's reference and
# the reports it uses, below the programs (infsim run --tdfg, infsdb).
libinfsim_core_la_SOURCES += emu/valid/validate.h emu/valid/validate.c \
	emu/valid/valid_private.h emu/valid/bind.c emu/valid/bisect.c emu/valid/end.c
pkginclude_HEADERS += emu/valid/validate.h
