# SPDX-License-Identifier: MIT
dist_man1_MANS += doc/infsim.1
EXTRA_DIST += doc/USAGE.md COPYING doc/TESTING.md doc/stats.schema.json
EXTRA_DIST += doc/ARCHITECTURE.md doc/MACHINE.md doc/COMMANDS.md doc/FORMAT.md \
	doc/commands/mul-div.md doc/commands/ops.md doc/PERFORMANCE.md README.md
EXTRA_DIST += dbg/README.md
dist_man1_MANS += doc/infsdb.1
EXTRA_DIST += doc/DEBUGGER.md
EXTRA_DIST += doc/tutorial-bitserial.md
EXTRA_DIST += doc/commands/cordic.md doc/commands/fpadd.md
EXTRA_DIST += doc/commands/search.md
EXTRA_DIST += doc/commands/fpmul-div.md
EXTRA_DIST += doc/commands/fpcmp-cvt.md
EXTRA_DIST += doc/commands/optimised.md
EXTRA_DIST += doc/commands/fma.md
EXTRA_DIST += doc/LAYOUT.md
EXTRA_DIST += doc/MOVEMENT.md
EXTRA_DIST += doc/TDFG.md doc/WORKLOADS.md
EXTRA_DIST += doc/FLOAT.md
EXTRA_DIST += doc/VIMA.md
EXTRA_DIST += doc/vima_fig5.dat doc/vima_fig5.svg
EXTRA_DIST += doc/workloads_fig14.dat doc/workloads_fig14.svg doc/workloads_fig13.dat doc/workloads_fig13.svg
EXTRA_DIST += doc/ACTIVE-ROUTING.md
EXTRA_DIST += doc/tutorial-jit.md
