# Test suites (Criterion).  Each is one program; `make check` runs them all.
check_LTLIBRARIES = tests/libharness.la
tests_libharness_la_SOURCES = tests/isa_harness.c tests/isa_harness.h \
	tests/proc.c tests/proc.h tests/infsim_run.h tests/fp_cases.c tests/fp_cases.h \
	tests/fp_host.c tests/fp_host.h
# Without Criterion (configure says so) the programs build, and `make
# check` stops here with the package to install.
tests/criterion.stamp:
	@if test "$(have_criterion)" != yes; then \
	  echo "make check needs Criterion, which configure did not find: install it"; \
	  echo "(Debian package: libcriterion-dev), then run ./configure again."; exit 1; fi
	@$(MKDIR_P) tests && touch $@
$(tests_libharness_la_OBJECTS): tests/criterion.stamp
CLEANFILES += tests/criterion.stamp
TEST_LIBS = tests/libharness.la libinfsim_core.la $(CRITERION_LIBS) -lm # fp_host.c: ilogb, nearbyint
TEST_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)

check_PROGRAMS += tests/test_isa_basic
tests_test_isa_basic_SOURCES = tests/test_isa_basic.c
tests_test_isa_basic_CFLAGS = $(TEST_CFLAGS)
tests_test_isa_basic_LDADD = $(TEST_LIBS)


check_PROGRAMS += tests/test_fpref
tests_test_fpref_SOURCES = tests/test_fpref.c
tests_test_fpref_CFLAGS = $(TEST_CFLAGS)
tests_test_fpref_LDADD = $(TEST_LIBS)

check_PROGRAMS += tests/test_search tests/test_intopt
tests_test_search_SOURCES = tests/test_search.c
tests_test_search_CFLAGS = $(TEST_CFLAGS)
tests_test_search_LDADD = $(TEST_LIBS)
tests_test_intopt_SOURCES = tests/test_intopt.c
tests_test_intopt_CFLAGS = $(TEST_CFLAGS)
tests_test_intopt_LDADD = $(TEST_LIBS)

check_PROGRAMS += tests/test_mul_div
tests_test_mul_div_SOURCES = tests/test_mul_div.c
tests_test_mul_div_CFLAGS = $(TEST_CFLAGS)
tests_test_mul_div_LDADD = $(TEST_LIBS)

check_PROGRAMS += tests/test_ops
tests_test_ops_SOURCES = tests/test_ops.c
tests_test_ops_CFLAGS = $(TEST_CFLAGS)
tests_test_ops_LDADD = $(TEST_LIBS)

check_PROGRAMS += tests/test_stream
tests_test_stream_SOURCES = tests/test_stream.c
tests_test_stream_CFLAGS = $(TEST_CFLAGS)
tests_test_stream_LDADD = $(TEST_LIBS)

check_PROGRAMS += tests/test_cli
tests_test_cli_SOURCES = tests/test_cli.c
tests_test_cli_CFLAGS = $(TEST_CFLAGS) -DINFSIM_BIN='"$(abs_top_builddir)/infsim"' -DSRCDIR='"$(abs_top_srcdir)"'
tests_test_cli_LDADD = $(TEST_LIBS)
check_PROGRAMS += tests/test_samples
tests_test_samples_SOURCES = tests/test_samples.c
tests_test_samples_CFLAGS = $(TEST_CFLAGS) -DINFSIM_BIN='"$(abs_top_builddir)/infsim"' -DSRCDIR='"$(abs_top_srcdir)"'
tests_test_samples_LDADD = $(TEST_LIBS)

check_PROGRAMS += tests/test_machine
tests_test_machine_SOURCES = tests/test_machine.c
tests_test_machine_CFLAGS = $(TEST_CFLAGS) -DSRCDIR='"$(abs_top_srcdir)"'
tests_test_machine_LDADD = $(TEST_LIBS)

check_PROGRAMS += tests/test_layout
tests_test_layout_SOURCES = tests/test_layout.c
tests_test_layout_CFLAGS = $(TEST_CFLAGS)
tests_test_layout_LDADD = $(TEST_LIBS)

check_PROGRAMS += tests/test_fpadd
tests_test_fpadd_SOURCES = tests/test_fpadd.c
tests_test_fpadd_CFLAGS = $(TEST_CFLAGS)
tests_test_fpadd_LDADD = $(TEST_LIBS)

check_PROGRAMS += tests/test_fpmul
tests_test_fpmul_SOURCES = tests/test_fpmul.c
tests_test_fpmul_CFLAGS = $(TEST_CFLAGS)
tests_test_fpmul_LDADD = $(TEST_LIBS)

check_PROGRAMS += tests/test_cordic
tests_test_cordic_SOURCES = tests/test_cordic.c
tests_test_cordic_CFLAGS = $(TEST_CFLAGS)
tests_test_cordic_LDADD = $(TEST_LIBS) -lm
check_PROGRAMS += tests/test_rsqrt
tests_test_rsqrt_SOURCES = tests/test_rsqrt.c
tests_test_rsqrt_CFLAGS = $(TEST_CFLAGS)
tests_test_rsqrt_LDADD = $(TEST_LIBS) -lm

check_PROGRAMS += tests/test_exec
tests_test_exec_SOURCES = tests/test_exec.c
tests_test_exec_CFLAGS = $(TEST_CFLAGS)
tests_test_exec_LDADD = $(TEST_LIBS)

check_PROGRAMS += tests/test_fpcmp
tests_test_fpcmp_SOURCES = tests/test_fpcmp.c
tests_test_fpcmp_CFLAGS = $(TEST_CFLAGS)
tests_test_fpcmp_LDADD = $(TEST_LIBS)

check_PROGRAMS += tests/test_cvt
tests_test_cvt_SOURCES = tests/test_cvt.c
tests_test_cvt_CFLAGS = $(TEST_CFLAGS)
tests_test_cvt_LDADD = $(TEST_LIBS)

check_PROGRAMS += tests/test_move
tests_test_move_SOURCES = tests/test_move.c
tests_test_move_CFLAGS = $(TEST_CFLAGS) -DSRCDIR='"$(abs_top_srcdir)"'
tests_test_move_LDADD = $(TEST_LIBS)
check_PROGRAMS += tests/test_move_step
tests_test_move_step_SOURCES = tests/test_move_step.c
tests_test_move_step_CFLAGS = $(TEST_CFLAGS) -DINFSDB_BIN='"$(abs_top_builddir)/infsdb"' -DSRCDIR='"$(abs_top_srcdir)"'
tests_test_move_step_LDADD = $(TEST_LIBS)
check_PROGRAMS += tests/test_checkpoint
tests_test_checkpoint_SOURCES = tests/test_checkpoint.c
tests_test_checkpoint_CFLAGS = $(TEST_CFLAGS) -DINFSDB_BIN='"$(abs_top_builddir)/infsdb"' -DSRCDIR='"$(abs_top_srcdir)"'
tests_test_checkpoint_LDADD = $(TEST_LIBS)
check_PROGRAMS += tests/test_tdfg
tests_test_tdfg_SOURCES = tests/test_tdfg.c
tests_test_tdfg_CFLAGS = $(TEST_CFLAGS) -DINFSIM_BIN='"$(abs_top_builddir)/infsim"' -DSRCDIR='"$(abs_top_srcdir)"'
tests_test_tdfg_LDADD = $(TEST_LIBS)
EXTRA_DIST += samples/fig9/fig9.txt
TESTS += $(check_PROGRAMS)
EXTRA_DIST += tests/data/small.ins tests/data/resize.ins tests/data/bad_syntax.ins

check_PROGRAMS += tests/test_jit_reduce
tests_test_jit_reduce_SOURCES = tests/test_jit_reduce.c
tests_test_jit_reduce_CFLAGS = $(TEST_CFLAGS)
tests_test_jit_reduce_LDADD = $(TEST_LIBS)

check_PROGRAMS += tests/test_dbg
tests_test_dbg_SOURCES = tests/test_dbg.c
tests_test_dbg_CFLAGS = $(TEST_CFLAGS) -DINFSDB_BIN='"$(abs_top_builddir)/infsdb"' -DSRCDIR='"$(abs_top_srcdir)"'
tests_test_dbg_LDADD = $(TEST_LIBS)
EXTRA_DIST += tests/dbg/steps.ins tests/dbg/sourced.inc \
	tests/dbg/help.cmds tests/dbg/help.out tests/dbg/abbrev.cmds tests/dbg/abbrev.out \
	tests/dbg/run.cmds tests/dbg/run.out tests/dbg/break.cmds tests/dbg/break.out \
	tests/dbg/print.cmds tests/dbg/print.out tests/dbg/array.cmds tests/dbg/array.out \
	tests/dbg/display.cmds tests/dbg/display.out tests/dbg/check.cmds tests/dbg/check.out \
	tests/dbg/watch.cmds tests/dbg/watch.out tests/dbg/misc.cmds tests/dbg/misc.out \
	tests/dbg/reverse.cmds tests/dbg/reverse.out \
	tests/dbg/float.ins tests/dbg/float.cmds tests/dbg/float.out tests/dbg/watchf.cmds \
	tests/dbg/watchf.out tests/dbg/dd.ins tests/dbg/dd.cmds tests/dbg/dd.out \
	tests/dbg/move.cmds tests/dbg/move.out tests/dbg/movestep.cmds tests/dbg/movestep.out tests/dbg/tensor.ins tests/dbg/tensor.cmds \
	tests/dbg/tensor.out tests/dbg/tdfg_sum.tdfg \
	tests/dbg/tdfg.cmds tests/dbg/tdfg.out tests/dbg/tdfg_break.cmds tests/dbg/tdfg_break.out \
	tests/dbg/tdfg_check.cmds tests/dbg/tdfg_check.out tests/dbg/tdfg_reverse.cmds \
	tests/dbg/tdfg_reverse.out tests/dbg/tdfg_errors.cmds tests/dbg/tdfg_errors.out \
	tests/dbg/tdfg_plain.cmds tests/dbg/tdfg_plain.out tests/dbg/tdfg_all.cmds tests/dbg/tdfg_all.out tests/dbg/tdfg_stencil.cmds \
	tests/dbg/tdfg_stencil.out tests/dbg/tdfg_enter.in tests/dbg/ckpt_anywhere.ins \
	tests/dbg/ckpt_anywhere.cmds tests/dbg/ckpt_anywhere.out tests/dbg/bounds.cmds tests/dbg/bounds.out

check_PROGRAMS += tests/test_tui
tests_test_tui_SOURCES = tests/test_tui.c
tests_test_tui_CFLAGS = $(TEST_CFLAGS) -DINFSDB_BIN='"$(abs_top_builddir)/infsdb"' -DSRCDIR='"$(abs_top_srcdir)"'
tests_test_tui_LDADD = $(TEST_LIBS)

check_PROGRAMS += tests/test_teach
tests_test_teach_SOURCES = tests/test_teach.c
tests_test_teach_CFLAGS = $(TEST_CFLAGS) -DINFSDB_BIN='"$(abs_top_builddir)/infsdb"' -DINFSIM_BIN='"$(abs_top_builddir)/infsim"' -DSRCDIR='"$(abs_top_srcdir)"'
tests_test_teach_LDADD = $(TEST_LIBS)

# The long floating-point run (doc/FLOAT.md): not part of `make check`.
# make check-long FP_LONG_ARGS='--count 1000000 add.f32' picks a subset.
EXTRA_PROGRAMS += tests/fp_long
tests_fp_long_SOURCES = tests/fp_long.c
tests_fp_long_LDADD = tests/libharness.la libinfsim_core.la
CLEANFILES += tests/fp_long$(EXEEXT)
.PHONY: check-long
check-long: tests/fp_long$(EXEEXT)
	./tests/fp_long$(EXEEXT) $(FP_LONG_ARGS)
# Scripts: the include arrows of doc/ARCHITECTURE.md, and libinfsim
# installed into a staging folder and used from C and C++ by a program
# that sees only that folder.
TESTS += tests/check_layers.sh tests/staged_install.sh
EXTRA_DIST += tests/check_layers.sh tests/staged_install.sh
TEST_EXTENSIONS = .sh
SH_LOG_COMPILER = $(SHELL)
AM_TESTS_ENVIRONMENT = MAKE='$(MAKE)' CC='$(CC)' CXX='$(CXX)' \
	SAN_CFLAGS='$(SAN_CFLAGS)'; export MAKE CC CXX SAN_CFLAGS;

check_PROGRAMS += tests/test_vima
tests_test_vima_SOURCES = tests/test_vima.c
tests_test_vima_CFLAGS = $(TEST_CFLAGS) -DINFSIM_BIN='"$(abs_top_builddir)/infsim"' -DINFSDB_BIN='"$(abs_top_builddir)/infsdb"' -DSRCDIR='"$(abs_top_srcdir)"'
tests_test_vima_LDADD = $(TEST_LIBS)
