# SPDX-License-Identifier: MIT
libinfsim_core_la_SOURCES += isa/isa.h isa/family.h isa/opcodes.def isa/isa.c isa/reference.c \
	isa/add.c isa/logic.c isa/mul.c isa/div.c isa/shift.c isa/cmp.c \
	isa/select.c isa/popcnt.c isa/set.c isa/reduce.c \
	isa/search.c isa/fpcore.c isa/fpcore.h isa/fpadd.c isa/fpmul.c isa/fma.c isa/fpmuldiv.h isa/fpdiv.c isa/fpcmp.c isa/cvt.c \
	isa/cordic.c isa/cordic_ref.c isa/rsqrt.c isa/fpref.c isa/families.def
pkginclude_HEADERS += isa/isa.h isa/opcodes.def
