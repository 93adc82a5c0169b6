# SPDX-License-Identifier: MIT
# Test suites (Criterion).  Each is one program; `make check` runs them all.
check_LTLIBRARIES = tests/libharness.la
tests_libharness_la_SOURCES = tests/isa_harness.c tests/isa_harness.h \
	tests/proc.c tests/proc.h tests/handout.c tests/handout.h tests/stream_text.c tests/stream_text.h tests/infsim_run.h tests/fp_cases.c tests/fp_cases.h \
	tests/doc_replay.c tests/doc_replay.h \
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
tests_test_cli_SOURCES = tests/test_cli.c tests/stats_json.c tests/stats_json.h
tests_test_cli_CFLAGS = $(TEST_CFLAGS) -DINFSIM_BIN='"$(abs_top_builddir)/infsim"' -DSRCDIR='"$(abs_top_srcdir)"'
tests_test_cli_LDADD = $(TEST_LIBS) $(JSONC_LIBS)
check_PROGRAMS += tests/test_samples
tests_test_samples_SOURCES = tests/test_samples.c tests/stats_json.c tests/stats_json.h
tests_test_samples_CFLAGS = $(TEST_CFLAGS) -DINFSIM_BIN='"$(abs_top_builddir)/infsim"' -DSRCDIR='"$(abs_top_srcdir)"'
tests_test_samples_LDADD = $(TEST_LIBS) $(JSONC_LIBS)

check_PROGRAMS += tests/test_machine
tests_test_machine_SOURCES = tests/test_machine.c
tests_test_machine_CFLAGS = $(TEST_CFLAGS) -DSRCDIR='"$(abs_top_srcdir)"'
tests_test_machine_LDADD = $(TEST_LIBS)

# --check's fast paths against the slow ones (emu/ref, emu/check)
check_PROGRAMS += tests/test_refcheck
tests_test_refcheck_SOURCES = tests/test_refcheck.c
tests_test_refcheck_CFLAGS = $(TEST_CFLAGS)
tests_test_refcheck_LDADD = $(TEST_LIBS)

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

check_PROGRAMS += tests/test_tdfg_prog
tests_test_tdfg_prog_SOURCES = tests/test_tdfg_prog.c tests/stats_json.c tests/stats_json.h
tests_test_tdfg_prog_CFLAGS = $(TEST_CFLAGS) -DINFSIM_BIN='"$(abs_top_builddir)/infsim"' -DSRCDIR='"$(abs_top_srcdir)"'
tests_test_tdfg_prog_LDADD = $(TEST_LIBS) $(JSONC_LIBS)

check_PROGRAMS += tests/test_tile_pick
tests_test_tile_pick_SOURCES = tests/test_tile_pick.c
tests_test_tile_pick_CFLAGS = $(TEST_CFLAGS) -DSRCDIR='"$(abs_top_srcdir)"'
tests_test_tile_pick_LDADD = $(TEST_LIBS)

check_PROGRAMS += tests/test_jit_reduce
tests_test_jit_reduce_SOURCES = tests/test_jit_reduce.c
tests_test_jit_reduce_CFLAGS = $(TEST_CFLAGS)
tests_test_jit_reduce_LDADD = $(TEST_LIBS)

check_PROGRAMS += tests/test_dbg
tests_test_dbg_SOURCES = tests/test_dbg.c
tests_test_dbg_CFLAGS = $(TEST_CFLAGS) -DINFSDB_BIN='"$(abs_top_builddir)/infsdb"' -DSRCDIR='"$(abs_top_srcdir)"'
tests_test_dbg_LDADD = $(TEST_LIBS)
# Every transcript, its program and its data, as the source tree has them
# (a new one needs no line here).
dist-hook: dist-dbg-transcripts
.PHONY: dist-dbg-transcripts
dist-dbg-transcripts:
	$(MKDIR_P) $(distdir)/tests
	cp -pR $(srcdir)/tests/dbg $(distdir)/tests/
	chmod -R u+w $(distdir)/tests/dbg
EXTRA_DIST += tests/dbg/steps.ins tests/dbg/sourced.inc \
	tests/dbg/help.cmds tests/dbg/help.out tests/dbg/abbrev.cmds tests/dbg/abbrev.out \
	tests/dbg/run.cmds tests/dbg/run.out tests/dbg/break.cmds tests/dbg/break.out \
	tests/dbg/print.cmds tests/dbg/print.out tests/dbg/array.cmds tests/dbg/array.out \
	tests/dbg/display.cmds tests/dbg/display.out tests/dbg/check.cmds tests/dbg/check.out \
	tests/dbg/watch.cmds tests/dbg/watch.out tests/dbg/misc.cmds tests/dbg/misc.out \
	tests/dbg/reverse.cmds tests/dbg/reverse.out tests/dbg/reverse_snap.cmds tests/dbg/reverse_snap.out \
	tests/dbg/float.ins tests/dbg/float.cmds tests/dbg/float.out tests/dbg/watchf.cmds \
	tests/dbg/watchf.out tests/dbg/dd.ins tests/dbg/dd.cmds tests/dbg/dd.out \
	tests/dbg/move.cmds tests/dbg/move.out tests/dbg/movestep.cmds tests/dbg/movestep.out tests/dbg/tensor.ins tests/dbg/tensor.cmds \
	tests/dbg/tensor.out tests/dbg/tdfg_sum.tdfg \
	tests/dbg/tdfg.cmds tests/dbg/tdfg.out tests/dbg/tdfg_break.cmds tests/dbg/tdfg_break.out \
	tests/dbg/tdfg_check.cmds tests/dbg/tdfg_check.out tests/dbg/tdfg_reverse.cmds \
	tests/dbg/tdfg_reverse.out tests/dbg/tdfg_errors.cmds tests/dbg/tdfg_errors.out \
	tests/dbg/tdfg_plain.cmds tests/dbg/tdfg_plain.out tests/dbg/tdfg_all.cmds tests/dbg/tdfg_all.out tests/dbg/tdfg_stencil.cmds \
	tests/dbg/tdfg_stencil.out tests/dbg/tdfg_enter.in tests/dbg/ckpt_anywhere.ins \
	tests/dbg/ckpt_anywhere.cmds tests/dbg/ckpt_anywhere.out \
	tests/dbg/valid.cmds tests/dbg/valid.out tests/dbg/valid_diff.ins \
	tests/dbg/bounds.cmds tests/dbg/bounds.out \
	tests/dbg/gdb_break.cmds tests/dbg/gdb_break.out tests/dbg/gdb_cmds.cmds \
	tests/dbg/gdb_cmds.out tests/dbg/gdb_expr.cmds tests/dbg/gdb_expr.out \
	tests/dbg/gdb_tdfg.cmds tests/dbg/gdb_tdfg.out tests/dbg/gdb_script.cmds \
	tests/dbg/gdb_script.out tests/dbg/expect.cmds tests/dbg/expect.out \
	tests/dbg/grade.cmds tests/dbg/grade.out tests/dbg/expect_C.npy \
	tests/dbg/expect_C_wrong.npy tests/dbg/expect_D.npy \
	tests/dbg/tdfg_json.cmds tests/dbg/tdfg_json.out \
	tests/dbg/valid_load.cmds tests/dbg/valid_load.out tests/dbg/valid_load.ins \
	tests/dbg/valid_load.tdfg tests/dbg/valid_load_A.npy \
	tests/dbg/strm.cmds tests/dbg/strm.out \
	tests/dbg/tdfg_load.cmds tests/dbg/tdfg_load.out tests/dbg/load_opt.cmds \
	tests/dbg/load_opt.out tests/dbg/load_stream.cmds tests/dbg/load_stream.out \
	tests/dbg/load_A7.npy tests/dbg/strm_reverse.cmds tests/dbg/strm_reverse.out

check_PROGRAMS += tests/test_tui
tests_test_tui_SOURCES = tests/test_tui.c tests/tmux.c tests/tmux.h
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

check_PROGRAMS += tests/test_tdfg_json
tests_test_tdfg_json_SOURCES = tests/test_tdfg_json.c
tests_test_tdfg_json_CFLAGS = $(TEST_CFLAGS) -DINFSIM_BIN='"$(abs_top_builddir)/infsim"' -DSRCDIR='"$(abs_top_srcdir)"'
tests_test_tdfg_json_LDADD = $(TEST_LIBS)
EXTRA_DIST += tests/fuzz/fuzz_tdfg_json.c tests/fuzz/tdfg_json.dict \
	tests/data/json/cube3d_i32.json \
	tests/data/json/mix2d_f32.json \
	tests/data/json/mix2d_i32.json \
	tests/data/json/stencil1d_f32.json \
	tests/data/json/store_stream_affine.json \
	tests/data/json/store_stream_indirect.json \
	tests/data/json/bad/arity_add.json \
	tests/data/json/bad/arity_move.json \
	tests/data/json/bad/arity_value.json \
	tests/data/json/bad/box_empty.json \
	tests/data/json/bad/box_params.json \
	tests/data/json/bad/box_past.json \
	tests/data/json/bad/box_start.json \
	tests/data/json/bad/compute_none.json \
	tests/data/json/bad/compute_outside.json \
	tests/data/json/bad/compute_two.json \
	tests/data/json/bad/cycle.json \
	tests/data/json/bad/cycle_self.json \
	tests/data/json/bad/edge_dangling_dst.json \
	tests/data/json/bad/edge_dangling_src.json \
	tests/data/json/bad/edge_negative.json \
	tests/data/json/bad/edge_sync.json \
	tests/data/json/bad/edges_object.json \
	tests/data/json/bad/field_two_names.json \
	tests/data/json/bad/field_unknown.json \
	tests/data/json/bad/float_const_huge.json \
	tests/data/json/bad/float_const_i32.json \
	tests/data/json/bad/float_const_word.json \
	tests/data/json/bad/id_differs.json \
	tests/data/json/bad/id_huge.json \
	tests/data/json/bad/int_const_f32.json \
	tests/data/json/bad/int_const_huge.json \
	tests/data/json/bad/key_huge.json \
	tests/data/json/bad/key_word.json \
	tests/data/json/bad/kind_field_unknown.json \
	tests/data/json/bad/kind_missing.json \
	tests/data/json/bad/kind_two.json \
	tests/data/json/bad/move_extent.json \
	tests/data/json/bad/move_outside.json \
	tests/data/json/bad/move_reuse_align.json \
	tests/data/json/bad/move_two_dims.json \
	tests/data/json/bad/nodes_array.json \
	tests/data/json/bad/nodes_empty.json \
	tests/data/json/bad/nodes_missing.json \
	tests/data/json/bad/null_field.json \
	tests/data/json/bad/only_sync.json \
	tests/data/json/bad/op_number.json \
	tests/data/json/bad/op_object.json \
	tests/data/json/bad/op_unknown.json \
	tests/data/json/bad/params_many.json \
	tests/data/json/bad/pattern_missing.json \
	tests/data/json/bad/region_name_number.json \
	tests/data/json/bad/reuse_in_pattern.json \
	tests/data/json/bad/root_array.json \
	tests/data/json/bad/root_unknown.json \
	tests/data/json/bad/send_field_unknown.json \
	tests/data/json/bad/send_split_nonempty.json \
	tests/data/json/bad/send_tc_negative.json \
	tests/data/json/bad/size_missing.json \
	tests/data/json/bad/size_wrong.json \
	tests/data/json/bad/split_nonempty.json \
	tests/data/json/bad/start_huge.json \
	tests/data/json/bad/start_word.json \
	tests/data/json/bad/stride_bad.json \
	tests/data/json/bad/syntax_after.json \
	tests/data/json/bad/syntax_comma.json \
	tests/data/json/bad/syntax_deep.json \
	tests/data/json/bad/syntax_nul.json \
	tests/data/json/bad/syntax_token.json \
	tests/data/json/bad/syntax_truncated.json \
	tests/data/json/bad/tc_negative.json \
	tests/data/json/bad/tile_differs.json \
	tests/data/json/bad/tile_machine.json \
	tests/data/json/bad/tile_missing.json \
	tests/data/json/bad/tile_odd.json \
	tests/data/json/bad/tile_stride.json \
	tests/data/json/bad/vaddr_negative.json \
	tests/fuzz/corpus/tdfg_json/bad_cycle.json \
	tests/fuzz/corpus/tdfg_json/bad_int_const_huge.json \
	tests/fuzz/corpus/tdfg_json/bad_move_reuse_align.json \
	tests/fuzz/corpus/tdfg_json/bad_op_unknown.json \
	tests/fuzz/corpus/tdfg_json/bad_syntax_comma.json \
	tests/fuzz/corpus/tdfg_json/bad_tile_differs.json \
	tests/fuzz/corpus/tdfg_json/cube3d_i32.json \
	tests/fuzz/corpus/tdfg_json/mix2d_f32.json \
	tests/fuzz/corpus/tdfg_json/mix2d_i32.json \
	tests/fuzz/corpus/tdfg_json/proto3_numbers_stencil1d_f32.json \
	tests/fuzz/corpus/tdfg_json/proto3_printer_mix2d_i32.json \
	tests/fuzz/corpus/tdfg_json/small_add.json \
	tests/fuzz/corpus/tdfg_json/small_bcast.json \
	tests/fuzz/corpus/tdfg_json/small_shift.json \
	tests/fuzz/corpus/tdfg_json/stencil1d_f32.json

# Scripts: the include arrows of doc/ARCHITECTURE.md, and libinfsim
# installed into a staging folder and used from C and C++ by a program
# that sees only that folder.
TESTS += tests/check_layers.sh tests/staged_install.sh tests/check_spdx.sh tests/check_man.sh
EXTRA_DIST += tests/check_layers.sh tests/staged_install.sh tests/check_spdx.sh tests/check_man.sh
# bench/figures.py --quick: every figure drawn, the same twice (make figures)
TESTS += tests/check_figures.sh
EXTRA_DIST += tests/check_figures.sh
tests/check_figures.log: infsim$(EXEEXT) tests/ck_export$(EXEEXT)
TEST_EXTENSIONS = .sh
SH_LOG_COMPILER = $(SHELL)
# The suite runs many test processes at once, each with its Criterion
# workers, on few cores: libgomp's threads spinning while they wait for
# work would take the cores the other tests need (a test binary ran 9x
# slower so), so waiting threads sleep (doc/TESTING.md).
AM_TESTS_ENVIRONMENT = MAKE='$(MAKE)' CC='$(CC)' CXX='$(CXX)' \
	SAN_CFLAGS='$(SAN_CFLAGS)' OMP_WAIT_POLICY=passive; \
	export MAKE CC CXX SAN_CFLAGS OMP_WAIT_POLICY;

check_PROGRAMS += tests/test_vima
tests_test_vima_SOURCES = tests/test_vima.c
tests_test_vima_CFLAGS = $(TEST_CFLAGS) -DINFSIM_BIN='"$(abs_top_builddir)/infsim"' -DINFSDB_BIN='"$(abs_top_builddir)/infsdb"' -DSRCDIR='"$(abs_top_srcdir)"'
tests_test_vima_LDADD = $(TEST_LIBS)
check_PROGRAMS += tests/test_target_vima
tests_test_target_vima_SOURCES = tests/test_target_vima.c
tests_test_target_vima_CFLAGS = $(TEST_CFLAGS) -DSRCDIR='"$(abs_top_srcdir)"'
tests_test_target_vima_LDADD = $(TEST_LIBS)
check_PROGRAMS += tests/test_ar
tests_test_ar_SOURCES = tests/test_ar.c
tests_test_ar_CFLAGS = $(TEST_CFLAGS) -DINFSIM_BIN='"$(abs_top_builddir)/infsim"' \
	-DINFSDB_BIN='"$(abs_top_builddir)/infsdb"' -DSRCDIR='"$(abs_top_srcdir)"'
tests_test_ar_LDADD = $(TEST_LIBS)
check_PROGRAMS += tests/test_target_ar
tests_test_target_ar_SOURCES = tests/test_target_ar.c
tests_test_target_ar_CFLAGS = $(TEST_CFLAGS) -DSRCDIR='"$(abs_top_srcdir)"'
tests_test_target_ar_LDADD = $(TEST_LIBS)
# The libFuzzer target and its seeds (built by hand: see its header).
EXTRA_DIST += tests/dbg/ar_mac.cmds tests/dbg/ar_mac.out tests/dbg/ar_root.cmds \
	tests/dbg/ar_root.out tests/dbg/ar_load.cmds tests/dbg/ar_load.out tests/dbg/ar_A.npy \
	tests/dbg/ar_B.npy tests/dbg/ar_stats.cmds tests/dbg/ar_stats.out
EXTRA_DIST += tests/dbg/vima_watch.cmds tests/dbg/vima_watch.out tests/dbg/vima_t.vima \
	tests/dbg/vima_fault.cmds tests/dbg/vima_fault.out tests/dbg/vima_pf.vima \
	tests/dbg/vima_options.cmds tests/dbg/vima_options.out tests/dbg/vima_A.npy \
	tests/dbg/simt_div.cmds tests/dbg/simt_div.out tests/dbg/simt_div.simt \
	tests/dbg/simt_define.cmds tests/dbg/simt_define.out tests/dbg/tui_view.cmds \
	tests/dbg/tui_view.out tests/dbg/ptx_step.cmds tests/dbg/ptx_step.out \
	tests/dbg/ptx_cond.cmds tests/dbg/ptx_cond.out tests/dbg/ptx_x.npy
EXTRA_DIST += tests/fuzz/fuzz_ar.c tests/fuzz/corpus/ar/assign tests/fuzz/corpus/ar/backprop tests/fuzz/corpus/ar/bad_index tests/fuzz/corpus/ar/deadlock tests/fuzz/corpus/ar/lud tests/fuzz/corpus/ar/mac tests/fuzz/corpus/ar/mac_f32 tests/fuzz/corpus/ar/pagerank tests/fuzz/corpus/ar/rand_mac tests/fuzz/corpus/ar/rand_reduce tests/fuzz/corpus/ar/reduce tests/fuzz/corpus/ar/sgemm tests/fuzz/corpus/ar/spmv
check_PROGRAMS += tests/test_valid
tests_test_valid_SOURCES = tests/test_valid.c
tests_test_valid_CFLAGS = $(TEST_CFLAGS) -DINFSIM_BIN='"$(abs_top_builddir)/infsim"' \
	-DINFSDB_BIN='"$(abs_top_builddir)/infsdb"' -DSRCDIR='"$(abs_top_srcdir)"'
tests_test_valid_LDADD = $(TEST_LIBS)
check_PROGRAMS += tests/test_valid_jit
tests_test_valid_jit_SOURCES = tests/test_valid_jit.c
tests_test_valid_jit_CFLAGS = $(TEST_CFLAGS) -DINFSIM_BIN='"$(abs_top_builddir)/infsim"' \
	-DINFSDB_BIN='"$(abs_top_builddir)/infsdb"' -DSRCDIR='"$(abs_top_srcdir)"'
tests_test_valid_jit_LDADD = $(TEST_LIBS)

check_PROGRAMS += tests/test_tutorial_jit
tests_test_tutorial_jit_SOURCES = tests/test_tutorial_jit.c
tests_test_tutorial_jit_CFLAGS = $(TEST_CFLAGS) -DBUILDDIR='"$(abs_top_builddir)"' -DSRCDIR='"$(abs_top_srcdir)"'
tests_test_tutorial_jit_LDADD = $(TEST_LIBS)

check_PROGRAMS += tests/test_doc_tdfg
tests_test_doc_tdfg_SOURCES = tests/test_doc_tdfg.c
tests_test_doc_tdfg_CFLAGS = $(TEST_CFLAGS) -DBUILDDIR='"$(abs_top_builddir)"' -DSRCDIR='"$(abs_top_srcdir)"'
tests_test_doc_tdfg_LDADD = $(TEST_LIBS)

check_PROGRAMS += tests/test_doc_usage
tests_test_doc_usage_SOURCES = tests/test_doc_usage.c
tests_test_doc_usage_CFLAGS = $(TEST_CFLAGS) -DBUILDDIR='"$(abs_top_builddir)"' -DSRCDIR='"$(abs_top_srcdir)"'
tests_test_doc_usage_LDADD = $(TEST_LIBS)

# Injected allocation failures (doc/TESTING.md, "Injected failures"):
# infsim and infsdb built again with their own code's allocations routed
# through tests/alloc_fail.c, which fails the Nth one; test_allocfail
# runs them for each N over representative sessions.  They are not
# tests themselves: EXTRA_PROGRAMS, built before test_allocfail runs.
ALLOC_WRAP = -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup,--wrap=strndup
EXTRA_PROGRAMS += tests/infsim_af tests/infsdb_af
CLEANFILES += tests/infsim_af$(EXEEXT) tests/infsdb_af$(EXEEXT)
EXTRA_tests_test_allocfail_DEPENDENCIES = tests/infsim_af$(EXEEXT) tests/infsdb_af$(EXEEXT)
tests_infsim_af_SOURCES = $(infsim_SOURCES) tests/alloc_fail.c
tests_infsim_af_CFLAGS = $(AM_CFLAGS)
tests_infsim_af_LDFLAGS = $(AM_LDFLAGS) $(ALLOC_WRAP)
tests_infsim_af_LDADD = $(infsim_LDADD)
tests_infsdb_af_SOURCES = $(infsdb_SOURCES) tests/alloc_fail.c
tests_infsdb_af_CFLAGS = $(infsdb_CFLAGS)
tests_infsdb_af_LDFLAGS = $(AM_LDFLAGS) $(ALLOC_WRAP)
tests_infsdb_af_LDADD = $(infsdb_LDADD)
check_PROGRAMS += tests/test_allocfail
tests_test_allocfail_SOURCES = tests/test_allocfail.c
tests_test_allocfail_CFLAGS = $(TEST_CFLAGS) -DINFSIM_AF='"$(abs_top_builddir)/tests/infsim_af"' \
	-DINFSDB_AF='"$(abs_top_builddir)/tests/infsdb_af"' -DSRCDIR='"$(abs_top_srcdir)"'
tests_test_allocfail_LDADD = $(TEST_LIBS)
# The workloads of infinity-stream Table 3 (samples/workloads/) against
# the tDFG's reference and the plain C kernels of tests/kernels/.
check_LTLIBRARIES += tests/libkernels.la
tests_libkernels_la_SOURCES = tests/kernels/workloads.h tests/kernels/ops_f32.c \
	tests/kernels/ops_i32.c tests/kernels/cases.h tests/kernels/fill.c \
	tests/kernels/case_f32.c tests/kernels/case_i32.c tests/kernels/strm_kernels.h \
	tests/kernels/strm_kernels.c \
	tests/kernels/cuda/refs.h tests/kernels/cuda/refs.c tests/kernels/cuda/cases.h \
	tests/kernels/cuda/cases.c tests/kernels/cuda/export.c
tests_libkernels_la_CFLAGS = $(AM_CFLAGS)
EXTRA_DIST += tests/kernels/kernels.inc tests/kernels/cases.inc
check_PROGRAMS += tests/test_workloads
tests_test_workloads_SOURCES = tests/test_workloads.c
tests_test_workloads_CFLAGS = $(TEST_CFLAGS) -DINFSIM_BIN='"$(abs_top_builddir)/infsim"' -DSRCDIR='"$(abs_top_srcdir)"'
tests_test_workloads_LDADD = tests/libkernels.la $(TEST_LIBS)
# strm nodes (emu/tdfg/strm.c): gather_mlp and the split reduction.
check_PROGRAMS += tests/test_strm
tests_test_strm_SOURCES = tests/test_strm.c tests/stats_json.c tests/stats_json.h
tests_test_strm_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests -DINFSIM_BIN='"$(abs_top_builddir)/infsim"' -DSRCDIR='"$(abs_top_srcdir)"'
tests_test_strm_LDADD = tests/libkernels.la $(TEST_LIBS) $(JSONC_LIBS)
# --offload: regions near memory (emu/tdfg/strm.c, emu_near_exec; Eq. 2).
check_PROGRAMS += tests/test_offload
tests_test_offload_SOURCES = tests/test_offload.c tests/stats_json.c tests/stats_json.h
tests_test_offload_CFLAGS = $(TEST_CFLAGS) -DINFSIM_BIN='"$(abs_top_builddir)/infsim"' -DSRCDIR='"$(abs_top_srcdir)"'
tests_test_offload_LDADD = $(TEST_LIBS) $(JSONC_LIBS)
check_PROGRAMS += tests/test_paper_stats
tests_test_paper_stats_SOURCES = tests/test_paper_stats.c tests/stats_json.c tests/stats_json.h
tests_test_paper_stats_CFLAGS = $(TEST_CFLAGS) -DINFSIM_BIN='"$(abs_top_builddir)/infsim"' -DSRCDIR='"$(abs_top_srcdir)"'
tests_test_paper_stats_LDADD = $(TEST_LIBS) $(JSONC_LIBS)
check_PROGRAMS += tests/test_tui_target
tests_test_tui_target_SOURCES = tests/test_tui_target.c tests/tmux.c tests/tmux.h
tests_test_tui_target_CFLAGS = $(TEST_CFLAGS) -DINFSDB_BIN='"$(abs_top_builddir)/infsdb"' -DSRCDIR='"$(abs_top_srcdir)"'
tests_test_tui_target_LDADD = $(TEST_LIBS)
check_PROGRAMS += tests/test_target_simt
tests_test_target_simt_SOURCES = tests/test_target_simt.c
tests_test_target_simt_CFLAGS = $(TEST_CFLAGS) -DSRCDIR='"$(abs_top_srcdir)"'
tests_test_target_simt_LDADD = $(TEST_LIBS)
check_PROGRAMS += tests/test_simt
tests_test_simt_SOURCES = tests/test_simt.c
tests_test_simt_CFLAGS = $(TEST_CFLAGS) -DINFSIM_BIN='"$(abs_top_builddir)/infsim"' -DINFSDB_BIN='"$(abs_top_builddir)/infsdb"' -DSRCDIR='"$(abs_top_srcdir)"'
tests_test_simt_LDADD = $(TEST_LIBS)
check_PROGRAMS += tests/test_ptx
tests_test_ptx_SOURCES = tests/test_ptx.c
tests_test_ptx_CFLAGS = $(TEST_CFLAGS) -DSRCDIR='"$(abs_top_srcdir)"'
tests_test_ptx_LDADD = $(TEST_LIBS)
# clang 14's PTX of the test kernels, with their sources (gen.sh makes it)
EXTRA_DIST += tests/data/ptx/gen.sh tests/data/ptx/cuda.h tests/data/ptx/saxpy.cu tests/data/ptx/misc.cu \
	tests/data/ptx/ops.cu tests/data/ptx/mem.cu tests/data/ptx/warp.cu tests/data/ptx/vadd.cl \
	tests/data/ptx/saxpy.ptx tests/data/ptx/misc.ptx tests/data/ptx/ops.ptx tests/data/ptx/mem.ptx \
	tests/data/ptx/warp.ptx tests/data/ptx/vadd64.ptx tests/data/ptx/vadd32.ptx
# The PTX fuzz target and its seed corpus (tests/fuzz/local.mk)
EXTRA_DIST += tests/fuzz/fuzz_ptx.c tests/fuzz/corpus/ptx/saxpy.ptx tests/fuzz/corpus/ptx/misc.ptx \
	tests/fuzz/corpus/ptx/warp.ptx tests/fuzz/corpus/ptx/vadd32.ptx tests/fuzz/corpus/ptx/small_all.ptx \
	tests/fuzz/corpus/ptx/refused_tex.ptx tests/fuzz/corpus/ptx/runaway.ptx \
	tests/fuzz/corpus/ptx/votes.ptx tests/fuzz/corpus/ptx/approx.ptx tests/fuzz/corpus/ptx/vadd64_call.ptx \
	tests/fuzz/corpus/ptx/digits.ptx tests/fuzz/corpus/ptx/half.ptx tests/fuzz/corpus/ptx/ftz.ptx
check_PROGRAMS += tests/test_nsc
tests_test_nsc_SOURCES = tests/test_nsc.c
tests_test_nsc_CFLAGS = $(TEST_CFLAGS) -DINFSIM_BIN='"$(abs_top_builddir)/infsim"' -DSRCDIR='"$(abs_top_srcdir)"'
tests_test_nsc_LDADD = $(TEST_LIBS)
check_PROGRAMS += tests/test_block_exec
tests_test_block_exec_SOURCES = tests/test_block_exec.c
tests_test_block_exec_CFLAGS = $(TEST_CFLAGS)
tests_test_block_exec_LDADD = $(TEST_LIBS)
# infsdb on near-stream programs (dbg/nsc.c): transcripts and their files.
EXTRA_DIST += tests/dbg/nsc_streams.cmds tests/dbg/nsc_streams.out \
	tests/dbg/nsc_chase.cmds tests/dbg/nsc_chase.out tests/dbg/nsc_errors.cmds tests/dbg/nsc_errors.out \
	tests/dbg/nsc_usage.cmds tests/dbg/nsc_usage.out tests/dbg/nsc_alias.cmds tests/dbg/nsc_alias.out \
	tests/dbg/nsc_syncfree.cmds tests/dbg/nsc_syncfree.out tests/dbg/nsc_oob.nsc tests/dbg/nsc_index.npy \
	tests/dbg/nsc_found.npy tests/dbg/nsc_found_wrong.npy

check_PROGRAMS += tests/test_tdfg_param
tests_test_tdfg_param_SOURCES = tests/test_tdfg_param.c
tests_test_tdfg_param_CFLAGS = $(TEST_CFLAGS) -DINFSIM_BIN='"$(abs_top_builddir)/infsim"' -DSRCDIR='"$(abs_top_srcdir)"'
tests_test_tdfg_param_LDADD = $(TEST_LIBS)

check_PROGRAMS += tests/test_jit_direct
tests_test_jit_direct_SOURCES = tests/test_jit_direct.c
tests_test_jit_direct_CFLAGS = $(TEST_CFLAGS) -DSRCDIR='"$(abs_top_srcdir)"'
tests_test_jit_direct_LDADD = $(TEST_LIBS)
check_PROGRAMS += tests/test_far_shift
tests_test_far_shift_SOURCES = tests/test_far_shift.c
tests_test_far_shift_CFLAGS = $(TEST_CFLAGS)
tests_test_far_shift_LDADD = $(TEST_LIBS)

check_PROGRAMS += tests/test_mem
tests_test_mem_SOURCES = tests/test_mem.c
tests_test_mem_CFLAGS = $(TEST_CFLAGS)
tests_test_mem_LDADD = $(TEST_LIBS)

check_PROGRAMS += tests/test_stats_tree
tests_test_stats_tree_SOURCES = tests/test_stats_tree.c
tests_test_stats_tree_CFLAGS = $(TEST_CFLAGS) -DSRCDIR='"$(abs_top_srcdir)"'
tests_test_stats_tree_LDADD = $(TEST_LIBS) $(JSONC_LIBS)

check_PROGRAMS += tests/test_target_nsc
tests_test_target_nsc_SOURCES = tests/test_target_nsc.c
tests_test_target_nsc_CFLAGS = $(TEST_CFLAGS) -DSRCDIR='"$(abs_top_srcdir)"'
tests_test_target_nsc_LDADD = $(TEST_LIBS)

check_PROGRAMS += tests/test_targets
tests_test_targets_SOURCES = tests/test_targets.c tests/stats_json.c tests/stats_json.h
tests_test_targets_CFLAGS = $(TEST_CFLAGS) -DINFSIM_BIN='"$(abs_top_builddir)/infsim"' -DSRCDIR='"$(abs_top_srcdir)"' -DINFSDB_BIN='"$(abs_top_builddir)/infsdb"'
tests_test_targets_LDADD = $(TEST_LIBS) $(JSONC_LIBS)

check_PROGRAMS += tests/test_doc_dbg
tests_test_doc_dbg_SOURCES = tests/test_doc_dbg.c
tests_test_doc_dbg_CFLAGS = $(TEST_CFLAGS) -DINFSDB_BIN='"$(abs_top_builddir)/infsdb"' -DSRCDIR='"$(abs_top_srcdir)"'
tests_test_doc_dbg_LDADD = $(TEST_LIBS)

# The CUDA and OpenCL samples (doc/CUDA.md): their launch cases and plain
# C (tests/kernels/cuda/) checked on their own, then run on the PTX
# reference against that C.
check_PROGRAMS += tests/test_cuda_cases
tests_test_cuda_cases_SOURCES = tests/test_cuda_cases.c
tests_test_cuda_cases_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests -DSRCDIR='"$(abs_top_srcdir)"'
tests_test_cuda_cases_LDADD = tests/libkernels.la $(TEST_LIBS)
# Every CUDA and OpenCL sample's committed PTX on emu/ptx's reference,
# against the plain C of tests/kernels/cuda/.
check_PROGRAMS += tests/test_cuda_simt
tests_test_cuda_simt_SOURCES = tests/test_cuda_simt.c
tests_test_cuda_simt_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests -I$(top_srcdir)/emu/ptx -I$(top_srcdir)/emu/simt -DSRCDIR='"$(abs_top_srcdir)"' -DINFSIM_BIN='"$(abs_top_builddir)/infsim"'
tests_test_cuda_simt_LDADD = tests/libkernels.la $(TEST_LIBS)
# A case of tests/kernels/cuda/ as a launch text and .npy files for
# infsim run (doc/SIMT.md, "Fig 13 from the CUDA workloads"): make tests/ck_export
EXTRA_PROGRAMS += tests/ck_export
CLEANFILES += tests/ck_export$(EXEEXT)
tests_ck_export_SOURCES = tests/ck_export.c
tests_ck_export_CFLAGS = $(AM_CFLAGS) -I$(top_srcdir)/tests
tests_ck_export_LDADD = tests/libkernels.la libinfsim_core.la -lm
check_PROGRAMS += tests/test_cuda_kernels
tests_test_cuda_kernels_SOURCES = tests/test_cuda_kernels.c
tests_test_cuda_kernels_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests -I$(top_srcdir)/emu/ptx -DSRCDIR='"$(abs_top_srcdir)"'
tests_test_cuda_kernels_LDADD = tests/libkernels.la $(TEST_LIBS)
