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
# doc/FIGURES.md and its pictures and tables (make figures writes them)
EXTRA_DIST += doc/FIGURES.md \
	doc/figures/ar-fig10.svg doc/figures/ar-fig10.dat \
	doc/figures/ar-fig11.svg doc/figures/ar-fig11.dat \
	doc/figures/ar-fig8.svg doc/figures/ar-fig8.dat \
	doc/figures/ar-fig9.svg doc/figures/ar-fig9.dat \
	doc/figures/dc-fig12.svg doc/figures/dc-fig12.dat \
	doc/figures/dc-fig13.svg doc/figures/dc-fig13.dat \
	doc/figures/dc-fig9.svg doc/figures/dc-fig9.dat \
	doc/figures/is-fig13.svg doc/figures/is-fig13.dat \
	doc/figures/is-fig14.svg doc/figures/is-fig14.dat \
	doc/figures/is-fig16.svg doc/figures/is-fig16.dat \
	doc/figures/is-fig17.svg doc/figures/is-fig17.dat \
	doc/figures/nsc-fig11.svg doc/figures/nsc-fig11.dat \
	doc/figures/nsc-fig12.svg doc/figures/nsc-fig12.dat \
	doc/figures/nsc-fig1b.svg doc/figures/nsc-fig1b.dat \
	doc/figures/vima-fig5.svg doc/figures/vima-fig5.dat \
	doc/figures/vima-table1.svg doc/figures/vima-table1.dat
