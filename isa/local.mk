libinfsim_la_SOURCES += isa/isa.h isa/opcodes.def isa/isa.c isa/reference.c \
	isa/add.c isa/logic.c isa/mul.c isa/div.c isa/shift.c isa/cmp.c \
	isa/select.c isa/popcnt.c isa/set.c isa/reduce.c
pkginclude_HEADERS += isa/isa.h isa/opcodes.def
